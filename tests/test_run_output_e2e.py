"""One output path: `aintern-ls run --json` returns what a person saw, cleaned and redacted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FAKE_GITHUB = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"
FAKE_AWS = "AKIA" + "QX7MZKB4TPLWR2NE"

DOC = f"""# Build

```bash
printf '\\033[1;32mBuild\\033[0m \\033[38;5;208mstarted\\033[0m\\n'
for i in 0 25 50 75 100; do printf '\\rprogress %3d%%' "$i"; sleep 0.05; done
printf '\\n'
echo "token: {FAKE_GITHUB}"
echo "aws_access_key_id = {FAKE_AWS}"
echo "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 uuid 123e4567-e89b-12d3-a456-426614174000"
printf '\\033[31merror\\033[0m: done\\n'
```
"""


def test_run_json_output_is_clean_collapsed_and_redacted(tmp_path: Path) -> None:
    doc = tmp_path / "build.md"
    doc.write_text(DOC)
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    out = result["output"]
    assert result["exitCode"] == 0 and result["timedOut"] is False
    assert "\x1b" not in out and not any(0x80 <= ord(c) <= 0x9F for c in out)
    lines = out.splitlines()
    assert lines[0] == "Build started"
    assert lines[1] == "progress 100%"  # the \r progress bar collapsed to its last state
    assert FAKE_GITHUB not in out and FAKE_AWS not in out
    assert "[REDACTED:" in lines[2] and "[REDACTED:" in lines[3]
    # ordinary hashes and UUIDs stay
    assert "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39" in out
    assert "123e4567-e89b-12d3-a456-426614174000" in out
    assert lines[-1] == "error: done"
    assert result["wasTruncated"] is False
    assert result["cwd"] == str(tmp_path)


def test_run_json_truncates_huge_output_keeping_both_ends(tmp_path: Path) -> None:
    doc = tmp_path / "big.md"
    doc.write_text("```bash\nseq 1 200000\n```\n")
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    result = json.loads(proc.stdout)
    out = result["output"]
    assert result["wasTruncated"] is True
    assert result["originalLength"] > 1_000_000
    assert len(out) <= 100_000 + 200
    assert out.startswith("1\n2\n3\n")
    assert out.rstrip().endswith("199999\n200000")
    assert "truncated" in out
