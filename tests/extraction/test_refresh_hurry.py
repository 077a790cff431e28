"""A request right behind an edit (`AInternServer.current`) cuts the typing pause of the
pending re-extraction short, even before that task has first run."""

from __future__ import annotations

import asyncio

from aintern_ls.app import build_server

URI = "file:///hurry.md"


async def test_the_pause_can_be_cut_short_before_the_refresh_task_runs() -> None:
    server = build_server()
    server.refresh_soon(URI, delay=60)
    hurry = server._hurry.get(URI)
    assert hurry is not None  # registered at once, not when the task starts
    task = server._pending[URI]
    hurry.set()
    # Cut short, the task goes on at once (to the workspace, which this bare server
    # lacks: it ends with that error); left to its pause it would still be waiting.
    done, _ = await asyncio.wait({task}, timeout=20)
    assert task in done
    assert URI not in server._hurry and URI not in server._pending
