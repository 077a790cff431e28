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


def test_a_waiting_run_gets_its_own_lenses_and_cache_entry() -> None:
    from aintern_ls.terminal.waiting import InputWait

    store = DocumentStore()
    uri = "file:///lens-waiting.md"
    doc = store.update(uri, DOC)
    unstructure = default_converter().unstructure
    first = doc.blocks[0]
    first.status = CommandBlockStatus.EXECUTING
    state: dict[str, InputWait] = {}
    running = json.loads(code_lens.lenses_json(doc, store.assess, unstructure, state.get))
    assert running[0]["command"]["title"] == "⏳ running… ■ Stop"
    state[first.id] = InputWait(prompt="name? ", secret=False, how="tty-read")
    sent = json.loads(code_lens.lenses_json(doc, store.assess, unstructure, state.get))
    expected = default_converter().unstructure(
        code_lens.lenses_for(doc, first, store.assess(first), state[first.id])
    )
    assert sent[: len(expected)] == expected
    assert [lens["command"]["title"] for lens in expected[:2]] == [
        "⌨ waiting for input ■ Stop",
        "✎ Answer",
    ]
    answer = expected[1]["command"]
    assert answer["command"] == "aintern.run.input"
    assert answer["arguments"][0]["prompt"] == "name? "
    assert answer["arguments"][0]["secret"] is False
    del state[first.id]  # answered: back to the running lens
    again = json.loads(code_lens.lenses_json(doc, store.assess, unstructure, state.get))
    assert again == running
