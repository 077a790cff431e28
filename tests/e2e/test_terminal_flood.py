"""A terminal flood reaches the client whole, in few notifications (coalesced)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from aintern_ls.terminal.session import OUTPUT_INTERVAL_SECONDS, OUTPUT_MAX_CHARS
from tests.e2e.session import SERVER, ignore, initialize

SIZE = 8_000_000


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.chunks = []  # type: ignore[attr-defined]

    @lsp_client.feature("aintern/terminalOutput")
    def _out(params: Any) -> None:
        lsp_client.chunks.append(params.data)  # type: ignore[attr-defined]

    ignore(lsp_client, "aintern/terminalExit", "aintern/terminalCommand")
    await initialize(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_a_flood_is_coalesced_and_complete(client: LanguageClient, tmp_path: Path) -> None:
    created = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="aintern.terminal.create", arguments=[{"cwd": str(tmp_path), "shell": "bash"}]
        )
    )
    tid = created["terminalId"]
    await asyncio.sleep(0.5)
    client.chunks.clear()  # type: ignore[attr-defined]
    command = f"head -c {SIZE} /dev/zero | tr '\\0' a; echo; echo flood-$((40 + 2))"
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="aintern.terminal.send", arguments=[{"terminalId": tid, "text": command}]
        )
    )
    started = time.monotonic()
    chunks: list[str] = client.chunks  # type: ignore[attr-defined]
    for _ in range(1200):
        if "flood-42" in "".join(chunks[-3:]):  # the typed line says flood-$((40 + 2))
            break
        await asyncio.sleep(0.05)
    text = "".join(chunks)
    assert text.count("a") >= SIZE, (len(text), len(chunks))
    # A PTY hands over a few KB per read: hundreds of reads. The client gets at most one
    # notification per flush interval, plus one per full buffer.
    elapsed = time.monotonic() - started
    bound = elapsed / OUTPUT_INTERVAL_SECONDS + SIZE / OUTPUT_MAX_CHARS + 5
    assert len(chunks) <= bound, (len(chunks), elapsed)
