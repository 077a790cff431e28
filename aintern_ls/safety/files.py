"""Deleting, overwriting and re-permissioning files and disks: rm, find -delete, shred, dd, mkfs,
partitioning, chmod/chown, mv. Paths are judged by `paths.classify_path`.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import shlex
from collections.abc import Sequence

import attrs

from aintern_ls.safety import budget
from aintern_ls.safety.context import (
    STDIN_NONE,
    Cmd,
)
from aintern_ls.safety.levels import B, C, D, M, RiskLevel
from aintern_ls.safety.paths import (
    ACCOUNT_NAMES,
    CORE_RUNTIME_NAMES,
    CWD_WIDE,
    SUBSTITUTION,
    SYSTEM_CORE,
    Target,
    bare_disk,
    classify_path,
    glob_account_file,
    is_device,
    is_log_dir,
    is_secret,
    system_state,
    trust_store,
    trust_store_glob,
    whole_system,
    write_target,
)
from aintern_ls.safety.registry import UNIX_LINKS, finding, handles, run_config_command
from aintern_ls.safety.shape import is_dry_marker
from aintern_ls.safety.winpaths import (
    LINKS,
    protected_unknown_name,
    through_link,
    wsl_unc_posix,
)
from aintern_ls.safety.words import Word, names

# --- deleting things --------------------------------------------------------------------

# A path made of one unguarded variable and a slash (`$X/`, `${X}/*`, `$X/.*`): with the
# variable empty it names the root directory.
_VARIABLE_PATH = re.compile(r"^\$(?:([A-Za-z_]\w*|[0-9])|\{([A-Za-z_]\w*|[0-9])\})(/[^$`]*)$")
# (u22) The root or home folder and one variable as the rest (`/$X`, `~/${X}/`, `$HOME/$X/*`);
# deeper folders (`/tmp/$X`) are only an unknown entry of theirs.
_TAIL_VARIABLE = re.compile(
    r"^((?:\$HOME|\$\{HOME\}|~)?/)\$(?:([A-Za-z_]\w*|[0-9])|\{([A-Za-z_]\w*|[0-9])\})/?\*?$"
)
# Variables a shell usually has set: an unknown value, not an empty one.
_USUALLY_SET = frozenset(
    names(
        """
        HOME USER LOGNAME SHELL PWD OLDPWD TMPDIR TMP TEMP HOSTNAME PATH GOPATH GOROOT
        JAVA_HOME CARGO_HOME RUSTUP_HOME NVM_DIR PYENV_ROOT VIRTUAL_ENV CONDA_PREFIX
        GITHUB_WORKSPACE RUNNER_TEMP CI_PROJECT_DIR WORKSPACE ANDROID_HOME SDKROOT
        """
    )
)


# `~/**`, `/**/*`, a find listing: every file below, whatever depth (no -r needed).
_EVERY_FILE = re.compile(r"(?:^|/)\*\*(?:/\*)?$")


def _as_if_empty(cmd: Cmd, t: Word, recursive: bool) -> tuple[RiskLevel, str, str] | None:
    """`rm -rf "$STEAMROOT/"*`, `rm -rf $PREFIX/usr`: with the variable empty the path
    starts at the root (the Steam for Linux bug; ShellCheck SC2115 asks for "${var:?}").
    A variable this block never sets is empty when the block runs on its own: what the
    path then names decides (blocked for /, /usr…); one it sets at run time, or that a
    shell usually has, is only unknown (critical)."""
    if cmd.scope.family in ("powershell", "cmd"):
        return _as_if_empty_windows(cmd, t, recursive)
    m = _VARIABLE_PATH.match(t.text)
    if m is None:
        # (u22) `rm -rf "/$x"`, `~/$x`, `$HOME/${x}/`: the root or home, then one variable
        # as the whole rest; with the variable empty the path is that folder
        m = _TAIL_VARIABLE.match(t.text)
        if m is None:
            return None
        name = m.group(2) or m.group(3)
        folder = re.sub(r"\A\$(?:HOME|\{HOME\})(?=/)", "~", m.group(1))
        if "$" in folder or "`" in folder:
            return None
        target = classify_path(folder, frozenset([None]), cmd.scope.windows)
    else:
        name = m.group(1) or m.group(2)
        target = classify_path(m.group(3), frozenset([None]), cmd.scope.windows)
    if target.level < B or not (recursive or target.rule == "rm-system-file"):
        return None
    what = f"{target.what} when ${name} is empty"
    if (
        name in cmd.scope.assigned
        or name in _USUALLY_SET
        or name.startswith("XDG_")
        or name.isdigit()
    ):
        return C, "rm-unknown-root", what
    return B, target.rule, what + f" (this block never sets {name})"


# (n20w, F22) the same in PowerShell and cmd: `Remove-Item "$dir\*"`, `"$env:OUT\"`,
# `rd /s /q "%OUT%\"` (the word as the walker gives it: `$x\*`, `%OUT%\`); the name is read
# from the source, where the walker may have respelled it.
_WIN_VARIABLE_PATH = re.compile(r"^(?:\$[\w:{}]+|%[A-Za-z_][\w.()-]*%)([\\/][^$`%]*)$")
_WIN_VARIABLE_NAME = re.compile(r"%([A-Za-z_][\w.()-]*)%|\$\{?(?:env:)?(\w+)")
# Variables Windows and PowerShell always have set: an unknown value, not an empty one.
_WIN_USUALLY_SET = frozenset(
    n.lower()
    for n in names(
        """
        USERPROFILE APPDATA LOCALAPPDATA TEMP TMP SystemRoot windir ProgramFiles ProgramData
        ProgramW6432 CommonProgramFiles ALLUSERSPROFILE PUBLIC HOMEDRIVE HOMEPATH SystemDrive
        COMPUTERNAME USERNAME PSHOME PWD HOME ComSpec
        """
    )
)
# Variables set only when the text runs as a script (empty when pasted into a console):
# unknown (critical).
_WIN_SCRIPT_SET = frozenset({"psscriptroot", "pscommandpath", "myinvocation"})


def _windows_guarded(before: str, name: str, family: str) -> bool:
    """Whether the text before the deletion makes sure `name` is not empty the way bash's
    `${NAME:?}` does: PowerShell's `[ValidateNotNullOrEmpty()]`/`[ValidateNotNull()]`/a
    mandatory parameter (the language refuses an empty value), or cmd's `if not defined
    NAME set NAME=…` (a default given). (w21) A run-time test before it (`if defined NAME`,
    `if ($NAME)`, `if (Test-Path $NAME)`, `if (-not $NAME) { throw }`, `if "%NAME%"==""
    exit`) does not count, as bash's `[ -n "$DIR" ] && rm -rf "$DIR/"` is judged: the
    review-20 decision that the three shells agree."""
    n = re.escape(name)
    if family == "cmd":
        guard = rf"(?i)\bif\s+not\s+defined\s+{n}\s+(?:\(\s*)?set\b"
    else:
        guard = (
            rf"(?i)\[(?:validatenotnull\w*\(\s*\)|parameter\([^()]*mandatory[^()]*\))\]\s*"
            rf"(?:\[[\w.\[\]]*\]\s*)*\${n}\b"
        )
    return re.search(guard, before[-4000:]) is not None


_USUALLY_SET_UPPER = frozenset(n.upper() for n in _USUALLY_SET)


def _never_empty_value(before: str, name: str) -> bool:
    """Whether the last PowerShell assignment of `$name` before the deletion gives it a value
    that cannot be empty: a Join-Path, or a string with literal text beside its variables
    (`"$root\\out"`, `'C:\\build'`)."""
    rhs = None
    for m in re.finditer(rf"(?im)\${re.escape(name)}\s*=(?!=)([^;\n]{{0,300}})", before[-4000:]):
        rhs = m.group(1)
    if rhs is None:
        return False
    rhs = rhs.strip().lstrip("(").lstrip()
    if rhs[:9].lower() == "join-path":
        return True
    if rhs[:1] not in ("'", '"'):
        return False  # (a command's output, `Read-Host 'dir'`: may be empty)
    for q in re.finditer(r"'([^']*)'|\"([^\"]*)\"", rhs):
        literal = re.sub(r"\$(?:\{[^}]*\}|\([^()]*\)|[\w:]+)", "", q.group(1) or q.group(2) or "")
        if literal.strip():
            return True
    return False


def _windows_assigned(before: str, name: str, family: str) -> bool:
    """Whether the text before the deletion gives `name` a value at run time (the walker
    resolves literal values; what reaches here is unknown): cmd `set`/`set /p` (in a loop
    too), PowerShell `$NAME = …`, `Set-Variable NAME`, a loop variable, a parameter."""
    n = re.escape(name)
    if family == "cmd":
        assigned = rf'(?i)\bset\s+(?:/[pa]\s+)?"?{n}='
        # (w21) a `set` on the deletion's own line does not count: cmd expanded `%NAME%`
        # when it read the line, before that `set` ran
        before = before[: before.rfind("\n") + 1]
    else:
        assigned = (
            rf"(?i)\$(?:env:)?{n}\s*[-+]?=(?!=)|\b(?:set-variable|sv|new-variable|nv)\s+"
            rf"(?:-name\s+)?['\"]?{n}\b|\bforeach\s*\(\s*\${n}\s+in\b|\bparam\s*\([^()]*\${n}\b"
        )
    return re.search(assigned, before[-4000:]) is not None


def _as_if_empty_windows(cmd: Cmd, t: Word, recursive: bool) -> tuple[RiskLevel, str, str] | None:
    r"""`Remove-Item "$dir\*" -Recurse`, `rd /s /q "%OUT%\"`: with the variable empty the
    path is the drive's root (`\*`, `\`). Blocked when the block never sets the variable
    nor makes sure it is set; critical when it is set at run time or one Windows always
    has; judged as any unknown folder (None) when a guard makes sure it is not empty."""
    m = _WIN_VARIABLE_PATH.match(t.text)
    if m is None:
        return None
    # (a path from the root of no drive is on the current drive: `\*.tmp` is `C:\*.tmp`)
    target = classify_path("C:" + m.group(1), frozenset([None]), True)
    if target.level < B or not (recursive or target.rule == "rm-system-file"):
        return None
    source = cmd.scope.source
    spelled = _WIN_VARIABLE_NAME.search(source, t.start, t.end)
    if spelled is None:
        return None
    name = spelled.group(1) or spelled.group(2)
    family = cmd.scope.family
    before = source[: t.start]
    if _windows_guarded(before, name, family):
        return None
    if name.lower() in _WIN_USUALLY_SET:
        return None  # (a folder the system names: judged as that folder)
    if family == "powershell" and _never_empty_value(before, name):
        return None  # (`$out = Join-Path $x 'out'`, `"$root\out"`: never empty)
    what = f"{target.what} when {spelled.group(0)} is empty"
    if (
        name.lower() in _WIN_SCRIPT_SET
        or name.upper() in _USUALLY_SET_UPPER
        or _windows_assigned(before, name, family)
    ):
        return C, "rm-unknown-root", what
    return B, target.rule, what + f" (this block never sets {name})"


# Backup sets, catalogues and disk images matched across a whole drive or filesystem
# (`del /s c:\*.bak c:\*.vhd`, `gci C:\ -Include *.wbcat -Recurse | ri`): ransomware's
# backup wipe, like deleting the shadow copies (blocked).
_BACKUP_EXT = (
    r"bak|bac|bkf|bkp|backup|wbcat|wbverify|vhdx?|vmdk|vdi|tib|tibx|vbk|vib|vrb|set|win|dsk"
    r"|gho|sqb|dmp|avhdx?"
)
_VZDUMP = re.compile(r"(?:\A|/)var/lib/vz/dump(?:/|\Z)|(?:\A|/)vzdump-(?:qemu|lxc|openvz)-[^/]*\Z")
_DRIVE_BACKUPS = re.compile(
    r"(?i)(?:[a-z]:)?[\\/]+(?:\*\*[\\/]+)?(?:\*+\.(?:" + _BACKUP_EXT + r")|backup\*(?:\.\*)?)"
)


# How deep the directory a variable names sits: `$HOME` is /home/NAME or /Users/NAME (2).
# Three `..` climb out of any usual directory (/tmp, /var/tmp, /run/user/N, a project
# below home) to `/`; fewer above an unknown directory are only unknown (critical).
_VAR_DEPTH = {"HOME": 2, "USERPROFILE": 2}
_CLIMB = re.compile(r"\$\{?([A-Za-z_]\w*)\}?((?:/+\.\.)+)/*(?:\*|\.\*)?")


def _climbs_to_root(text: str) -> str | None:
    """`rm -rf "$TMPDIR/../../.."`, `$HOME/../..`: as many `..` as the variable's usual
    depth (three for any other variable) end at the root directory (blocked)."""
    m = _CLIMB.fullmatch(text)
    if m is None:
        return None
    ups = m.group(2).count("..")
    if ups < _VAR_DEPTH.get(m.group(1), 3):
        return None
    return f"the whole filesystem (${m.group(1)} followed by {ups} `..` climbs to /)"


# Windows folders whose names do not fit 8.3, in the order their short names are handed out
# (`PROGRA~1` is Program Files, `PROGRA~2` Program Files (x86), `PROGRA~3` ProgramData).
_LONG_FOLDERS = (
    "Program Files",
    "Program Files (x86)",
    "ProgramData",
    "Documents and Settings",
    "System Volume Information",
    "Local Settings",
    "Application Data",
    "Start Menu",
    "WindowsApps",
    "Recovery",
)
_SHORT_NAME = re.compile(r"(?<![^\\/:])([^\\/~.\s]{1,6})~(\d)(?=$|[\\/])")


_EVENT_LOG = re.compile(
    r"(?i)[\\/]winevt[\\/]logs(?:[\\/]|$)|\.evtx$"
    # Windows' other log folders: the firewall log, IIS/HTTP logs, CBS/DISM logs (safety-art6)
    r"|[\\/]windows[\\/](?:system32[\\/])?(?:logfiles|logs)[\\/]"
)


def long_names(path: str) -> str:
    """`C:\\PROGRA~1\\x` -> `C:\\Program Files\\x`: 8.3 short names of the system folders
    whose long names do not fit, so they are judged as the folders they are."""

    def sub(m: re.Match[str]) -> str:
        stem = m.group(1).upper()
        fits = [f for f in _LONG_FOLDERS if f.replace(" ", "").upper().startswith(stem)]
        n = int(m.group(2))
        return fits[min(n, len(fits)) - 1] if fits and n >= 1 else m.group(0)

    return _SHORT_NAME.sub(sub, path)


_WINDOWS_PATH_WRITTEN = re.compile(r"[A-Za-z]:\\[^\s]*")


def _written_windows_path(source: str, w: Word) -> str | None:
    """The operand as written when it is an unquoted Windows drive path (`C:\\Users\\x`)."""
    if not (0 <= w.start < w.end <= len(source)) or w.dynamic:
        return None
    raw = source[w.start : w.end]
    return raw if _WINDOWS_PATH_WRITTEN.fullmatch(raw) else None


# A named file (no wildcard) inside the Windows installation, not in its temp or cache folders.
_WINDOWS_NAMED_FILE = re.compile(
    r"(?i)\A(?:[a-z]:|%(?:systemroot|windir)%|\$env:(?:systemroot|windir))?[\\/]"
    r"(?:windows[\\/])?(?!(?:windows[\\/])?(?:temp|softwaredistribution|logs)[\\/])"
    r"(?:system32|syswow64|sysnative|drivers|boot|inf)[\\/](?:[^*?\\/]+[\\/])*[^*?\\/.][^*?\\/]*\Z"
)
# The data folder of a database or queue service, or every file in it.
_SERVICE_DATA = re.compile(
    r"\A/var/lib/(?:mysql|mariadb|postgresql|pgsql|mongodb|mongo|redis|elasticsearch|opensearch"
    r"|cassandra|couchdb|influxdb|rabbitmq|etcd|clickhouse|neo4j)(?:/[^/]*)*?/?(?:\*(?:\.\w+)?)?\Z"
)


def _os_config_path(text: str, cwds: frozenset[str | None]) -> str | None:
    """The operating system's configuration file `text` names (normalised), or None."""
    from aintern_ls.safety.paths import OS_CONFIG

    if text.startswith("/"):
        if "etc/" not in text and "SystemConfiguration" not in text:
            return None
        p = posixpath.normpath(text)
    else:
        cwd = next((c for c in cwds if c is not None and c.startswith("/")), None)
        if cwd is None or text.startswith(("~", "$")):
            return None
        p = posixpath.normpath(posixpath.join(cwd, text))
    if OS_CONFIG.match(p):
        return p
    # `rm -rf /etc/apt`, `rm -r /etc/profile.d/`: the whole tree whose files are the system's
    # configuration is no less than one of them (n13u)
    return p if p.count("/") == 2 and OS_CONFIG.match(p + "/x") else None


# A glob over the system's own programs, libraries or drivers: every entry (`*`, `*.*`) or
# every file of a code type (`*.so*`, `*.dll`, `*.sys`, `*.ko`, `*.dylib`). Below a lib
# folder only its architecture folder (`/usr/lib/x86_64-linux-gnu/*`) is the system's code;
# any other sub-folder is one package's (`/usr/lib/jvm/*`, `/usr/local/lib/node_modules/*`).
_CODE_FOLDER_GLOB = re.compile(
    r"[\"']?(?:/(?:usr/)?(?:local/)?(?:s?bin|lib(?:32|64|x32)?|libexec)"
    r"(?:/\w+-(?:linux|kfreebsd|gnu|pc|apple)[\w-]*)?"
    r"|(?:[a-z]:|%systemroot%|%windir%|\$env:systemroot|\$env:windir)(?:/windows)?"
    r"/(?:system32|syswow64)(?:/drivers)?)"
    r"/(?:\*|\*\.\*|\*\.(?:so\*?|so\.\*|ko\*?|dll|sys|exe|efi|dylib))[\"']?\Z"
)
_SUBSTITUTION = re.compile(r"\$\([^()]*\)|\$\{[^{}]*\}|\$\w+|`[^`]*`")


# Scratch folders: nothing below them is a boot or account file.
_SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/", "/run/user/")


def _inside_boot_folder(text: str) -> str | None:
    """`/boot/vmlinuz-$(uname -r)`, `/boot/efi/EFI/$DISTRO/grubx64.efi`: a path whose folder
    part is literal and lies in a boot folder (every file there is a boot file), its
    substitutions standing for any name; the path as written, or None."""
    t = text.strip("\"'")
    if t[:1] != "/" or t.startswith(_SCRATCH) or ("$" not in t and "`" not in t):
        return None  # (a cheap exit: only an absolute path outside the scratch folders)
    static = _SUBSTITUTION.sub("x", t)
    if "$" in static or "`" in static or ".." in static.split("/"):
        return None
    p = classify_path(static, frozenset([None]))
    hit = p.rule in ("rm-system-file", "rm-system") and p.level >= B
    return t if hit and static.startswith("/") else None


def _in_known_cwds(low: str, cwds: frozenset[str | None]) -> list[str]:
    """A relative glob as written and as read in each directory an earlier `cd` may have
    set (`cd /etc && shred -u *` is `/etc/*`; after `cd /etc;` it may also be the start
    directory's) (b12)."""
    if low[:1] in ("/", "~", "$", "%") or ":" in low[:3]:
        return [low]
    return [low] + [
        posixpath.join(cwd.replace("\\", "/").lower(), low)
        for cwd in cwds
        if cwd is not None and "$" not in cwd
    ]


def delete_targets(cmd: Cmd, targets: list[Word], recursive: bool, verb: str) -> None:
    """`_delete_targets` for other modules (tar --remove-files)."""
    _delete_targets(cmd, targets, recursive, verb)


def _state_folder(text: str, cwds: frozenset[str | None]) -> str | None:
    """The named system-state folder a delete target is (`paths.system_state`)."""
    return system_state(text, cwds)


def _trust_store_matched(text: str, cwds: frozenset[str | None]) -> str | None:
    seen = _in_known_cwds(text.replace("\\", "/").lower(), cwds)
    return next((h for low in seen if (h := trust_store_glob(low))), None)


def _delete_targets(cmd: Cmd, targets: list[Word], recursive: bool, verb: str) -> None:
    """Judge each target of a delete; the worst one decides the finding."""
    if not targets:
        return
    scope = cmd.scope
    if UNIX_LINKS in scope.env:
        from aintern_ls.safety.wrappers import through_link as unix_through_link

        targets = [unix_through_link(scope, t) for t in targets]  # (n13u)
    worst_level, worst = RiskLevel.SAFE, None
    worst_word = targets[-1]
    source = scope.source
    # (s21) A literal target written again the same way (same text, glob, origin and source
    # text) is judged as its first sighting was: its level cannot pass the worst level kept
    # since, so it is skipped (`sudo sudo … ` cut at the wrapper cap judges its 2,000 words
    # as rm's targets: 2,000 classifications of `sudo`). Nothing here spends steps.
    judged: set[tuple[str, bool, str, str | None]] = set()
    for i, t in enumerate(targets):
        if i & 63 == 63:
            # (each target's classification costs 5-18 µs, paid as half a step with its
            # word: `rm -rf a a a …` of 10,000 characters ran 50-90 ms past the clock)
            budget.clock_check()
        if not t.dynamic:
            key = (
                t.text,
                t.glob,
                t.origin,
                source[t.start : t.end] if 0 <= t.start < t.end <= len(source) else None,
            )
            if key in judged:
                continue
            judged.add(key)
        if t.dynamic and not t.text.strip("{}items"):
            level, rule, what = D, "scoped", "files chosen at run time"
        elif recursive and _DRIVE_BACKUPS.fullmatch(t.text):
            level, rule, what = B, "delete-backups", f"backup and disk-image files ({t.text})"
        elif "vz" in t.text and _VZDUMP.search(t.text):
            # (n17u) Proxmox's vzdump backups: the dump folder, a glob over it, or one
            # named backup file (every backup and one named backup are blocked)
            level, rule, what = B, "delete-backups", f"Proxmox VM backups ({t.text})"
        elif t.dynamic and (climb := _climbs_to_root(t.text)) is not None:
            level, rule, what = B, "rm-root", climb
        elif (
            t.dynamic
            and re.match(r"[\"']?\$\{?(?:TMPDIR|TMP|TEMP|TEMPDIR|TMP_DIR)\}?/", t.text)
            and t.text.strip("'\"").rstrip("/").split("/")[1:].count("..") >= 2
        ):
            # `$TMPDIR/../../`: two levels above the temp folder (/tmp, /var/tmp) is the
            # root (safety-f6); above a folder of unknown depth (`$BUILD/../..`) it stays
            # critical below.
            level, rule, what = B, "rm-unknown-root", f"{t.text}, which climbs out of a variable"
        elif t.dynamic and ".." in t.text.split("/")[1:]:
            # `$TMPDIR/..`: `..` above a directory we cannot see could be anywhere.
            level, rule, what = C, "rm-unknown-root", f"{t.text}, which climbs out of a variable"
        elif t.dynamic and (empty := _as_if_empty(cmd, t, recursive)) is not None:
            level, rule, what = empty
        else:
            text = long_names(t.text) if scope.windows and "~" in t.text else t.text
            if LINKS in scope.env:
                text = through_link(scope.env, text, recursive and scope.family == "powershell")
            inside = wsl_unc_posix(text) if scope.windows and text[:2] in ("\\\\", "//") else None
            if inside is not None:
                # `rd /s /q \\wsl$\Ubuntu\etc`: a WSL distribution's own files, by their
                # Linux path
                target = classify_path(inside, frozenset([None]), False, None)
            else:
                target = classify_path(text, scope.cwds, scope.windows, scope.start_cwd)
            if not scope.windows and (raw := _written_windows_path(scope.source, t)):
                # `rm -rf C:\Windows\System32` in a bash fence: the shell eats the
                # backslashes, but the author (and a Windows shell the line reaches) means
                # the Windows path; judge what was written as well.
                as_written = classify_path(raw, scope.cwds, True, None)
                if as_written.level > target.level:
                    target = as_written
            level, rule, what = target.level, target.rule, target.what
            if t.dynamic and level < B and (inside := _inside_boot_folder(t.text)) is not None:
                # `rm -f /boot/vmlinuz-$(uname -r)`: whatever the substitution gives, the
                # file is one of an account or boot folder's (safety-tgt9)
                level, rule, what = B, "rm-system-file", f"the account or boot file {inside}"
            if (
                t.dynamic
                and rule != "rm-system-file"
                and (folder := protected_unknown_name(t.text))
            ):
                # `rm -f /mnt/c/Windows/System32/config/$f` (WSL, Git Bash): a name only
                # known at run time in a Windows folder whose every file Windows needs
                level, rule = B, "rm-system-file"
                what = f"a file only known at run time inside {folder} (every file there is"
                what += " one Windows needs)"
            if (
                not recursive
                and level == B
                and rule not in ("rm-system-file", "delete-backups", "cert-store-wipe")
                and not _EVERY_FILE.search(t.text)
                and not (rule == "rm-home" and (t.glob or t.text in CWD_WIDE))
            ):
                # (`rm -f ~/*`, `cd ~ && shred -u *`: every file of home is gone even
                # without -r, as `home_entries_deleted` says for the literal spellings (b12))
                # Without -r only files go: a glob over a system dir still breaks it.
                level = C if t.glob and rule in ("rm-system", "rm-root") else D

            if t.dynamic and level < D:
                level = D
            if recursive and level < B and (state := _state_folder(t.text, scope.cwds)):
                # `rm -rf /etc/kubernetes /var/lib/etcd`, `rm -rf /usr/lib/x86_64-linux-gnu`:
                # a cluster's control-plane store or the system's own libraries (b12)
                level, rule, what = B, "rm-system", f"the system state folder {state}"
            if (
                level < B
                and "*" in t.text
                and "$" not in t.text
                and (store := _trust_store_matched(t.text, scope.cwds)) is not None
            ):
                # (n17u) `rm -f /etc/ssl/certs/*`, `rm /usr/local/share/ca-certificates/*`,
                # `find … | xargs rm`, `for f in …/*`: a glob over a machine trust store's
                # files empties it (session 17)
                level, rule = B, "cert-store-wipe"
                what = f"the machine trust store {store} (every file {t.text} matches)"
            if level < B and t.glob and not t.dynamic:
                seen = _in_known_cwds(t.text.replace("\\", "/").lower(), scope.cwds)
                if any(_CODE_FOLDER_GLOB.match(low) for low in seen):
                    # (safety-tgt9) `rm -f /usr/bin/*`, `del C:\Windows\System32\*.dll`:
                    # every program, library or driver of the system's own code folder
                    level, rule = B, "rm-system"
                    what = f"every program or library matched by {t.text}"
                elif (
                    hit := next(
                        (h for low in seen if (h := glob_account_file(low.strip("\"'")))),
                        None,
                    )
                ) is not None:
                    # `rm -f /etc/*`, `rm /etc/pass*`: the glob takes an account file
                    level, rule = B, "rm-system-file"
                    what = f"the account or boot file {hit} (matched by {t.text})"
        if level > worst_level:
            worst_level, worst, worst_word = level, (rule, what), t
    if worst_level < C and scope.windows and any(_EVENT_LOG.search(t.text) for t in targets):
        # `del …\winevt\Logs\Security.evtx`: Windows event logs deleted, as `wevtutil cl`
        worst_level, worst = C, ("clear-logs", "Windows event log files")
        worst_word = next(t for t in targets if _EVENT_LOG.search(t.text))
    if worst_level < C and scope.windows:
        # `del /f /q C:\Windows\System32\drivers\etc\hosts`: a named file of the Windows
        # installation deleted (session 7 convention): critical; its temp folders stay low.
        for t in targets:
            if not t.dynamic and _WINDOWS_NAMED_FILE.match(t.text.strip("\"'")):
                worst_level, worst, worst_word = C, ("rm-system-file", f"{t.text}"), t
                break
    if worst_level < C and not scope.windows:
        # `rm /etc/resolv.conf`, `rm -f /etc/apt/sources.list.d/*.list`: the operating
        # system's own configuration deleted by name (session-7 convention; safety-m8)
        named: set[str] = set()  # (s21: a literal text asked again answers as before)
        for t in targets:
            if not t.dynamic:
                if t.text in named:
                    continue
                named.add(t.text)
            p = _os_config_path(t.text.strip("\"'"), scope.cwds)
            if not t.dynamic and p is not None:
                worst_level, worst, worst_word = C, ("rm-system-file", p), t
                break
            if not t.dynamic and "cert" in t.text and trust_store(t.text.lower().rsplit("/", 1)[0]):
                # (n17u) one named certificate of a machine trust store (session 16)
                worst = ("cert-trust-removed", f"the trusted certificate {t.text}")
                worst_level, worst_word = C, t
                break
    if worst_level < C and cmd.name in ("shred", "srm", "wipe"):
        # `shred -u /var/lib/mysql/*`: a database's files overwritten beyond recovery (a
        # wiper's step); a plain `rm` of the same folder stays dangerous.
        for t in targets:
            if _SERVICE_DATA.match(t.text.strip("\"'")):
                worst_level, worst, worst_word = (
                    C,
                    ("wipe", f"a service's data files ({t.text})"),
                    t,
                )
                break
    if worst is None:
        return
    rule, what = worst
    if worst_level >= C:
        cmd.add(worst_level, rule, f"{verb} {what}", worst_word)
    else:
        cmd.add(
            D,
            cmd.name if cmd.name in ("rm", "shred") else "delete",
            f"{verb} " + ("files" if not recursive else "directories recursively"),
            worst_word,
        )


def whole_tree(cwds: frozenset[str | None], tree: str, windows: bool) -> Target | None:
    """The root, a home or a system folder that a working-tree cleaner run in `tree` (a
    folder it was given, or `.`: the working directory an earlier `cd` set) wipes; None when
    the tree is a project's or not known (`git clean -fdx` alone stays scoped)."""
    t = classify_path(tree or ".", cwds, windows)
    if t.level >= B and t.rule not in ("rm-system-file", "rm-cwd"):
        return t
    return None


# Version-control working-tree cleaners other than git's (git.py judges `git clean`):
# subcommand -> the options that make it delete (empty: it always deletes).
TREE_CLEANERS = frozenset(names("hg svn bzr brz"))
_CLEANER_VERBS = {
    "hg": ({"purge", "clean"}, frozenset()),
    "svn": ({"cleanup"}, frozenset({"--remove-unversioned", "--remove-ignored"})),
    "bzr": ({"clean-tree"}, frozenset()),
    "brz": ({"clean-tree"}, frozenset()),
}


def tree_cleaned(cmd: Cmd) -> None:
    """`cd ~ && hg purge --all`, `svn cleanup --remove-unversioned ~`, `bzr clean-tree
    --force` after `cd /`: a working-tree cleaner deletes every file its version control
    does not track in the tree; when that tree is the root, a home or a system folder, it is
    a wipe of it (as `git clean -fdx` after `cd ~`) (b12)."""
    verbs, needs = _CLEANER_VERBS[cmd.name]
    texts = cmd.texts()
    at = next((k for k, t in enumerate(texts) if t in verbs), None)
    if at is None or (needs and needs.isdisjoint(texts)):
        return
    if any(t in ("-n", "--dry-run", "--print", "-p", "--print0", "-0") for t in texts):
        return
    tree = ""
    for k, t in enumerate(texts):
        if t in ("--cwd", "-R", "--repository", "-d", "--directory") and k + 1 < len(texts):
            tree = texts[k + 1]
    if not tree and cmd.name == "svn":
        tree = next((t for t in texts[at + 1 :] if not t.startswith("-")), "")
    hit = whole_tree(cmd.scope.cwds, tree, cmd.scope.windows)
    if hit is not None:
        cmd.add(B, hit.rule, f"{cmd.name} {texts[at]} deletes every untracked file in {hit.what}")


# (n19u) Tools that empty or remove a folder they are given before (or while) they write to
# it: name -> (verbs one of which must be given (empty: any), options one of which must be
# given (empty: none), options whose value is the folder, whether the first operand after
# the verb is the folder, options that keep the folder's files, options that take a value
# before the operand). pytest deletes --basetemp first; `venv --clear` empties its target;
# `cargo clean` removes the target dir; mkdocs, jekyll and Angular's build empty their output
# folder by default, vite with --emptyOutDir, tsup with --clean, webpack with --output-clean,
# hugo with --cleanDestinationDir; `bazel --output_base=D clean --expunge` removes D.
_FolderSpec = tuple[
    frozenset[str], frozenset[str], frozenset[str], bool, frozenset[str], frozenset[str]
]
_NONE: frozenset[str] = frozenset()


def _spec(
    verbs: str = "",
    needs: str = "",
    opts: str = "",
    positional: bool = False,
    spared: str = "",
    valued: str = "",
) -> _FolderSpec:
    return (
        frozenset(names(verbs)),
        frozenset(names(needs)),
        frozenset(names(opts)),
        positional,
        frozenset(names(spared)),
        frozenset(names(valued)),
    )


_FOLDER_CLEANERS: dict[str, _FolderSpec] = {
    "pytest": _spec(opts="--basetemp"),
    "py.test": _spec(opts="--basetemp"),
    "venv": _spec(needs="--clear", positional=True, valued="--prompt"),
    "virtualenv": _spec(
        needs="--clear", positional=True, valued="-p --python --prompt --activators"
    ),
    "uv": _spec(verbs="venv", needs="--clear", positional=True, valued="-p --python --prompt"),
    "cargo": _spec(verbs="clean", opts="--target-dir"),
    "sphinx-build": _spec(verbs="clean"),  # `-M clean SOURCEDIR BUILDDIR` (below)
    "mkdocs": _spec(verbs="build gh-deploy", opts="-d --site-dir", spared="--dirty"),
    "jekyll": _spec(verbs="build b serve s", opts="-d --destination"),
    "hugo": _spec(needs="--cleanDestinationDir", opts="-d --destination"),
    "vite": _spec(verbs="build", needs="--emptyOutDir", opts="--outDir"),
    "tsup": _spec(needs="--clean", opts="-d --out-dir"),
    "webpack": _spec(needs="--output-clean", opts="-o --output-path"),
    "webpack-cli": _spec(needs="--output-clean", opts="-o --output-path"),
    "ng": _spec(verbs="build", opts="--output-path", spared="--delete-output-path=false"),
    "bazel": _spec(verbs="clean", needs="--expunge", opts="--output_base"),
    "bazelisk": _spec(verbs="clean", needs="--expunge", opts="--output_base"),
}
FOLDER_CLEANERS = frozenset(_FOLDER_CLEANERS)


def folder_cleaned(cmd: Cmd) -> None:
    """`pytest --basetemp=~`, `python -m venv --clear /usr`, `cargo clean --target-dir /`,
    `mkdocs build -d ~`: a tool that empties the folder it is given, pointed at the root, a
    home, a system folder or the working directory, wipes it (blocked, as `rm -rf` of it
    is); any other folder is the tool's to clean (n19u)."""
    verbs, needs, opts, positional, spared, valued = _FOLDER_CLEANERS[cmd.name]
    args = cmd.args[:64]
    texts = [w.text for w in args]
    at = next((k for k, t in enumerate(texts) if t in verbs), None) if verbs else -1
    if at is None:
        return
    keys = {t.split("=", 1)[0] for t in texts if t.startswith("-")}
    if (needs and needs.isdisjoint(keys)) or not spared.isdisjoint(texts):
        return
    if any(t in ("-n", "--dry-run", "--help", "-h", "--version") for t in texts):
        return
    folders: list[Word] = []
    for k, w in enumerate(args):
        key, eq, val = w.text.partition("=")
        if key in opts:
            if eq:
                folders.append(Word(val, w.start, w.end, w.dynamic))
            elif k + 1 < len(args):
                folders.append(args[k + 1])
    if cmd.name == "sphinx-build" and at is not None and at > 0 and texts[at - 1] == "-M":
        ops = [w for w in args[at + 1 :] if not w.text.startswith("-")]
        folders += ops[1:2]  # `sphinx-build -M clean docs ~`: make-mode clean removes BUILDDIR
    elif cmd.name == "sphinx-build":
        return
    if cmd.name in ("pytest", "py.test") and "--cache-clear" in texts:
        # `pytest --cache-clear -o cache_dir=~`: the cache folder is removed first
        for k, w in enumerate(args):
            t = w.text
            if t in ("-o", "--override-ini") and k + 1 < len(args):
                t, w = args[k + 1].text, args[k + 1]
            elif t.startswith(("-o", "--override-ini=")):
                t = t.split("=", 1)[1] if t.startswith("--") else t[2:]
            else:
                continue
            if t.startswith("cache_dir="):
                folders.append(Word(t.split("=", 1)[1], w.start, w.end, w.dynamic))
    if positional:
        k = at + 1
        while k < len(args):
            t = texts[k]
            if t.startswith("-"):
                k += 2 if t in valued else 1
                continue
            folders.append(args[k])
            break
    for folder in folders[:4]:
        text = folder.text.strip()
        if not text:
            continue
        quoted = f'"{text}"' if folder.dynamic else shlex.quote(text)
        found = cmd.scope.nested(f"rm -rf -- {quoted}", "bash", folder, -1)
        hit = [f for f in found if f.level >= B]
        if hit:
            cmd.scope.include(hit)
            reason = f"{cmd.name} empties the folder it is given: {hit[0].reason}"
            cmd.add(B, "cleaned-folder", reason, folder)


def no_target_delete(cmd: Cmd) -> None:
    """A deleter given no target but fed by a pipe (gen11, from agent gates' tests): `find .
    -name '*.rs' | rm`, `ls | grep .git | rm -rf`, `dir | del` (cmd) mean to delete what the
    pipeline lists (the xargs mistake): dangerous, like deleting a list read from a file.
    Without a pipe nothing is named and nothing is deleted (`rm -rf` alone, `xargs -i rm -rf`
    with no `{}`): moderate, as the ext6 tests settle."""
    if cmd.stdin.kind != STDIN_NONE:
        cmd.add(D, "rm", f"{cmd.name} is given no target: it is meant to delete what is piped in")
    else:
        cmd.add(M, "rm", f"{cmd.name} without operands")


@handles("rm", "srm", "trash", "trash-put", "gio")
def _rm(cmd: Cmd) -> None:
    if cmd.name == "gio" and cmd.args[:1] and cmd.args[0].text == "trash" and cmd.long("--empty"):
        cmd.add(D, "delete", "empties the trash: its files are deleted for good")
        return
    if cmd.name == "gio" and (not cmd.args or cmd.args[0].text not in ("remove", "trash")):
        cmd.add(M, "unknown-command", "gio may change files")
        return
    to_trash = cmd.name in ("trash", "trash-put") or (
        cmd.name == "gio" and cmd.args[:1] and cmd.args[0].text == "trash"
    )
    if to_trash and cmd.long("--list"):
        return  # `gio trash --list`: lists what the trash holds
    recursive = cmd.short("rR") or cmd.long("--recursive")
    targets = cmd.operands()
    if cmd.name == "gio":
        targets = targets[1:]
    if not targets:
        if not to_trash:
            no_target_delete(cmd)
        else:
            cmd.add(M, "rm", "rm without operands")
        return
    mark = len(cmd.scope.findings)
    # (the trash takes a folder whole: moving one there is recursive)
    _delete_targets(cmd, targets, recursive or bool(to_trash), "deletes")
    if to_trash:
        # Moved to the trash, not deleted: an ordinary file can be restored (moderate,
        # safety-cli8); what is whole-system stays as judged (the system breaks meanwhile).
        found = cmd.scope.findings
        found[mark:] = [
            attrs.evolve(f, level=M, rule="trash", reason="moves files to the trash (restorable)")
            if f.level == D
            else f
            for f in found[mark:]
        ]


def _backups_emptied(cmd: Cmd, targets: list[Word]) -> bool:
    """(r18) every file of a backup folder emptied (`truncate -s 0 /var/backups/*`, find
    -exec truncate over it) is every backup destroyed, as deleting them: blocked."""
    from aintern_ls.safety.clis import backup_place

    for t in targets:
        if t.dynamic or ("backup" not in t.text.lower() and "bak" not in t.text.lower()):
            continue
        place = backup_place(t.text)
        if place is not None:
            cmd.add(B, "delete-backups", f"{cmd.name} empties every file of {place}", t)
            return True
    return False


def _truncate_size(cmd: Cmd) -> str | None:
    """truncate's size argument (`-s 1G`, `-s1G`, `--size=+10M`, `--size 5G`), or None."""
    texts = cmd.texts()
    for i, t in enumerate(texts):
        if t in ("-s", "--size"):
            return texts[i + 1] if i + 1 < len(texts) else None
        if t.startswith("--size="):
            return t[len("--size=") :]
        if t.startswith("-s") and len(t) > 2 and not t.startswith("--"):
            return t[2:]
    return None


_NONZERO_SIZE = re.compile(r"\A0*[1-9][0-9]{0,15}(?:[KMGTPEZY](?:i?B)?|[kK]B?)?\Z")


def _truncate_grows(cmd: Cmd, targets: Sequence[Word]) -> bool:
    """(h19) `truncate -s +10M f` / `-s '>1G' f` only extend a file (zeros appended); `-s
    10G disk.img` sizes a disk image file (a sparse file made or grown): no content is
    lost. Any other size (0, `-N`, `<N`, `%N`, `/N`, a reference file) may cut data off;
    a system, startup or secret file, a glob or a computed word keeps its level."""
    size = _truncate_size(cmd)
    if not size or not targets or cmd.has("-r", "--reference") or cmd.short("r"):
        return False
    if any(
        t.dynamic or t.glob or write_target(t.text, cmd.scope.cwds) is not None for t in targets
    ):
        return False
    if any(is_secret(t.text) for t in targets):
        return False
    if size[0] in "+>" and _NONZERO_SIZE.match(size[1:]):
        return True
    return bool(_NONZERO_SIZE.match(size)) and all(_IMAGE_FILE.search(t.text) for t in targets)


def _truncate_to_reference(cmd: Cmd, targets: Sequence[Word]) -> bool:
    """(h20) `truncate -r ref.bin out.bin`: sizes a named project file like another file (how
    image and test files are made); no size is given that empties it. A system, startup or
    secret file, a glob, a computed word, or a size given too, keep their level."""
    if not targets or _truncate_size(cmd) is not None:
        return False
    if not (cmd.long("--reference") or cmd.has("-r")):
        return False
    return not any(
        t.dynamic
        or t.glob
        or not t.text
        or write_target(t.text, cmd.scope.cwds) is not None
        or is_secret(t.text)
        for t in targets
    )


_WHOLE_SCOPES = frozenset({"rm-root", "rm-home", "rm-system", "rm-cwd"})


def emptied_whole(
    cmd: Cmd, targets: list[Word] | tuple[Word, ...], verb: str, listed: bool = False
) -> bool:
    """(f19) A file emptier (`truncate -s0`, `cp /dev/null`, Clear-Content, `type nul >`)
    handed the root, a home or a system folder's contents (a glob, a listing's items when
    `listed`, a loop's item): every file's content is lost, as surely as deleted: blocked, as
    the wipe. True if so. One named file is judged by the write rules; log folders stay the
    log wipe (critical)."""
    for t in targets:
        globbed = any(c in t.text for c in "*?")
        if (t.dynamic and not t.text) or not (globbed or (listed and t.origin != "item")):
            continue  # (`Get-Item X | Clear-Content`: that one item, judged as named)
        if is_log_dir(t.text):
            where = t.text.removesuffix("*").rstrip("\\/")
            cmd.add(C, "log-wipe", f"{verb} every system log in {where}", t)
            return True
        whole = classify_path(t.text, cmd.scope.cwds, cmd.scope.windows)
        if whole.level >= B and whole.rule in _WHOLE_SCOPES:
            cmd.add(B, "truncate", f"{verb} every file in {whole.what}", t)
            return True
    return False


# Files that are the command's own standard input.
STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def stdin_written(cmd: Cmd, target: Word) -> None:
    """(f19) A file written from the command's standard input (`cp /dev/stdin x.sh <<EOF`,
    `install -m755 /dev/stdin x`, `dd of=x.sh`, `… | sponge x.sh`): its text is what stdin
    holds, so running it later runs that text (a download piped in stays unseen)."""
    if target.dynamic or not target.text or target.text in STDIN_FILES:
        return
    if cmd.stdin.kind == "static":
        cmd.scope.written[target.text.rsplit("/", 1)[-1]] = (cmd.stdin.text, cmd.stdin.start)
    elif cmd.stdin.kind == "network":
        from aintern_ls.safety.wrappers import remember_unseen

        remember_unseen(cmd.scope, target.text, "was just downloaded")


@handles("shred", "wipe", "unlink", "truncate")
def _shred(cmd: Cmd) -> None:
    targets = cmd.operands(frozenset({"-n", "-s", "--size", "-r", "--reference", "--iterations"}))
    for t in targets:
        if is_device(t.text):
            cmd.add(B, "disk-wipe", f"{cmd.name} destroys the disk {t.text}", t)
            return
    if cmd.name == "truncate":
        if _backups_emptied(cmd, [t for t in targets if t.glob]):
            return
        for t in targets:
            if t.glob or t.text in CWD_WIDE:
                whole = classify_path(t.text, cmd.scope.cwds, cmd.scope.windows)
                if whole.rule == "rm-home":
                    # `truncate -s 0 ~/*`, `cd ~ && truncate -s 0 *`: every file of home
                    # emptied is home wiped (as `rm -f ~/*`) (b12)
                    cmd.add(B, "rm-home", f"truncate empties every file of {whole.what}", t)
                    return
        if _truncate_grows(cmd, targets):
            cmd.add(M, "write", "truncate only extends the file (or sizes a new image file)")
            return
        if _truncate_to_reference(cmd, targets):
            cmd.add(M, "write", "truncate sizes a project file like the reference file")
            return
        if emptied_whole(cmd, targets, "truncate empties"):
            return
        cmd.add(D, "truncate", "truncate discards file contents")
        return
    _delete_targets(cmd, targets, cmd.short("r") and cmd.name == "wipe", f"{cmd.name} destroys")


@handles("rmdir")
def _rmdir(cmd: Cmd) -> None:
    if cmd.scope.family == "cmd":
        from aintern_ls.safety.registry import WINDOWS_HANDLERS

        return WINDOWS_HANDLERS["rd"](cmd)
    cmd.add(M, "rmdir", "removes empty directories")
    return None


_FIND_FILTERS = frozenset(
    names(
        """
        -name -iname -path -ipath -wholename -iwholename -regex -iregex -newer -mtime -mmin
        -atime -amin -ctime -cmin -size -empty -links -inum -samefile -lname -ilname -used
        -newermt
        """
    )
)


# Other find primaries that take one value.
_FIND_VALUED = frozenset(
    names(
        "-maxdepth -mindepth -type -xtype -user -group -uid -gid -perm -fstype -printf -regextype"
    )
)


_DELETERS = frozenset(names("rm unlink shred srm /bin/rm /usr/bin/rm"))


def _trust_store_listed(starts: list[Word], tests: list[Word]) -> str | None:
    """The trust store a find lists every file of (its name tests are globs), else None."""
    store = next(
        (s.text for s in starts if not s.dynamic and trust_store(s.text.lower().rstrip("/"))),
        None,
    )
    for k, w in enumerate(tests[:-1]):
        if w.text in ("-name", "-iname", "-path", "-ipath") and not any(
            c in tests[k + 1].text for c in "*?["
        ):
            return None
    return store.rstrip("/") if store is not None else None


def _trust_store_emptied(cmd: Cmd, starts: list[Word], tests: list[Word], at: Word) -> None:
    """`find /etc/ssl/certs -type f -delete`, `find … -name '*.pem' -exec rm {} +`: every
    file of a machine trust store a selector (a type or a glob name test) picks (n17u); one
    literal name stays one certificate (critical, judged as the path it names)."""
    store = next(
        (s.text for s in starts if not s.dynamic and trust_store(s.text.lower().rstrip("/"))),
        None,
    )
    if store is None:
        return
    for k, w in enumerate(tests[:-1]):
        if w.text in ("-name", "-iname", "-path", "-ipath") and not any(
            c in tests[k + 1].text for c in "*?["
        ):
            why = f"find deletes the trusted certificate {tests[k + 1].text} from {store}"
            cmd.add(C, "cert-trust-removed", why, at)
            return
    cmd.add(B, "cert-store-wipe", f"find empties the machine trust store {store}", at)


def _named_paths(starts: list[Word], tests: list[Word]) -> list[tuple[str, Word]]:
    """`find /etc -name passwd`: the files a literal name under a start directory names."""
    out: list[tuple[str, Word]] = []
    for k, w in enumerate(tests[:-1]):
        if w.text in ("-regex", "-iregex") or (
            w.text in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename")
            and any(c in tests[k + 1].text for c in "*?[")
        ):
            out += _account_files_matched(starts, w.text, tests[k + 1])  # (n10u, round 10)
            continue
        if w.text not in ("-name", "-iname", "-path", "-ipath", "-wholename"):
            continue
        name = tests[k + 1]
        if name.dynamic or any(c in name.text for c in "*?["):
            continue
        for start in starts:
            if start.dynamic:
                continue
            if w.text in ("-name", "-iname"):
                out.append((start.text.rstrip("/") + "/" + name.text, name))
                # `find / -name libc.so.6 -delete`: the core runtime file of that name
                # below the start (n14u)
                out += _account_files_matched([start], w.text, name)
                # `find / -name shadow`: any directory below may hold it; the account
                # files are the ones that matter.
                if start.text.rstrip("/") in ("", "/etc"):
                    out.append((f"/etc/{name.text}", name))
            else:
                out.append((name.text, name))
    return out


def _account_files_matched(starts: list[Word], test: str, pattern: Word) -> list[tuple[str, Word]]:
    """`find /etc -name 'pass*'`, `find /etc -regex '.*/shadow'`: the account or boot files a
    pattern test selects below a start that holds them (find(1): -name globs the base name,
    -regex matches the whole path)."""
    if pattern.dynamic or len(pattern.text) > 200:
        return []
    roots = [s.text.rstrip("/") for s in starts if not s.dynamic] or ["."]
    out: list[tuple[str, Word]] = []
    for acct in ACCOUNT_NAMES + CORE_RUNTIME_NAMES:  # (n14u) the loader and libc too
        if not any(acct.startswith(r + "/") for r in roots if r.startswith("/") or r == ""):
            continue
        if test in ("-name", "-iname"):
            base = acct.rsplit("/", 1)[-1]
            pat = pattern.text.lower() if test == "-iname" else pattern.text
            hit = fnmatch.fnmatchcase(base.lower() if test == "-iname" else base, pat)
        elif test in ("-path", "-ipath", "-wholename", "-iwholename"):
            # the whole path as find prints it (n11u): `-path '/etc/pass*'`, `-path '*/shadow*'`
            fold = test.startswith("-i")
            pat = pattern.text.lower() if fold else pattern.text
            hit = fnmatch.fnmatchcase(acct.lower() if fold else acct, pat)
        else:
            try:
                flags = re.I if test == "-iregex" else 0
                hit = re.fullmatch(pattern.text, acct, flags) is not None
            except re.error:
                hit = False
        if hit:
            out.append((acct, pattern))
    return out


_SYSTEM_CODE_GLOB = re.compile(
    r"(?i)\*\.(?:so(?:\.\*|\*)?|so\.\d\*?|ko(?:\.\w+|\*)?|dll|sys|exe|efi|dylib|kext|a)|lib\*\.so\*?"
)


def _named_system_files(cmd: Cmd, starts: list[Word], tests: list[Word], verb: str) -> None:
    """`find /etc -name passwd -delete`: a literal name under a start directory names the
    file it deletes; an account or boot file there is blocked."""
    for path, name in _named_paths(starts, tests):
        target = classify_path(path, cmd.scope.cwds, cmd.scope.windows)
        if target.level >= B and target.rule == "rm-system-file":
            cmd.add(B, target.rule, f"{verb} {target.what}", name)
            return
    # (safety-tgt9) `find / -name '*.so*' -delete`, `find /usr/lib -name '*.ko' -delete`:
    # every library, kernel module, driver or boot program below the root or a system tree
    # is the system's own code, whatever else the tree holds
    texts = [w.text for w in tests]
    for k, t in enumerate(texts[:-1]):
        if t not in ("-name", "-iname") or (k and texts[k - 1] in ("!", "-not")):
            continue
        pattern = texts[k + 1].strip("'\"")
        if not _SYSTEM_CODE_GLOB.fullmatch(pattern):
            continue
        for w in starts:
            text = w.text
            if w.dynamic:
                # `find /lib/modules/$(uname -r) -name '*.ko' -delete`: whatever the
                # substitution gives, it is one folder of that system tree (n10u)
                text = SUBSTITUTION.sub("x", text)
                if not text.startswith("/") or "$" in text or "`" in text:
                    continue
            target = classify_path(text, cmd.scope.cwds, cmd.scope.windows)
            if target.level >= B and target.rule in ("rm-root", "rm-system"):
                cmd.add(B, "rm-system", f"{verb} every {pattern} below {target.what}", tests[k + 1])
                return


def _plain_files_only(tests: list[Word]) -> bool:
    """(h18) `-type f` and no negation or alternative among the tests (`! -type f`, `-o`
    select folders too): each match is a file below the start, never the start itself."""
    return _files_only(tests) and not any(
        w.text in ("!", "-not", "-o", "-or", ",", "\\!") for w in tests
    )


def _files_only(tests: list[Word]) -> bool:
    """`-type f` among find's tests: only files are selected, never a folder."""
    texts = [w.text for w in tests]
    return any(
        t == "-type" and i + 1 < len(texts) and texts[i + 1] == "f" for i, t in enumerate(texts)
    )


def _narrows(args: list[Word], start: int, end: int, broad_cwd: bool = False) -> bool:
    """Whether the find tests between `start` and `end` pick a subset (`-name '*'` and
    `-path '*'` match everything, so they do not). `broad_cwd`: the working directory is
    known to be the root, a home or a system folder (`cd / && find . ! -path './proc*'
    -delete`): `.` is then read as that folder, not as a clean-up of a project (b12)."""
    roots = {".", "./"} | {
        w.text.rstrip("/").rsplit("/", 1)[-1] or "/"
        for w in args[:start]
        if not w.text.startswith("-")
    }
    # (in the working directory, `find . ! -name '*.keep' -delete` is a clean-up: dangerous)
    here = not broad_cwd and any(w.text in (".", "./") for w in args[:start])
    for k in range(start, min(end, len(args))):
        if args[k].text in _FIND_FILTERS:
            value = args[k + 1].text if k + 1 < len(args) else ""
            if args[k].text in _MATCH_ALL_TESTS and value in ("*", "**", "./*", "*/*"):
                continue
            if args[k].text in ("-regex", "-iregex") and value in (".*", "./.*", ".+", "^.*$"):
                continue  # a regular expression that matches every path
            negated = k > 0 and args[k - 1].text in ("!", "-not")
            if negated and args[k].text in _MATCH_ALL_TESTS and value in roots:
                # `! -name . -prune`: excludes only the starting point, so every entry
                # below it is still selected.
                continue
            if negated and args[k].text in _MATCH_ALL_TESTS and not here:
                # `! -path '/proc/*'`, `-not -name '*.iso'`: an exclusion selects everything
                # else, so it narrows nothing (AwfulShred's `find / ! -path /proc/* -exec shred`).
                continue
            if args[k].text in _MATCH_ALL_TESTS and k + 2 < end and args[k + 2].text == "-prune":
                continue  # `-path /proc -prune -o …`: the pruned tree is the exclusion
            if args[k].text in _UNNAMED_TESTS and (broad_cwd or _broad_start(args[:start])):
                # `find ~ -type f -mtime -400`, `find /home -newer x`, `-size +0`: a time or a
                # size picks no named subset; below a root or a home it is still every file
                # (safety-m7; in the working directory it stays a clean-up).
                continue
            return True
    return False


def _broad_cwd(cmd: Cmd, starts: list[Word]) -> bool:
    """A find started in `.` after a `cd` to the root, a home or a system folder."""
    cwds = cmd.scope.cwds
    if cwds == _UNKNOWN_CWD or not any(w.text in (".", "./") for w in starts):
        return False
    return any(
        cwd is not None
        and classify_path(".", frozenset([cwd]), cmd.scope.windows).rule
        in ("rm-root", "rm-home", "rm-system")
        for cwd in cwds
    )


_UNKNOWN_CWD: frozenset[str | None] = frozenset([None])


def _broad_start(words: list[Word]) -> bool:
    """A find start that is the root, a home or every home (`/`, `~`, `$HOME`, `/home`)."""
    return any(
        re.fullmatch(r"/|~/?|\$HOME/?|\$\{HOME\}/?|/home/?|/Users/?|/root/?|/home/[^/]+/?", w.text)
        for w in words
        if not w.text.startswith("-")
    )


_UNNAMED_TESTS = frozenset(
    names("-newer -mtime -mmin -atime -amin -ctime -cmin -size -newermt -used")
)


_MATCH_ALL_TESTS = frozenset(names("-name -iname -path -ipath -wholename -iwholename"))


_DELETERS = frozenset({"rm", "shred", "unlink", "srm", "wipe", "truncate"})


_FIND_ACTIONS = frozenset(
    names("-delete -exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls -quit")
)


# fd options that take a value; those that narrow what is found (a type or an extension,
# a size, an owner, a time, a glob pattern given as `-g`).
_FD_VALUE = frozenset(
    names(
        """-e --extension -t --type -E --exclude -d --max-depth --min-depth --exact-depth -S
        --size --changed-within --changed-before --change-newer-than --change-older-than -o
        --owner --search-path --base-directory -j --threads --max-results --format -c
        --color --ignore-file --path-separator --batch-size"""
    )
)
_FD_NARROWS = frozenset(
    names(
        """-e --extension -t --type -S --size --changed-within --changed-before
        --change-newer-than --change-older-than -o --owner --max-results -1"""
    )
)
_FD_EXEC = frozenset(names("-x --exec -X --exec-batch"))
_FD_BROAD_TYPES = frozenset(names("f file d dir directory l symlink"))
# Patterns that match every name (fd searches for a regular expression by default).
_FD_EVERYTHING = frozenset({"", ".", "^", ".*", "^.*", "^.*$", ".+", "*", "**"})


def _fd(cmd: Cmd) -> None:
    """fd (fd-find) is find with a pattern first: `fd PATTERN [ROOT…] -x CMD`. A pattern
    that matches every name, with no type, extension, size or time filter, selects
    everything under the roots (the working directory by default): what it runs or prints
    covers all of it, like `find ROOT`."""
    args = cmd.args
    x = next((i for i, w in enumerate(args) if w.text in _FD_EXEC), len(args))
    positional: list[Word] = []
    narrowed = False
    roots: list[Word] = []
    i = 0
    while i < x:
        t = args[i].text
        key = t.split("=", 1)[0]
        value = t.split("=", 1)[1] if "=" in t else args[i + 1].text if i + 1 < x else ""
        if key in ("-t", "--type") and value in _FD_BROAD_TYPES:
            pass  # `-t f`: every file is still every file (as find's `-type f`)
        elif key in _FD_NARROWS or (t.startswith("-") and not t.startswith("--") and "1" in t):
            narrowed = True
        if key in ("--search-path", "--base-directory") and "=" in t:
            roots.append(Word(t.split("=", 1)[1], args[i].start, args[i].end, args[i].dynamic))
        elif key in ("--search-path", "--base-directory") and i + 1 < x:
            roots.append(args[i + 1])
        if t == "--":
            positional.extend(args[i + 1 : x])
            break
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in _FD_VALUE else 1
            continue
        positional.append(args[i])
        i += 1
    pattern = positional[0] if positional else None
    roots = roots or positional[1:] or [Word(".", cmd.words[0].start, cmd.words[0].end)]
    everything = not narrowed and (
        pattern is None or (not pattern.dynamic and pattern.text in _FD_EVERYTHING)
    )
    accounts = _fd_account_files(cmd, args[:x], pattern, roots) if not narrowed else []
    if x + 1 < len(args):
        inner = list(args[x + 1 :])
        cmd.judge([*inner, Word("{}", args[-1].start, args[-1].end, True)])
        for path in accounts[:4]:
            # `fd -g 'pass*' /etc -x rm`: the matched account file is what the command gets
            # (`{}` where written, else appended) (n11u)
            placed = [
                Word(w.text.replace("{}", path), w.start, w.end) if "{}" in w.text else w
                for w in inner
            ]
            if placed == inner:
                placed.append(Word(path, args[-1].start, args[-1].end))
            cmd.judge(placed)
        if everything and inner[0].text in _DELETERS:
            before = len(cmd.scope.findings)
            # fd lists what is below its roots, never a root itself: their contents go
            below = [Word(w.text.rstrip("/") + "/*", w.start, w.end, w.dynamic) for w in roots]
            _delete_targets(cmd, below, True, f"{cmd.name} --exec {inner[0].text} destroys")
            cmd.scope.findings[before:] = [f for f in cmd.scope.findings[before:] if f.level >= C]
        return
    if everything:
        # An unfiltered listing: what a downstream `xargs rm` gets is everything.
        cmd.info.paths = tuple(
            Word(w.text.rstrip("/") + "/*" if w.text.rstrip("/") else "/*", w.start, w.end)
            for w in roots
            if not w.dynamic
        )
    elif accounts:
        cmd.info.paths = tuple(Word(p, cmd.start, cmd.end) for p in accounts)


def _fd_account_files(
    cmd: Cmd, opts: list[Word], pattern: Word | None, roots: list[Word]
) -> list[str]:
    """The account or boot files an fd pattern selects below its roots: a regular expression
    searched in the file name by default, a glob over the whole name with -g, the full path
    with -p; case-insensitive unless the pattern has a capital (smart case), -i, -s."""
    if pattern is None or pattern.dynamic or len(pattern.text) > 200:
        return []
    texts = [w.text for w in opts]
    glob = "-g" in texts or "--glob" in texts
    full = "-p" in texts or "--full-path" in texts
    fold = (
        "-i" in texts
        or "--ignore-case" in texts
        or (
            not ("-s" in texts or "--case-sensitive" in texts)
            and pattern.text == pattern.text.lower()
        )
    )
    bases = [r.text.rstrip("/") for r in roots if not r.dynamic]
    out: list[str] = []
    for acct in ACCOUNT_NAMES + CORE_RUNTIME_NAMES:
        if not any(acct.startswith(b + "/") for b in bases if b.startswith("/") or b == ""):
            continue
        name = acct if full else acct.rsplit("/", 1)[-1]
        if glob:
            hit = fnmatch.fnmatchcase(
                name.lower() if fold else name, pattern.text.lower() if fold else pattern.text
            )
        else:
            try:
                hit = re.search(pattern.text, name, re.I if fold else 0) is not None
            except re.error:
                hit = False
        if hit:
            out.append(acct)
    return out


def _destroys_contents(inner: list[Word]) -> bool:
    r"""`-exec dd if=/dev/zero of={} \;`, `-exec cp /dev/null {} \;`, `-exec fallocate
    --punch-hole -o 0 -l 1M {} \;`, `-exec install /dev/null {} \;`: whatever the tool,
    each file find hands it is overwritten or emptied (safety-m8: the verb need not be rm)."""
    name = inner[0].text.rsplit("/", 1)[-1]
    texts = [w.text for w in inner[1:]]
    if name == "dd":
        return "of={}" in texts  # whatever it reads, each file is overwritten
    if name in ("cp", "install", "mv", "cat") and "{}" in texts:
        return any(t in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random") for t in texts)
    if name == "fallocate":
        return "{}" in texts and any(
            t in ("-p", "--punch-hole", "-c", "--collapse-range", "-z", "--zero-range")
            for t in texts
        )
    if name in ("ln",) and "{}" in texts:
        return "/dev/null" in texts and any(
            re.fullmatch(r"-[a-z]{0,8}f[a-z]{0,8}|--force", t) for t in texts
        )
    return False


def _shell_deleter(inner: list[Word]) -> bool:
    """`sh -c ': > "$1"' _ {}`, `bash -c 'rm -f "$@"' _ {} +`: a shell handed find's files
    whose code empties, shreds or deletes its arguments."""
    if inner[0].text.rsplit("/", 1)[-1] not in ("sh", "bash", "dash", "zsh", "ksh", "busybox"):
        return False
    code = next((inner[k + 1].text for k in range(len(inner) - 1) if inner[k].text == "-c"), "")
    arg = r"[\"']?(?:\$(?:1|@|\{1\}|\{@\})|\{\})[\"']?"
    return bool(
        re.search(rf"(?:^|[;&|\s]):?\s*>\s*{arg}", code)
        or re.search(rf"\b(?:rm|shred|truncate|unlink|srm|wipe)\b[^;&|]*{arg}", code)
        or re.search(rf"\bcp\s+/dev/null\s+{arg}", code)
    )


def _find_log_wipe(cmd: Cmd, starts: list[Word], expr: list[Word]) -> None:
    """`find /var/log -name '*.log' -exec rm {} +`, `find /var/log -mtime +0 -exec truncate
    -s0 {} \\;`: find deleting or emptying what it finds below a system log folder is log
    clearing (anti-forensics, session-8 convention: critical), whatever tests narrow it."""
    from aintern_ls.safety.paths import LOG_DIR, LOG_SUBDIR

    def is_log_dir(text: str) -> bool:
        low = text.replace("\\", "/").rstrip("/").lower()
        return bool(LOG_DIR.match(low) or LOG_SUBDIR.match(low))

    log = next((w for w in starts if not w.dynamic and is_log_dir(w.text)), None)
    if log is None:
        return
    for k, w in enumerate(expr):
        inner = expr[k + 1].text.rsplit("/", 1)[-1] if k + 1 < len(expr) else ""
        if w.text == "-delete" or (
            w.text in ("-exec", "-execdir", "-ok", "-okdir")
            and (inner in _DELETERS or inner in ("cp", "dd", "tee", "sh", "bash"))
            and (inner not in ("cp", "dd", "tee", "sh", "bash") or _empties(expr[k + 1 :]))
        ):
            cmd.add(C, "log-wipe", f"find deletes or empties the system logs in {log.text}", w)
            return


def _empties(inner: list[Word]) -> bool:
    """An -exec body that empties `{}`: `cp /dev/null {}`, `sh -c ': > "$1"'`."""
    text = " ".join(w.text for w in inner[:8])
    return "/dev/null" in text or bool(re.search(r"(^|[;&|\s]):?\s*>\s*\S", text))


# --- a disk or volume erased through an option of any tool (n10u, round 9) --------------------
# An imaging, restore or flashing tool nobody here models is told to erase or write over a
# disk: `asr restore --source x.dmg --target /Volumes/HD --erase`, `ntfsclone --restore-image
# --overwrite /dev/sda2 img`, `fsarchiver restfs a.fsa id=0,dest=/dev/sda1`, `imgtool
# --wipe=/dev/sdb`, `flashprep --format=/dev/mmcblk0`: whatever the program, an erasing
# option (or a restore verb) aimed at a whole device or a mounted volume destroys it.
_ERASE_OPTION = re.compile(
    r"(?i)\A(?:--?|/)(?:[a-z]+[-_])*(?:erase|wipe|format|overwrite|zap|nuke|zero|secure-?erase"
    r"|restore(?:-?image)?|flash|burn)(?:[-_][a-z]+)*(?:=(?P<value>.*))?\Z"
)
_RESTORE_VERB = re.compile(r"(?i)\A(?:restore|restfs|restoredisk|restoreparts|flash|burn|write)\Z")
_VOLUME_ROOT = re.compile(r"(?i)\A/volumes/[^/]+/?\Z")
_IMAGE_FILE = re.compile(r"(?i)\.(?:img|iso|dmg|wic|raw|sdcard)(?:\.(?:xz|gz|bz2|zst|zip))?\Z")
_TARGET_OPTION = re.compile(r"(?i)\A--?(?:drive|target|dest|destination|device|disk|to)\Z")


def _a_disk(text: str, volume: bool) -> str | None:
    """The device (or, with `volume`, macOS volume root) a word names, also inside a
    `key=value` list (`id=0,dest=/dev/sda1`)."""
    for part in re.split(r"[=,]", text) if ("=" in text or "," in text) else (text,):
        p = part.strip("'\"")
        if p.startswith("/dev/") and is_device(p):
            return p
        if volume and _VOLUME_ROOT.match(p):
            return p
    return None


# A file system's name as formatters take it (`--format=ext4`, `--type fat32`, `-t apfs`).
_FS_NAME = re.compile(
    r"(?i)\A(?:ext[2-4]?|xfs|btrfs|v?fat(?:12|16|32)?|exfat|ntfs|hfs\+?|jhfs\+?|hfsx|apfsx?"
    r"|ufs2?|zfs|f2fs|raw|msdos|dos|swap|jfs|reiserfs|udf|iso9660|nilfs2?|minix|bcachefs"
    r"|fat|ms-?dos\s?\(?fat(?:32)?\)?|free\s?space)\Z"
)
_FS_OPTION = re.compile(
    r"(?i)\A--?(?:[a-z]+(?![a-z])[-_]){0,4}(?:format|type|fs|fstype|filesystem|fs-type)\Z"
)
_WIPE_OPTION = re.compile(
    r"(?i)\A--?(?:[a-z]+(?![a-z])[-_]){0,4}(?:wipe|erase|zap|nuke)(?:[-_]all)?\Z"
)


# A program whose name says it makes a file system (`newfs_apfs`, `newfs_hfs`, `mkfs.foo`,
# `mkexfatfs`): a bare disk name given to it is the disk formatted (n14u).
_FS_PROGRAM = re.compile(r"(?i)\A(?:newfs(?:_\w+)?|mkfs(?:\.\w+)?|mk\w*fs|mke2fs|mkswap)\Z")


# (n17u) What `--format`/`--type` also means on reporting tools: an output format, not a
# disk layout. Partition table kinds a `-t` names (`-t gpt`).
_OUTPUT_FORMATS = frozenset(
    names(
        """
    json yaml yml text txt csv tsv table xml html plain pretty human short long wide brief
    full list tree value values name names default markdown md template go-template jsonpath
    ndjson jsonl toml ini simple compact columns column auto none porcelain oneline summary
    detail detailed verbose terse bytes si iec disk disks part partition partitions block
    device devices file files dir directory link symlink char f d l b c p s any all
    """
    )
)
_PART_TABLES = frozenset(names("gpt mbr dos msdos bsd sun apm mac hybrid"))
_LAYOUT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+_-]{1,23}")


def _told_to_format(args: list[Word] | tuple[Word, ...]) -> tuple[bool, int]:
    """Whether the words tell a program to make a file system (`--format=ext4`, `--type
    fat32`, `--filesystem=xfs`, `-t exfat`) or to wipe (`--wipe`), and the index of the
    option's separate value (-1 when none)."""
    told, skip = False, -1
    for k, w in enumerate(args):
        if w.dynamic or k == skip or w.text[:1] != "-":
            continue
        t = w.text
        if is_dry_marker(t):
            return False, -1  # `--dry-run`: what it would do, not done
        name, eq, value = t.partition("=")
        if _FS_OPTION.match(name) or name == "-t":  # (n14u: mkfs/mount's -t TYPE too)
            value = value if eq else (args[k + 1].text if k + 1 < len(args) else "")
            v = value.strip("'\"")
            if _FS_NAME.match(v) or (
                # (n17u) `--format=quick`, `--type=gpt`, `-t mbr`: any value that is not an
                # output format (`--format=json`) tells a disk tool how to (re)make the disk
                _LAYOUT_WORD.fullmatch(v)
                and v.lower() not in _OUTPUT_FORMATS
                and (name != "-t" or v.lower() in _PART_TABLES)
            ):
                told = True
                skip = -1 if eq else k + 1
        elif _WIPE_OPTION.fullmatch(t):
            told = True
    return told, skip


def _bare_disk_formatted(cmd: Cmd) -> None:
    """`diskwipe --format=ext4 sdb`, `usbprep --format exfat disk2`, `flashtool --type=fat32
    nvme0n1`, `imgtool --wipe mmcblk0`: a program we do not model told to make a file system
    (or to wipe) with a disk's bare kernel name as its operand (n13u, round 9b)."""
    args = cmd.args
    told, skip = _told_to_format(args)
    if not told and not (
        _FS_PROGRAM.match(cmd.name) and not any(is_dry_marker(w.text) for w in args)
    ):
        return
    disk = next(
        (
            w
            for k, w in enumerate(args)
            if k != skip and not w.dynamic and w.text[:1] != "-" and bare_disk(w.text)
        ),
        None,
    )
    if disk is not None:
        cmd.add(B, "erase-option", f"{cmd.name} makes a file system on the disk {disk.text}", disk)


def device_erased(cmd: Cmd) -> None:
    """Called for a program no handler knows (the dispatcher's unknown-program branch)."""
    jl = cmd.argv.joined_low
    if "/dev/" not in jl and "/volumes/" not in jl and "restore" not in jl:
        if (
            "form" in jl
            or "type" in jl
            or "fs" in jl
            or "files" in jl  # (n14u: --filesystem=)
            or "-t " in jl
            or "wipe" in jl
            or "erase" in jl
            or _FS_PROGRAM.match(cmd.name)
        ) and len(cmd.args) <= 64:
            _bare_disk_formatted(cmd)
        return  # (cheap exit: no device or volume named at all, no restore verb)
    args = cmd.args
    # (n14u) `ufmt --format=ext4 /dev/sdb`, `--type fat32 /dev/mmcblk0`: a file system made
    # on the device named (a file-system name is no output format)
    erase = len(args) <= 64 and _told_to_format(args)[0]
    restore = bare = False
    for k, w in enumerate(args):
        if w.dynamic:
            continue
        t = w.text
        m = _ERASE_OPTION.match(t) if t[:1] in "-/" else None
        if m is not None:
            value = m.group("value")
            if value is not None:
                hit = _a_disk(value, True)
                if hit is not None:
                    cmd.add(B, "erase-option", f"{cmd.name} {t} erases the disk {hit}", w)
                    return
                continue  # `--format=json`: an output format, not an erase
            nxt = args[k + 1].text if k + 1 < len(args) else ""
            if nxt and (hit := _a_disk(nxt, True)) is not None and "restore" not in t.lower():
                cmd.add(B, "erase-option", f"{cmd.name} {t} erases the disk {hit}", args[k + 1])
                return
            if "restore" in t.lower() or "flash" in t.lower() or "burn" in t.lower():
                restore = True
            else:
                erase = True
        elif _RESTORE_VERB.match(t) and (k < 3 or t.lower().startswith("rest")):
            restore = True
            # (`ocs-sr … restoredisk IMG sda`: a verb that names disks takes a bare disk
            # name; a plain `restore sdb` may name anything (review 9))
            bare = bare or t.lower() in ("restoredisk", "restoreparts")
    if not (erase or restore):
        # `etcher-cli raspios.img --drive /dev/disk2`: an image file written to the device an
        # option names as the destination
        if not any(_IMAGE_FILE.search(w.text) for w in args if not w.dynamic):
            return
        for k, w in enumerate(args[:-1]):
            if _TARGET_OPTION.match(w.text) and (hit := _a_disk(args[k + 1].text, False)):
                cmd.add(B, "erase-option", f"{cmd.name} writes an image over {hit}", args[k + 1])
                return
        return
    for k, w in enumerate(args):
        if w.dynamic or (w.text[:1] == "-" and "=" not in w.text):
            continue
        # (a bare disk name counts when a disk verb or a target option says it is one:
        # `asr restore -s a.dmg -t disk2s1 --erase`)
        named = bare or (k and (_TARGET_OPTION.match(args[k - 1].text) or args[k - 1].text == "-t"))
        hit = _a_disk(w.text, erase) or (w.text if named and bare_disk(w.text) else None)
        if hit is not None:
            how = "erases" if erase else "writes an image over"
            cmd.add(B, "erase-option", f"{cmd.name} {how} the disk or volume {hit}", w)
            return


@handles("find", "gfind", "fd", "fdfind", "bfs")
def _find(cmd: Cmd) -> None:
    args = cmd.args
    if cmd.name in ("fd", "fdfind"):
        _fd(cmd)
        return
    starts: list[Word] = []
    i = 0
    while i < len(args) and args[i].text in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    while i < len(args) and not args[i].text.startswith(("-", "(", "!")):
        starts.append(args[i])
        i += 1
    tests_from = i
    start_words = starts or [Word(".", cmd.words[0].start, cmd.words[0].end)]
    if UNIX_LINKS in cmd.scope.env:
        from aintern_ls.safety.wrappers import through_link as unix_through_link

        follow = any(w.text in ("-L", "-follow") for w in args)  # `find -L`: links followed
        start_words = [unix_through_link(cmd.scope, w, follow) for w in start_words]  # (n13u)
    broad_cwd = _broad_cwd(cmd, start_words)
    filtered_anywhere = _narrows(args, i, len(args), broad_cwd)
    if not filtered_anywhere and not any(w.text in _FIND_ACTIONS for w in args[i:]):
        # An unfiltered listing: what a downstream `xargs rm` would get is everything.
        # Without a depth limit find lists every file below each start (`/**`, as bash's
        # globstar says it): deleting them without -r still empties the whole tree.
        every = "/*" if any(w.text in ("-maxdepth", "-depth") for w in args[i:]) else "/**"
        cmd.info.paths = tuple(
            Word(w.text.rstrip("/") + every if w.text.rstrip("/") else every, w.start, w.end)
            for w in start_words
            if not w.dynamic
        )
    elif not cmd.info.paths and not any(w.text in _FIND_ACTIONS for w in args[i:]):
        # `find /etc -name 'pass*' | xargs rm`: a name test that selects account or boot
        # files lists those files, which a downstream `xargs rm`/`mv` then gets (n11u).
        named = {
            p: Word(p, w.start, w.end)
            for p, w in _named_paths(start_words, args[i:])
            if classify_path(p, cmd.scope.cwds, cmd.scope.windows).rule == "rm-system-file"
        }
        if named:
            cmd.info.paths = tuple(named.values())
        else:
            # (n17u) `find /etc/ssl/certs -name '*.pem' | xargs rm`: every file of a machine
            # trust store a glob name test picks
            store = _trust_store_listed(start_words, args[i:])
            if store is not None:
                cmd.info.paths = (Word(store + "/*", cmd.start, cmd.end),)
            elif start_words and all(not w.dynamic and is_log_dir(w.text) for w in start_words):
                # (n18u) `find /var/log -name '*.log' | xargs truncate -s 0`: log files of
                # a system log folder, whichever the tests pick (emptied or deleted: a log
                # wipe, as find's own -delete/-exec truncate there)
                cmd.info.paths = tuple(
                    Word(w.text.rstrip("/") + "/*", w.start, w.end) for w in start_words
                )
    _find_log_wipe(cmd, start_words, args[tests_from:])
    named_acc: list[str] = []  # account/startup files the name tests so far select
    named_upto = tests_from
    while i < len(args):
        t = args[i].text
        if t in _FIND_FILTERS or t in _FIND_VALUED:
            # `find . -name -delete -print`: the word after a test is its value, not an action
            # (`-empty` takes none: `find . -empty -delete` deletes).
            i += 1 if t == "-empty" else 2
            continue
        # A test placed after the action does not narrow it: `find . -delete -name x`.
        filtered = _narrows(args, tests_from, i, broad_cwd)
        if t == "-delete":
            if filtered:
                cmd.add(D, "find-delete", "find -delete deletes the matching files", args[i])
                _named_system_files(cmd, start_words, args[tests_from:i], "find -delete deletes")
                _trust_store_emptied(cmd, start_words, args[tests_from:i], args[i])
            else:
                before = len(cmd.scope.findings)
                if _files_only(args[tests_from:i]):
                    # `find /var/log -type f -delete`: every file below the start, the
                    # folders (and the start itself) stay: the contents are deleted.
                    targets = [
                        Word(w.text.rstrip("/") + "/*", w.start, w.end, w.dynamic)
                        for w in start_words
                    ]
                else:
                    targets = start_words
                _delete_targets(cmd, targets, True, "find -delete deletes")
                for k in range(before, len(cmd.scope.findings)):
                    f = cmd.scope.findings[k]
                    if f.level < C:
                        cmd.scope.findings[k] = finding(
                            D, "find-delete", "find -delete deletes everything it finds", args[i]
                        )
                    else:
                        cmd.scope.findings[k] = finding(
                            f.level, f.rule, f.reason, Word("", cmd.start, args[i].end)
                        )
        elif t in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+", "\\;"):
                j += 1
            inner = list(args[i + 1 : j])
            if inner:
                subst = start_words[0] if not filtered and len(start_words) == 1 else None
                if (
                    subst is not None
                    and not subst.dynamic
                    and inner[0].text not in ("chmod", "chown", "chgrp")
                    and _plain_files_only(args[tests_from:i])
                ):
                    # (h18) `-type f`: `{}` is each file below the start, never the start
                    subst = Word(subst.text.rstrip("/") + "/*", subst.start, subst.end)
                if (
                    subst is not None
                    and subst.text in (".", "./")
                    and inner[0].text in ("chmod", "chown", "chgrp")
                ):
                    # `find . -type f -exec chmod 644 {} \;`: each file below the working
                    # directory gets the mode: a recursive change of a project's tree (as
                    # `chmod -R 644 ./src`), or of home/the root after `cd ~`/`cd /` (P1)
                    sc = cmd.scope
                    here = classify_path(".", sc.cwds, sc.windows, sc.start_cwd).rule
                    if here not in ("rm-root", "rm-home", "rm-system"):
                        subst = Word("./{}", subst.start, subst.end)
                    inner = [inner[0], Word("-R", inner[0].start, inner[0].end), *inner[1:]]
                inner = [
                    (
                        Word(subst.text, w.start, w.end)
                        if subst is not None
                        else Word("{}", w.start, w.end, dynamic=True)
                    )
                    if w.text == "{}"
                    else w
                    for w in inner
                ]
                if (
                    subst is not None
                    and subst.text.startswith(("/", "~"))
                    and inner[0].text in ("chmod", "chown", "chgrp")
                    and not any(w.text in ("-R", "--recursive") for w in inner)
                ):
                    # Every file below the start gets it: a recursive chmod/chown.
                    inner = [inner[0], Word("-R", inner[0].start, inner[0].end), *inner[1:]]
                before_exec = len(cmd.scope.findings)
                cmd.judge(inner)
                if filtered and inner[0].text in _DELETERS:
                    _trust_store_emptied(cmd, start_words, args[tests_from:i], args[i])
                if any(f.rule == "shell" for f in cmd.scope.findings[before_exec:]) and (
                    any(re.fullmatch(r"-\w*p\w*", w.text) for w in args[i + 2 : j])
                    or _wired(cmd.scope.source[args[i].start : args[min(j, len(args) - 1)].end])
                ):
                    # `find . -exec /bin/sh -p \; -quit`, `-exec sh 0<&2`: find hands out a
                    # shell that keeps find's privileges or is wired to other descriptors (the
                    # GTFOBins escape). (u22, blind19) A plain `-exec /bin/sh \;` is the same
                    # user's interactive shell, as `sh` is (moderate; `sudo find …` is critical).
                    cmd.add(C, "config-exec", f"find {t} starts an interactive shell", args[i])
                if filtered and any("{}" in w.text for w in args[i + 1 : j]):
                    # `find /etc -name shadow -exec cp /dev/null {} \;`: `{}` is the file the
                    # literal name names; a system or startup file is judged as written. GNU
                    # find replaces `{}` inside a word too (`of={}`, `sh -c '> {}'`) (n11u).
                    # (the tests are read once, each -exec adds only the tests before it
                    # that are new: a find with hundreds of actions stays linear)
                    named_acc += [
                        path
                        for path, _name in _named_paths(start_words, list(args[named_upto:i]))
                        if write_target(path, cmd.scope.cwds) is not None
                    ]
                    named_upto = i
                    for path in named_acc[:4]:
                        cmd.judge(
                            [
                                Word(w.text.replace("{}", path), w.start, w.end)
                                if "{}" in w.text
                                else w
                                for w in args[i + 1 : j]
                            ]
                        )
                if filtered and inner and inner[0].text in _DELETERS:
                    _named_system_files(
                        cmd, start_words, args[tests_from:i], f"find -exec {inner[0].text} deletes"
                    )
                if (
                    inner
                    and re.match(r"\A(?:/dev/shm|/run/shm|(?:/var)?/tmp)/", inner[0].text)
                    and any(w.text == "{}" for w in args[i + 1 : j])
                ):
                    # `find /srv -type f -exec /tmp/.x {} +`: a program from a temporary
                    # folder handed every file found (an encryptor's shape) (m8)
                    cmd.add(
                        C,
                        "opaque-exec",
                        f"find runs {inner[0].text} (from a temporary folder) on every file found",
                        inner[0],
                    )
                if (
                    not filtered
                    and inner
                    and (_shell_deleter(inner) or _destroys_contents(list(args[i + 1 : j])))
                ):
                    # `-exec sh -c ': > "$1"' _ {} \;`: the shell empties or deletes each file.
                    inner = [Word("truncate", inner[0].start, inner[0].end), *inner[1:]]
                if (
                    not filtered
                    and inner
                    and inner[0].text in _DELETERS
                    and not (
                        # (n18u) every log file emptied is a log wipe (critical, session 18,
                        # `_find_log_wipe`): the folder itself stays
                        inner[0].text == "truncate"
                        and all(not w.dynamic and is_log_dir(w.text) for w in start_words)
                    )
                ):
                    before = len(cmd.scope.findings)
                    targets = start_words
                    if inner[0].text == "truncate" or _plain_files_only(args[tests_from:i]):
                        # (h18) `find /var/log -type f -exec truncate -s0 {} +`: only the
                        # files below each start are emptied or deleted, the start folder
                        # stays: judged as its contents (`/var/log/*`, as `-type f -delete`)
                        targets = [
                            Word(w.text.rstrip("/") + "/*", w.start, w.end, w.dynamic)
                            for w in start_words
                        ]
                    if not (inner[0].text == "truncate" and _backups_emptied(cmd, targets)):
                        _delete_targets(cmd, targets, True, f"find -exec {inner[0].text} destroys")
                        cmd.scope.findings[before:] = [
                            f for f in cmd.scope.findings[before:] if f.level >= C
                        ]
            i = j
        elif t in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            cmd.add(M, "write", f"find {t} writes a file", args[i])
        i += 1


# --- raw disks, filesystems, permissions -------------------------------------------------


@handles("dd")
def _dd(cmd: Cmd) -> None:
    if any(w.text == "of=/dev/null" for w in cmd.args):
        return  # `dd if=X of=/dev/null`: a read (a throughput or read test), nothing written
    for w in cmd.args:
        if w.text.startswith("of=") and is_device(w.text[3:]):
            cmd.add(B, "disk-write", f"dd overwrites the raw disk {w.text[3:]}", w)
            return
    out = next((w for w in cmd.args if w.text.startswith("of=")), None)
    src = next((w.text[3:] for w in cmd.args if w.text.startswith("if=")), "")
    if out is not None and (not src or src in STDIN_FILES):
        # (f19) `dd of=x.sh <<'EOF'`: the file holds what dd reads
        stdin_written(cmd, Word(out.text[3:], out.start, out.end, out.dynamic))
    if out is not None and out.text[3:] in ("/dev/null", "/dev/stdout", "/dev/stderr"):
        return  # `dd if=x of=/dev/null`: reads (a read test), writes nothing
    made = out is not None and re.search(
        r"(?i)swap|\.(img|raw|iso|bin|dat|qcow2|vhdx?|vmdk|disk)$|test|dummy|blob|fill|zero"
        r"|random|sparse|bigfile|largefile",
        out.text.rsplit("/", 1)[-1],
    )
    in_place = any(
        (w.text.startswith("conv=") and "notrunc" in w.text)
        or (w.text.startswith("count=") and w.dynamic)
        for w in cmd.args
    )
    if made and not in_place:
        pass  # `dd if=/dev/zero of=/swapfile count=1024`: makes a new blank file
    elif out is not None and re.fullmatch(r"/dev/(zero|u?random|full)", src):
        # Whatever the argument order: the named file's content is replaced by zeros or noise
        # (a wiper's way to destroy a file); system files are judged by the write rules.
        cmd.add(D, "shred", f"dd overwrites {out.text[3:]} with {src}: its content is lost", out)
    if out is not None and not any(f.rule == "shred" for f in cmd.scope.findings[-1:]):
        cmd.add(M, "write", "dd writes a file")


# Partition and signature tools' read-only modes (listing, printing, verifying, dry runs):
# they only read the disk. Anything else they do rewrites it.
_DISK_READ_ONLY = {
    "wipefs": frozenset(names("-n --no-act")),
    "sfdisk": frozenset(
        names(
            """-l --list -d --dump -J --json -s --show-size -V --verify -g --show-geometry
            -F --list-free -r --reorder-dry --part-type --part-label --part-uuid --part-attrs
            --backup-pt-sectors -v --version -h --help"""
        )
    ),
    "sgdisk": frozenset(
        names(
            "-p --print -v --verify -i --info -O --print-mbr -L --list-types -V --version"
            " -P --pretend"
        )
    ),
    "gdisk": frozenset(names("-l")),
}
# Their options that take the next word as a value: `wipefs -a -t -n /dev/sda` erases (the
# `-n` is the type list, not --no-act) (n11u).
_DISK_VALUED = {
    "wipefs": frozenset(names("-o --offset -t --types -O --output")),
    "sgdisk": frozenset(
        names("-t --typecode -c --change-name -n --new -d --delete -A --attributes")
    ),
}


def _flag_texts(texts: list[str], valued: frozenset[str] | tuple[()]) -> list[str]:
    """The option words of `texts`, without the words that are values of `valued` options."""
    out: list[str] = []
    skip = False
    for t in texts:
        if skip:
            skip = False
            continue
        out.append(t)
        skip = t in valued
    return out


# Options of those tools that read only when given with their value (`sfdisk --part-type
# DEV N` prints; with a type after it, it changes the partition).
_DISK_QUERY_OPERANDS = {"sfdisk": 2}


_NO_DEVICE_FORMATTER = re.compile(r"mk(?:fs|e2fs|dosfs|ntfs|exfatfs|udffs)\b")


def _names_no_device(texts: list[str]) -> bool:
    """No argument at all, or only the file-system type (`-t ext4`, `--type=xfs`)."""
    if not texts:
        return True
    if len(texts) == 2 and texts[0] in ("-t", "--type"):
        return re.fullmatch(r"[a-z0-9]+", texts[1]) is not None
    return len(texts) == 1 and re.fullmatch(r"(?:-t|--type=)[a-z0-9]+", texts[0]) is not None


def _mkfs(cmd: Cmd) -> None:
    read_only = _DISK_READ_ONLY.get(cmd.name)
    if _NO_DEVICE_FORMATTER.match(cmd.name) and _names_no_device([w.text for w in cmd.args]):
        # (h18) `mkfs`, `mkfs.ext4`, `mkfs -t ext4`: no device or file is named, so
        # nothing is formatted (it prints its usage); a formatter we cannot prove harmless
        cmd.add(M, "unknown-command", f"{cmd.name} names no device to format")
        return
    if read_only is not None:
        texts = [w.text.split("=", 1)[0] for w in cmd.args]
        if cmd.name == "wipefs" and not any(
            t in ("-a", "--all", "-o", "--offset", "-t", "--types", "-b", "--backup")
            or (t.startswith("-") and not t.startswith("--") and ("a" in t[1:] or "o" in t[1:]))
            for t in texts
        ):
            return  # `wipefs /dev/sdb` lists the signatures it would erase
        if any(t in read_only for t in _flag_texts(texts, _DISK_VALUED.get(cmd.name, ()))):
            ops = cmd.operands()
            limit = _DISK_QUERY_OPERANDS.get(cmd.name)
            if (
                not any(
                    t in ("--part-type", "--part-label", "--part-uuid", "--part-attrs")
                    for t in texts
                )
                or limit is None
                or len(ops) <= limit
            ):
                return
    valued = _FORMATTER_VALUED.get(cmd.name)
    if valued is not None:
        target = _formatter_target(cmd, valued)
        if target == "version":
            return  # (a22) `mkfs.ext4 -V /dev/sda1`: mke2fs/mkfs.xfs print their version
        if target is None and any(not a.text.startswith("-") for a in cmd.args):
            # (a22) `mkfs.ext4 -L data`, `mkfs.ext4 -L '/dev/sda'`: an option's value is no
            # device; nothing is named to format (it prints its usage). Options alone
            # (`mkfs.ext4 -F`: a device may be appended or fed in) keep the formatter's level.
            cmd.add(M, "unknown-command", f"{cmd.name} names no device to format")
            return
        if isinstance(target, Word) and _plain_file(cmd, target):
            # (a22) `mkfs.ext4 -F -L /dev/sda /tmp/image`: the device is a file path (a
            # file-system image made in it, or a folder mke2fs refuses), not a disk
            cmd.add(M, "write", f"{cmd.name} writes a file system into the file {target.text}")
            return
    image = _image_file_target(cmd)
    if image is not None:
        # `mkfs.xfs -f vm.raw`, `mkfs.ext4 -F rootfs.img`: a filesystem made inside a file;
        # (h19) `wipefs -a disk.img`, `sgdisk --zap-all disk.img`: the file's signatures or
        # partition table rewritten, no disk touched.
        cmd.add(M, "write", f"{cmd.name} rewrites the disk image file {image.text}", image)
        return
    cmd.add(B, "mkfs", f"{cmd.name} erases a filesystem or partition table")


_IMAGE_FILE = re.compile(
    r"(?i)\.(img|raw|iso|qcow2|ext[234]|xfs|btrfs|vfat|fat|bin|dat|fs|vhdx?|vmdk|disk|swap|luks)$"
)


# (a22) Formatters whose options are read exactly (mke2fs(8), mkfs.xfs(8)): the short options
# that take a value, the device being the first operand left; `-V` prints the version.
_FORMATTER_VALUED = {
    "mke2fs": "bCdEgGiIJlLmMNoOrtTUez",
    "mkfs.ext2": "bCdEgGiIJlLmMNoOrtTUez",
    "mkfs.ext3": "bCdEgGiIJlLmMNoOrtTUez",
    "mkfs.ext4": "bCdEgGiIJlLmMNoOrtTUez",
    "mkfs.xfs": "bdilLmnprs",
}
_BARE_DISK = re.compile(
    r"(?i)\A(?:sd[a-z]{1,3}|hd[a-z]{1,3}|vd[a-z]{1,3}|xvd[a-z]{1,3}|nvme\d{1,3}n\d{1,3}"
    r"|mmcblk\d{1,3}|loop\d{1,4}|dm-\d{1,4}|md\d{1,4}|disk\d{1,3}|mapper/\S{1,200})(?:p?\d{1,3})?\Z"
)


def _formatter_target(cmd: Cmd, valued: str) -> Word | str | None:
    """The device operand of a formatter read with its valued options (`-L LABEL`, `-LLABEL`,
    bundles), "version" for `-V`, None when no operand is left."""
    args = cmd.args
    i = 0
    while i < len(args):
        t = args[i].text
        if args[i].dynamic:
            return args[i]
        if t == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if t.startswith("-") and len(t) > 1 and not t.startswith("--"):
            for k, letter in enumerate(t[1:], 1):
                if letter == "V" and "V" not in valued:
                    return "version"
                if letter in valued:
                    i += 0 if k + 1 < len(t) else 1  # (its value: the rest, or the next word)
                    break
            i += 1
            continue
        if t.startswith("--"):
            i += 1
            continue
        return args[i]
    return None


_FORMAT_SCRATCH = ("/tmp", "/mnt", "/media", "/srv", "/data")


def _plain_file(cmd: Cmd, word: Word) -> bool:
    """A formatter's target that is a file path: not a device, not a bare disk name, not
    computed, not a guarded system file, and not relative to a cwd under /dev."""
    t = word.text.strip("'\"")
    if word.dynamic or not t or t.startswith("/dev/") or is_device(t) or _BARE_DISK.match(t):
        return False
    if not t.startswith(("/", "~")) and any(c and c.startswith("/dev") for c in cmd.scope.cwds):
        return False  # (`cd /dev && mkfs.ext4 sdb1`)
    if t.startswith("/") and t.rstrip("/").count("/") <= 1 and not t.startswith(_FORMAT_SCRATCH):
        return False  # (`mkfs.ext4 /`, `/home`, `/usr`: the intent is the system's disk)
    return not _guarded_file(cmd, word)


def _image_file_target_of(cmd: Cmd, first: bool) -> Word | None:
    """`_image_file_target`, for parted, whose device is its FIRST operand (the commands
    after it: `parted -s disk.img mklabel gpt mkpart …`)."""
    if not first:
        return _image_file_target(cmd)
    if any(w.dynamic or is_device(w.text) or w.text.startswith("/dev/") for w in cmd.args):
        return None
    dev = next((w for w in cmd.args if not w.text.startswith("-")), None)
    if dev is None or not _IMAGE_FILE.search(dev.text) or _guarded_file(cmd, dev):
        return None
    return dev


def _image_file_target(cmd: Cmd) -> Word | None:
    """(h19) The disk a partition, signature, encryption or format tool works on, when it is
    a disk image FILE (the last operand, named with an image extension: `disk.img`,
    `vm.qcow2`, `container.luks`) and no argument names a device or is computed: the tool
    then rewrites that file (moderate), not a disk (blocked)."""
    if any(w.dynamic or is_device(w.text) or w.text.startswith("/dev/") for w in cmd.args):
        return None
    last = next(
        (w for w in reversed(cmd.args) if not w.text.startswith("-") and not w.text.isdigit()),
        None,
    )
    if last is None or not _IMAGE_FILE.search(last.text) or _guarded_file(cmd, last):
        return None
    return last


def _guarded_file(cmd: Cmd, word: Word) -> bool:
    """A file whose overwrite means more than a write (boot files such as
    /boot/initrd.img, system files): not exempted as a mere image file."""
    return write_target(word.text, cmd.scope.cwds) is not None


def _on_device(cmd: Cmd) -> Word | None:
    return next((w for w in cmd.args if is_device(w.text)), None)


@handles("fdupes", "jdupes", "rdfind")
def _dupes(cmd: Cmd) -> None:
    """Duplicate finders delete every copy but one when asked (`fdupes -rdN`, `jdupes -dN`,
    `rdfind -deleteduplicates true`): a named subset of the tree, deleted without asking."""
    texts = [w.text for w in cmd.args]
    deletes = (
        cmd.short("d")
        or "--delete" in texts
        or any(
            t == "-deleteduplicates" and i + 1 < len(texts) and texts[i + 1] == "true"
            for i, t in enumerate(texts)
        )
    )
    if cmd.name == "rdfind":
        deletes = any(
            t == "-deleteduplicates" and i + 1 < len(texts) and texts[i + 1] == "true"
            for i, t in enumerate(texts)
        )
    if deletes:
        cmd.add(D, "delete", f"{cmd.name} deletes duplicate files")


@handles("badblocks")
def _badblocks(cmd: Cmd) -> None:
    """`badblocks -w` writes test patterns over the whole device; `-n` rewrites in place
    (keeps data unless interrupted); the default only reads."""
    if cmd.short("w"):
        cmd.add(B, "disk-write", "badblocks -w overwrites the whole device", _on_device(cmd))
    elif cmd.short("n"):
        cmd.add(M, "disk", "badblocks -n rewrites every block in place")


@handles("f3probe", "f3fix", "f3write")
def _f3(cmd: Cmd) -> None:
    if cmd.name == "f3probe" and not cmd.has("--destructive"):
        return  # probes with a backup of what it overwrites
    dev = _on_device(cmd)
    if cmd.name == "f3write":
        cmd.add(M, "write", "f3write fills a mounted drive with test files")
    elif dev is not None:
        cmd.add(B, "disk-write", f"{cmd.name} overwrites or repartitions {dev.text}", dev)
    else:
        cmd.add(D, "disk", f"{cmd.name} rewrites a drive")


@handles("nvme")
def _nvme(cmd: Cmd) -> None:
    ops = cmd.operands()
    verb = ops[0].text if ops else ""
    if verb in (
        "format",
        "sanitize",
        "write",
        "write-zeroes",
        "dsm",
        "ns-delete",
        "delete-ns",
        "detach-ns",
        "fw-download",
        "fw-commit",
        "create-ns",
    ):
        cmd.add(B, "disk-write", f"nvme {verb} erases or rewrites the drive")
    elif verb in ("set-feature", "reset", "subsystem-reset", "admin-passthru", "io-passthru"):
        cmd.add(D, "disk", f"nvme {verb} changes the drive")


@handles("sg_format", "sg_sanitize", "sg_write_same", "sg_unmap", "sg_dd")
def _sg_tools(cmd: Cmd) -> None:
    if cmd.name == "sg_format" and not (cmd.has("--format") or cmd.short("F")):
        return  # without --format it only reports the format
    if cmd.name == "sg_dd" and not any(
        w.text.startswith("of=") and is_device(w.text[3:]) for w in cmd.args
    ):
        cmd.add(M, "write", "sg_dd writes a file")
        return
    cmd.add(B, "disk-write", f"{cmd.name} erases or overwrites the device")


@handles("mdadm")
def _mdadm(cmd: Cmd) -> None:
    """Creating, building or growing an array, or zeroing a member's superblock, destroys
    what the devices held; --detail/--examine/--query/--scan only read."""
    texts = [w.text.split("=", 1)[0] for w in cmd.args]
    if any(
        t in ("--create", "-C", "--build", "-B", "--zero-superblock", "--grow", "-G") for t in texts
    ):
        cmd.add(B, "disk-write", "mdadm writes an array over the devices (their data is lost)")
    elif any(
        t
        in (
            "--detail",
            "-D",
            "--examine",
            "-E",
            "--query",
            "-Q",
            "--scan",
            "-s",
            "--version",
            "-V",
            "--help",
            "-h",
            "--detail-platform",
        )
        for t in texts
    ):
        return
    elif any(t in ("--stop", "-S", "--fail", "-f", "--remove", "-r") for t in texts):
        cmd.add(D, "disk", "mdadm stops or removes parts of an array")
    else:
        cmd.add(M, "disk", "mdadm changes storage arrays")


@handles("pvcreate", "vgcreate", "pvremove", "vgremove", "lvremove", "vgextend")
def _lvm(cmd: Cmd) -> None:
    dev = _on_device(cmd)
    if cmd.name in ("pvcreate", "pvremove") or (cmd.name in ("vgcreate", "vgextend") and dev):
        cmd.add(B, "disk-write", f"{cmd.name} writes LVM labels over the device's data", dev)
    else:
        cmd.add(D, "disk", f"{cmd.name} deletes LVM volumes (their data is lost)")


for _n in names(
    """
    mkfs mke2fs mkdosfs mkntfs wipefs sgdisk sfdisk gdisk cfdisk blkdiscard mkfs.ext2 mkfs.ext3
    mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.vfat mkfs.fat mkfs.ntfs mkfs.exfat mkfs.f2fs
    format-volume clear-disk initialize-disk remove-partition zpool cryptsetup
    """
):
    handles(_n)(_mkfs)


@handles("zpool", "zfs")
def _zfs(cmd: Cmd) -> None:
    sub = cmd.args[0].text if cmd.args else ""
    if sub in ("list", "status", "get", "iostat", "history", "import") and not (
        sub == "import" and cmd.has("-f", "-F")
    ):
        return
    if (
        cmd.name == "zpool"
        and sub in ("create", "labelclear", "add", "attach", "replace", "initialize", "trim")
        and (sub in ("create", "labelclear") or _on_device(cmd) is not None)
    ):
        cmd.add(B, "disk-write", f"zpool {sub} writes over the devices (their data is lost)")
        return
    if sub == "destroy":
        cmd.add(B if cmd.name == "zpool" else D, "zfs-destroy", f"{cmd.name} destroy deletes data")
        return
    cmd.add(M, "disk", f"{cmd.name} {sub} changes storage")


@handles("cryptsetup")
def _cryptsetup(cmd: Cmd) -> None:
    if cmd.has("luksFormat", "erase", "luksErase", "reencrypt"):
        image = _image_file_target(cmd)
        if image is not None:
            # (h19) `cryptsetup luksFormat container.img`: a container file, no disk
            cmd.add(M, "write", f"cryptsetup formats the container file {image.text}", image)
            return
        cmd.add(B, "mkfs", "cryptsetup wipes the volume's keys or contents")
    elif cmd.has("status", "luksDump", "isLuks"):
        return
    else:
        cmd.add(M, "disk", "cryptsetup changes encrypted volumes")


@handles("fdisk", "parted")
def _fdisk(cmd: Cmd) -> None:
    if cmd.short("l") or cmd.has("print", "--list") or (cmd.name == "parted" and cmd.has("-l")):
        return
    image = _image_file_target_of(cmd, first=cmd.name == "parted")
    if image is not None:
        # (h19) `parted -s disk.img mklabel gpt`, `fdisk disk.img`: a disk image file
        cmd.add(M, "write", f"{cmd.name} rewrites the partition table of {image.text}", image)
        return
    cmd.add(B, "partition", f"{cmd.name} rewrites a partition table")


@handles("mkswap")
def _mkswap(cmd: Cmd) -> None:
    if any(is_device(w.text) for w in cmd.args):
        cmd.add(B, "mkfs", "mkswap overwrites a disk partition")
    else:
        cmd.add(M, "write", "mkswap formats a swap file")


@handles("partedUtil", "partedutil")
def _parted_util(cmd: Cmd) -> None:
    """ESXi's partition tool: `getptbl`, `get`, `getUsableSectors`, `showGuids` read; every
    other verb (`delete`, `setptbl`, `mklabel`, `resize`, `fixGpt`, `add`) rewrites a
    disk's partition table (blocked, like `sgdisk --zap-all`)."""
    verb = cmd.args[0].text.lower() if cmd.args else ""
    if verb in ("getptbl", "get", "getusablesectors", "showguids", "partinfo", "") or verb in (
        "-h",
        "--help",
    ):
        return
    cmd.add(B, "mkfs", f"partedUtil {verb} rewrites a disk's partition table")


@handles("gpart")
def _gpart(cmd: Cmd) -> None:
    """FreeBSD's partition tool (safety-f8): `show`, `list`, `status`, `backup` only read;
    `destroy -F ada0`, `delete`, `create`, `add`, `restore`, `recover`, `resize` rewrite a
    disk's partition table (blocked, like `fdisk` and `sgdisk --zap-all`); the disk is
    named without /dev (`ada0`, `da0`, `nvd0`)."""
    verb = next((w.text.lower() for w in cmd.args if not w.text.startswith("-")), "")
    if verb in ("show", "list", "status", "backup", "help", "") or cmd.has("-h", "--help"):
        return
    cmd.add(B, "partition", f"gpart {verb} rewrites a disk's partition table")


@handles("diskutil")
def _diskutil(cmd: Cmd) -> None:
    sub = cmd.args[0].text.lower() if cmd.args else ""
    if sub in ("list", "info", "activity", "listfilesystems"):
        return
    verb = cmd.args[1].text.lower() if len(cmd.args) > 1 else ""
    if sub in ("apfs", "ap", "cs", "coreStorage".lower(), "ar", "appleraid") and (
        verb.startswith(("list", "info")) or verb in ("", "verbose")
    ):
        return  # `diskutil apfs listSnapshots /`, `diskutil apfs list`: listings
    if sub in ("apfs", "ap") and verb in ("deletesnapshot", "deletesnapshots"):
        vol = cmd.args[2].text if len(cmd.args) > 2 else ""
        if re.fullmatch(r"(?i)/|/System/Volumes/Data/?|/Volumes/Macintosh HD( - Data)?/?", vol):
            # the system volume's local snapshots (Time Machine's): backups deleted, as
            # `tmutil deletelocalsnapshots` (blocked, session-6 convention)
            cmd.add(B, "delete-backups", "diskutil deletes the system volume's snapshots")
            return
        # One named snapshot of another volume deleted: scoped (safety-m7, Round 7).
        cmd.add(D, "disk-destroy", "diskutil apfs deleteSnapshot deletes a volume snapshot")
        return
    if sub in ("apfs", "ap") and re.match(
        r"(addvolume|unlockvolume|lockvolume|encryptvolume|decryptvolume|changepassphrase"
        r"|setpassphrasehint|updatepreboot|defragment)",
        verb,
    ):
        cmd.add(M, "disk", f"diskutil apfs {verb} changes a volume")
        return
    if re.match(r"(erase|zero|secureerase|partitiondisk|reformat|randomdisk|apfs)", sub):
        cmd.add(B, "mkfs", f"diskutil {sub} erases a disk")
    else:
        cmd.add(M, "disk", f"diskutil {sub} changes disks")


@handles("hdparm")
def _hdparm(cmd: Cmd) -> None:
    if any(
        w.text.startswith(("--security-erase", "--write-sector", "--trim-sector", "--fwdownload"))
        for w in cmd.args
    ):
        cmd.add(B, "disk-write", "hdparm erases or overwrites the disk")
    elif (
        all(w.text in _HDPARM_READ or not w.text.startswith("-") for w in cmd.args)
        and cmd.operands()
    ):
        return  # `hdparm -I /dev/sda`: identification and timing reads
    else:
        cmd.add(M, "disk", "hdparm changes disk settings")


# (safety-tgt9) The BSDs' disk tools: what erases the disk or its labels, and what reads.
# `camcontrol security DISK -e PW` (ATA secure erase), `camcontrol sanitize`/`format`,
# `nvmecontrol format|sanitize`, `bsdlabel`/`disklabel -w|-R|-r`, `glabel destroy|clear`,
# `gmirror|graid3|gstripe|gconcat destroy|clear`, `geli kill` (the keys destroyed: the data
# can never be read again), `fdisk -i` is fdisk's.
_BSD_ERASE = {
    "camcontrol": frozenset(names("sanitize format")),
    "nvmecontrol": frozenset(names("format sanitize")),
    "glabel": frozenset(names("destroy clear")),
    "gmirror": frozenset(names("destroy clear")),
    "graid": frozenset(names("delete")),
    "graid3": frozenset(names("destroy clear")),
    "gstripe": frozenset(names("destroy clear")),
    "gconcat": frozenset(names("destroy clear")),
    "geli": frozenset(names("kill")),
}


@handles(*_BSD_ERASE, "bsdlabel", "disklabel")
def _bsd_disk(cmd: Cmd) -> None:
    texts = [w.text for w in cmd.args]
    if cmd.has("-h", "--help", "help"):
        return
    if cmd.name in ("bsdlabel", "disklabel"):
        # Without options it prints the label; only the print flags (`-d -h -p -r -t -v`) and
        # `-n` (no write) read too. Any other flag writes (`-E` the editor, `-B` boot code,
        # `-W` write-enable); `-w`/`-R`/`-e` replace the partitions.
        flags = "".join(t[1:] for t in texts if re.fullmatch(r"-[A-Za-z]+", t))
        if "n" in flags:
            return
        if any(c in "wRe" for c in flags):
            cmd.add(B, "partition", f"{cmd.name} writes a disk label (its partitions are lost)")
        elif any(c not in "dhprtv" for c in flags):  # (`-r`: the label read from the disk)
            cmd.add(M, "disk", f"{cmd.name} writes to the disk label or boot area")
        return
    verb = next((t.lower() for t in texts if not t.startswith("-")), "")
    if cmd.name == "nvmecontrol" and verb == "ns":
        # `ns delete` destroys the namespace's data; create/attach/detach change the disk;
        # active/allocated/attached/controllers/identify list.
        sub = next((t.lower() for t in texts[texts.index("ns") + 1 :] if not t.startswith("-")), "")
        if sub == "delete":
            cmd.add(
                B, "disk-write", "nvmecontrol ns delete destroys a namespace (its data is lost)"
            )
        elif sub in ("create", "attach", "detach"):
            cmd.add(M, "disk", f"nvmecontrol ns {sub} changes the disk's namespaces")
        return
    erasing = verb in _BSD_ERASE[cmd.name] or (
        cmd.name == "camcontrol" and verb == "security" and any(t in ("-e", "-h") for t in texts)
    )
    if erasing:
        cmd.add(B, "disk-write", f"{cmd.name} {verb} erases the disk (its data is lost)")
    elif verb in (
        "list",
        "status",
        "identify",
        "devlist",
        "inquiry",
        "readcap",
        "devlist",
        "show",
        "dump",
        "identify-ns",
        "ns",
        "logpage",
        "devlist",
        "info",
    ):
        return
    else:
        cmd.add(M, "disk", f"{cmd.name} {verb} changes disks")


@handles("rename", "prename", "perl-rename", "file-rename", "rename.ul", "mmv")
def _rename(cmd: Cmd) -> None:
    """(safety-tgt9) rename(1) in either spelling (`rename 's/a/b/' FILES`, util-linux
    `rename FROM TO FILES`) and mmv move their files away: an account or boot file, or a
    system folder, among them is moved away (blocked, like `mv /etc/passwd x`)."""
    if cmd.has("-n", "--no-act", "--dry-run", "-h", "--help", "-V", "--version"):
        return
    for w in cmd.operands():
        if w.dynamic or not w.text.startswith(("/", "~")):
            continue
        what = whole_system(w.text, cmd.scope.cwds, cmd.scope.windows)
        if what is not None:
            cmd.add(B, "system-file", f"{cmd.name} moves away {what}", w)
            return
    cmd.add(M, "changes", f"{cmd.name} renames files")


# hdparm options that only read: identify, geometry, timing reads, power state, temperature.
_HDPARM_READ = frozenset(names("-I -i -g -t -T -C -H -v --Istdout --direct -tT -Tt"))


_MODE_SETUID = re.compile(
    r"^([ugoa]*[+=][rwxXt]*s[rwxXt]*(,[ugoa]*[+=-][rwxXst]*)*|[0-7]?[4267][0-7]{3})$"
)
_MODE_WORLD = re.compile(r"^(0?777|[ugoa]*a\+rwx|o\+w|a\+w|0?666)$")


_MODE_SHAPE = re.compile(
    r"^(?:[-+=]?[0-7]{1,5}|(?:[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+)(?:,[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+)*)$"
)


def _mode_or_owner(name: str, text: str) -> bool:
    """Whether a first operand can be chmod's mode or chown's owner (`755`, `u+x`, `www:www`)."""
    if name == "chmod":
        return _MODE_SHAPE.match(text) is not None
    return "/" not in text and text not in (".", "..", "*") and not text.startswith("~")


@handles("chmod", "chown", "chgrp", "chattr", "setfacl")
def _chmod(cmd: Cmd) -> None:
    recursive = cmd.short("R") or cmd.long("--recursive")
    ops = cmd.operands(frozenset({"--reference"}))
    mode = ops[0] if ops else None
    targets = ops[1:]
    if (
        cmd.name in ("chmod", "chown", "chgrp")
        and mode is not None
        and (
            any(w.text.startswith("--reference") for w in cmd.args)
            or (not mode.dynamic and not _mode_or_owner(cmd.name, mode.text))
        )
    ):
        # `--reference=F` takes the place of the mode/owner; and an operand that cannot be
        # one (`chmod -R /`, `chown -R ~`) is a path the command is aimed at: judge it.
        mode, targets = None, ops
    if cmd.name in ("chattr", "setfacl"):
        # Attributes (`+i`, `-a`) and ACL specs (`-m u:x:r`) are not paths; every operand
        # left is a target (`chattr -R +i /`, `setfacl -R -b /`).
        taken = frozenset(names("-m -x -M -X -v -p --modify --remove --set --set-file"))
        mode = None
        targets = [w for w in cmd.operands(taken) if not re.fullmatch(r"[-+=][a-zA-Z]+", w.text)]
    if cmd.name == "chmod" and mode is not None and _MODE_SETUID.match(mode.text):
        cmd.add(
            C,
            "setuid",
            "sets the setuid/setgid bit: the file runs with its owner's rights",
            targets[-1] if targets else mode,
        )
        return
    for t in targets:
        target = classify_path(t.text, cmd.scope.cwds, cmd.scope.windows)
        if target.level == B and recursive:
            cmd.add(B, f"{cmd.name}-root", f"{cmd.name} -R changes {target.what}", t)
            return
        if target.level >= C or (target.level == B and not recursive):
            cmd.add(C, f"{cmd.name}-system", f"{cmd.name} changes {target.what}", t)
            return
    if recursive and cmd.name == "chmod" and mode is not None and _MODE_WORLD.match(mode.text):
        cmd.add(D, "chmod-world", "makes a whole tree world-writable", mode)
        return
    if cmd.name == "chmod" and mode is not None and "x" in mode.text:
        for t in targets:
            if t.text.rsplit("/", 1)[-1] in cmd.scope.downloaded:
                cmd.add(M, "permissions", f"makes downloaded {t.text} executable", t)
                return
    cmd.add(M, "permissions", f"{cmd.name} changes permissions or ownership")


def keeps_moved(dest: str) -> bool:
    """A destination that keeps what is moved into it: not `/dev/null`/`nul`, not a
    temporary folder (cleaned at the next boot), not the trash."""
    low = dest.strip("\"'").replace("\\", "/").lower().rstrip("/")
    if low in ("/dev/null", "nul", "nul:", "") or low.startswith("$"):
        return False
    return not re.search(
        r"(?:^|/)(?:tmp|temp|\.trash|trash|\$recycle\.bin)(?:/|$)|^%te?mp%|^/var/tmp|^/dev/shm",
        low,
    )


def _wired(text: str) -> bool:
    """A descriptor duplicated in the text (`0<&2`, `1>&0`): a shell wired to other ends."""
    return "<&" in text or ">&" in text


def copied_body(cmd: Cmd, sources: Sequence[Word], dest: Word | None) -> None:
    """(u22, review 21) `cp evil.gitconfig ~/.gitconfig`, `mv /tmp/rc ~/.bashrc` after the
    block wrote the source: the destination holds the written text, judged as if written
    there (a persistence door whose body is blocked is blocked; a tool's config that runs
    commands is judged as that config). A folder destination gets the source's name."""
    if dest is None or dest.dynamic or not cmd.scope.written:
        return
    from aintern_ls.safety import persist
    from aintern_ls.safety.wrappers import written_text

    for src in sources[:8]:
        if src.dynamic:
            continue
        text = written_text(cmd.scope, src.text)
        if text is None:
            continue
        target = dest.text
        if target.endswith("/"):
            target += src.text.rstrip("/").rsplit("/", 1)[-1]
        persist.judge_body(cmd.scope, target, text, dest)


@handles("mv")
def _mv(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-t", "--target-directory", "-S", "--suffix"}))
    dest = cmd.option_value("-t", "--target-directory") or (ops[-1] if len(ops) > 1 else None)
    copied_body(cmd, ops[:-1] if ops and dest is ops[-1] else ops, dest)
    # `mv -t dest/` alone (what `xargs mv -t dest/` runs on empty input) has no operand
    for w in ops[:-1] if ops and dest is ops[-1] else ops:
        t = classify_path(w.text, cmd.scope.cwds, cmd.scope.windows)
        if t.level == B and t.rule == "rm-cwd" and dest is not None and keeps_moved(dest.text):
            # `mv * ../archive/`: everything moves, nothing is lost (session-7 convention)
            cmd.add(D, "mv-all", f"mv moves {t.what} into {dest.text}", w)
            return
        if t.level == B:
            cmd.add(B, "mv-root", f"mv moves away {t.what}", w)
            return
        if (core := _state_folder(w.text, cmd.scope.cwds)) and SYSTEM_CORE.match(core):
            # `mv /lib/x86_64-linux-gnu /tmp/`: the system's libraries, init or PAM moved
            # away stop every program as their deletion does; a cluster store moved aside
            # is etcd's own restore step (stays a write) (b12)
            cmd.add(B, "mv-root", f"mv moves away the system folder {core}", w)
            return
    if ops and ops[-1].text == "/dev/null":
        cmd.add(D, "delete", "moving to /dev/null deletes the files", ops[-1])
        return
    cmd.add(M, "write", "mv moves or overwrites files")


def _touch(cmd: Cmd) -> bool:
    """`touch -d 2020-01-01 /var/log/auth.log`, `touch -r /bin/ls /usr/bin/x`: a file's times
    set to hide when it changed (timestomping) is anti-forensics when aimed at a log or a
    system file (critical, session-9 convention); a new file in a cron/start-up folder is
    persistence. True when a finding was added."""
    from aintern_ls.safety.paths import LOG_DIR, LOG_SUBDIR

    texts = cmd.texts()
    stamps = any(
        t in ("-d", "-t", "-r", "--date", "--reference")
        or t.startswith(("--date=", "--reference="))
        or re.fullmatch(r"-[acmh]*[dtr][acmh]*", t)
        for t in texts
    )
    ops: list[Word] = []
    skip = False
    for w in cmd.args:
        if skip:
            skip = False
        elif re.fullmatch(r"-[acmhf]*[dtr]|--date|--reference", w.text):
            skip = True  # `-acmr REF`, `-d DATE`: the value is no file touched
        elif not w.text.startswith("-"):
            ops.append(w)
    for w in ops:
        if w.dynamic:
            continue
        t = write_target(w.text, cmd.scope.cwds)
        if t is not None and t.rule in ("persistence", "disable-security") and not stamps:
            cmd.add(C, t.rule, f"touch creates {t.what}", w)  # (h20: apparmor.d/disable/)
            return True
        low = w.text.rstrip("/").lower()
        parent = low.rsplit("/", 1)[0]
        logged = bool(
            (t is not None and t.rule == "log-wipe")
            or LOG_DIR.match(parent)
            or LOG_SUBDIR.match(parent)
            or LOG_DIR.match(low)
        )
        if stamps and (logged or (t is not None and t.level >= C)):
            what = f"the log {w.text}" if logged else (t.what if t is not None else w.text)
            cmd.add(C, "timestomp", f"touch backdates {what} (hides when it changed)", w)
            return True
    return False


# Options of the write family that take a value (`_write_family`: made once, not per call).
_WRITE_VALUED = frozenset(
    names(
        """
        -t -m -o -g -e --rsh -S --exclude --include --filter -f -p --mode
        """
    )
)


@handles("cp", "install", "rsync", "cat", "tee", "touch", "mkdir", "mktemp")
def _write_family(cmd: Cmd) -> None:
    n = cmd.name
    ops = cmd.operands(_WRITE_VALUED)
    if n == "cat":
        for w in ops:
            if is_secret(w.text):
                cmd.info.reads_secret = True
        if any(is_secret(w.text) for w in ops):
            cmd.add(M, "read-secret", "prints a private key or credentials file")
        cmd.info.output = None
        return
    if n == "cp" and len(ops) >= 2 and ops[0].text == "/dev/null":
        if emptied_whole(cmd, ops[1:], "cp /dev/null empties"):
            return  # (f19) `for f in $(find ~ -type f); do cp /dev/null "$f"; done`
        cmd.add(D, "truncate", f"empties {ops[-1].text}", ops[-1])
        return
    if n == "touch" and _touch(cmd):
        return
    if n in ("cp", "install") and len(ops) >= 2 and ops[0].text in STDIN_FILES:
        stdin_written(cmd, ops[-1])  # (f19) `cp /dev/stdin run.sh <<'EOF'`
    elif n in ("cp", "install") and len(ops) >= 2:
        copied_body(cmd, ops[:-1], ops[-1])
    mode = cmd.option_value("-m", "--mode") if n == "install" else None
    if mode is not None and _MODE_SETUID.match(mode.text):
        cmd.add(
            C,
            "setuid",
            "install gives the copy the setuid/setgid bit: it runs with its owner's rights",
            mode,
        )
        return
    if ops and is_device(ops[-1].text) and n in ("cp", "tee", "rsync", "install"):
        cmd.add(B, "disk-write", f"{n} overwrites the raw disk {ops[-1].text}", ops[-1])
        return
    if n == "tee":
        if cmd.stdin.kind == "static" and not any(w.dynamic for w in ops):
            # `printf '{…}' | tee package.json`: the file's text is known, like `cat > f`.
            from aintern_ls.safety import persist

            for w in ops:
                cmd.scope.written[w.text.rsplit("/", 1)[-1]] = (cmd.stdin.text, cmd.stdin.start)
                # (f19) `echo 'rm -rf ~' | tee -a ~/.bashrc`: a door with a blocked body
                persist.judge_body(cmd.scope, w.text, cmd.stdin.text, w)
        append = any(
            t in ("-a", "--append") or re.fullmatch(r"-[a-z]*a[a-z]*", t) for t in cmd.texts()
        )
        for w in ops:
            t = write_target(w.text, cmd.scope.cwds, append)
            if t is not None:
                rule = "tee-system-file" if t.rule == "system-file" else t.rule
                cmd.add(
                    t.level, rule, f"tee {'appends to' if append else 'overwrites'} {t.what}", w
                )
                return
        written = [w for w in ops if w.text not in ("/dev/null", "/dev/stdout", "/dev/stderr")]
        if written:
            cmd.add(M, "write", "tee writes files", written[-1])
        if cmd.stdin.kind == "network":
            # `curl … | tee x.sh; sh x.sh`: the file holds the download.
            from aintern_ls.safety.wrappers import remember_unseen

            for w in written:
                if not w.dynamic:
                    remember_unseen(cmd.scope, w.text, "was just downloaded")
        if cmd.stdin.paths:
            # (f19) `find / | tee /tmp/all; xargs rm < /tmp/all`: the file holds the listing
            from aintern_ls.safety.wrappers import remember_listing

            for w in written:
                if not w.dynamic:
                    remember_listing(cmd.scope, w.text, cmd.stdin)
        if cmd.stdin.kind == "static" and not append:
            # `tee x.sh <<< 'rm -rf /'; . ./x.sh`: running the file later runs this text.
            for w in written:
                if not w.dynamic:
                    cmd.scope.written[w.text.rsplit("/", 1)[-1]] = (
                        cmd.stdin.text,
                        cmd.stdin.start,
                    )
        return
    if n == "rsync":
        from aintern_ls.safety.system import option_glued

        rsh = option_glued(cmd, "-e", "--rsh", "--rsync-path")
        if rsh is not None:
            run_config_command(cmd, rsh, f"rsync's remote-shell option {rsh.text!r}")
        remote = [
            w
            for w in ops
            if (re.match(r"^[\w.@-]+:", w.text) and not w.text.startswith("/"))
            or w.text.startswith("rsync://")
        ]
        dry = cmd.has("-n", "--dry-run", "--list-only") or (
            cmd.short("n") and not cmd.long("--numeric-ids")
        )  # (--list-only lists the source and transfers nothing: review 11, finding 9)
        if not dry and len(ops) >= 2 and cmd.long("--remove-source-files"):
            # `rsync -a --remove-source-files /etc/ /mnt/usb/etc/`: every file it copied is
            # deleted at the SOURCE (rsync(1)): a system folder's files or an account file
            # are gone from the machine, wherever the copies went (n10u)
            for w in ops[:-1]:
                if w in remote or w.dynamic:
                    continue
                t = classify_path(w.text, cmd.scope.cwds)
                if t.level >= B:
                    cmd.add(B, t.rule, f"rsync --remove-source-files deletes {t.what}", w)
                    return
        if remote and any(is_secret(w.text) for w in ops[:-1]):
            cmd.add(C, "exfiltration", "copies private keys or credentials to another machine")
            return
        if dry:
            return  # `rsync -an --delete SRC DST`: a dry run lists what it would do
        if (
            len(ops) >= 2
            and ops[-1] in remote
            and re.match(
                r"^(~|/root|/home(/[^/]+)?|/Users(/[^/]+)?|/etc)(/\.?[^/]*)?/?$", ops[0].text
            )
            and not cmd.short("n")
            and not cmd.long("--dry-run")
        ):
            cmd.add(C, "exfiltration", "copies home or system files to another machine")
            return
        if len(ops) >= 2 and ops[-1] in remote:
            local = [w for w in ops[:-1] if w not in remote]
            if local:
                from aintern_ls.safety.network import sends_local

                sends_local(cmd, local[0], "rsync")  # `rsync -a dist/ host:/srv/`: an upload
        if cmd.long(
            "--delete",
            "--delete-before",
            "--delete-after",
            "--delete-during",
            "--delete-excluded",
            "--remove-source-files",
        ):
            if ops and cmd.long("--remove-source-files") and not cmd.long("--delete"):
                cmd.add(D, "rsync-delete", "rsync --remove-source-files deletes what it copied")
                return
            if ops:
                t = classify_path(ops[-1].text, cmd.scope.cwds)
                if t.level < B and (state := system_state(ops[-1].text, cmd.scope.cwds)):
                    # `rsync -a --delete empty/ /var/lib/etcd/`: a system-state folder emptied
                    t = Target(B, "rm-system", f"the system state folder {state}")
                if t.level == B:
                    cmd.add(B, t.rule, f"rsync --delete can erase {t.what}", ops[-1])
                    return
            cmd.add(D, "rsync-delete", "rsync --delete deletes files at the destination")
            return
        cmd.add(M, "write", "rsync copies files" + (" over the network" if remote else ""))
        return
    if n == "mktemp":
        return
    cmd.add(M, "write", f"{n} creates or changes files")


@handles("cpio")
def _cpio(cmd: Cmd) -> None:
    """`cpio -p DIR` copies the files named on stdin into DIR; `cpio -i` unpacks an archive
    (into `-D DIR`). Names that land on account or boot files replace them (blocked); an
    unknown set of files copied over `/` or a system directory is critical."""
    from aintern_ls.safety import system
    from aintern_ls.safety.paths import write_target

    texts = cmd.texts()
    flags = "".join(t[1:] for t in texts if re.fullmatch(r"-[a-zA-Z]+", t))
    if "o" in flags or "--create" in texts or "t" in flags or "--list" in texts:
        return  # writing an archive to stdout, listing one
    dest: Word | None = None
    if "p" in flags or "--pass-through" in texts:
        ops = cmd.operands(frozenset(names("-D --directory -H --format -R --owner -E -F -O -I")))
        dest = ops[-1] if ops else None
    else:
        dest = cmd.option_value("-D", "--directory")
        from aintern_ls.safety.wrappers import unpacked_from_network

        unpacked_from_network(cmd, dest.text if dest is not None else None)
    if dest is None or dest.dynamic:
        cmd.add(M, "write", "cpio writes files")
        return
    listed = cmd.stdin.text.split() if cmd.stdin.kind == "static" else []
    for name in listed[:32]:
        t = write_target(dest.text.rstrip("/") + "/" + name.lstrip("./"), cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"cpio copies {name} over {t.what}", dest)
            return
    if not system.extracts_over_system(cmd, dest) and not system.extracts_into(cmd, dest):
        cmd.add(M, "write", f"cpio writes files into {dest.text}", dest)


@handles("sponge")
def _sponge(cmd: Cmd) -> None:
    """`… | sponge FILE` soaks up its input and writes FILE (the destination is judged like a
    redirection: account files blocked, startup files persistence)."""
    if cmd.operands():
        cmd.add(M, "write", "sponge writes a file")
        stdin_written(cmd, cmd.operands()[-1])  # (f19) `echo … | sponge x.sh; sh x.sh`


# --- log files by name, every entry of home (moved here from the session-6 `families6.py`) ---
# Log files by name: `*.log`, `*.log.*`, `*.evtx`, `*.journal`, `*_history`, `wtmp*`.
_LOG_NAME = re.compile(
    r"(?i)^\*\.(?:log|evtx|etl|journal~?|log\.\S*)$|^\*?\.?\S*_history$|^wtmp\*?$"
)


def find_deletes_logs(cmd: Cmd, name: str, low: list[str]) -> bool:
    """`find / -name '*.log' -delete` (or `-exec rm …`): log files deleted over the whole
    system is log clearing (critical), not an ordinary narrowed delete."""
    if name != "find":
        return False
    roots = []
    for t in low:
        if t.startswith(("-", "(", "!")):
            break
        roots.append(t.rstrip("/") or "/")
    if not any(r in ("/", "c:", "/var", "/private/var") for r in roots):
        return False
    names_ = [low[i + 1].strip("'\"") for i, t in enumerate(low[:-1]) if t in ("-name", "-iname")]
    if not any(_LOG_NAME.match(n) for n in names_):
        return False
    tail = " ".join(low)
    if "-delete" in low or re.search(
        r"-exec(?:dir)?\s+(?:\S*/)?(?:rm|shred|truncate|unlink|srm)\b", tail
    ):
        cmd.add(C, "log-wipe", "find deletes log files by name across the whole system")
        return True
    return False


# Every entry of home, non-recursive (`~/*`, `$HOME/*`, `%USERPROFILE%\*`) is still every file.
_HOME_ALL = re.compile(
    r"(?i)^[\'\"]?(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%|\$env:HOME)[\\/]\*(?:\.\*)?[\'\"]?$"
)
_HOME_DELETERS = frozenset(
    ("rm", "shred", "srm", "wipe", "unlink", "del", "erase", "remove-item", "ri", "rd", "rmdir")
)


def home_entries_deleted(cmd: Cmd, name: str, texts: list[str]) -> bool:
    """`rm ~/*`, `del %USERPROFILE%\\*`: every entry of the home folder, in any deleter."""
    if name in _HOME_DELETERS and any(_HOME_ALL.match(t) for t in texts):
        cmd.add(B, "rm-home", f"{name} deletes every entry of the home folder")
        return True
    return False


# --- archivers that delete what they pack (safety-tgt9) ---------------------------------------
# gzip and its kin replace each file by its compressed copy (the original is deleted) unless
# told to keep it or to write to stdout; zstd/lz4/brotli/lzop only with --rm/-U; zip -m,
# 7z -sdel, tar --remove-files and rar's `m` move the files into the archive.
_REPLACE_BY_DEFAULT = frozenset(names("gzip bzip2 xz lzma compress lzip pigz pbzip2 plzip"))
_REMOVE_OPTION = {
    "zstd": ("--rm",),
    "lz4": ("--rm",),
    "brotli": ("--rm", "-j"),
    "lzop": ("-U", "--delete"),
    "zip": ("-m", "--move"),
    "7z": ("-sdel",),
    "7za": ("-sdel",),
    "7zz": ("-sdel",),
    "tar": ("--remove-files",),
    "bsdtar": ("--remove-files",),
    "gtar": ("--remove-files",),
    "rar": ("-df",),
}
SOURCE_REMOVERS = _REPLACE_BY_DEFAULT | frozenset(_REMOVE_OPTION)
# ... and `-d`/`--decompress`: the packed file is replaced by its unpacked copy, the content
# stays (as `gunzip` does).
_KEEPS = re.compile(
    r"\A(?:--(?:keep|stdout|to-stdout|list|test|help|version|decompress|uncompress)"
    r"|-[a-zA-Z0-9]*[kctlhVd][a-zA-Z0-9]*)\Z"
)


def sources_removed(cmd: Cmd) -> None:
    """`gzip /etc/passwd`, `zip -m x.zip /etc/shadow`, `tar --remove-files -cf x.tar /boot`:
    an account or boot file, a system tree or a home packed away and deleted (blocked)."""
    texts = [w.text for w in cmd.args]
    name = cmd.name
    if name in _REPLACE_BY_DEFAULT:
        if any(_KEEPS.match(t) for t in texts):
            return
    elif not any(
        t in _REMOVE_OPTION[name] or (name == "rar" and i == 0 and t == "m")
        for i, t in enumerate(texts)
    ):
        return
    for w in cmd.args:
        if w.dynamic or w.text.startswith("-") or not w.text.startswith(("/", "~", "$")):
            continue
        t = classify_path(w.text, cmd.scope.cwds, cmd.scope.windows)
        if t.level >= B and t.rule in ("rm-system-file", "rm-system", "rm-root", "rm-home"):
            cmd.add(B, t.rule, f"{name} packs away and deletes {t.what}", w)
            return
