"""Build ``tests/safety/sources_gen11.tsv`` from commands in other projects' own test suites.

Issue 14 (gen11): the hidden sets include "commands from other tools' own test suites", and
gen10's dev slice of that source was the weakest (blocked-or-critical 0.914). This turns the
test cases of command gates that no earlier harvest read into labelled rows: Zed's terminal
tool permissions (hardcoded rm rules), kubectl-ai's "modifies resource" filter, OpenCode's
wrapper and arity tests, Desktop Commander's blocklist tests, Codex CLI's safe/dangerous
command tests (Unix and PowerShell; Codex's Windows dangerous list was harvested before),
karanb192/claude-code-hooks' dangerous-command hook, aws-mcp-server's security tests and
shell-safe-rm's safety tests.

Input: a directory of ``*.txt`` lists (and ``later/*.txt``, read after them) written by hand
while reading each project's test file. A list starts with a ``# owner/repo path`` line;
every other line is ``command<TAB>shell<TAB>OUR label<TAB>their verdict`` and, for a label
corrected after scoring, a fifth column saying why. The label was written by the conventions
(DESIGN.md section 5, HELPERS.md "Label conventions") BEFORE the analyser ran on the row;
their verdict is kept in the source column as a hint. Commands use the corpus escapes
(``bench/_corpus_figures.py``).

Split by WHOLE PROJECT, decided before scoring: a project is ``dev`` when the first byte of
``sha256("gen11:" + owner/repo)`` is below 0x55 (about a third of projects), else ``tune``.

Rows whose command (and shell) is already in another corpus file or in
``heldout/heldout.tsv`` are left out (not new); a command met twice is kept once, under the
list read first.

Usage::

    python bench/gen11_harvest.py --lists bench/gen11_lists --write tests/safety/sources_gen11.tsv
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


def split_of(repo: str, tag: str = "gen11") -> str:
    return "dev" if hashlib.sha256((f"{tag}:" + repo).encode()).digest()[0] < 0x55 else "tune"


def known_commands(out: Path) -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    here = ROOT / "tests" / "safety"
    for path in [*sorted(here.glob("*.tsv")), here / "heldout" / "heldout.tsv"]:
        if path.resolve() == out.resolve():
            continue
        for row in read_rows(path):
            seen.add((row.get("command", ""), row.get("shell", "")))
    return seen


def build(lists: Path, out: Path, tag: str = "gen11") -> list[str]:
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
            source = f"{tag}:{repo}:{file} (theirs: {theirs})"
            if note:
                source += f"; {note[0]}"
            lines.append(f"{command}\t{shell}\t{label}\t{split_of(repo, tag)}\t{source}\n")
    return lines


def main(tag: str = "gen11") -> None:
    """The harvest of one tag (gen11, gen12): its lists, its corpus file, its split salt."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--lists", type=Path, default=ROOT / "bench" / f"{tag}_lists")
    parser.add_argument("--write", type=Path, default=ROOT / f"tests/safety/sources_{tag}.tsv")
    args = parser.parse_args()
    lines = build(args.lists, args.write, tag)
    args.write.write_text(HEADER + "".join(lines), encoding="utf-8")
    print(f"{len(lines)} rows -> {args.write}")


if __name__ == "__main__":
    main()
