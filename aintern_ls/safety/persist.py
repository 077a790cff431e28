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
from aintern_ls.safety.levels import B, C, Finding, RiskLevel
from aintern_ls.safety.paths import write_target
from aintern_ls.safety.words import Word

_CRON = re.compile(r"(?i)(?:\A|/)(?:cron\.[a-z]+/|crontab\Z|crontabs/|spool/cron/)")
_UNIT = re.compile(r"(?i)\.(?:service|timer|socket|path)\Z")
_EXEC_LINE = re.compile(
    r"(?im)^[ \t]*(?:Exec(?:Start(?:Pre|Post)?|Stop(?:Post)?|Reload)?)[ \t]*=[ \t]*"
    r"[-@+!:]*(.{1,2000})$"
)
# (a22) apt's hook entries and their quoted commands; pacman hooks' `Exec =` lines
_APT_HOOK = re.compile(
    r"(?i)(?:-Invoke(?:-Success)?|Pre-Install-Pkgs)[ \t]{0,8}(?:::)?[ \t]{0,8}"
    r"(\{[^{}]{0,4000}\}|\"(?:[^\"\\\n]|\\.){0,2000}\")"
)
_APT_STRING = re.compile(r'"((?:[^"\\\n]|\\.){1,2000})"')
_PACMAN_EXEC = re.compile(r"(?im)^[ \t]*Exec[ \t]*=[ \t]*(.{1,2000})$")
_WINDOWS_STARTUP = re.compile(r"(?i)start menu[\\/]programs[\\/]startup[\\/]|\\startup\\")


def _door(target: str, family: str) -> tuple[str, str] | None:
    """(reader, shell family of the text) for a persistence file, or None."""
    low = target.replace("\\", "/").lower()
    if _CRON.search(low):
        system = low.endswith("/etc/crontab") or "/cron.d/" in low
        return ("cron-system" if system else "cron"), "bash"
    if _UNIT.search(low):
        return "unit", "bash"
    if "/etc/apt/apt.conf" in low:
        return "apt", "bash"
    if low.endswith(".hook") and "/hooks/" in low:
        return "pacman", "bash"
    if low.endswith(".action"):
        return "action", "bash"
    if low.endswith(".py") and "-plugins/" in low:
        return "python", "bash"
    if low.endswith(".plist"):
        return "plist", "bash"
    if low.endswith(".desktop"):
        return "desktop", "bash"
    if (
        _WINDOWS_STARTUP.search(target)
        or low.endswith(("/startup/", "startup"))
        or (
            "/windowsapps/" in low  # (w22) a command shadowed in the app-alias folder on PATH
        )
    ):
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
    if reader == "apt":
        # `DPkg::Post-Invoke {"cmd"; "cmd2";};`, `APT::Update::Pre-Invoke:: "cmd";`: the
        # quoted commands of every *-Invoke (and Pre-Install-Pkgs) entry, run through sh
        return "\n".join(
            q.replace('\\"', '"')
            for m in _APT_HOOK.finditer(text[:20000])
            for q in _APT_STRING.findall(m.group(1))
        )
    if reader == "pacman":
        return "\n".join(m.group(1) for m in _PACMAN_EXEC.finditer(text[:20000]))
    if reader == "action":
        # dnf/yum post-transaction actions: `pkgglob:state:command`
        return "\n".join(
            ln.split(":", 2)[2]
            for ln in text[:20000].splitlines()
            if ln.count(":") >= 2 and not ln.lstrip().startswith("#")
        )
    if reader == "python":
        import shlex

        return f"python3 -c {shlex.quote(text[:20000])}"
    if reader == "desktop":
        return "\n".join(
            ln.split("=", 1)[1] for ln in text[:20000].splitlines() if ln.startswith("Exec=")
        )
    return text


# (n20u) Tool configuration files a later run of the tool reads and obeys: a JVM options
# file (`.mvn/jvm.config`, `gradle.properties`' org.gradle.jvmargs, sbt's `.jvmopts`,
# `*.vmoptions`, `jvm.options`) whose event hook runs a command whenever that JVM starts; the
# rc files of curl, wget and npm (their lines are the tools' long options: `data = @file`,
# `post_file = …`, `script-shell=…`); git's configuration (`[core] pager = …`, `[alias] x =
# !…`); vim's startup files (`silent !…`).
_JVM_OPTION_FILES = frozenset(
    {"jvm.config", "gradle.properties", ".jvmopts", ".sbtopts", "jvm.options"}
)
_RC_FILES = {
    ".curlrc": "curl",
    "_curlrc": "curl",
    ".wgetrc": "wget",
    "wgetrc": "wget",
    ".npmrc": "npm",
    "npmrc": "npm",
    ".gitconfig": "git",
    ".vimrc": "vim",
    "_vimrc": "vim",
    ".gvimrc": "vim",
    ".exrc": "vim",
    "init.vim": "vim",
    ".hgrc": "hg",
    "hgrc": "hg",
    ".tmux.conf": "tmux",
    "tmux.conf": "tmux",
    ".mailcap": "mailcap",
    "mailcap": "mailcap",
    # (u21) mvn sources these as shell code at every run; mutt runs the programs its
    # settings name; nvim runs its Lua start-up file; yarn runs the script yarnPath names
    ".mavenrc": "shell",
    "mavenrc": "shell",
    "mavenrc_pre.sh": "shell",
    ".muttrc": "mutt",
    "muttrc": "mutt",
    "init.lua": "lua",
    ".emacs": "emacs",
    "init.el": "emacs",
    ".screenrc": "screen",
    "screenrc": "screen",
    ".pythonrc": "python",
    ".pythonrc.py": "python",
    ".pythonstartup": "python",
    ".yarnrc.yml": "yarn",
    ".yarnrc": "yarn",
    # (a22) pip's and uv's package index (every later install's code comes from it), and
    # pnpm's hook file (JavaScript every `pnpm install` loads and runs)
    "pip.conf": "pip",
    "pip.ini": "pip",
    "uv.toml": "pip",
    ".pnpmfile.cjs": "node",
    ".pnpmfile.mjs": "node",
    "pnpmfile.js": "node",
}
_PROBE_URL = "https://example.invalid/"
# (u21) mutt settings that name a program it runs, and yarn's own-release setting
_MUTT_RUNS = re.compile(
    r"set\s+(?:sendmail|editor|display_filter|query_command|new_mail_command|print_command"
    r"|pipe_decode_command|inews|ispell|visual|shell|mime_type_query_command"
    r"|external_search_command|account_command)\s*=\s*(.+)$",
    re.I,
)
_YARN_PATH = re.compile(r"(?:yarnPath\s*:|yarn-path\s)\s*(\S+)\s*$")


# The settings of each rc file that send data, name a program or run a command (each read
# line costs an analysis: the others are not read).
_GIT_RUNS = (
    "pager",
    "editor",
    "fsmonitor",
    "sshcommand",
    "hookspath",
    "askpass",
    "gitproxy",
    "program",
    "external",
    "helper",
    "textconv",
    "command",
    "cmd",
    "clean",
    "smudge",
    "driver",
    "path",
    "templatedir",
    "process",
)
_VIM_RUNS = ("!", "system", "call", "py", "lua", "perl", "ruby", "exe", "source", "so ")
_RC_KEYS = {
    "curl": frozenset(
        """
        data data-binary data-raw data-urlencode data-ascii json form form-string upload-file
        output config d F T o K upload-file url-query
        """.split()  # noqa: SIM905
    ),
    "wget": frozenset(
        """
        post-file post-data body-file body-data use-askpass output-document execute e input
        """.split()  # noqa: SIM905
    ),
    "npm": frozenset(
        "script-shell node-options shell git editor browser viewer onload-script registry".split()  # noqa: SIM905
    ),
}


def tool_config_kind(target: str) -> str:
    """The kind of tool configuration file `target` is ("" when none)."""
    path = target.replace("\\", "/").strip("'\"")
    base = path.rsplit("/", 1)[-1].lower()
    if base in _JVM_OPTION_FILES or base.endswith(".vmoptions"):
        return "jvm"
    if base in _RC_FILES:
        if base == "init.lua" and "nvim/" not in path.lower():
            return ""  # (u21) a Lua package's own init.lua is no editor start-up file
        if base == "mavenrc" and not path.endswith((".m2/mavenrc", "/etc/mavenrc")):
            return ""
        if base == "init.el" and "emacs" not in path.lower():
            return ""  # (`~/.emacs.d/init.el`, `~/.config/emacs/init.el`)
        return _RC_FILES[base]
    if base == "config" and path.lower().endswith((".git/config", "git/config")):
        return "git"
    if base == "curlrc" and path.lower().endswith(".config/curlrc"):
        return "curl"
    from aintern_ls.safety.agents import is_agent_config

    if is_agent_config(path):
        return "agent"  # (a21) an AI agent's or editor's settings, tasks, hooks, MCP servers
    return ""


def _rc_key_value(line: str) -> tuple[str, str, str]:
    """(a22) `key = value`, `key: value`, `key value`: the key ends at the first `=`, `:` or
    blank (scanned, not searched), a blank around the separator is dropped."""
    cut = next((i for i, ch in enumerate(line) if ch in "=: \t"), -1)
    if cut <= 0:
        return line, "", ""
    rest = line[cut:].lstrip(" \t")
    sep = line[cut]
    if rest[:1] in ("=", ":"):
        sep, rest = rest[0], rest[1:]
    return line[:cut], sep, rest.lstrip(" \t")


def _unquote(value: str) -> str:
    v = value.strip()
    if len(v) > 1 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def _probes(kind: str, text: str) -> list[str]:
    """Command lines that do what each line of a tool's rc file makes every later run do."""
    import shlex

    out: list[str] = []
    section = ""
    for raw in text[:20000].splitlines()[:200]:
        line = raw.strip()
        if not line or line[0] in '#;"':
            continue
        if kind == "hg":
            # `[hooks] x = CMD`, `[alias] x = !CMD`, `[ui] editor|ssh = CMD` (a `python:` hook
            # names a function, not a command)
            if line.startswith("["):
                section = line.strip("[]").strip().lower()
                continue
            key, eq, value = line.partition("=")
            value = _unquote(value)
            if not eq or value.startswith("python:"):
                continue
            if section == "hooks" or (section == "alias" and value.startswith("!")):
                out.append(value.lstrip("!"))
            elif section == "ui" and key.strip().lower() in ("editor", "ssh", "merge"):
                out.append(value)
        elif kind == "tmux":
            # `run-shell [-b] "CMD"`, `run "CMD"`, `if-shell "CMD" …`, `default-command "CMD"`
            words = line.split(None, 1)
            if words[0] in ("run-shell", "run", "if-shell", "if") and len(words) == 2:
                rest = words[1]
                while rest.startswith("-") and " " in rest:
                    rest = rest.split(None, 1)[1]
                q = rest[:1]
                if q in "'\"" and rest.find(q, 1) > 0:
                    out.append(rest[1 : rest.find(q, 1)])
                elif q:
                    out.append(rest)
            elif "default-command" in line or "default-shell" in line:
                out.append(_unquote(line.split("default-", 1)[1].split(None, 1)[-1]))
        elif kind == "mailcap":
            parts = line.split(";")  # `type; CMD; flags`
            if len(parts) > 1 and parts[1].strip():
                out.append(parts[1].strip())
        elif kind == "git":
            if line.startswith("[") and "]" in line:
                close = line.index("]")
                head = line[1:close].split(None, 1)
                section = (
                    head[0] + ("." + _unquote(head[1]) if len(head) > 1 else "") if head else ""
                )
                line = line[close + 1 :].strip()  # (u21) `[core] pager = …` on one line
                if not line or line[0] in "#;":
                    continue
            key, eq, value = line.partition("=")
            if not eq or not key.strip():
                continue
            # (u21) a line appended without a section lands in whatever section ends the
            # file already there: read as an alias (`x = !cmd`) or a core setting
            here = section or ("alias" if _unquote(value).startswith("!") else "core")
            full = f"{here}.{key.strip()}"
            alias = here.lower() == "alias"
            if not (_unquote(value).startswith("!") if alias else full.lower().endswith(_GIT_RUNS)):
                continue  # (only settings that name a program are read: a few per file)
            verb = key.strip() if alias else "status"
            out.append(f"git -c {shlex.quote(full + '=' + _unquote(value))} {verb}")
        elif kind == "vim":
            if not any(k in line for k in _VIM_RUNS):
                continue
            parts = line.split(None, 3)
            if parts[0].rstrip("!") in ("au", "autocmd") and len(parts) == 4:
                line = parts[3]  # `autocmd VimEnter * !rm -rf ~`: the command it runs
            out.append(f"vim -u NONE --cmd {shlex.quote(line)}")  # (not the file itself)
        elif kind == "shell":
            return [text[:20000]]  # (the whole file, as the tool sources it)
        elif kind == "python":
            return [f"python3 -c {shlex.quote(text[:20000])}"]
        elif kind == "emacs":
            return [f"emacs --batch --eval {shlex.quote(text[:20000])}"]
        elif kind == "screen":
            # `exec CMD`, `screen [-t T] CMD`, `backtick N 0 0 CMD`: commands screen runs
            words = line.split()
            if words[0] in ("exec", "screen") and len(words) > 1:
                tail = words[1:]
                while tail and tail[0].startswith("-"):
                    tail = tail[2:] if tail[0] in ("-t", "-T", "-h") else tail[1:]
                tail = tail[1:] if tail[:1] and tail[0].isdigit() else tail
                if tail and words[0] == "exec" and tail[0] in ("!", "!!", ".!", "!."):
                    tail = tail[1:]
                if tail:
                    out.append(" ".join(tail))
            elif words[0] == "backtick" and len(words) > 4:
                out.append(" ".join(words[4:]))
        elif kind == "lua":
            return [f"lua -e {shlex.quote(text[:20000])}"]
        elif kind == "node":
            return [f"node -e {shlex.quote(text[:20000])}"]
        elif kind == "pip":
            # `index-url = http://…`, `extra-index-url`, uv's `[[index]] url = "…"`
            key, eq, value = line.partition("=")
            key = key.strip().lower().replace("_", "-")
            if eq and key in ("index-url", "extra-index-url", "url"):
                out.append(f"pip config set global.index-url {shlex.quote(_unquote(value))}")
        elif kind == "mutt":
            # `set sendmail="CMD"`, `set editor=…`, `set display_filter=…`: programs mutt runs
            m = _MUTT_RUNS.match(line)
            if m is not None:
                out.append(_unquote(m.group(1)).rstrip("|"))
        elif kind == "yarn":
            # `yarnPath: F` (yarn 2+), `yarn-path "F"` (yarn 1): every yarn command runs F;
            # yarn's own release kept in the project (`.yarn/releases/yarn-4.1.0.cjs`) is not
            # foreign code
            m = _YARN_PATH.match(line)
            if m is not None and ".yarn/releases/" not in m.group(1):
                out.append(f"node {shlex.quote(_unquote(m.group(1)))}")
        elif kind == "curl" and line.startswith("-"):
            if line.split(None, 1)[0].lstrip("-").split("=", 1)[0] in _RC_KEYS["curl"]:
                out.append(f"curl {line} {_PROBE_URL}")
        else:
            # (a22) the key ends at the first `=`, `:` or blank (a URL value keeps its `:`)
            key, sep, value = _rc_key_value(line)
            if key.strip().lower().replace("_", "-") not in _RC_KEYS.get(kind, ()):
                continue
            if kind == "curl":
                out.append(f"curl --{key} {shlex.quote(_unquote(value))} {_PROBE_URL}")
            elif kind == "wget" and sep:
                opt = key.strip().lower().replace("_", "-")
                out.append(f"wget --{opt}={shlex.quote(_unquote(value))} {_PROBE_URL}")
            elif kind == "npm" and sep and key.strip().lower() == "onload-script":
                out.append(f"node {shlex.quote(_unquote(value))}")  # (u21) run by every npm
            elif kind == "npm" and sep:
                out.append(f"npm config set {key.strip()} {shlex.quote(_unquote(value))}")
        if len(out) >= 12:
            break
    return out


def judge_tool_config(scope: Scope, target: str, text: str, where: Word, kind: str) -> None:
    """A command (or an upload, a program) that a tool configuration file written now makes
    every later run of the tool run: persistence (critical), blocked when what it runs is
    readable and blocked (`echo "-XX:OnError=rm -rf ~" >> .mvn/jvm.config`, `[core] pager =
    rm -rf ~` in ~/.gitconfig). A file that carries nothing of the kind is an ordinary write."""
    from aintern_ls.safety.registry import jvm_event_commands, jvm_event_findings

    if kind == "agent":
        from aintern_ls.safety import agents

        agents.judge(scope, target, text, where)
        return
    if kind == "jvm":
        if "-XX:On" not in text or not jvm_event_commands(text):
            return
        shells = ("bash",) if scope.family == "bash" else ("cmd", "bash")
        found = jvm_event_findings(scope, text, where, target, shells)
        what = "every later JVM start arm a hook that runs a command"
    else:
        found = []
        probes = _probes(kind, text)
        for probe in probes:
            found += scope.nested(probe, "bash", where, -1)
            if any(f.level >= B for f in found):
                break  # (nothing later can make it worse)
        what = f"every later {kind} run do what it says"
        if kind in ("yarn", "npm") and any(p.startswith("node ") for p in probes):
            # (u21) yarn hands every command to the script yarnPath names, npm loads its
            # onload-script: code run later that the analyser reads only if the block wrote it
            what = f"every later {kind} command run a script it names"
            found.append(Finding(C, "persistence", what, where.start, where.end))
    worst = max((f.level for f in found), default=None)
    if kind != "jvm" and (worst is None or worst < C):
        return
    scope.include(found)
    if worst is not None and worst >= B:
        scope.add(
            B, "persistence", f"{target} makes {what}: a blocked command", where.start, where.end
        )
    else:
        scope.add(C, "persistence", f"{target} makes {what}", where.start, where.end)


def judge_body(scope: Scope, target: str, text: str, where: Word, profile: bool = False) -> None:
    """Judge what a write into a persistence file will run; blocked if that is blocked."""
    if not text.strip() or len(text) > 20000:
        return
    kind = tool_config_kind(target)
    if kind:
        judge_tool_config(scope, target, text, where, kind)
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
