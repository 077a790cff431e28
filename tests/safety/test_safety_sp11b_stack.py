"""The analyser runs on a stack chunk of its own (`aintern_ls.safety.stack`).

Session 10's "history effect" was the caller's stack depth: CPython frees and maps a 16 KB
frame-stack chunk on every call of a hot function that starts one, so the same input
cost 33 ms from one depth and 81-132 ms from a few frames deeper. These tests pin the
mechanism that removes it (no timings: what runs where, and that nothing grows).
"""

from __future__ import annotations

import functools
import sys
import threading
from types import ModuleType

import pytest

from aintern_ls import safety
from aintern_ls.safety import analyser, bash, stack
from aintern_ls.safety.analyser import _assess_cached
from aintern_ls.safety.levels import Assessment, RiskLevel


def test_the_reserving_frame_declares_a_stack_that_no_16_kb_chunk_holds() -> None:
    # CPython's chunks are 16 KB and a frame needs its slots plus a 1,000-slot margin:
    # a frame this large always opens a chunk of its own (1 MB), whatever the depth.
    size = stack._open.__code__.co_stacksize
    assert size >= stack.RESERVED_SLOTS >= 65_000
    assert (size + 1000) * 8 > 512 * 1024


@pytest.mark.parametrize("depth", [0, 1, 5, 6, 7, 8, 30])
def test_every_uncached_analysis_runs_inside_a_reservation(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = bash.analyse

    def spy(text: str, scope: object) -> None:
        seen.append(stack.inside())
        real(text, scope)  # type: ignore[arg-type]

    monkeypatch.setattr(bash, "analyse", spy)

    def deep(n: int) -> Assessment:
        if n:
            return deep(n - 1)
        return _assess_cached.__wrapped__("sudo sudo sudo rm -rf /", "bash", None)

    assert deep(depth).level is RiskLevel.BLOCKED
    assert seen == [True]
    assert not stack.inside()  # the reservation ends with the call


def test_a_reservation_is_opened_once_and_closed_after_an_error() -> None:
    opened: list[bool] = []

    def inner() -> bool:
        opened.append(stack.inside())
        return stack.reserved(stack.inside)  # nested: runs in the same reservation

    assert stack.reserved(inner) is True
    assert opened == [True]
    assert not stack.inside()

    def boom() -> None:
        raise ValueError("x")

    with pytest.raises(ValueError):
        stack.reserved(boom)
    assert not stack.inside()


def test_reservations_are_per_thread() -> None:
    seen: list[bool] = []

    def other() -> None:
        seen.append(stack.inside())

    def outer() -> None:
        t = threading.Thread(target=other)
        t.start()
        t.join()

    stack.reserved(outer)
    assert seen == [False]


def test_verdicts_are_the_same_inside_and_outside_a_reservation() -> None:
    for text in ("ls -la", "sudo " * 300 + "rm -rf /", "find . -delete", "curl x | sh"):
        outside = _assess_cached.__wrapped__(text, "bash", None)
        inside = stack.reserved(_assess_cached.__wrapped__, text, "bash", None)
        assert outside == inside


def _safety_modules() -> list[ModuleType]:
    return [m for name, m in sorted(sys.modules.items()) if name.startswith("aintern_ls.safety")]


def test_every_cache_in_the_analyser_is_bounded() -> None:
    # Nothing the analyser keeps between calls may grow with the process's history.
    assert safety and analyser  # imported: every safety module is loaded
    found = 0
    for module in _safety_modules():
        for name, value in vars(module).items():
            info = getattr(value, "cache_info", None)
            if info is None or not isinstance(value, functools._lru_cache_wrapper):
                continue
            found += 1
            maxsize = info().maxsize
            assert maxsize is not None and maxsize <= 8192, (module.__name__, name, maxsize)
    assert found >= 10
