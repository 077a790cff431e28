"""```` ```execute ```` fences: the JSON request of seed 004
(`{command, workingDir, explanation, riskLevel}`) or, as workshop tools such as
Educates use them, a plain command body (`execute`, `execute-2`, `execute-all`) or
a small YAML action (`terminal:execute` with `command:` and `session:`).
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from typing import Any

import attrs

from aintern_ls.extraction.info import shell_for
from aintern_ls.models import ShellType

_COMMAND_KEYS = ("command", "cmd")
_CWD_KEYS = ("workingDir", "workingDirectory", "cwd", "working_dir")
_DESCRIPTION_KEYS = ("explanation", "description")


@attrs.frozen
class ExecuteRequest:
    """A command read from an `execute` fence's JSON object."""

    command: str
    working_directory: str | None
    description: str | None
    shell_type: ShellType
    options: dict[str, Any]


@attrs.frozen
class ExecuteError:
    """Why an `execute` JSON body is unusable, and where (offset into the body)."""

    message: str
    offset: int


def is_json_body(body: str) -> bool:
    return body.lstrip().startswith("{")


def parse_execute_json(body: str) -> ExecuteRequest | ExecuteError:
    """Read the JSON object of an `execute` fence; never raises."""
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        return ExecuteError(f"invalid JSON in execute block: {exc.msg}", exc.pos)
    except RecursionError:  # pathologically nested input
        return ExecuteError("invalid JSON in execute block: nested too deeply", 0)
    start = len(body) - len(body.lstrip())
    if not isinstance(value, dict):
        return ExecuteError("execute block JSON must be an object", start)
    command = _first_str(value, _COMMAND_KEYS)
    argv = value.get("command")
    if command is None and isinstance(argv, list) and all(isinstance(a, str) for a in argv):
        command = shlex.join(argv)  # `["ls", "-la"]`: an argument vector
    if command is None or not command.strip():
        return ExecuteError('execute block JSON has no "command" string', start)
    known = {*_COMMAND_KEYS, *_CWD_KEYS, *_DESCRIPTION_KEYS, "shell"}
    options = {key: item for key, item in value.items() if key not in known}
    return ExecuteRequest(
        command=command.strip("\n"),
        working_directory=_first_str(value, _CWD_KEYS),
        description=_first_str(value, _DESCRIPTION_KEYS),
        shell_type=shell_for(value.get("shell")) or ShellType.BASH,
        options=options,
    )


def _first_str(value: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        item = value.get(key)
        if isinstance(item, str):
            return item
    return None


_YAML_KEY = re.compile(r"([A-Za-z_][\w-]*):(?:[ \t]+(.*))?$")
_BLOCK_SCALAR = frozenset({"|", "|-", "|+", ">", ">-", ">+"})


def parse_action_yaml(body: str) -> ExecuteRequest | ExecuteError:
    """Read an Educates `terminal:execute` action: top-level `key: value` lines,
    block scalars (`command: |`) for multi-line commands."""
    fields: dict[str, str] = {}
    lines = body.split("\n")
    index = 0
    while index < len(lines):
        match = _YAML_KEY.match(lines[index])
        index += 1
        if match is None:
            continue
        key, value = match.group(1), (match.group(2) or "").strip()
        if value in _BLOCK_SCALAR or not value:
            block: list[str] = []
            while index < len(lines) and (
                not lines[index].strip() or lines[index].startswith((" ", "\t"))
            ):
                block.append(lines[index])
                index += 1
            fields[key] = textwrap.dedent("\n".join(block)).strip("\n")
        else:
            fields[key] = _unquote_yaml(value)
    command = fields.pop("command", "")
    if not command.strip():
        return ExecuteError('terminal:execute block has no "command:"', 0)
    return ExecuteRequest(command, None, fields.pop("description", None), ShellType.BASH, fields)


def _unquote_yaml(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value
