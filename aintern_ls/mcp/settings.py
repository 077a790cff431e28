"""Settings of `aintern-ls mcp`: the language server's settings, read from files.

An MCP client has no `initializationOptions` for us, so the same `aintern` settings
(camelCase, exactly what an editor sends the language server) are read from two files
and structured by the one loader, `aintern_ls.config.load_settings`:

- the user file: ``$XDG_CONFIG_HOME/aintern-ls/settings.json`` (platformdirs'
  user config dir; ``%APPDATA%\\aintern-ls`` on Windows, ``~/Library/Application
  Support/aintern-ls`` on macOS), or the file given with ``--settings``;
- the workspace file: ``.aintern.json`` in the workspace root (``--workspace``,
  default the directory the client starts the server in).

Either file holds the settings object itself or ``{"aintern": {...}}``.

A workspace file comes with the repository, so it may only *tighten* the policy:
its `safety.extraBlocked`/`extraDangerous`/`trusted` are added to the user's (trusted
prefixes only ever lower *moderate* findings, which run without asking anyway), it
sets `allowedDirectories` only when the user file does not, and it cannot touch the
MCP-only key `mcp` (below). Every other setting in the workspace file wins.

The MCP-only key ``mcp`` (user file only)::

    "mcp": {"confirmation": "elicitation"}   # default: a person answers an MCP form
    "mcp": {"confirmation": "client"}        # weaker: trust the client's own approval

``client`` lets dangerous and critical commands run on the strength of the MCP client's
per-call tool approval. That is weaker: a client in auto-approve ("YOLO") mode asks
nobody. Blocked commands never run in either mode.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs
import platformdirs

from aintern_ls.config import Settings, load_settings
from aintern_ls.errors import AInternError

WORKSPACE_FILE = ".aintern.json"
USER_FILE = "settings.json"
CONFIRMATIONS = ("elicitation", "client")


@attrs.define
class McpSettings:
    """The language-server settings plus the MCP-only ones, and where they came from."""

    settings: Settings = attrs.field(factory=Settings)
    confirmation: str = "elicitation"
    sources: list[str] = attrs.field(factory=list)
    problems: list[str] = attrs.field(factory=list)


def user_settings_path() -> Path:
    return Path(platformdirs.user_config_dir("aintern-ls")) / USER_FILE


def _read(path: Path) -> dict[str, Any] | None:
    """The `aintern` object of a settings file; None when the file does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AInternError(f"cannot read settings file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise AInternError(f"settings file {path} is not valid JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("aintern"), dict):
        data = data["aintern"]
    if not isinstance(data, dict):
        raise AInternError(f"settings file {path} must hold a JSON object")
    return data


def _merge(user: dict[str, Any], workspace: dict[str, Any]) -> dict[str, Any]:
    merged = dict(user)
    for key, value in workspace.items():
        if key == "mcp":
            continue
        if key == "allowedDirectories" and user.get("allowedDirectories"):
            continue
        if key == "safety" and isinstance(value, dict) and isinstance(user.get("safety"), dict):
            safety = dict(user["safety"])
            for name, extra in value.items():
                mine = safety.get(name)
                if isinstance(mine, list) and isinstance(extra, list):
                    safety[name] = [*mine, *(e for e in extra if e not in mine)]
                else:
                    safety[name] = extra
            merged["safety"] = safety
            continue
        merged[key] = value
    return merged


def load_mcp_settings(
    workspace: str | os.PathLike[str], user_file: str | None = None
) -> McpSettings:
    """Read the user and workspace files (both optional) into `McpSettings`.

    A broken file is an `AInternError` (the server does not start on a policy it
    cannot read); a bad value inside a readable file falls back to its default and is
    reported in `problems`, like the language server does.
    """
    sources: list[str] = []
    user_path = Path(user_file) if user_file else user_settings_path()
    user = _read(user_path)
    if user is None and user_file:
        raise AInternError(f"settings file {user_path} does not exist")
    if user is not None:
        sources.append(str(user_path))
    workspace_path = Path(workspace) / WORKSPACE_FILE
    project = _read(workspace_path)
    if project is not None:
        sources.append(str(workspace_path))
    raw = _merge(user or {}, project or {})
    problems: list[str] = []
    mcp = raw.pop("mcp", None)
    confirmation = "elicitation"
    if mcp is not None:
        value = mcp.get("confirmation") if isinstance(mcp, dict) else None
        if value in CONFIRMATIONS:
            confirmation = str(value)
        else:
            problems.append(
                f"aintern.mcp.confirmation must be one of {', '.join(CONFIRMATIONS)}; "
                f"got {value!r}, using elicitation"
            )
    settings, more = load_settings(raw)
    if settings.history_path:
        settings.history_path = os.path.expanduser(settings.history_path)
    return McpSettings(settings, confirmation, sources, problems + more)
