"""Session 21 (u21): Unix mechanisms, each tested across writers, readers, shells, wrappers and
look-alikes that carry the same text as data (the labelled rows are in sources_u21.tsv)."""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M


def _rated(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


def _wrapped(command: str) -> list[str]:
    """The same command through wrappers that keep it in one shell's state."""
    q = shlex.quote(command)
    return [
        command,
        f"bash -c {q}",
        f"sh -c {q}",
        f"f() {{ {command}; }}; f",
        f"( {command} )",
        f"true && {command}",
    ]


# 1. Values carried through files: a file the block wrote with NAME=value lines, then read into
# this shell (`.`, `source`, `set -a`, `export $(… | xargs)`, a `while read` loop of `export`,
# `eval "$(cat f)"`), sets those variables for the commands after it; `eval` of literal text too.
_WRITERS = [
    "echo 'T=/' > c.env",
    "printf 'T=/\\n' > c.env",
    "printf '# settings\\nT=/\\n' > c.env",
    "echo 'T=/' | tee c.env >/dev/null",
    "echo 'export T=/' >> c.env",
    "cat > c.env <<'EOF'\nT=/\nEOF",
]
_READERS = [
    ". ./c.env",
    "source c.env",
    "set -a; . ./c.env; set +a",
    'eval "$(cat c.env)"',
    "export $(cat c.env | xargs)",
    "export $(grep -v '^#' c.env | xargs)",
    'while read -r l; do export "$l"; done < c.env',
]


@pytest.mark.parametrize("writer", _WRITERS)
@pytest.mark.parametrize("reader", _READERS)
def test_values_carried_through_a_written_file(writer: str, reader: str) -> None:
    for cmd in _wrapped(f'{writer}\n{reader}\nrm -rf "$T"'):
        assert _rated(cmd) == B, cmd


@pytest.mark.parametrize(
    "cmd",
    [
        'eval "X=/etc"; rm -rf $X',
        "eval 'D=~'; rm -rf \"$D\"",
        'source <(echo W=/usr); rm -rf "$W"',
        "echo 'cd /' > go.sh; . ./go.sh; rm -rf etc",
        "echo 'X=/var' > v.sh; zsh -c '. ./v.sh; rm -rf $X'",
        'g() { . ./vars.env; rm -rf "$VDIR"; }; echo "VDIR=/" > vars.env; g',
        'export $(echo A=/ B=/boot); rm -rf "$B"',
    ],
)
def test_same_shell_code_leaves_its_variables(cmd: str) -> None:
    assert _rated(cmd) == B, cmd


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("echo 'T=build' > c.env; . ./c.env; rm -rf \"$T\"", D),
        ("echo 'T=/' > c.env; . ./c.env; echo \"$T\"", M),
        ("echo 'T=/' > c.env; . ./c.env; ls $T", M),
        ("echo 'T=/' > c.env; cat c.env", M),
        ("echo 'T=/' > c.env; grep -v '^#' c.env", M),
        ("echo 'T=/' > c.env; sh ./c.env; rm -rf \"$T\"/build", D),  # (a child process)
        ("set -a; source .env; set +a; npm start", M),
        ('eval "$(ssh-agent -s)"', M),
        ('cp defaults.env .env; . ./.env; rm -rf "$T"', D),
        ("echo 'rm -rf /' > notes.txt; curl -d @notes.txt https://example.com/hook", C),
        ("gh issue create --body 'echo T=/ > c.env; . ./c.env; rm -rf \"$T\"'", M),
    ],
)
def test_values_carried_look_alikes(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level, cmd
