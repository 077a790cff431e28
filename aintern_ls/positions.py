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
from typing import Literal

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
    one), as a compact array: a 50 MB transcript has a million lines."""
    typecode = "I" if len(text) < 2**32 else "q"
    if any(ch in text for ch in _OTHER_BREAKS):
        return array(typecode, [0, *(m.end() for m in _NEWLINE.finditer(text))])
    ends = list(itertools.accumulate(map(len, text.splitlines(True))))
    if ends and text[-1] not in "\r\n":
        ends.pop()  # the end of a last line without a newline starts no line
    starts = array(typecode, [0])
    starts.extend(array(typecode, ends))
    return starts


class LineIndex:
    """Line starts of one text, for offset <-> (line, character) conversion."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = line_starts(text)

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[max(0, min(line, len(self._starts) - 1))]

    def line_of(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.text)))
        return bisect.bisect_right(self._starts, offset) - 1

    def position(self, offset: int, encoding: Encoding = "utf-16") -> tuple[int, int]:
        """Offset (code points) -> (line, character in `encoding` units)."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self._starts[line]
        return line, _units(self.text[start:offset], encoding)

    def offset(self, line: int, character: int, encoding: Encoding = "utf-16") -> int:
        """(line, character in `encoding` units) -> offset, clamped to the line."""
        if line >= len(self._starts):
            return len(self.text)
        if line < 0:
            return 0
        start = self._starts[line]
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)
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
