"""Leftover mechanisms of issue 14 (safety-c): each mechanism is tested with several
spellings, and with a harmless neighbour that must not be caught by it."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


def _rules(command: str) -> list[str]:
    return [f.rule for f in assess(command, "bash").findings]


# 1. Brace expansion whose first word is a path to a known program is that program.
@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("{rm,-rf,$HOME}", "rm-home"),
        ("{/bin/rm,-fr,$HOME}", "rm-home"),
        ("{/bin/rm,-fr,${HOME}}", "rm-home"),
        ("{/usr/bin/rm,-r,~}", "rm-home"),
        ("{./rm,-rf,/}", "rm-root"),
        ("{/bin/rm,-rf,/}", "rm-root"),
        ("{/usr/bin/shred,-u,/etc/shadow}", "rm-system-file"),
        ("echo hi; {/usr/bin/shred,-u,/etc/passwd}", "rm-system-file"),
    ],
)
def test_brace_expansion_with_a_program_path(command: str, rule: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert rule in _rules(command)


# 2. Inline interpreter code that forks inside an endless loop is a fork bomb.
@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import os\nwhile True: os.fork()'",
        "python -c 'import os; [os.fork() for _ in iter(int, 1)]'",
        "python3 -c 'import os, itertools\nfor _ in itertools.count(): os.fork()'",
        "python3 -c 'from itertools import count; import os; [os.fork() for i in count()]'",
        "perl -e 'fork while 1'",
        "perl -e 'while(1){fork}'",
        "perl -e 'for(;;){fork()}'",
        "ruby -e 'loop do Process.fork end'",
        "ruby -e 'loop { fork }'",
        "node -e 'while(true) require(\"child_process\").fork(__filename)'",
        "node -e 'for(;;){require(\"child_process\").fork(process.argv[1])}'",
    ],
)
def test_interpreter_fork_loops_are_fork_bombs(command: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert "fork-bomb" in _rules(command)


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import os; pid = os.fork(); print(pid)'",
        "python3 -c 'import os\nif os.fork() == 0:\n    print(1)\nwhile True:\n    time.sleep(1)'",
        "node -e 'while(true){console.log(1)}'",
        "python3 -c 'for i in range(3): print(i)'",
    ],
)
def test_a_single_fork_or_a_loop_without_fork_is_not_a_bomb(command: str) -> None:
    assert "fork-bomb" not in _rules(command)
    assert assess(command, "bash").level < B


# 5. `env VAR=… prog` is judged like the prefix assignment `VAR=… prog`.
@pytest.mark.parametrize(
    "assignment",
    [
        "PAGER=\"sh -c 'rm -rf ~'\" git log",
        "GIT_SSH_COMMAND='rm -rf ~' git fetch",
        "EDITOR='rm -rf /' crontab -e",
        "VISUAL='rm -rf /' crontab -e",
        "MANPAGER=\"sh -c 'rm -rf ~'\" man ls",
        "LESSOPEN='|rm -rf ~ %s' less notes.txt",
        "EDITOR=$X crontab -e",
    ],
)
@pytest.mark.parametrize("prefix", ["env ", "env -i ", "/usr/bin/env -u LANG ", "sudo env "])
def test_env_assignments_are_judged_like_prefix_assignments(prefix: str, assignment: str) -> None:
    plain = assess(assignment, "bash")
    via_env = assess(prefix + assignment, "bash")
    assert plain.level >= C, plain.findings
    assert via_env.level >= plain.level, via_env.findings
    assert "config-exec" in _rules(prefix + assignment)


@pytest.mark.parametrize(
    ("command", "level"),
    [("env PAGER=less git log", S), ("env PAGER=cat", S), ("env EDITOR=vim crontab -l", M)],
)
def test_harmless_env_assignments_stay_harmless(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level <= level, assess(command, "bash").findings


# 6. A shell with `-c STRING` among any program's arguments runs STRING.
@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ('start-stop-daemon -S -x /bin/sh -- -c "rm -rf ~"', "rm-home"),
        ('setsid -f sh -c "rm -rf ~"', "rm-home"),
        ("setsid -w bash -c 'rm -rf /'", "rm-root"),
        ('unbuffer sh -c "rm -rf /"', "rm-root"),
        ('chronic sh -c "rm -rf /"', "rm-root"),
        ('somewrapper --opt x /bin/bash -ec "rm -rf ~"', "rm-home"),
        ("pexec -n 2 -- /usr/bin/dash -c 'rm -rf /'", "rm-root"),
    ],
)
def test_shell_code_after_any_program_is_judged(command: str, rule: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert rule in _rules(command)


@pytest.mark.parametrize(
    "command", ['chronic sh -c "ls"', "grep sh -c notes.txt", 'setsid -f sh -c "echo hi"']
)
def test_harmless_shell_code_after_a_program_is_not_raised(command: str) -> None:
    assert assess(command, "bash").level <= M, assess(command, "bash").findings


# 3. Programs that run each line of their (known) input as a command.
@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("perl -pe 'system($_)' <<< 'rm -rf ~'", "rm-home"),
        ("perl -ne 'system $_' <<< 'rm -rf /'", "rm-root"),
        ("echo 'rm -rf /' | perl -n -e 'system $_'", "rm-root"),
        ("echo 'rm -rf /' | perl -ne 'print `$_`'", "rm-root"),
        ("echo 'rm -rf ~' | ruby -ne 'system($_)'", "rm-home"),
        ("echo 'rm -rf /' | xargs -L1 sh -c", "rm-root"),
        ("xargs -L1 sh -c <<< 'rm -rf ~'", "rm-home"),
        ("printf 'ls\\nrm -rf ~\\n' | xargs -L 1 /bin/bash -c", "rm-home"),
        ("while read l; do $l; done <<< 'rm -rf ~'", "rm-home"),
        ("echo 'rm -rf ~' | while read -r line; do $line; done", "rm-home"),
    ],
)
def test_known_input_run_line_by_line_is_judged(command: str, rule: str) -> None:
    result = assess(command, "bash")
    assert result.level is B, result.findings
    assert rule in _rules(command)


@pytest.mark.parametrize(
    "command",
    [
        "echo ls | xargs -L1 sh -c",
        "perl -ne 'print if /x/' < notes.txt",
        "echo hi | perl -pe 's/h/H/'",
    ],
)
def test_harmless_line_runners_are_not_blocked(command: str) -> None:
    assert assess(command, "bash").level < D, assess(command, "bash").findings


# 4. `sh 0<&2` and friends are an interactive shell (not a script named "0"); an
# interactive shell handed to a tool's exec option is an escape hatch (critical).
@pytest.mark.parametrize(
    "command",
    ["sh 0<&2", "bash 1>&0 0<&2", "/bin/sh -i 2>&1", "sh 0<&2 1>&2", 'ssh host "sh 0<&2"'],
)
def test_fd_shell_forms_are_interactive_shells(command: str) -> None:
    rules = _rules(command)
    assert "shell" in rules, rules
    assert "local-script" not in rules


@pytest.mark.parametrize(
    "command",
    [
        "find . -exec sh 0<&2 \\;",
        "find . -exec /bin/sh -p \\; -quit",
        'git -c core.pager="sh 0<&2" log',
        'git -c core.sshCommand="/bin/sh -i 2>&1" fetch',
        'PAGER="sh 0<&2" git log',
        'env PAGER="bash 1>&0 0<&2" git log',
        'ssh -o ProxyCommand="sh 0<&2 1>&2" host',
        "tar -cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec=/bin/sh",
    ],
)
def test_an_interactive_shell_in_an_exec_option_is_critical(command: str) -> None:
    result = assess(command, "bash")
    assert result.level >= C, result.findings
    assert "config-exec" in _rules(command)


@pytest.mark.parametrize(
    "command",
    ["cat 0< notes.txt", "find . -name x -exec ls {} \\;", "PAGER=less git log", 'echo "a 0<b"'],
)
def test_plain_redirects_and_exec_options_stay_harmless(command: str) -> None:
    assert assess(command, "bash").level <= M, assess(command, "bash").findings


# 7. Replacing a startup file with a link is persistence; a listing of `/` made by
# compgen and fed to deletion is blocked.
@pytest.mark.parametrize(
    "command",
    [
        "ln -sf /tmp/evil ~/.bashrc",
        "ln -s -f x $HOME/.zshrc",
        "ln -sfn /tmp/x ~/.profile",
        "ln --force -s /tmp/x ~/.bash_profile",
    ],
)
def test_forced_link_over_a_startup_file_is_persistence(command: str) -> None:
    result = assess(command, "bash")
    assert result.level >= C, result.findings
    assert "persistence" in _rules(command)


@pytest.mark.parametrize(
    "command",
    [
        "compgen -G '/*' | xargs rm -rf",
        "compgen -f / | xargs rm -rf",
        "compgen -A file /etc/ | xargs rm -f",
    ],
)
def test_compgen_listing_fed_to_deletion_is_blocked(command: str) -> None:
    assert assess(command, "bash").level is B, assess(command, "bash").findings


@pytest.mark.parametrize(
    "command", ["ln -s ~/dotfiles/bashrc ~/.bashrc", "compgen -c", "compgen -G '*.md'"]
)
def test_plain_links_and_listings_are_not_raised(command: str) -> None:
    assert assess(command, "bash").level <= M, assess(command, "bash").findings


def test_env_judges_the_value_that_wins() -> None:
    assert assess("env PAGER=less PAGER='rm -rf ~' git log", "bash").level is B
    assert assess("env PAGER='rm -rf ~' PAGER=less git log", "bash").level <= M
