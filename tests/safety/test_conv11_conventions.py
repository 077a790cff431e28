"""The label conventions settled in session 13 (HELPERS.md), as mechanisms (conv11).

- Upload: a local file or folder sent to another machine (a host, a cloud bucket, a relay)
  is critical whatever the file (DESIGN.md section 5: "critical when what is sent is read
  from disk"); downloads and remote-to-local copies stay moderate; dry runs stay safe.
- Backups: one named backup archive of any backup tool deleted is blocked; a retention
  policy stays dangerous; dry runs stay safe.
"""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, D, M, S, level

# Every transfer tool and spelling: local -> remote.
UPLOADS = [
    ("scp build.tar.gz deploy@web1:/srv/app/", "bash"),
    ("scp -P 2222 -r ./site web1:/var/www/", "bash"),
    ("pscp dist.tgz admin@198.51.100.4:/srv/", "bash"),
    ("rsync -az dist/ deploy@web1:/var/www/", "bash"),
    ("rsync -a ./site/ rsync://mirror.example/site/", "bash"),
    ("rsync -av --delete build/ deploy@web1:/var/www/shop/", "bash"),
    ("sftp deploy@web1 <<< 'put notes.txt'", "bash"),
    ("printf 'put a.txt\\nbye\\n' | sftp -b - deploy@web1", "bash"),
    ("lftp -e 'mirror -R dist /www; quit' ftp://ftp.example.com", "bash"),
    ("smbclient //fs/share -U me -c 'put report.pdf'", "bash"),
    ("rclone copy ./photos gdrive:photos", "bash"),
    ("rclone sync ./site r2:www", "bash"),
    ("rclone copyto report.csv s3:bucket/report.csv", "bash"),
    ("croc send build.zip", "bash"),
    ("wormhole send notes.txt", "bash"),
    ("curl -T report.pdf https://files.example/up/", "bash"),
    ("curl --upload-file report.pdf https://files.example/up/", "bash"),
    ("aws s3 cp report.csv s3://corp/2025/", "bash"),
    ("aws s3 sync ./public s3://www-bucket", "bash"),
    ("gsutil -m cp -r ./site gs://corp-www", "bash"),
    ("gcloud storage cp report.csv gs://corp/", "bash"),
    ("gcloud compute scp app.tgz vm1:~/", "bash"),
    ("az storage blob upload -f build/site.tar.gz -c web -n site.tar.gz", "bash"),
    ("az storage blob upload-batch -s dist -d web", "bash"),
    ("oci os object put -bn b --file ./site.tar", "bash"),
    ("s3cmd put report.csv s3://corp/", "bash"),
    ("mc cp report.csv myminio/corp/", "bash"),
    ("azcopy copy ./site 'https://st.blob.core.windows.net/www' --recursive", "bash"),
    ("s5cmd cp report.csv s3://corp/", "bash"),
    ("Copy-Item report.pdf -Destination C:\\drop -ToSession $s", "powershell"),
    ("Invoke-WebRequest -Uri https://x.example/u -Method Put -InFile report.pdf", "powershell"),
    ("az storage blob upload -f dist\\app.zip -c builds -n app.zip", "cmd"),
]


@pytest.mark.parametrize("command,shell", UPLOADS)
def test_a_local_file_sent_away_is_critical(command: str, shell: str) -> None:
    got = assess(command, shell)
    assert got.level == C, (command, got)


# The same transfers the other way, between remotes, as dry runs, or only as text.
NOT_UPLOADS = [
    ("scp deploy@web1:/srv/app/x.tgz .", M),
    ("scp -3 a:/x b:/y", M),
    ("rsync -az deploy@web1:/var/www/ dist/", M),
    ("rsync -azn dist/ deploy@web1:/var/www/", S),
    ("sftp deploy@web1 <<< 'get notes.txt'", M),
    ("smbclient //fs/share -U me -c 'get report.pdf'", M),
    ("lftp -e 'mirror dist /www; quit' ftp://ftp.example.com", M),
    ("rclone copy gdrive:photos ./photos", M),
    ("rclone copy --dry-run ./photos gdrive:photos", S),
    ("rclone sync -n ./site r2:www", S),
    ("croc send --text hello", M),
    ("wormhole receive", M),
    ("aws s3 cp s3://corp/report.csv .", M),
    ("aws s3 cp report.csv s3://corp/ --dryrun", S),
    ("aws s3 mv s3://a/x s3://b/x", M),
    ("gsutil cp gs://corp/report.csv .", M),
    ("gsutil -m rsync -n -r ./site gs://corp-www", S),
    ("gcloud compute scp vm1:~/app.tgz .", M),
    ("az storage blob download -c web -n x -f x", M),
    ("az storage blob upload -c web -n x --data hello", M),
    ("mc cp myminio/corp/report.csv .", M),
    ("azcopy copy 'https://st.blob.core.windows.net/www' ./site --recursive", M),
    ("echo scp build.tar.gz deploy@web1:/srv/app/", S),
    ("grep 'rsync -az dist/ deploy@web1:' notes.md", S),
    ("# aws s3 cp report.csv s3://corp/", S),
    ("scp --help", S),
    ("rsync --help", S),
]


@pytest.mark.parametrize("command,expected", NOT_UPLOADS)
def test_downloads_dry_runs_and_text_stay_low(command: str, expected: object) -> None:
    assert level(command) == expected, command


def test_an_empty_sync_source_sends_nothing() -> None:
    # `rclone sync /srv/empty remote:x` is a delete of the remote, judged as one
    assert level("rclone sync /srv/empty remote:exports") < C
    assert level("s3cmd sync --delete-removed /tmp/empty/ s3://corp/") < C


WRAPPERS = [
    lambda c: "sudo " + c,
    lambda c: "env X=1 " + c,
    lambda c: "timeout 60 " + c,
    lambda c: "sh -c " + shlex.quote(c),
    lambda c: "eval " + shlex.quote(c),
    lambda c: "f() { " + c + "; }; f",
    lambda c: "true && " + c,
    lambda c: "(" + c + ")",
]


@pytest.mark.parametrize("wrap", WRAPPERS)
@pytest.mark.parametrize(
    "command",
    [
        "scp build.tar.gz deploy@web1:/srv/app/",
        "rclone copy ./dist r2:releases",
        "aws s3 cp report.csv s3://corp/",
    ],
)
def test_an_upload_keeps_its_level_when_wrapped(wrap: object, command: str) -> None:
    assert callable(wrap)
    assert level(wrap(command)) >= C, wrap(command)


def test_the_upload_finding_points_at_what_is_sent() -> None:
    text = "scp build.tar.gz deploy@web1:/srv/app/"
    found = [f for f in assess(text, "bash").findings if f.rule == "upload"]
    assert found and text[found[0].start : found[0].end] == "scp build.tar.gz"
    assert "build.tar.gz" in found[0].reason


# One named backup archive deleted, whatever the tool: blocked (session-13 convention).
NAMED_BACKUP_DELETES = [
    "borg delete /mnt/backup/repo::web-2024-01-01",
    "borg delete ssh://bk@nas/./repo::host-2025-06-01",
    "BORG_REPO=/mnt/b borg delete ::web-1",
    "borg delete /mnt/backup/repo web-2024-01-01",
    "restic forget 4bba301e",
    "restic -r s3:s3.example.net/bk forget 4bba301e --prune",
    "restic forget latest",
    "kopia snapshot delete k1f2e3a4 --delete",
    "kopia snapshot rm k1f2e3a4 --delete",
    "tarsnap -d -f home-2024-01-01",
    "tarsnap -df home-2024-01-01",
]


@pytest.mark.parametrize("command", NAMED_BACKUP_DELETES)
def test_one_named_backup_deleted_is_blocked(command: str) -> None:
    assert level(command) == B, command


@pytest.mark.parametrize("wrap", WRAPPERS)
@pytest.mark.parametrize("command", ["tarsnap -d -f nightly", "restic forget 4bba301e"])
def test_a_named_backup_delete_keeps_its_level_when_wrapped(wrap: object, command: str) -> None:
    assert callable(wrap)
    assert level(wrap(command)) == B, wrap(command)


# Retention policies, dry runs, listings and text are not one named backup.
NOT_NAMED_BACKUP_DELETES = [
    ("borg prune --keep-daily 7 /mnt/backup/repo", D),
    ("restic forget --keep-daily 7 --prune", D),
    ("restic forget --keep-last 100000", D),
    ("borg delete --dry-run /mnt/backup/repo::web-1", S),
    ("restic forget --dry-run 4bba301e", S),
    ("tarsnap -d --dry-run -f home-2024-01-01", S),
    ("kopia snapshot delete k1f2e3a4", S),  # without --delete kopia only lists
    ("tarsnap --list-archives", S),
    ("borg list /mnt/backup/repo::web-1", S),
    ("echo borg delete /mnt/b::web-1", S),
    ("grep 'restic forget 4bba301e' notes.md", S),
    ("borg delete --help", S),
]


@pytest.mark.parametrize("command,expected", NOT_NAMED_BACKUP_DELETES)
def test_policies_patterns_and_dry_runs_are_not_one_named_backup(
    command: str, expected: object
) -> None:
    assert level(command) == expected, command


# Restore points turned off: critical (a backup switch-off); existing ones deleted: blocked.
RESTORE_OFF = [
    ('Disable-ComputerRestore -Drive "C:\\"', "powershell"),
    ('powershell -c "Disable-ComputerRestore C:\\"', "powershell"),
    ('wmic /namespace:\\\\root\\default path SystemRestore call Disable "C:\\"', "cmd"),
    (
        "Invoke-CimMethod -Namespace root/default -ClassName SystemRestore -MethodName Disable"
        " -Arguments @{Drive='C:\\'}",
        "powershell",
    ),
    (
        'reg add "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows NT\\SystemRestore" /v DisableSR'
        " /t REG_DWORD /d 1 /f",
        "cmd",
    ),
    (
        'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\SystemRestore" /v'
        ' "DisableConfig" /t "REG_DWORD" /d "1" /f',
        "cmd",
    ),
]


@pytest.mark.parametrize("command,shell", RESTORE_OFF)
def test_restore_points_turned_off_are_critical(command: str, shell: str) -> None:
    got = assess(command, shell)
    assert got.level == C, (command, got)
    assert any(f.rule == "backup-off" for f in got.findings), got


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("vssadmin delete shadows /all /quiet", "cmd", B),
        ("Get-CimInstance Win32_ShadowCopy | Remove-CimInstance", "powershell", B),
        ("wbadmin delete backup -deleteOldest -backupTarget:E: -quiet", "cmd", B),
        ("Get-ComputerRestorePoint", "powershell", S),
        ("Write-Host 'Disable-ComputerRestore C:\\'", "powershell", S),
        (
            'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\SystemRestore" /v'
            ' "DisableSR" /t "REG_DWORD" /d "0" /f',
            "cmd",
            M,
        ),
    ],
)
def test_restore_points_deleted_blocked_and_look_alikes(
    command: str, shell: str, expected: object
) -> None:
    assert level(command, shell) == expected, command


@pytest.mark.parametrize(
    "wrapped",
    [
        "Start-Process powershell -ArgumentList 'Disable-ComputerRestore C:\\'",
        "Invoke-Expression 'Disable-ComputerRestore C:\\'",
        "& { Disable-ComputerRestore C:\\ }",
        "function f { Disable-ComputerRestore C:\\ }; f",
    ],
)
def test_restore_off_keeps_its_level_when_wrapped(wrapped: str) -> None:
    assert level(wrapped, "powershell") >= C, wrapped


# diskpart /s: a script nobody can read is opaque (critical); a visible one is judged.
@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("diskpart /s wipe.txt", "cmd", C),
        ("diskpart.exe /s C:\\ProgramData\\clean.txt", "cmd", C),
        ("diskpart /s wipe.txt", "powershell", C),
        ("Start-Process diskpart -ArgumentList '/s wipe.txt' -Verb RunAs", "powershell", C),
        ("cmd /c diskpart /s wipe.txt", "cmd", C),
        ("sudo diskpart.exe /s d.txt", "bash", C),
        ("echo select disk 1 > d.txt & echo clean >> d.txt & diskpart /s d.txt", "cmd", B),
        ("printf 'sel dis 1\\nclean\\n' > d.txt; diskpart.exe /s d.txt", "bash", B),
        ("(echo select disk 0 & echo clean) | diskpart", "cmd", B),
        ("echo list disk > d.txt && diskpart /s d.txt", "cmd", M),
        ("echo diskpart /s wipe.txt", "cmd", S),
    ],
)
def test_diskpart_scripts_unseen_critical_seen_judged(
    command: str, shell: str, expected: object
) -> None:
    assert level(command, shell) == expected, command


# Magic SysRq: a trigger is dangerous (like reboot); enabling the keys is moderate.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("echo b > /proc/sysrq-trigger", D),
        ("echo o | tee /proc/sysrq-trigger", D),
        ("printf c > /proc/sysrq-trigger", D),
        ("dd of=/proc/sysrq-trigger <<< b", D),
        ("sh -c 'echo b > /proc/sysrq-trigger'", D),
        ("f() { echo c > /proc/sysrq-trigger; }; f", D),
        ("python3 -c \"open('/proc/sysrq-trigger', 'w').write('b')\"", D),
        ("echo o | sudo tee /proc/sysrq-trigger", C),  # sudo's own level
        ("echo 1 > /proc/sys/kernel/sysrq", M),
        ("sysctl -w kernel.sysrq=1", M),
        ("echo 0 > /proc/sys/kernel/randomize_va_space", C),  # other /proc/sys files stay
        ("cat /proc/sysrq-trigger", S),
        ("echo 'echo b > /proc/sysrq-trigger'", S),
    ],
)
def test_sysrq_triggers_are_dangerous_the_switch_moderate(command: str, expected: object) -> None:
    assert level(command) == expected, command


# Dry runs are what they say: a modelled tool's dry run is safe, an unmodelled one moderate.
@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("zfs destroy -n tank/data@snap1", "bash", S),
        ("zfs destroy -rnv zroot/ROOT/default", "bash", S),
        ("zpool create -n tank mirror sda sdb", "bash", S),
        ("lvremove --test -f vg0/root", "bash", S),
        ("vgremove -t ubuntu-vg", "bash", S),
        ("rsync -n -a --delete a/ b/", "bash", S),
        ("rclone purge --dry-run remote:x", "bash", S),
        ("terraform plan -destroy", "bash", S),
        ("sudo zfs destroy -nv rpool/ROOT", "bash", C),  # sudo's own level
        ("zfs destroy -r rpool/ROOT", "bash", B),  # not a dry run
        ("frob purge --dry-run ~", "bash", M),  # a program we do not model
        ("Search-Mailbox -Identity bob -DeleteContent -wi", "powershell", M),
    ],
)
def test_dry_runs_are_what_they_say(command: str, shell: str, expected: object) -> None:
    assert level(command, shell) == expected, command


# A package fetched and run (`uvx`, `pipx run`, `bunx`, `npx -y`, `pnpm dlx`): moderate
# whatever it is asked to do, unless its arguments say more.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("uvx ruff check .", M),
        ("pipx run black --check .", M),
        ("bunx prettier --check .", M),
        ("npx -y prettier --check src", M),
        ("npx --yes tsc --noEmit", M),
        ("pnpm dlx prettier --check .", M),
        ("yarn dlx eslint .", M),
        ("bunx rimraf ~", B),  # the arguments say more
        ("npx -y rimraf /", B),
        ("sudo uvx ruff check .", C),
        ("npx tsc --noEmit", S),  # a project's own tool, no fetch asked for
        ("pnpm exec tsc --noEmit", S),
        ("pipx list", S),
        ("echo pipx run black", S),
    ],
)
def test_fetch_and_run_runners_are_moderate(command: str, expected: object) -> None:
    assert level(command) == expected, command
