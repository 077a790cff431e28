"""Review 9's findings (/work/review9_findings.md), each fixed at its mechanism (safety-r9).

Every test here fails without its change; each names a neighbour of the reviewer's command
as well, and the blocking families keep their level inside wrappers.
"""

from __future__ import annotations

import re

import pytest

from aintern_ls.safety import RiskLevel, clis
from tests.safety._levels import B, C, D, M, S, level

_level = level


def _wrapped(command: str) -> list[str]:
    quoted = command.replace("'", "'\\''")
    return [
        command,
        f"sudo {command}",
        f"env A=1 {command}",
        f"sh -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {command}; }}; f",
    ]


# --- finding 2: BSD disk tools' writing modes and namespace deletion ---------------------
@pytest.mark.parametrize(
    ("command", "low", "high"),
    [
        ("nvmecontrol ns delete -n 1 nvme0", B, B),
        ("nvmecontrol ns delete -n 2 nvd1", B, B),
        ("nvmecontrol ns detach -n 1 -c 0 nvme0", M, M),
        ("nvmecontrol ns create -s 100 -c 100 nvme0", M, M),
        ("nvmecontrol ns active nvme0", S, M),
        ("nvmecontrol ns identify -n 1 nvme0", S, M),
        ("disklabel -E sd0", M, D),
        ("bsdlabel -B ada0", M, D),
        ("disklabel -W sd0", M, D),
        ("disklabel -A -E wd1", M, D),
        ("disklabel sd0", S, S),
        ("disklabel -h sd0", S, S),
        ("disklabel -w sd0 auto", B, B),
    ],
)
def test_bsd_disk_tools_read_by_direction(command: str, low: RiskLevel, high: RiskLevel) -> None:
    assert low <= _level(command) <= high


def test_namespace_delete_blocked_inside_wrappers() -> None:
    for text in _wrapped("nvmecontrol ns delete -n 1 nvme0"):
        assert _level(text) == B, text


# --- findings 3, 10: a package manager's removal options are its own -----------------------
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("zypper --non-interactive remove -D glibc", M),  # -D = --dry-run
        ("zypper rm -D bash", M),
        ("emerge -e bash", M),  # --emptytree: a rebuild
        ("emerge --help -C bash", M),
        ("emerge -pC sys-libs/glibc", M),  # -p = --pretend
        ("rpm -q -R --nodeps bash", S),
        ("rpm -qR glibc", S),
        ("emerge -aC sys-libs/glibc", B),  # combined short flags
        ("emerge -Ca glibc", B),
        ("emerge -C bash", B),
        ("emerge --ask --unmerge sys-libs/glibc", B),
        ("rpm -e --nodeps glibc", B),
        ("rpm -evh --nodeps glibc", B),
        ("pacman -Rdd glibc", B),
        ("zypper remove glibc", B),
    ],
)
def test_package_removal_options_are_the_managers_own(command: str, expected: RiskLevel) -> None:
    if expected == B:
        assert _level(command) == B
    else:
        assert _level(command) <= expected


def test_combined_unmerge_blocked_inside_wrappers() -> None:
    for text in _wrapped("emerge -aC sys-libs/glibc"):
        assert _level(text) == B, text


# --- finding 5: a glued verb is not its past tense or a noun ------------------------------
@pytest.mark.parametrize(
    "word", ["purged", "erased", "destroyed", "shredded", "wipeout", "wiper", "purges"]
)
def test_word_forms_of_a_verb_are_not_the_verb(word: str) -> None:
    assert _level(f"mytool {word}") <= M


@pytest.mark.parametrize("word", ["wipedisk", "purgeall", "destroyall", "erasedisk"])
def test_verbs_glued_to_an_object_still_count(word: str) -> None:
    assert _level(f"mytool {word}") >= D


# --- finding 9: a destroying statement after the first one ------------------------------
@pytest.mark.parametrize(
    "command",
    [
        'wrangler d1 execute prod --command "PRAGMA foreign_keys=off; DROP TABLE users"',
        'mytool run --command "/* x */ DROP TABLE users"',
        "mytool run --sql 'SELECT 1;\nTRUNCATE TABLE logs'",
        'wrangler d1 execute prod --command "DROP TABLE users"',
    ],
)
def test_destroying_statement_at_any_statement_start(command: str) -> None:
    assert _level(command) == D


@pytest.mark.parametrize(
    "command",
    [
        'wrangler d1 execute prod --command "SELECT 1; SELECT 2"',
        "mytool run --command \"SELECT 'a drop table b'\"",
    ],
)
def test_statements_that_do_not_destroy(command: str) -> None:
    assert _level(command) <= M


# --- finding 11: the HTTP backup path is read in one pass ---------------------------------
def test_http_backup_path_work_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned = [0]
    real = clis._HTTP_BACKUP_PART

    class Counting:
        def fullmatch(self, text: str) -> re.Match[str] | None:
            scanned[0] += len(text) + 1
            return real.fullmatch(text)

    monkeypatch.setattr(clis, "_HTTP_BACKUP_PART", Counting())
    url = "http://h" + "/snapshots" * 990
    assert len(url) > 9_000
    assert not clis._http_backup_path(url)
    assert scanned[0] <= 2 * len(url)
    assert clis._http_backup_path(url + "/*")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("curl -X DELETE 'http://es:9200/_snapshot/repo/*'", B),
        ("curl -X DELETE 'http://es:9200/_snapshot/repo/_all'", B),
        ("curl -X DELETE http://h/api/backups/b1", B),
        ("curl -X DELETE 'http://h/files/repo/*'", D),
        ("curl -X GET 'http://es:9200/_snapshot/repo/*'", M),
    ],
)
def test_http_backup_delete_shapes(command: str, expected: RiskLevel) -> None:
    got = _level(command)
    assert got == expected if expected == B else got <= expected


def test_long_snapshot_url_is_judged() -> None:
    text = "curl -X DELETE 'http://h" + "/snapshots" * 990 + "'"
    assert _level(text) >= D


# --- finding 16: decompressing keeps the content ------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "gzip -d /boot/initrd.img.gz",
        "gzip --decompress /boot/initrd.img.gz",
        "xz -d /boot/vmlinuz.xz",
        "bzip2 -dv /etc/passwd.bz2",
        "gunzip /boot/initrd.img.gz",
    ],
)
def test_decompressing_a_system_file_is_a_write(command: str) -> None:
    assert _level(command) <= M


def test_compressing_a_system_file_stays_blocked() -> None:
    for text in _wrapped("gzip -9 /etc/passwd"):
        assert _level(text) == B, text


# --- finding 1: a ProcessStartInfo's program and arguments, per object, seen or unknown ----
_NEW = "New-Object System.Diagnostics.ProcessStartInfo"
_START = "[System.Diagnostics.Process]::Start"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            f"$psi = {_NEW}; $psi.FileName = 'powershell.exe'; $psi.Arguments = $payload;"
            f" {_START}($psi)",
            C,
        ),
        (
            f"$psi = {_NEW}; $psi.FileName = 'cmd.exe'; $psi.Arguments = \"/c $cmd\";"
            f" {_START}($psi)",
            C,
        ),
        (
            f"$psi = {_NEW} 'cmd.exe'; $psi.FileName = $exe; $psi.Arguments = '/c dir';"
            f" {_START}($psi)",
            C,
        ),
        (f"$psi = {_NEW} $exe; {_START}($psi)", C),
        (
            "$p = New-Object Diagnostics.Process; $p.StartInfo.FileName = $x;"
            " $p.StartInfo.Arguments = '/c dir'; $p.Start()",
            C,
        ),
    ],
)
def test_start_info_with_unknown_parts_is_at_least_critical(
    command: str, expected: RiskLevel
) -> None:
    assert _level(command, "powershell") >= expected


_TWO = (
    f"$b = {_NEW}; $b.FileName = 'cmd.exe'; $b.Arguments = '/c format c: /q /y';"
    f" $a = {_NEW}; $a.FileName = 'notepad.exe'; $a.Arguments = 'x.txt'; "
)


def test_the_start_info_started_is_the_one_judged() -> None:
    assert _level(_TWO + f"{_START}($b)", "powershell") == B
    assert _level(_TWO + f"{_START}($a)", "powershell") <= M


def test_a_literal_start_info_is_seen_through() -> None:
    seen = (
        f"$psi = {_NEW}; $psi.FileName = 'cmd.exe'; $psi.Arguments = '/c rd /s /q C:\\Users';"
        f" {_START}($psi)"
    )
    assert _level(seen, "powershell") == B
    harmless = seen.replace("/c rd /s /q C:\\Users", "a.txt").replace("cmd.exe", "notepad.exe")
    assert _level(harmless, "powershell") <= M


# --- finding 14: which way an image and a disk go ------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "ntfsclone --save-image --output backup.img /dev/sda1",  # reads sda1 into the image
        "ntfsclone -s -o backup.img /dev/sda1",
        "partclone.ext4 -c -s /dev/sda2 -o sda2.img",
        "mytool --output backup.img /dev/sda",
        "pv disk.img /dev/sdb",  # reads both
        "vbindiff disk.img /dev/sdb",
        "qemu-system-x86_64 -cdrom x.iso /dev/sdb",
    ],
)
def test_an_image_before_a_disk_alone_is_no_write(command: str) -> None:
    assert _level(command) <= M


@pytest.mark.parametrize(
    "command",
    [
        "bmaptool copy image.img /dev/sdb",
        "mytool write x.img /dev/sdb",
        "etcher-cli image.img --drive /dev/sdb",
        "mytool --input x.img --output /dev/sdb",
        "rpi-imager --cli raspios.img.xz /dev/mmcblk0",
        "usbwriter x.iso /dev/sdc",
    ],
)
def test_an_image_written_onto_a_disk_is_blocked(command: str) -> None:
    for text in _wrapped(command):
        assert _level(text) == B, text


# --- finding 15: a package's folder below a system lib folder, one firmware entry ----------
@pytest.mark.parametrize(
    "command",
    [
        "rm -f /usr/local/lib/node_modules/*",
        "rm -rf /usr/lib/jvm/*",
        "rm -f /usr/lib/cgi-bin/*",
        "rm -rf /usr/lib/python3/dist-packages/*",
        "rm -rf /usr/lib/firmware/old-blob.bin",
        "rm -rf /lib/firmware/nvidia",
    ],
)
def test_named_things_below_system_code_are_dangerous(command: str) -> None:
    assert _level(command) == D


@pytest.mark.parametrize(
    "command",
    [
        "rm -f /usr/lib/x86_64-linux-gnu/*.so*",
        "rm -f /usr/lib/arm-linux-gnueabihf/*",
        "rm -f /usr/lib/*",
        "rm -rf /lib/firmware",
        "rm -rf /lib/modules/$(uname -r)",
    ],
)
def test_the_systems_own_code_stays_blocked(command: str) -> None:
    for text in _wrapped(command):
        assert _level(text) == B, text


# --- findings 6, 7: what a backup program's delete takes, read by words, not substrings ----
@pytest.mark.parametrize(
    "command",
    [
        "barman delete main-db-keeper 20240101T120000",  # "keep" inside a server name
        "barman delete pg before-upgrade-20240101",  # "before" inside a backup id
        "barman delete retained-srv 20240101T120000",
        "pgbackrest expire --stanza=main --set=20240101-010101F",  # one named set
        "obnam forget --keep=0",  # keeps nothing
        "obnam forget --keep 0",
        "duplicacy prune -r 1-9",  # named revisions
        "duplicacy prune -exclusive -r 1-9",
        "duplicacy prune -id x -r 1",
    ],
)
def test_one_named_or_every_backup_is_blocked(command: str) -> None:
    for text in _wrapped(command):
        assert _level(text) == B, text


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("barman delete pg-main oldest", D),  # a retention keyword operand
        ("pgbackrest expire --stanza=main", D),
        ("obnam forget --keep=7d", D),
        ("duplicacy prune -keep 0:360", D),
        ("urbackupclientctl remove-backupdir -d /data", D),  # a folder leaves the backup set
        ("mysql-backup delete", D),  # only named like a backup tool
        ("./backup.sh delete", D),
        ("wal-g delete everything", D),  # no --confirm: wal-g only lists
    ],
)
def test_scoped_or_unconfirmed_backup_deletes_are_not_blocked(
    command: str, expected: RiskLevel
) -> None:
    assert _level(command) == expected


# --- finding 8: PowerShell's HTTP cmdlets delete snapshots as curl does -------------------
@pytest.mark.parametrize(
    "command",
    [
        "Invoke-RestMethod -Method Delete -Uri 'http://es:9200/_snapshot/repo/*'",
        "Invoke-WebRequest -Method DELETE -Uri 'http://es:9200/_snapshot/repo/*'",
        "irm -Method:Delete 'http://es:9200/_snapshot/repo/_all'",
        "iwr -Uri 'http://h/api/backups/b1' -Method Delete",
    ],
)
def test_powershell_http_delete_of_snapshots_is_blocked(command: str) -> None:
    assert _level(command, "powershell") == B
    assert _level(f"& {{ {command} }}", "powershell") == B


@pytest.mark.parametrize(
    "command",
    [
        "Invoke-RestMethod -Method Get -Uri 'http://es:9200/_snapshot/repo/*'",
        "Invoke-RestMethod -Uri 'http://es:9200/_snapshot/repo/*'",
        "Write-Host 'Invoke-RestMethod -Method Delete -Uri http://es:9200/_snapshot/repo/*'",
    ],
)
def test_powershell_http_reads_of_snapshots_are_not(command: str) -> None:
    assert _level(command, "powershell") <= M


# --- finding 4: a bare kernel disk name after another resource's noun ----------------------
@pytest.mark.parametrize(
    "command",
    [
        "hcloud volume delete sdb",
        "scw instance volume delete sda",
        "openstack volume delete vda",
        "mycloud bucket delete sdc",
    ],
)
def test_a_resource_named_like_a_disk_is_not_a_disk(command: str) -> None:
    assert _level(command) == D


def test_a_clone_of_a_bare_name_is_no_wipe() -> None:
    assert _level("mytool clone sd1") <= M
    assert _level("mytool restore sdb") <= M


@pytest.mark.parametrize(
    "command", ["mytool wipe sdb", "mytool disk wipe ada0", "mytool destroy nvme0n1"]
)
def test_a_bare_disk_given_to_a_disk_verb_stays_blocked(command: str) -> None:
    for text in _wrapped(command):
        assert _level(text) == B, text


# --- finding 12: dynamic targets in scratch folders skip the boot-folder check -------------
def test_scratch_targets_skip_the_boot_folder_classification(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from aintern_ls.safety import files

    calls = [0]
    real = files.classify_path

    def counting(*a: object, **k: object) -> object:
        calls[0] += 1
        return real(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(files, "classify_path", counting)
    for i in range(50):
        assert files._inside_boot_folder(f"/tmp/k$v{i}") is None
        assert files._inside_boot_folder(f"build/k$v{i}") is None
    assert calls[0] == 0
    assert files._inside_boot_folder("/boot/vmlinuz-$(uname -r)") is not None
    assert calls[0] == 1


def test_a_verb_glued_to_its_object_names_it() -> None:
    assert _level("borgmatic rdelete") == B  # the repository: every backup
    assert _level("acme-backup delete nightly-3") == B  # one named backup
    assert _level("disklabel -r sd0") <= M  # the label read from the disk
    assert _level("bsdlabel -r -w ada0 auto") == B


def test_statement_starts_skip_only_blanks() -> None:
    # After a `;`, `*/` or a newline only blanks are skipped: a `\s*` there would rescan every
    # later newline from each one (10,000 newlines: about 10**8 regex steps, over a second).
    assert "\n" not in clis._BLANKS and ";" not in clis._BLANKS
    assert clis._SENT_DESTROY.pattern.count("\\s*") == 1  # only at the very start (`^\s*`)
    assert clis._SENT_DESTROY.search("SELECT 1;\n\n   DROP TABLE t")
    assert not clis._SENT_DESTROY.search("\n" * 10_000)
    assert _level("mytool run --command '" + "\n" * 5_000 + "DROP TABLE t'") == D
