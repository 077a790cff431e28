"""Knowledge from detection-rule repositories (issue 14, safety-sig7) that fits no other module.

Detection engineers (SigmaHQ, Elastic detection-rules, Splunk security_content) have written
down, rule by rule, what attackers type. This module keeps the knowledge those rules share and
that generalises beyond any one spelling:

- **Security components by name** (`security_component`): the services, processes, launchd
  labels, kernel extensions and packages of endpoint-security products, OS protections and
  log shippers. Stopping, killing, disabling, unloading, uninstalling or deleting one blinds
  defenders (critical), whatever tool does it: `systemctl`, `service`, `chkconfig`,
  `launchctl`, `kill`/`pkill`/`taskkill`, `sc`, `net stop`, `wmic … call terminate`,
  `schtasks /delete`, `reg delete`, `kextunload`, PowerShell's service/process cmdlets.
- **Credential stores by path** (`credential_store`): password hashes, keychains, browser
  login/cookie databases, wallets, AD/SAM hives. Copying, archiving or querying one into
  another place is credential access (critical); reading it on the terminal stays as judged.
- **Log and audit tampering** the modules do not model: clearing the kernel ring buffer,
  `auditctl -e0`, shrinking an event log, `Remove-EventLog`, WMI's `ClearEventLog`,
  `auditpol /restore`, ESXi's syslog target changed.
- **Timestamps of logs and system files changed** (`touch -d/-t/-r` on them): anti-forensics
  (HELPERS session 9: critical).
- Writing another process's memory (`dd of=/proc/PID/mem`), a privileged container created
  through the Docker socket, an RDP/SSH port tunnelled out to a remote host, a password
  prompt faked with `osascript`, a certificate put into the untrusted store (blinds the
  product it signs), the ESXi firewall opened.

`judge(cmd, mark)` is called by the dispatcher after a command's handler; it only raises a
command to critical when nothing it found already reached critical (so findings are not
doubled), and never lowers anything.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from aintern_ls.safety import security
from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import C
from aintern_ls.safety.paths import LOG_DIR
from aintern_ls.safety.registry import Programs, program_key
from aintern_ls.safety.security import (
    WORD_TOKENS,
    free_text_pattern,
    security_component,
    security_in_text,
    security_name,
    security_word,
)
from aintern_ls.safety.shape import ascii_folded
from aintern_ls.safety.words import names

# --- security components ---------------------------------------------------------------

# Windows Update's services: stopping one for a while is an ordinary service stop
# (dangerous); turning one off for good (start type disabled) stops security patches.
_UPDATE_SERVICES = frozenset(names("wuauserv usosvc waasmedicsvc bits dosvc"))


def _like_security(text: str) -> str | None:
    """A WMI `like '%carbon%'` / wildcard filter that picks out security products."""
    for raw in re.findall(r"%([a-z0-9 .-]{4,})%", text.lower()):
        core = str(raw).strip()
        if core in ("endpoint", "malware", "antivirus", "security", "defender", "protection"):
            return core
        if security_component(core) or any(
            n.split("\\")[0].startswith(core.replace(" ", "")) for n in security.NAMES
        ):
            return core
    return None


_SERVICE_TOOLS = frozenset(
    names("systemctl service rc-service sv chkconfig update-rc.d initctl launchctl rc-update")
)
_SERVICE_OFF = frozenset(
    names("stop disable mask kill unload bootout remove off del delete force-stop")
)
_KILLERS = frozenset(names("kill pkill killall skill taskkill tskill stop-process spps"))
_PS_SERVICE = frozenset(
    names(
        """
    stop-service spsv set-service remove-service suspend-service uninstall-package
    uninstall-module disable-scheduledtask unregister-scheduledtask remove-itemproperty
    remove-item
    """
    )
)
_PACKAGERS = frozenset(names("apt apt-get aptitude yum dnf zypper pacman snap brew"))
_PACKAGE_OFF = frozenset(names("remove purge erase autoremove uninstall"))
_WMIC_OFF = re.compile(r"\bcall\s+(terminate|delete|uninstall|stopservice|changestartmode)")


def _named(texts: list[str]) -> str | None:
    """The first security component a list of words names (`'*falcon*'` too)."""
    for t in texts:
        s = security_component(t)
        if s or (t != (bare := t.strip("'\"*")) and security_name(bare)):
            return s or bare
    return None


def stops_security(cmd: Cmd) -> str | None:
    """What a command that stops, disables, unloads, uninstalls or deletes a security
    component names, or None: THE parser of "stops security" (service managers, process
    killers, `sc`/`net`, package managers, WMI, scheduled tasks, the registry, kexts,
    PowerShell's service cmdlets), whatever names the component (`security.PRODUCTS`)."""
    n = cmd.name.lower().removesuffix(".exe")
    texts = [t for t in cmd.texts()]
    low = [t.lower() for t in texts]
    ops = [t for t in low if not t.startswith(("-", "/"))]
    if n in _SERVICE_TOOLS:
        if not any(t in _SERVICE_OFF for t in low):
            return None
        return next((s for t in texts if (s := security_component(t))), None)
    if n in _KILLERS:
        src = cmd.scope.source
        begin = src.rfind("\n", 0, cmd.start) + 1 if cmd.stdin.kind != "none" else cmd.start
        whole = (
            " ".join(texts) + " " + (src[begin : cmd.end][-2000:] if cmd.end <= len(src) else "")
        )
        # `pkill -f PATTERN` (`pgrep -f`, `killall -r`): the pattern is free text matched
        # against command lines, where a whole-operand name (`avg`, `edr`) is a common word
        full = free_text_pattern(n, low)
        find = security_in_text if full else security_component
        found = next((s for t in [*texts, whole] if (s := find(t))), None)
        if found or (n == "kill" and cmd.scope.family == "bash"):
            return found
        if n in ("pkill", "killall"):
            return next(
                (t for t in ops if (w := security_word(t)) and not (full and w in WORD_TOKENS)),
                None,
            )
        return _named(ops) if n in ("stop-process", "spps", "kill") else None
    if n in ("sc", "net", "net1") and low:
        verb = low[1] if n == "sc" and len(low) > 1 and low[0].startswith("\\\\") else low[0]
        rest = texts[2:] if n == "sc" and low[0].startswith("\\\\") else texts[1:]
        start = (
            re.search(r"start=\s*(disabled|demand)", " ".join(low))
            if n == "sc" and verb == "config"
            else None
        )
        disables = start is not None and start.group(1) == "disabled"
        if verb in ("stop", "delete", "pause") or start is not None:
            if disables and rest[:1] and rest[0].lower() in _UPDATE_SERVICES:
                return rest[0]
            found = next((s for t in rest[:1] if (s := security_component(t))), None)
            if found or n == "sc" or verb not in ("stop", "pause"):
                return found
            # `net stop "Sophos AutoUpdate Service"`: the display name's words
            target = " ".join(t for t in rest if not t.startswith(("-", "/")))
            return target if security_word(target) else None
        return None
    if n in _PACKAGERS or n in ("rpm", "dpkg"):
        if n in ("rpm", "dpkg"):
            off = any(t in ("-e", "--erase", "-r", "-p", "--remove", "--purge") for t in low)
            candidates = ops
        else:
            off = ops[:1] != [] and ops[0] in _PACKAGE_OFF
            off = off or (n == "pacman" and any(t.startswith("-r") for t in low))
            candidates = ops[1:]
        return next((t for t in candidates if security_name(t)), None) if off else None
    if n == "wmic":
        joined = " ".join(low)
        if _WMIC_OFF.search(joined) or " delete" in joined:
            return (
                _like_security(joined)
                or next((s for t in texts if "=" in t and (s := security_component(t))), None)
                or security_word(joined.replace("like", " "))
            )
        return None
    if n == "schtasks":
        if any(t in ("/delete", "-delete", "/end") for t in low) or (
            "/change" in low and "/disable" in low
        ):
            tn = next((texts[i + 1] for i, t in enumerate(low[:-1]) if t in ("/tn", "-tn")), "")
            return security_component(tn)
        return None
    if n in ("reg", "reg.exe") and low[:1] == ["delete"]:
        return next((s for t in texts[1:] if (s := security_component(t))), None)
    if (n in ("reg", "reg.exe") and low[:1] == ["add"]) or n in (
        "set-itemproperty",
        "new-itemproperty",
    ):
        # `reg add HKLM\SYSTEM\CurrentControlSet\Services\X /v Start /d 4`: X never starts
        joined = " ".join(low)
        svc = re.search(r"\\services\\([^\\\s\"']+)", joined)
        if (
            svc
            and re.search(r"(/v|-name)\s+[\"']?start\b", joined)
            and re.search(r"(/d|-value)\s+[\"']?4\b", joined)
        ):
            name = svc.group(1)
            return name if name in _UPDATE_SERVICES else security_component(name)
        return None
    if n in ("kextunload", "kmutil") and (n == "kextunload" or "unload" in low):
        return next((s for t in texts if (s := security_component(t))), None)
    if n in _PS_SERVICE:
        if n == "set-service" and not re.search(r"disabled|stopped|manual", " ".join(low)):
            return None
        if n in ("remove-item", "remove-itemproperty") and not re.search(
            r"currentversion\\run|services\\", " ".join(low)
        ):
            return None
        return next((s for t in texts if (s := security_component(t))), None) or (
            _named(ops) if n in ("stop-service", "spsv", "remove-service", "set-service") else None
        )
    return None


def _agent_off(cmd: Cmd) -> str | None:
    """Vendor agents' own control tools told to stop protection."""
    n = cmd.name.lower()
    low = " ".join(cmd.texts()).lower()
    if n == "kesl-control" and re.search(r"--stop-t(ask)?\b|--stop\b|--app-remove", low):
        return "Kaspersky Endpoint Security stopped"
    if n == "ufw-init" and re.search(r"\b(force-)?stop\b|\bflush-all\b", low):
        return "the ufw firewall stopped"
    if n == "remove-mppreference" and re.search(
        r"-(controlledfolderaccessprotectedfolders|attacksurfacereductionrules_\w+"
        r"|checkforsignaturesbeforerunningscan)\b",
        low,
    ):
        return "Remove-MpPreference takes away a Defender protection (protected folders, ASR rules)"
    if n in ("certutil", "certutil.exe") and re.search(r"-addstore\b.*\bdisallowed\b", low):
        return "a certificate put into the untrusted store (products it signs stop loading)"
    if n == "esxcli" and re.search(
        r"network\s+firewall\s+(unload\b|set\b.*(-e|--enabled)[=\s]+(false|0|no)\b"
        r"|set\b.*--default-action[=\s]+(true|pass|1)\b)",
        low,
    ):
        return "the ESXi firewall turned off or set to let everything in"
    return None


# --- logs and audit ----------------------------------------------------------------------


def _log_tampering(cmd: Cmd) -> str | None:
    n = cmd.name.lower().removesuffix(".exe")
    texts = cmd.texts()
    low = [t.lower() for t in texts]
    joined = " ".join(low)
    if n == "dmesg" and (
        any(t in ("-c", "-C", "--clear", "--read-clear") for t in texts)
        or any(re.fullmatch(r"-[a-zA-Z]*[cC][a-zA-Z]*", t) for t in texts)
    ):
        return "dmesg clears the kernel's message buffer"
    if n == "auditctl" and re.search(r"(^|\s)-e\s*0\b|(^|\s)-d\b", joined):
        return "auditctl turns kernel auditing off or deletes its rules"
    if n == "wevtutil" and low[:1] and low[0] in ("sl", "set-log"):
        m = re.search(r"/ms:(\d+)", joined)
        if m and int(m.group(1)) < 16 * 1024 * 1024:
            return "wevtutil shrinks an event log so that it forgets"
        if re.search(r"/(e|enabled):(false|0)\b|/rt:true|/lfn:", joined):
            return "wevtutil turns an event log off or moves it"
    if n in ("remove-eventlog", "clear-winevent"):
        return f"{cmd.name} deletes or clears an event log"
    if n == "wmic" and "nteventlog" in joined and "cleareventlog" in joined:
        return "WMI clears an event log"
    if n == "auditpol" and any(t in ("/restore", "-restore") for t in low):
        return "auditpol replaces the audit policy with one from a file"
    if n == "esxcli" and re.search(r"\bsystem\s+syslog\s+config\s+set\b", joined):
        return "esxcli changes where (or whether) the ESXi host logs"
    return None


# Timestamps of logs and system files changed (`touch -d/-t/-r`): ONE rule (safety-debt8;
# detections' and reports' copies, with their two lists of places, merged).
_DATE_OPTS = frozenset({"-d", "-t", "-r", "--date", "--reference", "--time"})
_VALUED = frozenset({"-d", "-t", "-r", "--reference", "--date"})
_SYSTEM_PLACES = re.compile(
    r"^(?:/etc|/usr|/bin|/sbin|/lib\w*|/boot|/var/spool/cron|/var/log|/library/launch\w+"
    r"|/system|/private/var/log|/library/logs|/store|[a-z]:/windows|[a-z]:/program files)(?:/|$)"
)


def timestomp(cmd: Cmd) -> str | None:
    """`touch -r /bin/ls /usr/sbin/x`, `touch -d 2019-01-01 /var/log/auth.log`: a log's or
    system file's timestamps faked (hides when it changed). What a `-r`/`-d`/`-t` option
    takes is the stamp, not a target."""
    if cmd.name != "touch":
        return None
    texts = cmd.texts()
    if not any(t in _DATE_OPTS or t.startswith(("--date=", "--reference=")) for t in texts):
        return None
    targets = [w.text for w in cmd.operands(_VALUED)]
    for t in targets:
        p = t.replace("\\", "/").lower()
        if LOG_DIR.match(p.rsplit("/", 1)[0]) or _SYSTEM_PLACES.match(p):
            return f"touch back-dates {t} (hides when a log or system file changed)"
    return None


# --- credentials ---------------------------------------------------------------------------

# Stores of credentials, ONE table for the rules that ask (safety-debt8): `(what, anywhere,
# file, windows)`, three views of each store:
# - `anywhere`: the store named anywhere in a path (stagers copying or archiving it,
#   rule `credential-dump`, below);
# - `file`: the store file itself, exactly (any reader of it, `cat` and `base64` too:
#   reports' rule `credentials`);
# - `windows`: in a Windows tool's command line (ProcDump of lsass, wbadmin of the AD
#   database or hives: windows.py's `credential-dump`).
CREDENTIAL_STORES: tuple[tuple[str, str, str, str], ...] = (
    (
        "account password hashes",
        r"(?:^|[/\\])(?:shadow|gshadow|master\.passwd|opasswd)$|/etc/(?:g?shadow|security/opasswd)"
        r"|dslocal/nodes/default/users|shadowhashdata",
        "",
        "",
    ),
    (
        "macOS keychains",
        r"(?:^|[/\\])keychains(?:[/\\]|$)|\.keychain(?:-db)?$",
        r"keychains?/[^/]*\.keychain(?:-db)?$|login\.keychain",
        "",
    ),
    (
        "browsers' saved logins and keys",
        r"login data|web data|logins\.json|key[34]\.db|signons\.sqlite|local state",
        r"/login data(?: for account)?$|(?:chrome|chromium|edge|brave|opera)[^\n]*/"
        r"(?:web data|local state)$|(?:^|/)(?:key[34]\.db|logins\.json|signons\.sqlite)$",
        "",
    ),
    (
        "browsers' cookies",
        r"(?:^|[/\\])cookies(?:\.sqlite)?$",
        r"(?:chrome|chromium|edge|brave|opera)[^\n]*/cookies$|(?:^|/)cookies\.sqlite$",
        "",
    ),
    (
        "cryptocurrency wallets",
        r"wallet\.dat|exodus|electrum|ledger live|metamask|nkbihfbeogaeaoehlefnkodbefgpgknn",
        r"(?:^|/)wallet\.dat$",
        "",
    ),
    ("the Active Directory database", r"ntds\.dit", "", r"ntds\.dit"),
    (
        "the SAM/SECURITY/SYSTEM hives",
        r"config[/\\](?:regback[/\\])?(?:sam|security|system)$",
        "",
        r"\\config\\(sam|system|security)\b",
    ),
    ("lsass's memory (passwords and tickets)", "", "", r"\blsass\b"),
    ("password managers' vaults", r"\.kdbx$|(?:^|/)\.password-store", "", ""),
)


def _view(column: int) -> re.Pattern[str]:
    parts = [row[column] for row in CREDENTIAL_STORES if row[column]]
    return re.compile("(?i)" + "|".join(f"(?:{p})" for p in parts))


_CRED_STORE = _view(1)
CREDENTIAL_FILE = _view(2)  # reports: a reader of the store file itself
CREDENTIAL_WINDOWS = _view(3)  # windows.py: ProcDump, wbadmin
_STAGERS = frozenset(
    names(
        """
    cp install rsync ditto zip 7z 7za 7zz rar tar gzip bzip2 xz zstd pax cpio scp
    copy xcopy robocopy copy-item cpi compress-archive esentutl sqlite3 sqlite3.exe
    """
    )
)


# (the same pattern, case-sensitive, for ASCII text lowered first: see `shape.ascii_folded`)
_CRED_STORE_LOW = ascii_folded(_CRED_STORE)


@functools.lru_cache(maxsize=8192)
def credential_store(text: str) -> bool:
    # (a pure function of the text, asked of every operand of every copier and archiver:
    # kept by text, and an ASCII text is searched lowered without IGNORECASE, 2x cheaper)
    text = text.replace("\\ ", " ")
    if _CRED_STORE_LOW is not None and text.isascii():
        return _CRED_STORE_LOW.search(text.lower()) is not None
    return _CRED_STORE.search(text) is not None


def _credential_access(cmd: Cmd) -> str | None:
    n = cmd.name.lower()
    texts = cmd.texts()
    if n in ("dscl", "defaults") and any(t.lower() == "shadowhashdata" for t in texts):
        return f"{cmd.name} reads an account's password hash"
    if n not in _STAGERS:
        return None
    if (
        n == "tar"
        and texts
        and (re.match(r"^-?[a-wyzA-Z]*x", texts[0]) or "--extract" in texts or "--get" in texts)
    ):
        return None  # extracting an archive writes its members, it reads no store
    stores = [t for t in texts if not t.startswith("-") and credential_store(t)]
    if not stores:
        return None
    if n.startswith("sqlite3"):
        return f"sqlite3 queries a credential store ({stores[0]})"
    return f"{cmd.name} copies or archives a credential store ({stores[0]})"


# --- other attack steps rules name ---------------------------------------------------------

# (remote-management enrolment and reverse tunnels to login ports: `remote.py`)


def _other(cmd: Cmd) -> tuple[str, str] | None:
    n = cmd.name.lower().removesuffix(".exe")
    texts = cmd.texts()
    joined = " ".join(texts)
    low = joined.lower()
    if n == "dd" and re.search(r"(?:^|\s)of=/proc/(?:\d+|\$\S+|self|\*)/mem\b", joined):
        return "process-injection", "dd writes into another process's memory"
    if (
        n == "curl"
        and "docker.sock" in low
        and re.search(r"containers/create", low)
        and (re.search(r'"privileged"\s*:\s*true|"binds"\s*:\s*\[\s*"/:', low))
    ):
        return "container-escape", "creates a privileged container through the Docker socket"
    if n == "osascript" and "hidden answer" in low:
        return "credential-prompt", "osascript shows a fake password prompt"
    return None


# (a22) Readers of another process's memory file: `dd if=/proc/$(pidof sshd)/mem`, `head -c N
# /proc/PID/mem | strings`, `cat /proc/PID/mem`: what sshd, ssh-agent, gpg-agent or a keyring
# holds (passwords, keys) copied out. `/proc/self/mem` is the reader's own.
_MEMORY_READERS = frozenset(
    names("dd cat tac head tail strings xxd od hexdump hd cp less more base64 dd.exe")
)
_PROC_MEM = re.compile(r"(?:\A|=)/proc/(?!self/|thread-self/)[^/\n]{1,80}/mem\Z")


def _process_memory(cmd: Cmd) -> str | None:
    n = cmd.name
    is_reader = n in _MEMORY_READERS  # (its row's programs; the dispatcher asks only for them)
    texts = cmd.texts() if is_reader else []
    if not any("/mem" in t for t in texts):
        return None
    for t in texts:
        if t.startswith("of="):
            continue  # (a write into it is `process-injection`)
        if _PROC_MEM.search(t):
            return f"{cmd.name} reads another process's memory ({t.split('=', 1)[-1]})"
    return None


# PowerShell text built from a hex literal two digits at a time (`[char][byte]('0x'+…)`,
# `[Convert]::ToByte(…, 16)`) and handed to Invoke-Expression (DarkSide, round-6 note 9).
_HEX_LITERAL = re.compile(r"['\"]((?:[0-9a-fA-F]{2}){8,})['\"]")
_HEX_DECODER = re.compile(
    r"(?i)\[char\]\s*\[byte\]\s*\(\s*['\"]0x['\"]\s*\+|\[convert\]::tobyte\([^)]*,\s*16\s*\)"
)


def _hex_payload(cmd: Cmd) -> None:
    """Judge the decoded text of hex literals a PowerShell line decodes and executes."""
    if cmd.scope.family != "powershell" or cmd.name not in ("invoke-expression", "iex"):
        return
    src = cmd.scope.source
    if len(src) > 20000 or not _HEX_DECODER.search(src):
        return
    for m in _HEX_LITERAL.finditer(src):
        raw = bytes.fromhex(m.group(1))
        wide = len(raw) > 3 and raw[1::2] == bytes(len(raw) // 2)
        text = raw.decode("utf-16-le", "replace") if wide else raw.decode("latin-1")
        if text.strip() and text.isprintable():
            cmd.scope.include(cmd.scope.nested(text, "powershell", cmd.words[0]))


# --- the families and the programs each can apply to --------------------------------------
# `judge` looks a command's program up once (`registry.program_key`, safety-sp9b's spelling)
# and runs only the families whose `Programs` hold it, in this order (the first that finds
# something decides); a family that tests another program's name adds it to its row.
Family = Callable[[Cmd], "tuple[str, str] | None"]


def _stopped(cmd: Cmd) -> tuple[str, str] | None:
    found = stops_security(cmd)
    if not found:
        return None
    product = security.product_of(found)
    what = f"{found}: {product[0]}" if product else found
    return "disable-security", f"{cmd.name} stops or removes a security component ({what})"


def _as(rule: str, find: Callable[[Cmd], str | None]) -> Family:
    def family(cmd: Cmd) -> tuple[str, str] | None:
        why = find(cmd)
        return (rule, why) if why else None

    family.__name__ = find.__name__
    return family


FAMILIES: tuple[tuple[Programs, Family], ...] = (
    (
        Programs(
            _SERVICE_TOOLS,
            _KILLERS,
            _PS_SERVICE,
            _PACKAGERS,
            names("sc net net1 rpm dpkg wmic schtasks reg reg.exe set-itemproperty"),
            names("new-itemproperty kextunload kmutil"),
        ),
        _stopped,
    ),
    (
        Programs(names("kesl-control ufw-init remove-mppreference certutil esxcli")),
        _as("disable-security", _agent_off),
    ),
    (
        Programs(
            names("dmesg auditctl wevtutil remove-eventlog clear-winevent wmic auditpol esxcli")
        ),
        _as("clear-logs", _log_tampering),
    ),
    (Programs(_STAGERS, names("dscl defaults")), _as("credential-dump", _credential_access)),
    (Programs(names("dd curl osascript")), _other),
    (Programs(_MEMORY_READERS), _as("credential-dump", _process_memory)),
)


@functools.lru_cache(maxsize=4096)
def _families(key: str) -> tuple[Family, ...]:
    """The families that can apply to a program (`program_key` spelling), in table order."""
    return tuple(family for programs, family in FAMILIES if key in programs)


def judge(cmd: Cmd, mark: int) -> None:
    """Raise the command to critical for what the detection rules know and the handlers did
    not see (called after the handler; `mark` is where this command's findings start). Only
    the families that can apply to the command's program run (`FAMILIES`)."""
    if cmd.name in ("invoke-expression", "iex"):
        _hex_payload(cmd)
    families = _families(program_key(cmd.name))
    if not families or cmd.words[0].dynamic:
        return
    if any(f.level >= C for f in cmd.scope.findings[mark:]):
        return  # a handler already asks first: findings are not doubled
    for family in families:
        found = family(cmd)
        if found:
            cmd.add(C, found[0], found[1])
            return
