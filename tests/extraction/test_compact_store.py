"""The compact block store of huge documents (`extraction.compact`) gives exactly the
blocks and warnings the object path gives, before and after random edits; what it
reads without making blocks (ids, lines, ranges) agrees with the blocks; blocks keep
their identity while in use and their status once they have one."""

from __future__ import annotations

import gc
import json
import random
import sys
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from pygls.protocol import default_converter

from aintern_ls.documents import DocumentStore
from aintern_ls.extraction import extractor, forget
from aintern_ls.extraction.chat import Message, Messages, Transcript
from aintern_ls.extraction.compact import BlockTable
from aintern_ls.extraction.extractor import Extractor
from aintern_ls.features import code_lens
from aintern_ls.features.diagnostics import diagnostics_for, diagnostics_json
from aintern_ls.models import CommandBlockStatus, CommandExtractionResult, CommandResult
from aintern_ls.safety import RiskLevel
from tests.extraction.test_block_caches import _document, _edit
from tests.extraction.test_extraction_incremental import _DOCS, _edits
from tests.extraction.test_extraction_properties import uris


def _view(result: CommandExtractionResult) -> tuple[list[Any], list[Any]]:
    blocks = [attrs.evolve(b, extracted_at=None).__repr__() for b in result.commands]  # type: ignore[arg-type]
    return blocks, [attrs.astuple(w) for w in result.warnings]


def _columns_agree(result: CommandExtractionResult) -> None:
    table = result.commands
    assert isinstance(table, BlockTable)
    for i, block in enumerate(table):
        assert table.id(i) == block.id
        assert table.lines[i] == block.start_line
        assert table.source_range(i) == block.source_range
        assert table.index_of(block.id) is not None
        assert table.id(table.index_of(block.id)) == block.id  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_edits(), uri=uris)
def test_compact_equals_objects_after_random_edits(
    case: tuple[str, list[tuple[int, int, str]]], uri: str
) -> None:
    text, edits = case
    compact = Extractor(uri, min_region_chars=1, compact=True)
    result = compact.extract(text)
    assert _view(result) == _view(Extractor(uri, compact=False).extract(text))
    _columns_agree(result)
    for start, end, insert in edits:
        text = text[:start] + insert + text[end:]
        result = compact.extract(text)
        assert _view(result) == _view(Extractor(uri, compact=False).extract(text)), text
        _columns_agree(result)


@settings(max_examples=200, deadline=None)
@given(text=_DOCS, uri=uris)
def test_compact_regions_of_any_size(text: str, uri: str) -> None:
    whole = _view(Extractor(uri, compact=False).extract(text))
    for size in (1, 64, 10**12):
        assert _view(Extractor(uri, min_region_chars=size, compact=True).extract(text)) == whole


DOC = "".join(
    f"## Me\n\nStep {n}:\n\n```bash\necho {n % 3}\n```\n\n"
    f"> quoted:\n>\n> ```sh\n> ls {n}\n> ```\n\n"
    for n in range(30)
)


def test_a_block_in_use_is_the_same_object_and_a_status_sticks() -> None:
    table = Extractor("file:///c.md", compact=True).extract(DOC).commands
    assert isinstance(table, BlockTable)
    first = table[3]
    assert table[3] is first and table.peek(3) is first and table.peek(4) is None
    first.mark_executing()
    del first
    again = table[3]
    assert again.status is CommandBlockStatus.EXECUTING  # the status stays
    assert [b.status for b in table].count(CommandBlockStatus.EXECUTING) == 1
    assert table.peek(5) is None  # (iterating keeps nothing)
    assert table[-1].id == table.id(len(table) - 1)
    assert [b.id for b in table[2:4]] == [table.id(2), table.id(3)]


def test_the_compact_path_is_for_huge_documents_only(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(Extractor("file:///a.md").extract(DOC).commands, list)
    monkeypatch.setattr(extractor, "COMPACT_CHARS", len(DOC))
    incremental = Extractor("file:///a.md")
    assert isinstance(incremental.extract(DOC).commands, BlockTable)
    # shorter again: the object path (what was kept is dropped, the result the same)
    shorter = DOC[: len(DOC) // 2]
    assert isinstance(incremental.extract(shorter).commands, list)
    assert _view(incremental.extract(shorter)) == _view(
        Extractor("file:///a.md", compact=False).extract(shorter)
    )


# -- the server's view: lenses, diagnostics, statuses --------------------------------


def _answers(store: DocumentStore, uri: str) -> tuple[Any, ...]:
    converter = default_converter()
    doc = store.get(uri)

    def lenses(resolve: bool) -> Any:
        stream = code_lens.lens_stream(doc, store.assess, converter.unstructure, resolve=resolve)
        return json.loads(b"".join(stream.chunks()))

    assessments = {b.id: store.assess(b) for b in doc.blocks}
    sent = diagnostics_json(
        doc, store.assess, "utf-16", RiskLevel.MODERATE, converter.unstructure, environment={}
    )
    return (
        lenses(False),
        lenses(True),
        converter.unstructure(diagnostics_for(doc, assessments, "utf-16", environment={})),
        json.loads(sent),
        [b.id for b in doc.blocks_on_lines(0, 40)],
        # (times differ: the two paths run one after the other)
        [attrs.evolve(b, extracted_at=None, executed_at=None).__repr__() for b in doc.blocks],  # type: ignore[arg-type]
    )


def test_lenses_diagnostics_and_statuses_equal_the_object_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same document through the same edits and runs on both paths: the same lenses
    (whole and unresolved), diagnostics (as objects and as sent), blocks and statuses."""
    rng = random.Random(5)
    text = _document(rng)
    edits = [text]
    for _ in range(12):
        edits.append(_edit(rng, edits[-1]))
    picks = [rng.random() for _ in edits]
    seen: dict[str, list[Any]] = {}
    for mode in ("objects", "compact"):
        uri = "file:///same.md"
        forget(uri)
        monkeypatch.setattr(extractor, "COMPACT_CHARS", 0 if mode == "compact" else 10**12)
        store = DocumentStore()
        out = seen[mode] = []
        for version, body in enumerate(edits):
            doc = store.update(uri, body)
            assert isinstance(doc.blocks, BlockTable) == (mode == "compact")
            block = doc.block(sorted(b.id for b in doc.blocks)[version % 7])
            if picks[version] < 0.6 and block.status is CommandBlockStatus.PENDING:
                block.mark_executing()  # a status the lenses show
                if picks[version] < 0.3:  # and a last result (drift, state lens)
                    code = 0 if picks[version] < 0.15 else 3
                    block.mark_completed(code)
                    doc.last_results[block.id] = CommandResult(
                        block_id=block.id,
                        command=block.command,
                        status=block.status,
                        exit_code=code,
                        output="something else\n",
                        duration_ms=20,
                    )
            out.append(_answers(store, uri))
    assert len(seen["objects"]) == len(seen["compact"])
    for version, (a, b) in enumerate(zip(seen["objects"], seen["compact"], strict=True)):
        names = ("lenses", "unresolved", "diagnostics", "sent", "lines", "blocks")
        for what, x, y in zip(names, a, b, strict=True):
            if what == "blocks":
                for p, q in zip(x, y, strict=True):
                    assert p == q, (version, p, q)
            assert x == y, (version, what)


@pytest.mark.parametrize("compact", [False, True], ids=["objects", "compact"])
def test_blocks_on_lines_are_those_whose_fence_meets_them(
    monkeypatch: pytest.MonkeyPatch, compact: bool
) -> None:
    monkeypatch.setattr(extractor, "COMPACT_CHARS", 0 if compact else 10**12)
    forget("file:///lines.md")
    text = DOC + "```bash\nunclosed\n\n- item\n"
    doc = DocumentStore().update("file:///lines.md", text)
    assert isinstance(doc.blocks, BlockTable) == compact
    blocks = list(doc.blocks)
    for first in range(text.count("\n") + 2):
        for last in (first, first + 3):
            expected = [b.id for b in blocks if b.start_line <= last and b.end_line >= first]
            assert [b.id for b in doc.blocks_on_lines(first, last)] == expected, (first, last)


@pytest.mark.parametrize("compact", [False, True], ids=["objects", "compact"])
def test_nothing_keeps_an_old_version_s_text(
    monkeypatch: pytest.MonkeyPatch, compact: bool
) -> None:
    """Once a new version is current, nothing of the store refers to the old text, not
    even through a reference cycle (the garbage collector may not run for a long time:
    a 50 MB transcript would be kept twice)."""
    monkeypatch.setattr(extractor, "COMPACT_CHARS", 0 if compact else 10**12)
    uri = "file:///old-text.md"
    forget(uri)
    store = DocumentStore()
    converter = default_converter()
    old = "".join(f"## Me\n\nStep {n}:\n\n```bash\necho {n} $X\n```\n\n" for n in range(300))
    gc.disable()
    try:
        doc = store.update(uri, old)
        stream = code_lens.lens_stream(doc, store.assess, converter.unstructure, resolve=True)
        b"".join(stream.chunks())
        diagnostics_json(doc, store.assess, "utf-16", RiskLevel.MODERATE, converter.unstructure)
        doc.block(doc.blocks[5].id).mark_copied()
        del doc, stream
        store.update(uri, old.replace("Step 7:", "Step 7!", 1))
        assert sys.getrefcount(old) == 2  # this function's variable, and the argument
    finally:
        gc.enable()


def test_a_transcript_keeps_its_messages_in_arrays() -> None:
    messages = [
        Message(0, 0, None),
        Message(1, 4, "user", "**User:**"),
        Message(2, 9, "assistant"),
        Message(3, 20, "user", "**User:**"),
    ]
    transcript = Transcript(messages, levels=frozenset({2}))
    assert isinstance(transcript.messages, Messages)
    assert list(transcript.messages) == messages and transcript.messages == messages
    assert transcript.messages[-1] == messages[-1] and transcript.messages[1:3] == messages[1:3]
    assert [transcript.message_at(line).ordinal for line in (0, 3, 4, 8, 9, 19, 20, 99)] == [
        0, 0, 1, 1, 2, 2, 3, 3,
    ]  # fmt: skip
    assert transcript.is_chat and not Transcript([Message(0, 0, None)]).is_chat
    assert transcript == Transcript(list(messages), levels=frozenset({2}))
    assert transcript != Transcript(messages[:3], levels=frozenset({2}))
