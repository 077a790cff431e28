"""Session 20's second speed pass (s20b): work every command paid for that an exact, cheaper
test can skip without changing a verdict.

- `clis.judge`'s gate (is there a word any of its shapes reads?) searched the arguments with
  one alternation of ~25 literals on every short command (10 µs for the bench's average
  42-character command, at 0.3 µs a character); the literals are now scanned one by one
  (6 µs, memory speed), as s20 already did past 256 characters, and the set lookups on the
  program's name come before the scan.

Tests never time anything: they count the searches the change removed (they fail on the
code before it) and pin that the gate answers as the alternation; `bench/sp9b_verdicts.py`
dumps of every corpus row before and after show no difference (levels, findings, spans,
budget steps).
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import clis
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.levels import RiskLevel
from tests.safety.test_s20_speed import _counting

analyse = _assess_cached.__wrapped__


@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("ls -la src", "bash"),
        ("git status --short", "bash"),
        ("Get-ChildItem -Path C:\\src -Recurse", "powershell"),
        ("dir /s /b *.py", "cmd"),
        ("kubectl get pods -n web", "bash"),  # a program named in CLIS: no scan at all
    ],
)
def test_an_ordinary_command_is_not_searched_by_the_gate_alternation(
    command: str, shell: str
) -> None:
    with _counting(clis, "_GATE_WORDS") as gate, _counting(clis, "_GATE_REPO_WORD") as repo:
        got = analyse(command, shell, None)
    # before s20b: one alternation search per short command judged
    assert gate.calls == 0, gate.calls
    assert repo.calls == 0, repo.calls  # (no `repo`/`store`/`archive` in the text)
    assert got.level <= RiskLevel.MODERATE


@pytest.mark.parametrize(
    ("command", "shell", "at_least"),
    [
        # the gate words still open the shapes: backups deleted, versioning turned off
        ("restic -r /srv/restic-repo forget --keep-last 0 --prune", "bash", RiskLevel.DANGEROUS),
        (
            "aws s3api put-bucket-versioning --bucket b"
            " --versioning-configuration Status=Suspended",
            "bash",
            RiskLevel.CRITICAL,
        ),
        ("vssadmin delete shadows /all /quiet", "cmd", RiskLevel.BLOCKED),
    ],
)
def test_gate_words_still_reach_the_shapes(command: str, shell: str, at_least: RiskLevel) -> None:
    assert analyse(command, shell, None).level >= at_least


def test_the_gate_answers_as_the_alternation_at_every_length() -> None:
    words = [*clis._GATE_LITERALS, "restic-repo", "borg_archive", "kopiastore", "bup.repo"]
    near = ["dele", "remo", "purge"[:3], "repo", "store", "archive", "resticrepo x", "bkq"]
    for w in [*words, *near, "", "nothing here at all"]:
        for text in (w, f"x {w} y", f"{w[:-1]} {w[-1:]}", "a" * 300 + w):
            want = clis._GATE_WORDS.search(text) is not None
            assert clis._gate_word_in(text) is want, text
