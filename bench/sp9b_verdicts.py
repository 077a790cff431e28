"""Dump every verdict the speed work must not change: `python -m bench.sp9b_verdicts [OUT]`.

For every `(command, shell, cwd)` it judges, one line: the level, every finding (rule id,
level, span, reason) in order, and the work-budget steps the assessment spent (a change in
steps moves where a long input is cut, so it is a verdict change too). The inputs:

- every row of `tests/safety/*.tsv` and `tests/safety/heldout/*.tsv` (the command decoded as
  `bench/_corpus_figures.decode_command` reads it and with every backslash-n a newline),
  each judged with no cwd, with `cwd=/` and with `cwd=/home/me/project` (relative paths are
  judged against the cwd), and PowerShell and cmd rows also with `cwd=C:\\`;
- the bench's sample (`bench.safety.variants`: 3000 distinct corpus rows, a seeded uniform
  sample over every corpus file, judged here with no cwd);
- the bench's pathological inputs of 10,000 characters in every shell (those cut by the
  budget are where a step count matters most).

Run on two checkouts and diff (zero lines of difference is the bar), each from INSIDE the
checkout it judges: under `python -m` the current directory comes first on `sys.path`, so
`cd mine && PYTHONPATH=/work/main python -m …` judges with mine's code, not main's:

    git archive main | tar -x -C /tmp/m
    (cd /tmp/m && PYTHONPATH=/tmp/m python -m bench.sp9b_verdicts /tmp/main.txt)
    (cd /work/wt/NAME && PYTHONPATH=$PWD python -m bench.sp9b_verdicts /tmp/mine.txt)
    diff /tmp/main.txt /tmp/mine.txt

The inputs are read from the checkout this file is in (`ROOT`): when the two checkouts'
corpora differ, the rows only one of them has show up in the diff too.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CWDS: tuple[str | None, ...] = (None, "/", "/home/me/project")
# PowerShell and cmd blocks are also judged from a drive root (`cd C:\` then `del /s *`).
WINDOWS_CWDS: tuple[str | None, ...] = ("C:\\",)


def _decode(cell: str) -> set[str]:
    old = cell.replace("\\n", "\n")
    new = "\\".join(p.replace("\\n", "\n") for p in cell.split("\\x5c"))
    return {cell, old, new}


def corpus_inputs() -> list[tuple[str, str, str | None]]:
    tests = ROOT / "tests" / "safety"
    paths = sorted(tests.glob("*.tsv")) + sorted((tests / "heldout").glob("*.tsv"))
    seen: set[tuple[str, str, str | None]] = set()
    out: list[tuple[str, str, str | None]] = []
    for path in paths:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                shell = row.get("shell") or ""
                cwds = CWDS + (WINDOWS_CWDS if _windows(shell) else ())
                for text in sorted(_decode(row.get("command") or "")):
                    for cwd in cwds:
                        key = (text, shell, cwd)
                        if key not in seen:
                            seen.add(key)
                            out.append(key)
    return out


def _windows(shell: str) -> bool:
    from aintern_ls.safety.analyser import shell_family

    return shell_family(shell) in ("powershell", "cmd")


def other_inputs() -> list[tuple[str, str, str | None]]:
    from bench.safety import corpus_commands, variants
    from tests.safety.test_safety_limits import _pathological
    from tests.safety.test_safety_sp5_speed import adversarial
    from tests.safety.test_safety_sp6_speed import more_shapes

    out: list[tuple[str, str, str | None]] = [
        (c, s, None) for c, s in variants(corpus_commands(), 3000)
    ]
    shapes = {**_pathological(10_000), **adversarial(10_000), **more_shapes(10_000)}
    for _label, text in sorted(shapes.items()):
        for family in ("bash", "powershell", "cmd"):
            out.append((text, family, None))
    return out


def verdict(text: str, shell: str, cwd: str | None) -> str:
    from aintern_ls.safety import budget
    from aintern_ls.safety.analyser import _assess_cached, shell_family

    try:
        r = _assess_cached.__wrapped__(text, shell_family(shell), None, cwd)
    except Exception as exc:  # a crash is a verdict too
        return f"ERROR {type(exc).__name__}: {exc}"
    found = ";".join(f"{f.rule}/{f.level.label}/{f.start}-{f.end}/{f.reason}" for f in r.findings)
    steps = f"{budget.spent():.0f}"
    if any(f.reason == _TOO_DEEP for f in r.findings):
        # Cut by Python's recursion limit, which counts the caller's frames too: the steps
        # spent before it depend on how deep the dump calls the analyser (main 92d1d38:
        # 4585, 4584, 4583, 4553 steps from +0, +1, +3, +10 frames), not on the analyser.
        steps = "recursion-cut"
    return f"{r.level.label}\t{steps}\t{found}"


_TOO_DEEP = "too deeply nested to analyse"


def main() -> None:
    lines = []
    for text, shell, cwd in corpus_inputs() + other_inputs():
        shown = text if len(text) < 300 else f"{text[:200]!r}...({len(text)} chars)"
        lines.append(f"{shown!r}\t{shell}\t{cwd}\t{verdict(text, shell, cwd)}\n")
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text("".join(lines), encoding="utf-8")
    else:
        sys.stdout.write("".join(lines))


if __name__ == "__main__":
    main()
