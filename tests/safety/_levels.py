"""What the safety tests share: one-letter level aliases and a level helper.

    from tests.safety._levels import B, C, D, M, S, level

`S`afe, `M`oderate, `D`angerous, `C`ritical, `B`locked are the `RiskLevel` members;
`level(command, shell, cwd)` is the level `assess` gives.
"""

from __future__ import annotations

from aintern_ls.safety import RiskLevel, assess
from aintern_ls.safety.levels import B, C, D, M, S


def level(command: str, shell: str = "bash", cwd: str | None = None) -> RiskLevel:
    """The level the analyser gives `command` in `shell` (run from `cwd` when given)."""
    return assess(command, shell, cwd=cwd).level


# PowerShell blocks a command can be wrapped in without changing what it does (each has
# one `{0}` for the command); a wrapped blocked or critical command keeps its level.
PS_BLOCK_WRAPPERS = (
    "function f {{ {0} }}; f",
    "& {{ {0} }}",
    "Invoke-Command -ScriptBlock {{ {0} }}",
    "if ($true) {{ {0} }}",
)


__all__ = ["PS_BLOCK_WRAPPERS", "B", "C", "D", "M", "S", "level"]
