"""`aintern-ls blocks FILE [--json]`."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from aintern_ls.extraction import cli

DATA = Path(__file__).parent / "data"
REQUIRED = {
    "id", "messageId", "sequenceNumber", "role", "language", "shellType", "command",
    "description", "startLine", "endLine", "options",
}  # fmt: skip


def run_blocks(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="aintern-ls")
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["blocks", *argv])
    return int(args.func(args))


def test_json_output_has_commands_and_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_blocks(str(DATA / "runbook_deploy.md"), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"commands", "warnings"}
    assert len(out["commands"]) == 11
    for command in out["commands"]:
        assert set(command) >= REQUIRED
    first = out["commands"][0]
    assert first["command"] == "kubectl config current-context"
    assert (first["startLine"], first["endLine"]) == (13, 15)
    assert first["shellType"] == "sh"
    assert first["options"] == {"name": "context", "timeout": "10s"}


def test_json_output_carries_warning_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "broken.md"
    doc.write_text('```execute\n{"command": "ls",}\n```\n', encoding="utf-8")
    assert run_blocks(str(doc), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["commands"] == []
    [warning] = out["warnings"]
    assert (warning["line"], warning["character"]) == (1, 17)


def test_listing_shows_index_id_line_language_role_and_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_blocks(str(DATA / "codecompanion.md")) == 0
    out = capsys.readouterr().out
    assert "7 command blocks" in out
    assert "  1  blk-" in out
    assert "L12-14" in out
    assert "assistant" in out
    assert "lsof -i :8000 -sTCP:LISTEN" in out
    assert "First find out which process it is:" in out


def test_cli_entry_point_end_to_end(tmp_path: Path) -> None:
    doc = tmp_path / "r.md"
    doc.write_text("Hi:\n\n```bash\necho hi\n```\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "blocks", str(doc), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [block] = json.loads(done.stdout)["commands"]
    assert block["command"] == "echo hi"
    assert block["description"] == "Hi:"


def test_cli_errors_are_one_line_messages(tmp_path: Path) -> None:
    binary = tmp_path / "b.md"
    binary.write_bytes(b"\x00\x01\x02")
    for target in (binary, tmp_path / "missing.md"):
        done = subprocess.run(
            [sys.executable, "-m", "aintern_ls", "blocks", str(target)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith("aintern-ls: error:")
