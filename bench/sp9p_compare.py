"""Compare two `bench/sp9p_dump.py` outputs: `python -m bench.sp9p_compare OLD NEW`.

Prints every input whose verdict (level, rule ids, spans, finding levels) differs, then every
input whose verdict is the same but whose work-budget steps differ, marking those cut by
Python's recursion limit ("too deeply nested": where that cut falls moves with the depth of
the deepest call, not with the step accounting). Exits 1 when any verdict differs or any
input not cut by the recursion limit spent different steps.
"""

from __future__ import annotations

import sys


def _read(path: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """(text, shell, cwd) -> (level, findings, steps); the text's repr holds no tab."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            out[tuple(parts[:3])] = tuple([*parts[3:], "", "", ""])[:3]
    return out


def main() -> None:
    old, new = _read(sys.argv[1]), _read(sys.argv[2])
    verdicts = steps = 0
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a is None or b is None or a[:2] != b[:2]:
            verdicts += 1
            print(f"VERDICT {key[0][:100]} ({key[1]}, cwd {key[2]}): {a} -> {b}")
        elif a[2] != b[2]:
            recursion = "too-complex(recursion)" in a[1]
            steps += not recursion
            print(
                f"{'steps (cut)' if recursion else 'STEPS'} {key[0][:80]}"
                f" ({key[1]}): {a[2]} -> {b[2]}"
            )
    print(f"{len(new)} inputs; {verdicts} verdicts differ; {steps} uncut inputs spent other steps")
    sys.exit(1 if verdicts or steps else 0)


if __name__ == "__main__":
    main()
