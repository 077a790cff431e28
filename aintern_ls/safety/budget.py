"""Bounds on what one assessment may cost: a size cap, a deterministic work budget, and a
CPU clock backstop behind it.

The verdict on a text should not depend on how busy the machine is, so the budget is
counted in *steps*, not time: every assessment gets a budget linear in the text's size
(`BASE_STEPS + PER_BYTE_STEPS * length`), and the analysis spends steps as it works
(only the backstop at the end of this docstring reads a clock, and the tests turn it off):

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

A step is meant to be a microsecond of CPU on this project's 2-core machine when idle, and
the prices below were set from measurements (session 12: thread CPU of every bench input at
load < 1, callgrind instruction counts, and the steps each call site spends): a command
judged from scratch costs 60-130 µs whatever its words (`JUDGE_STEPS`, more for an unknown
program read by its arguments' shape, `SHAPE_STEPS`), a word 2-3 µs, a walked node or
expanded word about 2 µs (`TICK_STEPS`), and every text pays about 0.4 µs a character for
the passes no other price covers (`text_price`; cmd's tokeniser `CMD_CHARS_PER_STEP`).
Before that (session 11) a step cost 0.4-2.9 µs: a judged command paid 26 steps for about
115 µs of work, so inputs of many distinct commands ran to 70-85 ms inside their budget.
Now the inputs that spend a quarter of the budget or more cost 0.56-1.49 µs a step (5th to
95th percentile; median 1.0). The cheap end is work priced as if repeated (a memo's replay
pays what walking again would, by design, so the cut falls where the walk puts it); the dear
end is PowerShell and cmd commands, whose judging costs about 1.4x bash's: their honest
price (`WINDOWS_JUDGE_STEPS` ~70) would cut a plain 150-line build script judged as
PowerShell (about 60 ms there today), so it waits for the chain to get cheaper. (Session
13: PowerShell's chain got cheaper and its price is 60, sp13p's measure; cmd's is 60 too,
`CMD_JUDGE_STEPS`: the build script spends 40,100 steps of 43,125 in either.)

Session 13 (sp13b) looked for work that ran without paying: a globbed command word tried
against every known name (2 ms each, unpaid: see `words.glob_candidates`), the bash
grammar's own work (up to 9 ms for a 10,000-character pipeline or 20,000 nodes of
backticks, which the chunks it reads did not measure: now `PARSE_NODES_PER_STEP`), and a
cmd judgement (1.0-1.6x bash's: `CMD_JUDGE_STEPS`); an error region's statement paid 20
steps for 6-9 µs of its own work (`STATEMENT_STEPS` now 9), which is what real scripts cut
short spend most on (git-filter-branch's first 10,000 characters: margin 1.03 -> 1.14).

Session 14 (sp14): the 50 ms bar held on an idle machine (worst 42-47 ms) but not under
load, so the budget needed a margin. `python -m bench.safety` now attributes every input's
steps to the kind of work that spent them and fits each kind's µs per step: the kinds are
priced within about 20 % of each other, so no price alone separates the slow inputs from
honest work. The binding constraint is the honest 150-line build script of
`test_safety_limits` (450 distinct commands in 10,250 characters, never cut): it spends
39,100-40,200 steps in every shell, 36-41 ms of CPU idle, as much per step as the slowest
cut inputs. Two changes: the long-tail CLI shapes (`clis.judge` past its gate: a destroying
verb in the command path or a gate word; about 12-16 µs, paid by nothing before) cost
`CLI_SHAPE_STEPS`, which PowerShell's `Remove-Item` and unknown `purge`/`delete` programs
pay and the build script does not; and `BASE_STEPS` 17,500 -> 16,000, which leaves the
build script a margin of 1.036 (PowerShell; cmd 1.038, bash 1.063) and real scripts 1.10
(git-filter-branch's first 10,000 characters, 37,200 steps of 41,000). Below that, only a
cheaper judgement (CPU, not steps) moves the worst case.

Session 15 (sp15): the grammars' own work had two unpaid shapes. Some PowerShell error
recoveries run away in operations while reading each byte once (`+ = ` repeated: 2 s for
10,000 characters): the grammar's progress callback (one per 100 operations) pays past an
allowance (`OPS_STEPS`) and cancels the parse. Others cost 8-70 µs per error with ordinary
operation counts (`(a)(a)…`, `1 2 …`, `echo "$(a)"echo …`: 100-220 ms for 10,000
characters, 46 ms at 2,000): a PowerShell text over `PROBE_MIN_BYTES` is parsed first in
windows of about `PROBE_BYTES`, each paying for its error nodes (`_probe`), so a text whose
errors would cost more than its budget is cut before the whole of it reaches the grammar.
Error-free text pays nothing (its windows cost about a second parse's CPU, 1.4-2 ms for
10,000 characters).

The budget of a 10,000-character text is 41,000 steps: about 35-45 ms idle at the slowest
inputs' prices (0.85-1.1 µs a step). Real scripts spend 1-4 steps a character (e.g.
`ocs`, 7.3 KB: 3.7 steps a character, budget margin 1.25; the first 10,000 characters of
git-filter-branch, whose cut-off tail is read statement by statement: 37,200 of 41,000
steps); larger scripts whose work runs past the 50 ms rate (git-mergetool 11.6 KB at
~80 ms, blkdeactivate, apt-key) are cut. What runs out is reported "too complex"
(critical); findings made before the cut stand, so a blocked command found first stays
blocked.

Session 16 (sp16): the CPU clock backstop. The 50 ms bar did not hold for four sessions
because a step's CPU is not a constant: the same inputs cost 1.0-2.2 µs a step from run
to run on this 2-core machine shared by several agents (caches, frequency, the other
processes), while the prices assume 1 µs. A budget that lets an honest 10,000-character
script through (41,000 steps) is therefore worth 41-90 ms, and no price can fix that. So
on top of the steps, `start` opens a deadline in the thread's own CPU time
(`time.thread_time()`: what the bench measures; never the wall clock, which the load
inflates): an assessment may spend `limit * CLOCK_US_PER_STEP` µs (1.0: 41 ms for 10,000
characters, 16 ms for a 100-character command, which never gets near it). Past it the
assessment is cut exactly as a step cut is (`OutOfTime`, a `TooComplex`: critical, the
findings made before it stand), and the reason says it ran out of time on this machine.
What stays deterministic: the steps, what they cut, and every verdict the test suite pins
(it runs with the clock off: `use_clock`, `AINTERN_SAFETY_CLOCK=off`; so do the bench
scripts that produce figures and dumps, except `bench.safety`, which measures what the
server does). A text cut by the clock is one the step budget would have let through on a
faster machine or a quieter moment: the clock only ever cuts sooner, never later, and its
cut is never safe. The hot path does not read the clock: `spend` and `tick` still make one
addition and one comparison, against a gate that is the budget's limit or, sooner, the
next reading of the clock (every `CLOCK_CHECK_STEPS`, `_passed`); the grammar's progress
callback reads it every `CLOCK_CHECK_CALLS` callbacks (a parse or a probe window cannot run
past the deadline), and loops that do much work for few steps call `clock_check` (a delete's
targets). A spend that passes the gate is work paid ahead, so it must end by the deadline
too (`_passed`'s `ahead`: one command of 5,000 words is 6.5 ms of judging at load 8). What
runs after a cut (the stack unwound and its objects freed, the findings folded: 1.5-5 ms
at load 6-9, which is why the price is 1.0 µs a step, not 1.1) is not checked; the
findings are folded before the cycle collector resumes (`analyser`), whose pass over a
cut walk's live objects once cost 20 ms. Measured at load 8-9 (sp16): every cut input
ends 0-4 ms past its deadline, under 46 ms for 10,000 characters.
"""

from __future__ import annotations

import bisect
import gc
import math
import os
import re
import threading
import time
from collections.abc import Callable

import tree_sitter

MAX_CHARS = 32 * 1024
# The whole assessment's budget, in steps (about a microsecond of CPU each: see above).
BASE_STEPS = 16_000
PER_BYTE_STEPS = 2.5
# Costs of units of work, in steps.
TEXT_CHARS_PER_STEP = 4  # the passes over the whole text no other price pays (decoding, scans)
READ_STEPS = 12  # one chunk of text the grammar asks for
PARSE_STEPS = 40  # a parse, before any text (a nested re-parse of a `sh -c` string…)
PARSE_NODES_PER_STEP = 4  # …a step per 4 nodes the bash grammar built (0.25-1.4 µs each)
CMD_CHARS_PER_STEP = 2  # cmd's tokeniser, which reads a text (top-level or nested) at once
TICK_STEPS = 2  # a node walked, a word expanded (`tick`)
JUDGE_STEPS = 50  # a command judged from scratch (the rules run)
WINDOWS_JUDGE_STEPS = 60  # …in PowerShell (1.2-1.4x bash's: sp13p, session 13)
CMD_JUDGE_STEPS = 60  # …in cmd (1.0-1.6x bash's; sp13b)
SHAPE_STEPS = 40  # …more when it is an unknown program read by its arguments' shape
CLI_SHAPE_STEPS = 12  # …more when the long-tail CLI shapes run (`clis.judge` past its gate)
LONG_NAME_CHARS = 32  # …and each character of its command name past this many
JUDGE_WORD_STEPS = 0.5  # …and each of its words (rules look at every argument)
WRAPPED_WORD_STEPS = 1  # …each word again at every wrapper level (`sudo env nice … rm`)
LOOKUP_STEPS = 6  # a command looked up among those already judged
LOOKUP_WORD_STEPS = 1.5  # …each of its words (the memo's key)
REDIRECT_STEPS = 9  # a redirect judged (its target classified)
# A statement read token by token (a region the grammar could not parse): its words and its
# judgement pay their own prices; finding and placing it costs 6-9 µs (sp13b: was 20).
STATEMENT_STEPS = 9
PS_STATEMENT_STEPS = 4  # …one of PowerShell's (a cheaper scan)
SPLIT_WORD_STEPS = 3  # a word split from a command line without a grammar (+1 per 16 chars)
SUBST_STEPS = 8  # a command substitution evaluated (its output worked out statically)
NESTED_STEPS = 9  # a nested analysis set up (a scope of its own), before its text is read
PS_DENSE_STEPS = 50  # a `,`/`&`/`{`/`}` the PowerShell grammar will have to parse
PS_INFIX_AMP_STEPS = 40  # …more for an `&` after a command's words (`ps_price`)
# The grammar's own operations (a progress callback every 100): ordinary text of any shell
# takes at most 0.11 callbacks a byte (ps and bash grammars, 1,922 two-token shapes and every
# bench input), but some error recoveries run away, e.g. the PowerShell grammar on `+ = `
# or `+-eq ` repeated: 0.9-3.4 callbacks a byte at 35 µs each, growing with the square of
# the length (2 s for 10,000 characters, 27 ms for 1,000), reading each byte once.
# Callbacks past `OPS_FREE_CALLS` plus one per `2**OPS_FREE_SHIFT` bytes read cost
# `OPS_STEPS` each (sp15, session 15).
# The PowerShell grammar's error recoveries cost 8-70 µs each (`(a)(a)…`, `1 2 …`,
# `echo "$(a)"echo …`: 100-220 ms for 10,000 characters) without reading again or running
# more operations than ordinary text: a text longer than `PROBE_MIN_BYTES` is parsed in
# windows first and pays for the nodes its errors hold (`_probe`, sp15).
PROBE_MIN_BYTES = 1024
PROBE_BYTES = 512
# A window's price: `PROBE_ERROR_STEPS` an error node, and the dearer of its error nodes'
# children (what the grammar skipped, one recovery each: `1 2 …` 31 µs a child) and of the
# nodes they hold past `PROBE_FREE_NODES` (`(a)(a)…` 9.5 µs a node). Over 1,068 two-token
# shapes whose 512-byte window takes over 2 ms, 0.93-1.9 steps a µs (5th percentile to
# median; the dearest 0.47); bash scripts read as PowerShell pay 1.6-3.5 steps a µs of it.
PROBE_ERROR_STEPS = 40
PROBE_SKIPPED_STEPS = 25
PROBE_FREE_NODES = 32
PROBE_NODE_STEPS = 8
OPS_FREE_CALLS = 32
OPS_FREE_SHIFT = 3
OPS_STEPS = 40
_CHUNK = 64  # small: a grammar re-reading the same text pays again for each chunk
# Quoted text and comments the grammar reads as one token; `&&`, `||` and runs of braces
# are cheap; what is left of `,&{}` is what PowerShell's error recovery is slow on.
_PS_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|#[^\n]*|&&|\|\||([{}])\1+")
_PS_DENSE = re.compile(r"[,&]|[^\s{(@$]\{|\}[^\s;|)}\].,]|\(\)")
# `&` where a statement starts (the call operator: `& $c`, `. { } & { }` after `;`, `|`, …).
_PS_CALL_AMP = re.compile(r"(?:^|(?<=[\n;|({=]))[ \t]*&", re.M)


def text_price(length: int) -> int:
    """What the passes over a whole top-level text of `length` characters cost, in steps."""
    return length // TEXT_CHARS_PER_STEP


def name_price(length: int) -> int:
    """What a command name of `length` characters adds to its judgement: the program-name
    patterns search the whole name (about a microsecond a character); a name of ordinary
    length is paid for by `JUDGE_STEPS`."""
    return length - LONG_NAME_CHARS if length > LONG_NAME_CHARS else 0


# Where a `_PS_DENSE` match can start: at one of `,&}(`, or just before a `{`.
_PS_DENSE_AT = re.compile(r"[,&}({]")
_NOT_BEFORE_BRACE = frozenset("{(@$")
_NOT_AFTER_CLOSE = frozenset(";|)}].,")


def _dense_count(bare: str) -> int:
    """`len(_PS_DENSE.findall(bare))`, found by visiting only the places where a match can
    start, each tried as the pattern's alternatives are, in order (a scan of every position
    was 1-3 ms on a 10,000-character text); on a text dense with them, the pattern itself."""
    if sum([bare.count(c) for c in ",&}({"]) > len(bare) >> 4:
        return len(_PS_DENSE.findall(bare))
    count = 0
    free = 0  # where the next match may start (after the last one)
    n = len(bare)
    for m in _PS_DENSE_AT.finditer(bare):
        q = m.start()
        p = q - 1 if bare[q] == "{" else q
        if p < free:
            continue
        c = bare[p]
        d = bare[p + 1] if p + 1 < n else ""
        if c == "," or c == "&":
            count += 1
            free = p + 1
        elif (
            (d == "{" and c not in _NOT_BEFORE_BRACE and not c.isspace())
            or (c == "}" and d and d not in _NOT_AFTER_CLOSE and not d.isspace())
            or (c == "(" and d == ")")
        ):
            # (`x{`, `}x`, `()`: the pattern's other alternatives, in its order)
            count += 1
            free = p + 2
    return count


def ps_dense(text: str) -> int:
    """How many of `text`'s characters the PowerShell grammar may be slow on."""
    return _dense_count(_PS_QUOTED.sub(" ", text))


def ps_price(text: str) -> int:
    """What the PowerShell grammar's slow characters in `text` cost, in steps: each dense
    character `PS_DENSE_STEPS`, and an `&` between commands (`a & b`, cmd's separator or
    PowerShell 7's background operator, which the grammar recovers from as an error:
    50-80 µs each where the call operator `& $x` takes 3) `PS_INFIX_AMP_STEPS` more."""
    bare = _PS_QUOTED.sub(" ", text)
    dense = _dense_count(bare)
    amps = bare.count("&")
    infix = amps - len(_PS_CALL_AMP.findall(bare)) if amps else 0
    return PS_DENSE_STEPS * dense + PS_INFIX_AMP_STEPS * max(0, infix)


class TooComplex(Exception):
    """The assessment ran out of its work budget."""


class OutOfTime(TooComplex):
    """The assessment ran out of its thread's CPU time (the clock backstop: see above)."""


# The CPU clock backstop (session 16): an assessment may spend at most
# `limit * CLOCK_US_PER_STEP` µs of its thread's CPU time (41 ms for a 10,000-character
# text). The clock is read only when `spent` passes the gate, about every
# `CLOCK_CHECK_STEPS` steps. Off (`use_clock(False)`, or the environment variable
# `AINTERN_SAFETY_CLOCK=off` at import) only the deterministic step budget cuts; the test
# suite runs with it off.
# 1.0, not 1.1: what runs after the cut (the stack unwound and its objects freed, the
# findings folded) took 1.5-5 ms at load 6, so a 1.1 deadline (45 ms) ended at 48-52 ms.
CLOCK_US_PER_STEP = 1.0
CLOCK_CHECK_STEPS = 512
CLOCK_CHECK_CALLS = 4  # the grammar's progress callbacks between two readings of the clock
_CLOCK_ON = os.environ.get("AINTERN_SAFETY_CLOCK", "on").strip().lower() not in (
    "0",
    "off",
    "false",
    "no",
)


def use_clock(on: bool) -> bool:
    """Turn the CPU clock backstop on or off for assessments opened from now on (every
    thread); returns whether it was on."""
    global _CLOCK_ON
    was, _CLOCK_ON = _CLOCK_ON, on
    return was


def clock_on() -> bool:
    return _CLOCK_ON


class _State(threading.local):
    # (Only `spent` changes per step: the gate is the next place it must stop at, so a step
    # is one addition and one comparison. The gate is the budget's limit, or sooner, with
    # the clock on, the next reading of the clock (`_passed`). Every step is a multiple of
    # half a step, so the sums are exact and `spent > limit` is where "steps left" would go
    # below zero.)
    def __init__(self) -> None:
        self.open = False  # whether an assessment is open
        self.limit = math.inf  # what `spent` may reach (infinite: no assessment is open)
        self.gate = math.inf  # min(limit, where the clock is read next)
        self.deadline = math.inf  # the thread CPU time (s) the assessment may run to
        self.started = 0.0  # the thread CPU time (s) it opened at
        self.allowance = math.inf  # deadline - started (s) of the open or last assessment
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
    if _CLOCK_ON:
        state.started = time.thread_time()
        state.allowance = state.limit * CLOCK_US_PER_STEP * 1e-6
        state.deadline = state.started + state.allowance
        state.gate = min(state.limit, CLOCK_CHECK_STEPS)
    else:
        state.deadline = state.allowance = math.inf
        state.gate = state.limit


def stop() -> None:
    state = _STATE
    if state.open:
        _resume_gc()
        state.open = False
    state.limit = state.gate = state.deadline = math.inf


def allowance_ms() -> float:
    """The CPU time (ms) the open (or last: `stop` keeps it) assessment may take before the
    clock cuts it (infinite with the clock off).

    Under heavy load an honest text near the size limit can be cut by the clock: it is then
    rated critical ("ran out of time"), and that verdict is not cached (`analyser`), so the
    next request judges the text again."""
    return _STATE.allowance * 1000


def _passed(state: _State, ahead: float = 0.0) -> None:
    """`spent` passed the gate: out of steps (`TooComplex`), or time to read the clock
    (`OutOfTime` past the deadline; else the gate moves on). `ahead`: the steps just paid
    for work still to come (`spend` pays before the work: a command of 5,000 words paid
    2,550 steps for 6.5 ms of judging at load 8), which must end by the deadline too."""
    if state.spent > state.limit:
        raise TooComplex
    if time.thread_time() + ahead * CLOCK_US_PER_STEP * 1e-6 > state.deadline:
        raise OutOfTime
    state.gate = min(state.limit, state.spent + CLOCK_CHECK_STEPS)


def clock_check() -> None:
    """Read the clock now (a stretch of work that spends few steps for its CPU, e.g. between
    the windows of a probe): `OutOfTime` past the deadline."""
    state = _STATE
    if state.deadline < math.inf and time.thread_time() > state.deadline:
        raise OutOfTime


def spent() -> float:
    """Steps the open (or last) assessment spent."""
    return _STATE.spent


def spend(steps: float) -> None:
    """Pay for `steps` of work: raises `TooComplex` once the assessment's budget is gone."""
    state = _STATE
    state.spent += steps
    if state.spent > state.gate:
        _passed(state, steps)


def affordable(steps: float) -> bool:
    """Whether `steps` more can be spent without running out (a memo replaying earlier work
    walks again instead when not, so the cut falls exactly where the walk puts it)."""
    state = _STATE
    return state.spent + steps <= state.limit


def tick() -> None:
    """One unit of analysis work (a node walked, a word expanded): `TICK_STEPS`."""
    state = _STATE
    state.spent += TICK_STEPS
    if state.spent > state.gate:
        _passed(state)


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
    asks for more text than the budget pays for, or runs more operations than ordinary text
    takes (`OPS_STEPS`). The PowerShell grammar's cost follows the count of `,&{}`
    characters: those are paid before it runs."""
    state = _STATE
    spend(PARSE_STEPS)
    language = parser.language
    if language is not None and language.name == "powershell":
        spend(ps_price(data.decode("utf-8", "replace")))
        if state.open and len(data) > PROBE_MIN_BYTES:
            _probe(parser, data)
    if not state.open or len(data) <= _CHUNK * 4:
        # A short text cannot make the grammar blow up (its worst runaway, below, grows
        # with the square of the length: 5 ms at 256 characters): a fixed price, no callback.
        spend(READ_STEPS * (len(data) // _CHUNK + 1))
        return _built(parser.parse(data), language)
    progress, cut = _watch()

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        if cut:
            return b""
        state.spent += READ_STEPS
        if state.spent > state.gate:
            try:
                _passed(state)
            except TooComplex as e:
                cut.append(e)
                return b""
        return data[offset : offset + _CHUNK]

    return _parsed(parser, read, progress, cut, language)


def _watch() -> tuple[Callable[[int, bool], bool], list[TooComplex]]:
    """A progress callback for one parse, which pays for the grammar's operations past the
    allowance and reads the clock every `CLOCK_CHECK_CALLS` callbacks, and the list that
    holds why it cancelled the parse (empty while it has not)."""
    state = _STATE
    calls = 0  # progress callbacks so far: one per 100 of the grammar's operations
    cut: list[TooComplex] = []
    clock = state.deadline < math.inf

    def progress(offset: int, _has_error: bool) -> bool:
        # Callbacks past `OPS_FREE_CALLS` + one per 8 bytes read are a runaway error
        # recovery (`OPS_STEPS` each): the grammar cancels once the budget is gone.
        nonlocal calls
        calls += 1
        if calls > OPS_FREE_CALLS + (offset >> OPS_FREE_SHIFT):
            state.spent += OPS_STEPS
            if state.spent > state.gate:
                try:
                    _passed(state)
                except TooComplex as e:
                    cut.append(e)
        elif clock and not calls % CLOCK_CHECK_CALLS and time.thread_time() > state.deadline:
            cut.append(OutOfTime())
        return bool(cut)

    return progress, cut


def _probe(parser: tree_sitter.Parser, data: bytes) -> None:
    """Pay for the PowerShell grammar's error recoveries before it parses `data` whole:
    each window of about `PROBE_BYTES` is parsed alone and pays for its errors (see
    `PROBE_ERROR_STEPS`). A window costs at most about 15 ms to parse however dense its
    errors, so the whole text is never handed to the grammar when its errors would run
    past the budget; ordinary text makes no error node and pays nothing."""
    query = _error_query(parser.language)
    n = len(data)
    # Quoted text and comments are not split (a window starting inside a string would read
    # it as code); a window ends after a line break, `;` or `|` in its second half when
    # there is one outside them, else after the first one past `PROBE_BYTES`, else there.
    spans = [m.span() for m in _PROBE_QUOTED.finditer(data)]
    ends = [e for _s, e in spans]
    masked = _PROBE_QUOTED.sub(lambda m: b"x" * (m.end() - m.start()), data)
    start = 0
    while start < n:
        end = start + PROBE_BYTES
        if end < n:
            at = max(
                masked.rfind(b"\n", start + (PROBE_BYTES >> 1), end),
                masked.rfind(b";", start + (PROBE_BYTES >> 1), end),
                masked.rfind(b"|", start + (PROBE_BYTES >> 1), end),
            )
            if at < 0:
                found = _PROBE_BREAK.search(masked, end, end + PROBE_BYTES)
                at = found.start() if found else -1
            if at >= 0:
                # (after a line break or `;`; before a `|`: a text ending in `|` is one
                # error holding its whole pipeline, one starting with it a lone error)
                end = at if masked[at] == 0x7C else at + 1
            else:
                i = bisect.bisect_right(ends, end)  # (inside a quoted span: to its end)
                if i < len(spans) and spans[i][0] < end:
                    end = spans[i][1]
        end = min(n, end)
        window = data[start:end]
        progress, cut = _watch()

        def whole(offset: int, _point: tuple[int, int], window: bytes = window) -> bytes:
            return window[offset:]

        root = _parsed(parser, whole, progress, cut, None).root_node
        if root.has_error:
            errors = tree_sitter.QueryCursor(query).captures(root).get("e", ())
            held = skipped = 0
            last = -1  # (the outermost error nodes only: an error inside one is in its count)
            for node in errors:
                skipped += node.child_count
                if node.start_byte >= last:
                    held += node.descendant_count
                    last = node.end_byte
            spend(
                len(errors) * PROBE_ERROR_STEPS
                + max(
                    skipped * PROBE_SKIPPED_STEPS,
                    max(0, held - PROBE_FREE_NODES) * PROBE_NODE_STEPS,
                )
            )
        start = end


_PROBE_QUOTED = re.compile(
    rb"@'.*?\n'@|@\".*?\n\"@|'[^']*'|\"(?:[^\"`]|`.)*\"|<#.*?#>|#[^\n]*", re.S
)
_PROBE_BREAK = re.compile(rb"[\n;|]")
_QUERIES: dict[str, tree_sitter.Query] = {}


def _error_query(language: tree_sitter.Language | None) -> tree_sitter.Query:
    assert language is not None
    name = language.name or ""
    query = _QUERIES.get(name)
    if query is None:
        query = _QUERIES[name] = tree_sitter.Query(language, "(ERROR) @e")
    return query


def _parsed(
    parser: tree_sitter.Parser,
    read: Callable[[int, tuple[int, int]], bytes],
    progress: Callable[[int, bool], bool],
    cut: list[TooComplex],
    language: tree_sitter.Language | None,
) -> tree_sitter.Tree:
    """`parser.parse(read)` watched by `progress`; `TooComplex` (or `OutOfTime`) when either
    cut it short (a cancelled parse leaves the parser mid-text: it is reset for the next
    one)."""
    try:
        tree = parser.parse(read, progress_callback=progress)
    except ValueError:  # cancelled by `progress`
        parser.reset()
        if cut:
            raise cut[0] from None
        raise
    if cut:
        raise cut[0]
    return _built(tree, language)


def _built(tree: tree_sitter.Tree, language: tree_sitter.Language | None) -> tree_sitter.Tree:
    """`tree`, once the bash grammar's work building it is paid (`PARSE_NODES_PER_STEP`: what
    the chunks read do not measure, e.g. 9 ms for a 10,000-character pipeline)."""
    if language is not None and language.name == "bash":
        spend(tree.root_node.descendant_count // PARSE_NODES_PER_STEP)
    return tree
