"""Waiting-for-input figures: `python -m bench.waiting [--runs 10]`.

1. Detection latency: a real run of `read -p "name? "`; seconds from the prompt's bytes
   reaching the runner to the `on_waiting` callback (the floor is the 0.3 s quiet
   threshold plus the supervisor's 0.1 s tick), and from the answer to the run's end.
2. Probe cost: microseconds per `/proc` probe of a PTY whose job has 1, 10 and 50
   processes (a probe runs on the event loop, at most every 0.1 s, backing off to 1 s
   while a quiet spell lasts).
3. False alarms: quiet commands run side by side (sleep, a slow "build", a prompt-shaped
   line followed by sleep, a network wait); how many waiting events they raised.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import time

from aintern_ls.terminal.pty import spawn_pty
from aintern_ls.terminal.runner import RunningCommand, RunRequest
from aintern_ls.terminal.waiting import InputWait, probe

QUIET = [
    "sleep 3",
    "for i in 1 2 3 4; do sleep 0.7; echo step $i; done",
    "printf 'Downloading: '; sleep 3; echo ok",
    'python3 -c "import socket; a, b = socket.socketpair(); a.settimeout(3); '
    "print('Waiting for server:', end='', flush=True)\ntry: a.recv(1)\nexcept OSError: pass\"",
    "make -f /dev/null >/dev/null 2>&1; (sleep 3 & sleep 3 & wait)",
]


async def latency(runs: int) -> tuple[list[float], list[float]]:
    detect: list[float] = []
    finish: list[float] = []
    for _ in range(runs):
        first_output: list[float] = []
        seen: list[float] = []

        def on_output(text: str, first_output: list[float] = first_output) -> None:
            if not first_output and "name?" in text:
                first_output.append(time.monotonic())

        def on_waiting(state: InputWait | None, seen: list[float] = seen) -> None:
            if state is not None and not seen:
                seen.append(time.monotonic())

        running = RunningCommand(
            RunRequest('read -p "name? " n; echo "hi $n"', timeout_seconds=30),
            on_output=on_output,
            on_waiting=on_waiting,
        )
        running.start()
        while not seen:
            await asyncio.sleep(0.01)
        answered = time.monotonic()
        running.write("Ada\r")
        await running.wait()
        detect.append(seen[0] - first_output[0])
        finish.append(time.monotonic() - answered)
    return detect, finish


def probe_cost(processes: int, rounds: int = 200) -> tuple[str, float]:
    children = " ".join(["sleep 30 &"] * (processes - 1))
    pty = spawn_pty(["bash", "-c", f"{children} read x"], os.getcwd(), dict(os.environ))
    try:
        time.sleep(0.5 + processes * 0.01)
        fd = getattr(pty, "fd", None)
        foreground = os.tcgetpgrp(fd) if fd is not None else None
        start = time.perf_counter()
        for _ in range(rounds):
            verdict = probe(pty.pid, foreground)
        return verdict.value, (time.perf_counter() - start) / rounds * 1e6
    finally:
        os.killpg(pty.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while pty.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        pty.close()


async def false_alarms() -> list[tuple[str, int]]:
    async def one(command: str) -> tuple[str, int]:
        events: list[InputWait | None] = []
        running = RunningCommand(RunRequest(command, timeout_seconds=30), on_waiting=events.append)
        await running.wait()
        return command.split(";")[0][:40], sum(1 for e in events if e is not None)

    return list(await asyncio.gather(*(one(c) for c in QUIET)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    detect, finish = asyncio.run(latency(args.runs))
    print(
        f"detection latency over {args.runs} runs: median {statistics.median(detect):.3f} s, "
        f"max {max(detect):.3f} s; answer -> run ended: median "
        f"{statistics.median(finish):.3f} s"
    )
    for n in (1, 10, 50):
        verdict, micros = probe_cost(n)
        print(f"probe of a job with {n:>2} process(es): {micros:,.0f} µs ({verdict})")
    for name, count in asyncio.run(false_alarms()):
        print(f"false alarms: {count} for {name!r}")


if __name__ == "__main__":
    main()
