"""`assess`: the analyser's front door, with the cache that keeps unchanged fences un-parsed.

Picks the front end for the fence's shell, runs it over the whole text as one script,
and folds the findings into an `Assessment` (the highest level wins).
"""

from __future__ import annotations

import re
from functools import lru_cache, wraps

from aintern_ls.safety import bash, budget, cmd, dispatch, powershell, stack, stages
from aintern_ls.safety.context import Scope
from aintern_ls.safety.levels import Assessment, Finding, RiskLevel, SafetyRules
from aintern_ls.shells import FAMILIES

_FAMILIES = FAMILIES  # the one table of shells: `aintern_ls.shells`
# How a cut by the CPU clock (not by the step budget) starts its reason.
OUT_OF_TIME = "ran out of time to analyse on this machine"


def shell_family(shell: str | None) -> str:
    """`bash`, `console` (bash with prompts), `powershell` or `cmd` for any fence language."""
    key = str(getattr(shell, "value", shell) or "").strip().lower()
    return _FAMILIES.get(key, "bash")


def assess(
    command: str,
    shell: str = "bash",
    rules: SafetyRules | None = None,
    cwd: str | None = None,
) -> Assessment:
    """Judge a command or multi-line script; cached by (command, shell family, rules, cwd).

    `cwd` is the block's effective working directory when the caller knows it (a fence's
    `cwd=/` makes `rm -rf etc usr` a system wipe); relative paths are otherwise judged
    against an unknown directory."""
    family = shell_family(shell)
    return _assess_cached(command, family, rules, cwd or None)


def cache_clear() -> None:
    _assess_memo.cache_clear()


def _assess_once(
    command: str, family: str, rules: SafetyRules | None, cwd: str | None = None
) -> Assessment:
    # On a roomy stack chunk of its own unless the caller opened one (see `stack`): what
    # an analysis costs must not depend on how deep the caller happens to be.
    return stack.reserved(_assess_uncached, command, family, rules, cwd)


class _NotCached(Exception):
    """Carries a verdict out of `_assess_memo` without `lru_cache` keeping it."""

    def __init__(self, result: Assessment) -> None:
        super().__init__()
        self.result = result


def _cut_by_clock(result: Assessment) -> bool:
    """The CPU clock cut this text: its verdict depends on the machine's load at that
    moment, not on the text, so it is not remembered (review 16, finding 9)."""
    return result.level >= RiskLevel.CRITICAL and any(
        f.rule == "too-complex" and f.reason.startswith(OUT_OF_TIME) for f in result.findings
    )


@lru_cache(maxsize=8192)
def _assess_memo(
    command: str, family: str, rules: SafetyRules | None, cwd: str | None = None
) -> Assessment:
    result = _assess_once(command, family, rules, cwd)
    if _cut_by_clock(result):
        raise _NotCached(result)
    return result


@wraps(_assess_once)
def _assess_cached(
    command: str, family: str, rules: SafetyRules | None, cwd: str | None = None
) -> Assessment:
    """Cached by its arguments, except a verdict cut by the CPU clock: the next request
    judges the text again (`__wrapped__` is the uncached analysis, for the benches)."""
    try:
        return _assess_memo(command, family, rules, cwd)
    except _NotCached as cut:
        return cut.result


def _assess_uncached(
    command: str, family: str, rules: SafetyRules | None, cwd: str | None
) -> Assessment:
    budget.reset()
    if len(command) > budget.MAX_CHARS:
        return Assessment(
            RiskLevel.CRITICAL,
            (
                Finding(
                    RiskLevel.CRITICAL,
                    "too-long",
                    f"too long to analyse ({len(command):,} characters; the limit is "
                    f"{budget.MAX_CHARS:,}): check it by hand",
                    0,
                    len(command),
                ),
            ),
        )
    text = command
    if family == "console":
        text = _strip_prompts(text)
        family = "bash"
    scope = Scope(text, family, rules, _analyse_nested, judge=dispatch.judge_uncached)
    if cwd is not None:
        scope.start_cwd = cwd.replace("\\", "/") if family != "bash" else cwd
        scope.cwds = frozenset([scope.start_cwd])
    nul = text.find("\x00")
    if nul >= 0:
        scope.add(
            RiskLevel.CRITICAL,
            "nul-byte",
            "holds a NUL byte, which no shell passes on: what runs is not what is shown",
            nul,
            nul + 1,
        )
    budget.start(len(text))
    try:
        try:
            budget.spend(budget.text_price(len(text)))
            _run(text, family, scope)
        except RecursionError:
            scope.add(
                RiskLevel.CRITICAL, "too-complex", "too deeply nested to analyse", 0, len(command)
            )
        except budget.OutOfTime:
            # The CPU clock backstop (`budget`): same verdict as a step cut, its own reason.
            scope.add(
                RiskLevel.CRITICAL,
                "too-complex",
                f"{OUT_OF_TIME} ({budget.allowance_ms():.0f} ms of CPU for a text of its size):"
                " check it by hand",
                0,
                len(command),
            )
        except budget.TooComplex:
            scope.add(
                RiskLevel.CRITICAL,
                "too-complex",
                "too complex to analyse (more work than a text of its size may take):"
                " check it by hand",
                0,
                len(command),
            )
        # Folded, and the walk's objects let go, while the cycle collector is still paused
        # (`budget._pause_gc`): resumed with them alive, its next pass walked them all, up
        # to 20 ms after a cut 10,000-character text (sp16).
        result = _fold(scope.findings, len(command))
        del scope
    finally:
        budget.stop()
    return result


def _run(text: str, family: str, scope: Scope) -> None:
    cut = stages.cut_at(text, family)
    if cut >= 0:
        # A pipeline too long for the grammar (`stages`): what comes before it is judged.
        text = text[:cut]
    if family == "powershell":
        powershell.analyse(text, scope)
    elif family == "cmd":
        cmd.analyse(text, scope)
    else:
        bash.analyse(text, scope)
    if cut >= 0:
        raise budget.TooComplex


def _analyse_nested(code: str, family: str, scope: Scope) -> list[Finding]:
    # A nested analysis (`cmd /c "…"`, a LOLBin's command line, `sh -c '…'`) sets up a
    # scope of its own before any of its text is read: that is work too.
    budget.spend(budget.NESTED_STEPS)
    _run(code, family, scope)
    return scope.findings


def _fold(findings: list[Finding], length: int) -> Assessment:
    if not findings:
        return Assessment(RiskLevel.SAFE, ())
    # The first finding of each (rule, span) is kept, in the order they were found; a later
    # one of a higher level replaces it (wr10: code in a wrapper whose quoting differs from
    # the source puts all its findings on the wrapper's word, where a `dangerous` vm-destroy
    # found first hid the `blocked` one).
    firsts: dict[tuple[str, int, int], Finding] = {}
    for f in findings:
        key = (f.rule, f.start, f.end)
        seen = firsts.get(key)
        if seen is None or f.level > seen.level:
            firsts[key] = f
    unique = list(firsts.values())
    for i, f in enumerate(unique):
        if f.start < 0 or f.end > length or f.end < f.start:
            start = max(0, min(f.start, length))
            end = max(start, min(f.end, length))
            if (start, end) != (f.start, f.end):
                unique[i] = Finding(f.level, f.rule, f.reason, start, end)
    unique.sort(key=_fold_order)
    return Assessment(unique[0].level, tuple(unique))


def _fold_order(f: Finding) -> tuple[int, int]:
    return (-f.level, f.start)


_PROMPT = re.compile(r"^(\s*(?:\([\w.-]+\)\s*)?[\w@.~:/-]*[$%>] )", re.M)


def _strip_prompts(text: str) -> str:
    """Blank `$ `-style prompts (offsets kept). Lines without a prompt are analysed too:
    calling them output would let a pasted transcript hide a command (fail closed)."""
    if not _PROMPT.search(text):
        return text
    return "\n".join(
        " " * len(m.group(1)) + line[len(m.group(1)) :] if (m := _PROMPT.match(line)) else line
        for line in text.split("\n")
    )
