"""Cheap necessary conditions in front of three slow rule families (safety-sp10, issue 14).

- `clis._by_shape` scans the arguments for options (`--delete-automated-backups`,
  `--backup-retention-period 0`, `--all`, `--no-backup`, `--dry-run`, `/dryrun`…) only when
  some argument starts with `-` or `/` (`Argv.switched`): every one of those patterns needs
  it, and `help` (the one bare word it looks up) is looked up apart. A nest of wrappers
  (`sudo sudo … ls`) paid each scan once per level.
- `shape.read_cmd` keeps the generic reading of an unknown command on the `Cmd`: the
  dispatcher and `clis.judge` read the same command.
- `system.app_admin_account` leaves at once unless an argument holds `admin`, `super`,
  `owner` or `root` (every role, switch and self-named verb it knows holds one) or the
  program is PostgreSQL's `createuser` (`-s`).

None of them changes a verdict (`bench/sp9b_verdicts.py` on main and on the branch: zero
lines of difference). These tests show the gated rules still fire through wrappers, full
paths, `.exe`, mixed case and on unknown programs.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import clis, shape, system
from aintern_ls.safety.analyser import _assess_cached

analyse = _assess_cached.__wrapped__


def _rules(command: str, family: str = "bash") -> tuple[str, dict[str, str]]:
    got = analyse(command, family, None)
    return got.level.label, {f.rule: f.level.label for f in got.findings}


ACCOUNT = [
    ("bash", "rabbitmqctl set_user_tags ops administrator"),
    ("bash", "sudo rabbitmqctl set_user_tags ops administrator"),
    ("bash", "env A=1 rabbitmqctl set_user_tags ops administrator"),
    ("bash", "timeout 5 rabbitmqctl set_user_tags ops administrator"),
    ("bash", "sudo -u rabbitmq timeout 5 /usr/sbin/rabbitmqctl set_user_tags ops administrator"),
    ("bash", "RabbitMQCtl set_user_tags ops ADMINISTRATOR"),
    ("powershell", "rabbitmqctl.exe set_user_tags ops administrator"),
    ("powershell", "C:\\tools\\RabbitMQCtl.EXE set_user_tags ops Administrator"),
    # no admin word at all: PostgreSQL's createuser -s, by its name
    ("bash", "createuser -s ops"),
    ("bash", "sudo createuser -s ops"),
    ("bash", "/usr/bin/createuser -s ops"),
    ("powershell", "createuser.exe -s ops"),
    # unknown programs
    ("bash", "frobctl user create bob --role=ADMIN"),
    ("bash", "sudo env X=1 frobctl user create bob --Role=Owner"),
    ("bash", "python manage.py createsuperuser"),
]


@pytest.mark.parametrize(("family", "command"), ACCOUNT)
def test_sp10_admin_accounts_still_found_behind_the_gate(family: str, command: str) -> None:
    level, rules = _rules(command, family)
    # (review8 #8: a superuser made on a local database, `createuser -s`, `createsuperuser`,
    # is dangerous; sudo's own finding keeps those commands critical)
    want = "dangerous" if "createsuperuser" in command or " -s " in command else "critical"
    assert rules.get("account") == want, rules
    assert level == ("critical" if "sudo" in rules else want)


def test_sp10_no_admin_word_no_account_finding() -> None:
    assert "account" not in _rules("frobctl user create bob --role=reader")[1]
    assert "account" not in _rules("sudo sudo sudo ls")[1]


@pytest.mark.parametrize(
    "word",
    [
        "administrator",
        "Admins",
        "SUPERUSER",
        "super-admin",
        "sysadmins",
        "site_admin",
        "--admin",
        "-superuser=true",
        "--is-admin",
        "--sysadmin",
        "--role=owner",
        "--groups:ROOT",
        "--type=super_admin",
        "createsuperuser",
        "create-admin-user",
        "make_admin",
        "add-admin",
        "promote-to-admin",
        "users:make-admin",
    ],
)
def test_sp10_the_admin_hint_is_necessary(word: str) -> None:
    assert system._ADMIN_WORD.match(word) or system._ADMIN_SELF.match(word)
    assert system._ADMIN_HINT.search(word)


BACKUPS = [
    # (family, command, rule, level)
    ("bash", "frobctl db delete mydb --delete-automated-backups", "cli-backup-delete", "blocked"),
    (
        "bash",
        "sudo timeout 9 frobctl db delete mydb --delete-automated-backups",
        "cli-backup-delete",
        "blocked",
    ),
    (
        "bash",
        "sudo sudo sudo frobctl db delete mydb --delete-automated-backups",
        "cli-backup-delete",
        "blocked",
    ),
    (
        "bash",
        "/opt/bin/FrobCtl db delete mydb --Delete-Automated-Backups",
        "cli-backup-delete",
        "blocked",
    ),
    (
        "powershell",
        "frobctl.exe db delete mydb --delete-automated-backups",
        "cli-backup-delete",
        "blocked",
    ),
    ("cmd", "frobctl db delete mydb /delete-backups", "cli-backup-delete", "blocked"),
    ("bash", "frobctl db modify mydb --backup-retention-period 0", "cli-backup-delete", "blocked"),
    (
        "bash",
        "env A=1 frobctl db modify mydb --backup-retention-period 0",
        "cli-backup-delete",
        "blocked",
    ),
    ("bash", "frobctl db modify mydb --no-backup", "cli-backup-off", "critical"),
    # no option at all: the shapes still read the path
    ("bash", "frobctl backup delete b1", "cli-backup-delete", "blocked"),
    ("bash", "sudo frobctl backup delete b1", "cli-backup-delete", "blocked"),
    ("bash", "frobctl snapshot delete-all", "cli-backup-delete", "blocked"),
]


@pytest.mark.parametrize(("family", "command", "rule", "level"), BACKUPS)
def test_sp10_cli_shapes_still_fire(family: str, command: str, rule: str, level: str) -> None:
    got, rules = _rules(command, family)
    assert rules.get(rule) == level, rules
    assert got == level


@pytest.mark.parametrize(
    "command",
    [
        "frobctl volume delete v1 --dry-run",
        "frobctl volume delete v1 /dryrun",
        "frobctl help volume delete v1",  # the bare `help` is looked up apart from the options
    ],
)
def test_sp10_dry_runs_and_help_still_read(command: str) -> None:
    assert _rules(command)[0] == "moderate"
    assert _rules("frobctl volume delete v1")[0] == "dangerous"


def test_sp10_the_option_patterns_need_a_dash_or_a_slash() -> None:
    bare = [
        "delete-backups",
        "all",
        "A",
        "no-backup",
        "backup-retention-period",
        "dry-run",
        "whatif",
        "delete",
        "force",
        "purge-snapshots",
        "everything",
        "print",
        "n",
    ]
    for word in bare:
        assert not clis._DELETES_BACKUPS.match(word)
        assert not clis._RETENTION.match(word)
        assert not clis._ALL_OPTION.match(word)
        assert not clis._BACKUP_OFF_OPTION.match(word)
        assert not clis._FORCE.match(word)
        assert not clis._DELETE_OPTION.match(word)
        assert not clis._is_delete_option([word])
        assert not shape.is_dry_marker(word)
        assert not shape.dry_run([word])
        assert not clis._dry("rclone", [word]) and not clis._dry("pacman", [word])
    assert all(f[:1] in "-/" for flags in clis._DRY.values() for f in flags)
    assert {h for h in clis._HELP if h[:1] not in "-/"} == {"help"}


def test_sp10_the_reading_is_kept_on_the_command_for_its_arguments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, tuple[str, ...], str]] = []
    real = shape.read_command

    def counting(name: str, args: list[str], family: str) -> shape.Reading | None:
        calls.append((name, tuple(args), family))
        return real(name, args, family)

    monkeypatch.setattr(shape, "read_command", counting)
    for command in ("frobctl volume frob v1", "sudo frobctl volume frob v1"):
        calls.clear()
        analyse(command, "bash", None)
        mine = [c for c in calls if c[0] == "frobctl"]
        assert mine and len(mine) == len(set(mine)), calls  # read once per command
