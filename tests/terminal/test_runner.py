"""One-shot runs in real shells and PTYs: exit codes, signals, timeout, cancel, cwd, env,
UTF-8 handling, stdin and concurrency."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.terminal.runner import (
    MAX_TIMEOUT_SECONDS,
    Runner,
    RunningCommand,
    RunRequest,
    effective_timeout,
    resolve_cwd,
    run_command,
)

from .conftest import assert_gone


async def run(command: str, **kwargs: object) -> object:
    return await run_command(RunRequest(command, **kwargs))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "code"), [("true", 0), ("exit 1", 1), ("no-such-command-xyz", 127)]
)
async def test_exit_code_is_reported(command: str, code: int) -> None:
    result = await run_command(RunRequest(command))
    assert result.exit_code == code
    assert result.signal is None
    assert not result.timed_out and not result.cancelled


async def test_command_not_found_explains_itself() -> None:
    result = await run_command(RunRequest("no-such-command-xyz"))
    assert "not found" in result.output


async def test_signal_death_is_reported_with_its_name() -> None:
    result = await run_command(RunRequest("kill -TERM $$"))
    assert result.signal == "SIGTERM"
    assert result.exit_code == 128 + 15


async def test_output_is_captured_and_the_terminal_is_a_tty() -> None:
    result = await run_command(RunRequest("[ -t 0 ] && [ -t 1 ] && echo is-a-tty"))
    assert result.output.strip() == "is-a-tty"
    assert result.exit_code == 0


async def test_timeout_kills_a_tree_that_ignores_sigterm_and_leaves_no_orphan(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    script = f"""
        trap '' TERM
        echo $$ >> {pids}
        sleep 300 & echo $! >> {pids}
        setsid sh -c 'trap "" TERM; echo $$ >> {pids}; sleep 301' &
        sh -c 'setsid sleep 302 & echo $! >> {pids}'
        echo ready
        wait
    """
    result = await run_command(RunRequest(script, timeout_seconds=1.5), kill_grace_seconds=0.5)
    assert result.timed_out
    assert result.exit_code is None
    assert result.signal == "SIGKILL"  # TERM was ignored
    assert "ready" in result.output
    recorded = [int(line) for line in pids.read_text().split()]
    assert len(recorded) == 4
    assert_gone(recorded)


async def test_cancel_mid_run_stops_the_command() -> None:
    seen: list[str] = []
    started = asyncio.Event()

    def on_output(text: str) -> None:
        seen.append(text)
        if "started" in "".join(seen):
            started.set()

    cancel = asyncio.Event()
    task = asyncio.create_task(
        run_command(
            RunRequest("echo started; sleep 300; echo never"), on_output=on_output, cancel=cancel
        )
    )
    await asyncio.wait_for(started.wait(), 10)
    cancel.set()
    result = await asyncio.wait_for(task, 10)
    assert result.cancelled and not result.timed_out
    assert result.exit_code is None
    assert "started" in result.output and "never" not in result.output


async def test_runner_cancels_a_run_by_id() -> None:
    runner = Runner()
    task = asyncio.create_task(runner.run(RunRequest("sleep 300"), run_id="block-1"))
    while not runner.is_running("block-1"):
        await asyncio.sleep(0.01)
    assert runner.cancel("block-1")
    result = await asyncio.wait_for(task, 10)
    assert result.cancelled
    assert not runner.cancel("block-1")


async def test_cancelling_the_awaiting_task_kills_the_command(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    task = asyncio.create_task(run_command(RunRequest(f"echo $$ > {pidfile}; sleep 300")))
    while not pidfile.exists() or not pidfile.read_text().strip():
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_gone([int(pidfile.read_text())])


async def test_background_job_does_not_keep_the_run_alive(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    result = await run_command(RunRequest(f"sleep 300 & echo $! > {pidfile}; echo done"))
    assert result.exit_code == 0 and not result.timed_out
    assert "done" in result.output
    assert_gone([int(pidfile.read_text())])


def test_missing_cwd_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(AInternError, match="does not exist"):
        resolve_cwd(str(tmp_path / "nope"))


def test_escape_from_allowed_directories_via_dotdot_is_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    with pytest.raises(AInternError, match="outside allowedDirectories"):
        resolve_cwd(str(allowed / ".."), [str(allowed)])


def test_escape_from_allowed_directories_via_symlink_is_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "link").symlink_to(outside)
    with pytest.raises(AInternError, match="outside allowedDirectories"):
        resolve_cwd(str(allowed / "link"), [str(allowed)])


def test_sibling_with_a_common_prefix_is_not_inside(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app-evil").mkdir()
    with pytest.raises(AInternError, match="outside"):
        resolve_cwd(str(tmp_path / "app-evil"), [str(tmp_path / "app")])


async def test_run_uses_the_validated_cwd_inside_allowed_directories(tmp_path: Path) -> None:
    inner = tmp_path / "allowed" / "sub"
    inner.mkdir(parents=True)
    result = await run_command(
        RunRequest("pwd -P", cwd=str(inner), allowed_directories=[str(tmp_path / "allowed")])
    )
    assert result.output.strip() == os.path.realpath(inner)
    assert result.cwd == os.path.realpath(inner)


async def test_run_refuses_a_cwd_outside_allowed_directories(tmp_path: Path) -> None:
    (tmp_path / "allowed").mkdir()
    with pytest.raises(AInternError, match="outside allowedDirectories"):
        await run_command(
            RunRequest("true", cwd=str(tmp_path), allowed_directories=[str(tmp_path / "allowed")])
        )


async def test_env_overlay_reaches_the_command() -> None:
    result = await run_command(
        RunRequest(
            'printf "%s|%s" "$AINTERN_TEST_VALUE" "$HOME"', env={"AINTERN_TEST_VALUE": "a b"}
        )
    )
    assert result.output.strip() == f"a b|{os.environ['HOME']}"


async def test_utf8_character_split_across_reads_is_decoded_whole() -> None:
    streamed: list[str] = []
    result = await run_command(
        RunRequest(r"printf 'caf\303'; sleep 0.3; printf '\251 ok\n'"), on_output=streamed.append
    )
    assert result.output.strip() == "café ok"
    assert "café ok" in "".join(streamed)
    assert "\ufffd" not in "".join(streamed)


async def test_invalid_utf8_is_replaced_not_fatal() -> None:
    streamed: list[str] = []
    result = await run_command(RunRequest(r"printf 'a\377b\n'"), on_output=streamed.append)
    assert result.exit_code == 0
    assert "a\ufffdb" in result.output
    assert "a\ufffdb" in "".join(streamed)


async def test_a_command_reading_stdin_can_be_answered() -> None:
    prompt_seen = asyncio.Event()
    running: RunningCommand | None = None

    def on_output(text: str) -> None:
        if "name?" in text:
            prompt_seen.set()

    running = RunningCommand(
        RunRequest('printf "name? "; read -r name; echo "hello $name"'), on_output=on_output
    )
    running.start()
    await asyncio.wait_for(prompt_seen.wait(), 10)
    running.write("bob\r")
    result = await asyncio.wait_for(running.wait(), 10)
    assert result.exit_code == 0
    assert "hello bob" in result.output


async def test_a_command_waiting_for_input_times_out() -> None:
    result = await run_command(
        RunRequest("read -r answer", timeout_seconds=1), kill_grace_seconds=0.5
    )
    assert result.timed_out and result.exit_code is None


async def test_fifty_concurrent_runs_are_all_correct() -> None:
    requests = [RunRequest(f"echo run-{i}; exit {i % 7}") for i in range(50)]
    results = await asyncio.gather(*(run_command(r) for r in requests))
    for i, result in enumerate(results):
        assert result.output.strip() == f"run-{i}"
        assert result.exit_code == i % 7


@pytest.mark.parametrize("bad", [0, 0.5, -3, float("nan"), "soon"])
def test_timeout_below_one_second_is_an_error(bad: object) -> None:
    with pytest.raises(AInternError, match="timeout"):
        effective_timeout(bad)  # type: ignore[arg-type]


def test_timeout_above_the_maximum_is_clamped() -> None:
    assert effective_timeout(9999) == MAX_TIMEOUT_SECONDS
    assert effective_timeout(1) == 1


async def test_missing_shell_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(AInternError, match="not found on PATH"):
        await run_command(RunRequest("true", env={"PATH": "/nonexistent"}))
    with pytest.raises(AInternError, match="unknown shell"):
        await run_command(RunRequest("true", shell="tcsh-ish"))


async def test_sh_runs_the_command_too() -> None:
    result = await run_command(RunRequest("echo $((6 * 7))", shell="sh"))
    assert result.output.strip() == "42"


async def test_output_is_truncated_to_the_budget() -> None:
    result = await run_command(RunRequest("seq 1 100000", max_output_characters=1000))
    assert result.was_truncated
    assert result.original_length > 100_000
    assert len(result.output) < 2000


async def test_result_json_uses_camel_case() -> None:
    result = await run_command(RunRequest("echo hi"))
    data = result.to_json()
    for key in ("exitCode", "output", "wasTruncated", "originalLength", "durationMs"):
        assert key in data
    assert {"timedOut", "cancelled", "cwd", "signal"} <= data.keys()
    assert data["exitCode"] == 0


async def test_runner_kills_the_command_when_its_caller_is_cancelled(tmp_path: Path) -> None:
    runner = Runner()
    pidfile = tmp_path / "pid"
    task = asyncio.create_task(
        runner.run(RunRequest(f"echo $$ > {pidfile}; sleep 300"), run_id="block-2")
    )
    while not pidfile.exists() or not pidfile.read_text().strip():
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_gone([int(pidfile.read_text())])
    assert runner.running_ids() == []


async def test_colours_stream_raw_but_the_result_is_clean() -> None:
    streamed: list[str] = []
    result = await run_command(
        RunRequest(r"printf '\033[31mred\033[0m\n'"), on_output=streamed.append
    )
    assert result.output.strip() == "red"
    assert "\x1b[31m" in "".join(streamed)


async def test_a_progress_bar_collapses_to_its_last_state() -> None:
    result = await run_command(
        RunRequest(r"for i in 1 2 3; do printf '\r%s%%' $((i * 33)); sleep 0.05; done; echo")
    )
    assert result.output.strip() == "99%"


async def test_output_ending_in_a_carriage_return_is_kept() -> None:
    result = await run_command(RunRequest(r"printf 'abc\rxy\r'"))
    assert result.output.strip() == "xyc"
