"""OutputCollector: PTY bytes in, clean, bounded, redacted output out."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.capture import FinalOutput, OutputCollector
from aintern_ls.capture.collector import _MARGIN
from aintern_ls.capture.redaction import marker
from aintern_ls.models import TruncationMode

FAKE_TOKEN = "ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"

# What `run --json` gets from a block that prints colours, a `\r` progress bar and a
# token, as a PTY delivers it (onlcr turns each \n into \r\n).
RUN_STREAM = (
    "\x1b[1;32m✔ build\x1b[0m ready\r\n"
    + "".join(f"\r\x1b[2K\x1b[36m{'#' * (i // 10)}\x1b[0m {i}%" for i in range(0, 101, 5))
    + "\r\n"
    + f"token: \x1b[33m{FAKE_TOKEN}\x1b[0m\r\n"
    + "héllo wörld ☃\r\n"
).encode()
MARKER = marker("github-pat", FAKE_TOKEN)
RUN_EXPECTED = f"✔ build ready\n########## 100%\ntoken: {MARKER}\nhéllo wörld ☃\n"


def collect(pieces: list[bytes], **kwargs: object) -> FinalOutput:
    collector = OutputCollector(**kwargs)  # type: ignore[arg-type]
    for piece in pieces:
        collector.feed(piece)
    return collector.finish()


def test_run_stream_is_clean_collapsed_and_redacted() -> None:
    final = collect([RUN_STREAM])
    assert final.output == RUN_EXPECTED
    assert not final.was_truncated
    assert final.redaction_count == 1
    assert final.original_length == len(RUN_EXPECTED.replace(MARKER, FAKE_TOKEN))


def test_run_stream_split_at_every_byte_boundary_gives_the_same_output() -> None:
    for cut in range(len(RUN_STREAM) + 1):
        final = collect([RUN_STREAM[:cut], RUN_STREAM[cut:]])
        assert final.output == RUN_EXPECTED, cut


def test_run_stream_fed_one_byte_at_a_time_gives_the_same_output() -> None:
    pieces = [RUN_STREAM[i : i + 1] for i in range(len(RUN_STREAM))]
    assert collect(pieces).output == RUN_EXPECTED


@given(st.lists(st.integers(min_value=0, max_value=len(RUN_STREAM)), max_size=8))
def test_run_stream_split_anywhere_gives_the_same_output(cuts: list[int]) -> None:
    points = sorted(set(cuts))
    pieces = [
        RUN_STREAM[i:j] for i, j in zip([0, *points], [*points, len(RUN_STREAM)], strict=True)
    ]
    assert collect(pieces).output == RUN_EXPECTED


def test_feed_returns_rendered_text_for_live_display() -> None:
    collector = OutputCollector()
    assert collector.feed(b"\x1b[31mone\x1b[0m\r\ntw") == "one\n"
    assert collector.feed(b"o\r\n") == "two\n"


def test_invalid_utf8_becomes_replacement_characters() -> None:
    final = collect([b"ok \xff\xfe end\r\n", b"cut \xe2\x98"])
    assert final.output == "ok \ufffd\ufffd end\ncut \ufffd"


def test_character_split_across_reads_is_decoded_once() -> None:
    snowman = "☃".encode()
    assert collect([snowman[:1], snowman[1:2], snowman[2:]]).output == "☃"


def test_binary_output_yields_no_escape_or_c1_characters() -> None:
    final = collect([bytes(range(256)) * 50])
    assert not any(c == "\x1b" or "\x80" <= c <= "\x9f" for c in final.output)


def test_long_output_is_cut_to_the_budget_keeping_both_ends() -> None:
    lines = b"".join(b"line %06d\r\n" % i for i in range(100_000))
    final = collect([lines[i : i + 4096] for i in range(0, len(lines), 4096)], max_characters=1000)
    assert final.was_truncated
    assert final.original_length == 100_000 * 12
    assert final.output.startswith("line 000000\nline 000001\n")
    assert final.output.endswith("line 099998\nline 099999\n")
    indicator = next(line for line in final.output.split("\n") if "truncated" in line)
    assert len(final.output) - len(indicator) - 1 <= 1000
    removed_lines = int(indicator.split()[1].replace(",", ""))
    assert 99_900 < removed_lines < 100_000


@pytest.mark.parametrize("mode", list(TruncationMode))
def test_every_truncation_mode_is_honoured(mode: TruncationMode) -> None:
    data = b"".join(b"row %d\r\n" % i for i in range(5000))
    final = collect([data], max_characters=200, truncation=mode)
    assert final.was_truncated
    if mode is not TruncationMode.KEEP_END:
        assert final.output.startswith("row 0\n")
    if mode is not TruncationMode.KEEP_START:
        assert final.output.endswith("row 4999\n")


def test_memory_stays_bounded_for_huge_output() -> None:
    chunk = b"".join(b"\x1b[32mok\x1b[0m build step %d of many\r\n" % i for i in range(2000))
    collector = OutputCollector(max_characters=100_000)
    tracemalloc.start()
    try:
        for _ in range(300):  # about 20 MB
            collector.feed(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    final = collector.finish()
    assert peak < 8 * 1024 * 1024
    assert final.was_truncated
    assert final.original_length > 15_000_000


def test_secret_straddling_the_stored_head_is_never_half_shown() -> None:
    max_characters = 1000
    capacity = max_characters + 2 * _MARGIN
    for offset in (-30, -10, -1, 0, 1, 10):
        filler = "a" * (capacity + offset - 10) + " "
        data = (filler + FAKE_TOKEN + " " + "b" * 3 * capacity + "\n").encode()
        final = collect([data], max_characters=max_characters)
        assert final.was_truncated
        for size in range(8, len(FAKE_TOKEN) + 1):
            for start in range(len(FAKE_TOKEN) - size + 1):
                assert FAKE_TOKEN[start : start + size] not in final.output


def test_secret_in_the_kept_tail_of_huge_output_is_redacted() -> None:
    data = b"noise line\r\n" * 200_000 + f"export GITHUB_TOKEN={FAKE_TOKEN}\r\n".encode()
    final = collect([data[i : i + 65536] for i in range(0, len(data), 65536)])
    assert final.was_truncated
    assert final.output.endswith(f"export GITHUB_TOKEN={MARKER}\n")
    assert final.redaction_count == 1


def test_redaction_can_be_turned_off() -> None:
    assert FAKE_TOKEN in collect([RUN_STREAM], redact=False).output


def test_finish_is_idempotent() -> None:
    collector = OutputCollector()
    collector.feed(b"abc\r\n")
    assert collector.finish() is collector.finish()


def test_shell_integration_marks_are_collected() -> None:
    collector = OutputCollector()
    collector.feed(b"\x1b]633;C\x07out\r\n\x1b]633;D;3\x07")
    collector.finish()
    assert [(m.kind, m.params, m.offset) for m in collector.marks] == [
        ("C", (), 0),
        ("D", ("3",), 4),
    ]


def test_raw_mode_keeps_escapes_and_optionally_normalises_line_endings() -> None:
    raw = b"\x1b[31mred\x1b[0m\r\nnext\r"
    assert collect([raw], render=False, redact=False).output == "\x1b[31mred\x1b[0m\nnext\n"
    kept = collect([raw], render=False, redact=False, normalize_line_endings=False)
    assert kept.output == "\x1b[31mred\x1b[0m\r\nnext\r"
    split = collect([raw[:-3], raw[-3:]], render=False, redact=False)
    assert split.output == "\x1b[31mred\x1b[0m\nnext\n"


@given(st.lists(st.binary(max_size=64), max_size=12))
def test_no_escape_or_c1_character_survives_any_bytes(pieces: list[bytes]) -> None:
    output = collect(pieces).output
    assert not any(c == "\x1b" or c == "\r" or "\x80" <= c <= "\x9f" for c in output)


def test_utf8_character_holding_a_c1_byte_is_not_a_string_terminator() -> None:
    assert collect(["\x1b]2;末 title\x1b\\after".encode()]).output == "after"


@given(
    st.integers(min_value=1, max_value=400),
    st.integers(min_value=1, max_value=3000),
    st.integers(min_value=20, max_value=2000),
    st.sampled_from(list(TruncationMode)),
)
def test_collected_output_never_exceeds_budget_plus_indicator(
    line_length: int, line_count: int, budget: int, mode: TruncationMode
) -> None:
    lines = [f"{i:06d}".ljust(line_length, "x")[:line_length] for i in range(line_count)]
    data = "\r\n".join(lines).encode()
    final = collect(
        [data[i : i + 8192] for i in range(0, len(data), 8192)],
        max_characters=budget,
        truncation=mode,
    )
    text = "\n".join(lines)
    assert final.original_length == len(text)
    if not final.was_truncated:
        assert final.output == text
        return
    indicator = next(line for line in final.output.split("\n") if "…[truncated" in line)
    # The indicator sits on a line of its own: its newlines count with it.
    assert len(final.output) - len(indicator) - 2 <= budget
    if mode is TruncationMode.KEEP_END and line_length <= budget:
        assert final.output.endswith(lines[-1])
    if mode is TruncationMode.KEEP_BOTH and 2 * line_length + 1 <= budget:
        assert final.output.startswith(lines[0] + "\n")
        assert final.output.endswith(lines[-1])
