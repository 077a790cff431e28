"""A hardened LSP reader under pygls: bounded frames, clear errors, resynchronisation.

pygls' own stdio loop trusts the header: a negative, non-numeric or too-short
`Content-Length` leaves it deaf for good (the next header ends up glued to a body it
skips), a huge one makes it allocate the whole body (`MemoryError`), and a line without
a newline is read whole. Here:

- `FrameParser` is pure (bytes in, events out) and never holds more than one frame
  (`max_frame_bytes`, 64 MiB by default) plus one header line (8 KiB).
- A malformed header answers a JSON-RPC error (`id: null`, -32700) once, then the parser
  skips input up to the next `Content-Length:` (anywhere, also glued to garbage) and
  carries on from there.
- A body that is not JSON answers -32700; JSON that is not a JSON-RPC message answers
  -32600, with the request's id when it has one, so no client waits forever.

`serve_stdio(server)` replaces `server.start_io()` and `serve_tcp(server, host, port)`
`server.start_tcp()`; end of input ends the server as before. The limit comes from
`AINTERN_LS_MAX_FRAME_BYTES` when set.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import re
import stat
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, BinaryIO

import attrs
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCProtocol

try:  # POSIX only
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE_BYTES = 8 * 1024
MAX_FRAME_ENV = "AINTERN_LS_MAX_FRAME_BYTES"
READ_SIZE = 64 * 1024
BIG_BODY_BYTES = 1024 * 1024
"""A body at least this big is read into a buffer of its own size."""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

_CONTENT_LENGTH = re.compile(rb"content-length:", re.IGNORECASE)
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_KEEP = len(b"content-length:") - 1


@attrs.define(eq=False)
class Frame:
    """A complete message body (`take()` hands it over: see `dispatch`)."""

    body: bytes | bytearray

    def take(self) -> bytes | bytearray:
        """The body, no longer kept here: a 50 MB `didOpen` is freed as soon as it is
        decoded."""
        body, self.body = self.body, b""
        return body


@attrs.frozen
class Malformed:
    """Input that is not a frame; `reason` is what the error reply says."""

    reason: str


class FrameParser:
    """Splits a byte stream into `Frame`s and `Malformed` events, in bounded memory."""

    def __init__(self, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> None:
        if max_frame_bytes < 1:
            raise ValueError("max_frame_bytes must be positive")
        self.max_frame_bytes = max_frame_bytes
        self._buf = bytearray()
        self._length: int | None = None  # from the current header block
        self._in_headers = False  # a header line of this block has been seen
        self._body: int | None = None  # bytes of body expected (state BODY)
        self._big: bytearray | None = None  # a big body, filled in place (state BIG)
        self._filled = 0
        self._resync = False

    @property
    def buffered(self) -> int:
        return len(self._buf) + self._filled if self._big is not None else len(self._buf)

    def feed(self, data: bytes) -> Iterator[Frame | Malformed]:
        if self._big is not None:
            # A big body is copied once, into a buffer of its exact size: no growing
            # buffer, no slice of it and no `bytes` copy of the slice.
            view = memoryview(data)
            take = min(len(view), len(self._big) - self._filled)
            self._big[self._filled : self._filled + take] = view[:take]
            self._filled += take
            if self._filled < len(self._big):
                return
            frame, self._big = Frame(self._big), None
            data = bytes(view[take:])
            del view
            yield frame  # (whoever takes its body frees it: nothing else holds it)
        self._buf += data
        while True:
            if self._body is not None:
                if len(self._buf) < self._body:
                    if self._body >= BIG_BODY_BYTES:
                        self._big = bytearray(self._body)
                        self._big[: len(self._buf)] = self._buf
                        self._filled = len(self._buf)
                        self._buf = bytearray()
                        self._body = None
                    return
                with memoryview(self._buf) as view:
                    body = bytes(view[: self._body])
                del self._buf[: self._body]
                self._body = None
                yield Frame(body)
                continue
            if self._resync:
                match = _CONTENT_LENGTH.search(self._buf)
                if match is None:
                    # Keep a tail that could be the start of a split "Content-Length:".
                    del self._buf[: max(0, len(self._buf) - _KEEP)]
                    return
                del self._buf[: match.start()]
                self._resync = False
                self._reset_headers()
            newline = self._buf.find(b"\n")
            if newline < 0:
                if len(self._buf) > MAX_HEADER_LINE_BYTES:
                    yield self._malformed(
                        f"header line longer than {MAX_HEADER_LINE_BYTES} bytes", skip=1
                    )
                    continue
                return
            line = bytes(self._buf[:newline]).rstrip(b"\r")
            if newline > MAX_HEADER_LINE_BYTES:
                yield self._malformed(
                    f"header line longer than {MAX_HEADER_LINE_BYTES} bytes", skip=1
                )
                continue
            if not line:
                del self._buf[: newline + 1]
                if not self._in_headers:
                    continue  # a stray blank line between frames
                length = self._length
                self._reset_headers()
                if length is None:
                    yield Malformed("header block without Content-Length")
                    continue
                self._body = length
                continue
            event = self._header(line)
            if event is not None:
                yield event
                continue
            del self._buf[: newline + 1]

    def _header(self, line: bytes) -> Malformed | None:
        """Take one header line; a Malformed event (parser now resyncing) if it is bad."""
        name, colon, value = line.partition(b":")
        if not colon or not _TOKEN.fullmatch(name):
            return self._malformed(f"not a header line: {_show(line)}", skip=1)
        self._in_headers = True
        if name.lower() != b"content-length":
            return None  # Content-Type and friends: ignored
        text = value.strip()
        if not text.isdigit() or not text.isascii():
            return self._malformed(f"Content-Length is not a number: {_show(text)}", skip=1)
        if len(text) > 20 or int(text) > self.max_frame_bytes:
            return self._malformed(
                f"Content-Length {_show(text)} exceeds the limit of {self.max_frame_bytes} bytes",
                skip=1,
            )
        if int(text) == 0:
            return self._malformed("Content-Length is 0: a message cannot be empty", skip=1)
        self._length = int(text)
        return None

    def _malformed(self, reason: str, *, skip: int) -> Malformed:
        # Skip at least one byte, so the "Content-Length:" that started this line is not
        # found again; one glued further on (`...}Content-Length: 52`) still is.
        del self._buf[:skip]
        self._resync = True
        self._reset_headers()
        return Malformed(reason)

    def _reset_headers(self) -> None:
        self._length = None
        self._in_headers = False


def _show(data: bytes, limit: int = 60) -> str:
    text = data[:limit].decode("utf-8", "replace")
    return repr(text) + ("…" if len(data) > limit else "")


def max_frame_bytes_from_env() -> int:
    raw = os.environ.get(MAX_FRAME_ENV, "")
    if raw.strip().isdigit() and int(raw) > 0:
        return int(raw)
    return DEFAULT_MAX_FRAME_BYTES


# -- dispatch -----------------------------------------------------------------------------


def error_message(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def dispatch(protocol: JsonRPCProtocol, body: bytes | Frame) -> int | str | None:
    """Hand one body to pygls, answering what pygls would drop without a reply; return
    the id of a request pygls now handles (None otherwise).

    The body is parsed once, and a `Frame`'s bytes are freed once decoded: a 50 MB
    `didOpen` costs its bytes, then its decoded text, then the document's text, never
    all of them at once (nor twice parsed)."""
    try:
        text = (body.take() if isinstance(body, Frame) else body).decode("utf-8")
        plain = json.loads(text)
        del text
    except (ValueError, RecursionError) as exc:
        _reply(protocol, error_message(None, PARSE_ERROR, f"Parse error: body is not JSON ({exc})"))
        return None
    msg_id = plain.get("id") if isinstance(plain, dict) else None
    if not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
        msg_id = None
    problem = _shape_problem(plain)
    if problem is not None:
        _reply(protocol, error_message(msg_id, INVALID_REQUEST, f"Invalid Request: {problem}"))
        return None
    if getattr(protocol, "_shutdown", False) and plain.get("method") != "exit":
        # pygls drops everything after `shutdown` silently; a request still gets an answer.
        if "method" in plain and "id" in plain:
            _reply(protocol, error_message(msg_id, INVALID_REQUEST, "the server is shutting down"))
        return None
    try:
        message = _with_hook(plain, protocol.structure_message)
    except Exception as exc:
        code = getattr(exc, "code", INVALID_REQUEST)
        text = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        log.warning("unstructurable message: %s", text)
        if isinstance(plain, dict) and "method" in plain and "id" in plain:
            _reply(protocol, error_message(msg_id, code, f"Invalid params: {text}"))
        return None
    try:
        protocol.handle_message(message)
    except Exception:
        log.exception("error while handling a message")
        if isinstance(plain, dict) and "method" in plain and "id" in plain:
            _reply(protocol, error_message(msg_id, -32603, "Internal error handling the request"))
        return None
    return msg_id if "method" in plain else None


def _with_hook(value: Any, hook: Callable[[dict[str, Any]], Any]) -> Any:
    """`value` as `json.loads(..., object_hook=hook)` would have made it: every object
    handed to `hook`, innermost first (strings are shared, not copied)."""
    if isinstance(value, dict):
        return hook({key: _with_hook(item, hook) for key, item in value.items()})
    if isinstance(value, list):
        return [_with_hook(item, hook) for item in value]
    return value


def _shape_problem(plain: Any) -> str | None:
    if not isinstance(plain, dict):
        return f"a JSON-RPC message is an object, got {type(plain).__name__}"
    if plain.get("jsonrpc") != "2.0":
        return '"jsonrpc" must be "2.0"'
    if "method" in plain:
        if not isinstance(plain["method"], str):
            return '"method" must be a string'
        if "params" in plain and not isinstance(plain["params"], (dict, list, type(None))):
            return '"params" must be an object or an array'
    elif "id" not in plain:
        return 'a message needs a "method" or an "id"'
    if "id" in plain and not (
        plain["id"] is None
        or isinstance(plain["id"], str)
        or (isinstance(plain["id"], int) and not isinstance(plain["id"], bool))
    ):
        return '"id" must be a number or a string'
    return None


def _reply(protocol: JsonRPCProtocol, message: dict[str, Any]) -> None:
    try:
        protocol._send_data(message)
    except Exception:
        log.exception("could not send an error reply")


# -- the stdio loop ------------------------------------------------------------------------


async def read_loop(
    stop_event: threading.Event,
    stdin: BinaryIO,
    protocol: JsonRPCProtocol,
    max_frame_bytes: int,
) -> None:
    """Read stdin in bounded chunks and dispatch every complete frame.

    The reading happens on a daemon thread of its own (not an executor: a thread blocked
    in `read` must not keep the interpreter from exiting after `exit`), at most a few
    chunks ahead of the parser.
    """
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=4)
    thread = threading.Thread(
        target=_pump_stdin, args=(stdin, loop, chunks, stop_event), name="lsp-stdin", daemon=True
    )
    thread.start()
    await process_stream(chunks.get, protocol, stop_event, max_frame_bytes)


async def process_stream(
    read_chunk: Callable[[], Awaitable[bytes]],
    protocol: JsonRPCProtocol,
    stop_event: threading.Event,
    max_frame_bytes: int,
) -> None:
    """Parse chunks from `read_chunk` (b"" at end of input) and dispatch every frame."""
    parser = FrameParser(max_frame_bytes)
    incoming: list[int | str] = []  # ids of the latest requests from the client
    while not stop_event.is_set():
        data = await read_chunk()
        if not data:
            break
        for event in parser.feed(data):
            if isinstance(event, Frame):
                if _is_exit(event.body):
                    # `shutdown` then `exit` in one read: answer what is in flight first.
                    await _drain(protocol, incoming, EXIT_DRAIN_SECONDS)
                msg_id = dispatch(protocol, event)
                if msg_id is not None:
                    incoming.append(msg_id)
                    del incoming[:-64]
            else:
                log.warning("malformed LSP input: %s", event.reason)
                _reply(protocol, error_message(None, PARSE_ERROR, f"Parse error: {event.reason}"))
            # Let handlers scheduled by this message start before the next one.
            await asyncio.sleep(0)


EXIT_DRAIN_SECONDS = 3.0


def _is_exit(body: bytes | bytearray) -> bool:
    if len(body) > 4096 or b'"exit"' not in body:
        return False
    try:
        message = json.loads(body)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("method") == "exit"


async def _drain(protocol: JsonRPCProtocol, ids: list[int | str], timeout: float) -> None:
    """Wait (bounded) until none of the client's requests `ids` is being handled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    futures = getattr(protocol, "_request_futures", {})
    while any(i in futures for i in ids) and loop.time() < deadline:
        await asyncio.sleep(0.01)


def _pump_stdin(
    stdin: BinaryIO,
    loop: asyncio.AbstractEventLoop,
    chunks: asyncio.Queue[bytes],
    stop_event: threading.Event,
) -> None:
    # The raw descriptor, not the buffered reader: a daemon thread blocked inside
    # BufferedReader.read holds its lock, and interpreter shutdown then aborts on it.
    try:
        fd = stdin.fileno()
    except (OSError, ValueError, AttributeError):
        fd = -1
    read = (lambda n: os.read(fd, n)) if fd >= 0 else getattr(stdin, "read1", stdin.read)
    while True:
        try:
            data = read(READ_SIZE)
        except (OSError, ValueError):
            data = b""
        try:
            future = asyncio.run_coroutine_threadsafe(chunks.put(data), loop)
        except RuntimeError:  # the loop is closed: the server is going away
            return
        while True:
            try:
                future.result(timeout=0.5)
                break
            except TimeoutError:
                if stop_event.is_set() or loop.is_closed():
                    future.cancel()
                    return
            except Exception:
                return
        if not data:
            return


PIPE_BYTES = 1 << 20
"""Capacity asked for the stdio pipes (Linux allows 1 MiB without privileges)."""


def widen_pipe(stream: BinaryIO) -> None:
    """Give a pipe a bigger buffer (Linux): a multi-megabyte code lens answer for a huge
    transcript then crosses in a few writes instead of a 64 KiB ping-pong with the client."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is None:
        return
    try:
        fd = stream.fileno()
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            fcntl.fcntl(fd, set_size, PIPE_BYTES)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a pipe, or the system's limit is lower: keep the default


def serve_stdio(
    server: Any,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    max_frame_bytes: int | None = None,
) -> None:
    """`server.start_io()` with the hardened reader (pygls 2.x `LanguageServer`)."""
    limit = max_frame_bytes or max_frame_bytes_from_env()
    server._stop_event = stop_event = threading.Event()
    for stream in (stdin or sys.stdin.buffer, stdout or sys.stdout.buffer):
        widen_pipe(stream)
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        asyncio.run(read_loop(stop_event, stdin or sys.stdin.buffer, server.protocol, limit))
    except BrokenPipeError:
        log.error("connection to the client is lost; shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def serve_tcp(server: Any, host: str, port: int, max_frame_bytes: int | None = None) -> None:
    """`server.start_tcp()` with the hardened reader: the server shuts down when a
    client's connection ends, as with pygls."""
    limit = max_frame_bytes or max_frame_bytes_from_env()
    server._stop_event = stop_event = threading.Event()
    listeners: list[asyncio.Server] = []

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.protocol.set_writer(writer)
        try:
            await process_stream(lambda: reader.read(READ_SIZE), server.protocol, stop_event, limit)
        finally:
            server.shutdown()
            for listener in listeners:
                listener.close()

    async def main() -> None:
        listener = await asyncio.start_server(connection, host, port)
        listeners.append(listener)
        log.info("serving LSP on %s", ", ".join(str(s.getsockname()) for s in listener.sockets))
        async with listener:
            with contextlib.suppress(asyncio.CancelledError):
                await listener.serve_forever()

    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        asyncio.run(main())
