"""A cut inside nested code keeps what the nested analysis found before it (lead, session 16).

The work budget (steps, and the CPU clock backstop) is shared by a text and the code nested in
it (`sh -c '…'`, `eval`, `cmd /c`, `powershell -Command`). When it ran out inside the nested
code, the nested scope's findings were dropped, so padding a wrapper's code with thousands of
harmless commands after a system wipe made the wipe `critical` ("too complex") instead of
`blocked`. `Scope.nested` now keeps them, at every nesting level, and the cut still shows.
"""

from __future__ import annotations

import types

import pytest

from aintern_ls.safety import budget
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.levels import Assessment, RiskLevel

analyse = _assess_cached.__wrapped__

PAD_BASH = "; ".join(f"cp a{i} b{i}" for i in range(1200))
PAD_CMD = " & ".join(f"copy a{i} b{i}" for i in range(900))
PAD_PS = "; ".join(f"Copy-Item a{i} b{i}" for i in range(900))


def _rules(got: Assessment) -> set[str]:
    return {f.rule for f in got.findings}


CASES = [
    ("bash", f"sh -c 'rm -rf / --no-preserve-root; {PAD_BASH}'", "rm -rf /", "rm-root"),
    ("bash", f"eval 'rm -rf ~; {PAD_BASH}'", "rm -rf ~", "rm-home"),
    ("bash", f'bash -c "sudo rm -rf /etc; {PAD_BASH}"', "rm -rf /etc", "rm-system"),
    ("bash", f"sudo sh -c 'rm -rf /; {PAD_BASH}'", "rm -rf /", "rm-root"),
    ("bash", f"env -i timeout 5 bash -c 'rm -rf /; {PAD_BASH}'", "rm -rf /", "rm-root"),
    ("cmd", f'cmd /c "rd /s /q C:\\Windows & {PAD_CMD}"', "rd /s /q C:\\Windows", "rm-system"),
    (
        "powershell",
        f'powershell -Command "Remove-Item -Recurse -Force C:\\Windows; {PAD_PS}"',
        "Remove-Item -Recurse -Force C:\\Windows",
        "rm-system",
    ),
]


@pytest.mark.parametrize(("shell", "text", "culprit", "rule"), CASES)
def test_a_blocked_command_padded_inside_nested_code_stays_blocked(
    shell: str, text: str, culprit: str, rule: str
) -> None:
    got = analyse(text, shell, None)
    assert got.level == RiskLevel.BLOCKED, got
    assert "too-complex" in _rules(got)  # the cut still shows
    blocked = [f for f in got.findings if f.level == RiskLevel.BLOCKED]
    assert any(f.rule == rule for f in blocked), got.findings[:4]
    # …underlined where the culprit is in the text, not on the whole wrapper.
    at = text.index(culprit)
    assert any(f.start <= at < f.end or at <= f.start < at + len(culprit) for f in blocked)


def test_two_levels_of_nesting_keep_the_innermost_finding() -> None:
    text = f"""sh -c "bash -c 'rm -rf /; {PAD_BASH}'" """
    got = analyse(text, "bash", None)
    assert got.level == RiskLevel.BLOCKED
    assert "rm-root" in _rules(got) and "too-complex" in _rules(got)


def test_findings_made_by_the_first_of_two_nested_codes_stay() -> None:
    # The first wrapper completes, the second is cut: both parts count.
    text = f"sh -c 'rm -rf /' && sh -c '{PAD_BASH}'"
    got = analyse(text, "bash", None)
    assert got.level == RiskLevel.BLOCKED
    assert "too-complex" in _rules(got)


@pytest.mark.parametrize(
    ("shell", "text"),
    [
        ("bash", f"sh -c 'echo start; {PAD_BASH}'"),
        ("cmd", f'cmd /c "echo start & {PAD_CMD}"'),
        ("powershell", f'powershell -Command "Write-Output start; {PAD_PS}"'),
    ],
)
def test_harmless_padded_nested_code_is_only_cut(shell: str, text: str) -> None:
    # The look-alike: the same padding after a harmless command is cut (critical), no more.
    got = analyse(text, shell, None)
    assert got.level == RiskLevel.CRITICAL
    assert "too-complex" in _rules(got)


def test_a_clock_cut_inside_nested_code_keeps_its_findings_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A machine where every step costs 2 µs (the clock reads the steps spent, as in
    # test_safety_sp16_clock): the 1 µs/step deadline falls at half the budget, inside the
    # nested code, after its wipe was judged.
    pad = "; ".join(f"cp a{i} b{i}" for i in range(600))
    text = f"sh -c 'rm -rf /; {pad}'"
    monkeypatch.setattr(
        budget, "time", types.SimpleNamespace(thread_time=lambda: budget._STATE.spent * 2e-6)
    )
    budget.use_clock(True)
    try:
        got = analyse(text, "bash", None)
    finally:
        budget.use_clock(False)
    assert got.level == RiskLevel.BLOCKED
    assert {"rm-root", "too-complex"} <= _rules(got)
    assert any("time" in f.reason for f in got.findings if f.rule == "too-complex")
