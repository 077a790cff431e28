"""Builds the language server: an `AInternServer` plus every feature module's `register()`.

To add a feature, write `aintern_ls/features/<name>.py` with `register(server)` and list
it in `FEATURES`. `server.py` holds the server class and its state and imports no
feature; features import the server and the services, never each other's internals.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
from collections.abc import Callable
from types import ModuleType

from aintern_ls.features import (
    capture,
    code_lens,
    commands,
    diagnostics,
    hover,
    lifecycle,
    output_block,
    run_input,
    sync,
    terminals,
)
from aintern_ls.server import AInternServer
from aintern_ls.terminal import process_tree

FEATURES: tuple[ModuleType, ...] = (
    lifecycle,
    sync,
    diagnostics,
    code_lens,
    hover,
    commands,
    run_input,
    output_block,
    terminals,
    capture,
)
"""The feature modules, in registration order."""

GC_THRESHOLD = 20_000
"""Allocations between young collections (CPython's default is 700)."""


def build_server() -> AInternServer:
    """A server with every feature in `FEATURES` registered."""
    server = AInternServer()
    for feature in FEATURES:
        register: Callable[[AInternServer], None] = feature.register
        register(server)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server until the client says exit or closes the stream."""
    server = build_server()
    # A big transcript keeps a few hundred thousand objects alive; with the default
    # thresholds the collector rescans them many times per keystroke.
    gc.set_threshold(GC_THRESHOLD, 20, 20)
    atexit.register(server.cleanup)
    # Orphans of runs and terminals re-parent to the server, to be found and reaped.
    process_tree.enable_subreaper(reap_strangers=True)

    def on_signal(signum: int, frame: object) -> None:
        # atexit does not run when a signal kills the process: end every child first.
        server.cleanup()
        process_tree.kill_all_tracked()
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP) if hasattr(signal, "SIGHUP") else (signal.SIGTERM,):
        signal.signal(sig, on_signal)
    try:
        if tcp is None:
            from aintern_ls.transport import serve_stdio  # hardened framing (issue 13)

            serve_stdio(server)
        else:
            from aintern_ls.transport import serve_tcp

            serve_tcp(server, *tcp)
    finally:
        server.cleanup()
