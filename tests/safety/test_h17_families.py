"""h17 (session 17): families that sources_h17.tsv (detection-rule and incident-report
mechanisms nobody here had harvested) showed, each checked bare, wrapped, and next to
look-alikes that must keep their level.

- macOS `arch [-x86_64|-arm64|…] [-e VAR=V] [-d VAR] [-arch NAME] PROG ARGS` runs PROG: it
  was on the read-only allowlist as the bare `arch` (print the machine's architecture);
- PowerShell's `ForEach-Object -InputObject VALUE { … $_ … }` (any unique prefix of the
  parameter, `%` too): the value is `$_`, as if piped in.
"""

from __future__ import annotations

import pytest

from tests.safety._levels import PS_BLOCK_WRAPPERS, B, D, M, S
from tests.safety._levels import level as _level

ARCH_BLOCKED = [
    "arch -x86_64 rm -rf /Users",
    "arch -arm64 rm -rf ~",
    "arch -arm64 -e FOO=1 rm -rf ~",
    "arch -d DYLD_LIBRARY_PATH -x86_64 /bin/rm -rf /",
    "arch -arch x86_64 /bin/rm -rf /",
    "arch -x86_64 /bin/zsh -c 'rm -rf /'",
    "arch -i386 dd if=/dev/zero of=/dev/disk0",
]


@pytest.mark.parametrize("command", ARCH_BLOCKED)
def test_arch_runs_its_program(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize("command", ARCH_BLOCKED[:3])
@pytest.mark.parametrize(
    "wrap",
    ["sudo {}", "env LC_ALL=C {}", "sh -c {q}", "eval {q}", "f() {{ {}; }}; f", "nice {}"],
)
def test_arch_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("arch", S),  # prints the machine's architecture
        ("arch -x86_64 ls -la", S),
        ("arch -arm64 brew install jq", M),
        ("arch -x86_64 rm -rf ./build", D),
        ("echo arch -x86_64 rm -rf /", S),
    ],
)
def test_arch_look_alikes(command: str, expected: int) -> None:
    assert _level(command) == expected


INPUT_OBJECT_BLOCKED = [
    "ForEach-Object -InputObject 'C:\\Windows' -Process { Remove-Item $_ -Recurse -Force }",
    "ForEach-Object -InputObject $HOME -Process { Remove-Item $_ -Recurse -Force }",
    "% -InputObject C:\\Users { rm $_ -r -fo }",
    'ForEach-Object -in "$env:windir" { Remove-Item -LiteralPath $_ -Recurse -Force }',
    "ForEach-Object -InputObject:'C:\\Users' { Remove-Item $_ -Recurse -Force }",
    "$x = 1; ForEach-Object -InputObject 'C:\\Windows' -Process { Remove-Item $_ -Recurse -Force }",
]


@pytest.mark.parametrize("command", INPUT_OBJECT_BLOCKED)
def test_input_object_is_the_loop_variable(command: str) -> None:
    assert _level(command, "powershell") == B


@pytest.mark.parametrize("command", INPUT_OBJECT_BLOCKED[:3])
@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS)
def test_input_object_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    assert _level(wrap.format(command), "powershell") == B


def test_input_object_from_cmd() -> None:
    command = (
        'powershell -c "ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse -Force }"'
    )
    assert _level(command, "cmd") == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("ForEach-Object -InputObject '.\\build' -Process { Remove-Item $_ -Recurse -Force }", D),
        ("ForEach-Object -InputObject 'C:\\Windows' -Process { Get-ChildItem $_ }", S),
        ("ForEach-Object -InputObject 'C:\\Windows' -Process { Write-Output \"rm $_\" }", S),
        ("Write-Output 'ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse }'", S),
        ("# ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse -Force }", S),
        ("Get-Process | Where-Object -Property Name -In 'a','b'", S),
    ],
)
def test_input_object_look_alikes(command: str, expected: int) -> None:
    assert _level(command, "powershell") == expected
