"""Security products and protections by name: ONE table for every rule that asks "is this a
security component?" (issue 14, safety-debt8).

Stopping, killing, disabling, unloading, uninstalling or deleting one of these blinds
defenders (critical, rule `disable-security`), whatever tool does it. Until session 10 five
tables said this, each with its own names (system.py's process, product and unit patterns,
detections.py's name list, reports.py's name and vendor-word patterns), so a product added to
one was missed by the rules reading another. Every rule now reads `PRODUCTS` through the
matchers below; a product added once is seen by all of them.

A row of `PRODUCTS` is `(what, kind, names, words)`:

- `what` and `kind` say what the product is (the reason a person reads); `kind` is one of
  `KINDS`.
- `names`: its services, processes, daemons, launchd labels, kexts and packages, as regex
  fragments (lower case; `\\w*`/`\\S*` for families of names, `.` matches any one character,
  as the detection rules write them). A name ending in `!` is too common a word to look
  for inside free text (`sense`, `avp`, `santa`): it counts only as a whole operand (and
  `cb.exe`, `repmgr.exe` only with `.exe`: `cb` and PostgreSQL's `repmgr` are not products:
  dropped on purpose as bare names, `pkill -9 cb`, `pkill repmgr` kill other programs).
  Linux's `falco` is named with its own separators (`falco-…`, `falco.…`), so Python's
  Falcon web framework (`falcon_app:app`) is not it.
- `words`: vendor and product words recognised inside longer labels and free text
  (`com.crowdstrike.falcond.plist`, `net stop "Sophos AutoUpdate"`,
  `wmic product where "name like '%Carbon Black%'"`), matched as whole words. A word
  ending in `!` is ambiguous (`falcon`: a web framework; `avg`: an average; `edr`): it
  counts only as a whole operand (`net stop Falcon`), never inside free text
  (`pkill -f "gunicorn falcon_app:app"`, `pkill -f edr-report`).

The matchers:

- `security_name(token)`: a whole operand (a path's last part, `.exe`/`.service`/… dropped;
  reverse-DNS and `unit@instance` parts each count) is a security component's name.
- `security_component(text)`: a security component named anywhere in `text` (a path, a
  label, a command line), or the whole-operand names; returns what was found.
- `security_word(text)`: a vendor word in free text, or None.
- `security_label(text)`: either of the above inside a unit, plist or task label.
"""

from __future__ import annotations

import functools
import re

from aintern_ls.safety.argv import base_name

KINDS = ("endpoint", "protection", "logging", "cloud-agent", "monitoring")

PRODUCTS: tuple[tuple[str, str, str, str], ...] = (
    (
        "Microsoft Defender and Windows security services",
        "endpoint",
        r"""windefend msmpeng mssense nissrv sensecncproxy wdnissvc wdboot wdfilter wdnisdrv
        securityhealthservice securityhealthsystray wscsvc mpssvc mpdefendercoreservice
        sgrmbroker webthreatdefsvc mdcoresvc msmpsvc mpcmdrun windows.defender
        windows.defender.advanced.threat.protection windows-defender\S* windowsfirewall mdatp
        wdavdaemon\w* com.microsoft.wdav\S* sense! bfe! wdfilter defender\w*!""",
        "defender securityhealth",
    ),
    (
        "CrowdStrike Falcon",
        "endpoint",
        r"""csfalcon\w* csagent falcond falcon-sensor falcon_lsm\w*
        falconctl crowdstrike\w* com.crowdstrike\S*""",
        "crowdstrike falcon! csfalcon",
    ),
    (
        "SentinelOne",
        "endpoint",
        r"""sentinelagent sentinelservicehost sentinelstaticengine\w* sentinelhelperservice
        sentinelone sentineld sentinelctl sentinelmemoryscanner com.sentinelone\S*
        sentinel!""",
        "sentinelone",
    ),
    (
        "VMware Carbon Black",
        "endpoint",
        r"""cbdefense\w* cbdaemon cbsensor carbonblack\w* cbagentd cbcomms cbagent
        com.carbonblack\S* cb\.exe! repmgr\.exe!""",
        "carbonblack carbon.?black cbdefense cbagent cb.exe",
    ),
    ("Cylance", "endpoint", r"cylancesvc cylanceui cylance\w*", "cylance"),
    (
        "Sophos",
        "endpoint",
        r"""sophos\w* savservice savadminservice hitmanpro\w* hmpalert swi_service mcsagent
        mcsclient""",
        "sophos savservice",
    ),
    ("ESET", "endpoint", r"ekrn egui esets\w* eset_\w* eraagent eset\w*", "eset ekrn"),
    (
        "Kaspersky",
        "endpoint",
        r"klnagent kesl kesl-control kavfs\w* kaspersky\w* avpui kavfswp avp!",
        "kaspersky klnagent",
    ),
    (
        "McAfee / Trellix",
        "endpoint",
        r"mcshield mfemms mfevtps mfetp masvc macmnsvc mcafee\w* trellix\w* mfeesp mfe\w+",
        "mcafee trellix mcshield mfemms masvc macmnsvc",
    ),
    (
        "Symantec / Norton",
        "endpoint",
        r"""ccsvchst sepmasterservice smcgui smcservice rtvscan symantec\w* norton\w* semsvc
        smc!""",
        "symantec norton ccsvchst",
    ),
    (
        "Trend Micro",
        "endpoint",
        r"ntrtscan tmlisten tmccsf ds_agent coreserviceshell pccntmon tmbmsrv",
        "trend.?micro ds_agent",
    ),
    (
        "Palo Alto Cortex XDR / Traps",
        "endpoint",
        r"cyserver cyveraservice cytray cortex-xdr cortex-?xdr\w* traps_pmd traps\w* traps!",
        "cortex.?xdr cyserver cyveraservice",
    ),
    ("FireEye / Trellix HX", "endpoint", r"xagt fireeye\w*", "fireeye xagt"),
    (
        "Bitdefender",
        "endpoint",
        r"""bdagent vsserv bdservicehost epsecurityservice epprotectedservice bdsec\w*
        bitdefender\w*""",
        "bitdefender bdsec bdagent vsserv",
    ),
    (
        "Cybereason",
        "endpoint",
        r"cybereason\w* minionhost crssvc activeconsole",
        "cybereason minionhost",
    ),
    (
        "Elastic agents and Beats",
        "logging",
        r"""elastic-agent elastic-endpoint auditbeat filebeat winlogbeat packetbeat metricbeat""",
        "elastic-agent filebeat winlogbeat auditbeat",
    ),
    (
        "Splunk forwarders",
        "logging",
        r"splunkd splunkforwarder splunkuniversalforwarder",
        "splunkd splunkforwarder",
    ),
    ("osquery", "monitoring", r"osqueryd osquery\w* com.facebook.osqueryd", "osquery"),
    ("Wazuh / OSSEC", "monitoring", r"wazuh\S* ossec\S* wazuh-agent\w*", "wazuh ossec"),
    ("Sysmon", "logging", r"sysmon sysmon64 sysmondrv sysmon\S*", "sysmon"),
    ("Malwarebytes", "endpoint", r"mbamservice mbamtray malwarebytes\w*", "malwarebytes mbam"),
    ("Webroot", "endpoint", r"wrsa webroot\w*", "webroot"),
    ("Huntress", "endpoint", r"huntressagent huntressupdater huntress\w*", "huntress"),
    ("Raccine", "endpoint", r"raccine\w*", ""),
    ("Avast / AVG", "endpoint", r"avastsvc avgsvc avast\w* avgnt aswbidsagent avg!", "avast avg!"),
    ("Panda", "endpoint", r"psanhost pavsrv\w* panda!", "panda"),
    ("G DATA", "endpoint", r"avkservice gdata\w*", ""),
    ("Qihoo 360", "endpoint", r"360tray zhudongfangyu 360safe\w* 360rp", ""),
    ("F-Secure", "endpoint", r"fsecure\w* fshoster\w*", "f-?secure"),
    (
        "vulnerability and endpoint management agents",
        "monitoring",
        r"""tanium\w* qualys\w* qualys-cloud-agent ir_agent rapid7\w* nessusagent nessus-agent
        com.tenablesecurity\S*""",
        "tanium qualys rapid7 nessus.?agent",
    ),
    (
        "other EDR vendors",
        "endpoint",
        r"deepinstinct\w* harfanglab\w* taegis\w* secureworks\w* comodo!",
        "deepinstinct harfanglab taegis comodo",
    ),
    (
        "Cisco Secure Endpoint / Umbrella",
        "endpoint",
        r"immunetprotect ciscoamp cisco-secure-endpoint com.opendns\S* umbrella!",
        "",
    ),
    (
        "Zscaler / Netskope clients",
        "protection",
        r"zsatunnel zsaservice zscaler\w* stagentsvc netskope\w*",
        "",
    ),
    (
        "macOS protections and security tools",
        "protection",
        r"""lulu com.objective-see\S* blockblock littlesnitch\w* at.obdev.littlesnitch\S* santad
        com.google.santa\S* xprotect\w* com.apple.alf socketfilterfw jamfprotect
        com.jamf.protect\S* endpointsecurity com.apple.iokit.endpointsecurity santa!""",
        "xprotect com\\.apple\\.alf socketfilterfw santa jamf",
    ),
    (
        "Linux audit, integrity and intrusion detection",
        "monitoring",
        r"""auditd falco falco[-.]\S* falcoctl falcosidekick\S* tetragon sysdig\w* tripwire
        rkhunter chkrootkit aide! snort suricata zeek! lkrg crowdsec\w* sshguard""",
        "auditd falco tetragon sysdig rkhunter snort suricata",
    ),
    (
        "antivirus engines",
        "endpoint",
        r"clamd clamd\S* clamav\w* clamav\S* freshclam",
        "clamav clamd antivirus",
    ),
    (
        "firewalls and mandatory access control",
        "protection",
        r"""fail2ban\w* fail2ban-server apparmor selinux firewalld ufw ufw-init iptables
        ip6tables nftables ebtables arptables""",
        "firewall apparmor selinux fail2ban",
    ),
    (
        "system and audit logging",
        "logging",
        r"""td-agent fluentd fluent-bit rsyslogd? rsyslog syslog-ng systemd-journald eventlog
        wecsvc appidsvc applockerfltr nxlog syslogd logd""",
        "rsyslog syslog-ng systemd-journald nxlog",
    ),
    (
        "cloud hosts' security agents (Alibaba Aegis, Tencent YunJing, Huawei HostGuard)",
        "cloud-agent",
        r"""aegis aegis\S* aliyundun\w* alihips alinet alisecguard aliyun-service aliyun\S*
        ydservice yunjing\S* hostguard\S* hss\S* bcm-agent barad_agent stargate qcloud\w*""",
        "aegis yunjing qcloud aliyun",
    ),
    ("generic endpoint security", "endpoint", r"edr!", "edr! antivirus"),
)


def _names(products: tuple[tuple[str, str, str, str], ...], strong: bool) -> tuple[str, ...]:
    out = [
        n.rstrip("!")
        for _what, _kind, names, _words in products
        for n in names.split()
        if n.endswith("!") == strong
    ]
    return tuple(dict.fromkeys(out))


_SUFFIX = r"(?:\.exe|\.service|\.plist|\.kext|\.sys|\.socket|\.timer)"
NAMES: tuple[str, ...] = ()  # found anywhere in a text
TOKENS: tuple[str, ...] = ()  # whole operands only
WORDS: tuple[str, ...] = ()  # vendor words
WORD_TOKENS: tuple[str, ...] = ()  # ambiguous vendor words: whole operands only
_NAME_FULL = _NAME_SEARCH = _WORD_SEARCH = re.compile("(?!)")


def rebuild() -> None:
    """Compile the matchers from `PRODUCTS` (at import; again after `PRODUCTS` changes)."""
    global NAMES, TOKENS, WORDS, WORD_TOKENS, _NAME_FULL, _NAME_SEARCH, _WORD_SEARCH
    NAMES = _names(PRODUCTS, False)
    TOKENS = _names(PRODUCTS, True)
    every = [w for p in PRODUCTS for w in p[3].split()]
    WORDS = tuple(dict.fromkeys(w for w in every if not w.endswith("!")))
    WORD_TOKENS = tuple(dict.fromkeys(w.rstrip("!") for w in every if w.endswith("!")))
    _NAME_FULL = re.compile(rf"(?:{'|'.join(NAMES + TOKENS)}){_SUFFIX}?")
    _NAME_SEARCH = re.compile(rf"(?<![a-z0-9])(?:{'|'.join(NAMES)}){_SUFFIX}?(?![a-z0-9])")
    _WORD_SEARCH = re.compile(rf"(?<![a-z0-9])(?:{'|'.join(WORDS)})(?![a-z0-9])")
    for f in (security_name, security_component, security_word, security_in_text):
        f.cache_clear()


def _clean(text: str) -> str:
    return base_name(text.strip()).lower()


@functools.lru_cache(maxsize=4096)
def security_name(text: str) -> bool:
    """Whether an operand names a security component as a whole (`WinDefend`,
    `MsMpEng.exe`, `falcon-sensor`, `com.crowdstrike.falcond.plist`, `sense`)."""
    t = _clean(text)
    if not t:
        return False
    if _NAME_FULL.fullmatch(t):
        return True
    return any(_NAME_FULL.fullmatch(part) for part in re.split(r"[.@]", t) if part)


@functools.lru_cache(maxsize=4096)
def security_component(text: str) -> str | None:
    """The security component named in `text` (a service, process, launchd label, kext, a
    path to one, or a command line), or None."""
    low = text.lower().strip("'\"")
    m = _NAME_SEARCH.search(low)
    if m:
        return m.group(0)
    return _clean(text) if security_name(text) else None


@functools.lru_cache(maxsize=4096)
def security_word(text: str) -> str | None:
    """A security vendor's or product's word in free text (`Sophos AutoUpdate`,
    `'%Carbon Black%'`), or None."""
    m = _WORD_SEARCH.search(text.lower())
    if m:
        return m.group(0)
    whole = text.strip().strip("'\"").strip().lower()
    return whole if whole in WORD_TOKENS else None


@functools.lru_cache(maxsize=4096)
def security_in_text(text: str) -> str | None:
    """A security component named inside free text (a `pkill -f` pattern, a command line),
    without the whole-operand names (`avg`, `edr`, `sense`: common words there)."""
    m = _NAME_SEARCH.search(text.lower())
    return m.group(0) if m else None


def free_text_pattern(name: str, low: list[str]) -> bool:
    """Whether a process killer matches its operands against whole command lines
    (`pkill -f PATTERN`, `pkill -9f …`, `killall -r REGEX`): there the operand is free text,
    and a whole-operand name (`avg`, `edr`, `sense`) is a common word, not a product."""
    return name in ("pkill", "killall") and any(
        t in ("-f", "--full", "-r", "--regexp") or re.fullmatch(r"-[a-z0-9]*f[a-z0-9]*", t)
        for t in low
    )


def security_label(text: str) -> str | None:
    """A security component or vendor named inside a unit, plist, task or service label."""
    return security_component(text) or security_word(text)


rebuild()


def product_of(text: str) -> tuple[str, str] | None:
    """`(what, kind)` of the first product whose names or words `text` holds, or None."""
    low = text.lower()
    for what, kind, names, words in PRODUCTS:
        alts = [n.rstrip("!") for n in names.split()] + words.split()
        if re.search(rf"(?<![a-z0-9])(?:{'|'.join(alts)})", low):
            return what, kind
    return None
