"""safety-ps9: PowerShell semantics the analyser sees through (registry provider paths,
scheduled jobs, process start infos built in steps, script blocks invoked as objects) and
the read-only look-alikes that stay low. Corpus rows are in sources_ps9.tsv; these are
further spellings of the same mechanisms, then the same commands inside wrappers."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S

_PS_CASES = [
    # a registry key named through the Registry provider is the same key as HKLM:\…
    ("Remove-Item Registry::HKEY_LOCAL_MACHINE\\SOFTWARE -Recurse -Force", B),
    ("ri Microsoft.PowerShell.Core\\Registry::HKLM\\SYSTEM\\CurrentControlSet\\Services -r", B),
    ("Remove-Item 'registry::hkey_local_machine\\system' -Recurse", B),
    ("Remove-Item Registry::HKEY_CURRENT_USER\\Software\\MyApp -Recurse", D),
    ("Get-ChildItem Registry::HKEY_LOCAL_MACHINE\\SOFTWARE", S),
    # a scheduled job runs its block from the Task Scheduler on a trigger: persistence
    (
        "Register-ScheduledJob -Name n -ScriptBlock { Get-Date } -Trigger"
        " (New-JobTrigger -AtLogOn)",
        C,
    ),
    ("Register-ScheduledJob -Name n -FilePath C:\\s\\sync.ps1 -Trigger $t", C),
    ("Register-ScheduledJob -Name n -ScriptBlock { rd C:\\Windows -r -fo } -Trigger $t", B),
    ("Get-ScheduledJob | Select-Object Name, Enabled", S),
    # a ProcessStartInfo built in steps (constructor, properties, a -Property table, a cast)
    (
        "$p = New-Object Diagnostics.ProcessStartInfo; $p.FileName = 'cmd.exe';"
        " $p.Arguments = '/c rd /s /q C:\\Users'; [Diagnostics.Process]::Start($p)",
        B,
    ),
    (
        "[Diagnostics.Process]::Start([Diagnostics.ProcessStartInfo]@{FileName='vssadmin.exe';"
        " Arguments='delete shadows /all /quiet'})",
        B,
    ),
    (
        "$s = New-Object System.Diagnostics.ProcessStartInfo -Property @{FileName='notepad.exe'};"
        " [Diagnostics.Process]::Start($s)",
        M,
    ),
    (
        "$s = New-Object Diagnostics.ProcessStartInfo; $s.FileName = $env:X;"
        " [Diagnostics.Process]::Start($s)",
        C,
    ),
    # a script block in a variable, invoked as an object with arguments
    ("$b = { param($t) Remove-Item $t -Recurse -Force }; $b.InvokeReturnAsIs('C:\\Users')", B),
    ("$b = { param($t) Remove-Item $t -Recurse -Force }; $b.Invoke($env:windir)", B),
    ("$b = { Remove-Item $args[0] -Recurse }; $b.InvokeWithContext($null, $null, 'C:\\Users')", B),
    ("$b = { param($t) Remove-Item $t -Recurse -Force }; $b.Invoke('.\\build')", D),
    ("$b = { param($t) Get-ChildItem $t -Recurse }; $b.Invoke('C:\\Windows')", S),
]


@pytest.mark.parametrize("command,expected", _PS_CASES)
def test_ps9_powershell_mechanisms(command: str, expected: RiskLevel) -> None:
    got = assess(command, "powershell").level
    assert got == expected, f"{command!r}: {got.label}, expected {expected.label}"


_PS_WRAPPERS = [
    "function f {{ {0} }}; f",
    "& {{ {0} }}",
    "Invoke-Command -ScriptBlock {{ {0} }}",
    "if ($true) {{ {0} }}",
]


@pytest.mark.parametrize("wrapper", _PS_WRAPPERS)
@pytest.mark.parametrize(
    "command,expected", [(c, e) for c, e in _PS_CASES if e >= RiskLevel.CRITICAL]
)
def test_ps9_mechanisms_keep_their_level_when_wrapped(
    wrapper: str, command: str, expected: RiskLevel
) -> None:
    text = wrapper.format(command)
    got = assess(text, "powershell").level
    assert got >= expected, f"{text!r}: {got.label}, expected at least {expected.label}"
