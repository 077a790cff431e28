"""Long-tail CLIs (safety-cli8): the rows made from their reference pages, and the shapes and
per-program knowledge of `safety/clis.py` on programs and spellings no row holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from aintern_ls.safety import RiskLevel, assess, clis
from aintern_ls.safety.analyser import cache_clear
from bench import cli8_harvest
from bench._corpus_figures import decode_command, figures, read_rows
from tests.safety._levels import B, C, D, M, S


@pytest.fixture
def without_clis() -> Iterator[None]:
    clis.ENABLED = False
    cache_clear()
    try:
        yield
    finally:
        clis.ENABLED = True
        cache_clear()


# --- the rows ---------------------------------------------------------------------------------


def test_committed_rows_are_what_the_templates_make() -> None:
    # Every committed line is a template row, in template order; a template row may be left
    # out only when another corpus file holds its command (it is not new there).
    template_rows = cli8_harvest.parse(cli8_harvest.TEMPLATES.read_text(encoding="utf-8"))
    made = cli8_harvest.render(template_rows).splitlines()
    committed = cli8_harvest.OUT.read_text(encoding="utf-8").splitlines()
    assert committed[0] == made[0] == cli8_harvest.HEADER
    known = cli8_harvest.known_commands()
    at = 1
    for line, row in zip(made[1:], template_rows, strict=True):
        if at < len(committed) and committed[at] == line:
            at += 1
        else:
            assert " ".join(row.command.split()) in known, f"missing row: {line}"
    assert at == len(committed), f"not a template row: {committed[at]}"


def test_rows_cover_many_clis_with_look_alikes_and_whole_cli_dev_split() -> None:
    rows = read_rows(cli8_harvest.OUT)
    assert len(rows) >= 400
    levels = Counter(r["expected"] for r in rows)
    assert levels["safe"] + levels["moderate"] >= 120
    by_cli: dict[str, set[str]] = {}
    for r in rows:
        source = r["source_or_reason"]
        assert source.startswith("cli8:"), source
        cli = source.split(":", 2)[1]
        by_cli.setdefault(cli, set()).add(r["split"])
        assert r["split"] == cli8_harvest.split_of(cli)
    assert len(by_cli) >= 40
    assert all(len(splits) == 1 for splits in by_cli.values())  # a CLI is dev or tune, whole
    dev = sum(1 for splits in by_cli.values() if splits == {"dev"})
    assert 0.25 <= dev / len(by_cli) <= 0.45


def test_labels_follow_the_written_table() -> None:
    rows = cli8_harvest.parse(cli8_harvest.TEMPLATES.read_text(encoding="utf-8"))
    assert {r.category for r in rows} <= set(cli8_harvest.LABELS)
    assert cli8_harvest.LABELS["backup"] == "blocked"
    assert cli8_harvest.LABELS["delete"] == "dangerous"
    assert cli8_harvest.LABELS["read"] == "safe"


def test_bad_templates_are_refused() -> None:
    with pytest.raises(ValueError):
        cli8_harvest.parse("read bash | x list\n")  # a row before any block
    with pytest.raises(ValueError):
        cli8_harvest.parse("@ x | https://example.org\nnope bash | x list\n")
    with pytest.raises(ValueError):
        cli8_harvest.parse("@ x | https://example.org\nread fish | x list\n")


def _scores(split: str) -> dict[str, float]:
    pairs = [
        (
            RiskLevel.from_label(r["expected"]),
            assess(decode_command(r["command"]), r["shell"]).level,
        )
        for r in read_rows(cli8_harvest.OUT)
        if r["split"] == split
    ]
    fig = figures(pairs)
    return {
        "blocked": fig.blocked_recall,
        "high": fig.high_recall,
        "safe_over": fig.safe_over_flagged,
        "exact": fig.exact_agreement,
    }


def test_tune_rows_meet_the_issue_targets() -> None:
    s = _scores("tune")
    print(f"sources_cli8 tune: {s}")
    assert s["blocked"] >= 0.96
    assert s["high"] >= 0.95
    assert s["safe_over"] <= 0.02
    assert s["exact"] >= 0.95


def test_dev_rows_are_reported() -> None:
    # Never tuned on: the floor only guards against regressions (measured 0.944 / 0.947 /
    # 0.024 / 0.820 when the rules landed; 0.333 / 0.368 / 0.024 / 0.763 before them).
    s = _scores("dev")
    print(f"sources_cli8 dev: {s}")
    assert s["blocked"] >= 0.90
    assert s["high"] >= 0.90
    assert s["safe_over"] <= 0.05
    assert s["exact"] >= 0.78


# --- the shapes, on programs no row names ------------------------------------------------------

SHAPES = [
    # a destroying verb on a backup noun, whatever the program and its spelling
    ("frobcloud vault backups delete nightly-7 --quiet", B),
    ("frobcloud db DeleteBackup --BackupId 42", B),
    ("frobcloud storage delete-recovery-point --vault v --id rp-1", B),
    ("Remove-FrobBackupSet -Name nightly -Force", B),
    # an option that deletes the backups with the resource; a retention of zero
    ("frobcloud db instance delete orders --purge-backups", B),
    ("frobcloud db instance delete orders --delete-automated-backups=true", B),
    ("frobcloud db instance update orders --backup-retention-days 0", B),
    # every snapshot
    ("frobcloud volume snapshot-delete-all --volume data", B),
    ("frobctl snapshots purge --all --volume data", B),
    # backups turned off
    ("frobcloud db instance patch orders --no-backup", C),
    ("frobcloud backup protection disable --item vm01", C),
    # an API operation name or a verb behind an option's value
    ("frobcloud compute DeleteServer --ServerId 7", D),
    # PowerShell modules' cmdlets: the noun carries the backup (acronym prefixes split)
    ("Remove-QQXRestorePoint -Id $rp -Confirm:$false", B),
    ("Disable-FrobVmBackupProtection -Item $i -RemoveRecoveryPoints -Force", B),
    ("Disable-FrobVmBackupProtection -Item $i -Force", C),
    # every snapshot a listing of the same kind prints; a narrowed listing is a subset
    ("frobcloud snapshots delete $(frobcloud snapshots list -q)", B),
    ("frobcloud snapshots delete $(frobcloud snapshots list --filter 'age>30d' -q)", D),
    # a resource type spelled with its API group
    ("kubectl delete backups.frob.example.io --all -n ops", B),
    # a tunnel / network tool's own resources
    ("ngrok api endpoints delete ep_123", D),
    ("frobctl --kubeconfig ./k.yaml -c eu.k8s.local volumes rm data", D),
    ("ctr -n default images rm docker.io/library/busybox:1.36", D),
]

LOOK_ALIKES = [
    # settings about backups, names that contain a backup word, listings, dry runs
    # (a backup plan deleted: no backup is taken from now on, critical since session 11's
    # brief, bk9: "backup plans deleted ... = backups turned off")
    ("frobcloud backup delete-backup-plan --plan-id p1", RiskLevel.CRITICAL),
    ("helm uninstall backup-agent -n ops", D),
    ("frobcloud db instance delete orders --delete-automated-backups false", D),
    ("frobcloud db instance update orders --backup-retention-days 7", M),
    ("frobcloud vault backups list", M),
    ("aliyun ecs DescribeSnapshots --RegionId cn-hangzhou", S),
    ("gcloud compute snapshots list --format=json", S),
    ("velero backup describe nightly --details", S),
    ("velero backup delete nightly --dry-run", S),
    ("frobcloud compute ListServers", M),
    ("man rm", S),
    ("frob help delete", M),
]


@pytest.mark.parametrize("command,level", SHAPES)
def test_destroying_shapes(command: str, level: RiskLevel) -> None:
    shell = "powershell" if command.startswith(("Remove-", "Disable-")) else "bash"
    got = assess(command, shell).level
    assert got == level, f"{command!r}: {got.label}"


@pytest.mark.parametrize("command,level", LOOK_ALIKES)
def test_look_alikes_are_not_over_rated(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level == level


@pytest.mark.usefixtures("without_clis")
def test_backup_shapes_come_from_clis() -> None:
    assert assess("frobcloud db DeleteBackup --BackupId 42", "bash").level < B
    assert assess("frobcloud db instance update orders --backup-retention-days 0", "bash").level < B


def test_shapes_hold_when_wrapped() -> None:
    for wrapped in (
        "sudo frobcloud vault backups delete nightly-7",
        "timeout 60 frobcloud vault backups delete nightly-7",
        "bash -c 'frobcloud vault backups delete nightly-7'",
        "true && frobcloud vault backups delete nightly-7",
    ):
        assert assess(wrapped, "bash").level == B, wrapped


def test_command_path_reads_verbs_and_nouns() -> None:
    p = clis.command_path(["-n", "k8s.io", "images", "rm", "redis:7"])
    assert (p.verb, p.kind) == ("rm", "destroy") and "images" in p.nouns
    p = clis.command_path(["restore", "get"])
    assert (p.verb, p.kind) == ("get", "read")
    p = clis.command_path(["describe", "delete-job", "/etc"])
    assert (p.verb, p.kind) == ("describe", "read")
    p = clis.command_path(["group", "create", "--name", "rg-test"])
    assert (p.verb, p.kind) == ("create", "change")
    assert clis.parts("DeleteDBInstanceAutomatedBackup")[:1] == ("delete",)
    assert clis.backup_noun(clis.parts("delete-recovery-point")) == "recovery point"
    assert clis.backup_noun(("backup", "plan")) is None


# --- per-program knowledge ----------------------------------------------------------------------

KNOWLEDGE = [
    ("borg delete ssh://u@h/./repo", B),  # the whole repository
    ("borg delete ssh://u@h/./repo::web-1", B),  # one archive: blocked (session-13 convention)
    ("borg delete --dry-run ssh://u@h/./repo", S),
    ("kopia snapshot delete k1 k2", S),  # nothing happens without --delete
    ("kopia snapshot delete --all-snapshots-for-source /home/u/docs --delete", B),
    ("duplicity remove-all-but-n-full 1 b2://k@bucket/x", S),  # lists without --force
    ("duplicity remove-older-than now --force b2://k@bucket/x", B),
    ("tmutil thinlocalsnapshots /System/Volumes/Data 10000000000 4", B),
    ("tmutil listlocalsnapshots /System/Volumes/Data", S),
    ("nodetool clearsnapshot -- keyspace1", B),
    ("nodetool clearsnapshot -t before-upgrade -- keyspace1", D),
    ("svn revert -R src", D),
    ("svn log -l 3", S),
    ("linode-cli linodes backups-cancel 42", B),
    ("hcloud server disable-backup db-2", B),
    ("dpkg --remove --force-remove-essential coreutils", B),  # any package manager (cli9)
    ("apt-get -y remove --allow-remove-essential coreutils", B),
    ("apt-get -y remove coreutils", M),
    ("flatpak uninstall --delete-data -y org.gnome.Maps", D),
    ("sqlite3 x.db '.save copy.db'", M),
    ("rclone cleanup b2:bucket", D),
    ("trash-put notes.txt", M),
    ("gio trash notes.txt", M),
    ("trash-put ~", B),
    ("gio trash --list", S),
    ("Remove-VBRBackup -Backup $b -Confirm:$false", D),  # records only, files stay
    ("Remove-VBRBackup -Backup $b -FromDisk -Confirm:$false", B),
    ("trash-list", S),
]


@pytest.mark.parametrize("command,level", KNOWLEDGE)
def test_per_program_knowledge(command: str, level: RiskLevel) -> None:
    got = assess(command, "powershell" if command.startswith("Remove-") else "bash").level
    assert got == level, f"{command!r}: {got.label}"
