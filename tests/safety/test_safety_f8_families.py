"""safety-f8: the families of blind8's misses, fixed as mechanisms (own spellings): run-parts
running a program its regex picks from a system folder with `--arg` values, Windows boot
files (the analyser's one account-and-boot table, extended), a known CLI's delete verb aimed
at a local home/root/system folder, FreeBSD's `gpart`, cloud hosts' security agents removed
by running their uninstall scripts with a shell, read-only queries (`swapon --show`, `assoc
.ext`), multiplexers told to end every session, `Disable-TlsCipherSuite` (hardening), and a
PowerShell redirect to an unquoted variable path."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import B, C, D, M, S, level


@pytest.mark.parametrize(
    "command,expected",
    [
        ("run-parts --regex '^rm$' /usr/bin --arg=-rf --arg=/", B),
        ("run-parts --regex='^shred$' /sbin --arg=-u -a /dev/sdb", B),
        ("run-parts --regex '^r.*$' /bin -a -rf -a /", B),  # not pinned: unknown program
        ("run-parts --regex '^rm$' /bin --arg=-rf --arg=build", C),
        ("run-parts --test /etc/cron.daily", S),
        ("run-parts --list /etc/cron.hourly", S),
        ("run-parts /etc/cron.daily", M),
    ],
)
def test_run_parts_runs_the_program_its_regex_picks(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("Remove-Item -Force C:\\Windows\\Boot\\EFI\\bootmgfw.efi", "powershell", B),
        ("Remove-Item C:\\Windows\\System32\\hal.dll -Force", "powershell", B),
        ("del /f C:\\Windows\\System32\\ci.dll", "cmd", B),
        ("erase C:\\Windows\\System32\\drivers\\classpnp.sys", "cmd", B),
        ("Rename-Item C:\\Windows\\System32\\winload.efi old.efi", "powershell", B),
        ("del /s /q C:\\Windows\\Boot\\*", "cmd", B),
        # look-alikes: an ordinary driver (critical, a system folder), a boot file read
        ("Remove-Item C:\\Windows\\System32\\drivers\\acme.sys", "powershell", C),
        ("Get-Item C:\\Windows\\Boot\\EFI\\bootmgfw.efi", "powershell", S),
    ],
)
def test_windows_boot_files(command: str, shell: str, expected: RiskLevel) -> None:
    assert level(command, shell) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("rclone purge ~", B),
        ("rclone delete /", B),
        ("rclone purge $HOME", B),
        ("s3cmd del --recursive ~", B),
        ("rclone purge remote:bucket/old", D),
        ("rclone delete ~/scratch", D),
        ("etcdctl del / --prefix", D),  # a key space, not the root folder
        ("restic forget --prune -r ~/repo", D),
        ("rclone ls ~", S),
    ],
)
def test_known_cli_delete_aimed_at_home_or_root(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("gpart destroy -F ada0", B),
        ("gpart destroy -F nvd0", B),
        ("gpart delete -i 2 da0", B),
        ("gpart show ada0", S),
        ("gpart list", S),
        ("gpart status", S),
    ],
)
def test_gpart(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("bash /usr/local/qcloud/stargate/admin/uninstall.sh", C),
        ("sh /usr/local/aegis/uninstall.sh", C),
        ("bash /usr/local/qcloud/YunJing/uninst.sh", C),
        ("/usr/local/qcloud/YunJing/uninst.sh", C),
        ("bash ./uninstall.sh", M),
        ("bash /opt/myapp/uninstall.sh", M),
    ],
)
def test_cloud_security_agents_uninstalled_by_script(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("swapon --show", "bash", S),
        ("swapon --summary", "bash", S),
        ("swapon /swapfile", "bash", M),
        ("assoc .ps1", "cmd", S),
        ("ftype", "cmd", S),
        ("assoc .ps1=txtfile", "cmd", C),
        ("tmux kill-server", "bash", D),
        ("tmux -L work kill-server", "bash", D),
        ("screen -X quit", "bash", D),
        ("screen -S build -X quit", "bash", D),
        ("tmux ls", "bash", S),
        ("Disable-TlsCipherSuite -Name TLS_RSA_WITH_3DES_EDE_CBC_SHA", "powershell", M),
        ("Disable-WindowsOptionalFeature -Online -FeatureName Windows-Defender", "powershell", C),
    ],
)
def test_over_and_under_ratings(command: str, shell: str, expected: RiskLevel) -> None:
    assert level(command, shell) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("'' > $env:windir\\system32\\drivers\\etc\\hosts", C),
        ("echo 1 > $env:SystemRoot\\System32\\drivers\\etc\\hosts", C),
        ("'x' >> $env:windir\\system32\\drivers\\etc\\hosts", C),
        ("'hi' > $env:TEMP\\out.txt", M),
        ("'a > $env:windir\\x' | Write-Output", S),  # inside quotes: text, not a redirect
    ],
)
def test_powershell_redirect_to_unquoted_variable_path(command: str, expected: RiskLevel) -> None:
    assert level(command, "powershell") == expected
