"""Listers (safety-debt7): what a disk or VM lister prints stands for every disk or VM, also
through a pipeline inside a substitution (`$(lister | awk 'NR>1{print $1}')`)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, D, S

CASES = [
    # every VM of an ESXi host, through a loop, a variable, xargs or `while read`
    (
        "for i in $(vim-cmd vmsvc/getallvms | awk 'NR>1{print $1}'); "
        "do vim-cmd vmsvc/destroy $i; done",
        B,
    ),
    (
        "ids=$(vim-cmd vmsvc/getallvms | tail -n +2 | cut -d' ' -f1); "
        "for i in $ids; do vim-cmd vmsvc/unregister $i; done",
        B,
    ),
    (
        "vim-cmd vmsvc/getallvms | awk 'NR>1{print $1}' | "
        "while read id; do vim-cmd vmsvc/snapshot.removeall $id; done",
        B,
    ),
    ("vim-cmd vmsvc/getallvms | awk '{print $1}' | xargs -n1 vim-cmd vmsvc/snapshot.removeall", B),
    ("for w in $(esxcli vm process list | awk '{print $1}'); do vim-cmd vmsvc/destroy $w; done", B),
    # every snapshot of one VM: blocked (session-12 convention, HELPERS.md; was dangerous)
    ("vim-cmd vmsvc/snapshot.removeall 12", B),
    # a VM id from elsewhere, the list only printed
    ("vim-cmd vmsvc/getallvms; vim-cmd vmsvc/destroy $1", D),
    ("for i in $(vim-cmd vmsvc/getallvms | awk 'NR>1{print $1}'); do echo $i; done", S),
    ("vim-cmd vmsvc/getallvms", S),
    # every disk, through a pipeline inside the substitution (was: only a bare lister)
    ("for d in $(lsblk -dno NAME | awk 'NR>1{print $1}'); do shred /dev/$d; done", B),
    ("for d in $(lsblk -dno NAME | tail -n +2); do shred /dev/$d; done", B),
    ("for d in $(lsblk -dno NAME | grep sdb); do shred /dev/$d; done", D),
]


@pytest.mark.parametrize("command,expected", CASES)
def test_lister_items_stand_for_every_item(command: str, expected: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level == expected, (command, got.level.label, [f.rule for f in got.findings])
