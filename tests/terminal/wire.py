"""A raw LSP client over the real server's stdio, for tests that must send what no
well-behaved client library would (broken headers, random bytes) and watch the process.

Every call has a deadline; `close()` always ends the process (kill after a grace).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "aintern_ls", "--stdio"]
_HEADER = re.compile(rb"Content-Length: *(\d+)\r\n", re.IGNORECASE)


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class WireServer:
    def __init__(self, cwd: Path, extra_env: dict[str, str] | None = None) -> None:
        env = dict(os.environ)
        env.update(extra_env or {})
        self.proc = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(cwd / "server-stderr.log", "ab"),  # noqa: SIM115 - closed by close()
            cwd=cwd,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.raw = bytearray()
        self._next_id = 1000
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._pending: list[dict[str, Any]] = []

    def _read(self) -> None:
        assert self.proc.stdout is not None
        buf = b""
        while True:
            chunk = self.proc.stdout.read1(65536)
            if not chunk:
                self.messages.put(None)
                return
            self.raw.extend(chunk)
            buf += chunk
            while True:
                end = buf.find(b"\r\n\r\n")
                if end < 0:
                    break
                match = _HEADER.search(buf[: end + 2])
                if match is None:
                    buf = buf[end + 4 :]
                    continue
                length = int(match.group(1))
                if len(buf) < end + 4 + length:
                    break
                body = buf[end + 4 : end + 4 + length]
                buf = buf[end + 4 + length :]
                self.messages.put(json.loads(body))

    # -- sending ------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> bool:
        """Write bytes; False if the server no longer reads."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def send(self, message: dict[str, Any]) -> bool:
        return self.send_raw(frame(message))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- receiving ----------------------------------------------------------------------

    def next_message(self, timeout: float) -> dict[str, Any] | None:
        """The next message from the server; None on EOF; TimeoutError after `timeout`."""
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the server within {timeout} s") from None

    def wait_response(self, msg_id: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The response to `msg_id`, answering server requests (configuration, progress)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no response to {msg_id!r} within {timeout} s")
            message = self.next_message(remaining)
            if message is None:
                raise EOFError(f"server closed its output before answering {msg_id!r}")
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == msg_id and "method" not in message:
                return message
            self._pending.append(message)

    def errors_without_id(self, timeout: float) -> list[dict[str, Any]]:
        """Error responses with `id: null` that arrive within `timeout`."""
        found = [m for m in self._pending if "error" in m and m.get("id") is None]
        self._pending = [m for m in self._pending if m not in found]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.next_message(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            if message is None:
                break
            if "error" in message and message.get("id") is None:
                found.append(message)
            else:
                self._pending.append(message)
        return found

    def request(self, method: str, params: Any = None, timeout: float = 20.0) -> dict[str, Any]:
        msg_id = self.request_id()
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.wait_response(msg_id, timeout)

    def initialize(self, root: Path, options: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": {},
                "initializationOptions": {"aintern": options or {}},
            },
        )
        self.notify("initialized", {})
        return response

    def close(self) -> int | None:
        """Ask politely (shutdown + exit), then kill; return the exit code."""
        if self.proc.poll() is None:
            with contextlib.suppress(Exception):
                msg_id = self.request_id()
                self.send({"jsonrpc": "2.0", "id": msg_id, "method": "shutdown"})
                self.wait_response(msg_id, timeout=5)
            self.notify("exit")
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(Exception):
                assert stream is not None
                stream.close()
        return self.proc.returncode
