"""Regression tests for the gate breaks of the attack run (issue 13, server side).

The stand-in for "blocked" is a user `extraBlocked` pattern for `touch …gate-forbidden`;
the proof of a bypass would be that marker file appearing.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_markdown

SETTINGS = {"safety": {"extraBlocked": ["^touch .*gate-forbidden"]}}

# One command across two lines (`\` joins them): `rm -f gate-victim touch gate-forbidden`
# is dangerous. A blank after the `\` makes the second line a command of its own,
# which is blocked; block ids ignore trailing blanks.
JOINED = "rm -f gate-victim \\\ntouch gate-forbidden"
SPLIT = "rm -f gate-victim \\ \ntouch gate-forbidden"


def _doc(body: str, info: str = "bash") -> str:
    return f"# Attack\n\n```{info}\n{body}\n```\n\n```bash\nsleep 30\n```\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.prompts = []  # type: ignore[attr-defined]
    lsp_client.on_prompt = None  # type: ignore[attr-defined]
    lsp_client.answers = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def _ask(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        lsp_client.prompts.append(params.message)  # type: ignore[attr-defined]
        hook = lsp_client.on_prompt  # type: ignore[attr-defined]
        if hook is not None:
            lsp_client.on_prompt = None  # type: ignore[attr-defined]
            hook()
        answers = lsp_client.answers  # type: ignore[attr-defined]
        return types.MessageActionItem(title=answers.pop(0) if answers else "Cancel")

    ignore(lsp_client, "aintern/blockStatus", "aintern/terminalOutput", "aintern/terminalExit")
    window = types.WindowClientCapabilities(
        show_message=types.ShowMessageRequestClientCapabilities()
    )
    await initialize(
        lsp_client,
        tmp_path,
        types.ClientCapabilities(window=window),
        history="history.db",
        **SETTINGS,
    )
    lsp_client.folder = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, name: str, text: str) -> str:
    return open_markdown(client, client.folder / name, text)  # type: ignore[attr-defined]


def _replace(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def _lens_args(client: LanguageClient, uri: str) -> list[dict[str, Any]]:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    seen: dict[str, dict[str, Any]] = {}
    for lens in lenses or []:
        assert lens.command is not None and lens.command.arguments
        seen.setdefault(lens.command.arguments[0]["blockId"], lens.command.arguments[0])
    return list(seen.values())


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any]) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def test_a_block_edited_while_the_prompt_is_up_is_not_run(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    (folder / "gate-victim").write_text("keep me")
    uri = _open(client, "edit.md", _doc(JOINED))
    first = (await _lens_args(client, uri))[0]
    assert first["level"] == "dangerous"
    client.on_prompt = lambda: _replace(client, uri, _doc(SPLIT), 2)  # type: ignore[attr-defined]
    client.answers.append("Run anyway")  # type: ignore[attr-defined]
    try:
        result = await _cmd(client, "aintern.run", {"uri": uri, "blockId": first["blockId"]})
    except Exception as exc:  # refused: now blocked (or gone)
        assert "blocked" in str(exc) or "no command block" in str(exc), exc
    else:
        raise AssertionError(f"the edited block ran: {result}")
    await asyncio.sleep(0.3)
    assert not (folder / "gate-forbidden").exists()
    assert (folder / "gate-victim").exists()


async def test_a_changed_cwd_under_the_prompt_is_asked_again(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    for sub in ("a", "b"):
        (folder / sub).mkdir()
        (folder / sub / "gate-victim").write_text("keep me")
    uri = _open(client, "cwd.md", _doc("rm -f gate-victim", 'bash {"cwd":"a"}'))
    first = (await _lens_args(client, uri))[0]
    client.on_prompt = lambda: _replace(  # type: ignore[attr-defined]
        client, uri, _doc("rm -f gate-victim", 'bash {"cwd":"b"}'), 2
    )
    client.answers.extend(["Run anyway", "Cancel"])  # type: ignore[attr-defined]
    result = await _cmd(client, "aintern.run", {"uri": uri, "blockId": first["blockId"]})
    assert result["cancelled"] is True and result["exitCode"] is None
    prompts = client.prompts  # type: ignore[attr-defined]
    assert len(prompts) == 2, prompts
    assert os.path.join(str(folder), "a") in prompts[0]
    assert os.path.join(str(folder), "b") in prompts[1]
    assert (folder / "a" / "gate-victim").exists() and (folder / "b" / "gate-victim").exists()


async def test_a_one_megabyte_word_does_not_hold_up_other_requests(
    client: LanguageClient,
) -> None:
    small = _open(client, "small.md", _doc("echo small"))
    await _lens_args(client, small)
    big = _open(client, "big.md", "```bash\n" + "A" * 1_000_000 + "\n```\n")
    # Both are asked at once: the big document's lenses (its whole analysis, in a worker)
    # and a hover on the small one. Before the fix the analysis of one huge word took
    # minutes and held everything up; neither answer may fail or hang (pytest-lsp's
    # request timeout) now. No timing is asserted: how fast is for `bench/`.
    big_lenses = asyncio.ensure_future(_lens_args(client, big))
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=small),
            position=types.Position(line=3, character=1),
        )
    )
    assert hover is not None and "**safe**" in str(hover.contents)
    await big_lenses
    (args,) = big_lenses.result()[:1]
    assert args["level"] == "critical" and args["needsConfirmation"] is True


DANGEROUS_ENV = [
    "BASH_ENV",
    "ENV",
    "LD_PRELOAD",
    "DYLD_INSERT_LIBRARIES",
    "BASH_FUNC_ls%%",
    "PATH",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "PS4",
]


async def test_dangerous_env_names_are_critical_and_shown(client: LanguageClient) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri = _open(client, "env.md", _doc("echo hi"))
    first = (await _lens_args(client, uri))[0]
    for name in DANGEROUS_ENV:
        client.prompts.clear()  # type: ignore[attr-defined]
        env = {name: f"touch {folder}/gate-forbidden"}
        result = await _cmd(
            client, "aintern.run", {"uri": uri, "blockId": first["blockId"], "env": env}
        )
        assert result["cancelled"] is True, name  # asked, and the person said no
        (prompt,) = client.prompts  # type: ignore[attr-defined]
        assert "critical" in prompt.lower() and f"{name}=" in prompt
    assert not (folder / "gate-forbidden").exists()


BAD_ARGUMENTS: list[tuple[dict[str, Any], str]] = [
    ({"cwd": "/tmp\u0000x"}, "NUL"),
    ({"env": {"A": "x\u0000y"}}, "NUL"),
    ({"env": {"A=B": "1"}}, "'='"),
    ({"env": {"A": "\ud800"}}, "surrogate"),
    ({"cwd": "/tmp/\udc80"}, "surrogate"),
]


async def test_bad_cwd_and_env_are_clear_errors_before_any_fork(client: LanguageClient) -> None:
    uri = _open(client, "bad.md", _doc("echo hi"))
    first = (await _lens_args(client, uri))[0]
    for extra, message in BAD_ARGUMENTS:
        with pytest.raises(Exception, match=message):
            await _cmd(client, "aintern.run", {"uri": uri, "blockId": first["blockId"], **extra})
    assert await _lens_args(client, uri)  # still answering


async def test_closing_the_document_keeps_its_run_cancellable_and_in_the_history(
    client: LanguageClient,
) -> None:
    folder: Path = client.folder  # type: ignore[attr-defined]
    uri = _open(client, "slow.md", _doc("echo hi"))
    sleeper = (await _lens_args(client, uri))[1]
    task = asyncio.ensure_future(
        _cmd(client, "aintern.run", {"uri": uri, "blockId": sleeper["blockId"]})
    )
    rows: list[tuple[str, str]] = []
    for _ in range(200):
        if (folder / "history.db").exists():
            try:
                with sqlite3.connect(folder / "history.db") as db:
                    rows = db.execute("SELECT command, status FROM command_executions").fetchall()
            except sqlite3.OperationalError:  # the server is still creating it
                rows = []
            if rows:
                break
        await asyncio.sleep(0.05)
    assert rows == [("sleep 30", "executing")]  # a killed server would leave this row
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    cancelled = await _cmd(client, "aintern.cancel", {"uri": uri, "blockId": sleeper["blockId"]})
    assert cancelled == {"cancelled": True}
    result = await asyncio.wait_for(task, 30)
    assert result["cancelled"] is True


async def test_terminal_create_refuses_unknown_shells_and_bad_text(
    client: LanguageClient, tmp_path: Path
) -> None:
    fake = tmp_path / "evil" / "bash"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\ntouch {tmp_path}/gate-forbidden\n")
    fake.chmod(0o755)
    with pytest.raises(Exception, match="not an installed shell"):
        await _cmd(client, "aintern.terminal.create", {"shell": str(fake)})
    with pytest.raises(Exception, match="NUL"):
        await _cmd(client, "aintern.terminal.create", {"cwd": "/tmp\u0000"})
    with pytest.raises(Exception, match="surrogate"):
        await _cmd(client, "aintern.terminal.create", {"title": "\ud800"})
    await asyncio.sleep(0.3)
    assert not (tmp_path / "gate-forbidden").exists()
    assert (await _cmd(client, "aintern.terminal.list", {}))["terminals"] == []
