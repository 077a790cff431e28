"""Score tests/safety/sources_m9.tsv by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.m9_rows [--show tune]

The file's path is fixed relative to this script, so the analyser of another checkout can
score the same rows: `PYTHONPATH=/other/checkout python /this/checkout/bench/m9_rows.py`.
Dev misses are never listed (`--show dev` is refused): the dev slice is not tuned on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from aintern_ls.safety import RiskLevel, assess
from bench._corpus_figures import decode_command, figures, read_rows

PATH = Path(__file__).resolve().parents[1] / "tests" / "safety" / "sources_m9.tsv"


def main() -> None:
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else ""
    if show not in ("", "tune"):
        raise SystemExit("only tune misses are listed (the dev slice is not tuned on)")
    rows = read_rows(PATH)
    for split in ("tune", "dev"):
        sel = [r for r in rows if r["split"] == split]
        got = [(r, assess(decode_command(r["command"]), r["shell"])) for r in sel]
        fig = figures((RiskLevel.from_label(r["expected"]), a.level) for r, a in got)
        low = f"low>=dangerous {fig.low_over[0]}/{fig.low_over[1]}"
        print(f"{split}: {fig.line()}  {low}")
        if show == split:
            for r, a in got:
                e = RiskLevel.from_label(r["expected"])
                if e != a.level:
                    rules = [f.rule for f in a.findings]
                    print(
                        f"  want {e.label:9} got {a.level.label:9} {rules} {r['command'][:150]!r}"
                    )


if __name__ == "__main__":
    main()
