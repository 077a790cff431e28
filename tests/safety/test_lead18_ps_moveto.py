"""An item's `.MoveTo(…)` on a protected folder (`(Get-Item C:\\Windows).MoveTo(…)`, a held
item `$d.MoveTo(…)`, a DirectoryInfo cast) moves it away like `Move-Item`: blocked (the red
team's probe16b: rated safe, only member chains such as `.Parent.MoveTo` were read). A plain
item moved is a rename (moderate), as `Move-Item` of it is."""

from __future__ import annotations

import pytest

from tests.safety._levels import PS_BLOCK_WRAPPERS, B, M, S
from tests.safety._levels import level as _level

BLOCKED = [
    '(Get-Item C:\\Windows).MoveTo("C:\\old")',
    '(gi C:\\Windows\\System32).MoveTo("C:\\s")',
    '$d = Get-Item C:\\Windows; $d.MoveTo("C:\\x")',
    '(Get-Item $HOME).MoveTo("C:\\tmp\\h")',
    '([IO.DirectoryInfo]"C:\\Windows").MoveTo("D:\\w")',
    "([System.IO.DirectoryInfo]'C:\\Windows').MoveTo('D:\\w')",
    '(New-Object IO.DirectoryInfo C:\\Windows).MoveTo("D:\\w")',
]


@pytest.mark.parametrize("command", BLOCKED)
def test_moveto_of_a_protected_folder_is_blocked(command: str) -> None:
    assert _level(command, "powershell") == B


@pytest.mark.parametrize("command", BLOCKED[:4])
@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS)
def test_moveto_keeps_its_level_wrapped(command: str, wrap: str) -> None:
    assert _level(wrap.format(command), "powershell") == B


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('(Get-Item C:\\tmp\\a).MoveTo("C:\\tmp\\b")', M),
        ('(Get-Item .\\build).MoveTo(".\\build-old")', M),
        ("(Get-Item $x).MoveTo($y)", M),
        ('([IO.DirectoryInfo]"C:\\tmp\\a").MoveTo("C:\\tmp\\b")', M),
        ('Write-Host "(Get-Item C:\\Windows).MoveTo(x)"', S),
        ("# (Get-Item C:\\Windows).MoveTo(x)", S),
    ],
)
def test_moveto_look_alikes(command: str, expected: object) -> None:
    assert _level(command, "powershell") == expected
