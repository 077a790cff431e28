"""AI agent and editor configuration written now and obeyed later (a21).

Prompt injection makes coding agents write their own configuration (the Copilot
CVE-2025-53773 "YOLO mode" write-up: `"chat.tools.autoApprove": true` in
`.vscode/settings.json`, after which every later tool call runs unasked). Two things in
these files matter:

- settings that turn the human out of the loop (VS Code/Copilot auto-approve, automatic
  tasks, workspace trust off; Claude Code `defaultMode: bypassPermissions` or an allow rule
  for every Bash command; Gemini `autoAccept`/yolo; Codex `approval_policy = "never"`,
  `sandbox_mode = "danger-full-access"`): a security control turned off, critical (DESIGN
  section 5), as the one-run CLI flags (`claude --dangerously-skip-permissions`) already are;
- commands the tool runs later: a VS Code task that runs on folder open and a Claude Code
  hook or status line (each runs unasked on an event: persistence, critical; blocked when the
  command is readable and blocked), and an MCP server's command (run whenever the agent
  starts it: judged as the command itself, so an `npx` server stays an ordinary write).

The persistence door (`persist.judge_body`, every write whose text is known: redirects,
heredocs, tee, Set-Content/Add-Content/Out-File, cmd `echo >`) hands such files here;
`sed -i` edits of them come through `judge_edit`.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from aintern_ls.safety.context import Scope
from aintern_ls.safety.levels import B, C, Finding
from aintern_ls.safety.words import Word

# File names read here, and the folder each must sit in ("" = anywhere): the names are
# generic (settings.json, config.toml), so the folder decides.
_FILES: dict[str, frozenset[str]] = {
    "settings.json": frozenset(
        {".vscode", ".claude", ".gemini", "user", ".cursor", ".windsurf", ".amp", ".qwen"}
    ),
    "settings.local.json": frozenset(),
    "managed-settings.json": frozenset(),
    "tasks.json": frozenset({".vscode", "user"}),
    "mcp.json": frozenset(),
    ".mcp.json": frozenset(),
    "mcp_config.json": frozenset(),
    "claude_desktop_config.json": frozenset(),
    ".claude.json": frozenset(),
    "config.toml": frozenset({".codex"}),
    "cli-config.json": frozenset({".cursor"}),
}


def is_agent_config(target: str) -> bool:
    """Whether `target` names an AI agent's or editor's configuration file read here."""
    path = target.replace("\\", "/").strip("'\"").rstrip("/")
    parts = path.lower().rsplit("/", 2)
    folders = _FILES.get(parts[-1])
    if folders is None:
        return False
    return not folders or (len(parts) > 1 and parts[-2] in folders)


_S = r"[ \t\r\n]{0,40}"
# Settings that approve every later tool call (or run tasks unasked): (a word the text must
# hold, checked first with `in`; the setting's pattern; what it does). (Quotes around keys
# are optional: cmd's `echo {"k": true}` reaches here without them.)
_APPROVAL_OFF = [
    (
        "autoApprove",
        re.compile(r'chat\.tools\.(?:global\.|terminal\.)?autoApprove"?' + _S + ":" + _S + "true"),
        "approves every agent tool call without asking",
    ),
    (
        "allowAutomaticTasks",
        re.compile(r'task\.allowAutomaticTasks"?' + _S + ":" + _S + r'(?:"?on\b|true)'),
        "lets workspace tasks run by themselves when a folder opens",
    ),
    (
        "trust.enabled",
        re.compile(r'security\.workspace\.trust\.enabled"?' + _S + ":" + _S + "false"),
        "turns off workspace trust (untrusted folders run their tasks and settings)",
    ),
    (
        "bypassPermissions",
        re.compile(r'defaultMode"?' + _S + ":" + _S + r'"?bypassPermissions'),
        "makes Claude Code run every tool without asking (bypassPermissions)",
    ),
    (
        "autoAccept",
        re.compile(r'autoAccept"?' + _S + ":" + _S + "true"),
        "makes the Gemini CLI accept tool calls without asking",
    ),
    (
        "yolo",
        re.compile(r'pprovalMode"?' + _S + ":" + _S + r'"?yolo'),
        "makes the agent approve every tool call (yolo)",
    ),
    (
        "dangerouslyAllowAll",
        re.compile(r'amp\.dangerouslyAllowAll"?' + _S + ":" + _S + "true"),
        "makes Amp run every tool without asking",
    ),
    (
        "approval_policy",
        re.compile(r"(?m)^[ \t]{0,40}\"?approval_policy\"?[ \t]{0,8}[=:][ \t]{0,8}[\"']never[\"']"),
        "makes Codex never ask before running a command",
    ),
    (
        "sandbox_mode",
        re.compile(
            r"(?m)^[ \t]{0,40}\"?sandbox_mode\"?[ \t]{0,8}[=:][ \t]{0,8}"
            r"[\"']danger-full-access[\"']"
        ),
        "turns off the Codex sandbox (danger-full-access)",
    ),
]
# Lists of per-command approvals: a rule that matches every command approves everything.
_RULE_LISTS = re.compile(
    r"(?:chat\.tools\.terminal\.autoApprove|chat\.agent\.terminal\.allowList"
    r'|github\.copilot\.chat\.agent\.terminal\.allowList)"?' + _S + ":" + _S + r"\{"
)
_RULE_KEY = re.compile(r'"([^"\n]{0,60})"[ \t]{0,8}:[ \t]{0,8}(true|\{[^{}]{0,200}\})')
_EVERYTHING = frozenset({"", "*", ".*", ".+", ".*?", "[\\s\\S]*", "[^]*", "**"})
_ALLOW_LIST = re.compile(r'allow"?' + _S + ":" + _S + r"\[")
_ALLOW_ALL = re.compile(
    r'(?:\A|[\[,"])[ \t]{0,8}(?:Bash|Shell|\*)'
    r'(?:\([ \t]{0,8}(?:\*|:\*|\*:\*|\*\*)?[ \t]{0,8}\))?[ \t]{0,8}(?:"|,|\Z)',
    re.IGNORECASE,
)


def _object_after(text: str, start: int) -> str:
    """The text of the `{…}` object opened just before `start` (at most 2,000 characters)."""
    depth = 1
    for i in range(start, min(len(text), start + 2000)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return text[start : start + 2000]


def _approves_everything(text: str) -> str:
    """What an approval setting in `text` turns off ("" when none)."""
    for word, pattern, what in _APPROVAL_OFF:
        if word in text and pattern.search(text):
            return what
    if "erminal." in text:
        for n, m in enumerate(_RULE_LISTS.finditer(text)):
            if n >= 4:
                break  # (a file holds one such list; these are read, not every mention)
            for key, value in _RULE_KEY.findall(_object_after(text, m.end())):
                body = key.strip()
                if body.startswith("/") and body.count("/") >= 2:
                    body = body[1 : body.rindex("/")]
                body = body.lstrip("^").rstrip("$")
                if body in _EVERYTHING and (
                    value == "true" or re.search(r'"approve"\s*:\s*true', value)
                ):
                    return "approves every terminal command the agent runs (a rule matching all)"
    if "allow" in text:
        for n, m in enumerate(_ALLOW_LIST.finditer(text)):
            if n >= 8:
                break
            close = text.find("]", m.end(), m.end() + 1000)
            if _ALLOW_ALL.search(text, m.end() - 1, close if close > 0 else m.end() + 1000):
                return "allows every shell command without asking (an allow rule for all of Bash)"
    return ""


def _documents(text: str) -> list[Any]:
    """The JSON documents in `text` (an appended file may hold several); TOML is not read
    here (its commands come from `_toml_servers`)."""
    out: list[Any] = []
    decoder = json.JSONDecoder()
    i = text.find("{")
    tries = 0
    while 0 <= i < len(text) and len(out) < 8 and tries < 8:
        try:
            doc, end = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            # (a fragment, a comment, nesting too deep: a few starts are tried, not every
            # brace: each try reads up to the end of the text)
            tries += 1
            i = text.find("{", i + 1)
            continue
        out.append(doc)
        i = text.find("{", end)
    return out


def _argv_line(command: object, args: object) -> str:
    """`command` with `args` as one shell line (an MCP server or process task is an argv)."""
    if not isinstance(command, str) or not command.strip():
        return ""
    extra = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
    if not extra:
        return command
    return command + " " + shlex.join(extra)


def _walk(doc: Any, later: list[str], servers: list[str], depth: int = 0) -> None:
    """Collect commands run on an event (`later`) and MCP servers' commands (`servers`)."""
    if depth > 12:
        return
    if isinstance(doc, list):
        for item in doc[:200]:
            _walk(item, later, servers, depth + 1)
        return
    if not isinstance(doc, dict):
        return
    for key in ("mcpServers", "servers", "mcp_servers", "context_servers"):
        group = doc.get(key)
        if isinstance(group, dict):
            for server in list(group.values())[:50]:
                if isinstance(server, dict):
                    line = _argv_line(server.get("command"), server.get("args"))
                    if line:
                        servers.append(line)
    run_on = doc.get("runOptions")
    if isinstance(run_on, dict) and str(run_on.get("runOn", "")).lower() == "folderopen":
        line = _argv_line(doc.get("command"), doc.get("args"))
        if line:
            later.append(line)  # a VS Code task run whenever the folder opens
    if doc.get("type") == "command" and isinstance(doc.get("command"), str):
        later.append(doc["command"])  # a Claude Code hook or status line
    helper = doc.get("apiKeyHelper")
    if isinstance(helper, str) and helper.strip():
        later.append(helper)  # Claude Code runs it for every session
    for key, value in doc.items():
        if isinstance(value, dict | list) and key not in ("mcpServers", "mcp_servers"):
            _walk(value, later, servers, depth + 1)


_TOML_SERVER = re.compile(r"(?m)^[ \t]{0,40}\[mcp_servers\.[^\]\n]{1,100}\][ \t]{0,40}$")
_TOML_VALUE = re.compile(r"(?m)^[ \t]{0,40}(command|args)[ \t]{0,8}=[ \t]{0,8}(.{1,2000})$")


def _toml_servers(text: str) -> list[str]:
    """Codex `[mcp_servers.NAME]` tables: `command = "…"`, `args = […]` (TOML strings and
    arrays of strings read as JSON, which they match for ordinary values)."""
    out: list[str] = []
    heads = list(_TOML_SERVER.finditer(text))
    for n, head in enumerate(heads[:50]):
        end = heads[n + 1].start() if n + 1 < len(heads) else len(text)
        values: dict[str, object] = {}
        for m in _TOML_VALUE.finditer(text, head.end(), end):
            raw = m.group(2).strip().replace("'", '"')
            try:
                values[m.group(1)] = json.loads(raw)
            except ValueError:
                values[m.group(1)] = raw.strip('"')
        line = _argv_line(values.get("command"), values.get("args"))
        if line:
            out.append(line)
    return out


_LOOSE_COMMAND = re.compile(r'"command"' + _S + ":" + _S + r'"((?:[^"\\\n]|\\.){1,2000})"')


def _shells(scope: Scope) -> tuple[str, ...]:
    """The shells a configured command line may run in (a task or hook runs in the user's
    shell: on Windows PowerShell or cmd)."""
    if scope.family == "bash":
        return ("bash",)
    return (scope.family, "bash") if scope.family == "powershell" else ("cmd", "powershell")


def judge(scope: Scope, target: str, text: str, where: Word) -> None:
    """What writing `text` into the agent/editor configuration file `target` turns off or
    makes run later (see the module docstring)."""
    text = text[:20000]
    what = _approves_everything(text)
    if what:
        scope.add(
            C,
            "agent-config",
            f"{target} {what}: a prompt-injected agent then runs commands nobody reviews",
            where.start,
            where.end,
        )
    later: list[str] = []
    servers: list[str] = []
    docs = _documents(text) if "{" in text else []
    for doc in docs:
        _walk(doc, later, servers)
    servers += _toml_servers(text) if "mcp_servers" in text else []
    if not docs and ("folderOpen" in text or '"type"' in text):
        # a fragment that does not parse (comments, a trailing comma): its commands still run
        later += [json.loads('"' + m.group(1) + '"') for m in _LOOSE_COMMAND.finditer(text)][:12]
    found: list[Finding] = []
    for line in (later + servers)[:12]:
        for shell in _shells(scope) if line in later else ("bash",):
            found += scope.nested(line, shell, where, -1)
        if any(f.level >= B for f in found):
            break
    scope.include(found)
    worst = max((f.level for f in found), default=None)
    if worst is not None and worst >= B:
        scope.add(
            B,
            "persistence",
            f"{target} makes the agent or editor run a blocked command later",
            where.start,
            where.end,
        )
    elif later:
        scope.add(
            C,
            "persistence",
            f"{target} makes the editor or agent run a command by itself on an event (folder"
            " open, every tool use)",
            where.start,
            where.end,
        )


_SED_SUBST = re.compile(r"\A[0-9,$/\\ \t!]{0,40}s(.)")


def edit_text(script: str) -> str:
    """The text a sed script puts into a file: the replacement of each `s` command (what it
    replaces is already there), the whole script otherwise (`a`/`i`/`c` text)."""
    out = []
    for part in script.split("\n"):
        m = _SED_SUBST.match(part.strip())
        if m and m.group(1) not in "\\\n":
            pieces = re.split(r"(?<!\\)" + re.escape(m.group(1)), part.strip()[m.end() :])
            out.append(pieces[1] if len(pieces) > 1 else "")
        else:
            out.append(part)
    return "\n".join(out)


def judge_edit(scope: Scope, target: str, script: str, where: Word) -> None:
    """`sed -i 's/…: false/…: true/' .vscode/settings.json`: the settings the edit writes."""
    if is_agent_config(target):
        judge(scope, target, edit_text(script), where)


# `."k" = v`, `.["k"] |= v`, `.k += [v]`: a jq assignment read as the `"k": v` it writes
_JQ_ASSIGN = re.compile(r"\]?[ \t]{0,8}[|+]?(?<![=!<>])=(?!=)[ \t]{0,8}")


def judge_jq(scope: Scope, args: list[Word]) -> None:
    """`jq '."chat.tools.autoApprove" = true' .vscode/settings.json > t && mv t
    .vscode/settings.json` (or `| sponge` it): a filter that sets a setting of an agent's
    configuration, whose output is written back to it (the file is named again in the same
    text; a jq that only prints the result changes nothing)."""
    files = [w for w in args if is_agent_config(w.text)]
    if not files:
        return
    base = files[0].text.replace("\\", "/").rsplit("/", 1)[-1]
    if scope.source.count(base) < 2:
        return
    ops = [w for w in args if not w.text.startswith("-") and w not in files]
    if ops and ("=" in ops[0].text or ":" in ops[0].text):
        judge(scope, files[0].text, _JQ_ASSIGN.sub(": ", ops[0].text[:20000]), files[0])


# (a22) PowerShell's `-replace 'old', 'new'` (and `.Replace('old', 'new')`): the new text
_PS_REPLACE = re.compile(
    r"(?i)(?:-[ci]?replace[ \t]{0,8}\(?|\.replace\()[ \t]{0,8}"
    r"(?:'[^'\n]{0,2000}'|\"[^\"\n]{0,2000}\")[ \t]{0,8},[ \t]{0,8}"
    r"(?:'([^'\n]{0,2000})'|\"([^\"\n]{0,2000})\")"
)


def judge_ps_replace(scope: Scope, target: str, where: Word) -> None:
    """`(Get-Content .vscode\\settings.json) -replace '…: false', '…: true' | Set-Content
    .vscode\\settings.json`: the text each replacement puts into an agent's settings."""
    if not is_agent_config(target):
        return
    src = scope.source[:20000]
    if "replace" not in src.lower():
        return
    new = [m.group(1) if m.group(1) is not None else m.group(2) for m in _PS_REPLACE.finditer(src)]
    if new:
        judge(scope, target, "\n".join(new), where)
