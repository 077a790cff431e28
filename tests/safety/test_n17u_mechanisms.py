"""Session 17 (n17u): mechanisms for Unix/macOS/cloud families, each tested across spellings,
wrappers and a harmless neighbour (sources_n17u.tsv holds the labelled corpus rows)."""

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


# 1. Source the block shows, handed to a compiler or single-file launcher, is judged as code.
_SOURCE_RUNS = [
    "cat > w.hs <<'EOF'\nimport System.Directory\nmain = removeDirectoryRecursive \"/etc\"\nEOF\n"
    "runghc w.hs",
    "cat > w.dart <<'EOF'\nimport 'dart:io';\n"
    "void main() { Directory('/usr').deleteSync(recursive: true); }\nEOF\ndart run w.dart",
    "cat > w.dart <<'EOF'\nimport 'dart:io';\n"
    "void main() { Process.runSync('rm', ['-rf', '/']); }\nEOF\ndart w.dart",
    "cat > w.cr <<'EOF'\nsystem(\"rm -rf ~\")\nEOF\ncrystal run w.cr",
    "echo 'fn main(){ std::fs::remove_dir_all(\"/usr\").unwrap(); }' | rustc - && ./rust_out",
    "cat > W.java <<'EOF'\nclass W { public static void main(String[] a) throws Exception {"
    ' Runtime.getRuntime().exec("rm -rf /etc"); } }\nEOF\njavac W.java && java W',
    'cat > w.go <<\'EOF\'\npackage main\nimport "os"\nfunc main() { os.RemoveAll("/etc") }\nEOF\n'
    "go build -o w w.go && ./w",
    "rustc - -o w <<'EOF'\nfn main(){ std::fs::remove_dir_all(\"/usr\").unwrap(); }\nEOF\n./w",
    "cat > k.rs <<'EOF'\nfn main(){ std::fs::remove_file(\"/etc/shadow\").unwrap(); }\nEOF\n"
    "rustc k.rs -o /tmp/k && /tmp/k",
    "cat > a.zig <<'EOF'\nconst std = @import(\"std\");\n"
    'pub fn main() !void { try std.fs.deleteTreeAbsolute("/etc"); }\nEOF\nzig run a.zig',
    "cat > a.nim <<'EOF'\nimport os\nremoveDir(\"/var\")\nEOF\nnim c -r a.nim",
    "cat > a.nim <<'EOF'\nimport os\ndiscard execShellCmd(\"rm -rf ~\")\nEOF\nnim r a.nim",
    "rdmd --eval='import std.file; rmdirRecurse(\"/usr\");'",
    "cat > a.d <<'EOF'\nimport std.file;\nvoid main(){ remove(\"/etc/passwd\"); }\nEOF\n"
    "dmd -run a.d",
    "cat > A.java <<'EOF'\nclass A { public static void main(String[] a) throws Exception {"
    ' java.nio.file.Files.delete(java.nio.file.Paths.get("/etc", "shadow")); } }\nEOF\n'
    "java A.java",
    "cat > a.swift <<'EOF'\nimport Foundation\n"
    'try FileManager.default.removeItem(atPath: "/etc")\nEOF\nswift a.swift',
    "cat > b.swift <<'EOF'\nimport Foundation\n"
    'try FileManager.default.removeItem(atPath: "/usr")\nEOF\nswiftc b.swift -o b && ./b',
    "cat > s.kts <<'EOF'\njava.io.File(\"/etc\").deleteRecursively()\nEOF\nkotlinc -script s.kts",
    "tcc -run - <<'EOF'\nint main(){ return system(\"rm -rf /\"); }\nEOF",
    "gcc-13 -x c - -o /tmp/q <<'EOF'\nint main(){ return system(\"rm -rf ~\"); }\nEOF\n/tmp/q",
    "cc -x c - -o g <<'EOF' && ./g\n#include <stdio.h>\n"
    'int main(){ return remove("/etc/passwd"); }\nEOF',
]


@pytest.mark.parametrize("command", _SOURCE_RUNS)
def test_visible_source_run_by_a_toolchain_is_judged(command: str) -> None:
    assert _rated(command) is B, assess(command, "bash").findings


@pytest.mark.parametrize(
    "command",
    [
        "rustc - -o hi <<'EOF'\nfn main(){ println!(\"remove_dir_all /etc\"); }\nEOF\n./hi",
        "cat > a.zig <<'EOF'\nconst std = @import(\"std\");\n"
        'pub fn main() void { std.debug.print("deleteTree /", .{}); }\nEOF\nzig run a.zig',
        "cat > b.swift <<'EOF'\nprint(\"removeItem /usr\")\nEOF\nswiftc b.swift -o b && ./b",
        "rustc --version",
        "zig run --help",
        "kotlinc -script s.kts",
    ],
)
def test_harmless_or_unreadable_source_is_not_blocked(command: str) -> None:
    assert _rated(command) < D


def test_a_program_built_but_never_run_is_not_judged_as_run() -> None:
    src = "rustc - -o w <<'EOF'\nfn main(){ std::fs::remove_dir_all(\"/usr\").unwrap(); }\nEOF"
    assert _rated(src) < C


# 2. Firmware flash writes and erases, by every flasher; reads stay reads.
@pytest.mark.parametrize(
    "command",
    [
        "flashrom -p internal -w coreboot.rom",
        "flashrom --programmer=ch341a_spi --write=bios.bin",
        "flashprog -p internal -w x.rom",
        "flashrom -p internal -E",
        "flashrom -p internal -Vw bios.rom",
        "flashcp -v fw.bin /dev/mtd2",
        "nandwrite -p /dev/mtd3 rootfs.img",
        "ubiformat /dev/mtd4 -f root.ubi",
        "mtd -r write fw.bin firmware",
        "./afulnx_64 bios.rom /P /B /N",
        "fptw64 -f bios.bin -bios",
        "fwupdtool install-blob fw.bin",
        "dd if=fw.bin of=/dev/mtdblock0",
    ],
)
@pytest.mark.parametrize("wrap", _WRAPS)
def test_firmware_flash_is_blocked_in_every_wrapper(command: str, wrap: str) -> None:
    line = wrap.format(command)
    assert _rated(line) is B, assess(line, "bash").findings


@pytest.mark.parametrize(
    "command",
    [
        "flashrom -p internal -r backup.bin",
        "flashrom --help",
        "nanddump -f nand.img /dev/mtd0",
        "mtd_debug info /dev/mtd0",
        "fwupdmgr get-updates",
        "afulnx_64 saved.rom /O",
        "fptw64 -d backup.bin",
        "echo flashrom -p internal -w x.rom",
    ],
)
def test_firmware_reads_are_safe(command: str) -> None:
    assert _rated(command) is S, assess(command, "bash").findings


def test_firmware_update_through_the_os_updater_is_moderate() -> None:
    assert _rated("fwupdmgr update") is M


def test_afu_on_windows_is_blocked() -> None:
    assert _rated("AFUWINx64.exe BIOS.ROM /P /B /N", "cmd") is B


# 3. An unknown program told a disk layout (not an output format) with a bare disk name.
@pytest.mark.parametrize(
    "command",
    [
        "diskprep --format=quick sdb",
        "partmaker --type=gpt /dev/nvme0n1",
        "imgtool -t mbr mmcblk0",
        "./wipetool --format secure disk2",
        "zapper --fs-type=dos sdc",
    ],
)
@pytest.mark.parametrize("wrap", _WRAPS[:4])
def test_unknown_tool_layout_on_a_bare_disk_is_blocked(command: str, wrap: str) -> None:
    assert _rated(wrap.format(command)) is B


@pytest.mark.parametrize(
    "command",
    [
        "diskinfo --format=json /dev/sda",
        "mytool --format yaml sdb",
        "report --format=quick sdb.log",
        "mytool -t 30 /dev/sdc",
        "mytool --type=disk sda",
    ],
)
def test_output_formats_and_files_are_not_disk_layouts(command: str) -> None:
    assert _rated(command) < D


# 4. A machine trust store emptied by a selector (a glob, find's tests, every cert listed).
@pytest.mark.parametrize(
    "command",
    [
        "rm -f /etc/ssl/certs/*.pem",
        "rm /usr/local/share/ca-certificates/*",
        "rm -f /etc/ca-certificates/trust-source/anchors/*",
        "find /usr/share/ca-certificates -name '*.crt' -delete",
        "find /etc/pki/ca-trust/source/anchors -type f -exec rm -f {} +",
        "ls /etc/ssl/certs/*.pem | xargs rm -f",
        "find /etc/ssl/certs -name '*.pem' | xargs rm -f",
        "security find-certificate -a -Z /Library/Keychains/System.keychain"
        " | awk '/SHA-1/{print $NF}' | xargs -n1 security delete-certificate -Z",
    ],
)
@pytest.mark.parametrize("wrap", _WRAPS[:3])
def test_trust_store_emptied_by_a_selector_is_blocked(command: str, wrap: str) -> None:
    line = wrap.format(command)
    assert _rated(line) is B, assess(line, "bash").findings


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm /usr/local/share/ca-certificates/corp-root.crt", C),
        ("find /usr/local/share/ca-certificates -name corp-root.crt -delete", C),
        ("ls /etc/ssl/certs/*.pem", S),
        ("find /etc/ssl/certs -name '*.pem' -print", S),
        ("security find-certificate -a -p /Library/Keychains/System.keychain", S),
    ],
)
def test_one_certificate_or_a_listing_is_not_the_store(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected, assess(command, "bash").findings


# 5. A count of one picks one snapshot (dangerous); every snapshot stays blocked.
_EVERY_SNAPSHOT = [
    "zfs list -H -t snapshot -o name | {}xargs -n1 zfs destroy",
    "gcloud compute snapshots list --format='value(name)' | {}xargs gcloud compute snapshots"
    " delete --quiet",
]


@pytest.mark.parametrize("lister", _EVERY_SNAPSHOT)
@pytest.mark.parametrize(
    "pick", ["head -1 | ", "head -n1 | ", "tail -n 1 | ", "sed -n 1p | ", "awk 'NR==1' | "]
)
def test_a_count_of_one_is_one_snapshot(lister: str, pick: str) -> None:
    assert _rated(lister.format(pick)) is D


@pytest.mark.parametrize("lister", _EVERY_SNAPSHOT)
@pytest.mark.parametrize("pick", ["", "sort | ", "awk '{print $1}' | ", "tail -n +1 | "])
def test_without_a_count_of_one_every_snapshot_goes(lister: str, pick: str) -> None:
    assert _rated(lister.format(pick)) is B


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Snapshots[0].SnapshotId", D),
        ("Snapshots[-1].SnapshotId", D),
        ("Snapshots[].SnapshotId", B),
    ],
)
def test_a_jmespath_index_picks_one(query: str, expected: RiskLevel) -> None:
    line = (
        f"aws ec2 describe-snapshots --owner-ids self --query '{query}' --output text"
        " | xargs -n1 aws ec2 delete-snapshot --snapshot-id"
    )
    assert _rated(line) is expected


# 6. Kernel module trees: one named older version is scoped; the running one and all are not.
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -rf /lib/modules/5.15.0-91-generic", D),
        ("rm -rf /usr/lib/modules/6.1.0-13-amd64/kernel", D),
        ("cd /lib/modules && rm -rf 5.4.0-42-generic", D),
        ("rm -rf /lib/modules/$(uname -r)", B),
        ("rm -rf /lib/modules/`uname -r`", B),
        ("rm -rf /lib/modules", B),
        ("rm -rf /lib/modules/*", B),
        ("rm -rf /lib/modules/5.*", B),
        ("KV=$(uname -r); rm -rf /lib/modules/$KV", B),
    ],
)
def test_kernel_module_trees(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected


# 7. Confusable letters in command words and options, in every shell.
@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("r\u043c -rf /", "bash"),
        ("\uff52\uff4d -rf ~", "bash"),
        ("r\u200dm -rf /", "bash"),
        ("dd if=/dev/zero \u043ef=/dev/sda", "bash"),
        ("sudo rm -\u0433f /", "bash"),
        ("bash -c 'r\u043c -rf ~'", "bash"),
        ("R\u0435move-Item -Recurse -Force C:\\", "powershell"),
        ("Remove-Item -R\u0435curse -Force C:\\Windows", "powershell"),
        ("\uff52\uff44 /s /q C:\\", "cmd"),
    ],
)
def test_confusable_letters_are_judged_as_the_word_they_imitate(command: str, shell: str) -> None:
    result = assess(command, shell)
    assert result.level is B, result.findings
    assert "confusable-letters" in [f.rule for f in result.findings]


@pytest.mark.parametrize(
    ("command", "shell", "expected"),
    [
        ("echo 'r\u043c -rf /'", "bash", S),
        ("grep '\uff52\uff4d' notes.txt", "bash", S),
        ("ls ~/\u0414\u043e\u043a\u0443\u043c\u0435\u043d\u0442\u044b", "bash", S),
        ('Write-Output "r\u043c -rf /"', "powershell", S),
        ("l\u0455 -la", "bash", M),
    ],
)
def test_confusable_data_is_data(command: str, shell: str, expected: RiskLevel) -> None:
    assert _rated(command, shell) is expected


# 8. az CLI: a group or vault that holds backups deleted whole.
@pytest.mark.parametrize(
    "command",
    [
        "az group delete -n backups-rg --yes",
        "az group delete --resource-group=rg-bkp-prod -y",
        "az resource delete --ids /subscriptions/0/resourceGroups/rg/providers/"
        "Microsoft.RecoveryServices/vaults/rsv1",
        "az resource delete --ids /subscriptions/0/resourceGroups/rg/providers/"
        "Microsoft.Storage/storageAccounts/stbackup01",
        "az resource delete -g rg -n v --resource-type Microsoft.DataProtection/backupVaults",
    ],
)
@pytest.mark.parametrize("wrap", _WRAPS[:3])
def test_az_backup_groups_and_vaults_are_blocked(command: str, wrap: str) -> None:
    assert _rated(wrap.format(command)) is B


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("az group delete -n webapp-rg --yes", D),
        (
            "az resource delete --ids /subscriptions/0/resourceGroups/rg/providers/"
            "Microsoft.Storage/storageAccounts/webassets01",
            D,
        ),
        ("az group show -n backups-rg", S),
    ],
)
def test_az_plain_groups_stay_dangerous(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected


def test_a_deno_delete_of_home_is_blocked() -> None:
    assert _rated("deno eval 'Deno.removeSync(Deno.env.get(\"HOME\"), {recursive: true})'") is B


@pytest.mark.parametrize(
    "command",
    [
        'for f in /usr/local/share/ca-certificates/*.crt; do rm "$f"; done',
        "cd /etc/ssl/certs && rm -f *.pem",
        "cd /usr/local/share/ca-certificates && sudo rm *",
    ],
)
def test_trust_store_emptied_through_a_loop_or_a_cd(command: str) -> None:
    assert _rated(command) is B


def test_a_dash_look_alike_is_a_dash_not_a_disguise() -> None:
    assert _rated("rm \u2014rf /") is B
    assert _rated("ls \u2013la") is S
    assert _rated("powershell \u2013Command Get-Date", "cmd") is S


# 9. Round 15: the single-file CA bundle is the whole store; one macOS system certificate.
@pytest.mark.parametrize(
    "command",
    [
        "rm -f /etc/pki/tls/certs/ca-bundle.crt",
        "rm /etc/ssl/certs/ca-certificates.crt",
        "rm /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
        ": > /etc/pki/tls/certs/ca-bundle.crt",
        "truncate -s 0 /etc/ssl/certs/ca-certificates.crt",
        "cp /dev/null /etc/ssl/cert.pem",
    ],
)
@pytest.mark.parametrize("wrap", _WRAPS[:3])
def test_the_ca_bundle_file_is_the_store(command: str, wrap: str) -> None:
    assert _rated(wrap.format(command)) is B


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat /etc/ssl/certs/ca-certificates.crt", S),
        ("security delete-certificate -c Corp /Library/Keychains/System.keychain", C),
        ("security remove-trusted-cert -d corp.cer", C),
        ("security delete-certificate -c Corp ~/Library/Keychains/login.keychain-db", M),
        ("python3 -c 'import os; os.remove(\"/etc/ssl/certs/ISRG.pem\")'", C),
        ("python3 -c 'import glob,os; [os.remove(f) for f in glob.glob(\"/etc/ssl/certs/*\")]'", B),
    ],
)
def test_one_system_certificate_is_critical(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected


# 10. Proxmox backups: one named vzdump backup or all of them.
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pvesm free local:backup/vzdump-qemu-100-2024_01_01-00_00_00.vma.zst", B),
        ("rm /var/lib/vz/dump/*", B),
        ("rm -f /mnt/pve/nas/dump/vzdump-lxc-101-2024_02_02-01_00_00.tar.zst", B),
        ("pvesm free local-lvm:vm-100-disk-0", D),
        ("pvesm list local --content backup", S),
        ("ls /var/lib/vz/dump", S),
    ],
)
def test_proxmox_backups(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected


# 11. Code that runs: an array subscript, a pipe to a shell, containerd, a manifest on stdin.
@pytest.mark.parametrize(
    "command",
    [
        "a[$(rm -rf ~)]=1",
        "declare -A m; m[$(rm -rf /etc)]=x",
        "echo ${a[$(rm -rf ~)]}",
        'perl -e \'open(my $fh, "|sh"); print $fh "rm -rf ~"\'',
        'perl -e \'open(SH, "| /bin/sh"); print SH "rm -rf /etc"\'',
        'perl -e \'open(my $fh, "|-", "sh"); print $fh "rm -rf ~"\'',
        "ctr run --rm --mount type=bind,src=/,dst=/host,options=rbind:rw"
        " docker.io/library/alpine:latest t rm -rf /host/etc",
        "kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n"
        "  containers:\n  - name: x\n    image: alpine\n"
        '    command: ["sh", "-c", "rm -rf /host/etc"]\n'
        "    volumeMounts:\n    - name: h\n      mountPath: /host\n  volumes:\n  - name: h\n"
        "    hostPath:\n      path: /\nEOF",
    ],
)
def test_code_that_runs_is_judged(command: str) -> None:
    assert _rated(command) is B, assess(command, "bash").findings


@pytest.mark.parametrize(
    "command",
    [
        "a[$(date +%s)]=1",
        'perl -e \'open(my $fh, "|cat"); print $fh "rm -rf ~"\'',
        "ctr run --rm docker.io/library/alpine:latest t ls /",
        "kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n"
        "  containers:\n  - name: x\n    image: alpine\n"
        '    command: ["tail", "-f", "/logs/syslog"]\n'
        "    volumeMounts:\n    - name: h\n      mountPath: /logs\n      readOnly: true\n"
        "  volumes:\n  - name: h\n    hostPath:\n      path: /var/log\nEOF",
    ],
)
def test_harmless_code_stays_low(command: str) -> None:
    assert _rated(command) < D


# 12. An Ant build file shown in the block: its delete and exec tasks run.
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            'ant -f /dev/stdin <<\'EOF\'\n<project default="w"><target name="w">'
            '<delete dir="/etc"/></target></project>\nEOF',
            B,
        ),
        (
            'cat > build.xml <<\'EOF\'\n<project default="w"><target name="w">'
            '<delete dir="${user.home}"/></target></project>\nEOF\nant',
            B,
        ),
        (
            "ant -f /dev/stdin <<'EOF'\n<project><target name=\"w\"><delete>"
            '<fileset dir="/usr/lib"/></delete></target></project>\nEOF',
            B,
        ),
        (
            'ant -f /dev/stdin <<\'EOF\'\n<project default="w"><target name="w">'
            '<echo message="delete dir /etc"/></target></project>\nEOF',
            M,
        ),
        (
            'ant -f /dev/stdin <<\'EOF\'\n<project default="w"><target name="w">'
            '<delete dir="build"/></target></project>\nEOF',
            D,
        ),
    ],
)
def test_ant_build_files(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected, assess(command, "bash").findings


# 13. Backup machinery stopped in a cluster; RMAN's delete-everything verb.
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("kubectl delete cronjob etcd-backup -n kube-system", C),
        ("kubectl scale deployment velero --replicas=0 -n velero", C),
        ("helm uninstall velero -n velero", C),
        ("kubectl delete cronjob cleanup-logs", D),
        ("helm uninstall my-app", D),
        ('rman target / <<< "DELETE NOPROMPT BACKUP;"', B),
        ('echo "DELETE NOPROMPT BACKUP;" | rman target /', B),
        ('rman target / cmd "DELETE NOPROMPT ARCHIVELOG ALL;"', B),
        ('rman target / <<< "DELETE NOPROMPT OBSOLETE;"', D),
        ("rman target / <<< \"DELETE BACKUP COMPLETED BEFORE 'SYSDATE-7';\"", D),
        ('rman target / <<< "LIST BACKUP;"', M),
    ],
)
def test_backup_machinery_and_rman(command: str, expected: RiskLevel) -> None:
    assert _rated(command) is expected
