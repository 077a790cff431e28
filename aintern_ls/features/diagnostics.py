"""Danger findings and extraction warnings as diagnostics on the exact words."""

from __future__ import annotations

from lsprotocol import types

from aintern_ls.documents import Document
from aintern_ls.positions import Encoding
from aintern_ls.safety import Assessment, RiskLevel

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
