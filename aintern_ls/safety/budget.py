"""Bounds on what one assessment may cost: a size cap and a deterministic work budget.

The verdict on a text must not depend on how busy the machine is, so nothing here reads a
clock. Instead every assessment gets a budget of *steps*, linear in the text's size
(`BASE_STEPS + PER_BYTE_STEPS * length`), and the analysis spends steps as it works:

- text longer than `MAX_CHARS` is not parsed at all (the analyser reports "too long to
  analyse", critical: never safe);
- the grammar pays for every chunk of text it asks for (`READ_STEPS`): tree-sitter's
  error recovery re-reads the text on the inputs where it goes super-linear (`a()a()…`,
  `<<<<…`: 100 KB took a minute), so counting the reads bounds it, and a parse that runs
  out stops reading (the cut-short parse raises `TooComplex`);
- the PowerShell grammar is linear but slow on dense `,`/`&`/`{`/`}` text (40 µs a
  character where ordinary scripts take under 1 µs): those characters are paid for before
  it runs (`PS_DENSE_STEPS` each);
- the walk and the judging pay per unit of work (`tick`: a node walked, a word expanded,
  a command judged; `spend(n)` for bigger units such as a nested re-parse or a decode).

Steps are calibrated to about a microsecond each on this project's reference machine, so
the budget of a 10,000-character text (about 40 ms of work) keeps the issue-14 bar of
50 ms there; real scripts of that size (git-subtree.sh, an apt repository setup script)
use a fifth of it. What runs out is reported "too complex" (critical); findings made
before the cut stand, so a blocked command found first stays blocked.
"""

from __future__ import annotations

import gc
import math
import re
import threading

import tree_sitter

MAX_CHARS = 32 * 1024
# The whole assessment's budget, in steps (about a microsecond of work each).
BASE_STEPS = 15_000
PER_BYTE_STEPS = 2.5
# Costs of units of work, in steps.
READ_STEPS = 12  # one chunk of text the grammar asks for
PARSE_STEPS = 40  # a parse, before any text (a nested re-parse of a `sh -c` string…)
JUDGE_STEPS = 20  # a command judged from scratch (the rules run)
JUDGE_WORD_STEPS = 3  # …and each of its words (rules look at every argument)
LOOKUP_STEPS = 6  # a command looked up among those already judged
REDIRECT_STEPS = 8  # a redirect judged (its target classified)
STATEMENT_STEPS = 20  # a statement read token by token (a region the grammar could not parse)
SUBST_STEPS = 15  # a command substitution evaluated (its output worked out statically)
NESTED_STEPS = 20  # a nested analysis set up (a scope of its own), before its text is read
PS_DENSE_STEPS = 50  # a `,`/`&`/`{`/`}` the PowerShell grammar will have to parse
PS_INFIX_AMP_STEPS = 40  # …more for an `&` after a command's words (`ps_price`)
_CHUNK = 64  # small: a grammar re-reading the same text pays again for each chunk
# Quoted text and comments the grammar reads as one token; `&&`, `||` and runs of braces
# are cheap; what is left of `,&{}` is what PowerShell's error recovery is slow on.
_PS_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|#[^\n]*|&&|\|\||([{}])\1+")
_PS_DENSE = re.compile(r"[,&]|[^\s{(@$]\{|\}[^\s;|)}\].,]|\(\)")
# `&` where a statement starts (the call operator: `& $c`, `. { } & { }` after `;`, `|`, …).
_PS_CALL_AMP = re.compile(r"(?:^|(?<=[\n;|({=]))[ \t]*&", re.M)


def ps_dense(text: str) -> int:
    """How many of `text`'s characters the PowerShell grammar may be slow on."""
    return len(_PS_DENSE.findall(_PS_QUOTED.sub(" ", text)))


def ps_price(text: str) -> int:
    """What the PowerShell grammar's slow characters in `text` cost, in steps: each dense
    character `PS_DENSE_STEPS`, and an `&` between commands (`a & b`, cmd's separator or
    PowerShell 7's background operator, which the grammar recovers from as an error:
    50-80 µs each where the call operator `& $x` takes 3) `PS_INFIX_AMP_STEPS` more."""
    bare = _PS_QUOTED.sub(" ", text)
    dense = len(_PS_DENSE.findall(bare))
    infix = bare.count("&") - len(_PS_CALL_AMP.findall(bare))
    return PS_DENSE_STEPS * dense + PS_INFIX_AMP_STEPS * max(0, infix)


class TooComplex(Exception):
    """The assessment ran out of its work budget."""


class _State(threading.local):
    # (Only `spent` changes per step: the budget is the limit it may reach, so a step is one
    # addition and one comparison. Every step is a multiple of half a step, so the sums are
    # exact and `spent > limit` is where "steps left" would go below zero.)
    def __init__(self) -> None:
        self.open = False  # whether an assessment is open
        self.limit = math.inf  # what `spent` may reach (infinite: no assessment is open)
        self.spent = 0.0  # steps spent by the open assessment (for the bench and tests)
        self.data: bytes | None = None


_STATE = _State()


def reset() -> None:
    """Forget what the last assessment spent (one that never opened a budget)."""
    _STATE.spent = 0.0


# Python's cycle collector is paused while an assessment runs. The walk allocates many
# short-lived objects (tree nodes, words, findings) that reference counting frees; with
# the collector on, each 700 allocations start a pass over every young object, and a
# deeply nested text (thousands of frames alive) paid up to 40 % of its time in them.
# An assessment is bounded (its budget), so what it leaves is collected after it.
_GC_LOCK = threading.Lock()
_GC_OPEN = 0  # assessments open in any thread
_GC_PAUSED = False  # whether the collector was on when the first of them opened


def _pause_gc() -> None:
    global _GC_OPEN, _GC_PAUSED
    with _GC_LOCK:
        _GC_OPEN += 1
        if _GC_OPEN == 1 and gc.isenabled():
            gc.disable()
            _GC_PAUSED = True


def _resume_gc() -> None:
    global _GC_OPEN, _GC_PAUSED
    with _GC_LOCK:
        _GC_OPEN = max(0, _GC_OPEN - 1)
        if _GC_OPEN == 0 and _GC_PAUSED:
            _GC_PAUSED = False
            gc.enable()


def start(length: int) -> None:
    """Open the budget of one top-level assessment of `length` characters."""
    state = _STATE
    if not state.open:
        _pause_gc()
        state.open = True
    state.limit = BASE_STEPS + PER_BYTE_STEPS * length
    state.spent = 0.0


def stop() -> None:
    state = _STATE
    if state.open:
        _resume_gc()
        state.open = False
    state.limit = math.inf


def spent() -> float:
    """Steps the open (or last) assessment spent."""
    return _STATE.spent


def spend(steps: float) -> None:
    """Pay for `steps` of work: raises `TooComplex` once the assessment's budget is gone."""
    state = _STATE
    state.spent += steps
    if state.spent > state.limit:
        raise TooComplex


def affordable(steps: float) -> bool:
    """Whether `steps` more can be spent without running out (a memo replaying earlier work
    walks again instead when not, so the cut falls exactly where the walk puts it)."""
    state = _STATE
    return state.spent + steps <= state.limit


def tick() -> None:
    """One unit of analysis work (a node walked, a word expanded)."""
    state = _STATE
    state.spent += 1
    if state.spent > state.limit:
        raise TooComplex


def check() -> None:
    """A command judged from scratch (the rules run)."""
    spend(JUDGE_STEPS)


def node_bytes(node: tree_sitter.Node) -> bytes:
    """The source bytes of `node` (from the text being walked: a tree parsed through a
    callback would call it again for every `node.text`)."""
    data = _STATE.data
    if data is None:
        return node.text or b""
    start, end = node.start_byte, node.end_byte
    if end - start > 4096:
        spend((end - start) >> 9)  # copying a long stretch of text is work too
    return data[start:end]


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
    """`parser.parse(data)` paid for from the budget; raises `TooComplex` when the grammar
    asks for more text than the budget pays for. The PowerShell grammar's cost follows
    the count of `,&{}` characters: those are paid before it runs."""
    state = _STATE
    spend(PARSE_STEPS)
    language = parser.language
    if language is not None and language.name == "powershell":
        spend(ps_price(data.decode("utf-8", "replace")))
    if not state.open or len(data) <= _CHUNK * 4:
        # A short text cannot make the grammar blow up: a fixed price, no callback.
        spend(READ_STEPS * (len(data) // _CHUNK + 1))
        return parser.parse(data)
    cut = False

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        nonlocal cut
        if cut:
            return b""
        state.spent += READ_STEPS
        if state.spent > state.limit:
            cut = True
            return b""
        return data[offset : offset + _CHUNK]

    tree = parser.parse(read)
    if cut:
        raise TooComplex
    return tree
