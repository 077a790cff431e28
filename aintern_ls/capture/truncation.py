"""The one truncation function: cut text to a line and character (or token) budget.

`truncate` keeps the start, the end, or both ends of a text (seed 001's TruncationMode),
cuts at line boundaries when one is near, never splits a character (nor separates a
combining mark from its base), and puts an indicator line where text was removed that
says how many lines and characters went. The kept text never exceeds the budget; only
the indicator comes on top.

A caller that kept only a head and a tail of a huge text (the output collector) passes
them joined, with `gap_at`/`gap_characters`/`gap_lines` describing the middle it never
stored, and gets the same cut, and the same indicator counts, as for the whole text.
"""

from __future__ import annotations

import bisect
import unicodedata

import attrs

from aintern_ls.models import TruncationMode

CHARACTERS_PER_TOKEN = 4
_MAX_LINE_SLACK = 1000  # never give up more than this to end a part on a line boundary
_SHORT_LINE = 80


@attrs.frozen
class Truncation:
    """A truncated text and what was cut."""

    text: str
    was_truncated: bool = False
    original_length: int = 0
    original_lines: int = 0
    removed_characters: int = 0
    removed_lines: int = 0
    indicator: str = ""  # the inserted indicator, newlines included ("" if not cut)


def budget_for(max_characters: int | None = None, max_tokens: int | None = None) -> int | None:
    """The character budget for a character and/or token limit (≈4 characters a token)."""
    limits = [v for v in (max_characters, None if max_tokens is None else max_tokens * 4) if v]
    if max_characters == 0 or max_tokens == 0:
        return 0
    return min(limits) if limits else None


def estimate_tokens(text: str) -> int:
    """Tokens an AI model will count for `text`, roughly (≈4 characters a token)."""
    return (len(text) + CHARACTERS_PER_TOKEN - 1) // CHARACTERS_PER_TOKEN


def indicator_text(lines: int, characters: int) -> str:
    """`…[truncated 1,234 lines / 56,789 characters]…`, without lines if none were cut."""
    if lines:
        noun = "line" if lines == 1 else "lines"
        return f"…[truncated {lines:,} {noun} / {characters:,} characters]…"
    return f"…[truncated {characters:,} characters]…"


def _is_joiner(ch: str) -> bool:
    # Characters that belong to the one before them: combining marks, variation
    # selectors, ZWJ. Cutting before one would split what the reader sees as a character.
    return bool(unicodedata.combining(ch)) or ch in "\u200d\ufe0e\ufe0f" or ch >= "\U000e0100"


def truncate(
    text: str,
    *,
    max_characters: int | None = None,
    max_lines: int | None = None,
    max_tokens: int | None = None,
    mode: TruncationMode = TruncationMode.KEEP_END,
    gap_at: int | None = None,
    gap_characters: int = 0,
    gap_lines: int = 0,
) -> Truncation:
    """Cut `text` to the budget; see the module docstring."""
    n = len(text)
    budget = budget_for(max_characters, max_tokens)
    starts = [0] if n else []
    pos = text.find("\n")
    while pos >= 0 and pos + 1 < n:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    has_gap = gap_at is not None
    gap = gap_at if gap_at is not None else 0
    head_count = sum(1 for s in starts if s < gap) if has_gap else len(starts)
    total_lines = len(starts) + gap_lines
    original_length = n + gap_characters

    def position(v: int) -> int:
        """Where virtual line `v` starts (the gap counts as `gap_lines` lines)."""
        if v >= total_lines:
            return n
        if v < head_count:
            return starts[v]
        if v < head_count + gap_lines:
            return gap
        return starts[v - gap_lines]

    # Kept parts are text[:h] and text[t:]; `line_cut` says whether they are disjoint.
    h = t = gap if has_gap else n
    line_cut = False
    if max_lines is not None and total_lines > max_lines:
        keep = max(max_lines, 0)
        if mode is TruncationMode.KEEP_START:
            h, t = position(keep), n
        elif mode is TruncationMode.KEEP_END:
            h, t = 0, position(total_lines - keep)
        else:
            head_lines = (keep + 1) // 2
            h, t = position(head_lines), position(total_lines - (keep - head_lines))
        if has_gap:
            h, t = min(h, gap), max(t, gap)
        line_cut = True

    first_line_end = (starts[1] if len(starts) > 1 else n) if starts else 0
    last_line_start = starts[-1] if starts else 0

    if budget is not None and h + (n - t) > budget:
        budget = max(budget, 0)
        slack = _slack(budget)
        if mode is TruncationMode.KEEP_START:
            h, t = _align_head(text, min(h, budget), slack), n
        elif mode is TruncationMode.KEEP_END:
            lower = t if line_cut or has_gap else 0
            h, t = 0, _align_tail(text, max(lower, n - budget), slack, last_line_start)
        else:
            # Without a line cut the whole text is available to both ends.
            head_avail = h
            tail_avail = n - t if line_cut or has_gap else n
            hb = min(head_avail, budget // 2)
            tb = min(tail_avail, budget - hb)
            hb = min(head_avail, budget - tb)
            # Keep the first and the last line whole when together they fit.
            fl, ll = first_line_end, n - last_line_start
            if hb < fl <= head_avail and fl + min(ll, tail_avail) <= budget:
                hb = fl
                tb = min(tail_avail, budget - hb)
            if tb < ll <= tail_avail and ll + min(fl, head_avail) <= budget:
                tb = ll
                hb = min(head_avail, budget - tb)
            h = _align_head(text, hb, _slack(hb))
            t = _align_tail(text, n - tb, _slack(tb), last_line_start)

    if h >= t and not has_gap:
        return Truncation(text, False, n, total_lines)

    removed_chars = (t - h) + gap_characters
    # A line counts as cut when any of it was removed.
    removed_lines = gap_lines
    if t > h:
        removed_lines += bisect.bisect_right(starts, t - 1) - bisect.bisect_right(starts, h) + 1
    note = indicator_text(removed_lines, removed_chars)
    head, tail = text[:h], text[t:]
    lead = "" if not head or head.endswith("\n") else "\n"
    if mode is TruncationMode.KEEP_START and not tail:
        indicator = lead + note
    elif not head:
        indicator = note + "\n"
    else:
        indicator = lead + note + "\n"
    return Truncation(
        head + indicator + tail,
        True,
        original_length,
        total_lines,
        removed_chars,
        removed_lines,
        indicator,
    )


def _slack(part: int) -> int:
    # How much of a kept part may be given up to end it on a line boundary: a short
    # line's worth, a quarter of a big part, never more than _MAX_LINE_SLACK.
    return min(max(part // 4, _SHORT_LINE), _MAX_LINE_SLACK)


def _align_head(text: str, end: int, slack: int) -> int:
    """End a kept head at a line boundary near `end`, else at a whole character."""
    if end <= 0:
        return 0
    if text[end - 1] == "\n":
        return end
    nl = text.rfind("\n", 0, end)
    if nl >= 0 and end - (nl + 1) <= slack:
        return nl + 1
    while end > 0 and end < len(text) and _is_joiner(text[end]):
        end -= 1
    return end


def _align_tail(text: str, start: int, slack: int, last_line_start: int) -> int:
    """Start a kept tail at a line boundary near `start`, else at a whole character."""
    n = len(text)
    if start >= n or start <= 0 or text[start - 1] == "\n":
        return max(start, 0)
    nl = text.find("\n", start)
    if nl >= 0 and nl + 1 - start <= slack and nl + 1 <= last_line_start:
        return nl + 1
    while start < n and _is_joiner(text[start]):
        start += 1
    return start
