"""Line tables and edits of huge texts, made in slices (so a 50 MB document's lines
are never all strings at once, and an edit costs the old and the new text only): the
same results as the plain one-piece computations, wherever the slices fall."""

from __future__ import annotations

import random
import re

import pytest

from aintern_ls import positions, text_sync

PIECES = ["a", "b", "é", "😀", "\n", "\r", "\r\n", "\x0b", "\u2028", "\x85"]


def _lsp_line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


@pytest.mark.parametrize("slice_chars", [1, 2, 3, 7, 1 << 20])
def test_line_starts_in_slices_are_the_lsp_line_starts(
    monkeypatch: pytest.MonkeyPatch, slice_chars: int
) -> None:
    monkeypatch.setattr(positions, "_SLICE", slice_chars)
    rng = random.Random(slice_chars)
    for size in (0, 1, 2, 5, 40, 300):
        for _ in range(60):
            text = "".join(rng.choice(PIECES) for _ in range(size))
            assert list(positions.line_starts(text)) == _lsp_line_starts(text), repr(text)


def test_a_splice_in_slices_is_the_plain_splice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_sync, "SPLICE_SLICE", 3)
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 60)))
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 4)))
        assert text_sync.splice(text, start, end, new) == text[:start] + new + text[end:]
