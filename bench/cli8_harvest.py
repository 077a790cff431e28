"""Turn long-tail CLIs' reference documentation into labelled corpus rows (issue 14, cli8).

Blind slices keep missing destructive operations of programs nobody here wrote down: a cloud
backup service's `delete-recovery-point`, an option that deletes backups with the resource it
names (`--delete-backup-data`, `--delete-automated-backups`), a container runtime's `--prune`,
a desktop trash's `--empty`. This tool turns what the CLIs' own reference pages say into rows
of ``tests/safety/sources_cli8.tsv``.

Input: ``bench/cli8_templates.txt``. Each block names one CLI and the reference page its rows
were written from (the page was read through the project's library tools; nothing here needs
the network and the tests never fetch anything), followed by concrete command lines, each
with a CATEGORY: what the documented operation does.

Steps, in order, all decided before the analyser ever ran on a row:

1. Parse the templates (every row belongs to the CLI of its block).
2. Label each row from its CATEGORY with the written table ``LABELS`` (DESIGN §5 + the label
   conventions at the end of HELPERS.md):

   - ``backup`` -> blocked: the copies to recover from are lost: a backup service's backup,
     recovery point or vault deleted (the noun *backup*, whatever the CLI), an option that
     deletes a resource's backups or snapshots with it, a backup retention set to zero, a
     backup tool's whole repository or every snapshot it keeps, any `tmutil`/`wbadmin`
     deletion (HELPERS, session 6). A retention policy that keeps some (`--keep-daily 7`,
     `-deleteOldest`) and one named *snapshot* or *archive* are ``delete``.
   - ``wipe`` -> blocked: aimed at the whole system (`/`, a home, a system folder, an
     essential package such as libc, every installed package).
   - ``audit`` -> critical: an audit trail or the logs' destination deleted (anti-forensics).
   - ``recovery-off`` -> critical: backups turned off without deleting them (`tmutil disable`).
   - ``delete`` -> dangerous: an ordinary named resource deleted, emptied, pruned, reset or
     flushed (an instance, a cluster, a project, a database, a bucket, a volume, the trash).
   - ``change`` / ``query`` -> moderate: creates, updates, installs, package removals, stops,
     moves to the trash; a read-only query sent to a database server through its client.
   - ``read`` -> safe: listings, descriptions, status, a known CLI's own documented dry run or
     preview (session-8 convention).
3. Split by whole CLI: ``dev`` when the first byte of ``sha256("cli8:" + cli)`` is below 0x55
   (about a third of the CLIs), else ``tune``. Dev CLIs are never tuned on.
4. Rows whose command already appears in another corpus file are left out (not new); a
   command met twice is kept once (the first block wins).

Usage::

    python bench/cli8_harvest.py [--write]          # (re)write tests/safety/sources_cli8.tsv
    python bench/cli8_harvest.py --score [--show]   # figures per split, per CLI, the misses
    python bench/cli8_harvest.py --templates bench/cli9_templates.txt --score   # another set

Another templates file ``bench/<tag>_templates.txt`` is read the same way: its rows go to
``tests/safety/sources_<tag>.tsv`` and its split hashes ``"<tag>:" + cli`` (so each set picks
its own dev CLIs).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._corpus_figures import decode_command, encode_command  # noqa: E402

TEMPLATES = Path(__file__).with_name("cli8_templates.txt")
OUT = ROOT / "tests" / "safety" / "sources_cli8.tsv"
# The set being read: "cli8" unless --templates names bench/<tag>_templates.txt.
TAG = "cli8"
HEADER = "command\tshell\texpected\tsplit\tsource_or_reason"

LABELS = {
    "backup": "blocked",
    "wipe": "blocked",
    "audit": "critical",
    "recovery-off": "critical",
    "exfil": "critical",
    "upload": "critical",  # (session-13 convention: a local file sent to another machine)
    "delete": "dangerous",
    "change": "moderate",
    "query": "safe",
    "read": "safe",
    "persist": "critical",
    "security-off": "critical",
}
SHELLS = frozenset({"bash", "powershell", "cmd"})


@dataclass(frozen=True)
class Row:
    cli: str
    page: str
    category: str
    shell: str
    command: str

    @property
    def expected(self) -> str:
        return LABELS[self.category]

    @property
    def split(self) -> str:
        return split_of(self.cli)

    @property
    def source(self) -> str:
        return f"{TAG}:{self.cli}:{self.page} ({self.category})"


def use_templates(path: Path) -> None:
    """Read `path` (bench/<tag>_templates.txt) instead: rows to sources_<tag>.tsv."""
    global TEMPLATES, OUT, TAG
    stem = path.name.removesuffix(".txt")
    if not stem.endswith("_templates"):
        raise SystemExit(f"{path}: expected a name <tag>_templates.txt")
    TAG = stem.removesuffix("_templates")
    TEMPLATES = path
    OUT = ROOT / "tests" / "safety" / f"sources_{TAG}.tsv"


def split_of(cli: str) -> str:
    """`dev` for about a third of the CLIs, by a hash of the name alone."""
    return "dev" if hashlib.sha256(f"{TAG}:{cli}".encode()).digest()[0] < 0x55 else "tune"


def parse(text: str) -> list[Row]:
    rows: list[Row] = []
    cli = page = ""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@ "):
            cli, _, page = (part.strip() for part in line[2:].partition("|"))
            if not cli or not page:
                raise ValueError(f"line {n}: a block needs `@ cli | page`")
            continue
        head, sep, command = line.partition(" | ")
        parts = head.split()
        if not sep or len(parts) != 2 or not command.strip():
            raise ValueError(f"line {n}: expected `<category> <shell> | <command>`")
        category, shell = parts
        if category not in LABELS:
            raise ValueError(f"line {n}: unknown category {category!r}")
        if shell not in SHELLS:
            raise ValueError(f"line {n}: unknown shell {shell!r}")
        if not cli:
            raise ValueError(f"line {n}: a row before any `@` block")
        rows.append(Row(cli, page, category, shell, command.strip()))
    return rows


# Blind slices frozen after these rows were committed: written by people who never saw
# them, they may repeat a template's command (blind12 repeats three cli9 rows); the rows
# already committed stay, so the harvest must not drop them.
_FROZEN_AFTER = frozenset(
    {
        "blind12.tsv",
        "blind13.tsv",
        "blind14.tsv",
        "blind15.tsv",
        "blind16.tsv",
        "blind17.tsv",
        "blind18.tsv",
        "blind19.tsv",
        "blind20.tsv",
    }
)


def known_commands() -> set[str]:
    """Commands already in another corpus file (whitespace-normalised)."""
    seen: set[str] = set()
    folder = ROOT / "tests" / "safety"
    for path in [*folder.glob("*.tsv"), *(folder / "heldout").glob("*.tsv")]:
        if path.name == OUT.name or path.name in _FROZEN_AFTER:
            continue
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            cell = line.split("\t", 1)[0]
            seen.add(" ".join(decode_command(cell).split()))
    return seen


def harvest() -> list[Row]:
    known = known_commands()
    kept: list[Row] = []
    met: set[str] = set()
    for row in parse(TEMPLATES.read_text(encoding="utf-8")):
        key = " ".join(row.command.split())
        if key in known or key in met:
            continue
        met.add(key)
        kept.append(row)
    return kept


def render(rows: list[Row]) -> str:
    lines = [HEADER]
    for r in rows:
        cells = (encode_command(r.command), r.shell, r.expected, r.split, r.source)
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def score(rows: list[Row], show: bool) -> None:
    from aintern_ls.safety import RiskLevel, assess
    from bench._corpus_figures import figures

    by_split: dict[str, list[tuple[RiskLevel, RiskLevel]]] = defaultdict(list)
    misses: list[tuple[Row, str]] = []
    per_cli: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        exp = RiskLevel.from_label(r.expected)
        got = assess(r.command, r.shell).level
        by_split[r.split].append((exp, got))
        per_cli[r.cli]["n"] += 1
        if got != exp:
            per_cli[r.cli]["wrong"] += 1
            misses.append((r, got.label))
    for split in ("tune", "dev"):
        pairs = by_split.get(split, [])
        if not pairs:
            continue
        fig = figures(pairs)
        clis = sorted({r.cli for r in rows if r.split == split})
        print(
            f"{split}: n={len(pairs)} blocked recall {fig.blocked_recall:.3f} "
            f"blocked-or-critical {fig.high_recall:.3f} safe>=dangerous "
            f"{fig.safe_over_flagged:.3f} exact {fig.exact_agreement:.3f}  CLIs: {' '.join(clis)}"
        )
    if show:
        for r, got in misses:
            print(f"  [{r.split}] {r.expected:>9} got {got:<9} {r.shell:<10} {r.command}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    ap.add_argument("--score", action="store_true", help="score the analyser on the rows")
    ap.add_argument("--show", action="store_true", help="with --score: list every miss")
    ap.add_argument("--split", choices=("tune", "dev"), help="with --score: one split only")
    ap.add_argument("--templates", type=Path, help="bench/<tag>_templates.txt (default cli8)")
    args = ap.parse_args(argv)
    if args.templates is not None:
        use_templates(args.templates)
    rows = harvest()
    if args.write:
        OUT.write_text(render(rows), encoding="utf-8")
    counts = Counter(r.expected for r in rows)
    splits = Counter(r.split for r in rows)
    print(f"{len(rows)} rows {dict(counts)} {dict(splits)}", file=sys.stderr)
    if args.score:
        score([r for r in rows if args.split in (None, r.split)], args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
