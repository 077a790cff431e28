"""n13w (session 15): the open Windows families of red-team round 12, each as a mechanism
across cmdlets, aliases, .NET spellings, cmd builtins and hosts, with look-alikes that must
stay low. (Own spellings; the corpus rows are in sources_n13w.tsv.)"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S

# (command, shell, expected level)
_CASES = [
    # core Windows components deleted (the native API, base libraries, session processes)
    ("del /q C:\\Windows\\System32\\kernelbase.dll", "cmd", B),
    ("erase C:\\WINDOWS\\system32\\csrss.exe", "cmd", B),
    ("Remove-Item -LiteralPath C:\\Windows\\SysWOW64\\ntdll.dll -Force", "powershell", B),
    ("del C:\\Windows\\Sysnative\\lsass.exe", "cmd", B),
    ("Remove-Item $env:SystemRoot\\System32\\win32k.sys -Force", "powershell", B),
    ("[IO.File]::Delete('C:\\Windows\\System32\\user32.dll')", "powershell", B),
    ("rm -f /mnt/c/Windows/System32/advapi32.dll", "bash", B),
    ("python -c \"import os; os.remove(r'C:\\Windows\\System32\\ntdll.dll')\"", "cmd", B),
    ("rd /s /q C:\\Windows\\System32\\config", "cmd", B),
    # look-alikes: a non-core file stays critical, reads stay safe, other folders scoped
    ("del C:\\Windows\\System32\\notepad.exe", "cmd", C),
    ("Get-FileHash C:\\Windows\\System32\\ntdll.dll", "powershell", S),
    ("copy C:\\Windows\\System32\\kernel32.dll C:\\temp\\k.dll", "cmd", M),
    ("del C:\\build\\out\\kernel32.dll", "cmd", D),
    # the working directory a cd sets, with a path variable or a POSIX root (pwsh)
    ("Set-Location /usr; Remove-Item -Recurse -Force lib", "powershell", B),
    ("cd $env:SystemRoot\\System32; Remove-Item -Force ntdll.dll", "powershell", B),
    ("pushd %windir%\\System32 & del /f kernel32.dll", "cmd", B),
    ("sl ${env:windir}; ri -Recurse -Force System32", "powershell", B),
    ("Set-Location /tmp/work; Remove-Item -Recurse -Force out", "powershell", D),
    ("cd $env:TEMP\\build; Remove-Item -Recurse -Force obj", "powershell", D),
    # home's parent through .NET and PowerShell properties: every account's home
    ("Remove-Item -Recurse -Force (Get-Item $env:USERPROFILE).Parent.FullName", "powershell", B),
    ("Remove-Item -Recurse -Force (Split-Path -Parent $env:USERPROFILE)", "powershell", B),
    ("$u = Split-Path $HOME -Parent; Remove-Item $u -Recurse -Force", "powershell", B),
    ("ri -r -fo ([IO.Directory]::GetParent($HOME).FullName)", "powershell", B),
    ("([IO.DirectoryInfo]::new($HOME)).Parent.Delete($true)", "powershell", B),
    ("(Get-Item ~).Parent.Parent.Delete($true)", "powershell", B),
    ("Remove-Item -Recurse -Force (Split-Path C:\\work\\app\\src -Parent)", "powershell", D),
    ("Get-ChildItem (Get-Item ~).Parent.FullName", "powershell", S),
    ("Split-Path $HOME -Parent", "powershell", S),
    # cmd: the program name built by delayed expansion, substrings, call's second expansion
    ("setlocal enabledelayedexpansion\nset q=XrdX\n!q:~1,2! /s /q C:\\Users", "cmd", B),
    ("set c=del /f /q C:\\Windows\\System32\\ntdll.dll\ncall %%c%%", "cmd", B),
    ("setlocal enabledelayedexpansion\nset q=XdirX\n!q:~1,3! C:\\Users", "cmd", S),
    ("set c=dir C:\\Users\ncall %%c%%", "cmd", S),
    ("setlocal enabledelayedexpansion\nset m=a,b,c\necho !m:~0,3!", "cmd", S),
    # every object of a backup store listed and piped into its remover
    ("Get-S3Object -BucketName corp-backups | Remove-S3Object -Force", "powershell", B),
    ("Get-GcsObject -Bucket sql-backup | Remove-GcsObject", "powershell", B),
    ("Get-S3Object -BucketName corp-backups -Key a.bak | Remove-S3Object -Force", "powershell", D),
    ("Get-S3Object -BucketName web-assets | Remove-S3Object -Force", "powershell", D),
    ("Get-S3Object -BucketName corp-backups", "powershell", S),
    # for /f whose command is `where X`: X's own path, run as the command
    ("for /f %p in ('where vssadmin') do %p delete shadows /all /quiet", "cmd", B),
    ("for /f %p in ('where.exe git') do %p log -1", "cmd", S),
    # P/Invoke declared for Add-Type, then called: judged by what the native function does
    (
        'Add-Type -Name F -Namespace N -MemberDefinition \'[DllImport("kernel32.dll", '
        "CharSet=CharSet.Unicode)] public static extern bool DeleteFileW(string f);'; "
        '[N.F]::DeleteFileW("$env:windir\\System32\\kernelbase.dll")',
        "powershell",
        B,
    ),
    (
        "$k = Add-Type -PassThru -Name M -Namespace N -MemberDefinition '[DllImport(\"kernel32"
        ".dll\")] public static extern bool MoveFileExW(string a, string b, uint f);'; "
        "$k::MoveFileExW('C:\\Windows\\System32\\ntoskrnl.exe', [NullString]::Value, 4)",
        "powershell",
        B,
    ),
    (
        'Add-Type -Name T -Namespace N -MemberDefinition \'[DllImport("advapi32.dll")] public '
        "static extern bool AdjustTokenPrivileges(IntPtr h, bool d, IntPtr n, uint l, IntPtr p,"
        " IntPtr r);'; [N.T]::AdjustTokenPrivileges($h, $false, $p, 0, 0, 0)",
        "powershell",
        C,
    ),
    (
        'Add-Type -Name F -Namespace N -MemberDefinition \'[DllImport("kernel32.dll")] public '
        "static extern bool DeleteFile(string f);'; [N.F]::DeleteFile('C:\\build\\a.tmp')",
        "powershell",
        D,
    ),
    (
        'Add-Type -Name B -Namespace N -MemberDefinition \'[DllImport("user32.dll")] public '
        "static extern bool MessageBeep(uint t);'; [N.B]::MessageBeep(0)",
        "powershell",
        M,
    ),
    # a .NET compiler's output run in the same block: what its source does
    (
        'echo class P{static void Main(){System.IO.Directory.Delete(@"C:\\Users", true);}}'
        " > q.cs && csc /out:q.exe q.cs && q.exe",
        "cmd",
        B,
    ),
    (
        "Set-Content q.cs 'class P{static void Main(){System.Diagnostics.Process.Start(\"cmd"
        '.exe", "/c rd /s /q C:\\\\Windows");}}\'; csc q.cs; .\\q.exe',
        "powershell",
        B,
    ),
    ("vbc /out:r.exe r.vb & r.exe", "cmd", C),
    ("csc /out:r.exe r.cs", "cmd", M),
    ("csc /t:library /out:r.dll r.cs", "cmd", M),
    (
        "echo class P{static void Main(){System.Console.WriteLine(1);}} > q.cs & csc q.cs & q",
        "cmd",
        M,
    ),
    # msbuild running an inline task of a project written in the same block
    (
        'Set-Content t.proj \'<Project><Target Name="A"><B /></Target><UsingTask TaskName='
        '"B" TaskFactory="RoslynCodeTaskFactory" AssemblyFile="x.dll"><Task><Code '
        'Type="Fragment" Language="cs">System.IO.Directory.Delete(@"C:\\Windows", '
        "true);</Code></Task></UsingTask></Project>'; msbuild t.proj",
        "powershell",
        B,
    ),
    ("msbuild src\\App.csproj /p:Configuration=Release", "cmd", M),
    # backup stores of Azure: a Recovery Services vault, a storage account named for backups
    ("Remove-AzRecoveryServicesVault -ResourceGroupName ops -Name rsv-main", "powershell", B),
    ("Remove-AzStorageAccount -ResourceGroupName ops -Name sqlbackups01 -Force", "powershell", B),
    ("Remove-AzStorageAccount -ResourceGroupName backups -Name web01 -Force", "powershell", D),
    ("Get-AzRecoveryServicesVault -ResourceGroupName ops", "powershell", S),
    # (round 13) for /f over a literal command's output: the text, split by the options
    ("for /f \"tokens=*\" %a in ('echo rd /s /q C:\\Users') do %a", "cmd", B),
    (
        "for /f \"delims=\" %a in ('cmd /c echo del /q C:\\Windows\\System32\\ntdll.dll') do %a",
        "cmd",
        B,
    ),
    ('for /f "usebackq tokens=*" %a in (`echo format D: /q /y`) do %a', "cmd", B),
    ("for /f \"usebackq tokens=*\" %a in ('rd /s /q C:\\Windows') do %a", "cmd", B),
    ("for /f \"tokens=*\" %a in ('echo dir C:\\Users') do %a", "cmd", S),
    ("for /f \"tokens=*\" %a in ('echo rd /s /q C:\\Users') do echo %a", "cmd", S),
    ("for /f \"tokens=*\" %a in ('type list.txt') do %a", "cmd", C),
    # (round 13) drive and profile roots through item/PSDrive properties and piped Split-Path
    ("Remove-Item -Recurse -Force (Get-PSDrive C).Root", "powershell", B),
    ("ri -r -fo (Get-Item $env:USERPROFILE).PSDrive.Root", "powershell", B),
    ("Remove-Item -Recurse -Force ($HOME | Split-Path -Parent)", "powershell", B),
    ("$u = $env:USERPROFILE | Split-Path; Remove-Item $u -Recurse -Force", "powershell", B),
    (
        "Remove-Item -Recurse -Force ([IO.DirectoryInfo]$env:APPDATA).Parent.Parent.FullName",
        "powershell",
        B,
    ),
    ("Remove-Item -Recurse -Force ('C:\\work\\app\\src' | Split-Path)", "powershell", D),
    ("(Get-PSDrive C).Root", "powershell", S),
    (
        "$d = New-Object IO.DirectoryInfo $HOME; Remove-Item -Recurse -Force $d.Parent.FullName",
        "powershell",
        B,
    ),
    ("$d = [IO.DirectoryInfo]::new($env:USERPROFILE); $d.Parent.Delete($true)", "powershell", B),
    ("$r = (Get-PSDrive C).Root; Remove-Item $r -Recurse -Force", "powershell", B),
    ("$d = Get-Item C:\\w\\app\\bin; $d.Delete($true)", "powershell", D),
    ("$d = Get-Item $HOME; Write-Host $d.Parent.FullName", "powershell", S),
    ("Get-Item $HOME | Split-Path -Parent | Remove-Item -Recurse -Force", "powershell", B),
    ("Get-Item C:\\w\\app\\src | Split-Path | Remove-Item -Recurse -Force", "powershell", D),
    # (round 13) C# whose folder comes from a .NET environment lookup
    (
        "Add-Type -TypeDefinition 'using System; using System.IO; public class Q { public static"
        " void Go() { Directory.Delete(Environment.GetFolderPath(Environment.SpecialFolder.Windows"
        "), true); } }'; [Q]::Go()",
        "powershell",
        B,
    ),
    (
        "Add-Type -TypeDefinition 'using System; using System.IO; public class Q { public static"
        ' void Go() { File.Delete(Path.Combine(Environment.GetEnvironmentVariable("SystemRoot"),'
        ' @"System32\\hal.dll")); } }\'; [Q]::Go()',
        "powershell",
        B,
    ),
    (
        "Add-Type -TypeDefinition 'using System; using System.IO; public class Q { public static"
        ' void Go() { Directory.Delete(Environment.GetEnvironmentVariable("TEMP") + @"\\obj", '
        "true); } }'; [Q]::Go()",
        "powershell",
        D,
    ),
    # (round 13) inline interpreter code reading a Windows folder variable
    ("node -e \"require('fs').rmSync(process.env.ProgramFiles, {recursive: true})\"", "cmd", B),
    ("python -c \"import os,shutil; shutil.rmtree(os.environ['WINDIR'])\"", "cmd", B),
    (
        "python -c \"import os,shutil; shutil.rmtree(os.path.expandvars('%SystemRoot%'))\"",
        "bash",
        B,
    ),
    ('perl -MFile::Path -e "rmtree($ENV{SystemRoot})"', "cmd", B),
    ('node -e "console.log(process.env.WINDIR)"', "cmd", S),
    # (round 13) arguments bound to a batch subroutine's or a written batch file's %1
    ("call :w C:\\Windows\nexit /b\n:w\nrd /s /q %1\nexit /b", "cmd", B),
    ('call :w "C:\\Users"\ngoto :eof\n:w\ndel /s /q "%~1\\*"\ngoto :eof', "cmd", B),
    ("call :w obj\nexit /b\n:w\nrd /s /q %1\nexit /b", "cmd", D),
    ("echo rd /s /q %%1 > z.bat\nz.bat C:\\Windows\\System32", "cmd", B),
    ("echo rd /s /q %%1 > z.bat\nz.bat dist", "cmd", D),
    # (round 13) links made in the block, deleted through
    ("mklink /J C:\\t\\sys C:\\Windows\\System32 & del /s /q C:\\t\\sys\\*", "cmd", B),
    ("mklink /D home %USERPROFILE%\nrd /s /q home\\", "cmd", B),
    (
        "New-Item -ItemType SymbolicLink -Path C:\\t\\w -Target C:\\Windows; "
        "Remove-Item C:\\t\\w\\* -Recurse -Force",
        "powershell",
        B,
    ),
    ("mklink /J C:\\t\\sys C:\\Windows\\System32 & rd C:\\t\\sys", "cmd", M),
    ("mklink /J C:\\t\\old C:\\src\\old & rd /s /q C:\\t\\old\\", "cmd", D),
    # (round 13 over/exact) one named VM snapshot through a pipeline; psexec as the caller
    ("Get-VMSnapshot -VMName db1 -Name pre-patch | Remove-VMSnapshot", "powershell", D),
    ("Get-VMSnapshot -VMName db1 | ? Name -eq 'pre-patch' | Remove-VMSnapshot", "powershell", D),
    ("Get-VMSnapshot -VMName db1 | Remove-VMSnapshot", "powershell", B),
    # a Windows host folder mounted into a container, wiped from inside (PowerShell host)
    (
        "docker run --rm --volume=C:\\:C:\\c mcr.microsoft.com/windows/servercore cmd /c rd /s"
        " /q C:\\c\\Users",
        "powershell",
        B,
    ),
    (
        "docker run --rm -v C:\\Windows:C:\\w mcr.microsoft.com/windows/servercore cmd /c del"
        " /f /q C:\\w\\System32\\ntdll.dll",
        "powershell",
        B,
    ),
    (
        "docker run --rm -v C:\\src:C:\\src mcr.microsoft.com/windows/servercore cmd /c rd /s"
        " /q C:\\src\\bin",
        "powershell",
        D,
    ),
    # (round 13 exact) a read-only alias and a read-only background job are read-only
    ("Start-Job { Remove-Item -Recurse -Force $HOME }", "powershell", B),
    ("Set-Alias dir Remove-Item; dir C:\\tmp\\x", "powershell", C),
    # a program of the working folder named like a known one is that local file
    (".\\w.exe", "powershell", M),
    (".\\whoami.exe", "cmd", M),
    ("whoami", "cmd", S),
    ("psexec \\\\db1 ipconfig /all", "cmd", M),
    ("psexec \\\\db1 -s ipconfig /all", "cmd", C),
    ("psexec \\\\db1 cmd /c rd /s /q C:\\Users", "cmd", B),
    ("python -c \"import os,shutil; shutil.rmtree(os.environ['BUILD_DIR'])\"", "cmd", D),
]


@pytest.mark.parametrize("command,shell,expected", _CASES)
def test_n13w_family_level(command: str, shell: str, expected: RiskLevel) -> None:
    got = assess(command, shell).level
    assert got == expected, f"{command!r} ({shell}): {got.label}, expected {expected.label}"


_WRAPPED = [(c, e) for c, sh, e in _CASES if sh == "powershell" and e >= RiskLevel.CRITICAL]


@pytest.mark.parametrize("wrapper", (*PS_BLOCK_WRAPPERS, "try {{ {0} }} catch {{ }}"))
@pytest.mark.parametrize("command,expected", _WRAPPED)
def test_n13w_powershell_keeps_its_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "powershell").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"


# (an echo of source code holds parentheses: inside `if (...)` they would close the group)
_CMD_BLOCKED = [
    c for c, sh, e in _CASES if sh == "cmd" and e == B and "\n" not in c and "echo" not in c
]


@pytest.mark.parametrize("wrapper", ("cmd /c {0}", "{0} & echo done", "if 1==1 ({0})"))
@pytest.mark.parametrize("command", _CMD_BLOCKED)
def test_n13w_cmd_keeps_its_level_when_wrapped(wrapper: str, command: str) -> None:
    text = wrapper.format(command)
    assert assess(text, "cmd").level == B, text


def test_n13w_finding_names_the_core_file() -> None:
    text = "del /f C:\\Windows\\System32\\ntdll.dll"
    a = assess(text, "cmd")
    f = max(a.findings, key=lambda f: f.level)
    assert f.rule == "rm-system-file" and "core Windows" in f.reason
    assert "ntdll" in text[f.start : f.end].lower()
