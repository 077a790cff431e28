"""Mechanisms from the atomic-red-team walk (safety-art6): each case fails if its mechanism is
removed, and each family has look-alikes that must stay low."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from bench.art6_walk import Atomic, label, split_of, statements
from tests.safety._levels import B, C, D, M, S

CASES: list[tuple[str, str, RiskLevel]] = [
    # any file in a log folder deleted, emptied or overwritten: anti-forensics (paths.py)
    ("rm -rf /var/log/security", "bash", C),
    ("rm -f /var/log/auth.log.2.gz", "bash", C),
    ("find /var/log/audit -type f -delete", "bash", C),
    ("rm -f /var/log/nginx/access.log.1.gz", "bash", D),
    ("truncate --size=0 /var/log/security", "bash", C),
    ("rm -rf /var/log/journal/*", "bash", C),
    ("echo 0> /var/spool/mail/root", "bash", C),
    ("shred -u /var/audit/current", "bash", C),
    ("del C:\\Windows\\System32\\LogFiles\\Firewall\\pfirewall.log", "cmd", C),
    ("tail -n 50 /var/log/nginx/error.log", "bash", S),
    ("rm -rf ./var/log/*", "bash", D),
    ("del C:\\Users\\me\\logs\\app.log", "cmd", D),
    # security services kept from starting; more vendors (system.py)
    ("chkconfig off cbdaemon", "bash", C),
    ("update-rc.d auditd remove", "bash", C),
    ("service ds_agent stop", "bash", C),
    ("sysrc auditd_enable=NO", "bash", C),
    ("sysrc sshd_enable=YES", "bash", C),
    ("update-rc.d nginx disable", "bash", D),
    ("chkconfig --list auditd", "bash", S),
    ("sysrc -a", "bash", S),
    # Office protections off in the registry (windows.py)
    (
        'New-ItemProperty -Path "HKCU:\\Software\\Microsoft\\Office\\16.0\\Excel\\Security"'
        ' -Name "VBAWarnings" -Value "1" -PropertyType "Dword"',
        "powershell",
        C,
    ),
    (
        "reg add HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Security /v AccessVBOM"
        " /t REG_DWORD /d 1 /f",
        "cmd",
        C,
    ),
    (
        "reg add HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Security /v VBAWarnings"
        " /t REG_DWORD /d 4 /f",
        "cmd",
        M,
    ),
    # places that run their contents as root (paths.py)
    ("echo x >> /usr/local/etc/rc.d/art-test", "bash", C),
    ("cp backdoor.sh /etc/network/if-up.d/backdoor", "bash", C),
    ("cat /etc/rc.conf", "bash", S),
    # recursive flag changes of a system tree (system.py)
    ("chflags -R 0 /", "bash", B),
    ("chflags -R noschg /System", "bash", B),
    ("chflags -R nouchg ./build", "bash", M),
    ("chflags hidden ~/Desktop/notes.txt", "bash", M),
    # attack tools by name (system.py)
    ("python2 laZagne.py all", "bash", C),
    ("impacket-secretsdump -just-dc corp/admin@10.0.0.5", "bash", C),
    ("Import-Module .\\Invoke-Mimikatz.ps1", "powershell", C),
    ("Rubeus.exe kerberoast /outfile:hashes.txt", "cmd", C),
    ("grep -ri mimikatz /var/log/auth.log", "bash", S),
    ("git clone https://github.com/gentilkiwi/mimikatz", "bash", M),
    # the system clock set (system.py)
    ("date 010100001971", "bash", D),
    ('timedatectl set-time "2020-01-01 00:00:00"', "bash", D),
    ('Set-Date -Date "01/01/1970"', "powershell", D),
    ("date 01-01-1970", "cmd", D),
    ("date +%Y-%m-%d", "bash", S),
    ("date /t", "cmd", S),
    ("Get-Date -Format o", "powershell", S),
    # library preloading (bash.py -> system.preload_risk)
    ("LD_PRELOAD=/tmp/x.so ls", "bash", C),
    ("env LD_PRELOAD=/dev/shm/a.so id", "bash", C),
    ("LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 redis-server", "bash", M),
    # history wiped by its size variables, turned off by set +o (bash.py, system.py)
    ("export HISTFILESIZE=0", "bash", D),
    ("HISTFILESIZE=0", "bash", D),
    ("set +o history", "bash", M),
    ("export HISTFILESIZE=100000", "bash", S),
    ("set -o history", "bash", S),
    # words after a redirect's target belong to the command (bash.py)
    ("rm 2>/dev/null -rf /", "bash", B),
    ("chmod 2>/dev/null -R 777 /", "bash", B),
    ("find / -name core 2>/dev/null -exec rm -rf {} \\;", "bash", D),
    ("ls 2>/dev/null -la", "bash", S),
    ("echo x >&2 rm -rf /", "bash", S),
    # credential hives, NTDS, private keys copied out (windows.py); svchost groups (windows.py)
    (
        "copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\System32"
        "\\config\\SAM C:\\temp\\sam",
        "cmd",
        C,
    ),
    ("Copy-Item C:\\Windows\\NTDS\\NTDS.dit C:\\temp\\", "powershell", C),
    ("certutil -exportPFX My 1234 c:\\temp\\x.pfx", "cmd", C),
    ("Get-ChildItem C:\\Windows\\System32\\config", "powershell", S),
    (
        'reg add "HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Svchost" /v TimeService'
        ' /t REG_MULTI_SZ /d "W64Time" /f',
        "cmd",
        C,
    ),
    ('reg query "HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Svchost"', "cmd", S),
    # history hidden or wiped through its variables (bash.py, paths.py)
    ("export HISTIGNORE='*'", "bash", M),
    (': > "$HISTFILE"', "bash", D),
    ("wc -l $HISTFILE", "bash", S),
    # read-only tables (network.py, system.py)
    ("arp -an", "bash", S),
    ("arp -s 10.0.0.1 aa:bb:cc:dd:ee:ff", "bash", M),
    ("nbtstat -n", "cmd", S),
    ("nbtstat -RR", "cmd", M),
    # file-type handlers, ETW autologgers, disabled accounts, LSA (windows.py)
    ('ftype txtfile=C:\\evil.exe "%1"', "cmd", C),
    ("Disable-LocalUser -Name Administrator", "powershell", C),
    ("Get-LocalUser -Name Administrator", "powershell", S),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v LmCompatibilityLevel"
        " /t REG_DWORD /d 2 /f",
        "cmd",
        C,
    ),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v LmCompatibilityLevel"
        " /t REG_DWORD /d 5 /f",
        "cmd",
        M,
    ),
    # security services removed, mail rules off, AV/EDR killers (system.py, windows.py)
    ("Remove-Service -Name SentinelAgent", "powershell", C),
    ("Stop-Service -Name McAfeeDLPAgentService", "powershell", C),
    ("Remove-Service -Name MyAppSvc", "powershell", D),
    ('Disable-SafeLinksRule -Identity "Default"', "powershell", C),
    ("Get-SafeLinksRule", "powershell", S),
    ("EDRSandBlast.exe --kernelmode", "cmd", C),
    # IIS logging off, event-log killers (windows.py, system.py)
    (
        "appcmd set config /section:system.applicationHost/sites"
        " /siteDefaults.logFile.enabled:false",
        "cmd",
        C,
    ),
    ("appcmd set config /section:httpLogging /dontLog:False", "cmd", M),
    (".\\Phant0m-win64.exe", "powershell", C),
    # attack simulators (system.py)
    ("stratus detonate aws.defense-evasion.cloudtrail-stop --force", "bash", C),
    ("Invoke-AtomicTest T1490", "powershell", C),
    ("Invoke-AtomicTest T1003.001 -ShowDetailsBrief", "powershell", M),
    # Finder deletes judged by their path (inline.py)
    (
        'osascript -e \'tell application "Finder" to delete POSIX file "/var/log/system.log"\'',
        "bash",
        C,
    ),
    (
        'osascript -e \'tell application "Finder" to delete folder POSIX file "/Applications"\'',
        "bash",
        B,
    ),
    (
        'osascript -e \'tell application "Finder" to delete POSIX file "/Users/me/old.txt"\'',
        "bash",
        D,
    ),
]


@pytest.mark.parametrize("command,shell,expected", CASES)
def test_art6_mechanism(command: str, shell: str, expected: RiskLevel) -> None:
    got = assess(command, shell).level
    assert got == expected, f"{command!r} ({shell}) assessed {got.label}, expected {expected.label}"


def test_walk_splits_statements_and_keeps_constructs_whole() -> None:
    atomic = Atomic(
        "T1070.002",
        1,
        "sh",
        False,
        {"log": "/var/log/messages"},
        [
            "rm -rf #{log}",
            "if [ -d /var/audit ] ; then",
            "  rm -rf /var/audit/x",
            "fi",
            "cat > /etc/init.d/x << EOF",
            "#!/bin/sh",
            "EOF",
            "echo a > /tmp/f",
            "echo b >> /tmp/f",
            "exit 0",
        ],
    )
    assert statements(atomic) == [
        "rm -rf /var/log/messages",
        "if [ -d /var/audit ] ; then\n  rm -rf /var/audit/x\nfi",
        "cat > /etc/init.d/x << EOF\n#!/bin/sh\nEOF",
        "echo a > /tmp/f\necho b >> /tmp/f",
    ]


def test_walk_labels_by_written_rules_and_splits_by_technique() -> None:
    assert label("vssadmin.exe delete shadows /all /quiet")[0] == "blocked"
    assert label("wevtutil cl System")[0] == "critical"
    assert label("cat /tmp/x 2>/dev/null")[0] == "safe"
    assert label("shutdown -h now")[0] == "dangerous"
    # the split depends only on the technique id, so every test of a technique goes together
    assert split_of("T1490") == split_of("T1490")
    splits = [split_of(f"T{n}") for n in range(1000, 1600)]
    assert 0.2 < splits.count("dev") / len(splits) < 0.45
