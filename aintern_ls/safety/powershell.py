"""The PowerShell front end: walks a tree-sitter-powershell tree and hands commands to rules.

Pipelines, script blocks (`ForEach-Object { … }`), sub-expressions and parenthesised
pipelines are all visited. The grammar rejects some valid PowerShell (`--`, `-First 10 A, B`),
so regions it cannot parse are judged token by token and still count; only text whose
quotes or brackets do not pair up is reported as a parse error (at least moderate).
"""

from __future__ import annotations

import bisect
import contextlib
import fnmatch
import functools
import re
import threading
from collections.abc import Iterator, Mapping
from re import _constants as _sre  # type: ignore[attr-defined]
from re import _parser as _sre_parse  # type: ignore[attr-defined]
from typing import Any

import tree_sitter
import tree_sitter_powershell

from aintern_ls.safety import budget, dispatch, wrappers
from aintern_ls.safety.bash import PARSES, Positions
from aintern_ls.safety.context import NO_STDIN, PS_WHATIF_PREF, Info, Scope, Stdin
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.shape import EVERY_BACKUP
from aintern_ls.safety.windows import (
    PS_ALIASES,
    PS_CODE_VIEW,
    PS_KNOWN_VARS,
    read_command_line,
    selects_all,
)
from aintern_ls.safety.winpaths import protected_unknown_name
from aintern_ls.safety.words import (
    ORIGIN_DEEP,
    ORIGIN_NETWORK,
    ORIGIN_VARIABLE,
    SpanMatches,
    Word,
    confusables_folded,
    fold_powershell,
    names,
    only_dashes,
    split_words,
    unquote,
)

Node = tree_sitter.Node

_LANGUAGE = tree_sitter.Language(tree_sitter_powershell.language())
_PARSERS = threading.local()  # one Parser per thread, as in bash.py
_memo_state = dispatch.memo_state  # (read twice for every statement)

_DOWNLOAD = re.compile(
    r"downloadstring|downloaddata|downloadfile|invoke-webrequest|invoke-restmethod|\biwr\b"
    r"|\birm\b|net\.webclient|start-bitstransfer|https?://",
    re.I,
)
_KNOWN_VARS = PS_KNOWN_VARS  # known folders, kept with the Windows knowledge
_WRAPPERS = frozenset(
    {
        "command_name_expr",
        "logical_expression",
        "bitwise_expression",
        "comparison_expression",
        "additive_expression",
        "multiplicative_expression",
        "format_expression",
        "range_expression",
        "array_literal_expression",
        "unary_expression",
        "expression_with_unary_operator",
        "argument_expression",
        "logical_argument_expression",
        "bitwise_argument_expression",
        "comparison_argument_expression",
        "additive_argument_expression",
        "multiplicative_argument_expression",
        "format_argument_expression",
        "range_argument_expression",
    }
)
_CREATE_ARG = re.compile(
    r"(?:\[scriptblock\]::create|\.invokecommand\.invokescript|\.invokescript)\((.*?)\)"
    r"(?=\s*(?:\.|\)|;|\||$))",
    re.I,
)
_WMI_DELETE = re.compile(
    r"remove-wmiobject|remove-ciminstance|\.delete\(\)|\brwmi\b|\brcim\b"
    r"|(?:invoke-cimmethod|\bicim\b|invoke-wmimethod|\biwmi\b)(?![^|;\n]*-(?:method)?name\s+['\"]?"
    r"(?!delete\b)\w)"
    r"|(?:%|foreach-object|foreach)\s+(?:-membername\s+)?['\"]?delete\b"
)
_SCRIPT_CREATE = re.compile(
    r"\[\s*(?:system\.management\.automation\.)?scriptblock\s*\]\s*::\s*create"
    r"|\.invokescript\s*\(|\.newscriptblock\s*\("
    r"|invoke-command\s+-scriptblock\s*\(\s*\[scriptblock\]",
    re.I,
)
_B64_LITERAL = re.compile(r"FromBase64String\(\s*['\"]([A-Za-z0-9+/=\s]{8,})['\"]\s*\)", re.I)


def _decode_b64(text: str, utf16: bool, packed: str = "") -> str:
    """Literal base64 as PowerShell would decode it ("" when it is not text); `packed` is
    "deflate" or "gzip" when the bytes go through IO.Compression.DeflateStream/GZipStream."""
    import base64
    import binascii
    import zlib

    try:
        raw = base64.b64decode(re.sub(r"\s", "", text) + "=" * (-len(text.strip()) % 4))
        if packed:
            inflater = zlib.decompressobj(-15 if packed == "deflate" else 31)
            raw = inflater.decompress(raw, 1 << 20)  # at most 1 MiB of decompressed text
        return raw.decode("utf-16-le" if utf16 else "utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError, zlib.error):
        return ""


_EXPAND_STRING = re.compile(r"(?i)\.\s*expandstring\s*\(\s*('(?:[^']|'')*'|\"[^\"`]*\"|[^)]*)\s*\)")


def _expanded_strings(text: str, scope: Scope) -> None:
    """`$ExecutionContext.InvokeCommand.ExpandString('$(Remove-Item …)')` expands the string
    as a double-quoted one: its `$( … )` subexpressions run. A literal's are judged as
    code; a string only known at run time is opaque (critical)."""
    from aintern_ls.safety.inline import _closing

    for n, m in enumerate(_EXPAND_STRING.finditer(text[:20000])):
        if n >= 8:
            break
        arg = m.group(1).strip()
        body = _ps_literal(arg) if arg[:1] in "'\"" else None
        if body is None and len(arg) > 1 and arg[0] == arg[-1] == '"' and "`" not in arg:
            body = arg[1:-1]  # (its own `$( … )` run first, and are judged where they stand)
        if body is None:
            scope.add(
                RiskLevel.CRITICAL,
                "eval-dynamic",
                "expands a string only known at run time (its subexpressions run)",
                m.start(),
                m.end(),
            )
            continue
        at = body.find("$(")
        for _ in range(8):
            if at < 0:
                break
            close = _closing(body, at + 1)
            if close < 0:
                break
            code = body[at + 2 : close]
            where = Word(code, m.start(1), m.end(1))
            scope.include(scope.nested(code, "powershell", where, -1))
            at = body.find("$(", close)


def _created_scripts(text: str, scope: Scope) -> bool:
    """`[scriptblock]::Create(EXPR)` / `.InvokeScript(EXPR)` where EXPR is a literal
    expression (format strings, character codes, reversals): judge the script it builds.
    True when every such call's script was built and judged."""
    from aintern_ls.safety.windows import partial_code, ps_variables

    seen = resolved = 0
    for m in re.finditer(r"(?i)(?:::create|\.invokescript|\.newscriptblock)\s*\(", text):
        seen += 1
        i = _close_paren(text, m.end())
        if i < 0:
            continue
        inner = text[m.end() : i - 1]
        code = _created_text(inner, scope)
        if code is not None and code.strip():
            resolved += 1
            scope.include(scope.nested(code, "powershell", Word(code, m.end(), i - 1)))
            call = _BLOCK_INVOKE.match(text, i)
            end = _close_paren(text, call.end()) if call is not None else -1
            args = (
                _string_array("@(" + text[call.end() : end - 1] + ")")
                if call is not None and end > 0
                else None
            )
            if call is not None and args:
                # `[scriptblock]::Create('param($p) Remove-Item $p -Recurse').Invoke('C:\')`:
                # the body runs with its parameters bound to the arguments given.
                words = [Word(a, call.start(), end) for a in args[:8]]
                bound = _bind_block("{" + code + "}", words)
                scope.include(scope.nested(bound, "powershell", Word(code, m.start(), end), -1))
        elif "$" in inner and (partial := partial_code(inner.strip(), ps_variables(scope))):
            # `[scriptblock]::Create("Remove-Item C:\Windows -Recurse " + $env:X)`: opaque,
            # but blocked when its literal parts already are (as Invoke-Expression's)
            found = scope.nested(partial, "powershell", Word(partial, m.end(), i - 1))
            scope.include([f for f in found if f.level >= RiskLevel.BLOCKED])
    return seen > 0 and resolved == seen


def _close_paren(text: str, at: int) -> int:
    """The index just past the `)` closing the `(` before `at`; -1 when it is not closed."""
    depth, i = 1, at
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return -1 if depth else i


def _created_text(inner: str, scope: Scope) -> str | None:
    """The script `[scriptblock]::Create(INNER)` builds when INNER is a literal expression
    (format strings, character codes, known variables interpolated); None otherwise."""
    from aintern_ls.safety.windows import interpolate_ps, ps_eval, ps_variables

    code = ps_eval(inner, ps_variables(scope))
    if code is None and inner.strip().startswith('"') and inner.strip().endswith('"'):
        # `[scriptblock]::Create("ri $env:windir -r -fo")`: known variables filled in
        code = interpolate_ps(inner.strip(), ps_variables(scope))
    return code


# `.Invoke(` / `.InvokeReturnAsIs(` right after a created script block: run with arguments.
_BLOCK_INVOKE = re.compile(r"(?i)\s*\.\s*invoke(?:returnasis)?\s*\(")
# `[scriptblock]::Create(` / `$ExecutionContext.InvokeCommand.NewScriptBlock(` at the start.
_CREATE_RHS = re.compile(
    r"(?is)\[\s*(?:system\.management\.automation\.)?scriptblock\s*\]\s*::\s*create\s*\("
    r"|\$executioncontext\.invokecommand\.newscriptblock\s*\("
)


def _created_block(raw: str, scope: Scope) -> str | None:
    """`[scriptblock]::Create(LITERAL)` (or NewScriptBlock, in parentheses or not) as the
    whole of `raw`: the block it builds, as literal block text (`{ … }`); None otherwise."""
    text = raw.strip()
    if "::" not in text and "newscriptblock" not in text.lower():
        return None
    while text.startswith("(") and _close_paren(text, 1) == len(text):
        text = text[1:-1].strip()
    made = _CREATE_RHS.match(text)
    if made is None or _close_paren(text, made.end()) != len(text):
        return None
    code = _created_text(text[made.end() : -1], scope)
    return "{" + code + "}" if code else None


_PS_VAR = "\x00ps:"  # PowerShell variables in the scope's table (no shell name starts so)

_WHATIF_PREF_NAMES = frozenset(
    f"${scope}whatifpreference" for scope in ("", "global:", "script:", "local:")
)


def _top_level(node: Node) -> bool:
    """`node` runs unconditionally in the text's own scope: only pipelines and statement
    lists lie between it and the root (no if/loop/try body, function or script block)."""
    p = node.parent
    while p is not None:
        if p.type not in ("pipeline", "statement_list", "program"):
            return False
        p = p.parent
    return True


# `(Get-Item PATH).LastWriteTime`, `(gi PATH -Force).CreationTimeUtc`, `$f.LastAccessTime`
_TIMESTAMP_LHS = re.compile(
    r"\A(?:\(\s*(?:get-item|gi|get-childitem|gci|dir|ls)\s+(?:-(?:literalpath|path|force)\s+)*"
    r"(?P<path>'[^']*'|\"[^\"]*\"|[^\s)]+)[^)]{0,80}\)|(?P<var>\$\w{1,64}))"
    r"\.(?:creation|lastwrite|lastaccess)time(?:utc)?\Z"
)
_AMSI = re.compile(
    r"amsiInitFailed|AmsiUtils|amsiContext|AmsiScanBuffer|amsi\.dll|amsiSession"
    r"|EnableScriptBlockLogging['\"]?\s*,\s*0|cachedGroupPolicySettings|\bEtwProvider\b"
    r"|PSEtwLogProvider",
    re.I,
)
_SOCKET_CLIENT = re.compile(
    r"(?i)net\.sockets\.(?:tcpclient|udpclient|socket)|\[(?:system\.)?net\.sockets\.\w+\]"
    r"|net\.http\.httpclient|\bclientwebsocket\b"
)
_FILE_READ = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::(?:readall\w*|openread|open)\s*\(|\b(?:get-content|gc)\s"
)
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None))
_NEEDLES: dict[re.Pattern[str], tuple[str, ...] | None] = {}
_WEB_UPLOAD = re.compile(r"\.Upload(File|Data|String|Values)(?:Async|TaskAsync)?\s*\(", re.I)
_IO_DELETE = re.compile(r"\[(system\.)?io\.(file|directory)\]::delete\s*\(", re.I)


def _floor(items: list[tuple[Any, Any]]) -> tuple[str, ...]:
    """Strings one of which every match of the parsed regular expression sequence `items`
    holds: a run of literal characters (`(x,)`), or one per alternative of a group
    (`(?:setvalue|createsubkey)`), whichever's shortest string is longest; () when there is
    none for sure."""
    best: tuple[str, ...] = ()

    def better(group: tuple[str, ...]) -> None:
        nonlocal best
        if not group:
            return
        if not best or (min(map(len, group)), -len(group)) > (min(map(len, best)), -len(best)):
            best = group

    run = ""
    for op, av in items:
        if op is _sre.LITERAL:
            run += chr(av)
            continue
        better((run,) if run else ())
        run = ""
        if op is _sre.SUBPATTERN:
            better(_floor(list(av[-1])))
        elif op in _REPEATS and av[0] >= 1:
            better(_floor(list(av[2])))
        elif op is _sre.BRANCH:
            groups = [_floor(list(alt)) for alt in av[1]]
            if all(groups):
                better(tuple(dict.fromkeys(n for g in groups for n in g)))
    better((run,) if run else ())
    return best


def needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-case strings one of which any match of `pattern` holds (in some case), read
    from the pattern itself (`a|b(?:c|d)e` → a, b: one literal of each branch suffices);
    None when some match may hold no literal text (or only text that is not ASCII)."""
    try:
        return _NEEDLES[pattern]
    except KeyError:
        pass
    try:
        found = _floor(list(_sre_parse.parse(pattern.pattern, pattern.flags)))
    except Exception:  # (an internal module: any surprise means no shortcut)
        found = ()
    out = tuple(n.lower() for n in found) if found and all(n.isascii() for n in found) else None
    _NEEDLES[pattern] = out
    return out


def may_match(pattern: re.Pattern[str], low: str, plain: bool) -> bool:
    """False only when `pattern` cannot match the text whose lower-case form is `low`: the
    text is ASCII (`plain`; Unicode case folding matches a few other letters to ASCII ones,
    `ſ` to s, the Kelvin sign to k) and holds none of the pattern's `needles`. (A regular
    expression's scan of a 10,000-character text costs up to a millisecond; a substring
    test of the same text a microsecond, and most texts name none of what is searched.)"""
    if not plain:
        return True
    try:
        found = _NEEDLES[pattern]  # (`needles`, without a call: asked a dozen times a text)
    except KeyError:
        found = needles(pattern)
    # (`map` of the bound test: no generator frame per needle, asked of every text analysed)
    return found is None or any(map(low.__contains__, found))


def code_may_match(pattern: re.Pattern[str], low: str, plain: bool) -> bool:
    """`may_match` for the code view of the text whose lower-case form is `low` (`code_only`
    blanks comments and strings with spaces, so a needle without white space that is in
    the code view is in `low` too); True when a needle holds white space."""
    if pattern in _CODE_NEEDLES:
        found = _CODE_NEEDLES[pattern]
    else:
        found = needles(pattern)
        if found is not None and any(not n or any(c.isspace() for c in n) for n in found):
            found = None
        _CODE_NEEDLES[pattern] = found
    return not plain or found is None or any(map(low.__contains__, found))


_CODE_NEEDLES: dict[re.Pattern[str], tuple[str, ...] | None] = {}


def _respelled_findings(respelled: str, text: str, scope: Scope) -> None:
    """Analyse `respelled` (`text` spelled as what the rules know) and keep its dangerous or
    worse findings that the first reading did not make, spanning the whole text (the
    respelling moved the words)."""
    found = scope.nested(respelled, "powershell", Word(respelled, 0, len(text)), -1)
    seen = {(f.rule, f.reason) for f in scope.findings}
    scope.include(
        [f for f in found if f.level >= RiskLevel.DANGEROUS and (f.rule, f.reason) not in seen]
    )


def _search(pattern: re.Pattern[str], text: str, low: str, plain: bool) -> re.Match[str] | None:
    """`pattern.search(text)`, skipped when it cannot match (`may_match`)."""
    return pattern.search(text) if may_match(pattern, low, plain) else None


def analyse(text: str, scope: Scope) -> None:
    if not text.isascii() and (folded := confusables_folded(text)) != text:
        # (n17u) `Rеmove-Item -Rеcurse`: look-alike letters folded before the parse (the
        # grammar splits a word at them), one character for one (the spans hold)
        at = next(i for i, (a, b) in enumerate(zip(text, folded, strict=True)) if a != b)
        end = start = at
        while end < len(text) and not text[end].isspace():
            end += 1
        while start and not text[start - 1].isspace():
            start -= 1
        if text[start] not in "'\"" and not only_dashes(text, folded):
            # (a quoted string's letters are data; PowerShell takes `–`/`—` as `-` itself)
            msg = "a word is written with look-alike letters"
            scope.add(RiskLevel.MODERATE, "confusable-letters", msg, at, end)
        text = folded
    if "--%" in text:
        # `cmd /c --% rd /s /q C:\Users`: the stop-parsing token passes the rest of the line
        # verbatim to the program; read without it (same length, so spans hold).
        text = re.sub(r"(?<=\s)--%(?=\s|$)", "   ", text)
    data = text.encode("utf-8", "surrogatepass")
    low = text.lower()
    plain = len(data) == len(text)  # ASCII
    PARSES.count += 1
    parser = getattr(_PARSERS, "powershell", None)
    if parser is None:
        parser = _PARSERS.powershell = tree_sitter.Parser(_LANGUAGE)
    blanked = _dash_statements(text)
    tree = budget.parse(
        parser,
        _digit_parameters(_equals_parameters(_blank(text, data, blanked) if blanked else data)),
    )
    walker = _Walker(scope, Positions(text, data), plain)
    root = tree.root_node
    if (root.has_error or blanked) and not _balanced(text):
        scope.add(
            RiskLevel.MODERATE,
            "parse-error",
            "could not fully parse this command; check it by hand",
            0,
            len(text),
        )
    if "function" in low or "filter" in low:
        _function_calls(text, scope)
    if ("prompt" in low and "function" in low) or ("action" in low and "invokecommand" in low):
        _prompt_hooks(text, scope)
    if (
        (
            "{" in text  # (sb22: each of its loops has a `{` body; 40-460 µs a search)
            and may_match(_ENDLESS_SPAWN, low, plain)
            and (bomb := _ENDLESS_SPAWN.search(text[:20000])) is not None
        )
        and not re.search(
            r"(?i)\b(?:break|exit|return|throw|start-sleep|sleep)\b|-wait\b",
            # (a job's own block may sleep: the loop around it does not wait for it)
            re.sub(
                r"(?i)(?:start-job|sajb|start-threadjob)\s*(?:-scriptblock\s*)?\{[^{}]*\}",
                "",
                bomb.group(0),
            ),
        )
    ):
        scope.add(
            RiskLevel.BLOCKED,
            "fork-bomb",
            "an endless loop that keeps starting processes (a fork bomb)",
            bomb.start(),
            bomb.end(),
        )
    for wm in _NET_WRITE.finditer(text) if may_match(_NET_WRITE, low, plain) else ():
        # `[IO.File]::WriteAllText('x.ps1', '…')`: remember the text, as Set-Content does.
        base = wm.group(1).replace("/", "\\").rsplit("\\", 1)[-1]
        scope.written[base] = (wm.group(2).replace("''", "'"), -1)
    if "::write" in low or "::append" in low or ">" in text:
        _written_files(text, scope)
    if "createshortcut" in low:
        from aintern_ls.safety.pickups import shortcuts

        shortcuts(text, scope.written)  # (f18) a .lnk whose opening runs its target
    if "::" in text or "filestream" in low or "extracttodirectory" in low:
        _dotnet_writes(text, scope)
    code_view: list[str] = []

    def code_text() -> str:  # (the text without comments and printed strings: `code_only`)
        if not code_view:
            code_view.append(code_only(text))
        return code_view[0]

    if ("registry" in low or "hk" in low) and ("delete" in low or "setvalue" in low):
        from aintern_ls.safety.windows import dotnet_registry

        dotnet_registry(
            code_text(), scope
        )  # `[Microsoft.Win32.Registry]::LocalMachine.DeleteSubKeyTree`
    if "stdregprov" in low and "delete" in low:
        from aintern_ls.safety.windows import stdregprov_deletes

        stdregprov_deletes(code_text(), scope)  # WMI's registry provider deleting keys or values
    if "remove" in low and ("x509store" in low or "cert:" in low):
        from aintern_ls.safety.windows import x509_trust_removed

        x509_trust_removed(code_text(), scope, text)  # `$store.RemoveRange($store.Certificates)`
    if "registertask" in low:
        from aintern_ls.safety.windows import com_scheduled_task

        com_scheduled_task(code_text(), scope)  # `(New-Object -ComObject Schedule.Service)…`
    if "scheduledtask" in low and (".path" in low or ".execute" in low):
        # Set-ScheduledTask reads a task object's new action from the code, not from what
        # comments and printed strings say (windows.PS_CODE_VIEW)
        scope.env[PS_CODE_VIEW] = code_text()
    if "psdefaultparametervalues" in low and ".add(" in low:
        _defaults_added(text, scope)  # (n18w) `$PSDefaultParameterValues.Add('*:Recurse', $true)`
    saved, _FAST.text = _FAST.text, (text if plain else None)
    try:
        with budget.Source(data):
            walker.visit(root)
    finally:
        _FAST.text = saved
    for start, end in blanked:
        walker.error_text(start, end)
    if "-in" in low and ("foreach" in low or "%" in text) and _IN_PARAM.search(text[:20000]):
        _input_object_piped(text, scope)
    if "for" in low and "[$" in text:
        _index_loops(text, scope)  # (after the walk: the arrays are known by now)
    for arg in _CREATE_ARG.finditer(text) if may_match(_CREATE_ARG, low, plain) else ():
        code = fold_powershell(arg.group(1))
        if code is not None:
            where = Word(code, arg.start(1), arg.end(1))
            scope.include(scope.nested(code, "powershell", where))
    if "expandstring" in low:
        _expanded_strings(text, scope)
    built = False
    if "::create" in low or "invokescript" in low or "newscriptblock" in low:
        built = _created_scripts(code_text(), scope)
    if ("win32_volume" in low or "win32_logicaldisk" in low or "msft_volume" in low) and re.search(
        r"-methodname\s+['\"]?format\b|\.format\s*\("
        r"|(?:invoke-wmimethod|iwmi)\b[^|;\n]{0,300}?-name\s+['\"]?format\b",
        low,
    ):
        scope.add(RiskLevel.BLOCKED, "mkfs", "formats a volume through WMI/CIM", 0, len(text))
    if "win32_share" in low and "create" in low:
        from aintern_ls.safety.windows import share_created

        share_created(code_text(), scope)  # (n18w) Win32_Share Create of a protected folder
    if "win32_operatingsystem" in low and re.search(
        r"(?:-methodname|-name)\s+['\"]?(?:win32shutdown\w*|shutdown|reboot)\b"
        r"|\.(?:win32shutdown\w*|shutdown|reboot)\s*\(",
        low,
    ):
        scope.add(
            RiskLevel.DANGEROUS,
            "shutdown",
            "shuts down or restarts the machine through WMI/CIM",
            0,
            len(text),
        )
    if (
        "reflection.assembly]::" in low
        and re.search(r"\[(?:system\.)?reflection\.assembly\]::(?:unsafe)?load\w*\s*\(", low)
    ) and (_DOWNLOAD.search(text) or re.search(r"downloaddata|frombase64string|\\\\", low)):
        scope.add(
            RiskLevel.CRITICAL,
            "remote-code",
            "loads a .NET assembly from the network or from hidden bytes and runs it",
            0,
            len(text),
        )
    if "win32_shadowcopy" in low and _WMI_DELETE.search(low):
        scope.add(
            RiskLevel.BLOCKED,
            "wmi-shadow-delete",
            "deletes Volume Shadow Copies (Windows restore points) through WMI/CIM",
            0,
            len(text),
        )
    if (
        _search(_SCRIPT_CREATE, low, low, plain)
        and _SCRIPT_CREATE.search(code_text().lower())
        and not (built and "frombase64" not in low)
    ):
        # (a script block built from literal pieces is judged as what it builds)
        scope.add(
            RiskLevel.CRITICAL,
            "eval-dynamic",
            "builds and runs a script block at run time",
            0,
            len(text),
        )
    if code_may_match(_DOTNET, low, plain):
        _dotnet_calls(code_text(), scope)
    if "::create" in low and "powershell]" in low:
        _runspaces(text, scope)
    if (
        ".run" in low
        or ".exec" in low
        or "processstartinfo" in low
        or "invokeverb" in low
        or ".startinfo" in low
        or "shellexecute" in low
    ):
        _com_runs(text, scope)
    if "win32_" in low or "msft_" in low or "cim_" in low or "systemrestore" in low:
        _wmi_methods(text, code_text(), scope)
    m = _search(_DOTNET_REGISTRY, text, low, plain)
    if m:
        _registry_api(text, m, scope)
    m = _search(_ADSI_ACCOUNT, text, low, plain)
    if m and re.search(r"(?i)\[adsi\]|directoryservices|winnt://|ldap://", text):
        # `[ADSI]"WinNT://./Administrators,group").Add(…)`, `.Create("User", …)`: accounts and
        # group membership through ADSI, as `net user /add` does.
        admin = re.search(r"(?i)administrat|domain admins|remote desktop users", text)
        scope.add(
            RiskLevel.CRITICAL,
            "privilege" if admin else "account",
            "adds an account or a group member through ADSI",
            m.start(),
            m.end(),
        )
    if "delete" in low and ("winnt:" in low or "ldap:" in low or "findbyidentity" in low):
        _adsi_account_deletes(code_text(), scope)  # (a printed string is data)
    m = _search(_STARTUP_FOLDER, text, low, plain)
    if m and _STARTUP_WRITE.search(text):
        # `$s = $shell.CreateShortcut("$home\…\Startup\x.lnk"); $s.Save()`: the folder is
        # named in a variable or a COM call, not in a write cmdlet's path.
        scope.add(
            RiskLevel.CRITICAL,
            "persistence-startup",
            "puts a file or shortcut in a Startup folder (runs at every logon)",
            m.start(),
            m.end(),
        )
    creates = (
        list(_WMICLASS_CREATE.finditer(text)) if may_match(_WMICLASS_CREATE, low, plain) else []
    )
    if "[wmiclass]" in low and not creates:
        wvar = _WMICLASS_VAR.search(text)
        if wvar is not None:
            # `$w = [wmiclass]'Win32_Process'; $w.Create('cmd /c …')`
            call = re.compile(
                r"(?i)" + re.escape(wvar.group(1)) + r"\s*\.\s*create\s*\(\s*(['\"])([^'\"]+)\1"
            )
            creates = list(call.finditer(text, wvar.end()))
    for wmi in creates:
        line = wmi.group(2)
        where = Word(line, wmi.start(2), wmi.end(2))
        if read_command_line(line):
            # (h19) a literal command line: judged below for what it runs
            scope.add(
                RiskLevel.MODERATE,
                "runs-program",
                "starts a process through WMI (judged below)",
                wmi.start(),
                wmi.end(),
            )
        else:
            scope.add(
                RiskLevel.CRITICAL,
                "lolbin-exec",
                "starts a process through WMI",
                wmi.start(),
                wmi.end(),
            )
        scope.include(scope.nested(line, "cmd", where, -1))
    m = _search(_AMSI, text, low, plain)
    if m:
        # Reflection into PowerShell's own protections (AMSI, script-block logging): they
        # exist to be switched off only by malware.
        scope.add(
            RiskLevel.CRITICAL,
            "disable-security",
            "turns off PowerShell's malware scanning or logging by reflection",
            m.start(),
            m.end(),
        )
    if "delete" in low:
        from aintern_ls.safety.windows import fso_deletes

        for path, folder, s0, e0 in fso_deletes(code_text()):
            value = (
                _ps_value(path)
                if path.startswith("[")
                else _resolve_vars(path)
                if "$" in path
                else path
            )
            if value is None:
                scope.add(RiskLevel.DANGEROUS, "delete", "deletes files through COM", s0, e0)
                continue
            flags = "-Recurse -Force" if folder else "-Force"
            line = f"Remove-Item {flags} -Path '{value.replace(chr(39), chr(39) * 2)}'"
            scope.include(scope.nested(line, "powershell", Word(line, s0, e0), -1))
    if "add-type" in low:
        from aintern_ls.safety.windows import compiled_code

        compiled_code(text, scope)  # inline C#/VB compiled, then called (n12w)
    if "dns]::" in low:
        _dotnet_dns(text, scope)
    if ".as" in low or ".php" in low or ".js" in low:
        from aintern_ls.safety.windows import web_root_writes

        web_root_writes(text, scope)
    m = _SOCKET_CLIENT.search(text[:20000]) if may_match(_SOCKET_CLIENT, low, plain) else None
    if m and _FILE_READ.search(text[:20000]) and re.search(r"(?i)\.(?:write|send\w*)\s*\(", text):
        # `$c = New-Object Net.Sockets.TcpClient(h, p); … [IO.File]::ReadAllBytes(f) …
        # $s.Write($b, …)`: a file's bytes written to a network socket.
        scope.add(
            RiskLevel.CRITICAL,
            "exfiltration",
            "reads a file and writes it to a network socket",
            m.start(),
            m.end(),
        )
    m = _search(_WEB_UPLOAD, text, low, plain)
    if m:
        # WebClient.UploadFile reads a file from disk; UploadData/String/Values send what
        # they are given: a literal is data, anything read or computed is exfiltration.
        sent = text[m.end() : m.end() + 400]
        literal = re.match(r"""\s*['"][^'"]*['"]\s*,\s*['"][^'"$]*['"]\s*\)""", sent)
        if m.group(1).lower() == "file" or literal is None:
            scope.add(
                RiskLevel.CRITICAL,
                "exfiltration",
                "uploads a file or computed data to the network",
                m.start(),
                m.end(),
            )
        else:
            scope.add(
                RiskLevel.MODERATE, "network", "sends data to a web server", m.start(), m.end()
            )
    m = _search(_NET_LOG_CLEAR, text, low, plain)
    if m:
        scope.add(
            RiskLevel.CRITICAL, "clear-logs", "clears an event log through .NET", m.start(), m.end()
        )
    m = _search(_IO_DELETE, text, low, plain)
    if m and _IO_DELETE.search(code_text()):
        scope.add(RiskLevel.DANGEROUS, "delete", "deletes files through .NET", m.start(), m.end())
    if ("directoryinfo" in low or "fileinfo" in low or "delete" in low) and (
        respelled := _item_objects_respelled(code_text())
    ) is not None:
        # `[IO.DirectoryInfo]::new(P).Delete($true)`, `New-Object IO.DirectoryInfo P | % {
        # $_.Delete($true) }`, `… | % Delete $true`: read again as the Get-Item / static .NET
        # calls they amount to, which the rules below know.
        _respelled_findings(respelled, text, scope)
    if "::" in text and "$" in text and (respelled := _held_types_respelled(text)) is not None:
        # (n19w) `$t = [type]'IO.Directory'; $t::Delete('C:\Windows', $true)`: a .NET type held
        # in a variable, its static members called through it, read as the type's own calls
        _respelled_findings(respelled, text, scope)
    if ("variable" in low or "gv " in low) and (
        respelled := _variable_reads_respelled(text, code_text(), scope.env)
    ) is not None:
        # (n19w) `$ExecutionContext.SessionState.PSVariable.Get('p').Value`, `$variable:p`,
        # `(Get-Item variable:p).Value`: read again as `$p`, which every rule below resolves
        _respelled_findings(respelled, text, scope)
    if (".foreach" in low or ".where" in low) and (
        respelled := _array_methods_respelled(code_text())
    ) is not None:
        _respelled_findings(respelled, text, scope)
    if ".moveto" in low or (
        ".delete" in low
        and (".directory" in low or ".parent" in low or ".root" in low or "getparent" in low)
    ):
        _member_chain_deletes(code_text(), scope)
    if ".delete" in low or "::delete" in low:
        _dotnet_deletes(code_text(), scope)
        for m in _VAR_DELETE.finditer(text[:20000]):
            held = scope.env.get(_PS_VAR + m.group(1).lower())
            if not held or m.group(1).lower() in ("$_", "$psitem"):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text.count("'", line_start, m.start()) % 2:
                continue  # inside a '…' string: text, not a call
            if m.group(2):
                held = _steps(held, m.group(2)) or ""  # (n13w) `$d.Parent.Delete($true)`
                if not held:
                    continue
            recursive = m.group(3).strip().lower() in ("$true", "1") or held.endswith("*")
            flags = "-Recurse -Force" if recursive else "-Force"
            line = f"Remove-Item {flags} -Path '{held.replace(chr(39), chr(39) * 2)}'"
            scope.include(scope.nested(line, "powershell", Word(line, m.start(), m.end()), -1))
    # A call `FromBase64String(` (not the word searched for as a pattern: data) run by iex.
    if (
        "frombase64string" in low
        and re.search(r"frombase64string\s*\(", low)
        and re.search(r"\biex\b|invoke-expression|::create", low)
    ):
        # (decoded text is judged as what it does; running it stays critical even when it
        # reads as harmless: test_safety_f7_families keeps `iex` of decoded base64 critical)
        packed = "deflate" if "deflatestream" in low else "gzip" if "gzipstream" in low else ""
        for m in _B64_LITERAL.finditer(text):
            decoded = _decode_b64(m.group(1), "unicode" in low[: m.start()].lower(), packed)
            if decoded:
                where = Word(decoded, m.start(1), m.end(1))
                scope.include(scope.nested(decoded, "powershell", where, -1))
        scope.add(
            RiskLevel.CRITICAL, "encoded-command", "decodes and runs hidden code", 0, len(text)
        )


# `[IO.Directory]::Delete(PATH, $true)`, `[IO.File]::Delete(PATH)`, and an item's own
# `.Delete()` (`(Get-Item PATH).Delete($true)`, `(gi PATH).Delete(1)`).
_NET_LOG_CLEAR = re.compile(
    r"(?i)eventlogsession\]?::globalsession\.clearlog\s*\(|\.clearlog\s*\("
    r"|\[(?:system\.)?diagnostics\.eventlog\]::new\s*\([^)]*\)\.clear\s*\("
    r"|diagnostics\.eventlog[^;|\n]{0,80}\)\s*\)?\.clear\s*\("
    r"|\[(?:system\.)?diagnostics\.eventlog\]::delete\s*\("
    r"|(?:get-eventlog|get-winevent)\s+-list\w*[^;\n]{0,80}\|[^;\n]{0,60}\$(?:_|psitem)\.clear\s*\("
)
_NET_WRITE = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::writealltext\s*\(\s*'([^']+)'\s*,\s*'((?:[^']|'')*)'\s*\)"
)
_NET_DELETE = re.compile(
    r"(?i)\[(?:system\.)?io\.(file|directory)\]::delete\s*\(\s*([^,()]+?)\s*(?:,\s*([^()]+?)\s*)?\)"
    r"|\(\s*(?:(?:get-item|gi)(?:\s+-(?:literal)?path)?|new-object\s+(?:-typename\s+)?"
    r"(?:system\.)?io\.(?:directory|file)info(?:\s+-argumentlist)?"
    r"|\[(?:system\.)?io\.(?:directory|file)info\](?:::new)?)"
    r"\s*\(?\s*([^()|;]+?)\s*\)?\s*\)(?:\.parent)*\.delete\s*\(\s*([^()]*?)\s*\)"
    # `[IO.DirectoryInfo]::new("$env:windir").Delete($true)`: constructed and deleted at once
    r"|\[(?:system\.)?io\.(?:directory|file)info\]::new\s*\(\s*([^()|;]+?)\s*\)"
    r"(?:\.parent)*\.delete\s*\(\s*([^()]*?)\s*\)"
)
# (r15: PowerShell's member access takes no blank around the dot; `(x) .Parent` is not one)


# `[IO.File]::WriteAllBytes("\\.\PhysicalDrive0", …)`, `[IO.File]::Copy(a, '/etc/passwd')`,
# `[IO.FileStream]::new('\\.\PhysicalDrive0', 'Open', 'Write')`: .NET writes to a named path.
_NET_PATH_WRITE = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::(?:writeall(?:text|bytes|lines)|appendall(?:text|lines)"
    r"|create|openwrite|open|writeallbytesasync|writealltextasync)\s*\(\s*(['\"])([^'\"]+)\1"
    r"|\[(?:system\.)?io\.file\]::(?:copy|move|replace)\s*\(\s*[^,()]+,\s*(['\"])([^'\"]+)\3"
    r"|(?:\[(?:system\.)?io\.filestream\]::new|new-object\s+(?:system\.)?io\.filestream)"
    r"\s*\(?\s*(['\"])([^'\"]+)\5"
)


# `[IO.Compression.ZipFile]::ExtractToDirectory(SRC, DEST[, …])`, `$zip.ExtractToDirectory(
# DEST)` on an archive object: where the archive's files land.
_NET_EXTRACT = re.compile(
    r"(?i)(?:\[(?:system\.)?io\.compression\.zipfile\]::extracttodirectory\s*\(\s*[^,()]+,"
    r"|\.extracttodirectory\s*\()\s*(['\"])([^'\"]+)\1"
)


# Any .NET file write (`[IO.File]::WriteAllText("$env:TEMP\\a.bat", $t)`, WriteAllLines,
# AppendAllText, WriteAllBytes) and a string written by redirection (`'…' > w.bat`).
_NET_ANY_WRITE = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::(write|append)all(text|lines|bytes)\s*\(\s*"
    r"(?:'([^']+)'|\"([^\"]+)\")\s*,\s*(?:'((?:[^']|'')*)'\s*[,)]|\"([^\"`$]*)\"\s*[,)])?"
)
_LINES_ARRAY = re.compile(
    r"[ \t]*(?:,[ \t]*)?@?\([ \t]*((?:'[^'\n]{0,2000}'|\"[^\"`$\n]{0,2000}\")"
    r"(?:[ \t]*,[ \t]*(?:'[^'\n]{0,2000}'|\"[^\"`$\n]{0,2000}\")){0,200})[ \t]*\)"
)
_STRING_REDIRECT = re.compile(
    r"(?im)(?:^|[;{])\s*(?:(?:echo|write-output)\s+)?(?:'((?:[^']|'')*)'|\"([^\"`$]*)\")"
    r"\s*(>>?)\s*(?:'([^']+)'|\"([^\"]+)\"|([^\s;|'\"]+))"
)


# `while ($true) { Start-Process powershell }`, `for (;;) { saps cmd }`, `do { … } while
# (1)`: an endless loop whose body starts processes (no break/exit in it) exhausts the machine.
_PS_SPAWN = (
    r"(?:start-process|saps|start|invoke-item|ii|start-job|sajb|start-threadjob"
    r"|\[(?:system\.)?diagnostics\.process\]::start)\b(?!-)"
)
_LOOP_BODY = r"(?:[^{}]|\{[^{}]{0,200}\}){0,400}"  # (one level of nested blocks)
_ALWAYS = r"(?:\$true|1|!\s*\$false|-not\s+\$false|\$true\s+-eq\s+\$true|1\s+-eq\s+1)"
_ENDLESS_SPAWN = re.compile(
    r"(?is)(?:\bwhile\s*\(\s*" + _ALWAYS + r"\s*\)|\bfor\s*\([^;()]{0,80};\s*;[^;()]{0,80}\))"
    r"\s*\{[^{}]{0,400}?"
    + _PS_SPAWN
    + _LOOP_BODY
    + r"\}"
    + r"|\bdo\s*\{[^{}]{0,400}?"
    + _PS_SPAWN
    + _LOOP_BODY
    + r"\}\s*(?:while\s*\(\s*"
    + _ALWAYS
    + r"\s*\)|until\s*\(\s*(?:\$false|0)\s*\))"
    # `1..[int]::MaxValue | % { Start-Process cmd }`: a range too long to ever finish
    + r"|(?:\d+\s*\.\.\s*(?:\[(?:int|int32|int64|long)\]::maxvalue|\d{6,}|\d+e\d+))\s*\|\s*"
    r"(?:%|foreach-object|foreach)\s*\{[^{}]{0,400}?" + _PS_SPAWN + _LOOP_BODY + r"\}"
)


_FUNC_HEAD = re.compile(r"(?i)\b(?:function|filter)\s+([\w-]{1,64})\s*(\(([^()]{0,400})\))?\s*\{")
_PARAM_BLOCK = re.compile(r"(?i)\A\s*param\s*\(([^()]{0,400})\)")
_PS_ARG = re.compile(r"'(?:[^']|'')*'|\"[^\"$`]*\"|[^\s;|&(){}'\"]+")


# `ForEach-Object -InputObject C:\Windows -Process { Remove-Item $_ … }` (any unique prefix
# of the parameter, `%` too): the object named is the block's `$_`, as if piped in (h17).
# (r17) the parameter anywhere in the statement (after the block too), its value a word, a
# string, a variable, `( … )` or `@( … )`.
_FOREACH_CMD = re.compile(r"(?i)(?<![\w$-])(foreach-object|%)(?=\s)")
_IN_PARAM = re.compile(
    r"(?i)(?<=\s)-in(?:p(?:u(?:t(?:o(?:b(?:j(?:e(?:c(?:t)?)?)?)?)?)?)?)?)?(?::\s*|\s+)"
)
_IN_WORD = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|\$[\w:]+|[^\s{}|;'\"()]+")


def _input_value_end(text: str, j: int, stop: int) -> int:
    """The end of the `-InputObject` value starting at `j` (-1: none)."""
    if text.startswith("@(", j) or text.startswith("(", j):
        # (D8) the quote-aware closer: a `)` inside a quoted string does not close it
        close = _balanced_close(text[:stop], text.index("(", j))
        return close + 1 if close >= 0 else -1
    w = _IN_WORD.match(text, j, stop)
    return w.end() if w is not None else -1


def _input_object_piped(text: str, scope: Scope) -> None:
    """Judge each ForEach-Object given `-InputObject VALUE` again as `VALUE | ForEach-Object
    …` (the rest of its statement), which the pipeline rules bind to `$_`."""
    text = text[:20000]
    code = code_only(text)  # (the same length: strings and comments blanked)
    found = 0
    for m in _FOREACH_CMD.finditer(code):
        if found >= 4:
            break
        stop = text.find("\n", m.end())
        stop = len(text) if stop < 0 else stop
        depth, k, param = 0, m.end(), None
        while k < stop:
            c = code[k]
            if c in "'\"":
                # (D8) a quoted `)`/`|` inside the value is text, not structure
                q = code.find(c, k + 1, stop)
                k = stop if q < 0 else q + 1
                continue
            if c in "{(":
                depth += 1
            elif c in "})":
                depth -= 1
                if depth < 0:
                    stop = k
                    break
            elif depth == 0 and c in "|;":
                stop = k
                break
            elif depth == 0 and c == "-" and param is None:
                param = _IN_PARAM.match(code, k)
            k += 1
        if param is None or param.end() >= stop:
            continue
        v_end = _input_value_end(text, param.end(), stop)
        if v_end < 0:
            continue
        found += 1
        value = text[param.end() : v_end]
        if value[0] not in "'\"$(@":
            value = "'" + value + "'"  # (a bare word is a string argument, not a command)
        rest = text[m.end() : param.start()] + text[v_end:stop]
        piped = f"{value} | {m.group(1)}{rest}"
        scope.include(scope.nested(piped, "powershell", Word(piped, m.start(), stop)))


# (n18w) `function prompt { … }`, `function global:prompt { … }`, `$function:prompt = { … }`,
# `Set-Item function:prompt { … }`: the body runs every time the prompt is drawn (a hook).
_PROMPT_DEF = re.compile(
    r"(?i)(?:\bfunction\s+(?:global:|script:)?prompt\s*|\$function:(?:global:)?prompt\s*=\s*"
    r"|\b(?:set-item|si|new-item|ni)\s+(?:-path\s+)?function:[\\/]?(?:global:)?prompt\s+(?:-value\s+)?"
    # the engine's own hooks: every command looked up, or not found, runs the block
    r"|\$executioncontext\.invokecommand\.(?:pre|post)?command(?:lookup|notfound)action\s*=\s*)\{"
)


def _prompt_hooks(text: str, scope: Scope) -> None:
    from aintern_ls.safety.windows import hook_body

    code = code_only(text[:20000])  # (a definition inside a printed string is text)
    for n, m in enumerate(_PROMPT_DEF.finditer(code)):
        if n >= 4:
            break
        close = _brace_close(text, m.end() - 1)
        if close < 0:
            continue
        hook_body(
            text[m.end() - 1 : close + 1], Word("prompt", m.start(), close + 1), scope, "prompt"
        )


def _brace_close(text: str, open_at: int) -> int:
    """The index of the `}` closing the `{` at `open_at` (quotes skipped), or -1."""
    return _quoted_close(text, open_at, "{", "}", 8000)


def _function_calls(text: str, scope: Scope) -> None:
    """`function Zap($t) { Remove-Item $t -Recurse -Force }; Zap $env:ProgramFiles`: a
    function's parameters are the call's arguments. Each call with literal (or well-known)
    arguments is judged as the body with the parameters replaced (safety-m7)."""
    if len(text) > 20000:
        return
    seen: set[tuple[str, str]] = set()
    for n_def, m in enumerate(_FUNC_HEAD.finditer(text)):
        if n_def >= 8:
            break  # (a few functions are what a block defines; more is a flood)
        open_at = m.end() - 1
        depth, k = 0, open_at
        stop = min(len(text), open_at + 4000)
        while k < stop:
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        if depth != 0:
            continue
        body = text[open_at + 1 : k]
        params_text = m.group(3)
        pb = _PARAM_BLOCK.match(body)
        if params_text is None and pb is not None:
            params_text = pb.group(1)
            body = body[pb.end() :]
        params = re.findall(r"\$(\w+)", params_text or "")
        # `param([string]$Dir = $env:USERPROFILE)`: a default is the value when not given.
        defaults = {
            d.group(1): d.group(2)
            for d in re.finditer(
                r"\$(\w+)\s*=\s*('(?:[^']|'')*'|\"[^\"`]*\"|\$\{?(?:env:)?\w+\}?)",
                params_text or "",
            )
        }
        # `function z { Remove-Item @args }`: the call's arguments are splatted in whole.
        splat = re.search(r"(?i)[@$]args\b", body) is not None
        # `filter f { Remove-Item $_ }; 'C:\x' | f`: each piped value is `$_`.
        piped = re.search(r"(?i)\$_(?!\w)|\$psitem\b|\$input\b", body) is not None
        if not splat and not piped and (not params or "$" not in body):
            continue
        name = m.group(1)
        calls = re.finditer(
            rf"(?im)(?:^|[;|&{{(]\s*|\bthen\s+)\s*{re.escape(name)}"
            r"(?:[ \t]+([^;\n|}]*)|(?=[ \t]*(?:[;\n|}]|$)))",
            text[k + 1 :],
        )
        for n_call, call in enumerate(calls):
            call_args = call.group(1) or ""
            if n_call >= 8 or (name, call_args) in seen:
                continue
            seen.add((name, call_args))
            args = _PS_ARG.findall(call_args)
            bound: dict[str, str] = {}
            positional = [a for a in args if not a.startswith("-")]
            for i, a in enumerate(args):
                name_value = re.fullmatch(r"-(\w+):(.+)", a)
                if name_value is not None:
                    # `Zap -Dir:C:\Windows`: the value glued to its parameter by `:`
                    key = name_value.group(1).lower()
                    hit = next((p for p in params if p.lower() == key), None)
                    if hit is not None:
                        bound[hit] = name_value.group(2)
                    continue
                if a.startswith("-") and i + 1 < len(args):
                    key = a[1:].lower()
                    hit = next((p for p in params if p.lower() == key), None)
                    if hit is not None:
                        bound[hit] = args[i + 1]
                        if args[i + 1] in positional:
                            positional.remove(args[i + 1])
            for p in params:
                if p not in bound and positional:
                    bound[p] = positional.pop(0)
            for p, v in defaults.items():
                if p not in bound:
                    bound[p] = v
            before = text[max(0, k + 1 + call.start() - 400) : k + 1 + call.start() + 1]
            feed = (
                re.search(r"""('(?:[^']|'')*'|"[^"`$]*")\s*\|\s*\Z""", before.rstrip(" \t|") + "|")
                if piped and before.rstrip().endswith("|")
                else None
            )
            if feed is not None:
                bound["_"] = feed.group(1)
                bound["psitem"] = feed.group(1)
            if not bound and not splat:
                continue
            code = body
            if splat:
                whole = " ".join(args).replace("\\", "\\\\")
                code = re.sub(r"(?i)[@$]args\b(?!\s*\[)", whole, code)
                for i, a in enumerate(args[:8]):
                    code = re.sub(rf"(?i)\$args\s*\[\s*{i}\s*\]", a.replace("\\", "\\\\"), code)
            for p, v in bound.items():
                code = re.sub(rf"(?i)\$\{{?{re.escape(p)}\}}?(?!\w)", v.replace("\\", "\\\\"), code)
            at = k + 1 + call.start()
            where = Word(code, at, k + 1 + call.end())
            scope.include(scope.nested(code, "powershell", where, -1))


def _written_base(path: str) -> str | None:
    base = path.replace("/", "\\").rsplit("\\", 1)[-1].strip()
    return None if not base or re.search(r"[$%`]", base) else base


def _written_files(text: str, scope: Scope) -> None:
    """Files this block writes whose text it knows (remembered, so running them is judged
    by that text) or does not know (.NET writes of a computed string: unseen, so running
    them is opaque)."""
    from aintern_ls.safety.wrappers import remember_unseen

    for m in _NET_ANY_WRITE.finditer(text[:20000]):
        base = _written_base(m.group(3) or m.group(4) or "")
        if base is None:
            continue
        body = m.group(5) if m.group(5) is not None else m.group(6)
        if body is None and m.group(2).lower() == "lines":
            # (f18) `WriteAllLines('f', @('a', "b"))`: an array of literal lines
            arr = _LINES_ARRAY.match(text, m.end())
            if arr is not None:
                body = "\n".join(
                    x[1:-1].replace("''", "'") for x in re.findall(r"'[^']*'|\"[^\"`$]*\"", arr[1])
                )
        if body is None or m.group(2).lower() == "bytes":
            remember_unseen(scope, base, "was written with text only known at run time")
            continue
        old = scope.written.get(base) if m.group(1).lower() == "append" else None
        scope.written[base] = ((old[0] if old else "") + body.replace("''", "'") + "\n", -1)
        scope.unseen.pop(base, None)
    for m in _STRING_REDIRECT.finditer(text[:20000]):
        base = _written_base(m.group(4) or m.group(5) or m.group(6) or "")
        if base is None or base.lower() in ("$null", "nul"):
            continue
        body = m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)
        old = scope.written.get(base) if m.group(3) == ">>" else None
        scope.written[base] = ((old[0] if old else "") + body + "\n", -1)
        scope.unseen.pop(base, None)


# `[Net.Dns]::GetHostAddresses("$env:USERNAME.x.example")`: .NET's resolver, like nslookup.
_NET_DNS = re.compile(
    r"(?i)\[(?:system\.)?net\.dns\]::(?:get\w+|resolve|begin\w+)\s*\(([^;\n]{0,400})"
)
_PUBLIC_NAME = re.compile(
    r"(?i)\.[\w-]+\.(?!(?:local|lan|internal|intranet|localdomain|home|corp|ad|test)\b)"
    r"[a-z]{2,}\b"
)


def _dotnet_dns(text: str, scope: Scope) -> None:
    """A name built at run time (a variable, `$(…)`, a command's output) in front of a
    public domain, resolved through .NET: DNS exfiltration."""
    for m in _NET_DNS.finditer(text[:20000]):
        arg = m.group(1)
        runtime = "$" in arg or re.search(r"\(\s*[A-Za-z]", arg) is not None
        if runtime and _PUBLIC_NAME.search(arg):
            scope.add(
                RiskLevel.CRITICAL,
                "exfiltration",
                ".NET resolves a name holding a run-time value (DNS exfiltration)",
                m.start(),
                m.end(),
            )
            return
        # (h19) a literal name looked up (`[Net.Dns]::GetHostAddresses('example.com')`) is
        # a DNS query, read-only like nslookup/dig/host (safe): one convention for every
        # shell's resolver


_NET_PROFILE_WRITE = re.compile(
    r"(?i)\[(?:system\.)?io\.file\]::(?:writeall\w*|appendall\w*|create\w*|openwrite|appendtext"
    r"|copy|move)\s*\((?:[^()]*,)?\s*[\"(]?\s*\$profile\b"
)


def _dotnet_writes(text: str, scope: Scope) -> None:
    """Judge the path a .NET file write names like a redirect to it: raw disks and account
    files are blocked, startup files persistence."""
    from aintern_ls.safety.paths import is_device, write_target

    m = _NET_PROFILE_WRITE.search(text[:20000])
    if m is not None:
        scope.add(
            RiskLevel.CRITICAL,
            "persistence",
            ".NET writes a PowerShell profile (runs at every start)",
            m.start(),
            m.end(),
        )
    for m in _NET_PATH_WRITE.finditer(text[:20000]):
        path = m.group(2) or m.group(4) or m.group(6) or ""
        if m.group(6) and "write" not in text[m.end() : m.end() + 80].lower():
            continue  # a stream opened for reading
        if is_device(path):
            scope.add(
                RiskLevel.BLOCKED,
                "disk-write",
                f".NET writes raw bytes to the disk device {path}",
                m.start(),
                m.end(),
            )
            continue
        t = write_target(path, scope.cwds)
        if t is not None:
            scope.add(t.level, t.rule, f".NET writes to {t.what}", m.start(), m.end())
    for m in _NET_EXTRACT.finditer(text[:20000]):
        # `[IO.Compression.ZipFile]::ExtractToDirectory('a.zip', "$env:APPDATA\…\Startup")`:
        # an archive unpacked into a start-up folder is persistence (safety-m8)
        folder = (m.group(2) or "").rstrip("\\/")
        t = write_target(folder + "\\x", scope.cwds) if folder else None
        if t is not None and t.level >= RiskLevel.CRITICAL:
            scope.add(
                RiskLevel.CRITICAL,
                t.rule if t.rule == "persistence" else "system-file",
                f".NET extracts an archive into {folder}",
                m.start(),
                m.end(),
            )
        else:
            scope.add(RiskLevel.MODERATE, "write", ".NET extracts an archive", m.start(), m.end())


# `[IO.DirectoryInfo]::new(ARG)`, `New-Object [-TypeName] System.IO.FileInfo [-ArgumentList]
# ARG`: an item object for a path (its arguments are read with `_balanced_close`).
_ITEM_CTOR = re.compile(
    r"(?i)\[\s*(?:system\.)?io\.(directory|file)info\s*\]\s*::\s*new\s*\("
    r"|\bnew-object\s+(?:-typename\s+)?(?:system\.)?io\.(directory|file)info\b\s*"
    r"(?:-argumentlist\s*)?"
)
# `… | % Delete $true`, `ForEach-Object -MemberName Delete -ArgumentList $true`
_MEMBER_DELETE = re.compile(
    r"(?i)(?<![\w-])(?:%|foreach-object)\s+(?:-membername\s+)?['\"]?delete['\"]?"
    r"(?:\s+(?:-argumentlist\s+)?(\$true|\$false|1|0))?(?=\s*(?:[|;})]|$))"
)


# (n19w) a .NET type put in a variable: `$t = [type]'IO.Directory'`, `$t = [IO.File]`,
# `$t = 'System.IO.Directory' -as [type]`
_TYPE_HELD = re.compile(
    r"(?i)\$(\w+)\s*=\s*(?:\[type\]\s*['\"]([\w.]+)['\"]|\[([\w.]+)\](?=\s*(?:;|\n|\Z))"
    r"|['\"]([\w.]+)['\"]\s*-as\s*\[type\])"
)


def _held_types_respelled(text: str) -> str | None:
    """`text` with `$t::Member` written `[Type]::Member` for each variable assigned a type
    (see _TYPE_HELD); None when there is none."""
    if len(text) > 20000:
        return None
    held: dict[str, str] = {}
    for m in _TYPE_HELD.finditer(text):
        held[m.group(1).lower()] = m.group(2) or m.group(3) or m.group(4)
        if len(held) > 8:
            break
    if not held:
        return None
    out = re.sub(
        r"(?i)\$(\w+)(?=\s*::)",
        lambda v: (
            "[" + held[v.group(1).lower()] + "]" if v.group(1).lower() in held else v.group(0)
        ),
        text,
    )
    return out if out != text else None


# (n19w, n20w) the doors to a variable's value by its name, ONE table read by one helper
# (`variable_read_name`) for both the word resolver (`_returned_folder`, `_chosen_value`) and
# the whole-text respelling: Get-Variable (name first positional or `-Name`, any order of
# `-Scope`/`-ErrorAction`/`-ValueOnly`; the value by `.Value`, `-ValueOnly` or a
# `| Select-Object -ExpandProperty Value` stage; a name held in a variable), the Variable:
# drive (`(Get-Item variable:p).Value`, `(Get-Content variable:p)`, `$variable:p`,
# `${variable:p}`), the session state's PSVariable API (`.Get('p').Value`,
# `.GetValue('p')`, parenthesised or not).
_VARIABLE_GETTERS = frozenset({"get-variable", "gv"})
_VARIABLE_ITEMS = frozenset({"get-item", "gi", "get-childitem", "gci", "ls", "dir"})
_VARIABLE_CONTENTS = frozenset({"get-content", "gc", "cat", "type"})
_VARIABLE_SELECTS = frozenset({"select-object", "select"})
_VARIABLE_EACH = frozenset({"foreach-object", "foreach", "%"})
# (Get-Variable's parameters that take a value and do not change which variable is read)
_VARIABLE_TAKES = ("scope", "erroraction", "ea", "warningaction", "wa", "errorvariable", "ev")
_VARIABLE_API = re.compile(
    r"(?i)\$executioncontext\s*\.\s*sessionstate\s*\.\s*psvariable\s*\.\s*(getvalue|get)\s*\(\s*"
    r"(?:'(\w+)'|\"(\w+)\")\s*\)"
)
_VARIABLE_DRIVE = re.compile(r"(?i)\$(?:\{variable:(\w+)\}|variable:(\w+))")
_VALUE_MEMBER = re.compile(r"(?i)\s*\.\s*value\b")
# where a door may start in a text (the helper above decides whether it is one)
_VARIABLE_READ_AT = re.compile(
    r"(?i)\$\{?variable:|\$executioncontext\b"
    r"|\((?=\s*(?:get-variable|gv|get-item|gi|get-childitem|gci|ls|dir|get-content|gc|cat|type)"
    r"\s|\s*(?:\(\s*)?\$executioncontext\b)|(?<![\w-])(?:get-variable|gv)\s"
)
_VARIABLE_WORD = re.compile(r"""\s*('[^']*'|"[^"`$]*"|[^\s'"|;(){}]+)""")


def _variable_words(stage: str) -> list[str] | None:
    """The words of a simple command (quotes kept), or None when it holds anything else."""
    words: list[str] = []
    at = 0
    stage = stage.strip()
    while at < len(stage):
        m = _VARIABLE_WORD.match(stage, at)
        if m is None:
            return None
        words.append(m.group(1))
        at = m.end()
        if len(words) > 12:
            return None
    return words


def _variable_name_word(word: str, env: Mapping[str, str] | None) -> str | None:
    """The variable name a Get-Variable name argument gives: a literal (`p`, `'p'`) or a
    variable holding one (`$n` of `$n = 'p'`)."""
    if word[:1] in "'\"":
        word = word[1:-1]
    if word[:1] == "$":
        word = (env or {}).get(_PS_VAR + word.lower(), "")
    return word if re.fullmatch(r"\w+", word) else None


def variable_read_name(raw: str, env: Mapping[str, str] | None = None) -> str | None:
    """The name of the variable whose value `raw` reads through one of the doors above
    (without its `$`), or None."""
    s = raw.strip()
    low = s.lower()
    if len(s) > 400 or ("variable" not in low and "gv" not in low):
        return None
    value = False  # (`.Value` read off the result)
    while True:
        if not value and (m := re.search(r"(?i)\.\s*value\Z", s)) is not None:
            value, s = True, s[: m.start()].rstrip()
        elif s[:2] == "$(" and _balanced_close(s, 1) == len(s) - 1:
            s = s[2:-1].strip()
        elif s[:1] == "(" and _balanced_close(s, 0) == len(s) - 1:
            s = s[1:-1].strip()
        else:
            break
    if (m := _VARIABLE_DRIVE.fullmatch(s)) is not None:
        return None if value else m.group(1) or m.group(2)
    if (m := _VARIABLE_API.fullmatch(s)) is not None:
        return m.group(2) or m.group(3) if value == (m.group(1).lower() == "get") else None
    stages = s.split("|")
    if len(stages) > 2 or (words := _variable_words(stages[0])) is None or not words:
        return None
    if len(stages) == 2:
        # `… | Select-Object -ExpandProperty Value`, `… | ForEach-Object Value`
        then = _variable_words(stages[1]) or [""]
        tail = [w.lower().strip("'\"") for w in then[1:]]
        head = then[0].lower()
        if (
            value
            or not (
                (
                    head in _VARIABLE_SELECTS
                    and len(tail) == 2
                    and "expandproperty".startswith(tail[0][1:])
                    and len(tail[0]) > 2
                )
                or (head in _VARIABLE_EACH and tail in (["value"], ["-membername", "value"]))
            )
            or tail[-1] != "value"
        ):
            return None
        value = True
    program = words[0].lower()
    if program in _VARIABLE_GETTERS:
        name: str | None = None
        only = False
        i = 1
        while i < len(words):
            w = words[i].lower()
            if w[:1] == "-" and len(w) > 1:
                p = w[1:].rstrip(":")
                if len(p) > 1 and "valueonly".startswith(p):
                    only = True
                elif "name".startswith(p) and i + 1 < len(words) and name is None:
                    i += 1
                    name = words[i]
                elif any(t.startswith(p) for t in _VARIABLE_TAKES) and i + 1 < len(words):
                    i += 1
                else:
                    return None
            elif name is None:
                name = words[i]
            else:
                return None
            i += 1
        if name is None or only == value:
            return None
        return _variable_name_word(name, env)
    items = program in _VARIABLE_ITEMS
    if (not items and program not in _VARIABLE_CONTENTS) or items != value:
        return None
    rest = [w for w in words[1:] if w.lower() not in ("-path", "-literalpath", "-lp")]
    if len(rest) != 1:
        return None
    m = re.fullmatch(r"(?i)variable:[\\/]?(\w+)", rest[0].strip("'\""))
    return m.group(1) if m is not None else None


def _char_before(code: str, at: int) -> str:
    """The last character before `at` that is not a blank (spaces, tabs), or ""."""
    while at > 0 and code[at - 1] in " \t\r":
        at -= 1
    return code[at - 1] if at else ""


def _variable_read_spans(
    code: str, env: Mapping[str, str] | None
) -> list[tuple[int, int, str, bool]]:
    """The reads of variable values by name in `code`: (start, end, name, in place), where
    `in place` says the word resolver reads it where it stands (a whole argument of a
    command, or a `$variable:p` reference outside a string), so no respelling is needed
    for it. One pass: the quote parity of the line is carried from read to read."""
    found: list[tuple[int, int, str, bool]] = []
    at = 0
    # (a function's body is read where it is called, with the variables of that point)
    low = code.lower()
    defines = "function" in low or "filter" in low
    counted, odd = 0, False  # (`"` seen on the current line up to `counted`: odd or not)

    def quoted(p: int) -> bool:
        nonlocal counted, odd
        line = code.rfind("\n", counted, p)
        if line >= 0:
            counted, odd = line + 1, False
        odd ^= code.count('"', counted, p) % 2 == 1
        counted = p
        return odd

    for m in _VARIABLE_READ_AT.finditer(code):
        p = m.start()
        if p < at:
            continue
        c = code[p]
        ends: list[int] = []
        if c == "(":
            close = _balanced_close(code, p)
            if close < 0:
                continue
            ends.append(close + 1)
        elif c == "$" and code[p + 1 : p + 2].lower() == "e":
            api = _VARIABLE_API.match(code, p)
            if api is None:
                continue
            ends.append(api.end())
        elif c == "$":
            drive = _VARIABLE_DRIVE.match(code, p)
            if drive is None:
                continue
            # (the word resolver reads `$variable:p` as `$p`; inside an expandable string
            # it is text to it)
            name = drive.group(1) or drive.group(2)
            found.append((p, drive.end(), name, not quoted(p) and not defines))
            at = drive.end()
            continue
        else:
            # `Get-Variable p -ValueOnly | Remove-Item …`, `gv p | select -exp Value | …`: a
            # first stage of a pipe (the value is what the next stage receives)
            if _char_before(code, p) not in ("", ";", "\n", "{"):
                continue
            bar = code.find("|", p, p + 400)
            if bar < 0:
                continue
            ends.append(bar)
            second = code.find("|", bar + 1, bar + 200)
            if second > 0:
                ends.insert(0, second)
            for end in ends:
                name = variable_read_name(code[p:end], env)
                if name is not None:
                    found.append((p, end, name, False))
                    at = end
                    break
            continue
        if (v := _VALUE_MEMBER.match(code, ends[0])) is not None:
            ends.insert(0, v.end())
        for end in ends:
            name = variable_read_name(code[p:end], env)
            if name is None:
                continue
            whole = (
                c == "("  # (the API's member chain is not a word the resolver reads)
                and not defines
                and code[p - 1 : p].isspace()
                and _char_before(code, p) not in ("", ";", "{", "(", "|", "=", ",", "\n")
                and code[end : end + 1] in ("", " ", "\t", "\n", ";", ")", "}", "\r")
                and not quoted(p)
            )
            found.append((p, end, name, whole))
            at = end
            break
    return found


# (n19w) the doors to a variable's value WRITTEN by its name: `Set-Item variable:t X`,
# `New-Item -Path variable:t -Value X`, `$ExecutionContext.SessionState.PSVariable.Set('t', X)`
# (as `$t = X`); a PSVariable object held (`$v = Get-Variable t`, then `$v.Value`)
_VARIABLE_WRITES = re.compile(
    r"(?i)\b(?:set-item|si|new-item|ni)\s+(?:-path\s+)?['\"]?variable:[\\/]?(\w+)['\"]?\s+(?:-value\s+)?"
    r"|\$executioncontext\s*\.\s*sessionstate\s*\.\s*psvariable\s*\.\s*set\s*\(\s*['\"](\w+)['\"]\s*,"
)
_VARIABLE_OBJECT = re.compile(
    r"(?i)\$(\w+)\s*=\s*(?:get-variable|gv)\s+(?:-name\s+)?['\"]?(\w+)['\"]?\s*(?=;|\n|\Z)"
)


def _variable_writes_respelled(text: str) -> str:
    """`text` with the writes and held objects of _VARIABLE_WRITES/_VARIABLE_OBJECT spelled
    as plain assignments and reads (`$t = (X)`, `$t`)."""
    out = _VARIABLE_WRITES.sub(
        lambda m: f"${m.group(1)} = " if m.group(1) else f"${m.group(2)} = (", text
    )
    held = {m.group(1).lower(): m.group(2) for m in _VARIABLE_OBJECT.finditer(out)}
    if held:
        out = re.sub(
            r"(?i)\$(\w+)\.value\b",
            lambda v: "$" + held[v.group(1).lower()] if v.group(1).lower() in held else v.group(0),
            out,
        )
    return out


def _variable_reads_respelled(
    text: str, code: str, env: Mapping[str, str] | None = None
) -> str | None:
    """`text` with every read of a variable's value by its name (see `variable_read_name`)
    as the variable itself, `$p`, and the writes of `_variable_writes_respelled` as plain
    assignments; None when no read needs it (none, or each one read where it stands by the
    word resolver: a whole argument, a `$variable:p`). The reads are found in `code` (the
    same text with its data strings blanked, same length): a read spelled inside a printed
    string is data."""
    if len(text) > 20000 or len(code) != len(text):
        return None
    spans = _variable_read_spans(code, env)
    written = _variable_writes_respelled(text) if "variable" in code.lower() else text
    if written == text and all(whole for _s, _e, _n, whole in spans):
        return None
    out: list[str] = []
    at = 0
    for start, end, name, _whole in spans:
        out.append(text[at:start] + "$" + name)
        at = end
    joined = "".join(out) + text[at:]
    return _variable_writes_respelled(joined)


def _item_objects_respelled(text: str) -> str | None:
    """`text` with .NET item objects spelled as what reads them elsewhere: a constructor
    followed by `.Delete(F)` / `.MoveTo(D)` as `[IO.Directory]::Delete(P, F)` /
    `[IO.Directory]::Move(P, D)`, any other constructor as `(Get-Item P)`, and a member-name
    `% Delete $true` as `% { $_.Delete($true) }`; None when nothing changes."""
    if len(text) > 20000:
        return None
    out: list[str] = []
    at = 0
    changed = False
    for m in _ITEM_CTOR.finditer(text):
        if m.start() < at:
            continue
        kind = (m.group(1) or m.group(2)).lower()
        if m.group(1) is not None:
            close = _balanced_close(text, m.end() - 1)
            if close < 0:
                continue
            arg, end = text[m.end() : close].strip(), close + 1
        else:
            am = _CTOR_ARG.match(text, m.end())
            if am is None:
                continue
            arg, end = am.group(0).strip(), am.end()
            if arg.startswith("(") and arg.endswith(")"):
                arg = arg[1:-1].strip()
        if not arg:
            continue
        value = _ps_value(arg)
        path = "'" + value.replace("'", "''") + "'" if value is not None else arg
        cls = "Directory" if kind == "directory" else "File"
        call = _ITEM_CALL.match(text, end)
        if call is not None:
            cclose = _balanced_close(text, call.end() - 1)
            if cclose < 0:
                continue
            inner = text[call.end() : cclose].strip()
            method = "Delete" if call.group(1).lower() == "delete" else "Move"
            args = f"{path}, {inner}" if inner else path
            before = text[at : m.start()]
            if call.group(0).lstrip().startswith(")") and before.rstrip().endswith("("):
                before = before.rstrip()[:-1]  # `(New-Object … P).Delete(…)`
            out.append(before + f"[IO.{cls}]::{method}({args})")
            at = cclose + 1
        else:
            # (New-Object is a command: a pipeline's first stage, as Get-Item is)
            item = f"Get-Item {path}" if m.group(2) is not None else f"(Get-Item {path})"
            out.append(text[at : m.start()] + item)
            at = end
        changed = True
    out.append(text[at:])
    result = "".join(out)
    if "delete" in result.lower():
        respelled = _MEMBER_DELETE.sub(
            lambda d: "% { $_.Delete(" + (d.group(1) or "") + ") }", result
        )
        changed = changed or respelled != result
        result = respelled
    return result if changed else None


# A bare constructor argument of New-Object: a quoted string, a variable, a parenthesised
# expression, or a plain word.
_CTOR_ARG = re.compile(
    r"""\s*(?:'(?:[^']|'')*'|"[^"]*"|\$[\w:{}]+|\((?:[^()]|\([^()]*\))*\)|[^\s;|()]+)"""
)
_ITEM_CALL = re.compile(r"(?i)\s*\)?\s*\.\s*(delete|moveto)\s*\(")


def _balanced_close(text: str, open_at: int) -> int:
    """The index of the `)` closing the `(` at `open_at` (quotes skipped), or -1."""
    return _quoted_close(text, open_at, "(", ")", 4000)


def _quoted_close(text: str, open_at: int, opener: str, closer: str, span: int) -> int:
    """The index of the `closer` matching the `opener` at `open_at`, skipping quoted text,
    looking at most `span` characters ahead; -1 when it is not closed there."""
    depth = 0
    i = open_at
    n = min(len(text), open_at + span)
    while i < n:
        c = text[i]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i
        elif c in "'\"":
            j = text.find(c, i + 1)
            if j < 0:
                return -1
            i = j
        i += 1
    return -1


_CHAIN_DELETE = re.compile(r"(?i)\.(?:delete|moveto)\s*\(")
_CHAIN_STEP = re.compile(r"(?i)\.(?:directory|parent|root)\b|getparent\s*\(")
_PROFILE_FILE = "'~\\Documents\\WindowsPowerShell\\Microsoft.PowerShell_profile.ps1'"


def _receiver(text: str, dot: int) -> int:
    """Where the expression whose member is called at `dot` (`(X).Directory.Parent` before
    `.Delete(`) starts: member names, `( … )` groups and `[Type]::Method( … )` calls walked
    back over; -1 when the walk finds nothing it knows."""
    j, steps = dot, 0
    while j > 0 and steps < 12:
        steps += 1
        c = text[j - 1]
        if c == ")":
            depth, k = 0, j - 1
            while k >= 0:
                ch = text[k]
                if ch in "'\"":
                    k = text.rfind(ch, 0, k)
                    if k < 0:
                        return -1
                elif ch == ")":
                    depth += 1
                elif ch == "(":
                    depth -= 1
                    if depth == 0:
                        break
                k -= 1
            if k < 0:
                return -1
            j = k
            call = re.search(r"(?i)\[[\w.]+\]\s*::\s*\w+\s*\Z", text[max(0, j - 80) : j])
            if call is not None:
                return j - len(call.group(0))
            if j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
                continue  # `.GetParent(…)` on something before it
            return j
        if c.isalnum() or c == "_":
            k = j - 1
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
                k -= 1
            if k > 0 and text[k - 1] == ".":
                j = k - 1
                continue
            return k - 1 if k > 0 and text[k - 1] == "$" else -1
        return -1
    return -1


# (n19w: a script block given without parentheses too, `.ForEach{ … }`, `.Where{ … }`)
_ARRAY_METHOD = re.compile(r"(?i)\.(foreach|where)\s*([({])")


def _array_methods_respelled(text: str) -> str | None:
    """(n18w) The collection methods as the pipeline they amount to: `(X).ForEach({ B })` as
    `X | ForEach-Object { B }`, `.Where({ C })` as `| Where-Object { C }` (`'First'`: one
    item), `.ForEach('Delete', $true)` as `| ForEach-Object -MemberName Delete -ArgumentList
    $true`, chains in order; None when there is no such call."""
    if len(text) > 20000:
        return None
    out: list[str] = []
    at = 0
    for n, m in enumerate(_ARRAY_METHOD.finditer(text)):
        if n >= 8:
            break
        if m.start() < at:
            continue
        start = _receiver(text, m.start())
        if start < at or start < 0:
            continue
        if start > at and text[start - 1] == "@":
            start -= 1  # `@( … ).ForEach(…)`
        recv = text[start : m.start()].strip()
        if recv.startswith("(") and _balanced_close(recv, 0) == len(recv) - 1:
            inner = recv[1:-1].strip()
            if (inner and ";" not in inner and not inner.startswith("$")) or inner.startswith("@("):
                recv = inner  # `(Get-ChildItem X)`: the command's output, piped on
        stages: list[str] = []
        k = m.start()
        while (call := _ARRAY_METHOD.match(text, k)) is not None:
            if call.group(2) == "{":
                close = _brace_close(text, call.end() - 1)
                if close < 0:
                    break
                args = text[call.end() - 1 : close + 1]  # (the block itself, braces kept)
            else:
                close = _balanced_close(text, call.end() - 1)
                if close < 0:
                    break
                args = text[call.end() : close].strip()
            k = close + 1
            if call.group(1).lower() == "where":
                block, _, mode = args.partition("}")
                stages.append(f"Where-Object {block}}}")
                if "first" in mode.lower() or "last" in mode.lower():
                    stages.append("Select-Object -First 1")
            elif args.startswith("{"):
                stages.append(f"ForEach-Object {args}")
            elif (member := re.match(r"['\"](\w+)['\"]\s*(?:,\s*(.+))?\Z", args, re.S)) is not None:
                extra = f" -ArgumentList {member.group(2)}" if member.group(2) else ""
                stages.append(f"ForEach-Object -MemberName {member.group(1)}{extra}")
            else:
                break
        if not stages:
            continue
        piped = " | ".join([recv, *stages])
        if text[k : k + 1] == ".":
            piped = f"({piped})"
        out.append(text[at:start] + piped)
        at = k
    if not out:
        return None
    out.append(text[at:])
    return "".join(out)


# (n18w) a counting loop over an array's indexes: `for ($i = 0; $i -lt $a.Count; $i++) { …
# $a[$i] … }`, `foreach ($i in 0..($a.Count - 1)) { … }`: each item in turn, as `$a | % { … }`
_INDEX_LOOP = re.compile(
    r"(?i)\bfor\s*\(\s*\$(\w+)\s*=\s*0\s*;([^;{}]{0,80});[^;{}]{0,40}\)\s*\{"
    r"|\bforeach\s*\(\s*\$(\w+)\s+in\s+0\s*\.\.\s*"
    r"(\(?\s*\$\w+\.(?:count|length)\s*-\s*\d+\s*\)?|\d+)\s*\)\s*\{"
)
# (r18) the loop's bound: `$i -lt 1`/`0..0` is the first item(s) only, `$i -lt $a.Count - 3`
# / `0..($a.Count - 4)` all but the last three (as Select-Object -First/-SkipLast)
_LOOP_BOUND = re.compile(
    r"(?i)\A\s*\$\w+\s+-(lt|le)\s+(?:(\d+)|\(?\s*\$\w+\.(?:count|length)\s*(?:-\s*(\d+))?\s*\)?)\s*\Z"
)


def _loop_select(m: re.Match[str]) -> str:
    """`Select-Object …` for the items a counting loop visits ('' for every item)."""
    if m.group(3):
        bound = m.group(4).strip().strip("()").strip()
        if bound.isdigit():
            return f" | Select-Object -First {int(bound) + 1}"
        tail = bound.rsplit("-", 1)[1]
        less = int("".join(c for c in tail if c.isdigit()) or "0") - 1
        return f" | Select-Object -SkipLast {less}" if less > 0 else ""
    b = _LOOP_BOUND.match(m.group(2) or "")
    if b is None:
        return ""
    extra = 1 if b.group(1).lower() == "le" else 0
    if b.group(2):
        return f" | Select-Object -First {int(b.group(2)) + extra}"
    less = int(b.group(3) or 0) - extra
    return f" | Select-Object -SkipLast {less}" if less > 0 else ""


def _index_loops(text: str, scope: Scope) -> None:
    for n, m in enumerate(_INDEX_LOOP.finditer(text[:20000])):
        if n >= 4:
            break
        index = m.group(1) or m.group(3)
        close = _brace_close(text, m.end() - 1)
        if close < 0:
            continue
        body = text[m.end() - 1 : close + 1]
        used = re.findall(r"(?i)\$(\w+)\[\s*\$" + index + r"\s*\]", body)
        if not used or len({u.lower() for u in used}) != 1:
            continue
        each = re.sub(r"(?i)\$" + used[0] + r"\[\s*\$" + index + r"\s*\]", "$_", body)
        line = f"${used[0]}{_loop_select(m)} | ForEach-Object {each}"
        found = scope.nested(line, "powershell", Word(line, m.start(), close + 1), -1)
        seen = {(f.rule, f.reason) for f in scope.findings}
        scope.include(
            [f for f in found if f.level >= RiskLevel.DANGEROUS and (f.rule, f.reason) not in seen]
        )


_INFO_CAST = re.compile(r"(?i)\[(?:system\.)?io\.(?:directory|file)info\]\s*")


def _member_chain_deletes(text: str, scope: Scope) -> None:
    """(n18w) `([IO.FileInfo]'C:\\Windows\\notepad.exe').Directory.Delete($true)`, `(Get-Item
    $PROFILE).Directory.Parent.Parent.Delete($true)`, `[IO.Directory]::GetParent(X).Delete(…)`,
    `(…).Root.Delete(…)`: the folder the member chain reaches is resolved and the call judged
    as Remove-Item of it (recursive with `$true`), MoveTo as moving it away."""
    for n, m in enumerate(_CHAIN_DELETE.finditer(text[:20000])):
        if n >= 8:
            break
        start = _receiver(text, m.start())
        if start < 0:
            continue
        raw = text[start : m.start()]
        if _CHAIN_STEP.search(raw) is None and not m.group(0).lower().startswith(".moveto"):
            continue  # (a plain item's own Delete: `_dotnet_deletes`; MoveTo is read here)
        raw = re.sub(r"(?i)\$profile\b(?!\.)", lambda _: _PROFILE_FILE, raw)
        if _CHAIN_STEP.search(raw) is None:
            # `([IO.DirectoryInfo]'C:\Windows').MoveTo(…)`: the cast item is its path
            raw = _INFO_CAST.sub("", raw)
        path = _path_expression(raw, scope.env)
        close = _balanced_close(text, m.end() - 1)
        if path is None and _CHAIN_STEP.search(raw) is None:
            # (a plain item we cannot name moved: a rename, like Move-Item of it)
            scope.add(RiskLevel.MODERATE, "write", "moves an item through .NET", start, m.end())
            continue
        if path is None:
            # (a folder reached from an item we cannot name: still a delete or a move)
            what = "moves" if m.group(0).lower().startswith(".moveto") else "deletes"
            scope.add(
                RiskLevel.DANGEROUS, "delete", f"{what} a folder through .NET", start, m.end()
            )
            continue
        inner = text[m.end() : close].strip().lower() if close > 0 else ""
        quoted = "'" + path.replace("'", "''") + "'"
        if m.group(0).lower().startswith(".moveto"):
            line = f"Move-Item -LiteralPath {quoted} -Destination x"
        elif inner in ("$true", "1"):
            line = f"Remove-Item -Recurse -Force -LiteralPath {quoted}"
        else:
            line = f"Remove-Item -Force -LiteralPath {quoted}"
        end = close + 1 if close > 0 else m.end()
        scope.include(scope.nested(line, "powershell", Word(line, start, end), -1))


def _dotnet_deletes(text: str, scope: Scope) -> None:
    """Judge a .NET delete as the Remove-Item it amounts to (a directory with `$true`, or an
    item got with Get-Item, is removed with everything below it)."""
    for m in _NET_DELETE.finditer(text):
        raw = (m.group(2) or m.group(4) or m.group(6) or "").strip()
        flag = (m.group(3) or m.group(5) or m.group(7) or "").strip().lower()
        if raw.count('"') % 2 or raw.count("'") % 2:
            continue  # (r15: `(Get-Item "$HOME).Parent…`: an unclosed string never runs)
        if raw[:1] == "'" and raw[-1:] == "'":
            path: str | None = raw[1:-1].replace("''", "'")
        else:
            path = _resolve_vars(raw.strip('"'))
        if path is None:
            continue
        if m.group(4) is not None or m.group(6) is not None:
            # (n13w) `(Get-Item $HOME).Parent.Delete($true)`: the folder above the item
            up = text[m.end(4) if m.group(4) is not None else m.end(6) : m.end()].lower()
            for _ in range(up.count("parent")):
                path = _parent(path)
        recursive = flag in ("$true", "1") or (
            (m.group(4) is not None or m.group(6) is not None) and flag not in ("", "$false")
        )
        if m.group(1) and m.group(1).lower() == "file":
            recursive = False
        flags = "-Recurse -Force" if recursive else "-Force"
        line = f"Remove-Item {flags} -LiteralPath '{path.replace(chr(39), chr(39) * 2)}'"
        scope.include(scope.nested(line, "powershell", Word(line, m.start(), m.end()), -1))


# A pipeline stage that is only a string literal: `'…'` (quotes doubled inside) or a `"…"`
# with nothing PowerShell would expand.
_STRING_STAGE = re.compile(r"""\s*(?:'((?:[^']|'')*)'|"([^"`$]*)")\s*""")
_ADSI_ACCOUNT = re.compile(
    r"(?i)\.(add|create)\s*\(\s*['\"](winnt|ldap)://|\.create\s*\(\s*['\"]user['\"]"
    r"|\.setpassword\s*\(|\.invoke\s*\(\s*['\"](add|setpassword)['\"]"
    r"|\buserprincipal\]?::new|\bnew-object\s+\S*userprincipal"
)
# (n20w, F14) an account deleted through ADSI (`([ADSI]"WinNT://$env:COMPUTERNAME").Delete(
# 'User', 'Administrator')`) or AccountManagement (`[…UserPrincipal]::FindByIdentity($c,
# 'Administrator').Delete()`), as Remove-LocalUser / `net user /delete` do
_ADSI_DELETE = re.compile(
    r"(?i)\.delete\s*\(\s*['\"]user['\"]\s*,\s*['\"]([^'\"\s]{1,64})['\"]\s*\)"
    r"|findbyidentity\s*\([^()'\"]{0,200},\s*['\"]([^'\"\s]{1,64})['\"]\s*\)\s*\)?\s*\.\s*delete\s*\(\s*\)"
)


_ADSI_USER_VAR = re.compile(
    r"(?i)(\$\w+)\s*=\s*\[adsi\]\s*['\"]winnt://[^'\"\s]{0,200}?/([^/,'\"\s]{1,64}),\s*user['\"]"
)
_ADSI_EVERY_CHILD = re.compile(
    r"(?i)\.children\b[^;\n]{0,400}?\.delete\s*\(\s*['\"]user['\"]\s*,\s*\$(?:_|psitem)\.name\s*\)"
)
_SCHEMA_USER = re.compile(r"(?i)(?:\$_\.)?schemaclassname\s+-eq\s+['\"]?user['\"]?")
_ADSI_DELETE_EACH = re.compile(
    r"(?i)\.delete\s*\(\s*['\"]user['\"]\s*,\s*\$(?:_|psitem|[\w:]+)(?:\.name)?\s*\)"
)


def _adsi_account_deletes(text: str, scope: Scope) -> None:
    """(n20w) Accounts deleted through ADSI/AccountManagement: the built-in administrator
    blocked (as `Remove-LocalUser Administrator`), any other dangerous."""
    from aintern_ls.safety.windows import builtin_admin

    hits = [(m, m.group(1) or m.group(2) or "") for m in _ADSI_DELETE.finditer(text[:20000])]
    low = text[:20000].lower()
    if "deletetree" in low:
        # (w21) `$u = [adsi]"WinNT://./Administrator,user"; $u.psbase.DeleteTree()`: the
        # object the path names, held by the variable whose DeleteTree is called
        for m in _ADSI_USER_VAR.finditer(text[:20000]):
            tree = rf"(?i){re.escape(m.group(1))}\s*(?:\.\s*psbase)?\s*\.\s*deletetree\s*\("
            if re.search(tree, text[:20000]):
                hits.append((m, m.group(2)))
    # (w21, review 21 O1) `$c.Children | ? SchemaClassName -eq user | % { $c.Delete('user',
    # $_.Name) }` of a WinNT:// machine object, unfiltered: every account, the built-in
    # administrator among them; any other run-time name: one account (dangerous)
    every = _ADSI_EVERY_CHILD.search(text[:20000]) if "winnt:" in low else None
    if every is not None and re.search(
        r"(?i)-[cn]?(?:like|match|eq|ne)\b|\bif\b", _SCHEMA_USER.sub(" ", every.group(0))
    ):
        every = None  # (a filter on the name or another property picks some accounts)
    for m in _ADSI_DELETE_EACH.finditer(text[:20000]):
        whole = every is not None and every.start() <= m.start() < every.end()
        hits.append((m, "Administrator" if whole else "(an account named at run time)"))
    for m, name in hits[:16]:
        if builtin_admin(name):
            msg = "deletes the built-in administrator account through ADSI"
            scope.add(RiskLevel.BLOCKED, "user-delete", msg, m.start(), m.end())
        else:
            msg = f"deletes the account {name} through ADSI"
            scope.add(RiskLevel.DANGEROUS, "user-delete", msg, m.start(), m.end())


_STARTUP_FOLDER = re.compile(
    r"(?i)start menu[\\/]+programs[\\/]+startup|\bshell:(common )?startup\b"
    r"|microsoft[\\/]+(word|excel)[\\/]+(startup|xlstart)\b|\bxlstart\b"
)
_STARTUP_WRITE = re.compile(
    r"(?i)createshortcut|\.save\(|copyfile|movefile|writealltext|writeallbytes|out-file"
    r"|set-content|add-content|copy-item|move-item|new-item|\bcopy\b|\bcp\b|\bmv\b|\bni\b"
    r"|invoke-webrequest|\biwr\b|downloadfile|\bstart-bitstransfer\b|>"
)


# .NET and WMI registry writes: `[Microsoft.Win32.Registry]::SetValue(…)`,
# `….OpenSubKey(…, $true).SetValue(…)`, `CreateSubKey(…)`, StdRegProv `SetStringValue`.
_DOTNET_REGISTRY = re.compile(
    r"(?i)(?:\.|::)(?:setvalue|createsubkey)\s*\(|\bset(?:string|expandedstring|dword|qword"
    r"|multistring|binary)value\b"
)


def _registry_api(text: str, m: re.Match[str], scope: Scope) -> None:
    """A registry write through .NET or WMI is judged by the keys and values its text names,
    with the same autostart and protection tables as `reg add`."""
    from aintern_ls.safety.windows import registry_risk

    if not re.search(r"(?i)registry|hk(lm|cu|cr|u)\b|hkey_|stdregprov|win32", text):
        return
    hit = registry_risk(text)
    if hit is not None:
        scope.add(hit[0], hit[1], hit[2], m.start(), m.end())
    else:
        scope.add(
            RiskLevel.MODERATE, "registry", "changes the Windows registry", m.start(), m.end()
        )


_DOTNET = re.compile(
    r"\[(?:System\.)?(IO\.File|IO\.Directory|Environment|Diagnostics\.Process)\]::(\w+)\s*\(",
    re.I,
)
_WMICLASS_CREATE = re.compile(
    r"(?i)\[wmiclass\]\s*['\"][^'\"]*win32_process['\"]\s*\)?\s*\.\s*create\s*\(\s*(['\"])([^'\"]+)\1"
)
_WMICLASS_VAR = re.compile(r"(?i)(\$\w+)\s*=\s*\[wmiclass\]\s*['\"][^'\"]*win32_process['\"]")
_PS_VAR_TEXT = re.compile(r"\$(?:env:)?\w+", re.I)


def _ps_value(expr: str) -> str | None:
    """The constant value of a PowerShell argument, known folders substituted."""

    def known(m: re.Match[str]) -> str:
        value = _KNOWN_VARS.get(m.group(0).lower())
        if m.group(0).lower() == "$profile":
            return "$PROFILE"
        return value if value is not None else m.group(0)

    # (`"$env:HOMEDRIVE$env:HOMEPATH"` is the home folder, not two folders glued)
    text = _PS_VAR_TEXT.sub(known, _HOME_PAIR.sub("$HOME", expr.strip()))
    if "$" in text.replace("$PROFILE", "").replace("$true", "").replace("$false", ""):
        # `$env:windir + '\x'`, `"${env:ProgramFiles(x86)}\x"`, `Join-Path $HOME x`
        return _path_expression(expr)
    if re.fullmatch(r"\A\$(true|false|PROFILE)\Z", text, re.I):
        return text
    folded = fold_powershell(text.replace("$PROFILE", "_PROFILE_"))
    if folded is None:
        return _path_expression(expr)
    return folded.replace("_PROFILE_", "$PROFILE")


# WMI/CIM: a class and a method called on its instances (`-MethodName X`, `-Name X` of
# Invoke-WmiMethod, `.X(…)`, `% X`, `ForEach-Object -MemberName X`).
_WMI_CLASS = re.compile(r"(?i)\b(win32_\w+|msft_\w+|cim_\w+|systemrestore)\b")
_WMI_METHOD = re.compile(
    r"(?i)-methodname\s+['\"]?(\w+)"
    # (n18w: Invoke-CimMethod's `-Name` alias of -MethodName too)
    r"|(?:invoke-wmimethod|iwmi|invoke-cimmethod|icim)\b[^|;\n]{0,300}?-name\s+['\"]?(\w+)"
    # (n17w: through the object's `psbase` view too: `$s.psbase.Delete()`)
    r"|\)\s*\.\s*(?:psbase\s*\.\s*)?(\w+)\s*\(|(?:\$_|\$psitem)\s*\.\s*(?:psbase\s*\.\s*)?(\w+)\s*\("
    # (n14w) a variable holding the object: `$s.Delete()`
    r"|\$\w+\s*\.\s*(?:psbase\s*\.\s*)?"
    r"(delete_?|stopservice|changestartmode|terminate|disable|clear|deleteobject"
    r"|unjoindomainorworkgroup)\s*\("
    r"|(?:^|[|;]\s*)(?:%|foreach-object|foreach)\s+(?:-membername\s+)?['\"]?([a-z]\w*)['\"]?\s*(?:$|[|;}])"
    # (n17w) the removal cmdlets call the instance's Delete: `… | Remove-CimInstance`, `rwmi`
    r"|(?<![\w-])(remove-ciminstance|rcim|remove-wmiobject|rwmi)(?![\w-])"
)
_WMI_PICKED = re.compile(
    r"(?i)-filter\b|\bwhere\b|\?\s|-query\b|-like\b|-match\b|-eq\b|select-object|\bselect\s+-|"
    r"-first\b|-last\b|-inputobject\s+\$|\$(?!_\W|psitem\W)\w+\s*\.\s*delete"
)
# (r17) the instances really fetched by a call: `Get-CimInstance [-ClassName] Win32_Service`,
# `gwmi -Class win32_service`, `[wmiclass]'Win32_Service'`… (in the code view, lower case)
_WMI_FETCHED = re.compile(
    r"(?:get-ciminstance|\bgcim|get-wmiobject|\bgwmi|\[wmi(?:class|searcher)?\])"
    r"[^|;\n]{0,200}?win32_(?:(?:base)?service|systemdriver)\b"
)
_WMI_REMOVERS = frozenset({"remove-ciminstance", "rcim", "remove-wmiobject", "rwmi"})
_WMI_NAME = re.compile(
    r"(?i)\b(?:name|processname|driveletter|deviceid)\s*(?:=|-eq|-like|\blike\b)\s*\\?['\"]([^'\"\\]*(?:\\{1,2}[^'\"\\]*)*)\\?['\"]"
)


def _wmi_methods(text: str, code: str, scope: Scope) -> None:
    """A WMI/CIM method is judged as the cmdlet that does the same: `MSFT_Disk` `Clear` is
    Clear-Disk, `Win32_Directory`/`CIM_DataFile` `Delete` is Remove-Item of the filtered
    name, `Win32_Service` `StopService`/`ChangeStartMode`/`Delete` are Stop-/Set-/Remove-
    Service, `Win32_Process` `Terminate` is Stop-Process, `SystemRestore` `Disable` is
    Disable-ComputerRestore."""
    classes = list(_WMI_CLASS.finditer(text[:20000]))
    if not classes:
        return
    # (r17) methods and removal cmdlets count only in code: `code` is `text` with comments
    # and printed strings blanked (same length), so `Write-Host "… Win32_Service |
    # Remove-CimInstance"` and `# rcim …` call nothing.
    low = code[:20000].lower()
    if "win32_userprofile" in low and re.search(
        r"remove-ciminstance|\brcim\b|remove-wmiobject|\brwmi\b|\.delete\s*\(|"
        r"(?:%|foreach-object)\s+(?:-membername\s+)?delete\b",
        low,
    ):
        # Win32_UserProfile instances removed: the profiles' folders go with them.
        who = re.search(
            r"localpath\s*(?:=|like|-eq|-like)\s*\\?['\"][^'\"]*?([\w.$-]+)\\?['\"]", low
        )
        target = "C:\\Users\\" + (
            who.group(1) if who is not None and "%" not in who.group(0) else "*"
        )
        line = f"Remove-Item -Recurse -Force -LiteralPath '{target}'"
        scope.include(scope.nested(line, "powershell", Word(line, 0, len(text)), -1))
    if not re.search(
        # (n14w) `$s = Get-WmiObject …; $s.Delete()`: a method on a variable holding it
        r"-methodname|-name\b|\)\s*\.|\$_\s*\.|\$psitem|%\s|foreach|\$\w+\s*\.\s*\w+\s*\("
        r"|remove-ciminstance|\brcim\b|remove-wmiobject|\brwmi\b|\.\s*psbase\s*\.",
        low,
    ):
        return
    unfiltered: list[bool] = []

    def every_instance() -> bool:  # (r17: asked once a text, not once a match)
        if not unfiltered:
            unfiltered.append(
                _WMI_FETCHED.search(low) is not None and _WMI_PICKED.search(text) is None
            )
        return unfiltered[0]

    for n_m, m in enumerate(_WMI_METHOD.finditer(code[:20000])):
        if n_m >= 16:
            break
        # (n17w: the scripting API's `Delete_()` is the same method)
        method = next((g for g in m.groups() if g), "").lower().rstrip("_")
        if method in _WMI_REMOVERS:
            before_cmd = code[: m.start()].rstrip(" \t")
            if before_cmd and before_cmd[-1] not in "|;{(&\n":
                continue  # (r17) an argument (`Get-Command Remove-CimInstance`), not a call
            method = "delete"
        if re.search(
            r"(?i)\A[^|;\n]*-whatif\b(?!\s*:(?!\s*(?:\$true|1)\b))", text[m.start() : m.end() + 300]
        ):
            continue  # (n17w) `… | Invoke-CimMethod -MethodName Delete -WhatIf`: a dry run
        before = [c for c in classes if c.start() < m.start()] or classes
        cls = before[-1].group(1).lower()
        name_m = _WMI_NAME.search(text, before[-1].start(), min(len(text), m.end() + 200))
        name = name_m.group(1).replace("\\\\", "\\") if name_m is not None else ""
        if name.startswith("$") and re.fullmatch(r"\$\w+", name):
            # (n17w) `$n = 'RpcSs'; … -Filter "Name='$n'"`: the variable's literal
            name = scope.env.get(_PS_VAR + name.lower(), name)
        quoted = "'" + name.replace("'", "''") + "'" if name else "$unknown"
        line = ""
        if cls == "msft_disk" and method == "clear":
            line = "Clear-Disk -Number 0 -RemoveData -Confirm:$false"
        elif cls == "msft_partition" and method == "deleteobject":
            line = "Remove-Partition -DiskNumber 0 -PartitionNumber 1 -Confirm:$false"
        elif cls in ("msft_disk",) and method == "initialize":
            line = "Initialize-Disk -Number 0"
        elif cls in ("win32_directory", "cim_directory") and method == "delete":
            line = f"Remove-Item -Recurse -Force -LiteralPath {quoted}"
        elif cls in ("cim_datafile", "cim_logicalfile", "win32_logicalfile") and method == "delete":
            line = f"Remove-Item -Force -LiteralPath {quoted}"
        elif cls in ("win32_service", "win32_systemdriver", "win32_baseservice") and method in (
            "stopservice",
            "delete",
            "changestartmode",
        ):
            svc = quoted if name else "x"
            if name and re.search(r"[%*?]", name):
                # (n17w) `Name LIKE 'Rpc%'`, `-like 'Plug*'`: a core service among the matches
                from aintern_ls.safety.windows import boot_service_like

                core = boot_service_like(name)
                svc = "'" + core + "'" if core is not None else "x"
            if not name and method == "delete" and every_instance():
                svc = "'RpcSs'"  # (n17w) every instance of the class: the core ones too
            if method == "stopservice":
                line = f"Stop-Service -Name {svc} -Force"
            elif method == "delete":
                line = f"Remove-Service -Name {svc}"
            elif re.search(r"(?i)disabled|manual", text[m.end() : m.end() + 200]):
                line = f"Set-Service -Name {svc} -StartupType Disabled"
        elif cls == "win32_process" and method == "terminate":
            proc = re.sub(r"(?i)\.exe\Z", "", name) if name else "x"
            line = f"Stop-Process -Name '{proc}' -Force"
        elif cls == "systemrestore" and method == "disable":
            line = "Disable-ComputerRestore -Drive 'C:\\'"
        elif cls == "win32_computersystem" and method == "unjoindomainorworkgroup":
            line = "Remove-Computer -Force"  # (w21) the machine leaves its domain
        elif cls in ("win32_networkadapter", "msft_netadapter") and method == "disable":
            adapter = quoted if name else "'*'"
            line = f"Disable-NetAdapter -Name {adapter} -Confirm:$false"
        elif cls in ("win32_useraccount", "win32_account") and method == "delete":
            # (w21) an account deleted through WMI/CIM/[wmi]: one named account, or every
            # account the class gives (the built-in Administrator among them)
            # (review 21 O2: a pattern that cannot match the administrator is one account)
            pattern = name.replace("%", "*").replace("_", "?").lower()
            every = not name or fnmatch.fnmatchcase("administrator", pattern)
            account = "'Administrator'" if every else quoted
            line = f"Remove-LocalUser -Name {account}"
        if line:
            where = Word(line, m.start(), m.end())
            scope.include(scope.nested(line, "powershell", where, -1))


_ASSIGNED_TO = re.compile(r"(\$\w+)\s*=\s*\Z")
_RUNSPACE = re.compile(r"(?i)\[(?:system\.management\.automation\.)?powershell\]::create\s*\(\s*\)")
_RUNSPACE_CALL = re.compile(
    r"(?i)\.\s*(addscript|addcommand|addparameter|addargument|addstatement)\s*\("
)
_COM_RUN = re.compile(r"(?i)\.\s*(run|exec)\s*\(\s*('(?:[^']|'')*'|\"[^\"`$]*\"|\$[\w:]+)")
_PSI = re.compile(
    r"(?i)(?:new-object\s+(?:-typename\s+)?(?:system\.)?diagnostics\.processstartinfo"
    r"(?:\s+-argumentlist)?|\[(?:system\.)?diagnostics\.processstartinfo\]::new\s*\()\s*\(?\s*"
    r"('(?:[^']|'')*'|\"[^\"`$]*\")\s*,\s*('(?:[^']|'')*'|\"[^\"`$]*\")"
)


def _ps_literal(arg: str) -> str | None:
    arg = arg.strip()
    if len(arg) >= 2 and arg[0] == arg[-1] == "'":
        return arg[1:-1].replace("''", "'")
    if len(arg) >= 2 and arg[0] == arg[-1] == '"' and "$" not in arg and "`" not in arg:
        return arg[1:-1]
    return None


def _runspaces(text: str, scope: Scope) -> None:
    """`[PowerShell]::Create().AddScript('…').Invoke()` runs the script given;
    `.AddCommand('X').AddParameter('P','v').AddArgument('a')` runs `X -P v a`. A script
    only known at run time is opaque code (critical)."""
    from aintern_ls.safety.inline import _closing, _split_top

    for n_rs, rs in enumerate(_RUNSPACE.finditer(text[:20000])):
        if n_rs >= 8:
            break  # (a few runspaces are what a script builds; more is a flood)
        words: list[str] = []
        # (`$ps = [PowerShell]::Create(); $ps.AddCommand('X').AddParameter(…)`: the calls
        # made on the variable that holds it continue the chain)
        held = _ASSIGNED_TO.search(text, max(0, rs.start() - 80), rs.start())
        starts = [rs.end()]
        if held is not None:
            var = re.compile(rf"(?i){re.escape(held.group(1))}(?!\w)(?=\s*\.\s*add)")
            starts += [v.end() for v in var.finditer(text, rs.end(), min(len(text), 20000))][:16]
        pos = rs.end()
        calls = 0
        for start in starts:
            pos = max(pos, start)
            while calls < 32:
                m = _RUNSPACE_CALL.match(text, pos)
                if m is None:
                    break
                calls += 1
                close = _closing(text, m.end() - 1)
                if close < 0:
                    break
                args = [a.strip() for a in _split_top(text[m.end() : close], ",") if a.strip()]
                values = [_ps_literal(a) for a in args]
                what = m.group(1).lower()
                where = Word(text[m.start() : close + 1], m.start(), close + 1)
                if what == "addscript":
                    if values and values[0] is not None:
                        scope.include(scope.nested(values[0], "powershell", where, -1))
                    else:
                        scope.add(
                            RiskLevel.CRITICAL,
                            "eval-dynamic",
                            "runs a script only known at run time in a new runspace",
                            where.start,
                            where.end,
                        )
                elif what in ("addcommand", "addstatement") and values:
                    if words:
                        line = " ".join(words)
                        scope.include(scope.nested(line, "powershell", where, -1))
                    words = [values[0] or "$unknown"] if values[0] is not None else ["$unknown"]
                elif what == "addparameter" and values and words:
                    words.append("-" + (values[0] or "x"))
                    if len(values) > 1:
                        v = values[1]
                        words.append(
                            "'" + v.replace("'", "''") + "'" if v is not None else "$unknown"
                        )
                elif what == "addargument" and values and words:
                    v = values[0]
                    words.append("'" + v.replace("'", "''") + "'" if v is not None else "$unknown")
                pos = close + 1
        if words:
            if words[0] == "$unknown":
                scope.add(
                    RiskLevel.CRITICAL,
                    "eval-dynamic",
                    "runs a command only known at run time in a new runspace",
                    rs.start(),
                    pos,
                )
            else:
                line = " ".join(words)
                scope.include(scope.nested(line, "powershell", Word(line, rs.start(), pos), -1))


def _com_runs(text: str, scope: Scope) -> None:
    """`(New-Object -ComObject WScript.Shell).Run('cmd /c …')`, `.Exec(…)`, and a
    `ProcessStartInfo` built from a program and its arguments: the command line they start
    is judged (as cmd would run it); one only known at run time is opaque (critical)."""
    low = text.lower()
    if "wscript.shell" in low or "shell.application" in low:
        for n_run, m in enumerate(_COM_RUN.finditer(text[:20000])):
            if n_run >= 8:
                break
            line = _ps_literal(m.group(2))
            where = Word(m.group(0), m.start(), m.end())
            if line is None:
                scope.add(
                    RiskLevel.CRITICAL,
                    "eval-dynamic",
                    "runs a command line only known at run time through COM",
                    m.start(),
                    m.end(),
                )
            else:
                scope.include(scope.nested(line, "cmd", where, -1))
    if "shell.application" in low and "invokeverb" in low:
        for n_verb, m in enumerate(_SHELL_VERB.finditer(text[:20000])):
            if n_verb >= 8:
                break
            folder, item = _ps_literal(m.group(1)), m.group(2) and _ps_literal(m.group(2))
            if folder is None or (m.group(2) and item is None):
                continue
            path = folder.rstrip("\\") + "\\" + item if item else folder
            line = (
                f"Remove-Item -Recurse -Force -LiteralPath '{path.replace(chr(39), chr(39) * 2)}'"
            )
            scope.include(scope.nested(line, "powershell", Word(line, m.start(), m.end()), -1))
    seen = False
    for n_psi, m in enumerate(_PSI.finditer(text[:20000])):
        if n_psi >= 8:
            break
        exe, args = _ps_literal(m.group(1)), _ps_literal(m.group(2))
        if exe is None or args is None:
            continue
        seen = True
        line = f'"{exe}" {args}' if " " in exe else f"{exe} {args}"
        scope.include(scope.nested(line, "cmd", Word(line, m.start(), m.end()), -1))
    if not seen and ("processstartinfo" in low or ".startinfo" in low):
        _psi_properties(text, scope)
    if "shellexecute" in low:
        for n_exec, m in enumerate(_SHELL_EXECUTE.finditer(text[:20000])):
            if n_exec >= 8:
                break
            exe = _ps_literal(m.group(1))
            args = _ps_literal(m.group(2)) if m.group(2) else ""
            if exe is None or args is None:
                scope.add(
                    RiskLevel.CRITICAL,
                    "eval-dynamic",
                    "starts a program only known at run time through COM",
                    m.start(),
                    m.end(),
                )
                continue
            line = (f'"{exe}"' if " " in exe else exe) + (" " + args if args else "")
            scope.include(scope.nested(line, "cmd", Word(line, m.start(), m.end()), -1))
            if _RUNAS_VERB.match(text, m.end()):
                # (n18w) `ShellExecute(f, a, dir, 'runas')`: started elevated (UAC)
                reason = "starts a program as administrator (ShellExecute runas)"
                scope.add(RiskLevel.CRITICAL, "sudo", reason, m.start(), m.end())
    if (
        "runas" in low
        and (".verb" in low or "verb =" in low)
        and (psi := _PSI_RUNAS.search(text[:20000]))
    ):
        # (n18w) `$psi.Verb = 'runas'; [Diagnostics.Process]::Start($psi)`: elevated
        reason = "starts a program as administrator (ProcessStartInfo Verb runas)"
        scope.add(RiskLevel.CRITICAL, "sudo", reason, psi.start(), psi.end())


# (n18w) the rest of a ShellExecute call up to its verb argument, when that verb is runas
_RUNAS_VERB = re.compile(
    r"""(?i)\s*,\s*(?:'[^']*'|"[^"]*"|\$[\w:]+)\s*,\s*['"]runas(?:user)?['"]"""
)
_PSI_RUNAS = re.compile(r"""(?i)\.verb\s*=\s*['"]runas(?:user)?['"]|\bverb\s*=\s*['"]runas['"]""")
# Explorer's own "Delete" verb on a folder or an item of it (Shell.Application COM):
# `.NameSpace('C:\Users').Self.InvokeVerb('delete')`, `.ParseName('x').InvokeVerbEx('delete')`.
_SHELL_VERB = re.compile(
    r"(?i)\.namespace\(\s*('[^']*'|\"[^\"`$]*\")\s*\)\s*"
    r"(?:\.\s*self|\.\s*parsename\(\s*('[^']*'|\"[^\"`$]*\")\s*\))\s*"
    r"\.\s*invokeverb(?:ex)?\(\s*['\"]\s*(?:delete|&delete)\s*['\"]"
)
# `Shell.Application`'s `ShellExecute(file, arguments, folder, verb, show)`.
_SHELL_EXECUTE = re.compile(
    r"(?i)\.\s*shellexecute\s*\(\s*('(?:[^']|'')*'|\"[^\"]*\"|\$[\w:]+)"
    r"(?:\s*,\s*('(?:[^']|'')*'|\"[^\"]*\"|\$[\w:]+))?"
)
# `$psi.FileName = …`, `$p.StartInfo.Arguments = …`, `@{FileName = …}`: the owner variable
# (none inside a table) and the value as written (a literal, a variable, an expression).
_PSI_PROPERTY = re.compile(
    r"(?i)(?:(\$\w+)(?:\.startinfo)?\.|\.|[;{@]\s*|\A\s*)(filename|arguments)\s*=\s*"
    r"('(?:[^']|'')*'|\"(?:[^\"`]|`.)*\"|[^;\r\n}]+)"
)
_PSI_NEW = re.compile(
    r"(?i)(?:new-object\s+(?:-typename\s+)?(?:system\.)?diagnostics\.processstartinfo"
    r"(?:\s+-argumentlist)?|\[(?:system\.)?diagnostics\.processstartinfo\]::new\s*\()\s*\(?\s*"
    r"('(?:[^']|'')*'|\"[^\"`$]*\")?"
)
_PSI_OWNER = re.compile(r"(\$\w+)\s*=\s*$")
# The start info a script starts: `[Diagnostics.Process]::Start($psi)`, `$p.Start()`.
_PSI_STARTED = re.compile(
    r"(?i)\[(?:system\.)?diagnostics\.process\]::start\(\s*(\$\w+)\s*\)|(\$\w+)\.start\(\s*\)"
)


def psi_start(text: str, var: str | None = None) -> tuple[str | None, bool]:
    """The command line a `ProcessStartInfo` built in steps starts, and whether what it
    starts is only known at run time. Properties are kept per object (`$a.FileName` is not
    `$b`'s): the one started (`var`, or the one `Start` is given), with a table's
    (`-Property @{…}`, `[ProcessStartInfo]@{…}`) and the constructor's program under them.
    A program or arguments given as a variable or an interpolated string are unknown: what
    runs is not seen (critical, as `[Diagnostics.Process]::Start($exe)` is)."""
    head = text[:20000]
    owners: dict[str, dict[str, str | None]] = {}
    for n, m in enumerate(_PSI_NEW.finditer(head)):
        if n >= 8:
            break
        o = _PSI_OWNER.search(head, max(0, m.start() - 64), m.start())
        key = o.group(1).lower() if o is not None else ""
        props = owners.setdefault(key, {})
        if m.group(1) is not None:
            props["new"] = _ps_literal(m.group(1))
        elif "new" not in props and m.end() < len(head) and head[m.end()] in '$"':
            props["new"] = None  # (a program from a variable: `… ProcessStartInfo $exe`)
    for n, m in enumerate(_PSI_PROPERTY.finditer(head)):
        if n >= 16:
            break
        key = (m.group(1) or "").lower()
        raw = m.group(3).strip()
        owners.setdefault(key, {})[m.group(2).lower()] = (
            _ps_literal(raw) if raw[:1] in ("'", '"') else None
        )
    if var is None and (st := _PSI_STARTED.search(head)) is not None:
        var = st.group(1) or st.group(2)
    key = (var or "").lower()
    if key and key in owners:
        props = {**owners.get("", {}), **owners[key]}
    else:
        props = {}
        for p in owners.values():  # (nothing says which: every object, the last one wins)
            props.update(p)
    if "filename" in props:
        exe = props["filename"]
    elif "new" in props:
        exe = props["new"]
    else:
        return None, False
    args = props.get("arguments", "")
    if exe is None or (exe and args is None):
        return None, True  # (`Arguments = $payload` to a shell hides the command as well)
    if not exe:
        return None, False
    exe = f'"{exe}"' if " " in exe else exe
    return f"{exe} {args}".strip(), False


def psi_line(text: str) -> str | None:
    """The command line a `ProcessStartInfo` built in steps starts (see `psi_start`)."""
    return psi_start(text)[0]


def _psi_properties(text: str, scope: Scope) -> None:
    line, dynamic = psi_start(text)
    if dynamic:
        scope.add(
            RiskLevel.CRITICAL,
            "eval-dynamic",
            "starts a program only known at run time (a ProcessStartInfo)",
            0,
            len(text),
        )
    elif line is not None:
        scope.include(scope.nested(line, "cmd", Word(line, 0, len(text)), -1))


_NET_FALSE = frozenset(("$false", "0", "[bool]0", "$null", "false", "'false'", '"false"'))


def _dotnet_calls(text: str, scope: Scope) -> None:
    """.NET calls that delete, write, move or start things (`[IO.Directory]::Delete(p, $true)`)
    are judged as the cmdlets that do the same, with the same rules."""
    from aintern_ls.safety.inline import _closing, _split_top

    for m in _DOTNET.finditer(text):
        close = _closing(text, m.end() - 1)
        if close < 0:
            continue
        args = [a.strip() for a in _split_top(text[m.end() : close], ",") if a.strip()]
        values = [_ps_value(a) for a in args]
        cls, method = m.group(1).lower(), m.group(2).lower()
        where = Word(text[m.start() : close + 1], m.start(), close + 1)

        def q(v: str | None, arg: str = "") -> str:
            if v is None:
                # A plain variable (`$env:USERPROFILE`, `$HOME`) or an expandable string
                # (`"C:\Windows\System32\drivers\$d.sys"`) is passed on as written: the
                # cmdlet's own rules know which folders such variables name.
                if re.fullmatch(r"\$(env:)?\w+|\"[^\"`]*\"", arg, re.I):
                    return arg
                from aintern_ls.safety.winpaths import _flat_path

                if protected_unknown_name(arg) is not None:
                    # `[IO.File]::Delete((Join-Path $env:windir "System32\config\$f"))`
                    return '"' + _flat_path(arg).replace('"', "") + '"'
                return "$unknown"
            return "'" + v.replace("'", "''") + "'"

        line = ""
        if cls in ("io.file", "io.directory") and values:
            if method == "delete":
                # (`$true`, `1`, `[bool]1`: any flag but false deletes the whole tree)
                recursive = len(args) > 1 and args[1].strip().lower() not in _NET_FALSE
                flags = "-Recurse -Force" if recursive else "-Force"
                line = f"Remove-Item {flags} -LiteralPath {q(values[0], args[0])}"
            elif method == "replace" and len(values) > 1:
                # (n14w) `[IO.File]::Replace(src, dest, backup)`: dest is overwritten
                line = f"Set-Content -LiteralPath {q(values[1], args[1])} -Value x"
            elif method.startswith(("writeall", "create", "replace")) or method == "open":
                line = f"Set-Content -LiteralPath {q(values[0], args[0])} -Value x"
            elif method.startswith("appendall"):
                line = f"Add-Content -LiteralPath {q(values[0])} -Value x"
            elif method in ("move", "copy") and len(values) > 1:
                verb = "Move-Item" if method == "move" else "Copy-Item"
                line = f"{verb} -LiteralPath {q(values[0])} -Destination {q(values[1])}"
        elif cls == "diagnostics.process" and method == "start" and values:
            if (
                values[0] is None
                and args[0].startswith("$")
                and "processstartinfo" in text.lower()
                and (psi_start(text)[0] is not None or psi_start(text)[1])
            ):
                continue  # (a start info built in steps: `_com_runs` judges its command line)
            if values[0] is None and re.fullmatch(r"\$\w+", args[0]):
                # (n14w) `$p = (Get-Command bcdedit).Source; [Diagnostics.Process]::Start($p,
                # …)`: the variable was set to a program lookup earlier in the text
                held = re.search(
                    r"(?im)^\s*" + re.escape(args[0]) + r"\s*=\s*([^;\n]{1,200})", text
                )
                if held is not None:
                    from aintern_ls.safety.windows import program_path_lookup

                    values[0] = program_path_lookup(held.group(1).strip())
            if values[0] is None:
                scope.add(
                    RiskLevel.CRITICAL,
                    "eval-dynamic",
                    "starts a program only known at run time",
                    where.start,
                    where.end,
                )
                continue
            line = " ".join(v or "$unknown" for v in values[:2])
        elif cls == "environment" and method == "setenvironmentvariable" and len(values) >= 3:
            target = (values[2] or "").lower()
            name = (values[0] or "").lower()
            if target in ("machine", "user") or "machine" in args[2].lower():
                from aintern_ls.safety.windows import _SETX_HIJACK

                # (COR_PROFILER & co load a DLL into every .NET program: as `setx` does)
                if (
                    name in ("path", "pathext", "psmodulepath", "comspec")
                    or values[0] is None
                    or _SETX_HIJACK.match(name)
                ):
                    scope.add(
                        RiskLevel.CRITICAL,
                        "persistence",
                        f"changes {values[0] or 'an environment variable'} permanently"
                        " (programs found on it run in every new session)",
                        where.start,
                        where.end,
                    )
                else:
                    scope.add(
                        RiskLevel.MODERATE,
                        "system-config",
                        "sets an environment variable permanently",
                        where.start,
                        where.end,
                    )
        if line:
            scope.include(scope.nested(line, "powershell", where, -1))


_READS_THE_LINE = re.compile("|".join(dispatch.READS_THE_LINE), re.I)


# A statement whose walk made more findings than this is not remembered: nested script
# blocks each hold all the findings below them, and checking them at every level of a
# thousand was quadratic (such a statement is seldom written twice the same way).
_MEMO_MAX_FINDINGS = 64


# What `_Walker.visit` does with a node, by its type (any other type: walk its children;
# every type holding "redirection" but `redirections` is a redirect).
_V_PIPELINE, _V_ERROR, _V_COMMENT, _V_REDIRECT, _V_FOREACH, _V_ASSIGNMENT, _V_CALL = range(7)
_V_WALK = -1  # any other type: walk its children
_V_SWITCH = 7
_VISIT = {
    "pipeline": _V_PIPELINE,
    "ERROR": _V_ERROR,
    "comment": _V_COMMENT,
    "foreach_statement": _V_FOREACH,
    "switch_statement": _V_SWITCH,
    "assignment_expression": _V_ASSIGNMENT,
    "invokation_expression": _V_CALL,
}
# The grammar's ids of the element types `_Walker._command` reads most (a number compared,
# where `node.type` makes a string for every node).
_K_SEP = _LANGUAGE.id_for_node_kind("command_argument_sep", True)
_K_TOKEN = _LANGUAGE.id_for_node_kind("generic_token", True)
_K_PARAM = _LANGUAGE.id_for_node_kind("command_parameter", True)
_new_word = tuple.__new__  # (a `Word` made from its six fields, without the keyword defaults)
_VISIT_BY_KIND: dict[int, int] = {}  # …by the grammar's id of the type (one per name)


# A redirect in text the grammar could not read: `>`/`>>` (a stream number before it) and an
# unquoted target that starts with a variable (`$env:windir\…`), outside quotes.
def _switch_on(words: list[Word], word: Word, source: str) -> bool:
    """`-Recurse:$true`, `-Force:1`: the value only confirms the switch; it is no operand
    (read as one, it hid the piped-in paths: `… | Remove-Item -Recurse:$true`) (gen12)."""
    return (
        bool(words)
        and word.text.lower() in ("$true", "1")
        and words[-1].text.startswith("-")
        and source[words[-1].end : word.start] == ":"
    )


# A whole argument that is a redirect (`2>$null`, `*>&1`, `>>log.txt`) (gen12).
_REDIRECT_TOKEN = re.compile(r"[1-6*]?>>?(?:&[12]|[^\s>&].*)|[1-6*]>&[12]")
_UNPARSED_REDIRECT = re.compile(r"""(?<![\w'"-])[1-6*]?>>?[ \t]*\$[\w:{}]+[\\/][^\s|;'"]*""")


class _Walker:
    __slots__ = (
        "_deep_value",
        "_downloads",
        "_no_downloads",
        "_plain",
        "_reads",
        "_requoted",
        "pos",
        "scope",
    )

    def __init__(self, scope: Scope, pos: Positions, plain: bool = False) -> None:
        self.scope = scope
        self.pos = pos
        self._plain = plain  # the text is ASCII: byte offsets are character offsets
        self._deep_value = False  # (f19) `_item_value` read a recursive listing
        self._reads: list[tuple[int, int]] | None = None
        self._downloads: SpanMatches | None = None
        self._no_downloads = False  # the source names no download at all
        self._requoted: set[int] = set()  # statements read again with `$v\x` words quoted

    def downloads(self, raw: str, start: int) -> bool:
        """`_DOWNLOAD.search(raw)` for the text of a node starting at `start`, from one scan
        of the source (nested script blocks ask at every level)."""
        if self._downloads is None and not self._no_downloads:
            source = self.scope.source
            if may_match(_DOWNLOAD, source.lower(), source.isascii()):
                self._downloads = SpanMatches(_DOWNLOAD, source, 24)
            else:
                self._no_downloads = True
        if self._downloads is None:
            # (a stretch of an ASCII source naming none of them names none either)
            if self.scope.source[start : start + len(raw)] == raw:
                return False
            return _DOWNLOAD.search(raw) is not None
        return self._downloads.search(raw, start)

    def reads_the_line(self, s: int, e: int) -> bool:
        """Whether `source[s:e]` names a program that reads the whole line (mshta …): the
        names are found once per source, so nested statements do not each lower-case and
        search their whole text again (quadratic on deep nesting)."""
        if self._reads is None:
            source = self.scope.source
            self._reads = (
                [m.span() for m in _READS_THE_LINE.finditer(source)]
                if may_match(_READS_THE_LINE, source.lower(), source.isascii())
                else []
            )
        reads = self._reads
        if not reads:
            return False
        i = bisect.bisect_left(reads, (s, -1))
        # Matches do not overlap: the first one starting in the span ends first.
        return i < len(reads) and reads[i][1] <= e

    def span(self, node: Node) -> tuple[int, int]:
        if self._plain:
            return node.start_byte, node.end_byte
        return self.pos.char(node.start_byte), self.pos.char(node.end_byte)

    def visit(self, node: Node) -> Info:
        # (recursive on purpose: how deep a text nests is bounded by Python's recursion
        # limit, which the verdicts on pathological nesting depend on)
        budget.spend(3)
        kind = node.kind_id
        how = _VISIT_BY_KIND.get(kind)
        if how is None:  # (a node type met for the first time: its name read once)
            t = node.type
            how = _VISIT.get(t, _V_WALK)
            if how == _V_WALK and "redirection" in t and t != "redirections":
                how = _V_REDIRECT
            _VISIT_BY_KIND[kind] = how
        if how != _V_WALK:  # (one lookup: most nodes are none of these)
            if how == _V_PIPELINE:
                return self._pipeline_once(node)
            if how == _V_ERROR:
                return self.error_region(node)
            if how == _V_COMMENT:
                return Info()
            if how == _V_REDIRECT:
                self.redirection(node)
                return Info()
            if how == _V_FOREACH:
                return self.foreach(node)
            if how == _V_SWITCH:
                return self.switch(node)
            if how == _V_ASSIGNMENT:
                self.assignment(node)
            else:
                self.command_object_call(node)
        info = None  # (a fresh Info only when no child gave one: most nodes have children)
        for c in node.named_children:
            info = self.visit(c)
        return Info() if info is None else info

    def _timestomp(self, node: Node, m: re.Match[str]) -> None:
        """`(Get-Item f).LastWriteTime = '…'`, `$f.CreationTime = …`: a file's times set by
        hand. Moderate for an ordinary file; critical (anti-forensics, session 9) when it is
        a log or sits in a system folder."""
        from aintern_ls.safety.paths import LOG_DIR, LOG_SUBDIR

        target = m.group("path") or ""
        if m.group("var"):
            target = self.scope.env.get(_PS_VAR + m.group("var") + ".fullname", "")
        p = target.strip("'\" ").replace("\\", "/").lower()
        p = re.sub(r"\A\$env:(systemroot|windir)", "c:/windows", p)
        parent = p.rsplit("/", 1)[0]
        s, e = self.span(node)
        system = re.match(r"\A(c:)?/(windows|program files( \(x86\))?|programdata)(/|\Z)", p)
        logged = p.endswith((".evtx", ".log")) or bool(
            LOG_DIR.match(parent) or LOG_SUBDIR.match(parent)
        )
        if system or logged:
            what = "a log" if logged else "a system file"
            self.scope.add(
                RiskLevel.CRITICAL,
                "timestomp",
                f"backdates {what} ({target}): hides when it changed",
                s,
                e,
            )
        else:
            self.scope.add(RiskLevel.MODERATE, "write", "changes a file's timestamps", s, e)

    def _whatif_preference(self, node: Node, name: str, rhs: str) -> None:
        """(h18) `$WhatIfPreference = $true` at the top level of the text, unconditionally:
        the ShouldProcess cmdlets after it only report what they would do, until another
        assignment. Anything else (a value that may be false, a conditional or nested
        assignment, a `$private:` one) turns the reading off: what is not sure runs."""
        on = (
            name in _WHATIF_PREF_NAMES
            and rhs.strip().lower() in ("$true", "1")
            and op_is_plain(node)
            and _top_level(node)
        )
        if on:
            self.scope.env[PS_WHATIF_PREF] = "1"
        else:
            self.scope.env.pop(PS_WHATIF_PREF, None)

    def assignment(self, node: Node) -> None:
        """`$c = 'Remove-Item'`: remember constant values so `& $c …` is judged as what it
        runs (a value built at run time is forgotten, and stays unknown)."""
        kids = node.named_children
        if len(kids) < 2:
            return
        name = _text(kids[0]).strip().lower()
        if name.endswith("whatifpreference"):
            self._whatif_preference(node, name, _text(kids[-1]))
        stamp = _TIMESTAMP_LHS.match(name)
        if stamp is not None:
            self._timestomp(node, stamp)
            return
        if name.startswith("$psdefaultparametervalues"):
            # (n17w) `$PSDefaultParameterValues['Remove-Item:Recurse'] = $true`: later
            # commands get the parameter as if they were given it
            _remember_defaults(self.scope, _text(node))
            return
        written = name
        if name[:1] == "[" or name[:2] == "${" or ":" in name:
            # `[string]$t = …`, `${env:T} = …`, `$script:t = …`: the variable `$t`/`$env:t`
            name = _normal_var(_LHS_CAST.sub("", name))
        if not _VAR_NAME.fullmatch(name):
            if "," in name and _MULTI_LHS.fullmatch(name):
                self._multi_assignment(name, kids[-1])
            return
        if name.startswith("$env:"):
            s, e = self.span(node)
            rhs = _text(kids[-1]).strip()
            literal = (
                rhs[1:-1].replace("''", "'")
                if len(rhs) > 1 and rhs[0] == rhs[-1] == "'"
                else rhs[1:-1]
                if len(rhs) > 1 and rhs[0] == rhs[-1] == '"' and "$" not in rhs and "`" not in rhs
                else None
            )
            appended = _text(node)[:200].split("=", 1)[0].endswith("+")  # (`+=`)
            env_hook(self.scope, name[5:], s, e, literal, "+=" if appended else rhs)
        last = kids[-1]
        # (the right-hand side's text, read once: a long one, which the budget charges for
        # each read, is read at each use as it always was)
        short = last.end_byte - last.start_byte <= 4096
        rhs_raw = _text(last) if short else ""
        splat = _splat_words(rhs_raw if short else _text(last))
        if splat is not None:
            # `$a = @{Recurse=$true; Path='C:\'}` then `Remove-Item @a`: the parameters.
            self.scope.env[_PS_SPLAT + name[1:]] = splat
        else:
            self.scope.env.pop(_PS_SPLAT + name[1:], None)
        items = _string_array(_text(kids[-1]))
        if items is None and short and "$" in rhs_raw:
            # (w21) `$dirs = $env:USERPROFILE, 'D:\tmp'`: an array of known values (every
            # item known: an unknown one would be lost from the list)
            items = _item_array(rhs_raw, self.scope.env)
            if items is not None and len(items) != len(_ANY_ITEM.findall(rhs_raw)):
                items = None
        if splat is None and items is not None and len(items) > 1:
            # `$a = @('C:\Users', '-Recurse')` then `Remove-Item @a`: the items, positionally;
            # `foreach ($t in $a)` takes each in turn.
            self.scope.env[_PS_SPLAT + name[1:]] = "\x01".join(items[:16])
            self.scope.env[_PS_ARRAY + name] = "\x01".join(items[:16])
        elif splat is None and items is not None and items and _is_list(rhs_raw):
            # (w22) `$dirs = @($env:USERPROFILE)`, `,'C:\x'`: a one-item list is a list too
            # (`$dirs[0]`, `$dirs | …` read its item)
            self.scope.env[_PS_ARRAY + name] = items[0]
        elif _PS_ARRAY + name in self.scope.env:
            del self.scope.env[_PS_ARRAY + name]
        value = fold_powershell(_text(kids[-1]))
        if value is None and short and _PROFILE_VAR.fullmatch(rhs_raw.strip()):
            # (n19w) `$p = $PROFILE`: the variable names the profile; a write through it is
            # a write to the profile (persistence), as `>> $PROFILE` is
            value = rhs_raw.strip()
        if value is None and items is not None and len(items) == 1:
            value = items[0]  # `$a = @('C:\Users')`
            self.scope.env[_PS_SPLAT + name[1:]] = value
        # (`-join [char[]](…)` is an expression, not a command named `-join`)
        rhs0 = _text(kids[-1]).lstrip()
        if value is None and (rhs0.startswith("-") or not re.match(r"(?<![\w-])[\w-]++\s", rhs0)):
            from aintern_ls.safety.windows import ps_eval, ps_eval_items, ps_variables

            value = ps_eval(_text(kids[-1]), ps_variables(self.scope))
            listed = ps_eval_items(_text(kids[-1]), ps_variables(self.scope)) if value else None
            if listed is not None and 1 < len(listed) <= 4096 and op_is_plain(node):
                # `$r = '…'.ToCharArray()`: an array (reversed, joined, indexed later)
                self.scope.env[_PS_ARRAY + name] = "\x01".join(listed)
        if (
            value is None
            and short
            and (
                rhs0[:10].lower() in ("join-path ", "split-path")
                or "| split-path" in rhs0.lower()
                or (
                    rhs0[:1] in "(["
                    and re.search(
                        # (n17w: and the value-returning calls of `_returned_folder`)
                        r"(?i)\.(?:root|parent|psparentpath|directory(?:name)?)\b|getparent|valueonly"
                        r"|\)\.fullname\b|\benv:[\w\\/]+\s*\)\.value\b"
                        r"|expandenvironmentvariables|currentversion|win32_operatingsystem"
                        r"|driveinfo",
                        rhs0,
                    )
                )
                or rhs0[:17].lower() == "$executioncontext"
                or (
                    rhs0[:4].lower() in ("get-", "gv ", "gpv ")
                    and _returned_folder(rhs0.strip(), self.scope.env) is not None
                )
            )
        ):
            # `$p = Join-Path $env:windir System32`, `$p = Split-Path $HOME -Parent` (n13w):
            # the variable holds the path it prints
            value = _path_expression(rhs_raw, self.scope.env)
        if value is None and short and (maker := _ITEM_MAKER.match(rhs0.strip())) is not None:
            # (n13w) `$d = [IO.DirectoryInfo]::new($HOME)`, `$d = New-Object IO.DirectoryInfo
            # X`, `$d = Get-Item X`: the item's path (its `.Parent` … read later)
            made = maker.group(1) or maker.group(2) or maker.group(3)
            value = _operand_path(made, self.scope.env)
        blocks = _descendants(kids[-1], "script_block_expression", 12, first=True)
        rhs = _text(kids[-1]).strip()
        closure = re.sub(r"(?i)\.getnewclosure\(\s*\)\s*\Z", "", rhs)
        if blocks and op_is_plain(node) and _text(blocks[0]).strip() in (rhs, closure):
            # `$sb = { param($t) Remove-Item $t -Recurse }`: invoked later with arguments
            self.scope.env[_PS_BLOCK + name] = closure
        elif (made := _created_block(rhs, self.scope)) is not None:
            # `$sb = [scriptblock]::Create('param($t) Remove-Item $t')`: a block like the
            # literal one, invoked later with arguments (`& $sb x`, `$sb.Invoke(x)`)
            self.scope.env[_PS_BLOCK + name] = made
        else:
            self.scope.env.pop(_PS_BLOCK + name, None)
        if value is None:
            # `$c = gcm Format-Vol*`, `$c = Get-Alias ri`,
            # `$c = $ExecutionContext.InvokeCommand.GetCommand('Remove-Item','Cmdlet')`: the
            # variable holds a command object; `& $c …` runs that command.
            value = _command_object(rhs_raw if short else _text(last))
            if value is not None:
                self.scope.env[_PS_CMDOBJ + name] = value
            else:
                self.scope.env.pop(_PS_CMDOBJ + name, None)
        key = _PS_VAR + name
        op = next(
            (_text(k).strip() for k in node.children if k.type == "assignement_operator"), "="
        )
        if op == "+=" and value is not None:
            # `$c = 'Remove-Item '; $c += '-Recurse C:\'`: the text grows.
            before = self.scope.env.get(key)
            value = None if before is None else before + value
        elif op != "=":
            value = None
        if value is None:
            self.scope.env.pop(key, None)
        else:
            self.scope.env[key] = value
        if written != name:
            # (the name as written as well: `$global:t` read back as `$global:t`)
            if value is None:
                self.scope.env.pop(_PS_VAR + written, None)
            else:
                self.scope.env[_PS_VAR + written] = value
        if short and rhs_raw.lstrip()[:1] in "@[" and op == "=":
            # `$a = @{p = 'C:\Windows'}`: `$a.p` / `$a['p']` is that literal.
            for k, v1, v2 in _HASH_PAIR.findall(rhs_raw[:2000])[:16]:
                self.scope.env[_PS_VAR + name + "." + k.lower()] = v1.replace("''", "'") or v2
        self.scope.env.pop(key + ".fullname", None)
        self.scope.env.pop(_PS_VAR + "\x00deep:" + name, None)
        self._deep_value = False
        item = self._item_value(kids[-1]) if op == "=" and value is None else None
        if item is not None and self._deep_value:
            # (f19) `$all = Get-ChildItem C:\ -Recurse`: every item below the folder
            self.scope.env[_PS_VAR + "\x00deep:" + name] = "1"
        if item is not None:
            # `$d = Get-Item C:\Windows`; `$w = gci ~`: the variable holds the item (or the
            # folder's entries); used as an argument, piped, looped over or `.Delete()`d it
            # stands for that path.
            self.scope.env[key] = item
            self.scope.env[key + ".fullname"] = item

    def _multi_assignment(self, names: str, rhs: Node) -> None:
        """`$t, $u = 'C:\\Windows', 'x'`: each variable takes its item (the last the rest)."""
        items = _string_array(_text(rhs))
        targets = [_normal_var(n.strip()) for n in names.split(",")]
        for i, n in enumerate(targets):
            key = _PS_VAR + n
            if (
                items is not None
                and i < len(items)
                and (i < len(targets) - 1 or i == len(items) - 1)
            ):
                self.scope.env[key] = items[i]
            else:
                self.scope.env.pop(key, None)

    def _runner_block(self, words: list[Word]) -> tuple[str | None, list[Word]]:
        """For `Invoke-Command [-ScriptBlock] $sb [-ArgumentList] a, b` (or Start-Job): the
        text of the block `$sb` holds and the arguments it is given; (None, []) when the
        block is not one this text assigned."""
        block: str | None = None
        args: list[Word] = []
        taking = False
        for i, w in enumerate(words[1:], 1):
            low = w.text.lower()
            if low.startswith("-"):
                taking = len(low) > 2 and ("-argumentlist".startswith(low) or low == "-args")
                if len(low) > 2 and "-scriptblock".startswith(low) and i + 1 < len(words):
                    block = self._block_word(words[i + 1])
                continue
            if taking:
                raw = self.scope.source[w.start : w.end] if w.end - w.start < 2000 else ""
                items = _string_array("@(" + raw + ")") if "," in raw else None
                args.extend(Word(t, w.start, w.end) for t in items or [w.text])
            elif block is None and low.startswith(("$", "(")):
                block = self._block_word(w)
        return block, args

    def _block_word(self, word: Word) -> str | None:
        """The script block an argument stands for: a variable holding one (`$sb`), or
        `([scriptblock]::Create('…'))` written in place."""
        low = word.text.lower()
        if low.startswith("$"):
            return self.scope.env.get(_PS_BLOCK + low)
        if word.end - word.start > 4000 or ("create" not in low and "newscriptblock" not in low):
            return None
        return _created_block(self.scope.source[word.start : word.end], self.scope)

    def _process_path_set(self, node: Node) -> None:
        """(w22) `[Environment]::SetEnvironmentVariable('PATH', "$env:TEMP\\b;$env:PATH")` (for
        this process: no third argument, or 'Process') is `$env:PATH = …`: a folder anyone
        may write searched first (`env_hook`), in the order the statements run."""
        raw = _text(node)
        m = _SET_PROCESS_VAR.match(raw)
        if m is None:
            return
        from aintern_ls.safety.inline import _split_top

        # (the value, then the target if given)
        args = [a.strip() for a in _split_top(raw[m.end() : raw.rfind(")")], ",")]
        if len(args) == 1 or (len(args) == 2 and args[1].strip("'\"").lower() == "process"):
            s, e = self.span(node)
            env_hook(self.scope, "PATH", s, e, None, args[0])

    def command_object_call(self, node: Node) -> None:
        """`$c = gcm Remove-Item; $c.Invoke('C:\\', '-Recurse')`: a command object's
        `.Invoke(…)` runs that command with the arguments given."""
        kids = node.named_children
        if kids and kids[0].type == "type_literal":
            if node.end_byte - node.start_byte < 4096:
                self._process_path_set(node)
            m = (
                _ARRAY_REVERSE.fullmatch(_text(node).strip())
                if node.end_byte - node.start_byte < 200
                else None
            )
            held = self.scope.env.get(_PS_ARRAY + m.group(1).lower()) if m is not None else None
            if m is not None and held is not None:
                # `[array]::Reverse($r)`: the array is reversed in place
                self.scope.env[_PS_ARRAY + m.group(1).lower()] = "\x01".join(
                    held.split("\x01")[::-1]
                )
            return
        if (
            len(kids) < 3
            or kids[0].type
            not in ("variable", "script_block_expression", "parenthesized_expression")
            or kids[1].type != "member_name"
        ):
            return
        method = _text(kids[1]).strip().lower()
        if method not in ("invoke", "invokereturnasis", "invokewithcontext"):
            return
        var = _text(kids[0]).strip().lower()
        literal = kids[0].type == "script_block_expression"
        # (n14w) `{ Remove-Item $args[0] -Recurse }.Invoke("$HOME")`: the literal block itself
        named = None if literal else self.scope.env.get(_PS_CMDOBJ + var)
        if kids[0].type == "parenthesized_expression":
            # (n19w) `(Get-Command iex).Invoke('…')`, `(gcm Remove-Item).Invoke(…)`: the
            # command object made in place, called with the arguments
            named = _command_object(var[1:-1]) if len(var) <= 300 else None
            if named is None and len(var) <= 300 and (guess := _alias_lookup(var[1:-1])):
                # `(gcm i*x).Invoke('…')`: a pattern run, what it may be judged, at least
                # critical (the pattern may match another command at run time)
                s0, e0 = self.span(node)
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "dynamic-command",
                    "runs whatever command a name pattern finds",
                    s0,
                    e0,
                )
                named = guess
        block = (
            _text(kids[0]).strip()
            if literal
            else self.scope.env.get(_PS_BLOCK + var)
            if named is None
            else None
        )
        if named is None and block is None:
            return
        s, e = self.span(node)
        words = [Word(named or var, s, e)]
        for arg in _descendants(kids[2], "argument_expression", 3):
            deep = 30 if _text(arg).lstrip().startswith("@(") else 12  # (`@('C:\x')`, n14w)
            strings = _descendants(arg, "string_literal", deep)
            variables = _descendants(arg, "variable", deep)
            if strings:
                words.append(self.string_word(strings[0]))
            elif variables:
                words.append(self.element(variables[0]))
            else:
                a0, a1 = self.span(arg)
                words.append(Word(_text(arg).strip(), a0, a1))
        if block is not None:
            # `$sb = { param($t) Remove-Item $t -Recurse }; $sb.Invoke('C:\Users')`: the
            # body with its parameters bound to the arguments (InvokeWithContext's first two
            # arguments are the function table and the variables, not parameters).
            args = words[3:] if method == "invokewithcontext" else words[1:]
            self.scope.include(
                self.scope.nested(_bind_block(block, args), "powershell", words[0], -1)
            )
            return
        dispatch.judge(words, self.scope, NO_STDIN)

    def _item_value(self, node: Node) -> str | None:
        """The path an expression's file-system object(s) stand for: `Get-Item X`, `gi X`,
        `(Get-Item X)`, `[IO.DirectoryInfo]'X'`, `New-Object IO.DirectoryInfo X` name X;
        `Get-ChildItem X` names X's entries (`X\\*`, or its glob)."""
        raw = _text(node).strip()
        if len(raw) > 2000:
            return None
        m = _ITEM_CAST.match(raw)
        if m is not None:
            arg = m.group("path").strip().strip("()").strip()
            if arg[:1] == "'" and arg[-1:] == "'":
                return arg[1:-1].replace("''", "'")
            return _resolve_vars(arg.strip('"'))
        cmd_node = _single_command(node)
        if cmd_node is None or not cmd_node.named_children:
            return None
        name = _text(cmd_node.named_children[0]).strip().lower()
        if name in _ITEM_GETTERS:
            got = [_known_word(w) for w in self._item_paths(cmd_node)]
            if len(got) == 1 and not got[0].dynamic:
                return got[0].text
            return None
        if name in _LISTERS or name in _CONTENT_READERS:
            # (f19: `$l = Get-Content l.txt` after a listing was written to l.txt)
            info = self.command(cmd_node, NO_STDIN)
            if len(info.paths) != 1 or info.paths[0].dynamic:
                return None
            self._deep_value = info.paths[0].origin == ORIGIN_DEEP
            listed = info.paths[0].text.strip()
            if any(c in listed for c in "*?"):
                return listed
            return "*" if listed in (".", ".\\", "") else listed.rstrip("\\/") + "\\*"
        return None

    def foreach(self, node: Node) -> Info:
        """`foreach ($f in Get-ChildItem ~) { Remove-Item $f -Recurse }`: the loop variable
        is each entry of the folder listed, so the body acts on all of them."""
        # (n19w: `foreach -parallel (…)` in a workflow: the switch is no item)
        kids = [k for k in node.named_children if k.type != "foreach_parameter"]
        if len(kids) < 3 or kids[0].type != "variable":
            return self._visit_children(node)
        return self._each(_text(kids[0]), kids[1], kids[2:])

    def switch(self, node: Node) -> Info:
        """(n19w) `switch (Get-ChildItem C:\\Windows) { default { Remove-Item $_ … } }`,
        `switch ('C:\\Users', 'C:\\Windows') { … }`: a switch walks the items of its
        condition, each bound to `$_` in the clauses, as foreach does."""
        kids = node.named_children
        cond = next((k for k in kids if k.type == "switch_condition"), None)
        body = next((k for k in kids if k.type == "switch_body"), None)
        inner = [k for k in cond.named_children if k.type != "comment"] if cond else []
        if body is None or len(inner) != 1:
            return self._visit_children(node)
        return self._each("$_", inner[0], [body])

    def _each(self, var: str, source: Node, kids_body: list[Node]) -> Info:
        """The body judged with the loop variable `var` bound to each item `source` gives."""
        kids = [source, source, *kids_body]  # (kids[1] is the source, kids[2:] the body)
        listing = _single_command(kids[1])
        info = self.command(listing, NO_STDIN) if listing is not None else self.visit(kids[1])
        src = _uncast(_text(kids[1]).strip())  # (w22: `[string[]]$x`)
        if src[:2] == "@(" and (wrapped := _ARRAY_OF_VAR.fullmatch(src)) is not None:
            src = wrapped.group(1)  # (n19w) `@($p)`: the items of `$p`
        held = self.scope.env.get(_PS_VAR + src.lower())
        held_items = self.scope.env.get(_PS_ARRAY + src.lower())
        if held_items:
            held = None
        if not info.paths and held and re.fullmatch(r"\$[\w:]+", src):
            # `foreach ($x in $w)` over a variable holding items or a path
            s, e = self.span(kids[1])
            info.paths = (Word(held, s, e, False, any(c in held for c in "*?"), "item"),)
        if not info.paths and not held_items and src[:1] == "(" and len(src) <= 400:
            # (n19w) `((Get-ChildItem C:\).FullName)`: a listing's entries by a member
            built = _path_expression(src, self.scope.env)
            if built is not None and built.endswith(("\\*", "/*")):
                s, e = self.span(kids[1])
                info.paths = (Word(built, s, e, False, True, "item"),)
        items = _string_array(_text(kids[1])) if not info.paths else None
        if not info.paths and not items and not held_items:
            # (w21) `@($HOME)`, `22, 3389` (a loop over numbers: each in turn)
            items = _item_array(_text(kids[1]), self.scope.env, numbers=True)
        if held_items and not items:
            items = held_items.split("\x01")  # `foreach ($t in $targets)`
        if items:
            # `foreach ($h in 'a.example','b.example') { … $h … }`: each literal in turn
            # (judged with every one; the worst decides).
            key = _PS_VAR + var.strip().lower()
            saved = self.scope.env.get(key)
            try:
                for item in items[:4]:
                    self.scope.env[key] = item
                    for c in kids[2:]:
                        info = self.visit(c)
            finally:
                if saved is None:
                    self.scope.env.pop(key, None)
                else:
                    self.scope.env[key] = saved
            return info
        with self.loop_variables(var, info.paths):
            for c in kids[2:]:
                self._item_methods(c, (var.lower(),), info.paths)
                info = self.visit(c)
        return info

    def _item_methods(self, node: Node, names_: tuple[str, ...], paths: tuple[Word, ...]) -> None:
        """`… | ForEach-Object { $_.Delete() }`: the item's own Delete method deletes each
        listed entry (a folder's with `$true`, everything below it)."""
        if not paths:
            return
        body = _text(node)
        for var in names_:
            m = (
                re.search(re.escape(var) + r"\.delete\s*\(", body, re.I)
                or re.search(
                    r"\[(?:system\.)?io\.(?:file|directory)\]::(?:writeall\w+|create|delete)\s*\(\s*"
                    + re.escape(var)
                    + r"(?:\.(?:fullname|pspath|fullpath))?\s*[,)]",
                    body,
                    re.I,
                )
                # `Set-Content $_.FullName ''`, `Clear-Content $_`, `Out-File $f`, `$_ |
                # Set-Content -Value x`: each file overwritten or emptied is destroyed as
                # surely as deleted.
                or re.search(
                    re.escape(var) + r"(?:\.(?:fullname|pspath|fullpath))?\s*\|\s*"
                    r"(?:set-content|sc|clear-content|clc)\b"
                    r"(?![^;|}]*-append\b)",
                    body,
                    re.I,
                )
                or re.search(
                    r"(?:^|[\s;{(|])(?:set-content|sc|clear-content|clc|out-file)\s+"
                    r"(?:-(?:literal)?path\s+|-filepath\s+)?[\"(]?"
                    + re.escape(var)
                    + r"(?:\.(?:fullname|pspath|fullpath))?(?![\w.])(?![^;|}]*-append\b)",
                    body,
                    re.I,
                )
            )
            if m is None:
                continue
            s, _ = self.span(node)
            listed = paths[0].text.strip()
            if not (paths[0].glob or paths[0].origin == "item" or any(c in listed for c in "*?")):
                # (n19w) each entry of the listed folder, not the folder: emptying every
                # log file of winevt\Logs is a log wipe, not the folder's removal
                listed = "*" if listed in (".", ".\\", "./", "") else listed.rstrip("\\/") + "\\*"
            where = Word(listed, s + m.start(), s + m.end())
            line = f"Remove-Item -Recurse -Force -Path '{listed.replace(chr(39), chr(39) * 2)}'"
            self.scope.include(self.scope.nested(line, "powershell", where, -1))
            return

    @contextlib.contextmanager
    def loop_variables(self, var: str, paths: tuple[Word, ...]) -> Iterator[None]:
        """Bind a loop variable (and its `.FullName`, `.Name`, `.PSPath`) to every entry of
        the folder a listing named, while its body is judged."""
        if not paths:
            yield
            return
        listed = paths[0].text.strip()
        item = (
            listed
            if any(c in listed for c in "*?") or paths[0].origin == "item"
            else "*"
            if listed in (".", ".\\", "./", "")
            else listed.rstrip("\\/") + "\\*"
        )
        var = var.lower()
        members = (".fullname", ".name", ".pspath", ".fullpath", ".localpath", ".path")
        names = [var] + [var + m for m in members]
        if var == "$_":
            names += ["$psitem"] + ["$psitem" + m for m in members]
        drive = bool(re.fullmatch(r"[A-Za-z]:\\?", listed))
        roots = [var + ".root"] + (["$psitem.root"] if var == "$_" else [])
        # (n14w) `$_.PSParentPath`, `$_.Parent.FullName`, `$_.Directory`: the folder above
        ups = [
            v + m
            for v in ([var, "$psitem"] if var == "$_" else [var])
            for m in (
                ".psparentpath",
                ".parent",
                ".parent.fullname",
                ".directory",
                ".directoryname",
            )
        ]
        up = (
            _parent(item)
            if not any(c in item for c in "*?")
            else item[:-2]  # (each entry of a listed folder: its parent is that folder)
            if item.endswith(("\\*", "/*")) and not any(c in item[:-2] for c in "*?")
            else None
        )
        saved = {n: self.scope.env.get(_PS_VAR + n) for n in names + roots + ups}
        deeps = [var] + (["$psitem"] if var == "$_" else [])
        if any(p.origin == ORIGIN_DEEP for p in paths):
            # (f19) the items of a recursive listing: every file below the folder
            for n in deeps:
                saved["\x00deep:" + n] = self.scope.env.get(_PS_VAR + "\x00deep:" + n)
                self.scope.env[_PS_VAR + "\x00deep:" + n] = "1"
        for n in names:
            # A drive listing (Get-PSDrive, DriveInfo) yields the drives themselves.
            self.scope.env[_PS_VAR + n] = listed if drive and not n.endswith("fullname") else item
        for n in roots:
            self.scope.env[_PS_VAR + n] = listed.rstrip("\\") + "\\" if drive else listed
        if up is not None and not drive:
            for n in ups:
                self.scope.env[_PS_VAR + n] = up
        try:
            yield
        finally:
            for n, v in saved.items():
                if v is None:
                    self.scope.env.pop(_PS_VAR + n, None)
                else:
                    self.scope.env[_PS_VAR + n] = v

    def _visit_children(self, node: Node) -> Info:
        info = None
        for c in node.named_children:
            info = self.visit(c)
        return Info() if info is None else info

    def error_region(self, node: Node) -> Info:
        for c in node.named_children[:16]:
            if c.type in ("parenthesized_expression", "sub_expression", "script_block_expression"):
                # `$c ? (Remove-Item …) : $null` (a ternary the grammar does not know): the
                # commands it could parse inside are still commands (ps8).
                self.visit(c)
        start, end = self.span(node)
        prev = node.prev_sibling
        if (
            prev is not None
            and prev.type == "variable"
            and prev.end_byte == node.start_byte
            and self.scope.source[start : start + 1] in ("\\", "/")
        ):
            # `dir $env:TEMP\x -Filter *.log`: the grammar stops at a variable's path tail
            # (PowerShell reads `$v\x` as one expandable word); the rest of the statement is
            # that command's arguments, not a command of its own. The statement is read
            # again with such words quoted, as PowerShell reads them.
            self._requote(node)
            cut = _ERROR_STATEMENT_END.search(self.scope.source, start, end)
            if cut is None:
                return Info()
            start = cut.end()
        return self.error_text(start, end)

    def _requote(self, node: Node) -> None:
        stmt = node.parent
        while stmt is not None and stmt.type != "pipeline":
            stmt = stmt.parent
        if stmt is None:
            return
        s0, e0 = self.span(stmt)
        if s0 in self._requoted or e0 - s0 > 4000:
            return
        self._requoted.add(s0)
        text = self.scope.source[s0:e0]
        fixed = _VAR_PATH_WORD.sub(lambda m: '"' + m.group(0) + '"', text)
        if fixed != text:
            self.scope.include(self.scope.nested(fixed, "powershell", Word(fixed, s0, e0), -1))

    def error_text(self, start: int, end: int) -> Info:
        """`source[start:end]`, which the grammar could not read, judged statement by
        statement from its words."""
        text = self.scope.source[start:end]
        if "#" in text:
            text = code_only(text, strings=False)  # (a comment's `;` ends no statement)
        info = Info()
        for stmt in _ERROR_STATEMENT.finditer(text):
            budget.spend(budget.PS_STATEMENT_STEPS)
            stdin: Stdin = NO_STDIN
            info = Info()
            for i, m in enumerate(_ERROR_STAGE.finditer(stmt.group(0))):
                if i:
                    stdin = dispatch.next_stdin(info, stdin)
                offset = start + stmt.start() + m.start()
                literal = _STRING_STAGE.fullmatch(m.group(0))
                if literal is not None:
                    # `'Remove-Item …' | powershell -`: a string literal stage prints its text.
                    text_ = literal.group(1) if literal.group(1) is not None else literal.group(2)
                    info = Info(name="string", output=text_.replace("''", "'"))
                    continue
                for r in _UNPARSED_REDIRECT.finditer(m.group(0)):
                    # (safety-f8) `'' > $env:windir\system32\drivers\etc\hosts`: the grammar
                    # cannot read an unquoted variable path as a redirect's target; it still
                    # is one.
                    self.redirect_text(r.group(0), offset + r.start(), offset + r.end())
                raw = split_words(m.group(0), offset, posix=False)
                # (`–Recurse` with an en dash is `-Recurse` here too, as on a parsed line)
                words = [self._held_or_known(_typographic(w)) for w in raw]
                if (
                    i == 0
                    and len(words) > 2
                    and raw[1].text in _ASSIGN_OPS
                    and _ERROR_LHS.fullmatch(raw[0].text)
                    and _ERROR_PROGRAM.match(raw[2].text)
                    and self.scope.source[raw[2].start : raw[2].start + 1] not in ("'", '"')
                ):
                    # `$null = Remove-Item … $env:windir\System32` the grammar could not read:
                    # the command on the right-hand side is what runs (gen12)
                    words = words[2:]
                if words and words[0].text[:1] in _CALL_OPERATORS:
                    words = _called_words(words)
                if words and _ERROR_PROGRAM.match(words[0].text):
                    info = dispatch.judge(words, self.scope, stdin)
                    if self.scope.pending_cd is not None:
                        from aintern_ls.safety.windows import apply_windows_cd

                        apply_windows_cd(self.scope)  # (n13w) `cd $env:windir\System32; …`
                else:
                    info = Info()
        return info

    def _pipeline_once(self, node: Node) -> Info:
        """A statement written the same way in the same state (`cat <<E` on every line of a
        pasted heredoc) is walked twice at most: later copies get its findings moved to where
        they stand, and cost the budget what the second walk cost (what walking it again
        would cost, its commands being judged already), so the cut falls where it fell.

        A text met for the first time is only walked: the memo starts at its second
        sighting (keeping the first walk would buy nothing: the second walk would find no
        cost to replay, and walks again), so replays begin one sighting later and cost what
        they cost before (the second and third walks both find their commands judged)."""
        scope = self.scope
        s, e = self.span(node)
        text = scope.source[s:e]
        seen = scope.seen_statements
        if text not in seen:
            seen.add(text)
            return self.pipeline(node)
        state = _memo_state(scope)
        if state is None or self.reads_the_line(s, e):
            return self.pipeline(node)
        key = ("\x00ps-statement", text, state)
        hit = scope.memo.get(key)
        if hit is not None and hit[3] >= 0 and budget.affordable(hit[3]):
            base, found, known, cost = hit
            budget.spend(cost)
            delta = s - base
            scope.findings.extend(
                [Finding(f.level, f.rule, f.reason, f.start + delta, f.end + delta) for f in found]
            )
            return dispatch.copy_info(known, delta, NO_STDIN)
        mark, spent = len(scope.findings), budget.spent()
        info = self.pipeline(node)
        if (
            len(scope.findings) >= mark
            and len(scope.findings) - mark <= _MEMO_MAX_FINDINGS
            and _memo_state(scope) == state
        ):
            new = scope.findings[mark:]
            if all(s <= f.start and f.end <= e for f in new) and dispatch.info_within(
                info, NO_STDIN, s, e
            ):
                # The first walk pays for judging its commands; every later one finds them
                # judged (dispatch.judge's memo) and pays less: replays cost what the second
                # walk cost, so the budget is spent exactly as without this memo.
                cost = budget.spent() - spent if hit is not None else -1.0
                scope.memo[key] = (s, tuple(new), dispatch.copy_info(info, 0, NO_STDIN), cost)
        return info

    def pipeline(self, node: Node) -> Info:
        info = None
        for c in node.named_children:
            if c.type == "pipeline_chain":
                info = self.stages([s for s in c.named_children if s.type != "comment"])
            else:
                info = self.visit(c)
        return Info() if info is None else info

    def stages(self, stages: list[Node]) -> Info:
        info: Info | None = None  # (a fresh Info only for no stage at all)
        stdin: Stdin = NO_STDIN
        for k, stage in enumerate(stages):
            if info is not None:
                stdin = dispatch.next_stdin(info, stdin)
            t = stage.type
            if t == "command":
                if k and stages[k - 1].type == "command":
                    self._fed_by_own_getter(stages[k - 1], stage)
                info = self.command(stage, stdin)
            elif t == "pipeline" or t == "pipeline_chain":
                info = self.visit(stage)
            else:
                info = self.expression_stage(stage)
        return Info() if info is None else info

    def _each_backup_removed(self, node: Node) -> None:
        """`Get-S3Object -BucketName backups | % { Remove-S3Object … -Key $_.Key }`: a loop
        over every backup a getter listed that removes each item removes them all (r15)."""
        body = _text(node)
        m = re.search(
            r"(?i)\b(?:remove|delete|clear)-\w+[^|;}]*?\$(?:_|psitem)\b[^|;}]*", body[:2000]
        )
        if m is None or "-whatif" in m.group(0).lower():
            return
        s, e = self.span(node)
        self.scope.add(
            RiskLevel.BLOCKED,
            "delete-backups",
            "the loop removes each item of every backup the listing printed: nothing is left"
            " to restore",
            s,
            e,
        )

    def _fed_by_own_getter(self, getter: Node, remover: Node) -> None:
        """`Get-S3Bucket -BucketName b | Remove-S3Bucket -DeleteBucketContent`: a remover
        piped from the getter of its own noun takes what the getter named (the pipe binds
        the objects' properties by name): judged as if the getter's parameters were its own
        (r15)."""
        g, r = _text(getter), _text(remover)
        if len(g) > 300 or len(r) > 300:
            return
        gm = re.match(r"(?i)\s*get-([\w]+)\b", g)
        rm = re.match(r"(?i)\s*(?:remove|clear|delete)-([\w]+)\b", r)
        if gm is None or rm is None or gm.group(1).lower() != rm.group(1).lower():
            return
        given = g[gm.end() :].strip()
        if not given or "|" in given or ";" in given:
            return
        line = r.strip() + " " + given
        if "\x00fed:" + line in self.scope.seen_statements:
            return  # (the same pair again: judged once)
        self.scope.seen_statements.add("\x00fed:" + line)
        s, e = self.span(remover)
        self.scope.include(self.scope.nested(line, "powershell", Word(line, s, e), -1))

    def expression_stage(self, node: Node) -> Info:
        inner = _unwrap(node)
        if inner.type == "string_literal":
            word = self.string_word(inner)
            if not word.dynamic:
                return Info(name="string", output=word.text)
        sub = self.visit(node)
        raw = _text(node)
        if (
            sub.paths
            and raw.lstrip()[:2] in ("(G", "(g", "@(", "$(", "(l", "(d", "(L", "(D", "((")
            and raw.rstrip()[-1:] == ")"
        ):
            # (n18w) `(Get-ChildItem C:\Windows) | Remove-Item`, `@(gci ~) | …`: a listing in
            # parentheses or an array subexpression sends its items down the pipe
            return Info(name="expression", paths=sub.paths)
        if _DRIVE_LIST.search(raw):
            s, e = self.span(node)
            return Info(name="expression", paths=(Word("C:\\", s, e),))  # every drive root
        listed = _DOTNET_LISTING.match(raw.strip())
        if listed is not None:
            # `[IO.Directory]::GetDirectories('C:\')`, `(Get-Item X).EnumerateFiles()`:
            # the entries of that folder go down the pipe.
            folder = _path_expression(listed.group(1) or listed.group(2), self.scope.env)
            if folder is not None:
                s, e = self.span(node)
                entries = folder.rstrip("\\/") + "\\*"
                return Info(name="expression", paths=(Word(entries, s, e, False, True, "item"),))
        if "::" in raw and "path]::" in raw.lower():
            # `[IO.Path]::Combine($env:windir, 'System32') | Remove-Item`: the path it builds
            built = _path_expression(raw.strip(), self.scope.env)
            if built is not None and re.search(r"[\\/]", built):
                return Info(name="string", output=built)
        if (
            raw.lstrip()[:1] == "("
            and len(raw) <= 400
            and ").fullname" in raw.lower()
            and (of := _LISTING_OF.match(raw.strip())) is not None
            and (folder := _operand_path(of.group(1), self.scope.env)) is not None
        ):
            # (f19) `(Get-ChildItem C:\Windows -Recurse).FullName | Set-Content l.txt`: the
            # listing goes down the pipe, as from Get-ChildItem itself (every item below the
            # folder when recursive)
            s, e = self.span(node)
            deep = re.search(r"(?i)\s-r(?:ecurse)?\b", raw) is not None
            where = Word(folder, s, e, origin=ORIGIN_DEEP if deep else "")
            return Info(name="expression", paths=(where,))
        if "," in raw and (item_lines := _item_array(raw, self.scope.env, True)) is not None:
            # (w21) `$a, $b | % { … }`, `$HOME, 'C:\x' | …`: one item a line
            return Info(name="string", output="\n".join(item_lines))
        if (
            raw.lstrip()[:1] in ("(", "[", "$")
            and len(raw) <= 400
            and not _VAR_NAME.fullmatch(raw.strip())  # (a bare variable: below)
        ):
            # (n14w) `(Get-Item ~).PSParentPath | Remove-Item`, `(Split-Path $HOME) | …`,
            # `(Join-Path $HOME ..) | …`: the path the expression evaluates to goes down the pipe
            # (n19w: also a static call or a member chain, `[Environment]::GetFolderPath(…)`,
            # `$ExecutionContext.SessionState.PSVariable.GetValue('p')`)
            built = _path_expression(raw.strip(), self.scope.env)
            if built is not None and (
                built[:1] == "~" or built == "." or re.search(r"[\\/:]", built)
            ):
                # (n20w: `$PWD.Path | Remove-Item`: the cwd, ".")
                return Info(name="string", output=built)
        known = self.scope.env.get(_PS_VAR + raw.strip().lower())
        if known is None and _VAR_NAME.fullmatch(raw.strip()):
            # `$env:SystemRoot | Remove-Item -Recurse`: a known folder's variable piped.
            known = _KNOWN_VARS.get(raw.strip().lower())
            known = None if known is not None and known.startswith("$") else known
        if _VAR_NAME.fullmatch(raw.strip()) and known is not None:
            held = self.scope.env.get(_PS_ARRAY + raw.strip().lower())
            if held is not None:
                # `$l = 'select disk 1', 'clean'; $l | Set-Content d.txt`: one item a line
                return Info(name="string", output=held.replace("\x01", "\n"))
            return Info(name="string", output=known)  # `$p = 'C:\Users'; $p | Remove-Item …`
        items = _string_array(raw)
        if items is None:
            items = _item_array(raw, self.scope.env, True)  # (w21) `@($HOME) | …`, `$a, $b | …`
        if items is not None:
            return Info(name="string", output="\n".join(items))  # `@('C:\x', 'D:\') | …`
        return Info(name="expression", network_fetch=self.downloads(raw, self.span(node)[0]))

    def command(self, node: Node, stdin: Stdin) -> Info:
        # The command's first element, lower case, read once (a long one, which the budget
        # charges for each read, is read where it was always read).
        low0: str | None = None
        kids = node.named_children
        if kids and kids[0].end_byte - kids[0].start_byte <= 4096:
            low0 = _text(kids[0]).strip().lower()
        if low0 is not None and low0 not in _BLOCK_RUNNERS:
            return self._command_bound(node, stdin, low0)  # (no job's arguments to bind)
        bound = self._job_arguments(node, low0)
        if not bound:
            return self._command_bound(node, stdin, low0)
        saved = {k: self.scope.env.get(k) for k in bound}
        self.scope.env.update(bound)
        try:
            return self._command_bound(node, stdin, low0)
        finally:
            for k, v in saved.items():
                if v is None:
                    self.scope.env.pop(k, None)
                else:
                    self.scope.env[k] = v

    def _job_arguments(self, node: Node, low0: str | None = None) -> dict[str, str]:
        """`Start-Job { param($x) Remove-Item $x -Recurse } -ArgumentList $HOME`: a script
        block handed to a job, runspace or remote call gets `-ArgumentList` as `$args[i]`
        and as its `param()` names, so its body is judged with those values."""
        if not node.named_children:
            return {}
        name = low0 if low0 is not None else _text(node.named_children[0]).strip().lower()
        if name not in _BLOCK_RUNNERS:
            return {}
        elements = [
            el
            for c in node.named_children
            if c.type == "command_elements"
            for el in c.named_children
            if el.type not in ("command_argument_sep", "comment")
        ]
        values: list[str | None] = []
        params: list[str] = []
        for i, el in enumerate(elements):
            t = _text(el).strip().lower()
            if t.startswith("-a") and "-argumentlist".startswith(t) and i + 1 < len(elements):
                arg = elements[i + 1]
                items = [
                    k
                    for k in arg.named_children
                    if arg.type == "array_literal_expression" and k.type == "unary_expression"
                ] or [arg]
                for k in items[:8]:
                    w = self.element(k)
                    values.append(None if w.dynamic else w.text)
            for blk in _descendants(el, "param_block", 4):
                params = [_text(v).strip().lower() for v in _descendants(blk, "variable", 3)]
                break
        out: dict[str, str] = {}
        for i, v in enumerate(values):
            if v is None:
                continue
            out[_PS_VAR + f"$args[{i}]"] = v
            if i < len(params):
                out[_PS_VAR + params[i]] = v
        return out

    def _command_bound(self, node: Node, stdin: Stdin, low0: str | None = None) -> Info:
        if (
            stdin.kind == "none"
            and not stdin.paths
            and low0 is not None
            and low0 not in _NAMED_AFTER
        ):
            # (most commands: nothing piped in, and none of the getters handled below)
            return self._command(node, stdin)
        if stdin.kind != "none" and not stdin.paths:
            name0 = node.named_children[0] if node.named_children else None
            method = (
                re.search(r"\$(?:_|psitem)\.(delete|kill)\s*\(", _text(node), re.I)
                if name0 is not None
                and (low0 if low0 is not None else _text(name0).strip().lower()) in _FOREACH
                else None
            )
            if method is not None:
                s, e = self.span(node)
                kill = method.group(1).lower() == "kill"
                self.scope.add(
                    RiskLevel.DANGEROUS,
                    "kill" if kill else "delete",
                    f"{'ends' if kill else 'deletes'} each item piped into it",
                    s,
                    e,
                )
        fed = stdin.paths
        if not fed and stdin.kind == "static" and stdin.text.strip():
            # `'C:\Windows' | ForEach-Object { Remove-Item $_ -Recurse }`: the piped string
            # is `$_`; `'C:\Windows', 'C:\Users' | % { … }`: each line in turn (a few).
            lines = [v.strip() for v in stdin.text.splitlines() if v.strip()]
            if len(lines) > 1:
                # (the body is judged once, for the line that names the worst target)
                from aintern_ls.safety.paths import classify_path

                lines = lines[:8]
                levels = [classify_path(v, self.scope.cwds, True).level for v in lines]
                lines = [lines[levels.index(max(levels))]]
            fed = tuple(Word(v, stdin.start, stdin.start, False, "*" in v, "item") for v in lines)
        if fed:
            name = node.child_by_field_name("command_name") or (
                node.named_children[0] if node.named_children else None
            )
            if name is not None and _text(name).strip().lower() in _FOREACH | _WHERE:
                # `Get-ChildItem ~ | ForEach-Object { Remove-Item $_ -Recurse }` (a
                # Where-Object filter's block runs for each item too)
                if any(w.text == EVERY_BACKUP for w in fed):
                    self._each_backup_removed(node)
                with self.loop_variables("$_", fed):
                    self._item_methods(node, ("$_", "$psitem"), fed)
                    info = self._command(node, stdin)
                return self._passes_on(node, stdin, info)
        info = self._passes_on(node, stdin, self._command(node, stdin))
        name0 = node.named_children[0] if node.named_children else None
        if (
            name0 is not None
            and (low0 if low0 is not None else _text(name0).strip().lower()) in _ITEM_GETTERS
            and not info.paths
        ):
            # `Get-Item C:\Windows | Remove-Item -Recurse`: the item itself goes down the pipe.
            got = [_known_word(w) for w in self._item_paths(node)]
            # (a run-time name inside a protected Windows folder goes down as it is:
            # `Get-Item "$env:windir\System32\$n" | Rename-Item …`)
            got = [w for w in got if not w.dynamic or protected_unknown_name(w.text)]
            if got:
                # `Get-Item C:\Users\* | Remove-Item`: a glob's matches go down the pipe.
                info.paths = tuple(
                    Word(w.text, w.start, w.end, w.dynamic, any(c in w.text for c in "*?"), "item")
                    for w in got
                )
        if (
            name0 is not None
            and (low0 if low0 is not None else _text(name0).strip().lower()) in _CIM_GETTERS
            and re.search(r"(?i)\bwin32_userprofile\b", _text(node))
            and not re.search(r"(?i)-filter\b|-query\b|\bwhere\b", _text(node))
        ):
            # `Get-CimInstance Win32_UserProfile`: every profile (`.LocalPath`) (safety-m8)
            s, e = self.span(node)
            info.paths = (Word("C:\\Users\\*", s, e, False, True, "item"),)
        if name0 is not None and (low0 if low0 is not None else _text(name0).strip().lower()) in (
            "get-psdrive",
            "gdr",
        ):
            text = _text(node).lower()
            if "-psprovider" not in text or "filesystem" in text:
                s, e = self.span(node)
                info.paths = (Word("C:\\", s, e),)  # each drive's root
        return info

    def _passes_on(self, node: Node, stdin: Stdin, info: Info) -> Info:
        """`gci C:\\ -Directory | ? Name -ne 'Windows' | Remove-Item -Recurse`: a filter that
        only leaves some names out (or a sort) passes the rest of the listing on; one that
        keeps named items (`-like '*.log'`) narrows it."""
        name0 = node.named_children[0] if node.named_children else None
        if (
            not stdin.paths
            and stdin.kind == "static"
            and stdin.text
            and info.output is None
            and name0 is not None
            and _text(name0).strip().lower() in _WHERE
        ):
            # (n18w) `'C:\\Windows', 'C:\\Users' | ? { $_ } | Remove-Item`: literal strings
            # through a filter that keeps them all, or a `-like` pattern, go on as text
            kept = _strings_kept(_text(node), stdin.text.splitlines())
            if kept is not None:
                info.output = "\n".join(kept)
            return info
        if not stdin.paths or info.paths or name0 is None:
            return info
        if all(w.text.strip() in (".", ".\\", "./", "*", "") for w in stdin.paths):
            return info  # (the working directory's own entries keep their existing rules)
        stage = _text(name0).strip().lower()
        if any(w.text == EVERY_BACKUP for w in stdin.paths):
            if stage in _WHERE and not selects_all(_text(node)):
                # `Get-S3Object -BucketName backups | ? { $_.LastModified -lt … }`: an age or
                # name filter over every backup keeps a subset (retention pruning) (r15)
                return info
            if stage in ("select-object", "select") and not info.argv:
                info.argv = tuple(_text(node).split()[1:9])  # (-First 1: dispatch.next_stdin)
        if stage == "split-path":
            # (n13w) `Get-Item $HOME | Split-Path -Parent | Remove-Item -Recurse`: the
            # parents of the items piped in (with no path of its own and no -Leaf)
            words = _text(node).split()[1:]
            if all(w.startswith("-") for w in words) and not any(
                w.lower() in ("-leaf", "-noqualifier", "-extension", "-leafbase") for w in words
            ):
                up = [(w, _steps(w.text, "parent")) for w in stdin.paths[:8] if not w.dynamic]
                info.paths = tuple(
                    Word(p, w.start, w.end, False, False, "item") for w, p in up if p is not None
                )
            return info
        if stage in _REORDER or (
            stage in _WHERE
            and (
                (_LEAVES_OUT.search(body := _text(node)) and not _KEEPS_NAMED.search(body))
                or selects_all(body)
            )
        ):
            info.paths = stdin.paths
        return info

    def _item_paths(self, node: Node) -> list[Word]:
        """The path operands of an item getter (`Get-Item X`, `Resolve-Path -Path X`)."""
        out: list[Word] = []
        skip = False
        for c in node.named_children[1:]:
            if c.type != "command_elements":
                continue
            for el in c.named_children:
                if el.type in ("command_argument_sep", "comment"):
                    continue
                t = _text(el).strip()
                if t.startswith("-"):
                    skip = t.lower() not in ("-path", "-literalpath", "-force")
                    continue
                if skip:
                    skip = False
                    continue
                out.append(self.element(el))
        return out

    def _method_argument(self, target: Node, args: Node, word: Word) -> Word:
        """The value of `$p.Substring(0,10)` / `$p.Replace('a','')` split by the grammar into
        a member access and its argument list; `word` (unknown) when it is not literal."""
        raw = _text(target) + _text(args)
        if len(raw) > 400:
            return word
        held = _path_expression(raw, self.scope.env) if "psvariable" in raw.lower() else None
        if held is not None:
            # (n18w) `$ExecutionContext.SessionState.PSVariable.GetValue('HOME')`
            return Word(held, word.start, self.span(args)[1])
        from aintern_ls.safety.windows import ps_eval, ps_variables

        folded = ps_eval(raw, ps_variables(self.scope))
        if folded is None or not re.search(r"[\\/]|\A[A-Za-z]:|\A~", folded):
            return word
        return Word(folded, word.start, self.span(args)[1], glob=("*" in folded or "?" in folded))

    def _command(self, node: Node, stdin: Stdin) -> Info:
        words: list[Word] = []
        redirects: list[Node] = []
        name_expr: Node | None = None
        source = self.scope.source
        plain = self._plain
        spend = budget.spend
        # (what `_text` reads a node's text from, when the text is ASCII)
        fast = _FAST.text if plain else None
        for c in node.named_children:
            t = c.type
            if t == "command_name":
                s, e = self.span(c)
                raw = _text(c)
                words.append(Word(_unquoted(raw), s, e))
            elif t == "command_name_expr":
                if name_expr is None:
                    name_expr = c
                word = self.element(c)
                bare = c.named_children[0] if c.named_child_count == 1 else None
                if (
                    word.dynamic
                    and bare is not None
                    and bare.type == "path_command_name"
                    and bare.named_children
                    and all(k.type == "path_command_name_token" for k in bare.named_children)
                ):
                    # `& Get-ChildItem`, `. Remove-Item …`: the call operator on a name
                    # written as such runs that command (gen12)
                    s, e = self.span(bare)
                    word = Word(_text(bare).strip(), s, e)
                known = self.scope.env.get(_PS_VAR + _text(c).strip().lower())
                if known is not None and known.strip():
                    word = Word(known.strip(), word.start, word.end)
                if word.dynamic and re.search(
                    r"\+|-join|\[char\]|-replace|-f\b|\.invoke", word.text, re.I
                ):
                    self.scope.add(
                        RiskLevel.CRITICAL,
                        "obfuscated-command",
                        "the command name is assembled at run time (obfuscation)",
                        word.start,
                        word.end,
                    )
                if word.dynamic:
                    folded = fold_powershell(_text(c).lstrip("&. \t"))
                    if folded is not None and folded.strip():
                        # Judge what the assembled name really runs.
                        word = Word(folded.strip(), word.start, word.end)
                if word.dynamic:
                    raw_name = _text(c).lstrip("&. \t")
                    named = _command_lookup(raw_name)
                    if named is None and len(raw_name) < 200:
                        from aintern_ls.safety.windows import program_path_lookup

                        named = program_path_lookup(raw_name)  # `& (gcm x).Source …` (n14w)
                    if named is not None:
                        # `& (Get-Command Format-Vol*)`: the one command the pattern names
                        # (among those known here: a floor of moderate for the rest)
                        self.scope.add(
                            RiskLevel.MODERATE,
                            "indirect-code",
                            f"the command is looked up by a pattern (judged as {named})",
                            word.start,
                            word.end,
                        )
                        word = Word(named, word.start, word.end)
                words.append(word)
            elif t == "command_elements":
                prev: Node | None = None
                for el in c.named_children:
                    kind = el.kind_id
                    if kind == _K_SEP:
                        prev = None
                        continue
                    if fast is not None and kind in (_K_TOKEN, _K_PARAM):
                        # (most elements: a bare word or a `-Name` of an ASCII text, read
                        # here as the general path below reads it, without its detours)
                        prev = el
                        s0 = el.start_byte
                        e0 = el.end_byte
                        first = source[s0 : s0 + 1]
                        if first != "@" and not first.isspace():
                            spend(2)
                            raw = fast[s0:e0] if e0 - s0 <= 4096 else _text(el)
                            if (
                                kind == _K_TOKEN
                                and ">" in raw[:3]
                                and _REDIRECT_TOKEN.fullmatch(raw) is not None
                            ):
                                # `… | Remove-Item -Force 2>$null`: the grammar hands a
                                # redirect over as an argument; it is the stream's target,
                                # not a path for the command (gen12)
                                self.redirect_text(raw, s0, e0)
                                continue
                            glob = "*" in raw or "?" in raw
                            if source[e0 : e0 + 1] == "=" and kind == _K_PARAM:
                                word = _new_word(Word, (raw + "=", s0, e0 + 1, False, glob, ""))
                            elif kind == _K_TOKEN and "$" in raw:
                                word = self.token_word(raw, s0, e0)  # (n17w: `C:\$d`)
                            else:
                                text_ = (
                                    raw if _QUOTING.isdisjoint(raw) else unquote(raw, posix=False)
                                )
                                word = _new_word(Word, (text_, s0, e0, False, glob, ""))
                            if words and _bound_to_last(words, word, source, s0):
                                continue
                            words.append(word)
                            continue
                    et = el.type
                    if et == "command_argument_sep" or et == "comment":
                        prev = None
                        continue
                    if (
                        et == "argument_list"
                        and prev is not None
                        and prev.end_byte == el.start_byte
                        and words
                        and words[-1].dynamic
                    ):
                        # `$p.Substring(0,10)` as an argument: the grammar splits the method
                        # call from its arguments; together they are one expression (m9)
                        words[-1] = self._method_argument(prev, el, words[-1])
                        prev = None
                        continue
                    prev = el
                    if "redirection" in et:
                        self.redirection(el)
                        redirects.append(el)
                        continue
                    if et == "ERROR":
                        # `${env:ProgramFiles(x86)}\*` trips the grammar: split the region
                        # into words and resolve the folder variables in each.
                        es, ee = self.span(el)
                        nl = source.find("\n", es, ee)
                        if nl >= 0 and _INSIDE_SOMETHING.search(source, es, nl) is None:
                            # `Copy-Item a $HOME\x` / `git log --` then `format c: /q` on
                            # the next line: the error recovery ran over the end of the line
                            # and took the next statement into this command's words. This
                            # command ends at the line's end; the rest is read on its own.
                            words.extend(self.error_words(el, nl))
                            self.error_text(nl + 1, self.span(c)[1])
                            break
                        words.extend(self.error_words(el))
                        continue
                    # (`@p` splats a hashtable: only an element starting with `@` is looked
                    # up, so a script block's whole text is not copied at every level)
                    if plain:
                        s0, e0 = where = el.start_byte, el.end_byte
                    else:
                        s0, e0 = where = self.span(el)
                    first = source[s0 : s0 + 1]
                    if first != "@" and not first.isspace():
                        # (most elements: no splat, no `@(…)`; a parameter or a bare word is
                        # its own text, as `element` reads it)
                        if et == "generic_token" and "$" in source[s0:e0]:
                            spend(2)  # (as the fast path above charges it)
                            word = self.token_word(_text(el), s0, e0)  # (n17w: `C:\$d`)
                        elif et == "command_parameter" or et == "generic_token":
                            spend(2)
                            raw = _text(el)
                            word = Word(
                                raw if _QUOTING.isdisjoint(raw) else unquote(raw, posix=False),
                                s0,
                                e0,
                                glob=("*" in raw or "?" in raw),
                            )
                            if source[e0 : e0 + 1] == "=" and et == "command_parameter":
                                # `--format=x` (read as `--format:x`, `_equals_parameters`):
                                # the parameter keeps its `=`, and its value joins it below
                                word = Word(raw + "=", s0, e0 + 1, glob=word.glob)
                        else:
                            word = self.element(el, where)
                        if words and _bound_to_last(words, word, source, s0):
                            continue
                        words.append(word)
                        continue
                    splat = None
                    if source[s0 : s0 + 64].lstrip().startswith("@"):
                        splat = self.scope.env.get(_PS_SPLAT + _text(el).strip().lower()[1:])
                    if splat is not None:
                        words.extend(Word(t, s0, e0) for t in splat.split("\x01"))
                        continue
                    if (
                        source[s0 : s0 + 2] == "@("
                        and not (
                            words
                            and words[-1].text.startswith("-")
                            and not re.fullmatch(
                                r"(?i)-(?:pa(?:th?)?|literalpath|lp)", words[-1].text
                            )
                        )
                        and (items := _string_array(_text(el)))
                    ):
                        # `Remove-Item @('C:\Windows', 'C:\Users')`: each item is a path
                        words.extend(Word(t, s0, e0, glob="*" in t) for t in items[:16])
                        continue
                    word = self.element(el, where)
                    if not (words and _bound_to_last(words, word, source, s0)):
                        words.append(word)
            elif t == "command_invokation_operator":
                continue
            else:
                self.visit(c)
        if not words:
            return Info()
        # (the first command_name_expr, found in the loop above; its text read here, where
        # the budget pays for it)
        block_name = (
            _text(name_expr).strip().lstrip("&.").strip().lower() if name_expr is not None else None
        )
        if (
            len(words) == 1
            and words[0].dynamic
            and stdin.kind == NO_STDIN.kind
            and block_name
            and block_name[:1] == "{"
            and name_expr is not None
            and name_expr.named_children[:1]
            and name_expr.named_children[0].type == "script_block_expression"
        ):
            # `& { … }`, `. { # a comment }` called without arguments: the literal block's
            # body, judged where it stands (self.element), is all that runs.
            return Info()
        block = self.scope.env.get(_PS_BLOCK + block_name) if block_name else None
        if block is None and block_name and block_name[:1] == "(" and name_expr is not None:
            # `& ([scriptblock]::Create('param($p) …')) C:\Windows`: the block it builds
            block = _created_block(_text(name_expr).strip().lstrip("&.").strip(), self.scope)
        if block is None and block_name and block_name[:1] == "{" and len(words) > 1:
            # `& { param($p) Remove-Item $p -Recurse } 'C:\Windows'`: a literal block called
            # with arguments (its text, as written, bound to them).
            raw_block = _text(name_expr).strip().lstrip("&.").strip() if name_expr else ""
            block = raw_block if raw_block.endswith("}") else None
        if block is None and len(words) > 2 and words[0].text.lower() in _BLOCK_RUNNERS:
            # `Invoke-Command -ScriptBlock $sb -ArgumentList C:\Windows` (icm, Start-Job):
            # the block held by `$sb`, run with the arguments given
            block, args = self._runner_block(words)
            if block is not None:
                words = [words[0], *args]
        if block is not None:
            # `& $sb C:\Windows`: the block's body runs with its parameters bound to the
            # arguments given (judged as that text).
            body = _bind_block(block, words[1:])
            if stdin.kind == "static" and "$input" in body.lower():
                # (n14w) `'C:\Windows' | & $sb` with `$input` in the body: the piped string
                line = next((v.strip() for v in stdin.text.splitlines() if v.strip()), "")
                if line and "'" not in line:
                    body = re.sub(r"(?i)\$input\b", lambda _: "'" + line + "'", body)
            self.scope.include(self.scope.nested(body, "powershell", words[0], -1))
            return Info()
        if words[0].dynamic and len(words) > 1:
            # `& (gcm *ke-E*) 'Remove-Item C:\ -Recurse'`: a command only known at run time,
            # given a string that is itself a command line, may well be Invoke-Expression:
            # what that string does if run is what this line can do.
            for w in words[1:3]:
                if not w.dynamic and " " in w.text.strip() and not w.text.startswith("-"):
                    found = self.scope.nested(w.text, "powershell", w, -1)
                    self.scope.include([f for f in found if f.level >= RiskLevel.BLOCKED])
        # (only an empty word, one starting with a dash, a typographic quote, a backslash or
        # `~`, or one holding `::`, is changed by these: most are asked without a call)
        words = [
            _home_escape(_provider_path(_typographic(w)))
            if not w.text or w.text[0] in _RESPELLED_FIRST or "::" in w.text
            else w
            for w in words
        ]
        if len(words) > 2 and words[0].text.lower() in _SET_VARIABLE:
            self._set_variable(words)
        elif len(words) > 2 and words[0].text.lower() in _ENV_ITEM_SETTERS:
            self._set_env_item(words)
        if _PS_DEFAULTS in self.scope.env and words:
            words = _with_defaults(words, self.scope.env[_PS_DEFAULTS])
        info = dispatch.judge(words, self.scope, stdin)
        if info.output is None and words[0].text.lower() == "split-path":
            # `Split-Path $env:USERPROFILE | Remove-Item …` (n14w)
            info.output = split_path_output(node, stdin, self.scope)
        if self.scope.pending_cd is not None:
            from aintern_ls.safety.windows import apply_windows_cd

            apply_windows_cd(self.scope)  # `Set-Location C:\; Remove-Item Users -Recurse`
        for r in redirects:
            # `echo 'Remove-Item …' > w.ps1`: the file holds what the command printed.
            raw = _text(r)
            target = raw.lstrip("0123456789*>&| ").strip().strip("'\"")
            if target and raw.lstrip("1").startswith(">") and info.output is not None:
                base = target.replace("\\", "/").rsplit("/", 1)[-1]
                old = self.scope.written.get(base) if raw.lstrip("1").startswith(">>") else None
                self.scope.written[base] = ((old[0] if old else "") + info.output + "\n", -1)
            elif target and raw.lstrip("1").startswith(">") and raw[:1] in "1>":
                # (f19) `Get-ChildItem C:\ -Recurse > l.txt`, `… | Select -Expand FullName >
                # l.txt`: the file holds the listing the command passes on
                out = dispatch.next_stdin(info, stdin)
                if out.paths:
                    wrappers.remember_listing(self.scope, target, out)
        return info

    def _set_variable(self, words: list[Word]) -> None:
        """`Set-Variable x 'C:\\Windows'`, `New-Variable -Name t -Value $env:SystemRoot`: the
        variable holds that literal afterwards (as `$x = …` does)."""
        name: str | None = None
        value: Word | None = None
        rest = list(words[1:])
        positional: list[Word] = []
        i = 0
        while i < len(rest):
            t = rest[i].text.lower()
            if t.startswith("-") and i + 1 < len(rest) and "-name".startswith(t) and len(t) > 1:
                name = rest[i + 1].text
                i += 2
                continue
            if t.startswith("-") and i + 1 < len(rest) and "-value".startswith(t) and len(t) > 1:
                value = rest[i + 1]
                i += 2
                continue
            if not t.startswith("-"):
                positional.append(rest[i])
            i += 1
        if name is None and positional:
            name = positional.pop(0).text
        if value is None and positional:
            value = positional[0]
        if name and value is not None and not value.dynamic and re.fullmatch(r"\w+", name):
            key = _PS_VAR + "$" + name.lower()
            if self.scope.env.get(key) != value.text:  # (an unchanged table keeps memos valid)
                self.scope.env[key] = value.text

    def _set_env_item(self, words: list[Word]) -> None:
        """`Set-Item Env:T 'C:\\Users'`, `New-Item -Path Env:\\T -Value …`: `$env:T` holds
        that literal afterwards."""
        name: str | None = None
        value: Word | None = None
        rest = words[1:]
        i = 0
        while i < len(rest):
            t = rest[i].text
            low = t.lower()
            if low.startswith("-") and i + 1 < len(rest):
                arg = rest[i + 1]
                if "-value".startswith(low) and len(low) > 2:
                    value = arg
                elif ("-path".startswith(low) or "-literalpath".startswith(low)) and len(low) > 1:
                    m = _ENV_ITEM.fullmatch(arg.text)
                    name = m.group(1).lower() if m is not None else None
                elif "-name".startswith(low) and len(low) > 2 and name is None:
                    name = arg.text.lower()
                i += 2
                continue
            m = _ENV_ITEM.fullmatch(t)
            if m is not None and name is None:
                name = m.group(1).lower()
            elif value is None and not low.startswith("-"):
                value = rest[i]
            i += 1
        if name == "path" and value is not None:
            # (w21) `Set-Item Env:PATH "C:\Temp\b;$env:PATH"`: as `$env:PATH = …`
            raw = self.scope.source[max(value.start, 0) : max(value.end, 0)]
            env_hook(self.scope, "PATH", words[0].start, value.end, None, raw or value.text)
        if name and value is not None and not value.dynamic:
            self.scope.env[_PS_VAR + "$env:" + name] = value.text

    def error_words(self, node: Node, upto: int = -1) -> list[Word]:
        """The words of an ERROR region (up to the position `upto`, when given)."""
        s, _ = self.span(node)
        raw = _text(node) if upto < 0 else self.scope.source[s:upto]
        out: list[Word] = []
        for w in split_words(raw, s, posix=False):
            if w.text[:1] == "$" and self.scope.env:
                if w.text[:2] == "${" and (braced := _BRACED_VAR.match(w.text)) is not None:
                    text = "$" + braced.group(1) + w.text[braced.end() :]
                    w = Word(text, w.start, w.end, w.dynamic, w.glob, w.origin)
                lead = _HELD_LEAD.match(w.text)
                if (
                    lead is not None
                    and _PS_VAR + lead.group(0).lower() in self.scope.env
                    and lead.group(0).lower() in _KNOWN_VARS
                ):
                    # (w22) `$env:USERPROFILE\System32` after `$env:USERPROFILE =
                    # 'C:\Windows'`: the value this text gave it (a known folder's name
                    # read both ways, the worse wins), as `_held_or_known`
                    out.append(self._held_or_known(w))
                    continue
            value = _resolve_vars(w.text)
            if value is None and (var := _LEADING_VAR.match(w.text)) is not None:
                # `$t\*` (the grammar cannot read it) after `$t = 'C:\Users'`
                held = self.scope.env.get(_PS_VAR + var.group(0).lower())
                value = held + w.text[var.end() :] if held is not None else None
            if value is None:
                out.append(Word(w.text, w.start, w.end, True, w.glob, ORIGIN_VARIABLE))
            else:
                out.append(Word(value, w.start, w.end, glob=("*" in value or "?" in value)))
        return out

    def _held_or_known(self, w: Word) -> Word:
        """(w21) A word the grammar could not read, `$x\\System32` after `$x = 'C:\\Windows'`
        (or after `$env:USERPROFILE = 'C:\\Windows'`): the value this text gave the leading
        variable, else the known folder it names (`_known_word`)."""
        if w.text[:1] == "$" and self.scope.env:
            var = _HELD_LEAD.match(w.text)
            lead = var.group(0).lower() if var else ""
            held = self.scope.env.get(_PS_VAR + lead) if var else None
            if var is not None and held is not None:
                text = held + w.text[var.end() :]
                if lead in _KNOWN_VARS:
                    # (w21) a known folder variable this text assigned: the worse reading
                    text = _worse_path(_known_word(w).text, text)
                return Word(text, w.start, w.end, glob=("*" in text or "?" in text))
        return _known_word(w)

    def redirection(self, node: Node) -> None:
        self.redirect_text(_text(node), *self.span(node))

    def redirect_text(self, raw: str, s: int, e: int) -> None:
        """`> target` (the operator and its target, spanning s..e) judged as a write."""
        target = raw.lstrip("0123456789*>&| ").strip()
        if (
            target
            and target.lower() not in ("$null", "1", "2")
            and not raw.strip().startswith("2>&1")
        ):
            from aintern_ls.safety.windows import windows_write_target

            bare = target.strip("'\"() ")
            held = self.scope.env.get(_PS_VAR + bare.lower()) if bare[:1] == "$" else None
            if _PROFILE_VAR.fullmatch(bare) or (held and _PROFILE_VAR.fullmatch(held)):
                # `"…" >> $PROFILE`: a PowerShell profile runs at every start (persistence).
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "persistence",
                    "writes a PowerShell profile (runs at every start)",
                    s,
                    e,
                )
                return
            # `'' > C:\Windows\System32\config\SAM`: a redirect over a system or account
            # file is judged like any write to it.
            path = _resolve_vars(target.strip("'\"")) or target.strip("'\"")
            if path[:2] in ("\\\\", "//") and self._redirect_upload(path, s, e):
                return
            hit = windows_write_target(path)
            if hit is not None:
                verb = "appends to" if raw.lstrip("0123456789*").startswith(">>") else "writes to"
                level = (
                    hit[0]
                    if verb == "writes to" or hit[0] < RiskLevel.BLOCKED
                    else RiskLevel.CRITICAL
                )
                self.scope.add(level, hit[1], f"{verb} {hit[2]}", s, e)
                return
            self.scope.add(RiskLevel.MODERATE, "write", f"writes to {target}", s, e)

    def _redirect_upload(self, path: str, s: int, e: int) -> bool:
        """`Get-Content .\\a.txt > \\\\host\\share\\a.txt`: a local file's contents
        redirected onto another machine's share, an upload like `Copy-Item` to it."""
        from aintern_ls.safety.windows import (
            _UNC,
            _local_host_share,
            content_read_in,
            statement_start,
        )

        if not _UNC.match(path) or _local_host_share(path):
            return False
        src = self.scope.source
        read = content_read_in(src[statement_start(src, s) : s])
        if read is None:
            return False
        self.scope.add(
            RiskLevel.CRITICAL, "upload", f"writes the contents of {read} onto {path}", s, e
        )
        return True

    def element(self, node: Node, where: tuple[int, int] | None = None) -> Word:
        """The word an argument stands for (`where`: its span, when the caller has it)."""
        budget.spend(3)
        s, e = self.span(node) if where is None else where
        t = node.type
        raw = _text(node)
        if raw[:2] == "${" and (braced := _BRACED_VAR.match(raw)) is not None:
            # (w22) `${env:USERPROFILE}\System32` is `$env:USERPROFILE\System32` (a value
            # this text assigned it wins as for the plain spelling)
            raw = "$" + braced.group(1) + raw[braced.end() :]
        if t == "generic_token" and "$" in raw:
            return self.token_word(raw, s, e)
        if t == "command_parameter" or t == "generic_token":
            return Word(_unquoted(raw), s, e, glob=("*" in raw or "?" in raw))
        if raw.startswith("$") and _VAR_AND_PATH.fullmatch(raw):
            # `$HOME\*`, `$env:SystemDrive\`: a known folder followed by a path; `$t\*`
            # after `$t = 'C:\Users'`: the variable's literal followed by the path.
            var = re.match(r"\$(env:)?\w+", raw)
            lead = var.group(0).lower() if var is not None else ""
            known = _lookup(self.scope.env, lead, False)
            if known is not None and _both_readings(self.scope.env, [lead]):
                assigned = self.scope.env[_PS_VAR + lead]
                rest = raw[var.end() :] if var is not None else ""
                known = _worse_path(known + rest, assigned + rest)[: -len(rest) or None]
            if known is not None and var is not None:
                return Word(known + raw[var.end() :], s, e, glob=("*" in raw or "?" in raw))
        inner = _unwrap(node)
        if inner.type in ("command_name", "generic_token"):
            return Word(unquote(_text(inner), posix=False), s, e)
        if inner.type == "string_literal":
            w = self.string_word(inner)
            return Word(w.text, s, e, w.dynamic, False, w.origin)
        if raw.startswith("${") and (known := _resolve_vars(raw)) is not None and "${" not in known:
            return Word(known, s, e, glob=("*" in known or "?" in known))
        if inner.type in ("variable", "member_access", "element_access"):
            # `$using:p` in a job/remote body is the caller's `$p`.
            key = _USING.sub("$", raw.lower())
            # (n19w: `$variable:HOME`, `$script:HOME`: the variable of that name; w21: a
            # value this text gave `$env:USERPROFILE` first)
            known = _KNOWN_VARS.get(key) or _KNOWN_VARS.get(_normal_var(key))
            if known is not None and _both_readings(self.scope.env, [key]):
                known = _worse_path(known, self.scope.env[_PS_VAR + key])  # (w21)
            if known is None and _PS_ARRAY + key in self.scope.env:
                known = self._indirect_value(key)  # (an array: its worst item)
            if known is None:
                known = self.scope.env.get(_PS_VAR + key) or self._indirect_value(key)
            if known is not None:
                return Word(known, s, e, glob=("*" in known or "?" in known))
        if inner.type == "member_access" and (steps := _ITEM_STEPS.match(raw)) is not None:
            # (n13w) `$d.Parent.FullName` of `$d = [IO.DirectoryInfo]::new($HOME)`
            held = self.scope.env.get(_PS_VAR + steps.group(1).lower())
            if held and (up := _steps(held, steps.group(2))) is not None:
                return Word(up, s, e)
        if inner.type == "variable":
            return Word(raw, s, e, True, False, ORIGIN_VARIABLE)
        self.visit(node)
        folded = _path_expression(raw, self.scope.env)
        if folded is None and len(raw) < 400 and ("$" in raw or _STRING_OP.search(raw)):
            from aintern_ls.safety.windows import ps_eval, ps_variables

            folded = ps_eval(raw, ps_variables(self.scope))  # `($d.Root + '*')` in a loop
        if folded is not None and (folded == "." or re.search(r"[\\/]|\A[A-Za-z]:|\A~", folded)):
            # `($env:windir + '\System32')`, `(Join-Path $env:SystemRoot System32)`: a path
            # built from known folders and literals is that path.
            return Word(folded, s, e, glob=("*" in folded or "?" in folded))
        if folded is None and len(raw) < 600 and any(k in raw.lower() for k in _PICKS):
            folded = _chosen_value(raw, self.scope)
            if folded is not None:
                return Word(folded, s, e, glob=("*" in folded or "?" in folded))
        origin = ORIGIN_NETWORK if self.downloads(raw, s) else ORIGIN_VARIABLE
        return Word(raw, s, e, True, False, origin)

    def _indirect_value(self, key: str) -> str | None:
        """The literal a variable reference stands for through its spelling or its type:
        `$script:t`/`${t}` (the variable `$t`), `$a['p']` (the member `$a.p` of a literal
        table), `$l[1]` (an item of a literal array), `$l` (an array: its worst item, as
        an argument takes them all)."""
        env = self.scope.env
        plain = _normal_var(key)
        if plain != key and (value := env.get(_PS_VAR + plain)) is not None:
            return value
        m = _INDEXED.match(key)
        if m is not None:
            if m.group(2) or m.group(3):
                return env.get(_PS_VAR + "$" + m.group(1) + "." + (m.group(2) or m.group(3)))
            held = env.get(_PS_ARRAY + "$" + m.group(1))
            if held is None:
                return None
            items = held.split("\x01")
            i = int(m.group(4))
            return items[i] if -len(items) <= i < len(items) else None
        m = _VAR_INDEXED.match(key)
        if m is not None and _counter_walks_all(self.scope.source, m.group(2)):
            # (n19w) `$a[$i]`, `$a[$i].FullName`, `$l[$k - 1]`: an item picked by a counter
            # (a while/do/for loop walks them all): the array's worst item; a variable
            # holding a listing's entries, any entry (the listing itself)
            plain = "$" + m.group(1)
            if _PS_ARRAY + plain not in env:
                listed = env.get(_PS_VAR + plain)
                return listed if listed and listed.endswith(("\\*", "/*")) else None
        held = env.get(_PS_ARRAY + plain)
        if held is None:
            return None
        from aintern_ls.safety.paths import classify_path

        items = held.split("\x01")[:8]
        levels = [classify_path(x, self.scope.cwds, True).level for x in items]
        return items[levels.index(max(levels))]

    def token_word(self, raw: str, s: int, e: int) -> Word:
        """(n17w) A bare argument is expandable: `C:\\$d`, `Cert:\\LocalMachine\\$s\\*` hold
        the variables' values (a known literal in place; an unknown one makes the word
        dynamic, not a folder literally named `$d`)."""
        text = _unquoted(raw)
        if _BODY_VAR.search(text.replace("`$", "")) is None:
            return Word(text, s, e, glob=("*" in raw or "?" in raw))
        env = self.scope.env

        def sub(m: re.Match[str], first: bool = False) -> str:
            return _lookup(env, m.group(0).lower(), first) or "\x00"

        expanded = _BODY_VAR.sub(sub, text.replace("`$", "\x01")).replace("\x01", "$")
        keys = [v.group(0).lower() for v in _BODY_VAR.finditer(text)]
        if _both_readings(env, keys):
            # (w21) `$env:USERPROFILE = 'C:\Windows'` earlier: read both ways, the worse
            other = _BODY_VAR.sub(lambda m: sub(m, True), text.replace("`$", "\x01"))
            expanded = _worse_path(expanded, other.replace("\x01", "$"))
        if "\x00" not in expanded:
            return Word(expanded, s, e, glob=("*" in expanded or "?" in expanded))
        return Word(expanded.replace("\x00", "$x"), s, e, True, False, ORIGIN_VARIABLE)

    def string_word(self, node: Node) -> Word:
        s, e = self.span(node)
        raw = _text(node)
        if raw.startswith("@"):
            body = raw[2:-2].strip("\r\n")
        elif raw[:1] in ("'", '"'):
            body = raw[1:-1]
        else:
            body = raw
        if raw.lstrip("@")[:1] == "'":
            return Word(body.replace("''", "'"), s, e)
        for c in node.named_children:
            self.visit(c)

        env = self.scope.env

        def sub(m: re.Match[str]) -> str:
            # `$d = 'C:\'; Remove-Item "$d*"`: a variable holding a literal is that literal
            # (w21: `$env:USERPROFILE = 'C:\Windows'` first, the known folder otherwise)
            return _lookup(env, m.group(0).lower(), False) or "\x00"

        body = env_accessors(body)
        if "${" in body:
            # `"${t}Windows"`: a braced variable with a known value is that value in place.
            body = re.sub(
                r"\$\{(\w+)\}",
                lambda m: env.get(_PS_VAR + "$" + m.group(1).lower(), m.group(0)),
                body,
            )
        if "$" not in body and "\x00" not in body:
            # (no variable, subexpression or braced name for the substitutions below)
            return Word(_unbacktick(body), s, e, False, False, "")
        # `"$($env:windir)\System32"`, `"${env:windir}"`: a subexpression or braced name
        # holding only a variable is that variable.
        body = _SUBEXPR_VAR.sub(_bare_var, body)
        body = _HOME_PAIR.sub("$HOME", body)
        # `"$($_.Root)*"`: a subexpression of a loop variable the walk has bound.
        if "$(" in body:
            body = _SUBEXPR_MEMBER.sub(
                lambda m: self.scope.env.get(_PS_VAR + m.group(1).lower(), m.group(0)),
                body,
            )
        if "$(" in body:
            # (n17w) `"$((Get-Item $HOME).Parent.FullName)\*"`: a known path's subexpression
            body = _known_subexpressions(body, env)
        if "$(" in body:
            from aintern_ls.safety.windows import _subexpressions, ps_variables

            # `"C:\Win$('dows')"`: subexpressions of literals are their values
            body = _subexpressions(body, ps_variables(self.scope)) or body
        # (n17w: `` `$name `` is a literal dollar sign, not a variable the outer shell fills)
        escaped = "`$" in body
        plain_body = _unbacktick(body.replace("`$", "\x01") if escaped else body)
        expanded = _BODY_VAR.sub(sub, plain_body)
        if _both_readings(env, [v.group(0).lower() for v in _BODY_VAR.finditer(plain_body)]):
            # (w21) a known folder variable this text also assigned: the worse reading
            other = _BODY_VAR.sub(
                lambda m: _lookup(env, m.group(0).lower(), True) or "\x00", plain_body
            )
            expanded = _worse_path(expanded, other)
        expanded = expanded.replace("\x01", "$") if escaped else expanded
        dynamic = "\x00" in expanded or "$(" in body
        origin = ORIGIN_NETWORK if dynamic and _DOWNLOAD.search(body) else ""
        return Word(
            expanded.replace("\x00", "$x") if dynamic else expanded,
            s,
            e,
            dynamic,
            False,
            origin or (ORIGIN_VARIABLE if dynamic else ""),
        )


# PowerShell's escapes in an expandable string: `n, `r and `t are control characters
# (`"sel dis 1`nclean"` is two lines), any other escaped character is itself.
_BACKTICK = re.compile(r"`(.)", re.S)
_BACKTICK_CHARS = {"n": "\n", "r": "\r", "t": "\t", "0": ""}


def _unbacktick(body: str) -> str:
    if "`" not in body:
        return body
    if "`n" not in body and "`r" not in body and "`t" not in body and "`0" not in body:
        return body.replace("`", "")  # (no control escape: each escaped character is itself)
    return _BACKTICK.sub(lambda m: _BACKTICK_CHARS.get(m.group(1), m.group(1)), body)


# Expressions that list the machine's drives: what they emit is each drive's root.
_ITEM_GETTERS = frozenset({"get-item", "gi", "resolve-path", "rvpa", "convert-path", "cvpa"})
_CIM_GETTERS = frozenset({"get-ciminstance", "gcim", "get-wmiobject", "gwmi"})
# (the first words `_Walker._command_bound` looks at after judging a command that reads no
# pipe: the commands whose output it describes)
_NAMED_AFTER = _ITEM_GETTERS | _CIM_GETTERS | {"get-psdrive", "gdr"}
# `('C:\swodniW'[-1..-10] -join '')`, `('x' -replace …)`, `("…".ToUpper())`: string
# operations on literals, evaluated when they form an argument.
_STRING_OP = re.compile(
    r"(?i)['\"]\s*(?:\[|\.\s*(?:to(?:upper|lower)|replace|substring|trim\w*|insert|remove)\s*\()"
    r"|-(?:c|i)?(?:replace|join|split|f)\b|\[char"
)
_DOTNET_LISTING = re.compile(
    r"(?i)\A\(?\s*(?:\[(?:system\.)?io\.directory\]::(?:get|enumerate)(?:directories|files"
    r"|filesystementries)\s*\(\s*([^,()]+?)\s*(?:,[^()]*)?\)"
    r"|\(\s*(?:get-item|gi)\s+(?:-(?:literal)?path\s+)?([^()|;]+?)\s*\)\s*\.\s*(?:get|enumerate)"
    r"(?:directories|files|filesysteminfos)\s*\([^()]*\))\s*\)?\Z"
)
_DRIVE_LIST = re.compile(r"(?i)\[(?:system\.)?io\.driveinfo\]::getdrives\s*\(")
_VAR_REF = re.compile(r"\$\{((?:env:)?[\w()]+)\}|\$((?:env:)?\w+(?:\(x86\))?)", re.I)


_ARRAY_ITEM = re.compile("'([^']*)'|\"([^\"`]*)\"")
_ONE_STRING = "(?:'[^']*'|\"[^\"`]*\")"
_STRING_ARRAY = re.compile(
    r"\A@?\(?\s*" + _ONE_STRING + r"(?:\s*,\s*" + _ONE_STRING + r")*\s*\)?\Z"
)


# (w21) an item may also be a bare variable: `@($env:USERPROFILE)`, `$HOME, 'C:\x'`
_ONE_ITEM = "(?:'[^']*'|\"[^\"`]*\"|\\$\\{[\\w:()]+\\}|\\$[\\w:]+(?:\\(x86\\))?|\\d{1,6}(?![\\w.]))"
_ITEM_ARRAY = re.compile(r"\A@?\(?\s*" + _ONE_ITEM + r"(?:\s*,\s*" + _ONE_ITEM + r")*\s*\)?\Z")
_ANY_ITEM = re.compile(
    "'([^']*)'|\"([^\"`]*)\"|\\$\\{([\\w:()]+)\\}|\\$([\\w:]+(?:\\(x86\\))?)|(?<![\\w.])(\\d{1,6})(?![\\w.])"
)


# (w22) `${env:X}` or `${x}` followed by nothing or a path separator
_BRACED_VAR = re.compile(r"\$\{((?:env:)?\w+)\}(?=[\\/]|\Z)")
# (w22) type casts before a list: `[string[]]$x`, `[System.Collections.ArrayList]@(…)`,
# `[System.Collections.Generic.List[string]]@(…)`: the list's items are the same
_CASTS = re.compile(r"\A(?:\[[\w.]+(?:\[[\w., ]*\])?\][ \t]*)+")


def _uncast(text: str) -> str:
    """(w22) A list expression without the type casts in front of it."""
    if text[:1] != "[":
        return text
    m = _CASTS.match(text)
    return text[m.end() :] if m is not None else text


def _item_array(raw: str, env: Mapping[str, str], numbers: bool = False) -> list[str] | None:
    """(w21) The items of a literal list whose items are strings or bare variables
    (`@($env:USERPROFILE)`, `$HOME, 'C:\\x'`, `$a, $b` after `$a = 'C:\\Users'`): a
    variable is its value when this text assigned it a constant or it names a known folder;
    an unknown one is left out, so the list is judged by its worst known item (a loop over
    it acts on each). None when no item is known or the expression is anything else."""
    text = _uncast(raw.strip())
    text = text[1:].lstrip() if text[:1] == "," else text  # (`,$HOME`: a one-item array)
    if len(text) > 2000 or ("$" not in text and not numbers) or not _ITEM_ARRAY.match(text):
        return None
    out: list[str] = []
    for m in _ANY_ITEM.finditer(text):
        if m.group(1) is not None or m.group(5) is not None:
            if m.group(5) is not None and not numbers:
                return None  # (a number among the items: only a loop's list takes it)
            out.append(m.group(1) if m.group(1) is not None else m.group(5))
            continue
        if m.group(2) is not None:
            value = _resolve_vars(m.group(2))
        else:
            name = "$" + (m.group(3) or m.group(4) or "").lower()
            value = env.get(_PS_VAR + name)
            if value is None:
                known = _KNOWN_VARS.get(name)
                value = None if known is None or known.startswith("$") else known
        if value is not None:
            out.append(value)
    return out or None


def _is_list(raw: str) -> bool:
    """(w22) The expression is written as a list: `@(…)`, `,x`, or cast to a list type."""
    text = raw.lstrip()
    return text[:2] == "@(" or text[:1] in ",["


def _string_array(raw: str) -> list[str] | None:
    """The items of an array of constant strings (`@('C:\\Users', "$env:SystemRoot")`), or
    None when the expression is anything else."""
    text = _uncast(raw.strip())
    text = text[1:].lstrip() if text[:1] == "," else text  # (w22: `,'C:\Users'`, one item)
    if len(text) > 2000 or not _STRING_ARRAY.match(text):
        return None
    out: list[str] = []
    for m in _ARRAY_ITEM.finditer(text):
        if m.group(1) is not None:
            out.append(m.group(1))
            continue
        value = _resolve_vars(m.group(2))
        if value is None:
            return None
        out.append(value)
    return out


# `FileSystem::C:\Windows`, `Microsoft.PowerShell.Core\FileSystem::…`, `\\?\C:\…` (the
# long-path prefix), `\\.\C:\…`: provider-qualified and device-namespace spellings of a path.
_PROVIDER_PREFIX = re.compile(
    r"(?i)\A(['\"]?)((?:microsoft\.powershell\.core\\)?filesystem::)?"
    r"(\\\\[?.]\\(?=[a-z]:\\)|\\\\\?\\unc\\(?=[^\\]))?"
)


_ARRAY_REVERSE = re.compile(r"(?i)\[(?:system\.)?array\]\s*::\s*reverse\s*\(\s*(\$\w+)\s*\)")
_ENV_ITEM_SETTERS = frozenset({"set-item", "si", "new-item", "ni"})
_ENV_ITEM = re.compile(r"(?i)env:[\\/]?(\w+)")
_LEADING_VAR = re.compile(r"\$\w+(?=[\\/])")
_LHS_CAST = re.compile(r"\A(?:\[[\w.\[\]]+\]\s*)+")
_MULTI_LHS = re.compile(r"\$\w+(?:\s*,\s*\$\w+)+")
_SCOPED_VAR = re.compile(r"\A\$(?:script|global|local|private|using|variable):(\w+)\Z")
_HASH_PAIR = re.compile(r"[{;\s](\w+)\s*=\s*(?:'((?:[^']|'')*)'|\"([^\"$`]*)\")")
_INDEXED = re.compile(r"\A\$(\w+)\[\s*(?:'(\w+)'|\"(\w+)\"|(-?\d+))\s*\]\Z")
_ARRAY_OF_VAR = re.compile(r"@\(\s*(\$[\w:]+)\s*\)")
_VAR_INDEXED = re.compile(
    r"\A\$(\w+)\[\s*\$(\w+)(?:\s*[-+]\s*\d+)?\s*\](?:\.(?:fullname|pspath|fullpath|name))?\Z"
)
# a counter compared with a bound: `$i -lt $a.Count`, `$i -ge ($a.Length - 3)`, `$i -lt 2`
_COUNTER_TEST = (
    r"\s+-(lt|le|ge|gt|eq|ne)\s+(?:\(?\s*\$\w+\.(?:count|length)\s*(?:-\s*(\d+))?\s*\)?|(\d+))"
)


@functools.lru_cache(maxsize=64)
def _counter_walks_all(source: str, counter: str) -> bool:
    """(n19w) Whether the counter `$counter` picks every item of an array: not when a
    `for`/range-`foreach` loop drives it (`_index_loops` reads those, with their bounds),
    nor when a test stops it short (`while ($i -lt $a.Count - 3)`, `until ($i -eq 2)`); a
    counter tested against the whole count, or not tested where it is seen, may be any."""
    text = source[:20000]
    name = re.escape(counter)
    if re.search(r"(?i)\bfor(?:each)?\s*\(\s*\$" + name + r"\b", text):
        return False
    for t in re.finditer(r"(?i)\$" + name + _COUNTER_TEST, text):
        op, less, number = t.group(1).lower(), int(t.group(2) or 0), t.group(3)
        if number is not None:
            return False  # (a fixed number of items)
        if less > (1 if op in ("le", "gt") else 0):
            return False  # (all but the last few)
    return True


def _normal_var(name: str) -> str:
    """A variable's plain name: `${env:T}` is `$env:t`, `$script:t` is `$t`."""
    name = name.strip().lower()
    if name.startswith("${") and name.endswith("}"):
        name = "$" + name[2:-1]
    m = _SCOPED_VAR.match(name)
    return "$" + m.group(1) if m is not None else name


# (n20w) the files `$PROFILE` and its members name (PowerShell 7; Windows PowerShell's
# `WindowsPowerShell` folders are read as profiles by the same path rule)
_PROFILE_PATHS = {
    "": "~\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1",
    "currentusercurrenthost": "~\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1",
    "currentuserallhosts": "~\\Documents\\PowerShell\\profile.ps1",
    "allusersallhosts": "C:\\Program Files\\PowerShell\\7\\profile.ps1",
    "alluserscurrenthost": "C:\\Program Files\\PowerShell\\7\\Microsoft.PowerShell_profile.ps1",
}
_PROFILE_VAR = re.compile(
    r"(?i)\$\{?profile\}?(\.(allusersallhosts|alluserscurrenthost|currentuserallhosts"
    r"|currentusercurrenthost))?"
)
# A subexpression made only of `if`/`elseif`/`else`/`switch`, conditions and literals: one
# of its literals is the value (`$(if ($true) { 'C:\Windows' })`).
_CHOICE = re.compile(
    r"(?i)\$?\((?:\s|\bif\b|\belseif\b|\belse\b|\bswitch\b|\{|\}|;|\([^()]*\)|'[^']*'"
    r"|\"[^\"$`]*\"|\d+|\$true|\$false)*\)"
)
_PICKS = ("if", "switch", "variable", "gv")
_CHOICE_ITEM = re.compile(r"'([^']*)'|\"([^\"$`]*)\"")


def _chosen_value(raw: str, scope: Scope) -> str | None:
    """The value an argument that picks a value stands for: `(Get-Variable t -ValueOnly)`,
    `(gv t).Value` (the variable's literal), or an `if`/`switch` subexpression of literals
    (the one naming the worst target: which branch runs is not known here)."""
    text = raw.strip()
    if (name := variable_read_name(text, scope.env)) is not None:
        return scope.env.get(_PS_VAR + "$" + name.lower())
    if not _CHOICE.fullmatch(text) or not re.search(r"(?i)\b(?:if|switch)\b", text):
        return None
    from aintern_ls.safety.paths import classify_path

    # (the literals of the conditions are candidates too: harmless, they are not paths)
    items: list[str] = [str(a or b) for a, b in _CHOICE_ITEM.findall(text)][:8]
    items = [x for x in items if x.strip()]
    if not items:
        return None
    levels = [classify_path(x, scope.cwds, True).level for x in items]
    return items[levels.index(max(levels))]


def _home_escape(w: Word) -> Word:
    """`~\\..\\..\\Windows` (a home folder's variable followed by `..` out of it): the
    home is `C:\\Users\\<name>`, so the path is judged from there."""
    if not w.text.startswith(("~\\..", "~/..", "~\\AppData")) or ".." not in w.text:
        return w
    return Word("C:\\Users\\user" + w.text[1:], w.start, w.end, w.dynamic, w.glob, w.origin)


_SET_VARIABLE = frozenset({"set-variable", "sv", "new-variable", "nv"})
_DASHES = "\u2013\u2014\u2015"
_SMART_QUOTES = "\u2018\u2019\u201a\u201b\u201c\u201d\u201e"
# First characters of the words `_typographic`, `_provider_path` or `_home_escape` may
# respell (a word holding `::` may be provider-qualified wherever it starts).
_RESPELLED_FIRST = frozenset(_DASHES + _SMART_QUOTES + "\\~")


def _typographic(w: Word) -> Word:
    """PowerShell reads an en dash, em dash or horizontal bar as `-` and typographic quotes
    as quotes (`Remove-Item \u2013Recurse \u2018C:\\Windows\u2019`)."""
    text = w.text
    if text[:1] in _DASHES:
        text = "-" + text[1:]
    if text[:1] in _SMART_QUOTES and text[-1:] in _SMART_QUOTES and len(text) > 1:
        text = text[1:-1]
    return w if text == w.text else Word(text, w.start, w.end, w.dynamic, w.glob, w.origin)


def _provider_path(w: Word) -> Word:
    """A path word without its provider qualifier or long-path prefix: the same file (a
    bare raw-volume name, backslash-backslash-dot-backslash-C-colon, is left as it is)."""
    if "::" not in w.text and not w.text.startswith(("\\\\?\\", "\\\\.\\")):
        return w
    m = _PROVIDER_PREFIX.match(w.text)
    if m is None or not (m.group(2) or m.group(3)):
        return w
    rest = w.text[m.end() :]
    if m.group(3) and m.group(3).lower().endswith("unc\\"):
        rest = "\\\\" + rest
    if not rest:
        return w
    return Word(m.group(1) + rest, w.start, w.end, w.dynamic, w.glob, w.origin)


def _known_word(w: Word) -> Word:
    """A word whose variables are all known folders (`$HOME`, `${env:windir}\\x`) as the
    path it names; other words as they are."""
    if "$" not in w.text:
        return w
    value = _KNOWN_VARS.get(w.text.lower())
    if value is None:
        value = _resolve_vars(w.text)
    if value is None:
        return w
    return Word(value, w.start, w.end, glob=("*" in value or "?" in value))


def _resolve_vars(text: str) -> str | None:
    """A word with only known folder variables (`${env:ProgramFiles(x86)}\\x`,
    `$env:windir\\System32`) as the path it names; None when another variable is in it."""
    unknown = False

    def sub(m: re.Match[str]) -> str:
        nonlocal unknown
        known = _KNOWN_VARS.get("$" + (m.group(1) or m.group(2)).lower())
        if known is None:
            unknown = True
            return m.group(0)
        return known

    value = _VAR_REF.sub(sub, unquote(text, posix=False))
    return None if unknown else value


# .NET's profiler variables load a DLL into every .NET program started afterwards.
_PROFILER_VARS = frozenset(
    {"COR_ENABLE_PROFILING", "COR_PROFILER", "COR_PROFILER_PATH", "CORECLR_ENABLE_PROFILING"}
    | {"CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "CORECLR_PROFILER_PATH_64"}
    # (n14w) .NET Core's startup hooks: assemblies every `dotnet` run loads before Main
    | {"DOTNET_STARTUP_HOOKS", "DOTNET_ADDITIONAL_DEPS", "DOTNET_SHARED_STORE"}
)


# (w22) `[Environment]::SetEnvironmentVariable('Path', …`: PATH set by the .NET call
_SET_PROCESS_VAR = re.compile(
    r"(?i)\[(?:system\.)?environment\]::setenvironmentvariable\s*\(\s*(['\"])path\1\s*,"
)
# (w22) PATH's own value in a new PATH: `%PATH%;C:\x`, `$env:Path;…`, `${env:PATH}…`
_PATH_REFERENCE = re.compile(r"(?i)%path%|\$env:path\b|\$\{env:path\}")
_PATH_SEPARATOR = re.compile(r"(?i)\[(?:system\.)?io\.path\]::pathseparator")
# a PowerShell string concatenation: `"a" + "b"`, `"a;" + $env:PATH`
_CONCAT = re.compile(r"[\"']?[ \t]{0,8}\+[ \t]{0,8}[\"']?")


def env_hook(
    scope: Scope, name: str, start: int, end: int, value: str | None = None, raw: str = ""
) -> None:
    """Setting a variable that changes what later programs run or load, for this session
    (`$env:PATH += …`, cmd `set PATH=…`): an env hook (moderate); .NET's profiler
    variables make every .NET program load a DLL (critical); a variable whose value a
    program runs as a command (`set FZF_DEFAULT_COMMAND=…`, `$env:GIT_PAGER=…`) is judged
    as that command (safety-m9)."""
    from aintern_ls.safety.registry import COMMAND_VARS, HOOK_VARS

    upper = name.strip().strip('"').upper()
    if upper == "PATH":
        # (w21, review 20 U3) `$env:PATH = "C:\Temp\b;$env:PATH"`, `set PATH=%TEMP%\b;%PATH%`:
        # a folder anyone may write to searched first; programs run by bare name after it
        # may be files from there (dispatch judges each, as for bash's PATH front)
        from aintern_ls.safety.registry import PATH_FRONT, risky_windows_path_front

        if "+" in raw and raw != "+=":
            # (w22) `"C:\Temp\b" + [IO.Path]::PathSeparator + $env:PATH`, `"…;" + $env:Path`:
            # the string the concatenation makes
            if "pathseparator" in raw.lower():
                raw = _PATH_SEPARATOR.sub(";", raw)
            raw = _CONCAT.sub("", raw)
        front = risky_windows_path_front(raw) if raw != "+=" else ""
        if front:
            scope.env[PATH_FRONT] = front
        elif raw != "+=" and (len(raw) > 4096 or not _PATH_REFERENCE.search(raw)):
            # (w22) a value that keeps the list (`+=`, `%PATH%;C:\x`, `C:\tools;$env:PATH`)
            # keeps the folder it had first in it, searched before the rest
            scope.env.pop(PATH_FRONT, None)
    if value and "-XX:On" in value:
        from aintern_ls.safety.registry import is_jvm_options_var, jvm_event_findings

        if is_jvm_options_var(upper):
            # (n20u) `$env:JAVA_TOOL_OPTIONS = '-XX:OnError=…'`, cmd `set KAFKA_OPTS=…`: the
            # JVMs started afterwards run the hook (read as cmd.exe and as /bin/sh would)
            where = Word(value.rstrip('"'), start, end)
            scope.include(jvm_event_findings(scope, where.text, where, upper, ("cmd", "bash")))
    if value and upper in COMMAND_VARS and upper not in HOOK_VARS:
        where = Word(value, start, end)
        found = scope.nested(value, "cmd", where, -1)
        level = max((f.level for f in found), default=RiskLevel.SAFE)
        if level < RiskLevel.DANGEROUS:
            found = scope.nested(value, "bash", where, -1)  # (git's pager runs in its sh)
            level = max((f.level for f in found), default=RiskLevel.SAFE)
        if level >= RiskLevel.DANGEROUS:
            scope.include(found)
            scope.add(
                max(level, RiskLevel.CRITICAL),
                "config-exec",
                f"{upper} makes a program run a {level.label} command",
                start,
                end,
            )
            return
    if upper in _PROFILER_VARS:
        scope.add(
            RiskLevel.CRITICAL,
            "persistence-dll",
            f"{upper} makes every .NET program started afterwards load a DLL",
            start,
            end,
        )
    elif upper in HOOK_VARS or upper in ("PATHEXT", "COMSPEC", "PSMODULEPATH"):
        scope.add(
            RiskLevel.MODERATE, "env-hook", f"{upper} changes what later commands run", start, end
        )


_PS_BLOCK = "\x00psblock:"  # script blocks assigned to a variable (their text)
_PS_CMDOBJ = "\x00pscmdobj:"  # variables holding a command object (`$c = gcm X`)
_PS_DEFAULTS = "\x00psdefaults"  # $PSDefaultParameterValues entries set true: `cmdlet:param`
_DEFAULT_ENTRY = re.compile(r"(?i)['\"]([\w*?-]+):(\w+)['\"]\s*(?:\]\s*)?=\s*(?:\$true|1)\b")


def _remember_defaults(scope: Scope, text: str) -> None:
    """The `'Cmdlet:Parameter' = $true` entries an assignment to $PSDefaultParameterValues
    sets (a whole new table replaces the old one)."""
    entries = [f"{c.lower()}:{p.lower()}" for c, p in _DEFAULT_ENTRY.findall(text[:4000])][:16]
    old = scope.env.get(_PS_DEFAULTS, "") if "[" in text.split("=", 1)[0] else ""
    joined = "\x01".join(x for x in [old, *entries] if x)
    if joined:
        scope.env[_PS_DEFAULTS] = joined
    else:
        scope.env.pop(_PS_DEFAULTS, None)


_DEFAULT_ADDED = re.compile(
    r"(?i)\$psdefaultparametervalues\.add\(\s*['\"]([\w*?-]+):(\w+)['\"]\s*,\s*(?:\$true|1)\s*\)"
)


def _defaults_added(text: str, scope: Scope) -> None:
    """`$PSDefaultParameterValues.Add('Remove-Item:Recurse', $true)`: as the indexed
    assignment of the same entry (added to the entries already set)."""
    entries = [f"{c.lower()}:{p.lower()}" for c, p in _DEFAULT_ADDED.findall(text[:4000])][:16]
    if entries:
        old = scope.env.get(_PS_DEFAULTS, "")
        scope.env[_PS_DEFAULTS] = "\x01".join(x for x in [old, *entries] if x)


def _with_defaults(words: list[Word], defaults: str) -> list[Word]:
    """`Remove-Item C:\\Windows` after `$PSDefaultParameterValues['Remove-Item:Recurse'] =
    $true` runs as `Remove-Item C:\\Windows -Recurse`."""
    from fnmatch import fnmatchcase

    from aintern_ls.safety.windows import PS_ALIASES

    head = words[0].text.lower()
    name = PS_ALIASES.get(head, head)
    have = {w.text.lower() for w in words[1:] if w.text.startswith("-")}
    end = words[-1].end
    extra = [
        Word("-" + param, end, end)
        for entry in defaults.split("\x01")
        for pattern, _, param in [entry.partition(":")]
        if fnmatchcase(name, pattern) and "-" + param not in have
    ]
    return [*words, *extra] if extra else words


_PS_SPLAT = "\x00pssplat:"  # hashtables assigned to a variable, as parameter words
_PS_ARRAY = "\x00psarray:"  # arrays of constant strings assigned to a variable
_SPLAT_ITEM = re.compile(
    # (n19w: a bare known variable too, `LiteralPath=$HOME`, `Path=${env:windir}`)
    r"\A\s*([A-Za-z]\w*)\s*=\s*('[^']*'|\"[^\"`]*\"|\$true|\$false|\$\{?[\w:]+\}?|[\w:\\/.-]+)\s*\Z"
)


def _splat_words(expr: str) -> str | None:
    """`@{Recurse=$true; Path='C:\\'}` as `-Recurse -Path C:\\` (words
    joined by \x01), when every value is a constant; None otherwise."""
    m = re.fullmatch(r"(?i)\s*(?:\[ordered\]\s*)?@\{(.*)\}\s*", expr, re.S)
    if m is None:
        return None
    words: list[str] = []
    for item in re.split(r"[;\n]", m.group(1)):
        if not item.strip():
            continue
        kv = _SPLAT_ITEM.fullmatch(item)
        if kv is None:
            return None
        key, value = kv.group(1), kv.group(2)
        if value.startswith('"') and "$" in value:
            # `LiteralPath = "$env:SystemRoot\System32"`: known folders only
            known = _resolve_vars(value.strip('"'))
            if known is None:
                return None
            value = known
        elif value[:1] == "$" and (known := _KNOWN_VARS.get(_normal_var(value))) is not None:
            # (n19w) `@{LiteralPath=$HOME}`, `@{Path=$env:windir}`: a known folder's variable
            value = known if not known.startswith("$") else value
        if value.lower() == "$true":
            words.append("-" + key)
        elif value.lower() != "$false":
            words += ["-" + key, value.strip("'\"")]
    return "\x01".join(words) if words else None


# `$env:HOMEDRIVE$env:HOMEPATH` (or joined with +) is the user's home folder.
_HOME_PAIR = re.compile(
    # (`$env:SystemDrive` or a drive letter in front of HOMEPATH names the same folder)
    r"(?i)(?:\$\{?env:(?:homedrive|systemdrive)\}?|(?<![\w$])[a-z]:)\s*(?:\+\s*)?"
    r"(?:['\"]\s*\+\s*['\"])?\$\{?env:homepath\}?"
)


# `[Environment]::GetFolderPath('UserProfile')`, `${env:ProgramFiles(x86)}`: known folders.
_FOLDER_PATH = re.compile(
    r"(?i)\[(?:system\.)?environment\]::getfolderpath\(\s*['\"]?(?:\[[\w.+]+\]::)?(\w+)['\"]?\s*\)"
    r"|\$\{env:(programfiles\(x86\))\}|\[(?:system\.)?environment\]::(systemdirectory)\b"
    r"|\[(?:system\.)?io\.path\]::(gettemppath)\(\s*\)"  # (n18w)
    # (n20w) the separator constants: `"C:" + [IO.Path]::DirectorySeparatorChar` is `C:\`
    r"|\[(?:system\.)?io\.path\]::((?:alt)?directoryseparatorchar)\b"
)
_FOLDERS = {
    "directoryseparatorchar": "\\",
    "altdirectoryseparatorchar": "/",
    "userprofile": "~",
    "mydocuments": "~\\Documents",
    "desktop": "~\\Desktop",
    "applicationdata": "~\\AppData\\Roaming",
    "localapplicationdata": "~\\AppData\\Local",
    "windows": "C:\\Windows",
    "system": "C:\\Windows\\System32",
    "systemdirectory": "C:\\Windows\\System32",
    "systemx86": "C:\\Windows\\SysWOW64",
    "programfiles": "C:\\Program Files",
    "programfilesx86": "C:\\Program Files (x86)",
    "programfiles(x86)": "C:\\Program Files (x86)",
    "commonapplicationdata": "C:\\ProgramData",
    "startup": "~\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
    "gettemppath": "~\\AppData\\Local\\Temp\\",
}


def _folder(m: re.Match[str]) -> str:
    found = m.group(1) or m.group(2) or m.group(3) or m.group(4) or m.group(5) or ""
    known = _FOLDERS.get(found.lower())
    return "'" + known + "'" if known is not None else m.group(0)


def _bare_var(m: re.Match[str]) -> str:
    return m.group(1) or "$" + m.group(2)


_JOIN_PATH = re.compile(
    # (n17w: a parenthesized item with member steps, `([IO.DirectoryInfo]$HOME).Parent.FullName`)
    r"(?i)\A\(?\s*(?:join-path\s+(?:-path\s+)?(\$\{[^}]*\}|[^\s()]+|\((?:[^()]|\([^()]*\))*\)(?:\.\w+)*)"
    r"\s+(?:-childpath\s+)?([^\s()]+|\((?:[^()]|\([^()]*\))*\))"
    r"|\[(?:system\.)?io\.path\]::combine\(\s*((?:[^,()]|\((?:[^()]|\([^()]*\))*\))+?)\s*,"
    r"\s*([^,()]+?)\s*\))\s*\)?\Z"
)
_QUOTED_VAR = re.compile(r"\$\{?(env:)?\w+\}?", re.I)


# Other spellings of `$env:NAME`: `$(Get-Content Env:NAME)`, `(Get-Item Env:NAME).Value`,
# `(gci env:NAME).Value`, `[Environment]::GetEnvironmentVariable('NAME')`.
_ENV_ACCESSOR = re.compile(
    r"(?i)\$\(\s*(?:get-content|gc|cat|type)\s+(?:-path\s+)?['\"]?env:\\?(\w+(?:\(x86\))?)['\"]?\s*\)"
    r"|\$?\(\s*\(?\s*(?:get-item|gi|get-childitem|gci|ls|dir)\s+(?:-path\s+)?['\"]?env:\\?(\w+(?:\(x86\))?)"
    r"['\"]?\s*\)\s*\.value\s*\)?"
    r"|\(\s*(?:get-item|gi|get-childitem|gci)\s+(?:-path\s+)?['\"]?env:\\?(\w+(?:\(x86\))?)['\"]?\s*\)\s*\.value"
    r"|\$?\(?\[(?:system\.)?environment\]::getenvironmentvariable\(\s*['\"](\w+(?:\(x86\))?)['\"]"
    r"(?:\s*,\s*['\"]?\w+['\"]?)?\s*\)\)?"
)


def env_accessors(text: str) -> str:
    """`$(Get-Content Env:windir)` as `${env:windir}` (see _ENV_ACCESSOR)."""
    if "env" not in text.lower():
        return text
    return _ENV_ACCESSOR.sub(lambda m: "${env:" + next(g for g in m.groups() if g) + "}", text)


_PS_OPERAND = r"(\$\{[^}]*\}|\$[\w:]+(?:\(x86\))?|'[^']*'|\"[^\"`]*\")"
_ITEM_OPERAND = (
    r"(\$\{[^}]*\}|\$[\w:]+(?:\(x86\))?(?:[\\/][\w.\\/-]*)?|'[^']*'|\"[^\"`]*\"|~[\\/\w.-]*"
    r"|[A-Za-z]:[\\/][^\s()]*"
    r"|\$profile\.\w+"  # (n20w) `Split-Path $PROFILE.CurrentUserAllHosts`
    # (n14w) `([Environment]::GetFolderPath('UserProfile'))`: a known folder's getter
    r"|\(\s*\[(?:system\.)?environment\]::getfolderpath\s*\([^()]*\)\s*\))"
)
# (n18w) a listing's member access, `(Get-ChildItem X -Force).FullName`: X's every entry (a
# filter, `-Include`/`-Exclude`, `-Filter` or a pattern in X keeps a subset: not matched)
_LISTING_OF = re.compile(
    r"(?i)\A\(\s*(?:get-childitem|gci|ls|dir)\s+(?:-(?:literal)?path\s+)?"
    + _ITEM_OPERAND
    + r"(?:\s+-(?:force|directory|ad|file|af|recurse|r|hidden|h|attributes\s+\w+))*\s*\)"
    r"\.(?:fullname|pspath)\s*\Z"
)
_SPLIT_PATH = re.compile(
    r"(?i)\A\(?\s*split-path\s+(?:-(parent|qualifier|leaf)\s+)?(?:-(?:literal)?path\s+)?"
    + _ITEM_OPERAND
    + r"(?:\s+-(parent|qualifier|leaf))?\s*\)?\Z"
)
_PATH_CALL = re.compile(
    r"(?i)\A\(?\s*\[(?:system\.)?(io\.path|string)\]::(getdirectoryname|getpathroot|getfullpath|concat)"
    r"\(\s*(.*?)\s*\)\s*\)?\Z"
)
# (n13w) `.Parent` steps after an item (`(Get-Item ~).Parent.FullName`): counted by the caller
# (n17w: a FileInfo's `.Directory`/`.DirectoryName` is its folder, one step up too)
_UP_STEPS = r"((?:\s*\.\s*(?:psparentpath|parent|root|psdrive|directory(?:name)?))*)"
# (n13w) what a variable is set to that is an item of a known path
_ITEM_MAKER = re.compile(
    r"(?i)\A(?:new-object\s+(?:-typename\s+)?(?:system\.)?io\.(?:directory|file)info\s+"
    r"(?:-argumentlist\s+)?\(?\s*"
    + _ITEM_OPERAND
    + r"\s*\)?|\[(?:system\.)?io\.(?:directory|file)info\]::new\(\s*"
    + _ITEM_OPERAND
    + r"\s*\)|(?:get-item|gi)\s+(?:-(?:literal)?path\s+)?"
    + _ITEM_OPERAND
    + r")\s*\Z"
)
# `(Get-PSDrive C).Root`, `(gdr -Name D).Root`: that drive's root
_DRIVE_ROOT = re.compile(
    r"(?i)\A\(?\s*\(\s*(?:get-psdrive|gdr)\s+(?:-name\s+)?['\"]?([a-z])['\"]?\s*\)\s*\.\s*root"
    r"(?:\.(?:fullname|name))?\s*\)?\Z"
)
_ENV_CONTENT = re.compile(
    r"(?i)\A\(\s*(?:get-content|gc|cat|type)\s+(?:-(?:literal)?path\s+)?['\"]?env:[\\/]?(\w+)['\"]?\s*\)\Z"
)
_HERE_DRIVE_ROOT = re.compile(
    r"(?i)\A\(?\s*(?:\(\s*(?:get-location|gl|pwd)\s*\)|\$pwd)\.drive\.root(?:\.fullname)?\s*\)?\Z"
)
# `$HOME | Split-Path -Parent`: the pipeline feeds Split-Path its path
_PIPED_SPLIT = re.compile(r"(?i)\A\(?\s*(\S+)\s*\|\s*(split-path\b[^|()]*?)\s*\)?\Z")
_ITEM_OF = re.compile(
    r"(?i)\A\(?\s*\(\s*(?:get-item|gi|resolve-path|rvpa|convert-path|cvpa)\s+(?:-(?:literal)?path\s+)?"
    + _ITEM_OPERAND
    + r"\s*\)"
    + _UP_STEPS
    + r"(?:\.(?:fullname|path|providerpath))?\s*\)?\Z"
    r"|\A\(\s*(?:resolve-path|rvpa|convert-path|cvpa)\s+(?:-(?:literal)?path\s+)?"
    + _ITEM_OPERAND
    + r"\s*\)\Z"
)
# (n13w) `[IO.Directory]::GetParent(X).FullName`, `[IO.DirectoryInfo]::new(X).Parent`,
# `([IO.DirectoryInfo]X).Parent.FullName`: the folder above X
_GET_PARENT = re.compile(
    r"(?i)\A\(?\s*(?:\[(?:system\.)?io\.directory\]::getparent\s*\(\s*(?P<p>[^()]+?)\s*\)"
    r"|\[(?:system\.)?io\.(?:directory|file)info\]::new\s*\(\s*(?P<n>[^()]+?)\s*\)"
    r"|\(\s*\[(?:system\.)?io\.(?:directory|file)info\]\s*(?P<c>[^()]+?)\s*\)"
    # (n17w) `([IO.DirectoryInfo]::new($HOME)).Parent`: the constructed item in parentheses
    r"|\(\s*\[(?:system\.)?io\.(?:directory|file)info\]::new\s*\(\s*(?P<w>[^()]+?)\s*\)\s*\)"
    # (n18w) `(New-Object System.IO.FileInfo 'C:\x\y.exe').Directory`
    r"|\(\s*new-object\s+(?:-typename\s+)?(?:system\.)?io\.(?:directory|file)info\s+"
    r"(?:-argumentlist\s+)?(?P<o>'[^']*'|\"[^\"]*\"|[^\s()]+)\s*\))"
    + _UP_STEPS
    + r"(?:\.(?:fullname|name))?\s*\)?\Z"
)
_HERE = re.compile(
    r"(?i)\A\(?\s*(?:\(\s*(?:get-location|gl|pwd)\s*\)(?:\.(?:path|providerpath))?"
    r"|\$pwd\.(?:path|providerpath)|\[(?:system\.)?environment\]::currentdirectory"
    # (n20w) the session state's location: `$ExecutionContext.SessionState.Path.CurrentLocation`
    r"|\$executioncontext\s*\.\s*sessionstate\s*\.\s*path\s*\.\s*currentlocation"
    r"(?:\s*\.\s*(?:path|providerpath))?"
    r"|\(\s*(?:resolve-path|rvpa)\s+\.\s*\)(?:\.path)?)\s*\)?\Z"
)


def _steps(value: str | None, steps: str) -> str | None:
    """`.Parent`, `.Root`, `.PSDrive.Root` read from an item at `value`, in order."""
    for step in re.findall(r"(?i)parent|root|directory", steps):
        if value is None:
            return None
        if step.lower() in ("parent", "directory"):
            value = _parent(value)
        else:
            drive = re.match(r"[A-Za-z]:", value)
            value = drive.group(0) + "\\" if drive else ("C:\\" if value[:1] == "~" else None)
    return value


def _parent(path: str) -> str:
    trimmed = path.rstrip("\\/")
    if trimmed == "~":
        return "C:\\Users"  # (n13w) the folder of every account's home
    if re.fullmatch(r"[A-Za-z]:", trimmed):
        return trimmed + "\\"
    head = re.split(r"[\\/]", trimmed)[:-1]
    out = "\\".join(head) if head else "."
    return out + "\\" if re.fullmatch(r"[A-Za-z]:", out) else out


# (n17w) commands and .NET calls that return a known folder: a variable's value
# (`Get-Variable HOME -ValueOnly`), %VAR% strings expanded by .NET, the Windows folder read
# from the registry or from the OS's CIM instance, the first drive's root.
_EXPAND_ENV = re.compile(
    r"(?i)\A\(?\s*\[(?:system\.)?environment\]::expandenvironmentvariables\(\s*(?:'([^'$`]*)'"
    r"|\"([^\"$`]*)\")\s*\)\s*\)?\Z"
)
_CURRENT_VERSION = (
    r"['\"]?(?:microsoft\.powershell\.core\\registry::)?(?:hklm:|hkey_local_machine)[\\/]+software"
    r"[\\/]+microsoft[\\/]+windows nt[\\/]+currentversion(?:[\\/]+(profilelist))?[\\/]*['\"]?"
)
_REGISTRY_FOLDER = re.compile(
    r"(?i)\A\(?\s*(?:get-itempropertyvalue|gpv)\s+(?:-(?:literal)?path\s+)?"
    + _CURRENT_VERSION
    + r"\s+(?:-name\s+)?['\"]?(systemroot|profilesdirectory|programfilesdir)['\"]?\s*\)?\Z"
    r"|\A\(?\s*\(\s*(?:get-itemproperty|gp)\s+(?:-(?:literal)?path\s+)?"
    + _CURRENT_VERSION
    + r"\s*\)\s*\.\s*(systemroot|profilesdirectory)\s*\)?\Z"
)
_REGISTRY_VALUES = {
    "systemroot": "C:\\Windows",
    "profilesdirectory": "C:\\Users",
    "programfilesdir": "C:\\Program Files",
}
_OS_FOLDER = re.compile(
    r"(?i)\A\(?\s*\(\s*(?:get-ciminstance|gcim|get-wmiobject|gwmi)\s+(?:-class(?:name)?\s+)?"
    r"['\"]?win32_operatingsystem['\"]?\s*\)\s*\.\s*(windowsdirectory|systemdirectory|systemdrive)"
    r"\s*\)?\Z"
)
_OS_VALUES = {
    "windowsdirectory": "C:\\Windows",
    "systemdirectory": "C:\\Windows\\System32",
    "systemdrive": "C:\\",
}
_FIRST_DRIVE = re.compile(
    r"(?i)\A\(?\s*\[(?:system\.)?io\.driveinfo\]::getdrives\(\s*\)\s*\[\s*0\s*\]\s*\."
    r"\s*(?:rootdirectory(?:\s*\.\s*(?:fullname|name))?|name)\s*\)?\Z"
)


def _returned_folder(raw: str, env: Mapping[str, str] | None) -> str | None:
    """The folder a value-returning command or .NET call gives (see the patterns above)."""
    low = raw.lower()
    if (name := variable_read_name(raw, env)) is not None:
        return _operand_path("$" + name, env)
    if "expandenvironmentvariables" in low and (m := _EXPAND_ENV.match(raw)) is not None:
        literal = m.group(1) if m.group(1) is not None else m.group(2)
        return _expandable_path(re.sub(r"%(\w+)%", r"$env:\1", literal), env)
    if "currentversion" in low and (m := _REGISTRY_FOLDER.match(raw)) is not None:
        # (the value's name is the last group the match filled)
        return _REGISTRY_VALUES.get(next((g for g in m.groups()[::-1] if g), "").lower())
    if "win32_operatingsystem" in low and (m := _OS_FOLDER.match(raw)) is not None:
        return _OS_VALUES[m.group(1).lower()]
    if "driveinfo" in low and _FIRST_DRIVE.match(raw) is not None:
        return "C:\\"
    return None


def _path_function(raw: str, env: Mapping[str, str] | None) -> str | None:
    """`Split-Path X` (its parent, `-Qualifier` its drive), `[IO.Path]::GetDirectoryName(X)`,
    `::GetPathRoot(X)`, `[string]::Concat(a, b)`, `(Get-Location)`: the path they return,
    when X is known."""
    if _HERE.match(raw):
        return "."
    if (returned := _returned_folder(raw, env)) is not None:
        return returned
    if ").fullname" in raw.lower() and (listed := _LISTING_OF.match(raw)) is not None:
        # (n18w) `(Get-ChildItem C:\Windows\System32).FullName`: every entry of the folder
        folder = _operand_path(listed.group(1), env)
        return folder.rstrip("\\/") + "\\*" if folder is not None else None
    item = _ITEM_OF.match(raw)
    if item is not None:
        # `(Get-Item $env:windir).FullName`, `(Resolve-Path ~)`: the path itself
        operand = item.group(1) or item.group(3)
        return _steps(_operand_path(operand, env), item.group(2) or "")
    low = raw.lower()
    if ("parent" in low or "root" in low or ").directory" in low) and (
        up := _GET_PARENT.match(raw)
    ) is not None:
        operand = up.group("p") or up.group("n") or up.group("c") or up.group("w") or up.group("o")
        value = _operand_path(operand, env)
        return _steps(value, ("parent" if up.group("p") else "") + up.group(6))
    if "root" in low and (drive := _DRIVE_ROOT.match(raw)) is not None:
        return drive.group(1).upper() + ":\\"
    if "env:" in low and (read := _ENV_CONTENT.match(raw)) is not None:
        # (n18w) `(Get-Content Env:windir)`: the variable's value, read from the Env: drive
        return _KNOWN_VARS.get("$env:" + read.group(1).lower())
    if ".drive.root" in low and _HERE_DRIVE_ROOT.match(raw):
        return "C:\\"  # (n18w) `(Get-Location).Drive.Root`: the working drive's root
    if "|" in raw and (piped := _PIPED_SPLIT.match(raw)) is not None:
        # (n13w) `($HOME | Split-Path -Parent)` as `Split-Path $HOME -Parent`
        raw = piped.group(2)[:10] + " " + piped.group(1) + piped.group(2)[10:]
    m = _SPLIT_PATH.match(raw)
    if m is not None:
        inner = _operand_path(m.group(2), env)
        mode = (m.group(1) or m.group(3) or "parent").lower()
        if inner is None or mode == "leaf":
            return None
        if mode == "qualifier":
            drive = re.match(r"[A-Za-z]:", inner)
            # (n14w) home's drive, as `_steps` reads `(Get-Item ~).PSDrive.Root`
            return drive.group(0) + "\\" if drive else ("C:\\" if inner[:1] == "~" else None)
        return _parent(inner)
    m = _PATH_CALL.match(raw)
    if m is None:
        return None
    from aintern_ls.safety.inline import _split_top

    args = [a.strip() for a in _split_top(m.group(3), ",") if a.strip()]
    values = [_path_expression(a, env) for a in args]
    if not values or any(v is None for v in values):
        return None
    known = [v for v in values if v is not None]
    what = m.group(2).lower()
    if what == "concat":
        return "".join(known)
    if what == "getdirectoryname":
        return _parent(known[0])
    if what == "getpathroot":
        drive = re.match(r"[A-Za-z]:", known[0])
        if drive is None and known[0][:1] in ("~", "."):
            # (n20w) home's drive (as `Split-Path -Qualifier` reads it), the cwd's drive
            return "C:\\"
        return drive.group(0) + "\\" if drive else None
    return known[0]


def split_path_output(node: Node, stdin: Stdin, scope: Scope) -> str | None:
    """(n14w) `Split-Path $env:USERPROFILE | Remove-Item -Recurse`, `$HOME | Split-Path |
    …`: the path Split-Path prints (the parent with no switch, the drive with -Qualifier)
    goes down the pipe as that path, as Join-Path's does."""
    if node.end_byte - node.start_byte > 400:
        return None
    raw = _text(node).strip()
    value = _path_function(raw, scope.env)
    if value is None and stdin.kind == "static":
        lines = [v.strip() for v in stdin.text.splitlines() if v.strip()]
        if len(lines) == 1:
            value = _path_function(lines[0] + " | " + raw, scope.env)
    return value


def _operand_path(operand: str, env: Mapping[str, str] | None) -> str | None:
    if operand[:1] == "(":
        return _path_expression(operand[1:-1].strip(), env)  # (a getter in parentheses)
    if operand[:1] == "$" and ("\\" in operand or "/" in operand):
        operand = '"' + operand + '"'  # (`$HOME\..\..` bare: an expandable string)
    elif operand[:1] not in "$'\"~":
        return operand  # (a bare literal path)
    return _path_expression(operand, env) if operand != "~" else "~"


def _path_expression(raw: str, env: Mapping[str, str] | None = None) -> str | None:
    """The constant value of a PowerShell path expression made of known folder variables and
    literals (`$env:windir + '/x'`, `Join-Path $env:SystemRoot x`, `[IO.Path]::Combine(…)`),
    or None."""
    if len(raw) > 400:
        return None
    whole = raw.strip()
    if whole[:2].lower() in ("$p", "${") and (prof := _PROFILE_VAR.fullmatch(whole)) is not None:
        # (n20w) `Split-Path $PROFILE`, `Join-Path (Split-Path $PROFILE) profile.ps1`: the
        # profile's file, so a path built from it is still a profile
        return _PROFILE_PATHS[(prof.group(2) or "").lower()]
    if whole[:1] == "[" and (cast := _STRING_CAST.match(whole)) is not None:
        # (n20w) `[string]'C:\Users'`: a cast to a string is its operand's value
        return _path_expression(whole[cast.end() :], env)
    if len(whole) > 1 and whole[0] == whole[-1] == '"' and not re.search(r'["`]', whole[1:-1]):
        # `"$($env:HOMEDRIVE)$($env:HOMEPATH)"`, `"${env:SystemDrive}\Users"`: inside an
        # expandable string a known variable is its value, as written (no quotes added)
        return _expandable_path(whole[1:-1], env)
    func = _path_function(whole, env)
    if func is not None:
        return func
    m = _JOIN_PATH.match(raw.strip())
    if m:
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        left, right = _path_expression(a, env), _path_expression(b, env)
        if left is None or right is None:
            return None
        return left.rstrip("\\/") + "\\" + right.lstrip("\\/")

    def quoted(v: re.Match[str]) -> str:
        name = v.group(0).replace("{", "").replace("}", "").lower()
        known = _KNOWN_VARS.get(name)
        if known is None and env is not None:
            known = env.get(_PS_VAR + name)  # `$t = 'C:'; Join-Path $t Users`
        return "'" + known.replace("'", "''") + "'" if known is not None else "\x00"

    text = re.sub(r"\$\(\s*(\$(?:env:)?\w+)\s*\)", lambda v: v.group(1), env_accessors(raw.strip()))
    text = _HOME_PAIR.sub("$HOME", text)
    text = _FOLDER_PATH.sub(_folder, text)
    text = _QUOTED_VAR.sub(quoted, text)
    if "\x00" in text:
        return None
    if _PLAIN_PATH.fullmatch(text):
        return text
    return fold_powershell(text)


_PLAIN_PATH = re.compile(r"~?[\w.:\\/-]+")
_STRING_CAST = re.compile(r"(?i)\[(?:system\.)?string\]\s*(?=['\"$(\[])")


def _expandable_path(body: str, env: Mapping[str, str] | None) -> str | None:
    """The value of a double-quoted string's text made of known folder variables and
    literals, or None."""

    def plain(v: re.Match[str]) -> str:
        name = v.group(0).replace("{", "").replace("}", "").lower()
        known = _KNOWN_VARS.get(name)
        if known is None and env is not None:
            known = env.get(_PS_VAR + name)
        return known if known is not None else "\x00"

    text = re.sub(r"\$\(\s*(\$(?:env:)?\w+)\s*\)", lambda v: v.group(1), env_accessors(body))
    text = _HOME_PAIR.sub("$HOME", text)
    text = _FOLDER_PATH.sub(lambda m: _folder(m).strip("'"), text)
    if "$(" in text:
        text = _known_subexpressions(text, env)
    if "$(" in text:
        # `"$([Environment]::GetFolderPath('UserProfile'))"`: a subexpression of a literal
        text = re.sub(r"\$\(\s*'?([^()$'\"]*)'?\s*\)", lambda v: v.group(1), text)
    text = re.sub(r"\$\{env:(\w+)\}", r"$env:\1", text, flags=re.I)
    text = _QUOTED_VAR.sub(plain, text)
    if "\x00" in text or "$" in text:
        return None
    return text


def _known_subexpressions(text: str, env: Mapping[str, str] | None) -> str:
    """(n17w) `"$((Get-Item $HOME).Parent.FullName)\\*"`, `"$(Split-Path $HOME -Parent)"`:
    a subexpression inside a string whose value is a known path is that path."""
    at = 0
    for _ in range(4):
        start = text.find("$(", at)
        if start < 0:
            break
        depth, end = 0, -1
        for i in range(start + 1, len(text)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end < 0:
            break
        inner = text[start + 2 : end].strip()
        # (an expression of known values, not a command word whose output is unknown:
        # `$(whoami)` is not the text "whoami")
        value = _path_expression(inner, env) if re.search(r"[$(\[]", inner) else None
        if value is not None and value == inner and not re.search(r"[\\/:~]", value):
            value = None  # (r17) `$(Get-Random)`, `$(whoami)`: a command's output, unknown
        if value is None and _HERE.match("(" + inner + ")") is not None:
            value = "."  # (n20w) `"$(Get-Location)\*"`: the cwd
        if value is None or "$" in value or not (value == "." or _PATH_LIKE.search(value)):
            at = end + 1
            continue
        text = text[:start] + value + text[end + 1 :]
        at = start + len(value)
    return text


_BALANCE_MARKS = re.compile(r"[`'\"#(){}\[\]]")
_DOUBLE_QUOTED_END = re.compile(r'[`"]')


# Where a statement may start with a `-word` (`; -name x …`: no PowerShell statement
# does), and the tokens a statement is read by: quoted strings, here-strings, comments and
# escaped characters are single tokens, so their `;`, braces and newlines end nothing.
_DASH_LED = re.compile(r"(?:^|[;\n{])[ \t]*-[A-Za-z]")
# …except PowerShell's unary operators, which do start expressions (`-not $x`).
_UNARY = re.compile(r"-(?:not|bnot|join|split)\b", re.I)
_PS_TOKEN = re.compile(
    r"""@'.*?\n'@|@".*?\n"@|'(?:[^']|'')*'?|"(?:[^"`]|`.|"")*"?|<\#.*?\#>|\#[^\n]*"""
    r"""|`.|[;\n{}()]|[^'"@<\#`;\n{}()]+|.""",
    re.S,
)
SCAN_STEPS_PER_TOKEN = 0.5  # the statement scan below, per token read


def _dash_statements(text: str) -> list[tuple[int, int]]:
    """The statements of `text` that start with a `-word` (`find . -name a \\; -name b
    …` pasted into PowerShell: `-name b …` is no PowerShell statement). The grammar's error
    recovery on them costs 20-80 µs each, and its tree of them is fragments (`name b`), so
    they are not given to it: their spans (to the end of the statement: `;`, a newline or
    the `}`/`)` closing what encloses it) are judged word by word, as the text of an error
    region is."""
    if (
        # (sb22) where `_DASH_LED` can match: at the start, or after one of `;`, `\n`, `{`
        # (its search has no literal to skip by: 10 µs for an ordinary command)
        ";" not in text and "\n" not in text and "{" not in text and text.lstrip(" \t")[:1] != "-"
    ) or _DASH_LED.search(text) is None:
        return []
    spans: list[tuple[int, int]] = []
    at_start = True  # the next token starts a statement
    open_at = -1  # start of the dash-led statement being read (-1: none)
    depth = 0  # brackets opened inside it
    tokens = 0
    for m in _PS_TOKEN.finditer(text):
        tokens += 1
        tok = m.group()
        if open_at >= 0:
            if tok in ("{", "("):
                depth += 1
            elif tok in ("}", ")"):
                depth -= 1
                if depth < 0:
                    spans.append((open_at, m.start()))
                    open_at, depth, at_start = -1, 0, False
            elif tok in (";", "\n") and depth == 0:
                spans.append((open_at, m.start()))
                open_at, at_start = -1, True
            continue
        if tok in (";", "\n", "{"):
            at_start = True
            continue
        if at_start and tok.strip():
            at_start = False
            body = tok.lstrip()
            if (
                len(body) > 1
                and body[0] == "-"
                and body[1].isascii()
                and body[1].isalpha()
                and _UNARY.match(body) is None
            ):
                open_at = m.start() + len(tok) - len(body)
    if open_at >= 0:
        spans.append((open_at, len(text)))
    budget.spend(tokens * SCAN_STEPS_PER_TOKEN)
    return spans


# A parameter whose name holds a digit (`-O2`, `-TLS12`, `-a0b`, `--keep-last3`): the
# grammar reads the digit as a redirection's stream (`2>` with its `>` missing) and recovers
# from the error (30-60 µs each, and `x -a0b c` comes out as two statements, `x -a` and
# `b c`). PowerShell reads one parameter; so does the grammar once the digits are letters.
# Operators that take a number glued on (`$a -eq5`) are read right and left alone.
_DIGIT_PARAMETER = re.compile(
    rb"(?<=[ \t])--?([A-Za-z_][A-Za-z_-]*)[0-9][A-Za-z0-9_-]*(?=[\s;|)}:,]|\Z)"
)
_OPERATORS = frozenset(
    names(
        """
        eq ne gt ge lt le like notlike match notmatch contains notcontains in notin replace
        split join is isnot as band bor bxor bnot shl shr and or xor not f
        """
    )
)
_OPERATORS = _OPERATORS | {c + o for o in _OPERATORS for c in "ci"}
_DIGITS = bytes.maketrans(b"0123456789", b"dddddddddd")


# A parameter written the way other programs' options are (`--format=x`, `-name=value`,
# `--prefix='a b'`): the grammar has no `=` in a parameter, and its error recovery takes the
# rest of the text, the NEXT LINE included, into the broken command's words (`git log
# --format=x` then `format c: /q` on its own line came out as one command, the second never
# judged). PowerShell passes the word through to the program; the grammar reads it as one
# parameter and its value once the `=` is a `:` (same length; the walker reads the words
# from the original text and joins `--format` `=` `x` back into `--format=x`).
# A bare `--` (the end of options, `git checkout -- a`, `git log --`) is read by the grammar
# as a pre-decrement whose operand runs on, over the line's end too: as a parameter it is
# one word (`-_`, same length; the word is still `--`).
_EQUALS_PARAMETER = re.compile(rb"(?<=[ \t])--?([A-Za-z_][A-Za-z0-9_-]*)=|(?<=[ \t])--(?=\s|\Z)")


def _equals_parameters(data: bytes) -> bytes:
    """`data` with the `=` after a parameter's name turned into `:`, and a bare `--` into
    a parameter (same length)."""
    if (b"=" not in data and b"--" not in data) or _EQUALS_PARAMETER.search(data) is None:
        return data

    def colon(m: re.Match[bytes]) -> bytes:
        if m.group(1) is None:
            return b"-_"  # (a bare `--`)
        if m.group(1).decode().lower() in _OPERATORS:
            return m.group(0)
        return m.group(0)[:-1] + b":"

    budget.spend(len(data) >> 8)  # (one more pass over the text)
    return _EQUALS_PARAMETER.sub(colon, data)


def _digit_parameters(data: bytes) -> bytes:
    """`data` with the digits of parameter names turned into letters (same length: the
    grammar's positions, and the words read from the original text, stay as they are)."""
    if _DIGIT_PARAMETER.search(data) is None:
        return data

    def letters(m: re.Match[bytes]) -> bytes:
        if m.group(1).decode().lower() in _OPERATORS:
            return m.group(0)
        return m.group(0).translate(_DIGITS)

    budget.spend(len(data) >> 8)  # (one more pass over the text)
    return _DIGIT_PARAMETER.sub(letters, data)


def _bound_to_last(words: list[Word], word: Word, source: str, at: int) -> bool:
    """Bind `word` (starting at `at`) to the parameter before it, as PowerShell does, and
    say whether it was consumed: `--prefix=` takes its value (one word), a native
    program's `-name:` takes its value (`_native_colon`), a switch bound to false
    (`-WhatIf:$false`, `-Force:0`) is a switch not given (both words dropped), one bound to
    true keeps only the switch. `words` is not empty."""
    last = words[-1]
    if at == last.end and _open_equals(last.text):
        words[-1] = _joined(last, word)
        return True
    if _native_colon(words, source, at):
        words[-1] = _joined(last, word, ":")
        return True
    wt = word.text
    if (
        (wt == "0" or (len(wt) == 6 and wt.lower() == "$false"))
        and last.text.startswith("-")
        and source[last.end : word.start] == ":"
    ):
        words.pop()
        return True
    if (
        last.text.lower() in ("-whatif", "-wi")
        and source[last.end : word.start] == ":"
        and wt.lower() not in ("$true", "1")
    ):
        # (n17w) `-WhatIf:$(1 -eq 2)`, `-WhatIf:$x`: only a literal true makes a dry run; a
        # value from an expression may be false, and then the command runs
        words.pop()
        return True
    # `-Recurse:$true`, `-Force:1`: the value only confirms the switch (gen12's `_switch_on`)
    return _switch_on(words, word, source)


def _open_equals(text: str) -> bool:
    """`text` is a parameter still waiting for its value (`--prefix=`)."""
    return text.endswith("=") and text.startswith("-")


def _native_colon(words: list[Word], source: str, at: int) -> bool:
    """The word starting at `at` is the value of a `-name:` just before it, given to a
    program that is not a cmdlet: PowerShell passes `-p:Configuration=Release` to msbuild,
    `-keepVersions:0` to wbadmin as ONE argument (it binds `-name:value` only for cmdlets,
    functions and scripts)."""
    if len(words) < 2 or source[at - 1 : at] != ":" or source[words[-1].end : at] != ":":
        return False
    if not words[-1].text.startswith("-") or words[-1].text.endswith(":"):
        return False
    name = words[0].text.lower().replace("/", "\\").rsplit("\\", 1)[-1]
    name = name[:-4] if name.endswith((".exe", ".com")) else name
    # (PowerShell's own executables read `-Command:` as PowerShell does: their handler too;
    # a function or filter this text defines binds `-name:value` as a cmdlet does)
    return (
        name.isidentifier()
        and name not in PS_ALIASES
        and name not in _PS_COMMAND_WORDS
        and not name.startswith(("powershell", "pwsh"))
        and name not in _defined_functions(source)
    )


@functools.lru_cache(maxsize=8)
def _defined_functions(source: str) -> frozenset[str]:
    """The names of the functions and filters `source` defines (lower case; one scan a
    text)."""
    if "function" not in source.lower() and "filter" not in source.lower():
        return frozenset()
    return frozenset(m.lower() for m in _DEFINED.findall(source))


_DEFINED = re.compile(r"(?i)\b(?:function|filter)\s+(?:\w+:)?([\w-]+)")


# Names that are PowerShell commands though they hold no `-` (language keywords that take
# parameters, common functions): their `-name:value` is PowerShell's own binding.
_PS_COMMAND_WORDS = frozenset(("switch", "foreach", "where", "sort", "select", "help", "prompt"))


def _joined(name: Word, value: Word, glue: str = "") -> Word:
    """`--prefix=` and its value, one word again (`--prefix=web`, `--prefix=$HOME`'s
    folder): what PowerShell passes to the program."""
    return Word(
        name.text + glue + value.text,
        name.start,
        value.end,
        value.dynamic,
        name.glob or value.glob,
        value.origin,
    )


def _blank(text: str, data: bytes, spans: list[tuple[int, int]]) -> bytes:
    """`data` (the UTF-8 of `text`) with the characters of `spans` turned into spaces, every
    byte of them, so the grammar's positions stay those of `data`."""
    out: list[bytes] = []
    done = 0  # characters of `text` copied so far
    at = 0  # …and their bytes
    for start, end in spans:
        head = len(text[done:start].encode("utf-8", "surrogatepass"))
        out.append(data[at : at + head])
        width = len(text[start:end].encode("utf-8", "surrogatepass"))
        out.append(b" " * width)
        at += head + width
        done = end
    out.append(data[at:])
    return b"".join(out)


def _balanced(text: str) -> bool:
    """Quotes and brackets pair up: the grammar, not the command, is at fault for an error.
    (Jumps from mark to mark: a per-character loop was a tenth of a 10,000-character
    input's analysis.)"""
    stack: list[str] = []
    pairs = {")": "(", "}": "{", "]": "["}
    i = 0
    while True:
        m = _BALANCE_MARKS.search(text, i)
        if m is None:
            return not stack
        i = m.start()
        c = text[i]
        if c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                return False  # an unclosed quote
            i = j + 1
        elif c == '"':
            j = i + 1
            while True:
                k = _DOUBLE_QUOTED_END.search(text, j)
                if k is None:
                    return False
                if text[k.start()] == "`":
                    j = k.start() + 2  # an escaped character inside the quotes
                    continue
                break
            i = k.start() + 1
        elif c == "`":
            i += 2
        elif c == "#" and i > 0 and text[i - 1] == "<":
            end = text.find("#>", i + 1)  # `<# … #>`: a block comment, brackets and all
            if end < 0:
                return False
            i = end + 2
        elif c == "#":
            if i == 0 or text[i - 1] in " \t\n;":
                nl = text.find("\n", i)
                if nl < 0:
                    return not stack
                i = nl
            else:
                i += 1
        else:
            if c in "({[":
                stack.append(c)
            elif not stack or stack.pop() != pairs[c]:
                return False
            i += 1


_FOREACH = frozenset({"%", "foreach", "foreach-object"})
_WHERE = frozenset({"?", "where", "where-object"})
_REORDER = frozenset({"sort-object", "sort"})
_LIKE_ITEM = re.compile(
    r"(?i)\A\{?\s*\$(?:_|psitem)\s+-[ci]?like\s+'([^'*?]*[*?][^']*|[^']*)'\s*\}?\Z"
)


def _strings_kept(stage: str, items: list[str]) -> list[str] | None:
    """The literal strings a Where-Object stage keeps: all for a test every item passes,
    those matching a `$_ -like 'pattern'` test; None when the test is anything else."""
    if selects_all(stage):
        return items
    body = stage.strip().partition(" ")[2].strip()
    m = _LIKE_ITEM.match(body)
    if m is None:
        return None
    from fnmatch import fnmatchcase

    pattern = m.group(1).lower().replace("[", "[[]")
    return [i for i in items if fnmatchcase(i.lower(), pattern)]


# (time and size comparisons do not narrow a listing to named items either: round 7)
_LEAVES_OUT = re.compile(
    r"(?i)-(?:c|i)?(?:ne|notlike|notmatch|notin|notcontains|lt|gt|le|ge)\b|-not\b|!\s*\$"
)
_KEEPS_NAMED = re.compile(r"(?i)-(?:c|i)?(?:eq|like|match|in|contains)\b")
_LISTERS = frozenset({"get-childitem", "gci", "ls", "dir"})
_CONTENT_READERS = frozenset({"get-content", "gc", "cat", "type"})
_ITEM_CAST = re.compile(
    r"(?is)\A\(?\s*(?:\[(?:system\.)?io\.(?:directory|file)info\]\s*(?:::new\s*)?"
    r"|new-object\s+(?:-typename\s+)?(?:system\.)?io\.(?:directory|file)info\s*"
    r"(?:-argumentlist\s+)?)(?P<path>\(?\s*(?:'[^']*'|\"[^\"`]*\"|\$[\w:]+)\s*\)?)\s*\)?\Z"
)
# `$d.Delete($true)` on a variable holding an item
_VAR_DELETE = re.compile(r"(?i)(\$[\w:]+)((?:\s*\.\s*parent)*)\.delete\s*\(\s*([^)]*)\)")
_ITEM_STEPS = re.compile(r"(?i)\A(\$\w+)((?:\.(?:parent|root|psdrive))*)(?:\.fullname)?\Z")


_GCM = re.compile(
    r"(?is)\A\(?\s*(?:get-command|gcm)\s+(?:-name\s+)?['\"]?([\w*?.-]+)['\"]?"
    r"(?:\s+-(?:commandtype|type|module)\s+\S+)*\s*\)?(?:\.(?:name|source|definition))?\s*\Z"
)


def _command_lookup(expr: str) -> str | None:
    """`(Get-Command Format-Vol*)`, `(gcm -Name Remove-It?m)`: a command lookup whose
    pattern matches exactly one command the analyser knows resolves to it statically."""
    m = _GCM.match(expr.strip())
    if m is None or len(expr) > 300:
        return None
    from aintern_ls.safety.registry import HANDLERS, WINDOWS_HANDLERS
    from aintern_ls.safety.words import glob_candidates

    pattern = m.group(1).lower()
    known = frozenset(n for n in (*HANDLERS, *WINDOWS_HANDLERS) if "-" in n and n[:1].isalpha())
    from aintern_ls.safety.windows import PS_ALIASES

    if not any(ch in pattern for ch in "*?"):
        # (n19w) `Get-Command iex`: an alias's command object runs what it stands for
        return pattern if pattern in known else PS_ALIASES.get(pattern)
    found = glob_candidates(pattern, known, limit=1)
    return found[0] if len(found) == 1 else None


def _alias_lookup(expr: str) -> str | None:
    """(n19w) `gcm i*x`: the command of the one alias a lookup's pattern matches, or None
    (for `.Invoke(…)` of it: what it resolves to is judged; the call stays critical when
    that is not worse, see command_object_call)."""
    m = _GCM.match(expr.strip())
    if m is None or len(expr) > 300:
        return None
    from aintern_ls.safety.windows import PS_ALIASES
    from aintern_ls.safety.words import glob_candidates

    aliases = glob_candidates(m.group(1).lower(), frozenset(PS_ALIASES), limit=2)
    return PS_ALIASES[aliases[0]] if len(aliases) == 1 else None


# Commands that run a script block somewhere else (a job, a thread, a runspace, a remote
# host) and hand it `-ArgumentList`.
_BLOCK_RUNNERS = frozenset(
    {"start-job", "sajb", "start-threadjob", "invoke-command", "icm", "start-rsjob"}
)
_USING = re.compile(r"\A\$using:")


def op_is_plain(node: Node) -> bool:
    """An assignment with `=` (not `+=`, `-=` …)."""
    return (
        next((_text(k).strip() for k in node.children if k.type == "assignement_operator"), "=")
        == "="
    )


# Cmdlets that run a script block given by `-ScriptBlock` with `-ArgumentList`.
_BLOCK_RUNNERS = frozenset(("invoke-command", "icm", "start-job", "sajb", "start-threadjob"))


def _bind_block(block: str, args: list[Word]) -> str:
    """A script block's body as text with `param(...)` names and `$args[i]` replaced by the
    literal arguments given (`{ param($t) Remove-Item $t }` with C:\\Windows ->
    `Remove-Item 'C:\\Windows'`); arguments only known at run time stay as they are."""
    body = block.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    m = re.match(r"(?is)\s*param\s*\(([^()]*)\)", body)
    params: list[str] = []
    if m is not None:
        params = re.findall(r"\$(\w+)", m.group(1))
        body = body[m.end() :]
    values = [a for a in args if not a.text.startswith("-")]
    for i, a in enumerate(values[:8]):
        if a.dynamic:
            continue
        lit = "'" + a.text.replace("'", "''") + "'"
        body = body.replace(f"$args[{i}]", lit)
        if i < len(params):
            pattern = re.compile(r"(?i)\$" + re.escape(params[i]) + r"(?![\w:])")
            body = pattern.sub(lit.replace("\\", "\\\\"), body)
    return body


def _descendants(node: Node, kind: str, depth: int, first: bool = False) -> list[Node]:
    """The nodes of type `kind` at most `depth` levels below `node`, breadth first (a
    match's own subtree is not searched); `first`: only the first of them."""
    out: list[Node] = []
    level = [node]
    for d in range(depth + 1):
        below: list[Node] = []
        for n in level:
            if n.type == kind:
                out.append(n)
                if first:
                    return out
            elif d < depth and n.named_child_count:
                below += n.named_children
        if not below:
            break
        level = below
    return out


_GET_ALIAS = re.compile(
    r"(?is)\A\(?\s*(?:get-alias|gal)\s+(?:-name\s+)?['\"]?([\w?*-]+)['\"]?\s*\)?\Z"
)
_GET_COMMAND_API = re.compile(
    r"(?is)\A\(?\s*\$executioncontext\.invokecommand\.get(?:command|cmdlet)\s*\(\s*"
    r"['\"]([\w-]+)['\"]\s*(?:,[^()]*)?\)\s*\)?\Z"
)


def _command_object(expr: str) -> str | None:
    """The command a command-object expression names, resolved statically: `Get-Command X`
    / `gcm X*` (one known match), `Get-Alias ri` (its definition),
    `$ExecutionContext.InvokeCommand.GetCommand('X', …)`; None otherwise."""
    text = expr.strip()
    if len(text) > 300:
        return None
    named = _command_lookup(text)
    if named is not None:
        return named
    from aintern_ls.safety.windows import PS_ALIASES

    m = _GET_ALIAS.match(text)
    if m is not None:
        return PS_ALIASES.get(m.group(1).lower())
    m = _GET_COMMAND_API.match(text)
    if m is not None:
        return _command_lookup(f"Get-Command {m.group(1)}") or m.group(1).lower()
    if (
        "where" in text.lower()
        or "source" in text.lower()
        or "path" in text.lower()
        or ("definition" in text.lower())
    ):
        from aintern_ls.safety.windows import program_path_lookup

        # (n14w) `(Get-Command vssadmin).Source`, `(gcm bcdedit.exe).Path`, `where.exe
        # wbadmin`: the program's own file, run later as `& $p …`
        return program_path_lookup(text)
    return None


def _single_command(node: Node) -> Node | None:
    """The one command a collection expression consists of (`(Get-ChildItem ~)`,
    `ls C:\\`), or None when it is anything else."""
    for _ in range(40):
        if node.type == "command":
            return node
        kids = [c for c in node.named_children if c.type != "comment"]
        if len(kids) != 1:
            return None
        node = kids[0]
    return None


def _unwrap(node: Node) -> Node:
    while node.type in _WRAPPERS and node.named_child_count == 1:
        child = node.named_children[0]
        node = child
    if node.type == "string_literal" or node.named_child_count != 1:
        return node
    if node.type in ("expandable_string_literal", "verbatim_string_characters"):
        return node
    return node


class _FastText(threading.local):
    """The text being walked when it is ASCII (its byte offsets are character offsets), set
    by `analyse` around its walk exactly as `budget.Source` sets the bytes `node_bytes` reads
    (a nested analysis sets its own and puts this one back)."""

    text: str | None = None


_FAST = _FastText()


# A region the grammar could not read: its statements, their stages, a program's name.
# Before a line's end inside an ERROR region: what may hold the newline (a string, a
# bracket, a backtick continuation), so the region may not be cut there.
_INSIDE_SOMETHING = re.compile(r"[\"'`(){}\[\]@]")
_ERROR_STATEMENT = re.compile(r"(?:\$\{[^{}\n]*\}|[^;\n{}])+")
_ERROR_STAGE = re.compile(r"[^|]+")
_ERROR_PROGRAM = re.compile(r"^[\w.\\/:-]+$")
# The target of an assignment a statement starts with (`$null =`, `[void]$r =`, `$env:X +=`).
_ERROR_LHS = re.compile(r"(?:\[[\w.\[\]]+\])*\$(?:\{[^{}]*\}|[\w:]+)")
_ASSIGN_OPS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "??="})
_ERROR_STATEMENT_END = re.compile(r"[;|\n]|&&")
# A statement the grammar could not read that starts with the call operator (`& rundll32.exe
# a,b`, `& bash -c'…'`, `&"vssadmin" delete shadows`) or dot-sourcing runs the program named
# after it: the words are judged from there (session-14 call-operator convention).
_CALL_OPERATORS = frozenset("&.")


def _called_words(words: list[Word]) -> list[Word]:
    """The words of `& prog args` / `. prog args` / `&prog args` without the operator."""
    first = words[0].text
    if first in ("&", "."):
        return words[1:]
    if first[:1] == "&" and first[1:2] not in ("", "&"):
        w = words[0]
        return [w._replace(text=first[1:], start=w.start + 1), *words[1:]]
    return words


# A bare argument made of a variable and a path tail (`$env:windir\System32`, `$HOME/x`).
_VAR_PATH_WORD = re.compile(r"(?<=[\s,(=])\$(?:env:)?\w+(?:[\\/][^\s;|&(){}\"'`$]*)+")
_VAR_NAME = re.compile(r"\$[\w:]+")
_WORD_LED = re.compile(r"(?<![\w-])[\w-]++\s")
_VAR_IN_STRING = re.compile(r"\$(env:)?\w+(?:\(x86\))?")
_SUBEXPR_VAR = re.compile(
    r"\$\(\s*(\$(?:env:)?\w+(?:\(x86\))?)\s*\)|\$\{((?:env:)?\w+(?:\(x86\))?)\}"
)
_SUBEXPR_MEMBER = re.compile(r"\$\(\s*(\$[\w.]+)\s*\)")
_BODY_VAR = re.compile(r"\$(env:)?\w+(?:\(x86\))?")  # (a double-quoted string's variables)
_VAR_AND_PATH = re.compile(r"\$(env:)?\w+[\\/][^\s$()]*")


def _lookup(env: Mapping[str, str], key: str, assigned_first: bool) -> str | None:
    """(w21) A variable's value for a word: the known folder first, or (the other reading)
    the value this text assigned first."""
    if assigned_first:
        return env.get(_PS_VAR + key) or _KNOWN_VARS.get(key)
    return _KNOWN_VARS.get(key) or env.get(_PS_VAR + key)


def _both_readings(env: Mapping[str, str], keys: list[str]) -> bool:
    """(w21) Whether a known folder variable among `keys` was also assigned by this text:
    the word is then read both ways (review 21 R1: the assignment may not have run, or it
    ran: the worse reading counts)."""
    return bool(env) and any(k in _KNOWN_VARS and (_PS_VAR + k) in env for k in keys)


def _worse_path(a: str, b: str) -> str:
    """(w21) Of two readings of a path, the one naming the worse target."""
    if a == b:
        return a
    from aintern_ls.safety.paths import classify_path

    where = frozenset([None])
    la = classify_path(a.replace("\\", "/"), where, True).level
    lb = classify_path(b.replace("\\", "/"), where, True).level
    return b if lb > la else a


_HELD_LEAD = re.compile(r"(?i)\$(?:env:)?\w+(?=[\\/]|\Z)")
_PATH_LIKE = re.compile(r"[\\/]|\A[A-Za-z]:|\A~")
_QUOTING = frozenset("'\"\\`")


def _unquoted(raw: str) -> str:
    """`unquote(raw, posix=False)`, which leaves a word holding no quote, backslash or
    backtick as it is (most words: asked without a call)."""
    return raw if _QUOTING.isdisjoint(raw) else unquote(raw, posix=False)


def _text(node: Node) -> str:
    text = _FAST.text
    if text is None:
        return budget.node_bytes(node).decode("utf-8", "replace")
    # (what `node_bytes` does, without copying and decoding bytes: the same slice of an
    # ASCII text, and the same price for a long one)
    start, end = node.start_byte, node.end_byte
    if end - start > 4096:
        budget.spend((end - start) >> 9)
    return text[start:end]


# What a PowerShell text runs, as opposed to what it only says: comments, and the string
# literals a statement only prints, records or stores (`Write-Host '…'`, `git commit -m
# "…"`, `$doc = "…"` when nothing in the text runs strings), are blanked (same length, so
# spans hold). The passes that search the whole text for .NET/COM/WMI calls read this view:
# "[Registry]::LocalMachine.DeleteSubKeyTree('SYSTEM')" inside an echo is text, not a call.
_CODE_LEX = re.compile(r"""<#|#|@'[ \t]*\r?\n|@"[ \t]*\r?\n|['"`;\n|{}()]""")
_PRINTERS = frozenset(
    {"write-host", "write-output", "echo", "write", "write-verbose", "write-warning"}
    | {"write-error", "write-information", "write-debug", "write-progress", "out-host"}
    | {"out-default", "throw", "git", "select-string", "sls", "findstr", "read-host"}
    | {"add-content", "ac", "set-content", "sc", "out-file"}
)
# Anything that could run a string stored in a variable (then a stored string may be code).
_STRING_RUNNERS = re.compile(
    r"(?i)\b(?:iex|invoke-expression|invoke-command|icm|add-type|powershell|pwsh|"
    r"start-process|saps|start|start-job|sajb|cmd|bash|wsl|scriptblock|newscriptblock|"
    r"invokescript|expandstring|create|invoke|new-alias|set-alias|sal|nal)\b|[&.]\s*[$(]"
)
_ASSIGNED = re.compile(r"\$[\w:{}]+\s*=\Z")


def code_only(text: str, strings: bool = True) -> str:
    """`text` with its comments and (`strings`) its inert string literals blanked (see
    above)."""
    if "#" not in text and "'" not in text and '"' not in text:
        return text
    runs = _STRING_RUNNERS.search(text) is not None
    blank: list[tuple[int, int]] = []
    n = len(text)
    i = stmt = 0
    opened = False  # the statement is inside `( … )`: an argument, not a statement

    def inert(start: int) -> bool:
        if not strings:
            return False
        prefix = text[stmt:start].strip()
        if not prefix:
            return not opened  # a statement that is only a string prints it
        if _ASSIGNED.search(prefix):
            return not runs and "=" not in prefix[:-1]
        first = prefix.split(None, 1)[0].lower()
        return first in _PRINTERS

    while i < n:
        m = _CODE_LEX.search(text, i)
        if m is None:
            break
        t, s = m.group(), m.start()
        if t == "`":
            i = s + 2
        elif t == "<#":
            end = text.find("#>", s + 2)
            end = n if end < 0 else end + 2
            blank.append((s, end))
            i = end
        elif t == "#":
            if s and not (text[s - 1].isspace() or text[s - 1] in ";|{}()"):
                i = s + 1  # `a#b` is one word
                continue
            end = text.find("\n", s)
            end = n if end < 0 else end
            blank.append((s, end))
            i = end
        elif t == "'" or t.startswith("@'"):
            if t == "'":
                j = s + 1
                while True:
                    j = text.find("'", j)
                    if j < 0 or text[j + 1 : j + 2] != "'":
                        break
                    j += 2
                end = n if j < 0 else j + 1
            else:
                j = text.find("\n'@", m.end() - 1)
                end = n if j < 0 else j + 3
            if inert(s):
                blank.append((m.end(), max(m.end(), end - (1 if t == "'" else 2))))
            i = end
        elif t == '"' or t.startswith('@"'):
            keep: list[tuple[int, int]] = []
            j = m.end()
            end = n
            while j < n:
                c = text[j]
                if c == "`":
                    j += 2
                elif c == "$" and text[j + 1 : j + 2] == "(":
                    depth, k = 1, j + 2
                    while k < n and depth:
                        depth += {"(": 1, ")": -1}.get(text[k], 0)
                        k += 1
                    keep.append((j, k))  # `$( … )` runs, even inside a printed string
                    j = k
                elif t == '"' and c == '"':
                    if text[j + 1 : j + 2] == '"':
                        j += 2
                        continue
                    end = j + 1
                    break
                elif t != '"' and c == "\n" and text[j + 1 : j + 3] == '"@':
                    end = j + 3
                    break
                else:
                    j += 1
            if inert(s):
                at = m.end()
                for a, b in keep:
                    blank.append((at, a))
                    at = b
                blank.append((at, max(at, end - (1 if t == '"' else 2))))
            i = end
        else:
            stmt = i = m.end()  # `;`, a new line, `|`, braces and parentheses
            opened = t == "("
    if not blank:
        return text
    out: list[str] = []
    at = 0
    for a, b in blank:
        if b <= a:
            continue
        out.append(text[at:a])
        out.append(re.sub(r"[^\n]", " ", text[a:b]))
        at = b
    out.append(text[at:])
    return "".join(out)
