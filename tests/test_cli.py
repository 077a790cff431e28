"""The CLI entry points: version, help, logging never on stdout, serve lifecycle."""

from __future__ import annotations

import json
import subprocess
import sys

from aintern_ls import __version__

CLI = [sys.executable, "-m", "aintern_ls"]


def _lsp_message(obj: dict[str, object]) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_version_flag_prints_version() -> None:
    out = subprocess.run([*CLI, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"aintern-ls {__version__}"


def test_console_script_module_entry_matches() -> None:
    from aintern_ls.__main__ import main

    assert callable(main)


def test_serve_stdio_speaks_only_lsp_on_stdout(tmp_path: object) -> None:
    """Verbose logs go to stderr; stdout carries nothing but framed LSP messages."""
    messages = b"".join(
        _lsp_message(m)
        for m in (
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}},
            },
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
            {"jsonrpc": "2.0", "method": "exit", "params": None},
        )
    )
    proc = subprocess.run(
        [*CLI, "-vv", "serve", "--stdio"], input=messages, capture_output=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout
    assert out.startswith(b"Content-Length: ")
    bodies = []
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        fields = dict(line.split(b": ", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        bodies.append(json.loads(rest[:length]))
        out = rest[length:]
    assert [b.get("id") for b in bodies] == [1, 2]
    assert bodies[0]["result"]["serverInfo"]["name"] == "aintern-ls"
    assert b"client initialized" in proc.stderr


def test_serve_exits_when_client_closes_stdin() -> None:
    proc = subprocess.run([*CLI, "--stdio"], input=b"", capture_output=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == b""


def test_log_file_receives_logs(tmp_path: object) -> None:
    from pathlib import Path

    log = Path(str(tmp_path)) / "ls.log"
    init = _lsp_message(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}},
        }
    )
    note = _lsp_message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    proc = subprocess.run(
        [*CLI, "-v", "--log-file", str(log), "--stdio"],
        input=init + note,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "client initialized" in log.read_text()
    assert b"client initialized" not in proc.stderr


def test_bad_tcp_address_is_a_clear_error() -> None:
    proc = subprocess.run([*CLI, "serve", "--tcp", "nonsense"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "HOST:PORT" in proc.stderr
    assert "Traceback" not in proc.stderr
