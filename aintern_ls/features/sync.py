"""Document sync: open, change and close. Extraction and assessment happen in a worker
thread (`AInternServer.refresh_soon`), so opening a huge document blocks nothing."""

from __future__ import annotations

from lsprotocol import types

from aintern_ls.server import AInternServer


def register(server: AInternServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def on_open(ls: AInternServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.refresh_soon(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: AInternServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.refresh_soon(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def on_close(ls: AInternServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )
