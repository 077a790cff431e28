"""Speed bar of issue 14 (sp15, session 15): the grammars' own work that no budget step
paid. Some error recoveries of the PowerShell grammar run away: 10,000 characters of
`+ = ` took 2 s, `+-eq ` 1.4 s, `!a -a:1 ` 0.9 s, while reading every byte once (so the
chunk reads never ran out). The grammar reports its operations through a progress callback
(one per 100): ordinary text of any shell makes at most about 0.11 a byte, these 0.9-3.4.
Callbacks past the allowance (`budget.OPS_FREE_CALLS` plus one per 8 bytes) cost
`budget.OPS_STEPS` each, and the parse is cancelled once the budget is gone. Other
recoveries cost 8-70 µs each with no extra operation (`(a)(a)…`, `1 2 …`: 100-220 ms for
10,000 characters): a PowerShell text over 1 KB is first parsed in windows of about 512
bytes (never splitting quoted text), and each window pays for its errors (`budget._probe`).
Timings are
the bench's business (`python -m bench.safety`, its "long shapes" group); these tests pin
levels and steps, which do not depend on the machine."""

from __future__ import annotations

import pytest

from aintern_ls.safety import analyser, budget
from aintern_ls.safety.levels import RiskLevel

SHELLS = ("bash", "powershell", "cmd")
RUNAWAY = ["+ = ", "+| ", "+-eq ", "!a -a:1 ", "| + ", "+ -eq "]  # (`,`: paid before, `ps_price`)


def _assess(text: str, shell: str) -> tuple[str, set[str], float]:
    got = analyser._assess_cached.__wrapped__(text, shell, None)
    return got.level.label, {f.rule for f in got.findings}, budget.spent()


def _fill(unit: str, size: int) -> str:
    return unit * (size // len(unit))


@pytest.mark.parametrize("unit", RUNAWAY)
def test_a_runaway_error_recovery_is_cut_inside_the_grammar(unit: str) -> None:
    text = _fill(unit, 10_000)
    limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text)
    level, rules, spent = _assess(text, "powershell")
    assert "too-complex" in rules and level == "critical"
    # cut where its budget ran out (by the grammar's operations, or by its windows'
    # errors: `budget._probe`), not after
    assert limit < spent <= limit + 20_000


@pytest.mark.parametrize("unit", RUNAWAY[:2])
def test_a_short_runaway_pays_too(unit: str) -> None:
    # (the runaway grows with the square of its length: 27-43 ms at 1,000 characters)
    level, rules, _ = _assess(_fill(unit, 1_000), "powershell")
    assert "too-complex" in rules and level == "critical"


def test_the_grammar_is_usable_after_a_cancelled_parse() -> None:
    _assess(_fill("+ = ", 10_000), "powershell")
    level, rules, _ = _assess("Remove-Item -Recurse -Force C:\\Windows", "powershell")
    assert level == "blocked" and "too-complex" not in rules
    level, rules, _ = _assess("Get-ChildItem | Select-Object Name", "powershell")
    assert level == "safe"


# (the runaway in a nested PowerShell, in every wrapper the outer shell has)
@pytest.mark.parametrize(
    "outer,shell",
    [
        ("pwsh -Command '{}'", "bash"),
        ("sudo pwsh -c '{}'", "bash"),
        ("sh -c \"pwsh -Command '{}'\"", "bash"),
        ('powershell -Command "{}"', "cmd"),
        ("powershell -Command {{ {} }}", "powershell"),
    ],
)
def test_a_runaway_in_a_nested_powershell_is_cut_too(outer: str, shell: str) -> None:
    text = outer.format(_fill("+ = ", 9_000))
    level, rules, spent = _assess(text, shell)
    assert "too-complex" in rules
    assert RiskLevel[level.upper()] >= RiskLevel.CRITICAL
    assert spent <= budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text) + 20_000


@pytest.mark.parametrize("shell", SHELLS)
def test_ordinary_text_pays_no_operations(shell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # With an operation past the allowance priced out of reach, ordinary scripts (and the
    # bench's pathological inputs the reads and nodes already pay for) are judged the same.
    from tests.safety.test_safety_limits import _pathological

    texts = {
        "honest script": "".join(
            f"mkdir -p build/{i} && cp src/{i}.c build/{i}/ && gcc -c build/{i}/{i}.c\n"
            for i in range(150)
        ),
        "ps script": "".join(
            f"$x{i} = Get-Item -Path C:\\src\\{i} | Where-Object {{ $_.Length -gt {i} }}\n"
            f"if ($x{i}) {{ Copy-Item $x{i} -Destination (Join-Path $out 'b{i}') -Force }}\n"
            for i in range(60)
        ),
        "short": "echo hello",
        **{k: v for k, v in _pathological(10_000).items() if "brace" not in k},
    }
    analyse = analyser._assess_cached.__wrapped__

    def judged() -> dict[str, tuple[object, float]]:
        out: dict[str, tuple[object, float]] = {}
        for k, t in texts.items():
            got = analyse(t, shell, None)
            if not any(f.reason == "too deeply nested to analyse" for f in got.findings):
                # (thousands of nested parentheses do take the grammar more operations
                # than the allowance; they end at Python's recursion limit either way)
                out[k] = (got, budget.spent())
        return out

    normal = judged()
    monkeypatch.setattr(budget, "OPS_STEPS", 10**9)
    after = judged()
    assert {k: v for k, v in after.items() if k in normal} == normal
    assert len(normal) >= len(texts) - 8
    for k in ("honest script", "ps script"):
        got = analyse(texts[k], shell, None)
        assert not any(f.rule == "too-complex" for f in got.findings), k


# --- the PowerShell grammar's error recoveries, paid before it parses (`budget._probe`) ---
# One error each, 8-70 µs in this grammar, with no extra reads or operations: an
# expression, a parenthesis, a substitution or a literal glued to the next.
RECOVERIES = ["(a)", "$(a)", "@(a)", "1 2 ", "(a) x ", "(a)[0]", 'echo "$(a)"', "$a=1 2 "]


@pytest.mark.parametrize("unit", RECOVERIES)
def test_dense_error_recoveries_are_cut_before_the_whole_parse(unit: str) -> None:
    text = _fill(unit, 10_000)
    level, rules, spent = _assess(text, "powershell")
    assert "too-complex" in rules and level == "critical"
    # (cut in its windows, a window's price past the budget at most)
    assert spent <= budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(text) + 20_000


@pytest.mark.parametrize("unit", ["(a)", "1 2 "])
def test_dense_errors_after_an_honest_head_are_cut_too(unit: str) -> None:
    head = "".join(f"Copy-Item src/{i}.txt dst/{i}.txt\n" for i in range(60))
    level, rules, _ = _assess(head + _fill(unit, 8_000), "powershell")
    assert "too-complex" in rules and level == "critical"


@pytest.mark.parametrize(
    "outer,shell",
    [("pwsh -Command '{}'", "bash"), ('powershell -Command "{}"', "cmd")],
)
def test_dense_errors_in_a_nested_powershell_are_cut(outer: str, shell: str) -> None:
    level, rules, _ = _assess(outer.format(_fill("(a)", 9_000)), shell)
    assert "too-complex" in rules
    assert RiskLevel[level.upper()] >= RiskLevel.CRITICAL


def _windows_free(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`text` judged as PowerShell pays nothing for its windows: the same verdict and steps
    with every window's error priced out of reach."""
    analyse = analyser._assess_cached.__wrapped__
    normal = (analyse(text, "powershell", None), budget.spent())
    with monkeypatch.context() as m:
        m.setattr(budget, "PROBE_ERROR_STEPS", 10**9)
        m.setattr(budget, "PROBE_SKIPPED_STEPS", 10**9)
        m.setattr(budget, "PROBE_NODE_STEPS", 10**9)
        assert (analyse(text, "powershell", None), budget.spent()) == normal
    assert not any(f.rule == "too-complex" for f in normal[0].findings)


def test_long_strings_and_pipelines_are_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    # quoted text spanning many windows is never cut inside (it would read as code), and a
    # window never ends on a `|` (a text ending in one is an error holding its pipeline)
    blob = ",".join(f'{{"k{i}": [{i}, "v (a) 1 2"]}}' for i in range(300))
    for text in (
        f"Set-Content -Path cfg.json -Value '[{blob}]'",
        f'Write-Output "[{blob.replace(chr(34), "`" + chr(34))}]"',
        "$cfg = @'\n" + blob.replace(",", ",\n") + "\n'@\nSet-Content cfg.json $cfg",
        " | ".join(["Get-ChildItem"] + ["ForEach-Object { $_.FullName }"] * 300),
        "<# " + "notes (a) 1 2 (b) x\n" * 400 + "#>\nGet-Date",
    ):
        assert len(text) > 5_000
        _windows_free(text, monkeypatch)


def test_an_honest_powershell_script_pays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    script = "".join(
        f"$x{i} = Get-Item -Path C:\\src\\{i} | Where-Object {{ $_.Length -gt {i} }}\n"
        f"if ($x{i}) {{ Copy-Item $x{i} -Destination (Join-Path $out 'b{i}') -Force }}\n"
        f'foreach ($f in $x{i}) {{ Write-Host "copied $($f.Name) ($i)" }}\n'
        for i in range(40)
    )
    _windows_free(script, monkeypatch)
