"""Files the block wrote that a tool then runs without being told to (f18).

The equivalence class this module covers (every shell):

- how a file gets written in a block: bash `cat > f <<EOF`, `echo … > f`, `>>` appends,
  `printf`, `tee [-a]`; PowerShell `Set-Content`/`Add-Content`/`Out-File`, `'…' > f`,
  here-strings, `[IO.File]::WriteAllText`; cmd `echo … > f` (carets unescaped), `( echo a
  & echo b ) > f` groups, `type nul > f`. Every writer records the file's text in
  `scope.written` by base name (bash.py, powershell.py, wrappers.cmd_wrote).
- how a tool runs a file it was not handed: test runners import their configuration and
  test files (pytest conftest.py/test_*.py, nox/invoke/fab task files, rspec *_spec.rb,
  jest/vitest/mocha configs and tests), build engines read their project (MSBuild
  .proj/.csproj/.targets Exec tasks, Ant build.xml, Gradle init scripts), installers run
  the package's setup (setup.py on `pip install .`), git runs aliases and filter/diff
  drivers from .git/config, shells read their startup files (`bash -i/-l/--rcfile`, zsh,
  a new PowerShell reads $PROFILE), and Windows opens a file with its default action
  (Invoke-Item, start, explorer, rundll32's ShellExec_RunDLL/FileProtocolHandler,
  Start-Process, ShellExecute/Process.Start: a .bat runs, a .vbs runs in wscript, a .reg is
  merged, a .url opens its target).

One table: tool -> (verbs that run, the files it picks up, the reader of their text). The
reader's text is judged with the same analyser as the command line (blocked when it wipes,
critical when what runs cannot be read, moderate when plainly benign). The scan has cheap
exits: nothing runs unless the block wrote a file and the command is one of the tools.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from fnmatch import fnmatchcase
from itertools import islice

from aintern_ls.safety import inline
from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import M
from aintern_ls.safety.persist import crontab_commands, launchd_command
from aintern_ls.safety.registry import PROFILE_KEY, VERSION_ARGS
from aintern_ls.safety.words import Word

ANY = frozenset[str]()


def _msbuild(text: str) -> str:
    """A project's `<Exec Command="…">` tasks, quoted or as cmd's echo left them."""
    out = []
    for m in re.finditer(
        r"(?is)<Exec\b[^>]{0,2000}?\bCommand\s*=\s*"
        r"(?:\"([^\"]{0,4000})\"|'([^']{0,4000})'|([^>]{0,4000}?)\s*/?>)",
        text[:20000],
    ):
        out.append(html.unescape(next(g for g in m.groups() if g is not None)))
    return "\n".join(o for o in out if o.strip())


def _ant(text: str) -> str:
    from aintern_ls.safety.compilers import ant_commands

    return ant_commands(text)


def _gradle(text: str) -> str:
    from aintern_ls.safety.toolchains import gradle_commands

    return gradle_commands(text)


def _lines(pattern: str) -> Callable[[str], str]:
    """A reader of the shell commands a configuration's lines run (group 1 of `pattern`)."""
    rx = re.compile(pattern, re.M)

    def read(text: str) -> str:
        out = []
        for m in rx.finditer(text[:20000]):
            line = next((g for g in m.groups() if g is not None), "").strip()
            if len(line) > 1 and line[0] == line[-1] and line[0] in "'\"":
                line = line[1:-1]
            out.append(line)
        return "\n".join(out)

    return read


def _pth(text: str) -> str:
    """A .pth file: its `import …` lines are Python run at every interpreter start."""
    return "\n".join(ln for ln in text.splitlines() if ln.startswith(("import ", "import\t")))


def _dotnet(text: str) -> str:
    from aintern_ls.safety.windows import dotnet_effects

    return dotnet_effects(text)


def _hcl_string(raw: str) -> str:
    return raw.replace('\\"', '"').replace("\\\\", "\\")


def _terraform(text: str, provisioners: bool = True) -> str:
    """Commands Terraform/OpenTofu/Packer run on this machine: a `local-exec`/`shell-local`
    provisioner's `command`/`inline` (when resources are created: apply, build), an
    `external` data source's `program` (whenever data is read: plan too)."""
    import shlex

    out = []
    for m in re.finditer(
        r'(?s)provisioner[ \t]+"(?:local-exec|shell-local)"[ \t]*\{([^}]{0,4000})\}',
        text[:20000] if provisioners else "",
    ):
        body = m.group(1)
        for c in re.finditer(r'\bcommand[ \t]*=[ \t]*"((?:[^"\\\n]|\\.){0,4000})"', body):
            out.append(_hcl_string(c.group(1)))
        for c in re.finditer(r"\binline[ \t]*=[ \t]*\[([^\]]{0,4000})\]", body):
            out += [_hcl_string(x) for x in re.findall(r'"((?:[^"\\]|\\.)*)"', c.group(1))]
    for m in re.finditer(
        r'(?s)data[ \t]+"external"[^{]{0,200}\{[^}]{0,2000}?\bprogram[ \t]*=[ \t]*'
        r"\[([^\]]{0,2000})\]",
        text[:20000],
    ):
        argv = [_hcl_string(x) for x in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))]
        out.append(" ".join(shlex.quote(a) for a in argv))
    return "\n".join(out)


_ANSIBLE_TASK = re.compile(
    r"(?m)^[ \t]*-?[ \t]*(?:ansible\.builtin\.|ansible\.legacy\.)?(?:shell|command|raw)[ \t]*:"
    r"[ \t]*(?:\|[-+]?[ \t]*\n[ \t]+)?(\S.*)$"
)


def _ansible(text: str) -> str:
    """A playbook's shell/command/raw tasks (their one-line form and `cmd:`)."""
    out = [m.group(1).strip().strip("'\"") for m in _ANSIBLE_TASK.finditer(text[:20000])]
    out += [
        m.group(1).strip().strip("'\"")
        for m in re.finditer(r"(?m)^[ \t]+cmd[ \t]*:[ \t]*(\S.*)$", text[:20000])
    ]
    return "\n".join(o for o in out if o)


# Readers of a file's text: a language the inline recogniser reads, or a function giving
# the shell lines the file runs.
_READERS: dict[str, Callable[[str], str]] = {
    "msbuild": _msbuild,
    "ant": _ant,
    "gradle": _gradle,
    # gdb: `shell CMD`, `!CMD` (and `python` lines, read as Python below)
    "gdb": _lines(r"^[ \t]*(?:shell|!)[ \t]*(\S.*)$"),
    # psql: `\! CMD`
    "psql": _lines(r"^[ \t]*\\!(?:[ \t]+(\S.*))$"),
    # vim: `:!CMD`, `silent !CMD`, `call system('CMD')`, `execute '!CMD'`
    "vim": _lines(
        r"^[ \t]*:?(?:silent!?[ \t]*)?(?:execute[ \t]+['\"])?!(\S[^'\"\n]*)"
        r"|(?:system|systemlist)\(\s*(?:'([^']*)'|\"([^\"]*)\")"
    ),
    # tmux: `run-shell [-b] CMD`, `run CMD`
    "tmux": _lines(r"^[ \t]*run(?:-shell)?(?:[ \t]+-b)?[ \t]+(\S.*)$"),
    # lefthook.yml: each command's `run:`
    "lefthook": _lines(r"^[ \t]*run:[ \t]*(\S.*)$"),
    "dotnet": _dotnet,
    "ansible": _ansible,
    # CI job files run by a local shell executor: their list items (the script lines)
    "ci-script": _lines(r"^[ \t]*-[ \t]+(\S.*)$"),
    "crontab": crontab_commands,
    "launchd": launchd_command,
    # systemd units: the Exec*= lines (prefixes `-@+!:` say how, not what)
    "systemd": _lines(
        r"^[ \t]*Exec(?:Start|StartPre|StartPost|Reload|Stop|StopPost)=[-@+!:]*(\S.*)$"
    ),
    "terraform": _terraform,
    "terraform-data": lambda text: _terraform(text, provisioners=False),
}

_JS_TESTS = ("*.test.js", "*.test.ts", "*.test.mjs", "*.spec.js", "*.spec.ts", "*.spec.mjs")
# tool: ((verbs that run the files, "" any; (file patterns by base name), reader), ...)
_TABLE: dict[str, tuple[tuple[frozenset[str], tuple[str, ...], str], ...]] = {
    "pytest": ((ANY, ("conftest.py", "test_*.py", "*_test.py"), "python"),),
    "py.test": ((ANY, ("conftest.py", "test_*.py", "*_test.py"), "python"),),
    "invoke": ((ANY, ("tasks.py",), "python"),),
    "inv": ((ANY, ("tasks.py",), "python"),),
    "fab": ((ANY, ("fabfile.py",), "python"),),
    "nox": ((ANY, ("noxfile.py",), "python"),),
    "rspec": ((ANY, ("*_spec.rb", "spec_helper.rb", "rails_helper.rb"), "ruby"),),
    "jest": ((ANY, ("jest.config.*", "jest.setup.*", *_JS_TESTS), "node"),),
    "vitest": ((ANY, ("vitest.config.*", "vite.config.*", "vitest.setup.*", *_JS_TESTS), "node"),),
    "mocha": ((ANY, (".mocharc.js", ".mocharc.cjs", "*.js", "*.mjs", "*.cjs"), "node"),),
    "msbuild": ((ANY, ("*.proj", "*.*proj", "*.targets", "*.props"), "msbuild"),),
    "xbuild": ((ANY, ("*.proj", "*.*proj", "*.targets", "*.props"), "msbuild"),),
    "dotnet": (
        (
            frozenset(("build", "msbuild", "test", "run", "publish", "pack", "restore")),
            ("*.proj", "*.targets", "*.props"),  # (.csproj and kin: toolchains.written_sources)
            "msbuild",
        ),
        # (`dotnet run`/`test` compile the project's C# and run it)
        (frozenset(("run", "test", "watch", "")), ("*.cs",), "dotnet"),
    ),
    # test classes the build's test phase compiles and runs (surefire's and JUnit's names)
    "mvn": (
        (
            frozenset(("test", "verify", "install", "package", "integration-test", "deploy")),
            ("Test*.java", "*Test.java", "*Tests.java", "*TestCase.java", "*IT.java"),
            "java",
        ),
    ),
    "gradle": (
        (ANY, ("*.gradle", "*.gradle.kts"), "gradle"),
        (
            frozenset(("test", "check", "build")),
            ("Test*.java", "*Test.java", "*Tests.java", "*TestCase.java"),
            "java",
        ),
    ),
    "lefthook": (
        (frozenset(("run",)), ("lefthook.yml", ".lefthook.yml", "lefthook-local.yml"), "lefthook"),
    ),
    "terraform": (
        (frozenset(("apply", "destroy")), ("*.tf",), "terraform"),
        (frozenset(("plan", "refresh", "import", "console")), ("*.tf",), "terraform-data"),
    ),
    "packer": ((frozenset(("build",)), ("*.pkr.hcl", "*.json"), "terraform"),),
    "ant": ((ANY, ("build.xml",), "ant"),),
    "gradlew": ((ANY, ("*.gradle", "*.gradle.kts"), "gradle"),),
    # (`pip install .`/`-e .`: the project's setup.py runs while it builds)
    "pip": ((frozenset(("install", "wheel", "download")), ("setup.py",), "python"),),
    "pip3": ((frozenset(("install", "wheel", "download")), ("setup.py",), "python"),),
    # interpreters' and tools' own startup files (read at every start)
    "python": (
        (ANY, ("sitecustomize.py", "usercustomize.py"), "python"),
        (ANY, ("*.pth",), "pth"),
    ),
    "gdb": ((ANY, (".gdbinit", "gdbinit", "*.gdb"), "gdb"),),
    "psql": ((ANY, (".psqlrc",), "psql"),),
    "vim": ((ANY, (".vimrc", "_vimrc", ".exrc", "init.vim", ".gvimrc"), "vim"),),
    "tmux": ((ANY, (".tmux.conf", "tmux.conf"), "tmux"),),
    "r": ((ANY, (".Rprofile", "Rprofile.site"), "r"),),
    "irb": ((ANY, (".irbrc",), "ruby"),),
    "waf": ((ANY, ("wscript",), "python"),),
    # infrastructure programs run on this machine to build their plan
    "pulumi": (
        (
            frozenset(("up", "update", "preview", "refresh", "destroy")),
            ("index.js", "index.ts", "index.mjs"),
            "node",
        ),
        (frozenset(("up", "update", "preview", "refresh", "destroy")), ("__main__.py",), "python"),
    ),
    "gitlab-runner": ((frozenset(("exec",)), (".gitlab-ci.yml",), "ci-script"),),
    # (a play for this machine: hosts localhost or connection local, or `-c local`)
    "ansible-playbook": ((ANY, ("*.yml", "*.yaml"), "ansible"),),
    # test runners of JavaScript runtimes (their default test-file names)
    "node-test": (
        (
            ANY,
            ("*.test.js", "*.test.mjs", "*.test.cjs", "*-test.js", "*_test.js", "test*.js"),
            "node",
        ),
    ),
    "bun-test": (
        (ANY, (*_JS_TESTS, "*.test.tsx", "*_test.ts", "*_test.js", "*.spec.tsx"), "node"),
    ),
    "deno-test": ((ANY, ("*_test.ts", "*.test.ts", "*_test.js", "*.test.js", "test.ts"), "node"),),
    "invoke-pester": ((ANY, ("*.Tests.ps1",), "powershell"),),
    # a module's code runs when it is imported (named operands only)
    "import-module": ((ANY, ("*.psm1", "*.ps1"), "powershell"),),
    # schedulers and service managers starting a job file written above (persistence too)
    "crontab": ((ANY, ("*",), "crontab"),),
    "systemctl": (
        (
            frozenset(
                ("start", "restart", "enable", "reenable", "reload-or-restart", "try-restart")
            ),
            ("*.service",),
            "systemd",
        ),
    ),
    "launchctl": ((frozenset(("load", "bootstrap", "submit")), ("*.plist",), "launchd"),),
    "pry": ((ANY, (".pryrc",), "ruby"),),
}
# Tools that read only the files they are given (not every matching file written above).
_NAMED_ONLY = frozenset(("import-module", "crontab", "systemctl", "launchctl", "ansible-playbook"))
# Other names of the table's tools.
_SAME = {
    "gdb-multiarch": "gdb",
    "vi": "vim",
    "nvim": "vim",
    "gvim": "vim",
    "view": "vim",
    "vimdiff": "vim",
    "rscript": "r",
    "r": "r",
    "tofu": "terraform",
    "ipmo": "import-module",
    "mvnw": "mvn",
}
# Options whose value is a file the tool reads with the same reader (`gdb -x F`, `vim -u F`,
# `tmux -f F`, `psql -f F`), and options that turn the startup files off.
_GRADLE_PRINTS = frozenset(("--help", "-h", "-?", "--version", "-v"))
_FILE_OPTIONS = {
    "gdb": ("-x", "--command", "-ix", "--init-command"),
    # (n19u) init scripts and a named build file
    "gradle": ("-I", "--init-script", "-b", "--build-file"),
    "gradlew": ("-I", "--init-script", "-b", "--build-file"),
    "vim": ("-u", "-S"),
    "tmux": ("-f",),
    "psql": ("-f", "--file"),
}
_NO_STARTUP = {
    "gdb": ("-nx", "--nx", "-n"),
    "psql": ("-X", "--no-psqlrc"),
    "r": ("--vanilla", "--no-init-file"),
    "python": ("-I", "-S", "-E"),
    "irb": ("-f",),
}
# Runners that hand their first operand to a tool of the table (`npx jest`, `python -m
# pytest`, `uv run pytest`).
_FRONTS = frozenset(("npx", "pnpx", "bunx", "pnpm", "yarn", "uv", "poetry", "pipenv", "hatch"))
_PYTHONS = re.compile(r"\Apy(?:thon(?:\d+(?:\.\d+)?)?)?(?:\.exe)?\Z")
TOOLS = (
    frozenset(_TABLE)
    | frozenset(_SAME)
    | _FRONTS
    | frozenset(("python", "python3", "py", "dotnet", "R", "Rscript", "node", "bun", "deno"))
)


def _tool_and_ops(cmd: Cmd) -> tuple[str, list[Word]]:
    """The tool of the table a command runs and the operands it gets."""
    name = cmd.name.lower().removesuffix(".exe")
    args = list(cmd.args)
    if _PYTHONS.match(name):
        at = next((i for i, w in enumerate(args[:4]) if w.text == "-m"), -1)
        if at < 0 or at + 1 >= len(args):
            return "python", args
        return args[at + 1].text, args[at + 2 :]
    name = _SAME.get(name, name)
    if name in ("node", "bun", "deno"):
        test = (
            any(w.text == "--test" for w in args)
            if name == "node"
            else bool(args and args[0].text == "test")
        )
        return (f"{name}-test" if test else ""), args[1:] if name != "node" else args
    if name in _FRONTS:
        ops = [w for w in args if not w.text.startswith("-")]
        if ops and ops[0].text in ("exec", "run", "x", "dlx"):
            ops = ops[1:]
        if not ops:
            return "", []
        at = args.index(ops[0])
        return ops[0].text.rsplit("/", 1)[-1], args[at + 1 :]
    return name, args


def _match(base: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(base, p) if "*" in p else base == p for p in patterns)


def judge(cmd: Cmd) -> None:
    """Judge the files this block wrote that `cmd`'s tool picks up and runs now."""
    written = cmd.scope.written
    if not written:
        return
    tool, args = _tool_and_ops(cmd)
    rows = _TABLE.get(tool)
    if _PYTHONS.match(cmd.name.lower()) and tool != "python":
        rows = (*(rows or ()), *_TABLE["python"])  # (`python -m pytest`: site files too)
    if rows is None:
        return
    if tool in ("gradle", "gradlew"):
        # (n19u) Gradle's `help` and `tasks` are tasks: the init and build scripts run first;
        # only its own options print and exit
        if any(w.text in _GRADLE_PRINTS for w in args):
            return
    elif any(w.text in VERSION_ARGS for w in args):
        return
    texts = [w.text for w in args]
    if tool in ("pytest", "py.test") and "-p" in " ".join(texts[:64]):
        for module in _pytest_plugins(texts[:64]):
            base = module.rsplit(".", 1)[-1] + ".py"
            if base in written:
                run_text(cmd, base, "python", f"{base} (written above) loads as pytest -p {module}")
    if any(t in _NO_STARTUP.get(tool, ()) for t in texts):
        rows = rows[:0]
    ops = [w.text for w in args if not w.text.startswith(("-", "/"))]
    verb = ops[0] if ops else ""
    # (the first files the block wrote: a block writing hundreds of files costs no more)
    bases = [b for b in islice(written, 64) if not b.startswith("\x00")]
    given = _FILE_OPTIONS.get(tool, ())
    for k, t in enumerate(texts[:-1] if given else ()):
        base = texts[k + 1].replace("\\", "/").rsplit("/", 1)[-1]
        if t in given and base in written and texts[k + 1].upper() != "NONE":
            reader = _TABLE[tool][0][2]
            run_text(cmd, base, reader, f"{base} (written above) runs through {tool} {t}")
    for verbs, patterns, reader in rows:
        if verbs and verb not in verbs:
            continue
        if tool.startswith("pip") and not any(o in (".", "./") or o.endswith("/") for o in ops):
            continue  # (`pip install requests` builds no project of the block)
        if tool == "vim" and any(t in ("-u", "--clean") for t in texts):
            continue  # (`vim -u F`/`--clean`: the user's vimrc is not read)
        named = [o.replace("\\", "/").rsplit("/", 1)[-1] for o in ops]
        if tool == "systemctl":
            named = [n if n.endswith(".service") else n + ".service" for n in named]
        picked = [b for b in named if b in written and _match(b, patterns)]
        if not picked and tool not in _NAMED_ONLY:
            picked = [p for p in patterns if "*" not in p and p in written]
            wild = tuple(p for p in patterns if "*" in p)
            picked += [b for b in bases if wild and _match(b, wild) and b not in picked]
        for base in picked[:8]:
            if reader == "ansible" and not _local_play(cmd, texts, base):
                continue  # (a play for other machines: what it does there is not judged here)
            run_text(cmd, base, reader, f"{base} (written above) runs through {tool}")


def _pytest_plugins(texts: list[str]) -> list[str]:
    """(n20u) The plugin modules pytest is told to load early (`-p NAME`, `-pNAME`, a
    comma-separated PYTEST_PLUGINS given as `-p=A,B`); `-p no:NAME` disables one."""
    out: list[str] = []
    for k, t in enumerate(texts):
        if t == "-p" and k + 1 < len(texts):
            value = texts[k + 1]
        elif t.startswith("-p") and len(t) > 2 and t[2] not in "-":
            value = t[2:].lstrip("=")
        else:
            continue
        out += [m.strip() for m in value.split(",") if m.strip() and not m.startswith("no:")]
    return out[:16]


def _local_play(cmd: Cmd, texts: list[str], base: str) -> bool:
    """An Ansible run whose tasks run on this machine."""
    joined = " ".join(texts)
    if re.search(r"(?:-c|--connection)[ =]local\b|-i[ =]?(?:localhost|127\.0\.0\.1),", joined):
        return True
    body = _text_of(cmd, base) or ""
    return (
        re.search(
            r"(?m)^[ \t]*-?[ \t]*(?:hosts:[ \t]*(?:localhost|127\.0\.0\.1)"
            r"|connection:[ \t]*local)\b",
            body[:20000],
        )
        is not None
    )


def _text_of(cmd: Cmd, base: str) -> str | None:
    from aintern_ls.safety.wrappers import written_code

    return written_code(cmd.scope, base)


def run_text(cmd: Cmd, base: str, reader: str, what: str, text: str | None = None) -> None:
    """Judge `base`'s written text as `reader` reads it, as `what` runs it."""
    body = text if text is not None else _text_of(cmd, base)
    if not body or not body.strip():
        return
    where = Word(base, cmd.start, cmd.end)
    if reader == "pth":
        body, reader = _pth(body), "python"
        if not body:
            return
    extract = _READERS.get(reader)
    if extract is not None:
        code = extract(body)
        if not code.strip() and reader != "gradle":
            return
        found = cmd.scope.nested(code, "bash", where, -1) if code.strip() else []
        if cmd.scope.family != "bash" and code.strip():
            found += cmd.scope.nested(code, "cmd", where, -1)
        if reader == "gradle":
            # (n19u) a Gradle script is Groovy or Kotlin code: `new File(…).deleteDir()`,
            # `Runtime.getRuntime().exec(arrayOf("rm", …))` run as the build configures
            found += inline.code_findings(cmd.scope, body, where, "groovy")
    elif reader in ("bash", "cmd", "powershell"):
        found = cmd.scope.nested(body, reader, where, -1)
    else:
        found = inline.code_findings(cmd.scope, body, where, reader)
        if cmd.scope.family != "bash":
            # (on Windows `os.system`/`execSync` hand their string to cmd.exe)
            for line in dict.fromkeys(inline.code_effects(body, reader).shell):
                found += cmd.scope.nested(line, "cmd", where, -1)
    for f in found:
        cmd.scope.add(f.level, f.rule, f"{what}: {f.reason}", f.start, f.end)


# --- git: aliases and drivers from a configuration the block wrote ------------------------------
# `printf '[alias]\n\tx = !rm -rf ~\n' >> .git/config; git x`, `git config alias.x '!…'; git x`,
# a clean/smudge filter, diff textconv or merge driver then `git add`/`checkout`/`diff`/`merge`.
GIT_SET = "\x00gitconfig"  # (scope.written: `key = value` lines `git config` stored here)
_GIT_FILES = ("config", ".gitconfig", GIT_SET)
_GIT_DRIVERS: dict[str, tuple[str, ...]] = {
    # subcommand: the driver settings it runs (gitattributes(5))
    "add": ("filter.*.clean", "filter.*.process"),
    "commit": ("filter.*.clean", "filter.*.process"),
    "stash": ("filter.*.clean", "filter.*.smudge", "filter.*.process"),
    "status": ("filter.*.clean", "filter.*.process"),
    "checkout": ("filter.*.smudge", "filter.*.process"),
    "switch": ("filter.*.smudge", "filter.*.process"),
    "restore": ("filter.*.smudge", "filter.*.process"),
    "reset": ("filter.*.smudge", "filter.*.process"),
    "clone": ("filter.*.smudge", "filter.*.process"),
    "pull": ("filter.*.smudge", "filter.*.process", "merge.*.driver"),
    "merge": ("filter.*.smudge", "filter.*.process", "merge.*.driver"),
    "rebase": ("filter.*.smudge", "filter.*.process", "merge.*.driver"),
    "cherry-pick": ("filter.*.smudge", "merge.*.driver"),
    "diff": ("diff.*.textconv", "diff.*.command", "filter.*.clean"),
    "log": ("diff.*.textconv", "diff.*.command"),
    "show": ("diff.*.textconv", "diff.*.command"),
    "blame": ("diff.*.textconv",),
    "grep": ("diff.*.textconv",),
}


def git_settings(text: str) -> dict[str, str]:
    """`section.sub.name -> value` of git configuration text (`[filter "x"]` sections, one
    variable on the header's line, dotted `key = value` lines as `git config` stored them)."""
    out: dict[str, str] = {}
    section = ""
    for raw in text[:20000].splitlines():
        line = raw.strip()
        m = re.match(r'\[\s*([\w.-]+)(?:\s+"([^"]*)")?\s*\]\s*(.*)\Z', line)
        if m:
            section = m.group(1).lower() + (f".{m.group(2)}" if m.group(2) is not None else "")
            line = m.group(3)
        if not line or line[0] in "#;":
            continue
        key, eq, value = line.partition("=")
        key = key.strip()
        if not eq or not re.fullmatch(r"[\w.\"-]+", key):
            continue
        value = value.strip()
        if len(value) > 1 and value[0] == value[-1] == '"':
            value = value[1:-1].replace('\\"', '"')
        full = key if "." in key and not section else f"{section}.{key}" if section else ""
        if full:
            out[full.lower() if not full.lower().startswith("alias.") else full] = value
    return out


_GIT_LINE = re.compile(
    r"(?m)^[ \t]*(?:\[[ \t]*([\w.-]+)[^\]\n]*\][ \t]*)?([\w.-]+)[ \t]*=[ \t]*(.*)"
)


def _git_alias(text: str, sub: str) -> str | None:
    """The value of alias `sub` in git configuration text (the last one wins): only the
    lines that hold the name are read (no parse of the whole file, no pattern per name)."""
    found = None
    low = sub.lower()
    at = text.find(sub)
    for _ in range(64):
        if at < 0:
            break
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        m = _GIT_LINE.fullmatch(text, start, end)
        if m is not None and m.group(2).lower() in (low, "alias." + low):
            section = m.group(1)
            if section is None and not m.group(2).lower().startswith("alias."):
                head = text.rfind("\n[", 0, start)
                head = head + 1 if head >= 0 else (0 if text.startswith("[") else -1)
                section = text[head + 1 : text.find("]", head)].strip() if head >= 0 else ""
            if section is None or section.lower() == "alias":
                value = m.group(3).strip()
                if len(value) > 1 and value[0] == value[-1] == '"':
                    value = value[1:-1].replace('\\"', '"')
                found = value
        at = text.find(sub, end)
    return found


def git_config(cmd: Cmd, sub: str, rest: list[Word]) -> None:
    """`git SUB` after the block wrote git configuration: an alias SUB defined there runs its
    `!` shell command, and SUB's filter/diff/merge drivers run theirs."""
    written = cmd.scope.written
    texts = [t for f in _GIT_FILES if (t := _text_of(cmd, f) if f != GIT_SET else None)]
    if GIT_SET in written:
        texts.append(written[GIT_SET][0])
    drivers = _GIT_DRIVERS.get(sub, ())
    kinds = {p.split(".", 1)[0] for p in drivers}
    alias = None
    for t in texts:
        alias = _git_alias(t, sub) or alias
    # (only a text naming a driver section that git runs here is parsed whole)
    texts = [t for t in texts if any(k in t.lower() for k in kinds)]
    settings: dict[str, str] = {}
    for t in texts:
        settings.update(git_settings(t))
    if alias is not None and alias[1:].split()[:2] == ["git", sub]:
        alias = None  # (`alias.a = !git a`: git stops at the loop)
    if alias is not None and alias.startswith("!"):
        import shlex

        line = alias[1:] + "".join(" " + shlex.quote(w.text) for w in rest)
        run_text(cmd, "git alias " + sub, "bash", f"the git alias {sub} set above", line)
    for pattern in drivers:
        for key, value in settings.items():
            if fnmatchcase(key, pattern) and value.strip():
                run_text(cmd, key, "bash", f"git {sub} runs the {key} set above", value)


# --- Windows: a written document opened with its default action ---------------------------------
# `Invoke-Item w.vbs`, `start w.reg`, `explorer w.bat`, `rundll32 url.dll,FileProtocolHandler
# w.url`, `(New-Object -ComObject Shell.Application).ShellExecute('w.hta')`, or the file
# typed as a command: Windows runs the extension's associated verb ("open"). Each is judged as
# the command that verb runs. (.ps1 opens in an editor; .txt and other documents in theirs.)
_DEFAULT_ACTION = {
    ".bat": "call {}",
    ".cmd": "call {}",
    ".vbs": "wscript {}",
    ".vbe": "wscript {}",
    ".js": "wscript {}",
    ".jse": "wscript {}",
    ".wsf": "wscript {}",
    ".wsh": "wscript {}",
    ".hta": "mshta {}",
    ".reg": "reg import {}",
    ".py": "py {}",
    ".pyw": "pyw {}",
    ".msi": "msiexec /i {}",
}
DOCUMENT_SUFFIXES = (*_DEFAULT_ACTION, ".url", ".website", ".lnk")
OPENERS = frozenset(("invoke-item", "explorer", "explorer.exe", "start-process"))


def _suffix(path: str) -> str:
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    return "." + base.rsplit(".", 1)[-1].lower() if "." in base else ""


def open_document(cmd: Cmd, word: Word, depth: int = 0) -> bool:
    """`word` names a file this block wrote and Windows opens it with its default action:
    judge what that action runs. True if it was such a file."""
    path = word.text.strip("\"'")
    suffix = _suffix(path)
    if word.dynamic or suffix not in DOCUMENT_SUFFIXES:
        return False
    from aintern_ls.safety.wrappers import written_code

    text = written_code(cmd.scope, path.replace("\\", "/"))
    if text is None:
        return False
    if suffix in (".url", ".website"):
        # an Internet shortcut: `URL=file:///C:/temp/w.bat` opens that file the same way
        m = re.search(r"(?im)^[ \t]*URL[ \t]*=[ \t]*(\S[^\r\n]*)$", text)
        target = m.group(1).strip() if m else ""
        if depth or not re.match(r"(?i)file:", target):
            return True
        target = re.sub(r"(?i)\Afile:/*", "", target).replace("/", "\\")
        return open_document(cmd, Word(target, word.start, word.end), depth + 1)
    if suffix == ".lnk":
        line = text.strip()  # (a shortcut: the command line `shortcuts` recorded)
    else:
        line = _DEFAULT_ACTION[suffix].format(f'"{path}"' if " " in path else path)
    found = cmd.scope.nested(line, "cmd", word, -1)
    for f in found:
        if f.level > M:
            reason = f"{path} (written above) opened with its default action: {f.reason}"
            cmd.scope.add(f.level, f.rule, reason, f.start, f.end)
    return True


def opened(cmd: Cmd) -> None:
    """`Invoke-Item F`, `explorer F`: each written document operand is opened."""
    for w in cmd.args:
        if w.text.startswith("-") or (w.text.startswith("/") and len(w.text) < 12):
            continue
        if cmd.name == "start-process" and _suffix(w.text) in (".bat", ".cmd"):
            continue  # (Start-Process runs a batch file itself: wrappers judge it)
        open_document(cmd, w)


# --- startup files a new shell reads ---------------------------------------------------------
# `echo 'rm -rf ~' >> ~/.bashrc; bash -i`, `… > ~/.profile && bash -l`, `bash --rcfile rc`,
# `Add-Content $PROFILE '…'; pwsh` (every new PowerShell without -NoProfile), `. $PROFILE`.
_PS_PROFILES = (PROFILE_KEY, "Microsoft.PowerShell_profile.ps1", "profile.ps1")
_LOGIN = {
    "bash": (".bash_profile", ".bash_login", ".profile"),
    "zsh": (".zprofile", ".zlogin"),
    "sh": (".profile",),
    "dash": (".profile",),
    "ksh": (".profile",),
    "mksh": (".profile",),
    "fish": ("config.fish",),
}
_INTERACTIVE = {"bash": (".bashrc",), "zsh": (".zshrc",), "fish": ("config.fish",)}
SHELLS = frozenset((*_LOGIN, "pwsh", "powershell", "pwsh.exe", "powershell.exe"))


def startup_files(cmd: Cmd) -> None:
    """A new shell started here reads the startup files this block wrote: judge them."""
    name = cmd.name.lower().removesuffix(".exe")
    texts = [w.text for w in cmd.args]
    low = [t.lower() for t in texts]
    if name in ("pwsh", "powershell"):
        if any(t.startswith("-") and len(t) >= 4 and "-noprofile".startswith(t) for t in low):
            return
        for base in _PS_PROFILES:
            run_text(cmd, base, "powershell", "the PowerShell profile written above loads")
        return
    if any(t in ("--norc", "--noprofile", "-f", "--no-rcs", "--version", "--help") for t in low):
        return
    files: list[str] = []
    if name == "zsh":
        files.append(".zshenv")
    rc = next(
        (texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("--rcfile", "--init-file")), ""
    )
    login = any(
        t in ("--login", "-l") or (t[:1] == "-" and t[1:2] != "-" and "l" in t) for t in texts
    )
    interactive = (
        rc
        or any(t == "-i" or (t[:1] == "-" and t[1:2] != "-" and "i" in t) for t in texts)
        or (not texts and cmd.stdin.kind not in ("static", "network", "file"))
    )
    if login:
        files += _LOGIN.get(name, ())
    if interactive and not login:
        files += [rc.replace("\\", "/").rsplit("/", 1)[-1]] if rc else _INTERACTIVE.get(name, ())
    for base in files:
        if base in cmd.scope.written:
            run_text(cmd, base, "bash", f"{base} (written above) runs when {name} starts")


# --- shortcuts a script writes (WScript.Shell's CreateShortcut) ---------------------------
_SHORTCUT = re.compile(
    r"(?i)(\$\w+)\s*=\s*[^;\n]{0,200}?\.createshortcut\(\s*(['\"])([^'\"]{1,260})\2\s*\)"
)


def shortcuts(text: str, written: dict[str, tuple[str, int]]) -> None:
    """`$s = $sh.CreateShortcut('w.lnk'); $s.TargetPath = 'cmd.exe'; $s.Arguments = '/c …';
    $s.Save()`: remember the command line the shortcut runs (opening it runs that)."""
    for n, m in enumerate(_SHORTCUT.finditer(text[:20000])):
        if n >= 8:
            break
        var, path = m.group(1), m.group(3)
        base = path.replace("/", "\\").rsplit("\\", 1)[-1]
        if not base.lower().endswith(".lnk"):
            continue
        props: dict[str, str] = {}
        for p in re.finditer(
            rf"(?i){re.escape(var)}\.(targetpath|arguments)\s*=\s*(?:'([^']*)'|\"([^\"`$]*)\")",
            text[m.end() : m.end() + 4000],
        ):
            props[p.group(1).lower()] = p.group(2) if p.group(2) is not None else p.group(3)
        target = props.get("targetpath", "")
        if target:
            exe = f'"{target}"' if " " in target else target
            written[base] = (f"{exe} {props.get('arguments', '')}".strip() + "\n", -1)
