"""One-shot runs: a fresh PTY per command, with timeout, cancel and whole-tree cleanup.

`run_command()` is the simple entry point; `Runner` keeps several runs addressable by id so
an LSP server can cancel a block's run or answer its prompt. Output streams to the
caller as text while the capture package's `OutputCollector` keeps a bounded copy, so a
command printing a gigabyte costs a few megabytes here. The collector is fed on the
PTY's reader thread and only read (`finish`) after that thread has let go of it.

Shells run non-login (`bash -c`, not `bash -lc`): a login shell re-reads /etc/profile,
which on Debian resets PATH and would undo both the editor's PATH and the env overlay.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import math
import os
import secrets
import shutil
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from aintern_ls.capture import OutputCollector
from aintern_ls.capture.redaction import redact_str as redact_text
from aintern_ls.errors import AInternError
from aintern_ls.shells import RUNNABLE_SHELLS
from aintern_ls.terminal import process_tree
from aintern_ls.terminal.process_tree import MARKER_ENV
from aintern_ls.terminal.pty import (
    ExitStatus,
    Pty,
    check_text,
    keystrokes,
    spawn_pty,
    validate_spawn,
)
from aintern_ls.terminal.reader import PtyStream
from aintern_ls.terminal.waiting import InputWait, InputWaitDetector

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_SECONDS = 120.0
MAX_TIMEOUT_SECONDS = 600.0
MIN_TIMEOUT_SECONDS = 1.0
DEFAULT_MAX_OUTPUT_CHARACTERS = 100_000
#: After the shell exits, how long background jobs may keep the terminal open before
#: they are killed (a one-shot run leaves nothing behind).
LINGER_SECONDS = 0.5
KILL_GRACE_SECONDS = 2.0

SHELLS = RUNNABLE_SHELLS  # the one table of shells: `aintern_ls.shells`

OutputCallback = Callable[[str], None]
WaitingCallback = Callable[[InputWait | None], None]


@attrs.define
class RunRequest:
    """What to run and under which limits.

    `timeout_seconds` below 1 is an error; above 600 it is clamped to 600 (seed 002).
    """

    command: str
    shell: str = "bash"
    cwd: str | None = None
    env: dict[str, str] = attrs.field(factory=dict)
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    allowed_directories: list[str] = attrs.field(factory=list)
    max_output_characters: int = DEFAULT_MAX_OUTPUT_CHARACTERS


@attrs.define
class RunResult:
    """How a run ended. `exit_code` is None only when the run was timed out or cancelled;
    a command killed by a signal it did not get from us reports 128+N and `signal`."""

    command: str = attrs.field(converter=redact_text)  # as run, secrets replaced
    exit_code: int | None
    signal: str | None
    output: str
    was_truncated: bool
    original_length: int
    duration_ms: int
    cwd: str
    timed_out: bool
    cancelled: bool
    waiting_for_input: InputWait | None = None
    """Set when the run was stopped because it waited for input (`stop_when_waiting`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "exitCode": self.exit_code,
            "signal": self.signal,
            "output": self.output,
            "wasTruncated": self.was_truncated,
            "originalLength": self.original_length,
            "durationMs": self.duration_ms,
            "cwd": self.cwd,
            "timedOut": self.timed_out,
            "cancelled": self.cancelled,
            "waitingForInput": (
                None if self.waiting_for_input is None else self.waiting_for_input.to_json()
            ),
        }


# -- validation ---------------------------------------------------------------------------


def effective_timeout(seconds: float) -> float:
    """Validate a timeout: < 1 s is refused, more than 600 s is clamped to 600 s."""
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise AInternError(f"timeout must be a number of seconds, got {seconds!r}") from None
    if math.isnan(value) or value < MIN_TIMEOUT_SECONDS:
        raise AInternError(
            f"timeout must be at least {MIN_TIMEOUT_SECONDS:g} second, got {seconds!r}; "
            f"pass a value between 1 and {MAX_TIMEOUT_SECONDS:g}"
        )
    return min(value, MAX_TIMEOUT_SECONDS)


def resolve_cwd(
    cwd: str | None,
    allowed_directories: Sequence[str] = (),
    *,
    base: str | None = None,
) -> str:
    """The real directory a command runs in, refusing missing ones and escapes.

    Relative paths resolve against `base` (default: the server's cwd). Symlinks and `..`
    are resolved before the `allowed_directories` check, so neither can escape it.
    """
    if cwd is not None:
        check_text("the working directory", cwd)
    if base is not None:
        check_text("the base directory", base)
    anchor = base if base is not None else os.getcwd()
    requested = os.path.expanduser(cwd) if cwd else anchor
    path = os.path.realpath(os.path.join(anchor, requested))
    if not os.path.exists(path):
        raise AInternError(
            f"working directory {cwd or anchor!r} does not exist (resolved to {path}); "
            "create it or fix the block's cwd"
        )
    if not os.path.isdir(path):
        raise AInternError(f"working directory {path!r} is not a directory; fix the block's cwd")
    allowed = [os.path.realpath(os.path.expanduser(d)) for d in allowed_directories if d]
    if allowed and not any(_is_within(path, root) for root in allowed):
        raise AInternError(
            f"working directory {cwd or anchor!r} resolves to {path}, which is outside "
            f"allowedDirectories ({', '.join(allowed)}); choose a directory inside them "
            "or add it to the aintern.allowedDirectories setting"
        )
    return path


def _is_within(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives on Windows
        return False


def build_env(overlay: Mapping[str, str], marker: str | None = None) -> dict[str, str]:
    """The server's environment plus `overlay`, with a terminal type colour tools accept."""
    env = dict(os.environ)
    env.setdefault("TERM", "xterm-256color")
    for key, value in overlay.items():
        check_text("the environment variable name", str(key), name=True)
        check_text(f"the value of environment variable {key}", str(value))
    env.update({str(k): str(v) for k, v in overlay.items()})
    if marker is not None:
        env[MARKER_ENV] = marker
    return env


def shell_argv(shell: str, command: str, env: Mapping[str, str]) -> list[str]:
    """argv that makes `shell` run `command` once and exit."""
    name = (shell or "bash").lower()
    if name not in SHELLS:
        raise AInternError(f"unknown shell {shell!r}; use one of {', '.join(SHELLS)}")
    exe = _find_executable(name, env)
    if name in ("powershell", "pwsh"):
        return [exe, "-NoLogo", "-NoProfile", "-Command", command]
    if name == "cmd":
        return [exe, "/d", "/s", "/c", command]
    return [exe, "-c", command]


def _find_executable(name: str, env: Mapping[str, str]) -> str:
    candidates = {"cmd": ["cmd.exe", "cmd"], "powershell": ["powershell.exe", "powershell", "pwsh"]}
    for candidate in candidates.get(name, [name]):
        found = shutil.which(candidate, path=env.get("PATH"))
        if found:
            return found
    raise AInternError(
        f"shell {name!r} was not found on PATH; install it or run the block with another "
        "shell (set the fence language, e.g. ```bash)"
    )


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


# -- running ------------------------------------------------------------------------------


class RunningCommand:
    """A started one-shot run: answer its prompts with `write`, stop it with `cancel`.

    `on_waiting` hears when the run starts waiting for input (an `InputWait`) and when
    that ends (None: output resumed, an answer was written, or the run ended); see
    `terminal.waiting`. With `stop_when_waiting` (seconds) a run that keeps waiting
    that long is stopped and its result carries `waiting_for_input` (for agents, who
    cannot type into it).
    """

    def __init__(
        self,
        request: RunRequest,
        *,
        on_output: OutputCallback | None = None,
        kill_grace_seconds: float = KILL_GRACE_SECONDS,
        on_waiting: WaitingCallback | None = None,
        stop_when_waiting: float | None = None,
    ) -> None:
        self.request = request
        self.timeout_seconds = effective_timeout(request.timeout_seconds)
        check_text("the command", request.command)
        self.cwd = resolve_cwd(request.cwd, request.allowed_directories)
        self.marker = secrets.token_hex(8)
        env = build_env(request.env, self.marker)
        self._argv = shell_argv(request.shell, request.command, env)
        # Everything execve would reject is refused here, before any process exists.
        validate_spawn(self._argv, self.cwd, env)
        self._env = env
        self._on_output = on_output
        self._grace = kill_grace_seconds
        self._cancelled = asyncio.Event()
        self._task: asyncio.Task[RunResult] | None = None
        self._stream: PtyStream | None = None
        self._pid: int | None = None
        self._on_waiting = on_waiting
        self._stop_when_waiting = stop_when_waiting
        self._detector: InputWaitDetector | None = None
        self._waiting: InputWait | None = None
        self._waiting_since = 0.0

    def start(self) -> None:
        """Spawn the command and begin streaming; idempotent."""
        if self._task is not None:
            return
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        tag = process_tree.new_tag(self.marker)
        try:
            pty = spawn_pty(self._argv, self.cwd, self._env, tag_fd=tag)
        except OSError as exc:
            process_tree.release_tag(self.marker)
            raise AInternError(f"could not start {self._argv[0]}: {exc}") from exc
        except BaseException:
            process_tree.release_tag(self.marker)
            raise
        finally:
            if tag is not None:
                os.close(tag)
        process_tree.track(pty.pid, self.marker)
        self._pid = pty.pid
        collector = OutputCollector(max_characters=self.request.max_output_characters)
        onlcr = _OnlcrUndo()
        detector = self._detector = InputWaitDetector(pty.pid, getattr(pty, "fd", None))

        def sink(data: bytes) -> None:
            detector.feed(data)
            collector.feed(onlcr.undo(data))

        # The collector runs on the reader thread (see reader.py for why); the loop gets
        # the bytes only when somebody streams them.
        self._stream = PtyStream(
            pty, loop, name=f"run-{pty.pid}", sink=sink, deliver=self._on_output is not None
        )
        self._stream.start()
        self._task = loop.create_task(self._supervise(pty, self._stream, collector, onlcr, started))

    def write(self, data: str | bytes) -> None:
        """Type into the command's terminal (e.g. answer a prompt: "y\\r")."""
        if self._stream is None:
            raise AInternError("the command has not started yet")
        self._stream.write(keystrokes(data, "input") if isinstance(data, str) else data)
        if self._detector is not None:
            self._detector.answered()
        self._set_waiting(None)

    @property
    def waiting(self) -> InputWait | None:
        """What the run waits for, None while it is not waiting for input."""
        return self._waiting

    def _set_waiting(self, state: InputWait | None) -> None:
        if state == self._waiting:
            return
        if state is not None and self._waiting is None:
            self._waiting_since = time.monotonic()
        self._waiting = state
        if self._on_waiting is not None:
            try:
                self._on_waiting(state)
            except Exception:  # a broken listener must not break the run
                log.exception("waiting callback failed")

    def cancel(self) -> None:
        """Stop the run: its whole process tree is killed and the result says cancelled."""
        self._cancelled.set()

    @property
    def pid(self) -> int | None:
        """Process id of the shell running the command (None before `start`)."""
        return self._pid

    @property
    def done(self) -> bool:
        return self._task is not None and self._task.done()

    async def wait(self) -> RunResult:
        self.start()
        assert self._task is not None
        return await asyncio.shield(self._task)

    async def _supervise(
        self,
        pty: Pty,
        stream: PtyStream,
        collector: OutputCollector,
        onlcr: _OnlcrUndo,
        started: float,
    ) -> RunResult:
        pump = asyncio.create_task(self._pump(stream))
        cancel_wait = asyncio.create_task(self._cancelled.wait())
        deadline = started + self.timeout_seconds
        outcome = "done"
        exited_at: float | None = None
        stopped_waiting: InputWait | None = None
        try:
            while True:
                remaining = deadline - time.monotonic()
                done, _ = await asyncio.wait(
                    {pump, cancel_wait},
                    timeout=max(0.0, min(0.1, remaining)),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if pump in done:
                    break
                if cancel_wait in done:
                    outcome = "cancelled"
                    break
                if time.monotonic() >= deadline:
                    outcome = "timeout"
                    break
                if exited_at is None and self._detector is not None:
                    self._set_waiting(self._detector.check())
                    if (
                        self._waiting is not None
                        and self._stop_when_waiting is not None
                        and time.monotonic() - self._waiting_since >= self._stop_when_waiting
                    ):
                        outcome = "waiting"
                        stopped_waiting = self._waiting
                        break
                if pty.poll() is not None:
                    # The shell is gone but a background job still holds the terminal.
                    exited_at = exited_at or time.monotonic()
                    if time.monotonic() - exited_at >= LINGER_SECONDS:
                        break
            self._set_waiting(None)
            if outcome != "done":
                await process_tree.kill_tree(pty.pid, marker=self.marker, grace_seconds=self._grace)
            status = await _reap(pty, self.marker)
            # On every exit path, normal exit included: whatever the run left behind
            # (`setsid cmd &`, `setsid env -i cmd &`) is found by group, marker or tag.
            await process_tree.kill_leftovers(pty.pid, self.marker, grace_seconds=self._grace)
            # With every writer gone the reader sees EOF and the pump drains the rest.
            await asyncio.wait({pump}, timeout=2.0)
        except BaseException:
            process_tree.kill_tree_now(pty.pid, marker=self.marker)
            raise
        finally:
            self._set_waiting(None)
            cancel_wait.cancel()
            stream.detach_sink()
            stream.stop()
            if not pump.done():
                pump.cancel()
            pty.close()
            process_tree.untrack(pty.pid)
            process_tree.release_tag(self.marker)
        duration_ms = int((time.monotonic() - started) * 1000)
        collector.feed(onlcr.flush())
        final = collector.finish()
        sig = signal_name(status.signal) if status.signal is not None else None
        if outcome != "done":
            exit_code = None
        elif status.signal is not None:
            exit_code = 128 + status.signal
        else:
            exit_code = status.exit_code
        return RunResult(
            command=self.request.command,
            exit_code=exit_code,
            signal=sig,
            output=final.output,
            was_truncated=final.was_truncated,
            original_length=final.original_length,
            duration_ms=duration_ms,
            cwd=self.cwd,
            timed_out=outcome == "timeout",
            cancelled=outcome in ("cancelled", "waiting"),
            waiting_for_input=stopped_waiting,
        )

    async def _pump(self, stream: PtyStream) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while data := await stream.read():
            if self._on_output is not None:
                self._emit(decoder.decode(data))
        if self._on_output is not None:
            self._emit(decoder.decode(b"", final=True))

    def _emit(self, text: str) -> None:
        if not text or self._on_output is None:
            return
        try:
            self._on_output(text)
        except Exception:  # a broken listener must not break the run
            log.exception("output callback failed")


class _OnlcrUndo:
    """The PTY's line discipline (ONLCR) turns every "\n" into "\r\n"; undo it before the
    collector. "\r\n" renders exactly like "\n" (the carriage return only moves to a
    column the newline leaves anyway), and plain newlines keep the collector on its fast
    path, about three times faster on typical output. A "\r" ending a chunk waits for
    the next one, since its "\n" may be there."""

    def __init__(self) -> None:
        self._cr = False

    def undo(self, data: bytes) -> bytes:
        if self._cr:
            data = b"\r" + data
            self._cr = False
        if data.endswith(b"\r"):
            data = data[:-1]
            self._cr = True
        return data.replace(b"\r\n", b"\n")

    def flush(self) -> bytes:
        held, self._cr = self._cr, False
        return b"\r" if held else b""


async def _reap(pty: Pty, marker: str) -> ExitStatus:
    """Wait (without blocking the loop) for the child's exit status, killing it if needed."""
    delay = 0.001
    deadline = time.monotonic() + 5.0
    while (status := pty.poll()) is None:
        if time.monotonic() >= deadline:
            # It closed the terminal but kept running: end it rather than wait forever.
            await process_tree.kill_tree(pty.pid, marker=marker, grace_seconds=0.5)
            deadline = time.monotonic() + 5.0
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.05)
    return status


async def run_command(
    request: RunRequest,
    *,
    on_output: OutputCallback | None = None,
    cancel: asyncio.Event | None = None,
    kill_grace_seconds: float = KILL_GRACE_SECONDS,
    stop_when_waiting: float | None = None,
) -> RunResult:
    """Run `request` to completion. Raises `AInternError` for bad cwd/shell/timeout.
    With `stop_when_waiting` (seconds), a run that keeps waiting for input is stopped."""
    running = RunningCommand(
        request,
        on_output=on_output,
        kill_grace_seconds=kill_grace_seconds,
        stop_when_waiting=stop_when_waiting,
    )
    running.start()
    watcher: asyncio.Task[None] | None = None
    if cancel is not None:

        async def _watch() -> None:
            await cancel.wait()
            running.cancel()

        watcher = asyncio.create_task(_watch())
    try:
        return await _outcome(running)
    finally:
        if watcher is not None:
            watcher.cancel()


async def _outcome(running: RunningCommand) -> RunResult:
    """Wait for a started run; if whoever awaits gives up, the command must not outlive it."""
    try:
        return await running.wait()
    except asyncio.CancelledError:
        running.cancel()
        with contextlib.suppress(BaseException):
            await running.wait()
        raise


class Runner:
    """Runs addressable by id (e.g. a block id), so they can be cancelled or answered."""

    def __init__(self) -> None:
        self._runs: dict[str, RunningCommand] = {}

    async def run(
        self,
        request: RunRequest,
        *,
        run_id: str | None = None,
        on_output: OutputCallback | None = None,
        on_waiting: WaitingCallback | None = None,
        stop_when_waiting: float | None = None,
    ) -> RunResult:
        run_id = run_id or secrets.token_hex(6)
        if run_id in self._runs and not self._runs[run_id].done:
            raise AInternError(f"{run_id!r} is already running; cancel it first")
        running = RunningCommand(
            request,
            on_output=on_output,
            on_waiting=on_waiting,
            stop_when_waiting=stop_when_waiting,
        )
        self._runs[run_id] = running
        try:
            running.start()
            return await _outcome(running)
        finally:
            if self._runs.get(run_id) is running:
                del self._runs[run_id]

    def is_running(self, run_id: str) -> bool:
        return run_id in self._runs

    def waiting(self, run_id: str) -> InputWait | None:
        """What the run `run_id` waits for (None: not running or not waiting)."""
        running = self._runs.get(run_id)
        return None if running is None else running.waiting

    def running_ids(self) -> list[str]:
        return list(self._runs)

    def cancel(self, run_id: str) -> bool:
        """Cancel a run; False if nothing with that id is running."""
        running = self._runs.get(run_id)
        if running is None:
            return False
        running.cancel()
        return True

    def write(self, run_id: str, data: str | bytes) -> bool:
        running = self._runs.get(run_id)
        if running is None:
            return False
        running.write(data)
        return True

    def cancel_all(self) -> None:
        for running in list(self._runs.values()):
            running.cancel()
