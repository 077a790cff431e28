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
import shutil
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.terminal import process_tree


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


# -- starting a child ---------------------------------------------------------------------

_RESET_SIGNALS = tuple(
    name
    for name in (
        "SIGINT",
        "SIGQUIT",
        "SIGTERM",
        "SIGHUP",
        "SIGPIPE",
        "SIGXFSZ",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGCHLD",
        "SIGALRM",
        "SIGUSR1",
        "SIGUSR2",
    )
    if hasattr(signal, name)
)

#: The descriptor number where a child finds its run's tag pipe (see `process_tree`).
TAG_FD = 201


class SpawnArgumentError(AInternError):
    """argv, environment or cwd that no program can be started with (a NUL byte, `=` in
    an environment name, a character the file system encoding cannot carry)."""


def check_text(what: str, value: object, *, name: bool = False) -> None:
    if not isinstance(value, str):
        raise SpawnArgumentError(f"{what} must be text, got {type(value).__name__}")
    if "\0" in value:
        raise SpawnArgumentError(
            f"{what} contains a NUL byte (\\0) at position {value.index(chr(0))}; a program "
            "cannot receive one, so nothing was started: remove it"
        )
    if name and not value:
        raise SpawnArgumentError(f"{what} is empty; give the variable a name")
    if name and "=" in value:
        raise SpawnArgumentError(
            f"{what} {value!r} contains '='; environment variable names cannot, so "
            "nothing was started: rename it"
        )
    try:
        os.fsencode(value)
    except UnicodeError as exc:
        bad = value[exc.start] if isinstance(exc, UnicodeEncodeError) else "?"
        raise SpawnArgumentError(
            f"{what} contains the character U+{ord(bad):04X}, which cannot be passed to a "
            "program (a lone surrogate or a character the system encoding lacks): remove it"
        ) from None


def keystrokes(text: str, what: str = "text") -> bytes:
    """`text` as UTF-8 for a terminal; a lone surrogate (a JSON `\\ud800`) is a clear error."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise AInternError(
            f"the {what} contains U+{ord(text[exc.start]):04X} at position {exc.start}, a lone "
            "surrogate that no terminal can receive; send valid Unicode text"
        ) from None


def validate_spawn(argv: Sequence[str], cwd: str | None, env: Mapping[str, str]) -> None:
    """Refuse, before any fork, what `execve` or `chdir` would reject in the child."""
    if isinstance(argv, str) or not argv:
        raise SpawnArgumentError("nothing to start: the program's argument list is empty")
    for index, arg in enumerate(argv):
        check_text("the program" if index == 0 else f"argument {index}", arg)
    for key, value in env.items():
        check_text("the environment variable name", key, name=True)
        check_text(f"the value of environment variable {key}", value)
    if cwd is not None:
        check_text("the working directory", cwd)


def _resolve_program(argv: Sequence[str], env: Mapping[str, str]) -> str:
    program = argv[0]
    if os.path.dirname(program):
        return program
    found = shutil.which(program, path=env.get("PATH", os.defpath))
    if found is None:
        raise AInternError(f"{program!r} was not found on PATH; install it or give its full path")
    return found


def _fork_exec(
    argv: Sequence[str],
    cwd: str,
    env: Mapping[str, str],
    cols: int,
    rows: int,
    tag_fd: int | None,
) -> tuple[int, int]:
    """Fork a child on a new PTY (new session, the PTY as its controlling terminal) and
    exec `argv` in it; return (pid, master fd).

    The child runs a handful of calls and then `execve`; whatever goes wrong in it
    (any exception, not only OSError) is reported through a close-on-exec pipe and the
    child ends with `os._exit`, so it can never return into the server's code as a second
    copy of the server. ptyprocess' own fork path lets a ValueError through.
    """
    import fcntl
    import pty as stdlib_pty
    import struct
    import termios

    validate_spawn(argv, cwd, env)
    program = _resolve_program(argv, env)
    # Orphans of the child come back to us (Linux), so they can be found and killed.
    process_tree.enable_subreaper()
    args = list(argv)
    environment = dict(env)
    err_r, err_w = os.pipe()  # both ends close-on-exec (PEP 446)
    parent = os.getpid()
    try:
        pid, fd = stdlib_pty.fork()
    except BaseException:
        if os.getpid() != parent:  # pty.fork's pure-Python fallback failed in the child
            os._exit(127)
        os.close(err_r)
        os.close(err_w)
        raise
    if pid == 0:  # the child: nothing below may return or raise
        try:
            os.close(err_r)
            with contextlib.suppress(OSError):
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            keep = {err_w}
            if tag_fd is not None:
                os.dup2(tag_fd, TAG_FD, inheritable=True)
                keep.add(TAG_FD)
            low = 3
            for fd_keep in sorted(keep):
                os.closerange(low, fd_keep)
                low = fd_keep + 1
            os.closerange(low, 65536)
            # Default signal handling, as in any terminal: Python ignores SIGPIPE (a
            # pipeline like `yes | head` needs the default), and a server started in the
            # background may have SIGINT/SIGQUIT ignored, which Ctrl-C could not undo.
            for name in _RESET_SIGNALS:
                with contextlib.suppress(Exception):
                    signal.signal(getattr(signal, name), signal.SIG_DFL)
            with contextlib.suppress(Exception):
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.chdir(cwd)
            os.execve(program, args, environment)
        except BaseException as exc:  # reported to the parent, then _exit
            with contextlib.suppress(BaseException):
                code = exc.errno if isinstance(exc, OSError) and exc.errno else 0
                os.write(err_w, f"{type(exc).__name__}:{code}:{exc}".encode(errors="replace"))
        finally:
            os._exit(127)
    os.close(err_w)
    try:
        report = _read_all(err_r)
    finally:
        os.close(err_r)
    if report:
        with contextlib.suppress(OSError):
            os.close(fd)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        kind, _, rest = report.decode("utf-8", "replace").partition(":")
        number, _, message = rest.partition(":")
        if kind.endswith("Error") and number.isdigit() and int(number):
            raise OSError(int(number), f"{message} ({program}, cwd {cwd})")
        raise AInternError(f"could not start {program}: {kind}: {message}")
    return pid, fd


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    return b"".join(chunks)


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
        tag_fd: int | None = None,
    ) -> PtyProcessBackend:
        from ptyprocess import PtyProcess

        pid, fd = _fork_exec(argv, cwd, env, cols, rows, tag_fd)
        proc = PtyProcess(pid, fd)
        with contextlib.suppress(OSError):
            proc.setwinsize(rows, cols)
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
    tag_fd: int | None = None,
) -> Pty:
    """Start `argv` in a fresh pseudo-terminal with the platform's backend.

    Bad argv/env/cwd raise `SpawnArgumentError` before anything is started. `tag_fd`
    (POSIX) is handed to the child as descriptor `TAG_FD`, which its descendants inherit.
    """
    validate_spawn(argv, cwd, env)
    if sys.platform == "win32":
        return WinPtyBackend.spawn(argv, cwd, env, cols, rows)
    return PtyProcessBackend.spawn(argv, cwd, env, cols, rows, tag_fd)
