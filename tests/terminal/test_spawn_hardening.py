"""Issue 13, break 1: a command, env or cwd that `execve`/`chdir` reject must never leave
the forked child running on as a second copy of the server. Everything is refused before
any fork with a clear error, and the fork path itself ends any failing child with
`os._exit`."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import psutil
import pytest

from aintern_ls.errors import AInternError
from aintern_ls.terminal import pty as pty_module
from aintern_ls.terminal.pty import SpawnArgumentError, spawn_pty
from aintern_ls.terminal.runner import RunRequest, run_command
from aintern_ls.terminal.session import TerminalManager

from .wire import WireServer


@pytest.mark.parametrize(
    ("request_", "named"),
    [
        (RunRequest("echo a\0b"), "the command contains a NUL byte"),
        (RunRequest("echo ok", env={"A=B": "x"}), "contains '='"),
        (RunRequest("echo ok", env={"GOOD": "x\0y"}), "value of environment variable GOOD"),
        (RunRequest("echo ok", env={"": "x"}), "is empty"),
        (RunRequest("echo ok", cwd="/tmp\0/x"), "the working directory contains a NUL"),
        (RunRequest("echo \ud800"), r"U\+D800"),
    ],
)
async def test_bad_command_env_or_cwd_is_refused_before_any_fork(
    request_: RunRequest, named: str
) -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with pytest.raises(SpawnArgumentError, match=named):
        await run_command(request_)
    after = {p.pid for p in psutil.Process().children(recursive=True)}
    assert after <= before


def test_spawn_pty_validates_argv_env_and_cwd() -> None:
    with pytest.raises(SpawnArgumentError, match="argument 1"):
        spawn_pty(["/bin/sh", "-c\0"], "/", {})
    with pytest.raises(SpawnArgumentError, match="contains '='"):
        spawn_pty(["/bin/sh"], "/", {"X=Y": "1"})
    with pytest.raises(SpawnArgumentError, match="empty"):
        spawn_pty([], "/", {})


def test_a_child_whose_exec_raises_anything_exits_instead_of_returning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With validation switched off, execve's ValueError happens in the child: the fork
    path must turn it into an error here and end the child, not return into pytest."""
    monkeypatch.setattr(pty_module, "validate_spawn", lambda *a: None)
    witness = tmp_path / "second-copy"
    me = os.getpid()
    try:
        with pytest.raises(AInternError, match="ValueError"):
            pty_module._fork_exec(["/bin/sh", "-c", "echo \0"], "/", {}, 80, 24, None)
    finally:
        if os.getpid() != me:  # we are the forked child: leave a trace and vanish
            witness.write_text("the child returned into the caller")
            os._exit(0)
    assert not witness.exists()
    assert not [p for p in psutil.Process().children() if p.status() != "zombie"]
    # chdir failing in the child (a FileNotFoundError) is reported the same way.
    with pytest.raises(OSError, match="No such file"):
        pty_module._fork_exec(["/bin/sh", "-c", "true"], str(tmp_path / "gone"), {}, 80, 24, None)


async def test_a_session_with_a_bad_env_is_refused_and_leaves_no_temp_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    manager = TerminalManager()
    with pytest.raises(SpawnArgumentError, match="contains '='"):
        await manager.create(shell="bash", env={"A=B": "1"})
    assert len(manager) == 0
    assert list(tmp_path.iterdir()) == []


# -- through the real server over stdio --------------------------------------------------


def _nul_fence_doc() -> str:
    fence = json.dumps({"command": "echo before\u0000after"})
    return f"# Doc\n\n```execute\n{fence}\n```\n\n```bash\necho still-here\n```\n"


def test_a_nul_in_an_execute_fence_gets_a_clear_error_and_no_second_server(
    tmp_path: Path,
) -> None:
    server = WireServer(tmp_path)
    try:
        server.initialize(tmp_path, {"historyPath": str(tmp_path / "h.db")})
        terminal = server.request(
            "workspace/executeCommand",
            {"command": "aintern.terminal.create", "arguments": [{"shell": "bash"}]},
        )
        terminal_id = terminal["result"]["terminalId"]
        doc = tmp_path / "doc.md"
        text = _nul_fence_doc()
        doc.write_text(text)
        uri = doc.as_uri()
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        lenses = server.request("textDocument/codeLens", {"textDocument": {"uri": uri}})["result"]
        ids = []
        for lens in lenses:
            block_id = lens["command"]["arguments"][0]["blockId"]
            if block_id not in ids:
                ids.append(block_id)
        assert len(ids) == 2
        server_proc = psutil.Process(server.proc.pid)
        children_before = {p.pid for p in server_proc.children()}

        answer = server.request(
            "workspace/executeCommand",
            {
                "command": "aintern.run",
                "arguments": [{"uri": uri, "blockId": ids[0], "confirmed": True}],
            },
        )
        assert "error" in answer, answer
        assert "NUL" in answer["error"]["message"]
        # Nothing new runs under the server: no forked copy of it.
        assert {p.pid for p in server_proc.children()} <= children_before
        for proc in server_proc.children(recursive=True):
            assert "aintern_ls" not in " ".join(proc.cmdline()), proc.cmdline()

        # An env name with '=' through aintern.run's env argument: the same clear error.
        answer = server.request(
            "workspace/executeCommand",
            {
                "command": "aintern.run",
                "arguments": [
                    {"uri": uri, "blockId": ids[1], "confirmed": True, "env": {"A=B": "x"}}
                ],
            },
        )
        assert "error" in answer, answer
        assert "'='" in answer["error"]["message"] or "=" in answer["error"]["message"]

        # The server still works, its terminal survived, and a normal run has no LSP frames.
        ok = server.request(
            "workspace/executeCommand",
            {
                "command": "aintern.run",
                "arguments": [{"uri": uri, "blockId": ids[1], "confirmed": True}],
            },
        )
        assert ok["result"]["exitCode"] == 0, ok
        assert "still-here" in ok["result"]["output"]
        assert "Content-Length" not in ok["result"]["output"]
        listed = server.request(
            "workspace/executeCommand", {"command": "aintern.terminal.list", "arguments": [{}]}
        )["result"]["terminals"]
        assert [t["terminalId"] for t in listed if t["alive"]] == [terminal_id]
    finally:
        assert server.close() == 0


def test_a_nul_through_terminal_create_cwd_is_a_clear_error(tmp_path: Path) -> None:
    server = WireServer(tmp_path)
    try:
        server.initialize(tmp_path, {"historyPath": str(tmp_path / "h.db")})
        answer = server.request(
            "workspace/executeCommand",
            {"command": "aintern.terminal.create", "arguments": [{"cwd": "/tmp\u0000x"}]},
        )
        assert "NUL" in answer["error"]["message"], answer
        assert psutil.Process(server.proc.pid).children() == []
    finally:
        assert server.close() == 0


async def test_runs_and_sessions_still_start_after_the_change() -> None:
    result = await run_command(RunRequest("echo $((6*7)); yes | head -n 2"))
    assert result.exit_code == 0
    assert result.output.split() == ["42", "y", "y"]
    await asyncio.sleep(0)


def test_the_cli_run_refuses_a_nul_in_a_fence_clearly(tmp_path: Path) -> None:
    import subprocess
    import sys

    doc = tmp_path / "doc.md"
    doc.write_text(_nul_fence_doc())
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--yes"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "NUL" in proc.stderr
    assert "Content-Length" not in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_children_get_default_signal_handling_even_if_the_server_ignores_sigint() -> None:
    """A server started in the background (SIGINT ignored) must not hand that on: Ctrl-C
    in a terminal and interrupt must still stop the job."""
    import signal
    import subprocess
    import sys

    script = (
        "import asyncio, signal\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "from aintern_ls.terminal.runner import RunRequest, run_command\n"
        "cmd = \"grep -E '^(SigIgn|SigBlk)' /proc/self/status\"\n"
        "r = asyncio.run(run_command(RunRequest(cmd)))\n"
        "print(r.output)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    masks = dict(line.split(":\t") for line in out.strip().splitlines())
    ignored = int(masks["SigIgn"], 16)
    assert not ignored & (1 << (signal.SIGINT - 1)), out
    assert not ignored & (1 << (signal.SIGPIPE - 1)), out
    assert int(masks["SigBlk"], 16) == 0, out


async def test_answering_a_run_with_a_lone_surrogate_is_a_clear_error() -> None:
    from aintern_ls.terminal.runner import RunningCommand

    running = RunningCommand(RunRequest("read -r x; echo got-$x", timeout_seconds=30))
    running.start()
    with pytest.raises(AInternError, match=r"U\+D800"):
        running.write("\ud800\r")
    running.write("ok\r")
    result = await running.wait()
    assert result.exit_code == 0 and "got-ok" in result.output
