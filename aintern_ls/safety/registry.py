"""The registry the knowledge modules fill: program name -> handler, and their helpers.

Knowledge modules (`files`, `git`, `system`, `network`, `infra`, `toolchains`, `allowlist`,
`windows`, `wrappers`) import this module and never the dispatcher (`dispatch`); a handler
that must judge the command it wraps calls `cmd.judge(...)`, which goes back to the
dispatcher through the scope (a callback, so there is no import cycle).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import islice

from aintern_ls.safety.context import Cmd, Scope
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.words import Word, names, starts_shell

Handler = Callable[[Cmd], None]
HANDLERS: dict[str, Handler] = {}
# cmd.exe built-ins and Windows tools whose names clash with POSIX programs (`type`, `find`,
# `sort`, `date`, `format`, `net`): used for cmd and PowerShell fences, never for POSIX ones.
WINDOWS_HANDLERS: dict[str, Handler] = {}


def handles(*programs: str, windows_only: bool = False) -> Callable[[Handler], Handler]:
    """Register a handler for programs. Two knowledge modules may not claim one program:
    which would win would depend on import order. `windows_only` registers cmd.exe
    built-ins and Windows tools that shadow a POSIX name."""
    table = WINDOWS_HANDLERS if windows_only else HANDLERS

    def register(fn: Handler) -> Handler:
        for n in programs:
            other = table.get(n)
            if other is not None and other.__module__ != fn.__module__:
                raise RuntimeError(f"{n} is handled by {other.__module__} and {fn.__module__}")
            table[n] = fn
        return fn

    return register


def program_key(name: str) -> str:
    """How rule families that declare their programs (`Programs`) spell a command's program:
    the dispatcher's name for it (after aliases, launchers and wrappers are undone),
    lower-cased, without `.exe` (`Taskkill.EXE` -> `taskkill`)."""
    return name.lower().removesuffix(".exe")


class Programs:
    """The programs a rule family run over every simple command can apply to (issue 14's
    speed bar, safety-sp9b): names as `program_key` spells them (declared lower-case; a
    family that strips `.exe` once more declares `x.exe` too), and name prefixes. A
    family that declares them is skipped for every other program at the cost of one set
    look-up, instead of running its own tests (and lower-casing the arguments) on every
    command of a script. The declaration must hold every name the family's own tests can
    accept (a superset is harmless: the family still decides); a family whose rules read
    the arguments of any program (an unknown one, a dynamic name) declares nothing and
    keeps running for every command."""

    __slots__ = ("_known", "_names", "_prefixes")

    def __init__(self, *groups: Collection[str] | str, prefixes: tuple[str, ...] = ()) -> None:
        found: set[str] = set()
        for g in groups:
            for n in [g] if isinstance(g, str) else g:
                found.add(n.lower())
        self._names = frozenset(found)
        self._prefixes = tuple(p.lower() for p in prefixes)
        self._known: dict[str, bool] = {}

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        if key in self._names:
            return True
        if not self._prefixes:
            return False
        got = self._known.get(key)
        if got is None:
            got = key.startswith(self._prefixes)
            if len(self._known) < 4096:
                self._known[key] = got
        return got


# Programs installed on Windows as a `.cmd`/`.bat` launcher of the same name: `az.cmd`,
# `gcloud.cmd`, `npm.cmd`, `gradlew.bat` are the programs themselves, judged by their
# handlers (any other `x.bat` is a batch file of its own, not the program `x`). Pester.bat
# is the one batch script in LOLBAS (OSScripts: it runs its fourth argument as PowerShell).
BATCH_LAUNCHERS = frozenset(
    names(
        """
        pester az gcloud gsutil bq npm npx yarn pnpm ng firebase code mvn gradle gradlew ant
        sbt conda mvnw mvnd
        """
    )
)


def batch_launcher(word: str) -> str | None:
    """The program a `.cmd`/`.bat` command word launches when it is a known program's own
    launcher (`C:\\…\\Pester.bat` -> `pester`, `az.cmd` -> `az`); None otherwise."""
    if "." not in word:
        return None
    base = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    stem, dot, ext = base.rpartition(".")
    if dot and ext in ("cmd", "bat") and stem in BATCH_LAUNCHERS:
        return stem
    if (
        dot
        and ext in ("cmd", "bat")
        and len(stem) > 1  # (`w.bat` is no shim of POSIX `w`)
        and (stem in HANDLERS or stem in WINDOWS_HANDLERS)
        and stem not in _SCRIPT_NAMES
        and not word.startswith((".\\", "./", ".."))
    ):
        # (w22, blind19) `scp.bat`, `ssh.cmd`, `kubectl.bat`: the shim a package manager
        # (scoop, npm, Chocolatey) puts on PATH for a known program runs that program; a
        # batch named for a generic step (`build.bat`, `install.cmd`) or a file of the
        # working folder (`.\\scp.bat`) is the project's own script
        return stem
    return None


# (w22) batch names that say what a project's own script does, not which program it is
_SCRIPT_NAMES = frozenset(
    names(
        """
        build install setup test run start make deploy clean update init config configure
        bootstrap env activate deactivate release package compile lint format check
        """
    )
)


def lookup(name: str, windows: bool) -> Handler | None:
    """The handler for program `name`: cmd.exe built-ins and Windows tools first on Windows
    (`find`, `format` are not the POSIX programs there)."""
    handler = WINDOWS_HANDLERS.get(name) if windows else None
    return handler if handler is not None else HANDLERS.get(name)


# Aliases a script defines live in the scope's variables under this prefix (no variable
# name can start with it).
ALIAS_PREFIX = "\x00alias:"
# (n14u) zsh's global (`alias -g`) and suffix (`alias -s`) aliases: tables kept under alias
# keys ("NAME\x02VALUE" pairs joined by "\x01"), so a nested analysis does not see them
# (the expanded text is judged once). Functions that code run in this shell defined
# (`source lib.sh`, `eval 'f() {…}'`): scope.env[FUNC_PREFIX + name] is the body.
GLOBAL_ALIASES = ALIAS_PREFIX + "\x00global"
SUFFIX_ALIASES = ALIAS_PREFIX + "\x00suffix"
FUNC_PREFIX = "\x00func:"
# (n14u) The folders a file of this base name was written into by the block ("\x01"-joined):
# scope.env[WRITTEN_IN + base]. A bare name run while one of them is on PATH ahead of the
# system's folders runs that file (PATH hijack).
WRITTEN_IN = "\x00writtenin:"
# (n14u) A program the block compiled from source it shows (a C file written above, a
# heredoc on the compiler's stdin): scope.env[COMPILED + binary base name] is that source.
COMPILED = "\x00compiled:"
# (f18) scope.written: what the block wrote to $PROFILE (pickups.startup_files reads it)
PROFILE_KEY = "\x00psprofile"
PROFILE_PATH = re.compile(r"(?i)\A\$(?:global:)?profile(?:\.\w+)?\Z")
# `hash -p PATH name`, `cp /bin/rm /tmp/x`: scope.env[BOUND_PREFIX + name] is the program
# that name runs from then on in the block (n13u).
BOUND_PREFIX = "\x00bound:"
# (n20u) A temporary, relative or hidden folder put first on PATH (`PATH=/tmp/b:$PATH`): the
# folder (commands run by bare name after it may be files from there).
PATH_FRONT = "\x00pathfront"


def risky_path_front(value: str) -> str:
    """(n20u) The first folder of a PATH value when anyone may have put files there: the
    working folder (`.`, an empty entry) or a world-writable temporary one (`/tmp/b`,
    `/dev/shm/x`, `$TMPDIR/b`, a `mktemp` folder), else "". A project's or the user's own
    tool folder (`.venv/bin`, `node_modules/.bin`, `$HOME/.cargo/bin`, `~/.local/bin`) is
    how installers and tutorials set PATH up: not a hijack (review 20 O1)."""
    value = value.strip("'\"")
    if value.startswith(":"):
        return "."  # an empty first entry is the working folder
    first = value.split(":", 1)[0].rstrip("/")
    if first in (".", "./"):
        return "."
    if (
        first.startswith(("/tmp/", "/var/tmp/", "/dev/shm/", "$TMPDIR/", "${TMPDIR}/"))
        or first in ("/tmp", "/var/tmp", "/dev/shm", "$TMPDIR", "${TMPDIR}")
        or first.startswith(("$(mktemp", "`mktemp"))
    ):
        return first
    return ""


# (w21, review 20 U3) Windows folders anyone may write to, as the first PATH entry:
# the temporary folders (`%TEMP%`, `$env:TMP`, `C:\Windows\Temp`, `C:\Temp`, the
# profile's `AppData\Local\Temp`) and the Public profile.
_WIN_OPEN_FRONT = re.compile(
    r"(?i)\A(?:%(?:temp|tmp|public)%|\$env:(?:temp|tmp|public)|\$\{env:(?:temp|tmp|public)\}"
    r"|(?:[a-z]:)?\\(?:windows\\temp|temp|tmp|users\\public)"
    r"|(?:~|%(?:userprofile|localappdata)%|\$env:(?:userprofile|localappdata)|\$home)"
    r"(?:\\appdata\\local)?\\temp"
    r"|\[(?:system\.)?io\.path\]::gettemppath\(\))(?:[\\/]|\Z)"
)


def risky_windows_path_front(value: str) -> str:
    """(w21, review 20 U3) The first folder of a Windows PATH value (`;`-separated, as
    PowerShell `$env:PATH = "C:\\Temp\\b;$env:PATH"` or cmd `set PATH=%TEMP%\\b;%PATH%`
    write it) when anyone may have put files there: the working folder (`.`, an empty
    entry) or a temporary/public one; else "". A tool's own folder (`C:\\Python312`,
    `%USERPROFILE%\\.cargo\\bin`) is not a hijack (as `risky_path_front` for bash)."""
    value = value.strip().lstrip("\"'(").lstrip()
    if not value or ";" not in value[:4096]:
        return ""  # (no list: not a PATH front)
    first = value.split(";", 1)[0].strip().strip("\"'").rstrip("\\/")
    if first in ("", "."):
        return "."
    if _WIN_OPEN_FRONT.match(first.replace("/", "\\")):
        return first
    return ""


# Shell builtins: PATH is not searched for them.
SHELL_BUILTINS = frozenset(
    names(
        """
        cd echo printf export set unset true false test [ read exit return source . eval local
        declare typeset alias unalias shift hash type command builtin pwd wait trap let getopts
        readonly ulimit umask jobs fg bg disown exec times shopt pushd popd dirs history :
        """
    )
)
# `ln -s / /tmp/r`: links made in the block onto a protected folder, kept under one key as
# "LINK\x02TARGET" pairs joined by "\x01"; a delete through one reaches the folder (n13u).
UNIX_LINKS = "\x00unix-links"
VERSION_ARGS = frozenset({"--version", "-version", "--help", "-V", "version", "help", "-help"})
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


def finding(level: RiskLevel, rule: str, reason: str, where: Word) -> Finding:
    """A finding spanning the word `where`."""
    return Finding(level, rule, reason, where.start, where.end)


def run_config_command(cmd: Cmd, code: Word, what: str, hook: bool = True) -> None:
    """An option whose value the program runs as a shell command (`tar --to-command`,
    `rg --pre`, `zip -TT`): judge the value as code, rated by what it resolves to (`git -c
    core.pager='rm -f notes.bak'` is dangerous, like the `rm` it runs); what cannot be
    resolved, or hands out a shell, is critical. `hook=False` for launchers whose job is to
    run the command (a terminal's `-e`, `bolt run`): starting a shell there is not an escape."""
    from aintern_ls.safety.levels import C, D, M, S

    if code.dynamic:
        cmd.add(C, "config-exec", f"{what} runs a command only known at run time", code)
        return
    if not code.text.strip():
        return
    found = cmd.scope.nested(code.text, "bash", code, -1)
    level = max((f.level for f in found), default=S)
    cmd.scope.include(found)
    if level < C and (
        any(f.rule == "shell" for f in found) or (hook and starts_shell(code.text) is not None)
    ):
        # `--checkpoint-action=exec=/bin/sh`, `man -P 'sh -c …'`: a tool handing out a shell
        # is an escape hatch, whatever the shell then runs (session-14 hook convention).
        cmd.add(C, "config-exec", f"{what} starts a shell", code)
        return
    if level >= D:
        cmd.add(level, "config-exec", f"{what} runs a {level.label} command", code)
    elif (hidden := unreadable_program(found)) is not None:
        # `rg --pre ./decode.sh`, `man -P /tmp/p`: a local program the analyser cannot read
        # runs with the tool's input; what it does is unknown, so it is not safe (n11u).
        cmd.add(C, "config-exec", f"{what} runs {hidden}, which the analyser cannot read", code)
    elif level >= M or cmd.name not in _READERS or not found_program_is_read_only(code.text):
        cmd.add(M, "runs-program", f"{what} runs another program", code)


# Programs that only read their input and print it (a pager, a viewer, a checksum): a hook
# naming one with literal arguments is judged as that program, safe (session-14 convention:
# `core.pager=cat`, `man -P 'less -R'`, `rg --pre cat`).
_READ_ONLY_HOOK = frozenset(
    names(
        "cat less more most bat batcat tac head tail nl od xxd hexdump strings wc sha256sum md5sum"
    )
)


# Tools that only read, whose hook is a pager or a preprocessor of what they read.
_READERS = frozenset(names("man rg less more"))


def found_program_is_read_only(code: str) -> bool:
    words = code.split()
    return bool(words) and words[0].rsplit("/", 1)[-1] in _READ_ONLY_HOOK and "|" not in code


def unreadable_program(found: list[Finding]) -> str | None:
    """The local program a hook's command runs that the analyser cannot read (its command
    word is a path: `./filter.sh`, `/tmp/p`), from the findings of judging it; None when
    the command word is a program the analyser knows (`node server.js` runs a local script
    the way typing it would: moderate)."""
    for f in found:
        if f.rule == "local-script" and f.reason.startswith("runs the local program "):
            program = f.reason.removeprefix("runs the local program ")
            if _SYSTEM_PROGRAM_DIR.match(program):
                continue  # `--rmt-command=/usr/libexec/rmt`: installed with the system
            if "/" not in program and "\\" not in program:
                continue  # `LESSOPEN='| lesspipe.sh %s'`: found on PATH, not a local file
                # (review 11, finding 6)
            return f.reason.removeprefix("runs ")
        if (
            f.rule == "local-script"
            and (m := _SOURCED.match(f.reason)) is not None
            and not _SYSTEM_PROGRAM_DIR.match(m.group(1))
        ):
            # (r18) `PROMPT_COMMAND='source /tmp/.x'`: a sourced file is as unreadable
            return f"the local script {m.group(1)}"
    return None


_SOURCED = re.compile(r"\A(?:source|\.) runs the local script (\S*/\S*)\Z")


# Folders of programs installed with the system or its packages (not a local script).
_SYSTEM_PROGRAM_DIR = re.compile(
    r"^/(?:usr/(?:local/)?(?:s?bin|lib\w*|libexec|share)|s?bin|lib\w*|libexec|System|opt/homebrew)/"
)


# ssh_config keywords whose value ssh runs as a local shell command, and the programs that
# pass `-o KEY=VALUE` on to ssh (ssh itself is handled with its remote command).
SSH_COMMAND_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})
SSH_OPTION_TOOLS = frozenset(names("scp sftp sshfs ssh-copy-id"))


def ssh_config_options(cmd: Cmd) -> None:
    """`scp -o ProxyCommand='…'`, `sftp -oLocalCommand=…`: ssh runs these values as
    shell commands on this machine, so they are judged as code."""
    args = cmd.args
    for i, w in enumerate(args):
        if w.text == "--":
            break
        if cmd.name in ("scp", "sftp") and w.text.startswith("-S") and w.text[2:3] != "-":
            # (f19) `scp -S PROGRAM`, `sftp -S PROGRAM`: the program run for the connection
            # (instead of ssh), with this machine's rights; a file the block wrote is its text
            prog = Word(w.text[2:], w.start, w.end, w.dynamic) if len(w.text) > 2 else None
            if prog is None and i + 1 < len(args):
                prog = args[i + 1]
            if prog is not None:
                run_config_command(cmd, prog, f"{cmd.name} -S (the connection program)")
            continue
        opt = w.text[2:] if w.text.startswith("-o") and len(w.text) > 2 else None
        if w.text == "-o" and i + 1 < len(args):
            opt = args[i + 1].text
        if opt is None:
            continue
        key, _, value = opt.replace("=", " ", 1).partition(" ")
        if key.lower() == "match" and "exec" in value.lower():
            # (n19u) `-o 'Match exec "CMD"'`: ssh runs CMD to decide whether the block applies
            m = re.search(r"(?i)\bexec\s+(?:\"([^\"]*)\"|'([^']*)'|(\S+))", value)
            if m is not None:
                key, value = "Match exec", next(g for g in m.groups() if g is not None)
        if key.lower() in SSH_COMMAND_KEYS or key == "Match exec":
            end = args[i + 1].end if w.text == "-o" else w.end
            code = Word(
                value.strip(), w.start, end, w.dynamic or (w.text == "-o" and args[i + 1].dynamic)
            )
            run_config_command(cmd, code, f"{cmd.name} -o {key}")


# Programs that run the command written after their own options (nice, timeout, flock,
# stdbuf…; `runner` fills it): a `--help` or `--dry-run` after the command is the wrapped
# program's, never the wrapper's, so the dispatcher's "only prints/says" exits skip them.
RUNNERS: set[str] = set()


def runner(*programs: str) -> None:
    RUNNERS.update(programs)


def rest(cmd: Cmd, index: int) -> None:
    """Judge the wrapped command that starts at argument `index`."""
    tail = cmd.args[index:]
    if tail:
        # What the pipeline sees is what the wrapped command prints (`sudo echo … | sh`).
        cmd.info = cmd.judge(list(tail), cmd.stdin)


def skip_options(
    args: Sequence[Word], i: int = 0, valued: Collection[str] = frozenset(), operands: int = 0
) -> int:
    """Index of the first argument from `i` on that is not an option: `-x`/`--long` words
    are skipped, those in `valued` with the word after them (their value); `--` ends the
    options (the index after it is returned). With `operands`, that many operands are
    skipped too (a runner's positional context before the command it starts), with the
    options among them. The one option skipper of the knowledge modules: wrappers, remote
    shells and runners find the command they start with it."""
    while i < len(args):
        t = args[i].text
        if t == "--":
            return i + 1
        if t.startswith("-") and len(t) > 1:
            i += 2 if t in valued else 1
            continue
        if operands:
            operands -= 1
            i += 1
            continue
        return i
    return i


# Prompt strings: bash expands `$(…)`, backticks and `$((…))` in them each time it shows
# one (PS1/PS2 in an interactive shell, PS0 before a command runs, PS4 for every traced
# command under `bash -x`), so a substitution in the value is code.
PROMPT_VARS = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})

# Variables that hook into what later commands run (bash prefix assignments, `env VAR=…`).
HOOK_VARS = frozenset(
    {
        "PATH",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "PROMPT_COMMAND",
        "BASH_ENV",
        "ENV",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "NODE_OPTIONS",
        "PYTHONSTARTUP",
        "GIT_SSH_COMMAND",
        "GIT_EXEC_PATH",
    }
) | frozenset(
    {
        "NODE_TLS_REJECT_UNAUTHORIZED",
        "PYTHONHTTPSVERIFY",
        "GIT_SSL_NO_VERIFY",
        "CURL_CA_BUNDLE",
        "REQUESTS_CA_BUNDLE",
    }
)
_CARGO_TARGET_PROGRAM = re.compile(r"CARGO_TARGET_[A-Z0-9_]+_(?:RUNNER|LINKER)")


class _VariableNames(frozenset[str]):
    """Variable names, plus cargo's per-target runner and linker variables
    (`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER`), whose middle part is any target."""

    def __contains__(self, name: object) -> bool:
        return frozenset.__contains__(self, name) or (
            isinstance(name, str)
            and name.startswith("CARGO_TARGET_")
            and _CARGO_TARGET_PROGRAM.fullmatch(name) is not None
        )


# Variables whose value a program runs as a shell command.
COMMAND_VARS = _VariableNames(
    frozenset(
        {
            "PAGER",
            "MANPAGER",
            "GIT_PAGER",
            "SYSTEMD_PAGER",
            "EDITOR",
            "VISUAL",
            "GIT_EDITOR",
            "SUDO_EDITOR",
            "GIT_SSH_COMMAND",
            "GIT_SSH",
            "GIT_ASKPASS",
            "GIT_PROXY_COMMAND",
            "SSH_ASKPASS",
            "LESSOPEN",
            "LESSCLOSE",
            "PROMPT_COMMAND",
            "BASH_ENV",
            "ENV",
            "GIT_EXTERNAL_DIFF",
            "GIT_SEQUENCE_EDITOR",
            "RSYNC_RSH",
            "RSYNC_CONNECT_PROG",  # rsync runs it (%H = host) to reach a daemon (p17)
            "CVS_RSH",  # cvs runs it to reach a :ext: repository (n13u)
            "SVN_SSH",  # svn+ssh:// tunnel program (n13u)
            # backup tools: borg's ssh replacement and passphrase commands, restic's
            # password command, rclone's external ssh for sftp remotes (p17)
            "BORG_RSH",
            "BORG_PASSCOMMAND",
            "BORG_NEW_PASSCOMMAND",
            "RESTIC_PASSWORD_COMMAND",
            "RCLONE_SFTP_SSH",
            "FCEDIT",
            "BROWSER",
            # (u22) diff and merge programs tools run with the files as arguments
            "KUBECTL_EXTERNAL_DIFF",
            "HGMERGE",
            "P4DIFF",
            "P4MERGE",
            "P4EDITOR",
            "DIFFPROG",  # pacdiff's (pacman-contrib) diff program
        }
    )
    | frozenset(
        # (safety-cat5) more pagers, editors and helpers programs run as a shell command line
        # (GTFOBins: crash's CRASHPAGER; kubectl/systemctl/gh/psql/aws editors and pagers).
        {
            "CRASHPAGER",
            "PERLDOC_PAGER",
            "PSQL_PAGER",
            "PSQL_EDITOR",
            "MYSQL_PAGER",
            "AWS_PAGER",
            "GH_PAGER",
            "GH_EDITOR",
            "BAT_PAGER",
            "DELTA_PAGER",
            "KUBE_EDITOR",
            "KUBECTL_EXTERNAL_DIFF",  # (a22) `kubectl diff` runs it on the two folders
            "SYSTEMD_EDITOR",
            "SVN_EDITOR",
            "CVSEDITOR",
            "HGEDITOR",
            "TIG_EDITOR",
            "LESSEDIT",
            "SUDO_ASKPASS",
            "GIT_SSH_VARIANT_COMMAND",
        }
    )
    | frozenset(
        # (safety-m9) fuzzy finders run their default command to list the candidates, and the
        # key-binding helpers run theirs the same way
        {
            "FZF_DEFAULT_COMMAND",
            "FZF_CTRL_T_COMMAND",
            "FZF_ALT_C_COMMAND",
            "SKIM_DEFAULT_COMMAND",
            "SKIM_CTRL_T_COMMAND",
            "SKIM_ALT_C_COMMAND",
        }
    )
    | frozenset(
        # (gen10) programs a build runs in place of, or around, the compiler or the test
        # binary: cargo's wrappers and compilers (the per-target runners are matched above)
        {
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "CARGO_BUILD_RUSTC_WRAPPER",
            "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
            "CARGO_BUILD_RUSTC",
            "CARGO_BUILD_RUSTDOC",
            "RUSTC",
            "RUSTDOC",
        }
    )
)
# Variables that name a file (or folder) of options or start-up code a program reads and
# acts on: ripgrep's options (`--pre` runs a program on every file), wget's and screen's rc
# files, psql's and irb's start-up code, R's profile, zsh's ZDOTDIR (its .zshrc), less's
# key file, vim's rc, Python's interactive start-up file (n11u).
CONFIG_FILE_VARS = frozenset(
    {
        "MAKEFILES",  # make reads these makefiles before its own (red team probe12)
        "RIPGREP_CONFIG_PATH",
        "WGETRC",
        "SCREENRC",
        "PSQLRC",
        "IRBRC",
        "R_PROFILE_USER",
        "R_PROFILE",
        "ZDOTDIR",
        "LESSKEYIN",
        "MYVIMRC",
        "PYTHONSTARTUP",
    }
)
# Variables holding a program's default options, some of which run commands: man's pager
# and browser (-P, -H), less's start-up command (`+!cmd` runs a shell command), zip's test
# command (-TT). The value is judged as those options given to the program (n11u).
# Go's and make's flags variables (`GOFLAGS=-toolexec=…`, `MAKEFLAGS=--eval=…`) likewise; a
# value ending in `=` names one option whose value the variable holds (npm reads its config
# from `npm_config_<key>` variables: `npm_config_script_shell=/tmp/x npm test`) (n12u).
OPTION_VARS = {
    "MANOPT": "man",
    "LESS": "less",
    "ZIPOPT": "zip",
    "GOFLAGS": "go test",  # (n19u: -exec/-toolexec apply to a verb's build and run)
    "PYTEST_ADDOPTS": "pytest",
    # (n20u) the plugin modules pytest loads first, as `-p` would (comma-separated)
    "PYTEST_PLUGINS": "pytest -p=",
    # (n20u) tox 4 reads -x/--override values from TOX_OVERRIDE
    "TOX_OVERRIDE": "tox --override=",
    # rustc's flags for every crate cargo builds: `-C linker=PROG` runs PROG (n13u, probe13)
    "RUSTFLAGS": "rustc",
    "CARGO_BUILD_RUSTFLAGS": "rustc",
    "RUSTDOCFLAGS": "rustc",
    "MAKEFLAGS": "make",
    "MFLAGS": "make",
    "GNUMAKEFLAGS": "make",
    "npm_config_script_shell": "npm --script-shell=",
    "NPM_CONFIG_SCRIPT_SHELL": "npm --script-shell=",
    "npm_config_shell": "npm --shell=",
    "NPM_CONFIG_SHELL": "npm --shell=",
}
# Modules whose callables are debuggers (PYTHONBREAKPOINT=ipdb.set_trace).
BREAKPOINT_DEBUGGERS = frozenset(
    {
        "pdb",
        "ipdb",
        "pudb",
        "pdbpp",
        "bpdb",
        "ptpdb",
        "wdb",
        "web_pdb",
        "remote_pdb",
        "debugpy",
        "pydevd",
        "pydevd_pycharm",
        "madbg",
        "IPython",
        "celery",
    }
)
# Variables whose value is Perl code that `perl -d` runs (the debugger hook, safety-m9).
PERL_CODE_VARS = frozenset({"PERL5DB"})


# A reference to a variable, a positional parameter or a command substitution, as a word's
# text keeps it (`$PROG`, `${1}`, `"$@"`, `$(cat f)`, backticks).
_EXPANSION = re.compile(
    r"\$\{[^{}]*\}|\$[A-Za-z_]\w*|\$[0-9@*#?$!-]|\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`"
)


def opaque_program(word: Word, source: str = "") -> bool:
    """Whether a program text handed to a tool (`awk "$PROG"`, `sed -e "$1"`) is nothing
    but expansions: what the tool runs is known only at run time. A literal program with a
    variable inside (`awk "/$pat/ {print}"`) keeps its shape and is not opaque."""
    if not word.dynamic:
        return False
    if _EXPANSION.sub("", word.text).strip(" \t\"'"):
        return False
    return not source or _opaque_as_written(word, source)


def _opaque_as_written(word: Word, source: str) -> bool:
    """The check on the word as written, where a quote ends a variable's name: in `"$N"p`
    the `p` is literal text (sed's print command), which the quote-stripped `$Np` hides
    (review 11, finding 4). When the span does not spell the word, the flattened verdict
    (opaque) stands."""
    raw = source[word.start : word.end]
    if raw.replace('"', "").replace("'", "") != word.text:
        return True
    return not _EXPANSION.sub("", raw).replace('"', "").replace("'", "").strip(" \t")


# Build variables that name the program a build runs: make's compiler and tool variables
# (`CC=… make`, `make CC=…`), CMake's compiler launchers and compilers (red team round 11).
BUILD_PROGRAM_VARS = frozenset(
    names(
        """
        CC CXX CPP LD AR AS RANLIB NM STRIP OBJCOPY OBJDUMP FC F77 F90 LEX YACC HOSTCC HOSTCXX
        CC_FOR_BUILD CXX_FOR_BUILD
        """
    )
)
_CMAKE_PROGRAM_VAR = re.compile(r"CMAKE_\w+_(?:COMPILER_LAUNCHER|LINKER_LAUNCHER|COMPILER)")
# A compiler, linker or launcher by its name (`arm-linux-gnueabihf-gcc`, `clang-17`, `ccache`).
_TOOL_NAME = re.compile(
    r"(?i)(?:^|[-_/])(?:g?cc|c\+\+|g\+\+|clang(?:\+\+|-cl)?|icc|icpc|icx|nvcc|tcc|zig|ld(?:\.\w+)?"
    r"|lld|gold|ar|as|ranlib|nm|strip|objcopy|objdump|gfortran|f77|f95|flex|bison|lex|yacc"
    r"|ccache|sccache|distcc|icecc|buildcache|emcc|em\+\+|cl|link|mold)(?:-?[\d.]+)?(?:\.exe)?$"
)


def is_build_program_var(name: str) -> bool:
    return name in BUILD_PROGRAM_VARS or (
        name.startswith("CMAKE_") and _CMAKE_PROGRAM_VAR.fullmatch(name) is not None
    )


def build_program_findings(scope: Scope, name: str, value: Word) -> list[Finding]:
    """`CC='sh -c "rm -rf ~"' make`, `CMAKE_C_COMPILER_LAUNCHER=./x cmake --build b`: the
    build runs the value as a command: destructive is judged as such (at least critical),
    a local script the analyser cannot read is opaque (critical); a compiler, linker or
    launcher by its name is what a build normally runs (n11u)."""
    from aintern_ls.safety.levels import C, D, S

    code = value.text.strip()
    if value.dynamic or not code:
        return []
    found = scope.nested(code, "bash", value, -1)
    level = max((f.level for f in found), default=S)
    if level >= D:
        reason = f"{name} makes the build run a {level.label} command"
        return [*found, Finding(max(level, C), "config-exec", reason, value.start, value.end)]
    hidden = unreadable_program(found)
    program = code.split()[0] if code.split() else ""
    temp = re.match(r"(?:/var)?/tmp/|/dev/shm/", program) is not None
    if temp or (hidden is not None and not _TOOL_NAME.search(program)):
        what = hidden or f"the program {program} from a temporary folder"
        reason = f"{name} makes the build run {what}, which the analyser cannot read"
        return [*found, Finding(C, "config-exec", reason, value.start, value.end)]
    return []


# (n20u) Compiler and linker flag variables a build hands to every compile or link (cgo's
# too): `-fplugin=PATH`, `-fpass-plugin=PATH`, `-Xclang -load -Xclang PATH` load a shared
# object into the compiler, which runs it.
COMPILER_FLAG_VARS = frozenset(
    names(
        """
        CFLAGS CXXFLAGS CPPFLAGS LDFLAGS OBJCFLAGS FFLAGS CGO_CFLAGS CGO_CXXFLAGS CGO_CPPFLAGS
        CGO_LDFLAGS CGO_FFLAGS KCFLAGS
        """
    )
)
_PLUGIN_FLAG = re.compile(r"-f(?:pass-)?plugin=(\S+)|-load\s+(?:-Xclang\s+)?(\S+)")


def compiler_plugin_findings(scope: Scope, name: str, value: Word) -> list[Finding]:
    """`CGO_CFLAGS=-fplugin=./evil.so go build`: a compiler plugin from anywhere but the
    system's library folders is code the analyser cannot read, run by the build (critical)."""
    from aintern_ls.safety.levels import C

    text = value.text
    if "plugin" not in text and "-load" not in text:
        return []
    out: list[Finding] = []
    for m in islice(_PLUGIN_FLAG.finditer(text[:4000]), 8):
        lib = (m.group(1) or m.group(2) or "").strip("'\"")
        if value.dynamic or not _SAFE_LIB_DIR.match(lib):
            reason = f"{name} makes the compiler load {lib}, which the analyser cannot read"
            out.append(Finding(C, "config-exec", reason, value.start, value.end))
    return out


def configure_operands(cmd: Cmd, args: Sequence[Word]) -> None:
    """`./configure CC='sh -c "rm -rf /"'`, `sh configure CXX=/tmp/c`: autoconf scripts take
    build variables as operands and run the compiler they name while they probe it, so each
    is judged as that build variable (n12u)."""
    for w in args[:64]:
        key, eq, value = w.text.partition("=")
        if eq and value.strip() and is_build_program_var(key):
            v = Word(value, w.start, w.end, w.dynamic)
            cmd.scope.include(build_program_findings(cmd.scope, key, v))


# Interpreters' option variables, read by every run of the interpreter: Perl's switches
# (`-Mmodule;code` runs code after the import), Ruby's `-rLIB`, Node's `--require`/`--import`/
# `--loader`, the JVM's `-javaagent:` (red team round 11).
INTERPRETER_OPTION_VARS = frozenset(
    {
        "PERL5OPT",
        "RUBYOPT",
        "NODE_OPTIONS",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        # (n19u) npm hands its node-options setting to the scripts it runs as NODE_OPTIONS
        "npm_config_node_options",
        "NPM_CONFIG_NODE_OPTIONS",
    }
)
# (n19u) Java programs' launcher scripts pass these variables to the JVM they start (`mvn`
# reads MAVEN_OPTS, `gradle` GRADLE_OPTS, Tomcat's catalina.sh CATALINA_OPTS and JAVA_OPTS …):
# their JVM options are judged as the JVM's own variables are.
JVM_LAUNCHER_OPTION_VARS = frozenset(
    {
        "MAVEN_OPTS",
        "GRADLE_OPTS",
        "JAVA_OPTS",
        "CATALINA_OPTS",
        "SBT_OPTS",
        "ANT_OPTS",
        "JVM_OPTS",
        "KAFKA_OPTS",
        "HADOOP_OPTS",
        "ES_JAVA_OPTS",
        "JETTY_OPTS",
        "SPARK_SUBMIT_OPTS",
    }
)
JVM_OPTION_VARS = (
    frozenset({"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"}) | JVM_LAUNCHER_OPTION_VARS
)
INTERPRETER_OPTION_VARS = INTERPRETER_OPTION_VARS | JVM_LAUNCHER_OPTION_VARS

# (n19u) The JVM's event hooks: `-XX:OnOutOfMemoryError=CMD` and `-XX:OnError=CMD` make the
# JVM run CMD through /bin/sh (commands split at `;`, `%p` is its pid) when the event comes.
JVM_EVENT_FLAGS = ("OnOutOfMemoryError", "OnError")
# Where an unquoted hook command ends in an options text: the next JVM option.
_NEXT_JVM_OPTION = re.compile(
    r"\s-(?:X|D|javaagent|agent|verbose|ea\b|da\b|cp\b|classpath\b|jar\b|server\b)"
)


# A hook's command longer than this is read up to it (a 10,000-character hook is judged by its
# first part; what is cut is not read as safe: the command is still judged).
_HOOK_COMMAND_CAP = 2000


def jvm_event_commands(text: str) -> list[tuple[str, str]]:
    """`(flag, command)` for each JVM event hook in an options text or argument (`-XX:OnError=
    "rm -rf ~"`, `-J-XX:OnOutOfMemoryError=…`): a quoted command runs to its closing quote, an
    unquoted one to the next JVM option (or the end)."""
    out: list[tuple[str, str]] = []
    i = text.find("-XX:On")
    while i >= 0 and len(out) < 8:
        # the flag is read in place: searching ahead for `=` from every `-XX:On` that is not a
        # hook (`-XX:OnStackReplacePercentage`, or a long run of them) made this quadratic
        flag = next((f for f in JVM_EVENT_FLAGS if text.startswith(f + "=", i + 4)), "")
        if flag:
            eq = i + 4 + len(flag)
            rest = text[eq + 1 : eq + 1 + _HOOK_COMMAND_CAP]
            if rest[:1] in ("'", '"'):
                end = rest.find(rest[0], 1)
                command = rest[1:end] if end > 0 else rest[1:]
            else:
                m = _NEXT_JVM_OPTION.search(rest)
                command = rest[: m.start()] if m else rest
            out.append((flag, command.strip()))
        i = text.find("-XX:On", i + 6)
    return out


# (n20u) Programs that start a JVM and hand it the `-XX:` options on their command line (or
# behind `-J`): the hook reader keys on them, not on any program whose words mention a hook
# (`curl -d "-XX:OnError=rm -rf ~"` sends text; it starts no JVM). Build tools start JVMs
# whose options they take as `-D…jvmargs=`/`-DargLine=` values.
JVM_PROGRAMS = frozenset(
    names(
        """
        java javaw javac jshell jar jdb jlink jpackage jarsigner keytool kotlin kotlinc
        scala scalac scala-cli sbt amm groovy groovyc clojure clj lein jruby jython jbang
        mvn mvnw mvnd gradle gradlew ant ivy spark-submit spark-shell pyspark hbase hadoop
        kafka-run-class kafka-server-start kafka-run-class.sh kafka-server-start.sh
        catalina catalina.sh sonar-scanner elasticsearch zookeeper-server-start
        """
    )
)
# Options variables: a launcher's own (JAVA_OPTIONS, KAFKA_HEAP_OPTS, ZEPPELIN_JAVA_OPTS …)
# whose value holds a JVM event hook is read as JVM options (the hook spelling is specific).
OPTIONS_VAR_NAME = re.compile(r"(?i)(?:OPTS|OPTIONS|ARGS|FLAGS)\Z")


def is_jvm_options_var(name: str) -> bool:
    return name in JVM_OPTION_VARS or OPTIONS_VAR_NAME.search(name) is not None


def carried_command_findings(
    scope: Scope, command: str, where: Word, label: str, shells: tuple[str, ...] = ("bash",)
) -> list[Finding]:
    """(n20u) A command a tool runs later because an option, a variable or a configuration
    file carries it (a JVM event hook, an MSBuild build event, tox's test commands): what it
    does when dangerous or worse, the command's own level; a program the analyser cannot read
    or a command only known at run time is opaque (critical); a command it fully reads runs
    another program (moderate). `shells`: the shells that may run it (from PowerShell or cmd
    the tool may be a Windows one running cmd.exe, or a Unix one: the worse reading counts)."""
    from aintern_ls.safety.levels import C, D, M, S

    if "$(" in command or "`" in command:
        reason = f"{label} runs a command only known at run time"
        return [Finding(C, "config-exec", reason, where.start, where.end)]
    found: list[Finding] = []
    for shell in shells:
        got = scope.nested(command, shell, where, -1)
        if not found or max((f.level for f in got), default=S) > max(
            (f.level for f in found), default=S
        ):
            found = got
    level = max((f.level for f in found), default=S)
    if level == S:
        return found  # (review 20 O3) a read-only helper (`--diff-cmd diff`): the tool's level
    if level >= D:
        reason = f"{label} makes the tool run a {level.label} command"
        return [*found, Finding(level, "config-exec", reason, where.start, where.end)]
    if (hidden := unreadable_program(found)) is not None:
        reason = f"{label} runs {hidden}, which the analyser cannot read"
        return [*found, Finding(C, "config-exec", reason, where.start, where.end)]
    reason = f"{label} makes the tool run another program"
    return [*found, Finding(M, "runs-program", reason, where.start, where.end)]


def jvm_event_findings(
    scope: Scope, text: str, where: Word, what: str, shells: tuple[str, ...] = ("bash",)
) -> list[Finding]:
    """The JVM event hooks `text` sets, each judged as the shell command it runs
    (`carried_command_findings`): `rm -rf ~` on OOM is blocked, `kill -9 %p` dangerous,
    `./on-oom.sh` opaque (critical), `jcmd %p GC.heap_dump …` moderate."""
    out: list[Finding] = []
    for flag, command in jvm_event_commands(text):
        if command:
            out += carried_command_findings(scope, command, where, f"{what} -XX:{flag}", shells)
    return out


# (n18u) variables naming code a runtime loads into the programs it starts: .NET's startup
# hooks and profilers (assemblies), Lua's LUA_INIT / LUA_INIT_5_4 (code, or `@file`).
CODE_LOAD_VARS = frozenset(
    {
        "DOTNET_STARTUP_HOOKS",
        "CORECLR_PROFILER_PATH",
        "CORECLR_PROFILER_PATH_64",
        "CORECLR_PROFILER_PATH_32",
        "COR_PROFILER_PATH",
    }
)


def is_code_load_var(name: str) -> bool:
    return name in CODE_LOAD_VARS or name.startswith("LUA_INIT") or name in VIM_INIT_VARS


# (n18u) Ex commands vim/vi run at start-up, as `vim --cmd VALUE` would
VIM_INIT_VARS = frozenset({"VIMINIT", "EXINIT", "GVIMINIT"})


_PATH_LIKE = re.compile(r"\A(?:\.{1,2}/|/|~|\$)")
_SAFE_LIB_DIR = re.compile(r"\A/(?:usr|opt/homebrew|nix|System|Library)/")


# The module search path each option variable's bare module names are looked up in
# (`PERL5LIB=/tmp/x PERL5OPT=-MEvil perl …` loads /tmp/x/Evil.pm) (red team round 12).
LIB_PATH_VARS = {
    "PERL5OPT": ("PERL5LIB", "PERLLIB"),
    "RUBYOPT": ("RUBYLIB",),
    "NODE_OPTIONS": ("NODE_PATH",),
}
LIB_VAR_NAMES = frozenset(v for vs in LIB_PATH_VARS.values() for v in vs)


def lib_dirs_chosen(scope: Scope, name: str, given: Mapping[str, str] | None) -> str | None:
    """The module search path set for `name`'s bare module names (in this command's prefix
    assignments or earlier in the block) when it holds a folder other than the system's."""
    for var in LIB_PATH_VARS.get(name, ()):
        text = (given or {}).get(var)
        if text is None:
            text = scope.env.get(var)
        if text and any(d and not _SAFE_LIB_DIR.match(d) for d in text.split(":")):
            return text
    return None


def interpreter_option_findings(
    scope: Scope, name: str, value: Word, given: Mapping[str, str] | None = None
) -> list[Finding]:
    """`PERL5OPT='-Mstrict;system(…)'`: the code after the module is run (judged as Perl);
    `RUBYOPT=-r./x`, `NODE_OPTIONS='--require /tmp/x.js'`, `-javaagent:./a.jar`: a file
    the analyser cannot read is loaded into every run (opaque: critical); a `data:` module
    for Node is its code (n11u)."""
    from urllib.parse import unquote

    from aintern_ls.safety import inline
    from aintern_ls.safety.levels import C, M

    if name.lower() == "npm_config_node_options":
        name = "NODE_OPTIONS"  # (n19u) what npm's scripts get

    def opaque(what: str) -> Finding:
        reason = f"{name} makes every run load {what}, which the analyser cannot read"
        return Finding(C, "config-exec", reason, value.start, value.end)

    def loaded(path: str, language: str) -> list[Finding]:
        """(n18u) a file this block wrote is read as the code it is; any other is opaque."""
        held = scope.written.get(path.strip("'\"").rsplit("/", 1)[-1]) if scope.written else None
        if held is None:
            return [opaque(path)]
        found = inline.code_findings(scope, held[0], value, language, f"{name} {path}")
        why = f"{name} loads {path}, written above (judged as that code)"
        return [*found, Finding(M, "config-exec", why, value.start, value.end)]

    def chosen() -> str | None:
        return lib_dirs_chosen(scope, name, given)

    if value.dynamic:
        if "$(" in value.text or "`" in value.text:
            return [opaque("options only known at run time")]
        return []
    out: list[Finding] = []
    if name in JVM_OPTION_VARS and "-XX:On" in value.text:
        out += jvm_event_findings(scope, value.text, value, name)
    tokens = value.text.split()
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else ""
        if name == "PERL5OPT":
            if tok.startswith(("-M", "-m")) and ";" in tok:
                # (the rest of the value: perl splits at blanks, but the code is what counts)
                code = value.text.split(";", 1)[1]
                out += inline.code_findings(scope, code, value, "perl", f"{name} code")
                out.append(
                    Finding(
                        C,
                        "config-exec",
                        f"{name} runs Perl code in every perl run",
                        value.start,
                        value.end,
                    )
                )
            elif tok.startswith("-I") and (lib := tok[2:] or nxt) and not _SAFE_LIB_DIR.match(lib):
                out.append(opaque(f"modules from {lib}"))
            elif (
                tok.startswith(("-M", "-m"))
                and len(tok) > 2
                and scope.written
                and (pm := re.split(r"[=\s]", tok[2:].lstrip("-"), maxsplit=1)[0]).replace("::", "")
                and pm.replace("::", "/").rsplit("/", 1)[-1] + ".pm" in scope.written
            ):
                # (u22) `PERL5OPT='-I/tmp -ME'` after the block wrote /tmp/E.pm: its code
                out += loaded(pm.replace("::", "/") + ".pm", "perl")
            elif tok.startswith(("-M", "-m")) and len(tok) > 2 and (d := chosen()) is not None:
                out.append(opaque(f"the module {tok[2:]} from {d}"))
        elif name == "RUBYOPT":
            lib = tok[2:] if tok.startswith("-r") else nxt if tok == "-r" else ""
            if lib and _PATH_LIKE.match(lib) and not _SAFE_LIB_DIR.match(lib):
                out += loaded(lib if lib.endswith(".rb") else lib + ".rb", "ruby")
            elif lib and (d := chosen()) is not None:
                out.append(opaque(f"the library {lib} from {d}"))
        elif name == "NODE_OPTIONS":
            key, eq, val = tok.partition("=")
            if key in ("-r", "--require", "--import", "--loader", "--experimental-loader"):
                mod = val if eq else nxt
                if mod.startswith("data:"):
                    mod = value.text[value.text.index("data:") :]  # (blanks in the code)
                    body = mod.split(",", 1)[1] if "," in mod else ""
                    out += inline.code_findings(scope, unquote(body), value, "js", f"{name} module")
                    out.append(
                        Finding(
                            C,
                            "config-exec",
                            f"{name} runs inline code in every node run",
                            value.start,
                            value.end,
                        )
                    )
                elif mod and _PATH_LIKE.match(mod) and not _SAFE_LIB_DIR.match(mod):
                    out += loaded(mod, "js")
                elif mod and (d := chosen()) is not None:
                    out.append(opaque(f"the module {mod} from {d}"))
        elif tok.startswith(("-javaagent:", "-agentpath:")):
            jar = tok.split(":", 1)[1].split("=", 1)[0]
            if re.match(r"(?:\.{1,2}/|(?:/var)?/tmp/|/dev/shm/|~|\$)", jar) or "/" not in jar:
                out.append(opaque(jar))
    return out
