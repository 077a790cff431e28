"""Offsets <-> LSP positions in UTF-16 (VS Code) and UTF-8 (Neovim) units."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.positions import Encoding, LineIndex

TEXT = "a😀b\n中文x\r\nend"


@pytest.mark.parametrize(
    ("offset", "encoding", "expected"),
    [
        (2, "utf-16", (0, 3)),  # the emoji is two UTF-16 units
        (2, "utf-8", (0, 5)),  # and four UTF-8 bytes
        (2, "utf-32", (0, 2)),
        (6, "utf-16", (1, 2)),  # CJK: one UTF-16 unit each
        (6, "utf-8", (1, 6)),  # three bytes each
        (9, "utf-16", (2, 0)),  # after \r\n
    ],
)
def test_position_counts_client_units(
    offset: int, encoding: Encoding, expected: tuple[int, int]
) -> None:
    assert LineIndex(TEXT).position(offset, encoding) == expected


def test_offset_clamps_past_line_end_and_document_end() -> None:
    li = LineIndex(TEXT)
    assert li.offset(0, 99) == 3
    assert li.offset(99, 0) == len(TEXT)


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=60), st.data())
def test_offset_position_round_trip(text: str, data: st.DataObject) -> None:
    li = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    # an offset between \r and \n is not a position a client can name
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return
    for enc in ("utf-8", "utf-16", "utf-32"):
        line, char = li.position(offset, enc)  # type: ignore[arg-type]
        assert li.offset(line, char, enc) == offset  # type: ignore[arg-type]
