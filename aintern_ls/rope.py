"""A huge document's text in chunks, so that an edit does not copy it.

A `str` is immutable: every keystroke in a 50 MB transcript made a second 50 MB string
while the first was still in use (the version being read), and the server's peak memory
was both. A `Rope` is an immutable list of chunks of about `CHUNK` characters; an edit
makes a new rope that shares every chunk but the one or two it touched
(`Rope.splice`), so the version being read and the new one cost one text between them.

It reads like the `str` it stands for where the server reads a document's text: slices
and single characters (`text[a:b]`, `text[i]`), `find`, `rfind`, `count`,
`startswith`, `in`, `len`, `==` (against a rope or a string), `str(rope)` for the whole
text. Line breaks are counted per chunk when it is made (`line_breaks`), so a
`positions.LineIndex` over a rope costs no scan of the text. A `\\r\\n` pair is never
split between two chunks.

Documents of at least `ROPE_CHARS` characters are held as ropes (`text_sync`).
"""

from __future__ import annotations

import bisect
import itertools
import os
from array import array
from collections.abc import Iterator

CHUNK = 1 << 16
"""Characters per chunk (a chunk made by an edit holds up to twice as many)."""

ROPE_CHARS_ENV = "AINTERN_LS_ROPE_CHARS"


def _threshold() -> int:
    for name in (ROPE_CHARS_ENV, "AINTERN_LS_COMPACT_CHARS"):  # (tests set the latter to 0)
        raw = os.environ.get(name, "").strip()
        if raw.isdigit():
            return int(raw)
    return 8_000_000


ROPE_CHARS = _threshold()
"""Documents at least this long are held as a `Rope` (environment variable
`AINTERN_LS_ROPE_CHARS`; else `AINTERN_LS_COMPACT_CHARS`, which the tests set to 0)."""


def _breaks(chunk: str) -> int:
    """LSP line breaks (`\\r\\n`, `\\r`, `\\n`) in one chunk."""
    breaks = chunk.count("\n")
    if "\r" in chunk:
        breaks += chunk.count("\r") - chunk.count("\r\n")
    return breaks


def _pieces(text: str) -> list[str]:
    """`text` cut into chunks of about `CHUNK` characters, never inside a `\\r\\n`."""
    size = CHUNK
    out: list[str] = []
    at, n = 0, len(text)
    while at < n:
        end = min(at + size, n)
        if end < n and text[end - 1] == "\r" and text[end] == "\n":
            end += 1
        out.append(text[at:end])
        at = end
    return out


class Rope:
    """An immutable text in chunks (see the module's docstring)."""

    __slots__ = ("_chunks", "_length", "_starts", "line_breaks")

    def __init__(self, chunks: list[str], line_breaks: array[int] | None = None) -> None:
        """`chunks`: non-empty strings, no `\\r\\n` split between two of them."""
        self._chunks = chunks
        self._starts = array("q", itertools.accumulate(map(len, chunks), initial=0))
        self._length = self._starts[-1]
        self.line_breaks = (
            line_breaks if line_breaks is not None else array("q", map(_breaks, chunks))
        )
        """The line breaks of each chunk."""

    @classmethod
    def of(cls, text: str) -> Rope:
        return cls(_pieces(text))

    # -- the chunks ---------------------------------------------------------------------

    @property
    def chunk_count(self) -> int:
        return len(self._chunks)

    def chunk(self, k: int) -> str:
        return self._chunks[k]

    def chunk_start(self, k: int) -> int:
        """Where chunk `k` starts (`chunk_start(chunk_count)` is the length)."""
        return self._starts[k]

    def _locate(self, offset: int) -> int:
        """The chunk holding `offset` (the last one for the end of the text)."""
        return min(max(bisect.bisect_right(self._starts, offset) - 1, 0), len(self._chunks) - 1)

    # -- reading, as a str ----------------------------------------------------------------

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        return "".join(self._chunks)

    def __repr__(self) -> str:
        return f"<Rope of {self._length} characters in {len(self._chunks)} chunks>"

    def _bounds(self, start: int | None, end: int | None) -> tuple[int, int]:
        n = self._length
        lo = 0 if start is None else (max(start + n, 0) if start < 0 else min(start, n))
        hi = n if end is None else (max(end + n, 0) if end < 0 else min(end, n))
        return lo, hi

    def __getitem__(self, key: int | slice) -> str:
        if isinstance(key, slice):
            if key.step not in (None, 1):
                return str(self)[key]
            lo, hi = self._bounds(key.start, key.stop)
            return self._slice(lo, hi)
        index = key + self._length if key < 0 else key
        if not 0 <= index < self._length:
            raise IndexError("string index out of range")
        k = self._locate(index)
        return self._chunks[k][index - self._starts[k]]

    def _slice(self, lo: int, hi: int) -> str:
        if hi <= lo:
            return ""
        k = self._locate(lo)
        start = self._starts[k]
        chunk = self._chunks[k]
        if hi - start <= len(chunk):
            return chunk[lo - start : hi - start]
        parts = [chunk[lo - start :]]
        k += 1
        while k < len(self._chunks) and self._starts[k] < hi:
            parts.append(self._chunks[k][: hi - self._starts[k]])
            k += 1
        return "".join(parts)

    def iter_chunks(self, lo: int = 0, hi: int | None = None) -> Iterator[tuple[int, str]]:
        """(offset, text) of the pieces of `self[lo:hi]`, chunk by chunk (not copied when
        a piece is a whole chunk)."""
        lo, hi = self._bounds(lo, hi)
        if hi <= lo:
            return
        k = self._locate(lo)
        while k < len(self._chunks) and self._starts[k] < hi:
            start = self._starts[k]
            chunk = self._chunks[k]
            a, b = max(lo - start, 0), min(hi - start, len(chunk))
            yield start + a, chunk if a == 0 and b == len(chunk) else chunk[a:b]
            k += 1

    def find(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        lo, hi = self._bounds(start, end)
        if not sub:
            return lo if lo <= hi else -1
        k = self._locate(lo)
        width = len(sub) - 1
        while k < len(self._chunks) and self._starts[k] < hi:
            first = max(lo, self._starts[k])
            last = min(hi, self._starts[k + 1])  # occurrences starting before `last`
            if width == 0:
                at = self._chunks[k].find(sub, first - self._starts[k], last - self._starts[k])
                if at >= 0:
                    return self._starts[k] + at
            else:
                at = self._slice(first, min(hi, last + width)).find(sub)
                if at >= 0 and first + at < last:
                    return first + at
            k += 1
        return -1

    def rfind(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        lo, hi = self._bounds(start, end)
        if not sub:
            return hi if lo <= hi else -1
        if hi - lo < len(sub):
            return -1
        width = len(sub) - 1
        k = self._locate(max(hi - len(sub), lo))
        while k >= 0 and self._starts[k + 1] > lo:
            first = max(lo, self._starts[k])
            last = min(hi, self._starts[k + 1])
            if width == 0:
                at = self._chunks[k].rfind(sub, first - self._starts[k], last - self._starts[k])
                if at >= 0:
                    return self._starts[k] + at
            else:
                at = self._slice(first, min(hi, last + width)).rfind(sub)
                if at >= 0:
                    return first + at
            k -= 1
        return -1

    def count(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        lo, hi = self._bounds(start, end)
        if len(sub) != 1 and sub != "\r\n":  # (those never span two chunks)
            return self._slice(lo, hi).count(sub)
        return sum(piece.count(sub) for _, piece in self.iter_chunks(lo, hi))

    def startswith(self, prefix: str, start: int = 0) -> bool:
        if start > self._length:
            return False
        lo, _ = self._bounds(start, None)
        return self._slice(lo, lo + len(prefix)) == prefix

    def __contains__(self, sub: str) -> bool:
        return self.find(sub) >= 0

    def equal_at(self, start: int, other: Rope | str, other_start: int, length: int) -> bool:
        """`self[start:start+length] == other[other_start:other_start+length]`, without
        reading the chunks both ropes share at the same place."""
        if start < 0 or other_start < 0 or length < 0:
            return False
        if start + length > self._length or other_start + length > len(other):
            return False
        if not isinstance(other, Rope):  # (a piece at a time: no copy of the whole)
            shift = other_start - start
            return all(
                other.startswith(piece, at + shift)
                for at, piece in self.iter_chunks(start, start + length)
            )
        while length > 0:
            k, m = self._locate(start), other._locate(other_start)
            a, b = start - self._starts[k], other_start - other._starts[m]
            mine, theirs = self._chunks[k], other._chunks[m]
            n = min(len(mine) - a, len(theirs) - b, length)
            if not (mine is theirs and a == b) and mine[a : a + n] != theirs[b : b + n]:
                return False
            start, other_start, length = start + n, other_start + n, length - n
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rope | str):
            return len(other) == self._length and self.equal_at(0, other, 0, self._length)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    # -- editing --------------------------------------------------------------------------

    def splice(self, start: int, end: int, new: str) -> Rope:
        """A new rope reading `self[:start] + new + self[end:]`; it shares every chunk but
        those the edit touched."""
        start, end = self._bounds(start, end)
        end = max(start, end)
        chunks = self._chunks
        if not chunks:
            return Rope.of(new)
        i, j = self._locate(start), self._locate(end)
        merged = chunks[i][: start - self._starts[i]] + new + chunks[j][end - self._starts[j] :]
        # Keep chunks from getting small, and no \r\n split at either side.
        while j + 1 < len(chunks) and (
            len(merged) < CHUNK // 4 or (merged.endswith("\r") and chunks[j + 1][:1] == "\n")
        ):
            j += 1
            merged += chunks[j]
        while i > 0 and (
            (not merged and j + 1 >= len(chunks))
            or (chunks[i - 1].endswith("\r") and merged[:1] == "\n")
        ):
            i -= 1
            merged = chunks[i] + merged
        pieces = _pieces(merged) if len(merged) > 2 * CHUNK else ([merged] if merged else [])
        breaks = self.line_breaks[:i] + array("q", map(_breaks, pieces)) + self.line_breaks[j + 1 :]
        return Rope(chunks[:i] + pieces + chunks[j + 1 :], breaks)


Text = str | Rope
"""A document's text: a `str`, or for a huge document a `Rope`."""
