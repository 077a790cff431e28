"""Every example of the CommonMark spec's "Fenced code blocks" section (0.31.2,
examples 119-147, all 29), with the info string set to `bash`: the commands extracted are
exactly the code blocks the spec renders, with the lines the spec puts them on.

Each case: (markdown, [(command, start_line, end_line), ...]). A code block whose
content is only blank lines yields no command.
"""

from __future__ import annotations

import pytest

from aintern_ls.extraction import extract

CASES: list[tuple[str, str, list[tuple[str, int, int]]]] = [
    ("119 backticks", "```bash\n<\n >\n```\n", [("<\n >", 0, 3)]),
    ("120 tildes", "~~~bash\n<\n >\n~~~\n", [("<\n >", 0, 3)]),
    ("121 two backticks are code span", "``bash\nfoo\n``\n", []),
    ("122 close needs same char", "```bash\naaa\n~~~\n```\n", [("aaa\n~~~", 0, 3)]),
    ("123 close needs same char", "~~~bash\naaa\n```\n~~~\n", [("aaa\n```", 0, 3)]),
    ("124 close at least as long", "````bash\naaa\n```\n``````\n", [("aaa\n```", 0, 3)]),
    ("125 close at least as long", "~~~~bash\naaa\n~~~\n~~~~\n", [("aaa\n~~~", 0, 3)]),
    ("126 unclosed empty", "```bash\n", []),
    ("127 unclosed to end", "`````bash\n\n```\naaa\n", [("```\naaa", 0, 3)]),
    ("128 unclosed in quote", "> ```bash\n> aaa\n\nbbb\n", [("aaa", 0, 1)]),
    ("129 blank content", "```bash\n\n  \n```\n", []),
    ("130 empty", "```bash\n```\n", []),
    ("131 indented fence", " ```bash\n aaa\naaa\n```\n", [("aaa\naaa", 0, 3)]),
    ("132 indented fence", "  ```bash\naaa\n  aaa\naaa\n  ```\n", [("aaa\naaa\naaa", 0, 4)]),
    (
        "133 indented fence",
        "   ```bash\n   aaa\n    aaa\n  aaa\n   ```\n",
        [("aaa\n aaa\naaa", 0, 4)],
    ),
    ("134 four spaces is code", "    ```bash\n    aaa\n    ```\n", []),
    ("135 closing indent", "```bash\naaa\n  ```\n", [("aaa", 0, 2)]),
    ("136 closing indent", "   ```bash\naaa\n  ```\n", [("aaa", 0, 2)]),
    ("137 closing four spaces", "```bash\naaa\n    ```\n", [("aaa\n    ```", 0, 2)]),
    ("138 no internal spaces", "``` ```bash\naaa\n", []),
    ("139 no internal spaces", "~~~~~~bash\naaa\n~~~ ~~\n", [("aaa\n~~~ ~~", 0, 2)]),
    ("140 interrupts paragraph", "foo\n```bash\nbar\n```\nbaz\n", [("bar", 1, 3)]),
    ("141 after setext heading", "foo\n---\n~~~bash\nbar\n~~~\n# baz\n", [("bar", 2, 4)]),
    (
        "142 info string",
        "```bash\ndef foo(x)\n  return 3\nend\n```\n",
        [("def foo(x)\n  return 3\nend", 0, 4)],
    ),
    (
        "143 info with words",
        "~~~~    bash startline=3 $%@#$\ndef foo(x)\n  return 3\nend\n~~~~~~~\n",
        [("def foo(x)\n  return 3\nend", 0, 4)],
    ),
    ("144 punctuation info, empty", "````bash;\n````\n", []),
    ("145 backtick in info", "``` bash ```\nfoo\n", []),
    ("146 tilde info may hold backticks", "~~~ bash ``` ~~~\nfoo\n~~~\n", [("foo", 0, 2)]),
    ("147 closing has no info", "```bash\n``` aaa\n```\n", [("``` aaa", 0, 2)]),
]


@pytest.mark.parametrize(
    ("markdown", "expected"), [(m, e) for _, m, e in CASES], ids=[n for n, _, _ in CASES]
)
def test_spec_fenced_code_block_example(
    markdown: str, expected: list[tuple[str, int, int]]
) -> None:
    result = extract(markdown)
    got = [(b.command, b.start_line, b.end_line) for b in result.commands]
    assert got == expected
    assert all(b.language == "bash" for b in result.commands)


def test_language_ends_at_punctuation() -> None:
    [block] = extract("````bash;\necho\n````\n").commands
    assert (block.language, block.command) == ("bash", "echo")


def test_spec_info_strings_that_are_not_shells_give_no_commands() -> None:
    # The spec's own info strings (`ruby`, `;`) are not shells: no commands.
    assert extract("```ruby\ndef foo(x)\n  return 3\nend\n```\n").commands == []
    assert extract("````;\n````\n").commands == []


def test_unclosed_fence_warns_and_runs_to_the_end_of_the_document() -> None:
    result = extract("intro\n\n```bash\necho one\necho two\n")
    [block] = result.commands
    assert block.command == "echo one\necho two"
    assert (block.start_line, block.end_line) == (2, 4)
    [warning] = result.warnings
    assert "never closed" in warning.message
    assert (warning.line, warning.character, warning.block_id) == (2, 0, block.id)


def test_unclosed_fence_in_list_item_stops_at_the_item() -> None:
    text = "- step:\n  ```sh\n  make\n\nafter the list\n"
    [block] = extract(text).commands
    assert block.command == "make"
    assert block.start_line == 1


def test_fence_in_nested_quote_and_list_strips_container_prefixes() -> None:
    text = "> 1. Run:\n>\n>    ```bash\n>    ls -la\n>      | wc -l\n>    ```\n"
    [block] = extract(text).commands
    assert block.command == "ls -la\n  | wc -l"
    assert (block.start_line, block.end_line) == (2, 5)
    assert text[block.source_range.start : block.source_range.start + 7] == "```bash"
    assert block.description == "Run:"


def test_crlf_documents_give_the_same_lines_and_commands() -> None:
    text = "Say hi:\r\n\r\n```bash\r\necho hi\r\n```\r\n"
    [block] = extract(text).commands
    assert block.command == "echo hi"
    assert (block.start_line, block.end_line) == (2, 4)
    assert text[block.source_range.start : block.source_range.end] == "```bash\r\necho hi\r\n```"
