"""Open documents, their command blocks, and what has happened to each block.

Extraction runs once per document version (cached by text), and safety per block
(cached by the analyser). Blocks keep their status across edits because block ids
are stable: after every re-extraction the status of a block with the same id is
carried over to the new `CommandBlock`. Knows nothing about LSP.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import unquote, urlparse

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.extraction import extract_incremental
from aintern_ls.models import CommandBlock, CommandExtractionResult, CommandResult
from aintern_ls.positions import LineIndex
from aintern_ls.runs import BlockOptions, block_shell
from aintern_ls.safety import Assessment, RiskLevel, SafetyRules, gate


@attrs.define
class Document:
    uri: str
    text: str
    digest: str
    result: CommandExtractionResult
    index: LineIndex
    last_results: dict[str, CommandResult] = attrs.field(factory=dict)

    @property
    def blocks(self) -> list[CommandBlock]:
        return self.result.commands

    def block(self, block_id: str) -> CommandBlock:
        for block in self.blocks:
            if block.id == block_id:
                return block
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
        self.rules = SafetyRules()

    def update(self, uri: str, text: str) -> Document:
        """Extract `text` now (unless it is unchanged) and make it the current version."""
        old = self._docs.get(uri)
        if old is not None and old.digest == _digest(text):
            return old
        return self.apply(uri, text, analyse(text, uri, self.rules))

    def is_current(self, uri: str, text: str) -> bool:
        old = self._docs.get(uri)
        return old is not None and old.digest == _digest(text)

    def apply(self, uri: str, text: str, result: CommandExtractionResult) -> Document:
        """Make an extraction done elsewhere (a worker thread) the current version."""
        doc = Document(uri, text, _digest(text), result, LineIndex(text))
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

    def close(self, uri: str) -> None:
        self._docs.pop(uri, None)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._docs.values()))

    def assess(self, block: CommandBlock) -> Assessment:
        """The gate's assessment of `block` as written (command and fence `env`)."""
        assessment = assess_block(block, self.rules)
        mark_danger(block, assessment)
        return assessment


def assess_block(block: CommandBlock, rules: SafetyRules | None) -> Assessment:
    """Assess a block's command as its fence's shell runs it, with the fence's `env`."""
    options = BlockOptions.parse(block.options)
    # A fence's absolute `cwd=/…` or `cwd=~…` is known without the document's folder.
    cwd = options.cwd or block.working_directory
    known = cwd if cwd and cwd.startswith(("/", "~")) else None
    return gate.check(block.command, block_shell(block), rules, options.env, known)


def warm_assessments(blocks: list[CommandBlock], rules: SafetyRules | None) -> None:
    """Assess every block (the analyser caches the answers) and set its danger fields
    (`is_potentially_dangerous`, `danger_warning`): run this in a worker."""
    for block in blocks:
        mark_danger(block, assess_block(block, rules))


def mark_danger(block: CommandBlock, assessment: Assessment) -> None:
    """Copy the assessment onto the block, so `dangerous_command_count` is true."""
    dangerous = assessment.level >= RiskLevel.DANGEROUS
    block.is_potentially_dangerous = dangerous
    block.danger_warning = gate.reasons(assessment)[1] if dangerous else None


def analyse(text: str, uri: str, rules: SafetyRules | None) -> CommandExtractionResult:
    """Extract `text` and assess its blocks; slow for big documents, so run it in a worker."""
    result = extract_incremental(text, uri)
    warm_assessments(result.commands, rules)
    return result


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _carry_over(old: Document, new: Document) -> None:
    """Keep statuses and last results of blocks that survived the edit."""
    previous = {b.id: b for b in old.blocks}
    for block in new.blocks:
        before = previous.get(block.id)
        if before is None:
            continue
        block.status = before.status
        block.executed_at = before.executed_at
        block.executed_in_session_id = before.executed_in_session_id
        block.output_capture_id = before.output_capture_id
    alive = {b.id for b in new.blocks}
    new.last_results = {k: v for k, v in old.last_results.items() if k in alive}
