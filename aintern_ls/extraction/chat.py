"""Chat transcripts: where each message starts and who wrote it.

Formats read (all Markdown):

- CodeCompanion.nvim: `## Me` / `## CodeCompanion (model)` H2 headers;
- CopilotChat.nvim: `## User ───` / `## Copilot ───` (the user header is often the
  login name, recognisable by the `───` separator);
- generic transcripts: `#### user` / `#### assistant`, `### Human`, `## Prompt:` /
  `## Response:`, `**User:**` / `**Assistant:**` paragraphs;
- gp.nvim: paragraphs starting `💬:` (user) and `🤖:` (assistant);
- Obsidian ChatGPT MD: `role::user` / `role::assistant` lines or headings;
- Aider's `.aider.chat.history.md`: `# aider chat started at …` opens a session,
  `#### ` lines are what the user typed, everything else is Aider's output
  (`> ` lines are its tool output, kept with the assistant side).

A document is only split when it looks like a chat (both roles appear, or a
format-specific marker does), so a runbook with a "## User" section stays one
message with no role.
"""

from __future__ import annotations

import bisect
import functools
import re
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, overload

import attrs

from aintern_ls.extraction.markdown import TopBlock

USER = "user"
ASSISTANT = "assistant"

_ROLE_NAMES = {
    "me": USER,
    "user": USER,
    "you": USER,
    "human": USER,
    "prompt": USER,
    "assistant": ASSISTANT,
    "codecompanion": ASSISTANT,
    "copilot": ASSISTANT,
    "ai": ASSISTANT,
    "bot": ASSISTANT,
    "llm": ASSISTANT,
    "chatgpt": ASSISTANT,
    "claude": ASSISTANT,
    "gemini": ASSISTANT,
    "response": ASSISTANT,
    "avante": ASSISTANT,
    "aider": ASSISTANT,
    # Tool results and errors come from the assistant's side of the conversation.
    "tool": ASSISTANT,
    "error": ASSISTANT,
}
# Too common as runbook section names to count unless CopilotChat-decorated (`## Error ───`).
_DECORATED_ONLY = frozenset({"tool", "error"})
_BRACKETED = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
_SEPARATOR = re.compile(r"[─━═—-]{2,}\s*$")
_GP_USER = "💬:"
_GP_ASSISTANT = "🤖:"
_BOLD_LABEL = re.compile(r"\*\*([^*\n]{1,40}?)\s*(?::\s*\*\*|\*\*\s*:)")
_PLAIN_LABEL = re.compile(r"(User|Assistant|Human|AI|Me|You):(?:\s|$)")
# Obsidian ChatGPT MD: `role::assistant` (sometimes followed by a `<span>` model tag).
_ROLE_TAG = re.compile(r"role::(\w+)(?:<[^\n]*)?")
_AIDER_SESSION = re.compile(r"aider chat started at\b", re.IGNORECASE)
AIDER_SUFFIX = ".aider.chat.history.md"


class Message(NamedTuple):
    """One message of a transcript (a named tuple: a 50 MB transcript has many)."""

    ordinal: int
    line: int
    """First line of the message (its marker line)."""
    role: str | None
    marker: str | None = None
    """Label text to strip from a description that starts on the marker line."""


class Messages(Sequence[Message]):
    """A transcript's messages in arrays (a 50 MB transcript has a hundred thousand):
    each `Message` is made when it is read."""

    __slots__ = ("_lines", "_markers", "_names", "_ordinals", "_roles")

    def __init__(self, messages: Sequence[Message]) -> None:
        self._ordinals = array("i", [m.ordinal for m in messages])
        self._lines = array("i", [m.line for m in messages])
        self._names = tuple(dict.fromkeys(m.role for m in messages))
        self._roles = bytes(self._names.index(m.role) for m in messages)
        markers = [sys.intern(m.marker) if m.marker else m.marker for m in messages]
        self._markers = markers if any(m is not None for m in markers) else None

    @property
    def lines(self) -> array[int]:
        return self._lines

    @property
    def roles(self) -> tuple[str | None, ...]:
        """The roles that occur."""
        return self._names

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, i: int) -> Message: ...

    @overload
    def __getitem__(self, i: slice) -> list[Message]: ...

    def __getitem__(self, i: int | slice) -> Message | list[Message]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        marker = self._markers[i] if self._markers is not None else None
        return Message(self._ordinals[i], self._lines[i], self._names[self._roles[i]], marker)

    def __iter__(self) -> Iterator[Message]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


@attrs.frozen
class Transcript:
    """The messages of a document, ordered by line; one roleless message for plain Markdown."""

    messages: Messages = attrs.field(converter=Messages)
    """Kept in arrays (`Messages`)."""
    aider: bool = False
    levels: frozenset[int] = frozenset()
    """Heading levels of the role markers (the level a header must have to start a message)."""
    _lines: array[int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_lines", self.messages.lines)

    @property
    def is_chat(self) -> bool:
        return any(role is not None for role in self.messages.roles)

    def message_at(self, line: int) -> Message:
        index = bisect.bisect_right(self._lines, line) - 1
        return self.messages[max(index, 0)]


def split_messages(blocks: list[TopBlock], uri: str = "") -> Transcript:
    if uri.endswith(AIDER_SUFFIX) or any(
        b.kind == "heading" and b.level == 1 and _AIDER_SESSION.match(b.text) for b in blocks
    ):
        return _number(_aider_messages(blocks), aider=True, levels=frozenset({1, 4}))
    markers: list[tuple[int, str, str | None]] = []
    roles: set[str] = set()
    format_specific = False
    pending_custom: list[tuple[int, str, str | None]] = []
    for block, (role, label, specific) in _paired(blocks):
        if role == "user?":
            pending_custom.append((block.line, USER, label))
            continue
        markers.append((block.line, role, label))
        roles.add(role)
        format_specific = format_specific or specific
    if ASSISTANT in roles and pending_custom:
        # CopilotChat's user header is the login name; trust it once Copilot answers.
        markers = sorted(markers + pending_custom)
        roles.add(USER)
    if not (format_specific or roles == {USER, ASSISTANT}):
        return Transcript([Message(0, 0, None)])
    messages: list[Message] = []
    if markers[0][0] > 0 and any(b.line < markers[0][0] for b in blocks):
        messages.append(Message(0, 0, None))
    first = len(messages)
    messages += [Message(first + i, *marker) for i, marker in enumerate(markers)]
    by_line = {b.line: b for b in blocks}
    levels = frozenset(
        by_line[line].level for line, _, _ in markers if by_line[line].kind == "heading"
    )
    return Transcript(messages, levels=levels)


def split_messages_lean(blocks: Callable[[], Iterator[TopBlock]], uri: str = "") -> Transcript:
    """`split_messages` of a huge document's blocks (`blocks()` gives them one at a time,
    in order): only those the split reads are kept (role markers, level-1 headings, the
    first block), unless the document is an Aider history (whose split reads them all)."""
    if uri.endswith(AIDER_SUFFIX):
        return split_messages(list(blocks()), uri)
    kept: list[TopBlock] = []
    for block in blocks():
        if not kept or (block.kind == "heading" and block.level == 1) or _marker(block) is not None:
            kept.append(block)
    if any(b.kind == "heading" and b.level == 1 and _AIDER_SESSION.match(b.text) for b in kept):
        return split_messages(list(blocks()), uri)
    return split_messages(kept, uri)


def _paired(blocks: list[TopBlock]) -> list[tuple[TopBlock, tuple[str, str | None, bool]]]:
    """Role markers, keeping only heading levels both roles use when they share one:
    CodeCompanion's `## Me` / `## CodeCompanion` turns stay whole even when the
    answer has a `### Response` sub-heading."""
    found = [(b, m) for b in blocks if (m := _marker(b)) is not None]
    levels: dict[str, set[int]] = {USER: set(), ASSISTANT: set()}
    for block, (role, _, _) in found:
        if block.kind == "heading":
            levels[USER if role == "user?" else role].add(block.level)
    shared = levels[USER] & levels[ASSISTANT]
    if not shared:
        return found
    return [(b, m) for b, m in found if b.kind != "heading" or b.level in shared]


def _number(
    messages: list[Message], *, aider: bool = False, levels: frozenset[int] = frozenset()
) -> Transcript:
    if not messages:
        messages = [Message(0, 0, None)]
    numbered = [Message(i, m.line, m.role, m.marker) for i, m in enumerate(messages)]
    return Transcript(numbered, aider=aider, levels=levels)


def is_marker(block: TopBlock) -> bool:
    """Whether a block could start a message in some chat format."""
    return _marker(block) is not None


def cut_role(block: TopBlock, transcript: Transcript, *, after_blank: bool = True) -> str | None:
    """The role of the message `block` would start in `transcript`, for a header
    line found inside a code fence (a reply cut off with its fence still open).
    A header right after a non-blank line counts only when it is specific to a
    chat format (`## Me`, `💬:`, CopilotChat's decorated headers)."""
    if transcript.aider:
        if not after_blank:
            return None
        if block.kind == "heading" and block.level == 4:
            return USER
        if block.kind == "heading" and block.level == 1 and _AIDER_SESSION.match(block.text):
            return ASSISTANT
        return None
    found = _marker(block)
    if found is None:
        return None
    if block.kind == "heading" and block.level not in transcript.levels:
        return None
    if not after_blank and not found[2]:
        return None
    return USER if found[0] == "user?" else found[0]


def _marker(block: TopBlock) -> tuple[str, str | None, bool] | None:
    """(role, label to strip, format-specific?) for a block that starts a message."""
    if block.kind == "other" or not block.text:
        return None
    return _marker_of(block.kind, block.text)


@functools.lru_cache(maxsize=4096)  # (its keys keep paragraphs' text alive: few)
def _marker_of(kind: str, text: str) -> tuple[str, str | None, bool] | None:
    """`_marker` by what it reads (a transcript repeats its headers thousands of times)."""
    block = TopBlock(0, kind, text)
    if block.kind in ("heading", "paragraph"):
        tagged = _ROLE_TAG.match(block.text.lstrip())
        if tagged:
            role = _ROLE_NAMES.get(tagged.group(1).lower())
            return (role, tagged.group(0), True) if role else None
    if block.kind == "heading":
        text = block.text.strip()
        name = _BRACKETED.sub(" ", text)
        words = _WORD.findall(name)
        key = words[0].lower().rstrip(".-") if len(words) == 1 else ""
        decorated = bool(_SEPARATOR.search(text))
        if key in _ROLE_NAMES and (decorated or key not in _DECORATED_ONLY):
            return _ROLE_NAMES[key], None, decorated or key in ("me", "codecompanion")
        if words and _SEPARATOR.search(text):
            return "user?", None, False
        return None
    if block.kind == "paragraph":
        first = block.text.split("\n", 1)[0].lstrip()
        if first.startswith(_GP_USER):
            return USER, _GP_USER, True
        if first.startswith(_GP_ASSISTANT):
            label = re.match(r"🤖:\s*(?:\[[^\]\n]*\])?", first)
            return ASSISTANT, label.group(0) if label else _GP_ASSISTANT, True
        bold = _BOLD_LABEL.match(first)
        if bold:
            key = bold.group(1).strip().lower()
            if key in _ROLE_NAMES:
                return _ROLE_NAMES[key], bold.group(0), False
        plain = _PLAIN_LABEL.match(first)
        if plain:
            return _ROLE_NAMES[plain.group(1).lower()], plain.group(0), False
    return None


def _aider_messages(blocks: list[TopBlock]) -> list[Message]:
    messages: list[Message] = []
    current: str | None = None
    for block in blocks:
        if block.kind == "heading" and block.level == 1 and _AIDER_SESSION.match(block.text):
            # The session header and Aider's start-up lines that follow it.
            messages.append(Message(0, block.line, ASSISTANT))
            current = ASSISTANT
        elif block.kind == "heading" and block.level == 4:
            if current != USER:
                messages.append(Message(0, block.line, USER))
                current = USER
        elif current != ASSISTANT:
            messages.append(Message(0, block.line, ASSISTANT))
            current = ASSISTANT
    return messages
