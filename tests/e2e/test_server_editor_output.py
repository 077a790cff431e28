"""What the editors need to show a run where the user looks, through the real server:
a run's output while it runs and after (`aintern.runOutput`), output the editor
captured itself cleaned like any capture (`aintern.captureText`), one terminal per
document for Sends, and a dangerous Send that asks like Run does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_markdown

FAKE_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"

DOC = """# Output

```bash
for i in 1 2 3 4 5 6; do echo "tick-$i"; sleep 0.3; done; printf '\\033[32mgreen\\033[0m\\n'
```

```bash
echo sent-one
```

```bash
rm -rf ./build
```
"""

CAPS = types.ClientCapabilities(
    window=types.WindowClientCapabilities(show_message=types.ShowMessageRequestClientCapabilities())
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.answers = []  # type: ignore[attr-defined]
    lsp_client.asked = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def _ask(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        lsp_client.asked.append(params.message)  # type: ignore[attr-defined]
        answer = lsp_client.answers.pop(0) if lsp_client.answers else None  # type: ignore[attr-defined]
        return types.MessageActionItem(title=answer) if answer else None

    ignore(lsp_client, "aintern/terminalOutput", "aintern/terminalExit", "aintern/blockStatus")
    await initialize(lsp_client, tmp_path, CAPS)
    lsp_client.uri = open_markdown(lsp_client, tmp_path / "out.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _exec(client: LanguageClient, method: str, **args: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=method, arguments=[args])
    )


async def _ids(client: LanguageClient) -> list[str]:
    for _ in range(50):
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri))  # type: ignore[attr-defined]
        )
        ids = list(dict.fromkeys(lens.command.arguments[0]["blockId"] for lens in lenses or []))  # type: ignore[union-attr,index]
        if len(ids) == 3:
            return ids
        await asyncio.sleep(0.1)
    raise AssertionError("no lenses")


async def test_run_output_streams_then_holds_the_result(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    ids = await _ids(client)
    before = await _exec(client, "aintern.runOutput", uri=uri, blockId=ids[0])
    assert before["running"] is False and before["text"] is None
    run = asyncio.ensure_future(_exec(client, "aintern.run", uri=uri, blockId=ids[0]))
    partial = None
    for _ in range(100):
        out = await _exec(client, "aintern.runOutput", uri=uri, blockId=ids[0])
        if out["running"] and "tick-2" in out["text"]:
            partial = out
            break
        await asyncio.sleep(0.05)
    assert partial is not None, "no live output while the run was going"
    assert "tick-6" not in partial["text"]
    result = await run
    after = await _exec(client, "aintern.runOutput", uri=uri, blockId=ids[0])
    assert after["running"] is False
    assert after["exitCode"] == 0 and after["captureId"] == result["captureId"]
    assert after["text"].splitlines() == [f"tick-{i}" for i in range(1, 7)] + ["green"]
    capture = await _exec(client, "aintern.capture", captureId=result["captureId"])
    assert "tick-6" in capture["contextString"]


async def test_capture_text_is_rendered_redacted_and_kept(client: LanguageClient) -> None:
    raw = f"\x1b]633;C\x07\x1b[31mred\x1b[0m\r\n10%\r100%\r\nGITHUB_TOKEN={FAKE_TOKEN}\r\n"
    cap = await _exec(
        client, "aintern.captureText", text=raw, command="make", exitCode=2, name="bash"
    )
    assert cap["exitCode"] == 2 and cap["command"] == "make"
    assert cap["output"].splitlines()[:2] == ["red", "100%"]
    assert FAKE_TOKEN not in cap["output"] and cap["redactionCount"] == 1
    again = await _exec(client, "aintern.capture", captureId=cap["id"])
    assert again["output"] == cap["output"]
    with pytest.raises(Exception, match="invalid arguments"):
        await _exec(client, "aintern.captureText", command="no text")


async def test_sends_of_a_document_share_one_terminal_and_dangerous_send_asks(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    ids = await _ids(client)
    first = await _exec(client, "aintern.sendToTerminal", uri=uri, blockId=ids[1])
    second = await _exec(client, "aintern.sendToTerminal", uri=uri, blockId=ids[1])
    assert first["terminalId"] == second["terminalId"]
    listed = (await _exec(client, "aintern.terminal.list"))["terminals"]
    assert len(listed) == 1
    (tmp_path / "build").mkdir()
    client.answers.append("Cancel")  # type: ignore[attr-defined]
    declined = await _exec(client, "aintern.sendToTerminal", uri=uri, blockId=ids[2])
    assert declined["declined"] is True and declined["terminalId"] is None
    assert "rm" in client.asked[-1]  # type: ignore[attr-defined]
    client.answers.append("Run anyway")  # type: ignore[attr-defined]
    sent = await _exec(client, "aintern.sendToTerminal", uri=uri, blockId=ids[2])
    assert sent["terminalId"] == first["terminalId"]
    for _ in range(100):
        if not (tmp_path / "build").exists():
            break
        await asyncio.sleep(0.1)
    assert not (tmp_path / "build").exists()
    await _exec(client, "aintern.terminal.close", terminalId=first["terminalId"])
    third = await _exec(client, "aintern.sendToTerminal", uri=uri, blockId=ids[1])
    assert third["terminalId"] != first["terminalId"]
    await _exec(client, "aintern.terminal.close", terminalId=third["terminalId"])


async def test_check_and_run_a_command_that_is_not_a_fence(
    client: LanguageClient, tmp_path: Path
) -> None:
    safe = await _exec(client, "aintern.checkCommand", command="echo hi")
    assert safe["level"] == "safe"
    blocked = await _exec(client, "aintern.checkCommand", command="rm -rf /")
    assert blocked["level"] == "blocked" and blocked["findings"][0]["rule"]
    ran = await _exec(
        client, "aintern.runCommand", command="echo tool-ran; exit 3", cwd=str(tmp_path)
    )
    assert ran["exitCode"] == 3 and ran["output"].strip() == "tool-ran"
    capture = await _exec(client, "aintern.capture", captureId=ran["captureId"])
    assert "tool-ran" in capture["output"]
    with pytest.raises(Exception, match="blocked"):
        await _exec(client, "aintern.runCommand", command="rm -rf /")
    assert client.asked == []  # type: ignore[attr-defined]
    (tmp_path / "build").mkdir()
    client.answers.append("Cancel")  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="declined"):
        await _exec(client, "aintern.runCommand", command="rm -rf ./build", cwd=str(tmp_path))
    assert (tmp_path / "build").exists()
    done = await _exec(
        client, "aintern.runCommand", command="rm -rf ./build", cwd=str(tmp_path), confirmed=True
    )
    assert done["exitCode"] == 0 and not (tmp_path / "build").exists()


async def test_a_prompt_of_a_running_block_is_answered(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    doc = "```bash\nread -p 'name? ' name; echo \"hello $name\"\n```\n"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=doc)],
        )
    )
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    block_id = lenses[0].command.arguments[0]["blockId"]  # type: ignore[index,union-attr]
    with pytest.raises(Exception, match="not running"):
        await _exec(client, "aintern.run.input", uri=uri, blockId=block_id, text="x")
    run = asyncio.ensure_future(_exec(client, "aintern.run", uri=uri, blockId=block_id))
    for _ in range(100):
        out = await _exec(client, "aintern.runOutput", uri=uri, blockId=block_id)
        if out["running"] and "name?" in out["text"]:
            break
        await asyncio.sleep(0.05)
    answered = await _exec(client, "aintern.run.input", uri=uri, blockId=block_id, text="Ada")
    assert answered == {"sent": True}
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0 and "hello Ada" in result["output"]
