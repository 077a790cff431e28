"""Score tests/safety/sources_c5.tsv by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.cat5_rows [--show tune|dev|all]
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from aintern_ls.safety import RiskLevel, assess

PATH = Path(__file__).resolve().parents[1] / "tests" / "safety" / "sources_c5.tsv"


def main() -> None:
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else ""
    with PATH.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    for split in ("tune", "dev"):
        sel = [r for r in rows if r["split"] == split]
        got = [
            (
                RiskLevel.from_label(r["expected"]),
                assess(r["command"].replace("\\n", "\n"), r["shell"]),
            )
            for r in sel
        ]
        b = [a.level for e, a in got if e == RiskLevel.BLOCKED]
        h = [a.level for e, a in got if e >= RiskLevel.CRITICAL]
        s = [a.level for e, a in got if e <= RiskLevel.MODERATE]
        print(
            f"{split}: n={len(sel)} blocked {sum(x == RiskLevel.BLOCKED for x in b)}/{len(b)}"
            f" high {sum(x >= RiskLevel.CRITICAL for x in h)}/{len(h)}"
            f" low>=dangerous {sum(x >= RiskLevel.DANGEROUS for x in s)}/{len(s)}"
            f" exact {sum(e == a.level for e, a in got)}/{len(got)}"
        )
        if show in (split, "all"):
            for r, (e, a) in zip(sel, got, strict=True):
                if e != a.level:
                    rules = [f.rule for f in a.findings]
                    print(
                        f"  want {e.label:9} got {a.level.label:9} {rules} {r['command'][:150]!r}"
                    )


if __name__ == "__main__":
    main()
