"""Session 21's speed work (s21): work repeated on the 10,000-character inputs and on every
command that an exact, cheaper test can skip without changing a verdict.

- `sudo sudo … ls` (bash, 'wrappers nested': 51.5 ms idle, the one 10,000-character input
  over the 50 ms bar): past the wrapper cap (`dispatch._MAX_WRAPPED`) the rest of the line
  is judged as if its program were `rm` (`_as_if_destructive`), so `files._delete_targets`
  classified the word `sudo` 1,986 times, and then asked `_os_config_path` of each again.
  A literal target written again the same way is judged as its first sighting was and
  cannot raise the worst level kept since, so it is skipped. Every wrapper level also
  lowered its ~2,000 arguments one by one for `Argv.joined_low`/`chars`: ASCII text lowers
  letter by letter, so the joined text is lowered in one call.

Tests never time anything: they count the calls the change removed (they fail on the code
before it) and pin verdicts; `bench/sp9b_verdicts.py` dumps of every corpus row before and
after show no difference (levels, findings, spans, budget steps).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from aintern_ls.safety import files
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.argv import Argv
from aintern_ls.safety.levels import RiskLevel
from aintern_ls.safety.words import Word

analyse = _assess_cached.__wrapped__


class _Calls:
    """A function's stand-in that counts its calls."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.fn(*args, **kwargs)


@contextmanager
def _calls(module: Any, name: str) -> Iterator[_Calls]:
    original = getattr(module, name)
    counter = _Calls(original)
    setattr(module, name, counter)
    try:
        yield counter
    finally:
        setattr(module, name, original)


SUDOS = "sudo " * 1998 + "ls"


def test_a_wrapper_chain_cut_at_the_cap_classifies_each_repeated_word_once() -> None:
    with (
        _calls(files, "classify_path") as classified,
        _calls(files, "_os_config_path") as config,
    ):
        got = analyse(SUDOS, "bash", None)
    # before s21: 1,986 classifications of `sudo` and 1,986 configuration-path questions
    assert classified.calls < 10, classified.calls
    assert config.calls < 10, config.calls
    assert got.level >= RiskLevel.CRITICAL


def test_repeated_targets_of_rm_are_classified_once() -> None:
    with _calls(files, "classify_path") as classified:
        got = analyse("rm -f " + "a.txt " * 400 + "b.txt", "bash", None)
    assert classified.calls <= 2, classified.calls
    assert got.level == RiskLevel.DANGEROUS


@pytest.mark.parametrize(
    ("command", "shell", "level"),
    [
        # the worst target still decides, wherever it stands among repeats
        ("rm -rf " + "build " * 50 + "/ " + "build " * 50, "bash", RiskLevel.BLOCKED),
        ("rm -rf " + "/ " * 50, "bash", RiskLevel.BLOCKED),
        ("sudo " * 20 + "rm -rf " + "x " * 30 + "/", "bash", RiskLevel.BLOCKED),
        # `~` written twice: the second is the same target, the first already decides
        ("rm -rf ~ ~", "bash", RiskLevel.BLOCKED),
        ("rm -f /etc/resolv.conf /etc/resolv.conf", "bash", RiskLevel.CRITICAL),
        # the same text spelt differently in the source is judged again (a Windows path
        # unquoted in a bash fence is judged as written, quoted it is not)
        ("rm -rf 'C:\\Windows\\System32' C:\\Windows\\System32", "bash", RiskLevel.BLOCKED),
        # repeats of a harmless target stay what they were
        ("rm -rf " + "node_modules " * 40, "bash", RiskLevel.DANGEROUS),
        ("del /s /q " + "build " * 40, "cmd", RiskLevel.DANGEROUS),
    ],
)
def test_repeated_targets_keep_their_verdicts(command: str, shell: str, level: RiskLevel) -> None:
    assert analyse(command, shell, None).level == level


# --- Argv: the joined, lower-cased arguments of ASCII text in one call (s21) ----------------


def test_a_wrapper_chain_does_not_lower_every_argument_at_every_level() -> None:
    lowered: list[int] = []
    original = Argv.low

    def low(self: Argv) -> tuple[str, ...]:
        lowered.append(len(self.texts))
        return original.fget(self)  # type: ignore[no-any-return]

    Argv.low = property(low)  # type: ignore[assignment, method-assign]
    try:
        got = analyse(SUDOS, "bash", None)
    finally:
        Argv.low = original  # type: ignore[method-assign]
    # before s21: every wrapper level lowered its ~2,000 arguments one by one (12 levels)
    assert sum(lowered) < 2_000, sum(lowered)
    assert got.level >= RiskLevel.CRITICAL


@pytest.mark.parametrize(
    "texts",
    [
        ("ls", "-la", "SRC"),
        ("Remove-Item", "-Recurse", "C:\\Users"),
        ("a b", "C D"),  # blanks inside arguments stay among the characters
        (),
        ("",),
        ("ΑΣ", "Β"),  # non-ASCII: lowered one by one (a final sigma depends on its word)
        ("İstanbul", "x"),
        ("ＲＭ", "-RF"),
    ],
)
def test_joined_low_and_chars_are_the_lowered_arguments(texts: tuple[str, ...]) -> None:
    words = [Word(t, 0, 0) for t in texts]
    fresh = Argv(Word("x", 0, 0), words)
    assert fresh.joined_low == " ".join(t.lower() for t in texts)
    assert fresh.chars == frozenset("".join(t.lower() for t in texts))
    primed = Argv(Word("x", 0, 0), words)
    assert primed.low == tuple(t.lower() for t in texts)
    assert (primed.joined_low, primed.chars) == (fresh.joined_low, fresh.chars)
