"""sshd's own authorized-key lists are persistence targets (safety-f10).

Windows OpenSSH reads every administrator's logins from
%PROGRAMDATA%\\ssh\\administrators_authorized_keys, and a system AuthorizedKeysFile
often points at /etc/ssh/authorized_keys/<user>: a line added to either is a login.
Reading them stays safe.
"""

import pytest

from aintern_ls.safety import RiskLevel, assess

WRITES = [
    (
        "powershell",
        r"Add-Content C:\ProgramData\ssh\administrators_authorized_keys 'ssh-rsa AAAB op'",
    ),
    (
        "powershell",
        r"Set-Content -Path 'C:\ProgramData\ssh\administrators_authorized_keys' -Value $k",
    ),
    (
        "powershell",
        "'ssh-ed25519 AAAC op' | Out-File -Append "
        r"$env:ProgramData\ssh\administrators_authorized_keys",
    ),
    ("cmd", r"echo ssh-rsa AAAB op>>%PROGRAMDATA%\ssh\administrators_authorized_keys"),
    ("cmd", r'cmd /c "echo ssh-rsa AAAB op >> C:\ProgramData\ssh\administrators_authorized_keys"'),
    ("bash", "echo 'ssh-ed25519 AAAC op' | sudo tee -a /etc/ssh/authorized_keys/deploy"),
    ("bash", "sudo sh -c 'cat op.pub >> /etc/ssh/authorized_keys/git'"),
    ("bash", "f() { cp op.pub /etc/ssh/authorized_keys/root; }; f"),
]

READS = [
    ("powershell", r"Get-Content C:\ProgramData\ssh\administrators_authorized_keys"),
    ("cmd", r"type %PROGRAMDATA%\ssh\administrators_authorized_keys"),
    ("bash", "cat /etc/ssh/authorized_keys/deploy"),
    ("bash", "echo 'append to /etc/ssh/authorized_keys/deploy'"),
]


@pytest.mark.parametrize(("shell", "command"), WRITES)
def test_sshd_key_list_write_is_critical(shell: str, command: str) -> None:
    assert assess(command, shell).level >= RiskLevel.CRITICAL


@pytest.mark.parametrize(("shell", "command"), READS)
def test_sshd_key_list_read_is_not_dangerous(shell: str, command: str) -> None:
    assert assess(command, shell).level < RiskLevel.DANGEROUS
