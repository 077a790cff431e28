"""Document text -> `CommandExtractionResult`, re-extracting only what an edit touched.

A document is cut into *regions* that each start at the top level right after a
blank line (DESIGN §4). CommonMark block structure cannot reach from one such
region into the next unless the region's last block is still open (an unclosed
fence or HTML block), and then the region is grown until it closes; so parsing
the regions one by one gives the same fences as parsing the whole text. Each
region keeps what was read from it (fences, role markers, drafts of blocks) in
its own line numbers. After an edit, regions before and after the changed text
are reused (shifted), and only the changed stretch is parsed again, until the
new region boundaries meet old ones; an edit that opens or closes a fence simply
re-parses further. Ids, messages and descriptions are then assigned over the
whole document, which is cheap.

Block ids hash the URI, the normalised command and its occurrence index among
identical commands, so a block keeps its id (and the editor its status) while
text elsewhere in the document changes.

Cut-off chat replies: in a transcript, a fence left open by a truncated
assistant reply would swallow the next message. A line inside a top-level fence
that is a role marker of the other side (`## Me` after a CodeCompanion reply,
`💬:` after a gp.nvim answer, an Aider `#### ` line) and follows a blank line
ends the fence there, with a warning.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import sys
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

import attrs

from aintern_ls.extraction import compact, execute, session
from aintern_ls.extraction.chat import (
    Transcript,
    cut_role,
    is_marker,
    split_messages,
    split_messages_lean,
)
from aintern_ls.extraction.compact import COMPACT_CHARS, BlockTable, Packed
from aintern_ls.extraction.info import InfoString, parse_info, shell_for
from aintern_ls.extraction.markdown import Fence, TopBlock, parse_region, plain_text
from aintern_ls.models import (
    CommandBlock,
    CommandExtractionResult,
    ExtractionWarning,
    ShellType,
    TextRange,
)
from aintern_ls.positions import LineIndex
from aintern_ls.rope import Rope, Text

MIN_REGION_CHARS = 4096
"""Regions are at least this big (except the last): small enough that an edit
re-parses little, big enough that a 50 MB transcript has few of them."""

COMPACT_REGION_CHARS = 32768
"""The least region size of a huge document (`compact`): an edit re-parses a few dozen
kilobytes, and a 50 MB transcript has under two thousand regions."""

_BARE_SESSION_LANGUAGES = frozenset({"console", "shell-session", "shellsession"})
"""Session fences whose lines are all commands when none of them is a prompt."""

# A region starts on a line that follows a blank line and starts at column 0 with
# something that cannot continue a list item (`-`, `*`, `+`, `1.`) or code block.
_NOT_A_START = frozenset(" \t\n*+-0123456789")
# Lines inside a fence that may be a message header of a chat.
_HEADER_LIKE = re.compile(r"^(?: {0,3}#{1,6}[ \t]+\S|💬:|🤖:|role::)", re.MULTILINE)
_KEEP_TRANSCRIPTS = 3
_LINE_PLACEHOLDER = "\x00L\x00"
"""Stands for the warning's own 1-based line number in a message kept per region."""


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


@attrs.define(eq=False)
class _Item:
    """A runnable fence of one region, in the region's own lines and offsets."""

    draft: _Draft
    start: int
    """Offset of the opening fence's markup in the region."""
    end: int
    """Offset of the end of the block's last line in the region."""
    normalised: str
    lead: bool
    """The fence is the region's first block: its paragraph is in the region before."""
    description: tuple[str | None, str | None] | None = None
    """(source paragraph, plain text) of the last description computed."""
    plain: str | None = None
    """The description read from the fence's paragraph, when that paragraph cannot be a
    chat message's marker line (the fence then keeps "" for it, not its text)."""
    block: tuple[tuple[Any, ...], CommandBlock] | None = None
    """The last block made from this item and what it was made from: an unchanged
    block is handed out again (so is its status)."""


@attrs.define(eq=False)
class _OpenFence:
    line: int
    column: int
    open_to_end: bool
    item: int | None
    """An unclosed shell fence, for its warning."""


@attrs.define(eq=False)
class _Region:
    start: int
    end: int
    line: int
    line_count: int
    forced_end: bool
    """The region ends at a chat message header that cut an open fence short."""
    ran_to_end: bool
    items: list[_Item]
    open_fences: list[_OpenFence]
    warnings: list[tuple[ExtractionWarning, int | None]]
    """Warnings in region lines, with the index of the item they belong to."""
    blocks: list[TopBlock]
    """Top-level blocks the chat splitter needs, in document lines as of `blocks_line`
    (region lines at first): one list, moved when the region moves."""
    tail_paragraph: tuple[str, int] | None
    last_top_fence: int | None
    """Line of the region's last top-level fence, when it runs to the region's end."""
    candidates: list[tuple[int, int, TopBlock, bool]]
    """Header-like lines inside top-level fences (see `_header_lines`)."""
    blocks_line: int = 0
    """The region's line when `blocks` were last moved."""
    packed: Packed | None = None
    """A huge document's fences, in arrays (`items` is then empty)."""
    tops: _Tops | None = None
    """A huge document's `blocks`, in arrays (in region lines; `blocks` is then empty)."""
    assembled: _Assembled | None = None
    """The region's blocks as the last `_assemble` made them, and what from."""


@attrs.define(eq=False)
class _Assembled:
    """A region's blocks and everything outside the region they were made from: while
    all of it reads the same (an edit elsewhere that added no line, no message and no
    copy of one of its commands), the next pass hands out the same blocks without
    making a key per block (`Extractor._region_blocks`)."""

    transcript: Transcript
    line: int
    start: int
    previous_tail: tuple[str, int] | None
    seen_before: tuple[int | None, ...]
    """How often each item's normalised command came before the region."""
    seen_after: dict[str, int]
    ordinals: tuple[int, ...]
    """The messages the region's blocks belong to (each once)."""
    sequence_before: tuple[int, ...]
    """How many blocks each of those messages had before the region."""
    counts: tuple[int, ...]
    """How many of the region's blocks each of those messages has."""
    blocks: list[CommandBlock]


_BOUNDARY = re.compile(r"(?:\r\n?|\n)[ \t]*(?:\r\n?|\n)(?=[^\s*+\-0-9])")
_BLANK_BEFORE = re.compile(r"(?:\A|\r\n?|\n)[ \t]*(?:\r\n?|\n)\Z")


def _line_endings(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _is_boundary(src: Text, at: int) -> bool:
    """Whether a region may start at offset `at`: a line after a blank line that
    cannot continue what came before."""
    if at <= 0 or at >= len(src) or src[at] in _NOT_A_START or src[at] == "\r":
        return False
    lo = max(0, at - 256)
    if isinstance(src, str):
        return _BLANK_BEFORE.search(src, lo, at) is not None
    # (one character more before the window: `\A` must not match where it starts)
    before = max(lo - 1, 0)
    return _BLANK_BEFORE.search(src[before:at], lo - before) is not None


class Extractor:
    """Extraction of one document, re-parsing only what changed since the last call.

    `extract()` gives exactly what a fresh extraction of the same text gives (the
    property tests hold it to that); it is thread-safe.
    """

    def __init__(
        self,
        uri: str = "",
        *,
        min_region_chars: int = MIN_REGION_CHARS,
        compact: bool | None = None,
    ) -> None:
        """`compact`: keep the blocks in arrays and hand out a `BlockTable` (None: for
        texts of at least `COMPACT_CHARS` characters)."""
        self.uri = uri
        self._compact_setting = compact
        self._compact = False
        self._min_region = max(1, min_region_chars)
        self._key = _uri_key(uri)
        self._text: Text = ""
        self._regions: list[_Region] = []
        self._message_ids: dict[int, str] = {}
        self._transcripts: list[tuple[Any, Transcript]] = []
        self._lock = threading.Lock()
        self._stamp = datetime.now(UTC)

    @property
    def region_count(self) -> int:
        return len(self._regions)

    def extract(self, text: Text) -> CommandExtractionResult:
        with self._lock:
            self._stamp = datetime.now(UTC)  # (one for the blocks made in this pass)
            self._update(text)
            # Cuts are decided afresh each time (from the document without any), so
            # the result never depends on the edits that led to this text.
            joined = [(r.start, False) for r in self._regions if r.forced_end]
            if joined:
                self._recut(joined)
            # Top down: a cut can reveal a later one (text a truncated fence swallowed
            # is read again), never undo an earlier one, so this ends.
            transcript = self._current_transcript()
            cuts = self._cuts(transcript)
            while cuts:
                self._recut(cuts)
                done = max(offset for offset, _ in cuts)
                transcript = self._current_transcript()
                cuts = [c for c in self._cuts(transcript) if c[0] > done]
            return self._assemble(transcript)

    # -- regions ------------------------------------------------------------------------

    def _update(self, src: Text) -> None:
        compact = (
            self._compact_setting
            if self._compact_setting is not None
            else len(src) >= COMPACT_CHARS
        )
        if compact != self._compact:  # (what was kept is in the other form)
            self._compact, self._regions = compact, []
            if self._min_region == MIN_REGION_CHARS or self._min_region == COMPACT_REGION_CHARS:
                # fewer, bigger regions for a huge document: less kept per region
                self._min_region = COMPACT_REGION_CHARS if compact else MIN_REGION_CHARS
        old, regions = self._text, self._regions
        self._text = src
        if not regions:
            self._regions = self._chunk(src, 0, 0, [], [])[0]
            return
        n = len(regions)
        first = 0
        while first < n and _unchanged(old, regions[first], src, 0):
            first += 1
        if first == n:
            return
        delta = len(src) - len(old)
        last = n
        while last - 1 >= first and _unchanged(old, regions[last - 1], src, delta):
            last -= 1
        # The region before the change is read again: whether its end is still a
        # boundary depends on the first line after it.
        begin = max(first - 1, 0)
        stops = [r.start + delta for r in regions[last:]]
        middle, resync = self._chunk(src, regions[begin].start, regions[begin].line, stops, [])
        tail: list[_Region] = []
        if resync is not None:
            tail = regions[last + resync :]
            line = middle[-1].line + middle[-1].line_count if middle else regions[begin].line
            line_shift = line - tail[0].line
            for region in tail:
                region.start += delta
                region.end += delta
                region.line += line_shift
        self._regions = regions[:begin] + middle + tail

    def _chunk(
        self, src: Text, start: int, line: int, stops: list[int], forced: list[int]
    ) -> tuple[list[_Region], int | None]:
        """Cut `src` into regions from `start` on; stop at the first region end that
        is in `stops` (returning its index there), after which old regions are valid."""
        out: list[_Region] = []
        n = len(src)
        stop_index = {at: i for i, at in enumerate(stops)}
        while start < n:
            size = self._min_region
            floor = start  # a region that ran to its end grows past `floor`
            while True:
                end = _candidate(src, start + size)
                k = bisect.bisect_right(stops, floor)
                while k < len(stops) and stops[k] < end:
                    if _is_boundary(src, stops[k]):
                        end = stops[k]
                        break
                    k += 1
                k = bisect.bisect_right(forced, start)
                forced_end = k < len(forced) and forced[k] <= end and forced[k] < n
                if forced_end:
                    end = forced[k]
                region = self._region(src, start, end, line, forced_end)
                if region.ran_to_end and not forced_end and end < n:
                    size = max(2 * size, 2 * (end - start))
                    floor = end
                    continue
                break
            out.append(region)
            if end in stop_index and _is_boundary(src, end):
                return out, stop_index[end]
            start = end
            line += region.line_count
        return out, None

    def _region(self, src: Text, start: int, end: int, line: int, forced_end: bool) -> _Region:
        text = src[start:end]
        parsed = parse_region(text)
        lines = _Lines(text)
        items: list[_Item] = []
        packed = Packed() if self._compact else None
        warnings: list[tuple[ExtractionWarning, int | None]] = []
        open_fences: list[_OpenFence] = []
        candidates: list[tuple[int, int, TopBlock, bool]] = []
        for index, fence in enumerate(parsed.fences):
            info = parse_info(fence.info)
            pending: list[tuple[ExtractionWarning, _Draft | None]] = []
            draft = _read_fence(fence, info, lines, pending)
            item_index: int | None = None
            open_to_end = not fence.closed and lines.is_at_end(fence.end_line)
            if draft is not None and packed is not None:
                item_index = packed.count
                _pack(packed, lines, fence, draft, index == 0 and parsed.lead_fence)
            elif draft is not None:
                item_index = len(items)
                opener = lines.index.line_start(fence.start_line)
                closer = lines.index.line_start(fence.end_line)
                items.append(
                    _Item(
                        draft=draft,
                        start=opener + lines.column_of(fence.start_line, fence.markup),
                        end=closer + len(lines.line(fence.end_line)),
                        normalised=_normalise(draft.command),
                        lead=index == 0 and parsed.lead_fence,
                    )
                )
            warnings.extend((w, item_index if d is not None else None) for w, d in pending)
            if not fence.closed and (info.shell_type is not None or info.is_execute):
                column = lines.column_of(fence.start_line, fence.markup)
                open_fences.append(_OpenFence(fence.start_line, column, open_to_end, item_index))
            if parsed.top_level[index]:
                candidates.extend(_header_lines(fence, lines))
            if draft is not None and packed is None:  # the body is read: keep the command only
                paragraph = fence.paragraph
                if (
                    paragraph
                    and not items[-1].lead
                    and not is_marker(TopBlock(0, "paragraph", paragraph))
                ):
                    # Only its words are kept (a marker line's label is cut off first,
                    # which needs the text as written).
                    items[-1].plain = plain_text(paragraph)
                    paragraph = ""
                draft.fence = attrs.evolve(fence, content="", paragraph=paragraph)
        last_top_fence = None
        if parsed.fences and parsed.top_level[-1] and not parsed.fences[-1].closed:
            last_top_fence = parsed.fences[-1].start_line
        return _Region(
            start=start,
            end=end,
            line=line,
            line_count=_line_endings(text),
            forced_end=forced_end,
            ran_to_end=parsed.ran_to_end,
            items=items,
            warnings=warnings,
            open_fences=open_fences,
            blocks=[] if packed is not None else _chat_blocks(parsed.top_blocks),
            tops=_Tops(_chat_blocks(parsed.top_blocks)) if packed is not None else None,
            tail_paragraph=parsed.tail_paragraph,
            last_top_fence=last_top_fence,
            candidates=candidates,
            packed=packed,
        )

    def _recut(self, cuts: list[tuple[int, bool]]) -> None:
        """Apply (offset, cut) changes: cut a region at a message header, or join a
        region cut before with the one after it (`cut` False, offset of its start)."""
        src = self._text
        joined = {o for o, cut in cuts if not cut}
        forced = sorted(
            {r.end for r in self._regions if r.forced_end and r.start not in joined}
            | {o for o, cut in cuts if cut}
        )
        for offset, cut in sorted(cuts, reverse=True):
            regions = self._regions
            starts = [r.start for r in regions]
            index = bisect.bisect_right(starts, offset) - 1
            region = regions[index]
            if not cut and not region.forced_end:
                continue
            stops = starts[index + 1 :]
            if not cut:
                stops = stops[1:]
            middle, resync = self._chunk(src, region.start, region.line, stops, forced)
            skip = 0 if cut else 1
            tail = regions[index + 1 + skip + resync :] if resync is not None else []
            self._regions = regions[:index] + middle + tail

    # -- the whole document ---------------------------------------------------------------

    def _current_transcript(self) -> Transcript:
        """The messages of the document as its regions are cut now."""
        regions = self._regions
        if self._compact:
            return self._compact_transcript()
        lists: list[list[TopBlock]] = []
        for region in regions:
            if region.blocks_line != region.line:
                shift = region.line - region.blocks_line
                region.blocks = [attrs.evolve(b, line=b.line + shift) for b in region.blocks]
                region.blocks_line = region.line
            lists.append(region.blocks)
        top = [b for part in lists for b in part]
        # The last few (an edit is read with its cuts undone, then redone).
        for index, (blocks, transcript) in enumerate(self._transcripts):
            if blocks == top:  # (elements compare by identity first)
                self._transcripts.insert(0, self._transcripts.pop(index))
                return transcript
        transcript = split_messages(top, self.uri)
        self._transcripts.insert(0, (top, transcript))
        # (a huge document's: one, each keeps every header of the document alive)
        del self._transcripts[1 if self._compact else _KEEP_TRANSCRIPTS :]
        return transcript

    def _compact_transcript(self) -> Transcript:
        """`_current_transcript` for a huge document: the top-level blocks are made from
        the regions' arrays for the split only (kept: the transcript, and as its key
        each region's arrays and line)."""
        key = [(region.tops, region.line) for region in self._regions]
        for stored, transcript in self._transcripts:
            if stored == key:
                return transcript
        regions = self._regions

        def top() -> Iterator[TopBlock]:
            for region in regions:
                if region.tops:
                    yield from region.tops.at(region.line)

        transcript = split_messages_lean(top, self.uri)  # (not all blocks at once)
        self._transcripts[:] = [(key, transcript)]
        return transcript

    def _assemble(self, transcript: Transcript) -> CommandExtractionResult:
        if self._compact:
            return self._assemble_compact(transcript)
        regions = self._regions
        seen: dict[str, int] = {}
        per_message = [0] * len(transcript.messages)
        blocks: list[CommandBlock] = []
        warnings: list[ExtractionWarning] = []
        previous_tail: tuple[str, int] | None = None
        last = len(regions) - 1
        for number, region in enumerate(regions):
            first = len(blocks)
            if region.items:
                blocks += self._region_blocks(region, transcript, seen, per_message, previous_tail)
            ids = [b.id for b in blocks[first:]] if region.warnings or region.open_fences else []
            self._region_warnings(region, number == last, ids, warnings)
            previous_tail = (
                (region.tail_paragraph[0], region.tail_paragraph[1] + region.line)
                if region.tail_paragraph is not None
                else None
            )
        warnings.sort(key=lambda w: (w.line, w.character))
        return CommandExtractionResult(blocks, warnings)

    @staticmethod
    def _region_warnings(
        region: _Region, last: bool, ids: list[str], warnings: list[ExtractionWarning]
    ) -> None:
        """The region's warnings in document lines (`ids`: of the region's blocks)."""
        for warning, item_index in region.warnings:
            line = warning.line + region.line
            message = warning.message
            if _LINE_PLACEHOLDER in message:
                message = message.replace(_LINE_PLACEHOLDER, str(line + 1))
            block_id = ids[item_index] if item_index is not None else None
            warnings.append(ExtractionWarning(message, line, warning.character, block_id))
        for fence in region.open_fences:
            line = fence.line + region.line
            if region.forced_end and fence.open_to_end:
                message = (
                    f"code fence opened on line {line + 1} is not closed before the next "
                    f"message (line {region.line + region.line_count + 1}); the reply looks "
                    "cut off, so the fence ends there"
                )
            else:
                where = "the document" if last and fence.open_to_end else "its container"
                message = (
                    f"code fence opened on line {line + 1} is never closed; "
                    f"it runs to the end of {where}"
                )
            block_id = ids[fence.item] if fence.item is not None else None
            warnings.append(ExtractionWarning(message, line, fence.column, block_id))

    def _message_id(self, ordinal: int) -> str:
        message_id = self._message_ids.get(ordinal)
        if message_id is None:
            message_id = _digest("msg", self._key, str(ordinal))
            if not self._compact:  # (a huge document's blocks are made one by one: not kept)
                self._message_ids[ordinal] = message_id
        return message_id

    def _assemble_compact(self, transcript: Transcript) -> CommandExtractionResult:
        """`_assemble` for a huge document: the blocks as a `BlockTable`."""
        src = self._text
        regions = self._regions
        seen: dict[int, int] = {}
        per_message = [0] * len(transcript.messages)
        ids = bytearray()
        lines: array[int] = array("i")
        sequences: array[int] = array("i")
        parts: list[tuple[Packed, int, int, tuple[str, int] | None]] = []
        firsts: array[int] = array("i")
        warnings: list[ExtractionWarning] = []
        previous_tail: tuple[str, int] | None = None
        last = len(regions) - 1
        for number, region in enumerate(regions):
            packed = region.packed
            first = len(lines)
            if packed is not None and packed.count:
                parts.append((packed, region.start, region.line, previous_tail))
                firsts.append(first)
                norms, occurrences, packed_ids = packed.norms, packed.occurrences, packed.ids
                for j, fence_line in enumerate(packed.line):
                    norm = norms[j]
                    occurrence = seen.get(norm, 0)
                    seen[norm] = occurrence + 1
                    line = fence_line + region.line
                    ordinal = transcript.message_at(line).ordinal
                    sequences.append(per_message[ordinal])
                    per_message[ordinal] += 1
                    if occurrences[j] != occurrence:
                        normalised = packed.normalised(j, src, region.start)
                        digest = _digest("blk", self._key, normalised, str(occurrence))
                        packed_ids[12 * j : 12 * j + 12] = digest[4:].encode("ascii")
                        occurrences[j] = occurrence
                    ids += packed_ids[12 * j : 12 * j + 12]
                    lines.append(line)
            block_ids = (
                [
                    "blk-" + ids[12 * k : 12 * k + 12].decode("ascii")
                    for k in range(first, len(lines))
                ]
                if region.warnings or region.open_fences
                else []
            )
            self._region_warnings(region, number == last, block_ids, warnings)
            previous_tail = (
                (region.tail_paragraph[0], region.tail_paragraph[1] + region.line)
                if region.tail_paragraph is not None
                else None
            )
        warnings.sort(key=lambda w: (w.line, w.character))
        table = BlockTable(
            src, parts, firsts, ids, lines, sequences, transcript, self._message_id, self._stamp
        )
        return CommandExtractionResult(table, warnings)

    def _region_blocks(
        self,
        region: _Region,
        transcript: Transcript,
        seen: dict[str, int],
        per_message: list[int],
        previous_tail: tuple[str, int] | None,
    ) -> list[CommandBlock]:
        """The blocks of `region` (`_block` each), or the same blocks as the last pass
        when nothing they are made from changed (see `_Assembled`)."""
        norms = [item.normalised for item in region.items]
        kept = region.assembled
        if (
            kept is not None
            and kept.transcript is transcript
            and kept.line == region.line
            and kept.previous_tail == previous_tail
            and kept.seen_before == tuple(map(seen.get, norms))
            and kept.sequence_before == tuple(per_message[o] for o in kept.ordinals)
        ):
            seen.update(kept.seen_after)
            for ordinal, count in zip(kept.ordinals, kept.counts, strict=True):
                per_message[ordinal] += count
            if kept.start != region.start:  # text before the region grew or shrank
                shift = region.start - kept.start
                for block in kept.blocks:
                    old = block.source_range
                    block.source_range = TextRange(old.start + shift, old.end + shift)
                kept.start = region.start
            return kept.blocks
        seen_before = tuple(map(seen.get, norms))
        before = list(per_message)
        made = [
            self._block(item, region, transcript, seen, per_message, previous_tail)
            for item in region.items
        ]
        ordinals = tuple(dict.fromkeys(transcript.message_at(b.start_line).ordinal for b in made))
        region.assembled = _Assembled(
            transcript=transcript,
            line=region.line,
            start=region.start,
            previous_tail=previous_tail,
            seen_before=seen_before,
            seen_after={norm: seen[norm] for norm in norms},
            ordinals=ordinals,
            sequence_before=tuple(before[o] for o in ordinals),
            counts=tuple(per_message[o] - before[o] for o in ordinals),
            blocks=made,
        )
        return made

    def _block(
        self,
        item: _Item,
        region: _Region,
        transcript: Transcript,
        seen: dict[str, int],
        per_message: list[int],
        previous_tail: tuple[str, int] | None,
    ) -> CommandBlock:
        draft = item.draft
        fence = draft.fence
        start_line = fence.start_line + region.line
        normalised = item.normalised
        occurrence = seen.get(normalised, 0)
        seen[normalised] = occurrence + 1
        message = transcript.message_at(start_line)
        sequence = per_message[message.ordinal]
        per_message[message.ordinal] = sequence + 1
        description = draft.description
        if description is None:
            paragraph: str | None
            plain: str | None = None
            if item.lead:
                paragraph, paragraph_line = previous_tail or (None, 0)
            else:
                paragraph, paragraph_line = fence.paragraph, fence.paragraph_line + region.line
                plain = item.plain
            if paragraph is not None and paragraph_line >= message.line:
                if message.marker and paragraph_line == message.line:
                    paragraph = paragraph.lstrip().removeprefix(message.marker)
                    plain = None
                if plain is not None:
                    description = plain
                else:
                    if item.description is None or item.description[0] != paragraph:
                        item.description = (paragraph, plain_text(paragraph))
                    description = item.description[1]
        start = region.start + item.start
        end = region.start + item.end
        key = (region.line, message, sequence, occurrence, description)
        if item.block is not None and item.block[0] == key:
            block = item.block[1]
            if block.source_range.start != start:  # text before it grew or shrank
                block.source_range = TextRange(start, max(start, end))
            return block
        message_id = self._message_ids.get(message.ordinal)
        if message_id is None:
            message_id = self._message_ids[message.ordinal] = _digest(
                "msg", self._key, str(message.ordinal)
            )
        block = CommandBlock(
            id=_digest("blk", self._key, item.normalised, str(occurrence)),
            message_id=message_id,
            sequence_number=sequence,
            role=message.role,
            command=draft.command,
            language=draft.info.language,
            shell_type=draft.shell_type,
            description=description,
            working_directory=draft.working_directory,
            options=dict(draft.options),
            expected_output=draft.expected_output,
            start_line=start_line,
            end_line=fence.end_line + region.line,
            source_range=TextRange(start, max(start, end)),
            extracted_at=self._stamp,
        )
        item.block = (key, block)
        return block

    def _cuts(self, transcript: Transcript) -> list[tuple[int, bool]]:
        """Message headers that cut open fences short: (offset, True) each."""
        regions = self._regions
        cuts: list[tuple[int, bool]] = []
        if transcript.is_chat:
            for region in regions:
                done: set[int] = set()
                for fence_line, offset, header, after_blank in region.candidates:
                    if fence_line in done:
                        continue
                    role = transcript.message_at(fence_line + region.line).role
                    moved = attrs.evolve(header, line=header.line + region.line)
                    other = cut_role(moved, transcript, after_blank=after_blank)
                    if role is not None and other is not None and other != role:
                        cuts.append((region.start + offset, True))
                        done.add(fence_line)
        return cuts


def _pack(packed: Packed, lines: _Lines, fence: Fence, draft: _Draft, lead: bool) -> None:
    """Add a runnable fence of a huge document's region to its `Packed`."""
    opener = lines.index.line_start(fence.start_line)
    closer = lines.index.line_start(fence.end_line)
    extras = None
    body = None
    start = opener + lines.column_of(fence.start_line, fence.markup)
    if draft.working_directory or draft.options or draft.expected_output or draft.description:
        options = dict(draft.options)
        extras = (draft.working_directory, options, draft.expected_output, draft.description)
        if draft.expected_output is not None or draft.info.is_execute:
            # Read again from the text when the block is made, if that reads the same.
            body_start = lines.index.line_start(fence.start_line + 1)
            body_end = closer if fence.closed else len(lines.text)
            text = lines.text
            if (
                fence.content == text[body_start:body_end]
                and _reread(text, start, body_start, body_end) == extras
            ):
                body = (body_start, body_end)
    packed.add(
        lines.text,
        start=start,
        end=closer + len(lines.line(fence.end_line)),
        line=fence.start_line,
        end_line=fence.end_line,
        body_at=lines.index.line_start(fence.start_line + 1),
        command=draft.command,
        normalised=_normalise(draft.command),
        paragraph=fence.paragraph,
        paragraph_at=lines.index.line_start(fence.paragraph_line),
        paragraph_line=fence.paragraph_line,
        lead=lead,
        language=draft.info.language,
        shell=draft.shell_type,
        extras=extras,
        body=body,
    )


def _reread(text: Text, at: int, body_start: int, body_end: int) -> compact.Extras:
    """A fence's (working directory, options, expected output, description), read again
    from its opening line (markup at `at`) and its body as written (see `compact.REREAD`)."""
    line_start = text.rfind("\n", 0, at) + 1
    opener = text[line_start : max(at, body_start - 1)].rstrip("\r\n")
    mark = text[at]
    markup = opener[at - line_start :]
    markup = markup[: len(markup) - len(markup.lstrip(mark))]
    info_text = opener[at - line_start + len(markup) :].strip()
    fence = Fence(
        info=info_text,
        content=text[body_start:body_end],
        markup=markup,
        start_line=0,
        end_line=0,
        closed=True,
        paragraph=None,
        paragraph_line=0,
    )
    draft = _read_fence(fence, parse_info(info_text), _Lines(opener), [])
    if draft is None:  # (never for a fence that was read so before)
        return (None, {}, None, None)
    return (draft.working_directory, dict(draft.options), draft.expected_output, draft.description)


compact.reread = _reread


_TOP_KINDS = ("heading", "paragraph", "other")


class _Tops:
    """A region's top-level blocks for the chat splitter (`_chat_blocks`), in arrays."""

    __slots__ = ("kinds", "levels", "lines", "texts")

    def __init__(self, blocks: list[TopBlock]) -> None:
        self.lines = array("i", [b.line for b in blocks])
        self.kinds = bytes(_TOP_KINDS.index(b.kind) for b in blocks)
        self.levels = bytes(b.level for b in blocks)
        self.texts = tuple(sys.intern(b.text) if len(b.text) < 64 else b.text for b in blocks)

    def __bool__(self) -> bool:
        return bool(self.lines)

    def __eq__(self, other: object) -> bool:
        """The same blocks (a region parsed again after an edit that left its headers
        alone reads the same: the transcript is kept)."""
        if self is other:
            return True
        if not isinstance(other, _Tops):
            return NotImplemented
        return (
            self.lines == other.lines
            and self.kinds == other.kinds
            and self.levels == other.levels
            and self.texts == other.texts
        )

    __hash__ = None  # type: ignore[assignment]

    def at(self, line: int) -> list[TopBlock]:
        """The blocks in document lines, the region starting on `line`."""
        return [
            TopBlock(at + line, _TOP_KINDS[kind], text, level)
            for at, kind, level, text in zip(
                self.lines, self.kinds, self.levels, self.texts, strict=True
            )
        ]


def _unchanged(old: Text, region: _Region, src: Text, delta: int) -> bool:
    start, end = region.start + delta, region.end + delta
    if start < 0 or end > len(src) or (region.end == len(old)) != (end == len(src)):
        return False
    if isinstance(src, Rope):  # (chunks both versions share are not read)
        return src.equal_at(start, old, region.start, region.end - region.start)
    return src.startswith(old[region.start : region.end], start)


def _candidate(src: Text, at: int) -> int:
    if at >= len(src):
        return len(src)
    if isinstance(src, str):
        match = _BOUNDARY.search(src, at)
        return match.end() if match else len(src)
    size = 4096
    while True:  # in ever bigger windows of the rope
        end = min(at + size, len(src))
        window = src[at:end]
        found = _BOUNDARY.search(window)
        # A match that ends short of the window's end is the one the whole text has (a
        # match starting earlier could only end before it); at the end, any is.
        if found is not None and (end == len(src) or found.end() + 2 <= len(window)):
            return at + found.end()
        if end == len(src):
            return len(src)
        size *= 4


def _chat_blocks(blocks: list[TopBlock]) -> list[TopBlock]:
    """The blocks the chat splitter can tell apart: headings, role markers, the
    first block, and each block right after one of those (an Aider reply starts
    with whatever follows the user's `#### ` lines)."""
    kept: list[TopBlock] = []
    after_marker = True
    for block in blocks:
        marker = block.kind == "heading" or is_marker(block)
        if marker:
            kept.append(block)
        elif after_marker:
            # Only its place counts: without its text, typing in it keeps the transcript.
            kept.append(attrs.evolve(block, text="") if block.text else block)
        after_marker = marker
    return kept


def _header_lines(fence: Fence, lines: _Lines) -> list[tuple[int, int, TopBlock, bool]]:
    """Lines in a top-level fence's body that would be message headers outside it:
    (fence line, offset of the line, the header as a block, after a blank line?)."""
    body = fence.content
    found: list[tuple[int, int, TopBlock, bool]] = []
    for match in _HEADER_LIKE.finditer(body):
        at = match.start()
        if at == 0:
            continue
        before = body.rfind("\n", 0, at - 1)
        after_blank = not body[before + 1 : at - 1].strip()
        end = body.find("\n", at)
        text = body[at : end if end >= 0 else len(body)].strip()
        line = fence.start_line + 1 + body.count("\n", 0, at)
        if line > fence.end_line or (fence.closed and line >= fence.end_line):
            continue
        if text.startswith("#"):
            hashes = len(text) - len(text.lstrip("#"))
            title = re.sub(r"[ \t]+#+[ \t]*$", "", text[hashes:]).strip()
            block = TopBlock(line, "heading", title, hashes)
        else:
            block = TopBlock(line, "paragraph", text)
        found.append((fence.start_line, lines.index.line_start(line), block, after_blank))
    return found


_EXTRACTORS: OrderedDict[str, Extractor] = OrderedDict()
_EXTRACTORS_LOCK = threading.Lock()
_KEEP_EXTRACTORS = 32


def extract(text: Text, uri: str = "") -> CommandExtractionResult:
    """Every runnable shell fence in `text`, with warnings for what could not be used."""
    return Extractor(uri).extract(text)


def extract_incremental(text: Text, uri: str) -> CommandExtractionResult:
    """`extract()` for a document the editor keeps editing: reuses what the last
    extraction of the same URI read (a few dozen documents are remembered)."""
    with _EXTRACTORS_LOCK:
        extractor = _EXTRACTORS.pop(uri, None) or Extractor(uri)
        _EXTRACTORS[uri] = extractor
        while len(_EXTRACTORS) > _KEEP_EXTRACTORS:
            _EXTRACTORS.popitem(last=False)
    return extractor.extract(text)


def forget(uri: str) -> None:
    """Drop what incremental extraction remembers of a closed document."""
    with _EXTRACTORS_LOCK:
        _EXTRACTORS.pop(uri, None)


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
        if read.commands:
            draft = _Draft(fence, info, read.command, read.shell_type or shell)
            draft.expected_output = read.expected_output
        elif info.language in _BARE_SESSION_LANGUAGES:
            # `~~~console` around bare commands, as people often write it: without a
            # single prompt line every line is a command, as in a `bash` fence.
            draft = _Draft(fence, info, _clean_body(body), ShellType.BASH)
        else:
            return None  # a `terminal` capture of output only: nothing to run
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
        message = (
            f"{request.message} (line {_LINE_PLACEHOLDER}, column {column + 1}); not extracted"
        )
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


_DRIVE = re.compile(r"^file:///([A-Za-z]):")


def _uri_key(uri: str) -> str:
    """One spelling per file, so the CLI (`Path.as_uri()`) and editors that
    percent-encode differently (VS Code's `file:///c%3A/...`) get the same ids."""
    if not uri.startswith("file:"):
        return uri
    return _DRIVE.sub(lambda m: f"file:///{m.group(1).lower()}:", unquote(uri))


def _normalise(command: str) -> str:
    normalised = "\n".join(line.rstrip() for line in command.strip().splitlines())
    return command if normalised == command else normalised  # (one string, not two)


def _digest(prefix: str, *parts: str) -> str:
    digest = hashlib.sha1("\0".join(parts).encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return f"{prefix}-{digest.hexdigest()[:12]}"
