"""Leftover mechanisms of issue 14 (safety-c): each mechanism is tested with several
spellings, and with a harmless neighbour that must not be caught by it."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess

B, C, D, M, S = (
    RiskLevel.BLOCKED,
    RiskLevel.CRITICAL,
    RiskLevel.DANGEROUS,
    RiskLevel.MODERATE,
    RiskLevel.SAFE,
)


def _rules(command: str) -> list[str]:
    return [f.rule for f in assess(command, "bash").findings]


# 1. Brace expansion whose first word is a path to a known program is that program.
@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("{rm,-rf,$HOME}", "rm-home"),
        ("{/bin/rm,-fr,$HOME}", "rm-home"),
        ("{/usr/bin/rm,-r,~}", "rm-home"),
        ("{./rm,-rf,/}", "rm-root"),
        ("{/bin/rm,-rf,/}", "rm-root"),
        ("{/usr/bin/shred,-u,/etc/shadow}", "rm-system-file"),
        ("echo hi; {/usr/bin/shred,-u,/etc/passwd}", "rm-system-file"),
    ],
)
def test_brace_expansion_with_a_program_path(command: str, rule: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert rule in _rules(command)


# 2. Inline interpreter code that forks inside an endless loop is a fork bomb.
@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import os\nwhile True: os.fork()'",
        "python -c 'import os; [os.fork() for _ in iter(int, 1)]'",
        "python3 -c 'import os, itertools\nfor _ in itertools.count(): os.fork()'",
        "python3 -c 'from itertools import count; import os; [os.fork() for i in count()]'",
        "perl -e 'fork while 1'",
        "perl -e 'while(1){fork}'",
        "perl -e 'for(;;){fork()}'",
        "ruby -e 'loop do Process.fork end'",
        "ruby -e 'loop { fork }'",
        "node -e 'while(true) require(\"child_process\").fork(__filename)'",
        "node -e 'for(;;){require(\"child_process\").fork(process.argv[1])}'",
    ],
)
def test_interpreter_fork_loops_are_fork_bombs(command: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert "fork-bomb" in _rules(command)


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import os; pid = os.fork(); print(pid)'",
        "python3 -c 'import os\nif os.fork() == 0:\n    print(1)\nwhile True:\n    time.sleep(1)'",
        "node -e 'while(true){console.log(1)}'",
        "python3 -c 'for i in range(3): print(i)'",
    ],
)
def test_a_single_fork_or_a_loop_without_fork_is_not_a_bomb(command: str) -> None:
    assert "fork-bomb" not in _rules(command)
    assert assess(command, "bash").level < B
