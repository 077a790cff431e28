"""Issue 13, break 5: daemons must not outlive a one-shot run or a closed terminal, also
when they leave the job with `setsid` and drop the marker variable with `env -i`."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest

from aintern_ls.terminal import process_tree
from aintern_ls.terminal.runner import RunRequest, run_command
from aintern_ls.terminal.session import TerminalManager

from .conftest import assert_gone
from .wire import WireServer


def _sleepers(tag: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info["cmdline"] or []
        if cmdline[:1] == ["sleep"] and tag in cmdline:
            found.append(proc)
    return [p for p in found if not process_tree.is_gone(p)]


def _wait_for(predicate, timeout: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


ESCAPES = {
    "setsid": "setsid sleep {n} &",
    "setsid-env-i": "setsid env -i sleep {n} &",
    "nohup-subshell": "(setsid env -i sleep {n} &) ; (nohup env -i sleep {n} >/dev/null 2>&1 &)",
}


@pytest.mark.parametrize("how", list(ESCAPES))
async def test_no_escapee_survives_a_run_that_exits_normally(how: str) -> None:
    n = str(1000 + list(ESCAPES).index(how))
    command = ESCAPES[how].format(n=n) + "\necho started"
    result = await run_command(RunRequest(command, timeout_seconds=30))
    assert result.exit_code == 0
    assert "started" in result.output
    assert _wait_for(lambda: not _sleepers(n)), [p.pid for p in _sleepers(n)]


async def test_no_escapee_survives_a_timed_out_run() -> None:
    command = "setsid env -i sleep 1010 & setsid sleep 1010 & sleep 100"
    result = await run_command(RunRequest(command, timeout_seconds=1), kill_grace_seconds=0.5)
    assert result.timed_out
    assert _wait_for(lambda: not _sleepers("1010")), [p.pid for p in _sleepers("1010")]


async def test_no_escapee_survives_a_terminal_close() -> None:
    manager = TerminalManager()
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    record = await session.execute(
        "setsid sleep 1020 & setsid env -i sleep 1020 & (setsid env -i sleep 1020 &); echo ok",
        timeout=10,
    )
    assert record is not None and record.output.endswith("ok")
    assert _wait_for(lambda: len(_sleepers("1020")) == 3)
    pids = [p.pid for p in _sleepers("1020")]
    await manager.close(session.terminal_id)
    assert_gone(pids)


async def test_a_run_does_not_kill_another_terminals_daemon() -> None:
    """Attribution is per run: a run's cleanup leaves a live terminal's escapee alone."""
    manager = TerminalManager()
    session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
    try:
        await session.execute("(setsid env -i sleep 1030 &); echo ok", timeout=10)
        assert _wait_for(lambda: len(_sleepers("1030")) == 1)
        result = await run_command(RunRequest("setsid env -i sleep 1031 &", timeout_seconds=30))
        assert result.exit_code == 0
        assert _wait_for(lambda: not _sleepers("1031"))
        assert len(_sleepers("1030")) == 1
    finally:
        await manager.close_all()
    assert _wait_for(lambda: not _sleepers("1030"))


def test_no_escapee_survives_a_run_or_terminal_close_through_the_server(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    text = "```bash\nsetsid env -i sleep 1040 & setsid sleep 1040 & echo spawned\n```\n"
    doc.write_text(text)
    server = WireServer(tmp_path)
    try:
        server.initialize(tmp_path, {"historyPath": str(tmp_path / "h.db")})
        uri = doc.as_uri()
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        lenses = server.request("textDocument/codeLens", {"textDocument": {"uri": uri}})["result"]
        block_id = lenses[0]["command"]["arguments"][0]["blockId"]
        answer = server.request(
            "workspace/executeCommand",
            {"command": "aintern.run", "arguments": [{"uri": uri, "blockId": block_id}]},
        )
        assert answer["result"]["exitCode"] == 0, answer
        assert _wait_for(lambda: not _sleepers("1040")), [p.pid for p in _sleepers("1040")]

        created = server.request(
            "workspace/executeCommand",
            {"command": "aintern.terminal.create", "arguments": [{"shell": "bash"}]},
        )
        terminal_id = created["result"]["terminalId"]
        server.request(
            "workspace/executeCommand",
            {
                "command": "aintern.terminal.send",
                "arguments": [
                    {
                        "terminalId": terminal_id,
                        "text": "(setsid env -i sleep 1041 &); setsid sleep 1041 &",
                    }
                ],
            },
        )
        assert _wait_for(lambda: len(_sleepers("1041")) == 2)
        pids = [p.pid for p in _sleepers("1041")]
        server.request(
            "workspace/executeCommand",
            {"command": "aintern.terminal.close", "arguments": [{"terminalId": terminal_id}]},
        )
        assert_gone(pids)
        # Nothing lingers under the server either (killed orphans are reaped).
        assert _wait_for(lambda: not psutil.Process(server.proc.pid).children())
    finally:
        assert server.close() == 0
