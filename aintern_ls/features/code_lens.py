"""Code lenses above every command fence: Run / Stop, Send to terminal, Copy, state.

Every lens's argument is `{uri, blockId, level, needsConfirmation}`: clients read the
risk from `level` / `needsConfirmation` instead of the title text. A run waiting for
input shows `⌨ waiting for input ■ Stop` and `✎ Answer` (`aintern.run.input`, whose
argument adds `prompt` and `secret`; see `features/run_input.py` and the README).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.errors import AInternError
from aintern_ls.models import CommandBlock, CommandBlockStatus, CommandResult
from aintern_ls.safety import Assessment, RiskLevel
from aintern_ls.server import AInternServer, RawJSONItems
from aintern_ls.terminal.waiting import InputWait

RUN = "aintern.run"
CANCEL = "aintern.cancel"
SEND = "aintern.sendToTerminal"
COPY = "aintern.copy"
SHOW_RISK = "aintern.showRisk"
ANSWER = "aintern.run.input"


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 100 else f"{ms} ms"


def status_title(block: CommandBlock, result: CommandResult | None) -> str | None:
    status = block.status
    if status is CommandBlockStatus.EXECUTING:
        return None  # the Stop lens says it
    if result is None:
        return {
            CommandBlockStatus.COPIED: "⎘ copied",
            CommandBlockStatus.SENT_TO_TERMINAL: "⇥ in terminal",
        }.get(status)
    if result.timed_out:
        return f"⏱ timed out after {_seconds(result.duration_ms)}"
    if result.cancelled:
        return "⊘ cancelled"
    if result.signal:
        return f"✗ killed by {result.signal} · {_seconds(result.duration_ms)}"
    mark = "✓" if result.exit_code == 0 else "✗"
    return f"{mark} exit {result.exit_code} · {_seconds(result.duration_ms)}"


def lenses_for(
    doc: Document,
    block: CommandBlock,
    assessment: Assessment,
    waiting: InputWait | None = None,
) -> list[types.CodeLens]:
    line = block.start_line
    rng = types.Range(
        start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)
    )
    args = [
        {
            "uri": doc.uri,
            "blockId": block.id,
            "level": assessment.level.label,
            "needsConfirmation": RiskLevel.DANGEROUS <= assessment.level < RiskLevel.BLOCKED,
        }
    ]

    def lens(title: str, command: str = "") -> types.CodeLens:
        return types.CodeLens(
            range=rng, command=types.Command(title=title, command=command, arguments=args)
        )

    out: list[types.CodeLens] = []
    if assessment.level is RiskLevel.BLOCKED:
        reason = next((f.reason for f in assessment.findings if f.level is RiskLevel.BLOCKED), "")
        out.append(lens(f"⛔ blocked: {reason}", SHOW_RISK))
    elif block.status is CommandBlockStatus.EXECUTING and waiting is not None:
        out.append(lens("⌨ waiting for input ■ Stop", CANCEL))
        answer = [{**args[0], "prompt": waiting.prompt, "secret": waiting.secret}]
        out.append(
            types.CodeLens(
                range=rng,
                command=types.Command(title="✎ Answer", command=ANSWER, arguments=answer),
            )
        )
    elif block.status is CommandBlockStatus.EXECUTING:
        out.append(lens("⏳ running… ■ Stop", CANCEL))
    else:
        confirm = assessment.level >= RiskLevel.DANGEROUS
        out.append(
            lens(f"▶ Run ({assessment.level.label}, asks first)" if confirm else "▶ Run", RUN)
        )
    if assessment.level is not RiskLevel.BLOCKED:
        out.append(lens("⇥ Send to terminal", SEND))
    out.append(lens("⎘ Copy", COPY))
    title = status_title(block, doc.last_results.get(block.id))
    if title:
        out.append(lens(title, SHOW_RISK))
    return out


def register(server: AInternServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def on_code_lens(ls: AInternServer, params: types.CodeLensParams) -> RawJSONItems:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return RawJSONItems([])
        unstructure = ls.protocol._converter.unstructure
        # (this version's blocks were assessed when it was extracted: no `mark_danger`)
        assess = ls.documents.assessments.get
        return RawJSONItems(lens_items(doc, assess, unstructure, ls.runner.waiting))


def lenses_json(
    doc: Document,
    assess: Callable[[CommandBlock], Assessment],
    unstructure: Callable[[Any], Any],
    waiting_of: Callable[[str], InputWait | None] | None = None,
) -> str:
    """The lenses of every block of `doc` as a JSON array (see `lens_items`)."""
    return "[" + b"".join(lens_items(doc, assess, unstructure, waiting_of))[1:].decode() + "]"


def lens_items(
    doc: Document,
    assess: Callable[[CommandBlock], Assessment],
    unstructure: Callable[[Any], Any],
    waiting_of: Callable[[str], InputWait | None] | None = None,
) -> list[bytes]:
    """The lenses of every block of `doc` as a JSON array, from per-block pieces
    kept while their inputs stay the same: a code lens request on a transcript
    with thousands of blocks then costs a join instead of building and
    serialising tens of thousands of objects after every keystroke.

    The key holds everything `lenses_for` reads (a test checks both agree).
    """
    parts: list[bytes] = []
    memo = doc.remember("lenses")  # by block id: see `Document.memo`
    for block in doc.blocks:
        assessment = assess(block)
        result = doc.last_results.get(block.id)
        waiting = (
            waiting_of(block.id)
            if waiting_of is not None and block.status is CommandBlockStatus.EXECUTING
            else None
        )
        key = (
            block.start_line,
            block.status,
            assessment,
            waiting,
            None
            if result is None
            else (
                result.timed_out,
                result.cancelled,
                result.signal,
                result.exit_code,
                result.duration_ms,
            ),
        )
        part = memo.get(block, key, lambda: key)  # noqa: B023 (called at once)
        if part is None:
            lenses = unstructure(lenses_for(doc, block, assessment, waiting))
            part = b"," + json.dumps(lenses, separators=(",", ":"))[1:-1].encode()
            memo.put(block, key, key, part)
        if len(part) > 1:
            parts.append(part)
    memo.done()
    return parts
