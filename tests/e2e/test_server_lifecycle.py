"""The real server over stdio: initialize, shutdown and exit cleanly."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.session import SERVER


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_server_initializes_with_name_and_version(client: LanguageClient) -> None:
    info = client.init_result.server_info  # type: ignore[attr-defined]
    assert info is not None and info.name == "aintern-ls"
    assert info.version
