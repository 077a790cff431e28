"""Score one sourced corpus, tests/safety/sources_NAME.tsv, by split (not shipped; a bench).

PYTHONPATH=$PWD python -m bench.split_rows NAME [--show tune]

The file's path is fixed relative to this script, so the analyser of another checkout can
score the same rows: `PYTHONPATH=/other/checkout python /this/checkout/bench/split_rows.py NAME`.
Dev misses are never listed (`--show dev` is refused): the dev slice is not tuned on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench._corpus_figures import print_by_split

SOURCES = Path(__file__).resolve().parents[1] / "tests" / "safety"


def main(argv: list[str]) -> None:
    if not argv or argv[0].startswith("-"):
        raise SystemExit("usage: python -m bench.split_rows NAME [--show tune]")
    path = SOURCES / f"sources_{argv[0]}.tsv"
    if not path.is_file():
        raise SystemExit(f"{path} does not exist")
    show = argv[2] if len(argv) > 2 and argv[1] == "--show" else ""
    if show not in ("", "tune"):
        raise SystemExit("only tune misses are listed (the dev slice is not tuned on)")
    print_by_split(path, show)


if __name__ == "__main__":
    main(sys.argv[1:])
