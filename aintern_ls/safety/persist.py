"""A persistence door written with a readable blocked body (f19, the lead's session-19 note).

Persistence is critical (HELPERS.md: startup files, cron, services, launch agents, Run keys,
the Startup folder…), and blocked when the persisted body is blocked and readable. `crontab -`,
`at`, Run keys and scheduled tasks already judge their body; a FILE written into a door did
not: `echo 'rm -rf ~' >> ~/.bashrc`, `echo '* * * * * root rm -rf /' > /etc/cron.d/x`,
`Add-Content $PROFILE 'Remove-Item C:\\Windows -Recurse -Force'`, `echo rd /s /q C:\\Users >
"…\\Startup\\x.bat"`. Each door has a reader (a crontab line without its time fields, a unit's
Exec lines, a launchd plist's program, a .desktop file's Exec), and the text it runs is judged
with the same rules; a blocked result makes the write blocked (rule `persistence`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from aintern_ls.safety.context import Scope
from aintern_ls.safety.levels import B, RiskLevel
from aintern_ls.safety.paths import write_target
from aintern_ls.safety.words import Word

_CRON = re.compile(r"(?i)(?:\A|/)(?:cron\.[a-z]+/|crontab\Z|crontabs/|spool/cron/)")
_UNIT = re.compile(r"(?i)\.(?:service|timer|socket|path)\Z")
_EXEC_LINE = re.compile(
    r"(?im)^[ \t]*(?:Exec(?:Start(?:Pre|Post)?|Stop(?:Post)?|Reload)?)[ \t]*=[ \t]*"
    r"[-@+!:]*(.{1,2000})$"
)
_WINDOWS_STARTUP = re.compile(r"(?i)start menu[\\/]programs[\\/]startup[\\/]|\\startup\\")


def _door(target: str, family: str) -> tuple[str, str] | None:
    """(reader, shell family of the text) for a persistence file, or None."""
    low = target.replace("\\", "/").lower()
    if _CRON.search(low):
        system = low.endswith("/etc/crontab") or "/cron.d/" in low
        return ("cron-system" if system else "cron"), "bash"
    if _UNIT.search(low):
        return "unit", "bash"
    if low.endswith(".plist"):
        return "plist", "bash"
    if low.endswith(".desktop"):
        return "desktop", "bash"
    if _WINDOWS_STARTUP.search(target) or low.endswith(("/startup/", "startup")):
        if low.endswith((".bat", ".cmd")):
            return "text", "cmd"
        if low.endswith(".ps1"):
            return "text", "powershell"
        return None
    if low.endswith(".ps1") or ("profile" in low and family != "bash"):
        return "text", "powershell"
    if family == "cmd":
        return None
    return "text", "bash"


# `windows.windows_write_target`, registered by the windows module when it loads (windows
# imports files, which uses this module: a direct import here would close a cycle).
WINDOWS_WRITE_TARGET: list[Callable[[str], tuple[RiskLevel, str, str] | None]] = []


def _read(reader: str, text: str) -> str:
    if reader in ("cron", "cron-system"):
        jobs = crontab_commands(text)
        if reader == "cron-system":
            # /etc/crontab, /etc/cron.d/*: a user field comes before the command
            jobs = "\n".join(ln.split(None, 1)[1] for ln in jobs.splitlines() if " " in ln)
        return jobs
    if reader == "unit":
        return "\n".join(m.group(1) for m in _EXEC_LINE.finditer(text[:20000]))
    if reader == "plist":
        return launchd_command(text)
    if reader == "desktop":
        return "\n".join(
            ln.split("=", 1)[1] for ln in text[:20000].splitlines() if ln.startswith("Exec=")
        )
    return text


# (n20u) Tool configuration files a later run reads and obeys: a JVM options file
# (`.mvn/jvm.config`, `gradle.properties`' org.gradle.jvmargs, sbt's `.jvmopts`, `*.vmoptions`,
# `jvm.options`) whose event hook runs a command whenever that JVM starts.
_JVM_OPTION_FILES = frozenset(
    {"jvm.config", "gradle.properties", ".jvmopts", ".sbtopts", "jvm.options"}
)


def tool_config_kind(target: str) -> str:
    """The kind of tool configuration file `target` is ("" when none)."""
    base = target.replace("\\", "/").rsplit("/", 1)[-1].lower().strip("'\"")
    if base in _JVM_OPTION_FILES or base.endswith(".vmoptions"):
        return "jvm"
    return ""


def judge_tool_config(scope: Scope, target: str, text: str, where: Word) -> None:
    """A command a tool configuration file written now makes a later run of the tool run:
    persistence (critical); the command's own level when worse (`echo "-XX:OnError=rm -rf ~"
    >> .mvn/jvm.config`: blocked). A file that carries no command is an ordinary write."""
    from aintern_ls.safety.levels import C
    from aintern_ls.safety.registry import jvm_event_commands, jvm_event_findings

    kind = tool_config_kind(target)
    if kind == "jvm" and "-XX:On" in text and jvm_event_commands(text):
        shells = ("bash",) if scope.family == "bash" else ("cmd", "bash")
        scope.include(jvm_event_findings(scope, text, where, target, shells))
        why = f"{target} makes every later JVM start arm a hook that runs a command"
        scope.add(C, "persistence", why, where.start, where.end)


def judge_body(scope: Scope, target: str, text: str, where: Word, profile: bool = False) -> None:
    """Judge what a write into a persistence file will run; blocked if that is blocked."""
    if not text.strip() or len(text) > 20000:
        return
    if "-XX:On" in text and tool_config_kind(target):
        judge_tool_config(scope, target, text, where)
        return
    if profile:
        door: tuple[str, str] | None = ("text", "powershell")
    else:
        t = write_target(target.replace("\\", "/"), scope.cwds)
        if t is None or t.rule != "persistence":
            win = WINDOWS_WRITE_TARGET[0](target) if WINDOWS_WRITE_TARGET else None
            if win is None or "persist" not in win[1]:
                return
        where_to = target
        known = [c for c in scope.cwds if c is not None]
        if len(known) == 1 and not target.startswith(("/", "~", "$", "\\")) and ":" not in target:
            where_to = known[0].rstrip("/") + "/" + target  # (`cd /etc/cron.d && echo … > x`)
        door = _door(where_to, scope.family)
    if door is None:
        return
    code = _read(door[0], text)
    if not code.strip():
        return
    found = scope.nested(code, door[1], where, -1)
    worst = max(found, key=lambda f: f.level, default=None)
    if worst is not None and worst.level >= B:
        scope.add(
            B,
            "persistence",
            f"{target} will run a blocked command at every login or on a schedule: {worst.reason}",
            where.start,
            where.end,
        )


def crontab_commands(text: str) -> str:
    """A crontab file's commands: each job line without its five time fields (or @word)."""
    out = []
    for line in text[:20000].splitlines():
        line = line.strip()
        if not line or line.startswith("#") or re.match(r"^[A-Za-z_]\w{0,64}[ \t]*=", line):
            continue
        m = re.match(r"^(?:@\w{1,16}|(?:[^\s]{1,64}[ \t]+){4}[^\s]{1,64})[ \t]+(.+)", line)
        if m:
            out.append(m.group(1).split("%", 1)[0])
    return "\n".join(out)


def launchd_command(text: str) -> str:
    """A launchd plist's job: `ProgramArguments` (or `Program`) as one command line."""
    import html
    import shlex

    m = re.search(
        r"(?is)<key>[ \t]*ProgramArguments[ \t]*</key>\s{0,64}<array>(.{0,4000}?)</array>",
        text[:20000],
    )
    if m:
        argv = [
            html.unescape(a)
            for a in re.findall(r"(?is)<string>([^<]{0,2000})</string>", m.group(1))
        ]
        return " ".join(shlex.quote(a) for a in argv)
    m = re.search(
        r"(?is)<key>[ \t]*Program[ \t]*</key>\s{0,64}<string>([^<]{0,2000})</string>", text[:20000]
    )
    return html.unescape(m.group(1)) if m else ""
