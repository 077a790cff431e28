"""Property tests (issue 14): a blocked command stays blocked however it is wrapped, quoted
or spelled."""

from __future__ import annotations

import base64
import shlex
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aintern_ls.safety import RiskLevel, assess, budget


@pytest.fixture(autouse=True, scope="module")
def _roomy_parse_budget() -> Iterator[None]:
    """These tests are about what the analyser sees through, not about time: a loaded
    machine must not turn a deep composition into "too complex" (the budget has its own
    tests in test_safety_limits)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(budget, "BASE_SECONDS", 2.0)
        yield


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
