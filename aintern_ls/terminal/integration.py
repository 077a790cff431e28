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

from aintern_ls.capture.marks import escape, is_mark_payload, parse_mark
from aintern_ls.capture.marks import unescape as unescape  # re-exported
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
            if is_mark_payload(body):
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
        parsed = parse_mark(body)  # the one mark parser, shared with capture/vt.py
        if parsed is None:
            return None
        params = parsed.params
        if parsed.code == 633:
            if self._nonce is not None:
                if not params or params[-1] != self._nonce:
                    return None
                params = params[:-1]
            trusted = True
        else:
            trusted = False
        mark = attrs.evolve(parsed, params=params)
        if mark.kind == "D":
            return Mark("D", exit_code=mark.exit_code, trusted=trusted)
        if mark.kind == "E" and mark.command_line is not None:
            return Mark("E", command_line=mark.command_line, trusted=trusted)
        if mark.kind == "P":
            cwd = mark.cwd
            return None if cwd is None else Mark("P", cwd=cwd, trusted=trusted)
        if mark.kind in ("A", "B", "C"):
            return Mark(mark.kind, trusted=trusted)
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

_BASH = r"""# aintern-ls shell integration for bash (generated; deletes itself once read)
\command rm -rf -- '@WORKDIR@' 2>/dev/null
if [ -z "${AINTERN_LS_NO_RC-}" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
__aintern_nonce='@NONCE@'
builtin export -n __aintern_nonce
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
  # The prompt carries the nonce: never hand it to child processes.
  builtin export -n PS1 __aintern_nonce
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

_ZSHRC = r"""# aintern-ls shell integration for zsh (generated; deletes itself once read)
\command rm -rf -- '@WORKDIR@' 2>/dev/null
ZDOTDIR=$__aintern_user_zdotdir
if [[ -z "${AINTERN_LS_NO_RC-}" && -f "$ZDOTDIR/.zshrc" ]]; then . "$ZDOTDIR/.zshrc"; fi
__aintern_nonce='@NONCE@'
typeset +x __aintern_nonce
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
  # The prompt carries the nonce: never hand it to child processes.
  typeset -g +x PS1 __aintern_nonce
}
__aintern_preexec() {
  builtin printf '\e]633;E;%s;%s\a\e]633;C;%s\a' \
    "$(__aintern_esc "$1")" "$__aintern_nonce" "$__aintern_nonce"
}
typeset -ga precmd_functions preexec_functions  # declared even under NO_UNSET
precmd_functions=(__aintern_precmd $precmd_functions __aintern_wrap_ps1)
preexec_functions+=(__aintern_preexec)
"""

_PWSH = r"""# aintern-ls shell integration for PowerShell (generated; deletes itself once read)
Remove-Item -LiteralPath '@WORKDIR@' -Recurse -Force -ErrorAction SilentlyContinue
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
        _write(rc, _fill(_BASH, nonce, workdir))
        return IntegratedLaunch([shell_path, "--rcfile", rc, "-i"], {}, True)
    if shell == "zsh":
        _write(os.path.join(workdir, ".zshenv"), _ZSHENV)
        _write(os.path.join(workdir, ".zshrc"), _fill(_ZSHRC, nonce, workdir))
        user_zdotdir = env.get("ZDOTDIR") or env.get("HOME") or os.path.expanduser("~")
        env = {"ZDOTDIR": workdir, "AINTERN_USER_ZDOTDIR": user_zdotdir}
        return IntegratedLaunch([shell_path, "-i"], env, True)
    if shell in ("pwsh", "powershell"):
        script = os.path.join(workdir, "integration.ps1")
        _write(script, _fill(_PWSH, nonce, workdir, pwsh=True))
        argv = [shell_path, "-NoLogo", "-NoExit", "-Command", f". '{script}'"]
        return IntegratedLaunch(argv, {}, True)
    if shell == "cmd":
        return IntegratedLaunch([shell_path], {}, False)
    interactive = [] if sys.platform == "win32" else ["-i"]
    return IntegratedLaunch([shell_path, *interactive], {}, False)


def _fill(script: str, nonce: str, workdir: str, *, pwsh: bool = False) -> str:
    """The script with its nonce and the directory it deletes once it has been read (the
    nonce must not stay readable by the commands the session runs). `@WORKDIR@` sits in
    single quotes."""
    quoted = workdir.replace("'", "''") if pwsh else workdir.replace("'", "'\\''")
    return script.replace("@NONCE@", nonce).replace("@WORKDIR@", quoted)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o600)
