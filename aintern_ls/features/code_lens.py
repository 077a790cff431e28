"""Code lenses above every command fence: Run / Stop, Send to terminal, Copy, state.

Every lens's argument is `{blockId, level, needsConfirmation}`: clients read the risk
from `level` / `needsConfirmation` instead of the title text. The URI is not repeated in
every lens (a 50 MB transcript has 300,000 of them): commands given a `blockId` without
a `uri` find the open document that has the block (`AInternProtocol`), and both editor
clients put the document's `uri` back into the arguments they receive. A run waiting
for input shows `⌨ waiting for input ■ Stop` and `✎ Answer` (`aintern.run.input`, whose
argument adds `prompt` and `secret`; see `features/run_input.py` and the README).
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.errors import AInternError
from aintern_ls.extraction.compact import NO_LEVEL, BlockTable
from aintern_ls.models import CommandBlock, CommandBlockStatus, CommandResult
from aintern_ls.safety import Assessment, RiskLevel
from aintern_ls.server import AInternServer, RawJSONStream
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
    *,
    line: int | None = None,
    block_id: str | None = None,
) -> list[types.CodeLens]:
    """The block's lenses (`line` and `block_id`, when given, are written instead of
    the block's own: `lens_stream` makes its templates so)."""
    line = block.start_line if line is None else line
    rng = types.Range(
        start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)
    )
    args = [
        {
            "blockId": block.id if block_id is None else block_id,
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
        out.append(lens(f"⛔ blocked: {_blocked_reason(assessment)}", SHOW_RISK))
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


def _blocked_reason(assessment: Assessment) -> str:
    return next((f.reason for f in assessment.findings if f.level is RiskLevel.BLOCKED), "")


RESOLVE_ABOVE_ENV = "AINTERN_LS_RESOLVE_LENSES_ABOVE"
RESOLVE_ABOVE = 1000
"""A document with more blocks than this gets the lenses of its ready blocks unresolved
(range and `data` only; `codeLens/resolve` gives the command): its answer is a third of
the size, and a client resolves only the lenses it shows."""


def resolve_above() -> int:
    """The block count above which ready blocks' lenses are sent unresolved (the
    environment variable `AINTERN_LS_RESOLVE_LENSES_ABOVE` overrides it: tests set 0)."""
    raw = os.environ.get(RESOLVE_ABOVE_ENV, "").strip()
    return int(raw) if raw.isdigit() else RESOLVE_ABOVE


def register(server: AInternServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=True))
    async def on_code_lens(ls: AInternServer, params: types.CodeLensParams) -> RawJSONStream:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return RawJSONStream.of_text("[]")
        unstructure = ls.protocol._converter.unstructure
        # (this version's blocks were assessed when it was extracted: no `mark_danger`)
        assess = ls.documents.assessments.get
        resolve = len(doc.blocks) > resolve_above()
        return lens_stream(doc, assess, unstructure, ls.runner.waiting, resolve=resolve)

    @server.feature(types.CODE_LENS_RESOLVE)
    def on_resolve(ls: AInternServer, lens: types.CodeLens) -> types.CodeLens:
        return resolve_lens(
            list(ls.documents), lens, ls.documents.assessments.get, ls.runner.waiting
        )


STALE_TITLE = "…"
"""The title of a lens whose block is gone (edited away): the next answer drops it."""


def resolve_lens(
    docs: list[Document],
    lens: types.CodeLens,
    assess: Callable[[CommandBlock], Assessment],
    waiting_of: Callable[[str], InputWait | None] | None = None,
) -> types.CodeLens:
    """The command of an unresolved lens (`data` is `"<blockId>#<index>"`): the
    `index`-th lens of the block as it is now. Its arguments carry the document's `uri`
    (the block is found here, so the client need not put it back)."""
    data = lens.data
    block_id, _, index = data.rpartition("#") if isinstance(data, str) else ("", "", "")
    line = lens.range.start.line
    for doc in docs:
        block = _block_at(doc, line, block_id)
        if block is None:
            continue
        waiting = (
            waiting_of(block.id)
            if waiting_of is not None and block.status is CommandBlockStatus.EXECUTING
            else None
        )
        row = lenses_for(doc, block, assess(block), waiting)
        if index.isdigit() and int(index) < len(row):
            found = row[int(index)]
            arguments = found.command.arguments if found.command is not None else None
            if found.command is not None and arguments and isinstance(arguments[0], dict):
                found.command.arguments = [{"uri": doc.uri, **arguments[0]}, *arguments[1:]]
            return found
        break
    return types.CodeLens(range=lens.range, command=types.Command(title=STALE_TITLE, command=""))


def _block_at(doc: Document, line: int, block_id: str) -> CommandBlock | None:
    """The block of `doc` with id `block_id`, looked for on `line` first."""
    blocks = doc.blocks
    if isinstance(blocks, BlockTable):
        return doc.find(block_id)
    at = bisect.bisect_left(blocks, line, key=lambda b: b.start_line)
    if at < len(blocks) and blocks[at].start_line == line and blocks[at].id == block_id:
        return blocks[at]
    return doc.find(block_id) if block_id else None


def lenses_json(
    doc: Document,
    assess: Callable[[CommandBlock], Assessment],
    unstructure: Callable[[Any], Any],
    waiting_of: Callable[[str], InputWait | None] | None = None,
) -> str:
    """The lenses of every block of `doc` as one JSON array (what `lens_stream` writes)."""
    return b"".join(lens_stream(doc, assess, unstructure, waiting_of).chunks()).decode()


def lens_stream(
    doc: Document,
    assess: Callable[[CommandBlock], Assessment],
    unstructure: Callable[[Any], Any],
    waiting_of: Callable[[str], InputWait | None] | None = None,
    *,
    resolve: bool = False,
) -> RawJSONStream:
    """The lenses of every block of `doc` as a JSON array, written in slices.

    `resolve`: the lenses of ready blocks (pending, never run, not blocked: nearly all
    of a transcript's) go without their command, as `{range, data: "<blockId>#<i>"}`,
    for `codeLens/resolve` (`resolve_lens`); the others go whole.

    A transcript of 100,000 blocks has 300,000 lenses: nothing per block is kept
    between requests, and the answer is never one string. Blocks whose lenses read
    the same (same level, state and last result: nearly all of them) share one
    template, into which only the line and the block id are put; the length of the
    answer is known from the templates before a byte is written.
    """
    blocks = doc.blocks
    cache = _templates_of(unstructure)
    pending: dict[RiskLevel, _Template] = {}  # (the lenses of most blocks: by level)
    templates: list[_Template] = []
    texts: list[str] | None = []  # the blocks' JSON, while it is not too big to keep
    length = 2 + max(len(blocks) - 1, 0)  # [ ] and the commas between blocks
    last = doc.last_results
    table = blocks if isinstance(blocks, BlockTable) else None
    for i in range(len(blocks)):
        # A huge document's blocks are made only when a template needs one, or when
        # they have been handed out (they may have a status).
        found: CommandBlock | None
        assessment: Assessment | None = None
        if table is None:
            found = blocks[i]
            assessment = assess(found)
            level = assessment.level
            block_id, line = found.id, found.start_line
        else:
            found = table.peek(i)
            raw = table.level(i)
            if found is None and raw != NO_LEVEL:
                level = _LEVELS[raw]
            else:
                found = found or table.made(i)
                assessment = assess(found)
                level = assessment.level
            block_id, line = table.id(i), table.lines[i]
        status = _PENDING if found is None else found.status
        result = last.get(block_id) if last else None
        template = None
        if status is _PENDING and result is None and level is not _BLOCKED:
            template = pending.get(level)
            key: tuple[Any, ...] = (level,)
        else:
            if found is None:
                found = table.made(i)  # type: ignore[union-attr]
            if assessment is None:
                assessment = assess(found)
            key = (
                level,
                _blocked_reason(assessment) if level is _BLOCKED else None,
                status,
                (
                    waiting_of(block_id)
                    if waiting_of is not None and status is CommandBlockStatus.EXECUTING
                    else None
                ),
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
        if template is None:
            if resolve and len(key) == 1:
                key = (level, "unresolved")
            template = cache.get(key)
            if template is None:
                if len(cache) >= _MAX_TEMPLATES:
                    cache.clear()
                waiting = key[3] if len(key) > 3 else None
                unresolved = key[1:] == ("unresolved",)
                if found is None:
                    found = table.made(i)  # type: ignore[union-attr]
                if assessment is None:
                    assessment = assess(found)
                template = _Template.make(
                    doc, found, assessment, waiting, unstructure, unresolved=unresolved
                )
                cache[key] = template
            if len(key) == 1 or key[1:] == ("unresolved",):
                pending[level] = template
        templates.append(template)
        if (
            not (block_id.isascii() and block_id.isprintable())
            or '"' in block_id
            or "\\" in block_id
        ):
            block_id = json.dumps(block_id)[1:-1]
        if texts is not None:
            text = str(line).join(template.segments).replace("\x01", block_id)
            texts.append(text)
            length += len(text)
            if length > KEEP_CHARS:  # a huge document: made again while it is written
                texts = None
        else:
            length += template.length(line, block_id)

    def made() -> Iterator[str]:
        if texts is not None:
            yield from texts
        else:
            for i, template in enumerate(templates):
                if table is not None:
                    yield template.format(table.lines[i], _json_id(table.id(i)))
                else:
                    block = blocks[i]
                    yield template.format(block.start_line, _json_id(block.id))

    def chunks() -> Iterator[bytes]:
        lead = "["  # then a comma before every slice after the first
        batch: list[str] = []
        size = 0
        for text in made():
            batch.append(text)
            size += len(text)
            if size >= SLICE_CHARS:
                yield (lead + ",".join(batch)).encode()
                lead, batch, size = ",", [], 0
        yield ((lead + ",".join(batch)) if batch else lead.strip(",")).encode() + b"]"

    return RawJSONStream(length, chunks)


KEEP_CHARS = 4 << 20
"""Up to this size an answer's pieces are made once and kept until written; beyond,
they are counted first and made again while they are written."""
SLICE_CHARS = 1 << 20
_MAX_TEMPLATES = 4096
_BLOCKED = RiskLevel.BLOCKED
_LINE_MARK = 2_147_483_001
_ID_MARK = "\x01"
_MARKS = re.compile(
    r'(?<="line":)2147483001|(?<="blockId":")\\u0001(?=")|(?<="data":")\\u0001(?=#)'
)
_PENDING = CommandBlockStatus.PENDING
_LEVELS = tuple(RiskLevel(value) for value in range(max(RiskLevel) + 1))


def _json_id(block_id: str) -> str:
    """A block id as it goes between JSON quotes."""
    plain = block_id.isascii() and block_id.isprintable()
    return (
        block_id
        if plain and '"' not in block_id and "\\" not in block_id
        else json.dumps(block_id)[1:-1]
    )


class _Template:
    """One block's lenses as JSON, with a raw NUL where its line goes and a raw SOH
    where its id goes (JSON text never holds raw control characters)."""

    __slots__ = ("_base", "_ids", "_lines", "segments")

    def __init__(self, text: str) -> None:
        self._lines = text.count("\x00")
        self._ids = text.count("\x01")
        self._base = len(text) - self._lines - self._ids
        self.segments = text.split("\x00")

    @classmethod
    def make(
        cls,
        doc: Document,
        block: CommandBlock,
        assessment: Assessment,
        waiting: InputWait | None,
        unstructure: Callable[[Any], Any],
        *,
        unresolved: bool = False,
    ) -> _Template:
        lenses = lenses_for(doc, block, assessment, waiting, line=_LINE_MARK, block_id=_ID_MARK)
        if unresolved:  # the range, and which lens of which block it is
            lenses = [
                types.CodeLens(range=lens.range, data=f"{_ID_MARK}#{index}")
                for index, lens in enumerate(lenses)
            ]
        text = json.dumps(unstructure(lenses), separators=(",", ":"))[1:-1]  # (ASCII)
        return cls(_MARKS.sub(lambda m: "\x00" if m.group().isdigit() else "\x01", text))

    def length(self, line: int, block_id: str) -> int:
        return self._base + self._lines * len(str(line)) + self._ids * len(block_id)

    def format(self, line: int, block_id: str) -> str:
        return str(line).join(self.segments).replace("\x01", block_id)


_TEMPLATES: dict[int, tuple[object, dict[tuple[Any, ...], _Template]]] = {}


def _templates_of(unstructure: Callable[[Any], Any]) -> dict[tuple[Any, ...], _Template]:
    """The templates made with one converter (tests bring their own)."""
    owner = getattr(unstructure, "__self__", unstructure)
    found = _TEMPLATES.get(id(owner))
    if found is None or found[0] is not owner:
        if len(_TEMPLATES) >= 8:
            _TEMPLATES.clear()
        found = _TEMPLATES[id(owner)] = (owner, {})
    return found[1]
