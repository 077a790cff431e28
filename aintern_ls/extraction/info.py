"""Fence info strings: which language a fence is in, which shell runs it, and its
Runme-style attributes (`sh {"name":"build","cwd":"app"}` or `sh { name=build }`).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import attrs

from aintern_ls.models import ShellType
from aintern_ls.shells import FENCE_LANGUAGES, SESSION_LANGUAGES

SHELL_LANGUAGES: dict[str, ShellType] = FENCE_LANGUAGES
"""First word of an info string (lower case) -> the shell that runs the fence
(`aintern_ls.shells`, the one table of shells)."""

EXECUTE_LANGUAGE = "execute"
# Educates workshop clickable actions: `execute`, `execute-2` (terminal 2),
# `execute-all`, and `terminal:execute` whose body is YAML (`command: ...`).
_EXECUTE_VARIANT = re.compile(r"(terminal:execute(?:-all)?|execute(?:-\d+|-all)?)(?=$|[\s{])")

# The language ends at whitespace or at the punctuation people glue attributes or
# titles on with (`sh{...}`, `bash:install.sh`, `bash,ignore`).
_LANGUAGE = re.compile(r"[^\s{},;:]+")
# Pandoc (`{.bash .numberLines}`) and R Markdown (`{bash, echo=FALSE}`) put the
# language inside braces.
_BRACED_LANGUAGE = re.compile(r"\{\s*\.?([A-Za-z][\w+-]*)(?=[\s,}])")
_KEY_VALUE = re.compile(
    r"""([A-Za-z_][\w.-]*)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^\s}'"]+)""", re.DOTALL
)


@attrs.frozen
class InfoString:
    """What the info string of one fence says."""

    language: str | None
    attributes: dict[str, Any] = attrs.field(factory=dict)
    attribute_error: str | None = None
    attribute_error_column: int = 0
    """Column of the error within the info string, for the warning's position."""

    @property
    def shell_type(self) -> ShellType | None:
        return SHELL_LANGUAGES.get(self.language or "")

    @property
    def is_session(self) -> bool:
        return self.language in SESSION_LANGUAGES

    @property
    def is_execute(self) -> bool:
        return self.language is not None and bool(_EXECUTE_VARIANT.fullmatch(self.language))

    @property
    def is_yaml_action(self) -> bool:
        """Educates' `terminal:execute` action, whose body is YAML."""
        return bool(self.language and self.language.startswith("terminal:"))

    @property
    def terminal(self) -> str | None:
        """The Educates terminal an `execute-N` / `execute-all` fence targets."""
        if self.language and "-" in self.language:
            return self.language.rsplit("-", 1)[1]
        return None


def parse_info(info: str) -> InfoString:
    """Split an (unescaped) info string into language and attributes."""
    info = info.strip()
    if not info:
        return InfoString(None)
    if info.startswith("{"):
        braced = _BRACED_LANGUAGE.match(info)
        language = braced.group(1).lower() if braced else None
        return InfoString(language)
    match = _EXECUTE_VARIANT.match(info.lower()) or _LANGUAGE.match(info)
    if match is None:  # the string starts with punctuation such as `,`
        return InfoString(None)
    language = sys.intern(match.group(0).lower())  # (one "bash" for 100,000 fences)
    rest_start = match.end()
    rest = info[rest_start:]
    stripped = rest.lstrip()
    if not stripped:
        return InfoString(language)
    offset = rest_start + len(rest) - len(stripped)
    return _with_attributes(language, stripped, offset)


def _with_attributes(language: str, rest: str, offset: int) -> InfoString:
    if rest.startswith("{") and _looks_like_json(rest):
        end = rest.rfind("}")
        candidate = rest[: end + 1] if end >= 0 else rest
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            return InfoString(
                language,
                attribute_error=f"invalid attribute JSON after `{language}`: {exc.msg}",
                attribute_error_column=offset + exc.pos,
            )
        if isinstance(value, dict):
            return InfoString(language, dict(value))
        return InfoString(language)
    attributes: dict[str, Any] = {}
    for key, raw in _KEY_VALUE.findall(rest):
        attributes[key] = _unquote(raw)
    return InfoString(language, attributes)


def _looks_like_json(rest: str) -> bool:
    inner = rest[1:].lstrip()
    return inner.startswith(('"', "}"))


def _unquote(raw: str) -> str:
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        inner = raw[1:-1]
        return re.sub(r"\\(.)", r"\1", inner) if raw[0] == '"' else inner
    return raw


def shell_for(name: object) -> ShellType | None:
    """A shell named in attributes or `execute` JSON (`"shell": "pwsh"`), if known."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower().rsplit("/", 1)[-1].removesuffix(".exe")
    if key in SHELL_LANGUAGES:
        return SHELL_LANGUAGES[key]
    try:
        return ShellType(key)
    except ValueError:
        return None
