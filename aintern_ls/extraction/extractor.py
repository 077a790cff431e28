"""Document text -> `CommandExtractionResult`: one parse, then one pass over the
fences that turns each shell fence into a `CommandBlock`.

Block ids hash the URI, the normalised command and its occurrence index among
identical commands, so a block keeps its id (and the editor its status) while
text elsewhere in the document changes.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Any
from urllib.parse import unquote

import attrs

from aintern_ls.extraction import execute, session
from aintern_ls.extraction.chat import Transcript, split_messages
from aintern_ls.extraction.info import InfoString, parse_info, shell_for
from aintern_ls.extraction.markdown import Fence, parse, plain_text
from aintern_ls.models import (
    CommandBlock,
    CommandExtractionResult,
    ExtractionWarning,
    ShellType,
    TextRange,
)
from aintern_ls.positions import LineIndex


@attrs.define
class _Draft:
    """A command read from a fence, before it gets its id."""

    fence: Fence
    info: InfoString
    command: str
    shell_type: ShellType
    description: str | None = None
    working_directory: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    expected_output: str | None = None


def extract(text: str, uri: str = "") -> CommandExtractionResult:
    """Every runnable shell fence in `text`, with warnings for what could not be used."""
    document = parse(text)
    lines = _Lines(text)
    transcript = split_messages(document.top_blocks, uri)
    warnings: list[tuple[ExtractionWarning, _Draft | None]] = []
    drafts: list[_Draft] = []
    for fence in document.fences:
        info = parse_info(fence.info)
        draft = _read_fence(fence, info, lines, warnings)
        if draft is not None:
            drafts.append(draft)
        if not fence.closed and (info.shell_type is not None or info.is_execute):
            where = "the document" if lines.is_at_end(fence.end_line) else "its container"
            warnings.append(
                (
                    ExtractionWarning(
                        f"code fence opened on line {fence.start_line + 1} is never closed; "
                        f"it runs to the end of {where}",
                        fence.start_line,
                        lines.column_of(fence.start_line, fence.markup),
                    ),
                    draft,
                )
            )
    blocks = _finish(drafts, transcript, lines, uri)
    by_draft = {id(d): b for d, b in zip(drafts, blocks, strict=True)}
    result_warnings = [
        attrs.evolve(w, block_id=by_draft[id(d)].id) if d is not None else w for w, d in warnings
    ]
    result_warnings.sort(key=lambda w: (w.line, w.character))
    return CommandExtractionResult(blocks, result_warnings)


class _Lines:
    """Document lines, for positions of things markdown-it reports by line only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.index = LineIndex(text)
        self._content_end = len(text.rstrip())

    def is_at_end(self, number: int) -> bool:
        """Whether only blank lines follow line `number`."""
        return self.index.line_start(number + 1) >= self._content_end or (
            number + 1 >= self.index.line_count
        )

    def line(self, number: int) -> str:
        start = self.index.line_start(number)
        end = (
            self.index.line_start(number + 1)
            if number + 1 < self.index.line_count
            else len(self.text)
        )
        return self.text[start:end].rstrip("\r\n")

    def column_of(self, number: int, needle: str) -> int:
        return max(self.line(number).find(needle), 0)

    def column_in_body(self, number: int, body_line: str, column: int) -> int:
        """Column on the document line of `column` in a body line whose container
        prefix (`> `, list indentation) markdown-it removed."""
        doc_line = self.line(number)
        if body_line and doc_line.endswith(body_line):
            return len(doc_line) - len(body_line) + column
        return min(column, len(doc_line))


def _read_fence(
    fence: Fence,
    info: InfoString,
    lines: _Lines,
    warnings: list[tuple[ExtractionWarning, _Draft | None]],
) -> _Draft | None:
    body = fence.content
    if info.is_execute:
        return _read_execute(fence, info, lines, warnings)
    shell = info.shell_type
    if shell is None or not body.strip():
        return None
    draft: _Draft | None
    if info.is_session or session.starts_with_prompt(body, shell):
        # `# ` is root's prompt only in console transcripts; in `terminal` captures
        # and in plain shell fences it is a comment.
        root = info.is_session and info.language != "terminal"
        read = session.parse_session(body, shell, root_prompt=root)
        if not read.commands:
            return None  # a transcript of output only: nothing to run
        draft = _Draft(fence, info, read.command, read.shell_type or shell)
        draft.expected_output = read.expected_output
    else:
        draft = _Draft(fence, info, _clean_body(body), shell)
    _apply_attributes(draft, info, fence, lines, warnings)
    return draft


def _read_execute(
    fence: Fence,
    info: InfoString,
    lines: _Lines,
    warnings: list[tuple[ExtractionWarning, _Draft | None]],
) -> _Draft | None:
    body = fence.content
    if not body.strip():
        return None
    if not info.is_yaml_action and not execute.is_json_body(body):
        shell = shell_for(info.attributes.get("shell")) or ShellType.BASH
        draft = _Draft(fence, info, _clean_body(body), shell)
        if info.terminal is not None:
            draft.options["terminal"] = info.terminal
        _apply_attributes(draft, info, fence, lines, warnings)
        return draft
    request = (
        execute.parse_action_yaml(body) if info.is_yaml_action else execute.parse_execute_json(body)
    )
    if isinstance(request, execute.ExecuteError):
        line_in_body = body.count("\n", 0, request.offset)
        line_start = body.rfind("\n", 0, request.offset) + 1
        line_end = body.find("\n", line_start)
        body_line = body[line_start : line_end if line_end >= 0 else len(body)]
        doc_line = fence.start_line + 1 + line_in_body
        column = lines.column_in_body(doc_line, body_line, request.offset - line_start)
        message = f"{request.message} (line {doc_line + 1}, column {column + 1}); not extracted"
        warnings.append((ExtractionWarning(message, doc_line, column), None))
        return None
    draft = _Draft(fence, info, request.command, request.shell_type)
    draft.working_directory = request.working_directory
    draft.description = request.description
    draft.options = dict(request.options)
    _apply_attributes(draft, info, fence, lines, warnings)
    return draft


def _apply_attributes(
    draft: _Draft,
    info: InfoString,
    fence: Fence,
    lines: _Lines,
    warnings: list[tuple[ExtractionWarning, _Draft | None]],
) -> None:
    if info.attribute_error is not None:
        opener = lines.line(fence.start_line)
        start = opener.find(fence.markup) + len(fence.markup)
        raw_info = opener[start:]
        column = start + len(raw_info) - len(raw_info.lstrip()) + info.attribute_error_column
        warnings.append((ExtractionWarning(info.attribute_error, fence.start_line, column), draft))
    for key, value in info.attributes.items():
        draft.options.setdefault(key, value)
    cwd = info.attributes.get("cwd")
    if isinstance(cwd, str) and cwd and draft.working_directory is None:
        draft.working_directory = cwd


def _clean_body(body: str) -> str:
    """The body without its leading and trailing blank lines."""
    lines = body.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


def _finish(
    drafts: list[_Draft], transcript: Transcript, lines: _Lines, uri: str
) -> list[CommandBlock]:
    seen: Counter[str] = Counter()
    per_message: Counter[int] = Counter()
    blocks: list[CommandBlock] = []
    uri = _uri_key(uri)
    for draft in drafts:
        fence = draft.fence
        normalised = _normalise(draft.command)
        occurrence = seen[normalised]
        seen[normalised] += 1
        message = transcript.message_at(fence.start_line)
        sequence = per_message[message.ordinal]
        per_message[message.ordinal] += 1
        description = draft.description
        if (
            description is None
            and fence.paragraph is not None
            and (fence.paragraph_line >= message.line)
        ):
            paragraph = fence.paragraph
            if message.marker and fence.paragraph_line == message.line:
                paragraph = paragraph.lstrip().removeprefix(message.marker)
            description = plain_text(paragraph)
        start = lines.index.line_start(fence.start_line) + lines.column_of(
            fence.start_line, fence.markup
        )
        end = lines.index.line_start(fence.end_line) + len(lines.line(fence.end_line))
        blocks.append(
            CommandBlock(
                id=_digest("blk", uri, normalised, str(occurrence)),
                message_id=_digest("msg", uri, str(message.ordinal)),
                sequence_number=sequence,
                role=message.role,
                command=draft.command,
                language=draft.info.language,
                shell_type=draft.shell_type,
                description=description,
                working_directory=draft.working_directory,
                options=draft.options,
                expected_output=draft.expected_output,
                start_line=fence.start_line,
                end_line=fence.end_line,
                source_range=TextRange(start, max(start, end)),
            )
        )
    return blocks


_DRIVE = re.compile(r"^file:///([A-Za-z]):")


def _uri_key(uri: str) -> str:
    """One spelling per file, so the CLI (`Path.as_uri()`) and editors that
    percent-encode differently (VS Code's `file:///c%3A/...`) get the same ids."""
    if not uri.startswith("file:"):
        return uri
    return _DRIVE.sub(lambda m: f"file:///{m.group(1).lower()}:", unquote(uri))


def _normalise(command: str) -> str:
    return "\n".join(line.rstrip() for line in command.strip().splitlines())


def _digest(prefix: str, *parts: str) -> str:
    digest = hashlib.sha1("\0".join(parts).encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return f"{prefix}-{digest.hexdigest()[:12]}"
