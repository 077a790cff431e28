"""Interactive terminal sessions in real bash and zsh with shell integration."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.terminal.session import TerminalManager, TerminalSession

from .conftest import SESSION_SHELLS, assert_gone

pytestmark = pytest.mark.parametrize("shell", SESSION_SHELLS)


async def open_session(manager: TerminalManager, shell: str, **kwargs: object) -> TerminalSession:
    session = await manager.create(shell=shell, **kwargs)  # type: ignore[arg-type]
    assert session.info()["shellIntegration"], "the first prompt carried no integration marks"
    return session


async def test_send_echo_hello_reads_back_hello(manager: TerminalManager, shell: str) -> None:
    session = await open_session(manager, shell)
    before = session.finished_count
    assert manager.send(session.terminal_id, "echo hello")
    record = await session.wait_for_command(before, timeout=10)
    assert record is not None
    assert "hello" in manager.read_output(session.terminal_id, lines=10)


async def test_last_command_range_exit_code_and_cwd_come_from_marks(
    manager: TerminalManager, shell: str, tmp_path: Path
) -> None:
    session = await open_session(manager, shell)
    record = await session.execute("printf 'first\\nsecond\\n'", timeout=10)
    assert record is not None
    assert record.output == "first\nsecond"
    assert record.exit_code == 0
    assert record.command_line == "printf 'first\\nsecond\\n'"

    record = await session.execute(f"cd {tmp_path} && (exit 3)", timeout=10)
    assert record is not None
    assert record.exit_code == 3
    assert record.output == ""
    assert record.cwd_after == os.path.realpath(tmp_path)
    assert session.cwd == os.path.realpath(tmp_path)
    assert session.last_command is record


async def test_printed_marks_without_the_nonce_are_ignored(
    manager: TerminalManager, shell: str
) -> None:
    session = await open_session(manager, shell)
    record = await session.execute(
        r"printf '\033]633;D;42;forged\007\033]633;C\007'; echo done", timeout=10
    )
    assert record is not None
    assert record.exit_code == 0
    assert record.output == "done"


async def test_more_than_ten_thousand_lines_keeps_only_the_last_ten_thousand(
    manager: TerminalManager, shell: str
) -> None:
    session = await open_session(manager, shell)
    record = await session.execute("seq 1 12000", timeout=30)
    assert record is not None and record.exit_code == 0
    assert len(session.ring) == 10_000
    lines = manager.read_output(session.terminal_id, lines=20_000)
    assert len(lines) <= 10_000
    assert "12000" in lines
    assert "1000" not in lines


async def test_interrupt_stops_the_foreground_job_not_the_shell(
    manager: TerminalManager, shell: str
) -> None:
    session = await open_session(manager, shell)
    before = session.finished_count
    manager.send(session.terminal_id, "sleep 300")
    for _ in range(200):  # until the job, not the shell, owns the terminal
        if session.job_running:
            break
        await asyncio.sleep(0.025)
    assert session.job_running
    manager.interrupt(session.terminal_id)
    record = await session.wait_for_command(before, timeout=10)
    assert record is not None
    assert record.exit_code == 130
    assert session.alive
    again = await session.execute("echo still-here", timeout=10)
    assert again is not None and again.output == "still-here"


async def test_closing_leaves_no_process(manager: TerminalManager, shell: str) -> None:
    session = await open_session(manager, shell)
    record = await session.execute(
        "sleep 300 & echo $!; setsid -f sh -c 'echo $$; exec sleep 301'; sleep 0.2; echo $$",
        timeout=10,
    )
    assert record is not None
    # Job-control notices ("[1] 1234") repeat a pid; keep each number once.
    pids = sorted({int(word) for word in record.output.split() if word.isdigit()})
    assert len(pids) == 3 and session.pid in pids
    assert await manager.close(session.terminal_id)
    assert_gone(pids)
    assert manager.list() == []


async def test_resize_reaches_the_shell(manager: TerminalManager, shell: str) -> None:
    session = await open_session(manager, shell)
    manager.resize(session.terminal_id, 100, 40)
    record = await session.execute("stty size", timeout=10)
    assert record is not None and record.output == "40 100"


async def test_send_without_enter_only_types(manager: TerminalManager, shell: str) -> None:
    session = await open_session(manager, shell)
    before = session.finished_count
    manager.send(session.terminal_id, "echo typed", execute=False)
    await asyncio.sleep(0.3)
    assert session.finished_count == before
    manager.input(session.terminal_id, "\r")
    record = await session.wait_for_command(before, timeout=10)
    assert record is not None and record.output == "typed"


async def test_hooks_report_output_and_exit(shell: str) -> None:
    output: list[tuple[str, str]] = []
    exits: list[tuple[str, int | None]] = []
    manager = TerminalManager(
        on_output=lambda tid, text: output.append((tid, text)),
        on_exit=lambda tid, code: exits.append((tid, code)),
    )
    try:
        session = await open_session(manager, shell)
        await session.execute("echo from-hook", timeout=10)
        assert "from-hook" in "".join(text for _, text in output)
        assert "\x1b]633" not in "".join(text for _, text in output)
        manager.send(session.terminal_id, "exit 5")
        for _ in range(200):
            if exits:
                break
            await asyncio.sleep(0.05)
        assert exits == [(session.terminal_id, 5)]
        assert not session.alive
        with pytest.raises(AInternError, match="has exited"):
            manager.send(session.terminal_id, "echo too late")
    finally:
        await manager.close_all()


async def test_list_and_unknown_ids(manager: TerminalManager, shell: str, tmp_path: Path) -> None:
    session = await open_session(manager, shell, title="build", cwd=str(tmp_path))
    [info] = manager.list()
    assert info["terminalId"] == session.terminal_id
    assert info["title"] == "build"
    assert info["cwd"] == os.path.realpath(tmp_path)
    assert info["alive"]
    with pytest.raises(AInternError, match="no terminal"):
        manager.read_output("terminal-999")
    assert not await manager.close("terminal-999")


async def test_capture_service_finds_the_last_command_in_the_buffer(
    manager: TerminalManager, shell: str, tmp_path: Path
) -> None:
    from aintern_ls.capture.service import CaptureService
    from aintern_ls.models import OutputCaptureMode

    session = await open_session(manager, shell, cwd=str(tmp_path))
    await session.execute(r"printf '\033]633;D;42;forged\007'; echo captured; (exit 4)", 10)
    capture = CaptureService().capture_buffer(session, OutputCaptureMode.LAST_COMMAND)
    assert capture.output.strip() == "captured"
    assert capture.exit_code == 4
    assert capture.working_directory == os.path.realpath(tmp_path)


STRICT_BASHRC = """set -u
PROMPT_COMMAND='echo -n;'
PS1='custom> '
"""
STRICT_ZSHRC = """setopt NO_UNSET
PS1='custom> '
precmd() { : }
"""


async def test_integration_survives_a_strict_user_rc_file(
    manager: TerminalManager, shell: str, tmp_path: Path
) -> None:
    (tmp_path / ".bashrc").write_text(STRICT_BASHRC)
    (tmp_path / ".zshrc").write_text(STRICT_ZSHRC)
    session = await open_session(manager, shell, env={"HOME": str(tmp_path)})
    record = await session.execute("echo from-rc; (exit 2)", timeout=10)
    assert record is not None
    assert record.output == "from-rc"
    assert record.exit_code == 2
    assert any("custom>" in line for line in manager.read_output(session.terminal_id, 5))
