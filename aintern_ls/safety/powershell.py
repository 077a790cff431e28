"""The PowerShell front end: walks a tree-sitter-powershell tree and hands commands to rules.

Pipelines, script blocks (`ForEach-Object { … }`), sub-expressions and parenthesised
pipelines are all visited. The grammar rejects some valid PowerShell (`--`, `-First 10 A, B`),
so regions it cannot parse are judged token by token and still count; only text whose
quotes or brackets do not pair up is reported as a parse error (at least moderate).
"""

from __future__ import annotations

import re
import threading

import tree_sitter
import tree_sitter_powershell

from aintern_ls.safety import budget, dispatch
from aintern_ls.safety.bash import PARSES, Positions
from aintern_ls.safety.context import NO_STDIN, Info, Scope, Stdin
from aintern_ls.safety.levels import RiskLevel
from aintern_ls.safety.words import ORIGIN_NETWORK, ORIGIN_VARIABLE, Word, split_words, unquote

Node = tree_sitter.Node

_LANGUAGE = tree_sitter.Language(tree_sitter_powershell.language())
_PARSERS = threading.local()  # one Parser per thread, as in bash.py

_DOWNLOAD = re.compile(
    r"downloadstring|downloaddata|downloadfile|invoke-webrequest|invoke-restmethod|\biwr\b"
    r"|\birm\b|net\.webclient|start-bitstransfer|https?://",
    re.I,
)
_KNOWN_VARS = {
    "$home": "~",
    "$env:userprofile": "~",
    "$env:homepath": "~",
    "$env:systemroot": "C:\\Windows",
    "$env:windir": "C:\\Windows",
    "$env:systemdrive": "C:",
    "$env:programfiles": "C:\\Program Files",
    "$pwd": ".",
    "$true": "$true",
    "$false": "$false",
    "$null": "$null",
}
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
_SCRIPT_CREATE = re.compile(
    r"\[scriptblock\]::create|\.invokescript\(|invoke-command\s+-scriptblock\s*\(\s*\[scriptblock\]",
    re.I,
)
_IO_DELETE = re.compile(r"\[(system\.)?io\.(file|directory)\]::delete\s*\(", re.I)


def analyse(text: str, scope: Scope) -> None:
    data = text.encode("utf-8", "surrogatepass")
    PARSES.count += 1
    parser = getattr(_PARSERS, "powershell", None)
    if parser is None:
        parser = _PARSERS.powershell = tree_sitter.Parser(_LANGUAGE)
    tree = budget.parse(parser, data)
    walker = _Walker(scope, Positions(text, data))
    root = tree.root_node
    if root.has_error and not _balanced(text):
        scope.add(
            RiskLevel.MODERATE,
            "parse-error",
            "could not fully parse this command; check it by hand",
            0,
            len(text),
        )
    with budget.Source(data):
        walker.visit(root)
    low = text.lower()
    if _SCRIPT_CREATE.search(low):
        scope.add(
            RiskLevel.CRITICAL,
            "eval-dynamic",
            "builds and runs a script block at run time",
            0,
            len(text),
        )
    m = _IO_DELETE.search(text)
    if m:
        scope.add(RiskLevel.DANGEROUS, "delete", "deletes files through .NET", m.start(), m.end())
    if "frombase64string" in low and re.search(r"\biex\b|invoke-expression|::create", low):
        scope.add(
            RiskLevel.CRITICAL, "encoded-command", "decodes and runs hidden code", 0, len(text)
        )


class _Walker:
    __slots__ = ("pos", "scope")

    def __init__(self, scope: Scope, pos: Positions) -> None:
        self.scope = scope
        self.pos = pos

    def span(self, node: Node) -> tuple[int, int]:
        return self.pos.char(node.start_byte), self.pos.char(node.end_byte)

    def visit(self, node: Node) -> Info:
        t = node.type
        if t == "pipeline":
            return self.pipeline(node)
        if t == "ERROR":
            return self.error_region(node)
        if t == "comment":
            return Info()
        if "redirection" in t and t != "redirections":
            self.redirection(node)
            return Info()
        info = Info()
        for c in node.named_children:
            info = self.visit(c)
        return info

    def error_region(self, node: Node) -> Info:
        start, end = self.span(node)
        text = self.scope.source[start:end]
        info = Info()
        for stmt in re.finditer(r"[^;\n{}]+", text):
            stdin: Stdin = NO_STDIN
            info = Info()
            for i, m in enumerate(re.finditer(r"[^|]+", stmt.group(0))):
                if i:
                    stdin = dispatch.next_stdin(info, stdin)
                offset = start + stmt.start() + m.start()
                words = [
                    Word(_KNOWN_VARS[w.text.lower()], w.start, w.end)
                    if w.text.lower() in _KNOWN_VARS
                    else w
                    for w in split_words(m.group(0), offset, posix=False)
                ]
                if words and re.match(r"^[\w.\\/:-]+$", words[0].text):
                    info = dispatch.judge(words, self.scope, stdin)
                else:
                    info = Info()
        return info

    def pipeline(self, node: Node) -> Info:
        info = Info()
        for c in node.named_children:
            if c.type == "pipeline_chain":
                info = self.stages([s for s in c.named_children if s.type != "comment"])
            else:
                info = self.visit(c)
        return info

    def stages(self, stages: list[Node]) -> Info:
        info = Info()
        stdin: Stdin = NO_STDIN
        for i, stage in enumerate(stages):
            if i:
                stdin = dispatch.next_stdin(info, stdin)
            if stage.type == "command":
                info = self.command(stage, stdin)
            elif stage.type in ("pipeline", "pipeline_chain"):
                info = self.visit(stage)
            else:
                info = self.expression_stage(stage)
        return info

    def expression_stage(self, node: Node) -> Info:
        inner = _unwrap(node)
        if inner.type == "string_literal":
            word = self.string_word(inner)
            if not word.dynamic:
                return Info(name="string", output=word.text)
        self.visit(node)
        raw = _text(node)
        return Info(name="expression", network_fetch=bool(_DOWNLOAD.search(raw)))

    def command(self, node: Node, stdin: Stdin) -> Info:
        words: list[Word] = []
        for c in node.named_children:
            t = c.type
            if t == "command_name":
                s, e = self.span(c)
                words.append(Word(unquote(_text(c), posix=False), s, e))
            elif t == "command_name_expr":
                word = self.element(c)
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
                words.append(word)
            elif t == "command_elements":
                for el in c.named_children:
                    if el.type in ("command_argument_sep", "comment"):
                        continue
                    if "redirection" in el.type:
                        self.redirection(el)
                        continue
                    words.append(self.element(el))
            elif t == "command_invokation_operator":
                continue
            else:
                self.visit(c)
        if not words:
            return Info()
        return dispatch.judge(words, self.scope, stdin)

    def redirection(self, node: Node) -> None:
        raw = _text(node)
        target = raw.lstrip("0123456789*>&| ").strip()
        if (
            target
            and target.lower() not in ("$null", "1", "2")
            and not raw.strip().startswith("2>&1")
        ):
            s, e = self.span(node)
            self.scope.add(RiskLevel.MODERATE, "write", f"writes to {target}", s, e)

    def element(self, node: Node) -> Word:
        s, e = self.span(node)
        t = node.type
        raw = _text(node)
        if t in ("command_parameter", "generic_token"):
            return Word(unquote(raw, posix=False), s, e, glob=any(c in "*?" for c in raw))
        if raw.startswith("$") and re.fullmatch(r"\$(env:)?\w+[\\/][^\s$()]*", raw):
            # `$HOME\*`, `$env:SystemDrive\`: a known folder followed by a path.
            var = re.match(r"\$(env:)?\w+", raw)
            known = _KNOWN_VARS.get(var.group(0).lower()) if var is not None else None
            if known is not None and var is not None:
                return Word(known + raw[var.end() :], s, e, glob=any(c in "*?" for c in raw))
        inner = _unwrap(node)
        if inner.type in ("command_name", "generic_token"):
            return Word(unquote(_text(inner), posix=False), s, e)
        if inner.type == "string_literal":
            w = self.string_word(inner)
            return Word(w.text, s, e, w.dynamic, False, w.origin)
        if inner.type == "variable":
            known = _KNOWN_VARS.get(raw.lower())
            if known is not None:
                return Word(known, s, e)
            return Word(raw, s, e, True, False, ORIGIN_VARIABLE)
        self.visit(node)
        origin = ORIGIN_NETWORK if _DOWNLOAD.search(raw) else ORIGIN_VARIABLE
        return Word(raw, s, e, True, False, origin)

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

        def sub(m: re.Match[str]) -> str:
            return _KNOWN_VARS.get(m.group(0).lower(), "\x00")

        expanded = re.sub(r"\$(env:)?\w+", sub, body.replace("`", ""))
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


def _balanced(text: str) -> bool:
    """Quotes and brackets pair up: the grammar, not the command, is at fault for an error."""
    stack: list[str] = []
    pairs = {")": "(", "}": "{", "]": "["}
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "`" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "`":
            i += 1
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif c in "({[":
            stack.append(c)
        elif c in ")}]" and (not stack or stack.pop() != pairs[c]):
            return False
        i += 1
    return not quote and not stack


def _unwrap(node: Node) -> Node:
    while node.type in _WRAPPERS and node.named_child_count == 1:
        child = node.named_children[0]
        node = child
    if node.type == "string_literal" or node.named_child_count != 1:
        return node
    if node.type in ("expandable_string_literal", "verbatim_string_characters"):
        return node
    return node


def _text(node: Node) -> str:
    return budget.node_bytes(node).decode("utf-8", "replace")
