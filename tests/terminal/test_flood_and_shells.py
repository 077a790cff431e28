"""Issue 13, item 8 (terminal parts): a flood is coalesced into few editor
notifications, `terminal.create {shell}` starts only real, known shells, and a session
leaves no temporary directory behind."""

from __future__ import annotations

import asyncio
import os
import stat
import time
from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.terminal.session import (
    OUTPUT_INTERVAL_SECONDS,
    OUTPUT_MAX_CHARS,
    TerminalManager,
    resolve_shell,
)

FLOOD_BYTES = 30_000_000


async def test_a_flood_becomes_few_notifications_with_every_byte() -> None:
    calls: list[str] = []
    manager = TerminalManager(on_output=lambda tid, text: calls.append(text))
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    try:
        calls.clear()
        started = time.monotonic()
        record = await session.execute(
            f"yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c {FLOOD_BYTES}; echo END",
            timeout=120,
        )
        assert record is not None and record.exit_code == 0
        # The tail follows within one interval.
        deadline = time.monotonic() + 5
        while not any("END" in text for text in calls[-3:]) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        elapsed = time.monotonic() - started
        received = sum(len(text) for text in calls)
        # Everything arrived (ONLCR turns each "\n" into "\r\n")...
        assert received >= FLOOD_BYTES
        assert any("END" in text for text in calls[-3:])
        print(f"{len(calls)} notifications for {received} characters in {elapsed:.2f} s")
        # ...in at most one notification per interval, or per OUTPUT_MAX_CHARS.
        bound = elapsed / OUTPUT_INTERVAL_SECONDS + received / OUTPUT_MAX_CHARS + 5
        assert len(calls) <= bound, (len(calls), elapsed)
        assert len(calls) < FLOOD_BYTES / 65536  # far fewer than one per read
        assert all(len(text) <= OUTPUT_MAX_CHARS for text in calls)
    finally:
        await manager.close_all()


async def test_interactive_output_is_still_delivered_promptly() -> None:
    calls: list[str] = []
    manager = TerminalManager(on_output=lambda tid, text: calls.append(text))
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    try:
        record = await session.execute("echo one-line", timeout=10)
        assert record is not None
        deadline = time.monotonic() + 2
        while "one-line\r\n" not in "".join(calls) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert "one-line\r\n" in "".join(calls)
    finally:
        await manager.close_all()


def test_resolve_shell_accepts_known_shells_on_path() -> None:
    name, path = resolve_shell("bash")
    assert name == "bash"
    assert os.path.isabs(path) and os.access(path, os.X_OK)
    assert resolve_shell(path) == ("bash", path)


@pytest.mark.parametrize("shell", ["python3", "bash; rm -rf /", "../bash", "bin/bash"])
def test_resolve_shell_refuses_what_is_not_a_known_shell(shell: str) -> None:
    with pytest.raises(AInternError):
        resolve_shell(shell)


def test_an_executable_merely_named_bash_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "bash"
    fake.write_text("#!/bin/sh\ntouch " + str(tmp_path / "MARKER") + "\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(AInternError, match="not a known shell"):
        resolve_shell(str(fake))


async def test_terminal_create_with_a_fake_bash_starts_nothing(tmp_path: Path) -> None:
    fake = tmp_path / "bash"
    marker = tmp_path / "MARKER"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\nsleep 5\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    manager = TerminalManager()
    with pytest.raises(AInternError, match="not a known shell"):
        await manager.create(shell=str(fake))
    assert not marker.exists()
    assert len(manager) == 0


async def test_a_closed_session_leaves_no_temporary_directory() -> None:
    manager = TerminalManager()
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    workdir = session._workdir
    await manager.close(session.terminal_id)
    assert not os.path.exists(workdir)


async def test_a_lone_surrogate_sent_to_a_terminal_is_a_clear_error() -> None:
    manager = TerminalManager()
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    try:
        with pytest.raises(AInternError, match=r"U\+D800"):
            session.send("echo \ud800")
        with pytest.raises(AInternError, match=r"U\+DFFF"):
            session.input("\udfff")
        record = await session.execute("echo still-fine", timeout=10)
        assert record is not None and record.output == "still-fine"
    finally:
        await manager.close_all()
