"""Redaction measured end to end: vectors printed by a fence, read back from `run --json`.

`vectors/tuning.toml` is what the rules were tuned on (our own cases, realistic CLI
output, and shapes from gitleaks' and detect-secrets' public test suites rewritten
with our own values). `vectors/heldout.toml` is kept apart: its first batch, written
with the tuning set, scored 100 % recall / 5.7 % negatives changed when first measured
(two placeholder classes, `<your key here>` unquoted and `password = get_password(...)`,
were then fixed in general); its second batch, written later, scored 95.4 % / 0 % when
first measured (command-line `--account-key`, `-su user:pw`, `DB_PASS=` and XML
`key="Password" value=` were then added as general rules). Values are random and
format-valid, from a seeded generator; none is a real credential.

Each slice is printed by `cat` in a real PTY through `aintern-ls run --json`, and
the output is scored: recall is the share of secrets that no longer appear, and a
negative (a line that must pass unchanged: SHAs, UUIDs, digests, base64 prose,
placeholders, masked values, settings such as `max_tokens=4096`) counts as changed
if its text is not in the output as it was.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

VECTORS = Path(__file__).parent / "vectors"
MIN_RECALL = 0.95
MAX_NEGATIVES_CHANGED = 0.02


def _normalise(text: str) -> str:
    # What the terminal itself does to text (tabs to spaces, no trailing blanks), so
    # that only redaction can make a negative differ.
    return "\n".join(line.expandtabs(8).rstrip() for line in text.splitlines())


def run_json(tmp_path: Path, text: str) -> str:
    data = tmp_path / "vectors.txt"
    data.write_text(text)
    doc = tmp_path / "vectors.md"
    doc.write_text(f"# Vectors\n\n```bash\ncat {data}\n```\n")
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["wasTruncated"] is False
    return str(result["output"])


def score(
    output: str, vectors: dict[str, list[dict[str, object]]]
) -> tuple[float, float, list[str]]:
    problems: list[str] = []
    secrets = [s for p in vectors["positive"] for s in p["secrets"]]  # type: ignore[attr-defined]
    leaked = [s for s in secrets if s in output]
    problems += [f"leaked: {s}" for s in leaked]
    normalised = _normalise(output)
    negatives = [str(n["text"]) for n in vectors["negative"]]
    changed = [n for n in negatives if _normalise(n) not in normalised]
    problems += [f"changed: {n}" for n in changed]
    recall = 1 - len(leaked) / len(secrets)
    return recall, len(changed) / len(negatives), problems


@pytest.mark.parametrize("slice_name", ["tuning", "heldout"])
def test_recall_and_negatives_through_run_json(tmp_path: Path, slice_name: str) -> None:
    vectors = tomllib.loads((VECTORS / f"{slice_name}.toml").read_text())
    texts = [str(v["text"]) for v in vectors["positive"] + vectors["negative"]]
    output = run_json(tmp_path, "\n\n".join(texts) + "\n")
    recall, changed, problems = score(output, vectors)
    print(
        f"{slice_name}: {len(vectors['positive'])} positive vectors, "
        f"{len(vectors['negative'])} negative; recall {recall:.1%}, "
        f"negatives changed {changed:.1%}"
    )
    print("\n".join(problems))
    assert recall >= MIN_RECALL, problems
    assert changed <= MAX_NEGATIVES_CHANGED, problems
