"""Terminal-session fences (`console`, `shell-session`, `terminal`, and shell fences
written with prompts): prompt lines are the commands, the lines after them are the
output the author expected.
"""

from __future__ import annotations

import re

import attrs

from aintern_ls.models import ShellType

# A POSIX prompt, optionally decorated the way real transcripts are:
# `(venv) $ `, `user@host:~/app$ `, `[root@host app]# `, `~/app % `, `❯ `.
_POSIX_DECORATION = (
    r"(?:\([^()\s]+\)\s*)?"
    r"(?:\[[^\]\n]*\]\s*|[\w.-]+@[\w.-]+(?::[^\s$#%]*)?\s*|~[^\s$#%]*\s*)?"
)
_DOLLAR = re.compile(_POSIX_DECORATION + r"(?:\$|❯)(?: (?P<cmd>.*)|$)")
_DOLLAR_PERCENT = re.compile(_POSIX_DECORATION + r"(?:[$%]|❯)(?: (?P<cmd>.*)|$)")
# `# ` is root's prompt in console transcripts (and a comment everywhere else).
_WITH_ROOT = re.compile(_POSIX_DECORATION + r"(?:[$%#]|❯)(?: (?P<cmd>.*)|$)")
_POWERSHELL = re.compile(r"PS(?: [^>\n]*)?>(?: ?(?P<cmd>.*))$")
_CMD = re.compile(r"[A-Za-z]:\\[^>\n]*> ?(?P<cmd>.*)$")
_CONTINUATION = re.compile(r">>? ?(?P<cmd>.*)$")


@attrs.frozen
class Session:
    """Commands and expected output read from a session fence."""

    commands: list[str]
    output: list[str]
    shell_type: ShellType | None
    """Set when every prompt says which shell it is (PowerShell or cmd prompts)."""

    @property
    def command(self) -> str:
        return "\n".join(self.commands)

    @property
    def expected_output(self) -> str | None:
        text = "\n".join(self.output).strip("\n")
        return text or None


def starts_with_prompt(body: str, shell_type: ShellType) -> bool:
    """Whether a plain shell fence is written as a transcript (`$ npm install`)."""
    patterns = _prompts_for(shell_type, session=False)
    for line in body.split("\n"):
        if line.strip() and not _is_comment(line, shell_type):
            return _prompt(line, patterns) is not None
    return False


def _is_comment(line: str, shell_type: ShellType) -> bool:
    stripped = line.lstrip()
    if shell_type is ShellType.CMD:
        return stripped.upper().startswith(("REM ", "::"))
    return stripped.startswith("#")


def parse_session(body: str, shell_type: ShellType, *, root_prompt: bool = True) -> Session:
    """Split a session fence into commands (prompt lines) and output (the rest).

    `root_prompt` is False for `terminal` fences, whose `# ` lines are annotations
    (`# Exit code: 0`), and for plain shell fences, where `#` starts a comment.
    """
    patterns = _prompts_for(shell_type, session=True, root_prompt=root_prompt)
    commands: list[str] = []
    output: list[str] = []
    kinds: set[str] = set()
    current: list[str] | None = None
    for line in body.split("\n"):
        if current is not None and current and current[-1].endswith("\\"):
            # A trailing backslash continues the command whatever the next line is.
            cont = _CONTINUATION.match(line)
            current.append(cont.group("cmd") if cont else line)
            _store(commands, current)
            continue
        found = _prompt(line, patterns)
        if found is not None:
            kind, text = found
            kinds.add(kind)
            current = [text]
            commands.append("")  # filled in below
            _store(commands, current)
            continue
        cont = _CONTINUATION.match(line)
        if current is not None and cont is not None:
            current.append(cont.group("cmd"))
            _store(commands, current)
            continue
        current = None
        if not root_prompt and _is_comment(line, shell_type):
            continue  # an annotation such as `# Exit code: 0`, neither command nor output
        output.append(line)
    return Session(
        [c for c in commands if c.strip()],
        output,
        _shell_of_prompts(kinds),
    )


def _store(commands: list[str], current: list[str]) -> None:
    commands[-1] = "\n".join(current)


def _prompts_for(
    shell_type: ShellType, *, session: bool, root_prompt: bool = True
) -> list[tuple[str, re.Pattern[str]]]:
    if session:
        posix = _WITH_ROOT if root_prompt else _DOLLAR_PERCENT
        return [("posix", posix), ("powershell", _POWERSHELL), ("cmd", _CMD)]
    if shell_type is ShellType.POWERSHELL:
        return [("powershell", _POWERSHELL)]
    if shell_type is ShellType.CMD:
        return [("cmd", _CMD)]
    return [("posix", _DOLLAR)]


def _prompt(line: str, patterns: list[tuple[str, re.Pattern[str]]]) -> tuple[str, str] | None:
    for kind, pattern in patterns:
        match = pattern.match(line)
        if match is not None:
            return kind, (match.group("cmd") or "").lstrip()
    return None


def _shell_of_prompts(kinds: set[str]) -> ShellType | None:
    if kinds == {"powershell"}:
        return ShellType.POWERSHELL
    if kinds == {"cmd"}:
        return ShellType.CMD
    return None
