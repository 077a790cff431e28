"""CaptureService: terminal output captured for an AI panel, with history (seed 001).

Two ways in. A *stream capture* (`start_capture` ... `stop_capture`) collects what a
session prints while a command runs, fed through `on_output`; a *buffer capture*
(`capture_buffer`, `capture_selection`) takes what the session already holds, in one of
the capture modes: the full buffer, the last command (between shell-integration marks
C and D), the last N lines, or text the client selected. Every capture is cleaned the
same way (VT rendering, line endings, secret redaction, whitespace trim, truncation per
`OutputCaptureSettings`), kept in a per-session history pruned to the configured size,
and can be fetched again by id.

The service does not know the terminal package: anything with the few attributes of
`CapturableSession` can be captured, so tests use an in-memory session and the server
passes real ones.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from datetime import UTC, datetime
from typing import Protocol

import attrs

from aintern_ls.capture.collector import OutputCollector
from aintern_ls.capture.redaction import MARKER_RE, redact
from aintern_ls.capture.truncation import CHARACTERS_PER_TOKEN, budget_for, truncate
from aintern_ls.capture.vt import Mark, VTProcessor, render
from aintern_ls.errors import AInternError
from aintern_ls.models import (
    OutputCaptureMode,
    OutputCaptureSettings,
    TerminalOutputCapture,
    TruncationMode,
)

DEFAULT_LAST_LINES = 50


class CapturableSession(Protocol):
    """What the capture service needs from a terminal session."""

    @property
    def session_id(self) -> str: ...

    @property
    def name(self) -> str | None: ...

    @property
    def cwd(self) -> str | None: ...

    def buffer_text(self) -> str:
        """The session's retained output as received: escape sequences and marks included."""
        ...


@attrs.frozen
class ProcessedOutput:
    """Output after cleaning: what a capture stores."""

    text: str
    was_truncated: bool
    original_length: int
    redaction_count: int


@attrs.frozen
class CommandOutput:
    """The last command found in a buffer through its shell-integration marks."""

    output: str
    command: str | None = None
    exit_code: int | None = None
    cwd: str | None = None


@attrs.define
class _StreamCapture:
    session_id: str
    session_name: str | None
    command: str | None
    command_block_id: str | None
    working_directory: str | None
    mode: OutputCaptureMode
    started_at: datetime
    collector: OutputCollector


def _now() -> datetime:
    return datetime.now(UTC)


def last_command_output(
    marks: list[Mark] | tuple[Mark, ...], rendered: str
) -> CommandOutput | None:
    """The output of the last command in `rendered`, located by its OSC 633/133 marks.

    The output runs from the last C mark (output start) to the D mark (finished) after
    it, or to the end when the command is still running. The command line comes from a
    633 E mark, the exit code from D's parameter, the directory from a `Cwd=` property.
    """
    start_index = next((i for i in range(len(marks) - 1, -1, -1) if marks[i].kind == "C"), None)
    if start_index is None:
        return None
    start = marks[start_index].offset
    end = len(rendered)
    exit_code: int | None = None
    for mark in marks[start_index + 1 :]:
        if mark.kind == "D":
            end = mark.offset
            if mark.params and mark.params[0].lstrip("-").isdigit():
                exit_code = int(mark.params[0])
            break
    command: str | None = None
    cwd: str | None = None
    for mark in marks[: start_index + 1]:
        if mark.kind == "E" and mark.params:
            command = mark.params[0]
        elif mark.kind == "P" and mark.params and mark.params[0].startswith("Cwd="):
            cwd = mark.params[0][4:]
    return CommandOutput(rendered[start:end], command, exit_code, cwd)


# Tokens `TerminalOutputCapture.estimated_tokens` adds for the framing, and room for the
# truncation indicator line.
_FRAMING_CHARACTERS = 50
_INDICATOR_ALLOWANCE = 60


def fit_capture(
    capture: TerminalOutputCapture,
    *,
    max_characters: int | None = None,
    max_tokens: int | None = None,
    mode: TruncationMode = TruncationMode.KEEP_BOTH,
) -> TerminalOutputCapture:
    """The capture cut to fit a character or token budget for an AI prompt.

    A token budget covers the whole capture as `estimated_tokens` counts it (command
    and framing included), so `fit_capture(c, max_tokens=n).estimated_tokens <= n`
    whenever the budget leaves room for any output at all.
    """
    budget = budget_for(max_characters)
    if max_tokens is not None:
        room = (
            max_tokens * CHARACTERS_PER_TOKEN
            - len(capture.command or "")
            - _FRAMING_CHARACTERS
            - _INDICATOR_ALLOWANCE
        )
        budget = max(0, room) if budget is None else min(budget, max(0, room))
    if budget is None or len(capture.output) <= budget:
        return capture
    cut = truncate(capture.output, max_characters=budget, mode=mode)
    return attrs.evolve(
        capture,
        output=cut.text,
        is_truncated=True,
        original_length=max(capture.original_length, len(capture.output)),
    )


class CaptureService:
    """Stream and buffer captures with per-session history; see the module docstring."""

    def __init__(self, settings: OutputCaptureSettings | None = None) -> None:
        self._settings = settings or OutputCaptureSettings()
        self._lock = threading.Lock()
        self._active: dict[str, _StreamCapture] = {}
        self._captures: OrderedDict[str, TerminalOutputCapture] = OrderedDict()
        self._by_session: dict[str, deque[str]] = {}

    # ---------------------------------------------------------------- configuration

    @property
    def settings(self) -> OutputCaptureSettings:
        return self._settings

    def configure(self, settings: OutputCaptureSettings) -> None:
        """Use `settings` for captures from now on (history is pruned to its size)."""
        with self._lock:
            self._settings = settings
            for session_id in list(self._by_session):
                self._prune(session_id)

    # --------------------------------------------------------------- stream capture

    def start_capture(
        self,
        session: CapturableSession,
        command: str | None = None,
        *,
        mode: OutputCaptureMode = OutputCaptureMode.LAST_COMMAND,
        command_block_id: str | None = None,
    ) -> None:
        """Start collecting what `session` prints (replacing a capture in progress).

        `mode` is recorded on the capture: `LAST_COMMAND` for a command run, `MANUAL`
        when the person starts and stops the capture themselves.
        """
        s = self._settings
        collector = OutputCollector(
            max_characters=s.max_capture_length,
            truncation=s.truncation_mode,
            redact=s.redact_secrets,
            max_lines=s.max_capture_lines,
            render=s.strip_ansi_sequences,
            normalize_line_endings=s.normalize_line_endings,
        )
        with self._lock:
            self._active[session.session_id] = _StreamCapture(
                session.session_id,
                session.name,
                command,
                command_block_id,
                session.cwd,
                mode,
                _now(),
                collector,
            )

    def is_capturing(self, session_id: str) -> bool:
        return session_id in self._active

    def on_output(self, session_id: str, data: str | bytes) -> None:
        """Output arrived from a session; a capture in progress for it keeps it."""
        with self._lock:
            active = self._active.get(session_id)
            if active is None:
                return
            if isinstance(data, bytes):
                active.collector.feed(data)
            else:
                active.collector.feed_text(data)

    def stop_capture(
        self, session_id: str, *, exit_code: int | None = None
    ) -> TerminalOutputCapture | None:
        """Stop the capture in progress and return it; None if none was started."""
        with self._lock:
            active = self._active.pop(session_id, None)
        if active is None:
            return None
        final = active.collector.finish()
        capture = TerminalOutputCapture(
            session_id=session_id,
            session_name=active.session_name,
            command_block_id=active.command_block_id,
            command=active.command,
            output=final.output.strip(),
            is_truncated=final.was_truncated,
            original_length=final.original_length,
            exit_code=exit_code,
            started_at=active.started_at,
            completed_at=_now(),
            working_directory=active.working_directory,
            capture_mode=active.mode,
            redaction_count=final.redaction_count,
        )
        self._remember(capture)
        return capture

    # --------------------------------------------------------------- buffer capture

    def capture_buffer(
        self,
        session: CapturableSession,
        mode: OutputCaptureMode = OutputCaptureMode.FULL_BUFFER,
        line_count: int | None = None,
        *,
        selection: str | None = None,
        settings: OutputCaptureSettings | None = None,
    ) -> TerminalOutputCapture:
        """Capture what `session` holds now, in `mode`.

        `settings` (limits, truncation, redaction) apply to this capture only; the
        service's own settings are used when it is None, and are never changed here.

        `LAST_N_LINES` takes `line_count` lines (50 by default); `SELECTION` takes the
        `selection` text the client sent; `LAST_COMMAND` finds the last command through
        its marks (the whole buffer when the session has no shell integration).
        """
        started = _now()
        command: str | None = None
        exit_code: int | None = None
        cwd = session.cwd
        if mode is OutputCaptureMode.SELECTION:
            raw = selection or ""
        elif mode is OutputCaptureMode.MANUAL:
            raise AInternError(
                "A manual capture is started and stopped explicitly: "
                "use start_capture(..., mode=MANUAL) and stop_capture."
            )
        elif mode is OutputCaptureMode.LAST_COMMAND:
            vt = VTProcessor()
            first = vt.feed(session.buffer_text())
            rest = vt.finish()
            rendered = first.text + rest.text
            found = last_command_output([*first.marks, *rest.marks], rendered)
            if found is None:
                raw = rendered
            else:
                raw, command, exit_code = found.output, found.command, found.exit_code
                cwd = found.cwd or cwd
        else:
            raw = session.buffer_text()
        processed = self.process_output(
            raw,
            last_lines=(line_count or DEFAULT_LAST_LINES)
            if mode is OutputCaptureMode.LAST_N_LINES
            else None,
            settings=settings,
        )
        capture = TerminalOutputCapture(
            session_id=session.session_id,
            session_name=session.name,
            command=command,
            output=processed.text,
            is_truncated=processed.was_truncated,
            original_length=processed.original_length,
            exit_code=exit_code,
            started_at=started,
            completed_at=_now(),
            working_directory=cwd,
            capture_mode=mode,
            redaction_count=processed.redaction_count,
        )
        self._remember(capture)
        return capture

    def capture_selection(
        self, session: CapturableSession, selection: str | None
    ) -> TerminalOutputCapture | None:
        """Capture the text the client selected; None when nothing is selected."""
        if not selection:
            return None
        return self.capture_buffer(session, OutputCaptureMode.SELECTION, selection=selection)

    # ---------------------------------------------------------------------- history

    def get_recent_captures(self, session_id: str, count: int = 10) -> list[TerminalOutputCapture]:
        """The session's most recent captures, newest first."""
        with self._lock:
            ids = list(self._by_session.get(session_id, ()))
            found = [self._captures[i] for i in reversed(ids) if i in self._captures]
        return found[: max(count, 0)]

    def get_capture(self, capture_id: str) -> TerminalOutputCapture | None:
        return self._captures.get(capture_id)

    def _remember(self, capture: TerminalOutputCapture) -> None:
        with self._lock:
            self._captures[capture.id] = capture
            self._by_session.setdefault(capture.session_id, deque()).append(capture.id)
            self._prune(capture.session_id)

    def _prune(self, session_id: str) -> None:
        ids = self._by_session[session_id]
        while len(ids) > max(self._settings.capture_history_size, 0):
            self._captures.pop(ids.popleft(), None)

    # ------------------------------------------------------------------- processing

    def process_output(
        self,
        raw: str,
        *,
        last_lines: int | None = None,
        settings: OutputCaptureSettings | None = None,
    ) -> ProcessedOutput:
        """Clean `raw` per the settings (`settings`, else the service's): render,
        normalise, redact, trim, truncate."""
        s = settings or self._settings
        text = raw
        if s.strip_ansi_sequences:
            text = render(text)
        elif s.normalize_line_endings:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if last_lines is not None:
            lines = text.rstrip("\n").split("\n")
            text = "\n".join(lines[-last_lines:]) if last_lines > 0 else ""
        count = 0
        if s.redact_secrets:
            redacted = redact(text)
            text, count = redacted.text, redacted.count
        text = text.strip()
        cut = truncate(
            text,
            max_characters=s.max_capture_length,
            max_lines=s.max_capture_lines,
            mode=s.truncation_mode,
        )
        # Markers already in the text (a run's output is redacted as it is collected)
        # count too; those cut away by truncation were never shown.
        shown = MARKER_RE.findall(cut.text)
        return ProcessedOutput(cut.text, cut.was_truncated, len(text), max(count, len(shown)))
