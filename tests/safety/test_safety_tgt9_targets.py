"""Protected targets x destructive actions, for any program (safety-tgt9).

The generated matrix (`bench/tgt9_matrix.py`: targets x actions x shells x wrappers) is the
property test: every destroying action on a protected target is blocked however it is
wrapped, and reading, listing, hashing or backing up from the target, or only printing the
words, stays below dangerous. Its held-out part (targets and actions chosen by hash) is
reported with a floor. The mechanism tests below each fail without their change.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from bench.tgt9_matrix import BLOCKED, rows

_ROWS = list(rows())


def _ok(command: str, shell: str, expected: str) -> bool:
    got = assess(command, shell).level
    return got == RiskLevel.BLOCKED if expected == BLOCKED else got < RiskLevel.DANGEROUS


def test_matrix_tune_rows_all_hold() -> None:
    misses = [
        (r.command, r.shell)
        for r in _ROWS
        if r.split == "tune" and not _ok(r.command, r.shell, r.expected)
    ]
    assert not misses, misses[:20]


def test_matrix_held_out_rows_are_reported() -> None:
    # Never tuned on: the figure is a check on over-fitting; the floor guards regressions.
    dev = [r for r in _ROWS if r.split == "dev"]
    destroying = [r for r in dev if r.expected == BLOCKED]
    converse = [r for r in dev if r.expected != BLOCKED]
    blocked = sum(_ok(r.command, r.shell, r.expected) for r in destroying) / len(destroying)
    below = sum(_ok(r.command, r.shell, r.expected) for r in converse) / len(converse)
    print(
        f"tgt9 matrix dev: destroying blocked {blocked:.3f}, converse below dangerous {below:.3f}"
    )
    assert len(destroying) > 1000 and len(converse) > 300
    assert blocked >= 0.97
    assert below >= 0.99


@pytest.mark.parametrize(
    "command",
    [
        # a disk named without /dev, by an unknown program's destroying verb or option
        "foo destroy ada0",
        "storctl zap da1",
        "diskmgr wipe nvme0n1",
        "mediatool --erase disk2s1",
        "nukeutil wipedisk sdb",
        "newfs sd0a",
        "newfs_msdos -F 32 /dev/da0s1",
        # the BSDs' disk names under /dev
        "dd if=/dev/zero of=/dev/ada0 bs=1m",
        "cat /dev/urandom > /dev/nvd0",
        "dd if=/dev/zero of=/dev/rsd0c",
        "dd if=/dev/random of=/dev/gpt/rootfs",
        # the BSDs' disk tools
        "camcontrol security ada0 -U user -s pw -e pw",
        "camcontrol sanitize ada0 -a block -y",
        "nvmecontrol format nvme0",
        "glabel destroy -f gpt0",
        "geli kill ada0",
        "bsdlabel -w ada0s1",
        "gmirror clear ada1",
        # account, boot and kernel files nobody listed before
        "rm -f /etc/crypttab",
        "rm /etc/spwd.db",
        ": > /etc/pwd.db",
        "rm -f /vmlinuz",
        "unlink /initrd.img",
        "rm /bsd",
        "rm -rf /private/var/db/dslocal",
        "rm -rf /Library/Keychains",
        "rm -rf ~/Library/Keychains",
        # kernel modules and firmware, the EFI mount, macOS root's home and boot services,
        # the Nix store, the root device alias
        "rm -rf /lib/modules",
        "rm -rf /lib/modules/$(uname -r)",
        "rm -rf /efi",
        "rm -rf /var/root",
        "rm -rf /System/Library/CoreServices",
        "rm -rf /nix/store",
        "dd if=/dev/zero of=/dev/root bs=1M",
        # every library, program or kernel module of the system's code folders
        "find / -name '*.so' -delete",
        "find /lib/modules -name '*.ko' -exec rm {} +",
        "rm -f /usr/bin/*",
        "rm -f /usr/lib/x86_64-linux-gnu/*.so*",
        # a glob that takes an account or boot file
        "rm -f /etc/*",
        "rm /etc/pass*",
        "rm -f /boot/*",
        # archivers that delete what they pack; a hole punched in an account file
        "gzip /etc/passwd",
        "bzip2 /etc/shadow",
        "zstd --rm /etc/shadow",
        "zip -m /tmp/x.zip /etc/shadow",
        "7z a -sdel /tmp/x.7z /etc/gshadow",
        "tar --remove-files -cf /tmp/x.tar /etc/passwd",
        "gzip -r /usr",
        "fallocate -p -o 0 -l 4096 /etc/passwd",
        # package databases and macOS system databases
        "rm -rf /var/lib/dpkg",
        "mv /var/lib/rpm /tmp/x",
        "rm -rf /var/db/pkg",
        "rm -rf /private/var/db",
        # a known CLI's glued delete verb on a local system file
        "rclone deletefile /etc/passwd",
        "rclone purge ~/Library/Keychains",
        # the Windows home as Git Bash sees it
        "rm -rf $USERPROFILE",
        # paths spelled with doubled slashes
        "rm -rf ~//",
        "rsync -a --delete /tmp/empty/ ~//",
        # a substitution inside the name of a file in a boot folder
        "rm -f /boot/vmlinuz-$(uname -r)",
        'rm -f "/boot/initrd.img-${KVER}"',
        "rm -f /boot/grub/`cat name`",
        # an unknown program given an image and then a raw disk writes the image over it
        "bmaptool copy image.img /dev/sdb",
        "etcher-cli image.img --drive /dev/sdb",
        "rpi-imager --cli raspios.img.xz /dev/mmcblk0",
        "qemu-img convert -O raw disk.qcow2 /dev/nvme1n1",
        "dc3dd wipe=/dev/sdb",
        "frob zero=/dev/sda",
        "ubiformat /dev/mtd0",
        # rename(1) and mmv move account and boot files away too
        "rename 's/passwd/x/' /etc/passwd",
        "rename passwd passwd.old /etc/passwd",
        "mmv /etc/shadow /tmp/x",
        # run-parts without --regex runs every program of the folder with its --arg values
        "run-parts --arg=-rf --arg=/ /bin",
        "run-parts -a -rf -a / /usr/bin",
        "run-parts --arg=-rf --arg=$HOME ./hooks",
        # the running kernel's image (a substitution names it) overwritten or moved away
        ": > /boot/vmlinuz-$(uname -r)",
        "cp /dev/null /boot/vmlinuz-$(uname -r)",
        "dd if=/dev/zero of=/boot/vmlinuz-$(uname -r) bs=1k count=1",
        "truncate -s0 /boot/initrd.img-$(uname -r)",
        "mv /boot/vmlinuz-$(uname -r) /tmp/",
        "ln -sf /dev/null /boot/vmlinuz-`uname -r`",
        # sudo's own options, not the program's, ask for a login shell
        "sudo perl -MFile::Path -e 'remove_tree(\"/etc\")'",
        "sudo ruby -rfileutils -e 'FileUtils.rm_rf(\"/usr\")'",
    ],
)
def test_destroying_a_protected_target_is_blocked(command: str) -> None:
    assert assess(command, "bash").level == RiskLevel.BLOCKED, command


@pytest.mark.parametrize(
    "command,shell",
    [
        (r"Remove-Item -Recurse -Force \\dc01\ADMIN$", "powershell"),
        (r"Remove-Item -Force \\fs01\C$\Windows\System32\config\SAM", "powershell"),
        (r"rd /s /q \\fileserver01\C$", "cmd"),
        (r"del /s /q /f \\server\C$\*", "cmd"),
        (r"move \\host\ADMIN$\System32 D:\old", "cmd"),
        (r"del /f /q C:\Windows\NTDS\ntds.dit", "cmd"),
        (r"Remove-Item -Force C:\pagefile.sys", "powershell"),
        (r"del /a /f C:\hiberfil.sys", "cmd"),
        # a write to a raw Windows disk by any writer
        (r"Set-Content -Path \\.\PhysicalDrive0 -Value 0 -Encoding Byte", "powershell"),
        (r"copy /y NUL \\.\PhysicalDrive0", "cmd"),
        (r"type nul > \\.\PhysicalDrive1", "cmd"),
        (r"Remove-Item C:\Windows\System32\*.dll -Force", "powershell"),
        (r"Rename-Item $env:windir windows.old", "powershell"),
        (r"Rename-Item -Path C:\Windows\System32\config\SAM -NewName SAM.old", "powershell"),
        (r"Rename-Item C:\Users\alice alice.old", "powershell"),
        (r"del /q %windir%\System32\*.exe", "cmd"),
        (r"dd if=/dev/zero of=\\?\GLOBALROOT\Device\Harddisk0\Partition0", "cmd"),
        (r"'' | Out-File \\.\C:", "powershell"),
    ],
)
def test_windows_targets_are_blocked(command: str, shell: str) -> None:
    assert assess(command, shell).level == RiskLevel.BLOCKED, command


_WRAPS = (
    "sudo {}",
    "env X=1 {}",
    "sh -c '{}'",
    "eval '{}'",
    "f() {{ {}; }}; f",
    "timeout 9 {}",
    "true && {}",
)


@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize(
    "inner",
    [
        "foo destroy ada0",
        "geli kill ada0",
        "rm -f /etc/spwd.db",
        "rm -rf ~//",
        "bmaptool copy image.img /dev/sdb",
        "rm -f /boot/vmlinuz-$(uname -r)",
    ],
)
def test_new_targets_keep_their_level_when_wrapped(wrap: str, inner: str) -> None:
    command = wrap.format(inner)
    assert assess(command, "bash").level == RiskLevel.BLOCKED, command


@pytest.mark.parametrize(
    "command,shell",
    [
        ("gpart show ada0", "bash"),
        ("camcontrol identify ada0", "bash"),
        ("camcontrol devlist", "bash"),
        ("nvmecontrol devlist", "bash"),
        ("glabel status", "bash"),
        ("gmirror status", "bash"),
        ("bsdlabel ada0s1", "bash"),
        ("diskutil list disk2", "bash"),
        ("grep ada0 /var/run/dmesg.boot", "bash"),
        ("echo 'geli kill ada0'", "bash"),
        ("# foo destroy ada0", "bash"),
        ("foo list ada0", "bash"),
        ("cat /etc/pwd.db | wc -c", "bash"),
        ("ls -l /vmlinuz /initrd.img", "bash"),
        ("dpkg -l", "bash"),
        ("tar czf /backup/dpkg.tgz /var/lib/dpkg", "bash"),
        ("rclone ls ~/Documents", "bash"),
        (r"Get-ChildItem \\dc01\ADMIN$", "powershell"),
        (r"dir \\fileserver01\C$\Users", "cmd"),
        ("sudo -l perl", "bash"),
        ("flashtool image.img /dev/sdb --dry-run", "bash"),
        ("imgtool info image.img /dev/sdb", "bash"),
        ("qemu-system-x86_64 -cdrom ubuntu.iso -hda /dev/sdb", "bash"),
        ("sha256sum image.img /dev/sdb", "bash"),
        ("find / -name '*.so' -print", "bash"),
        ("gzip -k /etc/passwd", "bash"),
        ("gzip -c /etc/passwd > /tmp/p.gz", "bash"),
        ("gzip notes.txt", "bash"),
        ("echo $USERPROFILE", "bash"),
        ("echo x > /tmp/$NAME", "bash"),
        (r"Rename-Item .\notes.txt notes.md", "powershell"),
        ("rename 's/x/y/' /usr/bin/foo", "bash"),
        ("cp /boot/vmlinuz-$(uname -r) /tmp/", "bash"),
        ("tar -czf /tmp/home.tgz ~", "bash"),
        ("cmp image.img /dev/sdb", "bash"),
        ("rename -n 's/passwd/x/' /etc/passwd", "bash"),
        ("run-parts --test --arg=-rf --arg=/ /bin", "bash"),
        ("run-parts --arg=--verbose /etc/cron.daily", "bash"),
        ("rename 's/\\.txt$/.md/' *.txt", "bash"),
        (r"Get-Content \\.\PhysicalDrive0 -TotalCount 1", "powershell"),
    ],
)
def test_look_alikes_stay_below_dangerous(command: str, shell: str) -> None:
    assert assess(command, shell).level < RiskLevel.DANGEROUS, command


@pytest.mark.parametrize(
    "command,shell",
    [
        (r"del /s /q \\server\D$\data\old.txt", "cmd"),
        ("rm -rf ~/projects//old/", "bash"),
        ("rm -rf /var/lib/docker/tmp", "bash"),
        ("rm -f /tmp/$(date +%s).log", "bash"),
        ("rm -f /etc/$FILE", "bash"),
        ("rm /lib/modules/6.8.0-45-generic/extra/nvidia.ko", "bash"),
        # one older kernel's modules named by version: scoped (session 17 convention, n17u)
        ("rm -rf /usr/lib/modules/6.8.0-45-generic", "bash"),
        ("rm -rf /usr/$X", "bash"),
        ("find /usr/lib -name '*.pyc' -delete", "bash"),
        ("find /opt/app -name '*.so' -delete", "bash"),
        ("rm -f ./lib/*.so", "bash"),
        ("rm -f build/bin/*", "bash"),
        ("rclone purge ~/.ssh", "bash"),
        (r"del /s /q \\server\share\old\*.tmp", "cmd"),
    ],
)
def test_scoped_deletes_stay_dangerous(command: str, shell: str) -> None:
    assert assess(command, shell).level == RiskLevel.DANGEROUS, command
