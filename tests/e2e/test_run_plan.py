"""A fence's `timeout` and `cwd` mean the same through `aintern.run`, `aintern.runAll`
and `aintern-ls run` (one run plan: `aintern_ls.runs.plan_run`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_and_analyse

DOC = """# Slow

```sh {"cwd":"sub","timeout":"1s","color":"red"}
pwd -P; sleep 30
```
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    ignore(lsp_client, "aintern/blockStatus")
    await initialize(lsp_client, tmp_path)
    (tmp_path / "sub").mkdir()
    lsp_client.uri = await open_and_analyse(lsp_client, tmp_path / "slow.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _same_outcome(result: dict[str, Any], sub: Path) -> None:
    assert result["timedOut"] is True, result
    assert result["exitCode"] is None
    assert os.path.realpath(sub) in result["output"]
    assert result["durationMs"] < 15_000  # killed at the fence's 1 s, not the 120 s default


async def test_fence_timeout_and_cwd_through_every_entry_point(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    block_id = lenses[0].command.arguments[0]["blockId"]  # type: ignore[index,union-attr]
    run = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="aintern.run", arguments=[{"uri": uri, "blockId": block_id}]
        )
    )
    _same_outcome(run, tmp_path / "sub")
    (row,) = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="aintern.runAll", arguments=[{"uri": uri}])
    )
    _same_outcome(row, tmp_path / "sub")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "aintern_ls",
            "run",
            str(tmp_path / "slow.md"),
            "--block",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 124, done.stderr
    _same_outcome(json.loads(done.stdout), tmp_path / "sub")
    # the unknown attribute is kept and reported, not silently dropped
    infos = [
        d
        for d in client.diagnostics[uri]  # type: ignore[attr-defined]
        if d.code == "unknown-attribute"
    ]
    assert len(infos) == 1 and "color" in infos[0].message
    assert infos[0].severity == types.DiagnosticSeverity.Information
