"""`text_sync` applies didChange edits the way pygls does, without rebuilding the text,
and `positions.line_starts` finds the same lines as the LSP definition."""

from __future__ import annotations

import bisect
import random
import re

import pytest
from lsprotocol import types
from pygls.workspace import Workspace

from aintern_ls import positions, text_sync
from aintern_ls import rope as rope_module
from aintern_ls.positions import line_starts
from aintern_ls.rope import Rope

URI = "file:///doc.md"
_PIECES = ["a", "b", "\n", "\r\n", "é", "😀", "中", " ", "\t", "```", "$ "]
_UNITS = {
    "utf-16": lambda s: len(s.encode("utf-16-le")) // 2,
    "utf-8": lambda s: len(s.encode()),
    "utf-32": len,
}


def _workspace(encoding: str, text: str) -> Workspace:
    ws = Workspace(None, types.TextDocumentSyncKind.Incremental, position_encoding=encoding)
    ws.put_text_document(
        types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=text)
    )
    return ws


@pytest.mark.parametrize("rope", [False, True])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_edits_match_pygls(encoding: str, rope: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if rope:  # every document a rope of many small chunks
        monkeypatch.setattr(text_sync, "ROPE_CHARS", 0)
        monkeypatch.setattr(rope_module, "CHUNK", 4)
    rng = random.Random(encoding)
    for _ in range(400 if not rope else 150):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(20 if not rope else 60)))
        theirs, ours = _workspace(encoding, text), _workspace(encoding, text)
        if rope:
            text_sync.adopt(ours.get_text_document(URI))
            assert isinstance(ours.get_text_document(URI).source, Rope) == (text != "")
        # Enough edits to go past the table's kept shifts and rebuild it.
        for version in range(2, 2 + text_sync.MAX_SHIFTS + 10):
            source = str(ours.get_text_document(URI).source)
            lines = source.splitlines(True) or [""]

            def position() -> tuple[types.Position, int]:
                line = rng.randrange(len(lines))  # noqa: B023
                content = lines[line].rstrip("\r\n")  # noqa: B023
                column = rng.randrange(len(content) + 1)
                offset = sum(len(x) for x in lines[:line]) + column  # noqa: B023
                units = _UNITS[encoding](content[:column])
                return types.Position(line=line, character=units), offset

            (start, _), (end, _) = sorted([position(), position()], key=lambda p: p[1])
            # mostly typing (one character, no line break), sometimes anything
            if rng.random() < 0.8:
                new = rng.choice(["x", "é", "😀", ""])
            else:
                new = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(4)))
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=start, end=end), text=new
            )
            ident = types.VersionedTextDocumentIdentifier(uri=URI, version=version)
            theirs.update_text_document(ident, change)
            text_sync.apply_change(ours, ident, change)
            expected = theirs.get_text_document(URI).source
            assert ours.get_text_document(URI).source == expected
            # (pygls reads an empty rope as "")
            assert isinstance(ours.get_text_document(URI).source, Rope) == (rope and expected != "")
            assert ours.get_text_document(URI).version == version


def test_full_change_and_edit_at_the_end() -> None:
    ws = _workspace("utf-16", "one\ntwo\n")
    ident = types.VersionedTextDocumentIdentifier(uri=URI, version=2)
    end = types.Position(line=2, character=0)
    text_sync.apply_change(
        ws,
        ident,
        types.TextDocumentContentChangePartial(range=types.Range(start=end, end=end), text="3"),
    )
    assert ws.get_text_document(URI).source == "one\ntwo\n3"
    past = types.Position(line=9, character=4)
    text_sync.apply_change(
        ws,
        ident,
        types.TextDocumentContentChangePartial(range=types.Range(start=past, end=past), text="!"),
    )
    assert ws.get_text_document(URI).source == "one\ntwo\n3!"
    text_sync.apply_change(ws, ident, types.TextDocumentContentChangeWholeDocument(text="new"))
    assert ws.get_text_document(URI).source == "new"
    first = types.Position(line=0, character=3)
    text_sync.apply_change(
        ws,
        ident,
        types.TextDocumentContentChangePartial(range=types.Range(start=first, end=first), text="s"),
    )
    assert ws.get_text_document(URI).source == "news"


def test_line_starts_follow_lsp_line_breaks() -> None:
    rng = random.Random(1)
    pieces = ["a", "\n", "\r", "\r\n", "é", "😀", "\x0b", "\x0c", "\u2028", "\x85", " "]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        expected = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        assert list(line_starts(text)) == expected, repr(text)


@pytest.mark.parametrize("keep", [2, 256])  # (chunks' line starts dropped and found again)
@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 16])
def test_line_index_in_chunks_equals_the_plain_table(
    chunk: int, keep: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(positions, "CHUNK", chunk)
    monkeypatch.setattr(positions, "KEEP_CHUNKS", keep)
    rng = random.Random(chunk)
    pieces = ["a", "\n", "\r", "\r\n", "é", "😀", "\x0b", " "]
    for _ in range(1500):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(30)))
        starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        index = positions.LineIndex(text)
        assert index.line_count == len(starts)
        for line in range(-1, len(starts) + 2):
            assert index.line_start(line) == starts[max(0, min(line, len(starts) - 1))]
        for offset in range(-1, len(text) + 2):
            clamped = max(0, min(offset, len(text)))
            assert index.line_of(offset) == bisect.bisect_right(starts, clamped) - 1
