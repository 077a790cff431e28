"""What extraction keeps per block is compact (a fence keeps its paragraph's words, not
its text, unless the paragraph can be a chat marker line), and descriptions stay right
while the document is edited: the same as the descriptions written out by hand."""

from __future__ import annotations

from pathlib import Path

from aintern_ls.extraction import extract, extract_incremental, forget
from aintern_ls.extraction.extractor import Extractor

DATA = Path(__file__).parent / "data"

DOC = """## Me

**User:** run this please:

```bash
ls -la
```

## CodeCompanion (Claude)

Check the **current** sizes first:

```bash
du -sh /var/log
```

```bash
df -h
```
"""


def _descriptions(text: str, uri: str) -> list[str | None]:
    return [b.description for b in extract_incremental(text, uri).commands]


def test_descriptions_stay_right_through_edits() -> None:
    uri = "file:///compact.md"
    forget(uri)
    expected = ["run this please:", "Check the current sizes first:", None]
    assert [b.description for b in extract(DOC, uri).commands] == expected
    assert _descriptions(DOC, uri) == expected
    # an edit in the paragraph, one above it, one that adds a line: read again each time
    edited = DOC.replace("first:", "first of all:")
    assert _descriptions(edited, uri)[1] == "Check the current sizes first of all:"
    moved = "# Transcript\n\n" + edited
    assert _descriptions(moved, uri) == [
        "run this please:",
        "Check the current sizes first of all:",
        None,
    ]
    assert _descriptions(DOC, uri) == expected
    forget(uri)


def test_a_fence_keeps_the_words_of_its_paragraph_not_its_text() -> None:
    extractor = Extractor("file:///kept.md")
    extractor.extract((DATA / "gp_chat.md").read_text(encoding="utf-8") + "\n\n" + DOC)
    items = [item for region in extractor._regions for item in region.items]
    plain = [item for item in items if item.plain is not None]
    assert plain, "prose paragraphs are kept as their words"
    for item in plain:
        assert item.draft.fence.paragraph == ""
    # gp.nvim's `💬:` and a bold `**User:**` label start marker lines: kept as written
    kept = [item.draft.fence.paragraph for item in items if item.draft.fence.paragraph]
    assert any(p.startswith("**User:**") for p in kept)
    gp = extract((DATA / "gp_chat.md").read_text(encoding="utf-8"), "file:///gp.md").commands
    assert gp[2].description == "and to test the config without rotating?"
