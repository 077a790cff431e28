"""The session ring buffer: bounded in lines and in bytes, positions that survive trimming."""

from __future__ import annotations

from aintern_ls.terminal.session import MAX_LINE_CHARS, OutputRing


def test_ring_keeps_the_newest_lines() -> None:
    ring = OutputRing(max_lines=3)
    ring.append("a\nb\nc\nd\ne")
    assert ring.lines() == ["c", "d", "e"]
    assert ring.first_line == 2


def test_ring_is_bounded_in_bytes() -> None:
    ring = OutputRing(max_lines=1000, max_bytes=100)
    for i in range(100):
        ring.append(f"line {i:03d} ✓\n")  # 13 bytes each in UTF-8
    assert sum(len(line.encode()) for line in ring.lines()) <= 100
    assert ring.lines()[-1] == "line 099 ✓"


def test_a_line_that_never_ends_is_cut() -> None:
    ring = OutputRing()
    ring.append("x" * (MAX_LINE_CHARS * 2 + 5))
    assert [len(line) for line in ring.lines()] == [MAX_LINE_CHARS, MAX_LINE_CHARS, 5]


def test_text_between_positions_and_clipping() -> None:
    ring = OutputRing(max_lines=3)
    ring.append("$ cmd\n")
    start = ring.position
    ring.append("one\ntwo\n")
    end = ring.position
    assert ring.text_between(start, end) == ("one\ntwo\n", False)
    ring.append("three\nfour\n")
    text, clipped = ring.text_between(start, end)
    assert clipped and text == "two\n"
