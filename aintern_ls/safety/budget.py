"""Bounds on what one assessment may cost: a size cap and a CPU-time budget for parsing.

tree-sitter's error recovery is super-linear on some inputs (`a()a()…`, `<<<<…`: 100 KB
took a minute), and assessment runs whenever a document opens. So:

- text longer than `MAX_CHARS` is not parsed at all (the analyser reports "too long to
  analyse", critical: never safe);
- every parse feeds the grammar through a callback that stops once the assessment's
  budget of *CPU* time (`thread_time`, so a busy machine does not cut honest input short)
  is spent; the cut-short parse raises `TooComplex`, also reported as critical;
- the walk over the tree and the judging of commands (`tick`, called by the front ends
  and the dispatcher) have a budget for the whole assessment too, so the total work is
  bounded linearly in the input's size whatever the input does (real scripts of 10,000
  characters, git-subtree.sh or an apt repository setup script, take 5 to 15 ms; the
  budget there is 35 ms, the bar of issue 14 is 50).
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
_CHUNK = 256  # small: the grammar checks the clock only when it asks for more text
# CPU time the whole assessment (parse, walk, judging) may spend.
TOTAL_BASE_SECONDS = 0.02
TOTAL_PER_BYTE_SECONDS = 1.5e-6
# Texts up to this size are analysed without the clock: the verdict never depends on load.
SMALL_BYTES = 2048
_TICKS = 32  # the clock is read once every this many ticks


class TooComplex(Exception):
    """The parse did not finish within the assessment's budget."""


class _State(threading.local):
    def __init__(self) -> None:
        self.deadline: float | None = None
        self.total: float | None = None  # the whole assessment's deadline
        self.ticks = 0
        self.gc_start: float | None = None
        self.data: bytes | None = None


_STATE = _State()


def _gc_credit(phase: str, _info: dict[str, int]) -> None:
    """A garbage collection the assessment's thread happens to run (a full one can take
    tens of milliseconds in a big process) is not the input's cost: move the deadline."""
    if _STATE.deadline is None:
        return
    if phase == "start":
        _STATE.gc_start = time.thread_time()
    elif phase == "stop" and _STATE.gc_start is not None:
        spent = time.thread_time() - _STATE.gc_start
        _STATE.deadline += spent
        if _STATE.total is not None:
            _STATE.total += spent
        _STATE.gc_start = None


gc.callbacks.append(_gc_credit)


def start(length: int) -> None:
    """Open the budget of one top-level assessment of `length` characters."""
    _STATE.gc_start = None
    now = time.thread_time()
    _STATE.deadline = now + BASE_SECONDS + PER_BYTE_SECONDS * length
    _STATE.ticks = 0
    _STATE.total = (
        now + TOTAL_BASE_SECONDS + TOTAL_PER_BYTE_SECONDS * length if length > SMALL_BYTES else None
    )


def stop() -> None:
    _STATE.deadline = None
    _STATE.total = None


def check() -> None:
    """Like `tick`, for a unit of work big enough to read the clock every time."""
    total = _STATE.total
    if total is not None and time.thread_time() > total:
        raise TooComplex


def tick() -> None:
    """One unit of analysis work (a node walked, a command judged): raises `TooComplex`
    once the whole assessment's budget is spent (never for texts up to `SMALL_BYTES`)."""
    state = _STATE
    state.ticks += 1
    if state.ticks % _TICKS == 0 and state.total is not None and time.thread_time() > state.total:
        raise TooComplex


def node_bytes(node: tree_sitter.Node) -> bytes:
    """The source bytes of `node` (from the text being walked: a tree parsed through a
    callback would call it again for every `node.text`)."""
    data = _STATE.data
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
        self._saved = _STATE.data
        _STATE.data = self._data

    def __exit__(self, *exc: object) -> None:
        _STATE.data = self._saved


def parse(parser: tree_sitter.Parser, data: bytes) -> tree_sitter.Tree:
    """`parser.parse(data)` that gives up (raising `TooComplex`) when the budget runs out."""
    if _STATE.deadline is None or len(data) <= SMALL_BYTES:
        # A short text cannot make the grammar blow up; timing it would only let a busy
        # machine (page faults, a GC) turn `sudo rm -f /etc/passwd` into "too complex".
        return parser.parse(data)
    clock = time.thread_time
    state = _STATE
    cut = False

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        nonlocal cut
        if cut or clock() > state.deadline:  # type: ignore[operator]
            cut = True
            return b""
        return data[offset : offset + _CHUNK]

    tree = parser.parse(read)
    if cut:
        raise TooComplex
    return tree
