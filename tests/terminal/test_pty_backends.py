"""The `Pty` backends and the reader: the pywinpty backend against a fake `winpty`
module, the bounded reader thread, and writes that never block the loop."""

from __future__ import annotations

import asyncio
import sys
import threading
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from aintern_ls.terminal import pty as pty_module
from aintern_ls.terminal.pty import ExitStatus, PtyProcessBackend, WinPtyBackend, spawn_pty
from aintern_ls.terminal.reader import PtyStream


class FakeWinPtyProcess:
    """Enough of pywinpty's `PtyProcess` (str in, str out) to drive the backend."""

    spawned: ClassVar[list[FakeWinPtyProcess]] = []

    def __init__(self, argv: Any, cwd: str, env: dict[str, str], dimensions: tuple[int, int]):
        self.argv, self.cwd, self.env, self.dimensions = argv, cwd, env, dimensions
        self.pid = 4242
        self.output = ["", "héllo ", "wörld\r\n"]  # "" = idle, non-blocking build
        self.written: list[str] = []
        self.alive = True
        self.exitstatus: int | None = None
        self.closed = False

    @classmethod
    def spawn(cls, argv: Any, cwd: str, env: dict[str, str], dimensions: tuple[int, int]) -> Any:
        proc = cls(argv, cwd, env, dimensions)
        cls.spawned.append(proc)
        return proc

    def read(self, size: int) -> str:
        if self.output:
            return self.output.pop(0)
        self.alive = False
        self.exitstatus = 3
        raise EOFError

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def setwinsize(self, rows: int, cols: int) -> None:
        self.dimensions = (rows, cols)

    def isalive(self) -> bool:
        return self.alive

    def close(self, force: bool = False) -> None:
        self.closed = True


@pytest.fixture
def fake_winpty(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakeWinPtyProcess]]:
    module = types.ModuleType("winpty")
    module.PtyProcess = FakeWinPtyProcess  # type: ignore[attr-defined]
    FakeWinPtyProcess.spawned = []
    monkeypatch.setitem(sys.modules, "winpty", module)
    yield FakeWinPtyProcess


def test_winpty_backend_spawns_reads_writes_and_reports_exit(
    fake_winpty: type[FakeWinPtyProcess],
) -> None:
    backend = WinPtyBackend.spawn(["pwsh", "-NoLogo"], "C:\\work", {"A": "1"}, cols=100, rows=40)
    [proc] = fake_winpty.spawned
    assert proc.argv == ["pwsh", "-NoLogo"] and proc.cwd == "C:\\work"
    assert proc.dimensions == (40, 100)
    assert backend.pid == 4242
    data = backend.read(1024) + backend.read(1024)
    assert data.decode("utf-8") == "héllo wörld\r\n"
    assert backend.poll() is None
    with pytest.raises(EOFError):
        backend.read(1024)
    assert backend.poll() == ExitStatus(exit_code=3, signal=None)
    backend.write(b"ls\r")
    assert proc.written == ["ls\r"]
    backend.resize(90, 20)
    assert proc.dimensions == (20, 90)
    assert backend.foreground_process_group() is None
    backend.close()
    assert proc.closed


def test_spawn_pty_picks_the_windows_backend_on_windows(
    fake_winpty: type[FakeWinPtyProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pty_module.sys, "platform", "win32")
    assert isinstance(spawn_pty(["cmd.exe"], "C:\\", {}), WinPtyBackend)


async def test_winpty_output_streams_through_the_reader(
    fake_winpty: type[FakeWinPtyProcess],
) -> None:
    backend = WinPtyBackend.spawn(["cmd.exe"], "C:\\", {})
    stream = PtyStream(backend, asyncio.get_running_loop())
    stream.start()
    received = b""
    while data := await stream.read():
        received += data
    assert received.decode() == "héllo wörld\r\n"


def test_posix_backend_is_ptyprocess_with_its_own_group() -> None:
    import os

    backend = spawn_pty(["sh", "-c", "exit 4"], "/", dict(os.environ))
    assert isinstance(backend, PtyProcessBackend)
    assert os.getpgid(backend.pid) == backend.pid
    while (status := backend.poll()) is None:
        threading.Event().wait(0.01)
    assert status == ExitStatus(exit_code=4, signal=None)
    backend.close()


class EndlessPty:
    """Produces 64 KiB chunks forever; its writes block until released."""

    pid = 0

    def __init__(self) -> None:
        self.release_writes = threading.Event()
        self.writes: list[bytes] = []
        self.stop = threading.Event()

    def read(self, size: int) -> bytes:
        if self.stop.is_set():
            raise EOFError
        return b"x" * size

    def readable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:
        self.release_writes.wait(10)
        self.writes.append(data)
        return len(data)

    def resize(self, cols: int, rows: int) -> None: ...

    def poll(self) -> ExitStatus | None:
        return None

    def foreground_process_group(self) -> int | None:
        return None

    def close(self) -> None: ...


async def test_reader_buffer_is_bounded_when_the_loop_does_not_keep_up() -> None:
    fake = EndlessPty()
    limit = 256 * 1024
    stream = PtyStream(fake, asyncio.get_running_loop(), max_buffered_bytes=limit)
    stream.start()
    await asyncio.sleep(0.2)  # the consumer is "slow": nothing is read meanwhile
    assert limit <= stream.buffered_bytes < limit + 64 * 1024
    batch = await stream.read()
    assert len(batch) >= limit
    stream.stop()
    fake.stop.set()


async def test_writes_do_not_block_the_loop_when_the_child_does_not_read() -> None:
    fake = EndlessPty()
    fake.stop.set()
    stream = PtyStream(fake, asyncio.get_running_loop())
    stream.start()
    stream.write(b"first")  # the fake blocks this write until released
    stream.write(b"second")
    assert fake.writes == []
    fake.release_writes.set()
    for _ in range(100):
        if len(fake.writes) == 2:
            break
        await asyncio.sleep(0.01)
    assert fake.writes == [b"first", b"second"]
    stream.stop()
