"""Every `tests/safety/sources*.tsv` row judged, summed per split (tune, dev).

    PYTHONPATH=$PWD /work/venv/bin/python -m bench.r9_figures

Prints, per split: blocked recall, critical-or-blocked recall, safe rows rated dangerous or
above, safe-or-moderate rows rated dangerous or above (counts, not ratios).
"""

from __future__ import annotations

from pathlib import Path

from bench._corpus_figures import by_split, judge, read_rows

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    totals: dict[str, list[int]] = {}
    for path in sorted((ROOT / "tests" / "safety").glob("sources*.tsv")):
        for split, fig in by_split(judge(read_rows(path))).items():
            t = totals.setdefault(split, [0] * 8)
            for k, (hit, rows) in enumerate((fig.blocked, fig.high, fig.safe_over, fig.low_over)):
                t[2 * k] += hit
                t[2 * k + 1] += rows
    for split, t in sorted(totals.items()):
        print(
            f"{split}: blocked {t[0]}/{t[1]}  high {t[2]}/{t[3]}"
            f"  safe->D+ {t[4]}/{t[5]}  safe/mod->D+ {t[6]}/{t[7]}"
        )


if __name__ == "__main__":
    main()
