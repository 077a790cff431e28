"""The block's working directory reaches the analyser through every entry point, and every
entry point asks the same gate (issue 14, safety-b)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aintern_ls.__main__ import main
from aintern_ls.config import Settings
from aintern_ls.documents import assess_block
from aintern_ls.models import CommandBlock
from aintern_ls.runs import assess_plan, decide_plan, plan_run
from aintern_ls.safety import RiskLevel, assess, gate


def test_relative_paths_are_judged_against_the_blocks_cwd() -> None:
    assert assess("rm -rf etc usr").level == RiskLevel.DANGEROUS
    assert assess("rm -rf etc usr", cwd="/").level == RiskLevel.BLOCKED
    assert assess("rm -rf build", cwd="/home/me/project").level == RiskLevel.DANGEROUS
    assert assess("rm -rf ../..", cwd="/home/me").level == RiskLevel.BLOCKED
    # `cd` inside the block moves on from the block's cwd.
    assert assess("cd usr && rm -rf lib", cwd="/").level == RiskLevel.BLOCKED


def test_a_fence_cwd_reaches_the_diagnostics_and_the_run_plan(tmp_path: Path) -> None:
    block = CommandBlock(id="b", command="rm -rf etc usr", options={"cwd": "/"})
    assert assess_block(block, None).level == RiskLevel.BLOCKED
    plan = plan_run(block, document_dir=str(tmp_path), settings=Settings())
    assert assess_plan(plan, None).level == RiskLevel.BLOCKED
    decision = decide_plan(plan, None, gate.Confirmation.CONFIRMED)
    assert decision.verdict is gate.Verdict.REFUSE
    assert "/etc" in decision.reason or "/usr" in decision.reason
    # The confirmation text shows where the command runs.
    assert "cwd: /" in plan.describe()


def test_a_relative_fence_cwd_is_resolved_by_the_run_plan(tmp_path: Path) -> None:
    block = CommandBlock(id="b", command="rm -rf ../../../../../../../../*", options={})
    plan = plan_run(block, document_dir=str(tmp_path), settings=Settings())
    assert assess_plan(plan, None).level == RiskLevel.BLOCKED
    scoped = CommandBlock(id="c", command="rm -rf build", options={"cwd": "app"})
    plan = plan_run(scoped, document_dir=str(tmp_path), settings=Settings())
    assert assess_plan(plan, None).level == RiskLevel.DANGEROUS
    assert str(tmp_path) in plan.describe()


def test_check_cli_uses_the_gate_with_the_fence_env_and_cwd(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text(
        "Build:\n\n```bash env=LD_PRELOAD=/tmp/hook.so\nmake build\n```\n\n"
        "Clean:\n\n```bash cwd=/\nrm -rf etc usr\n```\n",
        encoding="utf-8",
    )
    assert main(["check", "--json", str(doc)]) == 1
    report = json.loads(capsys.readouterr().out)
    levels = [b["level"] for b in report["blocks"]]
    rules = [{f["rule"] for f in b["findings"]} for b in report["blocks"]]
    assert levels == ["critical", "blocked"], report
    assert "dangerous-env" in rules[0]


def test_assess_cli_answers_like_the_gate(capsys: pytest.CaptureFixture[str]) -> None:
    word = "A" * (gate.MAX_ANALYSED_WORD + 1)
    assert main(["assess", f"echo {word}"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == gate.check(f"echo {word}").to_json()
    assert data["level"] == "critical"
