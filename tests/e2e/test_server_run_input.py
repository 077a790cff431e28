"""`aintern.run.input`: a run waiting on a prompt is answered instead of timing out."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

SERVER = [sys.executable, "-m", "aintern_ls", "--stdio"]

DOC = """```bash
read -p "continue? [y/N] " answer; echo "answer=$answer"
```
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    @lsp_client.feature("aintern/blockStatus")
    def _status(params: Any) -> None:
        return None

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            initialization_options={"aintern": {"historyPath": str(tmp_path / "h.db")}},
        )
    )
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    lsp_client.uri = doc.as_uri()  # type: ignore[attr-defined]
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc.as_uri(), language_id="markdown", version=1, text=DOC
            )
        )
    )
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any]) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def test_prompt_answered_from_the_editor(client: LanguageClient) -> None:
    uri = client.uri  # type: ignore[attr-defined]
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert lenses
    block_id = lenses[0].command.arguments[0]["blockId"]  # type: ignore[union-attr,index]
    with pytest.raises(JsonRpcException, match="not running"):
        await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": "y"})
    run = asyncio.ensure_future(
        _cmd(client, "aintern.run", {"uri": uri, "blockId": block_id, "timeoutSeconds": 30})
    )
    for _ in range(200):  # until the run has started
        try:
            await _cmd(client, "aintern.run.input", {"uri": uri, "blockId": block_id, "text": "y"})
            break
        except JsonRpcException:
            await asyncio.sleep(0.05)
    result = await asyncio.wait_for(run, 30)
    assert result["exitCode"] == 0
    assert "answer=y" in result["output"]
    assert not result["timedOut"]
