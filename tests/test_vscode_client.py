"""The VS Code client compiles with strict TypeScript and its pure logic passes its tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[1] / "editor-clients" / "vscode"


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm not installed")
def test_vscode_client_builds_and_its_tests_pass() -> None:
    if not (CLIENT / "node_modules").exists():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True, timeout=600
        )
    build = subprocess.run(
        ["npm", "run", "compile"], cwd=CLIENT, capture_output=True, text=True, timeout=600
    )
    assert build.returncode == 0, build.stdout + build.stderr
    tests = subprocess.run(["npm", "test"], cwd=CLIENT, capture_output=True, text=True, timeout=600)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "# fail 0" in tests.stdout
    assert (CLIENT / "out" / "src" / "extension.js").exists()
