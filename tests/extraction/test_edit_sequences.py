"""Long sequences of small edits, as typing makes them, against a fresh extraction.

Deterministic seeds (no hypothesis database): a chat transcript with repeated commands
(ids count occurrences), console fences, quoted and listed fences, and edits that mostly
add or remove a character in prose (the path where the blocks of untouched regions are
handed out again without being made) and sometimes a line break, a backtick, a `#` or a
message header. After every edit the incremental extraction (small and huge-document
forms) must equal a whole-document extraction of the same text.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from aintern_ls.extraction.chat import split_messages, split_messages_lean
from aintern_ls.extraction.extractor import Extractor, _chat_blocks
from aintern_ls.extraction.markdown import parse_region
from aintern_ls.models import CommandExtractionResult

_PIECES = [
    "## Me\n\nWhy does it fail? Try the command below.\n\n",
    "## CodeCompanion (Claude)\n\nRun this:\n\n```bash\nkubectl get pods\n```\n\n",
    "Then check the state:\n\n```console\n$ git status --short\n M app.py\n```\n\n",
    "Build it:\n\n```sh {name=build cwd=/tmp}\nmake -j4\n```\n\n",
    "- step one\n- step two:\n\n  ```zsh\n  echo step\n  ```\n\n",
    "> quoted advice\n>\n> ```bash\n> df -h /var\n> ```\n\n",
    "Plain prose with `inline code` and a [link](https://example.com).\n\n",
    "```bash\nkubectl get pods\n```\n\n",  # the same command again: a second occurrence
    "```python\nprint('not a shell')\n```\n\n",
]
_INSERTS = ["x", "y", " ", "x", "x", "\n", "`", "#", "\n\n## Me\n\n", "```bash\nls\n", "$"]


def _document(rng: random.Random, pieces: int) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(pieces))


def _view(result: CommandExtractionResult) -> tuple[list[Any], list[Any]]:
    blocks = [repr(attrs.evolve(b, extracted_at=None)) for b in result.commands]  # type: ignore[misc]
    return blocks, [attrs.astuple(w) for w in result.warnings]


def _edit(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.25 and at < len(text):  # delete one to three characters
        return text[:at] + text[at + rng.randint(1, 3) :]
    insert = rng.choice(_INSERTS) if rng.random() < 0.4 else "x"
    return text[:at] + insert + text[at:]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("compact", [False, True])
def test_typing_in_a_transcript_equals_a_fresh_extraction(seed: int, compact: bool) -> None:
    rng = random.Random(seed)
    text = _document(rng, 60)
    uri = f"file:///chat-{seed}.md"
    incremental = Extractor(uri, min_region_chars=64, compact=compact)
    assert _view(incremental.extract(text)) == _view(Extractor(uri).extract(text))
    for step in range(40):
        text = _edit(rng, text)
        got = incremental.extract(text)
        assert _view(got) == _view(Extractor(uri).extract(text)), (seed, step)


def test_blocks_of_untouched_regions_are_handed_out_again() -> None:
    """A character typed in prose leaves every other block the same object (a status or
    a run in progress stays on it), with its source range moved when text before it grew."""
    text = "".join(
        f"## Me\n\nQuestion {i}?\n\n## CodeCompanion\n\nRun:\n\n```bash\nkubectl get pods\n```"
        f"\n\nThat was answer {i}.\n\n"
        for i in range(40)
    )
    uri = "file:///chat.md"
    incremental = Extractor(uri, min_region_chars=64)
    before = list(incremental.extract(text).commands)
    at = text.index("That was answer 5") + 4  # (line 82)
    text = text[:at] + "x" + text[at:]
    after = list(incremental.extract(text).commands)
    assert _view(incremental.extract(text)) == _view(Extractor(uri).extract(text))
    assert len(before) == len(after)
    # (the regions around the edit are parsed again: their blocks are new, equal objects)
    far = [(a, b) for a, b in zip(before, after, strict=True) if abs(b.start_line - 82) > 20]
    assert len(far) > 30 and all(a is b for a, b in far)
    moved = [b for b in after if b.source_range.start > at]
    assert moved and all(text[b.source_range.start] in "`~" for b in moved)


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in (Path(__file__).parent / "data").glob("*.md")),
)
@pytest.mark.parametrize("aider_uri", [False, True])
def test_the_lean_split_of_a_huge_document_equals_the_split(name: str, aider_uri: bool) -> None:
    """A huge document's messages are split from the blocks given one at a time, keeping
    only those the split reads: the same transcript as from the whole list."""
    text = (Path(__file__).parent / "data" / name).read_text(encoding="utf-8")
    blocks = _chat_blocks(parse_region(text).top_blocks)
    uri = "file:///x" + (".aider.chat.history.md" if aider_uri else ".md")
    assert split_messages_lean(lambda: iter(blocks), uri) == split_messages(blocks, uri)
    plain = [b for b in blocks if b.kind != "heading" or b.level != 1]  # (no Aider header)
    assert split_messages_lean(lambda: iter(plain), uri) == split_messages(plain, uri)
