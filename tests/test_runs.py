"""The run plan: fence attributes read once, one cwd resolution, validation before fork."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aintern_ls.config import Settings
from aintern_ls.errors import AInternError
from aintern_ls.models import CommandBlock, ShellType
from aintern_ls.runs import (
    BlockOptions,
    RunOverrides,
    plan_run,
    resolve_against,
    validate_request,
)
from aintern_ls.terminal.runner import RunRequest


def test_block_options_are_typed_and_unknown_keys_kept() -> None:
    options = BlockOptions.parse(
        {
            "name": "build",
            "cwd": "app",
            "timeout": "2m",
            "env": "A=1 B=two",
            "interactive": "false",
            "background": True,
            "excludeFromRunAll": "yes",
            "promptEnv": "no",
            "mimeType": "text/plain",
            "shell": "bash",
        }
    )
    assert options.name == "build" and options.cwd == "app"
    assert options.timeout_seconds == 120.0
    assert dict(options.env) == {"A": "1", "B": "two"}
    assert options.interactive is False and options.background is True
    assert options.exclude_from_run_all is True and options.prompt_env is False
    assert dict(options.unknown) == {"mimeType": "text/plain"}
    assert options.problems == ()


def test_unreadable_attribute_is_a_problem_and_the_plan_refuses() -> None:
    options = BlockOptions.parse({"timeout": "soon"})
    assert options.timeout_seconds is None
    assert options.problems and "timeout" in options.problems[0]
    block = CommandBlock(id="b", command="echo", options={"timeout": "soon"})
    with pytest.raises(AInternError, match="cannot read timeout"):
        plan_run(block, document_dir="/tmp", settings=Settings())


def test_plan_order_caller_then_fence_then_settings(tmp_path: Path) -> None:
    block = CommandBlock(
        id="b",
        command="ls",
        shell_type=ShellType.ZSH,
        options={"cwd": "app", "timeout": "30s", "env": {"A": "fence", "B": "fence"}},
    )
    settings = Settings(timeout_seconds=99)
    plan = plan_run(block, document_dir=str(tmp_path), settings=settings)
    assert plan.request.cwd == os.path.join(str(tmp_path), "app")
    assert plan.request.timeout_seconds == 30
    assert plan.request.shell == "zsh"
    over = RunOverrides(cwd="/elsewhere", timeout_seconds=5, env={"B": "caller"})
    plan = plan_run(block, document_dir=str(tmp_path), settings=settings, overrides=over)
    assert plan.request.cwd == "/elsewhere"
    assert plan.request.timeout_seconds == 5
    assert plan.request.env == {"A": "fence", "B": "caller"}
    bare = CommandBlock(id="c", command="ls")
    plan = plan_run(bare, document_dir=None, settings=settings)
    assert plan.request.timeout_seconds == 99 and plan.request.cwd is None
    assert plan.request.shell == "bash"


def test_shown_changes_with_anything_a_confirmation_shows(tmp_path: Path) -> None:
    def shown(**kw: object) -> object:
        block = CommandBlock(id="b", command=str(kw.pop("command", "rm x")), options=dict(kw))
        return plan_run(block, document_dir=str(tmp_path), settings=Settings()).shown

    base = shown()
    assert shown() == base
    assert shown(command="rm x ") != base
    assert shown(cwd="other") != base
    assert shown(env={"A": "1"}) != base
    assert shown(timeout="5s") != base


def test_resolve_against() -> None:
    assert resolve_against(None, "/doc") == "/doc"
    assert resolve_against("sub", "/doc") == "/doc/sub"
    assert resolve_against("/abs", "/doc") == "/abs"
    assert resolve_against("~/x", "/doc") == os.path.expanduser("~/x")


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (RunRequest(command="echo a\x00b"), "NUL"),
        (RunRequest(command="echo", cwd="/tmp\x00x"), "NUL"),
        (RunRequest(command="echo", env={"A=B": "1"}), "no '='"),
        (RunRequest(command="echo", env={"": "1"}), "non-empty"),
        (RunRequest(command="echo", env={"A": "x\x00"}), "NUL"),
        (RunRequest(command="echo \udc80"), "surrogate"),
        (RunRequest(command="echo", env={"A": "\ud800"}), "surrogate"),
    ],
)
def test_validation_before_any_fork(request_: RunRequest, message: str) -> None:
    with pytest.raises(AInternError, match=message):
        validate_request(request_)


def test_a_command_without_a_block_gets_the_same_plan_and_gate(tmp_path: Path) -> None:
    from aintern_ls.runs import decide_plan, plan_command
    from aintern_ls.safety import gate

    settings = Settings(timeout_seconds=42, allowed_directories=[str(tmp_path)])
    plan = plan_command("rm -f x", settings=settings, cwd="sub", cwd_base=str(tmp_path))
    assert plan.request.cwd == os.path.join(str(tmp_path), "sub")
    assert plan.request.timeout_seconds == 42 and plan.request.shell == "bash"
    assert plan.request.allowed_directories == [str(tmp_path)]
    decision = decide_plan(plan, None, gate.Confirmation.NONE)
    assert decision.verdict is gate.Verdict.REFUSE and decision.needs_confirmation
    env_plan = plan_command("echo", settings=settings, env={"LD_PRELOAD": "x"})
    assert decide_plan(env_plan, None, gate.Confirmation.CAN_ASK).verdict is gate.Verdict.ASK
