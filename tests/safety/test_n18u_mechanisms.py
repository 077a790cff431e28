"""Session 18 (n18u): mechanisms for open Unix/macOS/cloud families, each tested across
spellings, wrappers and harmless neighbours (sources_n18u.tsv holds the labelled rows)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S

# Wrappers that hand the same words to the command they run: the level must hold.
_WRAPS = (
    "{}",
    "sudo {}",
    "env LC_ALL=C {}",
    "sh -c '{}'",
    "eval '{}'",
    "f() {{ {}; }}; f",
)


def _rated(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


# 1. fish: `(cmd)` in an argument is a command substitution; `set NAME VALUE` a variable.
@pytest.mark.parametrize(
    "command",
    [
        "rm -rf (echo /)",
        "rm -rf (dirname /etc/passwd)",
        "sudo rm -rf /usr/(echo lib)",
        "eval (echo rm -rf /)",
        "command rm -rf (echo ~)",
        "set d (echo /); rm -rf $d",
        "set -l d /etc; and rm -rf $d",
        "set target /usr; sudo rm -rf $target",
    ],
)
def test_fish_substitutions_and_variables_are_read(command: str) -> None:
    assert _rated(command, "fish") == B


@pytest.mark.parametrize(
    "command, level",
    [
        ("echo (date)", S),
        ("ls -la (pwd)", S),
        ("rm -rf (mktemp -d)", D),
        ("set x 1 2; echo $x", S),
        ("if (cd x && make); then echo ok; fi", M),
        ("case $x in (a) echo a;; esac", S),
        ("echo 'rm -rf (echo /)'", S),
    ],
)
def test_fish_look_alikes_and_bash_parentheses_keep_their_level(
    command: str, level: RiskLevel
) -> None:
    assert _rated(command, "fish") == level


# 2. Perl's ExtUtils::Command: the -e function acts on the arguments as the utility it is.
@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize(
    "command",
    [
        "perl -MExtUtils::Command -e rm_rf /",
        "perl -MExtUtils::Command -e rm_rf -- /usr",
        "perl -MExtUtils::Command -e rm_f /etc/shadow",
        "perl -MExtUtils::Command -e mv /etc/passwd /tmp/p",
    ],
)
def test_extutils_command_functions_are_the_utilities(wrap: str, command: str) -> None:
    assert _rated(wrap.format(command)) == B


@pytest.mark.parametrize(
    "command, level",
    [
        ("perl -MExtUtils::Command -e rm_rf blib", D),
        ("perl -MExtUtils::Command -e mkpath build/out", M),
        ("perl -MExtUtils::Command -e cat README", S),
        ("echo perl -MExtUtils::Command -e rm_rf /", S),
    ],
)
def test_extutils_look_alikes(command: str, level: RiskLevel) -> None:
    assert _rated(command) == level


# 3. Terminal sharing through a relay hands this machine's shell out (critical).
@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize(
    "command", ["tmate -F", "upterm host -- bash", "sshx", "tty-share --public"]
)
def test_terminal_sharing_is_critical(wrap: str, command: str) -> None:
    assert _rated(wrap.format(command)) == C


@pytest.mark.parametrize(
    "command", ["tmate -V", "upterm version", "sshx --help", "upterm session current"]
)
def test_terminal_sharing_help_and_listings_are_safe(command: str) -> None:
    assert _rated(command) == S


# 4. A backup bucket's glued name after an alias or a remote (`s3/db-backups2024`).
@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize(
    "command",
    [
        "mc rb --force s3/db-backups2024",
        "mc rb --force play/pgbackup2023",
        "rclone purge remote:nightlybkp",
        "rclone purge s3:acmebackups",
    ],
)
def test_glued_backup_bucket_after_alias_is_blocked(wrap: str, command: str) -> None:
    assert _rated(wrap.format(command)) == B


@pytest.mark.parametrize(
    "command",
    [
        "mc rb --force s3/build-cache",
        "rclone purge remote:backpack-assets",
        "gsutil rm -r gs://bakery-images",
        "rclone delete remote:nightlybkp/db.sql",
    ],
)
def test_non_backup_buckets_and_single_objects_stay_dangerous(command: str) -> None:
    assert _rated(command) == D


# 5. Every log file emptied is a log wipe (critical); the log folder deleted stays blocked.
@pytest.mark.parametrize("wrap", _WRAPS[:3])
@pytest.mark.parametrize(
    "command",
    [
        "find /var/log -type f -exec truncate -s 0 {} +",
        "find /var/log/ -type f -exec truncate --size=0 {} \\;",
        "find /var/log -type f | while read f; do : > $f; done",
    ],
)
def test_every_log_emptied_is_critical(wrap: str, command: str) -> None:
    assert _rated(wrap.format(command)) == C


@pytest.mark.parametrize(
    "command",
    [
        "find /var/log -exec rm -rf {} +",
        "sudo rm -rf /var/log",
        "find /etc -type f -exec truncate -s 0 {} +",
    ],
)
def test_log_folder_deleted_and_system_files_emptied_stay_blocked(command: str) -> None:
    assert _rated(command) == B
