"""TEMPORARY stand-in for `aintern_ls.capture.OutputCollector` until the capture package lands.

Only for the terminal package's own tests; it does no VT processing. Delete once the real
collector exists.
"""

from __future__ import annotations

import codecs

import attrs


@attrs.frozen
class FinalOutput:
    output: str
    was_truncated: bool
    original_length: int
    redaction_count: int = 0


class OutputCollector:
    def __init__(self, max_characters: int = 100_000) -> None:
        self._max = max_characters
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._head = ""
        self._tail = ""
        self._length = 0

    def feed(self, data: bytes) -> None:
        text = self._decoder.decode(data).replace("\r\n", "\n")
        self._length += len(text)
        half = self._max // 2
        if len(self._head) < half:
            take = half - len(self._head)
            self._head += text[:take]
            text = text[take:]
        self._tail = (self._tail + text)[-half:]

    def finish(self) -> FinalOutput:
        self.feed(b"")
        tail = self._decoder.decode(b"", final=True)
        self._tail += tail
        truncated = self._length > self._max
        if truncated:
            out = f"{self._head}\n[... truncated ...]\n{self._tail}"
        else:
            out = self._head + self._tail
        return FinalOutput(out, truncated, self._length)
