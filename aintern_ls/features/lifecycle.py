"""Lifecycle: `initialize` (settings from `initializationOptions`), `initialized`,
`shutdown` (close every terminal, end every run) and `workspace/didChangeConfiguration`."""

from __future__ import annotations

import logging

from lsprotocol import types

from aintern_ls.server import AInternServer

log = logging.getLogger(__name__)


def register(server: AInternServer) -> None:
    @server.feature(types.INITIALIZE)
    def on_initialize(ls: AInternServer, params: types.InitializeParams) -> None:
        if params.initialization_options is not None:
            ls.apply_settings(params.initialization_options)

    @server.feature(types.INITIALIZED)
    def on_initialized(ls: AInternServer, params: types.InitializedParams) -> None:
        log.info("client initialized")

    @server.feature(types.SHUTDOWN)
    async def on_shutdown(ls: AInternServer, params: None) -> None:
        await ls.terminals.close_all()
        ls.cleanup()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def on_configuration(ls: AInternServer, params: types.DidChangeConfigurationParams) -> None:
        ls.apply_settings(params.settings)
