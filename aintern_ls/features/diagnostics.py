"""Danger findings, placeholders and extraction warnings as diagnostics on the exact words.

Moderate findings are hints (no squiggle, not in the problems list) so a long chat
transcript shows marks only where a person needs to look; `diagnostics.minimumLevel`
drops findings below a level altogether. Placeholders (`<your-token>`, `YOUR_API_KEY`,
`{{var}}`, `$FOO` not set in the run's environment) are hints too.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.extraction import placeholders
from aintern_ls.extraction.compact import HINT_OPTIONS, HINT_PLACEHOLDER, BlockTable
from aintern_ls.models import CommandBlock, TextRange
from aintern_ls.positions import Encoding
from aintern_ls.runbook import checks
from aintern_ls.runs import BlockOptions
from aintern_ls.safety import Assessment, RiskLevel
from aintern_ls.server import AInternServer, RawJSONStream

SOURCE = "aintern"

SEVERITY = {
    RiskLevel.BLOCKED: types.DiagnosticSeverity.Error,
    RiskLevel.CRITICAL: types.DiagnosticSeverity.Error,
    RiskLevel.DANGEROUS: types.DiagnosticSeverity.Warning,
    RiskLevel.MODERATE: types.DiagnosticSeverity.Hint,
}


def _range(doc: Document, start: int, end: int, encoding: Encoding) -> types.Range:
    sl, sc = doc.index.position(start, encoding)
    el, ec = doc.index.position(end, encoding)
    return types.Range(
        start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)
    )


PLACEHOLDER_CODE = "placeholder"
DRIFT_CODE = "output-drift"


def output_drift(doc: Document, block: CommandBlock) -> str:
    """The diff between a console fence's expected output and its last run's ('' if
    they agree, it has no expected output or it has not run to the end)."""
    result = doc.last_results.get(block.id)
    if block.expected_output is None or result is None or result.timed_out or result.cancelled:
        return ""
    return checks.diff(block.expected_output, result.output)


def placeholder_message(placeholder: placeholders.Placeholder) -> str:
    if placeholder.kind == "variable":
        return (
            f"${placeholder.name} is not set in the run's environment: "
            "you are asked for its value before a run"
        )
    return f"placeholder {placeholder.name!r}: you are asked for its value before a run"


Assessor = Mapping[str, Assessment] | Callable[[CommandBlock], Assessment]
"""Blocks' assessments: by block id, or a function of the block (a huge document's
blocks are made only when they can have diagnostics)."""


def diagnostics_for(
    doc: Document,
    assessments: Assessor,
    encoding: Encoding,
    minimum: RiskLevel = RiskLevel.MODERATE,
    environment: Mapping[str, str] | None = None,
) -> list[types.Diagnostic]:
    entries = _per_block(doc, assessments, encoding, minimum, environment, objects=True)
    out = [d for entry in entries for d in entry.findings or ()]
    out += [d for entry in entries for d in entry.options or ()]  # after every block's findings
    return out + _warnings(doc, encoding)


def diagnostics_json(
    doc: Document,
    assessments: Assessor,
    encoding: Encoding,
    minimum: RiskLevel,
    unstructure: Callable[[Any], Any],
    environment: Mapping[str, str] | None = None,
) -> str:
    """`diagnostics_for` as a JSON array, from per-block pieces kept like the
    diagnostics themselves (a huge transcript's list is not serialised again for
    every keystroke)."""
    return "".join(diagnostics_parts(doc, assessments, encoding, minimum, unstructure, environment))


def diagnostics_parts(
    doc: Document,
    assessments: Assessor,
    encoding: Encoding,
    minimum: RiskLevel,
    unstructure: Callable[[Any], Any],
    environment: Mapping[str, str] | None = None,
) -> list[str]:
    """`diagnostics_json` in pieces, to be written one after another (a huge transcript's
    diagnostics are never one string, nor copied into the message)."""
    entries = _per_block(doc, assessments, encoding, minimum, environment, objects=False)
    entries = [entry for entry in entries if entry is not _EMPTY]
    parts = [entry.json(unstructure, options=False) for entry in entries]
    parts += [entry.json(unstructure, options=True) for entry in entries]
    warnings = _warnings(doc, encoding)
    if warnings:
        parts.append(_dumps(unstructure(warnings)))
    out = ["["]
    for part in parts:
        if part:
            out += (part, ",")
    out[-1:] = ["]"] if len(out) > 1 else ["[", "]"]
    return out


class _Entry:
    """One block's diagnostics; once made into JSON only the JSON is kept (a huge
    transcript's diagnostics as objects would take many times the memory)."""

    __slots__ = ("_findings_json", "_options_json", "findings", "options")

    def __init__(self, findings: list[types.Diagnostic], options: list[types.Diagnostic]):
        self.findings: list[types.Diagnostic] | None = findings
        self.options: list[types.Diagnostic] | None = options
        self._findings_json: str | None = None
        self._options_json = ""

    def json(self, unstructure: Callable[[Any], Any], *, options: bool) -> str:
        if self._findings_json is None:
            self._findings_json = _dumps(unstructure(self.findings))
            self._options_json = _dumps(unstructure(self.options))
        if options and self is not _EMPTY:  # (both halves are asked for, this one last)
            self.findings = self.options = None
        return self._options_json if options else self._findings_json


_EMPTY = _Entry([], [])
_EMPTY._findings_json = ""
"""The entry of every block without diagnostics (nearly all of a long transcript's)."""


def _dumps(items: list[Any]) -> str:
    """A JSON list's items, without the brackets."""
    return json.dumps(items, separators=(",", ":"))[1:-1] if items else ""


def _per_block(
    doc: Document,
    assessments: Assessor,
    encoding: Encoding,
    minimum: RiskLevel,
    environment: Mapping[str, str] | None,
    *,
    objects: bool,
) -> list[_Entry]:
    """Each block's diagnostics (`objects`: as objects, not only as JSON)."""
    env = os.environ if environment is None else environment
    # A block's diagnostics depend on its text and lines, its assessment, its last run
    # and the environment its `$VARS` are looked up in: kept per block while all of
    # these stay the same.
    # One flat tuple per block (block, line, assessment, last run, digest of its text,
    # entry), for the encoding, level and environment kept next to them: a transcript
    # of 100,000 blocks keeps 100,000 of these between versions.
    context = (encoding, minimum, hash(frozenset(env.items())))
    kept = doc.memo.get(_MEMO, {})
    if kept.get(_CONTEXT) != context:
        kept = {}
    memo: dict[str, Any] = {_CONTEXT: context}
    if isinstance(doc.blocks, BlockTable):
        table = doc.blocks
        args = (encoding, minimum, env, objects)
        made = _per_table_block(doc, table, _assessor(assessments), kept, memo, *args)
        doc.memo[_MEMO] = memo
        return made
    entries: list[_Entry] = []
    last_results = doc.last_results
    assess = _assessor(assessments)
    for block in doc.blocks:
        assessment = assess(block)
        result = last_results.get(block.id) if last_results else None
        ran = None if result is None else (result.output, result.timed_out, result.cancelled)
        line = block.start_line
        old = kept.get(block.id)
        found: _Entry | None = None
        if (
            old is not None
            and old[1] == line
            and (old[2] is assessment or old[2] == assessment)
            and old[3] == ran
        ):
            # the same block object has the same text; another one is compared by its text
            if old[0] is block:
                found, entry = old[5], old
            else:
                digest = _fence_digest(doc, block.source_range)
                if old[4] == digest:
                    found, entry = old[5], (block, line, assessment, ran, digest, old[5])
        if found is None or (objects and found.findings is None):
            findings = _block_diagnostics(doc, block, assessment, encoding, minimum, env)
            options = _option_diagnostics(doc, block.options, line, encoding)
            found = _Entry(findings, options) if findings or options else _EMPTY
            entry = (block, line, assessment, ran, _fence_digest(doc, block.source_range), found)
        memo[block.id] = entry
        entries.append(found)
    doc.memo[_MEMO] = memo
    return entries


def _assessor(assessments: Assessor) -> Callable[[CommandBlock], Assessment]:
    if callable(assessments):
        return assessments
    return lambda block: assessments[block.id]


_NEEDS_BLOCK = HINT_PLACEHOLDER | HINT_OPTIONS


def _per_table_block(
    doc: Document,
    table: BlockTable,
    assess: Callable[[CommandBlock], Assessment],
    kept: dict[str, Any],
    memo: dict[str, Any],
    encoding: Encoding,
    minimum: RiskLevel,
    env: Mapping[str, str],
    objects: bool,
) -> list[_Entry]:
    """`_per_block` for a huge document: a block is made only when it can have
    diagnostics (its level reaches `minimum`, it may have placeholders or attribute
    problems, or it has run) and its diagnostics are not kept from the last version;
    the memo keeps only such blocks, by (line, level, last run, digest of its text)."""
    floor = max(int(minimum), int(RiskLevel.MODERATE))
    last_results = doc.last_results
    entries: list[_Entry] = []
    for i in range(len(table)):
        level = table.level(i)
        hints = table.hints(i)
        block_id = table.id(i)
        result = last_results.get(block_id) if last_results else None
        if level < floor and not hints & _NEEDS_BLOCK and result is None:
            entries.append(_EMPTY)
            continue
        ran = None if result is None else (result.output, result.timed_out, result.cancelled)
        line = table.lines[i]
        digest = _fence_digest(doc, table.source_range(i))
        old = kept.get(block_id)
        if (
            old is not None
            and old[1:5] == (line, level, ran, digest)
            and not (objects and old[5].findings is None)
        ):
            memo[block_id] = old
            entries.append(old[5])
            continue
        block = table.peek(i) or table.made(i)
        assessment = assess(block)
        findings = _block_diagnostics(doc, block, assessment, encoding, minimum, env)
        options = _option_diagnostics(doc, block.options, line, encoding)
        found = _Entry(findings, options) if findings or options else _EMPTY
        memo[block_id] = (None, line, level, ran, digest, found)
        entries.append(found)
    return entries


_MEMO = "diagnostics"
_CONTEXT = "\x00context"
"""(not a block id)"""


def _warnings(doc: Document, encoding: Encoding) -> list[types.Diagnostic]:
    out: list[types.Diagnostic] = []
    for warning in doc.result.warnings:
        # warnings count characters in code points; the client wants its own units
        offset = doc.index.line_start(warning.line) + warning.character
        end = _content_end(doc, warning.line)
        out.append(
            types.Diagnostic(
                range=_range(doc, offset, max(end, offset), encoding),
                message=warning.message,
                severity=types.DiagnosticSeverity.Warning,
                source=SOURCE,
            )
        )
    return out


def _fence_digest(doc: Document, source: TextRange) -> bytes:
    """A digest of the block's lines as written, from the start of the opener's line."""
    start, end = source.start, source.end
    floor = max(0, start - 4096)  # (a line that long is only compared longer)
    newline = doc.text.rfind("\n", floor, start)
    text = doc.text[newline + 1 if newline >= 0 else floor : end]
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _block_diagnostics(
    doc: Document,
    block: CommandBlock,
    assessment: Assessment,
    encoding: Encoding,
    minimum: RiskLevel,
    env: Mapping[str, str],
) -> list[types.Diagnostic]:
    out: list[types.Diagnostic] = []
    for finding in assessment.findings:
        severity = SEVERITY.get(finding.level)
        if severity is None or finding.level < minimum:
            continue
        start, end = doc.command_span(block, finding.start, finding.end)
        out.append(
            types.Diagnostic(
                range=_range(doc, start, end, encoding),
                message=f"{finding.level.label}: {finding.reason}",
                severity=severity,
                code=finding.rule,
                source=SOURCE,
            )
        )
    if output_drift(doc, block):
        first = doc.index.line_start(block.start_line)
        last = doc.index.line_start(block.end_line)
        out.append(
            types.Diagnostic(
                range=_range(doc, first, last, encoding),
                message=(
                    "the last run printed something else than this fence shows (hover for the diff)"
                ),
                severity=types.DiagnosticSeverity.Warning,
                code=DRIFT_CODE,
                source=SOURCE,
                data={"blockId": block.id},
            )
        )
    block_env = block.options.get("env")
    run_env = {**env, **block_env} if isinstance(block_env, dict) else env
    posix = placeholders.is_posix(block.shell_type)
    for placeholder in placeholders.find(block.command, run_env, posix=posix):
        start, end = doc.command_span(block, placeholder.start, placeholder.end)
        out.append(
            types.Diagnostic(
                range=_range(doc, start, end, encoding),
                message=placeholder_message(placeholder),
                severity=types.DiagnosticSeverity.Hint,
                code=PLACEHOLDER_CODE,
                source=SOURCE,
                data={"blockId": block.id, "name": placeholder.name, "kind": placeholder.kind},
            )
        )
    return out


def _content_end(doc: Document, line: int) -> int:
    """Offset of the end of `line`'s text, before its line break."""
    start = doc.index.line_start(line)
    if line + 1 >= doc.index.line_count:
        return start  # (the last line's ranges have always been empty)
    end = doc.index.line_start(line + 1)
    while end > start and doc.text[end - 1] in "\r\n":
        end -= 1
    return end


def _option_diagnostics(
    doc: Document, attributes: dict[str, object], line: int, encoding: Encoding
) -> list[types.Diagnostic]:
    """Fence attributes aintern does not act on (information) or cannot read (warning)."""
    options = BlockOptions.parse(attributes)
    if not options.unknown and not options.problems:
        return []
    start = doc.index.line_start(line)
    end = _content_end(doc, line)
    rng = _range(doc, start, max(start, end), encoding)
    out = [
        types.Diagnostic(
            range=rng,
            message=f"fence attribute {key!r} is not used by aintern (kept as written)",
            severity=types.DiagnosticSeverity.Information,
            code="unknown-attribute",
            source=SOURCE,
        )
        for key in options.unknown
    ]
    out += [
        types.Diagnostic(
            range=rng,
            message=f"{problem}; this block will not run until it is fixed",
            severity=types.DiagnosticSeverity.Warning,
            code="bad-attribute",
            source=SOURCE,
        )
        for problem in options.problems
    ]
    return out


def register(server: AInternServer) -> None:
    def publish(doc: Document) -> None:
        assess = server.documents.assessments.get  # (marked when extracted)
        diagnostics = diagnostics_parts(
            doc,
            assess,
            server.encoding,
            RiskLevel.from_label(server.settings.diagnostics.minimum_level),
            server.protocol._converter.unstructure,
        )
        opening = f'{{"uri":{json.dumps(doc.uri)},"diagnostics":'
        server.protocol.notify(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
            RawJSONStream.of_parts([opening, *diagnostics, "}"]),
        )

    server.on_document(publish)
