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


# review8 #11: a family testing a program name its `Programs` row lacks is never run for that
# program (the table skips it): read every name each family's code compares the program with
# (`n == "x"`, `n in ("a", "b")`, `n in _TABLE`, in the family and the detections functions it
# calls) and check the row holds it, then run a command of each name and see the family run.
def _tested_names(fn: object, seen: set[str]) -> set[str]:
    import ast
    import inspect
    import textwrap

    closure = getattr(fn, "__closure__", None) or ()
    inner = [c.cell_contents for c in closure if callable(c.cell_contents)]
    if inner:  # `_as(rule, find)`: the family is `find`
        return set().union(*(_tested_names(f, seen) for f in inner))
    name = getattr(fn, "__name__", "")
    if name in seen or getattr(detections, name, None) is not fn:
        return set()
    seen.add(name)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))  # type: ignore[arg-type]
    found: set[str] = set()

    def strings(node: ast.expr) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, (ast.Tuple, ast.Set, ast.List)):
            return set().union(*(strings(e) for e in node.elts))
        if isinstance(node, ast.Name) and isinstance(getattr(detections, node.id, None), frozenset):
            return set(getattr(detections, node.id))
        return set()

    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and node.left.id == "n"  # (each family spells the program `n`)
            and isinstance(node.ops[0], (ast.Eq, ast.In))
        ):
            found |= strings(node.comparators[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = getattr(detections, node.func.id, None)
            if callable(callee):
                found |= _tested_names(callee, seen)
    return found


def test_every_program_a_family_tests_is_in_its_row(calls: list[tuple[str, str]]) -> None:
    from aintern_ls.safety.registry import program_key

    checked = 0
    for programs, spied in detections.FAMILIES:
        family = spied.__closure__[0].cell_contents  # type: ignore[index]  # (the spy's)
        tested = _tested_names(family, set())
        assert tested, family.__name__  # (the reader found the family's names)
        for n in sorted(tested):
            assert program_key(n) in programs, f"{family.__name__} tests {n!r}, not in its row"
            ran: list[str] = []
            # every run was critical by the handler alone, or a read the dispatcher answers
            # first (`--version`): the families are not asked
            decided = True
            for args in ("--version", "x", "x off", "stop x"):
                calls.clear()
                analyser.cache_clear()  # (another family's row ran this command already)
                got = assess(f"{n} {args}", "powershell" if "-" in n else "bash")
                ran += [f for _, f in calls]
                decided = decided and (got.level >= C or not got.findings)
            assert family.__name__ in ran or decided, (family.__name__, n)
            checked += 1
    assert checked > 40
