"""Score tests/safety/sources_c5.tsv by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.cat5_rows [--show tune|dev|all]
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench._corpus_figures import print_by_split

PATH = Path(__file__).resolve().parents[1] / "tests" / "safety" / "sources_c5.tsv"


def main() -> None:
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else ""
    print_by_split(PATH, show)


if __name__ == "__main__":
    main()
