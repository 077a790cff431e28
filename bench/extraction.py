"""Extraction speed against a bare markdown-it parse of the same chat transcript.

    python -m bench.extraction [FILE] [--size-mb 5] [--runs 5]
    python -m bench.extraction --lsp [FILE] [--size-mb 4] [--edits 20]
    python -m bench.extraction --memory [--size-mb 50]

Without FILE it writes a CodeCompanion-style transcript of at least `--size-mb` MB
with thousands of fences (bash, console, PowerShell, execute JSON, Python) mixed
with prose, lists and quotes to `bench/data/`, then prints the best-of-N time of
`extract()` next to that of `MarkdownIt().parse()` and their ratio.

`--lsp` drives the real server (`python -m aintern_ls --stdio`) over its pipes
with a minimal JSON-RPC client: open the transcript, then `--edits` times insert
one character somewhere in it (`didChange`, incremental) and time until the
`textDocument/codeLens` answer has arrived and been decoded, and (a huge document's
lenses come unresolved) the lenses of the `SCREEN_LINES` lines around the edit have
been resolved with `codeLens/resolve`, as an editor does for those on screen. It prints the median
latency and its ratio to a bare `MarkdownIt().parse()` of the whole file (best of 3),
then (Linux) the server's own CPU time per edit and this client's CPU time per answer
(reading and decoding it) against the parse's CPU time: on a busy machine wall-clock
latency includes waiting for a core, CPU time does not.

`--memory` opens a `--size-mb` transcript in the real server, asks for its lenses,
edits it once and asks again, then prints the server's peak RSS (`VmHWM`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from aintern_ls.extraction import extract

DATA = Path(__file__).parent / "data"

_PROSE = (
    "The deployment failed because the **service account** lacks `roles/run.admin`; "
    "see [the docs](https://example.com/docs) for the _exact_ permission set. "
    "Try the command below and compare its output with what you saw earlier."
)
_FENCES = [
    "```bash\nkubectl get pods -n {n} -o wide\nkubectl describe pod web-{n}\n```",
    "```console\n$ git status --short\n M src/app.py\n?? notes-{n}.md\n```",
    '```sh {{"name":"build-{n}","cwd":"app"}}\nmake -j4 build\n```',
    "```powershell\nGet-ChildItem -Path C:\\logs\\{n} | Select-Object -First 5\n```",
    '```execute\n{{"command": "ls -la /tmp/{n}", "workingDir": "/tmp", '
    '"explanation": "List the scratch dir", "riskLevel": "safe"}}\n```',
    "```python\nfor i in range({n}):\n    print(i)\n```",
    "- step one\n- step two:\n\n  ```zsh\n  echo step {n}\n  ```",
    "> quoted advice\n>\n> ```bash\n> df -h /var/{n}\n> ```",
]


def generate(path: Path, size_mb: float, seed: int = 7) -> Path:
    """Write a chat transcript of at least `size_mb` MB; returns its path."""
    rng = random.Random(seed)
    target = int(size_mb * 1_000_000)
    parts: list[str] = []
    size = 0
    n = 0
    while size < target:
        n += 1
        user = f"## Me\n\nWhy does request {n} fail with a 403? {_PROSE}\n\n"
        answer = ["## CodeCompanion (Claude)\n\n"]
        for _ in range(rng.randint(2, 4)):
            answer.append(f"{_PROSE} Step {rng.randint(1, 9)}:\n\n")
            answer.append(rng.choice(_FENCES).format(n=n) + "\n\n")
        chunk = user + "".join(answer)
        parts.append(chunk)
        size += len(chunk)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")
    return path


def best_of(runs: int, func: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


class _Client:
    """Just enough JSON-RPC over the server's stdio for timing."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._next = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = 0
            while True:
                line = await stdout.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(await stdout.readexactly(length))
            future = (
                self._waiting.pop(message.get("id", -1), None) if "method" not in message else None
            )
            if future is not None:
                future.set_result(message)
            elif "method" in message and "id" in message:  # a request to the client
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any) -> Any:
        self._next += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = future
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        message = await future
        if "error" in message:
            raise RuntimeError(message["error"])
        return message["result"]

    async def close(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        self._reader.cancel()


async def _start_server() -> _Client:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "aintern_ls",
        "--stdio",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=1 << 30,
    )
    client = _Client(process)
    await client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    return client


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (all its threads), on Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _lsp_latency(path: Path, edits: int) -> tuple[list[float], float | None, float]:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    client = await _start_server()
    try:
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        lenses = await client.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        unresolved = sum("command" not in lens for lens in lenses)
        print(f"{len(lenses)} lenses, {unresolved} of them unresolved")
        del lenses  # (a client that kept them would make its own collector slower)
        line_count = text.count("\n")
        rng = random.Random(3)
        times: list[float] = []
        resolved = 0
        cpu_before = _cpu_seconds(client.process.pid)
        own_before = time.process_time()
        for version in range(2, edits + 2):
            line = rng.randrange(line_count)
            position = {"line": line, "character": 0}
            start = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {"range": {"start": position, "end": position}, "text": "x"}
                    ],
                },
            )
            lenses = await client.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
            resolved += await _resolve_visible(client, lenses, line)
            times.append(time.perf_counter() - start)
            del lenses
        own = time.process_time() - own_before
        print(f"lenses resolved after each edit (on screen): {resolved / edits:.0f}")
        cpu_after = _cpu_seconds(client.process.pid)
        cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
        return times, cpu, own
    finally:
        await client.close()


SCREEN_LINES = 60
"""Lines an editor shows around the edit: their unresolved lenses are resolved."""


async def _resolve_visible(client: _Client, lenses: list[Any], line: int) -> int:
    """What an editor does with an answer whose lenses come unresolved (a huge document:
    see `features.code_lens`): resolve those on screen (here the `SCREEN_LINES` lines
    from the edited one), all at once, and wait for every answer."""
    top = max(0, line - SCREEN_LINES // 2)
    wanted = [
        lens
        for lens in lenses
        if "command" not in lens and top <= lens["range"]["start"]["line"] < top + SCREEN_LINES
    ]
    resolved = await asyncio.gather(*(client.request("codeLens/resolve", lens) for lens in wanted))
    if any("command" not in lens for lens in resolved):
        raise RuntimeError("a lens came back from codeLens/resolve without its command")
    return len(resolved)


async def _peak_rss(path: Path) -> tuple[int, float]:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    client = await _start_server()
    try:
        start = time.perf_counter()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
        )
        del text
        await client.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        opened = time.perf_counter() - start
        position = {"line": 1000, "character": 0}
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": position, "end": position}, "text": "x"}],
            },
        )
        await client.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        status = Path(f"/proc/{client.process.pid}/status").read_text()
        peak = next(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM")
        )
        return peak * 1024, opened
    finally:
        await client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction", description=__doc__)
    parser.add_argument("file", nargs="?", help="transcript to use instead of a generated one")
    parser.add_argument("--size-mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lsp", action="store_true", help="time code lenses after edits")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--memory", action="store_true", help="peak RSS of the server")
    args = parser.parse_args(argv)
    if args.memory:
        size = args.size_mb if args.size_mb != 5.0 else 50.0
        path = Path(args.file) if args.file else generate(DATA / f"transcript-{size:g}mb.md", size)
        peak, opened = asyncio.run(_peak_rss(path))
        print(f"{path}: {path.stat().st_size / 1e6:.1f} MB; open + lenses {opened:.1f} s")
        print(f"server peak RSS: {peak / 1e6:.0f} MB")
        return 0
    if args.lsp:
        size = args.size_mb if args.size_mb != 5.0 else 4.0
        path = Path(args.file) if args.file else generate(DATA / f"transcript-{size:g}mb.md", size)
        times, cpu, own = asyncio.run(_lsp_latency(path, args.edits))
        text = path.read_text(encoding="utf-8")
        bare = best_of(3, lambda: MarkdownIt().parse(text))
        median = statistics.median(times)
        print(f"{path}: {len(text) / 1e6:.2f} MB")
        print(f"codeLens after a one-character edit: median {median * 1000:.0f} ms of {len(times)}")
        print(f"bare markdown-it parse of the whole file: {bare:.3f} s (best of 3)")
        print(f"ratio: {median / bare:.3f}")
        if cpu is not None:  # what the server itself spent, whatever else the machine runs
            start = time.process_time()
            MarkdownIt().parse(text)
            parse_cpu = time.process_time() - start
            per_edit = cpu / len(times)
            client = own / len(times)
            print(
                f"server CPU per edit + codeLens: {per_edit * 1000:.0f} ms "
                f"({per_edit / parse_cpu:.3f} of the bare parse's {parse_cpu:.3f} s CPU); "
                f"this client's CPU per answer (reading, decoding): {client * 1000:.0f} ms; "
                f"both: {(per_edit + client) / parse_cpu:.3f} of the parse's CPU; "
                f"load average {os.getloadavg()[0]:.1f}"
            )
        return 0
    path = Path(args.file) if args.file else generate(DATA / "transcript.md", args.size_mb)
    text = path.read_text(encoding="utf-8")
    md = MarkdownIt()
    fences = sum(1 for token in md.parse(text) if token.type == "fence")
    uri = path.resolve().as_uri()
    result = extract(text, uri)
    print(
        f"{path}: {len(text) / 1e6:.2f} MB, {fences} fences, "
        f"{result.command_count} command blocks, {len(result.warnings)} warnings"
    )
    t_md = best_of(args.runs, lambda: md.parse(text))
    t_ex = best_of(args.runs, lambda: extract(text, uri))
    print(f"markdown-it parse: {t_md:.3f} s (best of {args.runs})")
    print(f"extraction:        {t_ex:.3f} s (best of {args.runs})")
    print(f"ratio:             {t_ex / t_md:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
