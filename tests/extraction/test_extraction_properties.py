"""Properties of extraction on arbitrary input: it never raises, every position it
reports lies inside the document, and block ids survive edits elsewhere."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.extraction import extract
from aintern_ls.models import CommandExtractionResult
from aintern_ls.positions import LineIndex

# Characters that build Markdown structure, so random text hits fences, containers,
# prompts, attributes and chat markers far more often than plain st.text() would.
_MARKUP = st.sampled_from(
    [
        "```",
        "~~~",
        "````",
        "```bash",
        "```console",
        "```execute",
        "```sh {",
        "~~~pwsh",
        "\n",
        "\r\n",
        "\r",
        " ",
        "    ",
        "\t",
        "> ",
        "- ",
        "1. ",
        "#### ",
        "## Me",
        "## User",
        "## Copilot",
        "💬:",
        "🤖:",
        "$ ",
        "# ",
        "PS> ",
        "{",
        "}",
        '"',
        "=",
        ":",
        "\\",
        "ls",
        "echo hi",
        "x",
        "é",
        "😀",
        "中",
        "\x00",
        "<div>",
        "*",
        "_",
        "[a]: /u",
        "# aider chat started at 1",
        '{"command": "ls"}',
        '{"command": ',
    ]
)
markdownish = st.lists(_MARKUP, max_size=60).map("".join)
any_text = st.one_of(st.text(max_size=300), markdownish)
uris = st.sampled_from(["", "file:///r.md", "file:///p/.aider.chat.history.md"])


def assert_inside(text: str, result: CommandExtractionResult) -> None:
    index = LineIndex(text)
    for block in result.commands:
        r = block.source_range
        assert 0 <= r.start <= r.end <= len(text)
        assert 0 <= block.start_line <= block.end_line < index.line_count
        assert index.line_of(r.start) == block.start_line
        assert block.command.strip()
        assert block.sequence_number >= 0
    for warning in result.warnings:
        assert 0 <= warning.line < index.line_count
        start = index.line_start(warning.line)
        end = (
            index.line_start(warning.line + 1) if warning.line + 1 < index.line_count else len(text)
        )
        assert 0 <= warning.character <= end - start


@given(any_text, uris)
def test_extraction_never_raises_and_reports_positions_inside_the_document(
    text: str, uri: str
) -> None:
    result = extract(text, uri)
    assert_inside(text, result)
    assert len({b.id for b in result.commands}) == len(result.commands)


_WORDS = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=40).filter(str.strip)
_COMMANDS = st.text(alphabet="abcdefgh -./|", min_size=1, max_size=30).filter(str.strip)


@st.composite
def documents_with_an_edit(draw: st.DrawFn) -> tuple[list[str], list[str], int, str]:
    """Prose and command segments, and a prose edit to make at one boundary."""
    commands = draw(st.lists(_COMMANDS, min_size=1, max_size=6))
    segments: list[str] = []
    for command in commands:
        if draw(st.booleans()):
            segments.append(draw(_WORDS))
        segments.append(f"```bash\n{command}\n```")
    where = draw(st.integers(0, len(segments)))
    edit = draw(_WORDS)
    return segments, commands, where, edit


@given(documents_with_an_edit())
def test_ids_are_stable_under_edits_outside_the_block(
    case: tuple[list[str], list[str], int, str],
) -> None:
    segments, _, where, edit = case
    before = extract("\n\n".join(segments), "file:///doc.md")
    edited = [*segments[:where], edit, *segments[where:]]
    after = extract("\n\n".join(edited), "file:///doc.md")
    assert [b.id for b in after.commands] == [b.id for b in before.commands]
    assert [b.command for b in after.commands] == [b.command for b in before.commands]


@given(documents_with_an_edit(), _COMMANDS)
def test_ids_survive_a_new_block_with_a_different_command(
    case: tuple[list[str], list[str], int, str], new_command: str
) -> None:
    segments, commands, where, _ = case
    if new_command.strip() in {c.strip() for c in commands}:
        return
    before = extract("\n\n".join(segments), "file:///doc.md")
    edited = [*segments[:where], f"```sh\n{new_command}\n```", *segments[where:]]
    after = extract("\n\n".join(edited), "file:///doc.md")
    old = {b.id for b in before.commands}
    assert old <= {b.id for b in after.commands}
