"""Property tests (issue 14): a blocked command stays blocked however it is wrapped, quoted
or spelled."""

from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aintern_ls.safety import RiskLevel, assess

BLOCKED = [
    "rm -rf /",
    "rm -rf ~",
    "rm -rf /etc",
    "rm -fr /usr",
    "rm -r -f /*",
    "rm -rf --no-preserve-root /",
    "chmod -R 777 /",
    "mkfs.ext4 /dev/sda1",
    "dd if=/dev/zero of=/dev/sda",
    "rm -f /etc/passwd",
    "mv /etc/shadow /tmp/x",
    "find / -delete",
    "rm -rf *",
]

# Programs that run the simple command after them (they cannot wrap a compound one).
_PROGRAM_WRAPPERS = [
    "sudo {}",
    "sudo -u root {}",
    "env {}",
    "env FOO=1 {}",
    "timeout 10 {}",
    "nice -n 5 {}",
    "nohup {}",
    "command {}",
    "exec {}",
    "time {}",
    "echo x | xargs {}",
]
_PREFIXES = [
    "true; {}",
    "true && {}",
    "false || {}",
    "{} ; echo done",
    "( {} )",
    "{{ {}; }}",
    "$( {} )",
    "echo $(echo $({}))",
    "if true; then {}; fi",
    "for i in 1; do {}; done",
    "while true; do {}; break; done",
]


def _sh_c(cmd: str) -> str:
    return "sh -c " + shlex.quote(cmd)


def _bash_c_subst(cmd: str) -> str:
    return 'bash -c "$(echo ' + shlex.quote(cmd) + ')"'


def _eval(cmd: str) -> str:
    return "eval " + shlex.quote(cmd)


def _function(cmd: str) -> str:
    return f"f() {{ {cmd}; }}; f"


def _base64(cmd: str) -> str:
    return "echo " + base64.b64encode(cmd.encode()).decode() + " | base64 -d | sh"


def _ansi_c_program(cmd: str) -> str:
    prog, _, rest = cmd.partition(" ")
    hexed = "".join(f"\\x{ord(c):02x}" for c in prog)
    return f"$'{hexed}' {rest}"


def _printf_program(cmd: str) -> str:
    prog, _, rest = cmd.partition(" ")
    hexed = "".join(f"\\x{ord(c):02x}" for c in prog)
    return f"$(printf '{hexed}') {rest}"


def _variable_program(cmd: str) -> str:
    prog, _, rest = cmd.partition(" ")
    return f"X={prog}; $X {rest}"


def _quoted_words(cmd: str) -> str:
    return " ".join(shlex.quote(w) if i % 2 else f'"{w}"' for i, w in enumerate(cmd.split()))


def _backslashed(cmd: str) -> str:
    prog, _, rest = cmd.partition(" ")
    return "\\" + prog + " " + rest


def _brace(cmd: str) -> str:
    words = cmd.split()
    if any("{" in w or "," in w or "*" in w for w in words):
        return cmd
    return "{" + ",".join(words) + "}"


def _absolute(cmd: str) -> str:
    prog, _, rest = cmd.partition(" ")
    return f"/usr/bin/{prog} {rest}"


# Spellings change how one simple command is written; wrappers put a whole script inside
# another construct. A spelling only makes sense on the simple command itself.
_SPELLINGS = [
    lambda c: c,
    *[(lambda c, p=p: p.format(c)) for p in _PROGRAM_WRAPPERS],
    _ansi_c_program,
    _printf_program,
    _variable_program,
    _quoted_words,
    _backslashed,
    _brace,
    _absolute,
]
_WRAPPERS = [
    *[(lambda c, p=p: p.format(c)) for p in _PREFIXES],
    _sh_c,
    _bash_c_subst,
    _eval,
    _function,
    _base64,
]
_TRANSFORMS = _SPELLINGS[1:] + _WRAPPERS


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    base=st.sampled_from(BLOCKED),
    spelling=st.sampled_from(range(len(_SPELLINGS))),
    chain=st.lists(st.sampled_from(range(len(_WRAPPERS))), min_size=1, max_size=3),
)
def test_a_blocked_command_stays_blocked_however_it_is_wrapped(
    base: str, spelling: int, chain: list[int]
) -> None:
    assert assess(base).level == RiskLevel.BLOCKED, base
    text = _SPELLINGS[spelling](base)
    for i in chain:
        text = _WRAPPERS[i](text)
    got = assess(text)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


@settings(max_examples=150, deadline=None, derandomize=True)
@given(base=st.sampled_from(BLOCKED), transform=st.sampled_from(range(len(_TRANSFORMS))))
def test_every_single_wrapping_keeps_blocked(base: str, transform: int) -> None:
    text = _TRANSFORMS[transform](base)
    assert assess(text).level == RiskLevel.BLOCKED, text


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    data=st.sampled_from(["rm -rf /", "mkfs /dev/sda", "DROP TABLE users", "rm -rf ~"]),
    how=st.sampled_from(
        ["echo {}", "printf '%s\\n' {}", "grep -r {} .", "bash -n -c {}", "echo {} > notes.txt"]
    ),
)
def test_data_that_looks_like_a_command_is_not_one(data: str, how: str) -> None:
    text = how.format(shlex.quote(data))
    assert assess(text).level < RiskLevel.DANGEROUS, text


# --- safety-a: inline interpreter code and tools that run what they are given -------------


def _py_str(cmd: str) -> str:
    return repr(cmd)


def _js_str(cmd: str) -> str:
    return '"' + cmd.replace("\\", "\\\\").replace('"', '\\"') + '"'


# A shell command handed to another language's shell-out, in that language's own spelling.
# Each template takes the command as a string literal of the language and is then quoted
# for the shell.
_INLINE_SHELL_OUTS = [
    lambda c: "python3 -c " + shlex.quote(f"import os; os.system({_py_str(c)})"),
    lambda c: (
        "python3 -c " + shlex.quote(f"import subprocess as s; s.run({_py_str(c)}, shell=True)")
    ),
    lambda c: (
        "python3 -c "
        + shlex.quote(f"import subprocess; subprocess.call(['sh', '-c', {_py_str(c)}])")
    ),
    lambda c: "python3 -c " + shlex.quote(f"cmd = {_py_str(c)}\nimport os\nos.popen(cmd)"),
    lambda c: (
        "python3 -c "
        + shlex.quote(
            "import base64, os; os.system(base64.b64decode("
            + repr(base64.b64encode(c.encode()).decode())
            + ").decode())"
        )
    ),
    lambda c: "node -e " + shlex.quote(f"require('child_process').execSync({_js_str(c)})"),
    lambda c: (
        "node -e "
        + shlex.quote(
            "const { spawnSync } = require('child_process'); "
            f"spawnSync('sh', ['-c', {_js_str(c)}])"
        )
    ),
    lambda c: "perl -e " + shlex.quote(f"system({_js_str(c)})"),
    lambda c: "ruby -e " + shlex.quote(f"system({_js_str(c)})"),
    lambda c: "php -r " + shlex.quote(f"shell_exec({_js_str(c)});"),
    lambda c: "lua -e " + shlex.quote(f"os.execute({_js_str(c)})"),
    lambda c: "awk " + shlex.quote(f"BEGIN {{ system({_js_str(c)}) }}"),
    lambda c: "osascript -e " + shlex.quote(f"do shell script {_js_str(c)}"),
    lambda c: "gdb -nx -batch -ex " + shlex.quote("!" + c),
    lambda c: "sqlite3 /dev/null " + shlex.quote(".shell " + c),
    lambda c: "vim -c " + shlex.quote(":!" + c) + " -c ':q'",
]
_INLINE_BLOCKED = [
    "rm -rf /",
    "rm -rf ~",
    "rm -rf /etc",
    "mkfs.ext4 /dev/sda1",
    "rm -f /etc/passwd",
]


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    base=st.sampled_from(_INLINE_BLOCKED),
    how=st.sampled_from(range(len(_INLINE_SHELL_OUTS))),
    wrap=st.sampled_from(["{}", "sudo {}", "timeout 5 {}", "true && {}"]),
)
def test_a_blocked_command_run_by_inline_code_stays_blocked(base: str, how: int, wrap: str) -> None:
    text = wrap.format(_INLINE_SHELL_OUTS[how](base))
    got = assess(text)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    data=st.sampled_from(["rm -rf /", "rm -rf ~", "mkfs /dev/sda"]),
    how=st.sampled_from(
        [
            "python3 -c " + "{py}",
            "node -e {js}",
            "ruby -e {rb}",
            "perl -e {pl}",
        ]
    ),
)
def test_inline_code_that_only_prints_a_command_is_not_one(data: str, how: str) -> None:
    text = how.format(
        py=shlex.quote(f"print({_py_str(data)})"),
        js=shlex.quote(f"console.log({_js_str(data)})"),
        rb=shlex.quote(f"puts {_js_str(data)}"),
        pl=shlex.quote(f"print {_js_str(data)}"),
    )
    assert assess(text).level < RiskLevel.DANGEROUS, text


# --- composed obfuscations (issue 14, safety-b) ----------------------------------------
# Three layers, each drawn at random and stacked: prefix wrappers on the simple command
# (sudo, env, timeout…), at most one spelling of its program word (escapes, substitutions,
# variables, braces, decoders…), then up to three script wrappers (sh -c, eval, heredocs,
# functions, aliases, xargs -I, find -exec sh -c, base64/hex pipes…). Whatever the stack,
# a blocked seed stays blocked; data-only wrappings of anything stay below dangerous.

MORE_BLOCKED = [
    *BLOCKED,
    "rm -rf .",
    "rm -rf ~/",
    "rm -rf /boot",
    "rm -rf /home",
    "shred -u /etc/passwd",
    "truncate -s0 /etc/shadow",
    "chown -R nobody /",
    "wipefs -a /dev/sda",
    "find ~ -delete",
    "cp /dev/null /etc/passwd",
    "rm -rf /opt/x/../../etc",
    "rm -rf /proc/self/root/usr",
]


def _prog(cmd: str) -> tuple[str, str]:
    prog, _, rest = cmd.partition(" ")
    return prog, rest


def _hex(text: str) -> str:
    return "".join(f"\\x{ord(c):02x}" for c in text)


def _oct(text: str) -> str:
    return "".join(f"\\{ord(c):03o}" for c in text)


def _delim(code: str) -> str:
    """A heredoc delimiter that no line of `code` equals (nested heredocs stay apart)."""
    delim = "EOF"
    while delim in code.split("\n"):
        delim += "X"
    return delim


_PREFIXES_B = [
    "sudo",
    "sudo -u root",
    "env",
    "env FOO=1",
    "timeout 10",
    "nice -n 5",
    "nohup",
    "command",
    "time",
    "stdbuf -oL",
    "setsid",
    "ionice -c3",
    "chrt 0",
    "strace -f",
    "runuser -u root --",
    "systemd-run",
    "builtin command",
    "exec -a x",
]

_WORD_SPELLINGS: list[Callable[[str], str]] = [
    lambda c: f"$'{_hex(_prog(c)[0])}' {_prog(c)[1]}",
    lambda c: f"$'{_oct(_prog(c)[0])}' {_prog(c)[1]}",
    lambda c: f"$(printf '{_hex(_prog(c)[0])}') {_prog(c)[1]}",
    lambda c: "$(printf '%s' {}) {}".format(*_prog(c)),
    lambda c: "$(echo {}) {}".format(*_prog(c)),
    lambda c: "`echo {}` {}".format(*_prog(c)),
    lambda c: "X={}; $X {}".format(*_prog(c)),
    lambda c: "X={}; ${{X}} {}".format(*_prog(c)),
    lambda c: "${{UNSET_X:-{}}} {}".format(*_prog(c)),
    lambda c: "p={}; q=p; ${{!q}} {}".format(*_prog(c)),
    lambda c: "a=({}); ${{a[0]}} {}".format(*_prog(c)),
    lambda c: f'a=({c}); "${{a[@]}}"',
    lambda c: f"{_prog(c)[0][:1]}''{_prog(c)[0][1:]} {_prog(c)[1]}",
    lambda c: f'"{_prog(c)[0][:1]}"{_prog(c)[0][1:]} {_prog(c)[1]}',
    lambda c: f"{_prog(c)[0][:1]}\\{_prog(c)[0][1:]} {_prog(c)[1]}",
    lambda c: "\\" + c,
    lambda c: "/usr/bin/" + c,
    lambda c: c if any(ch in c for ch in "{,*~") else "{" + ",".join(c.split()) + "}",
    _quoted_words,
    lambda c: c if "*" in c else c.replace(" ", "${IFS}"),
    lambda c: "$(which {}) {}".format(*_prog(c)),
    lambda c: "$(command -v {}) {}".format(*_prog(c)),
    lambda c: (
        f"$(echo {base64.b64encode(_prog(c)[0].encode()).decode()} | base64 -d) {_prog(c)[1]}"
    ),
    lambda c: f"$(echo {_prog(c)[0][::-1]} | rev) {_prog(c)[1]}",
    lambda c: f"$(rev <<< {_prog(c)[0][::-1]}) {_prog(c)[1]}",
    lambda c: f"x={_prog(c)[0].upper()}; ${{x,,}} {_prog(c)[1]}",
    lambda c: f"c={shlex.quote(c)}; $c",
]

_SCRIPT_WRAPPERS: list[Callable[[str], str]] = [
    # (`$({})` around `( … )` would spell the arithmetic `$((`, so it gets spaces here.)
    *[(lambda c, p=p: p.format(c)) for p in _PREFIXES if "$({})" not in p],
    lambda c: "echo $(echo $( " + c + " ))",
    lambda c: "! ( " + c + " )",
    lambda c: "( " + c + " ) &",
    lambda c: "echo y | " + c,
    lambda c: c + " | cat",
    lambda c: "case x in x) " + c + ";; esac",
    lambda c: "until " + c + "; do :; done",
    lambda c: "cat <(" + c + ")",
    _sh_c,
    lambda c: "bash -c " + shlex.quote(c),
    _bash_c_subst,
    _eval,
    lambda c: f'a={shlex.quote(c[: len(c) // 2])}; b={shlex.quote(c[len(c) // 2 :])}; eval "$a$b"',
    _function,
    lambda c: "function g { " + c + "; }\ng",
    _base64,
    lambda c: 'bash -c "$(echo ' + base64.b64encode(c.encode()).decode() + ' | base64 --decode)"',
    lambda c: "echo " + c.encode().hex() + " | xxd -r -p | sh",
    lambda c: "bash <<< " + shlex.quote(c),
    lambda c: f"sh <<'{_delim(c)}'\n{c}\n{_delim(c)}",
    lambda c: "bash <<{}\n{}\n{}".format(
        _delim(c), c.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`"), _delim(c)
    ),
    lambda c: "echo " + shlex.quote(c) + " | sh",
    lambda c: "printf '%s\\n' " + shlex.quote(c) + " | bash",
    lambda c: "source <(echo " + shlex.quote(c) + ")",
    lambda c: ". <(printf '%s' " + shlex.quote(c) + ")",
    lambda c: "shopt -s expand_aliases\nalias zz=" + shlex.quote(c) + "\nzz",
    lambda c: "$0 -c " + shlex.quote(c),
    lambda c: "$BASH -c " + shlex.quote(c),
    lambda c: "$SHELL -c " + shlex.quote(c),
    lambda c: "parallel ::: " + shlex.quote(c),
    lambda c: "echo " + shlex.quote(shlex.quote(c)) + " | xargs -I{} sh -c {}",
    lambda c: "find . -maxdepth 0 -exec sh -c " + shlex.quote(c) + " \\;",
    lambda c: "su -c " + shlex.quote(c),
    lambda c: "set -- " + shlex.quote(c) + '; eval "$1"',
    lambda c: "script -qc " + shlex.quote(c) + " /dev/null",
    lambda c: "nohup sh -c " + shlex.quote(c) + " &",
    lambda c: "tmux new -d " + shlex.quote(c),
    lambda c: "watch -n1 " + shlex.quote(c),
]


@st.composite
def _composed_blocked(draw: st.DrawFn) -> str:
    seed = draw(st.sampled_from(MORE_BLOCKED))
    text = seed
    for prefix in draw(st.lists(st.sampled_from(_PREFIXES_B), max_size=2)):
        text = f"{prefix} {text}"
    spelling = draw(st.sampled_from([None, *range(len(_WORD_SPELLINGS))]))
    if spelling is not None:
        text = _WORD_SPELLINGS[spelling](text)
    for i in draw(st.lists(st.sampled_from(range(len(_SCRIPT_WRAPPERS))), max_size=3)):
        if text.rsplit("\n", 1)[-1].startswith("EOF"):
            text += "\n"  # a heredoc's closing line must stand alone
        text = _SCRIPT_WRAPPERS[i](text)
    return text


@settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(text=_composed_blocked())
def test_composed_wrappers_spellings_and_obfuscations_keep_blocked(text: str) -> None:
    got = assess(text)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


# Wrappers that hand a command's text on as text: whatever is inside stays data.
_DATA_WRAPPERS: list[Callable[[str], str]] = [
    lambda c: "echo " + shlex.quote(c),
    lambda c: "printf '%s\\n' " + shlex.quote(c),
    lambda c: "grep -rn -- " + shlex.quote(c) + " .",
    lambda c: "rg -F -- " + shlex.quote(c) + " docs",
    lambda c: "bash -n -c " + shlex.quote(c),
    lambda c: "echo " + shlex.quote(c) + " | wc -c",
    lambda c: f"cat <<'{_delim(c)}'\n{c}\n{_delim(c)}",
    lambda c: "# " + c.replace("\n", " "),
    lambda c: "true # " + c.replace("\n", " "),
    lambda c: "echo " + shlex.quote(c) + " | base64",
    lambda c: "printf '%s' " + shlex.quote(c) + " | grep -c rm",
]
# Script wrappers that keep data as data (no substitution turns the text into a command).
_TRANSPARENT: list[Callable[[str], str]] = [
    lambda c: "true; " + c,
    lambda c: "true && " + c,
    lambda c: "( " + c + " )",
    lambda c: "if true; then " + c + "; fi" if "\n" not in c else c,
    _sh_c,
    _eval,
    _function,
    lambda c: "bash <<< " + shlex.quote(c),
]


@st.composite
def _data_only(draw: st.DrawFn) -> str:
    inner = draw(_composed_blocked())
    text = draw(st.sampled_from(_DATA_WRAPPERS))(inner)
    for i in draw(st.lists(st.sampled_from(range(len(_TRANSPARENT))), max_size=2)):
        text = _TRANSPARENT[i](text)
    return text


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(text=_data_only())
def test_blocked_text_used_only_as_data_stays_below_dangerous(text: str) -> None:
    got = assess(text)
    assert got.level < RiskLevel.DANGEROUS, f"{text!r} -> {got.level.label} {got.findings}"


# --- safety-s: more wrappers, the shell-level mechanisms of issue 14, Windows shells ------
# Each family below is also checked the other way round (`test_each_property_needs_its_
# mechanism`): with the mechanism switched off, the same text is no longer blocked, so
# these properties hold because of the mechanism and not by accident.


def _toggle_case(c: str) -> str:
    prog, rest = _prog(c)
    return f"x={prog.swapcase()}; ${{x~~}} {rest}"


_MORE_WRAPPERS: list[Callable[[str], str]] = [
    lambda c: "doas " + c,
    lambda c: "doas -u root " + c,
    lambda c: "stdbuf -oL -eL " + c,
    lambda c: "sudo FOO=1 " + c,
    lambda c: "sudo -E env PATH=/usr/bin " + c,
    lambda c: "timeout -s KILL 5 nice -n 19 " + c,
    # (-0: xargs reads the text as it is; without it, it would undo quotes first)
    lambda c: "printf '%s\\0' " + shlex.quote(c) + " | xargs -0 -I{} sh -c '{}'",
    lambda c: "printf '%s\\0' " + shlex.quote(c) + " | xargs -0 -I % bash -c %",
    lambda c: "alias py3='bash -s'; echo " + shlex.quote(c) + " | py3",
    lambda c: "alias node='sh -s'\nnode <<< " + shlex.quote(c),
    lambda c: "alias zz=" + shlex.quote(c) + "\nzz",
    lambda c: f"g() {{ {c}; }}\ng\ng",
    lambda c: f"a() {{ {c}; }}; b() {{ a; }}; b",
    lambda c: "function h { " + c + "; }; h",
    lambda c: "BASH_ENV=/dev/stdin bash -c true <<< " + shlex.quote(c),
    lambda c: "env BASH_ENV=/dev/stdin sh -c : <<< " + shlex.quote(c),
    lambda c: "python3 <(echo " + shlex.quote(f"import os; os.system({c!r})") + ")",
    lambda c: "ruby <(printf '%s' " + shlex.quote(f"system({_js_str(c)})") + ")",
    lambda c: "docker exec -it app sh -c " + shlex.quote(c),
    lambda c: "kubectl exec pod -- sh -lc " + shlex.quote(c),
    lambda c: "kubectl run x --image=busybox --restart=Never -- sh -lc " + shlex.quote(c),
    lambda c: "ssh -o ProxyCommand=" + shlex.quote(c) + " host",
    lambda c: "scp -o ProxyCommand=" + shlex.quote(c) + " a host:b",
    lambda c: "sftp -oLocalCommand=" + shlex.quote(c) + " -oPermitLocalCommand=yes host",
    lambda c: "git -c core.pager=" + shlex.quote(c) + " log",
    lambda c: "sed -n " + shlex.quote("1e " + c) + " /etc/hostname",
    lambda c: "{ ( " + c + " ); }",
    lambda c: "until " + c + "; do break; done",
    lambda c: "env -S " + shlex.quote(c),
    lambda c: "printf '" + _hex(c) + "' | sh",
]
_PROGRAM_ONLY = frozenset(range(6))  # the first six wrappers above run a program
_MORE_SPELLINGS: list[Callable[[str], str]] = [
    _toggle_case,
    lambda c: " ".join("$'" + w + "'" for w in c.split()),
    lambda c: " ".join(w[:1] + '""' + w[1:] for w in c.split()),
    lambda c: " ".join(w[:1] + "''" + w[1:] for w in c.split()),
    lambda c: " ".join("\\" + w if w[0].isalpha() else w for w in c.split()),
    lambda c: f"x={_prog(c)[0].upper()}; ${{x,,}} {_prog(c)[1]}",
    lambda c: f'x={_prog(c)[0]}; "${{x@L}}" {_prog(c)[1]}',
    lambda c: f"x=_{_prog(c)[0]}; ${{x#_}} {_prog(c)[1]}",
    lambda c: f"x={_prog(c)[0]}.bak; ${{x%.bak}} {_prog(c)[1]}",
    lambda c: f"x=abc; ${{x/abc/{_prog(c)[0]}}} {_prog(c)[1]}",
    lambda c: f"$(echo {_prog(c)[0].encode().hex()} | xxd -r -p) {_prog(c)[1]}",
    lambda c: f"$(printf '%b' '{_oct(_prog(c)[0])}') {_prog(c)[1]}",
]
_SIMPLE_BLOCKED = [
    "rm -rf /",
    "rm -rf ~",
    "rm -f /etc/passwd",
    "mkfs.ext4 /dev/sda1",
    "dd if=/dev/zero of=/dev/sda",
    "chmod -R 777 /",
    "find / -delete",
]


@settings(max_examples=250, deadline=None, derandomize=True)
@given(
    base=st.sampled_from(_SIMPLE_BLOCKED),
    spelling=st.sampled_from([None, *range(len(_MORE_SPELLINGS))]),
    first=st.sampled_from(range(len(_MORE_WRAPPERS))),
    second=st.sampled_from([None, *range(len(_WRAPPERS))]),
)
def test_more_wrappers_and_spellings_keep_blocked(
    base: str, spelling: int | None, first: int, second: int | None
) -> None:
    """One spelling of the command, one of the wrappers above, then (maybe) one of the
    generic script wrappers around it: two wrappers composed."""
    text = base if spelling is None else _MORE_SPELLINGS[spelling](base)
    text = _MORE_WRAPPERS[first](text)
    if second is not None:
        text = _WRAPPERS[second](text)
    got = assess(text)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    base=st.sampled_from(_SIMPLE_BLOCKED),
    a=st.sampled_from(range(len(_MORE_WRAPPERS))),
    b=st.sampled_from(range(len(_MORE_WRAPPERS))),
)
def test_two_of_the_new_wrappers_composed_keep_blocked(base: str, a: int, b: int) -> None:
    inner = _MORE_WRAPPERS[a](base)
    # doas/stdbuf/timeout take a program, not `VAR=value` (only sudo and env do).
    assume(not (b in _PROGRAM_ONLY and re.match(r"[A-Z_]+=", inner)))
    text = _MORE_WRAPPERS[b](inner)
    got = assess(text)
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


# Windows shells: case does not matter there, and each has its own wrappers and escapes.
_PS_BLOCKED = [
    "Remove-Item -Recurse -Force C:\\",
    "Remove-Item -Recurse -Force $HOME",
    "Format-Volume -DriveLetter C",
    "Clear-Disk -Number 0 -RemoveData",
    "Remove-Item -Recurse -Force C:\\Windows\\System32",
]
_CMD_BLOCKED = [
    "rd /s /q C:\\",
    "format c: /q",
    "del /f /s /q C:\\*",
    "rmdir /s /q %USERPROFILE%",
    "vssadmin delete shadows /all /quiet",
]


def _alternate_case(c: str) -> str:
    return "".join(ch.upper() if i % 2 else ch.lower() for i, ch in enumerate(c))


def _utf16_b64(c: str) -> str:
    return base64.b64encode(c.encode("utf-16-le")).decode()


def _ps_quote(c: str) -> str:
    return "'" + c.replace("'", "''") + "'"


_PS_WRAPPERS: list[Callable[[str], str]] = [
    _alternate_case,
    lambda c: c.upper(),
    lambda c: f"powershell -NoProfile -Command {_ps_quote(c)}",
    lambda c: f"pwsh -c {_ps_quote(c)}",
    lambda c: f"Invoke-Expression {_ps_quote(c)}",
    lambda c: f"iex {_ps_quote(c)}",
    lambda c: "& { " + c + " }",
    lambda c: f"powershell -EncodedCommand {_utf16_b64(c)}",
    lambda c: c[:2] + "`" + c[2:] if re.match(r"[A-Za-z]{3}", c) else c,
    # (a backtick inside single quotes is a literal: the name is joined without them)
    lambda c: (
        "& ('"
        + c.split()[0].replace("`", "")[:3]
        + "'+'"
        + c.split()[0].replace("`", "")[3:]
        + "') "
        + _prog(c)[1]
        if re.match(r"[A-Za-z`-]+ ", c)
        else c
    ),
    # (cmd hands quotes on to powershell.exe as they are: only plain text goes that way)
    lambda c: f'cmd /c powershell -c "{c}"' if not re.search("['\"]", c) else c,
    lambda c: f"Get-Date; {c}",
    lambda c: "if ($true) { " + c + " }",
    lambda c: "1 | ForEach-Object { " + c + " }",
    lambda c: "function f { " + c + " }; f",
]
_CMD_WRAPPERS: list[Callable[[str], str]] = [
    _alternate_case,
    lambda c: c.upper(),
    lambda c: c[:1] + "^" + c[1:] if "^" not in c else c,
    lambda c: f'cmd /c "{c}"',
    lambda c: f"cmd.exe /k {c}",
    lambda c: f"call {c}",
    lambda c: f"echo x & {c}",
    lambda c: f"cd \\ && {c}",
    lambda c: f"({c})",
    lambda c: f"if 1==1 {c}",
    lambda c: f"for %i in (1) do {c}",
    # (start launches a program: not a built-in such as if, for or cd)
    lambda c: f"start /b {c}" if not re.match(r"(?i)(if|for|cd|echo|set)\b|\(", c) else c,
    lambda c: f"set x={_prog(c)[0]}\n%x% {_prog(c)[1]}" if re.match(r"\w+ ", c) else c,
]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    base=st.sampled_from(_PS_BLOCKED),
    chain=st.lists(st.sampled_from(range(len(_PS_WRAPPERS))), min_size=1, max_size=2),
)
def test_a_blocked_powershell_command_stays_blocked(base: str, chain: list[int]) -> None:
    assert assess(base, "powershell").level == RiskLevel.BLOCKED, base
    text = base
    for i in chain:
        text = _PS_WRAPPERS[i](text)
    got = assess(text, "powershell")
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    base=st.sampled_from(_CMD_BLOCKED),
    chain=st.lists(st.sampled_from(range(len(_CMD_WRAPPERS))), min_size=1, max_size=2),
)
def test_a_blocked_cmd_command_stays_blocked(base: str, chain: list[int]) -> None:
    assert assess(base, "cmd").level == RiskLevel.BLOCKED, base
    text = base
    for i in chain:
        if "\n" in text and i > 2:
            continue  # those wrap one line; the variable spelling spans two
        text = _CMD_WRAPPERS[i](text)
    got = assess(text, "cmd")
    assert got.level == RiskLevel.BLOCKED, f"{text!r} -> {got.level.label} {got.findings}"


# --- each property needs its mechanism ---------------------------------------------------


def _off_handler(mp: pytest.MonkeyPatch, *programs: str) -> None:
    from aintern_ls.safety import registry

    for p in programs:
        mp.setitem(registry.HANDLERS, p, lambda cmd: None)


def _off_attr(target: str, attr: str, value: object) -> Callable[[pytest.MonkeyPatch], None]:
    def off(mp: pytest.MonkeyPatch) -> None:
        import importlib

        mp.setattr(importlib.import_module(target), attr, value)

    return off


def _brace_off(mp: pytest.MonkeyPatch) -> None:
    mp.setattr("aintern_ls.safety.dispatch.brace_expand", lambda w, s: w)
    mp.setattr("aintern_ls.safety.bash._brace_commands", lambda *a: None)


def _bash_walker() -> type:
    from aintern_ls.safety import bash

    return bash._Walker


def _no_call(self: object, name: str, args: object, stdin: object) -> object:
    from aintern_ls.safety.context import Info

    return Info()


_MECHANISMS: list[tuple[str, Callable[[pytest.MonkeyPatch], None], str]] = [
    ("sudo", lambda mp: _off_handler(mp, "sudo", "doas"), "sudo rm -rf /"),
    ("env", lambda mp: _off_handler(mp, "env"), "env FOO=1 rm -rf /"),
    ("timeout", lambda mp: _off_handler(mp, "timeout"), "timeout 10 rm -rf /"),
    ("nice", lambda mp: _off_handler(mp, "nice"), "nice -n 5 rm -rf /"),
    ("stdbuf", lambda mp: _off_handler(mp, "stdbuf"), "stdbuf -oL rm -rf /"),
    ("xargs", lambda mp: _off_handler(mp, "xargs"), "echo / | xargs rm -rf"),
    ("sh -c", lambda mp: _off_handler(mp, "sh", "bash"), "sh -c 'rm -rf /'"),
    ("eval", lambda mp: _off_handler(mp, "eval"), "eval 'rm -rf /'"),
    ("alias", lambda mp: _off_handler(mp, "alias"), "alias x='bash -s'\necho 'rm -rf ~' | x"),
    (
        "functions",
        lambda mp: mp.setattr(_bash_walker(), "_call", _no_call),
        'f() { rm -rf "$1"; }; f /',  # (a body alone is judged where it is defined)
    ),
    ("base64", lambda mp: _off_handler(mp, "base64"), _base64("rm -rf /")),
    ("printf", lambda mp: _off_handler(mp, "printf"), "printf 'rm -rf /' | sh"),
    (
        "brace expansion",
        _brace_off,
        "{rm,-rf,/}",
    ),
    (
        "run-time program name",
        _off_attr("aintern_ls.safety.dispatch", "_as_if_destructive", lambda *a, **k: None),
        "$PROG -rf /",
    ),
    (
        "case toggle",
        _off_attr("aintern_ls.safety.bash", "_CASE_TOGGLE", __import__("re").compile(rb"(?!)")),
        "x=RM; ${x~~} -rf /",
    ),
]


@pytest.mark.parametrize("name,switch_off,text", _MECHANISMS, ids=[m[0] for m in _MECHANISMS])
def test_each_property_needs_its_mechanism(
    name: str, switch_off: Callable[[pytest.MonkeyPatch], None], text: str
) -> None:
    from aintern_ls.safety import analyser

    uncached = analyser._assess_cached.__wrapped__
    assert uncached(text, "bash", None).level == RiskLevel.BLOCKED, text
    with pytest.MonkeyPatch.context() as mp:
        switch_off(mp)
        got = uncached(text, "bash", None)
    assert got.level < RiskLevel.BLOCKED, f"{name}: still blocked without it: {got.findings}"
