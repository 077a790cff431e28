"""Settings from the client (`initializationOptions`, `workspace/didChangeConfiguration`).

Settings live under the `aintern` key in camelCase. A bad value never stops the
server: that one setting falls back to its default and the user gets a message
naming the setting and what was wrong with it.
"""

from __future__ import annotations

from typing import Any

import attrs
import cattrs

from aintern_ls.models import OutputCaptureSettings, converter

MAX_TIMEOUT_SECONDS = 600.0
DEFAULT_TIMEOUT_SECONDS = 120.0


@attrs.define
class SafetySettings:
    """User additions to the safety rules (see `aintern_ls.safety.SafetyRules`)."""

    extra_blocked: list[str] = attrs.field(factory=list)
    extra_dangerous: list[str] = attrs.field(factory=list)
    trusted: list[str] = attrs.field(factory=list)


_LEVELS = ("moderate", "dangerous", "critical", "blocked")


def _level(instance: object, attribute: object, value: str) -> None:
    if value not in _LEVELS:
        raise ValueError(f"must be one of {', '.join(_LEVELS)}")


@attrs.define
class DiagnosticsSettings:
    minimum_level: str = attrs.field(default="moderate", validator=_level)
    """Findings below this level get no diagnostic (moderate ones are hints)."""


@attrs.define
class Settings:
    shell: str | None = None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    max_output_characters: int = 100_000
    capture: OutputCaptureSettings = attrs.field(factory=OutputCaptureSettings)
    allowed_directories: list[str] = attrs.field(factory=list)
    safety: SafetySettings = attrs.field(factory=SafetySettings)
    redact_secrets: bool = True
    """Same setting as `capture.redact_secrets` (either name; see `load_settings`)."""
    history_path: str | None = None
    diagnostics: DiagnosticsSettings = attrs.field(factory=DiagnosticsSettings)


def _check(settings: Settings) -> list[str]:
    """Range checks cattrs cannot express; fixes the value and says what it did."""
    problems: list[str] = []
    if not 1 <= settings.timeout_seconds <= MAX_TIMEOUT_SECONDS:
        problems.append(
            f"aintern.timeoutSeconds must be between 1 and {MAX_TIMEOUT_SECONDS:g}; "
            f"got {settings.timeout_seconds:g}, using {DEFAULT_TIMEOUT_SECONDS:g}"
        )
        settings.timeout_seconds = DEFAULT_TIMEOUT_SECONDS
    if settings.max_output_characters < 100:
        problems.append(
            "aintern.maxOutputCharacters must be at least 100; "
            f"got {settings.max_output_characters}, using 100000"
        )
        settings.max_output_characters = 100_000
    return problems


def load_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Structure client settings; return them with messages about ignored values.

    Accepts either the `aintern` object itself or a dict that contains it.
    """
    problems: list[str] = []
    if isinstance(raw, dict) and isinstance(raw.get("aintern"), dict):
        raw = raw["aintern"]
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return Settings(), [f"aintern settings must be an object, got {type(raw).__name__}"]

    defaults = converter.unstructure(Settings())
    accepted: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in defaults:
            problems.append(f"unknown setting aintern.{key} ignored")
            continue
        trial = dict(defaults, **{key: value})
        try:
            converter.structure(trial, Settings)
        except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
            problems.append(
                f"aintern.{key}: invalid value {value!r} ({_reason(exc)}); using default"
            )
            continue
        accepted[key] = value
    settings = converter.structure(dict(defaults, **accepted), Settings)
    problems += _one_redaction_setting(settings, accepted)
    return settings, problems + _check(settings)


def _one_redaction_setting(settings: Settings, accepted: dict[str, Any]) -> list[str]:
    """`redactSecrets` and `capture.redactSecrets` are one setting: either name works.

    When both are given and disagree, secrets are redacted (the safe choice) and the
    user is told.
    """
    top = accepted.get("redactSecrets")
    capture = accepted.get("capture")
    nested = capture.get("redactSecrets") if isinstance(capture, dict) else None
    given = [v for v in (top, nested) if isinstance(v, bool)]
    problems: list[str] = []
    if not given:
        value = True
    elif len(given) == 2 and given[0] != given[1]:
        value = True
        problems.append(
            "aintern.redactSecrets and aintern.capture.redactSecrets disagree; secrets are redacted"
        )
    else:
        value = given[0]
    settings.redact_secrets = value
    settings.capture.redact_secrets = value
    return problems


def _reason(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc)) or str(exc)
    return str(exc)
