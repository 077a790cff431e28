"""detections.judge is a table of (programs, family): a family runs only for the programs it
can apply to, in the table's order (safety-debt8)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from aintern_ls.safety import analyser, assess, detections
from tests.safety._levels import C


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """Every family call as (program, family name), the families still deciding."""
    seen: list[tuple[str, str]] = []

    def spy(family: detections.Family) -> detections.Family:
        def run(cmd):  # type: ignore[no-untyped-def]
            seen.append((cmd.name, family.__name__))
            return family(cmd)

        return run

    table = tuple((programs, spy(f)) for programs, f in detections.FAMILIES)
    monkeypatch.setattr(detections, "FAMILIES", table)
    detections._families.cache_clear()
    analyser.cache_clear()
    yield seen
    monkeypatch.undo()
    detections._families.cache_clear()
    analyser.cache_clear()


def test_no_family_runs_for_a_program_none_can_apply_to(calls: list[tuple[str, str]]) -> None:
    for command, shell in [
        ("ls -la /var/log", "bash"),
        ("git status && make -j4 test", "bash"),
        ("Get-ChildItem C:\\Users | Select-Object Name", "powershell"),
        ("dir /s C:\\temp", "cmd"),
        ("rm -rf build", "bash"),
    ]:
        assess(command, shell)
    assert calls == []


def test_families_run_in_table_order_and_the_first_finding_decides(
    calls: list[tuple[str, str]],
) -> None:
    got = assess("wmic service where \"caption like '%sophos%'\" call stopservice", "cmd")
    assert got.level == C
    # wmic is in the stop-security and the log-tampering rows: the first one found it
    assert [f for _, f in calls] == ["_stopped"]
    calls.clear()
    assess("wmic nteventlog where filename='security' call cleareventlog", "cmd")
    assert [f for _, f in calls] == ["_stopped", "_log_tampering"]


def test_every_family_declares_its_programs() -> None:
    # the families use the speed engineer's `registry.Programs` (one spelling of a program)
    from aintern_ls.safety.registry import Programs, program_key

    for programs, family in detections.FAMILIES:
        assert isinstance(programs, Programs), family.__name__
    assert detections._families(program_key("Taskkill.EXE")) == (detections.FAMILIES[0][1],)
    assert detections._families(program_key("ls")) == ()


@pytest.mark.parametrize(
    ("command", "shell", "rule"),
    [
        ("pkill -9 falcond", "bash", "disable-security"),
        ("kesl-control --stop-t 1", "bash", "disable-security"),
        ("dmesg -C", "bash", "clear-logs"),
        ("Auditpol.exe /restore /file:C:\\t\\none.csv", "cmd", "clear-logs"),
        ("zip -r /tmp/k.zip ~/Library/Keychains", "bash", "credential-dump"),
        ("dd if=sc.bin of=/proc/1234/mem bs=1 seek=4096 conv=notrunc", "bash", "process-injection"),
    ],
)
def test_each_family_still_finds_its_commands(command: str, shell: str, rule: str) -> None:
    got = assess(command, shell)
    assert got.level >= C and rule in {f.rule for f in got.findings}, (command, got)
