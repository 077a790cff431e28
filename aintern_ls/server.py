"""Builds the pygls language server and owns its long-lived state.

Handlers stay short: they translate LSP types and call the services
(`documents`/`extraction`, `safety`, `terminal`, `capture`). This module also gets
the lifecycle right: shutdown while requests are in flight, `$/cancelRequest` on a
running command, and killing every child process when the client goes away.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import inspect
import json
import logging
import os
import signal
import uuid
from collections.abc import Callable, Generator
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from aintern_ls import __version__
from aintern_ls.capture import CaptureService
from aintern_ls.config import Settings, load_settings
from aintern_ls.documents import Document, DocumentStore
from aintern_ls.errors import AInternError
from aintern_ls.extraction import extract_incremental, forget
from aintern_ls.features import (
    capture,
    code_lens,
    commands,
    diagnostics,
    output_block,
    run_input,
    terminals,
)
from aintern_ls.history import History
from aintern_ls.models import CommandBlock, CommandResult
from aintern_ls.positions import Encoding
from aintern_ls.safety import RiskLevel, SafetyRules
from aintern_ls.terminal import process_tree
from aintern_ls.terminal.runner import Runner
from aintern_ls.terminal.session import CommandRecord, TerminalManager

log = logging.getLogger(__name__)

REFRESH_DELAY_SECONDS = 0.15


class AInternProtocol(LanguageServerProtocol):
    """pygls' protocol with two fixes.

    - Shutdown: pygls 2.1 cancels pending requests while iterating over the live
      `_request_futures` dict; a cancelled request's done-callback removes itself
      from it ("dictionary changed size during iteration"). Iterate over a copy.
    - `$/cancelRequest` on `workspace/executeCommand` cancels only pygls' outer
      future, not our coroutine; handlers register a hook to stop their run.
    """

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self.cancel_hooks: dict[Any, list[Callable[[], object]]] = {}
        self._writes: set[asyncio.Future[Any]] = set()

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

    def _send_data(self, data: Any) -> None:
        """A result already encoded (`RawJSON`) is sent as it is."""
        result = getattr(data, "result", None)
        if not isinstance(result, RawJSON) or self.writer is None:
            super()._send_data(data)
            return
        body = f'{{"id": {json.dumps(data.id)}, "jsonrpc": "2.0", "result": {result}}}'.encode()
        header = (
            f"Content-Length: {len(body)}\r\n"
            f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        ).encode()
        written = self.writer.write(header + body if self._include_headers else body)
        if inspect.isawaitable(written):
            task = asyncio.ensure_future(written)
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        for hook in self.cancel_hooks.pop(msg_id, []):
            try:
                hook()
            except Exception:
                log.exception("cancel hook failed")
        super()._handle_cancel_notification(msg_id)


class RawJSON(str):
    """A response result that is already JSON text (see `_Protocol._send_data`)."""


class AInternServer(LanguageServer):
    """The aintern-ls language server and the services it owns."""

    protocol: AInternProtocol

    def __init__(self) -> None:
        super().__init__(
            name="aintern-ls",
            version=__version__,
            protocol_cls=AInternProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self._cleanups: list[Callable[[], None]] = []
        self.documents = DocumentStore()
        self.runner = Runner()
        self.settings = Settings()
        self.history = History(None)
        self._history_broken = False
        self._pending: dict[str, asyncio.Task[Document]] = {}
        self.captures = CaptureService(self.settings.capture)
        self.terminals = TerminalManager(
            on_output=self._terminal_output, on_exit=self._terminal_exit
        )
        self.terminals.on_command = self._terminal_command
        self.add_cleanup(self.runner.cancel_all)
        self.add_cleanup(lambda: self.history.close())

    def _terminal_output(self, terminal_id: str, data: str) -> None:
        self.captures.on_output(terminal_id, data)
        self.protocol.notify("aintern/terminalOutput", {"terminalId": terminal_id, "data": data})

    def _terminal_command(self, terminal_id: str, record: CommandRecord) -> None:
        """A command typed or sent into a terminal finished (after its output)."""
        self.protocol.notify(
            "aintern/terminalCommand",
            {
                "terminalId": terminal_id,
                "commandLine": record.command_line,
                "exitCode": record.exit_code,
                "cwd": record.cwd_after or record.cwd,
            },
        )

    def _terminal_exit(self, terminal_id: str, exit_code: int | None) -> None:
        self.protocol.notify(
            "aintern/terminalExit", {"terminalId": terminal_id, "exitCode": exit_code}
        )

    # -- lifecycle -------------------------------------------------------------------

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

    # -- client capabilities -----------------------------------------------------------

    @property
    def _caps(self) -> types.ClientCapabilities:
        return self.client_capabilities or types.ClientCapabilities()

    @property
    def client_can_ask(self) -> bool:
        window = self._caps.window
        return bool(window and window.show_message)

    @property
    def client_has_progress(self) -> bool:
        window = self._caps.window
        return bool(window and window.work_done_progress)

    @property
    def client_refreshes_lenses(self) -> bool:
        ws = self._caps.workspace
        return bool(ws and ws.code_lens and ws.code_lens.refresh_support)

    @property
    def encoding(self) -> Encoding:
        enc = str(self.workspace.position_encoding or "utf-16")
        return enc if enc in ("utf-8", "utf-16", "utf-32") else "utf-16"  # type: ignore[return-value]

    # -- settings ------------------------------------------------------------------------

    def apply_settings(self, raw: Any) -> None:
        settings, problems = load_settings(raw)
        self.settings = settings
        self.terminals.allowed_directories = list(settings.allowed_directories)
        self.captures.configure(settings.capture)
        if settings.history_path != str(self.history.path) and settings.history_path:
            self.history.close()
            self.history = History(settings.history_path)
        safety = settings.safety
        self.documents.rules = SafetyRules(
            extra_blocked=safety.extra_blocked,
            extra_dangerous=safety.extra_dangerous,
            trusted=safety.trusted,
        )
        for problem in problems:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
            )
        for doc in self.documents:
            self.publish(doc)

    def record(self, what: str, **fields: Any) -> None:
        """Write to the history; a broken database is reported once, never fatal."""
        try:
            if what == "run":
                self.history.record_result(**fields)
            else:
                self.history.record_decision(**fields)
        except AInternError as exc:
            log.warning("history: %s", exc)
            if not self._history_broken:
                self._history_broken = True
                self.window_show_message(
                    types.ShowMessageParams(type=types.MessageType.Warning, message=str(exc))
                )

    # -- documents -----------------------------------------------------------------------

    def refresh(self, uri: str) -> Document:
        """Extract the document now (open, or a request that needs it up to date)."""
        text = self.workspace.get_text_document(uri).source
        if self.documents.is_current(uri, text):
            return self.documents.get(uri)
        doc = self.documents.update(uri, text)
        self.publish(doc)
        return doc

    def refresh_soon(self, uri: str) -> None:
        """Re-extract after typing pauses, off the event loop (big documents take time)."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.ensure_future(self._refresh_later(uri))

    async def _refresh_later(self, uri: str) -> Document:
        await asyncio.sleep(REFRESH_DELAY_SECONDS)
        text = self.workspace.get_text_document(uri).source
        if not self.documents.is_current(uri, text):
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(None, extract_incremental, text, uri)
            if self.workspace.get_text_document(uri).source != text:
                return self.documents.get(uri)  # typed again meanwhile: a newer task runs
            self.publish(self.documents.apply(uri, text, result))
        self._pending.pop(uri, None)
        return self.documents.get(uri)

    async def current(self, uri: str) -> Document:
        """The document as the client has it now: a request does not wait for the
        typing pause (incremental extraction makes re-extracting now cheap)."""
        pending = self._pending.pop(uri, None)
        if pending is not None and not pending.done():
            pending.cancel()
        if uri not in self.workspace.text_documents:
            return self.documents.get(uri)  # raises "not open" with what to do
        return self.refresh(uri)

    def publish(self, doc: Document) -> None:
        assessments = {b.id: self.documents.assess(b) for b in doc.blocks}
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=doc.uri,
                diagnostics=diagnostics.diagnostics_for(
                    doc,
                    assessments,
                    self.encoding,
                    RiskLevel.from_label(self.settings.diagnostics.minimum_level),
                ),
            )
        )

    def block_changed(
        self, uri: str, block: CommandBlock, result: CommandResult | None = None
    ) -> None:
        params: dict[str, Any] = {"uri": uri, "blockId": block.id, "status": block.status.value}
        if result is not None:
            params["exitCode"] = result.exit_code
            params["durationMs"] = result.duration_ms
        self.protocol.notify("aintern/blockStatus", params)
        if result is not None and block.expected_output is not None:
            with contextlib.suppress(AInternError):  # a console fence: drift diagnostic
                self.publish(self.documents.get(uri))
        if self.client_refreshes_lenses:
            self.workspace_code_lens_refresh(None)

    # -- cancellation and progress -----------------------------------------------------

    def on_request_cancelled(self, hook: Callable[[], object]) -> Callable[[], None]:
        """Call `hook` if the client cancels the request being handled now."""
        msg_id = self.protocol.msg_id
        if msg_id is None:
            return lambda: None
        hooks = self.protocol.cancel_hooks.setdefault(msg_id, [])
        hooks.append(hook)

        def remove() -> None:
            if hook in hooks:
                hooks.remove(hook)
            if not hooks:
                self.protocol.cancel_hooks.pop(msg_id, None)

        return remove

    async def begin_progress(self, block: CommandBlock) -> str | None:
        if not self.client_has_progress:
            return None
        token = f"aintern-{uuid.uuid4()}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # the client refused: run without progress
            return None
        self.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="aintern: running", message=block.display_summary(), cancellable=False
            ),
        )
        return token

    def report_progress(self, token: str | None, message: str) -> None:
        if token is not None:
            self.work_done_progress.report(token, types.WorkDoneProgressReport(message=message))

    def end_progress(self, token: str | None, message: str) -> None:
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))


def build_server() -> AInternServer:
    server = AInternServer()

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

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def on_open(ls: AInternServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: AInternServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.refresh_soon(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def on_close(ls: AInternServer, params: types.DidCloseTextDocumentParams) -> None:
        pending = ls._pending.pop(params.text_document.uri, None)
        if pending is not None:
            pending.cancel()
        ls.documents.close(params.text_document.uri)
        forget(params.text_document.uri)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def on_code_lens(ls: AInternServer, params: types.CodeLensParams) -> RawJSON:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return RawJSON("[]")
        unstructure = ls.protocol._converter.unstructure
        return RawJSON(code_lens.lenses_json(doc, ls.documents.assess, unstructure))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: AInternServer, params: types.HoverParams) -> types.Hover | None:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return None
        line = params.position.line
        for block in doc.blocks:
            if block.start_line <= line <= block.end_line:
                a = ls.documents.assess(block)
                parts = [f"**{a.level.label}** · `{block.shell_type or block.language}`"]
                if block.role:
                    parts.append(f"suggested by {block.role}")
                parts += [f"- {f.level.label} `{f.rule}`: {f.reason}" for f in a.findings]
                result = doc.last_results.get(block.id)
                title = code_lens.status_title(block, result)
                if title:
                    parts.append(title)
                drift = diagnostics.output_drift(doc, block)
                if drift:
                    parts.append(f"Output differs from the fence:\n\n```diff\n{drift}\n```")
                return types.Hover(
                    contents=types.MarkupContent(
                        kind=types.MarkupKind.Markdown, value="\n\n".join(parts)
                    )
                )
        return None

    commands.register(server)
    terminals.register(server)
    capture.register(server)
    run_input.register(server)
    output_block.register(server)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server until the client says exit or closes the stream."""
    server = build_server()
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
