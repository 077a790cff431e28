"""Protected targets x destructive actions x shells x wrappers (safety-tgt9): a generated matrix.

Every row is labelled by rule before the analyser sees it:

- a destroying action (delete, truncate, overwrite, shred, move away, chmod 000 / chown of
  the whole tree, wipe / zap / format / erase / discard of a disk) aimed at a protected
  target (system, boot and account files and trees of Linux, macOS, BSD and Windows; a
  home or root in any spelling; a disk in any naming) is `blocked`, whatever program does
  it and however it is wrapped;
- the converse (reading, listing, hashing, backing up from the target; the destroying
  words only printed, searched or commented) is "not dangerous": rated below dangerous.

Amended after the first run (reported, not hidden): a copy or archive of a credential
store (shadow, gshadow, master.passwd/spwd.db, the SAM/SECURITY/SYSTEM hives, ntds.dit,
Keychains) is credential access, which the analyser rates critical and the team's
conventions call critical; those converse rows are left out (`CREDENTIAL_STORES`).

Held out: a target or an action whose key hashes to 0 mod 4 (sha256 of the key, chosen
before any row was run) is never used while tuning; a row is `dev` when its target or its
action is held out, `tune` otherwise. Fix dev misses only through mechanisms found on tune.

`python -m bench.tgt9_matrix` prints the figures (tune and dev separately).
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

BLOCKED = "blocked"
NOT_DANGEROUS = "not-dangerous"


def held_out(key: str) -> bool:
    """A target or action key held out of tuning (chosen by hash, not by hand)."""
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % 4 == 0


@dataclass(frozen=True)
class Target:
    key: str
    kind: str  # file | tree | home | disk | baredisk
    family: str  # posix | windows
    text: str  # as written in the shell (bash for posix; PowerShell/cmd for windows)
    cmd_text: str | None = None  # the cmd spelling when it differs (%windir% vs $env:windir)
    literal: bool = True  # a literal path an interpreter's string can name


def _t(key: str, kind: str, text: str, **kw: object) -> Target:
    return Target(key, kind, "posix", text, **kw)  # type: ignore[arg-type]


def _w(key: str, kind: str, text: str, cmd_text: str | None = None, **kw: object) -> Target:
    return Target(key, kind, "windows", text, cmd_text, **kw)  # type: ignore[arg-type]


TARGETS: tuple[Target, ...] = (
    # Linux account, boot and mount files
    _t("etc-passwd", "file", "/etc/passwd"),
    _t("etc-shadow", "file", "/etc/shadow"),
    _t("etc-group", "file", "/etc/group"),
    _t("etc-gshadow", "file", "/etc/gshadow"),
    _t("etc-sudoers", "file", "/etc/sudoers"),
    _t("etc-fstab", "file", "/etc/fstab"),
    _t("etc-crypttab", "file", "/etc/crypttab"),
    _t("vmlinuz-link", "file", "/vmlinuz"),
    _t("initrd-link", "file", "/initrd.img"),
    _t("boot-vmlinuz", "file", "/boot/vmlinuz-6.8.0-45-generic"),
    _t("boot-initrd", "file", "/boot/initrd.img-6.8.0-45-generic"),
    _t("boot-initramfs", "file", "/boot/initramfs-6.6.9-arch1-1.img"),
    _t("grub-cfg", "file", "/boot/grub/grub.cfg"),
    _t("grub2-cfg", "file", "/boot/grub2/grub.cfg"),
    _t("efi-shim", "file", "/boot/efi/EFI/ubuntu/shimx64.efi"),
    _t("default-grub", "file", "/etc/default/grub"),
    # BSD
    _t("bsd-master-passwd", "file", "/etc/master.passwd"),
    _t("bsd-pwd-db", "file", "/etc/pwd.db"),
    _t("bsd-spwd-db", "file", "/etc/spwd.db"),
    _t("bsd-loader-conf", "file", "/boot/loader.conf"),
    _t("bsd-kernel", "file", "/boot/kernel/kernel"),
    # macOS files
    _t("mac-private-sudoers", "file", "/private/etc/sudoers"),
    _t("mac-private-master", "file", "/private/etc/master.passwd"),
    _t("mac-boot-efi", "file", "/System/Library/CoreServices/boot.efi"),
    # Linux trees
    _t("boot", "tree", "/boot"),
    _t("usr", "tree", "/usr"),
    _t("bin", "tree", "/bin"),
    _t("sbin", "tree", "/sbin"),
    _t("lib", "tree", "/lib"),
    _t("lib64", "tree", "/lib64"),
    _t("usr-lib", "tree", "/usr/lib"),
    _t("etc", "tree", "/etc"),
    _t("dpkg-db", "tree", "/var/lib/dpkg"),
    _t("rpm-db", "tree", "/var/lib/rpm"),
    _t("sudoers-d", "tree", "/etc/sudoers.d"),
    _t("boot-efi", "tree", "/boot/efi"),
    _t("boot-grub", "tree", "/boot/grub"),
    _t("efi-mount", "tree", "/efi/EFI"),
    _t("bsd-boot-loader", "tree", "/boot/loader.conf.d"),
    _t("bsd-boot-kernel", "tree", "/boot/kernel"),
    _t("bsd-pkg-db", "tree", "/var/db/pkg"),
    # macOS trees
    _t("mac-system", "tree", "/System"),
    _t("mac-library", "tree", "/Library"),
    _t("mac-private-etc", "tree", "/private/etc"),
    _t("mac-private-var-db", "tree", "/private/var/db"),
    _t("mac-dslocal", "tree", "/private/var/db/dslocal"),
    _t("mac-applications", "tree", "/Applications"),
    _t("mac-sys-keychains", "tree", "/Library/Keychains"),
    _t("mac-user-keychains", "tree", "~/Library/Keychains", literal=False),
    # homes and root in every spelling
    _t("home-tilde", "home", "~", literal=False),
    _t("home-tilde-slash", "home", "~/", literal=False),
    _t("home-var", "home", "$HOME"),
    _t("home-brace", "home", "${HOME}"),
    _t("home-quoted", "home", '"$HOME"'),
    _t("home-root", "home", "/root"),
    _t("home-mac-user", "home", "/Users/alice"),
    _t("home-linux-user", "home", "/home/bob"),
    _t("home-all", "home", "/home/*", literal=False),
    _t("home-tilde-user", "home", "~alice", literal=False),
    _t("home-contents", "home", "$HOME/*", literal=False),
    # disks, Linux naming
    _t("disk-sd", "disk", "/dev/sda"),
    _t("disk-sdb", "disk", "/dev/sdb"),
    _t("disk-nvme", "disk", "/dev/nvme0n1"),
    _t("disk-nvme-part", "disk", "/dev/nvme1n1p2"),
    _t("disk-mmc", "disk", "/dev/mmcblk0"),
    _t("disk-vd", "disk", "/dev/vda"),
    _t("disk-xvd", "disk", "/dev/xvdf"),
    _t("disk-hd", "disk", "/dev/hda"),
    _t("disk-dm", "disk", "/dev/dm-0"),
    _t("disk-mapper", "disk", "/dev/mapper/vg0-root"),
    _t("disk-md", "disk", "/dev/md127"),
    _t("disk-by-id", "disk", "/dev/disk/by-id/ata-Samsung_SSD_860_EVO_S3Z9NB0K123456"),
    _t("disk-by-uuid", "disk", "/dev/disk/by-uuid/4f2c1c1e-8d7e-4c39-9a41-0d7b5a0e8f11"),
    # disks, macOS and BSD naming
    _t("disk-mac-rdisk", "disk", "/dev/rdisk2"),
    _t("disk-mac-disk", "disk", "/dev/disk3"),
    _t("disk-bsd-ada", "disk", "/dev/ada0"),
    _t("disk-bsd-da", "disk", "/dev/da1"),
    _t("disk-bsd-nvd", "disk", "/dev/nvd0"),
    _t("disk-bsd-vtbd", "disk", "/dev/vtbd0"),
    _t("disk-bsd-nda", "disk", "/dev/nda0"),
    _t("disk-bsd-ada-part", "disk", "/dev/ada0p2"),
    _t("bare-mac-disk", "baredisk", "disk2"),
    _t("bare-mac-slice", "baredisk", "disk0s2"),
    _t("bare-bsd-ada", "baredisk", "ada0"),
    _t("bare-bsd-da", "baredisk", "da0"),
    _t("bare-bsd-nvd", "baredisk", "nvd1"),
    _t("bare-bsd-vtbd", "baredisk", "vtbd0"),
    _t("bare-bsd-nda", "baredisk", "nda0"),
    _t("bare-linux-sd", "baredisk", "sdb"),
    _t("bare-linux-nvme", "baredisk", "nvme0n1"),
    # Windows files
    _w("win-sam", "file", r"C:\Windows\System32\config\SAM"),
    _w("win-system-hive", "file", r"C:\Windows\System32\config\SYSTEM"),
    _w("win-security-hive", "file", r"C:\Windows\System32\config\SECURITY"),
    _w("win-software-hive", "file", r"C:\Windows\System32\config\SOFTWARE"),
    _w("win-bootmgr", "file", r"C:\bootmgr"),
    _w("win-bcd", "file", r"C:\Boot\BCD"),
    _w("win-efi-bcd", "file", r"C:\EFI\Microsoft\Boot\BCD"),
    _w("win-bootmgfw", "file", r"C:\Windows\Boot\EFI\bootmgfw.efi"),
    _w("win-ntds", "file", r"C:\Windows\NTDS\ntds.dit"),
    _w("win-pagefile", "file", r"C:\pagefile.sys"),
    _w("win-hiberfil", "file", r"C:\hiberfil.sys"),
    _w("win-winload", "file", r"C:\Windows\System32\winload.efi"),
    _w("win-ntoskrnl", "file", r"C:\Windows\System32\ntoskrnl.exe"),
    _w(
        "win-sam-envvar",
        "file",
        r"$env:SystemRoot\System32\config\SAM",
        r"%SystemRoot%\System32\config\SAM",
    ),
    # Windows trees
    _w("win-windows", "tree", r"C:\Windows"),
    _w("win-system32", "tree", r"C:\Windows\System32"),
    _w("win-syswow64", "tree", r"C:\Windows\SysWOW64"),
    _w("win-program-files", "tree", r'"C:\Program Files"'),
    _w("win-program-files-x86", "tree", r'"C:\Program Files (x86)"'),
    _w("win-systemroot", "tree", r"$env:SystemRoot", "%SystemRoot%"),
    _w("win-windir", "tree", r"$env:windir", "%windir%"),
    _w("win-windir-system32", "tree", r"$env:windir\System32", r"%windir%\System32"),
    _w("win-boot-dir", "tree", r"C:\Boot"),
    _w("win-efi-dir", "tree", r"C:\EFI"),
    _w("win-windows-boot", "tree", r"C:\Windows\Boot"),
    _w("win-admin-share-c", "tree", r"\\fileserver01\C$"),
    _w("win-admin-share-admin", "tree", r"\\dc01\ADMIN$"),
    _w("win-admin-share-c-windows", "tree", r"\\fileserver01\C$\Windows"),
    # Windows homes
    _w("win-userprofile", "home", r"$env:USERPROFILE", "%USERPROFILE%"),
    _w("win-users-alice", "home", r"C:\Users\alice"),
    _w("win-home-var", "home", r"$HOME", r"%HOMEDRIVE%%HOMEPATH%"),
    _w("win-users-all", "home", r"C:\Users"),
    # Windows disks
    _w("win-physicaldrive", "disk", r"\\.\PhysicalDrive0"),
    _w("win-physicaldrive1", "disk", r"\\.\PhysicalDrive1"),
    _w("win-volume", "disk", r"\\.\C:"),
)


@dataclass(frozen=True)
class Action:
    key: str
    kinds: frozenset[str]
    shell: str  # bash | powershell | cmd
    template: str  # {T}: the target; {Q}: the target inside a quoted string
    expected: str
    needs_literal: bool = False


def _a(
    key: str, kinds: str, shell: str, template: str, expected: str = BLOCKED, **kw: object
) -> Action:
    return Action(key, frozenset(kinds.split()), shell, template, expected, **kw)  # type: ignore[arg-type]


ACTIONS: tuple[Action, ...] = (
    # --- bash: files
    _a("rm-f", "file", "bash", "rm -f {T}"),
    _a("shred-u", "file", "bash", "shred -uz {T}"),
    _a("truncate", "file", "bash", "truncate -s 0 {T}"),
    _a("redirect-empty", "file", "bash", ": > {T}"),
    _a("echo-over", "file", "bash", "echo '' > {T}"),
    _a("mv-away", "file tree home", "bash", "mv {T} /tmp/old.bak"),
    _a("cp-null", "file", "bash", "cp /dev/null {T}"),
    _a("dd-over-file", "file", "bash", "dd if=/dev/zero of={T} bs=1k count=1"),
    _a("unlink", "file", "bash", "unlink {T}"),
    _a("find-delete", "file tree home", "bash", "find {T} -delete"),
    _a("tee-empty", "file", "bash", "tee {T} < /dev/null"),
    _a("sed-empty", "file", "bash", "sed -i d {T}"),
    _a("ln-null", "file", "bash", "ln -sf /dev/null {T}"),
    _a("install-over", "file", "bash", "install -m 644 /dev/null {T}"),
    _a(
        "py-remove",
        "file",
        "bash",
        "python3 -c \"import os; os.remove('{Q}')\"",
        needs_literal=True,
    ),
    _a("perl-unlink", "file", "bash", "perl -e 'unlink \"{Q}\"'", needs_literal=True),
    _a("unknown-verb-file", "file tree home", "bash", "fsadm-x delete {T}"),
    _a("unknown-option-file", "file tree home", "bash", "blobtool --erase {T}"),
    _a("srm", "file tree home", "bash", "srm -r {T}"),
    # --- bash: trees and homes
    _a("rm-rf", "tree home", "bash", "rm -rf {T}"),
    _a("rm-rf-contents", "tree", "bash", "rm -rf {T}/*"),
    _a("find-exec-rm", "tree home", "bash", "find {T} -mindepth 1 -exec rm -rf {{}} +"),
    _a("chmod-000", "tree", "bash", "chmod -R 000 {T}"),
    _a("chown-tree", "tree", "bash", "chown -R nobody:nogroup {T}"),
    _a("rsync-delete", "tree home", "bash", "rsync -a --delete /tmp/empty/ {T}/"),
    _a(
        "py-rmtree",
        "tree home",
        "bash",
        "python3 -c \"import shutil; shutil.rmtree('{Q}')\"",
        needs_literal=True,
    ),
    _a(
        "node-rmsync",
        "tree home",
        "bash",
        "node -e \"require('fs').rmSync('{Q}', {{recursive: true, force: true}})\"",
        needs_literal=True,
    ),
    _a(
        "perl-remove-tree",
        "tree home",
        "bash",
        "perl -MFile::Path=remove_tree -e 'remove_tree(\"{Q}\")'",
        needs_literal=True,
    ),
    _a("rclone-purge", "tree home", "bash", "rclone purge {T}"),
    _a("rclone-delete", "tree home", "bash", "rclone delete {T}"),
    _a("unknown-destroy-tree", "tree home", "bash", "zztool destroy {T}"),
    _a("unknown-purge-opt", "tree home", "bash", "cleanerd --purge-all {T}"),
    _a("busybox-rm", "tree home", "bash", "busybox rm -rf {T}"),
    # --- bash: disks
    _a("dd-zero", "disk", "bash", "dd if=/dev/zero of={T} bs=1M"),
    _a("dd-random", "disk", "bash", "dd if=/dev/urandom of={T} bs=4M status=progress"),
    _a("wipefs-a", "disk", "bash", "wipefs -a {T}"),
    _a("sgdisk-zap", "disk", "bash", "sgdisk -Z {T}"),
    _a("sgdisk-zap-all", "disk", "bash", "sgdisk --zap-all {T}"),
    _a("blkdiscard", "disk", "bash", "blkdiscard -f {T}"),
    _a("shred-disk", "disk", "bash", "shred -n 1 -v {T}"),
    _a("mkfs", "disk", "bash", "mkfs.ext4 -F {T}"),
    _a("newfs", "disk baredisk", "bash", "newfs -U {T}"),
    _a("gpart-destroy", "disk baredisk", "bash", "gpart destroy -F {T}"),
    _a("gpart-create", "disk baredisk", "bash", "gpart create -s gpt {T}"),
    _a("cat-random", "disk", "bash", "cat /dev/urandom > {T}"),
    _a("pv-zero", "disk", "bash", "pv /dev/zero > {T}"),
    _a("parted-mklabel", "disk", "bash", "parted -s {T} mklabel gpt"),
    _a("sfdisk-delete", "disk", "bash", "sfdisk --delete {T}"),
    _a("hdparm-erase", "disk", "bash", "hdparm --user-master u --security-erase p {T}"),
    _a("diskutil-erase", "disk baredisk", "bash", "diskutil eraseDisk APFS Blank {T}"),
    _a("diskutil-zero", "disk baredisk", "bash", "diskutil zeroDisk {T}"),
    _a("unknown-wipe-disk", "disk baredisk", "bash", "diskmgr wipe {T}"),
    _a("unknown-destroy-disk", "disk baredisk", "bash", "storctl destroy {T}"),
    _a("unknown-erase-opt-disk", "disk baredisk", "bash", "flashtool --erase {T}"),
    _a("unknown-zap-disk", "disk baredisk", "bash", "partx-ng zap {T}"),
    _a("unknown-format-disk", "disk baredisk", "bash", "mediatool format {T}"),
    _a("camcontrol-erase", "baredisk", "bash", "camcontrol security {T} -U user -s pw -e pw"),
    _a("zpool-labelclear", "disk baredisk", "bash", "zpool labelclear -f {T}"),
    _a(
        "python-write-disk",
        "disk",
        "bash",
        "python3 -c \"open('{Q}', 'wb').write(bytes(512))\"",
        needs_literal=True,
    ),
    # --- bash: the converse
    _a("cat", "file", "bash", "cat {T}", NOT_DANGEROUS),
    _a("ls-l", "file tree home", "bash", "ls -l {T}", NOT_DANGEROUS),
    _a("sha256sum", "file", "bash", "sha256sum {T}", NOT_DANGEROUS),
    _a("cp-backup", "file", "bash", "cp {T} /tmp/backup/", NOT_DANGEROUS),
    _a("tar-backup", "file tree home", "bash", "tar czf /tmp/backup.tgz {T}", NOT_DANGEROUS),
    _a("du", "tree home", "bash", "du -sh {T}", NOT_DANGEROUS),
    _a("find-name", "tree home", "bash", "find {T} -name '*.conf'", NOT_DANGEROUS),
    _a("rsync-from", "tree home", "bash", "rsync -a {T}/ /mnt/backup/copy/", NOT_DANGEROUS),
    _a("echo-rm", "file tree home disk baredisk", "bash", "echo 'rm -rf {T}'", NOT_DANGEROUS),
    _a(
        "grep-pattern",
        "file tree home disk baredisk",
        "bash",
        "grep -rn 'wipefs -a {T}' docs/",
        NOT_DANGEROUS,
    ),
    _a("comment", "file tree home disk baredisk", "bash", "# shred -u {T}\nls", NOT_DANGEROUS),
    _a("stat", "file tree", "bash", "stat {T}", NOT_DANGEROUS),
    _a("lsblk", "disk", "bash", "lsblk {T}", NOT_DANGEROUS),
    _a("fdisk-l", "disk", "bash", "fdisk -l {T}", NOT_DANGEROUS),
    _a("blkid", "disk", "bash", "blkid {T}", NOT_DANGEROUS),
    _a("smartctl", "disk", "bash", "smartctl -a {T}", NOT_DANGEROUS),
    _a("dd-read", "disk", "bash", "dd if={T} of=/tmp/mbr.bin bs=512 count=1", NOT_DANGEROUS),
    _a("gpart-show", "disk baredisk", "bash", "gpart show {T}", NOT_DANGEROUS),
    _a("diskutil-list", "disk baredisk", "bash", "diskutil list {T}", NOT_DANGEROUS),
    _a("diskutil-info", "disk baredisk", "bash", "diskutil info {T}", NOT_DANGEROUS),
    _a("wipefs-list", "disk", "bash", "wipefs {T}", NOT_DANGEROUS),
    _a("sgdisk-print", "disk", "bash", "sgdisk -p {T}", NOT_DANGEROUS),
    _a("parted-print", "disk", "bash", "parted {T} print", NOT_DANGEROUS),
    _a("hdparm-info", "disk", "bash", "hdparm -I {T}", NOT_DANGEROUS),
    _a("wipe-dry-run", "disk", "bash", "wipefs --all --no-act {T}", NOT_DANGEROUS),
    # --- PowerShell
    _a("ps-remove-item", "file", "powershell", "Remove-Item -Force {T}"),
    _a("ps-remove-literal", "file", "powershell", "Remove-Item -LiteralPath {T} -Force"),
    _a("ps-clear-content", "file", "powershell", "Clear-Content {T}"),
    _a("ps-set-content", "file", "powershell", "Set-Content -Path {T} -Value ''"),
    _a("ps-out-file", "file", "powershell", "'' | Out-File -FilePath {T}"),
    _a("ps-move-item", "file tree home", "powershell", r"Move-Item {T} D:\old"),
    _a(
        "ps-file-delete",
        "file",
        "powershell",
        '[System.IO.File]::Delete("{Q}")',
        needs_literal=True,
    ),
    _a("ps-del-alias", "file", "powershell", "del {T} -Force"),
    _a("ps-cmd-del", "file", "powershell", "cmd /c del /f /q {T}"),
    _a("ps-remove-recurse", "tree home", "powershell", "Remove-Item -Recurse -Force {T}"),
    _a("ps-rm-alias", "tree home", "powershell", "rm -r -fo {T}"),
    _a(
        "ps-gci-remove",
        "tree home",
        "powershell",
        "Get-ChildItem {T} -Recurse | Remove-Item -Force -Recurse",
    ),
    _a(
        "ps-dir-delete",
        "tree home",
        "powershell",
        '[System.IO.Directory]::Delete("{Q}", $true)',
        needs_literal=True,
    ),
    _a("ps-rd-alias", "tree home", "powershell", "rd {T} -Recurse -Force"),
    _a("ps-icacls-deny", "tree", "powershell", "icacls {T} /deny Everyone:F /T"),
    _a("ps-unknown-destroy", "file tree home disk", "powershell", "fstool.exe destroy {T}"),
    _a(
        "ps-write-disk",
        "disk",
        "powershell",
        '$s = [System.IO.File]::OpenWrite("{Q}"); $s.Write((New-Object byte[] 512), 0, 512)',
        needs_literal=True,
    ),
    _a("ps-get-item", "file tree home", "powershell", "Get-Item {T}", NOT_DANGEROUS),
    _a("ps-gci", "tree home", "powershell", "Get-ChildItem {T}", NOT_DANGEROUS),
    _a("ps-hash", "file", "powershell", "Get-FileHash {T}", NOT_DANGEROUS),
    _a(
        "ps-copy-from",
        "file tree home",
        "powershell",
        r"Copy-Item {T} D:\backup -Recurse",
        NOT_DANGEROUS,
    ),
    _a("ps-test-path", "file tree home disk", "powershell", "Test-Path {T}", NOT_DANGEROUS),
    _a(
        "ps-write-output",
        "file tree home disk",
        "powershell",
        'Write-Output "Remove-Item -Recurse {Q}"',
        NOT_DANGEROUS,
        needs_literal=True,
    ),
    _a(
        "ps-whatif",
        "file tree home",
        "powershell",
        "Remove-Item -Recurse -Force {T} -WhatIf",
        NOT_DANGEROUS,
    ),
    # --- cmd
    _a("cmd-del", "file", "cmd", "del /f /q {T}"),
    _a("cmd-erase", "file", "cmd", "erase /f /a {T}"),
    _a("cmd-type-nul", "file", "cmd", "type nul > {T}"),
    _a("cmd-copy-nul", "file", "cmd", "copy /y nul {T}"),
    _a("cmd-move", "file tree home", "cmd", r"move {T} D:\old"),
    _a("cmd-rd", "tree home", "cmd", "rd /s /q {T}"),
    _a("cmd-rmdir", "tree home", "cmd", "rmdir /s /q {T}"),
    _a("cmd-del-tree", "tree home", "cmd", "del /s /q /f {T}\\*"),
    _a("cmd-robocopy-mir", "tree home", "cmd", r"robocopy C:\empty {T} /MIR"),
    _a("cmd-icacls-deny", "tree", "cmd", "icacls {T} /deny Everyone:F /T"),
    _a("cmd-unknown-wipe", "file tree home disk", "cmd", "vtool.exe wipe {T}"),
    _a("cmd-dir", "file tree home", "cmd", "dir {T}", NOT_DANGEROUS),
    _a("cmd-copy-from", "file tree home", "cmd", r"copy {T} D:\backup\ ", NOT_DANGEROUS),
    _a("cmd-echo", "file tree home disk", "cmd", "echo del /f /q {T}", NOT_DANGEROUS),
    _a("cmd-robocopy-from", "tree home", "cmd", r"robocopy {T} D:\backup /E", NOT_DANGEROUS),
)

# Wrappers: a destroying command keeps its level inside each.
WRAPPERS: dict[str, tuple[str, ...]] = {
    "bash": (
        "{C}",
        "sudo {C}",
        "env LC_ALL=C {C}",
        "sh -c {QC}",
        "bash -c {QC}",
        "eval {QC}",
        "f() { {C}; }; f",
        "timeout 60 {C}",
        "true && {C}",
        "( {C} )",
        "nice -n 10 {C}",
    ),
    "powershell": (
        "{C}",
        "& { {C} }",
        "Invoke-Expression {PQC}",
        "function f { {C} }; f",
        "if ($true) { {C} }",
        "powershell -NoProfile -Command {PQC}",
    ),
    "cmd": (
        "{C}",
        "cmd /c {C}",
        "if exist C:\\ ({C})",
        "call {C}",
    ),
}
# Converse rows are checked plain only: a wrapper adds its own level (sudo is critical).
CONVERSE_WRAPPERS = ("{C}",)


@dataclass(frozen=True)
class Row:
    command: str
    shell: str
    expected: str
    split: str
    target: str
    action: str
    wrapper: int


def _quote_in(target: Target, shell: str) -> str:
    text = target.cmd_text if shell == "cmd" and target.cmd_text else target.text
    return text.strip('"')


def _spell(target: Target, shell: str) -> str:
    if shell == "cmd" and target.cmd_text:
        return target.cmd_text
    return target.text


CREDENTIAL_STORES = frozenset(
    [
        "etc-shadow",
        "etc-gshadow",
        "bsd-master-passwd",
        "bsd-spwd-db",
        "mac-private-master",
        "win-sam",
        "win-system-hive",
        "win-security-hive",
        "win-ntds",
        "win-sam-envvar",
        "mac-sys-keychains",
        "mac-user-keychains",
    ]
)
_COPIES = frozenset(["cp-backup", "tar-backup", "rsync-from", "ps-copy-from", "cmd-copy-from"])


def _fits(target: Target, action: Action) -> bool:
    if target.kind not in action.kinds:
        return False
    if target.key in CREDENTIAL_STORES and action.key in _COPIES:
        return False
    if (target.family == "windows") != (action.shell != "bash"):
        return False
    if action.needs_literal and not target.literal:
        return False
    # chmod/chown of a home is not in the matrix (only of system trees)
    return not (target.kind == "home" and action.key in ("chmod-000", "chown-tree"))


def _wrap(wrapper: str, command: str, shell: str) -> str:
    qc = shlex.quote(command) if shell == "bash" else command
    pqc = "'" + command.replace("'", "''") + "'"
    return wrapper.replace("{QC}", qc).replace("{PQC}", pqc).replace("{C}", command)


def rows() -> Iterator[Row]:
    """Every row: each fitting (target, action) plain, and in two wrappers picked by hash."""
    for target in TARGETS:
        for action in ACTIONS:
            if not _fits(target, action):
                continue
            command = action.template.replace("{T}", _spell(target, action.shell)).replace(
                "{Q}", _quote_in(target, action.shell)
            )
            command = command.replace("{{}}", "{}").replace("{{", "{").replace("}}", "}")
            if action.shell == "cmd":
                command = re.sub(r'"([^"]*)"(\\\*)', r'"\1\2"', command)  # `"C:\X"\*` -> `"C:\X\*"`
            split = "dev" if held_out(target.key) or held_out(action.key) else "tune"
            wrappers = WRAPPERS[action.shell] if action.expected == BLOCKED else CONVERSE_WRAPPERS
            picks = {0}
            if len(wrappers) > 1:
                h = int(hashlib.sha256(f"{target.key}|{action.key}".encode()).hexdigest(), 16)
                picks |= {1 + h % (len(wrappers) - 1), 1 + (h // 97) % (len(wrappers) - 1)}
            for w in sorted(picks):
                yield Row(
                    _wrap(wrappers[w], command, action.shell),
                    action.shell,
                    action.expected,
                    split,
                    target.key,
                    action.key,
                    w,
                )


def main() -> None:
    import argparse

    from aintern_ls.safety import RiskLevel, assess

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--misses", choices=("tune", "dev", "all", "none"), default="none")
    ns = ap.parse_args()
    tally: dict[tuple[str, str], list[int]] = {}
    for r in rows():
        got = assess(r.command, r.shell).level
        ok = got == RiskLevel.BLOCKED if r.expected == BLOCKED else got < RiskLevel.DANGEROUS
        t = tally.setdefault((r.split, r.expected), [0, 0])
        t[0] += ok
        t[1] += 1
        if not ok and ns.misses in (r.split, "all"):
            print(f"MISS {r.split} {r.expected:13} {got.label:9} {r.shell:10} {r.command!r}")
    for split in ("tune", "dev"):
        b = tally.get((split, BLOCKED), [0, 0])
        c = tally.get((split, NOT_DANGEROUS), [0, 0])
        print(
            f"{split}: destroying rows blocked {b[0]}/{b[1]} ({b[0] / max(b[1], 1):.3f}); "
            f"converse rows below dangerous {c[0]}/{c[1]} ({c[0] / max(c[1], 1):.3f})"
        )


if __name__ == "__main__":
    main()
