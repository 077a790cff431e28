"""Extraction speed against a bare markdown-it parse of the same chat transcript.

    python -m bench.extraction [FILE] [--size-mb 5] [--runs 5]

Without FILE it writes a CodeCompanion-style transcript of at least `--size-mb` MB
with thousands of fences (bash, console, PowerShell, execute JSON, Python) mixed
with prose, lists and quotes to `bench/data/`, then prints the best-of-N time of
`extract()` next to that of `MarkdownIt().parse()` and their ratio.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction", description=__doc__)
    parser.add_argument("file", nargs="?", help="transcript to use instead of a generated one")
    parser.add_argument("--size-mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
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
