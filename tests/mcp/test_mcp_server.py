"""`aintern-ls mcp` driven over stdio by the MCP SDK's own client.

Each test starts the real server (`python -m aintern_ls mcp`) in a fresh workspace with
its own config and state directories, so the history database and settings files are
the test's own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import psutil
import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(120)

Elicit = Callable[[Any, Any], Awaitable[Any]]


def _env(tmp: Path) -> dict[str, str]:
    return {
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
        "HOME": str(tmp / "home"),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }


def _history(tmp: Path) -> Path:
    return tmp / "state" / "aintern-ls" / "history.sqlite3"


@asynccontextmanager
async def server(
    tmp: Path,
    *,
    elicit: Elicit | None = None,
    roots: list[Path] | None = None,
    user_settings: dict[str, Any] | None = None,
) -> AsyncIterator[Client]:
    """A connected SDK client of a fresh `aintern-ls mcp` in `tmp/work`."""
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    (tmp / "home").mkdir(exist_ok=True)
    if user_settings is not None:
        config = tmp / "config" / "aintern-ls"
        config.mkdir(parents=True, exist_ok=True)
        (config / "settings.json").write_text(json.dumps(user_settings))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "aintern_ls", "mcp"], env=_env(tmp), cwd=str(work)
    )
    kwargs: dict[str, Any] = {}
    if elicit is not None:
        kwargs["elicitation_callback"] = elicit
    if roots is not None:

        async def list_roots(ctx: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=r.as_uri()) for r in roots])

        kwargs["list_roots_callback"] = list_roots
    async with Client(params, read_timeout_seconds=90, **kwargs) as client:
        yield client


def _text(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def _ok(client: Client, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    result = await client.call_tool(tool, args or {})
    assert not result.is_error, _text(result)
    assert isinstance(result.structured_content, dict)
    assert _text(result)  # every result has a text rendering too
    return result.structured_content


async def _error(client: Client, tool: str, args: dict[str, Any] | None = None) -> str:
    result = await client.call_tool(tool, args or {})
    assert result.is_error, result
    return _text(result)


def _answer(action: str, run: bool | None = True) -> tuple[Elicit, list[str]]:
    asked: list[str] = []

    async def elicit(ctx: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        content = None if run is None else {"run": run}
        return types.ElicitResult(action=action, content=content if action == "accept" else None)  # type: ignore[arg-type]

    return elicit, asked


# -- listing ------------------------------------------------------------------------------


async def test_tools_listed_with_schemas_and_honest_annotations(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        assert client.protocol_version == "2025-11-25"
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {
        "check_command",
        "list_blocks",
        "run_command",
        "read_capture",
        "terminal_create",
        "terminal_send",
        "terminal_read",
        "terminal_last_command",
        "terminal_list",
        "terminal_close",
        "history",
    }
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False
        assert tool.description and tool.annotations is not None
    assert tools["run_command"].input_schema["properties"]["timeoutSeconds"]["maximum"] == 600
    assert tools["check_command"].input_schema["required"] == ["command"]
    for name in ("run_command", "terminal_send"):
        a = tools[name].annotations
        assert a is not None and a.destructive_hint is True and a.read_only_hint is False
    for name in ("check_command", "list_blocks", "read_capture", "history", "terminal_read"):
        a = tools[name].annotations
        assert a is not None and a.read_only_hint is True


# -- check and blocks ---------------------------------------------------------------------


async def test_check_command_reports_levels_rules_and_parts(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        safe = await _ok(client, "check_command", {"command": "ls -la"})
        risky = await _ok(client, "check_command", {"command": "ls && sudo rm -rf /"})
    assert safe["level"] == "safe" and safe["findings"] == []
    assert risky["level"] == "blocked"
    assert risky["runCommand"].startswith("refused")
    rules = {f["rule"] for f in risky["findings"]}
    assert "sudo" in rules and "rm-root" in rules
    parts = {p["text"]: p for p in risky["commands"]}
    assert parts["ls"]["level"] == "safe" and parts["ls"]["rules"] == []
    assert parts["sudo rm -rf /"]["level"] == "blocked"
    assert {"sudo", "rm-root"} <= set(parts["sudo rm -rf /"]["rules"])


RUNBOOK = """# Deploy

Say hello from the sub directory.

```sh {name=hello cwd=sub}
pwd; echo hello from block
```

```bash
rm -rf build
```
"""


async def test_list_blocks_and_run_a_block_by_name(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        work = tmp_path / "work"
        (work / "sub").mkdir()
        (work / "RUNBOOK.md").write_text(RUNBOOK)
        listing = await _ok(client, "list_blocks", {"path": "RUNBOOK.md"})
        blocks = listing["blocks"]
        assert [b["name"] for b in blocks] == ["hello", None]
        assert [b["level"] for b in blocks] == ["safe", "dangerous"]
        run = await _ok(client, "run_command", {"path": "RUNBOOK.md", "name": "hello"})
        assert run["exitCode"] == 0
        assert "hello from block" in run["output"]
        assert run["cwd"] == str((work / "sub").resolve())
        by_id = await _ok(client, "run_command", {"path": "RUNBOOK.md", "blockId": blocks[0]["id"]})
        assert "hello from block" in by_id["output"]
        history = await _ok(client, "history", {"path": "RUNBOOK.md"})
        assert len(history["runs"]) == 2
        assert {r["blockId"] for r in history["runs"]} == {blocks[0]["id"]}


# -- running ------------------------------------------------------------------------------


async def test_safe_run_returns_output_and_is_recorded(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        result = await _ok(
            client,
            "run_command",
            {
                "command": "printf '\\033[31mred\\033[0m\\n'; echo \"$GREETING\"; exit 3",
                "env": {"GREETING": "hi there"},
            },
        )
    assert result["exitCode"] == 3
    assert result["output"].split("\n")[:2] == ["red", "hi there"]  # ANSI rendered away
    assert result["timedOut"] is False and result["cancelled"] is False
    assert result["captureId"]
    with sqlite3.connect(_history(tmp_path)) as db:
        rows = db.execute("SELECT command, exit_code, status FROM command_executions").fetchall()
    assert rows == [(rows[0][0], 3, "failed")]


async def test_five_megabyte_log_is_cut_with_a_marker_and_paged_by_read_capture(
    tmp_path: Path,
) -> None:
    command = "seq 1 1000000 | sed 's/^/log line /' | head -c 5000000; echo; echo END"
    async with server(tmp_path) as client:
        result = await client.call_tool("run_command", {"command": command})
        run = result.structured_content
        assert isinstance(run, dict)
        assert run["exitCode"] == 0 and run["wasTruncated"] is True
        assert run["originalLength"] > 4_900_000
        # cut to the 100,000 character budget (plus the marker lines)
        assert len(run["output"]) < 100_600
        assert "…[truncated" in run["output"]  # the omitted size, where it was cut
        assert "read_capture" in _text(result)
        assert run["omittedCharacters"] > 4_800_000
        assert run["output"].startswith("log line 1\nlog line 2\n")
        assert run["output"].rstrip().endswith("END")
        pages: list[str] = []
        offset: int | None = 0
        while offset is not None:
            page = await _ok(
                client, "read_capture", {"captureId": run["captureId"], "offset": offset}
            )
            assert page["length"] <= 100_000
            pages.append(page["text"])
            offset = page["nextOffset"]
        full = "".join(pages)
    assert len(full) == page["totalLength"] == run["originalLength"]
    lines = full.rstrip("\n").split("\n")
    assert lines[0] == "log line 1" and lines[-1] == "END"
    assert "log line 200000" in lines  # from the middle the returned capture left out


async def test_timeout_keeps_partial_output_and_reports_progress(tmp_path: Path) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with server(tmp_path) as client:
        result = await client.call_tool(
            "run_command",
            {"command": "echo started; sleep 60", "timeoutSeconds": 2.5},
            progress_callback=on_progress,
        )
    data = result.structured_content
    assert not result.is_error and isinstance(data, dict)
    assert data["timedOut"] is True and data["exitCode"] is None
    assert "started" in data["output"]
    assert "timed out" in _text(result)
    assert seen, "no progress notifications"
    assert seen[0][1] == 2.5 and seen[0][2] == "started"
    assert [p for p, _, _ in seen] == sorted(p for p, _, _ in seen)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def test_cancel_kills_the_process_tree_and_the_server_keeps_serving(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "work" / "pids"
    command = f"echo $$ > {pids}.tmp; sleep 300 & echo $! >> {pids}.tmp; mv {pids}.tmp {pids}; wait"
    async with server(tmp_path) as client:
        async with anyio.create_task_group() as tg:

            async def call() -> None:
                await client.call_tool("run_command", {"command": command})

            tg.start_soon(call)
            with anyio.fail_after(30):
                while not pids.exists():
                    await anyio.sleep(0.05)
            numbers = [int(n) for n in pids.read_text().split()]
            assert len(numbers) == 2 and all(_alive(n) for n in numbers)
            tg.cancel_scope.cancel()
        deadline = time.monotonic() + 15
        while any(_alive(n) for n in numbers) and time.monotonic() < deadline:
            await anyio.sleep(0.1)
        assert not any(_alive(n) for n in numbers), "the cancelled run left processes behind"
        # the connection survived the cancellation
        after = await _ok(client, "run_command", {"command": "echo still here"})
        assert "still here" in after["output"]
        history = await _ok(client, "history", {})
    assert "cancelled" in [r["status"] for r in history["runs"]]


# -- confirmation -------------------------------------------------------------------------


async def test_blocked_is_refused_without_asking(tmp_path: Path) -> None:
    elicit, asked = _answer("accept")
    async with server(tmp_path, elicit=elicit) as client:
        message = await _error(client, "run_command", {"command": "rm -rf / --no-preserve-root"})
        again = await _error(client, "run_command", {"command": "timeout 5 sh -c 'rm -rf ~'"})
        history = await _ok(client, "history", {})
    assert "blocked" in message and "rm-root" in message
    assert "blocked" in again
    assert asked == []
    assert [d["decision"] for d in history["decisions"]] == ["blocked", "blocked"]
    assert history["runs"] == []


async def test_dangerous_is_refused_when_the_client_cannot_ask(tmp_path: Path) -> None:
    victim = tmp_path / "work" / "victim.txt"
    async with server(tmp_path) as client:
        victim.write_text("keep me")
        message = await _error(client, "run_command", {"command": f"rm {victim}"})
    assert victim.exists()
    assert "dangerous" in message and "cannot ask" in message
    assert "aintern-ls run" in message  # how a person can run it


async def test_dangerous_runs_after_an_accepted_elicitation(tmp_path: Path) -> None:
    victim = tmp_path / "work" / "victim.txt"
    elicit, asked = _answer("accept", run=True)
    async with server(tmp_path, elicit=elicit) as client:
        victim.write_text("delete me")
        result = await _ok(client, "run_command", {"command": f"rm {victim}"})
        history = await _ok(client, "history", {})
    assert result["exitCode"] == 0 and not victim.exists()
    assert len(asked) == 1 and "dangerous" in asked[0] and "rm" in asked[0]
    assert [d["decision"] for d in history["decisions"]] == ["confirmed", "asked"]


@pytest.mark.parametrize(
    ("action", "run"), [("decline", None), ("cancel", None), ("accept", False)]
)
async def test_dangerous_is_not_run_after_a_rejected_elicitation(
    tmp_path: Path, action: str, run: bool | None
) -> None:
    victim = tmp_path / "work" / "victim.txt"
    elicit, asked = _answer(action, run=run)
    async with server(tmp_path, elicit=elicit) as client:
        victim.write_text("keep me")
        message = await _error(client, "run_command", {"command": f"rm -f {victim}"})
        history = await _ok(client, "history", {})
    assert victim.exists() and len(asked) == 1
    assert "declined" in message
    assert history["decisions"][0]["decision"] == "declined"


async def test_client_approval_setting_delegates_confirmation(tmp_path: Path) -> None:
    victim = tmp_path / "work" / "victim.txt"
    settings = {"mcp": {"confirmation": "client"}}
    async with server(tmp_path, user_settings=settings) as client:
        victim.write_text("delete me")
        await _ok(client, "run_command", {"command": f"rm {victim}"})
        blocked = await _error(client, "run_command", {"command": "rm -rf /"})
    assert not victim.exists()
    assert "blocked" in blocked  # delegation never covers blocked commands


async def test_workspace_rules_apply_and_cannot_delegate_confirmation(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / ".aintern.json").write_text(
        json.dumps(
            {
                "safety": {"extraBlocked": ["^terraform destroy"]},
                "mcp": {"confirmation": "client"},  # ignored: only the user may weaken it
            }
        )
    )
    async with server(tmp_path) as client:
        check = await _ok(client, "check_command", {"command": "terraform destroy -auto-approve"})
        refused = await _error(client, "run_command", {"command": "rm -f x"})
    assert check["level"] == "blocked"
    assert "cannot ask" in refused


# -- secrets ------------------------------------------------------------------------------

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


async def test_secrets_are_redacted_in_output_command_and_history(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        result = await _ok(
            client,
            "run_command",
            {"command": f"echo token={TOKEN}; echo password=hunter2secret"},
        )
        page = await _ok(client, "read_capture", {"captureId": result["captureId"]})
    assert TOKEN not in json.dumps(result) and TOKEN not in page["text"]
    assert "hunter2secret" not in result["output"]
    assert "[REDACTED:" in result["output"] and result["redactionCount"] >= 2
    assert "[REDACTED:" in result["command"]
    stored = _history(tmp_path).read_bytes()
    assert TOKEN.encode() not in stored and b"hunter2secret" not in stored


# -- terminals ----------------------------------------------------------------------------


async def test_terminal_tools_round_trip_with_exit_code(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        created = await _ok(client, "terminal_create", {"title": "agent", "shell": "bash"})
        tid = created["terminalId"]
        assert created["shellIntegration"] is True
        sent = await _ok(
            client,
            "terminal_send",
            {"terminalId": tid, "text": "echo hello terminal; (exit 4)", "waitSeconds": 20},
        )
        assert sent["finished"] is True and sent["exitCode"] == 4
        assert sent["output"] == "hello terminal"
        last = await _ok(client, "terminal_last_command", {"terminalId": tid})
        assert last["exitCode"] == 4 and last["output"] == "hello terminal"
        assert last["command"] == "echo hello terminal; (exit 4)"
        screen = await _ok(client, "terminal_read", {"terminalId": tid, "lines": 20})
        assert "hello terminal" in screen["output"]
        listed = await _ok(client, "terminal_list")
        assert [t["terminalId"] for t in listed["terminals"]] == [tid]
        assert listed["terminals"][0]["lastExitCode"] == 4
        blocked = await _error(client, "terminal_send", {"terminalId": tid, "text": "rm -rf /"})
        assert "blocked" in blocked
        await _ok(client, "terminal_close", {"terminalId": tid})
        assert (await _ok(client, "terminal_list"))["terminals"] == []
        gone = await _error(client, "terminal_read", {"terminalId": tid})
    assert "no terminal" in gone


# -- bad input ----------------------------------------------------------------------------


async def test_bad_input_gets_clear_errors_and_the_server_keeps_serving(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("```sh\necho hi\n```\n")
    async with server(tmp_path) as client:
        cases = [
            ("run_command", {}, "missing required field 'command'"),
            ("run_command", {"command": 42}, "'command' must be a string"),
            ("run_command", {"command": "ls", "bogus": 1}, "unknown field 'bogus'"),
            ("run_command", {"command": "ls", "timeoutSeconds": 601}, "at most 600"),
            ("run_command", {"command": "ls", "cwd": "/nonexistent/dir"}, "does not exist"),
            ("run_command", {"command": "ls", "cwd": "/"}, "outside the workspace"),
            ("run_command", {"path": "RUNBOOK.md"}, "exactly one of blockId or name"),
            ("check_command", {"command": "ls", "shell": "tcsh"}, "must be one of"),
            ("list_blocks", {"path": str(outside)}, "outside the workspace"),
            ("list_blocks", {"path": "../outside.md"}, "outside the workspace"),
            ("list_blocks", {"path": "missing.md"}, "no such file"),
            ("read_capture", {"captureId": "run-nope"}, "no capture 'run-nope'"),
            ("read_capture", {"captureId": "x", "limit": 0}, "at least 1"),
            ("terminal_send", {"terminalId": "terminal-9", "text": "ls"}, "no terminal"),
            ("terminal_close", {"terminalId": "terminal-9"}, "no terminal"),
            ("history", {"limit": "ten"}, "'limit' must be an integer"),
            ("no_such_tool", {}, "unknown tool"),
        ]
        (tmp_path / "work" / "RUNBOOK.md").write_text(RUNBOOK)
        for tool, args, expected in cases:
            message = await _error(client, tool, args)
            assert expected in message, (tool, args, message)
        still = await _ok(client, "check_command", {"command": "echo ok"})
    assert still["level"] == "safe"


async def test_client_roots_bound_the_paths(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.md").write_text("```sh\necho from project\n```\n")
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "other.md").write_text("```sh\necho other\n```\n")
    async with server(tmp_path, roots=[project]) as client:
        listing = await _ok(client, "list_blocks", {"path": "notes.md"})
        assert listing["path"] == str((project / "notes.md").resolve())
        run = await _ok(client, "run_command", {"command": "pwd"})
        assert run["cwd"] == str(project.resolve())
        refused = await _error(client, "list_blocks", {"path": str(tmp_path / "work" / "other.md")})
    assert "outside the workspace" in refused


@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM"])
def test_server_going_away_mid_run_leaves_no_process(tmp_path: Path, how: str) -> None:
    """No cancellation sent: the client just disappears, or the server is terminated."""
    work = tmp_path / "work"
    work.mkdir()
    pids = work / "pids"
    command = f"sleep 300 & echo $! > {pids}.tmp; echo $$ >> {pids}.tmp; mv {pids}.tmp {pids}; wait"
    proc = subprocess.Popen(
        [sys.executable, "-m", "aintern_ls", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=_env(tmp_path),
        cwd=work,
    )
    assert proc.stdin is not None and proc.stdout is not None
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "run_command", "arguments": {"command": command}},
        },
    ]
    try:
        for message in messages:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["protocolVersion"] == "2025-11-25"
        deadline = time.monotonic() + 30
        while not pids.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        numbers = [int(n) for n in pids.read_text().split()]
        assert all(_alive(n) for n in numbers)
        if how == "SIGTERM":
            proc.terminate()
        else:
            proc.stdin.close()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 15
    while any(_alive(n) for n in numbers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(n) for n in numbers), f"processes outlived the server ({how})"


async def test_an_environment_that_can_run_code_needs_a_person(tmp_path: Path) -> None:
    async with server(tmp_path) as client:
        message = await _error(
            client, "run_command", {"command": "echo hi", "env": {"LD_PRELOAD": "/tmp/x.so"}}
        )
    assert "critical" in message and "dangerous-env" in message and "cannot ask" in message


async def test_a_fence_timeout_holds_through_mcp(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "slow.md").write_text("```sh {name=slow timeout=1s}\necho begun; sleep 30\n```\n")
    async with server(tmp_path) as client:
        run = await _ok(client, "run_command", {"path": "slow.md", "name": "slow"})
    assert run["timedOut"] is True and "begun" in run["output"]
