"""Open Unix / macOS / cloud families of the red team's round 9 (n10u), as mechanisms.

Each family: spellings across programs and platforms that must be blocked, the same kept
when wrapped (sudo, env, `sh -c`, eval, a function), and look-alikes that must stay below
(read-only verbs, dry runs, the words printed). The corpus rows are in sources_n10u.tsv.
"""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B

# (family, command) pairs that are blocked in any wrapper.
BLOCKED = [
    # imaging / restore tools' erase option onto a volume or device, any program
    ("image-erase", "asr restore --source os.dmg --target /Volumes/Work --erase --noprompt"),
    ("image-erase", "ntfsclone --restore-image --overwrite /dev/sdb1 disk.img"),
    ("image-erase", "fsarchiver restfs a.fsa id=0,dest=/dev/nvme0n1p2"),
    ("image-erase", "etcher-cli --drive /dev/disk4 --yes ubuntu.iso"),
    ("format-option", "flashtool --wipe=/dev/mmcblk1"),
    ("format-option", "provision --format /dev/sdc"),
    # a range of snapshot ids from the first one (start-end or braces)
    ("id-range", "snapper -c home delete 1-300"),
    ("id-range", "btrfs subvolume delete /srv/.snapshots/{1..120}/snapshot"),
    ("id-range", "seq 1 80 | xargs -I% zfs destroy tank/vm@hourly-%"),
    # backup buckets / containers / remotes removed or purged whole
    ("backup-bucket", "az storage container delete --name sql-backups --account-name st1"),
    ("backup-bucket", "mc rb --force local/backups"),
    # sync / move verbs that lose local system files, file:// URLs
    ("sync-verbs", "rclone move /usr remote:usr-copy"),
    ("sync-verbs", "rclone sync gdrive:empty /etc"),
    ("sync-verbs", "gsutil rsync -d -r gs://empty file:///var"),
    ("sync-verbs", "rsync -a --remove-source-files /etc/ /media/usb/"),
    # the running kernel, its modules
    ("kernel", "rm -rf /usr/lib/modules/$(uname -r)"),
    ("kernel", "find /lib/modules/`uname -r` -name '*.ko*' -delete"),
    ("kernel", "rm -f /usr/lib/modules/6.9.1-arch1-1/vmlinuz"),
    # macOS firmlinked and /private paths, keychains
    ("macos", "rm -rf /System/Volumes/Data/Applications"),
    ("macos", "rm -f /private/etc/master.passwd"),
    ("macos", "security delete-keychain login.keychain-db"),
    ("macos", "rm ~/Library/Keychains/login.keychain-db"),
    # package databases
    ("package-db", "rm -rf /var/lib/pacman/local"),
    ("package-db", "truncate -s0 /var/lib/dpkg/status"),
    ("package-db", "rm -f /usr/lib/sysimage/rpm/rpmdb.sqlite"),
    ("package-db", "rm -rf /lib/apk/db"),
    # every snapshot of one VM
    ("vm-snapshots", "vim-cmd vmsvc/snapshot.removeall 31"),
    # an argv built in steps in inline Python, then run
    (
        "built-argv",
        "python3 -c \"import subprocess; a=['rm']; a.extend(['-rf','/']); subprocess.run(a)\"",
    ),
    (
        "built-argv",
        "python3 -c \"import subprocess; x=['dd','if=/dev/zero']; x+=['of=/dev/sda'];"
        ' subprocess.call(x)"',
    ),
    (
        "built-argv",
        "python3 -c \"import subprocess; a=['-rf','/etc']; a.insert(0,'rm'); subprocess.run(a)\"",
    ),
    # round 10: find's exec of mv in its target-first form, matches by glob or regex
    ("find-mv", "find /etc -maxdepth 1 -name 'shad*' -exec mv -t /tmp {} +"),
    ("find-mv", "find /etc -regex '.*/sudoers' -exec mv --target-directory=/tmp {} +"),
    # round 10: git settings and build runners given through the environment
    ("env-config", "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log"),
    (
        "env-config",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf /' git log",
    ),
    ("env-config", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='rm -rf ~' cargo run"),
    ("env-config", "RUSTC_WRAPPER='rm -rf /' cargo build"),
    # an erase flag with the target volume named bare
    ("image-erase", "asr restore --source a.dmg --target disk2s1 --erase --noprompt"),
    # imaging tools restoring over a bare disk name
    ("image-erase", "ocs-sr -e1 auto -e2 -r -j2 -p reboot restoredisk img-2024 sda"),
]


def _wrapped(command: str) -> list[str]:
    q = shlex.quote(command)
    return [
        command,
        f"sudo {command}",
        f"env LANG=C {command}",
        f"sh -c {q}",
        f"eval {q}",
        f"f() {{ {command}; }}; f",
        f"true && {command}",
    ]


@pytest.mark.parametrize("family,command", BLOCKED)
def test_family_is_blocked_in_any_wrapper(family: str, command: str) -> None:
    for spelled in _wrapped(command):
        got = assess(spelled, "bash").level
        assert got == B, f"{family}: {spelled!r} rated {got.label}"


# A backup bucket or remote named by URL or remote spec, removed or purged whole: blocked by
# the session-12 convention (one named backup is blocked, whatever holds it).
BACKUP_REMOTES = [
    "aws s3 rb s3://prod-db-backups --force",
    "gcloud storage rm -r gs://nightly-bak",
    "rclone purge s3:team-backups",
]


@pytest.mark.parametrize("command", BACKUP_REMOTES)
def test_backup_remote_purged_whole_is_blocked(command: str) -> None:
    assert assess(command, "bash").level == B


@pytest.mark.parametrize(
    "command",
    [
        "sudo -s python3 -c 'import shutil; shutil.rmtree(\"/usr\")'",
        "sudo -i -- perl -e 'unlink(\"/etc/shadow\")'",
        'sudo --login node -e \'require("fs").rmSync("/etc",{recursive:true})\'',
        "su -s /usr/bin/python3 root -c 'import shutil; shutil.rmtree(\"/\")'",
    ],
)
def test_root_shell_running_inline_code_is_judged_by_the_code(command: str) -> None:
    assert assess(command, "bash").level == B


# Look-alikes: reads, dry runs, single named items, the words printed or searched.
BELOW = [
    ("snapper delete 230-235", RiskLevel.DANGEROUS),
    ("snapper -c home delete 10-20", RiskLevel.DANGEROUS),
    # (volume managers' dry runs stay moderate: session-7 convention, see the report)
    ("zfs destroy -n tank/data@snap1", RiskLevel.SAFE),
    ("zpool create -n tank mirror sda sdb", RiskLevel.SAFE),
    ("rsync -an --remove-source-files /etc/ /media/usb/", RiskLevel.SAFE),
    ("gsutil rsync -n -d -r gs://empty file:///var", RiskLevel.SAFE),
    ("rclone move -n /usr remote:usr-copy", RiskLevel.SAFE),
    ("aws s3 rm s3://prod-db-backups/2024-01-01.sql.gz", RiskLevel.DANGEROUS),
    ("aws s3 rb s3://static-site --force", RiskLevel.DANGEROUS),
    ("rm /var/backups/db.bak", RiskLevel.DANGEROUS),
    ("rm -f /var/lib/rpm/__db.001", RiskLevel.DANGEROUS),
    ("rm /var/lib/pacman/db.lck", RiskLevel.DANGEROUS),
    ("security delete-keychain ci.keychain", RiskLevel.DANGEROUS),
    ("rm -rf /System/Volumes/Data/Users/bob/Downloads/x", RiskLevel.DANGEROUS),
    ("rsync -a --remove-source-files ./outbox/ host:/inbox/", RiskLevel.CRITICAL),
    ("rclone move ./exports remote:archive", RiskLevel.CRITICAL),
    ("mytool --format=json /dev/sda", RiskLevel.MODERATE),
    ("ntfsclone --save-image -o win.img /dev/sda2", RiskLevel.MODERATE),
    ("git log --format=%H -n 3", RiskLevel.SAFE),
    ("echo 'asr restore --erase --target /Volumes/HD'", RiskLevel.SAFE),
    ("grep -- --wipe=/dev/sdb notes.md", RiskLevel.SAFE),
    ("ls /lib/modules/$(uname -r)", RiskLevel.SAFE),
    ("vim-cmd vmsvc/snapshot.get 31", RiskLevel.SAFE),
    ("echo vim-cmd vmsvc/snapshot.removeall 31", RiskLevel.SAFE),
    ("sudo -s python3 -c 'print(1)'", RiskLevel.CRITICAL),
    ("snapper list", RiskLevel.SAFE),
    ("snapper -c root set-config TIMELINE_CREATE=no", RiskLevel.CRITICAL),
    ("snapper -c root set-config NUMBER_LIMIT=10", RiskLevel.MODERATE),
    ("GIT_CONFIG_PARAMETERS=\"'core.pager'='less -R'\" git log", RiskLevel.SAFE),
    ("RUSTC_WRAPPER=sccache cargo build", RiskLevel.MODERATE),
    ("find /etc -name 'pass*'", RiskLevel.SAFE),
    ("mytool restore sdb", RiskLevel.MODERATE),
    ("asr restore --help", RiskLevel.SAFE),
    (
        "python3 -c \"import subprocess; a=['rm','-rf','build']; a.append('dist');"
        ' subprocess.run(a)"',
        RiskLevel.DANGEROUS,
    ),
]


@pytest.mark.parametrize("command,level", BELOW)
def test_look_alike_keeps_its_level(command: str, level: RiskLevel) -> None:
    got = assess(command, "bash").level
    assert got == level, f"{command!r} rated {got.label}, expected {level.label}"
