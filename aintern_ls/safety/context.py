"""The state one analysis carries while it walks a script: findings, cwd, downloads, variables.

`Scope` is shared by the front ends (which walk syntax) and the rule tables (which judge one
simple command at a time); `Cmd` is one simple command with its stdin, `Info` what the
pipeline needs to know about it afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from aintern_ls.safety import budget
from aintern_ls.safety.argv import Argv
from aintern_ls.safety.levels import Finding, RiskLevel, SafetyRules
from aintern_ls.safety.words import Word

# What feeds a command's standard input.
STDIN_NONE = "none"
STDIN_NETWORK = "network"  # output of curl/wget/iwr ...
STDIN_STATIC = "static"  # text known at analysis time (echo literal, heredoc, decoded base64)
STDIN_FILE = "file"  # a local file (`< x`, `cat x |`)
STDIN_OTHER = "other"  # output of some other command


@attrs.frozen(slots=True, cache_hash=True)  # (a key of the judgement memo: hashed often)
class Stdin:
    kind: str = STDIN_NONE
    text: str = ""
    start: int = 0  # where `text` starts in the analysed source, or -1 if it is not there
    decoded: bool = False  # text was produced by decoding (base64 ...): opaque to a reader
    secret: bool = False  # carries a private key or credentials
    paths: tuple[Word, ...] = ()  # paths listed upstream (ls, find, Get-ChildItem)
    names_only: bool = False  # the listing prints names relative to `paths` (ls), not paths


NO_STDIN = Stdin()


@attrs.define(slots=True)
class Info:
    """What the rest of a pipeline needs to know about one command after judging it."""

    name: str = ""
    network_fetch: bool = False
    output: str | None = None  # stdout known statically (echo 'x', printf, base64 -d of it)
    decodes: bool = False
    reads_secret: bool = False
    paths: tuple[Word, ...] = ()
    names_only: bool = False  # `paths` are printed as bare names (ls DIR), not full paths
    input: Stdin | None = None  # what this command itself read (herestring, heredoc, pipe)
    argv: tuple[str, ...] = ()  # the arguments, when all are known (decoders such as `tr`)


# Signature of the function that analyses nested code (bash -c '…', eval, iex "…").
NestedAnalyser = Callable[[str, str, "Scope"], list[Finding]]
# Signature of the dispatcher's `judge` (one simple command), handed to the scope so that
# handlers can judge the command they wrap without importing the dispatcher.
Judge = Callable[[list[Word], "Scope", Stdin], Info]


_K = TypeVar("_K")
_V = TypeVar("_V")


class VersionedDict(dict[_K, _V]):
    """A dict that counts its changes, so a cached judgement knows the state it saw."""

    __slots__ = ("version",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = 0

    def __setitem__(self, key: _K, value: _V) -> None:
        self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: _K) -> None:
        self.version += 1
        super().__delitem__(key)

    def pop(self, *args: Any) -> Any:
        self.version += 1
        return super().pop(*args)

    def popitem(self) -> tuple[_K, _V]:
        self.version += 1
        return super().popitem()

    def clear(self) -> None:
        self.version += 1
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.version += 1
        super().update(*args, **kwargs)

    def setdefault(self, key: _K, default: Any = None) -> Any:
        self.version += 1
        return super().setdefault(key, default)

    def __ior__(self, other: Any) -> Any:  # type: ignore[misc]
        self.version += 1
        return super().__ior__(other)


class Scope:
    """Collects findings for one analysed text; nested code gets a child scope."""

    __slots__ = (
        "assigned",
        "cwds",
        "depth",
        "downloaded",
        "env",
        "errexit",
        "exported",
        "family",
        "fds",
        "findings",
        "judge",
        "judge_memo",
        "judged",
        "memo",
        "nested_analyser",
        "pending_cd",
        "rules",
        "seen_statements",
        "source",
        "spawning",
        "start_cwd",
        "unseen",
        "wrapped",
        "written",
    )

    def __init__(
        self,
        source: str,
        family: str,
        rules: SafetyRules | None,
        nested_analyser: NestedAnalyser,
        depth: int = 0,
        judge: Judge | None = None,
    ) -> None:
        self.source = source
        self.judge: Judge = judge if judge is not None else _no_judge
        self.family = family
        self.rules = rules
        self.nested_analyser = nested_analyser
        self.depth = depth
        self.findings: list[Finding] = []
        self.cwds: frozenset[str | None] = frozenset([None])
        self.start_cwd: str | None = None  # the block's working directory, when known
        self.downloaded: set[str] = set()
        # Files (base names) and folders (`dir/`) this text filled with what it cannot see:
        # a download written through a redirect or `tee`, text decoded at run time, an
        # archive that was downloaded and unpacked. Running one is opaque execution.
        self.unseen: dict[str, str] = VersionedDict()
        # Scripts this text writes with a literal body (`cat > x.sh <<EOF`): name -> (body,
        # offset of the body in the source or -1), so running them later is judged too.
        self.written: dict[str, tuple[str, int]] = VersionedDict()
        self.env: dict[str, str] = VersionedDict()
        # What `exec 3<<EOF …`, `exec 4< file`, `exec < <(…)` left open for later commands
        # to read (`sh <&3`, `bash /dev/fd/4`): descriptor -> what reading it gives.
        self.fds: dict[int, Stdin] = VersionedDict()
        # Variables this text gives a value only known at run time (`D=$(mktemp -d)`,
        # `read x`, loop variables): unknown, but not unset.
        self.assigned: set[str] = set()
        # Variables handed to child processes (`export X=…`, `declare -x`, `X=… cmd`);
        # `*` once `set -a` exports everything.
        self.exported: set[str] = set()
        # Set while a shell's handler runs code in a new process (`bash -c`, `sh x.sh`):
        # the child sees only exported variables (see `nested`).
        self.spawning = False
        self.pending_cd: str | None = None
        self.errexit = False
        # Judgements of simple commands already seen in this scope (dispatch.judge): the
        # same command in the same state is judged once, however often it repeats.
        self.memo: dict[object, tuple[int, tuple[Finding, ...], Info, float]] = {}
        # Statement texts a front end has walked once in this scope: its statement memo
        # keeps a walk only from a text's second sighting (most statements are written
        # once, and keeping a walk costs more than making one).
        self.seen_statements: set[str] = set()
        # dispatch.judge's own memo, by the command's text first (a text not seen before,
        # the usual case, costs one string lookup), then by the full key (see there; the
        # judgement of a text's first sighting waits, keyless, under `dispatch._PENDING`).
        self.judge_memo: dict[str, dict[object, tuple[Any, ...]]] = {}
        self.wrapped = 0  # commands being judged inside each other (sudo nice env …)
        self.judged = 0  # simple commands judged so far (dispatch.judge_uncached counts)

    @property
    def windows(self) -> bool:
        return self.family != "bash"

    def add(self, level: RiskLevel, rule: str, reason: str, start: int, end: int) -> None:
        self.findings.append(Finding(level, rule, reason, start, end))

    def nested(
        self,
        code: str,
        family: str,
        where: Word,
        code_start: int = -1,
        positional: list[Word] | None = None,
        same_shell: bool = False,
    ) -> list[Finding]:
        """Analyse `code` (the value of `where`) and return its findings in our coordinates.

        `code_start` is where `code` sits verbatim in our source; when it does not (quotes
        were removed, text was decoded), spans fall back to the whole word `where`.
        `same_shell`: the code runs in this shell (`eval`, `source`, `.`), so the variables,
        functions and working directory it leaves behind hold for the commands after it.
        """
        if self.depth >= 8:
            return [
                Finding(
                    RiskLevel.CRITICAL,
                    "nesting",
                    "commands nested too deeply to analyse",
                    where.start,
                    where.end,
                )
            ]
        if code_start < 0:
            inner = self.source[where.start + 1 : where.end - 1]
            if inner == code:
                code_start = where.start + 1
            elif self.source[where.start : where.end] == code:
                code_start = where.start
        spawning, self.spawning = self.spawning, False
        hidden: set[str] = set()
        if spawning and family == "bash" == self.family and "*" not in self.exported:
            # A new process sees the exported variables only; one this text set without
            # exporting may still come from the environment of whoever runs it, or be
            # empty (`d=build; bash -c 'rm -rf $d/*'` deletes `/*`). Both readings are
            # judged: what either makes dangerous is.
            hidden = {
                k
                for k in self.env
                if k.isidentifier()
                and k not in self.exported
                and ("$" + k in code or "${" + k in code)
            }
        found: list[Finding] = []
        try:
            found = self._nested_once(code, family, positional, frozenset(), same_shell)
            if hidden:
                found = found + self._nested_once(code, family, positional, hidden)
        except budget.TooComplex as cut:
            # The budget ran out inside the nested code (`sh -c 'rm -rf /; <10,000 more>'`):
            # what it found before the cut stands, here as at the top (a blocked command
            # padded out inside a wrapper stays blocked). The cut goes on up, and each
            # enclosing nested analysis keeps its own part the same way.
            partial = found + _cut_findings(cut)
            self.findings.extend(_placed(partial, where, code_start))
            raise
        return _placed(found, where, code_start)

    def _nested_once(
        self,
        code: str,
        family: str,
        positional: list[Word] | None,
        hidden: set[str] | frozenset[str] = frozenset(),
        same_shell: bool = False,
    ) -> list[Finding]:
        child = Scope(code, family, self.rules, self.nested_analyser, self.depth + 1, self.judge)
        child.exported = set(self.exported)
        child.downloaded = self.downloaded
        child.unseen = self.unseen
        child.start_cwd = self.start_cwd
        child.cwds = self.cwds
        child.written = self.written
        child.fds = self.fds
        child.assigned = set(self.assigned)
        if family == self.family and self.env:
            # `x=/; eval 'rm -rf $x'`, `export C=…; bash -c '$C'`: the code sees the
            # variables this text set (aliases and positional parameters stay behind).
            child.env.update(
                (k, v)
                for k, v in self.env.items()
                if not k.startswith("\x00alias:")
                and k != PS_WHATIF_PREF
                and not k.isdigit()
                and k not in ("@", "*", "#")
                and k not in hidden
            )
            child.assigned -= hidden
        elif self.env and family != self.family and {family, self.family} == _WINDOWS_SHELLS:
            # `$env:T = 'C:\Users'; cmd /c rd /s /q %T%` (and `set T=…` then PowerShell's
            # `$env:T`): environment variables cross into the child process.
            mine, theirs = (
                (_PS_ENV, _CMD_ENV) if self.family == "powershell" else (_CMD_ENV, _PS_ENV)
            )
            child.env.update(
                (theirs + k[len(mine) :], v) for k, v in self.env.items() if k.startswith(mine)
            )
            if _FILE_BOUND_ANY in self.env:
                # (n14w) a program copied under another name is a file on disk: the other
                # shell runs it by that name too (`Copy-Item …\bcdedit.exe b.exe; cmd /c b …`)
                child.env.update(
                    (k, v) for k, v in self.env.items() if k.startswith(_FILE_BOUND_PREFIX)
                )
        if positional is not None and not any(w.dynamic for w in positional):
            # `sh -c 'rm -rf "$1"' _ /`: $0, $1… and "$@" are the words after the code.
            texts = [w.text for w in positional]
            for i, t in enumerate(texts[:10]):
                child.env[str(i)] = t
            child.env["@"] = child.env["*"] = "\x01".join(texts[1:])
            child.env["#"] = str(max(0, len(texts) - 1))
        try:
            found = self.nested_analyser(code, family, child)
        except budget.TooComplex as cut:
            setattr(cut, _PARTIAL, child.findings)  # read by the enclosing `nested`
            raise
        if same_shell and family == self.family == "bash":
            self._left_behind(child)
        return found

    def _left_behind(self, child: Scope) -> None:
        """(u21) What code run in this same shell (`. ./vars.env`, `source f`, `eval "X=/"`)
        leaves for the commands after it: the variables it set or unset, what it exported,
        and its working directory (`echo TARGET=/ > f; . ./f; rm -rf "$TARGET"`)."""
        kept = {k for k in self.env if not k.startswith("\x00alias:") and k != PS_WHATIF_PREF}
        for k in kept - child.env.keys():
            if not k.isdigit() and k not in ("@", "*", "#"):
                del self.env[k]
        for k, v in child.env.items():
            if not k.isdigit() and k not in ("@", "*", "#") and self.env.get(k) != v:
                self.env[k] = v
        self.assigned |= child.assigned
        self.exported |= child.exported
        self.cwds = child.cwds
        self.pending_cd = child.pending_cd

    def include(self, found: list[Finding]) -> RiskLevel:
        self.findings.extend(found)
        return max((f.level for f in found), default=RiskLevel.SAFE)


def _cut_findings(cut: BaseException) -> list[Finding]:
    """The findings the nested analysis made before the budget ran out (`_nested_once`)."""
    found: list[Finding] = getattr(cut, _PARTIAL, [])
    return found


_PARTIAL = "aintern_partial_findings"


def _placed(found: list[Finding], where: Word, code_start: int) -> list[Finding]:
    """Nested findings in the enclosing text's coordinates (`Scope.nested`)."""
    if code_start >= 0:
        return [
            Finding(f.level, f.rule, f.reason, f.start + code_start, f.end + code_start)
            for f in found
        ]
    return [Finding(f.level, f.rule, f.reason, where.start, where.end) for f in found]


_WINDOWS_SHELLS = frozenset({"powershell", "cmd"})
_PS_ENV = "\x00ps:$env:"  # (powershell.py's `_PS_VAR` + `$env:`)
_CMD_ENV = "\x00cmd:"  # (cmd.py's `_CMD_VAR`)
# (h18) `$WhatIfPreference = $true` set unconditionally at the top of a PowerShell text:
# later ShouldProcess cmdlets only report (powershell.py sets it, dispatch.judge reads it).
# Never handed to nested code: a new process or another runspace starts without it.
PS_WHATIF_PREF = "\x00ps-whatif-preference"
_FILE_BOUND_PREFIX = "\x00boundfile"  # (wrappers.FILE_BOUND, FILE_BOUND_ANY: program copies)
_FILE_BOUND_ANY = "\x00boundfile-any"


def _no_judge(words: list[Word], scope: Scope, stdin: Stdin) -> Info:
    raise RuntimeError("this scope was made without a dispatcher")


class Cmd:
    """One simple command after wrappers and quoting are undone."""

    __slots__ = ("_argv", "args", "info", "name", "ps_bound", "readings", "scope", "stdin", "words")

    def __init__(self, words: list[Word], name: str, scope: Scope, stdin: Stdin) -> None:
        self.words = words
        self.name = name
        self.args = words[1:]
        self.scope = scope
        self.stdin = stdin
        self.info = Info(name=name)
        # (made at once: every command judged reads it, a few dozen times)
        self._argv = Argv(words[0] if words else None, self.args)
        # (`shape.read_cmd`: the generic reading of these `args`, by program name and shell)
        self.readings: tuple[list[Word], dict[tuple[str, str], Any]] | None = None
        # (`windows._ps_params`: these `args` bound as PowerShell parameters, asked by
        # several rules of one cmdlet; kept with the `args` list they were bound from)
        self.ps_bound: tuple[list[Word], Any] | None = None

    @property
    def argv(self) -> Argv:
        """The arguments classified once (`argv.Argv`): what rule families test before they
        scan (texts, lower-cased texts, the characters they hold, the program's base name)."""
        got = self._argv
        if got.source is not self.args:
            got = self._argv = Argv(self.words[0] if self.words else None, self.args)
        return got

    @property
    def start(self) -> int:
        return self.words[0].start

    @property
    def end(self) -> int:
        return self.words[-1].end

    def add(self, level: RiskLevel, rule: str, reason: str, upto: Word | None = None) -> None:
        """A finding spanning from the command name to `upto` (default: the whole command)."""
        end = upto.end if upto is not None else self.end
        self.scope.add(level, rule, reason, self.start, max(end, self.words[0].end))

    def judge(self, words: list[Word], stdin: Stdin = NO_STDIN) -> Info:
        """Judge another simple command (the one this command wraps) on the same scope."""
        return self.scope.judge(words, self.scope, stdin)

    def texts(self) -> list[str]:
        return list(self.argv.texts)

    def short(self, letters: str) -> bool:
        """Whether a bundled short option (`-rf`) contains any of `letters`."""
        if not self.argv.dashed:
            return False  # (no argument starts with `-`: asked of every command, often)
        for w in self.args:
            t = w.text
            if t == "--":
                return False
            if len(t) > 1 and t[0] == "-" and t[1] != "-" and any(c in t[1:] for c in letters):
                if len(t) > 3 and 0 <= w.start < w.end <= len(self.scope.source):
                    # `perl -ne'print'`: the letters of a value glued to the flags are not
                    # flags (the `i` of `print` is no `-i`, safety-m9)
                    src = self.scope.source[w.start : w.end]
                    cut = min((src.find(q) for q in "'\"" if q in src), default=-1)
                    if cut > 0 and src[:cut] == t[:cut]:
                        if any(c in t[1:cut] for c in letters):
                            return True
                        continue
                return True
        return False

    def long(self, *names: str) -> bool:
        if not self.argv.dashed:
            return False  # (no argument starts with `-`, so none with `--`)
        for w in self.args:
            t = w.text
            if t == "--":
                return False
            if t.startswith("--") and (t in names or t.split("=", 1)[0] in names):
                return True
        return False

    def has(self, *texts: str) -> bool:
        return not self.argv.textset.isdisjoint(texts)

    def operands(self, with_value: frozenset[str] = frozenset()) -> list[Word]:
        """Arguments that are not options; `with_value` options consume the next word."""
        out: list[Word] = []
        skip = False
        ended = False
        for w in self.args:
            if skip:
                skip = False
                continue
            t = w.text
            if ended:
                out.append(w)
            elif t == "--":
                ended = True
            elif t.startswith("-") and len(t) > 1:
                if t in with_value:
                    skip = True
            else:
                out.append(w)
        return out

    def option_value(self, *names: str) -> Word | None:
        """The value of `-x VALUE`, `-abx VALUE` (bundled), `--name VALUE` or `--name=VALUE`."""
        for i, w in enumerate(self.args):
            t = w.text
            for n in names:
                bundled = (
                    len(n) == 2
                    and n[0] == "-"
                    and len(t) > 2
                    and t[0] == "-"
                    and t[1] != "-"
                    and t.endswith(n[1])
                    and t[1:].isalpha()
                )
                if (t == n or bundled) and i + 1 < len(self.args):
                    return self.args[i + 1]
                if n.startswith("--") and t.startswith(n + "="):
                    if t == n + "=" and i + 1 < len(self.args) and self.args[i + 1].start == w.end:
                        # `--file=<(…)`, `--rcfile="$x"`: the value is the next word part
                        return self.args[i + 1]
                    return Word(t[len(n) + 1 :], w.start, w.end, w.dynamic, w.glob, w.origin)
                if len(n) == 2 and len(t) > 2 and t[0] == "-" and n[1] in t:
                    glued = self.glued_value(w, n[1])
                    if glued is not None:
                        return glued
        return None

    def glued_value(self, w: Word, letter: str) -> Word | None:
        """`-e'CODE'`, `-le"CODE"`, `-c'…'`: a short option with its quoted value written
        against it (no blank: one word) is the option and that value (safety-m9)."""
        if w.start < 0 or w.end > len(self.scope.source):
            return None
        src = self.scope.source[w.start : w.end]
        m = re.match(r"-[a-zA-Z]*" + re.escape(letter) + r"(?=\$?['\"])", src)
        if m is None or not w.text.startswith(src[: m.end()]):
            return None
        return Word(w.text[m.end() :], w.start + m.end(), w.end, w.dynamic, w.glob, w.origin)
