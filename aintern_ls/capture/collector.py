"""Collecting a command's output as it streams: bytes in, a clean bounded result out.

`OutputCollector` is what the terminal engine feeds PTY bytes to. It decodes UTF-8
incrementally (a character split across reads is fine; invalid bytes become U+FFFD),
renders through the VT processor, and keeps only a bounded head and tail of the
rendered text, so memory stays flat however much a command prints. `finish` redacts
each kept part, then truncates through the one truncation function, and returns a
`FinalOutput` for the run result (`output`, `wasTruncated`, `originalLength`).

A secret can't leak in halves across the hidden middle: each kept part is redacted
whole, and then a margin larger than any single secret is dropped at its cut side,
so a token that straddles a cut is either redacted whole or not shown at all.
"""

from __future__ import annotations

import codecs
from collections import deque

import attrs

from aintern_ls.capture.redaction import MARKER_PREFIX
from aintern_ls.capture.redaction import redact as redact_secrets
from aintern_ls.capture.truncation import truncate
from aintern_ls.capture.vt import Mark, VTProcessor
from aintern_ls.models import TruncationMode

# Larger than any secret we redact (a 4096-bit RSA key in PEM is about 3.3 KB).
_MARGIN = 8192


@attrs.frozen
class FinalOutput:
    """A command's output as the AI panel and the run result get it."""

    output: str
    was_truncated: bool
    original_length: int  # rendered characters before truncation
    redaction_count: int = 0


class OutputCollector:
    """Bounded, rendering, redacting collector of one command's output."""

    def __init__(
        self,
        max_characters: int = 100_000,
        truncation: TruncationMode = TruncationMode.KEEP_BOTH,
        redact: bool = True,
        *,
        max_lines: int | None = None,
        columns: int = 120,
        rows: int = 40,
        render: bool = True,
        normalize_line_endings: bool = True,
    ) -> None:
        self._max_characters = max_characters
        self._max_lines = max_lines
        self._mode = truncation
        self._redact = redact
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        # Without rendering (the Raw preset) text is kept as written, escapes and all.
        self._vt = VTProcessor(columns=columns, rows=rows) if render else None
        self._normalize = normalize_line_endings
        self._cr_pending = False
        self._capacity = max(max_characters, 0) + 2 * _MARGIN
        self._head: list[str] = []
        self._head_len = 0
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self._dropped = False
        self._length = 0
        self._newlines = 0
        self._marks: list[Mark] = []
        self._final: FinalOutput | None = None

    @property
    def marks(self) -> list[Mark]:
        """Shell-integration marks seen so far, with offsets in the rendered output."""
        return list(self._marks)

    @property
    def rendered_length(self) -> int:
        return self._length

    def feed(self, data: bytes) -> str:
        """Take the next bytes; return the newly rendered text for live display.

        The returned text is rendered but not redacted or truncated: it is for showing
        progress to the person running the command, not for the AI panel.
        """
        return self.feed_text(self._decoder.decode(data))

    def feed_text(self, text: str) -> str:
        """Like `feed`, for output that is already decoded."""
        if not text:
            return ""
        if self._vt is None:
            text = self._raw(text)
            self._keep(text)
            return text
        result = self._vt.feed(text)
        if result.marks:
            self._marks.extend(result.marks)
        self._keep(result.text)
        return result.text

    def _raw(self, text: str, final: bool = False) -> str:
        if not self._normalize:
            return text
        if self._cr_pending:  # a `\r` at the end of the last piece may start a `\r\n`
            text = "\r" + text
            self._cr_pending = False
        if text.endswith("\r") and not final:
            text = text[:-1]
            self._cr_pending = True
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def finish(self) -> FinalOutput:
        """End of output: render what is held back, redact, truncate. Idempotent."""
        if self._final is not None:
            return self._final
        tail = self._decoder.decode(b"", final=True)
        if tail:
            self.feed_text(tail)
        if self._vt is None:
            self._keep(self._raw("", final=True))
        else:
            result = self._vt.finish()
            self._marks.extend(result.marks)
            self._keep(result.text)
        self._final = self._result()
        return self._final

    # ------------------------------------------------------------------ internals

    def _keep(self, text: str) -> None:
        if not text:
            return
        self._length += len(text)
        self._newlines += text.count("\n")
        room = self._capacity - self._head_len
        if room > 0:
            self._head.append(text[:room])
            self._head_len += min(room, len(text))
            text = text[room:]
            if not text:
                return
        self._tail.append(text)
        self._tail_len += len(text)
        # Trim in batches so each character is copied a bounded number of times.
        if self._tail_len > 2 * self._capacity:
            joined = "".join(self._tail)[-self._capacity :]
            self._tail = deque([joined])
            self._tail_len = len(joined)
            self._dropped = True

    def _result(self) -> FinalOutput:
        head = "".join(self._head)
        tail = "".join(self._tail)
        if not self._dropped:
            text, count = head + tail, 0
            if self._redact:
                redacted = redact_secrets(text)
                text, count = redacted.text, redacted.count
            cut = truncate(
                text,
                max_characters=self._max_characters,
                max_lines=self._max_lines,
                mode=self._mode,
            )
            return FinalOutput(cut.text, cut.was_truncated, self._length, _shown(count, cut.text))

        if len(tail) > self._capacity:
            tail = tail[-self._capacity :]
        count = 0
        if self._redact:
            rh, rt = redact_secrets(head), redact_secrets(tail)
            head, tail, count = rh.text, rt.text, rh.count + rt.count
        head = _drop_end(head, _MARGIN)
        tail = _drop_start(tail, _MARGIN)
        gap_chars = max(self._length - len(head) - len(tail), 1)
        gap_lines = max(self._newlines - head.count("\n") - tail.count("\n"), 0)
        cut = truncate(
            head + tail,
            max_characters=self._max_characters,
            max_lines=self._max_lines,
            mode=self._mode,
            gap_at=len(head),
            gap_characters=gap_chars,
            gap_lines=gap_lines,
        )
        return FinalOutput(cut.text, True, self._length, _shown(count, cut.text))


def _shown(redacted: int, output: str) -> int:
    """Redactions that remain in `output` (those in cut text were not shown anyway)."""
    return min(redacted, output.count(MARKER_PREFIX))


def _drop_end(text: str, margin: int) -> str:
    """`text` less at least `margin` characters at its end, ending on a line if near."""
    end = max(len(text) - margin, 0)
    nl = text.rfind("\n", 0, end)
    return text[: nl + 1] if nl >= 0 and end - nl <= margin else text[:end]


def _drop_start(text: str, margin: int) -> str:
    """`text` less at least `margin` characters at its start, starting a line if near."""
    start = min(margin, len(text))
    nl = text.find("\n", start)
    return text[nl + 1 :] if nl >= 0 and nl - start <= margin else text[start:]
