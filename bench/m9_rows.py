"""Score tests/safety/sources_m9.tsv by split: `python -m bench.split_rows m9` (kept under
this name because earlier notes cite `python -m bench.m9_rows [--show tune]`)."""

from __future__ import annotations

import sys

from bench.split_rows import main

if __name__ == "__main__":
    main(["m9", *sys.argv[1:]])
