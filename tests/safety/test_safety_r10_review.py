"""safety-r10: review10's findings. The passes that search a PowerShell text for .NET, COM
and WMI calls read only its code: comments and strings that are only printed, recorded or
stored are text, not calls (DESIGN s5). The same calls written as code keep their level,
also inside wrappers."""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, D, M, S

_REG = "[Microsoft.Win32.Registry]::LocalMachine.DeleteSubKeyTree('SYSTEM')"
_TEXT_CASES = [
    # text about a call: a comment, a printed string, a commit message, a stored string
    ("# " + _REG, S),
    ("<# " + _REG + " #>\nGet-Date", S),
    ("Write-Host 'do not run: " + _REG.replace("'", '"') + "'", S),
    ('Write-Output "see ' + _REG + '"', S),
    ('git commit -m "drop ' + _REG + ' call"', M),
    ("$doc = \"[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKeyTree('Software\\MyApp')\"", S),
    ('Write-Host "Add-Type \'Registry.LocalMachine.DeleteSubKeyTree(\\"SYSTEM\\")\'"', S),
    (
        "# Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments "
        "@{hDefKey=[uint32]2147483650; sSubKeyName='SYSTEM\\CurrentControlSet'}",
        S,
    ),
    (
        "Write-Host \"([wmiclass]'root\\default:StdRegProv').DeleteKey(2147483650, "
        "'SYSTEM\\CurrentControlSet')\"",
        S,
    ),
    (
        "# $s = New-Object -ComObject Schedule.Service; $s.Connect(); $f = $s.GetFolder('\\');"
        " $d = $f.GetTask('U').Definition; $d.Actions.Item(1).Path = 'C:\\Users\\Public\\x.exe';"
        " $f.RegisterTaskDefinition('U', $d, 6, $null, $null, 3)",
        S,
    ),
    ("Write-Host \"[IO.DirectoryInfo]::new('C:\\Windows').Delete($true)\"", S),
    (
        "# [Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory("
        "[Environment]::GetFolderPath('UserProfile'), 'DeleteAllContents')",
        S,
    ),
    ("Write-Host '[IO.Directory]::Delete(\"$env:HOMEDRIVE$env:HOMEPATH\", $true)'", S),
    ("# [IO.Directory]::Delete($env:windir, $true)", S),
    ("Write-Host \"[IO.Directory]::Delete('C:\\Windows', $true)\"", S),
    ('Write-Host "[System.Management.Automation.ScriptBlock]::Create($x)"', S),
    ("function Show { Write-Host \"[IO.Directory]::Delete('C:\\Windows', $true)\" }; Show", M),
    # the same calls as code
    (_REG, B),
    (_REG + " # cleanup", B),
    (
        "Write-Host hi; [Microsoft.Win32.Registry]::CurrentUser"
        ".DeleteSubKeyTree('Software\\MyApp')",
        D,
    ),
    (
        "Add-Type -TypeDefinition 'public class X { public static void M() { "
        'Microsoft.Win32.Registry.LocalMachine.DeleteSubKeyTree("SYSTEM"); } }\'; [X]::M()',
        B,
    ),
    (
        "Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments "
        "@{hDefKey=[uint32]2147483650; sSubKeyName='SYSTEM\\CurrentControlSet'}",
        B,
    ),
    ("[IO.DirectoryInfo]::new('C:\\Windows').Delete($true)", B),
    ("[IO.Directory]::Delete($env:windir, $true) # bye", B),
    ("[System.Management.Automation.ScriptBlock]::Create($x).Invoke()", C),
    ("$code = \"[IO.Directory]::Delete('C:\\Windows', $true)\"; iex $code", B),
    # a subexpression inside a printed string runs
    ("Write-Host \"$([IO.Directory]::Delete('C:\\Windows', $true))\"", B),
    ('Write-Host "done: $(' + _REG + ')"', B),
]


@pytest.mark.parametrize(("command", "expected"), _TEXT_CASES)
def test_code_not_text(command: str, expected: object) -> None:
    assert assess(command, "powershell").level == expected


@pytest.mark.parametrize(
    "wrap",
    [
        "{0}",
        "function Go {{ {0} }}; Go",
        "Invoke-Command -ScriptBlock {{ {0} }}",
    ],
)
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (_REG, B),
        ("[IO.DirectoryInfo]::new('C:\\Windows').Delete($true)", B),
        ("# " + _REG + "\nGet-Date", S),
        ("Write-Host '" + _REG.replace("'", '"') + "'", S),
    ],
)
def test_wrapped_keeps_level(wrap: str, command: str, expected: object) -> None:
    assert assess(wrap.format(command), "powershell").level == expected


def test_wrapped_from_bash() -> None:
    assert assess('pwsh -c "' + _REG + '"', "bash").level == B
    assert assess("pwsh -Command \"Write-Host '" + _REG.replace("'", "") + "'\"", "bash").level == S


_PAGER = "core.pager GIT_CONFIG_VALUE_{k}='rm -rf ~'"
_BASH_CASES = [
    # git settings through the environment: every given entry below the count is applied
    ("GIT_CONFIG_COUNT=$n GIT_CONFIG_KEY_0=" + _PAGER.format(k=0) + " git log", B),
    ("GIT_CONFIG_COUNT=25 GIT_CONFIG_KEY_24=" + _PAGER.format(k=24) + " git log", B),
    ("export GIT_CONFIG_COUNT=30 GIT_CONFIG_KEY_29=" + _PAGER.format(k=29) + "; git log", B),
    ("sudo env GIT_CONFIG_COUNT=25 GIT_CONFIG_KEY_24=" + _PAGER.format(k=24) + " git log", B),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=$k GIT_CONFIG_VALUE_0='rm -rf ~' git log", C),
    (
        'GIT_CONFIG_PARAMETERS="'
        + " ".join(f"'a.b{i}'='1'" for i in range(20))
        + " 'core.pager'='rm -rf ~'\" git log",
        B,
    ),
    ('GIT_CONFIG_PARAMETERS="$P" git log', C),
    # look-alikes: an entry above the count is not applied; harmless settings; text
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_3=" + _PAGER.format(k=3) + " git log", S),
    ("GIT_CONFIG_COUNT=$n GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=bob git log", S),
    ("echo GIT_CONFIG_COUNT=25 GIT_CONFIG_KEY_24=core.pager", S),
    # ${!v@P}: the variable $v names, expanded as a prompt (its substitutions run)
    ('echo "${!v@P}"', C),
    ("v=x; x='$(rm -rf ~)'; echo \"${!v@P}\"", B),
    ("sudo bash -c 'echo \"${!v@P}\"'", C),
    ('f() { echo "${!1@P}"; }; f x', C),
    ('v=PS1; echo "${!v@P}"', S),
    ('echo "${!v}" "${!v@Q}"', S),
]


@pytest.mark.parametrize(("command", "expected"), _BASH_CASES)
def test_bash_mechanisms(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected


_SYS = "DeleteSubKeyTree('CurrentControlSet')"
_ITEM_CASES = [
    # a RegistryKey from the registry provider, deleted through its .NET methods: judged as
    # the key it names (as the [Registry]::Hive and Remove-Item twins are)
    ("(Get-Item HKLM:\\SYSTEM)." + _SYS, B),
    ("(gi -Path 'HKLM:\\SYSTEM')." + _SYS, B),
    ("(Get-Item Registry::HKEY_LOCAL_MACHINE\\SYSTEM)." + _SYS, B),
    ("Get-Item HKLM:\\SYSTEM | ForEach-Object { $_." + _SYS + " }", B),
    ("Get-Item HKLM:\\SYSTEM | % { $_." + _SYS + " }", B),
    # (SOFTWARE\\Microsoft whole is Windows' own configuration: blocked, n11w's decision)
    ("$k = Get-Item HKLM:\\SOFTWARE; $k.DeleteSubKeyTree('Microsoft')", B),
    ("(Get-Item HKCU:\\Software).DeleteSubKeyTree('MyApp')", D),
    ("(Get-Item HKCU:\\Software\\MyApp).DeleteValue('x')", D),
    ("function Wipe { (Get-Item HKLM:\\SYSTEM)." + _SYS + " }; Wipe", B),
    ("Invoke-Command -ScriptBlock { (Get-Item HKLM:\\SYSTEM)." + _SYS + " }", B),
    # reads, and the same words as text
    ("(Get-Item HKCU:\\Software\\MyApp).GetValue('x')", S),
    ("(Get-Item HKLM:\\SOFTWARE).GetSubKeyNames()", S),
    ("# (Get-Item HKLM:\\SYSTEM)." + _SYS, S),
    ('Write-Host "(Get-Item HKLM:\\SYSTEM).' + _SYS + '"', S),
]


@pytest.mark.parametrize(("command", "expected"), _ITEM_CASES)
def test_provider_key_objects(command: str, expected: object) -> None:
    assert assess(command, "powershell").level == expected


def test_provider_key_from_bash() -> None:
    assert assess('pwsh -c "(Get-Item HKLM:\\SYSTEM).' + _SYS + '"', "bash").level == B


_EXE_CASES = [
    # a Windows program named with its .exe from bash (WSL, Git Bash): its Windows handler
    ("printf 'sel dis 1\\nclean\\n' > d.txt; diskpart.exe /s d.txt", B),
    ("echo clean > d.txt; /mnt/c/Windows/System32/diskpart.exe /s d.txt", B),
    ("sudo diskpart.exe /s d.txt", C),  # a script nobody read: opaque (session 13)
    ("f() { diskpart.exe /s \"$1\"; }; printf 'sel vol 2\\nformat fs=ntfs quick\\n' > s; f s", B),
    ('cmd.exe /c "echo clean > d.txt & diskpart /s d.txt"', B),
    ("cmd.exe /c vssadmin delete shadows /all", B),
    # reads and look-alikes
    ("printf 'list disk\\n' > d.txt; diskpart.exe /s d.txt", M),
    ("cmd.exe /c dir", S),
    ("ipconfig.exe /all", S),
    ("echo diskpart.exe /s d.txt", S),
    ("grep -r 'diskpart.exe /s' docs/", S),
]


@pytest.mark.parametrize(("command", "expected"), _EXE_CASES)
def test_windows_exe_from_bash(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # text the grammar cannot read is judged statement by statement: a comment's `;`
        # ends no statement
        (
            "# $t.Actions[0].Execute = 'C:\\Users\\Public\\u.exe'; "
            "Set-ScheduledTask -InputObject $t",
            S,
        ),
        ("# $t; Remove-Item C:\\x -Recurse", S),
        ("# New-PSDrive -Name R -PSProvider Registry -Root HKLM:\\ ; Remove-Item R:\\SYSTEM -r", S),
        (
            "$t = Get-ScheduledTask U; $t.Actions[0].Execute = 'C:\\Users\\Public\\u.exe'; "
            "Set-ScheduledTask -InputObject $t",
            C,
        ),
        ("Remove-Item C:\\x -Recurse # ok; fine", D),
        ("'Remove-Item C:\\Windows -Recurse -Force' | powershell -", B),
    ],
)
def test_comments_in_unparsed_text(command: str, expected: object) -> None:
    assert assess(command, "powershell").level == expected


_CFG = "System32\\config\\$f"
_RUNTIME_CASES = [
    # a run-time file name in a protected Windows folder, whatever builds the path
    ("powershell", 'Remove-Item (Join-Path $env:windir "' + _CFG + '") -Force', B),
    ("powershell", "Remove-Item -Path ($env:windir + '\\System32\\config\\' + $f) -Force", B),
    ("powershell", '[IO.File]::Delete((Join-Path $env:windir "' + _CFG + '"))', B),
    (
        "powershell",
        "[System.IO.File]::Delete([IO.Path]::Combine($env:windir, 'System32', 'config', $f))",
        B,
    ),
    ("powershell", 'function Z { Remove-Item (Join-Path $env:windir "' + _CFG + '") }; Z', B),
    # elsewhere, or only read
    ("powershell", "Remove-Item (Join-Path $env:TEMP $f) -Force", D),
    ("powershell", 'Get-ChildItem (Join-Path $env:windir "' + _CFG + '")', S),
    ("bash", "ls /mnt/c/Windows/System32/config/$f", S),
    ("bash", "rm -f /mnt/c/Users/me/tmp/$f", D),
    ("bash", "echo rm -f /mnt/c/Windows/System32/config/$f", S),
]


@pytest.mark.parametrize(("shell", "command", "expected"), _RUNTIME_CASES)
def test_runtime_name_in_protected_folder(shell: str, command: str, expected: object) -> None:
    assert assess(command, shell).level == expected
