"""Open documents, their command blocks, and what has happened to each block.

Extraction runs once per document version (cached by text), and safety per block
(cached by the analyser). Blocks keep their status across edits because block ids
are stable: after every re-extraction the status of a block with the same id is
carried over to the new `CommandBlock`. Knows nothing about LSP.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.extraction import extract_incremental, placeholders
from aintern_ls.extraction.compact import (
    HINT_EXPECTED,
    HINT_OPTIONS,
    HINT_PLACEHOLDER,
    BlockTable,
    Packed,
)
from aintern_ls.models import (
    CommandBlock,
    CommandBlockStatus,
    CommandExtractionResult,
    CommandResult,
)
from aintern_ls.positions import LineIndex
from aintern_ls.rope import Text
from aintern_ls.runs import BlockOptions, block_shell
from aintern_ls.safety import Assessment, RiskLevel, SafetyRules, gate


@attrs.define
class Document:
    uri: str
    text: Text
    """A `str`, or for a huge document a `Rope`."""
    result: CommandExtractionResult
    index: LineIndex
    last_results: dict[str, CommandResult] = attrs.field(factory=dict)
    memo: dict[str, dict[str, Any]] = attrs.field(factory=dict, repr=False, eq=False)
    """What features derived from each block (by block id), handed from version to
    version, so the lenses and diagnostics of blocks an edit did not touch are not
    made again (see `features.diagnostics`)."""

    @property
    def blocks(self) -> Sequence[CommandBlock]:
        """A list, or for a huge document a `BlockTable` (blocks made when asked for)."""
        return self.result.commands

    def find(self, block_id: str) -> CommandBlock | None:
        blocks = self.blocks
        if isinstance(blocks, BlockTable):
            index = blocks.index_of(block_id)
            return None if index is None else blocks.block(index)
        return next((block for block in blocks if block.id == block_id), None)

    def has_block(self, block_id: str) -> bool:
        blocks = self.blocks
        if isinstance(blocks, BlockTable):
            return blocks.index_of(block_id) is not None
        return any(block.id == block_id for block in blocks)

    def blocks_on_lines(self, first: int, last: int) -> list[CommandBlock]:
        """The blocks whose fence (opening to closing line) meets lines `first`..`last`."""
        blocks = self.blocks
        if isinstance(blocks, BlockTable):
            k = bisect.bisect_right(blocks.lines, last) - 1
            get: Any = blocks.block
        else:
            k = bisect.bisect_right(blocks, last, key=lambda b: b.start_line) - 1
            get = blocks.__getitem__
        found: list[CommandBlock] = []
        while k >= 0:
            block = get(k)
            if block.end_line < first:
                break
            found.append(block)
            k -= 1
        return found[::-1]

    def block(self, block_id: str) -> CommandBlock:
        found = self.find(block_id)
        if found is not None:
            return found
        ids = ", ".join(b.id for b in self.blocks[:10]) or "none"
        raise AInternError(
            f"no command block {block_id!r} in {self.uri} (it may have been edited away); "
            f"blocks here: {ids}"
        )

    @property
    def directory(self) -> str | None:
        """The folder of a `file:` document: the default cwd of its blocks."""
        parsed = urlparse(self.uri)
        if parsed.scheme != "file":
            return None
        return str(Path(unquote(parsed.path)).parent)

    def command_span(self, block: CommandBlock, start: int, end: int) -> tuple[int, int]:
        """Map a span of `block.command` to document offsets.

        The command text is the fence body minus container prefixes (block quotes,
        list indents) and console prompts, so each command line is found as the tail
        of a document line inside the fence.
        """
        lines = block.command.split("\n")
        doc_line = block.start_line + 1
        line_offsets: list[int] = []  # document offset of each command line's start
        for text in lines:
            found = None
            for candidate in range(doc_line, max(block.end_line, doc_line) + 1):
                line_start = self.index.line_start(candidate)
                line_end = self.index.line_start(candidate + 1)
                content = self.text[line_start:line_end].rstrip("\r\n")
                if content.endswith(text) and (text or not content.strip()):
                    found = line_start + len(content) - len(text)
                    doc_line = candidate + 1
                    break
            if found is None:  # fall back to the fence body's first line
                found = self.index.line_start(block.start_line + 1)
            line_offsets.append(found)

        def to_doc(offset: int) -> int:
            offset = max(0, min(offset, len(block.command)))
            line = block.command.count("\n", 0, offset)
            column = offset - (block.command.rfind("\n", 0, offset) + 1)
            return line_offsets[line] + column

        return to_doc(start), to_doc(end)


class DocumentStore:
    """All open documents by URI."""

    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}
        self._assessments = Assessments(SafetyRules())

    @property
    def rules(self) -> SafetyRules:
        return self._assessments.rules

    @rules.setter
    def rules(self, rules: SafetyRules) -> None:
        """New rules (settings changed): every block is assessed again on demand."""
        self._assessments = Assessments(rules)

    @property
    def assessments(self) -> Assessments:
        """The assessments of blocks under the current rules (thread-safe)."""
        return self._assessments

    def analyse(self, text: Text, uri: str) -> CommandExtractionResult:
        """Extract `text` and assess its blocks; slow for big documents, so run it in a
        worker. Blocks whose command, shell and `env` are unchanged are not assessed again."""
        result = extract_incremental(text, uri)
        table = result.commands
        if isinstance(table, BlockTable):
            table.on_make = self.assess  # (marks a block's danger when made)
            table.judge = self._judge_part
        self._assessments.warm(result.commands)
        return result

    def _judge_part(self, packed: Packed, text: Text, base: int) -> None:
        self._assessments.judge_part(packed, text, base)

    def update(self, uri: str, text: Text) -> Document:
        """Extract `text` now (unless it is unchanged) and make it the current version."""
        old = self._docs.get(uri)
        if old is not None and (old.text is text or old.text == text):
            return old
        return self.apply(uri, text, self.analyse(text, uri))

    def is_current(self, uri: str, text: Text) -> bool:
        old = self._docs.get(uri)
        return old is not None and (old.text is text or old.text == text)

    def apply(self, uri: str, text: Text, result: CommandExtractionResult) -> Document:
        """Make an extraction done elsewhere (a worker thread) the current version."""
        doc = Document(uri, text, result, LineIndex(text))
        old = self._docs.get(uri)
        if old is not None:
            _carry_over(old, doc)
        self._docs[uri] = doc
        return doc

    def get_or_none(self, uri: str) -> Document | None:
        return self._docs.get(uri)

    def get(self, uri: str) -> Document:
        doc = self._docs.get(uri)
        if doc is None:
            raise AInternError(f"document {uri} is not open; open it in the editor first")
        return doc

    def uri_of_block(self, block_id: str) -> str | None:
        """The open document that has a block `block_id` (ids hash the URI, so at most
        one does), or None."""
        for uri, doc in list(self._docs.items()):
            if doc.has_block(block_id):
                return uri
        return None

    def close(self, uri: str) -> None:
        self._docs.pop(uri, None)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._docs.values()))

    def assess(self, block: CommandBlock) -> Assessment:
        """The gate's assessment of `block` as written (command and fence `env`)."""
        assessment = self._assessments.get(block)
        mark_danger(block, assessment)
        return assessment


class Assessments:
    """The gate's assessments of blocks under one set of rules, kept by what they depend
    on (command, shell, the fence's `env`): after an edit only new commands are assessed,
    and the blocks of a big transcript are not re-read for every lens or diagnostic."""

    LIMIT = 200_000

    def __init__(self, rules: SafetyRules) -> None:
        self.rules = rules
        self._by_key: dict[tuple[Any, ...], Assessment] = {}
        self._by_block: dict[int, tuple[CommandBlock, Assessment]] = {}
        """The blocks of the last `warm` (the version being edited), by identity."""

    def get(self, block: CommandBlock) -> Assessment:
        known = self._by_block.get(id(block))
        if known is not None and known[0] is block:
            return known[1]
        key = _assessment_key(block)
        found = self._by_key.get(key)
        if found is None:
            if len(self._by_key) >= self.LIMIT:
                self._by_key.clear()
            found = self._by_key[key] = assess_block(block, self.rules)
        return found

    def warm(self, blocks: Sequence[CommandBlock]) -> None:
        """Assess every block and set its danger fields (see `mark_danger`)."""
        if isinstance(blocks, BlockTable):
            self.judge(blocks)
            return
        by_block: dict[int, tuple[CommandBlock, Assessment]] = {}
        known = self._by_block
        for block in blocks:
            entry = known.get(id(block))
            if entry is None or entry[0] is not block:  # (a block of the last version is marked)
                entry = (block, self.get(block))
                mark_danger(block, entry[1])
            by_block[id(block)] = entry
        self._by_block = by_block

    def judge(self, table: BlockTable) -> None:
        """A huge document's levels and hints, region by region, from blocks that live
        only as long as their assessment (only regions not judged under these rules)."""
        for packed, base, _, _ in table.parts():
            self.judge_part(packed, table.text, base)

    def judge_part(self, packed: Packed, text: Text, base: int) -> None:
        """Judge one region's fences, unless they were judged under these rules."""
        if packed.judged_by is self:
            return
        for j in range(packed.count):
            block = packed.light(j, text, base)
            packed.levels[j] = int(assess_block(block, self.rules).level)
            packed.hints[j] = hints_of(block)
        packed.judged_by = self


def hints_of(block: CommandBlock) -> int:
    """What besides its findings can give `block` a diagnostic (`compact.HINT_*`)."""
    hints = 0
    posix = placeholders.is_posix(block.shell_type)
    if placeholders.find(block.command, {}, posix=posix):  # (every `$VAR` counts here)
        hints |= HINT_PLACEHOLDER
    if block.options:
        options = BlockOptions.parse(block.options)
        if options.unknown or options.problems:
            hints |= HINT_OPTIONS
    if block.expected_output is not None:
        hints |= HINT_EXPECTED
    return hints


def _assessment_key(block: CommandBlock) -> tuple[Any, ...]:
    options = block.options
    env: Any = None
    if options and "env" in options:
        env = tuple(sorted(BlockOptions.parse(options).env.items()))
    cwd = _known_cwd(block) if (options and "cwd" in options) or block.working_directory else None
    return (block.command, block.shell_type, block.language, env, cwd)


def assess_block(block: CommandBlock, rules: SafetyRules | None) -> Assessment:
    """Assess a block's command as its fence's shell runs it, with the fence's `env`."""
    options = BlockOptions.parse(block.options) if block.options else None
    env = options.env if options is not None else None
    return gate.check(block.command, block_shell(block), rules, env, _known_cwd(block))


def _known_cwd(block: CommandBlock) -> str | None:
    """A fence's absolute `cwd=/…` or `cwd=~…` (or an execute block's working directory):
    known without the document's folder, and relative paths are judged against it."""
    cwd = (BlockOptions.parse(block.options).cwd if block.options else None) or (
        block.working_directory
    )
    return cwd if cwd and cwd.startswith(("/", "~")) else None


def mark_danger(block: CommandBlock, assessment: Assessment) -> None:
    """Copy the assessment onto the block, so `dangerous_command_count` is true."""
    dangerous = assessment.level >= RiskLevel.DANGEROUS
    block.is_potentially_dangerous = dangerous
    block.danger_warning = gate.reasons(assessment)[1] if dangerous else None


def _carry_over(old: Document, new: Document) -> None:
    """Keep statuses and last results of blocks that survived the edit."""
    if isinstance(old.blocks, BlockTable) or isinstance(new.blocks, BlockTable):
        _carry_over_table(old, new)
        return
    previous = {b.id: b for b in old.blocks}
    for block in new.blocks:
        before = previous.get(block.id)
        if before is None or before is block:
            continue
        block.status = before.status
        block.executed_at = before.executed_at
        block.executed_in_session_id = before.executed_in_session_id
        block.output_capture_id = before.output_capture_id
    alive = {b.id for b in new.blocks}
    new.last_results = {k: v for k, v in old.last_results.items() if k in alive}
    new.memo = old.memo


_SAME = ("id", "command", "start_line", "end_line", "description", "message_id", "options")


def _carry_over_table(old: Document, new: Document) -> None:
    """`_carry_over` where either version is a `BlockTable`: only blocks handed out one by
    one can have a status. A block that reads the same in the new version is the same
    object there (a run in progress goes on marking it); another gets its status."""
    before_blocks: Iterable[CommandBlock] = (
        old.blocks.live.values() if isinstance(old.blocks, BlockTable) else old.blocks
    )
    table = new.blocks if isinstance(new.blocks, BlockTable) else None
    for before in list(before_blocks):
        if (
            before.status is CommandBlockStatus.PENDING
            and before.executed_at is None
            and before.output_capture_id is None
            and before.executed_in_session_id is None
        ):
            continue
        if table is None:
            block = new.find(before.id)
            if block is None or block is before:
                continue
        else:
            index = table.index_of(before.id)
            if index is None or table.peek(index) is before:
                continue
            block = table.made(index)
            if all(getattr(block, name) == getattr(before, name) for name in _SAME):
                before.source_range = block.source_range
                block = before
            table.keep(index, block)
        if block is before:
            continue
        block.status = before.status
        block.executed_at = before.executed_at
        block.executed_in_session_id = before.executed_in_session_id
        block.output_capture_id = before.output_capture_id
    new.last_results = {k: v for k, v in old.last_results.items() if new.has_block(k)}
    new.memo = old.memo
