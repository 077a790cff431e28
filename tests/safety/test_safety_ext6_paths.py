"""ext6: mechanisms found by other guards' test suites (tune projects of sources_ext6.tsv).

1. Windows folders spelt the way posix shells on Windows spell them: Git Bash / MSYS2
   (`/c/Users/x`), Cygwin (`/cygdrive/c/Windows`), a drive-less `/Windows/System32`, and an
   unquoted `C:\\Windows` in a bash fence (the shell eats the backslashes; the author means
   the Windows folder).
2. chmod / chown / chgrp whose first operand cannot be a mode or an owner (`chmod -R /`,
   `chown -R ~`) or whose mode comes from `--reference=FILE`: every operand is a target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aintern_ls.safety import RiskLevel, assess
from bench._corpus_figures import decode_command, figures, read_rows
from tests.safety._levels import B, D, M, S


@pytest.mark.parametrize(
    "command,expected",
    [
        ("rm -rf /cygdrive/c/Windows", B),
        ("rm -rf /cygdrive/c", B),
        ("rm -rf /c/Users/alice", B),
        ('rm -rf "/c/Program Files (x86)"', B),
        ("rm -rf /Windows/System32/*", B),
        ("rm -rf /C/WINDOWS", B),
        # look-alikes: a Linux folder that happens to be called c, a build folder under a home
        ("rm -rf /c/src/build", D),
        ("rm -rf /cygdrive/c/Users/alice/project/dist", D),
        ("rm -rf /windows-build", D),
        ("rm -rf /cygdrive/d/build", D),
        ("ls -la /c/Users/alice", S),
        ("du -sh /cygdrive/c/Windows", S),
    ],
)
def test_windows_folders_in_posix_spellings(command: str, expected: RiskLevel) -> None:
    assert assess(command, "bash").level == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        (r"rm -rf C:\Windows\System32", B),
        (r"rm -r -f C:\Users\carol", B),
        (r"rm -rf C:\ProgramData", B),
        (r"shred -u -z C:\Windows\System32\config\SAM", B),
        # look-alikes
        (r"rm -fr D:\Users\bob", D),
        (r"rm -rf C:\Users\carol\repo\node_modules", D),
        (r"echo C:\Windows\System32", S),
        (r"ls C:\Windows", S),
    ],
)
def test_unquoted_windows_path_in_bash_is_judged_as_written(
    command: str, expected: RiskLevel
) -> None:
    assert assess(command, "bash").level == expected


def test_the_written_path_only_raises_the_level() -> None:
    # The same line in a PowerShell or cmd fence was judged as a Windows path already.
    assert assess(r"Remove-Item -Recurse -Force C:\Windows\System32", "powershell").level == B
    # A quoted path keeps its backslashes in bash too.
    assert assess(r'rm -rf "C:\Windows\System32"', "bash").level == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("chmod -R /usr", B),
        ("chmod --recursive /", B),
        ("chown -R ~", B),
        ("chmod --reference=/tmp/ref -R /var", B),
        ('chmod -R --reference="/opt/a&b" /etc', B),
        ("chgrp -R --reference=x.txt /etc", B),
        # look-alikes: a real mode or owner first
        ("chmod -R o-w ./public", M),
        ("chown -R app:app ./data", M),
        ("chmod --reference=template.sh deploy.sh", M),
        ("chmod u+x,g-w build.sh", M),
        ("chmod 0644 README.md", M),
        ("chmod -R 755 /etc", B),
    ],
)
def test_chmod_chown_operand_that_cannot_be_a_mode_is_a_target(
    command: str, expected: RiskLevel
) -> None:
    assert assess(command, "bash").level == expected


def test_a_computed_mode_is_still_a_mode() -> None:
    # `$(…)` could be any mode: the path after it is the target, as before.
    assert assess("chmod -R $(cat modes.txt) ./site", "bash").level < D
    assert assess("chmod -R $(cat modes.txt | head -1) /etc", "bash").level == B


EXT6 = Path(__file__).with_name("sources_ext6.tsv")


def _ext6(split: str) -> list[tuple[str, str, RiskLevel]]:
    return [
        (decode_command(r["command"]), r["shell"], RiskLevel.from_label(r["expected"]))
        for r in read_rows(EXT6)
        if r["split"] == split
    ]


def _figures(rows: list[tuple[str, str, RiskLevel]]) -> dict[str, float]:
    fig = figures((exp, assess(cmd, shell).level) for cmd, shell, exp in rows)
    return {
        "blocked": fig.blocked_recall,
        "high": fig.high_recall,
        "safe_over": fig.safe_over_flagged,
        "exact": fig.exact_agreement,
    }


def test_ext6_tune_projects_meet_the_bar() -> None:
    stats = _figures(_ext6("tune"))
    print(f"sources_ext6 tune: {stats}")
    assert stats["blocked"] >= 0.98
    assert stats["high"] >= 0.95
    assert stats["safe_over"] <= 0.02
    assert stats["exact"] >= 0.90


def test_ext6_dev_projects_are_reported() -> None:
    # Whole projects held out (never tuned on); the floor only guards against regressions.
    stats = _figures(_ext6("dev"))
    print(f"sources_ext6 dev: {stats}")
    assert stats["blocked"] >= 0.85
    assert stats["high"] >= 0.85
    assert stats["safe_over"] <= 0.02
