"""Wrapper sweep (issue 14, wr10): every committed row labelled blocked that the analyser
rates blocked stays blocked when wrapped (sudo, env, timeout, xargs, sh -c, eval, functions,
subshells, heredocs; PowerShell -Command, iex, script blocks; cmd /c, call, for, goto...).

The rows and wrappers are `bench.wr10_sweep`'s. Tune wrappers (by a hash of the wrapper's
name, `split_of`) run on a hashed half of the rows, dev wrappers on a hashed quarter, so the
file stays well under a minute on one core. A wrapper that DESIGN.md says changes the meaning
(`ssh host '…'`: another machine) is not asserted.
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


# Wrappers whose leaks this session is still fixing (wr10, session 12): emptied as they are
# fixed; the sweep (`python -m bench.wr10_sweep`) prints their leaks.
_IN_PROGRESS = {
    ("bash", "xargs"),
    ("bash", "xargs -I"),
    ("bash", "sh -c"),
    ("bash", "bash -c"),
    ("bash", "zsh -c"),
    ("bash", "bash -lc"),
    ("bash", "sudo sh -c"),
    ("bash", "bash -c $(echo)"),
    ("bash", "eval"),
    ("bash", "eval dq"),
    ("bash", "function"),
    ("bash", "true &&"),
    ("bash", "false ||"),
    ("bash", "if"),
    ("bash", "case"),
    ("bash", "$()"),
    ("bash", "backticks"),
    ("bash", "herestring bash"),
    ("bash", "pipe to sh"),
    ("powershell", "Invoke-Expression"),
    ("powershell", "iex"),
    ("cmd", "cmd /c"),
    ("cmd", "cmd /k"),
    ("cmd", "cmd /c quoted"),
    ("cmd", "call"),
    ("cmd", "start /b"),
    ("cmd", "for /f"),
    ("cmd", "for %%"),
    ("cmd", "if exist"),
    ("cmd", "from powershell"),
}
_ASSERTED = [w for w in WRAPPERS if not w.changes_meaning and (w.shell, w.name) not in _IN_PROGRESS]


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
