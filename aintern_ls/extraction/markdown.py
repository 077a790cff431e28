"""The one CommonMark parse of a document: its fenced code blocks, the paragraph
before each, and the top-level blocks the chat splitter reads role markers from.

Only markdown-it's block rules run: fences are block structure, and the inline
pass costs more than everything else together.
"""

from __future__ import annotations

import functools
import html
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
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]*)\](?:\([^)\n]*\)|\[[^\]\n]*\])?")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^>\s]*)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_EMPHASIS = re.compile(r"\*\*|__|~~|(?<![\w\\])[*_]+(?=\S)|(?<=\S)(?<!\\)[*_]+(?!\w)")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_DESCRIPTION_SOURCE_LIMIT = 2000


def plain_text(markdown: str, limit: int = 200) -> str | None:
    """Inline Markdown reduced to its words, trimmed to `limit` characters.

    A description is only shown, so a few regular expressions do instead of
    markdown-it's inline pass, which would cost more than the whole block parse.
    """
    text = markdown[:_DESCRIPTION_SOURCE_LIMIT]
    spans: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        spans.append(match.group(2).strip() or match.group(2))
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE_SPAN.sub(keep_code, text.replace("\x00", ""))
    text = _AUTOLINK.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    text = _IMAGE_OR_LINK.sub(r"\1", text)
    text = _EMPHASIS.sub("", text)
    text = _ESCAPE.sub(r"\1", text)
    text = html.unescape(text)
    text = _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))], text)
    text = _SPACE.sub(" ", text).strip()
    if not text:
        return None
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
