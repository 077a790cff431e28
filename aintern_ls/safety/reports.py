"""What real intrusions type: knowledge from incident/threat reports and LOL catalogues
(issue 14, safety-rep7) that fits no other module.

Incident write-ups (CISA #StopRansomware advisories, The DFIR Report, Sophos, Mandiant,
Unit42, Red Canary) and catalogues (LOLESXi, LOOBins, LOLRMM, WADComs) show the same few
moves again and again, each spelled with whatever program the victim had:

- **Security products turned off**: a stop/disable/kill/uninstall verb of any service
  manager, process killer or package manager aimed at an antivirus/EDR/monitoring agent
  or an OS protection (`sc config MBAMService start= disabled`, `apt-get purge
  falcon-sensor`, `systemctl mask apparmor`, `pkill AliYunDun`, a vendor's own uninstaller):
  critical, whatever the tool. The product is known by its service/process/package name.
- **Remote access opened**: remote-management tools installed unattended or given a
  password (AnyDesk `--install`/`--set-password`, RustDesk, TeamViewer, ScreenConnect,
  Atera, SimpleHelp, Splashtop … incl. their installers through msiexec), reverse tunnels
  that expose a remote-login port or a SOCKS proxy (`ssh -R …:3389`, `plink -R`,
  `chisel client … R:socks`, `ngrok tcp 3389`, `bore local 3389`, VS Code's `code
  tunnel`), tunnel services installed (`cloudflared service install`), SSH turned on on
  an ESXi host, the remote-desktop firewall group enabled: critical (a single firewall
  allow rule stays moderate, as the corpora settle it). Their read-only modes
  (`--get-id`, `version`, `tunnel list`, `status`) are safe.
- **Anti-forensics**: timestamps of system files copied from another file (`touch -r
  /etc/… /bin/x`, ESXiArgs, UNC3886): critical; removing the immutable flag from
  persistence and account files (`chattr -i /etc/ld.so.preload`, `chattr -iae
  /root/.ssh/authorized_keys`): critical, the step before rewriting them.
- **Credential stores copied**: the macOS keychain, browsers' saved-login and cookie
  databases, wallets (stealers stage them in /tmp before upload): critical, like `reg save
  HKLM\\SAM` (reading `/etc/shadow` stays as the corpora settle it). (A password dialog
  with a hidden answer, Atomic Stealer's phishing, is sig7's `credential-prompt`.)
- **ESXi**: `esxcli network firewall set --default-action true` passes all traffic;
  deleting the contents of a whole datastore (`rm -rf /vmfs/volumes/ds1/*`, `find
  /vmfs/volumes -name '*.vmdk' -exec rm`) destroys every VM on it: blocked; `vmkfstools`
  deletes or zeroes one virtual disk (dangerous) and only queries with `-P`;
  `/etc/init.d/<service> stop` stops a service (dangerous).

- **Identity and mail administration** (Octo Tempest, Midnight Blizzard): PowerShell
  cmdlets that grant roles, permissions, passwords, credentials or MFA methods
  (`Add-MsolRoleMember`, `New-ManagementRoleAssignment`, `New-AzRoleAssignment`,
  `New-MgUserAuthenticationPhoneMethod`): critical account changes; mail forwarded outside
  by rule or mailbox setting: critical exfiltration; a mailbox exported as a script into
  a web folder (ProxyShell) is a web shell.
- **Web frameworks' database resets**, what coding agents run (the Replit incident):
  `php artisan migrate:fresh`, `python manage.py flush`, Symfony's
  `doctrine:database:drop --force`, `flask db downgrade base`: dangerous, like
  `rails db:drop` (`--pretend` and `sqlflush` only print).
- **Every VM, snapshot, backup or volume**: a lister (`qm list`, `virsh list`,
  `VBoxManage list vms`, `zfs list -t snapshot`, `lvs`, `Get-VBRBackup`) feeding a loop,
  `xargs` or pipeline into the tool's destroyer deletes all of them: blocked (a `grep`
  that narrows the list makes it an ordinary delete: dangerous).
- **Root certificates trusted**: `certutil -addstore Root`, `Import-Certificate` into a
  Root store, a certificate copied into the system trust anchors, `trust anchor`: every
  TLS connection can then be intercepted (critical, as `security add-trusted-cert`).
- **System Restore turned off through WMI** (`wmic … SystemRestore call Disable`): no
  restore points from then on, like `Disable-ComputerRestore`: critical (a backup
  switch-off, the session-13 convention; deleting existing restore points is blocked).

`judge(cmd)` is called by the dispatcher for every simple command before its handler; the
handlers registered here make ngrok, chisel, cloudflared and ESXi's vmkfstools/vm-support
known (their read-only modes are safe), and the remote-control agents' own names (so
`anydesk --get-id`, `teamviewer --info` are safe; safety-m7's remote-access rule in
system.py judges the same tools' installs too).
"""

from __future__ import annotations

import re
from functools import lru_cache

from aintern_ls.safety import remote
from aintern_ls.safety.argv import base_name
from aintern_ls.safety.context import Cmd
from aintern_ls.safety.detections import CREDENTIAL_FILE, timestomp
from aintern_ls.safety.levels import B, C, D, M
from aintern_ls.safety.paths import write_target
from aintern_ls.safety.registry import handles, program_key
from aintern_ls.safety.security import security_name, security_word
from aintern_ls.safety.words import Word, names


# --- security products: the one table is `security.PRODUCTS` ------------------------------
def _base_low(text: str) -> str:
    """A word's last path component, lower-cased (`argv.base_name`)."""
    return base_name(text.strip()).lower()


_UNINSTALLER = re.compile(r"(?i)uninst|remove|cleanup|kill|disable")


# --- remote-management tools and tunnels: `remote.py` (one table, one judge) -------------


def _firewall_hole(cmd: Cmd, name: str, low: list[str]) -> None:
    """The firewall's remote-desktop/WinRM rule group switched on (like `netsh advfirewall
    firewall set rule group="remote desktop" new enable=Yes`). A single allow rule for a
    port stays moderate unless it is a remote-login port (w21: `windows._firewall`)."""
    picked = " ".join(low)
    if name == "enable-netfirewallrule" and cmd.stdin.kind != "none" and cmd.start > 0:
        # (w21) `Get-NetFirewallRule -DisplayGroup 'Remote Desktop' | Enable-NetFirewallRule`:
        # the rules come down the pipe; the statement before names them
        src = cmd.scope.source
        picked += " " + src[max(src.rfind(";", 0, cmd.start), cmd.start - 600, 0) : cmd.start]
    if name == "enable-netfirewallrule" and remote.REMOTE_RULE_GROUPS.search(picked.lower()):
        cmd.add(
            C,
            "remote-access",
            "enables the firewall rules for remote desktop, WinRM or file sharing",
        )


# --- timestamps and immutable flags -----------------------------------------------
_PROTECTED = re.compile(
    r"^(?:/etc|/var/spool/cron|/root|/usr|/bin|/sbin|/lib\w*|/boot|/tmp/?$|/var/tmp/?$)(?:/|$)"
    r"|(?:^|/)\.ssh(?:/|$)|authorized_keys"
)


def _chattr(cmd: Cmd) -> None:
    texts = cmd.texts()
    removes = any(re.fullmatch(r"-[a-zA-Z]*[ia][a-zA-Z]*", t) for t in texts) and not any(
        t.startswith("+") for t in texts
    )
    if not removes:
        return
    paths = [t for t in texts if not t.startswith(("-", "+"))]
    if any(_PROTECTED.search(p) or p in (".ssh", "~/.ssh") for p in paths):
        cmd.add(
            C,
            "unprotect",
            "chattr lifts the immutable flag of system or persistence files (to rewrite them)",
        )


# --- credential stores ------------------------------------------------------------------------
# The stores: `detections.CREDENTIAL_STORES` (one table); `_CRED_HINT` only skips words
# that cannot name one.
_CRED_HINT = re.compile(
    r"(?i)keychain|login.data|cookies|web.data|local.state|key[34]|logins|signons|wallet"
)
_READERS = frozenset(
    names(
        """
        cp ditto rsync scp tar zip 7z 7za cat base64 xxd od strings sqlite3 copy xcopy robocopy
        copy-item cpi get-content gc type esentutl dd install mv
        """
    )
)


def _credential_copy(cmd: Cmd, name: str) -> None:
    if name not in _READERS:
        return
    for w in cmd.args:
        if not _CRED_HINT.search(w.text):
            continue
        t = w.text.strip("'\"").replace("\\ ", " ").replace("\\", "/")
        if not t.startswith("-") and CREDENTIAL_FILE.search(t.rstrip("/")):
            cmd.add(C, "credentials", f"{name} copies a credential store ({t.rsplit('/', 1)[-1]})")
            return


# --- ESXi ----------------------------------------------------------------------------------
_DATASTORE = re.compile(r"^/vmfs/volumes(?:/[^/]+)?(?:/\*(?:\.\w+)?|/\*/\*(?:\.\w+)?)?/?$")
# The listers of every VM (`_every_vm_source` says when one feeds a loop or xargs: inside
# `$(…)`/backticks, or piped on to `xargs`/`while read`; `getallvms; destroy $1` is not fed).
_LISTS = r"(?:vim-cmd\s+vmsvc/getallvms|esxcli\s+(?:--\S+\s+)*vm\s+process\s+list)"
_GREP = re.compile(r"\b[ef]?grep\s+((?:-\S+\s+)*)")


_SUB_END = re.compile(r"[)`;\n]|\|\s*(?:xargs|while)\b")


@lru_cache(maxsize=256)
def _every_vm_source(source: str) -> bool:
    """A lister of every VM feeding a loop or xargs, not narrowed on the way (`grep -v
    Vmid`, `grep -Eo '[0-9]+'` only cut the header or pick the id; `grep test` narrows)."""
    for m in re.finditer(rf"(?i){_LISTS}", source):
        before = source[: m.start()]
        opened = max(before.rfind("$("), before.rfind("`"))
        in_sub = opened >= 0 and not re.search(r"[)`]", before[opened + 1 :].lstrip("("))
        rest = source[m.end() :]
        end = _SUB_END.search(rest)
        tail = rest[: end.start()] if end else rest
        feeds = in_sub or (end is not None and end.group(0).startswith("|"))
        if feeds and all(re.search(r"[ov]", g.group(1)) for g in _GREP.finditer(tail)):
            return True
    return False


_VM_FILES = re.compile(r"(?i)\*\.(?:vmdk|vmx|vmsn|vmsd|vmem|vswp|nvram|vmss)\b")


def _esxi(cmd: Cmd, name: str, low: list[str]) -> None:
    joined = " ".join(low)
    if name == "esxcli" and re.search(
        r"\bfirewall\s+set\b.*(?:--default-action|-d)[= ](?:true|1|pass)", joined
    ):
        cmd.add(C, "disable-security", "esxcli lets all traffic through the ESXi firewall")
    elif name == "esxcli" and re.search(
        r"\bfirewall\s+ruleset\s+set\b.*(?:sshserver|esxshell|vsphereclient).*"
        r"(?:--enabled|-e)[= ](?:true|1)|(?:--enabled|-e)[= ](?:true|1).*sshserver",
        joined,
    ):
        cmd.add(C, "remote-access", "esxcli opens the ESXi firewall for SSH")
    elif name == "vim-cmd" and re.search(
        r"hostsvc/(?:enable_ssh|start_ssh|enable_esx_shell|start_esx_shell)", joined
    ):
        cmd.add(C, "remote-access", "vim-cmd turns on SSH or the shell of the ESXi host")
    elif (
        name == "vim-cmd"
        and re.search(r"vmsvc/(?:snapshot\.removeall|destroy|unregister)\b", joined)
        and any(w.dynamic for w in cmd.args)
        and _every_vm_source(cmd.scope.source)
    ):
        # `for i in $(vim-cmd vmsvc/getallvms | awk … | grep -Eo …); do vim-cmd
        # vmsvc/snapshot.removeall $i; done`: the id comes from the list of every VM
        cmd.add(B, "vm-destroy", "vim-cmd removes the snapshots or VMs of every VM on the host")
    elif name in ("rm", "shred", "srm", "unlink"):
        if any(_DATASTORE.match(t) and t.startswith("/vmfs/volumes/") for t in low) or any(
            t.startswith("/vmfs/volumes/") and _VM_FILES.search(t) and t.count("*") >= 1
            for t in low
            if "/*/" in t or t.count("/") <= 4
        ):
            cmd.add(B, "datastore-wipe", "deletes the virtual machines of a whole ESXi datastore")
    elif name == "find" and low[:1] and low[0].startswith("/vmfs/volumes"):
        deletes = "-delete" in low or re.search(r"-exec\s+\S*(?:rm|shred)\b", joined)
        if deletes and (_VM_FILES.search(joined) or re.search(r"\.vmdk|\.vmx", joined)):
            cmd.add(B, "datastore-wipe", "find deletes the virtual disks of every VM on the host")


# --- identity and mail administration (Exchange, Entra ID / MSOnline, Az) -----------------
# Granting roles, permissions, passwords, credentials or MFA methods: an account change.
_GRANT = re.compile(
    r"^(?:add|new|set|update|reset|grant)-(?:mg|msol|azuread|az|exo)?"
    r"(?:\w*rolemember|\w*roleassignment|managementroleassignment|mailboxpermission"
    r"|recipientpermission|adpermission|\w*ownerbyref|userpassword|\w*password(?:credential)?"
    r"|\w*keycredential|\w*authentication\w*method|\w*federat\w*|domainauthentication"
    r"|\w*approleassignment\w*|\w*oauth2permissiongrant)(?:byref)?$"
)
# Mail sent outside the organisation by rule, or a mailbox exported to a file.
_MAIL_OUT = re.compile(r"^(?:new|set)-(?:inboxrule|transportrule|mailbox)$")
_FORWARD_OPTS = frozenset(
    names(
        """
        -forwardto -redirectto -forwardasattachmentto -forwardingsmtpaddress -forwardingaddress
        -blindcopyto -redirectmessageto -addtorecipients
        """
    )
)


def texts_path(text: str) -> str:
    """A path operand as the path classifiers read it (quotes off, `/` separators)."""
    return text.strip("'\"").replace("\\", "/")


def _identity(cmd: Cmd, name: str, low: list[str]) -> None:
    if _GRANT.match(name):
        cmd.add(C, "account", f"{name} grants a role, permission, password or credential")
    elif _MAIL_OUT.match(name) and any(t.split(":", 1)[0] in _FORWARD_OPTS for t in low):
        cmd.add(C, "exfiltration", f"{name} forwards or copies mail to another address")
    elif name == "new-mailboxexportrequest":
        # ProxyShell: a mailbox exported as a `.aspx` into a web folder is a web shell (an
        # export to a share stays moderate, as the corpora settle it)
        for i, t in enumerate(low[:-1]):
            if t == "-filepath":
                target = write_target(texts_path(low[i + 1]), cmd.scope.cwds)
                if target is not None and target.level >= C:
                    cmd.add(target.level, target.rule, f"{name} writes {target.what}")


# --- a file fetched with .NET's WebClient.DownloadFile and then run ---------------------
_DOWNLOAD_FILE = re.compile(
    r"(?i)\.downloadfile(?:async)?\s*\(\s*[\"'][^\"']+[\"']\s*,\s*[\"']([^\"']+)[\"']"
)
_STARTERS = frozenset(names("start-process saps start invoke-item ii & . cmd"))


@lru_cache(maxsize=256)
def _fetched(source: str) -> frozenset[str]:
    """The files a script fetches with `.DownloadFile(URL, PATH)` (once per script: the
    hook runs for every command of it)."""
    if "downloadfile" not in source.lower():
        return frozenset()
    return frozenset(_base_low(m.group(1)) for m in _DOWNLOAD_FILE.finditer(source))


def _runs_webclient_download(cmd: Cmd, name: str) -> None:
    """`$c.DownloadFile('http://…/p.exe','C:\\Users\\Public\\p.exe'); Start-Process
    C:\\Users\\Public\\p.exe`: the file just fetched from the network is run."""
    fetched = _fetched(cmd.scope.source)
    if not fetched:
        return
    ran = [cmd.words[0].text]
    if name in _STARTERS:
        ran += [w.text for w in cmd.args if not w.text.startswith("-")][:1]
    if any(_base_low(t) in fetched for t in ran if t):
        cmd.add(C, "remote-code", "runs a file just downloaded with WebClient.DownloadFile")


# --- files written by decoders and SQL servers -----------------------------------------------
def _decoded_into(cmd: Cmd) -> None:
    """`certutil -decode s.txt C:\\inetpub\\wwwroot\\aspnet_client\\s.aspx`: where the
    decoded file lands matters like any other write (a web shell, a startup file)."""
    ops = [w.text for w in cmd.args if not w.text.startswith(("-", "/"))]
    if len(ops) >= 2:
        target = write_target(ops[-1].replace("\\", "/"), cmd.scope.cwds)
        if target is not None and target.level >= C:
            cmd.add(target.level, target.rule, f"certutil decodes a file into {target.what}")


_OUTFILE = re.compile(r"(?i)\binto\s+(?:out|dump)file\s+['\"]([^'\"]+)['\"]")


def _sql_outfile(cmd: Cmd, text: str) -> None:
    """`SELECT … INTO OUTFILE '/var/www/html/uploads/s.php'`: the database server writes a
    file (a web shell when it lands where scripts run)."""
    for m in _OUTFILE.finditer(text):
        target = write_target(m.group(1).replace("\\", "/"), cmd.scope.cwds)
        if target is not None:
            cmd.add(target.level, target.rule, f"the SQL writes {target.what}")
        else:
            cmd.add(M, "write", "the SQL makes the database server write a file")


# --- web frameworks' database resets (what coding agents run: the Replit incident) ---------
def _framework_reset(cmd: Cmd, low: list[str]) -> None:
    """`php artisan migrate:fresh`, `python manage.py flush`, `bin/console
    doctrine:database:drop --force`, `flask db downgrade base`: the framework drops every
    table or row of the application's database (dangerous, like `rails db:drop`)."""
    ops = [t for t in low if not t.startswith("-")]
    if not ops:
        return
    script = ops[0].replace("\\", "/").rsplit("/", 1)[-1]
    task = ops[1] if len(ops) > 1 else ""
    django = script in ("manage.py", "django-admin", "django-admin.py") and (
        task in ("flush", "reset_db") or (task == "migrate" and ops[-1] == "zero")
    )
    symfony = script == "console" and (
        (task in ("doctrine:database:drop", "doctrine:schema:drop") and "--force" in low)
        or (task == "doctrine:fixtures:load" and "--append" not in low)
    )
    laravel = (
        script == "artisan"
        and task in ("migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe")
        and "--pretend" not in low
    )
    hit = task if django or symfony or laravel else ""
    if hit:
        cmd.add(D, "db-drop", f"{script} {hit} deletes the application's database tables or data")


# --- root certificates trusted (every TLS connection can then be intercepted) -------------
_ANCHOR_DIRS = re.compile(
    r"^(?:/usr/local/share/ca-certificates|/usr/share/ca-certificates|/etc/pki/ca-trust/source"
    r"(?:/anchors)?|/etc/ca-certificates/trust-source(?:/anchors)?|/etc/ssl/certs)(?:/|$)"
)
_ROOT_STORE = re.compile(r"(?i)^(?:root|authroot)$|cert:[\\/](?:localmachine|currentuser)[\\/]root")


def _trusts_root(cmd: Cmd, name: str, low: list[str]) -> None:
    """`certutil -addstore Root ca.cer`, `Import-Certificate -CertStoreLocation
    Cert:\\LocalMachine\\Root`, a certificate copied into the system trust anchors, `trust
    anchor ca.crt`: a new root of trust (as `security add-trusted-cert` on macOS)."""
    stores = name in ("import-certificate", "import-pfxcertificate") or (
        name == "certutil" and any(t.lstrip("-/") == "addstore" for t in low)
    )
    dest = low[-1].strip("'\"") if low else ""
    copies = name in ("cp", "mv", "install", "tee", "ln") and (
        (bool(_ANCHOR_DIRS.match(dest)) and dest.endswith((".crt", ".pem", "/")))
        or dest.rstrip("/")
        in ("/usr/local/share/ca-certificates", "/etc/pki/ca-trust/source/anchors")
    )
    hit = (
        (stores and any(_ROOT_STORE.search(t.strip("'\"")) for t in low))
        or (name == "trust" and low[:1] == ["anchor"] and "--remove" not in low)
        or copies
    )
    if hit:
        cmd.add(C, "disable-security", f"{name} makes the system trust a new root certificate")


# --- listers of every VM, snapshot, backup or volume feeding a destroyer ------------------
# A lister's items stand for "every item" (as `vim-cmd vmsvc/getallvms` does in infra): a
# loop, `xargs` or pipeline over what it prints destroys all of them.
EVERY_VM = "<every-vm>"  # the same token infra uses for ESXi's listers
EVERY_SNAPSHOT = "<every-snapshot>"
EVERY_VOLUME = "<every-volume>"
EVERY_BACKUP = "<every-backup>"
EVERY_CERT = "<every-cert>"  # (n17u) every certificate of a keychain
EVERY_SYSTEM_CERT = "<every-system-cert>"  # … of the machine's (/Library/Keychains)
_SYSTEM_KEYCHAINS = ("/library/keychains/", "/system/library/keychains/")


def _lister(name: str, low: list[str]) -> str | None:
    ops = [t for t in low if not t.startswith("-")]
    if name in ("qm", "pct") and ops[:1] == ["list"]:
        return EVERY_VM
    if name == "virsh" and ops[:1] == ["list"]:
        return EVERY_VM
    if name == "vboxmanage" and ops[:2] == ["list", "vms"]:
        return EVERY_VM
    if name == "zfs" and ops[:1] == ["list"] and re.search(r"-t\s*snap", " ".join(low)):
        return EVERY_SNAPSHOT
    if name == "security" and ops[:1] == ["find-certificate"] and "-a" in low:
        # (n17u) `security find-certificate -a -Z /Library/Keychains/System.keychain`
        return (
            EVERY_SYSTEM_CERT if any(t.startswith(_SYSTEM_KEYCHAINS) for t in low) else EVERY_CERT
        )
    if name in ("lvs", "lvdisplay") or (name == "lvm" and ops[:1] == ["lvs"]):
        return EVERY_VOLUME
    if name in ("get-vbrbackup", "get-vbrrestorepoint") and not any(
        t.split(":", 1)[0] in ("-name", "-id", "-backup", "-job") for t in low
    ):
        return EVERY_BACKUP
    return None


def _fed(cmd: Cmd, token: str) -> bool:
    return any(w.text == token for w in cmd.args) or any(w.text == token for w in cmd.stdin.paths)


def _every_item(cmd: Cmd, name: str, low: list[str]) -> None:
    ops = [t for t in low if not t.startswith("-")]
    if name in ("qm", "pct") and ops[:1] == ["destroy"] and _fed(cmd, EVERY_VM):
        cmd.add(B, "vm-destroy", f"{name} destroys every VM of the host with its disks")
    elif (
        name == "virsh"
        and ops[:1] == ["undefine"]
        and any(t in ("--remove-all-storage", "--storage", "--wipe-storage") for t in low)
        and _fed(cmd, EVERY_VM)
    ):
        cmd.add(B, "vm-destroy", "virsh deletes every VM of the host with its disks")
    elif (
        name == "vboxmanage"
        and ops[:1] == ["unregistervm"]
        and "--delete" in low
        and _fed(cmd, EVERY_VM)
    ):
        cmd.add(B, "vm-destroy", "VBoxManage deletes every VM with its disks")
    elif name == "zfs" and ops[:1] == ["destroy"] and _fed(cmd, EVERY_SNAPSHOT):
        cmd.add(B, "delete-backups", "zfs destroys every snapshot")
    elif name == "lvremove" and _fed(cmd, EVERY_VOLUME):
        cmd.add(B, "disk", "lvremove deletes every logical volume (the system's too)")
    elif (
        name == "security"
        and ops[:1] == ["delete-certificate"]
        and (
            _fed(cmd, EVERY_SYSTEM_CERT)
            or (_fed(cmd, EVERY_CERT) and any(t.startswith(_SYSTEM_KEYCHAINS) for t in low))
        )
    ):
        cmd.add(B, "cert-store-wipe", "security deletes every certificate of the system keychain")
    elif name == "security" and (
        (ops[:1] == ["delete-certificate"] and any(t.startswith(_SYSTEM_KEYCHAINS) for t in low))
        or (ops[:1] == ["remove-trusted-cert"] and "-d" in low)
    ):
        # (n17u) one certificate out of the machine's keychain or admin trust settings
        cmd.add(
            C, "cert-trust-removed", f"security {ops[0]} removes a certificate the machine trusts"
        )
    elif name in ("remove-vbrbackup", "remove-vbrrestorepoint") and _fed(cmd, EVERY_BACKUP):
        cmd.add(B, "delete-backups", f"{name} deletes every Veeam backup")


# --- the hook ------------------------------------------------------------------------------
# Program names some check below looks at; every other command leaves at once (the hook runs
# for every simple command, so it must cost nothing for the rest).
_NAMED = (
    frozenset(
        names(
            """
        sc sc.exe net net1 taskkill tskill pkill killall systemctl service apt apt-get aptitude
        yum dnf zypper pacman snap brew rpm dpkg launchctl stop-service spsv stop-process spps
        kill remove-service set-service wmic wmic.exe msiexec msiexec.exe touch chattr ssh plink
        autossh klink code esxcli vim-cmd rm shred srm unlink find
        enable-netfirewallrule certutil mysql mariadb django-admin flask import-certificate
        import-pfxcertificate trust cp mv install tee ln ditto rsync scp tar zip 7z 7za cat
        base64 xxd od strings sqlite3 copy xcopy robocopy copy-item cpi get-content gc type
        esentutl dd qm pct virsh vboxmanage zfs lvs lvdisplay lvm lvremove get-vbrbackup
        get-vbrrestorepoint remove-vbrbackup remove-vbrrestorepoint security
        """
        )
    )
    | remote.TUNNELS
)
_ITEM_TOOLS = frozenset(
    names(
        """
        qm pct virsh vboxmanage zfs lvs lvdisplay lvm lvremove get-vbrbackup get-vbrrestorepoint
        remove-vbrbackup remove-vbrrestorepoint security
        """
    )
)
_TRUST_TOOLS = frozenset(
    names("certutil import-certificate import-pfxcertificate trust cp mv install tee ln")
)
_SCRIPT_RUNNER = re.compile(r"^(?:php\d*(?:\.\d+)?|python[\d.]*|py|pypy3?)$")


@lru_cache(maxsize=4096)
def _head_facts(text: str, cmd_name: str) -> tuple[str, str, str, frozenset[str]]:
    """`judge`'s reading of a command word and the program's name: the name lower-cased,
    its `program_key`, the word with `/` separators lower-cased, and `_head_kind` of both."""
    name = cmd_name.lower()
    raw = text.replace("\\", "/").lower()
    return name, program_key(name), raw, _head_kind(raw, name)


@lru_cache(maxsize=2048)
def _head_kind(raw: str, name: str) -> frozenset[str]:
    """What the command word itself says (once per distinct word): a security product's
    path, a remote-control tool, an init script, a framework's script runner."""
    kinds = set()
    # A vendor's name counts in the program's own file name, or anywhere in a path under
    # an install root; `./cortex/scripts/cleanup.sh` in a project is not a security product.
    installed = raw.lstrip('"').startswith(
        (
            "c:/program",
            "%programfiles",
            "$env:programfiles",
            "/opt/",
            "/library/",
            "/applications/",
            "/usr/",
            "/etc/init.d/",
            "/var/lib/",
        )
    )
    if security_word(raw if installed else "/" + raw.rsplit("/", 1)[-1]):
        kinds.add("security")
    if remote.rmm_in(raw.rsplit("/", 1)[-1]):
        kinds.add("rmm")
    if raw.startswith(("/etc/init.d/", "/etc/rc.d/init.d/")):
        kinds.add("initd")
    if _SCRIPT_RUNNER.match(name):
        kinds.add("runner")
    return frozenset(kinds)


def judge(cmd: Cmd) -> None:
    """Knowledge from incident reports that applies whatever handler the program has."""
    head = cmd.words[0]
    if head.dynamic:
        return
    # (name lower-cased; key: the program without `.exe` (`plink.exe`, `/mnt/c/…/OpenSSH/
    # ssh.exe` run from WSL bash) for the tables that name programs once (tunnels); raw:
    # the command word; kind: what it says. Kept by the command word and name.)
    name, key, raw, kind = _head_facts(head.text, cmd.name)
    if name in ("bash", "sh", "dash", "zsh", "ksh", "ash") and cmd.args:
        # (safety-f8) `bash /usr/local/qcloud/…/uninstall.sh`: the script a shell runs is
        # what runs, read like a program started by its path
        script = cmd.args[0]
        if not script.dynamic and "/" in script.text and not script.text.startswith("-"):
            raw = script.text.lower()
            name = raw.rsplit("/", 1)[-1]
            kind = _head_kind(raw, name)
    other_shell = cmd.scope.family != "bash"
    if (
        name not in _NAMED
        and key not in _NAMED
        and not kind
        and not (other_shell and ("-" in name or _fetched(cmd.scope.source)))
    ):
        return
    texts = [w.text for w in cmd.args]
    low = [t.lower() for t in texts]
    # (security products stopped by any tool: `detections.stops_security`, after the handler)
    if "security" in kind and (
        _UNINSTALLER.search(raw.rsplit("/", 1)[-1])
        or any(
            t in ("uninstall", "--uninstall", "/uninstall", "-u", "unload", "--stopdriver")
            for t in low
        )
    ):
        cmd.add(C, "disable-security", "runs a security product's own uninstaller")
    elif "rmm" in kind or name in ("msiexec", "msiexec.exe"):
        remote.judge(cmd, name, low, _base_low(head.text))
    elif (
        "initd" in kind
        and low[:1]
        and low[0]
        in (
            "stop",
            "kill",
            "restart",
        )
    ):
        svc = raw.rsplit("/", 1)[-1]
        if security_name(svc):
            cmd.add(C, "disable-security", f"stops the security service {svc}")
        else:
            cmd.add(D, "service-stop", f"stops the service {svc}")
    if name == "touch":
        why = timestomp(cmd)
        if why:
            cmd.add(C, "timestomp", why)
    elif name == "chattr":
        _chattr(cmd)
    elif key in remote.REVERSE_TUNNELLERS or key in remote.TUNNELS or name == "code":
        remote.judge(cmd, key, low, "")
    elif name in ("esxcli", "vim-cmd", "rm", "shred", "srm", "unlink", "find"):
        _esxi(cmd, name, low)
    elif name == "enable-netfirewallrule":
        _firewall_hole(cmd, name, low)
    elif "-" in name and cmd.scope.family != "bash":
        _identity(cmd, name, low)
    elif name == "wmic" and re.search(r"\bsystemrestore\b.*\bcall\s+disable\b", " ".join(low)):
        cmd.add(C, "backup-off", "wmic turns System Restore off (no restore points from now on)")
    if name in _READERS:
        _credential_copy(cmd, name)
    if name in _ITEM_TOOLS:
        every = _lister(name, low)
        if every is not None:
            cmd.info.paths = (Word(every, cmd.start, cmd.end),)
        else:
            _every_item(cmd, name, low)
    if name in _TRUST_TOOLS:
        _trusts_root(cmd, name, low)
    if "runner" in kind:
        _framework_reset(cmd, low)
    elif name == "django-admin" and low:
        _framework_reset(cmd, ["django-admin", *low])
    elif name == "flask" and low[:3] == ["db", "downgrade", "base"]:
        cmd.add(D, "db-drop", "flask db downgrade base removes every migration's tables")
    if name == "certutil" and any(t.lstrip("-/") in ("decode", "decodehex") for t in low):
        _decoded_into(cmd)
    elif name in ("mysql", "mariadb") and re.search(r"\binto\s+(?:out|dump)file\b", " ".join(low)):
        _sql_outfile(cmd, " ".join(texts))
    if other_shell:
        _runs_webclient_download(cmd, name)


# --- programs made known here ---------------------------------------------------------------
_READ_ONLY = frozenset(names("version --version -v -version help --help -h list info status"))


@handles("vmkfstools")
def _vmkfstools(cmd: Cmd) -> None:
    texts = cmd.texts()
    # (r17) `--createfs=vmfs6` too; the partition named relative to a cwd under
    # /vmfs/devices/disks (`cd /vmfs/devices/disks && vmkfstools -C vmfs6 naa.1:1`)
    in_disks = any(
        (c or "").rstrip("/") == "/vmfs/devices/disks"
        or (c or "").startswith("/vmfs/devices/disks/")
        for c in cmd.scope.cwds
    )
    if any(t.split("=", 1)[0] in ("-C", "--createfs") for t in texts) and any(
        "/vmfs/devices/disks/" in t or (in_disks and ":" in t and not t.startswith(("-", "/")))
        for t in texts
    ):
        # `vmkfstools -C vmfs6 -S ds /vmfs/devices/disks/naa.…:1`: a new VMFS on a partition
        # of a physical disk (mkfs: the datastore there is gone, h17)
        cmd.add(B, "mkfs", "vmkfstools creates a new filesystem on a disk partition")
        return
    if any(
        t in ("-U", "--deletevirtualdisk", "-w", "--writezeros", "-y", "--zapdisk") for t in texts
    ):
        cmd.add(D, "vm-destroy", "vmkfstools deletes or zeroes a virtual disk")
    elif (
        texts
        and all(
            t in ("-P", "--queryfs", "-h", "--humanreadable", "-v", "-q") or not t.startswith("-")
            for t in texts
        )
        and any(t in ("-P", "--queryfs", "-q") for t in texts)
    ):
        return
    else:
        cmd.add(M, "vm", "vmkfstools creates, clones or changes virtual disks")


@handles("vm-support")
def _vm_support(cmd: Cmd) -> None:
    if not any(t in ("--listvms", "-V", "--help", "-h", "--version") for t in cmd.texts()):
        cmd.add(M, "write", "vm-support collects a support bundle")
