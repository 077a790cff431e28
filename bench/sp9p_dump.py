"""Dump every verdict in full, for refactorings that must change none (speed work).

`python -m bench.sp9p_dump [--shell powershell] [--no-cwd] > FILE`

For every `(command, shell, cwd)`: each row of `tests/safety/*.tsv` and
`tests/safety/heldout/*.tsv` (read as written, with `\\n` a newline, and as
`bench/_corpus_figures.decode_command` reads it), judged with no cwd and with a cwd of `/`
(bash) or `C:\\` (PowerShell, cmd), plus the bench's pathological inputs of 10,000
characters in every shell; it prints the level, the sorted rule ids with their spans, and
the work budget's steps spent. Run it on two checkouts and diff the outputs: zero lines of
difference is the bar (steps may differ only where step accounting was changed on purpose).
The cache is bypassed: every input is parsed from scratch.
"""

from __future__ import annotations

import argparse
import csv
import sys
import zlib
from pathlib import Path

from aintern_ls.safety import budget
from aintern_ls.safety.analyser import _assess_cached, shell_family

ROOT = Path(__file__).resolve().parents[1]
CWD = {"bash": "/", "console": "/", "powershell": "C:\\", "cmd": "C:\\"}


def _rule(rule: str, reason: str) -> str:
    """The rule id; a cut by Python's recursion limit is told from a cut by the budget."""
    return (
        rule + "(recursion)"
        if rule == "too-complex" and reason == "too deeply nested to analyse"
        else rule
    )


def _rows(paths: list[Path]) -> list[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for path in paths:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                command, shell = row.get("command") or "", row.get("shell") or ""
                old = command.replace("\\n", "\n")
                new = "\\".join(p.replace("\\n", "\n") for p in command.split("\\x5c"))
                for text in (command, old, new):
                    if (text, shell) not in seen:
                        seen.add((text, shell))
                        out.append((text, shell))
    return out


def _pathological() -> list[tuple[str, str]]:
    sys.path.insert(0, str(ROOT))
    from tests.safety.test_safety_limits import _pathological as p1
    from tests.safety.test_safety_sp5_speed import adversarial
    from tests.safety.test_safety_sp6_speed import more_shapes

    shapes = {**p1(10_000), **adversarial(10_000), **more_shapes(10_000)}
    return [(text, shell) for text in shapes.values() for shell in ("bash", "powershell", "cmd")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shell", help="only this shell family")
    parser.add_argument("--no-cwd", action="store_true", help="skip the runs with a cwd")
    parser.add_argument("--no-pathological", action="store_true")
    parser.add_argument("tsv", nargs="*", type=Path, help="extra TSV files")
    args = parser.parse_args()
    tests = ROOT / "tests" / "safety"
    paths = sorted(tests.glob("*.tsv")) + sorted((tests / "heldout").glob("*.tsv")) + args.tsv
    inputs = _rows(paths) + ([] if args.no_pathological else _pathological())
    analyse = _assess_cached.__wrapped__
    done: set[tuple[str, str, str | None]] = set()
    for text, shell in inputs:
        family = shell_family(shell)
        if args.shell and family != args.shell:
            continue
        for cwd in (None,) if args.no_cwd else (None, CWD.get(family, "/")):
            if (text, family, cwd) in done:
                continue
            done.add((text, family, cwd))
            try:
                r = analyse(text, family, None, cwd)
                found = sorted(
                    f"{_rule(f.rule, f.reason)}@{f.start}:{f.end}:{f.level.label}"
                    for f in r.findings
                )
                verdict = f"{r.level.label}\t{' '.join(found)}\t{budget.spent():.0f}"
            except Exception as exc:  # a crash is a verdict too
                verdict = f"ERROR {type(exc).__name__}: {exc}"
            print(
                f"{text[:300]!r}#{len(text)}#{zlib.crc32(text.encode()):08x}\t{family}\t{cwd}\t{verdict}"
            )


if __name__ == "__main__":
    main()
