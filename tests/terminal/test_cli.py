"""`aintern-ls run FILE --block N`: block selection, cwd/timeout from fence attributes,
exit status, JSON output and the safety gate."""

from __future__ import annotations

import enum
import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest

import aintern_ls.safety
from aintern_ls.__main__ import main
from aintern_ls.terminal.cli import parse_duration

RUNBOOK = """# Runbook

Say one.

```bash
echo one
```

Fail on purpose.

```bash
echo failing; exit 3
```

```sh {"cwd":"sub","timeout":"30s"}
pwd -P
```
"""


@pytest.fixture
def runbook(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    path = tmp_path / "RUNBOOK.md"
    path.write_text(RUNBOOK, encoding="utf-8")
    return path


def test_run_prints_the_output_and_exits_with_the_commands_code(
    runbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(runbook), "--block", "1"]) == 0
    assert capsys.readouterr().out.strip() == "one"
    assert main(["run", str(runbook), "--block", "2"]) == 3
    assert "failing" in capsys.readouterr().out


def test_run_json_reports_the_result(runbook: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(runbook), "--block", "2", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["exitCode"] == 3
    assert data["output"].strip() == "failing"
    assert data["timedOut"] is False and data["cancelled"] is False
    assert data["cwd"] == os.path.realpath(runbook.parent)
    assert isinstance(data["durationMs"], int)


def test_block_cwd_attribute_resolves_against_the_file(
    runbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(runbook), "--block", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["output"].strip() == os.path.realpath(runbook.parent / "sub")


def test_unknown_block_says_how_many_exist(
    runbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(runbook), "--block", "9"]) == 2
    assert "has 3 block(s)" in capsys.readouterr().err


def test_timeout_exits_124(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "slow.md"
    path.write_text("```bash\nsleep 300\n```\n", encoding="utf-8")
    assert main(["run", str(path), "--block", "1", "--timeout", "1"]) == 124
    assert "timed out" in capsys.readouterr().err


def test_timeout_below_one_second_is_refused(
    runbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(runbook), "--block", "1", "--timeout", "0.2"]) == 2
    assert "at least 1 second" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "seconds"), [("30s", 30.0), ("2m", 120.0), ("500ms", 0.5), (45, 45.0), (None, None)]
)
def test_runme_durations(text: object, seconds: float | None) -> None:
    assert parse_duration(text) == seconds


# -- the safety gate, against the analyser's published API ----------------------------


class FakeLevel(enum.IntEnum):
    SAFE = 0
    MODERATE = 1
    DANGEROUS = 2
    CRITICAL = 3
    BLOCKED = 4


@attrs.frozen
class FakeFinding:
    rule: str
    reason: str


@attrs.frozen
class FakeAssessment:
    level: FakeLevel
    findings: list[FakeFinding]


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    verdict: dict[str, Any] = {"level": FakeLevel.SAFE}

    def assess(command: str, shell: str, *_: object, **__: object) -> FakeAssessment:
        level = verdict["level"]
        findings = [] if level == FakeLevel.SAFE else [FakeFinding("test-rule", "test reason")]
        return FakeAssessment(level, findings)

    monkeypatch.setattr(aintern_ls.safety, "assess", assess, raising=False)
    monkeypatch.setattr(aintern_ls.safety, "RiskLevel", FakeLevel, raising=False)
    return verdict


def test_blocked_block_never_runs(
    runbook: Path, gate: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    gate["level"] = FakeLevel.BLOCKED
    assert main(["run", str(runbook), "--block", "1", "--yes"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "test-rule" in captured.err and "blocked" in captured.err


def test_dangerous_block_needs_yes(
    runbook: Path, gate: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    gate["level"] = FakeLevel.DANGEROUS
    assert main(["run", str(runbook), "--block", "1"]) == 2
    captured = capsys.readouterr()
    assert "--yes" in captured.err and captured.out == ""
    assert main(["run", str(runbook), "--block", "1", "--yes"]) == 0
    assert capsys.readouterr().out.strip() == "one"


# -- the real analyser ---------------------------------------------------------------


def test_a_blocked_block_is_refused_by_the_real_analyser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wipe.md"
    # `false &&` keeps this harmless even if the gate ever failed open.
    path.write_text("```bash\nfalse && mkfs.ext4 /dev/aintern-no-such-disk\n```\n")
    assert main(["run", str(path), "--block", "1", "--yes"]) == 2
    captured = capsys.readouterr()
    assert "mkfs" in captured.err and "blocked" in captured.err
    assert captured.out == ""


def test_a_dangerous_block_runs_only_with_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim"
    (victim / "inner").mkdir(parents=True)
    path = tmp_path / "clean.md"
    path.write_text("```bash\nrm -rf ./victim\n```\n")
    assert main(["run", str(path), "--block", "1"]) == 2
    assert "--yes" in capsys.readouterr().err
    assert victim.exists()
    assert main(["run", str(path), "--block", "1", "--yes"]) == 0
    assert not victim.exists()


def test_block_can_be_chosen_by_id(runbook: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from aintern_ls.extraction import extract_file

    block_id = extract_file(runbook).commands[1].id
    assert main(["run", str(runbook), "--block", block_id]) == 3


def test_run_through_the_real_entry_point(runbook: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(runbook), "--block", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    assert json.loads(done.stdout)["exitCode"] == 3


PROMPTS = """```bash
read -p "name? " n; echo "hi $n"
```

```bash
read -s -p "Password: " p; echo; echo "length=${#p}"
```
"""


def _cli(path: Path, block: str) -> list[str]:
    import sys

    return [sys.executable, "-m", "aintern_ls", "run", str(path), "--block", block]


def test_a_prompt_without_a_terminal_is_stopped_and_named(tmp_path: Path) -> None:
    import subprocess
    import time

    path = tmp_path / "prompts.md"
    path.write_text(PROMPTS, encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run(
        [*_cli(path, "1"), "--timeout", "60"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - started < 40  # long before the 60 s timeout
    assert done.returncode == 130
    assert "waited for input at 'name?'" in done.stderr


@pytest.mark.parametrize(
    ("block", "answer", "expected", "shown"),
    [("1", "Ada Lovelace", "hi Ada Lovelace", 2), ("2", "hunter2", "length=7", 0)],
)
def test_a_prompt_at_a_terminal_is_answered_from_it(
    tmp_path: Path, block: str, answer: str, expected: str, shown: int
) -> None:
    import time

    from ptyprocess import PtyProcess

    path = tmp_path / "prompts.md"
    path.write_text(PROMPTS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    proc = PtyProcess.spawn([*_cli(path, block), "--timeout", "60"], env=env)
    try:
        output = b""
        deadline = time.monotonic() + 30
        while b"? " not in output and b": " not in output and time.monotonic() < deadline:
            output += proc.read(1024)
        # The CLI turns its terminal's echo off in a thread of its own; typed before
        # that, the answer is echoed by the terminal too (shown once more). Under load
        # that thread can start late, so wait until the echo is off (on Linux the
        # master side reads the pair's settings), then let the run be seen waiting.
        import termios

        while termios.tcgetattr(proc.fd)[3] & termios.ECHO and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)
        proc.write(answer.encode() + b"\r")
        while time.monotonic() < deadline:
            try:
                output += proc.read(1024)
            except EOFError:
                break
        proc.wait()
        text = output.decode("utf-8", "replace")
        assert expected in text, text
        # typed with our terminal's echo off: only the command's own echo shows it
        assert text.count(answer) == shown, text
        assert proc.exitstatus == 0, text
    finally:
        if proc.isalive():
            proc.terminate(force=True)
