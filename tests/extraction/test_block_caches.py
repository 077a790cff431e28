"""What is kept between document versions for speed (assessments, lens JSON and
diagnostics per block) always equals what a fresh server would compute: after edits
inside and around blocks, after new safety rules, after a fence's `env` changes. Each
test runs with blocks as objects and in the compact store of huge documents."""

from __future__ import annotations

import json
import random

import pytest
from pygls.protocol import default_converter

from aintern_ls.documents import DocumentStore
from aintern_ls.extraction import extractor
from aintern_ls.extraction.compact import BlockTable
from aintern_ls.features import code_lens
from aintern_ls.features.diagnostics import diagnostics_for, diagnostics_json
from aintern_ls.models import CommandBlockStatus
from aintern_ls.safety import RiskLevel, SafetyRules

URI = "file:///caches.md"
_CONVERTER = default_converter()

BLOCKS = [
    "```bash\necho hello $HOME\n```\n",
    "```bash\nrm -rf /\n```\n",
    '```sh {"env":{"TARGET":"prod"}}\ndeploy --to $TARGET <your-token>\n```\n',
    "```console\n$ git push --force\nEverything up-to-date\n```\n",
    '```bash {"frobnicate":"yes"}\nkubectl delete ns staging\n```\n',
    "```bash\nunclosed() {\n",
]
PROSE = ["## Me\n\nWhy?\n\n", "## CodeCompanion\n\nTry this:\n\n", "Some prose.\n\n"]


@pytest.fixture(autouse=True, params=["objects", "compact"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "compact":
        monkeypatch.setattr(extractor, "COMPACT_CHARS", 0)
    return str(request.param)


def _document(rng: random.Random) -> str:
    """Big enough for several extraction regions, so edits leave most blocks as they were."""
    parts = []
    for _ in range(rng.randrange(120, 200)):
        parts.append(rng.choice(PROSE))
        parts.append(rng.choice(BLOCKS[:-1]) + "\n")
    if rng.random() < 0.3:
        parts.append(BLOCKS[-1])
    return "".join(parts)


def _edit(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    choice = rng.random()
    if choice < 0.4:
        return text[:at] + rng.choice(["x", " ", "#", "`", "$"]) + text[at:]
    if choice < 0.6:
        return text[:at] + "\n" + text[at:]
    if choice < 0.8 and len(text) > at + 1:
        return text[:at] + text[at + rng.randrange(1, 8) :]
    return text[:at] + rng.choice(BLOCKS + PROSE) + text[at:]


def _lenses(store: DocumentStore) -> list[object]:
    doc = store.get(URI)
    return json.loads(code_lens.lenses_json(doc, store.assess, _CONVERTER.unstructure))  # type: ignore[no-any-return]


def _diagnostics(store: DocumentStore) -> list[object]:
    doc = store.get(URI)
    assessments = {b.id: store.assess(b) for b in doc.blocks}
    return _CONVERTER.unstructure(diagnostics_for(doc, assessments, "utf-16", environment={}))  # type: ignore[no-any-return]


def _diagnostics_sent(store: DocumentStore) -> list[object]:
    """What the server publishes (JSON made from kept pieces)."""
    doc = store.get(URI)
    assessments = {b.id: store.assess(b) for b in doc.blocks}
    sent = diagnostics_json(
        doc, assessments, "utf-16", RiskLevel.MODERATE, _CONVERTER.unstructure, environment={}
    )
    return json.loads(sent)  # type: ignore[no-any-return]


def _fresh(text: str, rules: SafetyRules | None = None) -> DocumentStore:
    store = DocumentStore()
    if rules is not None:
        store.rules = rules
    store.update(URI, text)
    return store


def test_kept_lenses_and_diagnostics_equal_a_fresh_computation_after_edits(mode: str) -> None:
    rng = random.Random(12)
    for _ in range(6):
        text = _document(rng)
        store = _fresh(text)
        assert isinstance(store.get(URI).blocks, BlockTable) == (mode == "compact")
        _lenses(store), _diagnostics(store)  # fill the caches
        for _ in range(10):
            text = _edit(rng, text)
            store.update(URI, text)
            doc = store.get(URI)
            assert len(doc.result.commands) > 20
            if rng.random() < 0.5:  # a status the lenses show
                doc.blocks[rng.randrange(len(doc.blocks))].status = CommandBlockStatus.EXECUTING
            fresh = _fresh(text)
            theirs = fresh.get(URI).blocks
            for k, mine in enumerate(doc.blocks):
                if mine.status is not CommandBlockStatus.PENDING:
                    # (one by one: a huge document's blocks met while iterating are new
                    # objects; one asked for by index or id is the one kept)
                    theirs[k].status = mine.status
            assert _lenses(store) == _lenses(fresh)
            assert _diagnostics(store) == _diagnostics(fresh)
            assert _diagnostics_sent(store) == _diagnostics(fresh)


def test_new_rules_reach_lenses_and_diagnostics() -> None:
    text = "".join(BLOCKS[:5])
    store = _fresh(text)
    before = _lenses(store), _diagnostics(store)
    rules = SafetyRules(extra_blocked=("^kubectl delete",), trusted=("echo",))
    store.rules = rules
    after = _lenses(store), _diagnostics(store)
    assert _diagnostics_sent(store) == after[1]
    assert after != before
    fresh = _fresh(text, rules)
    assert after == (_lenses(fresh), _diagnostics(fresh))

    def blocked(lenses: list[object]) -> int:
        return sum(lens["command"]["title"].startswith("⛔") for lens in lenses)  # type: ignore[index]

    assert blocked(after[0]) == blocked(before[0]) + 1  # kubectl delete


def test_a_changed_fence_env_is_assessed_again() -> None:
    safe = '```sh {"env":{"X":"1"}}\necho $X\n```\n'
    store = _fresh(safe)
    first = store.assess(store.get(URI).blocks[0])
    # Same command and shell, but now the fence sets a variable the gate flags.
    changed = safe.replace('{"X":"1"}', '{"X":"1","LD_PRELOAD":"/tmp/x.so"}')
    store.update(URI, changed)
    second = store.assess(store.get(URI).blocks[0])
    assert second == _fresh(changed).assess(_fresh(changed).get(URI).blocks[0])
    assert second != first
