"""The shipped examples read the way the README describes them."""

from __future__ import annotations

from pathlib import Path

from aintern_ls.extraction import extract_file
from aintern_ls.models import ShellType

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_runbook_first_block_is_the_harmless_demo() -> None:
    result = extract_file(EXAMPLES / "runbook.md")
    assert result.warnings == []
    first = result.commands[0]
    assert first.command.startswith("printf '\\033[1;32m")
    assert "python3 --version" in first.command
    shells = {b.shell_type for b in result.commands}
    assert {ShellType.BASH, ShellType.SH, ShellType.POWERSHELL} <= shells
    assert "execute" in {b.language for b in result.commands}
    assert "rm -rf /" not in "\n".join(b.command for b in result.commands)


def test_dangerous_example_has_exactly_the_one_blocked_command() -> None:
    [block] = extract_file(EXAMPLES / "dangerous.md").commands
    assert block.command == "rm -rf /"


def test_chat_example_is_a_codecompanion_transcript() -> None:
    result = extract_file(EXAMPLES / "chat.md")
    assert {b.role for b in result.commands} == {"assistant"}
    assert len({b.message_id for b in result.commands}) == 2
    assert {ShellType.BASH, ShellType.POWERSHELL, ShellType.CMD} <= {
        b.shell_type for b in result.commands
    }
