"""Issue 13, break 7: protocol framing. A malformed header gets a JSON-RPC error and the
server answers the next valid request; a huge Content-Length is refused without
allocating it; random input never hangs the server."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aintern_ls.transport import MAX_HEADER_LINE_BYTES, Frame, FrameParser, Malformed

from .wire import WireServer, frame

VALID = {"jsonrpc": "2.0", "id": 1, "method": "x"}


def _events(parser: FrameParser, data: bytes) -> list[Frame | Malformed]:
    return list(parser.feed(data))


# -- the parser --------------------------------------------------------------------------


def test_frames_split_at_any_byte_come_out_whole() -> None:
    data = frame(VALID) + frame({"jsonrpc": "2.0", "method": "y"})
    for cut in range(len(data) + 1):
        parser = FrameParser()
        events = _events(parser, data[:cut]) + _events(parser, data[cut:])
        assert [json.loads(e.body)["jsonrpc"] for e in events if isinstance(e, Frame)] == [
            "2.0",
            "2.0",
        ]
        assert not [e for e in events if isinstance(e, Malformed)]


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        (b"Content-Length: -5\r\n\r\n", "not a number"),
        (b"Content-Length: abc\r\n\r\n", "not a number"),
        (b"Content-Length: 1000000000000\r\n\r\n", "exceeds the limit"),
        (b"Content-Length: 99999999999999999999999999999\r\n\r\n", "exceeds the limit"),
        (b"Content-Length: 0\r\n\r\n", "cannot be empty"),
        (b"Content-Type: text/plain\r\n\r\n", "without Content-Length"),
        (b"garbage without a colon\r\n\r\n", "not a header line"),
    ],
)
def test_a_malformed_header_is_reported_and_the_next_frame_is_found(
    header: bytes, reason: str
) -> None:
    parser = FrameParser(max_frame_bytes=1024 * 1024)
    events = _events(parser, header + b'{"half":' + frame(VALID))
    assert isinstance(events[0], Malformed)
    assert reason in events[0].reason
    assert isinstance(events[-1], Frame)
    assert json.loads(events[-1].body) == VALID


def test_a_too_short_content_length_loses_one_frame_not_the_stream() -> None:
    body = json.dumps(VALID).encode()
    data = b"Content-Length: %d\r\n\r\n" % (len(body) - 5) + body + frame(VALID) + frame(VALID)
    events = _events(FrameParser(), data)
    frames = [e for e in events if isinstance(e, Frame)]
    # The first (truncated) body is handed on (and will be answered as a parse error);
    # the header glued to its tail is found again.
    assert json.loads(frames[-1].body) == VALID
    assert len([f for f in frames if f.body == body]) == 2


def test_an_endless_header_line_stays_bounded() -> None:
    parser = FrameParser()
    reported = 0
    for _ in range(100):
        reported += len([e for e in parser.feed(b"x" * 65536) if isinstance(e, Malformed)])
        assert parser.buffered <= MAX_HEADER_LINE_BYTES + 65536
    assert reported >= 1
    assert isinstance(_events(parser, b"\r\n" + frame(VALID))[-1], Frame)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    garbage=st.binary(max_size=400),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=6),
)
def test_any_garbage_followed_by_frames_recovers(garbage: bytes, cuts: list[int]) -> None:
    """Whatever came before, two frames in a row (after a newline) are always found."""
    parser = FrameParser(max_frame_bytes=4096)
    data = garbage + b"\r\n\r\n" + frame(VALID) + frame(VALID)
    pieces, last = [], 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        pieces.append(data[last:cut])
        last = cut
    pieces.append(data[last:])
    frames: list[bytes] = []
    for piece in pieces:
        for event in parser.feed(piece):
            if isinstance(event, Frame):
                frames.append(event.body)
            assert parser.buffered <= 4096 + MAX_HEADER_LINE_BYTES + len(data)
    assert frames[-1] == json.dumps(VALID).encode()


# -- the real server over stdio ----------------------------------------------------------

MALFORMED = [
    b"Content-Length: -5\r\n\r\n{}",
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Length: 1000000000000\r\n\r\n",
    b"Content-Length: 3\r\n\r\n" + json.dumps(VALID).encode(),
    b"Content-Length: 2\r\n\r\n[]",
    b"Content-Length: 7\r\n\r\nnotjson",
    b"Content-Length: 32\r\n\r\n" + json.dumps({"jsonrpc": "1.0", "id": 9}).encode().ljust(32),
    b"no header here at all\r\n\r\n",
]


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    wire = WireServer(tmp_path)
    wire.initialize(tmp_path, {"historyPath": str(tmp_path / "h.db")})
    yield wire
    wire.close()


@pytest.mark.parametrize("bad", MALFORMED, ids=lambda b: repr(b[:28]))
def test_every_malformed_frame_gets_an_error_and_the_next_request_is_answered(
    server: WireServer, bad: bytes
) -> None:
    assert server.send_raw(bad + b"\r\n")
    errors = server.errors_without_id(timeout=0.0)
    answer = server.request("workspace/executeCommand", {"command": "aintern.history"}, 20)
    errors += server.errors_without_id(timeout=0.2)
    assert "result" in answer or "error" in answer
    assert server.proc.poll() is None
    assert errors or bad.startswith(b"Content-Length: 32"), "no error reply for " + repr(bad)
    for error in errors:
        assert error["error"]["code"] in (-32700, -32600)
        assert error["error"]["message"]


def test_a_request_with_an_unusable_shape_gets_an_error_with_its_id(server: WireServer) -> None:
    server.send({"jsonrpc": "1.0", "id": 77, "method": "shutdown"})
    assert server.wait_response(77)["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "id": 78, "method": "textDocument/hover", "params": 5})
    assert server.wait_response(78)["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "id": 79, "method": "textDocument/hover", "params": {}})
    assert "error" in server.wait_response(79)


def test_a_frame_above_the_configured_limit_is_refused(tmp_path: Path) -> None:
    wire = WireServer(tmp_path, {"AINTERN_LS_MAX_FRAME_BYTES": "4096"})
    try:
        wire.initialize(tmp_path)
        big = {"jsonrpc": "2.0", "id": 5, "method": "x", "params": {"pad": "y" * 10000}}
        wire.send(big)
        [error] = wire.errors_without_id(timeout=5)
        assert "exceeds the limit of 4096 bytes" in error["error"]["message"]
        assert "result" in wire.request("shutdown")
    finally:
        wire.close()


# -- fuzz: random bytes and random JSON-RPC frames at the running server -------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_methods = st.sampled_from(
    [
        "initialize",
        "shutdown",
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/codeLens",
        "textDocument/hover",
        "workspace/executeCommand",
        "workspace/didChangeConfiguration",
        "$/cancelRequest",
        "nonexistent/method",
    ]
)
_messages = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0"]), "method": _methods},
    optional={
        "id": st.integers(min_value=-5, max_value=10**6) | st.text(max_size=5),
        "params": _json,
    },
)
_chunks = st.one_of(
    st.binary(max_size=300),
    _messages.map(lambda m: frame(m)),
    st.tuples(st.integers(-10, 10**13), st.binary(max_size=50)).map(
        lambda t: b"Content-Length: %d\r\n\r\n" % t[0] + t[1]
    ),
)

FUZZ_SECONDS = 20.0


def test_fuzz_random_bytes_and_frames_never_hang_the_server(tmp_path: Path) -> None:
    """Feed random input for a bounded time; after each batch the server must either
    answer a fresh request or have exited cleanly."""
    wire = WireServer(tmp_path)
    deadline = time.monotonic() + FUZZ_SECONDS
    batches = 0
    try:
        wire.initialize(tmp_path, {"historyPath": str(tmp_path / "h.db")})

        @settings(
            max_examples=60,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.lists(_chunks, min_size=1, max_size=8))
        def batch(chunks: list[bytes]) -> None:
            nonlocal batches
            if time.monotonic() > deadline or wire.proc.poll() is not None:
                return
            batches += 1
            for chunk in chunks:
                if not wire.send_raw(chunk):
                    break
            # Close whatever header may be open, then ask something that needs an answer.
            wire.send_raw(b"\r\n" + b" " * 64 + b"\r\n")
            probes: list[int] = []

            def answered(timeout: float) -> bool:
                probe = wire.request_id()
                probes.append(probe)
                wire.send({"jsonrpc": "2.0", "id": probe, "method": "nonexistent/probe"})
                try:
                    wire.wait_response(probe, timeout=timeout)
                    return True
                except TimeoutError:
                    return any(m.get("id") in probes for m in wire._pending)
                except EOFError:
                    return False

            if answered(5):
                return
            if wire.proc.poll() is None:
                # A body may still be waiting for bytes a random Content-Length asked for:
                # give it those (up to the 64 MiB cap) and ask again.
                for _ in range(70):
                    wire.send_raw(b" " * (1 << 20))
                    if answered(0.5):
                        return
                if answered(15):
                    return
            code = wire.proc.poll()
            if code is None:
                pytest.fail("the server neither answers nor exits")
            assert code in (0, 1), f"server died with {code}"

        batch()
    finally:
        code = wire.close()
    assert batches > 0
    assert code in (0, 1)


def test_the_tcp_server_uses_the_same_hardened_reader(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "aintern_ls", "serve", "--tcp", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=20)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        with sock:
            request = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}},
            }
            sock.sendall(b"Content-Length: 1000000000000\r\n\r\n" + frame(request))
            received = b""
            while b'"id": 1,' not in received:
                chunk = sock.recv(65536)
                assert chunk, "the server closed the connection"
                received += chunk
            assert b"exceeds the limit" in received
            assert b'"serverInfo"' in received
            sock.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            sock.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
        assert proc.wait(timeout=20) in (0, 1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
