"""CLI subcommand `aintern-ls run FILE --block N`: one block through the safety gate and
the one-shot runner.

Exit status: the command's own exit code, so scripts can use it; 124 when it timed out,
130 when interrupted, 2 when the block was refused (blocked, or dangerous without
`--yes`) or the request was invalid.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from typing import Any

from aintern_ls.errors import AInternError
from aintern_ls.models import to_json
from aintern_ls.terminal.runner import DEFAULT_TIMEOUT_SECONDS, RunResult, run_command

log = logging.getLogger(__name__)

EXIT_REFUSED = 2
EXIT_TIMED_OUT = 124
EXIT_CANCELLED = 130


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the terminal subcommands to the CLI."""
    p = sub.add_parser(
        "run",
        help="run one command block of a Markdown file in a pseudo-terminal",
        description="Run one command block (as listed by `aintern-ls blocks`) in a real PTY.",
    )
    p.add_argument("file", help="Markdown or chat file")
    p.add_argument(
        "--block", required=True, metavar="N", help="1-based block number, or a block id"
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help=f"seconds before the command is killed (default {DEFAULT_TIMEOUT_SECONDS:g}, max 600)",
    )
    p.add_argument(
        "--cwd",
        help="working directory (default: the block's cwd option, else the file's directory)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--yes", action="store_true", help="confirm a dangerous or critical command")
    p.add_argument(
        "--settings",
        metavar="FILE",
        help="JSON file with aintern settings (as in the editor: safety.extraBlocked, "
        "safety.trusted, shell, timeoutSeconds, allowedDirectories, ...)",
    )
    p.set_defaults(func=_cmd_run)


def _cmd_run(args: argparse.Namespace) -> int:
    from aintern_ls.runs import RunOverrides, assess_plan, plan_run, validate_request
    from aintern_ls.safety import gate

    path = os.path.abspath(args.file)
    if not os.path.isfile(path):
        raise AInternError(f"{args.file}: no such file")
    block = select_block(path, str(args.block))
    overrides = RunOverrides(
        cwd=args.cwd,
        cwd_base=os.getcwd(),  # --cwd as typed: from here; a fence's cwd: from the file
        timeout_seconds=args.timeout,
    )
    settings = load_cli_settings(args.settings)
    plan = plan_run(
        block, document_dir=os.path.dirname(path), settings=settings, overrides=overrides
    )
    validate_request(plan.request)
    rules = gate.rules_from(settings.safety)
    if args.yes:
        confirmation = gate.Confirmation.CONFIRMED
    elif sys.stdin.isatty():
        confirmation = gate.Confirmation.CAN_ASK
    else:
        confirmation = gate.Confirmation.NONE
    decision = gate.decide(assess_plan(plan, rules), confirmation)
    if decision.verdict is gate.Verdict.ASK:
        print(f"{decision.prompt}\n\n{block.command}\n{plan.describe()}", file=sys.stderr)
        print("Run anyway? [y/N] ", end="", file=sys.stderr, flush=True)
        yes = sys.stdin.readline().strip().lower() in ("y", "yes")
        answer = gate.Confirmation.CONFIRMED if yes else gate.Confirmation.DECLINED
        decision = gate.decide(assess_plan(plan, rules), answer)
    if decision.verdict is not gate.Verdict.RUN:
        print(
            f"aintern-ls: {decision.reason}{gate.hint_for(decision, gate.CLI_CONFIRM_HINT)}",
            file=sys.stderr,
        )
        return EXIT_REFUSED
    request = plan.request
    live = not args.json and sys.stdout.isatty()

    def echo(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    result = asyncio.run(run_command(request, on_output=echo if live else None))
    if args.json:
        print(json.dumps(to_json(result), ensure_ascii=False, indent=2))
    else:
        if not live and result.output:
            print(result.output.rstrip("\n"))
        print(_summary(result), file=sys.stderr)
    return exit_status(result)


def load_cli_settings(path: str | None) -> Any:
    """Settings from a JSON file (the editor's `aintern` object); defaults without one."""
    from aintern_ls.config import Settings, load_settings

    if not path:
        return Settings()
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError) as exc:
        raise AInternError(f"cannot read settings file {path}: {exc}") from None
    settings, problems = load_settings(raw)
    for problem in problems:
        print(f"aintern-ls: warning: {problem}", file=sys.stderr)
    return settings


def exit_status(result: RunResult) -> int:
    if result.timed_out:
        return EXIT_TIMED_OUT
    if result.cancelled:
        return EXIT_CANCELLED
    return result.exit_code if result.exit_code is not None else 1


def _summary(result: RunResult) -> str:
    seconds = result.duration_ms / 1000
    where = f" · in {result.cwd}"
    if result.timed_out:
        return f"⏱ timed out after {seconds:.1f} s (killed){where}"
    if result.cancelled:
        return f"■ cancelled after {seconds:.1f} s{where}"
    mark = "✓" if result.exit_code == 0 else "✗"
    signal = f" ({result.signal})" if result.signal else ""
    cut = f" · output truncated from {result.original_length} chars" if result.was_truncated else ""
    return f"{mark} exit {result.exit_code}{signal} · {seconds:.1f} s{where}{cut}"


def select_block(path: str, selector: str) -> Any:
    """The block at 1-based position `selector`, or with that id."""
    from aintern_ls.extraction import extract_file  # type: ignore[attr-defined,unused-ignore]

    blocks = list(extract_file(path).commands)
    if not blocks:
        raise AInternError(f"{path} has no command blocks")
    if selector.isdigit():
        index = int(selector)
        if 1 <= index <= len(blocks):
            return blocks[index - 1]
    for block in blocks:
        if str(block.id) == selector:
            return block
    raise AInternError(
        f"no block {selector!r} in {path}: it has {len(blocks)} block(s); pass --block 1.."
        f"{len(blocks)} or an id shown by `aintern-ls blocks {path}`"
    )


def parse_duration(value: object) -> float | None:
    """Seconds from a Runme-style timeout; see `aintern_ls.runs.parse_duration`."""
    from aintern_ls.runs import parse_duration as parse

    return parse(value)
