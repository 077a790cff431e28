"""Argument-shape judgement (`safety/shape.py`), as properties over generated commands.

Program names are generated (so no rule can know them), verbs come from the lexicon in
three places (the name, a subcommand, a long option), targets from two shapes (the whole
system, something ordinary) and the level each combination must get follows from the
rule, not from a list of rows:

    verb + whole-system target -> blocked; verb + ordinary target -> dangerous;
    verb + dry-run marker -> moderate (the unknown program's own level); no verb -> moderate.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aintern_ls.safety import RiskLevel, assess, shape
from aintern_ls.safety.analyser import cache_clear
from aintern_ls.safety.registry import HANDLERS
from tests.safety._levels import B, C, D, M, S
from tests.safety._levels import level as _level

STRONG = ["delete", "remove", "destroy", "purge", "wipe", "erase", "nuke", "shred"]
SYSTEM = ["/", "/*", "~", "~/", "$HOME", "/etc", "/usr", "/home", "/var/lib", "/dev/sda"]
SYSTEM += ["/dev/nvme0n1", "/boot", "/etc/*", "/usr/bin", "/Users", "/dev/mapper/vg0-root"]
ORDINARY = ["build/", "./dist", "cache", "old.log", "/tmp/job-42/out", "~/projects/x/tmp"]
ORDINARY += ["data-01", "node_modules"]
DRY = ["--dry-run", "--simulate", "--what-if", "--noop", "--test", "--dryrun"]
# Syllables that make names nobody wrote rules for.
SYL = ["frob", "zork", "quix", "blor", "vend", "acme", "plim", "trax", "mur", "dex"]
TAIL = ["ctl", "-cli", "tool", "", "-agent", "adm", "d"]

syllable = st.sampled_from(SYL)
tail = st.sampled_from(TAIL)


@st.composite
def program(draw: st.DrawFn) -> str:
    name = draw(syllable) + draw(syllable) + draw(tail)
    assume(name not in HANDLERS and shape.name_verb(name) is None)
    return name


def _q(target: str) -> str:
    # `$HOME` must stay a parameter; the rest is quoted only when the shell needs it.
    return target if target.startswith(("$", "~")) or target == "/*" else shlex.quote(target)


# --- unknown programs: verb x target shape x dry run ----------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    prog=program(),
    verb=st.sampled_from(STRONG),
    where=st.sampled_from(["name", "sub", "sub2", "option"]),
    system=st.booleans(),
    data=st.data(),
)
def test_verb_and_target_shape_decide_the_level(
    prog: str, verb: str, where: str, system: bool, data: st.DataObject
) -> None:
    target = data.draw(st.sampled_from(SYSTEM if system else ORDINARY))
    if where == "name":
        cmd = f"{verb}-{prog} {_q(target)}"
    elif where == "sub":
        cmd = f"{prog} {verb} {_q(target)}"
    elif where == "sub2":
        cmd = f"{prog} volume {verb} --force {_q(target)}"
    else:
        cmd = f"{prog} --{verb} {_q(target)}"
    got = _level(cmd)
    assert got == (B if system else D), f"{cmd!r} assessed {got.label}"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    prog=program(),
    verb=st.sampled_from(STRONG),
    target=st.sampled_from(SYSTEM + ORDINARY),
    dry=st.sampled_from(DRY),
)
def test_a_dry_run_marker_leaves_the_unknown_programs_moderate(
    prog: str, verb: str, target: str, dry: str
) -> None:
    cmd = f"{prog} {verb} {dry} {_q(target)}"
    assert _level(cmd) == M, cmd


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(prog=program(), target=st.sampled_from(SYSTEM + ORDINARY))
def test_no_verb_no_change(prog: str, target: str) -> None:
    """`frobnicate /`, `foo --root /`, `mytool ls /`: without a verb nothing is added."""
    for cmd in (
        f"{prog} {_q(target)}",
        f"{prog} --root {_q(target)} build",
        f"{prog} ls {_q(target)}",
        f"{prog} list --deleted {_q(target)}",
        f"{prog} show delete-policy {_q(target)}",
    ):
        assert _level(cmd) == M, cmd


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(prog=program(), verb=st.sampled_from(STRONG), target=st.sampled_from(SYSTEM))
def test_help_and_version_are_not_actions(prog: str, verb: str, target: str) -> None:
    for cmd in (f"{prog} {verb} --help", f"{verb}-{prog} --version", f"{prog} help {verb}"):
        assert _level(cmd) == M, cmd


@pytest.mark.parametrize("verb", ["clean", "cleanup", "prune", "clear"])
def test_weak_verbs_need_force_or_all(verb: str) -> None:
    assert _level(f"zorkblor {verb}") == M
    assert _level(f"zorkblor {verb} ./dist") == M
    assert _level(f"zorkblor {verb} --force ./dist") == D
    assert _level(f"zorkblor {verb} --all ~") == B


@pytest.mark.parametrize("verb", ["format", "reformat"])
def test_format_only_destroys_a_disk(verb: str) -> None:
    assert _level(f"zorkblor {verb} /dev/sdb") == B
    assert _level(f"zorkblor {verb} src/") == M  # a code formatter
    assert _level(f"zorkblor {verb} -w .") == M


# --- wrapped: the wrapper does not hide the shape -------------------------------------------


def _wrapped(inner: str) -> Iterator[tuple[str, RiskLevel]]:
    yield f"sudo {inner}", C  # sudo itself is critical: the floor under a wrapped wipe
    yield f"env FOO=1 {inner}", S
    yield f"sh -c {shlex.quote(inner)}", S
    yield f"timeout 30 {inner}", S
    yield f"nohup {inner}", S


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    prog=program(),
    verb=st.sampled_from(STRONG),
    system=st.booleans(),
    data=st.data(),
)
def test_wrappers_keep_the_shape(prog: str, verb: str, system: bool, data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(SYSTEM if system else ORDINARY))
    inner = f"{prog} {verb} {_q(target)}"
    for cmd, floor in _wrapped(inner):
        want = B if system else max(D, floor)
        assert _level(cmd) == want, cmd


@pytest.mark.parametrize("target", ["/", "/etc", "/home"])
def test_xargs_supplies_the_target(target: str) -> None:
    assert _level(f"echo {target} | xargs plimtrax delete") == B
    assert _level(f"printf '%s\\n' {target} | xargs -r plimtrax --purge") == B


def test_run_time_program_name_with_a_wipe_shape() -> None:
    assert _level("$TOOL wipe --all /") == B
    assert _level("T=frobzork; $T purge --all ~") == B


# --- PowerShell and cmd ---------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["Remove", "Clear", "Reset", "Uninstall"])
@pytest.mark.parametrize("noun", ["Frobnicate", "ZorkCache", "AcmeData"])
def test_powershell_verb_noun_cmdlets(verb: str, noun: str) -> None:
    cmdlet = f"{verb}-{noun}"
    ps = "powershell"
    assert _level(f"{cmdlet} -Path C:\\ -Recurse", ps) == B
    assert _level(f"{cmdlet} -LiteralPath $env:USERPROFILE -Recurse -Force", ps) == B
    assert _level(f"{cmdlet} -Path C:\\Windows", ps) == B
    assert _level(f"{cmdlet} -Path C:\\temp\\x", ps) == D
    assert _level(f"{cmdlet} -Path C:\\ -Recurse -WhatIf", ps) == M


@pytest.mark.parametrize("verb", ["Wipe", "Delete", "Nuke", "Purge", "Erase", "Destroy"])
def test_powershell_unapproved_destroy_verbs(verb: str) -> None:
    assert _level(f"{verb}-Things C:\\Users", "powershell") == B
    assert _level(f"{verb}-Things -Name app", "powershell") == D


@pytest.mark.parametrize("verb", STRONG)
def test_cmd_unknown_program(verb: str) -> None:
    assert _level(f"zorkplim {verb} C:\\", "cmd") == B
    assert _level(f"zorkplim /{verb} C:\\Windows", "cmd") == B
    assert _level(f"zorkplim {verb} C:\\build\\out", "cmd") == D


# --- volume managers the analyser models: escalation and dry runs ---------------------------

ZFS_SYSTEM = ["rpool/ROOT", "rpool/ROOT/ubuntu_x1", "zroot/ROOT/default", "rpool/USERDATA"]
ZFS_SYSTEM += ["tank/home", "zroot/usr/home", "rpool", "tank/home/alice", "tank/data@%"]
ZFS_ORDINARY = ["tank/scratch", "tank/data@2024-01-01", "pool/vm-100-disk-0", "backup/old"]
ZFS_SYSTEM += ["tank", "backup"]  # a pool's own dataset: the whole pool
LV_SYSTEM = ["vg0/root", "/dev/vg0/root", "/dev/mapper/vg0-root", "ubuntu-vg/ubuntu-lv"]
LV_SYSTEM += ["fedora/root", "/dev/mapper/centos-home", "rhel/var", "vg0", "vg0/lv_root"]
LV_SYSTEM += ["vg_data", "vg0/system-root"]  # a VG alone: every volume in it (a whole pool)
LV_ORDINARY = ["vg0/scratch", "data/backup_lv", "/dev/vmdata/vm-101-disk-0"]


@pytest.mark.parametrize("ds", ZFS_SYSTEM + ZFS_ORDINARY)
@pytest.mark.parametrize("flags", ["", "-r ", "-f ", "-R "])
def test_zfs_destroy(ds: str, flags: str) -> None:
    system = ds in ZFS_SYSTEM
    assert _level(f"zfs destroy {flags}{ds}") == (B if system else D)
    assert _level(f"zfs destroy -n {flags}{ds}") == S  # a modelled dry run (session 13)
    assert _level(f"sudo zfs destroy -nv {flags}{ds}") == C  # sudo's own level


@pytest.mark.parametrize("lv", LV_SYSTEM + LV_ORDINARY)
@pytest.mark.parametrize("prog", ["lvremove", "lvremove -f", "lvremove -y", "lvm lvremove -f"])
def test_lvremove(lv: str, prog: str) -> None:
    assert _level(f"{prog} {lv}") == (B if lv in LV_SYSTEM else D)
    assert _level(f"{prog} --test {lv}") == S  # a modelled dry run (session 13)
    assert _level(f"{prog} -t {lv}") == S


@pytest.mark.parametrize(
    "vg,level", [("ubuntu-vg", B), ("vg0", B), ("pve", B), ("rhel", B), ("vg_data", B)]
)
def test_vgremove(vg: str, level: RiskLevel) -> None:
    assert _level(f"vgremove -ff {vg}") == level
    assert _level(f"vgremove --test {vg}") == S


@pytest.mark.parametrize(
    "path,level",
    [
        ("/", B),
        ("/home", B),
        ("/mnt/@", B),
        ("/mnt/@home", B),
        ("/.snapshots/42/snapshot", D),
        ("/srv/containers/abc", D),
        ("/mnt/btrfs/root", B),
        ("/mnt/top/@rootfs", B),
        ("/mnt/data/projects", D),
    ],
)
def test_btrfs_subvolume_delete(path: str, level: RiskLevel) -> None:
    assert _level(f"btrfs subvolume delete {path}") == level
    assert _level(f"btrfs subvolume list {path}") == S


def test_read_only_volume_queries_are_safe() -> None:
    for cmd in ("zfs list -t snapshot", "lvs", "vgs ubuntu-vg", "zpool status rpool"):
        assert _level(cmd) == S, cmd


def test_other_modelled_programs_keep_their_own_judgement() -> None:
    # Only volume managers are escalated: elsewhere `/` may be a key space, not a folder.
    assert _level("etcdctl del / --prefix") == D
    # The program's own judgement stands for files inside system folders and for filters.
    assert _level("del /q C:\\Windows\\cert.exe", "cmd") < B
    assert _level("find / -name '*.pyc' -delete") < B


# --- look-alikes: text, searches, listings ---------------------------------------------------


@pytest.mark.parametrize(
    "cmd",
    [
        "man lvremove",
        'echo "zfs destroy -r rpool/ROOT"',
        "grep -r delete /etc",
        "rg -n wipe /usr/share/doc",
        "git log --grep=delete",
        "# vgremove -f ubuntu-vg",
        "apropos delete",
        "which lvremove vgremove",
    ],
)
def test_look_alikes_are_not_flagged(cmd: str) -> None:
    assert _level(cmd) < D, cmd


# --- the shape module is what finds these ----------------------------------------------------


def test_switching_the_shape_module_off_loses_the_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [
        ("nuke-tool ~", "bash", B),
        ("frob purge --all ~", "bash", B),
        ("zorkblor delete build/", "bash", D),
        ("lvremove -f vg0/root", "bash", B),
        ("zfs destroy -r rpool/ROOT", "bash", B),
        ("zfs destroy -rn rpool/ROOT", "bash", S),
        ("Remove-Frobnicate -Path C:\\ -Recurse", "powershell", B),
        ("zorkplim delete C:\\", "cmd", B),
    ]
    cache_clear()
    for cmd, shell, level in rows:
        assert _level(cmd, shell) == level, cmd
    monkeypatch.setattr(shape, "ENABLED", False)
    cache_clear()
    try:
        for cmd, shell, level in rows:
            got = assess(cmd, shell)
            assert got.level != level, f"{cmd!r} still {level.label} without the shape module"
            assert not any(f.rule.startswith("shape-") for f in got.findings)
    finally:
        monkeypatch.setattr(shape, "ENABLED", True)
        cache_clear()


def test_the_reason_names_the_program_and_the_target() -> None:
    found = assess("nuke-tool ~").findings[0]
    assert found.rule == "shape-wipe"
    assert "`nuke-tool` is not known here" in found.reason
    assert "home" in found.reason
    found = assess("lvremove -f vg0/root").findings[0]
    assert found.rule == "shape-wipe" and "vg0/root" in found.reason


# --- second round: SQL, switch values, drive letters, snapshot globs, keywords -------------


@pytest.mark.parametrize(
    "sql",
    [
        "DROP DATABASE shop",
        "drop table orders",
        "TRUNCATE events",
        "DELETE FROM users",
        "FLUSHALL",
        "db.dropDatabase()",
    ],
)
@pytest.mark.parametrize("opt", ["-e", "-q", "--query", "--execute", "-c"])
def test_destructive_sql_handed_to_an_unknown_client(sql: str, opt: str) -> None:
    assert _level(f"zorkdb-client {opt} {shlex.quote(sql)}") == D
    assert _level(f"zorkdb-client {opt} 'SELECT 1'") == M
    assert _level(f"cowsay {shlex.quote(sql)}") < D  # text for a printer is not SQL run


@pytest.mark.parametrize("verb", ["rmdir", "rmtree", "truncate"])
def test_more_strong_verbs(verb: str) -> None:
    assert _level(f"zorkctl {verb} /etc") == B
    assert _level(f"zorkctl {verb} ./out") == D


@pytest.mark.parametrize("switch", ["/wipe:all", "/purge:yes", "--wipe=all", "--delete-all"])
def test_verb_switches_with_values(switch: str) -> None:
    assert _level(f"plimd {switch} C:\\", "cmd") == B
    assert _level(f"plimd {switch} C:\\build", "cmd") == D


@pytest.mark.parametrize("letter", ["C", "D", "c"])
def test_powershell_drive_letter_parameter(letter: str) -> None:
    assert _level(f"Remove-AcmeData -DriveLetter {letter} -Force", "powershell") == B
    assert _level("Remove-AcmeData -Name C -Force", "powershell") == D


@pytest.mark.parametrize("verb", ["sanitize", "zeroize", "overwrite", "format"])
def test_device_only_verbs(verb: str) -> None:
    assert _level(f"zorkctl {verb} /dev/sdb") == B
    assert _level(f"zorkctl {verb} input.html") == M


def test_every_snapshot_by_glob_is_the_backups() -> None:
    assert _level("btrfs subvolume delete /.snapshots/*/snapshot") == B
    assert _level("btrfs subvolume delete /.snapshots/42/snapshot") == D


@pytest.mark.parametrize("kw", ["do", "then", "else", "done", "foreach"])
def test_shell_keywords_are_not_programs(kw: str) -> None:
    # Text in the wrong shell (`do rm $i` in PowerShell) is not an unknown deleter.
    assert shape.read_command(kw, ["rm", "build"], "powershell") is None
    assert shape.read_command("x=aaa;", ["rm", "-rf", "x"], "cmd") is None


@pytest.mark.parametrize(
    "cmd",
    ["rclone purge -n remote:b", "borg prune -n /repo", "restic forget -n --prune"],
)
def test_documented_short_dry_runs_of_known_programs(cmd: str) -> None:
    assert _level(cmd) == S
    assert _level(cmd.replace(" -n", "")) >= D


def test_a_short_n_is_an_unknown_programs_dry_run() -> None:
    # Session-7 convention: `-n` with a destructive verb reads as a dry run (moderate);
    # `-n 5` is a count, not a dry run.
    assert _level("zorkctl purge -n ~") == M
    assert _level("zorkctl purge -nv /") == M
    assert _level("zorkctl purge -n 5 ~") == B


def test_whole_storage_pools() -> None:
    assert _level("stratis pool destroy pool1") == B
    assert _level("zorkctl pool delete tank") == B
    assert _level("stratis filesystem destroy pool1 fs1") == D
    assert _level("lvremove --select 'lv_name=~^tmp' -y") == D  # a selection, not a VG


@pytest.mark.parametrize(
    "cmd",
    [
        "findmnt /",
        "smartctl -a /dev/sda",
        "smartctl -H /dev/nvme0",
        "modinfo -F version e1000e",
        "blockdev --getsize64 /dev/sda",
        "lsscsi",
    ],
)
def test_read_only_disk_queries_are_safe(cmd: str) -> None:
    assert _level(cmd) == S


def test_changing_a_drive_is_not_a_query() -> None:
    assert _level("smartctl -t long /dev/sda") == M
    assert _level("blockdev --setro /dev/sda") == M
