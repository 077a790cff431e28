"""Session 22's first speed pass (sa22): the bench measures a fair sample, then work every
command paid for that an exact, cheaper test can skip without changing a verdict.

- The bench's sample (`bench.safety.variants`): it kept the FIRST 3,000 distinct corpus rows
  in file order, so a new file whose name sorted early (sources_a21.tsv) pushed older rows
  out and the ~15,000 rows of later files were never measured. It is now a seeded uniform
  sample over every distinct row (a keyed hash ranks each row; the lowest 3,000 are kept):
  every file weighs by its rows and a new file moves the sample only in proportion.
- `re`'s cache of compiled patterns (512) was smaller than the ~1,200 pattern strings the
  analyser hands `re.search`/`match`/`sub` at run time (plus ~1,100 compiled at import), so
  every pass over varied commands recompiled hundreds: 803 compiles, 1.6 s of CPU, per pass
  over the bench's 3,000 commands. `aintern_ls.safety` gives it room for 4,096.
- bash's `_FISH_SUBST` (fish's `(cmd)`, searched in every bash text holding a `(`) started
  with two look-behinds, tried at every position (12 us for a 90-byte command); it now
  starts with the `(` every match holds, which the engine finds at memory speed (1.3 us),
  with the same matches, spans and groups.

Tests never time anything: they count calls or check the sample's properties;
`bench/sp9b_verdicts.py` dumps before and after each cut show no difference (levels,
findings, spans, budget steps).
"""

from __future__ import annotations

import random
import re
import re._compiler
from collections import Counter

import pytest

from aintern_ls.safety import bash, stack
from aintern_ls.safety.analyser import _assess_cached, shell_family
from bench.safety import corpus_commands, variants

_BASH = [(f"ls dir{i}", "bash") for i in range(4000)]
_CMD = [(f"dir d{i}", "cmd") for i in range(2000)]


def test_the_sample_is_seeded_distinct_and_the_right_size() -> None:
    base = _BASH + _CMD + _BASH[:50]  # repeats count once
    one = variants(base, 3000)
    assert one == variants(base, 3000)
    assert len(one) == len(set(one)) == 3000
    assert one != variants(base, 3000, seed=8)


def test_every_file_weighs_by_its_rows_wherever_it_stands() -> None:
    # before sa22: the first 3,000 rows in file order, all bash (the cmd rows came after)
    for base in (_BASH + _CMD, _CMD + _BASH):
        shells = Counter(s for _c, s in variants(base, 3000))
        assert 900 <= shells["cmd"] <= 1100, shells  # a third of the rows: about 1,000


def test_a_new_file_moves_the_sample_only_in_proportion() -> None:
    base = _BASH + _CMD
    before = set(variants(base, 3000))
    new_file = [(f"Get-Item f{i}", "powershell") for i in range(150)]
    for at in (0, len(_BASH), len(base)):  # the new file's name sorts first, between, last
        after = set(variants(base[:at] + new_file + base[at:], 3000))
        pushed_out = len(before - after)
        # before sa22, placed first: 150 rows pushed out; now about 150 * 3000 / 6150 = 73
        assert pushed_out < 110, (at, pushed_out)
        assert len(after - before) == pushed_out


def test_the_bench_samples_every_corpus_file() -> None:
    base = corpus_commands()
    sample = variants(base, 3000)
    assert len(set(sample)) == 3000
    assert set(sample) <= set(base)  # rows, not generated variants, while there are enough
    # rows of the files that sort last are in it (before sa22: none past the first 3,000)
    late = set(list(dict.fromkeys(base))[3000:])
    assert len(set(sample) & late) > 2000


def test_a_short_corpus_is_topped_up_with_variants() -> None:
    base = _CMD[:100]
    got = variants(base, 300)
    assert len(got) == len(set(got)) == 300
    assert set(base) <= set(got)


def test_a_second_pass_over_the_bench_sample_compiles_no_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    analyse = _assess_cached.__wrapped__
    sample = variants(corpus_commands(), 3000)
    compiled: list[object] = []
    real = re._compiler.compile

    def counting(pattern: object, flags: int = 0) -> object:
        compiled.append(pattern)
        return real(pattern, flags)  # type: ignore[arg-type]

    def judge_all() -> None:
        for command, shell in sample:
            analyse(command, shell_family(shell), None)

    re.purge()  # (what other tests compiled does not count)
    stack.reserved(judge_all)
    monkeypatch.setattr(re._compiler, "compile", counting)
    stack.reserved(judge_all)
    # before sa22: 803 patterns compiled again on the second pass (re kept 512)
    assert len(compiled) == 0, len(compiled)
    # (room to spare: the sample's run-time patterns fill well under half of the cache)
    assert len(re._cache) <= getattr(re, "_MAXCACHE", 0) // 2, len(re._cache)  # type: ignore[attr-defined]


def test_re_keeps_room_for_the_analysers_patterns() -> None:
    """(review 22 S2) The canary: `aintern_ls.safety` raised `re._MAXCACHE` on this
    interpreter (a private attribute: a Python without it, or that stops reading it, makes
    the raise a silent no-op, and the compiles above come back)."""
    import aintern_ls.safety  # noqa: F401

    assert hasattr(re, "_MAXCACHE")
    assert re._MAXCACHE >= 4096  # type: ignore[attr-defined]


# bash._FISH_SUBST before sa22: the look-behinds first
_FISH_SUBST_BEFORE = re.compile(
    rb"(?:(?<=[\w./~:'\"-])|(?<=[\w./~:'\"-][ \t]))\(([^()\n`]*[^()\n`\s][^()\n`]*)\)"
)


def test_the_fish_substitution_search_starts_with_its_literal() -> None:
    # (a pattern that starts with a literal byte is searched for it at memory speed)
    assert bash._FISH_SUBST.pattern.startswith(rb"\(")


@pytest.mark.parametrize(
    "text",
    [
        b"rm -rf (echo /)",
        b"echo $(date) a(b) c (d) e\t(f) 'x'(g) \"y\"(h) ~(i) -(j) .(k) /(l) :(m)",
        b"f () { x; }; (cd a; ls) ((n++)) arr=(a b) @(x|y) <(ls) x(  ) y(\n)",
        b"x (  y ) z( -name q ) w(`a`) v(a(b)c)",
        b"a(" * 40 + b")",
    ],
)
def test_the_fish_substitution_search_finds_what_it_found(text: bytes) -> None:
    def found(p: re.Pattern[bytes], t: bytes) -> list[tuple[tuple[int, int], bytes]]:
        return [(m.span(), m.group(1)) for m in p.finditer(t)]

    assert found(bash._FISH_SUBST, text) == found(_FISH_SUBST_BEFORE, text)
    assert bash._FISH_SUBST.findall(text, 0, 20000) == _FISH_SUBST_BEFORE.findall(text, 0, 20000)


def test_the_fish_substitution_search_agrees_on_generated_texts() -> None:
    rng = random.Random(22)
    alphabet = b"ab (\t)\n`-/.'\"~:$_ "
    for _ in range(20000):
        text = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        got = [(m.span(), m.group(1)) for m in bash._FISH_SUBST.finditer(text)]
        before = [(m.span(), m.group(1)) for m in _FISH_SUBST_BEFORE.finditer(text)]
        assert got == before, text
