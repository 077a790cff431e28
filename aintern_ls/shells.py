"""The one table of shells: fence language -> `ShellType` -> analyser family, and which
shells the runner and terminal sessions start and which support shell integration.

Extraction (`extraction.info`), safety (`safety.analyser`), the runner, terminal
sessions and shell integration all read these tables instead of keeping lists of their
own.
"""

from __future__ import annotations

import attrs

from aintern_ls.models import ShellType


@attrs.frozen
class Language:
    """What a fence's first info-string word means."""

    shell_type: ShellType | None
    """The shell that runs it (None: analysed as bash, but not a command fence)."""
    family: str
    """The analyser's front end: `bash`, `console` (bash with prompts), `powershell`, `cmd`."""
    fence: bool = True
    """True when extraction treats a fence in this language as commands."""


LANGUAGES: dict[str, Language] = {
    "bash": Language(ShellType.BASH, "bash"),
    "sh": Language(ShellType.SH, "bash"),
    "shell": Language(ShellType.BASH, "bash"),
    "zsh": Language(ShellType.ZSH, "bash"),
    "fish": Language(ShellType.FISH, "bash"),
    "ksh": Language(ShellType.KSH, "bash"),
    "console": Language(ShellType.BASH, "console"),
    "shell-session": Language(ShellType.BASH, "console"),
    "shellsession": Language(ShellType.BASH, "console"),
    "terminal": Language(ShellType.BASH, "console"),
    "powershell": Language(ShellType.POWERSHELL, "powershell"),
    "pwsh": Language(ShellType.POWERSHELL, "powershell"),
    "ps1": Language(ShellType.POWERSHELL, "powershell"),
    "cmd": Language(ShellType.CMD, "cmd"),
    "bat": Language(ShellType.CMD, "cmd"),
    "batch": Language(ShellType.CMD, "cmd"),
    # names the analyser understands (e.g. from `execute` JSON or settings) that do not
    # make a fence a command fence
    "dash": Language(None, "bash", fence=False),
    "sh-session": Language(None, "console", fence=False),
    "bash-session": Language(None, "console", fence=False),
    "ps": Language(None, "powershell", fence=False),
    "posh": Language(None, "powershell", fence=False),
    "dos": Language(None, "cmd", fence=False),
    "": Language(None, "bash", fence=False),
    "text": Language(None, "bash", fence=False),
    "none": Language(None, "bash", fence=False),
}

FENCE_LANGUAGES: dict[str, ShellType] = {
    name: lang.shell_type
    for name, lang in LANGUAGES.items()
    if lang.fence and lang.shell_type is not None
}
"""Fence language -> the shell that runs it (extraction)."""

SESSION_LANGUAGES = frozenset(
    name for name, lang in LANGUAGES.items() if lang.fence and lang.family == "console"
)
"""Fences that show a terminal session: prompt lines are commands, the rest output."""

FAMILIES: dict[str, str] = {name: lang.family for name, lang in LANGUAGES.items()}
"""Any language or shell name -> the analyser's front end (safety)."""


@attrs.frozen
class Program:
    """A shell program the runner or a terminal session can start."""

    name: str
    shell_type: ShellType
    integration: bool
    """Shell-integration marks (OSC 633/133) are injected into its sessions."""


PROGRAMS: dict[str, Program] = {
    "bash": Program("bash", ShellType.BASH, integration=True),
    "sh": Program("sh", ShellType.SH, integration=False),
    "zsh": Program("zsh", ShellType.ZSH, integration=True),
    "fish": Program("fish", ShellType.FISH, integration=False),
    "ksh": Program("ksh", ShellType.KSH, integration=False),
    "powershell": Program("powershell", ShellType.POWERSHELL, integration=True),
    "pwsh": Program("pwsh", ShellType.POWERSHELL, integration=True),
    "cmd": Program("cmd", ShellType.CMD, integration=False),
}

RUNNABLE_SHELLS: tuple[str, ...] = tuple(PROGRAMS)
"""Shell names the one-shot runner and terminal sessions accept."""

INTEGRATED_SHELLS: tuple[str, ...] = tuple(n for n, p in PROGRAMS.items() if p.integration)
"""Shells whose sessions get shell integration."""

for _name in FENCE_LANGUAGES:  # every fence shell type has a program to run it
    assert any(p.shell_type is FENCE_LANGUAGES[_name] for p in PROGRAMS.values())
