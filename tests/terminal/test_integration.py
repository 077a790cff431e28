"""The OSC 633/133 mark parser: marks split anywhere, nonce checks, other OSCs untouched."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.terminal.integration import Mark, MarkParser, unescape

NONCE = "n0nce"
STREAM = (
    "prompt$ \x1b]633;E;echo a\\x3bb;n0nce\x07\x1b]633;C;n0nce\x07a;b\r\n"
    "\x1b]0;window title\x07\x1b]633;P;Cwd=/tmp/x\\\\y;n0nce\x1b\\"
    "\x1b]633;D;7;n0nce\x07\x1b]633;A;n0nce\x07$ \x1b]633;B;n0nce\x07"
)


def parse_in_pieces(text: str, cuts: list[int]) -> list[str | Mark]:
    parser = MarkParser(NONCE)
    items: list[str | Mark] = []
    previous = 0
    for cut in [*sorted(cuts), len(text)]:
        items.extend(parser.feed(text[previous:cut]))
        previous = cut
    merged: list[str | Mark] = []
    for item in items:
        if isinstance(item, str) and merged and isinstance(merged[-1], str):
            merged[-1] += item
        else:
            merged.append(item)
    return merged


def test_marks_are_pulled_out_and_text_kept() -> None:
    items = parse_in_pieces(STREAM, [])
    marks = [i for i in items if isinstance(i, Mark)]
    assert [m.kind for m in marks] == ["E", "C", "P", "D", "A", "B"]
    assert marks[0].command_line == "echo a;b"
    assert marks[2].cwd == "/tmp/x\\y"
    assert marks[3].exit_code == 7
    text = "".join(i for i in items if isinstance(i, str))
    assert text == "prompt$ a;b\r\n\x1b]0;window title\x07$ "


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=6))
def test_a_mark_split_anywhere_parses_the_same(cuts: list[int]) -> None:
    assert parse_in_pieces(STREAM, cuts) == parse_in_pieces(STREAM, [])


def test_a_633_mark_without_the_nonce_is_dropped() -> None:
    items = MarkParser(NONCE).feed("x\x1b]633;D;42;forged\x07\x1b]633;C\x07y")
    assert items == ["xy"]


def test_osc_133_is_accepted_but_untrusted() -> None:
    items = MarkParser(NONCE).feed("\x1b]133;C\x07out\x1b]133;D;2\x07")
    assert items == [
        Mark("C", trusted=False),
        "out",
        Mark("D", exit_code=2, trusted=False),
    ]


def test_an_unterminated_osc_is_eventually_given_back_as_text() -> None:
    parser = MarkParser(NONCE)
    assert parser.feed("\x1b]633;C") == []
    flood = "z" * 10_000
    assert "".join(i for i in parser.feed(flood) if isinstance(i, str)).endswith(flood)


def test_unescape() -> None:
    assert unescape(r"a\x3bb\\c\x0a") == "a;b\\c\n"


@given(st.text())
def test_escape_round_trips(value: str) -> None:
    from aintern_ls.terminal.integration import escape

    escaped = escape(value)
    assert ";" not in escaped and not any(ord(ch) < 0x20 for ch in escaped)
    assert unescape(escaped) == value


# -- one parser: the session and the VT processor read marks the same way ----------------

_fields = st.text(alphabet=st.characters(blacklist_characters="\x07\x1b\x9c\x18\x1a"), max_size=12)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["633", "133"]),
            st.sampled_from(["A", "B", "C", "D", "E", "P", "Z"]),
            st.lists(_fields, max_size=3),
        ),
        max_size=6,
    )
)
def test_session_and_vt_processor_read_the_same_marks(
    marks: list[tuple[str, str, list[str]]],
) -> None:
    from aintern_ls.capture import VTProcessor
    from aintern_ls.capture.marks import ParsedMark

    stream = "".join(
        f"\x1b]{code};{';'.join([kind, *fields])}\x07text\n" for code, kind, fields in marks
    )
    session_marks = [i for i in MarkParser(None).feed(stream) if isinstance(i, Mark)]
    vt = VTProcessor()
    vt_marks = [*vt.feed(stream).marks, *vt.finish().marks]
    by_kind = [(m.kind, m.exit_code) for m in session_marks if m.kind == "D"]
    vt_d = [
        ("D", ParsedMark(m.code, m.kind, m.params).exit_code) for m in vt_marks if m.kind == "D"
    ]
    assert by_kind == vt_d
    assert [m.command_line for m in session_marks if m.kind == "E"] == [
        (m.params[0] if m.params else "") for m in vt_marks if m.kind == "E" and m.code == 633
    ]
