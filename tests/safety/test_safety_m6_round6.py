"""safety-m6: Round-6 mechanisms (own spellings): REPL `!` lines, Windows hook switches,
delete requests handed as one string, socat file addresses, in-place rewrites of account
files, Python start-up hooks."""

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


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        # a REPL's `!` escape on stdin runs a shell line
        ("qdbcli <<< '!dd if=/dev/zero of=/dev/nvme0n1'", "bash", B),
        ("printf '!rm -rf ~\\n' | labrepl", "bash", B),
        ("labrepl <<< '!ls -la'", "bash", M),
        ("labrepl <<< 'a != b'", "bash", M),
        # hook switches of Windows programs carry a command line
        ('syncjob.exe /OnFinish "cmd /c del /s /q C:\\Users\\*"', "cmd", B),
        ('agent.exe -PostCmd:"format D: /q /y"', "cmd", B),
        ('Start-Mirror -OnError "Remove-Item $env:USERPROFILE -Recurse -Force"', "powershell", B),
        ('syncjob.exe /OnFinish "echo done"', "cmd", M),
        ("robocopy a b /log:out.txt", "cmd", M),
        # a delete request handed as one string
        ("fsedit -w -R 'unlink /etc/sudoers' /dev/sdb1", "bash", B),
        ("debugfs -w -R 'rm /boot/vmlinuz' /dev/sda1", "bash", B),
        ("debugfs -R 'ls -l /etc' /dev/sda1", "bash", M),
        ("notes add -m 'delete /etc/hosts entries later'", "bash", M),
        # socat file addresses
        ("socat - CREATE:/etc/shadow", "bash", B),
        ("socat TCP-LISTEN:9000 OPEN:/tmp/dump.bin,creat,append", "bash", M),
        # in-place rewrites of account files
        ("awk -i inplace '!/^bob:/' /etc/passwd", "bash", B),
        ("gawk -i inplace '{gsub(/a/, \"b\")} 1' src/notes.txt", "bash", M),
        # Python start-up hooks are persistence
        ("cp evil.py ~/.local/lib/python3.11/site-packages/sitecustomize.py", "bash", C),
        ("tee /usr/lib/python3/dist-packages/zz.pth < hook.txt", "bash", C),
        (
            'cp hook.py "$(python3 -c "import site; print(site.USER_SITE)")/usercustomize.py"',
            "bash",
            C,
        ),
        ("cp notes.txt ~/.local/lib/python3.11/site-packages/README.txt", "bash", M),
    ],
)
def test_round6_mechanisms(command: str, shell: str, expected: RiskLevel) -> None:
    assert assess(command, shell).level == expected, command
