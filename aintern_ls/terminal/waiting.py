"""Is a one-shot run waiting for someone to type? (`read -p`, `[y/N]`, a password, a REPL)

Quiet output alone cannot tell a prompt from `sleep 5` or a slow build, so on Linux the
detector asks the kernel what the terminal's foreground job is doing:

- a task blocked in `read()` on a terminal (`/proc/<pid>/task/<tid>/syscall`, or its
  `wchan` is `n_tty_read` when the syscall file is not readable) waits for a line;
- a task blocked in `select`/`poll`/`epoll` on a set that holds a terminal (read from
  its pollfd array or fd_set in `/proc/<pid>/mem`, or the epoll fd's `fdinfo`) waits
  for keys only if the terminal is in raw mode (a line editor: readline, node's REPL)
  or the last output line looks like a prompt; a build tool or a download polling its
  sockets does neither;
- a process `/proc` does not show us (setuid `sudo`) and platforms without `/proc`
  (macOS, Windows) fall back to the last output line looking like a prompt.

Every verdict also needs `QUIET_SECONDS` without output. `secret` is set when the
terminal's echo is off in canonical mode (`read -s`, getpass, sudo) or the prompt asks
for a password. Nothing here blocks: a probe is a handful of small `/proc` reads.
"""

from __future__ import annotations

import contextlib
import enum
import os
import platform
import re
import sys
import threading
import time

import attrs

#: No output for this long before a run can count as waiting.
QUIET_SECONDS = 0.3
#: Bytes of output kept to find the last line.
TAIL_BYTES = 1024
PROMPT_MAX_CHARS = 200
#: How often a quiet run is probed at first, and at most (it backs off in between).
PROBE_INTERVAL_SECONDS = 0.1
MAX_PROBE_INTERVAL_SECONDS = 1.0


@attrs.frozen
class InputWait:
    """A run waits for input: the prompt it shows and whether the answer is secret."""

    prompt: str
    secret: bool
    how: str
    """`tty-read`, `line-editor` or `prompt-text`: which evidence decided."""

    def to_json(self) -> dict[str, object]:
        return {"prompt": self.prompt, "secret": self.secret}


class Probe(enum.Enum):
    """What the terminal's foreground job is doing, as far as `/proc` tells."""

    READING = "reading"  # blocked in read() on a terminal
    POLLING = "polling"  # blocked in select/poll/epoll, stdin a terminal
    BUSY = "busy"  # running, sleeping, waiting for children, I/O elsewhere
    UNKNOWN = "unknown"  # no /proc, or a process we may not inspect


# -- the prompt heuristic -------------------------------------------------------------

_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS/SOS/PM/APC
    r"|\x1b[ -/]*[0-~]"  # other escapes
)
_PROMPT = re.compile(
    r"""(?ix)
    (?: [:?>] \s* $                                   # name? / Password: / >>> / PS C:\>
      | [$\#%] \s $                                   # a shell's prompt
      | \[ [^\]\n]{0,20} \b (?:y|n|yes|no) \b [^\]\n]{0,20} \] [\s:?]* $   # [y/N] [Y/n]
      | \( \s* (?:y|n|yes|no) \s* / [^)\n]{0,30} \) [\s:?]* $              # (yes/no)
    )
    """
)
_SECRET = re.compile(r"(?i)\b(?:password|passphrase|passcode|pin|otp|token|secret)\b")


def last_line(text: str) -> str:
    """The unfinished last line of `text` as a person sees it ("" if it ends a line)."""
    text = _ANSI.sub("", text)
    if text.endswith("\n"):
        return ""
    line = text.rsplit("\n", 1)[-1]
    # a carriage return starts the line over (progress bars); what is left shows
    parts = [p for p in line.split("\r") if p]
    line = parts[-1] if parts else ""
    return "".join(ch for ch in line if ch == "\t" or ch >= " ")[-PROMPT_MAX_CHARS:]


def looks_like_prompt(line: str) -> bool:
    """True if an unfinished output line reads like a question to the user."""
    return bool(line.strip()) and bool(_PROMPT.search(line))


def secret_prompt(line: str) -> bool:
    return bool(_SECRET.search(line))


# -- /proc ------------------------------------------------------------------------------

#: Blocking syscalls by number, per CPU: `read` (arg 0 is the fd), `poll`/`ppoll` (a
#: pollfd array and its length), `select`/`pselect6` (nfds, the read fd_set), `epoll`
#: (the epoll fd; its targets are listed in /proc/<pid>/fdinfo).
_X86_64 = {0: "read", 17: "read", 19: "read", 7: "poll", 271: "poll", 23: "select"}
_X86_64 |= {270: "select", 232: "epoll", 281: "epoll", 441: "epoll"}
_ARM64 = {63: "read", 65: "read", 67: "read", 73: "poll", 72: "select", 22: "epoll"}
_ARM64 |= {441: "epoll"}
_ARCH_SYSCALLS: dict[str, dict[int, str]] = {
    "x86_64": _X86_64,
    "amd64": _X86_64,
    "aarch64": _ARM64,
    "arm64": _ARM64,
}
_POLLIN = 0x001 | 0x002 | 0x040  # POLLIN | POLLPRI | POLLRDNORM
_READ_WCHAN = frozenset({"n_tty_read"})
_POLL_WCHAN = frozenset(
    {"do_select", "core_sys_select", "do_sys_poll", "poll_schedule_timeout", "ep_poll"}
)


def _read(path: str) -> str | None:
    """A small /proc file, None if it is gone; PermissionError propagates."""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except (FileNotFoundError, ProcessLookupError, NotADirectoryError):
        return None
    except OSError as exc:
        if isinstance(exc, PermissionError):
            raise
        return None


def _is_tty_link(link: str) -> bool:
    return link.startswith("/dev/pts/") or link.startswith("/dev/tty") or link == "/dev/console"


def _fd_is_tty(pid: int, fd: int) -> bool:
    try:
        return _is_tty_link(os.readlink(f"/proc/{pid}/fd/{fd}"))
    except OSError:
        return False


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, process group) of `pid`."""
    with contextlib.suppress(PermissionError):
        text = _read(f"/proc/{pid}/stat")
        if text is None:
            return None
        fields = text.rsplit(")", 1)[-1].split()
        try:
            return fields[0], int(fields[2])
        except (IndexError, ValueError):
            return None
    return None


def _descendants(root: int) -> list[int]:
    """`root` and every process below it (via /proc/<pid>/task/<tid>/children)."""
    seen: list[int] = []
    todo = [root]
    while todo and len(seen) < 4096:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.append(pid)
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            with contextlib.suppress(PermissionError):
                text = _read(f"/proc/{pid}/task/{tid}/children")
                if text:
                    todo.extend(int(c) for c in text.split() if c.isdigit())
    return seen


def _mem(pid: int, address: int, size: int) -> bytes | None:
    """`size` bytes of `pid`'s memory (needs ptrace access: our own children have it)."""
    if size <= 0 or size > 64 * 1024 or address <= 0:
        return None
    try:
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as f:
            f.seek(address)
            data = f.read(size)
    except (OSError, OverflowError, ValueError):
        return None
    return data if len(data) == size else None


def _watched_fds(pid: int, kind: str, args: list[int]) -> set[int] | None:
    """The descriptors a task blocked in poll/select/epoll waits to read, None if unknown."""
    if kind == "poll" and len(args) >= 2:
        nfds = args[1]
        raw = _mem(pid, args[0], nfds * 8) if 0 < nfds <= 4096 else None
        if raw is None:
            return None
        fds = set()
        for i in range(nfds):
            fd = int.from_bytes(raw[i * 8 : i * 8 + 4], sys.byteorder, signed=True)
            events = int.from_bytes(raw[i * 8 + 4 : i * 8 + 6], sys.byteorder)
            if fd >= 0 and events & _POLLIN:
                fds.add(fd)
        return fds
    if kind == "select" and len(args) >= 2:
        nfds, readfds = args[0], args[1]
        if readfds == 0:
            return set()
        raw = _mem(pid, readfds, (nfds + 63) // 64 * 8) if 0 < nfds <= 65536 else None
        if raw is None:
            return None
        bits = int.from_bytes(raw, sys.byteorder)
        return {fd for fd in range(nfds) if bits >> fd & 1}
    if kind == "epoll" and args:
        try:
            info = _read(f"/proc/{pid}/fdinfo/{args[0]}")
        except PermissionError:
            return None
        if info is None:
            return None
        fds = set()
        for line in info.splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[0] == "tfd:" and fields[2] == "events:":
                with contextlib.suppress(ValueError):
                    if int(fields[3], 16) & _POLLIN:
                        fds.add(int(fields[1]))
        return fds
    return None


def _task_probe(pid: int, tid: str, syscalls: dict[int, str]) -> Probe:
    try:
        syscall = _read(f"/proc/{pid}/task/{tid}/syscall")
    except PermissionError:
        syscall = None
    if syscall is not None and syscalls:
        fields = syscall.split()
        if not fields or fields[0] in ("running", "-1"):
            return Probe.BUSY
        try:
            kind = syscalls.get(int(fields[0]))
            args = [int(a, 16) for a in fields[1:7]]
        except ValueError:
            return Probe.UNKNOWN
        if kind == "read":
            return Probe.READING if args and _fd_is_tty(pid, args[0]) else Probe.BUSY
        if kind is not None:
            watched = _watched_fds(pid, kind, args)
            if watched is None:  # memory we may not read: is stdin a terminal at least?
                return Probe.POLLING if _fd_is_tty(pid, 0) else Probe.BUSY
            return Probe.POLLING if any(_fd_is_tty(pid, fd) for fd in watched) else Probe.BUSY
        return Probe.BUSY
    try:
        wchan = (_read(f"/proc/{pid}/task/{tid}/wchan") or "").strip()
    except PermissionError:
        return Probe.UNKNOWN
    if wchan in _READ_WCHAN:
        return Probe.READING
    if wchan in _POLL_WCHAN:
        return Probe.POLLING if _fd_is_tty(pid, 0) else Probe.BUSY
    if wchan in ("", "0", "wait_woken"):  # hidden, or ambiguous (sockets use it too)
        return Probe.UNKNOWN
    return Probe.BUSY


def probe(root: int, foreground: int | None, *, proc: str = "/proc") -> Probe:
    """What the foreground job of the terminal led by `root` is doing.

    `foreground` is the terminal's foreground process group (None: every process
    below `root`). Without `/proc` (or with an unknown CPU) the answer is UNKNOWN.
    """
    if not os.path.isdir(f"{proc}/self/task"):
        return Probe.UNKNOWN
    syscalls = _ARCH_SYSCALLS.get(platform.machine().lower(), {})
    found: set[Probe] = set()
    for pid in _descendants(root):
        stat = _stat(pid)
        if stat is None:
            continue
        state, group = stat
        if foreground is not None and group != foreground:
            continue
        if state in ("Z", "X", "x"):
            continue
        if state == "R":
            found.add(Probe.BUSY)
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except PermissionError:
            found.add(Probe.UNKNOWN)
            continue
        except OSError:
            continue
        for tid in tids:
            verdict = _task_probe(pid, tid, syscalls)
            if verdict is Probe.READING:
                return verdict  # nothing else can change the answer
            found.add(verdict)
    for verdict in (Probe.READING, Probe.POLLING, Probe.UNKNOWN):
        if verdict in found:
            return verdict
    return Probe.BUSY


# -- the detector ---------------------------------------------------------------------


def _terminal_modes(fd: int | None) -> tuple[bool, bool] | None:
    """(echo, canonical) of the terminal behind master `fd`, None where unknown."""
    if fd is None or fd < 0:
        return None
    try:
        import termios

        lflag = termios.tcgetattr(fd)[3]
    except (ImportError, OSError, termios.error):  # type: ignore[misc,unused-ignore]
        return None
    return bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)


def decide(
    found: Probe, line: str, modes: tuple[bool, bool] | None, *, has_proc: bool
) -> InputWait | None:
    """The verdict on a quiet run from the probe, the last output line and the terminal
    modes (echo, canonical); pure, so every branch is unit-tested."""
    prompt_shaped = looks_like_prompt(line)
    raw = modes is not None and not modes[1]
    if found is Probe.READING:
        how = "tty-read"
    elif found is Probe.POLLING and (raw or prompt_shaped):
        how = "line-editor"
    elif (found is Probe.UNKNOWN or not has_proc) and prompt_shaped:
        how = "prompt-text"
    else:
        return None
    echo_off = modes is not None and not modes[0] and modes[1]
    return InputWait(prompt=line, secret=echo_off or secret_prompt(line), how=how)


def _unread_bytes(fd: int | None) -> int:
    """Output the program wrote that the reader has not taken from master `fd` yet."""
    if fd is None or fd < 0:
        return 0
    try:
        import array
        import fcntl
        import termios

        count = array.array("i", [0])
        fcntl.ioctl(fd, termios.FIONREAD, count, True)
    except (ImportError, OSError, AttributeError):
        return 0
    return count[0]


class InputWaitDetector:
    """Watches one run: `feed` every output chunk (any thread), `check` now and then on
    the loop. `check` returns the current `InputWait` or None."""

    def __init__(
        self,
        pid: int,
        master_fd: int | None,
        *,
        quiet_seconds: float = QUIET_SECONDS,
        proc: str = "/proc",
    ) -> None:
        self._pid = pid
        self._fd = master_fd
        self._quiet = quiet_seconds
        self._proc = proc
        self._has_proc = os.path.isdir(f"{proc}/self/task")
        self._lock = threading.Lock()
        self._tail = b""
        self._last_activity = time.monotonic()
        self._generation = 0
        self._checked_generation = -1
        self._interval = PROBE_INTERVAL_SECONDS
        self._next_probe = 0.0
        self._state: InputWait | None = None
        self._candidate: tuple[int, InputWait] | None = None

    @property
    def state(self) -> InputWait | None:
        return self._state

    def feed(self, data: bytes) -> None:
        """Output arrived (called on the PTY's reader thread)."""
        if not data:
            return
        with self._lock:
            self._tail = (self._tail + data)[-TAIL_BYTES:]
            self._last_activity = time.monotonic()
            self._generation += 1

    def answered(self) -> None:
        """Keystrokes went to the program: not waiting until it is quiet again."""
        with self._lock:
            self._last_activity = time.monotonic()
            self._generation += 1
        self._state = None

    def _foreground(self) -> int | None:
        if self._fd is None or self._fd < 0:
            return None
        try:
            return os.tcgetpgrp(self._fd)
        except OSError:
            return None

    def check(self, now: float | None = None) -> InputWait | None:
        """The state now. Probes `/proc` at most every `_interval` seconds, backing
        off while one quiet spell lasts (a silent build is not probed ten times a
        second for minutes); new output or an answer starts over."""
        now = time.monotonic() if now is None else now
        with self._lock:
            quiet_for = now - self._last_activity
            generation = self._generation
            tail = self._tail
        if quiet_for < self._quiet or _unread_bytes(self._fd) > 0:
            # Still talking, or its last words are still in the terminal on their way to
            # `feed`: not quiet yet.
            self._state = None
            return None
        if generation != self._checked_generation:
            self._checked_generation = generation
            self._interval = PROBE_INTERVAL_SECONDS
            self._state = None
        elif now < self._next_probe:
            return self._state
        else:
            self._interval = min(self._interval * 2, MAX_PROBE_INTERVAL_SECONDS)
        self._next_probe = now + self._interval
        found = (
            probe(self._pid, self._foreground(), proc=self._proc)
            if self._has_proc
            else Probe.UNKNOWN
        )
        line = last_line(tail.decode("utf-8", "replace"))
        verdict = decide(found, line, _terminal_modes(self._fd), has_proc=self._has_proc)
        if verdict is not None and self._candidate != (generation, verdict):
            # First sight. The reader thread can lag behind the program (a loaded machine):
            # the prompt may have left the terminal and not reached `feed` yet, so the
            # verdict stands only when a second probe a moment later, with no output in
            # between, agrees (else a REPL would be reported waiting at an empty prompt).
            self._candidate = (generation, verdict)
            self._next_probe = now + PROBE_INTERVAL_SECONDS
            self._state = None
            return None
        self._state = verdict
        return self._state
