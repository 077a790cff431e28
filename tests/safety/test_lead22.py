"""Session 22 (lead): two dev rows that this session's Unix work lowered, found by comparing
every corpus row's level at the session start (bd08fd8) and on main.

- `BASH_CMDS[grep]=/sbin/mkfs.ext4; grep /dev/sdb1` (r15): the new associative-array reader
  (`t[k]=v`) took bash's command hash table for an ordinary array and returned before the
  hash-table reader ran, so `grep` stayed grep (blocked -> safe).
- fish `source (echo 'rm -rf ~' | psub)` (n19u): splitting an unquoted substitution's output
  into words handed `source` the words of the text instead of the file psub holds it in
  (blocked -> moderate).
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from aintern_ls.safety.levels import RiskLevel


@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("BASH_CMDS[grep]=/sbin/mkfs.ext4; grep /dev/sdb1", "bash"),
        ("BASH_CMDS[ls]=/bin/rm; ls -rf /", "bash"),
        ("source (echo 'rm -rf ~' | psub)", "fish"),
        ("source (echo 'rm -rf ~' | psub)", "bash"),
        (". $(echo 'rm -rf /' | psub)", "bash"),
        # the word "psub" in the output is no psub stage: the output is still split
        ("rm -rf $(echo /etc /usr psub)", "bash"),
    ],
)
def test_blocked_again(command: str, shell: str) -> None:
    assert assess(command, shell).level is RiskLevel.BLOCKED


@pytest.mark.parametrize(
    ("command", "level"),
    [
        # the two mechanisms those commits added still hold
        ('declare -A t=([k]=/etc/passwd); : > "${t[k]}"', RiskLevel.BLOCKED),
        ("rm -rf $(echo /etc /usr)", RiskLevel.BLOCKED),
        ('h[p]=notes.txt; rm -f "${h[p]}"', RiskLevel.DANGEROUS),
    ],
)
def test_neighbours_keep_their_levels(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level is level
