"""The work budget kept as a limit on the steps spent, and `Word` as a named tuple (safety-sp9b).

Both are speed changes that must not move a verdict: the budget runs out at exactly the step
it ran out at before (a step is a multiple of half a step, so the sums are exact), an
assessment that is not open never runs out, and a `Word` still compares, hashes and refuses
changes as it did.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import budget
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.words import Word


def test_the_budget_runs_out_one_step_past_its_limit() -> None:
    budget.start(0)  # BASE_STEPS
    try:
        budget.spend(budget.BASE_STEPS - budget.TICK_STEPS - 1.5)
        assert budget.affordable(budget.TICK_STEPS + 1.5)
        assert not budget.affordable(budget.TICK_STEPS + 2)
        budget.spend(1.5)
        budget.tick()  # exactly the budget: still within it
        assert budget.spent() == budget.BASE_STEPS
        assert budget.affordable(0) and not budget.affordable(0.5)
        with pytest.raises(budget.TooComplex):
            budget.tick()
    finally:
        budget.stop()
    assert budget.spent() == budget.BASE_STEPS + budget.TICK_STEPS


def test_a_budget_of_half_steps_is_exact() -> None:
    budget.start(3)  # BASE_STEPS + 7.5
    try:
        for _ in range(2 * budget.BASE_STEPS + 15):
            budget.spend(0.5)
        with pytest.raises(budget.TooComplex):
            budget.spend(0.5)
    finally:
        budget.stop()


def test_no_open_assessment_never_runs_out() -> None:
    budget.stop()
    budget.reset()
    budget.spend(10 * budget.BASE_STEPS)
    budget.tick()
    assert budget.affordable(10**9)
    assert budget.spent() == 10 * budget.BASE_STEPS + budget.TICK_STEPS


def test_a_cut_input_still_spends_its_whole_budget() -> None:
    text = "".join(f":l{i}\ncall :l{i - 1}\n" for i in range(1, 10_000 // 16))
    got = _assess_cached.__wrapped__(text, "bash", None)
    assert any(f.rule == "too-complex" for f in got.findings)
    limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text)
    # (past the limit by the last unit paid for at most: here a command judged)
    assert limit < budget.spent() <= limit + budget.JUDGE_STEPS + 100


def test_a_word_compares_hashes_and_refuses_changes() -> None:
    w = Word("rm", 0, 2)
    assert w == Word("rm", 0, 2, False, False, "")
    assert w != Word("rm", 0, 2, dynamic=True)
    assert hash(w) == hash(Word("rm", 0, 2))
    assert {w, Word("rm", 0, 2)} == {w}
    assert (w.text, w.start, w.end, w.dynamic, w.glob, w.origin) == ("rm", 0, 2, False, False, "")
    with pytest.raises(AttributeError):
        w.text = "ls"  # type: ignore[misc]
