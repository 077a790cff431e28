"""Issue 8's small truths: one table of shells, one serializer, one redaction setting,
danger fields set from the assessment, per-request capture limits."""

from __future__ import annotations

import attrs

from aintern_ls import shells
from aintern_ls.capture import CaptureService
from aintern_ls.config import load_settings
from aintern_ls.documents import DocumentStore
from aintern_ls.extraction.info import SESSION_LANGUAGES, SHELL_LANGUAGES
from aintern_ls.models import OutputCaptureMode, OutputCaptureSettings, to_json
from aintern_ls.safety import assess
from aintern_ls.safety.analyser import shell_family
from aintern_ls.terminal import integration, runner, session
from aintern_ls.terminal.runner import RunResult


def test_every_module_reads_the_one_table_of_shells() -> None:
    assert SHELL_LANGUAGES is shells.FENCE_LANGUAGES
    assert SESSION_LANGUAGES is shells.SESSION_LANGUAGES
    assert runner.SHELLS is shells.RUNNABLE_SHELLS
    assert session._SESSION_SHELLS is shells.RUNNABLE_SHELLS
    assert integration.INTEGRATED_SHELLS is shells.INTEGRATED_SHELLS
    for name, language in shells.LANGUAGES.items():
        assert shell_family(name) == language.family
    # every fence shell has a program, and every program a family
    for shell_type in shells.FENCE_LANGUAGES.values():
        assert any(p.shell_type is shell_type for p in shells.PROGRAMS.values())
    assert {"bash", "zsh"} <= set(shells.INTEGRATED_SHELLS)


def test_one_serializer_for_every_wire_shape() -> None:
    assessment = assess("rm -rf ./build; sudo ls", "bash")
    assert to_json(assessment) == assessment.to_json()
    assert to_json(assessment)["level"] == "critical"
    run = RunResult("echo", 0, None, "out", False, 3, 12, "/", False, False)
    assert to_json(run) == run.to_json()


def test_redact_secrets_is_one_setting_with_two_names() -> None:
    settings, problems = load_settings({"redactSecrets": False})
    assert settings.redact_secrets is False and settings.capture.redact_secrets is False
    assert problems == []
    settings, _ = load_settings({"capture": {"redactSecrets": False}})
    assert settings.redact_secrets is False and settings.capture.redact_secrets is False
    settings, problems = load_settings({"redactSecrets": False, "capture": {"redactSecrets": True}})
    assert settings.capture.redact_secrets is True and "disagree" in problems[0]
    settings, _ = load_settings({})
    assert settings.capture.redact_secrets is True


def test_danger_fields_come_from_the_assessment() -> None:
    store = DocumentStore()
    doc = store.update(
        "file:///tmp/a.md",
        "```bash\nls\n```\n\n```bash\nrm -rf ./build\n```\n\n```sh\nrm -rf /\n```\n",
    )
    flags = [(b.is_potentially_dangerous, b.danger_warning) for b in doc.blocks]
    assert flags[0] == (False, None)
    assert flags[1][0] is True and "rm" in (flags[1][1] or "")
    assert flags[2][0] is True
    assert doc.result.dangerous_command_count == 2
    assert "confidenceScore" not in to_json(doc.blocks[0])


@attrs.frozen
class _Session:
    session_id: str = "s"
    name: str | None = None
    cwd: str | None = None

    def buffer_text(self) -> str:
        return "x" * 5000


def test_per_request_capture_limits_leave_the_shared_service_alone() -> None:
    service = CaptureService(OutputCaptureSettings())
    before = service.settings
    narrow = attrs.evolve(before, max_capture_length=100)
    capture = service.capture_buffer(_Session(), OutputCaptureMode.FULL_BUFFER, settings=narrow)
    assert capture.is_truncated and len(capture.output) < 400
    assert service.settings is before
    wide = service.capture_buffer(_Session(), OutputCaptureMode.FULL_BUFFER)
    assert not wide.is_truncated and len(wide.output) == 5000
