"""CLI subcommand `blocks FILE [--json]`: the command blocks of a Markdown file."""

from __future__ import annotations

import argparse
import json
import sys

from aintern_ls.extraction import extract_file
from aintern_ls.models import CommandExtractionResult, to_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the extraction subcommands to the CLI."""
    p = sub.add_parser(
        "blocks",
        help="list the shell command blocks of a Markdown runbook or chat transcript",
    )
    p.add_argument("file", metavar="FILE", help="Markdown file to read")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"commands": [...], "warnings": [...]} as JSON',
    )
    p.set_defaults(func=cmd_blocks)
    from aintern_ls.runbook import cli as runbook_cli

    runbook_cli.register(sub)


def cmd_blocks(args: argparse.Namespace) -> int:
    result = extract_file(args.file)
    if args.json:
        json.dump(to_json(result), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_listing(result, str(args.file))
    return 0


def print_listing(result: CommandExtractionResult, name: str) -> None:
    """One line per block (index, id, lines, language, role, command, description)."""
    out = sys.stdout
    count = result.command_count
    out.write(f"{name}: {count} command block{'' if count == 1 else 's'}\n")
    for index, block in enumerate(result.commands, 1):
        lines = f"L{block.start_line + 1}-{block.end_line + 1}"
        first = block.first_line if len(block.first_line) <= 60 else block.first_line[:57] + "..."
        if block.line_count > 1:
            first += f"  (+{block.line_count - 1} lines)"
        out.write(
            f"{index:>3}  {block.id}  {lines:<10} {block.language or '-':<10} "
            f"{block.role or '-':<9} {first}\n"
        )
        if block.description:
            out.write(f"{'':<5}{block.description}\n")
    for warning in result.warnings:
        sys.stderr.write(
            f"{name}:{warning.line + 1}:{warning.character + 1}: warning: {warning.message}\n"
        )
