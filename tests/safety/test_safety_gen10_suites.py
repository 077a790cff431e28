"""Commands from other agents' own command-gate test suites (gen10): the families their
tune rows exposed, each kept when wrapped, and the look-alikes that must stay low.

- the dynamic loader's injection variables set for the rest of the shell (`export
  LD_PRELOAD=/tmp/x.so`, `declare -x LD_AUDIT=…`): every later program loads the library, as
  the one-command prefix `LD_PRELOAD=… ls` does (critical, `preload`);
- sed's `e`: `s/PAT/REP/e` runs the whole edited line and a bare `e` runs the pattern space,
  so what runs is input data the text does not show (critical, `config-exec`), unless the
  substitution replaces the whole line with known text (then that text is judged);
- tools that run or write through an option: `rg --hostname-bin PROG` runs PROG like
  `--pre`, `tree -o FILE` writes FILE, `sed -f SCRIPT` runs a script file, BSD `sed -I`
  edits in place.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, M, S


def _wrapped(command: str) -> list[str]:
    quoted = command.replace("'", "'\"'\"'")
    builtin = command.startswith(("export ", "declare ", "LD_"))  # sudo/env cannot run these
    return [
        command,
        f"sudo {command}" if not builtin else f"sudo bash -c '{quoted}'",
        f"env FOO=1 {command}" if not builtin else f"env FOO=1 sh -c '{quoted}'",
        f"sh -c '{quoted}'",
        f"bash -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {command}; }}; f",
        f"true && {command}",
    ]


PRELOAD = [
    "export LD_PRELOAD=/tmp/evil.so",
    "export LD_PRELOAD=./libhook.so",
    "declare -x LD_AUDIT=/tmp/a.so",
    "export DYLD_INSERT_LIBRARIES=/tmp/x.dylib",
    "LD_PRELOAD=/dev/shm/x.so; export LD_PRELOAD",
    "export LD_PRELOAD=$(mktemp)",
]


@pytest.mark.parametrize("command", PRELOAD)
def test_loader_injection_for_the_rest_of_the_shell_is_critical(command: str) -> None:
    for form in _wrapped(command):
        a = assess(form, "bash")
        assert a.level >= C, form
        assert "preload" in {f.rule for f in a.findings}, form


@pytest.mark.parametrize(
    "command",
    [
        "export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "export LD_LIBRARY_PATH=/opt/lib",
        "unset LD_PRELOAD",
        "echo export LD_PRELOAD=/tmp/evil.so",
        "grep -r LD_PRELOAD /etc",
        "# export LD_PRELOAD=/tmp/evil.so",
    ],
)
def test_loader_look_alikes_stay_low(command: str) -> None:
    assert assess(command, "bash").level <= M, command


SED_RUNS_INPUT = [
    'sed "s/foo/bar/e" file.txt',
    "sed 's/^/echo /e' names.txt",
    "sed 's/.*/echo &/e' list",
    "sed e cmds.txt",
    "sed -n '1e' f",
    "sed '1,5e' f",
    "sed 's/a/b/e;p' f",
    "gsed -E 's/(x)/\\1/e' f",
]


@pytest.mark.parametrize("command", SED_RUNS_INPUT)
def test_sed_running_its_input_is_critical(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level >= C, form


@pytest.mark.parametrize(
    "command,expected",
    [
        # the whole line replaced by known text: that text is what runs
        ("sed 's/.*/date/e' f", M),
        ("sed 's/.*/rm -rf \\//e' f", B),
        ("sed '1e rm -rf ~' f", B),
        # no `e` command: data only
        ("sed -n '/^e$/p' f", S),
        ("sed 'y/abc/xye/' f", S),
        ("sed 's/^e//' f", S),
        ("sed -e 's/a/b/' file.txt", S),
        ("echo sed s/x/y/e", S),
        ("grep -n 's/x/y/e' notes.md", S),
    ],
)
def test_sed_e_look_alikes(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("rg --hostname-bin hostname pattern .", M),
        ("rg --hostname-bin='rm -rf ~' x .", B),
        ("rg -n pattern .", S),
        ("tree -o output.txt", M),
        ("tree --output out.txt", M),
        ("tree -L 2 src", S),
        ("sed -f script.sed file.txt", M),
        ("sed --file=script.sed file.txt", M),
        ("sed -Ibak 's/foo/bar/' file.txt", M),
        ("sed -I .bak 's/foo/bar/' file.txt", M),
        ("sed -n '1,10p' file.txt", S),
        ("sed -E 's/a+/b/' file.txt", S),
    ],
)
def test_tools_that_run_or_write_through_an_option(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command
