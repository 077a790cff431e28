"""The blocks of a huge document in arrays, not objects.

A 50 MB transcript has a hundred thousand command blocks: as `CommandBlock` objects
(with the extractor's drafts, fences and info strings behind them) they take a few
kilobytes each, several times the text. For a document of at least `COMPACT_CHARS`
characters the extractor keeps each region's fences as a `Packed` (offsets, lines,
flags and levels in arrays; a command, normalised command or paragraph only where it
is not a slice of the text as written) and hands out a `BlockTable`: a read-only
sequence of `CommandBlock`s made when one is asked for, from the document's text.

What the lenses and diagnostics of every block need (line, id, level, what could give
a diagnostic) is read from the arrays without making a block. A block made once and
still in use (a run, its status) is handed out again while anyone holds it, and kept
for good once its status is not `pending` (`BlockTable.live`).
"""

from __future__ import annotations

import bisect
import os
from array import array
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, overload

from aintern_ls.extraction.info import parse_info
from aintern_ls.extraction.markdown import plain_text
from aintern_ls.models import CommandBlock, ShellType, TextRange
from aintern_ls.rope import Text

if TYPE_CHECKING:
    from aintern_ls.extraction.chat import Transcript

COMPACT_CHARS_ENV = "AINTERN_LS_COMPACT_CHARS"
_RAW = os.environ.get(COMPACT_CHARS_ENV, "").strip()
COMPACT_CHARS = int(_RAW) if _RAW.isdigit() else 8_000_000
"""Documents at least this long keep their blocks in arrays (`Packed`, `BlockTable`);
the environment variable `AINTERN_LS_COMPACT_CHARS` overrides it (tests set 0)."""

# Per fence flags.
LEAD = 1
"""The fence is its region's first block: its paragraph ends the region before."""
HAS_PARAGRAPH = 2
"""A paragraph is right before the fence (in the same container)."""
INFO_OPTIONS = 4
"""The fence's options and working directory are its info string's attributes, read
again from its opening line when the block is made (no dict kept per fence)."""
REREAD = 8
"""The fence's options, working directory, expected output and description are read
again from its opening line and body (`Packed.body`) when the block is made."""

Extras = tuple[str | None, dict[str, Any], str | None, str | None]
"""(working directory, options, expected output, description) of a fence."""

reread: Callable[[Text, int, int, int], Extras] | None = None
"""(text, offset of the opening markup, body start, body end) -> the fence's `Extras`:
set by the extractor, which knows how a fence is read."""

NO_LEVEL = 255
"""In `Packed.levels`: not judged under the current rules yet."""

# Per fence bits of `Packed.hints`: what can give the block a diagnostic besides its
# findings (a diagnostic is then made by making the block).
HINT_PLACEHOLDER = 1
HINT_OPTIONS = 2
HINT_EXPECTED = 4

_KINDS: list[tuple[str | None, ShellType | None]] = []
_KIND_INDEX: dict[tuple[str | None, ShellType | None], int] = {}


def _kind(language: str | None, shell: ShellType | None) -> int:
    key = (language, shell)
    found = _KIND_INDEX.get(key)
    if found is None:
        if len(_KINDS) >= 0xFFFF:
            raise OverflowError("too many fence languages")
        found = _KIND_INDEX[key] = len(_KINDS)
        _KINDS.append(key)
    return found


_NO_EXTRAS: tuple[str | None, dict[str, Any], str | None, str | None] = (None, {}, None, None)


def _from_info(text: Text, at: int) -> tuple[str | None, dict[str, Any]]:
    """(working directory, options) from the info string of the opening fence whose
    markup starts at `at` (a fence with attributes and nothing else to keep)."""
    end = text.find("\n", at)
    line = text[at : end if end >= 0 else len(text)]
    mark = line[:1]
    info = line.lstrip(mark).strip() if mark in ("`", "~") else ""
    options = dict(parse_info(info).attributes) if info else {}
    cwd = options.get("cwd")
    return (cwd if isinstance(cwd, str) and cwd else None), options


class Packed:
    """The runnable fences of one region, in the region's offsets and lines."""

    __slots__ = (
        "body",
        "commands",
        "count",
        "end",
        "end_line",
        "extras",
        "flags",
        "hints",
        "ids",
        "judged_by",
        "kinds",
        "levels",
        "line",
        "normals",
        "norms",
        "occurrences",
        "paragraph_line",
        "paragraphs",
        "spans",
        "start",
    )

    def __init__(self) -> None:
        self.count = 0
        self.start = array("i")
        """Offset of the opening fence's markup."""
        self.end = array("i")
        """Offset of the end of the block's last line."""
        self.line = array("i")
        self.end_line = array("i")
        self.spans = array("i")
        """(start, end) of the command and of the paragraph in the region's text, -1 when
        it is not a slice of it (then in `commands` / `paragraphs`)."""
        self.paragraph_line = array("i")
        self.body = array("i")
        """(start, end) of the body of a fence read again (`REREAD`), else (-1, -1)."""
        self.flags = bytearray()
        self.kinds = array("H")
        self.norms = array("q")
        """`hash()` of the normalised command: occurrences are counted by it."""
        self.occurrences = array("i")
        self.ids = bytearray()
        """The 12 hex digits of each block id (for the occurrence in `occurrences`)."""
        self.levels = bytearray()
        self.hints = bytearray()
        self.judged_by: object = None
        self.commands: dict[int, str] | None = None
        self.normals: dict[int, str] | None = None
        self.paragraphs: dict[int, str] | None = None
        self.extras: dict[int, tuple[str | None, dict[str, Any], str | None, str | None]] | None
        self.extras = None

    def add(
        self,
        text: str,
        *,
        start: int,
        end: int,
        line: int,
        end_line: int,
        body_at: int,
        command: str,
        normalised: str,
        paragraph: str | None,
        paragraph_at: int,
        paragraph_line: int,
        lead: bool,
        language: str | None,
        shell: ShellType | None,
        extras: Extras | None,
        body: tuple[int, int] | None = None,
    ) -> None:
        """Add one fence of the region whose text is `text` (`body_at`: where its body
        starts; `paragraph_at`: where its paragraph's first line starts)."""
        j = self.count
        self.count += 1
        self.start.append(start)
        self.end.append(end)
        self.line.append(line)
        self.end_line.append(end_line)
        at = text.find(command, body_at, max(end, body_at) + 1) if command else -1
        if at >= 0:
            self.spans.extend((at, at + len(command)))
        else:
            self.spans.extend((-1, -1))
            self.commands = self.commands or {}
            self.commands[j] = command
        if normalised is not command and normalised != command:
            self.normals = self.normals or {}
            self.normals[j] = normalised
        flags = (LEAD if lead else 0) | (HAS_PARAGRAPH if paragraph is not None else 0)
        if extras is not None and body is not None:  # (the caller checked it reads the same)
            flags |= REREAD
            extras = None
        self.body.extend(body or (-1, -1))
        # Options and cwd only: not kept when the opening line gives them again.
        if (
            extras is not None
            and extras[2] is None
            and extras[3] is None
            and _from_info(text, start) == (extras[0], extras[1])
        ):
            flags |= INFO_OPTIONS
            extras = None
        at = -1
        if paragraph:
            at = text.find(paragraph, paragraph_at, paragraph_at + len(paragraph) + 256)
        if paragraph and at >= 0:
            self.spans.extend((at, at + len(paragraph)))
        else:
            self.spans.extend((-1, -1))
            if paragraph:
                self.paragraphs = self.paragraphs or {}
                self.paragraphs[j] = paragraph
        self.paragraph_line.append(paragraph_line)
        self.flags.append(flags)
        self.kinds.append(_kind(language, shell))
        self.norms.append(hash(normalised))
        self.occurrences.append(-1)
        self.ids.extend(b"000000000000")
        self.levels.append(NO_LEVEL)
        self.hints.append(0)
        if extras is not None:
            self.extras = self.extras or {}
            self.extras[j] = extras

    def light(self, j: int, text: Text, base: int) -> CommandBlock:
        """Fence `j` as a block with what its assessment reads (command, shell, language,
        options, working directory) and nothing else."""
        language, shell = _KINDS[self.kinds[j]]
        working_directory, options, expected, _ = self.extra(j, text, base)
        return CommandBlock(
            id="",
            command=self.command(j, text, base),
            language=language,
            shell_type=shell,
            working_directory=working_directory,
            options=options,
            expected_output=expected,
        )

    def extra(
        self, j: int, text: Text, base: int
    ) -> tuple[str | None, dict[str, Any], str | None, str | None]:
        """(working directory, options, expected output, description) of fence `j`."""
        flags = self.flags[j]
        if flags & INFO_OPTIONS:
            working_directory, options = _from_info(text, base + self.start[j])
            return working_directory, options, None, None
        if flags & REREAD and reread is not None:
            start, end = self.body[2 * j], self.body[2 * j + 1]
            return reread(text, base + self.start[j], base + start, base + end)
        return self.extras.get(j, _NO_EXTRAS) if self.extras else _NO_EXTRAS

    def command(self, j: int, text: Text, base: int) -> str:
        """The command of fence `j` (`text`: the document; `base`: the region's offset)."""
        start = self.spans[4 * j]
        if start < 0:
            assert self.commands is not None
            return self.commands[j]
        return text[base + start : base + self.spans[4 * j + 1]]

    def normalised(self, j: int, text: Text, base: int) -> str:
        if self.normals is not None and j in self.normals:
            return self.normals[j]
        return self.command(j, text, base)

    def paragraph(self, j: int, text: Text, base: int) -> str | None:
        if not self.flags[j] & HAS_PARAGRAPH:
            return None
        start = self.spans[4 * j + 2]
        if start < 0:
            return (self.paragraphs or {}).get(j, "")
        return text[base + start : base + self.spans[4 * j + 3]]


class BlockTable(Sequence[CommandBlock]):
    """The blocks of one version of a huge document (see the module's docstring)."""

    def __init__(
        self,
        text: Text,
        parts: list[tuple[Packed, int, int, tuple[str, int] | None]],
        firsts: array[int],
        ids: bytearray,
        lines: array[int],
        sequences: array[int],
        transcript: Transcript,
        message_id: Callable[[int], str],
        stamp: datetime,
    ) -> None:
        self.text = text
        self._parts = parts
        """(fences, region offset, region line, paragraph ending the region before)."""
        self._firsts = firsts
        self._ids = ids
        self.lines = lines
        """The first line of each block (its opening fence)."""
        self._sequences = sequences
        self._transcript = transcript
        self._message_id = message_id
        self._stamp = stamp
        self.live: dict[int, CommandBlock] = {}
        """Blocks handed out one by one (`block`): the same object from then on, so a
        status set on it stays (a run, a copy), and is carried over to the next version."""
        self.on_make: Callable[[CommandBlock], object] | None = None
        """Called with every block made (the document store marks its danger)."""
        self.judge: Callable[[Packed, Text, int], object] | None = None
        """Called with a region's fences, the text and the region's offset before their
        levels are read: the document store judges them again if the rules changed since
        (not a closure over this table: a cycle would keep its text alive)."""

    # -- reading without making blocks ------------------------------------------------

    def __len__(self) -> int:
        return len(self.lines)

    def id(self, i: int) -> str:
        return "blk-" + self._ids[12 * i : 12 * i + 12].decode("ascii")

    def _where(self, i: int) -> tuple[Packed, int, int, tuple[str, int] | None, int]:
        r = bisect.bisect_right(self._firsts, i) - 1
        packed, base, line, tail = self._parts[r]
        return packed, base, line, tail, i - self._firsts[r]

    def level(self, i: int) -> int:
        """The risk level of block `i` (a `RiskLevel` value; `NO_LEVEL` if not judged)."""
        packed, base, _, _, j = self._where(i)
        if self.judge is not None:
            self.judge(packed, self.text, base)
        return packed.levels[j]

    def hints(self, i: int) -> int:
        packed, base, _, _, j = self._where(i)
        if self.judge is not None:
            self.judge(packed, self.text, base)
        return packed.hints[j]

    def source_range(self, i: int) -> TextRange:
        packed, base, _, _, j = self._where(i)
        start = base + packed.start[j]
        return TextRange(start, max(start, base + packed.end[j]))

    def index_of(self, block_id: str) -> int | None:
        """The index of the block `block_id`, or None."""
        if not block_id.startswith("blk-") or len(block_id) != 16:
            return None
        raw = block_id[4:].encode("ascii", "replace")
        at = self._ids.find(raw)
        while at >= 0 and at % 12:
            at = self._ids.find(raw, at + 1)
        return None if at < 0 else at // 12

    def parts(self) -> Iterator[tuple[Packed, int, int, int]]:
        """(fences, region offset, region line, index of its first block) of each region."""
        for (packed, base, line, _), first in zip(self._parts, self._firsts, strict=True):
            yield packed, base, line, first

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or table) of the same blocks, as a list of them would be."""
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    # -- blocks ---------------------------------------------------------------------

    @overload
    def __getitem__(self, i: int) -> CommandBlock: ...

    @overload
    def __getitem__(self, i: slice) -> list[CommandBlock]: ...

    def __getitem__(self, i: int | slice) -> CommandBlock | list[CommandBlock]:
        if isinstance(i, slice):
            return [self.block(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("block index out of range")
        return self.block(i)

    def __iter__(self) -> Iterator[CommandBlock]:
        """Every block: those handed out one by one, and new ones (not kept) for the rest."""
        live = self.live
        for i in range(len(self)):
            found = live.get(i)
            yield found if found is not None else self.made(i)

    def block(self, i: int) -> CommandBlock:
        """Block `i`, the same object every time (see `live`)."""
        found = self.live.get(i)
        if found is None:
            found = self.live[i] = self.made(i)
        return found

    def keep(self, i: int, block: CommandBlock) -> None:
        """Hand out `block` as block `i` from now on (a status carried over an edit)."""
        self.live[i] = block

    def peek(self, i: int) -> CommandBlock | None:
        """Block `i` if it has been handed out one by one (it may have a status)."""
        return self.live.get(i)

    def made(self, i: int) -> CommandBlock:
        """A new block `i`, its danger marked (`on_make`)."""
        block = self.make(i)
        if self.on_make is not None:
            self.on_make(block)
        return block

    def make(self, i: int) -> CommandBlock:
        """A new `CommandBlock` for block `i`, as the extractor would have made it."""
        packed, base, region_line, tail, j = self._where(i)
        text = self.text
        start_line = self.lines[i]
        message = self._transcript.message_at(start_line)
        working_directory, options, expected, description = packed.extra(j, text, base)
        if description is None:
            paragraph: str | None
            if packed.flags[j] & LEAD:
                paragraph, paragraph_line = tail or (None, 0)
            else:
                paragraph = packed.paragraph(j, text, base)
                paragraph_line = packed.paragraph_line[j] + region_line
            if paragraph is not None and paragraph_line >= message.line:
                if message.marker and paragraph_line == message.line:
                    paragraph = paragraph.lstrip().removeprefix(message.marker)
                description = plain_text(paragraph)
        language, shell = _KINDS[packed.kinds[j]]
        start = base + packed.start[j]
        return CommandBlock(
            id=self.id(i),
            message_id=self._message_id(message.ordinal),
            sequence_number=self._sequences[i],
            role=message.role,
            command=packed.command(j, text, base),
            language=language,
            shell_type=shell,
            description=description,
            working_directory=working_directory,
            options=dict(options),
            expected_output=expected,
            start_line=start_line,
            end_line=packed.end_line[j] + region_line,
            source_range=TextRange(start, max(start, base + packed.end[j])),
            extracted_at=self._stamp,
        )
