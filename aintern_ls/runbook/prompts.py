"""Before a run, ask the client for the values of a block's placeholders.

The server sends the request `aintern/promptValues`

    {uri, blockId, command, placeholders: [{name, kind, text}]}

(`kind`: `angle` for `<your-token>`, `upper` for `YOUR_API_KEY`, `template` for
`{{var}}`, `variable` for `$FOO`/`${FOO}` not set in the run's environment; `text` is
the placeholder as written) and the client answers

    {values: [{name, value, secret?}, ...]}    or null to cancel the run.

Values never reach the document or the history: a variable's value goes into the
run's environment, and a text placeholder is replaced in the command that runs by a
reference to an environment variable holding the value (`${AINTERN_VALUE_1}`,
`${env:AINTERN_VALUE_1}` in PowerShell, `%AINTERN_VALUE_1%` in cmd). Values the user
marks secret are replaced in the run's output by `[REDACTED:prompt:NAME]`.

A fence's `promptEnv` attribute (as in Runme) decides: absent, the client is asked
for placeholders and unset variables; `true` asks for every variable the command
uses even when set; `false` runs the command as written. A client
that does not answer the request (method not found) gets the run refused with what
to do when the command has text placeholders (running `<your-token>` as written
would be a redirection); unset variables alone run as before.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import attrs
from pygls.exceptions import JsonRpcException

from aintern_ls.documents import Document
from aintern_ls.errors import AInternError
from aintern_ls.extraction import placeholders
from aintern_ls.models import CommandBlock, CommandResult, ShellType
from aintern_ls.terminal.runner import RunResult

if TYPE_CHECKING:
    from aintern_ls.server import AInternServer

PROMPT_METHOD = "aintern/promptValues"
_NEVER = frozenset({"never", "false", "no", "0", "off"})
_ALWAYS = frozenset({"always", "true", "yes", "1", "on"})


@attrs.define
class Filled:
    command: str
    env: dict[str, str] = attrs.field(factory=dict)
    secrets: dict[str, str] = attrs.field(factory=dict)
    """name -> value of the values to redact from the output."""
    values: dict[str, str] = attrs.field(factory=dict)
    """name -> every value typed (secret or not): kept out of the history."""
    cancelled: bool = False


def _reference(shell: ShellType | None, name: str) -> str:
    if shell is ShellType.POWERSHELL:
        return f"${{env:{name}}}"
    if shell is ShellType.CMD:
        return f"%{name}%"
    if shell is ShellType.FISH:
        return f"${name}"
    return f"${{{name}}}"


async def fill(
    ls: AInternServer, doc: Document, block: CommandBlock, env: dict[str, str]
) -> Filled:
    """The command to run and the environment it needs, after asking the client."""
    mode = str(block.options.get("promptEnv", "auto")).strip().lower()
    if mode in _NEVER:
        return Filled(block.command)
    block_env = block.options.get("env")
    run_env = {**os.environ, **(block_env if isinstance(block_env, dict) else {}), **env}
    posix = placeholders.is_posix(block.shell_type)
    found = placeholders.find(block.command, {} if mode in _ALWAYS else run_env, posix=posix)
    if not found:
        return Filled(block.command)
    asked: dict[str, placeholders.Placeholder] = {}
    for placeholder in found:
        asked.setdefault(placeholder.name, placeholder)
    params = {
        "uri": doc.uri,
        "blockId": block.id,
        "command": block.command,
        "placeholders": [
            {"name": p.name, "kind": p.kind, "text": block.command[p.start : p.end]}
            for p in asked.values()
        ],
    }
    why = "does not announce it (experimental.aintern.promptValues)"
    if _client_prompts(ls):
        try:
            answer: Any = await ls.protocol.send_request_async(PROMPT_METHOD, params)
        except JsonRpcException as exc:
            why = f"did not answer it ({exc})"
        else:
            return _filled(block, found, asked, answer)
    texts = [p for p in asked.values() if p.kind != "variable"]
    if not texts:
        return Filled(block.command)  # unset variables alone: run as written
    shown = ", ".join(block.command[p.start : p.end] for p in texts)
    raise AInternError(
        f"this command has placeholders to fill in ({shown}); the editor asks for their "
        f"values through {PROMPT_METHOD}, which this client {why}: edit the fence, use a "
        "client that asks (the aintern VS Code and Neovim clients do), or set "
        "promptEnv=false on the fence to run it as written"
    )


def _client_prompts(ls: Any) -> bool:
    """Whether the client said it answers `aintern/promptValues`
    (`capabilities.experimental.aintern.promptValues: true`)."""
    experimental = ls.client_capabilities.experimental
    aintern = _field(experimental, "aintern") if experimental is not None else None
    return bool(_field(aintern, "promptValues")) if aintern is not None else False


def _filled(
    block: CommandBlock,
    found: list[placeholders.Placeholder],
    asked: dict[str, placeholders.Placeholder],
    answer: Any,
) -> Filled:
    if answer is None:
        return Filled(block.command, cancelled=True)
    values: dict[str, str] = {}
    secret: set[str] = set()
    for item in _field(answer, "values") or []:
        name, value = _field(item, "name"), _field(item, "value")
        if isinstance(name, str) and isinstance(value, str):
            values[name] = value
            if _field(item, "secret"):
                secret.add(name)
    missing = [name for name in asked if not isinstance(values.get(name), str)]
    if missing:
        raise AInternError(f"no value given for {', '.join(missing)}; the block did not run")
    filled = Filled(block.command)
    references: dict[str, str] = {}
    for number, (name, placeholder) in enumerate(asked.items(), 1):
        value = str(values[name])
        if placeholder.kind == "variable":
            filled.env[name] = value
        else:
            variable = f"AINTERN_VALUE_{number}"
            filled.env[variable] = value
            references[name] = _reference(block.shell_type, variable)
        if value:
            filled.values[name] = value
        if name in secret and value:
            filled.secrets[name] = value
    command = block.command
    for placeholder in sorted(found, key=lambda p: p.start, reverse=True):
        if placeholder.kind != "variable":
            reference = references[placeholder.name]
            command = command[: placeholder.start] + reference + command[placeholder.end :]
    filled.command = command
    return filled


def _field(obj: Any, name: str) -> Any:
    """A field of a JSON object from the client (a dict, or pygls' namedtuple)."""
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _replace(text: str, values: dict[str, str], marker: str, *, short_as_words: bool) -> str:
    """`text` with each value replaced by `marker` (formatted with its name); with
    `short_as_words`, a value shorter than three characters only where it stands as a
    whole word, so answering `y` does not garble every `y` in the output."""
    for name, value in sorted(values.items(), key=lambda kv: -len(kv[1])):
        if not value:
            continue
        if len(value) >= 3 or not short_as_words:
            text = text.replace(value, marker.format(name=name))
        else:
            shown = marker.format(name=name).replace("\\", "\\\\")  # literal in re.sub
            text = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", shown, text)
    return text


def for_history(result: CommandResult, values: dict[str, str]) -> CommandResult:
    """The result as the history keeps it: no value typed at the prompt, secret or not,
    is stored (the editor showed the output as it was; the history shows `[value:NAME]`)."""
    if not values or not result.output:
        return result
    output = _replace(result.output, values, "[value:{name}]", short_as_words=True)
    return attrs.evolve(result, output=output)


def redact(run: RunResult, secrets: dict[str, str]) -> RunResult:
    """The run with the values the user marked secret replaced in its output."""
    if not secrets:
        return run
    return attrs.evolve(
        run, output=_replace(run.output, secrets, "[REDACTED:prompt:{name}]", short_as_words=False)
    )
