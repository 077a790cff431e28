"""Session 20's speed work (s20): the 10,000-character inputs that cost 13 µs a budget step
(the budget counts about one) did work the steps do not pay for, once per word or redirect:

- `sudo sudo … ls` (cmd, 'wrappers nested': 60 ms): every wrapper level searched the whole
  rest of the line with two alternations (`clis._GATE_WORDS`, `paths._SECRET_BARE`), each
  0.3 µs a character; now long texts are scanned literal by literal (`in`);
- `echo >a >a …` / `ls > a > a …` (cmd, 'many redirects': 58-101 ms): every redirect
  classified its target again and re-recorded the same write; now a command classifies a
  target once and a write repeated as it was is not made again.

Tests never time anything: they count the calls the fix removed (which fail on the code
before it) and pin that verdicts and budget steps are what they were; `bench/sp9b_verdicts.py`
dumps compare every corpus row before and after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import pytest

from aintern_ls.safety import budget, clis, paths, persist
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.levels import RiskLevel

T = TypeVar("T")

analyse = _assess_cached.__wrapped__


class _Counting:
    """A compiled pattern's stand-in that counts the characters its searches were given."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.chars = 0
        self.calls = 0

    def search(self, text: str, *args: Any) -> re.Match[str] | None:
        self.calls += 1
        self.chars += len(text)
        return self.pattern.search(text, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


@contextmanager
def _stand_in(module: Any, name: str, wrap: Callable[[Any], T]) -> Iterator[T]:
    """Puts `wrap(original)` in place of `module.name` for the block, then the original back."""
    original = getattr(module, name)
    stand_in = wrap(original)
    setattr(module, name, stand_in)
    try:
        yield stand_in
    finally:
        setattr(module, name, original)


def _counting(module: Any, name: str) -> AbstractContextManager[_Counting]:
    return _stand_in(module, name, _Counting)


SUDOS = "sudo " * 1998 + "ls"


@pytest.mark.parametrize("shell", ["cmd", "bash", "powershell"])
def test_a_long_wrapper_chain_is_not_searched_by_alternation_at_every_level(shell: str) -> None:
    with _counting(clis, "_GATE_WORDS") as gate, _counting(paths, "_SECRET_BARE") as secret:
        got = analyse(SUDOS, shell, None)
    # before s20: 12-13 searches of ~10,000 characters each, in both patterns (cmd)
    assert gate.chars < 2_000, gate.chars
    assert secret.chars < 2_000, secret.chars
    assert got.level >= RiskLevel.CRITICAL


def test_the_gate_answers_as_the_alternation() -> None:
    texts = [
        "rm -rf build",
        "aws s3 rm s3://b --recursive",
        "restic-repo forget",
        "x borg_archive y",
        "delete older backups",
        "kopiastore",
        "bup.repo",
        "nothing here at all",
    ]
    for t in texts:
        for pad in (0, 300, 5000):
            for text in (" " * pad + t, t + " x" * pad):
                want = clis._GATE_WORDS.search(text) is not None
                assert clis._gate_word_in(text) is want, (t, pad)


def test_the_bare_secret_names_are_found_as_the_pattern_finds_them() -> None:
    for low in ("id_rsa", "x keychain", "htpasswd", "ssh_host_key", "login data", "plain", "id"):
        want = paths._SECRET_BARE.search(low) is not None
        assert paths.may_hold_secret(low, frozenset(low)) is want, low
    assert paths.may_hold_secret("a/b", frozenset("a/b"))
    assert paths.may_hold_secret("é", frozenset("é"))


@pytest.mark.parametrize("text", ["echo" + " >a" * 3000, "ls" + " > a" * 2500])
def test_a_repeated_redirect_target_is_classified_once(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"target": 0, "body": 0}
    target, body = paths.write_target, persist.judge_body

    def counted_target(*args: Any, **kwargs: Any) -> Any:
        calls["target"] += 1
        return target(*args, **kwargs)

    def counted_body(*args: Any, **kwargs: Any) -> None:
        calls["body"] += 1
        body(*args, **kwargs)

    monkeypatch.setattr(paths, "write_target", counted_target)
    monkeypatch.setattr(persist, "judge_body", counted_body)
    got = analyse(text, "cmd", None)
    # (before s20: a target classified once per redirect, 2,500-3,000 times)
    assert calls["target"] < 10, calls
    assert calls["body"] <= 1, calls
    # every redirect still has its own finding where it stands
    writes = [f for f in got.findings if f.rule == "write"]
    assert len(writes) == text.count(">")
    assert len({f.start for f in writes}) == len(writes)
    assert got.level == RiskLevel.MODERATE
    # (the steps those shapes spent before s20: nothing here was priced, so nothing moves)
    assert budget.spent() == {"e": 6_821, "l": 7_569}[text[0]]


STARTUP = '"%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.bat"'
HOSTS = "C:\\Windows\\System32\\drivers\\etc\\hosts"


# (level, rules, findings, steps) as main ac01ba6 judged them before s20
@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a write repeated after another to the same file is made again (`>>` appends)
        (
            "echo rd /s /q C:\\ >x.bat >>x.bat >x.bat & x.bat",
            ("blocked", "local-script rm-root write", 5, 267),
        ),
        (
            "echo rd /s /q C:\\ >x.bat >x.bat & x.bat",
            ("blocked", "local-script rm-root write", 4, 261),
        ),
        ("echo dir >x.bat >x.bat & x.bat", ("moderate", "local-script write", 3, 239)),
        ("echo dir >x.bat >>x.bat >x.bat & call x.bat", ("moderate", "local-script write", 4, 248)),
        (
            "echo format c: /q >a.bat >a.bat >a.bat & call a.bat",
            ("blocked", "local-script mkfs write", 5, 266),
        ),
        # a startup-folder write with a blocked body is judged at each redirect that writes it
        (f"echo rd /s /q C:\\Users > {STARTUP} > {STARTUP}", ("blocked", "persistence", 4, 375)),
        (f"echo x > {HOSTS} > {HOSTS}", ("critical", "system-file", 2, 134)),
    ],
)
def test_repeated_writes_keep_their_verdicts(text: str, want: tuple[str, str, int, int]) -> None:
    got = analyse(text, "cmd", None)
    rules = " ".join(sorted({f.rule for f in got.findings}))
    assert (got.level.label, rules, len(got.findings), budget.spent()) == want


def test_echo_off_marks_alone_are_not_looked_up_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # `@(@(@(…)))` in cmd ('nested @( )' of the long shapes: 66 ms for 10,000 characters):
    # 3,334 segments of a lone `@`, each a memo lookup (about 13 µs, 0 steps) before s20
    from aintern_ls.safety import cmd

    calls = {"n": 0}
    once = cmd._segment_once

    def counted(*args: Any) -> Any:
        calls["n"] += 1
        return once(*args)

    monkeypatch.setattr(cmd, "_segment_once", counted)
    got = analyse("@(" * 3000 + ")" * 3000, "cmd", None)
    assert calls["n"] == 0
    assert (got.level.label, len(got.findings), budget.spent()) == ("safe", 0, 6750)


# (level, rules, findings, steps) as main f0c36ed judged them before the `@` shortcut
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("@ & rd /s /q C:\\", ("blocked", "rm-root", 1, 86)),
        ("@@ & @ & del /q x", ("dangerous", "delete", 1, 84)),
        ("@\n@\nformat c: /q", ("blocked", "mkfs", 1, 84)),
        # a lone `@` ends an `echo` group as it did (see the report of s20: a family to check)
        (
            "(echo rd /s /q C:\\& @ & echo x) > a.bat & call a.bat",
            ("moderate", "local-script unknown-command write", 3, 331),
        ),
        (
            "(echo rd /s /q C:\\& echo x) > a.bat & call a.bat",
            ("blocked", "local-script rm-root unknown-command write", 4, 408),
        ),
        # listings written to a file are still remembered (`_listing_files`)
        (
            'dir /b /s C:\\Users > l.txt & for /f %i in (l.txt) do del "%i"',
            ("blocked", "rm-system write", 2, 191),
        ),
        (
            'where /r C:\\Users *.docx > l.txt & for /f %i in (l.txt) do del "%i"',
            ("blocked", "rm-system write", 2, 195),
        ),
        (
            'echo x > l.txt & for /f %i in (l.txt) do del "%i"',
            ("dangerous", "delete write", 2, 176),
        ),
    ],
)
def test_cmd_shortcuts_keep_their_verdicts(text: str, want: tuple[str, str, int, int]) -> None:
    got = analyse(text, "cmd", None)
    rules = " ".join(sorted({f.rule for f in got.findings}))
    assert (got.level.label, rules, len(got.findings), budget.spent()) == want
