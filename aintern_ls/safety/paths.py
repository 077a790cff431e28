"""What a path operand means for destruction: the root, a home, a system dir, the cwd, or scoped.

Paths arrive already unquoted; `~`, `$HOME`, `%USERPROFILE%` and friends are folded into `~`
by the front ends. Windows paths are compared lowercase with forward slashes.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from functools import lru_cache

import attrs

from aintern_ls.safety.levels import RiskLevel

# Top-level and well-known second-level directories whose loss breaks the machine.
_SYSTEM_DIRS = frozenset(
    {
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/opt",
        "/proc",
        "/root",
        "/sbin",
        "/srv",
        "/sys",
        "/usr",
        "/var",
        "/home",
        "/users",
        "/system",
        "/library",
        "/applications",
        "/private",
        "/snap",
        "/mnt",
        "/media",
        "/run",
        "/tmp",
        "/var/tmp",
        "/cores",
        "/volumes",
        "/nix",
        "/usr/bin",
        "/usr/sbin",
        "/usr/lib",
        "/usr/lib64",
        "/usr/local",
        "/usr/share",
        "/usr/include",
        "/usr/libexec",
        "/var/lib",
        "/var/log",
        "/var/db",
        "/var/spool",
        "/var/mail",
        "/private/etc",
        "/private/var",
        # (safety-tgt9) package databases: without them the system cannot be updated or
        # repaired; macOS's system databases
        "/var/lib/dpkg",
        "/var/lib/rpm",
        "/var/lib/pacman",
        "/var/lib/apk",
        "/var/db/pkg",
        "/usr/lib/sysimage/rpm",
        "/private/var/db",
        "/system/applications",
        "/system/library/coreservices",
        "/var/root",  # macOS root's home
        "/private/var/root",
        "/nix/store",
        # the kernel's modules: without them the machine does not boot
        "/lib/modules",
        "/usr/lib/modules",
        "/lib/firmware",
        "/usr/lib/firmware",
        "/system/library",
        "/usr/local/bin",
        "/usr/local/lib",
        # (n14u) the BSDs' and macOS's system state beside Linux's: the ports/packages'
        # configuration and rc scripts, FreeBSD's rc defaults, periodic jobs, the system's
        # helper programs; macOS's system-wide launch daemons/agents, kernel extensions,
        # startup items, preferences and security plug-ins (the /System twins are above)
        "/usr/local/etc",
        "/usr/local/etc/rc.d",
        "/usr/local/sbin",
        "/etc/defaults",
        "/etc/periodic",
        "/etc/rc.conf.d",
        "/library/launchdaemons",
        "/library/launchagents",
        "/library/extensions",
        "/library/startupitems",
        "/library/preferences",
        "/library/security",
        "/library/frameworks",
        "/etc/ssh",
        "/etc/ssl",
        "/etc/pam.d",
        "/etc/systemd",
        "/etc/init.d",
        "/etc/sudoers.d",
        "c:",
        "c:/windows",
        "c:/windows/system32",
        "c:/windows/syswow64",
        "c:/program files",
        "c:/program files (x86)",
        # (n19w) the components every program shares (`%CommonProgramFiles%`)
        "c:/program files/common files",
        "c:/program files (x86)/common files",
        "c:/programdata",
        "c:/users",
        "c:/boot",
        "c:/recovery",
        "c:/documents and settings",
    }
)

# Account and boot files: deleting, moving or overwriting them is blocked (DESIGN §5).
_ACCOUNT_FILES = re.compile(
    r"^/(etc/(passwd|shadow|group|gshadow|sudoers|master\.passwd|pam\.d(/\S*)?|sudoers\.d(/\S*)?)"
    r"|(usr/local/)?etc/doas\.conf"  # (b12) the BSDs' sudoers
    # (b12) the firmware's variables: the boot entries themselves (deleting them all has
    # bricked machines whose firmware needs its own)
    r"|sys/firmware/efi/efivars(/\S*)?"
    r"|boot(/\S*)?|etc/default/grub|boot/grub/grub\.cfg"
    # the mount table, an EFI system partition mounted at /efi, macOS's kernels and boot
    # loader (safety-m8)
    r"|etc/fstab|efi(/\S*)?|system/library/kernels(/\S*)?|system/library/coreservices/boot\.efi"
    r"|usr/standalone/i386/boot\.efi|system/library/prelinkedkernels(/\S*)?"
    # (n10u) the kernel image a package keeps beside its modules (Arch, Fedora's
    # kernel-install): the one the boot loader entry is made from
    r"|(usr/)?lib/modules/[^/]+/vmlinuz"
    r"|private/etc/(passwd|sudoers|master\.passwd|group))$"
    # (safety-tgt9) the rest of the target side: the encrypted-volume table, BSD's hashed
    # password databases (macOS keeps the same under /private), the kernel and initrd links
    # at the root, macOS's local account database and keychains (the system's, a user's)
    r"|^/(etc/(crypttab|s?pwd\.db|login\.conf\.db)|private/etc/(s?pwd\.db|shadow|gshadow|fstab)"
    r"|(vmlinuz|initrd\.img|initrd|vmlinux|bsd|bsd\.rd|bsd\.mp|netbsd|kernel)(\.old)?"
    r"|(private/)?var/db/dslocal(/\S*)?|library/keychains|system/library/keychains)$"
    r"|^(~|/users/[^/]+|/var/root)/library/keychains(/(login|system|metadata)\.keychain(-db)?"
    r"|/[0-9a-f]{8}-[0-9a-f-]{27})?$"  # (n10u) the login keychain, the local-items folder
    r"|^/library/keychains/(system|apsd)\.keychain(-db)?$|^/system/library/keychains/\S+$"
    # (b12, red-team round 12) the core runtime: the dynamic loader and the C library that
    # every dynamically linked program needs, and the init program; without them nothing
    # runs or the machine does not boot (glibc/musl under any lib folder, the BSDs' ld.so
    # and libc, macOS's dyld and libSystem)
    r"|^/(?:usr/)?lib(?:32|64|x32)?(?:/[a-z0-9_]+-linux-(?:gnu|musl)\w*)?"
    r"/(?:ld-linux[\w.-]*\.so(?:\.\d+)*|ld-musl-[\w.-]+\.so\.\d+|libc\.so(?:\.\d+)*"
    r"|libc-\d[\d.]*\.so|libc\.musl-[\w.-]+\.so\.\d+)$"
    r"|^/(?:libexec/ld-elf\.so\.\d+|usr/libexec/ld\.so|usr/lib/libc\.so\.[\d.]+|usr/lib/dyld"
    r"|usr/lib/libsystem\.b\.dylib|sbin/init|(?:usr/)?lib/systemd/systemd)$"
    r"|^[a-z]:/windows/system32/config/(sam|system|security|software|default)$"
    # (safety-tgt9) the domain's account database, the page/hibernation/swap files
    r"|^[a-z]:/(windows/ntds/ntds\.dit|pagefile\.sys|hiberfil\.sys|swapfile\.sys)$"
    # Windows boot files: the boot configuration store, boot managers and loaders.
    r"|^[a-z]:/(boot(/\S*)?|bootmgr|ntldr|boot\.ini|efi/microsoft/boot(/\S*)?"
    r"|efi/boot/bootx64\.efi|windows/system32/(winload|winresume)\.(exe|efi)"
    # (n17w) the recovery environment: its image and the folders that hold it (recovery off,
    # like `reagentc /disable`)
    r"|windows/system32/recovery(/\S*)?|recovery(/windowsre(/\S*)?)?|(\S*/)?winre\.wim"
    r"|windows/system32/(ntoskrnl\.exe|hal\.dll|ci\.dll)"
    # (safety-f8) the boot files Windows keeps under \Windows\Boot, and the boot-start
    # drivers without which the system disk cannot be read
    r"|windows/boot(/\S*)?|windows/system32/drivers/(disk|classpnp|partmgr|volmgr|volmgrx"
    r"|mountmgr|storport|stornvme|storahci|ntfs|fltmgr|acpi|pci|ksecdd|cng)\.sys)$"
)
# (n13w) The Windows core runtime: the native API, the base Win32 libraries every program
# loads, the session/logon/service processes and the kernel-mode Win32 subsystem. Without
# one of them no program starts or Windows does not boot (as the dynamic loader and libc
# above): deleting one is blocked. `Sysnative` is normalised to System32 (`_norm`).
_WIN_CORE_FILES = re.compile(
    r"^[a-z]:/windows/(?:system32|syswow64)/(?:(?:ntdll|kernel32|kernelbase|user32|gdi32"
    r"|gdi32full|win32u|advapi32|sechost|rpcrt4|combase|ole32|oleaut32|msvcrt|ucrtbase"
    r"|msvcp_win|bcrypt|bcryptprimitives|cryptbase|shell32|shlwapi|ws2_32|lsasrv|samsrv"
    r"|msv1_0|kerberos|basesrv|winsrv|csrsrv|kdcom|apisetschema|ntdsapi|sspicli|userenv"
    r"|profapi|winsta|wintrust|crypt32|imm32|setupapi|cfgmgr32|powrprof|umpdc)\.dll"
    r"|(?:smss|csrss|wininit|winlogon|lsass|services|svchost|userinit|logonui|ntkrnlpa"
    r"|ntkrnlmp|ntoskrnl|winload|winresume)\.(?:exe|efi)"
    r"|(?:drivers/)?(?:win32k|win32kbase|win32kfull|cng|ksecdd|clfs|tm|wdf01000|fltmgr"
    r"|ntfs|disk|volmgr|partmgr)\.sys|drivers|config|hal\.dll|ci\.dll)$"
)
_CORE_DIR = re.compile(r"^([a-z]:/windows/(?:system32|syswow64)/(?:drivers/)?)([^/]+)$")
# The file names `_WIN_CORE_FILES` lists, for a glob (`nt*.dll`, `kernel3?.dll`) to match.
_CORE_STEMS = {
    "dll": "ntdll kernel32 kernelbase user32 gdi32 gdi32full win32u advapi32 sechost rpcrt4"
    " combase ole32 oleaut32 msvcrt ucrtbase msvcp_win bcrypt bcryptprimitives cryptbase"
    " shell32 shlwapi ws2_32 lsasrv samsrv msv1_0 kerberos basesrv winsrv csrsrv kdcom"
    " apisetschema ntdsapi sspicli userenv profapi winsta wintrust crypt32 imm32 setupapi"
    " cfgmgr32 powrprof umpdc hal ci",
    "exe": "smss csrss wininit winlogon lsass services svchost userinit logonui ntkrnlpa"
    " ntkrnlmp ntoskrnl winload winresume",
    "sys": "win32k win32kbase win32kfull cng ksecdd clfs tm wdf01000 fltmgr ntfs disk volmgr"
    " partmgr",
}
_CORE_NAMES = tuple(f"{n}.{ext}" for ext, stems in _CORE_STEMS.items() for n in stems.split())


def _core_by_pattern(low: str) -> bool:
    """`C:/Windows/System32/nt*.dll`, `kernel3?.dll`, `ntdll.dll.` (Win32 drops trailing dots
    and blanks): a name that is, or a pattern that matches, a core Windows component (r15)."""
    if "windows/sys" not in low:
        return False  # (a cheap exit)
    m = _CORE_DIR.match(low)
    if m is None:
        return False
    name = m.group(2)
    if not any(c in name for c in "*?[") and name.endswith((".", " ")):
        return bool(_WIN_CORE_FILES.match(m.group(1) + name.rstrip(". ")))
    if not any(c in name for c in "*?["):
        return False
    return any(fnmatch.fnmatchcase(core, name) for core in _CORE_NAMES)


# (n13w) Environment variables whose value is a known folder, by name (any case): what
# inline interpreter code reading them (`process.env.WINDIR`, `os.environ["SystemRoot"]`,
# `$ENV{ProgramFiles}`) gets on Windows, or on any system for the home variables.
_ENV_FOLDERS = {
    "home": "~",
    "userprofile": "~",
    "windir": "C:\\Windows",
    "systemroot": "C:\\Windows",
    "systemdrive": "C:",
    "programfiles": "C:\\Program Files",
    "programfiles(x86)": "C:\\Program Files (x86)",
    "programw6432": "C:\\Program Files",
    "programdata": "C:\\ProgramData",
    "allusersprofile": "C:\\ProgramData",
    "appdata": "~\\AppData\\Roaming",
    "localappdata": "~\\AppData\\Local",
    "public": "C:\\Users\\Public",
    "commonprogramfiles": "C:\\Program Files\\Common Files",
    "commonprogramfiles(x86)": "C:\\Program Files (x86)\\Common Files",
    "commonprogramw6432": "C:\\Program Files\\Common Files",
}


def env_folder(name: str) -> str | None:
    """The folder an environment variable names when its value is known (`WINDIR` is
    C:\\Windows, `HOME` the home folder), else None."""
    return _ENV_FOLDERS.get(name.lower())


# Files that run code at login or on a schedule: any write to them is persistence.
_PERSISTENCE = re.compile(
    r"(^|/)\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin"
    r"|kshrc|cshrc|tcshrc|mkshrc|inputrc|xinitrc|xprofile|xsession|bash_aliases|zlogout"
    r"|xsessionrc|pam_environment)$"
    r"|(^|/)\.config/fish/(config\.fish|conf\.d/\S+)$"
    # other shells' start-up files (safety-m7): nushell, xonsh, elvish, ion
    r"|(^|/)\.config/nushell/(config\.nu|env\.nu|login\.nu|autoload/\S+)$|(^|/)\.xonshrc$"
    r"|(^|/)\.config/xonsh/(rc\.xsh|rc\.d/\S+)$|(^|/)\.(config/)?elvish/rc\.elv$"
    r"|(^|/)\.config/ion/initrc$"
    r"|(^|/)\.ssh/(authorized_keys2?|rc|config)$"
    # (safety-f10) sshd's own key lists: Windows OpenSSH's one for every administrator, and
    # the per-user lists a system AuthorizedKeysFile points to; each line is a login.
    r"|(^|/)programdata/ssh/administrators_authorized_keys$|^/etc/ssh/authorized_keys/\S+$"
    r"|^/etc/(profile|bashrc|bash\.bashrc|zshrc|zsh/\S+|environment|rc\.local|ld\.so\.preload)$"
    r"|^/etc/(profile\.d|cron\.d|cron\.daily|cron\.hourly|cron\.weekly|cron\.monthly"
    r"|systemd/system|init\.d|xdg/autostart|sudoers\.d)/\S+$|^/etc/crontab$"
    r"|^/var/spool/cron/\S+|(^|/)\.config/(autostart|systemd/user)(/\S*)?$"
    r"|(^|/)library/(launchagents|launchdaemons|startupitems)(/\S*)?$"
    r"|^/etc/(periodic/\w+|emond\.d/rules|bash_completion\.d|x11/xsession\.d)/\S+$"
    r"|(^|/)\.local/share/systemd/user(/\S*)?$"
    # BSD rc scripts and rc.conf, upstart jobs, vendor unit folders, udev and APT hooks,
    # network hook scripts, login messages (safety-art6): each runs its contents as root.
    r"|^/(usr/local/)?etc/rc\.d/\S+$|^/etc/rc\.conf(\.local|\.d/\S+)?$|^/etc/init/\S+\.conf$"
    r"|^/(usr/)?lib/systemd/(system|user)/\S+$|^/etc/systemd/user/\S+$"
    r"|^/etc/udev/rules\.d/\S+$|^/etc/apt/apt\.conf\.d/\S+$|^/etc/update-motd\.d/\S+$"
    # (a22) package managers' hooks: pacman's (`Exec =`), dnf/yum's post-transaction actions
    # and plugins; each runs its command as root at every install or update
    r"|^/etc/apt/apt\.conf$|^/(etc/pacman\.d|usr/share/libalpm)/hooks/\S+$"
    r"|^/etc/(dnf/plugins/post-transaction-actions\.d|yum/post-actions)/\S+$"
    r"|/(dnf-plugins|yum-plugins)/[^/]+\.py$"
    r"|^/etc/network/if-(up|down|pre-up|post-down)\.d/\S+$|^/etc/NetworkManager/dispatcher\.d/\S+$"
    r"|powershell/\S*profile\.ps1$|^\$profile(\.\w+)?$"
    # Python runs these at every interpreter start (site-packages hooks)
    r"|(^|/)(sitecustomize|usercustomize)\.py$|(site|dist)-packages/[^/]+\.pth$"
    r"|/start menu/programs/startup/\S*"
    # Other interpreters', REPLs' and debuggers' start-up files (safety-m7): each runs its
    # commands (`system(…)`, psql's `\!`, sqlite's `.shell`, gdb's `shell`) whenever it starts.
    r"|(^|/)\.(irbrc|pryrc|psqlrc|sqliterc|rprofile|gdbinit|lldbinit|ghci|octaverc|lesskey"
    r"|mongorc\.js|mongoshrc\.js|perldb|guile|sbclrc|clisprc\.lisp|mysqlsh/mysqlshrc\.py)$"
    r"|(^|/)rprofile\.site$|(^|/)\.ipython/profile_[^/]+/startup/[^/]+$"
    r"|(^|/)\.julia/config/startup\.jl$|^/etc/(psqlrc|gdb/gdbinit)$"
    # (safety-rep7) a server-side script dropped where web shells go (Exchange's
    # aspnet_client and owa/ecp auth folders, upload folders, MOVEit's isapi folder): it
    # runs on every request (ProxyShell/ProxyLogon, MOVEit, WordPress intrusions)
    r"|(^|[\\/])(aspnet_client|owa[\\/]auth|ecp[\\/]auth|uploads?|moveit\w*|\.well-known)"
    r"([\\/][^\\/]+)*[\\/][^\\/]+\.(php\d?|phtml|phar|aspx?|ashx|asmx|jspx?|cfm|cgi)$",
    re.I,
)


# Text every alternative of `_PERSISTENCE` holds one of (lower case): an alternative added
# there needs its word here (tests/safety/test_s21_speed.py checks each alternative).
_PERSISTENCE_WORDS = (
    *(".bash", ".profile", ".zsh", ".zprofile", ".zlog", ".kshrc", ".cshrc", ".tcshrc"),
    *(".mkshrc", ".inputrc", ".xinitrc", ".xprofile", ".xsession", ".pam_environment"),
    *(".config/", ".xonshrc", "elvish/", ".ssh/", "programdata/ssh/", "/etc/"),
    *("/var/spool/cron/", "library/", "systemd/", "profile.ps1", "$profile", "customize.py"),
    *("-packages/", "/start menu/programs/startup/", ".irbrc", ".pryrc", ".psqlrc"),
    *(".sqliterc", "rprofile", ".gdbinit", ".lldbinit", ".ghci", ".octaverc", ".lesskey"),
    *(".mongorc.js", ".mongoshrc.js", ".perldb", ".guile", ".sbclrc", ".clisprc.lisp"),
    *(".mysqlsh/", ".ipython/", ".julia/", "aspnet_client", "auth", "upload", "moveit"),
    ".well-known",
    "-plugins/",
    "libalpm/",
)


def _persists(low: str) -> bool:
    """`_PERSISTENCE.search(low)` (s21: the case-blind alternation costs 20-60 µs for an
    ordinary path; ASCII text holding none of `_PERSISTENCE_WORDS` cannot match it)."""
    if low.isascii() and not any(map(low.__contains__, _PERSISTENCE_WORDS)):
        return False
    return _PERSISTENCE.search(low) is not None


# A git hook (not a `.sample`): `.git/hooks/pre-commit`, `$GIT_DIR/hooks/post-checkout`.
_GIT_HOOK = re.compile(r"(?:^|/)\.git/hooks/(?![^/]*\.sample$)[^/]+$")


_ACCOUNT_NAMES = ACCOUNT_NAMES = (
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/sudoers",
    "/boot/grub/grub.cfg",
    "/boot/vmlinuz",
    "/boot/initrd.img",
)


# (n14u) The core runtime's files where the common systems keep them (the dynamic loader, the
# C library, macOS's dyld/libSystem, the BSDs' ld.so/libc, init): every one matches
# `_ACCOUNT_FILES`. A pattern (a glob operand, find's -name/-path/-regex, fd's) that matches
# one of them deletes it, as the literal path does: `rm /lib/x86_64-linux-gnu/libc.so*`,
# `find / -name 'ld-linux*' -delete`.
_CORE_RUNTIME_DIRS = (
    "/lib",
    "/lib64",
    "/usr/lib",
    "/usr/lib64",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib/i386-linux-gnu",
)
_CORE_RUNTIME_BASES = (
    "libc.so.6",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
    "ld-linux.so.2",
    "ld-musl-x86_64.so.1",
    "libc.musl-x86_64.so.1",
)
CORE_RUNTIME_NAMES = (
    *(f"{d}/{n}" for d in _CORE_RUNTIME_DIRS for n in _CORE_RUNTIME_BASES),
    "/lib/libc.so.7",
    "/libexec/ld-elf.so.1",
    "/usr/libexec/ld.so",
    "/usr/lib/dyld",
    "/usr/lib/libsystem.b.dylib",
    "/sbin/init",
    "/lib/systemd/systemd",
    "/usr/lib/systemd/systemd",
)


def glob_core_file(pattern: str) -> str | None:
    """The first core runtime file a glob pattern (`/lib/*/libc.so*`, `/lib64/ld-*`) matches
    (`pattern` lower-cased)."""
    if len(pattern) > 200 or not pattern.startswith(("/lib", "/usr/", "/sbin/", "/libexec/")):
        return None
    return next((n for n in CORE_RUNTIME_NAMES if fnmatch.fnmatchcase(n, pattern)), None)


def glob_account_file(pattern: str) -> str | None:
    """The first account or boot file a glob pattern (`/etc/*`, `/boot/*`) matches."""
    if len(pattern) > 200 or not pattern.startswith(("/etc/", "/boot/")):
        return None
    return next((n for n in _ACCOUNT_NAMES if fnmatch.fnmatchcase(n, pattern)), None)


def cwd_order(cwds: frozenset[str | None]) -> list[str | None]:
    """The possible working directories in a fixed order: known ones first, by name, then
    None (the directory the block started in). Which of several equally bad readings a
    finding names must not depend on set order (PYTHONHASHSEED): `cd; rm -rf ./*` is always
    reported as the home directory's wipe."""
    if len(cwds) == 1:
        return list(cwds)
    return sorted(cwds, key=lambda c: (c is None, c or ""))


# Kernel settings (under /proc/sys) whose change is a protection turned off or a program
# the kernel will run: a write there stays critical (see system._SYSCTL_WEAKEN).
_KERNEL_KNOB_CRITICAL = re.compile(
    r"kernel/(?:randomize_va_space|kptr_restrict|dmesg_restrict|yama/|unprivileged_bpf_disabled"
    r"|kexec_load_disabled|perf_event_paranoid|unprivileged_userns_clone|modules_disabled"
    r"|core_pattern|modprobe|hotplug|poweroff_cmd|usermodehelper)"
    r"|net/core/bpf_jit|fs/(?:protected_|suid_dumpable|binfmt_misc)|dev/tty/ldisc_autoload"
)


# (n20u) Folders on a usual PATH ahead of (or beside) the system's, and commands people and
# scripts run every day: a file of that name there shadows the command.
_PATH_SHADOW = re.compile(
    r"^(?:/usr/local/s?bin|/opt/homebrew/bin|/opt/local/bin|~/\.local/bin|~/bin|~/\.cargo/bin|~/go/bin"
    r"|/home/[^/]+/(?:\.local/)?bin)/([^/]+)$"
)
SHADOWED_COMMANDS = frozenset(
    # (review 20 O2) only names nobody installs by hand: the system's own utilities and its
    # privilege, login and account tools. Tools people do install into /usr/local/bin or
    # ~/.local/bin from a release (kubectl, terraform, node, python3, git, vim, docker, aws,
    # uv...) are what install guides copy there: a file of that name is the tool, moderate.
    """
    sudo su doas pkexec ls cat cp mv rm ln ssh scp sftp bash sh zsh dash id whoami ps grep find
    tar awk sed less more passwd login env which apt apt-get yum dnf systemctl service chmod
    chown mount umount ping ip ifconfig ssh-add ssh-keygen kill pkill killall mkdir cd echo
    printf head tail sort uniq xargs dd crontab at journalctl dmesg lsof netstat ss curl wget
    gpg openssl
    """.split()  # noqa: SIM905
)
# Tools install guides put in those folders (review 20 O2): a file of that name there is
# judged by where it comes from (a temporary folder: shadowing), not by its name.
INSTALLED_TOOLS = frozenset(
    """
    python python3 pip pip3 node npm npx make gcc cc docker kubectl vi vim nvim nano top brew
    java go cargo ruby perl rsync unzip zip gzip nc ncat telnet ftp git git-upload-pack code
    terraform aws gcloud az ansible uv poetry pnpm yarn deno bun helm
    """.split()  # noqa: SIM905
)

_SHADOW_NAMES = SHADOWED_COMMANDS | INSTALLED_TOOLS


def path_shadow_name(path: str) -> str:
    """The command name a file at `path` would shadow when `path` is in a folder on a usual
    PATH (`/usr/local/bin/git` -> "git"), else ""."""
    low = path.lower()
    if "bin/" not in low:
        return ""
    m = _PATH_SHADOW.match(low)
    return m.group(1) if m is not None else ""


@lru_cache(maxsize=4096)  # pure: the same path in the same directories, the same answer
def write_target(
    path: str, cwds: frozenset[str | None] = frozenset([None]), append: bool = False
) -> Target | None:
    """What overwriting, appending to or truncating `path` means, when it is more than a
    plain write: account/boot files (blocked), raw disks (blocked), startup and schedule
    files (persistence, critical), other system files (critical)."""
    if ("$(" in path or "`" in path) and "/" in path:
        # `> "$(python3 -m site --user-site)/x.pth"`: the folder is computed, the file name
        # is not; a site hook's name (`*.pth`, `sitecustomize.py`) is persistence anywhere.
        tail = path.replace("\\", "/").rsplit("/", 1)[-1].strip("\"'")
        low_tail = tail.lower()
        if (
            tail
            and not re.search(r"[$`)(]", tail)
            and (low_tail.endswith(".pth") or low_tail in ("sitecustomize.py", "usercustomize.py"))
        ):
            return Target(
                RiskLevel.CRITICAL, "persistence", f"{tail}, which Python runs at every start"
            )
    if ("$" in path or "`" in path) and path.lstrip("\"'").startswith("/"):
        # `> /boot/vmlinuz-$(uname -r)`: whatever the substitution gives, the file is one of
        # an account or boot folder's (the running kernel's image) (safety-tgt9)
        static = _SUBSTITUTION.sub("x", path.strip("\"'"))
        if "$" not in static and "`" not in static and ".." not in static.split("/"):
            low_static = _norm(static, False).lower()
            if _ACCOUNT_FILES.match(low_static) and not re.match(
                r"^/etc/(sudoers|pam)\.d/.", low_static
            ):
                level = RiskLevel.CRITICAL if append else RiskLevel.BLOCKED
                return Target(level, "system-file", f"the account or boot file {path}")
    if path.startswith(("\\\\", "//")) and _WIN_DEVICE.match(path.strip("\"'")):
        # `\\.\PhysicalDrive0`: normalising would fold the `.` away (safety-tgt9)
        return Target(RiskLevel.BLOCKED, "disk-write", f"the raw disk {path}")
    for cwd in cwd_order(cwds):
        p = _norm(path, False)
        if cwd is not None and not p.startswith(("/", "~")) and not re.match(r"^[a-z]:", p):
            p = _norm(posixpath.join(cwd, p), False)
        low = p.lower()
        if (
            low.startswith("/")
            and any(c in low for c in "*?[")
            and (hit := glob_account_file(low)) is not None
        ):
            # `for f in /etc/*; do : > "$f"; done`, `> /etc/pass*`: the glob reaches an
            # account or boot file (safety-m7).
            level = RiskLevel.CRITICAL if append else RiskLevel.BLOCKED
            return Target(level, "system-file", f"the account or boot file {hit} ({p})")
        if _ACCOUNT_FILES.match(low):
            # Appending (a sudoers line) grants rights; overwriting breaks every login.
            # A drop-in under sudoers.d/ or pam.d/ adds rules the way an append does.
            drop_in = re.match(r"^/etc/(sudoers|pam)\.d/.", low) is not None
            level = RiskLevel.CRITICAL if append or drop_in else RiskLevel.BLOCKED
            return Target(level, "system-file", f"the account or boot file {p}")
        if _DEVICE.match(low) or _WIN_DEVICE.match(low):
            return Target(RiskLevel.BLOCKED, "disk-write", f"the raw disk {p}")
        if not append and ("cert" in low or "bundle" in low) and CA_BUNDLE.match(low):
            # (n17u) `: > /etc/pki/tls/certs/ca-bundle.crt`: the one file IS the trust store
            return Target(RiskLevel.BLOCKED, "cert-store-wipe", f"the machine's CA bundle {p}")
        if _PACKAGE_DB.match(low):
            level = RiskLevel.CRITICAL if append else RiskLevel.BLOCKED
            return Target(level, "system-file", f"the package database {p}")
        if _persists(low):
            return Target(
                RiskLevel.CRITICAL, "persistence", f"{p}, which runs code at login or on a schedule"
            )
        if "apparmor.d/" in low and re.match(r"/etc/apparmor\.d/(?:disable|force-complain)/", low):
            # (h20) a profile's name placed in apparmor.d/disable/ (or force-complain/) by any
            # writer (ln, cp -s, install, a redirect): not enforced from the next load on
            return Target(
                RiskLevel.CRITICAL, "disable-security", f"{p}, which turns an AppArmor profile off"
            )
        if "hooks" in low and _GIT_HOOK.search(low):
            # (f19, red team probe17c F4) a git hook: git runs it on every commit, checkout,
            # merge or push, whatever writes it (cp, mv, install, ln -s, a redirect, curl -o)
            return Target(
                RiskLevel.CRITICAL, "persistence", f"{p}, a git hook that git runs by itself"
            )
        if "windowsapps" in low and (
            "/microsoft/windowsapps/" in low or low.endswith("/microsoft/windowsapps")
        ):
            # (w22, review 21 U3) Git Bash/WSL `cp x.exe "$LOCALAPPDATA/Microsoft/WindowsApps/"`:
            # the app-alias folder is on every Windows user's PATH (`windows_write_target`)
            return Target(
                RiskLevel.CRITICAL,
                "persistence",
                f"{p}, in a folder on PATH (what is put there runs by its name)",
            )
        if (
            "bin/" in low
            and (shadow := _PATH_SHADOW.match(low)) is not None
            and shadow.group(1) in _SHADOW_NAMES
        ):
            # (n20u, red team F17) a file named like a common command in a PATH folder
            # runs instead of it (`/usr/local/bin/sudo`, `~/.local/bin/ls`), as an alias
            # hiding the command does
            return Target(
                # (review 20 O2) an installed tool's name is how install guides put the
                # real tool there: moderate, its body judged when it is written here
                RiskLevel.CRITICAL if shadow.group(1) in SHADOWED_COMMANDS else RiskLevel.MODERATE,
                "persistence",
                f"{p}, which runs instead of `{shadow.group(1)}` (a folder on PATH)",
            )
        if low == "/proc/sysrq-trigger":
            # A magic SysRq key (`echo b|o|c > …`): reboot, power-off or crash at once, the
            # shutdown class (dangerous, session-13 convention); enabling the keys
            # (/proc/sys/kernel/sysrq) stays a system setting (n11u).
            return Target(
                RiskLevel.DANGEROUS,
                "shutdown",
                f"the kernel's SysRq trigger {p} (it can reboot, power off or crash the machine)",
            )
        if (
            low.startswith("/proc/sys/")
            and not _KERNEL_KNOB_CRITICAL.match(low[10:])
            and "/.." not in low
        ):
            # a kernel setting written by its /proc/sys file is what `sysctl -w key=value`
            # does: moderate (`echo 1 > /proc/sys/kernel/sysrq`, the Magic SysRq switch,
            # session-13 convention; `… > vm/drop_caches`), except protections and the
            # programs the kernel runs (review 11, finding 21)
            return Target(RiskLevel.MODERATE, "system-config", f"the kernel setting {p}")
        if re.match(
            r"^/(etc|boot|sys)/|^/proc/sys(?:/|$)|^/(s?bin|usr/s?bin|lib|lib64|usr/lib)/", low
        ) and not _ETC_SCRATCH.match(low):
            return Target(RiskLevel.CRITICAL, "system-file", f"the system file {p}")
        if not append and (_LOGIN_LOG.match(low) or LOG_GLOB.match(low)):
            return Target(RiskLevel.CRITICAL, "log-wipe", f"the system log {p}")
        if not append and _HISTORY_FILE.search(low):
            return Target(RiskLevel.DANGEROUS, "history-wipe", f"the command history {p}")
    return None


# Folders that hold the system's logs and journals (their contents deleted or emptied is
# log clearing: critical), their journal/audit subfolders, and globs over the log files
# directly in them (`/var/log/*.log`, `winevt\Logs\*.evtx`).
LOG_DIR = re.compile(
    r"^(?:/private)?/var/(?:log|adm)(?:/[^/*?]+)?$"
    # (a log folder's own subfolder too, as /var/log/nginx: C:\Windows\Logs\CBS)
    r"|^c:/windows/(?:logs(?:/[^/*?]+)?|system32/winevt/logs|system32/logfiles(?:/[^/*?]+)?"
    r"|debug|prefetch)$"
    r"|^c:/inetpub/logs$"
    r"|^/library/logs$"
    r"|^(?:~|(?:c:)?/users/[^/]+)/library/logs$"  # a macOS user's logs (sig7)
)
LOG_SUBDIR = re.compile(r"^(?:/private)?/var/log/(?:journal|audit)(?:/[^/*?]+)?$")


def is_log_dir(text: str) -> bool:
    """Whether `text` names a system log folder whole (`/var/log`, `/var/log/nginx/`)."""
    low = text.replace("\\", "/").rstrip("/").lower()
    low = low.removesuffix("/**").removesuffix("/*")
    return bool(LOG_DIR.match(low) or LOG_SUBDIR.match(low))


LOG_GLOB = re.compile(
    r"^(?:(?:/private)?/var/(?:log|adm)(?:/[^/*?]+)?"
    r"|c:/windows/(?:logs|system32/winevt/logs|system32/logfiles|prefetch)"
    r"|(?:~|(?:c:)?/users/[^/]+)?/library/logs)/[^/]*[*?][^/]*$"
)


# The login records and system logs an investigation reads: emptying, overwriting or
# deleting them erases the trail (anti-forensics, like clearing the event log): critical.
_LOGIN_LOG = re.compile(
    r"^/var/(?:log|run|adm)/(?:wtmp|btmp|utmp|lastlog|faillog|secure|auth\.log|syslog|messages"
    r"|cron|kern\.log|audit/audit\.log|system\.log|sulog|sudo\.log)(?:\.\d+)?$"
    # More logs an investigation reads (safety-art6): system, security, login and audit logs
    # by name anywhere below /var/log (rotated copies too), the journal and audit folders,
    # mail spools, macOS log folders. (An application's own log, a web server's access log:
    # an ordinary delete, dangerous.)
    r"|^(?:/private)?/var/(?:log|adm)/(?:(?:audit|journal|sa|sssd|ufw|fail2ban|asl"
    r"|diagnosticmessages)(?:/.*)?|(?:[^/]+/)*(?:wtmp|btmp|utmp|lastlog|faillog|tallylog"
    r"|secure|auth|authlog|syslog|messages|kern|daemon|maillog|boot|cron|dpkg|install|audit"
    r"|sulog|sudo|security|system|ufw|firewall|fail2ban)\b[^/]*)$"
    r"|^(?:/private)?/var/audit/.+|^/var/(?:spool/)?mail/[^/]+$|^/library/logs/.+"
    r"|^[a-z]:/windows/(?:system32/winevt/logs|system32/logfiles|logs)/.+"
)


# Shell and REPL history files: overwriting or emptying one erases the record of what ran.
_HISTORY_FILE = re.compile(
    r"(?:^|/)\.(?:bash|zsh|sh|ash|ksh|mksh|python|mysql|psql|sqlite|node_repl|rediscli|irb)"
    r"_history$|(?:^|/)\.histfile$|/fish/fish_history$|/consolehost_history\.txt$"
    r"|^\$\{?histfile\}?$"  # `> $HISTFILE`: whatever file the shell keeps history in
)


# (r17) a staging or backup copy of a configuration file (`/etc/hosts.new`, `.tmp`, `.bak`,
# `.old`, `.orig`, `.dpkg-old`, `.rpmnew`, `~`): nothing reads it, so writing or moving it is
# an ordinary write, not the system file whose name it starts with. (Persistence, account
# and drop-in folders are judged before this.)
_ETC_SCRATCH = re.compile(
    r"^/etc/(?:[^/]+/)*[^/]+(?:\.(?:new|tmp|temp|bak|old|orig|save|swp|dpkg-[a-z]+|rpmnew"
    r"|rpmsave|ucf-[a-z]+)|~)$"
)
# Single files whose deletion or overwrite breaks logins, boot or privilege separation.
_CORE_FILES = re.compile(
    r"^/(etc/(passwd|shadow|group|gshadow|sudoers|fstab|hosts|pam\.d/\S+|ssh/sshd_config"
    # the dynamic loader's configuration and preload list, the kernel's module and sysctl
    # settings, the resolver and NSS (safety-m7)
    r"|ld\.so\.(preload|conf|cache)|ld\.so\.conf\.d/[^/]+|modprobe\.d/[^/]+|sysctl\.conf"
    r"|sysctl\.d/[^/]+|nsswitch\.conf|security/[^/]+|login\.defs|shells|crypttab)"
    r"|boot/\S+|s?bin/[^/]+|usr/s?bin/[^/]+|lib(64)?/[^/]+"
    # (b12) one named library of the system's multiarch folder (`/usr/lib/x86_64-linux-gnu/
    # libz.so.1`), as one of /lib's own
    r"|(usr/)?lib(32|64)?/[a-z0-9_]+-linux-gnu\w*/[^/]+)$"
)
# The operating system's own configuration by name (safety-m8): name resolution, the host's
# identity, the login environment, package sources, network, services, security modules,
# audit and logging, certificates. Deleting one (or a glob of them) breaks the system or
# hides a trail: critical (session-7 convention); an application's folder (`/etc/nginx`)
# stays an ordinary delete. Only deletion reads this (a chmod or chattr there is a change).
OS_CONFIG = re.compile(
    r"^(?:/private)?/etc/(?:resolv\.conf|hosts\.(?:allow|deny)|hostname|environment|profile"
    r"|bash\.bashrc|bashrc|zsh/?zshrc|zshenv|machine-id|os-release|locale\.conf|localtime"
    r"|timezone|mtab|inittab|rc\.local|subuid|subgid|securetty|sudo\.conf|doas\.conf|ntp\.conf"
    r"|chrony\.conf|rsyslog\.conf|syslog\.conf|nftables\.conf|yum\.conf|pacman\.conf|paths"
    r"|ca-certificates\.conf|(?:ssh|ssl|pki|apt|yum\.repos\.d|dnf|pacman\.d|zypp|apk|netplan"
    r"|network|networkmanager|systemd|udev|selinux|apparmor|apparmor\.d|audit|default"
    r"|sysconfig|rsyslog\.d|syslog-ng|modules-load\.d|iptables|firewalld|ufw|polkit-1|dbus-1"
    r"|init|init\.d|profile\.d|ld\.so\.conf\.d|update-motd\.d|logrotate\.d|ca-certificates"
    r"|grub\.d|dracut\.conf\.d|initramfs-tools|kernel|paths\.d)/\S+)$"
    r"|^/library/preferences/systemconfiguration/\S+$",
    re.I,
)

_WIN_DRIVE = re.compile(r"^[a-z]:$")
# macOS's other names for the system's folders: the Data volume's root (every firmlinked
# folder: Users, Library, Applications, private, usr/local, opt) and /private's etc/var/tmp.
_MAC_VOLUME = re.compile(
    r"(?i)volumes/(?:macintosh hd(?: - data)?|[^/]+ - data)(?:/(?P<rest>.*))?$"
    r"|volumes/[^/]+/(?P<rest2>(?:system|library|private|usr|s?bin)(?:/.*)?)$"
)
_FIRMLINK = re.compile(r"(?i)system/volumes/data(?=/|$)|private(?=/(?:etc|var|tmp)(?:/|$))")
# (n10u) A package manager's database of what is installed (dpkg, rpm, pacman, apk, the BSDs'
# pkg): deleted or one of its files truncated, the system can no longer be updated, repaired
# or even told what it holds. Lock files and rpm's `__db.*` environment files (removed to
# unstick a crashed run) are not the database.
_PACKAGE_DB = re.compile(
    r"^/(?:var/lib/dpkg(?:/(?:status|available|info|updates|triggers)(?:/[^/]+)?)?"
    r"|(?:var/lib|usr/lib/sysimage)/rpm(?:/(?!__db|\.)(?![^/]*lock$)[^/]+)?"
    r"|var/lib/pacman(?:/local(?:/\S*)?)?|(?:lib|var/lib)/apk(?:/db(?:/[^/]+)?)?"
    r"|var/db/pkg(?:/[^/]+)?|var/lib/dnf|var/lib/yum(?:/(?:history|yumdb)(?:/\S*)?)?)$",
    re.I,
)
# one kernel version's modules (`/lib/modules/6.8.0-45-generic`) (safety-tgt9). Not a
# first-level entry of the firmware folder: that is one vendor's blobs or one file
# (`/lib/firmware/old-blob.bin`), named things (review 9).
_KERNEL_MODULES = re.compile(
    r"^/(?:usr/)?lib/modules/[^/]+(?:/(?:kernel|vmlinuz|modules\.dep(?:\.bin)?|modules\.order))?$"
)
# (n17u) The distributions' single-file CA bundles (Debian/Ubuntu, RHEL/Fedora, openSUSE,
# Alpine/macOS/BSD, FreeBSD): each is the whole trust store TLS clients read.
CA_BUNDLE = re.compile(
    r"^/(?:etc/ssl/certs/ca-certificates\.crt|etc/pki/tls/certs/ca-bundle(?:\.trust)?\.crt"
    r"|etc/pki/tls/cert\.pem|etc/pki/ca-trust/extracted/(?:pem/tls-ca-bundle\.pem"
    r"|openssl/ca-bundle\.trust\.crt|java/cacerts)|etc/ssl/cert\.pem|etc/ssl/ca-bundle\.pem"
    r"|usr/local/share/certs/ca-root-nss\.crt|usr/local/etc/ssl/cert\.pem"
    r"|etc/ca-certificates/extracted/tls-ca-bundle\.pem|var/lib/ca-certificates/ca-bundle\.pem"
    r"|etc/ssl/certs/java/cacerts)$"
)
# (n17u) One kernel version's folder named by its number (`5.15.0-91-generic`, `6.9.1-arch1-1`),
# or its `kernel` subfolder: no glob, no substitution.
_OLDER_KERNEL = re.compile(r"^/(?:usr/)?lib/modules/\d+\.\d+[\w.+~-]*(?:/kernel)?$")
# macOS's sealed system volume: every first-level folder of /System/Library (Extensions,
# Frameworks, PrivateFrameworks, LaunchDaemons, Kernels …) is the operating system itself,
# as /System/Library is (b12).
_MAC_SYSTEM_SUBDIR = re.compile(r"^/system/library/[^/*?\[]+$")
_HOME_DIR = re.compile(r"^/(home|users)/[^/]+$|^c:/users/[^/]+$")
# Named folders of system state whose loss is not scoped (b12; the committed corpora block
# `rm -rf /etc/kubernetes /var/lib/etcd`, package databases, kernel modules and boot):
# - a cluster's control-plane store and its configuration, which every node agrees on
#   (etcd, Kubernetes' and k3s/RKE2/k0s's state and PKI, Ceph's monitors, Proxmox's cluster
#   file system, corosync, Consul/Nomad's raft data in their packaged folders);
# - the system's own shared libraries (the multiarch library folder), its Python (the
#   package manager's interpreter), its init system and init scripts, PAM's modules and
#   configuration, the certificate store and SELinux policy;
# - package stores and databases beyond `_PACKAGE_DB` (Nix's database, Guix's store, snapd);
# - account databases of a directory or realm (LDAP, Kerberos KDC, Samba AD's private
#   store: the counterpart of Windows' NTDS folder);
# - every virtual machine's disks on a host (libvirt's images, Proxmox's local storage: the
#   counterpart of an ESXi datastore);
# - macOS's boot volumes, package receipts, boot loader folder and Apple's extensions.
# An application's folder (`/etc/nginx`, `/opt/myapp`, `/var/lib/docker`) or one
# database's data folder stays an ordinary (dangerous) delete, as the corpora label it.
# The part of `SYSTEM_STATE` that every program or login needs: moved away, it is gone too.
SYSTEM_CORE = re.compile(
    r"^/(?:(?:usr/)?lib(?:32|64)?/(?:systemd|[a-z0-9_]+-linux-gnu\w*)"
    r"|(?:usr/)?lib(?:64)?/python3(?:\.\d+)?"
    r"|(?:usr/)?lib(?:64)?(?:/[a-z0-9_]+-linux-gnu)?/security|etc/security)$"
)
SYSTEM_STATE = re.compile(
    r"^/(?:var/lib/etcd(?:/member)?|etc/etcd|etc/kubernetes(?:/pki|/manifests)?"
    r"|var/lib/(?:rancher(?:/k3s|/rke2)?|k0s)|etc/rancher(?:/k3s|/rke2)?"
    r"|var/lib/ceph(?:/mon)?|etc/ceph|etc/pve|var/lib/pve-cluster|etc/corosync"
    r"|var/lib/corosync|(?:var/lib|opt)/(?:consul|nomad)(?:/(?:data|raft|server))?"
    r"|(?:usr/)?lib(?:32|64)?/(?:systemd|[a-z0-9_]+-linux-gnu\w*)"
    r"|(?:usr/)?lib(?:64)?/python3(?:\.\d+)?"
    r"|(?:usr/)?lib(?:64)?(?:/[a-z0-9_]+-linux-gnu)?/security"
    r"|etc/(?:security|selinux|pki|rc\.d|init)"
    # the service manager's unit folders, the CA trust store and the security modules'
    # policy folders: every service, TLS connection or confinement depends on them (n13u)
    r"|etc/systemd(?:/system)?|(?:usr/)?lib/systemd/(?:system|user)|etc/init\.d"
    r"|etc/(?:ssl(?:/certs|/private)?|ca-certificates(?:/trust-source)?"
    r"|pki/(?:ca-trust|tls|nssdb|java|rpm-gpg)(?:/(?:extracted|source|certs|private|anchors"
    r"|pem|openssl|java)){0,2})|var/lib/ca-certificates"
    # the distros' twins of one folder: RHEL's rc.d/init.d and rcN.d runlevels (r15)
    r"|etc/rc\.d/(?:init\.d|rc[0-6s]\.d)|etc/rc[0-6s]\.d"
    r"|usr/share/ca-certificates|etc/apparmor(?:\.d)?|etc/selinux/(?:targeted|mls|minimum)"
    # device, network and boot-image configuration trees: without them the machine boots
    # without devices' rules, without its network, or cannot rebuild its initramfs (n13u)
    r"|etc/(?:udev|netplan|network|NetworkManager|networkmanager|sysconfig|grub\.d"
    r"|initramfs-tools|dracut\.conf\.d|dbus-1)"
    r"|nix/var/nix/db|gnu/store|var/guix/db|var/lib/snapd"
    r"|var/lib/(?:ldap|openldap|krb5kdc|samba(?:/private)?)|var/kerberos/krb5kdc"
    r"|var/lib/libvirt/images|var/lib/vz(?:/images)?"
    # macOS: the boot volumes (Preboot, Recovery, Update), the installer's package receipts
    # (its package database), the boot loader's folder and Apple's own system extensions
    r"|system/volumes/(?:preboot|recovery|update|iscpreboot|xarts|hardware)"
    r"|(?:private/)?var/db/receipts|usr/standalone|library/apple)$"
)
_STATE_WORDS = ("lib", "etc", "opt", "ystem", "var", "usr", "nix", "gnu")


def system_state(path: str, cwds: frozenset[str | None]) -> str | None:
    """The named system-state folder (`SYSTEM_STATE`) a delete target is, or whose contents
    it is (`/var/lib/etcd/*`), as written or joined with a directory a `cd` set; None for
    anything else. Any deleting tool reads it (rm, find, Remove-Item, rsync --delete, an
    interpreter's rmtree)."""
    low = path.lower()
    absolute = low[:1] in ("/", "~", "$", "%") or ":" in low[:3]
    if not any(k in low for k in _STATE_WORDS) and (
        absolute
        or not any(c is not None and any(k in c.lower() for k in _STATE_WORDS) for c in cwds)
    ):
        return None  # (a cheap exit: every such folder's path holds one of these)
    low = low.strip("\"'").replace("\\", "/")
    seen = [low]
    if not absolute:
        seen += [
            posixpath.join(c.replace("\\", "/").lower(), low)
            for c in cwds
            if c is not None and "$" not in c
        ]
    for p in seen:
        p = posixpath.normpath(p) if p.startswith("/") else p
        while p.endswith(("/*", "/.", "/.*")):
            p = p.rsplit("/", 1)[0]
        if SYSTEM_STATE.match(p):
            return p
    return None


# Block devices by kernel name (a glob character where the number or letter goes still
# names disks: `/dev/sd?`), by the udev links (`/dev/disk/by-id/…`), and LVM volumes
# (`/dev/VG/LV`: any two-level name outside the folders of character devices).
_GLOB_OR = r"[?*\[]"
_DEVICE = re.compile(
    rf"^/dev/((s|h|v|xv)d([a-z]|{_GLOB_OR})|(nvme|mmcblk|r?disk|md|dm-|loop|nbd|rbd|zd|bcache"
    rf"|drbd|ram|pmem|sg|n?st|mtd(block)?|ubi|sr)(\d|{_GLOB_OR})|fd\d|md/|mapper/|disk/|block/"
    # (safety-tgt9) the BSDs' disk names (FreeBSD ada/da/nvd/nda/vtbd/mfid, OpenBSD and
    # NetBSD sd/wd/ld and their raw `r` twins, ZFS volumes, GEOM mirrors and labels)
    rf"|r?(ada|ad|da|nvd|nda|vtbd|mfid|mfisyspd|aacd|ipsd|amrd|idad|twed|xbd|wd|sd|ld|vnd|cgd"
    rf"|raid|ccd)(\d|{_GLOB_OR})|nvme\d|mirror/|gpt/|gptid/|diskid/|label/|ufs/|ufsid/"
    r"|zvol/|mem$|kmem$|port$|root$|\*$"  # (`/dev/*`: every device, the disks among them)
    r"|(?!(pts|shm|fd|input|snd|dri|bus|net|char|cpu|hugepages|mqueue|vfio|serial|v4l|usb"
    r"|dma_heap|bsg|hidraw|tty|vc|cuse|fuse|log)(/|$))[\w.-]+/[\w.-]+$)"
    # ESXi's raw disks (`/vmfs/devices/disks/naa.…`, `mpx.vmhba0:C0:T0:L0`), safety-m7
    r"|^/vmfs/devices/disks/[^/\s]+$"
)
# Raw Windows disks and volumes: `\\.\PhysicalDrive0`, `\\.\C:`, `\\?\Volume{…}`,
# `\\.\Harddisk0Partition1`.
_WIN_DEVICE = re.compile(
    r"^(//[.?]/|\\\\[.?]\\)(physicaldrive\d|[a-z]:$|volume\{|harddisk\d"
    r"|globalroot[\\/]device[\\/]harddisk\d+[\\/]partition\d)",
    re.I,
)
# (safety-tgt9) A disk named the way partition and disk tools name it, without /dev: macOS's
# `disk2`/`disk0s2`, the BSDs' `ada0`/`da1`/`nvd0`/`nda0`/`vtbd0`/`mfid0`/`sd0`/`wd0d`,
# Linux's `sdb`/`nvme0n1`/`mmcblk0`. Only a program told to destroy it reads a bare name so.
_BARE_DISK = re.compile(
    r"(?i)\A(?:r?disk\d+(?:s\d+)*|r?(?:ada|ad|da|nvd|nda|vtbd|mfid|mfisyspd|aacd|ipsd|amrd|idad"
    r"|twed|xbd|wd|sd|ld|vnd)\d+(?:[ps]\d+)*[a-p]?|[shv]d[a-z]\d{0,2}|xvd[a-z]\d{0,2}"
    r"|nvme\d+(?:n\d+(?:p\d+)?)?|mmcblk\d+(?:p\d+)?|physicaldrive\d+)\Z"
)


def bare_disk(text: str) -> bool:
    """`ada0`, `disk2s1`, `nvme0n1`, `sdb`: a disk's kernel name without /dev."""
    return len(text) <= 24 and _BARE_DISK.match(text) is not None


_CWD_WIDE = frozenset(
    {".", "./", "*", "./*", ".*", "./.*", "..", "../", "../*", "*.*", ".[!.]*", ".[^.]*", ".??*"}
)
# Globs for every hidden entry of a folder but `.` and `..` (bash's `.*` spelled so that
# it skips them): the folder's dot-files and dot-folders, `.ssh` and `.gnupg` among them.
_EVERY_HIDDEN = re.compile(r"(?:^|(?<=/))\.(?:\[[!^]\.\]\*|\?\?\*)$")
CWD_WIDE = _CWD_WIDE  # (the spellings of "every entry of the working directory")

HOME = "~"
# A command substitution, a variable or backticks inside a path (`/boot/vmlinuz-$(uname -r)`)
SUBSTITUTION = re.compile(r"\$\([^()]*\)|\$\{[^{}]*\}|\$\w+|`[^`]*`")
_SUBSTITUTION = SUBSTITUTION
_ADMIN_SHARE = re.compile(r"^//[^/]+/(?:(?P<drive>[a-z])\$|admin\$)(?P<rest>/.*)?$")


@attrs.frozen(slots=True)
class Target:
    """How bad it is to wipe a path: `level` for a recursive wipe, and a description."""

    level: RiskLevel
    rule: str
    what: str


def _norm(path: str, windows: bool) -> str:
    p = path.strip()
    if p.startswith("/mnt/") and _WSL_DRIVE.match(p):
        # WSL: `/mnt/c/Windows` is `C:\Windows` (the Windows drives, mounted).
        p = p[5] + ":" + (p[6:] or "/")
    elif (m := _POSIX_DRIVE.match(p)) is not None:
        # Git Bash / MSYS2 (`/c/Users/bob`) and Cygwin (`/cygdrive/c/Windows`) spell the
        # Windows drives as folders; a bare `/Windows/System32` is the same folder to a
        # tool that takes the current drive.
        drive = m.group("drive") or m.group("d2") or "c"
        p = drive + ":" + (m.group("rest") or m.group("r2") or m.group("r3") or "/")
    if windows or "\\" in p or re.match(r"^[A-Za-z]:", p):
        p = p.replace("\\", "/").lower()
    if p.startswith("//") and "$" in p:
        # (safety-tgt9) a host's administrative shares: `\\host\C$\…` is that host's C:,
        # `\\host\ADMIN$\…` its Windows folder (what a wiper spreads through).
        m = _ADMIN_SHARE.match(p.lower())
        if m is not None:
            rest = m.group("rest") or ""
            p = (m.group("drive") + ":" if m.group("drive") else "c:/windows") + rest
            p = p if p not in ("c:", "") else "c:/"
    if p.startswith(("//./", "//?/")) and (m := _WIN_DEVICE_DRIVE.match(p)) is not None:
        # `\\.\C:\Users` (the device namespace, ps9): that drive's own path
        p = m.group("drive") + ":" + (m.group("rest") or "/")
    if "sysnative" in p:
        # (n13w) `C:\Windows\Sysnative` is System32 seen from a 32-bit process
        p = re.sub(r"\A([a-z]:/windows/)sysnative(?=/|\Z)", r"\1system32", p)
    if p in ("~", "~/"):
        return HOME
    if p.startswith("~"):
        head, _, rest = p.partition("/")
        if "//" in rest or rest.endswith("/"):
            rest = re.sub(r"/{2,}", "/", rest).rstrip("/")  # `~//`, `~/.//` (safety-tgt9)
            if head == "~" and rest in ("", "."):
                return HOME
        if head == "~" and ".." in rest.split("/"):
            # `~/../..`: collapse against a stand-in home, then say it again relative to ~.
            full = posixpath.normpath("/home/user/" + rest)
            if full == "/home/user" or full.startswith("/home/user/"):
                return HOME + full[len("/home/user") :]
            return full
        if head == "~":
            return HOME + ("/" + rest if rest else "")
        # `~user/../..`: another user's home, normalised like any absolute path below.
        p = "/home/" + head[1:] + ("/" + rest if rest else "")
    if "/.." in p and not p.startswith("/") and not re.match(r"^[a-z]:", p):
        p = posixpath.normpath(p)  # `build/../..` is `..`
    if p.startswith("/") and "/proc/" in posixpath.normpath("/" + p.lstrip("/")) + "/":
        # `/proc/self/root/etc` is `/etc` (a process's view of the root directory).
        p = (
            re.sub(
                r"^/proc/(self|thread-self|\d+)/root(?=/|$)",
                "",
                posixpath.normpath("/" + p.lstrip("/")),
            )
            or "/"
        )
    if p.startswith("/") or re.match(r"^[a-z]:", p):
        drive = p[:2] if re.match(r"^[a-z]:", p) else ""
        body = p[2:] if drive else p
        if not body.startswith("/"):
            body = "/" + body
        body = posixpath.normpath(body).lstrip("/") if body != "/" else ""
        body = re.sub(r"/{2,}", "/", body)
        if not drive and body[:1] in "vV" and (m := _MAC_VOLUME.match(body)) is not None:
            # (b12) macOS: `/Volumes/Macintosh HD` is the boot volume mounted again (the
            # root), `/Volumes/Macintosh HD - Data` its Data volume (firmlinked to the root),
            # and another volume's System, Library or private folder is a macOS install's
            body = m.group("rest") or m.group("rest2") or ""
        if not drive and body[:1] in "sSpP" and (m := _FIRMLINK.match(body)) is not None:
            # macOS: `/System/Volumes/Data/Users` is `/Users` (the Data volume's firmlinks),
            # `/private/etc` is `/etc` (the real path of the /etc, /var, /tmp links): the
            # same folders under another name (round 9).
            body = body[m.end() :].lstrip("/")
        return (drive + "/" + body).rstrip("/") if drive else "/" + body
    return p


# The program and platform folders of antivirus / EDR products: deleting them removes the
# machine's protection (Defender's Platform folder, CrowdStrike, Sophos, Symantec …).
_DATASTORE = re.compile(r"/vmfs/volumes(?:/[^/]+)?/?")
_SECURITY_DIR = re.compile(
    r"[a-z]:/(?:programdata|program files(?: \(x86\))?)/(?:microsoft/)?"
    r"(?:windows defender(?: advanced threat protection)?(?:/platform)?|crowdstrike|sophos"
    r"|symantec(?: endpoint protection)?|mcafee|eset|kaspersky lab|malwarebytes"
    r"|sentinelone|carbon black|trend micro)/?"
    r"|[a-z]:/windows/system32/drivers/(?:crowdstrike|wd)/?"
)
_SYSTEM_LIB_GLOB = re.compile(r"/(?:usr/)?(?:lib|lib32|lib64|libexec|bin|sbin)/[^/]*[*?\[][^/]*/?")


def classify_path(
    path: str, cwds: frozenset[str | None], windows: bool = False, start: str | None = None
) -> Target:
    """Classify a path operand of a delete/overwrite. Relative paths resolve against `cwds`
    (None = the directory the user started in, unknown to us); `start` is the block's own
    working directory when the caller knows it."""
    worst = Target(RiskLevel.DANGEROUS, "scoped", path)
    for cwd in cwd_order(cwds):
        t = _classify_one(path, cwd, windows, start)
        if t.level > worst.level:
            worst = t
    return worst


# The last part of a path as an excluding glob: zsh's `^X`, `(^X)`, `*~X` (extendedglob,
# qualifiers such as `(D)` allowed) and bash's `!(X)` (extglob) match every entry but X
# (n13u, round 13).
_EXCLUDING_GLOB = re.compile(
    r"/(?:\^[^/]+|\(\^[^/]*\)(?:\([^/)]*\))?|\(?\*\)?(?:\([^/)]*\))?~[^/]+|!\([^/]*\))\Z"
)


def _every_but_one(p: str) -> str:
    """`~/^keep`, `~/*~keep`, `/!(home)` -> `~/*`, `/*`: an excluding last part of an
    absolute or home path is every entry of its folder but a few (n13u). In the working
    directory it stays a named subset (dangerous, r12 review)."""
    m = _EXCLUDING_GLOB.search(p)
    return p[: m.start()] + "/*" if m is not None else p


@lru_cache(maxsize=4096)
def _classify_one(path: str, cwd: str | None, windows: bool, start: str | None = None) -> Target:
    if not path.strip():
        return Target(RiskLevel.DANGEROUS, "scoped", path)  # `rm -rf ""` names no file
    p = _norm(path, windows)
    if "**" in p:
        p = _globstar_tail(p)
    if ("^" in p or "~" in p or "!(" in p) and p.startswith(("/", HOME)):
        p = _every_but_one(p)
    if p.endswith("*") and _EVERY_HIDDEN.search(p):
        p = _EVERY_HIDDEN.sub(".*", p)  # (`~/.[!.]*` is every hidden entry, as `~/.*`)
    relative = not (p.startswith("/") or p.startswith(HOME) or re.match(r"^[a-z]:", p))
    if relative:
        stripped = p.rstrip("/")
        if (
            p in _CWD_WIDE
            or stripped in ("", ".", "..")
            or re.fullmatch(r"(\.\./)+\.\.?", p)
            or re.fullmatch(r"(\./)+\.?/*", p)  # `./.`, `././`: the directory itself
        ):
            # Policy: the whole working directory is blocked in any spelling, wherever it is.
            wide = Target(RiskLevel.BLOCKED, "rm-cwd", "everything in the current directory")
            if cwd is None:
                return wide
            resolved = _classify_one(posixpath.join(cwd, p), None, windows)
            # After `cd build &&` the working directory is build: wiping every entry of it
            # is still the policy's cwd-wide wipe (blocked); a worse resolution (`cd /`)
            # names what is wiped.
            return resolved if resolved.level >= RiskLevel.BLOCKED else wide
        if cwd is None:
            if re.fullmatch(r"(\.\./)+\*?", p):
                return Target(RiskLevel.BLOCKED, "rm-cwd", "everything in a parent directory")
            return Target(RiskLevel.DANGEROUS, "scoped", path)
        p = (
            _norm(posixpath.join(cwd, p), windows)
            if p not in _CWD_WIDE
            else _norm(
                posixpath.normpath(posixpath.join(cwd, p.replace("*", "").rstrip("/") or ".")),
                windows,
            )
            + ("/*" if "*" in p else "")
        )
        if p.startswith(".") or not (p.startswith("/") or p.startswith(HOME) or ":" in p):
            return Target(RiskLevel.DANGEROUS, "scoped", path)
        if "^" in p or "~" in p or "!(" in p:
            p = _every_but_one(p)  # `cd ~ && rm -rf ^keep`: resolved against the cwd
    contents = False
    while p.endswith(("/*", "/.*", "/.", "/*.*")):
        p = p.rsplit("/", 1)[0] or "/"
        contents = True
    if p == "" or p == "/" or _WIN_DRIVE.match(p) or p in ("/*", "c:/*"):
        return Target(RiskLevel.BLOCKED, "rm-root", "the whole filesystem")
    if p == HOME or p == HOME + "/*":
        return Target(RiskLevel.BLOCKED, "rm-home", "your home directory")
    low = p.lower()
    if _ACCOUNT_FILES.match(low):
        return Target(RiskLevel.BLOCKED, "rm-system-file", f"the account or boot file {p}")
    if low[:1] == "/" and any(c in low for c in "*?[") and (core := glob_core_file(low)):
        return Target(
            RiskLevel.BLOCKED, "rm-system-file", f"the core runtime file {core} (matched by {p})"
        )
    if _PACKAGE_DB.match(low):
        return Target(RiskLevel.BLOCKED, "rm-system-file", f"the package database {p}")
    if ("cert" in low or "bundle" in low) and CA_BUNDLE.match(low):
        # (n17u) the distribution's single-file CA bundle: the whole trust store in one file
        return Target(RiskLevel.BLOCKED, "cert-store-wipe", f"the machine's CA bundle {p}")
    if low[:1] != "/" and (_WIN_CORE_FILES.match(low) or _core_by_pattern(low)):
        return Target(
            RiskLevel.BLOCKED,
            "rm-system-file",
            f"the core Windows component {p} (no program starts or Windows does not boot"
            " without it)",
        )
    if contents and low in ("/tmp", "/var/tmp"):
        return Target(RiskLevel.DANGEROUS, "scoped", path)
    if (contents and LOG_DIR.match(low)) or LOG_SUBDIR.match(low) or LOG_GLOB.match(low):
        # `rm -rf /var/log/*`, `/var/log/journal`, `del C:\Windows\Logs\*`, `*.evtx`: the
        # system's logs emptied (anti-forensics, session-8 convention): critical. The log
        # folder itself stays a system folder.
        return Target(RiskLevel.CRITICAL, "log-wipe", f"the system logs in {p}")
    if _KERNEL_MODULES.match(low) and _OLDER_KERNEL.match(low):
        # (n17u) `/lib/modules/5.15.0-91-generic`: ONE kernel version named by its number
        # (an older kernel's modules cleaned up) is scoped, session 17; the whole tree, a
        # glob over it, and the running kernel's (`$(uname -r)`) stay blocked
        return Target(RiskLevel.DANGEROUS, "scoped", f"the modules of the kernel {p}")
    if (
        low in _SYSTEM_DIRS
        or _HOME_DIR.match(low)
        or _KERNEL_MODULES.match(low)
        or (low.startswith("c:/windows/") and not low.startswith("c:/windows/temp"))
        or _MAC_SYSTEM_SUBDIR.match(low)
    ):
        what = "a home directory" if _HOME_DIR.match(low) else f"the system directory {p}"
        return Target(
            RiskLevel.BLOCKED, "rm-system", ("the contents of " if contents else "") + what
        )
    # A glob in the first component (`/u*`, `/*/`) can reach system directories.
    first = p.lstrip("/").split("/", 1)[0]
    if windows and low.startswith("c:/") and "/" not in low[3:] and any(c in low for c in "*?["):
        # `C:\Win*`, `C:\Program Files*`, `C:\U?ers`: a glob at the top of the system drive
        # that matches one of its system folders takes that folder with it.
        hit = next((d for d in _WIN_TOP_DIRS if fnmatch.fnmatchcase(d, low[3:])), None)
        if hit is not None:
            return Target(RiskLevel.BLOCKED, "rm-system", f"C:\\{hit} (matched by {p})")
    if p.startswith("/") and any(c in first for c in "*?["):
        return Target(RiskLevel.BLOCKED, "rm-root", "top-level directories matched by a glob")
    if _ACCOUNT_FILES.match(low):
        return Target(RiskLevel.BLOCKED, "rm-system-file", f"the account or boot file {p}")
    if re.match(r"^[a-z]:/system volume information(?:/|$)", low):
        # the shadow-copy store (its `{3808876b-…}` files are the restore points) (m8)
        return Target(RiskLevel.BLOCKED, "delete-backups", f"the shadow-copy store {p}")
    if _DATASTORE.fullmatch(low):
        # ESXi keeps every virtual machine of a datastore under /vmfs/volumes/<ds>/: its
        # contents (or the datastore itself) deleted are all of them (safety-m7).
        return Target(RiskLevel.BLOCKED, "rm-system", f"the ESXi datastore {p}")
    if _SECURITY_DIR.fullmatch(low):
        return Target(RiskLevel.BLOCKED, "rm-security", f"the files of a security product ({p})")
    if _SYSTEM_LIB_GLOB.fullmatch(low):
        # `/usr/lib/python3*`, `/usr/bin/py*`: a glob over the entries of a program or
        # library directory takes the system's own interpreters and libraries with it.
        return Target(
            RiskLevel.BLOCKED, "rm-system", f"system programs or libraries matched by {p}"
        )
    if _CORE_FILES.match(low):
        return Target(RiskLevel.CRITICAL, "rm-system-file", f"the core system file {p}")
    if _LOGIN_LOG.match(low):
        return Target(RiskLevel.CRITICAL, "log-wipe", f"the system log {p}")
    return Target(RiskLevel.DANGEROUS, "scoped", path)


_WSL_DRIVE = re.compile(r"/mnt/[a-zA-Z](?:/|$)")
_WIN_DEVICE_DRIVE = re.compile(r"\A//[.?]/(?P<drive>[a-z]):(?P<rest>/.*)?\Z")
_WIN_TOP_DIRS = (
    "windows",
    "users",
    "program files",
    "program files (x86)",
    "programdata",
    "boot",
    "recovery",
    "system volume information",
)
# `/cygdrive/c…` always names a drive; `/c/…` and a drive-less `/Windows…` only when what
# follows is a Windows top-level folder (a Linux `/c/src` stays a Linux path).
_WIN_TOP = r"(?:windows|users|program files(?: \(x86\))?|programdata)(?=/|$)"
_POSIX_DRIVE = re.compile(
    r"^/cygdrive/(?P<drive>[a-zA-Z])(?P<rest>/.*)?$"
    rf"|^/(?P<d2>[a-zA-Z])(?=/{_WIN_TOP})(?P<r2>/.*)$"
    rf"|^(?P<r3>/{_WIN_TOP}.*)$",
    re.IGNORECASE,
)


def _globstar_tail(p: str) -> str:
    """Globstar: `~/**/*`, `**`, `/**` match everything below, like `~/*`, `*`, `/*`."""
    parts = p.split("/")
    if len(parts) >= 2 and parts[-1] == "*" and parts[-2] == "**":
        parts.pop()
    k = len(parts)
    while k > 0 and parts[k - 1] == "**":
        k -= 1
    if k == len(parts):
        return p
    return "/".join([*parts[:k], "*"])


def is_device(path: str) -> bool:
    """A raw disk or memory device: writing to it destroys everything on it."""
    return bool(_DEVICE.match(path)) or bool(_WIN_DEVICE.match(path))


_SECRET = re.compile(
    r"(^|/)\.ssh(/|$)|(^|/)id_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|(^|/)\.aws/?$|\.gnupg"
    r"|/etc/shadow"
    r"|\.kube/config|\.docker/config\.json|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc"
    r"|(^|/)\.env$|\.pem$|\.key$|\.p12$|\.pfx$|credentials\.json|keychain|\.config/gh/hosts"
    # cloud and tool credentials by the files their CLIs keep them in
    r"|\.oci/config|\.config/gcloud/(credentials|legacy_credentials|access_tokens|application_default)"
    r"|\.azure/(accesstokens\.json|msal_token_cache|azureprofile\.json)|(^|/)clouds\.ya?ml$"
    r"|\.config/rclone/rclone\.conf|\.terraform\.d/credentials|\.vault-token|\.s3cfg|(^|/)\.boto$"
    r"|\.my\.cnf|\.dockercfg|\.config/hub$|\.password-store|(^|/)\.?htpasswd$|\.kdbx$"
    # more CLIs' credential files, host keys, password hashes, wallets, browser logins (m7)
    r"|\.config/(scw|doctl|hcloud|linode-cli|glab-cli|vercel|netlify|heroku|op|sops|b2)(/|$)"
    r"|\.(aliyun|tccli|bluemix|ibmcloud|pulumi|databrickscfg|snowsql|mc|linode-cli)(/|$)"
    r"|\.passwd-s3fs|\.b2_account_info|\.cargo/credentials|\.gem/credentials"
    r"|\.composer/auth\.json|\.gradle/gradle\.properties|\.m2/settings(-security)?\.xml"
    r"|(^|/)ssh_host_\w+_key$|^/etc/(gshadow|master\.passwd|security/opasswd)$"
    r"|(^|/)(wallet\.dat|key[34]\.db|logins\.json|login data|cookies\.sqlite)$"
    r"|\.ethereum/keystore|\.electrum/wallets|(^|/)ntds\.dit$"
    r"|(^|/)secrets?\.(ya?ml|json|env|toml)$"
    # whole credential folders and browser profiles (cookies, saved logins) (safety-m8)
    r"|(^|/)\.config/gcloud/?$|(^|/)\.(kube|azure|oci|docker|terraform\.d)/?$|\.config/gh/?$"
    r"|\.mozilla/firefox(/|$)|\.config/(google-chrome|chromium|bravesoftware|microsoft-edge)(/|$)"
    r"|library/application support/(google/chrome|firefox|bravesoftware|microsoft edge)(/|$)"
    r"|appdata/(local|roaming)/(google/chrome|mozilla/firefox|microsoft/edge|bravesoftware)"
    r"|library/keychains(/|$)",
    re.I,
)


@lru_cache(maxsize=4096)
def is_secret(path: str) -> bool:
    """Private keys, cloud credentials and tokens: sending these anywhere is exfiltration."""
    if path.endswith((".pub", "known_hosts", "authorized_keys")):
        return False
    if (
        path.isascii()
        and "." not in path
        and "/" not in path
        and "\\" not in path
        and _SECRET_BARE.search(path) is None
    ):
        # (asked of every argument of every command: `_SECRET`'s alternatives all need a
        # `.` or a `/` but these five; an ASCII text ignores case as `re.I` does)
        return False
    text = path.replace("\\", "/")
    if text.isascii():
        # (s21) `_SECRET` ignores case and tries ~60 alternatives at every character (1-3 µs
        # a character: 30-90 µs for an ordinary path or URL, asked of most commands'
        # arguments); each alternative holds one of `_SECRET_WORDS`, so ASCII text (which
        # `re.I` folds as `lower` does) holding none of them cannot match
        low = text.lower()
        if not any(map(low.__contains__, _SECRET_WORDS)):
            return False
    return bool(_SECRET.search(text))


# Text every alternative of `_SECRET` holds one of (lower case): an alternative added there
# needs its word here (tests/safety/test_s21_speed.py checks each alternative).
_SECRET_WORDS = (
    ".ssh",
    "id_",
    ".aws",
    ".gnupg",
    "shadow",
    ".kube",
    ".docker",
    ".netrc",
    ".pgpass",
    "credentials",
    ".npmrc",
    ".pypirc",
    ".env",
    ".pem",
    ".key",
    ".p12",
    ".pfx",
    "keychain",
    ".config/",
    ".oci",
    ".azure",
    "clouds.",
    ".terraform.d",
    ".vault-token",
    ".s3cfg",
    ".boto",
    ".my.cnf",
    ".password-store",
    "htpasswd",
    ".kdbx",
    ".aliyun",
    ".tccli",
    ".bluemix",
    ".ibmcloud",
    ".pulumi",
    ".databrickscfg",
    ".snowsql",
    ".mc",
    ".linode-cli",
    ".passwd-s3fs",
    ".b2_account_info",
    ".composer/",
    ".gradle/",
    ".m2/",
    "ssh_host_",
    "/etc/",
    "wallet.dat",
    "key3.db",
    "key4.db",
    "logins.json",
    "login data",
    "cookies.sqlite",
    ".ethereum/",
    ".electrum/",
    "ntds.dit",
    "secret",
    ".mozilla/",
    "library/",
    "appdata/",
)


# The only `_SECRET` alternatives that match a text with no `.`, `/` or `\`.
_SECRET_BARE = re.compile(r"(?i)id_|keychain|htpasswd|ssh_host_|login data")


def may_hold_secret(low: str, chars: frozenset[str]) -> bool:
    """Whether some argument may be `is_secret` (or end in one after `=`): `low` is the
    arguments lower-cased and joined (`Argv.joined_low`), `chars` their characters. False
    only when that is certain: ASCII text (see `is_secret`) with no `.`, `/` or a backslash and none
    of the five bare names."""
    if not low.isascii() or not chars.isdisjoint("./\\"):
        return True
    # (s20) `low` is lower-cased ASCII, so `_SECRET_BARE`'s five names are plain substrings:
    # five `in` scans cost 0.3 µs on a short text where the case-blind search costs 2.6 µs,
    # and 0.13 ms on 10,000 characters where it costs 2.8 ms (a wrapper chain asks at every
    # level: `sudo sudo … ls` in cmd spent 30 ms here unpaid)
    return (
        "id_" in low
        or "keychain" in low
        or "htpasswd" in low
        or "ssh_host_" in low
        or "login data" in low
    )


def whole_system(path: str, cwds: frozenset[str | None], windows: bool = False) -> str | None:
    """What `path` is when destroying it takes the system with it: the root or a drive, a
    home, a system folder (or `*` in one), an account or boot file, a security product's
    folder; None for anything else, including a single named file inside a system folder
    (`C:\\Windows\\cert.exe`: critical for the rules that know it, not a wipe) and the
    working directory (only the rules that model a program know what `.` costs it)."""
    t = classify_path(path, cwds, windows)
    if t.level < RiskLevel.BLOCKED or t.rule == "rm-cwd":
        return None
    if t.rule == "rm-system":
        p = _norm(path, windows)
        while p.endswith(("/*", "/.*", "/.", "/*.*")):
            p = p.rsplit("/", 1)[0] or "/"
        low = p.lower()
        if (
            re.match(r"^[a-z]:/windows/.", low)
            and low not in _SYSTEM_DIRS
            and not any(c in low for c in "*?[")
        ):
            return None
    return t.what


# --- security settings in the Windows registry (safety-m8) ---------------------------------
# Keys whose values configure a protection: credential storage and LSA protection (Lsa,
# SecurityProviders, CredSSP, credential delegation), virtualisation-based security
# (DeviceGuard), UAC and logon policy (Policies\System), Defender, the firewall, remote
# desktop and WinRM, SMB/Netlogon signing, PowerShell and event logging. Matched on text
# normalised like `windows._reg_norm` (lower case, `\`, short hive names).
_SECURITY_KEY = re.compile(
    r"\\control\\(?:lsa|securityproviders|deviceguard|terminal server|securepipeservers"
    r"|session manager\\kernel|ci\\policy|secureboot)\b"
    r"|\\policies\\system\b|\\windows defender\b|\\credssp\b|\\credentialsdelegation\b"
    r"|\\policies\\microsoft\\(?:windowsfirewall|windows nt\\terminal services"
    r"|windows\\(?:deviceguard|powershell|winrm|eventlog|system|credui|wcmsvc|windows error"
    r" reporting|safer))\b"
    r"|\\services\\(?:lanmanserver|lanmanworkstation|netlogon|mrxsmb\w*|kdc|sharedaccess"
    r"|winrm|ntds|eventlog)\\parameters\b"
)
_REG_VALUE_NAME = re.compile(
    r"(?:\\v|-name)\s+(?:\"([^\"]{1,200})\"|'([^']{1,200})'|([^\s'\"]{1,200}))|(?:\\ve)\b"
)
_REG_VALUE_DATA = re.compile(r"(?:\\d|-value)\s+[\"']?(0x[0-9a-f]+|\d+)\b")


# Value names whose protection is off at 0 (Enable*, Require*, Restrict*, RunAsPPL, No*,
# fDeny*, Use*, ConsentPromptBehavior*, Limit*, Is*).
_OFF_AT_ZERO = (
    "enable",
    "require",
    "restrict",
    "runasppl",
    "no",
    "fdeny",
    "use",
    "consentpromptbehavior",
    "promptonsecuredesktop",
    "limit",
    "is",
)


def _number(text: str) -> int | None:
    try:
        return int(text, 16) if text.startswith("0x") else int(text)
    except ValueError:
        return None


def security_setting_weakened(t: str, deleted: bool = False) -> str | None:
    """`reg add HKLM\\…\\Control\\Lsa /v NoLmHash /d 0`, `Set-ItemProperty HKLM:\\…\\DeviceGuard
    -Name EnableVirtualizationBasedSecurity -Value 0`, `reg delete …\\Lsa /v RunAsPPL`: a
    numeric value under a key that configures a protection, set the way that turns the
    protection off (`Enable*`/`Require*`/`Restrict*`/`RunAsPPL`/`No*` to 0, `Disable*`/`Allow*`
    to non-zero, an `f`-flag of remote desktop opened), or deleted (the protection falls
    back to off): the reason, else None. Writes that tighten (RunAsPPL 1, NTLMv2 only)
    stay ordinary registry writes. `t` is normalised registry text."""
    key = _SECURITY_KEY.search(t)
    if key is None:
        return None
    named = _REG_VALUE_NAME.search(t, key.end())
    if named is None:
        return None
    name = next((g for g in named.groups() if g), "").lower().strip()
    if deleted:
        if not name:
            return None
        return f"deletes the security setting {name} (the protection falls back to off)"
    data = _REG_VALUE_DATA.search(t, named.end())
    if data is None or not name:
        return None
    value = _number(data.group(1))
    if value is None:
        return None
    if "\\policies\\system" in key.group(0) and not name.startswith(
        ("enable", "validate", "filter")
    ):
        # Policies\System also holds restrictions put on users (DisableChangePassword,
        # DisableLockWorkstation): setting those restricts, it does not open anything.
        return None
    if name.startswith(
        ("disable", "allow", "fallow", "fdisable", "uselogoncredential")
    ) or name in (
        "everyoneincludesanonymous",
        "localaccounttokenfilterpolicy",
        "fsinglesessionperuser",
    ):
        weak = value != 0
    elif name == "lmcompatibilitylevel":
        weak = value <= 2
    elif name.startswith(_OFF_AT_ZERO):
        weak = value == 0
    else:
        return None
    if not weak:
        return None
    return f"sets {name} to {value}, which turns a Windows protection off"


# (n17u) The machine trust stores (the CA folders of every distribution, macOS's system
# keychains): a selector over their files (a glob, find's name tests) empties the store.
_TRUST_STORE = re.compile(
    r"\A/(?:etc/ssl/certs|etc/pki/tls/certs|etc/pki/ca-trust(?:/source(?:/anchors)?"
    r"|/extracted(?:/[a-z]+){0,2})?|usr/local/share/ca-certificates(?:/[^/*?\[]+)?"
    r"|usr/share/ca-certificates(?:/[^/*?\[]+)?|etc/ca-certificates(?:/trust-source"
    r"(?:/anchors)?|/extracted)?|usr/share/pki/(?:ca-trust-source|trust)(?:/anchors)?"
    r"|var/lib/ca-certificates(?:/[a-z]+)?|etc/openssl/certs|usr/local/etc/ssl/certs"
    r"|usr/local/etc/openssl(?:@[\d.]+)?/certs|(?:system/)?library/keychains"
    r"|etc/pki/nssdb|etc/pki/java|usr/share/ca-certs)/?\Z"
)


def trust_store(folder: str) -> bool:
    """A machine trust store's folder (lower-case, absolute)."""
    return ("cert" in folder or "trust" in folder or "keychain" in folder or "pki" in folder) and (
        _TRUST_STORE.match(posixpath.normpath(folder)) is not None
    )


def trust_store_glob(low: str) -> str | None:
    """`/etc/ssl/certs/*.pem`: the trust store whose files a glob matches, else None."""
    folder, _, base = low.strip("\"'").rpartition("/")
    if not any(c in base for c in "*?[") or not trust_store(folder):
        return None
    return folder
