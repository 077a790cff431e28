"""The waiting-for-input detector: the prompt heuristic, the verdict table, the kernel
probe on real PTYs, and `RunningCommand`'s waiting state and `stop_when_waiting`."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from aintern_ls.terminal import waiting
from aintern_ls.terminal.pty import spawn_pty
from aintern_ls.terminal.runner import RunningCommand, RunRequest
from aintern_ls.terminal.waiting import (
    InputWait,
    InputWaitDetector,
    Probe,
    decide,
    last_line,
    looks_like_prompt,
    probe,
)

from .conftest import assert_gone

linux_proc = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the kernel probe reads Linux's /proc"
)


@pytest.mark.parametrize(
    "line",
    [
        "name? ",
        "Password:",
        "Password: ",
        "[sudo] password for ada: ",
        "Continue? [y/N] ",
        "Overwrite existing files [Y/n]",
        "Are you sure you want to continue connecting (yes/no/[fingerprint])? ",
        "Do you want to proceed (y/n) ",
        ">>> ",
        "PS C:\\Users\\ada> ",
        "x> ",
        "sh-5.2$ ",
        "Enter passphrase for key '/home/ada/.ssh/id_ed25519': ",
    ],
)
def test_prompt_shaped_lines(line: str) -> None:
    assert looks_like_prompt(line)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "Building module 45%",
        "Downloading numpy-2.1.0.tar.gz",
        "Compiling aintern v0.1.0",
        "[=====>        ] 40% 1.2 MB/s",
        "Step 3/7",
        "price is $5",
        "Updating password database 50%",
    ],
)
def test_lines_that_are_no_prompt(line: str) -> None:
    assert not looks_like_prompt(line)


def test_last_line_is_what_a_person_sees() -> None:
    assert last_line("done\nname? ") == "name? "
    assert last_line("done\n") == ""  # a finished line is no prompt
    assert last_line("\x1b[1;32mContinue?\x1b[0m [y/N] ") == "Continue? [y/N] "
    assert last_line("10%\r50%\rProceed? ") == "Proceed? "
    assert last_line("\x1b]0;title\x07>>> ") == ">>> "
    assert len(last_line("x" * 5000 + "? ")) == waiting.PROMPT_MAX_CHARS


ECHO_CANON = (True, True)  # a cooked terminal: what `read -p` sees
SILENT_CANON = (False, True)  # `read -s`, getpass, sudo
RAW = (False, False)  # readline, node: the line editor echoes itself


@pytest.mark.parametrize(
    ("found", "line", "modes", "has_proc", "expected"),
    [
        # the kernel says it reads the terminal: waiting, whatever the line says
        (Probe.READING, "name? ", ECHO_CANON, True, ("tty-read", False)),
        (Probe.READING, "", ECHO_CANON, True, ("tty-read", False)),
        (Probe.READING, "Password: ", SILENT_CANON, True, ("tty-read", True)),
        (Probe.READING, "", SILENT_CANON, True, ("tty-read", True)),  # read -s, no prompt
        # select/poll: only a line editor (raw mode) or a prompt-shaped line
        (Probe.POLLING, ">>> ", RAW, True, ("line-editor", False)),
        (Probe.POLLING, "", RAW, True, ("line-editor", False)),
        (Probe.POLLING, "Continue? ", ECHO_CANON, True, ("line-editor", False)),
        (Probe.POLLING, "webpack compiling", ECHO_CANON, True, None),
        # busy (sleep, a build waiting on children, a download): never
        (Probe.BUSY, "Continue? ", ECHO_CANON, True, None),
        (Probe.BUSY, "Password: ", SILENT_CANON, True, None),
        # the kernel would not say (setuid sudo): the line decides
        (Probe.UNKNOWN, "[sudo] password for ada: ", SILENT_CANON, True, ("prompt-text", True)),
        (Probe.UNKNOWN, "Building 45%", ECHO_CANON, True, None),
        # no /proc at all (macOS, Windows): the line decides
        (Probe.UNKNOWN, "Overwrite? [y/N] ", None, False, ("prompt-text", False)),
        (Probe.UNKNOWN, "Password:", None, False, ("prompt-text", True)),
        (Probe.UNKNOWN, "Compiling foo v1.0", None, False, None),
        (Probe.UNKNOWN, "", None, False, None),
    ],
)
def test_verdicts(
    found: Probe,
    line: str,
    modes: tuple[bool, bool] | None,
    has_proc: bool,
    expected: tuple[str, bool] | None,
) -> None:
    verdict = decide(found, line, modes, has_proc=has_proc)
    if expected is None:
        assert verdict is None
    else:
        assert verdict == InputWait(prompt=line, secret=expected[1], how=expected[0])


def test_fallback_detector_without_proc(tmp_path: Path) -> None:
    """Where there is no /proc the detector goes by quiet output and the last line."""
    detector = InputWaitDetector(os.getpid(), None, quiet_seconds=0.3, proc=str(tmp_path))
    now = time.monotonic()
    detector.feed(b"Installing foo\nProceed? [y/N] ")
    assert detector.check(now) is None  # not quiet yet
    later = time.monotonic() + 0.5
    assert detector.check(later) is None  # first sight: confirmed by the next probe
    state = detector.check(later + 0.2)
    assert state == InputWait(prompt="Proceed? [y/N] ", secret=False, how="prompt-text")
    assert detector.state == state
    detector.feed(b"y\r\n")  # the echo: output resumed
    assert detector.check(time.monotonic()) is None
    assert detector.check(time.monotonic() + 0.5) is None  # a finished line is no prompt
    detector.feed(b"Password: ")
    later = time.monotonic() + 0.5
    assert detector.check(later) is None
    assert detector.check(later + 0.2) == InputWait("Password: ", True, "prompt-text")
    detector.answered()  # the answer went out: quiet must start over
    assert detector.state is None
    assert detector.check(time.monotonic()) is None
    detector.feed(b"\nCompiling 3/10")
    assert detector.check(time.monotonic() + 5) is None


def test_a_prompt_still_on_its_way_is_not_reported_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The program printed `>>> ` and blocked reading the terminal, but the reader thread
    has not fed the prompt yet (a loaded machine): the empty line must not be published
    as the prompt; the wait is reported once the prompt has arrived and stayed quiet."""
    monkeypatch.setattr(waiting, "probe", lambda root, foreground, *, proc="/proc": Probe.READING)
    (tmp_path / "self" / "task").mkdir(parents=True)
    detector = InputWaitDetector(os.getpid(), None, proc=str(tmp_path))
    start = time.monotonic()
    assert detector.check(start + 0.5) is None  # reading, nothing printed yet: unconfirmed
    detector.feed(b">>> ")  # the late chunk
    assert detector.check(time.monotonic() + 0.5) is None
    assert detector.check(time.monotonic() + 0.7) == InputWait(">>> ", False, "tty-read")
    assert detector.state == InputWait(">>> ", False, "tty-read")


def test_unread_terminal_output_means_not_quiet(tmp_path: Path) -> None:
    """Bytes waiting in the terminal for the reader are output still arriving."""
    master, slave = os.openpty()
    try:
        detector = InputWaitDetector(os.getpid(), master, quiet_seconds=0.3, proc=str(tmp_path))
        os.write(slave, b"Proceed? [y/N] ")
        for _ in range(50):  # the line discipline hands bytes over asynchronously
            if waiting._unread_bytes(master) > 0:
                break
            time.sleep(0.01)
        assert waiting._unread_bytes(master) == len(b"Proceed? [y/N] ")
        later = time.monotonic() + 0.5
        assert detector.check(later) is None
        assert detector.check(later + 0.2) is None  # still unread: never a verdict
        detector.feed(os.read(master, 100))
        later = time.monotonic() + 0.5
        assert detector.check(later) is None
        assert detector.check(later + 0.2) == InputWait("Proceed? [y/N] ", False, "prompt-text")
    finally:
        os.close(master)
        os.close(slave)


def test_the_probe_backs_off_while_a_quiet_spell_lasts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []

    def counting_probe(root: int, foreground: int | None, *, proc: str = "/proc") -> Probe:
        calls.append(time.monotonic())
        return Probe.BUSY

    monkeypatch.setattr(waiting, "probe", counting_probe)
    (tmp_path / "self" / "task").mkdir(parents=True)  # a /proc, as far as it looks
    detector = InputWaitDetector(os.getpid(), None, proc=str(tmp_path))
    start = time.monotonic()
    for step in range(100):  # ten seconds of quiet, checked every 0.1 s
        assert detector.check(start + 0.3 + step * 0.1) is None
    assert 5 <= len(calls) <= 20  # not a hundred probes
    detector.feed(b"more")
    assert detector.check(time.monotonic() + 0.35) is None
    assert len(calls) >= 6  # new output: probed again at once


def test_a_process_proc_hides_counts_as_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setuid program (sudo) keeps syscall and wchan from us: no verdict of its own."""

    def denied(path: str) -> str | None:
        if path.endswith(("/syscall", "/wchan")):
            raise PermissionError(path)
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()

    monkeypatch.setattr(waiting, "_read", denied)
    assert waiting._task_probe(os.getpid(), str(os.getpid()), {}) is (Probe.UNKNOWN)


async def _probe_pty(argv: list[str], expect: Probe, settle: float) -> None:
    pty = spawn_pty(argv, os.getcwd(), dict(os.environ, TERM="dumb"))
    try:
        await asyncio.sleep(settle)
        fd = getattr(pty, "fd", None)
        fg = os.tcgetpgrp(fd) if fd is not None else None
        assert probe(pty.pid, fg) is expect
    finally:
        import signal

        os.killpg(pty.pid, signal.SIGKILL)
        for _ in range(100):
            if pty.poll() is not None:
                break
            await asyncio.sleep(0.02)
        pty.close()
        assert_gone([pty.pid])


@linux_proc
async def test_probe_sees_a_shell_builtin_reading_the_terminal() -> None:
    await _probe_pty(["bash", "-c", 'read -p "name? " n'], Probe.READING, 0.5)


@linux_proc
async def test_probe_sees_a_child_reading_the_terminal() -> None:
    await _probe_pty(["bash", "-c", "cat; echo done"], Probe.READING, 0.5)


@linux_proc
async def test_probe_sees_sleep_as_busy() -> None:
    await _probe_pty(["bash", "-c", "sleep 5; echo done"], Probe.BUSY, 0.5)


_POLLERS = {
    "select-stdin": ("import select; select.select([0], [], [])", Probe.POLLING),
    "poll-stdin": (
        "import select; p = select.poll(); p.register(0, select.POLLIN); p.poll()",
        Probe.POLLING,
    ),
    "epoll-stdin": (
        "import select; e = select.epoll(); e.register(0, select.EPOLLIN); e.poll()",
        Probe.POLLING,
    ),
    # stdin is a terminal in every case, but these wait on something else: busy
    "select-pipe": ("import os, select; r, w = os.pipe(); select.select([r], [], [])", Probe.BUSY),
    "poll-pipe": (
        "import os, select; r, w = os.pipe(); p = select.poll(); p.register(r, select.POLLIN); "
        "p.poll()",
        Probe.BUSY,
    ),
    "epoll-socket": (
        "import select, socket; a, b = socket.socketpair(); e = select.epoll(); "
        "e.register(a.fileno(), select.EPOLLIN); e.poll()",
        Probe.BUSY,
    ),
}


@linux_proc
@pytest.mark.parametrize("case", sorted(_POLLERS))
async def test_probe_knows_what_a_poller_waits_on(case: str) -> None:
    code, expect = _POLLERS[case]
    await _probe_pty([sys.executable, "-c", code], expect, 0.8)


@linux_proc
async def test_probe_sees_a_line_editor_polling() -> None:
    await _probe_pty([sys.executable, "-i", "-q"], Probe.POLLING, 1.5)


async def _events_of(command: str, seconds: float) -> tuple[list[InputWait | None], object]:
    events: list[InputWait | None] = []
    running = RunningCommand(RunRequest(command, timeout_seconds=30), on_waiting=events.append)
    running.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not running.done:
        if running.waiting is not None:
            running.write("forty-two\r")
        await asyncio.sleep(0.05)
    return events, await running.wait()


async def test_running_command_reports_and_clears_the_wait() -> None:
    events, result = await _events_of('read -p "answer? " a; echo "got $a"', 20)
    assert result.exit_code == 0  # type: ignore[attr-defined]
    assert "got forty-two" in result.output  # type: ignore[attr-defined]
    assert events[0] == InputWait("answer? ", False, "tty-read") and events[-1] is None
    assert all((a is None) != (b is None) for a, b in itertools.pairwise(events))


#: command, what to type at each prompt, expected (prompt, secret), text in the output
_PROMPTS = {
    "python-input": (
        "python3 -c \"print('got', input('x> '))\"",
        "forty-two\r",
        ("x> ", False),
        "got forty-two",
    ),
    "getpass": (
        'python3 -c "import getpass; print(len(getpass.getpass()))"',
        "hunter2\r",
        ("Password: ", True),
        "7",
    ),
    "read-one-key": (
        'read -n 1 -p "Continue? [y/N] " k; echo; echo "key=$k"',
        "y",
        ("Continue? [y/N] ", False),
        "key=y",
    ),
    "cat": ("cat | tr a-z A-Z", "shout\r\x04", ("", False), "SHOUT"),
    "python-repl": ("python3 -q -i", "print(6 * 7)\rexit()\r", (">>> ", False), "42"),
    "node-repl": ("node", "6 * 7\r.exit\r", ("> ", False), "42"),
    "zsh-read": (
        'zsh -c \'read "?Name: " n; echo "hello $n"\'',
        "Ada\r",
        ("Name: ", False),
        "hello Ada",
    ),
}


@pytest.mark.parametrize("case", sorted(_PROMPTS))
async def test_real_prompts_are_seen_and_answered(case: str) -> None:
    command, keys, (prompt, secret), expected = _PROMPTS[case]
    program = {"node-repl": "node", "zsh-read": "zsh"}.get(case, "bash")
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    events: list[InputWait | None] = []
    running = RunningCommand(RunRequest(command, timeout_seconds=30), on_waiting=events.append)
    running.start()
    deadline = time.monotonic() + 20
    while running.waiting is None and time.monotonic() < deadline and not running.done:
        await asyncio.sleep(0.05)
    state = running.waiting
    assert state is not None, f"{case}: never seen waiting"
    assert (state.prompt, state.secret) == (prompt, secret)
    running.write(keys)
    result = await running.wait()
    assert expected in result.output, result.output
    assert not result.timed_out
    assert events[0] == state and events[-1] is None


#: Quiet for seconds, stdin a terminal, yet nobody is asked anything.
_NEVER_WAITING = [
    "sleep 2.5; echo done",
    "for i in 1 2 3; do sleep 0.8; echo step $i; done",  # a slow build
    "printf 'Downloading: '; sleep 2; echo ok",  # prompt-shaped, but sleeping
    "python3 -c \"import time; print('Continue? ', end='', flush=True); time.sleep(2)\"",
    "bash -c 'sleep 2' & wait",  # waiting for children
    'python3 -c "import socket; a, b = socket.socketpair(); a.settimeout(2); '
    "print('Waiting for server:', end='', flush=True)\n"
    'try: a.recv(1)\nexcept OSError: pass"',  # network wait, prompt-shaped line
    "node -e \"setTimeout(() => console.log('served'), 2000)\"",  # an event loop, idle
    "node -e \"process.stdin.on('data', () => {}); console.log('watching files');"
    ' setTimeout(() => process.exit(0), 2000)"',  # polls the terminal, but no prompt
]


async def test_quiet_commands_are_never_waiting() -> None:
    commands = [c for c in _NEVER_WAITING if shutil.which("node") or not c.startswith("node")]

    async def one(command: str) -> tuple[str, list[InputWait | None], int | None]:
        events: list[InputWait | None] = []
        running = RunningCommand(RunRequest(command, timeout_seconds=30), on_waiting=events.append)
        result = await running.wait()
        return command, events, result.exit_code

    for command, events, code in await asyncio.gather(*(one(c) for c in commands)):
        assert events == [], command
        assert code == 0, command


async def test_stop_when_waiting_ends_the_run_with_the_prompt() -> None:
    running = RunningCommand(
        RunRequest('echo hi; read -s -p "Password: " p', timeout_seconds=60),
        stop_when_waiting=1.0,
    )
    started = time.monotonic()
    result = await running.wait()
    assert time.monotonic() - started < 20
    assert result.cancelled and not result.timed_out and result.exit_code is None
    assert result.waiting_for_input == InputWait("Password: ", True, "tty-read")
    assert result.to_json()["waitingForInput"] == {"prompt": "Password: ", "secret": True}
    assert running.pid is not None
    assert_gone([running.pid])
