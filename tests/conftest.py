"""Suite-wide settings: hypothesis profile for slow CI machines, and a check that
no test leaves a child process behind."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import psutil
import pytest
from hypothesis import HealthCheck, settings

# Derandomised so a run is reproducible: the same examples every time, on every machine.
# Shells started by the tests read a clean home, not the machine's ~/.bashrc: a
# developer's rc (pyenv init, say) can take a minute when a killed shell left a lock
# behind, which is not what these tests are about. Tests of rc handling make their own.
_TEST_HOME = tempfile.mkdtemp(prefix="aintern-test-home-")
os.environ["HOME"] = _TEST_HOME
# ... and removed when the test process ends (each xdist worker makes and removes its own).
atexit.register(shutil.rmtree, _TEST_HOME, ignore_errors=True)
# The analyser's CPU clock backstop (`aintern_ls.safety.budget`) is off in the tests, and in
# the servers and shells they start: verdicts must not depend on how busy the machine is.
# Tests of the clock turn it on themselves (`budget.use_clock(True)`).
os.environ["AINTERN_SAFETY_CLOCK"] = "off"

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    derandomize=True,
)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _safety_clock_off() -> Iterator[None]:
    """Every test starts and ends with the clock backstop off (see above)."""
    from aintern_ls.safety import budget

    budget.use_clock(False)
    yield
    budget.use_clock(False)


@pytest.fixture(scope="session", autouse=True)
def _no_orphans_left() -> Iterator[None]:
    """Every process a test starts must be gone when the suite ends."""
    yield
    me = psutil.Process(os.getpid())
    leftovers = [p for p in me.children(recursive=True) if p.is_running()]
    _, alive = psutil.wait_procs(leftovers, timeout=5)
    assert not alive, f"processes left running after the tests: {alive}"
