"""The analyser against labelled commands: the shared examples and our own held-out corpus.

The TSV files are read by `bench/_corpus_figures.py` (its docstring has the format). In the
`command` column `\\n` is a newline and `\\x5c` a literal backslash, written where a
backslash is followed by `n` (`C:\\temp\\x5cntds.dit` is `C:\\temp\\ntds.dit`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aintern_ls.safety import RiskLevel, assess
from bench._corpus_figures import decode_command, figures, read_labelled, read_rows

# The project's shared examples live beside the repository (../shared); a copy is
# kept here so the test runs on a checkout without them. The shared file wins.
_BESIDE = Path(__file__).resolve().parents[3] / "shared" / "danger_examples.tsv"
SHARED = _BESIDE if _BESIDE.exists() else Path(__file__).with_name("danger_examples.tsv")
CORPUS = Path(__file__).with_name("corpus.tsv")


def _rows(path: Path) -> list[tuple[str, str, RiskLevel]]:
    return read_labelled(path)


def _shared_rows() -> list[tuple[str, str, RiskLevel]]:
    if not SHARED.exists():
        pytest.skip(f"{SHARED} is not available")
    return _rows(SHARED)


@pytest.mark.parametrize("command,shell,expected", _rows(SHARED) if SHARED.exists() else [])
def test_shared_example_is_never_under_assessed(
    command: str, shell: str, expected: RiskLevel
) -> None:
    got = assess(command, shell).level
    if expected >= RiskLevel.CRITICAL:
        assert got >= expected, f"{command!r} assessed {got.label}, labelled {expected.label}"
    if expected == RiskLevel.SAFE:
        assert got < RiskLevel.DANGEROUS, f"safe {command!r} assessed {got.label}"


def _agreement(rows: list[tuple[str, str, RiskLevel]]) -> dict[str, float]:
    fig = figures((expected, assess(command, shell).level) for command, shell, expected in rows)
    return {
        "blocked_recall": fig.blocked_recall,
        "high_recall": fig.high_recall,
        "safe_over_flagged": fig.safe_over_flagged,
        "exact": fig.exact_agreement,
    }


def test_shared_examples_exact_agreement_is_reported() -> None:
    stats = _agreement(_shared_rows())
    print(f"danger_examples.tsv: {stats}")
    assert stats["exact"] >= 0.85


def test_own_corpus_meets_the_issue_targets() -> None:
    rows = _rows(CORPUS)
    assert len(rows) >= 300
    stats = _agreement(rows)
    print(f"corpus.tsv ({len(rows)} rows): {stats}")
    assert stats["blocked_recall"] >= 0.98
    assert stats["high_recall"] >= 0.95
    assert stats["safe_over_flagged"] <= 0.03
    assert stats["exact"] >= 0.85


def test_corpus_covers_every_shell_and_level() -> None:
    rows = _rows(CORPUS)
    assert {s for _, s, _ in rows} >= {"bash", "powershell", "cmd"}
    assert {lvl for _, _, lvl in rows} == set(RiskLevel)


# sources.tsv and any sources_<topic>.tsv beside it: one labelled corpus in several files.
SOURCES = sorted(Path(__file__).parent.glob("sources*.tsv"))


def _all_source_rows() -> list[dict[str, str]]:
    return [r for path in SOURCES for r in read_rows(path)]


def _source_rows(split: str) -> list[tuple[str, str, RiskLevel]]:
    return [
        (decode_command(r["command"]), r["shell"], RiskLevel.from_label(r["expected"]))
        for r in _all_source_rows()
        if r["split"] == split
    ]


def test_sourced_rows_have_a_source_and_a_split() -> None:
    rows = _all_source_rows()
    assert len(rows) >= 250
    assert all(r["source_or_reason"].strip() for r in rows)
    assert {r["split"] for r in rows} == {"tune", "dev"}


def test_sourced_tune_slice_meets_the_issue_targets() -> None:
    stats = _agreement(_source_rows("tune"))
    print(f"sources.tsv tune: {stats}")
    assert stats["blocked_recall"] >= 0.98
    assert stats["high_recall"] >= 0.95
    assert stats["safe_over_flagged"] <= 0.02
    assert stats["exact"] >= 0.90


def test_sourced_dev_slice_is_reported() -> None:
    # The dev slice is not tuned on: its figure is a check on over-fitting, reported by
    # this test; the floor only guards against regressions.
    stats = _agreement(_source_rows("dev"))
    print(f"sources.tsv dev: {stats}")
    assert stats["blocked_recall"] >= 0.80
    assert stats["high_recall"] >= 0.85
    assert stats["safe_over_flagged"] <= 0.05
