"""Score tests/safety/sources_n10u.tsv by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.n10u_rows [--show tune]

Dev misses are never listed (`--show dev` is refused): the dev slice is not tuned on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench._corpus_figures import print_by_split

PATH = Path(__file__).resolve().parents[1] / "tests" / "safety" / "sources_n10u.tsv"


def main() -> None:
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else ""
    if show not in ("", "tune"):
        raise SystemExit("only tune misses are listed (the dev slice is not tuned on)")
    print_by_split(PATH, show)


if __name__ == "__main__":
    main()
