"""The one conversion between character offsets and LSP positions.

LSP positions count characters in the client's negotiated encoding: UTF-16 code
units for VS Code, UTF-8 bytes for Neovim (and UTF-32 = code points). Python string
offsets are code points, so `len(str)` is wrong for emoji and CJK text; everything
that builds a range goes through `LineIndex`.
"""

from __future__ import annotations

import bisect
import re
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _units(text: str, encoding: Encoding) -> int:
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


class LineIndex:
    """Line starts of one text, for offset <-> (line, character) conversion."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

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
        content = self.text[start:end].rstrip("\r\n")
        if encoding == "utf-32" or content.isascii():
            return start + min(character, len(content))
        units = 0
        for i, ch in enumerate(content):
            if units >= character:
                return start + i
            units += _units(ch, encoding)
        return start + len(content)
