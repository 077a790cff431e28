"""`aintern/terminalCommand`: a terminal command's end, after its output, before the prompt.

Editors show the exit code of a command sent to a terminal (a line in the terminal, the
exit on the fence's lens) from this notification; it must come after the command's
last output so that line lands in the right place.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.events = []  # type: ignore[attr-defined]

    @lsp_client.feature("aintern/terminalOutput")
    def _out(params: Any) -> None:
        lsp_client.events.append(("output", params.data))  # type: ignore[attr-defined]

    @lsp_client.feature("aintern/terminalCommand")
    def _command(params: Any) -> None:
        lsp_client.events.append(("command", params))  # type: ignore[attr-defined]

    ignore(lsp_client, "aintern/terminalExit")
    await initialize(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any]) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def test_terminal_command_reports_exit_after_output(
    client: LanguageClient, tmp_path: Path
) -> None:
    created = await _cmd(client, "aintern.terminal.create", {"shell": "bash", "cwd": str(tmp_path)})
    tid = created["terminalId"]
    events: list[tuple[str, Any]] = client.events  # type: ignore[attr-defined]
    await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": "echo one-two; false"})

    async def ended() -> Any:
        while True:
            for kind, params in events:
                if kind == "command" and "one-two" in params.commandLine:
                    return params
            await asyncio.sleep(0.05)

    params = await asyncio.wait_for(ended(), 20)
    assert params.terminalId == tid
    assert params.exitCode == 1
    assert params.cwd == str(tmp_path)
    index = next(i for i, (k, p) in enumerate(events) if k == "command" and p is params)
    before = "".join(p for k, p in events[:index] if k == "output")
    assert "one-two\r\n" in before.split("echo one-two")[-1], before
    await _cmd(client, "aintern.terminal.send", {"terminalId": tid, "text": "true"})

    async def second() -> Any:
        while True:
            done = [p for k, p in events if k == "command" and p.commandLine.strip() == "true"]
            if done:
                return done[0]
            await asyncio.sleep(0.05)

    assert (await asyncio.wait_for(second(), 20)).exitCode == 0
    await _cmd(client, "aintern.terminal.close", {"terminalId": tid})


async def test_send_creates_the_terminal_at_the_editor_window_size(
    client: LanguageClient, tmp_path: Path
) -> None:
    """The first command of a new terminal already sees the size of the window the
    editor opened for it (no race with a resize sent afterwards)."""
    doc = tmp_path / "size.md"
    text = "```bash\nstty size\n```\n"
    doc.write_text(text)
    uri = doc.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=text
            )
        )
    )
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    block_id = lenses[0].command.arguments[0]["blockId"]  # type: ignore[union-attr,index]
    sent = await _cmd(
        client,
        "aintern.sendToTerminal",
        {"uri": uri, "blockId": block_id, "cols": 77, "rows": 11},
    )
    events: list[tuple[str, Any]] = client.events  # type: ignore[attr-defined]

    async def ended() -> str:
        while True:
            if any(k == "command" and "stty size" in p.commandLine for k, p in events):
                return "".join(p for k, p in events if k == "output")
            await asyncio.sleep(0.05)

    output = await asyncio.wait_for(ended(), 20)
    assert "11 77" in output, output
    await _cmd(client, "aintern.terminal.close", {"terminalId": sent["terminalId"]})
