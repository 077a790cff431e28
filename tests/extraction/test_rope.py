"""A huge document held as a `Rope` reads exactly like the `str` it stands for, through
random edits (deterministic seeds), and so do its line index, its incremental
extraction and the server's edits."""

from __future__ import annotations

import random

import attrs
import pytest

from aintern_ls import rope as rope_module
from aintern_ls.extraction.extractor import Extractor
from aintern_ls.positions import LineIndex
from aintern_ls.rope import Rope

_ALPHABET = "ab \n\r\t`#$é😀"


def _random_text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_ALPHABET) for _ in range(n))


def _check_invariants(rope: Rope) -> None:
    for k in range(rope.chunk_count):
        chunk = rope.chunk(k)
        assert chunk, "no empty chunk"
        if k + 1 < rope.chunk_count:
            assert not (chunk.endswith("\r") and rope.chunk(k + 1).startswith("\n"))
        breaks = chunk.count("\n") + chunk.count("\r") - chunk.count("\r\n")
        assert rope.line_breaks[k] == breaks


def _same_reads(rope: Rope, text: str, rng: random.Random) -> None:
    assert len(rope) == len(text)
    assert str(rope) == text
    assert rope == text and rope == Rope.of(text)
    n = len(text)
    for _ in range(60):
        a = rng.randint(-3, n + 3)
        b = rng.randint(-3, n + 3)
        assert rope[a:b] == text[a:b], (a, b)
        if n:
            i = rng.randrange(-n, n)
            assert rope[i] == text[i]
        for sub in ("\n", "\r\n", "ab", "`#", "a", "😀", "\r", "zz"):
            assert rope.find(sub, a, b) == text.find(sub, a, b), (sub, a, b)
            assert rope.rfind(sub, a, b) == text.rfind(sub, a, b), (sub, a, b)
            assert rope.count(sub, a, b) == text.count(sub, a, b), (sub, a, b)
        assert rope.find("\n", a) == text.find("\n", a)
        assert rope.startswith(text[a : a + 5], max(a, 0)) == text.startswith(
            text[a : a + 5], max(a, 0)
        )
    with pytest.raises(IndexError):
        rope[n]


@pytest.mark.parametrize("seed", range(8))
def test_a_rope_reads_like_its_text_through_random_edits(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rope_module, "CHUNK", 64)  # many chunks, many boundaries
    rng = random.Random(seed)
    text = _random_text(rng, rng.randint(0, 2000))
    rope = Rope.of(text)
    _check_invariants(rope)
    _same_reads(rope, text, rng)
    for _ in range(120):
        a = rng.randint(0, len(text))
        b = rng.randint(a, min(len(text), a + rng.choice((0, 1, 3, 200))))
        new = _random_text(rng, rng.choice((0, 1, 1, 2, 5, 300)))
        before = rope
        rope = rope.splice(a, b, new)
        old_text, text = text, text[:a] + new + text[b:]
        _check_invariants(rope)
        assert str(before) == old_text  # (the version before is still whole)
        assert rope.equal_at(0, text, 0, len(text))
        assert (rope == before) == (text == old_text)
        # the parts both versions share compare equal without being read
        assert rope.equal_at(0, before, 0, a)
        tail = len(text) - (a + len(new))
        assert rope.equal_at(a + len(new), before, b, tail)
    _same_reads(rope, text, rng)


@pytest.mark.parametrize("seed", range(4))
def test_a_line_index_over_a_rope_equals_one_over_its_text(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rope_module, "CHUNK", 50)
    rng = random.Random(seed)
    text = _random_text(rng, 3000)
    rope = Rope.of(text).splice(100, 130, "\r\n\n\rx\r")
    text = text[:100] + "\r\n\n\rx\r" + text[130:]
    mine, theirs = LineIndex(rope), LineIndex(text)
    assert mine.line_count == theirs.line_count
    for line in range(-1, theirs.line_count + 2):
        assert mine.line_start(line) == theirs.line_start(line)
        for encoding in ("utf-8", "utf-16", "utf-32"):
            for character in (0, 1, 3, 50):
                assert mine.offset(line, character, encoding) == theirs.offset(
                    line, character, encoding
                )
    for offset in range(0, len(text) + 1, 7):
        assert mine.position(offset, "utf-16") == theirs.position(offset, "utf-16")
    assert LineIndex(Rope.of("")).line_count == LineIndex("").line_count == 1


_PIECES = [
    "## Me\n\nWhy does it fail? Try the command below.\n\n",
    "## CodeCompanion (Claude)\n\nRun this:\n\n```bash\nkubectl get pods\n```\n\n",
    "Then check:\n\n```console\n$ git status --short\n M app.py\n```\n\n",
    '```execute\n{"command": "ls -la", "workingDir": "/tmp"}\n```\n\n',
    "Build it:\n\n```sh {name=build cwd=/tmp}\nmake -j4\n```\r\n\r\n",
    "> quoted\n>\n> ```bash\n> df -h\n> ```\n\n",
    "```bash\nkubectl get pods\n```\n\n",
]


def _view(result: object) -> object:
    commands = result.commands  # type: ignore[attr-defined]
    warnings = result.warnings  # type: ignore[attr-defined]
    return (
        [repr(attrs.evolve(b, extracted_at=None)) for b in commands],
        [attrs.astuple(w) for w in warnings],
    )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("compact", [True, False])
def test_extraction_of_a_rope_equals_that_of_its_text_through_edits(
    seed: int, compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rope_module, "CHUNK", 512)
    rng = random.Random(seed)
    text = "".join(rng.choice(_PIECES) for _ in range(150))
    rope = Rope.of(text)
    uri = f"file:///rope-{seed}.md"
    incremental = Extractor(uri, min_region_chars=256, compact=compact)
    assert _view(incremental.extract(rope)) == _view(Extractor(uri).extract(text))
    for step in range(25):
        at = rng.randrange(len(text))
        end = min(len(text), at + rng.choice((0, 0, 1, 40)))
        new = rng.choice(["x", "x", "\n", "`", "\n\n## Me\n\n", "```bash\nls\n", ""])
        rope, text = rope.splice(at, end, new), text[:at] + new + text[end:]
        got = incremental.extract(rope)
        assert _view(got) == _view(Extractor(uri).extract(text)), (seed, step)
