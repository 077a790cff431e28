"""Ending a command together with everything it started.

A PTY child leads its own session and process group (setsid), so `killpg` reaches the
whole job. Descendants that called setsid themselves leave the group; they are found with
psutil, both as live descendants captured before anything is killed and, for orphans whose
parent already died, by a marker variable every process we start inherits. Escalation:
SIGTERM to everything, a short grace, then SIGKILL to whatever is left.

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


def collect_tree(pid: int, marker: str | None = None) -> list[psutil.Process]:
    """The process `pid`, its descendants and (with `marker`) every process carrying it."""
    found: dict[int, psutil.Process] = {}
    with contextlib.suppress(psutil.Error):
        root = psutil.Process(pid)
        found[root.pid] = root
        for child in root.children(recursive=True):
            found[child.pid] = child
    if marker is not None:
        for proc in marked_processes(marker):
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
    _signal_all(pgid, procs, first_signal)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(_POLL_SECONDS)
        if all(is_gone(p) for p in procs) and not (pgid is not None and _group_alive(pgid)):
            return
    # Processes started during the grace (a TERM handler spawning more) are caught here.
    procs = [p for p in procs if not is_gone(p)]
    for proc in list(procs):
        with contextlib.suppress(psutil.Error):
            procs.extend(proc.children(recursive=True))
    if marker is not None:
        procs.extend(marked_processes(marker))
    _signal_all(pgid, procs, _SIGKILL)


def kill_tree_now(pid: int, *, marker: str | None = None, grace_seconds: float = 0.2) -> None:
    """Blocking variant of `kill_tree` for interpreter exit, where no loop is running."""
    procs = collect_tree(pid, marker)
    pgid = None if sys.platform == "win32" else pid
    _signal_all(pgid, procs, signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline and not all(is_gone(p) for p in procs):
        time.sleep(_POLL_SECONDS)
    _signal_all(pgid, [p for p in procs if not is_gone(p)], _SIGKILL)


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
