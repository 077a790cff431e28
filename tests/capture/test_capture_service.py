"""CaptureService: seed 001's 27-test plan, translated, plus modes the seed left out."""

from __future__ import annotations

import attrs
import pytest

from aintern_ls.capture import CapturableSession, CaptureService, fit_capture
from aintern_ls.capture.redaction import marker
from aintern_ls.errors import AInternError
from aintern_ls.models import (
    OutputCaptureMode,
    OutputCaptureSettings,
    TerminalOutputCapture,
    TruncationMode,
)


@attrs.define
class MemorySession:
    """A terminal session that is just a buffer: all the service needs."""

    session_id: str = "s1"
    name: str | None = "bash"
    cwd: str | None = "/home/me/project"
    buffer: str = ""

    def buffer_text(self) -> str:
        return self.buffer


def _is_session(session: CapturableSession) -> CapturableSession:
    return session


def numbered(count: int) -> str:
    return "\n".join(f"line {i}" for i in range(count))


@pytest.fixture
def session() -> MemorySession:
    return MemorySession()


@pytest.fixture
def service() -> CaptureService:
    return CaptureService()


# ------------------------------------------------------------------ stream capture


def test_start_capture_makes_the_session_capturing(
    service: CaptureService, session: MemorySession
) -> None:
    service.start_capture(_is_session(session))
    assert service.is_capturing("s1")


def test_start_capture_with_command_stores_the_command(
    service: CaptureService, session: MemorySession
) -> None:
    service.start_capture(session, "make test")
    capture = service.stop_capture("s1")
    assert capture is not None
    assert capture.command == "make test"
    assert capture.capture_mode is OutputCaptureMode.LAST_COMMAND


def test_stop_capture_returns_the_output(service: CaptureService, session: MemorySession) -> None:
    service.start_capture(session, "echo hi")
    service.on_output("s1", b"hi\r\n")
    capture = service.stop_capture("s1", exit_code=0)
    assert capture is not None
    assert capture.output == "hi"
    assert capture.exit_code == 0
    assert capture.session_name == "bash"
    assert capture.working_directory == "/home/me/project"
    assert capture.completed_at >= capture.started_at


def test_stop_capture_without_a_capture_returns_none(service: CaptureService) -> None:
    assert service.stop_capture("nobody") is None


def test_stop_capture_ends_the_capture(service: CaptureService, session: MemorySession) -> None:
    service.start_capture(session)
    service.stop_capture("s1")
    assert not service.is_capturing("s1")
    assert service.stop_capture("s1") is None


def test_output_received_accumulates(service: CaptureService, session: MemorySession) -> None:
    service.start_capture(session)
    service.on_output("s1", "first ")
    service.on_output("s1", b"sec")
    service.on_output("s1", "ond\r\nthird")
    service.on_output("other-session", "ignored")
    capture = service.stop_capture("s1")
    assert capture is not None
    assert capture.output == "first second\nthird"


def test_output_without_a_capture_is_ignored(service: CaptureService) -> None:
    service.on_output("s1", "nothing listens")
    assert service.get_recent_captures("s1") == []


def test_manual_capture_is_started_and_stopped_explicitly(
    service: CaptureService, session: MemorySession
) -> None:
    service.start_capture(session, mode=OutputCaptureMode.MANUAL)
    service.on_output("s1", "\x1b[1mpicked\x1b[0m by hand\r\n")
    capture = service.stop_capture("s1")
    assert capture is not None
    assert capture.capture_mode is OutputCaptureMode.MANUAL
    assert capture.output == "picked by hand"
    with pytest.raises(AInternError, match="start_capture"):
        service.capture_buffer(session, OutputCaptureMode.MANUAL)


def test_stream_capture_redacts_and_counts(service: CaptureService, session: MemorySession) -> None:
    service.start_capture(session, "env")
    service.on_output("s1", b"HOME=/home/me\r\nAPI_TOKEN=abcdef123456\r\n")
    capture = service.stop_capture("s1")
    assert capture is not None
    assert capture.output == "HOME=/home/me\nAPI_TOKEN=" + marker(
        "secret-assignment", "abcdef123456"
    )
    assert capture.redaction_count == 1


# ------------------------------------------------------------------ buffer capture


def test_full_buffer_capture_returns_all(service: CaptureService, session: MemorySession) -> None:
    session.buffer = "$ ls\r\nfile1\r\nfile2\r\n"
    capture = service.capture_buffer(session)
    assert capture.output == "$ ls\nfile1\nfile2"
    assert capture.capture_mode is OutputCaptureMode.FULL_BUFFER


def test_last_n_lines_capture_returns_those_lines(
    service: CaptureService, session: MemorySession
) -> None:
    session.buffer = numbered(100) + "\n"
    capture = service.capture_buffer(session, OutputCaptureMode.LAST_N_LINES, 3)
    assert capture.output == "line 97\nline 98\nline 99"
    default = service.capture_buffer(session, OutputCaptureMode.LAST_N_LINES)
    assert default.output.split("\n")[0] == "line 50"


def test_selection_capture_returns_the_selected_text(
    service: CaptureService, session: MemorySession
) -> None:
    capture = service.capture_buffer(
        session, OutputCaptureMode.SELECTION, selection="\x1b[31merror:\x1b[0m boom"
    )
    assert capture.output == "error: boom"
    assert capture.capture_mode is OutputCaptureMode.SELECTION


def test_selection_capture_without_selection_returns_none(
    service: CaptureService, session: MemorySession
) -> None:
    assert service.capture_selection(session, None) is None
    assert service.capture_selection(session, "") is None
    selected = service.capture_selection(session, "picked")
    assert selected is not None
    assert selected.output == "picked"


SHELL_BUFFER = (
    "\x1b]633;A\x07$ \x1b]633;B\x07echo one\r\n"
    "\x1b]633;E;echo one;n1\x07\x1b]633;C\x07one\r\n\x1b]633;D;0\x07"
    "\x1b]633;P;Cwd=/srv/app\x07\x1b]633;A\x07$ \x1b]633;B\x07false\r\n"
    "\x1b]633;E;make build;n1\x07\x1b]633;C\x07\x1b[31mbuild failed\x1b[0m\r\n"
    "10%\r100%\r\n\x1b]633;D;2\x07\x1b]633;A\x07$ "
)


def test_last_command_capture_uses_the_shell_integration_marks(
    service: CaptureService, session: MemorySession
) -> None:
    session.buffer = SHELL_BUFFER
    capture = service.capture_buffer(session, OutputCaptureMode.LAST_COMMAND)
    assert capture.output == "build failed\n100%"
    assert capture.command == "make build"
    assert capture.exit_code == 2
    assert capture.working_directory == "/srv/app"
    assert capture.capture_mode is OutputCaptureMode.LAST_COMMAND


def test_last_command_still_running_runs_to_the_end(
    service: CaptureService, session: MemorySession
) -> None:
    session.buffer = "\x1b]133;C\x07compiling...\r\nstep 2"
    capture = service.capture_buffer(session, OutputCaptureMode.LAST_COMMAND)
    assert capture.output == "compiling...\nstep 2"
    assert capture.exit_code is None


def test_last_command_without_marks_falls_back_to_the_buffer(
    service: CaptureService, session: MemorySession
) -> None:
    session.buffer = "plain shell\r\nno marks\r\n"
    capture = service.capture_buffer(session, OutputCaptureMode.LAST_COMMAND)
    assert capture.output == "plain shell\nno marks"


# --------------------------------------------------------------------- processing


def test_processing_strips_ansi(service: CaptureService) -> None:
    processed = service.process_output(
        "→ \x1b[32mSuccess:\x1b[0m Build completed in \x1b[1m2.3s\x1b[0m"
    )
    assert processed.text == "→ Success: Build completed in 2.3s"


def test_processing_normalises_line_endings(service: CaptureService) -> None:
    assert service.process_output("a\r\nb\nc").text == "a\nb\nc"
    service.configure(attrs.evolve(OutputCaptureSettings(), strip_ansi_sequences=False))
    assert service.process_output("a\r\nb\rc").text == "a\nb\nc"


def test_processing_trims_whitespace(service: CaptureService) -> None:
    assert service.process_output("\n\n  text  \n\n\n").text == "text"


def _truncating(mode: TruncationMode, length: int = 8000, lines: int = 500) -> CaptureService:
    return CaptureService(
        OutputCaptureSettings(
            max_capture_length=length, max_capture_lines=lines, truncation_mode=mode
        )
    )


def test_keep_start_truncates_the_end() -> None:
    processed = _truncating(TruncationMode.KEEP_START, lines=10).process_output(numbered(100))
    assert processed.text.startswith("line 0\n")
    assert "line 99" not in processed.text
    assert processed.was_truncated


def test_keep_end_truncates_the_start() -> None:
    processed = _truncating(TruncationMode.KEEP_END, lines=10).process_output(numbered(100))
    assert processed.text.endswith("line 99")
    assert "line 0\n" not in processed.text


def test_keep_both_keeps_both_ends() -> None:
    processed = _truncating(TruncationMode.KEEP_BOTH, lines=10).process_output(numbered(100))
    assert processed.text.startswith("line 0\n")
    assert processed.text.endswith("line 99")
    assert "line 50" not in processed.text


def test_character_limit_is_applied() -> None:
    processed = _truncating(TruncationMode.KEEP_END, length=100).process_output("x" * 1000)
    indicator = processed.text.split("\n")[0]
    assert len(processed.text) - len(indicator) - 1 == 100
    assert processed.original_length == 1000


def test_line_limit_is_applied() -> None:
    processed = _truncating(TruncationMode.KEEP_END, lines=20).process_output(numbered(500))
    assert len(processed.text.split("\n")) == 21  # 20 lines and the indicator


def test_truncation_adds_an_indicator_saying_how_much_was_cut() -> None:
    processed = _truncating(TruncationMode.KEEP_END, lines=20).process_output(numbered(500))
    assert processed.text.split("\n")[0].startswith("…[truncated 480 lines / ")


def test_truncated_capture_is_marked_and_keeps_its_original_length(
    session: MemorySession,
) -> None:
    service = _truncating(TruncationMode.KEEP_END, lines=20)
    session.buffer = numbered(500)
    capture = service.capture_buffer(session)
    assert capture.is_truncated
    assert capture.original_length == len(numbered(500))
    assert "# (Output truncated from" in capture.to_context_string()


# ------------------------------------------------------------------------ history


def test_recent_captures_are_returned_newest_first(
    service: CaptureService, session: MemorySession
) -> None:
    for text in ("one", "two", "three"):
        service.capture_buffer(session, OutputCaptureMode.SELECTION, selection=text)
    assert [c.output for c in service.get_recent_captures("s1")] == ["three", "two", "one"]


def test_recent_captures_respect_the_count(service: CaptureService, session: MemorySession) -> None:
    for text in ("one", "two", "three"):
        service.capture_buffer(session, OutputCaptureMode.SELECTION, selection=text)
    assert [c.output for c in service.get_recent_captures("s1", 2)] == ["three", "two"]


def test_capture_is_found_by_id(service: CaptureService, session: MemorySession) -> None:
    capture = service.capture_buffer(session, OutputCaptureMode.SELECTION, selection="x")
    assert service.get_capture(capture.id) is capture
    assert service.get_capture("no-such-id") is None


def test_history_prunes_old_captures(session: MemorySession) -> None:
    service = CaptureService(OutputCaptureSettings(capture_history_size=2))
    first = service.capture_buffer(session, OutputCaptureMode.SELECTION, selection="1")
    service.capture_buffer(session, OutputCaptureMode.SELECTION, selection="2")
    service.capture_buffer(session, OutputCaptureMode.SELECTION, selection="3")
    assert [c.output for c in service.get_recent_captures("s1")] == ["3", "2"]
    assert service.get_capture(first.id) is None


def test_history_is_kept_per_session(service: CaptureService) -> None:
    a, b = MemorySession("a"), MemorySession("b")
    service.capture_buffer(a, OutputCaptureMode.SELECTION, selection="from a")
    service.capture_buffer(b, OutputCaptureMode.SELECTION, selection="from b")
    assert [c.output for c in service.get_recent_captures("a")] == ["from a"]
    assert [c.output for c in service.get_recent_captures("b")] == ["from b"]


# ------------------------------------------------------------------ configuration


def test_configure_updates_the_settings(service: CaptureService, session: MemorySession) -> None:
    settings = OutputCaptureSettings.for_ai_context()
    service.configure(settings)
    assert service.settings is settings
    session.buffer = numbered(300)
    capture = service.capture_buffer(session)
    assert capture.is_truncated
    assert capture.output.endswith("line 299")


def test_configure_prunes_history_to_the_new_size(
    service: CaptureService, session: MemorySession
) -> None:
    for i in range(5):
        service.capture_buffer(session, OutputCaptureMode.SELECTION, selection=str(i))
    service.configure(OutputCaptureSettings(capture_history_size=1))
    assert [c.output for c in service.get_recent_captures("s1")] == ["4"]


def test_settings_presets_have_the_seed_defaults() -> None:
    ai = OutputCaptureSettings.for_ai_context()
    assert (ai.max_capture_length, ai.max_capture_lines, ai.truncation_mode) == (
        4000,
        200,
        TruncationMode.KEEP_END,
    )
    assert (ai.strip_ansi_sequences, ai.normalize_line_endings, ai.capture_history_size) == (
        True,
        True,
        10,
    )
    full = OutputCaptureSettings.for_full_capture()
    assert (full.max_capture_length, full.max_capture_lines, full.truncation_mode) == (
        50_000,
        2000,
        TruncationMode.KEEP_BOTH,
    )
    assert full.capture_history_size == 50
    raw = OutputCaptureSettings.raw()
    assert not raw.strip_ansi_sequences
    assert not raw.normalize_line_endings
    assert not raw.redact_secrets
    assert raw.capture_history_size == 5


def test_raw_preset_keeps_the_bytes_as_written(session: MemorySession) -> None:
    service = CaptureService(OutputCaptureSettings.raw())
    session.buffer = "\x1b[31mred\x1b[0m\r\n"
    assert service.capture_buffer(session).output == "\x1b[31mred\x1b[0m"
    service.start_capture(session)
    service.on_output("s1", "\x1b[32mgreen\x1b[0m\r\n")
    capture = service.stop_capture("s1")
    assert capture is not None
    assert capture.output == "\x1b[32mgreen\x1b[0m"


# ------------------------------------------------------------- the seed's regex cases


def test_csi_sequences_are_removed(service: CaptureService) -> None:
    for raw in ("\x1b[31mred", "\x1b[1;34mred", "\x1b[0mred", "\x1b[2Jred", "\x1b[10;20Hred"):
        assert service.process_output(raw).text == "red", raw


def test_osc_sequences_are_removed(service: CaptureService) -> None:
    for raw in ("\x1b]0;Title\x07ok", "\x1b]7;file://path\x07ok", "\x1b]133;A\x07ok"):
        assert service.process_output(raw).text == "ok", raw
    assert service.process_output("\x1b]0;Title\x1b\\ok").text == "ok"


# ------------------------------------------------------------------- the AI context


def test_capture_renders_as_a_terminal_block_for_the_ai(
    service: CaptureService, session: MemorySession
) -> None:
    service.start_capture(session, "pytest -q")
    service.on_output("s1", b"\x1b[32m3 passed\x1b[0m\r\nTOKEN=abc123xyz\r\n")
    capture = service.stop_capture("s1", exit_code=0)
    assert capture is not None
    assert capture.to_context_string() == (
        "```terminal\n"
        "# Directory: /home/me/project\n"
        "$ pytest -q\n"
        f"3 passed\nTOKEN={marker('secret-assignment', 'abc123xyz')}\n"
        "# Exit code: 0\n"
        "# (1 secret(s) redacted)\n"
        "```\n"
    )
    assert capture.estimated_tokens == (len(capture.output) + len("pytest -q") + 50) // 4


def test_capture_round_trips_through_the_shared_converter(
    service: CaptureService, session: MemorySession
) -> None:
    from aintern_ls.models import converter

    capture = service.capture_buffer(session, OutputCaptureMode.SELECTION, selection="x")
    data = converter.unstructure(capture)
    assert data["captureMode"] == "selection"
    assert converter.structure(data, TerminalOutputCapture) == capture


def test_capture_is_fit_to_a_token_budget_for_the_ai() -> None:
    capture = TerminalOutputCapture(command="make", output=numbered(2000), exit_code=1)
    fitted = fit_capture(capture, max_tokens=200)
    assert fitted.estimated_tokens <= 200
    assert fitted.is_truncated
    assert fitted.original_length == len(capture.output)
    assert fitted.output.startswith("line 0\n")
    assert fitted.output.endswith("line 1999")
    assert fit_capture(capture, max_tokens=100_000) is capture
    by_characters = fit_capture(capture, max_characters=100, mode=TruncationMode.KEEP_END)
    assert by_characters.output.endswith("line 1999")
    assert len(by_characters.output) < 160
