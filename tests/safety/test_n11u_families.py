"""n11u: config-driven execution of programs the analyser cannot read, and the SysRq trigger.

A hook (a pager/filter/editor variable, a tool option that runs a program, BASH_ENV/ENV)
that names a local program or script runs code the analyser never sees: critical (opaque).
Known programs stay what they are; a user's own startup file in BASH_ENV adds nothing new.
Each case keeps its level when wrapped (sudo, env, sh -c, eval, a function).
"""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess

C, D, M, S = RiskLevel.CRITICAL, RiskLevel.DANGEROUS, RiskLevel.MODERATE, RiskLevel.SAFE


def _wrapped(command: str) -> list[str]:
    q = shlex.quote(command)
    return [
        command,
        f"sh -c {q}",
        f"bash -c {q}",
        f"eval {q}",
        f"f() {{ {command}; }}; f",
        *_timeout(command),
    ]


def _timeout(command: str) -> list[str]:
    """`timeout 5 …` runs one program: an assignment prefix goes through `env`."""
    if command.startswith(("export ", "echo ")) or ";" in command:
        return []
    first = command.split(" ", 1)[0]
    return [f"timeout 5 env {command}" if "=" in first else f"timeout 5 {command}"]


OPAQUE_HOOKS = [
    "LESSOPEN='|/tmp/filter.sh %s' less notes.txt",
    "LESSCLOSE='/opt/x/close %s %s' less notes.txt",
    "MANPAGER=./pager.sh man bash",
    "GIT_PAGER=~/bin/pg git log",
    "GIT_EXTERNAL_DIFF=./tools/diff.sh git diff",
    "SSH_ASKPASS=/tmp/a SSH_ASKPASS_REQUIRE=force ssh host true",
    "FZF_DEFAULT_COMMAND=./list.sh fzf",
    "rg --pre ./scripts/preprocess.sh TODO src/",
    "rg --pre=/tmp/.p --pre-glob '*.pdf' password docs",
    "man -P /tmp/p ls",
    "git -c core.pager=./p.sh log",
    "export BASH_ENV=/tmp/.env.sh; bash build.sh",
    "env ENV=/tmp/rc.sh sh -i -c ls",
]


@pytest.mark.parametrize("command", OPAQUE_HOOKS)
def test_a_hook_running_an_unreadable_local_program_is_critical(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    [
        "PAGER=cat man ls",
        "GIT_PAGER=less git diff",
        "MANPAGER='less -R' man tar",
        "LESSOPEN= less notes.txt",
        "rg --pre-glob '*.pdf' invoice docs/",
        "rg -F -- '--pre ./x.sh' notes.md",
        "rg --no-pre TODO src/",
        "echo \"LESSOPEN='|/tmp/filter.sh %s'\"",
        "grep -rn BASH_ENV /etc/profile.d",
        "BASH_ENV= bash -c 'ls -la'",
    ],
)
def test_known_programs_and_mentions_stay_safe(command: str) -> None:
    got = assess(command, "bash")
    assert got.level == S, f"{command!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    ["BASH_ENV=~/.bashrc bash -c 'll'", "export ENV=$HOME/.profile; sh -i", "rg --pre cat x ."],
)
def test_own_startup_files_and_known_filters_are_not_opaque(command: str) -> None:
    got = assess(command, "bash")
    assert got.level < C, f"{command!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    [
        "echo b > /proc/sysrq-trigger",
        "printf o > /proc/sysrq-trigger",
        "echo c | tee /proc/sysrq-trigger",
        "python3 -c \"open('/proc/sysrq-trigger','w').write('o')\"",
    ],
)
def test_a_sysrq_trigger_is_the_shutdown_class(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level == D, f"{text!r}: {got.level.label}"
        assert any(f.rule == "shutdown" for f in got.findings)
    assert assess("sudo " + command, "bash").level == C  # sudo is critical on its own


def test_enabling_sysrq_is_not_the_trigger() -> None:
    assert assess("sysctl -w kernel.sysrq=1", "bash").level == M
    assert assess("cat /proc/sys/kernel/sysrq", "bash").level == S


@pytest.mark.parametrize(
    "command",
    [
        "git -c include.path=../team.cfg status",
        "git config --global include.path /tmp/shared.gitconfig",
        "git config --global includeIf.gitdir:~/work/.path ~/.gitconfig-work",
        "GIT_CONFIG_GLOBAL=./g.cfg git log -1",
        "git config core.pager ./pg.sh",
    ],
)
def test_git_settings_from_an_unreadable_file_are_critical(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label}"


@pytest.mark.parametrize(
    "command",
    [
        "git config --get include.path",
        "git config --list --show-origin",
        "git log --oneline --grep include.path",
        "GIT_CONFIG_GLOBAL=~/.gitconfig git log -1",
    ],
)
def test_git_config_reads_stay_below_critical(command: str) -> None:
    got = assess(command, "bash")
    assert got.level < C, f"{command!r}: {got.level.label}"
