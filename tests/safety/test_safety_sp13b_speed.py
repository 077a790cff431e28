"""Session 13 (sp13b): work that ran without paying budget steps, made cheap and paid for.

- `words.glob_candidates`: a globbed command word (`/u?r/b?n/x*`) was tried against every
  known name in five folders (2 ms each, unpaid: ten thousand characters of them took more
  than a second). Now only the names that can match are tried (by the pattern's literal
  first and last characters), each folder's paths are filtered at once, a caller that
  guesses among at most four stops at the fifth, and the tries are paid for, the same
  whether the answer is remembered or not.
- `bash.Positions`: byte offsets to characters encoded every character of a text that is
  not all ASCII; now only the characters of more than one byte are listed.

Both must give exactly the answers of the code they replace (checked here against it).
"""

from __future__ import annotations

import bisect
import fnmatch
import random
import re

import pytest

from aintern_ls.safety import analyser, assess, budget, words
from aintern_ls.safety.bash import Positions
from aintern_ls.safety.dispatch import KNOWN_NAMES
from aintern_ls.safety.words import _glob_candidates, glob_candidates


def _glob_reference(pattern: str, known: frozenset[str]) -> list[str]:
    """What `glob_candidates` answered before session 13 (every name tried)."""
    if "/" in pattern:
        dirs = ("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/")
        full = re.compile(fnmatch.translate(pattern))
        return sorted(n for n in known if any(full.match(d + n) for d in dirs))
    regex = re.compile(fnmatch.translate(pattern))
    return sorted(n for n in known if regex.match(n))


def _patterns(count: int) -> list[str]:
    rng = random.Random(13)
    names = sorted(KNOWN_NAMES)
    extra = [*"*?[]!/-.abmnrst", "bin", "/usr/bin/", "/bin/"]
    out = ["/???/?m", "r?", "*", "c[a]t", "/usr/bin/r*", "[", "]", "/", "?/", "*/", "[ab", "*m"]
    for _ in range(count):
        chars = list(rng.choice(names))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars))
            if rng.random() < 0.5:
                chars.insert(at, rng.choice(extra))
            else:
                chars[at] = rng.choice("*?")
        prefix = rng.choice(["", "", "/usr/bin/", "/bin/", "/???/", "/*/", "*/"])
        out.append(prefix + "".join(chars))
    return out


@pytest.mark.parametrize(
    "known", [KNOWN_NAMES, frozenset(KNOWN_NAMES | {"", "a/", "x/"})], ids=["known", "odd"]
)
def test_glob_candidates_are_those_every_name_tried_gives(known: frozenset[str]) -> None:
    for pattern in _patterns(300):
        every = _glob_reference(pattern, known)
        assert list(_glob_candidates(pattern, known, None)[0]) == every, pattern
        for limit in (1, 4):
            # (with a limit: every candidate when there are no more, else `limit + 1`)
            found = list(_glob_candidates(pattern, known, limit)[0])
            assert found == every if len(every) <= limit else len(found) == limit + 1, pattern


def test_a_glob_pays_the_same_whether_remembered_or_not() -> None:
    text = "/u?r/b?n/zz* -rf t"
    _glob_candidates.cache_clear()
    analyser.cache_clear()
    first = analyser._assess_cached.__wrapped__(text, "bash", None)
    steps = budget.spent()
    again = analyser._assess_cached.__wrapped__(text, "bash", None)
    assert budget.spent() == steps
    assert again == first
    # (every known name in five folders: about 1,500 steps on top of the command's own)
    assert steps >= len(KNOWN_NAMES) * 5 // words.GLOB_TRIES_PER_STEP
    # `*` alone: the first five names say there are too many to guess among
    assert len(glob_candidates("*", KNOWN_NAMES, limit=4)) == 5


def test_ten_thousand_characters_of_globbed_commands_are_cut() -> None:
    text = "".join(f"/u?r/b?n/x{i}* -rf t\n" for i in range(470))
    got = analyser._assess_cached.__wrapped__(text, "bash", None)
    assert any(f.rule == "too-complex" for f in got.findings)
    assert got.level.label == "critical"


@pytest.mark.parametrize(
    "wrap", ["{}", "sudo {}", "env A=1 {}", "sh -c '{}'", "eval '{}'", "f() {{ {}; }}; f"]
)
def test_a_globbed_system_wipe_keeps_its_level_in_wrappers(wrap: str) -> None:
    # `/???/?m` resolves to `rm` (and `/bin/?m` to rm too): the wipe stays blocked.
    assert assess(wrap.format("/???/?m -rf /"), "bash").level.label == "blocked"


def _positions_reference(text: str, byte: int) -> int:
    """What `Positions.char` answered before session 13 (every character's byte offset)."""
    if text.isascii():
        return byte
    starts: list[int] = []
    pos = 0
    for ch in text:
        starts.append(pos)
        pos += len(ch.encode("utf-8", "surrogatepass"))
    if byte >= pos:
        return len(starts)
    return bisect.bisect_right(starts, byte) - 1


def test_positions_match_the_per_character_table() -> None:
    rng = random.Random(5)
    alphabet = ["a", " ", "\n", "é", "€", "😀", "\ud800", "ß", "x", "中"]
    texts = ["", "abc", "é", "😀x", "x\ud800y"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(800)]
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        pos = Positions(text, data)
        for byte in range(len(data) + 3):
            assert pos.char(byte) == _positions_reference(text, byte), (text, byte)


def test_spans_in_a_non_ascii_text_stay_on_their_words() -> None:
    text = "echo 'é ü 中 😀'\nrm -rf / # ö"
    got = assess(text, "bash")
    assert got.level.label == "blocked"
    finding = next(f for f in got.findings if f.level.label == "blocked")
    assert text[finding.start : finding.end].startswith("rm -rf /")


# --- prices measured in session 13 ------------------------------------------------------


def _steps(text: str, shell: str) -> float:
    analyser._assess_cached.__wrapped__(text, shell, None)
    return budget.spent()


def test_the_bash_grammar_is_paid_by_the_nodes_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pipelines of 1,668 `cat`s: thousands of nodes, grammar time that chunk reads alone
    # paid too little for; now its nodes pay a step each four. (Short pipelines joined by
    # `;`: one pipeline longer than stages.MAX_STAGES is cut before the grammar sees it.)
    import tree_sitter

    from aintern_ls.safety import bash

    text = "; ".join([" | ".join(["cat"] * 4)] * 417)
    nodes = tree_sitter.Parser(bash._LANGUAGE).parse(text.encode()).root_node.descendant_count
    paid = _steps(text, "bash")
    monkeypatch.setattr(budget, "PARSE_NODES_PER_STEP", 10**9)
    assert paid - _steps(text, "bash") == nodes // 4 > 1000


def test_a_cmd_judgement_has_its_own_price(monkeypatch: pytest.MonkeyPatch) -> None:
    # cmd's judgement of a command costs 1.0-1.6x bash's (`mkdir -p dN` chains: 1.57x).
    text = "mkdir -p d1 & mkdir -p d2 & mkdir -p d3"
    paid = _steps(text, "cmd")
    monkeypatch.setattr(budget, "CMD_JUDGE_STEPS", budget.CMD_JUDGE_STEPS + 100)
    assert _steps(text, "cmd") - paid == 300
    assert budget.CMD_JUDGE_STEPS > budget.JUDGE_STEPS


def test_an_error_region_statement_is_paid_once() -> None:
    # (the grammar cannot read cmd's `for /f`; bash reads it statement by statement)
    text = "for /f %i in ('dir /b') do echo %i\n" * 3
    got = analyser._assess_cached.__wrapped__(text, "bash", None)
    assert got.level.label != "safe"
    assert budget.STATEMENT_STEPS < 20
