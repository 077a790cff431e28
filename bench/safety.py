"""Safety analysis speed: `python -m bench.safety [--commands 3000] [--transcript FILE]`.

1. Per-command analysis time (median, p99, max) over a few thousand distinct commands:
   the labelled corpora plus generated variants of them, every one parsed from scratch
   (the cache is bypassed), per shell family.
2. Pathological inputs of 10,000 characters (the issue-14 bar: none over 50 ms), and the
   refusal of the same shapes at 100,000 characters (over the size cap: never parsed).
3. The analysis time of every fence in the 5 MB chat transcript (`bench/data/`, generated
   by `bench.extraction` if missing) next to its extraction time, cold and with the cache
   warm (what an edit that changes nothing costs).

Everything runs inside one `stack.reserved` call, as the server's worker analyses a
document: on a stack chunk of its own, so no timing depends on how deep `python -m` or
this module's loops happen to call the analyser. Before that, the same input could cost
2.5-4x more at some call depths (CPython frees and maps a 16 KB stack chunk on every call
of a hot function that starts one): 'wrappers nested' showed 74-93 ms here and 33 ms from
a script, with identical findings and steps (see `aintern_ls/safety/stack.py`). An
`assess` called outside any reservation opens one for itself, so a lone call costs the
same work plus one mmap.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import random
import statistics
import time
from pathlib import Path

from aintern_ls.extraction import extract_file
from aintern_ls.safety import stack
from aintern_ls.safety.analyser import (
    OUT_OF_TIME,
    _assess_cached,
    assess,
    cache_clear,
    shell_family,
)
from aintern_ls.safety.levels import Assessment
from bench._corpus_figures import decode_command

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    ROOT / "tests" / "safety" / "corpus.tsv",
    *sorted((ROOT / "tests" / "safety").glob("sources*.tsv")),
    ROOT.parent / "shared" / "danger_examples.tsv",
]
TRANSCRIPT = Path(__file__).parent / "data" / "transcript.md"


def corpus_commands() -> list[tuple[str, str]]:
    """Every corpus row's command (decoded: `\\n` a newline, `\\x5c` a literal backslash;
    see `bench/_corpus_figures.py`) and shell."""
    rows: list[tuple[str, str]] = []
    for path in SOURCES:
        if not path.exists():
            continue
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                rows.append((decode_command(r["command"]), r["shell"]))
    return rows


def variants(base: list[tuple[str, str]], count: int, seed: int = 7) -> list[tuple[str, str]]:
    """`count` distinct commands: a seeded uniform sample of the corpora's distinct rows, or,
    when they hold fewer, all of them plus generated variants (renamed operands, chains,
    comments) up to `count`.

    The sample ranks every distinct `(command, shell)` by a keyed hash of it (`_rank`: the
    seed is the key) and keeps the `count` lowest, in that order. Every row has the same
    chance whichever file holds it or where, so each file weighs by its rows; and a row's
    rank does not depend on the other rows, so a new file of n rows among N displaces about
    n * count / N rows of the sample, the rest stay. Until session 22 the bench kept the
    FIRST `count` distinct rows in file order (corpus.tsv, then sources*.tsv by name): a new
    file whose name sorted early (sources_a21.tsv, 141 heavy agent-settings rows) pushed
    141 older rows out and changed what the median measured, and the ~15,000 rows of the
    later files were never measured at all."""
    distinct = list(dict.fromkeys(base))
    if len(distinct) >= count:
        return sorted(distinct, key=lambda row: _rank(row, seed))[:count]
    rng = random.Random(seed)
    out = distinct
    seen = set(out)
    while len(out) < count:
        command, shell = rng.choice(base)
        n = rng.randint(1, 99999)
        kind = rng.random()
        if kind < 0.3:
            variant = command.replace("app", f"app{n}").replace("build", f"build{n}") + f" #{n}"
        elif kind < 0.6 and shell in ("bash", "powershell"):
            variant = (
                f"cd dir{n}; {command}" if shell == "bash" else f"Set-Location d{n}; {command}"
            )
        elif kind < 0.8:
            sep = " && " if shell == "bash" else "; " if shell == "powershell" else " & "
            other, _ = rng.choice([b for b in base if b[1] == shell])
            variant = f"{command}{sep}{other}"
        else:
            variant = f"{command}\n{'echo' if shell != 'powershell' else 'Write-Host'} step {n}"
        if (variant, shell) not in seen:
            seen.add((variant, shell))
            out.append((variant, shell))
    return out[:count]


def _rank(row: tuple[str, str], seed: int) -> bytes:
    """A row's place in the sample: a keyed BLAKE2b hash of its command and shell (the same
    on every machine and Python, unlike `hash`, which is salted per process)."""
    command, shell = row
    key = seed.to_bytes(8, "little")
    return hashlib.blake2b(f"{shell}\0{command}".encode(), key=key, digest_size=8).digest()


WORST: list[tuple[float, str, str]] = []


CPU: list[float] = []


def per_command(commands: list[tuple[str, str]]) -> dict[str, list[float]]:
    analyse = _assess_cached.__wrapped__  # the uncached function: every call parses
    times: dict[str, list[float]] = {}
    WORST.clear()
    CPU.clear()
    for command, shell in commands:
        family = shell_family(shell)
        c0 = time.thread_time()
        t0 = time.perf_counter()
        analyse(command, family, None)
        ms = (time.perf_counter() - t0) * 1000
        CPU.append((time.thread_time() - c0) * 1000)
        times.setdefault(family, []).append(ms)
        WORST.append((ms, family, command))
    WORST.sort(reverse=True)
    del WORST[3:]
    return times


def pathological(size: int = 10_000) -> None:
    """Inputs built to be slow (long words, nesting, escapes, long pipelines, many heredocs,
    wrappers, cmd `^` escapes and `for /f`, PowerShell script blocks; and the adversarial
    shapes of `tests/safety/test_safety_sp5_speed.py`: deep nesting of every construct the
    analyser recurses into, long chains, many variables and functions, long payloads; and
    those of `test_safety_sp6_speed.py` aimed at the newest code paths: unknown programs'
    argument shapes, LOLBin catalogues, batch launchers, the PowerShell binder and statement
    scan, DNS exfiltration, option-run tables),
    every shell. Each is
    timed three times (best kept: the input's cost, not the machine's hiccups); an input
    whose analysis ran out of its work budget is marked "cut" (rated critical: too
    complex). The budget counts steps, not time, so which inputs are cut does not depend
    on the machine's load; the steps each input spent are shown, with the CPU each step
    cost (µs/step) and a calibration line: the prices in `aintern_ls/safety/budget.py` are
    meant to make a step about a microsecond on this machine when idle."""
    from tests.safety.test_safety_limits import _pathological
    from tests.safety.test_safety_sp5_speed import adversarial
    from tests.safety.test_safety_sp6_speed import more_shapes

    shapes = {**_pathological(size), **adversarial(size), **more_shapes(size)}
    rows, calibration, timed = _timed(list(shapes.items()))
    _print_block(f"pathological inputs of {size:,} characters", rows)
    print(_calibration(calibration, size))
    print(step_kinds(timed))


def long_shapes_block(sizes: tuple[int, ...] = (2_000, 5_000, 10_000)) -> None:
    """The "long shapes" group (sp14b, session 14: review 12's finding 9): tiny commands in
    long pipelines and lists, a word then a parenthesis (the parse-error path), unclosed
    quotes and parentheses at the end, many tiny words and escapes, deep nesting of every
    bracket kind, and the grammars' error recoveries (`bench/_sp14b_shapes.py`), each at
    every size in `sizes` and in every shell, timed as the pathological block times its
    inputs (best of three, thread CPU)."""
    from bench._sp14b_shapes import long_shapes

    inputs = [
        (f"{label} @{size:,}", text) for size in sizes for label, text in long_shapes(size).items()
    ]
    rows, _calibration_rows, _timed_rows = _timed(inputs)
    _print_block(f"long shapes of {min(sizes):,}-{max(sizes):,} characters", rows)


# One timed input: (wall ms, cpu ms, label, shell, "level [steps, µs/step] (cut …)").
_Row = tuple[float, float, str, str, str]


def _timed(
    inputs: list[tuple[str, str]],
) -> tuple[list[_Row], list[tuple[float, float, bool]], list[tuple[str, str, str, float, float]]]:
    """Every input in every shell, timed three times (best kept: the input's cost, not the
    machine's hiccups): the rows to print, slowest (CPU) first; each input's (cpu ms, steps,
    cut) for `_calibration`; and (label, shell, text, cpu ms, steps) for `step_kinds`."""
    from aintern_ls.safety import budget

    analyse = _assess_cached.__wrapped__
    rows: list[_Row] = []
    calibration: list[tuple[float, float, bool]] = []
    timed: list[tuple[str, str, str, float, float]] = []
    for label, text in inputs:
        for family in ("bash", "powershell", "cmd"):
            best: tuple[float, float, str] | None = None
            spent = (0.0, 0.0, False)
            for _ in range(3):
                w0, c0 = time.perf_counter(), time.thread_time()
                got = analyse(text, family, None)
                cpu = (time.thread_time() - c0) * 1000
                wall = (time.perf_counter() - w0) * 1000
                steps = budget.spent()
                cut = _cut_by(got)
                level = f"{got.level.label} [{steps:,.0f} steps, {_us_per_step(cpu, steps)}]"
                if cut:
                    level += f" (cut by the {cut})"
                if best is None or cpu < best[1]:
                    best = (wall, cpu, level)
                    spent = (cpu, steps, cut)
            assert best is not None
            rows.append((best[0], best[1], label, family, best[2]))
            calibration.append(spent)
            timed.append((label, family, text, spent[0], spent[1]))
    rows.sort(key=lambda r: r[1], reverse=True)
    return rows, calibration, timed


def _cut_by(got: Assessment) -> str:
    """`"steps"` when the assessment ran out of its step budget, "clock" when the CPU clock
    backstop cut it (`budget.OutOfTime`), "" when it was not cut."""
    for f in got.findings:
        if f.rule == "too-complex":
            return "clock" if f.reason.startswith(OUT_OF_TIME) else "steps"
    return ""


def _clock() -> str:
    """The clock backstop's setting, for the block titles."""
    from aintern_ls.safety import budget

    if not budget.clock_on():
        return "clock backstop off"
    return f"clock backstop {budget.CLOCK_US_PER_STEP} µs/step"


def _print_block(title: str, rows: list[_Row]) -> None:
    """The slowest inputs of a timed block, how many are over 50 ms, and per shell its worst
    input, its median and how many inputs ran out of budget: of steps (deterministic) or
    of CPU time (the clock backstop, which depends on the machine and its load)."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    over = [r for r in rows if r[1] > 50.0]
    print(
        f"{title} ({len(rows) // 3} inputs x 3 shells, load average {load}), slowest (CPU)"
        f" first; worst case: {rows[0][2]!r} ({rows[0][3]}) {rows[0][1]:.1f} ms cpu;"
        f" {len(over)} over 50 ms; {_clock()}:"
    )
    for wall, cpu, label, family, level in rows[:8]:
        print(f"  {wall:8.1f} ms wall {cpu:8.1f} ms cpu  {label} ({family}) -> {level}")
    for family in ("bash", "powershell", "cmd"):
        mine = [r for r in rows if r[3] == family]
        steps = sum("(cut by the steps)" in r[4] for r in mine)
        clock = sum("(cut by the clock)" in r[4] for r in mine)
        print(
            f"  worst {family:<10} {mine[0][1]:6.1f} ms cpu  {mine[0][2]!r};"
            f" median {statistics.median(r[1] for r in mine):.1f} ms;"
            f" of {len(mine)}: {steps} cut by steps, {clock} by the clock"
        )


# Where a step is spent, by the function that spends it (`budget.spend`/`tick`'s caller,
# past budget.py itself): the units of work the prices in `aintern_ls/safety/budget.py` name.
_KINDS = {
    "analyser.py:_assess_uncached": "text",
    "cmd.py:analyse": "text",
    "powershell.py:analyse": "text",
    "powershell.py:_dash_statements": "text",
    "powershell.py:colon": "text",
    "powershell.py:letters": "text",
    "budget.py:node_bytes": "text",
    "budget.py:parse": "parse",
    "budget.py:_built": "parse",
    "dispatch.py:judge_uncached": "judge",
    "dispatch.py:judge": "lookup",
    "cmd.py:_segment_once": "lookup",
    "powershell.py:_pipeline_once": "lookup",
    "bash.py:_call": "lookup",
    "dispatch.py:_by_shape": "shape",
    "analyser.py:_analyse_nested": "nested",
    "bash.py:error_region": "statements",
    "powershell.py:error_text": "statements",
    "words.py:split_words": "statements",
    "bash.py:redirect_fd": "redirect",
    "bash.py:substitution": "substitution",
    "words.py:glob_candidates": "glob",
    "powershell.py:visit": "walk",
    "powershell.py:_command": "walk",
    "powershell.py:element": "walk",
    "powershell.py:_text": "walk",
}


def step_kinds(timed: list[tuple[str, str, str, float, float]]) -> str:
    """The steps of every input that spent at least 5 ms and 1,000 steps, attributed to the
    unit of work that spent them (`_KINDS`: a command judged, looked up, a node walked, the
    grammar's reads …; a judgement split by shell), and each kind's price in µs of CPU per
    step: a non-negative least-squares fit of the inputs' CPU over their steps of each kind
    (weighted by 1/sqrt(cpu), so the heavy inputs do not drown the rest). A kind fitted far
    above 1 µs/step is under-priced (inputs made of it run past the budget's worth); far
    below, over-priced (it eats the budget of real scripts)."""
    import sys

    from aintern_ls.safety import budget

    analyse = _assess_cached.__wrapped__
    rows = [t for t in timed if t[3] >= 5 and t[4] >= 1000]
    if len(rows) < 8:
        return "  step kinds: too few inputs spent enough to measure"
    counts: dict[str, float] = {}

    def kind(depth: int, tick: bool) -> str:
        f = sys._getframe(depth)
        inner = ""
        while f.f_code.co_filename.endswith("budget.py"):
            inner = inner or f"budget.py:{f.f_code.co_name}"
            f = f.f_back  # type: ignore[assignment]
        if inner in _KINDS:
            return _KINDS[inner]
        where = f"{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_code.co_name}"
        return _KINDS.get(where, "walk" if tick else f"other ({where})")

    spend, tick = budget.spend, budget.tick

    def counted_spend(steps: float) -> None:
        k = kind(2, False)
        counts[k] = counts.get(k, 0.0) + steps
        spend(steps)

    def counted_tick() -> None:
        k = kind(2, True)
        counts[k] = counts.get(k, 0.0) + budget.TICK_STEPS
        tick()

    spent: list[dict[str, float]] = []
    budget.spend, budget.tick = counted_spend, counted_tick  # type: ignore[assignment]
    try:
        for _label, family, text, _cpu, _steps in rows:
            counts.clear()
            analyse(text, family, None)
            # (the grammar's chunk reads add to the budget directly)
            counts["parse"] = counts.get("parse", 0.0) + budget.spent() - sum(counts.values())
            spent.append({(f"{k} ({family})" if k == "judge" else k): v for k, v in counts.items()})
    finally:
        budget.spend, budget.tick = spend, tick  # type: ignore[assignment]
    total: dict[str, float] = {}
    for d in spent:
        for k, v in d.items():
            total[k] = total.get(k, 0.0) + v
    everything = sum(total.values())
    kinds = [k for k, v in sorted(total.items(), key=lambda kv: -kv[1]) if v >= everything / 200]
    price = _nnls([[d.get(k, 0.0) / 1000 for k in kinds] for d in spent], [t[3] for t in rows])
    listed = "; ".join(
        f"{k} {100 * total[k] / everything:.0f} % of steps, {p:.2f}"
        for k, p in zip(kinds, price, strict=True)
    )
    return (
        f"  step kinds over {len(rows)} inputs (share of their steps, fitted µs of CPU per"
        f" step; kinds under 0.5 % left out):\n    {listed}"
    )


def _nnls(a: list[list[float]], b: list[float], rounds: int = 2000) -> list[float]:
    """x >= 0 minimising sum(w_i (a_i . x - b_i)^2), w_i = 1/b_i (coordinate descent)."""
    n, m = len(a), len(a[0]) if a else 0
    w = [1 / max(v, 1e-9) ** 0.5 for v in b]
    aw = [[a[i][j] * w[i] for j in range(m)] for i in range(n)]
    res = [b[i] * w[i] - sum(aw[i]) for i in range(n)]  # (starting from x = 1)
    x = [1.0] * m
    norms = [sum(aw[i][j] ** 2 for i in range(n)) for j in range(m)]
    for _ in range(rounds):
        moved = 0.0
        for j in range(m):
            if not norms[j]:
                continue
            g = sum(aw[i][j] * res[i] for i in range(n))
            nx = max(0.0, x[j] + g / norms[j])
            dx = nx - x[j]
            if dx:
                for i in range(n):
                    res[i] -= aw[i][j] * dx
                x[j] = nx
                moved = max(moved, abs(dx))
        if moved < 1e-6:
            break
    return x


def _us_per_step(cpu_ms: float, steps: float) -> str:
    return f"{1000 * cpu_ms / steps:.2f} µs/step" if steps else "no steps"


def _calibration(spent: list[tuple[float, float, bool]], size: int) -> str:
    """What a budget step costs in CPU on this machine now: the spread of µs per step over
    the inputs whose work the steps measure (at least 5 ms of CPU and 1,000 steps; under
    that the fixed costs dominate), then over the heavy ones (a quarter of the budget or
    more: those the cap depends on), and what the budget of a `size`-character text is
    worth at the heavy ones' median and dearest price. The budget keeps the 50 ms cap only
    if the dearest price times the budget stays under it; a wide spread means some unit of
    work is priced wrong (see `aintern_ls/safety/budget.py`)."""
    from aintern_ls.safety import budget

    limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * size
    rates = sorted(1000 * cpu / steps for cpu, steps, _cut in spent if cpu >= 5 and steps >= 1000)
    heavy = sorted(
        1000 * cpu / steps for cpu, steps, _cut in spent if steps >= limit / 4 and cpu >= 5
    )
    if not rates or not heavy:
        return "  calibration: no input spent enough to measure a step"

    def spread(r: list[float]) -> str:
        p90 = r[min(len(r) - 1, int(len(r) * 0.9))]
        return (
            f"min {r[0]:.2f} median {statistics.median(r):.2f} p90 {p90:.2f} max {r[-1]:.2f}"
            f" ({r[-1] / r[0]:.1f}x)"
        )

    return (
        f"  calibration, µs of CPU per budget step: {len(rates)} inputs {spread(rates)};"
        f"\n    {len(heavy)} heavy inputs (>= {limit / 4:,.0f} steps) {spread(heavy)}: the budget"
        f" of {size:,} characters ({limit:,.0f} steps) is worth"
        f" {limit * statistics.median(heavy) / 1000:.0f} ms at their median price,"
        f" {limit * heavy[-1] / 1000:.0f} ms at the dearest"
    )


REAL_SCRIPT_DIRS = ("/usr/bin", "/usr/sbin", "/usr/lib/git-core", "/etc/init.d")


def installed_scripts(smallest: int = 3000) -> dict[str, str]:
    """The shell scripts installed on this machine (a `#!` line naming sh or bash) of at
    least `smallest` characters and at most the size cap: real work nobody wrote to be slow."""
    from aintern_ls.safety import budget

    out: dict[str, str] = {}
    for folder in REAL_SCRIPT_DIRS:
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as fh:
                    head = fh.read(64)
                    if not head.startswith(b"#!") or not any(
                        s in head.split(b"\n", 1)[0] for s in (b"sh", b"bash")
                    ):
                        continue
                    text = (head + fh.read()).decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if smallest <= len(text) <= budget.MAX_CHARS and "\x00" not in text:
                out[path] = text
    return out


def real(size: int = 10_000) -> None:
    """The installed shell scripts (`installed_scripts`), each judged whole and, when longer
    than `size`, its first `size` characters up to a line end: the steps each spends per
    character, the budget's margin (its budget over the steps it spent) and which ran out. A
    real script of up to `size` characters must never run out: the tightest margins show how
    close the prices put one."""
    from aintern_ls.safety import budget

    analyse = _assess_cached.__wrapped__
    scripts = installed_scripts()
    if not scripts:
        print("real scripts: none installed here")
        return
    rows: list[tuple[float, str, int, float, float, bool]] = []
    for path, whole in scripts.items():
        texts = {path: whole}
        if len(whole) > size:
            texts[f"{path} (first {size:,})"] = whole[: whole.rfind("\n", 0, size) + 1]
        for label, text in texts.items():
            c0 = time.thread_time()
            got = analyse(text, "bash", None)
            cpu = (time.thread_time() - c0) * 1000
            steps = budget.spent()
            limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text)
            rows.append((limit / max(steps, 1), label, len(text), steps, cpu, _cut_by(got)))
    small = [r for r in rows if r[2] <= size]
    rows.sort()

    def cut(rows: list[tuple[float, str, int, float, float, str]], by: str) -> int:
        return sum(r[5] == by for r in rows)

    print(
        f"real scripts: {len(scripts)} installed shell scripts, {len(rows)} texts judged as bash"
        f" (load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}, {_clock()});"
        f" of the {len(small)} of up to {size:,} characters, cut by steps:"
        f" {cut(small, 'steps')} (must be 0), cut by the clock on this run:"
        f" {cut(small, 'clock')}; of the {len(rows) - len(small)} longer ones"
        f" {cut(rows, 'steps') - cut(small, 'steps')} by steps,"
        f" {cut(rows, 'clock') - cut(small, 'clock')} by the clock"
    )
    for margin, label, n, steps, cpu, by in [r for r in rows if r[2] <= size][:4]:
        print(
            f"  margin {margin:4.2f}  {label} ({n:,} chars): {steps:,.0f} steps,"
            f" {steps / n:.2f}/char, {cpu:.1f} ms cpu{f' (cut by the {by})' if by else ''}"
        )
    for _margin, label, n, steps, cpu, by in small:
        if by == "clock":
            print(
                f"  cut by the clock: {label} ({n:,} chars): {steps:,.0f} steps, {cpu:.1f} ms cpu"
            )
    slowest = max(small, key=lambda r: r[4])
    print(
        f"  slowest: {slowest[1]} ({slowest[2]:,} chars): {slowest[3]:,.0f} steps,"
        f" {slowest[4]:.1f} ms cpu{f' (cut by the {slowest[5]})' if slowest[5] else ''}"
    )


def refused(size: int = 100_000) -> None:
    """The same shapes past the size cap (`budget.MAX_CHARS`): they are not parsed at all
    but refused at once as "too long to analyse" (critical, never safe). What is measured
    is that refusal (it must not grow with the text); their analysis time would mean
    nothing, since no analysis runs."""
    from aintern_ls.safety import budget
    from tests.safety.test_safety_limits import _pathological
    from tests.safety.test_safety_sp5_speed import adversarial
    from tests.safety.test_safety_sp6_speed import more_shapes

    analyse = _assess_cached.__wrapped__
    shapes = {**_pathological(size), **adversarial(size), **more_shapes(size)}
    worst: tuple[float, str, str] = (0.0, "", "")
    count = 0
    for label, text in shapes.items():
        for family in ("bash", "powershell", "cmd"):
            c0 = time.thread_time()
            got = analyse(text, family, None)
            cpu = (time.thread_time() - c0) * 1000
            if len(text) <= budget.MAX_CHARS or [f.rule for f in got.findings] != ["too-long"]:
                raise SystemExit(f"{label!r} ({family}, {len(text):,} characters) was analysed")
            count += 1
            worst = max(worst, (cpu, label, family))
    print(
        f"inputs of {size:,} characters ({count // 3} shapes x 3 shells): every one is over the "
        f"{budget.MAX_CHARS:,}-character cap, so none is parsed; each is refused as too long "
        f"(critical) in at most {worst[0]:.3f} ms cpu ({worst[1]!r}, {worst[2]})"
    )


def _summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"  {name:<11} n={len(ms):<5} median {statistics.median(ms):.3f} ms   "
        f"p99 {p99:.3f} ms   max {ms[-1]:.3f} ms   mean {statistics.fmean(ms):.3f} ms"
    )


def transcript(path: Path) -> None:
    if not path.exists():
        from bench.extraction import generate

        generate(path, 5.0)
    t0 = time.perf_counter()
    result = extract_file(path)
    t_extract = time.perf_counter() - t0
    blocks = [
        (b.command, b.shell_type.value if b.shell_type else (b.language or "bash"))
        for b in result.commands
    ]
    cache_clear()
    t0 = time.perf_counter()
    for command, shell in blocks:
        assess(command, shell)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for command, shell in blocks:
        assess(command, shell)
    t_warm = time.perf_counter() - t0
    analyse = _assess_cached.__wrapped__
    t0 = time.perf_counter()
    for command, shell in blocks:
        analyse(command, shell_family(shell), None)
    t_uncached = time.perf_counter() - t0
    size = path.stat().st_size / 1e6
    print(
        f"transcript {path.name}: {size:.1f} MB, {len(blocks)} fences ({len(set(blocks))} distinct)"
    )
    print(f"  extraction                         {t_extract * 1000:8.1f} ms")
    print(f"  safety, every fence parsed         {t_uncached * 1000:8.1f} ms")
    print(f"  safety, cold cache (dedup by text) {t_cold * 1000:8.1f} ms")
    print(f"  safety, warm cache (unchanged)     {t_warm * 1000:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--transcript", type=Path, default=TRANSCRIPT)
    args = parser.parse_args()
    # With the CPU clock backstop on, as the server runs (`bench/__init__.py` turns it off
    # for every other bench script: their figures and dumps must not depend on the load).
    from aintern_ls.safety import budget

    budget.use_clock(True)
    # Measured as the server runs the analyser: on one reserved stack chunk
    # (`aintern_ls.safety.stack`), as its worker analyses a document's fences.
    stack.reserved(_measure, args)


def _measure(args: argparse.Namespace) -> None:
    commands = variants(corpus_commands(), args.commands)
    per_command(commands[:200])  # warm up imports and the grammar
    times = per_command(commands)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"per-command analysis, {len(commands)} distinct commands, cache bypassed "
        f"({os.cpu_count()} CPUs, load average {load}: p99 suffers first when busy):"
    )
    print(_summary("all", [t for ms in times.values() for t in ms]))
    for family, ms in sorted(times.items()):
        print(_summary(family, ms))
    print(_summary("all (cpu)", CPU) + "   (thread CPU time: what load does not inflate)")
    for ms, family, command in WORST:
        shown = command if len(command) < 70 else command[:67] + "..."
        print(f"  worst: {ms:.2f} ms  ({family}) {shown!r}")
    pathological(10_000)
    long_shapes_block()
    real(10_000)
    refused(100_000)
    transcript(args.transcript)


if __name__ == "__main__":
    main()
