"""Package managers, builds, test runners, linters and formatters: installs are moderate,
test suites run the project's code (moderate, h19), checks and linters are safe, fix/format
modes write files.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from itertools import islice

from aintern_ls.safety import inline, system
from aintern_ls.safety.context import (
    Cmd,
)
from aintern_ls.safety.levels import C, M, S
from aintern_ls.safety.registry import (
    VERSION_ARGS,
    build_program_findings,
    handles,
    is_build_program_var,
    run_config_command,
    skip_options,
)
from aintern_ls.safety.words import ORIGIN_NETWORK, Word, names

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
# (h19) Package managers' and build tools' verbs that run the project's test suite.
_TEST_VERBS = frozenset(names("test t tst bench"))
_TEST_SCRIPTS = frozenset(
    names(
        """
        test lint typecheck type-check check tsc format:check lint:check test:unit test:ci
        prettier:check fmt:check
        """
    )
)


_PIP_READ = frozenset(("show", "list", "freeze", "check", "tree", "--version"))
# Options that turn a linter, checker or formatter script into one that rewrites files
# (`npm run lint -- --fix`, `pnpm run check --write`, `npm run test:unit -- -u`)
_SCRIPT_WRITES = frozenset(
    names(
        """
        --fix --write -w --apply --apply-unsafe --unsafe --unsafe-fixes --fix-type --update
        -u --updateSnapshot --update-snapshots --in-place -i --emit
        """
    )
)


# --- manifests that run code when they are used -------------------------------------------
# A block that writes a package.json with lifecycle scripts, a setup.py, a Makefile or a git
# hook and then installs, builds or commits runs what it wrote: the written text is judged
# with the same analyser (npm's lifecycle: docs.npmjs.com/cli/using-npm/scripts).
_NPM_LIFECYCLE = ("preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare")
_NPM_RUNS_LIFECYCLE = frozenset(
    names(
        """
        install i in ins inst insta instal isnt isntall add ci clean-install rebuild rb
        install-test it install-ci-test pack publish link ln update up upgrade
        """
    )
)
_SCRIPT_ENTRY = re.compile(r'"([\w:.-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _manifest_scripts(body: str) -> dict[str, str]:
    """The `scripts` of a package.json text (JSON, or the `"name": "cmd"` pairs when it is
    not valid JSON, e.g. still holding `$VAR`s)."""
    import json

    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict):
        scripts = data.get("scripts")
        if isinstance(scripts, dict):
            return {k: v for k, v in scripts.items() if isinstance(k, str) and isinstance(v, str)}
        return {}
    out: dict[str, str] = {}
    for m in _SCRIPT_ENTRY.finditer(body):
        try:
            out[m.group(1)] = json.loads(f'"{m.group(2)}"')
        except ValueError:
            out[m.group(1)] = m.group(2)
    return out


def _composer_scripts(body: str) -> dict[str, list[str]]:
    import json

    try:
        data = json.loads(body)
    except ValueError:
        return {k: [v] for k, v in _manifest_scripts(body).items()}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    out: dict[str, list[str]] = {}
    if isinstance(scripts, dict):
        for k, v in scripts.items():
            values = v if isinstance(v, list) else [v]
            out[str(k)] = [x for x in values if isinstance(x, str)]
    return out


def _judge_written(cmd: Cmd, code: str, what: str, language: str = "bash") -> None:
    """Judge code a manifest or hook written earlier in the block will run now."""
    where = Word(code, cmd.start, cmd.end)
    if language == "bash" and cmd.scope.family != "bash":
        # (n14w) on Windows npm scripts and nmake recipes run through cmd.exe (make and
        # others through sh when installed): judged both ways, the worse reading counts
        found = cmd.scope.nested(code, "cmd", where, -1) + cmd.scope.nested(code, "bash", where, -1)
    elif language == "bash":
        found = cmd.scope.nested(code, "bash", where, -1)
    else:
        from aintern_ls.safety import inline

        found = inline.code_findings(cmd.scope, code, where, language)
        if cmd.scope.family != "bash":
            # (f18) on Windows a build file's `system`/`sh` strings run through cmd.exe
            for line in dict.fromkeys(inline.code_effects(code, language).shell):
                found += cmd.scope.nested(line, "cmd", where, -1)
    for f in found:
        cmd.scope.add(f.level, f.rule, f"{what} runs: {f.reason}", f.start, f.end)


# --- source and build files the block wrote, run by their tool (n14u) ----------------------
# `cat > main.go …; go run .`, `cat > build.rs …; cargo build` (a build script runs at build
# time), `cat > build.gradle …; gradle wipe`, `meson setup` of a meson.build, `tox` of a
# tox.ini, `pre-commit run` of a local hook, `doit` of a dodo.py, `mage` of a magefile: the
# text written above is what runs. Each tool: the verbs that run code ("" = any) and how
# to read its files (a language for the inline recogniser, or an extractor of commands).
def _quoted_items(text: str) -> list[str]:
    return [m.group(2) for m in re.finditer(r"(['\"])((?:(?!\1)[^\\\n]|\\.)*)\1", text)]


def _gradle_commands(text: str) -> str:
    """build.gradle(.kts): `commandLine 'rm', '-rf', '/'`, `executable`/`args`, and
    `"cmd".execute()` strings, as shell lines."""
    out = [
        " ".join(shlex.quote(i) for i in _quoted_items(m.group(1)))
        for m in re.finditer(r"\bcommandLine\s*\(?([^\n)]*)", text)
    ]
    out += [m.group(2) for m in re.finditer(r"(['\"])([^'\"\n]+)\1\s*\.execute\(", text)]
    return "\n".join(out)


gradle_commands = _gradle_commands


def _meson_commands(text: str) -> str:
    """meson.build: `run_command('rm', '-rf', '/')` (runs while meson configures)."""
    return "\n".join(
        " ".join(shlex.quote(i) for i in _quoted_items(m.group(1)))
        for m in re.finditer(r"\brun_command\s*\(([^)]*)\)", text)
    )


def _tox_commands(text: str) -> str:
    """tox.ini: the `commands =` lines (and their indented continuation lines)."""
    out: list[str] = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"\s*commands(?:_pre|_post)?\s*=\s*(.*)", line)
        if m is None:
            continue
        out.append(m.group(1))
        for nxt in lines[k + 1 :]:
            if not nxt[:1].isspace() or not nxt.strip():
                break
            out.append(nxt.strip())
    return "\n".join(o for o in out if o)


def _precommit_commands(text: str) -> str:
    """.pre-commit-config.yaml: the `entry:` of every hook (a local hook's command)."""
    return "\n".join(
        m.group(1).strip().strip("'\"") for m in re.finditer(r"(?m)^\s*-?\s*entry:\s*(.+)$", text)
    )


def _doit_actions(text: str) -> str:
    """dodo.py: the string items of `'actions': [...]` are shell commands."""
    return "\n".join(
        i
        for m in re.finditer(r"['\"]actions['\"]\s*:\s*\[([^\]]*)\]", text)
        for i in _quoted_items(m.group(1))
    )


def _bazel_commands(text: str) -> str:
    """BUILD(.bazel): a genrule's `cmd`/`cmd_bash` strings run when the target builds."""
    return "\n".join(
        m.group(2) for m in re.finditer(r"\bcmd(?:_bash)?\s*=\s*(['\"])((?:(?!\1).)*)\1", text)
    )


def _msbuild_commands(text: str) -> str:
    """A project file's `<Exec Command="…">` tasks (dotnet build runs them)."""
    import html

    return "\n".join(
        html.unescape(m.group(2))
        for m in re.finditer(r"<Exec\b[^>]*?\bCommand\s*=\s*(['\"])(.*?)\1", text, re.S)
    )


def _sbt_commands(text: str) -> str:
    """build.sbt: `"cmd".!`, `"cmd".!!`, `Process("cmd").!` (scala.sys.process)."""
    return "\n".join(
        m.group(2)
        for m in re.finditer(r"(?:Process\(\s*)?(\"|\"\"\")([^\"]+)\1\s*\)?\s*\.\s*!{1,2}", text)
    )


def _maven_commands(text: str) -> str:
    """pom.xml: the exec plugin's `<executable>` with its `<argument>`s."""
    out: list[str] = []
    for m in re.finditer(
        r"<executable>\s*([^<]+?)\s*</executable>(.*?)(?:</configuration>|\Z)", text, re.S
    ):
        args = re.findall(r"<argument>\s*([^<]*?)\s*</argument>", m.group(2))
        out.append(" ".join(shlex.quote(a) for a in [m.group(1), *args]))
    return "\n".join(out)


_SOURCE_RUNNERS: dict[str, tuple[frozenset[str], tuple[tuple[str, str], ...]]] = {
    # tool: (verbs that run the code, ("" = any verb); ((file base or .suffix, language), …))
    "go": (frozenset(names("run test generate")), ((".go", "go"),)),
    "mage": (frozenset(), ((".go", "go"),)),
    "cargo": (
        frozenset(names("build b check c run r test t bench install clippy doc")),
        (("build.rs", "rust"),),
    ),
    "gradle": (frozenset(), (("build.gradle", "gradle"), ("build.gradle.kts", "gradle"))),
    "gradlew": (frozenset(), (("build.gradle", "gradle"), ("build.gradle.kts", "gradle"))),
    "meson": (frozenset(names("setup configure")), (("meson.build", "meson"),)),
    "tox": (frozenset(), (("tox.ini", "tox"),)),
    "pre-commit": (frozenset(names("run try-repo")), ((".pre-commit-config.yaml", "pre-commit"),)),
    "doit": (frozenset(), (("dodo.py", "doit"), ("dodo.py", "python"))),
    # (configuring a project runs CMakeLists.txt's execute_process/file() calls)
    "cmake": (frozenset(), (("CMakeLists.txt", "cmake"),)),
    "bazel": (frozenset(names("build run test")), (("BUILD", "bazel"), ("BUILD.bazel", "bazel"))),
    "dotnet": (
        frozenset(names("build run test publish pack msbuild")),
        (
            (".csproj", "msbuild"),
            (".fsproj", "msbuild"),
            (".vbproj", "msbuild"),
            ("Directory.Build.targets", "msbuild"),
            ("Directory.Build.props", "msbuild"),
        ),
    ),
    "sbt": (frozenset(), (("build.sbt", "sbt"),)),
    "mix": (frozenset(names("compile run test deps.get deps.compile")), (("mix.exs", "elixir"),)),
    "mvn": (frozenset(), (("pom.xml", "maven"),)),
    "bundle": (frozenset(names("install exec update")), (("Gemfile", "ruby"),)),
    "pod": (frozenset(names("install update")), (("Podfile", "ruby"),)),
    "vagrant": (frozenset(names("up provision reload")), (("Vagrantfile", "ruby"),)),
    "fastlane": (frozenset(), (("Fastfile", "ruby"),)),
}
SOURCE_RUNNERS = frozenset(_SOURCE_RUNNERS)
_COMMAND_READERS: dict[str, Callable[[str], str]] = {
    "gradle": _gradle_commands,
    "meson": _meson_commands,
    "tox": _tox_commands,
    "pre-commit": _precommit_commands,
    "doit": _doit_actions,
    "bazel": _bazel_commands,
    "msbuild": _msbuild_commands,
    "sbt": _sbt_commands,
    "maven": _maven_commands,
}
_RUST_RUN = frozenset(names("run r test t bench"))


def _ruby_sh(code: str) -> str:
    """Rake's and fastlane's `sh "cmd"` runs a shell command: Ruby's system()."""
    if "sh" not in code:
        return code
    return re.sub(
        r"(?<![\w.:])sh\s*\(?\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*')\s*\)?",
        r"system(\1)",
        code,
    )


def written_sources(cmd: Cmd) -> None:
    """Judge the files this block wrote that `cmd`'s tool now runs (n14u)."""
    spec = _SOURCE_RUNNERS.get(cmd.name)
    written = cmd.scope.written
    if spec is None or not written or any(w.text in VERSION_ARGS for w in cmd.args):
        return  # (`cargo build --help` runs nothing)
    verbs, files = spec
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    verb = ops[0] if ops else ""
    if verbs and verb not in verbs:
        return
    if cmd.name == "cargo" and verb in _RUST_RUN:
        files = (*files, (".rs", "rust"))  # `cargo run`: the program itself runs too
    seen: set[tuple[str, str]] = set()
    for key, language in files:
        bases = (
            [b for b in written if b.endswith(key) and not b.startswith("\x00")]
            if key.startswith(".") and key.count(".") == 1
            else [key]
        )
        for base in bases[:8]:
            body = written.get(base)
            if body is not None and cmd.scope.family != "bash":
                # (f18) what cmd's echo wrote as typed (its quotes, `=`, indentation kept)
                from aintern_ls.safety.wrappers import written_code

                body = (written_code(cmd.scope, base) or body[0], -1)
            if body is None or (base, language) in seen:
                continue
            seen.add((base, language))
            reader = _COMMAND_READERS.get(language)
            if cmd.name == "go" and verb == "generate" and "go:generate" in body[0]:
                # `//go:generate CMD`: go generate runs each directive's command (n14u)
                lines = re.findall(r"(?m)^\s*//go:generate\s+(.+)$", body[0])
                _judge_written(cmd, "\n".join(lines), f"{base}'s go:generate lines")
            if language == "cmake":
                if not cmd.has("-P", "-E", "--build", "--install", "--help", "--version"):
                    _cmake_script(cmd, body[0], Word(base, cmd.start, cmd.end))
            elif reader is not None:
                code = reader(body[0])
                if code.strip():
                    _judge_written(cmd, code, f"{base} written above")
            else:
                code = body[0]
                if language == "ruby":
                    code = _ruby_sh(code)  # (fastlane's and Rake's `sh "cmd"` action)
                _judge_written(cmd, code, f"{base} written above", language)


# --- a named task of a file the block wrote (n14u) -------------------------------------------
# `deno task NAME` (deno.json's tasks, package.json's scripts), `poe NAME`, `pdm run NAME`,
# `hatch run NAME`, `rye run NAME` (pyproject.toml's task tables), `foreman|honcho start
# [NAME]` (Procfile lines), `direnv allow` (the .envrc runs in every shell entering here).
def _json_table(text: str, key: str) -> dict[str, str]:
    import json

    try:
        data = json.loads(re.sub(r"(?m)^\s*//.*$", "", text))
    except ValueError:
        return {}
    table = data.get(key) if isinstance(data, dict) else None
    if not isinstance(table, dict):
        return {}
    out: dict[str, str] = {}
    for k, v in table.items():
        if isinstance(v, dict):
            v = v.get("command") or v.get("cmd")
        if isinstance(v, str):
            out[str(k)] = v
    return out


def _toml_table(text: str, *path: str) -> dict[str, str]:
    import tomllib

    try:
        data: object = tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError):
        return {}
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    if not isinstance(data, dict):
        return {}
    out: dict[str, str] = {}
    for k, v in data.items():
        if isinstance(v, dict):
            v = v.get("shell") or v.get("cmd")
        if isinstance(v, list):
            v = "\n".join(x for x in v if isinstance(x, str))
        if isinstance(v, str):
            out[str(k)] = v
    return out


def _procfile(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in re.finditer(r"(?m)^([\w-]+)\s*:\s*(.+)$", text)}


_NAMED_TASKS: dict[str, tuple[str, tuple[tuple[str, Callable[[str], dict[str, str]]], ...]]] = {
    # tool: (the verb before the task name, "" = none; ((file, its task table), …))
    "deno": (
        "task",
        (
            ("deno.json", lambda t: _json_table(t, "tasks")),
            ("deno.jsonc", lambda t: _json_table(t, "tasks")),
            ("package.json", lambda t: _json_table(t, "scripts")),
        ),
    ),
    "poe": ("", (("pyproject.toml", lambda t: _toml_table(t, "tool", "poe", "tasks")),)),
    "pdm": ("run", (("pyproject.toml", lambda t: _toml_table(t, "tool", "pdm", "scripts")),)),
    "rye": ("run", (("pyproject.toml", lambda t: _toml_table(t, "tool", "rye", "scripts")),)),
    "hatch": (
        "run",
        (
            (
                "pyproject.toml",
                lambda t: _toml_table(t, "tool", "hatch", "envs", "default", "scripts"),
            ),
        ),
    ),
    "foreman": ("start", (("Procfile", _procfile),)),
    "honcho": ("start", (("Procfile", _procfile),)),
}
NAMED_TASK_TOOLS = frozenset([*_NAMED_TASKS, "direnv"])


def named_task(cmd: Cmd) -> None:
    """Judge the task a tool runs by name from a file this block wrote (n14u)."""
    written = cmd.scope.written
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    if cmd.name == "direnv":
        body = written.get(".envrc")
        if ops[:1] == ["allow"] and body is not None:
            _judge_written(cmd, body[0], ".envrc written above (direnv runs it)")
        return
    verb, files = _NAMED_TASKS[cmd.name]
    if verb:
        if not ops or ops[0] != verb:
            return
        ops = ops[1:]
    for base, table in files:
        body = written.get(base)
        if body is None:
            continue
        tasks = table(body[0])
        chosen = [tasks[ops[0]]] if ops and ops[0] in tasks else []
        if not ops and cmd.name in ("foreman", "honcho"):
            chosen = list(tasks.values())[:16]  # `foreman start`: every process
        for code in chosen:
            _judge_written(cmd, code, f"the {base} task written above")
        if chosen:
            return


def _npm_lifecycle(cmd: Cmd, verb: str, ops: list[str]) -> None:
    written = cmd.scope.written.get("package.json")
    if written is None or cmd.long("--ignore-scripts") or cmd.has("--ignore-scripts=true"):
        return
    scripts = _manifest_scripts(written[0])
    # (n14u) `run` after other verbs too (`yarn workspaces foreach run build`, `pnpm -r run
    # build`), and yarn/pnpm/bun's bare script name (`yarn build`, `pnpm clean`)
    at = next((k for k, o in enumerate(ops) if o in ("run", "run-script", "rum", "urn")), -1)
    if at >= 0 and at + 1 < len(ops):
        names_run = [f"pre{ops[at + 1]}", ops[at + 1], f"post{ops[at + 1]}"]
    elif verb in ("test", "t", "tst", "start", "stop", "restart"):
        names_run = [f"pre{verb}", verb, f"post{verb}"]
    elif verb in _NPM_RUNS_LIFECYCLE or not verb:
        names_run = list(_NPM_LIFECYCLE)
    elif cmd.name in ("yarn", "pnpm", "bun") and verb in scripts:
        names_run = [f"pre{verb}", verb, f"post{verb}"]
    else:
        return
    for name in names_run:
        code = scripts.get(name)
        if code:
            _judge_written(cmd, code, f"the package.json {name} script written above")


def _npm_pkg_set(cmd: Cmd, ops: list[str]) -> bool:
    """`npm pkg set scripts.postinstall="…"`: writes a lifecycle script into the manifest;
    (n20u) so does npm 7's `npm set-script NAME CMD`, and any other key is a manifest write
    (moderate)."""
    if len(ops) == 3 and ops[0] == "set-script":
        ops = ["pkg", "set", f"scripts.{ops[1]}={ops[2]}"]
    if len(ops) < 3 or ops[:2] != ["pkg", "set"]:
        return False
    cmd.add(M, "write", f"{cmd.name} pkg set changes package.json")
    for op in ops[2:]:
        key, eq, value = op.partition("=")
        if eq and key.startswith("scripts."):
            where = Word(value, cmd.start, cmd.end)
            found = cmd.scope.nested(value, "bash", where, -1)
            level = max((f.level for f in found), default=M)
            cmd.scope.include(found)
            if key[len("scripts.") :] in _NPM_LIFECYCLE and level >= M:
                cmd.add(
                    max(level, M),
                    "manifest-script",
                    f"npm pkg set writes a {key[8:]} script that runs on every install",
                )
    return True


# (a22) Composer's events: the scripts it runs by itself during install, update, autoload
# dumps and project creation (getcomposer.org/doc/articles/scripts.md)
_COMPOSER_EVENTS = frozenset(
    """
    pre-install-cmd post-install-cmd pre-update-cmd post-update-cmd pre-status-cmd
    post-status-cmd pre-archive-cmd post-archive-cmd pre-autoload-dump post-autoload-dump
    post-root-package-install post-create-project-cmd pre-operations-exec pre-package-install
    post-package-install pre-package-update post-package-update pre-package-uninstall
    post-package-uninstall init command pre-file-download post-file-download pre-command-run
    pre-pool-create
    """.split()  # noqa: SIM905
)


def _composer_config_script(cmd: Cmd, ops: list[str]) -> bool:
    """(a22) `composer config scripts.post-install-cmd "curl … | sh"`: writes a script into
    composer.json that Composer runs by itself on the next install or update (as `npm pkg set
    scripts.postinstall=…`): its command is judged, an event script at least as a write."""
    if len(ops) < 3 or ops[0] != "config" or not ops[1].startswith("scripts."):
        return False
    event = ops[1][len("scripts.") :]
    cmd.add(M, "config", "composer config changes composer.json")
    for value in ops[2:6]:
        code = value
        if code.startswith(("@php ", "@composer ")):
            code = code[1:]
        elif code.startswith("@"):
            continue  # (another script's name, `@putenv`)
        where = Word(code, cmd.start, cmd.end)
        found = cmd.scope.nested(code, "bash", where, -1)
        level = max((f.level for f in found), default=M)
        cmd.scope.include(found)
        if event in _COMPOSER_EVENTS and level > M:
            cmd.add(
                level,
                "manifest-script",
                f"composer config writes a {event} script Composer runs by itself",
            )
    return True


# --- package runners: `npx CMD`, `npm exec -c '…'`, `pnpm exec`, `yarn dlx`, `bunx` --------
_EXEC_VALUED = frozenset(
    names(
        """
        -p --package -w --workspace --prefix -C --dir --filter -F --cwd --registry --cache
        --userconfig --node-options --shell --loglevel
        """
    )
)
# Runner tools the registry does not know, but whose behaviour is plain: they delete what
# they are given, as `rm -rf` does.
_JS_REMOVERS = frozenset(names("rimraf del-cli rm-cli trash-cli premove rmrf"))


# Project tools that `npx` runs from node_modules/.bin as they are (judged as themselves).
_LOCAL_DEV_TOOLS = frozenset(
    names(
        """
        tsc eslint prettier jest vitest mocha ruff black mypy pytest playwright --version
        """
    )
)


def _package_exec(cmd: Cmd) -> bool:
    """`npx rimraf ~`, `npm exec -- rm -rf /`, `pnpm exec …`, `yarn dlx …`, `bunx …`: the
    command after the runner's options runs with the project's tools on PATH, so it is
    judged as that command; `npm exec -c '…'` / `--call` runs a shell line. True if handled."""
    n = cmd.name
    args = list(cmd.args)
    if n in ("npm", "pnpm", "yarn", "bun"):
        if not args or args[0].text not in ("exec", "x", "dlx"):
            return False
        args = args[1:]
    elif n not in ("npx", "pnpx", "bunx"):
        return False
    i = 0
    code: Word | None = None
    while i < len(args):
        t = args[i].text
        if t == "--":
            i += 1
            break
        if t in ("-c", "--call") and i + 1 < len(args):
            code = args[i + 1]
            i += 2
            continue
        if t.startswith("--call="):
            w = args[i]
            code = Word(t[len("--call=") :], w.start, w.end, w.dynamic, False, w.origin)
            i += 1
            continue
        if t.startswith("-"):
            i += 2 if t in _EXEC_VALUED else 1
            continue
        break
    if code is not None:
        # npm runs the string with its script shell (docs.npmjs.com/cli/commands/npm-exec).
        if code.dynamic:
            cmd.add(C, "eval-dynamic", f"{n} exec runs a command only known at run time", code)
        else:
            found = cmd.scope.nested(code.text, "bash", code)
            cmd.scope.include(found)
            if not found:
                cmd.add(M, "run-script", f"{n} exec runs a command line", code)
        return True
    rest = args[i:]
    if not rest:
        return False
    tool = rest[0].text.split("@", 1)[0] if not rest[0].text.startswith("@") else rest[0].text
    if system.data_reset(cmd, tool, rest[1:]):
        return True
    head = Word(tool, rest[0].start, rest[0].end, rest[0].dynamic, False, rest[0].origin)
    if tool in _JS_REMOVERS:
        _remover(cmd, [head, *rest[1:]])
        return True
    auto_yes = any(w.text in ("-y", "--yes") for w in args[:i])
    dlx = n in ("pnpm", "yarn", "bun") and cmd.args[0].text in ("dlx", "x")
    if tool not in _LOCAL_DEV_TOOLS or auto_yes or dlx or n == "bunx":
        # (`npx -y prettier`, `bunx eslint`, `pnpm dlx …`: fetched and run without asking,
        # session-13 convention: moderate) (n11u)
        cmd.add(M, "install", f"{n} may download and run {tool}", rest[0])
    cmd.judge([head, *rest[1:]], cmd.stdin)
    return True


def _remover(cmd: Cmd, words: list[Word]) -> None:
    """`rimraf PATH…` deletes each path and everything below it: judged as `rm -rf PATH…`."""
    head = words[0]
    ops = [w for w in words[1:] if not w.text.startswith("-")]
    if not ops:
        cmd.add(M, "unknown-command", f"{head.text} deletes the paths it is given", head)
        return
    rm = Word("rm", head.start, head.end)
    flag = Word("-rf", head.start, head.end)
    cmd.judge([rm, flag, Word("--", head.start, head.end), *ops], cmd.stdin)


@handles(*_JS_REMOVERS)
def _js_remover(cmd: Cmd) -> None:
    _remover(cmd, cmd.words)


@handles("shx", "cross-env", "cross-env-shell", "env-cmd")
def _js_wrapper(cmd: Cmd) -> None:
    """`shx rm -rf /` (ShellJS commands), `cross-env A=1 CMD`, `env-cmd -f .env CMD`: the
    command they wrap is what runs."""
    args = list(cmd.args)
    if cmd.name == "shx":
        i = next((k for k, w in enumerate(args) if not w.text.startswith("-")), len(args))
        rest = args[i:]
    elif cmd.name == "cross-env-shell":
        code = " ".join(w.text for w in args if "=" not in w.text.split(" ", 1)[0])
        if any(w.dynamic for w in args):
            cmd.add(C, "eval-dynamic", "cross-env-shell runs a command only known at run time")
        elif code.strip():
            where = Word(code, cmd.start, cmd.end)
            cmd.scope.include(cmd.scope.nested(code, "bash", where, -1))
        return
    else:
        i = 0
        while i < len(args) and (args[i].text.startswith("-") or re.match(r"\A\w+=", args[i].text)):
            if args[i].text == "--":
                i += 1
                break
            i += 2 if args[i].text in ("-e", "-f", "-c", "--file", "--environments") else 1
        rest = args[i:]
    if not rest:
        return
    cmd.judge(rest, cmd.stdin)


@handles("concurrently", "npm-run-all", "run-p", "run-s")
def _concurrently(cmd: Cmd) -> None:
    """`concurrently "cmd1" "cmd2"` runs each argument as a shell command; npm-run-all runs
    package.json scripts (a project's own scripts, like `npm run`)."""
    if cmd.name != "concurrently":
        cmd.add(M, "run-script", f"{cmd.name} runs project scripts")
        return
    ops = cmd.operands(frozenset(names("-n --names -c --prefix-colors -p --prefix -k")))
    if not ops:
        return
    for w in ops[:16]:
        if w.dynamic:
            cmd.add(C, "eval-dynamic", "concurrently runs a command only known at run time", w)
        elif not w.text.startswith(("npm:", "yarn:", "pnpm:", "bun:")):
            cmd.scope.include(cmd.scope.nested(w.text, "bash", w))
        else:
            cmd.add(M, "run-script", "concurrently runs project scripts", w)


_KNOWN_SHELLS = frozenset(
    names(
        """
        sh bash zsh dash ksh fish pwsh powershell cmd cmd.exe powershell.exe pwsh.exe bash.exe
        git-bash.exe
        """
    )
)


def _plain_shell(value: str) -> bool:
    """A value naming an ordinary shell (`bash`, `/bin/sh`, `C:\\…\\bash.exe`)."""
    path = value.strip().strip("'\"")
    if path.startswith(("/tmp/", "/var/tmp/", "/dev/shm/", "./", "../", "~", "$")):
        return False  # (n20u) `/tmp/sh` is a file named like a shell, not the shell
    base = re.split(r"[\\/]", path)[-1].lower()
    return base in _KNOWN_SHELLS


_RC_SCRIPT_SHELL = re.compile(r"(?im)^\s*script-?shell\s*[= ]\s*(\S[^\n]*)$")


def _script_shell(cmd: Cmd, value: Word, what: str) -> None:
    """npm's script shell: every package script's command line is handed to this program
    (`PROGRAM -c LINE`). An ordinary shell is its job (a launcher, moderate); any other
    program is judged as a hook (a local one the analyser cannot read is opaque)."""
    if not value.dynamic and _plain_shell(value.text):
        cmd.add(M, "config", f"{what} sets the shell package scripts run with", value)
        return
    run_config_command(cmd, value, what, hook=False)


def _script_shell_config(cmd: Cmd) -> bool:
    """`npm config set script-shell /tmp/x`, `yarn config set scriptShell …`: every later
    `npm run`/`npx` hands its command lines to that program, so a program other than an
    ordinary shell is code execution the analyser cannot see (critical). True if handled."""
    if cmd.name not in ("npm", "pnpm", "yarn", "bun"):
        return False
    texts = cmd.texts()
    at = next((k for k, t in enumerate(texts) if not t.startswith("-")), len(texts))
    ops = texts[at:]
    if ops[:2] == ["config", "set"]:
        rest = ops[2:]
    elif ops[:1] == ["set"]:
        rest = ops[1:]
    else:
        return False
    while rest and rest[0].startswith("-"):
        rest = rest[1:]  # `npm config set -g key value`, `--location=user`
    if not rest:
        return False
    key, eq, value = rest[0].partition("=")
    if not eq:
        value = rest[1] if len(rest) > 1 else ""
    norm = key.lower().replace("-", "").replace("_", "")
    if norm not in ("scriptshell", "shell", "nodeoptions", "gitshell", "git"):
        return False
    where = cmd.words[-1]
    if norm == "nodeoptions":
        if re.search(r"--(require|import|loader|experimental-loader)|(^|\s)-r\s", value):
            cmd.add(C, "config-exec", f"{cmd.name} config makes node preload a module", where)
        else:
            cmd.add(M, "config", f"{cmd.name} config changes settings", where)
        return True
    if norm in ("scriptshell", "shell") and _plain_shell(value):
        cmd.add(M, "config", f"{cmd.name} config sets the shell scripts run with", where)
        return True
    what = {"scriptshell": "every package script", "shell": "every `npm exec` command"}.get(
        norm, "every git operation"
    )
    cmd.add(
        C,
        "config-exec",
        f"{cmd.name} config makes {value or 'a program'} run {what} (code the analyser cannot see)",
        where,
    )
    return True


def _swift_code(cmd: Cmd) -> bool:
    """`swift -e CODE`, `echo CODE | swift -`, `swift x.swift`: Swift code run now (the
    interpreter, not the package manager's `swift build`/`swift test`). True if handled."""
    from aintern_ls.safety import inline
    from aintern_ls.safety.context import STDIN_NONE, STDIN_STATIC

    args = cmd.args
    code: Word | None = None
    for i, w in enumerate(args):
        if w.text == "-e" and i + 1 < len(args):
            code = args[i + 1]
            break
    if code is None and (not args or args[0].text == "-") and cmd.stdin.kind != STDIN_NONE:
        if cmd.stdin.kind != STDIN_STATIC:
            cmd.add(C, "eval-dynamic", "swift runs code it reads at run time")
            return True
        code = Word(cmd.stdin.text, cmd.start, cmd.end)
    if code is None:
        if args and args[0].text.endswith(".swift"):
            cmd.add(M, "local-script", "swift runs a script", args[0])
            return True
        return False
    if code.dynamic:
        cmd.add(C, "eval-dynamic", "swift runs code only known at run time", code)
        return True
    found = inline.code_findings(cmd.scope, code.text, code, "swift", "swift code")
    cmd.scope.include(found)
    if not found:
        cmd.add(M, "inline-code", "swift runs code", code)
    return True


def _bun_eval(cmd: Cmd) -> bool:
    """`bun -e CODE`, `bun --print CODE`, `bun eval CODE`: JavaScript run now, judged by the
    JavaScript reader (not as a package operation). True if handled."""
    from aintern_ls.safety import inline
    from aintern_ls.safety.context import STDIN_STATIC

    args = cmd.args
    if (
        len(args) >= 2
        and args[0].text == "run"
        and args[1].text == "-"
        and cmd.stdin.kind == STDIN_STATIC
    ):
        # (u22) `bun run - <<< CODE`: the code comes from standard input
        where = Word(cmd.stdin.text, args[1].start, args[1].end)
        cmd.scope.include(
            inline.code_findings(cmd.scope, cmd.stdin.text, where, "node", "bun's code from stdin")
        )
        return True
    for i, w in enumerate(args):
        t = w.text
        code: Word | None = None
        if t in ("-e", "--eval", "-p", "--print", "eval") and i + 1 < len(args):
            code = args[i + 1]
        elif t.startswith(("--eval=", "--print=")):
            value = t.split("=", 1)[1]
            code = Word(value, w.start, w.end, w.dynamic, False, w.origin)
        elif not t.startswith("-"):
            return False
        if code is None:
            continue
        if code.dynamic:
            cmd.add(C, "eval-dynamic", "bun runs code only known at run time (opaque)", code)
        else:
            cmd.scope.include(
                inline.code_findings(cmd.scope, code.text, code, "node", "bun's inline code")
            )
        return True
    return False


# Options of `X run`/`X exec` front ends that take a value (`conda run -n ENV`, `uv run
# --with PKG`, `mise exec node@20 --`).
_RUN_VALUED = frozenset(
    names(
        """
        -n --name -p --prefix --with --python -e --env -E --environment --cwd -C --directory
        --project --group --extra --package --from -w --workspace --gemfile --tool -t
        """
    )
)


def _after_verb(cmd: Cmd, verb: str, valued: frozenset[str]) -> list[Word]:
    """The command a `verb` front end runs: the words after `verb`, its options and `--`
    (every word, options included: `poetry run rm -rf /` runs `rm -rf /`)."""
    args = list(cmd.args)
    k = next((i for i, w in enumerate(args) if w.text == verb), None)
    if k is None:
        return []
    return args[skip_options(args, k + 1, valued) :]


# Environment managers whose `run`/`exec` verb runs a command inside the environment.
_ENV_RUNNERS = {
    "conda": ("run",),
    "mamba": ("run",),
    "micromamba": ("run",),
    "bundle": ("exec",),
    "bundler": ("exec",),
    "asdf": ("exec",),
    "mise": ("exec", "x"),
    "rtx": ("exec", "x"),
    "nix": ("develop", "shell", "run"),
    "pipx": ("run",),
    "uvx": (),
}


def _package_command(cmd: Cmd) -> list[Word]:
    """The command `uvx --from PKG CMD …` / `pipx run --spec PKG CMD …` runs, when PKG is
    named apart from it and CMD is a command the analyser knows by name."""
    from aintern_ls.safety.registry import HANDLERS

    args = list(cmd.args)
    if args and args[0].text == "run":
        args = args[1:]
    if not any(w.text in ("--from", "--spec") or w.text.startswith("--from=") for w in args):
        return []
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        i += 1 if "=" in args[i].text or args[i].text in ("-q", "--quiet", "-v") else 2
    if i < len(args) and args[i].text in HANDLERS and not args[i].dynamic:
        return args[i:]
    return []


def _env_runner(cmd: Cmd) -> bool:
    """`conda run -n base CMD`, `bundle exec CMD`, `asdf exec CMD`, `mise exec -- CMD`,
    `direnv exec DIR CMD`, `nix develop -c CMD`, `nix shell PKG -c CMD`: the command is
    judged as itself (wrapping it changes nothing). True if handled."""
    verbs = _ENV_RUNNERS.get(cmd.name)
    if not verbs or not cmd.args:
        return False
    texts = cmd.texts()
    verb = next((t for t in texts if not t.startswith("-")), "")
    if verb not in verbs:
        return False
    if cmd.name == "nix":
        c = next((i for i, t in enumerate(texts) if t in ("-c", "--command")), None)
        if c is None:
            if verb == "run":
                cmd.add(M, "install", "nix run builds and runs a package")
                return True
            return False
        rest = list(cmd.args[c + 1 :])
    else:
        rest = _after_verb(cmd, verb, _RUN_VALUED)
        if cmd.name == "direnv" and rest:
            rest = rest[1:]  # `direnv exec DIR CMD`
        if cmd.name in ("mise", "rtx"):
            # `mise exec node@20 -- CMD`, `mise exec node@20 CMD`
            dash = next((i for i, w in enumerate(rest) if w.text == "--"), None)
            rest = rest[dash + 1 :] if dash is not None else [w for w in rest if "@" not in w.text]
    if not rest:
        return False
    cmd.info = cmd.judge(rest, cmd.stdin)
    if cmd.name == "pipx":
        # (session-13 convention: a package runner installs and runs: moderate) (n11u)
        cmd.add(M, "install", "pipx run downloads and runs the package")
    return True


def _print_only(cmd: Cmd) -> bool:
    """Package operations that only say what they would do: `pacman -Rp`/`--print`,
    `dnf|yum remove --assumeno`, `zypper … --dry-run`."""
    texts = cmd.texts()
    if cmd.name in ("pacman", "yay", "paru"):
        return "--print" in texts or any(
            re.fullmatch(r"-[A-Z][a-z]*p[a-z]*", t) for t in texts if not t.startswith("--")
        )
    if cmd.name in ("dnf", "yum", "microdnf"):
        return "--assumeno" in texts
    return False


# Build tools' options whose value names a program they run for every build or test (gen10):
# go's `-exec`/`-toolexec`/`-vettool`, cargo's `--config KEY=VALUE` for a runner, linker or
# compiler wrapper (`target.<triple>.runner`, `build.rustc-wrapper`, …).
_GO_PROGRAM_OPTIONS = ("-exec", "-toolexec", "-vettool", "--exec", "--toolexec", "--vettool")
_CARGO_PROGRAM_KEY = re.compile(
    r"(?:^|\.)(?:runner|linker|rustc|rustdoc|rustc-wrapper|rustc-workspace-wrapper|ar)$"
)


def _toml_program(value: str) -> str:
    """The command a TOML value names: a string, or an array of strings joined by spaces."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        parts = re.findall(r"\"((?:[^\"\\]|\\.)*)\"|'([^']*)'", value)
        return shlex.join(a or b for a, b in parts)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _build_tool_programs(cmd: Cmd) -> None:
    """`go test -exec CMD`, `go build -toolexec CMD`, `cargo --config
    'target.x86_64-unknown-linux-gnu.runner="CMD"' test`: the build runs CMD, judged as code
    (a local wrapper script is moderate, a destructive one keeps its level)."""
    if cmd.name == "go":
        args = cmd.args
        if args and args[0].text == "env" and any(w.text == "-w" for w in args[1:3]):
            _go_env_write(cmd)
            return
        for i, w in enumerate(args):
            if w.text == "--":
                break
            opt, eq, rest = w.text.partition("=")
            if opt not in _GO_PROGRAM_OPTIONS:
                continue
            if eq:
                prog: Word | None = Word(rest, w.start, w.end, w.dynamic, False, w.origin)
            else:
                prog = args[i + 1] if i + 1 < len(args) else None
            if prog is not None:
                # go splits the value into a program and its arguments (`-exec 'sudo -E'`)
                # (go's `-exec`/`-toolexec` are wrappers by design: a shell there is no escape,
                # but a local program the analyser cannot read is opaque)
                system.run_program_option(cmd, prog, f"go {opt.lstrip('-')}", shell_escape=False)
        return
    args = cmd.args
    for i, w in enumerate(args):
        if w.text == "--":
            break
        given: Word | None = None
        if w.text == "--config" and i + 1 < len(args):
            given = args[i + 1]
        elif w.text.startswith("--config="):
            given = Word(w.text[len("--config=") :], w.start, w.end, w.dynamic, False, w.origin)
        if given is None:
            continue
        key, eq, value = given.text.partition("=")
        key = key.strip().replace('"', "").replace("'", "")
        if not eq or not _CARGO_PROGRAM_KEY.search(key):
            continue
        program = Word(_toml_program(value), given.start, given.end, given.dynamic)
        system.run_program_option(cmd, program, f"cargo --config {key}")


def _go_env_write(cmd: Cmd) -> None:
    """`go env -w GOFLAGS=-toolexec=/tmp/t`, `go env -w CC='sh -c …'`: the setting is saved
    for every later go command, which then runs the program it names: judged as that flag
    or build variable given now (n12u)."""
    for w in cmd.args[1:]:
        key, eq, value = w.text.partition("=")
        if not eq or not value.strip():
            continue
        where = Word(value, w.start, w.end, w.dynamic, False, w.origin)
        if key == "GOFLAGS":
            found = cmd.scope.nested(f"go {value} x", "bash", where, -1)
            if max((f.level for f in found), default=S) >= C:
                cmd.scope.include(found)
        elif is_build_program_var(key):
            cmd.scope.include(build_program_findings(cmd.scope, key, where))
    cmd.add(M, "config", "go env -w changes go's saved settings")


def _maven_exec(cmd: Cmd) -> bool:
    """(n18u) `mvn exec:exec -Dexec.executable=rm -Dexec.args="-rf /"`: the exec plugin runs
    the program the properties name with their arguments: judged as that command. True
    when handled."""
    props: dict[str, Word] = {}
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        if t == "-D" and i + 1 < len(args):
            w, t = args[i + 1], args[i + 1].text
        elif t.startswith("-D"):
            t = t[2:]
        else:
            continue
        key, eq, value = t.partition("=")
        if eq and key in ("exec.executable", "exec.args"):
            props[key] = Word(value, w.start, w.end, w.dynamic)
    program = props.get("exec.executable")
    if program is None or not any(t.text.endswith(":exec") for t in args):
        return False
    given = props.get("exec.args")
    if program.dynamic or (given is not None and given.dynamic):
        cmd.add(C, "eval-dynamic", "maven's exec plugin runs a program only known at run time")
        return True
    try:
        rest = shlex.split(given.text) if given is not None else []
    except ValueError:
        rest = given.text.split() if given is not None else []
    where = given or program
    cmd.judge([program, *(Word(t, where.start, where.end) for t in rest)])
    cmd.add(M, "build", "maven's exec plugin runs a program")
    return True


def _sbt_eval(cmd: Cmd) -> bool:
    """(n19u) `sbt 'eval scala.sys.process.Process("rm -rf ~").!'`, `sbt eval '…'`: sbt's
    eval command runs the Scala expression in the build's JVM: judged as that code (what it
    does when dangerous or worse is kept). True when an eval was found."""
    args = cmd.args
    codes: list[Word] = []
    for k, w in enumerate(args[:32]):
        t = w.text.lstrip(";").lstrip()
        if t.startswith("eval ") or t.startswith("eval\t"):
            codes.append(Word(t[5:], w.start, w.end, w.dynamic))
        elif t == "eval" and k + 1 < len(args):
            codes.append(args[k + 1])
    for code in codes:
        if code.dynamic and ("$(" in code.text or "`" in code.text):
            cmd.add(C, "eval-dynamic", "sbt eval runs Scala code only known at run time", code)
            continue
        found = inline.code_findings(cmd.scope, code.text, code, "java", "sbt eval")
        cmd.scope.include(found)
        cmd.add(M, "inline-code", "sbt eval runs Scala code in the build", code)
    return bool(codes)


def _package_manager(cmd: Cmd) -> None:
    if _env_runner(cmd) or _print_only(cmd):
        return
    if cmd.name in ("mvn", "mvnw", "mvnd") and "exec." in cmd.argv.joined_low and _maven_exec(cmd):
        return
    if cmd.name == "sbt" and "eval" in cmd.argv.joined_low and _sbt_eval(cmd):
        return
    if cmd.name == "corepack" and cmd.args and cmd.args[0].text in ("npm", "yarn", "pnpm"):
        cmd.judge(list(cmd.args))  # `corepack yarn build`: the package manager itself (n14u)
        return
    if cmd.name in ("go", "cargo") and cmd.argv.dashed:
        _build_tool_programs(cmd)
    if cmd.name in ("pacman", "yay", "paru"):
        op = next((t for t in cmd.texts() if re.fullmatch(r"-[A-Z][a-zA-Z]*", t)), "")
        if op[:2] in ("-S", "-R", "-U") and not re.fullmatch(r"-S[sigl]+|-S[cyw]*[si][a-z]*", op):
            what = "removes" if op.startswith("-R") else "installs or upgrades"
            cmd.add(
                M, "uninstall" if op.startswith("-R") else "install", f"{cmd.name} {what} packages"
            )
            return
        if op[:2] in ("-Q", "-F", "-T", "-V", "-S") or not op:
            return
    if cmd.name in ("npm", "yarn", "pnpm"):
        shell = system.option_glued(cmd, "--script-shell")
        if shell is not None:
            _script_shell(cmd, shell, f"{cmd.name} --script-shell")
        for rc in (".npmrc", ".yarnrc"):
            # `printf 'script-shell=/tmp/s.sh\n' > .npmrc && npm test`: the project's config
            # written in this block names the program every package script runs through.
            rc_body = cmd.scope.written.get(rc)
            m = _RC_SCRIPT_SHELL.search(rc_body[0]) if rc_body else None
            if m is not None:
                value = m.group(1).strip().strip("\"'")
                _script_shell(cmd, Word(value, cmd.start, cmd.end), f"{rc} script-shell")
    if cmd.name in ("npm", "yarn", "pnpm", "mix", "dotnet") and system.data_reset(
        cmd, cmd.name, list(cmd.args)
    ):
        return
    if cmd.name in ("yarn", "pnpm", "npm") and cmd.args and cmd.args[0].text in ("dlx", "exec"):
        dlx = [w for w in cmd.args[1:] if not w.text.startswith("-")]
        if dlx and system.data_reset(cmd, dlx[0].text, dlx[1:]):
            return
    if cmd.name == "bun" and _bun_eval(cmd):
        return
    if cmd.name == "go" and cmd.args and cmd.args[0].text == "run" and cmd.stdin.kind == "static":
        # Go source fed on standard input (a here-document): judged as code.
        where = Word(cmd.stdin.text, cmd.start, cmd.end)
        cmd.scope.include(inline.code_findings(cmd.scope, cmd.stdin.text, where, "go"))
        cmd.add(M, "build", "go run compiles and runs a program")
        return
    if cmd.name == "mix" and cmd.args and cmd.args[0].text == "run":
        mix_code = cmd.option_value("-e", "--eval")
        if mix_code is not None:
            # `mix run -e 'File.rm_rf!(…)'`: Elixir code, judged like `elixir -e`.
            found = inline.code_findings(cmd.scope, mix_code.text, mix_code, "elixir")
            cmd.scope.include(found)
            cmd.add(M, "local-script", "mix run starts the project's application")
            return
    if cmd.name == "swift" and _swift_code(cmd):
        return
    if _script_shell_config(cmd) or _package_exec(cmd):
        return
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
    if n in ("npm", "yarn", "pnpm", "bun"):
        if _npm_pkg_set(cmd, ops):
            return
        _npm_lifecycle(cmd, ops[0] if ops else "", ops)
    elif n == "composer" and _composer_config_script(cmd, ops):
        return
    elif n == "composer" and "composer.json" in cmd.scope.written and not cmd.long("--no-scripts"):
        # Composer runs `scripts` on install/update (getcomposer.org/doc/articles/scripts.md).
        verb = ops[0] if ops else ""
        scripts = _composer_scripts(cmd.scope.written["composer.json"][0])
        events = {
            "install": ("pre-install-cmd", "post-install-cmd", "post-autoload-dump"),
            "i": ("pre-install-cmd", "post-install-cmd", "post-autoload-dump"),
            "update": ("pre-update-cmd", "post-update-cmd", "post-autoload-dump"),
            "u": ("pre-update-cmd", "post-update-cmd", "post-autoload-dump"),
            "require": ("pre-update-cmd", "post-update-cmd", "post-autoload-dump"),
            "dump-autoload": ("pre-autoload-dump", "post-autoload-dump"),
            "run-script": tuple(ops[1:2]),
            "run": tuple(ops[1:2]),
        }.get(verb, ())
        for event in events:
            for code in scripts.get(event, []):
                if not code.startswith("@"):
                    _judge_written(cmd, code, f"the composer.json {event} script written above")
    elif (
        n in ("pip", "pip3", "uv", "pipx")
        and "setup.py" in cmd.scope.written
        and any(o in ("install", "wheel", "develop") for o in ops[:2])
    ):
        body = cmd.scope.written["setup.py"][0]
        _judge_written(cmd, body, "the setup.py written above", "python")
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
    if (
        n in ("yarn", "pnpm")
        and verb == "global"
        and ops[1:2] in (["list"], ["ls"], ["bin"], ["dir"])
    ):
        return  # `yarn global list`: the globally installed packages, listed (gen10)
    if (
        n in ("npm", "yarn", "pnpm", "bun")
        and len(ops) == 1
        and all(t in ("run", "run-script", "--json", "--parseable") for t in cmd.texts())
    ):
        return  # (a21) `npm run`, `yarn run`: lists the project's scripts, runs none
    if n in ("npm", "yarn", "pnpm", "bun") and verb in ("run", "run-script") and len(ops) > 1:
        if ops[1].startswith("test"):
            cmd.add(M, "test-suite", f"{n} run {ops[1]} runs the project's tests (its code)")
            return
        texts = cmd.texts()
        # (a21) words for the script's tool: after `--` (npm), or after the script's name
        # (yarn, pnpm, bun pass them on): `npm run lint -- --fix` writes what `lint` reads
        extra = texts[texts.index("--") + 1 :] if "--" in texts else []
        if n != "npm" and ops[1] in texts:
            extra += [t for t in texts[texts.index(ops[1]) + 1 :] if t != "--"]
        if ops[1] in _TEST_SCRIPTS and any(t.split("=", 1)[0] in _SCRIPT_WRITES for t in extra):
            cmd.add(M, "write", f"{n} run {ops[1]} {' '.join(extra)[:40]} rewrites files", None)
            return
        if ops[1] in _TEST_SCRIPTS:
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
        if verb in _TEST_VERBS and not (verb == "test" and cmd.has("--list")):
            # (h20) `cargo test -- --list`: lists the tests' names, runs none
            cmd.add(M, "test-suite", f"cargo {verb} runs the project's tests (its code)")
        return
    if n == "go" and verb in ("test", "vet", "version", "env", "list", "doc", "help", "fmt"):
        if verb == "fmt":
            cmd.add(M, "write", "go fmt rewrites files")
        if verb == "test" and not cmd.has("-list", "--list"):
            # (h20) `go test -list .`: lists the tests' names, runs none
            cmd.add(M, "test-suite", "go test runs the project's tests (its code)")
        return
    if n == "uv" and verb == "pip" and len(ops) > 1 and ops[1] in _PIP_READ:
        return  # uv pip show/list/freeze/check/tree only read the environment
    if n in ("uv", "poetry", "pdm", "hatch", "rye", "pipenv") and verb == "run":
        rest = _after_verb(cmd, "run", _RUN_VALUED)
        if rest:
            cmd.judge(rest, cmd.stdin)
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
            cmd.judge([Word(tool, cmd.start, cmd.end), *cmd.args[1:]])
            if n != "npx" or cmd.short("y") or cmd.long("--yes"):
                # `uvx ruff check .`, `npx -y prettier`: the runner installs the package
                # first (session-13 convention: package runners are moderate) (n11u)
                cmd.add(M, "install", f"{n} downloads and runs {tool}")
            return
        if system.data_reset(cmd, tool, list(cmd.args[1:])):
            return
        cmd.add(M, "install", f"{n} downloads and runs {tool or 'a package'}")
        if n in ("uvx", "pipx") and (run := _package_command(cmd)):
            cmd.judge(run, cmd.stdin)  # `uvx --from trash-cli trash-empty`: that command runs
        return
    if n in ("conda", "mamba", "micromamba") and verb == "env" and len(ops) > 1:
        if ops[1] in ("list", "export", "config"):
            return
        cmd.add(M, "install", f"{n} env {ops[1]} creates, changes or removes an environment")
        return
    if verb in _TEST_VERBS:
        # (h19) `npm test`, `yarn test`, `dotnet test`, `mix test`, `swift test`: the
        # project's tests run (its code): moderate, as a local script
        cmd.add(M, "test-suite", f"{n} {verb} runs the project's tests (its code)")
        return
    if verb in _PKG_SAFE and not (
        n in ("npm", "yarn", "pnpm") and verb == "audit" and "fix" in ops
    ):
        source = _package_source_setting(ops) if verb == "config" else None
        if source is not None:
            # (a22) `pip config set global.index-url http://203.0.113.77/simple`, `npm config
            # set registry http://198.51.100.4/`: every later install takes its packages (and
            # runs their install code) from a raw address, as `pip install -i …` does once
            cmd.add(
                C,
                "remote-code",
                f"{n} config makes every later install fetch packages from {source}",
            )
        elif verb == "config" and re.search(
            r"strict-ssl\s+false|trusted-host|ssl_verify\s+(false|0)|sslverify\s+false",
            " ".join(ops).lower(),
        ):
            cmd.add(C, "disable-security", f"{n} config turns off TLS certificate checks")
        elif verb == "config" and len(ops) > 1 and ops[1] not in ("get", "list", "ls"):
            cmd.add(M, "config", f"{n} config changes settings")
        return
    if _package_listing(n, verb, ops) or (
        # `dotnet nuget locals all --list`: the noun's listing option, nothing cleared
        verb in _MANAGED_NOUNS and cmd.has("--list") and not cmd.has("--clear", "-c")
    ):
        return
    if verb in ("uninstall", "remove", "purge", "autoremove", "rm", "erase", "un", "r"):
        cmd.add(M, "uninstall", f"{n} {verb} removes packages")
        return
    cmd.add(M, "install", f"{n} {verb} installs or changes packages")


def _package_listing(n: str, verb: str, ops: list[str]) -> bool:
    """(h18) Listings under verbs that otherwise change things: `yum history [list|info]`
    (`history undo` changes), `brew services [list|info]`, MacPorts' `port installed`,
    `scoop status|checkup`."""
    sub = ops[1] if len(ops) > 1 else ""
    if verb == "history":
        return sub in ("", "list", "info", "summary", "stats", "userinstalled", "package-list")
    if verb == "services" and n == "brew":
        return sub in ("", "list", "info")
    if n == "scoop" and verb in ("status", "checkup", "cat", "which", "prefix"):
        return True
    if n == "port" and verb in ("installed", "contents", "deps", "rdeps", "dependents"):
        return True
    # (h19) a toolchain manager's noun, then a read verb: `rustup target list --installed`,
    # `rustup toolchain list`, `dotnet tool list -g`, `dotnet workload list`, `swift package
    # describe`, `dotnet nuget locals all --list`, `conda env list`
    if verb in _MANAGED_NOUNS and sub in _NOUN_READS:
        return True
    return verb in _MANAGER_READS.get(n, ())


# (h19) Things a toolchain manager keeps (the noun its subcommands act on) and the verbs
# that only list or show them; read subcommands named only by one manager.
_MANAGED_NOUNS = frozenset(
    names("target toolchain component package tool workload nuget source sources env plugin")
)
_NOUN_READS = frozenset(
    names("list ls show describe info dump-package show-dependencies search why")
)
_MANAGER_READS: dict[str, frozenset[str]] = {
    "brew": frozenset(names("uses desc options formulae casks --cellar --repository")),
    "nvm": frozenset(names("ls-remote current which version version-remote")),
    "rustup": frozenset(names("which")),
}


for _n in names(
    """
    pip pip3 pipx uv poetry pdm hatch rye pipenv conda mamba micromamba npm yarn pnpm bun npx
    pnpx bunx uvx cargo go gem bundle bundler apt apt-get aptitude yum dnf zypper pacman yay
    paru apk brew port snap flatpak nix nix-env choco winget scoop dotnet composer mvn mvnw mvnd
    gradle gradlew sbt lein mix rustup nvm pyenv rbenv asdf mise deno-install swift pod carthage
    vcpkg conan spack opam cabal stack dpkg rpm install-module install-package apt-cache dpkg-query
    corepack volta fnm sdk julia-pkg pub flutter dart
    """
):
    handles(_n)(_package_manager)


@handles("dpkg", "rpm")
def _dpkg(cmd: Cmd) -> None:
    if cmd.name == "rpm" and cmd.option_value("--eval", "-E") is not None:
        system.rpm_eval(cmd)
        return
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
    "ruff": ("--fix",),  # (`ruff format` is read below: a21)
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
    elif (cmd.name == "ruff" and "--diff" in texts) or (
        cmd.name == "clang-format" and any(t in ("--dry-run", "-n") for t in texts)
    ):
        return  # (a21) `ruff check --fix --diff`, `clang-format -i --dry-run`: print only
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
    # (n18u) a module by its collection name too (`ansible.builtin.shell`), and Windows
    # hosts' shells (`win_shell`, `ansible.windows.win_command`: PowerShell's)
    base = module.text.rsplit(".", 1)[-1] if module is not None else "command"
    if args is not None and base in ("shell", "command", "raw"):
        cmd.scope.include(cmd.scope.nested(args.text, "bash", args))
    elif args is not None and base in ("win_shell", "win_command"):
        cmd.scope.include(cmd.scope.nested(args.text, "powershell", args))


@handles("tsc", "vue-tsc")
def _tsc(cmd: Cmd) -> None:
    if not cmd.has("--noEmit", "--version", "-v", "--help", "--showConfig", "--listFiles"):
        cmd.add(M, "build", "tsc writes compiled output")


_STDIN_FILES = frozenset({"-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"})


def _makefile_on_stdin(cmd: Cmd) -> bool:
    """`make -f -`, `-f /dev/stdin`, `--file=-`: the makefile is read from stdin."""
    args = cmd.args
    for k, w in enumerate(args):
        t = w.text
        if t in ("-f", "--file", "--makefile", "--justfile", "--taskfile") or (
            t == "-t" and cmd.name in _TASKS
        ):
            if k + 1 < len(args) and args[k + 1].text in _STDIN_FILES:
                return True
            # (`make -f - <<EOF`: the grammar hangs the lone `-` on the heredoc)
            if k + 1 == len(args) and cmd.scope.source[w.end : w.end + 4].split()[:1] == ["-"]:
                return True
        elif (
            t.startswith(("--file=", "--makefile=", "--justfile=", "--taskfile=", "-f"))
            and (t.split("=", 1)[-1] if "=" in t else t[2:]) in _STDIN_FILES
        ):
            return True
    return False


def _make_recipes(text: str) -> str:
    """The recipe lines of Makefile text (tab-indented or after `target: ;`), as shell."""
    lines: list[str] = []
    # (no tab-indented line: a `.RECIPEPREFIX` or a BSD make; indented lines are recipes)
    lead = ("\t",) if "\n\t" in "\n" + text else ("\t", " ")
    for line in text.splitlines():
        if line.startswith(lead):
            lines.append(line.lstrip("\t ").lstrip("@-+"))
        else:
            m = re.match(r"\A[^:=#\t]+::?[^;=]*;(.*)\Z", line)
            if m:
                lines.append(m.group(1).strip().lstrip("@-+"))
    return "\n".join(x for x in lines if x.strip())


# make's parse-time shell calls: `$(shell CMD)`, `${shell CMD}`, `VAR != CMD`.
_MAKE_SHELL_CALL = re.compile(
    r"\$[({]shell\s+((?:[^()]|\([^()]*\))*)[)}]|^[^=\n]*?!=\s*(.+)$", re.M
)


def _make_parse_time_shell(cmd: Cmd) -> None:
    """`make -n --eval='x := $(shell rm -rf ~)'`: text given to --eval is read as makefile
    text while make parses, before any recipe (a dry run too), so its `$(shell …)` calls and
    `VAR != …` assignments run; they are judged as the commands they are (red team round
    11) (n11u)."""
    for i, w in enumerate(cmd.args):
        t = w.text
        if (t in ("-E", "--eval") or re.fullmatch(r"-[a-zA-Z]+E", t)) and i + 1 < len(cmd.args):
            code = cmd.args[i + 1]
        elif t.startswith("--eval="):
            code = Word(t[len("--eval=") :], w.start, w.end, w.dynamic)
        elif t.startswith("-E") and len(t) > 2:
            code = Word(t[2:], w.start, w.end, w.dynamic)
        else:
            continue
        if code.dynamic or ("shell" not in code.text and "!=" not in code.text):
            continue
        _make_shell_calls(cmd, code.text, code, "make --eval")


def _make_shell_calls(cmd: Cmd, text: str, where: Word, what: str = "the makefile") -> None:
    """Judge the `$(shell …)` calls and `VAR != …` assignments of makefile text (they run
    while make parses it)."""
    for m in islice(_MAKE_SHELL_CALL.finditer(text), 16):
        line = (m.group(1) or m.group(2) or "").strip()
        if not line:
            continue
        found = cmd.scope.nested(line, "bash", where, -1)
        level = max((f.level for f in found), default=M)
        cmd.scope.include(found)
        cmd.add(max(level, M), "config-exec", f"{what} runs a shell command while it parses", where)


def _make_overrides(cmd: Cmd) -> bool:
    """`make SHELL=/tmp/x`, `make .SHELLFLAGS='-c …'`, `make --eval=$'x:\n\t…'`: make runs
    every recipe line through `$(SHELL) $(.SHELLFLAGS)`, and `--eval` adds rules, so these
    are code handed to make on its command line. A SHELL other than an ordinary shell, or
    flags that carry a command, are critical; the command itself is judged. True if the
    command was fully judged here."""
    handled = False
    for i, w in enumerate(cmd.args):
        t = w.text
        if t in ("-E", "--eval") and i + 1 < len(cmd.args):
            code_word: Word | None = cmd.args[i + 1]
        elif t.startswith("--eval="):
            code_word = Word(t[len("--eval=") :], w.start, w.end, w.dynamic, False, w.origin)
        else:
            code_word = None
        if code_word is not None:
            handled = True
            if code_word.dynamic:
                cmd.add(C, "config-exec", "make --eval adds rules only known at run time", w)
                continue
            recipe = _make_recipes(code_word.text)
            if recipe:
                found = cmd.scope.nested(recipe, "bash", code_word, -1)
                level = max((f.level for f in found), default=M)
                cmd.scope.include(found)
                if any(f.rule == "shell" for f in found) or level < M:
                    level = max(level, C if any(f.rule == "shell" for f in found) else M)
                cmd.add(max(level, M), "config-exec", "make --eval runs a recipe given here", w)
            continue
        name, eq, value = t.partition("=")
        if not eq or not re.fullmatch(r"[.\w]+", name) or w.start >= cmd.end:
            continue
        if name == "SHELL":
            handled = True
            if w.dynamic:
                cmd.add(C, "config-exec", "make runs recipes with a shell known at run time", w)
            elif _plain_shell(value.split()[0] if value.split() else ""):
                rest = value.split(None, 1)[1] if len(value.split()) > 1 else ""
                if rest.strip():
                    run_config_command(cmd, Word(value, w.start, w.end), "make SHELL=")
                cmd.add(M, "build", "make runs build recipes with another shell", w)
            else:
                cmd.add(
                    C,
                    "config-exec",
                    f"make SHELL={value} runs every recipe line through that program",
                    w,
                )
        elif name == ".SHELLFLAGS":
            handled = True
            flags = value.split()
            if all(re.fullmatch(r"-[a-z]+|-o|pipefail|errexit|nounset|xtrace", f) for f in flags):
                cmd.add(M, "build", "make runs build recipes with other shell options", w)
                continue
            code = re.sub(r"\A(?:-[a-z]*c\s+|(?:-\w+\s+)*-c\s+)", "", value.strip())
            found = cmd.scope.nested(code, "bash", w, -1)
            level = max((f.level for f in found), default=C)
            cmd.scope.include(found)
            cmd.add(
                max(level, C),
                "config-exec",
                "make .SHELLFLAGS puts a command in front of every recipe line",
                w,
            )
        elif is_build_program_var(name):
            # `make CC=./evil.sh`, `make CC='sh -c "rm -rf ~"'`: the program recipes run (n11u)
            v = Word(value, w.start, w.end, w.dynamic)
            cmd.scope.include(build_program_findings(cmd.scope, name, v))
        elif value and not w.dynamic and re.search(r"\s", value.strip()):
            # `make CC='sh -c "rm -rf ~"'`: a variable recipes use as a command.
            found = cmd.scope.nested(value, "bash", w, -1)
            cmd.scope.include([f for f in found if f.level >= C])
    if handled:
        cmd.add(M, "build", f"{cmd.name} runs build recipes")
    return handled


# CMake's script commands that act on files or run programs, as shell command lines.
_CMAKE_CALL = re.compile(r"(?i)\b(file|execute_process|exec_program)\s*\(([^()]*)\)")
_CMAKE_FILE_OPS = {
    "remove_recurse": "rm -rf --",
    "remove": "rm -f --",
    "write": "tee --",
    "append": "tee -a --",
}


_CMAKE_KEYWORD = re.compile(r"[A-Z][A-Z_]+")


def _cmake_words(args: str) -> list[str]:
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|[^\s"]+', args)]


def _cmake_quote(word: str) -> str:
    """A CMake argument as a shell word: `$ENV{HOME}` stays the variable `$HOME`."""
    if "$ENV{" in word:
        return '"' + re.sub(r"\$ENV\{(\w+)\}", r"${\1}", word.replace('"', "")) + '"'
    return inline._shell_quote(word)


def _cmake_data_spans(text: str) -> list[tuple[int, int]]:
    """The quoted arguments and `#` comments of a CMake script: (start, end) spans."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append((i, j + 1))
            i = j + 1
        elif c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def _cmake_script(cmd: Cmd, text: str, where: Word) -> None:
    """`file(REMOVE_RECURSE /etc)`, `file(WRITE /etc/passwd …)`, `execute_process(COMMAND
    rm -rf /)`: each call of a CMake script is judged as the command line it amounts to."""
    text = text[:20000]
    data = _cmake_data_spans(text) if '"' in text or "#" in text else []
    for m in _CMAKE_CALL.finditer(text):
        if data and any(a <= m.start() < b for a, b in data):
            continue  # `message("file(REMOVE_RECURSE /)")`, a comment: text, not a call (n14u)
        words = _cmake_words(m.group(2))
        if not words:
            continue
        if m.group(1).lower() == "file":
            op = _CMAKE_FILE_OPS.get(words[0].lower())
            if op is None or len(words) < 2:
                continue
            paths = words[1:] if op.startswith("rm") else words[1:2]
            line = op + " " + " ".join(_cmake_quote(p) for p in paths)
            if not op.startswith("rm"):
                line = ": | " + line
        else:
            argv = words[1:] if words[0].upper() == "COMMAND" else words
            # (a keyword such as WORKING_DIRECTORY ends the command; `$ENV{HOME}` is no keyword)
            stop = next(
                (i for i, w in enumerate(argv) if _CMAKE_KEYWORD.fullmatch(w) and w != argv[0]),
                len(argv),
            )
            line = " ".join(_cmake_quote(a) for a in argv[:stop])
        if line.strip():
            system._judge_embedded(cmd, Word(line, where.start, where.end), "cmake script")


_CMAKE_READS = frozenset(
    names(
        """echo echo_append capabilities environment md5sum sha1sum sha224sum sha256sum
        sha384sum sha512sum compare_files cat"""
    )
)


def _cmake(cmd: Cmd) -> bool:
    """`cmake -E rm -rf DIR` is rm; `cmake -P SCRIPT` runs a script whose text is judged
    when known (a process substitution, a here-string on /dev/stdin, a file written above)."""
    texts = cmd.texts()
    for k, w in enumerate(cmd.args):
        # `cmake -DCMAKE_C_COMPILER_LAUNCHER=./x ..`, `-D CMAKE_CXX_COMPILER=…` (n11u)
        t = w.text[2:] if w.text.startswith("-D") and len(w.text) > 2 else None
        if w.text == "-D" and k + 1 < len(cmd.args):
            t = cmd.args[k + 1].text
        if t is None or "=" not in t:
            continue
        key, _, value = t.partition("=")
        key = key.split(":", 1)[0]  # `-DCMAKE_C_COMPILER:FILEPATH=…`
        if is_build_program_var(key):
            v = Word(value, w.start, w.end, w.dynamic)
            cmd.scope.include(build_program_findings(cmd.scope, key, v))
    if "-E" in texts:
        rest = list(cmd.args[texts.index("-E") + 1 :])
        if not rest:
            return False
        verb = rest[0].text
        mapped = {
            "rm": ["rm"],
            "remove": ["rm"],
            "remove_directory": ["rm", "-rf"],
            "make_directory": ["mkdir", "-p"],
            "copy": ["cp"],
            "copy_directory": ["cp", "-r"],
            "rename": ["mv"],
            "touch": ["touch"],
            "create_symlink": ["ln", "-s"],
        }.get(verb)
        if verb in _CMAKE_READS:
            return True  # `cmake -E echo_append x`, `sha256sum f`: prints only (safety-m8)
        if mapped is None:
            cmd.add(M, "build", f"cmake -E {verb} runs a command-mode tool")
            return True
        if verb == "remove" and "-f" in [w.text for w in rest[1:]]:
            rest = [w for w in rest if w.text != "-f"]
        words = [Word(t, rest[0].start, rest[0].end) for t in mapped] + rest[1:]
        cmd.info = cmd.judge(words, cmd.stdin)
        return True
    script = cmd.option_value("-P")
    if script is None:
        return False
    text: str | None = None
    if script.dynamic and script.origin in ("static", "decoded"):
        text = script.text  # `cmake -P <(echo 'file(REMOVE_RECURSE /etc)')`
    elif script.text in ("/dev/stdin", "-", "/dev/fd/0") and cmd.stdin.kind == "static":
        text = cmd.stdin.text
    elif (written := cmd.scope.written.get(script.text.rsplit("/", 1)[-1])) is not None:
        text = written[0]
    elif script.dynamic:
        cmd.add(C, "config-exec", "cmake -P runs a script only known at run time", script)
        return True
    cmd.add(M, "local-script", f"cmake -P runs the script {script.text}", script)
    if text is not None:
        _cmake_script(cmd, text, script)
    return True


@handles(
    *names(
        """
    make gmake bmake pmake bsdmake remake just task go-task ninja samu cmake bazel meson scons
    rake invoke nox tox pre-commit mage doit nmake mingw32-make mingw64-make gnumake jom
    """
    )
)
def _build_tool(cmd: Cmd) -> None:
    if cmd.name == "cmake" and _cmake(cmd):
        return
    if cmd.name == "rake" and system.data_reset(cmd, "rake", list(cmd.args)):
        return
    ops = cmd.operands(frozenset({"-C", "-f", "-j", "--file", "--directory"}))
    if cmd.name in _GNU_MAKES:
        _make_parse_time_shell(cmd)
    if (cmd.short("nq") and cmd.name in _GNU_MAKES) or cmd.has("--dry-run", "-n", "--list", "-l"):
        return
    if cmd.name == "nmake" and any(w.text.lower() in ("/n", "-n") for w in cmd.args):
        return  # (r17) nmake /N: "display commands but do not execute"
    if cmd.name == "bazel" and ops and ops[0].text in ("query", "info", "version", "test"):
        return
    if cmd.name in _GNU_MAKES and _make_overrides(cmd):
        return
    ops = [w for w in ops if "=" not in w.text]
    target = ops[0].text if ops else "the default target"
    cmd.add(M, "build", f"{cmd.name} runs build recipe {target}")
    makefile = cmd.option_value(
        *(("-t", "--taskfile") if cmd.name in _TASKS else ("-f", "--file", "--makefile")),
        *("--justfile", "--rakefile", "--sconstruct", "--noxfile"),
    ) or _attached_makefile(cmd)
    if makefile is None and cmd.name in ("nmake", "jom"):
        # (n14w) `nmake /f Makefile.win`: Windows switches take a slash
        at = next((i for i, w in enumerate(cmd.args) if w.text.lower() in ("/f", "-f")), -1)
        makefile = cmd.args[at + 1] if 0 <= at < len(cmd.args) - 1 else None
    if makefile is not None and not makefile.text and not makefile.dynamic:
        # `--file=<(…)`: the grammar splits the process substitution off the option
        later = [w for w in cmd.args if w.start >= makefile.end]
        makefile = later[0] if later and later[0].start == makefile.end else makefile
    if makefile is not None:
        written = cmd.scope.written.get(makefile.text.rsplit("/", 1)[-1])
        if cmd.scope.family != "bash" and written is not None and cmd.name in _MAKES:
            # (n17w) `echo all: ; rd /s /q C:\Windows > m.mak`: cmd's echo writes its line
            # as typed (the `;` that starts the rule's command, a tab-indented recipe)
            from aintern_ls.safety.wrappers import written_code

            typed = written_code(cmd.scope, makefile.text)
            written = (typed, -1) if typed is not None else written
    else:
        # the file each tool reads by default, written above (r15: ninja, just too)
        defaults = _DEFAULT_BUILD_FILES.get(cmd.name, ("Makefile", "makefile"))
        written = next(
            (got for n in defaults if (got := cmd.scope.written.get(n)) is not None), None
        )
        if cmd.scope.family != "bash" and written is not None and cmd.name in _MAKES:
            from aintern_ls.safety.wrappers import written_code

            typed = next((t for n in defaults if (t := written_code(cmd.scope, n))), None)
            written = (typed, -1) if typed is not None else written
    if makefile is not None and makefile.dynamic:
        # `make -f <(printf 'all:\n\trm -rf /')`, `ninja -f <(curl …)`: the build file is a
        # process substitution's output (n13u)
        if makefile.origin == ORIGIN_NETWORK:
            cmd.add(C, "pipe-to-shell", f"{cmd.name} runs the recipes of a downloaded file")
        elif makefile.origin in ("static", "decoded"):
            written = (makefile.text, -1)
    if cmd.stdin.kind == "network" and _makefile_on_stdin(cmd):
        # `curl -s https://x/mk | make -f -`: a downloaded makefile's recipes run (b12)
        cmd.add(C, "pipe-to-shell", f"{cmd.name} runs the recipes of a downloaded makefile")
    if _makefile_on_stdin(cmd) and cmd.stdin.kind == "static":
        # `make -f /dev/stdin <<< $'all:\n\trm -rf /'`, `make -f - <<EOF`: the makefile is
        # the text on stdin
        written = (cmd.stdin.text, -1)
    if cmd.name in _MAKES and written is not None:
        if "shell" in written[0] or "!=" in written[0]:
            # (n20u) `make -f <(printf 'X := $(shell rm -rf ~)')`: the makefile's parse-time
            # shell calls run while make reads it, whatever target runs
            _make_shell_calls(cmd, written[0][:20000], Word("", cmd.start, cmd.end))
        # Recipe lines (tab-indented or after `target: ;`, `@`/`-` prefixes dropped) are
        # shell commands.
        recipe = _make_recipes(written[0])
        if recipe.strip():
            _judge_written(cmd, recipe, "the Makefile written above")
    elif cmd.name in _CODE_BUILD_FILES and written is not None:
        # `scons -f <(…)`, `rake -f <(…)`: the build file is Python or Ruby code (n13u)
        code = written[0]
        if cmd.name == "rake":
            code = _ruby_sh(code)
        _judge_written(cmd, code, f"the {cmd.name} file given", _CODE_BUILD_FILES[cmd.name])
    elif cmd.name in _FILE_RUNNERS and written is not None:
        # a build file read from stdin, a process substitution or written above (n13u):
        # ninja's `command = …` lines, just's indented recipe lines, a Taskfile's `cmds`
        recipe = _FILE_RUNNERS[cmd.name](written[0])
        if recipe.strip():
            _judge_written(cmd, recipe, f"the {cmd.name} file given")


# GNU make under its other names (r17: MinGW's `mingw32-make`, Xcode's `gnumake`)
_GNU_MAKES = frozenset(names("make gmake remake mingw32-make mingw64-make gnumake"))
# (n17w) jom, nmake's parallel clone, on Windows
_MAKES = _GNU_MAKES | frozenset(names("bmake pmake bsdmake nmake jom"))
_DEFAULT_BUILD_FILES = {
    "gmake": ("GNUmakefile", "makefile", "Makefile"),
    "make": ("GNUmakefile", "makefile", "Makefile", "BSDmakefile"),
    "remake": ("GNUmakefile", "makefile", "Makefile"),
    "mingw32-make": ("GNUmakefile", "makefile", "Makefile"),
    "mingw64-make": ("GNUmakefile", "makefile", "Makefile"),
    "gnumake": ("GNUmakefile", "makefile", "Makefile"),
    "bmake": ("BSDmakefile", "makefile", "Makefile"),
    "ninja": ("build.ninja",),
    "just": ("justfile", "Justfile", ".justfile", "JUSTFILE"),
    "samu": ("build.ninja",),
    "task": ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"),
    "go-task": ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"),
    "scons": ("SConstruct", "Sconstruct", "sconstruct"),
    "rake": ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"),
    "nox": ("noxfile.py",),
}


def _taskfile_commands(text: str) -> str:
    """The commands of a go-task Taskfile (YAML): `- CMD` items and `cmd: CMD` values, flow
    lists (`cmds: ["a", b]`) and block scalars (`- |` then indented lines) (n14u)."""
    out = [
        m.group(1).strip().strip("'\"")
        for m in re.finditer(
            r"(?m)^[ \t]*(?:-[ \t]+(?:cmd:[ \t]*)?|cmd:[ \t]*)([^\s#|>][^\n#]*)$", text
        )
    ]
    if "[" in text:
        for m in re.finditer(r"(?m)\bcmds:[ \t]*\[(.*)\]", text):
            out += [
                i.strip().strip("'\"")
                for i in re.findall(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^,]+", m.group(1))
            ]
    if "|" in text or ">" in text:
        lines = text.splitlines()
        for k, line in enumerate(lines):
            if re.match(r"[ \t]*(?:-[ \t]+)?(?:cmd:[ \t]*)?[|>][-+]?[ \t]*\Z", line):
                ind = len(line) - len(line.lstrip())
                for nxt in lines[k + 1 :]:
                    if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= ind:
                        break
                    out.append(nxt.strip())
    return "\n".join(out)


def _ninja_commands(text: str) -> str:
    """The `command = …` lines of a ninja build file, as shell."""
    return "\n".join(m.group(1) for m in re.finditer(r"(?m)^[ \t]+command[ \t]*=[ \t]*(.+)$", text))


def _just_recipes(text: str) -> str:
    """The indented recipe lines of a justfile, as shell (`@`/`-` prefixes dropped)."""
    return "\n".join(
        line.strip().lstrip("@-")
        for line in text.splitlines()
        if line[:1] in (" ", "\t") and line.strip() and not line.strip().startswith("#")
    )


_FILE_RUNNERS: dict[str, Callable[[str], str]] = {
    "ninja": _ninja_commands,
    "samu": _ninja_commands,
    "just": _just_recipes,
    "task": _taskfile_commands,
    "go-task": _taskfile_commands,
}
_TASKS = frozenset({"task", "go-task"})
# Build tools whose build file is code in a language (SConstruct, Rakefile, noxfile.py).
_CODE_BUILD_FILES = {"scons": "python", "rake": "ruby", "nox": "python"}


def _attached_makefile(cmd: Cmd) -> Word | None:
    """`make -f-`, `make -fMakefile.x`, `make --makefile=-`: the makefile option glued to its
    value (red team probe12)."""
    for w in cmd.args:
        t = w.text
        for opt in ("--makefile=", "--file=", "--justfile=", "--taskfile="):
            if t.startswith(opt):
                return Word(t[len(opt) :], w.start, w.end, w.dynamic, w.glob, w.origin)
        if t.startswith("-f") and len(t) > 2 and not t.startswith("--"):
            return Word(t[2:], w.start, w.end, w.dynamic)
    return None


# --- packages installed from a raw location (safety-m8) -------------------------------------
# A package taken from an address nobody vets (an IP literal, a share, a host that is no
# forge or registry) runs its install scripts (postinstall, setup.py, an MSIX's code): remote
# code, critical. A forge or registry address (`git+https://github.com/…`) stays an install.
_RAW_SOURCE = re.compile(
    r"(?i)\A(?:[\w.+-]+@)?(?:git\+)?(?:https?|ftp|git|ssh)://(?:[^/@\s]+@)?"
    r"(?P<host>\[[0-9a-f:]+\]|[^/:\s]+)(?::\d+)?(?:/\S*)?\Z"
)
_KNOWN_HOSTS = re.compile(
    r"(?i)(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org"
    r"|sr\.ht|npmjs\.(?:org|com)|yarnpkg\.com|pypi\.org|pythonhosted\.org|crates\.io"
    r"|golang\.org|go\.dev|rubygems\.org|packagist\.org|nuget\.org|pytorch\.org"
    r"|microsoft\.com|visualstudio\.com|azureedge\.net|debian\.org|ubuntu\.com|fedoraproject\.org"
    r"|anaconda\.(?:org|com)|conda\.io|maven\.org|apache\.org|jsdelivr\.net|unpkg\.com"
    r"|huggingface\.co)\Z"
)
_ARCHIVE_SUFFIX = re.compile(
    r"(?i)\.(?:tgz|tar\.gz|tar\.xz|tar\.bz2|zip|whl|gem|crate|msix|appx"
    r"|msixbundle|appxbundle|nupkg|vsix|xpi|deb|rpm|apk|pkg|git)(?:[?#]\S*)?\Z"
)
PACKAGE_CMDLETS = frozenset(
    names("add-appxpackage add-appprovisionedpackage add-provisionedappxpackage install-package")
)


def raw_source(text: str) -> bool:
    """`https://203.0.113.9/x.tgz`, `git+https://198.51.100.7/x.git`, `\\\\host\\s\\x.msix`,
    `https://cdn.example.net/p.tgz`: a package address that is an IP literal, a share, or an
    archive on a host that is no known forge or registry."""
    t = text.strip("\"'")
    if t.startswith("\\\\") and len(t) > 2:
        return True
    m = _RAW_SOURCE.match(t)
    if m is None:
        return False
    host = m.group("host").strip("[]")
    if re.fullmatch(r"[\d.]+|[0-9a-f:]+", host, re.I) and any(c.isdigit() for c in host):
        return True  # an IP literal
    return not _KNOWN_HOSTS.search(host) and bool(_ARCHIVE_SUFFIX.search(t))


_BREW_NO_INSTALL = frozenset(names("create fetch audit cat edit bump-formula-pr bump-cask-pr"))


_SOURCE_KEYS = re.compile(
    r"(?i)(?:\A|[.:])(?:extra[-_])?index[-_]url\Z|(?:\A|[.:])registry\Z|\Aindex\Z|\Achannels\Z"
)


def _package_source_setting(ops: list[str]) -> str | None:
    """(a22) The raw address a `config set KEY VALUE` (or `KEY=VALUE`) makes a package
    manager's index or registry, or None."""
    rest = [o for o in ops[1:] if o not in ("set", "add", "--add", "--set")]
    for k, op in enumerate(rest[:6]):
        key, eq, value = op.partition("=")
        if not eq:
            value = rest[k + 1] if k + 1 < len(rest) else ""
        if _SOURCE_KEYS.search(key) and value and raw_source(value):
            return value
    return None


def raw_source_install(cmd: Cmd) -> bool:
    """`yarn add https://203.0.113.9/x.tgz`, `pip install git+https://198.51.100.7/x.git`,
    `Add-AppxPackage -Path \\\\203.0.113.9\\s\\x.msix`: a package manager told to install from a
    raw location runs code from there (safety-m8). True when judged."""
    if cmd.name == "brew" and cmd.args and cmd.args[0].text in _BREW_NO_INSTALL:
        # (h19) `brew create URL` downloads the archive to write a formula template and
        # `brew fetch`/`audit` only download or check: nothing from the URL is run
        return False
    hit = next(
        (w for w in cmd.args if not w.dynamic and raw_source(w.text.split("=", 1)[-1])), None
    )
    if hit is None:
        return False
    cmd.add(C, "remote-code", f"{cmd.name} installs a package from {hit.text} (its code runs)", hit)
    return True
