"""Seed 000's model test plan, translated, plus the state machine and JSON round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from aintern_ls.models import (
    CommandBlock,
    CommandBlockStatus,
    CommandExtractionResult,
    CommandResult,
    ExtractionWarning,
    IllegalTransitionError,
    OutputCaptureMode,
    OutputCaptureSettings,
    ShellType,
    TerminalOutputCapture,
    TextRange,
    TruncationMode,
    converter,
    to_json,
)

S = CommandBlockStatus


def test_text_range_length() -> None:
    assert TextRange(3, 10).length == 7


def test_text_range_rejects_negative_start() -> None:
    assert not TextRange(-1, 4).is_valid


def test_text_range_rejects_end_before_start() -> None:
    assert not TextRange(5, 4).is_valid


def test_text_range_extract_returns_substring() -> None:
    assert TextRange(6, 11).extract("hello world!") == "world"


def test_text_range_extract_clamps_to_length() -> None:
    assert TextRange(6, 100).extract("hello world") == "world"
    assert TextRange(50, 100).extract("short") == ""


def test_text_range_contains() -> None:
    r = TextRange(2, 5)
    assert r.contains(2) and r.contains(4)
    assert not r.contains(5) and not r.contains(1)


def test_text_range_overlaps() -> None:
    assert TextRange(0, 5).overlaps(TextRange(4, 8))
    assert not TextRange(0, 5).overlaps(TextRange(5, 8))


def test_status_is_terminal_identifies_final_states() -> None:
    assert {s for s in S if s.is_terminal} == {S.EXECUTED, S.FAILED, S.CANCELLED}


def test_status_was_attempted_excludes_pending() -> None:
    assert not S.PENDING.was_attempted
    assert not S.COPIED.was_attempted
    assert S.EXECUTING.was_attempted and S.FAILED.was_attempted


def test_status_display_is_user_friendly() -> None:
    assert S.PENDING.display == "Ready"
    assert S.SENT_TO_TERMINAL.display == "In Terminal"


def _block(command: str = "ls -la") -> CommandBlock:
    return CommandBlock(id="blk-1", command=command)


def test_block_is_multi_line_detects_newlines() -> None:
    assert _block("a\nb").is_multi_line
    assert not _block("a").is_multi_line


def test_block_line_count() -> None:
    assert _block("a\nb\nc").line_count == 3


def test_block_can_run_allows_non_executing() -> None:
    b = _block()
    assert b.can_run
    b.mark_sent_to_terminal("t1")
    assert b.can_run
    b.mark_executing("t1")
    assert not b.can_run


def test_block_mark_completed_zero_is_executed() -> None:
    b = _block()
    b.mark_executing()
    b.mark_completed(0)
    assert b.status is S.EXECUTED


def test_block_mark_completed_nonzero_is_failed() -> None:
    b = _block()
    b.mark_executing()
    b.mark_completed(2, "cap-1")
    assert b.status is S.FAILED and b.output_capture_id == "cap-1"


def test_block_display_summary_truncates_long() -> None:
    assert _block("x" * 80).display_summary() == "x" * 57 + "..."
    assert _block("echo a\necho b").display_summary() == "echo a (+1 more lines)"


@pytest.mark.parametrize(
    ("path", "ok"),
    [
        ([S.COPIED, S.EXECUTING, S.EXECUTED], True),
        ([S.SENT_TO_TERMINAL, S.EXECUTING, S.CANCELLED], True),
        ([S.EXECUTING, S.FAILED, S.PENDING, S.EXECUTING], True),
        ([S.EXECUTED], False),
        ([S.EXECUTING, S.COPIED], False),
        ([S.COPIED, S.SENT_TO_TERMINAL], False),
        ([S.EXECUTING, S.EXECUTING], False),
    ],
)
def test_status_transitions_follow_the_state_machine(path: list[S], ok: bool) -> None:
    def walk() -> None:
        status = S.PENDING
        for target in path:
            if not status.can_become(target):
                raise IllegalTransitionError(f"{status} -> {target}")
            status = target

    if ok:
        walk()
    else:
        with pytest.raises(IllegalTransitionError):
            walk()


def test_illegal_transition_raises_and_keeps_status() -> None:
    b = _block()
    with pytest.raises(IllegalTransitionError, match="pending to executed"):
        b.mark_completed(0)
    assert b.status is S.PENDING


def test_copy_after_run_keeps_status() -> None:
    b = _block()
    b.mark_executing()
    b.mark_copied()
    assert b.status is S.EXECUTING


def test_reset_makes_finished_block_runnable() -> None:
    b = _block()
    b.mark_executing()
    b.mark_cancelled()
    b.reset()
    assert b.can_run


def _capture(**kw: object) -> TerminalOutputCapture:
    return TerminalOutputCapture(**kw)  # type: ignore[arg-type]


def test_capture_estimated_tokens() -> None:
    assert _capture(output="x" * 100, command="ls").estimated_tokens == (100 + 2 + 50) // 4


def test_capture_to_context_string_formats_markdown() -> None:
    text = _capture(
        output="a\nb",
        command="make",
        exit_code=2,
        working_directory="/src",
        is_truncated=True,
        original_length=12345,
    ).to_context_string()
    assert text.splitlines() == [
        "```terminal",
        "# Directory: /src",
        "$ make",
        "a",
        "b",
        "# Exit code: 2",
        "# (Output truncated from 12,345 characters)",
        "```",
    ]


def test_capture_duration() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    c = _capture(started_at=start, completed_at=start + timedelta(seconds=3))
    assert c.duration == timedelta(seconds=3)


def test_capture_mode_defaults() -> None:
    assert OutputCaptureMode.LAST_COMMAND.default_max_characters == 20_000
    assert OutputCaptureMode.SELECTION.description == "Selected text"


def test_settings_presets() -> None:
    ai = OutputCaptureSettings.for_ai_context()
    assert (ai.max_capture_length, ai.max_capture_lines, ai.truncation_mode) == (
        4000,
        200,
        TruncationMode.KEEP_END,
    )
    assert OutputCaptureSettings.for_full_capture().truncation_mode is TruncationMode.KEEP_BOTH
    assert not OutputCaptureSettings.raw().strip_ansi_sequences


def test_extraction_result_has_commands() -> None:
    assert not CommandExtractionResult().has_commands
    assert CommandExtractionResult([_block()]).has_commands


def test_extraction_result_counts_dangerous() -> None:
    a, b = _block("rm -rf x"), _block("ls")
    a.is_potentially_dangerous = True
    assert CommandExtractionResult([a, b]).dangerous_command_count == 1


def test_extraction_result_detected_shell_types_are_distinct() -> None:
    blocks = [
        CommandBlock(id=str(i), shell_type=t)
        for i, t in enumerate([ShellType.BASH, ShellType.CMD, ShellType.BASH, None])
    ]
    assert CommandExtractionResult(blocks).detected_shell_types == [ShellType.BASH, ShellType.CMD]


@pytest.mark.parametrize(
    "obj",
    [
        CommandBlock(
            id="blk-1",
            message_id="m",
            sequence_number=2,
            role="assistant",
            command="ls",
            language="bash",
            shell_type=ShellType.BASH,
            options={"cwd": "app", "n": [1]},
            source_range=TextRange(3, 9),
            status=S.FAILED,
        ),
        _capture(output="x", exit_code=1, capture_mode=OutputCaptureMode.LAST_N_LINES),
        CommandExtractionResult([_block()], [ExtractionWarning("bad json", 3, 4, "blk-1")]),
        CommandResult(block_id="b", command="ls", status=S.EXECUTED, exit_code=0),
        OutputCaptureSettings.for_full_capture(),
    ],
)
def test_models_round_trip_through_camel_case_json(obj: object) -> None:
    data = json.loads(json.dumps(to_json(obj)))
    assert all("_" not in key for key in data)
    assert converter.structure(data, type(obj)) == obj


def test_block_json_uses_plain_values() -> None:
    data = to_json(CommandBlock(id="b", shell_type=ShellType.POWERSHELL, status=S.SENT_TO_TERMINAL))
    assert data["shellType"] == "powershell"
    assert data["status"] == "sentToTerminal"
    assert data["sourceRange"] == {"start": 0, "end": 0}
