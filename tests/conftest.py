"""Suite-wide settings: hypothesis profile for slow CI machines, and a check that
no test leaves a child process behind."""

from __future__ import annotations

import os
from collections.abc import Iterator

import psutil
import pytest
from hypothesis import HealthCheck, settings

# Derandomised so a run is reproducible: the same examples every time, on every machine.
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    derandomize=True,
)
settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def _no_orphans_left() -> Iterator[None]:
    """Every process a test starts must be gone when the suite ends."""
    yield
    me = psutil.Process(os.getpid())
    leftovers = [p for p in me.children(recursive=True) if p.is_running()]
    _, alive = psutil.wait_procs(leftovers, timeout=5)
    assert not alive, f"processes left running after the tests: {alive}"
