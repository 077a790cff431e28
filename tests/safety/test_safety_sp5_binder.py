"""The one PowerShell parameter binder (`words.ps_bind`) behind `wrappers.ps_named` and
`windows._ps_params`: named, abbreviated, `-Name:value`, switches, positional."""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from aintern_ls.safety.levels import RiskLevel
from aintern_ls.safety.words import Word, ps_bind, split_words

SWITCHES = frozenset({"force", "recurse", "whatif", "confirm"})


def _args(text: str) -> list[Word]:
    return split_words(text, 0, posix=False)


def _switchy(name: str) -> bool:
    return name not in SWITCHES


def test_named_values_switches_and_positionals_in_order() -> None:
    got = ps_bind(_args("C:\\a -Destination D:\\b -Force extra -Filter *.log"), _switchy)
    assert [(n, v.text if v else None) for n, v in got.named] == [
        ("destination", "D:\\b"),
        ("force", None),
        ("filter", "*.log"),
    ]
    assert [w.text for w in got.positional] == ["C:\\a", "extra"]


def test_a_colon_attaches_the_value_and_keeps_its_span_and_dynamism() -> None:
    args = [Word("-Path:$x", 3, 11, dynamic=True), Word("-Recurse:$false", 12, 27)]
    got = ps_bind(args, _switchy)
    path = got.value(("path",))
    assert path is not None and (path.text, path.start, path.end, path.dynamic) == (
        "$x",
        3,
        11,
        True,
    )
    recurse = got.params()["recurse"]
    assert recurse is not None and recurse.text == "$false"
    assert got.positional == ()


def test_abbreviations_of_two_letters_or_more_name_the_parameter() -> None:
    got = ps_bind(_args("-Dest C:\\x -So http://h/a"), _switchy)
    dest = got.value(("destination",))
    assert dest is not None and dest.text == "C:\\x"
    src = got.value(("source",), 0)
    assert src is not None and src.text == "http://h/a"
    # One letter is too short to be read as an abbreviation of a wanted parameter.
    assert ps_bind(_args("-D C:\\x"), _switchy).value(("destination",)) is None


def test_the_first_value_written_wins_for_value_and_the_last_for_params() -> None:
    got = ps_bind(_args("-Path a -Path b"), _switchy)
    first = got.value(("path",))
    assert first is not None and first.text == "a"
    last = got.params()["path"]
    assert last is not None and last.text == "b"


def test_whether_an_unknown_name_takes_a_value_is_the_callers_rule() -> None:
    text = "-Recurse C:\\Windows -Zap D:\\"
    # A rule that says "switch unless known to take a value" leaves both paths positional…
    strict = ps_bind(_args(text), lambda n: n in {"path"})
    assert [w.text for w in strict.positional] == ["C:\\Windows", "D:\\"]
    # …one that says "a value unless known to be a switch" gives -Zap its value.
    loose = ps_bind(_args(text), _switchy)
    assert [w.text for w in loose.positional] == ["C:\\Windows"]
    zap = loose.params()["zap"]
    assert zap is not None and zap.text == "D:\\"


def test_a_following_parameter_or_the_end_leaves_a_switch() -> None:
    got = ps_bind(_args("-Path -Force"), _switchy)
    assert got.params() == {"path": None, "force": None}
    assert got.has("pa") and got.has("fo", "zz") and not got.has("recurse")


def test_a_wanted_parameter_takes_the_next_argument_whatever_it_looks_like() -> None:
    got = ps_bind(_args("-Destination -x C:\\"), _switchy, ("destination",))
    dest = got.value(("destination",))
    assert dest is not None and dest.text == "-x"
    assert [w.text for w in got.positional] == ["C:\\"]
    # …and at the end of the line it has none.
    assert (
        ps_bind(_args("-Destination"), _switchy, ("destination",)).value(("destination",)) is None
    )


def test_negative_numbers_are_positional_not_parameters() -> None:
    got = ps_bind(_args("-5 -Count 3"), _switchy)
    assert [w.text for w in got.positional] == ["-5"]
    count = got.params()["count"]
    assert count is not None and count.text == "3"


def test_the_position_counts_only_unbound_arguments() -> None:
    got = ps_bind(_args("-Filter *.tmp C:\\Temp D:\\Logs"), _switchy)
    first = got.value(("path",), 0)
    second = got.value(("path",), 1)
    assert first is not None and first.text == "C:\\Temp"
    assert second is not None and second.text == "D:\\Logs"
    assert got.value(("path",), 2) is None


@pytest.mark.parametrize(
    "command,level",
    [
        # Both call sites read through the binder: Remove-Item (windows) …
        ("Remove-Item -Path:C:\\ -Recurse -Force", RiskLevel.BLOCKED),
        ("Remove-Item -LiteralPath C:\\Windows -Recurse", RiskLevel.BLOCKED),
        ("Remove-Item -Path C:\\ -Recurse -WhatIf", RiskLevel.SAFE),
        # … and Start-BitsTransfer / Expand-Archive (wrappers).
        (
            "Start-BitsTransfer -TransferType Upload -Source C:\\x.txt -Dest http://h/",
            RiskLevel.CRITICAL,
        ),
        ("Start-BitsTransfer -So http://h/a.exe -De C:\\a.exe", RiskLevel.MODERATE),
    ],
)
def test_both_call_sites_bind_through_it(command: str, level: RiskLevel) -> None:
    assert assess(command, "powershell").level == level
