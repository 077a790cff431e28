"""The CommonMark parse of a document region: its fenced code blocks, the paragraph
before each, and the top-level blocks the chat splitter reads role markers from.

Only markdown-it's block rules run: fences are block structure, and the inline
pass costs more than everything else together.
"""

from __future__ import annotations

import functools
import html
import re
import sys
from collections.abc import Iterator

import attrs
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import normalize
from markdown_it.token import Token


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
class RegionParse:
    """One region of a document parsed on its own (lines counted from the region's
    first line). A region starts at the top level, so parsing it alone gives the
    same blocks as parsing the whole document, as long as its last block does not
    run on into the next region (`ran_to_end` says when it might)."""

    fences: list[Fence]
    top_blocks: list[TopBlock]
    lead_fence: bool
    """The region's first top-level block is a fence (its paragraph is in the region before)."""
    tail_paragraph: tuple[str, int] | None
    """The region's last top-level block is a paragraph: its text and line."""
    ran_to_end: bool
    """The last block reached the region's end (an open fence or HTML block may go on)."""
    top_level: list[bool]
    """For each fence: whether it is at the top level (not in a list or quote)."""


@functools.cache
def _block_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark")
    md.core.ruler.disable(["inline", "text_join"])
    return md


def _top_level_blocks(text: str) -> Iterator[tuple[list[Token], bool]]:
    """markdown-it's block tokens, one top-level block at a time, with whether the
    block reached the end of `text`.

    This is `ParserBlock.tokenize`'s loop at the top level, handing each block's
    tokens over as soon as the block is complete: a big region never holds all its
    tokens at once, and the garbage collector does not rescan millions of live tokens.
    """
    md = _block_parser()
    core = StateCore(text, md, {})
    normalize(core)
    src = core.src
    if not src:
        return
    tokens: list[Token] = []
    state = StateBlock(src, md, {}, tokens)
    rules = md.block.ruler.getRules("")
    line, end = state.line, state.lineMax
    has_empty_lines = False
    while line < end:
        state.line = line = state.skipEmptyLines(line)
        if line >= end:
            break
        if not any(rule(state, line, end, False) for rule in rules) or state.line <= line:
            raise RuntimeError("markdown-it block rules made no progress")  # paragraph always does
        state.tight = not has_empty_lines
        line = state.line
        reached_end = line >= end
        if line - 1 < end and state.isEmpty(line - 1):
            has_empty_lines = True
        if line < end and state.isEmpty(line):
            has_empty_lines = True
            line += 1
            state.line = line
        block = tokens[:]
        tokens.clear()
        yield block, reached_end


def parse_region(text: str) -> RegionParse:
    """Parse text that starts at the top level of a document (or is all of it)."""
    fences: list[Fence] = []
    top_level: list[bool] = []
    top: list[TopBlock] = []
    previous: Token | None = None
    paragraph_text: str | None = None
    paragraph_line = 0
    pending_heading: int | None = None
    lead_fence = False
    ran_to_end = False
    first = True
    for block, reached_end in _top_level_blocks(text):
        ran_to_end = reached_end
        if first:
            lead_fence = bool(block) and block[0].type == "fence"
            first = False
        for token in block:
            kind = token.type
            if kind == "inline":
                if pending_heading is not None:
                    line = token.map[0] if token.map else 0
                    # (interned: a transcript repeats its few headers thousands of times)
                    title = sys.intern(token.content)
                    top.append(TopBlock(line, "heading", title, pending_heading))
                    pending_heading = None
                elif token.level == 1 and previous is not None and previous.level == 0:
                    line = token.map[0] if token.map else 0
                    top.append(TopBlock(line, "paragraph", token.content))
                paragraph_text = token.content
            elif kind == "fence":
                fences.append(_fence(token, previous, paragraph_text, paragraph_line))
                top_level.append(token.level == 0)
                if token.level == 0:
                    top.append(TopBlock(token.map[0] if token.map else 0, "other"))
            elif kind == "paragraph_open":
                paragraph_line = token.map[0] if token.map else 0
            elif kind == "heading_open":
                if token.level == 0:
                    pending_heading = int(token.tag[1:])
            elif token.level == 0 and token.nesting >= 0 and token.map is not None:
                top.append(TopBlock(token.map[0], "other"))
            previous = token
    tail = (
        (paragraph_text or "", paragraph_line)
        if previous is not None and previous.type == "paragraph_close" and previous.level == 0
        else None
    )
    return RegionParse(fences, top, lead_fence, tail, ran_to_end, top_level)


def _fence(
    token: Token, previous: Token | None, paragraph_text: str | None, paragraph_line: int
) -> Fence:
    start, stop = token.map if token.map else (0, 0)
    content = token.content
    lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
    # A closed fence spans its body plus two fence lines; an unclosed one, one.
    closed = stop - start - 1 - lines >= 1
    adjacent = (
        previous is not None
        and previous.type == "paragraph_close"
        and previous.level == token.level
    )
    return Fence(
        info=sys.intern(token.info.strip()),  # (kept per block: most are "bash", "sh", …)
        content=content,
        markup=sys.intern(token.markup),
        start_line=start,
        end_line=max(start, stop - 1),
        closed=closed,
        paragraph=paragraph_text if adjacent else None,
        paragraph_line=paragraph_line,
    )


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
