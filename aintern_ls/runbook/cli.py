"""CLI subcommand `aintern-ls test FILE...`: run the console fences of documents and
compare what they print with the output written under their prompts, like doctest
or cram, so documentation can be tested in CI.

A fence is a check when it shows expected output (a `console` transcript, or a
shell fence written with `$ ` prompts and output lines). Each check runs in a
fresh PTY in the document's folder (or the fence's `cwd`), through the same safety
gate as `aintern-ls run`: blocked commands never run; dangerous and critical ones
only with `--yes`.

Exit status: 0 when every check passed, 1 when one drifted or could not run
(refused, timed out), 2 for a usage error (no such file).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.runbook.checks import diff

EXIT_DRIFT = 1
INPUT_WAIT_SECONDS = 2.0  # a check still waiting for input after this long is stopped


@attrs.define
class CheckResult:
    file: str
    line: int
    """1-based line of the fence."""
    block_id: str
    command: str
    outcome: str
    """`pass`, `fail`, `refused`, `timeout`, `waiting` (stopped at a prompt) or `error`."""
    detail: str = ""
    """The diff for a failure, the reason for a refusal or error."""
    exit_code: int | None = None
    duration_ms: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "blockId": self.block_id,
            "command": self.command,
            "outcome": self.outcome,
            "detail": self.detail,
            "exitCode": self.exit_code,
            "durationMs": self.duration_ms,
        }


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "test",
        help="run the console fences of documents and check their output (like cram)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="Markdown files to test")
    p.add_argument("--yes", action="store_true", help="also run dangerous and critical fences")
    p.add_argument("--timeout", type=float, metavar="S", help="seconds per fence (default 120)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=cmd_test)


def cmd_test(args: argparse.Namespace) -> int:
    results: list[CheckResult] = []
    for name in args.files:
        if not os.path.isfile(name):
            raise AInternError(f"{name}: no such file")
    for name in args.files:
        for result in asyncio.run(check_file(name, yes=args.yes, timeout=args.timeout)):
            results.append(result)
            if not args.json:
                _print(result)
    if args.json:
        json.dump([r.to_json() for r in results], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    counts = {o: sum(1 for r in results if r.outcome == o) for o in ("pass", "fail")}
    bad = len(results) - counts["pass"]
    if not args.json:
        others = bad - counts["fail"]
        print(
            f"{counts['pass']} passed, {counts['fail']} failed"
            + (f", {others} not run" if others else "")
            + ("" if results else " (no console fence with expected output)"),
            file=sys.stderr,
        )
    return EXIT_DRIFT if bad else 0


async def check_file(
    path: str, *, yes: bool = False, timeout: float | None = None
) -> list[CheckResult]:
    """Run every fence of `path` that shows expected output; one result per fence."""
    from aintern_ls.config import Settings
    from aintern_ls.extraction import extract_file
    from aintern_ls.runs import RunOverrides, assess_plan, plan_run, validate_request
    from aintern_ls.safety import gate
    from aintern_ls.terminal.runner import run_command

    settings = Settings()
    rules = gate.rules_from(settings.safety)
    confirmation = gate.Confirmation.CONFIRMED if yes else gate.Confirmation.NONE
    base = os.path.dirname(os.path.abspath(path))
    out: list[CheckResult] = []
    for block in extract_file(path).commands:
        if block.expected_output is None:
            continue
        result = CheckResult(path, block.start_line + 1, block.id, block.command, "pass")
        out.append(result)
        try:
            plan = plan_run(
                block,
                document_dir=base,
                settings=settings,
                overrides=RunOverrides(timeout_seconds=timeout),
            )
            validate_request(plan.request)
            decision = gate.decide(assess_plan(plan, rules), confirmation)
            if decision.verdict is not gate.Verdict.RUN:
                hint = gate.hint_for(decision, "pass --yes to run it anyway")
                result.outcome, result.detail = "refused", f"{decision.reason}{hint}"
                continue
            # nobody can type into a check: a fence that waits on a prompt is stopped
            run = await run_command(plan.request, stop_when_waiting=INPUT_WAIT_SECONDS)
        except AInternError as exc:
            result.outcome, result.detail = "error", str(exc)
            continue
        result.exit_code, result.duration_ms = run.exit_code, run.duration_ms
        if run.waiting_for_input is not None:
            prompt = run.waiting_for_input.prompt.strip()
            result.outcome = "waiting"
            result.detail = (
                f"stopped: it waited for input{f' at {prompt!r}' if prompt else ''}; a check "
                "cannot answer prompts: give the input in the fence (`printf 'y\\n' | cmd`, "
                "a --yes flag, a here-document)"
            )
            continue
        if run.timed_out:
            result.outcome = "timeout"
            result.detail = f"timed out after {run.duration_ms / 1000:.1f} s"
            continue
        drift = diff(block.expected_output, run.output)
        if drift:
            result.outcome, result.detail = "fail", drift
    return out


def _print(result: CheckResult) -> None:
    where = f"{result.file}:{result.line}"
    first = result.command.split("\n", 1)[0]
    if result.outcome == "pass":
        print(f"✓ {where}  {first}")
        return
    label = {
        "fail": "output differs",
        "refused": "not run",
        "timeout": "timed out",
        "waiting": "waited for input",
    }.get(result.outcome, "error")
    print(f"✗ {where}  {first}  ({label})")
    for line in result.detail.splitlines():
        print(f"    {line}")
