"""Argument-shape judgement: what a command that is not modelled does, read from its shape.

A program the analyser has no rules for is judged by three things anyone reading the line
would notice (issue 14, session-7 label conventions):

- a destructive *verb* in the program's name (`lvremove`, `zpool-destroy`, `Remove-Foo`,
  `xdelete`), in one of its first subcommand words (`foo purge`, `foo volume delete`) or in a
  long option (`--delete`, `--wipe`, `--purge-all`);
- the *shape of its targets*: the root, a home, a system folder, a raw disk, the system's
  volume group / ZFS pool / root dataset, or `*` in one of those (whole-system), or anything
  else (ordinary);
- generic *dry-run / read-only markers* (`--dry-run`, `--simulate`, `-WhatIf`, `--noop`, a
  `list`/`show`/`status` subcommand).

A verb aimed at a whole-system target is blocked, a verb on an ordinary target dangerous,
a verb with a dry-run marker moderate; no verb, no change (`frobnicate /` stays what it was).
For programs the analyser does model, `escalation` turns a destructive finding whose target
is the whole system into a blocked one, and `volume_dry_run` lowers the dry runs of volume
managers to moderate.

Everything here is a pure function of words; the dispatcher (`dispatch.py`) calls it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import attrs

from aintern_ls.safety.paths import bare_disk, is_device, whole_system
from aintern_ls.safety.words import names

if TYPE_CHECKING:
    from aintern_ls.safety.context import Cmd

# Switched off by tests to prove the findings come from here (`ENABLED = False`).
ENABLED = True

# --- verbs ------------------------------------------------------------------------------------

# Verbs that destroy whatever they are aimed at.
STRONG_VERBS = frozenset(
    names(
        """
        delete del remove rm destroy purge wipe erase nuke zap shred obliterate expunge
        deltree rmrf annihilate eradicate rmdir rmtree truncate
        """
    )
)
# Verbs that only destroy with a force / all / recursive marker (`foo clean --all`,
# `foo prune --all`, `foo reset --hard`): on their own they tidy up.
# (`reset`/`flush` are left out: `dconf reset -f /` and cache flushes name key spaces, not
# folders.)
WEAK_VERBS = frozenset(names("clean cleanup clear prune scrap"))
# `drop` is a database verb (`foo drop database x`): a whole word only (dropbox, dropbear).
WORD_ONLY_VERBS = frozenset(names("drop del rm zap rmrf"))
# `format` destroys a disk, a drive or a volume; aimed at anything else it formats text
# (`clang-format`, `buf format`), so it only counts against a device-like target. So do
# the verbs that also mean tidying text (`sanitize`, `overwrite` a config value).
# Verbs that write an image over what they are aimed at (only a disk or the system volume
# counts: `imgtool restore --target disk0`, `flashtool write /dev/sdb x.img`).
IMAGE_VERBS = frozenset(names("restore flash burn clone reimage image write"))
FORMAT_VERBS = (
    frozenset(names("format reformat mkfs newfs sanitize zeroize zerofill overwrite")) | IMAGE_VERBS
)
# Long verbs that also name programs when glued to another word (`lvremove`, `xdelete`,
# `purgeall`); shorter ones would match ordinary words.
_GLUED = (
    "delete",
    "remove",
    "destroy",
    "purge",
    "wipe",
    "erase",
    "shred",
    "nuke",
    "expunge",
    "format",  # (safety-tgt9) `ubiformat`, `sgformat`: a format verb counts on disks only
)
# Parts that undo a deletion (`undelete`, `unerase`, `restore-deleted`) or only look.
_UNDO = re.compile(r"^(un|re|non|no|anti|pre|dont|skip|keep|list|show|deleted|removed)")

# Read-only or help subcommands: what follows them is not acted on.
READ_SUBCOMMANDS = frozenset(
    names(
        """
        list ls show status get describe info inspect cat view search find grep diff log logs
        history query check verify plan preview explain print help version usage whoami stat
        stats df du top tree dump export lookup
        """
    )
)


def ascii_folded(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A case-sensitive copy of the case-insensitive `pattern`, for ASCII text lowered first:
    it answers as `pattern` does on such text (its letters are all lower case) and sre's
    fast scans work without IGNORECASE (2-4x faster on the program-name tables below, which
    are asked about every command's name). None when `pattern` writes an upper-case letter
    (outside an escape such as `\\A`), which no lowered text would match."""
    source = pattern.pattern
    if source.startswith("(?i)"):
        source = source[4:]
    if not pattern.flags & re.IGNORECASE or any(c.isupper() for c in re.sub(r"\\.", "", source)):
        return None
    folded = re.compile(source, pattern.flags & ~re.IGNORECASE)
    return None if folded.flags & re.IGNORECASE else folded


# Programs whose first operand is text (a pattern, a message, a topic), not a subcommand.
_TEXT_PROGRAM = re.compile(
    r"(grep|search|find|locate|^ack$|^ag$|^pt$|^sift$|^say$|echo|print|figlet|banner|toilet|lolcat"
    r"|notify|speak|tldr|cheat|^man|help|whatis|apropos|howdoi|explain|translate|^trans$"
    r"|^info|^doc|^log$|logger|^wall$|highlight|^bat$|^less$|^more$|pager|^fzf|^jq$|^yq$"
    r"|^awk|^sed$|^tr$)",
    re.I,
)

# Package managers: removing a package is an ordinary change (moderate in the corpora,
# `apt-get remove --purge`, `npm uninstall`), so their verbs only count against the
# whole system (`xbps-remove -R foo`, `guix remove hello`, `tlmgr remove x`).
_PACKAGE_MANAGER = re.compile(
    r"(pkg|pack|^apt|dnf|yum|rpm|conda|mamba|brew|^pip|^gem$|npm|yarn|pnpm|cargo|opkg|xbps"
    r"|emerge|guix|^nix|^port$|tlmgr|swupd|eopkg|flatpak|^snap$|choco|scoop|winget|^sdk$"
    r"|asdf|rustup|opam|cabal|luarocks|cpan|composer|bower|vcpkg|conan|spack|pacman|paru"
    r"|^yay$|pamac|zypper|urpm|install|plugin|extension|addon|module)",
    re.I,
)
_TEXT_PROGRAM_LOW = ascii_folded(_TEXT_PROGRAM) or _TEXT_PROGRAM
_PACKAGE_MANAGER_LOW = ascii_folded(_PACKAGE_MANAGER) or _PACKAGE_MANAGER


# Long options that are themselves the verb (`--delete`, `--wipe`, `--purge-all`,
# `--remove-all`, `--force-delete`).
_VERB_OPTION = re.compile(
    r"^(--?|/)(?!no-)(?:force-?|really-?)?"
    r"(?:(?:delete|wipe|purge|destroy|erase|nuke|shred|zap|obliterate|expunge)(?:[-_][a-z-]*)?"
    # `--remove` and `--remove-all`, but not `--remove-orphans` or docker's `--rm`.
    r"|remove|remove-?all|rm-?all)([=:]\S*)?$",
    re.I,
)
# Options that make a weak verb destroy: everything, forced, recursive, hard.
_FORCE_OPTION = re.compile(
    r"^(--(all|force|everything|hard|recursive|volumes|yes-i-really-mean-it|purge|no-preserve"
    r"|all-?data|include-?data)(=\S*)?|-(?=[a-z]*[fr])[a-z]+|-(force|recurse|all)|/[sfq])$",
    re.I,
)

# Dry runs and read-only modes any program spells the same way (`-n` is NOT here: only a
# program we know says whether its `-n` is a dry run).
_DRY_OPTION = re.compile(
    r"^(--(dry-?run|dryrun|test|simulate|simulation|what-?if|noop|no-?op|check|plan|preview"
    r"|pretend|no-?act|list-only|report-only|show-only|just-print|recon)(=\S*)?|-whatif(:\$true)?"
    r"|/whatif|/test|/simulate|/dryrun)$",
    re.I,
)
_DRY_OFF = re.compile(r"=(false|0|no|off|none)$", re.I)
_HELP = frozenset(names("--help -h -? /? -help --version -V version help --usage -Help"))

# Options whose value is a root, prefix or config, not a target (`--root /`, `-C /`).
_NOT_TARGET_OPTION = re.compile(
    r"^(--?|/)(root|sysroot|prefix|chdir|cwd|workdir|work-dir|working-directory|config|conf"
    r"|log|log-?file|output|out|cache-?dir|state-?dir|home|base-?dir|basedir|c|from|source"
    r"|src|template|ref|profile|context|kubeconfig|region|zone|project)(=.*)?$",
    re.I,
)


@lru_cache(maxsize=4096)
def text_program(name: str) -> bool:
    """A program whose operands are text (a pattern, a topic, a message): `man rm`, `tldr`."""
    if name.isascii():
        return _TEXT_PROGRAM_LOW.search(name.lower()) is not None
    return _TEXT_PROGRAM.search(name) is not None


_text_program = text_program  # (`read_command` has a local of that name)


def plausible_program(name: str) -> bool:
    """A word that can name an installed program: not an option, a switch, a shell keyword
    (`-exec`, `do` left in the command position by a foreign-shell line) or an odd word."""
    return (
        bool(name)
        and not name.startswith(("-", "/"))
        and name.lower() not in _KEYWORDS
        and _PROGRAM_NAME.fullmatch(name) is not None
    )


def dry_run(args: Sequence[str]) -> bool:
    """A generic dry-run marker (`--dry-run`, `-WhatIf`, an unknown program's `-n`)."""
    return any(is_dry_marker(a) for a in args) or _short_n(args)


@lru_cache(maxsize=4096)
def package_manager(name: str) -> bool:
    """A package manager (`guix`, `opkg`, `tlmgr`): its removals are ordinary changes."""
    if name.isascii():
        return _PACKAGE_MANAGER_LOW.search(name.lower()) is not None
    return _PACKAGE_MANAGER.search(name) is not None


def _parts(name: str) -> list[str]:
    """`Remove-FooBar` -> [remove, foo, bar]; `zpool-destroy` -> [zpool, destroy]."""
    base = re.sub(r"\.(exe|com|bat|cmd|ps1|sh|py|pl|rb)$", "", name, flags=re.I)
    base = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", base)
    return [p for p in re.split(r"[-_.\s]+", base.lower()) if p]


_MAKES_FS = re.compile(r"mk[a-z0-9]*fs\d*")


@lru_cache(maxsize=2048)
def name_verb(name: str) -> str | None:
    """The destructive verb a program's name carries (`lvremove` -> remove, `nuke-tool` ->
    nuke, `Remove-Frob` -> remove), None when it carries none. Weak and format verbs come
    back too; callers decide what they need to count."""
    parts = _parts(name)
    for p in parts:
        if p in STRONG_VERBS or p in WEAK_VERBS or (p in FORMAT_VERBS and p not in IMAGE_VERBS):
            return p  # (`image-info`, `write-good`: image verbs count as subcommands only)
        if p.startswith("mk") and _MAKES_FS.fullmatch(p):
            return "mkfs"  # `mkexfatfs`, `mkudffs`: a formatter (counts against a disk only)
    for p in parts:
        if _UNDO.match(p):
            continue
        p = p.rstrip("0123456789")  # `sdelete64`, `nuke2`
        for v in _GLUED:
            if len(p) > len(v) and (p.startswith(v) or p.endswith(v)):
                return v
    return None


_SUBCOMMAND_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,40}$")


@lru_cache(maxsize=4096)  # pure, and asked for every unknown command's first words
def word_verb(word: str) -> str | None:
    """The verb a subcommand word is (`purge`, `delete-all`, `vol-delete`), or None."""
    if not _SUBCOMMAND_WORD.fullmatch(word):
        return None
    parts = _parts(word)
    lexicon = STRONG_VERBS | WEAK_VERBS | FORMAT_VERBS
    if parts and _UNDO.match(parts[0]) and parts[0] not in lexicon:
        return None  # `undelete`, `restore-deleted`, `list-removed`
    for p in parts:
        if p in STRONG_VERBS or p in WEAK_VERBS or p in FORMAT_VERBS:
            return p
    # (safety-tgt9) a verb glued to its object: `deletefile`, `eraseDisk` (split above),
    # `wipedisk`, `destroyall`, `purgeall`
    for v in _GLUED:
        if (
            parts[0].startswith(v)
            and len(parts[0]) > len(v)
            and not _WORD_FORM.fullmatch(parts[0][len(v) :])
        ):
            return v
    return None


# What follows a verb when the word is a form of it, not the verb glued to an object: a past
# tense or a state (`purged`, `shredded`, `erased`), an agent or a noun (`wiper`, `wipeout`,
# `deletion`), a plural (`purges`).
_WORD_FORM = re.compile(r"[a-z]?(?:ed|er|ers|ing|able)|d|s|es|r|rs|out|outs|ion|ions|ment|ments")


def option_verb(word: str) -> bool:
    """`--delete`, `--wipe-all`, `--force-delete`, cmd `/purge`: the option is the verb."""
    return bool(_VERB_OPTION.match(word))


def is_dry_marker(word: str) -> bool:
    # (every spelling of `_DRY_OPTION` starts with `-` or `/`: most words are asked no regex)
    return (
        word[:1] in _DASH_OR_SLASH and bool(_DRY_OPTION.match(word)) and not _DRY_OFF.search(word)
    )


_DASH_OR_SLASH = ("-", "/")


# --- target shapes ------------------------------------------------------------------------------

# ZFS: the root pools installers create and the datasets that hold the system or the homes.
_ROOT_POOL = r"(?:rpool|zroot|bpool|boot-pool|freenas-boot|syspool|zp_root|rootpool)"
_ZFS_SYSTEM = re.compile(
    rf"^(?:{_ROOT_POOL}(?:/.*)?"
    r"|[\w.:-]+/(?:root|ROOT|USERDATA|userdata|home|usr|var|system|os)(?:/[\w.:-]*)*"
    r"|[\w.:-]+/(?:[\w.:-]+/)*(?:home|root|rootfs|users|Users))/?$"
)
# LVM: volume groups installers create (Debian's `<host>-vg`, Ubuntu's `ubuntu-vg`, Fedora/
# RHEL's `fedora`/`rhel`/`cl`, the common `vg0`/`vg00`/`rootvg`), and root/home/usr/var LVs.
_SYSTEM_VG = re.compile(
    r"^(?:vg0{1,2}|vg_?root|rootvg|vg_?system|system|sysvg|[\w.+]+-vg|ubuntu--vg|[\w.+]+--vg"
    r"|fedora|fedora_[\w-]+|rhel|rhel_[\w-]+|centos|centos_[\w-]+|cl|cl_[\w-]+|almalinux"
    r"|rocky|ol|ol_[\w-]+|volgroup0\d|volgroup00|debian-vg|pve|ubuntu-vg|kubuntu-vg|mint-vg"
    r")$",
    re.I,
)
_SYSTEM_LV = re.compile(
    r"^(?:lv[_-]?)?(?:root|rootfs|home|usr|var|boot|system|slash|os|sys)(?:[_-]?lv)?\d*$"
    r"|^ubuntu-lv$|^[\w.+]*[-_](?:root|rootfs|home)$",
    re.I,
)
# Btrfs subvolumes installers create (`@`, `@home`, `@root`, `@rootfs`) and openSUSE's `@/`.
_SYSTEM_SUBVOL = re.compile(r"(^|/)@(?:|home|root|rootfs|usr|var|/\.snapshots|snapshots)/?$")


@attrs.frozen(slots=True)
class Shape:
    """What a target is: `system` (whole-system, wiping it is blocked) with a description."""

    system: bool
    what: str


ORDINARY = Shape(False, "")


def lvm_shape(text: str, whole_vg: bool) -> Shape:
    """An LVM name (`vg0/root`, `/dev/vg0/root`, `/dev/mapper/vg0-root`, or a VG name when
    `whole_vg`): the system's root/home/usr/var volume, or the system volume group."""
    t = text.strip()
    m = re.match(r"^/dev/mapper/(.+)$", t)
    if m:
        pieces = re.split(r"(?<!-)-(?!-)", m.group(1), maxsplit=1)
        if len(pieces) == 2:
            vg, lv = pieces
            return _lv(vg.replace("--", "-"), lv.replace("--", "-"), t)
        return ORDINARY
    t = t.removeprefix("/dev/")
    if "/" in t:
        vg, _, lv = t.partition("/")
        if not lv:
            return _vg(vg, t) if whole_vg else ORDINARY
        return _lv(vg, lv, t)
    return _vg(t, t) if whole_vg else ORDINARY


def _lv(vg: str, lv: str, text: str) -> Shape:
    if _SYSTEM_LV.match(lv):
        return Shape(True, f"the system volume {text}")
    return ORDINARY


def _vg(vg: str, text: str) -> Shape:
    # A whole volume group is LVM's pool: removing it (or every volume in it) is blocked
    # like a whole ZFS pool (session-7 convention), whatever its name.
    if _SYSTEM_VG.match(vg):
        return Shape(True, f"the system volume group {text} (every volume in it)")
    return Shape(True, f"the whole volume group {text} (every volume in it)")


def zfs_shape(text: str, recursive: bool) -> Shape:
    """A ZFS dataset or snapshot spec: the root pool, a root/home dataset, or every snapshot."""
    t = text.strip().rstrip("/")
    ds, at, snap = t.partition("@")
    if at:
        # `pool/fs@%`, `@first%last` (zfs ranges: `%` alone is every snapshot), `@*`.
        if snap in ("%", "*", "all") or snap.startswith("%") or snap.endswith("%"):
            return Shape(True, f"every snapshot of {ds} (the backups)")
        return ORDINARY  # one named snapshot
    if "/" not in ds and ds:
        # `zfs destroy -r tank`, `zfs destroy tank`: the pool's own dataset, every dataset
        # of the pool (a whole pool: session-7 convention).
        return Shape(True, f"the whole pool {ds}")
    if _ZFS_SYSTEM.match(ds):
        return Shape(True, f"the system dataset {ds}")
    return ORDINARY


# macOS disk identifiers (`disk0`, `disk1s2`, `/dev/rdisk0`) and the system volume.
_MAC_DISK = re.compile(r"\A(?:/dev/r?)?disk\d+(?:s\d+)?\Z")
_MAC_SYSTEM_VOLUME = re.compile(
    r"\A/(?:Volumes/Macintosh[ _\\]*HD(?: - Data)?|System/Volumes/Data)/?\Z", re.I
)


@lru_cache(maxsize=4096)  # (pure: the same text in the same folders; `-x /q` repeats)
def path_shape(text: str, cwds: frozenset[str | None], windows: bool) -> Shape:
    """A path or device: the root, a home, a system folder (or `*` in one), an account or
    boot file, a raw disk, or the system's btrfs subvolume."""
    if not text or text.startswith("-"):
        return ORDINARY
    if is_device(text) or is_device(text.lower()) or _MAC_DISK.match(text) or bare_disk(text):
        return Shape(True, f"the raw disk {text}")
    if _MAC_SYSTEM_VOLUME.match(text):
        return Shape(True, f"the system volume {text}")
    if _SYSTEM_SUBVOL.search(text.replace("\\", "/")):
        return Shape(True, f"the system subvolume {text}")
    what = whole_system(text, cwds, windows)
    return Shape(True, what) if what is not None else ORDINARY


# (compiled once: `_volume_like` reads every target of every unknown program)
_ROOT_POOL_NAME = re.compile(_ROOT_POOL + r"(/[\w.:+-]*)*(@[\w.:%*+-]*)?")
_SYSTEM_DATASET = re.compile(r"/(ROOT|USERDATA)(/|@|$)")
_VG_LV = re.compile(r"^([\w.+-]+)/([\w.+-]+)$")


def _volume_like(text: str) -> Shape:
    """For programs nothing is known about: a name only a volume manager uses for the
    system (`rpool/ROOT/ubuntu`, `zroot`, `tank/USERDATA`, `ubuntu-vg/root`,
    `/dev/mapper/vg0-root`); a relative path such as `build/home` is not one."""
    if _ROOT_POOL_NAME.fullmatch(text):
        return zfs_shape(text, True)
    if _SYSTEM_DATASET.search(text) and not text.startswith((".", "/")):
        return zfs_shape(text, False)
    if text.startswith("/dev/mapper/"):
        return lvm_shape(text, False)
    m = _VG_LV.fullmatch(text)
    if m and _SYSTEM_VG.match(m.group(1)):
        return lvm_shape(text, False)
    return ORDINARY


@lru_cache(maxsize=4096)  # (pure, as `path_shape`)
def target_shape(text: str, cwds: frozenset[str | None], windows: bool) -> Shape:
    """Any target of an unknown program: path/device first, then volume-like names."""
    s = path_shape(text, cwds, windows)
    if s.system:
        return s
    return _volume_like(text)


# --- reading an unknown command ----------------------------------------------------------------


@attrs.frozen(slots=True)
class Reading:
    """An unknown command read by shape: its verb, where it came from, its targets."""

    verb: str
    source: str  # "name", "subcommand" or "option"
    at: int  # index (in the argument list) of the verb word, -1 for the name
    targets: tuple[int, ...]  # argument indexes of the operands it acts on
    forced: bool
    dry: bool
    package: bool = False  # a package manager: only a whole-system target counts
    # The verb is only in the program's name (`purgecss`, `cssnano-purge`) and no argument
    # stands on its own as a target (each follows an option): the name alone does not make
    # it a deleter, so only a whole-system target counts.
    weak: bool = False


# Shell keywords a broken or foreign-shell line can leave in the command position.
_KEYWORDS = frozenset(
    names(
        """
        do done then else elif fi for while until if in case esac function select time
        foreach switch try catch finally begin process end trap return break continue
        """
    )
)


_SHORT_N = re.compile(r"^-[a-zA-Z]{0,3}n[a-zA-Z]{0,3}$")
_CMD_SWITCH = re.compile(r"^/[A-Za-z?][\w:-]*$")
_PROGRAM_NAME = re.compile(r"^[\w.+@-]{1,128}$")
_PLAIN_WORD = re.compile(r"^[A-Za-z][\w-]*$")


def _short_n(args: Sequence[str]) -> bool:
    """`-n` (alone or in a short bundle: `-nv`, `-rn`) not followed by a number: the session-7
    label convention reads it as an unknown program's dry run (`frob purge -n ~`)."""
    for i, a in enumerate(args):
        if a == "--":
            return False
        if a[:1] == "-" and "n" in a and _SHORT_N.fullmatch(a):
            nxt = args[i + 1] if i + 1 < len(args) else ""
            if not nxt.isdigit():
                return True
    return False


def _is_option(text: str, family: str) -> bool:
    if text.startswith("-") and len(text) > 1:
        return True
    return family == "cmd" and bool(_CMD_SWITCH.fullmatch(text))


def _forced(args: Sequence[str]) -> bool:
    return any(_FORCE_OPTION.match(a) for a in args)


def read_cmd(cmd: Cmd, name: str, args: Sequence[str]) -> Reading | None:
    """`read_command(name, args, cmd.scope.family)`, kept on the command (`args` are the texts
    of `cmd.args`): the dispatcher's generic reading and `clis.judge` read the same command."""
    key = (name, cmd.scope.family)
    kept = cmd.readings
    if kept is None or kept[0] is not cmd.args:
        kept = cmd.readings = (cmd.args, {})
    if key in kept[1]:
        got: Reading | None = kept[1][key]
        return got
    got = kept[1][key] = read_command(name, args, cmd.scope.family)
    return got


def read_command(name: str, args: Sequence[str], family: str) -> Reading | None:
    """Find the verb of an unknown command and the arguments it is aimed at; None when the
    command carries no destructive verb, only asks for help, or lists/shows."""
    if not ENABLED or name.startswith(("-", "/")) or name.lower() in _KEYWORDS:
        return None
    if name and not _PROGRAM_NAME.fullmatch(name):
        return None  # `x=aaa;`, `${a}b`: not a program name anyone installs
    if any(a in _HELP or a.lower() in _HELP for a in args):
        return None
    # (`forced` and `dry` are worked out only when a verb needs them: most commands carry none)
    verb: str | None = None
    source = ""
    at = -1
    text_program = _text_program(name)
    nv = name_verb(name) if name else None
    if nv is not None and (nv not in WEAK_VERBS or _forced(args)):
        verb, source = nv, "name"
    if verb is None and not text_program:
        seen = 0
        for i, a in enumerate(args):
            if _is_option(a, family):
                continue
            low = a.lower()
            if low in READ_SUBCOMMANDS:
                return None  # `foo list --deleted`, `foo show delete-policy`
            wv = word_verb(a)
            if wv in IMAGE_VERBS and low != wv:
                wv = None  # `restore-points`, `image-list`: a noun, not the disk verb
            if wv is not None and (wv not in WEAK_VERBS or _forced(args)):
                verb, source, at = wv, "subcommand", i
                break
            seen += 1
            if seen >= 3 or not _PLAIN_WORD.fullmatch(a):
                break
    if verb is None or verb in FORMAT_VERBS:
        # `asr restore --target X --erase`: an option that deletes outweighs a verb that
        # only destroys disks
        for i, a in enumerate(args):
            if option_verb(a):
                verb, source, at = "delete", "option", i
                break
    if verb is None and not text_program:
        sql = sql_verb(args)
        if sql is not None:
            verb, source, at = "drop", "sql", sql
    if verb is None:
        return None
    dry = any(is_dry_marker(a) for a in args) or _short_n(args)
    targets: list[int] = []
    skip_next = False
    for i, a in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if source == "subcommand" and i <= at:
            continue
        if _is_option(a, family) and _NOT_TARGET_OPTION.match(a):
            skip_next = "=" not in a and not a.startswith("/")
            continue
        if _is_option(a, family):
            if "=" in a and a.startswith("--"):
                targets.append(i)  # `--path=/`: the value is looked at below
            continue
        if i == at:
            continue
        targets.append(i)
    package = bool(name) and bool(_PACKAGE_MANAGER.search(name))
    weak = False
    if source == "name" and family != "powershell":  # (cmdlets name targets by -Path)
        bare = [
            i
            for i in targets
            if not args[i].startswith("-")
            and not (
                i > 0
                and _is_option(args[i - 1], family)
                and "=" not in args[i - 1]
                # `--force X`, `-y X`, `/q X`: a switch, X a target; a long option
                # (`--css X`, `--input X`) is taken to carry X as its value
                and not _FORCE_OPTION.match(args[i - 1])
                and args[i - 1].startswith("--")
            )
        ]
        weak = not bare
    return Reading(verb, source, at, tuple(targets), _forced(args), dry, package, weak)


# Every copy kept for recovery: a verb aimed at all the snapshots/backups/restore points
# is the `vssadmin delete shadows /all` of that tool (blocked, DESIGN §5 backups).
_BACKUP_NOUN = re.compile(
    r"(snapshot|snap|backup|shadow|archive|restore-?point|checkpoint|generation|recovery"
    r"|savepoint|version)s?",
    re.I,
)
_BACKUP_NOUN_LOW = re.compile(_BACKUP_NOUN.pattern)  # (for lower-cased ASCII text)


def _backup_noun_in(low: str) -> bool:
    """`_BACKUP_NOUN.search(low)` for a lower-cased text (without `re.I`'s per-letter case
    folding when it is ASCII); (n18u) an artifact repository's build-sense `snapshot`
    (`maven-snapshots`, `libs-snapshot-local`) is no backup noun."""
    pattern = _BACKUP_NOUN_LOW if low.isascii() else _BACKUP_NOUN
    if pattern.search(low) is None:
        return False
    if "snap" in low and build_snapshots(low):
        return pattern.search(_BUILD_SNAPSHOTS.sub(" ", low)) is not None
    return True


# (n18u, session 18) artifact repositories named snapshots in the build sense: a build tool
# or an artifact word next to `snapshot(s)`, or the repository-manager suffixes.
_BUILD_SNAPSHOTS = re.compile(
    r"(?i)(?:maven|mvn|m2|gradle|ivy|sbt|libs?|plugins?|artifacts?|artifactory|nexus|jars?"
    r"|nuget|npm|pypi|java|android|kotlin|scala|clojars)[-_.]?(?:release-)?snapshots?"
    r"(?:[-_.](?:local|remote|virtual|repo|repository))?"
    r"|snapshots?[-_.](?:local|remote|virtual)\b"
)


def build_snapshots(text: str) -> bool:
    """Whether `text` names an artifact repository's build snapshots (and no backup word)."""
    low = text.lower()
    return (
        _BUILD_SNAPSHOTS.search(low) is not None
        and "backup" not in low
        and "bak" not in low
        and "bkp" not in low
    )


_ALL_MARKER = re.compile(
    r"^(--?(all|everything|all-[\w-]+|[\w-]+-all)(=\S*)?|/all|all|everything|\*|%|\.\*|@%|@\*)$",
    re.I,
)


# Snapshot and backup tools whose name does not say so.
_BACKUP_TOOLS = frozenset(
    names(
        """
        timeshift snapper sanoid syncoid zrepl znapzend zfs-auto-snapshot rsnapshot bacula
        bareos bconsole duplicati urbackup bup rdiff-backup duplicacy autorestic borgmatic
        btrbk zfsnap zectl beadm bectl
        """
    )
)


def all_backups(name: str, args: Sequence[str], reading: Reading) -> str | None:
    """`timeshift --delete-all`, `snapper delete --all`, `foo snapshots purge --all`: a
    verb aimed at every snapshot or backup a tool keeps; the noun it names, or None."""
    if not any(_ALL_MARKER.match(a) for a in args):
        return None
    if name.lower() in _BACKUP_TOOLS:
        return "snapshot or backup"
    for text in (name, *args):
        m = _BACKUP_NOUN.search(text)
        if m is not None and not text.startswith(("/", "~", ".")):
            return m.group(0).lower()
    return None


# Destructive SQL (and the key-value stores' flush) handed to a database client nobody
# models: `clickhouse-client --query "DROP DATABASE x"`, `cqlsh -e "DROP KEYSPACE m"`.
_SQL_DESTROY = re.compile(
    r"^\s*(?:drop\s+(?:database|table|schema|keyspace|index|collection|user|role|view|bucket)"
    r"|truncate\s|delete\s+from\s|flushall|flushdb|\w+\.drop(?:database)?\s*\("
    r"|db\.\w+\.drop\(|db\._?dropdatabase\()",
    re.I,
)


def sql_verb(args: Sequence[str]) -> int | None:
    """The index of an argument that is destructive SQL, or None."""
    for i, a in enumerate(args):
        value = a.split("=", 1)[1] if a.startswith("--") and "=" in a else a
        if len(value) < 4096 and _SQL_DESTROY.search(value):
            return i
    return None


# Resource words that name a whole storage pool when a program's first subcommand is one
# (`stratis pool destroy p1`, `frobctl vg delete data`).
POOL_NOUNS = frozenset(
    names("pool pools zpool vg vgs volume-group volumegroup storage-pool storagepool")
)


def option_value(text: str) -> str:
    """The value of `--opt=value`, or the text itself."""
    if text.startswith("--") and "=" in text:
        return text.split("=", 1)[1]
    return text


def verb_reason(name: str, reading: Reading) -> str:
    if not name:
        return f"the program is only known at run time, and it is told to {reading.verb}"
    if reading.source == "name":
        return f"`{name}` is not known here, and its name says it {_says(reading.verb)}"
    if reading.source == "subcommand":
        return f"`{name}` is not known here, and it is told to {reading.verb}"
    if reading.source == "sql":
        return f"`{name}` is not known here, and it is handed SQL that drops or empties data"
    return f"`{name}` is not known here, and an option tells it to delete"


def _says(verb: str) -> str:
    special = {"rm": "removes", "del": "deletes", "rmrf": "deletes", "deltree": "deletes a tree"}
    if verb in special:
        return special[verb]
    return verb + ("es" if verb.endswith(("sh", "ch", "s", "x")) else "s")


# --- read-only uses of programs nobody here models (safety-m8) -----------------------------
# A listing or status verb (`kopia snapshot list`, `salt-run manage.status`, `timeshift
# --list`, `foo version`) only reads: what it does is print. Verbs that can fetch, export or
# repair (`get`, `export`, `dump`, `check`) are left out.
_READ_ONLY_VERBS = frozenset(
    names(
        """
        list show status describe info inspect view search query whoami stat stats lookup
        logs summary overview count ps top current health
        """
    )
)
_READ_ONLY_FLAGS = re.compile(
    r"(?i)\A--?(?:list|list-\w+|ls|info|status|show|show-\w+|print-\w+|summary|stats)\Z"
)
_HARMLESS_OPTION = re.compile(
    r"(?i)\A--?(?:json|yaml|no-color|color=\w+|verbose|v+|q|quiet|all|a|long|l|human-readable|h"
    r"|format(?:=\S+)?|output=(?:json|yaml|table|text|wide|name)|o|pretty|raw|plain|limit=\d+"
    r"|n|tail=\d+|since=\S+|host=\S+|profile=\S+|region=\S+|namespace=\S+|details?|full"
    r"|porcelain|short|tree|recursive|r)\Z"
)
_OUTPUT_FORMATS = frozenset(names("json yaml yml table text wide name csv tsv plain"))
_READ_ITEM = re.compile(r"\A[\w@%+=,.:/~-]{1,80}\Z")


def read_only_unknown(name: str, args: Sequence[str]) -> bool:
    """`kopia snapshot list`, `salt-run manage.status`, `timeshift --list`, `nomad node
    status -verbose`: a program the analyser does not model, used with a listing or status
    verb (a subcommand in the first three words, or a `--list`-style flag) and nothing but
    plain names and display options besides: a read (safe). Anything else (`-o FILE`,
    `--fix`, an unknown option) keeps the unknown program's moderate."""
    if not ENABLED or not args or not _PROGRAM_NAME.fullmatch(name):
        return False
    read = False
    positional = 0
    prev_value = False
    for a in args:
        if prev_value:
            prev_value = False
            if a.lower() in _OUTPUT_FORMATS:
                continue
            return False
        if a.startswith("-"):
            if _READ_ONLY_FLAGS.match(a):
                read = True
            elif a in ("-o", "--output", "--format"):
                prev_value = True  # a display format (`-o json`), nothing else
            elif not _HARMLESS_OPTION.match(a):
                return False
            continue
        if not _READ_ITEM.match(a) or "/" in a or a.startswith("~") or word_verb(a) is not None:
            # a path, or a destructive word anywhere (`show delete-policy`): not a plain read
            # (an unknown program's `--version` is no proof either: DESIGN §5)
            return False
        positional += 1
        if not read and positional <= 3:
            last = re.split(r"[.:]", a.lower())[-1]
            if last in _READ_ONLY_VERBS or re.fullmatch(
                r"(?:list|show|get|describe)-[a-z-]+", last
            ):
                read = True
    return read


# --- every backup or snapshot selected, by any tool (safety-m8) ------------------------------
# What a listing of every backup/snapshot stands for when it is piped on (`restic snapshots
# | … | xargs restic forget`): no path, a marker the delete's selector check recognises.
EVERY_BACKUP = "\x00every-backup"
_KEEP_NOTHING = re.compile(
    r"(?i)\A--?(?:keep(?:-[a-z]+)?|retain(?:-[a-z]+)?|retention(?:-[a-z]+)?|max-(?:count|age)"
    r"|older-than|min-age|prune-older-than|expire(?:-[a-z]+)?)(?:=|\Z)"
)
_ZERO = re.compile(r"(?i)\A(?:0+[a-z]*|now|none)\Z")
_BACKUP_VERB = re.compile(
    r"(?i)\A(?:delete|remove|rm|forget|prune|purge|destroy|expire|drop|erase|wipe|-d|--delete"
    r"|(?:delete|remove|purge|destroy|del|rm)[\w.-]+|[\w.-]+[-_.](?:delete|remove|rm|destroy"
    r"|purge|forget|prune)|\w+-delete)\Z"
)
# What a range of ids stands for when it is fed to a delete (`seq 1 500 | xargs …`, `for i in
# {1..500}`): every id up to the range's end, so every snapshot/backup numbered in it (bk9).
EVERY_ID = "\x00every-id"
# A range this long covers every id a tool hands out (`seq 1 500`, `{1..500}`), not a few.
RANGE_SPAN = 10


_BRACE_RANGE = re.compile(r"\{(-?\d{1,9})\.\.(-?\d{1,9})(?:\.\.-?\d{1,9})?\}")
_ID_SPAN = re.compile(r"(\d{1,9})-(\d{1,9})")


def _every_span(lo: int, hi: int) -> bool:
    """A range of ids that stands for every one: at least RANGE_SPAN ids from the first
    (`1-500`, `{0..99}`), or a hundred anywhere; `10-20`, `230-235` name a few (dangerous)."""
    lo, hi = min(lo, hi), max(lo, hi)
    span = hi - lo + 1
    return span >= 100 or (lo <= 1 and span >= RANGE_SPAN)


def id_range(words: Sequence[str]) -> bool:
    """A for loop's values that are a long run of numbers: `{1..500}` (as written, or
    expanded) or `1 2 3 … 40`."""
    if len(words) == 1 and (m := _BRACE_RANGE.fullmatch(words[0])) is not None:
        return abs(int(m.group(2)) - int(m.group(1))) + 1 >= RANGE_SPAN
    return len(words) >= RANGE_SPAN and all(w.isdigit() for w in words)


def every_selector(text: str) -> bool:
    """Whether a word carries a marker for "every item a listing or a range printed"."""
    return "\x00every-" in text


def numeric_range(name: str, args: Sequence[str]) -> bool:
    """`seq 1 500`, `seq -w 1 1 500`, `jot 500 1`: a range of at least RANGE_SPAN numbers."""
    if name.lower() not in ("seq", "jot"):
        return False
    nums = [a for a in args if re.fullmatch(r"-?\d{1,9}", a)]
    if not nums or len(nums) != len([a for a in args if not a.startswith("-") or a[1:].isdigit()]):
        return False
    vals = [int(n) for n in nums]
    if name.lower() == "jot":
        return vals[0] >= RANGE_SPAN
    first, last = (1, vals[0]) if len(vals) == 1 else (vals[0], vals[-1])
    return abs(last - first) + 1 >= RANGE_SPAN


def backup_selects_all(name: str, args: Sequence[str]) -> str | None:
    """`borg delete --glob-archives '*' REPO`, `restic forget --keep-last 0 --prune`, `kopia
    snapshot delete --all-snapshots-for-source X`, `… | xargs restic forget` fed by a full
    listing: a backup or snapshot delete whose selector is "all" (a wildcard, an `--all*`
    flag, a keep/age of zero or now, every listed id) removes every copy kept for recovery,
    like `vssadmin delete shadows /all` (blocked). The reason, or None."""
    head = [a.lower() for a in args[:4]]
    backups = (
        backup_tool(name)
        or _backup_noun_in("\n".join(head))
        # `aws s3api delete-object … --version-id ID`: an object version is its backup (n13u)
        or any(a.lower() in ("--version-id", "--version-ids", "--versionid") for a in args[2:12])
        # `zfs destroy pool/fs@name`: the `@` names a snapshot (zfsconcepts(7))
        or (name.lower() == "zfs" and any("@" in a for a in head[1:4]))
    )
    if not backups or not any(_BACKUP_VERB.match(a) for a in head):
        return None
    for i, a in enumerate(args):
        if EVERY_BACKUP in a:
            return "every backup or snapshot a listing printed"
        if EVERY_ID in a:
            return "every backup or snapshot numbered in a range of ids"
        if (i and "-" in a) or "{" in a:
            # `snapper delete 1-9999` (its NUMBER1-NUMBER2 spelling), `btrfs subvolume delete
            # /.snapshots/{1..400}/snapshot`: a range of ids from the first one, or a long
            # one, is every snapshot the tool numbered (n10u; round 9)
            m = _ID_SPAN.fullmatch(a) or _BRACE_RANGE.search(a)
            if m is not None and _every_span(int(m.group(1)), int(m.group(2))):
                return f"every backup or snapshot numbered in the range {m.group(0)}"
        if (
            re.fullmatch(
                r"(?i)(?:remove|delete|prune|purge)-(?:older-than|all-but(?:-n)?(?:-full)?)", a
            )
            and i + 1 < len(args)
            and _ZERO.match(args[i + 1].strip("'\""))
        ):
            # `duplicity remove-older-than now`, `remove-all-but-n-full 0` (positional form)
            return f"every backup or snapshot ({a} {args[i + 1]})"
        if _ALL_MARKER.match(a) or re.fullmatch(r"(?i)--?all-[\w-]+", a):
            return "every backup or snapshot"
        if "/" in a and re.search(r"/(?:\*|_all|%2A)/?(?:\?|\Z)", a):
            # `DELETE /_snapshot/repo/*`: an API path whose last part selects every one
            return "every backup or snapshot (an API path ending in a wildcard)"
        key, eq, value = a.partition("=")
        if not eq and i + 1 < len(args):
            value = args[i + 1]
        if _KEEP_NOTHING.match(key + ("=" if eq else "")) and _ZERO.match(value.strip("'\"")):
            return f"every backup or snapshot ({key} {value})"
        if key.lower() in (
            "--glob-archives",
            "-a",
            "--match-archives",
            "--prefix",
            "--tag",
            "--name",
            "--pattern",
        ) and value.strip("'\"") in ("*", "sh:*", "re:.*", ".*", ""):
            return "every backup or snapshot (a pattern that matches all)"
    return None


_BACKUP_LISTING = re.compile(
    r"(?i)\A(?:snapshots|backups|archives|versions|list|ls|--list-archives|--list-snapshots"
    # any listing verb glued to or dashed with a noun: `snapshot-list`, `listsnapshot`,
    # `list-object-versions`, `describe-db-instance-automated-backups`, `get-azsnapshot`,
    # `snapshot.tree`, `ListBackups` (bk9: the verb, not one spelling)
    r"|(?:list|ls|describe|get-)[\w.-]*|[\w.-]*[-_.](?:list|ls|tree)|list[A-Z]\w*)\Z"
)
_NARROWING = re.compile(
    r"(?i)\A--?(?:filter|filters|tag|tags|host|path|prefix|glob-archives|match-archives|name"
    r"|older|newer|before|after|since|until|last|first|limit|max-results|latest|snapshot-ids"
    r"|db-instance-identifier|vault|source|snapshotname|snapshotid|id|ids|snapshot-id"
    r"|backup-id|recovery-point-arn|where|include|exclude|max-items)(?:=|\Z)"
)


# (n17u) A JMESPath index or a slice of one (`[0]`, `[-1]`, `[:1]`, `[-1:]`).
_ONE_INDEX = re.compile(r"\[\s*-?\d+\s*\]|\[\s*:\s*1\s*\]|\[\s*-1\s*:\s*\]")


def lists_every_backup(name: str, args: Sequence[str]) -> bool:
    """`restic snapshots --json`, `tarsnap --list-archives`, `gcloud compute snapshots list`,
    `aws ec2 describe-snapshots --owner-ids self`, `virsh snapshot-list vm --name`, `qm
    listsnapshot 101`, `Get-AzSnapshot -ResourceGroupName rg`: every backup or snapshot the
    tool keeps (of that machine or group), listed (no filter narrows it)."""
    lname = name.lower()
    # a PowerShell getter names its noun itself (`Get-VMSnapshot`, `Get-EC2Snapshot`)
    getter = lname.startswith("get-") and _BACKUP_NOUN.search(lname) is not None
    about = (
        getter
        or backup_tool(name)
        # (one search over the first five arguments: the noun never spans a line break)
        or _backup_noun_in("\n".join(args[:5]).lower())
        or (lname == "btrfs" and ("-s" in args or "--snapshots" in args))  # snapshots only
    )
    if not about:
        return False
    if not getter and lname.startswith("get-") and _store_of_backups(lname, args):
        return True
    if not getter and _CLOUD_STORE_GETTER.search(lname) and lname.startswith("get-"):
        return False  # (a narrowed cloud store listing: `-MaxCount 10`, `-KeyPrefix x/`, r15)
    if not getter and not any(
        _BACKUP_LISTING.match(a) for a in args[:5] if not a.startswith("-") or a.startswith("--l")
    ):
        return False
    for i, a in enumerate(args):
        if "[" in a and _ONE_INDEX.search(a) and ((i and args[i - 1] == "--query") or "=" in a):
            return False  # (n17u) `--query 'Snapshots[0].SnapshotId'`: a JMESPath pick of one
        if _NARROWING.match(a):
            key = a.split("=", 1)[0].lower()
            if key == "--name" and "=" not in a and (i + 1 == len(args) or args[i + 1][:1] == "-"):
                continue  # `virsh snapshot-list vm --name`: print names only, no filter
            if key == "-name" and i + 1 < len(args) and args[i + 1].strip("'\"") == "*":
                continue  # `Get-VMSnapshot -Name *`: every one
            if key in ("--prefix", "--key") and any("versions" in b.lower() for b in args[:5]):
                # `aws s3api list-object-versions --prefix db.dump`: every version of the
                # objects named, as every snapshot of one named volume (n13u)
                continue
            return False
    return True


# (n13w) PowerShell getters of a cloud store's objects and the parameter naming the store:
# `Get-S3Object -BucketName nightly-backups`, `Get-GcsObject -Bucket db-backups`,
# `Get-AzStorageBlob -Container backups`, `Get-AzStorageFile -ShareName backup`.
# (r15) the store itself got (`Get-S3Bucket -BucketName backups | Remove-S3Bucket …`)
_STORE_GETTER = re.compile(
    r"(?:s3object|gcsobject|storageblob|storagefile|childitem|s3bucket|gcsbucket"
    r"|storagecontainer|storageshare)s?\Z"
)
_CLOUD_STORE_GETTER = re.compile(
    r"(?:s3object|gcsobject|storageblob|storagefile|s3bucket|gcsbucket|storagecontainer"
    r"|storageshare)s?\Z"
)
_STORE_PARAM = frozenset(
    names("-bucketname -bucket -container -containername -sharename -filesystem -name")
)
_STORE_NARROWING = frozenset(
    names(
        "-key -keyprefix -prefix -blob -path -include -exclude -object -maxkey -maxkeys -maxcount"
        " -maxitem -maxitems -maxresult -maxresults -first -top"
    )
)


def _store_of_backups(lname: str, args: Sequence[str]) -> bool:
    """Every object of a store whose name says backups, listed (no key or prefix narrows
    it): piped into a remover, every backup in it goes."""
    if _STORE_GETTER.search(lname) is None:
        return False
    low = [a.lower() for a in args]
    if any(a.split(":", 1)[0] in _STORE_NARROWING for a in low):
        return False
    if low and low[0][:1] != "-" and _CLOUD_STORE_GETTER.search(lname) and _backup_noun_in(low[0]):
        return True  # `Get-S3Object nightly-backups`: the store is the first positional (r15)
    return any(a in _STORE_PARAM and _backup_noun_in(low[i + 1]) for i, a in enumerate(low[:-1]))


_BACKUP_PROGRAMS = frozenset(
    names("borg restic tarsnap kopia duplicity rustic bupstash restic.exe borgbackup")
)


@lru_cache(maxsize=4096)
def backup_tool(name: str) -> bool:
    """A program whose business is backups or snapshots (by its name)."""
    low = name.lower()
    # (`proxmox-backup-client`, `rdiff-backup`, `pg_probackup`: the name says so)
    return low in _BACKUP_TOOLS or low in _BACKUP_PROGRAMS or "backup" in low
