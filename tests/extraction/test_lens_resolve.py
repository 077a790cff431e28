"""Unresolved lenses (a huge document): the lenses of ready blocks go as `{range, data}`
with `data` = "<blockId>#<index>", the others whole; `codeLens/resolve` gives each the
command the full answer has (plus the document's `uri`), a lens whose block is gone a
placeholder; over the wire the server says it resolves and a resolved lens runs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient

from aintern_ls.documents import DocumentStore
from aintern_ls.features import code_lens
from aintern_ls.models import CommandBlockStatus, CommandResult

FENCES = [
    "```bash\necho hi {n}\n```\n",
    "```bash\nrm -rf /\n```\n",
    "```bash\ngit push --force origin b{n}\n```\n",
    "```sh\nsudo reboot # {n}\n```\n",
]


def _document(blocks: int) -> str:
    return "".join(
        f"## Me\n\nStep {n}:\n\n" + FENCES[n % len(FENCES)].format(n=n) + "\n"
        for n in range(blocks)
    )


def _streamed(store: DocumentStore, uri: str, *, resolve: bool) -> list[Any]:
    doc = store.get(uri)
    stream = code_lens.lens_stream(
        doc, store.assess, default_converter().unstructure, resolve=resolve
    )
    data = b"".join(stream.chunks())
    assert stream.length == len(data)
    return list(json.loads(data))


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "made-again"])
def test_unresolved_lenses_resolve_to_the_full_answer(
    monkeypatch: pytest.MonkeyPatch, keep: bool
) -> None:
    if not keep:
        monkeypatch.setattr(code_lens, "KEEP_CHARS", 0)
    store = DocumentStore()
    uri = "file:///resolve.md"
    doc = store.update(uri, _document(24))
    blocks = doc.blocks
    blocks[4].status = CommandBlockStatus.EXECUTING
    blocks[8].status = CommandBlockStatus.EXECUTED
    doc.last_results[blocks[8].id] = CommandResult(
        block_id=blocks[8].id, command=blocks[8].command, status=blocks[8].status, exit_code=0
    )
    full = _streamed(store, uri, resolve=False)
    sent = _streamed(store, uri, resolve=True)
    assert len(sent) == len(full)
    unresolved = [lens for lens in sent if "command" not in lens]
    # ready blocks (pending, never run, not blocked) only: the running, the finished and
    # the blocked ones come whole
    ready = {
        b.id
        for b in blocks
        if b.status is CommandBlockStatus.PENDING
        and b.id not in doc.last_results
        and store.assess(b).level.label != "blocked"
    }
    assert {lens["data"].rpartition("#")[0] for lens in unresolved} == ready
    assert len(unresolved) == 3 * len(ready)
    converter = default_converter()
    for whole, lens in zip(full, sent, strict=True):
        assert lens["range"] == whole["range"]
        if "command" in lens:
            assert lens == whole
            continue
        assert set(lens) == {"range", "data"}
        resolved = code_lens.resolve_lens(
            [store.get(uri)], converter.structure(lens, types.CodeLens), store.assess
        )
        expected = dict(whole["command"])
        expected["arguments"] = [{"uri": uri, **whole["command"]["arguments"][0]}]
        assert converter.unstructure(resolved) == {"range": whole["range"], "command": expected}


def test_a_lens_whose_block_is_gone_resolves_to_a_placeholder() -> None:
    store = DocumentStore()
    uri = "file:///gone.md"
    store.update(uri, _document(4))
    lens = _streamed(store, uri, resolve=True)[0]
    converter = default_converter()
    structured = converter.structure(lens, types.CodeLens)
    store.update(uri, "# nothing runnable now\n")
    resolved = code_lens.resolve_lens([store.get(uri)], structured, store.assess)
    assert resolved.command is not None and resolved.command.title == code_lens.STALE_TITLE
    # junk `data`: the same, never an error
    for data in (None, 7, "no-hash", "blk-x#y"):
        junk = types.CodeLens(range=structured.range, data=data)
        assert code_lens.resolve_lens([store.get(uri)], junk, store.assess).command.title == "…"  # type: ignore[union-attr]


def test_a_block_moved_by_an_edit_is_found_by_its_id() -> None:
    store = DocumentStore()
    uri = "file:///moved.md"
    store.update(uri, _document(6))
    lens = _streamed(store, uri, resolve=True)[0]
    store.update(uri, "# Title\n\nintro\n\n" + _document(6))  # everything four lines down
    resolved = code_lens.resolve_lens(
        [store.get(uri)], default_converter().structure(lens, types.CodeLens), store.assess
    )
    assert resolved.command is not None and resolved.command.command == code_lens.RUN


def test_the_threshold_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(code_lens.RESOLVE_ABOVE_ENV, raising=False)
    assert code_lens.resolve_above() == code_lens.RESOLVE_ABOVE
    monkeypatch.setenv(code_lens.RESOLVE_ABOVE_ENV, "0")
    assert code_lens.resolve_above() == 0
    monkeypatch.setenv(code_lens.RESOLVE_ABOVE_ENV, "many")
    assert code_lens.resolve_above() == code_lens.RESOLVE_ABOVE


# -- over the wire -----------------------------------------------------------------------

DOC = "# Runbook\n\n```bash\necho resolved\n```\n\n```bash\nrm -rf /\n```\n"


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "aintern_ls", "--stdio"],
        server_env={**os.environ, code_lens.RESOLVE_ABOVE_ENV: "0"},
    )
)
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            initialization_options={"aintern": {"historyPath": str(tmp_path / "history.db")}},
        )
    )
    lsp_client.resolves = result.capabilities.code_lens_provider  # type: ignore[attr-defined]
    doc = tmp_path / "runbook.md"
    doc.write_text(DOC)
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc.as_uri(), language_id="markdown", version=1, text=DOC
            )
        )
    )
    lsp_client.uri = doc.as_uri()  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_resolved_lenses_over_the_wire(client: LanguageClient) -> None:
    provider = client.resolves  # type: ignore[attr-defined]
    assert provider is not None and provider.resolve_provider is True
    uri = client.uri  # type: ignore[attr-defined]
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert lenses is not None
    unresolved = [lens for lens in lenses if lens.command is None]
    assert len(unresolved) == 3  # the echo block; the blocked one comes whole
    assert any(lens.command and lens.command.title.startswith("⛔") for lens in lenses)
    resolved = [await client.code_lens_resolve_async(lens) for lens in unresolved]
    titles = [lens.command.title for lens in resolved if lens.command]
    assert titles == ["▶ Run", "⇥ Send to terminal", "⎘ Copy"]
    copy = resolved[2].command
    assert copy is not None and copy.arguments is not None
    assert copy.arguments[0]["uri"] == uri
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=copy.command, arguments=copy.arguments)
    )
    assert result["text"] == "echo resolved"
    # the block is no longer ready (copied): its lenses come whole now
    again = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert again is not None and all(lens.command is not None for lens in again)
    assert "⎘ copied" in [lens.command.title for lens in again if lens.command]
