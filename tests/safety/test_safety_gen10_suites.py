"""Commands from other agents' own command-gate test suites (gen10): the families their
tune rows exposed, each kept when wrapped, and the look-alikes that must stay low.

- the dynamic loader's injection variables set for the rest of the shell (`export
  LD_PRELOAD=/tmp/x.so`, `declare -x LD_AUDIT=…`): every later program loads the library, as
  the one-command prefix `LD_PRELOAD=… ls` does (critical, `preload`);
- sed's `e`: `s/PAT/REP/e` runs the whole edited line and a bare `e` runs the pattern space,
  so what runs is input data the text does not show (critical, `config-exec`), unless the
  substitution replaces the whole line with known text (then that text is judged);
- tools that run or write through an option: `rg --hostname-bin PROG` runs PROG like
  `--pre`, `tree -o FILE` writes FILE, `sed -f SCRIPT` runs a script file, BSD `sed -I`
  edits in place.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, M, S


def _wrapped(command: str) -> list[str]:
    quoted = command.replace("'", "'\"'\"'")
    builtin = command.startswith(("export ", "declare ", "LD_"))  # sudo/env cannot run these
    return [
        command,
        f"sudo {command}" if not builtin else f"sudo bash -c '{quoted}'",
        f"env FOO=1 {command}" if not builtin else f"env FOO=1 sh -c '{quoted}'",
        f"sh -c '{quoted}'",
        f"bash -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {command}; }}; f",
        f"true && {command}",
    ]


PRELOAD = [
    "export LD_PRELOAD=/tmp/evil.so",
    "export LD_PRELOAD=./libhook.so",
    "declare -x LD_AUDIT=/tmp/a.so",
    "export DYLD_INSERT_LIBRARIES=/tmp/x.dylib",
    "LD_PRELOAD=/dev/shm/x.so; export LD_PRELOAD",
    "export LD_PRELOAD=$(mktemp)",
]


@pytest.mark.parametrize("command", PRELOAD)
def test_loader_injection_for_the_rest_of_the_shell_is_critical(command: str) -> None:
    for form in _wrapped(command):
        a = assess(form, "bash")
        assert a.level >= C, form
        assert "preload" in {f.rule for f in a.findings}, form


@pytest.mark.parametrize(
    "command",
    [
        "export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "export LD_LIBRARY_PATH=/opt/lib",
        "unset LD_PRELOAD",
        "echo export LD_PRELOAD=/tmp/evil.so",
        "grep -r LD_PRELOAD /etc",
        "# export LD_PRELOAD=/tmp/evil.so",
    ],
)
def test_loader_look_alikes_stay_low(command: str) -> None:
    assert assess(command, "bash").level <= M, command


SED_RUNS_INPUT = [
    'sed "s/foo/bar/e" file.txt',
    "sed 's/^/echo /e' names.txt",
    "sed 's/.*/echo &/e' list",
    "sed e cmds.txt",
    "sed -n '1e' f",
    "sed '1,5e' f",
    "sed 's/a/b/e;p' f",
    "gsed -E 's/(x)/\\1/e' f",
]


@pytest.mark.parametrize("command", SED_RUNS_INPUT)
def test_sed_running_its_input_is_critical(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level >= C, form


@pytest.mark.parametrize(
    "command,expected",
    [
        # the whole line replaced by known text: that text is what runs
        ("sed 's/.*/date/e' f", M),
        ("sed 's/.*/rm -rf \\//e' f", B),
        ("sed '1e rm -rf ~' f", B),
        # no `e` command: data only
        ("sed -n '/^e$/p' f", S),
        ("sed 'y/abc/xye/' f", S),
        ("sed 's/^e//' f", S),
        ("sed -e 's/a/b/' file.txt", S),
        ("echo sed s/x/y/e", S),
        ("grep -n 's/x/y/e' notes.md", S),
    ],
)
def test_sed_e_look_alikes(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("rg --hostname-bin hostname pattern .", M),
        ("rg --hostname-bin='rm -rf ~' x .", B),
        ("rg -n pattern .", S),
        ("tree -o output.txt", M),
        ("tree --output out.txt", M),
        ("tree -L 2 src", S),
        ("sed -f script.sed file.txt", M),
        ("sed --file=script.sed file.txt", M),
        ("sed -Ibak 's/foo/bar/' file.txt", M),
        ("sed -I .bak 's/foo/bar/' file.txt", M),
        ("sed -n '1,10p' file.txt", S),
        ("sed -E 's/a+/b/' file.txt", S),
    ],
)
def test_tools_that_run_or_write_through_an_option(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


# Build tools that run a program named in an option or a variable: go's -exec/-toolexec/
# -vettool, cargo's --config runner/linker/rustc-wrapper keys and the RUSTC_WRAPPER /
# CARGO_TARGET_<triple>_RUNNER variables. The program is judged as code.
BUILD_RUNS_BLOCKED = [
    'go test -exec "rm -rf ~" ./...',
    'go build -toolexec "rm -rf ~" .',
    "go vet -vettool='rm -rf /' ./...",
    "cargo --config \"target.x86_64-unknown-linux-gnu.runner='rm -rf ~'\" test",
    'cargo build --config \'target.x86_64-unknown-linux-gnu.runner = ["sh", "-c", "rm -rf ~"]\'',
    'cargo build --config build.rustc-wrapper="rm -rf /"',
    'RUSTC_WRAPPER="rm -rf ~" cargo build',
    'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="rm -rf ~" cargo run',
]


@pytest.mark.parametrize("command", BUILD_RUNS_BLOCKED)
def test_build_tool_running_a_destructive_program_is_blocked(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level == B, form


@pytest.mark.parametrize(
    "command,expected",
    [
        ("go test -exec /tmp/wrap ./...", C),  # a program from a temporary place
        ("cargo run --config target.x86_64-unknown-linux-gnu.runner=/tmp/evil.sh", C),
        # a local wrapper the analyser cannot read, named by the tool's option: opaque
        # (HELPERS.md session-13 convention, 13:35; red team round 12) (n12u: was M)
        ("go test -toolexec=./wrap.sh ./...", C),
        ("go test -exec ./wrap.sh ./...", C),
        ("go test ./...", M),  # (a test suite run: moderate, h19's convention)
        ("go build -o bin/app .", M),
        ("cargo test", M),
        ("cargo build --config profile.release.lto=true", M),
        ("RUSTC_WRAPPER=sccache cargo build", M),
        ("CARGO_TARGET_DIR=/tmp/t cargo build", M),
        ('echo go build -toolexec "rm -rf ~" .', S),
        ("grep -rn RUSTC_WRAPPER .cargo", S),
    ],
)
def test_build_tool_program_look_alikes(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


# `${v@P}` expands $v as a prompt string, which runs the command substitutions it holds.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("v='$(rm -rf ~)'; echo \"${v@P}\"", B),
        ("v='`rm -rf /`'; printf '%s' \"${v@P}\"", B),
        ("f(){ v='$(rm -rf ~)'; echo \"${v@P}\"; }; f", B),
        ('echo "${var@P}"', C),  # the value (and what it runs) is only known at run time
        ("v='$(date)'; echo \"${v@P}\"", S),
        ("v='\\u@\\h'; echo \"${v@P}\"", S),
        ('echo "${PS1@P}"', S),
        ('echo "${var@Q}"', S),
        ("echo '${v@P}'", S),
    ],
)
def test_prompt_expansion_runs_what_the_value_holds(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


# git settings given through the environment (GIT_CONFIG_COUNT/KEY_n/VALUE_n,
# GIT_CONFIG_PARAMETERS) are applied like `git -c`; a settings file in a temporary place is
# code nobody can read here; more settings git runs (alternate refs, a URL's credential
# helper, a submodule's `!command` update, send-email's program).
GIT_ENV_BLOCKED = [
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log",
    "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log",
    "GIT_CONFIG_PARAMETERS=\"'alias.x'='!rm -rf ~'\" git x",
    "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand"
    " GIT_CONFIG_VALUE_0='rm -rf /' git fetch",
    "git -c core.alternateRefsCommand='rm -rf ~' log --alternate-refs",
    "git -c credential.https://example.com.helper='!rm -rf ~' fetch",
    "git -c submodule.lib.update='!rm -rf ~' submodule update",
]


@pytest.mark.parametrize("command", GIT_ENV_BLOCKED)
def test_git_settings_from_the_environment_are_judged(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level == B, form


@pytest.mark.parametrize(
    "command,expected",
    [
        (
            "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand "
            "GIT_CONFIG_VALUE_0='rm -rf ~'; git fetch",
            B,
        ),
        ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=/tmp/e git diff", C),
        ("git -c diff.external=/tmp/evil diff", C),
        ("GIT_CONFIG_GLOBAL=/tmp/evil.cfg git log", C),
        ("git -c sendemail.smtpServer=/tmp/x send-email x.patch", C),
        ("GIT_CONFIG_GLOBAL=/dev/null git status", S),
        ("GIT_CONFIG_NOSYSTEM=1 git status", S),
        ("git -c core.pager=less log", S),
        ("git -c submodule.lib.update=rebase submodule update", M),
        ("git -c sendemail.smtpServer=smtp.example.com send-email x.patch", M),
        (
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=bob git commit -m x",
            M,
        ),
        ("echo GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log", S),
    ],
)
def test_git_settings_look_alikes(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("yarn global list", S),
        ("yarn global ls --depth=0", S),
        ("pnpm global list", S),
        ("yarn global add typescript", M),
        ("yarn global remove typescript", M),
    ],
)
def test_global_package_listings_only_read(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command
