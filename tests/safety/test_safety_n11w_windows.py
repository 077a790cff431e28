"""safety-n11w: Windows families (issue 14): the registry branches that hold Windows' own
configuration, paths built with Join-Path / [IO.Path]::Combine or spelled through WSL, run-time
names inside protected Windows folders reached from bash, script blocks that hold only a
comment. Corpus rows are in sources_n11w.tsv; these are further spellings of the same
mechanisms, their look-alikes, then the same commands inside wrappers."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S

_PS_CASES = [
    # Windows' own registry branches deleted whole, by every registry tool
    ("Remove-Item HKLM:\\SOFTWARE\\Microsoft -Recurse -Force", B),
    ("Remove-Item -LiteralPath 'HKLM:\\SOFTWARE\\WOW6432Node\\Microsoft' -Recurse", B),
    ("ri 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion' -r -fo", B),
    ("Remove-Item HKLM:\\SOFTWARE\\Classes -Recurse -Force", B),
    ("Remove-Item HKLM:\\SOFTWARE\\Microsoft\\* -Recurse -Force", B),
    (
        "[Microsoft.Win32.Registry]::LocalMachine.DeleteSubKeyTree('SOFTWARE\\Microsoft\\Windows')",
        B,
    ),
    (
        "Invoke-WmiMethod -Namespace root\\default -Class StdRegProv -Name DeleteKey"
        " -ArgumentList 2147483650, 'SOFTWARE\\Microsoft'",
        B,
    ),
    # a vendor's key, a key deeper inside, one value, reads: as before
    ("Remove-Item HKLM:\\SOFTWARE\\Contoso -Recurse -Force", D),
    # a system branch renamed or moved away is gone from where Windows reads it
    ("Rename-Item HKLM:\\SOFTWARE\\Microsoft Microsoft.old", B),
    ("Move-Item HKLM:\\SYSTEM\\CurrentControlSet\\Services HKLM:\\SOFTWARE\\x", B),
    ("Set-Location HKLM:\\SYSTEM; Rename-Item CurrentControlSet ccs.old", B),
    ("Rename-Item HKLM:\\SOFTWARE\\Contoso Contoso.old", M),
    ("Remove-Item HKLM:\\SOFTWARE\\Microsoft\\Contoso\\Cache -Recurse", D),
    ("Remove-Item HKCU:\\Software\\Microsoft\\Contoso -Recurse", D),
    ("Get-ChildItem HKLM:\\SOFTWARE\\Microsoft -Recurse", S),
    ("Get-ItemProperty 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion'", S),
    # Join-Path / Combine building a protected path: piped, assigned, inline
    ("Join-Path $env:SystemRoot 'System32' | Remove-Item -Recurse -Force", B),
    ("Join-Path -ChildPath 'System32\\drivers' -Path $env:windir | ri -Recurse -Force", B),
    ("$d = Join-Path $env:windir System32; Remove-Item -Path $d -Recurse -Force", B),
    ("$d = Join-Path C:\\ Windows; Get-ChildItem $d | Remove-Item -Recurse -Force", B),
    ("Join-Path $env:TEMP 'cache' | Remove-Item -Recurse -Force", D),
    ("$d = Join-Path $env:TEMP cache; Remove-Item $d -Recurse -Force", D),
    ("[System.IO.Path]::Combine($env:SystemRoot, 'System32') | Remove-Item -Recurse -Force", B),
    ("[IO.Path]::Combine($env:TEMP, 'x') | Remove-Item -Recurse -Force", D),
    (
        "Remove-Item -LiteralPath (Join-Path -Path ([Environment]::GetFolderPath('Windows'))"
        " -ChildPath 'System32') -Recurse -Force",
        B,
    ),
    ("Remove-Item ([Environment]::SystemDirectory) -Recurse -Force", B),
    ("Get-ChildItem ([Environment]::SystemDirectory) -Filter *.dll", S),
    ("Join-Path $env:windir 'System32' | Get-ChildItem", S),
    ("$d = Join-Path $env:windir System32; Get-ChildItem $d", S),
    # HKCR's root is SOFTWARE\\Classes; a user hive's root or Software is all its settings
    ("Remove-Item Registry::HKEY_CLASSES_ROOT\\* -Recurse -Force", B),
    ("Remove-Item HKCU:\\* -Recurse -Force", B),
    ("Remove-Item Registry::HKEY_CLASSES_ROOT\\.txt -Recurse", D),
    ("Remove-Item HKCU:\\Environment -Recurse", D),
    # a scheduled task's new action: what comments and printed strings say is not it
    (
        "# $t.Actions[0].Execute = 'cmd.exe'; $t.Actions[0].Arguments = '/c rd /s /q C:\\Windows'"
        "\n$t = Get-ScheduledTask Nightly; $t | Set-ScheduledTask",
        C,
    ),
    (
        "Write-Host \"$t.Actions[0].Execute = 'cmd.exe' .Arguments = '/c rd /s /q C:\\Windows'\""
        "\nSet-ScheduledTask -TaskName Nightly -Trigger $tr",
        C,
    ),
    (
        "$t = Get-ScheduledTask N; $t.Actions[0].Execute = 'cmd.exe';"
        " $t.Actions[0].Arguments = '/c rd /s /q C:\\Windows'; $t | Set-ScheduledTask",
        B,
    ),
    # a task's account changed is an existing task turned to new use (schtasks /change /ru)
    ("Set-ScheduledTask -TaskName Nightly -User SYSTEM", C),
    ("Set-ScheduledTask -TaskName Nightly -Principal $p", C),
    ("Enable-ScheduledTask -TaskName Nightly", M),
    # positional task actions and service binaries are judged as the named ones
    ("New-ScheduledTaskAction cmd.exe '/c vssadmin delete shadows /all /quiet'", B),
    ("New-ScheduledTaskAction -Execute cmd.exe '/c rd /s /q C:\\Windows'", B),
    ("New-Service evil 'cmd /c rd /s /q C:\\Windows'", B),
    ("New-ScheduledTaskAction notepad.exe readme.txt", M),
    ("schtasks -change -tn Nightly -tr C:\\x.exe", C),
    ("schtasks -query -tn Nightly", S),
    # an array of lines piped into a file: one item a line (a diskpart script)
    (
        "$l = 'select disk 3', 'clean all'; $l | Set-Content \"$env:TEMP\\d.txt\";"
        ' diskpart /s "$env:TEMP\\d.txt"',
        B,
    ),
    ("$l = 'list disk', 'list volume'; $l | Set-Content d.txt; diskpart /s d.txt", M),
    # Write-Output / echo: each argument is a line down the pipe
    ('Write-Output "sel disk 1" "clean" | diskpart', B),
    ("echo 'select volume 3' 'format fs=ntfs quick' | diskpart", B),
    ('Write-Output "list disk" "list volume" | diskpart', S),
    ("$l = @('C:\\tmp\\a', 'C:\\Windows'); $l | Remove-Item -Recurse -Force", B),
    # a native program gets `-name:value` as one argument
    ("msbuild -p:Configuration=Release app.sln", M),
    ("msbuild app.csproj -t:Build -p:Configuration=Release", M),
    ("wbadmin delete backup -keepVersions:0 -quiet", B),
    ("wbadmin.exe delete systemstatebackup -keepVersions:1", B),
    ("Remove-Item C:\\tmp\\x -Recurse -WhatIf:$false", D),
    # a function this text defines binds `-name:value` as a cmdlet does
    ("function wipe { param($p) Remove-Item $p -Recurse -Force }; wipe -p:C:\\Windows", B),
    ("function zap($Dir) { Remove-Item $Dir -Recurse -Force }; zap -Dir:$env:USERPROFILE", B),
    ("function zap($Dir) { Remove-Item $Dir -Recurse -Force }; zap -Dir:C:\\tmp\\x", D),
    ('powershell -Command:"Remove-Item C:\\Windows -Recurse -Force"', B),
    # items piped into Rename-Item / Move-Item are their -Path
    ('Get-Item "$env:SystemRoot\\System32\\config\\$h" | Rename-Item -NewName "$h.old"', B),
    ('gi "C:\\Windows\\System32\\drivers\\$d" | Move-Item -Destination D:\\x', B),
    ("Get-ChildItem C:\\Windows\\System32\\drivers | Rename-Item -NewName { $_.Name + '.x' }", B),
    ("Get-Item C:\\Windows\\System32\\config\\SYSTEM | Rename-Item -NewName SYSTEM.old", B),
    ("Get-ChildItem | Rename-Item -NewName { $_.Name -replace ' ', '_' }", M),
    ("Get-ChildItem ~\\Pictures | Rename-Item -NewName { $_.Name.ToLower() }", M),
    ('Get-Item "$env:TEMP\\$n" | Rename-Item -NewName "$n.old"', M),
    ('Get-Item "$env:windir\\System32\\$n" | Select-Object Length', S),
    ("Remove-Item \\\\wsl.localhost\\Ubuntu\\etc -Recurse -Force", B),
    ("Remove-Item \\\\wsl$\\Ubuntu\\tmp\\cache -Recurse -Force", D),
    # a runspace held in a variable: the calls made on it build the command it runs
    (
        "$ps = [PowerShell]::Create(); $ps.AddCommand('Remove-Item')"
        ".AddParameter('Path', 'HKLM:\\SOFTWARE\\Microsoft').AddParameter('Recurse').Invoke()",
        B,
    ),
    (
        "$ps = [PowerShell]::Create()\n$ps.AddCommand('Remove-Item') | Out-Null\n"
        "$ps.AddArgument('C:\\Windows') | Out-Null\n$ps.AddParameter('Recurse') | Out-Null\n"
        "$ps.Invoke()",
        B,
    ),
    (
        "$ps = [PowerShell]::Create(); $ps.AddCommand('Get-ChildItem')"
        ".AddArgument('C:\\').Invoke()",
        S,
    ),
    # a script block that holds only a comment (or nothing) does nothing
    ("& {\n    # step left empty on purpose\n}", S),
    ("& { <# Remove-Item C:\\Windows -Recurse -Force #> }", S),
    ("Invoke-Command { <# nothing #> }", S),
    ("& { Get-Date }", S),
    ("& { }", S),
    ("& {\n  Remove-Item C:\\Windows -Recurse -Force  # cleanup\n}", B),
    ("& { <# note #> Remove-Item $env:USERPROFILE -Recurse -Force }", B),
    ("& { iex $env:PAYLOAD }", C),
]


@pytest.mark.parametrize("command,expected", _PS_CASES)
def test_n11w_powershell_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "powershell").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


_PS_WRAPPERS = (*PS_BLOCK_WRAPPERS, "try {{ {0} }} catch {{ }}")


@pytest.mark.parametrize("wrapper", _PS_WRAPPERS)
@pytest.mark.parametrize(
    "command,expected", [(c, e) for c, e in _PS_CASES if e >= RiskLevel.CRITICAL]
)
def test_n11w_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "powershell").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


_CMD_CASES = [
    ("reg delete HKLM\\SOFTWARE\\Microsoft /f", B),
    ('reg delete "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT" /f', B),
    ("reg delete HKLM\\SOFTWARE\\WOW6432Node\\Microsoft /f", B),
    ("reg delete HKLM\\SOFTWARE\\Classes /f", B),
    ("(echo [-HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft]) > m.reg & regedit /s m.reg", B),
    ("reg delete HKLM\\SOFTWARE\\Contoso /f", D),
    ("reg delete HKLM\\SOFTWARE\\Microsoft\\Contoso /f", D),
    ("reg delete HKLM\\SOFTWARE\\Microsoft /v Foo /f", D),
    ("reg delete HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion /va /f", D),
    ("reg query HKLM\\SOFTWARE\\Microsoft /s", S),
    ("reg delete HKCU\\Software /f", B),
    ("reg delete HKEY_CURRENT_USER\\Software /f", B),
    ("reg delete HKCU\\Software\\Contoso /f", D),
    # schtasks takes `-` for `/`
    ("schtasks -create -sc onlogon -tn x -tr C:\\x.exe", C),
    ('schtasks.exe -change -tn Nightly -tr "cmd /c rd /s /q C:\\Windows"', B),
    ("schtasks -query -fo list", S),
    # a loop's `( … ) > f` group writes every echo of the group to f
    ('for %i in (1) do (echo :a& echo start "" %0& echo goto a) > x.bat && x.bat', B),
    ("for %i in (1) do (echo select disk 1& echo clean) > d.txt & diskpart /s d.txt", B),
    ("for %i in (1) do (echo list disk& echo list volume) > d.txt & diskpart /s d.txt", M),
    ("for %i in (1) do (echo a& echo b) > notes.txt", M),
    # cmd passes a quoted word on to `cmd /c` with its quotes
    ('cmd /c start "x" /b /wait cmd /c "vssadmin delete shadows /all /quiet"', B),
    ('cmd /k start "" /b format D: /q /y', B),
    # a WSL distribution's files through the \\\\wsl$ share are its Linux paths
    ("rd /s /q \\\\wsl$\\Ubuntu\\etc", B),
    ("del /f \\\\wsl.localhost\\Debian\\etc\\shadow", B),
    ("rd /s /q \\\\wsl$\\Ubuntu\\home\\me\\proj\\build", D),
    ("dir \\\\wsl$\\Ubuntu\\etc", S),
    # a distribution's own launcher runs its command line in that Linux system
    ('ubuntu.exe run "rm -rf /"', B),
    ("ubuntu2204 run rm -rf ~", B),
    ('debian -c "rm -rf /etc"', B),
    ("ubuntu run ls -la", S),
    # start: the first quoted argument is the title, before or after the switches
    ('start /b /wait "" cmd /c rd /s /q C:\\Windows', B),
    ('start /min "job" /b format D: /q /y', B),
    ('start "" /b /wait cmd /c vssadmin delete shadows /all /quiet', B),
    ('start /b /wait "" notepad readme.txt', M),
]


@pytest.mark.parametrize("command,expected", _CMD_CASES)
def test_n11w_cmd_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "cmd").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


@pytest.mark.parametrize("wrapper", ["cmd /c {0}", "call {0}", "if exist C:\\ {0}"])
@pytest.mark.parametrize(
    "command,expected", [(c, e) for c, e in _CMD_CASES if e >= C and c.startswith("reg")]
)
def test_n11w_cmd_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "cmd").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


_BASH_CASES = [
    # WSL / Git Bash spellings of a run-time name inside a protected Windows folder
    ('rm -f "/mnt/c/Windows/System32/config/$hive"', B),
    ("rm /mnt/c/Windows/System32/drivers/${drv}.sys", B),
    ('rm -f "/c/Windows/System32/$(basename "$f")"', B),
    ("for h in SAM SYSTEM; do rm -f /mnt/c/Windows/System32/config/$h; done", B),
    ("reg.exe delete 'HKLM\\SOFTWARE\\Microsoft' /f", B),
    ("echo 127.0.0.1 x >> /mnt/c/Windows/System32/drivers/etc/hosts", C),
    ("cat payload > /mnt/c/Windows/System32/x.dll", C),
    ("echo hi > /mnt/c/Users/me/notes.txt", M),
    ('rm -f "/mnt/c/Users/me/cache/$f"', D),
    ('rm -f "/mnt/d/data/$f"', D),
    ('cat "/mnt/c/Windows/System32/drivers/etc/$f"', S),
    ('ls "/mnt/c/Windows/System32/config/$h"', S),
]


@pytest.mark.parametrize("command,expected", _BASH_CASES)
def test_n11w_bash_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "bash").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


_BASH_WRAPPERS = [
    "sudo {0}",
    "env X=1 {0}",
    "timeout 5 {0}",
    "sh -c '{0}'",
    "f() {{ {0}; }}; f",
    "( {0} )",
]


@pytest.mark.parametrize("wrapper", _BASH_WRAPPERS)
@pytest.mark.parametrize(
    "command,expected",
    [(c, e) for c, e in _BASH_CASES if e >= C and "'" not in c and c.startswith("rm")],
)
def test_n11w_bash_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "bash").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


@pytest.mark.parametrize(
    "command", ["$sb = { <# a, (b] #> }; & $sb", "Get-Date <# a { #>", "& { <# } #> }"]
)
def test_n11w_block_comments_are_not_brackets(command: str) -> None:
    # brackets inside a `<# … #>` comment do not make the text unbalanced (no parse error)
    got = assess(command, "powershell")
    assert all(f.rule != "parse-error" for f in got.findings), got.findings
