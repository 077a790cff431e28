"""Windows folders whose every file Windows needs, reached with a name only known at run
time, in any spelling that builds the path: PowerShell (`Join-Path`, `[IO.Path]::Combine`,
`+`), cmd (`%windir%`), bash on WSL or Git Bash (`/mnt/c/Windows/...`, `/c/Windows/...`).

A module of its own so that files.py (bash `rm`) and windows.py (Remove-Item, del) use one
definition without importing each other."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from aintern_ls.safety.inline import _split_top
from aintern_ls.safety.levels import B, C

if TYPE_CHECKING:
    from aintern_ls.safety.context import Cmd
    from aintern_ls.safety.words import Word

# --- a name only known at run time inside a protected Windows folder -------------------
# `Remove-Item "$env:windir\System32\config\$hive"`, `del %SystemRoot%\System32\drivers\%1`:
# which file goes is unknown, but every file there is one Windows needs (hives, drivers,
# system binaries): deleting one is blocked, writing one is critical.
_WIN_ROOT_VARS = re.compile(
    r"(?i)%(?:windir|systemroot)%|\$\{?env:(?:windir|systemroot)\}?|%systemdrive%\\windows"
    r"|\$\{?env:systemdrive\}?\\windows"
)
_PROTECTED_WIN_DIR = re.compile(
    r"(?i)\A(?:[a-z]:)?[\\/]+windows(?:[\\/]+(?:system32|syswow64|sysnative)(?:[\\/]+(?:config"
    r"|drivers(?:[\\/]+etc)?|catroot2?|codeintegrity|winevt[\\/]+logs|wbem|boot))?"
    r"|[\\/]+(?:boot|winsxs|servicing|inf))?[\\/]*\Z"
)
_RUNTIME_NAME = re.compile(r"[$%!`]|\A\d?\Z")


_JOIN_PATH_CALL = re.compile(
    r"(?i)join-path\s+(?:-path\s+)?('[^']*'|\"[^\"]*\"|\S+)\s+(?:-childpath\s+)?"
    r"('[^']*'|\"[^\"]*\"|\S+)\s*\Z"
)
_PATH_COMBINE = re.compile(r"(?i)\[(?:system\.)?io\.path\]::combine\s*\((.*)\)\Z", re.S)
_WSL_DRIVE = re.compile(r"\A(?:/mnt|/cygdrive)?/([a-zA-Z])(?=/)")


def _flat_path(text: str, depth: int = 0) -> str:
    """A path expression written as the path it builds, run-time pieces kept as written:
    `(Join-Path $env:windir "System32\\config\\$f")`, `($env:windir + '\\System32\\' + $f)`,
    `[IO.Path]::Combine($env:windir, 'System32', $f)` all as `$env:windir\\System32\\…\\$f`;
    a WSL or Git Bash path (`/mnt/c/Windows/…`, `/c/Windows/…`) as `C:\\Windows\\…`."""
    t = text.strip()
    if depth > 6 or len(t) > 400:
        return t
    while len(t) > 1 and t[0] == "(" and t[-1] == ")":
        t = t[1:-1].strip()
    quoted = len(t) > 1 and t[0] == t[-1] and t[0] in "'\""
    if quoted:
        t = t[1:-1]
    drive = _WSL_DRIVE.match(t)
    if drive is not None:
        return drive.group(1).upper() + ":" + t[drive.end() :].replace("/", "\\")
    if quoted:
        return t
    m = _JOIN_PATH_CALL.match(t)
    if m is not None:
        left, right = _flat_path(m.group(1), depth + 1), _flat_path(m.group(2), depth + 1)
        return left.rstrip("\\/") + "\\" + right.lstrip("\\/")
    m = _PATH_COMBINE.match(t)
    if m is not None:
        parts = [_flat_path(p, depth + 1) for p in _split_top(m.group(1), ",") if p.strip()]
        return "\\".join(p.strip("\\/") for p in parts)
    parts = _split_top(t, "+")
    if len(parts) > 1:
        return "".join(_flat_path(p, depth + 1) for p in parts)
    return t


def protected_unknown_name(text: str) -> str | None:
    """The protected Windows folder a path names a file in when the file's name is only
    known at run time (a variable, a substitution, a batch argument), else None."""
    if "$" not in text and "%" not in text and "!" not in text:
        return None
    bare = text.strip("'\"")
    if "(" in text or "+" in text or "/mnt/" in text or bare.startswith(("/c/", "/cygdrive/")):
        text = _flat_path(text)
    t = _WIN_ROOT_VARS.sub(lambda _: "C:\\Windows", text.strip("'\""))
    cut = max(t.rfind("\\"), t.rfind("/"))
    if cut <= 0:
        return None
    folder, name = t[:cut], t[cut + 1 :]
    if not _RUNTIME_NAME.search(name) or re.search(r"[$%!`]", folder):
        return None
    return folder if _PROTECTED_WIN_DIR.match(folder) else None


_JOIN_NAMES = ("path", "childpath", "additionalchildpath")


def join_path_output(cmd: Cmd) -> None:
    """`Join-Path $env:windir System32 | Remove-Item -Recurse`: the path it prints goes down
    the pipe as that path (a read-only cmdlet: no finding of its own)."""
    parts: dict[str, str] = {}
    positional: list[str] = []
    args = cmd.args
    i = 0
    while i < len(args) and i < 16:
        w = args[i]
        low = w.text.lower()
        if low.startswith("-") and len(low) > 1 and not w.dynamic:
            name = next((n for n in _JOIN_NAMES if n.startswith(low[1:].rstrip(":"))), None)
            if name is None or i + 1 >= len(args):
                i += 1
                continue
            w = args[i + 1]
            if w.dynamic:
                return
            parts[name] = w.text.strip("'\"")
            i += 2
            continue
        if w.dynamic:
            return
        positional.append(w.text.strip("'\""))
        i += 1
    pieces = [parts.get(n) or (positional.pop(0) if positional else "") for n in _JOIN_NAMES[:2]]
    pieces += positional + (
        [parts["additionalchildpath"]] if "additionalchildpath" in parts else []
    )
    if len(pieces) < 2 or any(not p for p in pieces):
        return
    cmd.info.output = "\\".join([pieces[0].rstrip("\\/")] + [p.strip("\\/") for p in pieces[1:]])


_WSL_UNC = re.compile(r"(?i)\A[\\/]{2}wsl(?:\$|\.localhost)[\\/]+[^\\/]+(?=[\\/]|\Z)")


def wsl_unc_posix(text: str) -> str | None:
    """`\\\\wsl$\\Ubuntu\\etc`, `\\\\wsl.localhost\\Debian\\home\\me`: the Linux path inside
    that WSL distribution (`/etc`, `/home/me`), which Windows tools reach through the share;
    None for any other path."""
    t = text.strip("'\"")
    m = _WSL_UNC.match(t) if t[:2] in ("\\\\", "//") else None
    if m is None:
        return None
    return "/" + t[m.end() :].replace("\\", "/").strip("/")


# --- links made in the block -------------------------------------------------------------
# (n13w) `mklink /J C:\t\l C:\Windows`, `New-Item -ItemType Junction -Path l -Target X`: a
# path through the link (`l\*`, `l\sub`, `l\`) is a path in X. Kept in the scope's env as
# `link\x01target` pairs joined by \x02 (normal form: `/`, lower case, no `./`).
LINKS = "\x00links"


def _link_key(path: str) -> str:
    p = path.strip().strip("\"'").replace("\\", "/").lower()
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/")


def remember_link(env: dict[str, str], link: str, target: str) -> None:
    key, value = _link_key(link), target.strip().strip("\"'")
    if not key or not value:
        return
    old = env.get(LINKS, "")
    env[LINKS] = (old + "\x02" if old else "") + key + "\x01" + value


def through_link(env: dict[str, str], path: str, whole: bool) -> str:
    """`path` with a link made in this block replaced by its target when the path goes
    through the link (`link\\*`, `link\\x`, `link\\`), or is the link itself and `whole` (a
    recursive delete that follows it); else `path` unchanged."""
    pairs = env.get(LINKS)
    if not pairs:
        return path
    raw = path.strip().strip("\"'").replace("\\", "/")
    while raw.startswith("./"):
        raw = raw[2:]
    low = raw.lower()
    for pair in pairs.split("\x02")[-16:]:
        link, _, target = pair.partition("\x01")
        if low.startswith(link + "/") or (whole and low == link):
            rest = raw[len(link) :].lstrip("/")
            return target.rstrip("\\/") + ("\\" + rest.replace("/", "\\") if rest else "\\")
    return path


def link_made(cmd: Cmd) -> None:
    """`mklink /J|/D LINK TARGET`, `New-Item -ItemType Junction|SymbolicLink -Path LINK
    -Target|-Value TARGET`: remembered for the deletes that follow (`through_link`)."""
    args = [w.text for w in cmd.args]
    low = [a.lower() for a in args]
    if cmd.name.startswith("mklink"):
        ops = [a for a in args if not a.startswith("/")]
        if len(ops) >= 2 and any(a in ("/j", "/d") for a in low):
            remember_link(cmd.scope.env, ops[0], ops[1])
        return
    kind = ""
    link = target = ""
    positional: list[str] = []
    i = 0
    while i < len(args):
        a = low[i]
        value = args[i + 1] if i + 1 < len(args) else ""
        if a in ("-itemtype", "-type", "-it"):
            kind, i = value.lower(), i + 2
        elif a in ("-path", "-p"):
            link, i = value, i + 2
        elif a in ("-target", "-value"):
            target, i = value, i + 2
        elif a.startswith("-"):
            i += 1
        else:
            positional.append(args[i])
            i += 1
    if kind.strip("\"'") not in ("junction", "symboliclink"):
        return
    link = link or (positional[0] if positional else "")
    if link and target:
        remember_link(cmd.scope.env, link, target)


# --- the machine's trusted root certificates ---------------------------------------------
# (n14w) `Cert:\LocalMachine\Root` (and AuthRoot, CA: the roots Windows trusts and the
# intermediates it chains through) emptied or a root taken out: every TLS connection, signed
# driver and update check of the machine stops trusting what it did, like the Unix CA store
# (`rm -rf /etc/ssl/certs`, blocked in our corpora). The store itself, `\*` or one cert.
_TRUST_STORE = re.compile(
    r"(?i)\A(?:microsoft\.powershell\.security\\)?(?:certificate::|cert:)[\\/]*(?:localmachine"
    r"(?:[\\/]+(root|authroot|ca|certificateauthority)(?:[\\/]+([^\\/]*))?)?)?"
    # (n17w) `Cert:\`, `Cert:\LocalMachine`, `Cert:\LocalMachine\*`: every store at once
    r"(?:[\\/]+\*)?[\\/]*\Z"
)
TRUST_STORES = frozenset({"root", "authroot", "ca", "certificateauthority"})
# (session 16 convention) ONE certificate taken out of a machine trust store: critical.
ONE_TRUSTED_CERT = "cert-trust-removed"


def trust_store_target(text: str) -> tuple[str, bool] | None:
    """(store, whole) for a certificate-drive path in a machine trust store: `whole` when
    it names the store itself or every entry (`Root`, `Root\\*`), not when it names one
    certificate (`Root\\<thumbprint>`, a thumbprint prefix `Root\\CDD4*`)."""
    t = text.strip().strip("'\"")
    if "cert" not in t[:40].lower():
        return None
    m = _TRUST_STORE.match(t)
    if m is None:
        return None
    if m.group(1) is None:
        return "*", True  # the drive or the machine's every store, trust stores among them
    # (n17w: `.` is the store itself, as a listing of the store `cd` went to feeds it)
    return m.group(1), not (m.group(2) or "").strip("*?.")


def machine_trust_store(text: str) -> str | None:
    """The machine trust store (`Root`, `AuthRoot`, `CA`) a certificate-drive path is in or
    names, else None: `Cert:\\LocalMachine\\Root\\*`, `cert:/localmachine/authroot/<thumb>`."""
    got = trust_store_target(text)
    return got[0] if got is not None else None


def _store_label(store: str) -> str:
    return "every certificate store" if store == "*" else f"LocalMachine\\{store}"


def trust_store_removed(cmd: Cmd, targets: list[Word]) -> bool:
    """Remove-Item (or a piped listing) of a machine trust store path: the store emptied or
    deleted is blocked; one certificate taken out of it is critical (a security setting
    changed that can be re-imported; session 16 convention, like `rm /etc/ssl/certs/X.pem`)."""
    one: tuple[Word, str] | None = None
    for t in targets:
        got = trust_store_target(t.text)
        if got is None:
            continue
        store, whole = got
        if whole:
            cmd.add(
                B,
                "cert-store-wipe",
                f"removes certificates the whole machine trusts ({_store_label(store)}): TLS,"
                " signed drivers and updates stop verifying",
                t,
            )
            return True
        one = one or (t, store)
    if one is None:
        return False
    cmd.add(
        C,
        ONE_TRUSTED_CERT,
        f"removes a certificate the whole machine trusts (LocalMachine\\{one[1]})",
        one[0],
    )
    return True


# (n17w) loops over a machine trust store's listing (used by windows.py and network.py)
_TRUST_LISTED = re.compile(
    r"(?i)cert:[\\/]*localmachine[\\/]+(root|authroot|ca|certificateauthority)\b"
)


_PICKS = re.compile(
    r"(?i)where-object|\?\s*\{|\?\s+\w|select-object|\bselect\s+-|-first\b|-last\b|-filter\b"
    r"|-include\b|-exclude\b|\bif\s*\("
)


def piped_trust_listing(cmd: Cmd) -> tuple[str, bool] | None:
    """(store, every) for a machine trust store listed earlier in this pipeline: `every`
    when nothing between the listing and this command picks some of its certificates."""
    src = cmd.scope.source
    upstream = src[src.rfind("\n", 0, max(cmd.start, 0)) + 1 : max(cmd.start, 0)][-1000:]
    if "cert:" not in upstream.lower():
        return None
    walked = next(reversed(list(_FOREACH_CERT.finditer(upstream))), None)
    if walked is not None and "}" not in upstream[walked.end() :]:
        # `foreach ($c in Get-ChildItem Cert:\LocalMachine\Root) { … $c.Thumbprint }`
        picks = walked.group(2) + upstream[walked.end() :]
        return walked.group(1), _PICKS.search(picks) is None
    if "|" not in upstream:
        return None
    store = next(reversed(list(_TRUST_LISTED.finditer(upstream))), None)
    after = upstream[store.end() :] if store is not None else ""
    if store is None or ";" in after or "|" not in after:
        return None
    return store.group(1), _PICKS.search(after) is None


_FOREACH_CERT = re.compile(
    r"(?i)\bforeach\s*\(\s*\$\w+\s+in\s+\(?\s*(?:get-childitem|gci|ls|dir)\b[^)]{0,80}?"
    r"cert:[\\/]*localmachine[\\/]+(root|authroot|ca|certificateauthority)\b([^)]{0,200})\)+\s*\{"
)


# cmd: `for /f … in ('certutil -store Root ^| findstr …') do …`: a loop over a store's listing
_FOR_STORE_LISTING = re.compile(
    r"(?i)\bin\s*\(\s*['`\"]\s*certutil(?:\.exe)?\s+(?:[-/]\w+\s+)*"
    r"[-/](?:store|viewstore)\s+(?:[-/]\w+\s+)*['\"]?(\w+)"
)
_FOR_F = re.compile(r"(?i)\bfor\s+/f\b")


def looped_trust_listing(cmd: Cmd) -> str | None:
    """The store a cmd `for /f` loop around this command walks by listing it with certutil
    (`for /f … in ('certutil -store Root ^| findstr Serial') do certutil -delstore Root %i`)."""
    src = cmd.scope.source
    line = src[src.rfind("\n", 0, max(cmd.start, 0)) + 1 : max(cmd.start, 0)][-1000:]
    if "for" not in line.lower() or "certutil" not in line.lower():
        return None
    loop = _FOR_F.search(line)
    m = _FOR_STORE_LISTING.search(line, loop.end()) if loop is not None else None
    return m.group(1) if m is not None else None
