"""Processes, services, power, and the machine's protections: kill, shutdown, systemctl,
cron, firewalls, SELinux/SIP, user accounts and administrator rights.
"""

from __future__ import annotations

import re

from aintern_ls.safety.context import STDIN_STATIC, Cmd
from aintern_ls.safety.levels import C, D, M
from aintern_ls.safety.registry import handles
from aintern_ls.safety.words import names

# --- processes, services, power ---------------------------------------------------------


@handles("kill", "pkill", "killall", "skill", "xkill", "taskkill", "stop-process", "tskill")
def _kill(cmd: Cmd) -> None:
    if cmd.name == "kill" and (
        cmd.has("-l", "-L") or any(w.text in ("-0", "-s0") for w in cmd.args)
    ):
        return
    cmd.add(D, "kill", f"{cmd.name} terminates processes")


@handles(
    *names(
        """
    shutdown reboot halt poweroff restart-computer stop-computer suspend-computer telinit
    """
    )
)
def _shutdown(cmd: Cmd) -> None:
    if cmd.name == "shutdown" and cmd.has("-c", "/a", "-a"):
        cmd.add(M, "shutdown", "cancels a scheduled shutdown")
        return
    cmd.add(D, "shutdown", f"{cmd.name} stops or restarts the machine")


@handles("init")
def _init(cmd: Cmd) -> None:
    if cmd.has("0", "6", "1", "s", "S"):
        cmd.add(D, "shutdown", "init changes the run level (halt/reboot/single user)")
    else:
        cmd.add(M, "unknown-command", "init")


SECURITY_UNITS = re.compile(
    r"^(firewalld|ufw|apparmor|auditd|selinux|fail2ban|clamav\S*|clamd\S*|falcon-sensor|"
    r"osqueryd|wazuh\S*|crowdstrike\S*|sshguard|iptables|nftables|windefend|wscsvc|mpssvc|"
    r"sense|wdnissvc|csagent|ossec\S*|aide|tripwire|snort|suricata)(\.service)?$",
    re.I,
)


@handles("systemctl", "service", "launchctl", "rc-service", "sv")
def _systemctl(cmd: Cmd) -> None:
    ops = [w.text for w in cmd.operands()]
    if cmd.name in ("service", "rc-service") and len(ops) >= 2:
        ops = [ops[1], ops[0]]
    verb = ops[0] if ops else ""
    units = ops[1:]
    if not ops or verb in names(
        """
        status show cat is-active is-enabled is-failed list-units list-unit-files list-timers
        list-sockets list-dependencies help get-default list-jobs list print blame --version
        --status-all log-level
        """
    ):
        return
    if verb in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove") and any(
        SECURITY_UNITS.match(u) for u in units
    ):
        cmd.add(C, "disable-security", f"{verb} turns off a security service")
    elif verb in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove"):
        cmd.add(D, "service-stop", f"{cmd.name} {verb} stops services")
    elif verb in ("enable", "load", "bootstrap", "submit", "reenable", "link", "preset"):
        cmd.add(C, "persistence", f"{cmd.name} {verb} makes a service start automatically")
    elif verb in names(
        """
        poweroff reboot halt suspend hibernate rescue emergency kexec isolate default
        soft-reboot
        """
    ):
        cmd.add(D, "shutdown", f"{cmd.name} {verb} stops or restarts the machine")
    else:
        cmd.add(M, "service", f"{cmd.name} {verb} changes services")


@handles("crontab")
def _crontab(cmd: Cmd) -> None:
    if cmd.short("r"):
        cmd.add(D, "crontab-remove", "crontab -r deletes every cron job without asking")
    elif cmd.short("l"):
        return
    elif cmd.short("e"):
        cmd.add(M, "crontab", "crontab -e edits scheduled jobs")
    else:
        cmd.add(C, "persistence", "crontab installs jobs that run on a schedule")
        if cmd.stdin.kind == STDIN_STATIC:
            # Each cron line is a schedule (5 fields or @word) and a command that will run.
            for line in cmd.stdin.text.splitlines():
                job = re.sub(r"^\s*(@\w+|(\S+\s+){5})", "", line)
                if job.strip() and not line.lstrip().startswith("#"):
                    cmd.scope.include(cmd.scope.nested(job, "bash", cmd.words[0], -1))


# --- security, users, privilege ---------------------------------------------------------


@handles("setenforce")
def _setenforce(cmd: Cmd) -> None:
    if cmd.has("0", "Permissive", "permissive"):
        cmd.add(C, "disable-security", "turns SELinux enforcement off")
    else:
        cmd.add(M, "security", "changes SELinux mode")


@handles("ufw")
def _ufw(cmd: Cmd) -> None:
    if cmd.has("disable", "reset"):
        cmd.add(C, "disable-security", "turns the firewall off")
    elif cmd.has("status", "show", "app"):
        return
    else:
        cmd.add(M, "firewall", "changes firewall rules")


@handles("iptables", "ip6tables", "nft", "iptables-legacy", "pfctl")
def _iptables(cmd: Cmd) -> None:
    if (cmd.short("LS") and not cmd.short("FXDP")) or (cmd.has("list", "-s") and cmd.name != "nft"):
        return
    if (
        cmd.short("FX")
        or cmd.long("--flush")
        or cmd.has("flush", "-d")
        or (cmd.short("P") and cmd.has("ACCEPT"))
    ):
        cmd.add(C, "disable-security", f"{cmd.name} removes firewall rules")
    else:
        cmd.add(M, "firewall", "changes firewall rules")


@handles("csrutil", "spctl", "auditctl")
def _csrutil(cmd: Cmd) -> None:
    if cmd.has("disable", "--master-disable", "--global-disable") or (
        cmd.name == "auditctl" and cmd.has("-D", "0")
    ):
        cmd.add(C, "disable-security", f"{cmd.name} turns off a system protection")
    elif cmd.has("status", "--status", "-l", "-s"):
        return
    else:
        cmd.add(M, "security", f"{cmd.name} changes system protection")


@handles("sysctl")
def _sysctl(cmd: Cmd) -> None:
    if any("randomize_va_space=0" in w.text or "ptrace_scope=0" in w.text for w in cmd.args):
        cmd.add(C, "disable-security", "turns off a kernel protection")
    elif cmd.short("w") or any("=" in w.text for w in cmd.args):
        cmd.add(M, "system-config", "changes kernel settings")


@handles(
    *names(
        """
    useradd adduser usermod gpasswd visudo chpasswd passwd userdel deluser groupadd addgroup
    dscl new-localuser add-localgroupmember set-localuser net1
    """
    )
)
def _users(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if cmd.name in ("visudo", "chpasswd") or re.search(
        r"\b(sudo|wheel|admin|root|docker|"
        r"administrators)\b",
        text,
    ):
        cmd.add(C, "privilege", f"{cmd.name} grants administrator rights or changes root")
    elif cmd.name == "usermod" and re.search(r"(^|\s)-(u|-uid)\s+0\b|(^|\s)-o\b", text):
        cmd.add(C, "privilege", "usermod gives an account root's user id")
    elif cmd.name in ("userdel", "deluser"):
        cmd.add(D, "user-delete", f"{cmd.name} deletes a user account")
    elif cmd.name == "passwd" and (not cmd.args or (cmd.short("Sl") and not cmd.short("d"))):
        cmd.add(M, "account", "changes your password")
    else:
        cmd.add(C, "account", f"{cmd.name} adds or changes user accounts")
