"""The registry the knowledge modules fill: program name -> handler, and their helpers.

Knowledge modules (`files`, `git`, `system`, `network`, `infra`, `toolchains`, `allowlist`,
`windows`, `wrappers`) import this module and never the dispatcher (`dispatch`); a handler
that must judge the command it wraps calls `cmd.judge(...)`, which goes back to the
dispatcher through the scope (a callback, so there is no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import Finding, RiskLevel
from aintern_ls.safety.words import Word, names

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


# Aliases a script defines live in the scope's variables under this prefix (no variable
# name can start with it).
ALIAS_PREFIX = "\x00alias:"
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


def run_config_command(cmd: Cmd, code: Word, what: str) -> None:
    """An option whose value the program runs as a shell command (`tar --to-command`,
    `rg --pre`, `zip -TT`): judge the value as code. What resolves to dangerous or worse is
    at least critical (hidden in an option); what cannot be resolved is critical."""
    from aintern_ls.safety.levels import C, D, M, S

    if code.dynamic:
        cmd.add(C, "config-exec", f"{what} runs a command only known at run time", code)
        return
    if not code.text.strip():
        return
    found = cmd.scope.nested(code.text, "bash", code, -1)
    level = max((f.level for f in found), default=S)
    cmd.scope.include(found)
    if any(f.rule == "shell" for f in found) and level < C:
        # `--checkpoint-action=exec=/bin/sh`: a tool handing out a shell is an escape hatch.
        cmd.add(C, "config-exec", f"{what} starts a shell", code)
        return
    if level >= D:
        cmd.add(max(level, C), "config-exec", f"{what} runs a {level.label} command", code)
    else:
        cmd.add(M, "runs-program", f"{what} runs another program", code)


def rest(cmd: Cmd, index: int) -> None:
    """Judge the wrapped command that starts at argument `index`."""
    tail = cmd.args[index:]
    if tail:
        # What the pipeline sees is what the wrapped command prints (`sudo echo … | sh`).
        cmd.info = cmd.judge(list(tail), cmd.stdin)


def skip_options(cmd: Cmd, with_value: frozenset[str], stop_at_operand: bool = True) -> int:
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
# Variables whose value a program runs as a shell command.
COMMAND_VARS = frozenset(
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
        "SSH_ASKPASS",
        "LESSOPEN",
        "LESSCLOSE",
        "PROMPT_COMMAND",
        "BASH_ENV",
        "ENV",
        "GIT_EXTERNAL_DIFF",
        "GIT_SEQUENCE_EDITOR",
        "RSYNC_RSH",
        "FCEDIT",
        "BROWSER",
    }
)
