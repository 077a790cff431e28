"""Builds the pygls language server and owns its long-lived state.

Handlers stay short: they translate LSP types and call the services
(`extraction`, `safety`, `terminal`, `capture`). The LSP features themselves
arrive in later issues; this module already gets the lifecycle right: initialize,
shutdown while requests are in flight, exit, and killing every child process when
the client goes away.
"""

from __future__ import annotations

import atexit
import logging
from collections.abc import Callable, Generator
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from aintern_ls import __version__

log = logging.getLogger(__name__)


class AInternProtocol(LanguageServerProtocol):
    """pygls' protocol with a shutdown that survives requests still in flight.

    pygls 2.1 cancels pending requests while iterating over the live
    `_request_futures` dict; a cancelled request's done-callback removes itself from
    that dict, which raises "dictionary changed size during iteration". Iterating
    over a copy fixes it.
    """

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True
        return None


class AInternServer(LanguageServer):
    """The aintern-ls language server and the services it owns."""

    def __init__(self) -> None:
        super().__init__(
            name="aintern-ls",
            version=__version__,
            protocol_cls=AInternProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self._cleanups: list[Callable[[], None]] = []

    def add_cleanup(self, cleanup: Callable[[], None]) -> None:
        """Run `cleanup` at shutdown, at exit and when the client disappears."""
        self._cleanups.append(cleanup)

    def cleanup(self) -> None:
        while self._cleanups:
            fn = self._cleanups.pop()
            try:
                fn()
            except Exception:  # a failing cleanup must not stop the others
                log.exception("cleanup failed")


def build_server() -> AInternServer:
    server = AInternServer()

    @server.feature(types.INITIALIZED)
    def on_initialized(ls: AInternServer, params: types.InitializedParams) -> None:
        log.info("client initialized")

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: AInternServer, params: None) -> None:
        ls.cleanup()

    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server until the client says exit or closes the stream."""
    server = build_server()
    atexit.register(server.cleanup)
    try:
        if tcp is None:
            server.start_io()
        else:
            server.start_tcp(*tcp)
    finally:
        server.cleanup()
