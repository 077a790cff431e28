"""An Ex write that names its own target (`vim -c ':w! /etc/passwd' x`) writes the buffer
THERE, whatever file was opened: judged like any write of that file (h18's report: it was
rated moderate because only the opened file operands were judged)."""

from __future__ import annotations

import pytest

from tests.safety._levels import B, C, M, S
from tests.safety._levels import level as _level

BLOCKED = [
    "vim -c ':w! /etc/passwd' notes.txt",
    'vim -c "w! /etc/shadow" -c q notes.txt',
    'vim -es -c "w /etc/passwd" -c q x',
    'nvim --headless +"w! /etc/sudoers" +q x',
    'ex -sc "w! /etc/passwd|q" x',
    'vim -c "wq! /etc/group" notes.md',
    'vim +"saveas! /etc/shadow" x',
    'vim -c ":w >> /etc/sudoers" x',
]

WRAPS = [
    "{}",
    "sudo {}",
    "env TERM=dumb {}",
    "sh -c {q}",
    "eval {q}",
    "f() {{ {}; }}; f",
    "timeout 5 {}",
]


def _quote(command: str) -> str:
    return "'" + command.replace("'", "'\\''") + "'"


@pytest.mark.parametrize("command", BLOCKED)
@pytest.mark.parametrize("wrap", WRAPS)
def test_ex_write_to_an_account_file_is_blocked(command: str, wrap: str) -> None:
    assert _level(wrap.format(command, q=_quote(command))) == B


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('vim -c "saveas ~/.bashrc" x', C),  # a shell startup file: persistence
        ('vim -c "w ~/notes.bak" notes.md', M),
        ('vim -c "wq" notes.md', M),
        ('vim -c "x" notes.md', M),
        ('vim -c ":w out.txt" x', M),
        ('view -c "set nowrap" /etc/passwd', S),
        ("echo 'vim -c \":w! /etc/passwd\" x'", S),
        ("grep -n ':w! /etc/passwd' notes.md", S),
    ],
)
def test_ex_write_look_alikes(command: str, expected: object) -> None:
    assert _level(command) == expected
