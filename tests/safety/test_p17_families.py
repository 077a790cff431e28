"""p17 (session 17, round 15 notes): mechanisms checked bare, wrapped, and next to
look-alikes that must keep their level.

- `$(eval echo ~$USER)`, `"$(eval echo ~)"`, `$(eval "echo /etc")`: eval types the words
  again, so a tilde left alone the first time (`~$USER`, a quoted `"~$USER"`) is expanded by
  the second pass; the substitution is that home (or that literal folder);
- RSYNC_CONNECT_PROG is a command line rsync runs to reach a daemon: judged as that command;
- the tools' default-options and remote-shell variables (TAR_OPTIONS, ZIPOPT, RSYNC_RSH,
  GIT_SSH) keep the level of the option they carry (regression guard).
"""

from __future__ import annotations

import pytest

from tests.safety._levels import PS_BLOCK_WRAPPERS, B, M, S
from tests.safety._levels import level as _level

_WRAPS = ["{}", "sudo {}", "env LC_ALL=C {}", "sh -c {q}", "eval {q}", "f() {{ {}; }}; f"]


def _wrapped(command: str, wrap: str) -> str:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    return wrap.format(command, q=quoted)


EVAL_ECHO_BLOCKED = [
    "rm -rf $(eval echo ~$USER)",
    'rm -rf "$(eval echo ~)"',
    'rm -rf "$(eval echo ~root)"',
    'rm -rf "$(eval echo ~${LOGNAME})"',
    'rm -fr -- $(eval echo "~$USER")',
    "rm -rf `eval echo ~`",
    'rm -rf $(eval "echo /etc")',
    'rm -rf "$(eval printf %s ~)"',
    "rm -rf $(eval echo $HOME)",
    'rm -rf $(eval echo "\\$HOME")',
    'd=$(eval echo ~$USER); rm -rf "$d"',
    "eval echo ~ | xargs rm -rf",
    "eval 'echo /etc' | xargs rm -rf",
]


@pytest.mark.parametrize("command", EVAL_ECHO_BLOCKED)
def test_eval_of_a_literal_echo_is_its_text(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize("command", EVAL_ECHO_BLOCKED[:3])
@pytest.mark.parametrize("wrap", _WRAPS[1:])
def test_eval_echo_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    assert _level(_wrapped(command, wrap)) == B


@pytest.mark.parametrize(
    "command",
    [
        'ls "$(eval echo ~)"',
        'du -sh "$(eval echo ~$USER)"',
        'echo "$(eval echo ~)"',
        "d=$(eval echo ~); echo $d",
        'cd "$(eval echo ~$USER)" && ls -la',
        "# rm -rf $(eval echo ~$USER)",
        "echo 'rm -rf $(eval echo ~$USER)'",
        "grep -r 'rm -rf $(eval echo ~)' docs/",
        "eval echo ~ | xargs ls",
        "eval echo hello",
    ],
)
def test_eval_echo_look_alikes_stay_safe(command: str) -> None:
    assert _level(command) == S


RSYNC_PROG_BLOCKED = [
    "RSYNC_CONNECT_PROG='rm -rf ~' rsync rsync://host/mod x",
    "RSYNC_CONNECT_PROG='sh -c \"rm -rf /etc\"' rsync -av rsync://mirror/pub/ pub/",
    "export RSYNC_CONNECT_PROG='rm -rf ~'; rsync rsync://h/m x",
]


# `export` is a shell builtin, not a program sudo/env can run: those pairs are not commands.
_RSYNC_PAIRS = [
    (command, wrap)
    for command in RSYNC_PROG_BLOCKED
    for wrap in _WRAPS
    if not (wrap.startswith(("sudo", "env")) and command.startswith("export"))
]


@pytest.mark.parametrize(("command", "wrap"), _RSYNC_PAIRS)
def test_rsync_connect_prog_is_the_command_it_runs(command: str, wrap: str) -> None:
    assert _level(_wrapped(command, wrap)) == B


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("RSYNC_CONNECT_PROG='ssh proxy nc %H 873' rsync -av rsync://mirror/pub/ pub/", M),
        ("echo \"RSYNC_CONNECT_PROG='rm -rf ~'\"", S),
        ("TAR_OPTIONS=--verbose tar -xf release.tar", M),
        ("TAR_OPTIONS=--exclude=.git tar -tf release.tar", S),
        ("ZIPOPT=-9 zip -r out.zip docs", M),
    ],
)
def test_option_variable_look_alikes(command: str, expected: object) -> None:
    assert _level(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "TAR_OPTIONS=\"--to-command='rm -rf ~'\" tar -xf release.tar",
        "export TAR_OPTIONS=\"--checkpoint=1 --checkpoint-action=exec='rm -rf /etc'\";"
        " tar cf a.tar .",
        "ZIPOPT=\"-T -TT 'rm -rf ~'\" zip -r out.zip docs",
        "RSYNC_RSH='sh -c \"rm -rf ~\"' rsync -a src/ host:dst/",
        "GIT_SSH='sh -c \"rm -rf /etc\"' git clone git@host:r.git",
    ],
)
@pytest.mark.parametrize("wrap", ["{}", "sh -c {q}", "eval {q}", "f() {{ {}; }}; f"])
def test_option_variables_carry_their_option(command: str, wrap: str) -> None:
    assert _level(_wrapped(command, wrap)) == B


BACKUP_VARS_BLOCKED = [
    "BORG_PASSCOMMAND='rm -rf ~' borg list /srv/borg",
    "BORG_NEW_PASSCOMMAND='sh -c \"rm -rf ~\"' borg key change-passphrase /srv/borg",
    "BORG_RSH='sh -c \"rm -rf ~\"' borg list ssh://backup@host/./repo",
    "RESTIC_PASSWORD_COMMAND='rm -rf ~' restic -r /srv/restic snapshots",
    "RCLONE_SFTP_SSH='sh -c \"rm -rf ~\"' rclone lsd remote:",
]


@pytest.mark.parametrize("command", BACKUP_VARS_BLOCKED)
@pytest.mark.parametrize("wrap", _WRAPS)
def test_backup_tools_run_their_command_variables(command: str, wrap: str) -> None:
    assert _level(_wrapped(command, wrap)) == B


@pytest.mark.parametrize(
    "command",
    [
        "BORG_PASSCOMMAND='pass show borg' borg list /srv/borg",
        "RESTIC_PASSWORD_COMMAND='cat /root/.restic-pw' restic -r /srv/restic snapshots",
        "BORG_RSH='ssh -i ~/.ssh/backup_key' borg list ssh://backup@host/./repo",
        "echo \"BORG_PASSCOMMAND='rm -rf ~'\"",
    ],
)
def test_backup_tool_variable_look_alikes_stay_safe(command: str) -> None:
    assert _level(command) == S


# Look-alikes of the round-15 families other owners hold: a real dry run, a listing, a
# plain array element and Perl printing to its own output stay safe.
@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("Remove-Item C:\\Windows -Recurse -Force -WhatIf", "powershell"),
        ("Remove-Item C:\\Windows -Recurse -Force -WhatIf:$true", "powershell"),
        ("Get-Variable HOME -ValueOnly", "powershell"),
        ("Get-Variable", "powershell"),
        ("[Environment]::ExpandEnvironmentVariables('%SystemRoot%')", "powershell"),
        ("a[1]=x", "bash"),
        ("perl -e 'print STDOUT \"rm -rf ~\\n\"'", "bash"),
    ],
)
def test_round15_look_alikes_stay_safe(command: str, shell: str) -> None:
    assert _level(command, shell) == S


@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS)
def test_whatif_dry_run_wrapped_stays_low(wrap: str) -> None:
    # (a function definition alone is moderate by the wrapper conventions; never dangerous)
    assert _level(wrap.format("Remove-Item C:\\Windows -Recurse -WhatIf"), "powershell") <= M
