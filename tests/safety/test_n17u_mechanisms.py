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


def _level(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


# 1. Source the block shows, handed to a compiler or single-file launcher, is judged as code.
_SOURCE_RUNS = [
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
    assert _level(command) is B, assess(command, "bash").findings


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
    assert _level(command) < D


def test_a_program_built_but_never_run_is_not_judged_as_run() -> None:
    src = "rustc - -o w <<'EOF'\nfn main(){ std::fs::remove_dir_all(\"/usr\").unwrap(); }\nEOF"
    assert _level(src) < C


# 2. Firmware flash writes and erases, by every flasher; reads stay reads.
@pytest.mark.parametrize(
    "command",
    [
        "flashrom -p internal -w coreboot.rom",
        "flashrom --programmer=ch341a_spi --write=bios.bin",
        "flashprog -p internal -w x.rom",
        "flashrom -p internal -E",
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
    assert _level(line) is B, assess(line, "bash").findings


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
    assert _level(command) is S, assess(command, "bash").findings


def test_firmware_update_through_the_os_updater_is_moderate() -> None:
    assert _level("fwupdmgr update") is M


def test_afu_on_windows_is_blocked() -> None:
    assert _level("AFUWINx64.exe BIOS.ROM /P /B /N", "cmd") is B


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
    assert _level(wrap.format(command)) is B


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
    assert _level(command) < D
