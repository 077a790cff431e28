"""CLI subcommands `assess`, `check` and `rules`: the analyser for scripts and pre-commit hooks."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from aintern_ls.errors import AInternError
from aintern_ls.safety import gate
from aintern_ls.safety.levels import RiskLevel

_SHELLS = ("bash", "sh", "zsh", "ksh", "fish", "console", "powershell", "pwsh", "cmd")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the safety subcommands to the CLI."""
    p = sub.add_parser(
        "assess",
        help="print the safety assessment of a command as JSON",
        description="Assess COMMAND (or, with --jsonl, one JSON object per stdin line: "
        '{"command": ..., "shell": ...}) and print the Assessment as JSON.',
    )
    p.add_argument("command", nargs="?", metavar="COMMAND", help="command or script text")
    p.add_argument("--shell", default="bash", help="bash (default), powershell or cmd")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="batch mode: read JSON lines from stdin, write one assessment per line",
    )
    p.set_defaults(func=cmd_assess)

    c = sub.add_parser(
        "check",
        help="assess every command block of Markdown files; exit 1 if any is blocked",
    )
    c.add_argument("files", nargs="+", metavar="FILE", help="Markdown runbooks or transcripts")
    c.add_argument("--json", action="store_true", help="print the findings as JSON")
    c.set_defaults(func=cmd_check)

    r = sub.add_parser(
        "rules",
        help="list every safety rule id with a one-line summary and an example",
    )
    r.add_argument("--json", action="store_true", help="print the catalogue as JSON")
    r.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    from aintern_ls.safety.catalogue import CATALOGUE

    rules = sorted(CATALOGUE.values(), key=lambda r: r.id)
    if args.json:
        json.dump([r.to_json() for r in rules], sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    width = max(len(r.id) for r in rules)
    for r in rules:
        example = r.example if len(r.example) <= 60 else r.example[:57] + "..."
        example = example.replace("\x00", "\\0")
        sys.stdout.write(
            f"{r.id:<{width}}  {r.summary}\n{'':<{width}}  e.g. ({r.shell}) {example}\n"
        )
    return 0


def cmd_assess(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.command is not None:
            raise AInternError("--jsonl reads commands from stdin; drop the COMMAND argument")
        return _assess_lines(args.shell)
    if args.command is None:
        raise AInternError("give a COMMAND to assess, or --jsonl to read JSON lines from stdin")
    if args.shell.lower() not in _SHELLS and args.shell.lower() not in ("ps1", "bat", "shell"):
        raise AInternError(f"unknown shell {args.shell!r}; use bash, powershell or cmd")
    json.dump(gate.check(args.command, args.shell).to_json(), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _assess_lines(default_shell: str) -> int:
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            command = item["command"]
            shell = item.get("shell") or default_shell
            if not isinstance(command, str) or not isinstance(shell, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, AttributeError):
            raise AInternError(
                f'stdin line {number}: expected {{"command": "...", "shell": "bash"}}'
            ) from None
        out.write(json.dumps(gate.check(command, shell).to_json(), ensure_ascii=False))
        out.write("\n")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from aintern_ls.documents import Document, assess_block
    from aintern_ls.extraction import extract_file
    from aintern_ls.positions import LineIndex

    worst = RiskLevel.SAFE
    report: list[dict[str, Any]] = []
    for name in args.files:
        result = extract_file(name)
        text = Path(name).read_bytes().decode("utf-8", "replace")
        doc = Document(Path(name).resolve().as_uri(), text, result, LineIndex(text))
        for block in result.commands:
            # The same gate as the editor's diagnostics and the run commands (fence env, cwd).
            assessment = assess_block(block, None)
            worst = max(worst, assessment.level)
            line0, col0 = doc.index.position(doc.command_span(block, 0, 0)[0], "utf-32")
            entry: dict[str, Any] = {
                "path": name,
                "line": line0 + 1,
                "column": col0 + 1,
                "level": assessment.level.label,
                "command": block.command,
                "findings": [],
            }
            for f in assessment.findings:
                start, _ = doc.command_span(block, f.start, f.end)
                line, col = doc.index.position(start, "utf-32")
                entry["findings"].append({**f.to_json(), "line": line + 1, "column": col + 1})
                if not args.json:
                    sys.stdout.write(
                        f"{name}:{line + 1}:{col + 1}: {f.level.label} {f.rule}: {f.reason}\n"
                    )
            if not assessment.findings and not args.json:
                sys.stdout.write(f"{name}:{line0 + 1}:{col0 + 1}: safe\n")
            report.append(entry)
    if args.json:
        json.dump(
            {"blocks": report, "worst": worst.label}, sys.stdout, indent=2, ensure_ascii=False
        )
        sys.stdout.write("\n")
    return 1 if worst == RiskLevel.BLOCKED else 0
