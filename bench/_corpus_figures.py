"""Labelled corpus rows: how they are read and how the analyser is scored on them.

One module for every bench and test that reads `tests/safety/*.tsv` or the heldout slices
(`bench.art6_walk`, `bench.ext6_harvest`, `bench.cat5_rows`, `bench.safety`,
`bench.sp9b_verdicts`, `tests/safety/test_safety_corpora.py`).

The TSV format: a header line, then one row per line, tab-separated, no quoting (csv
`QUOTE_NONE`), columns `command`, `shell`, `expected` (a level label) and, in the sourced
files, `split` (`tune` or `dev`: dev rows are never tuned on) and `source_or_reason`.

Escapes in the `command` column (a row is one line, so a multi-line fence needs one):

- `\\n` is a newline (`cat <<EOF\\nhi\\nEOF`).
- `\\x5c` is a literal backslash. It is needed only where a backslash is followed by `n`
  (a Windows path: `C:\\temp\\x5cntds.dit` is `C:\\temp\\ntds.dit`, `.\\x5cnotes.txt` is
  `.\\notes.txt`) or by `x5c`; every other backslash stands for itself (`C:\\Users`,
  `\\\\host\\share`, and `C:\\\\n` is `C:\\` at the end of a line).

`decode_command` reads a cell, `encode_command` writes one (`decode(encode(t)) == t` for
any text without a tab or carriage return).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from aintern_ls.safety import RiskLevel

BACKSLASH = "\\x5c"  # the escape for a literal backslash


def decode_command(cell: str) -> str:
    """The command a TSV cell holds: `\\n` is a newline, `\\x5c` a literal backslash."""
    if "\\" not in cell:
        return cell
    return "\\".join(part.replace("\\n", "\n") for part in cell.split(BACKSLASH))


def encode_command(text: str) -> str:
    """The TSV cell for a command (the inverse of `decode_command`)."""
    if "\t" in text or "\r" in text:
        raise ValueError(f"a TSV cell cannot hold a tab or carriage return: {text!r}")
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch == "\\" and text.startswith(("n", "x5c"), i + 1):
            out.append(BACKSLASH)
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return "".join(out)


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a corpus TSV as dicts of its columns; `command` stays encoded (see
    `decode_command`)."""
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def read_labelled(path: Path) -> list[tuple[str, str, RiskLevel]]:
    """`(command, shell, expected level)` for every row, the command decoded."""
    return [
        (decode_command(r["command"]), r["shell"], RiskLevel.from_label(r["expected"]))
        for r in read_rows(path)
    ]


@dataclass(frozen=True)
class Figures:
    """How the analyser's levels compare with the labels of a set of rows."""

    rows: int
    blocked: tuple[int, int]  # rows labelled blocked that were rated blocked / all of them
    high: tuple[int, int]  # labelled critical or blocked, rated critical or above
    safe_over: tuple[int, int]  # labelled safe, rated dangerous or above
    low_over: tuple[int, int]  # labelled safe or moderate, rated dangerous or above
    exact: tuple[int, int]  # rated exactly as labelled

    @staticmethod
    def _ratio(pair: tuple[int, int]) -> float:
        """`hits / rows`, or NaN ("n/a") when there are no rows. A bar checked on an empty set
        then fails whichever way it points (`nan >= 0.98` and `nan <= 0.02` are both false)
        instead of passing vacuously (1.0 did for the recalls; 0.0, the older code's value,
        did for over-flagging). `line()` prints such a figure as `-`."""
        return pair[0] / pair[1] if pair[1] else math.nan

    @property
    def blocked_recall(self) -> float:
        return self._ratio(self.blocked)

    @property
    def high_recall(self) -> float:
        """Blocked-or-critical recall."""
        return self._ratio(self.high)

    @property
    def safe_over_flagged(self) -> float:
        """Safe rows rated dangerous or worse (the bar is at most 0.02)."""
        return self._ratio(self.safe_over)

    @property
    def exact_agreement(self) -> float:
        return self._ratio(self.exact)

    def meets_the_bar(self) -> bool:
        """The issue's bar: blocked recall >= 0.98, blocked-or-critical >= 0.95, safe rated
        dangerous or worse <= 0.02, exact >= 0.90 (a figure over no rows fails it)."""
        return (
            self.blocked_recall >= 0.98
            and self.high_recall >= 0.95
            and self.safe_over_flagged <= 0.02
            and self.exact_agreement >= 0.90
        )

    def line(self) -> str:
        """One line: counts and percentages of each figure."""

        def part(name: str, pair: tuple[int, int]) -> str:
            pct = f"{100 * pair[0] / pair[1]:5.1f}%" if pair[1] else "    - "
            return f"{name} {pct} ({pair[0]}/{pair[1]})"

        return "  ".join(
            [
                f"rows {self.rows:4d}",
                part("blocked", self.blocked),
                part("b-or-c", self.high),
                part("safe>=dang", self.safe_over),
                part("exact", self.exact),
            ]
        )


def figures(pairs: Iterable[tuple[RiskLevel, RiskLevel]]) -> Figures:
    """Figures for `(expected, got)` pairs."""
    items = list(pairs)
    blocked = [g for e, g in items if e == RiskLevel.BLOCKED]
    high = [g for e, g in items if e >= RiskLevel.CRITICAL]
    safe = [g for e, g in items if e == RiskLevel.SAFE]
    low = [g for e, g in items if e <= RiskLevel.MODERATE]
    return Figures(
        rows=len(items),
        blocked=(sum(g == RiskLevel.BLOCKED for g in blocked), len(blocked)),
        high=(sum(g >= RiskLevel.CRITICAL for g in high), len(high)),
        safe_over=(sum(g >= RiskLevel.DANGEROUS for g in safe), len(safe)),
        low_over=(sum(g >= RiskLevel.DANGEROUS for g in low), len(low)),
        exact=(sum(e == g for e, g in items), len(items)),
    )


def judge(rows: Iterable[dict[str, str]]) -> list[tuple[dict[str, str], RiskLevel, RiskLevel]]:
    """`(row, expected, got)` for TSV rows: each decoded command judged by the analyser."""
    from aintern_ls.safety import assess

    return [
        (
            r,
            RiskLevel.from_label(r["expected"]),
            assess(decode_command(r["command"]), r["shell"]).level,
        )
        for r in rows
    ]


def by_split(judged: Iterable[tuple[dict[str, str], RiskLevel, RiskLevel]]) -> dict[str, Figures]:
    """Figures per `split` column value (rows without one count as `all`)."""
    groups: dict[str, list[tuple[RiskLevel, RiskLevel]]] = {}
    for r, e, g in judged:
        groups.setdefault(r.get("split") or "all", []).append((e, g))
    return {k: figures(v) for k, v in sorted(groups.items())}


def print_by_split(path: Path, show: str = "") -> None:
    """Print a sourced TSV's figures for its tune and dev rows (the `bench.cat5_rows` and
    `bench.m9_rows` report); with `show` a split name or `all`, also that split's rows whose
    level differs from the label, with the rules that fired."""
    from aintern_ls.safety import assess

    rows = read_rows(path)
    for split in ("tune", "dev"):
        sel = [r for r in rows if r["split"] == split]
        got = [(r, assess(decode_command(r["command"]), r["shell"])) for r in sel]
        fig = figures((RiskLevel.from_label(r["expected"]), a.level) for r, a in got)
        low = f"low>=dangerous {fig.low_over[0]}/{fig.low_over[1]}"
        print(f"{split}: {fig.line()}  {low}")
        if show in (split, "all"):
            for r, a in got:
                e = RiskLevel.from_label(r["expected"])
                if e != a.level:
                    rules = [f.rule for f in a.findings]
                    print(
                        f"  want {e.label:9} got {a.level.label:9} {rules} {r['command'][:150]!r}"
                    )
