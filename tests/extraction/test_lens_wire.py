"""The code lens answer on the wire: `{blockId, level, needsConfirmation}` arguments
without the URI, the streamed answer equal to the lenses built one by one (however it is
sliced, kept or made again), and a lens's arguments working as they are sent."""

from __future__ import annotations

import json
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
from aintern_ls.terminal.waiting import InputWait

FENCES = [
    "```bash\necho hi {n}\n```\n",
    "```bash\nrm -rf /\n```\n",
    "```bash\ngit push --force origin b{n}\n```\n",
    "```console\n$ ls /tmp/{n}\nx\n```\n",
    "```sh\nsudo reboot # {n}\n```\n",
]


def _document(blocks: int) -> str:
    return "".join(
        f"## Me\n\nStep {n}:\n\n" + FENCES[n % len(FENCES)].format(n=n) + "\n"
        for n in range(blocks)
    )


def _one_by_one(store: DocumentStore, uri: str, waiting: dict[str, InputWait]) -> list[Any]:
    doc = store.get(uri)
    unstructure = default_converter().unstructure
    out: list[Any] = []
    for block in doc.blocks:
        wait = waiting.get(block.id) if block.status is CommandBlockStatus.EXECUTING else None
        out.extend(unstructure(code_lens.lenses_for(doc, block, store.assess(block), wait)))
    return out


def _streamed(store: DocumentStore, uri: str, waiting: dict[str, InputWait]) -> tuple[int, bytes]:
    doc = store.get(uri)
    stream = code_lens.lens_stream(doc, store.assess, default_converter().unstructure, waiting.get)
    return stream.length, b"".join(stream.chunks())


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "made-again"])
@pytest.mark.parametrize("slice_chars", [1, 700, 1 << 20])
def test_the_streamed_answer_is_the_lenses_one_by_one(
    monkeypatch: pytest.MonkeyPatch, keep: bool, slice_chars: int
) -> None:
    monkeypatch.setattr(code_lens, "SLICE_CHARS", slice_chars)
    if not keep:
        monkeypatch.setattr(code_lens, "KEEP_CHARS", 0)
    store = DocumentStore()
    uri = "file:///wire.md"
    doc = store.update(uri, _document(40))
    waiting: dict[str, InputWait] = {}
    # states that change titles: running, waiting for input, finished, failed, timed out
    blocks = doc.blocks
    blocks[0].status = CommandBlockStatus.EXECUTING
    blocks[5].status = CommandBlockStatus.EXECUTING
    waiting[blocks[5].id] = InputWait(prompt='name "x"? ', secret=True, how="tty-read")
    for block, code, timed_out in (
        (blocks[10], 0, False),
        (blocks[15], 2, False),
        (blocks[20], None, True),
    ):
        block.status = CommandBlockStatus.EXECUTED if code == 0 else CommandBlockStatus.FAILED
        doc.last_results[block.id] = CommandResult(
            block_id=block.id,
            command=block.command,
            status=block.status,
            exit_code=code,
            duration_ms=1234,
            timed_out=timed_out,
        )
    for _ in range(2):  # (the second time from kept templates)
        length, data = _streamed(store, uri, waiting)
        assert length == len(data)
        sent = json.loads(data)
        assert sent == _one_by_one(store, uri, waiting)
    titles = [lens["command"]["title"] for lens in sent]
    assert "✎ Answer" in titles and "✓ exit 0 · 1.2 s" in titles and "✗ exit 2 · 1.2 s" in titles
    assert any(t.startswith("⛔ blocked") for t in titles)
    assert sum(t == "▶ Run" for t in titles) > 1
    # An edit above moves every lens one line down; the blocks keep their states.
    moved = store.update(uri, "# Title\n" + _document(40))
    assert moved.blocks[10].status is CommandBlockStatus.EXECUTED
    length, data = _streamed(store, uri, waiting)
    assert length == len(data)
    assert json.loads(data) == _one_by_one(store, uri, waiting)
    assert json.loads(data)[0]["range"]["start"]["line"] == sent[0]["range"]["start"]["line"] + 1


def test_lens_arguments_name_the_block_and_its_risk_not_the_uri() -> None:
    store = DocumentStore()
    uri = "file:///args.md"
    store.update(uri, _document(5))
    sent = json.loads(_streamed(store, uri, {})[1])
    by_level = {}
    for lens in sent:
        (args,) = lens["command"]["arguments"]
        assert set(args) == {"blockId", "level", "needsConfirmation"}
        by_level[args["level"]] = args["needsConfirmation"]
    assert by_level == {
        "safe": False,
        "blocked": False,
        "dangerous": True,
        "critical": True,
    }


def test_an_empty_document_is_an_empty_array() -> None:
    store = DocumentStore()
    store.update("file:///empty.md", "no fences here\n")
    length, data = _streamed(store, "file:///empty.md", {})
    assert (length, data) == (2, b"[]")


def test_ids_are_written_as_json_strings() -> None:
    assert code_lens._json_id("blk-0123456789ab") == "blk-0123456789ab"
    odd = 'blk-"quoted"\\é'
    assert json.loads(f'"{code_lens._json_id(odd)}"') == odd


# -- over the wire -----------------------------------------------------------------------

DOC = "# Runbook\n\n```bash\necho wire\n```\n\n```bash\nrm -rf ./build\n```\n"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "aintern_ls", "--stdio"])
)
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            initialization_options={"aintern": {"historyPath": str(tmp_path / "history.db")}},
        )
    )
    for name in ("one.md", "two.md"):
        doc = tmp_path / name
        doc.write_text(DOC)
        lsp_client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=doc.as_uri(), language_id="markdown", version=1, text=DOC
                )
            )
        )
    lsp_client.dir = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _lenses(client: LanguageClient, name: str) -> list[types.CodeLens]:
    uri = (client.dir / name).as_uri()  # type: ignore[attr-defined]
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return found or []


async def test_a_lens_command_runs_with_its_arguments_as_sent(client: LanguageClient) -> None:
    one, two = await _lenses(client, "one.md"), await _lenses(client, "two.md")
    copy = next(
        lens.command for lens in two if lens.command and lens.command.command == "aintern.copy"
    )
    assert copy is not None and "uri" not in copy.arguments[0]  # type: ignore[index]
    # the same command text in two documents: different ids, each found in its own
    assert copy.arguments != one[2].command.arguments  # type: ignore[union-attr]
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=copy.command, arguments=copy.arguments)
    )
    assert result["text"] == "echo wire"
    statuses = [lens.command.title for lens in await _lenses(client, "two.md") if lens.command]
    assert "⎘ copied" in statuses  # marked in two.md ...
    assert "⎘ copied" not in [
        lens.command.title for lens in await _lenses(client, "one.md") if lens.command
    ]
    # a block id no open document has: a clear error, and the server goes on
    with pytest.raises(Exception, match="no open document has the command block 'blk-nope'"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="aintern.copy", arguments=[{"blockId": "blk-nope"}])
        )
    assert await _lenses(client, "one.md")
