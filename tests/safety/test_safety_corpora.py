"""The analyser against labelled commands: the shared examples and our own held-out corpus."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from aintern_ls.safety import RiskLevel, assess

# The project's shared examples live beside the repository (../shared); a copy is
# kept here so the test runs on a checkout without them. The shared file wins.
_BESIDE = Path(__file__).resolve().parents[3] / "shared" / "danger_examples.tsv"
SHARED = _BESIDE if _BESIDE.exists() else Path(__file__).with_name("danger_examples.tsv")
CORPUS = Path(__file__).with_name("corpus.tsv")


def _rows(path: Path) -> list[tuple[str, str, RiskLevel]]:
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [
            (
                r["command"].replace("\\n", "\n") if path == CORPUS else r["command"],
                r["shell"],
                RiskLevel.from_label(r["expected"]),
            )
            for r in reader
        ]


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
    levels = [(expected, assess(command, shell).level) for command, shell, expected in rows]
    blocked = [got for exp, got in levels if exp == RiskLevel.BLOCKED]
    high = [got for exp, got in levels if exp >= RiskLevel.CRITICAL]
    safe = [got for exp, got in levels if exp == RiskLevel.SAFE]
    return {
        "blocked_recall": sum(g == RiskLevel.BLOCKED for g in blocked) / max(1, len(blocked)),
        "high_recall": sum(g >= RiskLevel.CRITICAL for g in high) / max(1, len(high)),
        "safe_over_flagged": sum(g >= RiskLevel.DANGEROUS for g in safe) / max(1, len(safe)),
        "exact": sum(e == g for e, g in levels) / len(levels),
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
    rows: list[dict[str, str]] = []
    for path in SOURCES:
        with path.open(encoding="utf-8", newline="") as fh:
            rows += csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
    return rows


def _source_rows(split: str) -> list[tuple[str, str, RiskLevel]]:
    return [
        (
            r["command"].replace("\\n", "\n"),
            r["shell"],
            RiskLevel.from_label(r["expected"]),
        )
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
