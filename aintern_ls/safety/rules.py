"""Judging one simple command: the dispatcher, wrappers, shells and interpreters.

`judge(words, scope, stdin)` is the one entry point: the front ends hand it every simple
command they find (already unquoted), it unwraps wrappers (`sudo`, `env`, `timeout`,
`xargs`, `bash -c`, `eval`, `python -c`, …), looks the program up in `HANDLERS` and records
findings on the scope. A program that is not known is at least moderate; "safe" only comes
from the read-only allowlist with its per-option checks.

What each program does lives in the knowledge modules, one per area, each registering its
programs with `@handles`: `files` (rm, find, dd, mkfs, chmod), `git`, `system` (processes,
services, security, accounts), `network`, `infra` (databases, containers, clusters, cloud),
`toolchains` (packages, builds, tests), `allowlist` (read-only programs and shell
built-ins) and `windows` (PowerShell cmdlets, cmd.exe).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from functools import lru_cache

from aintern_ls.safety import inline
from aintern_ls.safety.context import (
    NO_STDIN,
    STDIN_FILE,
    STDIN_NETWORK,
    STDIN_NONE,
    STDIN_OTHER,
    STDIN_STATIC,
    Cmd,
    Info,
    Scope,
    Stdin,
)
from aintern_ls.safety.levels import B, C, D, Finding, M, RiskLevel, S
from aintern_ls.safety.paths import classify_path, is_secret
from aintern_ls.safety.words import ORIGIN_NETWORK, Word, command_name, glob_candidates, names

Handler = Callable[[Cmd], None]
HANDLERS: dict[str, Handler] = {}


def handles(*programs: str) -> Callable[[Handler], Handler]:
    """Register a handler for programs. Two knowledge modules may not claim one program:
    which would win would depend on import order."""

    def register(fn: Handler) -> Handler:
        for n in programs:
            other = HANDLERS.get(n)
            if other is not None and other.__module__ != fn.__module__:
                raise RuntimeError(f"{n} is handled by {other.__module__} and {fn.__module__}")
            HANDLERS[n] = fn
        return fn

    return register


# --- the entry point ------------------------------------------------------------------

_WHATIF_IGNORED = frozenset(
    names(
        """
        invoke-expression start-process powershell pwsh cmd invoke-command sudo runas
        """
    )
)
_VERSION_FLAGS = frozenset({"--version", "-version", "--help", "-help", "-V", "/?"})
_PRIVILEGE = frozenset({"sudo", "doas", "su", "pkexec", "runas", "gsudo", "run0"})
VERSION_ARGS = frozenset({"--version", "-version", "--help", "-V", "version", "help", "-help"})


def judge(words: list[Word], scope: Scope, stdin: Stdin = NO_STDIN) -> Info:
    """Judge one simple command, recording findings on `scope`."""
    if not words:
        return Info()
    head = words[0]
    if head.dynamic and not head.text.strip():
        head = words[0]
    if head.dynamic:
        if head.origin == ORIGIN_NETWORK:
            scope.add(
                C,
                "remote-code",
                "runs a command name fetched from the network",
                head.start,
                head.end,
            )
        else:
            scope.add(
                M,
                "dynamic-command",
                "the command name is only known at run time",
                head.start,
                head.end,
            )
        return Info()
    name = command_name(head.text, scope.windows)
    if head.glob:
        candidates = glob_candidates(head.text, KNOWN_NAMES)
        scope.add(M, "glob-command", "the command name is a glob pattern", head.start, head.end)
        # `*` as a command matches everything we know: guessing would only add noise.
        for cand in candidates if len(candidates) <= 4 else []:
            judge([Word(cand, head.start, head.end), *words[1:]], scope, stdin)
        return Info()
    if scope.family == "powershell":
        name = PS_ALIASES.get(name.lower(), name.lower())
    elif scope.family == "cmd":
        name = name.lower()
    cmd = Cmd(words, name, scope, stdin)
    cmd.info.input = stdin
    if any(is_secret(w.text) for w in words[1:] if not w.dynamic):
        cmd.info.reads_secret = True
    mark = len(scope.findings)
    rules = scope.rules
    line = ""
    if rules is not None and (rules.extra_blocked or rules.extra_dangerous or rules.trusted):
        line = " ".join([name] + [w.text for w in words[1:]])
        for pattern in rules.extra_blocked:
            if _compiled(pattern).search(line):
                cmd.add(B, "user-blocked", f"matches your blocked pattern {pattern!r}")
        for pattern in rules.extra_dangerous:
            if _compiled(pattern).search(line):
                cmd.add(D, "user-dangerous", f"matches your dangerous pattern {pattern!r}")
    if (
        scope.family == "powershell"
        and name not in _WHATIF_IGNORED
        and any(w.text.lower() == "-whatif" for w in words[1:])
    ):
        return cmd.info  # -WhatIf: the cmdlet only describes what it would do
    if len(words) == 2 and words[1].text in _VERSION_FLAGS and name not in _PRIVILEGE:
        return cmd.info  # `curl --version`, `terraform -help`: prints and exits
    handler = _windows.WINDOWS_ONLY.get(name) if scope.family != "bash" else None
    if handler is None:
        handler = HANDLERS.get(name)
    if handler is not None:
        handler(cmd)
    elif len(words) == 2 and words[1].text in VERSION_ARGS:
        pass
    elif "/" in head.text or "\\" in head.text or name.endswith((".sh", ".ps1", ".py")):
        _local_script(cmd, head)
    elif scope.family == "powershell" and _PS_VERB.match(name):
        _powershell_verb(cmd)
    else:
        cmd.add(M, "unknown-command", f"`{name}` is not on the read-only allowlist", head)
    if line and rules is not None and any(_trusted(line, t) for t in rules.trusted):
        scope.findings[mark:] = [f for f in scope.findings[mark:] if f.level != M]
    return cmd.info


# PowerShell's approved verbs say what an unknown cmdlet does (Get-Verb).
_PS_VERB = re.compile(r"^([a-z]+)-[a-z0-9]+$")
_PS_READ_VERBS = frozenset(
    names(
        "get test show find measure select format convertto convertfrom compare resolve search"
        " read out trace watch wait confirm join split group sort where foreach write"
    )
)
_PS_DESTROY_VERBS = frozenset(
    names(
        "remove clear stop disable uninstall unregister reset dismount revoke block deny"
        " unpublish suspend"
    )
)


def _powershell_verb(cmd: Cmd) -> None:
    verb = cmd.name.split("-", 1)[0]
    if verb in _PS_READ_VERBS:
        return
    if verb in _PS_DESTROY_VERBS:
        cmd.add(D, "delete", f"{cmd.name} removes, stops or disables something")
    else:
        cmd.add(M, "unknown-command", f"{cmd.name} changes the system")


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error:
        return re.compile(re.escape(pattern))


def _trusted(line: str, prefix: str) -> bool:
    prefix = " ".join(prefix.split())
    return bool(prefix) and (line == prefix or line.startswith(prefix + " "))


def _local_script(cmd: Cmd, head: Word) -> None:
    base = head.text.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    if base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", head)
    else:
        cmd.add(M, "local-script", f"runs the local program {head.text}", head)
        _written_script(cmd, base, head)


def _written_script(cmd: Cmd, base: str, where: Word) -> None:
    """Running a script this same text wrote: judge what it will run."""
    written = cmd.scope.written.get(base)
    if written is not None:
        body, start = written
        cmd.scope.include(cmd.scope.nested(body, cmd.scope.family, where, start))


def _rest(cmd: Cmd, index: int) -> Info:
    """Judge the wrapped command that starts at argument `index`."""
    rest = cmd.args[index:]
    if not rest:
        return Info()
    return judge(list(rest), cmd.scope, cmd.stdin)


def _skip_options(cmd: Cmd, with_value: frozenset[str], stop_at_operand: bool = True) -> int:
    """Index of the first non-option argument, skipping options and their values."""
    i = 0
    args = cmd.args
    while i < len(args):
        t = args[i].text
        if t == "--":
            return i + 1
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in with_value else 1
            continue
        if stop_at_operand:
            return i
        i += 1
    return i


# --- wrappers ---------------------------------------------------------------------------


@handles("sudo", "doas", "pkexec", "gsudo", "run0")
def _sudo(cmd: Cmd) -> None:
    cmd.scope.add(
        C, "sudo", f"{cmd.name} runs the command as root", cmd.words[0].start, cmd.words[0].end
    )
    with_value = frozenset(
        names(
            """
            -u -g -h -p -C -D -r -t -T -U --user --group --host --prompt --chdir
            """
        )
    )
    i = _skip_options(cmd, with_value)
    if i < len(cmd.args) and "=" in cmd.args[i].text and cmd.name == "sudo":
        while i < len(cmd.args) and "=" in cmd.args[i].text:
            i += 1
    _rest(cmd, i)


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
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))


@handles("env")
def _env(cmd: Cmd) -> None:
    split = cmd.option_value("-S", "--split-string")
    if split is not None:
        cmd.scope.include(cmd.scope.nested(split.text, "bash", split))
        return
    i = _skip_options(cmd, frozenset({"-u", "-C", "--unset", "--chdir"}))
    while i < len(cmd.args) and "=" in cmd.args[i].text:
        i += 1
    _rest(cmd, i)


def _simple_wrapper(with_value: frozenset[str], positional: int = 0) -> Handler:
    def handler(cmd: Cmd) -> None:
        i = _skip_options(cmd, with_value) + positional
        _rest(cmd, i)

    return handler


for _names, _opts, _pos in (
    (("nice",), {"-n", "--adjustment"}, 0),
    (("ionice",), {"-c", "-n", "--class", "--classdata"}, 0),
    (
        names(
            """
            nohup setsid unbuffer builtin caffeinate proxychains torsocks time strace ltrace
            catchsegv firejail dbus-launch sg
            """
        ),
        {"-o", "-f", "-e"},
        0,
    ),
    (("timeout", "gtimeout"), {"-s", "-k", "--signal", "--kill-after"}, 1),
    (("stdbuf",), {"-i", "-o", "-e"}, 0),
    (("chrt",), {"-p"}, 1),
    (("taskset",), {"-c", "--cpu-list"}, 0),
    (("flock",), {"-w", "-E", "--timeout", "-c"}, 1),
    (("chroot",), {"--userspec", "--groups"}, 1),
    (("unshare",), {"-t", "--target"}, 0),
):
    for _n in _names:
        handles(_n)(_simple_wrapper(frozenset(_opts), _pos))


@handles("exec")
def _exec(cmd: Cmd) -> None:
    _rest(cmd, _skip_options(cmd, frozenset({"-a"})))


@handles("command")
def _command(cmd: Cmd) -> None:
    if cmd.short("vV"):
        return
    _rest(cmd, _skip_options(cmd, frozenset()))


@handles("watch")
def _watch(cmd: Cmd) -> None:
    # watch hands its arguments to `sh -c`, so one quoted argument is a whole script.
    i = _skip_options(cmd, frozenset({"-n", "--interval", "-d"}))
    if len(cmd.args) == i + 1:
        cmd.scope.include(cmd.scope.nested(cmd.args[i].text, "bash", cmd.args[i]))
    else:
        _rest(cmd, i)


@handles("script")
def _script(cmd: Cmd) -> None:
    code = cmd.option_value("-c", "--command")
    if code is not None:
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
    else:
        cmd.add(M, "shell", "script records a new interactive shell")


@handles("at", "batch")
def _at(cmd: Cmd) -> None:
    if (cmd.short("lq") and not cmd.short("f")) or (cmd.name == "at" and cmd.short("r")):
        return
    if cmd.stdin.kind == STDIN_STATIC:
        cmd.scope.include(cmd.scope.nested(cmd.stdin.text, "bash", cmd.words[0], cmd.stdin.start))
    cmd.add(M, "schedule", f"{cmd.name} schedules commands to run later")


@handles("fuser")
def _fuser(cmd: Cmd) -> None:
    if cmd.short("k"):
        cmd.add(D, "kill", "fuser -k kills the processes using a file or port")


@handles("nsenter")
def _nsenter(cmd: Cmd) -> None:
    target = cmd.option_value("-t", "--target")
    if target is not None and target.text == "1":
        cmd.add(C, "container-escape", "enters the host's (PID 1) namespaces")
    i = _skip_options(cmd, frozenset({"-t", "--target", "-S", "-G", "--setuid", "--setgid"}))
    _rest(cmd, i)


@handles("xargs")
def _xargs(cmd: Cmd) -> None:
    with_value = frozenset(
        names(
            """
            -I -i -n -P -L -l -d -E -e -s -a --delimiter --max-args --max-procs --arg-file
            """
        )
    )
    i = _skip_options(cmd, with_value)
    replace = cmd.option_value("-I")
    rest = list(cmd.args[i:])
    if not rest:
        return
    items = Word("{items}", cmd.start, cmd.end, dynamic=True)
    if replace is not None:
        rest = [
            Word(items.text, w.start, w.end, True) if replace.text in w.text else w for w in rest
        ]
    else:
        rest.append(Word(items.text, rest[-1].start, rest[-1].end, dynamic=True))
    judge(rest, cmd.scope, NO_STDIN)


# --- shells, eval and interpreters ------------------------------------------------------

SHELLS = frozenset(
    names(
        """
        sh bash zsh dash ksh mksh ash fish busybox csh tcsh yash rbash
        """
    )
)
ENV_SETUP = frozenset(
    names(
        """
        ssh-agent brew pyenv rbenv nodenv direnv opam conda zoxide starship fnm thefuck
        dircolors mise rtx jenv goenv keychain gpg-agent luarocks register-python-argcomplete
        kubectl helm gh npm atuin mcfly frum asdf docker-machine minikube ssh-add op aws
        podman-machine pip uv poetry
        """
    )
)


def _run_code_from_stdin(cmd: Cmd, language: str) -> None:
    """A shell or interpreter reading its program from stdin."""
    st = cmd.stdin
    head = cmd.words[0]
    if st.kind == STDIN_NETWORK:
        cmd.add(C, "pipe-to-shell", f"pipes a download straight into {cmd.name}")
    elif st.kind == STDIN_STATIC:
        if language in ("bash", "powershell", "cmd"):
            found = cmd.scope.nested(st.text, language, head, st.start)
        else:
            found = _code_findings(cmd, st.text, head, st.start)
        cmd.scope.include(found)
        if st.decoded:
            cmd.add(C, "encoded-command", f"runs decoded (hidden) text with {cmd.name}")
    elif st.kind == STDIN_FILE:
        cmd.add(M, "local-script", f"{cmd.name} runs a local script")
    elif st.kind == STDIN_NONE:
        cmd.add(M, "shell", f"starts an interactive {cmd.name}", head)
    else:
        cmd.add(C, "pipe-to-shell", f"pipes another command's output into {cmd.name}")


def _run_code_arg(cmd: Cmd, code: Word, language: str) -> None:
    """`bash -c CODE`, `eval CODE`, `python -c CODE`."""
    if code.dynamic and code.origin == "env-setup":
        cmd.add(M, "env-setup", "evaluates the output of a known environment-setup tool", code)
    elif code.dynamic and code.origin == ORIGIN_NETWORK:
        cmd.add(C, "remote-code", "runs code downloaded from the network", code)
    elif code.dynamic and code.origin == "decoded":
        cmd.add(C, "encoded-command", "runs decoded (hidden) text", code)
        cmd.scope.include(cmd.scope.nested(code.text, language, code, -1))
    elif code.dynamic and code.origin == "static":
        # `eval "$(printf 'ls')"`: the text is known, so judge it, but it is odd enough to flag.
        cmd.add(M, "indirect-code", "runs code built by another command", code)
        cmd.scope.include(cmd.scope.nested(code.text, language, code, -1))
    elif code.dynamic:
        cmd.add(C, "eval-dynamic", "runs code that is only known at run time (opaque)", code)
    elif language == "bash":
        cmd.scope.include(cmd.scope.nested(code.text, "bash", code))
    else:
        cmd.scope.include(_code_findings(cmd, code.text, code, -1))


def _code_findings(cmd: Cmd, code: str, where: Word, code_start: int) -> list[Finding]:
    scope = cmd.scope
    found: list[Finding] = []
    for shell_cmd in inline.shell_commands(code):
        found += scope.nested(shell_cmd, "bash", where, -2)
    for path in inline.deleted_paths(code):
        t = classify_path(path, frozenset([None]), scope.windows)
        found.append(
            _finding(
                max(t.level, D),
                "code-" + t.rule if t.rule != "scoped" else "code-delete",
                f"inline code deletes {t.what}",
                where,
            )
        )
    level, rule, reason = inline.judge_code(code)
    if level:
        found.append(_finding(level, rule, reason, where))
    return found


def _finding(level: RiskLevel, rule: str, reason: str, where: Word) -> Finding:
    return Finding(level, rule, reason, where.start, where.end)


@handles(*SHELLS)
def _shell(cmd: Cmd) -> None:
    args = cmd.args
    i = 0
    code_flag = stdin_flag = False
    while i < len(args):
        t = args[i].text
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if t == "--":
            i += 1
            break
        if (t.startswith("-") and len(t) > 1) or t.startswith("+"):
            if not t.startswith("--") and "c" in t[1:]:
                code_flag = True
            if not t.startswith("--") and "s" in t[1:]:
                stdin_flag = True
            i += 1
            continue
        break
    if stdin_flag and not code_flag:
        _run_code_from_stdin(cmd, "bash")
        return
    if code_flag:
        if i < len(args):
            _run_code_arg(cmd, args[i], "bash")
        return
    if cmd.name == "busybox" and i < len(args):
        _rest(cmd, i)
        return
    if i < len(args) and args[i].text not in ("-", "/dev/stdin"):
        _script_operand(cmd, args[i])
        return
    _run_code_from_stdin(cmd, "bash")


def _script_operand(cmd: Cmd, script: Word) -> None:
    base = script.text.rsplit("/", 1)[-1]
    if script.dynamic and script.origin == ORIGIN_NETWORK:
        cmd.add(C, "remote-code", f"{cmd.name} runs a script straight from the network", script)
    elif base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", script)
    elif script.text in ("/dev/stdin", "-"):
        _run_code_from_stdin(cmd, "bash")
    else:
        cmd.add(M, "local-script", f"{cmd.name} runs the local script {script.text}", script)
        _written_script(cmd, base, script)


@handles("source", ".")
def _source(cmd: Cmd) -> None:
    ops = cmd.operands()
    if ops:
        _script_operand(cmd, ops[0])


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
    if not dynamic and len(cmd.args) == 1:
        cmd.scope.include(cmd.scope.nested(text, "bash", first))
        return
    if not dynamic:
        cmd.scope.include(cmd.scope.nested(text, "bash", code, start))
        return
    _run_code_arg(cmd, code, "bash")


@handles("alias")
def _alias(cmd: Cmd) -> None:
    for w in cmd.args:
        name, eq, value = w.text.partition("=")
        if not eq:
            continue
        found = cmd.scope.nested(value + ' "$@"', "bash", w, -1)
        level = max((f.level for f in found), default=S)
        if level >= D:
            cmd.add(C, "alias-hides", f"alias {name} hides a {level.label} command", w)
        else:
            cmd.add(M, "alias", f"alias {name} changes what a later command does", w)


@handles("trap")
def _trap(cmd: Cmd) -> None:
    ops = cmd.operands()
    if ops and ops[0].text not in ("-", ""):
        cmd.scope.include(cmd.scope.nested(ops[0].text, "bash", ops[0]))


INTERPRETER = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*"
    r"|luajit|rscript|deno|bun|tclsh|jshell|osascript|groovy|scala|julia|irb)$",
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


def _interpreter(cmd: Cmd) -> None:
    family = re.sub(r"[0-9.]+$", "", cmd.name.lower()).replace("nodejs", "node")
    family = {"pypy": "python", "luajit": "lua"}.get(family, family)
    args = cmd.args
    if len(args) == 1 and args[0].text in (*VERSION_ARGS, "-v", "--v"):
        return
    flags = _CODE_FLAGS.get(family, ())
    i = 0
    while i < len(args):
        t = args[i].text
        if family == "python" and t == "-m" and i + 1 < len(args):
            module = args[i + 1].text
            if module in _PY_MODULES_SAFE or module.startswith("pytest"):
                return
            judge(
                [Word(module, args[i + 1].start, args[i + 1].end), *args[i + 2 :]],
                cmd.scope,
                cmd.stdin,
            )
            return
        if t in flags or (
            family == "python"
            and t.startswith("-")
            and not t.startswith("--")
            and t.endswith("c")
            and len(t) > 2
        ):
            if i + 1 < len(args):
                _run_code_arg(cmd, args[i + 1], family)
            return
        if family in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*i\S*", t):
            cmd.add(M, "write", f"{cmd.name} -i edits files in place")
        if family in ("perl", "ruby") and re.fullmatch(r"-[a-zA-Z]*[eE]", t) and i + 1 < len(args):
            _run_code_arg(cmd, args[i + 1], family)
            if "i" in t:
                cmd.add(M, "write", f"{cmd.name} -i edits files in place")
            return
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in ("-W", "-X", "-I", "-r", "--require", "-M") else 1
            continue
        if t == "run" and family in ("deno", "bun"):
            i += 1
            continue
        if t == "-":
            break
        if re.match(r"^https?://", t):
            cmd.add(C, "remote-code", f"{cmd.name} runs a script from the network", args[i])
        else:
            _script_operand(cmd, args[i])
        return
    _run_code_from_stdin(cmd, family)


for _n in names(
    """
    python python2 python3 pypy pypy3 perl ruby node nodejs php lua luajit Rscript rscript deno
    tclsh osascript irb jshell groovy julia
    python3.8 python3.9 python3.10 python3.11 python3.12 python3.13 python3.14
    """
):
    handles(_n)(_interpreter)


@handles("awk", "gawk", "mawk", "nawk")
def _awk(cmd: Cmd) -> None:
    if cmd.option_value("-f") is not None:
        cmd.add(M, "local-script", f"{cmd.name} runs a program file")
        return
    ops = cmd.operands(frozenset({"-F", "-v", "--field-separator", "--assign"}))
    if not ops:
        return
    prog = ops[0]
    found = _code_findings_awk(cmd, prog)
    cmd.scope.include(found)


def _code_findings_awk(cmd: Cmd, prog: Word) -> list[Finding]:
    found: list[Finding] = []
    for shell_cmd in inline.shell_commands(prog.text):
        found += cmd.scope.nested(shell_cmd, "bash", prog, -2)
    if re.search(r"system\s*\(|\|\s*getline|print[^;}]*[|>]", prog.text):
        found.append(_finding(M, "inline-code", "awk program runs commands or writes files", prog))
    if cmd.short("i") and cmd.has("-i", "inplace"):
        found.append(_finding(M, "write", "edits files in place", prog))
    return found


# --- stdin transformations used to see through `echo … | base64 -d | sh` ----------------


def transform_output(info: Info, stdin: Stdin) -> Stdin | None:
    """Static stdout of a decoder given static stdin (base64 -d, xxd -r -p, rev)."""
    if stdin.kind != STDIN_STATIC:
        return None
    text = stdin.text
    try:
        if info.name in ("base64", "base32") and info.decodes:
            raw = (base64.b64decode if info.name == "base64" else base64.b32decode)(
                text.strip() + "=" * (-len(text.strip()) % 4 if info.name == "base64" else 0)
            )
            return Stdin(STDIN_STATIC, raw.decode("utf-8", "replace"), -1, decoded=True)
        if info.name == "xxd" and info.decodes:
            raw = binascii.unhexlify(re.sub(r"\s", "", text))
            return Stdin(STDIN_STATIC, raw.decode("utf-8", "replace"), -1, decoded=True)
    except (binascii.Error, ValueError):
        return None
    if info.name == "rev":
        return Stdin(STDIN_STATIC, "\n".join(line[::-1] for line in text.split("\n")), -1, True)
    if info.name in ("cat", "tee", "sort-static"):
        return stdin
    return None


_PASS_THROUGH = frozenset(
    names(
        """
        tee cat sort head tail tr dos2unix sed grep uniq cut awk tac iconv fold col tee-object
        out-string select-object
        """
    )
)


def next_stdin(info: Info, prev: Stdin) -> Stdin:
    """What the next stage of a pipeline reads, given what this stage was."""
    if info.network_fetch:
        return Stdin(STDIN_NETWORK)
    if info.output is not None:
        return Stdin(STDIN_STATIC, info.output, -1)
    transformed = transform_output(info, info.input or prev)
    if transformed is not None:
        return transformed
    if info.name in _PASS_THROUGH and prev.kind == STDIN_NETWORK:
        return prev
    if info.reads_secret or (prev.secret and info.name in _PASS_THROUGH):
        return Stdin(STDIN_OTHER, secret=True)
    if info.paths:
        return Stdin(STDIN_OTHER, paths=info.paths)
    if info.name in ("cat", "get-content"):
        return Stdin(STDIN_FILE)
    return Stdin(STDIN_OTHER)


KNOWN_NAMES: frozenset[str] = frozenset()


def _finish_tables() -> None:
    global KNOWN_NAMES
    KNOWN_NAMES = frozenset(n for n in HANDLERS if re.fullmatch(r"[a-z][a-z0-9_.+-]*", n))


# The knowledge modules register their programs into HANDLERS on import (`handles`
# refuses a program claimed by two modules, so their order does not matter).
from aintern_ls.safety import (  # noqa: E402, F401
    allowlist,
    files,
    git,
    infra,
    network,
    system,
    toolchains,
)
from aintern_ls.safety import windows as _windows  # noqa: E402

PS_ALIASES = _windows.PS_ALIASES
_windows.register(HANDLERS, handles)
_finish_tables()
