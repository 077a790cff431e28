"""Results in the document, when asked: a run's clean output written as a fenced
`output` block right after the command's fence (org-babel's `#+RESULTS`), and
replaced, not duplicated, on a rerun. Pure text work; the LSP code action is in
`features/output_block.py`.
"""

from __future__ import annotations

import re

import attrs

from aintern_ls.models import CommandBlock

OUTPUT_LANGUAGE = "output"
_FENCE = re.compile(r"^(?P<prefix>(?:[ \t]*>)*[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_BACKTICKS = re.compile(r"^[ \t>]*(`{3,})", re.MULTILINE)


@attrs.frozen
class OutputEdit:
    start: int
    end: int
    """Offsets in the document text to replace (equal for an insertion)."""
    text: str
    replaces: bool
    """True when an earlier output block is replaced ("Update output")."""

    @property
    def title(self) -> str:
        return "Update output" if self.replaces else "Insert output below"


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its ending) for every line of `text`."""
    out: list[tuple[int, str]] = []
    offset = 0
    for raw in text.splitlines(keepends=True):
        out.append((offset, raw.rstrip("\r\n")))
        offset += len(raw)
    if not text or text.endswith(("\n", "\r")):
        out.append((offset, ""))
    return out


def output_edit(text: str, block: CommandBlock, output: str) -> OutputEdit | None:
    """The edit that puts `output` under `block` (None when the fence is not closed)."""
    lines = _lines(text)
    if block.end_line >= len(lines) or block.end_line <= block.start_line:
        return None
    close_offset, close_line = lines[block.end_line]
    closing = _FENCE.match(close_line)
    if closing is None or closing.group("info").strip():
        return None  # an unclosed fence ends at its container's end: nowhere sure to write
    prefix = closing.group("prefix")
    body = output.replace("\r\n", "\n").rstrip()
    longest = max((len(m.group(1)) for m in _BACKTICKS.finditer(body)), default=0)
    fence = "`" * max(3, longest + 1)
    block_lines = (
        [f"{fence}{OUTPUT_LANGUAGE}", *body.split("\n"), fence]
        if body
        else [
            f"{fence}{OUTPUT_LANGUAGE}",
            fence,
        ]
    )
    new_block = "\n".join(
        prefix + line if line or not prefix else prefix.rstrip() for line in block_lines
    )
    after = block.end_line + 1
    if after < len(lines) and not lines[after][1].strip(" \t>"):
        after += 1  # one blank line between the command and its output
    existing = _existing_output(lines, after)
    if existing is not None:
        start = lines[after][0]
        end_line = existing
        end = lines[end_line][0] + len(lines[end_line][1])
        return OutputEdit(start, end, new_block, True)
    at = close_offset + len(close_line)
    blank = prefix.rstrip()
    return OutputEdit(at, at, f"\n{blank}\n{new_block}", False)


def _existing_output(lines: list[tuple[int, str]], number: int) -> int | None:
    """The closing line of an `output` fence opening at line `number`, if there is one."""
    if number >= len(lines):
        return None
    opening = _FENCE.match(lines[number][1])
    if opening is None or opening.group("info").strip().lower() != OUTPUT_LANGUAGE:
        return None
    marker = opening.group("fence")
    for index in range(number + 1, len(lines)):
        closing = _FENCE.match(lines[index][1])
        if (
            closing is not None
            and not closing.group("info").strip()
            and closing.group("fence")[0] == marker[0]
            and len(closing.group("fence")) >= len(marker)
        ):
            return index
    return None
