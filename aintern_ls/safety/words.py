"""Words as the shell will see them: normalised text plus where they came from.

Front ends (bash, PowerShell, cmd) turn their syntax into `Word`s; the rule tables only
ever look at `Word.text`, so quoting, backslashes, `$'…'`, `/bin/rm`, `RM.EXE` and friends
are undone here, in one place.
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import itertools
import re
import shlex
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import attrs

from aintern_ls.safety import budget

# Where a word's unresolved part comes from; rules treat network-derived code as worse
# than code from a variable.
ORIGIN_NONE = ""
ORIGIN_VARIABLE = "variable"
ORIGIN_NETWORK = "network"
ORIGIN_SUBST = "substitution"
# A folder a recursive listing named (`Get-ChildItem C:\\Windows -Recurse`): what it emits is
# every item below it, so acting on each one reaches the whole tree (f19).
ORIGIN_DEEP = "deep"

GLOB_CHARS = frozenset("*?[")


class Word(NamedTuple):
    """One argument after quote removal; `start`/`end` index the analysed text.

    (A named tuple: made for every word of every command, and a tuple is built in one
    step where a frozen attrs class sets each field through `object.__setattr__`.)"""

    text: str
    start: int
    end: int
    dynamic: bool = False  # contains a value only known at run time
    glob: bool = False  # contains an unquoted glob character
    origin: str = ORIGIN_NONE


def names(text: str) -> tuple[str, ...]:
    """A whitespace-separated table of program names, as written in the rule tables."""
    return tuple(text.split())


def command_name(text: str, windows: bool = False) -> str:
    """The program a command word runs: `/usr/bin/rm` -> `rm`, `C:\\x\\RM.EXE` -> `rm`."""
    name = text
    if "/" in name:
        name = name.rstrip("/").rsplit("/", 1)[-1] or name
    if windows or "\\" in name:
        name = name.rsplit("\\", 1)[-1].lower()
        for ext in (".exe", ".com", ".cmd", ".bat"):
            if name.endswith(ext):
                name = name[: -len(ext)]
                break
    return name


_GLOB_DIRS = ("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/")
GLOB_STEPS = 10  # a glob pattern translated and compiled (8-12 µs)
GLOB_TRIES_PER_STEP = (
    7  # …and each 7 known names (in one folder) tried against it (0.08-0.17 µs each)
)


def glob_candidates(pattern: str, known: frozenset[str], limit: int | None = None) -> list[str]:
    """Known programs a globbed command word like `/???/?m` could resolve to, in name order;
    with a `limit`, the search stops at `limit + 1` of them (a caller that guesses only
    among a few needs no more to know there are too many).

    Each name tried costs (in each of five folders when the pattern has a `/`: a pattern
    every name must be tried against took 2 ms), so the tries are paid for
    (`GLOB_STEPS`, `GLOB_TRIES_PER_STEP`), the same each time whatever is remembered."""
    found, tries = _glob_candidates(pattern, known, limit)
    budget.spend(GLOB_STEPS + tries // GLOB_TRIES_PER_STEP)
    return list(found)


@functools.lru_cache(maxsize=1024)
def _glob_candidates(
    pattern: str, known: frozenset[str], limit: int | None
) -> tuple[tuple[str, ...], int]:
    """(`glob_candidates`' answer, the tries it took). Only the names that can match are
    tried: those ending in the pattern's last character when it is literal, and without a
    `/` those starting with its first when that is (a `[` or `]` is literal when nothing
    can pair with it: fnmatch reads an unclosed `[` as itself)."""
    slash = "/" in pattern
    first, last = pattern[:1], pattern[-1:]
    index = _glob_index(known)
    pool = index.every
    if last and last not in "*?" and not (last == "]" and "[" in pattern):
        pool = index.by_last.get(last, ())
    if not slash and first and first not in "*?" and not (first == "[" and "]" in pattern):
        starting = index.by_first.get(first, ())
        if len(starting) < len(pool):
            pool = starting
    match = re.compile(fnmatch.translate(pattern)).match
    if slash:
        # (each folder's full paths filtered at once, in C: `d + n` made once per index)
        found: set[str] = set()
        for d in _GLOB_DIRS:
            if pool is index.every:
                paths = index.prefixed[d]
            else:
                paths = index.prefixed_by_last.get(last, {}).get(d, ())
            found.update([p[len(d) :] for p in filter(match, paths)])
        names = sorted(found)
        return tuple(names if limit is None else names[: limit + 1]), len(pool) * len(_GLOB_DIRS)
    if limit is None:
        return tuple(filter(match, pool)), len(pool)
    first_few = tuple(itertools.islice(filter(match, pool), limit + 1))
    if len(first_few) <= limit:
        return first_few, len(pool)
    return first_few, bisect.bisect_left(pool, first_few[-1]) + 1  # (pool is in name order)


class _GlobIndex(NamedTuple):
    every: tuple[str, ...]  # the known names in name order
    by_first: dict[str, tuple[str, ...]]  # …by first character
    by_last: dict[str, tuple[str, ...]]  # …by last (the empty name under `/`: `d + ""`)
    prefixed: dict[str, tuple[str, ...]]  # every name in each of `_GLOB_DIRS`
    prefixed_by_last: dict[str, dict[str, tuple[str, ...]]]  # …of `by_last[c]`


@functools.lru_cache(maxsize=8)
def _glob_index(known: frozenset[str]) -> _GlobIndex:
    every = tuple(sorted(known))
    by_first: dict[str, list[str]] = {}
    by_last: dict[str, list[str]] = {}
    for n in every:
        if n:
            by_first.setdefault(n[0], []).append(n)
        by_last.setdefault(n[-1:] or "/", []).append(n)
    return _GlobIndex(
        every,
        {k: tuple(v) for k, v in by_first.items()},
        {k: tuple(v) for k, v in by_last.items()},
        {d: tuple([d + n for n in every]) for d in _GLOB_DIRS},
        {c: {d: tuple([d + n for n in v]) for d in _GLOB_DIRS} for c, v in by_last.items()},
    )


_TOKEN = re.compile(r"""("(?:[^"\\]|\\.)*"?|'[^']*'?|[^\s"']+)+""")
_new_word = tuple.__new__


def split_words(text: str, offset: int = 0, posix: bool = True) -> list[Word]:
    """Split a simple command line on blanks, honouring quotes; used where no grammar applies."""
    words: list[Word] = []
    for m in _TOKEN.finditer(text):
        raw = m.group(0)
        budget.spend(budget.SPLIT_WORD_STEPS + len(raw) // 16)
        # (a `Word` made from its six fields in one step: one per word split here)
        words.append(
            _new_word(
                Word,
                (
                    unquote(raw, posix),
                    offset + m.start(),
                    offset + m.end(),
                    "$" in raw or "%" in raw,  # dynamic
                    not GLOB_CHARS.isdisjoint(raw),  # glob: any glob character of the token
                    ORIGIN_NONE,
                ),
            )
        )
    return words


def unquote(raw: str, posix: bool = True) -> str:
    """Remove quotes (and, for POSIX shells, backslash escapes) from a raw token."""
    if "'" not in raw and '"' not in raw and "\\" not in raw and "`" not in raw:
        return raw  # (asked of every word split without a grammar: four substring tests)
    out: list[str] = []
    i, n = 0, len(raw)
    quote = ""
    while i < n:
        c = raw[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"' and posix and i + 1 < n and raw[i + 1] in '"\\$`':
                i += 1
                out.append(raw[i])
            else:
                out.append(c)
        elif c in "'\"":
            quote = c
        elif c == "\\" and posix and i + 1 < n:
            i += 1
            if raw[i] != "\n":
                out.append(raw[i])
        elif c == "`" and not posix:
            pass  # PowerShell's escape character
        else:
            out.append(c)
        i += 1
    return "".join(out)


_ANSI_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_ANSI_NUM = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3})")


def ansi_c(body: str) -> str:
    """Decode the inside of a bash `$'…'` string (`$'\\x72m'` is `rm`)."""

    def num(m: re.Match[str]) -> str:
        s = m.group(1)
        try:
            if s[0] in "xuU":
                return chr(int(s[1:], 16))
            return chr(int(s, 8))
        except (ValueError, OverflowError):
            return m.group(0)

    body = _ANSI_NUM.sub(num, body)
    return re.sub(r"\\(.)", lambda m: _ANSI_ESCAPES.get(m.group(1), "\\" + m.group(1)), body)


_PS_TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(\"[^\"$`]*\")|(-join\b|-f\b)|([()+,]))", re.I)


def fold_powershell(text: str) -> str | None:
    """The constant value of a PowerShell string expression built from literals with `+`,
    `,` and `-join` / `-f` (`('Remove-'+'Item')`, `("{0}{1}" -f 'a','b')`), or None when
    any part is only known at run time. Obfuscation hides command names this way."""
    tokens: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _PS_TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        if m.group(1):
            tokens.append("s" + m.group(1)[1:-1].replace("''", "'"))
        elif m.group(2):
            tokens.append("s" + m.group(2)[1:-1])
        else:
            tokens.append((m.group(3) or m.group(4)).lower())
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    at = [0]

    def peek() -> str:
        return tokens[at[0]] if at[0] < len(tokens) else ""

    def primary() -> list[str] | None:
        tok = peek()
        at[0] += 1
        if tok.startswith("s"):
            return [tok[1:]]
        if tok == "(":
            value = expr()
            if value is None or peek() != ")":
                return None
            at[0] += 1
            return value
        return None

    def listing() -> list[str] | None:
        first = primary()
        if first is None:
            return None
        out = list(first)
        while peek() == ",":
            at[0] += 1
            nxt = primary()
            if nxt is None:
                return None
            out.extend(nxt)
        return out

    def adding() -> list[str] | None:
        value = listing()
        while value is not None and peek() == "+":
            at[0] += 1
            rhs = listing()
            if rhs is None:
                return None
            value = ["".join(value) + "".join(rhs)] if len(value) == 1 else value + rhs
        return value

    def expr() -> list[str] | None:
        value = adding()
        while value is not None and peek() in ("-join", "-f"):
            op = peek()
            at[0] += 1
            rhs = adding()
            if rhs is None:
                return None
            if op == "-join":
                value = ["".join(rhs).join(value)]
            else:
                value = _ps_format(value[0], rhs)
                if value is None:
                    return None
        return value

    value = expr()
    if value is None or at[0] != len(tokens):
        return None
    return "".join(value) if len(value) == 1 else " ".join(value)


def _ps_format(fmt: str, args: list[str]) -> list[str] | None:
    """`"{0}{1}" -f 'a','b'` with constant arguments."""
    try:
        return [re.sub(r"\{(\d+)\}", lambda m: args[int(m.group(1))], fmt)]
    except IndexError:
        return None


_PRINTF_SPEC = re.compile(r"%(%|[-+ #0]*\d*(?:\.\d+)?[sbqdiouxXcfgeE])")


_FISH_STRING_FLAGS = {
    # verb: the flags whose meaning is modelled below (any other flag: not known)
    "join": frozenset(("-n", "--no-empty", "-q", "--quiet")),
    "join0": frozenset(("-n", "--no-empty", "-q", "--quiet")),
    "replace": frozenset(("-a", "--all", "-q", "--quiet", "-f", "--filter")),
    "unescape": frozenset(("--no-quoted",)),
    "split": frozenset(("-n", "--no-empty")),
    "split0": frozenset(("-n", "--no-empty")),
    "lower": frozenset(("-q", "--quiet")),
    "upper": frozenset(("-q", "--quiet")),
    "trim": frozenset(()),
    "collect": frozenset(("-N", "--no-trim-newlines")),
}
_FISH_UNESCAPE_NUM = re.compile(
    r"\\(x[0-9a-fA-F]{1,2}|X[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3})"
)


def _fish_unescape(text: str, style: str) -> str | None:
    """fish's `string unescape [--style=script|url|var]` of one literal string."""
    if style == "url":
        from urllib.parse import unquote

        return unquote(text)
    if style == "var":
        # (`_XX_` is the byte XX; `__` an underscore)
        body = re.sub(r"_([0-9A-F]{2})_", lambda m: chr(int(m.group(1), 16)), text)
        return body.replace("__", "_")
    if style != "script":
        return None

    def num(m: re.Match[str]) -> str:
        s = m.group(1)
        try:
            return chr(int(s[1:], 16)) if s[0] in "xXuU" else chr(int(s, 8))
        except (ValueError, OverflowError):
            return m.group(0)

    body = _FISH_UNESCAPE_NUM.sub(num, text)
    body = re.sub(r"\\(.)", lambda m: _ANSI_ESCAPES.get(m.group(1), m.group(1)), body)
    if len(body) >= 2 and body[0] == body[-1] and body[0] in "'\"":
        body = body[1:-1]  # (the script style reads quotes too)
    return body


def fish_string(verb: str, args: list[str]) -> str | None:
    """What fish's `string join|join0|replace|unescape|split|lower|upper|trim|collect …`
    prints for literal words (each result a line of its own), or None when a flag or a
    verb is not modelled (a regex replace, a sub-string: not known). Obfuscation builds
    command lines this way: `eval (string replace -a _ ' ' rm_-rf_~)`, `string unescape
    --style=url rm%20-rf%20~ | source` (n18u, n19u)."""
    known = _FISH_STRING_FLAGS.get(verb)
    if known is None:
        return None
    flags: set[str] = set()
    style = "script"
    rest = list(args)
    while rest and rest[0].startswith("-") and len(rest[0]) > 1:
        flag = rest.pop(0)
        if flag == "--":
            break
        if verb == "unescape" and flag.startswith("--style="):
            style = flag.split("=", 1)[1]
            continue
        if flag not in known:
            return None
        flags.add(flag)
    if flags & {"-q", "--quiet"}:
        return ""
    if verb in ("join", "join0"):
        if verb == "join" and not rest:
            return None
        sep = "\0" if verb == "join0" else rest.pop(0)
        items = [r for r in rest if r] if flags & {"-n", "--no-empty"} else rest
        return sep.join(items)
    if verb == "replace":
        if len(rest) < 3:
            return None
        old, new, *items = rest
        every = bool(flags & {"-a", "--all"})
        if flags & {"-f", "--filter"}:
            items = [i for i in items if old in i]
        return "\n".join(i.replace(old, new, -1 if every else 1) for i in items)
    if verb == "unescape":
        out = [_fish_unescape(r, style) for r in rest]
        return None if any(o is None for o in out) or not out else "\n".join(str(o) for o in out)
    if verb in ("split", "split0"):
        if verb == "split" and not rest:
            return None
        sep = "\0" if verb == "split0" else rest.pop(0)
        if not sep:
            return None
        parts = [p for r in rest for p in r.split(sep)]
        if flags & {"-n", "--no-empty"}:
            parts = [p for p in parts if p]
        return "\n".join(parts)
    if not rest:
        return None
    if verb == "lower":
        return "\n".join(r.lower() for r in rest)
    if verb == "upper":
        return "\n".join(r.upper() for r in rest)
    if verb == "trim":
        return "\n".join(r.strip() for r in rest)
    return "\n".join(rest)  # collect


def printf_output(fmt: str, args: list[str]) -> str | None:
    """What `printf FMT ARGS…` prints: the format is reused until the arguments run out,
    `%b` expands escapes in its argument, the format's own escapes are expanded. None for
    a format we do not emulate."""
    out: list[str] = []
    fmt = ansi_c(fmt) if "\\" in fmt else fmt
    rest = list(args)
    for _ in range(64):
        used = 0

        def spec(m: re.Match[str], rest: list[str] = rest) -> str:
            nonlocal used
            conv = m.group(1)
            if conv == "%":
                return "%"
            value = rest[used] if used < len(rest) else ""
            used += 1
            kind = conv[-1]
            if kind == "b":
                return ansi_c(value) if "\\" in value else value
            if kind in "sq":
                return value
            if kind == "c":
                return value[:1]
            try:
                number = float(value or "0") if kind in "fgeE" else int(value or "0", 0)
                return ("%" + conv) % number
            except (ValueError, TypeError):
                return value

        out.append(_PRINTF_SPEC.sub(spec, fmt))
        if used == 0 or used >= len(rest):
            break
        rest = rest[used:]
    return "".join(out)


def tr_output(args: list[str], text: str) -> str | None:
    """What `tr SET1 SET2` (or `tr -d SET`) makes of `text`; None for forms not emulated."""
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flags += args[0][1:]
        args = args[1:]
    if set(flags) - set("ds") or not args:
        return None
    sets = [_tr_set(a) for a in args[:2]]
    if any(s is None for s in sets):
        return None
    first = sets[0] or ""
    if "d" in flags:
        return "".join(c for c in text if c not in first)
    if len(sets) < 2:
        return None
    second = sets[1] or ""
    if not second:
        return None
    second = second + second[-1] * max(0, len(first) - len(second))
    table = {ord(a): b for a, b in zip(first, second, strict=False)}
    out = text.translate(table)
    if "s" in flags:
        out = re.sub(r"([" + re.escape(second) + r"])\1+", r"\1", out)
    return out


def _tr_set(spec: str) -> str | None:
    classes = {
        "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
        "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "[:digit:]": "0123456789",
        "[:space:]": " \t\n\r\f\v",
        "[:blank:]": " \t",
    }
    for k, v in classes.items():
        spec = spec.replace(k, v)
    if "[:" in spec or "[=" in spec or "*" in spec:
        return None
    spec = ansi_c(spec) if "\\" in spec else spec
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            a, b = ord(spec[i]), ord(spec[i + 2])
            if b < a or b - a > 4096:
                return None
            out.extend(chr(c) for c in range(a, b + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


@attrs.frozen(slots=True)
class PsArgs:
    """A PowerShell command's arguments bound to parameters (`ps_bind`).

    `named` keeps every `-Name` in the order written, with its value (`None` for a switch);
    `positional` the arguments no parameter took."""

    named: tuple[tuple[str, Word | None], ...]
    positional: tuple[Word, ...]

    def params(self) -> dict[str, Word | None]:
        """Parameter name (lower case, as written) -> value; a repeated name keeps its last."""
        return dict(self.named)

    def value(self, params: tuple[str, ...], position: int = -1) -> Word | None:
        """The first value written for any of `params` (full names, lower case; a written
        name of two or more letters that starts one of them is an abbreviation of it, as
        `-Dest` is of `-Destination`), or else the `position`-th positional argument."""
        for name, value in self.named:
            if _ps_abbreviates(name, params):
                return value
        if 0 <= position < len(self.positional):
            return self.positional[position]
        return None

    def has(self, *prefixes: str) -> bool:
        """Whether a parameter starting with any of `prefixes` was written."""
        return any(name.startswith(prefixes) for name, _ in self.named)


def _ps_abbreviates(name: str, params: tuple[str, ...]) -> bool:
    return len(name) >= 2 and any(p.startswith(name) for p in params)


class _LastBind(threading.local):
    def __init__(self) -> None:
        self.key: tuple[object, ...] = ()
        self.words: tuple[Word, ...] = ()
        self.bound: PsArgs | None = None


_LAST_BIND = _LastBind()


def ps_bind(
    args: list[Word] | tuple[Word, ...],
    takes_value: Callable[[str], bool],
    wanted: tuple[str, ...] = (),
) -> PsArgs:
    """`_ps_bind`, remembering the last answer: the rules of one cmdlet ask for its
    parameters several times over (the same words, the same binder)."""
    last = _LAST_BIND
    key = (takes_value, wanted)
    if (
        last.key == key
        and len(last.words) == len(args)
        and all(a is b for a, b in zip(last.words, args, strict=True))
        and last.bound is not None
    ):
        return last.bound
    bound = _ps_bind(args, takes_value, wanted)
    last.key, last.words, last.bound = key, tuple(args), bound
    return bound


def _ps_bind(
    args: list[Word] | tuple[Word, ...],
    takes_value: Callable[[str], bool],
    wanted: tuple[str, ...] = (),
) -> PsArgs:
    """Bind PowerShell arguments the way the parameter binder does, as far as it can be
    done without the cmdlet's signature: `-Name:value` (value attached), `-Name value`
    when `takes_value(name)` says the parameter takes one and the next argument is not
    itself a `-Name`, else a switch; anything else (numbers such as `-5` included) is
    positional. A parameter in `wanted` (abbreviations count) always takes the next
    argument, whatever it looks like: the caller knows that parameter takes a value."""
    named: list[tuple[str, Word | None]] = []
    positional: list[Word] = []
    i = 0
    while i < len(args):
        arg = args[i]
        t = arg.text
        if t.startswith("-") and len(t) > 1 and not t[1].isdigit():
            name, colon, value = t[1:].partition(":")
            name = name.lower()
            if colon:
                named.append((name, Word(value, arg.start, arg.end, arg.dynamic)))
            elif wanted and _ps_abbreviates(name, wanted):
                named.append((name, args[i + 1] if i + 1 < len(args) else None))
                i += 1
            elif i + 1 < len(args) and not args[i + 1].text.startswith("-") and takes_value(name):
                named.append((name, args[i + 1]))
                i += 1
            else:
                named.append((name, None))
        else:
            positional.append(arg)
        i += 1
    return PsArgs(tuple(named), tuple(positional))


# The binder itself, for a caller that keeps its answer (`windows._ps_params` keeps it on the
# `Cmd`): `ps_bind`'s one-answer memory costs as much as a short binding.
bind_ps_args = _ps_bind


class SpanMatches:
    """Whether `pattern` matches inside a stretch of `source`, answered from one scan of the
    whole source: a construct nested a thousand deep asks at every level about a text that
    holds all the levels below it, and searching each of them again is quadratic.

    `search(raw, start)` is `pattern.search(raw)` for `raw == source[start:start +
    len(raw)]`, on the condition that no alternative of `pattern` can match a prefix of what
    another matches at the same place (true of a list of words and `\\b`-bounded names)
    and that a match is at most `reach` characters long. A match inside the stretch that
    touches neither end sees the same text around it as in `source`; one touching an end is
    tried on `raw` itself."""

    __slots__ = ("_ends", "_fallback", "_pattern", "_reach", "_source", "_starts")

    def __init__(
        self,
        pattern: re.Pattern[str],
        source: str,
        reach: int,
        fallback: Callable[[str], bool] | None = None,
    ) -> None:
        self._pattern = pattern
        self._fallback = fallback  # the same test, for a text that is not the source's
        self._source = source
        self._reach = reach
        found = [(m.start(), m.start() + len(m.group(1))) for m in _every_start(pattern, source)]
        self._starts = [s for s, _ in found]
        # Suffix minima of the match ends: whether any match starting at or after `i`
        # ends by a given place is then one comparison.
        ends = [e for _, e in found]
        for i in range(len(ends) - 2, -1, -1):
            ends[i] = min(ends[i], ends[i + 1])
        self._ends = ends

    def search(self, raw: str, start: int) -> bool:
        end = start + len(raw)
        if len(raw) <= 2 * self._reach or self._source[start:end] != raw:
            if self._fallback is not None:
                return self._fallback(raw)
            return self._pattern.search(raw) is not None
        i = bisect.bisect_left(self._starts, start)
        if i < len(self._starts) and self._ends[i] <= end:
            return True
        # A match touching either end of the stretch: tried where it would start.
        if self._pattern.match(raw) is not None:
            return True
        return any(
            self._pattern.match(raw, p) is not None for p in range(len(raw) - self._reach, len(raw))
        )


def _every_start(pattern: re.Pattern[str], source: str) -> Iterator[re.Match[str]]:
    """The leftmost match at every place where one starts (overlapping ones included)."""
    return re.compile(f"(?=({pattern.pattern}))", pattern.flags).finditer(source)


def names_in_words(words: Sequence[Word], source: str, found: tuple[str, ...]) -> bool:
    """Whether any word's text holds one of `found` (lower-case ASCII names, none a prefix
    of another), in any letter case: `any(n in w.text.lower() …)`, with the long words of
    a deeply nested text (a script block holding every level below it) looked up in one
    scan of `source` instead of lower-cased and searched at every level."""
    short = _any_name(found)
    for w in words:
        text = w.text
        if len(text) < 256:
            if short(text.lower()) is not None:
                return True
        elif _names_index(source, found).search(text, w.start):
            return True
    return False


@functools.lru_cache(maxsize=32)
def _any_name(found: tuple[str, ...]) -> Callable[[str], re.Match[str] | None]:
    """`search(low)`: a match where `low` holds one of `found` (`any(n in low …)` in one
    call)."""
    return re.compile("|".join(map(re.escape, found))).search


def _lower_holds(found: tuple[str, ...]) -> Callable[[str], bool]:
    def test(text: str) -> bool:
        low = text.lower()
        return any(n in low for n in found)

    return test


@functools.lru_cache(maxsize=8)
def _names_index(source: str, found: tuple[str, ...]) -> SpanMatches:
    # ASCII case folding only: `str.lower` maps no other character onto these letters.
    pattern = re.compile("|".join(map(re.escape, found)), re.I | re.A)
    return SpanMatches(pattern, source, max(map(len, found)), _lower_holds(found))


# A shell's program name (`sh`, `bash`, `/bin/dash`, `zsh5`, `ksh93`, `busybox sh`'s `sh`).
_SHELL_BASE = re.compile(r"(?:ba|da|z|k|mk|pdk|ok|lk|a|ya|po|rba|c|tc|hu)?sh(?:\d[\d.]*)?|fish")
# Variables that hold the user's shell (`PAGER='$SHELL'`: the hook's `sh -c` expands them).
_SHELL_VARS = frozenset({"$SHELL", "${SHELL}", "$BASH", "${BASH}"})
_SHELL_DEFAULTED = re.compile(r"\$\{(?:SHELL|BASH):?[-=][^}]*\}")  # `${SHELL:-/bin/sh}`
# Words that run the command after them (with their own options): `exec sh`, `env X=1 bash`.
_SHELL_PREFIX = frozenset(
    names("exec command builtin nohup setsid env nice ionice stdbuf timeout time chrt taskset")
)
_SEPARATORS = frozenset(";&|()")


def starts_shell(code: str) -> str | None:
    """The shell a hook's command line starts, or None: `sh -c '…'`, `bash`, `/bin/dash`,
    `exec sh`, `$SHELL`, `sh -i`, `busybox sh`, `env bash`, `… | sh` (any simple command of
    the line). A tool's hook that starts a shell is a shell escape (GTFOBins), critical
    whatever the shell then runs (HELPERS.md, session 14); launchers (`bash -c`, `sudo`,
    `xargs`, `find -exec`) are not hooks and never ask this."""
    if "sh" not in code and "$" not in code:
        return None  # cheap exit: every shell name ends in `sh`, or it is a variable
    try:
        lex = shlex.shlex(code, posix=True, punctuation_chars=";&|()<>")
        lex.whitespace_split = True
        tokens = list(lex)
    except ValueError:
        tokens = code.replace('"', " ").replace("'", " ").split()
    head, prefixed, multicall, skip = True, False, False, False
    for t in tokens[:256]:
        if t and all(c in _SEPARATORS for c in t):
            head, prefixed, multicall, skip = True, False, False, False
            continue
        if not head:
            continue
        if skip:
            skip = False
            continue
        if t and all(c in "<>&" for c in t):
            skip = True  # a redirection's target (`0<&2 sh`)
            continue
        if t.isdigit() or (t[:1].isalpha() and "=" in t and t.split("=", 1)[0].isidentifier()):
            continue  # a redirection's fd, `timeout 5`, an assignment (`env X=1 sh`)
        if t in _SHELL_VARS or (t.startswith("${") and _SHELL_DEFAULTED.fullmatch(t)):
            return t
        name = t.rsplit("/", 1)[-1]
        if multicall:
            return name if _SHELL_BASE.fullmatch(name) else None
        if name in _SHELL_PREFIX:
            prefixed = True
            continue
        if prefixed and t.startswith("-"):
            skip = t in ("-a", "-u", "-n", "-s", "-k")  # options that take a value
            continue
        if name in ("busybox", "toybox"):
            multicall = True
            continue
        if _SHELL_BASE.fullmatch(name):
            return name
        head = False
    return None


# --- confusable letters (n17u) ---------------------------------------------------------------
# Cyrillic and Greek letters drawn like Latin ones, dashes drawn like `-`, and zero-width
# characters: `rм -rf /`, `ｒｍ`, `r\u200dm`, `dd оf=/dev/sda`, `Rеmove-Item` are judged as the
# ASCII words they imitate (session 17). Fullwidth forms and other compatibility letters
# fold by NFKC first.
_CONFUSABLE = str.maketrans(
    {
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", None),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d", "-"),
        **dict(
            zip(
                "аеорсухѕіјһԁԛԝӏмкпгтвнАВЕКМНОРСТХУІЈЅԜ",
                "aeopcyxsijhdqwlmknrtbhABEKMHOPCTXYIJSW",
                strict=True,
            )
        ),
        **dict(
            zip(
                "αοριεκνυτχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
                "aopiekvutxABEZHIKMNOPTYX",
                strict=True,
            )
        ),
    }
)


_DASHES = str.maketrans(
    dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d", "-")
)


def only_dashes(text: str, folded: str) -> bool:
    """Whether folding changed nothing but dashes (`–Command`, `—rf`)."""
    return text.translate(_DASHES) == folded


def unconfused(text: str) -> str | None:
    """The ASCII word `text` imitates with confusable letters, or None when it is ASCII
    already or holds letters that are no Latin look-alikes (`Документы` stays itself)."""
    if text.isascii():
        return None
    import unicodedata

    folded = unicodedata.normalize("NFKC", text).translate(_CONFUSABLE)
    return folded if folded.isascii() and folded != text else None


def confusable_words(words: list[Word]) -> tuple[list[Word], Word | None]:
    """The words with the command word and options (`-x`, `/x`, `key=value`) folded by
    `unconfused`; the first word folded (None when none was)."""
    out: list[Word] | None = None
    first: Word | None = None
    for k, w in enumerate(words):
        t = w.text
        if t.isascii():
            continue
        plain = unconfused(t)
        if plain is None:
            continue
        if k and plain[:1] not in "-/" and "=" not in plain[:24]:
            continue  # (an operand's letters are data: a file named in Cyrillic)
        if out is None:
            out = list(words)
        out[k] = w._replace(text=plain)
        if first is None and t.translate(_DASHES) != plain:
            first = w  # (a dash alone is no disguise: PowerShell takes `–Command` as `-Command`)
    return (out, first) if out is not None else (words, None)


_SAME_LENGTH = {
    k: v
    for k, v in _CONFUSABLE.items()
    if v is not None and len(v) == 1  # (zero-width characters cannot go without a shift)
}
_SAME_LENGTH.update({c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)})  # fullwidth ASCII
_NON_ASCII_TOKEN = re.compile(r"(?<!\S)[\x21-\x7e]*[^\x00-\x7f]\S*")


def confusables_folded(text: str) -> str:
    """`text` with each whitespace-separated token that imitates ASCII with confusable letters
    folded to it, one character for one (the spans hold): for a parser that stops at them
    (PowerShell's grammar splits `-Rеcurse` at the Cyrillic letter)."""
    if text.isascii():
        return text

    def fold(m: re.Match[str]) -> str:
        token = m.group(0)
        folded = token.translate(_SAME_LENGTH)
        return folded if folded.isascii() else token

    return _NON_ASCII_TOKEN.sub(fold, text)


# What `eval echo WORD` prints when WORD is a literal or a tilde prefix: eval types the
# words again, so the tilde an unquoted `~$USER` left alone is expanded by the second pass.
_EVAL_ECHO = re.compile(r"(?:echo|printf\s+%s(?:\\n)?)\s+(\S+)")
_EVAL_TILDE = re.compile(r"~(\$\{?(?:USER|LOGNAME)\}?|\$\(whoami\)|[a-z_][\w.-]*)?(/[^$`*?]*)?")
_EVAL_LITERAL = re.compile(r"/[\w./@+-]*")


def eval_echo_text(raw: str) -> str | None:
    """What `eval RAW` prints when RAW is one literal echo (or `printf %s`) of a folder:
    `eval echo ~$USER`, `eval "echo /etc"`. A tilde prefix is the home it names (the current
    user's for `~`, `~$USER`, `~$LOGNAME`, `$HOME`). None when anything else runs (p17)."""
    if "$(" in raw or "`" in raw or len(raw) > 512:
        return None
    try:
        typed = " ".join(shlex.split(raw))
    except ValueError:
        return None
    m = _EVAL_ECHO.fullmatch(typed.strip())
    if m is None:
        return None
    word = m.group(1).strip("\"'")
    if "'" not in raw and word.startswith("\\$"):
        word = word[1:]  # (`"\$HOME"`: the first pass left `$HOME` for eval to expand)
    if word in ("$HOME", "${HOME}"):
        return "~"
    tilde = _EVAL_TILDE.fullmatch(word)
    if tilde is not None:
        user, rest = tilde.group(1) or "", tilde.group(2) or ""
        home = "/root" if user == "root" else "~" if not user or user[0] == "$" else "~" + user
        return home + rest
    if _EVAL_LITERAL.fullmatch(word):
        return word
    return None
