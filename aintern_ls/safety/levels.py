"""The vocabulary of the analyser's answers: risk levels, findings, assessments, user rules."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs


class RiskLevel(enum.IntEnum):
    """How much harm running a command can do; higher wins when a command has many parts."""

    SAFE = 0
    MODERATE = 1
    DANGEROUS = 2
    CRITICAL = 3
    BLOCKED = 4

    @property
    def label(self) -> str:
        """The lowercase name used in JSON and diagnostics ("safe", "blocked", ...)."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> RiskLevel:
        """Inverse of `label`; raises KeyError for an unknown name."""
        return cls[label.strip().upper()]


# Short names for the rule tables, where levels fill every other line.
S, M, D, C, B = (
    RiskLevel.SAFE,
    RiskLevel.MODERATE,
    RiskLevel.DANGEROUS,
    RiskLevel.CRITICAL,
    RiskLevel.BLOCKED,
)


@attrs.frozen(slots=True)
class Finding:
    """One reason a command is risky, pointing at the characters that make it so."""

    level: RiskLevel
    rule: str
    reason: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level.label,
            "rule": self.rule,
            "reason": self.reason,
            "start": self.start,
            "end": self.end,
        }


@attrs.frozen(slots=True)
class Assessment:
    """The analyser's verdict on one command or script: the highest finding's level wins."""

    level: RiskLevel
    findings: tuple[Finding, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level.label, "findings": [f.to_json() for f in self.findings]}


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen(slots=True)
class SafetyRules:
    """User additions from settings: `safety.extraBlocked`, `.extraDangerous`, `.trusted`.

    `extra_blocked` and `extra_dangerous` are Python regular expressions searched in each
    normalised simple command (wrappers such as `sudo` and `bash -c` unwrapped, quotes and
    backslashes removed, words joined by one space), e.g. ``^kubectl delete .*prod``.
    `trusted` are command prefixes matched word by word against the same normalised text
    (``make deploy`` trusts ``make deploy --dry-run`` but not ``make deployer``); a trusted
    command's *moderate* findings are dropped. Nothing lowers dangerous or higher findings,
    and built-in blocked rules always stand.
    """

    extra_blocked: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    extra_dangerous: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    trusted: tuple[str, ...] = attrs.field(default=(), converter=_strings)
