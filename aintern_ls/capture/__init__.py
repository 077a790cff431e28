"""Capture: turn what programs wrote into what a person saw, bounded and redacted.

- `vt`: the streaming VT processor (strips ECMA-48, renders line edits, extracts marks)
- `screen`: alternate-screen (full-screen program) rendering through pyte
- `truncation`: the one truncation function (lines, characters, tokens; three modes)
- `redaction`: secret redaction with kind-named markers
- `collector`: `OutputCollector`, fed PTY bytes by the terminal engine
- `service`: `CaptureService`, stream and buffer captures with per-session history
"""

from aintern_ls.capture.collector import FinalOutput, OutputCollector
from aintern_ls.capture.redaction import Redaction, redact
from aintern_ls.capture.service import (
    CapturableSession,
    CaptureService,
    CommandOutput,
    ProcessedOutput,
    fit_capture,
    last_command_output,
)
from aintern_ls.capture.truncation import Truncation, budget_for, estimate_tokens, truncate
from aintern_ls.capture.vt import Mark, RenderResult, VTProcessor, render

__all__ = [
    "CapturableSession",
    "CaptureService",
    "CommandOutput",
    "FinalOutput",
    "Mark",
    "OutputCollector",
    "ProcessedOutput",
    "Redaction",
    "RenderResult",
    "Truncation",
    "VTProcessor",
    "budget_for",
    "estimate_tokens",
    "fit_capture",
    "last_command_output",
    "redact",
    "render",
    "truncate",
]
