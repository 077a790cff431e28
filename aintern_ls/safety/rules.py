"""Command knowledge: what each program does with its options, and how risky that is.

`judge(words, scope, stdin)` is the one entry point: the front ends hand it every simple
command they find (already unquoted), it unwraps wrappers (`sudo`, `env`, `timeout`,
`xargs`, `bash -c`, …), looks the program up in `HANDLERS` and records findings on the
scope. A program that is not known is at least moderate; "safe" only comes from the
read-only allowlist with its per-option checks.
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
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.paths import classify_path, is_device, is_secret
from aintern_ls.safety.words import ORIGIN_NETWORK, Word, command_name, glob_candidates, names

S, M, D, C, B = (
    RiskLevel.SAFE,
    RiskLevel.MODERATE,
    RiskLevel.DANGEROUS,
    RiskLevel.CRITICAL,
    RiskLevel.BLOCKED,
)

Handler = Callable[[Cmd], None]
HANDLERS: dict[str, Handler] = {}


def handles(*programs: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in programs:
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
        HANDLERS[_n] = _simple_wrapper(frozenset(_opts), _pos)


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
    bun tclsh osascript irb jshell groovy julia
    """
):
    HANDLERS[_n] = _interpreter
for _v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14"):
    HANDLERS["python" + _v] = _interpreter


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


# --- deleting things --------------------------------------------------------------------


def _delete_targets(cmd: Cmd, targets: list[Word], recursive: bool, verb: str) -> None:
    """Judge each target of a delete; the worst one decides the finding."""
    if not targets:
        return
    scope = cmd.scope
    worst_level, worst = RiskLevel.SAFE, None
    worst_word = targets[-1]
    for t in targets:
        if t.dynamic and not t.text.strip("{}items"):
            level, rule, what = D, "scoped", "files chosen at run time"
        else:
            target = classify_path(t.text, scope.cwds, scope.windows)
            level, rule, what = target.level, target.rule, target.what
            if not recursive and level == B:
                # Without -r only files go: a glob over a system dir still breaks it.
                level = C if t.glob and rule in ("rm-system", "rm-root") else D
            if t.dynamic and level < D:
                level = D
        if level > worst_level:
            worst_level, worst, worst_word = level, (rule, what), t
    if worst is None:
        return
    rule, what = worst
    if worst_level >= C:
        cmd.add(worst_level, rule, f"{verb} {what}", worst_word)
    else:
        cmd.add(
            D,
            cmd.name if cmd.name in ("rm", "shred") else "delete",
            f"{verb} " + ("files" if not recursive else "directories recursively"),
            worst_word,
        )


@handles("rm", "srm", "trash", "trash-put", "gio")
def _rm(cmd: Cmd) -> None:
    if cmd.name == "gio" and (not cmd.args or cmd.args[0].text not in ("remove", "trash")):
        cmd.add(M, "unknown-command", "gio may change files")
        return
    recursive = cmd.short("rR") or cmd.long("--recursive")
    targets = cmd.operands()
    if cmd.name == "gio":
        targets = targets[1:]
    if not targets:
        cmd.add(M, "rm", "rm without operands")
        return
    _delete_targets(cmd, targets, recursive, "deletes")


@handles("shred", "wipe", "unlink", "truncate")
def _shred(cmd: Cmd) -> None:
    targets = cmd.operands(frozenset({"-n", "-s", "--size", "-r", "--reference", "--iterations"}))
    for t in targets:
        if is_device(t.text):
            cmd.add(B, "disk-wipe", f"{cmd.name} destroys the disk {t.text}", t)
            return
    if cmd.name == "truncate":
        cmd.add(D, "truncate", "truncate discards file contents")
        return
    _delete_targets(cmd, targets, cmd.short("r") and cmd.name == "wipe", f"{cmd.name} destroys")


@handles("rmdir")
def _rmdir(cmd: Cmd) -> None:
    if cmd.scope.family == "cmd":
        return _windows.WINDOWS_ONLY["rd"](cmd)
    cmd.add(M, "rmdir", "removes empty directories")
    return None


_FIND_FILTERS = frozenset(
    names(
        """
        -name -iname -path -ipath -wholename -iwholename -regex -iregex -newer -mtime -mmin
        -atime -amin -ctime -cmin -size -user -group -perm -empty -links -inum -samefile -lname
        -ilname -used -nouser -nogroup -newermt -uid -gid
        """
    )
)


_DELETERS = frozenset({"rm", "shred", "unlink", "srm", "wipe", "truncate"})


@handles("find", "gfind", "fd", "fdfind")
def _find(cmd: Cmd) -> None:
    args = cmd.args
    if cmd.name in ("fd", "fdfind"):
        x = next(
            (i for i, w in enumerate(args) if w.text in ("-x", "--exec", "-X", "--exec-batch")),
            None,
        )
        if x is not None and x + 1 < len(args):
            judge([*args[x + 1 :], Word("{}", args[-1].start, args[-1].end, True)], cmd.scope)
        return
    starts: list[Word] = []
    i = 0
    while i < len(args) and args[i].text in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    while i < len(args) and not args[i].text.startswith(("-", "(", "!")):
        starts.append(args[i])
        i += 1
    filtered = any(w.text in _FIND_FILTERS for w in args[i:])
    start_words = starts or [Word(".", cmd.words[0].start, cmd.words[0].end)]
    while i < len(args):
        t = args[i].text
        if t == "-delete":
            if filtered:
                cmd.add(D, "find-delete", "find -delete deletes the matching files", args[i])
            else:
                before = len(cmd.scope.findings)
                _delete_targets(cmd, start_words, True, "find -delete deletes")
                for k in range(before, len(cmd.scope.findings)):
                    f = cmd.scope.findings[k]
                    if f.level < C:
                        cmd.scope.findings[k] = _finding(
                            D, "find-delete", "find -delete deletes everything it finds", args[i]
                        )
                    else:
                        cmd.scope.findings[k] = _finding(
                            f.level, f.rule, f.reason, Word("", cmd.start, args[i].end)
                        )
        elif t in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+", "\\;"):
                j += 1
            inner = list(args[i + 1 : j])
            if inner:
                subst = start_words[0] if not filtered and len(start_words) == 1 else None
                inner = [
                    (
                        Word(subst.text, w.start, w.end)
                        if subst is not None
                        else Word("{}", w.start, w.end, dynamic=True)
                    )
                    if w.text == "{}"
                    else w
                    for w in inner
                ]
                judge(inner, cmd.scope)
                if not filtered and inner and inner[0].text in _DELETERS:
                    before = len(cmd.scope.findings)
                    _delete_targets(cmd, start_words, True, f"find -exec {inner[0].text} destroys")
                    cmd.scope.findings[before:] = [
                        f for f in cmd.scope.findings[before:] if f.level >= C
                    ]
            i = j
        elif t in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            cmd.add(M, "write", f"find {t} writes a file", args[i])
        i += 1


# --- raw disks, filesystems, permissions -------------------------------------------------


@handles("dd")
def _dd(cmd: Cmd) -> None:
    for w in cmd.args:
        if w.text.startswith("of=") and is_device(w.text[3:]):
            cmd.add(B, "disk-write", f"dd overwrites the raw disk {w.text[3:]}", w)
            return
    if any(w.text.startswith("of=") for w in cmd.args):
        cmd.add(M, "write", "dd writes a file")


def _mkfs(cmd: Cmd) -> None:
    cmd.add(B, "mkfs", f"{cmd.name} erases a filesystem or partition table")


for _n in names(
    """
    mkfs mke2fs mkdosfs mkntfs wipefs sgdisk sfdisk gdisk cfdisk blkdiscard mkfs.ext2 mkfs.ext3
    mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.vfat mkfs.fat mkfs.ntfs mkfs.exfat mkfs.f2fs
    format-volume clear-disk initialize-disk remove-partition zpool cryptsetup
    """
):
    HANDLERS[_n] = _mkfs


@handles("zpool", "zfs")
def _zfs(cmd: Cmd) -> None:
    sub = cmd.args[0].text if cmd.args else ""
    if sub in ("list", "status", "get", "iostat", "history"):
        return
    if sub == "destroy":
        cmd.add(B if cmd.name == "zpool" else D, "zfs-destroy", f"{cmd.name} destroy deletes data")
        return
    cmd.add(M, "disk", f"{cmd.name} {sub} changes storage")


@handles("cryptsetup")
def _cryptsetup(cmd: Cmd) -> None:
    if cmd.has("luksFormat", "erase", "luksErase", "reencrypt"):
        cmd.add(B, "mkfs", "cryptsetup wipes the volume's keys or contents")
    elif cmd.has("status", "luksDump", "isLuks"):
        return
    else:
        cmd.add(M, "disk", "cryptsetup changes encrypted volumes")


@handles("fdisk", "parted")
def _fdisk(cmd: Cmd) -> None:
    if cmd.short("l") or cmd.has("print", "--list") or (cmd.name == "parted" and cmd.has("-l")):
        return
    cmd.add(B, "partition", f"{cmd.name} rewrites a partition table")


@handles("mkswap")
def _mkswap(cmd: Cmd) -> None:
    if any(is_device(w.text) for w in cmd.args):
        cmd.add(B, "mkfs", "mkswap overwrites a disk partition")
    else:
        cmd.add(M, "write", "mkswap formats a swap file")


@handles("diskutil")
def _diskutil(cmd: Cmd) -> None:
    sub = cmd.args[0].text.lower() if cmd.args else ""
    if sub in ("list", "info", "activity", "listfilesystems"):
        return
    if re.match(r"(erase|zero|secureerase|partitiondisk|reformat|randomdisk|apfs)", sub):
        cmd.add(B, "mkfs", f"diskutil {sub} erases a disk")
    else:
        cmd.add(M, "disk", f"diskutil {sub} changes disks")


@handles("hdparm")
def _hdparm(cmd: Cmd) -> None:
    if any(
        w.text.startswith(("--security-erase", "--write-sector", "--trim-sector", "--fwdownload"))
        for w in cmd.args
    ):
        cmd.add(B, "disk-write", "hdparm erases or overwrites the disk")
    else:
        cmd.add(M, "disk", "hdparm changes disk settings")


_MODE_SETUID = re.compile(r"^([ugoa]*\+[rwxXt]*s|[0-7]?[4267][0-7]{3})$")
_MODE_WORLD = re.compile(r"^(0?777|[ugoa]*a\+rwx|o\+w|a\+w|0?666)$")


@handles("chmod", "chown", "chgrp", "chattr", "setfacl")
def _chmod(cmd: Cmd) -> None:
    recursive = cmd.short("R") or cmd.long("--recursive")
    ops = cmd.operands(frozenset({"--reference"}))
    if cmd.name == "chattr":
        cmd.add(M, "permissions", "chattr changes file attributes")
        return
    mode = ops[0] if ops else None
    targets = ops[1:]
    if cmd.name == "chmod" and mode is not None and _MODE_SETUID.match(mode.text):
        cmd.add(
            C,
            "setuid",
            "sets the setuid/setgid bit: the file runs with its owner's rights",
            targets[-1] if targets else mode,
        )
        return
    for t in targets:
        target = classify_path(t.text, cmd.scope.cwds, cmd.scope.windows)
        if target.level == B and recursive:
            cmd.add(B, f"{cmd.name}-root", f"{cmd.name} -R changes {target.what}", t)
            return
        if target.level >= C or (target.level == B and not recursive):
            cmd.add(C, f"{cmd.name}-system", f"{cmd.name} changes {target.what}", t)
            return
    if recursive and cmd.name == "chmod" and mode is not None and _MODE_WORLD.match(mode.text):
        cmd.add(D, "chmod-world", "makes a whole tree world-writable", mode)
        return
    if cmd.name == "chmod" and mode is not None and "x" in mode.text:
        for t in targets:
            if t.text.rsplit("/", 1)[-1] in cmd.scope.downloaded:
                cmd.add(M, "permissions", f"makes downloaded {t.text} executable", t)
                return
    cmd.add(M, "permissions", f"{cmd.name} changes permissions or ownership")


@handles("mv")
def _mv(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-t", "--target-directory", "-S", "--suffix"}))
    for w in ops[:-1]:
        t = classify_path(w.text, cmd.scope.cwds, cmd.scope.windows)
        if t.level == B:
            cmd.add(B, "mv-root", f"mv moves away {t.what}", w)
            return
    if ops and ops[-1].text == "/dev/null":
        cmd.add(D, "delete", "moving to /dev/null deletes the files", ops[-1])
        return
    cmd.add(M, "write", "mv moves or overwrites files")


@handles("cp", "install", "rsync", "ln", "cat", "tee", "touch", "mkdir", "mktemp")
def _write_family(cmd: Cmd) -> None:
    n = cmd.name
    ops = cmd.operands(
        frozenset(
            names(
                """
                -t -m -o -g -e --rsh -S --exclude --include --filter -f -p --mode
                """
            )
        )
    )
    if n == "cat":
        for w in ops:
            if is_secret(w.text):
                cmd.info.reads_secret = True
        if any(is_secret(w.text) for w in ops):
            cmd.add(M, "read-secret", "prints a private key or credentials file")
        cmd.info.output = None
        return
    if ops and is_device(ops[-1].text) and n in ("cp", "tee", "rsync", "install"):
        cmd.add(B, "disk-write", f"{n} overwrites the raw disk {ops[-1].text}", ops[-1])
        return
    if n == "tee":
        for w in ops:
            if re.match(r"^/etc/(sudoers|passwd|shadow|group)", w.text):
                cmd.add(C, "system-file", f"overwrites the core system file {w.text}", w)
                return
        written = [w for w in ops if w.text not in ("/dev/null", "/dev/stdout", "/dev/stderr")]
        if written:
            cmd.add(M, "write", "tee writes files", written[-1])
        return
    if n == "rsync":
        remote = [w for w in ops if re.match(r"^[\w.@-]+:", w.text) and not w.text.startswith("/")]
        if remote and any(is_secret(w.text) for w in ops[:-1]):
            cmd.add(C, "exfiltration", "copies private keys or credentials to another machine")
            return
        if cmd.long(
            "--delete",
            "--delete-before",
            "--delete-after",
            "--delete-during",
            "--delete-excluded",
            "--remove-source-files",
        ):
            if ops:
                t = classify_path(ops[-1].text, cmd.scope.cwds)
                if t.level == B:
                    cmd.add(B, t.rule, f"rsync --delete can erase {t.what}", ops[-1])
                    return
            cmd.add(D, "rsync-delete", "rsync --delete deletes files at the destination")
            return
        if cmd.has("-n", "--dry-run") or (cmd.short("n") and not cmd.long("--numeric-ids")):
            return
        cmd.add(M, "write", "rsync copies files" + (" over the network" if remote else ""))
        return
    if n == "mktemp":
        return
    cmd.add(M, "write", f"{n} creates or changes files")


# --- git --------------------------------------------------------------------------------

_GIT_GLOBAL_WITH_VALUE = frozenset(
    names(
        """
        -C -c --git-dir --work-tree --namespace --exec-path --config-env --super-prefix
        """
    )
)
_GIT_SAFE = frozenset(
    names(
        """
        status log diff show rev-parse rev-list ls-files ls-tree ls-remote cat-file blame
        annotate shortlog describe grep version help whatchanged merge-base name-rev show-ref
        for-each-ref count-objects check-ignore var cherry range-diff diff-tree diff-index
        diff-files show-branch verify-commit verify-tag check-attr fsck check-ref-format
        difftool instaweb
        """
    )
)
_GIT_UNSAFE_FLAGS = re.compile(
    r"^--(output|ext-diff|exec|upload-pack|receive-pack|open-files-in-pager|textconv)"
)


@handles("git")
def _git(cmd: Cmd) -> None:
    args = cmd.args
    i = 0
    config_override = False
    while i < len(args) and args[i].text.startswith("-"):
        t = args[i].text
        if t in ("-c", "--config-env") or t.startswith(("--exec-path", "--config-env")):
            config_override = True
        i += 2 if t in _GIT_GLOBAL_WITH_VALUE else 1
    if i >= len(args):
        return
    sub = args[i].text
    rest = [w.text for w in args[i + 1 :]]
    sub_word = args[i]
    unsafe_flag = next((w for w in args[i + 1 :] if _GIT_UNSAFE_FLAGS.match(w.text)), None)

    def add(level: RiskLevel, rule: str, reason: str) -> None:
        cmd.add(level, rule, reason)

    flags = {t for t in rest if t.startswith("-")}
    shorts = "".join(t[1:] for t in rest if t.startswith("-") and not t.startswith("--"))
    if sub in _GIT_SAFE:
        if unsafe_flag is not None:
            add(M, "git-write", f"git {sub} {unsafe_flag.text} writes files or runs programs")
        elif config_override:
            add(M, "git-config", "git -c can make git run arbitrary programs")
        return
    if sub == "reset":
        if "--hard" in flags or "--merge" in flags or "--keep" in flags:
            add(D, "git-reset-hard", "git reset --hard discards uncommitted changes")
        else:
            add(M, "git-write", "git reset moves the branch and index")
    elif sub in ("checkout", "switch"):
        ops = [t for t in rest if not t.startswith("-")]
        if (
            "-f" in flags
            or "--force" in flags
            or "--discard-changes" in flags
            or "--" in rest
            or (ops and ops[-1] in (".", "*", ":/"))
        ):
            add(D, "git-discard", f"git {sub} overwrites uncommitted changes")
        else:
            add(M, "git-write", f"git {sub} changes the working tree")
    elif sub == "restore":
        if (
            flags <= {"--staged", "-S"}
            and ("--staged" in flags or "-S" in flags)
            and not ("--worktree" in flags or "-W" in flags)
        ):
            add(M, "git-write", "git restore --staged changes the index")
        else:
            add(D, "git-discard", "git restore discards uncommitted changes")
    elif sub == "clean":
        if "n" in shorts or "--dry-run" in flags:
            return
        if "f" in shorts or "--force" in flags:
            add(D, "git-clean", "git clean -f deletes untracked files")
        else:
            add(M, "git-write", "git clean")
    elif sub == "push":
        if "--dry-run" in flags or "n" in shorts:
            return
        ops = [t for t in rest if not t.startswith("-")]
        if (
            flags
            & {
                "--force",
                "--force-with-lease",
                "--force-if-includes",
                "--mirror",
                "--delete",
                "--prune",
            }
            or "f" in shorts
            or "d" in shorts
            or any(t.startswith(("--force-with-lease=", "--force")) for t in flags)
            or any(o.startswith(("+", ":")) for o in ops[1:])
        ):
            add(D, "git-force-push", "git push rewrites or deletes remote history")
        else:
            add(M, "git-push", "git push publishes commits")
    elif sub == "stash":
        action = rest[0] if rest else "push"
        if action in ("list", "show"):
            return
        if action in ("drop", "clear"):
            add(D, "git-stash-drop", f"git stash {action} destroys stashed changes")
        else:
            add(M, "git-write", f"git stash {action}")
    elif sub == "branch":
        ops = [t for t in rest if not t.startswith("-")]
        if "D" in shorts or ("--delete" in flags and "--force" in flags):
            add(D, "git-branch-delete", "git branch -D deletes a branch even if unmerged")
        elif (
            "d" in shorts or "--delete" in flags or "m" in shorts or "M" in shorts or "c" in shorts
        ):
            add(M, "git-write", "git branch changes branches")
        elif ops and not (
            flags & {"--list", "-l", "--contains", "--merged", "--no-merged", "--points-at"}
        ):
            add(M, "git-write", "git branch creates a branch")
        return
    elif sub == "tag":
        ops = [t for t in rest if not t.startswith("-")]
        if "d" in shorts or "--delete" in flags:
            add(D, "git-tag-delete", "git tag -d deletes tags")
        elif ops and not (flags & {"-l", "--list", "--contains", "--points-at", "-n"}):
            add(M, "git-write", "git tag creates a tag")
    elif sub == "remote":
        if not rest or rest[0] in ("-v", "--verbose", "show", "get-url"):
            return
        add(M, "git-config", f"git remote {rest[0]} changes remotes")
    elif sub == "config":
        if (
            flags & {"--get", "--list", "-l", "--get-all", "--get-regexp", "--show-origin"}
            or (rest and rest[0] in ("get", "list"))
            or (len([t for t in rest if not t.startswith("-")]) == 1)
        ):
            return
        add(M, "git-config", "git config changes settings")
    elif sub == "reflog":
        if rest and rest[0] in ("expire", "delete"):
            add(D, "git-reflog", "git reflog expire/delete destroys recovery points")
    elif sub in ("worktree", "submodule", "notes", "bisect", "sparse-checkout", "lfs"):
        if rest and rest[0] in ("list", "status", "show", "log", "ls-files", "summary"):
            return
        if sub == "worktree" and rest and rest[0] == "remove" and flags & {"--force", "-f"}:
            add(D, "git-discard", "git worktree remove --force discards changes")
            return
        add(M, "git-write", f"git {sub} changes the repository")
    elif sub in ("rm",):
        if "--cached" in flags:
            add(M, "git-write", "git rm --cached untracks files")
        else:
            add(D, "git-rm", "git rm deletes files from the working tree")
    elif sub in ("filter-branch", "filter-repo", "update-ref", "replace", "prune"):
        if sub == "update-ref" and "-d" not in flags:
            add(M, "git-write", "git update-ref moves a ref")
        else:
            add(D, "git-rewrite", f"git {sub} rewrites or deletes history")
    elif sub == "gc":
        if any(t.startswith("--prune") for t in flags):
            add(D, "git-gc-prune", "git gc --prune destroys unreachable commits")
        else:
            add(M, "git-write", "git gc repacks the repository")
    else:
        add(M, "git-write", f"git {sub} changes the repository or talks to the network")
    _ = sub_word


# --- processes, services, power ---------------------------------------------------------


@handles("kill", "pkill", "killall", "skill", "xkill", "taskkill", "stop-process", "tskill")
def _kill(cmd: Cmd) -> None:
    if cmd.name == "kill" and (
        cmd.has("-l", "-L") or any(w.text in ("-0", "-s0") for w in cmd.args)
    ):
        return
    cmd.add(D, "kill", f"{cmd.name} terminates processes")


@handles(
    *names(
        """
    shutdown reboot halt poweroff restart-computer stop-computer suspend-computer telinit
    """
    )
)
def _shutdown(cmd: Cmd) -> None:
    if cmd.name == "shutdown" and cmd.has("-c", "/a", "-a"):
        cmd.add(M, "shutdown", "cancels a scheduled shutdown")
        return
    cmd.add(D, "shutdown", f"{cmd.name} stops or restarts the machine")


@handles("init")
def _init(cmd: Cmd) -> None:
    if cmd.has("0", "6", "1", "s", "S"):
        cmd.add(D, "shutdown", "init changes the run level (halt/reboot/single user)")
    else:
        cmd.add(M, "unknown-command", "init")


SECURITY_UNITS = re.compile(
    r"^(firewalld|ufw|apparmor|auditd|selinux|fail2ban|clamav\S*|clamd\S*|falcon-sensor|"
    r"osqueryd|wazuh\S*|crowdstrike\S*|sshguard|iptables|nftables|windefend|wscsvc|mpssvc|"
    r"sense|wdnissvc|csagent|ossec\S*|aide|tripwire|snort|suricata)(\.service)?$",
    re.I,
)


@handles("systemctl", "service", "launchctl", "rc-service", "sv")
def _systemctl(cmd: Cmd) -> None:
    ops = [w.text for w in cmd.operands()]
    if cmd.name in ("service", "rc-service") and len(ops) >= 2:
        ops = [ops[1], ops[0]]
    verb = ops[0] if ops else ""
    units = ops[1:]
    if not ops or verb in names(
        """
        status show cat is-active is-enabled is-failed list-units list-unit-files list-timers
        list-sockets list-dependencies help get-default list-jobs list print blame --version
        --status-all log-level
        """
    ):
        return
    if verb in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove") and any(
        SECURITY_UNITS.match(u) for u in units
    ):
        cmd.add(C, "disable-security", f"{verb} turns off a security service")
    elif verb in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove"):
        cmd.add(D, "service-stop", f"{cmd.name} {verb} stops services")
    elif verb in names(
        """
        poweroff reboot halt suspend hibernate rescue emergency kexec isolate default
        soft-reboot
        """
    ):
        cmd.add(D, "shutdown", f"{cmd.name} {verb} stops or restarts the machine")
    else:
        cmd.add(M, "service", f"{cmd.name} {verb} changes services")


@handles("crontab")
def _crontab(cmd: Cmd) -> None:
    if cmd.short("r"):
        cmd.add(D, "crontab-remove", "crontab -r deletes every cron job without asking")
    elif cmd.short("l"):
        return
    else:
        cmd.add(M, "crontab", "crontab changes scheduled jobs")


# --- security, users, privilege ---------------------------------------------------------


@handles("setenforce")
def _setenforce(cmd: Cmd) -> None:
    if cmd.has("0", "Permissive", "permissive"):
        cmd.add(C, "disable-security", "turns SELinux enforcement off")
    else:
        cmd.add(M, "security", "changes SELinux mode")


@handles("ufw")
def _ufw(cmd: Cmd) -> None:
    if cmd.has("disable", "reset"):
        cmd.add(C, "disable-security", "turns the firewall off")
    elif cmd.has("status", "show", "app"):
        return
    else:
        cmd.add(M, "firewall", "changes firewall rules")


@handles("iptables", "ip6tables", "nft", "iptables-legacy", "pfctl")
def _iptables(cmd: Cmd) -> None:
    if (cmd.short("LS") and not cmd.short("FXDP")) or (cmd.has("list", "-s") and cmd.name != "nft"):
        return
    if (
        cmd.short("FX")
        or cmd.long("--flush")
        or cmd.has("flush", "-d")
        or (cmd.short("P") and cmd.has("ACCEPT"))
    ):
        cmd.add(C, "disable-security", f"{cmd.name} removes firewall rules")
    else:
        cmd.add(M, "firewall", "changes firewall rules")


@handles("csrutil", "spctl", "auditctl")
def _csrutil(cmd: Cmd) -> None:
    if cmd.has("disable", "--master-disable", "--global-disable") or (
        cmd.name == "auditctl" and cmd.has("-D", "0")
    ):
        cmd.add(C, "disable-security", f"{cmd.name} turns off a system protection")
    elif cmd.has("status", "--status", "-l", "-s"):
        return
    else:
        cmd.add(M, "security", f"{cmd.name} changes system protection")


@handles("sysctl")
def _sysctl(cmd: Cmd) -> None:
    if any("randomize_va_space=0" in w.text or "ptrace_scope=0" in w.text for w in cmd.args):
        cmd.add(C, "disable-security", "turns off a kernel protection")
    elif cmd.short("w") or any("=" in w.text for w in cmd.args):
        cmd.add(M, "system-config", "changes kernel settings")


@handles(
    *names(
        """
    useradd adduser usermod gpasswd visudo chpasswd passwd userdel deluser groupadd addgroup
    dscl new-localuser add-localgroupmember set-localuser net1
    """
    )
)
def _users(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    if cmd.name in ("visudo", "chpasswd") or re.search(
        r"\b(sudo|wheel|admin|root|docker|"
        r"administrators)\b",
        text,
    ):
        cmd.add(C, "privilege", f"{cmd.name} grants administrator rights or changes root")
    elif cmd.name in ("userdel", "deluser"):
        cmd.add(D, "user-delete", f"{cmd.name} deletes a user account")
    elif cmd.name == "passwd" and not cmd.args:
        cmd.add(M, "account", "changes your password")
    else:
        cmd.add(M, "account", f"{cmd.name} changes user accounts")


# --- network, downloads, exfiltration ---------------------------------------------------

_FETCH_WITH_VALUE = frozenset(
    names(
        """
        -o -O --output -H --header -d --data -X --request -u --user -A --user-agent -e -b -c -F
        --form -T --upload-file --data-binary --data-raw --data-urlencode -x --proxy -m
        --max-time --connect-timeout -w --write-out -r --retry -P --output-document --post-file
        --directory-prefix --cacert --cert --key -K --config --resolve --limit-rate
        """
    )
)


@handles(
    *names(
        """
    curl wget fetch http https xh aria2c invoke-webrequest invoke-restmethod lwp-request lynx
    certutil bitsadmin
    """
    )
)
def _fetch(cmd: Cmd) -> None:
    n = cmd.name
    if n == "certutil" and not any(
        w.text.lower().startswith(("-urlcache", "/urlcache")) for w in cmd.args
    ):
        cmd.add(M, "unknown-command", "certutil changes certificates or decodes files")
        return
    cmd.info.network_fetch = True
    uploads = []
    for i, w in enumerate(cmd.args):
        t = w.text
        val = t
        if t in names(
            """
            -T --upload-file -F --form -d --data --data-binary --post-file --data-raw -InFile
            -infile
            """
        ) and i + 1 < len(cmd.args):
            val = cmd.args[i + 1].text
        elif t.startswith(("--data-binary=", "--post-file=", "--upload-file=")):
            val = t.split("=", 1)[1]
        else:
            continue
        uploads.append(val.lstrip("@").split("=", 1)[-1].lstrip("@"))
    if any(is_secret(u) for u in uploads) or (
        cmd.stdin.secret and any(u in ("-", "@-", "") for u in uploads)
    ):
        cmd.add(C, "exfiltration", f"{n} uploads private keys or credentials")
        return
    out = cmd.option_value("-o", "--output", "-O", "--output-document", "-OutFile", "-outfile")
    urls = [w for w in cmd.operands(_FETCH_WITH_VALUE) if "://" in w.text or "." in w.text]
    if out is not None and out.text not in ("-", "/dev/stdout"):
        cmd.scope.downloaded.add(out.text.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
        cmd.info.network_fetch = False
    elif n in ("wget", "aria2c", "fetch") and not cmd.has("-O-", "-qO-", "-qO", "-"):
        for u in urls:
            base = u.text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if base:
                cmd.scope.downloaded.add(base)
        cmd.info.network_fetch = cmd.has("-O-", "-qO-") or (
            out is not None and out.text in ("-", "/dev/stdout")
        )
    elif n == "curl" and (cmd.short("O") or cmd.long("--remote-name")):
        for u in urls:
            cmd.scope.downloaded.add(u.text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1])
        cmd.info.network_fetch = False
    cmd.add(M, "network", f"{n} talks to the network")


@handles("nc", "ncat", "netcat", "socat", "telnet", "openssl")
def _netcat(cmd: Cmd) -> None:
    text = " ".join(cmd.texts())
    if cmd.name == "openssl":
        if "s_client" in text and cmd.stdin.kind != STDIN_NONE:
            cmd.add(M, "network", "openssl s_client sends data over the network")
        elif "s_client" in text or "s_server" in text:
            cmd.add(M, "network", "openssl talks to the network")
        elif cmd.args and cmd.args[0].text in names(
            """
            x509 version dgst rand list verify ciphers asn1parse crl errstr speed
            """
        ):
            if cmd.option_value("-out") is not None:
                cmd.add(M, "write", "openssl writes a file")
            return
        else:
            cmd.add(M, "write", "openssl writes keys or files")
        return
    if cmd.has("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or re.search(
        r"\b(exec|system):", text, re.I
    ):
        cmd.add(C, "reverse-shell", f"{cmd.name} connects a shell to the network")
        return
    if cmd.stdin.secret:
        cmd.add(C, "exfiltration", f"sends private keys or credentials with {cmd.name}")
        return
    cmd.info.network_fetch = not cmd.short("l")
    cmd.add(M, "network", f"{cmd.name} opens a network connection")


@handles("scp", "sftp", "rclone", "ftp", "lftp", "smbclient", "croc", "magic-wormhole", "wormhole")
def _copy_remote(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-P", "-i", "-o", "-F", "-J", "-c", "-l", "-S"}))
    if (any(is_secret(w.text) for w in ops) and len(ops) >= 2) or (
        cmd.name in ("croc", "wormhole", "magic-wormhole") and any(is_secret(w.text) for w in ops)
    ):
        cmd.add(C, "exfiltration", "copies private keys or credentials to another machine")
        return
    if (
        cmd.name == "rclone"
        and cmd.args
        and cmd.args[0].text in ("purge", "delete", "deletefile", "rmdir", "rmdirs", "sync")
    ):
        cmd.add(D, "cloud-delete", f"rclone {cmd.args[0].text} deletes remote files")
        return
    if (
        cmd.name == "rclone"
        and cmd.args
        and cmd.args[0].text
        in names(
            """
            ls lsd lsl lsf size cat version listremotes about check tree
            """
        )
    ):
        return
    cmd.add(M, "network", f"{cmd.name} copies files over the network")


_SSH_WITH_VALUE = frozenset(
    names(
        """
        -p -i -l -o -F -J -L -R -D -b -c -E -e -I -m -O -Q -S -W -w -B
        """
    )
)


@handles("ssh", "mosh", "autossh")
def _ssh(cmd: Cmd) -> None:
    i = _skip_options(cmd, _SSH_WITH_VALUE)
    cmd.add(
        M,
        "network",
        f"{cmd.name} runs commands on another machine",
        cmd.args[i] if i < len(cmd.args) else None,
    )
    rest = cmd.args[i + 1 :]
    if rest:
        if len(rest) == 1:
            cmd.scope.include(cmd.scope.nested(rest[0].text, "bash", rest[0]))
        else:
            judge(list(rest), cmd.scope, cmd.stdin)


# --- databases --------------------------------------------------------------------------


def _judge_sql_text(cmd: Cmd, sql: str, where: Word | None) -> None:
    level, rule, reason = inline.judge_sql(sql)
    if level:
        cmd.add(level, rule, reason, where)


@handles(
    *names(
        """
    psql mysql mariadb sqlite3 duckdb clickhouse-client sqlcmd cockroach pgcli mycli litecli
    snowsql bq sqlplus
    """
    )
)
def _sql_client(cmd: Cmd) -> None:
    q = cmd.option_value("-c", "--command", "-e", "--execute", "-q", "--query", "-Q")
    if cmd.name in ("sqlite3", "duckdb") and q is None:
        ops = cmd.operands(frozenset({"-cmd", "-separator"}))
        if len(ops) >= 2:
            q = ops[1]
    if cmd.name == "bq":
        ops = cmd.operands()
        if ops and ops[0].text in ("rm",):
            cmd.add(D, "cloud-delete", "bq rm deletes datasets or tables")
            return
        if ops and ops[0].text == "query" and len(ops) > 1:
            q = ops[-1]
        elif ops and ops[0].text in ("ls", "show", "head"):
            return
    if q is not None:
        _judge_sql_text(cmd, q.text, None)
        return
    if cmd.stdin.kind == STDIN_STATIC:
        _judge_sql_text(cmd, cmd.stdin.text, None)
        return
    if cmd.option_value("-f", "--file", "-i") is not None or cmd.stdin.kind != STDIN_NONE:
        cmd.add(M, "db-script", f"{cmd.name} runs a SQL script")
        return
    if cmd.short("l") or cmd.has("--list", "--version"):
        return
    cmd.add(M, "db-shell", f"opens an interactive {cmd.name} session")


@handles("mongosh", "mongo")
def _mongo(cmd: Cmd) -> None:
    js = cmd.option_value("--eval")
    text = js.text if js is not None else (cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC else "")
    if not text:
        cmd.add(M, "db-shell", f"opens an interactive {cmd.name} session")
        return
    level, rule, reason = inline.judge_mongo(text)
    if level:
        cmd.add(level, rule, reason)


@handles("redis-cli", "valkey-cli", "keydb-cli")
def _redis(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s"}))
    level, rule, reason = inline.judge_redis([w.text for w in ops])
    if level:
        cmd.add(level, rule, reason)


@handles("mongorestore", "pg_restore")
def _restore(cmd: Cmd) -> None:
    if cmd.long("--drop", "--clean") or cmd.has("-c"):
        cmd.add(D, "db-drop", f"{cmd.name} drops existing data before restoring")
    else:
        cmd.add(M, "db-write", f"{cmd.name} writes to a database")


@handles("dropdb", "dropuser", "mysqladmin", "pg_resetwal", "pg_resetxlog", "pg_dropcluster")
def _dropdb(cmd: Cmd) -> None:
    if cmd.name == "mysqladmin" and not cmd.has("drop", "shutdown"):
        cmd.add(M, "db-admin", "mysqladmin changes the server")
        return
    cmd.add(D, "db-drop", f"{cmd.name} deletes a database or its data")


# --- containers, clusters, infrastructure, cloud ----------------------------------------

_DOCKER_SAFE = frozenset(
    names(
        """
        ps images inspect logs version info top port diff history search events stats ls config
        df show
        """
    )
)
_DOCKER_DELETE = frozenset({"rm", "rmi", "kill", "prune", "down", "remove", "reset"})


@handles("docker", "podman", "nerdctl", "docker-compose", "finch")
def _docker(cmd: Cmd) -> None:
    ops = [
        w.text
        for w in cmd.operands(
            frozenset(
                names(
                    """
                    -H --host --context -c -f --file -p --project-name --log-level --config
                    """
                )
            )
        )
    ]
    if cmd.name == "docker-compose":
        ops = ["compose", *ops]
    if not ops:
        return
    verbs = ops[:3]
    text = " ".join(cmd.texts())
    if ops[0] in ("run", "create") or verbs[:2] == ["container", "run"]:
        if re.search(
            r"--privileged|(-v|--volume|--mount)[ =]\S*(^|[ =])/?:|-v /:|--volume=/:"
            r"|--pid[= ]host|--cap-add[= ](ALL|SYS_ADMIN)|docker\.sock|"
            r"(apparmor|seccomp)[=:]unconfined|--userns[= ]host|source=/,",
            text,
        ):
            cmd.add(C, "container-escape", "the container gets root access to the host")
        else:
            cmd.add(M, "container", f"{cmd.name} runs a container")
        return
    if ops[0] == "exec":
        cmd.add(M, "container", f"{cmd.name} exec runs a command in a container")
        inner = cmd.operands(frozenset({"-u", "--user", "-w", "--workdir", "-e", "--env"}))
        if len(inner) > 2:
            judge(inner[2:], cmd.scope)
        return
    if verbs[0] in names(
        """
        compose container image volume network system builder buildx context plugin secret node
        service stack
        """
    ):
        sub = verbs[1] if len(verbs) > 1 else ""
        if verbs[0] == "compose" and sub == "down":
            if re.search(r"(^|\s)(-v|--volumes|--rmi)\b", text):
                cmd.add(D, "container-delete", "compose down -v deletes volumes (data)")
            else:
                cmd.add(M, "container", "compose down stops and removes containers")
            return
        if sub in _DOCKER_SAFE:
            return
        if sub in _DOCKER_DELETE:
            cmd.add(
                D,
                "container-delete",
                f"{cmd.name} {verbs[0]} {sub} deletes containers, images or data",
            )
            return
        cmd.add(M, "container", f"{cmd.name} {verbs[0]} {sub} changes containers")
        return
    if ops[0] in _DOCKER_SAFE:
        return
    if ops[0] in _DOCKER_DELETE:
        cmd.add(D, "container-delete", f"{cmd.name} {ops[0]} deletes containers or images")
        return
    cmd.add(M, "container", f"{cmd.name} {ops[0]} changes containers or images")


_KUBE_SAFE = frozenset(
    names(
        """
        get describe logs top explain version api-resources api-versions cluster-info diff
        events auth wait completion plugin kustomize whoami status
        """
    )
)


@handles("kubectl", "oc", "kubecolor", "microk8s.kubectl", "k3s")
def _kubectl(cmd: Cmd) -> None:
    ops = cmd.operands(
        frozenset(
            names(
                """
                -n --namespace --context --kubeconfig -l --selector -o --output -c --container
                --cluster --user -f --filename
                """
            )
        )
    )
    if not ops:
        return
    verb = ops[0].text
    if verb in _KUBE_SAFE:
        return
    if verb == "config":
        sub = ops[1].text if len(ops) > 1 else ""
        if sub in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            return
        cmd.add(M, "kube-config", f"kubectl config {sub} changes kubeconfig")
        return
    if verb in ("delete", "drain") or (verb == "replace" and cmd.long("--force")):
        cmd.add(D, "kube-delete", f"kubectl {verb} removes cluster resources")
        return
    if verb == "exec":
        cmd.add(M, "kube-exec", "kubectl exec runs a command in a pod")
        dd = next((i for i, w in enumerate(cmd.args) if w.text == "--"), None)
        if dd is not None and dd + 1 < len(cmd.args):
            judge(list(cmd.args[dd + 1 :]), cmd.scope)
        return
    if verb == "scale" and any(w.text in ("--replicas=0", "0") for w in cmd.args):
        cmd.add(D, "kube-delete", "scales a workload to zero")
        return
    cmd.add(M, "kube-write", f"kubectl {verb} changes the cluster")


@handles("helm")
def _helm(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-n", "--namespace", "--kube-context", "-f", "--values"}))
    verb = ops[0].text if ops else ""
    if verb in (
        *names(
            """
        list ls status get show template lint version search history env verify inspect
        """
        ),
        "",
    ) or (verb == "repo" and len(ops) > 1 and ops[1].text == "list"):
        return
    if verb in ("uninstall", "delete", "del", "un"):
        cmd.add(D, "kube-delete", "helm uninstall removes a release")
        return
    cmd.add(M, "kube-write", f"helm {verb} changes the cluster")


@handles("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls")
def _terraform(cmd: Cmd) -> None:
    ops = [w.text for w in cmd.operands()]
    verb = ops[0] if ops else ""
    text = " ".join(cmd.texts())
    if (
        verb in ("destroy", "remove", "force-unlock")
        or "-destroy" in text.split()
        or (verb == "state" and len(ops) > 1 and ops[1] in ("rm", "delete"))
        or (verb in ("stack", "workspace") and len(ops) > 1 and ops[1] in ("rm", "delete"))
    ):
        cmd.add(D, "infra-destroy", f"{cmd.name} destroys infrastructure")
        return
    if (
        verb
        in (
            *names(
                """
            plan validate show output version providers graph preview console diff synth ls
            list whoami about
            """
            ),
            "",
        )
        or (verb == "fmt" and ("-check" in text or "--check" in text))
        or (verb == "state" and len(ops) > 1 and ops[1] in ("list", "show", "pull"))
    ):
        return
    cmd.add(M, "infra", f"{cmd.name} {verb} changes infrastructure or local state")


_CLOUD_DELETE = re.compile(
    r"^(delete|destroy|remove|rm|rb|terminate|purge|del|prune|drop|wipe|deregister|"
    r"\S+-(delete|destroy|terminate|purge|remove)(-\S+)?|"
    r"delete-\S+|remove-\S+|terminate-\S+|deregister-\S+|purge-\S+|\S+:destroy|\S+:delete|"
    r"\S+:remove|\S+:reset|apps:destroy|pg:reset|destroy-\S+)$"
)
_CLOUD_READ = re.compile(
    r"^(list|ls|describe|show|get|info|status|version|logs|whoami|cat|du|stat|help|"
    r"describe-\S+|list-\S+|get-\S+|lookup-\S+|search|tail|account|--version|config|"
    r"get-caller-identity|print-access-token|print-identity-token)$"
)


@handles(
    *names(
        """
    aws gcloud az gsutil doctl heroku fly flyctl vercel netlify firebase wrangler linode-cli
    hcloud oci ibmcloud s3cmd gh glab supabase railway ssm eksctl scw exo upcloud aliyun tccli
    """
    )
)
def _cloud(cmd: Cmd) -> None:
    ops = [
        w.text
        for w in cmd.operands(
            frozenset(
                names(
                    """
                    --region --profile --project --output -o --query --zone -g --resource-group
                    --subscription -R --repo --format -a --app --account --endpoint-url
                    """
                )
            )
        )
    ]
    text = " ".join(cmd.texts())
    if any(is_secret(o) for o in ops):
        cmd.add(C, "exfiltration", f"{cmd.name} uploads private keys or credentials")
        return
    for o in ops[:4]:
        if _CLOUD_DELETE.match(o):
            cmd.add(
                D,
                "cloud-delete",
                f"{cmd.name} {' '.join(ops[: ops.index(o) + 1])} deletes cloud resources",
            )
            return
    if "--delete" in text.split() and cmd.name in ("aws", "gsutil", "s3cmd"):
        cmd.add(D, "cloud-delete", f"{cmd.name} sync --delete deletes remote files")
        return
    if cmd.name == "gsutil" and "-m" in ops[:1]:
        ops = ops[1:]
    if cmd.name == "gh":
        if ops and ops[0] in names(
            """
            pr issue repo run release workflow gist api search auth status browse label cache
            """
        ):
            if len(ops) > 1 and ops[1] in names(
                """
                list view status diff checks watch download ls
                """
            ):
                return
            if ops[0] in ("status", "search") or (ops[0] == "auth" and ops[1:2] == ["status"]):
                return
            if ops[0] == "api" and not re.search(r"-X\s*(POST|PUT|PATCH|DELETE)|--method", text):
                return
    else:
        verbs = [o for o in ops[:4] if re.fullmatch(r"[a-z][a-z0-9-]*(:[a-z-]+)?", o)]
        if verbs and _CLOUD_READ.match(verbs[-1]):
            return
        if not ops:
            return
    cmd.add(M, "cloud", f"{cmd.name} changes cloud resources or talks to the network")


# --- package managers, builds, tests ----------------------------------------------------

_PKG_SAFE = frozenset(
    names(
        """
        list ls show info search freeze outdated view why explain audit check help --version -v
        -V version config doctor env root prefix bin home test t tst query policy madison
        depends rdepends show-deps leaves deps tree inspect fund ping whoami dedupe-check
        licenses metadata locate-project verify-project pkgid vet fmt-check clippy bench doc
        about cache-dir debug
        """
    )
)
_TEST_SCRIPTS = frozenset(
    names(
        """
        test lint typecheck type-check check tsc format:check lint:check test:unit test:ci
        prettier:check fmt:check
        """
    )
)


def _package_manager(cmd: Cmd) -> None:
    ops = [
        w.text
        for w in cmd.operands(
            frozenset(
                names(
                    """
                    -C --prefix -w --workspace --filter -p --package --manifest-path -r
                    --requirement -c --cwd
                    """
                )
            )
        )
    ]
    n = cmd.name
    if not ops:
        if n in names(
            """
            npm pip pip3 apt apt-get brew cargo go gem uv yarn pnpm bun poetry
            """
        ):
            if n in ("yarn", "pnpm", "bun") and not cmd.args:
                cmd.add(M, "install", f"{n} installs packages")
            return
        return
    verb = ops[0]
    if n in ("npm", "yarn", "pnpm", "bun") and verb in ("run", "run-script") and len(ops) > 1:
        if ops[1] in _TEST_SCRIPTS or ops[1].startswith("test"):
            return
        cmd.add(M, "run-script", f"{n} run {ops[1]} runs a project script")
        return
    if n == "cargo" and verb in names(
        """
        test check clippy doc bench tree metadata search fmt build b c t
        """
    ):
        if verb == "fmt" and "--check" not in ops and "--check" not in cmd.texts():
            cmd.add(M, "write", "cargo fmt rewrites files")
        if verb in ("clippy",) and "--fix" in cmd.texts():
            cmd.add(M, "write", "cargo clippy --fix rewrites files")
        if verb in ("build", "b"):
            cmd.add(M, "build", "cargo build writes build output")
        return
    if n == "go" and verb in ("test", "vet", "version", "env", "list", "doc", "help", "fmt"):
        if verb == "fmt":
            cmd.add(M, "write", "go fmt rewrites files")
        return
    if n in ("uv", "poetry", "pdm", "hatch", "rye", "pipenv") and verb == "run":
        rest = cmd.operands()[1:]
        if rest:
            judge(rest, cmd.scope, cmd.stdin)
            if n in ("poetry", "pipenv"):
                return
        return
    if n in ("npx", "pnpx", "bunx", "uvx", "pipx") and verb != "list":
        if verb == "run" and n == "pipx":
            ops = ops[1:]
        tool = ops[0] if ops else ""
        if tool in names(
            """
            tsc eslint prettier jest vitest mocha ruff black mypy pytest playwright --version
            """
        ):
            judge([Word(tool, cmd.start, cmd.end), *cmd.args[1:]], cmd.scope)
            return
        cmd.add(M, "install", f"{n} downloads and runs {tool or 'a package'}")
        return
    if verb in _PKG_SAFE and not (
        n in ("npm", "yarn", "pnpm") and verb == "audit" and "fix" in ops
    ):
        if verb == "config" and len(ops) > 1 and ops[1] not in ("get", "list", "ls"):
            cmd.add(M, "config", f"{n} config changes settings")
        return
    if verb in ("uninstall", "remove", "purge", "autoremove", "rm", "erase", "un", "r"):
        cmd.add(M, "uninstall", f"{n} {verb} removes packages")
        return
    cmd.add(M, "install", f"{n} {verb} installs or changes packages")


for _n in names(
    """
    pip pip3 pipx uv poetry pdm hatch rye pipenv conda mamba micromamba npm yarn pnpm bun npx
    pnpx bunx uvx cargo go gem bundle bundler apt apt-get aptitude yum dnf zypper pacman yay
    paru apk brew port snap flatpak nix nix-env choco winget scoop dotnet composer mvn gradle
    gradlew sbt lein mix rustup nvm pyenv rbenv asdf mise deno-install swift pod carthage vcpkg
    conan spack opam cabal stack dpkg rpm install-module install-package apt-cache dpkg-query
    corepack volta fnm sdk julia-pkg pub flutter dart
    """
):
    HANDLERS[_n] = _package_manager


@handles("dpkg", "rpm")
def _dpkg(cmd: Cmd) -> None:
    if (cmd.short("lLsSqV") and not cmd.short("iPre")) or cmd.has("--list", "--status", "-qa"):
        return
    if cmd.short("Pr") or cmd.has("--purge", "--remove", "-e", "--erase"):
        cmd.add(M, "uninstall", f"{cmd.name} removes packages")
        return
    cmd.add(M, "install", f"{cmd.name} installs packages")


@handles("apt-cache", "dpkg-query", "apt-file")
def _apt_cache(cmd: Cmd) -> None:
    return


_SAFE_TOOLS_FIX_FLAGS = {
    "ruff": ("--fix", "format"),
    "black": (),
    "isort": (),
    "eslint": ("--fix",),
    "prettier": ("--write", "-w"),
    "rubocop": ("-a", "-A", "--autocorrect", "--auto-correct", "--autocorrect-all"),
    "gofmt": ("-w",),
    "clang-format": ("-i",),
    "rustfmt": (),
    "stylua": (),
    "shfmt": ("-w",),
    "autopep8": ("-i", "--in-place"),
    "yapf": ("-i", "--in-place"),
}
_SAFE_CHECK_FLAGS = ("--check", "--diff", "-c", "--dry-run", "-l", "-d", "--list-different")


@handles(*_SAFE_TOOLS_FIX_FLAGS)
def _formatter(cmd: Cmd) -> None:
    fixes = _SAFE_TOOLS_FIX_FLAGS[cmd.name]
    texts = cmd.texts()
    if (
        cmd.name == "ruff"
        and texts
        and texts[0] == "format"
        and not any(t in texts for t in ("--check", "--diff"))
    ):
        cmd.add(M, "write", "ruff format rewrites files")
    elif any(t in fixes for t in texts) or (
        cmd.name in ("black", "isort", "rustfmt", "stylua", "autopep8", "yapf")
        and not any(t in _SAFE_CHECK_FLAGS for t in texts)
        and any(not t.startswith("-") for t in texts)
    ):
        cmd.add(M, "write", f"{cmd.name} rewrites files")


@handles("ansible")
def _ansible(cmd: Cmd) -> None:
    module = cmd.option_value("-m", "--module-name")
    args = cmd.option_value("-a", "--args")
    cmd.add(M, "remote", "ansible runs a module on remote hosts")
    if args is not None and (module is None or module.text in ("shell", "command", "raw")):
        cmd.scope.include(cmd.scope.nested(args.text, "bash", args))


@handles("tsc", "vue-tsc")
def _tsc(cmd: Cmd) -> None:
    if not cmd.has("--noEmit", "--version", "-v", "--help", "--showConfig", "--listFiles"):
        cmd.add(M, "build", "tsc writes compiled output")


@handles(
    *names(
        """
    make gmake just task ninja cmake bazel meson scons rake invoke nox tox pre-commit
    """
    )
)
def _build_tool(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-C", "-f", "-j", "--file", "--directory"}))
    if (cmd.short("nq") and cmd.name == "make") or cmd.has("--dry-run", "-n", "--list", "-l"):
        return
    if cmd.name == "bazel" and ops and ops[0].text in ("query", "info", "version", "test"):
        return
    target = ops[0].text if ops else "the default target"
    cmd.add(M, "build", f"{cmd.name} runs build recipe {target}")


# --- editors, writers, misc -------------------------------------------------------------


@handles("sed", "gsed")
def _sed(cmd: Cmd) -> None:
    if cmd.short("i") or cmd.long("--in-place") or any(w.text.startswith("-i") for w in cmd.args):
        cmd.add(M, "write", "sed -i edits files in place")
        return
    for w in cmd.args:
        if re.search(r"(^|[;}\s])[wWe]\s|/[wWe]\s*\S|\be\b\s*$", w.text) and not w.text.startswith(
            "-"
        ):
            cmd.add(M, "write", "sed script writes files or runs commands", w)
            return


@handles("yq")
def _yq(cmd: Cmd) -> None:
    if cmd.short("i") or cmd.long("--inplace"):
        cmd.add(M, "write", "yq -i edits files in place")


@handles("tar", "bsdtar", "gtar")
def _tar(cmd: Cmd) -> None:
    first = cmd.args[0].text if cmd.args else ""
    letters = first.lstrip("-") if first and not first.startswith("--") else ""
    flags = letters + "".join(
        w.text[1:] for w in cmd.args[1:] if w.text.startswith("-") and not w.text.startswith("--")
    )
    if "t" in flags or cmd.long("--list"):
        return
    if cmd.long("--remove-files"):
        cmd.add(D, "delete", "tar --remove-files deletes the originals")
        return
    target = cmd.option_value("-C", "--directory")
    if target is not None and "x" in flags:
        t = classify_path(target.text, cmd.scope.cwds)
        if t.level == B and t.rule == "rm-root":
            cmd.add(C, "overwrite-system", "extracts an archive over the root filesystem", target)
            return
    cmd.add(M, "write", "tar writes files")


_MISC_NAMES = names(
    """
    unzip 7z 7za gunzip gzip bzip2 bunzip2 xz unxz zstd zip unrar patch ed vi vim nvim nano
    emacs code subl nl-write split csplit ln link convert magick ffmpeg pandoc rename renice
    mount umount swapoff swapon modprobe insmod rmmod ip ifconfig route hostnamectl timedatectl
    localectl nmcli defaults open xdg-open start explorer osascript-run screen tmux nohup-run
    jupyter streamlit uvicorn gunicorn flask django-admin manage.py rails hugo jekyll mkdocs
    sphinx-build wasm-pack webpack vite next nuxt ng expo gcc g++ clang clang++ cc javac java
    rustc ld as strip objcopy pkill-dry ssh-keygen ssh-add ssh-copy-id gpg age sops vault
    htpasswd mkcert certbot export declare typeset local readonly set unset shopt ulimit umask
    history bind complete hash dotnet-run jq-write vagrant packer ansible-playbook
    ansible-galaxy chef puppet salt nginx apachectl caddy loginctl journalctl dmesg git-lfs
    direnv stow curlie pbcopy xclip xsel wl-copy notify-send say espeak beep tput stty reset
    clear cls exit logout return break continue shift wait jobs fg bg disown read mapfile
    readarray getopts let pushd popd dirs cd chdir set-location sl push-location pop-location z
    j
    """
)


def _misc(cmd: Cmd) -> None:
    n = cmd.name
    texts = cmd.texts()
    if n in _SHELL_STATE:
        if n in ("cd", "chdir", "set-location", "sl", "pushd", "push-location", "z", "j"):
            ops = cmd.operands()
            if ops:
                cmd.scope.pending_cd = ops[0].text
        if n == "set" and ("-e" in texts or ("-o" in texts and "errexit" in texts)):
            cmd.scope.errexit = True
        if n == "export" and any(re.match(r"^(HISTFILE|HISTSIZE)=", t) for t in texts):
            cmd.add(M, "history", "turns off shell history")
        if n == "history" and any(t in ("-c", "-w", "-d") for t in texts):
            cmd.add(M, "history", "clears shell history")
        return
    if n in ("journalctl", "dmesg"):
        if any(
            t.startswith(("--vacuum", "--rotate", "--flush")) or t in ("-c", "-C", "--clear")
            for t in texts
        ):
            cmd.add(M, "write", f"{n} deletes logs")
        return
    if n in ("ip", "ifconfig", "route", "mount", "swapon", "umount") and (
        not texts
        or (
            texts[0]
            in names(
                """
                a addr address link r route show -a list -s -br -c neigh -4 -6 l
                """
            )
            and not any(
                t in ("add", "del", "delete", "set", "flush", "change", "replace", "up", "down")
                for t in texts
            )
        )
    ):
        return
    if n == "gpg" and any(t.startswith("--export-secret") for t in texts):
        cmd.info.reads_secret = True
        cmd.add(M, "read-secret", "exports private keys")
        return
    if n in ("gpg",) and any(
        t in ("--list-keys", "-k", "--list-secret-keys", "-K", "--verify", "--fingerprint")
        for t in texts
    ):
        return
    if n in ("vault", "sops") and texts and texts[0] in ("status", "read", "list", "version"):
        return
    if n in ("ssh-add",) and any(t in ("-l", "-L") for t in texts):
        return
    if n in ("screen", "tmux") and texts and texts[0] in ("ls", "list-sessions", "-ls"):
        return
    if n == "ansible-playbook" and ("--check" in texts or "--syntax-check" in texts):
        return
    if n in ("java", "gcc", "clang", "rustc", "javac", "g++", "cc", "clang++") and texts in (
        ["-version"],
        ["--version"],
        ["-v"],
    ):
        return
    if n in ("nginx", "apachectl", "caddy") and any(
        t in ("-t", "-T", "configtest", "validate", "-v", "-V") for t in texts
    ):
        return
    if n in ("umount", "swapoff") and any(t in ("-a", "--all") for t in texts):
        cmd.add(D, "disk", f"{n} -a detaches every filesystem")
        return
    if n in ("rmmod", "modprobe") and ("-r" in texts or n == "rmmod"):
        cmd.add(D, "kernel", "removes a kernel module")
        return
    cmd.add(M, "changes", f"{n} changes files, settings or starts programs")


for _n in _MISC_NAMES:
    HANDLERS[_n] = _misc

_SHELL_STATE = frozenset(
    names(
        """
        export declare typeset local readonly set unset shopt ulimit umask history bind
        complete hash stty reset clear cls exit logout return break continue shift wait jobs fg
        bg disown read mapfile readarray getopts let pushd popd dirs cd chdir set-location sl
        push-location pop-location z j tput beep notify-send say
        """
    )
)


# --- the read-only allowlist ------------------------------------------------------------

_READ_ONLY = names(
    """
    : ls ll la dir vdir exa eza lsd head tail less more most wc grep egrep fgrep rg ag ack tree
    pwd echo printf which whereis type uname whoami id groups hostname uptime df du free ps
    pstree pgrep top htop btop atop env printenv file stat realpath readlink dirname basename
    sort uniq cut tr diff cmp comm column nl od xxd hexdump strings md5sum sha1sum sha256sum
    sha512sum shasum md5 cksum b2sum base64 base32 jq gojq jless fx man info help true false
    test [ [[ sleep seq expr bc dc lsof netstat ss dig nslookup host ping ping6 traceroute
    tracepath mtr whois lsblk blkid lscpu lsusb lspci lsmod lshw nproc arch date cal locale tty
    users who w last lastlog finger getent vmstat iostat mpstat sar nvidia-smi sw_vers
    system_profiler sysctl-read ioreg mdfind mdls locate fzf bat batcat glow delta difft
    colordiff wdiff tac rev fold fmt paste join expand unexpand pr look tsort factor numfmt
    shuf yes zcat zless zgrep bzcat xzcat zstdcat lzcat csvlook csvstat xmllint tidy-check
    identify exiftool pdfinfo ffprobe mediainfo pytest py.test jest vitest mocha ava tap
    phpunit rspec flake8 pylint pyflakes pycodestyle pydocstyle bandit mypy pyright
    basedpyright shellcheck hadolint yamllint markdownlint golangci-lint staticcheck actionlint
    tflint checkov tfsec trivy semgrep codespell cloc tokei scc ctags-read nm objdump readelf
    ldd otool size test-path test-connection get-childitem get-content get-item get-location
    get-process get-service get-command get-help get-date get-host get-itemproperty
    get-filehash get-acl get-computerinfo get-module get-variable get-alias get-history
    get-member get-netipaddress get-netadapter get-nettcpconnection get-psdrive get-volume
    get-disk get-partition get-eventlog get-winevent get-ciminstance get-wmiobject get-hotfix
    get-localuser get-localgroup get-executionpolicy get-mpcomputerstatus get-mppreference
    get-package get-installedmodule get-uptime get-culture select-object where-object
    measure-object sort-object group-object format-table format-list format-wide format-custom
    out-string out-host out-null out-default write-host write-output write-verbose
    write-warning write-error write-information write-debug write-progress select-string
    resolve-path split-path join-path convertto-json convertfrom-json convertto-csv
    convertfrom-csv convertto-html convertto-xml convertfrom-stringdata compare-object
    foreach-object measure-command start-sleep read-host clear-host get-random new-timespan
    get-culture test-json tee-object-read out-gridview where findstr ver vol tasklist
    systeminfo ipconfig whoami.exe hostname.exe fc comp chcp path getmac driverquery wmic-read
    nvm-ls nl pathchk printf-read tldr cheat apropos whatis nmap-version speedtest
    iperf-version sensors acpi upower neofetch fastfetch screenfetch hyperfine-version
    go-version node-version coverage ncdu dust duf procs bottom glances watchman-version
    entr-list sw-version xcode-select xcrun-version lsb_release hostnamectl-status cat-read
    stat-read ls-read lsattr namei getfacl getcap id-read
    """
)


def _read_only(cmd: Cmd) -> None:
    n = cmd.name
    texts = cmd.texts()
    if n in ("rg",) and any(t.startswith("--pre") for t in texts):
        cmd.add(M, "runs-program", "rg --pre runs a program on each file")
    elif n in ("sort",) and (cmd.option_value("-o", "--output") is not None):
        cmd.add(M, "write", "sort -o writes a file")
    elif (n in ("date",) and cmd.short("s")) or (n == "date" and cmd.long("--set")):
        cmd.add(M, "system-config", "date -s changes the clock")
    elif n == "hostname" and cmd.operands():
        cmd.add(M, "system-config", "hostname changes the host name")
    elif (n == "xxd" and cmd.short("r")) or (
        n in ("base64", "base32") and (cmd.short("dD") or cmd.long("--decode"))
    ):
        cmd.info.decodes = True
    elif n in ("less", "more", "most", "man") and any(t.startswith("+!") for t in texts):
        cmd.add(M, "runs-program", f"{n} runs a shell command")
    elif n == "top" and cmd.short("k"):
        cmd.add(D, "kill", "top -k kills processes")
    elif n in ("tail", "head", "less") and any(is_secret(w.text) for w in cmd.operands()):
        cmd.add(M, "read-secret", "prints a private key or credentials file")
        cmd.info.reads_secret = True
    elif n in ("ping", "ping6", "traceroute", "dig", "nslookup", "host", "whois", "mtr"):
        cmd.info.network_fetch = False
    elif n in ("echo", "printf", "write-output", "write-host"):
        _echo_output(cmd)
    elif n in ("foreach-object", "where-object", "measure-command"):
        return


def _echo_output(cmd: Cmd) -> None:
    args = [w for w in cmd.args]
    if any(w.dynamic for w in args):
        return
    if cmd.name == "printf":
        if not args:
            return
        fmt = args[0].text
        rest = [w.text for w in args[1:]]
        try:
            text = fmt.replace("%s", "{}").format(*rest) if "%s" in fmt else fmt
            cmd.info.output = _c_escapes(text)
        except (IndexError, ValueError, KeyError):
            return
        return
    interpret = False
    while args and re.fullmatch(r"-[neE]+", args[0].text):
        interpret = interpret or "e" in args[0].text
        args = args[1:]
    text = " ".join(w.text for w in args)
    cmd.info.output = _c_escapes(text) if interpret else text


def _c_escapes(text: str) -> str:
    from aintern_ls.safety.words import ansi_c

    return ansi_c(text) if "\\" in text else text


for _n in _READ_ONLY:
    HANDLERS.setdefault(_n, _read_only)


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


from aintern_ls.safety import windows as _windows  # noqa: E402  (registers PowerShell/cmd programs)

PS_ALIASES = _windows.PS_ALIASES
_windows.register(HANDLERS, handles)
_finish_tables()
_ = (STDIN_FILE, STDIN_NONE)
