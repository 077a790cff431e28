"""Families of the fifth blind slice that no knowledge module modelled (issue 14, safety-f5):
firmware flash erasers, BitLocker suspension cmdlets, event-log shrinking, Azure VM
run-command cmdlets (judged as the script they run), mailbox exports to a web folder, and
read-only ESXi listings."""

from __future__ import annotations

import re

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import B, C, M
from aintern_ls.safety.registry import handles
from aintern_ls.safety.words import Word, names, ps_bind

_VALUED = frozenset(
    names(
        """
        mountpoint rebootcount logname maximumsize overflowaction retentiondays computername
        resourcegroupname vmname name commandid scriptpath scriptstring sourcescript
        sourcescripturi parameter location mailbox filepath batchname includefolders
        excludefolders contentfilter vmscalesetname instanceid
        """
    )
)


def _ps_params(cmd: Cmd) -> tuple[dict[str, Word | None], list[Word]]:
    bound = ps_bind(cmd.args, lambda n: n in _VALUED)
    return bound.params(), list(bound.positional)


@handles("flashrom", "flash_erase", "flash_eraseall", "flashcp", "mtd", "mtd_debug")
def _flash(cmd: Cmd) -> None:
    """Firmware flash tools: erasing the BIOS/UEFI or a router's flash chip leaves a machine
    that no longer boots (blocked, like wiping its disk); writing an image replaces the
    firmware (critical); reading or probing it is a read."""
    texts = [t.lower() for t in cmd.texts()]
    n = cmd.name
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
            and any(t in ("-w", "--write") or t.startswith("--write=") for t in texts)
        )
    )
    if write:
        cmd.add(C, "system-config", f"{n} overwrites the machine's firmware with an image")
        return
    if n == "flashrom" and any(
        t in ("-r", "--read", "-v", "--verify", "-l", "--list-supported", "-L") for t in texts
    ):
        return
    cmd.add(M, "system-config", f"{n} accesses the firmware flash chip")


@handles("suspend-bitlocker", "disable-bitlocker")
def _bitlocker_off(cmd: Cmd) -> None:
    """Suspending or turning off BitLocker leaves the drive readable without its key (the
    ransomware and data-theft step before a reboot or re-encryption): critical."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    cmd.add(C, "disable-security", f"{cmd.name} turns BitLocker protection off")


@handles("limit-eventlog")
def _limit_eventlog(cmd: Cmd) -> None:
    """`Limit-EventLog -MaximumSize 64KB -OverflowAction OverwriteAsNeeded`: a log shrunk
    to a few records overwrites its history (the trail is gone, like clearing it)."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    size = params.get("maximumsize")
    action = params.get("overflowaction")
    shrunk = size is not None and _bytes(size.text) < 1024 * 1024
    if shrunk or (action is not None and "overwriteasneeded" in action.text.lower() and size):
        cmd.add(C, "clear-logs", f"{cmd.name} shrinks an event log so its records are overwritten")
    else:
        cmd.add(M, "system-config", f"{cmd.name} changes an event log's limits")


def _bytes(text: str) -> float:
    m = re.fullmatch(r"(?i)\s*(\d+(?:\.\d+)?)\s*(kb|mb|gb|tb)?\s*", text)
    if m is None:
        return float("inf")
    unit = {"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}.get(
        (m.group(2) or "").lower(), 1
    )
    return float(m.group(1)) * unit


@handles(
    "invoke-azvmruncommand",
    "invoke-azvmssvmruncommand",
    "set-azvmruncommand",
    "invoke-azurermvmruncommand",
    "set-azvmssvmruncommand",
)
def _az_run_command(cmd: Cmd) -> None:
    """Azure VM run-command cmdlets run a script on the VM: `-ScriptString` is judged as the
    PowerShell it holds (like `Invoke-Command -ScriptBlock`); a script file or URI nobody
    can read here runs code on the machine unseen (critical)."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    code = params.get("scriptstring") or params.get("sourcescript")
    if code is not None and not code.dynamic:
        cmd.add(M, "remote", f"{cmd.name} runs a script on a virtual machine")
        family = (
            "bash" if re.search(r"(?i)\brunshellscript\b", " ".join(cmd.texts())) else "powershell"
        )
        cmd.scope.include(cmd.scope.nested(code.text, family, code))
        return
    where: Word | None = (
        params.get("scriptpath")
        or params.get("sourcescripturi")
        or code
        or params.get("scriptstring")
    )
    cmd.add(
        C,
        "remote-code",
        f"{cmd.name} runs a script nobody has read here on a virtual machine",
        where,
    )


_WEB_FOLDER = re.compile(
    r"(?i)inetpub|wwwroot|aspnet_client|[\\/]owa[\\/]|[\\/]ecp[\\/]|htdocs|public_html"
)


@handles("new-mailboxexportrequest", "new-mailboximportrequest")
def _mailbox_export(cmd: Cmd) -> None:
    """Exchange mailbox exports: into a web-served folder (`\\\\EXCH\\c$\\inetpub\\wwwroot`) the
    mailbox can be downloaded by anyone (the ProxyShell exfiltration step): critical; an
    ordinary export copies a mailbox to a file share (moderate)."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    path = params.get("filepath")
    if (
        cmd.name == "new-mailboxexportrequest"
        and path is not None
        and _WEB_FOLDER.search(path.text)
    ):
        cmd.add(C, "exfiltration", "exports a mailbox into a web-served folder", path)
        return
    cmd.add(M, "write", f"{cmd.name} copies a mailbox to or from a file")


@handles("vmdumper")
def _vmdumper(cmd: Cmd) -> None:
    """ESXi `vmdumper -l` lists running VMs (read-only); other uses dump or signal a VM."""
    texts = cmd.texts()
    if texts and all(t in ("-l", "-h", "--help") for t in texts):
        return
    cmd.add(M, "system-config", "vmdumper dumps or signals a running virtual machine")
