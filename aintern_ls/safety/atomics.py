"""Knowledge from the atomic-red-team walk (issue 14, safety-art6) that fits no other module.

- Well-known credential-dumping and post-exploitation tools, run by name, by path, or as
  the script an interpreter runs (`python2 laZagne.py all`, `.\\mimikatz.exe …`,
  `Invoke-Mimikatz`): what they do is known from their name, whatever their arguments.
- Setting the system clock (`date 010100001971`, `date -s`, `timedatectl set-time`,
  `Set-Date`, cmd's `date 01-01-70`): timestomping by moving the clock, and everything
  that trusts time (TLS, Kerberos, logs, schedules) with it.
- Preloading a library through the environment (`LD_PRELOAD=/tmp/x.so ls`): the library's
  code runs inside the program before its own.
- FreeBSD's `sysrc`, which edits rc.conf: `NAME_enable=YES` starts a service at boot.

`judge(cmd)` is called by the dispatcher for every simple command before its handler.
"""

from __future__ import annotations

import functools
import itertools
import re

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import C, D, M, RiskLevel
from aintern_ls.safety.registry import handles
from aintern_ls.safety.words import names

# Tools whose only job is to take credentials or to attack a domain: the name says it all.
# (procdump, rundll32 comsvcs and reg save are judged by their arguments elsewhere.)
_OFFENSIVE = re.compile(
    r"(?i)^(?:[a-z0-9]+[-_])?(?:lazagne|mimikatz|mimilib|mimidrv|pypykatz|secretsdump|lsassy|nanodump|handlekatz"
    r"|dumpert|safetykatz|bettersafetykatz|sharpkatz|rubeus|kekeo|sharpdpapi|sharpchrome"
    r"|sharpweb|gsecdump|pwdump\d*|fgdump|wce|mimipenguin|3snake|cachedump|creddump\d*"
    r"|hashdump|lsadump|invoke-mimikatz|invoke-kerberoast|invoke-dcsync|invoke-powerdump"
    r"|invoke-ninjacopy|invoke-internalmonologue|invoke-sessiongopher"
    r"|invoke-rubeus|get-gpppassword|get-lsasecret|get-passhashes|export-aadint\w*"
    r"|out-minidump|ntlmrelayx"
    r"|impacket-\w+|getuserspns|getnpusers|dcsync|winpwn|powersploit|nishang)"
    r"(?:[-_.]?\d[\w.]*)?(?:\.(?:exe|py|ps1|psm1|pl|rb|jar|dll|sh|bin))?$"
)
# Tools whose job is to turn antivirus/EDR off (Defender Control, BYOVD process killers).
_AV_KILLER = re.compile(
    r"(?i)^(?:defendercontrol|dcontrol|defender_control|disable-?defender|nodefender|backstab(?:64)?"
    r"|killav|edrsandblast|edrkillshifter|edrsilencer|spyboy|(?:invoke-)?phant0m|gmer(?:64)?|pchunter(?:64)?)"
    r"(?:[-_.](?:x?64|x86|amd64|win(?:32|64)?|\d[\w.]*))*(?:\.(?:exe|ps1|sys))?$"
)
# Programs that run a script or module named by their operands.
_RUNNERS = re.compile(
    r"(?i)^(?:python[\d.]*|pypy[\d.]*|perl|ruby|php[\d.]*|node|bun|deno|java|wine|mono|dotnet"
    r"|powershell(?:\.exe)?|pwsh(?:\.exe)?|cscript(?:\.exe)?|wscript(?:\.exe)?|bash|sh|zsh"
    r"|import-module|ipmo|\.|source|invoke-expression|iex|start-process|saps|start"
    r"|rundll32(?:\.exe)?|regsvr32(?:\.exe)?|execute-assembly|uv|pipx|poetry)$"
)


def _base(text: str) -> str:
    """The last path component (after `/` or `\\`), quotes and trailing separators off."""
    t = text.strip("'\"").rstrip("\\/")
    return t[max(t.rfind("/"), t.rfind("\\")) + 1 :]


@functools.lru_cache(maxsize=4096)
def _attack_name(name: str) -> bool:
    """An attack tool's or AV killer's name (the same few program names recur in a text:
    one lookup each, not two large alternations per command)."""
    return bool(_OFFENSIVE.match(name) or _AV_KILLER.match(name))


@functools.lru_cache(maxsize=4096)
def _runner_name(name: str) -> bool:
    return bool(_RUNNERS.match(name))


def _offensive_tool(cmd: Cmd) -> bool:
    if cmd.words[0].dynamic:
        return False
    head = _base(cmd.words[0].text)
    hits = [cmd.words[0]] if _attack_name(head) else []
    if not hits and (_runner_name(head) or _runner_name(cmd.name)):
        hits = [
            w
            for w in cmd.args
            if not w.dynamic
            and not w.text.startswith("-")
            and (_OFFENSIVE.match(_base(w.text)) or _AV_KILLER.match(_base(w.text)))
        ][:1]
    if not hits:
        return False
    if _AV_KILLER.match(_base(hits[0].text)):
        cmd.add(C, "disable-security", f"{_base(hits[0].text)} turns antivirus/EDR off", hits[0])
        return True
    cmd.add(
        C,
        "credential-tool",
        f"{_base(hits[0].text)} is a credential-dumping or attack tool",
        hits[0],
    )
    return True


# `date MMDDhhmm[[CC]YY][.ss]` (GNU and BSD), `date 2019-01-01` (busybox, cmd).
_CLOCK_VALUE = re.compile(
    r"^(?:\d{8}(?:\d{2}|\d{4})?(?:\.\d{2})?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4})$"
)


def _clock(cmd: Cmd) -> bool:
    n = cmd.name.lower()
    texts = cmd.texts()
    family = cmd.scope.family
    if n == "date" and family == "bash":
        sets = (
            cmd.short("s")
            or cmd.long("--set")
            or any(_CLOCK_VALUE.match(t) for t in texts if not t.startswith(("+", "-")))
        )
    elif n == "date" and family == "cmd":
        sets = any(t and not t.startswith("/") for t in texts)
    elif n == "time" and family == "cmd":
        sets = any(re.match(r"^\d{1,2}:\d{2}", t) for t in texts)
    elif n == "timedatectl":
        sets = "set-time" in texts
    elif n == "hwclock":
        sets = cmd.long("--set") or cmd.has("--systz")
    elif n == "set-date":
        sets = True
    else:
        return False
    if sets:
        cmd.add(D, "clock-set", f"{n} sets the system clock (timestamps, TLS, schedules follow it)")
    return sets


def _history_off(cmd: Cmd) -> None:
    """`set +o history`: this shell stops recording what it runs (bash)."""
    texts = cmd.texts()
    if cmd.name == "set" and any(
        a == "+o" and b == "history" for a, b in itertools.pairwise(texts)
    ):
        cmd.add(M, "history", "turns off shell history for this session")


# The files that hold password hashes: the SAM/SECURITY/SYSTEM hives (also inside a shadow
# copy) and the domain database.
_HIVE = re.compile(
    r"(?i)(?:^|[\\/])(?:system32[\\/]config[\\/](?:sam|security|system)|ntds[\\/]ntds\.dit|ntds\.dit)"
    r"(?:$|[\\/\s\"'])"
)
_COPIERS = frozenset(
    names(
        """
        copy xcopy robocopy esentutl esentutl.exe copy-item cpi cp certutil certutil.exe
        makecab expand compress-archive 7z 7za rar tar move-item move ntdsutil diskshadow
        wbadmin
        """
    )
)


def _credential_copy(cmd: Cmd) -> bool:
    """`esentutl /y /vss …\\config\\SAM`, `copy …\\HarddiskVolumeShadowCopy1\\…\\SAM`,
    `certutil -exportPFX …`: password hashes or a private key copied out."""
    name = cmd.name.lower()
    texts = cmd.texts()
    if name in ("certutil", "certutil.exe") and any(
        t.lower().lstrip("-/") == "exportpfx" for t in texts
    ):
        cmd.add(C, "credential-dump", "certutil exports a certificate with its private key")
        return True
    if name in _COPIERS and any(_HIVE.search(t.replace("/", "\\")) for t in texts):
        cmd.add(C, "credential-dump", f"{name} copies a hive or database of password hashes")
        return True
    return False


def _web_logging_off(cmd: Cmd) -> bool:
    """IIS: `appcmd set config … /section:httplogging /dontLog:true`, the same through
    `Set-WebConfigurationProperty … -Name dontLog -Value True`: requests stop being logged."""
    name = cmd.name.lower().removesuffix(".exe")
    text = " ".join(cmd.texts()).lower()
    if name.endswith("appcmd") and re.search(r"dontlog:\s*true|logfile\.enabled:\s*false", text):
        cmd.add(C, "disable-security", "appcmd turns IIS request logging off")
        return True
    if name == "set-webconfigurationproperty" and re.search(
        r"\bdontlog\b.*\b(true|1)\b|logfile.*enabled.*\b(false|0)\b", text
    ):
        cmd.add(C, "disable-security", f"{name} turns IIS request logging off")
        return True
    return False


def _windows_hooks(cmd: Cmd) -> bool:
    """cmd's `ftype`/`assoc` (what runs when a file type opens), ETW providers removed from
    an autologger, local/domain accounts disabled."""
    name = cmd.name.lower()
    family = cmd.scope.family
    if family == "cmd" and name in ("ftype", "assoc") and any("=" in t for t in cmd.texts()):
        cmd.add(C, "persistence", f"{name} changes the program that opens a file type")
        return True
    if family == "powershell" and name in ("remove-etwtraceprovider", "set-etwtraceprovider"):
        cmd.add(C, "disable-security", f"{name} changes what an event-log session records")
        return True
    if family == "powershell" and re.fullmatch(
        r"(disable|remove)-(antiphish|safelinks|safeattachment|malwarefilter|hostedcontentfilter)rule",
        name,
    ):
        cmd.add(C, "disable-security", f"{name} turns off a mail protection rule")
        return True
    if family == "powershell" and name in ("remove-service", "stop-service", "suspend-service"):
        from aintern_ls.safety.system import _SECURITY_PRODUCT, SECURITY_UNITS

        ops = [t for t in cmd.texts() if not t.startswith("-")]
        if any(SECURITY_UNITS.match(t) or _SECURITY_PRODUCT.search(t) for t in ops):
            cmd.add(C, "disable-security", f"{name} stops or removes a security service")
            return True
    if family == "powershell" and name in ("disable-localuser", "disable-adaccount"):
        cmd.add(C, "account", f"{name} locks an account out")
        return True
    return False


def _attack_simulation(cmd: Cmd) -> bool:
    """Attack simulators told to carry a technique out for real: Stratus Red Team's
    `detonate` (against a live cloud account), Atomic Red Team's `Invoke-AtomicTest` (runs
    the tests, unless it only shows or checks them)."""
    name = _base(cmd.words[0].text).lower() if not cmd.words[0].dynamic else ""
    if name not in ("stratus", "stratus.exe") and cmd.name.lower() != "invoke-atomictest":
        return False  # (checked first: lower-casing every argument of every command is not free)
    texts = [t.lower() for t in cmd.texts()]
    if name in ("stratus", "stratus.exe") and texts[:1] == ["detonate"]:
        cmd.add(C, "attack-simulation", "stratus detonate carries out an attack technique")
        return True
    if cmd.name.lower() == "invoke-atomictest" and not any(
        t.startswith(("-showdetails", "-checkprereqs", "-getprereqs", "-cleanup")) for t in texts
    ):
        cmd.add(C, "attack-simulation", "Invoke-AtomicTest runs attack techniques on this machine")
        return True
    return False


def judge(cmd: Cmd) -> None:
    """Knowledge that applies whatever handler the program has (called before it runs)."""
    if _attack_simulation(cmd):
        return
    if _offensive_tool(cmd) or _credential_copy(cmd):
        return
    if cmd.scope.family != "bash" and (_windows_hooks(cmd) or _web_logging_off(cmd)):
        return
    if not _clock(cmd) and cmd.scope.family == "bash":
        _history_off(cmd)


# Library folders a preload may name without being an unknown library: the system's own.
_SYSTEM_LIBS = re.compile(
    r"^(?:/usr(?:/local)?/lib(?:32|64|exec)?|/lib(?:32|64)?|/opt/homebrew/lib|/usr/lib/[\w-]+"
    r"|/System/Library|/Library/Frameworks)/[^/]+(?:/[^/]+)*\.(?:so(?:\.\d+)*|dylib)$"
)


def preload_risk(name: str, value: str, dynamic: bool) -> tuple[RiskLevel, str, str] | None:
    """`LD_PRELOAD=…`, `DYLD_INSERT_LIBRARIES=…`, `LD_AUDIT=…` for one command: a library
    the dynamic loader runs inside the program first. One from the system's library folders
    is an ordinary hook (moderate); anything else (a temp file, a relative path, a value
    only known at run time) runs code the analyser cannot see (critical)."""
    if name not in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "LD_AUDIT"):
        return None
    libs = [p for p in re.split(r"[:\s]+", value) if p]
    if not dynamic and libs and all(_SYSTEM_LIBS.match(p) for p in libs):
        return M, "env-hook", f"{name} loads a system library into the program"
    return C, "preload", f"{name} loads {value or 'a library'} into the program before its own code"


@handles("sysrc")
def _sysrc(cmd: Cmd) -> None:
    """FreeBSD `sysrc NAME=VALUE` edits /etc/rc.conf; `NAME_enable=YES` starts a service at
    every boot (persistence), `=NO` on a security service turns it off."""
    from aintern_ls.safety.system import SECURITY_UNITS

    sets = [t for t in cmd.texts() if "=" in t and not t.startswith("-")]
    if not sets and not cmd.short("x"):
        return  # `sysrc sshd_enable`, `sysrc -a`: print values
    for t in sets:
        key, _, value = t.partition("=")
        service = re.sub(r"_(enable|flags)$", "", key.rstrip("+-"))
        off = value.strip("'\"").lower() in ("no", "false", "off", "0")
        if key.endswith("_enable") and off and SECURITY_UNITS.match(service):
            cmd.add(C, "disable-security", f"sysrc turns off {service} at boot")
            return
        if key.endswith("_enable") and not off:
            cmd.add(C, "persistence", f"sysrc makes {service} start at every boot")
            return
    cmd.add(M, "system-config", "sysrc changes /etc/rc.conf")


@handles("arp", "kldstat")
def _net_tables(cmd: Cmd) -> None:
    """`arp -a`, `kldstat`: print tables; `arp -d/-s/-f` change the ARP cache."""
    if cmd.name == "arp" and cmd.short("dsfS"):
        cmd.add(M, "network", "arp changes the address cache")


@handles("nbtstat", windows_only=True)
def _nbtstat(cmd: Cmd) -> None:
    """`nbtstat -n/-a/-c/-s`: NetBIOS tables; `-R`/`-RR` purge or re-register names."""
    if any(t in ("-R", "-RR", "/R", "/RR") for t in cmd.texts()):
        cmd.add(M, "network", "nbtstat purges or re-registers NetBIOS names")


@handles("appcmd", "appcmd.exe", windows_only=True)
def _appcmd(cmd: Cmd) -> None:
    """IIS `appcmd`: `list`/`search` print configuration; other verbs change the server
    (turning request logging off is caught by `judge`)."""
    verb = next((t.lower() for t in cmd.texts() if not t.startswith(("/", "-"))), "")
    if verb not in ("list", "search", "/?", ""):
        cmd.add(M, "system-config", f"appcmd {verb} changes the IIS configuration")
