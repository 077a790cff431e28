"""Moves bytes between a `Pty` and the asyncio loop without ever blocking the loop.

One reader thread per PTY reads into a buffer bounded in bytes; when the buffer is full the
thread waits (backpressure: the child then blocks on its own writes) instead of letting
memory grow. The loop side takes everything buffered in one go, so a fast producer costs
one wake-up per batch, not one per 4 KiB read.

An optional `sink` sees every chunk on the reader thread itself. The runner feeds its
output collector there: rendering then overlaps with the child writing the next chunk
into the kernel's buffer, instead of the reader and the loop trading the GIL on every
4 KiB read, and the event loop stays free for the language server meanwhile.

Writes go through a writer thread started on first use, because a write to a PTY
blocks while the child does not read its input.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable

from aintern_ls.terminal.pty import Pty

log = logging.getLogger(__name__)

DEFAULT_READ_SIZE = 64 * 1024
DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024


class PtyStream:
    """Async byte stream over a `Pty`: `await read()` returns the next batch, b"" at EOF."""

    def __init__(
        self,
        pty: Pty,
        loop: asyncio.AbstractEventLoop,
        *,
        max_buffered_bytes: int = DEFAULT_MAX_BUFFERED_BYTES,
        read_size: int = DEFAULT_READ_SIZE,
        name: str = "pty",
        sink: Callable[[bytes], object] | None = None,
        deliver: bool = True,
    ) -> None:
        """`sink` (run on the reader thread) sees every chunk; with `deliver=False` chunks
        are not queued for `read()`, which then only reports EOF."""
        self._pty = pty
        self._loop = loop
        self._max_buffered = max_buffered_bytes
        self._read_size = read_size
        self._name = name
        self._sink: Callable[[bytes], object] | None = sink
        self._sink_lock = threading.Lock()
        self._deliver = deliver
        self._cond = threading.Condition()
        self._chunks: list[bytes] = []
        self._buffered = 0
        self._eof = False
        self._stopped = False
        self._wake_pending = False
        self._data_ready = asyncio.Event()
        self._writes: queue.SimpleQueue[bytes | None] | None = None
        self._reader = threading.Thread(target=self._read_loop, name=f"{name}-reader", daemon=True)
        self._writer: threading.Thread | None = None

    def start(self) -> None:
        self._reader.start()

    @property
    def buffered_bytes(self) -> int:
        """Bytes read from the PTY and not yet taken by `read()`."""
        with self._cond:
            return self._buffered

    @property
    def at_eof(self) -> bool:
        with self._cond:
            return self._eof and not self._chunks

    # -- reader thread ------------------------------------------------------------------

    def _read_loop(self) -> None:
        # Chunks for the sink are batched while more output is waiting: one 4 KiB read at
        # a time, the sink's per-call cost would dominate. The batch is handed over
        # before any read that could block, so nothing waits in it while the child idles.
        batch: list[bytes] = []
        batched = 0
        while True:
            try:
                data = self._pty.read(self._read_size)
            except (EOFError, OSError, ValueError):
                break
            if self._sink is not None:
                batch.append(data)
                batched += len(data)
                if batched >= self._read_size or not self._pty.readable():
                    self._feed_sink(batch[0] if len(batch) == 1 else b"".join(batch))
                    batch.clear()
                    batched = 0
            if not self._deliver:
                continue
            with self._cond:
                while self._buffered >= self._max_buffered and not self._stopped:
                    self._cond.wait()
                if self._stopped:
                    break
                self._chunks.append(data)
                self._buffered += len(data)
                self._wake_locked()
        if batch:
            self._feed_sink(b"".join(batch))
        with self._cond:
            self._eof = True
            self._wake_locked()

    def _feed_sink(self, data: bytes) -> None:
        with self._sink_lock:
            if self._sink is None:
                return
            try:
                self._sink(data)
            except Exception:  # a broken sink must not stop the reading (backpressure)
                log.exception("%s: output sink failed; dropping it", self._name)
                self._sink = None

    def detach_sink(self) -> None:
        """Stop feeding the sink; once this returns the reader thread will not call it."""
        with self._sink_lock:
            self._sink = None

    def _wake_locked(self) -> None:
        if self._wake_pending:
            return
        self._wake_pending = True
        # The loop may already be closed when a child outlives the server; nothing to wake.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._data_ready.set)

    # -- loop side ----------------------------------------------------------------------

    async def read(self) -> bytes:
        """Everything buffered so far (waiting if nothing is), or b"" once the PTY closed."""
        while True:
            with self._cond:
                if self._chunks:
                    data = self._chunks[0] if len(self._chunks) == 1 else b"".join(self._chunks)
                    self._chunks.clear()
                    self._buffered = 0
                    self._wake_pending = False
                    self._cond.notify_all()
                    return data
                if self._eof:
                    return b""
                # Cleared under the lock, so a chunk appended after this point schedules a
                # fresh wake-up; a stale one only causes a harmless extra pass.
                self._data_ready.clear()
                self._wake_pending = False
            await self._data_ready.wait()

    def write(self, data: bytes) -> None:
        """Queue keystrokes for the child; returns at once."""
        if self._stopped or not data:
            return
        if self._writes is None:
            self._writes = queue.SimpleQueue()
            self._writer = threading.Thread(
                target=self._write_loop,
                args=(self._writes,),
                name=f"{self._name}-writer",
                daemon=True,
            )
            self._writer.start()
        self._writes.put(data)

    def _write_loop(self, writes: queue.SimpleQueue[bytes | None]) -> None:
        while True:
            data = writes.get()
            if data is None:
                return
            try:
                self._pty.write(data)
            except OSError as exc:
                log.debug("%s: write failed: %s", self._name, exc)
                return

    def stop(self) -> None:
        """Stop both threads; buffered output is dropped. Does not close the PTY."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._writes is not None:
            self._writes.put(None)
