"""Editors, shell built-ins, everyday writers, and the read-only allowlist: programs that are
safe by name, each subject to per-option checks (`sort -o`, `rg --pre`, `date -s`, …).
"""

from __future__ import annotations

import re
import shlex

from aintern_ls.safety import system, wrappers
from aintern_ls.safety.context import (
    Cmd,
)
from aintern_ls.safety.levels import B, C, D, Finding, M
from aintern_ls.safety.paths import is_secret, write_target
from aintern_ls.safety.registry import HANDLERS, handles, opaque_program, run_config_command
from aintern_ls.safety.winpaths import join_path_output
from aintern_ls.safety.words import Word, fish_string, names, printf_output

# --- editors, writers, misc -------------------------------------------------------------


# sed's `w FILE`/`W FILE` command and the `s///w FILE` flag: FILE runs to the end of the line.
_SED_WRITE = re.compile(
    r"(?:(?:^|[;{}\n])\s*(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)?(?:,\s*(?:\d+|\$|/(?:[^/\\\n]|\\.)*/))?"
    r"\s*!?\s*[wW]|(?<=[/|#:,@])[gpIiMme0-9]*[wW])\s+([^\n]+)"
)


# `e` with no command (GNU sed runs the pattern space), alone or after an address or an
# `s///` command; `e COMMAND` is matched separately.
_SED_E_BARE = re.compile(r"(?:^|[;{}\n\d$/])\s*e\s*(?:[;}\n]|$)")
_SED_RUNS_INPUT = "sed's e runs lines of its input as shell commands (text only known at run time)"


def _sed_runs_input(pattern: str, replacement: str) -> bool:
    """`s/PAT/REP/e` runs the whole edited line: unless PAT takes the whole line and REP
    keeps none of it (`&`, `\\1`), what runs holds input data the analyser cannot see."""
    whole = pattern in (".*", "^.*", "^.*$", ".*$")
    return not whole or "&" in replacement or re.search(r"\\[0-9]", replacement) is not None


_SED_ADDR = r"(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*)"
_SED_E = re.compile(
    rf"(?:^|[;{{}}\n])\s*(?:{_SED_ADDR}(?:\s*,\s*(?:{_SED_ADDR}|[+~]\d+))?)?\s*!?\s*e\s+([^\n]+)"
)


@handles("sed", "gsed")
def _sed(cmd: Cmd) -> None:
    if (
        cmd.short("i")
        or cmd.short("I")
        or cmd.long("--in-place")
        or any(w.text.startswith(("-i", "-I")) for w in cmd.args)
    ):
        # `-I` is BSD/macOS sed's in-place flag (`sed -Ibak …`)
        cmd.add(M, "write", "sed -i edits files in place")
        from aintern_ls.safety import agents

        edits = _sed_scripts(cmd)
        for f in cmd.args:
            if f not in edits and agents.is_agent_config(f.text):
                # (a21) `sed -i 's/…: false/…: true/' .vscode/settings.json`
                for e in edits:
                    agents.judge_edit(cmd.scope, f.text, e.text, f)
    script = cmd.option_value("-f", "--file")
    shown = wrappers.known_script(cmd, script) if script is not None else None
    if shown is not None:
        pass  # (n19u) `sed -f <(echo '1e …')`, `sed -f /dev/stdin <<< …`: read below
    elif script is not None and opaque_program(script, cmd.scope.source):
        cmd.add(C, "eval-dynamic", "sed runs a script file only known at run time", script)
    elif script is not None:
        # the program is in a file this text does not show (it may write files or run `e`)
        cmd.add(M, "local-script", f"sed runs the script file {script.text}", script)
    scripts = _sed_scripts(cmd)
    if shown is not None:
        scripts += [Word(line, shown.start, shown.end) for line in shown.text.splitlines()[:64]]
    for w in scripts:
        if opaque_program(w, cmd.scope.source):
            # `sed "$S" f`: a script only known at run time (GNU sed's `e` runs commands)
            cmd.add(C, "eval-dynamic", "sed runs a script only known at run time", w)
            return
        # GNU sed's `e COMMAND` runs COMMAND; `s/x/CMD/e` runs the replacement.
        # (like `w FILE`, the command runs to the end of the line, `;` and all)
        # (any address before it: a line, `$`, `first~step`, a `/regex/`, a range, `!`: n12u)
        m = _SED_E.search(w.text) if "e" in w.text else None
        # (an address may come first: `1s/.*/id/e` runs `id` on line 1: h17)
        sub = re.fullmatch(
            rf"\s*(?:{_SED_ADDR}(?:\s*,\s*(?:{_SED_ADDR}|[+~]\d+))?)?\s*!?\s*"
            r"s(.)((?:(?!\1).|\\.)*)\1((?:(?!\1).|\\.)*)\1[gpIi0-9]*e[gpIi0-9]*",
            w.text,
        )
        code = (
            m.group(1)
            if m is not None
            else sub.group(3).replace("\\" + sub.group(1), sub.group(1))
            if sub is not None
            else None
        )
        if code is not None:
            run_config_command(cmd, Word(code, w.start, w.end), "sed's e command")
            if sub is not None and m is None and _sed_runs_input(sub.group(2), code):
                cmd.add(C, "config-exec", _SED_RUNS_INPUT, w)
            return
        if _SED_E_BARE.search(w.text):
            # `sed e`, `sed '1e'`, `s/a/b/e;p`: the pattern space (input data) runs as a command
            cmd.add(C, "config-exec", _SED_RUNS_INPUT, w)
            return
        written = [m.group(1).strip() for m in _SED_WRITE.finditer(w.text)]
        for path in written:
            # `w FILE` truncates FILE when sed starts, then writes lines to it.
            target = write_target(path, cmd.scope.cwds)
            if target is not None:
                cmd.add(target.level, target.rule, f"sed's w command overwrites {target.what}", w)
        if written:
            cmd.add(M, "write", "sed script writes files", w)
            return
        # (a `/` that opens an address or an `s`/`y` pattern, `/error/p`, `s/e/E/`, is not
        # the end of one: the letter after it is pattern text, not a command: n12u)
        # (h19) on the script with the `s`/`y` patterns and replacements and the regex
        # addresses blanked: `s/rm -rf/echo/`, `y/abc/efg/` hold no command
        if re.search(
            r"(^|[;}\s])[wWe]\s|(?<=[^;{}\s!,sy])/[wWe]\s*\S|\be\b\s*$", _sed_strip(w.text)
        ):
            cmd.add(M, "write", "sed script writes files or runs commands", w)
            return


def _sed_delimited(text: str, i: int, delim: str) -> int:
    """The index just past the next unescaped `delim` from `i` (or the end of `text`)."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == delim:
            return i + 1
        i += 1
    return n


def _sed_strip(text: str) -> str:
    """(h19) A sed script with what is only data blanked, in one left-to-right scan: the
    pattern and replacement of `s` (its flags kept), both parts of `y`, regex addresses
    (`/re/`, `\\cREc`), the text of `a`/`i`/`c` and comments. What is left is commands,
    flags and file names, where `w`, `W` and `e` mean writing and running."""
    out: list[str] = []
    i, n = 0, len(text)
    at_command = True
    while i < n:
        c = text[i]
        if c in ";\n{}":
            out.append(c)
            at_command = True
            i += 1
            continue
        if not at_command or c in " \t!,0123456789$~+":
            out.append(c)
            i += 1
            continue
        if c == "/" or (c == "\\" and i + 1 < n):
            delim = "/" if c == "/" else text[i + 1]
            j = _sed_delimited(text, i + (1 if c == "/" else 2), delim)
            out.append("/x/")
            i = j
            while i < n and text[i] in "IM":
                i += 1
            continue
        if c in "sy" and i + 1 < n and text[i + 1] not in " \t\n;\\" and not text[i + 1].isalnum():
            delim = text[i + 1]
            j = _sed_delimited(text, i + 2, delim)
            j = _sed_delimited(text, j, delim)
            out.append(c + delim * 3)
            i = j
            at_command = False
            continue
        if c in "aic#":
            end = text.find("\n", i)
            out.append(c)
            i = n if end < 0 else end
            at_command = False
            continue
        out.append(c)
        at_command = False
        i += 1
    return "".join(out)


def _sed_scripts(cmd: Cmd) -> list[Word]:
    """The script arguments (`-e S`, `--expression=S`, else the first operand): the file
    operands after them are data (`sed -n p /etc/passwd` only reads)."""
    scripts: list[Word] = []
    operands: list[Word] = []
    args = cmd.args
    i = 0
    while i < len(args):
        w = args[i]
        t = w.text
        if t in ("-e", "--expression") and i + 1 < len(args):
            scripts.append(args[i + 1])
            i += 2
            continue
        if t.startswith("--expression="):
            scripts.append(Word(t.split("=", 1)[1], w.start, w.end, w.dynamic))
        elif t.startswith("-e") and len(t) > 2:
            scripts.append(Word(t[2:], w.start, w.end, w.dynamic))
        elif t in ("-f", "--file", "-l", "--line-length") and i + 1 < len(args):
            i += 1
        elif not t.startswith("-") or t == "-":
            operands.append(w)
        i += 1
    if not scripts and operands:
        scripts.append(operands[0])
    return scripts


@handles("yq")
def _yq(cmd: Cmd) -> None:
    if cmd.short("i") or cmd.long("--inplace"):
        cmd.add(M, "write", "yq -i edits files in place")


# GNU tar options that run another program, by their full long name (ext6). A long option
# may be abbreviated to any unique prefix (`--to-com`, `--checkpoint-act`); `-I` is
# `--use-compress-program` and `-F` `--info-script` (`--new-volume-script`).
_TAR_HELPERS = (
    "--checkpoint-action",
    "--to-command",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--rmt-command",
    "--rsh-command",
)
_TAR_SHORT_HELPERS = {"I": "--use-compress-program", "F": "--info-script"}
# Other options that take a value as the next word (long forms match by unique prefix too).
_TAR_LONG_VALUED = (
    "--file",
    "--directory",
    "--exclude",
    "--exclude-from",
    "--files-from",
    "--index-file",
    "--volno-file",
    "--owner",
    "--group",
    "--mode",
    "--format",
    "--label",
    "--transform",
    "--xform",
    "--blocking-factor",
    "--newer",
    "--after-date",
    "--newer-mtime",
    "--strip-components",
    "--tape-length",
    "--record-size",
    "--starting-file",
)
_TAR_SHORT_VALUED = frozenset("fCFITXbLNVgHK")
# Programs that read what they are fed as code: archive contents piped into them run unseen.
_STDIN_INTERPRETERS = frozenset(
    names("sh bash dash zsh ksh ash python python3 perl ruby node php psql mysql sqlite3 osascript")
)


def _tar_long(text: str) -> tuple[str, str | None] | None:
    """`--to-com='x'` -> (`--to-command`, `x`); None when no helper or valued option fits."""
    name, eq, value = text.partition("=")
    for full in (*_TAR_HELPERS, *_TAR_LONG_VALUED):
        if full == name:
            return full, value if eq else None
    fits = [f for f in (*_TAR_HELPERS, *_TAR_LONG_VALUED) if f.startswith(name) and len(name) > 4]
    if len(fits) == 1 and name != "--checkpoint":
        return fits[0], value if eq else None
    return None


def _tar_options(cmd: Cmd) -> tuple[str, list[tuple[str, Word]], list[Word]]:
    """The mode letters, the helper options in order (name, value) and the operands of a tar
    command line: old-style bundles (`tar cIf PROG out.tar`), glued values (`-I'prog'`),
    separate values (`--to-command 'x'`) and options after operands all count."""
    args = cmd.args
    flags = ""
    helpers: list[tuple[str, Word]] = []
    operands: list[Word] = []
    i = 0
    if args and not args[0].text.startswith("-") and cmd.name != "bsdtar":
        # `tar cIf 'prog' out.tar`: the first word is a bundle of letters without a dash;
        # each letter taking a value takes the next word, in order.
        bundle = args[0].text
        i = 1
        for letter in bundle:
            flags += letter
            if letter in _TAR_SHORT_VALUED and i < len(args):
                if letter in _TAR_SHORT_HELPERS:
                    helpers.append((_TAR_SHORT_HELPERS[letter], args[i]))
                i += 1
    ended = False
    while i < len(args):
        w = args[i]
        t = w.text
        if ended or not t.startswith("-") or t == "-":
            operands.append(w)
        elif t == "--":
            ended = True
        elif t.startswith("--"):
            long = _tar_long(t)
            if long is not None:
                name, value = long
                if value is None and i + 1 < len(args):
                    i += 1
                    value_word = args[i]
                else:
                    value_word = Word(value or "", w.start, w.end, w.dynamic, False, w.origin)
                if name in _TAR_HELPERS:
                    helpers.append((name, value_word))
            elif t in ("--extract", "--get", "--list", "--create", "--append", "--update"):
                flags += {"--extract": "x", "--get": "x", "--list": "t"}.get(t, "c")
            elif t in ("--to-stdout",):
                flags += "O"
        else:
            # `-cI'prog'`, `-xOf a.tar`: letters, where a valued letter takes the rest of the
            # word, or the next word when it is the last letter.
            letters = t[1:]
            for k, letter in enumerate(letters):
                flags += letter
                if letter in _TAR_SHORT_VALUED:
                    rest = letters[k + 1 :]
                    if rest:
                        value_word = Word(rest, w.start, w.end, w.dynamic, False, w.origin)
                    elif i + 1 < len(args):
                        i += 1
                        value_word = args[i]
                    else:
                        break
                    if letter in _TAR_SHORT_HELPERS and cmd.name != "bsdtar":
                        helpers.append((_TAR_SHORT_HELPERS[letter], value_word))
                    if letter == "f":
                        operands.insert(0, value_word)  # the archive
                    break
        i += 1
    return flags, helpers, operands


def _tar_helpers(cmd: Cmd, parsed: tuple[str, list[tuple[str, Word]], list[Word]]) -> bool:
    """Judge the programs a tar command line makes tar run; True when one was judged."""
    flags, helpers, _operands = parsed
    archive = cmd.option_value("-f", "--file")
    remote = archive is not None and ":" in archive.text.split("/", 1)[0]
    if not remote:
        archive_words = [w for w in cmd.args if re.match(r"^[\w.-]+:", w.text)]
        remote = bool(archive_words) and "f" in flags
    creating = any(c in flags for c in "cru")
    last: dict[str, Word] = {}
    judged = False
    for name, value in helpers:
        if name == "--checkpoint-action":
            action, eq, code = value.text.partition("=")
            if value.dynamic and not eq:
                cmd.add(C, "config-exec", "tar runs a checkpoint action known only at run time")
                judged = True
            elif action == "exec" and eq:
                run_config_command(
                    cmd, Word(_tar_unquote(code), value.start, value.end, value.dynamic), "tar"
                )
                judged = True
            continue
        last[name] = value  # one program per helper: the last one given wins
    for name, value in last.items():
        what = f"tar {name}"
        if name == "--to-command" and ("x" not in flags or "O" in flags):
            continue  # only extraction runs it, and -O/--to-stdout takes its place
        if name == "--rmt-command" and (not remote or cmd.long("--force-local")):
            continue
        judged = True
        if value.dynamic:
            cmd.add(C, "config-exec", f"{what} runs a program only known at run time", value)
            continue
        if name == "--rsh-command":
            # One program path, run without a shell: `--rsh-command='a b'` names no command.
            cmd.add(M, "runs-program", f"{what} runs another program", value)
            continue
        if name in ("--to-command", "--use-compress-program") and _feeds_interpreter(value.text):
            # `--to-command='sh'`, `-I 'psql -X'`: the archive's contents are the code run.
            cmd.add(C, "config-exec", f"{what} feeds archive contents to an interpreter", value)
            continue
        code = value.text
        if name == "--use-compress-program" and not creating:
            # Decompression runs the program from its words (argv), not through a shell:
            # `-I 'echo safe; git reset --hard'` runs only echo.
            try:
                code = shlex.join(shlex.split(value.text))
            except ValueError:
                code = value.text
        run_config_command(cmd, Word(code, value.start, value.end, value.dynamic), what)
    return judged


def _feeds_interpreter(text: str) -> bool:
    """Whether a helper program reads its input as code: `sh`, `psql -X`, `sh -c 'psql'`."""
    try:
        words = shlex.split(text)
    except ValueError:
        return False
    if not words or command_name_of(words[0]) not in _STDIN_INTERPRETERS:
        return False
    for k, a in enumerate(words[1:], 1):
        if a in ("-c", "-e", "-f", "--command", "--file") or (a.startswith("-") and "c" in a[1:]):
            if a == "-c" and command_name_of(words[0]) in names("sh bash dash zsh ksh ash"):
                return k + 1 < len(words) and _feeds_interpreter(words[k + 1])
            return False
    # `psql -X`, `sh`: only options, so the input is the program; `python3 h.py` runs h.py.
    return all(a.startswith("-") for a in words[1:])


def command_name_of(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _tar_unquote(code: str) -> str:
    """GNU tar unquotes a checkpoint command (`\\147` is `g`) and strips one pair of quotes."""
    code = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), code)
    if len(code) >= 2 and code[0] == code[-1] and code[0] in "\"'":
        code = code[1:-1]
    return code


@handles("tar", "bsdtar", "gtar")
def _tar(cmd: Cmd) -> None:
    parsed = _tar_options(cmd)
    flags = parsed[0]
    if _tar_helpers(cmd, parsed):
        return
    if "t" in flags or cmd.long("--list"):
        return
    if cmd.long("--remove-files"):
        ops = [w.text.strip("\"'") for w in cmd.args if not w.text.startswith("-")]
        if any(o in (".", "./", "*", "./*", "/", "/*", "~", "~/", "$HOME", "${HOME}") for o in ops):
            # `tar --remove-files -cf /dev/null .`: every file of the folder archived and removed
            cmd.add(B, "delete", "tar --remove-files deletes the whole folder it archives")
            return
        from aintern_ls.safety.files import delete_targets

        # `tar --remove-files -czf x.tgz /etc/pki`: each archived path is deleted, judged as
        # rm -r judges it (n13u)
        archive = cmd.option_value("-f", "--file")
        named = [
            w
            for w in cmd.args
            if not w.text.startswith("-") and (archive is None or w is not archive)
        ]
        if named:
            delete_targets(cmd, named, True, "tar --remove-files deletes")
            return
        cmd.add(D, "delete", "tar --remove-files deletes the originals")
        return
    appends = "r" in flags or "u" in flags or cmd.long("--append", "--update", "--catenate")
    if ("c" in flags or appends) and _tar_writes_over(cmd, not appends):
        return
    if "x" in flags and ("O" in flags or cmd.long("--to-stdout")) and not parsed[1]:
        return  # `tar -xOf a.tar member`: extracts to standard output, writes no file
    target = cmd.option_value("-C", "--directory")
    if "x" in flags or cmd.long("--extract", "--get"):
        wrappers.unpacked_download(cmd, cmd.args, target.text if target is not None else None)
        archive = cmd.option_value("-f", "--file")
        if archive is None or archive.text == "-":
            wrappers.unpacked_from_network(cmd, target.text if target is not None else None)
    if target is not None and "x" in flags and system.extracts_over_system(cmd, target):
        return
    if ("x" in flags or cmd.long("--extract", "--get")) and system.extracts_into(cmd, target):
        return
    cmd.add(M, "write", "tar writes files")


def _tar_archive(cmd: Cmd) -> Word | None:
    """The archive file of a tar command line: `-f FILE`, `-cPf FILE`, `-cf/FILE`,
    `--file=FILE`, or an old-style bundle's `f` taking its word in order (`tar czf FILE`)."""
    args = cmd.args
    if args and not args[0].text.startswith("-") and cmd.name != "bsdtar":
        i = 1
        for letter in args[0].text:
            if letter in _TAR_SHORT_VALUED and i < len(args):
                if letter == "f":
                    return args[i]
                i += 1
    for i, w in enumerate(args):
        t = w.text
        if t == "--":
            break
        if t.startswith("--file"):
            if t.startswith("--file="):
                return Word(t[7:], w.start, w.end, w.dynamic, False, w.origin)
            if t == "--file" and i + 1 < len(args):
                return args[i + 1]
        elif len(t) > 1 and t[0] == "-" and t[1] != "-":
            for k, c in enumerate(t[1:], 1):
                if c == "f":
                    if k < len(t) - 1:
                        return Word(t[k + 1 :], w.start, w.end, w.dynamic, False, w.origin)
                    return args[i + 1] if i + 1 < len(args) else None
                if c in _TAR_SHORT_VALUED:
                    break
    return None


def _tar_writes_over(cmd: Cmd, create: bool) -> bool:
    """`tar -cPf /etc/shadow dir`, `tar czf ~/.bashrc src`: the archive created is written
    over the file it names; an account or boot file is blocked, a startup file persistence
    (n11u). True when judged here."""
    archive = _tar_archive(cmd)
    if archive is None or archive.dynamic or archive.text in ("-", "/dev/null"):
        return False
    t = write_target(archive.text, cmd.scope.cwds, append=not create)
    if t is None:
        return False
    cmd.add(t.level, t.rule, f"{cmd.name} writes its archive over {t.what}", archive)
    return True


# (h18) systemd-analyze verbs that only print (`log-level`/`log-target`/`service-watchdogs`
# with a value change the manager, so they are left out)
_SYSTEMD_ANALYZE_READ = frozenset(
    names(
        """
        time blame critical-chain plot dot dump cat-config unit-files unit-paths exit-status
        capability condition syscall-filter filesystems calendar timestamp timespan security
        inspect-elf verify fdstore image-policy has-tpm2 pcrs srk architectures smbios11
        """
    )
)

_MISC_NAMES = names(
    """
    unzip 7z 7za gunzip gzip bzip2 bunzip2 xz unxz zstd zip unrar patch ed ex vi vim nvim nano
    emacs code subl nl-write split csplit ln link convert magick ffmpeg pandoc renice
    mount umount swapoff swapon modprobe insmod rmmod ip ifconfig route hostnamectl timedatectl
    localectl systemd-analyze nmcli defaults open xdg-open start explorer osascript-run nohup-run
    jupyter streamlit uvicorn gunicorn flask django-admin manage.py rails hugo jekyll mkdocs
    sphinx-build wasm-pack webpack vite next nuxt ng expo gcc g++ clang clang++ cc javac java
    rustc ld as strip objcopy pkill-dry ssh-keygen ssh-add ssh-copy-id gpg age sops vault
    htpasswd mkcert certbot export declare typeset local readonly set unset shopt ulimit umask
    history bind complete dotnet-run jq-write vagrant packer ansible-playbook
    ansible-galaxy chef puppet salt nginx apachectl caddy loginctl journalctl dmesg git-lfs
    direnv stow pbcopy xclip xsel wl-copy notify-send say espeak beep tput stty reset
    clear cls exit logout return break continue shift wait jobs fg bg disown read mapfile
    readarray getopts let pushd popd dirs cd chdir set-location sl push-location pop-location z
    j
    """
)


def _read_known(cmd: Cmd) -> None:
    """`read -ra c <<< 'mkfs.ext4 /dev/sdb'`, `read x <<< 'rm'`: the variables take the
    known text (an array its words), so `"${c[@]}"` / `$x …` are judged as written (m7)."""
    args = list(cmd.args)
    array: str | None = None
    plain: list[str] = []
    k = 0
    while k < len(args):
        t = args[k].text
        if re.fullmatch(r"-[ers]*a", t) and k + 1 < len(args):
            array = args[k + 1].text
            k += 2
            continue
        if t in ("-d", "-n", "-N", "-p", "-t", "-u", "-i"):
            if t in ("-d", "-n", "-N") or k + 1 >= len(args):
                return  # delimiter or count: the split is not the plain first line
            k += 2
            continue
        if not t.startswith("-"):
            if not re.fullmatch(r"[A-Za-z_]\w*", t):
                return
            plain.append(t)
        k += 1
    before = cmd.scope.source[max(0, cmd.start - 200) : cmd.start]
    ifs = re.search(r"\bIFS=(\S*)\s*$", re.split(r"[;&|\n]", before)[-1])
    if ifs is not None or "IFS" in cmd.scope.env:
        return  # a custom field separator: the split is not the plain one
    line = cmd.stdin.text.split("\n", 1)[0]
    if array is not None and re.fullmatch(r"[A-Za-z_]\w*", array):
        cmd.scope.env[array] = "\x01".join(line.split())  # bash's word-split array
    elif plain:
        fields = line.split(None, len(plain) - 1)
        for name, value in zip(plain, fields + [""] * len(plain), strict=False):
            cmd.scope.env[name] = value


def _rust_linker(cmd: Cmd) -> bool:
    """`rustc -C linker=./x.sh`, `-Clinker=/tmp/l`: the linker rustc runs is judged as a
    build program (a script nobody read: opaque, critical) (n13u, probe13)."""
    from aintern_ls.safety.registry import build_program_findings

    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        value = None
        if t == "-C" and i + 1 < len(args) and args[i + 1].text.startswith("linker="):
            value = Word(args[i + 1].text[7:], args[i + 1].start, args[i + 1].end)
        elif t.startswith("-Clinker="):
            value = Word(t[9:], w.start, w.end)
        elif t.startswith("--codegen=linker=") or t.startswith("--codegen linker="):
            value = Word(t.split("linker=", 1)[1], w.start, w.end)
        if value is not None and not w.dynamic:
            found = build_program_findings(cmd.scope, "rustc's linker", value)
            if found:
                cmd.scope.include(found)
                return True
    return False


def _misc(cmd: Cmd) -> None:
    n = cmd.name
    texts = cmd.texts()
    system.misc_hooks(cmd)  # commands embedded in editors', compilers' and tools' options
    if n == "set" and len(texts) >= 2:
        wrappers.other_shell_export(cmd)  # fish `set -gx NAME value` (n13u), `set NAME v`
    if n == "rustc" and _rust_linker(cmd):
        return
    if n == "mount" and any(
        t in ("--bind", "--rbind", "-B", "-R") or re.search(r"(?:^|,)r?bind(?:,|$)", t)
        for t in texts
    ):
        # `mount --bind / /mnt/r`: the mount point is the folder, as a link to it (n13u)
        ops = [w for w in cmd.args if not w.text.startswith("-") and "bind" not in w.text]
        if len(ops) >= 2:
            wrappers.linked_folder(cmd, ops[-2:-1], ops[-1])
    if n in ("xclip", "xsel") and any(
        t in ("-o", "-out", "--output", "-output") or re.fullmatch(r"-[a-z]*o[a-z]*", t)
        for t in texts
        if n == "xsel" or t != "-selection"
    ):
        return  # prints the clipboard (sig7)
    if n in ("7z", "7za", "unrar") and texts and texts[0] in ("l", "t", "i", "h", "lt", "lb"):
        return  # list, test, info: read-only
    if n == "vagrant" and (
        texts[:1] in (["status"], ["global-status"], ["ssh-config"], ["version"], ["port"])
        or texts[:1] in (["validate"], ["--version"], ["-v"], ["help"])
        or texts[:2] in (["box", "list"], ["plugin", "list"], ["snapshot", "list"])
    ):
        return  # vagrant's status and listing verbs only read (n11u)
    if n in ("vi", "vim", "nvim", "ex", "view", "vimdiff", "gvim") and system.vi_shell_escapes(cmd):
        return
    if n in ("vi", "vim", "nvim", "ex") and system.vi_read_only(cmd):
        system.vim_commands(cmd)
        return  # (h18) `vim -R FILE`, `vim -es +'%p' +q! FILE`: viewed or printed only
    if n in ("unzip", "7z", "7za", "unrar") and (
        n == "unzip" or (texts and texts[0] in ("x", "e"))
    ):
        # `unzip t.zip -d t`, `7z x t.7z -ot` of a download: what lands there is unseen.
        dest = cmd.option_value("-d") if n == "unzip" else None
        glued = next((t[2:] for t in texts if t.startswith("-o") and len(t) > 2), None)
        wrappers.unpacked_download(cmd, cmd.args, dest.text if dest is not None else glued)
        if "-" in texts or "-si" in texts or "/dev/stdin" in texts:
            wrappers.unpacked_from_network(cmd, dest.text if dest is not None else glued)
    if n in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd") and (
        not cmd.operands()
        or any(
            t in ("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list") for t in texts
        )
        or any(re.fullmatch(r"-[a-z0-9]*[ctl][a-z0-9]*", t) for t in texts)
    ):
        return  # filters stdin to stdout, or only tests/lists: writes no file
    if n in ("zip", "unzip") and any(
        t in ("-TT", "--unzip-command") or t.startswith(("-TT=", "--unzip-command=")) for t in texts
    ):
        program = cmd.option_value("-TT", "--unzip-command")
        if program is None:
            # `-TT='rm -rf ~'`: the attached form (safety-m9)
            w = next(w for w in cmd.args if w.text.startswith("-TT="))
            program = Word(w.text[4:], w.start, w.end, w.dynamic, w.glob, w.origin)
        run_config_command(cmd, program, f"{n} -TT")
        return
    if n in ("unzip", "zip") and texts and any(t in ("-l", "-v", "-t", "-Z", "-sf") for t in texts):
        return
    if n == "zip" and "-T" in texts and len(cmd.operands()) == 1:
        return  # `zip -T archive.zip`: tests the archive, adds nothing (safety-m9)
    if n == "read" and cmd.stdin.kind == "static" and cmd.scope.family == "bash":
        _read_known(cmd)
    if n in ("mapfile", "readarray", "complete", "bind", "fc", "compgen") and (
        cmd.scope.family == "bash"
    ):
        _shell_callbacks(cmd)
    if n in _SHELL_STATE:
        if n in ("cd", "chdir", "set-location", "sl", "pushd", "push-location", "z", "j"):
            ops = cmd.operands()
            if ops:
                cmd.scope.pending_cd = ops[0].text
        if n == "set" and ("-e" in texts or ("-o" in texts and "errexit" in texts)):
            cmd.scope.errexit = True
        if n == "export" and any(re.match(r"^(HISTFILE|HISTSIZE)=", t) for t in texts):
            cmd.add(M, "history", "turns off shell history")
        if n == "history" and "-s" in texts and cmd.scope.family == "bash":
            _history_stored(cmd, texts.index("-s"))
        if n == "history" and any(re.fullmatch(r"-[a-z]*c[a-z]*", t) for t in texts):
            # `history -c` (and `-cw`): the session's record of commands is wiped.
            cmd.add(D, "history-wipe", "clears the shell history (the record of what ran)")
        elif n == "history" and any(re.fullmatch(r"-[a-z]*[wd][a-z]*", t) for t in texts):
            cmd.add(M, "history", "rewrites or edits the shell history")
        return
    if n in ("journalctl", "dmesg"):
        if n == "journalctl" and any(t.startswith("--vacuum") for t in texts):
            # the system journal emptied: log clearing, as `wevtutil cl` is
            cmd.add(C, "clear-logs", "journalctl deletes the system journal")
        elif any(
            t.startswith(("--vacuum", "--rotate", "--flush")) or t in ("-c", "-C", "--clear")
            for t in texts
        ):
            cmd.add(M, "write", f"{n} deletes logs")
        return
    if n in ("hostnamectl", "timedatectl", "localectl") and next(
        (t for t in texts if not t.startswith("-")), "status"
    ) in ("status", "show", "list-timezones", "list-locales", "list-keymaps", "timesync-status"):
        return  # the status and listings only read
    if n == "systemd-analyze" and next((t for t in texts if not t.startswith("-")), "time") in (
        _SYSTEMD_ANALYZE_READ
    ):
        return  # (h18) boot timings, unit checks and listings: printed, nothing changed
    if n in ("ip", "ifconfig", "route", "mount", "swapon", "umount") and (
        not texts
        or (
            (
                texts[0]
                in names(
                    """
                    a addr address link r route show -a list -s -br -c neigh -4 -6 l --show
                    --summary
                    """
                )
                # (h18) `route -n`, `route -ee`, macOS `route -n get default`: the table
                or (n == "route" and texts[0] in ("-n", "-e", "-ee", "get", "monitor", "print"))
            )
            and not any(
                t in ("add", "del", "delete", "set", "flush", "change", "replace", "up", "down")
                for t in texts
            )
            # (h18) `-a` lists for ip/ifconfig; `mount -a`/`umount -a`/`swapon -a` act on
            # every filesystem or swap area in fstab
            and not (n in ("mount", "umount", "swapon") and ("-a" in texts or "--all" in texts))
            # (r18) Windows `route -f`/`/f` clears the table first, wherever it stands
            and not (n == "route" and any(t.lower() in ("-f", "/f") for t in texts))
        )
    ):
        return
    if n == "gpg" and any(t.startswith("--export-secret") for t in texts):
        cmd.info.reads_secret = True
        cmd.add(M, "read-secret", "exports private keys")
        return
    if n in ("gpg",) and any(
        t in ("--list-keys", "-k", "--list-secret-keys", "-K", "--verify", "--fingerprint")
        for t in texts
    ):
        return
    if n in ("vault", "sops") and texts and texts[0] in ("status", "read", "list", "version"):
        return
    if n in ("ssh-add",) and any(t in ("-l", "-L") for t in texts):
        return
    if n == "defaults" and texts[:1] in (["read"], ["read-type"], ["domains"], ["find"]):
        return  # macOS preferences read, listed or searched
    if n == "defaults" and len(texts) > 2 and texts[0] == "-currentHost" and texts[1] == "read":
        return
    if n == "ssh-keygen":
        # `-l` (fingerprint), `-F` (look up a host), `-y` (print the public key), `-B`, `-L`
        # (print a certificate), `-Q` (test a revocation list): read and print only.
        flags = "".join(t[1:] for t in texts if re.fullmatch(r"-[a-zA-Z]+", t))
        if re.search("[lFyBLQ]", flags) and not re.search("[RHpcskADNtGTMWuIOnVZaCmKr]", flags):
            return
    if n == "ansible-playbook" and ("--check" in texts or "--syntax-check" in texts):
        return
    if system.command_options(cmd):
        return
    if n in ("unzip", "7z", "7za", "unrar"):
        dest = cmd.option_value("-d") if n == "unzip" else None
        out_opt = next((w for w in cmd.args if w.text.startswith("-o") and len(w.text) > 2), None)
        if dest is None and out_opt is not None and n != "unzip":
            dest = Word(out_opt.text[2:], out_opt.start, out_opt.end, out_opt.dynamic)
        if dest is not None and system.extracts_over_system(cmd, dest):
            return
    if n in ("java", "gcc", "clang", "rustc", "javac", "g++", "cc", "clang++") and texts in (
        ["-version"],
        ["--version"],
        ["-v"],
    ):
        return
    if n == "caddy" and texts[:1] == ["file-server"]:
        # `caddy file-server --root /`: publishes the folder, like `python3 -m http.server`
        from aintern_ls.safety.network import local_only, serve_folder

        serve_folder(cmd, cmd.option_value("-r", "--root"), not local_only(cmd))
        return
    if n in ("nginx", "apachectl", "caddy") and any(
        t in ("-t", "-T", "configtest", "validate", "-v", "-V") for t in texts
    ):
        return
    if n in ("umount", "swapoff") and any(t in ("-a", "--all") for t in texts):
        cmd.add(D, "disk", f"{n} -a detaches every filesystem")
        return
    if n == "modprobe" and (cmd.short("n") or cmd.long("--dry-run", "--show")):
        return  # (h20) `modprobe -n -v -a x y`: a dry run prints what it would do
    if n in ("rmmod", "modprobe") and ("-r" in texts or n == "rmmod"):
        cmd.add(C, "kernel", "removes a kernel module (can disable a security or network layer)")
        return
    if n == "modprobe" and any(t in _MODPROBE_SHOWS for t in texts):
        return  # (h19) `modprobe -D ext4`, `--show-depends`, `-c`: prints, loads nothing
    if n in ("modprobe", "insmod") and not any(t in ("-n", "--dry-run", "-c") for t in texts):
        cmd.add(C, "kernel", f"{n} loads code into the kernel")
        return
    if n == "defaults" and texts[:1] in (["read"], ["read-type"], ["domains"], ["find"]):
        return  # macOS `defaults read DOMAIN`: prints settings
    if (
        n in _EDITORS
        and texts
        and (texts[0] == "--list-extensions" or all(t in _EDITOR_PRINTS for t in texts))
    ):
        return  # (a21) `code --list-extensions [--show-versions]`, `code --version`: print
    cmd.add(M, "changes", f"{n} changes files, settings or starts programs")


_EDITORS = frozenset({"code", "code-insiders", "codium", "cursor", "windsurf"})
_EDITOR_PRINTS = frozenset({"--version", "-v", "--help", "-h", "--status", "--list-extensions"})


for _n in _MISC_NAMES:
    handles(_n)(_misc)

_SHELL_STATE = frozenset(
    names(
        """
        export declare typeset local readonly set unset shopt ulimit umask history bind
        complete hash stty reset clear cls exit logout return break continue shift wait jobs fg
        bg disown read mapfile readarray getopts let pushd popd dirs cd chdir set-location sl
        push-location pop-location z j tput beep notify-send say
        """
    )
)


# Programs whose read-only modes detection rules list as look-alikes (safety-sig7): the
# clipboard printed, Kerberos tickets listed, traffic control shown, network config read.
@handles("pbpaste", "klist", "tc", "scutil")
def _read_modes(cmd: Cmd) -> None:
    texts = [t.lower() for t in cmd.texts()]
    n = cmd.name
    if n == "pbpaste":
        return
    if n == "klist":
        if any(t in ("purge", "-p", "--purge", "add_bind", "kdestroy") for t in texts):
            cmd.add(M, "changes", "klist purge deletes the cached Kerberos tickets")
        return
    if n == "tc":
        verbs = {t for t in texts if not t.startswith("-")}
        if (
            texts
            and verbs & {"show", "list", "ls", "lst", "monitor"}
            and not verbs
            & {
                "add",
                "del",
                "delete",
                "change",
                "replace",
                "flush",
                "exec",
            }
        ):
            return
        cmd.add(M, "network", "tc changes traffic control")
        return
    if texts[:1] and texts[0].startswith(("--dns", "--proxy", "--nwi", "--get", "-r")):
        return  # scutil --dns / --proxy / --nwi / --get NAME / -r HOST: prints
    cmd.add(M, "network", "scutil changes system configuration")


# --- the read-only allowlist ------------------------------------------------------------

_READ_ONLY = names(
    """
    : ls ll la dir vdir exa eza lsd head tail less more most wc grep egrep fgrep rg ag ack tree
    pwd echo printf print which whereis type uname whoami id groups hostname uptime df du free ps
    pstree pgrep top htop btop atop env printenv file stat realpath readlink dirname basename
    sort uniq cut tr diff cmp comm column nl od xxd hexdump strings md5sum sha1sum sha256sum
    sha512sum shasum md5 cksum b2sum base64 base32 basenc jq gojq jless fx man info help true false
    test [ [[ sleep seq expr bc dc lsof netstat ss dig nslookup host ping ping6 traceroute
    tracepath mtr whois lsblk blkid lscpu lsusb lspci lsmod lshw nproc arch date cal locale tty
    users who w last lastlog finger getent vmstat iostat mpstat sar nvidia-smi sw_vers
    system_profiler sysctl-read ioreg mdfind mdls locate plocate mlocate slocate fzf bat batcat glow
    delta difft envsubst uuidgen
    colordiff wdiff tac rev fold fmt paste join expand unexpand pr look tsort factor numfmt
    shuf yes zcat zless zgrep bzcat xzcat zstdcat lzcat csvlook csvstat xmllint tidy-check
    identify pdfinfo ffprobe mediainfo
    flake8 pylint pyflakes pycodestyle pydocstyle bandit mypy pyright
    basedpyright shellcheck hadolint yamllint markdownlint golangci-lint staticcheck actionlint
    tflint checkov tfsec trivy semgrep codespell cloc tokei scc ctags-read nm objdump readelf
    ldd otool size test-path test-connection get-content get-item get-location
    get-process get-service get-command get-help get-date get-host get-itemproperty
    get-filehash get-acl get-computerinfo get-module get-variable get-alias get-history
    get-member get-netipaddress get-netadapter get-nettcpconnection get-psdrive get-volume
    get-disk get-partition get-eventlog get-winevent get-ciminstance get-wmiobject get-hotfix
    get-localuser get-localgroup get-executionpolicy get-mpcomputerstatus get-mppreference
    get-package get-installedmodule get-uptime get-culture select-object where-object
    measure-object sort-object group-object format-table format-list format-wide format-custom
    out-string out-host out-null out-default write-host write-output write-verbose
    write-warning write-error write-information write-debug write-progress select-string
    resolve-path split-path join-path convertto-json convertfrom-json convertto-csv
    convertfrom-csv convertto-html convertto-xml convertfrom-stringdata compare-object
    foreach-object measure-command start-sleep read-host clear-host get-random new-timespan
    get-culture test-json tee-object-read out-gridview where findstr ver vol tasklist
    systeminfo ipconfig whoami.exe hostname.exe fc comp chcp path getmac driverquery wmic-read
    nvm-ls nl pathchk printf-read tldr cheat apropos whatis nmap-version speedtest
    iperf-version sensors acpi upower neofetch fastfetch screenfetch hyperfine-version
    go-version node-version coverage ncdu dust duf procs bottom glances watchman-version
    entr-list sw-version xcode-select xcrun-version lsb_release hostnamectl-status cat-read
    stat-read ls-read lsattr namei getfacl getcap id-read
    """
)


# (h19) modprobe's modes that only print: the dependencies it would load, its configuration,
# the modules' list (old modprobe -l).
_MODPROBE_SHOWS = frozenset(
    names(
        """
        -D --show-depends -c --showconfig --show-config -l --list --show-modversions
        -R --resolve-alias --show-exports --dump-modversions
        """
    )
)


# ripgrep's options that take a value (the word after them is not the pattern or a path).
_RG_VALUED = frozenset(
    names(
        """
        -e --regexp -f --file -g --glob --iglob -t --type -T --type-not --type-add --type-clear
        -A --after-context -B --before-context -C --context -m --max-count -j --threads
        -M --max-columns -E --encoding -r --replace -d --max-depth --max-filesize --sort
        --sortr --color --colors --context-separator --field-context-separator
        --field-match-separator --path-separator --pre --pre-glob --ignore-file --engine
        --dfa-size-limit --regex-size-limit --hostname-bin --hyperlink-format
        """
    )
)


def _rg_pre_per_file(cmd: Cmd, prog: Word) -> None:
    """`rg --pre rm x ~`: ripgrep runs the preprocessor as `PROG FILE` on every file it
    searches, so it is judged as `find PATHS -type f -exec PROG {} \\;` (n11u)."""
    ops = cmd.operands(_RG_VALUED)
    given = any(w.text in ("-e", "--regexp", "-f", "--file") for w in cmd.args) or any(
        w.text.startswith(("--regexp=", "--file=")) for w in cmd.args
    )
    paths = [w for w in (ops if given else ops[1:]) if not w.dynamic] or [Word(".", 0, 0)]
    line = "find {} -type f -exec {} {{}} \\;".format(
        " ".join(shlex.quote(w.text) for w in paths[:8]), prog.text
    )
    found = cmd.scope.nested(line, "bash", prog, -1)
    if max((f.level for f in found), default=M) >= D:
        cmd.scope.include(
            [
                Finding(
                    f.level,
                    f.rule,
                    f.reason.replace("find -exec ", "rg --pre ")
                    .replace("find runs", "rg --pre runs")
                    .replace("every file found", "every file searched"),
                    f.start,
                    f.end,
                )
                for f in found
            ]
        )


def _read_only(cmd: Cmd) -> None:
    n = cmd.name
    texts = cmd.texts()
    if n in ("jq", "gojq", "jaq") and len(texts) > 1:
        from aintern_ls.safety import agents

        agents.judge_jq(cmd.scope, cmd.args)  # (a21) a filter written back to agent settings
    if n == "fc" and cmd.scope.family == "bash" and ("-e" in texts or "-s" in texts):
        _shell_callbacks(cmd)  # (n19u) `fc -e EDITOR`: bash's history editor runs EDITOR
    if n in ("rg",) and any(t.startswith(("--pre", "--hostname-bin")) for t in texts):
        # `--pre` runs a program on each file, `--hostname-bin` one for the hyperlink host.
        # (`--pre-glob` alone runs nothing; words after `--` are patterns and paths.)
        opts = texts[: texts.index("--")] if "--" in texts else texts
        for opt in ("--pre", "--hostname-bin"):
            if not any(t == opt or t.startswith(opt + "=") for t in opts):
                continue
            prog = cmd.option_value(opt)
            if prog is not None:
                run_config_command(cmd, prog, f"rg {opt}")
                if opt == "--pre" and not prog.dynamic:
                    _rg_pre_per_file(cmd, prog)
            else:
                cmd.add(M, "runs-program", f"rg {opt} runs another program")
    elif n == "join-path":
        join_path_output(cmd)  # `Join-Path $env:windir System32 | Remove-Item …`
    elif n == "tree" and cmd.option_value("-o", "--output") is not None:
        cmd.add(M, "write", "tree -o writes the listing to a file")
    elif n in ("sort",) and (cmd.option_value("-o", "--output") is not None):
        cmd.add(M, "write", "sort -o writes a file")
    elif n in system.POSITIONAL_OUTPUT and system.positional_output(cmd):
        return
    elif (n in ("date",) and cmd.short("s")) or (n == "date" and cmd.long("--set")):
        cmd.add(M, "system-config", "date -s changes the clock")
    elif n == "hostname" and cmd.operands():
        cmd.add(M, "system-config", "hostname changes the host name")
    elif n == "dc" and cmd.option_value("-e", "--expression") is not None:
        system.repl_tool(cmd)  # dc -e '!cmd'
    elif (
        n in ("base64", "base32", "basenc")
        # (`-oFILE` glued, as getopt reads it: gen11, Codex's safe-command tests)
        and (out := system.option_glued(cmd, "-o", "--output")) is not None
    ):
        cmd.add(M, "write", f"{n} writes the file {out.text}", out)
    elif (n == "xxd" and cmd.short("r")) or (
        n in ("base64", "base32", "basenc") and (cmd.short("dD") or cmd.long("--decode"))
    ):
        cmd.info.decodes = True
    elif n == "man" and (pager := system.option_glued(cmd, "-P", "--pager", "-H", "--html")):
        run_config_command(cmd, pager, "man's pager option")
    elif n in ("less", "more", "most", "man") and any(t.startswith("+!") for t in texts):
        bang = next(w for w in cmd.args if w.text.startswith("+!"))
        run_config_command(cmd, Word(bang.text[2:], bang.start, bang.end), f"{n} +!")
    elif n == "fzf":
        _fzf_actions(cmd)
    elif n in ("bat", "batcat", "delta") and (pager := cmd.option_value("--pager")):
        run_config_command(cmd, pager, f"{n} --pager")
    elif n == "top" and cmd.short("k"):
        cmd.add(D, "kill", "top -k kills processes")
    elif n in ("tail", "head", "less") and any(is_secret(w.text) for w in cmd.operands()):
        cmd.add(M, "read-secret", "prints a private key or credentials file")
        cmd.info.reads_secret = True
    elif n == "getent" and texts[:1] and texts[0] in ("hosts", "ahosts", "ahostsv4", "ahostsv6"):
        # (n19u) `getent hosts $(id -un).x.example`: a name lookup through the resolver
        from aintern_ls.safety.network import dns_exfiltration

        dns_exfiltration(cmd)
    elif n in (
        "ping",
        "ping6",
        "traceroute",
        "dig",
        "nslookup",
        "host",
        "whois",
        "mtr",
        "test-connection",
    ):
        cmd.info.network_fetch = False
        from aintern_ls.safety.network import dns_exfiltration

        if not dns_exfiltration(cmd) and any(
            (w.dynamic and w.origin != "variable") or "$(" in w.text for w in cmd.args
        ):
            cmd.add(C, "exfiltration", f"{n} puts a command's output in a DNS name (exfiltration)")
    elif n in ("echo", "printf", "write-output", "write-host"):
        _echo_output(cmd)
    elif n == "print" and cmd.scope.family == "bash":
        _zsh_print_output(cmd)
    elif n in ("foreach-object", "where-object", "measure-command"):
        return


# fzf key bindings whose action runs a command line (`enter:execute(CMD)`, `become:CMD`,
# `ctrl-r:reload(CMD)`), and `--preview CMD` run on each highlighted line (safety-cat5).
_FZF_ACTION = re.compile(
    r"\b(execute(?:-silent|-multi)?|become|reload(?:-sync)?|preview|change-preview"
    r"|transform(?:-[\w-]+)?|bg-transform(?:-[\w-]+)?)\s*([(\[{<~!@#$%^&*;/|:])"
)
_FZF_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _fzf_actions(cmd: Cmd) -> None:
    for value in _fzf_values(cmd, "--bind"):
        for m in _FZF_ACTION.finditer(value.text):
            opener = m.group(2)
            rest = value.text[m.end() :]
            if opener == ":":
                line = rest  # `action:CMD` takes the rest of the binding
            else:
                close = rest.find(_FZF_CLOSE.get(opener, opener))
                line = rest if close < 0 else rest[:close]
            if line.strip():
                run_config_command(cmd, Word(line, value.start, value.end, value.dynamic), "fzf")
    for value in _fzf_values(cmd, "--preview"):
        run_config_command(cmd, value, "fzf --preview")


def _fzf_values(cmd: Cmd, name: str) -> list[Word]:
    out: list[Word] = []
    args = cmd.args
    for i, w in enumerate(args):
        if w.text == name and i + 1 < len(args):
            out.append(args[i + 1])
        elif w.text.startswith(name + "="):
            out.append(Word(w.text[len(name) + 1 :], w.start, w.end, w.dynamic))
    return out


def _zsh_print_output(cmd: Cmd) -> None:
    """(n19u) zsh's `print [-rnl] [--] ARGS`: its output for literal words (`-l` puts each on
    a line); other flags (`-P` prompt escapes, `-f` formats) leave it unknown."""
    args = list(cmd.args)
    lines = False
    while args and args[0].text.startswith("-") and len(args[0].text) > 1:
        flag = args.pop(0).text
        if flag == "--":
            break
        if not re.fullmatch(r"-[rnlN]+", flag):
            return
        lines = lines or "l" in flag
    if not any(w.dynamic for w in args):
        cmd.info.output = ("\n" if lines else " ").join(w.text for w in args)


def _shell_callbacks(cmd: Cmd) -> None:
    """(n19u) Builtins that run a command string: `mapfile -C CB` calls CB as lines are read
    and `fc -e EDITOR` runs the editor (now); `complete -C CMD`/`compgen -C CMD` run CMD to
    complete a word and `bind -x 'KEYS: CMD'` on a key press (later in this session: a
    hook, critical at least when it does harm or cannot be read)."""
    n = cmd.name
    later = n in ("complete", "bind")
    value: Word | None = None
    if n in ("mapfile", "readarray", "complete", "compgen"):
        value = cmd.option_value("-C")
    elif n == "fc":
        value = cmd.option_value("-e")
        if value is not None and value.text == "-":
            value = None  # `fc -e - …`: re-runs a history line (no editor)
            _history_rerun(cmd)
        elif "-s" in cmd.argv.textset:
            _history_rerun(cmd)
    elif n == "bind":
        spec = cmd.option_value("-x")
        if spec is not None and ":" in spec.text:
            body = spec.text.split(":", 1)[1].strip().strip("\"'")
            value = Word(body, spec.start, spec.end, spec.dynamic)
    if value is None:
        return
    what = f"{n} {'-x' if n == 'bind' else '-e' if n == 'fc' else '-C'}"
    before = len(cmd.scope.findings)
    run_config_command(cmd, value, what)
    worst = max((f.level for f in cmd.scope.findings[before:]), default=M)
    if later and worst < C and (worst >= D or value.dynamic):
        cmd.add(C, "config-exec", f"{what} runs this command later in the session", value)


shell_callbacks = _shell_callbacks  # (for the dispatcher's compgen)

# (h20) The line `history -s TEXT` put in this session's history (None: not known).
_HISTORY_KEY = "\x00history-s"


def _history_stored(cmd: Cmd, at: int) -> None:
    """(h20) `history -s 'rm -rf ~'` adds the line to the history without running it; a
    later `fc -s` (or `fc -e -`) re-runs it: kept here to be judged then."""
    words = cmd.args[at + 1 :]
    if words and not any(w.dynamic for w in words):
        cmd.scope.env[_HISTORY_KEY] = " ".join(w.text for w in words)
    else:
        cmd.scope.env[_HISTORY_KEY] = "\x00"


def _history_rerun(cmd: Cmd) -> None:
    """(h20) `fc -s` / `fc -e -` re-run a history line: a line `history -s` stored in this
    block is judged as run here; otherwise the line is one the analyser never saw (a
    command re-run unread: critical), unless a pattern names what is re-run."""
    line = cmd.scope.env.get(_HISTORY_KEY)
    if line and line != "\x00":
        for w in cmd.args:
            old, eq, new = w.text.partition("=")
            if eq and old and not w.text.startswith("-"):
                line = line.replace(old, new)  # `fc -s ls=rm`: every `ls` becomes `rm`
        before = len(cmd.scope.findings)
        cmd.scope.include(cmd.scope.nested(line, "bash", Word(line, cmd.start, cmd.end), -1))
        worst = max((f.level for f in cmd.scope.findings[before:]), default=M)
        if worst >= D:
            cmd.add(worst, "config-exec", f"fc re-runs a history line: {line[:60]}")
        return
    cmd.add(C, "eval-dynamic", "fc re-runs a history line the analyser cannot see")


@handles("string")
def _fish_string_builtin(cmd: Cmd) -> None:
    """(n19u) fish's `string` builtin only transforms text: what it prints for literal
    words is known (`string unescape --style=url 'rm%20-rf%20~' | source` runs that)."""
    args = cmd.args
    if args and not any(w.dynamic for w in args):
        cmd.info.output = fish_string(args[0].text, [w.text for w in args[1:]])


def _echo_output(cmd: Cmd) -> None:
    args = [w for w in cmd.args]
    if any(w.dynamic for w in args):
        return
    if cmd.name == "printf":
        if not args:
            return
        if args[0].text == "-v":
            return  # `printf -v NAME …` assigns a variable and prints nothing
        if args[0].text == "--":
            args = args[1:]
        if args:
            cmd.info.output = printf_output(args[0].text, [w.text for w in args[1:]])
        return
    if cmd.scope.family == "powershell" and cmd.name in ("write-output", "echo", "write"):
        # `Write-Output 'sel disk 1' 'clean' | diskpart`: each argument is an object of its
        # own, one a line down the pipe
        items = [w.text for w in args if not w.text.startswith("-")]
        cmd.info.output = "\n".join(items)
        return
    interpret = False
    while args and re.fullmatch(r"-[neE]+", args[0].text):
        interpret = interpret or "e" in args[0].text
        args = args[1:]
    text = " ".join(w.text for w in args)
    cmd.info.output = _c_escapes(text) if interpret else text


def _c_escapes(text: str) -> str:
    from aintern_ls.safety.words import ansi_c

    return ansi_c(text) if "\\" in text else text


# (h19) Test runners run the project's code (its tests, conftest.py, setup files):
# running a local test suite is moderate (HELPERS' convention, settled corpus-wide in
# session 19); only asking the runner for its help or version reads nothing.
_TEST_RUNNERS = names("pytest py.test jest vitest mocha ava tap phpunit rspec")
_RUNNER_INFO = frozenset(names("--help -h --version"))


# (h20) Their listing modes print the tests, fixtures or configuration without running a
# test: `pytest --collect-only -q`, `jest --listTests`, `vitest list`, `phpunit --list-tests`.
_RUNNER_LISTS = frozenset(
    names(
        """
        --collect-only --co --fixtures --fixtures-per-test --markers --listtests --showconfig
        --list-tests --list-suites --list-groups --list-test-files --list-tests-xml
        """
    )
)


def _test_runner(cmd: Cmd) -> None:
    _read_only(cmd)  # (the output files and program options it checks still count)
    if cmd.args and all(w.text in _RUNNER_INFO for w in cmd.args):
        return
    if (
        not cmd.argv.dynamic
        and not cmd.argv.lowset.isdisjoint(_RUNNER_LISTS)
        and not cmd.argv.lowset.intersection(("-p", "--pyargs", "-c", "--config", "--rootdir"))
    ) or (cmd.name == "vitest" and cmd.argv.texts[:1] == ("list",)):
        return
    cmd.add(M, "test-suite", f"{cmd.name} runs the project's tests (its code)")


for _n in _TEST_RUNNERS:
    handles(_n)(_test_runner)


for _n in _READ_ONLY:
    if _n not in HANDLERS:  # wrappers like `env`/`time` in wrappers.py know more
        handles(_n)(_read_only)
