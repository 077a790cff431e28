"""MCP round-trip figures: `python -m bench.mcp [--runs 30]`.

`run_command {"command": "true"}` through `aintern-ls mcp` over stdio with the MCP SDK's
own client (a tools/call request, safety assessment, a fresh PTY running `bash -c true`,
capture, history write, the result back), next to spawning `bash -c true` directly with
`subprocess.run`, and to the runner alone in this process (the same PTY run without
MCP). Median and best of N after two warm-up calls; the ratio is MCP / direct.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def direct(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(["bash", "-c", "true"], check=True)
        times.append(time.perf_counter() - start)
    return times


def runner(runs: int) -> list[float]:
    from aintern_ls.terminal.runner import RunRequest, run_command

    async def go() -> list[float]:
        times = []
        for _ in range(runs + 2):
            start = time.perf_counter()
            await run_command(RunRequest("true"))
            times.append(time.perf_counter() - start)
        return times[2:]

    return asyncio.run(go())


def over_mcp(runs: int) -> tuple[list[float], float]:
    import anyio
    from mcp import Client, StdioServerParameters

    async def go() -> tuple[list[float], float]:
        with tempfile.TemporaryDirectory() as tmp:
            env = {
                "PYTHONPATH": str(REPO),
                "XDG_STATE_HOME": tmp,
                "XDG_CONFIG_HOME": tmp,
                "HOME": os.environ.get("HOME", tmp),
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            }
            params = StdioServerParameters(
                command=sys.executable, args=["-m", "aintern_ls", "mcp"], env=env, cwd=tmp
            )
            start = time.perf_counter()
            async with Client(params) as client:
                connect = time.perf_counter() - start
                times = []
                for _ in range(runs + 2):
                    start = time.perf_counter()
                    result = await client.call_tool("run_command", {"command": "true"})
                    times.append(time.perf_counter() - start)
                    assert not result.is_error, result
            return times[2:], connect

    return anyio.run(go)


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.1f} ms, best {min(values) * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    d = direct(args.runs)
    r = runner(args.runs)
    m, connect = over_mcp(args.runs)
    print(f"`true`, {args.runs} runs each")
    print(f"  bash -c true (subprocess.run):      {_ms(d)}")
    print(f"  aintern runner in-process (PTY):    {_ms(r)}")
    print(f"  MCP run_command round trip (stdio): {_ms(m)}")
    md, mr, mm = statistics.median(d), statistics.median(r), statistics.median(m)
    print(f"  ratio MCP / direct (medians):       {mm / md:.1f}")
    print(f"  ratio MCP / runner (medians):       {mm / mr:.1f}")
    print(f"  server start + initialize:          {connect * 1000:.0f} ms")


if __name__ == "__main__":
    main()
