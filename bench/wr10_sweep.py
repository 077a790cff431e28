"""Wrapper sweep (issue 14, wr10): every committed row labelled blocked, wrapped.

Every row labelled blocked in tests/safety/*.tsv and tests/safety/heldout/heldout.tsv (never
the blind slices) that the analyser rates blocked as written is put through every wrapper of
its shell (sudo, env, timeout, sh -c, eval, functions, subshells, heredocs...; PowerShell
Invoke-Expression, script blocks, -Command; cmd /c, call, for /f, goto...). A wrapper that
runs the same command on the same machine must keep it blocked; a drop is a leak.

Wrappers are split tune/dev by a hash of the wrapper's name (`split_of`): dev wrappers are
never fixed by name, only counted.

    PYTHONPATH=$PWD python -m bench.wr10_sweep            # leak table per wrapper / rule
    PYTHONPATH=$PWD python -m bench.wr10_sweep --list 20  # plus 20 leaking texts per wrapper
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aintern_ls.safety import RiskLevel, assess
from bench._corpus_figures import read_labelled

ROOT = Path(__file__).resolve().parent.parent
CORPORA = [
    *sorted((ROOT / "tests" / "safety").glob("*.tsv")),
    ROOT / "tests" / "safety" / "heldout" / "heldout.tsv",
]

# A command the program wrappers can take: one simple command, its first word a program name
# (no assignment, no operator, no line break, no redirection before the program).
_SIMPLE = re.compile(r"[A-Za-z0-9_./\\-][A-Za-z0-9_.+/\\-]*(?:\s|$)")
_OPERATORS = re.compile(r"[;&|\n]|\$\(|`|[<>]\(")


def _is_simple(cmd: str) -> bool:
    return bool(_SIMPLE.match(cmd)) and not _OPERATORS.search(cmd) and "=" not in cmd.split()[0]


def _stdin_free(cmd: str) -> bool:
    return _is_simple(cmd) and "<" not in cmd


def _delim(code: str) -> str:
    delim = "EOF"
    while delim in code.split("\n"):
        delim += "X"
    return delim


def _ps_single(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ps_encoded(text: str) -> str:
    return base64.b64encode(text.encode("utf-16-le")).decode()


@dataclass(frozen=True)
class Wrapper:
    name: str
    shell: str  # the shell of the rows it takes
    wrap: Callable[[str], str | None]  # None: does not apply to this row
    out_shell: str = ""  # the fence the wrapped text is judged in ("" = the row's shell)
    # Set when DESIGN.md says the wrapper changes the meaning (a remote host): counted, never
    # asserted.
    changes_meaning: str = ""


def _program(prefix: str) -> Callable[[str], str | None]:
    return lambda c: f"{prefix} {c}" if _is_simple(c) else None


def _no_backtick(f: Callable[[str], str]) -> Callable[[str], str | None]:
    return lambda c: None if "`" in c else f(c)


BASH: list[Wrapper] = [
    Wrapper("sudo", "bash", _program("sudo")),
    Wrapper("sudo -u root", "bash", _program("sudo -u root")),
    Wrapper("sudo -E -H", "bash", _program("sudo -E -H")),
    Wrapper("doas", "bash", _program("doas")),
    Wrapper("env", "bash", _program("env")),
    Wrapper("env A=1", "bash", _program("env A=1")),
    Wrapper("env -i PATH", "bash", _program("env -i PATH=/usr/bin:/bin")),
    Wrapper("timeout 5", "bash", _program("timeout 5")),
    Wrapper("timeout -s KILL 5", "bash", _program("timeout -s KILL 5")),
    Wrapper("nice -n 5", "bash", _program("nice -n 5")),
    Wrapper("nohup", "bash", _program("nohup")),
    Wrapper("command", "bash", _program("command")),
    Wrapper("builtin command", "bash", _program("builtin command")),
    Wrapper("exec", "bash", _program("exec")),
    Wrapper("time", "bash", _program("time")),
    Wrapper("time -p", "bash", _program("time -p")),
    Wrapper("stdbuf -oL", "bash", _program("stdbuf -oL")),
    Wrapper("ionice -c3", "bash", _program("ionice -c3")),
    Wrapper("chrt 0", "bash", _program("chrt -o 0")),
    Wrapper("setsid", "bash", _program("setsid")),
    Wrapper("unbuffer", "bash", _program("unbuffer")),
    Wrapper("flock", "bash", _program("flock /tmp/lk")),
    # (a redirection of stdin in the row would become the input of watch/xargs themselves)
    Wrapper("watch", "bash", lambda c: f"watch -n 60 {c}" if _stdin_free(c) else None),
    # (an empty line: xargs runs the command once with no item added, as written; `-I@@`: a
    # replace string no row holds, so `{}` in `find -exec`/`parallel` stays theirs)
    Wrapper("xargs", "bash", lambda c: f"echo | xargs {c}" if _stdin_free(c) else None),
    Wrapper("xargs -I", "bash", lambda c: f"echo x | xargs -I@@ {c}" if _stdin_free(c) else None),
    Wrapper("sh -c", "bash", lambda c: "sh -c " + shlex.quote(c)),
    Wrapper("bash -c", "bash", lambda c: "bash -c " + shlex.quote(c)),
    Wrapper("zsh -c", "bash", lambda c: "zsh -c " + shlex.quote(c)),
    Wrapper("bash -lc", "bash", lambda c: "/bin/bash -lc " + shlex.quote(c)),
    Wrapper("sudo sh -c", "bash", lambda c: "sudo sh -c " + shlex.quote(c)),
    Wrapper("bash -c $(echo)", "bash", lambda c: 'bash -c "$(echo ' + shlex.quote(c) + ')"'),
    Wrapper("eval", "bash", lambda c: "eval " + shlex.quote(c)),
    Wrapper("eval dq", "bash", lambda c: 'eval "$(echo ' + shlex.quote(c) + ')"'),
    Wrapper("function", "bash", lambda c: f"f() {{\n{c}\n}}\nf"),
    Wrapper("function kw", "bash", lambda c: f"function cleanup {{\n{c}\n}}\ncleanup"),
    Wrapper("subshell", "bash", lambda c: f"(\n{c}\n)"),
    Wrapper("group", "bash", lambda c: f"{{\n{c}\n}}"),
    Wrapper("true &&", "bash", lambda c: f"true && {c}"),
    Wrapper("false ||", "bash", lambda c: f"false || {c}"),
    Wrapper("x;", "bash", lambda c: f"echo start; {c}"),
    Wrapper("if", "bash", lambda c: f"if true; then\n{c}\nfi"),
    Wrapper("else", "bash", lambda c: f"if false; then :\nelse\n{c}\nfi"),
    Wrapper("for", "bash", lambda c: f"for i in 1; do\n{c}\ndone"),
    Wrapper("while", "bash", lambda c: f"while true; do\n{c}\nbreak\ndone"),
    Wrapper("case", "bash", lambda c: f"case x in\nx)\n{c}\n;;\nesac"),
    Wrapper("$()", "bash", lambda c: f"echo $(\n{c}\n)"),
    Wrapper("backticks", "bash", _no_backtick(lambda c: f"echo `{c}`")),
    Wrapper("heredoc sh", "bash", lambda c: f"sh <<'{_delim(c)}'\n{c}\n{_delim(c)}"),
    Wrapper("herestring bash", "bash", lambda c: "bash <<< " + shlex.quote(c)),
    Wrapper("pipe to sh", "bash", lambda c: "echo " + shlex.quote(c) + " | sh"),
    Wrapper("background", "bash", lambda c: f"{{\n{c}\n}} &"),
    # (the analyser judges a remote host's command as it judges a local one: DESIGN.md's
    # levels do not depend on the machine, so it is asserted like any other wrapper)
    Wrapper("ssh host", "bash", lambda c: "ssh host " + shlex.quote(c)),
]

POWERSHELL: list[Wrapper] = [
    Wrapper("powershell -c", "powershell", lambda c: "powershell -NoProfile -c " + _ps_single(c)),
    Wrapper("pwsh -Command", "powershell", lambda c: "pwsh -Command " + _ps_single(c)),
    Wrapper("pwsh -Command {}", "powershell", lambda c: "pwsh -Command {\n" + c + "\n}"),
    Wrapper("powershell -enc", "powershell", lambda c: "powershell -enc " + _ps_encoded(c)),
    Wrapper("Invoke-Expression", "powershell", lambda c: "Invoke-Expression " + _ps_single(c)),
    Wrapper("iex", "powershell", lambda c: "iex " + _ps_single(c)),
    Wrapper("iex pipe", "powershell", lambda c: _ps_single(c) + " | iex"),
    Wrapper("& {}", "powershell", lambda c: "& {\n" + c + "\n}"),
    Wrapper(". {}", "powershell", lambda c: ". {\n" + c + "\n}"),
    Wrapper("function", "powershell", lambda c: "function Clean-Up {\n" + c + "\n}\nClean-Up"),
    Wrapper("if", "powershell", lambda c: "if ($true) {\n" + c + "\n}"),
    Wrapper("foreach", "powershell", lambda c: "foreach ($i in 1) {\n" + c + "\n}"),
    Wrapper("try", "powershell", lambda c: "try {\n" + c + "\n} catch { }"),
    Wrapper("x;", "powershell", lambda c: "Set-Location C:\\Temp; " + c),
    Wrapper(
        "Invoke-Command",
        "powershell",
        lambda c: "Invoke-Command -ScriptBlock {\n" + c + "\n}",
    ),
    Wrapper("Start-Job", "powershell", lambda c: "Start-Job -ScriptBlock {\n" + c + "\n}"),
    Wrapper(
        "ScriptBlock::Create",
        "powershell",
        lambda c: "& ([ScriptBlock]::Create(" + _ps_single(c) + "))",
    ),
]


def _cmd_simple(c: str) -> bool:
    return "\n" not in c


def _cmd_child(c: str) -> bool:
    """A line `cmd /c` can take whole: one line, not starting with a quote (cmd's quote rule
    would strip it). Its `&`/`|` split the OUTER line: what the child sets (`set X=…`) is
    lost to the commands after it, what it prints and writes is not."""
    if not _cmd_simple(c) or c.startswith(('"', "(")) or "^" in c or '\\"' in c:
        return False  # (a quote, a group or an escape would be read by the outer line)
    # What the child sets is lost to the rest of the outer line (`cmd /c set X=… & %X%`).
    return not ("&" in c and re.search(r"(?i)\bset\b", c))


def _cmd_program(c: str) -> bool:
    """One line whose first word is a program or internal command (`call` cannot run `for`,
    `if` or a parenthesised block)."""
    first = c.split(" ", 1)[0].lower()
    return (
        _cmd_simple(c) and not c.startswith(("(", "@", ":")) and first not in ("for", "if", "rem")
    )


def _cmd_block(c: str) -> bool:
    """A line a parenthesised block can hold as it is: inside `( … )` cmd ends the block at
    the first `)` that no quote or caret protects (`echo int main(){ f(); } > w.c` would
    end it early), so wrapping such a line changes what it does (f18)."""
    bare = re.sub(r'"[^"\n]*"|\^.', "", c)
    return _cmd_simple(c) and ")" not in bare


def _cmd_single(c: str) -> bool:
    """One command, no character PowerShell reads its own way before cmd sees the line
    (operators, quotes it strips or re-quotes, `;` `,` `$` `{}` `@` and backticks)."""
    return _cmd_simple(c) and not any(ch in c for ch in "&|<>()^%!\";,$`{}@'")


CMD: list[Wrapper] = [
    Wrapper("cmd /c", "cmd", lambda c: f"cmd /c {c}" if _cmd_child(c) else None),
    Wrapper("cmd /k", "cmd", lambda c: f"cmd /k {c}" if _cmd_child(c) else None),
    # (a quote inside would end the outer quoting: the outer line splits at its `&`)
    Wrapper(
        "cmd /c quoted",
        "cmd",
        lambda c: f'cmd /c "{c}"' if _cmd_simple(c) and '"' not in c else None,
    ),
    Wrapper("call", "cmd", lambda c: f"call {c}" if _cmd_program(c) else None),
    Wrapper("start /b", "cmd", lambda c: f"start /b {c}" if _cmd_child(c) else None),
    # (a loop variable the row does not use: cmd replaces the outer loop's %i inside an
    # inner `for %i`, which no longer parses)
    Wrapper(
        "for /f",
        "cmd",
        lambda c: f'for /f %Q in ("x") do {c}' if _cmd_simple(c) and "%Q" not in c else None,
    ),
    Wrapper(
        "for %%",
        "cmd",
        lambda c: f"for %%Q in (1) do {c}" if _cmd_simple(c) and "%Q" not in c else None,
    ),
    Wrapper("if exist", "cmd", lambda c: f"if exist C:\\ {c}" if _cmd_simple(c) else None),
    Wrapper("if not", "cmd", lambda c: f"if not exist x.txt ({c})" if _cmd_block(c) else None),
    Wrapper("goto label", "cmd", lambda c: f"goto run\n:skip\necho no\n:run\n{c}"),
    Wrapper("&&", "cmd", lambda c: f"cd /d C:\\Temp && {c}" if _cmd_simple(c) else None),
    Wrapper("paren", "cmd", lambda c: f"({c})" if _cmd_block(c) else None),
    Wrapper("@echo off", "cmd", lambda c: f"@echo off\nsetlocal\n{c}"),
    Wrapper(
        "from powershell",
        "cmd",
        lambda c: f"cmd /c {c}" if _cmd_single(c) else None,
        out_shell="powershell",
    ),
]

WRAPPERS: list[Wrapper] = BASH + POWERSHELL + CMD


def split_of(w: Wrapper) -> str:
    """`dev` for about a third of the wrappers, by a hash of shell and name (fixed before any
    fix was made)."""
    digest = hashlib.sha1(f"{w.shell}:{w.name}".encode()).digest()
    return "dev" if digest[0] % 3 == 0 else "tune"


def _family(shell: str) -> str:
    return {"shell": "bash", "console": "bash"}.get(shell, shell)


@dataclass(frozen=True)
class Row:
    command: str
    shell: str
    rule: str  # the rule of the row's own blocked finding


def blocked_rows() -> list[Row]:
    """Rows labelled blocked that the analyser rates blocked as written (a row it misses is a
    corpus miss, not a wrapper leak)."""
    seen: set[tuple[str, str]] = set()
    out: list[Row] = []
    for path in CORPORA:
        for command, shell, expected in read_labelled(path):
            fam = _family(shell)
            if expected != RiskLevel.BLOCKED or (command, fam) in seen:
                continue
            seen.add((command, fam))
            got = assess(command, fam)
            if got.level != RiskLevel.BLOCKED:
                continue
            rule = next(f.rule for f in got.findings if f.level == RiskLevel.BLOCKED)
            out.append(Row(command, fam, rule))
    return out


@dataclass(frozen=True)
class Case:
    wrapper: Wrapper
    row: Row
    text: str


def cases(rows: list[Row], wrappers: list[Wrapper] = WRAPPERS) -> list[Case]:
    out: list[Case] = []
    for w in wrappers:
        for r in rows:
            if r.shell != w.shell:
                continue
            text = w.wrap(r.command)
            if text is not None:
                out.append(Case(w, r, text))
    return out


def level_of(case: Case) -> RiskLevel:
    return assess(case.text, case.wrapper.out_shell or case.row.shell).level


def safe_level_of(case: Case) -> RiskLevel | Exception:
    try:
        return level_of(case)
    except Exception as exc:  # a crash is a leak too (the sweep reports it)
        return exc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", type=int, default=0, help="leaking texts to print per wrapper")
    ap.add_argument("--wrapper", default="", help="only wrappers whose name contains this")
    args = ap.parse_args()
    rows = blocked_rows()
    wrappers = [w for w in WRAPPERS if args.wrapper in w.name]
    per_wrapper: dict[tuple[str, str], list[Case]] = defaultdict(list)
    totals: Counter[tuple[str, str]] = Counter()
    per_rule: Counter[tuple[str, str]] = Counter()
    for case in cases(rows, wrappers):
        key = (case.wrapper.shell, case.wrapper.name)
        totals[key] += 1
        if safe_level_of(case) != RiskLevel.BLOCKED:
            per_wrapper[key].append(case)
            per_rule[(split_of(case.wrapper), case.row.rule)] += 1
    print(f"rows rated blocked as written: {len(rows)}")
    leaks = {"tune": [0, 0], "dev": [0, 0]}
    for w in wrappers:
        key = (w.shell, w.name)
        split = split_of(w)
        n = len(per_wrapper[key])
        note = " (changes meaning: not asserted)" if w.changes_meaning else ""
        print(f"{split:4} {w.shell:10} {w.name:22} leaks {n:4d}/{totals[key]:4d}{note}")
        if not w.changes_meaning:
            leaks[split][0] += n
            leaks[split][1] += totals[key]
        for case in per_wrapper[key][: args.list]:
            got = safe_level_of(case)
            label = got.label if isinstance(got, RiskLevel) else f"CRASH {got!r}"
            print(f"      {label:9} [{case.row.rule}] {case.text!r}")
    for split, (n, t) in leaks.items():
        print(f"TOTAL {split}: leaks {n}/{t}")
    print("per rule (split, rule): leaks")
    for (split, rule), n in sorted(per_rule.items(), key=lambda kv: -kv[1])[:40]:
        print(f"  {split:4} {rule:32} {n}")


if __name__ == "__main__":
    main()
