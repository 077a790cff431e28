"""The pygls language server class and its long-lived state. Imports no feature.

`aintern_ls.app` builds the server: it creates an `AInternServer` and calls each
feature module's `register(server)` (`aintern_ls.features.*`). Features reach the
services through the server's attributes (`documents`, `runner`, `terminals`,
`captures`, `history`, `settings`) and the helpers here: keeping documents current
off the event loop, `confirm` (ask a person), progress, cancellation hooks and
`run_task` for server-owned asyncio tasks. This module also gets the protocol right:
shutdown while requests are in flight, and `$/cancelRequest` on a running command.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import uuid
from collections.abc import Callable, Coroutine, Generator, Iterator
from typing import Any, TypeVar, cast
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from aintern_ls import __version__, extraction, text_sync
from aintern_ls.capture import CaptureService
from aintern_ls.config import Settings, load_settings
from aintern_ls.documents import Document, DocumentStore
from aintern_ls.errors import AInternError
from aintern_ls.history import History
from aintern_ls.models import CommandBlock, CommandResult
from aintern_ls.positions import Encoding
from aintern_ls.safety import gate, stack
from aintern_ls.terminal.runner import Runner
from aintern_ls.terminal.session import CommandRecord, TerminalManager

log = logging.getLogger(__name__)

T = TypeVar("T")

REFRESH_DELAY_SECONDS = 0.15
RUN_ANYWAY = "Run anyway"


class AInternProtocol(LanguageServerProtocol):
    """pygls' protocol with three fixes.

    - Shutdown: pygls 2.1 cancels pending requests while iterating over the live
      `_request_futures` dict; a cancelled request's done-callback removes itself
      from it ("dictionary changed size during iteration"). Iterate over a copy.
    - `$/cancelRequest` on `workspace/executeCommand` cancels only pygls' outer
      future, not our coroutine; handlers register a hook to stop their run.
    - `didOpen` and `didChange` on a huge document: see `text_sync`.
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

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """pygls' handler; a huge document is held as a `Rope` (see `text_sync`)."""
        self.workspace.put_text_document(params.text_document)
        doc = self.workspace.text_documents.get(unquote(params.text_document.uri))
        if doc is not None:
            text_sync.adopt(doc)
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield user_handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """pygls' handler, with edits applied by `text_sync` (pygls rebuilds the whole
        text line by line for every keystroke)."""
        for change in params.content_changes:
            text_sync.apply_change(self.workspace, params.text_document, change)
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(
        self, params: types.ExecuteCommandParams
    ) -> Generator[Any, Any, Any]:
        """pygls' handler; lens arguments name their block only (`{blockId, level, …}`,
        the URI is not repeated in every lens): the document is looked up here."""
        args = params.arguments
        if args and isinstance(args[0], dict) and "uri" not in args[0]:
            block_id = args[0].get("blockId")
            if isinstance(block_id, str):
                uri = cast("AInternServer", self._server).documents.uri_of_block(block_id)
                if uri is None:
                    raise JsonRpcInvalidParams(
                        f"no open document has the command block {block_id!r} (it may have "
                        "been edited away, or its document closed); pass the document's uri"
                    )
                params.arguments = [{"uri": uri, **args[0]}, *args[1:]]
        return (yield from super().lsp_workspace__execute_command(params))

    def _send_data(self, data: Any) -> None:
        """A result or notification params already encoded (`RawJSON`) go as they are."""
        result = getattr(data, "result", None)
        params = getattr(data, "params", None)
        if isinstance(params, RawJSONStream) and self.writer is not None:
            result = params  # a notification's params, streamed the same way
            method = json.dumps(data.method)
            opening = f'{{"method": {method}, "jsonrpc": "2.0", "params": '.encode()
        elif isinstance(result, RawJSONStream) and self.writer is not None:
            opening = f'{{"id": {json.dumps(data.id)}, "jsonrpc": "2.0", "result": '.encode()
        if isinstance(result, RawJSONStream) and self.writer is not None:
            length = len(opening) + result.length + 1
            header = (
                f"Content-Length: {length}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            ).encode()
            # Written slice by slice with nothing in between (every write happens on the
            # event loop's thread): the whole message is never in memory at once.
            written = len(opening) + 1
            first = header + opening if self._include_headers else opening
            for chunk in result.chunks():
                written += len(chunk)
                self._write(first + chunk if first else chunk)
                first = b""
            self._write(first + b"}")
            if written != length:  # a bug: the client reads past this message now
                log.error("a streamed answer was %d bytes, not the %d announced", written, length)
            return
        if isinstance(result, RawJSON):
            head, raw = f'{{"id": {json.dumps(data.id)}, "jsonrpc": "2.0", "result": ', result
        elif isinstance(params, RawJSON):
            method = json.dumps(data.method)
            head, raw = f'{{"method": {method}, "jsonrpc": "2.0", "params": ', params
        else:
            super()._send_data(data)
            return
        if self.writer is None:
            super()._send_data(data)  # (logs that there is no transport)
            return
        body = b"".join((head.encode(), raw.encode(), b"}"))
        header = (
            f"Content-Length: {len(body)}\r\n"
            f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        ).encode()
        self._write(header + body if self._include_headers else body)

    def _write(self, message: bytes) -> None:
        assert self.writer is not None
        written = self.writer.write(message)
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


class RawJSONStream:
    """A response result (or notification params) that is JSON text made in slices:
    `chunks()` yields its UTF-8 bytes, exactly `length` of them in all (announced before
    the first is made). A code lens answer or a diagnostics notification of many
    megabytes then never exists as one string."""

    def __init__(self, length: int, chunks: Callable[[], Iterator[bytes]]) -> None:
        self.length = length
        self.chunks = chunks

    @classmethod
    def of_text(cls, text: str) -> RawJSONStream:
        data = text.encode()
        return cls(len(data), lambda: iter([data]))

    @classmethod
    def of_parts(cls, parts: list[str], slice_chars: int = 1 << 20) -> RawJSONStream:
        """`"".join(parts)` (JSON text), encoded a slice of about `slice_chars` at a time."""

        def chunks() -> Iterator[bytes]:
            batch: list[str] = []
            size = 0
            for part in parts:
                batch.append(part)
                size += len(part)
                if size >= slice_chars:
                    yield "".join(batch).encode()
                    batch, size = [], 0
            if batch:
                yield "".join(batch).encode()

        length = sum(len(p) if p.isascii() else len(p.encode()) for p in parts)
        return cls(length, chunks)


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
        self._pending: dict[str, asyncio.Task[Document | None]] = {}
        self._hurry: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._document_listeners: list[Callable[[Document], None]] = []
        self.captures = CaptureService(self.settings.capture)
        self.terminals = TerminalManager(
            on_output=self._terminal_output, on_exit=self._terminal_exit
        )
        self.terminals.on_command = self._terminal_command
        self.add_cleanup(self.runner.cancel_all)
        self.add_cleanup(lambda: self.history.close())

    def _terminal_output(self, terminal_id: str, data: str) -> None:
        # the session already coalesces output (see terminal.session.OUTPUT_MAX_CHARS)
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

    def run_task(self, coro: Coroutine[Any, Any, T], name: str | None = None) -> asyncio.Task[T]:
        """Start a server-owned task: keep a reference until it ends, log if it fails."""
        task = asyncio.ensure_future(coro)
        if name:
            task.set_name(name)
        self._tasks.add(task)

        def done(t: asyncio.Task[T]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and (exc := t.exception()) is not None:
                log.error("task %s failed", t.get_name(), exc_info=exc)

        task.add_done_callback(done)
        return task

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
    def confirmation(self) -> gate.Confirmation:
        """How an unconfirmed request stands: a person can be asked, or nobody can."""
        return gate.Confirmation.CAN_ASK if self.client_can_ask else gate.Confirmation.NONE

    async def confirm(self, message: str) -> bool:
        """Ask the person with `window/showMessageRequest`: True for "Run anyway"."""
        answer = await self.window_show_message_request_async(
            types.ShowMessageRequestParams(
                type=types.MessageType.Warning,
                message=message,
                actions=[
                    types.MessageActionItem(title=RUN_ANYWAY),
                    types.MessageActionItem(title="Cancel"),
                ],
            )
        )
        return answer is not None and answer.title == RUN_ANYWAY

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
        self.documents.rules = gate.rules_from(safety)
        for problem in problems:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
            )
        for doc in self.documents:
            self.run_task(self._republish(doc), name=f"republish {doc.uri}")

    def record(self, what: str, **fields: Any) -> Any:
        """Write to the history (`run`, `started`, `finished` or `decision`); a broken
        database is reported once, never fatal (None is returned then)."""
        try:
            if what == "run":
                return self.history.record_result(**fields)
            if what == "started":
                return self.history.record_started(**fields)
            if what == "finished":
                return self.history.finish_run(**fields)
            return self.history.record_decision(**fields)
        except AInternError as exc:
            log.warning("history: %s", exc)
            if not self._history_broken:
                self._history_broken = True
                self.window_show_message(
                    types.ShowMessageParams(type=types.MessageType.Warning, message=str(exc))
                )

    # -- documents -----------------------------------------------------------------------
    #
    # Extraction and assessment run in a worker thread (`documents.analyse`): a big
    # document, on open as on change, never holds up other requests. The analyser caps
    # each command's size, so a worker never holds the interpreter for long either.

    def is_open(self, uri: str) -> bool:
        """True while the client has `uri` open (pygls keys documents by unquoted URI)."""
        return unquote(uri) in self.workspace.text_documents

    def on_document(self, listener: Callable[[Document], None]) -> None:
        """Call `listener` whenever a document's blocks or their assessments change
        (the diagnostics feature publishes from here)."""
        self._document_listeners.append(listener)

    def publish(self, doc: Document) -> None:
        """Tell every document listener that `doc` changed."""
        for listener in list(self._document_listeners):
            try:
                listener(doc)
            except Exception:  # one failing listener must not starve the others
                log.exception("document listener failed for %s", doc.uri)

    def refresh(self, uri: str) -> Document:
        """Extract the document now, on the calling thread (tests and fallbacks)."""
        text = text_sync.source_of(self.workspace.get_text_document(uri))
        if self.documents.is_current(uri, text):
            return self.documents.get(uri)
        doc = self.documents.update(uri, text)
        self.publish(doc)
        return doc

    def refresh_soon(self, uri: str, delay: float = REFRESH_DELAY_SECONDS) -> None:
        """Re-extract after `delay` (typing pauses), off the event loop."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        # Set before the task first runs: a request right behind the edit (`current`)
        # must find it, or it waits out the whole pause.
        hurry = self._hurry[uri] = asyncio.Event()
        self._pending[uri] = self.run_task(
            self._refresh_later(uri, delay, hurry), name=f"refresh {uri}"
        )

    async def _refresh_later(self, uri: str, delay: float, hurry: asyncio.Event) -> Document | None:
        try:
            if delay > 0:
                # Typing pauses: wait, unless a request needs the document now (`current`).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(hurry.wait(), delay)
            text = text_sync.source_of(self.workspace.get_text_document(uri))
            if not self.documents.is_current(uri, text):
                loop = asyncio.get_running_loop()
                # The worker analyses every fence on one roomy stack chunk (`safety.stack`):
                # no fence's cost depends on how deep the executor's call path is.
                result = await loop.run_in_executor(
                    None, stack.reserved, self.documents.analyse, text, uri
                )
                if not self.is_open(uri):
                    return None  # closed meanwhile
                if text_sync.source_of(self.workspace.get_text_document(uri)) != text:
                    return None  # typed again meanwhile: a newer task runs
                self.publish(self.documents.apply(uri, text, result))
            return self.documents.get_or_none(uri)
        finally:
            if self._hurry.get(uri) is hurry:
                self._hurry.pop(uri, None)
            if self._pending.get(uri) is asyncio.current_task():
                self._pending.pop(uri, None)

    async def _republish(self, doc: Document) -> None:
        """Assess `doc` again with new rules (in a worker), then publish it."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(
            None, stack.reserved, self.documents.assessments.warm, doc.blocks
        )
        if self.documents.get_or_none(doc.uri) is doc:
            self.publish(doc)

    async def current(self, uri: str) -> Document:
        """The document as the client has it now, extracted off the event loop."""
        for _ in range(20):
            pending = self._pending.get(uri)
            if pending is not None and not pending.done():
                if (hurry := self._hurry.get(uri)) is not None:
                    hurry.set()  # no need to wait for typing to pause
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.shield(pending)
                continue
            if not self.is_open(uri):
                return self.documents.get(uri)  # raises "not open" with what to do
            text = text_sync.source_of(self.workspace.get_text_document(uri))
            if self.documents.is_current(uri, text):
                return self.documents.get(uri)
            self.refresh_soon(uri, delay=0)
        return self.refresh(uri)  # the client keeps typing: extract here, once

    def run_directory(self, doc: Document) -> str | None:
        """Where a document's blocks run by default: its folder; a document that is no
        file (an AI chat buffer such as `aichat://…`) runs in the workspace root."""
        if doc.directory is not None:
            return doc.directory
        root = self.workspace.root_path if self.workspace is not None else None
        return str(root) if root else None

    def forget(self, uri: str) -> None:
        """The client closed `uri`: drop its blocks (running ones stay cancellable)."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self.documents.close(uri)
        extraction.forget(uri)  # what incremental extraction kept of it

    def block_changed(
        self, uri: str, block: CommandBlock, result: CommandResult | None = None
    ) -> None:
        params: dict[str, Any] = {"uri": uri, "blockId": block.id, "status": block.status.value}
        if result is not None:
            params["exitCode"] = result.exit_code
            params["durationMs"] = result.duration_ms
        self.protocol.notify("aintern/blockStatus", params)
        if result is not None and block.expected_output is not None:
            doc = self.documents.get_or_none(uri)
            if doc is not None:  # a console fence: its output-drift diagnostic
                self.publish(doc)
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
