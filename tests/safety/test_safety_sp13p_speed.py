"""PowerShell speed without verdict changes (safety-sp13p, issue 14's 50 ms bar).

- `_Walker._command` reads a bare word or a `-Name` of an ASCII text without the general
  path's detours (node type strings, keyword defaults of `Word`);
- `_Walker._pipeline_once` keeps a statement's walk only from the statement text's second
  sighting (`Scope.seen_statements`): a statement written once pays nothing for the memo;
- `windows.registry_risk` asks a pattern only when the text holds a literal every match of
  it needs (`windows._needed_literals`, read from the pattern itself);
- `windows._ps_params` binds a command's arguments once (`Cmd.ps_bound`).

None changes a verdict or a step (`bench/sp9b_verdicts.py`: zero lines of difference). These
tests pin that each fast path answers what the path it stands in front of answers.
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from aintern_ls.safety import budget, powershell, stack, windows
from aintern_ls.safety.analyser import _assess_cached
from bench._corpus_figures import decode_command

analyse = _assess_cached.__wrapped__
HERE = Path(__file__).parent


def _rows(family: str) -> list[str]:
    out: list[str] = []
    for path in sorted(HERE.glob("sources*.tsv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                shell = r.get("shell") or ""
                if family == "any" or shell == family:
                    out.append(decode_command(r["command"]))
    return out


def _judged(text: str) -> tuple[list[tuple[str, str, int, int]], float]:
    def run() -> tuple[list[tuple[str, str, int, int]], float]:
        got = analyse(text, "powershell", None)
        found = [(f.rule, f.level.label, f.start, f.end) for f in got.findings]
        return found, budget.spent()

    return stack.reserved(run)


_EXTRA = [
    "Remove-Item -Recurse -Force C:\\Windows",
    "rm -r -fo C:\\Users\\*",
    "tar --to-command='sh -c x' -xf t.tar\nRemove-Item C:\\Windows -Recurse",
    "git log --format=%H -n 1",
    "Set-ItemProperty -Path HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows Defender "
    "-Name DisableAntiSpyware -Value 1",
    "Remove-Item C:\\Windows -Recurse -WhatIf:$false",
    "Remove-Item C:\\Windows -Recurse -WhatIf:0",
    "cmd /c --% rd /s /q C:\\Users",
    "mkdir -p d0 && mkdir -p d1 && Remove-Item -Recurse $HOME",
]


@pytest.mark.parametrize("chunk", range(4))
def test_the_word_fast_path_reads_what_the_general_path_reads(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [t for t in _rows("powershell") + _EXTRA if t.isascii()][chunk::4]
    assert len(texts) > 50
    fast = [_judged(t) for t in texts]
    monkeypatch.setattr(powershell, "_K_TOKEN", -1)  # every element down the general path
    monkeypatch.setattr(powershell, "_K_PARAM", -1)
    general = [_judged(t) for t in texts]
    assert [t for t, f, g in zip(texts, fast, general, strict=True) if f != g] == []


@pytest.mark.parametrize(
    "text",
    [
        "Remove-Item C:\\Windows\\Temp\\x -Recurse\n" * 5,
        "$d = 'C:\\x'\nRemove-Item $d -Recurse\n$d = 'C:\\Windows'\nRemove-Item $d -Recurse\n" * 3,
        "mkdir a\nmkdir b\nmkdir a\nmkdir a\nmkdir b\nmkdir a\n",
        "cd C:\\\nRemove-Item Users -Recurse\ncd D:\\\nRemove-Item Users -Recurse\n" * 2,
        "Get-ChildItem x | Remove-Item\n" * 4 + "Remove-Item C:\\Windows -Recurse\n",
    ],
)
def test_the_statement_memo_changes_no_finding_and_no_step(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    memo = _judged(text)
    monkeypatch.setattr(powershell, "_memo_state", lambda scope: None)  # walk every statement
    assert memo == _judged(text)


def test_statement_replays_cost_what_walks_cost_in_a_long_text() -> None:
    line = "Remove-Item C:\\proj\\build -Recurse -Force\n"
    found, steps = _judged(line * 400)
    assert len([f for f in found if f[0] != "too-complex"]) >= 400
    # (cut exactly when the text's own budget ran out: sp14 lowered BASE_STEPS below this
    # text's 16,200 steps, which its 17,200 characters' budget of 59,000 still covers)
    limit = budget.BASE_STEPS + budget.PER_BYTE_STEPS * len(line * 400)
    assert any(f[0] == "too-complex" for f in found) == (steps > limit)


def test_needed_literals_are_read_from_the_pattern() -> None:
    needs = windows._needed_literals
    assert needs(re.compile(r"enablelua\D+0|consent(admin|user)\D+0")) == ("enablelua", "consent")
    # the parser takes a common prefix out of a branch: each alternative still needs its own
    assert needs(re.compile(r"\\winlogon\b|\\group policy\\x")) is None  # (literal prefix)
    assert needs(re.compile(r"(?:a\\bcd|efg)x")) == ("a\\bcd", "efg")
    assert needs(re.compile(r"a|b\w")) is None  # an alternative with no literal run
    assert needs(re.compile(r"abc", re.I)) is None  # case folded: the pattern decides


def test_the_registry_gates_are_necessary_conditions() -> None:
    patterns = [
        (rx, n)
        for (rx, _), n in zip(windows._REG_SECURITY, windows._REG_SECURITY_NEEDS, strict=True)
    ]
    patterns += [(rx, n) for (rx, _, _), n in zip(windows._ASEP, windows._ASEP_NEEDS, strict=True)]
    assert sum(n is not None for _, n in patterns) >= 4  # (the gates are in use)
    texts = [windows._reg_norm(t) for t in _rows("any")]
    rng = random.Random(13)
    for _ in range(3000):
        a, b = rng.sample(texts, 2)
        texts.append(a[: rng.randrange(len(a) + 1)] + b[rng.randrange(len(b) + 1) :])
    matched = 0
    for t in texts:
        for rx, needed in patterns:
            if rx.search(t) is not None:
                matched += 1
                assert windows._may_match(needed, t), (rx.pattern, t)
    assert matched > 100


@pytest.mark.parametrize(
    "command",
    [
        "Set-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System "
        "-Name EnableLUA -Value 0",
        "New-ItemProperty -Path HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run "
        "-Name x -Value 'C:\\x.exe'",
        "Set-ItemProperty 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager' "
        "-Name BootExecute -Value x",
    ],
)
def test_registry_writes_keep_their_level_in_wrappers(command: str) -> None:
    plain = analyse(command, "powershell", None).level
    assert plain.label == "critical"
    for wrapped in (
        f'powershell -Command "{command}"',
        f"function f {{ {command} }}; f",
        f"& {{ {command} }}",
    ):
        assert analyse(wrapped, "powershell", None).level >= plain, wrapped
