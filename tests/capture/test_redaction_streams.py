"""A secret never leaks because of how it arrived: split across reads, coloured, or cut."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aintern_ls.capture import OutputCollector
from aintern_ls.capture.collector import _MARGIN
from aintern_ls.capture.redaction import marker, redact
from aintern_ls.models import TruncationMode

TOKEN = "ghp_" + "Qm7Vx2Lk9Pz4Rt6Yw1Nc8Bd3Hf5Js0GaUe7K"
SLACK = "xoxb-" + "2718281828-3141592653-" + "Qm7Vx2Lk9Pz4Rt6Yw1Nc8Bd3"


def _pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c for c in cuts if 0 < c < len(data)})
    return [data[i:j] for i, j in zip([0, *points], [*points, len(data)], strict=True)]


def _collect(pieces: list[bytes], **kwargs: object) -> str:
    collector = OutputCollector(**kwargs)  # type: ignore[arg-type]
    for piece in pieces:
        collector.feed(piece)
    return collector.finish().output


def _no_fragment(secret: str, output: str, shortest: int = 12) -> None:
    for size in range(shortest, len(secret) + 1):
        for start in range(len(secret) - size + 1):
            assert secret[start : start + size] not in output, (
                secret[start : start + size],
                output,
            )


# ---------------------------------------------------------------- split across reads


@pytest.mark.parametrize("render", [True, False])
def test_token_split_at_every_read_boundary_is_redacted(render: bool) -> None:
    data = f"export GITHUB_TOKEN={TOKEN}\r\nok\r\n".encode()
    for cut in range(len(data) + 1):
        out = _collect(_pieces(data, [cut]), render=render)
        _no_fragment(TOKEN, out)
        assert marker("github-pat", TOKEN) in out


# -------------------------------------------------------------------------- colour

GREP_WHOLE = f"token: \x1b[01;31m\x1b[K{TOKEN}\x1b[m\x1b[K\r\n".encode()
GREP_PREFIX = f"token: \x1b[01;31m\x1b[K{TOKEN[:4]}\x1b[m\x1b[K{TOKEN[4:]}\r\n".encode()
GREP_MIDDLE = (
    f"{SLACK[:10]}\x1b[01;31m\x1b[K{SLACK[10:20]}\x1b[m\x1b[K{SLACK[20:]} in .env\r\n".encode()
)
RAINBOW = "".join(f"\x1b[3{i % 7 + 1}m{c}" for i, c in enumerate(TOKEN)).encode() + b"\x1b[0m\r\n"


@pytest.mark.parametrize("render", [True, False])
@pytest.mark.parametrize(
    ("data", "secret"),
    [(GREP_WHOLE, TOKEN), (GREP_PREFIX, TOKEN), (GREP_MIDDLE, SLACK), (RAINBOW, TOKEN)],
)
def test_token_coloured_in_pieces_is_redacted(data: bytes, secret: str, render: bool) -> None:
    for cut in (0, 5, 9, 14, 20, len(data) // 2, len(data) - 3):
        out = _collect(_pieces(data, [cut]), render=render)
        plain = out if render else redact(out).text  # raw text: what's left after escapes
        _no_fragment(secret, plain.replace("\x1b", ""), shortest=8)
        assert "[REDACTED:" in out


def test_colours_around_a_redacted_token_are_kept_when_rendering_is_off() -> None:
    out = _collect([GREP_PREFIX], render=False)
    assert out == f"token: \x1b[01;31m\x1b[K{marker('github-pat', TOKEN)}\x1b[m\x1b[K\n"


def test_grep_color_output_through_run_json(tmp_path: Path) -> None:
    data = tmp_path / "env.txt"
    data.write_text(f"GITHUB_TOKEN={TOKEN}\nSLACK_TOKEN={SLACK}\nHOME=/home/me\n")
    doc = tmp_path / "grep.md"
    doc.write_text(
        "```bash\n"
        f"grep --color=always -E 'ghp_|xoxb-[0-9]+' {data}\n"
        f"GREP_COLORS='mt=01;32' grep --color=always -o 'Qm7Vx2' {data}\n"
        "```\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "aintern_ls", "run", str(doc), "--block", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["output"]
    _no_fragment(TOKEN, out)
    _no_fragment(SLACK, out)
    assert out.count("[REDACTED:") == 2
    assert "\x1b" not in out


# ---------------------------------------------------------------------- truncation


@pytest.mark.parametrize("render", [True, False])
@pytest.mark.parametrize("mode", list(TruncationMode))
def test_token_cut_by_truncation_never_shows_a_fragment(render: bool, mode: TruncationMode) -> None:
    max_characters = 1000
    capacity = max_characters + 2 * _MARGIN
    for where in (max_characters // 2, capacity, 5 * capacity):
        for offset in (-30, -7, -1, 0, 1, 13):
            filler = "a" * max(where + offset, 0) + " "
            colour = "\x1b[33m" if not render else ""
            text = filler + colour + TOKEN + "\x1b[0m " + "b" * 4 * capacity + "\n"
            out = _collect(
                [text.encode()], max_characters=max_characters, truncation=mode, render=render
            )
            _no_fragment(TOKEN, out)


def test_token_cut_by_truncation_in_a_buffer_capture_with_rendering_off() -> None:
    from aintern_ls.capture import CaptureService
    from aintern_ls.models import OutputCaptureSettings

    settings = OutputCaptureSettings(max_capture_length=200, strip_ansi_sequences=False)
    service = CaptureService(settings)
    for offset in range(-45, 5, 4):
        raw = "x" * (100 + offset) + "\x1b[31m" + TOKEN + "\x1b[0m" + "y" * 400
        processed = service.process_output(raw)
        assert processed.was_truncated
        _no_fragment(TOKEN, processed.text)
