"""`aintern.capture`, `aintern.captureStart`, `aintern.captureStop`: terminal output for AI.

Bridges terminal sessions to the capture service (which knows no terminals) and
returns each capture with its `contextString`, the fenced block an AI panel pastes
into a prompt.
"""

from __future__ import annotations

import weakref
from typing import Any

import attrs

from aintern_ls.capture.redaction import redact_str
from aintern_ls.errors import AInternError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.models import (
    OutputCaptureMode,
    TerminalOutputCapture,
    TruncationMode,
    to_json,
)
from aintern_ls.runs import RunView
from aintern_ls.server import AInternServer
from aintern_ls.terminal.session import TerminalSession


@attrs.frozen
class SessionView:
    """A terminal session as the capture service sees it."""

    session: TerminalSession
    text: str | None = None

    @property
    def session_id(self) -> str:
        return self.session.terminal_id

    @property
    def name(self) -> str | None:
        return self.session.title

    @property
    def cwd(self) -> str | None:
        return self.session.cwd

    def buffer_text(self) -> str:
        if self.text is not None:
            return self.text
        return "\n".join(self.session.ring.lines())


LIVE_TAIL_CHARACTERS = 256_000


class LiveOutput:
    """The raw output of a run still in progress, its last `LIVE_TAIL_CHARACTERS` only,
    so an editor can show a long run while it goes (`aintern.runOutput`)."""

    def __init__(self, command: str, cwd: str | None) -> None:
        self.command = command
        self.cwd = cwd
        self._chunks: list[str] = []
        self._size = 0
        self.dropped = 0

    def feed(self, text: str) -> None:
        self._chunks.append(text)
        self._size += len(text)
        while self._size > LIVE_TAIL_CHARACTERS and len(self._chunks) > 1:
            first = self._chunks.pop(0)
            self._size -= len(first)
            self.dropped += len(first)

    def text(self) -> str:
        joined = "".join(self._chunks)
        self._chunks = [joined] if joined else []
        return joined


_live: weakref.WeakKeyDictionary[AInternServer, dict[str, LiveOutput]] = weakref.WeakKeyDictionary()


def live_runs(ls: AInternServer) -> dict[str, LiveOutput]:
    """Runs in progress by block id (commands.run_block adds and removes them)."""
    return _live.setdefault(ls, {})


@attrs.define
class RunOutputArgs:
    uri: str
    block_id: str


@attrs.define
class CaptureTextArgs:
    text: str
    command: str | None = None
    exit_code: int | None = None
    cwd: str | None = None
    name: str | None = None


@attrs.define
class CaptureArgs:
    capture_id: str | None = None
    terminal_id: str | None = None
    mode: OutputCaptureMode = OutputCaptureMode.LAST_COMMAND
    line_count: int | None = None
    selection: str | None = None
    max_characters: int | None = None
    max_tokens: int | None = None
    truncation: TruncationMode | None = None


@attrs.define
class TerminalArgs:
    terminal_id: str | None = None


def _session(ls: AInternServer, terminal_id: str | None) -> TerminalSession:
    if terminal_id is not None:
        return ls.terminals.get(terminal_id)
    listed = ls.terminals.list()
    if not listed:
        raise AInternError("no terminal to capture: send a block to a terminal or create one first")
    return ls.terminals.get(listed[-1]["terminalId"])


def _reply(capture: TerminalOutputCapture) -> dict[str, Any]:
    data: dict[str, Any] = to_json(capture)
    data["contextString"] = capture.to_context_string()
    data["estimatedTokens"] = capture.estimated_tokens
    return data


def take_capture(ls: AInternServer, a: CaptureArgs) -> TerminalOutputCapture:
    if a.capture_id is not None:
        found = ls.captures.get_capture(a.capture_id)
        if found is None:
            raise AInternError(
                f"no capture {a.capture_id!r}: captures are kept for the most recent runs only"
            )
        return found
    session = _session(ls, a.terminal_id)
    service = ls.captures
    base = service.settings
    limit = a.max_characters
    if a.max_tokens is not None:
        limit = min(limit or a.max_tokens * 4, a.max_tokens * 4)
    # this request's limits, passed along: the shared service is never reconfigured
    settings = attrs.evolve(
        base,
        max_capture_length=limit if limit is not None else base.max_capture_length,
        truncation_mode=a.truncation or base.truncation_mode,
    )
    if a.mode is OutputCaptureMode.MANUAL:
        raise AInternError(
            "a manual capture is made with aintern.captureStart and aintern.captureStop"
        )
    if a.mode is OutputCaptureMode.SELECTION and not a.selection:
        raise AInternError('mode "selection" needs the selected text in "selection"')
    record = session.last_command if a.mode is OutputCaptureMode.LAST_COMMAND else None
    if record is not None:
        # The session already cut the last command out by its shell-integration
        # marks; the service cleans it like any other buffer.
        capture = service.capture_buffer(
            SessionView(session, record.raw_output),
            OutputCaptureMode.FULL_BUFFER,
            settings=settings,
        )
        capture.capture_mode = OutputCaptureMode.LAST_COMMAND
        capture.command = record.command_line or None
        capture.exit_code = record.exit_code
        capture.working_directory = record.cwd or session.cwd
    else:
        capture = service.capture_buffer(
            SessionView(session), a.mode, a.line_count, selection=a.selection, settings=settings
        )
    return capture


def register(server: AInternServer) -> None:
    @server.command("aintern.capture")
    @user_errors
    async def capture(ls: AInternServer, *args: Any) -> Any:
        return _reply(take_capture(ls, parse_args(CaptureArgs, args or ({},))))

    @server.command("aintern.captureText")
    @user_errors
    async def capture_text(ls: AInternServer, *args: Any) -> Any:
        """Output the editor captured itself (a VS Code terminal's shell integration),
        cleaned like any capture: rendered, redacted, truncated; kept by `captureId`."""
        a = parse_args(CaptureTextArgs, args)
        name = a.name or "editor terminal"
        view = RunView(f"editor:{name}", name, a.cwd, a.text)
        result = ls.captures.capture_buffer(view, OutputCaptureMode.FULL_BUFFER)
        result.capture_mode = OutputCaptureMode.LAST_COMMAND
        result.command = a.command
        result.exit_code = a.exit_code
        return _reply(result)

    @server.command("aintern.runOutput")
    @user_errors
    async def run_output(ls: AInternServer, *args: Any) -> Any:
        """The output of a block's run: while it runs, what it printed so far (cleaned);
        after, its last result's capture. `{running, command, text, ...}`."""
        a = parse_args(RunOutputArgs, args)
        doc = await ls.current(a.uri)
        block = doc.block(a.block_id)
        live = live_runs(ls).get(block.id)
        if live is not None:
            processed = ls.captures.process_output(live.text())
            waiting = ls.runner.waiting(block.id)
            return {
                "running": True,
                "command": redact_str(live.command),
                "cwd": live.cwd,
                "text": processed.text,
                "wasTruncated": processed.was_truncated or live.dropped > 0,
                "waitingForInput": None if waiting is None else waiting.to_json(),
            }
        result = doc.last_results.get(block.id)
        if result is None:
            return {"running": False, "command": redact_str(block.command), "text": None}
        found = ls.captures.get_capture(result.capture_id) if result.capture_id else None
        return {
            "running": False,
            "command": redact_str(result.command),
            "cwd": result.cwd,
            "text": found.output if found is not None else result.output,
            "wasTruncated": found.is_truncated if found is not None else result.was_truncated,
            "exitCode": result.exit_code,
            "durationMs": result.duration_ms,
            "timedOut": result.timed_out,
            "cancelled": result.cancelled,
            "captureId": result.capture_id,
        }

    @server.command("aintern.captureStart")
    @user_errors
    async def capture_start(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(TerminalArgs, args or ({},))
        session = _session(ls, a.terminal_id)
        ls.captures.start_capture(SessionView(session), mode=OutputCaptureMode.MANUAL)
        return {"terminalId": session.terminal_id}

    @server.command("aintern.captureStop")
    @user_errors
    async def capture_stop(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(TerminalArgs, args or ({},))
        session = _session(ls, a.terminal_id)
        result = ls.captures.stop_capture(session.terminal_id)
        if result is None:
            raise AInternError(
                f"no capture running in {session.terminal_id}; start one with aintern.captureStart"
            )
        return _reply(result)
