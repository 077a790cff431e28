"""`workspace/executeCommand` handlers for command blocks: run, cancel, copy, run all, history.

A run passes the safety gate (blocked never runs; dangerous and critical ask first),
runs in a fresh PTY, and its outcome goes to the block's status, the history, and a
capture the AI panel can fetch by the result's `captureId`.
"""

from __future__ import annotations

import hashlib
import logging
import os.path
import time
from typing import TYPE_CHECKING, Any

import attrs
from lsprotocol import types

from aintern_ls.capture.redaction import LineRedactor, redact_str
from aintern_ls.errors import AInternError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.features.capture import LiveOutput, capture_run, live_runs
from aintern_ls.models import CommandBlock, CommandBlockStatus, CommandResult, to_json
from aintern_ls.safety import RiskLevel, assess
from aintern_ls.terminal.runner import RunRequest, RunResult

if TYPE_CHECKING:
    from aintern_ls.documents import Document
    from aintern_ls.server import AInternServer


log = logging.getLogger(__name__)

RUN_ANYWAY = "Run anyway"


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


async def confirm(
    ls: AInternServer, block: CommandBlock | str, level: RiskLevel, reasons: str
) -> bool:
    if not ls.client_can_ask:
        raise AInternError(
            f"this command is {level.label} ({reasons}); your editor cannot show a "
            'confirmation, so run it again with "confirmed": true if you are sure'
        )
    summary = block if isinstance(block, str) else block.display_summary()
    answer = await ls.window_show_message_request_async(
        types.ShowMessageRequestParams(
            type=types.MessageType.Warning,
            message=f"{level.label.capitalize()} command: {summary}\n{reasons}",
            actions=[types.MessageActionItem(title=RUN_ANYWAY), types.MessageActionItem("Cancel")],
        )
    )
    return answer is not None and answer.title == RUN_ANYWAY


def _result(block: CommandBlock, run: RunResult) -> CommandResult:
    if run.cancelled or run.timed_out:
        status = CommandBlockStatus.CANCELLED
    elif run.exit_code == 0:
        status = CommandBlockStatus.EXECUTED
    else:
        status = CommandBlockStatus.FAILED
    return CommandResult(
        block_id=block.id,
        command=block.command,
        status=status,
        exit_code=run.exit_code,
        output=run.output,
        was_truncated=run.was_truncated,
        original_length=run.original_length,
        duration_ms=run.duration_ms,
        cwd=run.cwd,
        timed_out=run.timed_out,
        cancelled=run.cancelled,
        signal=run.signal,
    )


async def run_block(ls: AInternServer, args: RunArgs) -> Any:
    doc = await ls.current(args.uri)
    block = doc.block(args.block_id)
    if block.status is CommandBlockStatus.EXECUTING:
        raise AInternError("this block is already running; stop it first")
    assessment = ls.documents.assess(block)
    worst = [f for f in assessment.findings if f.level is assessment.level]
    reasons = "; ".join(f"{f.rule}: {f.reason}" for f in worst) or assessment.level.label
    decision = {
        "command": block.command,
        "level": assessment.level.label,
        "rules": [f.rule for f in worst],
        "document_uri": doc.uri,
        "block_id": block.id,
    }
    if assessment.level is RiskLevel.BLOCKED:
        ls.record("decision", decision="blocked", **decision)
        raise AInternError(f"blocked, this command never runs: {reasons}")
    if assessment.level >= RiskLevel.DANGEROUS:
        if args.confirmed:
            answer = "confirmed"
        else:
            ls.record("decision", decision="asked", **decision)
            answer = (
                "confirmed" if await confirm(ls, block, assessment.level, reasons) else "declined"
            )
        ls.record("decision", decision=answer, **decision)
    else:
        answer = "not needed"
    if answer == "declined":
        return to_json(
            CommandResult(
                block_id=block.id,
                command=block.command,
                status=block.status,
                cancelled=True,
                output="not run: declined at the confirmation prompt",
            )
        )
    # the document may have changed (or the block started) while the user was asked
    doc = await ls.current(args.uri)
    block = doc.block(args.block_id)
    if block.status is CommandBlockStatus.EXECUTING:
        raise AInternError("this block is already running; stop it first")
    if block.status.is_terminal:
        block.reset()

    settings = ls.settings
    cwd = args.cwd or block.options.get("cwd") or block.working_directory
    request = RunRequest(
        command=block.command,
        shell=(block.shell_type.value if block.shell_type else settings.shell or "bash"),
        cwd=default_cwd(ls, cwd, doc),
        env=dict(args.env),
        timeout_seconds=args.timeout_seconds or settings.timeout_seconds,
        allowed_directories=list(settings.allowed_directories),
        max_output_characters=settings.max_output_characters,
    )
    block.mark_executing()
    ls.block_changed(doc.uri, block)
    progress = await ls.begin_progress(block)
    last_report = [0.0]
    live = live_runs(ls)[block.id] = LiveOutput(block.command, request.cwd)
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

    cancel_hook = ls.on_request_cancelled(lambda: ls.runner.cancel(block.id))
    started = time.monotonic()
    try:
        run = await ls.runner.run(request, run_id=block.id, on_output=on_output)
    except BaseException:
        _finish(ls, doc.uri, block.id, None)
        _drop_live(ls, block.id, live)
        ls.end_progress(progress, "failed to start")
        raise
    finally:
        cancel_hook()
    result = _result(block, run)
    result.capture_id = capture_run(ls, block.id, block.command, run).id
    _finish(ls, doc.uri, block.id, result)
    # only now: a reader of aintern.runOutput finds the result where the live output was
    _drop_live(ls, block.id, live)
    ls.record("run", result=result, document_uri=doc.uri, message_id=block.message_id)
    elapsed = time.monotonic() - started
    ls.end_progress(progress, f"exit {run.exit_code} · {elapsed:.1f} s")
    return to_json(result)


def _drop_live(ls: AInternServer, block_id: str, live: LiveOutput) -> None:
    if live_runs(ls).get(block_id) is live:
        del live_runs(ls)[block_id]


def default_cwd(ls: AInternServer, cwd: str | None, doc: Document) -> str | None:
    """A block's cwd: relative to its document's folder; a document that is no file
    (an AI chat buffer such as `aichat://…`) runs in the workspace root."""
    if doc.directory is not None:
        return resolve_against(cwd, doc.directory)
    root = ls.workspace.root_path if ls.workspace is not None else None
    return resolve_against(cwd, root) if cwd is not None else root


def resolve_against(cwd: str | None, base: str | None) -> str | None:
    """A block's cwd option, relative to its document's folder."""
    if cwd is None:
        return base
    cwd = os.path.expanduser(cwd)
    if base is not None and not os.path.isabs(cwd):
        return os.path.join(base, cwd)
    return cwd


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
        (await ls.current(a.uri)).block(a.block_id)
        return {"cancelled": ls.runner.cancel(a.block_id)}

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
        return assessment.to_json()

    @server.command("aintern.checkCommand")
    @user_errors
    async def check_command(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(CheckArgs, args)
        return assess(
            a.command, a.shell or ls.settings.shell or "bash", ls.documents.rules
        ).to_json()

    @server.command("aintern.runCommand")
    @user_errors
    async def run_command(ls: AInternServer, *args: Any) -> Any:
        """A command that is not a fence (an editor AI tool's), through the same gate."""
        a = parse_args(RunCommandArgs, args)
        shell = a.shell or ls.settings.shell or "bash"
        assessment = assess(a.command, shell, ls.documents.rules)
        worst = [f for f in assessment.findings if f.level is assessment.level]
        reasons = "; ".join(f"{f.rule}: {f.reason}" for f in worst) or assessment.level.label
        decision = {
            "command": redact_str(a.command),
            "level": assessment.level.label,
            "rules": [f.rule for f in worst],
        }
        if assessment.level is RiskLevel.BLOCKED:
            ls.record("decision", decision="blocked", **decision)
            raise AInternError(f"blocked, this command never runs: {reasons}")
        if assessment.level >= RiskLevel.DANGEROUS:
            if not a.confirmed:
                ls.record("decision", decision="asked", **decision)
            ok = a.confirmed or await confirm(ls, a.command[:60], assessment.level, reasons)
            ls.record("decision", decision="confirmed" if ok else "declined", **decision)
            if not ok:
                raise AInternError("not run: declined at the confirmation prompt")
        settings = ls.settings
        request = RunRequest(
            command=a.command,
            shell=shell,
            cwd=a.cwd,
            timeout_seconds=a.timeout_seconds or settings.timeout_seconds,
            allowed_directories=list(settings.allowed_directories),
            max_output_characters=settings.max_output_characters,
        )
        block_id = "tool-" + hashlib.blake2b(a.command.encode(), digest_size=4).hexdigest()
        run_id = f"{block_id}-{time.monotonic_ns()}"
        cancel_hook = ls.on_request_cancelled(lambda: ls.runner.cancel(run_id))
        try:
            run = await ls.runner.run(request, run_id=run_id)
        finally:
            cancel_hook()
        data = {
            "command": redact_str(a.command),
            "exitCode": run.exit_code,
            "output": run.output,
            "wasTruncated": run.was_truncated,
            "originalLength": run.original_length,
            "durationMs": run.duration_ms,
            "cwd": run.cwd,
            "timedOut": run.timed_out,
            "cancelled": run.cancelled,
            "level": assessment.level.label,
        }
        data["captureId"] = capture_run(ls, block_id, a.command, run).id
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
            level = ls.documents.assess(block).level
            if level is RiskLevel.BLOCKED:
                results.append(
                    to_json(
                        CommandResult(
                            block_id=block.id,
                            command=block.command,
                            status=block.status,
                            output="not run: blocked",
                        )
                    )
                )
                if a.stop_on_failure:
                    break
                continue
            result = await run_block(
                ls, RunArgs(uri=a.uri, block_id=block.id, confirmed=a.confirmed)
            )
            results.append(result)
            if a.stop_on_failure and result.get("exitCode") != 0:
                break
        return results
