"""Remote access: remote-control/RMM agents, tunnel clients and reverse tunnels, as ONE
knowledge table and ONE judge (issue 14, safety-debt8).

Until session 10 three places said this, each with its own tool names and login ports:
reports.py (`_rmm`, `_tunnel`, `_tunnel_service`), detections.py (enrolment of
AnyDesk/TeamViewer/RustDesk/MeshAgent/ScreenConnect/SSM, `ssh -R` to a login port) and
system.py (`remote_access_install` for programs no handler knows). They now all read
`REMOTE_TOOLS`, `LOGIN_PORTS` and `ARMING` here.

What is judged (rule `remote-access`, critical, unless said otherwise):

- A remote-control/RMM agent (AnyDesk, ScreenConnect, Atera, MeshAgent … by its program name,
  or an installer whose name holds it) given an install/unattended/password/start-at-boot
  option or its own enrolment arguments: someone else controls the machine from then on.
  Its read-only modes (`--get-id`, `--version`) are safe; anything else it does is moderate.
- An RMM package installed silently by `msiexec`.
- A reverse tunnel (`ssh`/`plink`/`autossh`/`klink -R`) that exposes a login port or a SOCKS
  proxy to the far side.
- A tunnel service (`bore`, `zrok`, `devtunnel`, VS Code's `code tunnel` …) publishing a login
  port, open to anonymous users, or installed as a service; another published port is
  moderate (`network`); status/list/version are safe.

A row of `REMOTE_TOOLS` is `(what, kind, names, arming)`: `kind` is one of `KINDS`; `names` are
regex fragments of program names (lower case; a name ending in `!` counts only as the whole
program name, never inside a longer one, and is not judged by the RMM or tunnel rules
here, only by `system.remote_access_install` for programs no handler knows);
`arming` is a regex over the joined lower-cased arguments for the tool's own enrolment
spelling (beyond the generic `ARMING` options), or "".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import C, M
from aintern_ls.safety.registry import handles
from aintern_ls.safety.shape import ascii_folded
from aintern_ls.safety.words import names

KINDS = ("rmm", "tunnel", "terminal-share")

REMOTE_TOOLS: tuple[tuple[str, str, str, str], ...] = (
    ("AnyDesk", "rmm", "anydesk", r"--set-password|--register-license|--install\b"),
    ("RustDesk", "rmm", "rustdesk", r"--password\b|--config\b|--option\b"),
    (
        "TeamViewer",
        "rmm",
        r"teamviewer tv_w32 tv_x64",
        r"\bassign\b.*--api-token|--grant-easy-access|setup\b.*--api",
    ),
    (
        "ScreenConnect / ConnectWise Control",
        "rmm",
        r"screenconnect connectwise",
        r"(?=.*\bh=)(?=.*\bk=)",
    ),
    ("Splashtop", "rmm", r"splashtop srstreamer", ""),
    ("Atera", "rmm", r"atera ateraagent", ""),
    ("SimpleHelp", "rmm", r"simplehelp", ""),
    ("NetSupport Manager", "rmm", r"netsupport client32", ""),
    ("Ammyy Admin", "rmm", r"ammyy aa_v3", ""),
    ("MeshCentral agent", "rmm", r"meshagent", r"-install|-fullinstall|--installedby"),
    ("Tactical RMM", "rmm", r"tacticalrmm tacticalagent", ""),
    ("Remote Utilities", "rmm", r"remoteutilities rutserv rfusclient", ""),
    ("DWService", "rmm", r"dwagent dwservice", ""),
    ("LogMeIn / GoTo", "rmm", r"logmein gotoassist", ""),
    ("BeyondTrust / Bomgar", "rmm", r"bomgar beyondtrust", ""),
    ("Supremo", "rmm", r"supremo", ""),
    ("RemotePC", "rmm", r"remotepc", ""),
    ("Zoho Assist", "rmm", r"zohoassist", ""),
    ("UltraViewer", "rmm", r"ultraviewer", ""),
    ("Action1", "rmm", r"action1", ""),
    ("NinjaOne", "rmm", r"ninjarmm ninjaone", ""),
    ("Syncro", "rmm", r"syncro", ""),
    ("Kaseya", "rmm", r"kaseya", ""),
    ("PDQ Connect", "rmm", r"pdqconnect", ""),
    ("Level", "rmm", r"level-agent level!", ""),
    ("Getscreen", "rmm", r"getscreen", ""),
    ("FleetDeck", "rmm", r"fleetdeck", ""),
    ("NoMachine", "rmm", r"nomachine", ""),
    ("Radmin", "rmm", r"radmin", ""),
    ("DameWare", "rmm", r"dameware", ""),
    ("AeroAdmin", "rmm", r"aeroadmin!", ""),
    ("Pulseway", "rmm", r"pulseway\S*!", ""),
    ("NanoRMM", "rmm", r"nanorm\S*!", ""),
    ("RPort", "rmm", r"rport\S*!", ""),
    ("AWS Systems Manager agent", "rmm", r"amazon-ssm-agent", r"(?=.*-register)(?=.*-code)"),
    (
        "tunnel services",
        "tunnel",
        r"""bore zrok devtunnel lt localtunnel loophole loclx localxpose tunnelto expose frpc
        rathole inlets playit telebit tailscale pinggy tunnelmole""",
        "",
    ),
    (
        "tunnel clients with their own rules",
        "tunnel",
        r"ngrok! cloudflared! chisel! frps! ligolo\S*! zerotier-cli! localtonet!",
        "",
    ),
    ("terminals shared over the web", "terminal-share", r"tmate! sshx! gotty! ttyd!", ""),
)

# Ports of remote-login services (SSH, telnet, RPC, NetBIOS, SMB, RDP, VNC, WinRM): exposing
# one to another host opens the machine up.
LOGIN_PORTS = frozenset({"22", "23", "135", "139", "445", "3389", "5900", "5901", "5985", "5986"})

# (w21) the firewall rule groups of remote-login services (RDP, WinRM, SMB file sharing,
# remote administration, OpenSSH) as netsh/Set-NetFirewallRule/Enable-NetFirewallRule name
# them (display groups and their rules' names)
REMOTE_RULE_GROUPS = re.compile(
    r"remote\s*desktop|remote\s*management|\bwinrm|file\s+and\s+printer\s+sharing|\bfps-smb"
    r"|remote\s*administration|openssh|\bsshd\b"
    # (w22) the groups' resource ids, as netsh and `-Group` name them: Remote Desktop, File
    # and Printer Sharing, Windows Remote Management
    r"|firewallapi\.dll,-(?:28752|28502|30267)\b"
)


def opens_login_port(ports: str) -> bool:
    """(w21) Whether a port list (`3389`, `22,443`, `5985-5986`, `1-1024`) holds a
    remote-login port (SSH, RDP, SMB, WinRM, VNC, RPC, telnet: `remote.LOGIN_PORTS`)."""
    for part in ports.replace(" ", "").split(",")[:64]:
        lo, dash, hi = part.partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()) or len(lo) > 5 or len(hi) > 5:
            continue
        first, last = int(lo), int(hi) if dash else int(lo)
        if any(first <= int(p) <= last for p in LOGIN_PORTS):
            return True
    return False


# Options that arm a remote-control tool for unattended use or install it as a service.
ARMING_WORDS = frozenset(
    names(
        """
        --install -install /install --silent-install --silent --set-password --password
        --start-with-win /s /silent /verysilent /quiet /qn /qb /norestart -s --assign
        --unattended assignment prevercheck --grant-easy-access --config-id --token -pass
        --install-service -fullinstall passwd --passwd
        """
    )
)
# … and any other spelling of the same (`--autostart`, `/start_with_windows`,
# `--service-install`, `-unattended-password`: vendors spell these many ways).
ARMING = re.compile(
    r"(?i)^(?:--?|/)\S*(?:install|autostart|start.?with|service|unattend|silent|passw|token)"
)
# Options that install ANY program as a start-up service (`system.remote_access_install`
# judges them on programs no handler knows: persistence).
SERVICE_INSTALL_OPT = re.compile(
    r"(?i)\A(?:--?|/)(?:install-?service|installservice|fullinstall|service-?install"
    r"|start-?with-?win(?:dows)?|run-?at-?(?:startup|boot|logon|login)|autostart|auto-?start"
    r"|set-?password|unattended(?:-?access)?|silent-?install)(?:=\S*)?\Z"
)
# What only prints (an RMM agent's id or status, a tunnel tool's version or listing): every
# argument of an RMM agent (`anydesk --get-id`), a tunnel tool's first operand (`ngrok
# version`, `chisel --help`).
_READ_ONLY = frozenset(
    names(
        """
        --get-id --get-alias --get-status --version -version -v --help -h /? help version
        status info --status --info list
        """
    )
)


def _split(kind: str | None, mark: str | None) -> list[str]:
    """The name fragments of rows of `kind` (any when None) ending in `mark` ("" for none)."""
    out = []
    for _what, k, ns, _arming in REMOTE_TOOLS:
        if kind is not None and k != kind:
            continue
        for n in ns.split():
            end = "!" if n.endswith("!") else ""
            if mark is None or end == mark:
                out.append(n.rstrip("!"))
    return out


# Tunnel services the generic tunnel judge handles (their names are registered as known
# programs at import).
TUNNELS = frozenset(_split("tunnel", ""))
# RMM agents found at the start of a word of longer program names (installers:
# `AnyDesk_setup.exe`, `setup-rustdesk.exe`), and every
# remote tool by its whole program name (`system.remote_access_install`).
_RMM_SEARCH = _RMM_LOW = _WHOLE = re.compile("(?!)")


def rebuild() -> None:
    """Compile the matchers from `REMOTE_TOOLS` (at import; again after it changes)."""
    global _RMM_SEARCH, _RMM_LOW, _WHOLE
    # (starting a word: `AnyDesk_setup.exe`, `TeamViewerQS`, `ateraagent`; never inside one:
    # `lateral` is not Atera)
    _RMM_SEARCH = re.compile("(?i)(?<![a-z])(" + "|".join(_split("rmm", "")) + ")")
    _WHOLE = re.compile(r"(?i)\A(?:" + "|".join(_split(None, None)) + r")(?:\.exe)?\Z")
    # (an ASCII name is lowered and searched case-sensitively: the same answer, faster)
    _RMM_LOW = ascii_folded(_RMM_SEARCH) or _RMM_SEARCH
    remote_tool.cache_clear()


def rmm_in(text: str) -> bool:
    """Whether `text` (a program's file name, an installer package) holds an RMM agent's name."""
    if text.isascii():
        return bool(_RMM_LOW.search(text.lower()))
    return bool(_RMM_SEARCH.search(text))


@functools.lru_cache(maxsize=1024)
def remote_tool(name: str) -> bool:
    """Whether a program name is a remote-access tool of the table (its whole name, or an
    RMM agent's name inside it)."""
    return bool(_WHOLE.match(name)) or rmm_in(name)


rebuild()


def _tool_arming(name: str, low: list[str]) -> bool:
    """The tool's own enrolment spelling (`teamviewer assign --api-token …`)."""
    base = name.removesuffix(".exe")
    joined = " ".join(low)
    for _what, kind, ns, arming in REMOTE_TOOLS:
        if kind != "rmm" or not arming:
            continue
        if any(re.fullmatch(n.rstrip("!") + r"[\w.-]*", base) for n in ns.split()):
            return bool(re.search(arming, joined))
    return False


def rmm(cmd: Cmd, low: list[str], name: str) -> bool:
    """An RMM agent run by its own name: armed (critical), read-only (safe) or run (moderate).
    True when `name` is one."""
    if not rmm_in(name):
        return False
    flags = [t.split("=", 1)[0] for t in low]
    if (
        any(t in ARMING_WORDS or ARMING.match(t) for t in flags)
        or any(t == "service" for t in low[:1])
        or _tool_arming(name, low)
    ):
        cmd.add(C, "remote-access", f"{name} installs or arms a remote-control tool")
    elif low and all(t in _READ_ONLY for t in low):
        pass  # `anydesk --get-id`: prints the id
    else:
        cmd.add(M, "remote-access", f"{name} runs a remote-control tool")
    return True


def msiexec(cmd: Cmd, low: list[str]) -> None:
    """`msiexec /i AnyDesk.msi /qn`: an RMM package installed silently."""
    pkg = " ".join(t for t in low if not t.startswith("/"))
    if rmm_in(pkg) and any(t in ("/qn", "/quiet", "/q", "/qb", "/passive") for t in low):
        cmd.add(C, "remote-access", "msiexec silently installs a remote-control tool")


def _reverse_forward(value: str) -> bool:
    """An ssh/plink `-R` value that exposes a login port or a SOCKS proxy to the far side."""
    parts = value.strip("'\"").replace("[", "").replace("]", "").split(":")
    if len(parts) == 1 or (len(parts) == 2 and parts[1] == ""):
        return True  # `-R 1080`: a reverse SOCKS proxy into this network
    return parts[-1] in LOGIN_PORTS


# ssh's one-letter options that take a value (OpenSSH ssh(1)); in a cluster (`-fNR 2222:…`)
# the first of them takes the rest of the word, or the next word. plink and klink spell
# their options apart; the same reading of `-R` holds for them.
_SSH_VALUE_OPTS = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
# PuTTY plink's/klink's options of more than one letter that take a value.
_PLINK_VALUE_WORDS = frozenset(
    names("-pw -pwfile -hostkey -sercfg -proxycmd -sshlog -sshrawlog -loghost -cert -i -m")
)


def _reverse_values(texts: list[str]) -> Iterator[str]:
    """Every `-R` value of an ssh-like command line, however written: `-R v`, `-Rv` (any
    value joined to the flag: `-R*:8022:…`, `-Rlocalhost:…`, `-R[::]:…`), `-fNR v`, `-fNRv`."""
    i = 0
    operands = 0
    while i < len(texts):
        t = texts[i]
        i += 1
        if t == "--":
            return
        if len(t) < 2 or t[0] != "-":
            operands += 1
            if operands > 1:
                return  # after the destination (where options may still follow), the command
            continue  # run over there begins: `ssh h ls -R /` lists recursively
        if t[1] == "-":
            continue
        if t.lower() in _PLINK_VALUE_WORDS:
            i += 1  # `plink -pw SECRET …`: a value, not the destination
            continue
        for j in range(1, len(t)):
            c = t[j]
            if c not in _SSH_VALUE_OPTS:
                continue  # a flag without a value (`-f`, `-N`, `-T`)
            value = t[j + 1 :]
            if not value and i < len(texts):
                value = texts[i]
                i += 1
            if c == "R" and value:
                yield value
            break  # the rest of the word (or the next word) was this option's value


def reverse_tunnel(cmd: Cmd, name: str, low: list[str]) -> None:
    """`ssh -R 8080:localhost:3389 …`, `plink -R 1080 …`, `ssh -fNR 2222:localhost:22 …`."""
    texts = [w.text for w in cmd.args]
    if not any(t.startswith("-") for t in texts):
        return
    for value in _reverse_values(texts):
        if _reverse_forward(value.lower()):
            cmd.add(C, "remote-access", f"{name} -R opens a login port or proxy to another host")
            return


READ_ONLY_VERBS = _READ_ONLY  # (a21) ngrok's handler, in network, reads them


def login_port(low: list[str]) -> bool:
    """A remote-login port among a tunnel's arguments (`3389`, `localhost:22`, `-p 5900`)."""
    return any(part in LOGIN_PORTS for t in low for part in re.split(r"[:=,/]", t))


def tunnel_service(cmd: Cmd, name: str, low: list[str]) -> None:
    """VS Code remote tunnels (Stately Taurus), devtunnel, bore, zrok, tailscale ssh …: a
    tunnel to a remote-login port, open to anonymous users, or installed as a service is
    remote access (critical); another published port is moderate; status is safe."""
    ops = [t for t in low if not t.startswith("-")]
    if name == "code":
        if ops[:1] != ["tunnel"]:
            return
        rest = ops[1:2]
        if rest and rest[0] in ("status", "user", "help", "prune", "rename", "kill"):
            return
        if rest == ["service"] and ops[2:3] == ["install"]:
            cmd.add(
                C, "remote-access", "code tunnel installs a standing remote tunnel as a service"
            )
        else:
            cmd.add(C, "remote-access", "code tunnel lets another machine log in through VS Code")
        return
    if ops[:1] and ops[0] in ("status", "version", "help", "list", "show", "ls", "whoami"):
        return
    if low and all(t in ("--help", "-h", "--version", "-v", "-V") for t in low):
        return
    if (
        login_port(low)
        or "--allow-anonymous" in low
        or (name == "tailscale" and "--ssh" in low)
        or ops[:2] == ["service", "install"]
    ):
        cmd.add(C, "remote-access", f"{name} opens a remote-login port to other machines")
    else:
        cmd.add(M, "network", f"{name} publishes a local port through a tunnel")


REVERSE_TUNNELLERS = frozenset(names("ssh plink autossh klink"))


def judge(cmd: Cmd, name: str, low: list[str], head: str) -> None:
    """THE remote-access judge, for a command whose program is `name` (`head`: the command
    word's file name, lower-cased)."""
    if rmm(cmd, low, head):
        return
    if name in ("msiexec", "msiexec.exe"):
        msiexec(cmd, low)
    elif name in REVERSE_TUNNELLERS:
        reverse_tunnel(cmd, name, low)
    elif name in TUNNELS or name == "code":
        tunnel_service(cmd, name, low)


# --- programs made known here ---------------------------------------------------------------


# Terminal-sharing tools (n18u, session 18): each hands this machine's shell to whoever
# joins the session it opens through a relay; only their help/version/listing verbs print.
_SHELL_SHARERS = frozenset(names("upterm sshx tty-share teleconsole"))  # tmate: system.py
_SHARER_READ = frozenset(names("version help session list current ls"))


@handles(*_SHELL_SHARERS)
def shell_share(cmd: Cmd) -> None:
    texts = cmd.texts()
    ops = [t.lower() for t in texts if not t.startswith("-")]
    if any(t in _READ_ONLY for t in texts) or (ops and ops[0] in _SHARER_READ):
        return
    cmd.add(C, "remote-access", f"{cmd.name} shares this machine's shell with remote users")


@handles("chisel")
def _chisel(cmd: Cmd) -> None:
    ops = [t.lower() for t in cmd.texts() if not t.startswith("-")]
    if not ops or ops[0] in _READ_ONLY:
        return
    if ops[0] == "client" and any(o.startswith("r:") for o in ops[1:]):
        cmd.add(C, "remote-access", "chisel opens a reverse tunnel into this network")
    else:
        cmd.add(M, "network", "chisel tunnels traffic")


@handles("cloudflared")
def _cloudflared(cmd: Cmd) -> None:
    ops = [t.lower() for t in cmd.texts() if not t.startswith("-")]
    if not ops or ops[0] in _READ_ONLY or ops[:2] in (["tunnel", "list"], ["tunnel", "info"]):
        return
    url = cmd.option_value("--url")
    target = url.text.lower() if url is not None else ""
    scheme, _, rest = target.rpartition("://")
    port = rest.rsplit(":", 1)[-1].strip("/") if ":" in rest else ""
    if ops[:2] == ["service", "install"]:
        cmd.add(C, "remote-access", "cloudflared installs a standing tunnel as a service")
    elif scheme in ("ssh", "rdp", "smb", "vnc") or port in LOGIN_PORTS:
        # `cloudflared tunnel --url ssh://localhost:22`: a login port published (h17)
        cmd.add(C, "remote-access", "cloudflared exposes a remote-login port to the internet")
    else:
        cmd.add(M, "network", "cloudflared runs or changes a tunnel")


# Remote-management tools by their own program names (every plain name of an "rmm" row of
# `REMOTE_TOOLS`): known here, so their read-only modes (`anydesk --get-id`) are safe;
# `judge` rates installing or arming them.
@handles(*(n for n in _split("rmm", "") if re.fullmatch(r"[a-z0-9_-]+", n)))
def _rmm_program(cmd: Cmd) -> None:
    return None  # judged by `judge` (`rmm`), which `reports.judge` calls for every command


@handles(*TUNNELS)
def _tunnel_program(cmd: Cmd) -> None:
    return None  # judged by `judge` (`tunnel_service`), which `reports.judge` calls
