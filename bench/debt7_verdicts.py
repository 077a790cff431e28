"""Dump the analyser's verdict for every corpus row: `command, shell -> level, rule ids`.

A refactoring that must change no verdict is checked by running this on two checkouts and
diffing the outputs (zero lines of difference is the bar):

    PYTHONPATH=/work/main python bench/debt7_verdicts.py > /tmp/main.txt
    PYTHONPATH=$PWD       python bench/debt7_verdicts.py > /tmp/mine.txt
    diff /tmp/main.txt /tmp/mine.txt

Every `tests/safety/*.tsv` and `tests/safety/heldout/*.tsv` row is read as raw text; the
command is judged as written, with every backslash-n read as a newline (the readers up to
session 9) and as `bench/_corpus_figures.decode_command` reads it (`\\x5c` a literal
backslash; spelled out here so that the dump does not depend on the checkout it judges),
so the dump covers what any reader feeds the analyser. Extra TSV files may be given as
arguments.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from aintern_ls.safety import assess

ROOT = Path(__file__).resolve().parents[1]


def _inputs(paths: list[Path]) -> list[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for path in paths:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                command, shell = row.get("command") or "", row.get("shell") or ""
                old = command.replace("\\n", "\n")
                new = "\\".join(p.replace("\\n", "\n") for p in command.split("\\x5c"))
                for text in {command, old, new}:
                    if (text, shell) not in seen:
                        seen.add((text, shell))
                        out.append((text, shell))
    return sorted(out)


def main() -> None:
    tests = ROOT / "tests" / "safety"
    paths = sorted(tests.glob("*.tsv")) + sorted((tests / "heldout").glob("*.tsv"))
    paths += [Path(p) for p in sys.argv[1:]]
    for text, shell in _inputs(paths):
        try:
            r = assess(text, shell)
            verdict = f"{r.level.label}\t{','.join(sorted(f.rule for f in r.findings))}"
        except Exception as exc:  # a crash is a verdict too
            verdict = f"ERROR {type(exc).__name__}: {exc}"
        print(f"{text!r}\t{shell}\t{verdict}")


if __name__ == "__main__":
    main()
