"""Fixtures for the terminal tests: every test must leave no child process behind."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import AsyncIterator, Iterable, Iterator

import psutil
import pytest

from aintern_ls.terminal import process_tree
from aintern_ls.terminal.session import TerminalManager

requires_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
SESSION_SHELLS = ["bash", pytest.param("zsh", marks=requires_zsh)]


def live_children() -> list[psutil.Process]:
    me = psutil.Process(os.getpid())
    return [p for p in me.children(recursive=True) if not process_tree.is_gone(p)]


def assert_gone(pids: Iterable[int], timeout: float = 5.0) -> None:
    """Each pid has exited (zombies whose parent is gone count as exited)."""
    pending = list(pids)
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for pid in pending:
            try:
                proc = psutil.Process(pid)
            except psutil.NoSuchProcess:
                continue
            if not process_tree.is_gone(proc):
                alive.append(proc)
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not alive, f"still running: {[(p.pid, p.name()) for p in alive]}"


@pytest.fixture(autouse=True)
def _no_leftover_processes() -> Iterator[None]:
    yield
    deadline = time.monotonic() + 5
    while (left := live_children()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"test left processes running: {[(p.pid, p.name()) for p in left]}"
    assert not process_tree.tracked(), "a PTY child was never reaped"


@pytest.fixture
async def manager() -> AsyncIterator[TerminalManager]:
    terminals = TerminalManager()
    try:
        yield terminals
    finally:
        await terminals.close_all()
