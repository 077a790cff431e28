"""The real server over stdio: lenses, diagnostics, hover and the block commands.

Parametrised over a VS Code-like client (UTF-16, can show message requests, has
progress and lens refresh) and a Neovim-like one (UTF-8, none of those).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psutil
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, initialize, open_and_analyse

DOC = """# Runbook

Say hello (naïve 😀 café):

```bash
echo "hello from aintern"
```

Clean the build:

```bash
rm -rf ./build
```

Never run this:

```sh
echo start && rm -rf /
```

Wait a while:

```bash
sleep 30
```
"""

VSCODE = types.ClientCapabilities(
    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
    window=types.WindowClientCapabilities(
        work_done_progress=True,
        show_message=types.ShowMessageRequestClientCapabilities(),
    ),
    workspace=types.WorkspaceClientCapabilities(
        code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True)
    ),
)
NEOVIM = types.ClientCapabilities(
    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8]),
)


@pytest_lsp.fixture(
    params=["vscode", "neovim"],
    config=ClientServerConfig(server_command=SERVER),
)
async def client(request: Any, lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    caps = VSCODE if request.param == "vscode" else NEOVIM
    lsp_client.kind = request.param  # type: ignore[attr-defined]
    lsp_client.answers = []  # type: ignore[attr-defined]
    lsp_client.statuses = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def _ask(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        answer = lsp_client.answers.pop(0) if lsp_client.answers else None  # type: ignore[attr-defined]
        return types.MessageActionItem(title=answer) if answer else None

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def _refresh(params: None) -> None:
        return None

    @lsp_client.feature("aintern/blockStatus")
    def _status(params: Any) -> None:
        lsp_client.statuses.append(params)  # type: ignore[attr-defined]

    await initialize(lsp_client, tmp_path, caps, history="history.db", timeoutSeconds=60)
    lsp_client.uri = await open_and_analyse(lsp_client, tmp_path / "runbook.md", DOC)  # type: ignore[attr-defined]
    yield
    if not getattr(lsp_client, "closed", False):
        await lsp_client.shutdown_session()


async def _lenses(client: LanguageClient) -> list[types.CodeLens]:
    return (
        await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri))  # type: ignore[attr-defined]
        )
        or []
    )


async def _block_ids(client: LanguageClient) -> list[str]:
    ids: list[str] = []
    for lens in await _lenses(client):
        assert lens.command is not None
        block_id = lens.command.arguments[0]["blockId"]  # type: ignore[index]
        if block_id not in ids:
            ids.append(block_id)
    return ids


async def _exec(client: LanguageClient, command: str, **args: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[{"uri": client.uri, **args}])  # type: ignore[attr-defined]
    )


async def test_every_fence_gets_run_send_copy_lenses(client: LanguageClient) -> None:
    lenses = await _lenses(client)
    titles = [lens.command.title for lens in lenses if lens.command]
    assert titles.count("▶ Run") == 2  # echo and sleep
    assert any(t.startswith("▶ Run (dangerous") for t in titles)
    assert any(t.startswith("⛔ blocked") for t in titles)
    assert titles.count("⎘ Copy") == 4
    assert titles.count("⇥ Send to terminal") == 3  # never for the blocked one
    fence_lines = {lens.range.start.line for lens in lenses}
    assert fence_lines == {4, 10, 16, 22}


async def test_diagnostics_underline_the_offending_words(client: LanguageClient) -> None:
    diags = client.diagnostics[client.uri]  # type: ignore[attr-defined]
    by_code = {d.code: d for d in diags}
    blocked = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert blocked, diags
    line = DOC.splitlines()[17]
    target = blocked[0].range
    assert target.start.line == 17
    underlined = line[target.start.character : target.end.character]
    assert "rm" in underlined and "/" in underlined and "echo" not in underlined
    warnings = [d for d in diags if d.severity == types.DiagnosticSeverity.Warning]
    assert any(d.range.start.line == 11 for d in warnings), by_code


async def test_copy_returns_text_and_marks_block(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    result = await _exec(client, "aintern.copy", blockId=ids[0])
    assert result == {"text": 'echo "hello from aintern"'}
    await asyncio.sleep(0.2)
    assert any(s.status == "copied" for s in client.statuses)  # type: ignore[attr-defined]


async def test_run_returns_output_and_exit_code_and_updates_lens(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    result = await _exec(client, "aintern.run", blockId=ids[0])
    assert result["exitCode"] == 0
    assert result["status"] == "executed"
    assert "hello from aintern" in result["output"]
    assert "\x1b" not in result["output"]
    titles = [lens.command.title for lens in await _lenses(client) if lens.command]
    assert any(t.startswith("✓ exit 0") for t in titles)


async def test_blocked_block_is_refused_with_rule_name(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    with pytest.raises(Exception, match="blocked") as info:
        await _exec(client, "aintern.run", blockId=ids[2], confirmed=True)
    assert "rm" in str(info.value)


async def test_dangerous_block_asks_or_demands_confirmation(
    client: LanguageClient, tmp_path: Path
) -> None:
    ids = await _block_ids(client)
    (tmp_path / "build").mkdir()
    if client.kind == "neovim":  # type: ignore[attr-defined]
        with pytest.raises(Exception, match="confirmed"):
            await _exec(client, "aintern.run", blockId=ids[1])
        assert (tmp_path / "build").exists()
        result = await _exec(client, "aintern.run", blockId=ids[1], confirmed=True)
    else:
        client.answers.append("Cancel")  # type: ignore[attr-defined]
        declined = await _exec(client, "aintern.run", blockId=ids[1])
        assert declined["cancelled"] is True
        assert (tmp_path / "build").exists()
        client.answers.append("Run anyway")  # type: ignore[attr-defined]
        result = await _exec(client, "aintern.run", blockId=ids[1])
    assert result["exitCode"] == 0
    assert not (tmp_path / "build").exists()


async def test_unknown_block_and_bad_arguments_are_clear_errors(client: LanguageClient) -> None:
    with pytest.raises(Exception, match="no command block 'nope'"):
        await _exec(client, "aintern.run", blockId="nope")
    with pytest.raises(Exception, match="invalid arguments"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="aintern.run", arguments=[{"uri": 5}])
        )
    with pytest.raises(Exception, match="not open"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="aintern.copy", arguments=[{"uri": "file:///nowhere.md", "blockId": "x"}]
            )
        )
    # the server is still alive
    assert await _block_ids(client)


def _sleepers() -> list[psutil.Process]:
    """`sleep 30` processes started by this test run's servers (not by anyone else)."""
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.cmdline()[:2] == ["sleep", "30"]:
                found.append(proc)
        except psutil.Error:
            continue
    return found


async def test_cancel_stops_a_running_block(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    task = asyncio.ensure_future(_exec(client, "aintern.run", blockId=ids[3]))
    for _ in range(100):
        if _sleepers():
            break
        await asyncio.sleep(0.05)
    titles = [lens.command.title for lens in await _lenses(client) if lens.command]
    assert "⏳ running… ■ Stop" in titles
    assert await _exec(client, "aintern.cancel", blockId=ids[3]) == {"cancelled": True}
    result = await asyncio.wait_for(task, 30)
    assert result["cancelled"] is True and result["status"] == "cancelled"
    assert not _sleepers()


async def test_cancel_request_kills_the_run(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    params = types.ExecuteCommandParams(
        command="aintern.run",
        arguments=[{"uri": client.uri, "blockId": ids[3]}],  # type: ignore[attr-defined]
    )
    task = asyncio.ensure_future(
        client.protocol.send_request_async(
            types.WORKSPACE_EXECUTE_COMMAND, params, msg_id="cancel-me"
        )
    )
    for _ in range(100):
        if _sleepers():
            break
        await asyncio.sleep(0.05)
    assert _sleepers()
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="cancel-me"))
    with pytest.raises(Exception, match="cancel"):
        await asyncio.wait_for(task, 30)
    for _ in range(100):
        if not _sleepers():
            break
        await asyncio.sleep(0.1)
    assert not _sleepers()
    for _ in range(100):  # the run's end is recorded just after the process dies
        titles = [lens.command.title for lens in await _lenses(client) if lens.command]
        if "⊘ cancelled" in titles:
            break
        await asyncio.sleep(0.1)
    assert "⊘ cancelled" in titles


async def test_edit_elsewhere_keeps_block_status(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    await _exec(client, "aintern.run", blockId=ids[0])
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=client.uri, version=2),  # type: ignore[attr-defined]
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0),
                    ),
                    text="Intro line.\n\n",
                )
            ],
        )
    )
    await asyncio.sleep(0.3)
    assert await _block_ids(client) == ids
    lenses = await _lenses(client)
    done = [lens for lens in lenses if lens.command and lens.command.title.startswith("✓ exit 0")]
    assert done and done[0].range.start.line == 6


async def test_hover_on_fence_shows_level_and_findings(client: LanguageClient) -> None:
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=client.uri),  # type: ignore[attr-defined]
            position=types.Position(line=17, character=2),
        )
    )
    assert hover is not None
    text = hover.contents.value  # type: ignore[union-attr]
    assert "**blocked**" in text
    from aintern_ls.safety import assess, catalogue

    worst = assess("echo start && rm -rf /", "sh").findings[0]
    assert catalogue.summary(worst.rule) and catalogue.summary(worst.rule) in text


async def test_shutdown_with_a_run_in_flight_is_clean(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    pending = asyncio.ensure_future(_exec(client, "aintern.run", blockId=ids[3]))
    for _ in range(100):
        if _sleepers():
            break
        await asyncio.sleep(0.05)
    # the fixture's shutdown_session must succeed and leave no sleeper behind
    await client.shutdown_session()
    client.closed = True  # type: ignore[attr-defined]
    pending.cancel()
    for _ in range(100):
        if not _sleepers():
            break
        await asyncio.sleep(0.1)
    assert not _sleepers()


async def test_broken_execute_json_is_a_warning_where_it_breaks(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = 'Run this:\n\n```execute\n{"command": "ls",\n "workingDir": oops}\n```\n'
    uri = (tmp_path / "chat.md").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=text
            )
        )
    )
    for _ in range(50):
        if client.diagnostics.get(uri):
            break
        await asyncio.sleep(0.1)
    diags = client.diagnostics[uri]
    assert len(diags) == 1
    assert diags[0].severity == types.DiagnosticSeverity.Warning
    assert diags[0].range.start.line in (3, 4)
    assert "JSON" in diags[0].message


async def test_runs_and_refusals_go_to_the_history(client: LanguageClient, tmp_path: Path) -> None:
    from aintern_ls.history import History

    ids = await _block_ids(client)
    await _exec(client, "aintern.run", blockId=ids[0])
    with pytest.raises(Exception, match="blocked"):
        await _exec(client, "aintern.run", blockId=ids[2])
    runs = (await _exec(client, "aintern.history"))["runs"]
    assert [r["command"] for r in runs] == ['echo "hello from aintern"']
    assert runs[0]["exitCode"] == 0 and runs[0]["blockId"] == ids[0]
    decisions = History(tmp_path / "history.db").decisions()
    assert [d["decision"] for d in decisions] == ["blocked"]


async def test_a_run_is_kept_as_a_capture_for_the_ai_panel(client: LanguageClient) -> None:
    ids = await _block_ids(client)
    result = await _exec(client, "aintern.run", blockId=ids[0])
    assert result["captureId"]
    capture = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="aintern.capture", arguments=[{"captureId": result["captureId"]}]
        )
    )
    assert capture["commandBlockId"] == ids[0]
    assert capture["exitCode"] == 0
    assert capture["output"] == "hello from aintern"
    assert capture["contextString"].splitlines()[:3] == [
        "```terminal",
        f"# Directory: {result['cwd']}",
        '$ echo "hello from aintern"',
    ]
    with pytest.raises(Exception, match="no capture 'nope'"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="aintern.capture", arguments=[{"captureId": "nope"}])
        )
