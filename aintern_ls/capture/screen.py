"""The alternate screen: what a full-screen program (less, top, vim) left on screen.

Full-screen programs draw with absolute cursor moves that a line renderer cannot follow,
so their output goes through pyte's screen model and the capture gets the final screen,
headed by a line saying what it is, instead of a dump of redraws.
"""

from __future__ import annotations

import re

import pyte

# Input beyond this is counted but not drawn: pyte is slow, and the final screen of a
# program that ran this long is still summarised by its size.
_MAX_DRAWN = 8 * 1024 * 1024
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


class AlternateScreen:
    """A screen model fed with a full-screen program's output."""

    def __init__(self, columns: int, rows: int) -> None:
        self._screen = pyte.Screen(columns, rows)
        self._stream = pyte.Stream(self._screen)
        self._fed = 0

    def draw(self, text: str) -> None:
        """Give the screen model text or one whole control sequence."""
        if self._fed < _MAX_DRAWN:
            try:
                self._stream.feed(text)
            except Exception:
                # pyte raises on some sequences it does not expect (extra parameters)
                # and its parser is then spent: keep the screen, start a fresh parser.
                self._stream = pyte.Stream(self._screen)
        self._fed += len(text)

    def summary(self) -> list[str]:
        """The final screen's non-blank lines under a header; empty if nothing was drawn."""
        lines = [_UNPRINTABLE.sub("", line).rstrip() for line in self._screen.display]
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        if not lines:
            return []
        # Runs of blank rows are layout, not content: one blank line says as much.
        lines = [line for i, line in enumerate(lines) if line or lines[i - 1]]
        return [f"[full-screen program output, final screen ({len(lines)} lines):]", *lines]
