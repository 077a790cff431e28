"""Property tests (issue 14): a blocked command stays blocked however it is wrapped, quoted
or spelled."""

from __future__ import annotations

import base64
import shlex

from hypothesis import HealthCheck, given, settings
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
