"""Incremental `didChange` edits applied without rebuilding the whole text.

pygls applies an incremental change by splitting the document into lines and writing
every line back out: for a 4 MB transcript that is a hundred thousand strings per
keystroke. Here each open document keeps the offsets where its lines start (from the
last rebuild) plus the shifts of the edits since, so an edit is two position look-ups
and one splice. An edit that adds or removes a line break rebuilds the offsets.

Positions follow LSP: lines end at `\\r\\n`, `\\r` or `\\n`; `character` counts the
client's units (`positions.Encoding`) and is clamped to the line's content; a line
past the end means the end of the text.

A huge document (at least `rope.ROPE_CHARS` characters when opened or sent whole) is
held as a `Rope`: an edit then shares all but the edited chunk with the version before,
instead of copying the whole text while the old one is still read (`adopt`).
"""

from __future__ import annotations

import weakref
from array import array
from urllib.parse import unquote

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from aintern_ls.positions import Encoding, LineIndex, column_offset, line_starts
from aintern_ls.rope import ROPE_CHARS, Rope, Text

MAX_SHIFTS = 64
"""Edits kept as shifts before the line offsets are rebuilt."""


class LineTable:
    """Line starts of one text as edits change it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: array[int] = line_starts(text)
        self._shifts: list[tuple[int, int]] = []
        """(line, delta): lines after `line` start `delta` characters later."""

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        start = self._starts[line]
        for after, delta in self._shifts:
            if after < line:
                start += delta
        return start

    def offset(self, line: int, character: int, encoding: Encoding) -> int:
        """(line, character in `encoding` units) -> offset in `text`."""
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start = self.line_start(line)
        end = self.line_start(line + 1) if line + 1 < len(self._starts) else len(self.text)
        content = self.text[start:end].rstrip("\r\n")
        return start + column_offset(content, max(character, 0), encoding)

    def replace(self, line: int, start: int, end: int, new: str) -> str:
        """Replace `text[start:end]` (which starts on `line`) with `new`; returns the
        new text."""
        text = self.text
        end = max(start, end)
        changed = splice(text, start, end, new)
        structural = (
            "\n" in new
            or "\r" in new
            or any(ch in text[start:end] for ch in "\r\n")
            or (start > 0 and text[start - 1] == "\r")
        )
        self.text = changed
        if structural or len(self._shifts) >= MAX_SHIFTS:
            self._starts = line_starts(changed)
            self._shifts = []
        elif len(new) != end - start:
            self._shifts.append((line, len(new) - (end - start)))
        return changed


SPLICE_SLICE = 1 << 20


def splice(text: str, start: int, end: int, new: str) -> str:
    """`text[:start] + new + text[end:]`, without a whole copy of either side besides
    the result: a 50 MB document costs the old and the new text during an edit, not
    twice that. (`+=` on a string nothing else holds grows it in place.)"""
    if len(text) < 4 * SPLICE_SLICE:
        return text[:start] + new + text[end:]
    changed = ""
    for at in range(0, start, SPLICE_SLICE):
        changed += text[at : min(at + SPLICE_SLICE, start)]
    changed += new
    for at in range(end, len(text), SPLICE_SLICE):
        changed += text[at : at + SPLICE_SLICE]
    return changed


_TABLES: weakref.WeakKeyDictionary[TextDocument, LineTable] = weakref.WeakKeyDictionary()


def apply_change(
    workspace: Workspace,
    document: types.VersionedTextDocumentIdentifier,
    change: types.TextDocumentContentChangeEvent,
) -> None:
    """Apply one `didChange` content change to the workspace's copy of `document`
    (what `Workspace.update_text_document` does, without its cost on huge texts)."""
    doc = workspace.text_documents.get(unquote(document.uri))
    if doc is not None and isinstance(getattr(doc, "_source", None), Rope):
        _apply_to_rope(workspace, doc, document, change)
        return
    if (
        doc is None  # pygls reports it (not open)
        or not isinstance(change, types.TextDocumentContentChangePartial)
        or not isinstance(getattr(doc, "_source", None), str)
        or not getattr(doc, "_is_sync_kind_incremental", False)
    ):
        if doc is not None:
            _TABLES.pop(doc, None)
        workspace.update_text_document(document, change)
        if doc is not None:
            adopt(doc)
        return
    source = doc.source
    table = _TABLES.get(doc)
    if table is None or table.text is not source:
        table = _TABLES[doc] = LineTable(source)
    encoding = _encoding(workspace.position_encoding)
    start, end = change.range.start, change.range.end
    line = min(max(start.line, 0), table.line_count - 1)
    begin = table.offset(start.line, start.character, encoding)
    finish = table.offset(end.line, end.character, encoding)
    doc._source = table.replace(line, begin, finish, change.text)
    doc.version = document.version


def _apply_to_rope(
    workspace: Workspace,
    doc: TextDocument,
    document: types.VersionedTextDocumentIdentifier,
    change: types.TextDocumentContentChangeEvent,
) -> None:
    """`apply_change` for a document held as a `Rope`: the new version shares all but
    the edited chunks with the old one (which may still be read meanwhile)."""
    source: Rope = doc._source  # type: ignore[assignment]
    if isinstance(change, types.TextDocumentContentChangePartial):
        index = LineIndex(source)  # (no scan: the rope counted its chunks' lines)
        encoding = _encoding(workspace.position_encoding)
        start, end = change.range.start, change.range.end
        begin = index.offset(start.line, max(start.character, 0), encoding)
        finish = index.offset(end.line, max(end.character, 0), encoding)
        doc._source = source.splice(begin, max(begin, finish), change.text)  # type: ignore[assignment]
    else:
        doc._source = change.text
        adopt(doc)
    doc.version = document.version


def adopt(doc: TextDocument) -> None:
    """Hold a huge document's text as a `Rope` (an open, or the whole text sent again)."""
    source = getattr(doc, "_source", None)
    if isinstance(source, str) and len(source) >= ROPE_CHARS:
        _TABLES.pop(doc, None)
        doc._source = Rope.of(source)  # type: ignore[assignment]


def source_of(doc: TextDocument) -> Text:
    """A workspace document's text: a `str`, or for a huge document a `Rope`."""
    return doc.source


def _encoding(value: object) -> Encoding:
    name = str(getattr(value, "value", value) or "utf-16")
    return name if name in ("utf-8", "utf-32") else "utf-16"  # type: ignore[return-value]
