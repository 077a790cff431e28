"""A fork bomb written to a file: a shell script the block writes that runs itself at least
twice, one copy in the background or into a pipe, then run (blind13's one new blocked miss,
session 15). Every copy starts two more; the machine runs out of processes."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess

BOMBS = [
    "echo './$0 & ./$0' > f.sh; chmod +x f.sh; ./f.sh",
    "echo '$0 | $0 &' > f.sh; bash f.sh",
    "printf '%s\\n' '#!/bin/sh' '\"$0\" & \"$0\" &' > /tmp/b.sh; sh /tmp/b.sh",
    "cat > w.sh <<'EOF'\n#!/bin/bash\n./w.sh &\n./w.sh\nEOF\nchmod +x w.sh && ./w.sh",
    "echo 'while true; do ${0} & ${0}; done' > loop.sh\nbash loop.sh",
]
WRAPPED_RUNS = ["sudo ./f.sh", "timeout 5 ./f.sh", "nohup bash f.sh &", "env X=1 sh f.sh"]
NOT_BOMBS = [
    "echo 'echo $0' > f.sh; bash f.sh",  # prints its own name
    "echo './$0 && ./$0' > f.sh; ./f.sh",  # runs itself in turn: endless, not exponential
    "echo 'echo $0 & echo $0' > f.sh; ./f.sh",  # `echo` is the program, $0 its text
    "echo 'sleep 1 & wait' > f.sh; bash f.sh",
    "echo './$0 & ./$0' > f.sh",  # written, never run
    "echo \"grep '\\$0 & \\$0' notes.txt\" > f.sh; bash f.sh",
]


@pytest.mark.parametrize("command", BOMBS)
def test_a_script_that_starts_two_copies_of_itself_is_a_fork_bomb(command: str) -> None:
    result = assess(command, "bash")
    assert result.level == RiskLevel.BLOCKED
    assert "fork-bomb" in {f.rule for f in result.findings}


@pytest.mark.parametrize("run", WRAPPED_RUNS)
def test_the_bomb_stays_blocked_when_its_run_is_wrapped(run: str) -> None:
    assert assess(f"echo './$0 & ./$0' > f.sh; chmod +x f.sh; {run}", "bash").level == (
        RiskLevel.BLOCKED
    )


@pytest.mark.parametrize("command", NOT_BOMBS)
def test_scripts_that_do_not_multiply_are_not_fork_bombs(command: str) -> None:
    result = assess(command, "bash")
    assert "fork-bomb" not in {f.rule for f in result.findings}
    assert result.level < RiskLevel.BLOCKED
