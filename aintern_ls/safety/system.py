"""Processes, services, power, and the machine's protections: kill, shutdown, systemctl,
cron, firewalls, SELinux/SIP, user accounts and administrator rights.
"""

from __future__ import annotations

import itertools
import re
import shlex
from functools import lru_cache

from aintern_ls.safety import inline, remote
from aintern_ls.safety.argv import asks_help
from aintern_ls.safety.argv import base_name as _base_name
from aintern_ls.safety.context import STDIN_STATIC, Cmd
from aintern_ls.safety.levels import B, C, D, M, RiskLevel, S
from aintern_ls.safety.registry import (
    COMPILED,
    handles,
    jvm_event_findings,
    rest,
    run_config_command,
    runner,
    skip_options,
    unreadable_program,
)
from aintern_ls.safety.security import (
    free_text_pattern,
    security_component,
    security_in_text,
    security_label,
    security_name,
)
from aintern_ls.safety.shape import is_dry_marker
from aintern_ls.safety.words import ORIGIN_VARIABLE, Word, names, starts_shell

# --- processes, services, power ---------------------------------------------------------


@handles("kill", "pkill", "killall", "skill", "xkill", "taskkill", "stop-process", "tskill")
def _kill(cmd: Cmd) -> None:
    if cmd.name == "kill" and (
        cmd.has("-l", "-L") or any(w.text in ("-0", "-s0") for w in cmd.args)
    ):
        return
    if cmd.name == "killall" and [t.lower() for t in cmd.texts()] in (["-l"], ["--list"]):
        return  # (h20) `killall -l`: lists the signal names
    source = cmd.scope.source
    # Piped in (`Get-Process MsMpEng | Stop-Process`, `pgrep falco | xargs kill`): the line
    # up to this command names the targets.
    begin = source.rfind("\n", 0, cmd.start) + 1 if cmd.stdin.kind != "none" else cmd.start
    src = source[begin : cmd.end][-2000:] if cmd.end <= len(source) else ""
    targets = " ".join(cmd.texts()) + " " + src
    if free_text_pattern(cmd.name, [t.lower() for t in cmd.texts()]):  # `pkill -f avg`
        if security_in_text(targets):
            cmd.add(C, "disable-security", f"{cmd.name} kills a security or logging agent")
            return
    elif any(security_name(t) for t in cmd.texts()) or security_component(targets):
        cmd.add(C, "disable-security", f"{cmd.name} kills a security or logging agent")
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
    if cmd.name == "shutdown" and (
        cmd.has("/a", "-a")
        # (w22) Linux's `shutdown -c` cancels; Windows' `/c "…"` (or `-c`) is the comment of
        # a shutdown that `/s`, `/r`, `/p`, `/g` or `/sg` still orders
        or (
            cmd.has("-c")
            and (
                cmd.scope.family == "bash"  # (review 22 O4: Linux's -c, whatever else is given)
                or not cmd.has("/s", "-s", "/r", "-r", "/p", "-p", "/g", "-g", "/sg", "-sg")
            )
        )
    ):
        cmd.add(M, "shutdown", "cancels a scheduled shutdown")
        return
    cmd.add(D, "shutdown", f"{cmd.name} stops or restarts the machine")


@handles("init")
def _init(cmd: Cmd) -> None:
    if cmd.has("0", "6", "1", "s", "S"):
        cmd.add(D, "shutdown", "init changes the run level (halt/reboot/single user)")
    else:
        cmd.add(M, "unknown-command", "init")


@handles("systemctl", "service", "launchctl", "rc-service", "sv")
def _systemctl(cmd: Cmd) -> None:
    args = cmd.args
    if cmd.name == "launchctl" and args and args[0].text in ("asuser", "bsexec") and len(args) > 2:
        # `launchctl asuser UID CMD …` / `bsexec PID CMD …` run CMD in that context.
        cmd.add(M, "runs-program", f"launchctl {args[0].text} runs a command as another session")
        cmd.info = cmd.judge(list(args[2:]), cmd.stdin)
        return
    ops = [w.text for w in cmd.operands()]
    if cmd.name in ("service", "rc-service") and len(ops) >= 2:
        ops = [ops[1], ops[0]]
    verb = ops[0] if ops else ""
    units = ops[1:]
    if not ops or verb in names(
        """
        status show cat is-active is-enabled is-failed list-units list-unit-files list-timers
        list-sockets list-dependencies help get-default list-jobs list print blame --version
        --status-all log-level show-environment list-paths list-automounts
        """
    ):
        return
    if verb in (
        "stop",
        "disable",
        "mask",
        "kill",
        "unload",
        "bootout",
        "remove",
        "teardown",
    ) and any(security_label(u) for u in units):
        cmd.add(C, "disable-security", f"{verb} turns off a security service")
    elif verb in ("disable", "mask", "unload", "bootout", "remove") and any(
        _backup_unit(u) for u in units
    ):
        # `systemctl disable --now borgmatic.timer`: no backup is taken from now on (m8)
        cmd.add(C, "backup-off", f"{cmd.name} {verb} turns off scheduled backups")
    elif verb in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove"):
        cmd.add(D, "service-stop", f"{cmd.name} {verb} stops services")
    elif verb in ("enable", "load", "bootstrap", "submit", "reenable", "link", "preset"):
        cmd.add(C, "persistence", f"{cmd.name} {verb} makes a service start automatically")
        texts = cmd.texts()
        if verb == "submit" and "--" in texts and texts.index("--") + 1 < len(texts):
            # `launchctl submit -l x [-p PROG] -- ARGS`: launchd runs it (and keeps it alive).
            job = list(cmd.args[texts.index("--") + 1 :])
            prog = cmd.option_value("-p")
            cmd.judge([prog, *job] if prog is not None else job, cmd.stdin)
    elif verb in names(
        """
        poweroff reboot halt suspend hibernate rescue emergency kexec isolate default
        soft-reboot
        """
    ):
        cmd.add(D, "shutdown", f"{cmd.name} {verb} stops or restarts the machine")
    elif (cmd.name == "launchctl" and verb in ("config", "setenv", "putenv")) or (
        cmd.name == "systemctl" and verb in ("set-environment", "import-environment")
    ):
        # `launchctl config user path /tmp/.b:…`, `launchctl setenv DYLD_INSERT_LIBRARIES x`,
        # `systemctl set-environment LD_PRELOAD=x`: every program launched from now on gets
        # it (a loader hook or a search path first): persistence (safety-m8)
        cmd.add(C, "persistence", f"{cmd.name} {verb} changes what every launched program gets")
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
        text = cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC else None
        files = [
            w
            for k, w in enumerate(cmd.args)
            if not w.text.startswith("-") and not (k and cmd.args[k - 1].text == "-u")
        ]  # (`crontab -u root FILE`: the user is no file)
        if text is None and len(files) == 1 and not files[0].dynamic:
            # (u22) `crontab /tmp/c` after the block wrote /tmp/c: its lines are the jobs
            base = files[0].text.strip("\"'").replace("\\", "/").rsplit("/", 1)[-1]
            held = cmd.scope.written.get(base) if cmd.scope.written else None
            text = held[0] if held is not None else None
        if text is not None:
            # Each cron line is a schedule (5 fields or @word) and a command that will run.
            for line in text[:20000].splitlines()[:64]:
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
    ops = [t.lower() for t in cmd.texts() if not t.startswith("-")]
    if cmd.has("disable", "reset") or (
        cmd.has("default") and cmd.has("allow") and not cmd.has("outgoing", "routed")
    ):
        cmd.add(C, "disable-security", "turns the firewall off or lets all traffic in")
    elif ops[:1] in (["allow"], ["insert"], ["prepend"]) and _ufw_allows_any(ops):
        # (n19u) `ufw allow from any`, `ufw insert 1 allow from any to any`: every port
        # open to every address
        cmd.add(C, "firewall-open", "ufw lets every connection in from anywhere")
    elif cmd.has("status", "show", "app"):
        return
    else:
        cmd.add(M, "firewall", "changes firewall rules")


# (h20) A port range covering every port (`1:65535`, `0:65535/tcp`): no port narrows it.
_ALL_PORTS = re.compile(r"0{0,4}[01][:-]65535(?:/(?:tcp|udp))?\Z")


def _ufw_allows_any(ops: list[str]) -> bool:
    """`allow [in] from any [to any]` with no port, protocol or named service; or every
    port (`ufw allow 1:65535/tcp`, `… proto tcp from any to any port 1:65535`)."""
    words = [t for t in ops if not t.isdigit()]
    if words[:1] == ["insert"] or words[:1] == ["prepend"]:
        words = words[1:]
    every_port = any(_ALL_PORTS.match(t) for t in words)
    if words[:1] != ["allow"] or ("from" not in words and not every_port):
        return False
    loose: tuple[str, ...] = ("in", "from", "to", "any", "0.0.0.0/0", "::/0")
    if every_port:
        loose = (*loose, "port", "proto", "tcp", "udp")
    rest = [t for t in words[1:] if t not in loose and not _ALL_PORTS.match(t)]
    return not rest


# (n19u) Options that narrow an iptables ACCEPT rule to some traffic (a protocol, a port, a
# source, a match module, the loopback interface); a rule with none lets everything in.
_IPT_NARROW = frozenset(
    names(
        """
        -p --protocol --dport --sport --dports --sports -s --source --src -m --match
        --src-range --mac-source --uid-owner
        """
    )
)
_ANY_ADDRESS = frozenset(("0.0.0.0/0", "::/0", "0/0", "any", "0.0.0.0"))


def _iptables_accepts_all(cmd: Cmd) -> bool:
    """`iptables -I INPUT 1 -j ACCEPT`, `ip6tables -A INPUT -s ::/0 -j ACCEPT`: a rule on the
    INPUT chain that accepts every packet."""
    texts = cmd.texts()
    chain = next(
        (
            texts[k + 1]
            for k, t in enumerate(texts[:-1])
            if t in ("-A", "-I", "--append", "--insert")
        ),
        "",
    )
    if chain.upper() != "INPUT":
        return False
    target = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-j", "--jump")), "")
    if target.upper() != "ACCEPT":
        return False
    for k, t in enumerate(texts):
        key = t.split("=", 1)[0]
        value = t.split("=", 1)[1] if "=" in t else (texts[k + 1] if k + 1 < len(texts) else "")
        if key in ("-i", "--in-interface") and value.startswith("lo"):
            return False
        if key in _IPT_NARROW and not (
            key in ("-s", "--source", "--src") and value in _ANY_ADDRESS
        ):
            return False
    return True


_NFT_NARROW = frozenset(
    names(
        """
        tcp udp sctp dccp dport sport saddr daddr ip ip6 ct iif iifname meta th icmp icmpv6
        ether mark set @ limit socket fib
        """
    )
)


def _nft_accepts_all(ops: list[str]) -> bool:
    """`nft add rule inet filter input accept`: an input-chain rule accepting everything."""
    words = " ".join(ops).replace("'", " ").replace('"', " ").split()
    if len(words) < 4 or words[0] not in ("add", "insert") or words[1] != "rule":
        return False
    at = 5 if words[2] in ("ip", "ip6", "inet", "arp", "bridge", "netdev") else 4
    if "accept" not in words or len(words) <= at or words[at - 1].lower() != "input":
        return False
    rest = words[at:]
    if "saddr" in rest:
        # (h20) `ip saddr 0.0.0.0/0 accept`: a source of every address narrows nothing
        k = rest.index("saddr")
        if k + 1 < len(rest) and rest[k + 1] in _ANY_ADDRESS:
            rest = [w for j, w in enumerate(rest) if j not in (k - 1, k, k + 1)]
    return not any(w in _NFT_NARROW or w.startswith("@") for w in rest)


def _nft_input_policy_accept(ops: list[str]) -> bool:
    """(h20) `nft chain inet filter input { policy accept; }` (an existing input chain's
    default changed, as `iptables -P INPUT ACCEPT`): every connection let in."""
    words = " ".join(ops).replace(";", " ").replace("'", " ").replace('"', " ").lower().split()
    if "policy" not in words or "input" not in words or words[0] in ("add", "create"):
        return False  # (a base chain made with accept, the tutorial's form, changes nothing)
    k = words.index("policy")
    return k + 1 < len(words) and words[k + 1] == "accept"


@handles("iptables-save", "ip6tables-save", "iptables-restore", "ip6tables-restore")
def _iptables_files(cmd: Cmd) -> None:
    """(h20) `iptables-save` prints the rules; `iptables-restore --test` only parses a rule
    file. A restore loads (and by default flushes) tables: a firewall change."""
    if cmd.name.endswith("-save") or cmd.short("t") or cmd.long("--test"):
        return
    cmd.add(M, "firewall", f"{cmd.name} replaces firewall rules")


@handles("iptables", "ip6tables", "nft", "iptables-legacy", "pfctl")
def _iptables(cmd: Cmd) -> None:
    if (cmd.short("LS") and not cmd.short("FXDP")) or (
        cmd.name != "nft" and (cmd.has("list") or (cmd.name == "pfctl" and cmd.has("-s")))
    ):
        return
    if (cmd.name == "nft" and (cmd.short("c") or cmd.long("--check"))) or (
        cmd.name != "nft" and cmd.name != "pfctl" and (cmd.short("C") or cmd.long("--check"))
    ):
        return  # (h20) `iptables -C INPUT …`, `nft -c -f rules.nft`: check modes change nothing
    ops = [t for t in cmd.texts() if not t.startswith("-")]
    if cmd.name == "nft" and ops[:1] in (["list"], ["describe"], ["monitor"]):
        return  # `nft list ruleset`: prints the rules
    if cmd.name == "pfctl" and cmd.short("s") and not cmd.short("FdfeEa"):
        return  # `pfctl -sr`: shows rules
    if (
        cmd.short("FX")
        or cmd.long("--flush")
        or cmd.has("flush", "-d")
        or (cmd.short("P") and cmd.has("ACCEPT"))
    ):
        cmd.add(C, "disable-security", f"{cmd.name} removes firewall rules")
    elif (cmd.name != "nft" and cmd.name != "pfctl" and _iptables_accepts_all(cmd)) or (
        cmd.name == "nft" and (_nft_accepts_all(ops) or _nft_input_policy_accept(ops))
    ):
        cmd.add(C, "firewall-open", f"{cmd.name} lets every connection in (an allow-any rule)")
    else:
        cmd.add(M, "firewall", "changes firewall rules")


@handles("csrutil", "spctl", "auditctl")
def _csrutil(cmd: Cmd) -> None:
    if (
        cmd.has("disable", "--master-disable", "--global-disable")
        or (cmd.name == "auditctl" and cmd.has("-D", "0"))
        or (
            # `auditctl -a never,task`, `-a exit,never -S all`: a rule that audits nothing
            cmd.name == "auditctl"
            and re.search(r"(?:\A|\s)-[aA]\s*(?:never,\w+|\w+,never)\b", " ".join(cmd.texts()))
        )
    ):
        cmd.add(C, "disable-security", f"{cmd.name} turns off a system protection")
    elif cmd.name == "spctl" and cmd.has("--add", "--enable-path", "--disable"):
        cmd.add(C, "disable-security", "spctl lets a program past Gatekeeper")
    elif cmd.has("status", "--status", "-l", "-s"):
        return
    else:
        cmd.add(M, "security", f"{cmd.name} changes system protection")


# Kernel hardening switches and the value that turns each off (`kernel.kptr_restrict=0`
# shows kernel addresses to everyone, `kernel.core_pattern=|PROG` runs PROG as root on
# every crash).
_SYSCTL_WEAKEN = re.compile(
    r"(?i)^(?:kernel\.(?:randomize_va_space|kptr_restrict|dmesg_restrict|yama\.ptrace_scope"
    r"|unprivileged_bpf_disabled|kexec_load_disabled|perf_event_paranoid)"
    r"|net\.core\.bpf_jit_harden|fs\.protected_(?:symlinks|hardlinks|fifos|regular)"
    r"|dev\.tty\.ldisc_autoload)\s*=\s*(?:0|-1)\s*$"
    r"|^fs\.suid_dumpable\s*=\s*[12]\s*$|^kernel\.core_pattern\s*=\s*\|"
    r"|^kernel\.(?:unprivileged_userns_clone|modules_disabled)\s*=\s*1\s*$"
)


@handles("sysctl")
def _sysctl(cmd: Cmd) -> None:
    if any(_SYSCTL_WEAKEN.search(w.text) for w in cmd.args):
        cmd.add(C, "disable-security", "turns off a kernel protection")
    elif cmd.short("w") or any("=" in w.text for w in cmd.args):
        cmd.add(M, "system-config", "changes kernel settings")


# Kernel command-line options that turn a security module or auditing off at boot.
_BOOT_SECURITY_OFF = re.compile(
    r"(?i)(?:^|[\s,\"'=])(?:selinux|enforcing|apparmor|audit|ima_appraise|module\.sig_enforce)"
    r"=(?:0|off)\b|(?:^|[\s,\"'=])(?:lockdown=none|security=none|ima_appraise=off)"
)


@handles("grubby", "kernelstub", "grub2-editenv", "grub-editenv")
def _kernel_cmdline(cmd: Cmd) -> None:
    """Boot entries' kernel command line: an option that turns SELinux, AppArmor, auditing
    or lockdown off is a security change (critical); other edits change how it boots."""
    texts = cmd.texts()
    if any(_BOOT_SECURITY_OFF.search(t) for t in texts):
        cmd.add(C, "disable-security", f"{cmd.name} turns a security module off at boot")
    elif cmd.name == "grubby" and all(
        t.startswith(("--info", "--default-", "--bootloader-probe")) or t == "ALL" for t in texts
    ):
        return  # `grubby --info=ALL`, `--default-kernel`: reads the boot entries
    elif (
        cmd.name in ("grub2-editenv", "grub-editenv") and "list" in texts and "set" not in texts
    ) or (cmd.name == "kernelstub" and (not texts or cmd.short("p"))):
        return
    else:
        cmd.add(M, "boot-config", f"{cmd.name} changes the boot entries")


@handles("semanage")
def _semanage(cmd: Cmd) -> None:
    """SELinux policy: a permissive domain (or `-a` of one) turns enforcement off for it;
    turning a boolean on or off changes the policy; `-l` lists."""
    ops = cmd.operands()
    what = ops[0].text if ops else ""
    if cmd.short("l") or cmd.has("--list", "-E", "--extract"):
        return
    if what == "permissive" and (cmd.short("a") or cmd.has("--add")):
        cmd.add(C, "disable-security", "semanage makes an SELinux domain permissive")
    else:
        cmd.add(M, "security", f"semanage {what} changes the SELinux policy".replace("  ", " "))


@handles(
    *names(
        """
    useradd adduser usermod gpasswd visudo chpasswd passwd userdel deluser groupadd addgroup
    groupdel delgroup
    dscl new-localuser add-localgroupmember set-localuser chsh chfn chage vipw vigr
    newusers sysadminctl pwconv grpconv pam-auth-update authconfig
    """
    )
)
def _users(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if cmd.name == "visudo" and (cmd.short("c") or cmd.long("--check")):
        return  # visudo -c only checks the sudoers syntax (of -f FILE too, h20)
    if cmd.name == "passwd" and (cmd.short("S") or cmd.has("--status")) and not cmd.short("dlu"):
        return  # passwd -S only shows an account's status
    if cmd.name == "dscl" and not re.search(
        r"(^|\s)-?(create|append|merge|passwd|change|delete|changei|createpl|appendpl|mergepl"
        r"|deletepl|auth)\b",
        text,
    ):
        return  # dscl -read/-list/-search/-readall only read the directory
    if cmd.name == "dscl" and re.search(r"(^|\s)-?delete(pl)?\b", text):
        record = next((w for w in cmd.args if w.text.lower().startswith("/users/")), None)
        if record is not None and " -deletepl" not in " " + text:
            user = Word(record.text[7:], record.start, record.end, record.dynamic)
            if _every_or_root_account(user, cmd):
                return
        cmd.add(D, "user-delete", "dscl deletes a directory record (an account or group)")
        return
    if cmd.name == "sysadminctl":
        if re.search(r"-deleteuser\b", text):
            at = next((k for k, w in enumerate(cmd.args) if w.text.lower() == "-deleteuser"), -1)
            if 0 <= at < len(cmd.args) - 1 and _every_or_root_account(cmd.args[at + 1], cmd):
                return
            cmd.add(D, "user-delete", "sysadminctl deletes a user account")
            return
        if not re.search(
            r"-(adduser|resetpasswordfor|newpassword|guestaccount\s+on|adminuser|addadmin"
            r"|autologin\s+set|securetokenon|screenlock\s+off"
            # (safety-rep7, LOOBins) guest access to file sharing: anyone on the network reads
            r"|(smb|afp)guestaccess\s+on)",
            text,
        ):
            return  # -secureTokenStatus, -guestAccount status, -filesystem status …
    if cmd.name == "chage" and (cmd.short("l") or cmd.has("--list")):
        return  # (h19) `chage -l root`: lists the password ageing, whoever the account
    if cmd.name == "useradd" and [w.text for w in cmd.args] == ["-D"]:
        return  # (h19) `useradd -D` alone prints the defaults (with options it sets them)
    victim = next((w for w in cmd.args if not w.text.startswith("-")), None)
    if cmd.name in ("userdel", "deluser") and victim and _every_or_root_account(victim, cmd):
        return
    if cmd.name in ("visudo", "chpasswd") or re.search(
        r"\b(sudo|wheel|admin|root|docker|"
        r"administrators)\b",
        text,
    ):
        cmd.add(C, "privilege", f"{cmd.name} grants administrator rights or changes root")
    elif cmd.name == "usermod" and re.search(r"(^|\s)-(u|-uid)\s+0\b|(^|\s)-o\b", text):
        cmd.add(C, "privilege", "usermod gives an account root's user id")
    elif cmd.name in ("userdel", "deluser", "groupdel", "delgroup"):
        what = "group" if "group" in cmd.name else "user account"
        every = next(
            (w for w in cmd.args if not w.text.startswith("-") and "*" in w.text and w.glob),
            None,
        ) or next((w for w in cmd.args if w.text in ("*", "/home", "/Users", "/home/*")), None)
        if every is not None and "group" not in cmd.name:
            # `cut -d: -f1 /etc/passwd | xargs -n1 userdel -r`: every account (safety-m8)
            cmd.add(B, "user-delete", f"{cmd.name} deletes every user account", every)
            return
        cmd.add(D, "user-delete", f"{cmd.name} deletes a {what}")
    elif cmd.name == "passwd" and not cmd.args:
        cmd.add(M, "account", "changes your password")
    elif cmd.name in ("chage", "chsh", "chfn") and (cmd.short("l") or not cmd.args):
        return  # chage -l lists; bare chsh/chfn ask interactively for your own account
    else:
        cmd.add(C, "account", f"{cmd.name} adds or changes user accounts")


@handles("sestatus", "getenforce", "aa-status", "apparmor_status", "getsebool")
def _security_status(cmd: Cmd) -> None:
    """Read-only status of SELinux and AppArmor."""


@handles("falconctl", "mdatp", "sentinelctl", "wdavdaemonclient", "cbagentd", "sophos-av")
def _edr_cli(cmd: Cmd) -> None:
    """Command-line tools of endpoint security agents (CrowdStrike falconctl, Microsoft
    Defender for Endpoint mdatp, SentinelOne sentinelctl): unloading the agent, turning real-time
    protection off or adding exclusions blinds it; health and status only read."""
    text = " ".join(cmd.texts()).lower()
    if re.search(
        r"\b(unload|uninstall|stop|disable|unprotect|-d\b)|--value\s+disabled|passive-mode"
        r"\s+--value\s+enabled|exclusion\S*\s+\S*\s*add\b|\badd\b.*--path",
        text,
    ):
        cmd.add(C, "disable-security", f"{cmd.name} turns an endpoint security agent off")
    elif not cmd.args or re.search(r"\b(health|version|stats|status|-g|list|info|--help)\b", text):
        return
    else:
        cmd.add(M, "security", f"{cmd.name} changes an endpoint security agent's settings")


@handles("efibootmgr")
def _efibootmgr(cmd: Cmd) -> None:
    """Linux EFI boot manager: deleting boot entries can leave the machine unbootable
    (boot configuration, blocked); changing the order or entries is critical."""
    if cmd.short("B") or cmd.long("--delete-bootnum"):
        cmd.add(B, "boot-config", "efibootmgr deletes a boot entry: the machine may not boot")
        return
    if not cmd.args or all(w.text in ("-v", "--verbose", "-V", "--version") for w in cmd.args):
        return
    cmd.add(C, "boot-config", "efibootmgr changes the firmware's boot entries or order")


@handles("networksetup")
def _networksetup(cmd: Cmd) -> None:
    verb = cmd.args[0].text.lower() if cmd.args else ""
    if not verb or verb.startswith(("-list", "-get", "-print", "-help", "-version", "-show")):
        return
    cmd.add(M, "network", "networksetup changes network settings")


@handles("iisreset", "pg_ctl", "pg_ctlcluster", "pm2", "supervisorctl", "rabbitmqctl", "forever")
def _service_tools(cmd: Cmd) -> None:
    """Tools that stop services their own way (iisreset /stop, pg_ctl stop, pm2 delete …):
    stopping a service is dangerous, like `systemctl stop`."""
    texts = [t.lower() for t in cmd.texts()]
    stops = {
        "/stop",
        "/reboot",
        "/rebootonerror",
        "stop",
        "kill",
        "delete",
        "del",
        "shutdown",
        "stopall",
        "stop_app",
        "reset",
        "force_reset",
        "remove",
        "/noforce",
    }
    reads = {
        "/status",
        "status",
        "list",
        "ls",
        "l",
        "logs",
        "show",
        "describe",
        "info",
        "monit",
        "avail",
        "cluster_status",
        "list_queues",
        "--version",
        "-v",
        "/?",
    }
    if cmd.name == "iisreset" and not texts:
        cmd.add(D, "service-stop", "iisreset restarts IIS (every web site stops for a moment)")
    elif any(t in stops for t in texts):
        cmd.add(D, "service-stop", f"{cmd.name} stops or removes services")
    elif texts and (
        texts[0] in reads
        or re.fullmatch(
            r"(?:list|show|get|describe|status|info|enumerate|report|environment)(?:[-_]\w+)?"
            r"|\w{1,40}[-_](?:list|status|info|report)",
            texts[0],
        )
    ):
        return  # `rabbitmqctl list_users`, `…ctl show-config`: a listing or status (m8)
    else:
        cmd.add(M, "service", f"{cmd.name} changes services")


@handles("tccutil")
def _tccutil(cmd: Cmd) -> None:
    """macOS privacy database (TCC): resetting it drops every user decision about camera,
    disk, accessibility … access, a known step before abusing those rights."""
    if cmd.args and cmd.args[0].text.lower() == "reset":
        cmd.add(C, "disable-security", "tccutil reset clears macOS privacy (TCC) decisions")
    elif cmd.args and cmd.args[0].text not in ("--help", "-h", "--version"):
        cmd.add(M, "security", "tccutil changes macOS privacy settings")


@handles("firewall-cmd", "firewall-offline-cmd")
def _firewall_cmd(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if re.search(
        r"--set-default-zone[= ]trusted|--panic-off|--zone[= ]trusted\s.*--add-source"
        r"|--add-source=0\.0\.0\.0/0|--set-target[= ]accept",
        text,
    ):
        cmd.add(C, "disable-security", "firewall-cmd lets all traffic through")
    elif re.search(r"--add-port[= ]0*[01]-65535/", text) or re.search(
        r"--add-rich-rule[= ]['\"]?rule\s+(?:family=\S+\s+)?(?:source address=['\"]?"
        r"(?:0\.0\.0\.0/0|::/0)['\"]?\s+)?accept",
        text,
    ):
        # (n19u) every port, or a rich rule accepting everything: an allow-any rule
        cmd.add(C, "firewall-open", "firewall-cmd lets every connection in")
    elif re.search(
        r"--(add|remove|change|set|new|delete|reload|complete-reload|runtime-to"
        r"|query-panic|panic-on|permanent|direct|lockdown)",
        text,
    ) and not re.search(r"--(list|get|query|info|state)", text):
        cmd.add(M, "firewall", "firewall-cmd changes firewall rules")


@handles("pw")
def _pw(cmd: Cmd) -> None:
    """FreeBSD `pw`: useradd/usermod/groupmod … change accounts; *show/*next only read."""
    verb = cmd.args[0].text.lower() if cmd.args else ""
    text = " ".join(cmd.texts()).lower()
    if not verb or verb.endswith(("show", "next")) or verb in ("-v", "-h"):
        return
    if verb in ("userdel", "groupdel"):
        user = next((w for w in cmd.args[1:] if not w.text.startswith("-")), None)
        if verb == "userdel" and user is not None and _every_or_root_account(user, cmd):
            return  # (n19u) `pw userdel root`
        cmd.add(D, "user-delete", f"pw {verb} deletes an account or a group")
    elif re.search(r"\b(wheel|operator|admin|root)\b|(^|\s)-(u|o)\s+0\b|(^|\s)-o\b", text):
        cmd.add(C, "privilege", f"pw {verb} grants administrator rights or root's user id")
    else:
        cmd.add(C, "account", f"pw {verb} adds or changes user accounts")


@handles("dseditgroup")
def _dseditgroup(cmd: Cmd) -> None:
    op = cmd.option_value("-o")
    verb = op.text.lower() if op is not None else ""
    text = " ".join(cmd.texts()).lower()
    if verb in ("read", "checkmember", ""):
        return
    if verb == "delete" or (verb == "edit" and cmd.has("-d")):
        cmd.add(D, "user-delete", "dseditgroup removes a group or a member")
    elif re.search(r"\b(admin|wheel|staff|_developer|com\.apple\.access_ssh)\b", text):
        cmd.add(C, "privilege", "dseditgroup grants administrator or remote-login rights")
    else:
        cmd.add(C, "account", "dseditgroup changes group membership")


@handles(
    *names(
        """
        add-adgroupmember add-adprincipalgroupmembership new-aduser set-adaccountpassword
        enable-adaccount set-adaccountcontrol set-aduser unlock-adaccount new-adgroup
        enable-localuser set-adaccountexpiration dsadd dsmod chpass lusermod rename-localuser
        samba-tool
        luseradd lgroupmod mkuser chuser smbpasswd pdbedit
        """
    )
)
def _more_accounts(cmd: Cmd) -> None:
    """Account tools on other platforms: Active Directory cmdlets, dsadd/dsmod, BSD chpass,
    libuser, AIX mkuser/chuser, Samba's password database."""
    text = " ".join(cmd.texts()).lower()
    low_name = cmd.name.lower()
    if low_name == "unlock-adaccount" and not _ADMIN_NAMES.search(text):
        # (h19) a locked-out account may log in again with its own, unchanged password:
        # the help desk's routine, not a new account or a new right
        cmd.add(M, "account", "Unlock-ADAccount lets a locked-out account log in again")
        return
    if low_name == "set-aduser" and _descriptive_only(cmd):
        cmd.add(M, "account", "Set-ADUser changes a user's descriptive directory attributes")
        return
    if cmd.name == "samba-tool" and not re.search(
        r"\b(add|create|setpassword|enable|addmembers|setexpiry|unlock)\b", text
    ):
        return
    if cmd.name == "smbpasswd" and not cmd.args:
        cmd.add(M, "account", "changes your Samba password")
    elif cmd.name == "pdbedit" and (cmd.short("Lvw") and not cmd.short("axu")):
        return
    elif _ADMIN_NAMES.search(text):
        cmd.add(C, "privilege", f"{cmd.name} grants administrator rights")
    else:
        cmd.add(C, "account", f"{cmd.name} adds or changes accounts or group membership")


@handles("pmset")
def _pmset(cmd: Cmd) -> None:
    """(h19) macOS power management: `pmset -g …` prints the settings, the battery, the
    assertions or the log; anything else changes them or sleeps the machine."""
    texts = cmd.texts()
    if texts and texts[0].startswith("-g"):
        return
    cmd.add(M, "system-config", "pmset changes power settings or sleeps the machine")


@handles("xcode-select")
def _xcode_select(cmd: Cmd) -> None:
    """(h19) `xcode-select -p`/`--version` print; `--install` installs the command line
    tools, `-s`/`--reset` switch the developer directory every build uses."""
    texts = cmd.texts()
    if all(t in ("-p", "--print-path", "-v", "--version", "-h", "--help") for t in texts):
        return
    cmd.add(M, "install", "xcode-select installs or switches the developer tools")


@handles("repair-volume")
def _repair_volume(cmd: Cmd) -> None:
    """(h19) `Repair-Volume -Scan` only scans the volume online (like `chkdsk C:`);
    -SpotFix and -OfflineScanAndFix change it (like `chkdsk /f`)."""
    low = [w.text.lower() for w in cmd.args]
    if "-scan" in low and not any(t in ("-spotfix", "-offlinescanandfix") for t in low):
        return
    cmd.add(M, "disk", "Repair-Volume fixes the volume's file system")


@handles("get-lapsadpassword", "get-lapsaadpassword", "get-admpwdpassword")
def _laps_password(cmd: Cmd) -> None:
    """(h19) Windows LAPS keeps each machine's local Administrator password in the
    directory. `-AsPlainText` (and the legacy `Get-AdmPwdPassword`, which always shows it)
    prints that password in clear: a privileged credential read out, like `security
    find-generic-password -w` (critical). Without it the password stays a SecureString
    and the cmdlet lists expiry and account names only (safe)."""
    clear = cmd.name.lower() == "get-admpwdpassword" or any(
        w.text.lower().split(":", 1)[0] in ("-asplaintext", "-asplain") for w in cmd.args
    )
    if clear and not any(w.text.lower().endswith(":$false") for w in cmd.args):
        cmd.add(
            C,
            "credential-dump",
            f"{cmd.name} shows a machine's local Administrator password in clear",
        )


# (h19) Set-ADUser parameters that only describe the person (the directory as an address
# book) or say where the cmdlet runs; any other (-Enabled, -PasswordNeverExpires,
# -TrustedForDelegation, -ServicePrincipalNames, -ScriptPath, -Add/-Replace of raw
# attributes…) changes how the account logs in or what it may do (critical).
_AD_DESCRIPTIVE = frozenset(
    names(
        """
        -identity -server -credential -authtype -partition -passthru -whatif -confirm
        -verbose -debug -erroraction -warningaction -manager -title -department -division
        -company -office -officephone -mobilephone -homephone -fax -emailaddress -description
        -displayname -givenname -surname -initials -othername -city -state -country
        -postalcode -streetaddress -pobox -employeeid -employeenumber -organization
        -homepage
        """
    )
)


def _descriptive_only(cmd: Cmd) -> bool:
    """Every parameter named is one of `_AD_DESCRIPTIVE` (and at least one is named)."""
    named = [
        w.text.lower().split(":", 1)[0]
        for w in cmd.args
        if w.text.startswith("-") and len(w.text) > 1
    ]
    return bool(named) and all(n in _AD_DESCRIPTIVE for n in named)


_ADMIN_NAMES = re.compile(
    r"administrat|domain admins|enterprise admins|schema admins|account operators|dnsadmins"
    r"|backup operators|remote desktop users|\bwheel\b|\badmins?\b"
)


@handles("aa-teardown", "aa-disable", "aa-complain", "socketfilterfw", "apparmor_parser")
def _mac_and_apparmor(cmd: Cmd) -> None:
    """AppArmor profiles and the macOS application firewall are security features."""
    text = " ".join(cmd.texts()).lower()
    if cmd.name == "apparmor_parser" and not cmd.short("R"):
        cmd.add(M, "system-config", "loads an AppArmor profile")
    elif cmd.name == "socketfilterfw" and not re.search(r"setglobalstate\s+off|--remove", text):
        if re.search(r"--get|--list", text):
            return
        cmd.add(M, "system-config", "changes the application firewall")
    else:
        cmd.add(C, "disable-security", f"{cmd.name} turns off a system protection")


_LOGIN_HOOK = re.compile(r"\A(LoginHook|LogoutHook)\Z", re.I)


# The preference domains of macOS software and security updates (the App Store's included).
_UPDATE_DOMAINS = frozenset({"com.apple.softwareupdate", "com.apple.commerce"})


def _update_setting_off(texts: list[str]) -> bool:
    """`defaults write com.apple.SoftwareUpdate KEY -bool NO`, in any order of the type flag
    and whatever the key (`-bool com.apple.SoftwareUpdate NO`, `ConfigDataInstall -int 0`):
    a false value written into an update domain turns an update feature off (gen12)."""
    ops = [t for t in texts if not t.startswith("-")]
    if len(ops) < 3 or ops[0] != "write" or ops[-1].lower() not in ("no", "false", "0"):
        return False
    domain = ops[1].lower().replace("\\", "/").rsplit("/", 1)[-1]
    return domain.removesuffix(".plist") in _UPDATE_DOMAINS


def defaults_write(cmd: Cmd) -> None:
    """`defaults write com.apple.loginwindow LoginHook /x.sh` runs a script at every login."""
    texts = cmd.texts()
    if len(texts) >= 3 and texts[0] == "write" and any(_LOGIN_HOOK.match(t) for t in texts):
        cmd.add(C, "persistence", "defaults write installs a login hook (runs at every login)")
        return
    if len(texts) >= 3 and texts[0] == "write" and "/" in texts[1] and _defaults_agent(cmd):
        return
    text = " ".join(texts).lower()
    if _update_setting_off(texts):
        cmd.add(
            C,
            "disable-security",
            "defaults write turns software or security updates off",
        )
        return
    if (
        texts
        and texts[0] == "write"
        and "timemachine" in text
        and re.search(r"\bautobackup\s+(-bool(ean)?\s+|-int(eger)?\s+)?(no|false|0)\b", text)
    ):
        # `defaults write /Library/Preferences/com.apple.TimeMachine AutoBackup 0` (n11u)
        cmd.add(C, "backup-off", "defaults write turns off Time Machine's automatic backups")
        return
    if (
        texts
        and texts[0] == "write"
        and re.search(
            r"lsquarantine\s+(-bool(ean)?\s+)?(no|false|0)\b|com\.apple\.alf\s+globalstate\s+"
            r"(-int(eger)?\s+)?0\b|gkautorearm\s+(-bool(ean)?\s+)?(no|false|0)\b"
            r"|com\.apple\.security\S*\s+\S*(enabled|assessment)\S*\s+(-bool(ean)?\s+)?(no|false|0)\b"
            r"|askforpassword\s+(-int(eger)?\s+|-bool(ean)?\s+)?(no|false|0)\b"
            r"|com\.apple\.(softwareupdate|commerce)\s+\S*(automatic|critical|configdata)\S*\s+"
            r"(-bool(ean)?\s+)?(no|false|0)\b",
            text,
        )
    ):
        cmd.add(
            C,
            "disable-security",
            "defaults write turns off Gatekeeper, quarantine, the firewall, the screen lock"
            " password or security updates",
        )


def _defaults_agent(cmd: Cmd) -> bool:
    """(h20) `defaults write ~/Library/LaunchAgents/x.plist ProgramArguments -array …`: a
    property list written in a launch agent/daemon folder is a job launchd starts at login
    or boot (persistence, critical, as plutil or a redirect there); its program, when
    readable and blocked, is blocked. True if judged so."""
    from aintern_ls.safety.paths import write_target

    domain = cmd.args[1]
    path = domain.text if domain.text.endswith(".plist") else domain.text + ".plist"
    t = write_target(path, cmd.scope.cwds)
    if domain.dynamic or t is None or t.rule != "persistence":
        return False
    texts = cmd.texts()
    level = C
    if texts[2] in ("ProgramArguments", "Program"):
        program = list(cmd.args[3:])
        if program and program[0].text in ("-array", "-array-add", "-string"):
            program = program[1:]
        if program and not any(w.dynamic for w in program):
            line = " ".join(shlex.quote(w.text) for w in program)
            found = cmd.scope.nested(line, "bash", Word(line, program[0].start, program[-1].end))
            if any(f.level >= B for f in found):
                cmd.scope.include(found)
                level = B
    cmd.add(level, "persistence", f"defaults write makes {t.what}")
    return True


# Time Machine's automatic backups set off, in `defaults`, plutil or PlistBuddy spelling.
_AUTOBACKUP_OFF = re.compile(
    r":?autobackup\s+(?:-?(?:bool(?:ean)?|int(?:eger)?)\s+)?(?:no|false|0)\b"
)


@handles("plistbuddy", "PlistBuddy", "plutil")
def _plist_edit(cmd: Cmd) -> None:
    """PlistBuddy `-c 'Add …'` and plutil `-insert/-replace` change a property list in place:
    in LaunchAgents/LaunchDaemons (or any start-up location) that is persistence, whoever
    writes it."""
    from aintern_ls.safety.paths import write_target

    texts = cmd.texts()
    if cmd.name.lower() == "plistbuddy":
        edits = [
            texts[i + 1]
            for i, t in enumerate(texts[:-1])
            if t == "-c"
            and re.match(r"\s*(add|set|merge|import|delete|clear|copy)\b", texts[i + 1], re.I)
        ]
    else:
        edits = [t for t in texts if t in ("-insert", "-replace", "-remove", "-convert", "-create")]
    if not edits:
        return
    text = " ".join(texts).lower()
    if "timemachine" in text and _AUTOBACKUP_OFF.search(text):
        # `plutil -replace AutoBackup -bool false …/com.apple.TimeMachine.plist`, PlistBuddy
        # `Set :AutoBackup false`: the same switch as `defaults write` (review 11, finding 16)
        cmd.add(C, "backup-off", f"{cmd.name} turns off Time Machine's automatic backups")
        return
    files = [w for w in cmd.args if not w.text.startswith("-") and w.text not in edits]
    for w in files[-1:]:
        target = write_target(w.text, cmd.scope.cwds)
        if target is not None and target.rule == "persistence":
            cmd.add(C, "persistence", f"{cmd.name} edits {target.what}", w)
            return
    cmd.add(M, "write", f"{cmd.name} changes a property list")


@handles("update-rc.d", "chkconfig", "rc-update", "insserv")
def _sysv_services(cmd: Cmd) -> None:
    """Older service managers: adding a service to a runlevel makes it start at boot."""
    texts = [t.lower() for t in cmd.texts()]
    if not texts or texts[0] in ("--list", "show", "-l") or "--list" in texts:
        return
    if any(t in ("remove", "del", "delete", "off", "disable", "--del", "-r") for t in texts):
        if any(security_label(t) for t in texts):
            cmd.add(C, "disable-security", f"{cmd.name} keeps a security service from starting")
            return
        cmd.add(D, "service-stop", f"{cmd.name} removes a service from start-up")
    else:
        cmd.add(C, "persistence", f"{cmd.name} makes a service start at boot")


@handles("setcap")
def _setcap(cmd: Cmd) -> None:
    if cmd.short("v") or cmd.long("--verify"):
        return  # (h20) `setcap -v cap_net_raw+ep /usr/bin/ping`: checks, sets nothing
    if cmd.short("r") or not cmd.args:
        cmd.add(M, "permissions", "setcap removes file capabilities")
        return
    cmd.add(C, "privilege", "setcap gives a program root-level capabilities")


@handles("kextload", "kmutil", "kextunload", "kldload", "kldunload")
def _kext(cmd: Cmd) -> None:
    if cmd.name == "kmutil" and cmd.args and cmd.args[0].text in ("showloaded", "inspect"):
        return
    cmd.add(C, "kernel", f"{cmd.name} loads or unloads kernel extensions")


@handles("xattr")
def _xattr(cmd: Cmd) -> None:
    text = " ".join(cmd.texts())
    if cmd.short("pl") and not cmd.short("dcw"):
        return  # `xattr -p com.apple.quarantine f`, `xattr -l f`: print only
    if re.search(r"com\.apple\.quarantine", text) and (cmd.short("dc") or "-w" not in text):
        cmd.add(C, "disable-security", "removes the quarantine flag, so Gatekeeper never checks it")
    elif cmd.short("c") and not cmd.short("p"):
        cmd.add(C, "disable-security", "xattr -c clears the quarantine flag Gatekeeper relies on")
    elif cmd.short("dw"):
        cmd.add(M, "write", "xattr changes file attributes")


@handles("security")
def _keychain(cmd: Cmd) -> None:
    """macOS `security`: reading secrets out of the keychain is credential access."""
    texts = cmd.texts()
    verb = texts[0] if texts else ""
    if verb in ("dump-keychain", "export") or (
        verb.startswith("find-")
        and verb.endswith("-password")
        and ("-w" in texts or "-g" in texts or any(re.fullmatch(r"-\w*[wg]\w*", t) for t in texts))
    ):
        cmd.add(C, "credential-dump", f"security {verb} reads passwords out of the keychain")
    elif verb in ("add-trusted-cert", "add-certificates", "trust-settings-import") or (
        verb == "authorizationdb" and "write" in texts
    ):
        # A trusted root lets its owner read every TLS connection; authorizationdb write
        # changes who may do what as administrator.
        cmd.add(C, "disable-security", f"security {verb} changes what the system trusts")
    elif verb == "delete-keychain":
        _delete_keychain(cmd)
    elif verb.startswith(("delete-", "remove-", "set-", "add-", "import", "create-", "unlock")):
        cmd.add(M, "security", f"security {verb} changes the keychain")


# The keychains an account or the system cannot do without: the login keychain (every saved
# password, the account's keys), the System keychain (Wi-Fi, certificates, the machine's
# keys), the local-items store. Named bare (the search list's names) or by path.
_ACCOUNT_KEYCHAIN = re.compile(
    r"(?i)\A(?:.*/)?(?:login|system|systemrootcertificates|metadata)\.keychain(?:-db)?\Z"
)


def _delete_keychain(cmd: Cmd) -> None:
    """`security delete-keychain KEYCHAIN…` deletes the keychain file and drops it from the
    search list (security(1)): the login or System keychain is an account file (DESIGN §5:
    blocked); a keychain a build made for itself is a named delete."""
    operands = [w for w in cmd.args[1:] if not w.text.startswith("-")]
    for w in operands:
        if w.dynamic:
            continue
        if _ACCOUNT_KEYCHAIN.match(w.text):
            cmd.add(
                B,
                "rm-system-file",
                f"security delete-keychain deletes the account keychain {w.text}"
                " (every saved password and key of the account)",
                w,
            )
            return
    cmd.add(D, "rm", "security delete-keychain deletes a keychain and its passwords")


def _excludes_everything(cmd: Cmd) -> bool:
    """Whether `tmutil addexclusion` names the root, home or a system folder as a whole."""
    from aintern_ls.safety.paths import classify_path

    for w in cmd.args[1:]:
        if w.text.startswith("-") or w.dynamic:
            continue
        t = classify_path(w.text, cmd.scope.cwds)
        if t.level >= B and t.rule in ("rm-root", "rm-home"):
            return True
        if t.rule == "rm-system" and _USER_DATA.match(w.text):
            return True  # every user's home (`/Users`, `/home`, `/Users/bob`)
    return False


# Where users' own data lives: reinstallable program folders (`/Applications`, `/usr/local`)
# left out of backups are routine space saving, not backups turned off (review 11, finding 10).
_USER_DATA = re.compile(r"\A/+(?:Users|home|root)(?:/+[^/]+)?/*\Z")


@handles("tmutil")
def _tmutil(cmd: Cmd) -> None:
    verb = cmd.args[0].text.lower() if cmd.args else ""
    if verb in ("delete", "deletelocalsnapshots", "thinlocalsnapshots", "deleteinprogress"):
        cmd.add(B, "delete-backups", f"tmutil {verb} deletes Time Machine backups or snapshots")
    elif verb in ("disable", "disablelocal", "removeexclusion", "removedestination"):
        cmd.add(C, "disable-security", f"tmutil {verb} turns off backups")
    elif verb == "addexclusion" and _excludes_everything(cmd):
        # `tmutil addexclusion -p /`, `… ~`: nothing of the disk or home is backed up (n11u)
        cmd.add(C, "backup-off", "tmutil addexclusion leaves the whole disk or home out of backups")
    elif verb in (
        "listbackups",
        "status",
        "latestbackup",
        "listlocalsnapshots",
        "machinedirectory",
        "version",
        "",
    ):
        return
    else:
        cmd.add(M, "backup", f"tmutil {verb} changes backups")


@handles("nvram")
def _nvram(cmd: Cmd) -> None:
    if not cmd.args or (cmd.short("px") and not any("=" in t for t in cmd.texts())):
        return
    if cmd.short("c") or cmd.short("d") or any("=" in t for t in cmd.texts()):
        cmd.add(C, "boot-config", "nvram changes firmware boot settings")


@handles("bless")
def _bless(cmd: Cmd) -> None:
    """(h20) macOS `bless`: `--setBoot` (and `--nextonly`, `--startupfile`, `--bootefi`
    with it) chooses what the firmware boots, as `nvram`/`bcdedit` do (boot configuration,
    critical); `--info`/`--getBoot`/`--verbose` alone only print."""
    low = {t.lstrip("-") for t in cmd.argv.low if t.startswith("-")}  # (`-setBoot` too)
    if not low.isdisjoint(("setboot", "nextonly", "unbless")):
        cmd.add(C, "boot-config", "bless changes which system the Mac starts from")
    elif not cmd.args or "info" in low or "getboot" in low:
        return
    else:
        cmd.add(M, "changes", "bless changes boot files of a volume")


# --- database and package tools whose commands wipe data ----------------------------------

# (tool, subcommand pattern): commands that drop or reset a database or unpublish a package.
_DATA_RESET = {
    "prisma": r"migrate reset\b|db push\b.*(--force-reset|--accept-data-loss)",
    "drizzle-kit": r"(push\b.*--force|drop)\b",
    "knex": r"migrate:rollback\b.*--all",
    "sequelize": r"db:drop\b|db:migrate:undo:all\b",
    "sequelize-cli": r"db:drop\b|db:migrate:undo:all\b",
    "typeorm": r"schema:drop\b",
    "alembic": r"downgrade\s+base\b",
    "flyway": r"clean\b",
    "liquibase": r"drop-?all\b",
    "rails": r"db:(drop|reset|purge|schema:load|truncate_all|migrate:reset|setup)\b",
    "rake": r"db:(drop|reset|purge|schema:load|truncate_all|migrate:reset)\b",
    "mix": r"ecto\.(drop|reset)\b",
    "dotnet": r"ef\s+database\s+drop\b",
    "supabase": r"db\s+reset\b",
    "artisan": r"(migrate:(fresh|reset|refresh)|db:wipe)\b",
    "npm": r"unpublish\b",
    "yarn": r"(npm\s+)?unpublish\b",
    "pnpm": r"unpublish\b",
}


def data_reset(cmd: Cmd, tool: str, args: list[Word]) -> bool:
    """`prisma migrate reset`, `rails db:drop`, `npm unpublish` …: dangerous. True if found."""
    pattern = _DATA_RESET.get(tool)
    if pattern is None:
        return False
    text = " ".join(w.text for w in args)
    if re.match(r"\A(?:\S+\s+)?(?:" + pattern + ")", text) is None:
        return False
    if any(w.text in ("--dry-run", "--help", "-h") for w in args):
        return False
    cmd.add(D, "db-drop", f"{tool} {text.split(' ', 1)[0]} drops or resets data")
    return True


@handles(
    *[
        n
        for n in _DATA_RESET
        if n
        in (
            "prisma",
            "drizzle-kit",
            "knex",
            "sequelize",
            "sequelize-cli",
            "typeorm",
            "alembic",
            "flyway",
            "liquibase",
        )
    ]
)
def _migration_tool(cmd: Cmd) -> None:
    if data_reset(cmd, cmd.name, list(cmd.args)):
        return
    texts = cmd.texts()
    if not texts or texts[0] in (
        "--version",
        "-v",
        "version",
        "--help",
        "help",
        "status",
        "history",
        "current",
        "info",
        "validate",
        "generate",
        "format",
        "studio",
    ):
        return
    cmd.add(M, "db-write", f"{cmd.name} changes the database schema")


# --- tools that run commands or code given in their options (GTFOBins-style) ---------------


def option_glued(cmd: Cmd, *opts: str) -> Word | None:
    """`option_value`, plus the glued short form `-Pvalue` for options known to take a value
    (`man -P'rm …'`, `rsync -e'sh …'`, `tar -I'prog'`)."""
    found = cmd.option_value(*opts)
    if found is not None:
        return found
    for w in cmd.args:
        for o in opts:
            if len(o) == 2 and o[0] == "-" and w.text.startswith(o) and len(w.text) > 2:
                return Word(w.text[2:], w.start, w.end, w.dynamic, False, w.origin)
            if o.startswith("--") and w.text.startswith(o + "="):
                return Word(w.text[len(o) + 1 :], w.start, w.end, w.dynamic, False, w.origin)
    return None


def _judge_embedded(cmd: Cmd, code: Word, what: str, language: str = "bash") -> None:
    """Judge `code`, which `cmd` runs, as a command line (or as inline code of `language`)."""
    if language == "bash":
        run_config_command(cmd, code, what)
        return
    if code.dynamic:
        cmd.add(C, "config-exec", f"{what} runs code only known at run time", code)
        return
    found = inline.code_findings(cmd.scope, code.text, code, language, what)
    cmd.scope.include(found)


# Programs whose output file is an operand, not an option: `uniq IN OUT`, `xxd [-r] IN OUT`.
# name -> (its options that take a value, the index of the output among the operands).
POSITIONAL_OUTPUT = {
    "uniq": (frozenset(names("-f -s -w --skip-fields --skip-chars --check-chars")), 1),
    "xxd": (frozenset(names("-c -g -l -s -o -n -cols -groupsize -len -seek -offset -name")), 1),
}


def positional_output(cmd: Cmd) -> bool:
    """Judge the file a program writes through a positional operand (`uniq IN OUT`):
    account and boot files are blocked, startup files persistence, like `> OUT`."""
    from aintern_ls.safety.paths import write_target

    with_value, index = POSITIONAL_OUTPUT[cmd.name]
    ops = cmd.operands(with_value)
    if len(ops) <= index or ops[index].dynamic:
        return False
    out = ops[index]
    if out.text in ("-", "/dev/null", "/dev/stdout", "/dev/stderr"):
        return False
    t = write_target(out.text, cmd.scope.cwds)
    if t is not None:
        cmd.add(t.level, t.rule, f"{cmd.name} writes its output over {t.what}", out)
    else:
        cmd.add(M, "write", f"{cmd.name} writes the file {out.text}", out)
    return True


_PUPPET_EXEC = re.compile(r"""\bcommand\s*=>\s*(['"])(.*?)\1""", re.S)
_PUPPET_ABSENT = re.compile(
    r"""\bfile\s*\{\s*(['"])([^'"]+)\1\s*:[^}]*?\bensure\s*=>\s*['"]?absent""", re.S
)


def extracts_over_system(cmd: Cmd, target: Word) -> bool:
    """An archive unpacked into `/` or a system folder (`tar -xf x -C /etc`, `unzip -o x -d /`)
    can replace any file there, account files included: critical."""
    from aintern_ls.safety.paths import classify_path

    if target.dynamic:
        return False
    t = classify_path(target.text, cmd.scope.cwds)
    if (t.level == B and t.rule == "rm-root") or (
        t.level == B
        and t.rule == "rm-system"
        and re.fullmatch(r"/(etc|boot|s?bin|lib\w*|usr(/(s?bin|lib\w*))?)/?", target.text)
    ):
        from aintern_ls.safety.paths import write_target

        # `unzip -o users.zip passwd -d /etc`: a member named on the line lands there;
        # an account or boot file overwritten is blocked.
        base = target.text.rstrip("/") or ""
        for w in cmd.args:
            if w is target or w.dynamic or w.text.startswith(("-", "/", "~")):
                continue
            member = w.text.lstrip("./")
            if not member or member.endswith((".zip", ".tar", ".gz", ".tgz", ".xz", ".cpio")):
                continue
            wt = write_target(f"{base}/{member}", cmd.scope.cwds)
            if wt is not None and wt.level >= B:
                cmd.add(B, wt.rule, f"{cmd.name} unpacks {member} over {wt.what}", w)
                return True
        cmd.add(C, "overwrite-system", f"{cmd.name} unpacks an archive over {t.what}", target)
        return True
    return False


C_COMPILERS = frozenset(names("gcc g++ cc c++ clang clang++ tcc musl-gcc"))
_C_SOURCE = re.compile(r"(?i)\.(?:c|cc|cpp|cxx|c\+\+)\Z")


@handles("tcc")
def _tcc(cmd: Cmd) -> None:
    """tcc compiles (its source is judged by `compiled_source`); `-run` runs it at once."""
    how = "compiles and runs" if any(w.text == "-run" for w in cmd.args) else "compiles"
    cmd.add(M, "build", f"tcc {how} a C program")


def compiled_source(cmd: Cmd) -> None:
    """`cat > w.c …; cc w.c -o w && ./w`, `gcc -x c - -o /tmp/w <<EOF … EOF; /tmp/w`: the
    program built from source the block shows is that source; it is judged when run (and
    at once by `tcc -run`) (n14u)."""
    written = cmd.scope.written
    texts = [w.text for w in cmd.args]
    source = None
    for w in cmd.args:
        if w.dynamic:
            continue
        if _C_SOURCE.search(w.text) and (held := written.get(w.text.rsplit("/", 1)[-1])):
            source = held[0]
            break
        if w.text == "-" and cmd.stdin.kind == STDIN_STATIC:
            source = cmd.stdin.text
            break
    if source is None and "-run" in texts and cmd.stdin.kind == STDIN_STATIC:
        source = cmd.stdin.text  # (n17u) `tcc -run - <<EOF`: the `-` is not kept as a word
    if source is None and cmd.stdin.kind == STDIN_STATIC and stdin_dash(cmd):
        source = cmd.stdin.text  # (f18) `gcc -x c -o w - <<EOF`: the same lost `-`
    if source is None:
        return
    if "-run" in texts:
        found = inline.code_findings(cmd.scope, source, cmd.words[0], "c", f"{cmd.name} -run")
        cmd.scope.include(found)
        return
    out = cmd.option_value("-o")
    base = out.text.rsplit("/", 1)[-1] if out is not None and not out.dynamic else "a.out"
    if base:
        cmd.scope.env[COMPILED + base] = source[:20000]


def command_options(cmd: Cmd) -> bool:
    """Options of common tools whose value is a program they run (GTFOBins "Command"
    entries): `gcc -wrapper PROG,ARGS`, `nano -s SPELLER`, `ed` fed `!CMD`, `puppet apply
    -e MANIFEST` (exec resources, files ensured absent). True when the command was judged."""
    n = cmd.name
    if n in ("gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran"):
        wrapper = cmd.option_value("-wrapper")
        if wrapper is None:
            return False
        argv = [a for a in wrapper.text.split(",") if a]
        line = " ".join(shlex_quote(a) for a in argv)
        _judge_embedded(cmd, _sub(wrapper, line), f"{n} -wrapper")
        cmd.add(M, "build", f"{n} compiles through the wrapper {argv[0] if argv else ''}")
        return True
    if n in ("nano", "pico", "rnano"):
        speller = cmd.option_value("-s", "--speller")
        if speller is None:
            return False
        run_config_command(cmd, speller, f"{n}'s speller")
        cmd.add(C, "config-exec", f"{n} -s runs its value as the spell checker", speller)
        return True
    if n in ("ed", "red") and cmd.stdin.kind == STDIN_STATIC:
        for line in cmd.stdin.text.splitlines():
            if line.startswith("!") and line[1:].strip():
                escape = Word(line[1:].strip(), cmd.start, cmd.end)
                _judge_embedded(cmd, escape, "ed's shell escape")
        if editor_script_writes(cmd, cmd.stdin.text):
            return True
        lines = [_ED_ADDRESS.sub("", ln, count=1).strip() for ln in cmd.stdin.text.splitlines()]
        # a script of prints and searches only (`,p`, `/root/p`, `q`) reads the file
        return all(re.fullmatch(r"[pnlqQ=]?|[pnl]?\s*q?", ln) for ln in lines[:256] if ln)
    if n == "puppet" and cmd.args and cmd.args[0].text == "apply":
        code = cmd.option_value("-e", "--execute")
        if code is None:
            return False
        if code.dynamic:
            cmd.add(C, "config-exec", "puppet applies a manifest only known at run time", code)
            return True
        for m in _PUPPET_EXEC.finditer(code.text):
            _judge_embedded(cmd, _sub(code, m.group(2)), "a puppet exec resource")
        for m in _PUPPET_ABSENT.finditer(code.text):
            recursive = "force" in code.text[m.end() : m.end() + 200]
            line = f"rm -{'r' if recursive else ''}f {shlex_quote(m.group(2))}"
            _judge_embedded(cmd, _sub(code, line), "a puppet file resource ensured absent")
        cmd.add(M, "system-config", "puppet applies a configuration to this machine")
        return True
    return False


# (safety-m9) a line editor's script (ed, ex, `vim -es`): the commands that change the
# buffer and those that write it back.
_ED_ADDRESS = re.compile(
    r"^[\s:]*(?:(?:\d+|\.|\$|%|'[a-z]|/(?:[^/\\]|\\.)*/?|\?(?:[^?\\]|\\.)*\??)(?:[+-]\d*)*"
    r"|[+-]\d*|[,;])*\s*"
)
_ED_CHANGE = re.compile(r"(?:d|a|i|c|s\W|j|m|t|g/|g!|v/|x?normal!?\s|norm!?\s|co\W|de\w*|ch\w*)")
_ED_WRITE = re.compile(r"(?:w|wq|x|wq!|w!|x!|xit|exit|up\w*|wa|wqa|W)(?:\s+(\S+))?\s*$")


def editor_script_writes(cmd: Cmd, script: str) -> bool:
    """`ed -s /etc/passwd <<< $',d\nw'`, `printf '%d\nwq\n' | ex -s /etc/sudoers`: a script
    that changes the buffer and writes it back rewrites the file (an account file emptied is
    blocked, a startup file written is persistence). True when a write was judged."""
    changes = False
    written: list[str] = []
    in_text = False
    for raw in script.splitlines()[:256]:
        if in_text:
            in_text = raw.strip() != "."
            continue
        rest = _ED_ADDRESS.sub("", raw, count=1).lstrip(":").strip()
        if not rest:
            continue
        if re.match(r"(?:a|i|c)$", rest):
            changes = True
            in_text = True  # the text lines that follow, up to a lone `.`
            continue
        m = _ED_WRITE.match(rest)
        if m is not None:
            written.append(m.group(1) or "")
            continue
        if _ED_CHANGE.match(rest):
            changes = True
    if not changes or not written:
        return False
    from aintern_ls.safety.paths import write_target

    operands = [w for w in cmd.args if not w.text.startswith(("-", "+"))]
    for name in written:
        target = name or (operands[0].text if operands else "")
        if not target:
            continue
        t = write_target(target, cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"{cmd.name}'s script rewrites {t.what}")
            return True
    cmd.add(M, "write", f"{cmd.name}'s script edits a file")
    return True


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _sub(word: Word, text: str) -> Word:
    return Word(text, word.start, word.end, word.dynamic, False, word.origin)


# Shell escapes written inside a tool's own command language.
_REPL_SHELL = re.compile(
    r"(?:^|[;\n])[ \t]*(?:(?:\.shell|\.system|system|shell)[ \t]+|\\?![ \t]*"
    r"|pipe[ \t]*[^|;\n]*\|[ \t]*)([^;\n]+)",
    re.I,
)
_SQL_PROGRAM = re.compile(r"\bprogram\s+'((?:[^']|'')*)'", re.I)


def embedded_commands(cmd: Cmd, code: Word) -> None:
    """Shell escapes inside a REPL-style tool's script (`\\! cmd`, `.shell cmd`, `!cmd`,
    `COPY … FROM PROGRAM 'cmd'`): each is judged as a command line."""
    for m in _REPL_SHELL.finditer(code.text):
        _judge_embedded(cmd, _sub(code, m.group(1).strip()), f"{cmd.name}'s shell escape")
    for m in _SQL_PROGRAM.finditer(code.text):
        _judge_embedded(cmd, _sub(code, m.group(1).replace("''", "'")), f"{cmd.name} PROGRAM")


_EMACS_SHELL = re.compile(
    r"\((?:shell-command(?:-to-string)?|async-shell-command|compile)\s+\"((?:[^\"\\]|\\.)*)\""
)
_EMACS_PROCESS = re.compile(
    r"\((?:call-process|start-process|make-process|process-lines)\s+(?:\"[^\"]*\"\s+(?:nil|t|\"[^\"]*\")\s+)?\"((?:[^\"\\]|\\.)*)\"((?:\s+(?:nil|t|\"(?:[^\"\\]|\\.)*\"))*)"
)
_EMACS_DELETE = re.compile(r"\(delete-(directory|file)\s+\"((?:[^\"\\]|\\.)*)\"\s*(t)?")


def _emacs(cmd: Cmd, code: Word) -> None:
    from aintern_ls.safety.inline import lisp_paths

    text = lisp_paths(code.text)  # (f19) `(delete-directory (expand-file-name "~") t)`
    for m in _EMACS_SHELL.finditer(text):
        _judge_embedded(cmd, _sub(code, m.group(1).replace('\\"', '"')), "emacs shell-command")
    for m in _EMACS_PROCESS.finditer(text):
        args = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(2))
        line = " ".join([m.group(1), *args])
        _judge_embedded(cmd, _sub(code, line), "emacs call-process")
    for m in _EMACS_DELETE.finditer(text):
        flag = "-rf" if m.group(1) == "directory" and m.group(3) else "-f"
        _judge_embedded(cmd, _sub(code, f"rm {flag} '{m.group(2)}'"), "emacs delete")
    if re.search(r"\((term|ansi-term|shell|eshell)\b", text):
        cmd.add(C, "config-exec", "emacs opens a shell", code)


# Vimscript expressions naming a path: a string literal, `expand("~")`, `$HOME`, `getcwd()`.
_VIM_PATH = re.compile(
    r"""\A\s*(?:(?P<q>["'])(?P<lit>[^"']*)(?P=q)|expand\(\s*["'](?P<exp>[^"']*)["']\s*\)"""
    r"""|\$(?P<env>\w+)|(?P<cwd>getcwd\(\s*\)))\s*\Z"""
)


def _vim_path(expr: str) -> str | None:
    m = _VIM_PATH.match(expr)
    if m is None:
        return None
    if m.group("cwd"):
        return "."
    if m.group("env") is not None:
        return "~" if m.group("env") == "HOME" else "$" + m.group("env")
    value = m.group("lit") if m.group("lit") is not None else m.group("exp")
    return re.sub(r"\A\$HOME\b", "~", value or "")


def _vimscript(cmd: Cmd, code: Word, text: str) -> None:
    """Vimscript functions that delete or run: `call delete(expand("~"), "rf")` is `rm -rf
    ~`; `call system("rm …")`/`systemlist(…)` run a shell command."""
    for m in re.finditer(r"\bdelete\(\s*(.+?)\s*(?:,\s*[\"'](\w*)[\"']\s*)?\)\s*(?:\||$)", text):
        path = _vim_path(m.group(1))
        flag = "-rf" if "r" in (m.group(2) or "") else "-f"
        if path is None:
            if "r" in flag:
                cmd.add(C, "delete", f"{cmd.name} deletes a tree only known at run time", code)
            continue
        quoted = path if path.startswith(("~", "$")) else "'" + path.replace("'", "") + "'"
        _judge_embedded(cmd, _sub(code, f"rm {flag} {quoted}"), f"{cmd.name} delete()")
    for m in re.finditer(r"""\bsystem(?:list)?\(\s*(["'])(.*?)\1""", text):
        _judge_embedded(cmd, _sub(code, m.group(2)), f"{cmd.name} system()")


def _vim_script_file(cmd: Cmd, flag: str, script: Word) -> None:
    """(u21) `nvim -S w.lua`, `nvim -u init.lua`, `nvim -l w.lua`, `vim -S w.vim` of a file
    this block wrote: a Lua file is Lua code; a Vim script's `:lua`/`:py`/`:terminal`
    lines are judged as given with `-c` (its `:!` lines are the editor handler's)."""
    shown = _shown_file(cmd, script)
    if shown is None:
        return
    if flag == "-l" or script.text.lower().endswith(".lua"):
        found = inline.code_findings(cmd.scope, shown.text, shown, "lua", f"{cmd.name} {flag}")
        cmd.scope.include(found)
        return
    for line in shown.text.splitlines()[:200]:
        if line.strip():
            _vim_code(cmd, _sub(shown, line))


def _vim_code(cmd: Cmd, code: Word) -> None:
    text = code.text.lstrip(":").strip()
    if re.match(r"\A(?:call|cal|echo|let|exe(?:cute)?)\b", text):
        _vimscript(cmd, code, text)
        return
    m = re.match(r"\A(?:py(?:thon)?3?|pyx|pythonx)\s+(.*)", text, re.S)
    if m:
        _judge_embedded(cmd, _sub(code, m.group(1)), f"{cmd.name} :python", "python")
        return
    m = re.match(r"\A(?:lua|perl|ruby|rub)\s+(.*)", text, re.S)
    if m:
        lang = {"lua": "lua", "perl": "perl"}.get(text.split()[0], "ruby")
        _judge_embedded(cmd, _sub(code, m.group(1)), f"{cmd.name} :{lang}", lang)
        return
    m = re.match(r"\A(?:term(?:inal)?|sh(?:ell)?)\b\s*(.*)", text, re.S)
    if m:
        if m.group(1).strip():
            _judge_embedded(cmd, _sub(code, m.group(1)), f"{cmd.name} :terminal")
        else:
            cmd.add(C, "config-exec", f"{cmd.name} opens a shell", code)


def _ln_force(cmd: Cmd) -> None:
    """`ln -sf /dev/null ~/.bash_history`, `ln -sf /tmp/x /etc/passwd`: -f replaces an
    existing file with the link, so its content is lost (dangerous); a link placed in a
    startup location or over an account file is judged like writing it."""
    from aintern_ls.safety.paths import INSTALLED_TOOLS, path_shadow_name, write_target

    ops = cmd.operands(frozenset(names("-t --target-directory -S --suffix")))
    if len(ops) < 2:
        return
    force = cmd.short("f") or cmd.long("--force")
    dest = ops[-1]
    t = write_target(dest.text, cmd.scope.cwds)
    # (a plain link of a dotfile, `ln -s ~/dotfiles/bashrc ~/.bashrc`, is how dotfile
    # managers work; a link dropped into an autostart or schedule folder is not)
    autostart = re.search(
        r"(?i)autostart|launch(agents|daemons)|start menu|/startup/|cron|systemd|init\.d"
        r"|profile\.d",
        dest.text,
    ) or ("/.git/hooks/" in "/" + dest.text)  # (u21: a git hook linked in runs, as one copied)
    # (n20u) a link named like a common command in a PATH folder shadows it, -f or not
    shadow = t is not None and t.rule == "persistence" and "runs instead of" in t.what
    if shadow and ops[0].text.startswith(("/usr/", "/bin/", "/sbin/", "/opt/homebrew/", "/nix/")):
        # (`ln -sf /usr/bin/python3.12 ~/.local/bin/python3`: a system program by a name)
        t, shadow = None, False
    if (
        (t is None or t.level < C)
        and ops[0].text.startswith(("/tmp/", "/var/tmp/", "/dev/shm/"))
        and (name := path_shadow_name(dest.text)) in INSTALLED_TOOLS
    ):
        # (review 20 O2) `ln -s /tmp/e /usr/local/bin/git`: a file from a temporary folder
        # under the name of an installed tool, searched before the real one
        why = f"{dest.text}, which runs instead of `{name}` (a folder on PATH)"
        cmd.add(C, "persistence", f"{cmd.name} links {ops[0].text} into {why}", dest)
        return
    if t is not None and (force or shadow or (t.rule == "persistence" and autostart)):
        verb = "replaces" if force else "links into"
        cmd.add(t.level, t.rule, f"{cmd.name} {verb} {t.what}", dest)
    elif re.match(r"(?i)\A/etc/(?:rc[0-6s]?\.d/|rc\.d/|init\.d/|rc\.local\Z)", dest.text):
        # `ln -s /tmp/x /etc/rc3.d/S99x`: a program linked into the boot scripts
        cmd.add(C, "persistence", f"{cmd.name} links a program into the boot scripts", dest)
    elif force and ops[0].text == "/dev/null":
        cmd.add(D, "delete", f"{cmd.name} -f replaces {dest.text} with a link to /dev/null", dest)


def _extract_into(cmd: Cmd) -> bool:
    """`unzip -o x.zip -d /etc`, `tar -xf x.tar -C ~/.config/autostart`: files extracted
    into a system or startup folder are written there. True if judged here."""
    n = cmd.name
    texts = cmd.texts()
    if n == "unzip":
        dest = cmd.option_value("-d")
    elif n in ("7z", "7za", "7zz"):
        dest = next((_sub(w, w.text[2:]) for w in cmd.args if w.text.startswith("-o")), None)
        if not texts or texts[0] not in ("x", "e"):
            return False
    else:
        first = texts[0].lstrip("-") if texts else ""
        extracting = (first.isalpha() and "x" in first) or "--extract" in texts
        dest = cmd.option_value("-C", "--directory") if extracting else None
    return extracts_into(cmd, dest)


# Names an archive may hold that turn an ordinary folder into a way in: a folder that
# holds any of them (`~/.ssh`) receives them when an archive is unpacked there.
_PROBE_NAMES = ("x", "authorized_keys")


def extracts_into(cmd: Cmd, dest: Word | None) -> bool:
    """An archive unpacked into DEST by any extractor (`tar -C`, `bsdtar --directory`,
    `unzip -d`, `7z -o`, `cpio -D`, `Expand-Archive -DestinationPath`, `ExtractToDirectory`,
    `expand -F:* … DIR`): what it holds is unknown, so DEST is judged by the worst file it
    could hold. A start-up, schedule or service folder (Startup, autostart, LaunchAgents,
    cron.d, systemd units, profile.d, init.d) or `~/.ssh` is persistence: critical (an
    account or boot file is not named, so critical, not blocked). True if judged here."""
    from aintern_ls.safety.paths import write_target

    if dest is None or (dest.dynamic and not re.search(r"(?i)%\w+%|\$env:\w+", dest.text)):
        return False
    folder = dest.text.strip("\"'").rstrip("/\\")
    if not folder:
        return False
    for probe in _PROBE_NAMES:
        t = write_target(folder + "/" + probe, cmd.scope.cwds)
        if t is None or t.level < C:
            continue
        level = C if t.level >= B else t.level
        what = "a start-up or schedule folder" if t.rule == "persistence" else t.what
        cmd.add(
            level,
            t.rule if t.rule == "persistence" else "system-file",
            f"{cmd.name} extracts an archive into {dest.text} ({what})",
            dest,
        )
        return True
    return False


def vim_commands(cmd: Cmd) -> None:
    """`vim -c ':py …'`, `+':lua …'`, `-c ':terminal rm …'` (the `:!` form is judged by the
    editor's own handler); commands that write (`-c wq`, `-cx`, `ex -sc '…|x'`) make the
    file operands written files, judged like any write (startup files are persistence)."""
    codes: list[str] = []
    for i, w in enumerate(cmd.args):
        if w.text in ("-S", "-u", "-l") and i + 1 < len(cmd.args) and cmd.scope.written:
            _vim_script_file(cmd, w.text, cmd.args[i + 1])
        if w.text in ("-c", "--cmd") and i + 1 < len(cmd.args):
            _vim_code(cmd, cmd.args[i + 1])
            codes.append(cmd.args[i + 1].text)
        elif w.text.startswith("-c") and len(w.text) > 2 and not w.text.startswith("--"):
            codes.append(w.text[2:])  # `-cx`, `-cwq`
        elif w.text.startswith("+") and len(w.text) > 1:
            _vim_code(cmd, _sub(w, w.text[1:]))
            codes.append(w.text[1:])
        elif re.fullmatch(r"-[a-zA-Z]*s[a-zA-Z]*c", w.text) and i + 1 < len(cmd.args):
            codes.append(cmd.args[i + 1].text)  # `ex -sc '…'`
    from aintern_ls.safety.paths import write_target

    _vim_write_files(cmd, codes)
    writes = any(
        re.search(r"(?:^|[|:\s])(?:w|wq|wq!|x|x!|xit|wa|wqa|xa|up|update|sav\w*)(?:!|\s|$|\|)", c)
        for c in codes
    )
    if not writes:
        return

    valued = frozenset(names("-c --cmd -S -u -U -i -T -w -W -s -r"))
    for f in cmd.operands(valued):
        if f.text.startswith("+"):
            continue
        t = write_target(f.text, cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"{cmd.name} edits and saves {t.what}", f)
            return


# An Ex write naming its own target (`:w! /etc/passwd`, `:saveas ~/.bashrc`, `:w >> f`,
# `:wq FILE`): the buffer is written THERE, whatever file was opened (`:w !cmd` is a shell
# escape, judged by the editor's own handler).
_VIM_WRITE_TO = re.compile(
    r"(?:^|\|)\s*:?\s*(?:saveas|sav|write|wq|w|xit|exit|exi|x|update|up)(?:!|\s)\s*(?:>>\s*)?"
    r"([^\s|!][^\s|]{0,255})"
)


def _vim_write_files(cmd: Cmd, codes: list[str]) -> None:
    """Each file an Ex command given on the command line writes the buffer to, judged like
    any write of that file (an account file overwritten is blocked)."""
    from aintern_ls.safety.paths import write_target

    for code in codes:
        if "w" not in code and "x" not in code and "sav" not in code and "up" not in code:
            continue
        for m in _VIM_WRITE_TO.finditer(code[:4096]):
            target = m.group(1).strip("'\"")
            t = write_target(target, cmd.scope.cwds)
            if t is not None:
                where = next((w for w in cmd.args if code in w.text), None)
                if where is None:
                    where = Word(target, cmd.start, cmd.end)
                cmd.add(t.level, t.rule, f"{cmd.name} writes its buffer to {t.what}", where)
                return


_VI_SHELL = re.compile(
    r"^:?\s*(?:sil(?:ent)?!?\s*)?(?:(?:r(?:ead)?|w(?:rite)?|\d*,?\$?)\s*)?!(.*)$"
    r"|^:?\s*call\s+system\((['\"])(.*)\2\)"
    r"|^:?\s*exe(?:cute)?\s+(['\"])!(.*)\4\s*$"
    r"|^:?\s*ter(?:minal)?\s+(.+)$"
)


def vi_shell_escapes(cmd: Cmd) -> bool:
    """`vim -c ':!cmd'`, `vi +':call system("cmd")'`: each shell escape given on the command
    line is judged as a command line. True if there was one."""
    found = False
    pieces: list[tuple[str, Word]] = []
    for i, w in enumerate(cmd.args):
        if w.text in ("-c", "--cmd") and i + 1 < len(cmd.args):
            pieces.append((cmd.args[i + 1].text, cmd.args[i + 1]))
        elif w.text.startswith("+") and len(w.text) > 1:
            pieces.append((w.text[1:], w))
        elif w.text in ("-s", "-S") and i + 1 < len(cmd.args):
            # `vim -s <(printf ':!rm -rf ~\n')`, `-S <(…)`: a script of keystrokes or Ex
            # lines whose text is known (a process substitution that prints a literal).
            src = cmd.args[i + 1]
            # (u21) or a file this block wrote (`_shown_file`)
            known = _shown_file(cmd, src)
            if known is not None:
                pieces += [(line.lstrip(":"), known) for line in known.text.splitlines()[:64]]
    if cmd.stdin.kind == "static" and (
        cmd.name in ("ex", "vim.tiny") or any(re.fullmatch(r"-e?s|-e", t) for t in cmd.texts())
    ):
        # `ex -s < <(printf '!…')`, `vim -es <<< '!…'`: Ex commands read from stdin.
        where = Word(cmd.stdin.text, cmd.start, cmd.end)
        pieces += [(line.lstrip(":"), where) for line in cmd.stdin.text.splitlines()[:64]]
        found = editor_script_writes(cmd, cmd.stdin.text) or found
    for code, where in pieces:
        if code:
            shell = _VI_SHELL.match(code)
            if shell is not None:
                text = next(
                    g
                    for g in (shell.group(1), shell.group(3), shell.group(5), shell.group(6))
                    if g is not None
                )
                run_config_command(cmd, _sub(where, text), f"{cmd.name} -c :!")
                found = True
    return found


@handles("view", "rview", "vimdiff", "rvim", "gvim", "evim", "vim.tiny", "vim.basic")
def _ex(cmd: Cmd) -> None:
    """The vi family under other names: shell escapes (`-c ':!cmd'`), embedded code, and
    files saved by scripted edits."""
    vi_shell_escapes(cmd)
    vim_commands(cmd)
    if vi_read_only(cmd):
        return
    cmd.add(M, "write", f"{cmd.name} edits files")


# (h18) Ex commands that only show, move, set options or quit (`:set nowrap`, `%p`, `q!`).
_VI_VIEW_ONLY = re.compile(
    r"(?i)\s*:?\s*(?:set?\s[^|!]*|se\s[^|!]*|syntax\s+\w+|noh\w*|\d*|%?p(?:rint)?|\d+,\d+p"
    r"|\$?p|q(?:uit)?!?|qa(?:ll)?!?|cq!?|\d+|\$|/[^/|!]*/?|\?[^?|!]*\??)\s*"
)


def vi_read_only(cmd: Cmd) -> bool:
    """(h18) `view FILE`, `vim -R FILE`, `view -c ':set nowrap' FILE`: a viewer (the
    read-only names or -R/-M) whose Ex commands only print, set options or quit; nothing is
    written or run. A secret file read stays a read of it."""
    texts = cmd.texts()
    pieces: list[str] = []
    for i, t in enumerate(texts):
        if t in ("-c", "--cmd") and i + 1 < len(texts):
            pieces.append(texts[i + 1])
        elif t.startswith("+") and len(t) > 1:
            pieces.append(t[1:])
        elif (t.startswith("-c") and len(t) > 2 and not t.startswith("--")) or t in (
            "-s",
            "-S",
            "-w",
            "-W",
            "-u",
            "-i",
            "--startuptime",
        ):
            return False  # glued commands, keystroke scripts, scripts written or sourced
    if cmd.stdin.kind == STDIN_STATIC or any(w.dynamic for w in cmd.args):
        return False
    if not (cmd.name in ("view", "rview") or "-R" in texts or "-M" in texts):
        return False  # (an Ex script, even a printing one, stays moderate: test_n13u)
    if not all(
        _VI_VIEW_ONLY.fullmatch(p) or all(_VI_VIEW_ONLY.fullmatch(q) for q in p.split("|"))
        for p in pieces
    ):
        return False
    from aintern_ls.safety.paths import is_secret

    return not any(is_secret(t) for t in texts if not t.startswith(("-", "+")))


_RPM_LUA = re.compile(r"%\{lua:(.*)\}", re.S)
_RPM_SHELL = re.compile(r"%\((.*)\)", re.S)


def rpm_eval(cmd: Cmd) -> None:
    """`rpm --eval '%{lua:os.execute("…")}'` and `%(cmd)` run code."""
    value = cmd.option_value("--eval", "-E")
    if value is None:
        return
    m = _RPM_LUA.search(value.text)
    if m:
        _judge_embedded(cmd, _sub(value, m.group(1)), "rpm --eval lua", "lua")
    m = _RPM_SHELL.search(value.text)
    if m:
        _judge_embedded(cmd, _sub(value, m.group(1)), "rpm --eval %()")


def repl_tool(cmd: Cmd) -> None:
    """Options of REPL-style tools whose scripts may escape to a shell."""
    n = cmd.name
    opts: tuple[str, ...] = ()
    if n in ("mysql", "mariadb"):
        opts = ("-e", "--execute")
    elif n in ("psql", "pgcli"):
        opts = ("-c", "--command")
    elif n in ("lftp", "smbclient"):
        opts = ("-c", "--command", "-e")
    elif n in ("sqlite3", "duckdb", "litecli"):
        opts = ("-cmd",)
        for w in cmd.operands(frozenset({"-cmd", "-separator", "-init"}))[1:]:
            embedded_commands(cmd, w)
    elif n == "dc":
        opts = ("-e", "--expression")
    for i, w in enumerate(cmd.args):
        if w.text in opts and i + 1 < len(cmd.args):
            embedded_commands(cmd, cmd.args[i + 1])
        elif any(w.text.startswith(o + "=") for o in opts if o.startswith("--")):
            embedded_commands(cmd, _sub(w, w.text.split("=", 1)[1]))
    if cmd.stdin.kind == STDIN_STATIC and n in (
        "mysql",
        "mariadb",
        "psql",
        "sqlite3",
        "lftp",
        "ftp",
    ):
        embedded_commands(cmd, Word(cmd.stdin.text, cmd.start, cmd.end))


_GDB_EVAL = frozenset(
    ("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "-o", "--one-line")
)
_GDB_CORE = re.compile(
    r"(?i)\A\s*(?:gcore|generate-core-file|dump\s+(?:binary\s+)?memory|process\s+save-core)\b"
)


@handles("gdb", "gdb-multiarch", "cgdb", "lldb")
def _gdb(cmd: Cmd) -> None:
    """`gdb -ex '!cmd'`, `-ex 'shell cmd'`, `-ex 'python …'`; `gdb --args PROG …` runs PROG."""
    for i, w in enumerate(cmd.args):
        name, eq, joined = w.text.partition("=")
        if (w.text in _GDB_EVAL and i + 1 < len(cmd.args)) or (eq and name in _GDB_EVAL):
            # (a22) `--eval-command=CMD` too
            code = _sub(w, joined) if eq and name in _GDB_EVAL else cmd.args[i + 1]
            if _GDB_CORE.match(code.text):
                # (a22) `gdb -p $(pidof sshd) -batch -ex gcore`: the process's memory (its
                # passwords, keys, session tokens) written to a file, as `gcore` does
                cmd.add(
                    C,
                    "credential-dump",
                    f"{cmd.name} writes a running process's memory to a file (credentials)",
                    code,
                )
                continue
            m = re.match(r"\A\s*(?:py(?:thon)?3?|pi)\s+(.*)", code.text, re.S)
            if m:
                _judge_embedded(cmd, _sub(code, m.group(1)), f"{cmd.name} python", "python")
                continue
            m = re.match(r"\A\s*(?:!|shell|platform shell)\s*(.*)", code.text, re.S)
            if m:
                if m.group(1).strip():
                    _judge_embedded(cmd, _sub(code, m.group(1)), f"{cmd.name} shell")
                else:
                    cmd.add(C, "config-exec", f"{cmd.name} opens a shell", code)
        elif w.text == "--args" and i + 1 < len(cmd.args):
            cmd.judge(list(cmd.args[i + 1 :]), cmd.stdin)
            return
    cmd.add(M, "runs-program", f"{cmd.name} runs and controls a program")


@handles("expect")
def _expect(cmd: Cmd) -> None:
    code = cmd.option_value("-c")
    cmd.add(M, "local-script", "expect runs a script")
    if code is None:
        # (u21) `expect w.exp`, `expect -f w.exp` of a file the block wrote: its Tcl text
        code = written_script_text(cmd, cmd.option_value("-f"))
        if code is None:
            return
        # (spawned commands are judged below as command lines, the rest as Tcl)
        tcl = re.sub(r"(?m)^[ \t]*spawn\b.*$", "", code.text)
        cmd.scope.include(inline.code_findings(cmd.scope, tcl, code, "tcl", "expect"))
    for m in re.finditer(r"(?:^|[;\n\[])\s*(?:spawn|exec|system)\s+([^;\n\]]+)", code.text):
        _judge_embedded(cmd, _sub(code, m.group(1).strip()), "expect spawn")


def written_script_text(cmd: Cmd, script: Word | None = None) -> Word | None:
    """(u21) The text of the script file a program is handed (`script`, else its first
    operand) when the block shows it (`_shown_file`: a file this block wrote, a process
    substitution of known text, a here-document on stdin), placed on the file's name
    (`expect F`, `nmap --script F`, `wish F` read it as their own language)."""
    if script is None:
        script = next((w for w in cmd.args if not w.text.startswith("-")), None)
    return None if script is None else _shown_file(cmd, script)


# knife ssh's options that take a value (the search query and the command are operands;
# `-m`/`--manual-list` and `--exit-on-error` are switches: r17).
_KNIFE_SSH_VALUED = frozenset(
    names(
        """
        -a --attribute -C --concurrency -G --ssh-gateway -i --ssh-identity-file
        -p --ssh-port -P --ssh-password -x --ssh-user -c --config --config-option -s --server-url
        -u --user -k --key -E --environment --prefix-attribute
        """
    )
)


def _knife_ssh(cmd: Cmd) -> None:
    """`knife ssh QUERY COMMAND [OPTS]`: Chef runs COMMAND on every node the search finds
    (a remote command line, judged as one: a wipe there is blocked, h17)."""
    ops: list[Word] = []
    i = 1
    args = cmd.args
    while i < len(args):
        t = args[i].text
        if t.startswith("-"):
            i += 2 if t in _KNIFE_SSH_VALUED else 1
            continue
        ops.append(args[i])
        i += 1
    cmd.add(M, "remote", "knife ssh runs a command on the nodes a search finds")
    if len(ops) >= 2 and ops[1].text.strip() not in ("", "interactive", "tmux", "screen"):
        line = ops[1]
        cmd.scope.include(cmd.scope.nested(line.text, "bash", line, -1))


@handles(
    "R",
    "octave",
    "octave-cli",
    "jrunscript",
    "jjs",
    "ghc",
    "ghci",
    "runghc",
    "knife",
    "sqlmap",
    "slsh",
    *names("erl elixir iex kotlin kotlinc kotlinc-jvm clojure clj bb amm scala-cli texlua"),
    *names("raku perl6 rakudo crystal"),
)
def _eval_tools(cmd: Cmd) -> None:
    """Tools with an eval option: R -e, octave --eval, jrunscript -e, ghc -e, knife exec -E,
    sqlmap --eval; the code is judged as inline code of their language."""
    n = cmd.name
    language = {
        "R": "r",
        "octave": "r",
        "octave-cli": "r",
        "jrunscript": "java",  # Nashorn/Rhino JavaScript: Java classes, a global exec()
        "jjs": "java",
        "ghc": "haskell",
        "ghci": "haskell",
        "runghc": "haskell",
        "knife": "ruby",
        "sqlmap": "python",
        "slsh": "r",
    }.get(n, n)
    if n == "knife" and cmd.args and cmd.args[0].text == "ssh":
        _knife_ssh(cmd)
        return
    code = cmd.option_value("-e", "--eval", "--execute", "-E")
    if n == "crystal":
        language = "ruby"  # Crystal's syntax is Ruby's
        if not cmd.args or cmd.args[0].text != "eval":
            cmd.add(M, "build", "crystal builds or runs a program")
            return
    if n in ("raku", "perl6", "rakudo"):
        language = "raku"
    if n in _OTHER_EVAL:
        code = cmd.option_value(*_OTHER_EVAL[n])
        if code is None and n in (
            "erl",
            "elixir",
            "iex",
            "clojure",
            "clj",
            "bb",
            "crystal",
            "raku",
        ):
            code = _code_from_stdin(cmd)
    if (
        n in ("ghc", "ghci", "runghc")
        and len(ghc_lines := [v for _, v in opt_values(cmd, "-e")]) > 1
    ):
        first = ghc_lines[0]  # one -e per line of the session
        code = Word(
            "\n".join(v.text for v in ghc_lines),
            first.start,
            ghc_lines[-1].end,
            any(v.dynamic for v in ghc_lines),
        )
    if code is None and not cmd.operands():
        code = _code_from_stdin(cmd)  # `echo "…" | jjs`, `runghc <<< …`: the script is stdin
    if n == "sqlmap":
        os_cmd = cmd.option_value("--os-cmd")
        if os_cmd is not None:
            _judge_embedded(cmd, os_cmd, "sqlmap --os-cmd")
        if cmd.has("--os-shell", "--os-pwn"):
            cmd.add(C, "config-exec", "sqlmap opens a shell on the target", None)
    if code is not None:
        _judge_embedded(cmd, code, f"{n} code", language)
        return
    cmd.add(M, "local-script", f"{n} runs a program")


# Interpreters whose inline-code option differs from `-e`: Erlang's `-eval`, Ammonite's `-c`,
# Kotlin's `-e`/`-expression`, scala-cli's `-e`/`--execute-scala`.
_OTHER_EVAL = {
    "erl": ("-eval",),
    "elixir": ("-e", "--eval"),
    "iex": ("-e", "--eval"),
    "kotlin": ("-e", "-expression"),
    "kotlinc": ("-e", "-expression", "-script"),
    "kotlinc-jvm": ("-e", "-expression"),
    "clojure": ("-e", "--eval"),
    "clj": ("-e", "--eval"),
    "bb": ("-e", "--eval"),
    "amm": ("-c", "--code"),
    "scala-cli": ("-e", "--execute-scala", "--execute-script"),
    "texlua": ("-e",),
    "raku": ("-e",),
    "perl6": ("-e",),
    "rakudo": ("-e",),
    "crystal": ("eval",),
}


def _code_from_stdin(cmd: Cmd) -> Word | None:
    """Code fed on standard input (a here-document or `echo … |`), when it is known."""
    if cmd.stdin.kind == "static" and cmd.stdin.text:
        return Word(cmd.stdin.text, cmd.start, cmd.end, False)
    return None


_HOOK_OPTIONS = {
    "certbot": (
        "--pre-hook --post-hook --deploy-hook --renew-hook --manual-auth-hook --manual-cleanup-hook"
    ),
    "openvpn": (
        "--up --down --route-up --route-pre-down --ipchange --client-connect --client-disconnect"
        " --learn-address --auth-user-pass-verify --tls-verify"
    ),
    "split": "--filter",
    "mail": "--exec",
    "s-nail": "--exec",
    "start-stop-daemon": "-x --exec --startas -a",
    "puppet": "-e --execute",
}


def hook_options(cmd: Cmd) -> None:
    """Options whose value the program runs as a command (certbot hooks, openvpn scripts,
    `split --filter`, `mail --exec`, `start-stop-daemon -x`)."""
    spec = _HOOK_OPTIONS.get(cmd.name)
    if spec is None:
        return
    wanted = spec.split()
    for i, w in enumerate(cmd.args):
        value: Word | None = None
        if w.text in wanted and i + 1 < len(cmd.args):
            value = cmd.args[i + 1]
        elif "=" in w.text and w.text.split("=", 1)[0] in wanted:
            value = _sub(w, w.text.split("=", 1)[1])
        if value is None:
            continue
        if cmd.name == "puppet":
            for m in re.finditer(r"exec\s*\{\s*['\"]([^'\"]+)['\"]", value.text):
                _judge_embedded(cmd, _sub(value, m.group(1)), "puppet exec")
            for m in re.finditer(
                r"file\s*\{\s*['\"]([^'\"]+)['\"]\s*:[^}]*ensure\s*=>\s*['\"]?absent", value.text
            ):
                _judge_embedded(cmd, _sub(value, f"rm -rf '{m.group(1)}'"), "puppet file absent")
            continue
        text = value.text.lstrip("!") if cmd.name in ("mail", "s-nail") else value.text
        _judge_embedded(cmd, _sub(value, text), f"{cmd.name} {w.text.split('=', 1)[0]}")


@handles("start-stop-daemon", "openvpn", "mail", "s-nail")
def _hook_tool(cmd: Cmd) -> None:
    hook_options(cmd)
    if cmd.name in ("mail", "s-nail") and (
        cmd.stdin.kind in ("file", "other") or cmd.option_value("-a", "-A", "--attach")
    ):
        cmd.add(C, "exfiltration", f"{cmd.name} mails a file or a command's output")
        return
    cmd.add(M, "runs-program", f"{cmd.name} starts programs or services")


def gcc_wrapper(cmd: Cmd) -> None:
    """`gcc -wrapper /bin/sh,-s .` runs the wrapper around every sub-program."""
    value = cmd.option_value("-wrapper")
    if value is not None:
        _judge_embedded(cmd, _sub(value, value.text.replace(",", " ")), f"{cmd.name} -wrapper")


@handles("xdotool")
def _xdotool(cmd: Cmd) -> None:
    texts = cmd.texts()
    if "exec" in texts:
        at = texts.index("exec")
        tail = [w for w in cmd.args[at + 1 :] if not w.text.startswith("--")]
        if tail:
            cmd.judge(tail, cmd.stdin)
            return
    cmd.add(M, "runs-program", "xdotool types and clicks for you")


# Programs that run the rest of their command line (`logsave FILE CMD …`, `ld.so CMD …`).
_RUNS_REST = {
    "logsave": (frozenset(), 1),
    "ld.so": (frozenset({"--library-path", "--preload", "--audit"}), 0),
    "ld-linux.so.2": (frozenset({"--library-path", "--preload"}), 0),
    "ld-linux-x86-64.so.2": (frozenset({"--library-path", "--preload"}), 0),
    "sshpass": (frozenset({"-p", "-f", "-d", "-P"}), 0),
    "cpulimit": (frozenset({"-l", "--limit", "-p", "--pid", "-e", "--exe", "-c", "--cpu"}), 0),
    "multitime": (frozenset({"-n", "-s"}), 0),
    "aoss": (frozenset(), 0),
    "aa-exec": (frozenset({"-p", "--profile", "-n", "--namespace"}), 0),
    "dbus-run-session": (frozenset({"--config-file", "--dbus-daemon"}), 0),
    "setarch": (frozenset(), 1),
    "rlwrap": (frozenset({"-f", "-H", "-P", "-S", "-a", "-e", "-l", "-p", "-q", "-s", "-w"}), 0),
    "gosu": (frozenset(), 1),
    "su-exec": (frozenset(), 1),
    "runcon": (frozenset({"-u", "-r", "-t", "-l"}), 1),
    "eatmydata": (frozenset(), 0),
    "nocache": (frozenset(), 0),
    "trickle": (frozenset({"-u", "-d", "-w", "-t", "-l", "-n"}), 0),
    "chronic": (frozenset(), 0),
    "dumb-init": (frozenset(), 0),
    "tini": (frozenset({"-p", "-e"}), 0),
}


def _runs_rest(cmd: Cmd) -> None:
    with_value, skip = _RUNS_REST[cmd.name]
    if cmd.name == "runcon" and any(w.text.startswith("-") for w in cmd.args[:1]):
        skip = 0  # `runcon -t TYPE CMD`: no positional context before the command
    i = skip_options(cmd.args, 0, with_value) + skip
    if cmd.name in ("gosu", "su-exec"):
        cmd.add(C, "sudo", f"{cmd.name} runs a command as another user")
    if cmd.name == "runcon":
        cmd.add(M, "runs-program", "runcon runs a command in another SELinux security context")
    if i < len(cmd.args):
        rest(cmd, i)
    else:
        cmd.add(M, "unknown-command", f"{cmd.name} changes how programs run")


for _n in _RUNS_REST:
    handles(_n)(_runs_rest)
# A `--dry-run`/`--help` after these is the wrapped program's (`chronic certbot --dry-run
# --pre-hook 'rm -rf ~'` runs the hook): the dispatcher's "only says" exits skip them (gen12).
runner(*_RUNS_REST)


_VIMS = frozenset(names("vi vim nvim ex view rview vimdiff gvim rvim"))
_COMPILERS = frozenset(names("gcc g++ cc c++ clang clang++"))


def _shown_file(cmd: Cmd, w: Word) -> Word | None:
    """(n19u) A file operand whose text the block shows: a process substitution of known
    text, or standard input's here-document/here-string at /dev/stdin (as
    wrappers.known_script, without importing it: wrappers imports this module's callers)."""
    src = cmd.scope.source
    if w.dynamic:
        if (
            w.origin in ("static", "decoded")
            and w.start >= 0
            and src[w.start : w.start + 2] == "<("
        ):
            return Word(w.text, w.start, w.end)
        return None
    if w.text in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-") and cmd.stdin.kind == "static":
        return Word(cmd.stdin.text, w.start, w.end)
    if cmd.scope.written:
        # (u21) a file this block wrote (`echo '(shell-command "…")' > w.el; emacs -l w.el`),
        # looked up by base name as wrappers.written_text does
        key = w.text.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1]
        held = cmd.scope.written.get(key)
        if held is not None:
            return Word(held[0], w.start, w.end)
    return None


def misc_hooks(cmd: Cmd) -> None:
    """Embedded commands of editors, compilers and tools handled elsewhere (allowlist)."""
    n = cmd.name
    if n in _VIMS:
        vim_commands(cmd)
    elif n == "emacs":
        for i, w in enumerate(cmd.args):
            if w.text in ("--eval", "-eval") and i + 1 < len(cmd.args):
                _emacs(cmd, cmd.args[i + 1])
            elif w.text.startswith("--eval="):
                _emacs(cmd, _sub(w, w.text.split("=", 1)[1]))
            elif (
                w.text in ("-l", "--load", "--script", "-scriptload")
                and i + 1 < len(cmd.args)
                and (shown := _shown_file(cmd, cmd.args[i + 1])) is not None
            ):
                # (n19u) `emacs --batch -l /dev/stdin <<< '(…)'`, `-l <(echo …)`: a Lisp
                # file the block shows is its code
                _emacs(cmd, shown)
    elif n == "dc":
        repl_tool(cmd)
    elif n in _HOOK_OPTIONS:
        hook_options(cmd)
    elif n in _COMPILERS:
        gcc_wrapper(cmd)
    elif n == "defaults":
        defaults_write(cmd)
    elif n in ("ln", "link"):
        _ln_force(cmd)
        if any(w.text.startswith("/etc/apparmor.d/disable") for w in cmd.args):
            # (n19u) a profile linked into apparmor.d/disable is not loaded: as aa-disable
            cmd.add(C, "disable-security", "turns an AppArmor profile off (apparmor.d/disable)")
    elif n in ("unzip", "tar", "bsdtar", "7z", "7za", "7zz") and _extract_into(cmd):
        pass
    elif n in _COMPILERS and (out := cmd.option_value("-o")) is not None:
        from aintern_ls.safety.paths import write_target

        t = write_target(out.text, cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"{n} writes its output over {t.what}", out)
    elif n == "zip" and any(re.fullmatch(r"-[a-zA-Z]*m[a-zA-Z]*", t) for t in cmd.texts()):
        cmd.add(D, "delete", "zip -m deletes the files after adding them to the archive")
    elif n in ("7z", "7za", "7zz") and "-sdel" in cmd.texts():
        cmd.add(D, "delete", f"{n} -sdel deletes the files after archiving them")
    elif n == "salt":
        # `salt '*' cmd.run 'CMD'`: CMD runs on every matching minion.
        texts = cmd.texts()
        if "cmd.run" in texts or "cmd.shell" in texts:
            k = texts.index("cmd.run" if "cmd.run" in texts else "cmd.shell")
            if k + 1 < len(cmd.args):
                _judge_embedded(cmd, cmd.args[k + 1], "salt cmd.run")
    elif n == "vault" and re.search(
        r"\b(secrets disable|kv (delete|destroy|metadata delete)|delete|auth disable"
        r"|policy delete|audit disable|operator (raft remove-peer|step-down))\b",
        " ".join(cmd.texts()[:3]),
    ):
        cmd.add(D, "cloud-delete", "vault deletes secrets, disables an engine or auditing")
    elif n == "vagrant" and cmd.args and cmd.args[0].text == "destroy":
        cmd.add(D, "vm-destroy", "vagrant destroy deletes the virtual machine and its disks")
    elif n == "direnv" and len(cmd.args) > 2 and cmd.args[0].text == "exec":
        cmd.info = cmd.judge(list(cmd.args[2:]), cmd.stdin)  # `direnv exec DIR CMD`
    elif n == "ssh-keygen":
        lib = cmd.option_value("-D")
        if lib is not None and lib.text.endswith((".so", ".dylib", ".dll")):
            cmd.add(C, "lolbin-exec", "ssh-keygen -D loads and runs a shared library", lib)
    elif n in _DATA_RESET:
        data_reset(cmd, n, list(cmd.args))


@handles("exiftool")
def _exiftool_moves(cmd: Cmd) -> None:
    """`exiftool -FileName=/etc/passwd new`, `-Directory=DIR`, `-o OUT`: the image is renamed,
    moved or written to that path, replacing what is there (account files: blocked)."""
    from aintern_ls.safety.paths import write_target

    moved = False
    for i, w in enumerate(cmd.args):
        m = re.fullmatch(r"(?i)-(?:filename|directory|testname)<?=(.+)", w.text)
        value = m.group(1) if m else None
        if value is None and w.text == "-o" and i + 1 < len(cmd.args):
            value = cmd.args[i + 1].text
        if value is None or w.dynamic:
            continue
        moved = True
        t = write_target(value, cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"exiftool moves or writes a file over {t.what}", w)
        else:
            cmd.add(M, "write", f"exiftool renames or writes {value}", w)
    if not moved and any(
        re.fullmatch(r"-[\w:]+[+-]?<?=.*|-overwrite_original\w*", t) for t in cmd.texts()
    ):
        cmd.add(M, "write", "exiftool rewrites the tags of the files")


# --- volume managers, RAID, disk maintenance ------------------------------------------------
# LVM (lvm(8)), mdadm, NVMe/SCSI formatting and file system repair tools: those that write a
# new label, superblock or format onto a device destroy what was on it (blocked, like mkfs);
# removing logical volumes or groups destroys their data (dangerous: named volumes, scoped);
# the listing and display commands only read.
_LVM_READ = frozenset(
    names(
        """
        pvs vgs lvs pvdisplay vgdisplay lvdisplay pvscan vgscan lvscan pvck vgck lvmdiskscan
        lvmconfig lvmdump lvm-version
        """
    )
)
# (pvcreate/vgcreate/vgextend/pvremove/lvremove/vgremove are judged with the disk tools.)
_LVM_SHRINK = frozenset(names("lvreduce vgreduce"))
_LVM_CHANGE = frozenset(
    names(
        """
        lvcreate lvextend lvresize lvrename vgrename vgchange lvchange pvchange pvresize pvmove
        vgmerge vgsplit vgimport vgexport vgcfgrestore lvconvert
        """
    )
)


@handles(*_LVM_READ, *_LVM_SHRINK, *_LVM_CHANGE, "lvm")
def _lvm(cmd: Cmd) -> None:
    name = cmd.name
    args = list(cmd.args)
    if name == "lvm" and args and not args[0].text.startswith("-"):
        # `lvm pvcreate /dev/sdb`: the lvm shell runs its first argument as the command.
        cmd.info = cmd.judge(args, cmd.stdin)
        return
    if name in _LVM_READ or cmd.has("--help", "-h", "--version", "--test", "-t"):
        return
    if name in _LVM_SHRINK:
        cmd.add(D, "disk-destroy", f"{name} shrinks volumes (data past the new end is lost)")
        return
    cmd.add(M, "disk", f"{name} changes logical volumes")


@handles("findmnt", "smartctl", "modinfo", "blockdev", "lshw", "hwinfo", "lsscsi", "lspci")
def _disk_queries(cmd: Cmd) -> None:
    """Read-only queries of disks, mounts and modules are safe (session-7 convention:
    `smartctl -a`, `modinfo`); the options that change a device are moderate."""
    texts = cmd.texts()
    if cmd.name == "smartctl":
        if any(
            t.startswith(("-t", "--test", "-s", "--smart", "-o", "--offlineauto", "-S"))
            or t.startswith(("--saveauto", "-X", "--abort", "--set", "-C", "--captive"))
            for t in texts
        ):
            cmd.add(M, "disk", "smartctl starts a self-test or changes the drive's settings")
        return
    if cmd.name == "blockdev":
        if any(t.startswith("--") and not t.startswith(("--get", "--report")) for t in texts):
            cmd.add(M, "disk", "blockdev changes a block device's settings")
        return
    # findmnt, modinfo, lshw, hwinfo, lsscsi, lspci: they print what they find.


def _disk_listing(cmd: Cmd) -> None:
    """What a disk lister prints stands for every disk of the machine: a loop or `xargs`
    over it (`for d in $(lsblk -dno NAME); do shred /dev/$d; done`) acts on each one, so
    its items are judged as a raw disk (`sda`, or `/dev/sda` when it prints paths)."""
    if cmd.has("--help", "-h", "-V", "--version"):
        return
    paths = cmd.name == "blkid" or cmd.short("p") or cmd.has("--paths")
    cmd.info.paths = (Word("/dev/sda" if paths else "sda", cmd.start, cmd.end),)


@handles(
    "fsck",
    "e2fsck",
    "xfs_repair",
    "btrfsck",
    "fsck.ext4",
    "fsck.xfs",
    "fsck.vfat",
    "dosfsck",
    "tune2fs",
    "resize2fs",
    "xfs_admin",
    "e2label",
    "dumpe2fs",
    "xfs_info",
    "blkid",
    "lsblk",
    "losetup",
    "dmsetup",
    "btrfs",
)
def _fs_tools(cmd: Cmd) -> None:
    name = cmd.name
    texts = cmd.texts()
    if name in ("blkid", "lsblk"):
        _disk_listing(cmd)
        return
    if name in ("dumpe2fs", "xfs_info"):
        return
    if name == "losetup":
        if cmd.short("dD") or cmd.has("--detach", "--detach-all"):
            cmd.add(M, "disk", "losetup detaches loop devices")
        elif texts and not all(t.startswith("-") for t in texts) and not cmd.short("lfja"):
            cmd.add(M, "disk", "losetup attaches a loop device")
        return
    if name == "dmsetup":
        sub = texts[0] if texts else ""
        if sub in ("ls", "info", "status", "table", "deps", "version", "targets"):
            return
        if sub in ("remove_all", "wipe_table", "clear"):
            cmd.add(D, "disk-destroy", f"dmsetup {sub} tears down device-mapper devices")
        else:
            cmd.add(M, "disk", f"dmsetup {sub} changes device-mapper devices")
        return
    if name == "btrfs":
        ops = [t for t in texts if not t.startswith("-")]
        if len(ops) >= 2 and ops[1] in ("show", "list", "df", "usage", "stats", "get"):
            return
        if ops[:2] in (["subvolume", "delete"], ["device", "remove"], ["device", "delete"]):
            cmd.add(D, "disk-destroy", "btrfs deletes a subvolume or removes a device")
        elif ops[:2] in (["device", "add"], ["replace", "start"]):
            cmd.add(B, "mkfs", "btrfs formats the added device into the file system")
        elif ops[:1] == ["rescue"]:
            cmd.add(C, "disk", "btrfs writes to a device or rewrites file system metadata")
        else:
            cmd.add(M, "disk", f"btrfs {' '.join(ops[:2])} changes a file system")
        return
    if name == "tune2fs" and cmd.short("l") and not cmd.short("OUoecCiLmrT"):
        return
    fsck = name in ("fsck", "e2fsck", "btrfsck") or name.startswith("fsck.")
    if fsck and (cmd.short("n") or cmd.has("--readonly", "--dry-run")):
        return
    if name == "xfs_repair" and cmd.short("n"):
        return
    if name == "xfs_repair" and cmd.short("L"):
        cmd.add(C, "disk", f"{name} rewrites file system metadata (data can be lost)")
        return
    cmd.add(M, "disk", f"{name} checks, repairs or changes a file system")


# --- file-system debuggers: a request language that reads or rewrites blocks and inodes ---
# debugfs (ext2/3/4), xfs_db, fsdb (UFS), and their write switches: without them they open
# the device read-only and every request only prints.
_FSDB_WRITE_MODE = {"debugfs": "w", "xfs_db": "x", "fsdb": "w", "fsdb.ufs": "w", "fsdb_ufs": "w"}
# Requests that destroy data or metadata: removing names or inodes, clearing or freeing
# inodes and blocks, zeroing blocks, writing raw fields, fuzzing, trashing blocks.
_FSDB_DESTROY = re.compile(
    r"(?i)^[:!]?(rm|unlink|kill_file|rmdir|clri|freei|freeb|zap_block|zap|punch|truncate"
    r"|set_inode_field|sif|set_super_value|ssv|set_bg|modify_inode|mi|write|blocktrash|fuzz"
    r"|crc|uuid|label|sb_write|ln|link|undel|undelete|set_mmp_value|journal_write|jw|copy_inode"
    r"|fallocate|dirty|mkdir|symlink|expand_dir|expand|dirsearch_rm)$"
)
# Requests that only print (or copy out to a local file: `dump`, `rdump`).
_FSDB_WRITES_OUT = re.compile(r"(?i)^(dump|dump_inode|rdump|logdump|imap_write)$")
_FSDB_NAMES = ("debugfs", "xfs_db", "fsdb", "fsdb.ufs", "fsdb_ufs")


def _fsdb_requests(cmd: Cmd) -> tuple[list[tuple[str, Word]], bool]:
    """The requests handed to a file-system debugger (`-R REQ`, `-c CMD`, each line on a
    piped or redirected stdin) and whether some are unseen (`-f FILE`, an interactive or
    computed stdin)."""
    reqs: list[tuple[str, Word]] = []
    unseen = False
    args = list(cmd.args)
    for k, w in enumerate(args[:-1]):
        if w.text in ("-R", "-c") and (cmd.name != "debugfs" or w.text == "-R"):
            nxt = args[k + 1]
            if nxt.dynamic:
                unseen = True
            reqs += [(line, nxt) for line in re.split(r"[;\n]", nxt.text) if line.strip()]
        elif w.text == "-f" and cmd.name == "debugfs":
            unseen = True  # `debugfs -f FILE`: requests read from a file nobody here has seen
    if cmd.stdin.kind == "static":
        where = Word(cmd.stdin.text, cmd.start, cmd.end)
        reqs += [(line, where) for line in cmd.stdin.text.splitlines() if line.strip()]
    elif cmd.stdin.kind not in ("none", "") and not reqs:
        unseen = True
    return reqs, unseen


@handles(*_FSDB_NAMES)
def _fs_debugger(cmd: Cmd) -> None:
    """`debugfs -w -R 'kill_file /etc/shadow' /dev/sda1`, `xfs_db -x -c 'write magicnum 0'
    /dev/sda1`: a debugger's write mode edits the file system under the kernel's feet. A
    request that destroys a named system path is judged as deleting it; one that clears,
    frees or rewrites inodes/blocks of a raw disk corrupts the whole file system (blocked).
    Read-only use (no write switch, `-c` catastrophic mode, `xfs_db -r`) only prints: safe."""
    from aintern_ls.safety.paths import classify_path, is_device, write_target

    name = cmd.name
    texts = cmd.texts()
    flag = _FSDB_WRITE_MODE[name]
    writable = any(
        re.fullmatch(rf"-[a-zA-Z]*{flag}[a-zA-Z]*", t) for t in texts if not t.startswith("--")
    ) or (name.startswith("fsdb") and any("w" in t.split(",") or t == "rw" for t in texts))
    if name == "xfs_db" and cmd.short("r"):
        writable = False
    reqs, unseen = _fsdb_requests(cmd)
    valued = "-R -f -b -s -d -z" if name == "debugfs" else "-c -l -p -o -F"
    ops = cmd.operands(frozenset(names(valued)))
    dev = ops[-1] if ops else None
    on_disk = dev is not None and (dev.dynamic or is_device(dev.text))
    if not writable:
        if any(_FSDB_WRITES_OUT.match(r.split(None, 1)[0]) for r, _w in reqs if r.split()):
            cmd.add(M, "write", f"{name} copies files out of the file system")
        return
    destroying: list[tuple[str, Word]] = []
    for req, w in reqs:
        words = req.split()
        if words and _FSDB_DESTROY.match(words[0]):
            destroying.append((req, w))
    for req, w in destroying:
        for path in [t for t in req.split()[1:] if t.startswith("/")][:4]:
            t = classify_path(path, cmd.scope.cwds, False)
            wt = write_target(path, cmd.scope.cwds)
            level = max(t.level if t.rule != "scoped" else D, wt.level if wt else D)
            if level >= C:
                what = wt.what if wt is not None and wt.level >= t.level else t.what
                cmd.add(
                    B if on_disk else level,
                    "fsdb-write",
                    f"{name} is told to "
                    f"{req.split()[0]} {what} on {dev.text if dev else 'a device'}",
                    w,
                )
                return
    if destroying and on_disk:
        req, w = destroying[0]
        cmd.add(
            B,
            "fsdb-write",
            f"{name} in write mode runs `{req.strip()[:60]}` on the disk "
            f"{dev.text if dev else ''}: it corrupts the file system",
            w,
        )
        return
    if destroying:
        cmd.add(D, "fsdb-write", f"{name} rewrites the file system image {dev.text if dev else ''}")
        return
    if unseen or not reqs:
        cmd.add(C, "disk", f"{name} rewrites file system metadata (data can be lost)")
        return
    cmd.add(M, "disk", f"{name} opens the file system for writing")


# --- programs that run the command given after their options (GTFOBins "shell"/"command") --
# name -> (options that take a value, positional words before the command). Each judges the
# command it runs, so `choom -n 0 rm -rf /` is blocked as `rm -rf /` is, and wrapping a
# shell is what starting that shell is.
_RUNNERS: dict[str, tuple[str, int]] = {
    "setlock": ("", 1),
    "lckdo": ("-w", 1),
    "pexec": ("-n -o -e -p -P -c -u -R", 0),
    "distcc": ("", 0),
    "pidstat": ("", 0),
    "ssh-agent": ("-a -E -t -P -O", 0),
    "newgrp": ("", 1),
    "ifne": ("", 0),
    "chronic": ("", 0),
    "dtach": ("-c -A -n -e -r", 0),
    "abduco": ("-c -n -A -e", 0),
    "watchexec": ("-w --watch -e --exts -i --ignore -d --debounce -s --signal", 0),
    "reflex": ("-r --regex -g --glob", 0),
    "lxc-execute": ("-n --name -f", 0),
    "fakechroot": ("", 0),
    "multitime": ("-n -s -q", 0),
    "genie": ("", 0),
}


def _runner_command(cmd: Cmd) -> list[Word]:
    """The command a runner starts (empty when it starts none)."""
    name = cmd.name
    args = list(cmd.args)
    if name == "pidstat":
        e = next((k for k, w in enumerate(args) if w.text == "-e"), None)
        return args[e + 1 :] if e is not None else []
    if name == "genie":
        c = next((k for k, w in enumerate(args) if w.text in ("-c", "--command")), None)
        if c is not None:
            return args[c + 1 :]
        return [Word("sh", cmd.start, cmd.end)] if cmd.has("-s", "--shell") else []
    if name in ("ssh-agent", "newgrp") and not args:
        return [] if name == "ssh-agent" else [Word("sh", cmd.start, cmd.end)]
    valued = frozenset(_RUNNERS[name][0].split())
    return args[skip_options(args, 0, valued, _RUNNERS[name][1]) :]


runner(*_RUNNERS)  # their `--dry-run`/`--help` is the wrapped program's, as above (gen12)


@handles(*_RUNNERS)
def _runner(cmd: Cmd) -> None:
    if cmd.has("--help", "-h", "--version", "-V") and len(cmd.args) == 1:
        return
    inner = _runner_command(cmd)
    if cmd.name == "newgrp":
        cmd.add(C, "sudo", f"{cmd.name} runs a command with other group or user rights")
    if not inner:
        if cmd.name in ("pidstat", "ssh-agent"):
            return  # `pidstat 1`, `ssh-agent -s`: report or set up, run nothing
        cmd.add(M, "runs-program", f"{cmd.name} runs a program")
        return
    if any(w.dynamic and w is inner[0] for w in inner[:1]):
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs a command only known at run time", inner[0])
    cmd.info = cmd.judge(inner, cmd.stdin)


@handles("run-parts")
def _run_parts(cmd: Cmd) -> None:
    if cmd.has("--test", "--list", "--help", "--version"):
        return
    folder = next(
        (w for w in cmd.operands(frozenset(names("--regex -a --arg -u --umask"))) if not w.dynamic),
        None,
    )
    if folder is not None and _run_parts_every_program(cmd, folder):
        return
    if folder is not None and re.fullmatch(r"/(usr/)?(local/)?s?bin/?", folder.text):
        if _run_parts_program(cmd, folder):
            return
        # `run-parts --regex '^sh$' /bin`: the programs of a system folder, picked by name
        # (a shell among them): a way to start a shell past a command filter.
        cmd.add(C, "config-exec", "run-parts runs programs from a system folder (a shell escape)")
        return
    cmd.add(M, "local-script", "run-parts runs every program in a directory")


def _run_parts_every_program(cmd: Cmd, folder: Word) -> bool:
    """(safety-tgt9) `run-parts --arg=-rf --arg=/ /bin`: without `--regex` every program of
    the folder runs with the `--arg`/`-a` values, whatever its name: they are judged as an
    unknown program's arguments (`$program -rf /` is blocked). True when that was blocked."""
    if any(w.text == "--regex" or w.text.startswith("--regex=") for w in cmd.args):
        return False
    passed: list[Word] = []
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        if t in ("--arg", "-a") and i + 1 < len(args):
            nxt = args[i + 1]
            passed.append(Word(nxt.text, nxt.start, nxt.end, nxt.dynamic))
        elif t.startswith("--arg="):
            passed.append(Word(t[6:], w.start, w.end, w.dynamic))
        elif t.startswith("-a") and len(t) > 2 and not t.startswith("--"):
            passed.append(Word(t[2:], w.start, w.end, w.dynamic))
    if not passed:
        return False
    head = Word("$program", folder.start, folder.end, True, False, ORIGIN_VARIABLE)
    before = len(cmd.scope.findings)
    cmd.info = cmd.judge([head, *passed], cmd.stdin)
    if any(f.level >= B for f in cmd.scope.findings[before:]):
        cmd.add(B, "config-exec", "run-parts runs every program of the folder with these arguments")
        return True
    del cmd.scope.findings[before:]
    return False


def _run_parts_program(cmd: Cmd, folder: Word) -> bool:
    """(safety-f8) `run-parts --regex '^rm$' /bin --arg=-rf --arg=/` runs each program of the
    folder its regex matches with the `--arg`/`-a` values: a regex that pins one name
    (`^rm$`) is judged as that program with those arguments; a regex that does not (`^r.*$`)
    is judged as an unknown program word with them (`$X -rf /` is blocked)."""
    args = cmd.args
    texts = [w.text for w in args]
    regex: str | None = None
    passed: list[Word] = []
    i = 0
    while i < len(args):
        t, w = texts[i], args[i]
        for opt in ("--regex", "--arg", "-a"):
            if t == opt and i + 1 < len(args):
                value, start, end = texts[i + 1], args[i + 1].start, args[i + 1].end
                dynamic = args[i + 1].dynamic
                i += 1
                break
            if t.startswith(opt + "=") or (opt == "-a" and t.startswith("-a") and len(t) > 2):
                cut = len(opt) + (1 if t.startswith(opt + "=") else 0)
                value, start, end, dynamic = t[cut:], w.start, w.end, w.dynamic
                break
        else:
            i += 1
            continue
        i += 1
        if opt == "--regex":
            regex = None if dynamic else value
        else:
            passed.append(Word(value, start, end, dynamic))
    if regex is None or not passed:
        return False
    pinned = re.fullmatch(r"\^?([\w.+-]+)\$?", regex)
    if pinned is not None and "." not in pinned.group(1):
        head = Word(pinned.group(1), folder.start, folder.end)
    else:
        head = Word("$program", folder.start, folder.end, True, False, ORIGIN_VARIABLE)
    cmd.info = cmd.judge([head, *passed], cmd.stdin)
    cmd.add(C, "config-exec", "run-parts runs programs from a system folder (a shell escape)")
    return True


# --- options whose value the program runs as a command ---------------------------------------
_EXEC_OPTIONS: dict[str, str] = {
    "scrot": "-e --exec",
    "zathura": "-x --synctex-editor-command",
    "zic": "-y",
    "tcpdump": "-z",
    "enscript": "-I --filter",
    "tmate": "-c",
    "agetty": "-l --login-program",
    "socket": "-p",
    "dvips": "",
    "xdg-open": "",
    "nmap": "",
    "sshpass": "",
}


@lru_cache(maxsize=256)
def _option_spec(spec: str) -> tuple[list[str], frozenset[str], frozenset[str], bool]:
    """`spec`'s options; its two-letter ones; its `--long` ones; whether all start with `-`
    (an argument not starting with `-` can then match none)."""
    wanted = spec.split()
    shorts = frozenset(o for o in wanted if len(o) == 2)
    longs = frozenset(o for o in wanted if o.startswith("--"))
    return wanted, shorts, longs, all(o.startswith("-") for o in wanted)


def opt_values(cmd: Cmd, spec: str) -> list[tuple[Word, Word]]:
    """(option word, value) for every option of `spec` (`-x V`, `-xV`, `--name=V`); socket's
    value rides in a bundle (`-qvp CMD`)."""
    wanted, shorts, longs, dashed = _option_spec(spec)
    out: list[tuple[Word, Word]] = []
    args = cmd.args
    socket = cmd.name == "socket"
    for i, w in enumerate(args):
        t = w.text
        if t in wanted and i + 1 < len(args):
            out.append((w, args[i + 1]))
            continue
        if dashed and not t.startswith("-"):
            continue
        if (
            not socket
            and not (t[:2] in shorts and len(t) > 2 and not t.startswith("--"))
            and not ("=" in t and t.split("=", 1)[0] in longs)
        ):
            continue  # (no option of `spec` starts this word: the loop below finds none)
        for o in wanted:
            if o.startswith("--") and t.startswith(o + "="):
                out.append((w, _sub(w, t[len(o) + 1 :])))
            elif len(o) == 2 and t.startswith(o) and len(t) > 2 and not t.startswith("--"):
                out.append((w, _sub(w, t[2:])))
            elif (
                len(o) == 2
                and cmd.name == "socket"  # (first: the cheap test, on every word)
                and re.fullmatch(r"-[a-zA-Z]+", t)
                and t.endswith(o[1])
                and len(t) > 2
                and i + 1 < len(args)
            ):
                out.append((w, args[i + 1]))
    return out


@handles("scrot", "zic", "tcpdump", "enscript", "tmate", "agetty", "socket", "zathura")
def _exec_option_tool(cmd: Cmd) -> None:
    """`scrot -e CMD`, `zic -y CMD`, `tcpdump -z CMD`, `enscript -I CMD`, `tmate -c CMD`,
    `agetty -l PROGRAM`, `socket -p CMD`: the value is a command the tool runs."""
    found = False
    for opt, value in opt_values(cmd, _EXEC_OPTIONS[cmd.name]):
        found = True
        text = value.text
        if cmd.name == "tcpdump":
            text = text + " FILE"  # run with the name of each finished capture file
        _judge_embedded(cmd, _sub(value, text), f"{cmd.name} {opt.text[:2]}")
        # a login program or a command wired to a socket/terminal hands out a shell
        if cmd.name in ("agetty", "socket", "tmate") and re.search(
            r"(?:^|/)(?:ba|z|k|da|c|tc|fi)?sh\b", text
        ):
            cmd.add(C, "config-exec", f"{cmd.name} hands a shell to a terminal or a socket", value)
    if cmd.name == "tcpdump" and (
        cmd.has("-D", "--list-interfaces", "-L", "--list-data-link-types") and not found
    ):
        return  # lists interfaces or link types
    if cmd.name == "tcpdump":
        w = cmd.option_value("-w")
        if w is not None and w.text != "-":
            cmd.add(M, "write", "tcpdump writes a capture file", w)
        if cmd.option_value("-r") is not None and w is None and not found:
            return  # `tcpdump -nr cap.pcap`: reads a capture file
        cmd.add(M, "network", "tcpdump captures network traffic")
        return
    if cmd.name == "tmate":
        remote.shell_share(cmd)  # (n18u) tmate shares this shell through its relay
        return
    if not found:
        cmd.add(M, "runs-program", f"{cmd.name} runs")


@handles("csvtool")
def _csvtool(cmd: Cmd) -> None:
    texts = cmd.texts()
    if "call" in texts:
        k = texts.index("call")
        if k + 1 < len(cmd.args):
            _judge_embedded(cmd, cmd.args[k + 1], "csvtool call")
            return
    if "-o" in texts or "--output" in texts:
        cmd.add(M, "write", "csvtool writes a file")


@handles("rpmdb", "rpmquery", "rpmverify", "rpmspec", "rpmbuild")
def _rpm_tools(cmd: Cmd) -> None:
    rpm_eval(cmd)
    if cmd.name == "rpmbuild":
        cmd.add(M, "build", "rpmbuild runs a package's build scripts")
    elif cmd.name == "rpmdb" and cmd.has("--rebuilddb", "--initdb"):
        cmd.add(M, "system-config", "rpmdb rewrites the package database")


# Shell-outs inside small languages: Scheme/Lisp `(system "…")`, m4 `syscmd(…)`, Tcl `exec …`,
# gnuplot `system("…")` / `! cmd`.
_LANG_SHELL = re.compile(
    r"\((?:system\*?|ext:run-shell-command|run-shell-command|shell|uiop:run-program"
    r"|sb-ext:run-program|open-pipe\*?|open-input-pipe|open-output-pipe)\s+\"((?:[^\"\\]|\\.)*)\""
    r"|\b(?:e?syscmd)\(\s*([^)]*)\)"
    r"|\bsystem\s*\(\s*[\"']((?:[^\"'\\]|\\.)*)[\"']\s*\)"
    # command syntax: gnuplot's `system "cmd"`, `shell "cmd"`
    r"|(?:^|[;\n])\s*(?:system|shell|run)\s+[\"']((?:[^\"'\\]|\\.)*)[\"']"
    r"|(?:^|[;\n\[])\s*(?:exec|open\s+\"\|)\s*([^;\n\]]+)"
    r"|(?:^|[;\n])\s*!\s*([^;\n]+)"
    r"|`([^`]+)`"
)


def language_shell_outs(cmd: Cmd, code: Word, what: str) -> bool:
    """Judge each shell command written in `code`; True if there was one."""
    found = False
    for m in _LANG_SHELL.finditer(code.text):
        line = next(g for g in m.groups() if g is not None).strip().rstrip("&").strip()
        line = line.replace('\\"', '"')
        if line:
            found = True
            _judge_embedded(cmd, _sub(code, line), what)
    return found


_LANG_CODE_OPTS = {
    "gnuplot": "-e",
    "guile": "-c -e",
    "clisp": "-x",
    "sbcl": "--eval",
    "ecl": "-eval --eval",
    "racket": "-e --eval",
    "chicken": "-e",
    "csi": "-e -p",
    "gsi": "-e",
    "m4": "-D --define",
    "wish": "",
    "tclsh": "",
    "gawk-ext": "",
}


_LISPS = frozenset(names("guile clisp sbcl ecl racket csi gsi"))


@handles("kexec")
def _kexec(cmd: Cmd) -> None:
    """kexec loads a kernel (`-l`) and jumps into it (`-e`): the running system is replaced
    by a kernel chosen on the command line, skipping the boot loader and its checks."""
    if cmd.has("-l", "--load", "-e", "--exec", "-f", "--force", "-s", "--kexec-file-syscall"):
        cmd.add(C, "kernel", "kexec loads or boots into another kernel")
    elif cmd.has("-u", "--unload", "-p", "--load-panic"):
        cmd.add(M, "system-config", "kexec changes the crash or standby kernel")


@handles("gnuplot", "guile", "clisp", "sbcl", "ecl", "racket", "csi", "gsi", "m4", "wish")
def _small_language(cmd: Cmd) -> None:
    """Interpreters of small languages given code on the command line or on stdin: their
    shell-outs are judged as commands; other code runs as a local program (moderate)."""
    from aintern_ls.safety.context import STDIN_NONE

    spec = _LANG_CODE_OPTS.get(cmd.name, "")
    codes = [v for _, v in opt_values(cmd, spec)] if spec else []
    if cmd.stdin.kind == STDIN_STATIC and cmd.stdin.text:
        codes.append(Word(cmd.stdin.text, cmd.start, cmd.end))
    elif cmd.stdin.kind not in (STDIN_NONE, STDIN_STATIC) and not cmd.operands():
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs code it reads at run time")
        return
    if not codes and (shown := written_script_text(cmd)) is not None:
        codes.append(shown)  # (u21) `wish w.tcl`, `guile -s w.scm` of a file the block wrote
    shelled = False
    for code in codes:
        if code.dynamic:
            cmd.add(C, "eval-dynamic", f"{cmd.name} runs code only known at run time", code)
            shelled = True
        else:
            shelled = language_shell_outs(cmd, code, f"{cmd.name} code") or shelled
            if cmd.name in _LISPS:
                # Lisp forms (`(sb-ext:run-program "/bin/rm" (list "-rf" "/"))`, `(ext:shell
                # "…")`) read like Clojure's; code read in full is judged by what it does.
                found = inline.code_findings(
                    cmd.scope, code.text, code, "clojure", f"{cmd.name} code"
                )
                cmd.scope.include(found)
                shelled = True
    if cmd.name == "m4" and not codes and cmd.operands():
        cmd.add(M, "local-script", "m4 expands a file (its macros can run commands)")
        return
    if not shelled:
        cmd.add(M, "local-script", f"{cmd.name} runs a program")


@handles("hg")
def _hg(cmd: Cmd) -> None:
    """Mercurial: `--config alias.x=!CMD` and `--config hooks.*=CMD` run shell commands;
    read-only subcommands (status, log, diff, …) are safe."""
    for _, value in opt_values(cmd, "--config"):
        key, _, val = value.text.partition("=")
        k = key.lower()
        if (k.startswith("alias.") and val.startswith("!")) or k.startswith("hooks."):
            _judge_embedded(cmd, _sub(value, val.lstrip("!")), f"hg --config {key}")
        elif k in ("ui.editor", "ui.merge", "ui.ssh", "pager.pager", "extdiff.cmd"):
            _judge_embedded(cmd, _sub(value, val), f"hg --config {key}")
    ops = cmd.operands(frozenset({"--config", "-R", "--repository", "--cwd", "-r", "--rev"}))
    sub = ops[0].text if ops else ""
    if sub in (
        "status",
        "st",
        "log",
        "diff",
        "id",
        "identify",
        "summary",
        "sum",
        "heads",
        "branches",
        "tags",
        "annotate",
        "blame",
        "cat",
        "files",
        "root",
        "paths",
        "version",
        "help",
        "show",
        "incoming",
        "outgoing",
        "manifest",
        "grep",
    ):
        return
    if sub in ("purge", "clean") and cmd.has("--print", "-p", "--print0", "-0", "-n", "--dry-run"):
        return  # (a22) `hg purge --print`: lists the files it would delete
    if sub in ("purge", "strip", "rollback") or (
        sub in ("update", "up", "revert") and cmd.has("-C", "--clean", "--all")
    ):
        cmd.add(D, "git-destroy", f"hg {sub} discards changes")
        return
    cmd.add(M, "vcs-write", f"hg {sub or ''} changes the repository".replace("  ", " "))


_TEX = frozenset(
    names(
        """
        tex latex pdflatex lualatex luatex xelatex pdftex etex xetex context latexmk
        """
    )
)


@handles(*_TEX)
def _tex(cmd: Cmd) -> None:
    """TeX with `--shell-escape` runs `\\write18{CMD}` (and `\\immediate\\write18`) commands."""
    escape = any(
        w.text.lstrip("-") in ("shell-escape", "enable-write18", "shell-restricted")
        or w.text.startswith("--shell-escape")
        for w in cmd.args
    )
    for w in cmd.args:
        for m in re.finditer(r"\\write18\s*\{((?:[^{}]|\{[^{}]*\})*)\}", w.text):
            if escape:
                _judge_embedded(cmd, _sub(w, m.group(1)), f"{cmd.name} \\write18")
    if escape and _tex_written(cmd):
        cmd.add(M, "build", f"{cmd.name} typesets a document written above (its commands read)")
        return
    if escape:
        cmd.add(C, "config-exec", f"{cmd.name} --shell-escape lets the document run commands")
        return
    cmd.add(M, "build", f"{cmd.name} typesets a document")


_TEX_ESCAPE = re.compile(r"\\(?:immediate\s*)?\\?write18\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_TEX_LUA = re.compile(r"\\directlua\s*\{((?:[^{}]|\{[^{}]*\})*)\}")


def _tex_written(cmd: Cmd) -> bool:
    """(f19) `cat > w.tex <<EOF … \\write18{rm -rf ~} … EOF; pdflatex -shell-escape w.tex`:
    the document was written above, so its shell escapes (and `\\directlua` code) are read
    and judged. True when every document named was read that way."""
    docs = [w for w in cmd.args if not w.text.startswith(("-", "\\")) and not w.dynamic]
    if not docs:
        return False
    for w in docs:
        text = cmd.scope.written.get(w.text.rsplit("/", 1)[-1])
        if text is None:
            text = cmd.scope.written.get(w.text.rsplit("/", 1)[-1] + ".tex")
        if text is None:
            return False
        for m in _TEX_ESCAPE.finditer(text[0][:20000]):
            _judge_embedded(cmd, Word(m.group(1), w.start, w.end), f"{w.text}'s \\write18")
        for m in _TEX_LUA.finditer(text[0][:20000]):
            _judge_embedded(cmd, Word(m.group(1), w.start, w.end), f"{w.text}'s \\directlua", "lua")
    return True


@handles("msgfilter")
def _msgfilter(cmd: Cmd) -> None:
    """`msgfilter [OPTIONS] FILTER [ARGS]`: FILTER runs once per message."""
    i = skip_options(cmd.args, 0, frozenset(names("-i --input -o --output-file -D --directory")))
    if i < len(cmd.args):
        cmd.judge(list(cmd.args[i:]), cmd.stdin)
    cmd.add(M, "runs-program", "msgfilter runs a filter program")


@handles("busctl")
def _busctl(cmd: Cmd) -> None:
    """`busctl --address=unixexec:path=/bin/sh,argv1=-c,argv2=CMD` starts a program as the
    bus; `call`/`set-property` on system services change them; listings are safe."""
    for w in cmd.args:
        m = re.search(r"unixexec:path=([^,]+)((?:,argv\d+=[^,]*)*)", w.text)
        if m:
            argv = [a.split("=", 1)[1] for a in m.group(2).split(",") if "=" in a]
            import shlex

            line = " ".join(shlex.quote(x) for x in [m.group(1), *argv])
            _judge_embedded(cmd, _sub(w, line), "busctl unixexec address")
    ops = [t for t in cmd.texts() if not t.startswith("-")]
    sub = ops[0] if ops else "list"
    if sub in (
        "list",
        "status",
        "monitor",
        "capture",
        "tree",
        "introspect",
        "get-property",
        "help",
    ):
        return
    cmd.add(M, "system-config", f"busctl {sub} calls a system service")


@handles("ldconfig")
def _ldconfig(cmd: Cmd) -> None:
    if cmd.short("pV") or cmd.has("--print-cache", "--version", "-N"):
        return
    conf = cmd.option_value("-f")
    if conf is not None and not conf.text.startswith("/etc/ld.so.conf"):
        cmd.add(C, "env-hook", "ldconfig -f makes every program load libraries from new places")
        return
    cmd.add(M, "system-config", "ldconfig rebuilds the shared library cache")


@handles("gcore")
def _gcore(cmd: Cmd) -> None:
    cmd.add(C, "read-secret", "gcore dumps a running process's memory (passwords, keys, tokens)")


# --- uploads by tools that are not usually network tools (GTFOBins "file upload") ------------
def _upload(cmd: Cmd, what: Word, how: str) -> None:
    cmd.add(C, "exfiltration", f"{cmd.name} {how} (exfiltration)", what)


@handles("ab")
def _ab(cmd: Cmd) -> None:
    for _, v in opt_values(cmd, "-p -u"):
        _upload(cmd, v, "sends a file's contents to a web server")
        return
    cmd.add(M, "network", "ab sends many requests to a web server")


@handles("cancel", "lp", "lpr")
def _printing(cmd: Cmd) -> None:
    host = [v for _, v in opt_values(cmd, "-h -H")]
    if cmd.name == "cancel":
        if any(w.dynamic and w.origin != "variable" for w in cmd.args) and host:
            _upload(cmd, host[0], "sends a command's output to a print server")
            return
        cmd.add(M, "runs-program", "cancel cancels print jobs")
        return
    files = cmd.operands(frozenset(names("-h -H -d -P -n -o -t -U -q -#")))
    if host and (files or cmd.stdin.kind != "none"):
        _upload(cmd, host[0], "sends a file to a remote print server")
        return
    cmd.add(M, "runs-program", f"{cmd.name} prints files")


@handles("tftp", "atftp", "curl-tftp")
def _tftp(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()) + " " + (cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC else "")
    # (Windows' tftp.exe takes `PUT`/`GET` in any case: `tftp -i HOST PUT FILE`)
    if re.search(r"(?:^|\s|-c\s+|;)(?i:put)\b|(?:^|\s)-p\b|--put\b", text):
        cmd.add(C, "exfiltration", f"{cmd.name} put uploads a file (exfiltration)")
        return
    cmd.add(M, "network", f"{cmd.name} downloads a file")


@handles("mosquitto_pub", "hping3", "hping", "kafkacat", "kcat")
def _message_send(cmd: Cmd) -> None:
    spec = {"mosquitto_pub": "-f --file", "hping3": "-E --file", "hping": "-E --file"}.get(
        cmd.name, ""
    )
    for _, v in opt_values(cmd, spec) if spec else []:
        _upload(cmd, v, "sends a file's contents over the network")
        return
    if cmd.name in ("kafkacat", "kcat") and cmd.short("P") and cmd.stdin.kind != "none":
        cmd.add(C, "exfiltration", f"{cmd.name} -P sends its input to a Kafka topic")
        return
    cmd.add(M, "network", f"{cmd.name} sends network messages")


# --- tools that write a file named in their arguments (GTFOBins "file write") ---------------
def _writes(cmd: Cmd, target: Word) -> None:
    from aintern_ls.safety.paths import write_target

    t = write_target(target.text, cmd.scope.cwds)
    if t is not None:
        cmd.add(t.level, t.rule, f"{cmd.name} writes {t.what}", target)
    else:
        cmd.add(M, "write", f"{cmd.name} writes {target.text}", target)


@handles("dos2unix", "unix2dos", "mac2unix", "unix2mac")
def _dos2unix(cmd: Cmd) -> None:
    args = list(cmd.args)
    targets: list[Word] = []
    i = 0
    while i < len(args):
        t = args[i].text
        if t in ("-n", "--newfile") and i + 2 < len(args):
            targets.append(args[i + 2])
            i += 3
            continue
        if not t.startswith("-"):
            targets.append(args[i])
        i += 1
    for w in targets[:8]:
        _writes(cmd, w)
    if not targets:
        return


@handles("update-alternatives", "alternatives")
def _update_alternatives(cmd: Cmd) -> None:
    texts = cmd.texts()
    if any(t in ("--display", "--query", "--list", "--get-selections") for t in texts):
        return
    if "--install" in texts:
        k = texts.index("--install")
        if k + 1 < len(cmd.args):
            _writes(cmd, cmd.args[k + 1])  # LINK becomes a symlink to the new program
            return
    cmd.add(M, "system-config", f"{cmd.name} changes which program a command name runs")


@handles("varnishncsa", "varnishlog")
def _varnish_log(cmd: Cmd) -> None:
    out = cmd.option_value("-w")
    if out is not None:
        _writes(cmd, out)


# --- macOS tools (LOOBins, loobins.io): each by what its documented abuse does -----------------
@handles(
    "chflags",
    "setfile",
    "codesign",
    "dns-sd",
    "dscacheutil",
    "dsconfigad",
    "dsenableroot",
    "kextstat",
    "lsappinfo",
    "log",
    "profiles",
    "pwpolicy",
    "screencapture",
    "security_authtrampoline",
    "sharing",
    "snmptrap",
    "snmpset",
    "softwareupdate",
    "systemsetup",
    "kickstart",
    "sfltool",
    "installer",
    "hdiutil",
    "nscurl",
    "ldapsearch",
)
def _macos(cmd: Cmd) -> None:
    n = cmd.name
    texts = cmd.texts()
    low = [t.lower() for t in texts]
    joined = " ".join(low)
    if n == "chflags" and cmd.short("R"):
        # `chflags -R 0 /`: every file's flags, system-wide, like `chmod -R` of / (safety-art6).
        from aintern_ls.safety.paths import classify_path

        for w in cmd.operands()[1:]:
            if classify_path(w.text, cmd.scope.cwds).level == B:
                cmd.add(B, "chflags-root", "chflags -R changes the flags of a whole system tree", w)
                return
    if n in ("chflags", "setfile"):
        hides = (n == "setfile" and re.search(r"-a\s+\S*v", joined)) or (
            n == "chflags"
            and any(
                f in low for f in ("hidden", "uchg", "schg", "nouchg", "noschg", "sappnd", "uappnd")
            )
        )
        if hides:
            from aintern_ls.safety.paths import write_target

            for w in cmd.operands():
                t = write_target(w.text, cmd.scope.cwds)
                if t is not None and t.level >= C:
                    cmd.add(C, "persistence", f"{n} hides or locks {t.what}", w)
                    return
        cmd.add(M, "write", f"{n} changes file flags")
        return
    if n == "codesign":
        if "--remove-signature" in low:
            cmd.add(C, "disable-security", "codesign strips an app's signature (evades checks)")
        elif any(t in ("-v", "--verify", "-d", "--display", "-dv", "-dvvv", "-vvv") for t in low):
            return
        else:
            cmd.add(M, "write", "codesign signs a program")
        return
    if n in ("dns-sd", "snmptrap", "snmpset"):
        if any(w.dynamic and w.origin != "variable" for w in cmd.args):
            cmd.add(C, "exfiltration", f"{n} puts a command's output in what it sends")
            return
        if n == "dns-sd" and any(t in ("-b", "-l", "-q", "-e", "-f", "-z", "-g") for t in low):
            return
        cmd.add(M, "network", f"{n} sends network messages")
        return
    read_only = {
        "dscacheutil": ("-q", "-statistics", "-cachedump"),
        "dsconfigad": ("-show",),
        "kextstat": (),
        "lsappinfo": ("list", "info", "find", "front", "visibleprocesslist", "processlist"),
        "log": ("show", "stream", "stats", "help", "collect"),
        "profiles": ("list", "show", "status", "-p", "-l", "-c", "version", "help"),
        "pwpolicy": (
            "getaccountpolicies",
            "-getaccountpolicies",
            "-getglobalpolicy",
            "getpolicy",
            "-getpolicy",
            "authentication-allowed",
        ),
        "sharing": ("-l",),
        "softwareupdate": ("-l", "--list", "--history", "--list-full-installers", "--help"),
        "sfltool": ("dumpbtm", "list"),
        "hdiutil": ("info", "imageinfo", "verify", "help", "isencrypted", "pmap"),
        "ldapsearch": (),
    }
    if n in read_only and (not read_only[n] or (low and low[0] in read_only[n])):
        if n != "ldapsearch":
            return
        cmd.add(M, "network", "ldapsearch queries a directory server")
        return
    if n == "systemsetup" and low and low[0].startswith("-get"):
        return
    if n == "log":
        if low and low[0] == "erase":
            cmd.add(C, "clear-logs", "log erase deletes the system logs")
        elif low and low[0] == "config" and re.search(r"level:off|--mode\s+\S*off", joined):
            cmd.add(C, "clear-logs", "log config turns logging off")
        else:
            cmd.add(M, "system-config", "log changes logging")
        return
    if n == "profiles" or n == "pwpolicy":
        what = (
            "configuration profiles (certificates, proxies, restrictions)"
            if n == "profiles"
            else "password and account policies"
        )
        cmd.add(C, "disable-security", f"{n} changes {what}")
        return
    if n == "screencapture":
        cmd.add(C, "screen-capture", "screencapture takes a picture of the screen")
        return
    if n == "security_authtrampoline":
        cmd.add(C, "sudo", "security_authtrampoline runs a program as root")
        if cmd.args:
            cmd.judge(list(cmd.args), cmd.stdin)
        return
    if n == "sharing":
        if "-a" in low:
            cmd.add(C, "remote-access", "sharing shares a folder over the network")
        else:
            cmd.add(M, "system-config", "sharing changes file sharing")
        return
    if n == "dsenableroot":
        if "-d" in low:
            cmd.add(M, "account", "dsenableroot disables the root account")
        else:
            cmd.add(C, "account", "dsenableroot enables the root account")
        return
    if n == "systemsetup":
        if re.search(r"-setremote(login|appleevents)\s+on", joined):
            cmd.add(C, "remote-access", "systemsetup turns on remote login (SSH) or Apple events")
        else:
            cmd.add(M, "system-config", "systemsetup changes system settings")
        return
    if n == "kickstart":
        if "-activate" in low or ("-configure" in low and "-on" in low):
            cmd.add(C, "remote-access", "kickstart turns on Remote Desktop access")
        else:
            cmd.add(M, "system-config", "kickstart changes Remote Desktop settings")
        return
    if n == "nscurl":
        cmd.add(M, "network", "nscurl downloads a URL")
        return
    if n == "installer":
        cmd.add(M, "install", "installer installs a package")
        return
    if n == "softwareupdate" and any(t in ("--ignore", "--schedule") for t in low):
        cmd.add(M, "system-config", "softwareupdate changes update settings")
        return
    cmd.add(M, "system-config", f"{n} changes system settings")


# --- AI agent command lines ----------------------------------------------------------------
# Coding agents run shell commands they choose themselves; with their approval prompts
# bypassed (how the Nx "s1ngularity" payload used them) a one-line prompt becomes arbitrary
# command execution nobody reviews: critical. With approvals on they ask first (moderate).
_AGENTS = frozenset(
    names(
        """
        claude gemini codex q aider cursor-agent opencode amp goose crush qwen kiro-cli
        """
    )
)
_AGENT_BYPASS = re.compile(
    r"\A(?:--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo"
    r"|--full-auto|--trust-all-tools|--yes-always|--auto-approve|--always-approve|--no-confirm"
    r"|--approval-mode=(?:yolo|auto\S*)|--permission-mode=bypass\S*|--sandbox=danger\S*"
    r"|--ask-for-approval=never|--force|--allow-all-tools|--accept-all)\Z",
    re.I,
)
_AGENT_VALUED_BYPASS = {
    "--approval-mode": re.compile(r"(?i)\A(yolo|auto\S*)\Z"),
    "--permission-mode": re.compile(r"(?i)\Abypass\S*\Z"),
    "--sandbox": re.compile(r"(?i)\Adanger\S*\Z"),
    "-s": re.compile(r"(?i)\Adanger\S*\Z"),
    "--ask-for-approval": re.compile(r"(?i)\Anever\Z"),
    "-a": re.compile(r"(?i)\Anever\Z"),
    "--allowedTools": re.compile(r"(?i)bash\s*(\(\s*\*?\s*\))?|\*"),
    "--allowed-tools": re.compile(r"(?i)bash\s*(\(\s*\*?\s*\))?|\*"),
}


@handles(*_AGENTS)
def _agent(cmd: Cmd) -> None:
    args = cmd.args
    texts = cmd.texts()
    if texts and all(
        t in ("--help", "-h", "--version", "-v", "-V", "help", "version") for t in texts
    ):
        return
    bypass: Word | None = None
    for i, w in enumerate(args):
        if _AGENT_BYPASS.match(w.text) or (
            cmd.name in ("gemini", "cursor-agent", "qwen") and w.text in ("-y", "-f")
        ):
            bypass = w
            break
        rule = _AGENT_VALUED_BYPASS.get(w.text)
        if rule is not None and i + 1 < len(args) and rule.search(args[i + 1].text):
            bypass = args[i + 1]
            break
    if bypass is not None:
        cmd.add(
            C,
            "agent-bypass",
            f"{cmd.name} runs an AI agent with its approvals turned off: it runs commands"
            " nobody reviews",
            bypass,
        )
        return
    cmd.add(M, "runs-program", f"{cmd.name} runs an AI agent (it asks before running commands)")


@handles("atq", "atrm")
def _at_queue(cmd: Cmd) -> None:
    """`atq` lists the at queue (reads only); `atrm` removes queued jobs."""
    if cmd.name == "atrm" and cmd.args:
        cmd.add(M, "system-config", "atrm removes scheduled jobs")


# --- other shells ------------------------------------------------------------------------------
@handles("elvish", "rc", "sash", "nu", "nushell", "xonsh", "osh", "oil", "ion", "es")
def _other_shell(cmd: Cmd) -> None:
    """Shells outside the POSIX family (GTFOBins lists elvish, rc, sash): `-c CODE` runs
    CODE, a simple command line reading the same as in sh; with no code they start an
    interactive shell."""
    args = list(cmd.args)
    for i, w in enumerate(args):
        if w.text == "-c" and i + 1 < len(args):
            code = args[i + 1]
            if code.dynamic:
                cmd.add(C, "eval-dynamic", f"{cmd.name} runs code only known at run time", code)
            else:
                cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
            return
    ops = [w for w in args if not w.text.startswith("-")]
    if ops:
        cmd.add(M, "local-script", f"{cmd.name} runs the script {ops[0].text}", ops[0])
    else:
        cmd.add(M, "shell", f"{cmd.name} starts a shell")


@handles("dvips")
def _dvips(cmd: Cmd) -> None:
    """`dvips -R0` lets the document's \\special commands run shell commands."""
    if any(w.text in ("-R0", "-R-") for w in cmd.args):
        cmd.add(C, "config-exec", "dvips -R0 lets the document run shell commands")
    else:
        cmd.add(M, "build", "dvips converts a document")


# --- more disk wipers and block-level writers ---------------------------------------------------
@handles("nwipe", "scrub", "ddrescue", "fallocate", "dc3dd")
def _disk_wiper(cmd: Cmd) -> None:
    """nwipe/scrub erase what they are pointed at; ddrescue and dc3dd copy onto their output;
    fallocate --punch-hole/--zero-range zeroes a range. On a raw device each destroys the
    disk (blocked); on a file they destroy its content (dangerous) or write (moderate)."""
    from aintern_ls.safety.paths import is_device

    texts = cmd.texts()
    if cmd.has("--help", "-h", "--version", "-V") and len(texts) == 1:
        return
    ops = cmd.operands(
        frozenset(names("-p -m -o -l -n -s -r -b -c -i -d --method --offset --length"))
    )
    if cmd.name == "ddrescue":
        target = ops[1] if len(ops) > 1 else None
    elif cmd.name == "dc3dd":
        target = next(
            (
                Word(t.split("=", 1)[1], w.start, w.end)
                for w, t in zip(cmd.args, texts, strict=True)
                if t.startswith(("of=", "hof=", "wipe=", "hwipe="))
            ),
            None,
        )
    else:
        target = ops[-1] if ops else None
    erasing = (
        cmd.name in ("nwipe", "scrub")
        or (
            cmd.name == "fallocate"
            and any(t in ("-p", "--punch-hole", "-z", "--zero-range") for t in texts)
        )
        or cmd.name in ("ddrescue", "dc3dd", "sg_dd")
    )
    if target is not None and is_device(target.text) and (erasing or cmd.name == "fallocate"):
        cmd.add(B, "disk-wipe", f"{cmd.name} overwrites the disk {target.text}", target)
        return
    if cmd.name == "nwipe" and not ops and "--autonuke" in texts:
        cmd.add(B, "disk-wipe", "nwipe --autonuke erases every disk it finds")
        return
    if erasing and cmd.name != "ddrescue" and target is not None:
        from aintern_ls.safety.paths import write_target

        hit = write_target(target.text, cmd.scope.cwds) if not target.dynamic else None
        if hit is not None and hit.level >= B:
            # `fallocate -p -o 0 -l 4096 /etc/passwd`: an account file zeroed (safety-tgt9)
            cmd.add(B, hit.rule, f"{cmd.name} destroys the content of {hit.what}", target)
            return
        cmd.add(D, "shred", f"{cmd.name} destroys the content of {target.text}", target)
        return
    cmd.add(M, "write", f"{cmd.name} writes {target.text if target else 'data'}")


@handles("grub-install", "grub2-install", "bootctl", "lilo", "install-mbr", "ms-sys")
def _boot_loader(cmd: Cmd) -> None:
    """Writing a boot loader onto a disk or changing the EFI boot setup: a mistake leaves a
    machine that does not start (boot configuration, critical)."""
    texts = cmd.texts()
    if cmd.name == "bootctl" and (not texts or texts[0] in ("status", "list", "is-installed")):
        return
    if any(t in ("--help", "-h", "--version", "-V") for t in texts):
        return
    cmd.add(C, "boot-config", f"{cmd.name} rewrites the boot loader")


@handles("killall5")
def _killall5(cmd: Cmd) -> None:
    cmd.add(D, "kill", "killall5 signals every process on the machine")


# --- image editors with a batch interpreter ---------------------------------------------------


@handles(
    *names("gimp gimp-console gimp-2.10 gimp-console-2.10 gimp-2.99 gimp-3.0 gimp-console-3.0")
)
def _gimp(cmd: Cmd) -> None:
    """`gimp -i -b CODE`: batch code runs in Script-Fu (Scheme) or, with
    `--batch-interpreter=python-fu-eval`, in Python; it is judged as code of that language
    (`-b -` reads it from standard input)."""
    batches = [v for _, v in opt_values(cmd, "-b --batch")]
    if not batches:
        cmd.add(M, "local-script", f"{cmd.name} opens images (plug-ins can run code)")
        return
    interp = cmd.option_value("--batch-interpreter")
    language = "python" if interp is not None and "python" in interp.text else "clojure"
    for code in batches:
        if code.text == "-":
            if cmd.stdin.kind == "static" and cmd.stdin.text:
                code = Word(cmd.stdin.text, cmd.start, cmd.end)
            else:
                cmd.add(C, "eval-dynamic", f"{cmd.name} runs batch code it reads at run time")
                continue
        _judge_embedded(cmd, code, f"{cmd.name} batch code", language)
    cmd.add(M, "local-script", f"{cmd.name} runs batch code")


# --- boot signing, kernel modules, package receipts, AD database copies -----------------------


@handles("mokutil")
def _mokutil(cmd: Cmd) -> None:
    """mokutil manages shim's Machine Owner Keys: `--disable-validation` turns off Secure
    Boot signature checks of the boot chain (critical); enrolling or deleting keys changes
    what the machine trusts to boot (critical); listings only read."""
    texts = cmd.texts()
    if any(
        t in ("--disable-validation", "--import", "--delete", "--reset", "--ignore-db")
        or t.startswith(("--import=", "--delete="))
        for t in texts
    ):
        cmd.add(C, "disable-security", "mokutil changes Secure Boot validation or its keys")
    elif any(
        t.startswith(
            (
                "--list",
                "--sb-state",
                "--test-key",
                "--export",
                "--pk",
                "--kek",
                "--db",
                "--dbx",
                "--help",
                "--version",
            )
        )
        for t in texts
    ):
        return
    else:
        cmd.add(M, "system-config", "mokutil changes shim settings")


_PKGUTIL_READ = frozenset(
    names(
        """
        --pkgs --pkgs-plist --packages --pkg-info --pkg-info-plist --files --lsbom --file-info
        --file-info-plist --export-plist --check-signature --payload-files --pkg-groups
        --groups --groups-plist --group-pkgs --regexp -h --help
        """
    )
)


@handles("pkgutil")
def _pkgutil(cmd: Cmd) -> None:
    """macOS pkgutil: listing packages and their files only reads; `--forget` drops a
    receipt, `--expand`/`--flatten` write files (moderate)."""
    texts = [t for t in cmd.texts() if t.startswith("-")]
    if texts and all(
        t.split("=", 1)[0] in _PKGUTIL_READ
        or t in ("--volume", "--only-files", "--only-dirs", "-v", "--verbose")
        for t in texts
    ):
        return
    cmd.add(M, "write", "pkgutil changes package receipts or writes files")


@handles("ntdsutil", "ntdsutil.exe")
def _ntdsutil(cmd: Cmd) -> None:
    """`ntdsutil "ac i ntds" "ifm" "create full C:\\x" q q`: Install From Media copies the
    AD database (NTDS.dit) and the SYSTEM hive, every domain password hash (credential
    dumping, critical); snapshots of it likewise."""
    text = " ".join(cmd.texts()).lower()
    if re.search(r"\bifm\b", text) or re.search(r"\bsnapshot\b.*\b(create|mount)\b", text):
        cmd.add(C, "credential-dump", "ntdsutil copies the Active Directory database")
    elif re.search(r"\bset\s+dsrm\s+password\b", text):
        # the domain controller's recovery-mode administrator password reset (h17)
        cmd.add(C, "account", "ntdsutil resets the directory-restore administrator password")
    else:
        cmd.add(M, "system-config", "ntdsutil manages the Active Directory database")


@handles("trash-empty")
def _trash_empty(cmd: Cmd) -> None:
    """trash-cli `trash-empty [DAYS]`: what is in the trash is deleted for good."""
    cmd.add(D, "delete", "trash-empty permanently deletes the files in the trash")


# ---------------------------------------------------------------------------------------
# Options whose value runs (safety-p5). One table of (program, option) -> how the program
# executes the value, and a rule for options nobody listed: a long option named like a
# command hook (`--exec`, `--pager`, `--on-download-complete`, `--compress-program`,
# `--post-hook`) or any option value starting with `|` (strace/ltrace `-o '|cmd'`) is judged
# as a shell command line, kept when what it runs is dangerous or worse.
#   sh:   the value is a shell command line
#   prog: the value names a program the tool starts (with arguments of its own)
#   pipe: a value starting with `|` is a command line (otherwise an output file)
#   make: make text whose `$(shell …)` runs
#   python: Python code (GIMP's python-fu-eval batch)
_RUNS_OPTION: dict[str, dict[str, str]] = {}


def _runs(progs: str, how: str, options: str) -> None:
    for p in names(progs):
        for o in names(options):
            _RUNS_OPTION.setdefault(p, {})[o] = how


_runs("strace ltrace", "pipe", "-o --output")
_runs("mysql mariadb", "sh", "--pager")
_runs("sort gsort", "prog", "--compress-program")
_runs("nodemon", "sh", "--exec -x")
_runs(
    "aria2c",
    "prog",
    """
    --on-download-complete --on-download-start --on-download-error --on-download-pause
    --on-download-stop --on-bt-download-complete
    """,
)
_runs("make gmake", "make", "--eval -E")
_runs("wget wget2", "prog", "--use-askpass")
_runs("hyperfine", "sh", "--prepare -p --setup -s --cleanup -c --conclude")
_runs("chokidar", "sh", "-c --command")
_runs("fzf", "sh", "--preview")
_runs("gimp gimp-console", "python", "-b --batch")
_runs("lftp", "sh", "-c")
_runs("ranger", "sh", "--cmd")
_runs("xterm uxterm urxvt", "sh", "-e")
_runs("rlwrap", "prog", "-z --filter")
_runs("pg_ctl", "prog", "--archive-command")
_runs("tcpdump", "prog", "-z")
_runs("latexmk", "perl", "-e -r")
_runs("gem", "sh", "-e --editor")
_runs("nmap", "prog", "--script")
_runs("helm", "prog", "--post-renderer")
# (n19u) bazel runs the test or binary under the command --run_under names
_runs("bazel bazelisk", "prog", "--run_under")

_CMDISH_OPTION = re.compile(
    r"^--?(?:[a-z0-9]+-)*(?:exec|execute|command|cmd|pager|askpass|editor|hook|shell|program"
    r"|on-?[a-z0-9-]{3,}|pre-invoke|post-invoke|run|action|rsh|ssh)(?:-[a-z0-9]+)*$"
)
# The same for Windows programs' switches (`/oncomplete "cmd /c …"`, `-NotifyCmd:"…"`,
# `/exec=…`, `/PostCommand …`): glued words, any case. Written as two linear-time tests
# (safety-sp7): the single pattern it replaces, `[/-](?:[a-z0-9]+[-_]?)*?(?:exec|…|on[a-z]+|…)
# (?:[-_]?[a-z0-9]+)*$`, backtracked exponentially on a switch that almost matched
# (`-CertStoreLocation`: 20 ms; `-opt123`). Same language: a switch of letters and digits in
# words joined by single `-`/`_`, holding one of the hook words.
_WIN_SWITCH_SHAPE = re.compile(r"(?i)[/-][a-z0-9]+(?:[-_][a-z0-9]+)*\n?")
_WIN_HOOK_WORD = re.compile(
    r"(?i)exec|command|cmd|hook|shell|program|run|action|launch|notify|on[a-z]"
)


def win_cmdish_option(key: str) -> bool:
    """Whether a Windows switch is named like a command hook (`/oncomplete`, `-NotifyCmd`,
    `/exec`, `/PostCommand`, `-pre_run`)."""
    return (
        _WIN_SWITCH_SHAPE.fullmatch(key) is not None and _WIN_HOOK_WORD.search(key, 1) is not None
    )


def windows_option_commands(cmd: Cmd, mark: int) -> None:
    """An unknown Windows program's switch named like a command hook whose value is a
    command line (`jobctl /oncomplete "cmd /c rd /s /q C:\\ProgramData"`): the command line
    is judged; what it does when dangerous or worse is kept."""
    if not cmd.argv.switched:
        return  # (no switch at all)
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        if w.dynamic or not t.startswith(("/", "-")) or len(t) < 3:
            continue
        m = re.match(r"^([/-][A-Za-z][\w-]*)[:=](.+)$", t, re.S)
        key, given = (m.group(1), _sub(w, m.group(2))) if m else (t, None)
        if given is None and i + 1 < len(args) and not args[i + 1].text.startswith(("/", "-")):
            given = args[i + 1]
        if given is None or not win_cmdish_option(key):
            continue
        line = given.text.strip()
        if len(line) > 1 and line[0] == line[-1] == '"':
            line = line[1:-1]
        if " " not in line.strip():
            continue
        found = cmd.scope.nested(line, cmd.scope.family, given, -1)
        level = max((f.level for f in found), default=M)
        if level >= D:
            cmd.scope.include(found)
            cmd.add(level, "config-exec", f"{cmd.name} {key} runs a {level.label} command", given)


# Programs whose option values are text, not commands (printing or searching them).
_TEXT_PROGRAMS = frozenset(
    names(
        """
        echo printf print grep egrep fgrep rg ag ack jq yq logger wall notify-send say figlet
        cowsay git sed awk gawk mawk nawk perl python python3 node ruby php man apropos whatis
        """
    )
)
# Programs whose handler parses their command-running options exactly (which mode runs which
# helper, which value is a shell line): the generic option rule would misread them (ext6).
_OWN_OPTION_PARSERS = frozenset(names("tar gtar bsdtar"))
_TEMP_DIRS = re.compile(r"^(?:/tmp/|/var/tmp/|/dev/shm/|\$\{?TMPDIR\}?/|~/\.|/home/[^/]+/\.)")


def _escalate(cmd: Cmd, code: Word, what: str, mark: int) -> None:
    """Judge `code` as a command line and keep what it does when dangerous or worse."""
    if code.dynamic or not code.text.strip():
        return
    found = cmd.scope.nested(code.text, "bash", code, -1)
    level = max((f.level for f in found), default=M)
    if level < D:
        return
    seen = {(f.rule, f.start, f.end) for f in cmd.scope.findings[mark:]}
    new = [f for f in found if (f.rule, f.start, f.end) not in seen]
    if new:
        cmd.scope.include(new)
        cmd.add(level, "config-exec", f"{what} runs a {level.label} command", code)


def _run_value(
    cmd: Cmd, value: Word, what: str, hook: bool = False, shell_escape: bool = True
) -> None:
    """A value the program runs as a command line, rated by what it runs: a safe pager
    (`--pager=less`) adds nothing, a dangerous or blocked one is that, an unknown one is
    opaque. For a `hook` (a non-launcher tool's pager, filter, callback), a local program
    the analyser cannot read is opaque (critical, session 13) and, with `shell_escape`, a
    shell started there is a shell escape (critical, session 14)."""
    if value.dynamic:
        cmd.add(C, "config-exec", f"{what} runs a command only known at run time", value)
        return
    if not value.text.strip():
        return
    found = cmd.scope.nested(value.text, "bash", value, -1)
    cmd.scope.include(found)
    level = max((f.level for f in found), default=S)
    if hook and shell_escape and level < C and starts_shell(value.text) is not None:
        cmd.add(C, "config-exec", f"{what} starts a shell", value)
    elif level >= D:
        cmd.add(level, "config-exec", f"{what} runs a {level.label} command", value)
    elif hook and (hidden := unreadable_program(found)) is not None:
        cmd.add(C, "config-exec", f"{what} runs {hidden}, which the analyser cannot read", value)
    elif level >= M:
        cmd.add(M, "runs-program", f"{what} runs another program", value)


# Programs of the option table whose option is there to run a command (a launcher, not a
# hook): a shell or a local script there is what the user asked for.
_OPTION_LAUNCHERS = frozenset(names("nodemon hyperfine chokidar xterm uxterm urxvt lftp"))


def _run_program_option(cmd: Cmd, value: Word, what: str, shell_escape: bool = True) -> None:
    """A hook naming a program to start later: judged as that program; one in a temporary
    or hidden place (or only known at run time) is opaque code."""
    text = value.text.strip()
    if value.dynamic:
        cmd.add(C, "config-exec", f"{what} runs a program only known at run time", value)
        return
    base = text.rsplit("/", 1)[-1]
    if base in _COMPRESSORS:
        return  # `sort --compress-program=zstd`: a filter from stdin to stdout
    if " " not in text and (_TEMP_DIRS.match(text) or base.startswith(".")):
        cmd.add(C, "config-exec", f"{what} runs a program from a temporary or hidden place", value)
        return
    _run_value(cmd, value, what, hook=True, shell_escape=shell_escape)


run_program_option = _run_program_option  # for other modules' option tables (toolchains)
_COMPRESSORS = frozenset(names("gzip pigz zstd xz lzma bzip2 pbzip2 lz4 lzop brotli compress"))
_MAKE_SHELL = re.compile(r"\$[({]shell\s+((?:[^()]|\([^()]*\))*)[)}]")


def jvm_hooks(cmd: Cmd) -> None:
    """(n19u, n20u) A program that starts a JVM (`JVM_PROGRAMS`) given an event hook: `java
    -XX:OnError="rm -rf /etc" -jar a.jar`, `sbt -J-XX:On…=…`, `mvn -DargLine="-XX:On…"`, or
    options read from a file this block wrote (`java @opts`, `-XX:VMOptionsFile=/tmp/o`).
    The JVM arms the hook in every mode (`-version`, `--help`, `--dry-run` start it too), so
    this is called before those are taken as read-only; in every shell (from PowerShell or
    cmd the hook is read both as cmd.exe and as /bin/sh would run it)."""
    scope = cmd.scope
    shells = ("bash",) if scope.family == "bash" else ("cmd", "bash")
    for w in cmd.args[:64]:
        t = w.text
        if "-XX:On" in t:  # (a dynamic word: its text with the expansions)
            scope.include(jvm_event_findings(scope, t, w, cmd.name, shells))
            continue
        if not scope.written:
            continue
        path = ""
        if t[:1] == "@" and len(t) > 1:
            path = t[1:]
        elif t.startswith("-XX:VMOptionsFile="):
            path = t.partition("=")[2]
        if path:
            held = scope.written.get(path.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1])
            if held is not None and "-XX:On" in held[0]:
                scope.include(jvm_event_findings(scope, held[0], w, f"{cmd.name} {t}", shells))


def option_commands(cmd: Cmd, mark: int) -> None:
    """Option values a program runs (see `_RUNS_OPTION`), and the generic rule for options
    named like command hooks and values that start with `|`."""
    table = _RUNS_OPTION.get(cmd.name, {})
    argv = cmd.argv
    if cmd.name in ("wget", "wget2") and "use_askpass" in argv.joined_low:
        # (n19u) `wget -e use_askpass=PROG`: a wgetrc command given on the command line, the
        # same as --use-askpass=PROG
        for _opt, value in opt_values(cmd, "-e --execute"):
            key, eq, prog = value.text.partition("=")
            if eq and key.strip().lower().replace("-", "_") == "use_askpass":
                where = _sub(value, prog.strip())
                _run_program_option(cmd, where, "wget -e use_askpass")
    if argv.dashed and "agent" in argv.joined_low and cmd.name not in _TEXT_PROGRAMS:
        # (n19u) `java -javaagent:/tmp/x.jar`, `-agentpath:/dev/shm/l.so`: code loaded into
        # the JVM from a temporary or hidden place (as JAVA_TOOL_OPTIONS says)
        for w in cmd.args[:64]:
            t = w.text.removeprefix("-J")
            if t.startswith(("-javaagent:", "-agentpath:")):
                lib = t.split(":", 1)[1].split("=", 1)[0]
                if w.dynamic or _TEMP_DIRS.match(lib) or "/." in lib:
                    cmd.add(C, "config-exec", f"{cmd.name} loads {lib} into the JVM, unread", w)
    if not table and (
        not argv.dashed or (argv.chars.isdisjoint(" |") and "%sh{" not in argv.joined_low)
    ):
        # (no option, or no value holding a blank or a `|` and no `%sh{`: the generic rule
        # below needs an option with one of them)
        return
    done: set[int] = set()
    if table:
        for opt, value in opt_values(cmd, " ".join(table)):
            key = opt.text.split("=", 1)[0]
            how = table.get(key) or table.get(key[:2], "sh")
            what = f"{cmd.name} {key}"
            done.add(value.start)
            if how == "pipe":
                if value.text.startswith("|"):
                    _run_value(cmd, _sub(value, value.text[1:]), f"{what} '|…'", hook=True)
            elif how == "prog":
                if cmd.name == "nmap" and written_script_text(cmd, value) is not None:
                    continue  # (u21) a Lua script the block wrote: read by the nmap handler
                _run_program_option(cmd, value, what)
            elif how == "make":
                for m in _MAKE_SHELL.finditer(value.text):
                    _judge_embedded(cmd, _sub(value, m.group(1)), f"{what} $(shell …)")
            elif how in ("python", "perl"):
                if how == "perl" and key == "-r":
                    _run_program_option(cmd, value, what)  # an rc file: a script it reads
                else:
                    _judge_embedded(cmd, value, what, how)
                    if cmd.name == "latexmk":
                        # `-e '$pdflatex=q/rm -rf ~/'`: latexmk runs the commands its
                        # settings name (`$pdflatex`, `$*_cmd`, viewers) for every build.
                        for m in re.finditer(
                            r"\$\w+\s*=\s*(?:q(\W)(.*?)\1|'([^']*)'|\"([^\"]*)\")",
                            value.text[:4000],
                        ):
                            line = next(g for g in m.groups()[1:] if g is not None)
                            _escalate(cmd, _sub(value, line), f"{what} setting", mark)
            else:
                _run_value(cmd, value, what, hook=cmd.name not in _OPTION_LAUNCHERS)
    if cmd.name in _TEXT_PROGRAMS or cmd.name in _OWN_OPTION_PARSERS:
        return
    args = cmd.args
    for w in args:
        if "%sh{" in w.text and not w.dynamic:
            # kakoune-style `%sh{CMD}` expansions run CMD in a shell
            for m in re.finditer(r"%sh\{([^{}]*)\}", w.text[:4000]):
                _escalate(cmd, _sub(w, m.group(1)), f"{cmd.name} %sh{{…}}", mark)
    for i, w in enumerate(args):
        t = w.text
        if t == "--":
            break
        if w.dynamic or not t.startswith("-") or len(t) < 2:
            continue
        key, eq, val = t.partition("=")
        given: Word | None = None
        if eq:
            given = _sub(w, val)
        elif i + 1 < len(args) and not args[i + 1].text.startswith("-"):
            given = args[i + 1]
        if given is None or given.start in done:
            continue
        if given.text.startswith("|") and len(given.text) > 1:
            _escalate(cmd, _sub(given, given.text[1:]), f"{cmd.name} {key} '|…'", mark)
        elif _CMDISH_OPTION.match(key.lower()) and " " in given.text.strip():
            _escalate(cmd, given, f"{cmd.name} {key}", mark)


_EXEC_VERBS = frozenset(names("exec exec-env"))


def exec_tail(cmd: Cmd, mark: int) -> None:
    """`cabal exec -- CMD`, `stack exec -- CMD`, `opam exec -- CMD`, `incus exec c1 -- CMD`:
    a tool whose `exec` verb runs the command after `--` (in its environment, an instance or
    a container of this machine). The tail is judged; what is dangerous or worse is kept."""
    args = cmd.args
    if not args or args[0].text not in _EXEC_VERBS or cmd.name in _TEXT_PROGRAMS:
        return
    if cmd.name == "exec" or cmd.name in _EXEC_VERBS:
        return  # `exec exec …`: the shell's own exec is judged by its handler
    dash = next((i for i, w in enumerate(args) if w.text == "--"), None)
    if dash is None:
        # `pyenv exec rm -rf ~`: the first word after the verb's options starts the command
        dash = 0
        while dash + 1 < len(args) and args[dash + 1].text.startswith("-"):
            dash += 1
    if dash + 1 >= len(args):
        return
    tail = list(args[dash + 1 :])
    probe_mark = len(cmd.scope.findings)
    cmd.judge(tail, cmd.stdin)
    new = cmd.scope.findings[probe_mark:]
    level = max((f.level for f in new), default=S)
    seen = {(f.rule, f.start, f.end) for f in cmd.scope.findings[mark:probe_mark]}
    del cmd.scope.findings[probe_mark:]
    if level >= D:
        cmd.scope.include([f for f in new if (f.rule, f.start, f.end) not in seen])


# Options that hand an unknown program its code (`-e CODE`, `--eval CODE`, `eval CODE`).
_CODE_OPTIONS = (
    "-e -c -x -E --eval --execute --exec --code --command -eval -exec --expr --batch-string"
    " --run-string -r --script-string -code -run -command -execute"
)
_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_COLON_CODE = re.compile(r"(?s)^--?(?:e|eval|exec|execute|expr|code|batch-string):(.+)$")
_OPAQUE_CALL = re.compile(
    r"(?i)\b(?:system|exec\w*|spawn\w*|popen|shell\w*|run_?command|callcommand|callprocess"
    r"|process\.(?:run|start|system)|runtime\.getruntime|rm_?rf\w*|rmtree|removedir\w*"
    r"|rmdir\w*|remove_?all|delete_?(?:tree|recursive\w*|directory)|unlink\w*)\s*[(\s\"'`!]"
)


def _may_hand_code(cmd: Cmd) -> bool:
    """Whether `program_code` can find code in the arguments (one pass; False only when
    none of `opt_values(_CODE_OPTIONS)`, `_COLON_CODE` or an `eval`-like verb can match)."""
    if cmd.name == "socket":
        return True
    wanted, shorts, _longs, _dashed = _option_spec(_CODE_OPTIONS)
    for t in cmd.argv.texts:
        if t in wanted or t in ("e", "eval", "exec", "run"):
            return True
        if t[:1] == "-" and ("=" in t or ":" in t or (t[:2] in shorts and len(t) > 2)):
            return True
    return False


def program_code(cmd: Cmd, known: bool, mark: int) -> None:
    """Code an interpreter gets where the program's own handler does not look: `-f
    /dev/stdin` (or `-`) with a here-string is the program; an unknown program's `-e CODE`,
    `eval CODE` or code on standard input is read by shape (`loose_shell_strings`)."""
    stdin_code = cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC and cmd.stdin.text else None
    if stdin_code is None and (
        known
        or (
            not cmd.argv.dashed
            and (not cmd.args or cmd.args[0].text not in ("e", "eval", "exec", "run"))
        )
    ):
        return  # (no code on stdin, in an option or after an `eval`-like verb)
    where = Word(stdin_code or "", cmd.start, cmd.end)
    if stdin_code is not None:
        lang = inline.language_of(cmd.name)
        for w in cmd.args:
            key, eq, val = w.text.partition("=")
            nxt = cmd.args[cmd.args.index(w) + 1] if w is not cmd.args[-1] else None
            value = val if eq else (nxt.text if nxt is not None and key.startswith("-") else "")
            if (key.startswith("-") and value in _STDIN_FILES and value != "-") or (
                key in ("-f", "--file", "-s", "--script") and value == "-"
            ):
                # `awk -f /dev/stdin`, `pandoc --lua-filter=/dev/stdin`: stdin is the program
                code_lang = "lua" if "lua" in key else lang
                found = inline.code_findings(
                    cmd.scope, stdin_code, where, code_lang, f"{cmd.name} program"
                )
                cmd.scope.include(found)
                return
    if not known and stdin_code is not None:
        # `kdbsh <<< '!mkfs.ext4 /dev/sdb'`: a REPL's `!` escape runs the rest of the line
        # in a shell (ed, ftp, gdb, sqlite-style tools and their unknown kin).
        for line in re.findall(r"(?m)^[ \t]*!(?!=)[ \t]*(\S[^\n]*)$", stdin_code[:8192])[:8]:
            _escalate(cmd, Word(line, where.start, where.end), f"{cmd.name} `!` line", mark)
    if known or (stdin_code is None and not _may_hand_code(cmd)):
        return
    # (the code first: most commands hand none, and then the output option is not looked for)
    codes: list[Word] = [v for _o, v in opt_values(cmd, _CODE_OPTIONS)]
    for w in cmd.args:
        m = _COLON_CODE.match(w.text)
        if m is not None:  # nim's `--eval:CODE`, `-e:CODE`
            codes.append(_sub(w, m.group(1)))
    ops = cmd.operands()
    if ops and ops[0].text in ("e", "eval", "exec", "run") and len(ops) > 1 and not codes:
        codes.append(ops[1])
    if stdin_code is not None and (not ops or ops[0].text in _STDIN_FILES):
        codes.append(where)
    if not codes or cmd.option_value("-o", "--output") is not None:
        return  # a compiler given code and an output file builds it, it does not run it
    for code in codes:
        if code.dynamic:
            continue
        what = f"{cmd.name} code"
        found = inline.code_findings(cmd.scope, code.text, code, "generic", what)
        lisp = inline.lisp_as_calls(code.text)
        if lisp is not None and not any(f.level >= D for f in found):
            # `hy -c '(shutil.rmtree "/etc")'`: a Lisp's forms read as calls.
            found = inline.code_findings(cmd.scope, lisp, code, "generic", what)
        found = [f for f in found if f.level >= D]
        if found:
            seen = {(f.rule, f.start, f.end) for f in cmd.scope.findings[mark:]}
            cmd.scope.include([f for f in found if (f.rule, f.start, f.end) not in seen])
        elif _OPAQUE_CALL.search(code.text) or (lisp is not None and _OPAQUE_CALL.search(lisp)):
            # an interpreter nobody here reads, told to run programs or delete files in a
            # way the shape reader could not follow: not proof of safety
            cmd.add(
                C,
                "code-unreadable",
                f"{what} runs programs or deletes files in a way the analyser cannot follow",
                code,
            )


def _findmnt_filtered(texts: list[str]) -> bool:
    """findmnt narrowed to some mounts: a source/target operand, `-t TYPE`, `-O OPTS`,
    `-S`/`-T`/`-N` (glued flags such as `-rno TARGET` take their value next)."""
    skip = False
    for t in texts:
        if skip:
            skip = False
            continue
        if re.fullmatch(r"-[a-zA-Z]*[tOSTNMF]", t) or t.startswith(
            ("--types", "--options", "--source", "--target", "--mountpoint", "--task")
        ):
            return True
        if re.fullmatch(r"-[a-zA-Z]*[ow]", t) or t in ("--output", "--poll", "--timeout"):
            skip = True
        elif not t.startswith("-"):
            return True
    return False


# --- read-only queries of disks, modules and hardware (safety-p5) -----------------------


@handles("findmnt", "modinfo", "dmidecode", "kmod", "smartctl", "blockdev", "lsscsi", "lshw")
def _hardware_queries(cmd: Cmd) -> None:
    """Read-only queries are safe (`findmnt`, `modinfo e1000e`, `smartctl -H /dev/sda`,
    `blockdev --getsize64 /dev/sda`, `kmod list`); their changing verbs and options are not:
    `kmod insert|remove` are `insmod`/`rmmod`, `smartctl -s/-t/-S` change or test the drive,
    `blockdev --set*/--flushbufs/--rereadpt` change the device."""
    n = cmd.name
    texts = cmd.texts()
    if n == "findmnt" and not _findmnt_filtered(texts):
        # Every mount point, `/` among them: a loop over them acts on the root (m7).
        cmd.info.paths = (Word("/", cmd.start, cmd.end),)
    if n == "kmod":
        ops = cmd.operands()
        verb = ops[0].text if ops else ""
        if verb in ("insert", "remove"):
            head = Word("insmod" if verb == "insert" else "rmmod", cmd.start, cmd.end)
            cmd.judge([head, *cmd.args[cmd.args.index(ops[0]) + 1 :]], cmd.stdin)
        return
    if n == "smartctl" and any(
        t in ("-s", "--smart", "-t", "--test", "-S", "--saveauto", "-o", "--offlineauto", "-X")
        or t.startswith(("--set", "--smart=", "--test=", "-t", "-s"))
        for t in texts
    ):
        cmd.add(M, "disk", "smartctl changes a drive's settings or runs a self-test")
    elif n == "blockdev" and any(
        t.startswith(("--set", "--flushbufs", "--rereadpt")) for t in texts
    ):
        cmd.add(M, "disk", "blockdev changes a block device's settings")


@handles("udevadm")
def _udevadm(cmd: Cmd) -> None:
    """udevadm: `info`, `monitor`, `settle`, `test`, `test-builtin`, `verify`, `cat` only read
    device data (safe); `trigger`, `control`, `hwdb --update` change the running system."""
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    sub = ops[0] if ops else ""
    if sub in ("info", "monitor", "settle", "test", "test-builtin", "verify", "cat", "wait", ""):
        return
    if sub == "hwdb" and not cmd.has("--update", "-u"):
        return
    cmd.add(M, "system-config", f"udevadm {sub} changes device handling")


@handles("pic", "gpic", "dpic")
def _pic(cmd: Cmd) -> None:
    """pic's `sh X command X` runs a shell command (with `-U`, GNU pic's unsafe mode;
    dpic always): each one in the picture read from stdin or given inline is judged."""
    texts = [cmd.stdin.text] if cmd.stdin.kind == STDIN_STATIC else []
    texts += [w.text for w in cmd.args if "\n" in w.text or w.text.startswith(".PS")]
    for text in texts:
        for m in re.finditer(r"(?m)^\s*sh\s+(\S)(.*?)\1", text[:20000]):
            _judge_embedded(cmd, Word(m.group(2).strip(), cmd.start, cmd.end), f"{cmd.name} sh")
    cmd.add(M, "runs-program", f"{cmd.name} draws a picture")


# Requests a file-system editor or an unknown tool is handed as one string (`debugfs -w -R
# 'rm /etc/shadow'`, `e2edit -R 'unlink /etc/gshadow'`): a delete verb and the path it acts on.
_REQUEST = re.compile(
    r"(?i)(?:^|[;\n]\s*)(rm|unlink|kill_file|del|delete|remove|rmdir|truncate|zap|clri|freei"
    r"|write|dump_unused|punch)\s+(?:-\w+\s+)*(/[^\s;'\"]*)[ \t]*(?=[;\n]|\Z)"
)


# Options whose value is prose (a message, a title, a comment), not a request.
_TEXT_OPTION = re.compile(
    r"^--?(?:m|t|message|msg|title|comment|body|description|desc|summary|note|subject|text)$"
)


def request_targets(cmd: Cmd) -> None:
    """A string argument that is a delete request for a path: judged like deleting that
    path (an account or boot file, a system folder: blocked)."""
    if " " not in cmd.argv.chars:
        return  # (no argument holds a blank: none is a request)
    from aintern_ls.safety.paths import classify_path, write_target

    for i, w in enumerate(cmd.args):
        if w.dynamic or " " not in w.text or len(w.text) > 4000:
            continue
        prev = cmd.args[i - 1].text.lower() if i else ""
        if not prev.startswith("-") or _TEXT_OPTION.match(prev):
            continue  # a request is handed by an option (`-R`, `--request`), not as text
        for m in _REQUEST.finditer(w.text):
            path = m.group(2)
            t = classify_path(path, cmd.scope.cwds, cmd.scope.family != "bash")
            wt = write_target(path, cmd.scope.cwds)
            level = max(t.level if t.rule != "scoped" else D, wt.level if wt else D)
            if level >= C:
                what = wt.what if wt is not None and wt.level >= t.level else t.what
                rule = t.rule if t.rule != "scoped" else (wt.rule if wt else "delete")
                cmd.add(level, rule, f"{cmd.name} is told to {m.group(1)} {what}", w)
                return


# (n19u) Accounts whose deletion breaks the system or removes every login: root (uid 0),
# Windows' built-in Administrator, and every account at once (a glob, or a loop over the
# account list).
_ROOT_ACCOUNTS = frozenset(("root", "0", "administrator"))
_EVERY_ACCOUNT = frozenset(("*", "/home", "/Users", "/home/*", "/Users/*"))


def _every_or_root_account(user: Word, cmd: Cmd) -> bool:
    """Blocked findings for deleting the root account or every account (True when added)."""
    text = user.text.strip("'\"")
    if not user.dynamic and text.lower() in _ROOT_ACCOUNTS:
        cmd.add(B, "user-delete", f"{cmd.name} deletes the {text} account", user)
        return True
    if (
        text in _EVERY_ACCOUNT
        or (user.glob and "*" in text)
        or text.startswith(("/Users/", "/home/"))
    ):
        cmd.add(B, "user-delete", f"{cmd.name} deletes every user account", user)
        return True
    return False


def account_listing(cmd: Cmd) -> None:
    """`getent passwd | cut -d: -f6`, `cut -d: -f6 /etc/passwd`, `awk -F: '{print $6}'
    /etc/passwd`: the home folder of every account, as paths a loop or `xargs` acts on
    (every home: `/home/*`)."""
    texts = [w.text for w in cmd.args if not w.dynamic]
    if cmd.name == "getent" and texts[:1] == ["passwd"] and len(texts) == 1:
        cmd.info.paths = (Word("/home/*", cmd.start, cmd.end),)
        return
    if cmd.name == "dscl" and any(t.lower() in ("-list", "list") for t in texts):
        # `dscl . -list /Users [NFSHomeDirectory]`: every account's name (and home folder)
        if any(t.lower() == "/users" for t in texts):
            homes = any(t.lower() == "nfshomedirectory" for t in texts)
            cmd.info.paths = (Word("/Users/*" if homes else "/Users", cmd.start, cmd.end),)
            cmd.info.names_only = not homes
        return
    reads = "/etc/passwd" in texts
    if (
        (reads or any(p.text == "/home/*" for p in cmd.stdin.paths))
        and (
            (cmd.name == "cut" and any(re.fullmatch(r"-f0*1|--fields=0*1", t) for t in texts))
            or (
                cmd.name in ("awk", "gawk", "mawk")
                and any(re.search(r"print \$1\b", t) for t in texts)
            )
        )
        and not any(re.search(r"[=!<>]=?\s*\d|~", t) for t in texts if cmd.name != "cut")
    ):
        # `cut -d: -f1 /etc/passwd`: every account's name, as `ls /home` lists them
        cmd.info.paths, cmd.info.names_only = (Word("/home", cmd.start, cmd.end),), True
        return
    if (
        cmd.name == "cut"
        and (reads or cmd.stdin.paths)
        and any(
            re.fullmatch(r"-f0*6|--fields=0*6", t)
            or (t == "-f" and i + 1 < len(texts) and texts[i + 1] == "6")
            for i, t in enumerate(texts)
        )
    ):
        if reads or any(p.text == "/home/*" for p in cmd.stdin.paths):
            cmd.info.paths = (Word("/home/*", cmd.start, cmd.end),)
    elif cmd.name in ("awk", "gawk", "mawk") and reads and any("$6" in t for t in texts):
        cmd.info.paths = (Word("/home/*", cmd.start, cmd.end),)


# --- (moved from families5.py, safety-f5) firmware flash tools ----------------------------


@handles(
    "flashrom",
    "flashprog",
    "flash_erase",
    "flash_eraseall",
    "flashcp",
    "mtd",
    "mtd_debug",
    "nandwrite",
    "ubiformat",
    "nanddump",
)
def _flash(cmd: Cmd) -> None:
    """Firmware flash tools: erasing the BIOS/UEFI or a router's flash chip, or writing an
    image over it, leaves a machine that may no longer boot (blocked, like a raw disk write:
    session 17); reading or probing it is a read."""
    texts = [t.lower() for t in cmd.texts()]
    n = "flashrom" if cmd.name == "flashprog" else cmd.name  # (flashprog: flashrom's fork)
    if n == "nanddump" or (n == "mtd_debug" and texts[:1] in (["info"], ["read"])):
        return  # (n17u) a dump into a file, the chip's geometry: reads
    if n in ("nandwrite", "ubiformat") and not any(is_dry_marker(t) for t in texts):
        cmd.add(B, "firmware-flash", f"{n} overwrites a flash chip: the machine may not boot")
        return
    if n in ("mtd", "mtd_debug"):
        # `mtd -r write fw.bin firmware`: options before the verb (safety-m8)
        texts = [t for t in texts if not t.startswith("-")] + [
            t for t in texts if t.startswith("-")
        ]
    erase = (
        n in ("flash_erase", "flash_eraseall")
        or (n in ("mtd", "mtd_debug") and texts[:1] == ["erase"])
        or (
            any(t in ("-e", "--erase") or re.fullmatch(r"-[a-z]*e[a-z]*", t) for t in texts)
            and n == "flashrom"
        )
    )
    if n == "mtd" and "-e" in texts:
        erase = True
    if erase:
        cmd.add(B, "wipe", f"{n} erases a firmware flash chip: the machine no longer boots")
        return
    write = (
        n == "flashcp"
        or (n in ("mtd", "mtd_debug") and texts[:1] == ["write"])
        or (
            n == "flashrom"
            and any(
                t in ("-w", "--write")
                or t.startswith("--write=")
                or re.fullmatch(r"-[a-z]*w[a-z]*", t)  # (n17u) bundled: `-Vw`, `-nw`
                for t in texts
            )
        )
    )
    if write:
        # (n17u) was critical; session 17 settles it blocked, like a raw disk write
        cmd.add(B, "firmware-flash", f"{n} overwrites the machine's firmware with an image")
        return
    if n == "flashrom" and any(
        t in ("-r", "--read", "-v", "--verify", "-l", "--list-supported", "-L") for t in texts
    ):
        return
    cmd.add(M, "system-config", f"{n} accesses the firmware flash chip")


# (n17u) Vendor BIOS flash tools: AMI's AFU (`afulnx_64 bios.rom /P /B /N`, `AFUWINx64 x.rom
# /P`), Intel's Flash Programming Tool (`fptw64 -f bios.bin -bios`), and fwupd's unsigned
# `install-blob`. Saving the image (`/O`, `-d`) is a read; the OS updater is moderate.
_AFU_WRITE = frozenset(names("/p /b /n /k /x /r /e /me /gan /capsule /recovery"))
_FPT_WRITE = frozenset(names("-f -rewrite -erase -c -greset -writeeeprom"))


@handles(
    "afulnx_64",
    "afulnx_32",
    "afulnx64",
    "afulnx",
    "afuwin",
    "afuwinx64",
    "afuwin64",
    "afuefi",
    "afuefix64",
    "afuefi64",
    "afudos",
    "fptw",
    "fptw64",
    "fpt",
    "fpt64",
    "fwupdtool",
    "fwupdmgr",
)
def _vendor_flash(cmd: Cmd) -> None:
    texts = [t.lower() for t in cmd.texts()]
    n = cmd.name
    if any(t in ("-h", "--help", "--version", "/h") for t in texts) or asks_help(
        n, cmd.args, cmd.scope.source, cmd.scope.family
    ):
        return
    if n.startswith("fwupd"):
        verb = next((t for t in texts if not t.startswith("-")), "")
        if verb == "install-blob":
            cmd.add(B, "firmware-flash", f"{n} install-blob flashes an unsigned firmware image")
        elif verb.startswith(("get-", "list", "search", "security", "hwids", "refresh")):
            return  # `fwupdmgr get-updates`: reads
        elif verb:
            cmd.add(M, "system-config", f"{n} {verb} installs vendor firmware updates")
        return
    if n.startswith("afu"):
        write = any(t in _AFU_WRITE or t.startswith("/gan") for t in texts) or (
            texts[:1] != [] and not texts[0].startswith(("/", "-")) and "/o" not in texts
        )
    else:
        write = any(t in _FPT_WRITE for t in texts)
    if any(t in ("/o", "-d", "-dump") for t in texts):
        return  # saving the current image into a file: a read
    if write:
        cmd.add(B, "firmware-flash", f"{n} writes an image over the machine's BIOS/UEFI flash")
    else:
        cmd.add(M, "system-config", f"{n} accesses the firmware flash chip")


_RMAN_DELETE = re.compile(
    r"\bDELETE\s+(?:(?:NOPROMPT|FORCE|NOEXCLUDE)\s+)*(EXPIRED\s+|OBSOLETE\b)?"
    r"(BACKUP(?:SET)?|COPY|ARCHIVELOG\s+ALL)?\b([^;\n]{0,200})",
    re.I,
)


@handles("rman")
def _rman(cmd: Cmd) -> None:
    """Oracle RMAN with its commands on stdin (a here-string, heredoc or pipe) or in `cmd`:
    `DELETE NOPROMPT BACKUP;` removes every backup (blocked, like pgBackRest's and Barman's
    delete-all verbs); `DELETE OBSOLETE`, a qualified delete (`… COMPLETED BEFORE …`) prune
    some (dangerous) (n17u, round 15)."""
    text = cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC else ""
    given = cmd.option_value("cmd", "CMD")
    if given is not None and not given.dynamic:
        text += "\n" + given.text
    if "delete" not in text.lower():
        cmd.add(M, "unknown-command", "rman runs recovery-manager commands")
        return
    worst = 0
    for m in _RMAN_DELETE.finditer(text[:20000]):
        what, qualifier = m.group(2), (m.group(3) or "").strip()
        if what and not m.group(1) and not qualifier:
            worst = 2
            break
        worst = max(worst, 1 if (what or m.group(1)) else 0)
    if worst == 2:
        cmd.add(B, "delete-backups", "rman deletes every backup the catalog holds")
    elif worst == 1:
        cmd.add(D, "delete-backups", "rman deletes some backups (obsolete or older ones)")
    else:
        cmd.add(M, "unknown-command", "rman runs recovery-manager commands")


@handles("pvesm")
def _pvesm(cmd: Cmd) -> None:
    """Proxmox's storage manager (n17u): `pvesm free VOLID` deletes a volume; a backup
    volume (`local:backup/vzdump-qemu-100-….vma.zst`) is a backup deleted (blocked, round
    15); listing and status are reads; storage definitions are configuration."""
    ops = [t.lower() for t in cmd.texts() if not t.startswith("-")]
    verb = ops[0] if ops else ""
    if verb in ("list", "status", "scan", "path", "help", "apiinfo", "extractconfig"):
        return
    if verb == "free":
        vol = next((w for w in cmd.args[1:] if not w.text.startswith("-")), None)
        if vol is not None and ("backup/" in vol.text.lower() or "vzdump" in vol.text.lower()):
            cmd.add(B, "delete-backups", f"pvesm free deletes the backup {vol.text}", vol)
        else:
            cmd.add(D, "delete", "pvesm free deletes a storage volume (a VM disk)")
        return
    cmd.add(M, "system-config", f"pvesm {verb} changes the storage configuration")


# --- attack tools, attack simulators ---------------------------------------------------------
# (moved here from the session-6 `atomics.py`, beside the security products and agents above)

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
_SCRIPT_RUNNERS = re.compile(
    r"(?i)^(?:python[\d.]*|pypy[\d.]*|perl|ruby|php[\d.]*|node|bun|deno|java|wine|mono|dotnet"
    r"|powershell(?:\.exe)?|pwsh(?:\.exe)?|cscript(?:\.exe)?|wscript(?:\.exe)?|bash|sh|zsh"
    r"|import-module|ipmo|\.|source|invoke-expression|iex|start-process|saps|start"
    r"|rundll32(?:\.exe)?|regsvr32(?:\.exe)?|execute-assembly|uv|pipx|poetry)$"
)


def base_name(text: str) -> str:
    """The last path component (after `/` or `\\`), quotes and trailing separators off."""
    return _base_name(text)


@lru_cache(maxsize=4096)
def _attack_name(name: str) -> bool:
    """An attack tool's or AV killer's name (the same few program names recur in a text:
    one lookup each, not two large alternations per command)."""
    return bool(_OFFENSIVE.match(name) or _AV_KILLER.match(name))


@lru_cache(maxsize=4096)
def _script_runner_name(name: str) -> bool:
    return bool(_SCRIPT_RUNNERS.match(name))


def attack_tool(cmd: Cmd) -> bool:
    """Well-known credential-dumping and post-exploitation tools and AV/EDR killers, run by
    name, by path, or as the script an interpreter runs (`python2 laZagne.py all`,
    `.\\mimikatz.exe …`, `Invoke-Mimikatz`): what they do is known from their name,
    whatever their arguments."""
    if cmd.words[0].dynamic:
        return False
    head = cmd.argv.base
    hits = [cmd.words[0]] if _attack_name(head) else []
    if not hits and (_script_runner_name(head) or _script_runner_name(cmd.name)):
        hits = [
            w
            for w in cmd.args
            if not w.dynamic
            and not w.text.startswith("-")
            and (_OFFENSIVE.match(base_name(w.text)) or _AV_KILLER.match(base_name(w.text)))
        ][:1]
    if not hits:
        return False
    if _AV_KILLER.match(base_name(hits[0].text)):
        cmd.add(
            C, "disable-security", f"{base_name(hits[0].text)} turns antivirus/EDR off", hits[0]
        )
        return True
    cmd.add(
        C,
        "credential-tool",
        f"{base_name(hits[0].text)} is a credential-dumping or attack tool",
        hits[0],
    )
    return True


def attack_simulation(cmd: Cmd) -> bool:
    """Attack simulators told to carry a technique out for real: Stratus Red Team's
    `detonate` (against a live cloud account), Atomic Red Team's `Invoke-AtomicTest` (runs
    the tests, unless it only shows or checks them)."""
    name = cmd.argv.base_low if not cmd.words[0].dynamic else ""
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


# --- the clock, shell history, privilege, boot-time services ---------------------------------

# `date MMDDhhmm[[CC]YY][.ss]` (GNU and BSD), `date 2019-01-01` (busybox, cmd).
_CLOCK_VALUE = re.compile(
    r"^(?:\d{8}(?:\d{2}|\d{4})?(?:\.\d{2})?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4})$"
)


_CLOCK_PROGRAMS = frozenset(names("date time timedatectl hwclock set-date"))


def clock_set(cmd: Cmd) -> bool:
    """Setting the system clock (`date 010100001971`, `date -s`, `timedatectl set-time`,
    `Set-Date`, cmd's `date 01-01-70`): timestomping by moving the clock, and everything
    that trusts time (TLS, Kerberos, logs, schedules) with it."""
    n = cmd.name.lower()
    if n not in _CLOCK_PROGRAMS:
        return False  # (the name first: most commands set no clock)
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


def history_off(cmd: Cmd) -> None:
    """`set +o history`: this shell stops recording what it runs (bash)."""
    if cmd.name != "set":
        return
    texts = cmd.texts()
    if any(a == "+o" and b == "history" for a, b in itertools.pairwise(texts)):
        cmd.add(M, "history", "turns off shell history for this session")


def capsh_root(cmd: Cmd, name: str, low: list[str]) -> bool:
    """`capsh --uid=0` / `--user=root`: the shell it starts runs as root."""
    if name == "capsh" and any(
        t in ("--uid=0", "--user=root", "--gid=0") or t.startswith("--user=root") for t in low
    ):
        cmd.add(C, "privilege", "capsh starts its shell as root")
        return True
    return False


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
    sets = [t for t in cmd.texts() if "=" in t and not t.startswith("-")]
    if not sets and not cmd.short("x"):
        return  # `sysrc sshd_enable`, `sysrc -a`: print values
    for t in sets:
        key, _, value = t.partition("=")
        service = re.sub(r"_(enable|flags)$", "", key.rstrip("+-"))
        off = value.strip("'\"").lower() in ("no", "false", "off", "0")
        if key.endswith("_enable") and off and security_name(service):
            cmd.add(C, "disable-security", f"sysrc turns off {service} at boot")
            return
        if key.endswith("_enable") and not off:
            cmd.add(C, "persistence", f"sysrc makes {service} start at every boot")
            return
    cmd.add(M, "system-config", "sysrc changes /etc/rc.conf")


@handles("kldstat")
def _kldstat(cmd: Cmd) -> None:
    """FreeBSD `kldstat` prints the loaded kernel modules (like `lsmod`)."""


# --- remote-access agents and tunnels installed as services; admin accounts by app CLIs ----
# (safety-m7, Round 7) RMM agents, remote desktops and tunnel clients are how intruders keep
# access: told to install themselves as a service, to start with Windows, or given an
# unattended-access password, they are persistence (critical) whatever the program.
_ADMIN_ROLE = re.compile(
    r"(?i)\A--?role=?(?:administrator|admin|superuser|super_admin|superadmin|owner|root)\Z"
)


_INSTALL_WORDS = frozenset({"install", "create", "administrator"})


def remote_access_install(cmd: Cmd) -> bool:
    """`rustdesk.exe --install-service`, `cloudflared service install TOKEN`, `AnyDesk.exe
    --install DIR --start-with-win`, `echo PW | anydesk --set-password`: persistence;
    `wp user create … --role=administrator`: an admin account; `wp plugin install URL
    --activate`: code from the network installed and run. True when a finding was added."""
    name = cmd.name.lower()
    remote_tool = remote.remote_tool(name)
    if not remote_tool and not cmd.argv.switched and cmd.argv.lowset.isdisjoint(_INSTALL_WORDS):
        return False  # (every test below needs an option, one of these words or the tool)
    texts = cmd.texts()
    low = [t.lower() for t in texts]
    # (h19) `service create` is a service of the remote tool's own; another program's
    # `service create` makes a resource of its own kind (`kn service create web --image …`:
    # a Knative service), not a start-up service of this machine.
    installs = any(remote.SERVICE_INSTALL_OPT.match(t) for t in texts) or any(
        (
            a in ("service", "svc", "--service")
            and (b == "install" or (b == "create" and remote_tool))
        )
        or (a == "install" and b in ("service", "--service"))
        for a, b in itertools.pairwise(low)
    )
    if remote_tool and not installs:
        installs = any(
            t in ("install", "-install", "--install", "/install", "-i", "fullinstall") for t in low
        ) or ("-m" in low and "install" in low)
    if installs:
        cmd.add(
            C,
            "persistence",
            f"{cmd.name} installs itself to run at start-up (remote access that stays)",
        )
        return True
    # `wp user list --role=administrator` only lists the administrators.
    lists = any(
        t in ("list", "ls", "get", "show", "search", "count") or t.endswith((":list", ":get"))
        for t in low
    )
    if not lists and (
        any(_ADMIN_ROLE.match(t) for t in texts)
        or (
            "administrator" in low
            and any(re.search(r"role[:_-]?add|add-?role|set-?role", t) for t in low)
        )
    ):
        cmd.add(C, "account", f"{cmd.name} creates or promotes an administrator account")
        return True
    if (
        "install" in low
        and any(re.match(r"(?i)https?://", t) for t in texts)
        and any(t in ("plugin", "theme", "extension", "module", "addon", "pm:install") for t in low)
    ):
        cmd.add(C, "remote-code", f"{cmd.name} installs a plugin from the network (its code runs)")
        return True
    return False


# --- administrator accounts made by application CLIs (safety-m8) ----------------------------
# A verb that creates or changes an account, a role or a user's tags…
_ACCOUNT_VERB = re.compile(
    r"(?i)\A(?:(?:add|create|new|set|grant|promote|make|invite|update|assign|change|edit)"
    r"(?:[-_:]?(?:users?|roles?|members?|tags|user[-_]?tags|perms?|permissions?|accounts?"
    r"|groups?))?|(?:users?|roles?|members?|accounts?)[-_:](?:add|create|new|set|grant|promote"
    r"|update|assign|role[-_:]?add|add[-_:]?role)|useradd|adduser|createuser|mkuser)\Z"
)
# …and an administrator role, tag or switch named as a word of its own.
_ADMIN_WORD = re.compile(
    r"(?i)\A(?:administrators?|admins?|superusers?|super[-_]?admins?|sysadmins?|site[-_]?admin"
    r"|--?(?:admin|superuser|super|is[-_]?admin|is[-_]?superuser|sysadmin|site[-_]?admin)"
    r"(?:=(?:true|1|yes|on))?"
    r"|--?(?:role|roles|tags?|groups?|level|type)[=:](?:administrator|admin|superuser|super[-_]?admin"
    r"|sysadmin|owner|root))\Z"
)
_ADMIN_SELF = re.compile(
    r"(?i)\A(?:create[-_]?super[-_]?user|create[-_]?admin(?:[-_]?user)?|make[-_]?admin"
    r"|add[-_]?admin|promote[-_]?(?:to[-_]?)?admin|(?:user|users)[-_:]make[-_]?admin)\Z"
)
_LISTING_VERB = re.compile(
    r"(?i)\A(?:list|ls|get|show|search|count|info|describe|status|whoami|check|find|export"
    r"|[\w-]*:(?:list|get|info|information))\Z"
)

# (what `_ADMIN_SELF` and `_ADMIN_WORD` need somewhere in the arguments, found in one search)
_ADMIN_HINT = re.compile(r"(?i)admin|super|owner|root")


def _admin_hint(cmd: Cmd) -> bool:
    """`_ADMIN_HINT` in any argument (plain substring tests of the lower-cased arguments when
    they are ASCII: `re.I` folds some other letters onto these)."""
    low = cmd.argv.joined_low
    if low.isascii():
        return "admin" in low or "super" in low or "owner" in low or "root" in low
    return _ADMIN_HINT.search(" ".join(cmd.argv.texts)) is not None


def app_admin_account(cmd: Cmd) -> bool:
    """`rabbitmqctl set_user_tags ops administrator`, `manage.py createsuperuser`,
    `createuser -s ops`, `gitlab-rake "gitlab:…"`-style `user create --admin`, `grafana-cli
    admin …`: an application's own administrator account created or promoted, by any CLI
    (the verb and the role are words of their own). Like an OS administrator: critical.
    Listings (`list_users`, `user list --role=admin`) stay reads. True when judged."""
    if cmd.name.lower() not in ("createuser", "createuser.exe") and not _admin_hint(cmd):
        return False  # (every role, switch and verb below holds one of these words)
    texts = [t for t in cmd.texts() if t]
    if not texts:
        return False
    if any(_LISTING_VERB.match(t) for t in texts[:3]) or any(
        _LISTING_VERB.match(t.split("_")[0]) for t in texts[:1]
    ):
        return False
    name = cmd.name.lower()
    hit: str | None = next((t for t in texts if _ADMIN_SELF.match(t)), None)
    if (
        hit is None
        and name in ("createuser", "createuser.exe")
        and any(t == "--superuser" or re.fullmatch(r"-[a-zA-Z]*s[a-zA-Z]*", t) for t in texts)
    ):
        hit = "--superuser"  # PostgreSQL's createuser -s
    if hit is None:
        verb = any(_ACCOUNT_VERB.match(t) for t in texts[:4]) or any(
            _ACCOUNT_VERB.match(f"{a}-{b}") for a, b in itertools.pairwise(texts[:4])
        )
        if verb or name in ("useradd", "adduser", "createuser"):
            hit = next((t for t in texts if _ADMIN_WORD.match(t)), None)
    if hit is None:
        return False
    if _SETUP_SUPERUSER.match(hit) and not _remote_or_production(cmd, texts):
        # `python manage.py createsuperuser`, `createuser -s alice`: the first step of every
        # local development setup (the person at the keyboard makes their own admin login)
        cmd.add(
            D,
            "account",
            f"{cmd.name} creates a superuser account ({hit}); critical on a remote or"
            " production database",
        )
        return True
    cmd.add(C, "account", f"{cmd.name} creates or promotes an administrator account ({hit})")
    return True


# The superuser every local setup creates first (Django's `createsuperuser`, PostgreSQL's
# `createuser -s`), as `app_admin_account` names it: dangerous on a developer's own
# database, critical with a sign of a remote or production one (`_remote_or_production`).
_SETUP_SUPERUSER = re.compile(r"(?i)\A(?:create[-_]?super[-_]?user|--superuser)\Z")
# A production word in a setting, a database, a host or a variable (`--settings=app.prod`,
# `DJANGO_SETTINGS_MODULE=site.settings.production`, `-h db.prod.internal`).
_PRODUCTION = re.compile(r"(?i)(?<![a-z])(?:prod|production|live|prd)(?![a-z])")
# Options whose value is the database server.
_HOST_OPTION = re.compile(r"(?i)\A(?:-h|--host|-H|--hostname|--server|--database-url|--db-url)\Z")
_HOST_INLINE = re.compile(
    r"(?i)\A(?:--host|--hostname|--server|--database-url|--db-url|-h)=?(.+)\Z"
)
_LOCAL_HOST = re.compile(
    r"(?i)\A(?:localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|0\.0\.0\.0|/\S*|db|postgres|database"
    r"|host\.docker\.internal)(?::\d+)?\Z"
)


def _remote_or_production(cmd: Cmd, texts: list[str]) -> bool:
    """A sign that an account command reaches a remote or production database: a production
    word in its arguments, its line's variables or the variables it inherits, or a
    database host that is not this machine (or a development container's service)."""
    src = cmd.scope.source
    line = src[src.rfind("\n", 0, cmd.start) + 1 : cmd.end] if cmd.end <= len(src) else ""
    if any(_PRODUCTION.search(t) for t in texts) or _PRODUCTION.search(line):
        return True
    if any(_PRODUCTION.search(v) for k, v in cmd.scope.env.items() if not k.isdigit()):
        return True
    for i, t in enumerate(texts):
        value = texts[i + 1] if _HOST_OPTION.match(t) and i + 1 < len(texts) else None
        if value is None and (m := _HOST_INLINE.match(t)) and not _HOST_OPTION.match(t):
            value = m.group(1)
        if value is not None:
            host = re.sub(r"\A\w+://(?:[^@/]*@)?", "", value).split("/", 1)[0]
            if host and not _LOCAL_HOST.match(host):
                return True
    return False


# --- removals declared in a configuration tool's own language (safety-m8) --------------------
# `ansible all -m file -a "path=/etc state=absent"`, `salt-call state.single file.absent
# name=/usr`, `salt '*' file.remove /home`, `chef-apply -e 'directory "/boot" do recursive
# true; action :delete end'`, `pyinfra @local files.directory path=/srv present=False`: the
# tool deletes PATH (recursively for a directory): judged as `rm -rf PATH`.
_DECLARED = re.compile(
    r"(?i)\bfile\.(?:absent|remove|rmdir|delete)\b[\s,(]+(?:name\s*=\s*)?[\"']?(?P<a>[^\s\"',)]+)"
    r"|\b(?:directory|file|link|remote_directory)\s*\(?\s*[\"'](?P<b>[^\"']+)[\"']\s*\)?\s*(?:do|\{)"
    r"[^}]{0,400}?action\s*:?\s*(?:delete|remove)\b"
)
_STATE_ABSENT = re.compile(r"(?i)\bstate\s*[=:]\s*[\"']?absent\b|\bpresent\s*=\s*false\b")
_PATH_KEY = re.compile(r"(?i)\b(?:path|name|dest|dir|target)\s*[=:]\s*[\"']?(?P<p>[^\s\"',}]+)")


def declared_removals(cmd: Cmd) -> bool:
    """A configuration-management or orchestration tool told, in its own argument language,
    to remove a path: judged as `rm -rf PATH` (a system path is blocked). True if judged."""
    text = " ".join(w.text for w in cmd.args if not w.dynamic)
    low = text.lower()
    if (
        "absent" not in low
        and "delete" not in low
        and "remove" not in low
        and "rmdir" not in low
        and "present" not in low
    ):
        return False
    paths: list[str] = []
    for m in _DECLARED.finditer(text):
        paths.append(m.group("a") or m.group("b") or "")
    if _STATE_ABSENT.search(text):
        paths += [m.group("p") for m in _PATH_KEY.finditer(text)]
    paths = [p for p in paths if p.startswith(("/", "~", "$HOME", "C:", "c:"))]
    if not paths:
        return False
    for p in paths[:4]:
        cmd.judge(
            [
                Word("rm", cmd.start, cmd.end),
                Word("-rf", cmd.start, cmd.end),
                Word(p, cmd.start, cmd.end),
            ]
        )
    return True


# --- Windows services set to start at boot, remote-login servers added (safety-m8) ----------
_AUTO_START = re.compile(
    r"(?i)\bstart=\s*(?:auto|delayed-auto|boot|system)\b"
    r"|-startuptype\s*:?\s*['\"]?(?:automatic|automaticdelayedstart|boot|system)\b"
)
_REMOTE_LOGIN_FEATURE = re.compile(
    r"(?i)openssh\.server|telnet-?server|telnetserver|\bsshd\b|remoteserveradministrationtools"
)
WINDOWS_SERVICE_TOOLS = frozenset(
    names(
        """sc sc.exe set-service add-windowscapability dism dism.exe
        enable-windowsoptionalfeature"""
    )
)


def windows_service_start(cmd: Cmd) -> bool:
    """`sc config TermService start= auto`, `Set-Service sshd -StartupType Automatic`: a
    service made to start at every boot (persistence, like `systemctl enable`);
    `Add-WindowsCapability -Online -Name OpenSSH.Server…`, `dism /online /add-capability
    /capabilityname:OpenSSH.Server…`: a remote-login server added: critical."""
    text = " ".join(w.text for w in cmd.args if not w.dynamic)
    if cmd.name in ("sc", "sc.exe", "set-service") and re.search(
        r"(?i)\bstart=\s*disabled\b|-startuptype\s*:?\s*['\"]?disabled\b", text
    ):
        svc = next((w for w in cmd.args if BACKUP_SERVICE.match(w.text)), None)
        if svc is not None:
            cmd.add(C, "backup-off", f"{cmd.name} turns off the backup service {svc.text}", svc)
            return True
        return False
    if cmd.name in ("sc", "sc.exe", "set-service") and _AUTO_START.search(text):
        if cmd.name.startswith("sc") and not re.search(r"(?i)\A\s*(?:\\\\\S+\s+)?config\b", text):
            return False
        cmd.add(C, "persistence", f"{cmd.name} makes a service start at every boot")
        return True
    if cmd.name not in ("sc", "sc.exe", "set-service") and _REMOTE_LOGIN_FEATURE.search(text):
        if re.search(r"(?i)\bget-|/get-|\blist\b", text + " " + cmd.name):
            return False
        cmd.add(C, "remote-access", f"{cmd.name} adds a remote-login server to this machine")
        return True
    return False


# Services and timers that take the backups or shadow copies (safety-m8): turning one off
# (disabled, stopped, masked) means no new copy is kept: the ransomware step before encrypting.
def _backup_unit(unit: str) -> bool:
    """A service manager's unit that takes backups: `borgmatic.timer`, and launchd's labels
    and job files (`/System/Library/LaunchDaemons/com.apple.backupd.plist`, `system/
    com.apple.backupd-helper`: Time Machine's daemon) read by their last reverse-DNS part."""
    if BACKUP_SERVICE.match(unit):
        return True
    base = unit.rsplit("/", 1)[-1].removesuffix(".plist")
    if "." in base and any(BACKUP_SERVICE.match(p) for p in base.split(".")[1:]):
        return True
    return _BACKUP_AGENT.search(base) is not None


# Backup agents' launchd labels and unit names (Backblaze, CrashPlan/Code42, Arq, Carbon Copy
# Cloner, SuperDuper, IDrive, Carbonite, Time Machine's backupd).
_BACKUP_AGENT = re.compile(
    r"(?i)backblaze|bzserv|crashplan|code42|\barq(?:agent)?\b|com\.bombich|carboncopycloner"
    r"|superduper|idrive|carbonite|backupd|timemachine"
)


BACKUP_SERVICE = re.compile(
    r"(?i)\A['\"]?(?:wbengine|vss|swprv|sdrsvc|veeam\w*|backupexec\w*|bedbg|acronis\w*|mmsminisrv"
    r"|arcserve\w*|cbvscserv|commvault\w*|gxvss\w*|shadowprotect\w*|stc_raw_agent"
    r"|borgmatic\S*|restic\S*|timeshift\S*|snapper-\S+|zfs-auto-snapshot\S*|sanoid\S*"
    r"|bacula\S*|bareos\S*|duplicati\S*|urbackup\S*|rsnapshot\S*|backup\S*|\S*-backup\S*)['\"]?\Z"
)


def stdin_dash(cmd: Cmd) -> bool:
    """(f18) `gcc -x c -o w - <<'EOF'`, `rustc -o w - <<EOF`: the grammar reads a lone `-`
    just before a heredoc as part of the redirect, so it is not among the words; the source
    text after the last word says it was there (the compiler reads the heredoc)."""
    if cmd.stdin.kind != STDIN_STATIC or not cmd.words:
        return False
    last = cmd.words[-1]
    if last.end <= 0:
        return False
    tail = cmd.scope.source[last.end : last.end + 8]
    return re.match(r"[ \t]+-[ \t]*<", tail) is not None
