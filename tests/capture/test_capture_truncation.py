"""The one truncation function: budgets, modes, indicators, line and character safety."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from aintern_ls.capture import budget_for, estimate_tokens, truncate
from aintern_ls.capture.truncation import indicator_text
from aintern_ls.models import TruncationMode

KEEP_START, KEEP_END, KEEP_BOTH = TruncationMode

NUMBERED = "\n".join(f"line {i:03d}" for i in range(100))  # 100 lines of 8 characters


def test_text_within_budget_is_returned_unchanged() -> None:
    result = truncate("short\ntext", max_characters=100, max_lines=10)
    assert result.text == "short\ntext"
    assert not result.was_truncated
    assert result.indicator == ""


def test_keep_start_keeps_whole_lines_from_the_beginning() -> None:
    result = truncate(NUMBERED, max_characters=50, mode=KEEP_START)
    assert result.text == (
        "line 000\nline 001\nline 002\nline 003\nline 004\n…[truncated 95 lines / 854 characters]…"
    )


def test_keep_end_keeps_whole_lines_from_the_end() -> None:
    result = truncate(NUMBERED, max_characters=50, mode=KEEP_END)
    assert result.text == (
        "…[truncated 95 lines / 855 characters]…\nline 095\nline 096\nline 097\nline 098\nline 099"
    )


def test_keep_both_keeps_the_beginning_and_the_end() -> None:
    result = truncate(NUMBERED, max_characters=50, mode=KEEP_BOTH)
    assert result.text.startswith("line 000\nline 001\n")
    assert result.text.endswith("line 098\nline 099")
    assert "\n…[truncated 96 lines / 864 characters]…\n" in result.text


def test_line_limit_in_each_mode() -> None:
    start = truncate(NUMBERED, max_lines=3, mode=KEEP_START).text
    end = truncate(NUMBERED, max_lines=3, mode=KEEP_END).text
    both = truncate(NUMBERED, max_lines=4, mode=KEEP_BOTH).text
    assert start == "line 000\nline 001\nline 002\n…[truncated 97 lines / 872 characters]…"
    assert end == "…[truncated 97 lines / 873 characters]…\nline 097\nline 098\nline 099"
    assert both.split("\n") == [
        "line 000",
        "line 001",
        "…[truncated 96 lines / 864 characters]…",
        "line 098",
        "line 099",
    ]


def test_line_and_character_limits_apply_together() -> None:
    result = truncate(NUMBERED, max_lines=10, max_characters=20, mode=KEEP_END)
    assert result.text.endswith("line 098\nline 099")
    assert len(result.text) - len(result.indicator) <= 20


def test_indicator_says_how_many_lines_and_characters_were_cut() -> None:
    result = truncate(NUMBERED, max_characters=50, mode=KEEP_END)
    assert result.removed_lines == 95
    assert result.removed_characters == len(NUMBERED) - 44
    assert result.original_length == len(NUMBERED)
    assert result.original_lines == 100
    assert indicator_text(1234, 56789) == "…[truncated 1,234 lines / 56,789 characters]…"
    assert indicator_text(0, 5) == "…[truncated 5 characters]…"
    assert indicator_text(1, 5) == "…[truncated 1 line / 5 characters]…"


def test_a_single_long_line_is_cut_mid_line() -> None:
    result = truncate("x" * 1000, max_characters=100, mode=KEEP_END)
    assert result.text == "…[truncated 1 line / 900 characters]…\n" + "x" * 100


def test_cut_prefers_a_nearby_line_boundary_but_not_a_far_one() -> None:
    near = "a" * 10 + "\n" + "b" * 95
    far = "a" * 10 + "\n" + "b" * 500
    assert truncate(near, max_characters=100, mode=KEEP_END).text.endswith("\n" + "b" * 95)
    assert truncate(far, max_characters=100, mode=KEEP_END).text.endswith("\n" + "b" * 100)


def test_a_combining_mark_stays_with_its_base_character() -> None:
    text = "e\u0301" * 100  # é as e + combining acute
    for budget in range(1, 30):
        for mode in TruncationMode:
            kept = truncate(text, max_characters=budget, mode=mode)
            parts = kept.text.replace(kept.indicator, "\0").split("\0")
            for part in parts:
                assert not part or part[0] != "\u0301", (budget, mode)


def test_token_budget_is_four_characters_a_token() -> None:
    assert budget_for(max_tokens=100) == 400
    assert budget_for(max_characters=300, max_tokens=100) == 300
    assert budget_for() is None
    result = truncate("y" * 1000, max_tokens=25, mode=KEEP_START)
    assert result.text.startswith("y" * 100 + "\n…")
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("abcde") == 2


def test_zero_budget_keeps_only_the_indicator() -> None:
    result = truncate("abc\ndef", max_characters=0, mode=KEEP_BOTH)
    assert result.was_truncated
    assert result.text == result.indicator


def test_hidden_middle_is_counted_in_the_indicator() -> None:
    head = "".join(f"h{i}\n" for i in range(50))
    tail = "".join(f"t{i}\n" for i in range(50))
    result = truncate(
        head + tail,
        max_characters=20,
        mode=KEEP_BOTH,
        gap_at=len(head),
        gap_characters=10_000,
        gap_lines=1000,
    )
    assert result.text.startswith("h0\nh1\n")
    assert result.text.endswith("t48\nt49\n")
    assert result.removed_lines > 1000
    assert result.removed_characters > 10_000
    assert result.original_length == len(head) + len(tail) + 10_000


# ----------------------------------------------------------------------- properties

LINES = st.lists(st.text(alphabet="ab é\u0301漢🙂", max_size=30), min_size=1, max_size=40)


@given(LINES, st.integers(min_value=0, max_value=300), st.sampled_from(list(TruncationMode)))
def test_truncated_text_never_exceeds_budget_plus_indicator(
    lines: list[str], budget: int, mode: TruncationMode
) -> None:
    text = "\n".join(lines)
    result = truncate(text, max_characters=budget, mode=mode)
    if result.was_truncated:
        assert len(result.text) - len(result.indicator) <= budget
        assert result.indicator in result.text
    else:
        assert result.text == text
        assert len(text) <= budget


@given(
    LINES,
    st.integers(min_value=1, max_value=50),
    st.integers(min_value=0, max_value=300),
    st.sampled_from(list(TruncationMode)),
)
def test_line_budget_is_respected(
    lines: list[str], max_lines: int, budget: int, mode: TruncationMode
) -> None:
    text = "\n".join(lines)
    result = truncate(text, max_characters=budget, max_lines=max_lines, mode=mode)
    kept = result.text.replace(result.indicator, "\n") if result.was_truncated else result.text
    assert len([line for line in kept.split("\n") if line]) <= max_lines
    assert len(result.text) - len(result.indicator) <= budget


@given(LINES, st.integers(min_value=0, max_value=300))
def test_keep_end_keeps_the_last_line(lines: list[str], budget: int) -> None:
    text = "\n".join(lines)
    assume(len(lines[-1]) <= budget)
    assert truncate(text, max_characters=budget, mode=KEEP_END).text.endswith(lines[-1])


@given(LINES, st.integers(min_value=0, max_value=300))
def test_keep_both_keeps_the_first_and_last_lines(lines: list[str], budget: int) -> None:
    text = "\n".join(lines)
    # A final empty line is the newline ending the line before it, not a line of its own.
    assume(lines[-1] and len(lines) >= 2 and len(lines[0]) + 1 + len(lines[-1]) <= budget)
    result = truncate(text, max_characters=budget, mode=KEEP_BOTH).text
    assert result.startswith(lines[0] + "\n")
    assert result.endswith(lines[-1])


@given(LINES, st.integers(min_value=2, max_value=20))
def test_keep_both_line_limit_keeps_the_first_and_last_lines(
    lines: list[str], max_lines: int
) -> None:
    text = "\n".join(lines)
    result = truncate(text, max_lines=max_lines, mode=KEEP_BOTH).text
    assert result.startswith(lines[0])
    assert result.endswith(lines[-1])


@given(LINES, st.integers(min_value=0, max_value=300), st.sampled_from(list(TruncationMode)))
def test_kept_text_is_original_text(lines: list[str], budget: int, mode: TruncationMode) -> None:
    text = "\n".join(lines)
    result = truncate(text, max_characters=budget, mode=mode)
    head, _, tail = result.text.partition(result.indicator) if result.indicator else (text, "", "")
    assert text.startswith(head)
    assert text.endswith(tail)
    assert result.removed_characters == len(text) - len(head) - len(tail)


@pytest.mark.parametrize("mode", list(TruncationMode))
def test_wide_and_astral_characters_are_never_split(mode: TruncationMode) -> None:
    text = "漢🙂" * 200
    for budget in (1, 2, 3, 51, 100):
        result = truncate(text, max_characters=budget, mode=mode)
        assert result.text.encode("utf-8").decode("utf-8") == result.text
        assert all(c in "漢🙂" for c in result.text.replace(result.indicator, ""))
