"""Answers and notifications the server sends pre-encoded (`RawJSON`, `RawJSONItems`)
are framed exactly like pygls frames the same message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCResponseMessage

from aintern_ls import server
from aintern_ls.app import build_server
from aintern_ls.server import AInternProtocol, RawJSON, RawJSONItems


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


@pytest.mark.parametrize(
    "items",
    [[], [{"a": 1}], [{"a": 1}, {"b": ["é", 2]}, {"c": None}]],
)
def test_items_make_one_json_array(items: list[Any]) -> None:
    encoded = [b"," + json.dumps(item).encode() for item in items]
    _, sent = _sent(JsonRPCResponseMessage(id=7, jsonrpc="2.0", result=RawJSONItems(encoded)))
    assert sent == {"id": 7, "jsonrpc": "2.0", "result": items}


def test_a_big_answer_is_written_in_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "WRITE_SLICE", 100)
    items = [{"lens": i, "title": "x" * (i % 70)} for i in range(500)]
    encoded = [b"," + json.dumps(item).encode() for item in items]
    protocol: AInternProtocol = build_server().protocol
    writer = _Writer()
    protocol.set_writer(writer)
    protocol._send_data(JsonRPCResponseMessage(id=1, jsonrpc="2.0", result=RawJSONItems(encoded)))
    assert len(writer.data) > 10
    header, _, body = b"".join(writer.data).partition(b"\r\n\r\n")
    assert int(header.split(b"\r\n")[0].split(b":")[1]) == len(body)
    assert json.loads(body)["result"] == items


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
