"""Session 17 (n17w): Windows families as mechanisms, not spellings.

- WMI/CIM service deletion: every removal spelling of a Win32_Service/Win32_SystemDriver
  instance (Invoke-CimMethod/Invoke-WmiMethod Delete, Remove-CimInstance/rcim,
  Remove-WmiObject/rwmi, `$_.Delete()`, `[wmi]` paths, wmic aliases and `path CLASS`) is
  judged as `sc delete` of the service it names (core: blocked; an app's own: dangerous;
  the whole class unfiltered: the core services with it).
- Machine trust stores: certutil wildcard ids, certmgr `/del /all`, the whole `Cert:` drive
  or `Cert:\\LocalMachine`, an X509Store named through variables: emptied = blocked, one
  certificate = critical.
- Backup places by name in Az/AWS/GCP PowerShell: `bkp` in a dashed name, resource groups.
- Makefiles written by cmd `echo` (the `;` rule form, a tab-indented recipe, a group).
- Home's parent through a FileInfo's Directory/DirectoryName.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S


@pytest.mark.parametrize(
    "command,shell,want",
    [
        # CIM/WMI service deletion, every spelling of the removal
        ("gcim win32_service -filter \"name='lsm'\" | rcim", "powershell", B),
        (
            "Get-WmiObject win32_service | Where-Object {$_.Name -eq 'SamSs'} | Remove-WmiObject",
            "powershell",
            B,
        ),
        (
            "Get-CimInstance -Query \"SELECT * FROM Win32_Service WHERE Name='Netlogon'\""
            " | Remove-CimInstance",
            "powershell",
            B,
        ),
        (
            "Remove-CimInstance -Query \"SELECT * FROM Win32_Service WHERE Name='Netlogon'\"",
            "powershell",
            B,
        ),
        (
            "Get-CimInstance Win32_SystemDriver -Filter \"Name='disk'\" | Remove-CimInstance",
            "powershell",
            B,
        ),
        ("Get-CimInstance Win32_Service | Remove-CimInstance", "powershell", B),
        ("gwmi win32_service | % { $_.Delete() }", "powershell", B),
        ("wmic service where name='PlugPlay' call delete", "cmd", B),
        ('wmic /node:localhost service where name="RpcSs" call delete', "cmd", B),
        ('wmic service where (name="DcomLaunch") call delete', "cmd", B),
        ("wmic path win32_service where name='SamSs' delete", "cmd", B),
        ('wmic sysdriver where name="ntfs" call delete', "cmd", B),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='FooSvc'\" | Remove-CimInstance",
            "powershell",
            D,
        ),
        ("wmic service where name='FooSvc' call delete", "cmd", D),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='RpcSs'\" | Invoke-CimMethod"
            " -MethodName Delete -WhatIf",
            "powershell",
            S,
        ),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='RpcSs'\" | Remove-CimInstance -WhatIf",
            "powershell",
            S,
        ),
        ('wmic service where name="RpcSs" get name,state', "cmd", S),
        # trust stores
        ("certutil -delstore CA *", "cmd", B),
        ('certutil -delstore -f Root "*"', "cmd", B),
        ("certutil -delstore Root ?", "cmd", B),
        ("certutil -delstore Root 01", "cmd", C),
        ("certmgr -del -all -s -r localMachine CA", "cmd", B),
        ("certmgr.exe /del /all /s /r LocalMachine AuthRoot", "cmd", B),
        ("certmgr /del /c /sha1 00112233 /s /r localMachine authroot", "cmd", C),
        ("certmgr -del -c -all -s my", "cmd", D),
        ("certmgr /c /s root", "cmd", S),
        ("certmgr /?", "cmd", S),
        ("ri cert:\\ -r -fo", "powershell", B),
        ("Remove-Item -LiteralPath Cert:\\LocalMachine -Recurse -Force", "powershell", B),
        ("Get-ChildItem Cert:\\ -Recurse | Remove-Item", "powershell", B),
        ("Remove-Item Cert:\\LocalMachine\\* -Recurse", "powershell", B),
        ("cd Cert:\\; Remove-Item * -Recurse", "powershell", B),
        ("Get-ChildItem Cert:\\ -Recurse", "powershell", S),
        ("Remove-Item Cert:\\CurrentUser -Recurse -WhatIf", "powershell", S),
        (
            "$n = 'AuthRoot'; $l = 'LocalMachine'; $s = [Security.Cryptography.X509Certificates"
            ".X509Store]::new($n, $l); $s.Open('ReadWrite'); $s.RemoveRange($s.Certificates)",
            "powershell",
            B,
        ),
        (
            "$n = 'AuthRoot'; $l = 'LocalMachine'; $s = [Security.Cryptography.X509Certificates"
            ".X509Store]::new($n, $l); $s.Open('ReadWrite'); $x = 'abc'.Remove(1)",
            "powershell",
            S,
        ),
        # backup places by name
        ("Remove-AzResourceGroup -Name rg-backup-prod -Force", "powershell", B),
        ("Remove-AzResourceGroup backups-rg", "powershell", B),
        ("Get-AzResourceGroup -Name backups-rg | Remove-AzResourceGroup -Force", "powershell", B),
        ("Remove-AzStorageContainer -Name bkp-sql-nightly -Context $ctx -Force", "powershell", B),
        ("az group delete -n rg-backups --yes", "bash", B),
        ("Remove-AzResourceGroup -Name web-rg -Force", "powershell", D),
        ("Remove-AzResourceGroup -Name backups-rg -WhatIf", "powershell", S),
        # makefiles written by cmd echo
        ("echo all: ; rd /s /q C:\\Windows > m.mak && nmake /f m.mak", "cmd", B),
        ("echo all: > m.mak & echo \trd /s /q C:\\Windows >> m.mak & nmake /f m.mak", "cmd", B),
        ("(echo all:& echo \trd /s /q C:\\Windows) > m.mak && nmake /f m.mak", "cmd", B),
        ("(echo all: ; rd /s /q %SystemRoot%) > m.mak && nmake /f m.mak", "cmd", B),
        ('cmd.exe /c "echo all: ; rd /s /q C:\\Windows > m.mak & nmake /f m.mak"', "powershell", B),
        ("(echo clean: ; rd /s /q build) > m.mak && nmake /f m.mak clean", "cmd", D),
        ("echo all: ; echo hi > m.mak && nmake /f m.mak", "cmd", M),
        # home's parent through a FileInfo
        (
            'Remove-Item -Recurse -Force ([IO.FileInfo]"$HOME\\x.txt").DirectoryName',
            "powershell",
            B,
        ),
        (
            'Remove-Item -Recurse -Force ([System.IO.FileInfo]::new("$HOME\\x.txt")'
            ".Directory.Parent.FullName)",
            "powershell",
            B,
        ),
        (
            'Remove-Item -Recurse -Force ([IO.FileInfo]"$HOME\\proj\\a.txt").DirectoryName',
            "powershell",
            D,
        ),
        # a known path's subexpression inside a string; the constructed item in parentheses
        (
            'Remove-Item -Path "$(([IO.DirectoryInfo]$HOME).Parent.FullName)\\*" -Recurse -Force',
            "powershell",
            B,
        ),
        ('Remove-Item -Path "$(Split-Path $HOME -Parent)" -Recurse -Force', "powershell", B),
        (
            'Remove-Item -Path "$(Split-Path $HOME -Parent)\\Public\\tmp" -Recurse -Force',
            "powershell",
            D,
        ),
        ('Remove-Item "$(Get-Date -Format yyyy)-logs" -Recurse', "powershell", D),
        ('Write-Host "$(Split-Path $HOME -Parent)"', "powershell", S),
        (
            "Remove-Item -Recurse -Force -Path ([System.IO.DirectoryInfo]::new($HOME))"
            ".Parent.FullName",
            "powershell",
            B,
        ),
        # bucket and container names whose words are glued
        ("Remove-AzStorageContainer -Name sqlbackups -Context $ctx -Force", "powershell", B),
        ("Remove-S3Bucket -BucketName acmebkp01 -DeleteBucketContent -Force", "powershell", B),
        ("Remove-S3Bucket -BucketName bkp.acme.com -DeleteBucketContent", "powershell", B),
        ("aws s3 rb s3://acmebkp01 --force", "bash", B),
        ("Remove-S3Bucket -BucketName bakery-assets -DeleteBucketContent", "powershell", D),
        ("Remove-S3Object -BucketName acmebackups -Key a/b.txt -Force", "powershell", D),
        ("Get-S3Bucket | Where-Object BucketName -like '*bkp*'", "powershell", S),
        # the object's psbase view; WQL LIKE / -like patterns that match a core service
        (
            "$svc = gwmi win32_service -filter \"name='RpcSs'\"; $svc.psbase.Delete()",
            "powershell",
            B,
        ),
        (
            "$svc = gwmi win32_service -filter \"name='FooSvc'\"; $svc.psbase.Delete()",
            "powershell",
            D,
        ),
        (
            "$svc = gwmi win32_service -filter \"name='RpcSs'\"; $svc.psbase.Properties",
            "powershell",
            S,
        ),
        (
            "Get-CimInstance Win32_Service -Filter \"Name like 'Rpc%'\" | Remove-CimInstance",
            "powershell",
            B,
        ),
        (
            "Get-CimInstance Win32_Service | Where-Object Name -like 'Plug*' | Remove-CimInstance",
            "powershell",
            B,
        ),
        (
            "Get-CimInstance Win32_Service -Filter \"Name like 'MyApp%'\" | Remove-CimInstance",
            "powershell",
            D,
        ),
        ("wmic service where \"name like 'Rpc%'\" call delete", "cmd", B),
        # a listing of the store `cd` went to; `.\\<thumbprint>` there
        ("Set-Location Cert:\\LocalMachine\\Root; Get-ChildItem | Remove-Item", "powershell", B),
        ("cd Cert:\\LocalMachine\\AuthRoot\ngci -Recurse | ri", "powershell", B),
        (
            "Set-Location Cert:\\LocalMachine\\Root; Get-ChildItem | Where-Object Subject -like"
            " '*Test*' | Remove-Item",
            "powershell",
            C,
        ),
        (
            "Set-Location Cert:\\LocalMachine\\Root; Remove-Item .\\0123456789ABCDEF",
            "powershell",
            C,
        ),
        ("Set-Location Cert:\\LocalMachine\\Root; Get-ChildItem", "powershell", S),
        # MinGW make and jom read the makefile too
        ("echo all: ; rd /s /q C:\\Windows > m.mak && mingw32-make -f m.mak", "cmd", B),
        ("echo all: ; rd /s /q C:\\Windows > m.mak && jom /f m.mak", "cmd", B),
        ("mingw32-make --help", "cmd", S),
        # nested pwsh -c in a PowerShell block: the inner text keeps its own variables
        (
            'powershell -Command "$s = New-Object Security.Cryptography.X509Certificates.X509Store('
            "'Root','LocalMachine'); $s.Open('ReadWrite'); $l = New-Object Collections.ArrayList;"
            " $l.Remove('x')\"",
            "powershell",
            M,
        ),
        (
            "pwsh -c \"`$s = New-Object Security.Cryptography.X509Certificates.X509Store('Root',"
            "'LocalMachine'); `$s.Open('ReadWrite'); `$l = New-Object Collections.ArrayList;"
            " `$l.Remove('x')\"",
            "powershell",
            M,
        ),
        (
            'powershell -Command "$s = New-Object Security.Cryptography.X509Certificates.X509Store('
            "'Root','LocalMachine'); $s.Open('ReadWrite'); $s.RemoveRange($s.Certificates)\"",
            "powershell",
            B,
        ),
        ("pwsh -c \"`$d = 'C:\\Windows'; Remove-Item `$d -Recurse -Force\"", "powershell", B),
        ("$d = 'C:\\Windows'; pwsh -c \"Remove-Item $d -Recurse -Force\"", "powershell", B),
        ('Write-Host "cost: `$5"', "powershell", S),
        # Join-Path / Path.Combine of a parenthesized item with member steps
        (
            "Remove-Item (Join-Path ([IO.DirectoryInfo]$HOME).Parent.FullName '*') -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Remove-Item ([IO.Path]::Combine(([IO.DirectoryInfo]$HOME).Parent.FullName, '*'))"
            " -Recurse -Force",
            "powershell",
            B,
        ),
        ("Remove-Item (Join-Path $HOME 'proj') -Recurse -Force", "powershell", D),
        # a core service named by the Get-Service stage of the pipeline
        ("gsv Rpc* | % { Remove-Service -Name $_.Name }", "powershell", B),
        ("Get-Service ProfSvc | ForEach-Object { sc.exe delete $_.ServiceName }", "powershell", B),
        ("Get-Service | Remove-Service", "powershell", B),
        ("Get-Service -DisplayName 'Plug and Play' | Remove-Service", "powershell", B),
        ("Get-Service -Name FooSvc | ForEach-Object { sc.exe delete $_.Name }", "powershell", D),
        (
            "Get-Service | Where-Object { $_.Status -eq 'Stopped' } | Remove-Service",
            "powershell",
            D,
        ),
        ("Get-Service -Name RpcSs | ForEach-Object { $_.Status }", "powershell", S),
        # every certificate of a machine store, one by one in a loop
        (
            "Get-ChildItem Cert:\\LocalMachine\\AuthRoot | % { certutil -delstore AuthRoot"
            " $_.Thumbprint }",
            "powershell",
            B,
        ),
        (
            "foreach ($c in Get-ChildItem Cert:\\LocalMachine\\CA) { certutil -delstore CA"
            " $c.Thumbprint }",
            "powershell",
            B,
        ),
        (
            "foreach ($c in (Get-ChildItem Cert:\\LocalMachine\\Root)) { if ($c.NotAfter -lt"
            " (Get-Date)) { certutil -delstore Root $c.Thumbprint } }",
            "powershell",
            C,
        ),
        (
            "for /f \"tokens=2 delims=:\" %s in ('certutil -store AuthRoot ^| findstr Serial')"
            " do certutil -delstore AuthRoot %s",
            "cmd",
            B,
        ),
        ("for /f %i in (serials.txt) do certutil -delstore Root %i", "cmd", C),
        (
            "Get-ChildItem Cert:\\LocalMachine\\CA | Where-Object Subject -like '*Old*' |"
            " ForEach-Object { Remove-Item $_.PSPath }",
            "powershell",
            C,
        ),
        (
            "for /f \"tokens=2 delims=:\" %i in ('certutil -store Root ^| findstr Serial')"
            " do echo %i",
            "cmd",
            S,
        ),
        # the WMI scripting API (SWbem's Delete_, VBScript through cscript)
        (
            "$svc = (New-Object -ComObject WbemScripting.SWbemLocator).ConnectServer('.',"
            " 'root\\cimv2').Get(\"Win32_Service.Name='RpcSs'\"); $svc.Delete_()",
            "powershell",
            B,
        ),
        (
            "echo GetObject(\"winmgmts:Win32_Service.Name='RpcSs'\").Delete_ > d.vbs &"
            " cscript //nologo d.vbs",
            "cmd",
            B,
        ),
        (
            "echo GetObject(\"winmgmts:Win32_Service.Name='FooSvc'\").Delete_ > d.vbs &"
            " cscript //nologo d.vbs",
            "cmd",
            D,
        ),
        (
            "echo WScript.Echo GetObject(\"winmgmts:Win32_Service.Name='RpcSs'\").State > d.vbs &"
            " cscript //nologo d.vbs",
            "cmd",
            M,
        ),
        # a subexpression that runs a command is not the command's name as text
        ('Remove-Item -Recurse -Force "C:\\Windows\\$(whoami)"', "powershell", B),
        ('Remove-Item -Recurse -Force "$(whoami)"', "powershell", D),
        # a bare argument expands its variables (`C:\\$d` after `$d = 'Windows'`)
        ("$d = 'Windows'; Remove-Item C:\\$d -Recurse", "powershell", B),
        ("$u = 'Users'; rd C:\\$u -r -fo", "powershell", B),
        ("$s = 'Root'; Get-ChildItem Cert:\\LocalMachine\\$s | Remove-Item", "powershell", B),
        ("Remove-Item C:\\temp\\$name -Recurse", "powershell", D),
        ("$d = 'Windows'; Get-ChildItem C:\\$d", "powershell", S),
        ("Remove-Item build\\`$x", "powershell", D),
        # a WQL filter's value held in a variable
        (
            "$n = 'RpcSs'; Get-CimInstance Win32_Service -Filter \"Name='$n'\""
            " | Remove-CimInstance",
            "powershell",
            B,
        ),
        (
            "$n = 'FooSvc'; Get-CimInstance Win32_Service -Filter \"Name='$n'\""
            " | Remove-CimInstance",
            "powershell",
            D,
        ),
        # -WhatIf bound to anything but a literal true is no dry run
        ("Remove-Item C:\\Temp\\x -Recurse -Force -WhatIf:$(1 -eq 2)", "powershell", D),
        ("Remove-Item $env:windir -Recurse -Force -WhatIf:$y", "powershell", B),
        ("Remove-Item C:\\Temp\\x -Recurse -Force -WhatIf:$true", "powershell", S),
        ("Stop-Computer -WhatIf:$false", "powershell", D),
        # $PSDefaultParameterValues adds the parameter to later commands
        (
            "$PSDefaultParameterValues['Remove-Item:Recurse'] = $true; Remove-Item"
            ' "C:\\Program Files" -Force',
            "powershell",
            B,
        ),
        (
            "$PSDefaultParameterValues = @{'Remove-Item:Recurse'=$true}; rm $env:windir",
            "powershell",
            B,
        ),
        (
            "$PSDefaultParameterValues['Get-ChildItem:Recurse'] = $true; Get-ChildItem C:\\Windows",
            "powershell",
            S,
        ),
        # folders returned by value-returning commands and .NET calls
        ("$h = Get-Variable HOME -ValueOnly; rm -r -fo $h", "powershell", B),
        (
            "Remove-Item ([Environment]::ExpandEnvironmentVariables('%SystemRoot%\\System32'))"
            " -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Remove-Item (Get-ItemPropertyValue 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT"
            "\\CurrentVersion\\ProfileList' -Name ProfilesDirectory) -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Remove-Item (gcim Win32_OperatingSystem).SystemDirectory -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Remove-Item ([System.IO.DriveInfo]::GetDrives()[0].RootDirectory) -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Remove-Item ([Environment]::ExpandEnvironmentVariables('%TEMP%\\x')) -Recurse",
            "powershell",
            D,
        ),
        ("(Get-CimInstance Win32_OperatingSystem).WindowsDirectory", "powershell", S),
        # the boot store imported, the recovery image, File History, the local admin share
        ("bcdedit /import C:\\x\\b.bak /clean", "cmd", B),
        ("bcdedit /export C:\\x\\b.bak", "cmd", M),
        ("Remove-Item C:\\Recovery\\WindowsRE\\Winre.wim -Force", "powershell", B),
        ("move C:\\Windows\\System32\\Recovery\\Winre.wim C:\\temp\\", "cmd", B),
        ("Get-ChildItem C:\\Recovery\\WindowsRE -Force", "powershell", S),
        ("FhManagerw.exe -cleanup 0 -quiet", "cmd", B),
        ("FhManagerw.exe -cleanup 30", "cmd", M),
        ("rd /s /q E:\\FileHistory", "cmd", B),
        ("dir E:\\FileHistory", "cmd", S),
        ("pushd \\\\localhost\\c$\\Windows && rd /s /q System32", "cmd", B),
        ("pushd \\\\localhost\\C$\\temp && rd /s /q build", "cmd", D),
        ("Set-Location \\\\localhost\\C$\\Users; Remove-Item * -Recurse -Force", "powershell", B),
    ],
)
def test_n17w_family_levels(command: str, shell: str, want: RiskLevel) -> None:
    assert assess(command, shell).level == want, command


# Wrapped in another host, a nested shell, a function or Invoke-Expression, each keeps its level.
_CORES = [
    ("wmic service where name='PlugPlay' call delete", B),
    ("certmgr /del /all /s /r localMachine root", B),
    ("certutil -delstore AuthRoot *", B),
    ("echo all: ; rd /s /q C:\\Windows > m.mak & nmake /f m.mak", B),
]


@pytest.mark.parametrize("inner,want", _CORES)
def test_n17w_cmd_families_keep_their_level_wrapped(inner: str, want: RiskLevel) -> None:
    assert assess(inner, "cmd").level == want
    assert assess(f'cmd /c "{inner}"', "cmd").level == want
    assert assess(f'cmd.exe /c "{inner}"', "powershell").level == want


_PS_CORES = [
    ("Get-CimInstance Win32_Service -Filter \"Name='PlugPlay'\" | Remove-CimInstance", B),
    ("Remove-Item Cert:\\LocalMachine -Recurse -Force", B),
    ('Remove-Item -Recurse -Force ([IO.FileInfo]"$HOME\\x.txt").Directory.Parent.FullName', B),
]


@pytest.mark.parametrize("inner,want", _PS_CORES)
def test_n17w_powershell_families_keep_their_level_wrapped(inner: str, want: RiskLevel) -> None:
    assert assess(inner, "powershell").level == want
    for wrapper in PS_BLOCK_WRAPPERS:
        assert assess(wrapper.format(inner), "powershell").level == want, wrapper
    quoted = inner.replace("'", "''")
    assert assess(f"Invoke-Expression '{quoted}'", "powershell").level == want
    assert assess(f"pwsh -NoProfile -Command '{quoted}'", "powershell").level == want


@pytest.mark.parametrize(
    "command,shell",
    [
        ('Write-Host "wmic service where name=RpcSs call delete"', "powershell"),
        ("echo certmgr /del /all /s /r localMachine root", "cmd"),
        ("Select-String -Path notes.txt -Pattern 'certutil -delstore Root *'", "powershell"),
        ("# Remove-Item Cert:\\ -Recurse", "powershell"),
        ("rem wmic service where name='RpcSs' call delete", "cmd"),
    ],
)
def test_n17w_words_as_data_stay_safe(command: str, shell: str) -> None:
    assert assess(command, shell).level == S, command
