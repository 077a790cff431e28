# ruff: noqa: E501  (rule tables and rows: one pattern or row per line reads best)
"""Atomic Red Team walk: `python -m bench.art6_walk [--write] [--score] [--misses tune|dev]`.

Turns atomic-red-team tests (``atomics/T*/T*.yaml``) into labelled corpus rows for
``tests/safety/sources_art6.tsv``:

1. The catalogue text is not part of the repository (and the library it came from is not
   reachable from CI). ``bench/data/art6/*.txt`` (gitignored) holds, per atomic test, what
   the YAML says: technique, test number, ``executor.name``, the ``input_arguments``
   defaults and ``executor.command`` verbatim, in this form::

       === T1485 3 command_prompt [whole]
       @name=default
       command line 1
       command line 2

2. Defaults are substituted for ``#{name}``; the command is split into the statements a
   person would paste (one line each, except where a construct spans lines: a heredoc,
   an open brace/paren, ``if … fi``, PowerShell here-strings; consecutive lines writing to
   the same file are one action; ``whole`` keeps the test as one row). The executor maps
   to a shell (``sh``/``bash`` -> bash, ``command_prompt`` -> cmd, ``powershell``).
3. Each statement is LABELLED by the written rules in ``RULES`` (first match wins; they
   encode DESIGN §5 and the HELPERS.md label conventions, by what the command does),
   then ``MANUAL`` corrects the statements whose technique and action disagree; every
   manual correction is noted in the source column.
4. The split is by TECHNIQUE, decided by a hash of the technique id before any result is
   seen: ``dev`` when ``sha256(id)[0] % 3 == 0`` (about a third), else ``tune``.

``OWN_ROWS`` are rows written here (``art6-own:``): other spellings and programs of an
action a fix covers, and look-alikes that must stay low.

``--score`` prints blocked recall, blocked-or-critical recall, safe rated >= dangerous and
exact agreement for tune and dev (atomics and own rows separately), per technique family.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "bench" / "data" / "art6"
OUT = ROOT / "tests" / "safety" / "sources_art6.tsv"
SHELLS = {"sh": "bash", "bash": "bash", "command_prompt": "cmd", "powershell": "powershell"}


@dataclass
class Atomic:
    technique: str
    number: int
    executor: str
    whole: bool
    defaults: dict[str, str]
    lines: list[str]


@dataclass
class Row:
    command: str
    shell: str
    expected: str
    split: str
    source: str


def split_of(technique: str) -> str:
    """dev for about a third of the techniques, by a hash of the id (fixed before scoring)."""
    return "dev" if hashlib.sha256(technique.encode()).digest()[0] % 3 == 0 else "tune"


def read_cache(folder: Path = CACHE) -> list[Atomic]:
    atomics: list[Atomic] = []
    for path in sorted(folder.glob("*.txt")):
        current: Atomic | None = None
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.startswith("=== "):
                head = raw[4:].split()
                current = Atomic(head[0], int(head[1]), head[2], "whole" in head[3:], {}, [])
                atomics.append(current)
            elif current is None:
                continue
            elif raw.startswith("@") and not current.lines and "=" in raw:
                name, _, value = raw[1:].partition("=")
                current.defaults[name] = value
            else:
                current.lines.append(raw)
    return atomics


def substitute(text: str, defaults: dict[str, str]) -> str:
    return re.sub(r"#\{(\w+)\}", lambda m: defaults.get(m.group(1), m.group(0)), text)


_OPENERS = re.compile(r"(^|[;&|]\s*|\s)(if|for|while|until|case)\s")
_CLOSERS = re.compile(r"(^|[;&|]\s*|\s)(fi|done|esac)\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_TRIVIAL = re.compile(r"^\s*(exit( \d+)?|#.*|)\s*$")
_WRITE_TARGET = re.compile(r">>?\s*(\S+)\s*$")


def _depth(line: str, shell: str) -> int:
    """How many constructs the line leaves open (brackets outside quotes, shell keywords)."""
    depth = 0
    quote = ""
    for ch in line:
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"" and shell != "cmd":
            quote = ch
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
    if shell == "bash":
        depth += len(_OPENERS.findall(line)) - len(_CLOSERS.findall(line))
    return depth


def statements(atomic: Atomic) -> list[str]:
    shell = SHELLS[atomic.executor]
    lines = [substitute(line, atomic.defaults) for line in atomic.lines]
    while lines and not lines[-1].strip():
        lines.pop()
    if atomic.whole:
        return ["\n".join(lines).strip("\n")]
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _TRIVIAL.match(line):
            i += 1
            continue
        block = [line]
        heredoc = _HEREDOC.search(line) if shell == "bash" else None
        herestring = shell == "powershell" and re.search(r"@['\"]\s*$", line)
        depth = _depth(line, shell)
        i += 1
        while i < len(lines) and (heredoc or herestring or depth > 0):
            nxt = lines[i]
            block.append(nxt)
            i += 1
            if heredoc and nxt.strip() == heredoc.group(1):
                heredoc = None
            elif herestring and re.match(r"^\s*['\"]@", nxt):
                herestring = None
            elif not heredoc and not herestring:
                depth += _depth(nxt, shell)
        out.append("\n".join(block))
    # Consecutive lines writing into the same file are one action (a unit file, a script).
    merged: list[str] = []
    for stmt in out:
        target = _WRITE_TARGET.search(stmt)
        previous = _WRITE_TARGET.search(merged[-1].splitlines()[-1]) if merged else None
        if target and previous and target.group(1) == previous.group(1) and "\n" not in stmt:
            merged[-1] += "\n" + stmt
        else:
            merged.append(stmt)
    return merged


# Labelling rules: (level, pattern, reason), first match wins. They say what the command
# does, by DESIGN §5 and the HELPERS.md label conventions; `T` is the technique's prefix
# where a rule only applies to one family.
_I = re.IGNORECASE
RULES: list[tuple[str, re.Pattern[str], str]] = [
    # read-only look-alikes first, so a later keyword does not catch them
    ("safe", re.compile(r"^sudo -l\s*$"), "sudo -l only lists the caller's rights"),
    (
        "safe",
        re.compile(r"^(sc(\.exe)? query|ufw status|pfctl -a \S+ -s|Get-EventLog -list$)", _I),
        "read-only status query",
    ),
    # blocked: system-wide destruction, recovery removed
    ("blocked", re.compile(r"\brm -rf /(\s|$)|chflags -R \S+ /\s*$"), "the root file system"),
    (
        "blocked",
        re.compile(
            r"vssadmin(\.exe)? delete shadows|shadowcopy delete|Win32_Shadowcopy.*Delete\(|wbadmin delete",
            _I,
        ),
        "shadow copies / backup catalogue deleted (recovery inhibited)",
    ),
    (
        "blocked",
        re.compile(r"bcdedit.*(recoveryenabled no|bootstatuspolicy ignoreallfailures)", _I),
        "boot recovery turned off",
    ),
    ("blocked", re.compile(r"cipher(\.exe)? /w", _I), "free space of a whole volume wiped"),
    ("blocked", re.compile(r"\bdel /s .*\bc:\\\*", _I), "recursive wildcard delete across C:\\"),
    (
        "blocked",
        re.compile(r"ccencrypt \S*/etc/passwd"),
        "encrypts /etc/passwd in place (replaces it)",
    ),
    # critical: anti-forensics on logs
    (
        "critical",
        re.compile(r"wevtutil(\.exe)? cl|Clear-EventLog|\blog erase|journalctl --vacuum", _I),
        "event/system logs cleared",
    ),
    (
        "critical",
        re.compile(
            r"(rm|unlink|shred|srm|truncate|>|of=|delete POSIX file|-exec \w+).*(/var/log|/var/audit|/var/spool/mail)|(/var/log|/var/audit)\S*\s.*-exec (rm|shred|unlink)"
        ),
        "log/audit files deleted or overwritten (anti-forensics)",
    ),
    (
        "critical",
        re.compile(r"\\prefetch\\", _I),
        "prefetch files in the system folder deleted (anti-forensics)",
    ),
    # critical: security features off, firewall opened
    (
        "critical",
        re.compile(
            r"setenforce 0|spctl --master-disable|launchctl unload|fltmc(\.exe)? unload|^sysmon -u|amsiInitFailed|AMSI\\Providers"
            r"|Set-MpPreference -Disable|DisableAntiSpyware|WinDefend|EnableFirewall.*(/d 0|-Value 0)|advfirewall set \S+ state off"
            r"|ufw (disable|logging off)|service pf (stop|disable)|systemctl (stop|disable) (ufw|rsyslog|falcon|cbdaemon|auditd)"
            r"|iptables -[FD]\b|auditctl -(D|e 0)|SystemRestore.*(Disable|/disable)|sc sdset VSS|resize shadowstorage"
            r"|McAfee|VBAWarnings|Disable\w+InPV|/etc/(default/)?ufw|new enable=Yes",
            _I,
        ),
        "security feature turned off or weakened",
    ),
    # critical: persistence
    (
        "critical",
        re.compile(
            r"\\Run(Once)?(Ex)?\b|(Copy-Item|copy|move|Move-Item|New-Item)\b.*Startup\\\w+\.\w+\"?\s*$|CreateShortcut|User Shell Folders.*Startup|-Name \"Userinit\""
            r"|CLSID.*shell\\open\\command|/etc/cron|crontab /|/var/spool/cron|~/\.(bashrc|bash_profile|profile|zshrc)\b"
            r"|authorized_keys|/etc/systemd/system/|/etc/init\.d/|/rc\.d/\S+\s*$|systemctl enable|service \S+ enable|update-rc\.d"
            r"|ld\.so\.preload|LD_PRELOAD=",
            _I,
        ),
        "persistence (autostart, scheduled job, service, startup file, preload)",
    ),
    # critical: more persistence, credential theft, proxy execution (second batch)
    (
        "critical",
        re.compile(
            r"schtasks(\.exe)? /create|Register-ScheduledTask|\bsc(\.exe)? (create|config \S+ binPath=)|New-Service|\\Svchost\"? /v|ServiceDll|Image File Execution Options|SilentProcessExit",
            _I,
        ),
        "persistence (scheduled task, service, svchost group, IFEO/SilentProcessExit hijack)",
    ),
    ("critical", re.compile(r"\b(insmod|modprobe)\b"), "loads a kernel module"),
    (
        "critical",
        re.compile(
            r"reg(\.exe)? save HKLM\\(sam|system|security)|esentutl.*(/vss|config[\\/]SAM)|lsass|comsvcs|pypykatz|mimikatz|wce\.exe|Dumpert|Invoke-PowerDump|Export-AADInt|-exportPFX|HarddiskVolumeShadowCopy.*config",
            _I,
        ),
        "credential store dumped (SAM/LSA hives, LSASS memory, ADFS or CA keys)",
    ),
    (
        "critical",
        re.compile(r"\brundll32\b", _I),
        "proxy execution through rundll32 (script, INF, DLL or program)",
    ),
    (
        "critical",
        re.compile(r"sed -i .*/etc/(audisp|audit|libaudit|rsyslog|syslog)"),
        "logging/audit configuration changed",
    ),
    (
        "critical",
        re.compile(r"^copy .*%systemroot%\\system32", _I),
        "writes a DLL into the system folder",
    ),
    # critical: third batch (shells fed downloaded or decoded text, mshta, HTA runners)
    (
        "critical",
        re.compile(r"\|\s*(/bin/)?(ba|z|da)?sh\s*$"),
        "text from the network, a decoder or a variable run by a shell",
    ),
    (
        "critical",
        re.compile(r"\bmshta\b|Invoke-ATHHTMLApplication", _I),
        "proxy execution of HTML-application script code (mshta)",
    ),
    (
        "critical",
        re.compile(r"out-file\b.*Startup\\", _I),
        "writes a file into the Startup folder (persistence)",
    ),
    ("critical", re.compile(r"^chsh\b|Kerberoast", _I), "account change / Kerberoasting"),
    # critical: fourth batch (Defender and mail-security tampering, registry protections)
    (
        "critical",
        re.compile(
            r"RemoveDefinitions|CrowdStrike|MpPreference -Exclusion|Disable-(AntiPhish|SafeLinks|SafeAttachment|Malware|Hosted)\w*|Disable-Feature\S*\s.*Defender|DefenderControl|Backstab|MsMpEng",
            _I,
        ),
        "security product turned off, removed or excluded",
    ),
    (
        "critical",
        re.compile(
            r"UseLogonCredential|ZoneMap|LocalAccountTokenFilterPolicy\D+1|DisableRegistryTools|DisableCMD|DisableTaskmgr|Set-ExecutionPolicy.*(Bypass|Unrestricted)",
            _I,
        ),
        "a Windows protection weakened (WDigest plaintext, trusted zone, remote UAC, admin tools, script policy)",
    ),
    # critical: fifth batch (event logging off)
    (
        "critical",
        re.compile(
            r"phant0m|httplogging /dontLog:true|auditpol(\.exe)? /(set|remove|clear)|wevtutil(\.exe)? sl .*/e:false",
            _I,
        ),
        "event or web logging turned off",
    ),
    # critical: sixth batch (cloud logging off, attack simulators, cloud exfiltration)
    (
        "critical",
        re.compile(
            r"stratus detonate|UnifiedAuditLogIngestionEnabled \$False|rclone(\.exe)? copy|cloudtrail (stop-logging|delete-trail)",
            _I,
        ),
        "cloud logging impaired or data copied to a cloud remote",
    ),
    # critical: accounts, credentials
    (
        "critical",
        re.compile(
            r"useradd|usermod|net user /add|New-LocalUser|localgroup administrators .*/add|dscl \. -create|chpasswd|adduser|/etc/sudoers",
            _I,
        ),
        "account or privilege change",
    ),
    ("critical", re.compile(r"/etc/shadow|master\.passwd|lazagne", _I), "credential store read"),
    # critical: remote code, LOLBin downloads, exfiltration, opaque code
    ("critical", re.compile(r"\biex\s*\(|\bIEX \(|Invoke-Expression", _I), "remote code executed"),
    (
        "critical",
        re.compile(
            r"certutil.*-(urlcache|verifyctl)|bitsadmin.*/transfer|MpCmdRun.*-DownloadFile", _I
        ),
        "download with a LOLBin",
    ),
    (
        "critical",
        re.compile(
            r"\.Send\(.*\$Data|Send-MailMessage.*-Attachments|UploadFile|rclone_bin copy|-Method POST -Body",
            _I,
        ),
        "file contents sent to the network",
    ),
    (
        "critical",
        re.compile(r"(^|[;|]\s*|then\s+)\$\w+ (?!=)"),
        "computed command word (cannot be resolved)",
    ),
    ("critical", re.compile(r"add-type", _I), "compiles and loads native-calling code"),
    ("critical", re.compile(r"(^|\s)sudo\s"), "runs as root"),
    # dangerous: scoped destruction, stops, power
    ("dangerous", re.compile(r"Remove-Az\w+|aws \S+ delete-", _I), "deletes a cloud resource"),
    (
        "dangerous",
        re.compile(r"net share \S+ /delete|Remove-SmbShare|Remove-FileShare", _I),
        "removes a network share",
    ),
    ("dangerous", re.compile(r"> ?\$HISTFILE\b"), "shell history wiped"),
    (
        "dangerous",
        re.compile(r"^(shutdown|reboot|halt|poweroff)\b"),
        "shuts down / reboots the machine",
    ),
    (
        "dangerous",
        re.compile(r"^(sc(\.exe)? stop|net(\.exe)? stop|taskkill|Stop-Process)", _I),
        "stops a service / kills a process",
    ),
    ("dangerous", re.compile(r"bash_history|^history -c|HISTFILESIZE=0"), "shell history wiped"),
    (
        "dangerous",
        re.compile(
            r"(^|[;&|]\s*)(rm|del|rmdir|shred|unlink|Remove-Item)\b|gcloud .* delete|sdelete", _I
        ),
        "deletes named files or a folder",
    ),
    ("dangerous", re.compile(r"^date (\d|\")"), "sets the system clock"),
    # moderate: writes, network, running local code
    (
        "moderate",
        re.compile(
            r"^(aws|az|gcloud) \S+ (create|update)-|^\./stratus warmup|rclone(\.exe)? config|^set-Content ",
            _I,
        ),
        "creates or changes cloud resources or a config",
    ),
    (
        "moderate",
        re.compile(
            r"^attrib(\.exe)? [+-]|^setfile |^chflags |^defaults write |\.DownloadFile\(", _I
        ),
        "changes file attributes or a preference, or downloads",
    ),
    (
        "moderate",
        re.compile(r"^(cmd(\.exe)? /c )?reg(\.exe)? add |^Connect-\w+", _I),
        "a registry setting or a remote session",
    ),
    (
        "moderate",
        re.compile(r"^net (use|share) |mktemp|^(sh|bash) \S|^(curl|wget) ", _I),
        "maps a share, creates a temp file, runs a local script or downloads",
    ),
    (
        "moderate",
        re.compile(
            r"\b(HISTCONTROL|HISTIGNORE)=|HISTSIZE=0|Set-ExecutionPolicy|^(sc(\.exe)? (start|config|description)|Start-Service)\b|-exec (cp|gcp|rsync)\b|^mkdir |^(PathToAtomicsFolder|\S+\\\S+\.(exe|bat)\b)",
            _I,
        ),
        "changes a setting, starts a service, copies files or runs a local program",
    ),
    (
        "moderate",
        re.compile(
            r">|New-Item|Copy-Item|Move-Item|^copy |^cp |chmod|chown|touch|certutil -(en|de)code|Set-ItemProperty|New-ItemProperty"
            r"|gcloud config set|^(scp|rsync|sftp|ssh|sshpass|whois|finger|kubectl|timeout) |DownloadFile|DownloadString|Invoke-WebRequest"
            r"|cscript|Start-Process|import-module|^\. |^/tmp/|^%temp%|^C:\\\w+\.exe|http\.server|firewall add rule|ufw prepend"
            r"|pfctl .* -f|iptables-save|^cmd /c|^pushd|chattr|systemctl (start|restart|daemon-reload)|service \S+ start|^set \+o history"
            r"|^export |^ln -s|python2? \S+\.py|^& ",
            _I,
        ),
        "writes files/settings, uses the network or runs local code",
    ),
]

# Statements whose technique and action disagree, or where the rules above are too coarse.
# Key: the statement as written; value: (level, note for the source column).
MANUAL: dict[str, tuple[str, str]] = {
    "cat /etc/passwd > /tmp/T1003.008.txt": (
        "moderate",
        "manual: /etc/passwd is world-readable; copying it to /tmp is a plain write, not a credential dump",
    ),
    "unset HISTFILE": ("safe", "manual: unsetting a variable in this shell (corpora: safe)"),
    "history -c": ("dangerous", "manual: history wipe (HELPERS: dangerous)"),
    "kubectl run atomic-linux-useradd --image=alpine --restart=Never --rm -it -- sh -lc 'adduser -D evil_user && id evil_user'": (
        "critical",
        "manual: a command run elsewhere is judged as that command (account added)",
    ),
    "iptables-save > /tmp/iptables.rules": (
        "moderate",
        "manual: saves the rules to a file (read + write)",
    ),
    "echo 0> /var/spool/mail/root": (
        "critical",
        "manual: `0>` still opens the file for writing: root's mail spool truncated (anti-forensics)",
    ),
    "chattr -i /var/spool/cron/root": (
        "critical",
        "manual: unlocks root's crontab for a persistence write",
    ),
    'New-Item -Path "HKCU:\\Software\\Microsoft\\Office\\16.0\\Excel"': (
        "moderate",
        "manual: creates an empty registry key",
    ),
    'New-Item -Path "HKCU:\\Software\\Microsoft\\Office\\16.0\\Excel\\Security"': (
        "moderate",
        "manual: creates an empty registry key",
    ),
    "chmod +x /etc/init.d/T1543.002": (
        "moderate",
        "manual: makes an already written init script executable",
    ),
    "chmod +x /usr/local/etc/rc.d/art-test": (
        "moderate",
        "manual: makes an already written rc script executable",
    ),
    'Set-ItemProperty -Path "HKLM:\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" -Name "Userinit-backup" -Value "$oldvalue";': (
        "moderate",
        "manual: writes a backup value next to Userinit (not the autostart value itself)",
    ),
    '$oldvalue = $(Get-ItemPropertyValue -Path  "HKLM:\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" -Name "Userinit");': (
        "safe",
        "manual: reads a registry value",
    ),
    '$newvalue = $oldvalue + " C:\\Windows\\System32\\calc.exe";': (
        "safe",
        "manual: string arithmetic",
    ),
    "sudo -l": (
        "safe",
        "manual: lists the caller's sudo rights (corpora: sudo -l -U is safe); unsure, one corpus row says critical",
    ),
    ". ~/.bashrc": (
        "moderate",
        "manual: sources the startup file (runs local code); the write before it is the persistence",
    ),
    'grep "# THIS IS A COMMENT" /etc/ufw/user.rules': ("safe", "manual: a search"),
    'Get-ChildItem "PathToAtomicsFolder\\..\\ExternalPayloads\\T1551.006_timestomp.txt" | % { $_.CreationTime = "01/01/1970 00:00:00" }': (
        "moderate",
        "manual: sets a file's timestamp (a write)",
    ),
    "echo $ENCODED | perl -le 'use MIME::Base64;print(decode_base64(<STDIN>));'": (
        "safe",
        "manual: decodes and prints (`<STDIN>` is Perl, not a redirect)",
    ),
    'if (!(Test-Path -Path "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer\\Run")){\n  New-Item -ItemType Key -Path  "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer\\Run"\n}': (
        "moderate",
        "manual: creates an empty Run key (the value written next is the persistence)",
    ),
    'echo -e "e /etc/passwd\\n,p\\ne /etc/master.passwd\\n,p\\ne /etc/shadow\\n,p\\n" | ed > /tmp/T1003.008.txt': (
        "moderate",
        "manual (after the first score): reading /etc/shadow without sending it is moderate in the corpora"
        " (`cat /etc/shadow`); the rule said critical",
    ),
    "testcat(){ (while read line; do echo $line >> /tmp/T1003.008.txt; done < $1) }\ntestcat /etc/passwd\ntestcat /etc/master.passwd\ntestcat /etc/shadow": (
        "moderate",
        "manual (after the first score): reading /etc/shadow into a temp file is moderate in the corpora"
        " (`cat /etc/shadow`); the rule said critical",
    ),
    "$cert = New-SelfSignedCertificate -DnsName atomicredteam.com -CertStoreLocation cert:\\LocalMachine\\My\nSet-Location Cert:\\LocalMachine\\My\nExport-Certificate -Type CERT -Cert  Cert:\\LocalMachine\\My\\$($cert.Thumbprint) -FilePath $env:Temp\\AtomicRedTeam.cer": (
        "moderate",
        "manual: creates its own certificate and writes the public part to a file",
    ),
    'Invoke-Webrequest -Uri "https://raw.githubusercontent.com/BC-SECURITY/Empire/c1bdbd0fdafd5bf34760d5b158dfd0db2bb19556/data/module_source/credentials/Invoke-PowerDump.ps1" -UseBasicParsing -OutFile "$Env:Temp\\PowerDump.ps1"': (
        "moderate",
        "manual: downloads a script to a file (the tool's name is in the URL only)",
    ),
    "export HISTCONTROL=ignoreboth": (
        "safe",
        "manual (after scoring): sources_a labels `export HISTCONTROL=ignorespace` safe (a common bashrc line)",
    ),
    'if [ "$HISTCONTROL" != "ignoreboth" ]; then export HISTCONTROL="ignoreboth"; fi': (
        "safe",
        "manual (after scoring): HISTCONTROL settings are safe in sources_a",
    ),
    'if [ "$HISTCONTROL" != "erasedups" ]; then export HISTCONTROL="erasedups"; fi': (
        "safe",
        "manual (after scoring): HISTCONTROL settings are safe in sources_a",
    ),
    "export ART='echo \"Atomic Red Team was here... T1059.004\"'": (
        "safe",
        "manual: only sets a variable (the next statement runs it)",
    ),
    '$url = "https://raw.githubusercontent.com/hlldz/Invoke-Phant0m/f1396c411a867e1b471ef80c5c534466103440e0/Invoke-Phant0m.ps1"': (
        "safe",
        "manual: only sets a variable to a URL",
    ),
    "export AWS_REGION=us-west-2": ("safe", "manual: only sets a variable"),
    "python2 laZagne.py all": ("critical", "manual: a known credential-dumping tool"),
    'Stop-Process -Name "DirLister"': ("dangerous", "manual: kills a process by name"),
    "if [ $(which python3) ]; then cd /tmp; python3 -m http.server 9090 & PID=$!; sleep 10; kill $PID; unset PID; fi": (
        "moderate",
        "manual: serves /tmp over HTTP for ten seconds (corpora: http.server of a normal folder is moderate); unsure",
    ),
}

# Technique families for the report.
FAMILIES = [
    (
        "destruction/recovery",
        ("T1485", "T1490", "T1561", "T1486", "T1491", "T1565", "T1489", "T1529"),
    ),
    ("indicator removal", ("T1070",)),
    (
        "defence evasion",
        ("T1562", "T1222", "T1027", "T1140", "T1218", "T1112", "T1574", "T1548", "T1036"),
    ),
    ("persistence", ("T1547", "T1543", "T1053", "T1546", "T1037", "T1098", "T1136")),
    ("credential access", ("T1003", "T1552", "T1555")),
    ("exfiltration/transfer", ("T1048", "T1041", "T1567", "T1105")),
    ("execution", ("T1059",)),
    (
        "discovery",
        ("T1082", "T1083", "T1057", "T1016", "T1049", "T1087", "T1069", "T1007", "T1018", "T1033"),
    ),
]


def family(technique: str) -> str:
    for name, prefixes in FAMILIES:
        if technique.split(".")[0] in prefixes:
            return name
    return "other"


_QUIET = re.compile(r"\d*>>?\s*(/dev/null|nul)\b|\d*>&\d")


def label(statement: str) -> tuple[str, str]:
    if statement in MANUAL:
        return MANUAL[statement]
    probe = _QUIET.sub("", statement)  # output thrown away is not a write
    for level, pattern, reason in RULES:
        if pattern.search(probe):
            return level, reason
    return "safe", "read-only (listing, search, print)"


# Own rows: (command, shell, expected, note). Other spellings/programs of the actions the
# fixes cover, and look-alikes that must stay low. Filled as fixes land.
OWN_ROWS: list[tuple[str, str, str, str]] = [
    # system/security/audit logs by name or folder, anywhere below /var/log (paths.py)
    ("rm -f /var/log/auth.log.2.gz", "bash", "critical", "a rotated login log deleted"),
    ("find /var/log/audit -type f -delete", "bash", "critical", "the audit log folder emptied"),
    (": > /var/log/daemon.log", "bash", "critical", "the daemon log emptied"),
    (
        "rm -f /var/log/nginx/access.log.1.gz",
        "bash",
        "dangerous",
        "look-alike: a web server's rotated access log (corpora: an app log is dangerous)",
    ),
    ("shred -u /var/audit/current", "bash", "critical", "the macOS/BSM audit trail shredded"),
    ("cat /dev/null > /var/mail/alice", "bash", "critical", "a user's mail spool emptied"),
    (
        "rm -rf /Library/Logs/DiagnosticReports/*",
        "bash",
        "critical",
        "macOS diagnostic logs deleted",
    ),
    (
        "del C:\\Windows\\System32\\LogFiles\\Firewall\\pfirewall.log",
        "cmd",
        "critical",
        "the Windows firewall log deleted",
    ),
    ("tail -n 50 /var/log/nginx/error.log", "bash", "safe", "look-alike: reads a service log"),
    (
        "grep -i error /var/log/apache2/error.log",
        "bash",
        "safe",
        "look-alike: searches a service log",
    ),
    (
        "rm -rf ./var/log/*",
        "bash",
        "dangerous",
        "look-alike: a project's own var/log folder (relative)",
    ),
    (
        "rm -f ~/project/logs/app.log",
        "bash",
        "dangerous",
        "look-alike: an application's own log file",
    ),
    ("del C:\\Users\\me\\logs\\app.log", "cmd", "dangerous", "look-alike: a user's own log file"),
    # security services kept from starting by SysV/BSD service tools, more vendors (system.py)
    ("update-rc.d auditd remove", "bash", "critical", "auditd removed from start-up"),
    ("chkconfig --del cbsensor", "bash", "critical", "Carbon Black sensor removed from start-up"),
    ("service ds_agent stop", "bash", "critical", "Trend Micro Deep Security agent stopped"),
    ("systemctl stop cybereason-sensor", "bash", "critical", "Cybereason sensor stopped"),
    ("sysrc auditd_enable=NO", "bash", "critical", "FreeBSD: auditd off at boot"),
    (
        "sysrc sshd_enable=YES",
        "bash",
        "critical",
        "FreeBSD: a service started at every boot (persistence)",
    ),
    (
        "update-rc.d nginx disable",
        "bash",
        "dangerous",
        "look-alike: an ordinary service kept from starting",
    ),
    ("chkconfig --list auditd", "bash", "safe", "look-alike: lists run levels"),
    ("service apache2 stop", "bash", "dangerous", "look-alike: an ordinary service stopped"),
    ("sysrc -a", "bash", "safe", "look-alike: prints rc.conf settings"),
    # Office protections switched off in the registry (windows.py)
    (
        "reg add HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Security /v VBAWarnings /t REG_DWORD /d 1 /f",
        "cmd",
        "critical",
        "Word runs every macro unasked",
    ),
    (
        "Set-ItemProperty -Path 'HKCU:\\Software\\Microsoft\\Office\\16.0\\Outlook\\Security' -Name AccessVBOM -Value 1",
        "powershell",
        "critical",
        "VBA object model opened to code",
    ),
    (
        'reg add "HKCU\\Software\\Microsoft\\Office\\15.0\\PowerPoint\\Security\\ProtectedView" /v DisableAttachementsInPV /t REG_DWORD /d 1 /f',
        "cmd",
        "critical",
        "Protected View off for attachments",
    ),
    (
        "reg query HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Security",
        "cmd",
        "safe",
        "look-alike: reads the settings",
    ),
    (
        "Get-ItemProperty 'HKCU:\\Software\\Microsoft\\Office\\16.0\\Excel\\Security'",
        "powershell",
        "safe",
        "look-alike: reads the settings",
    ),
    (
        "reg add HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Security /v VBAWarnings /t REG_DWORD /d 4 /f",
        "cmd",
        "moderate",
        "look-alike: macros turned fully OFF (tighter)",
    ),
    # more places that run their contents as root: rc.d, hooks (paths.py)
    (
        "cp backdoor.sh /etc/network/if-up.d/backdoor",
        "bash",
        "critical",
        "a network hook script runs as root",
    ),
    (
        "echo 'APT::Update::Pre-Invoke {\"/tmp/x\";};' > /etc/apt/apt.conf.d/99x",
        "bash",
        "critical",
        "an APT hook runs on every update",
    ),
    (
        "echo '/tmp/x &' > /etc/update-motd.d/99-x",
        "bash",
        "critical",
        "a login message script runs as root",
    ),
    (
        "tee /etc/udev/rules.d/99-x.rules <<< 'RUN+=\"/tmp/x\"'",
        "bash",
        "critical",
        "a udev rule runs a program on device events",
    ),
    ("cat /etc/rc.conf", "bash", "safe", "look-alike: reads rc.conf"),
    ("ls /etc/update-motd.d/", "bash", "safe", "look-alike: lists the hooks"),
    # recursive flag changes of a system tree (system.py)
    (
        "chflags -R noschg /System",
        "bash",
        "blocked",
        "system immutable flags cleared under /System",
    ),
    ("chflags -R nouchg /usr", "bash", "blocked", "flags cleared on all of /usr"),
    ("chflags -R uchg ~", "bash", "blocked", "the whole home locked immutable"),
    ("chflags hidden ~/Desktop/notes.txt", "bash", "moderate", "look-alike: one file hidden"),
    ("chflags -R nouchg ./build", "bash", "moderate", "look-alike: a project folder"),
    ("ls -lO /", "bash", "safe", "look-alike: lists flags"),
    # credential-dumping / attack tools by name (system.py)
    (
        "python3 secretsdump.py -sam sam.save -system system.save LOCAL",
        "bash",
        "critical",
        "impacket secretsdump run as a script",
    ),
    (
        './mimikatz.exe "privilege::debug" "sekurlsa::logonpasswords" exit',
        "bash",
        "critical",
        "mimikatz by path",
    ),
    ("pypykatz lsa minidump lsass.dmp", "bash", "critical", "pypykatz on an LSASS dump"),
    (
        "impacket-secretsdump -just-dc corp/admin@10.0.0.5",
        "bash",
        "critical",
        "DCSync through impacket",
    ),
    ("Import-Module .\\Invoke-Mimikatz.ps1", "powershell", "critical", "Invoke-Mimikatz loaded"),
    ("Rubeus.exe kerberoast /outfile:hashes.txt", "cmd", "critical", "Kerberoasting with Rubeus"),
    ("grep -ri mimikatz /var/log/auth.log", "bash", "safe", "look-alike: the name searched for"),
    ("echo 'lazagne found on host'", "bash", "safe", "look-alike: the name printed"),
    (
        "git clone https://github.com/gentilkiwi/mimikatz",
        "bash",
        "moderate",
        "look-alike: the source downloaded, not run",
    ),
    # setting the system clock (system.py)
    (
        'timedatectl set-time "2020-01-01 00:00:00"',
        "bash",
        "dangerous",
        "clock set through systemd",
    ),
    ("date 0101000070", "bash", "dangerous", "BSD/GNU positional clock set"),
    ('hwclock --set --date="2001-01-01"', "bash", "dangerous", "hardware clock set"),
    ('Set-Date -Date "01/01/1970"', "powershell", "dangerous", "PowerShell clock set"),
    ("date 01-01-1970", "cmd", "dangerous", "cmd date set"),
    ("date +%Y-%m-%d", "bash", "safe", "look-alike: prints the date"),
    ("date -d @1700000000", "bash", "safe", "look-alike: converts a timestamp"),
    ("date /t", "cmd", "safe", "look-alike: prints the date"),
    ("Get-Date -Format o", "powershell", "safe", "look-alike: prints the date"),
    ("timedatectl status", "bash", "safe", "look-alike: prints clock status"),
    # library preloading through the environment (system.py via bash.py)
    (
        "LD_PRELOAD=./libhook.so curl https://x.example",
        "bash",
        "critical",
        "a relative library preloaded",
    ),
    (
        "DYLD_INSERT_LIBRARIES=/tmp/inject.dylib /Applications/Safari.app/Contents/MacOS/Safari",
        "bash",
        "critical",
        "a dylib injected on macOS",
    ),
    ("env LD_PRELOAD=/dev/shm/a.so id", "bash", "critical", "preload through env"),
    (
        "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 redis-server",
        "bash",
        "moderate",
        "look-alike: a system allocator preloaded",
    ),
    ("echo $LD_PRELOAD", "bash", "safe", "look-alike: prints the variable"),
    # shell history wiped by its size variables, turned off by set +o (bash.py, system.py)
    ("HISTFILESIZE=0", "bash", "dangerous", "bash truncates the history file on assignment"),
    ("declare -x HISTFILESIZE=0", "bash", "dangerous", "the same, exported through declare"),
    ("export SAVEHIST=0", "bash", "dangerous", "zsh writes no history on exit"),
    ("export HISTFILESIZE=100000", "bash", "safe", "look-alike: a bigger history"),
    ("set -o history", "bash", "safe", "look-alike: history turned on"),
    # AppleScript Finder deletes judged by their path (inline.py)
    (
        'osascript -e \'tell application "Finder" to delete POSIX file "/private/var/log/install.log"\'',
        "bash",
        "critical",
        "Finder deletes a system log",
    ),
    (
        'osascript -e \'tell application "Finder" to delete folder POSIX file "/Applications"\'',
        "bash",
        "blocked",
        "Finder deletes /Applications",
    ),
    (
        'osascript -e \'tell application "Finder" to delete POSIX file "/"\'',
        "bash",
        "blocked",
        "Finder deletes the root",
    ),
    (
        'osascript -e \'tell application "Finder" to delete POSIX file "/Users/me/Desktop/old.txt"\'',
        "bash",
        "dangerous",
        "look-alike: one ordinary file",
    ),
    (
        "osascript -e 'tell application \"Finder\" to get name of every disk'",
        "bash",
        "moderate",
        "look-alike: a Finder query",
    ),
    # words after a redirect's target are the command's arguments (bash.py)
    ("rm 2>/dev/null -rf /", "bash", "blocked", "a redirect in the middle hides nothing"),
    ("rm >/dev/null -rf ~", "bash", "blocked", "the home wiped behind a redirect"),
    ("chmod 2>/dev/null -R 777 /", "bash", "blocked", "recursive chmod of / behind a redirect"),
    (
        "find / -name core 2>/dev/null -exec rm -rf {} \\;",
        "bash",
        "dangerous",
        "find's action after a redirect",
    ),
    ("ls 2>/dev/null -la", "bash", "safe", "look-alike: a listing with stderr dropped"),
    ("grep 2>/dev/null -rn TODO src", "bash", "safe", "look-alike: a search with stderr dropped"),
    (
        "sort > sorted.txt -u names.txt",
        "bash",
        "moderate",
        "look-alike: options after the output file",
    ),
    # credential hives, NTDS and private keys copied out by any copier (windows.py)
    (
        "copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\System32\\config\\SAM C:\\temp\\sam",
        "cmd",
        "critical",
        "the SAM hive copied out of a shadow copy",
    ),
    (
        "Copy-Item C:\\Windows\\NTDS\\NTDS.dit C:\\temp\\",
        "powershell",
        "critical",
        "the domain database copied",
    ),
    (
        "certutil -exportPFX My 1234 c:\\temp\\x.pfx",
        "cmd",
        "critical",
        "a certificate exported with its private key",
    ),
    (".\\Outflank-Dumpert.exe", "powershell", "critical", "an LSASS dumper with a vendor prefix"),
    (
        "Get-ChildItem C:\\Windows\\System32\\config",
        "powershell",
        "safe",
        "look-alike: lists the hive folder",
    ),
    ("copy C:\\temp\\report.txt D:\\backup\\", "cmd", "moderate", "look-alike: an ordinary copy"),
    # history: HISTCONTROL/HISTIGNORE hide commands, `> $HISTFILE` wipes it (bash.py, paths.py)
    ("export HISTIGNORE='*'", "bash", "moderate", "no command is recorded"),
    (
        "export HISTCONTROL=ignorespace",
        "bash",
        "moderate",
        "space-prefixed commands are not recorded",
    ),
    (': > "$HISTFILE"', "bash", "dangerous", "the history file emptied"),
    ("cat /dev/null > ${HISTFILE}", "bash", "dangerous", "the history file emptied"),
    ("echo $HISTCONTROL", "bash", "safe", "look-alike: prints the setting"),
    ("wc -l $HISTFILE", "bash", "safe", "look-alike: counts history lines"),
    # read-only network/kernel tables (network.py, system.py)
    ("arp -an", "bash", "safe", "the ARP table"),
    ("kldstat -v", "bash", "safe", "FreeBSD loaded modules"),
    ("nbtstat -c", "cmd", "safe", "the NetBIOS name cache"),
    ("arp -s 10.0.0.1 aa:bb:cc:dd:ee:ff", "bash", "moderate", "a static ARP entry added"),
    ("nbtstat -RR", "cmd", "moderate", "NetBIOS names re-registered"),
    # file-type handlers, ETW autologgers, accounts disabled, LSA weakened (windows.py)
    ('ftype txtfile=C:\\evil.exe "%1"', "cmd", "critical", "opening a .txt runs another program"),
    ("assoc .txt=evilfile", "cmd", "critical", "the .txt type points at another handler"),
    (
        "Remove-EtwTraceProvider -AutologgerName EventLog-Application -Guid '{A0C1853B-5C40-4B15-8766-3CF1C58F985A}'",
        "powershell",
        "critical",
        "an event-log provider removed",
    ),
    (
        "Disable-LocalUser -Name Administrator",
        "powershell",
        "critical",
        "an account locked out (account change)",
    ),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v LmCompatibilityLevel /t REG_DWORD /d 2 /f",
        "cmd",
        "critical",
        "LM/NTLMv1 allowed again",
    ),
    (
        "Get-EtwTraceProvider -AutologgerName EventLog-Application",
        "powershell",
        "safe",
        "look-alike: lists providers",
    ),
    ("Get-LocalUser -Name Administrator", "powershell", "safe", "look-alike: reads an account"),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v LmCompatibilityLevel /t REG_DWORD /d 5 /f",
        "cmd",
        "moderate",
        "look-alike: NTLMv2 only (tighter)",
    ),
    # security services removed, mail protection rules off, AV/EDR killers by name (system.py, windows.py)
    (
        "Remove-Service -Name SentinelAgent",
        "powershell",
        "critical",
        "the SentinelOne agent service removed",
    ),
    ("Stop-Service -Name mfemms", "powershell", "critical", "a McAfee service stopped"),
    (
        'Disable-SafeLinksRule -Identity "Default"',
        "powershell",
        "critical",
        "a Safe Links rule off",
    ),
    (
        "Remove-MalwareFilterRule -Identity Strict",
        "powershell",
        "critical",
        "a malware filter rule removed",
    ),
    (".\\DefenderControl.exe /D", "powershell", "critical", "Defender Control turns Defender off"),
    ("EDRSandBlast.exe --kernelmode", "cmd", "critical", "an EDR killer"),
    (
        "Remove-Service -Name MyAppSvc",
        "powershell",
        "dangerous",
        "look-alike: an ordinary service removed",
    ),
    ("Get-SafeLinksRule", "powershell", "safe", "look-alike: lists the rules"),
    (
        "terminator -e htop",
        "bash",
        "moderate",
        "look-alike: the Linux terminal emulator named terminator",
    ),
    # IIS request logging off; event-log killers by name (windows.py, system.py)
    (
        '%windir%\\system32\\inetsrv\\appcmd.exe set config "Intranet" /section:httpLogging /dontLog:True',
        "cmd",
        "critical",
        "IIS logging off for a site",
    ),
    (
        "appcmd set config /section:system.applicationHost/sites /siteDefaults.logFile.enabled:false",
        "cmd",
        "critical",
        "IIS log files off for every site",
    ),
    (
        "Set-WebConfigurationProperty -PSPath 'IIS:\\' -Filter system.webServer/httpLogging -Name dontLog -Value True",
        "powershell",
        "critical",
        "IIS logging off through PowerShell",
    ),
    (".\\Phant0m-win64.exe", "powershell", "critical", "event-log threads killed"),
    ("appcmd list site", "cmd", "safe", "look-alike: lists IIS sites"),
    (
        "appcmd set config /section:httpLogging /dontLog:False",
        "cmd",
        "moderate",
        "look-alike: logging turned ON",
    ),
    # attack simulators carrying a technique out (system.py)
    (
        "stratus detonate aws.defense-evasion.cloudtrail-stop --force",
        "bash",
        "critical",
        "Stratus stops CloudTrail",
    ),
    (
        "/opt/stratus/stratus detonate k8s.credential-access.dump-secrets",
        "bash",
        "critical",
        "Stratus dumps Kubernetes secrets",
    ),
    (
        "Invoke-AtomicTest T1003.001 -TestNumbers 1",
        "powershell",
        "critical",
        "an LSASS-dump atomic run for real",
    ),
    (
        "Invoke-AtomicTest T1490",
        "powershell",
        "critical",
        "every T1490 atomic run (shadow copies deleted)",
    ),
    (
        "stratus list --platform aws",
        "bash",
        "moderate",
        "look-alike: lists the techniques (an unknown program: moderate)",
    ),
    (
        "Invoke-AtomicTest T1003.001 -ShowDetailsBrief",
        "powershell",
        "moderate",
        "look-alike: only shows the tests (an unknown cmdlet: moderate)",
    ),
    (
        "Invoke-AtomicTest T1003.001 -CheckPrereqs",
        "powershell",
        "moderate",
        "look-alike: only checks prerequisites",
    ),
]


def _existing() -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    here = ROOT / "tests" / "safety"
    for path in sorted([*here.glob("*.tsv"), *(here / "heldout").glob("*.tsv")]):
        if path == OUT:
            continue
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                seen.add((r.get("command") or "", r.get("shell") or ""))
    return seen


def build_rows() -> tuple[list[Row], int]:
    sys.path.insert(0, str(ROOT))
    from bench._corpus_figures import encode_command

    rows: list[Row] = []
    seen = _existing()
    dupes = 0
    done: set[tuple[str, str]] = set()
    for atomic in read_cache():
        shell = SHELLS[atomic.executor]
        for stmt in statements(atomic):
            if "\t" in stmt or "\r" in stmt:
                continue  # a TSV cell cannot hold them
            # (a literal backslash-n, `…Options\notepad.exe`, is written `\x5cn`)
            text = encode_command(stmt)
            if (text, shell) in done:
                continue
            if (text, shell) in seen:
                dupes += 1
                continue
            done.add((text, shell))
            level, reason = label(stmt)
            source = f"art6:{atomic.technique}-{atomic.number} {reason}"
            rows.append(Row(text, shell, level, split_of(atomic.technique), source))
    for command, shell, expected, note in OWN_ROWS:
        text = encode_command(command)
        if (text, shell) in done or (text, shell) in seen:
            continue
        done.add((text, shell))
        rows.append(Row(text, shell, expected, "tune", f"art6-own: {note}"))
    return rows, dupes


def write(rows: list[Row]) -> None:
    with OUT.open("w", encoding="utf-8", newline="") as fh:
        fh.write("command\tshell\texpected\tsplit\tsource_or_reason\n")
        for r in rows:
            fh.write(f"{r.command}\t{r.shell}\t{r.expected}\t{r.split}\t{r.source}\n")


def read_tsv(path: Path = OUT) -> list[Row]:
    with path.open(encoding="utf-8", newline="") as fh:
        return [
            Row(r["command"], r["shell"], r["expected"], r["split"], r["source_or_reason"])
            for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        ]


def score(rows: list[Row], misses: str | None) -> None:
    sys.path.insert(0, str(ROOT))
    from aintern_ls.safety import RiskLevel, assess
    from bench._corpus_figures import decode_command, figures

    groups: dict[str, list[tuple[RiskLevel, RiskLevel]]] = defaultdict(list)
    for r in rows:
        exp = RiskLevel.from_label(r.expected)
        got = assess(decode_command(r.command), r.shell).level
        kind = "own" if r.source.startswith("art6-own") else "atomic"
        groups[f"{r.split} {kind}"].append((exp, got))
        groups[r.split].append((exp, got))
        tech = r.source.split()[0].split(":")[1].rsplit("-", 1)[0] if kind == "atomic" else ""
        if kind == "atomic":
            groups[f"  {r.split} {family(tech)}"].append((exp, got))
        if misses == r.split and exp != got:
            print(
                f"MISS {exp.label:>9} got {got.label:<9} [{r.shell}] {r.command}   ({r.source[:60]})"
            )
    for key in sorted(groups, key=lambda k: (k.strip().split()[0], k)):
        print(f"{key:32s} {figures(groups[key]).line()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="rebuild sources_art6.tsv from the cache"
    )
    parser.add_argument("--score", action="store_true", help="score the TSV rows with the analyser")
    parser.add_argument(
        "--misses",
        choices=["tune", "dev"],
        help="list the rows of this split the analyser gets wrong",
    )
    parser.add_argument(
        "--show", action="store_true", help="print the rows with their labels (for review by eye)"
    )
    args = parser.parse_args()
    if args.write:
        rows, dupes = build_rows()
        write(rows)
        by_family = Counter(
            (
                family(r.source.split()[0][5:].rsplit("-", 1)[0])
                if r.source.startswith("art6:")
                else "own",
                r.split,
            )
            for r in rows
        )
        print(
            f"{len(rows)} rows written to {OUT.relative_to(ROOT)} ({dupes} already in other corpora, skipped)"
        )
        for (fam, split), n in sorted(by_family.items()):
            print(f"  {fam:24s} {split:4s} {n}")
    rows = read_tsv()
    if args.show:
        for r in rows:
            print(f"{r.expected:9s} {r.split:4s} [{r.shell}] {r.command}   # {r.source}")
    if args.score or args.misses:
        score(rows, args.misses)


if __name__ == "__main__":
    main()
