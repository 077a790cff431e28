"""Source the block shows, handed to a compiler or a single-file launcher (n17u).

`rustc - -o w <<EOF … EOF; ./w`, `cat > w.zig …; zig run w.zig`, `nim r w.nim`,
`rdmd --eval=CODE`, `dmd -run w.d`, `java W.java` (single-file launch), `jshell s.jsh`,
`kotlin w.main.kts`, `kotlinc -script -`, `scala w.sc`, `swift w.swift`, `rust-script w.rs`,
`swiftc w.swift -o w && ./w`: the program that runs is the source written above (a file this
block wrote, or the compiler's standard input), so its visible code is judged like inline
interpreter code (`inline.code_findings`). A tool that runs the program at once is judged
now; a build (`-o NAME`, or the source's stem) is remembered under the binary's base name
(`registry.COMPILED`, with its language) and judged when `./NAME` runs. What cannot be read
stays as it was (the tool's own level); a run of unreadable code is at least moderate.
C compilers (gcc/cc/clang/tcc) are `system.compiled_source`; versioned and cross names
(`gcc-13`, `x86_64-linux-gnu-gcc`, `clang-17`) are sent there from here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from aintern_ls.safety import inline, system
from aintern_ls.safety.context import STDIN_STATIC, Cmd
from aintern_ls.safety.levels import M
from aintern_ls.safety.registry import COMPILED
from aintern_ls.safety.words import Word, names

# The suffixes of the source files each language reads (the inline reader's family name).
_SUFFIX_LANG = {
    ".rs": "rust",
    ".zig": "zig",
    ".nim": "nim",
    ".nims": "nim",
    ".d": "d",
    ".swift": "swift",
    ".java": "java",
    ".jsh": "java",
    ".kt": "java",
    ".kts": "java",
    ".scala": "java",
    ".sc": "java",
    ".hs": "haskell",
    ".lhs": "haskell",
    ".dart": "dart",
    ".cr": "ruby",  # (Crystal reads like Ruby: `system("…")`, `FileUtils.rm_rf`)
    ".go": "go",
}

# tool: (default language, how it treats the program: "build" makes a binary, "run" runs
# it at once, "verb" decides by its first operand / options below)
_TOOLS: dict[str, tuple[str, str]] = {
    "rustc": ("rust", "build"),
    "swiftc": ("swift", "build"),
    "swift": ("swift", "run"),
    "zig": ("zig", "verb"),
    "nim": ("nim", "verb"),
    "rdmd": ("d", "run"),
    "dmd": ("d", "verb"),
    "ldc2": ("d", "verb"),
    "ldmd2": ("d", "verb"),
    "gdc": ("d", "build"),
    "java": ("java", "run"),
    "jshell": ("java", "run"),
    "kotlin": ("java", "run"),
    "kotlinc": ("java", "verb"),
    "kotlinc-jvm": ("java", "verb"),
    "scala": ("java", "run"),
    "scala-cli": ("java", "run"),
    "amm": ("java", "run"),
    "rust-script": ("rust", "run"),
    "cargo-script": ("rust", "run"),
    "cargo-eval": ("rust", "run"),
    "runghc": ("haskell", "run"),
    "runhaskell": ("haskell", "run"),
    "ghc": ("haskell", "build"),
    "dart": ("dart", "verb"),
    "crystal": ("ruby", "verb"),
    "javac": ("java", "build"),
    "go": ("go", "verb"),
}
# Tools whose standard input is already read as code elsewhere (the interpreter path).
_STDIN_READ_ELSEWHERE = frozenset(names("swift jshell kotlin scala"))
_ZIG_RUN = frozenset(names("run test"))
_ZIG_BUILD = frozenset(names("build-exe build-obj build-lib"))
_NIM_RUN = frozenset(names("r run e"))
_NIM_BUILD = frozenset(names("c cc cpp compile compileToC compileToCpp objc js"))
# (`swift build`, `scala-cli package`: project verbs, not a single file)
_PROJECT_VERBS = frozenset(names("build test package publish init new fmt clean setup-ide"))
_EVAL_OPTIONS = ("--eval", "-e", "--expr", "--loop")
_C_BASES = frozenset(names("gcc g++ cc c++ clang clang++"))

RUNNERS = frozenset(_TOOLS)


@lru_cache(maxsize=1024)
def c_compiler(name: str) -> bool:
    """`gcc-13`, `x86_64-linux-gnu-gcc`, `clang-17`: a C compiler under another name."""
    if "-" not in name or len(name) > 64 or name in system.C_COMPILERS:
        return False
    stem, _, last = name.rpartition("-")
    if last.replace(".", "").isdigit():  # `gcc-13`, `clang-17`, `…-gcc-10`
        name = stem
    return name.rpartition("-")[2] in _C_BASES


def _mode(cmd: Cmd, kind: str, ops: list[str]) -> str:
    if kind != "verb":
        return kind
    verb = ops[0] if ops else ""
    n = cmd.name
    if n == "zig":
        return "run" if verb in _ZIG_RUN else "build" if verb in _ZIG_BUILD else ""
    if n == "nim":
        if verb in _NIM_RUN or (verb in _NIM_BUILD and cmd.has("-r", "--run")):
            return "run"
        return "build" if verb in _NIM_BUILD else ""
    if n in ("kotlinc", "kotlinc-jvm"):
        return "run" if cmd.has("-script") else ""
    if n == "go":
        return "build" if verb == "build" else ""  # (`go run`: toolchains.py)
    if n in ("dart", "crystal"):
        if verb in ("compile", "build"):
            return "build"
        return "run" if verb in ("run", "eval") or verb.endswith((".dart", ".cr")) else ""
    return "run" if cmd.has("-run") else "build"  # dmd / ldc2: `-run file.d` runs it


def _output(cmd: Cmd, source_name: str) -> str:
    """The base name of the binary a build makes (`-o X`, `-ofX`, `-femit-bin=X`, else the
    source's stem)."""
    out = cmd.option_value("-o")
    text = out.text if out is not None and not out.dynamic else ""
    for w in cmd.args:
        t = w.text
        if t.startswith(("-of=", "--of=", "-femit-bin=")):
            text = t.split("=", 1)[1]
        elif t.startswith("-of") and len(t) > 3 and cmd.name in ("dmd", "ldc2", "ldmd2"):
            text = t[3:]
    if not text:
        stem = source_name.rsplit("/", 1)[-1].split(".", 1)[0]
        text = stem if stem and stem != "-" else "rust_out" if cmd.name == "rustc" else "main"
    return text.rsplit("/", 1)[-1]


def _javac_class(cmd: Cmd, name: str) -> str | None:
    """The source `javac` compiled above for the class `java NAME` runs."""
    held = cmd.scope.env.get(COMPILED + name) if "." not in name and "/" not in name else None
    return held.split("\x02", 2)[2] if held and held.startswith("\x02java\x02") else None


def judge(cmd: Cmd) -> None:
    """`rustc w.rs -o w`, `zig run w.zig`, `java W.java`, `swift -`: the program these run
    or build is the source shown above (n17u)."""
    if any(w.text in ("--help", "-h", "--version", "-V", "-help") for w in cmd.args):
        return
    language, kind = _TOOLS[cmd.name]
    ops = [w.text for w in cmd.args if not w.text.startswith("-") or w.text == "-"]
    if cmd.name in ("swift", "scala-cli") and ops and ops[0] in _PROJECT_VERBS:
        return
    mode = _mode(cmd, kind, ops)
    if not mode:
        return
    written = cmd.scope.written
    source = name = ""
    lang = language
    for w in cmd.args:
        t = w.text
        if w.dynamic or (t.startswith("-") and t != "-"):
            continue
        suffix = "." + t.rsplit(".", 1)[-1] if "." in t.rsplit("/", 1)[-1] else ""
        if suffix in _SUFFIX_LANG and (held := written.get(t.rsplit("/", 1)[-1])):
            source, name, lang = held[0], t, _SUFFIX_LANG[suffix]
            break
        if (
            t in ("-", "/dev/stdin", "_")
            and cmd.stdin.kind == STDIN_STATIC
            and cmd.name not in _STDIN_READ_ELSEWHERE
        ):
            source, name = cmd.stdin.text, "-"
            break
    if not source and cmd.name not in _STDIN_READ_ELSEWHERE and system.stdin_dash(cmd):
        source, name = cmd.stdin.text, "-"  # (f18) `rustc -o w - <<EOF`
    if not source and cmd.name == "java" and ops and (built := _javac_class(cmd, ops[0])):
        source, name, lang = built, ops[0], "java"  # `javac W.java && java W`
    if not source and mode == "run" and cmd.name in ("rdmd", "rust-script", "cargo-script"):
        code = cmd.option_value(*_EVAL_OPTIONS)
        if code is not None and not code.dynamic:
            source, name = code.text, code.text
    if (
        not source
        and mode == "run"
        and not ops
        and cmd.stdin.kind == STDIN_STATIC
        and cmd.name in ("kotlinc", "kotlinc-jvm", "rdmd")
    ):
        source, name = cmd.stdin.text, "-"
    if not source:
        if mode == "run":
            cmd.add(M, "build", f"{cmd.name} compiles and runs a program")
        return
    if mode == "run":
        where = Word(name, cmd.start, cmd.end)
        what = f"the program {cmd.name} runs"
        cmd.scope.include(inline.code_findings(cmd.scope, source, where, lang, what))
        cmd.add(M, "build", f"{cmd.name} compiles and runs a program")
        return
    base = _output(cmd, name)
    if base:
        cmd.scope.env[COMPILED + base] = f"\x02{lang}\x02{source[:20000]}"
    cmd.add(M, "build", f"{cmd.name} builds a program")


def c_named(cmd: Cmd) -> None:
    """A versioned or cross C compiler name: judged as the C compiler it is."""
    system.compiled_source(cmd)
    cmd.add(M, "build", f"{cmd.name} builds a program")


# (n17u) Apache Ant: `ant -f /dev/stdin <<EOF`, `cat > build.xml …; ant`: the build file's
# tasks run. Its delete/exec tasks are turned into the shell lines they amount to (Ant's
# `${user.home}` is home) and judged as those.
_ANT_TAG = re.compile(r"<(delete|exec)\b([^<>]{0,4000})>", re.I)
_ANT_ATTR = re.compile(r"\b(dir|file|executable|value|line|path)\s*=\s*(['\"])([^'\"]{0,2000})\2")
_ANT_FILESET = re.compile(r"<(?:fileset|dirset)\b([^<>]{0,4000})>", re.I)


def _ant_value(text: str) -> str:
    import html

    return html.unescape(text).replace("${user.home}", "~").replace("${env.HOME}", "~")


def _ant_attrs(text: str) -> dict[str, str]:
    return {k.lower(): _ant_value(v) for k, _q, v in _ANT_ATTR.findall(text)}


def ant_commands(xml: str) -> str:
    """The shell lines an Ant build file's delete and exec tasks amount to."""
    import shlex

    xml = xml[:20000]
    low = xml.lower()
    lines: list[str] = []
    for m in _ANT_TAG.finditer(xml):
        kind, head = m.group(1).lower(), m.group(2)
        closed = head.rstrip().endswith("/")
        end = m.end() if closed else low.find(f"</{kind}>", m.end())
        body = "" if closed or end < 0 else xml[m.end() : end]
        attrs = _ant_attrs(head)
        if kind == "delete":
            if "dir" in attrs:
                lines.append("rm -rf " + shlex.quote(attrs["dir"]))
            if "file" in attrs:
                lines.append("rm -f " + shlex.quote(attrs["file"]))
            for fs in _ANT_FILESET.finditer(body):
                sub = _ant_attrs(fs.group(1))
                if "dir" in sub:
                    lines.append("rm -rf " + shlex.quote(sub["dir"].rstrip("/") + "/") + "*")
        elif attrs.get("executable"):
            argv = [attrs["executable"]]
            for k, _q, v in _ANT_ATTR.findall(body):
                argv += shlex.split(_ant_value(v)) if k.lower() == "line" else [_ant_value(v)]
            lines.append(" ".join(shlex.quote(a) for a in argv))
    return "\n".join(lines)


def ant(cmd: Cmd) -> None:
    """`ant [-f FILE] [targets]`: the build file shown in the block (stdin or written)."""
    if any(w.text in ("-h", "-help", "--help", "-version", "-p", "-projecthelp") for w in cmd.args):
        return
    src = cmd.option_value("-f", "-file", "-buildfile")
    name = src.text if src is not None and not src.dynamic else "build.xml"
    text = None
    if name in ("-", "/dev/stdin") and cmd.stdin.kind == STDIN_STATIC:
        text = cmd.stdin.text
    elif cmd.scope.written:
        from aintern_ls.safety.wrappers import written_code

        text = written_code(cmd.scope, name)  # (f18: a cmd echo's line keeps its quotes)
    if not text or "<" not in text:
        return
    lines = ant_commands(text)
    if not lines:
        return
    where = Word(name, cmd.start, cmd.end)
    for f in cmd.scope.nested(lines, "bash", where, -1):
        cmd.scope.add(f.level, f.rule, f"the Ant build runs: {f.reason}", f.start, f.end)
