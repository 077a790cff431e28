"""What every pytest-lsp test of the real server does to get going.

The fixtures in this folder each record different notifications, but they start the
server, initialise it on a temporary folder with its own history database, and open
their documents the same way: those steps live here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient

SERVER = [sys.executable, "-m", "aintern_ls", "--stdio"]


def ignore(client: LanguageClient, *methods: str) -> None:
    """Accept these server notifications and do nothing with them."""
    for method in methods:
        client.feature(method)(lambda params: None)


async def initialize(
    client: LanguageClient,
    folder: Path | None,
    capabilities: types.ClientCapabilities | None = None,
    *,
    history: str = "h.db",
    **settings: Any,
) -> types.InitializeResult:
    """Initialise the server on `folder`, its history kept in `folder/history`.

    `settings` are `aintern` initialisation options (`timeoutSeconds=60`, …).
    """
    aintern = {**settings}
    if folder is not None:
        aintern["historyPath"] = str(folder / history)
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or types.ClientCapabilities(),
            root_uri=folder.as_uri() if folder is not None else None,
            initialization_options={"aintern": aintern},
        )
    )


def open_markdown(client: LanguageClient, path: Path, text: str | None = None) -> str:
    """Write `text` to `path` (unless it is None: the file exists) and open it; its URI."""
    if text is None:
        text = path.read_text()
    else:
        path.write_text(text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="markdown", version=1, text=text
            )
        )
    )
    return path.as_uri()


async def open_and_analyse(client: LanguageClient, path: Path, text: str) -> str:
    """`open_markdown`, then wait until the server has published its diagnostics."""
    uri = open_markdown(client, path, text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri
