"""The long tail of living-off-the-land programs: what their risky options do.

Public catalogues of abusable binaries (GTFOBins for Unix, LOLBAS for Windows, LOOBins for
macOS) list, per program, the options that run a command, run code, write or upload a file,
download, or load a library. The analyser's other knowledge modules model the common
programs in depth; this module holds compact tables for programs nobody else handles, in
our own words: program -> option form -> what it does. Every handler judges the payload
with the machinery the rest of the analyser uses (a command run through an option is
judged as that command, code handed over is read by `inline`, a file written goes through
`paths.write_target`), so `yt-dlp --exec 'rm -rf ~'` is blocked like the `rm` it runs, and
the same program doing its ordinary job stays moderate.

Table rows read `names | options | kind`:

- names: the program names (command words after `command_name`);
- options: `-x`, `--long` (takes a value: `-x V`, `-xV`, `--long=V`, `--long V`), Windows
  `/opt` and `-opt` (also `/opt:V`); `@` means the first operand, `@2` the second, and `@@`
  the operands from the first one on (a wrapped command line);
- kind: what the program does with that value (see `_KINDS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# The other knowledge modules register first: a program one of them models is theirs, and
# `handles` refuses a second claim, so a clash shows at import time.
from aintern_ls.safety import (  # noqa: F401
    allowlist,
    files,
    git,
    infra,
    inline,
    network,
    system,
    toolchains,
    windows,
    wrappers,
)
from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import C, M
from aintern_ls.safety.paths import classify_path, is_secret, write_target
from aintern_ls.safety.registry import handles, run_config_command, skip_options
from aintern_ls.safety.words import Word, names

# --- Unix and macOS programs (GTFOBins, LOOBins) -------------------------------------------
# kind: sh = a shell command line; prog = a program (or script) it runs; argv = the words
# from there on are a command; csv = `prog,arg,arg`; code:LANG = code in LANG; file:LANG = a
# script file in LANG it runs; shline = the words from there on are one shell line;
# sh+ops = a shell line run with the command's operands appended;
# dir:LANG:NAME = a folder whose NAME file (LANG) it runs;
# up = a file it sends to the network; dl = a URL it downloads; wr = a file it writes;
# lib = a shared library it loads; leak = a value sent to a remote host (a substitution
# there sends a file's or command's output).
_POSIX = """
yt-dlp youtube-dl yt-dlp_linux     | --exec --exec-before-download --netrc-cmd | sh
yt-dlp youtube-dl yt-dlp_linux     | --external-downloader --downloader   | prog
yt-dlp youtube-dl yt-dlp_linux     | -a --batch-file                      | rd
nodemon                            | -x --exec                            | sh+ops
c89 c99                            | -wrapper                             | csv
c89 c99                            | -o                                   | wr
check_ssl_cert                     | --curl-bin --file-bin --openssl --date --nmap-bin | prog
check_ssl_cert                     | -f --file                            | rd
perlbug                            | -e --editor                          | prog
logrotate                          | -m --mail                            | prog
logrotate                          | -s --state -l --log                  | wr
gtester                            | @@                                   | prog
gtester                            | -o                                   | wr
grc                                | @@                                   | argv
byebug                             | @                                    | file:ruby
pdb pdb3                           | @                                    | file:python
easy_install easy_install-3        | @                                    | dir:python:setup.py
tshark wireshark                   | -X                                   | luax
minicom                            | -S --script                          | file:runscript
minicom                            | -C --capturefile                     | wr
lwp-download                       | @                                    | dl
lwp-download                       | @2                                   | wr
rlogin rsh                         | -l                                   | leak
rsh rexec                          | @@                                   | remote:bash:rsh
dbclient                           | @@                                   | remote:bash:dbclient
plink                              | @@                                   | remote:bash:plink
tsh                                | ssh                                  | remote:bash:tsh
mco                                | run                                  | rline:bash
crackmapexec cme nxc netexec       | -x                                   | rline:cmd
crackmapexec cme nxc netexec       | -X                                   | rline:powershell
psexec.py wmiexec.py smbexec.py    | @@                                   | remote:cmd:impacket
atexec.py dcomexec.py              | @@                                   | remote:cmd:impacket
impacket-psexec impacket-wmiexec   | @@                                   | remote:cmd:impacket
impacket-smbexec impacket-atexec   | @@                                   | remote:cmd:impacket
impacket-dcomexec                  | @@                                   | remote:cmd:impacket
salt-ssh                           | cmd.run cmd.shell cmd.run_all cmd.retcode | sh
bolt                               | run                                  | sh
pyinfra                            | exec                                 | shline
fab fab2 fab3                      | --                                   | shline
check_log                          | -O                                   | wr
cowsay cowthink                    | -f                                   | file:perl
pico                               | -s --speller                         | prog
runscript                          | @                                    | file:runscript
xdg-user-dir                       | @                                    | inject
lf                                 | -command                             | bang
vifm                               | -c                                   | bang
r2 radare2 rizin r2pipe            | -c -i                                | bang
kak                                | -e                                   | kaksh
ysh                                | -c                                   | sh
matlab                             | -batch -r                            | code:matlab
swipl                              | -g -t                                | code:prolog
nim                                | --eval                               | code:nim
php-cgi                            | -r                                   | code:php
rustdoc                            | -o --out-dir                         | wrdir
arj                                | @3                                   | xdir
xterm uxterm koi8rxterm lxterm     | -e                                   | argv
urxvt rxvt rxvt-unicode urxvtc     | -e                                   | argv
alacritty st terminology kitty-term | -e --command                         | argv
konsole tilix lxterminal qterminal | -e                                   | sh
xfce4-terminal mate-terminal       | -e --command                         | sh
xfce4-terminal mate-terminal       | -x --execute                         | argv
terminator                         | -e --command                         | sh
terminator                         | -x --execute                         | argv
gnome-terminal kgx ptyxis          | --                                   | argv
gnome-terminal                     | -e --command                         | sh
kitty                              | @@                                   | argv
wezterm                            | start                                | argv
foot footclient                    | @@                                   | argv
tsp task-spooler                   | @@                                   | argv
pueue                              | add                                  | shline
mpirun mpiexec orterun             | @@                                   | argv
srun                               | @@                                   | argv
optirun primusrun prime-run pvkrun | @@                                   | argv
gamemoderun mangohud               | @@                                   | argv
schedtool                          | -e                                   | argv
systemd-cat                        | @@                                   | argv
nsjail                             | --                                   | argv
dosbox                             | -c                                   | dos
dstat                              | --                                   | dstat
rtorrent                           | -o                                   | rtorrent
sshfs                              | -o                                   | sshopts
salt-call                          | cmd.run cmd.shell cmd.run_all cmd.retcode | sh
chef-solo chef-client chef-apply   | -e --execute                         | code:ruby
ant                                | -f -buildfile --buildfile -file      | rd
xsltproc                           | -o --output                          | wr
msfconsole                         | -x --execute-command                 | msf
msfconsole                         | -r --resource                        | file:msf
guix                               | repl                                 | file:scheme
"""

# --- Windows programs (LOLBAS) ---------------------------------------------------------------
# kind: exec = runs the program or file it is given (a visible command line is judged; the
# proxy itself is critical); wexec = runs what follows as a command line; lib = loads a
# DLL; dl = downloads (critical: a signed binary used as a downloader); up = sends a file;
# dump = writes a process's memory (credentials); ps = PowerShell code; cs = compiled or
# script code it runs (critical); build = a compiler (moderate).
_WINDOWS = """
accheckconsole                     | -window                              | lib
adplus                             | -hang -crash -pn -p -sc -o -c        | dump
agentexecutor                      | -powershell                          | exec
applauncher                        | @@                                   | wexec
appcert                            | -setuppath                           | exec
appvlp                             | @@                                   | wexec
bginfo                             | @                                    | cs
coregen                            | /l -l                                | lib
createdump                         | @@ -f --name -n -p --full            | dump
fsi fsianycpu rcsi dnx te wfc      | @                                    | cs
texttransform texttransformcore    | @                                    | cs
dbgsrv                             | -t                                   | remote
defaultpack                        | /c                                   | wexec
devinit                            | -i --input                           | dlexec
devtoolslauncher                   | launchfordeploy launchforDebug       | exec
dsdbutil                           | @@                                   | dump
dump64 dumpminitool                | @@                                   | dump
sqldumper                          | @@                                   | dump
dxcap                              | -c                                   | wexec
ecmangen protocolhandler msohtmed  | @                                    | dl
excel winword powerpnt mspub       | @                                    | dl
msaccess visio winproj outlook     | @                                    | dl
intellitrace                       | launch                               | wexec
mstest                             | /testcontainer                       | lib
mftrace vsjitdebugger openconsole  | @@                                   | wexec
microsoft.nodejstools.pressanykey  | @3                                   | wexec
mpiexec                            | @@                                   | wexec
msdeploy                           | -dest -source                        | msdeploy
ntsd cdb windbg                    | -g -G -o -c -cf -pd -pn -p -z        | debugger
pixtool                            | launch                               | wexec
remote                             | /s                                   | wexec
sqlps sqltoolsps                   | -command -c                          | ps
squirrel update                    | --download                           | dl
squirrel update                    | --update --updaterollback --update-rollback | dlexec
squirrel update                    | --processstart --process-start-args  | exec
squirrel update                    | --createshortcut                     | exec
testwindowremoteagent              | -h                                   | leak
tracker                            | /d                                   | lib
tracker                            | /c                                   | wexec
vsdiagnostics                      | /launch                              | exec
vsiisexelauncher                   | -p                                   | exec
vslaunchbrowser                    | @2                                   | dl
vshadow                            | -exec                                | exec
xbootmgrsleep                      | @2                                   | wexec
xbootmgr                           | -callback                            | exec
winrs                              | @@                                   | wremote
openwith                           | /c                                   | exec
pester                             | /help /? -? ?                        | ps
syncappvpublishingserver.vbs       | @@                                   | psline
syncinvoke runaftercancelprocess   | @@                                   | wexec
loadassemblyfrompath loadassemblyfromns regsnapin | @@                    | lib
diantz                             | @                                    | fetch
gpscript                           | /logon /startup                      | cs
mmc                                | -embedding                           | cs
runscripthelper                    | surfacecheck                         | cs
runonce                            | /alternateshellstartup               | cs
dotnet-trace dotnet-counters       | --                                   | wexec
devtunnel devtunnels               | host                                 | remote
csc vbc jsc ilasm                  | @                                    | build
"""


Row = tuple[tuple[str, ...], str]
POSIX_TABLE: dict[str, list[Row]] = {}
WINDOWS_TABLE: dict[str, list[Row]] = {}


def _parse(text: str, table: dict[str, list[Row]]) -> None:
    for line in text.strip().splitlines():
        progs, opts, kind = (part.strip() for part in line.split("|"))
        for p in progs.split():
            table.setdefault(p.lower(), []).append((tuple(opts.split()), kind))


_parse(_POSIX, POSIX_TABLE)
_parse(_WINDOWS, WINDOWS_TABLE)


# --- reading the command -------------------------------------------------------------------
def _option_hits(cmd: Cmd, opts: tuple[str, ...], win: bool) -> list[tuple[int, Word]]:
    """(index of the value, value) for every use of one of `opts`; for a bare word option
    (`launch`, `add`, `--`) the value is the word after it."""
    out: list[tuple[int, Word]] = []
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text.lower() if win else w.text
        for o in opts:
            if o.startswith("@"):
                continue
            if t == o:
                # A flag with nothing after it (`runonce /AlternateShellStartup`) is its own hit.
                out.append((i + 1, args[i + 1]) if i + 1 < len(args) else (i, w))
                break
            if (
                not win
                and len(o) == 2
                and o[0] == "-"
                and o != "--"
                and len(t) > 2
                and t[0] == "-"
                and t[1] != "-"
                and t[1:].isalpha()
                and t.endswith(o[1])
                and not t.startswith(o)
            ):
                # bundled flags ending in the option (`r2 -qc CMD`)
                if i + 1 < len(args):
                    out.append((i + 1, args[i + 1]))
                break
            sep = t[len(o)] if len(t) > len(o) and t.startswith(o) else ""
            if sep in ("=", ":") and (o.startswith("-") or o.startswith("/")):
                out.append((i, Word(w.text[len(o) + 1 :], w.start, w.end, w.dynamic, w.glob)))
                break
            if (
                sep
                and len(o) == 2
                and o[0] == "-"
                and not win
                and sep not in ("=", ":")
                and o != "--"
            ):
                out.append((i, Word(w.text[2:], w.start, w.end, w.dynamic, w.glob)))
                break
    return out


def _operands(cmd: Cmd, win: bool) -> list[tuple[int, Word]]:
    out: list[tuple[int, Word]] = []
    src = cmd.scope.source
    glued = -1
    for i, w in enumerate(cmd.args):
        t = w.text
        if i == glued:
            continue
        if t.startswith("-") and len(t) > 1:
            # PowerShell reads `-u:corp\admin` as a parameter and its value; a native
            # program gets one word: the value is not an operand (`winrs -u:x cmd …`).
            if (
                0 <= w.end < len(src)
                and src[w.end] == ":"
                and i + 1 < len(cmd.args)
                and cmd.args[i + 1].start == w.end + 1
            ):
                glued = i + 1
            continue
        if win and t.startswith("/") and len(t) > 1 and "\\" not in t and t.count("/") == 1:
            continue
        out.append((i, w))
    return out


def _positional(cmd: Cmd, spec: str, win: bool) -> list[tuple[int, Word]]:
    ops = _operands(cmd, win)
    if spec == "@@":
        return ops[:1]
    n = int(spec[1:] or "1")
    return [ops[n - 1]] if len(ops) >= n else []


# --- what a value means --------------------------------------------------------------------
_URL = re.compile(r"(?i)\A[\"']?(?:https?|ftps?|tftp|wss?)://")
_UNC = re.compile(r"\A[\"']?(?:\\\\|//)[^\\/\s]+[\\/]")
_SHELL_PATHS = re.compile(r"\A(?:/usr)?(?:/local)?/bin/(?:ba|da|z|k|c|tc|fi|a)?sh\Z|\A(?:ba)?sh\Z")


# Catalogue programs whose job is to run the command they are given (terminals, remote and
# task runners, a shell's own -c): launchers, not hooks, so a shell there is no escape (n12u).
_LAUNCHERS = frozenset(
    names(
        """
        nodemon salt-ssh salt-call bolt pyinfra fab fab2 fab3 ysh konsole tilix lxterminal
        qterminal xfce4-terminal mate-terminal terminator gnome-terminal pueue
        """
    )
)


def _run_shell_line(cmd: Cmd, value: Word, what: str) -> None:
    run_config_command(cmd, value, what, hook=cmd.name not in _LAUNCHERS)


def _run_program(cmd: Cmd, value: Word, what: str, extra: list[Word] | None = None) -> None:
    """A program (or script) the tool runs: a file this text wrote or downloaded is judged by
    what it holds; a shell is an escape hatch; any other program is judged as a command."""
    text = value.text.strip("\"'")
    if not text:
        return
    if _URL.match(text) or _UNC.match(text):
        cmd.add(C, "remote-code", f"{what} runs a program from the network", value)
        return
    if wrappers.runs_unseen(cmd, value):
        return
    base = text.replace("\\", "/").rsplit("/", 1)[-1]
    if base in cmd.scope.written:
        wrappers.written_script(cmd, base, value)
        return
    line = " ".join([text, *(w.text for w in extra or [])])
    run_config_command(cmd, Word(line, value.start, value.end, value.dynamic), what)


def _run_argv(cmd: Cmd, index: int) -> None:
    tail = cmd.args[index:]
    if tail and tail[0].text == "--":
        tail = tail[1:]
    if tail:
        cmd.info = cmd.judge(list(tail), cmd.stdin)


def _code(cmd: Cmd, value: Word, language: str, what: str) -> None:
    if value.dynamic and not value.text.strip():
        cmd.add(C, "eval-dynamic", f"{what} runs code only known at run time", value)
        return
    found = inline.code_findings(cmd.scope, value.text, value, language, what)
    cmd.scope.include(found)
    if not found:
        cmd.add(M, "inline-code", f"{what} runs {language} code", value)


def _script_file(cmd: Cmd, value: Word, language: str, what: str) -> None:
    """A script file in `language` the tool runs: one this text wrote is read, one it
    downloaded is opaque, one from the network is remote code; any other is a local script."""
    text = value.text.strip("\"'")
    if _URL.match(text) or _UNC.match(text):
        cmd.add(C, "remote-code", f"{what} runs a script from the network", value)
        return
    if wrappers.runs_unseen(cmd, value):
        return
    base = text.replace("\\", "/").rsplit("/", 1)[-1]
    written = cmd.scope.written.get(base)
    if written is not None:
        body = written[0]
        if language in ("bash", "runscript", "msf"):
            _script_lines(cmd, body, value, language, what)
        else:
            found = inline.code_findings(cmd.scope, body, value, language, what)
            cmd.scope.include(found)
            if not found:
                cmd.add(M, "local-script", f"{what} runs a {language} script", value)
        return
    cmd.add(M, "local-script", f"{what} runs the local script {text}", value)


# minicom's runscript runs `! cmd` lines through the shell; Metasploit resource files and
# `-x` commands run any line as a console command, and its console passes unknown commands
# (and `exec`/`!`-less shell lines) to the system shell.
_RUNSCRIPT_SHELL = re.compile(r"^\s*(?:!|exec\s)\s*(.*)$", re.M)
_MSF_SHELL = re.compile(r"^\s*(?:!|exec\s|irb\s+-e\s)?\s*(.*)$")


def _script_lines(cmd: Cmd, body: str, where: Word, language: str, what: str) -> None:
    if language == "runscript":
        lines = [m.group(1) for m in _RUNSCRIPT_SHELL.finditer(body)]
    elif language == "msf":
        lines = [ln.strip() for ln in re.split(r"[;\n]", body) if ln.strip()]
        lines = [ln for ln in lines if not re.match(r"(?i)(use|set|run|exploit|exit)\b", ln)]
    else:
        lines = [body]
    for ln in lines:
        if ln.strip():
            run_config_command(cmd, Word(ln.strip(), where.start, where.end), what)


# Options that take a value, per remote-execution tool (the first operand after them is the
# target host; the rest is the command run there).
_REMOTE_VALUED = {
    "rsh": frozenset(names("-l -n -p -u")),
    "dbclient": frozenset(names("-l -p -i -J -o -W -K -I")),
    "plink": frozenset(names("-P -l -pw -i -m -L -R -D -proxycmd -hostkey -sercfg -sshlog")),
    "tsh": frozenset(names("-l --login --proxy --user -p --port --cluster -i --identity")),
    "impacket": frozenset(
        names(
            """
            -hashes -dc-ip -target-ip -port -codec -file -path -aesKey -keytab -service-name
            -remote-binary-name -shell-type -share -session-id -com-version -object -ts
            """
        )
    ),
}


def _remote(cmd: Cmd, index: int, family: str, valued: frozenset[str]) -> None:
    """`rsh host CMD`, `plink -pw x host CMD`, `psexec.py dom/u:p@host CMD`: after the
    options and the target comes the command run on the remote host, judged as a command."""
    args = cmd.args
    i = skip_options(args, index, valued) + 1  # (+1: the target host)
    tail = args[i:]
    if cmd.stdin.kind != "none" and tail:
        from aintern_ls.safety.network import sends_stdin

        if sends_stdin(cmd, i - 1):
            # `plink h "cat > x" < C:\data\db.sqlite`: the remote command reads a local
            # file or a command's output (as ssh's; the session-14 upload convention)
            cmd.add(
                C,
                "exfiltration",
                f"{cmd.name} sends a local file or a command's output to a remote host",
                tail[0],
            )
    if not tail:
        cmd.add(M, "remote", f"{cmd.name} opens a session on another machine")
        return
    line = " ".join(w.text for w in tail)
    _remote_line(cmd, line, Word(line, tail[0].start, tail[-1].end), family)


def _remote_line(cmd: Cmd, line: str, where: Word, family: str) -> None:
    cmd.add(M, "remote", f"{cmd.name} runs a command on another machine", where)
    if line.strip():
        cmd.scope.include(cmd.scope.nested(line, family, where, -1))


def _upload(cmd: Cmd, value: Word, what: str) -> None:
    cmd.add(C, "exfiltration", f"{what} sends {value.text or 'a file'} to the network", value)


def _leak(cmd: Cmd, value: Word, what: str) -> None:
    """A value sent to a remote host (a user name, a header, a host name): a substitution
    or a file's text there sends data away."""
    raw = cmd.scope.source[value.start : value.end]
    windows_var = "%" in raw and cmd.scope.family != "bash"
    if "$(" in raw or "`" in raw or windows_var or value.dynamic:
        cmd.add(
            C,
            "exfiltration",
            f"{what} sends the output of a command or a file's text to a remote host",
            value,
        )


def _write(cmd: Cmd, value: Word, what: str) -> None:
    target = write_target(value.text.strip("\"'"), cmd.scope.cwds)
    if target is not None:
        cmd.add(target.level, target.rule, f"{what} writes {target.what}", value)
    else:
        cmd.add(M, "write", f"{what} writes {value.text}", value)


def _write_dir(cmd: Cmd, value: Word, what: str, unpacked: bool) -> None:
    """Files written into a folder (an archive unpacked, documentation generated): into a
    system folder that replaces system files with contents the analyser cannot see."""
    path = value.text.strip("\"'").rstrip("/") or "/"
    t = classify_path(path, cmd.scope.cwds, cmd.scope.windows)
    probe = write_target(path + "/x", cmd.scope.cwds)
    if t.rule in ("rm-root", "rm-system") or (probe is not None and probe.level >= C):
        verb = "unpacks files into" if unpacked else "writes files into"
        cmd.add(C, "overwrite-system", f"{what} {verb} the system folder {path}", value)
    else:
        cmd.add(M, "write", f"{what} writes files into {path}", value)


def _read(cmd: Cmd, value: Word, what: str) -> None:
    if is_secret(value.text.strip("\"'")):
        cmd.add(M, "read-secret", f"{what} reads a private key or credentials file", value)


# --- special forms -------------------------------------------------------------------------
def _dosbox(cmd: Cmd, values: list[Word]) -> None:
    """`dosbox -c 'mount c /' -c 'echo x >c:\\etc\\passwd'`: a drive mounted on a host folder
    makes DOS writes and deletes land on the host."""
    mounts: dict[str, str] = {}
    for v in values:
        m = re.match(r"(?i)\s*mount\s+([a-z]):?\s+[\"']?([^\"'\s]+)", v.text)
        if m:
            mounts[m.group(1).lower()] = m.group(2).rstrip("/\\") or ""
            continue
        for m in re.finditer(r"(?i)>>?\s*([a-z]):([^\s]*)", v.text):
            host = mounts.get(m.group(1).lower())
            if host is not None:
                path = host + "/" + m.group(2).replace("\\", "/").lstrip("/")
                _write(cmd, Word(path, v.start, v.end), "dosbox")
        m = re.match(r"(?i)\s*(del|erase|deltree|rd|rmdir)\b.*?\s([a-z]):([^\s]*)", v.text)
        if m and mounts.get(m.group(2).lower()) is not None:
            path = mounts[m.group(2).lower()] + "/" + m.group(3).replace("\\", "/").lstrip("/")
            run_config_command(cmd, Word(f"rm -rf {path or '/'}", v.start, v.end), "dosbox")
    cmd.add(M, "runs-program", "dosbox runs DOS commands", values[0] if values else None)


def _dstat(cmd: Cmd) -> None:
    """`dstat --NAME` loads the plugin `dstat_NAME.py` (from ~/.dstat and system folders)."""
    for w in cmd.args:
        if w.text.startswith("--") and len(w.text) > 2 and "=" not in w.text:
            written = cmd.scope.written.get(f"dstat_{w.text[2:]}.py")
            if written is not None:
                found = inline.code_findings(cmd.scope, written[0], w, "python", "a dstat plugin")
                cmd.scope.include(found)
                cmd.add(M, "local-script", "dstat loads a plugin this text wrote", w)


_RT_EXEC = re.compile(
    r"(?im)^\s*(?:method\.set_key\s*=\s*[^,]+,\s*[^,]+,\s*)?"
    r"(?:execute|execute2|execute\.throw|execute\.nothrow|execute\.capture|system\.run|"
    r"schedule2?\s*=\s*[^,]+,[^,]+,[^,]+,\s*\"?execute\w*)[.\w]*\s*=\s*\"?(.*?)\"?\s*$"
)


def _rtorrent(cmd: Cmd, values: list[Word]) -> None:
    """rtorrent's `execute = prog,arg,…` lines (in `-o` or a `.rtorrent.rc` this text wrote)
    run programs."""
    texts = [(v.text, v) for v in values]
    rc = cmd.scope.written.get(".rtorrent.rc")
    if rc is not None:
        texts.append((rc[0], cmd.words[0]))
    for text, where in texts:
        for m in _RT_EXEC.finditer(text):
            _csv(cmd, Word(m.group(1), where.start, where.end), "rtorrent's execute command")


def _csv(cmd: Cmd, value: Word, what: str) -> None:
    text = value.text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]  # rtorrent's list syntax `{prog,arg,…}`
    parts = [p.strip().strip("\"'") for p in text.split(",") if p.strip()]
    if not parts:
        return
    if len(parts) >= 3 and re.search(r"(?:^|/)(?:ba|da|z)?sh$", parts[0]) and parts[1] == "-c":
        line = ",".join(parts[2:])
    else:
        line = " ".join(parts)
    run_config_command(cmd, Word(line, value.start, value.end, value.dynamic), what)


def _ssh_opts(cmd: Cmd, values: list[Word]) -> None:
    """sshfs `-o ssh_command=CMD` (and `-o ssh_command` in a list) runs CMD as the transport."""
    for v in values:
        for opt in v.text.split(","):
            key, _, val = opt.partition("=")
            if key.strip().lower() in ("ssh_command", "sshfs_command") and val:
                _run_program(cmd, Word(val.strip(), v.start, v.end, v.dynamic), "sshfs ssh_command")


def _lua_x(cmd: Cmd, values: list[Word]) -> None:
    """tshark/wireshark `-X lua_script:FILE` runs a Lua script."""
    for v in values:
        if v.text.startswith("lua_script:"):
            path = v.text.split(":", 1)[1]
            _script_file(cmd, Word(path, v.start, v.end, v.dynamic), "lua", cmd.name)


def _msf(cmd: Cmd, values: list[Word]) -> None:
    for v in values:
        _script_lines(cmd, v.text, v, "msf", "msfconsole -x")


# --- Windows kinds -------------------------------------------------------------------------
def _win_line(cmd: Cmd, line: str, where: Word, what: str) -> None:
    """A command line a Windows proxy runs: critical for the proxy, and judged itself."""
    cmd.add(C, "lolbin-exec", f"{what} runs a program through a signed Microsoft binary", where)
    line = line.strip()
    if len(line) > 1 and line[0] == line[-1] == '"' and '"' not in line[1:-1]:
        line = line[1:-1]  # `/C:"cmd /c …"`: the quotes only hold the value together
    if line:
        cmd.scope.include(cmd.scope.nested(line, "cmd", where, -1))


def _win_exec(cmd: Cmd, value: Word, what: str) -> None:
    text = value.text.strip("\"'")
    if _URL.match(text) or _UNC.match(text):
        cmd.add(C, "remote-code", f"{what} runs a program from the network", value)
        return
    if wrappers.runs_unseen(cmd, value):
        return
    _win_line(cmd, text, value, what)


_WIN_KIND_REASON = {
    "lib": ("lolbin-exec", "loads a DLL into a signed Microsoft binary (proxy execution)"),
    "cs": ("lolbin-exec", "compiles or interprets code through a signed Microsoft binary"),
    "dump": ("credential-dump", "writes a process's memory to a file (credential theft)"),
    "remote": ("remote-access", "opens this machine to remote control or a public tunnel"),
}


def _windows_kind(cmd: Cmd, kind: str, index: int, value: Word) -> bool:
    what = cmd.name
    if kind in _WIN_KIND_REASON:
        rule, reason = _WIN_KIND_REASON[kind]
        cmd.add(C, rule, f"{what} {reason}", value)
    elif kind == "exec":
        _win_exec(cmd, value, what)
    elif kind == "wexec":
        tail = cmd.args[index:]
        texts = [w.text for w in tail]
        if tail and tail[0].text != value.text:
            texts[0] = value.text  # `/C:"cmd /c …"`: the value attached to its option
        line = " ".join(texts)
        _win_line(cmd, line, Word(line, tail[0].start, tail[-1].end), what)
    elif kind == "dl":
        text = value.text.strip("\"'")
        if _URL.match(text) or _UNC.match(text):
            cmd.add(C, "lolbin-download", f"{what} downloads a file (a signed binary)", value)
        else:
            return False
    elif kind == "fetch":
        if _UNC.match(value.text) or _URL.match(value.text):
            cmd.add(C, "lolbin-download", f"{what} copies a file from the network", value)
        else:
            return False
    elif kind == "dlexec":
        cmd.add(C, "remote-code", f"{what} downloads a package and runs it", value)
    elif kind == "ps":
        cmd.add(C, "lolbin-exec", f"{what} runs PowerShell code", value)
        cmd.scope.include(cmd.scope.nested(value.text, "powershell", value, -1))
    elif kind == "psline":
        tail = cmd.args[index:]
        text = " ".join(w.text for w in tail)
        code = text.split(";", 1)[1] if ";" in text else text
        where = Word(code, tail[0].start, tail[-1].end)
        cmd.add(C, "lolbin-exec", f"{what} runs PowerShell code", where)
        cmd.scope.include(cmd.scope.nested(code, "powershell", where, -1))
    elif kind == "leak":
        cmd.add(C, "exfiltration", f"{what} sends data out inside a host name", value)
    elif kind == "debugger":
        _debugger(cmd)
    elif kind == "msdeploy":
        m = re.search(r"(?i)runcommand\s*=\s*\"?([^\"]+)\"?", value.text)
        if m:
            _win_line(cmd, m.group(1), value, what)
        else:
            return False
    elif kind == "wremote":
        tail = cmd.args[index:]
        if tail:
            line = " ".join(w.text for w in tail)
            _remote_line(cmd, line, Word(line, tail[0].start, tail[-1].end), "cmd")
    elif kind == "build":
        cmd.add(M, "build", f"{what} compiles code", value)
    else:
        return False
    return True


def _debugger(cmd: Cmd) -> None:
    """ntsd/cdb/windbg: `-c "CMDS"` runs debugger commands (`.shell` runs a command line),
    `-cf FILE` a command file, a program operand is started under the debugger, `-pn`/`-p`
    attach to a process (lsass: credential dump)."""
    args = cmd.args
    low = [w.text.lower() for w in args]
    for i, t in enumerate(low):
        if t == "-c" and i + 1 < len(args):
            for m in re.finditer(r"(?i)\.shell\s+(?:-\w+\s+)*(.+?)(?:;|$)", args[i + 1].text):
                _win_line(cmd, m.group(1), args[i + 1], f"{cmd.name} .shell")
            cmd.add(C, "lolbin-exec", f"{cmd.name} runs debugger commands", args[i + 1])
            return
        if t in ("-cf", "-cfr") and i + 1 < len(args):
            cmd.add(C, "lolbin-exec", f"{cmd.name} runs a debugger command file", args[i + 1])
            return
        if t in ("-pn", "-p", "-pd") and i + 1 < len(args) and "lsass" in low[i + 1]:
            cmd.add(C, "credential-dump", f"{cmd.name} attaches to lsass (credentials)")
            return
    valued = {"-c", "-cf", "-cfr", "-pn", "-p", "-z", "-y", "-i", "-srcpath", "-logo", "-loga"}
    i = 0
    while i < len(args):
        t = low[i]
        if t in valued:
            i += 2
        elif t.startswith("-"):
            i += 1
        else:
            line = " ".join(w.text for w in args[i:])
            _win_line(cmd, line, Word(line, args[i].start, args[-1].end), cmd.name)
            return
    cmd.add(M, "runs-program", f"{cmd.name} is a debugger")


# --- POSIX kinds ---------------------------------------------------------------------------
def _posix_kind(cmd: Cmd, kind: str, index: int, value: Word) -> bool:
    what = cmd.name
    if kind == "sh":
        _run_shell_line(cmd, value, what)
    elif kind == "prog":
        _run_program(cmd, value, what)
    elif kind == "argv":
        _run_argv(cmd, index)
    elif kind == "csv":
        _csv(cmd, value, what)
    elif kind == "sh+ops":
        # `nodemon --exec "node --inspect" server.js`: the program is run with the script
        rest = [w.text for _, w in _operands(cmd, False) if w.text != value.text]
        line = " ".join([value.text, *rest])
        _run_shell_line(cmd, Word(line, value.start, value.end, value.dynamic), what)
    elif kind == "shline":
        tail = [w for w in cmd.args[index:] if w.text != "--"]
        while tail and tail[0].text.startswith("-"):
            tail = tail[1:]
        if tail:
            line = " ".join(w.text for w in tail)
            run_config_command(
                cmd, Word(line, tail[0].start, tail[-1].end), what, hook=cmd.name not in _LAUNCHERS
            )
    elif kind.startswith("code:"):
        _code(cmd, value, kind[5:], what)
    elif kind.startswith("file:"):
        _script_file(cmd, value, kind[5:], what)
    elif kind.startswith("dir:"):
        _, language, name = kind.split(":")
        if _URL.match(value.text):
            cmd.add(C, "remote-code", f"{what} installs and runs code from the network", value)
        elif name in cmd.scope.written:
            _script_file(cmd, Word(name, value.start, value.end), language, what)
        else:
            return False
    elif kind.startswith("remote:"):
        _, family, tool = kind.split(":", 2)
        _remote(cmd, index, family, _REMOTE_VALUED[tool])
    elif kind.startswith("rline:"):
        after = [w.text for w in cmd.args[index:]]
        if value.text.startswith("-") and "--" in after and after[-1] != "--":
            # (r17) `mco shell run [-I host] -- rm -rf /`: `--` ends the options, the
            # words after it are the remote command line
            remote = cmd.args[index + after.index("--") + 1 :]
            line = " ".join(w.text for w in remote)
            value = Word(line, remote[0].start, remote[-1].end)
        _remote_line(cmd, value.text, value, kind[6:])
    elif kind == "bang":
        # File managers and debuggers whose command line runs `!CMD` (`$CMD`, `%CMD`, `&CMD`
        # in lf) through the shell: `vifm -c '!rm …'`, `r2 -c '!cmd'`, `lf -command '$cmd'`.
        lines = [
            m.group(1)
            for m in re.finditer(r"(?:^|[;\n])\s*(?:shell\s+|[!$%&]{1,2})([^;\n]+)", value.text)
        ]
        if not lines:
            return False
        for line in lines:
            run_config_command(cmd, Word(line.strip(), value.start, value.end), what)
    elif kind == "kaksh":
        blocks = re.findall(r"%sh\{(.*?)\}", value.text, re.S)
        if not blocks:
            return False
        for block in blocks:
            run_config_command(cmd, Word(block, value.start, value.end), f"{what} %sh{{}}")
    elif kind == "inject":
        # `xdg-user-dir '}; CMD #'`: the value is pasted into a shell script unquoted.
        m = re.search(r"[;&|`]|\$\(", value.text)
        if m:
            line = value.text[m.end() :] if m.group() in (";", "&", "|") else value.text
            run_config_command(cmd, Word(line, value.start, value.end), f"{what}'s argument")
        else:
            return False
    elif kind == "up":
        _upload(cmd, value, what)
    elif kind == "leak":
        _leak(cmd, value, what)
    elif kind == "dl":
        cmd.add(M, "network", f"{what} downloads {value.text}", value)
    elif kind == "wr":
        _write(cmd, value, what)
    elif kind in ("wrdir", "xdir"):
        _write_dir(cmd, value, what, kind == "xdir")
    elif kind == "rd":
        _read(cmd, value, what)
    elif kind == "lib":
        cmd.add(C, "library-load", f"{what} loads the shared library {value.text}", value)
    else:
        return False
    return True


_SPECIAL: dict[str, Callable[[Cmd, list[Word]], None]] = {
    "dos": _dosbox,
    "rtorrent": _rtorrent,
    "sshopts": _ssh_opts,
    "luax": _lua_x,
    "msf": _msf,
}


def _table_handler(cmd: Cmd) -> None:
    win = cmd.scope.family != "bash" and cmd.name in WINDOWS_TABLE
    rows = WINDOWS_TABLE.get(cmd.name) if win else POSIX_TABLE.get(cmd.name)
    if rows is None:
        rows = WINDOWS_TABLE.get(cmd.name, [])
        win = True
    mark = len(cmd.scope.findings)
    for opts, kind in rows:
        if kind == "dstat":
            _dstat(cmd)
            continue
        hits: list[tuple[int, Word]] = []
        for o in opts:
            if o.startswith("@"):
                hits += _positional(cmd, o, win)
        hits += _option_hits(cmd, tuple(o for o in opts if not o.startswith("@")), win)
        if kind.startswith("remote:") and "@@" in opts:
            _, family, tool = kind.split(":", 2)
            _remote(cmd, 0, family, _REMOTE_VALUED[tool])
            continue
        if kind in _SPECIAL:
            if hits or kind == "rtorrent":  # rtorrent also reads the rc file this text wrote
                _SPECIAL[kind](cmd, [w for _, w in hits])
            continue
        for index, value in hits:
            if win:
                _windows_kind(cmd, kind, index, value)
            else:
                _posix_kind(cmd, kind, index, value)
    if len(cmd.scope.findings) == mark:
        # The program doing its ordinary job: it is not on the read-only allowlist.
        cmd.add(M, "unknown-command", f"`{cmd.name}` is not on the read-only allowlist")


handles(*POSIX_TABLE)(_table_handler)
handles(*WINDOWS_TABLE, windows_only=True)(_table_handler)
