"""The run plan: block + document location + settings + caller overrides -> `RunRequest`,
and after the run, the `CommandResult`.

One place decides how a block runs (shell, working directory, environment, timeout),
so a fence's `timeout=30s` or `cwd=app` means the same through `aintern.run`,
`aintern.runAll`, `aintern.sendToTerminal`, `aintern-ls run` and the agent surfaces.
Knows nothing about LSP.

- `BlockOptions.parse(block.options)`: the fence attributes, read once and typed
  (`name`, `cwd`, `timeout`, `env`, `interactive`, `background`, `excludeFromRunAll`,
  `promptEnv`); keys it does not know are kept in `unknown` and reported by the
  diagnostics as information, values it cannot read in `problems`.
- `plan_run(block, document_dir=..., settings=..., overrides=...)` -> `RunPlan`: the
  `RunRequest` plus `shown`, the exact text a confirmation shows and is bound to.
- `validate_request(request)`: refuses NUL bytes, `=` in variable names and unencodable
  text before anything forks.
- `plan_command(command, settings=..., shell=..., cwd=...)`: the same for a command
  that is no document's block (agents).
- `assess_plan(plan, rules)` / `decide_plan(plan, rules, confirmation)`: the gate's
  assessment of / verdict on what will really run (command and environment); see
  `aintern_ls.safety.gate`. Bind a confirmation to `plan.shown`: if it differs after
  the answer, decide again.
- `result_of(block, run)` / `declined_result(block)`: the `CommandResult` of a run.
- `keep_capture(captures, ...)`: keep a run's output as a capture (`captureId`).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from typing import Any

import attrs

from aintern_ls.capture import CaptureService
from aintern_ls.capture.redaction import redact_str
from aintern_ls.config import Settings
from aintern_ls.errors import AInternError
from aintern_ls.models import (
    CommandBlock,
    CommandBlockStatus,
    CommandResult,
    OutputCaptureMode,
    TerminalOutputCapture,
)
from aintern_ls.safety import Assessment, SafetyRules, gate
from aintern_ls.shells import RUNNABLE_SHELLS
from aintern_ls.terminal.runner import RunRequest, RunResult

# -- fence attributes ------------------------------------------------------------------

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$", re.IGNORECASE)


def parse_duration(value: object) -> float | None:
    """Seconds from a Runme-style timeout ("30s", "2m", "500ms", 45); None if absent."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise AInternError(f"cannot read timeout {value!r}; write it like 30s, 2m or 45")
    if isinstance(value, int | float):
        return float(value)
    match = _DURATION.match(str(value))
    if not match:
        raise AInternError(f"cannot read timeout {value!r}; write it like 30s, 2m or 45")
    number = float(match.group(1))
    unit = (match.group(2) or "s").lower()
    return number * {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}[unit]


def _flag(value: object) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"expected true or false, got {value!r}")


def _env(value: object) -> dict[str, str]:
    """`{"A": "1"}` or `"A=1 B=2"` (Runme writes both)."""
    if value is None or value == "":
        return {}
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, str):
        out: dict[str, str] = {}
        for part in value.split():
            name, sep, val = part.partition("=")
            if not sep or not name:
                raise ValueError(f"expected NAME=value pairs, got {part!r}")
            out[name] = val
        return out
    raise ValueError(f"expected an object or NAME=value pairs, got {value!r}")


#: Keys extraction itself consumes (the fence's shell, Educates' terminal, seed 004's
#: risk hint): known, not reported.
_CONSUMED = frozenset({"shell", "terminal", "riskLevel", "risk_level"})


@attrs.frozen
class BlockOptions:
    """A fence's attributes (Runme style), typed. Read with `BlockOptions.parse`."""

    name: str | None = None
    cwd: str | None = None
    timeout_seconds: float | None = None
    env: Mapping[str, str] = attrs.field(factory=dict)
    interactive: bool | None = None
    background: bool = False
    exclude_from_run_all: bool = False
    prompt_env: bool | None = None
    unknown: Mapping[str, Any] = attrs.field(factory=dict)
    """Attributes this version does not act on, kept as written."""
    problems: tuple[str, ...] = ()
    """Attributes whose value could not be read (the attribute is then ignored)."""

    @classmethod
    def parse(cls, attributes: Mapping[str, Any] | None) -> BlockOptions:
        """Read fence attributes; never raises (bad values land in `problems`)."""
        values: dict[str, Any] = {}
        unknown: dict[str, Any] = {}
        problems: list[str] = []
        readers: dict[str, tuple[str, Any]] = {
            "name": ("name", lambda v: None if v is None else str(v)),
            "cwd": ("cwd", lambda v: None if v in (None, "") else str(v)),
            "timeout": ("timeout_seconds", parse_duration),
            "env": ("env", _env),
            "interactive": ("interactive", _flag),
            "background": ("background", lambda v: bool(_flag(v))),
            "excludeFromRunAll": ("exclude_from_run_all", lambda v: bool(_flag(v))),
            "promptEnv": ("prompt_env", _flag),
        }
        for key, value in (attributes or {}).items():
            reader = readers.get(key)
            if reader is None:
                if key not in _CONSUMED:
                    unknown[key] = value
                continue
            field, read = reader
            try:
                values[field] = read(value)
            except (AInternError, ValueError, TypeError) as exc:
                problems.append(f"fence attribute {key}: {exc}")
        return cls(**values, unknown=unknown, problems=tuple(problems))


# -- working directory -----------------------------------------------------------------


def resolve_against(cwd: str | None, base: str | None) -> str | None:
    """`cwd` (`~` expanded) relative to `base`; `base` itself when `cwd` is empty.

    The one place a block's or caller's working directory is anchored: a fence's
    `cwd=app` is relative to its document's folder, `aintern-ls run --cwd` to the
    shell's current directory. The runner then resolves symlinks and checks
    `allowedDirectories` (`terminal.runner.resolve_cwd`).
    """
    if not cwd:
        return base
    cwd = os.path.expanduser(cwd)
    if base is not None and not os.path.isabs(cwd):
        return os.path.join(base, cwd)
    return cwd


# -- the plan -------------------------------------------------------------------------


@attrs.frozen
class RunOverrides:
    """What the caller asks for on top of the block: each wins over the fence's value.

    `cwd` is relative to `cwd_base` (default: the document's folder).
    """

    cwd: str | None = None
    cwd_base: str | None = None
    timeout_seconds: float | None = None
    env: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class RunPlan:
    """How one block will run, and what a person confirming it is shown."""

    block_id: str
    request: RunRequest
    options: BlockOptions
    assess_shell: str

    @property
    def shown(self) -> tuple[Any, ...]:
        """Everything a confirmation is bound to: if any of it changes, ask again."""
        r = self.request
        return (
            r.command,
            r.shell,
            r.cwd,
            tuple(sorted(r.env.items())),
            r.timeout_seconds,
            self.assess_shell,
            repr(sorted(self.options.unknown.items())),
            self.options.background,
            self.options.interactive,
        )

    def describe(self) -> str:
        """The lines a confirmation shows below the command: where, with which env."""
        r = self.request
        parts = [f"shell: {r.shell}", f"cwd: {r.cwd or '(server directory)'}"]
        if r.env:
            parts.append("env: " + " ".join(f"{k}={v}" for k, v in sorted(r.env.items())))
        return "\n".join(parts)


def block_shell(block: CommandBlock) -> str:
    """The shell name the analyser judges a block as (the fence's language)."""
    return block.shell_type.value if block.shell_type else (block.language or "bash")


def plan_run(
    block: CommandBlock,
    *,
    document_dir: str | None,
    settings: Settings,
    overrides: RunOverrides | None = None,
) -> RunPlan:
    """The `RunRequest` for `block`: caller overrides, then fence attributes, then settings.

    - cwd: `overrides.cwd` (relative to `overrides.cwd_base` or the document's folder),
      else the fence's `cwd` / the execute block's working directory (relative to the
      document's folder), else the document's folder;
    - timeout: `overrides.timeout_seconds`, else the fence's `timeout`, else
      `settings.timeout_seconds`;
    - env: the fence's `env`, then `overrides.env` on top;
    - shell: the fence's shell, else `settings.shell`, else bash.
    """
    over = overrides or RunOverrides()
    options = BlockOptions.parse(block.options)
    if options.problems:
        raise AInternError("; ".join(options.problems) + "; fix the fence's attributes")
    if over.cwd:
        cwd = resolve_against(over.cwd, over.cwd_base or document_dir)
    else:
        cwd = resolve_against(options.cwd or block.working_directory, document_dir)
    if over.timeout_seconds is not None:
        timeout = over.timeout_seconds
    elif options.timeout_seconds is not None:
        timeout = options.timeout_seconds
    else:
        timeout = settings.timeout_seconds
    env = {**options.env, **over.env}
    request = RunRequest(
        command=block.command,
        shell=block.shell_type.value if block.shell_type else (settings.shell or "bash"),
        cwd=cwd,
        env=env,
        timeout_seconds=timeout,
        allowed_directories=list(settings.allowed_directories),
        max_output_characters=settings.max_output_characters,
    )
    return RunPlan(block.id, request, options, block_shell(block))


def plan_command(
    command: str,
    *,
    settings: Settings,
    shell: str | None = None,
    cwd: str | None = None,
    cwd_base: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout_seconds: float | None = None,
    run_id: str = "command",
) -> RunPlan:
    """A plan for a command that is not a document's block (an agent's `run_command`).

    Same rules as `plan_run`: `cwd` relative to `cwd_base`, timeout from the caller or
    the settings, shell from the caller, the settings, or bash.
    """
    name = shell or settings.shell or "bash"
    request = RunRequest(
        command=command,
        shell=name,
        cwd=resolve_against(cwd, cwd_base),
        env=dict(env or {}),
        timeout_seconds=(
            timeout_seconds if timeout_seconds is not None else settings.timeout_seconds
        ),
        allowed_directories=list(settings.allowed_directories),
        max_output_characters=settings.max_output_characters,
    )
    return RunPlan(run_id, request, BlockOptions(), name)


def decide_plan(
    plan: RunPlan, rules: SafetyRules | None, confirmation: gate.Confirmation
) -> gate.Decision:
    """`gate.decide(assess_plan(plan, rules), confirmation)`: the verdict on a plan."""
    return gate.decide(assess_plan(plan, rules), confirmation)


def assess_plan(plan: RunPlan, rules: SafetyRules | None) -> Assessment:
    """The gate's assessment of what `plan` runs: its command and its environment."""
    return gate.check(
        plan.request.command, plan.assess_shell, rules, plan.request.env, plan.request.cwd
    )


# -- validation before any fork --------------------------------------------------------


def _check_text(what: str, text: str) -> None:
    if "\x00" in text:
        raise AInternError(f"{what} contains a NUL byte, which no program can receive")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AInternError(
            f"{what} contains a lone surrogate (invalid Unicode), which cannot be encoded"
        ) from None


def validate_request(request: RunRequest) -> None:
    """Refuse what `execve` cannot take, before anything forks (clear `AInternError`)."""
    _check_text("the command", request.command)
    if request.cwd is not None:
        _check_text("the working directory", request.cwd)
    for name, value in request.env.items():
        _check_text(f"the environment variable name {name!r}", name)
        if not name or "=" in name:
            raise AInternError(
                f"environment variable name {name!r} is invalid: it must be non-empty "
                "and contain no '='"
            )
        _check_text(f"the value of environment variable {name}", value)


def validate_text(what: str, text: str | None) -> None:
    """Refuse NUL bytes and lone surrogates in one string (cwd, shell, text to type)."""
    if text is not None:
        _check_text(what, text)


# -- after the run ---------------------------------------------------------------------


def result_of(block: CommandBlock, run: RunResult) -> CommandResult:
    """The `CommandResult` the editor gets for a finished run of `block`."""
    if run.cancelled or run.timed_out:
        status = CommandBlockStatus.CANCELLED
    elif run.exit_code == 0:
        status = CommandBlockStatus.EXECUTED
    else:
        status = CommandBlockStatus.FAILED
    return CommandResult(
        block_id=block.id,
        command=block.command,
        status=status,
        exit_code=run.exit_code,
        output=run.output,
        was_truncated=run.was_truncated,
        original_length=run.original_length,
        duration_ms=run.duration_ms,
        cwd=run.cwd,
        timed_out=run.timed_out,
        cancelled=run.cancelled,
        signal=run.signal,
    )


def not_run_result(block: CommandBlock, reason: str, *, cancelled: bool = True) -> CommandResult:
    """The result of a block the gate or the person did not let run.

    `cancelled` is true when a person declined; a refusal by the gate (blocked, or no
    way to confirm) has `cancelled` false and no exit code.
    """
    return CommandResult(
        block_id=block.id,
        command=block.command,
        status=block.status,
        cancelled=cancelled,
        output=reason if reason.startswith("not run") else f"not run: {reason}",
    )


@attrs.frozen
class RunView:
    """A finished one-shot run as the capture service sees it."""

    session_id: str
    name: str | None
    cwd: str | None
    output: str

    def buffer_text(self) -> str:
        return self.output


def keep_capture(
    captures: CaptureService, block_id: str, command: str, run: RunResult
) -> TerminalOutputCapture:
    """Keep a run's output as a capture (cleaned and cut per the capture settings), so
    the AI panel can fetch it later by the `captureId` of the run's result."""
    name = redact_str(command).split("\n", 1)[0][:60]  # redacted before it is cut
    view = RunView(f"run:{block_id}", name, run.cwd, run.output)
    capture = captures.capture_buffer(view, OutputCaptureMode.FULL_BUFFER)
    capture.capture_mode = OutputCaptureMode.LAST_COMMAND
    capture.command_block_id = block_id
    capture.command = command
    capture.exit_code = run.exit_code
    capture.original_length = max(capture.original_length, run.original_length)
    capture.is_truncated = capture.is_truncated or run.was_truncated
    return capture


# -- terminal shells ---------------------------------------------------------------------

KNOWN_SESSION_SHELLS = RUNNABLE_SHELLS


def _trusted_shell_paths() -> set[str]:
    paths: set[str] = set()
    try:
        with open("/etc/shells", encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    paths.add(os.path.realpath(line))
    except OSError:
        pass
    for name in KNOWN_SESSION_SHELLS:
        found = shutil.which(name)
        if found:
            paths.add(os.path.realpath(found))
    return paths


def check_session_shell(shell: str | None) -> None:
    """Refuse a terminal shell that is not a known shell installed on this machine.

    A bare name (`bash`, `zsh`) is looked up on PATH by the session; a path must resolve
    to the same file as a shell listed in /etc/shells or found on PATH, so an arbitrary
    executable that happens to be named `bash` is never started.
    """
    if shell is None:
        return
    validate_text("the shell", shell)
    name = os.path.basename(shell).lower().removesuffix(".exe")
    if name not in KNOWN_SESSION_SHELLS:
        raise AInternError(
            f"unsupported terminal shell {shell!r}; use one of {', '.join(KNOWN_SESSION_SHELLS)}"
        )
    is_path = os.sep in shell or bool(os.altsep and os.altsep in shell)
    if is_path and os.path.realpath(shell) not in _trusted_shell_paths():
        raise AInternError(
            f"shell {shell!r} is not an installed shell (not in /etc/shells nor on PATH); "
            f"pass a shell name such as {name!r}"
        )
