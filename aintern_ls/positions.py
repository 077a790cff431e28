"""The one conversion between character offsets and LSP positions.

LSP positions count characters in the client's negotiated encoding: UTF-16 code
units for VS Code, UTF-8 bytes for Neovim (and UTF-32 = code points). Python string
offsets are code points, so `len(str)` is wrong for emoji and CJK text; everything
that builds a range goes through `LineIndex`.
"""

from __future__ import annotations

import bisect
import itertools
import re
from array import array
from collections import deque
from typing import Literal

from aintern_ls.rope import Rope, Text

Encoding = Literal["utf-8", "utf-16", "utf-32"]

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _units(text: str, encoding: Encoding) -> int:
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


# Characters `str.splitlines` ends a line at besides \r and \n (LSP does not).
_OTHER_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def line_starts(text: str) -> array[int]:
    """Offsets where the lines of `text` start (LSP lines: `\r\n`, `\r` or `\n` end
    one), as a compact array: a 50 MB transcript has a million lines. Read a slice at a
    time, so the lines of a huge text are never all strings at once."""
    typecode = "I" if len(text) < 2**32 else "q"
    starts = array(typecode, [0])
    n = len(text)
    at = 0
    while at < n:
        end = min(at + _SLICE, n)
        if end < n and text[end - 1] == "\r" and text[end] == "\n":
            end += 1  # never split a \r\n pair
        part = text[at:end]
        if any(ch in part for ch in _OTHER_BREAKS):
            starts.extend(array(typecode, (at + m.end() for m in _NEWLINE.finditer(part))))
        else:
            ends = array(
                typecode, itertools.accumulate(map(len, part.splitlines(True)), initial=at)
            )
            if part[-1] not in "\r\n":
                ends.pop()  # the end of a line without a newline starts no line
            starts.extend(ends[1:])
        at = end
    return starts


_SLICE = 1 << 20


CHUNK = 1 << 16
"""Characters per chunk of a `LineIndex`: a chunk's line starts are found when a
position in it is first asked for."""
KEEP_CHUNKS = 256
"""Chunks whose line starts a `LineIndex` keeps (found again when asked for after)."""


class LineIndex:
    """Line starts of one text, for offset <-> (line, character) conversion.

    Building it counts line breaks per chunk (fast, in C); the offsets of each
    chunk's lines are only listed when a position in that chunk is converted, so a
    new version of a huge document costs little when only a few places are read.
    """

    def __init__(self, text: Text) -> None:
        self.text = text
        if isinstance(text, Rope):  # (its chunks, whose line breaks it has counted)
            self._ends = [text.chunk_start(k + 1) for k in range(text.chunk_count)] or [0]
            self._lows = [text.chunk_start(k) for k in range(text.chunk_count)] or [0]
            self._before = list(itertools.accumulate(text.line_breaks, initial=0))
            if not text.chunk_count:
                self._before.append(0)
            self._chunks: list[array[int] | None] = [None] * len(self._ends)
            self._kept: deque[int] = deque()
            return
        n = len(text)
        bounds = [0]
        at = CHUNK
        while at < n:
            if text[at - 1] == "\r" and text[at] == "\n":
                at += 1  # never split a \r\n pair
            bounds.append(at)
            at += CHUNK
        bounds.append(n)
        self._ends = bounds[1:]
        """Where each chunk ends (it starts where the one before ends)."""
        self._lows = bounds[:-1]
        cumulative = [0]
        has_cr = "\r" in text  # (most texts have none: one scan instead of two per chunk)
        for lo, hi in zip(self._lows, self._ends, strict=True):
            breaks = text.count("\n", lo, hi)
            if has_cr:
                breaks += text.count("\r", lo, hi) - text.count("\r\n", lo, hi)
            cumulative.append(cumulative[-1] + breaks)
        self._before = cumulative
        """Line breaks before each chunk (and, last, in the whole text)."""
        self._chunks = [None] * len(self._ends)
        self._kept = deque()

    def _breaks(self, chunk: int) -> array[int]:
        """Offsets just after each line break of `chunk` (the starts of the next lines),
        from the chunk's start. At most `KEEP_CHUNKS` chunks' offsets are kept (a huge
        document's diagnostics read positions all over it)."""
        found = self._chunks[chunk]
        if found is None:
            lo, hi = self._lows[chunk], self._ends[chunk]
            text = self.text
            part = text.chunk(chunk) if isinstance(text, Rope) and lo < hi else text[lo:hi]
            found = line_starts(part)[1:]
            if len(part) < 1 << 16:
                found = array("H", found)  # (half the size)
            if len(self._kept) >= KEEP_CHUNKS:
                self._chunks[self._kept.popleft()] = None
            self._kept.append(chunk)
            self._chunks[chunk] = found
        return found

    @property
    def line_count(self) -> int:
        return self._before[-1] + 1

    def line_start(self, line: int) -> int:
        line = max(0, min(line, self._before[-1]))
        if line == 0:
            return 0
        k = line - 1  # the k-th line break ends where `line` starts
        chunk = bisect.bisect_right(self._before, k) - 1
        return self._lows[chunk] + self._breaks(chunk)[k - self._before[chunk]]

    def line_of(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.text)))
        chunk = min(bisect.bisect_left(self._ends, offset), len(self._ends) - 1)
        return self._before[chunk] + bisect.bisect_right(
            self._breaks(chunk), offset - self._lows[chunk]
        )

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """Offset (code points) -> (line, character in `encoding` units)."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.line_start(line)
        return line, _units(self.text[start:offset], encoding)

    def offset(self, line: int, character: int, encoding: Encoding = "utf-16") -> int:
        """(line, character in `encoding` units) -> offset, clamped to the line."""
        if line >= self.line_count:
            return len(self.text)
        if line < 0:
            return 0
        start = self.line_start(line)
        end = self.line_start(line + 1) if line + 1 < self.line_count else len(self.text)
        return start + column_offset(self.text[start:end].rstrip("\r\n"), character, encoding)


def column_offset(content: str, character: int, encoding: Encoding = "utf-16") -> int:
    """`character` in `encoding` units -> code points into one line's `content`, clamped."""
    if encoding == "utf-32" or content.isascii():
        return min(character, len(content))
    units = 0
    for i, ch in enumerate(content):
        if units >= character:
            return i
        units += _units(ch, encoding)
    return len(content)
