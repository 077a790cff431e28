"""Bounds on what one assessment may cost: a size cap and a CPU-time budget for parsing.

tree-sitter's error recovery is super-linear on some inputs (`a()a()…`, `<<<<…`: 100 KB
took a minute), and assessment runs whenever a document opens. So:

- text longer than `MAX_CHARS` is not parsed at all (the analyser reports "too long to
  analyse", critical: never safe);
- every parse feeds the grammar through a callback that stops once the assessment's
  budget of *CPU* time (`thread_time`, so a busy machine does not cut honest input short)
  is spent; the cut-short parse raises `TooComplex`, also reported as critical.
"""

from __future__ import annotations

import gc
import threading
import time

import tree_sitter

MAX_CHARS = 32 * 1024
# CPU time one assessment may spend parsing: a floor plus a linear allowance. Honest
# scripts parse at well under 1 µs per byte.
BASE_SECONDS = 0.02
PER_BYTE_SECONDS = 1.5e-6
_CHUNK = 2048
# Texts up to this size are parsed without the clock: the verdict never depends on load.
SMALL_BYTES = 2048


class TooComplex(Exception):
    """The parse did not finish within the assessment's budget."""


_STATE = threading.local()


def _gc_credit(phase: str, _info: dict[str, int]) -> None:
    """A garbage collection the assessment's thread happens to run (a full one can take
    tens of milliseconds in a big process) is not the input's cost: move the deadline."""
    if getattr(_STATE, "deadline", None) is None:
        return
    if phase == "start":
        _STATE.gc_start = time.thread_time()
    elif phase == "stop" and getattr(_STATE, "gc_start", None) is not None:
        _STATE.deadline += time.thread_time() - _STATE.gc_start
        _STATE.gc_start = None


gc.callbacks.append(_gc_credit)


def start(length: int) -> None:
    """Open the budget of one top-level assessment of `length` characters."""
    _STATE.gc_start = None
    _STATE.deadline = time.thread_time() + BASE_SECONDS + PER_BYTE_SECONDS * length


def stop() -> None:
    _STATE.deadline = None


def node_bytes(node: tree_sitter.Node) -> bytes:
    """The source bytes of `node` (from the text being walked: a tree parsed through a
    callback would call it again for every `node.text`)."""
    data: bytes | None = getattr(_STATE, "data", None)
    if data is None:
        return node.text or b""
    return data[node.start_byte : node.end_byte]


class Source:
    """`with Source(data):` makes `node_bytes` read `data` while a tree of it is walked."""

    __slots__ = ("_data", "_saved")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._saved: bytes | None = None

    def __enter__(self) -> None:
        self._saved = getattr(_STATE, "data", None)
        _STATE.data = self._data

    def __exit__(self, *exc: object) -> None:
        _STATE.data = self._saved


def parse(parser: tree_sitter.Parser, data: bytes) -> tree_sitter.Tree:
    """`parser.parse(data)` that gives up (raising `TooComplex`) when the budget runs out."""
    if getattr(_STATE, "deadline", None) is None or len(data) <= SMALL_BYTES:
        # A short text cannot make the grammar blow up; timing it would only let a busy
        # machine (page faults, a GC) turn `sudo rm -f /etc/passwd` into "too complex".
        return parser.parse(data)
    clock = time.thread_time
    state = _STATE
    cut = False

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        nonlocal cut
        if cut or clock() > state.deadline:
            cut = True
            return b""
        return data[offset : offset + _CHUNK]

    tree = parser.parse(read)
    if cut:
        raise TooComplex
    return tree
