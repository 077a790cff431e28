"""Session 21 (w21): Windows mechanisms, not spellings.

- Remote access opened through the firewall: an inbound allow rule for a remote-login port
  (RDP 3389, SSH 22, WinRM 5985/5986, SMB 445: `remote.LOGIN_PORTS`, ranges and lists too)
  or for any port from any address, by netsh (advfirewall and the legacy `firewall add
  portopening` / `set service`), New-NetFirewallRule, and the remote-desktop / WinRM /
  file-sharing rule groups switched on (netsh `set rule group=… new enable=yes`,
  Set-/Enable-NetFirewallRule): critical, as an inbound allow-any rule. An ordinary app port,
  a rule limited to the loopback, a block rule, an outbound rule, -WhatIf and printing stay
  where they were.
- Values carried through loops and lists: a literal list whose items are variables
  (`@($env:USERPROFILE)`, `$HOME, 'C:\\x'`, `$a, $b` after literal assignments) gives each
  item to `foreach`, `ForEach-Object` (-Process/-Parallel), `switch` and a pipe's next
  cmdlet (an unknown item is left out: the worst known item decides); piped strings bind to
  Clear-Content's -Path as to Remove-Item's; cmd's `for` set keeps a quoted item whole
  (`("C:\\Program Files" x)`) and splits at `,`/`;`.
- WMI/CIM doors judged as the cmdlet that does the same: Win32_ComputerSystem
  UnjoinDomainOrWorkgroup is Remove-Computer, Win32_NetworkAdapter Disable is
  Disable-NetAdapter, Win32_UserAccount deleted is Remove-LocalUser (every account when no
  name is picked), by Invoke-CimMethod, `.Method()`, a variable's method, Remove-CimInstance,
  [wmi] and wmic (`computersystem`, `nic`, `path CLASS`, with or without a where clause).
- Review 20 U3-U5 on Windows: a PATH front anyone may write to (`.`, temporary and Public
  folders) makes programs run by bare name after it critical in PowerShell and cmd (not
  cmdlets, aliases or cmd builtins; not a tool's own folder, not an append); a program
  dropped into `%LOCALAPPDATA%\\Microsoft\\WindowsApps` shadows a command (persistence); a
  value this block gave a variable wins over the folder it usually names
  (`$env:USERPROFILE = 'C:\\Windows'`), also in a bare `$x\\System32` the grammar cannot read;
  Start-Process -WorkingDirectory is the started program's cwd; cmd expands `%X%` when it
  reads the line, so `set X=… && rd /s /q "%X%\\"` is judged with X's old value as well
  (unset: the drive root, blocked); a run-time test before an empty-variable delete
  (`if defined X`, `if ($x)`, `if (Test-Path $x)`) does not count, as bash's `[ -n "$DIR" ]`
  does not (declared guards, `[ValidateNotNullOrEmpty()]`/Mandatory, still do).
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S

ADD = "netsh advfirewall firewall add rule name=x dir="
NFR = "New-NetFirewallRule -DisplayName x "

# ---------------------------------------------------------------- remote access opened
FIREWALL = [
    (
        ADD + "in action=allow protocol=TCP localport=3389",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=5985-5986",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=21,22",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=7000 remoteip=any",
        "cmd",
        M,  # (w22: an explicit any address is the default; review 21 O3)
    ),
    ("netsh firewall add portopening protocol=TCP port=445 name=smb", "cmd", C),
    ("netsh firewall set service type=remotedesktop mode=enable", "cmd", C),
    (
        'netsh advfirewall firewall set rule group="Windows Remote Management" new enable=yes',
        "cmd",
        C,
    ),
    (
        "netsh.exe " + ADD[6:] + "in action=allow protocol=TCP localport=3389",
        "bash",
        C,
    ),
    ("New-NetFirewallRule -DisplayName s -LocalPort 22 -Protocol TCP", "powershell", C),
    (
        NFR + "-Direction In -Action Allow -Protocol TCP -LocalPort 5986",
        "powershell",
        C,
    ),
    (
        NFR + "-Direction Inbound -LocalPort 7000 -Protocol TCP -RemoteAddress Any",
        "powershell",
        M,  # (w22: an explicit any address is the default; review 21 O3)
    ),
    ('Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled True', "powershell", C),
    ('Enable-NetFirewallRule -DisplayGroup "File and Printer Sharing"', "powershell", C),
    ("Enable-NetFirewallRule -Name WINRM-HTTP-In-TCP", "powershell", C),
    (
        "Get-NetFirewallRule -DisplayGroup 'Remote Desktop' | Enable-NetFirewallRule",
        "powershell",
        C,
    ),
    ("foreach ($p in 22, 3389) { " + NFR + "-LocalPort $p -Protocol TCP }", "powershell", C),
    (
        "Get-NetFirewallRule -DisplayGroup 'Core Networking' | Enable-NetFirewallRule",
        "powershell",
        M,
    ),
    ("foreach ($p in 8080, 8081) { " + NFR + "-LocalPort $p -Protocol TCP }", "powershell", M),
    (
        'powershell -c "' + NFR + '-Direction Inbound -LocalPort 3389 -Protocol TCP -Action Allow"',
        "cmd",
        C,
    ),
    # look-alikes that must not rise
    (
        ADD + "in action=block protocol=TCP localport=3389",
        "cmd",
        M,
    ),
    (
        ADD + "out action=allow protocol=TCP remoteport=22",
        "cmd",
        M,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=3389 remoteip=127.0.0.1",
        "cmd",
        M,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=8080 remoteip=localsubnet",
        "cmd",
        M,
    ),
    ("netsh firewall add portopening TCP 8080 web", "cmd", M),
    ("netsh firewall set service type=remotedesktop mode=disable", "cmd", M),
    ('netsh advfirewall firewall set rule group="remote desktop" new enable=no', "cmd", M),
    ("netsh advfirewall firewall add rule /?", "cmd", S),
    ("echo netsh advfirewall firewall add rule dir=in action=allow localport=3389", "cmd", S),
    ('Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled False', "powershell", M),
    (
        NFR + "-Direction Inbound -LocalPort 3389 -Protocol TCP -Action Block",
        "powershell",
        M,
    ),
    (
        NFR + "-LocalPort 3389 -Protocol TCP -Enabled False",
        "powershell",
        M,
    ),
    (NFR + "-LocalPort 3389 -Protocol TCP -WhatIf", "powershell", S),
    (
        "Write-Output 'New-NetFirewallRule -Direction Inbound -Action Allow -LocalPort 3389'",
        "powershell",
        S,
    ),
    ("Get-NetFirewallPortFilter | Where-Object LocalPort -eq 3389", "powershell", S),
]


@pytest.mark.parametrize(("command", "shell", "expected"), FIREWALL)
def test_remote_access_through_the_firewall(command: str, shell: str, expected: object) -> None:
    assert assess(command, shell).level == expected, command


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
def test_remote_access_rule_in_script_blocks(wrapper: str) -> None:
    body = "New-NetFirewallRule -DisplayName r -LocalPort 3389 -Protocol TCP"
    assert assess(wrapper.format(body), "powershell").level == C


# ---------------------------------------------------------------- values through loops and lists
LOOPS = [
    ("foreach ($d in @($env:USERPROFILE)) { Remove-Item $d -Recurse -Force }", "powershell", B),
    ("foreach ($d in $HOME) { Remove-Item $d -Recurse -Force }", "powershell", B),
    ("@($HOME) | ForEach-Object { Remove-Item $_ -Recurse -Force }", "powershell", B),
    ("@($env:windir) | % -Process { ri $_ -r -fo }", "powershell", B),
    (
        "$env:windir, $HOME | ForEach-Object -Parallel { Remove-Item $_ -Recurse -Force }",
        "powershell",
        B,
    ),
    ("$a = 'C:\\src\\a'; $b = $env:windir; $a, $b | % { ri $_ -r -fo }", "powershell", B),
    ("$a = 'C:\\src\\a'; $b = $HOME; foreach ($x in $a, $b) { rm $x -r -fo }", "powershell", B),
    (
        "$t = $env:USERPROFILE, 'D:\\x'; foreach ($x in $t) { Remove-Item $x -Recurse -Force }",
        "powershell",
        B,
    ),
    (
        "switch (@($env:USERPROFILE)) { default { Remove-Item $_ -Recurse -Force } }",
        "powershell",
        B,
    ),
    ("Start-Job { @($env:USERPROFILE) | % { Remove-Item $_ -Recurse -Force } }", "powershell", B),
    ("'C:\\Windows\\System32\\config\\SAM' | Clear-Content", "powershell", B),
    ("pwsh -c '@($HOME) | % { Remove-Item $_ -Recurse -Force }'", "bash", B),
    ('for %p in ("C:\\Program Files" C:\\src\\x) do rmdir /s /q %p', "cmd", B),
    ("for %p in (C:\\src\\x;C:\\Users) do rd /s /q %p", "cmd", B),
    ("for %d in (a b c d e f C:\\Windows) do rd /s /q %d", "cmd", B),
    ("for %s in (Spooler Fax WinDefend) do sc config %s start= disabled", "cmd", C),
    ('for %%d in ("%ProgramFiles(x86)%" x) do rd /s /q %%d', "cmd", B),
    # look-alikes
    ("$a = 'C:\\src\\a'; $b = 'C:\\src\\b'; $a, $b | % { ri $_ -r -fo }", "powershell", D),
    (
        "foreach ($x in $unknown, 'C:\\src\\out') { Remove-Item $x -Recurse -Force }",
        "powershell",
        D,
    ),
    ("'C:\\src\\log.txt' | Clear-Content", "powershell", D),
    ('foreach ($d in @($env:USERPROFILE)) { Write-Output "would remove $d" }', "powershell", S),
    ("foreach ($d in @($env:USERPROFILE)) { Remove-Item $d -Recurse -WhatIf }", "powershell", S),
    ("@($HOME) | Select-String -Pattern Remove-Item", "powershell", S),
    ("$HOME, $env:TEMP | Write-Output", "powershell", S),
    ('for %d in ("C:\\Program Files") do dir %d', "cmd", S),
    ("for %d in (build,dist) do rd /s /q %d", "cmd", D),
    ("for %s in (Spooler Fax) do sc config %s start= disabled", "cmd", M),
    ("for %s in (Spooler WinDefend) do sc query %s", "cmd", S),
]


@pytest.mark.parametrize(("command", "shell", "expected"), LOOPS)
def test_values_through_loops_and_lists(command: str, shell: str, expected: object) -> None:
    assert assess(command, shell).level == expected, command


# ---------------------------------------------------------------- WMI/CIM doors
WMI = [
    ("wmic computersystem call unjoindomainorworkgroup", "cmd", D),
    ("wmic /node:srv1 computersystem where name='srv1' call UnjoinDomainOrWorkgroup", "cmd", D),
    ("wmic path win32_networkadapter where NetEnabled=true call disable", "cmd", D),
    ("wmic nic where \"NetConnectionID='Ethernet'\" call disable", "cmd", D),
    (
        "Invoke-CimMethod -ClassName Win32_ComputerSystem -MethodName UnjoinDomainOrWorkgroup",
        "powershell",
        D,
    ),
    (
        "(Get-WmiObject Win32_ComputerSystem).UnjoinDomainOrWorkgroup($null, $null, 0)",
        "powershell",
        D,
    ),
    (
        "$cs = gwmi Win32_ComputerSystem; $cs.UnjoinDomainOrWorkgroup($null, $null, 0)",
        "powershell",
        D,
    ),
    ("Get-WmiObject Win32_NetworkAdapter | ForEach-Object { $_.Disable() }", "powershell", D),
    (
        "Get-CimInstance Win32_UserAccount -Filter \"Name='Administrator'\" | Remove-CimInstance",
        "powershell",
        B,
    ),
    ("gcim Win32_UserAccount -Filter 'LocalAccount=True' | Remove-CimInstance", "powershell", B),
    ("([wmi]\"Win32_UserAccount.Domain='PC',Name='Administrator'\").Delete()", "powershell", B),
    ("Get-WmiObject Win32_UserAccount -Filter \"Name='bob'\" | Remove-WmiObject", "powershell", D),
    # (review 21 O1/O2: a filter that cannot pick the administrator, an LDAP OU, a name
    # known at run time: one account; a DeleteTree not of the [adsi] account's variable)
    ("gcim Win32_UserAccount -Filter \"Name like 'test%'\" | Remove-CimInstance", "powershell", D),
    (
        "$c = [adsi]'WinNT://.'; $c.Children | ? { $_.Name -like 't*' } | "
        "% { $c.Delete('user', $_.Name) }",
        "powershell",
        D,
    ),
    ("$c = [adsi]'WinNT://.'; $c.Delete('user', $env:TEMPUSER)", "powershell", D),
    (
        "$u = [adsi]'WinNT://./Administrator,user'; $u.psbase.Properties; $tmp.DeleteTree",
        "powershell",
        S,
    ),
    ("$u = [adsi]'WinNT://./Administrator,user'; $u.psbase.DeleteTree()", "powershell", B),
    # look-alikes
    ("wmic computersystem get domain", "cmd", S),
    ("wmic nic where NetEnabled=true call enable", "cmd", M),
    ("Get-CimInstance Win32_UserAccount | Remove-CimInstance -WhatIf", "powershell", S),
    ("Get-CimInstance Win32_ComputerSystem | Select-Object Domain, PartOfDomain", "powershell", S),
    ("Write-Output 'Get-CimInstance Win32_UserAccount | Remove-CimInstance'", "powershell", S),
]


@pytest.mark.parametrize(("command", "shell", "expected"), WMI)
def test_wmi_doors_judged_as_their_cmdlet(command: str, shell: str, expected: object) -> None:
    assert assess(command, shell).level == expected, command


# ---------------------------------------------------------------- review 20 U3-U5 on Windows
REVIEW20 = [
    ('$env:PATH = "C:\\Temp\\b;$env:PATH"; git status', "powershell", C),
    ('$env:Path = "$env:TMP\\t;" + $env:Path; python -V', "powershell", C),
    ('$env:PATH = ".;$env:PATH"; & git.exe pull', "powershell", C),
    ("set PATH=%TEMP%\\b;%PATH% & git status", "cmd", C),
    ("set PATH=C:\\Users\\Public\\x;%PATH%\nnode -v", "cmd", C),
    ("path %TEMP%\\b;%PATH% & git status", "cmd", C),
    ('Set-Item Env:PATH "C:\\Temp\\b;$env:PATH"; git status', "powershell", C),
    (
        "Copy-Item C:\\Temp\\x.exe $env:LOCALAPPDATA\\Microsoft\\WindowsApps\\python.exe",
        "powershell",
        C,
    ),
    ('copy x.exe "%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps\\git.exe"', "cmd", C),
    ("$env:USERPROFILE='C:\\Windows'; rm -r -fo $env:USERPROFILE\\System32", "powershell", B),
    ("$x = 'C:\\Windows'; Remove-Item $x\\System32 -Recurse -Force", "powershell", B),
    ("$env:TEMP = 'C:\\Windows'; Remove-Item \"$env:TEMP\\*\" -Recurse -Force", "powershell", B),
    ("Start-Process -WorkingDirectory C:\\ cmd '/c rd /s /q Windows'", "powershell", B),
    ("saps cmd '/c rd /s /q Users' -Wo 'C:\\'", "powershell", B),
    ("Start-Process -Wo C:\\ powershell '-c Remove-Item Windows -Recurse -Force'", "powershell", B),
    (",$HOME | Remove-Item -Recurse -Force", "powershell", B),
    ('set X=C:\\b && rd /s /q "%X%\\"', "cmd", B),
    ('set OUT=C:\\src\\out& del /s /q "%OUT%\\*"', "cmd", B),
    ('if defined OUT rd /s /q "%OUT%\\"', "cmd", B),
    ('if ($out) { Remove-Item "$out\\*" -Recurse -Force }', "powershell", B),
    # (review 21 R1: an assignment that may not run does not replace the usual folder)
    (
        "if ($CI) { $env:USERPROFILE = 'C:\\ci' }; Remove-Item $env:USERPROFILE -Recurse -Force",
        "powershell",
        B,
    ),
    (
        "function f { $env:USERPROFILE = 'C:\\x' }; Remove-Item $env:USERPROFILE -Recurse -Force",
        "powershell",
        B,
    ),
    (
        "if ($false) { $env:SystemRoot = 'C:\\x' }; "
        'Remove-Item "$env:SystemRoot\\System32" -Recurse -Force',
        "powershell",
        B,
    ),
    (
        "netsh advfirewall firewall add rule name=x-? dir=in action=allow localport=3389",
        "cmd",
        C,
    ),
    # look-alikes
    ('$env:PATH = "$env:USERPROFILE\\.cargo\\bin;$env:PATH"; cargo build', "powershell", M),
    ('$env:PATH += ";C:\\Temp\\b"; git status', "powershell", M),
    ('$env:PATH = "C:\\Temp\\b;$env:PATH"; Get-ChildItem; ls', "powershell", M),
    ("set PATH=C:\\Python312;%PATH% && python -V", "cmd", M),
    ("path C:\\Python312;%PATH% & python -V", "cmd", M),
    ("path /?", "cmd", S),
    ("Start-Process pwsh '-NoProfile -c Get-ChildItem'", "powershell", M),
    ("set PATH=%PATH%;C:\\Temp\\b && git status", "cmd", M),
    ('$env:PATH = "C:\\Temp\\b;$env:PATH"; function f { 1 }; f', "powershell", M),
    ("set PATH=%TEMP%\\b;%PATH% & echo hi & dir", "cmd", M),
    ("Get-ChildItem $env:LOCALAPPDATA\\Microsoft\\WindowsApps", "powershell", S),
    ("$env:USERPROFILE='C:\\src'; rm -r -fo $env:USERPROFILE\\build", "powershell", D),
    ("Start-Process -WorkingDirectory C:\\src cmd '/c rd /s /q build'", "powershell", D),
    ('set X=C:\\b\nrd /s /q "%X%\\"', "cmd", D),
    ('set X=C:\\b && echo rd /s /q "%X%\\"', "cmd", S),
    (
        'param([ValidateNotNullOrEmpty()][string]$o) Remove-Item "$o\\*" -Recurse -Force',
        "powershell",
        D,
    ),
    ('if not defined OUT set OUT=C:\\src\\b\nrd /s /q "%OUT%\\"', "cmd", D),
]


@pytest.mark.parametrize(("command", "shell", "expected"), REVIEW20)
def test_review20_windows_leftovers(command: str, shell: str, expected: object) -> None:
    assert assess(command, shell).level == expected, command
