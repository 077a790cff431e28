"""safety-f9: a backup folder deleted whole by a PowerShell cmdlet, in any argument order.

The blind slice's miss was `Remove-Item -Path 'D:\\Backups\\*' -Recurse -Force` (dangerous,
expected blocked). Two mechanisms hid it: a cmdlet's command path starts at its own name,
so its indexes were one past the argument list and the first positional operand was taken
for a command word; and `-Path` was read as find's narrowing filter, while in PowerShell
it names the target itself. These tests use other spellings than the missed row.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, D, S

WIPES = [
    ("Remove-Item 'E:\\WindowsImageBackup' -Recurse -Force", "powershell"),
    ("Remove-Item -LiteralPath 'F:\\SQL_Backups' -Force -Recurse", "powershell"),
    ("del -path C:\\Backup\\* -r -fo", "powershell"),
    ("Remove-Item /srv/backups/* -Recurse -Force", "powershell"),
]


@pytest.mark.parametrize(("command", "shell"), WIPES)
def test_backup_folder_wiped_by_cmdlet_is_blocked(command: str, shell: str) -> None:
    r = assess(command, shell)
    assert r.level == B, (command, r.findings)
    assert any(f.rule == "delete-backups" for f in r.findings)


@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("sudo pwsh -Command \"Remove-Item -Path '/var/backups/*' -Recurse -Force\"", "bash"),
        ("env pwsh -c 'Remove-Item \"/mnt/backups\" -Recurse -Force'", "bash"),
        ('powershell -c "Remove-Item -Path E:\\Backups -Recurse -Force"', "cmd"),
        ('Invoke-Expression "Remove-Item -Path E:\\Backups -Recurse -Force"', "powershell"),
        ("function Wipe { Remove-Item 'E:\\Backups' -Recurse -Force }; Wipe", "powershell"),
    ],
)
def test_wrapped_keeps_its_level(command: str, shell: str) -> None:
    assert assess(command, shell).level == B, command


@pytest.mark.parametrize(
    ("command", "shell", "level"),
    [
        ("Remove-Item -Path 'E:\\Backups\\*' -Include *.tmp -Recurse -Force", "powershell", D),
        ("Remove-Item -Path 'E:\\Backups\\2019-01-01.bak' -Force", "powershell", D),
        ("Remove-Item -Path 'E:\\Release\\*' -Recurse -Force", "powershell", D),
        ("Get-ChildItem -Path 'E:\\Backups' -Recurse", "powershell", S),
        ("Write-Output 'Remove-Item E:\\Backups -Recurse -Force'", "powershell", S),
        ("robocopy C:\\src E:\\Backups /E", "powershell", None),
    ],
)
def test_look_alikes_stay_below_blocked(command: str, shell: str, level: object) -> None:
    r = assess(command, shell)
    if level is None:
        assert r.level < B, (command, r.findings)
    else:
        assert r.level == level, (command, r.findings)


def test_robocopy_mirror_switch_is_still_a_switch_in_powershell() -> None:
    # `/MIR` stays a switch (not an operand) so the empty source is still found
    assert assess("robocopy C:\\empty E:\\Backups /MIR", "powershell").level == B
