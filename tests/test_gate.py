"""The gate, pure: assessment + how the caller confirmed -> run / ask / refuse."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, SafetyRules, gate

C = gate.Confirmation
V = gate.Verdict


@pytest.mark.parametrize(
    ("command", "confirmation", "verdict"),
    [
        ("ls", C.NONE, V.RUN),
        ("touch x", C.NONE, V.RUN),
        ("rm -f x", C.NONE, V.REFUSE),
        ("rm -f x", C.CAN_ASK, V.ASK),
        ("rm -f x", C.CONFIRMED, V.RUN),
        ("rm -f x", C.DECLINED, V.REFUSE),
        ("rm -f x", C.AT_PROMPT, V.RUN),
        ("sudo ls", C.CAN_ASK, V.ASK),
        ("rm -rf /", C.CONFIRMED, V.REFUSE),
        ("rm -rf /", C.AT_PROMPT, V.REFUSE),
    ],
)
def test_verdicts(command: str, confirmation: gate.Confirmation, verdict: gate.Verdict) -> None:
    assert gate.decide(gate.check(command), confirmation).verdict is verdict


def test_reason_text_names_the_rule_and_says_how_to_confirm() -> None:
    decision = gate.decide(gate.check("rm -f x"), C.NONE)
    assert decision.reason.startswith("this command is dangerous and runs only after confirmation")
    assert "rm:" in decision.reason and decision.needs_confirmation
    assert '"confirmed": true' in gate.hint_for(decision, gate.LSP_CONFIRM_HINT)
    blocked = gate.decide(gate.check("rm -rf /"), C.CONFIRMED)
    assert blocked.blocked and blocked.reason.startswith("blocked, this command never runs")
    assert gate.hint_for(blocked, gate.LSP_CONFIRM_HINT) == ""


def test_user_rules_act_inside_the_assessment() -> None:
    rules = gate.rules_from(None)
    assert rules == SafetyRules()
    rules = SafetyRules(extra_blocked=["^make deploy"], trusted=["touch ok"])
    assert gate.check("make deploy", "bash", rules).level is RiskLevel.BLOCKED
    assert gate.check("touch ok", "bash", rules).level is RiskLevel.SAFE
    assert gate.check("touch ok", "bash").level is RiskLevel.MODERATE


@pytest.mark.parametrize(
    "name",
    [
        "BASH_ENV",
        "ENV",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "DYLD_INSERT_LIBRARIES",
        "BASH_FUNC_ls%%",
        "PATH",
        "PROMPT_COMMAND",
        "SHELLOPTS",
        "PS4",
        "path",
    ],
)
def test_env_names_that_run_code_are_critical(name: str) -> None:
    assessment = gate.check("echo hi", "bash", None, {name: "x"})
    assert assessment.level is RiskLevel.CRITICAL
    assert assessment.findings[0].rule == "dangerous-env" and name in assessment.findings[0].reason


def test_harmless_env_names_change_nothing() -> None:
    assert gate.check("echo hi", "bash", None, {"FOO": "1", "LANG": "C"}).level is RiskLevel.SAFE


def test_too_long_is_critical_never_safe_and_answered_at_once() -> None:
    word = gate.check("A" * 1_000_000)
    assert word.level is RiskLevel.CRITICAL and word.findings[0].rule == "too-long"
    blob = gate.check("echo " + "B" * (gate.MAX_ANALYSED_WORD + 1))
    assert blob.level is RiskLevel.CRITICAL
    assert gate.check("echo " + "B" * 100).level is RiskLevel.SAFE


def test_a_nul_byte_is_blocked() -> None:
    assessment = gate.check("echo a\x00b")
    assert assessment.level is RiskLevel.BLOCKED
    assert assessment.findings[0].rule == "nul-byte"
