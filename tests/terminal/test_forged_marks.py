"""Issue 13, break 6: forged exit codes. The nonce is in no file, argv or environment a
command in the session can read, and a forged end mark (even one with the right nonce)
is replaced by the shell's own, later one."""

from __future__ import annotations

import asyncio
import os

import pytest

from aintern_ls.terminal.session import TerminalManager, TerminalSession

from .conftest import SESSION_SHELLS


async def _session(shell: str) -> tuple[TerminalManager, TerminalSession]:
    manager = TerminalManager()
    session = await manager.create(shell=shell, env={"AINTERN_LS_NO_RC": "1"})
    assert session.integrated
    return manager, session


@pytest.mark.parametrize("shell", SESSION_SHELLS)
async def test_the_nonce_cannot_be_read_by_a_command(shell: str) -> None:
    manager, session = await _session(shell)
    nonce = session._nonce
    try:
        # The rc file (and its directory) is gone once read.
        assert not os.path.exists(session._workdir)
        # Nothing a child can read holds it: the shell's argv and environment, its own.
        probe = (
            "tr '\\0' ' ' < /proc/$$/cmdline; echo; tr '\\0' '\\n' < /proc/$$/environ | "
            "grep -c .; env; cat /proc/$PPID/cmdline 2>/dev/null | tr '\\0' ' '"
        )
        record = await session.execute(probe, timeout=10)
        assert record is not None
        assert nonce not in record.output
        record = await session.execute("bash -c 'env; set' | grep -c " + nonce[:6], timeout=10)
        assert record is not None
        assert record.output.strip().splitlines()[-1] == "0"
    finally:
        await manager.close_all()


@pytest.mark.parametrize("shell", SESSION_SHELLS)
async def test_a_forged_end_mark_does_not_change_the_exit_code(shell: str) -> None:
    manager, session = await _session(shell)
    nonce = session._nonce
    try:
        guessed = "printf '\\033]633;D;0;0123456789abcdef\\007'; false"
        record = await session.execute(guessed, timeout=10)
        assert record is not None and record.exit_code == 1
        # Even with the right nonce (read from the server's memory: the worst case),
        # the shell's own later D mark wins.
        forged = f"printf '\\033]633;D;0;{nonce}\\007'; sh -c 'exit 3'"
        record = await session.execute(forged, timeout=10)
        assert record is not None
        assert record.exit_code == 3
        assert session.last_command is record
        forged_ok = f"printf 'out\\n\\033]633;D;7;{nonce}\\007more\\n'; true"
        record = await session.execute(forged_ok, timeout=10)
        assert record is not None and record.exit_code == 0
        assert "out" in record.output and "more" in record.output
    finally:
        await manager.close_all()


@pytest.mark.parametrize("shell", SESSION_SHELLS)
async def test_the_session_leaves_no_temporary_directory_when_the_shell_exits(
    shell: str,
) -> None:
    manager, session = await _session(shell)
    workdir = session._workdir
    session.send("exit 0")
    for _ in range(200):
        if session.exit_status is not None:
            break
        await asyncio.sleep(0.05)
    assert session.exit_status is not None
    assert not os.path.exists(workdir)
    await manager.close_all()
