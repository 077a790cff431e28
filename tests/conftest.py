"""Suite-wide settings: hypothesis profile for slow CI machines, and a check that
no test leaves a child process behind."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import psutil
import pytest
from hypothesis import HealthCheck, settings

# Derandomised so a run is reproducible: the same examples every time, on every machine.
# Shells started by the tests read a clean home, not the machine's ~/.bashrc: a
# developer's rc (pyenv init, say) can take a minute when a killed shell left a lock
# behind, which is not what these tests are about. Tests of rc handling make their own.
os.environ["HOME"] = tempfile.mkdtemp(prefix="aintern-test-home-")

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
