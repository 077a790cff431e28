"""The CPU clock backstop on top of the step budget (sp16, session 16; `budget.py`).

An assessment may spend at most `limit * CLOCK_US_PER_STEP` µs of its thread's CPU time;
past it, it is cut exactly as a step cut is (critical, findings kept) with its own reason.
The clock is off in the test suite (`tests/conftest.py`): these tests turn it on, most
with a fake clock so that where the cut falls is exact.
"""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Callable, Iterator

import pytest

from aintern_ls.safety import budget
from aintern_ls.safety.analyser import OUT_OF_TIME, _assess_cached
from aintern_ls.safety.levels import Assessment, RiskLevel

analyse = _assess_cached.__wrapped__

# 120 distinct plain commands after a system wipe: 2,900 characters, never cut by steps.
WIPE_FIRST = "rm -rf /\n" + "".join(f"ls -la dir{i} | grep x{i}\n" for i in range(120))
STEP_REASON = "too complex to analyse (more work than a text of its size may take)"


def _cut(got: Assessment) -> str:
    """ "clock", "steps" or "" (not cut)."""
    for f in got.findings:
        if f.rule == "too-complex":
            assert f.level == RiskLevel.CRITICAL
            return "clock" if f.reason.startswith(OUT_OF_TIME) else "steps"
    return ""


@pytest.fixture
def clock_on() -> Iterator[None]:
    budget.use_clock(True)
    yield
    budget.use_clock(False)


@pytest.fixture
def per_step_clock(monkeypatch: pytest.MonkeyPatch, clock_on: None) -> float:
    """A machine where every budget step costs 2 µs of CPU: the clock reads the steps the
    open assessment spent (so a 1 µs/step deadline falls at half the budget)."""

    def thread_time() -> float:
        return budget._STATE.spent * 2e-6

    monkeypatch.setattr(budget, "time", types.SimpleNamespace(thread_time=thread_time))
    return 2.0


@pytest.fixture
def counting_clock(monkeypatch: pytest.MonkeyPatch, clock_on: None) -> Callable[[], int]:
    """A clock that advances one millisecond each time it is read; returns how many times
    it was read."""
    readings = [0]

    def thread_time() -> float:
        readings[0] += 1
        return readings[0] * 1e-3

    monkeypatch.setattr(budget, "time", types.SimpleNamespace(thread_time=thread_time))
    return lambda: readings[0]


def test_the_clock_is_off_in_the_tests() -> None:
    assert not budget.clock_on()
    got = analyse(WIPE_FIRST, "bash", None)
    assert got.level == RiskLevel.BLOCKED and not _cut(got)


def test_a_tiny_allowance_cuts_a_plain_script_at_its_first_check(
    clock_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "; ".join(f"ls -la d{i}" for i in range(40))
    budget.use_clock(False)
    uncut = analyse(text, "bash", None)
    assert uncut.level == RiskLevel.SAFE and budget.spent() > budget.CLOCK_CHECK_STEPS
    budget.use_clock(True)
    monkeypatch.setattr(budget, "CLOCK_US_PER_STEP", 0.001)
    got = analyse(text, "bash", None)
    assert got.level == RiskLevel.CRITICAL and _cut(got) == "clock"
    assert budget.spent() < 2 * budget.CLOCK_CHECK_STEPS  # (in the parse, or at 512 steps)
    (finding,) = got.findings
    assert "time" in finding.reason and (finding.start, finding.end) == (0, len(text))


def test_a_short_command_never_reads_the_clock(counting_clock: Callable[[], int]) -> None:
    got = analyse("git status && ls -la", "bash", None)
    assert got.level == RiskLevel.SAFE
    assert counting_clock() == 1  # (once, when the assessment opened)


def test_findings_before_the_clock_cut_are_kept(per_step_clock: float) -> None:
    budget.use_clock(False)
    assert analyse(WIPE_FIRST, "bash", None).level == RiskLevel.BLOCKED
    limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(WIPE_FIRST)
    assert budget.spent() < limit  # not cut by steps
    budget.use_clock(True)
    got = analyse(WIPE_FIRST, "bash", None)
    assert got.level == RiskLevel.BLOCKED and _cut(got) == "clock"
    assert any(f.rule == "rm-root" for f in got.findings)
    # cut at the first reading past the deadline
    at = limit * budget.CLOCK_US_PER_STEP / per_step_clock
    assert at < budget.spent() < at + budget.CLOCK_CHECK_STEPS + 200


TAIL = "".join(f"ls -la dir{i} | grep x{i}\n" for i in range(120))


@pytest.mark.parametrize(
    "wipe",
    [
        "rm -rf /",
        "sudo rm -rf /",
        "env A=1 nice rm -rf /",
        "sh -c 'rm -rf /'",
        'eval "rm -rf /"',
        "f() { rm -rf /; }; f",
    ],
)
def test_wrapped_the_clock_cut_keeps_the_level(per_step_clock: float, wipe: str) -> None:
    """A wipe judged before the clock cuts (in any wrapper) stays blocked."""
    got = analyse(wipe + "\n" + TAIL, "bash", None)
    assert got.level == RiskLevel.BLOCKED, got
    assert _cut(got) == "clock"


def test_nested_analyses_share_the_deadline(counting_clock: Callable[[], int]) -> None:
    """`sh -c` and `eval` strings are analysed inside the same assessment: its one
    deadline (one reading per ms of its allowance, of a clock that advances 1 ms a reading)
    covers them all."""
    body = "; ".join(f"ls -la d{i} | grep -c x{i}" for i in range(300))
    for text in (
        body,
        f"sh -c '{body}'",
        f'eval "{body}"',
        f"bash -c 'sh -c \"{body}\"'",
    ):
        before = counting_clock()
        got = analyse(text, "bash", None)
        assert _cut(got) == "clock", text[:20]
        limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text)
        allowance = limit * budget.CLOCK_US_PER_STEP / 1000  # in readings (1 ms each)
        assert counting_clock() - before == int(allowance) + 2, text[:20]


def test_the_deadline_resets_per_assessment(counting_clock: Callable[[], int]) -> None:
    long = "; ".join(f"ls -la d{i} | grep -c x{i}" for i in range(300))
    short = "; ".join(f"ls -la d{i}" for i in range(40))  # 6 readings
    for _ in range(3):
        assert _cut(analyse(long, "bash", None)) == "clock"
        got = analyse(short, "bash", None)
        assert got.level == RiskLevel.SAFE and not _cut(got)


def test_the_deadline_is_per_thread(clock_on: None) -> None:
    """Another thread's assessment has its own deadline and its own CPU clock."""
    budget.start(100)  # 16,250 steps: about 16 ms of this thread's CPU
    try:
        end = time.thread_time() + budget.allowance_ms() / 1000 + 0.005
        while time.thread_time() < end:
            pass
        results: list[Assessment] = []
        worker = threading.Thread(
            target=lambda: results.append(analyse("; ".join(["ls -la"] * 40), "bash", None))
        )
        worker.start()
        worker.join()
        assert results[0].level == RiskLevel.SAFE and not _cut(results[0])
        with pytest.raises(budget.OutOfTime):
            budget.spend(budget.CLOCK_CHECK_STEPS + 1)
    finally:
        budget.stop()


def test_the_grammar_reads_the_clock_while_it_parses(
    counting_clock: Callable[[], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No step reaches a gate (`CLOCK_CHECK_STEPS` out of reach): the only readings are the
    grammar's progress callbacks, and they cut the parse."""
    monkeypatch.setattr(budget, "CLOCK_CHECK_STEPS", 10**9)
    monkeypatch.setattr(budget, "CLOCK_US_PER_STEP", 0.01)
    text = "".join(f"echo line{i} | grep -c x{i}\n" for i in range(600))
    got = analyse(text, "bash", None)
    assert _cut(got) == "clock"
    assert counting_clock() >= 2


@pytest.mark.parametrize("family", ["bash", "powershell", "cmd"])
def test_a_step_cut_keeps_its_own_reason(clock_on: None, family: str) -> None:
    text = "; ".join(f"ls -la d{i} | grep x{i}" for i in range(500))
    got = analyse(text, family, None)
    budget.use_clock(False)
    assert _cut(analyse(text, family, None)) == "steps"
    if _cut(got) == "steps":  # (on a fast enough machine; the clock may cut it first)
        assert any(f.reason.startswith(STEP_REASON) for f in got.findings)


def test_a_delete_of_thousands_of_targets_reads_the_clock(
    counting_clock: Callable[[], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rm -rf a a a …`: each target's classification is dearer than the half step its word
    pays, so the loop over them reads the clock itself (no gate or callback here does)."""
    monkeypatch.setattr(budget, "CLOCK_CHECK_STEPS", 10**9)
    monkeypatch.setattr(budget, "CLOCK_CHECK_CALLS", 10**9)
    monkeypatch.setattr(budget, "CLOCK_US_PER_STEP", 0.001)
    for family in ("bash", "powershell"):
        got = analyse("rm -rf" + " a" * 3000, family, None)
        assert _cut(got) == "clock", family


def test_findings_are_folded_before_the_collector_resumes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(A collector resumed with the walk's objects alive walked them all: up to 20 ms after
    a cut 10,000-character text.)"""
    import gc

    from aintern_ls.safety import analyser

    fold = analyser._fold
    seen: list[bool] = []

    def watched(*args: object) -> Assessment:
        seen.append(gc.isenabled())
        return fold(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(analyser, "_fold", watched)
    assert gc.isenabled()
    assert analyse("rm -rf / ; ls", "bash", None).level == RiskLevel.BLOCKED
    assert seen == [False] and gc.isenabled()


def test_work_paid_ahead_must_end_by_the_deadline(counting_clock: Callable[[], int]) -> None:
    """`spend` pays before the work: steps paid that the time left cannot cover cut now
    (the clock reads 1 ms at the start, so the deadline is 42 ms; it advances 1 ms a
    reading)."""
    for paid, cut in ((39_500, False), (40_500, True)):
        budget.start(10_000)  # 41,000 steps, 41 ms
        try:
            if cut:
                with pytest.raises(budget.OutOfTime):
                    budget.spend(paid)  # (read at 2 ms: 2 + 40.5 > 42)
            else:
                budget.spend(paid)  # (2 + 39.5 <= 42)
        finally:
            budget.stop()
