"""The one CommonMark parse of a document: its fenced code blocks, the paragraph
before each, and the top-level blocks the chat splitter reads role markers from.

Only markdown-it's block rules run (the inline pass costs more than everything
else together and fences are block structure); the few paragraphs that become
descriptions get their inline markup parsed on their own.
"""

from __future__ import annotations

import functools
import re

import attrs
from markdown_it import MarkdownIt


@attrs.frozen
class Fence:
    """One fenced code block, as CommonMark reads it."""

    info: str
    """Info string as written: Runme's JSON attributes keep their own escapes."""
    content: str
    """The body, container prefixes (`> `, list indentation) already removed."""
    markup: str
    start_line: int
    end_line: int
    """Line of the closing fence, or the last line the block reaches when unclosed."""
    closed: bool
    paragraph: str | None
    """Raw text of the paragraph immediately before the fence, in the same container."""
    paragraph_line: int


@attrs.frozen
class TopBlock:
    """A block at the top level of the document (role markers live there)."""

    line: int
    kind: str
    """`heading`, `paragraph` or `other`."""
    text: str = ""
    level: int = 0
    """Heading level, 1-6."""


@attrs.frozen
class ParsedDocument:
    fences: list[Fence]
    top_blocks: list[TopBlock]


@functools.cache
def _block_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark")
    md.core.ruler.disable(["inline", "text_join"])
    return md


@functools.cache
def _inline_parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def parse(text: str) -> ParsedDocument:
    tokens = _block_parser().parse(text)
    fences: list[Fence] = []
    top: list[TopBlock] = []
    previous_type = ""
    previous_level = -1
    paragraph_text: str | None = None
    paragraph_line = 0
    pending_heading: int | None = None
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "inline":
            if pending_heading is not None:
                top.append(
                    TopBlock(
                        token.map[0] if token.map else 0, "heading", token.content, pending_heading
                    )
                )
                pending_heading = None
            elif token.level == 1 and tokens[index - 1].level == 0:
                line = token.map[0] if token.map else 0
                top.append(TopBlock(line, "paragraph", token.content))
            continue
        if kind == "fence":
            start, stop = token.map if token.map else (0, 0)
            content = token.content
            lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
            closed = stop - start - 1 - lines >= 1
            before = paragraph_text if previous_type == "paragraph_close" else None
            if previous_level != token.level:
                before = None
            fences.append(
                Fence(
                    info=token.info.strip(),
                    content=content,
                    markup=token.markup,
                    start_line=start,
                    end_line=max(start, stop - 1),
                    closed=closed,
                    paragraph=before,
                    paragraph_line=paragraph_line,
                )
            )
            if token.level == 0:
                top.append(TopBlock(start, "other"))
        elif kind == "paragraph_open":
            # the inline token that follows carries the text
            paragraph_line = token.map[0] if token.map else 0
        elif kind == "heading_open":
            if token.level == 0:
                pending_heading = int(token.tag[1:])
        elif token.level == 0 and token.nesting >= 0 and token.map is not None:
            top.append(TopBlock(token.map[0], "other"))
        if kind == "paragraph_close":
            inline = tokens[index - 1]
            paragraph_text = inline.content
        previous_type = kind
        previous_level = token.level
    return ParsedDocument(fences, top)


_SPACE = re.compile(r"\s+")


def plain_text(markdown: str, limit: int = 200) -> str | None:
    """Inline Markdown reduced to its words, trimmed to `limit` characters."""
    parts: list[str] = []
    for token in _inline_parser().parseInline(markdown):
        for child in token.children or ():
            if child.type in ("text", "code_inline", "image"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
    text = _SPACE.sub(" ", "".join(parts)).strip()
    if not text:
        return None
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
