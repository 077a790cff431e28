"""The product's data: command blocks and their states, captures, extraction results.

attrs classes, (un)structured by the one shared cattrs `converter` to camelCase JSON
that round-trips. Statuses change only through `CommandBlock`'s transition methods,
which follow seed 000's state machine; an illegal transition raises
`IllegalTransitionError`.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

# --------------------------------------------------------------------------- shells


class ShellType(enum.StrEnum):
    """The shell a command is written for."""

    BASH = "bash"
    SH = "sh"
    ZSH = "zsh"
    FISH = "fish"
    KSH = "ksh"
    POWERSHELL = "powershell"
    CMD = "cmd"

    @property
    def is_posix(self) -> bool:
        return self not in (ShellType.POWERSHELL, ShellType.CMD)


# ----------------------------------------------------------------------- text range


@attrs.frozen
class TextRange:
    """Character offsets `[start, end)` into a source text."""

    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def is_valid(self) -> bool:
        return self.start >= 0 and self.end >= self.start

    def extract(self, source: str) -> str:
        """The covered text, clamped to the source; empty when out of bounds."""
        if not self.is_valid or self.start >= len(source):
            return ""
        return source[self.start : min(self.end, len(source))]

    def contains(self, index: int) -> bool:
        return self.start <= index < self.end

    def overlaps(self, other: TextRange) -> bool:
        return self.start < other.end and self.end > other.start

    def offset(self, delta: int) -> TextRange:
        return TextRange(self.start + delta, self.end + delta)

    def __str__(self) -> str:
        return f"[{self.start}..{self.end}]"


# -------------------------------------------------------------------------- status


class IllegalTransitionError(ValueError):
    """A status change the state machine does not allow."""


class CommandBlockStatus(enum.StrEnum):
    """Where a block is in its life: seed 000's state machine."""

    PENDING = "pending"
    COPIED = "copied"
    SENT_TO_TERMINAL = "sentToTerminal"
    EXECUTING = "executing"
    EXECUTED = "executed"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def is_terminal(self) -> bool:
        return self in _TERMINAL

    @property
    def was_attempted(self) -> bool:
        return self in (CommandBlockStatus.EXECUTING, *_TERMINAL)

    @property
    def display(self) -> str:
        return _DISPLAY[self]

    def can_become(self, target: CommandBlockStatus) -> bool:
        return target in _TRANSITIONS[self]


_TERMINAL = frozenset(
    {CommandBlockStatus.EXECUTED, CommandBlockStatus.FAILED, CommandBlockStatus.CANCELLED}
)
_DISPLAY = {
    CommandBlockStatus.PENDING: "Ready",
    CommandBlockStatus.COPIED: "Copied",
    CommandBlockStatus.SENT_TO_TERMINAL: "In Terminal",
    CommandBlockStatus.EXECUTING: "Running…",
    CommandBlockStatus.EXECUTED: "Completed",
    CommandBlockStatus.FAILED: "Failed",
    CommandBlockStatus.CANCELLED: "Cancelled",
}
_S = CommandBlockStatus
_TRANSITIONS: dict[CommandBlockStatus, frozenset[CommandBlockStatus]] = {
    _S.PENDING: frozenset({_S.COPIED, _S.SENT_TO_TERMINAL, _S.EXECUTING}),
    _S.COPIED: frozenset({_S.EXECUTING}),
    _S.SENT_TO_TERMINAL: frozenset({_S.EXECUTING}),
    _S.EXECUTING: frozenset({_S.EXECUTED, _S.FAILED, _S.CANCELLED}),
    # A finished block goes back to Pending only through `CommandBlock.reset()`.
    _S.EXECUTED: frozenset({_S.PENDING}),
    _S.FAILED: frozenset({_S.PENDING}),
    _S.CANCELLED: frozenset({_S.PENDING}),
}


# ------------------------------------------------------------------- command block


def _now() -> datetime:
    return datetime.now(UTC)


@attrs.define
class CommandBlock:
    """An executable command found in a document or chat message."""

    # identity
    id: str
    message_id: str = ""
    sequence_number: int = 0
    role: str | None = None
    # content
    command: str = ""
    language: str | None = None
    shell_type: ShellType | None = None
    description: str | None = None
    working_directory: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    expected_output: str | None = None
    # source mapping (0-based lines of the opening and closing fence)
    start_line: int = 0
    end_line: int = 0
    source_range: TextRange = TextRange(0, 0)
    # detection (set from the safety assessment by the document store)
    is_potentially_dangerous: bool = False
    """Dangerous, critical or blocked: running it needs a yes, or never happens."""
    danger_warning: str | None = None
    """The assessment's reason text when `is_potentially_dangerous`."""
    # execution
    status: CommandBlockStatus = CommandBlockStatus.PENDING
    executed_at: datetime | None = None
    executed_in_session_id: str | None = None
    output_capture_id: str | None = None
    extracted_at: datetime = attrs.field(factory=_now)

    @property
    def is_multi_line(self) -> bool:
        return "\n" in self.command

    @property
    def line_count(self) -> int:
        return self.command.count("\n") + 1

    @property
    def first_line(self) -> str:
        return self.command.split("\n", 1)[0]

    @property
    def is_completed(self) -> bool:
        return self.status.is_terminal

    @property
    def can_run(self) -> bool:
        return self.status in (_S.PENDING, _S.COPIED, _S.SENT_TO_TERMINAL)

    def display_summary(self) -> str:
        """The block in one short line, secrets replaced (progress, titles, messages)."""
        command = _redacted(self.command) or ""
        summary = command
        if self.line_count > 1:
            summary = f"{command.split(chr(10), 1)[0]} (+{self.line_count - 1} more lines)"
        return summary if len(summary) <= 60 else summary[:57] + "..."

    def _move(self, target: CommandBlockStatus) -> None:
        if not self.status.can_become(target):
            raise IllegalTransitionError(
                f"block {self.id}: cannot go from {self.status.value} to {target.value}"
            )
        self.status = target

    def mark_copied(self) -> None:
        """Copying a block that was already used leaves its status alone."""
        if self.status is _S.PENDING:
            self._move(_S.COPIED)

    def mark_sent_to_terminal(self, session_id: str) -> None:
        self._move(_S.SENT_TO_TERMINAL)
        self.executed_in_session_id = session_id

    def mark_executing(self, session_id: str | None = None) -> None:
        self._move(_S.EXECUTING)
        self.executed_in_session_id = session_id
        self.executed_at = _now()

    def mark_completed(self, exit_code: int, output_capture_id: str | None = None) -> None:
        self._move(_S.EXECUTED if exit_code == 0 else _S.FAILED)
        self.output_capture_id = output_capture_id

    def mark_cancelled(self) -> None:
        self._move(_S.CANCELLED)

    def reset(self) -> None:
        """Make a finished block runnable again (the user clicks Run a second time)."""
        self._move(_S.PENDING)


# ------------------------------------------------------------------ capture models


class OutputCaptureMode(enum.StrEnum):
    FULL_BUFFER = "fullBuffer"
    LAST_COMMAND = "lastCommand"
    SELECTION = "selection"
    LAST_N_LINES = "lastNLines"
    MANUAL = "manual"

    @property
    def description(self) -> str:
        return {
            "fullBuffer": "Entire terminal buffer",
            "lastCommand": "Last command output",
            "selection": "Selected text",
            "lastNLines": "Last N lines",
            "manual": "Manual selection",
        }[self.value]

    @property
    def default_max_characters(self) -> int:
        return {
            "fullBuffer": 50_000,
            "lastCommand": 20_000,
            "selection": 10_000,
            "lastNLines": 10_000,
            "manual": 50_000,
        }[self.value]


class TruncationMode(enum.StrEnum):
    KEEP_START = "keepStart"
    KEEP_END = "keepEnd"
    KEEP_BOTH = "keepBoth"

    @property
    def description(self) -> str:
        return {
            "keepStart": "Keep beginning, truncate end",
            "keepEnd": "Keep end, truncate beginning",
            "keepBoth": "Keep beginning and end, truncate middle",
        }[self.value]


_INT_MAX = 2**31 - 1


@attrs.define
class OutputCaptureSettings:
    """How captures are cleaned and cut (seed 001), with its three presets."""

    max_capture_length: int = 8000
    max_capture_lines: int = 500
    truncation_mode: TruncationMode = TruncationMode.KEEP_END
    strip_ansi_sequences: bool = True
    normalize_line_endings: bool = True
    capture_history_size: int = 20
    redact_secrets: bool = True

    @classmethod
    def for_ai_context(cls) -> OutputCaptureSettings:
        return cls(4000, 200, TruncationMode.KEEP_END, True, True, 10)

    @classmethod
    def for_full_capture(cls) -> OutputCaptureSettings:
        return cls(50_000, 2000, TruncationMode.KEEP_BOTH, True, True, 50)

    @classmethod
    def raw(cls) -> OutputCaptureSettings:
        return cls(_INT_MAX, _INT_MAX, TruncationMode.KEEP_END, False, False, 5, False)


def _redacted(command: str | None) -> str | None:
    """A command line as an AI or a log may see it (secrets replaced by markers)."""
    from aintern_ls.capture.redaction import redact_command  # models is imported first

    return redact_command(command)


def _redacted_str(command: str) -> str:
    return _redacted(command) or ""


@attrs.define
class TerminalOutputCapture:
    """Terminal output captured for an AI panel."""

    id: str = attrs.field(factory=lambda: str(uuid.uuid4()))
    session_id: str = ""
    session_name: str | None = attrs.field(default=None, converter=_redacted)
    command_block_id: str | None = None
    command: str | None = attrs.field(default=None, converter=_redacted)
    output: str = ""
    is_truncated: bool = False
    original_length: int = 0
    exit_code: int | None = None
    started_at: datetime = attrs.field(factory=_now)
    completed_at: datetime = attrs.field(factory=_now)
    working_directory: str | None = None
    capture_mode: OutputCaptureMode = OutputCaptureMode.FULL_BUFFER
    redaction_count: int = 0

    @property
    def duration(self) -> timedelta:
        return self.completed_at - self.started_at

    @property
    def estimated_tokens(self) -> int:
        """About four characters per token, plus room for the framing."""
        return (len(self.output) + len(self.command or "") + 50) // 4

    @property
    def is_success(self) -> bool:
        return self.exit_code is None or self.exit_code == 0

    @property
    def line_count(self) -> int:
        return self.output.count("\n") + 1

    def to_context_string(self) -> str:
        """The capture as a fenced `terminal` block for an AI prompt."""
        lines = ["```terminal"]
        if self.working_directory:
            lines.append(f"# Directory: {self.working_directory}")
        if self.command:
            lines.append(f"$ {self.command}")
        lines.append(self.output)
        if self.exit_code is not None:
            lines.append(f"# Exit code: {self.exit_code}")
        if self.is_truncated:
            lines.append(f"# (Output truncated from {self.original_length:,} characters)")
        if self.redaction_count:
            lines.append(f"# ({self.redaction_count} secret(s) redacted)")
        lines.append("```")
        return "\n".join(lines) + "\n"

    def to_summary(self) -> str:
        lines = self.output.split("\n")
        preview = (
            f"{lines[0]}\n{lines[1]}\n... ({len(lines) - 2} more lines)"
            if len(lines) > 3
            else self.output
        )
        return preview if len(preview) <= 200 else preview[:197] + "..."


# ------------------------------------------------------------------ extraction


@attrs.frozen
class ExtractionWarning:
    """Something extraction noticed but could not use, with where it is (0-based)."""

    message: str
    line: int = 0
    character: int = 0
    block_id: str | None = None


@attrs.define
class CommandExtractionResult:
    commands: Sequence[CommandBlock] = attrs.field(factory=list)
    """A list, or for a huge document an `extraction.compact.BlockTable`."""
    warnings: list[ExtractionWarning] = attrs.field(factory=list)

    @property
    def has_commands(self) -> bool:
        return bool(self.commands)

    @property
    def command_count(self) -> int:
        return len(self.commands)

    @property
    def dangerous_command_count(self) -> int:
        return sum(1 for c in self.commands if c.is_potentially_dangerous)

    @property
    def has_warnings(self) -> bool:
        return bool(self.warnings)

    @property
    def detected_shell_types(self) -> list[ShellType]:
        return list(dict.fromkeys(c.shell_type for c in self.commands if c.shell_type))


# ---------------------------------------------------------------- command results


@attrs.define
class CommandResult:
    """What a run of one block returns to the editor (DESIGN §8)."""

    block_id: str
    command: str = attrs.field(converter=_redacted_str)  # as run, secrets replaced
    status: CommandBlockStatus
    exit_code: int | None = None
    output: str = ""
    was_truncated: bool = False
    original_length: int = 0
    duration_ms: int = 0
    cwd: str | None = None
    timed_out: bool = False
    cancelled: bool = False
    signal: str | None = None
    capture_id: str | None = None


# ----------------------------------------------------------------------- converter


def camel_case(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(omit_if_default=False)
    conv.register_unstructure_hook(datetime, lambda d: d.isoformat())
    # ordered levels with a name (the analyser's RiskLevel) travel by name ("dangerous")
    conv.register_unstructure_hook(
        enum.Enum,
        lambda e: e.label if isinstance(e, enum.IntEnum) and hasattr(e, "label") else e.value,
    )

    def structure_str_list(value: Any, _: Any) -> list[str]:
        # cattrs would happily turn "abc" into ["a", "b", "c"].
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"expected a list of strings, got {value!r}")
        return list(value)

    conv.register_structure_hook_func(lambda t: t == list[str], structure_str_list)
    conv.register_structure_hook(datetime, lambda v, _: datetime.fromisoformat(v))
    # extraction results' blocks come back as a list (a huge document's table is not kept)
    conv.register_structure_hook_func(
        lambda t: t == Sequence[CommandBlock],
        lambda v, _: [conv.structure(b, CommandBlock) for b in v],
    )

    def unstructure_factory(cls: type[Any]) -> Callable[[Any], dict[str, Any]]:
        renames = {a.name: override(rename=camel_case(a.name)) for a in attrs.fields(cls)}
        return make_dict_unstructure_fn(cls, conv, **renames)  # type: ignore[arg-type]

    def structure_factory(cls: type[Any]) -> Callable[[Any, Any], Any]:
        renames = {a.name: override(rename=camel_case(a.name)) for a in attrs.fields(cls)}
        return make_dict_structure_fn(cls, conv, **renames)  # type: ignore[arg-type]

    conv.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    conv.register_structure_hook_factory(attrs.has, structure_factory)
    return conv


converter = _make_converter()
"""The one converter: attrs models <-> camelCase JSON-ready dicts."""


def to_json(obj: Any) -> Any:
    """The one serializer for every wire shape: attrs models (blocks, results, captures,
    assessments, run results) to camelCase JSON-ready values."""
    return converter.unstructure(obj)
