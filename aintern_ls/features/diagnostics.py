"""Danger findings, placeholders and extraction warnings as diagnostics on the exact words.

Moderate findings are hints (no squiggle, not in the problems list) so a long chat
transcript shows marks only where a person needs to look; `diagnostics.minimumLevel`
drops findings below a level altogether. Placeholders (`<your-token>`, `YOUR_API_KEY`,
`{{var}}`, `$FOO` not set in the run's environment) are hints too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.extraction import placeholders
from aintern_ls.models import CommandBlock
from aintern_ls.positions import Encoding
from aintern_ls.runbook import checks
from aintern_ls.runs import BlockOptions
from aintern_ls.safety import Assessment, RiskLevel
from aintern_ls.server import AInternServer

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


def diagnostics_for(
    doc: Document,
    assessments: dict[str, Assessment],
    encoding: Encoding,
    minimum: RiskLevel = RiskLevel.MODERATE,
    environment: Mapping[str, str] | None = None,
) -> list[types.Diagnostic]:
    out: list[types.Diagnostic] = []
    env = os.environ if environment is None else environment
    for block in doc.blocks:
        assessment = assessments[block.id]
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
                        "the last run printed something else than this fence shows "
                        "(hover for the diff)"
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
    for block in doc.blocks:
        out.extend(_option_diagnostics(doc, block.options, block.start_line, encoding))
    for warning in doc.result.warnings:
        # warnings count characters in code points; the client wants its own units
        offset = doc.index.line_start(warning.line) + warning.character
        line_end = doc.index.line_start(warning.line + 1)
        end = len(doc.text[:line_end].rstrip("\r\n")) if line_end > offset else offset
        out.append(
            types.Diagnostic(
                range=_range(doc, offset, max(end, offset), encoding),
                message=warning.message,
                severity=types.DiagnosticSeverity.Warning,
                source=SOURCE,
            )
        )
    return out


def _option_diagnostics(
    doc: Document, attributes: dict[str, object], line: int, encoding: Encoding
) -> list[types.Diagnostic]:
    """Fence attributes aintern does not act on (information) or cannot read (warning)."""
    options = BlockOptions.parse(attributes)
    if not options.unknown and not options.problems:
        return []
    start = doc.index.line_start(line)
    end = len(doc.text[: doc.index.line_start(line + 1)].rstrip("\r\n"))
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
        assessments = {b.id: server.documents.assess(b) for b in doc.blocks}
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=doc.uri,
                diagnostics=diagnostics_for(
                    doc,
                    assessments,
                    server.encoding,
                    RiskLevel.from_label(server.settings.diagnostics.minimum_level),
                ),
            )
        )

    server.on_document(publish)
