"""ext6: shell mechanisms found by another guard's edge-case suite (a tune project).

1. Words after a redirect's target are the command's arguments (`rm -rf 2>/dev/null /`): the
   grammar hangs them on the redirect.
2. xargs options whose value is only glued (`-i`, `-l`, `-e`, `--replace[=R]`) do not eat the
   command; BSD `-J R` replaces like `-I R`.
3. GNU parallel without `:::` reads its arguments from stdin (`echo / | parallel rm -rf`);
   its valued options (`--results DIR`) do not become the command; `parallel :::` runs nothing.
4. `env -P DIR` takes a value and a lone `env -` is `env -i`.
5. An interpreter's inline code that is really a destructive shell command line
   (`node -e "rm -rf /"`) is judged as that line.
6. find tests take their value (`find . -name -delete -print` deletes nothing), and `$(( … ))`
   holding valid arithmetic (`$(( rm -rf /x ))` is rm - rf / x) runs no command.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import B, D, M, S, level


@pytest.mark.parametrize(
    "command,expected",
    [
        ("rm -rf 2>/dev/null /", B),
        ("rm 2>>err.log -fr ~", B),
        ("chmod -R >/dev/null 777 /", B),
        ("dd if=/dev/zero 2>/dev/null of=/dev/sda", B),
        ("git checkout 2>/dev/null -- src/app.py", D),
        ("git reset 2>&1 >/dev/null --hard", D),
        ("echo $(rm -rf 2>/dev/null ~)", B),
        # look-alikes: the trailing words are harmless
        ("ls 2>/dev/null -la /", S),
        ("grep -rn TODO 2>/dev/null src/", S),
        ("echo done >>build.log now", M),
    ],
)
def test_words_after_a_redirect_target_are_arguments(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("echo / | xargs --replace bash -c 'rm -rf {}'", B),
        ("echo ~ | xargs --replace=DIR sh -c 'rm -rf DIR'", B),
        ("echo / | xargs -i% rm -rf %", B),
        ("echo / | xargs -l rm -rf", B),
        ("printf '/\\n' | xargs -J X rm -rf X", B),
        # look-alikes
        ("echo build | xargs --replace rm -rf {}", D),
        ("ls | xargs -i cp {} /backup/", M),
        ("echo / | xargs -i rm -rf", M),  # -i with no {}: rm gets no operand
        # -a/--arg-file: the items come from the file, not from the pipe
        ("echo / | xargs -a paths.txt rm -rf", D),
        ("xargs -a <(echo ~) rm -rf", B),
    ],
)
def test_xargs_options_with_glued_values_do_not_eat_the_command(
    command: str, expected: RiskLevel
) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("echo / | parallel rm -rf", B),
        ("printf '%s\\n' ~ | parallel -j4 rm -rf", B),
        ("echo 'rm -rf ~' | parallel bash -c {}", B),
        ("parallel --joblog jobs.log rm -rf {} ::: /", B),
        ("parallel --results out rm -rf ::: /usr", B),
        # look-alikes
        ("echo build | parallel rm -rf", D),
        ("seq 3 | parallel echo", S),
        ("parallel gzip ::: *.log", M),
        ("parallel :::", M),
        ("echo ok | parallel", M),
    ],
)
def test_parallel_reads_arguments_from_stdin_and_skips_valued_options(
    command: str, expected: RiskLevel
) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("env -P /usr/bin git reset --hard", D),
        ("env -P/usr/local/bin rm -rf ~", B),
        ("env - rm -rf /", B),
        ("env - PATH=/bin git clean -fdx", D),
        ("env -", S),
        ("env -i HOME=/tmp printenv", S),
    ],
)
def test_env_alternate_path_and_lone_dash(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ('node -e "rm -rf /"', B),
        ("ruby -e 'rm -rf ~'", B),
        ('python3 -c "chmod -R 777 /"', B),
        ('perl -e "mv -f ~ /dev/null"', B),
        # look-alikes: real code that prints the text, or a scoped line
        ("node -e 'console.log(\"rm -rf /\")'", S),
        ("perl -e 'print \"rm -rf /\"'", S),
        ("python3 -c \"print('rm -rf ~')\"", S),
        ('node -e "rm -rf ./build"', M),
    ],
)
def test_inline_code_that_is_a_shell_command_line(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("find . -name -delete -print", S),
        ("find . -path -delete -ls", S),
        ("find /srv -type -delete -print", S),
        ("find . -name '*.tmp' -delete", D),
        ("find ~ -maxdepth 1 -delete", B),
        ("find / -printf '%p\\n' -delete", B),
    ],
)
def test_find_tests_take_their_value(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ('echo "$(( rm -rf /x ))"', S),
        ("echo $(( shred - u / f ))", S),
        ("echo $(( a * b + c ))", S),
        # no arithmetic: bash may read a subshell there (kept from the s-team's mechanism)
        ("echo $(( env FOO=1 rm -rf / ))", B),
        ("echo $((1+$(rm -rf ~)))", B),
    ],
)
def test_valid_arithmetic_runs_no_command(command: str, expected: RiskLevel) -> None:
    assert level(command) == expected
