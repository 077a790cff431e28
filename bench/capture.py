"""Throughput of the capture path: `python -m bench.capture [--mb 50]`.

Builds a log of coloured lines and `\\r` progress bars (like a build or package install
would print), then measures, on the same input in 64 KB reads:

- the VT processor (strip + render + mark extraction), in MB/s of input;
- the seeds' single regex (`\\x1B\\[[0-9;]*[a-zA-Z]|\\x1B\\].*?(?:\\x07|\\x1B\\\\)`), which
  strips far less and renders nothing, on the whole text at once;
- the `OutputCollector` on the same bytes (decode + render + bounded keep + finish);
- the collector on plain PTY text (`\\r\\n` line endings, no escapes): the fast path;
- the full pipeline with all secret rules on: render the whole log (VT processor),
  redact ALL of the rendered text (not only what a capture keeps), truncate, in MB/s
  of input; and `redact` alone on the rendered text and on a keyword-dense log (env
  dumps, configs, tokens on every few lines) where the rules really run.
"""

from __future__ import annotations

import argparse
import random
import re
import time

from aintern_ls.capture import OutputCollector, VTProcessor, render
from aintern_ls.capture.redaction import default_rules, redact
from aintern_ls.capture.truncation import truncate

SEED_REGEX = re.compile(r"\x1B\[[0-9;]*[a-zA-Z]|\x1B\].*?(?:\x07|\x1B\\)")
CHUNK = 65536
LEVELS = ["\x1b[32mINFO\x1b[0m", "\x1b[33mWARN\x1b[0m", "\x1b[1;31mERR\x1b[0m"]


def coloured_log(size: int, seed: int = 7) -> str:
    """A build/install log: coloured levels, paths, progress bars redrawn with `\\r`."""
    rnd = random.Random(seed)
    words = [
        "compiling",
        "linking",
        "fetching",
        "resolved",
        "package",
        "module",
        "src",
        "lib",
        "test",
        "ok",
        "warning",
    ]
    parts: list[str] = []
    total = 0
    while total < size:
        kind = rnd.random()
        if kind < 0.1:
            # A progress bar: 20 redraws of one line, as pip/npm/curl do.
            piece = "".join(
                f"\r\x1b[2K\x1b[36m{'█' * (i // 5)}{'░' * (20 - i // 5)}\x1b[0m {i}% "
                f"\x1b[1m{rnd.randint(1, 999)} kB/s\x1b[0m"
                for i in range(0, 101, 5)
            )
            piece += "\r\n"
        else:
            level = rnd.choice(LEVELS)
            text = " ".join(rnd.choice(words) for _ in range(rnd.randint(4, 12)))
            piece = (
                f"\x1b[2m2026-11-25T22:{rnd.randint(0, 59):02d}\x1b[0m {level} "
                f"\x1b[38;5;{rnd.randint(16, 231)}m{text}\x1b[39m src/{rnd.choice(words)}.py\r\n"
            )
        parts.append(piece)
        total += len(piece.encode())
    return "".join(parts)


def secret_dense_log(size: int, seed: int = 11) -> str:
    """Output where secret keywords are everywhere: env dumps, configs, some tokens."""
    rnd = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    def tok(n: int) -> str:
        return "".join(rnd.choice(alphabet) for _ in range(n))

    lines = [
        lambda: f"export GITHUB_TOKEN=ghp_{tok(36)}",
        lambda: f"api_key: {tok(32)}",
        lambda: "max_tokens=4096 token_type=bearer secret_scanning=enabled",
        lambda: f"INFO auth: token refreshed for user={rnd.randint(1, 999)} key rotation ok",
        lambda: f"postgres://app:{tok(12)}@db:5432/app",
        lambda: "The access key and the secret key are read from the keyring.",
        lambda: f"commit {tok(40).lower()} password policy updated",
    ]
    parts: list[str] = []
    total = 0
    while total < size:
        line = rnd.choice(lines)() + "\n"
        parts.append(line)
        total += len(line)
    return "".join(parts)


def plain_log(size: int) -> bytes:
    line = b"2026-11-25 22:40:01 INFO compiling module src/lib/test.py ok 1234 items\r\n"
    return line * (size // len(line) + 1)


def _mbps(nbytes: int, seconds: float) -> float:
    return nbytes / seconds / 1e6


def _best(fn: object, repeat: int, clock: object = time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = clock()  # type: ignore[operator]
        fn()  # type: ignore[operator]
        best = min(best, clock() - start)  # type: ignore[operator]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="input size in MB")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    size = int(args.mb * 1e6)

    text = coloured_log(size)
    data = text.encode()
    chunks = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]
    byte_chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    plain = plain_log(size)
    plain_chunks = [plain[i : i + CHUNK] for i in range(0, len(plain), CHUNK)]

    def run_processor() -> None:
        vt = VTProcessor()
        for chunk in chunks:
            vt.feed(chunk)
        vt.finish()

    def run_seed_regex() -> None:
        SEED_REGEX.sub("", text)

    def run_collector(parts: list[bytes]) -> None:
        collector = OutputCollector(max_characters=100_000)
        for part in parts:
            collector.feed(part)
        collector.finish()

    rules = default_rules()
    rendered = render(text)

    def run_pipeline() -> None:
        vt = VTProcessor()
        out = [vt.feed(chunk).text for chunk in chunks]
        out.append(vt.finish().text)
        truncate(redact("".join(out)).text, max_characters=100_000)

    dense = secret_dense_log(max(size // 10, 1_000_000))
    t_pipe = _best(run_pipeline, args.repeat)
    # CPU time of this process: what the pipeline costs when the machine is shared
    t_pipe_cpu = _best(run_pipeline, args.repeat, time.process_time)
    t_redact = _best(lambda: redact(rendered), args.repeat)
    t_dense = _best(lambda: redact(dense), 1)
    dense_count = redact(dense).count

    t_vt = _best(run_processor, args.repeat)
    t_seed = _best(run_seed_regex, args.repeat)
    t_coll = _best(lambda: run_collector(byte_chunks), args.repeat)
    t_plain = _best(lambda: run_collector(plain_chunks), args.repeat)

    vt_mbps = _mbps(len(data), t_vt)
    seed_mbps = _mbps(len(data), t_seed)
    print(f"input: coloured log with progress bars, {len(data) / 1e6:.1f} MB in 64 KB reads")
    print(f"rendered: {len(render(text)) / 1e6:.1f} MB of text")
    print(f"VT processor (strip + render):   {vt_mbps:8.1f} MB/s")
    print(f"seed regex (strip only, partial): {seed_mbps:8.1f} MB/s")
    print(f"ratio processor / seed regex:     {vt_mbps / seed_mbps:8.2f}")
    print(f"OutputCollector, coloured bytes:  {_mbps(len(data), t_coll):8.1f} MB/s")
    print(f"OutputCollector, plain PTY text:  {_mbps(len(plain), t_plain):8.1f} MB/s")
    print(f"secret rules loaded: {len(rules.rules)} ({len(rules.skipped)} skipped)")
    print(
        "full pipeline (render -> redact all -> truncate), all rules: "
        f"{_mbps(len(data), t_pipe):8.1f} MB/s of input "
        f"({_mbps(len(data), t_pipe_cpu):.1f} MB/s of CPU time)"
    )
    print(
        f"redact alone, rendered coloured log: {_mbps(len(rendered.encode()), t_redact):8.1f} MB/s"
    )
    print(
        f"redact alone, keyword-dense log ({len(dense) / 1e6:.1f} MB, "
        f"{dense_count} secrets): {_mbps(len(dense.encode()), t_dense):8.1f} MB/s"
    )


if __name__ == "__main__":
    main()
