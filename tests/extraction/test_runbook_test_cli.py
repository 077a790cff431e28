"""`aintern-ls test FILE...`: console fences run in real PTYs and their output is
compared with what the document says (a drifted document fails with a diff)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from aintern_ls.runbook.checks import diff, matches

DATA = Path(__file__).parent / "data"
CLI = [sys.executable, "-m", "aintern_ls", "test"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def test_matching_ignores_trailing_whitespace_and_blank_ends() -> None:
    assert matches("a\nb", "a  \nb\t\n\n")
    assert matches("\na\n", "a")
    assert not matches("a\nb", "a\nc")
    assert not matches("a", "a\nb")


def test_ellipsis_line_stands_for_any_number_of_lines() -> None:
    assert matches("start\n...\nend", "start\nend")
    assert matches("start\n...\nend", "start\n1\n2\n3\nend")
    assert matches("...", "anything\nat all")
    assert not matches("start\n...\nend", "start\n1\nnot the end")
    assert diff("a\n...\nz", "a\nb\nz") == ""
    assert "+c" in diff("a\nb", "a\nc") and "-b" in diff("a\nb", "a\nc")


def test_a_document_whose_console_fences_hold_passes() -> None:
    done = _run(str(DATA / "console_checks.md"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("✓") == 3
    assert "3 passed, 0 failed" in done.stderr


def test_a_drifted_document_fails_with_a_diff_per_fence() -> None:
    done = _run(str(DATA / "console_checks_drifted.md"), "--json")
    assert done.returncode == 1
    results = json.loads(done.stdout)
    assert [r["outcome"] for r in results] == ["fail", "fail", "pass"]
    assert "-5" in results[0]["detail"] and "+4" in results[0]["detail"]
    assert "-apples" in results[1]["detail"] and "+apple" in results[1]["detail"]
    assert results[0]["line"] == 8  # the opening fence, 1-based


def test_dangerous_fences_are_refused_without_yes_and_blocked_never_run(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    doc = tmp_path / "doc.md"
    doc.write_text(
        "```console\n$ rm -r victim && echo removed\nremoved\n```\n\n"
        "```console\n$ rm -rf / && echo gone\ngone\n```\n"
    )
    done = _run(str(doc), "--json")
    assert done.returncode == 1
    first, second = json.loads(done.stdout)
    assert first["outcome"] == "refused" and "--yes" in first["detail"]
    assert second["outcome"] == "refused" and "blocked" in second["detail"]
    assert victim.exists()
    done = _run(str(doc), "--json", "--yes")
    first, second = json.loads(done.stdout)
    assert first["outcome"] == "pass"
    assert second["outcome"] == "refused"
    assert not victim.exists()


def test_missing_file_is_a_usage_error() -> None:
    done = _run("/nonexistent/doc.md")
    assert done.returncode == 2
    assert "no such file" in done.stderr


def test_text_output_names_the_fence_line() -> None:
    done = _run(str(DATA / "console_checks_drifted.md"))
    assert "console_checks_drifted.md:8" in done.stdout
    assert "output differs" in done.stdout


def test_a_fence_waiting_on_a_prompt_is_stopped_and_reported(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(
        '```console\n$ read -p "continue? [y/N] " a; echo "got $a"\ngot y\n```\n\n'
        "```console\n$ echo fine\nfine\n```\n"
    )
    # stopped at the prompt: with the bug back it would be a "timeout" after 60 s
    done = _run(str(doc), "--json", "--timeout", "60")
    assert done.returncode == 1
    first, second = json.loads(done.stdout)
    assert first["outcome"] == "waiting"
    assert "continue? [y/N]" in first["detail"] and "printf" in first["detail"]
    assert second["outcome"] == "pass"
    done = _run(str(doc))
    assert "waited for input" in done.stdout and "1 passed, 0 failed, 1 not run" in done.stderr
