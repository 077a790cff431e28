"""The real server holding a document as a `Rope` (every document here:
`AINTERN_LS_ROPE_CHARS=0`, with the compact block store) through a deterministic
sequence of incremental edits: after each, its lenses name the blocks a fresh extraction
of the same text finds, on the same lines, and a block copied gives its command."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from aintern_ls.extraction import extract
from aintern_ls.features import code_lens
from aintern_ls.positions import LineIndex

_PIECES = [
    "## Me\n\nWhy does it fail? 😀 Try the command below.\n\n",
    "## CodeCompanion (Claude)\n\nRun this:\n\n```bash\nkubectl get pods -n é\n```\n\n",
    "Then check:\n\n```console\n$ git status --short\n M app.py\n```\n\n",
    "Build it:\n\n```sh {name=build cwd=/tmp}\nmake -j4\n```\r\n\r\n",
    "> quoted\n>\n> ```bash\n> df -h\n> ```\n\n",
    "```bash\nrm -rf /\n```\n\n",
]
_INSERTS = ["x", "x", "😀", "\n", "`", "\n\n## Me\n\n", "```bash\nls 中\n", ""]


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "aintern_ls", "--stdio"],
        server_env={
            **os.environ,
            "AINTERN_LS_ROPE_CHARS": "0",
            "AINTERN_LS_COMPACT_CHARS": "0",
            code_lens.RESOLVE_ABOVE_ENV: "0",
        },
    )
)
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            initialization_options={"aintern": {"historyPath": str(tmp_path / "history.db")}},
        )
    )
    yield
    await lsp_client.shutdown_session()


def _blocks_of(lenses: list[types.CodeLens]) -> list[tuple[int, str]]:
    """(line, block id) of each block's first lens."""
    out: list[tuple[int, str]] = []
    for lens in lenses:
        if isinstance(lens.data, str):
            block_id, _, index = lens.data.rpartition("#")
            if index == "0":
                out.append((lens.range.start.line, block_id))
        elif lens.command is not None and lens.command.arguments:
            argument: Any = lens.command.arguments[0]
            if not out or out[-1] != (lens.range.start.line, argument["blockId"]):
                out.append((lens.range.start.line, argument["blockId"]))
    return out


async def test_edits_to_a_rope_over_the_wire(client: LanguageClient, tmp_path: Path) -> None:
    rng = random.Random(5)
    text = "".join(rng.choice(_PIECES) for _ in range(80))
    uri = (tmp_path / "chat.md").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=text
            )
        )
    )
    for version in range(2, 32):
        index = LineIndex(text)
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice((0, 0, 1, 30)))
        new = rng.choice(_INSERTS)
        # (no position between the \r and the \n of a line break: none is on a line)
        start -= text[start - 1 : start + 1] == "\r\n"
        end -= text[end - 1 : end + 1] == "\r\n"
        (sl, sc), (el, ec) = index.position(start), index.position(end)  # (UTF-16)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line=sl, character=sc),
                            end=types.Position(line=el, character=ec),
                        ),
                        text=new,
                    )
                ],
            )
        )
        text = text[:start] + new + text[end:]
        if version % 3:
            continue
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert lenses is not None
        expected = extract(text, uri).commands
        assert _blocks_of(lenses) == [(b.start_line, b.id) for b in expected], version
        if expected:
            block = expected[rng.randrange(len(expected))]
            copied = await client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command="aintern.copy", arguments=[{"uri": uri, "blockId": block.id}]
                )
            )
            assert copied["text"] == block.command
