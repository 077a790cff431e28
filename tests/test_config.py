"""Client settings: camelCase in, defaults plus a message for anything bad."""

from __future__ import annotations

from aintern_ls.config import load_settings
from aintern_ls.models import TruncationMode


def test_settings_are_read_from_camel_case_under_aintern() -> None:
    settings, problems = load_settings(
        {
            "aintern": {
                "timeoutSeconds": 30,
                "allowedDirectories": ["/srv"],
                "safety": {"extraBlocked": ["terraform destroy"], "trusted": ["make "]},
                "capture": {"maxCaptureLength": 1000, "truncationMode": "keepBoth"},
            }
        }
    )
    assert problems == []
    assert settings.timeout_seconds == 30
    assert settings.allowed_directories == ["/srv"]
    assert settings.safety.extra_blocked == ["terraform destroy"]
    assert settings.capture.truncation_mode is TruncationMode.KEEP_BOTH


def test_bad_values_fall_back_to_defaults_with_a_message() -> None:
    settings, problems = load_settings(
        {"timeoutSeconds": "soon", "allowedDirectories": "/srv", "colour": "blue"}
    )
    assert settings.timeout_seconds == 120
    assert settings.allowed_directories == []
    assert any("aintern.timeoutSeconds" in p for p in problems)
    assert any("aintern.allowedDirectories" in p for p in problems)
    assert any("unknown setting aintern.colour" in p for p in problems)


def test_out_of_range_timeout_is_reset() -> None:
    settings, problems = load_settings({"timeoutSeconds": 9999})
    assert settings.timeout_seconds == 120
    assert "between 1 and 600" in problems[0]


def test_non_object_settings_give_defaults() -> None:
    settings, problems = load_settings(["nope"])
    assert settings.max_output_characters == 100_000
    assert problems
