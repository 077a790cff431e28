"""The SQLite history: runs and decisions, private file, versioned schema."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.history import SCHEMA_VERSION, STORED_OUTPUT_CHARACTERS, History


def test_runs_are_listed_newest_first_and_filtered_by_document(tmp_path: Path) -> None:
    h = History(tmp_path / "h.db")
    h.record_run(command="ls", status="executed", document_uri="file:///a.md", exit_code=0)
    h.record_run(command="false", status="failed", document_uri="file:///a.md", exit_code=1)
    h.record_run(command="pwd", status="executed", document_uri="file:///b.md", exit_code=0)
    assert [r["command"] for r in h.runs()] == ["pwd", "false", "ls"]
    runs = h.runs("file:///a.md")
    assert [r["command"] for r in runs] == ["false", "ls"]
    assert runs[0]["exitCode"] == 1 and runs[0]["documentUri"] == "file:///a.md"
    assert [r["command"] for r in h.runs(limit=1)] == ["pwd"]


def test_database_file_is_private(tmp_path: Path) -> None:
    h = History(tmp_path / "sub" / "h.db")
    h.record_run(command="ls", status="executed")
    assert stat.S_IMODE((tmp_path / "sub" / "h.db").stat().st_mode) == 0o600


def test_output_is_stored_truncated(tmp_path: Path) -> None:
    h = History(tmp_path / "h.db")
    h.record_run(command="seq", status="executed", output="x\n" * 100_000)
    stored = h.runs()[0]["output"]
    assert len(stored) < STORED_OUTPUT_CHARACTERS + 200
    assert "truncated" in stored


def test_decisions_are_recorded(tmp_path: Path) -> None:
    h = History(tmp_path / "h.db")
    h.record_decision(command="rm -rf /", level="blocked", rules=["rm-root"], decision="blocked")
    h.record_decision(
        command="git push -f", level="dangerous", rules=["git-force"], decision="asked"
    )
    assert [d["decision"] for d in h.decisions()] == ["asked", "blocked"]
    assert h.decisions()[1]["rules"] == "rm-root"


def test_schema_is_versioned_and_reopening_does_not_migrate_twice(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    History(path).record_run(command="ls", status="executed")
    again = History(path)
    assert again.schema_version == SCHEMA_VERSION
    assert len(again.runs()) == 1


def test_newer_schema_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(AInternError, match="historyPath"):
        History(path).runs()


def test_unwritable_location_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(AInternError, match="cannot open the history database"):
        History(blocker / "h.db").record_run(command="ls", status="executed")


def test_a_symlinked_history_path_is_refused_and_its_target_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("")
    link = tmp_path / "h.db"
    link.symlink_to(target)
    with pytest.raises(AInternError, match="symbolic link"):
        History(link).record_run(command="ls", status="executed")
    assert target.read_bytes() == b""


def test_an_existing_file_that_is_not_a_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    path.write_text("my precious notes\n")
    with pytest.raises(AInternError, match="not an aintern-ls database"):
        History(path).record_decision(command="ls", level="safe", rules=[], decision="asked")
    assert path.read_text() == "my precious notes\n"


def test_a_started_run_has_a_row_before_it_ends(tmp_path: Path) -> None:
    from aintern_ls.models import CommandBlockStatus, CommandResult

    h = History(tmp_path / "h.db")
    row = h.record_started(command="sleep 30", document_uri="file:///a.md", block_id="b")
    (started,) = h.runs()
    assert started["status"] == "executing" and started["exitCode"] is None
    result = CommandResult(
        block_id="b", command="sleep 30", status=CommandBlockStatus.FAILED, exit_code=3, output="x"
    )
    h.finish_run(row, result)
    (finished,) = h.runs()
    assert (finished["status"], finished["exitCode"], finished["output"]) == ("failed", 3, "x")
