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

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import C
from aintern_ls.safety.paths import LOG_DIR
from aintern_ls.safety.registry import Programs, program_key
from aintern_ls.safety.words import names

# --- security components ---------------------------------------------------------------

# Names that are unambiguous anywhere in a command line (service, process, daemon, launchd
# label, kext, package), from the product lists of Sigma's security-tool rules
# (proc_creation_win_wmic_uninstall_security_products, …_taskkill_sep,
# …_reg_disable_sec_services, lnx_security_tools_disabling, macos_disable_security_tools),
# Splunk's security_services_lookup and Elastic's endpoint-tampering rules.
_SECURITY_NAMES = r"""
windefend msmpeng mssense nissrv wdnissvc wdboot wdfilter wdnisdrv securityhealthservice
securityhealthsystray wscsvc mpssvc mpdefendercoreservice sgrmbroker webthreatdefsvc mdcoresvc
msmpsvc mpcmdrun windows.defender windows.defender.advanced.threat.protection
csfalconservice csfalconcontainer csagent falcond falcon-sensor falcon_lsm\w* falconctl
crowdstrike\w* com.crowdstrike\S*
sentinelagent sentinelservicehost sentinelstaticengine\w* sentinelhelperservice sentinelone
sentineld sentinelctl com.sentinelone\S*
cbdefense\w* cbdaemon cbsensor carbonblack\w* cbagentd com.carbonblack\S*
cylancesvc cylanceui cylance\w*
sophos\w* savservice hitmanpro\w* swi_service
ekrn egui esets\w* eset_\w* eraagent
klnagent kesl kesl-control kavfs\w* kaspersky\w* avpui kavfswp
mcshield mfemms mfevtps mfetp masvc macmnsvc mcafee\w* trellix\w* mfeesp
ccsvchst sepmasterservice smcgui rtvscan symantec\w* norton\w* semsvc
ntrtscan tmlisten tmccsf ds_agent coreserviceshell pccntmon tmbmsrv
cyserver cyveraservice cytray cortex-xdr traps_pmd
xagt fireeye\w*
bdagent vsserv bdservicehost epsecurityservice epprotectedservice bdsec\w* bitdefender\w*
cybereason\w* minionhost crssvc activeconsole
elastic-agent elastic-endpoint auditbeat filebeat winlogbeat packetbeat metricbeat
splunkd splunkforwarder splunkuniversalforwarder
osqueryd osquery\w* com.facebook.osqueryd
wazuh\S* ossec\S*
sysmon sysmon64 sysmondrv
mbamservice mbamtray malwarebytes\w*
wrsa webroot\w*
huntressagent huntressupdater huntress\w*
mdatp wdavdaemon\w* com.microsoft.wdav\S*
raccine\w*
avastsvc avgsvc avast\w* avgnt
psanhost pavsrv
avkservice gdata\w*
360tray zhudongfangyu 360safe\w* 360rp
tanium\w* qualys\w* ir_agent rapid7\w* nessusagent nessus-agent com.tenablesecurity\S*
deepinstinct\w* harfanglab\w* taegis\w* secureworks\w*
immunetprotect ciscoamp cisco-secure-endpoint
zsatunnel zsaservice zscaler\w* stagentsvc netskope\w*
lulu com.objective-see\S* blockblock littlesnitch\w* at.obdev.littlesnitch\S* santad
com.google.santa\S* xprotect\w* com.apple.alf socketfilterfw com.opendns\S* jamfprotect
com.jamf.protect\S* endpointsecurity com.apple.iokit.endpointsecurity
auditd falcoctl tetragon sysdig\w* tripwire rkhunter chkrootkit clamd clamav\w* freshclam
fail2ban\w* crowdsec\w* apparmor selinux firewalld ufw ufw-init iptables ip6tables nftables
ebtables arptables snort suricata zeek lkrg aegis aliyundun\w* ydservice yunjing\w*
hostguard\w* td-agent fluentd fluent-bit rsyslogd? syslog-ng systemd-journald auditbeat
eventlog wecsvc appidsvc applockerfltr
"""
# Windows Update's services: stopping one for a while is an ordinary service stop
# (dangerous); turning one off for good (start type disabled) stops security patches.
_UPDATE_SERVICES = frozenset(names("wuauserv usosvc waasmedicsvc bits dosvc"))
# Names too common to search for inside free text; they count only as a whole operand.
_SECURITY_TOKENS = frozenset(
    names("sense avp smc traps santa aide falco zeek umbrella panda comodo")
)
_SECURITY_RE = re.compile(
    r"(?<![a-z0-9])(?:"
    + "|".join(_SECURITY_NAMES.split())
    + r")(?:\.exe|\.service|\.plist|\.kext|\.sys)?(?![a-z0-9])",
)
_SUFFIX = re.compile(r"(?i)\.(exe|service|plist|kext|sys|socket|timer)$")


@functools.lru_cache(maxsize=4096)
def security_component(text: str) -> str | None:
    """The security product, protection or log shipper `text` names (a service, process,
    launchd label, kext or a path to one), or None."""
    low = text.lower().strip("'\"")
    m = _SECURITY_RE.search(low)
    if m:
        return m.group(0)
    base = _SUFFIX.sub("", low.replace("\\", "/").rsplit("/", 1)[-1])
    return base if base in _SECURITY_TOKENS else None


def _like_security(text: str) -> str | None:
    """A WMI `like '%carbon%'` / wildcard filter that picks out security products."""
    for raw in re.findall(r"%([a-z0-9 .-]{4,})%", text.lower()):
        core = str(raw).strip()
        if core in ("endpoint", "malware", "antivirus", "security", "defender", "protection"):
            return core
        if _SECURITY_RE.search(core) or any(
            n.split("\\")[0].startswith(core.replace(" ", "")) for n in _SECURITY_NAMES.split()
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
    stop-service set-service remove-service suspend-service uninstall-package uninstall-module
    disable-scheduledtask unregister-scheduledtask remove-itemproperty remove-item
    """
    )
)


def _stops_security(cmd: Cmd) -> str | None:
    """What a command that stops, disables, unloads, uninstalls or deletes a security
    component names, or None."""
    n = cmd.name.lower().removesuffix(".exe")
    texts = [t for t in cmd.texts()]
    low = [t.lower() for t in texts]
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
        return next((s for t in [*texts, whole] if (s := security_component(t))), None)
    if n in ("sc", "net", "net1") and low:
        verb = low[1] if n == "sc" and len(low) > 1 and low[0].startswith("\\\\") else low[0]
        rest = texts[2:] if n == "sc" and low[0].startswith("\\\\") else texts[1:]
        disables = n == "sc" and verb == "config" and re.search(r"start=\s*disabled", " ".join(low))
        if (
            verb in ("stop", "delete", "pause")
            or disables
            or (
                n == "sc"
                and verb == "config"
                and re.search(r"start=\s*(disabled|demand)", " ".join(low))
            )
        ):
            if disables and rest[:1] and rest[0].lower() in _UPDATE_SERVICES:
                return rest[0]
            return next((s for t in rest[:1] if (s := security_component(t))), None)
        return None
    if n == "wmic":
        joined = " ".join(low)
        if re.search(r"\bcall\s+(terminate|delete|uninstall|stopservice|changestartmode)", joined):
            return _like_security(joined) or next(
                (s for t in texts if "=" in t and (s := security_component(t))), None
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
        return next((s for t in texts if (s := security_component(t))), None)
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


_DATE_OPTS = frozenset({"-d", "-t", "-r", "--date", "--reference", "--time"})
_SYSTEM_PLACES = re.compile(
    r"^(?:/etc|/usr|/bin|/sbin|/lib\w*|/boot|/var/spool/cron|/var/log|/library/launch\w+"
    r"|/system|/private/var/log|/library/logs|[a-z]:/windows)(?:/|$)"
)


def _timestomp(cmd: Cmd) -> str | None:
    if cmd.name != "touch":
        return None
    if not any(t in _DATE_OPTS or t.startswith(("--date=", "--reference=")) for t in cmd.texts()):
        return None
    with_value = frozenset({"-d", "-t", "-r"})
    for w in cmd.operands(with_value):
        p = w.text.replace("\\", "/").lower()
        if LOG_DIR.match(p.rsplit("/", 1)[0]) or _SYSTEM_PLACES.match(p):
            return f"touch back-dates {w.text} (hides when a log or system file changed)"
    return None


# --- credentials ---------------------------------------------------------------------------

# Stores of credentials: password hashes, keychains, browser logins and cookies, wallets, the
# AD database and the SAM/SECURITY/SYSTEM hives, macOS account plists (ShadowHashData).
_CRED_STORE = re.compile(
    r"(?i)(?:^|[/\\])(?:shadow|gshadow|master\.passwd|opasswd)$|/etc/(?:g?shadow|security/opasswd)"
    r"|(?:^|[/\\])keychains(?:[/\\]|$)|\.keychain(?:-db)?$|login data|web data"
    r"|(?:^|[/\\])cookies(?:\.sqlite)?$"
    r"|logins\.json|key[34]\.db|signons\.sqlite|local state|wallet\.dat|exodus|electrum"
    r"|ledger live|metamask|nkbihfbeogaeaoehlefnkodbefgpgknn|ntds\.dit"
    r"|config[/\\](?:regback[/\\])?(?:sam|security|system)$|dslocal/nodes/default/users"
    r"|shadowhashdata|\.kdbx$|(?:^|/)\.password-store"
)
_STAGERS = frozenset(
    names(
        """
    cp install rsync ditto zip 7z 7za 7zz rar tar gzip bzip2 xz zstd pax cpio scp
    copy xcopy robocopy copy-item cpi compress-archive esentutl sqlite3 sqlite3.exe
    """
    )
)


def credential_store(text: str) -> bool:
    return bool(_CRED_STORE.search(text.replace("\\ ", " ")))


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

_REMOTE_LOGIN_PORTS = r"(?:3389|22|5900|5985|5986|445|135)"


# Remote management agents told to enrol this machine with an account or server, or to
# accept unattended connections with a password set on the command line (LOLRMM; Sigma's
# proc_creation_lnx_ssm_agent_abuse, …_anydesk_piped_password_via_cli): someone else
# controls the machine from then on.
def _remote_admin_enrolment(name: str, low: str) -> bool:
    base = name.removesuffix(".exe")
    if base == "amazon-ssm-agent":
        return "-register" in low and "-code" in low
    if base == "anydesk":
        return bool(re.search(r"--set-password|--register-license|--install\b", low))
    if base == "teamviewer":
        return bool(re.search(r"\bassign\b.*--api-token|--grant-easy-access|setup\b.*--api", low))
    if base == "rustdesk":
        return bool(re.search(r"--password\b|--config\b|--option\b", low))
    if base in ("meshagent", "meshagent64"):
        return bool(re.search(r"-install|-fullinstall|--installedby", low))
    if base.startswith("screenconnect.clientservice") or base.startswith("connectwisecontrol"):
        return "h=" in low and "k=" in low
    return False


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
    if n in ("ssh", "plink", "klink"):
        for i, t in enumerate(texts):
            spec = (
                texts[i + 1] if t == "-R" and i + 1 < len(texts) else t[2:] if t[:2] == "-R" else ""
            )
            if spec and re.search(rf"(?:^|:){_REMOTE_LOGIN_PORTS}$", spec):
                return (
                    "remote-access",
                    f"{cmd.name} -R opens this machine's remote login to another host",
                )
    if _remote_admin_enrolment(n, low):
        return "remote-access", f"{cmd.name} enrols this machine in someone's remote management"
    if n == "osascript" and "hidden answer" in low:
        return "credential-prompt", "osascript shows a fake password prompt"
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


# Every program the rules below can name (`registry.Programs`: `judge` skips the others at
# once; safety-sp9b). A rule that tests another program's name adds it here.
_JUDGED = Programs(
    _SERVICE_TOOLS,
    _KILLERS,
    _PS_SERVICE,
    names("sc net net1 wmic schtasks reg reg.exe set-itemproperty new-itemproperty"),
    names("kextunload kmutil kesl-control ufw-init remove-mppreference certutil esxcli"),
    names("dmesg auditctl wevtutil remove-eventlog clear-winevent auditpol touch dscl defaults"),
    _STAGERS,
    names("dd curl ssh plink klink osascript amazon-ssm-agent anydesk teamviewer rustdesk"),
    names("meshagent meshagent64 amazon-ssm-agent.exe anydesk.exe teamviewer.exe rustdesk.exe"),
    names("meshagent.exe meshagent64.exe"),
    prefixes=("screenconnect.clientservice", "connectwisecontrol"),
)


def judge(cmd: Cmd, mark: int) -> None:
    """Raise the command to critical for what the detection rules know and the handlers did
    not see (called after the handler; `mark` is where this command's findings start)."""
    _hex_payload(cmd)
    if program_key(cmd.name) not in _JUDGED:
        return
    if (
        max((f.level for f in cmd.scope.findings[mark:]), default=None) is not None
        and max(f.level for f in cmd.scope.findings[mark:]) >= C
    ):
        return
    if cmd.words[0].dynamic:
        return
    found = _stops_security(cmd)
    if found:
        cmd.add(
            C, "disable-security", f"{cmd.name} stops or removes a security component ({found})"
        )
        return
    why = _agent_off(cmd)
    if why:
        cmd.add(C, "disable-security", why)
        return
    why = _log_tampering(cmd)
    if why:
        cmd.add(C, "clear-logs", why)
        return
    why = _timestomp(cmd)
    if why:
        cmd.add(C, "timestomp", why)
        return
    why = _credential_access(cmd)
    if why:
        cmd.add(C, "credential-dump", why)
        return
    other = _other(cmd)
    if other:
        cmd.add(C, other[0], other[1])
