"""Settings files of `aintern-ls mcp` and the tools' argument checks (no server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.mcp.schemas import BY_NAME, check_arguments
from aintern_ls.mcp.settings import load_mcp_settings


def _write(path: Path, data: object) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return str(path)


def test_no_files_means_defaults(tmp_path: Path) -> None:
    config = load_mcp_settings(tmp_path, None)
    assert config.confirmation == "elicitation"
    assert config.settings.timeout_seconds == 120
    assert config.problems == []


def test_workspace_adds_rules_but_cannot_loosen(tmp_path: Path) -> None:
    user = _write(
        tmp_path / "user.json",
        {
            "aintern": {
                "timeoutSeconds": 30,
                "allowedDirectories": ["/srv"],
                "safety": {"extraBlocked": ["^kubectl delete"]},
                "mcp": {"confirmation": "client"},
            }
        },
    )
    _write(
        tmp_path / "ws" / ".aintern.json",
        {
            "timeoutSeconds": 60,
            "allowedDirectories": ["/"],
            "safety": {"extraBlocked": ["^terraform destroy"], "trusted": ["make test"]},
            "mcp": {"confirmation": "elicitation"},
        },
    )
    config = load_mcp_settings(tmp_path / "ws", user)
    s = config.settings
    assert s.timeout_seconds == 60  # ordinary settings: the workspace wins
    assert s.allowed_directories == ["/srv"]  # the user's bound stands
    assert s.safety.extra_blocked == ["^kubectl delete", "^terraform destroy"]
    assert s.safety.trusted == ["make test"]
    assert config.confirmation == "client"  # only the user file sets it
    assert len(config.sources) == 2


def test_bad_values_fall_back_with_a_message(tmp_path: Path) -> None:
    user = _write(tmp_path / "u.json", {"timeoutSeconds": 9000, "mcp": {"confirmation": "yolo"}})
    config = load_mcp_settings(tmp_path, user)
    assert config.settings.timeout_seconds == 120
    assert config.confirmation == "elicitation"
    assert any("timeoutSeconds" in p for p in config.problems)
    assert any("mcp.confirmation" in p for p in config.problems)


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / ".aintern.json").write_text("{not json")
    with pytest.raises(AInternError, match="not valid JSON"):
        load_mcp_settings(tmp_path, None)
    with pytest.raises(AInternError, match="does not exist"):
        load_mcp_settings(tmp_path / "x", str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("run_command", {"command": True}, "'command' must be a string, got a boolean"),
        ("run_command", {"command": "ls", "timeoutSeconds": 0}, "at least 1"),
        ("run_command", {"command": "ls", "env": {"A": 1}}, "env.A must be a string"),
        ("read_capture", {"captureId": "x", "offset": 1.5}, "whole number"),
        ("read_capture", {}, "missing required field 'captureId'"),
        ("terminal_list", {"x": 1}, "unknown field 'x' (fields: none)"),
        ("check_command", {"command": ""}, "'command' must not be empty"),
    ],
)
def test_argument_checks(tool: str, args: dict[str, object], message: str) -> None:
    with pytest.raises(AInternError) as info:
        check_arguments(BY_NAME[tool], args)
    assert message in str(info.value)


def test_good_arguments_pass_and_nulls_are_absent() -> None:
    spec = BY_NAME["run_command"]
    args = check_arguments(spec, {"command": "ls", "cwd": None, "timeoutSeconds": 5})
    assert args == {"command": "ls", "timeoutSeconds": 5}
    assert spec.input_schema["additionalProperties"] is False
