"""Placeholders in commands: values the author expects the reader to fill in.

`<your-token>`, `YOUR_API_KEY`, `{{cluster}}`, and `$FOO` / `${FOO}` that the run's
environment does not set. Each is reported with its span in the command text so
the editor can mark it (a hint) and ask for the value before a run.

Not placeholders: shell redirections and heredocs (`<file`, `<<EOF`), variables the
command sets itself (`FOO=1`, `export FOO`, `read FOO`, `for FOO in`), special and
positional parameters (`$1`, `$?`, `$@`), `${FOO:-default}` (it has a default),
and variables every shell has (`HOME`, `PATH`, `USER`, ...).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import attrs


@attrs.frozen
class Placeholder:
    name: str
    """What to ask for: the variable name, or the placeholder text without brackets."""
    kind: str
    """`variable` ($FOO), `angle` (<your-token>), `template` ({{var}}), `upper` (YOUR_KEY)."""
    start: int
    end: int
    """Span in the command text."""


_ANGLE = re.compile(r"(?<![<\w])<([A-Za-z][\w .-]{0,40}?[\w])>(?!>)")
_TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}")
_UPPER = re.compile(r"\b(?:YOUR|MY)_[A-Z0-9_]*[A-Z0-9]\b|\b[A-Z][A-Z0-9_]*_HERE\b")
_VARIABLE = re.compile(r"(?<![\\$])\$(?:\{([A-Za-z_]\w*)([^}]*)\}|([A-Za-z_]\w*))")
_ASSIGNED = re.compile(
    r"(?:^|[\s;&|(])(?:export\s+|local\s+|declare\s+(?:-\w+\s+)*|readonly\s+)?([A-Za-z_]\w*)\+?="
    r"|\b(?:read|export|local|unset)\s+(?:-\w+\s+(?:'[^']*'\s+|\"[^\"]*\"\s+)?)*([A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*)"
    r"|\bfor\s+([A-Za-z_]\w*)\s+in\b"
)
_HTML_TAGS = frozenset(
    [
        "div",
        "span",
        "br",
        "p",
        "b",
        "i",
        "u",
        "a",
        "em",
        "strong",
        "code",
        "pre",
        "html",
        "body",
        "head",
        "li",
        "ul",
        "ol",
    ]
)
_SINGLE_QUOTED = re.compile(r"'[^']*'")
_SHELL_VARIABLES = frozenset(
    [
        "HOME",
        "PATH",
        "USER",
        "LOGNAME",
        "SHELL",
        "PWD",
        "OLDPWD",
        "TERM",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "HOSTNAME",
        "UID",
        "EUID",
        "PPID",
        "RANDOM",
        "SECONDS",
        "LINENO",
        "BASH",
        "BASH_SOURCE",
        "BASH_VERSION",
        "IFS",
        "PS1",
        "PS2",
        "OSTYPE",
        "HOSTTYPE",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "DISPLAY",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "XDG_RUNTIME_DIR",
        "SSH_AUTH_SOCK",
        "COLUMNS",
        "LINES",
        "REPLY",
        "OPTARG",
        "OPTIND",
        "PIPESTATUS",
        "FUNCNAME",
        "GROUPS",
        "SHLVL",
        "MACHTYPE",
    ]
)


def find(
    command: str, environment: Mapping[str, str] | None = None, *, posix: bool = True
) -> list[Placeholder]:
    """The placeholders of `command`, in order; `environment` is what the run gets
    (variables set there are not placeholders). `$NAME` is a variable only in POSIX
    shells (in PowerShell it is a script variable such as `$PSVersionTable`)."""
    env = environment or {}
    return [p for p in _find(command) if p.kind != "variable" or (posix and p.name not in env)]


def is_posix(shell: object) -> bool:
    """Whether a block's shell (a `ShellType` or None) expands `$NAME` from the environment."""
    return str(getattr(shell, "value", shell) or "bash").lower() not in {
        "powershell",
        "pwsh",
        "cmd",
    }


@functools.lru_cache(maxsize=4096)  # (its keys keep commands alive: few)
def _find(command: str) -> tuple[Placeholder, ...]:
    found: list[Placeholder] = []
    taken: list[tuple[int, int]] = []

    def add(name: str, kind: str, start: int, end: int) -> None:
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append(Placeholder(name, kind, start, end))

    for match in _TEMPLATE.finditer(command):
        add(match.group(1), "template", match.start(), match.end())
    for match in _ANGLE.finditer(command):
        inner = match.group(1)
        if _looks_like_angle_placeholder(command, match.start(), inner):
            add(inner, "angle", match.start(), match.end())
    for match in _UPPER.finditer(command):
        add(match.group(0), "upper", match.start(), match.end())
    assigned = _assigned(command)
    quoted = [m.span() for m in _SINGLE_QUOTED.finditer(command)]
    for match in _VARIABLE.finditer(command):
        name = match.group(1) or match.group(3)
        rest = match.group(2) or ""
        if rest.startswith((":-", "-", ":=", "=", ":+", "+", ":?", "?")) and rest[:2] != ":?":
            continue  # has a default (or only expands when set)
        if any(s <= match.start() < e for s, e in quoted):
            continue  # '$FOO' is literal text
        if name in assigned or name in _SHELL_VARIABLES:
            continue
        add(name, "variable", match.start(), match.end())
    found.sort(key=lambda p: p.start)
    return tuple(found)


def _assigned(command: str) -> set[str]:
    names: set[str] = set()
    for match in _ASSIGNED.finditer(command):
        for group in match.groups():
            if group:
                names.update(group.split())
    return names


def _looks_like_angle_placeholder(command: str, start: int, inner: str) -> bool:
    """`<your-token>` but not `<file` redirections, `<<EOF` or `<div>`-like HTML."""
    before = command[:start].rstrip()
    if before.endswith(("<", "-")):
        return False
    return inner.lower() not in _HTML_TAGS
