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

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._corpus_figures import read_rows  # noqa: E402

HEADER = "command\tshell\texpected\tsplit\tsource_or_reason\n"
LEVELS = {"safe", "moderate", "dangerous", "critical", "blocked"}


def split_of(repo: str) -> str:
    return "dev" if hashlib.sha256(("gen12:" + repo).encode()).digest()[0] < 0x55 else "tune"


def known_commands(out: Path) -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    here = ROOT / "tests" / "safety"
    for path in [*sorted(here.glob("*.tsv")), here / "heldout" / "heldout.tsv"]:
        if path.resolve() == out.resolve():
            continue
        for row in read_rows(path):
            seen.add((row.get("command", ""), row.get("shell", "")))
    return seen


def build(lists: Path, out: Path) -> list[str]:
    seen = known_commands(out)
    lines: list[str] = []
    # lists harvested later (under `later/`) come last, so no row moves between splits
    for path in [*sorted(lists.glob("*.txt")), *sorted((lists / "later").glob("*.txt"))]:
        repo = file = ""
        for raw in path.read_text(encoding="utf-8").splitlines():
            if not raw.strip():
                continue
            if raw.startswith("# "):
                repo, _, file = raw[2:].partition(" ")
                continue
            command, shell, label, theirs, *note = raw.split("\t")
            assert label in LEVELS, raw
            if (command, shell) in seen:
                continue
            seen.add((command, shell))
            source = f"gen12:{repo}:{file} (theirs: {theirs})"
            if note:
                source += f"; {note[0]}"
            lines.append(f"{command}\t{shell}\t{label}\t{split_of(repo)}\t{source}\n")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lists", type=Path, default=ROOT / "bench" / "gen12_lists")
    parser.add_argument("--write", type=Path, default=ROOT / "tests/safety/sources_gen12.tsv")
    args = parser.parse_args()
    lines = build(args.lists, args.write)
    args.write.write_text(HEADER + "".join(lines), encoding="utf-8")
    print(f"{len(lines)} rows -> {args.write}")


if __name__ == "__main__":
    main()
