"""The gate: may this command start a process, must a person say yes first, or never?

Every entry point that can start a process asks here and shows the reason text this
module writes, so the answer and its wording are the same everywhere: `aintern.run`,
`aintern.runAll`, `aintern.sendToTerminal`, `aintern.terminal.send`, `aintern-ls run`,
and the agent surfaces (MCP, language-model tools). The one deliberate exception is
`aintern.terminal.input`: raw keystrokes typed by the person at the terminal.

Pure: no LSP, no I/O. Two steps, usable separately:

- `check(command, shell, rules, env=...)` assesses a command together with the
  environment it would get (dangerous variable names are findings too);
- `decide(assessment, confirmation)` turns an assessment and how the caller confirmed
  into a `Decision`: `RUN`, `ASK` (a person must say yes first) or `REFUSE`.

The user's rules (`safety.extraBlocked`, `.extraDangerous`, `.trusted`) act inside the
assessment (`SafetyRules`, see `rules_from`): an `extraBlocked` match is blocked like a
built-in rule, a `trusted` prefix lowers only moderate findings.

Typical use::

    assessment = gate.check(block.command, shell, gate.rules_from(settings.safety), env)
    decision = gate.decide(assessment, gate.Confirmation.CAN_ASK)
    if decision.verdict is gate.Verdict.ASK:
        ...show decision.prompt, then decide again with CONFIRMED or DECLINED
    elif decision.verdict is gate.Verdict.REFUSE:
        raise SomeError(decision.reason + gate.hint_for(decision, "--yes"))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import attrs

import aintern_ls.safety as _safety
from aintern_ls.safety.levels import Assessment, Finding, RiskLevel, SafetyRules


class Verdict(enum.Enum):
    """What the entry point does next."""

    RUN = "run"
    ASK = "ask"
    REFUSE = "refuse"


class Confirmation(enum.Enum):
    """How the caller stands on confirming this command.

    - `NONE`: nobody confirmed and nobody can be asked (a client without
      `window/showMessageRequest`, the CLI without `--yes`, an agent without elicitation);
    - `CAN_ASK`: nobody confirmed yet, but a person can be asked now;
    - `CONFIRMED`: the caller said yes explicitly (`"confirmed": true`, `--yes`, or the
      person chose "Run anyway" for exactly this command);
    - `DECLINED`: the person was asked and said no;
    - `AT_PROMPT`: the text is only typed at an interactive prompt (`execute: false`);
      the person presses Enter or not, so dangerous text may be typed, blocked never.
    """

    NONE = "none"
    CAN_ASK = "can ask"
    CONFIRMED = "confirmed"
    DECLINED = "declined"
    AT_PROMPT = "at prompt"


class _Settings(Protocol):
    extra_blocked: list[str]
    extra_dangerous: list[str]
    trusted: list[str]


@attrs.frozen
class Decision:
    """The gate's answer for one command.

    `reason` is the one text every entry point shows (prefixed by the CLI with
    ``aintern-ls:``, answered as the JSON-RPC error message by the server); `hint_for`
    appends how this caller can confirm. `rules` are the rule ids of the findings at
    the deciding level, `prompt` the question to show when `verdict` is `ASK`.
    """

    verdict: Verdict
    level: RiskLevel
    reason: str
    rules: tuple[str, ...] = ()
    prompt: str = ""

    @property
    def needs_confirmation(self) -> bool:
        """True when the command only runs after a person's yes (dangerous or critical)."""
        return RiskLevel.DANGEROUS <= self.level < RiskLevel.BLOCKED

    @property
    def blocked(self) -> bool:
        return self.level >= RiskLevel.BLOCKED


def rules_from(settings: _Settings | None) -> SafetyRules:
    """The user's `aintern.safety` settings as the analyser's `SafetyRules`."""
    if settings is None:
        return SafetyRules()
    return SafetyRules(
        extra_blocked=settings.extra_blocked,
        extra_dangerous=settings.extra_dangerous,
        trusted=settings.trusted,
    )


# -- the environment a command gets ------------------------------------------------------

#: Variables that make a shell or the dynamic loader run code the analyser never sees,
#: or change which programs the command's words name.
DANGEROUS_ENV_NAMES = frozenset(
    {
        "BASH_ENV",
        "ENV",
        "PATH",
        "PROMPT_COMMAND",
        "SHELLOPTS",
        "BASHOPTS",
        "PS0",
        "PS1",
        "PS2",
        "PS4",
        "IFS",
        "CDPATH",
        "GLOBIGNORE",
        "HISTFILE",
        "ZDOTDIR",
        "HOME",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PERL5OPT",
        "PERL5LIB",
        "RUBYOPT",
        "NODE_OPTIONS",
        "JAVA_TOOL_OPTIONS",
        "GIT_SSH_COMMAND",
        "GIT_EXEC_PATH",
        "EDITOR",
        "VISUAL",
        "PAGER",
    }
)
_DANGEROUS_ENV_PATTERN = re.compile(r"^(?:LD_|DYLD_|BASH_FUNC_)|%%$|^PSModulePath$", re.I)


def env_findings(env: Mapping[str, str], offset: int = 0) -> list[Finding]:
    """Critical findings for environment variables that can run code by themselves.

    A span cannot point into the command text, so each finding spans `offset..offset`
    (callers pass the end of the command).
    """
    findings: list[Finding] = []
    for name in env:
        upper = name.upper()
        if upper in DANGEROUS_ENV_NAMES or _DANGEROUS_ENV_PATTERN.search(name):
            findings.append(
                Finding(
                    RiskLevel.CRITICAL,
                    "dangerous-env",
                    f"sets {name}, which can run code or change programs the analyser never sees",
                    offset,
                    offset,
                )
            )
    return findings


def with_findings(assessment: Assessment, extra: Iterable[Finding]) -> Assessment:
    """`assessment` with `extra` findings added (the highest level still wins)."""
    findings = tuple(assessment.findings) + tuple(extra)
    if not findings:
        return assessment
    ordered = tuple(sorted(findings, key=lambda f: (-f.level, f.start)))
    return Assessment(max(assessment.level, ordered[0].level), ordered)


def check(
    command: str,
    shell: str = "bash",
    rules: SafetyRules | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> Assessment:
    """Assess `command` as `shell` runs it, with `env` overlaid on the environment, in the
    working directory `cwd` when the caller knows it (relative paths are judged against it:
    a fence's `cwd=/` makes `rm -rf etc usr` a system wipe). Confirmations show the cwd
    (`RunPlan.describe`), so the person sees where the command will run.

    A command longer than `MAX_ANALYSED_CHARACTERS`, or with a word longer than
    `MAX_ANALYSED_WORD`, is not analysed: it is critical ("too long to analyse"),
    never safe, and answered at once (the analyser's time grows with such input).
    """
    too_long = _too_long(command)
    if too_long is not None:
        return with_findings(Assessment(RiskLevel.SAFE), [too_long, *env_findings(env or {})])
    if "\x00" in command:  # no program can receive it; execve would fail in the child
        at = command.index("\x00")
        nul = Finding(
            RiskLevel.BLOCKED, "nul-byte", "contains a NUL byte, which no shell can run", at, at + 1
        )
        return with_findings(Assessment(RiskLevel.SAFE), [nul, *env_findings(env or {})])
    if rules is not None and rules != SafetyRules():
        assessment = _safety.assess(command, shell, rules, cwd=cwd)
    else:
        assessment = _safety.assess(command, shell, cwd=cwd)
    extra = env_findings(env or {}, len(command))
    return with_findings(assessment, extra) if extra else assessment


#: Longest command the analyser reads (characters); longer is critical, unread.
MAX_ANALYSED_CHARACTERS = 256_000
#: Longest single word (run of non-blanks) the analyser reads: a base64 blob or minified
#: JSON in one word is critical, unread.
MAX_ANALYSED_WORD = 4_096


def _too_long(command: str) -> Finding | None:
    n = len(command)
    if n > MAX_ANALYSED_CHARACTERS:
        why = f"too long to analyse ({n} characters; the limit is {MAX_ANALYSED_CHARACTERS})"
    else:
        longest = max(map(len, command.split()), default=0)
        if longest <= MAX_ANALYSED_WORD:
            return None
        why = f"too long to analyse (a {longest}-character word; the limit is {MAX_ANALYSED_WORD})"
    return Finding(RiskLevel.CRITICAL, "too-long", why, 0, n)


# -- the verdict ---------------------------------------------------------------------------


def _level_of(finding: Any, default: RiskLevel) -> Any:
    return getattr(finding, "level", default)


def reasons(assessment: Assessment) -> tuple[tuple[str, ...], str]:
    """Rule ids and ``rule: reason; …`` text of the findings at the assessment's level."""
    worst = [f for f in assessment.findings if _level_of(f, assessment.level) == assessment.level]
    text = "; ".join(f"{f.rule}: {f.reason}" for f in worst)
    return tuple(f.rule for f in worst), text or _label(assessment.level)


def _label(level: Any) -> str:
    return str(getattr(level, "name", level)).lower()


def decide(assessment: Assessment, confirmation: Confirmation) -> Decision:
    """The verdict for a command with this assessment, given how the caller confirmed.

    - blocked: `REFUSE` whatever the confirmation;
    - dangerous or critical: `RUN` when `CONFIRMED` or `AT_PROMPT`, `ASK` when
      `CAN_ASK`, `REFUSE` when `DECLINED` or `NONE`;
    - moderate and safe: `RUN`.
    """
    level = RiskLevel(int(assessment.level))
    label = _label(level)
    rules, why = reasons(assessment)
    if level >= RiskLevel.BLOCKED:
        return Decision(Verdict.REFUSE, level, f"blocked, this command never runs: {why}", rules)
    if level >= RiskLevel.DANGEROUS:
        if confirmation in (Confirmation.CONFIRMED, Confirmation.AT_PROMPT):
            return Decision(Verdict.RUN, level, f"{label}, confirmed: {why}", rules)
        if confirmation is Confirmation.DECLINED:
            return Decision(
                Verdict.REFUSE, level, "not run: declined at the confirmation prompt", rules
            )
        reason = f"this command is {label} and runs only after confirmation: {why}"
        if confirmation is Confirmation.CAN_ASK:
            return Decision(
                Verdict.ASK, level, reason, rules, prompt=f"{label.capitalize()}: {why}"
            )
        return Decision(Verdict.REFUSE, level, reason, rules)
    return Decision(Verdict.RUN, level, label, rules)


def hint_for(decision: Decision, how_to_confirm: str) -> str:
    """What to add to a refusal so the caller knows how to confirm (nothing if it can't)."""
    if decision.verdict is Verdict.REFUSE and decision.needs_confirmation:
        if "declined" in decision.reason:
            return ""
        return f"; {how_to_confirm} if you are sure"
    return ""


#: What the LSP entry points add to a refusal that needs confirmation.
LSP_CONFIRM_HINT = 'your editor cannot show a confirmation, so run it again with "confirmed": true'
#: What `aintern-ls run` adds.
CLI_CONFIRM_HINT = "re-run with --yes to run it anyway"
