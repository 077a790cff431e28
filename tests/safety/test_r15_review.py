"""r15 (session 15): fixes of review 15's findings, each as a mechanism, with the review's
neighbours, spellings of our own (other tools, wrappers, shells) and look-alikes that must
stay low."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S, level

# (command, shell, expected level)
_CASES = [
    # 14: each shell expands only its own folder-variable spelling in a cd
    ("Set-Location %windir%; Remove-Item -Recurse -Force System32", "powershell", D),
    ("sl %SystemRoot%\\System32; ri -Recurse -Force drivers", "powershell", D),
    ("cd %windir%; Remove-Item -Recurse -Force System32", "powershell", D),
    ("Set-Location $env:windir; Remove-Item -Recurse -Force System32", "powershell", B),
    ("cd /d %windir% & rd /s /q System32", "cmd", B),
    ("cd $env:windir & rd /s /q System32", "cmd", D),
    # 1-5, 13: a copy of a program is bound by its normalised path (from every cwd the block
    # set); a bare name only through hash/BASH_CMDS or a copy into a folder on PATH
    ("cp /bin/rm /tmp/x; hash -r; /tmp/x -r ~", "bash", B),
    ("ln /usr/bin/shred ~/bin/w; hash -r; w /dev/sdc", "bash", B),
    ("hash -p /bin/rm ls; hash -r; ls -la ~", "bash", S),
    ("hash -p /bin/rm ls; hash -d ls; ls -la ~", "bash", S),
    ('cp "$(which rm)" /tmp/x; /tmp/x -r ~', "bash", B),
    ("hash ls=/usr/bin/shred; ls /dev/sda", "zsh", B),
    ("BASH_CMDS=([ls]=/usr/bin/shred); ls /dev/sda", "bash", B),
    ("BASH_CMDS[ls]=/bin/ls; ls -la", "bash", S),
    ("cp /usr/sbin/mkfs.ext4 /tmp/fmt; (cd /tmp && ./fmt /dev/sda)", "bash", B),
    ("cp /usr/bin/shred /tmp/z; /tmp//z /dev/sda", "bash", B),
    ("rsync -a /sbin/mkfs.ext4 /tmp/fmt; /tmp/fmt /dev/sda", "bash", B),
    ("cp /usr/libexec/coreutils/rm /tmp/x; /tmp/x -r ~", "bash", B),
    ("cp /sbin/mkfs.ext4 ./backup/ls; ls -l /dev/sda", "bash", M),
    ("cp /bin/rm /tmp/x; /tmp/x /tmp/foo.txt", "bash", D),
    ("cat /bin/rm > /tmp/x", "bash", M),
    # 12: a selection after a backup store's getter keeps a subset (retention pruning)
    (
        "Get-S3Object -BucketName nightly-backups | Sort-Object LastModified"
        " | Select-Object -SkipLast 7 | Remove-S3Object -Force",
        "powershell",
        D,
    ),
    (
        "Get-S3Object -BucketName nightly-backups -MaxKey 5 | Remove-S3Object -Force",
        "powershell",
        D,
    ),
    (
        "Get-AzStorageBlob -Container backups -Context $c | ? { $_.LastModified -lt $d }"
        " | Remove-AzStorageBlob",
        "powershell",
        D,
    ),
    ("Get-S3Object -BucketName nightly-backups | Remove-S3Object -Force", "powershell", B),
    # 11: the distros' twins of a system-state folder
    ("sudo rm -rf /etc/pki/tls/certs", "bash", B),
    ("rm -rf /etc/rc.d/init.d", "bash", B),
    ("sudo find /etc/pki/ca-trust/source/anchors -delete", "bash", B),
    ("Remove-Item -Recurse -Force /etc/pki/tls/certs", "powershell", B),
    ("cat /etc/pki/tls/certs/ca-bundle.crt", "bash", S),
    # 7, 8: build files given as --file=<(…), and the default names written above
    ("make --file=<(printf 'all:\\n\\trm -rf ~')", "bash", B),
    ("bmake --makefile=<(echo -e 'x:\\n\\tshred /dev/sda')", "bash", B),
    (
        "cat > build.ninja <<'EOF'\nrule r\n  command = rm -rf /\nbuild x: r\nEOF\nninja -j4",
        "bash",
        B,
    ),
    ("cat > .justfile <<'EOF'\ndefault:\n    rm -rf ~\nEOF\njust", "bash", B),
    ("cat > justfile <<'EOF'\ntest:\n    pytest -q\nEOF\njust test", "bash", M),
    ("ninja -t targets", "bash", M),
    # 9: a glob or a trailing-dot spelling of a core Windows component
    ("Remove-Item C:\\Windows\\System32\\nt*.dll -Force", "powershell", B),
    ("Remove-Item C:\\Windows\\System32\\kernel3?.dll -Force", "powershell", B),
    ("Remove-Item C:\\Windows\\System32\\ntdll.dll. -Force", "powershell", B),
    ("del /f C:\\Windows\\System32\\drivers\\win32k*.sys", "cmd", B),
    ("rm -f /mnt/c/Windows/System32/nt*.dll", "bash", B),
    ("Remove-Item C:\\Windows\\System32\\notepad*.exe -Force", "powershell", C),
    ("Get-ChildItem C:\\Windows\\System32\\nt*.dll", "powershell", S),
    # 10: a backup store's getter: positional store, per-object loop, the store itself
    ("Get-S3Object nightly-backups | Remove-S3Object -Force", "powershell", B),
    (
        "Get-S3Object -BucketName nightly-backups | % { Remove-S3Object -BucketName"
        " nightly-backups -Key $_.Key -Force }",
        "powershell",
        B,
    ),
    ("Get-GcsBucket -Name db-backups | Remove-GcsBucket", "powershell", B),
    ("Get-S3Object web-assets | Remove-S3Object -Force", "powershell", D),
    ("Get-Item C:\\temp\\build | Remove-Item -Recurse -Force", "powershell", D),
    # 6: a copy of a Windows program run under another name
    (
        "copy C:\\Windows\\System32\\format.com C:\\temp\\fmtx.com & C:\\temp\\fmtx.com D: /q /y",
        "cmd",
        B,
    ),
    (
        "Copy-Item C:\\Windows\\System32\\format.com C:\\temp\\f.com; C:\\temp\\f.com D: /q /y",
        "powershell",
        B,
    ),
    ("copy C:\\Windows\\System32\\format.com C:\\temp\\f.com", "cmd", M),
    # 15: a .NET delete inside text PowerShell cannot parse, or no member access at all
    ('(Get-Item "$HOME).Parent.Delete($true)', "powershell", M),
    ("(Get-Item a) .parent .parent .Delete($true)", "powershell", M),
    ("(Get-Item '$HOME).Parent.Delete($true)", "powershell", M),
    ('(Get-Item "$HOME").Parent.Delete($true)', "powershell", B),
]


@pytest.mark.parametrize(("command", "shell", "expected"), _CASES)
def test_r15_finding_level(command: str, shell: str, expected: RiskLevel) -> None:
    assert level(command, shell) == expected


_BASH_WRAPPERS = ("sudo {0}", "env {0}", "sh -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f")
_WRAPPED_BLOCKED = [
    "rm -rf /etc/pki/tls/certs",
    "rm -rf /etc/rc.d/init.d",
    'make --file=<(printf "all:\\n\\trm -rf ~")',
]


@pytest.mark.parametrize("wrapper", _BASH_WRAPPERS)
@pytest.mark.parametrize("command", _WRAPPED_BLOCKED)
def test_r15_bash_wrapped_keeps_level(wrapper: str, command: str) -> None:
    assert level(wrapper.format(command)) == B


_BOUND = [
    ("cp /bin/rm /tmp/x; hash -r; ", "/tmp/x -r ~"),
    ("hash ls=/bin/rm; ", "ls -r ~"),
    ("BASH_CMDS[ls]=/usr/bin/shred; ", "ls /dev/sda"),
    ("cp /sbin/mkfs.ext4 /tmp/fmt; cd /tmp; ", "./fmt /dev/sda"),
    ("cat /bin/rm > /tmp/x; ", "/tmp/x -r ~"),
]


@pytest.mark.parametrize("wrapper", _BASH_WRAPPERS)
@pytest.mark.parametrize(("setup", "run"), _BOUND)
def test_r15_bound_program_keeps_level_when_wrapped(wrapper: str, setup: str, run: str) -> None:
    assert level(setup + wrapper.format(run)) == B


_PS_KEEPS = [
    "Get-S3Bucket -BucketName nightly-backups | Remove-S3Bucket -DeleteBucketContent -Force",
    "Remove-Item C:\\Windows\\System32\\nt*.dll -Force",
    '(Get-Item "$HOME").Parent.Delete($true)',
    "Get-S3Object -BucketName nightly-backups | Remove-S3Object -Force",
    "Set-Location $env:windir; Remove-Item -Recurse -Force System32",
]


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
@pytest.mark.parametrize("command", _PS_KEEPS)
def test_r15_powershell_wrapped_keeps_level(wrapper: str, command: str) -> None:
    assert level(wrapper.format(command), "powershell") == level(command, "powershell")


_PS_LOW_WRAPPED = [
    "Get-S3Object -BucketName nightly-backups | Select-Object -First 1 | Remove-S3Object -Force",
    "Set-Location %windir%; Remove-Item -Recurse -Force System32",
]


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
@pytest.mark.parametrize("command", _PS_LOW_WRAPPED)
def test_r15_powershell_wrapped_stays_low(wrapper: str, command: str) -> None:
    assert level(wrapper.format(command), "powershell") <= D


_ = (C, M, S)
