"""Shell-level mechanisms of the third safety round (issue 14): scripts fed through file
descriptors, substitutions that evaluate to a path, long chains. Each test names the family
and would fail if the mechanism broke."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, analyser

_analyse = analyser._assess_cached.__wrapped__

PAYLOADS = {"rm -rf /": "rm-root", "rm -rf ~": "rm-home", "mkfs.ext4 /dev/sda": ""}

# How a script can reach a shell through a descriptor other than a pipe: {code} is the
# payload, quoted for single quotes where the form needs it.
FD_FEEDS = [
    "exec 3<<EOF\n{code}\nEOF\nsh <&3",
    "exec 3<<'EOF'\n{code}\nEOF\nbash 0<&3",
    "exec 7<<<'{code}'; sh <&7",
    "exec 5< <(echo '{code}'); bash <&5",
    "exec 0<<<'{code}'; sh",
    "exec < <(echo '{code}'); bash",
    "exec 3<<EOF\n{code}\nEOF\nexec 0<&3; sh",
    "exec {{fd}}<<<'{code}'; sh <&$fd",
    "exec 4<<EOF\n{code}\nEOF\nbash /dev/fd/4",
    "exec 4<<EOF\n{code}\nEOF\nsource /proc/self/fd/4",
    "bash 3<<EOF /dev/fd/3\n{code}\nEOF",
    "sh /dev/fd/3 3<<<'{code}'",
    "echo '{code}' > x.sh; sh 0<x.sh",
    "printf '%s\\n' '{code}' > /tmp/p; sh < /tmp/p",
    "bash < <(echo '{code}')",
    "source /dev/stdin <<<'{code}'",
    "bash 0< <(printf '%s' '{code}')",
]


@pytest.mark.parametrize("form", FD_FEEDS)
@pytest.mark.parametrize("code", sorted(PAYLOADS))
def test_a_script_fed_through_a_descriptor_is_judged(form: str, code: str) -> None:
    got = _analyse(form.format(code=code), "bash", None)
    assert got.level == RiskLevel.BLOCKED, (form, got.findings[:3])


@pytest.mark.parametrize("form", FD_FEEDS)
def test_a_harmless_script_fed_through_a_descriptor_is_not_blocked(form: str) -> None:
    got = _analyse(form.format(code="ls -la"), "bash", None)
    assert got.level < RiskLevel.DANGEROUS, (form, got.findings[:3])


@pytest.mark.parametrize(
    "text",
    [
        "exec 3<<EOF\nrm -rf /\nEOF\ncat <&3",  # read as data, not run
        "exec 3<<EOF\nrm -rf /\nEOF\ngrep rm <&3",
        "exec 3<<<'rm -rf /'; wc -l <&3",
    ],
)
def test_a_descriptor_read_as_data_is_data(text: str) -> None:
    assert _analyse(text, "bash", None).level <= RiskLevel.MODERATE


def test_a_descriptor_opened_outside_the_text_is_not_safe_to_run() -> None:
    # `sh <&3` with 3 opened by whoever runs this: commands from an unknown source.
    assert _analyse("sh <&3", "bash", None).level >= RiskLevel.CRITICAL
    # …while the terminal descriptors are the interactive shell they always were.
    assert _analyse("sh 0<&2", "bash", None).level == RiskLevel.MODERATE


def test_a_descriptor_reopened_is_judged_again() -> None:
    text = "exec 3<<EOF\nls\nEOF\nsh <&3\nexec 3<<EOF\nrm -rf ~\nEOF\nsh <&3"
    assert _analyse(text, "bash", None).level == RiskLevel.BLOCKED


@pytest.mark.parametrize("op", ["&&", "||", "&& true ||"])
def test_a_long_chain_is_walked_to_its_end(op: str) -> None:
    # The grammar nests a chain one level per operator; thousands of them must not make
    # the analyser give up ("too deeply nested") before the destructive last command.
    text = f" {op} ".join(["ls"] * 1500) + f" {op} rm -rf ~"
    got = _analyse(text, "bash", None)
    assert got.level == RiskLevel.BLOCKED
    assert not any(f.rule == "too-complex" for f in got.findings)
    assert _analyse(" && ".join(["ls"] * 1500), "bash", None).level == RiskLevel.SAFE
