"""Ending a command together with everything it started.

A PTY child leads its own session and process group (setsid), so `killpg` reaches the
whole job. Descendants that called setsid themselves leave the group; they are found with
psutil, both as live descendants captured before anything is killed and, for orphans whose
parent already died, by what every process we start inherits:

- a marker variable (`AINTERN_LS_PROCESS`), which `env -i` drops, and
- on Linux a *tag*: one end of a per-run pipe at descriptor `pty.TAG_FD`, which survives
  `setsid` and `env -i` (only a deliberate close of the descriptor drops it).

On Linux the server is also a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): an
orphan is re-parented to the server instead of init, so escapees are found among the
server's own children (and reaped once killed) instead of in a scan of every process.
Escalation: SIGTERM to everything, a short grace, then SIGKILL to whatever is left.

Every PTY child is registered here until it is reaped, and an `atexit` hook kills what is
still registered, so children do not outlive the server (for example after stdin EOF).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable

import psutil

MARKER_ENV = "AINTERN_LS_PROCESS"
DEFAULT_GRACE_SECONDS = 2.0
_POLL_SECONDS = 0.05


# -- subreaper and tags ---------------------------------------------------------------------

_PR_SET_CHILD_SUBREAPER = 36
_subreaper: bool | None = None
_reap_strangers = False
_tags_lock = threading.Lock()
_tags: dict[str, tuple[int, str]] = {}  # marker -> (our read end, "pipe:[inode]")
_adopted: set[int] = set()  # orphans we killed, to reap once they are zombies


def enable_subreaper(*, reap_strangers: bool = False) -> bool:
    """Make this process a child subreaper (Linux); True if it is one.

    With `reap_strangers` (the server's own process, which starts no other children),
    zombie orphans nobody claims are reaped too; a library user keeps its own children's
    exit statuses.
    """
    global _subreaper, _reap_strangers
    if reap_strangers:
        _reap_strangers = True
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                _subreaper = False
    return _subreaper


def new_tag(marker: str) -> int | None:
    """Create the tag pipe for a run; return the descriptor to hand to the child (None
    where tags are not supported). The caller closes it once the child has started."""
    if not sys.platform.startswith("linux"):
        return None
    read_end, write_end = os.pipe()
    link = f"pipe:[{os.fstat(read_end).st_ino}]"
    with _tags_lock:
        _tags[marker] = (read_end, link)
    return write_end


def release_tag(marker: str) -> None:
    """Forget a run's tag (after its final cleanup)."""
    with _tags_lock:
        entry = _tags.pop(marker, None)
    if entry is not None:
        with contextlib.suppress(OSError):
            os.close(entry[0])


def _tag_link(marker: str | None) -> str | None:
    if marker is None:
        return None
    with _tags_lock:
        entry = _tags.get(marker)
    return entry[1] if entry else None


def holds_tag(pid: int, link: str) -> bool:
    """True if process `pid` has the tag pipe `link` open (Linux /proc)."""
    base = f"/proc/{pid}/fd"
    try:
        names = os.listdir(base)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"{base}/{name}") == link:
                return True
        except OSError:
            continue
    return False


def _carries(proc: psutil.Process, marker: str, link: str | None) -> bool:
    try:
        if proc.environ().get(MARKER_ENV) == marker:
            return True
    except psutil.Error:
        pass
    return link is not None and holds_tag(proc.pid, link)


def adopted_processes(marker: str) -> list[psutil.Process]:
    """Orphans re-parented to this (subreaper) process that belong to `marker`'s run."""
    if not _subreaper:
        return []
    link = _tag_link(marker)
    leaders = set(tracked())
    hits: list[psutil.Process] = []
    with contextlib.suppress(psutil.Error):
        for child in psutil.Process().children():
            if child.pid in leaders or is_gone(child):
                continue
            if _carries(child, marker, link):
                hits.append(child)
                _adopted.add(child.pid)
    return hits


def reap_adopted() -> None:
    """Collect the exit status of orphans we killed (and, in the server, of any zombie
    child that is not one of our PTYs), so no zombie lingers under the server."""
    if not _subreaper:
        return
    candidates = set(_adopted)
    if _reap_strangers:
        leaders = set(tracked())
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process().children():
                if child.pid not in leaders and is_gone(child):
                    candidates.add(child.pid)
    for pid in candidates:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            _adopted.discard(pid)
            continue
        if done:
            _adopted.discard(pid)


def collect_tree(
    pid: int | None, marker: str | None = None, *, scan: bool = True
) -> list[psutil.Process]:
    """The process `pid`, its descendants and (with `marker`) every process of the run:
    orphans re-parented to us that carry its marker or tag and, with `scan`, every
    process on the system carrying its marker."""
    found: dict[int, psutil.Process] = {}
    if pid is not None:
        with contextlib.suppress(psutil.Error):
            root = psutil.Process(pid)
            found[root.pid] = root
            for child in root.children(recursive=True):
                found[child.pid] = child
    if marker is not None:
        extra = adopted_processes(marker)
        if scan:
            extra += marked_processes(marker)
        for proc in extra:
            found.setdefault(proc.pid, proc)
            with contextlib.suppress(psutil.Error):
                for child in proc.children(recursive=True):
                    found.setdefault(child.pid, child)
    found.pop(os.getpid(), None)
    return list(found.values())


def marked_processes(marker: str) -> list[psutil.Process]:
    """Live processes whose environment has MARKER_ENV=marker."""
    me = os.getpid()
    hits: list[psutil.Process] = []
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        try:
            if proc.environ().get(MARKER_ENV) == marker:
                hits.append(proc)
        except psutil.Error:
            continue
    return hits


def is_gone(proc: psutil.Process) -> bool:
    """True if the process has exited (a zombie waiting for its parent counts as gone)."""
    try:
        return not proc.is_running() or proc.status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return True


def _group_alive(pgid: int) -> bool:
    if sys.platform == "win32":
        return False
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    # killpg also succeeds while only zombies are left in the group.
    return any(
        p.info["status"] != psutil.STATUS_ZOMBIE
        for p in psutil.process_iter(["pid", "status"])
        if _pgid_of(p.pid) == pgid
    )


def _pgid_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _signal_all(pgid: int | None, procs: Iterable[psutil.Process], sig: int) -> None:
    own_group = None if sys.platform == "win32" else os.getpgid(0)
    groups: set[int] = set()
    if pgid is not None:
        groups.add(pgid)
    for proc in procs:
        if sys.platform != "win32":
            group = _pgid_of(proc.pid)
            # A descendant that left our job with setsid leads its own group: take it too.
            if group is not None and group == proc.pid:
                groups.add(group)
        with contextlib.suppress(psutil.Error):
            if sys.platform == "win32":
                proc.kill() if sig == _SIGKILL else proc.terminate()
            else:
                proc.send_signal(sig)
    for group in groups:
        if group == own_group or group <= 1:
            continue  # never signal the server's own group or init
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, sig)


_SIGKILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)


async def kill_tree(
    pid: int,
    *,
    marker: str | None = None,
    grace_seconds: float = DEFAULT_GRACE_SECONDS,
    first_signal: int = signal.SIGTERM,
) -> None:
    """TERM the process group of `pid` and every descendant; KILL survivors after the grace.

    Interactive shells ignore SIGTERM, so sessions pass SIGHUP (what closing a terminal
    sends) as `first_signal`.
    """
    procs = collect_tree(pid, marker)
    pgid = None if sys.platform == "win32" else pid
    if not procs and not (pgid is not None and _group_alive(pgid)):
        reap_adopted()
        return
    _signal_all(pgid, procs, first_signal)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(_POLL_SECONDS)
        if all(is_gone(p) for p in procs) and not (pgid is not None and _group_alive(pgid)):
            reap_adopted()
            return
    # Processes started during the grace (a TERM handler spawning more) are caught here.
    procs = [p for p in procs if not is_gone(p)]
    for proc in list(procs):
        with contextlib.suppress(psutil.Error):
            procs.extend(proc.children(recursive=True))
    if marker is not None:
        procs.extend(marked_processes(marker))
        procs.extend(adopted_processes(marker))
    _signal_all(pgid, procs, _SIGKILL)
    await asyncio.sleep(_POLL_SECONDS)
    reap_adopted()


async def kill_leftovers(
    pgid: int | None, marker: str, *, grace_seconds: float = DEFAULT_GRACE_SECONDS
) -> None:
    """After a run's shell has exited and been reaped: kill whatever it left behind (its
    process group, orphans carrying its marker or tag), on every exit path.

    The shell's own pid is not looked up again: it may already belong to somebody else.
    """
    procs = collect_tree(None, marker)
    group = pgid if pgid is not None and sys.platform != "win32" and _group_alive(pgid) else None
    if not procs and group is None:
        reap_adopted()
        return
    _signal_all(group, procs, signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(_POLL_SECONDS)
        if all(is_gone(p) for p in procs) and not (group is not None and _group_alive(group)):
            reap_adopted()
            return
    procs = [p for p in procs if not is_gone(p)]
    procs.extend(collect_tree(None, marker))
    _signal_all(group, procs, _SIGKILL)
    await asyncio.sleep(_POLL_SECONDS)
    reap_adopted()


def kill_tree_now(pid: int, *, marker: str | None = None, grace_seconds: float = 0.2) -> None:
    """Blocking variant of `kill_tree` for interpreter exit, where no loop is running."""
    procs = collect_tree(pid, marker)
    pgid = None if sys.platform == "win32" else pid
    _signal_all(pgid, procs, signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline and not all(is_gone(p) for p in procs):
        time.sleep(_POLL_SECONDS)
    _signal_all(pgid, [p for p in procs if not is_gone(p)], _SIGKILL)
    reap_adopted()


def group_has_members(pid: int) -> bool:
    """True while a non-zombie process is left in the process group led by `pid`."""
    return _group_alive(pid)


# -- the belt-and-braces exit hook --------------------------------------------------------

_live_lock = threading.Lock()
_live: dict[int, str | None] = {}


def track(pid: int, marker: str | None) -> None:
    """Remember a PTY child so interpreter exit kills it if nobody else did."""
    with _live_lock:
        _live[pid] = marker


def untrack(pid: int) -> None:
    with _live_lock:
        _live.pop(pid, None)


def tracked() -> dict[int, str | None]:
    with _live_lock:
        return dict(_live)


def kill_all_tracked() -> None:
    """Kill every registered child tree (registered with `atexit`)."""
    for pid, marker in tracked().items():
        with contextlib.suppress(Exception):
            kill_tree_now(pid, marker=marker)
        untrack(pid)


atexit.register(kill_all_tracked)
