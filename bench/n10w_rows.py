"""Score tests/safety/sources_n10w.tsv by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.n10w_rows [--show tune]

The file's path is fixed relative to this script, so the analyser of another checkout can
score the same rows: `PYTHONPATH=/other/checkout python /this/checkout/bench.n10w_rows.py`.
Dev misses are never listed (`--show dev` is refused): the dev slice is not tuned on.
The split is by family (the source column names it): `dev` when the first byte of
`sha256("n10w:" + family)` is 0 mod 3, decided and committed before any scoring.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench._corpus_figures import print_by_split

PATH = Path(__file__).resolve().parents[1] / "tests" / "safety" / "sources_n10w.tsv"


def main() -> None:
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else ""
    if show not in ("", "tune"):
        raise SystemExit("only tune misses are listed (the dev slice is not tuned on)")
    print_by_split(PATH, show)


if __name__ == "__main__":
    main()
