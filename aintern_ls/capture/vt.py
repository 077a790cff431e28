"""Streaming VT processing: what a person saw, from what a program wrote.

`VTProcessor` owns the one VT stripper of the project. It consumes decoded terminal
output in arbitrary pieces (a sequence split between two reads is carried over), strips
every ECMA-48 control function, and *renders* the ones that move the cursor within a
line (`\\r`, `\\b`, erase-in-line, cursor-column moves, and cursor-up inside a small
"live" region), so `10%\\r50%\\r100%` reads `100%`. OSC 633/133 shell-integration marks
are pulled out as `Mark` events with their offset in the rendered text. Alternate-screen
output (full-screen programs) goes to a screen model and is replaced by its final screen.

The result is a transcript: clearing the screen (`clear`, ED 1-3), resets and other
controls that act on the whole screen erase nothing that was already printed, and a
status line drawn elsewhere on screen (save cursor, move, draw, restore: apt's progress
bar) is left out.

The rendered text contains only printable characters, `\\t` and `\\n`: never ESC, C1
controls or `\\r`, so processing it again changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from aintern_ls.capture.marks import parse_mark
from aintern_ls.capture.screen import AlternateScreen

# Any character that is not plain text: C0 controls except TAB, DEL, and C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
# The same without LF: runs of lines between these are written in bulk.
_HARD_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Output is processed in segments that end where a control string (OSC, DCS, SOS, PM,
# APC) or the alternate screen begins: those are consumed raw, everything else goes
# through the pre-pass below and then the fast path or the render loop.
_ALT_ENTER_PARAMS = r"\?(?:[0-9;]*;)?(?:1049|1047|47)(?:;[0-9;]*)?"
_ALT_ENTER = re.compile(_ALT_ENTER_PARAMS + r"\Z")
_ALT_LEAVE = _ALT_ENTER  # the same modes, reset with `l`
# CSI parameters the screen model is given: plain or DEC-private numbers.
_SCREEN_CSI = re.compile(r"\??[0-9;]*\Z")
# Patterns here start with a character class and use lookbehinds to tell ESC from C1:
# Python's regex engine then skips to candidates fast instead of trying every position.
_BREAK = re.compile(
    r"[\x1b\x90\x98\x9b\x9d\x9e\x9f](?:(?<=\x1b)[\]PX^_]"
    rf"|(?<=\x1b)\[{_ALT_ENTER_PARAMS}h|(?<=\x9b){_ALT_ENTER_PARAMS}h|(?<=[\x90\x98\x9d-\x9f]))"
)
# Sequences that never change what we render: SGR (colours, by far the most common),
# private modes (cursor visibility, bracketed paste), nF escapes (charset selection)
# and ESC =/>. The pre-pass removes them at C speed; the render loop ignores them too
# when they arrive split across reads. Removing text must not splice a new sequence
# together (`ESC[3` `ESC[0m` `1m` is not `ESC[31m`), so the same pass also removes
# what an ESC or CSI aborts by following it: an unfinished CSI, a lone ESC, an ESC
# with intermediates. The render loop drops exactly those too.
_CSI_INERT = r"(?:[0-9;:]*m|\?[0-9;]*[hl])"
_CSI_OPEN = r"[\x20-\x3f\x00-\x17\x19\x1c-\x1f]*"
_INERT = re.compile(
    rf"[\x1b\x9b](?:(?<=\x1b)\[{_CSI_INERT}|(?<=\x9b){_CSI_INERT}"
    r"|(?<=\x1b)[\x20-\x2f]+[\x30-\x7e]|(?<=\x1b)[=>]"
    rf"|(?<=\x1b)(?:\[{_CSI_OPEN}|[\x20-\x2f]*)(?=[\x1b\x9b])|(?<=\x9b){_CSI_OPEN}(?=[\x1b\x9b]))"
)
# A run of full-line clears (`\r` + erase-line) with only text between them: every
# redraw but the last is erased unseen, so the run collapses to its last clear. This
# makes a progress bar cost one step, not one per redraw.
_CLEARS = re.compile(
    r"\r\x1b\[[02]?K(?:[^\r\n\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*\r\x1b\[[02]?K)+"
)
_CSI_SIMPLE = re.compile(r"(?:\x1b\[|\x9b)([0-9;]*)([\x40-\x7e])")
_PLAIN_PARAMS = re.compile(r"[0-9;:]*\Z")
# After the SGR pre-pass and `\r\n` -> `\n`, text with none of these needs no rendering.
_UNPLAIN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_UNPLAIN_ASCII = tuple(
    chr(c)
    for c in (
        0x1B,
        0x08,
        0x0D,
        0x07,
        *range(0, 7),
        0x0B,
        0x0C,
        *range(0x0E, 0x1B),
        *range(0x1C, 0x20),
        0x7F,
    )
)

# CSI: parameter bytes 0x30-0x3F and intermediates 0x20-0x2F (accepted in any order, as
# real parsers do), then a final byte. C0 controls embedded in a CSI are skipped.
_CSI_BODY = re.compile(r"[\x20-\x3f\x00-\x17\x19\x1c-\x1f]*")
_CSI_FINAL = re.compile(r"[\x40-\x7e]")
# nF escapes: ESC, intermediates 0x20-0x2F, a final byte 0x30-0x7E (`ESC ( B`, `ESC # 8`).
_NF = re.compile(r"\x1b[\x20-\x2f]+[\x30-\x7e]")
_NF_PARTIAL = re.compile(r"\x1b[\x20-\x2f]*\Z")
_NF_PARTIAL_BODY = re.compile(r"\x1b[\x20-\x2f]*")
# Control strings end with ST (ESC \ or 0x9C); OSC also ends with BEL. CAN/SUB abort them.
# A lone ESC inside a string ends it too (the ESC then starts a new sequence).
_OSC_END = re.compile(r"\x07|\x1b\\|\x9c|\x18|\x1a|\x1b(?!\\)")
_STRING_END = re.compile(r"\x1b\\|\x9c|\x18|\x1a|\x1b(?!\\)")

# An incomplete sequence carried to the next read keeps at most this much: parameters
# beyond it are garbage, but the sequence still ends at its final byte.
_MAX_PENDING = 4096
_MAX_STRING = 65536  # OSC payload kept for mark parsing; the rest is skipped unread
_MAX_LINE = 16384  # a longer line is flushed in pieces so memory stays bounded
_MAX_COLUMN = 1024  # cursor moves stop here, as they stop at a terminal's right edge
_MAX_LIVE_ROWS = 200  # how far back a cursor-up can redraw (multi-line progress)

_INTRODUCERS = {
    "\x9b": "[",  # CSI
    "\x9d": "]",  # OSC
    "\x90": "P",  # DCS
    "\x98": "X",  # SOS
    "\x9e": "^",  # PM
    "\x9f": "_",  # APC
}


@attrs.frozen
class Mark:
    """A shell-integration mark (OSC 633 or 133) found in the stream.

    `kind` is the letter (`A` prompt start, `B` command start, `C` output start, `D`
    command finished, `E` command line, `P` property); `params` are the `;`-separated
    fields after it, with 633's `\\xNN` escapes decoded; `offset` is the position in the
    rendered text where the mark was seen.
    """

    code: int
    kind: str
    params: tuple[str, ...]
    offset: int


@attrs.frozen
class RenderResult:
    """What one `feed` produced: newly final rendered text, and marks seen."""

    text: str
    marks: tuple[Mark, ...] = ()


def _parse_mark(payload: str, offset: int) -> Mark | None:
    parsed = parse_mark(payload)  # the one mark parser, shared with the terminal session
    if parsed is None:
        return None
    return Mark(parsed.code, parsed.kind, parsed.params, offset)


def _is_plain(text: str) -> bool:
    """True if `text` holds only printable characters, tabs and newlines."""
    if text.isascii():
        # Substring scans run at memchr speed; one regex pass is several times slower.
        return not any(c in text for c in _UNPLAIN_ASCII)
    return _UNPLAIN.search(text) is None


def _csi_numbers(params: str, default: int) -> list[int]:
    out: list[int] = []
    for field in params.split(";"):
        digits = field.split(":", 1)[0]
        # Parameters are 16-bit in real terminals; a longer number only means "a lot"
        # (and Python refuses to parse numbers of thousands of digits).
        out.append(min(int(digits[:6]), 65535) if digits.isdigit() else default)
    return out


_STRING_KINDS = "]P^_X"


def _parse_escape(text: str, start: int) -> tuple[int, str, str, str]:
    """Delimit the sequence that starts at `text[start]` (ESC or a C1 introducer).

    Returns `(end, kind, params, final)`: `end` is where processing resumes (-1 when
    the text ends inside the sequence); `kind` is `[` for a CSI (with its `params` and
    `final`), one of `]P^_X` for a control string whose payload follows, ` ` for an nF
    escape (intermediates in `params`), `F` for a two-character escape (`final`), or
    `` when the sequence was aborted or means nothing and is dropped.
    """
    ch = text[start]
    if ch == "\x1b":
        if start + 1 >= len(text):
            return -1, "", "", ""
        kind = text[start + 1]
        body = start + 2
    else:
        kind = _INTRODUCERS.get(ch, "")
        body = start + 1
        if not kind:  # a C1 control with no sequence after it
            return body, "", "", ""
    if kind == "[":
        simple = _CSI_SIMPLE.match(text, start)
        if simple is not None:
            return simple.end(), "[", simple.group(1), simple.group(2)
        m = _CSI_BODY.match(text, body)
        end = m.end() if m else body
        if end >= len(text):
            return -1, "", "", ""
        if _CSI_FINAL.match(text, end) is None:
            # Aborted (CAN/SUB, ESC, or a byte no CSI may hold): drop what we have.
            return (end + 1 if text[end] in "\x18\x1a" else end), "", "", ""
        return end + 1, "[", text[body:end], text[end]
    if kind and kind in _STRING_KINDS:
        return body, kind, "", ""
    if "\x20" <= kind <= "\x2f":
        m = _NF.match(text, start)
        if m:
            return m.end(), " ", text[start + 1 : m.end() - 1], text[m.end() - 1]
        if _NF_PARTIAL.match(text, start):
            return -1, "", "", ""
        # Aborted by a byte that cannot continue it: drop ESC and intermediates.
        aborted = _NF_PARTIAL_BODY.match(text, start)
        return (aborted.end() if aborted else start + 1), "", "", ""
    if "\x30" <= kind <= "\x7e":
        return start + 2, "F", "", kind
    # ESC followed by a control or non-ASCII character: the ESC alone is dropped.
    return start + 1, "", "", ""


class VTProcessor:
    """Incremental VT renderer; see the module docstring.

    Call `feed` with each decoded piece of output and `finish` at the end. Completed
    lines are returned as soon as they are final; the line under the cursor (and, once a
    program has redrawn with cursor-up, the few lines it may redraw) is held until then.
    """

    def __init__(self, *, columns: int = 120, rows: int = 40, live_rows: int = 0) -> None:
        """`columns`/`rows` size the screen model for full-screen programs. `live_rows`
        holds that many finished lines back so a later cursor-up can still redraw them;
        0 streams every line as soon as it ends (the live region then grows on the first
        cursor-up)."""
        self._columns = columns
        self._rows_hint = rows
        self._pending = ""  # an incomplete sequence carried to the next feed
        self._string: str | None = None  # introducer of a control string in progress
        self._string_data: list[str] = []
        self._string_len = 0
        # Live region: rows that may still change; the cursor is at (_row, _col).
        self._rows: list[str] = [""]
        self._row = 0
        self._col = 0
        self._keep = min(max(live_rows, 0), _MAX_LIVE_ROWS)  # rows kept live above the cursor
        self._emitted = 0  # characters of rendered text already returned
        self._out: list[str] = []
        self._marks: list[Mark] = []
        self._alt: AlternateScreen | None = None
        # Status lines (apt's progress bar) are drawn as: save cursor, move to another
        # row, draw, restore. Between such a move and the restore the cursor is
        # "detached": what it draws is elsewhere on screen, not part of the transcript.
        self._saved: tuple[int, int, int] | None = None  # (line feeds, row, col)
        self._detached = False
        self._line_feeds = 0

    # ------------------------------------------------------------------ public API

    def feed(self, text: str) -> RenderResult:
        """Process a piece of output; return the text that became final, and marks."""
        if text:
            self._process(text)
        return self._take()

    def finish(self) -> RenderResult:
        """End of stream: drop an unfinished sequence and return everything held back."""
        self._pending = ""
        self._string = None
        self._string_data = []
        if self._alt is not None:
            self._leave_alternate_screen()
        text = "\n".join(self._rows)
        if text:
            self._emit(text)
        self._rows, self._row, self._col = [""], 0, 0
        return self._take()

    @property
    def offset(self) -> int:
        """Position of the cursor in the rendered text (where a mark would be placed)."""
        before = sum(len(r) + 1 for r in self._rows[: self._row])
        return self._emitted + before + min(self._col, len(self._rows[self._row]))

    # ------------------------------------------------------------------ internals

    def _take(self) -> RenderResult:
        text = "".join(self._out)
        self._out = []
        marks = tuple(self._marks)
        self._marks = []
        return RenderResult(text, marks)

    def _emit(self, text: str) -> None:
        self._out.append(text)
        self._emitted += len(text)

    def _process(self, text: str) -> None:
        if self._pending:
            text = self._pending + text
            self._pending = ""
        pos, n = 0, len(text)
        while pos < n:
            if self._alt is not None:
                pos = self._feed_alternate_screen(text, pos)
                continue
            if self._string is not None:
                pos = self._continue_string(text, pos)
                continue
            m = _BREAK.search(text, pos) if pos or "\x1b" in text or not text.isascii() else None
            end = m.start() if m is not None else n
            if end > pos:
                self._segment(text[pos:end] if pos or end < n else text)
                if m is not None:
                    self._pending = ""  # a sequence cut by the break is aborted by it
            if m is None:
                return
            pos = self._escape(text, end)
            if pos < 0:
                self._pending = text[end : end + _MAX_PENDING]
                return

    def _segment(self, text: str) -> None:
        """Text without control strings or an alternate-screen switch."""
        if "\x1b" in text or "\x9b" in text:
            text = _INERT.sub("", text)
            if "\r\x1b[" in text:
                text = _CLEARS.sub("\r\x1b[2K", text)
        # CR LF renders exactly as LF does here (a line feed also returns the carriage).
        text = text.replace("\r\n", "\n")
        if (
            self._keep == 0
            and self._col == len(self._rows[-1])
            and not self._detached
            and _is_plain(text)
        ):
            self._plain(text)
            return
        self._render(text)

    def _plain(self, text: str) -> None:
        """Fast path: text with only newlines and printable characters, cursor at end."""
        last_nl = text.rfind("\n")
        if last_nl < 0:
            self._rows[-1] += text
            self._col = len(self._rows[-1])
            if self._col > _MAX_LINE:
                self._flush_long_line()
            return
        self._emit(self._rows[-1] + text[: last_nl + 1])
        if self._saved is not None:  # only a saved cursor needs to know
            self._line_feeds += text.count("\n")
        rest = text[last_nl + 1 :]
        self._rows[-1] = rest
        self._col = len(rest)

    def _render(self, text: str) -> None:
        pos = 0
        n = len(text)
        search = _HARD_CONTROL.search
        while pos < n:
            m = search(text, pos)
            end = m.start() if m is not None else n
            if end > pos:
                self._lines(text[pos:end])
            if m is None:
                return
            ch = text[end]
            pos = end + 1
            if ch == "\r":
                self._col = 0
            elif ch == "\b":
                if self._col > 0:
                    self._col -= 1
            elif ch == "\x0b" or ch == "\x0c":
                self._line_feed()
            elif ch == "\x1b" or ch == "\x9b":
                pos = self._escape(text, end)
                if pos < 0:  # incomplete: wait for more input
                    self._pending = text[end : end + _MAX_PENDING]
                    return
            # other C0 (BEL, NUL, CAN, SUB...), DEL and other C1: nothing to show

    def _lines(self, run: str) -> None:
        """Printable text and newlines, written at the cursor."""
        first_nl = run.find("\n")
        if first_nl < 0:
            self._write(run)
            return
        if first_nl:
            self._write(run[:first_nl])
        self._line_feed()
        rest = run[first_nl + 1 :]
        if self._keep == 0 and not self._detached:
            self._plain(rest)  # the cursor is at the start of a fresh row
            return
        for i, piece in enumerate(rest.split("\n")):
            if i:
                self._line_feed()
            if piece:
                self._write(piece)

    def _escape(self, text: str, start: int) -> int:
        """Handle the sequence at `start`; return where processing resumes, -1 if cut."""
        end, kind, params, final = _parse_escape(text, start)
        if kind == "[":
            self._csi(params, final)
        elif kind == "F":
            # Of the Fp/Fe/Fs escapes (DECSC, keypad modes, IND/NEL/RI, RIS, SS2/SS3,
            # VT52 codes...) only saving and restoring the cursor matter to a transcript.
            if final == "7":
                self._save_cursor()
            elif final == "8":
                self._restore_cursor()
        elif kind and kind in _STRING_KINDS:
            self._start_string(kind)
        return end

    def _start_string(self, kind: str) -> None:
        self._string = kind
        self._string_data = []
        self._string_len = 0

    def _continue_string(self, text: str, pos: int) -> int:
        """Consume a control string's payload from `pos`; return where it ended."""
        pattern = _OSC_END if self._string == "]" else _STRING_END
        m = pattern.search(text, pos)
        if m is not None and m.end() == len(text) and m.group() == "\x1b":
            m = None  # an ESC at the very end may be the first half of ST
        if m is None:
            # Keep a trailing ESC: it may be the first half of ST.
            cut = len(text) - 1 if text.endswith("\x1b") else len(text)
            self._collect_string(text[pos:cut])
            self._pending = text[cut:]
            return len(text)
        self._collect_string(text[pos : m.start()])
        terminator = m.group()
        if self._string == "]" and terminator not in ("\x18", "\x1a"):
            mark = _parse_mark("".join(self._string_data), self.offset)
            if mark is not None:
                self._marks.append(mark)
        self._string = None
        self._string_data = []
        # A lone ESC terminator is not consumed: it starts the next sequence.
        return m.start() if terminator == "\x1b" else m.end()

    def _collect_string(self, data: str) -> None:
        if self._string == "]" and self._string_len < _MAX_STRING:
            self._string_data.append(data)
            self._string_len += len(data)

    # ------------------------------------------------------------------ rendering

    def _write(self, s: str) -> None:
        if self._detached:
            return
        row = self._rows[self._row]
        col = self._col
        if col == len(row):
            row += s
        elif col > len(row):
            row += " " * (col - len(row)) + s
        else:
            row = row[:col] + s + row[col + len(s) :]
        self._rows[self._row] = row
        self._col = col + len(s)
        if self._col > _MAX_LINE and self._row == len(self._rows) - 1:
            self._flush_long_line()

    def _flush_long_line(self) -> None:
        # A line with no end in sight (binary, minified output): make its head final so
        # memory stays bounded. A later `\r` can then only redraw the remainder, and
        # rows held for redraws are let go.
        if len(self._rows) > 1:
            self._emit("\n".join(self._rows[:-1]) + "\n")
            del self._rows[:-1]
            self._row = 0
        self._keep = 0
        row = self._rows[-1]
        self._emit(row[: self._col])
        self._rows[-1] = row[self._col :]
        self._col = 0

    def _line_feed(self) -> None:
        if self._detached:
            return
        self._line_feeds += 1
        if self._keep == 0:  # the common case: the finished line is final
            self._emit(self._rows[0] + "\n")
            self._rows[0] = ""
            self._col = 0
            return
        if self._row < len(self._rows) - 1:
            self._row += 1
        else:
            self._rows.append("")
            self._row += 1
            if len(self._rows) - 1 > self._keep:
                excess = len(self._rows) - 1 - self._keep
                self._emit("\n".join(self._rows[:excess]) + "\n")
                del self._rows[:excess]
                self._row -= excess
        self._col = 0  # PTYs translate \n to \r\n (onlcr); a bare \n acts the same

    def _cursor_up(self, n: int) -> None:
        # Programs that redraw several lines (docker pull, multi-bar progress) move up.
        # Keep that many rows live from now on so later redraws replace, not repeat.
        self._keep = min(max(self._keep, n), _MAX_LIVE_ROWS)
        self._row = max(0, self._row - n)

    def _save_cursor(self) -> None:
        self._saved = (self._line_feeds, self._row, self._col)

    def _restore_cursor(self) -> None:
        self._detached = False
        if self._saved is None:
            return
        line_feeds, row, col = self._saved
        # Only a position on the same line is still where the program left it.
        if line_feeds == self._line_feeds and row < len(self._rows):
            self._row, self._col = row, col

    def _erase_in_line(self, mode: int) -> None:
        if self._detached:
            return
        row = self._rows[self._row]
        if mode == 0:
            self._rows[self._row] = row[: self._col]
        elif mode == 1:
            self._rows[self._row] = " " * min(self._col + 1, len(row)) + row[self._col + 1 :]
        elif mode == 2:
            self._rows[self._row] = ""

    def _csi(self, params: str, final: str) -> None:
        if final == "K" and (not params or params.isdigit()):  # progress bars: hot path
            self._erase_in_line(int(params[:6]) if params else 0)
            return
        if self._detached:
            if final == "u" and not params:
                self._restore_cursor()
            return
        if final == "s" and not params:  # SCOSC / SCORC: save and restore the cursor
            self._save_cursor()
            return
        if final == "u" and not params:
            self._restore_cursor()
            return
        if params and not _PLAIN_PARAMS.match(params):
            if final == "h" and self._alt is None and _ALT_ENTER.match(params):
                self._alt = AlternateScreen(self._columns, self._rows_hint)
            return  # private or intermediate-carrying sequences never move our cursor
        if final == "K":
            self._erase_in_line(_csi_numbers(params, 0)[0])
        elif final in "G`":
            self._col = min(max(1, _csi_numbers(params, 1)[0]), _MAX_COLUMN) - 1
        elif final == "C" or final == "a":
            self._col = min(self._col + max(1, _csi_numbers(params, 1)[0]), _MAX_COLUMN - 1)
        elif final == "D":
            self._col = max(0, self._col - max(1, _csi_numbers(params, 1)[0]))
        elif final in "Hf":
            nums = _csi_numbers(params, 1)
            if self._saved is not None:
                self._detached = True  # drawing a status line elsewhere on screen
            self._col = min(max(1, nums[1] if len(nums) > 1 else 1), _MAX_COLUMN) - 1
        elif final == "d" and self._saved is not None:
            self._detached = True
        elif final in "AF":
            self._cursor_up(max(1, _csi_numbers(params, 1)[0]))
            if final == "F":
                self._col = 0
        elif final in "BE":
            self._row = min(len(self._rows) - 1, self._row + max(1, _csi_numbers(params, 1)[0]))
            if final == "E":
                self._col = 0
        elif final == "J" and _csi_numbers(params, 0)[0] == 0:
            # Erase below: redraws after a cursor-up use it to drop stale rows. Clearing
            # the whole screen (ED 1-3, `clear`) erases nothing here: a capture is a
            # transcript, and what was printed before the clear still happened.
            del self._rows[self._row + 1 :]
            self._erase_in_line(0)
        elif final == "X":
            count = max(1, _csi_numbers(params, 1)[0])
            row = self._rows[self._row]
            if self._col < len(row):
                kept = row[self._col + count :]
                self._rows[self._row] = row[: self._col] + (
                    " " * min(count, len(row) - self._col) + kept if kept else ""
                )
        elif final == "P":
            count = max(1, _csi_numbers(params, 1)[0])
            row = self._rows[self._row]
            self._rows[self._row] = row[: self._col] + row[self._col + count :]
        elif final == "@":
            count = min(max(1, _csi_numbers(params, 1)[0]), _MAX_COLUMN)
            row = self._rows[self._row]
            if self._col < len(row):
                self._rows[self._row] = row[: self._col] + " " * count + row[self._col :]

    # ------------------------------------------------------------ alternate screen

    def _feed_alternate_screen(self, text: str, pos: int) -> int:
        """Draw on the screen model until the program leaves; return where it left.

        Sequences are delimited here, by the same parser as the line renderer, and the
        screen model only ever gets whole, well-formed ones: so a read boundary, a
        control string or a malformed sequence cannot derail it.
        """
        alt = self._alt
        assert alt is not None
        n = len(text)
        while pos < n:
            if self._string is not None:
                pos = self._continue_string(text, pos)
                continue
            m = _CONTROL.search(text, pos)
            if m is None:
                alt.draw(text[pos:])
                return n
            start = m.start()
            if start > pos:
                alt.draw(text[pos:start])
            ch = text[start]
            pos = start + 1
            if ch in "\r\n\b":
                alt.draw(ch)
            elif ch == "\x1b" or ch in _INTRODUCERS:
                end, kind, params, final = _parse_escape(text, start)
                if end < 0:
                    self._pending = text[start : start + _MAX_PENDING]
                    return n
                pos = end
                if kind == "[":
                    if final == "l" and _ALT_LEAVE.match(params):
                        self._leave_alternate_screen()
                        return pos
                    if _SCREEN_CSI.match(params):
                        alt.draw(f"\x1b[{params}{final}")
                elif kind == " ":
                    alt.draw(f"\x1b{params}{final}")
                elif kind == "F" and final in "78DEMc":
                    alt.draw(f"\x1b{final}")
                elif kind and kind in _STRING_KINDS:
                    self._start_string(kind)
        return n

    def _leave_alternate_screen(self) -> None:
        assert self._alt is not None
        summary = self._alt.summary()
        self._alt = None
        if not summary:
            return
        # The summary starts on a line of its own and leaves the cursor on a fresh line.
        if self._rows[self._row]:
            self._line_feed()
        for line in summary:
            self._write(line)
            self._line_feed()


_CURSOR_UP = re.compile(r"(?:\x1b\[|\x9b)([0-9]*)[AF]")


def render(text: str | Iterable[str]) -> str:
    """Render a whole text (or pieces of one) at once: the one-shot form of `VTProcessor`.

    With the whole text at hand, a multi-line redraw (cursor-up) is seen in advance, so
    even its first frame is replaced rather than kept.
    """
    live = 0
    if isinstance(text, str) and ("\x1b" in text or "\x9b" in text):
        ups = [min(int(m.group(1)[:6] or 1), _MAX_LIVE_ROWS) for m in _CURSOR_UP.finditer(text)]
        live = max(ups, default=0)
    processor = VTProcessor(live_rows=live)
    parts = [text] if isinstance(text, str) else text
    out = [processor.feed(part).text for part in parts]
    out.append(processor.finish().text)
    return "".join(out)
