"""Speed without verdict changes (safety-sp14, issue 14's 50 ms bar, session 14).

- `windows.registry_risk` first looks for any text one of its patterns needs
  (`windows._REG_NEEDED`: one trie pattern of every such text, read from the patterns with
  re's own parser); a text holding none of them matches no pattern;
- `dispatch.judge` keeps the judgement of a text seen for the first time without its key
  (the words as written), which is made only when the text comes again;
- `windows._ps_params` binds with `words.bind_ps_args` (no one-answer memory in front).

None changes a verdict or a step (`bench/sp9b_verdicts.py`: zero lines of difference). These
tests pin that each fast path answers what the path it stands in front of answers.
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from aintern_ls.safety import budget, stack, windows
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.words import Word, bind_ps_args, ps_bind
from bench._corpus_figures import decode_command

analyse = _assess_cached.__wrapped__
HERE = Path(__file__).parent


def _rows() -> list[str]:
    out: list[str] = []
    for path in sorted(HERE.glob("*.tsv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                if r.get("command"):
                    out.append(decode_command(r["command"]))
    return out


def _unfiltered(text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setattr(windows, "_REG_NEEDED", None)
        return windows.registry_risk(text)


def test_the_registry_prefilter_is_in_use_and_reads_the_patterns() -> None:
    assert windows._REG_NEEDED is not None  # (every pattern needs some literal text)
    # a literal prefix counts too (`_needed_literals` leaves those to the engine)
    found = windows._any_needed([re.compile(r"\\winlogon\b|\\group policy\\x")], [])
    assert found is not None and found.search("hklm\\winlogon") is not None
    assert found.search("hklm\\group policy\\y") is None
    assert windows._any_needed([re.compile(r"a|b\w")], []) is None  # `b\w`: one letter only
    assert windows._any_needed([re.compile(r"abc", re.I)], []) is None  # case folded


def test_the_registry_prefilter_answers_what_the_patterns_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [t for t in _rows() if "\\" in t or "/" in t or "reg" in t.lower()]
    rng = random.Random(14)
    pieces = [
        "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run",
        "\\Policies\\Microsoft\\Windows\\Backup\\Client /v DisableBackupToDisk /d 1",
        "\\Windows NT\\SystemRestore /v DisableSR /d 1",
        "EnableLUA /d 0",
        "\\Services\\WinDefend /v Start /d 4",
        "-Name ",
        "\\Environment /v Path",
        "build/0",
        " ",
    ]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))))
    hits = 0
    for t in texts:
        want = _unfiltered(t, monkeypatch)
        assert windows.registry_risk(t) == want, t
        hits += want is not None
    assert hits > 200


def test_registry_writes_keep_their_level_through_wrappers() -> None:
    command = (
        "Set-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System "
        "-Name EnableLUA -Value 0"
    )
    assert analyse(command, "powershell", None).level.label == "critical"
    for wrapped in (
        f'powershell -Command "{command}"',
        f"function f {{ {command} }}; f",
        f"& {{ {command} }}",
    ):
        assert analyse(wrapped, "powershell", None).level.label == "critical", wrapped
    cmd = "reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d C:\\x.exe"
    assert analyse(cmd, "cmd", None).level.label == "critical"
    assert analyse(f'cmd /c "{cmd}"', "cmd", None).level.label == "critical"


def _judged(text: str, shell: str) -> tuple[list[tuple[str, str, int, int]], float]:
    def run() -> tuple[list[tuple[str, str, int, int]], float]:
        got = analyse(text, shell, None)
        return [(f.rule, f.level.label, f.start, f.end) for f in got.findings], budget.spent()

    return stack.reserved(run)


@pytest.mark.parametrize("shell", ["bash", "powershell", "cmd"])
def test_a_command_written_again_is_replayed_where_it_stands(shell: str) -> None:
    # the first `rm -rf /tmp/x` is kept keyless; the second makes its key and is looked up
    sep = {"bash": "; ", "powershell": "; ", "cmd": " & "}[shell]
    one = "rm -rf /tmp/x"
    found, steps = _judged(sep.join([one] * 3), shell)
    alone, alone_steps = _judged(one, shell)
    assert len(found) == 3 * len(alone)
    step = len(one) + len(sep)
    for i in range(3):
        assert found[i * len(alone) : (i + 1) * len(alone)] == [
            (r, lv, s + i * step, e + i * step) for r, lv, s, e in alone
        ]
    # (the later copies were looked up, not judged: the three cost far less than thrice one)
    assert steps < 2.5 * alone_steps


def test_the_binder_without_memory_binds_as_ps_bind() -> None:
    rng = random.Random(3)
    vocab = ["-Path", "-p", "x", "-Force", "-Name:y", "-5", "build/0", "-Value", "-"]
    for _ in range(500):
        args = [Word(rng.choice(vocab), i, i + 1) for i in range(rng.randint(0, 6))]
        assert bind_ps_args(args, windows._ps_takes_value) == ps_bind(args, windows._ps_takes_value)


def _steps(text: str, shell: str) -> float:
    return _judged(text, shell)[1]


@pytest.mark.parametrize(
    ("priced", "shell"),
    [
        ("Remove-Item -Force build/a0.o", "powershell"),
        ("frobctl purge ./cache --force", "bash"),
        ("frobctl purge ./cache --force", "cmd"),
        ("sudo frobctl purge ./cache --force", "bash"),
        ("env X=1 frobctl purge ./cache --force", "bash"),
        ("sh -c 'frobctl purge ./cache --force'", "bash"),
        ("f() { frobctl purge ./cache --force; }; f", "bash"),
    ],
)
def test_the_cli_shapes_are_paid_for(
    priced: str, shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a command that reaches the long-tail CLI shapes pays CLI_SHAPE_STEPS for them, in
    # whatever wrapper it is written; one that leaves at their gate does not
    before = _steps(priced, shell)
    level = analyse(priced, shell, None).level
    monkeypatch.setattr(budget, "CLI_SHAPE_STEPS", budget.CLI_SHAPE_STEPS + 1000)
    assert _steps(priced, shell) >= before + 1000
    assert analyse(priced, shell, None).level == level  # (a price changes no verdict)


@pytest.mark.parametrize(
    ("free", "shell"),
    [
        ("New-Item -ItemType Directory build/0", "powershell"),
        ("mkdir -p build/0 && cp src/0.c build/0/ && gcc -c build/0/0.c", "bash"),
        ("mkdir build\\0 && copy src\\0.c build\\0\\", "cmd"),
    ],
)
def test_the_build_script_commands_do_not_pay_for_the_cli_shapes(
    free: str, shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _steps(free, shell)
    monkeypatch.setattr(budget, "CLI_SHAPE_STEPS", budget.CLI_SHAPE_STEPS + 1000)
    assert _steps(free, shell) == before
