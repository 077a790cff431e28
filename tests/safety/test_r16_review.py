"""r16: fixes of review 16's findings (/work/review16_findings.md).

1-3. A count of one (`Select-Object -First 1`) is ONE snapshot only when it picks from the
     last snapshot listing that reaches the remover and the remover takes nothing more than
     the picked item: `-IncludeAllChildSnapshots` takes its whole subtree (the oldest is the
     root: every snapshot), a count of VMs (`Get-VM | Select -First 1`) leaves every
     snapshot of that VM, and a getter after the count (also inside a ForEach scriptblock)
     lists every snapshot again. All of those stay blocked (session 12/16 conventions).

Each case keeps its level when wrapped (a function, Invoke-Expression, a scriptblock,
powershell -c from cmd, pwsh -c); look-alikes (-WhatIf, the words printed) stay low.
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


EVERY_SNAPSHOT_AFTER_A_COUNT = [
    # 1: the picked snapshot and all its children
    "Get-VMSnapshot -VMName web | Sort CreationTime | Select -First 1 |"
    " Remove-VMSnapshot -IncludeAllChildSnapshots",
    "Get-VMSnapshot -VMName web | Select-Object -First 1 | Remove-VMSnapshot"
    " -IncludeAllChildSnapshots -Confirm:$false",
    "Get-VMCheckpoint -VMName web | select -l 1 | Remove-VMCheckpoint -IncludeAllChildCheckpoints",
    "Get-VMSnapshot -VMName db | Select-Object -Index 0 | Remove-VMSnapshot -Inc",
    # 2: the count picks a machine, not a snapshot
    "Get-VM | Select-Object -First 1 | Remove-VMSnapshot -Name *",
    "Get-VM web | Select-Object -Index 0 | Remove-VMCheckpoint -Name *",
    "Get-VMSnapshot -VMName web | Select -First 1 | Get-VM | Remove-VMSnapshot -Name *",
    # 3: the snapshots are listed again after the count
    "Get-VMSnapshot -VMName web | Select-Object -First 1 |"
    " ForEach-Object { Get-VMSnapshot -VMName $_.VMName } | Remove-VMSnapshot",
    "Get-VMCheckpoint -VMName web | select -f 1 | % { Get-VMCheckpoint -VMName web } |"
    " Remove-VMCheckpoint",
]


@pytest.mark.parametrize("command", EVERY_SNAPSHOT_AFTER_A_COUNT)
def test_every_snapshot_after_a_count_of_one_stays_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command):
        got = assess(text, shell)
        assert got.level == RiskLevel.BLOCKED, f"{text!r} ({shell}): {got.level.label}"


@pytest.mark.parametrize(
    "command,level",
    [
        (
            "Get-VMSnapshot -VMName web | Sort-Object CreationTime | Select-Object -First 1 |"
            " Remove-VMSnapshot",
            RiskLevel.DANGEROUS,
        ),
        (
            "Get-VM | Select -First 1 | Get-VMSnapshot | Select -Last 1 | Remove-VMSnapshot",
            RiskLevel.DANGEROUS,
        ),
        (
            "Get-VMSnapshot -VMName web | Select -First 1 | Remove-VMSnapshot -WhatIf"
            " -IncludeAllChildSnapshots",
            RiskLevel.SAFE,
        ),
        (
            'Write-Host "Get-VM | Select -First 1 | Remove-VMSnapshot -Name *"',
            RiskLevel.SAFE,
        ),
    ],
)
def test_one_snapshot_look_alikes_keep_their_level(command: str, level: RiskLevel) -> None:
    for text, shell in _ps_wrapped(command)[:2]:
        got = assess(text, shell)
        # a function call is an unknown command (moderate) around a safe body
        want = {level, RiskLevel.MODERATE} if level == RiskLevel.SAFE else {level}
        assert got.level in want, f"{text!r}: {got.level.label}"


# 9. A verdict cut by the CPU clock depends on the machine's load at that moment: it is not
# cached, so the next request judges the same text again.
_SCRIPT = "".join(
    f"if [ -f src/part{i}.c ]; then cp src/part{i}.c build/; echo copied {i}; fi\n"
    for i in range(150)
)


@pytest.mark.parametrize(
    "text,shell",
    [
        (_SCRIPT, "bash"),
        (_SCRIPT.replace("if [ -f", "# ").replace("; fi", ""), "bash"),
        ("".join(f"Copy-Item src\\p{i}.c build\\\n" for i in range(150)), "powershell"),
        ("".join(f"copy src\\p{i}.c build\\\n" for i in range(150)), "cmd"),
    ],
)
def test_a_clock_cut_is_not_cached(monkeypatch: pytest.MonkeyPatch, text: str, shell: str) -> None:
    from aintern_ls.safety import budget
    from aintern_ls.safety.analyser import OUT_OF_TIME

    was = budget.use_clock(False)
    try:
        real = assess(text, shell)  # the step budget alone: what the text deserves
        budget.use_clock(True)
        text = text + "\n"  # a text not in the cache yet
        with monkeypatch.context() as m:
            m.setattr(budget, "CLOCK_US_PER_STEP", 1e-6)  # a machine under heavy load
            cut = assess(text, shell)
        assert cut.level == RiskLevel.CRITICAL
        assert any(f.reason.startswith(OUT_OF_TIME) for f in cut.findings)
        # the machine is quiet again (a roomy factor, so the suite's own load cannot cut it):
        # the same text, no cache cleared
        with monkeypatch.context() as m:
            m.setattr(budget, "CLOCK_US_PER_STEP", 1000.0)
            again = assess(text, shell)
        assert again.level == real.level, again
        assert not any(f.reason.startswith(OUT_OF_TIME) for f in again.findings)
        assert assess(text, shell) is again  # an uncut verdict is cached as before
    finally:
        budget.use_clock(was)


# 4. `.Remove(` / `.RemoveRange(` empties a trust store only when it is called ON the store
# (the variable the opened X509Store or `Get-Item Cert:\LocalMachine\Root` went to, `$_` of a
# piped store): a string's or a list's `.Remove` beside a listing of the store removes nothing.
X509_WIPES = [
    "$s = [Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine');"
    " $s.Open('ReadWrite'); $s.RemoveRange($s.Certificates); $s.Close()",
    "$st = Get-Item Cert:\\LocalMachine\\Root; $st.Open('ReadWrite');"
    " $st.RemoveRange($st.Certificates)",
    "([Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine')) |"
    " % { $_.Open('ReadWrite'); $_.RemoveRange($_.Certificates) }",
    "$s = [Security.Cryptography.X509Certificates.X509Store]::new("
    "[Security.Cryptography.X509Certificates.StoreName]::Root,"
    " [Security.Cryptography.X509Certificates.StoreLocation]::LocalMachine);"
    " $s.Open(2); $s.RemoveRange($s.Certificates)",
]


@pytest.mark.parametrize("command", X509_WIPES)
def test_a_trust_store_emptied_through_dotnet_is_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command):
        got = assess(text, shell)
        assert got.level == RiskLevel.BLOCKED, f"{text!r} ({shell}): {got.level.label}"
        assert any(f.rule == "cert-store-wipe" for f in got.findings), text


@pytest.mark.parametrize(
    "command",
    [
        "(Get-ChildItem Cert:\\LocalMachine\\Root).Subject.Remove(0,3)",
        "Get-ChildItem Cert:\\LocalMachine\\Root | ForEach-Object { $_.Subject.Remove(0,3) }",
        "Get-ChildItem Cert:\\LocalMachine\\Root | Where-Object { $_.Subject -match 'CN' } |"
        " ForEach-Object { $_.Thumbprint.Remove(0,4) }",
        "$roots = Get-ChildItem Cert:\\LocalMachine\\Root;"
        " $names = [Collections.Generic.List[string]]::new(); $names.Remove('x') | Out-Null",
        "$c = Get-ChildItem Cert:\\LocalMachine\\Root;"
        " $list = New-Object System.Collections.ArrayList; $list.Remove('x')",
        "$s = [System.Security.Cryptography.X509Certificates.X509Store]::new('Root',"
        "'LocalMachine'); $s.Open('ReadOnly'); $s.Certificates | Select Subject; $list.Remove(1)",
        "$s = [Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine');"
        " $s.Open('ReadOnly'); $s.Name.Remove(0,1)",
        "$s = [Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine');"
        " $s.Open('ReadOnly'); $s.Certificates.Remove($s.Certificates[0])",
    ],
)
def test_a_string_or_list_remove_beside_a_trust_store_removes_nothing(command: str) -> None:
    # (Invoke-Expression of a text with `$_` is its own critical finding, and in `pwsh -c
    # "…"` the outer shell expands every variable to one unknown `$x`: not wrapped so.)
    for text, shell in _ps_wrapped(command)[:2] + _ps_wrapped(command)[3:5]:
        got = assess(text, shell)
        assert got.level <= RiskLevel.MODERATE, f"{text!r} ({shell}): {got.level.label}"


# 5. certutil's help (`-?` / `/?` anywhere, before or after the verb) only prints; a
# `-delstore` with no store named deletes nothing (certutil refuses).
@pytest.mark.parametrize(
    "command,most",
    [
        ("certutil -? -delstore", RiskLevel.SAFE),
        ("certutil -delstore -?", RiskLevel.SAFE),
        ("certutil /delstore /?", RiskLevel.SAFE),
        ("certutil.exe -delstore Root -?", RiskLevel.SAFE),
        ("certutil -delstore", RiskLevel.MODERATE),
        ('certutil "" -delstore', RiskLevel.MODERATE),
    ],
)
def test_certutil_help_and_storeless_delstore_delete_nothing(command: str, most: RiskLevel) -> None:
    for text, shell in [
        (command, "cmd"),
        (command, "powershell"),
        (f"cmd /c {command}", "cmd"),
        (f"powershell -NoProfile -Command {command}", "cmd"),
    ]:
        got = assess(text, shell)
        assert got.level <= most, f"{text!r} ({shell}): {got.level.label}"


def test_certutil_delstore_still_judged_when_an_option_comes_before_the_store() -> None:
    assert assess("certutil -delstore -f Root 01", "cmd").level >= RiskLevel.CRITICAL
    assert assess("certutil -delstore -f My 01", "cmd").level == RiskLevel.DANGEROUS


# 6. (session 16 convention) a machine trust store emptied or deleted whole is blocked; ONE
# certificate taken out of it is critical (a security setting changed; it can be
# re-imported), in every spelling: Remove-Item of a thumbprint, a filtered or one-item
# listing piped on, certutil -delstore, X509Store.Remove outside a loop.
ONE_TRUSTED_CERT_REMOVED = [
    "Remove-Item -LiteralPath Cert:\\LocalMachine\\Root\\CDD4EEAE6000AC7F40C3802C171E30148030C072",
    "ri cert:/localmachine/authroot/0563B8630D62D75ABBC8AB1E4BDFB5A899B24D43 -Force",
    "Remove-Item Cert:\\LocalMachine\\CA\\CDD4*",
    "Get-ChildItem Cert:\\LocalMachine\\Root | Where-Object Thumbprint -eq 'CDD4EEAE' |"
    " Remove-Item",
    "Get-Item Cert:\\LocalMachine\\Root\\CDD4EEAE | Remove-Item",
    "certutil -delstore Root 5fdd2c8f5a7d4e1a9b3c",
    "$s = [Security.Cryptography.X509Certificates.X509Store]::new('Root','LocalMachine');"
    " $s.Open('ReadWrite'); $s.Remove($c); $s.Close()",
]


@pytest.mark.parametrize("command", ONE_TRUSTED_CERT_REMOVED)
def test_one_certificate_out_of_a_machine_trust_store_is_critical(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:2] + _ps_wrapped(command)[3:5]:
        got = assess(text, shell)
        assert got.level == RiskLevel.CRITICAL, f"{text!r} ({shell}): {got.level.label}"
        assert any(f.rule == "cert-trust-removed" for f in got.findings), text


@pytest.mark.parametrize(
    "command",
    [
        "Get-ChildItem Cert:\\LocalMachine\\Root | Remove-Item",
        "Remove-Item Cert:\\LocalMachine\\Root\\* -Force",
        "Remove-Item Cert:\\LocalMachine\\AuthRoot",
        "$s = New-Object System.Security.Cryptography.X509Certificates.X509Store('Root',"
        "'LocalMachine'); $s.Open('ReadWrite'); foreach ($c in $s.Certificates) { $s.Remove($c) }",
    ],
)
def test_a_whole_machine_trust_store_emptied_stays_blocked(command: str) -> None:
    for text, shell in _ps_wrapped(command)[:2] + _ps_wrapped(command)[3:5]:
        got = assess(text, shell)
        assert got.level == RiskLevel.BLOCKED, f"{text!r} ({shell}): {got.level.label}"


@pytest.mark.parametrize(
    "command,shell,most",
    [
        ("certutil -user -delstore Root 5fdd", "cmd", RiskLevel.DANGEROUS),
        ("Remove-Item Cert:\\CurrentUser\\Root\\CDD4EEAE", "powershell", RiskLevel.DANGEROUS),
        ("Get-ChildItem Cert:\\LocalMachine\\Root\\CDD4EEAE", "powershell", RiskLevel.SAFE),
        ("Remove-Item Cert:\\LocalMachine\\Root\\CDD4 -WhatIf", "powershell", RiskLevel.SAFE),
        ('echo "certutil -delstore Root 01"', "cmd", RiskLevel.SAFE),
    ],
)
def test_trust_store_look_alikes_stay_low(command: str, shell: str, most: RiskLevel) -> None:
    assert assess(command, shell).level <= most, command


# 7. The trust store wiped from inside it: relative item paths are read from the
# certificate folder a PowerShell cd / Set-Location / Push-Location went to.
@pytest.mark.parametrize(
    "command,level",
    [
        ("cd Cert:\\LocalMachine\\Root; Remove-Item *", RiskLevel.BLOCKED),
        ("Set-Location -Path cert:/localmachine/authroot; ri * -Force", RiskLevel.BLOCKED),
        ("cd Cert:\\LocalMachine; Remove-Item Root\\*", RiskLevel.BLOCKED),
        ("cd Cert:\\LocalMachine\\; cd Root; del *", RiskLevel.BLOCKED),
        (
            "Push-Location Cert:\\LocalMachine\\CA; Remove-Item * -Force; Pop-Location",
            RiskLevel.BLOCKED,
        ),
        (
            "cd Cert:\\LocalMachine\\Root; Remove-Item CDD4EEAE6000AC7F40C3802C171E30148030C072",
            RiskLevel.CRITICAL,
        ),
    ],
)
def test_a_trust_store_emptied_from_inside_it(command: str, level: RiskLevel) -> None:
    for text, shell in _ps_wrapped(command)[:2] + _ps_wrapped(command)[3:5]:
        got = assess(text, shell)
        assert got.level == level, f"{text!r} ({shell}): {got.level.label}"


@pytest.mark.parametrize(
    "command,most",
    [
        ("cd Cert:\\LocalMachine\\Root; cd C:\\temp; Remove-Item *", RiskLevel.DANGEROUS),
        ("cd Cert:\\CurrentUser\\My; Remove-Item *", RiskLevel.DANGEROUS),
        ("cd Cert:\\LocalMachine\\Root; Get-ChildItem", RiskLevel.SAFE),
        ("cd Cert:\\LocalMachine\\Root; Remove-Item * -WhatIf", RiskLevel.SAFE),
        ("cd C:\\temp; Remove-Item Root\\*", RiskLevel.DANGEROUS),
    ],
)
def test_cert_location_look_alikes(command: str, most: RiskLevel) -> None:
    assert assess(command, "powershell").level <= most, command


# 10 (minor). allowance_ms() answers for the last assessment after it closed.
def test_allowance_is_kept_after_the_assessment_closes() -> None:
    from aintern_ls.safety import budget

    was = budget.use_clock(True)
    try:
        budget.start(10_000)
        during = budget.allowance_ms()
        budget.stop()
        assert during < float("inf")
        assert budget.allowance_ms() == during
        budget.use_clock(False)
        budget.start(10)
        budget.stop()
        assert budget.allowance_ms() == float("inf")
    finally:
        budget.use_clock(was)
