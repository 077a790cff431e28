"""CLI subcommand `aintern-ls run FILE --block N`: one block through the safety gate and
the one-shot runner.

Exit status: the command's own exit code, so scripts can use it; 124 when it timed out,
130 when interrupted or stopped at a prompt, 2 when the block was refused (blocked, or
dangerous without `--yes`) or the request was invalid.

A command that waits for input (`read -p`, `[y/N]`, a password): at a terminal, the
line you type is passed to it (read with echo off, so only the command's own echo
shows: nothing for a password); without a terminal (CI, a pipe) nobody can answer, so
the run is stopped after `INPUT_WAIT_SECONDS` and the summary says at which prompt.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import threading
from typing import Any

from aintern_ls.errors import AInternError
from aintern_ls.models import to_json
from aintern_ls.terminal.runner import (
    DEFAULT_TIMEOUT_SECONDS,
    RunningCommand,
    RunRequest,
    RunResult,
)
from aintern_ls.terminal.waiting import InputWait

log = logging.getLogger(__name__)

EXIT_REFUSED = 2
EXIT_TIMED_OUT = 124
EXIT_CANCELLED = 130
#: Without a terminal to type into, a run still waiting for input this long is stopped.
INPUT_WAIT_SECONDS = 2.0


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

    result = asyncio.run(_run(request, echo if live else None, interactive=sys.stdin.isatty()))
    if args.json:
        print(json.dumps(to_json(result), ensure_ascii=False, indent=2))
    else:
        if not live and result.output:
            print(result.output.rstrip("\n"))
        print(_summary(result), file=sys.stderr)
    return exit_status(result)


async def _run(request: RunRequest, echo: Any, *, interactive: bool) -> RunResult:
    """Run `request`; at a terminal, lines typed while it waits for input go to it."""
    loop = asyncio.get_running_loop()
    forwarding: list[threading.Thread] = []
    saved: list[Any] = []
    running: RunningCommand

    def on_waiting(state: InputWait | None) -> None:
        if state is None or not interactive:
            return
        if echo is None:  # the prompt was not shown live: show it now
            print(state.prompt, end="", file=sys.stderr, flush=True)
        if not forwarding:
            thread = threading.Thread(
                target=_forward_lines,
                args=(loop, running, saved),
                name="aintern-run-stdin",
                daemon=True,  # may stay blocked on the terminal after the run
            )
            forwarding.append(thread)
            thread.start()

    running = RunningCommand(
        request,
        on_output=echo,
        on_waiting=on_waiting,
        stop_when_waiting=None if interactive else INPUT_WAIT_SECONDS,
    )
    try:
        return await running.wait()
    finally:
        _restore_terminal(saved)


def _forward_lines(
    loop: asyncio.AbstractEventLoop, running: RunningCommand, saved: list[Any]
) -> None:
    """Read lines from our terminal with echo off (the command echoes what it wants
    shown) and type them into the run, until the run ends or stdin closes."""
    fd = sys.stdin.fileno()
    try:
        import termios

        attrs = termios.tcgetattr(fd)
        saved.append(attrs)
        quiet = list(attrs)
        quiet[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
    except (ImportError, OSError, ValueError):  # no termios (Windows): typed text shows twice
        pass
    # os.read, not sys.stdin: a daemon thread blocked inside the buffered reader's lock
    # can abort the interpreter's shutdown
    while not running.done:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        line = data.decode("utf-8", "replace").rstrip("\r\n") + "\r"
        with contextlib.suppress(RuntimeError):  # the loop is gone: the run is over
            loop.call_soon_threadsafe(_type, running, line)


def _type(running: RunningCommand, text: str) -> None:
    if not running.done:
        running.write(text)


def _restore_terminal(saved: list[Any]) -> None:
    if not saved:
        return
    with contextlib.suppress(ImportError, OSError, ValueError):
        import termios

        termios.tcsetattr(sys.stdin.fileno(), termios.TCSANOW, saved[0])


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
    if result.waiting_for_input is not None:
        prompt = result.waiting_for_input.prompt.strip()
        return (
            f"⌨ stopped after {seconds:.1f} s: it waited for input at {prompt!r} and there "
            "is no terminal to answer from; run it at a terminal, or give the answer on "
            f"the command's own stdin (printf 'y\\n' | …, a --yes flag){where}"
        )
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
