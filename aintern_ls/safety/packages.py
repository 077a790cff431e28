"""Package managers removing every package, or the base system's own (f19 family 5).

The equivalence class, in every shell:

- what "every package" is: a pattern that matches all of them (`'*'`, `'.*'`, apt's `~i` /
  `?installed`, choco's `all`), or the manager's own listing of what is installed fed back to
  its removal (`$(pacman -Qq)`, `pacman -Qq | pacman -Rns -`, `rpm -qa | xargs rpm -e`,
  `dpkg -l | awk '/^ii/{print $2}' | xargs apt-get purge`, `pip uninstall -r <(pip freeze)`,
  `brew uninstall $(brew list)`). A listing carries the marker `EVERY_PACKAGE` down pipes,
  xargs and substitutions, as backup listings carry theirs.
- what the base system is: libc, systemd, the shell, coreutils, the package manager itself,
  the kernel (clis._ESSENTIAL; the running kernel `linux-image-$(uname -r)`, Arch's `linux`,
  `kernel`, every kernel image; one old version named is a clean-up).

System package managers removing every package or an essential one: blocked (the machine
stops booting or running programs), whatever protection the manager may still apply; user-level
managers (brew, pip, npm -g, gem, cargo, choco, winget…) removing every package: dangerous
(the user's tools, not the system). Dry runs and simulations stay what they are.
"""

from __future__ import annotations

import re

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import B, D
from aintern_ls.safety.words import names

# What a listing of every installed package stands for when piped on: a marker, no path.
EVERY_PACKAGE = "\x00every-package"

SYSTEM = frozenset(
    names(
        "apt apt-get aptitude nala dnf yum microdnf tdnf zypper apk pacman yay paru pamac rpm"
        " dpkg emerge xbps-remove pkg opkg eopkg"
    )
)
USER = frozenset(
    names(
        "brew port pip pip3 pipx uv npm pnpm yarn gem cargo choco winget scoop conda mamba"
        " micromamba snap flatpak nix-env"
    )
)
_VERBS = frozenset(names("remove purge autoremove erase rm del delete uninstall un r"))
# Managers whose removal is an option, not a verb word.
_REMOVE_OPTION = {
    "pacman": re.compile(r"\A(?:-R[A-Za-z]*|--remove)\Z"),
    "yay": re.compile(r"\A(?:-R[A-Za-z]*|--remove)\Z"),
    "paru": re.compile(r"\A(?:-R[A-Za-z]*|--remove)\Z"),
    "rpm": re.compile(r"\A(?:-e[A-Za-z]*|--erase)\Z"),
    "dpkg": re.compile(r"\A(?:-[rP]|--remove|--purge)\Z"),
    "emerge": re.compile(r"\A(?:-[A-Za-z]*C[A-Za-z]*|--unmerge|--rage-clean)\Z"),
    "nix-env": re.compile(r"\A(?:-e|--uninstall)\Z"),
}
_DRY = frozenset(
    names(
        "-s --simulate --dry-run --dryrun --just-print --no-act --recon --assumeno --print -p"
        " --pretend --what-if --whatif --noop -n"
    )
)
_ALL_PATTERN = re.compile(r"\A(?:\*|\.\*|\^\.\*\$?|\^?\.\+\$?|~i|\?installed|\*:\*)\Z")
# The kernel itself: Arch's only `linux`, Fedora's `kernel`/`kernel-core`, every kernel image
# (`linux-image-*`); one old version named (`linux-image-5.15.0-50-generic`) is a clean-up.
_KERNEL = re.compile(r"\A(?:linux|kernel|kernel-core|kernel-default|linux-image-\*|kernel\*)\Z")


def _verb_index(cmd: Cmd) -> int:
    """Index in `cmd.args` of the removal verb (or option); -1 when this is no removal, -2
    when the program itself removes (`xbps-remove PKG`: every argument is an operand)."""
    if cmd.name == "xbps-remove":
        return -2
    option = _REMOVE_OPTION.get(cmd.name)
    for i, w in enumerate(cmd.args[:6]):
        t = w.text
        if option is not None:
            if option.match(t):
                return i
            continue
        if cmd.name == "uv" and t == "pip":
            continue
        if t.startswith("-"):
            continue
        return i if t in _VERBS else -1
    return -1


def _package_base(op: str) -> str:
    base = op.lstrip("=<>~").split(":")[0].split("=")[0].rsplit("/", 1)[-1]
    return re.sub(r"-\d[\w.+~-]*$", "", base)


def judge_removal(cmd: Cmd) -> None:
    """Every package removed (blocked for the system's manager, dangerous for a user's) or
    an essential package removed (blocked)."""
    system = cmd.name in SYSTEM
    if not system and cmd.name not in USER:
        return
    k = _verb_index(cmd)
    if k == -1 or any(w.text in _DRY for w in cmd.args):
        return
    ops = [w for w in cmd.args[max(k + 1, 0) :] if not w.text.startswith("-") or w.text == "-"]
    every = None
    for w in ops:
        if EVERY_PACKAGE in w.text or (
            w.text == "-" and any(p.text == EVERY_PACKAGE for p in cmd.stdin.paths)
        ):
            every = w
            break
        if not w.dynamic and (
            _ALL_PATTERN.match(w.text) or (w.text == "all" and cmd.name in ("choco", "scoop"))
        ):
            every = w
            break
    if every is None and cmd.name in ("pip", "pip3", "uv"):
        # `pip uninstall -y -r <(pip freeze)`: the requirements file is the listing
        every = next((w for w in cmd.args if EVERY_PACKAGE in w.text), None)
    if every is not None:
        level, whose = (B, "the system's") if system else (D, "your")
        cmd.add(
            level,
            "packages-all",
            f"{cmd.name} removes every installed package ({whose} programs and libraries)",
            every,
        )
        return
    if not system:
        return
    # An essential package named (glibc, systemd, coreutils…) is judged by clis' table, which
    # knows each manager's own guard (apt, dnf, rpm, apk refuse it unless told past it); here:
    # pacman's kernel package (`pacman -R linux`: nothing depends on it, it goes) and the
    # running kernel named through `uname`.
    for w in ops:
        if not w.dynamic and cmd.name in ("pacman", "yay", "paru") and _KERNEL.match(w.text):
            cmd.add(
                B,
                "cli-package-essential",
                f"{cmd.name} removes the kernel package {w.text}: the system no longer boots",
                w,
            )
            return
        if w.dynamic and w.text.startswith(("linux-image-", "kernel-")) and "uname" in w.text:
            cmd.add(B, "cli-package-essential", f"{cmd.name} removes the running kernel", w)
            return


# Listings of every installed package: (program, the words that make it one).
_LISTERS: dict[str, re.Pattern[str]] = {
    "pacman": re.compile(r"\A-Q[qen]*\Z"),
    "yay": re.compile(r"\A-Q[qen]*\Z"),
    "paru": re.compile(r"\A-Q[qen]*\Z"),
    "rpm": re.compile(r"\A-q?a[a-z]*\Z|\A-qa\Z|\A--all\Z"),
    "dpkg": re.compile(r"\A(?:-l|--list|--get-selections)\Z"),
    "dpkg-query": re.compile(r"\A(?:-W|--show|-l|--list)\Z"),
    "apk": re.compile(r"\Ainfo\Z"),
    "xbps-query": re.compile(r"\A-l\Z"),
    "brew": re.compile(r"\A(?:list|ls|leaves)\Z"),
    "pip": re.compile(r"\A(?:freeze|list)\Z"),
    "pip3": re.compile(r"\A(?:freeze|list)\Z"),
    "gem": re.compile(r"\Alist\Z"),
    "choco": re.compile(r"\Alist\Z"),
    "winget": re.compile(r"\Alist\Z"),
}


def lists_every_package(name: str, args: list[str]) -> bool:
    """`pacman -Qq`, `rpm -qa`, `dpkg -l`, `apk info`, `brew list`, `pip freeze`, `apt list
    --installed`, `dnf list installed`, `npm ls -g`: every installed package, for a removal
    downstream. A package name or filter after it names a subset."""
    if name in ("apt", "dnf", "yum"):
        return args[:1] == ["list"] and any(a in ("--installed", "installed") for a in args[1:])
    if name == "npm":
        return args[:1] in (["ls"], ["list"]) and any(a in ("-g", "--global") for a in args)
    pattern = _LISTERS.get(name)
    if pattern is None or not args or not pattern.match(args[0]):
        return False
    rest = [a for a in args[1:] if not a.startswith("-")]
    if name in ("pip", "pip3") and args[0] == "list":
        rest = []  # (`pip list --format=freeze`)
    return not rest and not any(a in ("-d", "-t", "-m", "--deps", "--unrequired") for a in args)
