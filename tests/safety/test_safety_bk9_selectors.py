"""Data destruction by any selector (bk9): every backup/snapshot/version selected by a loop
over a listing, a numeric range, a PowerShell getter piped on, an API path's wildcard; a
backup folder deleted whole; backups turned off in any spelling. Each keeps its level when
wrapped, and its read-only look-alikes stay safe or moderate."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D

EVERY = [
    # a loop or a pipe over a listing of snapshots/backups
    ('for s in $(virsh snapshot-list web01 --name); do virsh snapshot-delete web01 "$s"; done'),
    "qm listsnapshot 101 | awk 'NR>1 {print $2}' | xargs -n1 qm delsnapshot 101",
    "borg list --short /mnt/backup/repo | xargs -I{} borg delete /mnt/backup/repo::{}",
    "btrfs subvolume list -s / | awk '{print $NF}' | xargs -I{} btrfs subvolume delete /{}",
    "frobctl snapshot-list --json | jq -r '.[].id' | xargs -n1 frobctl snapshot-delete",
    # a numeric range over ids
    "for i in {1..500}; do doctl compute snapshot delete $i --force; done",
    "seq 1 500 | xargs -I{} doctl compute snapshot delete {} --force",
    'for i in $(seq 1 300); do curl -X DELETE "http://es:9200/_snapshot/nightly/snap-$i"; done',
    # an API path's wildcard, a wildcard name
    'curl -X DELETE "localhost:9200/_snapshot/my_repository/*"',
    "govc snapshot.remove -vm web01 '*'",
    # a backup folder deleted whole, or mirrored from an empty folder
    "rsync -a --delete /tmp/empty/ /mnt/backup/",
    "rsync -r --delete ./empty-dir/ /srv/db-backups",
    # version purges, a backup tool's prune of everything
    "gsutil -m rm -a gs://acme-data/**",
    "proxmox-backup-client prune vm/101 --keep-last 0 --repository backup@pbs@pbs:store1",
    'echo "delete volume=Full-0001 yes" | bconsole',
]

EVERY_PS = [
    "Get-AzSnapshot -ResourceGroupName rg-vm | Remove-AzSnapshot -Force",
    "Get-GceSnapshot -Project p1 | Remove-GceSnapshot",
    "Remove-Item -Recurse -Force D:\\Backups\\*",
    "ri -r -fo E:\\nightly-backups",
]

EVERY_CMD = [
    "robocopy C:\\empty D:\\Backups /MIR",
]

OFF = [
    "aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Suspended",
    "gcloud storage buckets update gs://b --no-versioning",
    "gcloud storage buckets update gs://b --clear-soft-delete",
    "gsutil versioning set off gs://b",
    "az storage account blob-service-properties update -n st -g rg --enable-delete-retention false",
    "aws dynamodb update-continuous-backups --table-name t"
    " --point-in-time-recovery-specification PointInTimeRecoveryEnabled=false",
    "az backup vault backup-properties set -n rsv -g rg --soft-delete-feature-state Disable",
    "az dataprotection backup-policy delete -g rg --vault-name v --name p --yes",
    "aws dlm delete-lifecycle-policy --policy-id policy-0123",
    "velero schedule pause daily-backup",
    "frobctl backup schedule delete nightly",
    "frobfs set org.example:auto-snapshot=false pool/data",
    'curl -X DELETE "localhost:9200/_slm/policy/nightly-snapshots"',
    'curl -X POST "localhost:9200/_slm/stop"',
    'echo "disable job=NightlySave" | bconsole',
]

OFF_PS = [
    "Get-VBRJob | Disable-VBRJob",
    "Set-AzRecoveryServicesVaultProperty -VaultId $v.ID -SoftDeleteFeatureState Disable",
]


@pytest.mark.parametrize("command", EVERY)
def test_every_backup_is_blocked(command: str) -> None:
    assert assess(command, "bash").level == B, command


@pytest.mark.parametrize("command", EVERY_PS)
def test_every_backup_is_blocked_in_powershell(command: str) -> None:
    assert assess(command, "powershell").level == B, command


@pytest.mark.parametrize("command", EVERY_CMD)
def test_every_backup_is_blocked_in_cmd(command: str) -> None:
    assert assess(command, "cmd").level == B, command


@pytest.mark.parametrize("command", OFF)
def test_backups_turned_off_are_critical(command: str) -> None:
    assert assess(command, "bash").level == C, command


@pytest.mark.parametrize("command", OFF_PS)
def test_backups_turned_off_are_critical_in_powershell(command: str) -> None:
    assert assess(command, "powershell").level == C, command


def _wrapped(command: str) -> list[str]:
    quoted = command.replace("'", "'\"'\"'")
    return [
        f"sudo {command}" if not command.startswith(("for ", "seq ", "echo ")) else command,
        f"sh -c '{quoted}'",
        f"bash -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {command}; }}; f",
        f"true && {command}",
        f"( {command} )",
    ]


@pytest.mark.parametrize(
    "command",
    [
        "for i in {1..500}; do doctl compute snapshot delete $i --force; done",
        "qm listsnapshot 101 | awk 'NR>1 {print $2}' | xargs -n1 qm delsnapshot 101",
        "rsync -a --delete /tmp/empty/ /srv/backups/",
        'curl -X DELETE "localhost:9200/_snapshot/my_repository/*"',
        "rsync -a --delete /tmp/empty/ /mnt/backup/",
    ],
)
def test_every_backup_stays_blocked_when_wrapped(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level == B, form


@pytest.mark.parametrize(
    "command",
    [
        "gcloud storage buckets update gs://b --no-versioning",
        "az dataprotection backup-policy delete -g rg --vault-name v --name p --yes",
        'curl -X POST "localhost:9200/_slm/stop"',
    ],
)
def test_backups_off_stay_at_least_critical_when_wrapped(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level >= C, form


@pytest.mark.parametrize(
    "command,shell,highest",
    [
        # read-only look-alikes, dry runs, the words as data
        ("virsh snapshot-list web01 --name", "bash", RiskLevel.MODERATE),
        ("aws s3api list-object-versions --bucket acme-backups", "bash", RiskLevel.SAFE),
        ("gcloud storage ls --all-versions gs://acme-backups/db/", "bash", RiskLevel.SAFE),
        ("rsync -av --delete --dry-run /tmp/empty/ /mnt/backup/", "bash", RiskLevel.SAFE),
        ("robocopy C:\\empty D:\\Backups /MIR /L", "cmd", RiskLevel.SAFE),
        ("kopia snapshot delete k1f2e3", "bash", RiskLevel.SAFE),
        ("borg delete --dry-run --glob-archives '*' /mnt/backup/repo", "bash", RiskLevel.SAFE),
        ("openstack volume backup list", "bash", RiskLevel.SAFE),
        ("duplicity collection-status file:///mnt/backup", "bash", RiskLevel.SAFE),
        ('echo "rm -rf /srv/backups/*"', "bash", RiskLevel.SAFE),
        ("grep -rn 'versioning set off' docs/", "bash", RiskLevel.SAFE),
        ("# gsutil versioning set off gs://b", "bash", RiskLevel.SAFE),
        ("seq 1 500", "bash", RiskLevel.SAFE),
        ("for i in {1..500}; do echo $i; done", "bash", RiskLevel.SAFE),
        ('curl -X GET "localhost:9200/_snapshot/my_repository/_all"', "bash", RiskLevel.MODERATE),
        (
            "aws rds modify-db-instance --db-instance-identifier d --backup-retention-period 7",
            "bash",
            RiskLevel.MODERATE,
        ),
        ("cp --backup=off a b", "bash", RiskLevel.MODERATE),
        ('echo "delete volume=Full-0001 yes" > cmds.txt', "bash", RiskLevel.MODERATE),
    ],
)
def test_look_alikes_stay_low(command: str, shell: str, highest: RiskLevel) -> None:
    assert assess(command, shell).level <= highest, command


@pytest.mark.parametrize(
    "command,shell",
    [
        # scoped: one named item, a filtered cleanup, a mirror from a real source
        ("Remove-Item D:\\Backups\\old.log", "powershell"),
        ("rsync -a --delete /srv/data/ /mnt/backup/", "bash"),
        ("robocopy C:\\src D:\\backup /MIR", "cmd"),
        ('curl -X DELETE "localhost:9200/_snapshot/my_repository/snapshot_2"', "bash"),
        ("for i in 1 2 3; do doctl compute snapshot delete $i --force; done", "bash"),
        ("Get-AzSnapshot -ResourceGroupName rg -SnapshotName s1 | Remove-AzSnapshot", "powershell"),
        ("rm -f notes.bak", "bash"),
        ("Remove-ADUser -Identity svc_backup -Confirm:$false", "powershell"),
    ],
)
def test_scoped_deletes_stay_dangerous(command: str, shell: str) -> None:
    assert assess(command, shell).level == D, command


def test_findings_name_the_mechanism_and_span_the_command() -> None:
    text = "Remove-Item -Recurse -Force D:\\Backups\\*"
    a = assess(text, "powershell")
    top = max(a.findings, key=lambda f: f.level)
    assert top.rule == "delete-backups" and "backup folder" in top.reason
    assert text[top.start : top.end].startswith("Remove-Item")
    off = assess("gsutil versioning set off gs://b", "bash")
    top = max(off.findings, key=lambda f: f.level)
    assert top.rule == "cli-backup-off" and top.level == C


@pytest.mark.parametrize(
    "command,shell,want",
    [
        # a listing saved to a file, then handed to a delete
        (
            "gcloud compute snapshots list --format='value(name)' > s.txt;"
            " gcloud compute snapshots delete @s.txt",
            "bash",
            B,
        ),
        (
            "aws s3api list-objects --bucket b --prefix tmp/ > o.json &&"
            " aws s3api delete-objects --bucket b --delete file://o.json",
            "bash",
            D,
        ),
        # a listing of a backup folder piped to a delete; a filtered one is a subset
        ("Get-ChildItem \\\\nas\\backups -Recurse | Remove-Item -Force", "powershell", B),
        ("Get-ChildItem D:\\Backups -Filter *.log | Remove-Item", "powershell", D),
        # off verbs aimed at the copies, and at a guard that is not them
        ("aws lightsail disable-add-on --resource-name w --add-on-type AutoSnapshot", "bash", C),
        ("Remove-AzRecoveryServicesBackupProtectionPolicy -Policy $p -Force", "powershell", C),
        ("aws ec2 disable-snapshot-block-public-access", "bash", RiskLevel.MODERATE),
        ("qm listsnapshot 101", "bash", RiskLevel.SAFE),
        ("govc snapshot.tree -vm web01", "bash", RiskLevel.SAFE),
    ],
)
def test_files_pipes_and_off_verbs(command: str, shell: str, want: RiskLevel) -> None:
    assert assess(command, shell).level == want, command
