"""Captures for the AI panel through the real server, from a real terminal session."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize

FAKE_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    ignore(lsp_client, "aintern/terminalOutput")
    await initialize(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any] | None = None) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args or {}])
    )


async def _terminal_with_command(client: LanguageClient, tmp_path: Path) -> str:
    tid: str = (await _cmd(client, "aintern.terminal.create", {"cwd": str(tmp_path)}))["terminalId"]
    await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": "echo first"})
    script = (
        "printf '\\033[31mred\\033[0m\\n'; for i in 10 50 100; do printf '\\r%s%%' $i; done; "
        f"echo; echo GITHUB_TOKEN={FAKE_TOKEN}; false"
    )
    await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": script})
    for _ in range(100):
        listed = (await _cmd(client, "aintern.terminal.list"))["terminals"]
        if listed[0]["lastExitCode"] == 1:
            break
        await asyncio.sleep(0.1)
    return tid


async def test_last_command_capture_is_clean_and_redacted(
    client: LanguageClient, tmp_path: Path
) -> None:
    tid = await _terminal_with_command(client, tmp_path)
    cap = await _cmd(client, "aintern.capture", {"terminalId": tid, "mode": "lastCommand"})
    assert cap["captureMode"] == "lastCommand"
    assert cap["exitCode"] == 1
    assert cap["command"].startswith("printf")
    out = cap["output"]
    assert "\x1b" not in out
    assert out.splitlines()[:2] == ["red", "100%"]
    assert FAKE_TOKEN not in out and "REDACTED" in out
    assert cap["redactionCount"] == 1
    assert "first" not in out
    ctx = cap["contextString"]
    assert ctx.startswith("```terminal\n") and "# Exit code: 1" in ctx
    assert cap["estimatedTokens"] > 0


async def test_buffer_modes_and_budgets(client: LanguageClient, tmp_path: Path) -> None:
    tid = await _terminal_with_command(client, tmp_path)
    full = await _cmd(client, "aintern.capture", {"terminalId": tid, "mode": "fullBuffer"})
    assert "first" in full["output"] and FAKE_TOKEN not in full["output"]
    last = await _cmd(
        client, "aintern.capture", {"terminalId": tid, "mode": "lastNLines", "lineCount": 2}
    )
    assert len(last["output"].splitlines()) <= 2
    sel = await _cmd(
        client,
        "aintern.capture",
        {"terminalId": tid, "mode": "selection", "selection": "error: \x1b[1mboom\x1b[0m"},
    )
    assert sel["output"] == "error: boom"
    small = await _cmd(
        client,
        "aintern.capture",
        {"terminalId": tid, "mode": "fullBuffer", "maxCharacters": 20, "truncation": "keepEnd"},
    )
    assert small["isTruncated"] is True
    assert "truncated" in small["output"]


async def test_manual_capture_collects_between_start_and_stop(
    client: LanguageClient, tmp_path: Path
) -> None:
    tid = (await _cmd(client, "aintern.terminal.create", {"cwd": str(tmp_path)}))["terminalId"]
    await _cmd(client, "aintern.captureStart", {"terminalId": tid})
    await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": "echo inside"})
    for _ in range(50):
        lines = (await _cmd(client, "aintern.terminal.read", {"terminalId": tid}))["output"]
        if "inside" in [line.strip() for line in lines]:
            break
        await asyncio.sleep(0.1)
    cap = await _cmd(client, "aintern.captureStop", {"terminalId": tid})
    assert cap["captureMode"] == "manual"
    assert "inside" in cap["output"]
    with pytest.raises(Exception, match="no capture running"):
        await _cmd(client, "aintern.captureStop", {"terminalId": tid})


async def test_capture_without_terminal_is_a_clear_error(client: LanguageClient) -> None:
    with pytest.raises(Exception, match="no terminal to capture"):
        await _cmd(client, "aintern.capture", {"mode": "fullBuffer"})
    with pytest.raises(Exception, match="invalid arguments"):
        await _cmd(client, "aintern.capture", {"mode": "everything"})
