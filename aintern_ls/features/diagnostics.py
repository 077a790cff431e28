"""Danger findings and extraction warnings as diagnostics on the exact words."""

from __future__ import annotations

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.positions import Encoding
from aintern_ls.runs import BlockOptions
from aintern_ls.safety import Assessment, RiskLevel
from aintern_ls.server import AInternServer

SOURCE = "aintern"

SEVERITY = {
    RiskLevel.BLOCKED: types.DiagnosticSeverity.Error,
    RiskLevel.CRITICAL: types.DiagnosticSeverity.Error,
    RiskLevel.DANGEROUS: types.DiagnosticSeverity.Warning,
    RiskLevel.MODERATE: types.DiagnosticSeverity.Information,
}


def _range(doc: Document, start: int, end: int, encoding: Encoding) -> types.Range:
    sl, sc = doc.index.position(start, encoding)
    el, ec = doc.index.position(end, encoding)
    return types.Range(
        start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)
    )


def diagnostics_for(
    doc: Document, assessments: dict[str, Assessment], encoding: Encoding
) -> list[types.Diagnostic]:
    out: list[types.Diagnostic] = []
    for block in doc.blocks:
        assessment = assessments[block.id]
        for finding in assessment.findings:
            severity = SEVERITY.get(finding.level)
            if severity is None:
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
                uri=doc.uri, diagnostics=diagnostics_for(doc, assessments, server.encoding)
            )
        )

    server.on_document(publish)
