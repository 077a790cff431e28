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
