"""`assess` memoises by content, shell family and rules, and never raises on any text."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aintern_ls.safety import RiskLevel, SafetyRules, assess, bash
from aintern_ls.safety.analyser import cache_clear


def test_unchanged_fences_are_not_reparsed() -> None:
    cache_clear()
    before = bash.PARSES.count
    for _ in range(5):
        assess("ls -la && git status", "bash")
        assess("ls -la && git status", "sh")  # same family, same cache entry
    assert bash.PARSES.count == before + 1


def test_cache_key_includes_shell_family_and_rules() -> None:
    cache_clear()
    before = bash.PARSES.count
    assess("dir", "bash")
    assess("dir", "powershell")
    assess("dir", "cmd")
    assess("dir", "bash", SafetyRules(trusted=("dir",)))
    assert bash.PARSES.count == before + 4


def test_an_edited_fence_is_parsed_again() -> None:
    cache_clear()
    before = bash.PARSES.count
    assess("ls")
    assess("ls -l")
    assert bash.PARSES.count == before + 2


_PIECES = [
    *"rm -f/~*$(){}[]|&;<>'\"`\\\n\t#=!?.:@%^ab1éC",
    "rm -rf /",
    "sudo ",
    "bash -c ",
    "Remove-Item ",
    "$(",
    "<<EOF\n",
    "\nEOF\n",
    " | sh",
    "eval ",
    "-Recurse ",
]
_SHELL_TEXT = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(_SHELL_TEXT, st.text(max_size=60)),
    shell=st.sampled_from(["bash", "powershell", "cmd", "console"]),
)
def test_assess_never_raises_and_spans_stay_in_bounds(text: str, shell: str) -> None:
    cache_clear()
    a = assess(text, shell)
    assert a.level == max((f.level for f in a.findings), default=RiskLevel.SAFE)
    for f in a.findings:
        assert 0 <= f.start <= f.end <= len(text)


@settings(max_examples=200, deadline=None)
@given(text=_SHELL_TEXT, shell=st.sampled_from(["bash", "powershell", "cmd"]))
def test_a_parse_error_is_never_safe(text: str, shell: str) -> None:
    a = assess(text, shell)
    if any(f.rule == "parse-error" for f in a.findings):
        assert a.level >= RiskLevel.MODERATE
    if shell == "bash":
        tree = bash.parse(text.encode("utf-8", "surrogatepass"))
        if tree.root_node.has_error:
            assert a.level >= RiskLevel.MODERATE


def test_concurrent_assessments_from_many_threads_agree() -> None:
    from concurrent.futures import ThreadPoolExecutor

    commands = [f"rm -rf /tmp/x{i} && Remove-Item C:\\ -Recurse" for i in range(200)]
    cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        bash_levels = list(pool.map(lambda c: assess(c, "bash").level, commands))
        ps_levels = list(pool.map(lambda c: assess(c, "powershell").level, commands))
    assert set(bash_levels) == {RiskLevel.DANGEROUS}
    assert set(ps_levels) == {RiskLevel.BLOCKED}
