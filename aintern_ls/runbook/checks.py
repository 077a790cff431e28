"""Expected output of a console fence against what the command printed.

Lines are compared with trailing whitespace removed and blank lines at either
end ignored. A line that is only `...` in the expected output stands for any
number of lines (doctest's ELLIPSIS, cram's glob), so a check can skip output
that changes from run to run (timings, paths, versions).
"""

from __future__ import annotations

import difflib
import functools

ELLIPSIS = "..."


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def matches(expected: str, actual: str) -> bool:
    """Whether `actual` output is what `expected` says (with `...` lines as wildcards)."""
    want, got = _lines(expected), _lines(actual)

    @functools.cache
    def match(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i] == ELLIPSIS:
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and want[i] == got[j] and match(i + 1, j + 1)

    return match(0, 0)


def diff(expected: str, actual: str) -> str:
    """A unified diff from the expected to the actual output ('' when they match)."""
    if matches(expected, actual):
        return ""
    return "\n".join(
        difflib.unified_diff(
            _lines(expected), _lines(actual), "expected", "actual", lineterm="", n=2
        )
    )
