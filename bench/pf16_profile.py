"""Profile the safety analyser on a fixed input set (`bench/pf16_inputs.py`), per group.

    cd TREE && PYTHONPATH=$PWD python -m bench.pf16_profile            # thread CPU, best of 5
    cd TREE && PYTHONPATH=$PWD python -m bench.pf16_profile --callgrind  # Ir per group
    python -m bench.pf16_profile --ab TREE_A TREE_B [--rounds 3]         # A B A B, thread CPU
    PF16_GROUPS=build-bash,ordinary-powershell python -m bench.pf16_profile ...  # a subset

Thread CPU: every group is judged once to warm up (imports, grammars, name caches), then
`--repeat` times; each group's best pass is printed with its steps (the budget's count, which
must not change with a speed-only change) and the load average. Callgrind: the same work under
`valgrind --tool=callgrind` with PYTHONHASHSEED=0, instrumentation switched on after the warm
up, the counters dumped at each group's edges (`--dump-before=getppid`): deterministic
instruction counts (Ir), the figure to compare across loads. `--ab` runs the thread-CPU mode
in two checkouts alternately (each as its own cwd: `python -m` puts the cwd first on the
path) and prints the best per group of each with the change.
Everything runs inside `stack.reserved`, as the bench and the server do.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _judge_group(items: list[tuple[str, str, str]]) -> tuple[float, float]:
    """Thread CPU (ms) and steps of judging every item once, the cache bypassed."""
    from aintern_ls.safety import budget
    from aintern_ls.safety.analyser import _assess_cached

    analyse = _assess_cached.__wrapped__
    steps = 0.0
    cpu = 0.0
    for _label, text, shell in items:
        c0 = time.thread_time()
        analyse(text, shell, None)
        cpu += time.thread_time() - c0
        steps += budget.spent()
    return cpu * 1000, steps


def _groups() -> dict[str, list[tuple[str, str, str]]]:
    from bench.pf16_inputs import groups

    only = os.environ.get("PF16_GROUPS")  # (a comma-separated subset, e.g. build-bash,real)
    gs = groups()
    return {k: v for k, v in gs.items() if k in only.split(",")} if only else gs


def _cpu(repeat: int) -> dict[str, dict[str, float]]:
    gs = _groups()
    for items in gs.values():
        _judge_group(items)
    best: dict[str, dict[str, float]] = {}
    for _ in range(repeat):
        for name, items in gs.items():
            ms, steps = _judge_group(items)
            row = best.setdefault(name, {"ms": ms, "steps": steps, "n": len(items)})
            row["ms"] = min(row["ms"], ms)
            row["steps"] = steps
    return best


def _cg_worker(out: str) -> None:
    """Under callgrind: warm up uninstrumented, wait for the parent to switch it on, then
    mark each group's edges with getppid() (a dump before each)."""
    gs = _groups()
    for items in gs.values():
        _judge_group(items)
    Path(out, "order").write_text("\n".join(gs))
    Path(out, "ready").write_text(str(os.getpid()))
    while not Path(out, "go").exists():
        time.sleep(0.05)
    for items in gs.values():
        os.getppid()
        _judge_group(items)
        os.getppid()


def _callgrind(keep: str | None) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = keep or tmp
        os.makedirs(out, exist_ok=True)
        for old in os.listdir(out):
            if old in ("ready", "go", "order") or old.startswith("cg.out"):
                os.remove(os.path.join(out, old))
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--dump-before=getppid",
            f"--callgrind-out-file={out}/cg.out",
            sys.executable,
            "-m",
            "bench.pf16_profile",
            "--cg-worker",
            out,
        ]
        with open(os.path.join(out, "log"), "w") as log:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
            try:
                while not os.path.exists(os.path.join(out, "ready")):
                    if proc.poll() is not None:
                        raise SystemExit(Path(out, "log").read_text()[-3000:])
                    time.sleep(0.5)
                pid = Path(out, "ready").read_text()
                subprocess.run(
                    ["callgrind_control", "-i", "on", pid],
                    check=True,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                Path(out, "go").touch()
                proc.wait()
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        dumps = sorted(
            (p for p in os.listdir(out) if p.startswith("cg.out.")),
            key=lambda p: int(p.rsplit(".", 1)[1]),
        )
        sums: list[int] = []
        for name in dumps:
            with open(os.path.join(out, name)) as fh:
                for line in fh:
                    if line.startswith(("summary:", "totals:")):
                        sums.append(int(line.split()[1]))
                        break
        order = Path(out, "order").read_text().split("\n")
        return {name: {"Mir": ir / 1e6} for name, ir in zip(order, sums[1::2], strict=False)}


def _print(rows: dict[str, dict[str, float]]) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"pf16 fixed set, {os.getcwd()} (load {load})")
    for name, r in rows.items():
        parts = [f"{name:20}"]
        if "Mir" in r:
            parts.append(f"{r['Mir']:9.1f} M Ir")
        if "ms" in r:
            parts.append(f"{r['ms']:8.1f} ms cpu  {r['steps']:10,.0f} steps  ({r['n']:.0f} texts)")
        print("  ".join(parts))


def _ab(a: str, b: str, rounds: int) -> None:
    best: dict[str, dict[str, dict[str, float]]] = {a: {}, b: {}}
    for _ in range(rounds):
        for tree in (a, b):
            env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0")
            got = subprocess.run(
                [sys.executable, "-m", "bench.pf16_profile", "--repeat", "1", "--json"],
                cwd=tree,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for name, r in json.loads(got).items():
                row = best[tree].setdefault(name, r)
                row["ms"] = min(row["ms"], r["ms"])
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"A={a}  B={b}  best of {rounds} interleaved rounds (load now {load})")
    for name, ra in best[a].items():
        rb = best[b][name]
        same = "same steps" if ra["steps"] == rb["steps"] else "STEPS DIFFER"
        print(
            f"  {name:20} {ra['ms']:8.1f} -> {rb['ms']:8.1f} ms"
            f" ({(rb['ms'] / ra['ms'] - 1) * 100:+5.1f} %)  {same}"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--callgrind", action="store_true")
    p.add_argument("--keep", help="with --callgrind: keep the dumps in this folder")
    p.add_argument("--cg-worker")
    p.add_argument("--ab", nargs=2, metavar="TREE")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    from aintern_ls.safety import stack

    if args.cg_worker:
        stack.reserved(_cg_worker, args.cg_worker)
    elif args.ab:
        _ab(os.path.abspath(args.ab[0]), os.path.abspath(args.ab[1]), args.rounds)
    elif args.callgrind:
        _print(_callgrind(args.keep))
    else:
        rows = stack.reserved(_cpu, args.repeat)
        if args.json:
            print(json.dumps(rows))
        else:
            _print(rows)


if __name__ == "__main__":
    main()
