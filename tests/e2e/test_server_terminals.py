"""Terminal sessions through the real server: create, send, read, list, close, notifications."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import psutil
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_and_analyse

DOC = """Check:

```bash
echo sent-from-block
```

Danger:

```bash
git reset --hard
```

```bash
rm -rf ~
```
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.output = []  # type: ignore[attr-defined]
    lsp_client.exits = []  # type: ignore[attr-defined]

    @lsp_client.feature("aintern/terminalOutput")
    def _out(params: Any) -> None:
        lsp_client.output.append((params.terminalId, params.data))  # type: ignore[attr-defined]

    @lsp_client.feature("aintern/terminalExit")
    def _exit(params: Any) -> None:
        lsp_client.exits.append(params.terminalId)  # type: ignore[attr-defined]

    ignore(lsp_client, "aintern/blockStatus")
    await initialize(lsp_client, tmp_path)
    lsp_client.uri = await open_and_analyse(lsp_client, tmp_path / "doc.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any] | None = None) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args or {}])
    )


async def _read_until(client: LanguageClient, tid: str, needle: str) -> list[str]:
    lines: list[str] = []
    for _ in range(100):
        lines = (await _cmd(client, "aintern.terminal.read", {"terminalId": tid}))["output"]
        if any(line.strip() == needle for line in lines):
            break
        await asyncio.sleep(0.1)
    return lines


async def test_create_send_read_list_close(client: LanguageClient, tmp_path: Path) -> None:
    created = await _cmd(client, "aintern.terminal.create", {"title": "t", "cwd": str(tmp_path)})
    tid = created["terminalId"]
    listed = (await _cmd(client, "aintern.terminal.list"))["terminals"]
    assert [t["terminalId"] for t in listed] == [tid]
    pid = listed[0]["pid"]
    assert await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": "echo hello"})
    lines = await _read_until(client, tid, "hello")
    assert "hello" in [line.strip() for line in lines]
    assert any(t == tid and "hello" in d for t, d in client.output)  # type: ignore[attr-defined]
    assert (
        await _cmd(client, "aintern.terminal.resize", {"terminalId": tid, "cols": 90, "rows": 20})
        is None
    )
    assert (await _cmd(client, "aintern.terminal.close", {"terminalId": tid}))["success"]
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert (await _cmd(client, "aintern.terminal.list"))["terminals"] == []


async def test_send_block_to_new_terminal(client: LanguageClient) -> None:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri))  # type: ignore[attr-defined]
    )
    ids = list(dict.fromkeys(lens.command.arguments[0]["blockId"] for lens in lenses or []))  # type: ignore[union-attr,index]
    sent = await _cmd(client, "aintern.sendToTerminal", {"uri": client.uri, "blockId": ids[0]})  # type: ignore[attr-defined]
    lines = await _read_until(client, sent["terminalId"], "sent-from-block")
    assert "sent-from-block" in [line.strip() for line in lines]
    try:
        await _cmd(
            client,
            "aintern.sendToTerminal",
            {"uri": client.uri, "blockId": ids[1], "terminalId": sent["terminalId"]},
        )  # type: ignore[attr-defined]
        raise AssertionError("dangerous block was sent with Enter")
    except Exception as exc:
        assert "confirmed" in str(exc)
    typed = await _cmd(
        client,
        "aintern.sendToTerminal",
        {"uri": client.uri, "blockId": ids[1], "terminalId": sent["terminalId"], "execute": False},  # type: ignore[attr-defined]
    )
    assert typed["terminalId"] == sent["terminalId"]
    try:
        await _cmd(
            client,
            "aintern.sendToTerminal",
            {"uri": client.uri, "blockId": ids[2], "execute": False},
        )  # type: ignore[attr-defined]
        raise AssertionError("blocked block was sent")
    except Exception as exc:
        assert "blocked" in str(exc)


async def test_unknown_terminal_is_a_clear_error(client: LanguageClient) -> None:
    try:
        await _cmd(client, "aintern.terminal.send", {"terminalId": "terminal-99", "text": "ls"})
        raise AssertionError("no error")
    except Exception as exc:
        assert "no terminal 'terminal-99'" in str(exc)


def _frame(obj: dict[str, Any]) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_client_disappearing_kills_terminal_shells(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(
        _frame(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}},
            }
        )
    )
    proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    proc.stdin.write(
        _frame(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "workspace/executeCommand",
                "params": {
                    "command": "aintern.terminal.create",
                    "arguments": [{"cwd": str(tmp_path)}],
                },
            }
        )
    )
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    children: list[psutil.Process] = []
    while time.monotonic() < deadline:
        children = psutil.Process(proc.pid).children(recursive=True)
        if children:
            break
        time.sleep(0.1)
    assert children, "no shell started"
    time.sleep(1)
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.stdin.close()  # the editor went away without shutdown/exit
    proc.wait(timeout=30)
    _, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, alive


def test_sigterm_to_the_server_kills_terminal_shells(tmp_path: Path) -> None:
    import signal

    proc = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}},
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "aintern.terminal.create", "arguments": [{"cwd": str(tmp_path)}]},
        },
    ):
        proc.stdin.write(_frame(message))
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    children: list[psutil.Process] = []
    while time.monotonic() < deadline and not children:
        children = psutil.Process(proc.pid).children(recursive=True)
        time.sleep(0.1)
    assert children, "no shell started"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    proc.stdin.close()
    proc.stdout.close()  # type: ignore[union-attr]
    _, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, alive
