"""Long-lived interactive terminals ("Send to terminal" and the five terminal commands).

A `TerminalSession` is one shell in a PTY with shell integration loaded. Its output goes
to a ring buffer bounded in lines and bytes (marks removed, VT sequences kept so the
capture package can render them) and, through `on_output`, to the editor. The marks say
where each command's output starts and ends, its exit code and the shell's cwd.

`TerminalManager` owns the sessions by id: create, send, read_output, list, close, plus
raw input, resize, interrupt and close_all for shutdown. It knows nothing of LSP; the
server passes `on_output(terminal_id, text)` / `on_exit(terminal_id, exit_code)` hooks.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import itertools
import logging
import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from aintern_ls.capture import render as render_vt
from aintern_ls.errors import AInternError
from aintern_ls.shells import RUNNABLE_SHELLS
from aintern_ls.terminal import process_tree
from aintern_ls.terminal.integration import (
    CANONICAL_MARK,
    INTEGRATED_SHELLS,
    Mark,
    MarkParser,
    canonical,
    prepare_launch,
)
from aintern_ls.terminal.pty import ExitStatus, Pty, keystrokes, spawn_pty
from aintern_ls.terminal.reader import PtyStream
from aintern_ls.terminal.runner import build_env, resolve_cwd

log = logging.getLogger(__name__)

DEFAULT_MAX_LINES = 10_000
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
#: A "line" that never ends (a 1 GB stream without newline) is cut at this length.
MAX_LINE_CHARS = 64 * 1024
#: The newest part of a command's output kept on its record (the ring keeps the rest).
MAX_RECORD_CHARS = 256 * 1024
MAX_RECORDS = 50
#: Editor notifications: at most one per interval per terminal, each at most this long.
OUTPUT_INTERVAL_SECONDS = 0.025
OUTPUT_MAX_CHARS = 1024 * 1024
READY_TIMEOUT_SECONDS = 10.0
CLOSE_GRACE_SECONDS = 1.0
_HANGUP: int = getattr(signal, "SIGHUP", signal.SIGTERM)
_ZSH_PROMPT_SP = re.compile(r"(?:\x1b\[[0-9;]*m)*[%#](?:\x1b\[[0-9;]*m)* *\r \r$")

OutputHook = Callable[[str, str], None]
ExitHook = Callable[[str, "int | None"], None]
CommandHook = Callable[[str, "CommandRecord"], None]


# -- ring buffer ---------------------------------------------------------------------------


@attrs.frozen(order=True)
class Position:
    """A place in a session's output: absolute line number (from session start) and column."""

    line: int
    column: int


class OutputRing:
    """Terminal text as lines, keeping the newest `max_lines` lines and ~`max_bytes` bytes."""

    def __init__(self, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES):
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self._lines: deque[str] = deque()
        self._partial = ""
        self._bytes = 0
        self._dropped = 0

    def append(self, text: str) -> None:
        parts = text.split("\n")
        self._partial += parts[0]
        for part in parts[1:]:
            self._push(self._partial)
            self._partial = part
        while len(self._partial) > MAX_LINE_CHARS:
            self._push(self._partial[:MAX_LINE_CHARS])
            self._partial = self._partial[MAX_LINE_CHARS:]
        self._trim()

    def _push(self, line: str) -> None:
        self._lines.append(line)
        self._bytes += _size(line)

    def _trim(self) -> None:
        while self._lines and (
            len(self) > self.max_lines or self._bytes + _size(self._partial) > self.max_bytes
        ):
            self._bytes -= _size(self._lines.popleft())
            self._dropped += 1

    @property
    def position(self) -> Position:
        return Position(self._dropped + len(self._lines), len(self._partial))

    @property
    def first_line(self) -> int:
        return self._dropped

    def lines(self) -> list[str]:
        """Every kept line, the unfinished last one included when it has text."""
        out = list(self._lines)
        if self._partial:
            out.append(self._partial)
        return out

    def __len__(self) -> int:
        return len(self._lines) + (1 if self._partial else 0)

    def tail(self, count: int) -> list[str]:
        kept = self.lines()
        return kept[-count:] if count > 0 else []

    def text_between(self, start: Position, end: Position) -> tuple[str, bool]:
        """Raw text from `start` to `end`, and whether its beginning was already dropped."""
        clipped = start.line < self._dropped
        if clipped:
            start = Position(self._dropped, 0)
        all_lines = [*self._lines, self._partial]
        first = start.line - self._dropped
        last = end.line - self._dropped
        if first > last or first >= len(all_lines):
            return "", clipped
        if first == last:
            return all_lines[first][start.column : end.column], clipped
        pieces = [all_lines[first][start.column :]]
        pieces.extend(all_lines[first + 1 : last])
        pieces.append(all_lines[last][: end.column] if last < len(all_lines) else "")
        return "\n".join(pieces), clipped


def _size(line: str) -> int:
    return len(line) if line.isascii() else len(line.encode("utf-8", "replace"))


def render(raw: str) -> str:
    """Terminal text as a person sees it (colours gone, progress bars collapsed)."""
    return render_vt(raw) if raw else ""


# -- sessions ------------------------------------------------------------------------------


@attrs.define
class CommandRecord:
    """One command run in a session, as delimited by the shell-integration marks."""

    command_line: str
    cwd: str | None
    start: Position
    end: Position | None = None
    exit_code: int | None = None
    cwd_after: str | None = None
    raw_output: str = ""
    output_clipped: bool = False
    #: The end mark is final once the next prompt starts (a later genuine D replaces a
    #: forged one printed by the command itself).
    settled: bool = False

    @property
    def finished(self) -> bool:
        return self.end is not None and self.settled

    @property
    def output(self) -> str:
        """The command's output rendered (no prompt, no echo of the command line)."""
        return render(self.raw_output).rstrip("\n")


class TerminalSession:
    """An interactive shell in a PTY. Create through `TerminalManager.create`."""

    def __init__(
        self,
        terminal_id: str,
        *,
        title: str,
        shell: str,
        shell_path: str,
        cwd: str,
        env: Mapping[str, str],
        cols: int,
        rows: int,
        max_lines: int,
        max_bytes: int,
        on_output: OutputHook | None,
        on_exit: ExitHook | None,
    ) -> None:
        self.terminal_id = terminal_id
        self.title = title
        self.shell = shell
        self.cwd = cwd
        self.cols = cols
        self.rows = rows
        self.created_at = time.time()
        self.ring = OutputRing(max_lines=max_lines, max_bytes=max_bytes)
        self.commands: deque[CommandRecord] = deque(maxlen=MAX_RECORDS)
        self.exit_status: ExitStatus | None = None
        self._on_output = on_output
        self._on_exit = on_exit
        # called with each command that finished (shell integration's D mark)
        self.on_command: CommandHook | None = None
        self._nonce = secrets.token_hex(8)
        self._marker = secrets.token_hex(8)
        full_env = build_env(env, self._marker)
        self._workdir = tempfile.mkdtemp(prefix="aintern-term-")
        launch = prepare_launch(shell_path, shell, self._nonce, self._workdir, full_env)
        self.integrated = launch.integrated
        self._parser = MarkParser(self._nonce)
        self._seen_trusted_mark = False
        self._current: CommandRecord | None = None
        self._closing: CommandRecord | None = None  # ended by a D, not yet settled
        self._pending_command_line: str | None = None
        self._last_sent: str | None = None
        self._finished_count = 0
        self._prompt_count = 0
        self._changed = asyncio.Event()
        full_env.update(launch.env)
        loop = asyncio.get_running_loop()
        tag = process_tree.new_tag(self._marker)
        try:
            self._pty: Pty = spawn_pty(launch.argv, cwd, full_env, cols, rows, tag_fd=tag)
        except OSError as exc:
            shutil.rmtree(self._workdir, ignore_errors=True)
            process_tree.release_tag(self._marker)
            raise AInternError(f"could not start {shell_path}: {exc}") from exc
        except BaseException:
            shutil.rmtree(self._workdir, ignore_errors=True)
            process_tree.release_tag(self._marker)
            raise
        finally:
            if tag is not None:
                os.close(tag)
        process_tree.track(self._pty.pid, self._marker)
        self._stream = PtyStream(self._pty, loop, name=f"term-{terminal_id}")
        self._stream.start()
        self._pump_task = loop.create_task(self._pump())
        self._closed = False
        self._out_pending: list[str] = []
        self._out_chars = 0
        self._out_last = 0.0
        self._out_timer: asyncio.TimerHandle | None = None

    # -- state ------------------------------------------------------------------------

    @property
    def pid(self) -> int:
        return self._pty.pid

    @property
    def alive(self) -> bool:
        return self.exit_status is None and not self._closed

    @property
    def job_running(self) -> bool:
        """True while a job other than the shell owns the terminal (POSIX; else False)."""
        group = self._pty.foreground_process_group()
        return group is not None and group != self.pid

    @property
    def last_command(self) -> CommandRecord | None:
        """The newest finished command (None before the first one finishes)."""
        for record in reversed(self.commands):
            if record.finished:
                return record
        return None

    # What the capture service reads (`aintern_ls.capture.service.CapturableSession`).

    @property
    def session_id(self) -> str:
        return self.terminal_id

    @property
    def name(self) -> str | None:
        return self.title

    def buffer_text(self) -> str:
        """The retained output as received, VT sequences and (genuine) 633 marks included."""
        return "\n".join(self.ring.lines())

    def info(self) -> dict[str, Any]:
        """The camelCase summary `aintern.terminal.list` returns."""
        last = self.last_command
        return {
            "terminalId": self.terminal_id,
            "title": self.title,
            "shell": self.shell,
            "pid": self.pid,
            "cwd": self.cwd,
            "alive": self.alive,
            "exitCode": self.exit_status.exit_code if self.exit_status else None,
            "shellIntegration": self.integrated and self._prompt_count > 0,
            "lastExitCode": last.exit_code if last else None,
            "cols": self.cols,
            "rows": self.rows,
        }

    # -- output -----------------------------------------------------------------------

    async def _pump(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            while data := await self._stream.read():
                self._consume(decoder.decode(data))
            self._consume(decoder.decode(b"", final=True))
        except asyncio.CancelledError:
            # The loop is shutting down under us (or close() gave up waiting): end the
            # shell now rather than wait on a loop that is going away.
            self.close_now()
            raise
        await self._finish()

    def _consume(self, text: str) -> None:
        if not text:
            return
        for item in self._parser.feed(text):
            if isinstance(item, str):
                self.ring.append(item)
                if self._on_output is not None:
                    self._queue_output(item)
            else:
                self._on_mark(item)

    # A flood (`cat` of a huge file) must not become one notification per read: output
    # for the editor is coalesced, at most one call per OUTPUT_INTERVAL_SECONDS (the
    # first after a quiet spell goes at once), or sooner once OUTPUT_MAX_CHARS wait.

    def _queue_output(self, text: str) -> None:
        while self._out_chars + len(text) > OUTPUT_MAX_CHARS:  # no notification above it
            room = OUTPUT_MAX_CHARS - self._out_chars
            self._out_pending.append(text[:room])
            self._out_chars += room
            text = text[room:]
            self._flush_output()
        if text:
            self._out_pending.append(text)
            self._out_chars += len(text)
        now = time.monotonic()
        if self._out_chars >= OUTPUT_MAX_CHARS or now - self._out_last >= OUTPUT_INTERVAL_SECONDS:
            self._flush_output()
        elif self._out_timer is None:
            delay = OUTPUT_INTERVAL_SECONDS - (now - self._out_last)
            self._out_timer = asyncio.get_running_loop().call_later(delay, self._flush_output)

    def _flush_output(self) -> None:
        if self._out_timer is not None:
            self._out_timer.cancel()
            self._out_timer = None
        if not self._out_pending:
            return
        text = "".join(self._out_pending)
        self._out_pending.clear()
        self._out_chars = 0
        self._out_last = time.monotonic()
        if self._on_output is None:
            return
        try:
            self._on_output(self.terminal_id, text)
        except Exception:  # the editor going away must not stop the shell
            log.exception("terminal output hook failed")

    def _on_mark(self, mark: Mark) -> None:
        # Whoever learns that a command ended or a prompt is up has seen its output.
        self._flush_output()
        if mark.trusted:
            self._seen_trusted_mark = True
        elif self._seen_trusted_mark:
            return  # our own marks are authoritative once seen
        # The ring keeps genuine marks (nonce-less) for the capture package; a range
        # starts after its C mark and ends before its D mark.
        if mark.kind != "D":
            self.ring.append(canonical(mark))
        position = self.ring.position
        if mark.kind in ("A", "B", "C", "E"):
            # The next prompt (or command) begins: the last end mark seen was the shell's.
            self._settle()
        if mark.kind == "E":
            self._pending_command_line = mark.command_line
        elif mark.kind == "C":
            line = self._pending_command_line or self._last_sent or ""
            self._current = CommandRecord(command_line=line, cwd=self.cwd, start=position)
            self.commands.append(self._current)
            self._pending_command_line = None
        elif mark.kind == "D":
            # A command may print a D mark itself (a forged exit code); the shell's own D
            # comes after it, before the next prompt, and replaces it.
            record = self._current or self._closing
            if record is not None:
                self._end_record(record, mark.exit_code, position)
                self._current = None
                self._closing = record
        elif mark.kind == "P" and mark.cwd:
            self.cwd = mark.cwd
        elif mark.kind == "B":
            self._prompt_count += 1
        if mark.kind == "D":
            self.ring.append(canonical(mark))
        self._notify()

    def _end_record(self, record: CommandRecord, exit_code: int | None, position: Position) -> None:
        record.end = position
        record.exit_code = exit_code
        record.cwd_after = self.cwd
        # Keep the output now: the ring may drop it before anyone asks.
        raw, record.output_clipped = self.ring.text_between(record.start, position)
        raw = CANONICAL_MARK.sub("", raw)
        if len(raw) > MAX_RECORD_CHARS:  # records are copies: keep them small
            raw, record.output_clipped = raw[-MAX_RECORD_CHARS:], True
        # zsh prints its PROMPT_SP end-of-line filler before precmd sends D.
        record.raw_output = _ZSH_PROMPT_SP.sub("", raw) if self.shell == "zsh" else raw

    def _settle(self) -> None:
        record, self._closing = self._closing, None
        if record is not None and not record.settled:
            record.settled = True
            self._finished_count += 1
            if self.on_command is not None:
                # the command's output first (flushed at every mark), then its end, then
                # the next prompt
                self._flush_output()
                try:
                    self.on_command(self.terminal_id, record)
                except Exception:
                    log.exception("terminal command hook failed")

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _finish(self) -> None:
        delay = 0.001
        deadline = time.monotonic() + 5.0
        while (status := self._pty.poll()) is None and time.monotonic() < deadline:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        if status is None:
            await process_tree.kill_tree(self.pid, marker=self._marker, grace_seconds=0.5)
            status = self._pty.poll() or ExitStatus(exit_code=None, signal=None)
        self._settle()
        self._flush_output()
        self.exit_status = status
        process_tree.untrack(self.pid)
        shutil.rmtree(self._workdir, ignore_errors=True)
        self._notify()
        if self._on_exit is not None:
            code = status.exit_code if status.signal is None else 128 + status.signal
            try:
                self._on_exit(self.terminal_id, code)
            except Exception:
                log.exception("terminal exit hook failed")

    # -- waiting ----------------------------------------------------------------------

    async def _wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.alive:
                return predicate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return True

    async def wait_ready(self, timeout: float = READY_TIMEOUT_SECONDS) -> bool:
        """Wait for the first prompt (integrated shells only): True once it is shown."""
        if not self.integrated:
            return False
        return await self._wait_until(lambda: self._prompt_count > 0, timeout)

    @property
    def finished_count(self) -> int:
        """How many commands have finished; pass it to `wait_for_command`."""
        return self._finished_count

    async def wait_for_command(self, after: int, timeout: float) -> CommandRecord | None:
        """Wait until more than `after` commands have finished; the newest, or None."""
        if await self._wait_until(lambda: self._finished_count > after, timeout):
            return self.last_command
        return None

    async def execute(self, command: str, timeout: float = 30.0) -> CommandRecord | None:
        """Type `command` with Enter and wait for it to finish (integrated shells)."""
        before = self._finished_count
        self.send(command, execute=True)
        return await self.wait_for_command(before, timeout)

    # -- input ------------------------------------------------------------------------

    def _check_alive(self) -> None:
        if not self.alive:
            raise AInternError(
                f"terminal {self.terminal_id} has exited; create a new one with "
                "aintern.terminal.create"
            )

    def send(self, text: str, *, execute: bool = True) -> None:
        """Type `text` as if at the keyboard; with `execute`, press Enter after it."""
        self._check_alive()
        typed = text.replace("\r\n", "\r").replace("\n", "\r")
        if execute and not typed.endswith("\r"):
            typed += "\r"
        self._last_sent = text.strip()
        self._stream.write(keystrokes(typed, "text"))

    def input(self, data: str) -> None:
        """Raw keystrokes from the editor's terminal view, written unchanged."""
        self._check_alive()
        self._stream.write(keystrokes(data, "input"))

    def resize(self, cols: int, rows: int) -> None:
        self._check_alive()
        if cols < 1 or rows < 1:
            raise AInternError(f"terminal size must be at least 1x1, got {cols}x{rows}")
        self.cols, self.rows = cols, rows
        self._pty.resize(cols, rows)

    def interrupt(self) -> None:
        """Ctrl-C for the foreground job; the shell itself is never signalled."""
        self._check_alive()
        group = self._pty.foreground_process_group()
        if group is not None and group != self.pid and sys.platform != "win32":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGINT)
                return
        # At the prompt (or on Windows) a typed ^C is what a user would do: it clears
        # the line and leaves the shell running.
        self._stream.write(b"\x03")

    # -- output access ----------------------------------------------------------------

    def read_output(self, lines: int = 100) -> list[str]:
        """The last `lines` lines as a person sees them (rendered, no escape sequences)."""
        if lines <= 0:
            return []
        rendered = render("\n".join(self.ring.tail(lines))).split("\n")
        while rendered and not rendered[-1].strip():
            rendered.pop()
        return rendered[-lines:]

    # -- closing ----------------------------------------------------------------------

    async def close(self) -> None:
        """End the shell and everything it started, then release the PTY."""
        if self._closed:
            return
        self._closed = True
        if self.exit_status is None:
            await process_tree.kill_tree(
                self.pid,
                marker=self._marker,
                grace_seconds=CLOSE_GRACE_SECONDS,
                first_signal=_HANGUP,
            )
        else:
            # The shell ended by itself; its background jobs may not have.
            await process_tree.kill_tree(self.pid, marker=self._marker, grace_seconds=0.5)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._pump_task), 3.0)
        self._stream.stop()
        if not self._pump_task.done():
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        self._flush_output()
        self._pty.close()
        process_tree.untrack(self.pid)
        process_tree.release_tag(self._marker)
        shutil.rmtree(self._workdir, ignore_errors=True)

    def close_now(self) -> None:
        """Synchronous last-resort close (interpreter exit, no loop)."""
        if self._closed and self._pty.poll() is not None:
            return
        self._closed = True
        if self._out_timer is not None:
            self._out_timer.cancel()
            self._out_timer = None
        process_tree.kill_tree_now(self.pid, marker=self._marker)
        self._stream.stop()
        self._pty.close()
        process_tree.untrack(self.pid)
        process_tree.release_tag(self._marker)
        shutil.rmtree(self._workdir, ignore_errors=True)


def default_shell() -> str:
    """The user's shell when it is one we integrate with, else bash (pwsh on Windows)."""
    if sys.platform == "win32":
        return "pwsh" if shutil.which("pwsh") else "powershell"
    name = os.path.basename(os.environ.get("SHELL", ""))
    return name if name in ("bash", "zsh") else "bash"


_SESSION_SHELLS = RUNNABLE_SHELLS  # the one table of shells: `aintern_ls.shells`


class TerminalManager:
    """All terminal sessions of one server, by id."""

    def __init__(
        self,
        *,
        on_output: OutputHook | None = None,
        on_exit: ExitHook | None = None,
        max_lines: int = DEFAULT_MAX_LINES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        allowed_directories: Sequence[str] = (),
    ) -> None:
        self.on_output = on_output
        self.on_exit = on_exit
        self.on_command: CommandHook | None = None
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.allowed_directories = list(allowed_directories)
        self._sessions: dict[str, TerminalSession] = {}
        self._ids = itertools.count(1)

    async def create(
        self,
        *,
        title: str | None = None,
        cwd: str | None = None,
        shell: str | None = None,
        env: Mapping[str, str] | None = None,
        cols: int = 120,
        rows: int = 30,
        wait_ready: bool = True,
    ) -> TerminalSession:
        """Start a shell; with `wait_ready`, return once its first prompt is up."""
        name, path = resolve_shell(shell)
        directory = resolve_cwd(cwd, self.allowed_directories)
        terminal_id = f"terminal-{next(self._ids)}"
        session = TerminalSession(
            terminal_id,
            title=title or f"{name} {terminal_id.rsplit('-', 1)[-1]}",
            shell=name,
            shell_path=path,
            cwd=directory,
            env=dict(env or {}),
            cols=cols,
            rows=rows,
            max_lines=self.max_lines,
            max_bytes=self.max_bytes,
            on_output=self.on_output,
            on_exit=self.on_exit,
        )
        session.on_command = self.on_command
        self._sessions[terminal_id] = session
        if wait_ready and session.integrated and not await session.wait_ready():
            log.warning("%s: no shell-integration prompt seen; continuing without", terminal_id)
        return session

    def get(self, terminal_id: str) -> TerminalSession:
        try:
            return self._sessions[terminal_id]
        except KeyError:
            raise AInternError(
                f"no terminal {terminal_id!r}; aintern.terminal.list shows the open ones"
            ) from None

    def send(self, terminal_id: str, text: str, *, execute: bool = True) -> bool:
        self.get(terminal_id).send(text, execute=execute)
        return True

    def read_output(self, terminal_id: str, lines: int = 100) -> list[str]:
        return self.get(terminal_id).read_output(lines)

    def list(self) -> list[dict[str, Any]]:
        return [session.info() for session in self._sessions.values()]

    def input(self, terminal_id: str, data: str) -> None:
        self.get(terminal_id).input(data)

    def resize(self, terminal_id: str, cols: int, rows: int) -> None:
        self.get(terminal_id).resize(cols, rows)

    def interrupt(self, terminal_id: str) -> None:
        self.get(terminal_id).interrupt()

    async def close(self, terminal_id: str) -> bool:
        session = self._sessions.pop(terminal_id, None)
        if session is None:
            return False
        await session.close()
        return True

    async def close_all(self) -> None:
        """Close every session (server shutdown)."""
        sessions = list(self._sessions.values())
        self._sessions.clear()
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)

    def __len__(self) -> int:
        return len(self._sessions)


def resolve_shell(shell: str | None) -> tuple[str, str]:
    """(shell name, executable path) for a session, accepting only known shells.

    A name (`bash`) is looked up on PATH. A path is accepted only when it is that shell
    as found on PATH or listed in /etc/shells: an arbitrary executable that is merely
    *named* bash (say, in a downloaded project) is never started.
    """
    requested = shell or default_shell()
    name = os.path.basename(requested).lower().removesuffix(".exe")
    if name not in _SESSION_SHELLS:
        raise AInternError(
            f"unsupported terminal shell {requested!r}; use one of {', '.join(_SESSION_SHELLS)}"
        )
    if requested == os.path.basename(requested):
        path = shutil.which(requested)
        if not path:
            raise AInternError(
                f"shell {requested!r} was not found on PATH; install it or pick another shell"
            )
    elif os.path.isabs(requested):
        path = requested
        if not _is_known_shell(path, name):
            raise AInternError(
                f"{requested!r} is not a known shell (neither the {name} on PATH nor listed "
                "in /etc/shells); give the shell's name, or add it to /etc/shells"
            )
    else:
        raise AInternError(
            f"shell {requested!r} is a relative path; give a shell name (e.g. bash) or "
            "an absolute path listed in /etc/shells"
        )
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise AInternError(f"shell {requested!r} is not an executable file; pick another shell")
    if name not in INTEGRATED_SHELLS:
        log.info("%s has no shell integration: no command ranges or exit codes", name)
    return name, path


def _is_known_shell(path: str, name: str) -> bool:
    real = os.path.realpath(path)
    on_path = shutil.which(name) or shutil.which(name + ".exe")
    if on_path and os.path.realpath(on_path) == real:
        return True
    try:
        with open("/etc/shells", encoding="utf-8", errors="replace") as fh:
            listed = [line.strip() for line in fh if line.strip().startswith("/")]
    except OSError:
        return False
    return any(entry == path or os.path.realpath(entry) == real for entry in listed)
