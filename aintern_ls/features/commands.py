"""`workspace/executeCommand` handlers for command blocks: run, cancel, copy, run all, history.

A run is planned (`aintern_ls.runs.plan_run`: shell, cwd, env, timeout from the
caller, the fence and the settings), passes the gate (`aintern_ls.safety.gate`:
blocked never runs; dangerous and critical run only after a yes bound to exactly what
was shown), runs in a fresh PTY, and its outcome goes to the block's status, the
history, and a capture the AI panel can fetch by the result's `captureId`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

import attrs
from lsprotocol import types

from aintern_ls.capture.redaction import LineRedactor, redact_str
from aintern_ls.errors import AInternError, RefusedError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.features.capture import LiveOutput, live_runs
from aintern_ls.features.run_input import waiting_changed
from aintern_ls.models import CommandBlock, CommandBlockStatus, CommandResult, to_json
from aintern_ls.runbook import prompts
from aintern_ls.runs import (
    BlockOptions,
    RunOverrides,
    RunPlan,
    assess_plan,
    keep_capture,
    not_run_result,
    plan_command,
    plan_run,
    result_of,
    validate_request,
)
from aintern_ls.safety import assess, gate
from aintern_ls.server import AInternServer
from aintern_ls.terminal.waiting import InputWait

log = logging.getLogger(__name__)

#: How often a block may change under an open confirmation before the run gives up.
MAX_CONFIRMATION_ROUNDS = 3
#: An AI tool's run (`aintern.runCommand`) still waiting for input after this long is
#: stopped: nobody can type into it.
TOOL_INPUT_WAIT_SECONDS = 2.0


@attrs.define
class BlockArgs:
    uri: str
    block_id: str


@attrs.define
class RunArgs:
    uri: str
    block_id: str
    confirmed: bool = False
    timeout_seconds: float | None = None
    cwd: str | None = None
    env: dict[str, str] = attrs.field(factory=dict)


@attrs.define
class CheckArgs:
    command: str
    shell: str | None = None


@attrs.define
class RunCommandArgs:
    command: str
    shell: str | None = None
    confirmed: bool = False
    timeout_seconds: float | None = None
    cwd: str | None = None


@attrs.define
class HistoryArgs:
    uri: str | None = None
    limit: int = 50


@attrs.define
class RunAllArgs:
    uri: str
    stop_on_failure: bool = True
    confirmed: bool = False


def confirmation_message(block: CommandBlock, plan: RunPlan, decision: gate.Decision) -> str:
    """What a person is asked: the risk, the command, and where and how it runs."""
    return f"{decision.prompt}\n\n{block.display_summary()}\n{plan.describe()}"


async def _plan(ls: AInternServer, args: RunArgs) -> tuple[Any, CommandBlock, RunPlan]:
    doc = await ls.current(args.uri)
    block = doc.block(args.block_id)
    if block.status is CommandBlockStatus.EXECUTING:
        raise AInternError("this block is already running; stop it first")
    overrides = RunOverrides(cwd=args.cwd, timeout_seconds=args.timeout_seconds, env=args.env)
    plan = plan_run(
        block, document_dir=ls.run_directory(doc), settings=ls.settings, overrides=overrides
    )
    validate_request(plan.request)
    return doc, block, plan


async def gate_block(
    ls: AInternServer, args: RunArgs
) -> tuple[Any, CommandBlock, RunPlan] | CommandResult:
    """Pass a block through the gate, asking the person when needed.

    Returns the document, block and plan to run, or the "declined" result; raises
    `RefusedError` with the gate's reason. A yes is bound to what was shown: after the
    answer the block is read and planned again, and if anything shown (command, shell,
    cwd, env, options) differs it is assessed and asked about again.
    """
    doc, block, plan = await _plan(ls, args)
    confirmation = gate.Confirmation.CONFIRMED if args.confirmed else ls.confirmation
    for _ in range(MAX_CONFIRMATION_ROUNDS + 1):
        decision = gate.decide(assess_plan(plan, ls.documents.rules), confirmation)
        record = {
            "command": block.command,
            "level": decision.level.label,
            "rules": list(decision.rules),
            "document_uri": doc.uri,
            "block_id": block.id,
        }
        if decision.verdict is gate.Verdict.RUN:
            if decision.needs_confirmation and args.confirmed:
                ls.record("decision", decision="confirmed", **record)
            return doc, block, plan
        if decision.verdict is gate.Verdict.REFUSE:
            if decision.blocked:
                ls.record("decision", decision="blocked", **record)
            raise RefusedError(
                decision.reason + gate.hint_for(decision, gate.LSP_CONFIRM_HINT), decision.rules
            )
        ls.record("decision", decision="asked", **record)
        yes = await ls.confirm(confirmation_message(block, plan, decision))
        ls.record("decision", decision="confirmed" if yes else "declined", **record)
        if not yes:
            return not_run_result(block, "declined at the confirmation prompt")
        shown = plan.shown
        doc, block, plan = await _plan(ls, args)  # as it is *now*
        confirmation = gate.Confirmation.CONFIRMED if plan.shown == shown else ls.confirmation
    raise RefusedError("the block kept changing while you were asked; run it again")


async def run_block(ls: AInternServer, args: RunArgs) -> Any:
    """`aintern.run`: gate, plan, run, record; returns the CommandResult as JSON."""
    gated = await gate_block(ls, args)
    if isinstance(gated, CommandResult):
        return to_json(gated)
    doc, block, plan = gated
    # placeholders: the client asks for their values (values never reach the history)
    filled = await prompts.fill(ls, doc, block, dict(plan.request.env))
    if filled.cancelled:
        return to_json(not_run_result(block, "not run: cancelled at the value prompt"))
    if block.status is CommandBlockStatus.EXECUTING:
        raise AInternError("this block is already running; stop it first")
    request = attrs.evolve(
        plan.request, command=filled.command, env={**plan.request.env, **filled.env}
    )
    if block.status.is_terminal:
        block.reset()
    block.mark_executing()
    ls.block_changed(doc.uri, block)
    progress = await ls.begin_progress(block)
    last_report = [0.0]
    live = live_runs(ls)[block.id] = LiveOutput(block.command, plan.request.cwd)
    lines = LineRedactor(width=120)

    def on_output(text: str) -> None:
        live.feed(text)
        # the last complete line, redacted, at most five times a second: a flood of
        # output must not become a flood of notifications
        line = lines.feed(text)
        now = time.monotonic()
        if progress is None or line is None or now - last_report[0] < 0.2:
            return
        last_report[0] = now
        ls.report_progress(progress, line)

    def on_waiting(state: InputWait | None) -> None:
        waiting_changed(ls, doc.uri, block.id, state)
        if state is not None:  # the progress line says it too (redacted, like all of it)
            ls.report_progress(progress, f"⌨ waiting for input: {redact_str(state.prompt)}")

    cancel_hook = ls.on_request_cancelled(lambda: ls.runner.cancel(block.id))
    started = time.monotonic()
    row = ls.record(
        "started",
        command=block.command,
        document_uri=doc.uri,
        message_id=block.message_id,
        block_id=block.id,
        working_dir=plan.request.cwd,
    )
    try:
        run = await ls.runner.run(
            request,
            run_id=block.id,
            on_output=on_output,
            on_waiting=on_waiting,
        )
    except BaseException as exc:
        _finish(ls, doc.uri, block.id, None)
        _drop_live(ls, block.id, live)
        ls.end_progress(progress, "failed to start")
        if row is not None:
            failed = not_run_result(block, f"failed to start: {exc}")
            failed.status = CommandBlockStatus.FAILED
            ls.record("finished", run_id=row, result=failed)
        raise
    finally:
        cancel_hook()
    run = prompts.redact(run, filled.secrets)
    result = result_of(block, run)
    result.capture_id = keep_capture(ls.captures, block.id, block.command, run).id
    _finish(ls, doc.uri, block.id, result)
    if row is not None:  # no value typed at the prompt is kept, secret or not
        ls.record("finished", run_id=row, result=prompts.for_history(result, filled.values))
    # only now: a reader of aintern.runOutput finds the result where the live output was
    _drop_live(ls, block.id, live)
    elapsed = time.monotonic() - started
    ls.end_progress(progress, f"exit {run.exit_code} · {elapsed:.1f} s")
    return to_json(result)


def _drop_live(ls: AInternServer, block_id: str, live: LiveOutput) -> None:
    if live_runs(ls).get(block_id) is live:
        del live_runs(ls)[block_id]


def _finish(ls: AInternServer, uri: str, block_id: str, result: CommandResult | None) -> None:
    """Record the outcome on the block as it is *now* (the document may have changed)."""
    try:
        doc = ls.documents.get(uri)
        block = doc.block(block_id)
    except AInternError:
        return
    if block.status is not CommandBlockStatus.EXECUTING:
        return
    if result is None or result.cancelled or result.timed_out:
        block.mark_cancelled()
    else:
        block.mark_completed(result.exit_code if result.exit_code is not None else 1)
    if result is not None:
        doc.last_results[block.id] = result
    ls.block_changed(uri, block, result)


def register(server: AInternServer) -> None:
    @server.command("aintern.run")
    @user_errors
    async def run(ls: AInternServer, *args: Any) -> Any:
        return await run_block(ls, parse_args(RunArgs, args))

    @server.command("aintern.cancel")
    @user_errors
    async def cancel(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(BlockArgs, args)
        if ls.runner.is_running(a.block_id):  # even if its document was closed meanwhile
            return {"cancelled": ls.runner.cancel(a.block_id)}
        (await ls.current(a.uri)).block(a.block_id)
        return {"cancelled": False}

    @server.command("aintern.copy")
    @user_errors
    async def copy(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(BlockArgs, args)
        doc = await ls.current(a.uri)
        block = doc.block(a.block_id)
        block.mark_copied()
        ls.block_changed(doc.uri, block)
        return {"text": block.command}

    @server.command("aintern.showRisk")
    @user_errors
    async def show_risk(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(BlockArgs, args)
        block = (await ls.current(a.uri)).block(a.block_id)
        assessment = ls.documents.assess(block)
        lines = [f"{f.level.label} {f.rule}: {f.reason}" for f in assessment.findings]
        ls.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Info,
                message=f"{block.display_summary()} — {assessment.level.label}"
                + ("\n" + "\n".join(lines) if lines else ""),
            )
        )
        return to_json(assessment)

    @server.command("aintern.checkCommand")
    @user_errors
    async def check_command(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(CheckArgs, args)
        return to_json(
            assess(a.command, a.shell or ls.settings.shell or "bash", ls.documents.rules)
        )

    @server.command("aintern.runCommand")
    @user_errors
    async def run_command(ls: AInternServer, *args: Any) -> Any:
        """A command that is not a fence (an editor AI tool's), through the same gate."""
        a = parse_args(RunCommandArgs, args)
        block_id = "tool-" + hashlib.blake2b(a.command.encode(), digest_size=4).hexdigest()
        run_id = f"{block_id}-{time.monotonic_ns()}"
        root = str(ls.workspace.root_path) if ls.workspace and ls.workspace.root_path else None
        plan = plan_command(
            a.command,
            settings=ls.settings,
            shell=a.shell,
            cwd=a.cwd,
            cwd_base=root,
            timeout_seconds=a.timeout_seconds,
            run_id=run_id,
        )
        validate_request(plan.request)
        confirmation = gate.Confirmation.CONFIRMED if a.confirmed else ls.confirmation
        decision = gate.decide(assess_plan(plan, ls.documents.rules), confirmation)
        record = {
            "command": redact_str(a.command),
            "level": decision.level.label,
            "rules": list(decision.rules),
        }
        if decision.verdict is gate.Verdict.REFUSE:
            if decision.blocked:
                ls.record("decision", decision="blocked", **record)
            raise RefusedError(
                decision.reason + gate.hint_for(decision, gate.LSP_CONFIRM_HINT), decision.rules
            )
        if decision.verdict is gate.Verdict.ASK:
            ls.record("decision", decision="asked", **record)
            message = f"{decision.prompt}\n\n{redact_str(a.command)[:200]}\n{plan.describe()}"
            ok = await ls.confirm(message)
            ls.record("decision", decision="confirmed" if ok else "declined", **record)
            if not ok:
                raise AInternError("not run: declined at the confirmation prompt")
        elif decision.needs_confirmation:
            ls.record("decision", decision="confirmed", **record)
        cancel_hook = ls.on_request_cancelled(lambda: ls.runner.cancel(run_id))
        try:
            run = await ls.runner.run(
                plan.request, run_id=run_id, stop_when_waiting=TOOL_INPUT_WAIT_SECONDS
            )
        finally:
            cancel_hook()
        output = run.output
        if run.waiting_for_input is not None:
            output += (
                f"\n[stopped: waiting for input at {run.waiting_for_input.prompt.strip()!r}; "
                "answer non-interactively (printf 'y\\n' | command, a --yes flag) or run "
                "it in a terminal]"
            )
        data = {
            "command": redact_str(a.command),
            "exitCode": run.exit_code,
            "output": output,
            "wasTruncated": run.was_truncated,
            "originalLength": run.original_length,
            "durationMs": run.duration_ms,
            "cwd": run.cwd,
            "timedOut": run.timed_out,
            "cancelled": run.cancelled,
            "level": decision.level.label,
            "waitingForInput": (
                None if run.waiting_for_input is None else run.waiting_for_input.to_json()
            ),
        }
        data["captureId"] = keep_capture(ls.captures, block_id, a.command, run).id
        return data

    @server.command("aintern.history")
    @user_errors
    async def history(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(HistoryArgs, args or ({},))
        return {"runs": ls.history.runs(a.uri, a.limit)}

    @server.command("aintern.runAll")
    @user_errors
    async def run_all(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(RunAllArgs, args)
        results: list[dict[str, Any]] = []
        for block in list((await ls.current(a.uri)).blocks):
            if BlockOptions.parse(block.options).exclude_from_run_all:
                continue
            try:
                result = await run_block(
                    ls, RunArgs(uri=a.uri, block_id=block.id, confirmed=a.confirmed)
                )
            except RefusedError as exc:
                result = to_json(not_run_result(block, str(exc), cancelled=False))
            results.append(result)
            if a.stop_on_failure and result.get("exitCode") != 0:
                break
        return results
