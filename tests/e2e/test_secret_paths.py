"""No secret from a command line or its output reaches anything an AI or a log reads.

One fence whose command line and output both hold secrets is run through the real
server (VS Code-like client, with work-done progress) and through `aintern-ls run
--json`; then every place the run can be read from is searched for the secrets and
for pieces of them: the run result, the capture and its context string, the
`aintern.history` reply, the history database files read raw (WAL included), the
`$/progress` messages, and a buffer capture of the same command typed into a terminal
session (its `$ command` line comes from shell integration).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER, ignore, initialize, open_and_analyse

TOKEN = "ghp_" + "Wq3Rt7Yu1Io5Pa9Sd2Fg6Hj0Kl4Zx8Cv3Bn7M"
PASSWORD = "Vq8-" + "mZr2xT6wK9s"
SLACK = "xoxb-" + "4815162342-1618033988-" + "Hn4Jm8Kp2Lq6Rs0Tv3Wx7Yz"
SECRETS = (TOKEN, PASSWORD, SLACK)
COMMAND = (
    f"export API_TOKEN={TOKEN}; "
    f"export DATABASE_URL='postgres://app:{PASSWORD}@db.internal:5432/app'; "
    f'echo starting; sleep 0.4; echo "auth: $API_TOKEN"; sleep 0.4; '
    f"echo \"db: $DATABASE_URL\"; sleep 0.4; echo 'slack: {SLACK}'; sleep 0.4; echo done"
)
DOC = f"# Deploy\n\n```bash\n{COMMAND}\n```\n"
CAPABILITIES = types.ClientCapabilities(
    window=types.WindowClientCapabilities(work_done_progress=True),
)


def assert_no_secret(where: str, text: str) -> None:
    for secret in SECRETS:
        for size in (10, len(secret)):
            for start in range(0, len(secret) - size + 1):
                piece = secret[start : start + size]
                assert piece not in text, f"{where} leaks {piece!r}: {text[:2000]}"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    ignore(lsp_client, "aintern/terminalOutput", "aintern/blockStatus")
    await initialize(lsp_client, tmp_path, CAPABILITIES, history="history.db", timeoutSeconds=60)
    lsp_client.uri = await open_and_analyse(lsp_client, tmp_path / "deploy.md", DOC)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, **args: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def test_no_secret_reaches_results_captures_history_database_or_progress(
    client: LanguageClient, tmp_path: Path
) -> None:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri))  # type: ignore[attr-defined]
    )
    assert lenses and lenses[0].command is not None
    block_id = lenses[0].command.arguments[0]["blockId"]  # type: ignore[index]

    result = await _cmd(client, "aintern.run", uri=client.uri, blockId=block_id)  # type: ignore[attr-defined]
    assert result["exitCode"] == 0
    assert "starting" in result["output"] and "done" in result["output"]
    assert result["command"].startswith("export API_TOKEN=[REDACTED:")
    assert_no_secret("aintern.run result", json.dumps(result))

    capture = await _cmd(client, "aintern.capture", captureId=result["captureId"])
    assert capture["redactionCount"] >= 3
    assert "[REDACTED:" in capture["contextString"]
    assert_no_secret("aintern.capture", json.dumps(capture))

    history = await _cmd(client, "aintern.history", uri=client.uri)  # type: ignore[attr-defined]
    assert history["runs"]
    assert_no_secret("aintern.history", json.dumps(history))

    raw = b"".join(p.read_bytes() for p in tmp_path.glob("history.db*"))
    assert b"starting" in raw  # the run is in there ...
    assert_no_secret("the history database", raw.decode("utf-8", "replace"))  # ... redacted

    messages = [
        str(getattr(report, "message", "") or "")
        for reports in client.progress_reports.values()
        for report in reports
    ]
    assert any("[REDACTED:" in m for m in messages), messages
    assert_no_secret("$/progress", "\n".join(messages))


async def test_no_secret_reaches_a_terminal_capture_or_its_command_line(
    client: LanguageClient, tmp_path: Path
) -> None:
    tid = (await _cmd(client, "aintern.terminal.create", cwd=str(tmp_path)))["terminalId"]
    await _cmd(client, "aintern.terminal.send", terminalId=tid, text=COMMAND)
    for _ in range(150):
        listed = (await _cmd(client, "aintern.terminal.list"))["terminals"]
        if listed[0].get("lastExitCode") == 0:
            break
        await asyncio.sleep(0.1)
    capture = await _cmd(client, "aintern.capture", terminalId=tid, mode="lastCommand")
    assert "done" in capture["output"]
    assert_no_secret("terminal capture", json.dumps(capture))


def test_no_secret_reaches_run_json(tmp_path: Path) -> None:
    doc = tmp_path / "deploy.md"
    doc.write_text(DOC)
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert "done" in result["output"]
    assert_no_secret("run --json", proc.stdout)
    assert_no_secret("run --json stderr", proc.stderr)
