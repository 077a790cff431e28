"""Answers and notifications the server sends pre-encoded (`RawJSON`, `RawJSONStream`)
are framed exactly like pygls frames the same message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCResponseMessage

from aintern_ls.app import build_server
from aintern_ls.server import AInternProtocol, RawJSON, RawJSONStream


class _Writer:
    def __init__(self) -> None:
        self.data: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.data.append(data)

    def close(self) -> None:
        pass


def _sent(message: Any) -> tuple[int, Any]:
    protocol: AInternProtocol = build_server().protocol
    writer = _Writer()
    protocol.set_writer(writer)
    protocol._send_data(message)
    frame = b"".join(writer.data)
    header, _, body = frame.partition(b"\r\n\r\n")
    length = int(header.split(b"\r\n")[0].split(b":")[1])
    assert length == len(body)
    return length, json.loads(body)


def _stream(items: list[Any], per_chunk: int) -> RawJSONStream:
    text = json.dumps(items, ensure_ascii=False)
    data = text.encode()
    pieces = [data[i : i + per_chunk] for i in range(0, len(data), per_chunk)]
    return RawJSONStream(len(data), lambda: iter(pieces))


@pytest.mark.parametrize(
    "items",
    [[], [{"a": 1}], [{"a": 1}, {"b": ["é", 2]}, {"c": None}]],
)
def test_a_stream_makes_one_json_result(items: list[Any]) -> None:
    _, sent = _sent(JsonRPCResponseMessage(id=7, jsonrpc="2.0", result=_stream(items, 5)))
    assert sent == {"id": 7, "jsonrpc": "2.0", "result": items}


def test_a_big_answer_is_written_in_slices() -> None:
    items = [{"lens": i, "title": "x" * (i % 70)} for i in range(500)]
    protocol: AInternProtocol = build_server().protocol
    writer = _Writer()
    protocol.set_writer(writer)
    stream = _stream(items, 1000)
    protocol._send_data(JsonRPCResponseMessage(id=1, jsonrpc="2.0", result=stream))
    assert len(writer.data) > 10
    header, _, body = b"".join(writer.data).partition(b"\r\n\r\n")
    assert int(header.split(b"\r\n")[0].split(b":")[1]) == len(body)
    assert json.loads(body)["result"] == items


def test_a_wrong_announced_length_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    stream = RawJSONStream(3, lambda: iter([b"[1,2]"]))
    protocol: AInternProtocol = build_server().protocol
    protocol.set_writer(_Writer())
    protocol._send_data(JsonRPCResponseMessage(id=1, jsonrpc="2.0", result=stream))
    assert "not the" in caplog.text


def test_raw_result_and_raw_notification_params() -> None:
    _, sent = _sent(JsonRPCResponseMessage(id="x", jsonrpc="2.0", result=RawJSON('{"k": [1]}')))
    assert sent == {"id": "x", "jsonrpc": "2.0", "result": {"k": [1]}}
    params = RawJSON('{"uri":"file:///a.md","diagnostics":[]}')
    _, sent = _sent(
        JsonRPCNotification(method="textDocument/publishDiagnostics", jsonrpc="2.0", params=params)
    )
    assert sent == {
        "method": "textDocument/publishDiagnostics",
        "jsonrpc": "2.0",
        "params": {"uri": "file:///a.md", "diagnostics": []},
    }


# -- big messages in -----------------------------------------------------------------------


def _framed(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.parametrize("chunk", [1000, 65536, 3_000_001])
def test_a_big_body_arrives_whole_in_any_slicing(chunk: int) -> None:
    from aintern_ls.transport import BIG_BODY_BYTES, Frame, FrameParser

    text = "".join(f"line {i} é😀\n" for i in range(BIG_BODY_BYTES // 8))
    big = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"text": text}}
    small = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
    data = _framed(small) + _framed(big) + _framed(small) + _framed(big) + _framed(small)
    parser = FrameParser(max_frame_bytes=64 << 20)
    bodies = []
    for at in range(0, len(data), chunk):
        for event in parser.feed(data[at : at + chunk]):
            assert isinstance(event, Frame)
            bodies.append(json.loads(event.take()))
    assert bodies == [small, big, small, big, small]
    assert parser.buffered == 0


def test_dispatch_takes_the_frame_body_and_structures_like_pygls() -> None:
    from lsprotocol import types

    from aintern_ls.transport import Frame, _with_hook, dispatch

    protocol: AInternProtocol = build_server().protocol
    opened = {
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {
            "textDocument": {
                "uri": "file:///big.md",
                "languageId": "markdown",
                "version": 1,
                "text": "```bash\necho hi\n```\n",
            }
        },
    }
    body = json.dumps(opened).encode()
    expected = json.loads(body, object_hook=protocol.structure_message)
    assert _with_hook(json.loads(body), protocol.structure_message) == expected
    assert isinstance(expected.params, types.DidOpenTextDocumentParams)
    frame = Frame(body)
    handled: list[Any] = []

    def handle(message: Any) -> None:
        assert frame.body == b""  # freed before the message is handled
        handled.append(message)

    protocol.handle_message = handle  # type: ignore[method-assign]
    dispatch(protocol, frame)
    assert handled == [expected]


def test_streamed_notification_params() -> None:
    """A diagnostics notification made of pieces (`RawJSONStream.of_parts`) is framed as
    pygls frames the same message, whatever the slices and characters."""
    parts = ['{"uri":"file:///a.md","diagnostics":', "[", '{"message":"é😀"}', ",", "{}", "]", "}"]
    for slice_chars in (1, 7, 1 << 20):
        stream = RawJSONStream.of_parts(parts, slice_chars)
        _, sent = _sent(
            JsonRPCNotification(
                method="textDocument/publishDiagnostics", jsonrpc="2.0", params=stream
            )
        )
        assert sent == {
            "method": "textDocument/publishDiagnostics",
            "jsonrpc": "2.0",
            "params": {"uri": "file:///a.md", "diagnostics": [{"message": "é😀"}, {}]},
        }
