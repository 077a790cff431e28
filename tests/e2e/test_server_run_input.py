"""Runs waiting for input, through the real server over stdio and real PTYs.

A run blocked on a prompt is announced (`aintern/waitingForInput`, a lens refresh, the
`⌨ waiting for input` and `✎ Answer` lenses), answered with `aintern.run.input`
instead of timing out, and the answer is stored nowhere. `sleep` is never taken for a
prompt. Agents' runs (`aintern.runCommand`, MCP `run_command`) that wait are stopped
and say why.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_markdown

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(120)

DOC = """# Prompts

```bash
read -p "continue? [y/N] " answer; echo "answer=$answer"
```

```bash
read -p "name? " n; echo "hi $n"
```

```bash
read -s -p "Password: " pw; echo; echo "length=${#pw}"
```

```bash
sleep 3; echo slept
```

```bash
echo step one; sleep 0.6; echo step two; read -p "deploy? (yes/no) " ok; echo "ok=$ok"
```
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    events: list[dict[str, Any]] = []
    refreshes: list[float] = []

    ignore(lsp_client, "aintern/blockStatus")

    @lsp_client.feature("aintern/waitingForInput")
    def _waiting(params: Any) -> None:
        events.append(params if isinstance(params, dict) else _plain(params))

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def _refresh(params: Any) -> None:
        refreshes.append(time.monotonic())

    caps = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True)
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )
    await initialize(lsp_client, tmp_path, caps)
    lsp_client.events = events  # type: ignore[attr-defined]
    lsp_client.refreshes = refreshes  # type: ignore[attr-defined]
    lsp_client.history_db = tmp_path / "h.db"  # type: ignore[attr-defined]
    lsp_client.uri = open_markdown(lsp_client, tmp_path / "doc.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _plain(value: Any) -> dict[str, Any]:
    """A notification's params as a dict (pygls may hand over a namespace object)."""
    if hasattr(value, "_asdict"):
        return dict(value._asdict())
    return dict(vars(value))


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any]) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def _lenses(client: LanguageClient) -> list[types.CodeLens]:
    uri = client.uri  # type: ignore[attr-defined]
    return await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


async def _block_id(client: LanguageClient, index: int) -> str:
    lenses = await _lenses(client)
    ids: list[str] = []
    for lens in lenses:
        assert lens.command is not None and lens.command.arguments
        block_id = lens.command.arguments[0]["blockId"]
        if block_id not in ids:
            ids.append(block_id)
    return ids[index]


def _events(client: LanguageClient, block_id: str) -> list[dict[str, Any]]:
    return [e for e in client.events if e["blockId"] == block_id]  # type: ignore[attr-defined]


async def _until(predicate: Any, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)


async def _run(client: LanguageClient, block_id: str) -> asyncio.Future[Any]:
    uri = client.uri  # type: ignore[attr-defined]
    return asyncio.ensure_future(
        _cmd(client, "aintern.run", {"uri": uri, "blockId": block_id, "timeoutSeconds": 60})
    )


def _alternates(states: list[bool]) -> bool:
    """Waiting, then not, possibly again: never twice the same state in a row."""
    return (
        len(states) >= 2
        and states[0] is True
        and states[-1] is False
        and all(a != b for a, b in itertools.pairwise(states))
    )


def _titles(lenses: list[types.CodeLens], block_id: str) -> dict[str, types.Command]:
    return {
        lens.command.title: lens.command
        for lens in lenses
        if lens.command is not None and lens.command.arguments[0]["blockId"] == block_id
    }


async def test_read_p_shows_waiting_and_is_answered(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    block_id = await _block_id(client, 1)
    with pytest.raises(JsonRpcException, match="not running"):
        await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": "x"})
    run = await _run(client, block_id)
    await _until(lambda: _events(client, block_id), "the waiting notification")
    first = _events(client, block_id)[0]
    assert first["waiting"] is True
    assert first["prompt"] == "name? " and first["secret"] is False
    assert client.refreshes  # type: ignore[attr-defined]
    titles = _titles(await _lenses(client), block_id)
    assert "⌨ waiting for input ■ Stop" in titles
    assert titles["⌨ waiting for input ■ Stop"].command == "aintern.cancel"
    answer = titles["✎ Answer"]
    assert answer.command == "aintern.run.input"
    assert answer.arguments is not None
    assert answer.arguments[0]["prompt"] == "name? "
    assert answer.arguments[0]["secret"] is False
    assert "text" not in answer.arguments[0]
    assert "▶ Run" not in titles and "⏳ running… ■ Stop" not in titles
    # the lens's own arguments lack the text: a clear error, the run keeps waiting
    with pytest.raises(JsonRpcException, match="needs `text`"):
        await _cmd(client, "aintern.run.input", answer.arguments[0])
    sent = await _cmd(client, "aintern.run.input", {**answer.arguments[0], "text": "Grace Hopper"})
    assert sent == {"sent": True}
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0 and not result["timedOut"]
    assert "hi Grace Hopper" in result["output"]
    reports = [getattr(r, "message", None) for rs in client.progress_reports.values() for r in rs]
    assert "⌨ waiting for input: name? " in reports
    events = _events(client, block_id)
    assert events[-1] == {"uri": uri, "blockId": block_id, "waiting": False}
    # one wait, then cleared: the echo of the answer is output, not a prompt (a second
    # True/False pair could only come from the answer reaching the PTY >0.3 s late)
    assert _alternates([e["waiting"] for e in events])
    titles = _titles(await _lenses(client), block_id)
    assert not any(t.startswith("⌨") or t == "✎ Answer" for t in titles)
    assert any(t.startswith("✓ exit 0") for t in titles)


async def test_secret_prompt_is_masked_and_never_stored(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    block_id = await _block_id(client, 2)
    run = await _run(client, block_id)
    await _until(lambda: _events(client, block_id), "the waiting notification")
    event = _events(client, block_id)[0]
    assert event["waiting"] and event["secret"] is True and event["prompt"] == "Password: "
    secret = "hunter2-Xq9"
    await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": secret})
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0 and f"length={len(secret)}" in result["output"]
    assert secret not in result["output"]  # read -s does not echo
    history = await _cmd(client, "aintern.history", {"uri": uri})
    assert history["runs"] and secret not in str(history)
    db: Path = client.history_db  # type: ignore[attr-defined]
    for path in db.parent.glob(db.name + "*"):  # the database and its WAL
        assert secret.encode() not in path.read_bytes()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("select * from sqlite_master").fetchall()
    assert rows


async def test_sleep_never_shows_waiting(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    block_id = await _block_id(client, 3)
    run = await _run(client, block_id)
    seen: set[str] = set()
    while not run.done():
        for title in _titles(await _lenses(client), block_id):
            seen.add(title)
        out = await _cmd(client, "aintern.runOutput", {"uri": uri, "blockId": block_id})
        if out["running"]:
            assert out["waitingForInput"] is None
        await asyncio.sleep(0.2)
    result = run.result()
    assert result["exitCode"] == 0 and "slept" in result["output"]
    assert "⏳ running… ■ Stop" in seen
    assert not any(t.startswith("⌨") for t in seen)
    assert _events(client, block_id) == []


async def test_a_prompt_after_output_and_runoutput_reports_it(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    block_id = await _block_id(client, 4)
    run = await _run(client, block_id)
    await _until(lambda: _events(client, block_id), "the waiting notification")
    event = _events(client, block_id)[0]
    assert event["prompt"] == "deploy? (yes/no) "
    out = await _cmd(client, "aintern.runOutput", {"uri": uri, "blockId": block_id})
    assert out["running"] and "step two" in out["text"]
    assert out["waitingForInput"] == {"prompt": "deploy? (yes/no) ", "secret": False}
    await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": "yes"})
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0 and "ok=yes" in result["output"]
    assert _alternates([e["waiting"] for e in _events(client, block_id)])


async def test_enter_alone_takes_the_default_and_stop_still_works(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    block_id = await _block_id(client, 0)
    run = await _run(client, block_id)
    await _until(lambda: _events(client, block_id), "the waiting notification")
    await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": ""})
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0 and "answer=\n" in result["output"] + "\n"
    # a second run is stopped while it waits: the wait ends with the run
    client.events.clear()  # type: ignore[attr-defined]
    run = await _run(client, block_id)
    await _until(lambda: _events(client, block_id), "the waiting notification")
    assert (await _cmd(client, "aintern.cancel", {"uri": uri, "blockId": block_id}))["cancelled"]
    result = await asyncio.wait_for(run, 30)
    assert result["cancelled"]
    assert [e["waiting"] for e in _events(client, block_id)] == [True, False]


async def test_an_ai_tool_run_that_waits_is_stopped_and_says_why(client: LanguageClient) -> None:
    started = time.monotonic()
    result = await _cmd(
        client,
        "aintern.runCommand",
        {"command": 'read -p "Proceed? [y/N] " a; echo "a=$a"', "timeoutSeconds": 60},
    )
    assert time.monotonic() - started < 30  # long before the 60 s timeout
    assert result["waitingForInput"] == {"prompt": "Proceed? [y/N] ", "secret": False}
    assert result["cancelled"] and not result["timedOut"]
    assert "waiting for input" in result["output"]
    done = await _cmd(client, "aintern.runCommand", {"command": "sleep 3; echo fine"})
    assert done["exitCode"] == 0 and done["waitingForInput"] is None


async def test_mcp_run_command_that_waits_is_stopped_and_says_why(tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "home").mkdir()
    env = {
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "aintern_ls", "mcp"], env=env, cwd=str(work)
    )
    async with Client(params, read_timeout_seconds=90) as mcp:
        started = time.monotonic()
        result = await mcp.call_tool(
            "run_command",
            {"command": 'read -s -p "Password: " p; echo "$p"', "timeoutSeconds": 60},
        )
        assert time.monotonic() - started < 30
        data = result.structured_content
        assert isinstance(data, dict)
        assert data["waitingForInput"] == {"prompt": "Password: ", "secret": True}
        assert data["cancelled"] and not data["timedOut"]
        text = "\n".join(getattr(c, "text", "") for c in result.content)
        assert "waited for input" in text and "terminal_create" in text
