"""The code lens JSON the server sends for a document equals the lenses built one
by one, and changes when anything a lens shows changes."""

from __future__ import annotations

import json

from pygls.protocol import default_converter

from aintern_ls.documents import DocumentStore
from aintern_ls.features import code_lens
from aintern_ls.models import CommandBlockStatus, CommandResult

DOC = "```bash\necho hi\n```\n\n```bash\nrm -rf /\n```\n\n```bash\ngit push --force\n```\n"


def _fresh(store: DocumentStore, uri: str) -> list[object]:
    doc = store.get(uri)
    converter = default_converter()
    out: list[object] = []
    for block in doc.blocks:
        out.extend(converter.unstructure(code_lens.lenses_for(doc, block, store.assess(block))))
    return out


def test_cached_json_equals_lenses_for_and_follows_status_and_results() -> None:
    store = DocumentStore()
    uri = "file:///lens-json.md"
    doc = store.update(uri, DOC)
    unstructure = default_converter().unstructure
    assert json.loads(code_lens.lenses_json(doc, store.assess, unstructure)) == _fresh(store, uri)
    first = doc.blocks[0]
    first.status = CommandBlockStatus.EXECUTING
    assert json.loads(code_lens.lenses_json(doc, store.assess, unstructure)) == _fresh(store, uri)
    first.status = CommandBlockStatus.FAILED
    doc.last_results[first.id] = CommandResult(
        block_id=first.id,
        command=first.command,
        status=CommandBlockStatus.FAILED,
        exit_code=3,
        duration_ms=1500,
    )
    sent = json.loads(code_lens.lenses_json(doc, store.assess, unstructure))
    assert sent == _fresh(store, uri)
    assert any(lens["command"]["title"].startswith("✗ exit 3") for lens in sent)
    # An edit above moves every lens down a line.
    moved = store.update(uri, "# Title\n" + DOC)
    sent = json.loads(code_lens.lenses_json(moved, store.assess, unstructure))
    assert sent == _fresh(store, uri)
    assert sent[0]["range"]["start"]["line"] == 1
