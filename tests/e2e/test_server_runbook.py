"""The real server over stdio: console fences as checks (drift diagnostic and hover
diff after a run) and placeholder hints."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_and_analyse

DOC = """# Checks

```console
$ echo still right
still right
```

```console
$ echo new output
old output
```

```bash
curl -H "Authorization: Bearer <your-token>" https://api.example.invalid
```
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    ignore(lsp_client, "aintern/blockStatus")
    caps = types.ClientCapabilities(experimental={"aintern": {"promptValues": True}})
    await initialize(lsp_client, tmp_path, caps)
    lsp_client.uri = await open_and_analyse(lsp_client, tmp_path / "checks.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _ids(client: LanguageClient) -> list[str]:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri))  # type: ignore[attr-defined]
    )
    ids: list[str] = []
    for lens in lenses or []:
        assert lens.command is not None
        block_id = lens.command.arguments[0]["blockId"]  # type: ignore[index]
        if block_id not in ids:
            ids.append(block_id)
    return ids


def _diags(client: LanguageClient, code: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics[client.uri] if d.code == code]  # type: ignore[attr-defined]


async def _run(client: LanguageClient, block_id: str) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="aintern.run",
            arguments=[{"uri": client.uri, "blockId": block_id}],  # type: ignore[attr-defined]
        )
    )


async def _drift_soon(client: LanguageClient, count: int) -> list[types.Diagnostic]:
    for _ in range(100):
        found = _diags(client, "output-drift")
        if len(found) == count:
            return found
        await asyncio.sleep(0.05)
    return _diags(client, "output-drift")


async def test_placeholder_is_a_hint(client: LanguageClient) -> None:
    [hint] = _diags(client, "placeholder")
    assert hint.severity == types.DiagnosticSeverity.Hint
    assert hint.range.start.line == 13
    assert "your-token" in hint.message


async def test_console_fence_whose_output_changed_gets_the_drift_diagnostic(
    client: LanguageClient,
) -> None:
    held, drifted, _ = await _ids(client)
    assert _diags(client, "output-drift") == []
    result = await _run(client, held)
    assert result["exitCode"] == 0
    assert await _drift_soon(client, 0) == []
    result = await _run(client, drifted)
    assert result["exitCode"] == 0
    [drift] = await _drift_soon(client, 1)
    assert drift.severity == types.DiagnosticSeverity.Warning
    assert drift.range.start.line == 7
    assert drift.data == {"blockId": drifted}
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=client.uri),  # type: ignore[attr-defined]
            position=types.Position(line=8, character=3),
        )
    )
    assert hover is not None
    text = hover.contents.value  # type: ignore[union-attr]
    assert "-old output" in text and "+new output" in text


async def _actions(client: LanguageClient, line: int) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=client.uri),  # type: ignore[attr-defined]
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=0),
            ),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def _apply(client: LanguageClient, text: str, action: types.CodeAction, version: int) -> str:
    assert action.edit is not None and action.edit.changes is not None
    [edit] = action.edit.changes[client.uri]  # type: ignore[attr-defined]
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        return sum(len(line) + 1 for line in lines[: position.line]) + position.character

    new = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=client.uri, version=version),  # type: ignore[attr-defined]
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)],
        )
    )
    return new


async def test_insert_output_below_then_update_output(client: LanguageClient) -> None:
    held, _, _ = await _ids(client)
    assert await _actions(client, 2) == []  # nothing to write before a run
    await _run(client, held)
    [action] = await _actions(client, 2)
    assert action.title == "Insert output below"
    text = _apply(client, DOC, action, 2)
    assert "```\n\n```output\nstill right\n```\n" in text
    assert (await _ids(client))[0] == held  # the output block is no command
    await _run(client, held)
    [action] = await _actions(client, 3)
    assert action.title == "Update output"
    again = _apply(client, text, action, 3)
    assert again == text  # same output: replaced in place, not written twice
    assert again.count("```output") == 1


PROMPT_DOC = """```bash
echo "user=<user-name> key=$AINTERN_TEST_UNSET_KEY"
```

```bash {"promptEnv":false}
echo "as written: <user-name>"
```
"""


async def _open(client: LanguageClient, tmp_path: Path, text: str) -> None:
    doc = tmp_path / "prompts.md"
    doc.write_text(text)
    client.uri = doc.as_uri()  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc.as_uri(), language_id="markdown", version=1, text=text
            )
        )
    )


async def test_values_are_asked_for_used_and_never_stored(
    client: LanguageClient, tmp_path: Path
) -> None:
    asked: list[Any] = []

    @client.feature("aintern/promptValues")
    def _prompt(params: Any) -> Any:
        asked.append(params)
        return {
            "values": [
                {"name": "user-name", "value": "alice"},
                {"name": "AINTERN_TEST_UNSET_KEY", "value": "s3cr3t-v4lue", "secret": True},
            ]
        }

    await _open(client, tmp_path, PROMPT_DOC)
    ask, never = await _ids(client)
    result = await _run(client, ask)
    [params] = asked
    names = {(p.name, p.kind, p.text) for p in params.placeholders}
    assert names == {
        ("user-name", "angle", "<user-name>"),
        ("AINTERN_TEST_UNSET_KEY", "variable", "$AINTERN_TEST_UNSET_KEY"),
    }
    assert "user=alice key=[REDACTED:prompt:AINTERN_TEST_UNSET_KEY]" in result["output"]
    assert "s3cr3t" not in str(result) and "alice" not in result["command"]
    history = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="aintern.history", arguments=[{}])
    )
    [run] = history["runs"]  # type: ignore[index]
    assert "s3cr3t" not in str(run) and "alice" not in str(run)
    assert run["command"] == 'echo "user=<user-name> key=$AINTERN_TEST_UNSET_KEY"'
    # the editor saw the plain value; the history keeps no value typed at the prompt
    assert run["output"] == "user=[value:user-name] key=[REDACTED:prompt:AINTERN_TEST_UNSET_KEY]\n"
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("h.db*"))
    assert b"alice" not in raw and b"s3cr3t" not in raw
    assert (tmp_path / "prompts.md").read_text() == PROMPT_DOC
    # promptEnv=false: no question, the command runs as written
    result = await _run(client, never)
    assert len(asked) == 1
    assert result["exitCode"] == 0
