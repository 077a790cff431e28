"""Incremental extraction gives exactly what a fresh whole-document extraction gives.

Regions are made as small as possible here (one top-level stretch each), so random
Markdown crosses region boundaries with fences, lists, quotes, HTML blocks and chat
headers; the result must equal a parse of the document as one region (the plain
CommonMark parse), before and after random edits applied one after another.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aintern_ls.extraction.extractor import Extractor
from aintern_ls.models import CommandExtractionResult
from tests.extraction.test_extraction_properties import _MARKUP, uris

_PIECES = st.one_of(
    _MARKUP,
    st.sampled_from(
        [
            "\n\n",
            "\n\n## CodeCompanion\n\n",
            "\n\n## Me\n\n",
            "\n\n#### run the tests\n\n",
            "\n\n```bash\nls\n",
            "\n\n```\n\n",
            "\n\n<!--\n",
            "-->\n",
            "\n\n- item\n\n  ```sh\n  make\n  ```\n",
            "\n\nSome prose.\n",
            "\n\n💬: hi\n\n🤖: ok\n\n",
        ]
    ),
)
_DOCS = st.lists(_PIECES, max_size=50).map("".join)


def _view(result: CommandExtractionResult) -> tuple[list[Any], list[Any]]:
    blocks = [attrs.evolve(b, extracted_at=None).__repr__() for b in result.commands]  # type: ignore[arg-type]
    return blocks, [attrs.astuple(w) for w in result.warnings]


def _whole(text: str, uri: str) -> CommandExtractionResult:
    return Extractor(uri, min_region_chars=10**12).extract(text)


@st.composite
def _edits(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    text = draw(_DOCS)
    edits = []
    length = len(text)
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, length))
        end = draw(st.integers(start, min(length, start + draw(st.integers(0, 12)))))
        insert = draw(st.one_of(_PIECES, st.text(max_size=3)))
        edits.append((start, end, insert))
        length += len(insert) - (end - start)
    return text, edits


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_edits(), uri=uris)
def test_incremental_equals_whole_parse_after_random_edits(
    case: tuple[str, list[tuple[int, int, str]]], uri: str
) -> None:
    text, edits = case
    incremental = Extractor(uri, min_region_chars=1)
    assert _view(incremental.extract(text)) == _view(_whole(text, uri))
    for start, end, insert in edits:
        text = text[:start] + insert + text[end:]
        assert _view(incremental.extract(text)) == _view(_whole(text, uri)), text


@settings(max_examples=200, deadline=None)
@given(text=_DOCS, uri=uris)
def test_small_regions_equal_one_region(text: str, uri: str) -> None:
    assert _view(Extractor(uri, min_region_chars=1).extract(text)) == _view(_whole(text, uri))
