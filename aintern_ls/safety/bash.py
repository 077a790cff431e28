"""The POSIX-shell front end: walks a tree-sitter-bash tree and hands simple commands to rules.

Everything that runs is visited: lists, pipelines, subshells, `$(…)`, backticks, `<(…)`,
redirects, loop and `if` bodies, function bodies, heredocs fed to shells. Words are
evaluated statically where possible (quotes, backslashes, `$'…'`, variables assigned
earlier in the script, `${IFS}`), and marked dynamic where not.
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
import shlex
import threading

import attrs
import tree_sitter
import tree_sitter_bash

from aintern_ls.safety import budget, dispatch, inline, persist, shape, system, wrappers
from aintern_ls.safety.context import (
    NO_STDIN,
    STDIN_FILE,
    STDIN_NETWORK,
    STDIN_OTHER,
    STDIN_STATIC,
    Info,
    Scope,
    Stdin,
    VersionedDict,
)
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.network import SOCKET_OPEN
from aintern_ls.safety.packages import EVERY_PACKAGE
from aintern_ls.safety.paths import classify_path, is_log_dir, is_secret, write_target
from aintern_ls.safety.registry import (
    ALIAS_PREFIX,
    BREAKPOINT_DEBUGGERS,
    COMMAND_VARS,
    COMPILER_FLAG_VARS,
    CONFIG_FILE_VARS,
    ENV_SETUP,
    FUNC_PREFIX,
    GLOBAL_ALIASES,
    HOOK_VARS,
    INTERPRETER_OPTION_VARS,
    OPTION_VARS,
    PATH_FRONT,
    PERL_CODE_VARS,
    PROMPT_VARS,
    SHELL_BUILTINS,
    SHELLS,
    SUFFIX_ALIASES,
    VIM_INIT_VARS,
    WRITTEN_IN,
    build_program_findings,
    compiler_plugin_findings,
    interpreter_option_findings,
    is_build_program_var,
    is_code_load_var,
    jvm_event_findings,
    risky_path_front,
    unreadable_program,
)
from aintern_ls.safety.words import (
    GLOB_CHARS,
    ORIGIN_NETWORK,
    ORIGIN_SUBST,
    ORIGIN_VARIABLE,
    Word,
    _new_word,
    ansi_c,
    command_name,
    eval_echo_text,
    fish_string,
    printf_output,
    split_words,
    starts_shell,
    unquote,
)

Node = tree_sitter.Node

_LANGUAGE = tree_sitter.Language(tree_sitter_bash.language())
# A tree-sitter Parser is not safe to share between threads (the server runs handlers on a
# pool), so each thread gets its own; the Language is shared.
_PARSERS = threading.local()


# The user's own shell startup files: a shell already runs them, so naming one in BASH_ENV
# or ENV (`BASH_ENV=~/.bashrc bash -c …`, for aliases) adds no unknown code (n11u).
# (f18) Variables naming a file of code an interpreter runs when it starts.
_CODE_STARTUP = {
    "PYTHONSTARTUP": "python",
    "R_PROFILE_USER": "r",
    "R_PROFILE": "r",
    "IRBRC": "ruby",
}
_OWN_STARTUP = frozenset(
    {".bashrc", ".bash_profile", ".profile", ".zshrc", ".zshenv", ".kshrc", ".mkshrc"}
    | {"profile", "bash.bashrc", "bashrc", "zshrc", "zshenv", "environment"}
)


class ParseCounter:
    """How many times a grammar actually ran (the cache test watches this)."""

    def __init__(self) -> None:
        self.count = 0


PARSES = ParseCounter()

_MAX_CALL_DEPTH = 16  # calls of this script's functions followed inside each other
_SPLIT = "\x01"  # marks where unquoted expansion results are split into words
_STATEMENTS_SEQ = frozenset(
    {"program", "compound_statement", "subshell", "do_group", "else_clause", "elif_clause"}
)
_WORDISH = frozenset(
    {
        "word",
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "number",
        "arithmetic_expansion",
        "brace_expression",
        "string_content",
    }
)
_TLS_OFF = {
    "NODE_TLS_REJECT_UNAUTHORIZED": ("0",),
    "PYTHONHTTPSVERIFY": ("0",),
    "GIT_SSL_NO_VERIFY": ("1", "true"),
    "CURL_CA_BUNDLE": ("",),
    "REQUESTS_CA_BUNDLE": ("",),
}
_HOOK_VARS = HOOK_VARS | frozenset(_TLS_OFF) | {"LD_AUDIT"}

_COMMAND_VARS = COMMAND_VARS
# A sed/perl edit of a rebase todo list that turns `pick` lines into `drop` (or deletes them).
_TODO_DROP = re.compile(
    r"\b(?:sed|perl|gsed)\b.*(?:s(.)\^?\s*(?:pick|p)\b.*?\1\s*(?:drop|d)\b|/\^?(?:pick|p)\b[^/]*/\s*d\b"
    r"|['\"\s]\$?\d*,?\$?\d*d['\"]?\s*$)",
    re.S,
)
_NETCATS = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "openssl"})
# Variables through which git takes `-c`-style settings from the environment (gen10).
_GIT_CONFIG_ENV = frozenset({"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"})


# GIT_CONFIG_KEY_<n> (a setting's name given through the environment), and how many such
# settings are judged one by one (more is critical: not read).
_GIT_CONFIG_KEY = re.compile(r"GIT_CONFIG_KEY_(\d{1,6})")
_GIT_CONFIG_MAX = 200
_CALLABLE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_GIT_OWN_CONFIG = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\})/(?:\.gitconfig|\.config/git/config)$|^/etc/gitconfig$"
)


_KEYED = re.compile(r"\[([^\]]{0,40})\]=")


def _keyed_elements(items: list[Word]) -> list[Word]:
    """(h20) `arr=([0]=rm [1]=-rf [2]=/)`: a keyed array literal's values in index order (an
    element without a key takes the next index; associative keys keep the written order),
    so `${arr[@]}` splits into the words bash runs."""
    placed: dict[int, Word] = {}
    named: list[Word] = []
    index = 0
    for w in items:
        m = _KEYED.match(w.text)
        if m is None:
            placed[index] = w
            index += 1
            continue
        value = w._replace(text=w.text[m.end() :])
        key = m.group(1).strip()
        if key.isdigit() and len(key) < 7:
            index = int(key)
            placed[index] = value
            index += 1
        else:
            named.append(value)
    return [placed[k] for k in sorted(placed)] + named


_ASSOC_KEY = re.compile(r"[\w.:/-]{1,40}")


def _named_keys(items: list[Word]) -> list[tuple[str, Word]]:
    """(u22) `declare -A t=([k]=/etc/passwd)`: the elements with a key that is not an index,
    as (key, value), for `${t[k]}`; values only known at run time are left out."""
    out: list[tuple[str, Word]] = []
    for w in items[:64]:
        m = _KEYED.match(w.text)
        if m is None or w.dynamic:
            continue
        key = m.group(1).strip().strip("'\"")
        if not key.isdigit() and _ASSOC_KEY.fullmatch(key):
            out.append((key, w._replace(text=w.text[m.end() :])))
    return out


def _count(text: str) -> int:
    return int(text) if text.strip().isdigit() else 0


_KNOWN_VARS = {
    "HOME": "~",
    # Git Bash / MSYS2 / Cygwin pass the Windows home on as USERPROFILE (safety-tgt9)
    "USERPROFILE": "~",
    # (n20u, review 19 finding 10) and the Windows system folders, as paths._ENV_FOLDERS
    # knows them (`rm -rf "$PROGRAMFILES"` in Git Bash wipes C:\Program Files)
    "PROGRAMFILES": "/c/Program Files",
    "PROGRAMW6432": "/c/Program Files",
    "ProgramW6432": "/c/Program Files",
    "COMMONPROGRAMFILES": "/c/Program Files/Common Files",
    "COMMONPROGRAMW6432": "/c/Program Files/Common Files",
    "CommonProgramW6432": "/c/Program Files/Common Files",
    "SYSTEMROOT": "/c/Windows",
    "WINDIR": "/c/Windows",
    "PROGRAMDATA": "/c/ProgramData",
    "ALLUSERSPROFILE": "/c/ProgramData",
    "PWD": ".",
    "IFS": " ",
    "USER": "user",
    "SHELL": "/bin/bash",
    # Every PATH starts at the root: `${PATH:0:1}` spells `/` (Bashfuscator).
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "BASH": "/bin/bash",
    "0": "bash",
    "ZSH_NAME": "zsh",
}
# The name must start at a word boundary: `(\S+)` tried at every offset of one long word is
# quadratic (issue 13: 40 KB took 11.7 s).
_FORK_BOMB = re.compile(r"(?<![^\s;&|(){}])([^\s;&|(){}]+)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&")


def parse(text: bytes) -> tree_sitter.Tree:
    PARSES.count += 1
    parser = getattr(_PARSERS, "bash", None)
    if parser is None:
        parser = _PARSERS.bash = tree_sitter.Parser(_LANGUAGE)
    return budget.parse(parser, text)


_WIDE = re.compile(r"[^\x00-\x7f]")  # a character of more than one byte in UTF-8


class Positions:
    """Byte offsets (tree-sitter) to character offsets (our spans)."""

    __slots__ = ("_ascii", "_extra", "_length", "_size", "_wide")

    def __init__(self, text: str, data: bytes) -> None:
        self._ascii = len(text) == len(data)
        self._size = len(data)
        self._length = len(text)
        # (Only the characters of more than one byte are listed, each with its byte offset
        # and the extra bytes up to and including it: a text is mostly ASCII, and a loop
        # over every character was a fifth of a real script's analysis.)
        self._wide: list[int] = []
        self._extra: list[int] = []
        if not self._ascii:
            extra = 0
            for m in _WIDE.finditer(text):
                ch = m.group()
                self._wide.append(m.start() + extra)
                extra += len(ch.encode("utf-8", "surrogatepass")) - 1
                self._extra.append(extra)

    def char(self, byte: int) -> int:
        if self._ascii:
            return byte
        if byte >= self._size:
            return self._length
        k = bisect.bisect_left(self._wide, byte) - 1  # the last wide character before `byte`
        if k < 0:
            return byte
        extra = self._extra[k]
        start = self._wide[k]
        before = self._extra[k - 1] if k else 0
        if byte < start + 1 + extra - before:  # inside it: its own index
            return start - before
        return byte - extra


def analyse(text: str, scope: Scope) -> None:
    """Walk `text` as a bash script, recording findings on `scope`."""
    if "function" in text and "end" in text and "\n" in text:
        text = _fish_functions(text)  # (n14u) fish's `function NAME … end`
    if "end" in text and _FISH_END_SEGMENT.search(text) is not None:
        text = _fish_blocks(text)  # (n18u) fish's `for … ; …; end`, `begin; …; end`
    if ("*(" in text or "?(" in text or "](" in text) and _ZSH_QUALIFIER.search(text):
        # zsh's glob qualifiers (`*(.)`, `**/*(.om[1,10])`, `*(/N)`) only narrow what the
        # glob matches; the grammar cannot read them, so the parser sees blanks there (same
        # length) (n14u). Qualifiers that run code (`e:…:`, `+func`) are not of this form.
        text = _ZSH_QUALIFIER.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - 1), text)
    data = text.encode("utf-8", "surrogatepass")
    if "<<" in text and "\n\\" in text:
        data = _heredoc_backslash_workaround(data)
    if " / ]" in text or " ~ ]" in text:
        # The grammar reads a lone `/` in `[ -d / ]` as division (and a lone `~` in `[ -d ~
        # ] && cd ~ && …` as bitwise not, b12) and loses the test and the commands after
        # it; a test only reads, so the parser may see `.` there (same length).
        data = _TEST_SLASH.sub(lambda m: m.group(1) + b".", data)
    if "0<" in text:
        # The grammar reads the `0` of `sh 0<&2` as an argument (a script named "0"); `0<`
        # is plain `<`, so the parser may see a blank there (same length).
        data = _STDIN_FD.sub(b" ", data)
    if "$((" in text:
        # `$(( env FOO=1 rm -rf / ))` is no arithmetic: bash reads it as `$( (…) )`, a
        # subshell in a command substitution. The parser may see that (same length).
        data = _FAKE_ARITHMETIC.sub(_as_subshell, data)
    toggles = "~}" in text and _CASE_TOGGLE.search(data) is not None
    if toggles:
        # The grammar cannot read `${x~~}`/`${x~}` (case toggling); the parser may see
        # `${x,,}` there (same length), and the expansion is read from the text.
        data = _CASE_TOGGLE.sub(lambda m: m.group(1) + b"," * len(m.group(2)) + b"}", data)
    zsh_eval: list[tuple[str, int, int]] = []
    if "${(" in text:
        data, zsh_eval = _zsh_flags(data)
    if "${" in text and ";" in text and _EXPANSION_SEMICOLON.search(data) is not None:
        # (n19u) The grammar cannot read a `;` inside `${X:+…;…}` (the PROMPT_COMMAND append
        # idiom `"${PROMPT_COMMAND:+$PROMPT_COMMAND; }cmd"`); the parser may see a newline
        # there (same length), which separates commands as `;` does when the text runs.
        data = _EXPANSION_SEMICOLON.sub(lambda m: m.group(0).replace(b";", b"\n"), data)
    tree = parse(data)
    # (s21: `!` and `()` gate the two searches below, which need them: 5-15 µs each per text)
    if "!" in text and _NEGATED_COMPOUND.search(text):
        # The grammar cannot read `! for …`/`! case …`; negation changes no command, so
        # read the text without it (same length: spans stay right).
        text = _NEGATED_COMPOUND.sub(
            lambda m: m.group(1) + " " * len(m.group(2)) + m.group(3), text
        )
        data = text.encode("utf-8", "surrogatepass")
        tree = parse(data)
    if "(" in text and (
        _FISH_SUBST.search(data) is not None
        or (tree.root_node.has_error and _FISH_HEAD_SUBST.search(data, 0, 20000) is not None)
    ):
        # (n18u) fish's `(cmd)` in an argument is a command substitution, which bash's
        # grammar cannot read (`rm -rf (echo /)`): the parser may see backticks there (same
        # length), when that makes the whole text parse; strings and heredoc bodies stay.
        fished = _fish_substitutions(data, tree.root_node)
        if fished is not None:
            data, tree = fished
    walker = _Walker(scope, Positions(text, data))
    walker.toggles = toggles
    root = tree.root_node
    with budget.Source(data):
        if root.has_error:
            walker.report_error(root)
        walker.sequence(root)
        for name, start, end in zsh_eval[:8]:
            # (n19u) zsh's `${(e)NAME}` expands the value's own substitutions: judged as the
            # text they run; a value not known here is evaluated unseen
            at, to = walker.pos.char(start), walker.pos.char(end)
            held = scope.env.get(name)
            if held is not None:
                walker._expanded_text(Word(held, at, to))
            else:
                reason = f"zsh's (e) flag evaluates ${name}, whose value is only known at run time"
                scope.add(RiskLevel.CRITICAL, "eval-dynamic", reason, at, to)
    data_spans: list[tuple[int, int]] | None = None
    if "," in text and "{" in text and _BRACE_COMMAND.search(text) is not None:
        # (the data spans, a walk of every node, only when some `{a,b}` may need them)
        data_spans = _data_spans(root, walker.pos)
        _brace_commands(text, scope, data_spans)
    m = _FORK_BOMB.search(text) if "()" in text else None
    if m is not None and data_spans is None:
        data_spans = _data_spans(root, walker.pos)
    if m is not None and not any(a <= m.start() < b for a, b in data_spans or ()):
        # (in a string, a comment or a heredoc body it is text: a body fed to a shell
        # is read again as a script of its own, and judged there)
        scope.add(
            RiskLevel.BLOCKED,
            "fork-bomb",
            "a fork bomb: exhausts the machine's processes",
            m.start(),
            len(text.rstrip()),
        )


# fish's command substitution: `(cmd …)` holding no parenthesis, glued to a word or after
# blanks that follow an argument (not a keyword or an operator: bash's subshells, arrays,
# extglobs, function headers `f ()` and `$(`/`<(` stay as they are).
# (sa22) The `(` comes first and the look-behinds after it (they see it too): a pattern that
# starts with a literal is searched for that byte at memory speed, where one that starts
# with a look-behind tried both at every position (12 us for an ordinary 90-byte command,
# searched in every bash text holding a `(`; now 1.3 us). Same matches, spans and groups.
_FISH_SUBST = re.compile(
    rb"\((?:(?<=[\w./~:'\"-]\()|(?<=[\w./~:'\"-][ \t]\())([^()\n`]*[^()\n`\s][^()\n`]*)\)"
)
# (n19u) fish's `(cmd) ARGS` in the command position: `(status fish-path) -c …` runs what
# the substitution prints (bash reads a subshell followed by words: a syntax error).
_FISH_HEAD_SUBST = re.compile(rb"(?m)(?:^|(?<=[;&|]))[ \t]*(\(([^()\n`]+)\))(?=[ \t]+[^\s;&|)#])")
# (n19u) zsh's parameter flags `${(U)x}`, `${(s:,:)x}`, `${(e)x}` before a plain name.
_ZSH_FLAGS = re.compile(rb"\$\{\(([^()\n{}]{1,24})\)([A-Za-z_]\w{0,63})\}")


def _zsh_flags(data: bytes) -> tuple[bytes, list[tuple[str, int, int]]]:
    """`data` with zsh's `${(FLAGS)NAME}` as `${NAME:000}` (the whole value, same length),
    which bash's grammar reads, and the (name, start, end) of each one whose flags hold
    `e` (the value's own `$(…)` and `${…}` are expanded: evaluation)."""
    evaluated: list[tuple[str, int, int]] = []

    def sub(m: re.Match[bytes]) -> bytes:
        flags, name = m.group(1), m.group(2)
        if b"e" in flags and b":" not in flags:
            evaluated.append((name.decode(), m.start(), m.end()))
        return b"${" + name + b":" + b"0" * (len(flags) + 1) + b"}"

    return _ZSH_FLAGS.sub(sub, data), evaluated


# (n19u) A variable named like a program's options (JAVA_OPTIONS, LEIN_JVM_OPTS, JRUBY_OPTS)
_OPTIONS_NAME = re.compile(r"(?i)(?:OPTS|OPTIONS|ARGS|FLAGS)\Z")
_EXPANSION_SEMICOLON = re.compile(
    rb'\$\{\w+:?[-+=?](?:[^{}"\n;]|\$\{[^{}"\n]*\})*;(?:[^{}"\n]|\$\{[^{}"\n]*\})*\}'
)
# (n19u) PROMPT_COMMAND's own value in a new value (`"$PROMPT_COMMAND; cmd"`, the append
# idiom `"${PROMPT_COMMAND:+$PROMPT_COMMAND; }cmd"`): what was there before, not new code.
_PROMPT_SELF = re.compile(
    r"\$\{PROMPT_COMMAND(?:\[[@*0-9]\])?(?:[:+\-=?#%/][^{}]*(?:\$\{[^{}]*\}[^{}]*)*)?\}"
    r"|\$PROMPT_COMMAND\b"
)
_FISH_NOT_AFTER = frozenset(
    {b"if", b"then", b"else", b"elif", b"while", b"until", b"do", b"time", b"function"}
)


def _path_to(root: Node, at: int) -> list[Node]:
    """The nodes from `root` down to the deepest one holding byte `at`."""
    deepest = root.descendant_for_byte_range(at, at + 1)
    path = [root]
    node = root
    while deepest is not None and node != deepest and len(path) < 512:
        child = node.child_with_descendant(deepest)
        if child is None or child == node:
            break
        path.append(child)
        node = child
    return path


def _fish_substitutions(data: bytes, root: Node) -> tuple[bytes, tree_sitter.Tree] | None:
    """`data` with fish's `(cmd)` substitutions as backticks, parsed, or None when there is
    none outside strings and heredoc bodies or bash still cannot read the result."""
    if data.count(b"(") > 128 or len(_FISH_SUBST.findall(data, 0, 20000)) > 16:
        # (a fence of fish's has a few; more, or deep nesting, is no fish, and costs a
        # walk and a parse: 'nested iex strings' judged as bash)
        return None
    # (r18) only the nodes on the path to each `(`, not a walk of the whole tree: whether
    # it is in a string/heredoc, or a subshell word to a command (bash's misreading)
    misread = root.has_error  # (a `(…)` argument is an error, or a subshell word to it)
    out = bytearray(data)
    for m in _FISH_SUBST.finditer(data):
        at = m.start()
        if m.group(1).lstrip().startswith(b"-"):
            continue  # (r18) `\x5c( -name … )`: a command never starts with an option
        path = _path_to(root, at)
        if any(n.type in _DATA_NODES for n in path):
            continue
        if any(a.type == "command" and b.type == "subshell" for a, b in itertools.pairwise(path)):
            misread = True
        before = data[data.rfind(b"\n", 0, at) + 1 : at].split()
        if (before and before[-1] in _FISH_NOT_AFTER) or b"case" in before:
            continue
        out[at] = out[m.end() - 1] = 0x60  # a backtick
    if misread:
        for m in _FISH_HEAD_SUBST.finditer(data, 0, 20000):
            at = m.start(1)
            if not m.group(2).strip() or m.group(2).lstrip().startswith(b"-"):
                continue
            if any(n.type in _DATA_NODES for n in _path_to(root, at)):
                continue
            out[at] = out[m.end(1) - 1] = 0x60
    if not misread:
        return None
    if out == data:
        return None
    fished = bytes(out)
    tree = parse(fished)
    return None if tree.root_node.has_error else (fished, tree)


_TAR_RUNS = ("--to-command=", "--checkpoint-action=exec=", "--info-script=", "--new-volume-script=")


_GO_FLAG = re.compile(r"--?[a-z][a-z0-9]*(?:=.*)?\Z")
_GO_BOOL = frozenset(
    [
        "-v",
        "-x",
        "-a",
        "-n",
        "-race",
        "-msan",
        "-asan",
        "-trimpath",
        "-work",
        "-short",
        "-cover",
        "-json",
    ]
)


def _go_intent(parts: list[str]) -> list[str]:
    """(n19u) GOFLAGS split as go splits it, plus `-exec=`/`-toolexec=` whose command was
    written unquoted (`-exec=rm -rf ~;`): the words up to the next go flag (`-x=…` or a
    known switch) read as its command too."""
    out = list(parts)
    for k, p in enumerate(parts):
        if p.lstrip("-").startswith(("exec=", "toolexec=")) and k + 1 < len(parts):
            tail = list(
                itertools.takewhile(
                    lambda t: t not in _GO_BOOL and not ("=" in t and _GO_FLAG.match(t)),
                    parts[k + 1 :],
                )
            )
            if tail:
                out.append(" ".join([p, *tail]))
    return out


_TERRAFORMS = frozenset({"terraform", "tofu", "opentofu"})


def _tar_intent(parts: list[str], runs: tuple[str, ...] = _TAR_RUNS, opt: str = "--") -> list[str]:
    """TAR_OPTIONS split as tar splits it, plus (n18u) a command-running option whose
    command was written unquoted (`--to-command=rm -rf ~`): the words up to the next long
    option read as its command too, as whoever wrote it meant."""
    out = list(parts)
    for k, p in enumerate(parts):
        if p.startswith(runs) and k + 1 < len(parts) and not parts[k + 1].startswith(opt):
            tail = list(itertools.takewhile(lambda t: not t.startswith(opt), parts[k + 1 :]))
            out.append(" ".join([p, *tail]))
    return out


_ZSH_QUALIFIER = re.compile(
    r"([*?\]])\((?:[./@=p*%^-]|[NDnTF]|[oO][nLmacd]|[Lmac][kmpKMPwhsd]?[-+]?\d+|\[\d+(?:,\d+)?\])+\)"
    r"(?=[\s;|&)]|\Z)"
)
_ECHO_N = re.compile(r"\s*echo\s+-[a-zA-Z]*n")  # `echo -n`, `-ne`: no newline added
_PRINTERS = frozenset({"echo", "printf", "print", "cat", "base64", "xxd", "rev", "tr"})
# The folders a PATH normally holds (a program found there is the system's).
_SYSTEM_PATH = frozenset(
    [
        "/usr/local/sbin",
        "/usr/local/bin",
        "/usr/sbin",
        "/usr/bin",
        "/sbin",
        "/bin",
        "/opt/homebrew/bin",
        "/snap/bin",
    ]
)
# fish: `function NAME [--description …]` on a line of its own, its body, `end`; blocks
# inside it (if/for/while/switch/begin) end with `end` too.
_FISH_HEADER = re.compile(r"\A([ \t]*)function[ \t]+([\w.:@+-]+)((?:[ \t]+-[^\n{(]*)?)[ \t]*\Z")
_FISH_OPENS = re.compile(r"\A[ \t]*(?:if|for|while|switch|begin|function)\b")
_FISH_BLOCK = re.compile(r"\A([ \t]*)(else if|if|while|for|switch|begin)\b([^\n]*)\Z")
_FISH_END = re.compile(r"\A([ \t]*)end[ \t]*(?:[;#].*)?\Z")
_FISH_ARGV = re.compile(r"\$argv\[([1-9])\]|\$argv\b")


# (n18u) a fish block's `end` as a statement of its own (after `;` or on its own line)
_FISH_END_SEGMENT = re.compile(r"(?:^|[;\n])[ \t]*end[ \t]*(?:[;\n#]|\Z)")
_FISH_SEGMENT = re.compile(r"[^;\n'\"]*(?:(?:'[^']*'|\"(?:[^\"\\]|\\.)*\")[^;\n'\"]*)*")
_BASH_BLOCK_WORDS = re.compile(r"(?:^|[;\n&|]|\s)(?:do|done|then|fi|esac)(?:\s|[;\n]|\Z)")


def _fish_items(items: str) -> str | None:
    """(r18) a fish `for` loop's items without their quotes (`"$HOME" '/etc'`: fish's usual
    style), or None when a quote holds what a double-quoted bash value cannot."""
    items = re.sub(r"'([^'\"$`\\]*)'", r"\1", items)
    items = re.sub(r'"([^"\'`\\]*)"', r"\1", items)
    return None if re.search(r"[\"'`\\]", items) else items


def _fish_blocks(text: str) -> str:
    """fish's blocks outside functions written as bash groups, every character in its place
    (n18u): `for X in ITEMS` becomes `{ X="ITEMS"` (padded; the body sees every item, as
    for fish functions above), `begin`/`if COND`/`while COND`/`switch …` open a group whose
    condition still runs, `else`/`case …` fall away and `end` is `}`. Text that is bash
    (a do/then/fi/esac) or whose blocks do not balance is returned as it is."""
    if "<<" in text or _BASH_BLOCK_WORDS.search(text) is not None:
        return text  # (a heredoc's body may be another language's `if … end`)
    out = list(text)
    depth = 0
    changed = False
    for m in _FISH_SEGMENT.finditer(text):
        seg = m.group(0)
        if not seg.strip():
            continue
        at = m.start()
        lead = len(seg) - len(seg.lstrip(" \t"))
        body = seg.strip(" \t")
        new: str | None = None
        loop = re.fullmatch(r"for\s+([A-Za-z_]\w*)\s+in\s+([^\n]*?)", body)
        items = _fish_items(loop.group(2)) if loop is not None else None
        if loop is not None and items is not None:
            new, depth = f'{{ {loop.group(1)}="{items}"', depth + 1
            subst = re.sub(r"(^|\s)\((?=[^()]*\))", r"\1$(", items)
            if subst != items and len(new) + len(subst) - len(items) <= len(body):
                # (u22) `for f in (ls -A)`: fish's command substitution as the items
                new = f'{{ {loop.group(1)}="{subst}"'
        elif (b := re.fullmatch(r"(if|while|else if|begin|switch)\b(.*)", body, re.S)) is not None:
            keep = b.group(2) if b.group(1) in ("if", "while", "else if") else ""
            new = "{" + " " * (len(body) - 1 - len(keep)) + keep
            depth += b.group(1) != "else if"
            if b.group(1) == "else if":
                new = " " * (len(body) - len(keep)) + keep
        elif body == "end" or re.fullmatch(r"end\s*#.*", body):
            if depth == 0:
                return text  # (an `end` that closes nothing: not fish's)
            new, depth = "}", depth - 1
        elif body == "else" or re.fullmatch(r"case\b.*", body):
            new = ""
        if new is None:
            continue
        new = new + " " * (len(body) - len(new))
        out[at + lead : at + lead + len(body)] = list(new)
        changed = True
    if not changed or depth != 0:
        return text
    return "".join(out)


def _fish_functions(text: str) -> str:
    """fish's functions written as bash, every character in its place (n14u): the header
    `function NAME …` becomes `NAME() {` (padded), its `end` a `}`, `$argv` `${@#}` and
    `$argv[N]` `${N:-""}` (the same lengths), so a later `NAME /usr` is a call bash's
    walk follows with its arguments. Text with no such header is returned as it is."""
    lines = text.split("\n")
    changed = False
    i = 0
    while i < len(lines):
        m = _FISH_HEADER.match(lines[i])
        if m is None or (i + 1 < len(lines) and lines[i + 1].lstrip().startswith(("{", "("))):
            i += 1
            continue
        depth, j = 1, i + 1
        while j < len(lines):
            if _FISH_END.match(lines[j]):
                depth -= 1
                if depth == 0:
                    break
            elif _FISH_OPENS.match(lines[j]):
                depth += 1
            j += 1
        if j >= len(lines):
            break
        head = f"{m.group(1)}{m.group(2)}() {{"
        lines[i] = head + " " * (len(lines[i]) - len(head))
        e = _FISH_END.match(lines[j])
        assert e is not None
        lines[j] = e.group(1) + "}" + " " * (len(lines[j]) - len(e.group(1)) - 1)
        for k in range(i + 1, j):
            if "$argv" in lines[k]:
                lines[k] = _FISH_ARGV.sub(
                    lambda a: f'${{{a.group(1)}:-""}}' if a.group(1) else "${@#}", lines[k]
                )
            # blocks inside: `if X`/`while X`/`begin`/`for …`/`switch …` open a group whose
            # commands (the condition too) run, `else`/`case …` lines fall away, `end`
            # closes it: every command the body may run is seen (same lengths)
            if (b := _FISH_BLOCK.match(lines[k])) is not None:
                keep = b.group(3) if b.group(2) in ("if", "while", "else if") else ""
                head = b.group(1) + "{"
                loop = re.fullmatch(r"\s+([A-Za-z_]\w*)\s+in\s+([^\"]*?)\s*", b.group(3))
                if b.group(2) == "for" and loop is not None:
                    # `for f in $argv` -> `{ f="$argv"`: the loop variable holds the items
                    head += f' {loop.group(1)}="{loop.group(2)}"'
                lines[k] = head + " " * (len(lines[k]) - len(head) - len(keep)) + keep
            elif (e := _FISH_END.match(lines[k])) is not None:
                lines[k] = e.group(1) + "}" + " " * (len(lines[k]) - len(e.group(1)) - 1)
            elif re.match(r"[ \t]*(?:else|case\b.*)[ \t]*\Z", lines[k]):
                lines[k] = " " * len(lines[k])
        changed = True
        i = j + 1
    return "\n".join(lines) if changed else text


_TEST_SLASH = re.compile(
    rb"((?:^|[;&|(!]|\b(?:if|while|until|elif)\b)[ \t]*\[\[?[ \t][^\]\n]*?[ \t])[/~](?=[ \t])",
    re.M,
)
_STDIN_FD = re.compile(rb"(?<=[ \t])0(?=<)")
_FAKE_ARITHMETIC = re.compile(rb"\$\(\(([ \t]*([A-Za-z_][\w.+-]*)[ \t]+[^()]*?)\)\)")


def _as_subshell(m: re.Match[bytes]) -> bytes:
    name = m.group(2).decode("ascii", "replace")
    if name not in dispatch.KNOWN_NAMES and name not in SHELLS:
        return m.group(0)
    if _VALID_ARITHMETIC.fullmatch(m.group(1)):
        # `$(( rm -rf /x ))` is `rm - rf / x`: valid arithmetic on variables, nothing runs.
        return m.group(0)
    return b"$( " + m.group(1) + b" )"


# Operands (names, numbers) joined by operators: text bash evaluates as arithmetic.
_VALID_ARITHMETIC = re.compile(
    rb"\s*(?:[-+!~]+\s*)?(?:[A-Za-z_]\w*|\d+)(?:\s*[-+*/%^&|<>=!~]+\s*(?:[A-Za-z_]\w*|\d+))*\s*"
)


_NAMEREF = "\x00ref:"  # `declare -n r=x` is stored as env[_NAMEREF + "r"] = "x"
_FD_VARIABLE = re.compile(r"\{[A-Za-z_]\w*\}")


def _descriptor(node: Node, source: str, pos: Positions) -> int | None:
    """The descriptor a redirect names (`3<<EOF`, `4< file`), None when it names none."""
    d = node.child_by_field_name("descriptor")
    if d is not None:
        text = source[pos.char(d.start_byte) : pos.char(d.end_byte)]
        return int(text) if text.isdigit() else None
    m = re.match(r"\s*(\d+)[<>]", source[pos.char(node.start_byte) : pos.char(node.end_byte)])
    return int(m.group(1)) if m else None


def _bare_exec(node: Node) -> bool:
    """`exec` with nothing to run: its redirects change this shell's descriptors."""
    kids = [c for c in node.named_children if c.type != "comment"]
    return (
        len(kids) == 1
        and kids[0].type == "command_name"
        and budget.node_bytes(kids[0]).strip() == b"exec"
    )


def _glued_backticks(kids: list[Node], types: list[str]) -> dict[int, int]:
    """Arguments the grammar split at a backquote inside `{ …; }`, `if`, loops: in
    `{ cp b /boot/x-`uname -r`; }` it gives `/boot/x-` and the substitution as two words,
    though they touch and bash reads one (gen12). Maps the first index of each run of
    touching pieces to the index after it, and every later piece of the run to -1."""
    out: dict[int, int] = {}
    i = 0
    while i < len(kids):
        j = i + 1
        while (
            j < len(kids)
            and types[j] not in _REDIRECTS
            and types[j - 1] not in ("command_name", "variable_assignment")
            and types[j] not in ("command_name", "variable_assignment", "comment")
            and kids[j].start_byte == kids[j - 1].end_byte
        ):
            j += 1
        run = range(i, j)
        if j - i > 1 and any(
            types[k] == "command_substitution" and budget.node_bytes(kids[k])[:1] == b"`"
            for k in run
        ):
            out[i] = j
            for k in range(i + 1, j):
                out[k] = -1
        i = j
    return out


# `'NAME=value'` / `"NAME=value"` as an argument of a declaration builtin.
_QUOTED_ASSIGNMENT = re.compile(r"""\A(['"])([A-Za-z_]\w*)=(.*\1)\Z""", re.S)
_QUOTED = frozenset({"raw_string", "string"})
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})


def _flat_list(node: Node) -> list[Node]:
    """The children of `a && b || c …` in order, nested lists opened in place (the grammar
    nests a chain one level per operator: a long chain walked recursively would run out
    of stack, and `&&`/`||` associate to the left, so the flat order is the same)."""
    out: list[Node] = []
    stack = [iter(node.children)]
    while stack:
        c = next(stack[-1], None)
        if c is None:
            stack.pop()
        elif c.type == "list":
            budget.tick()
            stack.append(iter(c.children))
        else:
            out.append(c)
    return out


# An alias whose text is one plain command (no expansions, operators or redirections).
# zsh's special arrays that define functions and aliases by key (`functions[ls]=…`).
_ZSH_DEFINER = re.compile(r"(functions|aliases|galiases|dis_functions)\[([^\]]+)\]")
_SIMPLE_ALIAS = re.compile(r"""^[\w./@%+=:,~ '"-]*$""")
_CASE_TOGGLE = re.compile(rb"(\$\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]\n]*\])?)(~~?)\}")
_HEREDOC_OP = re.compile(rb"<<-?[ \t]*[\"']?[A-Za-z_][\w.-]*[\"']?[^\n]*\n")


def _heredoc_backslash_workaround(data: bytes) -> bytes:
    """The grammar misreads a heredoc whose body starts with a backslash (`\\$(…)` as its
    first characters) and loses the whole statement. The body is read from the text, so
    the parser may see a blank there instead (same length, spans unchanged)."""
    out = bytearray(data)
    for m in _HEREDOC_OP.finditer(data):
        if m.end() < len(out) and out[m.end()] == 0x5C:
            out[m.end()] = 0x20
    return bytes(out)


# A `&` that sends a command to the background (not `&&`, `>&`, `&>`, `|&`).
_BACKGROUND = re.compile(r"(?<![&>|<])&(?![&>])")
_NEGATED_COMPOUND = re.compile(
    r"((?:^|[;&|({]|\b(?:then|do|else)\b)[ \t]*)((?:![ \t]+)+)"
    r"(for|while|until|case|if|select|\{|\()",
    re.M,
)


# `{rm,-rf,/}` in command position: bash expands it to the command `rm -rf /`. The grammar
# reads a leading `{` as a group, so these are found in the text.
_BRACE_COMMAND = re.compile(
    r"(?:^|[;&|(`!{]|\$\(|\b(?:then|do|else|elif|if|while|until|time|sudo|doas|exec|command"
    r"|builtin|env|nohup|nice|timeout|xargs|setsid|stdbuf)\b)[ \t]*"
    r"\{((?:[^\s{}$]|\$\{\w+\}|\$(?!\{))*+)\}",  # possessive: linear on `{,$a,$a…`
    re.M,
)


_DATA_NODES = frozenset(
    {"raw_string", "string", "ansi_c_string", "heredoc_body", "comment", "translated_string"}
)


def _data_spans(root: Node, pos: Positions) -> list[tuple[int, int]]:
    """Where the text is only data (strings, heredoc bodies, comments): a `{a,b}` there is
    not brace expansion in command position."""
    spans: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in _DATA_NODES:
            spans.append((pos.char(n.start_byte), pos.char(n.end_byte)))
            continue
        stack.extend(n.children)
    return spans


_BRACE_VAR = re.compile(r"\$(?:\{(HOME|PWD|USER|SHELL)\}|(HOME|PWD|USER|SHELL)\b)")


def _brace_var(m: re.Match[str]) -> str:
    """`{/bin/rm,-fr,$HOME}`: a well-known variable inside the braces means its usual value."""
    return _KNOWN_VARS[m.group(1) or m.group(2)]


def _brace_commands(text: str, scope: Scope, data: list[tuple[int, int]]) -> None:
    for m in _BRACE_COMMAND.finditer(text):
        if any(a <= m.start(1) < b for a, b in data):
            continue
        if "," not in m.group(1):
            continue
        parts = [_BRACE_VAR.sub(_brace_var, unquote(p)) for p in m.group(1).split(",")]
        if not parts[0] or command_name(parts[0]) not in dispatch.KNOWN_NAMES:
            continue
        start, end = m.start(1) - 1, m.end(1) + 1
        if len(m.group(1)) > 512:
            continue
        line_end = text.find("\n", end)
        tail = split_words(text[end : min(end + 2048, line_end if line_end >= 0 else len(text))])
        words = [Word(p, start, end) for p in parts if p]
        dispatch.judge(words + [Word(w.text, end + w.start, end + w.end) for w in tail], scope)


@attrs.frozen(slots=True)
class _CallMemo:
    """A function call's walk, kept for `_Walker._call`."""

    found: tuple[Finding, ...]
    info: Info
    cost: float  # the second walk's steps (-1: walked once only)
    env_moves: int  # how far the walk moved the variables' change counter


def _calling_key(name: str, body: Node) -> str:
    """What `_Walker.calling` holds for a function being walked: its name and definition
    (`f() { f() { rm -rf "$1"; }; f /; }; f`: the inner call runs the NEW `f`)."""
    return f"{name}\x00{body.start_byte}"


# Where a user's own or the system's own configuration lives: home by any of its names
# (`~`, `$HOME`, the XDG base directories, `${ZDOTDIR:-$HOME}`, a `$HOME`-based default),
# or the system's configuration folder (`WGETRC=/etc/wgetrc`). A config-file variable that
# points there names the usual files, not unreadable code (review 11, finding 5).
_HOME_DEFAULT = r"(?::?-(?:~|\$HOME|\$\{HOME\})[^{}]*)?"
_OWN_CONFIG_PLACE = re.compile(
    r"(?:~|\$HOME|\$\{HOME" + _HOME_DEFAULT + r"\}|\$XDG_(?:CONFIG|DATA|STATE|CACHE)_HOME"
    r"|\$\{(?:XDG_(?:CONFIG|DATA|STATE|CACHE)_HOME|ZDOTDIR)" + _HOME_DEFAULT + r"\})(?:/|\Z)"
    r"|/etc/(?!.*\.\.)"
)


class _Walker:
    __slots__ = (
        "appended",
        "call_memo",
        "calling",
        "defining",
        "functions",
        "late_for",
        "names_listed",
        "out_substs",
        "pos",
        "psub_listing",
        "psub_stdin",
        "scope",
        "toggles",
        "writes",
    )

    def __init__(self, scope: Scope, pos: Positions) -> None:
        self.scope = scope
        self.pos = pos
        self.functions: VersionedDict[str, Node] = VersionedDict()  # functions defined
        # Calls already walked in the same state (`_call`): what they found and cost.
        self.call_memo: dict[object, _CallMemo] = {}
        self.calling: set[str] = set()
        self.defining = 0  # inside a function definition's body
        self.writes: list[str] = []  # files the current redirected statement writes
        self.appended: set[str] = set()  # those of them written with `>>` (n13u)
        self.toggles = False  # `${x~~}` was hidden from the parser as `${x,,}`
        # `>(sh)`: what the commands in an output process substitution read. In a redirect
        # (`echo … > >(sh)`) that is the statement's output, known only after its body
        # ran, so those substitutions wait in `out_substs`; `tee >(sh)` passes its stdin.
        self.psub_stdin: Stdin | None = None
        self.out_substs: list[Node] | None = None
        # `$(ls -A ~ | grep -v x)`: the last command substitution printed the names of a
        # folder's entries (a `for` loop over it ranges over every one) (n13u)
        self.names_listed = False
        # `done < <(ls -d /*)`: what the last input process substitution listed (paths), so a
        # `while read` loop fed by it ranges over them as it does when piped (safety-m7).
        self.psub_listing: Info | None = None
        # `true && rm 2>/dev/null -rf /`: the words the grammar hung on a list's redirect
        # belong to the list's last command (its span, then the words).
        self.late_for: tuple[int, int, list[Word]] | None = None

    # -- errors --------------------------------------------------------------------------

    def report_error(self, root: Node) -> None:
        bad = _first_error(root)
        start = self.pos.char(bad.start_byte) if bad is not None else 0
        end = self.pos.char(bad.end_byte) if bad is not None else len(self.scope.source)
        if end <= start:
            end = min(len(self.scope.source), start + 1)
            start = max(0, end - 1)
        self.scope.add(
            RiskLevel.MODERATE,
            "parse-error",
            "could not fully parse this command; check it by hand",
            start,
            end,
        )

    # -- statements ----------------------------------------------------------------------

    def sequence(self, node: Node, stdin: Stdin = NO_STDIN) -> Info:
        """Statements one after another; a redirect on a group (`{ …; } <<EOF`) feeds
        whichever of them reads stdin, so each is judged with it."""
        info = Info()
        saved = self.scope.cwds if node.type in ("subshell",) else None
        for child in node.named_children:
            if child.type in ("comment", "heredoc_body"):
                continue
            info = self.stmt(child, stdin)
            self._apply_cd(guarded=self.scope.errexit)
        if saved is not None:
            self.scope.cwds = saved
        return info

    def _apply_cd(self, guarded: bool) -> None:
        target = self.scope.pending_cd
        if target is None:
            return
        self.scope.pending_cd = None
        new: set[str | None] = set()
        for cwd in self.scope.cwds:
            if target.startswith(("/", "~")) or cwd is None:
                new.add(target)
            else:
                new.add(cwd.rstrip("/") + "/" + target)
        self.scope.cwds = frozenset(new) if guarded else self.scope.cwds | frozenset(new)

    def stmt(self, node: Node, stdin: Stdin = NO_STDIN) -> Info:
        budget.tick()
        t = node.type
        if t == "command":
            return self.command(node, stdin)
        if t == "pipeline":
            return self.pipeline(list(node.named_children), stdin)
        if t == "list":
            return self.list_(node, stdin)
        if t == "redirected_statement":
            return self.redirected(node, stdin)
        if t in ("compound_statement", "test_command", "c_style_for_statement") and self.scope.env:
            at = self.pos.char(node.start_byte)
            head = self.scope.source[at : at + 2]
            if (
                t == "c_style_for_statement"
                or head == "(("
                or (head == "[[" and _ARITH_TEST.search(_text(node)))
            ):
                self._arith_vars(_text(node), node)
        if t == "test_command" and "-v" in (raw := _text(node)) and "[" in raw:
            for m in re.finditer(r"-v\s+('[^']*'|\"[^\"]*\"|\S+)", raw):
                self._subscripts_run(m.group(1), node)  # `[[ -v 'a[$(…)]' ]]`
        if t == "unset_command" and "[" in (raw := _text(node)):
            self._subscripts_run(raw, node)  # `unset 'x[$(…)]'`
        if t in _STATEMENTS_SEQ:
            return self.sequence(node, stdin)
        if t == "negated_command":
            info = Info()
            for c in node.named_children:
                info = self.stmt(c, stdin)
            return info
        if t == "variable_assignment":
            self.assignment(node)
            return Info()
        if t == "variable_assignments":
            for c in node.named_children:
                self.assignment(c)
            return Info()
        if t == "declaration_command":
            return self.declaration(node)
        if t == "function_definition":
            return self.function(node)
        if t == "for_statement":
            return self.for_loop(node)
        if t in ("comment", "heredoc_body", "heredoc_start", "heredoc_end"):
            return Info()
        if t in _WORDISH:
            self.words(node)
            return Info()
        if t == "ERROR":
            return self.error_region(node)
        if t in ("while_statement", "c_style_for_statement"):
            self._endless_spawner(node)
        if t == "while_statement" and stdin.secret:
            self._secret_loop(node)
        if t == "while_statement" and (
            stdin.paths
            or stdin.kind == STDIN_STATIC
            or (stdin.kind == STDIN_FILE and self._reads_accounts(node, stdin))
        ):
            return self._read_loop(node, stdin)
        # if/while/case/negation/test: every part may run; a `cd` in one part moves the
        # next (`if true; then cd /; rm -rf -- */; fi`, as at the top level).
        info = Info()
        for c in node.named_children:
            info = self.stmt(c)
            self._apply_cd(guarded=self.scope.errexit)
        return info

    def _secret_loop(self, node: Node) -> None:
        """`od -tx1 ~/.pgpass | while read -r h; do ping -p "$h" HOST; done`: each line of a
        secret is read into a variable the body hands to a network tool (packet padding, a
        name looked up, a URL): exfiltration, critical (safety-m7)."""
        cond = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        if cond is None or body is None or _command_name_of(cond) != "read":
            return
        args = [_text(a) for a in cond.children_by_field_name("argument")]
        names_ = [a for a in args if not a.startswith("-")] or ["REPLY"]
        text = _text(body)
        uses = any(re.search(r"\$\{?" + re.escape(n) + r"\b", text) for n in names_)
        if uses and _NETWORK_TOOL.search(text):
            start, end = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
            self.scope.add(
                RiskLevel.CRITICAL,
                "exfiltration",
                "sends each line of a secret to the network (a loop over a key or password file)",
                start,
                end,
            )

    def _read_loop(self, node: Node, stdin: Stdin) -> Info:
        """`ls / | while read d; do rm -rf "/$d"; done`: the loop variable takes what the
        pipe brings (every listed entry, or the known text's first line)."""
        cond = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        reader = cond if cond is not None and cond.type == "command" else None
        if reader is None or _command_name_of(reader) != "read" or body is None:
            info = Info()
            for c in node.named_children:
                info = self.stmt(c)
            return info
        args = [_text(a) for a in reader.children_by_field_name("argument")]
        names, delim = _read_names(args)
        names = names or ["REPLY"]
        if stdin.paths:
            item = stdin.paths[0].text
            if stdin.names_only:
                item = "*"  # `ls DIR` prints names: "/$d" names every entry of /
        else:
            item = stdin.text.split(delim, 1)[0].strip()
            if delim in stdin.text.strip() and len(stdin.text) <= 2048:
                # (u21) known text of several lines (`while read -r l; do export "$l"; done
                # < .env` after the block wrote .env): the body runs once per line; the
                # first few lines are each judged (the first line alone is the usual case);
                # (u22) `read -d ''` reads NUL-separated items (`printf '%s\0' …`) the same way
                lines = [ln.strip() for ln in stdin.text.split(delim) if ln.strip()][:8]
                return self._each_line(node, body, names, lines)
        saved = {n: self.scope.env.get(n) for n in names}
        self.scope.env[names[0]] = item
        for n in names[1:]:
            self.scope.env[n] = ""
        if self._reads_accounts(node, stdin):
            # `while IFS=: read -r u _ _ _ _ home _; do rm -rf "$home"; done < /etc/passwd`:
            # the first field is every account's name, the sixth its home (safety-m8).
            self.scope.env[names[0]] = "*"
            if len(names) >= 6:
                self.scope.env[names[5]] = "/home/*"
        try:
            return self.stmt(body)
        finally:
            for n, v in saved.items():
                if v is None:
                    self.scope.env.pop(n, None)
                else:
                    self.scope.env[n] = v

    def _each_line(self, node: Node, body: Node, names: list[str], lines: list[str]) -> Info:
        """The body of a read loop judged once for each known line (see `_read_loop`); what
        the body sets (`export "$l"`) holds after the loop, the loop variable as last read."""
        info = Info()
        saved = {n: self.scope.env.get(n) for n in names}
        for line in lines:
            self.scope.env[names[0]] = line
            for n in names[1:]:
                self.scope.env[n] = ""
            info = self.stmt(body)
        for n, v in saved.items():
            if v is None:
                self.scope.env.pop(n, None)
            else:
                self.scope.env[n] = v
        return info

    def _endless_spawner(self, node: Node) -> None:
        """`while :; do $0 & done`: an endless loop that starts background processes and
        never waits piles them up until the machine runs out (a fork bomb by another name)."""
        body = node.child_by_field_name("body")
        if body is None:
            return
        head = _text(node)[:5]
        cond = node.child_by_field_name("condition")
        cond_text = _text(cond).strip().rstrip(";").strip() if cond is not None else ""
        if node.type == "c_style_for_statement":
            endless = re.match(r"for\s*\(\(\s*[^;]*;\s*;", _text(node)) is not None
        elif head.startswith("until"):
            endless = cond_text in ("false", "! true", "! :")
        else:
            endless = cond_text in ("true", ":", "[ 1 ]", "((1))", "! false", "[[ 1 ]]")
        if not endless:
            return
        text = _text(body)
        if not _BACKGROUND.search(text) or re.search(r"\b(wait|sleep|break|exit|read)\b", text):
            return
        self.scope.add(
            RiskLevel.BLOCKED,
            "fork-bomb",
            "an endless loop that starts background processes and never waits (a fork bomb)",
            self.pos.char(node.start_byte),
            self.pos.char(node.end_byte),
        )

    def _reads_accounts(self, node: Node, stdin: Stdin) -> bool:
        """A `while read` loop reading the account database (`< /etc/passwd`, `getent
        passwd |`): its fields are every account's."""
        if any(p.text == "/home/*" for p in stdin.paths):
            return True
        parent = node.parent
        while parent is not None and parent.type == "list":
            parent = parent.parent  # (`x || while read …; done < /etc/passwd`: the list's)
        return (
            parent is not None
            and parent.type == "redirected_statement"
            and self._input_file(parent) in ("/etc/passwd", "/etc/master.passwd")
        )

    def _input_file(self, node: Node) -> str | None:
        """The file of a plain `< FILE` redirect of `node` (a redirected statement)."""
        for r in node.children_by_field_name("redirect"):
            m = re.fullmatch(r"\s*<\s*([^\s<>&|;()$`]+)\s*", _text(r))
            if r.type == "file_redirect" and m is not None:
                return m.group(1).strip("\"'")
        return None

    def _list_prefix_cwds(self, body: Node) -> frozenset[str | None]:
        """The working directories a list's last command runs in after the literal `cd`s
        (and `pushd`s) before it (`cd /etc && : > shadow`)."""
        cwds = self.scope.cwds
        children = [c for c in _flat_list(body) if c.is_named and c.type != "comment"]
        for c in children[:-1][:16]:
            if c.type != "command" or _command_name_of(c) not in ("cd", "pushd"):
                continue
            args = [_text(a) for a in c.children_by_field_name("argument")]
            args = [a.strip("'\"") for a in args if not a.startswith("-")]
            if len(args) > 1 or any(ch in a for a in args for ch in "$`*?"):
                continue
            target = args[0] if args else "~"
            cwds = frozenset(
                target if target.startswith(("/", "~")) or cwd is None else cwd + "/" + target
                for cwd in cwds
            )
        return cwds

    def list_(
        self,
        node: Node,
        stdin: Stdin = NO_STDIN,
        reread: str | None = None,
        redirected_in: bool = False,
        head_stdin: bool = False,
    ) -> Info:
        """`a && b || c`; a redirect the grammar hangs on the whole list (`x || sh <<EOF`)
        belongs to its last command (and a file it reads, `reread`, is read when it runs);
        when that command is a pipeline (`x || echo y | sh <<EOF`, `redirected_in`), to the
        pipeline's last stage. A list the grammar made a pipe's stage (`head_stdin`) reads
        the pipe in its first command."""
        children = _flat_list(node)
        info = Info()
        guarded = False
        last = next((c for c in reversed(children) if c.is_named and c.type != "comment"), None)
        if head_stdin:
            last = next((c for c in children if c.is_named and c.type != "comment"), None)
        for c in children:
            if not c.is_named:
                if c.type == "&&":
                    guarded = True
                    self._apply_cd(guarded=True)
                else:
                    self._apply_cd(guarded=self.scope.errexit)
                continue
            if c.type == "comment":
                continue
            if c is last and reread is not None:
                stdin = wrappers.listed_file(self.scope, reread) or stdin
            if c is last and redirected_in and c.type == "pipeline":
                info = self.pipeline(list(c.named_children), NO_STDIN, last_stdin=stdin)
                continue
            info = self.stmt(c, stdin if c is last else NO_STDIN)
        _ = guarded
        return info

    def error_region(self, node: Node) -> Info:
        """Commands inside a region tree-sitter could not parse: judge them token by token."""
        info = Info()
        named = [c for c in node.named_children if c.type != "comment"]
        commands = [
            c for c in named if c.type in ("command", "pipeline", "list", "redirected_statement")
        ]
        for c in commands:
            info = self.stmt(c)
        # What the grammar could not place is judged token by token too (fail closed):
        # every stretch between separators that no parsed command covers.
        start = self.pos.char(node.start_byte)
        covered = sorted((self.pos.char(c.start_byte), self.pos.char(c.end_byte)) for c in commands)
        starts = [s for s, _ in covered]
        reach = list(itertools.accumulate((e for _, e in covered), max))  # furthest end so far
        text = _blank_comments(self.scope.source[start : self.pos.char(node.end_byte)])
        for m in _ERROR_SEGMENT.finditer(text):
            budget.spend(budget.STATEMENT_STEPS)
            a, b = start + m.start(), start + m.end()
            i = bisect.bisect_right(starts, a) - 1  # the commands starting at or before `a`
            if i >= 0 and reach[i] >= b:
                continue
            words = split_words(m.group(0), a)
            while words and words[0].text in _ERROR_KEYWORDS:
                words.pop(0)  # `! ! rm …`, `do rm …`: the command follows the keyword
            if words:
                info = dispatch.judge(words, self.scope)
        return info

    def redirected(self, node: Node, stdin: Stdin) -> Info:
        body = node.child_by_field_name("body")
        tail: list[Node] = []
        self.writes = []
        redirected_in = False
        opened: dict[int, Stdin] = {}
        outer_substs, self.out_substs = self.out_substs, []
        cwds = self.scope.cwds
        if body is not None and body.type == "list":
            # (f19) `cd /etc && : > shadow`: the grammar hangs the redirect on the whole list,
            # but it is the last command's, made after the list's `cd`
            self.scope.cwds = self._list_prefix_cwds(body)
        for r in node.children_by_field_name("redirect") or [
            c for c in node.named_children if c is not body
        ]:
            s, extra, to_stdin = self.redirect_fd(r, body, opened)
            if s is not None and to_stdin:
                stdin = s
                redirected_in = True
            tail.extend(extra)
        self.scope.cwds = cwds
        deferred, self.out_substs = self.out_substs, outer_substs
        if body is None:
            return Info()
        tail_exec = body.named_children[-1] if body.type == "list" and body.named_children else None
        if tail_exec is not None and tail_exec.type == "command" and _bare_exec(tail_exec):
            # `true && exec 3<<EOF`: the grammar hangs the exec's redirect on the list.
            self.list_(body)
            self._open_fds(opened, stdin if redirected_in else None)
            return Info(name="exec")
        if body.type == "command" and _bare_exec(body):
            # `exec 3<<EOF`, `exec < file`: later commands read what was opened.
            self._open_fds(opened, stdin if redirected_in else None)
            return Info(name="exec")
        writes = self.writes
        saved = self._open_fds(opened, None) if opened else None
        # `bash 3<<EOF /dev/fd/3`: the grammar hangs the words after a heredoc's start on it.
        late = [
            w
            for r in node.children_by_field_name("redirect")
            if r.type == "heredoc_redirect"
            for a in r.children_by_field_name("argument")
            for w in self.words(a)
        ]
        # `rm 2>/dev/null -rf /`, `find / 2>/dev/null -exec rm {} \;`: the grammar hangs the
        # words after a redirect's target on the redirect; bash passes them to the command
        # (safety-art6).
        late += self._args_after_redirects(node)
        reread = (
            self._input_file(node) if body.type == "list" and stdin.kind == STDIN_FILE else None
        )
        if reread is not None:
            # `find ~ > l && while read f; do …; done < l`: the grammar hangs the last
            # command's `< l` on the whole list, so `l` was read before the list wrote it;
            # the last command reads it after (safety-m8).
            info = self.list_(body, stdin, reread, redirected_in)
        elif body.type == "list" and redirected_in:
            info = self.list_(body, stdin, None, redirected_in)
        elif body.type == "pipeline" and redirected_in:
            # `echo y | sh <<EOF`: the grammar hangs the redirect on the pipeline; it is the
            # last stage's stdin.
            info = self.pipeline(list(body.named_children), NO_STDIN, last_stdin=stdin)
        elif late and body.type == "command":
            info = self.command(body, stdin, late)
        else:
            last = body
            while late and last.type in ("list", "pipeline") and last.named_children:
                last = last.named_children[-1]
            if late and last.type == "command":
                self.late_for = (last.start_byte, last.end_byte, late)
            info = self.stmt(body, stdin)
            self.late_for = None
        if saved is not None:
            self._close_fds(saved)
        for psub in deferred:
            # `echo 'rm -rf /' > >(sh)`: the substitution reads what the statement printed.
            cwds = self.scope.cwds
            self.sequence(psub, self._next_stdin(info, stdin, body))
            self.scope.cwds = cwds
        self._remember_written(writes, info, node)
        if tail:
            return self.pipeline(tail, self._next_stdin(info, stdin, body))
        return info

    def _tar_environment(self, words: list[Word], assigns: list[Node]) -> list[Word]:
        """`TAR_OPTIONS='--to-command=…' tar …`, `TAPE=host:a tar …`: GNU tar reads options
        from TAR_OPTIONS (split like a command line) before its own, and the archive from
        TAPE; both are added to the words the tar handler judges (ext6)."""
        extra: list[Word] = []
        exported = self.scope.env.get("TAR_OPTIONS")
        if exported and not any(_text(a).startswith("TAR_OPTIONS=") for a in assigns):
            # `export TAR_OPTIONS=…` earlier: every later tar reads it too (n13u)
            try:
                parts = _tar_intent(shlex.split(exported))
            except ValueError:
                parts = exported.split()
            extra += [Word(t, words[0].start, words[0].end) for t in parts]
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is None or v is None or _text(n) not in ("TAR_OPTIONS", "TAPE"):
                continue
            for w in self.words(v, split=False)[:1]:
                if _text(n) == "TAPE":
                    extra.append(Word("--file=" + w.text, w.start, w.end, w.dynamic))
                elif w.dynamic:
                    extra.append(Word("--checkpoint-action", w.start, w.end))
                    extra.append(Word(w.text, w.start, w.end, True))
                else:
                    try:
                        parts = _tar_intent(shlex.split(w.text))
                    except ValueError:
                        parts = w.text.split()
                    extra += [Word(t, w.start, w.end) for t in parts]
        # (after the command's own words: `tar xf a.tar` keeps its old-style first bundle)
        return [*words, *extra] if extra else words

    def _terraform_environment(self, words: list[Word], assigns: list[Node]) -> list[Word]:
        """(u22) `TF_CLI_ARGS_apply='-destroy -auto-approve' terraform apply`: terraform adds
        the words of TF_CLI_ARGS and of TF_CLI_ARGS_<subcommand> (set for this command or
        exported earlier) right after its subcommand; the handler judges them there."""
        k = 1
        while k < len(words) and words[k].text.startswith("-"):
            k += 1  # `terraform -chdir=infra apply`
        if k >= len(words):
            return words
        sub = words[k].text
        keys = ("TF_CLI_ARGS", "TF_CLI_ARGS_" + sub)
        given: dict[str, Word] = {}
        for key in keys:
            held = self.scope.env.get(key)
            if held:
                given[key] = Word(held, words[0].start, words[0].end)
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is not None and v is not None and _text(n) in keys:
                ws = self.words(v, split=False)[:1]
                if ws:
                    given[_text(n)] = ws[0]
        if not given:
            return words
        extra: list[Word] = []
        for key in keys:
            w = given.get(key)
            if w is None:
                continue
            try:
                parts = shlex.split(w.text[:2000])  # (shlex is slow: only the first options)
            except ValueError:
                parts = w.text[:2000].split()
            extra += [Word(t, w.start, w.end, w.dynamic) for t in parts[:32]]
        return [*words[: k + 1], *extra, *words[k + 1 :]]

    def _git_config_env(self, words: list[Word], assigns: list[Node]) -> list[Word]:
        """`PG='sh -c …' git --config-env=core.pager=PG log`: the setting's value is the
        variable's, given by a prefix assignment here; the option is read as `-c KEY=VALUE`
        (a variable set earlier in the block is looked up by the git handler) (n12u)."""
        if not any(w.text.startswith("--config-env") for w in words[1:16]):
            return words
        given: dict[str, Word] = {}
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is None or v is None:
                continue
            ws = self.words(v, split=False)[:1]
            s, e = self.pos.char(a.start_byte), self.pos.char(a.end_byte)
            given[_text(n)] = Word(ws[0].text, s, e, ws[0].dynamic) if ws else Word("", s, e)
        out = [words[0]]
        k = 1
        while k < len(words):
            w = words[k]
            spec, width = None, 1
            if w.text.startswith("--config-env="):
                spec = w.text[len("--config-env=") :]
            elif w.text == "--config-env" and k + 1 < len(words):
                spec, width = words[k + 1].text, 2
            key, eq, var = (spec or "").partition("=")
            value = given.get(var) if eq and key else None
            if value is not None:
                item = Word(f"{key}={value.text}", value.start, value.end, value.dynamic)
                out += [Word("-c", w.start, w.end), item]
            else:
                out += words[k : k + width]
            k += width
        return out

    def _git_environment(self, words: list[Word], assigns: list[Node]) -> list[Word]:
        """`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='…' git log`,
        `GIT_CONFIG_PARAMETERS="'core.pager'='…'" git log`: settings given through the
        environment (prefix assignments or exported before), which git applies as it does
        `git -c`; they are added as `-c KEY=VALUE` words for the git handler. A settings
        file named by GIT_CONFIG_GLOBAL/GIT_CONFIG_SYSTEM is not shown here (gen10)."""
        given: dict[str, Word] = {}
        for name in _GIT_CONFIG_ENV:
            if name in self.scope.env:
                given[name] = Word(self.scope.env[name], words[0].start, words[0].end)
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is None or v is None or not _text(n).startswith("GIT_CONFIG"):
                continue
            ws = self.words(v, split=False)[:1]
            s, e = self.pos.char(a.start_byte), self.pos.char(a.end_byte)
            given[_text(n)] = Word(ws[0].text, s, e, ws[0].dynamic) if ws else Word("", s, e)
        if "GIT_CONFIG_COUNT" in given:
            # Every KEY_k/VALUE_k pair given (in this command or exported before) below the
            # count is applied: the count may be large, or only known at run time (then all).
            cw = given["GIT_CONFIG_COUNT"]
            count = None if cw.dynamic or not cw.text.strip().isdigit() else _count(cw.text)
            indices = sorted(
                {
                    int(m.group(1))
                    for n in (*given, *(n for n in self.scope.env if n.startswith("GIT_CONFIG_")))
                    if (m := _GIT_CONFIG_KEY.fullmatch(n)) is not None
                }
            )
            for k in indices[:_GIT_CONFIG_MAX]:
                if count is not None and k >= count:
                    break
                key = given.get(f"GIT_CONFIG_KEY_{k}") or self._env_word(f"GIT_CONFIG_KEY_{k}")
                val = given.get(f"GIT_CONFIG_VALUE_{k}") or self._env_word(f"GIT_CONFIG_VALUE_{k}")
                if key is None or val is None:
                    continue
                if key.dynamic:
                    self._git_setting_unknown(key, f"GIT_CONFIG_KEY_{k}")
                    continue
                given[f"\x00{k}"] = Word(f"{key.text}={val.text}", val.start, val.end, val.dynamic)
            if len(indices) > _GIT_CONFIG_MAX:
                self._git_setting_unknown(cw, "GIT_CONFIG_COUNT")
        params = given.get("GIT_CONFIG_PARAMETERS")
        if params is not None and params.dynamic:
            self._git_setting_unknown(params, "GIT_CONFIG_PARAMETERS")
        elif params is not None:
            try:
                items = shlex.split(params.text)
            except ValueError:
                items = params.text.split()
            for k, item in enumerate(items[:_GIT_CONFIG_MAX]):
                given[f"\x01{k}"] = Word(item, params.start, params.end)
            if len(items) > _GIT_CONFIG_MAX:
                self._git_setting_unknown(params, "GIT_CONFIG_PARAMETERS")
        for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"):
            f = given.get(name)
            if f is None or f.text in ("/dev/null", ""):
                continue
            # Only git's own default files are known; any other file is settings the
            # analyser cannot read, which can name programs git runs: opaque (n11u).
            temp = f.dynamic or _GIT_OWN_CONFIG.match(f.text) is None
            self.scope.add(
                RiskLevel.CRITICAL if temp else RiskLevel.MODERATE,
                "config-exec" if temp else "git-config",
                f"{name} makes git read settings (which can name programs it runs) from {f.text}",
                f.start,
                f.end,
            )
        extra: list[Word] = []
        for name, w in given.items():
            if name[0] in "\x00\x01":
                extra += [Word("-c", w.start, w.end), w]
        return [words[0], *extra, *words[1:]] if extra else words

    def _git_setting_unknown(self, w: Word, name: str) -> None:
        """A git setting from the environment that cannot be read here (a name only known at
        run time, more entries than are judged): it may name a program git runs."""
        self.scope.add(
            RiskLevel.CRITICAL,
            "config-exec",
            f"{name} gives git settings only known at run time (a setting can name a program "
            "git runs)",
            w.start,
            w.end,
        )

    def _env_word(self, name: str) -> Word | None:
        value = self.scope.env.get(name)
        return None if value is None else Word(value, -1, -1)

    def _args_after_redirects(self, node: Node) -> list[Word]:
        """Arguments the grammar read as extra targets of a file redirect (only the first
        word after `>`/`<` is the target; the rest belong to the command)."""
        extra: list[Word] = []
        for r in node.children_by_field_name("redirect"):
            if r.type != "file_redirect":
                continue
            kids = [
                c for c in r.children if c.is_named and c.type not in ("file_descriptor", "ERROR")
            ]
            if len(kids) < 2:
                continue
            start = self.pos.char(r.start_byte)
            op = self.scope.source[start : self.pos.char(kids[0].start_byte)]
            if op.strip().lstrip("0123456789").strip() == "<<<":
                continue  # `4<<<'…'`: all of it is the here-string
            for c in kids[1:]:
                extra.extend(self.words(c))
        return extra

    def _remember_written(self, targets: list[str], info: Info, node: Node | None = None) -> None:
        """What a redirect left in the files it wrote: known text (judged when the file is
        run later), or text the analyser cannot see (a download, a run-time decode)."""
        if not targets:
            return
        body: tuple[str, int] | None = None
        unseen = ""
        if info.output is not None:
            body = (info.output, -1)
        elif info.name in ("cat", "tee") and info.input is not None and info.input.kind == "static":
            body = (info.input.text, info.input.start)
        elif info.network_fetch:
            unseen = "was just downloaded"
        elif info.input is not None:
            # `echo … | base64 -d > x.sh`, `curl … | gunzip > x`: what the filter printed.
            out = dispatch.next_stdin(info, info.input)
            if out.kind == STDIN_STATIC:
                body = (out.text, out.start)
            elif out.kind == STDIN_NETWORK:
                unseen = "was just downloaded"
            elif info.decodes or dispatch.decompresses(info):
                unseen = "holds text decoded at run time (unseen)"
        if (
            info.name == "cat"
            and len(info.argv) == 1
            and (prog := wrappers.program_file(info.argv[0]))
        ):
            for target in targets:
                wrappers.bind_file(self.scope, target, prog)  # `cat /bin/rm > x`: x is rm
        listing = None if body is not None or unseen else dispatch.next_stdin(info, NO_STDIN)
        for target in targets:
            base = target.rsplit("/", 1)[-1]
            appended = target in self.appended
            self.appended.discard(target)
            if body is not None and appended and base in self.scope.written:
                # `echo '#!/bin/sh' > x; echo 'rm -rf ~' >> x`: the file holds both (n13u)
                old = self.scope.written[base][0]
                sep = "" if not old or old.endswith("\n") else "\n"
                self.scope.written[base] = (old + sep + body[0], -1)
                if node is not None:
                    # (u21) a tool's rc file read whole: `echo '[core]' >> ~/.gitconfig; echo
                    # 'pager = rm -rf ~' >> ~/.gitconfig` is one setting written in two parts
                    kind = persist.tool_config_kind(target)
                    self._persisted(target, old + sep + body[0] if kind else body[0], node)
            elif body is not None:
                self.scope.written[base] = body
                if node is not None:
                    self._persisted(target, body[0], node)
                folder = posixpath.normpath(target.rpartition("/")[0] or ".")
                seen = self.scope.env.get(WRITTEN_IN + base, "")
                if folder not in seen.split("\x01"):
                    self.scope.env[WRITTEN_IN + base] = (seen + "\x01" + folder).lstrip("\x01")
            elif unseen:
                wrappers.remember_unseen(self.scope, target, unseen)
            elif listing is not None and listing.paths:
                wrappers.remember_listing(self.scope, target, listing)  # (safety-m8)

    def _persisted(self, target: str, text: str, node: Node) -> None:
        """(f19) `echo 'rm -rf ~' >> ~/.bashrc`, `echo '* * * * * root rm -rf /' >
        /etc/cron.d/x`: a startup, cron or service file written with a readable blocked body
        persists a blocked command: blocked, as `crontab -` fed the same line is."""
        start, end = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        persist.judge_body(self.scope, target, text, Word(target, start, end))

    def redirect_fd(
        self, node: Node, body: Node | None, opened: dict[int, Stdin]
    ) -> tuple[Stdin | None, list[Node], bool]:
        """`redirect` with descriptors: returns (what reading gives, heredoc tail stages,
        whether it is the command's stdin). An input opened on another descriptor
        (`3<<EOF`, `4< file`) goes to `opened`; `<&3` reads what descriptor 3 holds."""
        budget.spend(budget.REDIRECT_STEPS)
        fd = _descriptor(node, self.scope.source, self.pos)
        if node.type == "file_redirect" and b"<&" in budget.node_bytes(node):
            dup = self._dup(node, opened)
            if dup is not None:
                if fd in (None, 0):
                    return dup, [], True
                opened[fd] = dup
                return None, [], False
        s, extra = self.redirect(node, body)
        if s is None or fd in (None, 0):
            return s, extra, True
        if fd > 2:
            opened[fd] = s
        return None, extra, False

    def _dup(self, node: Node, opened: dict[int, Stdin]) -> Stdin | None:
        """`<&3`, `0<&4`, `<&$fd`: what the duplicated input descriptor holds (an unknown
        descriptor gives unknown text); None when the redirect is no input duplication."""
        start, _end = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        dest = [
            w
            for c in node.children
            if c.is_named and c.type not in ("file_descriptor", "ERROR")
            for w in self.words(c)
        ]
        if not dest:
            return None
        op = self.scope.source[start : dest[0].start].strip().lstrip("0123456789").strip()
        target = dest[0].text
        if op != "<&" or not target.isdigit():
            return None
        n = int(target)
        if n in opened or n in self.scope.fds:
            return opened.get(n) or self.scope.fds[n]
        if n <= 2:
            return None  # stdin stays stdin; `<&2` reads the terminal (`sh 0<&2`)
        return Stdin(STDIN_OTHER)  # opened outside this text: unknown

    def _open_fds(self, opened: dict[int, Stdin], stdin: Stdin | None) -> dict[int, Stdin | None]:
        """Make `opened` (and `stdin` as descriptor 0) readable by the commands that follow;
        returns what they replaced."""
        fds = self.scope.fds
        saved: dict[int, Stdin | None] = {}
        items = list(opened.items()) + ([(0, stdin)] if stdin is not None else [])
        for n, s in items:
            saved[n] = fds.get(n)
            fds[n] = s
        return saved

    def _close_fds(self, saved: dict[int, Stdin | None]) -> None:
        for n, s in saved.items():
            if s is None:
                self.scope.fds.pop(n, None)
            else:
                self.scope.fds[n] = s

    def redirect(self, node: Node, body: Node | None) -> tuple[Stdin | None, list[Node]]:
        """Judge one redirect; returns the stdin it provides and any pipeline stages that the
        grammar hangs under a heredoc (`cat <<EOF | sh`)."""
        t = node.type
        scope = self.scope
        start, end = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        if t == "heredoc_redirect":
            tail: list[Node] = []
            text, tstart = "", -1
            delimiter = ""
            for c in node.named_children:
                if c.type == "heredoc_start":
                    delimiter = _text(c)
                    # The body runs from the line after `<<EOF …` to the closing line (read
                    # from the text: the grammar misreads a body that starts with `\`).
                    nl = scope.source.find("\n", self.pos.char(c.end_byte))
                    tstart = nl + 1 if nl >= 0 else -1
                elif c.type == "heredoc_end" and tstart >= 0:
                    text = scope.source[tstart : self.pos.char(c.start_byte)]
                elif c.type == "heredoc_body":
                    if tstart < 0:
                        tstart = self.pos.char(c.start_byte)
                        text = scope.source[tstart : self.pos.char(c.end_byte)]
                    if not any(q in delimiter for q in "'\"\\"):
                        # Unquoted: `$(…)` in the body runs in this shell, whatever reads it
                        # (unless escaped: `\\$(…)` is text).
                        for sub in c.named_children:
                            if sub.type in (
                                "command_substitution",
                                "expansion",
                            ) and not self._escaped(sub):
                                self.value(sub, True)
                elif c.type == "pipeline":
                    tail = list(c.named_children)
                elif c.type in ("command", "list", "redirected_statement"):
                    tail = [c]
                elif c.type == "file_redirect":
                    self.redirect(c, body)
            if tstart >= 0 and not text:
                end_at = scope.source.find("\n" + delimiter.strip("'\"\\") + "\n", tstart - 1)
                text = scope.source[tstart : end_at + 1] if end_at >= 0 else scope.source[tstart:]
            if text and "`" in text and not any(q in delimiter for q in "'\"\\"):
                self._heredoc_backticks(text, tstart)
            raw = text
            if scope.source[start:end].startswith("<<-"):
                text = re.sub(r"(?m)^\t+", "", text)
            if not any(q in delimiter for q in "'\"\\"):
                # An unquoted delimiter: the shell undoes `\$`, `\``, `\\` and `\<newline>`.
                text = re.sub(r"\\([$`\\])", r"\1", text.replace("\\\n", ""))
            return Stdin(STDIN_STATIC, text, tstart if text == raw else -1), tail
        if t == "herestring_redirect":
            words = [w for c in node.named_children for w in self.words(c)]
            text = " ".join(w.text for w in words)
            verbatim = words[0].start if len(words) == 1 and not words[0].dynamic else -1
            if verbatim >= 0 and scope.source[words[0].start : words[0].end] != text:
                verbatim = (
                    words[0].start + 1
                    if scope.source[words[0].start + 1 : words[0].end - 1] == text
                    else -1
                )
            if any(w.dynamic for w in words):
                origins = {w.origin for w in words if w.dynamic}
                if origins <= {"static", "decoded"}:
                    # `sh <<< "$(echo … | base64 -d)"`: the text is known.
                    return Stdin(STDIN_STATIC, text, -1, decoded="decoded" in origins), []
                origin = next((w.origin for w in words if w.dynamic), "")
                return Stdin(STDIN_NETWORK if origin == ORIGIN_NETWORK else STDIN_OTHER), []
            if verbatim < 0 and "\n" in text and words:
                # A quoted line that starts with a backslash (`'all:\n\trm …'`) reaches the
                # grammar as a separate escaped word; quotes alone are read here.
                raw = scope.source[words[0].start : words[-1].end]
                if not any(ch in re.sub(r"'[^']*'", "", raw) for ch in "$`"):
                    try:
                        parts = shlex.split(raw)
                    except ValueError:
                        parts = []
                    if len(parts) == 1:
                        text = parts[0]
            return Stdin(STDIN_STATIC, text, verbatim), []
        if t != "file_redirect":
            return None, []
        dest: list[Word] = []
        for c in node.children:
            if c.is_named and c.type not in ("file_descriptor", "ERROR"):
                dest.extend(self.words(c))
        if not dest:
            return None, []
        # The operator is whatever sits between the fd and the target (`<>` parses badly).
        op = scope.source[start : dest[0].start].strip().lstrip("0123456789").strip()
        target = dest[0].text
        if op == "<<<":
            # `4<<<'…'` (the grammar misreads a here-string on a descriptor).
            text = " ".join(w.text for w in dest)
            if any(w.dynamic and w.origin not in ("static", "decoded") for w in dest):
                return Stdin(STDIN_OTHER), []
            return Stdin(STDIN_STATIC, text, -1), []
        if op == "<" and not dest[0].dynamic:
            written = scope.written.get(target.rsplit("/", 1)[-1])
            if written is not None:
                # `sh < x.sh` after `echo 'rm -rf ~' > x.sh`: the file holds known text.
                return Stdin(STDIN_STATIC, written[0], written[1]), []
        socket = _to_open_socket(scope, op, dest[0])
        if op in ("<", "<&"):
            if (
                op == "<"
                and body is None
                and target.startswith(("/dev/tcp/", "/dev/udp/"))
                and not scope.env.get(SOCKET_OPEN)
            ):
                # `timeout 1 bash -c '</dev/tcp/db/5432'`: a redirect with no command opens
                # the connection and closes it (a port probe): nothing is read or run.
                scope.add(RiskLevel.MODERATE, "network", "opens a network connection", start, end)
                return None, []
            if socket and _command_name_of(body) not in SHELLS:
                # `cat <&$REPLY` after `ztcp host port`: reads what the peer sends.
                return Stdin(STDIN_NETWORK), []
            if target.startswith(("/dev/tcp/", "/dev/udp/")) or socket:
                scope.add(
                    RiskLevel.CRITICAL,
                    "reverse-shell",
                    "reads commands from a network socket",
                    start,
                    end,
                )
                return Stdin(STDIN_NETWORK), []
            if op == "<&" or target.isdigit():
                return None, []
            if dest[0].dynamic and dest[0].origin in ("static", "decoded"):
                # `< <(printf 'rm -rf /')`: the "file" holds known text.
                return Stdin(STDIN_STATIC, target, -1, decoded=dest[0].origin == "decoded"), []
            if target == "/dev/null":
                return Stdin(STDIN_STATIC, ""), []  # reads nothing
            listing = self.psub_listing
            if dest[0].origin == ORIGIN_SUBST and listing is not None and listing.paths:
                # `while read d; do …; done < <(ls -d /*)`: reads what the listing printed.
                self.psub_listing = None
                return dispatch.next_stdin(listing, NO_STDIN), []
            if (listed := wrappers.listed_file(scope, target)) is not None:
                return listed, []  # `xargs rm < /tmp/all` after `find / > /tmp/all` (m8)
            return Stdin(STDIN_FILE, secret=is_secret(target)), []
        if (
            op == ">&"
            and body is not None
            and (coproc := scope.env.get(wrappers.COPROC_SHELL)) is not None
            and f"{coproc}[1]" in scope.source[dest[0].start : dest[0].end]
        ):
            self._fed_to_coproc(body, start, end)
            return None, []
        if (target.isdigit() or target == "-") and not socket:
            return None, []
        if target.startswith(("/dev/tcp/", "/dev/udp/")) or socket:
            name = _command_name_of(body)
            if body is not None and body.type != "command":
                name = "?"  # `{ cat /etc/passwd; } > /dev/tcp/…`, a list: what they print
            if body is not None and body.type == "pipeline":
                # `cat ~/.ssh/id_rsa | gzip > /dev/tcp/…`: not a bare `echo` write.
                name = _command_name_of(_body(body)) or "?"
            if name in SHELLS or name in ("exec", "sh", "bash") or op == "<>":
                scope.add(
                    RiskLevel.CRITICAL,
                    "reverse-shell",
                    "connects a shell to a network socket",
                    start,
                    end,
                )
            elif name in ("echo", "printf", "true", ":", "") and not _has_substitution(body):
                scope.add(RiskLevel.MODERATE, "network", "writes to a network socket", start, end)
            else:
                scope.add(
                    RiskLevel.CRITICAL,
                    "exfiltration",
                    "sends a file or a command's output to a network socket",
                    start,
                    end,
                )
            return None, []
        if target in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty") or target.startswith(
            "/dev/fd/"
        ):
            return None, []
        if op in (">", ">>", ">|", "&>", "&>>"):
            self.writes.append(target)
            if op in (">>", "&>>"):
                self.appended.add(target)
        special = write_target(target, scope.cwds, append=op in (">>", "&>>"))
        win = _windows_write(target) if special is None and target[:5] == "/mnt/" else None
        if special is not None:
            verb = "appends to" if op.startswith(">>") or op == "&>>" else "overwrites"
            scope.add(special.level, special.rule, f"{verb} {special.what}", start, end)
        elif win is not None:
            # `> /mnt/c/Windows/System32/drivers/etc/hosts` (WSL): the Windows file it is
            scope.add(win[0], win[1], f"writes {win[2]}", start, end)
        else:
            # What writes the file is the last command of a redirected pipeline.
            last = _body(body) if body is not None and body.type != "command" else body
            name = _command_name_of(last) if last is not None else ""
            if body is not None and body.type != "command" and last is None:
                name = "?"  # a compound statement writes whatever it prints: not a truncation
            if (
                op in (">", ">|", "&>")
                and name in ("", ":", "true", "echo", "cat")
                and not (name == "echo" and last is not None and last.named_child_count > 1)
                and not (name == "cat" and not _cats_nothing(last))
            ):
                # `> app.log`, `: > app.log`: empties the file, like `truncate -s 0`.
                whole = classify_path(target, scope.cwds, False, scope.start_cwd)
                if whole.level >= RiskLevel.BLOCKED and is_log_dir(target):
                    # (n18u) every log file emptied: a log wipe (critical, session 18)
                    scope.add(
                        RiskLevel.CRITICAL,
                        "log-wipe",
                        f"empties every system log in {target}",
                        start,
                        end,
                    )
                elif whole.level >= RiskLevel.BLOCKED and whole.rule in _WHOLE_SCOPES:
                    # `find ~ | while read f; do : > "$f"; done`: the loop's item stands for
                    # every file of the tree: each one emptied (safety-m8)
                    scope.add(
                        RiskLevel.BLOCKED,
                        "truncate",
                        f"empties every file in {whole.what}",
                        start,
                        end,
                    )
                else:
                    scope.add(RiskLevel.DANGEROUS, "truncate", f"empties {target}", start, end)
            else:
                scope.add(RiskLevel.MODERATE, "write", f"writes to {target}", start, end)
        return None, []

    def _heredoc_backticks(self, text: str, tstart: int) -> None:
        """`cat <<EOF` … `` `cmd` `` …: an unquoted heredoc's backticks run like `$(…)` (the
        grammar leaves them as text)."""
        for m in _BACKTICKS.finditer(text):
            code = re.sub(r"\\([`$\\])", r"\1", m.group(1))
            at = tstart + m.start(1) if tstart >= 0 and code == m.group(1) else -1
            where = Word(code, tstart + m.start() if tstart >= 0 else 0, tstart + m.end())
            self.scope.include(self.scope.nested(code, "bash", where, at))

    def pipeline(self, stages: list[Node], stdin: Stdin, last_stdin: Stdin | None = None) -> Info:
        info = Info()
        first = True
        shell_at: Node | None = None
        stages = [s for s in stages if s.type != "comment"]
        for stage in stages:
            if not first:
                stdin = self._next_stdin(info, stdin, stage)
            if last_stdin is not None and stage is stages[-1]:
                stdin = last_stdin
            if stage.type == "list" and not first:
                # `echo … | xxd -r -p | sh || true`: the grammar hangs the `||` chain on the
                # pipe, but `|` binds tighter: what is piped in feeds the chain's first
                # command, not its last (gen12).
                info = self.list_(stage, stdin, head_stdin=True)
            else:
                info = self.stmt(stage, stdin)
            first = False
            name = _command_name_of(_body(stage))
            if name in SHELLS and shell_at is None:
                shell_at = stage
            elif shell_at is not None and name in _NETCATS:
                # `sh -i 2>&1 | nc host port`: a shell whose output goes to the network.
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "reverse-shell",
                    "pipes a shell's output to a network connection",
                    self.pos.char(shell_at.start_byte),
                    self.pos.char(stage.end_byte),
                )
        if len(stages) > 1 and not info.paths and stdin.paths:
            # `$(lsblk | awk 'NR>1{print $1}')`, `$(vim-cmd vmsvc/getallvms | cut …)`: what
            # the pipeline prints is still what its lister listed (a loop or substitution
            # over it acts on each item), as the next stage of a pipeline would see it.
            out = self._next_stdin(info, stdin, None)
            if out.paths:
                info = attrs.evolve(info, paths=out.paths, names_only=out.names_only)
        return info

    def _next_stdin(self, info: Info, prev: Stdin, stage: Node | None) -> Stdin:
        return dispatch.next_stdin(info, prev)

    # -- commands ------------------------------------------------------------------------

    def command(self, node: Node, stdin: Stdin, late: list[Word] | None = None) -> Info:
        mark = len(self.writes)
        info = self._simple_command(node, stdin, late)
        if len(self.writes) > mark:
            # (f18) `> conftest.py echo …`: a redirect before the command word writes the file
            # too; what the command printed is remembered as for `echo … > conftest.py`
            leading = self.writes[mark:]
            del self.writes[mark:]
            self._remember_written(leading, info, node)
        return info

    def _simple_command(self, node: Node, stdin: Stdin, late: list[Word] | None = None) -> Info:
        words: list[Word] = []
        assigns: list[Node] = []
        opened: dict[int, Stdin] = {}
        opened_stdin = False
        saved_psub = self.psub_stdin
        try:
            stdin, opened_stdin = self._command_words(node, stdin, words, assigns, opened)
        finally:
            self.psub_stdin = saved_psub
        words.extend(late or ())
        held = self.late_for
        if held is not None and held[0] == node.start_byte and held[1] == node.end_byte:
            self.late_for = None
            words.extend(held[2])
        if not words:
            return Info()
        if len(words) > 1 and words[-1].text[-1:] in _EXTGLOB_OPS and not words[-1].dynamic:
            words[-1:] = self._extglob(words[-1])
        if words[0].text == "exec" and all(_FD_VARIABLE.fullmatch(w.text) for w in words[1:]):
            # `exec 3<<<…`, `exec {fd}< <(…)`: the descriptors stay open for what follows
            # (a `{name}` gets a descriptor number of its own in $name).
            for w in words[1:]:
                n = 10 + len(self.scope.fds)
                while n in self.scope.fds:
                    n += 1
                self.scope.env[w.text[1:-1]] = str(n)
                if opened_stdin:
                    opened[n] = stdin
            self._open_fds(opened, stdin if opened_stdin and len(words) == 1 else None)
            return Info(name="exec")
        if stdin is NO_STDIN and 0 in self.scope.fds:
            stdin = self.scope.fds[0]  # after `exec < file`, commands read the file
        if opened:
            saved = self._open_fds(opened, None)
            try:
                return self._command(words, assigns, node, stdin)
            finally:
                self._close_fds(saved)
        return self._command(words, assigns, node, stdin)

    def _extglob(self, word: Word) -> list[Word]:
        """`rm -rf !(proc|sys)`, `~/!(.ssh)`: the grammar reads bash's extglob operator as a
        word ending in `!` followed by a subshell. `!(…)` matches every entry but a few, as
        do `*(*)`/`+(*)`/`@(*)`: the word is that folder's every entry (`*`), so the policy
        on cwd-, home- and root-wide deletes applies; other patterns name a subset (b12)."""
        source = self.scope.source
        end = word.end
        if source[end : end + 1] != "(":
            return [word]
        close = source.find(")", end + 1, end + 256)
        if close < 0:
            return [word]
        pattern = source[end + 1 : close]
        op = word.text[-1]
        if op == "*" and _ZSH_QUALIFIERS.fullmatch(pattern):
            # zsh's glob qualifiers (`*(D)` dot files too, `*(.)` plain files, `**/*(N)`):
            # the glob before them still selects every entry
            text = word.text
        elif op == "!" and word.text[:-1] in ("", "./") and not self._broad_cwd():
            # Every entry of the working directory but a few (`rm -rf !(node_modules)`): a
            # project's clean-up, as `ls | grep -v keep | xargs rm -rf` and `find . ! -name
            # keep -delete` are (dangerous); only when the folder is known to be the root,
            # a home or a system folder (`cd / && rm -rf !(proc|sys)`) is it that folder's
            # wipe. The word stays the pattern (a named subset).
            text = word.text[:-1] + "!(" + pattern + ")"
        elif op == "!" or all(p.strip() in ("*", ".*") for p in pattern.split("|")):
            text = word.text[:-1] + "*"
        elif op in ("@", "+", "?", "*") and "(" not in pattern:
            # `@(usr|etc)`, `+(a|b)`: a list of names is one word per name (`rm -rf
            # /@(usr|etc)` is `rm -rf /usr /etc`, as the brace spelling `/{usr,etc}`);
            # `?(…)`/`*(…)` may also match nothing after a prefix (`x?(.bak)`: x, x.bak).
            prefix = word.text[:-1]
            alts = list(dict.fromkeys(pattern.split("|")))[:32]
            if op in ("?", "*") and prefix and not prefix.endswith("/"):
                alts.insert(0, "")
            return [
                Word(
                    prefix + a,
                    word.start,
                    close + 1,
                    word.dynamic,
                    any(c in prefix + a for c in "*?["),
                    word.origin,
                )
                for a in alts
            ]
        else:
            text = word.text[:-1] + "(" + pattern + ")"
        return [Word(text, word.start, close + 1, word.dynamic, True, word.origin)]

    def _broad_cwd(self) -> bool:
        """The working directory is known to be the root, a home or a system folder."""
        scope = self.scope
        wide = classify_path("*", scope.cwds, False, scope.start_cwd)
        return wide.level >= RiskLevel.BLOCKED and wide.rule != "rm-cwd"

    def _command_words(
        self,
        node: Node,
        stdin: Stdin,
        words: list[Word],
        assigns: list[Node],
        opened: dict[int, Stdin],
    ) -> tuple[Stdin, bool]:
        """The words, prefix assignments and redirects of a simple command (in `words`,
        `assigns`, `opened`); returns its stdin and whether a redirect gave it."""
        opened_stdin = False
        redirects = _REDIRECTS
        kids = node.named_children
        types = [c.type for c in kids]  # (each `.type` makes a new string: read once)
        if not redirects.isdisjoint(types):
            for c, t in zip(kids, types, strict=True):
                if t in redirects:
                    s, _, to_stdin = self.redirect_fd(c, node, opened)
                    if s is not None and to_stdin:
                        stdin = s
                        opened_stdin = True
        if b">(" in budget.node_bytes(node) and _command_name_of(node) == "tee":
            self.psub_stdin = stdin  # `tee >(sh)`: the substitution reads what tee reads
        glued = _glued_backticks(kids, types) if "command_substitution" in types else {}
        for i, (c, t) in enumerate(zip(kids, types, strict=True)):
            if t == "variable_assignment":
                assigns.append(c)
                self.words_of_assignment(c)
                self._command_variable(c)
            elif t == "command_name":
                for cc in c.named_children:
                    words.extend(self.words(cc))
            elif t in redirects or t == "comment" or glued.get(i) == -1:
                continue
            elif i in glued:
                words.append(self._glued_word(kids[i : glued[i]]))
            else:
                words.extend(self.words(c))
        return stdin, opened_stdin

    def _glued_word(self, parts: list[Node]) -> Word:
        """One word the grammar cut in pieces at a backquote (`/boot/x-`uname -r``)."""
        text, dynamic, glob, origin = self._join(parts, False, parts[0])
        start, end = self.pos.char(parts[0].start_byte), self.pos.char(parts[-1].end_byte)
        return Word(text.replace(_SPLIT, " "), start, end, dynamic, glob, origin)

    def _command(self, words: list[Word], assigns: list[Node], node: Node, stdin: Stdin) -> Info:
        if words[0].text == "set" and any(
            w.text == "allexport" or (w.text.startswith("-") and "a" in w.text[1:])
            for w in words[1:]
        ):
            self.scope.exported.add("*")  # `set -a`: every variable set from now is exported
        # `x=rm; $x -rf /` and `rm${IFS}-rf${IFS}/` may leave an empty first word.
        while words and (not words[0].text or words[0].text == "!") and not words[0].dynamic:
            words.pop(0)  # `! ! rm …`: the grammar reads the second `!` as a command name
        if not words:
            return Info()
        if self.scope.env and (
            FUNC_PREFIX + words[0].text in self.scope.env
            or GLOBAL_ALIASES in self.scope.env
            or SUFFIX_ALIASES in self.scope.env
        ):
            done = self._same_shell_definitions(words)
            if done is not None:
                return done
        if words[0].text in ("set", "fish_add_path") and len(words) > 1:
            self._fish_path(words)
        if WRITTEN_IN + words[0].text in self.scope.env and not words[0].dynamic:
            done = self._path_hijack(words, assigns)
            if done is not None:
                return done
        elif (
            assigns
            and "/" not in words[0].text
            and not words[0].dynamic
            and words[0].text not in SHELL_BUILTINS
        ):
            for a in assigns:
                raw = _text(a)
                if raw.startswith("PATH=") and (front := risky_path_front(raw[5:])):
                    # (n20u, F17) `PATH=.:$PATH make`: the name may run a file from there
                    w = words[0]
                    why = f"`{w.text}` may run {front}/{w.text}: {front} is searched first"
                    self.scope.add(RiskLevel.CRITICAL, "alias-hides", why, w.start, w.end)
        if words[0].text in ("cd", "pushd") and len(words) == 1:
            home = self.scope.env.get("HOME", "") if self.scope.env else ""
            # (n20u) `export HOME=/ && cd`: cd goes to the home assigned above
            self.scope.pending_cd = home if home.startswith("/") else "~"
        if (assigns or "TAR_OPTIONS" in self.scope.env) and command_name(words[0].text) in (
            "tar",
            "gtar",
        ):
            words = self._tar_environment(words, assigns)
        if command_name(words[0].text) in _TERRAFORMS:
            words = self._terraform_environment(words, assigns)
        if (assigns or "PYTHONBREAKPOINT" in self.scope.env) and command_name(
            words[0].text
        ).startswith("python"):
            self._breakpoint_hook(words, assigns)
        if command_name(words[0].text) == "git" and (
            assigns or not _GIT_CONFIG_ENV.isdisjoint(self.scope.env)
        ):
            words = self._git_environment(words, assigns)
            if assigns:
                words = self._git_config_env(words, assigns)
        if assigns and command_name(words[0].text) in SHELLS:
            for a in assigns:
                n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
                if (
                    n is not None
                    and v is not None
                    and _text(n) in ("BASH_ENV", "ENV")
                    and unquote(_text(v)) in wrappers.STDIN_FILES
                ):
                    wrappers.startup_from_stdin(self.scope, words[0], stdin)
        head = words[0].text
        if head in _NAME_TAKERS and len(words) > 1:
            if head in ("printf", "test", "["):
                taken = [words[i + 1] for i, w in enumerate(words[:-1]) if w.text == "-v"]
            else:
                taken = [w for w in words[1:] if not w.text.startswith("-")]
            names_ = " ".join(w.text for w in taken if not w.dynamic)
            if "[" in names_ and ("$(" in names_ or "`" in names_):
                self._subscripts_run(names_, node)
        if (
            head in ("let", "declare", "typeset", "local")
            and len(words) > 1
            and self.scope.env
            and (head == "let" or any(w.text.startswith("-") and "i" in w.text for w in words[1:]))
        ):
            # `let "y = v"`, `declare -i n=v`: the arguments are arithmetic.
            self._arith_vars(" ".join(w.text for w in words[1:]), node)
        alias = self.scope.env.get(ALIAS_PREFIX + head) if not words[0].dynamic else None
        if alias is not None and head not in self.calling and _SIMPLE_ALIAS.match(alias):
            # `alias python3='bash -s'; echo … | python3`: a plain command, so its words
            # take the alias's place and the command keeps its stdin.
            try:
                value = [Word(t, words[0].start, words[0].end) for t in shlex.split(alias)]
            except ValueError:
                value = []
            if value:
                self.calling.add(head)
                try:
                    rest = value + words[1:]
                    fn = self.functions.get(rest[0].text)
                    if fn is not None and _calling_key(rest[0].text, fn) not in self.calling:
                        return self._call(rest[0].text, rest[1:], stdin)
                    return dispatch.judge(rest, self.scope, stdin)
                finally:
                    self.calling.discard(head)
        if alias is not None and head not in self.calling:
            # A use of an alias this script defined: bash runs its text instead.
            self.calling.add(head)
            try:
                found = self.scope.nested(
                    alias + " " + " ".join(shlex.quote(w.text) for w in words[1:]),
                    "bash",
                    words[0],
                    -1,
                )
            finally:
                self.calling.discard(head)
            self.scope.include(found)
            return Info()
        if head in ("read", "mapfile", "readarray") and not words[0].dynamic:
            saved_ifs = self.scope.env.get("IFS")
            for a in assigns:  # `IFS=: read …` splits with that IFS
                self.assignment(a)
            self._read_builtin(words, stdin)
            if saved_ifs is None:
                self.scope.env.pop("IFS", None)
            else:
                self.scope.env["IFS"] = saved_ifs
        if head == "printf" and len(words) >= 4 and words[1].text == "-v":
            # `printf -v c 'rm -rf %s' /`: the output goes into the variable, not stdout.
            name = words[2].text
            fmt = words[3]
            out = None
            if not fmt.dynamic and not any(w.dynamic for w in words[4:]):
                out = printf_output(fmt.text, [w.text for w in words[4:]])
            if out is not None and re.fullmatch(r"[A-Za-z_]\w*", name):
                self.scope.env[name] = out
            else:
                self.scope.env.pop(name, None)
                self.scope.assigned.add(name)
        if head == "set" and any(w.text == "--" for w in words[1:]):
            at = next(i for i, w in enumerate(words) if w.text == "--")
            self._positional(words[at + 1 :])
        elif (
            head in self.functions
            and _calling_key(head, self.functions[head]) not in self.calling
            and not words[0].dynamic
            and not self.defining
        ):
            if len(self.calling) >= _MAX_CALL_DEPTH:
                # Not followed further: what it runs is not seen, so it is not safe.
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "nesting",
                    "function calls nested too deeply to follow",
                    words[0].start,
                    words[0].end,
                )
                return Info()
            return self._call(head, words[1:], stdin)
        if assigns and command_name(words[0].text) in SHELLS:
            # `CMD='rm -rf ~' sh -c '$CMD'`: the shell it starts sees these variables.
            return self._with_prefix_variables(assigns, words, stdin)
        return dispatch.judge(words, self.scope, stdin)

    def _with_prefix_variables(self, assigns: list[Node], words: list[Word], stdin: Stdin) -> Info:
        env = self.scope.env
        saved: dict[str, str | None] = {}
        exported = set(self.scope.exported)
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is None:
                continue
            name = _text(n)
            self.scope.exported.add(name)  # `X=… cmd`: in cmd's environment
            value = self.words(v, split=False) if v is not None else []
            saved.setdefault(name, env.get(name))
            if len(value) == 1 and not value[0].dynamic:
                env[name] = value[0].text
            elif not value:
                env[name] = ""
            else:
                env.pop(name, None)
        try:
            return dispatch.judge(words, self.scope, stdin)
        finally:
            self.scope.exported = exported
            for name, old in saved.items():
                if old is None:
                    env.pop(name, None)
                else:
                    env[name] = old

    def _positional(self, args: list[Word]) -> None:
        env = self.scope.env
        for k in [k for k in env if k.isdigit() or k in ("@", "*", "#")]:
            del env[k]
        if any(w.dynamic for w in args):
            return
        for i, w in enumerate(args[:9], 1):
            env[str(i)] = w.text
        env["@"] = env["*"] = _SPLIT.join(w.text for w in args)
        env["#"] = str(len(args))

    def _call(self, name: str, args: list[Word], stdin: Stdin) -> Info:
        """A call of a function this script defined: walk its body with these arguments.

        Functions calling each other (`f2(){ f1; f1; }; f3(){ f2; f2; }; …`) would walk the
        same bodies again and again, exponentially: a call with the same arguments (where
        they stand included) in the same state, whose walk left that state as it found it,
        is walked twice at most; later calls get its findings again and pay the
        budget what the second walk cost (the state's change counters move as a walk would
        move them), so the analysis is cut exactly where walking would cut it."""
        key = self._call_key(name, args, stdin)
        memo = self.call_memo.get(key) if key is not None else None
        if memo is not None and memo.cost >= 0 and budget.affordable(memo.cost):
            budget.spend(memo.cost)
            self.scope.findings.extend(memo.found)
            self.scope.env.version += memo.env_moves  # type: ignore[attr-defined]
            return dispatch.copy_info(memo.info, 0, stdin)
        if key is None:
            return self._walk_call(name, args, stdin)
        mark, spent = len(self.scope.findings), budget.spent()
        env = self.scope.env
        moves = env.version  # type: ignore[attr-defined]
        info = self._walk_call(name, args, stdin)
        if len(self.scope.findings) >= mark and self._call_key(name, args, stdin) == key:
            self.call_memo[key] = _CallMemo(
                tuple(self.scope.findings[mark:]),
                dispatch.copy_info(info, 0, stdin),
                budget.spent() - spent if memo is not None else -1.0,
                env.version - moves,  # type: ignore[attr-defined]
            )
        return info

    def _call_key(self, name: str, args: list[Word], stdin: Stdin) -> object:
        """What a call's walk depends on: the function, its arguments, its stdin and the
        whole state it may read (variables by content: the call itself sets and restores
        the positional parameters). None when that cannot be told."""
        scope = self.scope
        env, written, fds, unseen = scope.env, scope.written, scope.fds, scope.unseen
        if (
            dispatch.memo_state(scope) is None
            or self.out_substs is not None
            or self.psub_stdin is not None
        ):
            return None
        return (
            name,
            # (where the arguments stand too: what is found is where the walk found it)
            tuple((w.text, w.start, w.end, w.dynamic, w.glob, w.origin) for w in args),
            stdin,
            frozenset(env.items()),
            # what the walk may change, by change counter: a walk that changes any of them
            # is not reused (its key afterwards differs)
            (fds.version, written.version, unseen.version),  # type: ignore[attr-defined]
            self.functions.version,
            scope.cwds,
            scope.pending_cd,
            scope.errexit,
            frozenset(scope.assigned),
            frozenset(scope.downloaded),
            frozenset(scope.exported),
            frozenset(self.calling),
            self.defining,
            self.toggles,
            tuple(self.writes),
            scope.spawning,
            scope.wrapped,
            scope.start_cwd,
        )

    def _walk_call(self, name: str, args: list[Word], stdin: Stdin) -> Info:
        saved = {k: v for k, v in self.scope.env.items() if k.isdigit() or k in ("@", "*", "#")}
        self._positional(args)
        body = self.functions[name]
        key = _calling_key(name, body)
        self.calling.add(key)
        cwds = self.scope.cwds
        try:
            return self.stmt(body, stdin)
        finally:
            self.calling.discard(key)
            self.scope.cwds = cwds
            self._positional([])
            self.scope.env.update(saved)

    def assignment(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if name_node.type == "subscript":
            index = name_node.child_by_field_name("index")
            if index is not None:
                self._arith_vars(_text(index), node)  # `a[k]=1`: the subscript is arithmetic
                if "$(" in _text(index) or "`" in _text(index):
                    self.value(index, False)  # (n17u) `a[$(rm -rf ~)]=1`: it runs
            if (m := _ZSH_DEFINER.fullmatch(_text(name_node))) is not None and value is not None:
                self._zsh_definition(m.group(1), m.group(2).strip("'\""), value, node)
                return
        name = _text(name_node)
        if (
            name_node.type == "subscript"
            and value is not None
            and not name.startswith("BASH_CMDS[")  # bash's hash table: its own reader below
            and self._element_set(name, value)
        ):
            return
        name = self.scope.env.get(_NAMEREF + name, name)  # assigning through a nameref
        if name.startswith("BASH_CMDS") and value is not None:
            # bash's command hash table written directly, as `hash -p` (r15)
            wrappers.bash_cmds_assigned(self.scope, name, _text(value))
        if value is None:
            self.scope.env[name] = ""
            return
        appends = (
            "+="
            in self.scope.source[
                self.pos.char(name_node.end_byte) : self.pos.char(value.start_byte)
            ]
        )
        if value.type == "array" and name == "path":
            # zsh's `path=(/tmp/b $path)` is PATH as an array (n14u)
            folders = [
                self.scope.env.get("PATH", _KNOWN_VARS["PATH"])
                if _text(c) in ("$path", "${path[@]}", '"${path[@]}"', "$PATH")
                else w.text
                for c in value.named_children
                for w in self.words(c)
            ]
            self.scope.env["PATH"] = ":".join(folders).replace("\x01", ":").replace(" ", ":")
            # (u21) as `PATH=…`: a folder anyone may write searched first makes later bare
            # names suspect (an ordinary folder first stays as n14u labelled it)
            front = risky_path_front(self.scope.env["PATH"])
            if front:
                self.scope.env[PATH_FRONT] = front
            else:
                self.scope.env.pop(PATH_FRONT, None)
        if value.type == "array":
            # `cmd=(rm -rf /)`: keep the elements apart so "${cmd[@]}" splits again.
            items = [w for c in value.named_children for w in self.words(c)]
            if items and items[0].text.startswith("["):
                for key, w in _named_keys(items):
                    self.scope.env[f"{name}[{key}]"] = w.text  # (u22) `declare -A t=([k]=v)`
                items = _keyed_elements(items)
            if any("{" in w.text for w in items):
                # (f19) `x=({/usr,/var}/lib)`: each element brace-expanded, as bash does
                items = dispatch.brace_expand(items, self.scope.source)
            if name == "PROMPT_COMMAND" and items:
                # (n19u) bash 5.1's array form: each element runs before every prompt
                s, e = self.pos.char(value.start_byte), self.pos.char(value.end_byte)
                static = all(not w.dynamic for w in items)
                joined = "\n".join(w.text for w in items)
                self._check_hook_variable(name, Word(joined, s, e, not static), node)
            before = self.scope.env.get(name) if appends else ""
            if before is None and name not in self.scope.assigned and name.isidentifier():
                before = ""  # (u22) `a+=(/)` on a name never set: an array of what is added
            if not items and not value.named_children and before is not None:
                self.scope.env[name] = before  # (f19) `arr=()`: known and empty
                return
            if items and not any(w.dynamic for w in items) and before is not None:
                # (`arr+=(/usr)` adds to what the array held, safety-m8)
                self.scope.env[name] = _SPLIT.join(
                    [*([before] if before else []), *(w.text for w in items)]
                )
            else:
                self.scope.env.pop(name, None)
                self.scope.assigned.add(name)
            return
        words = self.words(value, split=False)
        if name in ("HISTFILESIZE", "SAVEHIST") and [w.text for w in words] == ["0"]:
            # bash truncates the history file as soon as HISTFILESIZE is set (zsh when it
            # exits with SAVEHIST=0): the record of what ran is wiped, as `history -c`.
            s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
            self.scope.add(
                RiskLevel.DANGEROUS, "history-wipe", "empties the shell history file", s, e
            )
        if len(words) == 1 and words[0].text.startswith("() {"):
            self._shellshock(name, words[0])
        if len(words) == 1 and not words[0].dynamic:
            self.scope.env[name] = words[0].text
            self._check_hook_variable(name, words[0], node)
            if name in PROMPT_VARS:
                self._prompt_variable(words[0])
            elif (
                name in _COMMAND_VARS and (name not in _HOOK_VARS or name == "GIT_SSH_COMMAND")
            ) or name in PERL_CODE_VARS:
                # `export PAGER='rm -rf ~'; man ls`, `FZF_DEFAULT_COMMAND=…; fzf`: the value is
                # run by a later program, as in a prefix assignment (safety-m9); git's ssh
                # command too, however it is exported (`typeset -x`, `declare -x`, `set -a`)
                # (n13u)
                self._command_variable(node)
            elif name in CONFIG_FILE_VARS or name == "PYTHONBREAKPOINT":
                self._config_file_variable(name, words[0], node)
            elif name in OPTION_VARS:
                self._option_variable(name, words[0], node)
            elif is_build_program_var(name):
                self.scope.include(build_program_findings(self.scope, name, words[0]))
            elif name in COMPILER_FLAG_VARS:
                self.scope.include(compiler_plugin_findings(self.scope, name, words[0]))
            if name in INTERPRETER_OPTION_VARS:
                self.scope.include(interpreter_option_findings(self.scope, name, words[0]))
            elif "-XX:On" in words[0].text and _OPTIONS_NAME.search(name):
                # (n19u) any launcher's JVM options variable (JAVA_OPTIONS, LEIN_JVM_OPTS,
                # JRUBY_OPTS='-J-XX:OnError=…'): the JVM's event hooks run their command
                self.scope.include(jvm_event_findings(self.scope, words[0].text, words[0], name))
        elif len(words) == 1 and words[0].origin in ("static", "decoded"):
            # `c=$(printf 'rm -rf /')`, `o=$(echo L2V0Yw== | base64 -d)`: the text is known.
            self.scope.env[name] = words[0].text.rstrip("\n")
        else:
            self.scope.env.pop(name, None)
            self.scope.assigned.add(name)
            if name in _HOOK_VARS and words:
                self._check_hook_variable(name, words[0], node)
            if (name in CONFIG_FILE_VARS or name == "PYTHONBREAKPOINT") and words:
                self._config_file_variable(name, words[0], node)

    def _element_set(self, target: str, value: Node) -> bool:
        """(f19) `arr[1]=/etc`: one element of a known array set to a literal (the array's
        "${arr[@]}" holds it afterwards). True if handled."""
        array, _, index = target.partition("[")
        key = index[:-1].strip("'\"")
        if (
            target.endswith("]")
            and array.isidentifier()
            and not key.isdigit()
            and _ASSOC_KEY.fullmatch(key)
        ):
            # (u22) `t[k]=/etc/passwd`: an associative array's element, read by `${t[k]}`
            words = self.words(value, split=False)
            if len(words) == 1 and not words[0].dynamic:
                self.scope.env[f"{array}[{key}]"] = words[0].text
                held = self.scope.env.get(array)
                self.scope.env[array] = _SPLIT.join(x for x in (held, words[0].text) if x)
            else:
                self.scope.env.pop(f"{array}[{key}]", None)
                self.scope.env.pop(array, None)
            return True
        if not (
            target.endswith("]")
            and array.isidentifier()
            and index[:-1].isdigit()
            and len(index) <= 4
            and index[:-1].isascii()
        ):
            return False
        words = self.words(value, split=False)
        held = self.scope.env.get(array, "")
        if len(words) != 1 or words[0].dynamic or array in self.scope.assigned:
            self.scope.env.pop(array, None)
            return False
        items = held.split(_SPLIT) if held else []
        k = int(index[:-1])
        items += [""] * (k + 1 - len(items))
        items[k] = words[0].text
        self.scope.env[array] = _SPLIT.join(i for i in items if i)
        return True

    def _sibling_assignments(self, node: Node) -> dict[str, str]:
        """The other prefix assignments of the command `node` belongs to, as written (quotes
        taken off): `PERL5LIB=/tmp/x PERL5OPT=-MEvil perl …` (n12u)."""
        out: dict[str, str] = {}
        parent = node.parent
        if parent is None or parent.type != "command":
            return out
        for c in parent.children[:16]:
            if c.type == "variable_assignment" and c is not node:
                n, v = c.child_by_field_name("name"), c.child_by_field_name("value")
                if n is not None and v is not None:
                    out[_text(n)] = _text(v).strip("'\"")
        return out

    def _option_variable(self, name: str, value: Word, node: Node) -> None:
        """`MANOPT='-P /tmp/p' man ls`, `LESS='+!rm -rf ~' less x`, `ZIPOPT='-TT …'`: the
        program reads its default options from the variable; they are judged as if given
        on its command line (a `+command` of less runs to the end of the value)."""
        program = OPTION_VARS[name]
        if value.dynamic:
            if "$(" in value.text or "`" in value.text:
                s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "config-exec",
                    f"{name} gives {program} options only known at run time",
                    s,
                    e,
                )
            return
        text = value.text.strip()
        if program.endswith("=") and text:
            # `npm_config_script_shell=/tmp/x npm test`: the value of one option
            line = f"{program}{shlex.quote(text)} x"
            found = self.scope.nested(line, "bash", value, -1)
            if max((f.level for f in found), default=RiskLevel.SAFE) >= RiskLevel.CRITICAL:
                self.scope.include(found)
            return
        if not text or not (
            # (r18) make reads `VAR=value` words in MAKEFLAGS as command-line variables:
            # `MAKEFLAGS='SHELL=./x.sh' make` as `make SHELL=./x.sh`
            any(c in text for c in "+-") or (program == "make" and "=" in text)
        ):
            return
        if program == "make" and ("--eval" in text or "-E" in text):
            # `MAKEFLAGS='--eval=$(shell rm -rf ~)'`: the text to evaluate runs to the end
            # of the value (make splits the rest at unescaped blanks; read it whole).
            at = max(text.find("--eval"), text.find("-E"))
            value_text = re.sub(r"\A(?:--eval|-E)[= ]?", "", text[at:]).replace("\\ ", " ")
            text = text[:at] + " --eval=" + shlex.quote(value_text)
            line = f"make {text} x"
            found = self.scope.nested(line, "bash", value, -1)
            if max((f.level for f in found), default=RiskLevel.SAFE) >= RiskLevel.CRITICAL:
                self.scope.include(found)
            return
        head, plus, tail = text.partition("+") if program == "less" else (text, "", "")
        try:
            words = shlex.split(head)
        except ValueError:
            words = head.split()
        if program == "go test":
            # (n19u) `GOFLAGS='-exec=rm -rf ~;'`: the words up to the next flag read as the
            # command too, as whoever wrote it meant (go itself splits at blanks)
            words = _go_intent(words)
        if plus:
            words.append("+" + tail)
        line = " ".join([program, *(shlex.quote(w) for w in words[:32]), "x"])
        found = self.scope.nested(line, "bash", value, -1)
        if max((f.level for f in found), default=RiskLevel.SAFE) >= RiskLevel.CRITICAL:
            self.scope.include(found)

    def _breakpoint_hook(self, words: list[Word], assigns: list[Node]) -> None:
        """`PYTHONBREAKPOINT=os.system python3 -c 'breakpoint("rm -rf ~")'`: every
        `breakpoint(…)` in the code calls the named callable with its arguments; the code is
        judged with that call written out (n11u)."""
        hook = self.scope.env.get("PYTHONBREAKPOINT")
        for a in assigns:
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is not None and v is not None and _text(n) == "PYTHONBREAKPOINT":
                ws = self.words(v, split=False)[:1]
                hook = ws[0].text if ws and not ws[0].dynamic else None
        if not hook or not _CALLABLE.fullmatch(hook) or "." not in hook:
            return
        code = next((words[k + 1] for k in range(1, len(words) - 1) if words[k].text == "-c"), None)
        if code is None or code.dynamic or "breakpoint(" not in code.text:
            return
        module = hook.rsplit(".", 1)[0]
        text = f"import {module}\n" + code.text.replace("breakpoint(", hook + "(")
        found = self.scope.nested(f"python3 -c {shlex.quote(text)}", "bash", code, -1)
        if max((f.level for f in found), default=RiskLevel.SAFE) >= RiskLevel.DANGEROUS:
            self.scope.include(found)

    def _config_file_variable(self, name: str, value: Word, node: Node) -> None:
        """`RIPGREP_CONFIG_PATH=./.rgrc rg x`, `PSQLRC=/tmp/r psql`, `PYTHONBREAKPOINT=m.f`:
        a program reads options or start-up code from a file (or calls a callable) the
        analyser cannot read; they can run commands (ripgrep's --pre, psql's \\!), so it is
        opaque: critical. The user's own files under home stay moderate; a file this block
        wrote is judged by what it holds (n11u)."""
        text = value.text.strip().strip("\"'")
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        if name == "PYTHONBREAKPOINT":
            module = text.split(".", 1)[0]
            if value.dynamic or ("." in text and module not in BREAKPOINT_DEBUGGERS):
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "config-exec",
                    f"PYTHONBREAKPOINT makes every breakpoint() call {text or 'a computed name'},"
                    " code the analyser cannot see",
                    s,
                    e,
                )
            return
        if not text or text == "/dev/null":
            return
        written = None if value.dynamic else self.scope.written.get(text.rsplit("/", 1)[-1])
        if written is not None and name == "RIPGREP_CONFIG_PATH":
            # one option a line (ripgrep's config format): judged as ripgrep's own words
            lines = [ln.strip() for ln in written[0].splitlines()]
            opts = [ln for ln in lines if ln and not ln.startswith("#")][:32]
            line = "rg " + " ".join(shlex.quote(o) for o in opts) + " x"
            self.scope.include(self.scope.nested(line, "bash", value, -1))
            return
        if written is not None and name in _CODE_STARTUP:
            # (f18) `PYTHONSTARTUP=~/.pythonrc.py python3 -i` after writing it: the file is
            # code the interpreter runs at start, judged as that code
            lang = _CODE_STARTUP[name]
            found = inline.code_findings(self.scope, written[0], value, lang, f"the {name} file")
            self.scope.include([f for f in found if f.level >= RiskLevel.DANGEROUS])
        own = _OWN_CONFIG_PLACE.match(text) is not None
        if written is not None or own:
            self.scope.add(
                RiskLevel.MODERATE,
                "env-hook",
                f"{name} makes a program read settings or start-up code from {text}",
                s,
                e,
            )
            return
        self.scope.add(
            RiskLevel.CRITICAL,
            "config-exec",
            f"{name} makes a program read settings or start-up code from"
            f" {text if not value.dynamic else 'a computed place'}, which the analyser cannot"
            " read (it can name commands to run)",
            s,
            e,
        )

    def _shellshock(self, name: str, value: Word) -> None:
        """`X='() { :;}; rm -rf /' bash -c :`: bash before 4.3 ran what follows a function
        definition in an environment variable (Shellshock, CVE-2014-6271); judge it."""
        found = self.scope.nested(value.text[2:].lstrip(), "bash", value, -1)
        self.scope.include(found)
        self.scope.add(
            RiskLevel.CRITICAL,
            "shellshock",
            f"{name} holds a function definition followed by commands (Shellshock)",
            value.start,
            value.end,
        )

    def _read_builtin(self, words: list[Word], stdin: Stdin) -> None:
        """`read -r a b <<< 'rm -rf'`, `mapfile -t a <<< …`: variables take known text."""
        head = words[0].text
        known = stdin.kind == STDIN_STATIC
        if head in ("mapfile", "readarray"):
            texts = [w.text for w in words[1:]]
            valued = {"-d", "-n", "-O", "-s", "-u", "-C", "-c"}
            ops = [
                t
                for k, t in enumerate(texts)
                if not t.startswith("-") and not (k and texts[k - 1] in valued)
            ]
            name = ops[-1] if ops else "MAPFILE"
            delim = "\n"
            if "-d" in texts and texts.index("-d") + 1 < len(texts):
                delim = texts[texts.index("-d") + 1] or "\x00"  # (`-d ' '`, safety-m8)
            if known and len(delim) == 1:
                lines = stdin.text.split(delim)
                if lines and not lines[-1]:
                    lines.pop()
                lines = [ln.strip("\n") if delim != "\n" else ln for ln in lines]
                self.scope.env[name] = _SPLIT.join(ln for ln in lines if ln)
            elif stdin.paths and not stdin.names_only and not any(p.dynamic for p in stdin.paths):
                # (f19) `mapfile -t a < /tmp/all` after `find ~ > /tmp/all`, `readarray -t a
                # < <(ls -d /*)`: the array holds every listed path
                self.scope.env[name] = _SPLIT.join(p.text for p in stdin.paths)
            else:
                self.scope.env.pop(name, None)
            return
        names: list[str] = []
        skip = False
        for w in words[1:]:
            if skip:
                skip = False
                continue
            if w.text in ("-p", "-d", "-n", "-N", "-t", "-u", "-i", "-a"):
                # (u22) `-a NAME`: the next word is the array's name, not a value to skip
                skip = w.text != "-a"
                if w.text == "-a" and "\x00array" not in names:
                    names.insert(0, "\x00array")
                continue
            if re.fullmatch(r"-[a-zA-Z]+", w.text) and w.text[-1] in "pdnNtuia":
                # `read -ra parts`: bundled switches, the last one takes the next word (m8)
                skip = w.text[-1] != "a"
                if w.text[-1] == "a" and "\x00array" not in names:
                    names.insert(0, "\x00array")
                continue
            if w.text.startswith("-"):
                continue
            names.append(w.text)
        if names and names[0] == "\x00array" and len(names) > 1:
            ifs = self.scope.env.get("IFS", " \t\n") or " "
            # (u22) `read -d '' -a arr`: the "line" runs to the NUL (or the -d character)
            _, delim = _read_names([w.text for w in words[1:]])
            line = stdin.text.split(delim, 1)[0] if known else None
            if line is None:
                self.scope.env.pop(names[1], None)
            else:
                parts = [p for p in re.split("[" + re.escape(ifs) + "]+", line) if p]
                self.scope.env[names[1]] = _SPLIT.join(parts)
            return
        names = names or ["REPLY"]
        self.scope.assigned.update(names)
        if not known:
            for n in names:
                self.scope.env.pop(n, None)
            return
        line = stdin.text.split("\n", 1)[0]
        ifs = self.scope.env.get("IFS", " \t\n")
        if ifs == "" or len(names) == 1:
            parts = [line if ifs == "" else line.strip(" \t")]
        else:
            parts = re.split(
                "[" + re.escape(ifs) + "]+", line.strip(" \t"), maxsplit=len(names) - 1
            )
        for i, n in enumerate(names):
            self.scope.env[n] = parts[i] if i < len(parts) else ""

    def _command_variable(self, node: Node) -> None:
        """`PAGER='…' man ls`, `GIT_SSH_COMMAND=… git fetch`, `LESSOPEN='|…'`: a variable
        whose value a program runs as a shell command; judge the value as code."""
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None or value is None:
            return
        name = _text(name_node)
        if name in PROMPT_VARS:
            self._prompt_variable(*self.words(value, split=False)[:1])
            return
        if name in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "LD_AUDIT"):
            # `LD_PRELOAD=/tmp/x.so ls`: the library runs inside the program (safety-art6).
            lib = self.words(value, split=False)[:1]
            risk = system.preload_risk(
                name, lib[0].text if lib else "", bool(lib) and lib[0].dynamic
            )
            if risk is not None:
                s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
                self.scope.add(risk[0], risk[1], risk[2], s, e)
            return
        if is_code_load_var(name):
            # (n18u) code a runtime loads before the program: Lua's LUA_INIT (code, or
            # `@file`), .NET's startup hooks and profilers (assemblies nobody here read)
            cw = self.words(value, split=False)[:1]
            if cw and cw[0].text.strip():
                self._code_load_variable(name, cw[0], node)
            return
        if name in CONFIG_FILE_VARS or name == "PYTHONBREAKPOINT":
            cw = self.words(value, split=False)[:1]
            if cw:
                self._config_file_variable(name, cw[0], node)
            if name not in _HOOK_VARS:
                return
        if name in OPTION_VARS:
            ow = self.words(value, split=False)[:1]
            if ow:
                self._option_variable(name, ow[0], node)
            return
        if name in COMPILER_FLAG_VARS:
            fw = self.words(value, split=False)[:1]
            if fw:
                self.scope.include(compiler_plugin_findings(self.scope, name, fw[0]))
            return
        if is_build_program_var(name):
            bw = self.words(value, split=False)[:1]
            if bw:
                self.scope.include(build_program_findings(self.scope, name, bw[0]))
            return
        if name in INTERPRETER_OPTION_VARS:
            iw = self.words(value, split=False)[:1]
            if iw:
                given = self._sibling_assignments(node)
                self.scope.include(interpreter_option_findings(self.scope, name, iw[0], given))
            return
        if "-XX:On" in _text(value) and _OPTIONS_NAME.search(name):
            # (n19u) `JRUBY_OPTS='-J-XX:OnError=rm -rf ~' jruby …`: as above
            jw = self.words(value, split=False)[:1]
            if jw and not jw[0].dynamic:
                self.scope.include(jvm_event_findings(self.scope, jw[0].text, jw[0], name))
            return
        if name in PERL_CODE_VARS:
            # `PERL5DB='BEGIN{system(…)}' perl -d …`: the debugger hook is Perl code
            pw = self.words(value, split=False)[:1]
            if pw and not pw[0].dynamic:
                self.scope.include(
                    inline.code_findings(self.scope, pw[0].text, pw[0], "perl", f"{name} code")
                )
            elif pw:
                s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "config-exec",
                    f"{name} runs code only known at run time",
                    s,
                    e,
                )
            return
        if name not in _COMMAND_VARS:
            if _text(value).lstrip("'\"").startswith("() {"):
                shock = self.words(value, split=False)
                if shock:
                    self._shellshock(name, shock[0])
            return
        words = self.words(value, split=False)
        if not words:
            return
        word = words[0]
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        if name in ("BASH_ENV", "ENV"):
            # Not code but the name of a file every non-interactive shell runs first.
            self._check_hook_variable(name, word, node)
            return
        if word.dynamic:
            self.scope.add(
                RiskLevel.CRITICAL,
                "config-exec",
                f"{name} makes the program run a command only known at run time",
                s,
                e,
            )
            return
        code = word.text.strip()
        if name.startswith("LESS"):
            code = code.lstrip("|").replace("%s", "file")
        if name == "GIT_SEQUENCE_EDITOR" and _TODO_DROP.search(code):
            # `GIT_SEQUENCE_EDITOR="sed -i 's/^pick/drop/'" git rebase -i`: the todo list is
            # rewritten so the rebase drops the commits (they leave the branch's history).
            self.scope.add(
                RiskLevel.DANGEROUS,
                "git-drop-commits",
                "GIT_SEQUENCE_EDITOR rewrites the rebase list to drop commits",
                s,
                e,
            )
        found = self.scope.nested(code, "bash", word, -1)
        level = max((f.level for f in found), default=RiskLevel.SAFE)
        if level < RiskLevel.CRITICAL and (
            any(f.rule == "shell" for f in found) or starts_shell(code) is not None
        ):
            # `PAGER='sh 0<&2' git log`, `LESSOPEN='|bash -c … %s'`: the program hands out a
            # shell, whatever it then runs (session-14 hook convention).
            self.scope.include(found)
            self.scope.add(RiskLevel.CRITICAL, "config-exec", f"{name} starts a shell", s, e)
        elif level >= RiskLevel.DANGEROUS:
            self.scope.include(found)
            self.scope.add(
                max(level, RiskLevel.CRITICAL),
                "config-exec",
                f"{name} makes the program run a {level.label} command",
                s,
                e,
            )
        elif (hidden := unreadable_program(found)) is not None:
            # `LESSOPEN='|/tmp/f.sh %s' less x`, `GIT_EXTERNAL_DIFF=./d.sh git diff`: what the
            # hook runs is a local program the analyser cannot read: opaque (n11u).
            self.scope.include(found)
            self.scope.add(
                RiskLevel.CRITICAL,
                "config-exec",
                f"{name} makes the program run {hidden}, which the analyser cannot read",
                s,
                e,
            )

    def _prompt_variable(self, value: Word | None = None) -> None:
        """`PS4='$(…)' bash -x`, `PS1='`…`' bash -i`: the shell expands a prompt string like
        double-quoted text each time it shows it, so its substitutions run: judge them."""
        if value is None or value.dynamic:
            return
        text = value.text
        if "`" not in text and "$(" not in text and "${" not in text:
            return
        self._expanded_text(value)

    def _expanded_text(self, value: Word) -> None:
        """Judge the substitutions `value`'s text runs when the shell expands it like
        double-quoted text (read as an unquoted heredoc's body)."""
        text = value.text
        fence = "__EXPANDED_END__"
        while fence in text:
            fence += "_"
        self.scope.include(self.scope.nested(f"cat <<{fence}\n{text}\n{fence}\n", "bash", value))

    def _subscripts_run(self, text: str, node: Node) -> None:
        """`unset 'x[$(…)]'`, `let 'y[$(…)]=1'`, `printf -v 'a[$(…)]'`, `read 'a[…]'`,
        `[[ -v 'a[…]' ]]`: builtins that take a variable name expand an indexed array's
        subscript, quotes or not, so its substitutions run."""
        for m in _SUBSCRIPTED.finditer(text):
            inner = m.group(1)
            if "$(" in inner or "`" in inner:
                s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
                self._expanded_text(Word(inner, s, e))

    def _arith_vars(self, text: str, node: Node, depth: int = 0) -> None:
        """Arithmetic (`$(( x ))`, `(( x ))`, `let`, `[[ x -eq 1 ]]`, an indexed array's
        subscript) evaluates a variable's value as an expression in its turn, and an array
        subscript inside it is expanded: `x='a[$(rm -rf ~)]'; (( x ))` runs the `$(…)`.
        Judge what the variables named in `text` hold."""
        if not self.scope.env:
            return
        budget.tick()
        seen = 0
        for name in dict.fromkeys(_IDENT.findall(text)):
            value = self.scope.env.get(name)
            if not value:
                continue
            seen += 1
            if seen > 16:
                break
            if "$(" in value or "`" in value:
                s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
                self._expanded_text(Word(value, s, e))
            elif depth < 3 and _IDENT.search(value):
                self._arith_vars(value, node, depth + 1)

    def _code_load_variable(self, name: str, value: Word, node: Node) -> None:
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        text = value.text.strip()
        if name in VIM_INIT_VARS:
            # `VIMINIT=':!rm -rf ~' vim`: Ex commands vim runs first, as `vim --cmd …`
            if value.dynamic:
                self.scope.add(
                    RiskLevel.CRITICAL, "eval-dynamic", f"{name} is only known at run time", s, e
                )
            else:
                line = f"vim --cmd {shlex.quote(text)}"
                found = self.scope.nested(line, "bash", Word(text, s, e), -1)
                self.scope.include([f for f in found if f.level >= RiskLevel.DANGEROUS])
            return
        if name.startswith("LUA_INIT") and not value.dynamic and not text.startswith("@"):
            where = Word(text, s, e)
            self.scope.include(inline.code_findings(self.scope, text, where, "lua", "LUA_INIT"))
            return
        path = text.removeprefix("@")
        code = None if value.dynamic else wrappers.written_text(self.scope, path)
        if code is not None and name.startswith("LUA_INIT"):
            where = Word(code, s, e)
            self.scope.include(inline.code_findings(self.scope, code, where, "lua", "LUA_INIT"))
            return
        self.scope.add(
            RiskLevel.CRITICAL,
            "preload",
            f"{name} loads {path or 'code'} into the program, code the analyser cannot read",
            s,
            e,
        )

    def _check_hook_variable(self, name: str, value: Word, node: Node) -> None:
        """PATH, LD_PRELOAD, PROMPT_COMMAND…: change what later commands run."""
        if is_code_load_var(name) and value.text.strip():
            self._code_load_variable(name, value, node)  # `export DOTNET_STARTUP_HOOKS=…`
            return
        if name not in _HOOK_VARS:
            return
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        if name == "PATH":
            # (n20u, F17) `PATH=/tmp/b:$PATH`: a temporary, relative or hidden folder searched
            # first; the commands run by bare name after it may be files from there
            first = risky_path_front(value.text)
            if first:
                self.scope.env[PATH_FRONT] = first
            else:
                self.scope.env.pop(PATH_FRONT, None)
        if (
            name == "PROMPT_COMMAND"
            and value.dynamic
            and value.origin not in (ORIGIN_SUBST, ORIGIN_NETWORK)
            and "PROMPT_COMMAND" in value.text
        ):
            # (n19u) `PROMPT_COMMAND="$PROMPT_COMMAND; rm -rf ~"`: the old value runs as it
            # did; what is added is judged as a new prompt command
            added = _PROMPT_SELF.sub("", value.text).strip(" \t\n;")
            if added and "PROMPT_COMMAND" not in added:
                value = Word(added, value.start, value.end)
        risk = system.preload_risk(name, value.text, value.dynamic)
        if risk is not None and risk[0] >= RiskLevel.CRITICAL:
            # `export LD_PRELOAD=/tmp/x.so`: every later program loads the library first, as
            # `LD_PRELOAD=/tmp/x.so ls` does for one (gen10).
            lib = value.text or "a library"
            reason = f"{name} makes every later program load {lib} before its own code"
            self.scope.add(risk[0], risk[1], reason, s, e)
            return
        if name in _TLS_OFF and value.text.lower() in _TLS_OFF[name]:
            self.scope.add(
                RiskLevel.CRITICAL,
                "disable-security",
                f"{name} turns off TLS certificate checks",
                s,
                e,
            )
            return
        if (
            name in ("BASH_ENV", "ENV", "PROMPT_COMMAND")
            and value.dynamic
            and value.origin in (ORIGIN_SUBST, ORIGIN_NETWORK)
        ):
            self.scope.add(
                RiskLevel.CRITICAL,
                "config-exec",
                f"{name} makes shells run code only known at run time",
                self.pos.char(node.start_byte),
                self.pos.char(node.end_byte),
            )
            return
        if name in ("BASH_ENV", "ENV") and value.dynamic and value.origin in ("static", "decoded"):
            # `BASH_ENV=<(echo …)`: the startup file's text is known; it is code.
            value = Word(value.text, value.start, value.end)
        elif name in ("BASH_ENV", "ENV") and not value.dynamic:
            written = self.scope.written.get(value.text.rsplit("/", 1)[-1])
            if written is None:
                if not value.text.strip():
                    return  # `BASH_ENV= bash …`: no startup file
                own = value.text.rsplit("/", 1)[-1] in _OWN_STARTUP or value.text in (
                    "/dev/stdin",
                    "/dev/fd/0",
                    "/proc/self/fd/0",
                )  # (standard input: what feeds it is judged where it is known)
                self.scope.add(
                    RiskLevel.MODERATE if own else RiskLevel.CRITICAL,
                    "env-hook" if own else "config-exec",
                    f"{name} makes every new shell run the file {value.text} first"
                    + ("" if own else ", which the analyser cannot read"),
                    self.pos.char(node.start_byte),
                    self.pos.char(node.end_byte),
                )
                return
            value = Word(written[0], value.start, value.end)
        if name in ("PROMPT_COMMAND", "BASH_ENV", "ENV") and not value.dynamic:
            found = self.scope.nested(value.text, "bash", value, -1)
            level = max((f.level for f in found), default=RiskLevel.SAFE)
            if level >= RiskLevel.BLOCKED:
                self.scope.include(found)
            if level >= RiskLevel.DANGEROUS:
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "alias-hides",
                    f"{name} runs a {level.label} command later",
                    s,
                    e,
                )
                return
            if name == "PROMPT_COMMAND" and (hidden := unreadable_program(found)) is not None:
                # `export PROMPT_COMMAND=/tmp/x`: runs before every prompt (n11u)
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "config-exec",
                    f"PROMPT_COMMAND runs {hidden} before every prompt, which the analyser"
                    " cannot read",
                    s,
                    e,
                )
                return
        self.scope.add(
            RiskLevel.MODERATE, "env-hook", f"{name} changes what later commands run", s, e
        )

    def words_of_assignment(self, node: Node) -> None:
        value = node.child_by_field_name("value")
        if value is not None:
            self.words(value, split=False)

    def declaration(self, node: Node) -> Info:
        keyword = _text(node.children[0]) if node.children else ""
        flags = [
            _text(c) for c in node.named_children if c.type == "word" and _text(c).startswith("-")
        ]
        raw = _text(node)
        if ("$(" in raw or "`" in raw) and "[" in raw:
            self._subscripts_run(raw, node)  # `declare -i 'a[$(…)]'`, `local 'x[$(…)]'=1`
        if self.scope.env and any("i" in f for f in flags):
            self._arith_vars(raw, node)  # `declare -i n=v`: the value is arithmetic
        exports = keyword == "export" or (
            keyword in ("declare", "typeset") and any("x" in f for f in flags)
        )
        nameref = keyword in ("declare", "typeset", "local") and any("n" in f for f in flags)
        for c in node.named_children:
            if nameref and c.type == "variable_assignment":
                # `declare -n r=x`: r names x; `$r` reads and `r=…` writes x.
                n, v = c.child_by_field_name("name"), c.child_by_field_name("value")
                target = self.words(v, split=False) if v is not None else []
                if (
                    n is not None
                    and len(target) == 1
                    and not target[0].dynamic
                    and re.fullmatch(r"[A-Za-z_]\w*", target[0].text)
                ):
                    self.scope.env.pop(_text(n), None)
                    self.scope.env[_NAMEREF + _text(n)] = target[0].text
                    continue
            if exports and c.type in ("variable_assignment", "variable_name"):
                n = c.child_by_field_name("name") if c.type == "variable_assignment" else c
                if n is not None:
                    self.scope.exported.add(_text(n))
            if c.type == "variable_assignment":
                self.assignment(c)
                if _text(c).startswith(
                    ("HISTFILE=", "HISTSIZE=0", "HISTFILESIZE=0", "HISTIGNORE=")
                ):
                    s, e = self.pos.char(c.start_byte), self.pos.char(c.end_byte)
                    self.scope.add(RiskLevel.MODERATE, "history", "turns off shell history", s, e)
            elif c.type == "variable_name" and (
                keyword in ("declare", "typeset", "local")
                and any("a" in f or "A" in f for f in flags)
                and _text(c) not in self.scope.env
                and _text(c) not in self.scope.assigned
            ):
                self.scope.env[_text(c)] = ""  # (u22) `declare -a a`: a new, empty array
            elif c.type == "variable_name":
                self.scope.assigned.add(_text(c))  # `export X`, `local x`: may hold a value
                value = self.scope.env.get(_text(c)) if exports else None
                if value is not None and (_text(c) in COMMAND_VARS or _text(c) in HOOK_VARS):
                    # `printf -v GIT_SSH_COMMAND …; export GIT_SSH_COMMAND`, `read -r
                    # PAGER <<< …; export PAGER`: the value set before is exported now,
                    # judged as `export NAME=value` is (n14u)
                    s, e = self.pos.char(c.start_byte), self.pos.char(c.end_byte)
                    line = f"export {_text(c)}={shlex.quote(value)}"
                    found = self.scope.nested(line, "bash", Word(_text(c), s, e))
                    self.scope.include([f for f in found if f.rule != "parse-error"])
            elif c.type in _WORDISH:
                quoted = _QUOTED_ASSIGNMENT.match(_text(c)) if c.type in _QUOTED else None
                if quoted is not None and keyword in _DECLARERS:
                    # `export 'LD_PRELOAD=/tmp/x.so'`, `export "PATH=/tmp:$PATH"`: a quoted
                    # NAME=value is still an assignment of the builtin; judged as written
                    # unquoted before the value (gen12)
                    q, name, rest = quoted.group(1), quoted.group(2), quoted.group(3)
                    line = f"{keyword} {name}={q}{rest}"
                    s, e = self.pos.char(c.start_byte), self.pos.char(c.end_byte)
                    self.scope.include(self.scope.nested(line, "bash", Word(_text(c), s, e)))
                    if exports:
                        self.scope.exported.add(name)
                    continue
                for w in self.words(c):
                    if re.fullmatch(r"[A-Za-z_]\w*", w.text):
                        self.scope.assigned.add(w.text)  # `export X`, `local x`: may hold a value
                    elif (
                        "=" in w.text
                        and keyword in _DECLARERS
                        and (not w.dynamic or w.origin in ("static", "decoded"))
                    ):
                        self._known_pairs(w, exports)
        return Info()

    def _known_pairs(self, w: Word, exports: bool) -> None:
        """(u21) `export $(cat .env | xargs)`, `export $(grep -v '^#' .env | xargs)`, `export
        "$line"` in a loop reading a file the block wrote: each NAME=value the word's known
        text holds is an assignment (`echo ROOT=/ > .env; export $(…); rm -rf "$ROOT"`)."""
        for pair in w.text.replace(_SPLIT, "\n").split()[:64]:
            name, _, value = pair.partition("=")
            if not (name.isidentifier() and name.isascii()):
                continue
            if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1:
                value = value[1:-1]
            self.scope.env[name] = value
            self.scope.assigned.discard(name)
            if exports:
                self.scope.exported.add(name)

    def function(self, node: Node) -> Info:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if body is None:
            return Info()
        name = _text(name_node) if name_node is not None else ""
        saved = self.scope.cwds
        # The body is judged as written; calls inside it are followed when it is called
        # (following them here too would walk a chain of N functions N times).
        self.defining += 1
        try:
            self.stmt(body)
        finally:
            self.defining -= 1
        self.scope.cwds = saved
        if name:
            self.functions[name] = body
        if name and _self_spawning(body, name):
            self.scope.add(
                RiskLevel.BLOCKED,
                "fork-bomb",
                "a fork bomb: the function starts copies of itself forever",
                self.pos.char(node.start_byte),
                self.pos.char(node.end_byte),
            )
        return Info()

    def for_loop(self, node: Node) -> Info:
        var = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values: list[Word] = []
        self.names_listed = False
        for v in node.children_by_field_name("value"):
            values.extend(self.words(v))
        names_listed, self.names_listed = self.names_listed, False
        if body is None:
            return Info()
        if not values and not any(c.type == "in" for c in node.children):
            # (h20) `for f; do … done` walks the positional parameters, as `for f in "$@"`
            # (`find ~ -type f -exec sh -c 'for f; do : > "$f"; done' _ {} +`)
            held = self.scope.env.get("@")
            s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
            if held is not None:
                values = [Word(p, s, e) for p in held.split(_SPLIT) if p]
            else:
                values = [Word('"$@"', s, e, True, False, ORIGIN_VARIABLE)]
        var_name = _text(var) if var is not None else ""
        if var_name and names_listed and len(values) == 1 and values[0].origin == ORIGIN_SUBST:
            # `for f in $(ls -A ~ | grep -v keep); do rm -rf ~/"$f"; done`: the loop takes
            # the name of every entry listed, as `ls ~ | while read f` does (n13u)
            saved = self.scope.env.get(var_name)
            self.scope.env[var_name] = "*"
            try:
                return self.stmt(body)
            finally:
                if saved is None:
                    self.scope.env.pop(var_name, None)
                else:
                    self.scope.env[var_name] = saved
        name = _text(var) if var is not None else ""
        if name:
            self.scope.assigned.add(name)
        # (u21) items of known text count as literal ones: `for l in $(cat .env)` after the
        # block wrote .env, `for d in $(echo /etc /usr)`
        static = [w for w in values if not w.dynamic or w.origin in ("static", "decoded")]
        if name and shape.id_range([w.text for w in values]):
            # `for i in {1..500}`: every id in the range, for a delete in the body (bk9)
            self.scope.env[name] = shape.EVERY_ID
            info = self.stmt(body)
            self.scope.env.pop(name, None)
            return info
        if name and any("{" in w.text for w in static):
            # (f19) `for d in {etc,usr,var}`, `for i in {1..3}`: each item of the expansion
            values = dispatch.brace_expand(values, self.scope.source)
            static = [w for w in values if not w.dynamic]
        # Up to 4 items are each judged; up to 8 when the body runs no substitution (each item
        # is a full walk of the body: a body with `$(…)` over 5+ items outran the clock on
        # ordinary text such as a progress-bar loop, the README's first example).
        cheap = "$(" not in _text(body) and "`" not in _text(body)
        limit = 8 if cheap else 4
        if name and static and len(static) == len(values) and len(values) <= limit:
            info = Info()
            for w in static:
                self.scope.env[name] = w.text
                info = self.stmt(body)
            self.scope.env.pop(name, None)
            return info
        if name:
            self.scope.env.pop(name, None)
        return self.stmt(body)

    # -- words ---------------------------------------------------------------------------

    def words(self, node: Node, split: bool = True) -> list[Word]:
        budget.tick()
        text, dynamic, glob, origin = self.value(node, quoted=False)
        pos = self.pos
        if pos._ascii:  # (the usual case: byte offsets are character offsets)
            start, end = node.start_byte, node.end_byte
        else:
            start, end = pos.char(node.start_byte), pos.char(node.end_byte)
        if _SPLIT in text:
            if split:
                parts = [p for p in text.split(_SPLIT) if p]
                return [Word(p, start, end, dynamic, glob, origin) for p in parts]
            text = text.replace(_SPLIT, " ")
        # (every word of every command: a `Word` made from its six fields in one step)
        return [_new_word(Word, (text, start, end, dynamic, glob, origin))]

    def value(self, node: Node, quoted: bool) -> tuple[str, bool, bool, str]:
        """Static value of a word node: (text, dynamic, unquoted glob, origin)."""
        t = node.type
        if t == "word" or t == "number":
            raw = _text(node)
            if quoted:
                return raw, False, False, ""
            glob = not GLOB_CHARS.isdisjoint(raw)
            if "\\" in raw:
                raw = re.sub(r"\\(.)", r"\1", raw, flags=re.S)
            if raw[:1] == "~" and "HOME" in self.scope.env and raw[1:2] in ("", "/"):
                home = self.scope.env["HOME"]
                if home.startswith("/"):
                    # (n20u) `HOME=/; rm -rf ~/boot`: the tilde is the home assigned above
                    raw = home.rstrip("/") + raw[1:] if raw[1:] else home
            return raw, False, glob, ""
        if t == "raw_string":
            return _text(node)[1:-1], False, False, ""
        if t == "ansi_c_string":
            return ansi_c(_text(node)[2:-1]), False, False, ""
        if t == "string_content":
            raw = _text(node)
            return re.sub(r'\\([$`"\\\n])', r"\1", raw), False, False, ""
        if t in ("string", "translated_string"):
            return self._join(node.named_children, True, node)
        if t == "concatenation":
            return self._join(node.named_children, quoted, node)
        if t in ("simple_expansion", "expansion"):
            return self.expansion(node, quoted)
        if t == "command_substitution":
            text, d, g, o = self.substitution(node)
            prev = node.prev_named_sibling
            if (
                not quoted
                and (not d or o in ("static", "decoded"))
                and _SPLIT not in text
                # (`bash -c $(echo "rm -rf /")`: read as the code its writer meant)
                and not (prev is not None and re.fullmatch(r"-\w*c", _text(prev)))
                # (`source (echo 'rm -rf ~' | psub)`: fish's psub hands over a file holding the
                # text, read whole by the sourcing reader)
                and _command_name_of(node.parent) not in ("source", ".")
                and _PSUB_LAST.search(_text(node)) is None
            ):
                # (u22) an unquoted substitution's known output is split into words at IFS
                # (`rm -rf $(echo /etc /usr)`, `for d in $(printf '/etc\n/usr\n')`)
                ifs = self.scope.env.get("IFS", " \t\n") or ""
                stripped = text.strip(" \t\n")
                if ifs and any(c in stripped for c in ifs):
                    text = _SPLIT.join(
                        p for p in re.split("[" + re.escape(ifs) + "]+", stripped) if p
                    )
            return text, d, g, o
        if t == "process_substitution" and _text(node).startswith(">("):
            if self.out_substs is not None:
                self.out_substs.append(node)  # judged once the writer's output is known
                return "/dev/fd/63", True, False, ORIGIN_SUBST
            saved = self.scope.cwds
            self.sequence(node, self.psub_stdin or NO_STDIN)
            self.scope.cwds = saved
            return "/dev/fd/63", True, False, ORIGIN_SUBST
        if t == "process_substitution":
            saved = self.scope.cwds
            info = self.sequence(node)
            self.scope.cwds = saved
            stmts = [c for c in node.named_children if c.type != "comment"]
            out = self._static_outputs(stmts)
            first = _command_name_of(stmts[0]) if stmts else ""
            if info.paths and info.paths[0].text == EVERY_PACKAGE:
                return EVERY_PACKAGE, True, False, ""  # (f19) `pip uninstall -r <(pip freeze)`
            if first in ENV_SETUP:
                return "/dev/fd/63", True, False, "env-setup"
            if out is not None and not info.network_fetch:
                # `source <(echo 'rm -rf /')`: the "file" holds known text.
                return out.text, True, False, "decoded" if out.decoded else "static"
            self.psub_listing = info if info.paths else None
            if info.paths:
                # (u22) `xargs -a <(ls -A) rm -rf`: the "file" holds what the listing printed
                wrappers.remember_listing(
                    self.scope, "/dev/fd/63", dispatch.next_stdin(info, NO_STDIN)
                )
            elif self.scope.env:
                self.scope.env.pop(wrappers.LISTED_FILE + "63", None)
            return "/dev/fd/63", True, False, ORIGIN_NETWORK if info.network_fetch else ORIGIN_SUBST
        if t == "arithmetic_expansion":
            self._arithmetic(node)
            return "0", True, False, ORIGIN_VARIABLE
        if t == "brace_expression" and not quoted:
            # (f19) `{1..9}`, `{a..e}`: a literal sequence, expanded where the command is
            # judged (dispatch.brace_expand)
            return _text(node), False, False, ""
        for c in node.named_children:
            self.stmt(c)
        return _text(node), True, False, ORIGIN_VARIABLE

    def _escaped(self, node: Node) -> bool:
        """Whether an odd number of backslashes precede `node` in the text."""
        at = self.pos.char(node.start_byte)
        k = at
        while k > 0 and self.scope.source[k - 1] == "\\":
            k -= 1
        return (at - k) % 2 == 1

    def _arithmetic(self, node: Node) -> None:
        """`$(( … ))`: substitutions inside run; text that is no arithmetic (`$(( rm -rf
        / ))`) is what bash then runs as a subshell inside a command substitution."""
        stack = list(node.named_children)
        while stack:
            n = stack.pop()
            if n.type in ("command_substitution", "process_substitution"):
                self.value(n, True)
            else:
                stack.extend(n.named_children)
        raw = _text(node)
        self._arith_vars(raw[3:-2], node)
        if node.has_error and raw.startswith("$((") and raw.endswith("))"):
            inner = Word(raw, self.pos.char(node.start_byte), self.pos.char(node.end_byte))
            self.scope.include(self.scope.nested(raw[3:-2], "bash", inner, inner.start + 3))

    def _join(
        self, children: list[Node], quoted: bool, parent: Node
    ) -> tuple[str, bool, bool, str]:
        if not children:
            raw = _text(parent)
            return (raw[1:-1] if parent.type in ("string",) else raw), False, False, ""
        parts: list[str] = []
        dynamic = glob = False
        origin = ""
        # Text between named children of a string (spaces, punctuation) is literal.
        prev_end = parent.start_byte + (1 if parent.type == "string" else 0)
        if parent.type == "translated_string":
            prev_end += 1
        src = budget.node_bytes(parent)
        base = parent.start_byte
        for c in children:
            if c.start_byte > prev_end and parent.type in ("string", "translated_string"):
                parts.append(src[prev_end - base : c.start_byte - base].decode("utf-8", "replace"))
            text, d, g, o = self.value(c, quoted)
            parts.append(text)
            dynamic |= d
            glob |= g
            origin = origin or o
            prev_end = c.end_byte
        if parent.type in ("string", "translated_string") and parent.end_byte - 1 > prev_end:
            parts.append(
                src[prev_end - base : parent.end_byte - 1 - base].decode("utf-8", "replace")
            )
        return "".join(parts), dynamic, glob, origin

    def expansion(self, node: Node, quoted: bool) -> tuple[str, bool, bool, str]:
        name = ""
        default: str | None = None
        default_dynamic = False
        for c in node.named_children:
            if c.type in ("variable_name", "special_variable_name") and not name:
                name = _text(c)
            elif c.type == "subscript" and not name:
                var = c.child_by_field_name("name")
                name = _text(var) if var is not None else ""
                index = c.child_by_field_name("index")
                if index is not None and self.scope.env:
                    self._arith_vars(_text(index), c)  # `${a[k]}`: the subscript is arithmetic
                if index is not None and ("$(" in _text(index) or "`" in _text(index)):
                    self.value(index, False)  # (n17u) `${a[$(rm -rf ~)]}`: it runs
            elif name and c.type in _WORDISH:
                text, d, _, _ = self.value(c, True)
                default, default_dynamic = text, d
        raw = _text(node)
        if self.toggles:
            raw = self.scope.source[self.pos.char(node.start_byte) : self.pos.char(node.end_byte)]
        parsed = _EXPANSION.fullmatch(raw) if node.type == "expansion" else None
        if parsed is not None and parsed.group(4) == "@P" and parsed.group(1) != "#":
            if not parsed.group(1):
                return self._prompt_transform(parsed.group(2), node, raw, quoted)
            # `${!v@P}`: the variable named by $v's value, expanded as a prompt
            target = self._lookup(parsed.group(2))
            if target is not None and re.fullmatch(r"[A-Za-z_]\w*", target):
                return self._prompt_transform(target, node, raw, quoted)
            self.scope.add(
                RiskLevel.CRITICAL,
                "eval-dynamic",
                f"${{!{parsed.group(2)}@P}} runs the command substitutions held in a variable "
                "whose name is only known at run time",
                self.pos.char(node.start_byte),
                self.pos.char(node.end_byte),
            )
            return raw, True, False, ORIGIN_VARIABLE
        value: str | None
        if (
            parsed is not None
            and parsed.group(2) == "0"
            and "0" not in self.scope.env
            and parsed.group(4)[:1] in ("%", "#", "/")
        ):
            # `${0%/*}`: a piece of the running script's path, which is not known here ($0
            # stands for the shell's name only where it runs as a command).
            return raw, True, False, ORIGIN_VARIABLE
        if parsed is not None:
            value, done = self._operator(parsed, default, default_dynamic)
            if done:
                if value is None:
                    return raw, True, False, ORIGIN_VARIABLE
                each = parsed.group(3) == "[@]" or parsed.group(2) in ("@", "*")
                return self._split_value("@" if each else parsed.group(2), value, quoted)
        value = self._lookup(name)
        if value is None and name in ("PWD", "HOME"):
            return _KNOWN_VARS[name], False, False, ""
        if value is None and default is not None and not default_dynamic:
            value = default
        if value is None:
            return raw, True, False, ORIGIN_VARIABLE
        return self._split_value(name, value, quoted)

    def _prompt_transform(
        self, name: str, node: Node, raw: str, quoted: bool = True
    ) -> tuple[str, bool, bool, str]:
        """`${v@P}` expands `$v` as a prompt string, which runs the command substitutions
        it holds (`v='$(rm -rf ~)'; echo "${v@P}"`): a known value is judged as that text in
        double quotes; an unknown one (other than the prompts themselves) is code only known
        at run time (gen10)."""
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        value = self._lookup(name)
        if value is None:
            if name not in PROMPT_VARS:
                self.scope.add(
                    RiskLevel.CRITICAL,
                    "eval-dynamic",
                    f"${{{name}@P}} runs the command substitutions held in ${name}, "
                    "a value only known at run time",
                    s,
                    e,
                )
            return raw, True, False, ORIGIN_VARIABLE
        if "$(" in value or "`" in value:
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            found = self.scope.nested(f'printf %s "{escaped}"', "bash", Word(value, s, e), -1)
            self.scope.include(found)
            level = max((f.level for f in found), default=RiskLevel.SAFE)
            if level >= RiskLevel.DANGEROUS:
                self.scope.add(
                    level,
                    "config-exec",
                    f"${{{name}@P}} runs a {level.label} command held in ${name}",
                    s,
                    e,
                )
            return raw, True, False, ORIGIN_SUBST
        # (h20) unquoted, the expanded prompt is split into words like any expansion:
        # `x='rm -rf ~'; ${x@P}` runs rm
        return self._split_value(name, value, quoted)

    def _lookup(self, name: str, index: str | None = None) -> str | None:
        """The value of `name` (or of one element of the array `name`), when it is known."""
        name = self.scope.env.get(_NAMEREF + name, name)  # `declare -n r=x`: $r is $x
        value = self.scope.env.get(name)
        if value is None:
            value = _KNOWN_VARS.get(name) if index is None else None
        if value is None or index is None:
            return value
        items = value.split(_SPLIT)
        if index in ("@", "*"):
            return value
        try:
            k = int(index)
            if k == len(items) and k > 0 and len(index) < 4:
                # (u22) one past the end is nothing in bash but the last element in zsh,
                # whose arrays count from 1 (`t=(/etc); rm -rf ${t[1]}`)
                return items[k - 1]
            return items[k] if -len(items) <= k < len(items) else ""
        except ValueError:
            # (u22) an associative array's key: `${t[k]}`, `${t["k"]}`
            return self.scope.env.get(f"{name}[{index.strip(chr(34) + chr(39))}]")

    def _split_value(self, name: str, value: str, quoted: bool) -> tuple[str, bool, bool, str]:
        if name in ("@", "*") and _SPLIT in value:
            return value, False, False, ""
        if not quoted:
            ifs = self.scope.env.get("IFS", " \t\n") or " "
            value = re.sub("[" + re.escape(ifs) + "]+", _SPLIT, value)
        elif _SPLIT in value:
            value = value.replace(_SPLIT, " ")
        return value, False, (not quoted) and any(c in GLOB_CHARS for c in value), ""

    def _operator(
        self, m: re.Match[str], default: str | None, default_dynamic: bool
    ) -> tuple[str | None, bool]:
        """`${!ref}`, `${#x}`, `${x:1:2}`, `${x//a/b}`, `${x,,}`, `${x#p}`, `${a[0]}`…:
        (value or None when unknown, whether this operator was handled here)."""
        prefix, name, index, op = m.group(1), m.group(2), m.group(3), m.group(4)
        idx = index[1:-1] if index else None
        if prefix == "!":
            if op or idx is not None:
                return None, True  # `${!prefix*}`, `${!a[@]}`: names/keys, not guessed
            ref = self._lookup(name)
            if ref is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?", ref):
                return None, True
            inner = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?", ref)
            assert inner is not None
            return self._lookup(inner.group(1), inner.group(2)), True
        value = self._lookup(name, idx)
        if name == "HOME" and op and value == "~" and "HOME" not in self.scope.env:
            value = "/home/user"  # `${HOME%/*}` is /home, `${HOME:0:1}` is /
        if prefix == "#":
            if value is None:
                return None, True
            items = value.split(_SPLIT) if idx in ("@", "*") else [value]
            return str(len(items) if idx in ("@", "*") else len(value)), True
        if not op:
            return value, True
        if op[:2] in (":-", ":=") or op[:1] in ("-", "="):
            if value is not None and (value or op[0] != ":"):
                return value, True
            word = op[2:] if op[0] == ":" else op[1:]
            if not any(c in word for c in "$`"):
                return unquote(word), True  # `${X:-systemd-run}`: the literal default
            return (None if default_dynamic else default), True
        if op[:2] == ":+" or op[:1] == "+":
            if value is None:
                return None, True
            if not value and op[0] == ":":
                return "", True
            return (None if default_dynamic else (default or "")), True
        if op[:2] == ":?" or op[:1] == "?":
            return value, True
        if value is None:
            return None, True
        return _apply_operator(value, op), True

    def substitution(self, node: Node) -> tuple[str, bool, bool, str]:
        budget.spend(budget.SUBST_STEPS)
        saved, pending = self.scope.cwds, self.scope.pending_cd
        stmts = [c for c in node.named_children if c.type != "comment"]
        infos = []
        for c in stmts:
            infos.append(self.stmt(c))
            if len(stmts) > 1:
                # `$(cd /; rm etc/passwd)`: a `cd` moves the statements after it (as the
                # last one's does what `pwd` prints: `$(cd; pwd)` is home).
                self._apply_cd(guarded=True)
        self._apply_cd(guarded=True)
        after = self.scope.cwds
        self.scope.cwds, self.scope.pending_cd = saved, pending
        info = infos[-1] if infos else Info()
        last = _last_command(stmts[-1]) if stmts else None
        if last is not None and _prints_cwd(last):
            # `$(cd ~ && pwd)`, `$(cd /usr/local/../.. && pwd -P)`: the directory the
            # substitution ended in (from an unknown start, `.` or a relative path).
            if len(after) == 1:
                (cwd,) = after
                if cwd is None:
                    return ".", False, False, ""
                if "$" in cwd or "`" in cwd:
                    # `$(cd "$X" && pwd)`: a directory not known here, or nothing at all
                    # when the `cd` fails (`"$(cd "$X" && pwd)/"*` is then `/*`: the
                    # Steam-for-Linux wipe).
                    return "", False, False, ""
                return _normal_dir(cwd), False, False, ""
            return _text(node), True, False, ORIGIN_SUBST
        home = _HOME_LOOKUP.fullmatch(_text(node).strip("$()` \t\n"))
        if home is not None:
            # `$(getent passwd "$USER" | cut -d: -f6)`: a home directory, looked up.
            user = home.group(2)
            if user.startswith("$") or user.startswith("`"):
                return "~", False, False, ""
            return ("/root" if user == "root" else "~" + user), False, False, ""
        if (
            len(stmts) == 1
            and stmts[0].type == "file_redirect"
            and stmts[0].child_count == 2
            and _text(stmts[0].children[0]) == "<"
            and (held := wrappers.listed_file(self.scope, _text(stmts[0].children[1]))) is not None
            and not held.names_only
        ):
            # (f19) `$(< /tmp/all)` after `find / > /tmp/all`: the listed paths themselves
            listed = _SPLIT.join(p.text for p in held.paths)
            return listed, False, any(c in GLOB_CHARS for c in listed), ""
        if (
            len(stmts) == 1
            and stmts[0].type == "file_redirect"
            and stmts[0].child_count == 2
            and _text(stmts[0].children[0]) == "<"
            and (text := wrappers.written_text(self.scope, _text(stmts[0].children[1]))) is not None
        ):
            return text.rstrip("\n"), True, False, "static"  # (f19) `$(< x.sh)`, x.sh written
        if len(stmts) == 1 and stmts[0].type == "command":
            name = _command_name_of(stmts[0])
            if name == "eval":
                printed = _eval_printed(stmts[0])
                if printed is not None:
                    return printed, False, False, ""
            if name in (":", "true", "false") and stmts[0].named_child_count == 1:
                return "", False, False, ""  # `/$(:)`: prints nothing
            # `$(which rm)` / `$(command -v rm)` is just the program's path.
            args = [_text(a) for a in stmts[0].children_by_field_name("argument")]
            args = [a for a in args if not a.startswith("-")]
            if name in ("which", "command", "type", "whereis") and len(args) == 1:
                return args[0], False, False, ""
            # `$(dirname /etc/x)`, `$(realpath ~)`: path arithmetic on a literal.
            words = [w for c in stmts[0].children_by_field_name("argument") for w in self.words(c)]
            words = [w for w in words if not w.text.startswith("-")]
            if name in _PATH_FUNCS and len(words) == 1 and not words[0].dynamic:
                return _PATH_FUNCS[name](words[0].text), False, False, ""
            every = [w for c in stmts[0].children_by_field_name("argument") for w in self.words(c)]
            if name == "string" and every and not any(w.dynamic for w in every):
                # (n18u) fish's `string join SEP ARGS…`, `string join0`: joined text; (n19u)
                # `string replace -a`, `string unescape [--style=url]`, `string split`
                joined = _fish_string(every[0].text, [w.text for w in every[1:]])
                if joined is not None:
                    # (each line is an argument of its own, as fish splits a substitution)
                    return joined.replace("\n", " "), False, False, ""
            if name == "status" and [w.text for w in every] in (["fish-path"], ["--fish-path"]):
                return "/usr/bin/fish", False, False, ""  # (n19u) fish's own program
        first = _command_name_of(stmts[0]) if stmts else ""
        if info.network_fetch:
            return _text(node), True, False, ORIGIN_NETWORK
        if (
            info.paths
            and len(stmts) == 1
            and info.paths[0].text in (shape.EVERY_BACKUP, shape.EVERY_ID, EVERY_PACKAGE)
        ):
            # `for v in $(aws s3api list-object-versions …)`: every id a backup listing
            # printed, even from a tool whose substitutions usually set up the environment
            return info.paths[0].text, False, False, ""
        if first in ENV_SETUP:
            return _text(node), True, False, "env-setup"
        # `$(echo cm0gLXJmIC8= | base64 -d)`: re-run the pipeline's static output.
        out = self._static_outputs(stmts)
        if out is not None:
            return out.text, True, False, "decoded" if out.decoded else "static"
        if info.paths and not info.names_only and len(stmts) == 1:
            # `rm -rf $(ls -d /*)`, `$(find ~ -maxdepth 1)`: the listed paths themselves.
            listed = _SPLIT.join(p.text for p in info.paths)
            return listed, False, any(c in GLOB_CHARS for c in listed), ""
        self.names_listed = bool(info.paths) and info.names_only and len(stmts) == 1
        return _text(node), True, False, ORIGIN_SUBST

    def _fish_path(self, words: list[Word]) -> None:
        """fish's `set -gx PATH /tmp/b $PATH`, `set -U fish_user_paths /tmp/b $…`,
        `fish_add_path [-p|-a] /tmp/b`: the folders PATH lists from now on (n14u)."""
        rest = [w for w in words[1:] if not w.text.startswith("-")]
        flags = "".join(w.text for w in words[1:] if w.text.startswith("-"))
        old = self.scope.env.get("PATH", _KNOWN_VARS["PATH"])
        if words[0].text == "fish_add_path":
            new = [w.text for w in rest if not w.dynamic]
            joined = ":".join([old, *new] if "a" in flags else [*new, old])
        elif rest and rest[0].text in ("PATH", "fish_user_paths") and len(rest) > 1:
            items = [old if w.text in ("$PATH", "$fish_user_paths") else w.text for w in rest[1:]]
            grow = {w.text for w in words[1:]} & {"-a", "--append", "-p", "--prepend"}
            if rest[0].text == "PATH" and grow & {"-a", "--append"}:
                items = [old, *items]  # (u22) `set -a PATH /tmp/b`: searched last
            elif rest[0].text == "PATH" and grow:
                items = [*items, old]  # `set -p PATH /tmp/b`: searched first
            # (fish searches every fish_user_paths entry before PATH, appended or not)
            joined = ":".join(items if rest[0].text == "PATH" else [*items, old])
        else:
            return
        self.scope.env["PATH"] = joined.replace("\x01", ":").replace(" ", ":")
        # (u21, review 21 U2) a folder anyone may write searched first (`fish_add_path -p
        # /tmp/b`, `set -U fish_user_paths /tmp/b $fish_user_paths`): later bare names suspect
        front = risky_path_front(self.scope.env["PATH"])
        if front:
            self.scope.env[PATH_FRONT] = front
        else:
            self.scope.env.pop(PATH_FRONT, None)

    def _path_hijack(self, words: list[Word], assigns: list[Node]) -> Info | None:
        """`PATH=/tmp/b:$PATH ls`, `export PATH=.:$PATH; make` after the block wrote a script
        of that name into that folder: the script runs, not the system's program; it is
        judged with the arguments as $1… (n14u)."""
        head = words[0]
        if "/" in head.text or head.text in self.functions:
            return None
        path = self.scope.env.get("PATH", "")
        for a in assigns:  # (a prefix assignment holds for this command)
            n, v = a.child_by_field_name("name"), a.child_by_field_name("value")
            if n is not None and v is not None and _text(n) == "PATH":
                value = self.words(v, split=False)
                path = value[0].text if value and not value[0].dynamic else path
        folders = self.scope.env.get(WRITTEN_IN + head.text, "").split("\x01")
        # (fish and csh keep PATH as a list: `set PATH /tmp/b $PATH` joins it with blanks)
        for entry in path.replace(" ", ":").replace("\x01", ":").split(":")[:32]:
            entry = posixpath.normpath(entry) if entry else "."
            if entry in _SYSTEM_PATH and head.text in dispatch.KNOWN_NAMES:
                return None  # the system's own program comes first
            if entry in folders and (body := self.scope.written.get(head.text)) is not None:
                self.scope.add(
                    RiskLevel.MODERATE,
                    "local-script",
                    f"{head.text} runs the script the block wrote to {entry}/{head.text}"
                    " (first on PATH)",
                    head.start,
                    head.end,
                )
                found = self.scope.nested(body[0], "bash", head, -1, positional=words)
                self.scope.include(found)
                return Info()
        return None

    def _same_shell_definitions(self, words: list[Word]) -> Info | None:
        """A call of a function that sourced or eval'd code defined, a zsh global alias among
        the words, a file run whose suffix has a zsh suffix alias: the text that runs instead
        is judged (None when none applies) (n14u)."""
        env, head = self.scope.env, words[0]
        span = Word(" ".join(w.text for w in words), head.start, words[-1].end)
        if GLOBAL_ALIASES in env and any(not w.dynamic for w in words):
            table = dict(p.split("\x02", 1) for p in env[GLOBAL_ALIASES].split("\x01") if p)
            if any(not w.dynamic and w.text in table for w in words):
                line = " ".join(
                    table[w.text] if not w.dynamic and w.text in table else shlex.quote(w.text)
                    for w in words
                )
                self.scope.include(self.scope.nested(line, "bash", span, -1))
                return Info()
        if (
            head.dynamic
            or head.text in self.functions
            or head.text in self.calling
            or self.defining  # (calls in a definition's body are followed when it is called)
        ):
            return None
        body = env.get(FUNC_PREFIX + head.text)
        if body is not None:
            self.calling.add(head.text)
            # (the body's own calls of the name do not follow it again: a nested analysis
            # does not see this walker's calls)
            key = FUNC_PREFIX + head.text
            env.pop(key)
            try:
                found = self.scope.nested(body, "bash", head, -1, positional=words)
            finally:
                self.calling.discard(head.text)
                env[key] = body
            self.scope.include(found)
            return Info()
        if SUFFIX_ALIASES in env and "." in head.text and ALIAS_PREFIX + head.text not in env:
            ext = head.text.rsplit(".", 1)[1]
            table = dict(p.split("\x02", 1) for p in env[SUFFIX_ALIASES].split("\x01") if p)
            if ext in table and "/" not in ext:
                line = table[ext] + " " + " ".join(shlex.quote(w.text) for w in words)
                self.scope.include(self.scope.nested(line, "bash", span, -1))
                return Info()
        return None

    def _zsh_definition(self, table: str, name: str, value: Node, node: Node) -> None:
        """zsh's `functions[ls]='rm -rf ~'`, `aliases[ls]='rm -rf'`: the special arrays
        define a function or alias named by the key; a later call of the name runs the
        value, judged as `alias name=value` is (n13u)."""
        words = self.words(value, split=False)
        s, e = self.pos.char(node.start_byte), self.pos.char(node.end_byte)
        if not words or words[0].dynamic:
            self.scope.add(
                RiskLevel.CRITICAL,
                "dynamic-command",
                f"zsh's {table} array makes {name} run text only known at run time",
                s,
                e,
            )
            return
        body = words[0].text + (' "$@"' if table == "functions" else "")
        line = f"alias {shlex.quote(name)}={shlex.quote(body)}"
        self.scope.include(self.scope.nested(line, "bash", Word(_text(node), s, e), -1))
        self.scope.env[ALIAS_PREFIX + name] = body

    def _fed_to_coproc(self, body: Node, start: int, end: int) -> None:
        """`echo 'rm -rf ~' >&"${COPROC[1]}"` after `coproc sh`: what the command prints is
        code for the coprocess shell (n13u)."""
        out = self._static_output(body)
        if out is None or out.kind != STDIN_STATIC:
            self.scope.add(
                RiskLevel.CRITICAL,
                "pipe-to-shell",
                "feeds a coprocess shell text only known at run time",
                start,
                end,
            )
            return
        found = self.scope.nested(out.text, "bash", Word(out.text, start, end), -1)
        self.scope.include(found)

    def _static_outputs(self, stmts: list[Node]) -> Stdin | None:
        """The known output of statements run one after another (`<(echo 'rule r'; echo '
        command = rm -rf ~')`): each one's known output in turn, or None (n14u)."""
        if len(stmts) == 1:
            return self._static_output(stmts[0])
        if not stmts or len(stmts) > 16:
            return None
        if any(_command_name_of(st) not in _PRINTERS for st in stmts):
            return None  # (a cheap exit: only printers' output is added up)
        texts: list[str] = []
        decoded = False
        for st in stmts:
            out = self._static_output(st)
            if out is None:
                return None
            texts.append(out.text)
            if (
                _command_name_of(st) != "printf"
                and not out.text.endswith("\n")
                and not _ECHO_N.match(_text(st))
            ):
                texts.append("\n")  # (echo's known output leaves its newline out)
            decoded = decoded or out.decoded
        return Stdin(STDIN_STATIC, "".join(texts), -1, decoded)

    def _static_output(self, node: Node) -> Stdin | None:
        if node.type not in ("pipeline", "command", "redirected_statement"):
            return None
        stages = list(node.named_children) if node.type == "pipeline" else [node]
        stdin: Stdin | None = None
        probe = Scope("", "bash", None, self.scope.nested_analyser, 99, self.scope.judge)
        for stage in stages:
            if stage.type not in ("command", "redirected_statement"):
                return None
            walker = _Walker(probe, self.pos)
            walker.scope.source = self.scope.source
            walker.scope.env = VersionedDict(self.scope.env)
            if self.scope.written:
                # (f19) `$(cat x.sh)` after the block wrote x.sh: the file's known text
                walker.scope.written = VersionedDict(self.scope.written)
            if stage.type == "redirected_statement":
                # `$(cat <<'EOF' … EOF)`: the heredoc is the stage's own stdin.
                info = walker.stmt(stage, stdin or NO_STDIN)
            else:
                info = walker.command(stage, stdin or NO_STDIN)
            if info.output is not None:
                stdin = Stdin(STDIN_STATIC, info.output, -1)
                continue
            if stdin is None and info.input is not None and info.input.kind == STDIN_STATIC:
                stdin = info.input  # `rev <<< 'mr'`: the stage reads its own known text
            if stdin is None:
                return None
            nxt = dispatch.transform_output(info, stdin)
            if nxt is None:
                return None
            stdin = nxt
        return stdin


# `${` [!#] name [index] operator `}`: the expansion forms `_Walker._operator` evaluates.
_EXPANSION = re.compile(
    r"\$\{([!#]?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?(.*)\}", re.S
)


_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
# Builtins that take a variable name (an indexed array's subscript in it is expanded).
_NAME_TAKERS = frozenset(
    {"unset", "let", "printf", "read", "mapfile", "readarray", "test", "[", "export", "readonly"}
)
_SUBSCRIPTED = re.compile(r"(?<!\w)[A-Za-z_]\w*\[([^\]\n]{0,400})\]")
_IDENT = re.compile(r"(?<![\w$])\$?\{?([A-Za-z_]\w*)")
_ARITH_TEST = re.compile(r"\s-(?:eq|ne|lt|le|gt|ge)\s")
_BACKTICKS = re.compile(r"(?<!\\)`([^`]+)`")


_POSIX_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f",
    "word": "\\w",
}


def _glob_regex(pattern: str, longest: bool) -> str:
    """A bash glob (as in `${x#pat}`) as a regular expression: `*`, `?`, bracket
    expressions (`[a-z]`, `[!/]`, `[[:alpha:]]`, safety-m9) and backslash escapes."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            out.append(".*" if longest else ".*?")
        elif ch == "?":
            out.append(".")
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        elif ch == "[":
            j = i + 1
            negate = j < n and pattern[j] in "!^"
            j += negate
            body: list[str] = []
            first = True
            while j < n and (pattern[j] != "]" or first):
                m = re.match(r"\[:(\w+):\]", pattern[j:])
                if m and m.group(1) in _POSIX_CLASSES:
                    body.append(_POSIX_CLASSES[m.group(1)])
                    j += m.end()
                elif pattern[j] == "-" and body and j + 1 < n and pattern[j + 1] != "]":
                    body.append("-")
                    j += 1
                else:
                    body.append(re.escape(pattern[j]) if pattern[j] != "-" else "\\-")
                    j += 1
                first = False
            if j >= n or not body:
                out.append(re.escape(ch))  # no closing bracket: a literal `[`
            else:
                out.append("[" + ("^" if negate else "") + "".join(body) + "]")
                i = j
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


_ZSH_MODIFIERS = re.compile(r"(?::[htrelaAu]){1,8}")


def _apply_operator(value: str, op: str) -> str | None:
    """Apply a parameter-expansion operator to a known value; None when it is not one we
    evaluate (the word then stays dynamic)."""
    sub = re.fullmatch(r":\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?|:(?=:)()\s*(?::\s*(-?\d+)\s*)", op)
    if sub is not None and sub.group(3) is not None:
        # `${P::-6}`: an empty offset is 0 (safety-m9)
        length = int(sub.group(4))
        return value[: length if length >= 0 else len(value) + length]
    if sub is not None:
        off = int(sub.group(1))
        if off < 0:
            off = max(0, len(value) + off)
        if sub.group(2) is None:
            return value[off:]
        length = int(sub.group(2))
        end = off + length if length >= 0 else len(value) + length
        return value[off:end]
    if op in ("^^", ",,", "^", ",", "~~", "~", "@U", "@L", "@u", "@Q", "@E"):
        if op in ("^^", "@U"):
            return value.upper()
        if op in (",,", "@L"):
            return value.lower()
        if op in ("^", "@u"):
            return value[:1].upper() + value[1:]
        if op == ",":
            return value[:1].lower() + value[1:]
        if op == "~~":
            return value.swapcase()
        if op == "~":
            return value[:1].swapcase() + value[1:]
        if op == "@E":
            return ansi_c(value)
        return value
    if op[:1] == ":" and _ZSH_MODIFIERS.fullmatch(op):
        # zsh's history modifiers on a parameter (`${p:h:h}`, `${p:t}`, `${p:l}`): bash
        # rejects them, zsh evaluates them (safety-m9)
        for mod in op[1:].split(":"):
            if mod == "h":
                value = posixpath.dirname(value.rstrip("/")) or (
                    "/" if value.startswith("/") else "."
                )
            elif mod == "t":
                value = posixpath.basename(value.rstrip("/"))
            elif mod == "r":
                value = posixpath.splitext(value)[0]
            elif mod == "e":
                value = posixpath.splitext(value)[1].lstrip(".")
            elif mod == "l":
                value = value.lower()
            elif mod == "u":
                value = value.upper()
            elif mod in ("a", "A"):
                value = posixpath.normpath(value)
        return value
    pat = re.fullmatch(r"(##|#|%%|%)(.*)", op, re.S)
    if pat is not None and len(value) > 4096:
        return None  # (trying every suffix of a huge value costs too much)
    if pat is not None:
        kind, glob = pat.group(1), unquote(pat.group(2))
        rx = _glob_regex(glob, longest=len(kind) == 2)
        if kind.startswith("#"):
            return re.sub("^" + rx, "", value, count=1)
        # Shortest/longest suffix: try every start from the right (or left) end.
        starts = range(len(value) + 1) if len(kind) == 2 else range(len(value), -1, -1)
        for i in starts:
            if re.fullmatch(rx, value[i:], re.S):
                return value[:i]
        return value
    rep = re.fullmatch(r"/([/#%]?)((?:[^/\\]|\\.)*)(?:/(.*))?", op, re.S)
    if rep is not None:
        mode, glob, new = rep.group(1), unquote(rep.group(2)), unquote(rep.group(3) or "")
        if not glob:
            return value
        rx = _glob_regex(glob, longest=True)
        if mode == "#":
            rx = "^" + rx
        elif mode == "%":
            rx = rx + "$"
        return re.sub(rx, lambda _m: new, value, count=0 if mode == "/" else 1)
    return None


def _fish_string(verb: str, args: list[str]) -> str | None:
    """What fish's `string VERB …` prints for literal words (words.fish_string)."""
    return fish_string(verb, args)


_PATH_FUNCS = {
    "dirname": lambda p: posixpath.dirname(p.rstrip("/")) or ("/" if p.startswith("/") else "."),
    "basename": lambda p: posixpath.basename(p.rstrip("/")) or "/",
    "realpath": posixpath.normpath,
    "readlink": posixpath.normpath,
}


# A stretch of an unparsable region between separators (a lone `{`/`}` separates too,
# `{a,b}` does not).
_ERROR_SEGMENT = re.compile(r"(?:[^;&|\n()`{}\s]|\{[^\s{}]*\}|[ \t]+(?![{}](?:\s|$)))+")


def _blank_comments(text: str) -> str:
    """`text` with its comments (an unquoted `#` starting a word, to the end of the line)
    blanked out, offsets kept: `f() { # rm -rf /; }` comments the command out."""
    out = list(text)
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;&|()"):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
            continue
        i += 1
    return "".join(out)


_ERROR_KEYWORDS = frozenset(
    {"!", "do", "then", "else", "elif", "if", "while", "until", "time", "{", "}", "(", ")"}
)


def _text(node: Node) -> str:
    return budget.node_bytes(node).decode("utf-8", "replace")


# A user's home directory looked up in the account database (the current user's when the
# name is a variable or `whoami`).
_HOME_LOOKUP = re.compile(
    r"""\s*getent\s+passwd\s+(["']?)(\$\{?\w+\}?|\$\((?:whoami|id\s+-un)\)|`(?:whoami|id\s+-un)`"""
    r"""|[\w.-]+)\1\s*\|\s*(?:cut\s+(?:-d\s*["']?:["']?\s+-f\s*6|-f\s*6\s+-d\s*["']?:["']?)"""
    r"""|awk\s+-F\s*["']?:["']?\s+["']\{\s*print\s+\$6\s*;?\s*\}["'])\s*"""
)


def _eval_printed(node: Node) -> str | None:
    """`$(eval echo ~$USER)`, `"$(eval echo ~)"`, `$(eval "echo /etc")`: the eval of one
    literal echo in a substitution is that echo's text (words.eval_echo_text) (p17)."""
    return eval_echo_text(" ".join(_text(a) for a in node.children_by_field_name("argument")))


_CWD_WORDS = frozenset({"$PWD", '"$PWD"', "${PWD}", '"${PWD}"'})


_WHOLE_SCOPES = frozenset({"rm-root", "rm-home", "rm-system", "rm-cwd"})


def _cats_nothing(node: Node | None) -> bool:
    """`cat /dev/null` (the `> file` after it empties the file, like `: > file`)."""
    if node is None or node.type != "command":
        return False
    args = [_text(a) for a in node.children_by_field_name("argument")]
    return bool(args) and all(a == "/dev/null" for a in args)


def _prints_cwd(node: Node) -> bool:
    """`pwd`, `pwd -P`, `echo "$PWD"`, `printf '%s\n' "$PWD"`: prints the directory."""
    name = _command_name_of(node)
    args = [_text(a) for a in node.children_by_field_name("argument")]
    if name == "pwd":
        return all(a in ("-P", "-L") for a in args)
    if name == "echo":
        return [a for a in args if a not in ("-n", "-e", "-E")] in ([w] for w in _CWD_WORDS)
    if name == "printf":
        return len(args) == 2 and args[0].strip("'\"") in ("%s", "%s\\n") and args[1] in _CWD_WORDS
    return False


def _last_command(node: Node) -> Node | None:
    """The simple command that runs last in a statement (`cd ~ && pwd` -> `pwd`)."""
    for _ in range(64):
        t = node.type
        if t == "command":
            return node
        if t == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is None:
                return None
            node = body
            continue
        if t in ("list", "pipeline", "subshell", "compound_statement"):
            named = [c for c in node.named_children if c.type != "comment"]
            if not named:
                return None
            node = named[-1]
            continue
        return None
    return None


def _normal_dir(path: str) -> str:
    """`/usr/local/../..` -> `/`; `~/a/..` -> `~` (what `pwd` prints for it)."""
    if path.startswith("/"):
        return posixpath.normpath(path).replace("//", "/")
    if path == "~" or path.startswith("~/"):
        rest = posixpath.normpath("/" + path[2:]) if len(path) > 1 else "/"
        return "~" if rest == "/" else "~" + rest
    return path


_NETWORK_TOOL = re.compile(
    r"(?:^|[\s;|&(])(?:ping6?|hping3|nping|dig|nslookup|host|drill|delv|curl|wget|nc|ncat|netcat"
    r"|socat|traceroute6?|tracepath|mtr|whois|telnet|ssh|scp|openssl|resolvectl|getent\s+hosts)"
    r"(?=\s)"
)


_ZSH_CONNECT = re.compile(r"(?m)(?:^|[;&|({'\"])[ \t]*(?:ztcp|zsocket)[ \t]+(?!-[lcaLt])[^\s;&|]")


def _to_open_socket(scope: Scope, op: str, dest: Word) -> bool:
    """`>&$REPLY`, `<&$fd`, `>&5` after `ztcp HOST PORT` opened a connection in this text:
    the redirect reads from or writes to the network (safety-m9: a shell's own TCP module).
    Descriptors 0-2 and `-` (close) are the terminal's, not the socket's."""
    if op not in (">&", "<&", ">", "<", ">>", "<>"):
        return False
    if dest.text.isascii() and dest.text.isdigit():
        if int(dest.text) <= 2:
            return False
    elif not (dest.dynamic and dest.text.startswith("$") and op.endswith("&")):
        return False
    # (only now, for the rare `>&N`/`>&$fd`, is the text searched for a connection)
    return bool(scope.env.get(SOCKET_OPEN)) or bool(
        # (a redirect the grammar hangs on a whole `ztcp h p && cat f >&$REPLY` list is read
        # before the list runs: the text before it says whether a connection was opened)
        ("ztcp" in scope.source or "zsocket" in scope.source)
        and _ZSH_CONNECT.search(scope.source, 0, max(0, dest.start))
    )


_EXTGLOB_OPS = frozenset("!@+?*")
_ZSH_QUALIFIERS = re.compile(r"[DNM.@/=p*%^-]{1,4}")


# fish's `(… | psub)`: the substitution's last stage hands over a file holding the text
_PSUB_LAST = re.compile(r"\|\s*psub\b")

_READ_VALUED = frozenset({"-d", "-n", "-N", "-p", "-t", "-u", "-i"})


def _read_names(args: list[str]) -> tuple[list[str], str]:
    """`read`'s variable names and its delimiter from the argument texts: the words after
    `-d`/`-p`/`-n`/… are option values, not names (`read -r -d '' f`), and `-d ''` (or
    `$'\\0'`) reads up to a NUL byte (u22)."""
    names: list[str] = []
    delim = "\n"
    k = 0
    while k < len(args):
        a = args[k]
        if a in _READ_VALUED or (
            len(a) > 2 and a[0] == "-" and a[-1] in "dnNptui" and a[1:].isalpha()
        ):
            if a[-1] == "d" and k + 1 < len(args):
                raw = args[k + 1]
                value = raw[1:] if raw.startswith("$") else raw
                value = value.strip("'\"")
                delim = "\x00" if value in ("", "\\0", "\\x00", "\\000") else value[:1]
            k += 2
            continue
        if not a.startswith("-"):
            names.append(a)
        k += 1
    return names, delim


def _command_name_of(node: Node | None) -> str:
    if node is None or node.type != "command":
        return ""
    name = node.child_by_field_name("name")
    if name is None:
        return ""
    return _text(name).rsplit("/", 1)[-1]


def _body(node: Node | None) -> Node | None:
    """The simple command whose output leaves a pipeline stage (its last command)."""
    while node is not None and node.type in ("redirected_statement", "pipeline"):
        if node.type == "redirected_statement":
            node = node.child_by_field_name("body")
        else:
            named = [c for c in node.named_children if c.type != "comment"]
            node = named[-1] if named else None
    return node if node is not None and node.type == "command" else None


def _has_substitution(node: Node | None) -> bool:
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("command_substitution", "process_substitution", "simple_expansion"):
            return True
        stack.extend(n.named_children)
    return False


def _self_spawning(body: Node, name: str) -> bool:
    """A function body that starts itself more than once at a time: piped into itself or
    put in the background (`:(){ :|:& }`, `f(){ f & f; }`). Strings and nested function
    definitions (which shadow the name) do not count."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "function_definition" or n.type in _DATA_NODES:
            continue
        if n.type == "pipeline" and _calls(n, name):
            return True
        if any(c.type == "&" for c in n.children) and _calls(n, name):
            return True
        stack.extend(n.named_children)
    return False


def _calls(node: Node, name: str) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "command_name" and _text(n) == name:
            return True
        if n.type != "function_definition":
            stack.extend(n.named_children)
    return False


def _first_error(node: Node) -> Node | None:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            return n
        if n.has_error:
            stack.extend(reversed(n.children))
    return None


def _windows_write(target: str) -> tuple[RiskLevel, str, str] | None:
    """What writing `target`, a WSL path of a Windows drive (`/mnt/c/Windows/…`), does to
    Windows (None: nothing the Windows rules know)."""
    from aintern_ls.safety.windows import windows_write_target
    from aintern_ls.safety.winpaths import _flat_path

    flat = _flat_path(target)
    return windows_write_target(flat) if flat != target else None
