"""Speed bar of issue 14, review 12 finding 9 (sp14b): a pipeline of thousands of tiny
stages (`x (a|a|…)`, `a|a|…|`, an unclosed quote after it) cost the bash grammar the square
of its length (330-480 ms for 10,000 characters) before any budget step was paid. Such a
pipeline is cut at `stages.MAX_STAGES` stages before the grammar sees it: what comes
before is judged, the rest is too complex (critical). Timings are the bench's business
(`python -m bench.safety`, its "long shapes" group); these tests pin levels and the steps
spent, which do not depend on the machine."""

from __future__ import annotations

import pytest

from aintern_ls.safety import analyser, budget, stages
from aintern_ls.safety.levels import RiskLevel
from bench._sp14b_shapes import long_shapes

SHELLS = ("bash", "powershell", "cmd")
PIPE = "a|" * 5000


def _assess(text: str, shell: str) -> tuple[str, set[str], float]:
    got = analyser._assess_cached.__wrapped__(text, shell, None)
    return got.level.label, {f.rule for f in got.findings}, budget.spent()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "text",
    [PIPE, "x (" + PIPE + ")", PIPE + "'", PIPE + '"', "echo $(" + PIPE + "a)", "a|\n" * 3000],
    ids=["pipe", "word-paren", "squote", "dquote", "subst", "pipe-newline"],
)
def test_a_long_pipeline_is_cut_before_the_grammar(text: str, shell: str) -> None:
    if shell == "cmd" and "\n" in text:
        return  # (cmd ends a pipeline at a line break: 3,000 pipelines of one stage)
    level, rules, spent = _assess(text, shell)
    assert "too-complex" in rules
    assert RiskLevel[level.upper()] >= RiskLevel.CRITICAL
    # cut at its 400th stage: a fraction of the 10,000-character budget (42,500 steps)
    assert spent < 20_000


# (the command before the pipeline, run in every wrapper: its verdict stands)
@pytest.mark.parametrize(
    "head",
    [
        "rm -rf /",
        "sudo rm -rf /",
        "env -i nice rm -rf /",
        "sh -c 'rm -rf /'",
        "eval 'rm -rf /'",
        "f() { rm -rf /; }; f",
    ],
)
def test_what_comes_before_the_cut_keeps_its_level(head: str) -> None:
    level, rules, _ = _assess(head + "|" + PIPE + "a", "bash")
    assert level == "blocked"
    assert "too-complex" in rules


def test_a_long_pipeline_in_a_nested_shell_is_cut_too() -> None:
    level, rules, spent = _assess("bash -c '" + PIPE + "'", "bash")
    assert "too-complex" in rules and level == "critical"
    assert spent < 20_000


def test_pipes_that_are_words_do_not_count() -> None:
    alternation = "|".join(f"w{i}" for i in range(1500))
    for text in (
        f"grep -E '{alternation}' log.txt",
        f'grep -E "{alternation}" log.txt',
        "echo " + "\\|" * 1500,
        "a || " * 1000 + "a",  # a list of 1,000 pipelines of one stage each
        "a | b\n" * 1000,  # 1,000 pipelines of two stages
    ):
        assert stages.cut_at(text, "bash") == -1, text[:40]
    assert stages.cut_at('Select-String "' + alternation + '" log.txt', "powershell") == -1
    assert stages.cut_at('findstr "' + alternation + '" log.txt', "cmd") == -1
    level, rules, _ = _assess(f"grep -E '{alternation}' log.txt", "bash")
    assert level == "safe" and "too-complex" not in rules


def test_the_cut_falls_at_the_stage_limit() -> None:
    text = "a|" * (stages.MAX_STAGES - 1) + "a"
    assert stages.cut_at(text, "bash") == -1
    text = "rm -rf x;" + "a | " * (stages.MAX_STAGES + 5)
    assert stages.cut_at(text, "bash") == len("rm -rf x;") + 4 * (stages.MAX_STAGES - 1) + 2
    assert stages.cut_at("é|" * 500, "bash") == 2 * (stages.MAX_STAGES - 1) + 1  # characters


@pytest.mark.parametrize("size", [2_000, 10_000])
def test_every_long_shape_stays_within_its_budget(size: int) -> None:
    for label, text in long_shapes(size).items():
        for shell in SHELLS:
            got = analyser._assess_cached.__wrapped__(text, shell, None)
            cut = any(f.rule == "too-complex" for f in got.findings)
            if budget.spent() > budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text):
                assert cut, (label, shell)
            if cut:
                assert got.level >= RiskLevel.CRITICAL, (label, shell)
