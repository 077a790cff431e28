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
TOOLS = _MSBUILDS | frozenset({"tox"})


def judge(cmd: Cmd) -> None:
    low = cmd.argv.joined_low
    n = cmd.name
    if n in _MSBUILDS:
        if "buildevent" in low:
            _build_events(cmd)
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
