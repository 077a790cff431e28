"""Secret redaction: take credentials out of text before an AI or a log reads it.

The rules are data, not code: gitleaks' default catalogue (`secrets/gitleaks.toml`,
222 rules, MIT) plus our additions in the same shape (`secrets/aintern.toml`), see
`secrets/README.md`. `redact` replaces each secret (only the secret: a rule's
`secretGroup`, not the name in front of it) with a marker naming the rule and a short
fingerprint, `[REDACTED:github-pat:3f9a]`. The fingerprint is a keyed hash with a key
drawn once per process, so the same secret gives the same marker within one server and
two different secrets (almost always) different ones, while nothing about the secret
can be recovered from it. Redacting already-redacted text changes nothing.

How it stays fast with ~270 rules: the lowercased text is scanned once for every
rule's keywords (Aho-Corasick), and a rule's regex runs only on the lines around its
keyword hits. Text without any keyword costs one scan.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import importlib.resources
import logging
import math
import os
import re
import tomllib
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import ahocorasick
import attrs

log = logging.getLogger(__name__)

MARKER_PREFIX = "[REDACTED:"
# A marker as `redact` writes it (the fingerprint is optional so that older markers and
# markers from other tools are recognised too).
MARKER_RE = re.compile(r"\[REDACTED:[a-z0-9][a-z0-9-]*(?::[0-9a-f]{4})?\]")
RULE_FILES = ("gitleaks.toml", "aintern.toml")

# Characters of context a rule's regex gets before / after a keyword hit (extended to
# whole lines). Multi-line rules (private keys, Kubernetes secrets, curl with
# continuation lines) get more after the hit.
_BEFORE = 300
_AFTER = 300
_AFTER_MULTILINE = 8192
_MAX_LINE_EXTENSION = 4096

_KEY = os.urandom(16)


@attrs.frozen
class Redaction:
    """Redacted text and how many secrets were replaced."""

    text: str
    count: int = 0


@attrs.frozen
class Allowlist:
    """When a finding is not a secret (gitleaks' allowlist semantics)."""

    regexes: tuple[re.Pattern[str], ...] = ()
    stopwords: tuple[str, ...] = ()
    target: str = "secret"  # secret | match | line
    all_of: bool = False  # condition = "AND"
    has_paths: bool = False  # path / commit conditions never hold for terminal text
    stopword_finder: Any = attrs.field(default=None, eq=False, repr=False)

    def has_stopword(self, secret: str) -> bool:
        lowered = secret.lower()
        if self.stopword_finder is not None:
            return next(iter(self.stopword_finder.iter(lowered)), None) is not None
        return any(w in lowered for w in self.stopwords)

    def allows(self, secret: str, match: str, line: str) -> bool:
        subject = {"match": match, "line": line}.get(self.target, secret)
        checks: list[bool] = []
        if self.has_paths:
            checks.append(False)
        if self.regexes:
            checks.append(any(r.search(subject) for r in self.regexes))
        if self.stopwords:
            checks.append(self.has_stopword(secret))
        if not checks:
            return False
        return all(checks) if self.all_of else any(checks)


@attrs.frozen
class Rule:
    """One secret rule: a compiled regex and how to judge its matches."""

    id: str
    regex: re.Pattern[str]
    keywords: tuple[str, ...]
    source: str
    secret_group: int = 0
    entropy: float = 0.0
    allowlists: tuple[Allowlist, ...] = ()
    multiline: bool = False
    context: bool = False  # found by a name or an option in front, not by its format
    # Rules written `[\w.-]{0,50}?name...` run without that lazy prefix (5x faster in
    # Python's engine); the match start is then moved back over it by hand.
    search: re.Pattern[str] | None = attrs.field(default=None, eq=False, repr=False)
    back: int = 0
    path_only: bool = False  # gitleaks runs it on some file names only; we run it anywhere

    @property
    def generic(self) -> bool:
        return self.id.startswith("generic")

    @property
    def priority(self) -> int:
        """Which rule names a secret several rules found.

        Formats (gitleaks' first) over names and options in front of a value, over
        gitleaks' generic rule.
        """
        if self.generic:
            return 0
        if self.context or self.path_only:
            return 1
        return 3 if self.source == "gitleaks.toml" else 2


@attrs.frozen
class Skipped:
    """A rule that could not be used, and why."""

    id: str
    source: str
    reason: str


@attrs.frozen
class RuleSet:
    rules: tuple[Rule, ...]
    allowlists: tuple[Allowlist, ...]
    skipped: tuple[Skipped, ...]
    automaton: Any  # ahocorasick.Automaton: keyword -> tuple of rule indexes

    def rule(self, rule_id: str) -> Rule:
        return next(r for r in self.rules if r.id == rule_id)


# ------------------------------------------------------------------ RE2 -> Python re


_DOT_BOUND = 1000


def translate_re2(pattern: str) -> str:
    """A Go RE2 pattern as Python `re` syntax.

    - Inline flags in mid-pattern (`p8e-(?i)[a-z0-9]{32}`) apply, in RE2, to the rest
      of the enclosing group; Python only accepts them at the very start, so they
      become a scoped group `(?i:...)` that is closed (and re-opened after each `|`)
      where the enclosing group ends.
    - `\\z` (end of text) is Python's `\\Z`.
    - `.*` and `.+` get a bound (`.{0,1000}`): RE2 runs in linear time, Python's
      engine backtracks, and a rule such as `\\bcurl\\b.*?...` would otherwise scan
      to the end of a long line once for every `curl` in it.
    """
    out: list[str] = []
    # One frame per open group: flags opened in mid-pattern inside it.
    frames: list[list[str]] = [[]]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            out.append("\\Z" if nxt == "z" else c + nxt)
            i += 2
            continue
        if c == "[":
            j = _class_end(pattern, i)
            out.append(pattern[i:j])
            i = j
            continue
        if c == "(":
            m = re.match(r"\(\?([a-zA-Z]*(?:-[a-zA-Z]+)?)\)", pattern[i:])
            if m:
                flags = m.group(1)
                if not out and len(frames) == 1 and not frames[0]:
                    out.append(m.group())  # global flags at the very start are fine
                else:
                    out.append(f"(?{flags}:")
                    frames[-1].append(flags)
                i += m.end()
                continue
            frames.append([])
            out.append(c)
            i += 1
            continue
        if c == ")":
            if len(frames) > 1:
                out.append(")" * len(frames.pop()))
            out.append(c)
            i += 1
            continue
        if c == "|" and frames[-1]:
            opened = frames[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
            i += 1
            continue
        if c == "." and i + 1 < n and pattern[i + 1] in "*+":
            out.append(f".{{{0 if pattern[i + 1] == '*' else 1},{_DOT_BOUND}}}")
            i += 2
            continue
        out.append(c)
        i += 1
    out.append(")" * sum(len(f) for f in frames))
    return "".join(out)


def _class_end(pattern: str, start: int) -> int:
    """Index after the character class that opens at `start`."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[" and pattern.startswith("[:", i):
            close = pattern.find(":]", i + 2)
            if close != -1:
                i = close + 2
                continue
        if c == "]":
            return i + 1
        i += 1
    return len(pattern)


def _compile(pattern: str) -> re.Pattern[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "possible nested set" in [\w .-/] and the like
        return re.compile(translate_re2(pattern))


# ------------------------------------------------------------------------- loading


def _stopword_finder(words: Sequence[str]) -> Any:
    if len(words) < 8:
        return None
    finder = ahocorasick.Automaton()
    for word in words:
        finder.add_word(word, word)
    finder.make_automaton()
    return finder


def _allowlist(data: dict[str, Any]) -> Allowlist:
    stopwords = tuple(str(w).lower() for w in data.get("stopwords", []))
    return Allowlist(
        stopword_finder=_stopword_finder(stopwords),
        stopwords=stopwords,
        regexes=tuple(_compile(str(r)) for r in data.get("regexes", [])),
        target=str(data.get("regexTarget", "secret")),
        all_of=str(data.get("condition", "OR")).upper() == "AND",
        has_paths=bool(data.get("paths") or data.get("commits")),
    )


_MULTILINE_HINTS = re.compile(r"\\s\\S|\\S\\s|\(\?s|\[\\r\\n\]|\\n|\\r")


_LAZY_PREFIX = re.compile(r"^(\(\?i\))?\[\\w\.-\]\{0,(\d+)\}\?")


def _load_rule(data: dict[str, Any], source: str) -> Rule:
    raw = str(data["regex"])
    regex = _compile(raw)
    search: re.Pattern[str] | None = None
    back = 0
    lazy = _LAZY_PREFIX.match(raw)
    if lazy and regex.groups:
        search = _compile((lazy.group(1) or "") + raw[lazy.end() :])
        back = int(lazy.group(2))
    keywords = tuple(str(k).lower() for k in data.get("keywords", []))
    if not keywords:
        raise ValueError("no keywords (every rule needs them for the prefilter)")
    group = int(data.get("secretGroup", 0))
    if group > regex.groups:
        raise ValueError(f"secretGroup {group} but the regex has {regex.groups} groups")
    return Rule(
        id=str(data["id"]),
        regex=regex,
        keywords=keywords,
        source=source,
        secret_group=group,
        entropy=float(data.get("entropy", 0.0)),
        allowlists=tuple(_allowlist(a) for a in data.get("allowlists", [])),
        multiline=bool(_MULTILINE_HINTS.search(str(data["regex"]))),
        context=bool(data.get("context", False)),
        path_only=bool(data.get("path")),
        search=search,
        back=back,
    )


def _rule_texts() -> Iterable[tuple[str, dict[str, Any]]]:
    folder = importlib.resources.files("aintern_ls.capture") / "secrets"
    for name in RULE_FILES:
        yield name, tomllib.loads(folder.joinpath(name).read_text(encoding="utf-8"))


def build_rules(configs: Iterable[tuple[str, dict[str, Any]]]) -> RuleSet:
    """Compile rule files (gitleaks' TOML shape); rules that can't be used are skipped."""
    rules: list[Rule] = []
    allowlists: list[Allowlist] = []
    skipped: list[Skipped] = []
    configs = list(configs)
    everywhere = {str(i) for _, c in configs for i in c.get("pathRulesEverywhere", [])}
    for source, config in configs:
        for key in ("allowlist", "allowlists"):
            found = config.get(key)
            for data in [found] if isinstance(found, dict) else found or []:
                allowlists.append(_allowlist(data))
        for data in config.get("rules", []):
            rule_id = str(data.get("id", "?"))
            if "regex" not in data:
                skipped.append(Skipped(rule_id, source, "no regex (matches file paths only)"))
                continue
            if data.get("path") and rule_id not in everywhere:
                skipped.append(Skipped(rule_id, source, "limited to some file names"))
                continue
            try:
                rules.append(_load_rule(data, source))
            except (re.error, ValueError, TypeError) as exc:
                skipped.append(Skipped(rule_id, source, str(exc)))
    for s in skipped:
        log.info("secret rule %s from %s skipped: %s", s.id, s.source, s.reason)
    automaton = ahocorasick.Automaton()
    by_keyword: dict[str, list[int]] = {}
    for index, rule in enumerate(rules):
        for keyword in rule.keywords:
            by_keyword.setdefault(keyword, []).append(index)
    for keyword, indexes in by_keyword.items():
        automaton.add_word(keyword, tuple(indexes))
    automaton.make_automaton()
    return RuleSet(tuple(rules), tuple(allowlists), tuple(skipped), automaton)


@functools.cache
def default_rules() -> RuleSet:
    """The packaged rules, compiled once per process."""
    return build_rules(_rule_texts())


# ----------------------------------------------------------------------- detecting


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


@attrs.frozen
class Finding:
    start: int
    end: int
    rule: Rule


def _windows(
    text: str, hits: Sequence[int], multiline: bool, keyword_len: int
) -> list[tuple[int, int]]:
    after = _AFTER_MULTILINE if multiline else _AFTER
    spans: list[tuple[int, int]] = []
    n = len(text)
    for pos in hits:
        start = max(pos - _BEFORE, 0)
        line_start = text.rfind("\n", 0, start) + 1
        if start - line_start <= _MAX_LINE_EXTENSION:
            start = line_start
        end = min(pos + keyword_len + after, n)
        line_end = text.find("\n", end)
        if line_end == -1:
            line_end = n
        if line_end - end <= _MAX_LINE_EXTENSION:
            end = line_end
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def _secret_span(rule: Rule, m: re.Match[str]) -> tuple[int, int] | None:
    if rule.secret_group:
        start, end = m.span(rule.secret_group)
        return (start, end) if end > start >= 0 else None
    for group in range(1, (m.re.groups or 0) + 1):
        start, end = m.span(group)
        if end > start >= 0:
            return start, end
    return m.span() if m.end() > m.start() else None


def _line_of(text: str, start: int, end: int) -> str:
    return text[text.rfind("\n", 0, start) + 1 : (text.find("\n", end) + 1 or len(text) + 1) - 1]


def find_secrets(text: str, rules: RuleSet | None = None) -> list[Finding]:
    """Every secret the rules find in `text` (overlapping findings included)."""
    ruleset = rules or default_rules()
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters change length when lowercased
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    hits: dict[int, list[int]] = {}
    lengths: dict[int, int] = {}
    for end, indexes in ruleset.automaton.iter(lowered):
        for index in indexes:
            hits.setdefault(index, []).append(end)
    if not hits:
        return []
    markers = [m.span() for m in MARKER_RE.finditer(text)] if MARKER_PREFIX in text else []
    findings: list[Finding] = []
    for index, ends in hits.items():
        rule = ruleset.rules[index]
        longest = max(len(k) for k in rule.keywords)
        lengths[index] = longest
        starts = [e - longest + 1 for e in ends]
        pattern = rule.search or rule.regex
        for w_start, w_end in _windows(text, starts, rule.multiline, longest):
            previous_end = w_start
            for m in pattern.finditer(text, w_start, w_end):
                match_start = m.start()
                if rule.back:  # the lazy [\w.-]{0,N}? prefix the search left out
                    limit = max(previous_end, match_start - rule.back)
                    while match_start > limit and _word_dot_dash(text[match_start - 1]):
                        match_start -= 1
                previous_end = m.end()
                span = _secret_span(rule, m)
                if span is None:
                    continue
                if (
                    span[1] - span[0] > 2
                    and text[span[0]] in "\"'`"
                    and text[span[1] - 1] == text[span[0]]
                ):
                    span = (span[0] + 1, span[1] - 1)  # keep the quotes around a value
                if markers and any(s < span[1] and span[0] < e for s, e in markers):
                    continue
                if _accepted(text, rule, ruleset, span, (match_start, m.end())):
                    findings.append(Finding(span[0], span[1], rule))
    return findings


def _word_dot_dash(c: str) -> bool:
    return c.isalnum() or c in "_.-"


def _accepted(
    text: str, rule: Rule, ruleset: RuleSet, span: tuple[int, int], match: tuple[int, int]
) -> bool:
    secret = text[span[0] : span[1]]
    if MARKER_PREFIX in secret:
        return False
    if rule.entropy:
        if shannon_entropy(secret) <= rule.entropy:
            return False
        if rule.generic and not any(c.isdigit() for c in secret):
            return False
    matched = text[match[0] : match[1]]
    line: str | None = None
    for allowlist in (*ruleset.allowlists, *rule.allowlists):
        if allowlist.target == "line" and line is None:
            line = _line_of(text, match[0], match[1])
        if allowlist.allows(secret, matched, line or ""):
            return False
    return True


# ----------------------------------------------------------------------- redacting


def fingerprint(secret: str) -> str:
    """Four hex digits of a keyed hash: stable within this process, not reversible."""
    return hashlib.blake2b(
        secret.encode("utf-8", "surrogatepass"), key=_KEY, digest_size=2
    ).hexdigest()


def marker(kind: str, secret: str) -> str:
    return f"[REDACTED:{kind}:{fingerprint(secret)}]"


def redact(text: str, rules: RuleSet | None = None) -> Redaction:
    """Replace the secrets in `text` with `[REDACTED:<kind>:<fp>]` markers; count them.

    Text that still holds escape sequences (captured with rendering off) is searched
    without them, so a token coloured in pieces (`grep --color`) is still found; the
    marker then replaces the token together with the escapes inside it.
    """
    if not text:
        return Redaction(text, 0)
    findings = find_secrets(text, rules)
    if "\x1b" in text:
        # Look without the escapes too (what is found there is mapped back); a finding
        # that has escapes inside it in the raw text is only trusted from there.
        findings = [f for f in findings if "\x1b" not in text[f.start : f.end]]
        plain, to_original = _without_escapes(text)
        for f in find_secrets(plain, rules):
            start, end = to_original(f.start), to_original(f.end - 1) + 1
            findings.append(Finding(start, end, f.rule))
    if not findings:
        return Redaction(text, 0)
    findings.sort(key=lambda f: (f.start, -f.end))
    # Overlapping findings become one marker over their union, named by the most
    # specific rule among them (a GitHub token beats the generic key=value rule).
    merged: list[tuple[int, int, Finding]] = []
    for f in findings:
        if merged and f.start < merged[-1][1]:
            start, end, best = merged[-1]
            if (f.rule.priority, f.end - f.start) > (best.rule.priority, best.end - best.start):
                best = f
            merged[-1] = (start, max(end, f.end), best)
        else:
            merged.append((f.start, f.end, f))
    parts: list[str] = []
    last = 0
    for start, end, best in merged:
        secret = text[start:end]
        label = marker(best.rule.id, secret)
        if "\x1b" in secret:
            # Keep the escapes that were inside the secret, so colours stay as they were;
            # the fingerprint is that of the secret without them.
            escapes = _ESCAPES.findall(secret)
            label = marker(best.rule.id, _ESCAPES.sub("", secret)) + "".join(escapes)
        parts.append(text[last:start])
        parts.append(label)
        last = end
    parts.append(text[last:])
    return Redaction("".join(parts), len(merged))


# CSI, OSC/DCS/SOS/PM/APC strings, other escapes (7-bit: decoded PTY text).
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]"
)


def _without_escapes(text: str) -> tuple[str, Any]:
    """`text` without escape sequences, and a map from its offsets to `text`'s."""
    pieces: list[str] = []
    plain_starts: list[int] = []
    original_starts: list[int] = []
    plain_length = 0
    last = 0
    for m in _ESCAPES.finditer(text):
        if m.start() > last:
            pieces.append(text[last : m.start()])
            plain_starts.append(plain_length)
            original_starts.append(last)
            plain_length += m.start() - last
        last = m.end()
    if last < len(text):
        pieces.append(text[last:])
        plain_starts.append(plain_length)
        original_starts.append(last)

    def to_original(offset: int) -> int:
        i = bisect.bisect_right(plain_starts, offset) - 1
        return original_starts[i] + offset - plain_starts[i]

    return "".join(pieces), to_original


def redact_text(text: str | None) -> str | None:
    """`text` with its secrets replaced (None stays None): for command lines and titles."""
    return None if text is None else redact(text).text


def redact_str(text: str) -> str:
    """`text` with its secrets replaced."""
    return redact(text).text


def redact_command(command: str | None) -> str | None:
    """A command line as an AI or a log may see it: passwords, tokens, keys replaced."""
    return redact_text(command)


def redact_value(value: Any) -> tuple[Any, int]:
    """A JSON-like value (dicts, lists, strings) with every string redacted, and the count.

    For results that leave the server in other shapes than a capture (tool results,
    notifications): keys are kept, only values are redacted.
    """
    if isinstance(value, str):
        found = redact(value)
        return found.text, found.count
    if isinstance(value, dict):
        total = 0
        out: dict[Any, Any] = {}
        for key, item in value.items():
            out[key], n = redact_value(item)
            total += n
        return out, total
    if isinstance(value, list | tuple):
        items = []
        total = 0
        for item in value:
            new, n = redact_value(item)
            items.append(new)
            total += n
        return (items if isinstance(value, list) else tuple(items)), total
    return value, 0


class LineRedactor:
    """Streamed output to short, redacted status lines (for `$/progress` messages).

    `feed(text)` takes the next piece of a command's output and returns its last
    complete, non-blank line, redacted and cut to `width` characters, or None when the
    piece completed no line. A line still being written is held back until its end
    arrives, so a token split across reads is redacted whole and never shown in part.
    """

    def __init__(self, width: int = 120, limit: int = 65536) -> None:
        self._width = width
        self._limit = limit
        self._partial = ""

    def feed(self, text: str) -> str | None:
        text = (self._partial + text).replace("\r\n", "\n").replace("\r", "\n")
        head, sep, self._partial = text.rpartition("\n")
        if len(self._partial) > self._limit:  # a line with no end: keep its tail only
            self._partial = self._partial[-self._limit :]
        if not sep:
            return None
        for line in reversed(head.split("\n")):
            if line.strip():
                return redact(line).text[: self._width]
        return None
