"""Shell integration: scripts that make bash, zsh and pwsh announce their prompts and
commands with OSC 633 marks, and a streaming parser that pulls those marks out of output.

Marks (VS Code's protocol): A prompt start, B prompt end (input starts), C output starts,
D[;exit] command finished, E;commandline, P;Cwd=path. Every mark our scripts print ends
with a per-session nonce, so a command that prints a fake mark (say, `cat` of a captured
log) cannot move the LastCommand range. OSC 133 (A/B/C/D, FinalTerm) is accepted from
prompts that emit it themselves; it carries no nonce, so it only counts until a 633 mark
with the right nonce has been seen.

The scripts load the user's own rc files first (`~/.bashrc`; zsh's `.zshenv`/`.zshrc`
from the user's ZDOTDIR), so the session feels like the user's terminal; setting
AINTERN_LS_NO_RC in the session's environment skips them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping

import attrs

from aintern_ls.shells import INTEGRATED_SHELLS as _INTEGRATED

INTEGRATED_SHELLS = _INTEGRATED  # the one table of shells: `aintern_ls.shells`
#: An unterminated OSC longer than this is not a mark: give it back as text.
_MAX_PENDING = 8192


@attrs.frozen
class Mark:
    """One shell-integration mark. `trusted` is False for nonce-less OSC 133 marks."""

    kind: str
    exit_code: int | None = None
    command_line: str | None = None
    cwd: str | None = None
    trusted: bool = True


def escape(value: str) -> str:
    r"""633 escaping: backslash, `;` and control characters become `\xNN` (`\` itself `\\`)."""
    return "".join(
        "\\\\" if ch == "\\" else f"\\x{ord(ch):02x}" if ch == ";" or ord(ch) < 0x20 else ch
        for ch in value
    )


def canonical(mark: Mark) -> str:
    """The mark as a nonce-less OSC 633 sequence, for a buffer the capture package parses.

    Only marks that passed the nonce check are written back, so forged ones stay out.
    """
    if mark.kind == "D":
        return "\x1b]633;D\x07" if mark.exit_code is None else f"\x1b]633;D;{mark.exit_code}\x07"
    if mark.kind == "E":
        return f"\x1b]633;E;{escape(mark.command_line or '')}\x07"
    if mark.kind == "P":
        return f"\x1b]633;P;Cwd={escape(mark.cwd or '')}\x07"
    return f"\x1b]633;{mark.kind}\x07"


#: A mark as `canonical` writes it.
CANONICAL_MARK = re.compile(r"\x1b\]633;[^\x07\x1b]*\x07")


def unescape(value: str) -> str:
    r"""Undo the 633 escaping: `\\` is a backslash, `\xNN` a character."""
    return re.sub(
        r"\\(\\|x([0-9a-fA-F]{2}))",
        lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(2), 16)),
        value,
    )


class MarkParser:
    """Splits terminal text into plain text and `Mark`s, carrying partial sequences across
    calls. OSC 633 marks without the session nonce are dropped; other OSCs pass through."""

    def __init__(self, nonce: str | None) -> None:
        self._nonce = nonce
        self._pending = ""

    def feed(self, text: str) -> list[str | Mark]:
        buf = self._pending + text
        self._pending = ""
        out: list[str | Mark] = []
        i = 0
        while True:
            start = buf.find("\x1b]", i)
            if start < 0:
                tail = buf[i:]
                if tail.endswith("\x1b"):
                    self._pending = "\x1b"
                    tail = tail[:-1]
                if tail:
                    out.append(tail)
                break
            end, term_len = _find_terminator(buf, start + 2)
            if end < 0:
                if len(buf) - start > _MAX_PENDING:
                    out.append(buf[i:])
                else:
                    if start > i:
                        out.append(buf[i:start])
                    self._pending = buf[start:]
                break
            body = buf[start + 2 : end]
            if body.startswith(("633;", "133;")):
                if start > i:
                    out.append(buf[i:start])
                mark = self._parse(body)
                if mark is not None:
                    out.append(mark)
            else:
                out.append(buf[i : end + term_len])
            i = end + term_len
        return _merge_text(out)

    def _parse(self, body: str) -> Mark | None:
        family, _, rest = body.partition(";")
        params = rest.split(";")
        kind = params[0]
        args = params[1:]
        if family == "633":
            if self._nonce is not None:
                if not args or args[-1] != self._nonce:
                    return None
                args = args[:-1]
            trusted = True
        else:
            trusted = False
        if kind == "D":
            code = None
            if args and args[0].strip().lstrip("-").isdigit():
                code = int(args[0])
            return Mark("D", exit_code=code, trusted=trusted)
        if kind == "E" and family == "633":
            return Mark("E", command_line=unescape(args[0]) if args else "", trusted=trusted)
        if kind == "P" and family == "633":
            for arg in args:
                key, _, value = arg.partition("=")
                if key == "Cwd":
                    return Mark("P", cwd=unescape(value), trusted=trusted)
            return None
        if kind in ("A", "B", "C"):
            return Mark(kind, trusted=trusted)
        return None


def _find_terminator(buf: str, pos: int) -> tuple[int, int]:
    bel = buf.find("\x07", pos)
    st = buf.find("\x1b\\", pos)
    if bel < 0 and st < 0:
        return -1, 0
    if st < 0 or (0 <= bel < st):
        return bel, 1
    return st, 2


def _merge_text(items: list[str | Mark]) -> list[str | Mark]:
    merged: list[str | Mark] = []
    for item in items:
        if isinstance(item, str) and merged and isinstance(merged[-1], str):
            merged[-1] += item
        elif not (isinstance(item, str) and not item):
            merged.append(item)
    return merged


# -- scripts ------------------------------------------------------------------------------

_BASH = r"""# aintern-ls shell integration for bash (generated; deleted when the terminal closes)
if [ -z "${AINTERN_LS_NO_RC-}" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
__aintern_nonce='@NONCE@'
__aintern_esc() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//;/\\x3b}
  s=${s//$'\n'/\\x0a}
  s=${s//$'\a'/\\x07}
  s=${s//$'\e'/\\x1b}
  builtin printf '%s' "$s"
}
__aintern_precmd() {
  local code=$?
  # P before D, so the cwd is current when the command counts as finished.
  builtin printf '\e]633;P;Cwd=%s;%s\a' "$(__aintern_esc "$PWD")" "$__aintern_nonce"
  builtin printf '\e]633;D;%s;%s\a' "$code" "$__aintern_nonce"
  return $code
}
__aintern_wrap_ps1() {
  if [[ "$PS1" != *"633;A;$__aintern_nonce"* ]]; then
    PS1="\[\e]633;A;${__aintern_nonce}\a\]${PS1}\[\e]633;B;${__aintern_nonce}\a\]"
  fi
}
__aintern_preexec() {
  local line
  line=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
  line=${line#*[0-9]  }
  builtin printf '\e]633;E;%s;%s\a\e]633;C;%s\a' \
    "$(__aintern_esc "$line")" "$__aintern_nonce" "$__aintern_nonce"
}
if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
  PROMPT_COMMAND=(__aintern_precmd "${PROMPT_COMMAND[@]}" __aintern_wrap_ps1)
else
  # Newlines, not semicolons: a user's PROMPT_COMMAND often ends with ';' already.
  PROMPT_COMMAND=$'__aintern_precmd\n'"${PROMPT_COMMAND-}"$'\n__aintern_wrap_ps1'
fi
PS0="${PS0-}"'$(__aintern_preexec)'
"""

_ZSHENV = r"""# aintern-ls shell integration for zsh (generated): load the user's .zshenv
__aintern_zdotdir=$ZDOTDIR
ZDOTDIR=${AINTERN_USER_ZDOTDIR:-$HOME}
unset AINTERN_USER_ZDOTDIR
[[ -f "$ZDOTDIR/.zshenv" ]] && . "$ZDOTDIR/.zshenv"
__aintern_user_zdotdir=$ZDOTDIR
ZDOTDIR=$__aintern_zdotdir
"""

_ZSHRC = r"""# aintern-ls shell integration for zsh (generated; deleted when the terminal closes)
ZDOTDIR=$__aintern_user_zdotdir
if [[ -z "${AINTERN_LS_NO_RC-}" && -f "$ZDOTDIR/.zshrc" ]]; then . "$ZDOTDIR/.zshrc"; fi
__aintern_nonce='@NONCE@'
__aintern_esc() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//;/\\x3b}
  s=${s//$'\n'/\\x0a}
  s=${s//$'\a'/\\x07}
  s=${s//$'\e'/\\x1b}
  builtin print -rn -- "$s"
}
__aintern_precmd() {
  local code=$?
  # P before D, so the cwd is current when the command counts as finished.
  builtin printf '\e]633;P;Cwd=%s;%s\a' "$(__aintern_esc "$PWD")" "$__aintern_nonce"
  builtin printf '\e]633;D;%s;%s\a' "$code" "$__aintern_nonce"
  return $code
}
__aintern_wrap_ps1() {
  if [[ "$PS1" != *"633;A;$__aintern_nonce"* ]]; then
    local a b
    a=$(builtin printf '\e]633;A;%s\a' "$__aintern_nonce")
    b=$(builtin printf '\e]633;B;%s\a' "$__aintern_nonce")
    PS1="%{$a%}$PS1%{$b%}"
  fi
}
__aintern_preexec() {
  builtin printf '\e]633;E;%s;%s\a\e]633;C;%s\a' \
    "$(__aintern_esc "$1")" "$__aintern_nonce" "$__aintern_nonce"
}
typeset -ga precmd_functions preexec_functions  # declared even under NO_UNSET
precmd_functions=(__aintern_precmd $precmd_functions __aintern_wrap_ps1)
preexec_functions+=(__aintern_preexec)
"""

_PWSH = r"""# aintern-ls shell integration for PowerShell (generated)
$Global:__AInternNonce = '@NONCE@'
function Global:__AInternEscape([string]$s) {
  $s = $s.Replace('\', '\\').Replace(';', '\x3b').Replace("`n", '\x0a')
  $s.Replace("`a", '\x07').Replace("$([char]27)", '\x1b')
}
$Global:__AInternOriginalPrompt = $function:Prompt
function Global:Prompt() {
  $ok = $?
  $code = if ($ok) { 0 } elseif ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }
  $e = [char]27; $b = [char]7; $n = $Global:__AInternNonce
  $r = "$e]633;P;Cwd=$(__AInternEscape $PWD.ProviderPath);$n$b"
  $r += "$e]633;D;$code;$n$b"
  $r += "$e]633;A;$n$b"
  $r += & $Global:__AInternOriginalPrompt
  $r += "$e]633;B;$n$b"
  $r
}
if (Get-Command PSConsoleHostReadLine -ErrorAction SilentlyContinue) {
  $Global:__AInternOriginalReadLine = $function:PSConsoleHostReadLine
  function Global:PSConsoleHostReadLine {
    $line = & $Global:__AInternOriginalReadLine
    $e = [char]27; $b = [char]7; $n = $Global:__AInternNonce
    [Console]::Write("$e]633;E;$(__AInternEscape $line);$n$b$e]633;C;$n$b")
    $line
  }
}
"""


@attrs.frozen
class IntegratedLaunch:
    """argv and environment additions that start `shell` with integration loaded."""

    argv: list[str]
    env: dict[str, str]
    integrated: bool


def prepare_launch(
    shell_path: str, shell: str, nonce: str, workdir: str, env: Mapping[str, str]
) -> IntegratedLaunch:
    """Write the integration script for `shell` into `workdir` and say how to start it.

    Shells without a script (sh, fish, ksh, cmd) start plain interactive: the session
    works, but without command ranges, exit codes or cwd tracking.
    """
    if shell == "bash":
        rc = os.path.join(workdir, "bashrc")
        _write(rc, _BASH.replace("@NONCE@", nonce))
        return IntegratedLaunch([shell_path, "--rcfile", rc, "-i"], {}, True)
    if shell == "zsh":
        _write(os.path.join(workdir, ".zshenv"), _ZSHENV)
        _write(os.path.join(workdir, ".zshrc"), _ZSHRC.replace("@NONCE@", nonce))
        user_zdotdir = env.get("ZDOTDIR") or env.get("HOME") or os.path.expanduser("~")
        env = {"ZDOTDIR": workdir, "AINTERN_USER_ZDOTDIR": user_zdotdir}
        return IntegratedLaunch([shell_path, "-i"], env, True)
    if shell in ("pwsh", "powershell"):
        script = os.path.join(workdir, "integration.ps1")
        _write(script, _PWSH.replace("@NONCE@", nonce))
        argv = [shell_path, "-NoLogo", "-NoExit", "-Command", f". '{script}'"]
        return IntegratedLaunch(argv, {}, True)
    if shell == "cmd":
        return IntegratedLaunch([shell_path], {}, False)
    interactive = [] if sys.platform == "win32" else ["-i"]
    return IntegratedLaunch([shell_path, *interactive], {}, False)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o600)
