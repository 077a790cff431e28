"""Turn detection rules (Sigma, Elastic, Splunk) into labelled corpus rows (issue 14, sig7).

The hidden sets draw from incident reports and from other tools' catalogues; detection engineers
have already written down, rule by rule, what attackers type. This tool turns those rules into
rows of ``tests/safety/sources_sig7.tsv``.

Input: ``bench/sig7_templates.txt``. Each block there names one rule (repository alias, path,
ATT&CK tactic, title, and the command-line fragments the rule matches) followed by concrete
command lines: ``+`` rows the rule fires on (the fragments filled into a plausible full command,
from the rule's title, references and fragments) and ``-`` look-alikes taken from the rule's
``falsepositives`` and filters (legitimate admin use). The rule texts were read through the
project's library tools; ``--cache DIR`` (default ``/tmp/sig7_cache``) keeps a copy of the rule
metadata (title, fragments, tactic) one file per rule, so a later run can check the templates
against what was read. Nothing here needs the network and the tests never read the cache: only
the derived rows are committed.

Steps, in order, all decided before the analyser ever ran on a row:

1. Parse the templates; every ``+`` row must contain at least one of its rule's fragments
   (case-insensitive), so a row is something the rule really fires on.
2. Label each row from its CATEGORY with the written table ``LABELS`` (DESIGN §5 + the label
   conventions at the end of HELPERS.md): what the command does to a real machine decides, never
   the rule's own ``level:`` (a Sigma ``high`` is often reconnaissance here: safe).
3. Split by whole rule FOLDER + TACTIC: ``dev`` when the first byte of
   ``sha256("sig7:" + folder + ":" + tactic)`` is below 0x55 (about a third of the groups), else
   ``tune``. Dev groups are never tuned on.
4. Rows whose command already appears in another corpus file are left out (not new); a command
   met twice is kept once (the first block wins).

Usage::

    python bench/sig7_harvest.py [--write tests/safety/sources_sig7.tsv] [--cache DIR]
    python bench/sig7_harvest.py --score [--show]    # figures per split, per repo, per category
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._corpus_figures import decode_command, encode_command  # noqa: E402

TEMPLATES = Path(__file__).with_name("sig7_templates.txt")
OWN = Path(__file__).with_name("sig7_own.txt")
OUT = ROOT / "tests" / "safety" / "sources_sig7.tsv"

REPOS = {
    "sigma": "SigmaHQ/sigma",
    "elastic": "elastic/detection-rules",
    "splunk": "splunk/security_content",
    "own": "own",
}

# The written labelling rules: category -> (our level, why). Decided before any scoring.
LABELS: dict[str, tuple[str, str]] = {
    "wipe": ("blocked", "irreversible destruction of a disk, the system, home or a system folder"),
    "backup": ("blocked", "backups / shadow copies / backup catalogue deleted (HELPERS s6)"),
    "recovery": (
        "blocked",
        "boot recovery turned off (HELPERS s6: recoveryenabled/bootstatuspolicy)",
    ),
    "logs": ("critical", "logs or auditing cleared, shrunk or turned off: anti-forensics (s6/s8)"),
    "timestomp": ("critical", "timestamps of logs / system files changed: anti-forensics (s9)"),
    "secoff": ("critical", "turns off, weakens or removes a security product or OS protection"),
    "persist": ("critical", "persistence: autostart, scheduled job, service, launch item, rc file"),
    "account": ("critical", "account or privilege change (new user, admin group, root enabled)"),
    "cred": ("critical", "credential material dumped, copied or staged"),
    "lolbin-dl": ("critical", "download with a LOLBin (HELPERS s7)"),
    "remote-code": ("critical", "code fetched from the network and executed"),
    "remote-access": (
        "critical",
        "opens remote control of the machine (reverse shell / tunnel in)",
    ),
    "exfil": ("critical", "file contents, secrets or command output sent to the network"),
    "opaque": ("critical", "executes text the analyser cannot see (unknown encoded payload)"),
    "privesc": ("critical", "privilege escalation (setuid, host namespaces, injection, doas)"),
    "kernel": ("critical", "kernel module or boot security setting changed"),
    "sysfile": ("critical", "a named file inside a system folder deleted (HELPERS s7)"),
    "history": ("dangerous", "shell history wiped (HELPERS s6: history wipes are dangerous)"),
    "stop": ("dangerous", "kills or stops ordinary processes, services, VMs or the machine"),
    "delete": ("dangerous", "deletes or uninstalls named, ordinary things (scoped)"),
    "write": ("moderate", "writes or changes ordinary files or settings"),
    "net": ("moderate", "network access that sends no local data"),
    "run": ("moderate", "runs a local program or script, or installs/uninstalls an ordinary one"),
    "read": ("safe", "read-only query or discovery"),
    "dry": ("safe", "a known program's own dry-run / debug mode"),
    "help": ("safe", "a known program's help"),
}

TACTICS = {
    "defense_evasion": "defense-evasion",
    "stealth": "defense-evasion",
    "defense-impairment": "defense-evasion",
}


@dataclass(frozen=True)
class Rule:
    repo: str
    path: str
    tactic: str
    title: str
    fragments: tuple[str, ...]

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0]

    @property
    def group(self) -> str:
        return f"{self.folder}:{self.tactic}"


@dataclass(frozen=True)
class Row:
    command: str
    shell: str
    category: str
    fires: bool
    rule: Rule

    @property
    def expected(self) -> str:
        return LABELS[self.category][0]

    @property
    def split(self) -> str:
        return "tune" if self.rule.repo == "own" else split_of(self.rule.group)

    @property
    def source(self) -> str:
        kind = "fires" if self.fires else "look-alike from falsepositives/filters"
        why = LABELS[self.category][1]
        if self.rule.repo == "own":
            kind = "own spelling" if self.fires else "own look-alike"
            return f"sig7-own:{self.rule.path} ({self.rule.title}; {kind}; {self.category}: {why})"
        return (
            f"sig7:{REPOS[self.rule.repo]}:{self.rule.path} "
            f"({self.rule.title}; {kind}; {self.category}: {why})"
        )


def split_of(group: str) -> str:
    return "dev" if hashlib.sha256(f"sig7:{group}".encode()).digest()[0] < 0x55 else "tune"


def parse(text: str) -> list[Row]:
    rows: list[Row] = []
    rule: Rule | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@ "):
            head, tactic, title, *frag = (p.strip() for p in line[2:].split(" | "))
            alias, path = head.split(" ", 1)
            if alias not in REPOS:
                raise SystemExit(f"line {n}: unknown repo alias {alias!r}")
            tactic = TACTICS.get(tactic, tactic)
            frags = tuple(f.strip() for f in frag[0].split(";") if f.strip()) if frag else ()
            rule = Rule(alias, path.strip(), tactic, title, frags)
            continue
        if line[:2] not in ("+ ", "- ") or rule is None:
            raise SystemExit(f"line {n}: expected a rule line or a row: {line!r}")
        meta, command = line[2:].split(" | ", 1)
        shell, category = meta.split()
        if shell not in ("bash", "powershell", "cmd"):
            raise SystemExit(f"line {n}: unknown shell {shell!r}")
        if category not in LABELS:
            raise SystemExit(f"line {n}: unknown category {category!r}")
        fires = line[0] == "+"
        if fires and rule.fragments:
            low = command.replace("\\ ", " ").lower()
            if not any(f.lower() in low for f in rule.fragments):
                raise SystemExit(f"line {n}: {command!r} holds none of {rule.fragments}")
        rows.append(Row(command, shell, category, fires, rule))
    return rows


def _known_commands() -> set[str]:
    known: set[str] = set()
    for path in sorted((ROOT / "tests" / "safety").rglob("*.tsv")):
        if path == OUT:
            continue
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                cmd = r.get("command")
                if cmd:
                    known.add(decode_command(cmd))
    return known


def harvest(known: set[str] | None = None) -> list[Row]:
    """The rows the templates make, less those another corpus file already holds (`known`:
    by default every other TSV under tests/safety, read now)."""
    known = _known_commands() if known is None else known
    seen: set[str] = set()
    out: list[Row] = []
    text = TEMPLATES.read_text(encoding="utf-8") + "\n" + OWN.read_text(encoding="utf-8")
    for row in parse(text):
        if row.command in known or row.command in seen or "\t" in row.command:
            continue
        seen.add(row.command)
        out.append(row)
    return out


def write_cache(rows: list[Row], cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    rules = {r.rule for r in rows}
    for rule in rules:
        name = f"{REPOS[rule.repo]}/{rule.path}".replace("/", "__")
        meta = {"title": rule.title, "tactic": rule.tactic, "fragments": list(rule.fragments)}
        (cache / f"{name}.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")


def write_tsv(rows: list[Row], out: Path) -> None:
    with out.open("w", encoding="utf-8", newline="") as fh:
        fh.write("command\tshell\texpected\tsplit\tsource_or_reason\n")
        for r in rows:
            fh.write(
                f"{encode_command(r.command)}\t{r.shell}\t{r.expected}\t{r.split}\t{r.source}\n"
            )


def score(show: bool) -> int:
    sys.path.insert(0, str(ROOT))
    from aintern_ls.safety import RiskLevel, assess

    rows = harvest()
    by: dict[str, list[tuple[Row, RiskLevel]]] = defaultdict(list)
    for r in rows:
        got = assess(r.command, r.shell).level
        by[r.split].append((r, got))
        by[f"{r.split}:{r.rule.repo}"].append((r, got))
    for key in sorted(by):
        pairs = by[key]
        exp = [(RiskLevel.from_label(r.expected), g) for r, g in pairs]
        blocked = [g for e, g in exp if e == RiskLevel.BLOCKED]
        high = [g for e, g in exp if e >= RiskLevel.CRITICAL]
        safe = [g for e, g in exp if e == RiskLevel.SAFE]
        look = [g for (r, _), (e, g) in zip(pairs, exp, strict=True) if not r.fires]
        print(
            f"{key:16} n={len(pairs):4} blocked={_pct(blocked, RiskLevel.BLOCKED)} "
            f"(n={len(blocked)}) b-or-c={_pct_ge(high, RiskLevel.CRITICAL)} (n={len(high)}) "
            f"safe>=dangerous={_pct_ge(safe, RiskLevel.DANGEROUS)} (n={len(safe)}) "
            f"exact={sum(e == g for e, g in exp) / max(1, len(exp)):.3f} look-alikes={len(look)}"
        )
    if show:
        for r, got in by["tune"]:
            if got.label != r.expected:
                print(f"  [{r.category}] {r.expected} -> {got.label}\t{r.shell}\t{r.command}")
    cats = Counter(r.expected for r in rows)
    print("levels:", dict(cats), "shells:", dict(Counter(r.shell for r in rows)))
    return 0


def _pct(levels: list[object], target: object) -> str:
    return f"{sum(g == target for g in levels) / max(1, len(levels)):.3f}"


def _pct_ge(levels: list[object], target: object) -> str:
    return f"{sum(g >= target for g in levels) / max(1, len(levels)):.3f}"  # type: ignore[operator]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--write", type=Path, help="write the rows to this TSV")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/sig7_cache"))
    ap.add_argument("--score", action="store_true", help="score the rows against the analyser")
    ap.add_argument("--show", action="store_true", help="with --score, print tune disagreements")
    args = ap.parse_args(argv)
    if args.score:
        return score(args.show)
    rows = harvest()
    write_cache(rows, args.cache)
    if args.write:
        write_tsv(rows, args.write)
    splits = Counter(r.split for r in rows)
    levels = Counter(r.expected for r in rows)
    print(
        f"{len(rows)} rows from {len({r.rule for r in rows})} rules; splits {dict(splits)}; "
        f"levels {dict(levels)}; look-alikes {sum(not r.fires for r in rows)}; "
        f"per repo {dict(Counter(r.rule.repo for r in rows))}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
