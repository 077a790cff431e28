"""The speed mechanisms (issue 14): a repeated command is judged once, the whole assessment
has a CPU budget, wrappers inside each other are followed to a bound. Each test checks that
the verdict is unchanged by the mechanism, and that the mechanism really acts.

Timings are not asserted (`python -m bench.safety` prints them): the tests count work.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, analyser, budget, dispatch
from aintern_ls.safety.context import Info, Scope, Stdin

_analyse = analyser._assess_cached.__wrapped__


def _count_judgements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = dispatch.judge_uncached

    def spy(words: list, scope: Scope, stdin: Stdin = dispatch.NO_STDIN) -> Info:  # type: ignore[type-arg]
        if scope.wrapped == 0:
            seen.append(" ".join(w.text for w in words))
        return real(words, scope, stdin)

    monkeypatch.setattr(dispatch, "judge_uncached", spy)
    return seen


@pytest.mark.parametrize("shell", ["bash", "powershell", "cmd"])
def test_a_repeated_command_is_judged_once_and_found_at_every_occurrence(
    shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (PowerShell: a native delete; cmd's `del /s /q` written there has two readings since
    # gen13, PowerShell's and cmd's, each judged once)
    line = {"bash": "rm -r build", "powershell": "Remove-Item -Recurse build"}.get(
        shell, "del /s /q build"
    )
    text = "\n".join([line] * 50)
    seen = _count_judgements(monkeypatch)
    got = _analyse(text, shell, None)
    assert seen.count(" ".join(line.split())) <= 1, seen[:5]
    starts = sorted({f.start for f in got.findings if f.level == got.level})
    assert starts == [i * (len(line) + 1) for i in range(50)]
    assert got.level >= RiskLevel.DANGEROUS


def test_the_same_command_is_judged_again_when_the_state_changed() -> None:
    # Same words, different state: the script the second `bash x.sh` runs is another one.
    text = "cat > x.sh <<'EOF'\nls\nEOF\nbash x.sh\ncat > x.sh <<'EOF'\nrm -rf /\nEOF\nbash x.sh"
    assert _analyse(text, "bash", None).level == RiskLevel.BLOCKED
    # …and a `cd` between two identical deletions changes what they delete.
    assert _analyse("cd /tmp && rm -rf etc; cd / && rm -rf etc", "bash", None).level == (
        RiskLevel.BLOCKED
    )
    assert _analyse("cd /tmp && rm -rf etc; cd /var/tmp && rm -rf etc", "bash", None).level == (
        RiskLevel.DANGEROUS
    )


def test_the_same_words_written_differently_are_not_confused() -> None:
    # `rm -rf "$x"` after x changes: the words differ, so nothing is reused wrongly.
    got = _analyse('x=build; rm -rf "$x"; x=/; rm -rf "$x"', "bash", None)
    assert got.level == RiskLevel.BLOCKED


def test_an_alias_defined_between_two_uses_is_followed() -> None:
    got = _analyse("ls; alias ls='rm -rf ~'; ls", "bash", None)
    assert got.level == RiskLevel.BLOCKED


def test_the_whole_assessment_has_a_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "BASE_STEPS", 0)
    monkeypatch.setattr(budget, "PER_BYTE_STEPS", 0.5)
    honest = "".join(f"echo step{i}\n" for i in range(400))
    cut = _analyse(honest, "bash", None)
    assert cut.level == RiskLevel.CRITICAL and cut.findings[0].rule == "too-complex"


def test_what_was_found_before_the_budget_ran_out_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A budget that runs out after the first line: `rm -rf /` was found, and stays.
    text = "rm -rf /\n" + "".join(f"echo step{i}\n" for i in range(400))
    monkeypatch.setattr(budget, "READ_STEPS", 0)  # the parse is free here
    monkeypatch.setattr(budget, "PARSE_NODES_PER_STEP", 10**9)  # …the tree it builds too
    monkeypatch.setattr(budget, "TEXT_CHARS_PER_STEP", 10**9)  # …and so are the text's passes
    monkeypatch.setattr(budget, "BASE_STEPS", 300)  # a few lines
    monkeypatch.setattr(budget, "PER_BYTE_STEPS", 0)
    got = _analyse(text, "bash", None)
    assert got.level == RiskLevel.BLOCKED
    assert any(f.rule == "too-complex" for f in got.findings)
    assert any(f.rule != "too-complex" and f.level == RiskLevel.BLOCKED for f in got.findings)


def test_the_work_is_counted_the_same_on_every_run() -> None:
    # Deterministic: the steps an assessment spends depend on the text alone.
    text = "".join(f"sudo env A={i} nice timeout 5 rm -f x{i} | grep -v y\n" for i in range(60))
    spent = set()
    for _ in range(3):
        _analyse(text, "bash", None)
        spent.add(budget.spent())
    assert len(spent) == 1 and spent.pop() > 100


@pytest.mark.parametrize("count", [3, 11, 40, 2000])
def test_wrappers_inside_each_other_are_followed_to_a_bound(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2,000 wrappers (10,000 characters) may run out of the budget: what was found first
    # (the blocked `rm -rf /` inside the first dozen) stands.
    text = "sudo " * count + "rm -rf /"
    got = _analyse(text, "bash", None)
    assert got.level == RiskLevel.BLOCKED, (count, got)
    if count > dispatch._MAX_WRAPPED:
        assert any(f.rule == "nesting" for f in got.findings)
    plain = _analyse("sudo " * count + "ls", "bash", None)
    assert plain.level == RiskLevel.CRITICAL


def test_the_error_region_work_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bash text in a PowerShell fence: thousands of error regions, a handful of distinct
    # commands. The judgements are counted, not timed.
    text = "! for i in 1; do :; done\n" * 400
    seen = _count_judgements(monkeypatch)
    _analyse(text, "powershell", None)
    assert len(seen) <= 10, seen[:12]


@pytest.mark.parametrize("shell", ["bash", "powershell", "cmd"])
@pytest.mark.parametrize(
    "line",
    [
        "perl -e 'fork while fork'",
        "python3 -c 'import os\nwhile True: os.fork()'",
        "ruby -e 'loop { fork }'",
        "php -r 'while(1) pcntl_fork();'",
    ],
)
def test_fork_loops_repeated_to_10k_characters_stay_blocked(
    line: str, shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shell != "bash":
        line = line.replace("'", '"')
    text = (line + "\n") * (10_000 // (len(line) + 1))
    got = _analyse(text, shell, None)
    assert got.level == RiskLevel.BLOCKED, got.findings[:3]
