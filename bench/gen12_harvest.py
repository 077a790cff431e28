"""Build ``tests/safety/sources_gen12.tsv`` from commands in other projects' own test suites.

Issue 14 (gen12): the hidden sets include "commands from other tools' own test suites" (part
b of every blind slice, the weakest part). This turns the test cases of command gates that no
earlier harvest read into labelled rows: gptme's shell denylist tests, secure-shell-server's
awk/sed/find validators, the WoW system's always-block tests, orchestkit's
dangerous-command-blocker tests, hol-guard's benign false-positive gate, and the others listed
in bench/gen12_lists (one file per project test file).

Input: a directory of ``*.txt`` lists (and ``later/*.txt``, read after them) written by hand
while reading each project's test file. A list starts with a ``# owner/repo path`` line;
every other line is ``command<TAB>shell<TAB>OUR label<TAB>their verdict`` and, for a label
corrected after scoring, a fifth column saying why. The label was written by the conventions
(DESIGN.md section 5, HELPERS.md "Label conventions") BEFORE the analyser ran on the row;
their verdict is kept in the source column as a hint. Commands use the corpus escapes
(``bench/_corpus_figures.py``).

Split by WHOLE PROJECT, decided before scoring: a project is ``dev`` when the first byte of
``sha256("gen12:" + owner/repo)`` is below 0x55 (about a third of projects), else ``tune``.

Rows whose command (and shell) is already in another corpus file or in
``heldout/heldout.tsv`` are left out (not new); a command met twice is kept once, under the
list read first.

Usage::

    python bench/gen12_harvest.py --lists bench/gen12_lists --write tests/safety/sources_gen12.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.gen11_harvest import main  # noqa: E402  (the same harvest, tag gen12)

if __name__ == "__main__":
    main("gen12")
