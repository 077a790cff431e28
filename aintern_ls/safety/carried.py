"""Commands build and test tools run because an option on their command line carries them
(n20u, red team family F26): MSBuild's build events given as properties (`dotnet build
-p:PreBuildEvent="rm -rf ~"`, `msbuild /p:PostBuildEvent=…`), tox's `-x`/`--override` of a
test environment's commands. Each carried command is judged as what it runs
(`registry.carried_command_findings`): blocked when it is blocked, opaque (critical) when the
analyser cannot read it. Entry: `judge`, called by dispatch for the programs in `TOOLS` only.
"""

from __future__ import annotations

from aintern_ls.safety.context import Cmd
from aintern_ls.safety.registry import carried_command_findings
from aintern_ls.safety.words import Word, names

_MSBUILDS = frozenset(names("msbuild msbuild.exe xbuild dotnet dotnet.exe"))
_BUILD_EVENTS = frozenset({"prebuildevent", "postbuildevent"})
_PROPERTY_SWITCHES = ("-p:", "/p:", "-property:", "/property:", "--property:")
_SVNS = frozenset(names("svn svnmucc"))
_MUTTS = frozenset(names("mutt neomutt"))
_EXIMS = frozenset(names("exim exim4 sendmail"))
_GPGS = frozenset(names("gpg gpg2"))
TOOLS = _MSBUILDS | _SVNS | _MUTTS | _EXIMS | _GPGS | frozenset({"tox"})


def judge(cmd: Cmd) -> None:
    low = cmd.argv.joined_low
    n = cmd.name
    if n in _MSBUILDS:
        if "buildevent" in low:
            _build_events(cmd)
    elif n in _SVNS:
        if "-cmd" in low or "tunnels" in low:
            _svn_commands(cmd)
    elif n in _MUTTS:
        if "set" in low:
            _mutt_settings(cmd)
    elif n in _EXIMS:
        if "${run" in low:
            _exim_run(cmd)
    elif n in _GPGS:
        if "photo-viewer" in low:
            value = cmd.option_value("--photo-viewer")
            if value is not None and value.text.strip():
                label = f"{n} --photo-viewer"
                command = value.text.strip()
                cmd.scope.include(carried_command_findings(cmd.scope, command, value, label))
    elif "commands" in low:
        _tox_overrides(cmd)


def _shells(cmd: Cmd) -> tuple[str, ...]:
    return ("bash",) if cmd.scope.family == "bash" else ("cmd", "bash")


def _build_events(cmd: Cmd) -> None:
    """`-p:PreBuildEvent=CMD` (any switch spelling, several properties joined by `;`): MSBuild
    runs the event's command line before or after the build (cmd.exe on Windows, /bin/sh
    elsewhere)."""
    for w in cmd.args[:64]:
        t = w.text
        tl = t.lower()
        switch = next((s for s in _PROPERTY_SWITCHES if tl.startswith(s)), "")
        if not switch or "buildevent" not in tl:
            continue
        props = t[len(switch) :].split(";")
        for k, prop in enumerate(props):
            key, eq, value = prop.partition("=")
            if not eq or key.strip().lower() not in _BUILD_EVENTS:
                continue
            # (a `;` inside the command: the parts that set no property belong to it)
            rest = [value]
            for more in props[k + 1 :]:
                if "=" in more.split(" ", 1)[0]:
                    break
                rest.append(more)
            command = ";".join(rest).strip().strip("'\"")
            raw = cmd.scope.source[w.start : cmd.end]
            at = raw.find("=", raw.lower().find("buildevent")) + 1
            if 0 < at < len(raw) and raw[at] in "'\"" and raw.find(raw[at], at + 1) > at:
                # (PowerShell's `/p:PreBuildEvent="rd /s /q C:\x"` is one argument, which
                # the grammar splits at the blanks: the quoted text as written)
                command = raw[at + 1 : raw.find(raw[at], at + 1)]
            if command:
                where = Word(command, w.start, w.end, w.dynamic)
                label = f"{cmd.name} {key.strip()}"
                cmd.scope.include(
                    carried_command_findings(cmd.scope, command, where, label, _shells(cmd))
                )


def _tox_overrides(cmd: Cmd) -> None:
    """`tox -x testenv.commands=CMD`, `--override=testenv:py.commands_pre=CMD`: the test
    environment runs CMD (as its test command, or before/after it)."""
    args = cmd.args[:64]
    for k, w in enumerate(args):
        t = w.text
        value = None
        if t in ("-x", "--override") and k + 1 < len(args):
            value = args[k + 1]
        elif t.startswith("--override="):
            value = Word(t[len("--override=") :], w.start, w.end, w.dynamic)
        elif t.startswith("-x") and len(t) > 2:
            value = Word(t[2:], w.start, w.end, w.dynamic)
        if value is None:
            continue
        key, eq, command = value.text.partition("=")
        field = key.strip().rsplit(".", 1)[-1].lower()
        if eq and key.strip().lower().startswith("testenv") and field in _TOX_COMMAND_FIELDS:
            command = command.strip().strip("'\"")
            if command:
                where = Word(command, value.start, value.end, value.dynamic)
                label = f"tox {key.strip()}"
                cmd.scope.include(carried_command_findings(cmd.scope, command, where, label))


_TOX_COMMAND_FIELDS = frozenset({"commands", "commands_pre", "commands_post"})


# svn's command settings (`--config-option config:helpers:editor-cmd=CMD`,
# `config:tunnels:NAME=CMD`) and options (`--editor-cmd CMD`, `--diff-cmd CMD`).
_SVN_COMMAND_OPTIONS = frozenset({"--editor-cmd", "--diff-cmd", "--diff3-cmd"})


def _svn_commands(cmd: Cmd) -> None:
    args = cmd.args[:64]
    for k, w in enumerate(args):
        t = w.text
        opt, eq, glued = t.partition("=")
        if eq and opt in _SVN_COMMAND_OPTIONS:
            t, value = opt, Word(glued, w.start, w.end, w.dynamic)  # `--diff-cmd=/tmp/d`
        elif k + 1 < len(args):
            value = args[k + 1]
        else:
            break
        if t in _SVN_COMMAND_OPTIONS:
            command, label = value.text, f"svn {t}"
        elif t == "--config-option":
            spec, eq, command = value.text.partition("=")
            parts = spec.lower().split(":")
            if not eq or len(parts) != 3:
                continue
            if not (parts[2].endswith("-cmd") or parts[1] == "tunnels"):
                continue
            label = f"svn --config-option {spec}"
        else:
            continue
        command = command.strip().strip("'\"")
        if command:
            where = Word(command, value.start, value.end, value.dynamic)
            cmd.scope.include(carried_command_findings(cmd.scope, command, where, label))


# mutt's settings whose value is a command it runs (`-e 'set sendmail="CMD"'`).
_MUTT_COMMAND_VARS = frozenset(
    {"sendmail", "editor", "display_filter", "query_command", "new_mail_command", "print_command"}
)


def _mutt_settings(cmd: Cmd) -> None:
    args = cmd.args[:64]
    for k, w in enumerate(args):
        if w.text != "-e" or k + 1 >= len(args):
            continue
        value = args[k + 1]
        for part in value.text[:4000].split(";")[:16]:
            words = part.strip().split(None, 1)
            if len(words) < 2 or words[0] != "set":
                continue
            var, eq, command = words[1].partition("=")
            var = var.strip().lower()
            command = command.strip().strip("'\"")
            if eq and var in _MUTT_COMMAND_VARS and command:
                where = Word(command, value.start, value.end, value.dynamic)
                label = f"{cmd.name} set {var}"
                cmd.scope.include(carried_command_findings(cmd.scope, command, where, label))


def _exim_run(cmd: Cmd) -> None:
    """`exim -be '${run{/bin/rm -rf /}}'` (sendmail is exim on many systems): the string
    expansion's `run` item runs its command (split into words, no shell) while it expands."""
    for w in cmd.args[:64]:
        t = w.text
        i = t.find("${run")
        count = 0
        while i >= 0 and count < 4:
            count += 1
            open_at = t.find("{", i + 5)
            if open_at < 0:
                break
            depth, j = 0, open_at
            while j < len(t):
                if t[j] == "{":
                    depth += 1
                elif t[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(t):
                break  # (an expansion never closed: exim refuses it, nothing runs)
            command = t[open_at + 1 : j].strip()[:2000]
            if command:
                where = Word(command, w.start, w.end, w.dynamic)
                label = f"{cmd.name} ${{run}}"
                cmd.scope.include(carried_command_findings(cmd.scope, command, where, label))
            i = t.find("${run", j)
