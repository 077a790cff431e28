"""safety-n10w: Windows mechanisms the red team's open families reach (registry keys named
through a Registry PSDrive, a working directory inside the registry, the .NET registry API,
the BCD store, another machine's hive; diskpart scripts in abbreviated verbs; PowerShell's
backtick escapes). Corpus rows are in sources_n10w.tsv; these are further spellings of the
same mechanisms, their read-only look-alikes, then the same commands inside wrappers."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S

_PS_CASES = [
    # code built around values only known at run time: blocked when its literal parts are
    ('iex ("Remove-Item -Recurse -Force C:\\Windows " + $env:EXTRA)', B),
    ('Invoke-Expression ("Remove-Item C:\\Users -Recurse -Force" + " $env:OPTS")', B),
    ('iex "vssadmin delete shadows /all /quiet $env:Q"', B),
    ('iex ("Remove-Item -Recurse -Force .\\build " + $x)', C),
    ('iex ("Get-ChildItem C:\\Windows " + $env:X)', C),
    ('[scriptblock]::Create("Remove-Item C:\\Windows -Recurse -Force " + $env:X).Invoke()', B),
    ('$ExecutionContext.InvokeCommand.InvokeScript("vssadmin delete shadows /all " + $q)', B),
    ('[scriptblock]::Create("Get-ChildItem " + $env:X).Invoke()', C),
    # a new name for Invoke-Expression: each use is judged by what it is given; a familiar
    # name made to run it hides it (critical)
    ("Set-Alias run Invoke-Expression; run 'Get-ChildItem C:\\Windows'", M),
    ("Set-Alias run Invoke-Expression; run 'Remove-Item -Recurse -Force C:\\Windows'", B),
    ("Set-Alias run Invoke-Expression; run $payload", C),
    ("Set-Alias -Name dir -Value Invoke-Expression", C),
    # .NET item objects built then acted on: as Get-Item / the static call they amount to
    ("[IO.DirectoryInfo]::new([Environment]::GetFolderPath('UserProfile')).Delete($true)", B),
    ("New-Object System.IO.DirectoryInfo -ArgumentList 'C:\\Users' | % { $_.Delete($true) }", B),
    ("[IO.DirectoryInfo]::new('C:\\').EnumerateDirectories() | % { $_.Delete($true) }", B),
    ("[IO.DirectoryInfo]::new('C:\\Windows').MoveTo('D:\\old')", B),
    ("Get-ChildItem $env:windir -Directory | % Delete $true", B),
    ("[IO.DirectoryInfo]::new('C:\\work\\obj').Delete($true)", D),
    ("Get-ChildItem C:\\work\\build | % Delete", D),
    ("[IO.DirectoryInfo]::new('C:\\Windows').GetFiles() | Select-Object -First 3", S),
    # a name only known at run time inside a protected Windows folder
    ('Remove-Item -LiteralPath "$env:SystemRoot\\System32\\config\\$hive" -Force', B),
    ('ri "C:\\Windows\\System32\\drivers\\$($d.Name)"', B),
    ('Copy-Item -Path .\\x.dll -Destination "$env:windir\\SysWOW64\\$dll"', C),
    ('Copy-Item "$env:windir\\System32\\drivers\\$n" C:\\backup\\', M),
    ('Get-Item "$env:windir\\System32\\config\\$hive"', S),
    ('Remove-Item "$env:windir\\Temp\\$f"', D),
    ('[System.IO.File]::Delete("C:\\Windows\\System32\\drivers\\$drv.sys")', B),
    ('[IO.File]::WriteAllText("$env:windir\\System32\\$n", "x")', C),
    ('Rename-Item "$env:windir\\System32\\config\\$h" old.bak', B),
    ('Rename-Item "C:\\work\\$n" old.txt', M),
    ('Remove-Item "C:\\work\\build\\$f"', D),
    # a Registry PSDrive: the drive's name stands for its root key
    (
        "New-PSDrive -Name Q -PSProvider Registry -Root HKLM:\\SOFTWARE; Remove-Item Q:\\ -Recurse",
        B,
    ),
    ("ndr Z Registry 'HKEY_LOCAL_MACHINE\\SYSTEM'; Remove-Item Z:\\* -Recurse -Force", B),
    ("ndr Z Registry HKLM:\\SYSTEM\\CurrentControlSet; ri Z:\\Services\\WinDefend -r", C),
    ("ndr Z Registry HKCU:\\Software; Remove-Item Z:\\Contoso -Recurse", D),
    ("ndr Z Registry HKLM:\\SOFTWARE; Get-ChildItem Z:\\Microsoft", S),
    ("ndr Z Registry HKLM:\\SYSTEM; Remove-Item Z:\\CurrentControlSet -Recurse -WhatIf", S),
    # a file-system PSDrive of the same name is not the registry
    ("ndr Z FileSystem C:\\work; Remove-Item Z:\\SYSTEM -Recurse", D),
    # the working directory inside the registry: relative paths are its subkeys
    ("Set-Location Registry::HKEY_LOCAL_MACHINE\\SYSTEM; ri CurrentControlSet -r -fo", B),
    ("pushd HKLM:\\SOFTWARE\\Microsoft; Remove-Item ..\\..\\SYSTEM -Recurse", B),
    ("cd HKLM:\\; Remove-Item * -Recurse -Force", B),
    ("cd HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa; rp . -Name RunAsPPL", C),
    (
        "cd HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion;"
        " New-ItemProperty -Path .\\RunOnce -Name x -Value 'C:\\Users\\Public\\x.exe'",
        C,
    ),
    ("cd HKCU:\\Software; Remove-Item Contoso -Recurse", D),
    ("cd HKLM:\\SYSTEM; cd C:\\work; Remove-Item CurrentControlSet -Recurse", D),
    ("cd HKLM:\\SYSTEM; Get-ChildItem -Recurse | Select-Object -First 3", S),
    # Remove-ItemProperty of a security setting is `reg delete /v` of it
    ("Remove-ItemProperty -Path HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa -Name RunAsPPL", C),
    ("Remove-ItemProperty -Path HKCU:\\Software\\Contoso -Name LastRun", D),
    ("Clear-ItemProperty -Path HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa -Name RunAsPPL", C),
    # (every LSA value gone, its authentication packages too: nobody can log on; the
    # session-14 convention makes that blocked, n12w)
    ("Clear-Item -Path HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa", B),
    ("Clear-Item HKCU:\\Software\\Contoso -WhatIf", S),
    # a boot-critical key's child named at run time (a service or driver): never scoped
    ('Remove-Item "HKLM:\\SYSTEM\\CurrentControlSet\\Services\\$svc" -Recurse', C),
    ('Remove-Item "HKLM:\\SOFTWARE\\$app" -Recurse', D),
    # the .NET registry API: the key each call reaches
    ("[Microsoft.Win32.Registry]::LocalMachine.DeleteSubKeyTree('SYSTEM')", B),
    # (SOFTWARE\\Microsoft whole is Windows' own configuration: blocked, n11w's decision)
    ("[Registry]::LocalMachine.OpenSubKey('SOFTWARE', $true).DeleteSubKeyTree('Microsoft')", B),
    (
        "$b = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]::"
        "LocalMachine, [Microsoft.Win32.RegistryView]::Registry64);"
        " $s = $b.OpenSubKey('SYSTEM', $true); $s.DeleteSubKeyTree('CurrentControlSet')",
        B,
    ),
    (
        "[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey("
        "'SOFTWARE\\Policies\\Microsoft\\Windows Defender', $true)"
        ".SetValue('DisableAntiSpyware', 1)",
        C,
    ),
    (
        "[Microsoft.Win32.Registry]::CurrentUser.CreateSubKey("
        "'Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce').SetValue('x', 'C:\\x.exe')",
        C,
    ),
    (
        "[Microsoft.Win32.Registry]::CurrentUser.CreateSubKey('Software\\Contoso')"
        ".SetValue('a', 1)",
        M,
    ),
    ("[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SYSTEM').GetSubKeyNames()", S),
    ("Write-Output 'DeleteSubKeyTree is a Microsoft.Win32.Registry method'", S),
    # `$v\x` barewords the grammar stops at: the rest is the same command's arguments
    ("Get-ChildItem $env:windir\\System32 -Filter *.sys", S),
    ("dir $env:TEMP\\logs -Filter *.log -Recurse", S),
    ("Remove-Item $env:windir\\System32\\drivers -Filter *.sys -Recurse -Force", B),
    ("dir $env:TEMP\\x -Filter *.log; Remove-Item C:\\Users -Recurse -Force", B),
    ("Export-ScheduledTask -TaskName Nightly", S),
    ("Expand-WindowsImage -ImagePath D:\\install.wim -Index 1 -ApplyPath C:\\", B),
    ("Expand-WindowsImage -ImagePath D:\\install.wim -Index 1 -ApplyPath C:\\ -WhatIf", S),
    ("reg query HKLM\\SOFTWARE | ForEach-Object { reg delete $_ /f }", B),
    ("Get-ChildItem HKLM:\\SOFTWARE | % { reg delete $_.Name /f }", B),
    ("reg query HKLM\\SOFTWARE | Select-String Contoso", S),
    (
        "Add-Type -TypeDefinition @'\nusing Microsoft.Win32;\npublic static class Z { public"
        ' static void Go() { Registry.LocalMachine.DeleteSubKeyTree("SOFTWARE"); } }\n\'@;'
        " [Z]::Go()",
        B,
    ),
    # a .reg file's `[-KEY]` deletes the key, `"name"=-` the value; WMI's StdRegProv too
    (
        'Set-Content d.reg "Windows Registry Editor Version 5.00`n[-HKEY_LOCAL_MACHINE\\SOFTWARE]";'
        " regedit /s d.reg",
        B,
    ),
    (
        'Set-Content d.reg "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Lsa]'
        '`n`"RunAsPPL`"=-"; reg import d.reg',
        C,
    ),
    ('Set-Content d.reg "[-HKEY_CURRENT_USER\\Software\\Contoso]"; reg import d.reg', D),
    (
        "Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments"
        " @{hDefKey=[uint32]2147483650; sSubKeyName='SYSTEM\\CurrentControlSet'}",
        B,
    ),
    ("([wmiclass]'root\\default:StdRegProv').DeleteKey(2147483649, 'Software\\Contoso')", D),
    ("([wmiclass]'root\\default:StdRegProv').EnumKey(2147483650, 'SOFTWARE')", S),
    # the BCD store loaded as a hive holds the boot entries
    ("Remove-Item -Path HKLM:\\BCD00000000\\Objects\\* -Recurse", B),
    ("Get-ItemProperty HKLM:\\BCD00000000\\Description", S),
    # diskpart scripts: abbreviated verbs, written by Set-Content / Out-File / here-strings
    ('Set-Content s.txt "sel dis 0`r`ncle"; diskpart /s s.txt', B),
    ("'sel vol 3', 'del vol' | Out-File -Encoding ascii s.txt; diskpart /s s.txt", B),
    ('Set-Content s.txt "sel dis 1`ncre par pri"; diskpart /s s.txt', C),
    ('Set-Content s.txt "lis dis`ndet dis"; diskpart /s s.txt', M),
    # a scheduled task's action or trigger changed: persistence; a blocked action is blocked
    ("Set-ScheduledTask -TaskPath \\ -TaskName Nightly -Trigger $trig", C),
    (
        "Set-ScheduledTask Nightly -Action"
        " (New-ScheduledTaskAction -Execute C:\\ProgramData\\n.exe)",
        C,
    ),
    (
        "Set-ScheduledTask Nightly -Action (New-ScheduledTaskAction -Execute cmd.exe"
        " -Argument '/c rd /s /q C:\\Windows')",
        B,
    ),
    (
        "$t = Get-ScheduledTask Nightly; $t.Triggers[0].StartBoundary = 'x';"
        " $t | Set-ScheduledTask",
        C,
    ),
    ("Set-ScheduledTask -TaskName Nightly -Settings $settings", M),
    # a task defined by XML runs its <Exec> action
    (
        "Register-ScheduledTask -TaskName x -Xml '<Task><Actions><Exec><Command>cmd.exe"
        "</Command><Arguments>/c rd /s /q C:\\Windows</Arguments></Exec></Actions></Task>'",
        B,
    ),
    (
        "Set-Content t.xml '<Task><Actions><Exec><Command>vssadmin.exe</Command><Arguments>"
        "delete shadows /all /quiet</Arguments></Exec></Actions></Task>'; schtasks /create"
        " /xml t.xml /tn x",
        B,
    ),
    (
        "Register-ScheduledTask -TaskName x -Xml '<Task><Actions><Exec><Command>"
        "C:\\Tools\\sync.exe</Command></Exec></Actions></Task>'",
        C,
    ),
    (
        "$t = Get-ScheduledTask Nightly; $t.Actions[0].Execute = 'cmd.exe';"
        " $t.Actions[0].Arguments = '/c rd /s /q C:\\Users'; Set-ScheduledTask -InputObject $t",
        B,
    ),
    ("Set-ScheduledTask -TaskName Nightly -Trigger $trig -WhatIf", S),
    (
        "$svc = New-Object -ComObject 'Schedule.Service'; $svc.Connect(); $def = $svc.NewTask(0);"
        " $a = $def.Actions.Create(0); $a.Path = 'vssadmin.exe'; $a.Arguments = 'delete shadows"
        " /all /quiet'; $svc.GetFolder('\\').RegisterTaskDefinition('u', $def, 6, $null, $null, 3)",
        B,
    ),
    (
        "$svc = New-Object -ComObject Schedule.Service; $svc.Connect();"
        " $svc.GetFolder('\\').GetTasks(0) | Select-Object Name, State",
        M,  # (a COM object is not modelled: at most moderate, never persistence)
    ),
    # script blocks built at run time: a literal is judged, anything else is opaque
    ("$ExecutionContext.InvokeCommand.NewScriptBlock($code).InvokeReturnAsIs()", C),
    ("[System.Management.Automation.ScriptBlock]::Create($code).Invoke()", C),
    ("[ScriptBlock]::Create('Get-ChildItem $env:TEMP').InvokeReturnAsIs()", S),
    # .NET deletes: `1` is as true as `$true`; interpolated known folders are those folders
    ("[IO.Directory]::Delete($env:SystemRoot, 1)", B),
    ('[System.IO.Directory]::Delete("$($env:SystemDrive)\\Users", $true)', B),
    ('[IO.Directory]::Delete("${env:ProgramFiles}", [bool]1)', B),
    ('[IO.Directory]::Delete("$env:USERPROFILE\\proj\\bin", 1)', D),
    ("[IO.Directory]::Delete('C:\\work\\out', $false)", D),
    ("[IO.DirectoryInfo]::new($env:USERPROFILE).Delete($true)", B),
    ('[System.IO.Directory]::Delete("$env:HOMEDRIVE$env:HOMEPATH", $true)', B),
    ('[IO.Directory]::Delete("$env:SystemDrive$env:HOMEPATH", 1)', B),
    ("[IO.Directory]::Delete(\"$([Environment]::GetFolderPath('UserProfile'))\", $true)", B),
    ('[IO.Directory]::Delete("C:$env:HOMEPATH\\proj\\bin", $true)', D),
    (
        "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory("
        "[Environment]::GetFolderPath('UserProfile'), 'DeleteAllContents')",
        B,
    ),
    (
        "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory("
        "[Environment]::GetFolderPath('Desktop'), 'DeleteAllContents')",
        D,
    ),
    ('[IO.DirectoryInfo]::new("$env:USERPROFILE").EnumerateFiles()', S),
]


@pytest.mark.parametrize("command,expected", _PS_CASES)
def test_n10w_powershell_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "powershell").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


_PS_WRAPPERS = PS_BLOCK_WRAPPERS


@pytest.mark.parametrize("wrapper", _PS_WRAPPERS)
@pytest.mark.parametrize(
    "command,expected", [(c, e) for c, e in _PS_CASES if e >= RiskLevel.CRITICAL]
)
def test_n10w_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "powershell").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


_CMD_CASES = [
    # another machine's hive: `\\host\` names where, the key is judged as the key
    ("reg delete \\\\db01\\HKLM\\SOFTWARE /f", B),
    ("reg delete \\\\db01\\HKLM\\SYSTEM\\CurrentControlSet\\Control /f", B),
    ("reg delete \\\\db01\\HKCU\\Software\\Contoso /f", D),
    ("reg delete HKLM\\SYSTEM\\CurrentControlSet\\Services\\%1 /f", C),
    ("reg delete HKLM\\SYSTEM\\CurrentControlSet\\Services\\MyAppSvc /f", D),
    ("reg query \\\\db01\\HKLM\\SYSTEM\\CurrentControlSet\\Services", M),
    ("reg delete HKLM\\BCD00000000\\Objects /f", B),
    ("reg query HKLM\\BCD00000000 /s", S),
    ("bcdedit /export C:\\backup\\bcd.bak", M),
    # an image applied onto a whole disk or the system drive replaces it
    ("dism /Apply-FFU /ImageFile:D:\\f.ffu /ApplyDrive:\\\\.\\PhysicalDrive0", B),
    ("dism /Apply-Image /ImageFile:D:\\install.wim /Index:1 /ApplyDir:C:\\", B),
    ("imagex /apply D:\\x.wim 1 C:\\", B),
    ("dism /Apply-Image /ImageFile:D:\\install.wim /Index:1 /ApplyDir:W:\\", D),
    ("dism /Get-ImageInfo /ImageFile:D:\\install.wim", S),
    # a loop over a `reg query` listing deletes every subkey: the key's whole tree
    ("for /f %k in ('reg query HKLM\\SYSTEM\\CurrentControlSet\\Services') do reg delete %k /f", B),
    ("for /f %k in ('reg query HKCU\\Software\\Contoso') do reg delete %k /f", D),
    ("for /f %k in ('reg query HKLM\\SOFTWARE') do echo %k", S),
    (
        "wmic /namespace:\\\\root\\default class StdRegProv call DeleteKey"
        ' hDefKey=2147483650 sSubKeyName="SYSTEM\\CurrentControlSet"',
        B,
    ),
    ("(echo [-HKEY_LOCAL_MACHINE\\SYSTEM]) > d.reg & regedit /s d.reg", B),
    # diskpart's three-letter verbs
    ("echo sel dis 2 > w.txt & echo cle all >> w.txt & diskpart /s w.txt", B),
    ("(echo sel vol 3& echo for fs=ntfs quick) | diskpart", B),
    ("(echo sel dis 2& echo con gpt) | diskpart", C),
    ("(echo lis vol& echo exi) | diskpart", S),
    # a file only known at run time inside a protected Windows folder
    ("del /f /q %SystemRoot%\\System32\\config\\%HIVE%", B),
    ("erase C:\\Windows\\System32\\drivers\\%~1", B),
    ("copy /y evil.dll %windir%\\System32\\%NAME%", C),
    ("type %windir%\\System32\\drivers\\etc\\%F%", S),
    ("del %TEMP%\\%F%", D),
    # schtasks /change: a new action, schedule or account turns an existing task to new use
    ("schtasks /change /tn Nightly /st 03:00", C),
    ("schtasks /change /tn Nightly /ru SYSTEM", C),
    ('schtasks /change /tn Nightly /tr "vssadmin delete shadows /all /quiet"', B),
    ("schtasks /change /tn Nightly /enable", M),
    ("schtasks /query /tn Nightly /xml", S),
    # help of a known program's verb is not the verb
    ("reg delete /?", S),
    ("schtasks /change /?", S),
]


@pytest.mark.parametrize("command,expected", _CMD_CASES)
def test_n10w_cmd_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "cmd").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


@pytest.mark.parametrize("wrapper", ["cmd /c {0}", "call {0}", "if exist C:\\ {0}"])
@pytest.mark.parametrize(
    "command,expected",
    [(c, e) for c, e in _CMD_CASES if e >= RiskLevel.CRITICAL and c.startswith("reg")],
)
def test_n10w_cmd_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "cmd").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


def test_n10w_backtick_escapes_are_control_characters() -> None:
    # `n is a line break in an expandable string, `$ a literal dollar, `x just x
    got = assess('Set-Content s.txt "sel dis 0`nclean"; diskpart /s s.txt', "powershell")
    assert got.level == B
    assert assess('Write-Output "a`tb`$c"', "powershell").level == S
