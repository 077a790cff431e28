"""PowerShell `--name=value` / `-name=value` parameters (pe10): the grammar has no `=` in a
parameter and its error recovery swallowed the NEXT line into the broken command's words,
so a destructive line after `git log --format=x` was never judged. Every line must stay a
statement of its own, and the parameter's word must stay `--name=value` for the rules."""

from __future__ import annotations

import itertools

import pytest

from aintern_ls.safety import RiskLevel, assess
from aintern_ls.safety.powershell import _equals_parameters

# Lines other programs' docs write with `=` options (one and two dashes, quoted values,
# values with spaces in quotes, a value that is a variable, an empty value).
EQUALS_LINES = [
    "git log --format=x",
    "npm run build --prefix=web",
    "git log --pretty=format:'%h %s' -n 5",
    'dotnet build --configuration="Release Build"',
    'cargo build --target-dir="$env:TEMP\\t"',
    "python -m pip install -r=requirements.txt",
    "ffmpeg -i a.mp4 -vf=scale=1280:720 b.mp4",
    "terraform plan -var=region=eu -out=plan.bin",
    "node --max-old-space-size=4096 app.js",
    "kubectl get pods --selector=app=web -o=wide",
    "curl.exe --user-agent='a b' --output=x.html https://example.com",
    "git log --format= -n 1",
    "go test -run=TestX ./... | Select-Object -First 3",
    "git commit -m x --author='A <a@b.c>'; git status",
]

# Blocked on their own in PowerShell.
BLOCKED_LINES = [
    "format c: /q",
    "Remove-Item -Recurse -Force $HOME",
    "rm -r -fo C:\\Windows",
    "Format-Volume -DriveLetter C",
]


@pytest.mark.parametrize("blocked", BLOCKED_LINES)
def test_blocked_lines_are_blocked_alone(blocked: str) -> None:
    assert assess(blocked, "powershell").level == RiskLevel.BLOCKED


@pytest.mark.parametrize(
    ("equals", "blocked"), list(itertools.product(EQUALS_LINES, BLOCKED_LINES))
)
def test_blocked_line_after_equals_parameter_stays_blocked(equals: str, blocked: str) -> None:
    # first, middle and last placements, and a `-name=value` line on both sides
    for text in (
        f"{equals}\n{blocked}",
        f"{equals}\n{blocked}\n{equals}",
        f"{equals}\n{equals}\n{blocked}",
        f"{blocked}\n{equals}",
        f"{equals}; {blocked}",
    ):
        assert assess(text, "powershell").level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize("equals", EQUALS_LINES)
def test_equals_lines_alone_are_not_dangerous(equals: str) -> None:
    assert assess(equals, "powershell").level <= RiskLevel.MODERATE, equals


@pytest.mark.parametrize(
    "text",
    [
        # look-alikes that hold `=` next to dashes but are no parameters, and safe lines
        "$x=1\nGet-ChildItem",
        "$h = @{a=1; b=2}\nGet-Date",
        "'a=b' -replace 'a=','c='\nGet-Location",
        "if ($a -eq 1) { 'x=y' }\nGet-Process",
        "$a[0]=5\nGet-Item .",
        "Write-Output 'git log --format=x'\nGet-Date",
        "Select-String -Pattern '--force=yes' -Path notes.txt\nGet-Date",
        "# git log --format=x\nGet-Date",
        "cmd /c set X=1\nGet-Date",
        "git log --format=x\ngit status",
        "npm run build --prefix=web\nRemove-Item -WhatIf -Recurse C:\\Temp\\x",
        "git log --format=x\nformat --help",
    ],
)
def test_look_alikes_stay_below_dangerous(text: str) -> None:
    assert assess(text, "powershell").level <= RiskLevel.MODERATE, text


def test_rewrite_keeps_length_and_leaves_non_parameters() -> None:
    for text in [
        "$x=1; @{a=1}; [a]=2; 'a -b=c'",
        "x --to-command=y -a=b",
        "$a -eq=1",
    ]:
        data = text.encode()
        out = _equals_parameters(data)
        assert len(out) == len(data)
    assert _equals_parameters(b"x --to-command=y -a=b") == b"x --to-command:y -a:b"
    assert _equals_parameters(b"$x=1; @{a=1}; $y -eq 2") == b"$x=1; @{a=1}; $y -eq 2"
    assert _equals_parameters(b"$a -eq=1") == b"$a -eq=1"  # an operator is left alone
    # a bare `--` is a parameter (not a pre-decrement running over the line's end)
    assert _equals_parameters(b"git log --\nx -- y --%") == b"git log -_\nx -_ y --%"


def test_the_parameter_word_keeps_its_equals() -> None:
    # `tar --to-command=…` is read by the option-run table as one word `--to-command=cat x`
    found = assess("tar --to-command='cat x' -xf t.tar\nGet-Date", "powershell")
    spans = [(f.rule, f.start, f.end) for f in found.findings]
    assert ("runs-program", 0, 24) in spans, spans


@pytest.mark.parametrize(
    "wrap",
    [
        "{}",
        "sudo {}",
        "pwsh -c '{}'",
        "Invoke-Expression '{}'",
        "function f {{ {} }}; f",
    ],
)
def test_wrapped_keeps_its_level(wrap: str) -> None:
    inner = "git log --format=x; Format-Volume -DriveLetter C"
    assert assess(wrap.format(inner), "powershell").level == RiskLevel.BLOCKED


# The same swallow through other grammar errors at a line's end (a variable followed by a
# path, a lone `--`): the rest of the command from the newline is read on its own.
SWALLOWING_LINES = [
    "Copy-Item a $HOME\\x",
    "cargo build --target-dir $env:TEMP\\t",
    "git log --",
    "git diff HEAD --",
    "git log -- a.txt",
    "git log -- ",
    "Get-ChildItem $env:USERPROFILE\\Downloads",
]


@pytest.mark.parametrize(
    ("first", "blocked"), list(itertools.product(SWALLOWING_LINES, BLOCKED_LINES))
)
def test_blocked_line_after_grammar_error_stays_blocked(first: str, blocked: str) -> None:
    for text in (f"{first}\n{blocked}", f"{first}\n{blocked}\n{first}", f"{first}\r\n{blocked}"):
        assert assess(text, "powershell").level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize("first", SWALLOWING_LINES)
def test_grammar_error_lines_with_safe_next_line_stay_low(first: str) -> None:
    for nxt in ("Get-Date", "git status", "Write-Output 'format c: /q'", "format --help"):
        assert assess(f"{first}\n{nxt}", "powershell").level <= RiskLevel.MODERATE, nxt
