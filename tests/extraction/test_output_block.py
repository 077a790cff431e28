"""Results in the document: the output block is inserted under the fence, then
replaced (not duplicated) on a rerun; fences inside it cannot break it."""

from __future__ import annotations

from aintern_ls.extraction import extract
from aintern_ls.runbook.results import output_edit


def _apply(text: str, output: str, index: int = 0) -> tuple[str, str]:
    block = extract(text).commands[index]
    edit = output_edit(text, block, output)
    assert edit is not None
    return text[: edit.start] + edit.text + text[edit.end :], edit.title


def test_insert_then_update_replaces_the_previous_output() -> None:
    doc = "# Deploy\n\n```bash\necho v1\n```\n\nNext step.\n"
    once, title = _apply(doc, "v1\n")
    assert title == "Insert output below"
    assert once == "# Deploy\n\n```bash\necho v1\n```\n\n```output\nv1\n```\n\nNext step.\n"
    twice, title = _apply(once, "v2\nmore\n")
    assert title == "Update output"
    assert twice == (
        "# Deploy\n\n```bash\necho v1\n```\n\n```output\nv2\nmore\n```\n\nNext step.\n"
    )
    # The output block is not a command, and the document still has one block.
    assert [b.command for b in extract(twice).commands] == ["echo v1"]


def test_output_with_fences_gets_a_longer_fence() -> None:
    doc = "```bash\ncat README.md\n```\n"
    new, _ = _apply(doc, "# Readme\n```sh\nmake\n```\n")
    assert "````output\n# Readme\n```sh\nmake\n```\n````" in new
    again, title = _apply(new, "short\n")
    assert title == "Update output"
    assert again == "```bash\ncat README.md\n```\n\n```output\nshort\n```\n"


def test_output_in_a_block_quote_stays_in_the_quote() -> None:
    new, _ = _apply("> ```sh\n> ls\n> ```\n", "a\nb")
    assert new == "> ```sh\n> ls\n> ```\n>\n> ```output\n> a\n> b\n> ```\n"


def test_an_unclosed_fence_gets_no_edit() -> None:
    text = "```bash\necho hi\n"
    [block] = extract(text).commands
    assert output_edit(text, block, "hi") is None
