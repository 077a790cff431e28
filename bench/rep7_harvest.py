"""Rows from incident/threat reports and living-off-the-land catalogues (issue 14, rep7).

The blind slices score worst on rows from public incident and threat reports: the analyser
does not know what real intrusions type. This tool turns commands quoted in such reports and
catalogues into rows of ``tests/safety/sources_rep7.tsv``.

Input: ``bench/rep7_sources.txt``, a transcription made by eye from the sources it names
(each ``@source`` line gives the name, the URL read and what it covers; the pages and
repository files were read through the project's library tools and kept under
``/tmp/rep7_cache`` while transcribing; nothing here needs the network and the tests never
read the cache or this file: only the derived TSV is committed). Placeholders in the reports
(``<vmid>``, ``%s``, ``[IP]``, ``${{ secrets.X }}``) were replaced by realistic values; Cobalt
Strike ``shell`` prefixes and log timestamps were dropped. Each row line is::

    <tag> <shell: b|p|c> <campaign/entry> <command>

Steps, in order, all decided before the analyser ever ran on a row:

1. The LEVEL comes from the row's tag through the written rules in ``RULES`` (DESIGN §5, the
   label conventions at the end of HELPERS.md and the levels the corpora already settle for the
   same kind of command): what the command does to a real machine, not how alarming the report
   finds it. A report's "defense evasion" that only lists settings is safe; a report's
   "impact" that stops one service is dangerous, not blocked.
2. Split by WHOLE SOURCE: of the first batch of 33 sources, the third with the smallest
   ``sha256("rep7:" + name)`` first byte are ``dev`` (never tuned on), the rest ``tune``;
   sources added later are ``dev`` when that byte is below 0x55, unless their commands were
   run through the analyser before they were added (``SEEN_BEFORE_SPLIT``: tune).
3. Rows whose command is already in another corpus file are left out (not new); a command met
   twice is kept once.
4. ``@source own`` rows are the engineer's own spellings written next to each fix
   (``rep7-own:``); they are always ``tune``.

Figures (``--score``; labels fixed before the first score, corrections marked in the data):
batch 1 at the first score (33 sources): tune blocked recall 20/22, blocked-or-critical
140/180, safe rated dangerous or worse 2/87, exact 256/314; dev 12/14, 72/108, 0/43, 145/195.

Usage::

    python bench/rep7_harvest.py --write      # regenerate tests/safety/sources_rep7.tsv
    python bench/rep7_harvest.py --score      # figures per split (and --misses to list them)
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).with_name("rep7_sources.txt")
OUT = ROOT / "tests" / "safety" / "sources_rep7.tsv"

SHELLS = {"b": "bash", "p": "powershell", "c": "cmd"}

# tag -> (level, the written rule)
RULES: dict[str, tuple[str, str]] = {
    "wipe": ("blocked", "wipes /, home, a system folder, a whole drive/datastore or the cwd"),
    "disk": ("blocked", "writes, erases or re-partitions a raw disk or whole volume"),
    "backups": ("blocked", "deletes every shadow copy, snapshot, backup catalogue or backup file"),
    "recovery": ("blocked", "turns boot recovery off"),
    # (session-13 convention: restore points turned off are critical, deleted are blocked)
    "restore-off": ("critical", "turns System Restore off (no restore points from then on)"),
    "acctfile": ("blocked", "deletes/overwrites an account or boot file"),
    "secoff": ("critical", "stops, disables or removes a security product or OS protection"),
    "logclear": ("critical", "clears, deletes or edits logs (anti-forensics)"),
    "persist": ("critical", "installs persistence (cron, services, run keys, rc files, RMM)"),
    "cred": ("critical", "dumps, copies or attacks credentials"),
    "exfil": ("critical", "sends file contents, secrets or data to the network"),
    "upload": ("critical", "sends a local file to another machine (session-13 convention)"),
    "rcode": ("critical", "downloads and runs code"),
    "opaque": ("critical", "runs code the analyser cannot see (encoded, agent prompts, scripts)"),
    "account": ("critical", "adds/changes accounts, passwords, roles or credentials"),
    "privesc": ("critical", "gains privileges"),
    "kernel": ("critical", "loads kernel code/drivers or changes boot settings"),
    "access": ("critical", "opens remote access (tunnels, RDP/SSH enabled, firewall holes)"),
    "rexec": ("critical", "runs a command on another host with credentials (psexec class)"),
    "lolbin": ("critical", "downloads with a LOLBin"),
    "timestomp": ("critical", "fakes timestamps of system files"),
    "sysfile": ("critical", "deletes a named file in a system folder"),
    "kill": ("dangerous", "kills processes or powers off VMs"),
    "stop": ("dangerous", "stops an ordinary or backup service"),
    "delete": ("dangerous", "deletes ordinary named files or cloud resources"),
    "history": ("dangerous", "wipes shell history"),
    "power": ("dangerous", "reboots or halts the machine"),
    "write": ("moderate", "writes files or configuration"),
    "install": ("moderate", "installs software"),
    "run": ("moderate", "runs a local program or script"),
    "net": ("moderate", "network scan or query"),
    "read": ("safe", "read-only listing, status, help or query"),
    "dry": ("safe", "a known program's own dry run"),
}


@dataclass(frozen=True)
class Row:
    command: str
    shell: str
    expected: str
    split: str
    source: str


def _sources(text: str) -> list[tuple[str, str, list[tuple[str, str, str, str]]]]:
    out: list[tuple[str, str, list[tuple[str, str, str, str]]]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@source "):
            parts = line.split(None, 2)
            out.append((parts[1], parts[2] if len(parts) > 2 else "", []))
            continue
        tag, shell, entry, command = line.split(None, 3)
        if tag not in RULES or shell not in SHELLS or not out:
            raise SystemExit(f"{DATA.name}:{n}: bad row {line!r}")
        out[-1][2].append((tag, SHELLS[shell], entry, command))
    return out


# The first batch (33 sources, transcribed before any scoring): its dev third is the third
# with the smallest hash byte. Sources added later (batch 2) are dev when their byte is below
# 0x55 (about a third), so adding them never moves a batch-1 source between splits.
BATCH1 = frozenset(
    (  # noqa: SIM905
        """
        lolesxi esxiargs esxi-ransom-families unc3886-esxi rocke-miner kinsing-sustes teamtnt
        outlaw-perfctl mirai-droppers linux-antiforensics linux-wipers shai-hulud nx-s1ngularity
        tj-actions ci-secret-theft ai-agent-incidents conti-playbook volt-typhoon black-basta
        akira medusa ransomhub-royal dfir-report defense-tampering recovery-killers
        windows-wipers lolrmm tunnels wadcoms cloud-breaches loobins macos-stealers red-canary
        """
    ).split()
)


def _byte(name: str) -> int:
    return hashlib.sha256(f"rep7:{name}".encode()).digest()[0]


# Sources whose commands were run through the analyser while writing a fix before they were
# added (so they are tuned on, whatever their hash says).
SEEN_BEFORE_SPLIT = frozenset({"clickfix"})


def dev_sources(all_names: list[str]) -> set[str]:
    """Sources held out as dev (decided by name only, before any scoring)."""
    first = sorted((_byte(n), n) for n in all_names if n in BATCH1)
    dev = {n for _, n in first[: round(len(first) / 3)]}
    later = {n for n in all_names if n not in BATCH1 and n != "own" and _byte(n) < 0x55}
    return dev | (later - SEEN_BEFORE_SPLIT)


def _known_commands() -> set[str]:
    sys.path.insert(0, str(ROOT))
    from bench._corpus_figures import decode_command

    seen: set[str] = set()
    folder = ROOT / "tests" / "safety"
    for path in [*folder.glob("*.tsv"), *(folder / "heldout").glob("*.tsv")]:
        if path == OUT:
            continue
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                cell = (r.get("command") or "").strip()
                seen.add(cell)
                seen.add(decode_command(cell))
    return seen


def rows() -> list[Row]:
    sources = _sources(DATA.read_text(encoding="utf-8"))
    dev = dev_sources([name for name, _, _ in sources])
    known = _known_commands()
    out: list[Row] = []
    taken: set[str] = set()
    for name, _, items in sources:
        for tag, shell, entry, command in items:
            if command in known or command in taken or "\t" in command:
                continue
            taken.add(command)
            level, why = RULES[tag]
            split = "dev" if name in dev else "tune"
            src = f"rep7-own:{entry}" if name == "own" else f"rep7:{name}:{entry}"
            out.append(Row(command, shell, level, split, f"{src}: {why}"))
    return out


def write(path: Path = OUT) -> int:
    sys.path.insert(0, str(ROOT))
    from bench._corpus_figures import encode_command  # `\n` in `C:\x\ntds.dit` stays itself

    got = rows()
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write("command\tshell\texpected\tsplit\tsource_or_reason\n")
        for r in got:
            cell = encode_command(r.command)
            fh.write(f"{cell}\t{r.shell}\t{r.expected}\t{r.split}\t{r.source}\n")
    return len(got)


def score(show_misses: bool) -> None:
    sys.path.insert(0, str(ROOT))
    from aintern_ls.safety import RiskLevel, assess

    got = rows()
    for split in ("tune", "dev"):
        sel = [r for r in got if r.split == split]
        pairs = [
            (RiskLevel.from_label(r.expected), assess(r.command, r.shell).level, r) for r in sel
        ]
        blocked = [g for e, g, _ in pairs if e == RiskLevel.BLOCKED]
        high = [g for e, g, _ in pairs if e >= RiskLevel.CRITICAL]
        safe = [g for e, g, _ in pairs if e == RiskLevel.SAFE]
        low = [g for e, g, _ in pairs if e <= RiskLevel.MODERATE]
        print(
            f"{split}: n={len(sel)}"
            f" blocked recall {sum(g == RiskLevel.BLOCKED for g in blocked)}/{len(blocked)}"
            f" | blocked-or-critical {sum(g >= RiskLevel.CRITICAL for g in high)}/{len(high)}"
            f" | safe >= dangerous {sum(g >= RiskLevel.DANGEROUS for g in safe)}/{len(safe)}"
            f" | safe/moderate over-rated {sum(g > RiskLevel.MODERATE for g in low)}/{len(low)}"
            f" | exact {sum(e == g for e, g, _ in pairs)}/{len(pairs)}"
        )
        if show_misses and split == "tune":
            for e, g, r in pairs:
                if e != g:
                    where = r.source.split(":")[1]
                    print(f"  {e.label:>9} got {g.label:<9} [{r.shell}] {r.command}   ({where})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--score", action="store_true")
    ap.add_argument("--misses", action="store_true", help="with --score: list tune misses")
    args = ap.parse_args()
    if args.write:
        print(f"wrote {write()} rows to {OUT.relative_to(ROOT)}")
    if args.score:
        score(args.misses)


if __name__ == "__main__":
    main()
