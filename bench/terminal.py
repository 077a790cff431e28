"""Terminal engine figures: `python -m bench.terminal [--runs 3] [--gb 1]`.

1. Throughput of a one-shot run printing ~20 MB (`seq 1 3000000`) through the whole
   runner (PTY, reader thread, asyncio hand-off, capture's OutputCollector), next to a
   bare ptyprocess read loop over the same command in the same process, as a ratio
   (bare time / runner time: 1.0 means the runner costs nothing extra). Best of N,
   interleaved. A third figure swaps the collector for a byte counter, to separate the
   terminal engine's own cost from the capture package's rendering.
2. Peak RSS of a fresh Python process while a run prints `--gb` GB of text lines
   (`yes … | head -c N`), measured with getrusage in that process.
3. A terminal flood (`--flood-mb`, default 400 MB, `0` skips it) in an interactive
   session: how many output callbacks (the server sends one `aintern/terminalOutput`
   per callback) and how long.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time

import attrs

from aintern_ls.terminal import runner as runner_module
from aintern_ls.terminal.runner import RunRequest, run_command

SEQ = "seq 1 3000000"


def bare_ptyprocess(command: str) -> tuple[float, int]:
    """Seconds and bytes for the plainest possible read loop over the same command."""
    from ptyprocess import PtyProcess

    start = time.perf_counter()
    proc = PtyProcess.spawn(["bash", "-c", command])
    total = 0
    while True:
        try:
            total += len(proc.read(65536))
        except EOFError:
            break
    proc.wait()
    return time.perf_counter() - start, total


def through_runner(command: str) -> tuple[float, int]:
    start = time.perf_counter()
    result = asyncio.run(run_command(RunRequest(command, timeout_seconds=600)))
    elapsed = time.perf_counter() - start
    assert result.exit_code == 0, result
    return elapsed, result.original_length


@attrs.frozen
class _Counted:
    output: str
    was_truncated: bool
    original_length: int
    redaction_count: int = 0


class CountingCollector:
    """Stands in for OutputCollector in the engine-only figure: counts bytes, renders none."""

    def __init__(self, max_characters: int = 0) -> None:
        self.count = 0

    def feed(self, data: bytes) -> str:
        self.count += len(data)
        return ""

    def finish(self) -> _Counted:
        return _Counted("", False, self.count)


def engine_only(command: str) -> float:
    original = runner_module.OutputCollector
    runner_module.OutputCollector = CountingCollector  # type: ignore[misc,assignment]
    try:
        return through_runner(command)[0]
    finally:
        runner_module.OutputCollector = original  # type: ignore[misc]


def throughput(runs: int) -> dict[str, float]:
    bare: list[float] = []
    ours: list[float] = []
    engine: list[float] = []
    size = 0
    for _ in range(runs):  # interleaved, so machine noise hits all alike
        seconds, size = bare_ptyprocess(SEQ)
        bare.append(seconds)
        ours.append(through_runner(SEQ)[0])
        engine.append(engine_only(SEQ))
    best_bare, best_ours, best_engine = min(bare), min(ours), min(engine)
    return {
        "bytes": size,
        "bare_s": best_bare,
        "runner_s": best_ours,
        "engine_s": best_engine,
        "bare_mb_s": size / best_bare / 1e6,
        "runner_mb_s": size / best_ours / 1e6,
        "engine_mb_s": size / best_engine / 1e6,
        "ratio": best_bare / best_ours,
        "engine_ratio": best_bare / best_engine,
    }


def _rss_child(size: int) -> None:
    """Runs in a fresh interpreter: print one JSON line with the figures."""
    line = "a line of build output that goes on for a while, like a log does 0123456789"
    command = f"yes '{line}' | head -c {size}"
    start = time.perf_counter()
    result = asyncio.run(run_command(RunRequest(command, timeout_seconds=600)))
    elapsed = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        json.dumps(
            {
                "bytes": size,
                "seconds": elapsed,
                "peak_rss_mb": peak_kb / 1024,
                "output_chars": len(result.output),
                "truncated": result.was_truncated,
                "exit_code": result.exit_code,
            }
        )
    )


def peak_rss(gigabytes: float) -> dict[str, float]:
    size = int(gigabytes * 1024**3)
    out = subprocess.run(
        [sys.executable, "-m", "bench.terminal", "--rss-child", str(size)],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def flood(megabytes: float) -> dict[str, float]:
    from aintern_ls.terminal.session import TerminalManager

    size = int(megabytes * 1e6)
    calls = 0
    chars = 0

    def on_output(terminal_id: str, text: str) -> None:
        nonlocal calls, chars
        calls += 1
        chars += len(text)

    async def go() -> float:
        manager = TerminalManager(on_output=on_output)
        session = await manager.create(shell="bash", env={"AINTERN_LS_NO_RC": "1"})
        try:
            start = time.perf_counter()
            line = "a line of build output that goes on for a while, like a log does 0123456789"
            await session.execute(f"yes '{line}' | head -c {size}", timeout=900)
            return time.perf_counter() - start
        finally:
            await manager.close_all()

    seconds = asyncio.run(go())
    return {"bytes": size, "seconds": seconds, "calls": calls, "chars": chars}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gb", type=float, default=1.0, help="size of the RSS run in GiB")
    parser.add_argument("--skip-rss", action="store_true")
    parser.add_argument("--flood-mb", type=float, default=400.0)
    parser.add_argument("--rss-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child is not None:
        _rss_child(args.rss_child)
        return
    t = throughput(args.runs)
    print(f"throughput: {SEQ} ({t['bytes'] / 1e6:.1f} MB), best of {args.runs}")
    print(f"  bare ptyprocess loop: {t['bare_s']:.3f} s  ({t['bare_mb_s']:.1f} MB/s)")
    print(f"  aintern runner:       {t['runner_s']:.3f} s  ({t['runner_mb_s']:.1f} MB/s)")
    print(f"  ratio (bare/runner):  {t['ratio']:.2f}   (target >= 0.8)")
    print(
        f"  engine only (collector replaced by a byte counter): {t['engine_s']:.3f} s, "
        f"ratio {t['engine_ratio']:.2f}"
    )
    if not args.skip_rss:
        r = peak_rss(args.gb)
        print(f"peak RSS: {r['bytes'] / 1024**3:.2f} GiB of output in {r['seconds']:.1f} s")
        print(f"  peak RSS of the running process: {r['peak_rss_mb']:.1f} MB  (target < 150 MB)")
        print(f"  kept output: {r['output_chars']} chars, truncated={r['truncated']}")
    if args.flood_mb > 0:
        f = flood(args.flood_mb)
        print(f"terminal flood: {f['bytes'] / 1e6:.0f} MB in an interactive session")
        print(
            f"  {f['calls']:.0f} terminalOutput notifications ({f['chars'] / 1e6:.0f} M chars) "
            f"in {f['seconds']:.1f} s"
        )


if __name__ == "__main__":
    main()
