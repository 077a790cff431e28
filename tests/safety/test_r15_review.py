"""r15 (session 15): fixes of review 15's findings, each as a mechanism, with the review's
neighbours, spellings of our own (other tools, wrappers, shells) and look-alikes that must
stay low."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S, level

# (command, shell, expected level)
_CASES = [
    # 14: each shell expands only its own folder-variable spelling in a cd
    ("Set-Location %windir%; Remove-Item -Recurse -Force System32", "powershell", D),
    ("sl %SystemRoot%\\System32; ri -Recurse -Force drivers", "powershell", D),
    ("cd %windir%; Remove-Item -Recurse -Force System32", "powershell", D),
    ("Set-Location $env:windir; Remove-Item -Recurse -Force System32", "powershell", B),
    ("cd /d %windir% & rd /s /q System32", "cmd", B),
    ("cd $env:windir & rd /s /q System32", "cmd", D),
]


@pytest.mark.parametrize(("command", "shell", "expected"), _CASES)
def test_r15_finding_level(command: str, shell: str, expected: RiskLevel) -> None:
    assert level(command, shell) == expected


_PS_KEEPS = [
    "Set-Location $env:windir; Remove-Item -Recurse -Force System32",
]


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
@pytest.mark.parametrize("command", _PS_KEEPS)
def test_r15_powershell_wrapped_keeps_level(wrapper: str, command: str) -> None:
    assert level(wrapper.format(command), "powershell") == level(command, "powershell")


_PS_LOW_WRAPPED = [
    "Set-Location %windir%; Remove-Item -Recurse -Force System32",
]


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
@pytest.mark.parametrize("command", _PS_LOW_WRAPPED)
def test_r15_powershell_wrapped_stays_low(wrapper: str, command: str) -> None:
    assert level(wrapper.format(command), "powershell") <= D


_ = (C, M, S)
