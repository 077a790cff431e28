"""The corpus reader and the figures every bench and test scores rows with
(`bench/_corpus_figures.py`)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench._corpus_figures import by_split, decode_command, encode_command, figures, read_rows
from tests.safety._levels import B, C, D, M, S

HERE = Path(__file__).parent


@pytest.mark.parametrize(
    "cell,command",
    [
        ("cat <<EOF\\nhi\\nEOF", "cat <<EOF\nhi\nEOF"),
        ("del C:\\temp\\x5cntds.dit", "del C:\\temp\\ntds.dit"),
        ("Get-Content .\\x5cnotes.txt", "Get-Content .\\notes.txt"),
        ("rd /s /q C:\\Users\\me", "rd /s /q C:\\Users\\me"),  # other backslashes: themselves
        ("copy a \\\\host\\share", "copy a \\\\host\\share"),
        ("# C:\\\\nGet-Process", "# C:\\\nGet-Process"),  # a backslash at the end of a line
        ("echo hello \\\\nworld", "echo hello \\\nworld"),  # a line continuation
        ("printf '\\x5cx5c'", "printf '\\x5c'"),
        ("plain", "plain"),
    ],
)
def test_cells_decode(cell: str, command: str) -> None:
    assert decode_command(cell) == command
    assert encode_command(command) == cell


@given(st.text(alphabet=st.sampled_from(list("\\nx5c\n a:")), max_size=40))
def test_encoding_round_trips(text: str) -> None:
    cell = encode_command(text)
    assert "\n" not in cell
    assert decode_command(cell) == text


def test_a_cell_cannot_hold_a_tab() -> None:
    with pytest.raises(ValueError, match="tab"):
        encode_command("a\tb")


def test_figures_count_each_bar() -> None:
    pairs = [(B, B), (B, C), (C, C), (C, D), (S, S), (S, D), (M, D), (D, D)]
    fig = figures(pairs)
    assert fig.rows == 8
    assert fig.blocked == (1, 2)
    assert fig.high == (3, 4)  # blocked-or-critical rated critical or above
    assert fig.safe_over == (1, 2)
    assert fig.low_over == (2, 3)
    assert fig.exact == (4, 8)
    assert (fig.blocked_recall, fig.high_recall, fig.safe_over_flagged) == (0.5, 0.75, 0.5)
    assert fig.exact_agreement == 0.5
    assert "blocked  50.0% (1/2)" in fig.line()
    empty = figures([])
    # no rows: "n/a" (NaN), so no bar is met vacuously (safety-debt8)
    assert all(
        math.isnan(x)
        for x in (empty.blocked_recall, empty.safe_over_flagged, empty.exact_agreement)
    )


def test_figures_per_split() -> None:
    rows = [{"split": "tune"}, {"split": "dev"}, {"split": "dev"}, {}]
    judged = list(zip(rows, [B, B, S, S], [B, D, S, D], strict=True))
    split = by_split(judged)
    assert sorted(split) == ["all", "dev", "tune"]
    assert split["dev"].blocked == (0, 1) and split["tune"].blocked == (1, 1)
    assert split["all"].safe_over == (1, 1)


def test_every_corpus_file_reads() -> None:
    for path in [*HERE.glob("*.tsv"), *(HERE / "heldout").glob("*.tsv")]:
        rows = read_rows(path)
        assert rows, path
        assert all({"command", "shell", "expected"} <= r.keys() for r in rows), path


# A Windows path whose `\n` was read as a newline: `C:\temp` + newline + `tds.dit`, `.` +
# newline + `otes.txt` (the backslash and the `n` of a file name swallowed). A row meaning
# a literal backslash-n writes it `\x5cn`; this catches the commonest shape (a file name
# with an extension), not every one.
_MANGLED_PATH = re.compile(
    r"(?i)(?:\b[a-z]:|%\w+%|\$env:\w+|(?<![\w.])\.)(?:\\[\w.-]*)*\n[\w-]+"
    r"\.(?:exe|dll|sys|txt|dit|ps1|bat|log|dat|ini|lnk|evtx|json|xml|csv)\b"
)


def test_no_row_reads_a_windows_file_name_as_a_line_break() -> None:
    mangled = [
        f"{path.name}: {decode_command(r['command'])!r}"
        for path in sorted([*HERE.glob("*.tsv"), *(HERE / "heldout").glob("*.tsv")])
        for r in read_rows(path)
        if _MANGLED_PATH.search(decode_command(r["command"]))
    ]
    assert mangled == [], "write a literal backslash-n as \\x5cn:\n" + "\n".join(mangled)


@pytest.mark.parametrize(
    "file,command",
    [
        ("corpus.tsv", 'rd /s /q "%APPDATA%\\npm-cache"'),
        ("corpus.tsv", "Remove-Item -Path .\\node_modules -Recurse -Force -ErrorAction Silent"),
        ("sources_p.tsv", "esentutl.exe /y /vss C:\\Windows\\NTDS\\NTDS.dit /d C:\\temp\\ntds.dit"),
        ("sources_s.tsv", "length=1048576 C:\\Windows\\System32\\ntoskrnl.exe"),
        ("sources_ext6.tsv", "rm -rf C:\\Users\\carol\\repo\\node_modules"),
        ("sources_ext6.tsv", "echo / | xargs --delimiter '\\n' rm -rf"),
    ],
)
def test_rows_with_a_literal_backslash_n_read_as_written(file: str, command: str) -> None:
    commands = [decode_command(r["command"]) for r in read_rows(HERE / file)]
    assert any(command in c for c in commands), command
