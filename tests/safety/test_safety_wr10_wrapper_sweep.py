"""Wrapper sweep (issue 14, wr10): every committed row labelled blocked that the analyser
rates blocked stays blocked when wrapped (sudo, env, timeout, xargs, sh -c, eval, functions,
subshells, heredocs; PowerShell -Command, iex, script blocks; cmd /c, call, for, goto...).

The rows and wrappers are `bench.wr10_sweep`'s. Tune wrappers (by a hash of the wrapper's
name, `split_of`) run on a hashed half of the rows, dev wrappers on a hashed quarter, so the
file stays well under a minute on one core. No wrapper is exempt (`Wrapper.changes_meaning`
is for one DESIGN.md would say changes what the command does; none does today).
"""

from __future__ import annotations

import hashlib

import pytest

from aintern_ls.safety import RiskLevel, assess
from bench.wr10_sweep import (
    WRAPPERS,
    Case,
    Row,
    Wrapper,
    blocked_rows,
    cases,
    level_of,
    split_of,
)

_ROWS: list[Row] = []


def _rows() -> list[Row]:
    if not _ROWS:
        _ROWS.extend(blocked_rows())
    return _ROWS


def _sampled(case: Case) -> bool:
    share = 2 if split_of(case.wrapper) == "tune" else 4
    digest = hashlib.sha1(f"{case.wrapper.name}\x00{case.row.command}".encode()).digest()
    return digest[0] % share == 0


_ASSERTED = [w for w in WRAPPERS if not w.changes_meaning]


@pytest.mark.parametrize("wrapper", _ASSERTED, ids=[f"{w.shell}:{w.name}" for w in _ASSERTED])
def test_a_blocked_row_stays_blocked_in_every_wrapper(wrapper: Wrapper) -> None:
    leaks = []
    for case in cases(_rows(), [wrapper]):
        if not _sampled(case):
            continue
        got = level_of(case)
        if got != RiskLevel.BLOCKED:
            leaks.append(f"{got.label}: {case.text!r}")
    assert not leaks, f"{len(leaks)} leak(s):\n" + "\n".join(leaks[:20])


def test_the_sweep_has_rows_of_every_shell() -> None:
    shells = {r.shell for r in _rows()}
    assert {"bash", "powershell", "cmd"} <= shells
    assert len(_rows()) > 2000


@pytest.mark.parametrize(
    "text",
    [
        "env screen -dmS w rm -rf ~",  # screen's -dmS is not env's -S
        "env start-stop-daemon -S -x /bin/rm -- -rf /",
        "command shred -vfz -n 3 /dev/sda",  # shred's -v is not `command -v`
        "command rm -v -rf /",
        "flock /tmp/lk python3 -c \"import os; os.system('rm -rf /')\"",  # python's -c
        "flock -w 5 /tmp/lk rm -rf ~",
        "flock /tmp/lk -c 'rm -rf /'",
        "runuser -l bob -c 'rm -rf /'",
        "sudo env FOO=1 command flock /tmp/lk rm -rf /etc",
    ],
)
def test_a_wrappers_options_end_at_the_command_it_runs(text: str) -> None:
    assert assess(text).level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "text",
    ["command -v rm", "command -V shred", "env -S 'echo hi'", "flock /tmp/lk -c 'echo rm -rf /'"],
)
def test_a_wrappers_own_lookup_options_stay_low(text: str) -> None:
    assert assess(text).level < RiskLevel.DANGEROUS, text


def test_xargs_delimiter_is_xargs_own_option() -> None:
    # `-Command` after the program is not xargs' `-d`; this crashed the analyser before.
    text = 'echo x | xargs -I{} pwsh -Command "Remove-Item -Recurse -Force C:\\\\"'
    assert assess(text).level == RiskLevel.BLOCKED
    assert assess("printf 'a,b' | xargs -d '\\' echo").level < RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        # a list's redirect: its words and its input belong to the last command
        ("true && rm 2>/dev/null -rf /", "bash"),
        ("false || chmod 2>/dev/null -R 777 /", "bash"),
        ("false || echo y | bash <<EOF\nrm -rf /\nEOF", "bash"),
        ("true && exec 3<<EOF\nrm -rf ~\nEOF\nbash <&3", "bash"),
        ('false || while IFS=: read -r u _ _ _ _ h _; do rm -rf "$h"; done < /etc/passwd', "bash"),
        # a cd inside a compound body or a substitution moves what follows it
        ("if true; then\ncd / ; rm -rf -- */\nfi", "bash"),
        ("case x in\nx)\npushd / >/dev/null; rm -rf bin\n;;\nesac", "bash"),
        ("echo $(cd /; rm etc/passwd)", "bash"),
        # the same rule found twice on one span: the higher level stands
        (
            "sh -c 'for i in $(vim-cmd vmsvc/getallvms | awk '\"'\"'{print $1}'\"'\"'); "
            "do vim-cmd vmsvc/power.off $i; vim-cmd vmsvc/snapshot.removeall $i; done'",
            "bash",
        ),
        ("watch -n1 'rm -rf ~/*' x", "bash"),
        ("echo | xargs cp /dev/null /etc/sudoers", "bash"),  # no item: runs as written
        ("bash <<< 'printf \"all:\n\\trm -rf ~\n\" > Makefile && make'", "bash"),
        ('f() {\nf() { rm -rf "$1"; }; f /\n}\nf', "bash"),  # the NEW f runs
        (
            "for %Q in (1) do dir /b /s C:\\Users > l.txt & "
            'for /f "delims=" %i in (l.txt) do del /f /q "%i"',
            "cmd",
        ),
        # cmd: what follows `if exist X`, a child cmd's output and files
        ('if exist C:\\ for /d %i in (C:\\Users\\*) do rd /s /q "%i"', "cmd"),
        ("if not exist x.txt for /f %i in ('dir /b') do rd /s /q %i", "cmd"),
        ("cmd /c echo clean | diskpart", "cmd"),
        ("cmd /q /c echo rd /s /q C:\\Users > w.bat && w.bat", "cmd"),
        ("cmd /c echo rd /s /q C:\\Users ^| cmd", "cmd"),
        ('call dir /b /s C:\\ > l.txt & for /f %i in (l.txt) do del /f /q "%i"', "cmd"),
        # PowerShell: a literal string handed to Invoke-Expression is read, decoding included
        (
            "iex 'iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String("
            "''UmVtb3ZlLUl0ZW0gLVJlY3Vyc2UgLUZvcmNlIEM6XFdpbmRvd3M='')))'",
            "powershell",
        ),
    ],
)
def test_unwrapping_keeps_what_the_wrapped_command_does(text: str, shell: str) -> None:
    got = assess(text, shell)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


@pytest.mark.parametrize(
    ("text", "shell"),
    [
        ("true && echo 2>/dev/null rm -rf /", "bash"),
        ("echo | xargs ls -l", "bash"),
        ("f() { f; }; f", "bash"),
        ("if cd /tmp; then ls; fi", "bash"),
        ("echo $(cd /tmp; pwd)", "bash"),
        ("watch -n 5 'df -h' /tmp", "bash"),
        ("cmd /c echo hello", "cmd"),
        ("cmd /c dir /b C:\\Users", "cmd"),
        ("if exist x.txt echo (hello)", "cmd"),
        ("call echo rd /s /q C:\\Windows", "cmd"),
        ("iex 'Get-ChildItem C:\\Windows'", "powershell"),
    ],
)
def test_look_alikes_stay_below_dangerous(text: str, shell: str) -> None:
    assert assess(text, shell).level < RiskLevel.DANGEROUS, text
