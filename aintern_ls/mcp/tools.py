"""What each MCP tool does, on the services the language server uses.

`Agent` owns the long-lived state of one MCP connection (settings and safety rules,
terminal sessions, one-shot runs, captures, history) and answers tool calls with a
`ToolOutput`: the structured content and its text rendering. It knows nothing of the
MCP SDK: the `Peer` it is handed asks the person (elicitation), reports progress and
lists the client's roots, so the policy here can be tested without a client.

Policy, in the order it is applied to anything that can start a process (run_command
and terminal_send): the command is assessed with the user's rules; blocked never runs;
dangerous and critical run only when a person said yes through the client (an MCP
elicitation), or, if the user chose the weaker `mcp.confirmation: client`, on the
client's own approval of the tool call. Every refusal, question, answer and run goes
to the history database the editor uses.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import secrets
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal, Protocol

import anyio
import attrs

from aintern_ls.capture import CaptureService, redact, truncate
from aintern_ls.config import Settings
from aintern_ls.errors import AInternError
from aintern_ls.extraction import extract_file
from aintern_ls.history import History
from aintern_ls.mcp.settings import McpSettings
from aintern_ls.models import CommandBlock, TruncationMode
from aintern_ls.runs import (
    RunOverrides,
    assess_plan,
    block_shell,
    plan_command,
    plan_run,
    validate_request,
    validate_text,
)
from aintern_ls.safety import Assessment, Finding, RiskLevel, gate
from aintern_ls.safety.analyser import shell_family
from aintern_ls.safety.bash import Positions
from aintern_ls.safety.bash import parse as bash_parse
from aintern_ls.terminal.runner import RunningCommand, RunRequest, RunResult, resolve_cwd
from aintern_ls.terminal.session import TerminalManager, TerminalSession

log = logging.getLogger(__name__)

#: Characters of a run's output kept for read_capture (the returned capture is cut to
#: `maxOutputCharacters`, 100,000 by default).
FULL_OUTPUT_CHARACTERS = 16_000_000
#: Captures kept for read_capture, newest first; and their total size.
MAX_CAPTURES = 32
MAX_CAPTURE_BYTES = 64_000_000
PROGRESS_INTERVAL_SECONDS = 1.0
#: A run still waiting for input after this long is stopped: an agent cannot type into
#: it, so waiting for the timeout would only waste the agent's time.
INPUT_WAIT_SECONDS = 2.0

Answer = Literal["accept", "decline", "cancel", "unsupported"]


class Peer(Protocol):
    """What a tool call may ask of the client."""

    async def roots(self) -> list[str] | None:
        """The client's workspace roots as directories; None if it has none."""
        ...

    async def confirm(self, message: str) -> Answer:
        """Ask the person; "unsupported" when the client cannot ask."""
        ...

    async def progress(self, progress: float, total: float | None, message: str) -> None: ...


@attrs.frozen
class ToolOutput:
    structured: dict[str, Any]
    text: str


#: What run_command answers check_command's agents, per verdict.
WOULD = {
    gate.Verdict.RUN: "runs",
    gate.Verdict.ASK: "runs only after a person confirms",
    gate.Verdict.REFUSE: "refused: never runs",
}

HOW_A_PERSON_RUNS_IT = (
    "This MCP client cannot ask a person (it does not support elicitation). A person "
    "can run it from the editor (the ▶ Run lens above the fence, which asks first), with "
    "`aintern-ls run FILE --block N --yes`, or in their own terminal."
)


@attrs.define
class StoredCapture:
    capture_id: str
    command: str
    text: str
    exit_code: int | None
    full: bool  # False when even the stored text was cut


class CaptureStore:
    """Full (redacted) outputs of recent runs, for read_capture; bounded in count and size."""

    def __init__(self, max_items: int = MAX_CAPTURES, max_bytes: int = MAX_CAPTURE_BYTES):
        self._items: OrderedDict[str, StoredCapture] = OrderedDict()
        self._max_items = max_items
        self._max_bytes = max_bytes
        self._size = 0

    def add(self, capture: StoredCapture) -> None:
        self._items[capture.capture_id] = capture
        self._size += len(capture.text)
        while self._items and (len(self._items) > self._max_items or self._size > self._max_bytes):
            _, dropped = self._items.popitem(last=False)
            self._size -= len(dropped.text)

    def get(self, capture_id: str) -> StoredCapture:
        found = self._items.get(capture_id)
        if found is None:
            raise AInternError(
                f"no capture {capture_id!r}: captureIds come from run_command results of "
                f"this server session, and only the last {self._max_items} are kept"
            )
        return found


def _clean_command(command: str) -> str:
    """The command as shown and stored: secrets on the command line redacted."""
    return redact(command).text


class Agent:
    """The state behind one MCP connection; see the module docstring."""

    def __init__(self, config: McpSettings, workspace: str) -> None:
        self.config = config
        self.workspace = os.path.realpath(workspace)
        settings = config.settings
        self.rules = gate.rules_from(settings.safety)
        self.history = History(settings.history_path)
        self.captures = CaptureService(settings.capture)
        self.store = CaptureStore()
        self.terminals = TerminalManager(allowed_directories=settings.allowed_directories)
        self._runs: set[RunningCommand] = set()
        self._history_broken = False
        # One writer thread, in order: a commit waits on the disk (an fsync), which
        # neither the event loop nor the tool's answer should wait for.
        self._writer = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="aintern-history"
        )

    @property
    def settings(self) -> Settings:
        return self.config.settings

    # -- lifecycle ---------------------------------------------------------------------

    async def close(self) -> None:
        for running in list(self._runs):
            running.cancel()
        for running in list(self._runs):
            with contextlib.suppress(Exception):
                await running.wait()
        await self.terminals.close_all()
        self._writer.shutdown(wait=True)
        self.history.close()

    def close_now(self) -> None:
        for running in list(self._runs):
            running.cancel()
        for terminal in self.terminals.list():
            with contextlib.suppress(AInternError):
                self.terminals.get(terminal["terminalId"]).close_now()
        self._writer.shutdown(wait=True)

    # -- history -------------------------------------------------------------------------

    def _record(self, what: str, **fields: Any) -> None:
        """Queue a write to the history (in order, off the event loop)."""
        with contextlib.suppress(RuntimeError):  # shut down: nothing more is recorded
            self._writer.submit(self._write, what, fields)

    def _write(self, what: str, fields: dict[str, Any]) -> None:
        """Write to the history; a broken database is logged, never fatal to the call."""
        try:
            if what == "run":
                self.history.record_run(**fields)
            else:
                self.history.record_decision(**fields)
        except AInternError as exc:
            if not self._history_broken:
                self._history_broken = True
                log.warning("history: %s", exc)

    # -- paths -------------------------------------------------------------------------

    async def _roots(self, peer: Peer) -> list[str]:
        roots = None
        try:
            roots = await peer.roots()
        except Exception as exc:  # a client that fails roots/list: fall back
            log.info("roots/list failed (%s); using the workspace", exc)
        if not roots:
            return [self.workspace]
        return [os.path.realpath(r) for r in roots]

    async def _inside_roots(self, peer: Peer, path: str, what: str) -> str:
        roots = await self._roots(peer)
        base = roots[0]
        full = os.path.realpath(os.path.join(base, os.path.expanduser(path)))
        if not any(_within(full, root) for root in roots):
            raise AInternError(
                f"{what} {path!r} resolves to {full}, outside the workspace "
                f"({', '.join(roots)}); only files and directories inside it are allowed"
            )
        return full

    # -- check_command / list_blocks ------------------------------------------------------

    def _assess(self, command: str, shell: str) -> Assessment:
        return gate.check(command, shell, self.rules)

    async def check_command(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        command = args["command"]
        shell = str(args.get("shell") or self.settings.shell or "bash").lower()
        assessment = self._assess(command, shell)
        decision = gate.decide(assessment, gate.Confirmation.CAN_ASK)
        findings = [{**f.to_json(), "text": command[f.start : f.end]} for f in assessment.findings]
        parts = sub_commands(command, shell, assessment)
        would = WOULD[decision.verdict]
        structured = {
            "command": _clean_command(command),
            "shell": shell,
            "level": assessment.level.label,
            "findings": findings,
            "commands": parts,
            "runCommand": would,
            "reason": decision.reason,
        }
        lines = [f"{assessment.level.label}: run_command {would}"]
        for f in assessment.findings:
            lines.append(f"- {f.level.label} [{f.rule}] {f.reason} (`{command[f.start : f.end]}`)")
        if len(parts) > 1:
            lines.append("per command:")
            lines += [f"- {p['level']}: `{p['text']}`" for p in parts]
        return ToolOutput(structured, "\n".join(lines))

    def _blocks(self, path: str) -> list[CommandBlock]:
        return list(extract_file(path).commands)

    def _block_shell(self, block: CommandBlock) -> str:
        if block.shell_type is not None:
            return block.shell_type.value
        return self.settings.shell or "bash"

    def _block_level(self, block: CommandBlock) -> Assessment:
        return self._assess(block.command, block_shell(block))

    async def list_blocks(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        path = await self._inside_roots(peer, args["path"], "path")
        result = extract_file(path)
        blocks = []
        lines = [f"{path}: {result.command_count} command block(s)"]
        for index, block in enumerate(result.commands, 1):
            a = self._block_level(block)
            shown = _clean_command(block.command)
            entry: dict[str, Any] = {
                "index": index,
                "id": block.id,
                "name": block.options.get("name"),
                "language": block.language,
                "shell": self._block_shell(block),
                "level": a.level.label,
                "rules": sorted({f.rule for f in a.findings}),
                "startLine": block.start_line + 1,
                "endLine": block.end_line + 1,
                "role": block.role,
                "description": block.description,
                "command": shown,
            }
            blocks.append(entry)
            name = f" ({entry['name']})" if entry["name"] else ""
            lines.append(
                f"{index}. {block.id}{name} L{entry['startLine']}-{entry['endLine']} "
                f"[{a.level.label}] {shown.splitlines()[0] if shown else ''}"
            )
        warnings = [w.message for w in result.warnings]
        return ToolOutput(
            {"path": path, "blocks": blocks, "warnings": warnings}, "\n".join(lines + warnings)
        )

    # -- the gate ------------------------------------------------------------------------

    async def _gate(
        self,
        peer: Peer,
        assessment: Assessment,
        command: str,
        *,
        where: str,
        details: str = "",
        document_uri: str | None = None,
        block_id: str | None = None,
    ) -> None:
        """Apply the gate (`aintern_ls.safety.gate`); raise `AInternError` with its reason
        when the command must not run, after asking a person when the gate says so."""
        delegated = self.config.confirmation == "client"
        confirmation = gate.Confirmation.CONFIRMED if delegated else gate.Confirmation.CAN_ASK
        decision = gate.decide(assessment, confirmation)
        shown = _clean_command(command)
        record = {
            "command": shown,
            "level": decision.level.label,
            "rules": list(decision.rules),
            "document_uri": document_uri,
            "block_id": block_id,
        }
        if decision.verdict is gate.Verdict.REFUSE:  # blocked: nothing changes that
            self._record("decision", decision="blocked", **record)
            raise AInternError(f"refused: {decision.reason}. No confirmation can change that.")
        if decision.verdict is gate.Verdict.RUN:
            if decision.needs_confirmation:
                self._record("decision", decision="confirmed by client approval", **record)
            return
        self._record("decision", decision="asked", **record)
        answer = await peer.confirm(
            f"An AI assistant wants to {where} a {decision.level.label} command:\n\n"
            f"    {shown}\n\n{details + chr(10) if details else ''}{decision.prompt}\n\n"
            "Run it?"
        )
        if answer == "accept":
            self._record("decision", decision="confirmed", **record)
            return
        if answer == "unsupported":
            refused = gate.decide(assessment, gate.Confirmation.NONE)
            self._record("decision", decision="refused: no way to ask", **record)
            raise AInternError(f"not run: {refused.reason}. {HOW_A_PERSON_RUNS_IT}")
        declined = gate.decide(assessment, gate.Confirmation.DECLINED)
        self._record("decision", decision="declined", **record)
        raise AInternError(
            f"{declined.reason} (the person said no to this {decision.level.label} command)"
        )

    # -- run_command -----------------------------------------------------------------------

    async def run_command(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        settings = self.settings
        root = (await self._roots(peer))[0]
        document_uri: str | None = None
        if "command" in args:
            if any(k in args for k in ("path", "blockId", "name")):
                raise AInternError(
                    "run_command: give either command, or path with blockId or name, not both"
                )
            if not args["command"].strip():
                raise AInternError("run_command: command is empty")
            plan = plan_command(
                args["command"],
                settings=settings,
                shell=str(args.get("shell") or "").lower() or None,
                cwd=args.get("cwd") or root,
                cwd_base=root,
                env=args.get("env"),
                timeout_seconds=args.get("timeoutSeconds"),
                run_id="mcp",
            )
            block_id = None
        elif "path" in args:
            path = await self._inside_roots(peer, args["path"], "path")
            block = self._select(path, args.get("blockId"), args.get("name"))
            plan = plan_run(
                block,
                document_dir=os.path.dirname(path),
                settings=settings,
                overrides=RunOverrides(
                    cwd=args.get("cwd"),
                    cwd_base=root,
                    timeout_seconds=args.get("timeoutSeconds"),
                    env=args.get("env") or {},
                ),
            )
            if args.get("shell"):
                shell = args["shell"].lower()
                plan = attrs.evolve(
                    plan, request=attrs.evolve(plan.request, shell=shell), assess_shell=shell
                )
            document_uri = Path(path).as_uri()
            block_id = block.id
        else:
            raise AInternError(
                "run_command: missing required field 'command' (or 'path' with 'blockId' or "
                "'name' to run a block of a Markdown file)"
            )
        plan = attrs.evolve(
            plan,
            request=attrs.evolve(
                plan.request,
                cwd=await self._cwd(peer, plan.request.cwd, root),
                max_output_characters=FULL_OUTPUT_CHARACTERS,
            ),
        )
        validate_request(plan.request)
        await self._gate(
            peer,
            assess_plan(plan, self.rules),
            plan.request.command,
            where="run",
            details=plan.describe(),
            document_uri=document_uri,
            block_id=block_id,
        )
        run = await self._run(plan.request, peer, document_uri, block_id)
        return self._run_output(run, plan.request.command, document_uri, block_id)

    def _select(self, path: str, block_id: str | None, name: str | None) -> CommandBlock:
        if (block_id is None) == (name is None):
            raise AInternError("run_command: with path, give exactly one of blockId or name")
        blocks = self._blocks(path)
        for block in blocks:
            if block_id is not None and block.id == block_id:
                return block
            if name is not None and block.options.get("name") == name:
                return block
        what = f"id {block_id!r}" if block_id is not None else f"name {name!r}"
        raise AInternError(
            f"no block with {what} in {path} ({len(blocks)} block(s)); list_blocks shows "
            "their ids and names"
        )

    async def _cwd(self, peer: Peer, cwd: str | None, base: str) -> str:
        """The directory to run in: inside allowedDirectories when set, else the roots."""
        validate_text("the working directory", cwd)
        directory = resolve_cwd(cwd, self.settings.allowed_directories, base=base)
        if not self.settings.allowed_directories:
            roots = await self._roots(peer)
            if not any(_within(directory, root) for root in roots):
                raise AInternError(
                    f"working directory {cwd!r} resolves to {directory}, outside the workspace "
                    f"({', '.join(roots)}); run inside it, or list the directory in "
                    "aintern.allowedDirectories"
                )
        return directory

    async def _run(
        self, request: RunRequest, peer: Peer, document_uri: str | None, block_id: str | None
    ) -> RunResult:
        last_line = [""]

        def on_output(text: str) -> None:
            lines = [ln for ln in text.replace("\r", "\n").split("\n") if ln.strip()]
            if lines:
                last_line[0] = lines[-1][-200:]

        running = RunningCommand(request, on_output=on_output, stop_when_waiting=INPUT_WAIT_SECONDS)
        self._runs.add(running)
        started = time.monotonic()

        async def report() -> None:
            total = running.timeout_seconds
            while True:
                await asyncio.sleep(PROGRESS_INTERVAL_SECONDS)
                elapsed = time.monotonic() - started
                message = redact(last_line[0]).text if last_line[0] else "running"
                with contextlib.suppress(Exception):
                    await peer.progress(round(elapsed, 1), total, message)

        try:
            running.start()
            reporter = asyncio.ensure_future(report())
            try:
                return await running.wait()
            except asyncio.CancelledError:
                # MCP cancellation: kill the whole tree, keep what it printed.
                running.cancel()
                with anyio.CancelScope(shield=True):
                    result = await running.wait()
                    self._keep(result, request.command, document_uri, block_id)
                raise
            finally:
                reporter.cancel()
        finally:
            self._runs.discard(running)

    def _keep(
        self, run: RunResult, command: str, document_uri: str | None, block_id: str | None
    ) -> tuple[str, str, int]:
        """Store the full output for read_capture and the run in the history.

        Returns the capture id, the capture as returned (cut to maxOutputCharacters) and
        how many characters were left out of it.
        """
        capture_id = f"run-{secrets.token_hex(6)}"
        limit = self.settings.max_output_characters
        cut = truncate(run.output, max_characters=limit, mode=TruncationMode.KEEP_BOTH)
        stored_full = not run.was_truncated
        self.store.add(StoredCapture(capture_id, command, run.output, run.exit_code, stored_full))
        if run.timed_out:
            status = "timedOut"
        elif run.cancelled:
            status = "cancelled"
        else:
            status = "executed" if run.exit_code == 0 else "failed"
        self._record(
            "run",
            command=_clean_command(command),
            status=status,
            document_uri=document_uri,
            block_id=block_id,
            working_dir=run.cwd,
            output=cut.text,  # the history keeps less still; cutting 16 MB twice is slow
            exit_code=run.exit_code,
            duration_ms=run.duration_ms,
        )
        # the collector keeps FULL_OUTPUT_CHARACTERS; beyond that even the store is cut
        lost = max(0, run.original_length - len(run.output)) if run.was_truncated else 0
        omitted = cut.removed_characters + lost
        return capture_id, cut.text, omitted

    def _run_output(
        self, run: RunResult, command: str, document_uri: str | None, block_id: str | None
    ) -> ToolOutput:
        capture_id, shown, omitted = self._keep(run, command, document_uri, block_id)
        hint = ""
        if omitted:
            hint = (
                f"\n[output cut: {omitted:,} of {run.original_length:,} characters omitted; "
                f'read_capture {{"captureId": "{capture_id}"}} pages through all of it]'
            )
        structured: dict[str, Any] = {
            "command": _clean_command(command),
            "exitCode": run.exit_code,
            "signal": run.signal,
            "timedOut": run.timed_out,
            "cancelled": run.cancelled,
            "durationMs": run.duration_ms,
            "cwd": run.cwd,
            "output": shown,
            "wasTruncated": bool(omitted),
            "originalLength": run.original_length,
            "omittedCharacters": omitted,
            "redactionCount": shown.count("[REDACTED:"),
            "captureId": capture_id,
            "blockId": block_id,
        }
        seconds = run.duration_ms / 1000
        waiting = run.waiting_for_input
        structured["waitingForInput"] = (
            None
            if waiting is None
            else {**waiting.to_json(), "prompt": redact(waiting.prompt).text}
        )
        if waiting is not None:
            status = (
                f"stopped after {seconds:.1f} s: it waited for input at the prompt "
                f"{redact(waiting.prompt.strip()).text!r}, which nobody can answer here; "
                "answer it non-interactively (printf 'y\\n' | command, a --yes or "
                "--non-interactive flag, a here-string) or use terminal_create + terminal_send"
            )
        elif run.timed_out:
            status = f"timed out after {seconds:.1f} s (killed); output so far below"
        elif run.cancelled:
            status = f"cancelled after {seconds:.1f} s"
        else:
            sig = f" ({run.signal})" if run.signal else ""
            status = f"exit {run.exit_code}{sig} · {seconds:.1f} s"
        footer = f"[{status} · cwd {run.cwd} · captureId {capture_id}]"
        text = f"$ {structured['command']}\n{shown.rstrip()}{hint}\n{footer}"
        return ToolOutput(structured, text)

    # -- read_capture ----------------------------------------------------------------------

    async def read_capture(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        stored = self.store.get(args["captureId"])
        offset = int(args.get("offset", 0))
        limit = int(args.get("limit", 100_000))
        total = len(stored.text)
        if offset > total:
            raise AInternError(
                f"read_capture: offset {offset} is past the end of the capture ({total} characters)"
            )
        page = stored.text[offset : offset + limit]
        end = offset + len(page)
        structured = {
            "captureId": stored.capture_id,
            "command": _clean_command(stored.command),
            "exitCode": stored.exit_code,
            "offset": offset,
            "length": len(page),
            "totalLength": total,
            "nextOffset": end if end < total else None,
            "complete": stored.full,
            "text": page,
        }
        more = (
            f'\n[characters {offset:,}-{end:,} of {total:,}; next: "offset": {end}]'
            if end < total
            else f"\n[characters {offset:,}-{end:,} of {total:,}: end of capture]"
        )
        return ToolOutput(structured, page + more)

    # -- terminals -------------------------------------------------------------------------

    async def terminal_create(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        base = (await self._roots(peer))[0]
        cwd = await self._cwd(peer, args.get("cwd") or base, base)
        session = await self.terminals.create(
            title=args.get("title"), cwd=cwd, shell=args.get("shell")
        )
        info = session.info()
        return ToolOutput(
            info,
            f"{session.terminal_id}: {session.shell} in {session.cwd}"
            + ("" if info["shellIntegration"] else " (no shell integration: no exit codes)"),
        )

    async def terminal_send(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        session = self.terminals.get(args["terminalId"])
        text = args["text"]
        validate_text("the text to type", text)
        await self._gate(
            peer, self._assess(text, session.shell), text, where="type into a terminal"
        )
        before = session.finished_count
        session.send(text, execute=True)
        wait = float(args.get("waitSeconds", 0))
        structured: dict[str, Any] = {"terminalId": session.terminal_id, "success": True}
        if wait > 0 and session.integrated:
            record = await session.wait_for_command(before, wait)
            structured["finished"] = record is not None
            if record is not None:
                structured.update(self._record_json(session, record))
                self._record(
                    "run",
                    command=_clean_command(text),
                    status="executed" if record.exit_code == 0 else "failed",
                    working_dir=record.cwd,
                    output=structured["output"],
                    exit_code=record.exit_code,
                )
        text_out = f"sent to {session.terminal_id}"
        if structured.get("finished"):
            text_out += f"; exit {structured['exitCode']}\n{structured['output']}"
        elif wait > 0:
            text_out += f"; still running after {wait:g} s (terminal_last_command waits more)"
        return ToolOutput(structured, text_out)

    def _record_json(self, session: TerminalSession, record: Any) -> dict[str, Any]:
        processed = self.captures.process_output(record.raw_output)
        return {
            "command": _clean_command(record.command_line),
            "exitCode": record.exit_code,
            "cwd": record.cwd,
            "output": processed.text,
            "wasTruncated": processed.was_truncated or record.output_clipped,
            "redactionCount": processed.redaction_count,
        }

    async def terminal_read(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        session = self.terminals.get(args["terminalId"])
        lines = [redact(line).text for line in session.read_output(int(args.get("lines", 100)))]
        return ToolOutput({"terminalId": session.terminal_id, "output": lines}, "\n".join(lines))

    async def terminal_last_command(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        session = self.terminals.get(args["terminalId"])
        if not session.integrated:
            raise AInternError(
                f"{session.terminal_id} runs {session.shell}, which has no shell integration: "
                "commands have no recorded exit code; use terminal_read"
            )
        wait = float(args.get("waitSeconds", 0))
        if wait > 0 and session.job_running:
            await session.wait_for_command(session.finished_count, wait)
        record = session.last_command
        if record is None:
            raise AInternError(f"{session.terminal_id} has not finished a command yet")
        structured = {"terminalId": session.terminal_id, **self._record_json(session, record)}
        structured["running"] = session.job_running
        text = f"$ {structured['command']}\n{structured['output']}\n[exit {record.exit_code}]"
        return ToolOutput(structured, text)

    async def terminal_list(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        terminals = self.terminals.list()
        lines = [
            f"{t['terminalId']}: {t['title']} ({t['shell']}, {t['cwd']}"
            f"{', exited' if not t['alive'] else ''})"
            for t in terminals
        ]
        return ToolOutput({"terminals": terminals}, "\n".join(lines) or "no terminals")

    async def terminal_close(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        terminal_id = args["terminalId"]
        self.terminals.get(terminal_id)  # unknown ids are an error, not "false"
        await self.terminals.close(terminal_id)
        return ToolOutput({"terminalId": terminal_id, "success": True}, f"closed {terminal_id}")

    # -- history ---------------------------------------------------------------------------

    async def history_tool(self, args: dict[str, Any], peer: Peer) -> ToolOutput:
        limit = int(args.get("limit", 20))
        uri = None
        if args.get("path"):
            uri = Path(await self._inside_roots(peer, args["path"], "path")).as_uri()
        # read after every queued write, on the writer's thread
        runs, recent = await asyncio.wrap_future(
            self._writer.submit(
                lambda: (self.history.runs(uri, limit), self.history.decisions(limit * 4))
            )
        )
        decisions = [d for d in recent if uri is None or d["documentUri"] == uri][:limit]
        lines = [
            f"{r['executedAt']} {r['status']} exit {r['exitCode']}: {r['command']}" for r in runs
        ]
        lines += [
            f"{d['decidedAt']} {d['decision']} ({d['level']}): {d['command']}" for d in decisions
        ]
        return ToolOutput({"runs": runs, "decisions": decisions}, "\n".join(lines) or "no history")


_SIMPLE_COMMANDS = frozenset({"command", "declaration_command", "unset_command", "test_command"})


def sub_commands(command: str, shell: str, assessment: Assessment) -> list[dict[str, Any]]:
    """Each simple command of `command` with the findings inside it and their level.

    POSIX shells are split with the analyser's tree-sitter parse; a finding belongs to
    the innermost command around it (`echo $(rm -rf /)`: to `rm -rf /`). PowerShell and
    cmd, and findings outside every command, are reported on the whole text.
    """
    spans: list[tuple[int, int]] = []
    if shell_family(shell) in ("bash", "console"):
        data = command.encode("utf-8", "surrogatepass")
        positions = Positions(command, data)
        stack = [bash_parse(data).root_node]
        while stack:
            node = stack.pop()
            if node.type in _SIMPLE_COMMANDS:
                spans.append((positions.char(node.start_byte), positions.char(node.end_byte)))
            stack.extend(node.children)
    spans.sort()
    found: dict[tuple[int, int], list[Finding]] = {span: [] for span in spans}
    whole = (0, len(command))
    for finding in assessment.findings:
        around = [s for s in spans if s[0] <= finding.start and finding.end <= s[1]]
        span = min(around, key=lambda s: s[1] - s[0]) if around else whole
        found.setdefault(span, []).append(finding)
    out = []
    for (start, end), findings in sorted(found.items()):
        level = max((f.level for f in findings), default=RiskLevel.SAFE)
        out.append(
            {
                "text": _clean_command(command[start:end]),
                "start": start,
                "end": end,
                "level": level.label,
                "rules": [f.rule for f in findings],
            }
        )
    return out


def _within(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:
        return False
