"""The VT processor: every ECMA-48 family stripped, line edits rendered, marks pulled out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.capture import Mark, VTProcessor, render

ESC = "\x1b"


def feed_pieces(pieces: list[str]) -> tuple[str, list[Mark]]:
    vt = VTProcessor()
    text: list[str] = []
    marks: list[Mark] = []
    for piece in pieces:
        result = vt.feed(piece)
        text.append(result.text)
        marks.extend(result.marks)
    result = vt.finish()
    text.append(result.text)
    marks.extend(result.marks)
    return "".join(text), marks


# ------------------------------------------------------------------ sequence families

STRIPPED = {
    # CSI: SGR in all its forms
    "sgr_basic": ("\x1b[31mred\x1b[0m", "red"),
    "sgr_empty_reset": ("a\x1b[mb", "ab"),
    "sgr_256": ("\x1b[38;5;196mx\x1b[39m", "x"),
    "sgr_truecolor_semicolons": ("\x1b[38;2;255;128;0mx\x1b[0m", "x"),
    "sgr_truecolor_colons": ("\x1b[38:2::255:128:0mx\x1b[0m", "x"),
    "sgr_underline_style_colon": ("\x1b[4:3mcurly\x1b[4:0m", "curly"),
    # CSI with private parameters and intermediates
    "csi_private_cursor_hide": ("\x1b[?25lhidden\x1b[?25h", "hidden"),
    "csi_private_gt": ("\x1b[>0;0mq", "q"),
    "csi_private_lt": ("\x1b[<1uq", "q"),
    "csi_private_eq": ("\x1b[=5hq", "q"),
    "csi_bracketed_paste": ("\x1b[?2004hprompt\x1b[?2004l", "prompt"),
    "csi_intermediate_cursor_style": ("\x1b[2 qx", "x"),
    "csi_intermediate_soft_reset": ("\x1b[!px", "x"),
    "csi_intermediate_quote": ('\x1b[1"qx', "x"),
    "csi_device_attributes": ("\x1b[c\x1b[>c\x1b[6nx", "x"),
    "csi_window_ops": ("\x1b[22;0;0tx\x1b[23;0;0t", "x"),
    "csi_scroll_region": ("\x1b[1;24rx", "x"),
    "csi_clear_keeps_the_transcript": ("$ clear\r\n\x1b[H\x1b[2J\x1b[3Jafter", "$ clear\nafter"),
    # OSC ended by BEL or ST (7-bit and 8-bit)
    "osc_title_bel": ("a\x1b]0;my title\x07b", "ab"),
    "osc_title_st": ("a\x1b]2;my title\x1b\\b", "ab"),
    "osc_title_c1_st": ("a\x1b]2;my title\x9cb", "ab"),
    "osc_hyperlink": ("\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", "link"),
    "osc_hyperlink_with_params": ("\x1b]8;id=1;file:///x\x07f\x1b]8;;\x07", "f"),
    "osc_cwd": ("\x1b]7;file://host/home/me\x07$ ", "$ "),
    "osc_clipboard": ("\x1b]52;c;aGVsbG8=\x07x", "x"),
    "osc_colour_query": ("\x1b]11;?\x07x", "x"),
    "osc_c1_introducer": ("a\x9d0;title\x07b", "ab"),
    # DCS / SOS / PM / APC strings to ST
    "dcs_decrqss": ("a\x1bP$qm\x1b\\b", "ab"),
    "dcs_sixel": ("a\x1bPq#0;2;0;0;0#1!6~-\x1b\\b", "ab"),
    "dcs_tmux_passthrough": ("a\x1bPtmux;\x1b\x1b]0;t\x07\x1b\\b", "ab"),
    "dcs_c1": ("a\x900$r0;1;15,}\x9cb", "ab"),
    "sos": ("a\x1bXstring content\x1b\\b", "ab"),
    "sos_c1": ("a\x98string\x9cb", "ab"),
    "pm": ("a\x1b^privacy message\x1b\\b", "ab"),
    "pm_c1": ("a\x9eprivacy\x9cb", "ab"),
    "apc": ("a\x1b_Gf=100;AAAA\x1b\\b", "ab"),
    "apc_c1": ("a\x9fkitty\x9cb", "ab"),
    # nF escapes (charsets, DEC line attributes)
    "nf_g0_ascii": ("\x1b(Bx", "x"),
    "nf_g1_graphics": ("\x1b)0x", "x"),
    "nf_decaln": ("\x1b#8x", "x"),
    "nf_double_height": ("\x1b#3x\x1b#4y", "xy"),
    "nf_utf8_select": ("\x1b%Gx", "x"),
    "nf_two_intermediates": ("\x1b$)Bx", "x"),
    # Fp / Fs escapes
    "save_restore_cursor_unpaired": ("a\x1b8b\x1b7c", "abc"),
    "keypad_modes": ("\x1b=a\x1b>b", "ab"),
    "full_reset": ("\x1bcx", "x"),
    "single_shift": ("\x1bNx\x1bOy", "xy"),
    "vt52_style_escapes": ("\x1bAa\x1bZb\x1b<c", "abc"),
    # 8-bit C1 controls
    "c1_csi_sgr": ("\x9b31mred\x9b0m", "red"),
    "c1_csi_private": ("\x9b?25lx", "x"),
    "c1_lone_controls": ("a\x84b\x85c\x88d\x8ee", "abcde"),
    # CAN / SUB abort a sequence in progress
    "can_aborts_csi": ("\x1b[31\x18mx", "mx"),
    "sub_aborts_csi": ("\x1b[31\x1amx", "mx"),
    "can_aborts_osc": ("\x1b]0;title\x18visible", "visible"),
    "sub_aborts_dcs": ("\x1bPpayload\x1avisible", "visible"),
    "can_aborts_escape": ("\x1b(\x18x", "x"),
    # Other C0 controls print nothing
    "bell_and_nul": ("a\x07b\x00c\x7fd", "abcd"),
    "escape_escape": ("\x1b\x1b[31mx", "x"),
    "unterminated_csi_at_end": ("abc\x1b[12;", "abc"),
    "unterminated_osc_at_end": ("abc\x1b]0;never ends", "abc"),
}


@pytest.mark.parametrize(("raw", "expected"), STRIPPED.values(), ids=STRIPPED.keys())
def test_sequence_family_is_stripped(raw: str, expected: str) -> None:
    assert render(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), STRIPPED.values(), ids=STRIPPED.keys())
def test_sequence_family_split_at_every_point_renders_the_same(raw: str, expected: str) -> None:
    for cut in range(len(raw) + 1):
        assert feed_pieces([raw[:cut], raw[cut:]])[0] == expected, cut
    assert feed_pieces(list(raw))[0] == expected


# ------------------------------------------------------------------------- rendering

RENDERED = {
    "carriage_return_progress": ("10%\r50%\r100%", "100%"),
    "progress_then_newline": ("10%\r50%\r100%\r\ndone\r\n", "100%\ndone\n"),
    "cr_overwrites_prefix_only": ("abcdef\rxy", "xycdef"),
    "backspace": ("abc\bd", "abd"),
    "backspace_at_column_zero": ("\b\bab", "ab"),
    "backspace_spinner": ("working |\b/\b-\b\\\bdone", "working done"),
    "erase_to_end": ("hello world\x1b[6G\x1b[Kthere", "hellothere"),
    "erase_to_end_explicit_zero": ("abcdef\x1b[3D\x1b[0K", "abc"),
    "erase_to_start": ("abcdef\x1b[3D\x1b[1Kx", "   xef"),
    "erase_whole_line_then_cr": ("garbage\x1b[2K\rclean", "clean"),
    "npm_style_redraw": ("\x1b[2K\x1b[1Gfetch 1/3\x1b[2K\x1b[1Gfetch 3/3\n", "fetch 3/3\n"),
    "cursor_column_absolute": ("abcdef\x1b[3GX", "abXdef"),
    "cursor_column_hpa": ("abcdef\x1b[3`X", "abXdef"),
    "cursor_forward_pads": ("ab\x1b[3Cc", "ab   c"),
    "cursor_back": ("abcdef\x1b[2DXY", "abcdXY"),
    "cursor_position_sets_column": ("abcdef\x1b[5;2HX", "aXcdef"),
    "cursor_home": ("abc\x1b[HX", "Xbc"),
    "erase_characters": ("abcdef\x1b[3D\x1b[2Xz", "abcz f"),
    "delete_characters": ("abcdef\x1b[4D\x1b[2P", "abef"),
    "insert_blanks": ("abcdef\x1b[4D\x1b[2@", "ab  cdef"),
    "crlf_and_lone_lf": ("a\r\nb\nc", "a\nb\nc"),
    "vertical_tab_and_form_feed": ("a\x0bb\x0cc", "a\nb\nc"),
    "tab_kept": ("a\tb", "a\tb"),
    "save_restore_cursor": ("\x1b7a\x1b8b", "b"),
    "pip_style_bar": (
        "\r     |                | 0.0 MB\r     |████████████████| 9.9 MB\n",
        "     |████████████████| 9.9 MB\n",
    ),
    "tqdm_style": (
        "\r  0%|          | 0/10\r 50%|█████     | 5/10\r100%|██████████| 10/10\n",
        "100%|██████████| 10/10\n",
    ),
    "coloured_progress": (
        "\r\x1b[2K\x1b[36m██\x1b[0m 10%\r\x1b[2K\x1b[36m████████\x1b[0m 100%\r\n",
        "████████ 100%\n",
    ),
}


@pytest.mark.parametrize(("raw", "expected"), RENDERED.values(), ids=RENDERED.keys())
def test_line_edits_render_what_the_person_saw(raw: str, expected: str) -> None:
    assert render(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), RENDERED.values(), ids=RENDERED.keys())
def test_line_edits_split_at_every_point_render_the_same(raw: str, expected: str) -> None:
    for cut in range(len(raw) + 1):
        assert feed_pieces([raw[:cut], raw[cut:]])[0] == expected, cut
    assert feed_pieces(list(raw))[0] == expected


def test_progress_bar_collapses_to_its_final_state() -> None:
    redraws = "".join(f"\r\x1b[2KDownloading {i:3d}%" for i in range(101))
    assert render(f"start\r\n{redraws}\r\ndone\r\n") == "start\nDownloading 100%\ndone\n"


MULTI_LINE_REDRAW = "layer a: 0%\nlayer b: 0%\n" + "".join(
    f"\x1b[2A\x1b[2Klayer a: {i}%\n\x1b[2Klayer b: {i * 2}%\n" for i in range(0, 51, 10)
)


def test_multi_line_redraw_with_cursor_up_keeps_only_the_last_frame() -> None:
    assert render(MULTI_LINE_REDRAW) == "layer a: 50%\nlayer b: 100%\n"


def test_streamed_multi_line_redraw_replaces_every_frame_after_the_first() -> None:
    # Streaming, the first frame was already final when the first cursor-up came; every
    # later frame redraws in place, so only the last one remains after it.
    text, _ = feed_pieces([MULTI_LINE_REDRAW])
    assert text == "layer a: 0%\nlayer b: 0%\nlayer a: 50%\nlayer b: 100%\n"


def test_live_rows_let_a_stream_redraw_its_first_frame() -> None:
    vt = VTProcessor(live_rows=2)
    text = vt.feed(MULTI_LINE_REDRAW).text + vt.finish().text
    assert text == "layer a: 50%\nlayer b: 100%\n"


APT_INSTALL = (
    "Reading package lists...\r\n"
    "\n\x1b7\x1b[0;23r\x1b8\x1b[1A"  # reserve the bottom row for the progress bar
    "Unpacking a (1.0) ...\r\n"
    "\x1b7\x1b[24;0f\x1b[42m\x1b[30mProgress: [ 20%]\x1b[49m\x1b[39m [###.......] \x1b8"
    "Setting up a (1.0) ...\r\n"
    "\x1b7\x1b[24;0f\x1b[42m\x1b[30mProgress: [ 80%]\x1b[49m\x1b[39m [########..] \x1b8"
    "Processing triggers\r\n"
    "\n\x1b7\x1b[0;24r\x1b8\x1b[1A\x1b[J"  # give the row back
)


def test_status_line_drawn_elsewhere_on_screen_is_left_out() -> None:
    assert render(APT_INSTALL) == (
        "Reading package lists...\nUnpacking a (1.0) ...\n"
        "Setting up a (1.0) ...\nProcessing triggers\n"
    )
    streamed, _ = feed_pieces(list(APT_INSTALL))
    assert "Progress" not in streamed
    assert streamed.endswith("Setting up a (1.0) ...\nProcessing triggers\n")


def test_saved_cursor_is_restored_on_the_same_line() -> None:
    assert render("abc\x1b7def\x1b8X") == "abcXef"
    assert render("x\x1b[sy\x1b[5;1Hstatus\x1b[uz") == "xz"
    # Restoring to a line that has since scrolled into the transcript moves nothing.
    assert render("\x1b7line1\nline2\x1b8X") == "line1\nline2X"


def test_completed_lines_are_returned_as_soon_as_they_are_final() -> None:
    vt = VTProcessor()
    assert vt.feed("first\r\nsecond").text == "first\n"
    assert vt.feed("\r\n").text == "second\n"
    assert vt.feed("10%\r").text == ""
    assert vt.finish().text == "10%"


def test_a_very_long_line_is_flushed_so_memory_stays_bounded() -> None:
    vt = VTProcessor()
    out = "".join(vt.feed("x" * 1000).text for _ in range(100))
    assert len(out) >= 80_000
    assert out + vt.finish().text == "x" * 100_000


def test_huge_cursor_moves_are_clamped() -> None:
    assert len(render("a\x1b[999999999Cb")) <= 1100
    assert len(render("abc\x1b[1G\x1b[99999999@")) <= 1100


# ------------------------------------------------------------ shell-integration marks


def test_osc_633_marks_are_extracted_with_offsets_in_rendered_text() -> None:
    raw = (
        "\x1b]633;A\x07$ \x1b]633;B\x07ls\r\n"
        "\x1b]633;E;ls -la;nonce1\x07\x1b]633;C\x07file1\r\nfile2\r\n"
        "\x1b]633;D;0\x07\x1b]633;P;Cwd=/home/me\x07"
    )
    text, marks = feed_pieces([raw])
    assert text == "$ ls\nfile1\nfile2\n"
    assert [(m.code, m.kind, m.params) for m in marks] == [
        (633, "A", ()),
        (633, "B", ()),
        (633, "E", ("ls -la", "nonce1")),
        (633, "C", ()),
        (633, "D", ("0",)),
        (633, "P", ("Cwd=/home/me",)),
    ]
    c_mark = next(m for m in marks if m.kind == "C")
    d_mark = next(m for m in marks if m.kind == "D")
    assert text[c_mark.offset : d_mark.offset] == "file1\nfile2\n"


def test_osc_133_marks_are_extracted() -> None:
    text, marks = feed_pieces(["\x1b]133;A\x1b\\$ \x1b]133;C\x1b\\out\n\x1b]133;D;2\x1b\\"])
    assert text == "$ out\n"
    assert [(m.code, m.kind, m.params) for m in marks] == [
        (133, "A", ()),
        (133, "C", ()),
        (133, "D", ("2",)),
    ]


def test_633_command_line_escapes_are_decoded() -> None:
    _, marks = feed_pieces(["\x1b]633;E;echo a\\x3bb \\\\ c \\\\x3b\x07"])
    assert marks[0].params == ("echo a;b \\ c \\x3b",)


def test_mark_split_across_reads_is_extracted_once() -> None:
    raw = "out\n\x1b]633;D;1\x07next"
    for cut in range(len(raw) + 1):
        text, marks = feed_pieces([raw[:cut], raw[cut:]])
        assert text == "out\nnext"
        assert [(m.kind, m.params, m.offset) for m in marks] == [("D", ("1",), 4)]


def test_other_osc_codes_are_not_marks() -> None:
    assert feed_pieces(["\x1b]0;633;C\x07\x1b]1337;X\x07"])[1] == []


# ----------------------------------------------------------------- alternate screen


def test_full_screen_program_is_summarised_by_its_final_screen() -> None:
    redraws = "".join(
        f"\x1b[H\x1b[2Jtop - frame {i}\x1b[3;1HPID USER\x1b[4;1H1 root" for i in range(50)
    )
    raw = f"$ top\r\n\x1b[?1049h\x1b[22;0;0t{redraws}\x1b[?1049l\x1b[23;0;0t$ done\r\n"
    text = render(raw)
    assert text.startswith("$ top\n[full-screen program output, final screen (")
    assert "top - frame 49" in text
    assert "top - frame 48" not in text
    assert "PID USER\n1 root\n$ done\n" in text
    assert "\x1b" not in text


@pytest.mark.parametrize("mode", ["1049", "1047", "47"])
def test_every_alternate_screen_mode_is_recognised(mode: str) -> None:
    text = render(f"a\n\x1b[?{mode}hscreen\x1b[?{mode}lb\n")
    assert text == "a\n[full-screen program output, final screen (1 lines):]\nscreen\nb\n"


def test_full_screen_program_that_never_leaves_is_summarised_at_finish() -> None:
    text = render("\x1b[?1049h\x1b[2;5Hstill running")
    assert text == "[full-screen program output, final screen (1 lines):]\n    still running\n"


def test_alternate_screen_leave_split_across_reads() -> None:
    raw = "\x1b[?1049hvim\x1b[?1049lafter"
    for cut in range(len(raw) + 1):
        assert feed_pieces([raw[:cut], raw[cut:]])[0].endswith("vim\nafter"), cut


# ------------------------------------------------ vectors from public ANSI test suites

# The escape sequences that ansi-regex / strip-ansi test against (VT100 and VT52 code
# tables, urxvt keysyms, ls and chalk output), checked as "hel<code>lo" -> "hello"
# when the code does not move the cursor within the line.
NON_MOVING_CODES = [
    "[176;176;176;176;176;176;176m", "[176;176;176;176;176;176;176q",
    "[K", "[0K", "[J", "[0J", "[1J", "[2J", "[3J", "[P", "[0P", "[2P",
    "(A", ")A", "(B", ")B", "(0", ")0", "(1", ")1", "(2", ")2",
    "#3", "#4", "#5", "#6", "#8", "7", "8", "=", ">", "H",
    "[g", "[0g", "[3g", "[6n", "[176;176R", "[5n", "[c", "[0c", "[?1;176c", "[?1;1760c",
    "c", "[2;176y", "[2;1y", "[2;2y", "[2;9y", "[2;10y", "[176;176r",
    "[20h", "[?1h", "[?3h", "[?4h", "[?5h", "[?6h", "[?7h", "[?8h", "[?9h",
    "[20l", "[?1l", "[?2l", "[?3l", "[?4l", "[?5l", "[?6l", "[?7l", "[?8l", "[?9l",
    "N", "O", "[m", "[0m", "[1m", "[2m", "[4m", "[5m", "[7m", "[8m", "[9m",
    "[22m", "[23m", "[24m", "[27m", "[29m", "[30m", "[31m", "[32m", "[33m", "[34m",
    "[35m", "[36m", "[37m", "[39m", "[40m", "[41m", "[42m", "[43m", "[44m", "[45m",
    "[46m", "[47m", "[49m", "[0q", "[1q", "[2q", "[3q", "[4q",
    "[5~", "[6~", "[7~", "[8~", "[3;5;5t", "[3;5;606t", "[3;1605;5t", "[3;1605;606t",
    "]710;9x15bold\x07", "[176A", "[176B", "[A", "[B",
    "A", "B", "C", "D", "E", "M", "I", "J", "K", "S", "T", "Z", "1", "2", "<", "s", "u",
]  # fmt: skip
CONSUMPTION_CHARS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+1234567890-=[]{};':\"./>?,<\\|"
)


@pytest.mark.parametrize("code", NON_MOVING_CODES)
def test_public_vector_code_inside_word_is_removed(code: str) -> None:
    assert render(f"hel{ESC}{code}lo") == "hello"


@pytest.mark.parametrize("code", NON_MOVING_CODES)
def test_public_vector_code_does_not_overconsume(code: str) -> None:
    for ch in CONSUMPTION_CHARS:
        assert render(f"{ESC}{code}{ch}") == ch, ch


CURSOR_VECTORS = {
    # Cursor moves within the line are rendered as a terminal would show them.
    "cuf": ("hel\x1b[176Clo", "hel" + " " * 176 + "lo"),
    "cub": ("hel\x1b[176Dlo", "lol"),
    "cup": ("hel\x1b[176;176Hlo", "hel" + " " * 172 + "lo"),
    "hvp_home": ("hel\x1b[;flo", "lol"),
    "el1": ("hel\x1b[1Klo", "   lo"),
    "el2": ("hel\x1b[2Klo", "   lo"),
}


@pytest.mark.parametrize(("raw", "expected"), CURSOR_VECTORS.values(), ids=CURSOR_VECTORS.keys())
def test_public_vector_cursor_codes_render_like_a_terminal(raw: str, expected: str) -> None:
    assert render(raw) == expected


PARSER_EDGE_CASES = {
    # Parser behaviour that state-machine parsers (vte, anstyle-parse) pin in their tests.
    "osc_ended_by_lone_esc_then_esc_seq": ("\x1b];;;;;;;;;;;;;;;;;;\x1b(Bx", "x"),
    "osc_empty": ("\x1b]\x07x", "x"),
    "csi_reset_by_new_csi": ("\x1b[3;1\x1b[31mx", "x"),
    "csi_reset_by_dcs": ("\x1b[3;1\x1bP1$tx\x9cy", "y"),
    "esc_reset_by_new_escape": ("\x1b[3;1\x1b(Ax", "x"),
    "dcs_ended_by_esc_with_intermediate": ("\x1bP=1sZZZ\x1b+\\x", "x"),
    "csi_trailing_and_leading_semicolons": ("\x1b[4;m\x1b[;4mx", "x"),
    "csi_many_subparams": ("\x1b[::::::::::::::::::::::::::::::::x\x1b", ""),
    "csi_huge_number": ("\x1b[9223372036854775808mx", "x"),
    "csi_thousands_of_digits": ("a\x1b[" + "1" * 5000 + "Kb", "ab"),
    "csi_too_many_params": ("\x1b[" + "1;" * 40 + "px", "x"),
    "osc_with_utf8": ("\r\x1b]2;echo '¯\\_(ツ)_/¯' && sleep 1\x07x", "x"),
    "osc_utf8_char_with_9c_byte": ("\x1b]2;末\x1b\\x", "x"),
}


@pytest.mark.parametrize(
    ("raw", "expected"), PARSER_EDGE_CASES.values(), ids=PARSER_EDGE_CASES.keys()
)
def test_parser_edge_cases(raw: str, expected: str) -> None:
    assert render(raw) == expected
    assert feed_pieces(list(raw))[0] == expected


REAL_OUTPUT = {
    "strip_ansi_colours": (
        "\x1b[0m\x1b[4m\x1b[42m\x1b[31mfoo\x1b[39m\x1b[49m\x1b[24mfoo\x1b[0m",
        "foofoo",
    ),
    "ls_color": ("\x1b[00;38;5;244m\x1b[m\x1b[00;38;5;33mfoo\x1b[0m", "foo"),
    "reset_fg_bg_italic_strike_underline": ("\x1b[0;33;49;3;9;4mbar\x1b[0m", "bar"),
    "prompt_with_title": (
        "\x1b]0;sg@tota:~/git/\x07\x1b[01;32m[sg@tota\x1b[01;37m misc-tests\x1b[01;32m]$",
        "[sg@tota misc-tests]$",
    ),
    "git_log_color": (
        "\x1b[33mcommit 3f786850e387550fdab836ed7e6dc881de23001b\x1b[m\x1b[33m (\x1b[m"
        "\x1b[1;36mHEAD -> \x1b[m\x1b[1;32mmain\x1b[m\x1b[33m)\x1b[m\n",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)\n",
    ),
    "git_diff_color": (
        "\x1b[1mdiff --git a/x b/x\x1b[m\n\x1b[31m-old\x1b[m\n\x1b[32m+new\x1b[m\n",
        "diff --git a/x b/x\n-old\n+new\n",
    ),
    "tput_sgr0_and_setaf": ("\x1b[1m\x1b[31mbold red\x1b(B\x1b[m", "bold red"),
    "tput_clear": ("\x1b[H\x1b[2J\x1b[3Jclean", "clean"),
    "tput_civis_cnorm": ("\x1b[?25lx\x1b[?12l\x1b[?25h", "x"),
    "tput_smcup_rmcup_empty": ("a\x1b[?1049h\x1b[22;0;0t\x1b[?1049l\x1b[23;0;0tb", "ab"),
    "chalk_hyperlink_and_colour": (
        "\x1b]8;;https://chalk.js.org\x07\x1b[1m\x1b[34mchalk\x1b[39m\x1b[22m\x1b]8;;\x07",
        "chalk",
    ),
    "cargo_progress": (
        "\x1b[1m\x1b[32m   Compiling\x1b[0m foo v0.1.0\n"
        "\x1b[1m\x1b[36m    Building\x1b[0m [=====>    ] 5/10: foo\r"
        "\x1b[K\x1b[1m\x1b[32m    Finished\x1b[0m dev in 1.2s\n",
        "   Compiling foo v0.1.0\n    Finished dev in 1.2s\n",
    ),
    "grep_color_match": (
        "src/a.py:\x1b[01;31m\x1b[Kneedle\x1b[m\x1b[K in hay\n",
        "src/a.py:needle in hay\n",
    ),
    "man_page_overstrike_bold_and_underline": (
        "B\bBo\bol\bld and _\bu_\bn_\bd_\be_\br",
        "Bold and under",
    ),
    "npm_spinner": (
        "\x1b[?25l\x1b[1G\x1b[0K⠙\x1b[1G\x1b[0K⠹\x1b[1G\x1b[0K\x1b[?25hadded 1 package\n",
        "added 1 package\n",
    ),
    "rich_progress": (
        "\x1b[?25l\r\x1b[2K\x1b[38;2;249;38;114m━━\x1b[0m\x1b[38;5;237m━━━━\x1b[0m 33%"
        "\r\x1b[2K\x1b[38;2;114;156;31m━━━━━━\x1b[0m 100%\n\x1b[?25h",
        "━━━━━━ 100%\n",
    ),
    "bracketed_paste_markers": ("\x1b[200~pasted\x1b[201~", "pasted"),
    "docker_build_plain": (
        "#5 [2/3] RUN make\x1b[0m\r\n#5 DONE 0.1s\r\n",
        "#5 [2/3] RUN make\n#5 DONE 0.1s\n",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("raw", "expected"), REAL_OUTPUT.values(), ids=REAL_OUTPUT.keys())
def test_real_program_output_reads_clean(raw: str, expected: str) -> None:
    assert render(raw) == expected


# ----------------------------------------------------------------------- properties

FRAGMENTS = st.sampled_from(
    [
        ESC, "[", "]", "P", "X", "^", "_", "?", ">", "<", "=", "(", ")", "#", "%", " ", "!",
        "0", "1", "2", "9", ";", ":", "m", "K", "G", "C", "D", "A", "B", "H", "h", "l",
        "J", "@", "P", "X", "\\", "\x07", "\x18", "\x1a", "\x9b", "\x9c", "\x9d", "\x90",
        "\x98", "\x9e", "\x9f", "\x85", "\r", "\n", "\b", "\t", "\x00", "\x7f", "a", "é",
        "☃", "1049", "633;C", "633;D;0", "133;A", "\x1b[31m", "\x1b]0;t\x07", "\x1b\\",
        "\r\n", "\x1b[2K", "\x1b[?1049h", "\x1b[?1049l",
    ]
)  # fmt: skip
TERMINAL_TEXT = st.lists(FRAGMENTS | st.text(max_size=3), max_size=40).map("".join)


def _clean(text: str) -> bool:
    return not any(c == "\x1b" or c == "\r" or "\x80" <= c <= "\x9f" for c in text)


@given(st.text())
def test_output_never_holds_escape_c1_or_cr_for_any_text(raw: str) -> None:
    assert _clean(render(raw))


@given(TERMINAL_TEXT)
def test_output_never_holds_escape_c1_or_cr_for_escape_heavy_input(raw: str) -> None:
    assert _clean(render(raw))


@given(TERMINAL_TEXT)
def test_processing_its_own_output_changes_nothing(raw: str) -> None:
    once = render(raw)
    assert render(once) == once


@given(TERMINAL_TEXT, st.lists(st.integers(min_value=0, max_value=200), max_size=5))
def test_any_split_into_reads_renders_the_same_as_one_read(raw: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(raw)) for c in cuts})
    pieces = [raw[i:j] for i, j in zip([0, *points], [*points, len(raw)], strict=True)]
    assert feed_pieces(pieces) == feed_pieces([raw])
