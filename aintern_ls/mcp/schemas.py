"""The MCP tools: names, descriptions, input schemas, annotations, and argument checks.

Schemas are written out (JSON Schema, `additionalProperties: false`) rather than
derived, so what a client sees is exactly what `check_arguments` enforces: a missing
field, a wrong type, a value out of range or an unknown key is refused with a message
naming the field, before any tool code runs.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from aintern_ls.errors import AInternError

SHELLS = ["bash", "sh", "zsh", "fish", "ksh", "powershell", "pwsh", "cmd"]
MAX_TIMEOUT_SECONDS = 600
MAX_PAGE = 100_000


@attrs.frozen
class ToolSpec:
    name: str
    title: str
    description: str
    properties: dict[str, dict[str, Any]]
    required: tuple[str, ...] = ()
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False

    @property
    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": self.properties,
            "additionalProperties": False,
        }
        if self.required:
            schema["required"] = list(self.required)
        return schema

    @property
    def annotations(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


def _string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


_TERMINAL_ID = _string("id of a terminal from terminal_create or terminal_list", minLength=1)
_SHELL = _string("shell to run it with (default: the fence's language, else bash)", enum=SHELLS)

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "check_command",
        "Check a shell command's risk",
        "Assess a shell command without running it: its risk level (safe, moderate, "
        "dangerous, critical, blocked), each finding with its rule id, reason and the "
        "part of the command it is about, and what run_command would do with it.",
        {
            "command": _string("the command or script text", minLength=1),
            "shell": _SHELL,
        },
        ("command",),
        idempotent=True,
    ),
    ToolSpec(
        "list_blocks",
        "List the command blocks of a Markdown file",
        "The shell command blocks (fences) of a Markdown runbook or AI chat transcript, "
        "each with its id, name, language, lines and risk level. Paths must be inside "
        "the client's workspace roots (or the server's directory).",
        {"path": _string("the Markdown file, absolute or relative to the workspace root")},
        ("path",),
        idempotent=True,
    ),
    ToolSpec(
        "run_command",
        "Run a shell command in a terminal",
        "Run a command (or a fence of a Markdown file, by path and blockId or name) in a "
        "fresh pseudo-terminal and return its exit code and clean output (colours and "
        "progress bars rendered, secrets redacted, long output cut in the middle with a "
        "marker; read_capture pages through all of it). Blocked commands never run; "
        "dangerous and critical ones run only after a person confirms. Times out after "
        "timeoutSeconds (default 120, at most 600) and still returns what it printed. A "
        "command that stops at a prompt waiting for input (a password, [y/N]) is stopped "
        "after 2 s and the result says so (waitingForInput): nothing can type into it.",
        {
            "command": _string("the command to run (or give path with blockId or name)"),
            "path": _string("a Markdown file whose block to run"),
            "blockId": _string("id of the block in path (from list_blocks)"),
            "name": _string("name of the block in path (its fence's name attribute)"),
            "cwd": _string("working directory (default: the block's cwd, else the workspace)"),
            "timeoutSeconds": {
                "type": "number",
                "minimum": 1,
                "maximum": MAX_TIMEOUT_SECONDS,
                "description": "seconds before the command is killed (default 120)",
            },
            "shell": _SHELL,
            "env": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "extra environment variables",
            },
        },
        read_only=False,
        destructive=True,
        open_world=True,
    ),
    ToolSpec(
        "read_capture",
        "Read a run's full output",
        "Page through the full (redacted) output of a run by its captureId, when the "
        "output run_command returned was cut.",
        {
            "captureId": _string("captureId from run_command", minLength=1),
            "offset": {"type": "integer", "minimum": 0, "description": "first character"},
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_PAGE,
                "description": f"characters to return (default and at most {MAX_PAGE})",
            },
        },
        ("captureId",),
        idempotent=True,
    ),
    ToolSpec(
        "terminal_create",
        "Open a terminal session",
        "Start a long-lived interactive shell (with shell integration, so each command's "
        "exit code and output are known). Returns its terminalId.",
        {
            "cwd": _string("working directory (default: the workspace)"),
            "shell": _string("bash (default), zsh, sh, fish, ksh, pwsh", enum=SHELLS),
            "title": _string("a title to recognise it by"),
        },
        read_only=False,
    ),
    ToolSpec(
        "terminal_send",
        "Type a command into a terminal",
        "Type text into a terminal session and press Enter. The text passes the same "
        "safety gate as run_command. With waitSeconds, wait for the command to finish "
        "and return its exit code and output.",
        {
            "terminalId": _TERMINAL_ID,
            "text": _string("the command line to type", minLength=1),
            "waitSeconds": {
                "type": "number",
                "minimum": 0,
                "maximum": MAX_TIMEOUT_SECONDS,
                "description": "wait up to this long for the command to finish (default 0)",
            },
        },
        ("terminalId", "text"),
        read_only=False,
        destructive=True,
        open_world=True,
    ),
    ToolSpec(
        "terminal_read",
        "Read a terminal's screen",
        "The last lines a terminal session shows, as a person sees them (escape "
        "sequences rendered, secrets redacted).",
        {
            "terminalId": _TERMINAL_ID,
            "lines": {
                "type": "integer",
                "minimum": 1,
                "maximum": 10_000,
                "description": "how many lines (default 100)",
            },
        },
        ("terminalId",),
    ),
    ToolSpec(
        "terminal_last_command",
        "The last command of a terminal",
        "The last finished command of a terminal session: its command line, exit code "
        "and clean output, from shell integration. With waitSeconds, wait for a "
        "running command to finish first.",
        {
            "terminalId": _TERMINAL_ID,
            "waitSeconds": {
                "type": "number",
                "minimum": 0,
                "maximum": MAX_TIMEOUT_SECONDS,
                "description": "wait up to this long for a running command (default 0)",
            },
        },
        ("terminalId",),
    ),
    ToolSpec(
        "terminal_list",
        "List terminal sessions",
        "The open terminal sessions with their ids, shells, directories and last exit codes.",
        {},
        idempotent=True,
    ),
    ToolSpec(
        "terminal_close",
        "Close a terminal session",
        "End a terminal session's shell and everything it started.",
        {"terminalId": _TERMINAL_ID},
        ("terminalId",),
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        "history",
        "Recent runs and refusals",
        "Recent runs (from this server and from the editor) and safety decisions "
        "(refused, asked, confirmed, declined), newest first.",
        {
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 1000,
                "description": "how many of each (default 20)",
            },
            "path": _string("only runs of blocks from this Markdown file"),
        },
        idempotent=True,
    ),
)

BY_NAME = {tool.name: tool for tool in TOOLS}

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int, float),  # 2.0 is a whole number; 2.5 is refused below
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
}


def check_arguments(tool: ToolSpec, arguments: Any) -> dict[str, Any]:
    """The arguments if they match the tool's schema; else an `AInternError` saying why."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise AInternError(f"{tool.name}: arguments must be a JSON object")
    problems: list[str] = []
    for name in tool.required:
        if arguments.get(name) is None:
            problems.append(f"missing required field {name!r}")
    for name, value in arguments.items():
        schema = tool.properties.get(name)
        if schema is None:
            known = ", ".join(tool.properties) or "none"
            problems.append(f"unknown field {name!r} (fields: {known})")
            continue
        if value is None:
            continue
        problem = _check_value(name, value, schema)
        if problem:
            problems.append(problem)
    if problems:
        raise AInternError(f"{tool.name}: invalid arguments: " + "; ".join(problems))
    return {k: v for k, v in arguments.items() if v is not None}


def _check_value(name: str, value: Any, schema: dict[str, Any]) -> str | None:
    kind = schema["type"]
    if isinstance(value, bool) and kind != "boolean":
        return f"{name!r} must be a {kind}, got a boolean"
    if not isinstance(value, _TYPES[kind]):
        article = "an" if kind[0] in "aeiou" else "a"
        return f"{name!r} must be {article} {kind}, got {_json_type(value)}"
    if kind == "integer" and isinstance(value, float) and not value.is_integer():
        return f"{name!r} must be a whole number"
    if kind in ("integer", "number"):
        if isinstance(value, float) and not math.isfinite(value):
            return f"{name!r} must be a finite number"
        if "minimum" in schema and value < schema["minimum"]:
            return f"{name!r} must be at least {schema['minimum']}, got {value}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{name!r} must be at most {schema['maximum']}, got {value}"
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return f"{name!r} must not be empty"
        if "enum" in schema and value.lower() not in schema["enum"]:
            return f"{name!r} must be one of {', '.join(schema['enum'])}, got {value!r}"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(item, str):
                return f"{name}.{key} must be a string, got {_json_type(item)}"
    return None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)
