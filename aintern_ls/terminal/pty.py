"""One pseudo-terminal interface (`Pty`) over ptyprocess (POSIX) and pywinpty (Windows).

The rest of the terminal package only talks to `Pty`. Reads and writes here may block:
callers run them on the PTY's own threads (see `reader.py`), never on the event loop.
`poll()` never blocks, so the loop may call it to learn whether the child has exited.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs


@attrs.frozen
class ExitStatus:
    """How a child ended: an exit code, or the number of the signal that killed it."""

    exit_code: int | None
    signal: int | None


class Pty(Protocol):
    """A child process attached to a pseudo-terminal."""

    @property
    def pid(self) -> int:
        """Process id of the child (on POSIX also its process group and session id)."""
        ...

    def read(self, size: int) -> bytes:
        """Block until output is available; raise `EOFError` once the terminal is closed."""
        ...

    def readable(self) -> bool:
        """True if `read` would return at once (best effort: False when unknown)."""
        ...

    def write(self, data: bytes) -> int:
        """Write keystrokes to the terminal (may block while the child does not read)."""
        ...

    def resize(self, cols: int, rows: int) -> None:
        """Change the window size (the child gets SIGWINCH)."""
        ...

    def poll(self) -> ExitStatus | None:
        """Return the exit status if the child has ended, without blocking."""
        ...

    def foreground_process_group(self) -> int | None:
        """Process group of the terminal's foreground job, or None where unknown."""
        ...

    def close(self) -> None:
        """Release our end of the terminal. Does not wait; killing is `process_tree`'s job."""
        ...


class PtyProcessBackend:
    """`Pty` over ptyprocess. ptyprocess forks with setsid, so the child leads its own group."""

    def __init__(self, proc: Any) -> None:
        self._proc = proc
        self._fd: int = proc.fd
        self._status: ExitStatus | None = None

    @classmethod
    def spawn(
        cls,
        argv: Sequence[str],
        cwd: str,
        env: Mapping[str, str],
        cols: int = 120,
        rows: int = 30,
    ) -> PtyProcessBackend:
        from ptyprocess import PtyProcess

        proc = PtyProcess.spawn(list(argv), cwd=cwd, env=dict(env), dimensions=(rows, cols))
        return cls(proc)

    @property
    def pid(self) -> int:
        return int(self._proc.pid)

    @property
    def fd(self) -> int:
        return self._fd

    def read(self, size: int) -> bytes:
        try:
            # A bare os.read: ptyprocess.read wraps the same call in a buffered file object.
            data = os.read(self._fd, size)
        except OSError as exc:
            # Linux reports a closed slave side as EIO; EBADF means we closed our end.
            if exc.errno in (errno.EIO, errno.EBADF):
                raise EOFError from exc
            raise
        if not data:
            raise EOFError
        return data

    def readable(self) -> bool:
        try:
            ready, _, _ = select.select([self._fd], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(ready)

    def write(self, data: bytes) -> int:
        total = 0
        view = memoryview(data)
        while total < len(data):
            total += os.write(self._fd, view[total:])
        return total

    def resize(self, cols: int, rows: int) -> None:
        self._proc.setwinsize(rows, cols)

    def poll(self) -> ExitStatus | None:
        if self._status is not None:
            return self._status
        # Our own WNOHANG waitpid: ptyprocess.isalive() switches to a *blocking* waitpid
        # once it has seen EOF, which would stall the event loop.
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            self._status = ExitStatus(exit_code=None, signal=None)
            self._mark_terminated()
            return self._status
        if pid == 0:
            return None
        if os.WIFSIGNALED(status):
            self._status = ExitStatus(exit_code=None, signal=os.WTERMSIG(status))
        else:
            self._status = ExitStatus(exit_code=os.waitstatus_to_exitcode(status), signal=None)
        self._mark_terminated()
        return self._status

    def _mark_terminated(self) -> None:
        # Keep ptyprocess from waiting on a pid we already reaped (its __del__ would).
        self._proc.terminated = True
        if self._status is not None:
            self._proc.exitstatus = self._status.exit_code
            self._proc.signalstatus = self._status.signal

    def foreground_process_group(self) -> int | None:
        try:
            return os.tcgetpgrp(self._fd)
        except OSError:
            return None

    def close(self) -> None:
        if self._proc.closed:
            return
        # Not ptyprocess.close(): it sleeps and may block in waitpid.
        with contextlib.suppress(OSError):
            self._proc.fileobj.close()
        self._proc.closed = True
        self._proc.fd = -1


class WinPtyBackend:
    """`Pty` over pywinpty's `PtyProcess` (ConPTY/winpty). `winpty` is imported only here."""

    def __init__(self, proc: Any) -> None:
        self._proc = proc
        self._status: ExitStatus | None = None

    @classmethod
    def spawn(
        cls,
        argv: Sequence[str],
        cwd: str,
        env: Mapping[str, str],
        cols: int = 120,
        rows: int = 30,
    ) -> WinPtyBackend:
        import winpty

        proc = winpty.PtyProcess.spawn(list(argv), cwd=cwd, env=dict(env), dimensions=(rows, cols))
        return cls(proc)

    @property
    def pid(self) -> int:
        return int(self._proc.pid)

    def read(self, size: int) -> bytes:
        # pywinpty hands back text already decoded from the console; re-encode so the
        # rest of the package sees one byte stream on every platform.
        while True:
            text = self._proc.read(size)
            data = text if isinstance(text, bytes) else str(text).encode("utf-8", "surrogateescape")
            if data:
                return data
            if not self._proc.isalive():
                raise EOFError
            # A non-blocking pywinpty build answers "" while idle: don't spin on it.
            time.sleep(0.01)

    def readable(self) -> bool:
        return False

    def write(self, data: bytes) -> int:
        self._proc.write(data.decode("utf-8", "replace"))
        return len(data)

    def resize(self, cols: int, rows: int) -> None:
        self._proc.setwinsize(rows, cols)

    def poll(self) -> ExitStatus | None:
        if self._status is None and not self._proc.isalive():
            code = self._proc.exitstatus
            self._status = ExitStatus(exit_code=None if code is None else int(code), signal=None)
        return self._status

    def foreground_process_group(self) -> int | None:
        return None

    def close(self) -> None:
        # pywinpty raises its own error types when the agent is already gone.
        with contextlib.suppress(Exception):
            self._proc.close(force=False)


def spawn_pty(
    argv: Sequence[str],
    cwd: str,
    env: Mapping[str, str],
    cols: int = 120,
    rows: int = 30,
) -> Pty:
    """Start `argv` in a fresh pseudo-terminal with the platform's backend."""
    if sys.platform == "win32":
        return WinPtyBackend.spawn(argv, cwd, env, cols, rows)
    return PtyProcessBackend.spawn(argv, cwd, env, cols, rows)
