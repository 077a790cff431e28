"""The safety tests share their level aliases and level helper (`tests/safety/_levels.py`)
instead of each defining its own copy."""

from __future__ import annotations

import re
from pathlib import Path

from aintern_ls.safety import RiskLevel
from tests.safety._levels import B, C, D, M, S, level

HERE = Path(__file__).parent
# `B, C, D, M, S = (RiskLevel.BLOCKED, …)`, `S = RiskLevel.SAFE`, the production aliases
# imported, or a `def level(command…): return assess(…).level` of its own.
_OWN_ALIASES = re.compile(
    r"^(?:[BCDMS], )*[BCDMS] = [(\n ]*RiskLevel\.|^from aintern_ls\.safety\.levels import [BCDMS]\b"
    r"|^def _?level\(command",
    re.M,
)


def test_the_aliases_are_the_levels() -> None:
    assert (S, M, D, C, B) == (
        RiskLevel.SAFE,
        RiskLevel.MODERATE,
        RiskLevel.DANGEROUS,
        RiskLevel.CRITICAL,
        RiskLevel.BLOCKED,
    )
    assert S < M < D < C < B
    assert level("rm -rf /") == B
    assert level("ls") == S
    assert level("rm -rf etc usr", cwd="/") == B


def test_no_safety_test_defines_its_own_aliases() -> None:
    own = [
        p.name
        for p in sorted(HERE.rglob("test_*.py"))
        if _OWN_ALIASES.search(p.read_text(encoding="utf-8"))
    ]
    assert own == [], f"import them from tests/safety/_levels.py instead: {own}"
