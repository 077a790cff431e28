"""Families of the sixth blind slice's misses (issue 14, safety-f6) that fit no other module.

- `capsh --uid=0` / `--user=root`: the shell it starts runs as root (privilege change).
- `netsh interface portproxy add|set`: a port forward through this machine (a pivot).
- A service registered under the `SafeBoot` registry keys runs in Safe Mode, where most
  security tools do not (ransomware's way round EDR).
- `certoc -GetCACAPS URL`: a LOLBin that downloads what the URL serves.
- `ms-appinstaller:` URLs: App Installer downloads and installs the package they name.
- `wmic /node:HOST process call create CMD`: a process started on another machine.
- `tarsnap -d` deletes an archive, `tarsnap --nuke` every archive.
- An unknown shell or REPL given `-c 'CMD'` (`genie -c`, `ginsh -c '!CMD'`): CMD is judged as
  a bash command line, and a blocked one stays blocked.

`judge(cmd)` is called by the dispatcher for every simple command before its handler.
"""

from __future__ import annotations

import re

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import B, C, D, M
from aintern_ls.safety.registry import handles, lookup

_SAFEBOOT = re.compile(r"(?i)\\Control\\SafeBoot\\(?:Minimal|Network)\\")
_URL = re.compile(r"(?i)\b(?:https?|ftp)://|^\\\\")
# Programs known to run `-c CODE` as something other than a shell command line.
_NOT_SHELL_C = re.compile(
    r"(?i)^(?:python\S*|pypy\S*|perl\S*|ruby\S*|node|php\S*|psql|mysql|pwsh|powershell|cmd)$"
)


def _base(text: str) -> str:
    return re.split(r"[\\/]", text.strip("'\"").rstrip("\\/"))[-1].lower()


def _shell_c(cmd: Cmd, name: str) -> bool:
    """`UNKNOWN -c 'CMD'`: judge CMD (a leading `!` shell escape removed) as bash; only a
    blocked result is kept (`-c` means other things to other programs: a CMD that is not
    plainly destructive leaves the command as it was)."""
    args = cmd.args
    for i, w in enumerate(args[:-1]):
        if w.text != "-c" or w.dynamic:
            continue
        code_word = args[i + 1]
        code = code_word.text.lstrip()
        code = code[1:] if code.startswith("!") else code
        if not code or code_word.dynamic:
            return False
        found = [f for f in cmd.scope.nested(code, "bash", code_word, -1) if f.level == B]
        if found:
            cmd.scope.include(found)
            cmd.add(B, "shell-c", f"{name} -c runs a command line that is blocked")
            return True
        return False
    return False


def judge(cmd: Cmd) -> None:
    """Knowledge that applies whatever handler the program has (called before it runs)."""
    if cmd.words[0].dynamic:
        return
    name = _base(cmd.words[0].text).removesuffix(".exe")
    texts = [t for t in cmd.texts()]
    low = [t.lower() for t in texts]
    joined = " ".join(low)
    if name == "capsh" and any(
        t in ("--uid=0", "--user=root", "--gid=0") or t.startswith("--user=root") for t in low
    ):
        cmd.add(C, "privilege", "capsh starts its shell as root")
    elif name == "netsh" and re.search(r"\binterface\s+portproxy\s+(?:add|set)\b", joined):
        cmd.add(C, "network", "netsh portproxy forwards a port through this machine (a pivot)")
    elif _SAFEBOOT.search(" ".join(texts)) and name in (
        "reg",
        "new-item",
        "new-itemproperty",
        "set-itemproperty",
        "ni",
    ):
        if not (name == "reg" and low[:1] == ["query"]):
            cmd.add(
                C,
                "persistence",
                "a service registered to run in Safe Mode, where security tools do not",
            )
    elif name == "certoc" and any(_URL.search(t) for t in texts):
        cmd.add(C, "download", "certoc downloads from a URL (a LOLBin download)")
    elif any(
        t.strip("'\"").lower().startswith("ms-appinstaller:") for t in texts
    ) or name.startswith("ms-appinstaller:"):
        cmd.add(C, "install", "an ms-appinstaller: URL downloads and installs a package")
    elif (
        name == "wmic"
        and any(t.startswith("/node:") for t in low)
        and re.search(r"\bprocess\s+call\s+create\b", joined)
    ):
        cmd.add(C, "remote-exec", "wmic /node: starts a process on another machine")
    elif name == "wmic" and re.search(r"\bcall\s+terminate\b|\bdelete\b", joined):
        from aintern_ls.safety.system import _SECURITY_PROCESS

        if re.search(r"\bprocess\b", joined) and _SECURITY_PROCESS.search(" ".join(texts)):
            cmd.add(C, "disable-security", "wmic kills a security or logging agent")
    elif name == "vim-cmd" and _EVERY_VM.search(cmd.scope.source) and _VM_GONE.search(joined):
        ids = [w for w in cmd.args[1:] if not w.text.startswith("-")]
        if not ids or any(w.dynamic for w in ids):
            cmd.add(B, "vm-destroy", "vim-cmd removes the snapshots or VMs of every VM on the host")
    elif name == "find" and _find_deletes_logs(cmd, low):
        cmd.add(C, "log-wipe", "find deletes log files by name across the whole system")
    elif name in _HOME_DELETERS and any(_HOME_ALL.match(t) for t in texts):
        cmd.add(B, "rm-home", f"{name} deletes every entry of the home folder")
    elif cmd.scope.family == "bash" and "-c" in texts and not _NOT_SHELL_C.match(name):
        handler = lookup(name, False)
        # Programs the analyser models (real shells, `grep -c`) judge their own `-c`; only
        # unknown programs and the generic local-program runner get this reading.
        if handler is None or handler.__name__ == "_runner":
            _shell_c(cmd, name)


# Every entry of home, non-recursive (`~/*`, `$HOME/*`, `%USERPROFILE%\*`) is still every file.
_HOME_ALL = re.compile(
    r"(?i)^[\'\"]?(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%|\$env:HOME)[\\/]\*(?:\.\*)?[\'\"]?$"
)
_HOME_DELETERS = frozenset(
    ("rm", "shred", "srm", "wipe", "unlink", "del", "erase", "remove-item", "ri", "rd", "rmdir")
)


@handles("tarsnap")
def _tarsnap(cmd: Cmd) -> None:
    """`tarsnap -d` deletes an archive, `--nuke` every archive; `-c` uploads; `--list-archives`,
    `-t`, `--print-stats` only read."""
    low = [t.lower() for t in cmd.texts()]
    if "--nuke" in low:
        cmd.add(B, "backup-delete", "tarsnap --nuke deletes every archive")
    elif cmd.short("d"):
        cmd.add(D, "backup-delete", "tarsnap -d deletes an archive")
    elif cmd.short("cx") or "--recover" in low or "--fsck" in low:
        cmd.add(M, "write", "tarsnap writes an archive or local files")


@handles("cmdkey", "cmdkey.exe", windows_only=True)
def _cmdkey(cmd: Cmd) -> None:
    """`cmdkey /list` prints stored credential targets; `/add`, `/generic`, `/delete`
    change them."""
    if not all(t.lower().startswith("/list") for t in cmd.texts()) or not cmd.texts():
        cmd.add(M, "credentials", "cmdkey changes stored credentials")


# `vim-cmd vmsvc/getallvms` (or `esxcli vm process list`) feeding a loop or xargs: every VM.
_EVERY_VM = re.compile(r"(?i)\bgetallvms\b|\besxcli\s+vm\s+process\s+list\b")
_VM_GONE = re.compile(r"(?i)snapshot\.remove(?:all)?\b|\bdestroy\b|\bunregister\b")
# Log files by name: `*.log`, `*.log.*`, `*.evtx`, `*.journal`, `*_history`, `wtmp*`.
_LOG_NAME = re.compile(
    r"(?i)^\*\.(?:log|evtx|etl|journal~?|log\.\S*)$|^\*?\.?\S*_history$|^wtmp\*?$"
)


def _find_deletes_logs(cmd: Cmd, low: list[str]) -> bool:
    """`find / -name '*.log' -delete` (or `-exec rm …`): log files deleted over the whole
    system is log clearing (critical), not an ordinary narrowed delete."""
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
    return "-delete" in low or bool(
        re.search(r"-exec(?:dir)?\s+(?:\S*/)?(?:rm|shred|truncate|unlink|srm)\b", tail)
    )
