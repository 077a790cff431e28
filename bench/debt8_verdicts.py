"""Dump every corpus row's verdict: `(command, shell, cwd) -> (level, sorted findings)`.

`bench.debt7_verdicts` compared levels and rule ids; a refactoring that must change no verdict
also keeps every finding's level and span, and the verdicts given with a block cwd. This dump
prints, per input, the overall level and the sorted `(rule, level, start, end)` of every
finding. Check a refactoring by running it on two checkouts and diffing (zero lines of
difference is the bar):

    PYTHONPATH=/path/to/base python bench/debt8_verdicts.py > /tmp/base.txt
    PYTHONPATH=$PWD          python bench/debt8_verdicts.py > /tmp/mine.txt
    diff /tmp/base.txt /tmp/mine.txt

Inputs: every `tests/safety/*.tsv` and `tests/safety/heldout/*.tsv` row of the checkout this
file is in, so both runs judge the same rows (read exactly as `bench.debt7_verdicts` reads
them: raw, the old `\\n` reading and the `\\x5c` reading), each judged with no cwd and
with the cwds in `CWDS` (`--no-cwd` skips those). Extra TSV files may be given as arguments.
`--reasons` adds each finding's reason.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from aintern_ls.safety import assess

ROOT = Path(__file__).resolve().parents[1]

# A block's cwd changes how relative paths are judged: `/` (everything relative is a system
# path) and an ordinary project folder.
CWDS: tuple[str | None, ...] = (None, "/", "/home/me/project")


def _inputs(paths: list[Path]) -> list[tuple[str, str]]:
    """Every `(text, shell)` the rows hold, read as `bench.debt7_verdicts` reads them (kept
    here so that this file runs against any checkout: `python bench/debt8_verdicts.py`)."""
    seen: set[tuple[str, str]] = set()
    for path in paths:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                command, shell = row.get("command") or "", row.get("shell") or ""
                old = command.replace("\\n", "\n")
                new = "\\".join(p.replace("\\n", "\n") for p in command.split("\\x5c"))
                seen.update((text, shell) for text in (command, old, new))
    return sorted(seen)


def verdict(text: str, shell: str, cwd: str | None, reasons: bool = False) -> str:
    """One line: level, then the sorted findings (rule, level, span[, reason])."""
    try:
        r = assess(text, shell, cwd=cwd)
    except Exception as exc:  # a crash is a verdict too
        return f"ERROR {type(exc).__name__}: {exc}"
    items = sorted(
        (f.rule, f.level.label, f.start, f.end, f.reason if reasons else "") for f in r.findings
    )
    parts = [
        f"{rule}:{lv}:{s}-{e}" + (f":{why}" if reasons else "") for rule, lv, s, e, why in items
    ]
    return f"{r.level.label}\t{' '.join(parts)}"


def main(argv: list[str]) -> None:
    reasons = "--reasons" in argv
    cwds: tuple[str | None, ...] = (None,) if "--no-cwd" in argv else CWDS
    extra = [Path(a) for a in argv if not a.startswith("--")]
    tests = ROOT / "tests" / "safety"
    paths = sorted(tests.glob("*.tsv")) + sorted((tests / "heldout").glob("*.tsv")) + extra
    for text, shell in _inputs(paths):
        for cwd in cwds:
            print(f"{text!r}\t{shell}\t{cwd}\t{verdict(text, shell, cwd, reasons)}")


if __name__ == "__main__":
    main(sys.argv[1:])
