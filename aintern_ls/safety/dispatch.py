"""The dispatcher: `judge(words, scope, stdin)` for one simple command.

The front ends hand it every simple command they find (already unquoted); it applies the
user's rules, looks the program up in the registry (`registry.HANDLERS`, filled by the
knowledge modules on import) and records findings on the scope. A program that is not
known is at least moderate; "safe" only comes from the read-only allowlist with its
per-option checks. Handlers that wrap another command call back into `judge` through
`Cmd.judge`, so no knowledge module imports this one.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import fnmatch
import lzma
import re
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import attrs

# The knowledge modules register their programs on import (`handles` refuses a program
# claimed by two modules, so their order does not matter).
from aintern_ls.safety import (  # noqa: F401
    allowlist,
    budget,
    carried,
    catalogues,
    clis,
    compilers,
    detections,
    files,
    git,
    infra,
    inline,
    network,
    packages,
    pickups,
    registry,
    reports,
    shape,
    system,
    toolchains,
    windows,
    winpaths,
    wrappers,
)
from aintern_ls.safety.argv import Argv, asks_help
from aintern_ls.safety.context import (
    NO_STDIN,
    PS_WHATIF_PREF,
    STDIN_FILE,
    STDIN_NETWORK,
    STDIN_OTHER,
    STDIN_STATIC,
    Cmd,
    Info,
    Scope,
    Stdin,
)
from aintern_ls.safety.levels import B, C, D, Finding, M, S
from aintern_ls.safety.paths import (
    LOG_DIR,
    LOG_SUBDIR,
    bare_disk,
    classify_path,
    is_device,
    is_secret,
    may_hold_secret,
    write_target,
)
from aintern_ls.safety.registry import (
    COMPILED,
    HANDLERS,
    JVM_PROGRAMS,
    PATH_FRONT,
    RUNNERS,
    SHELL_BUILTINS,
    SHELLS,
    SSH_OPTION_TOOLS,
    WINDOWS_HANDLERS,
    batch_launcher,
    configure_operands,
    handles,
    lookup,
    run_config_command,
    ssh_config_options,
)
from aintern_ls.safety.words import (
    ORIGIN_NETWORK,
    Word,
    command_name,
    confusable_words,
    glob_candidates,
    names,
    names_in_words,
    split_words,
    tr_output,
)

PS_ALIASES = windows.PS_ALIASES

# --- the entry point ------------------------------------------------------------------

_WHATIF_IGNORED = frozenset(
    names(
        """
        invoke-expression start-process powershell pwsh cmd invoke-command sudo runas
        """
    )
)
_VERSION_FLAGS = frozenset({"--version", "-version", "--help", "-help", "-V", "/?"})
_PRIVILEGE = frozenset({"sudo", "doas", "su", "pkexec", "runas", "gsudo", "run0"})


# (h19) A known program asked only for its usage or version prints it and exits: the short
# `-h`/`-?` too, and for the privilege tools (sudo, su, doas, pkexec) their own help and
# version flags. Not where `-h` acts (shutdown/halt/poweroff/reboot: halt).
_SHORT_HELP = frozenset({"-h", "-?", "--help", "--version", "--usage"})
_PRIVILEGE_HELP = frozenset({"--help", "-h", "--version", "-V"})
_HELP_ACTS = frozenset(names("shutdown halt poweroff reboot init telinit"))
# CLIs built on Go's flag package: `-help`/`-h` anywhere prints the subcommand's help.
_GO_FLAG_CLIS = frozenset(names("terraform tofu terragrunt vault consul nomad packer boundary"))


def _help_only(name: str, arg: str) -> bool:
    if name in _PRIVILEGE:
        # (h20) `runas /?`: cmd's help switch of the Windows privilege tools
        return arg in _PRIVILEGE_HELP or (arg == "/?" and name in ("runas", "gsudo"))
    return arg in _SHORT_HELP and name not in _HELP_ACTS


# (h20) Cloud and cluster CLIs whose argument parser (Cobra, knack, gcloud's) prints the
# (sub)command's help when `-h`/`--help` stands anywhere before `--`, and runs nothing:
# `az group delete -h`, `kubectl delete ns prod -h`, `gcloud compute instances delete -h`.
# Their help SUBCOMMAND (`gcloud help compute instances delete`, `kubectl help delete`) too.
_HELP_ANYWHERE = frozenset(
    names(
        """
        az gcloud kubectl oc helm gh flux eksctl doctl argocd istioctl linkerd kind minikube
        hcloud flyctl fly civo scw linode-cli tkn kn cilium velero
        """
    )
)
_HELP_SUBCOMMAND_FIRST = frozenset(
    names("gcloud kubectl oc helm gh flux eksctl doctl argocd istioctl linkerd kind minikube")
)
# (h20) aws: `help` as the LAST word after the service and operation names prints that
# operation's manual (`aws s3 rb help`, `aws ec2 terminate-instances help`).
_SUBCOMMAND_WORD = re.compile(r"[a-z0-9][a-z0-9-]{0,63}\Z")


# (h20) Programs whose later words are another command line (where a `/?` is that
# command's), or a script's own arguments: `/?` among them does not make them print help.
_WINDOWS_LAUNCHERS = frozenset(
    names(
        """
        cmd start call for if forfiles runas psexec psexec64 paexec winrs wsl bash sh sudo gsudo
        powershell pwsh conhost explorer rundll32 mshta wscript cscript msiexec regsvr32
        invoke-expression iex invoke-command icm start-process saps start-job
        """
    )
)


def _windows_help(name: str, argv: Argv, known: bool, scope_source: str, family: str) -> bool:
    """(h20) cmd's `/?` switch, in any position, makes a Windows tool or built-in print its
    help and do nothing (`vssadmin delete shadows /?`, `shutdown /s /?`, `sc delete /?`);
    PowerShell's `-?` common parameter shows a cmdlet's help instead of running it
    (`Disable-NetFirewallRule -?`). Not for launchers, whose `/?` belongs to what they run."""
    if argv.dynamic or name in _WINDOWS_LAUNCHERS or name in RUNNERS:
        return False
    textset = argv.textset
    if "/?" in textset:
        # (w22) a standalone, unquoted word that is no option's value
        return known and asks_help(name, argv.source, scope_source, family)
    return (
        "-?" in textset
        and "-" in name
        and name.count("-") == 1
        and name[0].isalpha()
        and asks_help(name, argv.source, scope_source, family)
    )


def _go_run_program_help(texts: Sequence[str]) -> bool:
    """(a22) `go run . --help`, `go run ./cmd/x -h`: the words after the package are the
    program's own (it is built and run, and it reads them): no help of go's."""
    if not texts or texts[0] != "run":
        return False
    at = next((k for k, t in enumerate(texts[1:], 1) if not t.startswith("-")), len(texts))
    return any(t in ("-h", "--help", "-help") for t in texts[at + 1 :])


def _before_dashes(argv: Argv) -> Sequence[str]:
    """(a21) The words before a `--`: after it they are another program's (`cargo run --
    --help`, `npm run test -- --help` run the project's code with `--help`)."""
    texts = argv.texts
    return texts[: texts.index("--")] if "--" in argv.textset else texts


# (a22) Options of the cluster and cloud CLIs that take the next word as their value (a `-h`
# right after one is that value, not a help switch).
_VALUED_BEFORE_HELP = frozenset(
    """
    -n --namespace -l --selector -o --output -f --filename -c --container --context --cluster
    --user -s --server -k --kustomize --field-selector -L --label-columns --kubeconfig --as
    --as-group --token --type --name --region --zone --project -g --resource-group
    --subscription --query --profile --repo -R --message --timeout --grace-period --values
    --set --version --image --config --format --filter --kube-context
    """.split()  # noqa: SIM905
)


def _cli_help(name: str, argv: Argv) -> bool:
    """(h20) True when this known CLI is only asked for a subcommand's help."""
    texts = argv.texts
    if not texts or argv.dynamic:
        return False
    if name == "aws":
        return (
            texts[-1] == "help"
            and len(texts) <= 4
            and all(_SUBCOMMAND_WORD.match(t) for t in texts[:-1])
        )
    if name not in _HELP_ANYWHERE:
        return False
    if texts[0] == "help" and name in _HELP_SUBCOMMAND_FIRST:
        return True
    if "--" in argv.textset:
        return False  # (`kubectl exec p -h -- rm -rf /`: not read as help here)
    if "-h" not in argv.textset and "--help" not in argv.textset:
        return False
    # (a22) pflag/knack hand the next word to an option that takes a value, whatever it
    # looks like: `kubectl delete deploy --all -l -h` deletes what the selector `-h` picks
    return any(
        t in ("-h", "--help") and (k == 0 or texts[k - 1] not in _VALUED_BEFORE_HELP)
        for k, t in enumerate(texts)
    )


def judge(words: list[Word], scope: Scope, stdin: Stdin = NO_STDIN) -> Info:
    """Judge one simple command, recording findings on `scope`.

    The front ends call this for every simple command they find. A command already judged
    in this scope, written the same way (same words, same text, same layout) and seen in
    the same state (working directories, variables, written scripts, downloads), gets the
    earlier judgement moved to where it now stands: `ls; ls; ls; …` ten thousand
    characters long costs one judgement, not two thousand. A judgement that changed the
    state, or whose findings or paths lie outside its own words, is never reused.
    """
    if not words:
        return Info()
    for w in words:  # (a loop of `isascii()`: this runs for every command)
        if not w.text.isascii():
            words, folded = confusable_words(words)
            if folded is not None:
                # (n17u) `rм -rf /`, `ｒｍ`, `dd оf=/dev/sda`: judged as the ASCII word
                scope.add(
                    M,
                    "confusable-letters",
                    f"{folded.text!r} is written with look-alike letters",
                    folded.start,
                    folded.end,
                )
            break
    budget.spend(budget.LOOKUP_STEPS + budget.LOOKUP_WORD_STEPS * len(words))
    if len(words) == 1:
        lo, hi = words[0].start, words[0].end
    else:
        lo = min([w.start for w in words])
        hi = max([w.end for w in words])
    state = _state(scope)
    if state is None or lo < 0:
        return judge_uncached(words, scope, stdin)
    # `echo 1 | grep x`, `echo 2 | grep x`: a filter is judged by its words alone (what it
    # reads changes its output, worked out from its input later, never its findings).
    blind = (
        stdin.kind == STDIN_STATIC
        and not words[0].dynamic
        and command_name(words[0].text) in _STDIN_BLIND
    )
    # (keyed by the command's text first: a text not seen before in this scope, the usual
    # case, is one string lookup; the full key is made when the judgement is kept)
    text = scope.source[lo:hi]
    seen = tuple(words)  # (the words as they were, for a key made after the judgement)
    bucket = scope.judge_memo.get(text)
    key: tuple[object, ...] | None = None
    hit = None
    if bucket is not None:
        pending = bucket.pop(_PENDING, None)
        if pending is not None:
            # the judgement kept at this text's first sighting, under its key made now
            p_words, p_lo, p_hi, p_in, p_state, kept = pending
            bucket[(_memo_text(p_words, scope, p_lo, p_hi), p_in, p_state)] = kept
        key = (_memo_text(seen, scope, lo, hi), _BLIND_STDIN if blind else stdin, state)
        hit = bucket.get(key)
    if hit is not None and blind:
        base, earlier, known, _cost = hit
        delta = lo - base
        scope.findings.extend(
            [Finding(f.level, f.rule, f.reason, f.start + delta, f.end + delta) for f in earlier]
        )
        info = _copy_info(known, delta, stdin)
        info.input = stdin
        return info
    if hit is not None:
        base, earlier, known, _cost = hit
        delta = lo - base
        if not earlier:
            pass
        elif delta == 0:
            scope.findings.extend(earlier)
        else:
            scope.findings.extend(
                [
                    Finding(f.level, f.rule, f.reason, f.start + delta, f.end + delta)
                    for f in earlier
                ]
            )
        return _copy_info(known, delta, stdin)
    mark = len(scope.findings)
    info = judge_uncached(words, scope, stdin)
    if len(scope.findings) < mark or _state(scope) != state:
        return info
    found = scope.findings[mark:]
    if (not found or all([lo <= f.start and f.end <= hi for f in found])) and _info_within(
        info, stdin, lo, hi
    ):
        kept = (lo, tuple(found), _copy_info(info, 0, stdin), 0.0)
        if bucket is None:
            # (a text seen for the first time, the usual case: its key, the words as
            # written, is made only if the text comes again; most never do)
            scope.judge_memo[text] = {
                _PENDING: (seen, lo, hi, _BLIND_STDIN if blind else stdin, state, kept)
            }
        else:
            if key is None:
                key = (_memo_text(seen, scope, lo, hi), _BLIND_STDIN if blind else stdin, state)
            bucket[key] = kept
    return info


# (the key under which a bucket holds the judgement of its text's first sighting, keyless)
_PENDING = object()


# Filters whose findings never depend on what they read (their output does: see
# `transform_output`, which reads `Info.input`).
_STDIN_BLIND = frozenset(names("grep egrep fgrep wc head tail sort uniq cut nl fold column"))
_BLIND_STDIN = Stdin(STDIN_STATIC, "\x00any")


def _state(scope: Scope) -> tuple[object, ...] | None:
    """What a judgement may read from the scope besides the words (None: cannot tell)."""
    # (Read two or four times for every command: a dict that counts no changes, which has
    # no `version`, is the "cannot tell"; a `try` costs nothing when nothing is raised.)
    fds, env, written, unseen = scope.fds, scope.env, scope.written, scope.unseen
    try:
        return (
            id(fds),
            fds.version,  # type: ignore[attr-defined]
            scope.cwds,
            scope.pending_cd,
            scope.errexit,
            id(env),
            env.version,  # type: ignore[attr-defined]
            id(written),
            written.version,  # type: ignore[attr-defined]
            id(scope.assigned),
            len(scope.assigned),
            id(scope.downloaded),
            len(scope.downloaded),
            id(unseen),
            unseen.version,  # type: ignore[attr-defined]
            len(scope.exported),
        )
    except AttributeError:
        return None


def memo_state(scope: Scope) -> tuple[object, ...] | None:
    """The scope state a reused judgement must match (front ends' statement memos)."""
    return _state(scope)


def copy_info(info: Info, delta: int, stdin: Stdin) -> Info:
    return _copy_info(info, delta, stdin)


def info_within(info: Info, stdin: Stdin, lo: int, hi: int) -> bool:
    return _info_within(info, stdin, lo, hi)


def _memo_text(words: Sequence[Word], scope: Scope, lo: int, hi: int) -> tuple[object, ...]:
    """The command as written: its words relative to its start, and its source text. The
    Windows script hosts read the rest of the line (`mshta` code that cmd split at its
    parentheses), so a command naming one is pinned to its position (never reused)."""
    src = scope.source
    rel = tuple([(w.text, w.start - lo, w.end - lo, w.dynamic, w.glob, w.origin) for w in words])
    pin = -1
    if scope.family != "bash" and names_in_words(words, src, _READS_THE_LINE):
        pin = lo
    return (rel, src[lo:hi], pin)


_READS_THE_LINE = ("mshta", "regsvr32", "rundll32", "wscript", "cscript")
READS_THE_LINE = _READS_THE_LINE


def _shift_word(w: Word, delta: int) -> Word:
    return Word(w.text, w.start + delta, w.end + delta, w.dynamic, w.glob, w.origin)


def _info_cloner() -> Callable[[Info], Info]:
    """`clone(info)`: a field-by-field copy of an `Info` (every field attrs knows of),
    without the keyword `__init__` (a judgement is copied once or twice per command)."""
    lines = ["def clone(info):", "    new = _new(Info)"]
    lines += [f"    new.{f.name} = info.{f.name}" for f in attrs.fields(Info)]
    lines.append("    return new")
    space: dict[str, Any] = {"_new": object.__new__, "Info": Info}
    exec("\n".join(lines), space)  # (as attrs writes its own methods)
    clone: Callable[[Info], Info] = space["clone"]
    return clone


_clone_info = _info_cloner()


def _copy_info(info: Info, delta: int, stdin: Stdin) -> Info:
    """A copy of `info` (callers may change theirs) with its positions moved by `delta`
    (the command's own stdin, part of the memo's key, stays as it is)."""
    if not delta:
        return _clone_info(info)
    inp = info.input
    if (
        inp is not None
        and delta
        and inp is not stdin
        and inp != stdin
        and (inp.start >= 0 or inp.paths)
    ):
        inp = attrs.evolve(
            inp,
            start=inp.start + delta if inp.start >= 0 else inp.start,
            paths=tuple(_shift_word(w, delta) for w in inp.paths),
        )
    return Info(
        name=info.name,
        network_fetch=info.network_fetch,
        output=info.output,
        decodes=info.decodes,
        reads_secret=info.reads_secret,
        paths=tuple(_shift_word(w, delta) for w in info.paths) if delta else info.paths,
        names_only=info.names_only,
        input=inp,
        argv=info.argv,
    )


def _info_within(info: Info, stdin: Stdin, lo: int, hi: int) -> bool:
    """Every position `info` carries lies inside the command's own words (so moving the
    judgement with the command moves them right)."""
    if info.paths and any(not (lo <= w.start and w.end <= hi) for w in info.paths):
        return False
    inp = info.input
    if inp is None or inp is stdin or inp == stdin:
        return True
    if inp.start >= 0 and not lo <= inp.start <= hi:
        return False
    return all(lo <= w.start and w.end <= hi for w in inp.paths)


# Wrappers whose handler judges the command they run with the very words they were given.
_PASSES_WORDS_ON = frozenset({"sudo", "doas"})
_MAX_WRAPPED = 12  # `sudo nice env … rm`: wrappers followed inside each other


def judge_uncached(words: list[Word], scope: Scope, stdin: Stdin = NO_STDIN) -> Info:
    """Judge one simple command (no reuse: what handlers call for the commands they wrap).

    A wrapper's handler judges the command it wraps through here again; past
    `_MAX_WRAPPED` wrappers inside each other the rest is not followed (critical: each
    level costs the whole command again, so ten thousand `sudo`s would be quadratic)."""
    if not words:
        return Info()
    # Rules look at every argument, at every wrapper level (`sudo sudo … rm`), and the
    # program-name patterns search the whole command name.
    budget.spend(
        (
            budget.JUDGE_STEPS
            if scope.family == "bash"
            else budget.CMD_JUDGE_STEPS
            if scope.family == "cmd"
            else budget.WINDOWS_JUDGE_STEPS
        )
        + budget.name_price(len(words[0].text))
        + (budget.JUDGE_WORD_STEPS if scope.wrapped == 0 else budget.WRAPPED_WORD_STEPS)
        * len(words)
    )
    if scope.wrapped >= _MAX_WRAPPED:
        scope.add(
            C,
            "nesting",
            "commands wrapped too deeply to analyse; check it by hand",
            min(w.start for w in words),
            max(w.end for w in words),
        )
        # …but its literal operands still say what it could do (`… rm -rf /` is blocked).
        _as_if_destructive(words, scope, stdin, dynamic=True)
        return Info()
    scope.wrapped += 1
    scope.judged += 1
    try:
        return _judge_one(words, scope, stdin)
    finally:
        scope.wrapped -= 1


# (w21) cmd's own words that are no program on the PATH (its builtins, as doskey knows
# them, and its statements)
_CMD_OWN = windows.CMD_BUILTINS | frozenset(
    names("if for rem goto shift setlocal endlocal pause verify break exit cls title")
)


def _searched_on_windows_path(name: str, scope: Scope) -> bool:
    """(w21) Whether PowerShell or cmd looks a command word up on PATH: a bare program
    name (`git`, `python.exe`), not a path, cmd builtin, cmdlet (`Verb-Noun`), PowerShell
    alias (`ls`, `rm`, `dir`) or a function the text defines (review 21 O4)."""
    low = name.lower()
    if "\\" in low or ":" in low:
        return False
    if scope.family == "cmd":
        return low not in _CMD_OWN
    if low in PS_ALIASES or ("-" in low and _ps_cmdlet_name(low, low)):
        # (w22) only `Verb-Noun` with a known verb is a cmdlet: `docker-compose`,
        # `pre-commit`, `clang-format` are programs found on PATH
        return False
    defined = rf"(?i)\b(?:function|filter)\s+(?:global:|script:)?{re.escape(low)}(?![\w-])"
    return re.search(defined, scope.source[:20000]) is None


def _judge_one(words: list[Word], scope: Scope, stdin: Stdin) -> Info:
    if scope.family == "bash":
        for w in words:  # (a loop, not `any(…)`: this runs for every command)
            if "{" in w.text and ("," in w.text or ".." in w.text):
                words = brace_expand(words, scope.source)
                break
    head = words[0]
    if head.dynamic:
        if head.origin in ("static", "decoded") and head.text.strip():
            # `$(printf '\x72\x6d') -rf /`, `$(echo … | base64 -d)`: the text is known.
            if head.origin == "decoded" and not wrappers.decoded_readable(head.text, []):
                scope.add(C, "encoded-command", "runs decoded (hidden) text", head.start, head.end)
            elif head.origin == "decoded":
                scope.add(
                    M,
                    "decoded-code",
                    "the command name is decoded text (judged as decoded)",
                    *_span(head),
                )
            else:
                scope.add(
                    M, "indirect-code", "the command name is built by another command", *_span(head)
                )
            inner = [
                Word(w.text, head.start, head.end)
                for w in split_words(head.text.replace("\n", " "))
            ]
            return _judge_one([*inner, *words[1:]], scope, stdin) if inner else Info()
        base = head.text.replace("\\", "/").rsplit("/", 1)[-1]
        if (
            head.origin != ORIGIN_NETWORK
            and base
            and not re.search(r"[%!$`]", base)
            and (
                base in scope.written
                or base in scope.downloaded
                or wrappers.unseen_reason(scope, head.text) is not None
            )
        ):
            # `%TEMP%\r.bat` after `echo … > %TEMP%\r.bat`: a file this text wrote.
            _local_script(Cmd(words, base, scope, stdin), head)
            return Info()
        if (
            scope.family == "powershell"
            and registry.PROFILE_KEY in scope.written
            and registry.PROFILE_PATH.match(head.text)
        ):
            # `. $PROFILE`, `& $PROFILE.CurrentUserAllHosts` after writing it (f18)
            cmd = Cmd(words, head.text, scope, stdin)
            pickups.run_text(cmd, registry.PROFILE_KEY, "powershell", "the profile written above")
            return Info()
        if (
            scope.family != "bash"
            and head.origin != ORIGIN_NETWORK
            and scope.env
            and (copy_of := wrappers.bound_program(scope, head.text)) is not None
        ):
            # (n14w) `copy …\bcdedit.exe %TEMP%\b.exe & %TEMP%\b.exe /delete …`: the same
            # spelling of the copy's path runs the program copied there
            return _judge_one([Word(copy_of[1], head.start, head.end), *words[1:]], scope, stdin)
        if head.origin == ORIGIN_NETWORK:
            scope.add(
                C, "remote-code", "runs a command name fetched from the network", *_span(head)
            )
        else:
            scope.add(
                C,
                "dynamic-command",
                "the command name is only known at run time, so what runs cannot be checked",
                *_span(head),
            )
        _as_if_destructive(words, scope, stdin, dynamic=True)
        # `$TOOL purge --all ~`: whatever the program is, it is told to wipe the home.
        _by_shape(Cmd(words, "", scope, stdin), "", only_blocked=True)
        return Info()
    if (
        scope.unseen
        and ("/" in head.text or "\\" in head.text)
        and (why := wrappers.unseen_reason(scope, head.text)) is not None
    ):
        # `./b/start` after `curl … | tar xz`: a file unpacked from a download, whatever
        # its name is (a handler for `start` would judge it as the program of that name).
        scope.add(C, "unseen-exec", f"runs {head.text}, which {why}", *_span(head))
    if (
        scope.env
        and (front := scope.env.get(PATH_FRONT)) is not None
        and "/" not in head.text
        and not head.dynamic
        and head.text not in SHELL_BUILTINS
        and (scope.family == "bash" or _searched_on_windows_path(head.text, scope))
    ):
        # (n20u, F17) `export PATH=/tmp/b:$PATH; ls`: `ls` may be a file in /tmp/b
        sep = "/" if scope.family == "bash" else "\\"
        why = f"`{head.text}` may run {front}{sep}{head.text}: {front} is searched first on PATH"
        scope.add(C, "alias-hides", why, *_span(head))
    if scope.env and (binding := wrappers.bound_program(scope, head.text)) is not None:
        # `hash -p /bin/rm ls; ls -rf /`, `cp /bin/rm /tmp/x; /tmp/x -rf /`: the name runs
        # the program bound to it earlier in the block (n13u). A name we know is judged as
        # both (the binding may not hold where it runs).
        bound_key, bound_prog = binding
        bound = Word(bound_prog, head.start, head.end)
        if command_name(head.text) not in HANDLERS:
            words = [bound, *words[1:]]
            head = bound
        elif bound.text != head.text:
            env_saved = scope.env.pop(bound_key)
            try:
                _judge_one([bound, *words[1:]], scope, stdin)
            finally:
                scope.env[bound_key] = env_saved
    if (
        scope.family == "bash"
        and scope.env
        and (source := scope.env.get(COMPILED + head.text.rsplit("/", 1)[-1])) is not None
        and "/" in head.text
    ):
        # `cc w.c -o w && ./w`: a program the block compiled from the source it shows runs
        # that source (n14u)
        where = Word(head.text, head.start, head.end)
        lang = "c"
        if source.startswith("\x02"):  # (n17u) built by compilers.judge: "\x02LANG\x02SOURCE"
            _, lang, source = source.split("\x02", 2)
        scope.include(
            inline.code_findings(scope, source, where, lang, f"{head.text} (built above)")
        )
    if (
        scope.family == "bash"
        and scope.written
        and "/" not in head.text
        and (script := scope.written.get(head.text)) is not None
        and script[0].startswith("#!")
        and wrappers.written_on_path(scope, head.text)
    ):
        # `printf '#!/bin/sh\n…' > ~/bin/ls; chmod +x ~/bin/ls; ls`: a script written under
        # the name earlier in the block is what the PATH lookup may find (n13u)
        wrappers.written_script(Cmd(words, head.text, scope, stdin), head.text, head)
    name = command_name(head.text, scope.windows)
    if head.glob:
        candidates = glob_candidates(head.text, KNOWN_NAMES, limit=4)
        scope.add(M, "glob-command", "the command name is a glob pattern", head.start, head.end)
        # `*` as a command matches everything we know: guessing would only add noise.
        for cand in candidates if len(candidates) <= 4 else []:
            _judge_one([Word(cand, head.start, head.end), *words[1:]], scope, stdin)
        return Info()
    head_low = head.text.lower()
    if (
        scope.family == "powershell"
        and head_low[:1].isdigit()
        and len(words) == 1
        and _PS_RANGE.fullmatch(head_low)
    ):
        return Info()  # (n14w) `1..5 | ForEach-Object …`: a range of numbers, no command
    if scope.family == "powershell":
        explicit = head_low.endswith((".exe", ".com"))  # `sc.exe` is not `sc`
        name_low = name.lower()
        user = scope.env.get(windows.PS_USER_ALIAS + name_low) if not explicit else None
        if user is not None:
            name = user  # `Set-Alias ls Remove-Item; ls -Recurse C:\`
        else:
            name = name_low if explicit else PS_ALIASES.get(name_low, name_low)
    elif scope.family == "cmd":
        name = name.lower()
        if scope.env and (macro := scope.env.get(windows.DOSKEY_MACRO + name)) is not None:
            # (n14w) `doskey n=format $*` then `n C:`: the macro's text runs
            line = windows.doskey_expanded(macro, [w.text for w in words[1:]])
            scope.add(M, "alias", f"runs the doskey macro {name}", *_span(head))
            scope.include(scope.nested(line, "cmd", head, -1))
            return Info()
        if name == "call" and len(words) > 1 and not words[1].text.startswith(":"):
            # `start /b call rd /s /q C:\`: call runs the command after it.
            return _judge_one(words[1:], scope, stdin)
    windows_exe = scope.family == "bash" and (
        (
            head_low.endswith((".exe", ".com"))
            and (
                command_name(head.text, True) in WINDOWS_HANDLERS
                # `kubectl.exe get pods`, `git.exe status` from WSL or Git Bash: the Windows
                # build of a program we know is that program (gen11: kubectl-ai's and Codex's
                # tests)
                or command_name(head.text, True) in HANDLERS
            )
        )
        # (w22) Git Bash `cmd /c 'rd /s /q "C:\"'`: cmd.exe found on PATH (its `/c` says so)
        or (head_low == "cmd" and len(words) > 1 and words[1].text.lower() in ("/c", "/k", "/r"))
    )
    if windows_exe:
        # `diskpart.exe /s d.txt`, `cmd.exe /c …` from WSL or Git Bash: a Windows program
        # (its `.exe` says so), judged by its Windows handler
        name = command_name(head.text, True)
    launcher = batch_launcher(head.text)
    if launcher is not None and (scope.written or scope.unseen or scope.downloaded):
        # (w22) `echo rd /s /q C:\ > scp.bat & scp.bat`: a batch this text wrote or fetched
        # is that file, not the program's launcher
        base = head_low.replace("\\", "/").rsplit("/", 1)[-1]
        if any(
            base in {k.lower() for k in t} for t in (scope.written, scope.unseen, scope.downloaded)
        ):
            launcher = None
    if launcher is not None:
        name = launcher  # `az.cmd`, `Pester.bat`: a program's own launcher is the program
    elif scope.family != "bash" and head_low.endswith((".bat", ".cmd", ".ps1")):
        name = head_low  # `w.bat` is a batch file, not the program `w`
    elif name not in HANDLERS and name.lower() in HANDLERS:
        # `RM -rf /`: macOS file systems ignore case, so this may well be `rm`.
        scope.add(
            M,
            "unknown-command",
            f"`{name}` is only `{name.lower()}` on a case-insensitive file system",
            *_span(head),
        )
        name = name.lower()
    if scope.family == "bash" and name not in HANDLERS:
        name = _variant_of_known(name)
    cmd = Cmd(words, name, scope, stdin)
    cmd.info.input = stdin
    if scope.env and not stdin.paths and name in _LISTING_FILTERS:
        # (f19) `sort /tmp/all | xargs rm -rf`, `grep -v keep /tmp/all | …` after `find / >
        # /tmp/all`: a filter given the listing's file reads the listing, as from a pipe.
        for w in words[:0:-1]:
            if (
                not w.dynamic
                and not w.text.startswith("-")
                and (held := wrappers.listed_file(scope, w.text)) is not None
            ):
                cmd.info.input = held
                break
    if (name in _FILTERS or name in _COUNTED) and not any(w.dynamic for w in words[1:]):
        cmd.info.argv = tuple(w.text for w in words[1:])
    elif name == "cat" and len(words) == 2 and not words[1].dynamic:
        cmd.info.argv = (words[1].text,)  # `cat /bin/rm > x`: x is a copy of rm (r15)
    if name in _DECODERS:
        # `base64 -d <(echo …)`: a file operand whose text is known is the decoder's input.
        given = [w for w in words[1:] if w.dynamic and w.origin in ("static", "decoded")]
        if given:
            cmd.info.input = Stdin(STDIN_STATIC, given[0].text, -1)
    argv = cmd.argv
    if may_hold_secret(argv.joined_low, argv.chars) and any(is_secret(t) for t in argv.statics):
        cmd.info.reads_secret = True
    mark = len(scope.findings)
    rules = scope.rules
    line = ""
    if rules is not None and (rules.extra_blocked or rules.extra_dangerous or rules.trusted):
        line = " ".join([name] + [w.text for w in words[1:]])
        for pattern in rules.extra_blocked:
            if _compiled(pattern).search(line):
                cmd.add(B, "user-blocked", f"matches your blocked pattern {pattern!r}")
        for pattern in rules.extra_dangerous:
            if _compiled(pattern).search(line):
                cmd.add(D, "user-dangerous", f"matches your dangerous pattern {pattern!r}")
    if (
        scope.family == "powershell"
        and name not in _WHATIF_IGNORED
        and (
            (
                (
                    "-whatif" in argv.lowset
                    or (
                        not argv.lowset.isdisjoint(_WHATIF_SPELLINGS)
                        and (name in HANDLERS or name in WINDOWS_HANDLERS)
                    )
                )
                and any(_whatif_on(words, i, scope.source) for i in range(1, len(words)))
            )
            or (PS_WHATIF_PREF in scope.env and _whatif_preferred(name, scope.source))
        )
    ):
        if name not in HANDLERS and name not in WINDOWS_HANDLERS and shape.ENABLED:
            # An unknown cmdlet's -WhatIf is its author's promise, not something we know.
            cmd.add(M, "unknown-command", f"`{name}` is not known here (run with -WhatIf)", head)
        return cmd.info  # -WhatIf: the cmdlet only describes what it would do
    known = name in HANDLERS or name in WINDOWS_HANDLERS
    if name in JVM_PROGRAMS and ("-xx:" in argv.joined_low or "@" in argv.chars):
        system.jvm_hooks(cmd)  # (n20u) before the read-only modes: the JVM arms its hooks
    if name in carried.TOOLS:
        carried.judge(cmd)  # (n20u) `dotnet build -p:PreBuildEvent=…`, `tox -x …commands=…`
    if len(words) == 2 and words[1].text in _VERSION_FLAGS and name not in _PRIVILEGE and known:
        return cmd.info  # `curl --version`, `terraform -help`: prints and exits
    if len(words) == 2 and known and _help_only(name, words[1].text):
        return cmd.info  # (h19) `sudo --help`, `su -V`, `useradd -h`, `insmod -h`: usage only
    if known and (name == "aws" or name in _HELP_ANYWHERE) and _cli_help(name, argv):
        return cmd.info  # (h20) `aws s3 rb help`, `az group delete -h`: prints help
    if scope.family != "bash" and _windows_help(name, argv, known, scope.source, scope.family):
        return cmd.info  # (h20) `vssadmin delete shadows /?`, `Disable-NetFirewallRule -?`
    if (
        known
        and name in _GO_FLAG_CLIS
        and any(t in ("-help", "-h", "--help") for t in _before_dashes(argv))
    ):
        return cmd.info  # (h19) `terraform destroy -help`: Go's flag package prints help
    if (
        known
        and scope.family == "bash"
        and name not in _NO_DRY_RUN
        and name not in RUNNERS
        and name not in _PRIVILEGE
        and "--help" in argv.staticset
        and "--help" in _before_dashes(argv)
        and not (name == "go" and _go_run_program_help(argv.texts))
    ):
        return cmd.info  # `kubectl delete --help`: a known program only prints its help
    if _volume_dry_run(cmd):
        return cmd.info  # `zfs destroy -n`, `lvremove --test`: a dry run, safe
    if _dry_run(cmd):
        return cmd.info  # `kubectl delete … --dry-run=client`: only says what it would do
    if scope.family == "bash" and _INTERPRETER.match(name):
        if _syntax_check_only(cmd):
            return cmd.info  # `node --check app.js`, `ruby -c x.rb`, `php -l x.php`
        if _script_is_known_text(cmd):
            return cmd.info
    if scope.family == "bash" and name in _CODE_OPTION_TOOLS:
        _embedded_code(cmd)
    if scope.family == "bash" and scope.written and name in toolchains.NAMED_TASK_TOOLS:
        toolchains.named_task(cmd)  # `deno task x` of a deno.json written above (n14u)
    if scope.written and name in toolchains.SOURCE_RUNNERS:
        toolchains.written_sources(cmd)  # `cat > main.go …; go run .` (n14u)
    if scope.written and name in pickups.TOOLS:
        pickups.judge(cmd)  # `cat > conftest.py …; pytest`, `echo ^<Exec …^> > w.proj` (f18)
    if scope.written and name in pickups.SHELLS:
        pickups.startup_files(cmd)  # `echo … >> ~/.bashrc; bash -i`, `$PROFILE` then pwsh (f18)
    if scope.written and scope.family != "bash" and name in windows.NATIVE_COMPILERS:
        windows.compiled_program(cmd)  # `cl w.c & w.exe`: w.exe runs what w.c says (f18)
    if scope.written and scope.family != "bash":
        if name in pickups.OPENERS:
            pickups.opened(cmd)  # `Invoke-Item w.vbs`, `explorer w.bat` (f18)
        elif head_low.endswith(pickups.DOCUMENT_SUFFIXES) and not head_low.endswith(
            (".bat", ".cmd")
        ):
            pickups.open_document(cmd, head)  # `start w.reg`: the file's default action
    if name == "ant":
        compilers.ant(cmd)  # `ant -f /dev/stdin <<EOF` (n17u)
    elif scope.family == "bash" and (name in compilers.RUNNERS or compilers.c_compiler(name)):
        # `rustc - -o w <<EOF`, `zig run w.zig`, `java W.java`, `gcc-13 -x c -` (n17u)
        (compilers.judge if name in compilers.RUNNERS else compilers.c_named)(cmd)
    _whatever_the_handler(cmd)  # attack tools by name, the clock, hives copied out, …
    reports.judge(cmd)  # what incident reports show intruders typing (safety-rep7)
    # (a `.bat`/`.cmd` launcher runs on Windows whatever shell starts it)
    handler = lookup(name, scope.family != "bash" or launcher is not None or windows_exe)
    if launcher is None and scope.family != "bash" and head_low.endswith((".bat", ".cmd")):
        handler = None  # a batch file, not the program of that name (`w.bat` is not `w`)
    # `sudo sudo … rm`: a privilege wrapper hands the same words to the command it runs,
    # which is judged with them; scanning them again at every wrapper level would cost the
    # whole command once per level (the generic argument scans below are skipped there).
    passes_on = name in _PASSES_WORDS_ON and handler is not None and scope.wrapped < _MAX_WRAPPED
    judged_before = scope.judged
    if (
        scope.family == "bash"
        and name not in _WRITERS
        and name not in _O_IS_A_FLAG
        and not passes_on
    ):
        _output_options(cmd)
    if name in _PROGRAM_OUTPUTS and scope.family == "bash":
        _program_output_files(cmd)
    if name in network.VM_SHELLS:
        network.vm_remote_command(cmd)
    if handler is not None:
        if (
            scope.family == "bash"
            and "/" in head.text
            and head.text[:1] not in "/~$"
            and not head.dynamic
            and launcher is None
            and not windows_exe
        ):
            # `./kubectl get pods`, `node_modules/.bin/eslint .`: a file of the working tree
            # named like a program we know, not the installed program (gen11, kubectl-ai's
            # tests): running a local program is moderate whatever it is called.
            cmd.add(M, "local-script", f"runs the local program {head.text}", head)
            base = head.text.rsplit("/", 1)[-1]
            if base in scope.written and not wrappers.INTERPRETER.match(name):
                # (f19) `echo 'rm -rf ~' > w; ./w`: the file written, not the `w` program
                wrappers.written_script(cmd, base, head)
        elif (
            scope.family != "bash"
            and head.text[:2] in (".\\", "./", "..")
            and not head.dynamic
            and launcher is None
        ):
            # (n13w) `.\w.exe`, `.\ping.exe`: a program of the working folder named like one
            # we know is that local file, not the system's program (moderate)
            cmd.add(M, "local-script", f"runs the local program {head.text}", head)
        if scope.downloaded and ("/" in head.text or "\\" in head.text) and not head.dynamic:
            _downloaded_namesake(cmd, head)
        if windows.COMPILED in scope.env:
            windows.compiled_program_run(cmd, head)  # a program built here, named like ours
        handler(cmd)
        if name in windows.DOTNET_COMPILERS:
            windows.compiled_program(cmd)  # `csc /out:p.exe p.cs`, run later (n13w)
        elif name in _LINK_MAKERS and scope.family != "bash":
            winpaths.link_made(cmd)  # `mklink /J l C:\Windows` … `rd /s /q l\` (n13w)
        if passes_on and scope.judged == judged_before:
            passes_on = False  # `sudo -l`, `sudo -s`: nothing judged inside; scan here
            if scope.family == "bash" and name not in _WRITERS and name not in _O_IS_A_FLAG:
                _output_options(cmd)
        if (
            shape.ENABLED
            and len(scope.findings) > mark
            and max([f.level for f in scope.findings[mark:]]) == D
        ):
            _escalate(cmd)
        if scope.family != "bash" and name in wrappers.PS_WRITERS:
            wrappers.ps_wrote(cmd)
            if name == "expand-archive":
                # `Expand-Archive a.zip -DestinationPath "$env:APPDATA\…\Startup"` (safety-m8)
                system.extracts_into(
                    cmd, wrappers.ps_named(cmd, ("destinationpath", "literalpath"), 1)
                )
        if (
            name in _FILE_READERS
            and cmd.info.output is None
            and (scope.written or scope.unseen or scope.env)
        ):
            _reads_written(cmd)
        elif name == "grep" and cmd.info.output is None and scope.written and cmd.args:
            _greps_written(cmd)
        if name in SSH_OPTION_TOOLS:
            ssh_config_options(cmd)
        if (
            cmd.info.output is None
            and scope.family == "bash"
            and (name in _PRINTERS or _unversioned(name) in _PRINTERS)
        ):
            cmd.info.output = _printed_text(cmd)
        if name in infra.CLOUD_COPIERS and all(f.level < C for f in scope.findings[mark:]):
            infra.boot_hook(cmd)  # a cloud machine's boot script set (safety-m8)
        if name in infra.CLOUD_COPIERS and any(
            f.rule == "cloud-delete" for f in scope.findings[mark:]
        ):
            infra.cloud_log_deleted(cmd)  # (safety-m8)
        if name in infra.CLOUD_COPIERS and (
            len(scope.findings) == mark or max(f.level for f in scope.findings[mark:]) < D
        ):
            infra.reencrypted_with_own_key(cmd)  # (safety-m8)
        if (
            any(f.rule == "install" for f in scope.findings[mark:])
            or name in toolchains.PACKAGE_CMDLETS
        ) and all(f.level < C for f in scope.findings[mark:]):
            toolchains.raw_source_install(cmd)  # a package from a raw address (m8)
        if name in network.CARRIERS:
            network.carry_secrets(cmd)  # `tar czf k.tgz ~/.ssh`: k.tgz holds them (m8)
        if scope.family == "bash" and (name in _WRITERS or name == "uniq"):
            _write_destinations(cmd)
        if scope.family == "bash" and name in wrappers.PROGRAM_COPIERS:
            wrappers.copied_program(cmd)  # `cp /bin/rm /tmp/x`: /tmp/x runs rm (n13u)
        if scope.family == "bash" and name in system.C_COMPILERS:
            system.compiled_source(cmd)  # `cc w.c -o w && ./w`: w is w.c's code (n14u)
        elif scope.family != "bash" and name in wrappers.WIN_PROGRAM_COPIERS:
            wrappers.win_copied_program(cmd)  # `copy …\System32\format.com f.com` (r15)
        if scope.family == "bash" and name in _LAUNCHERS:
            _launched(cmd)
        if scope.family == "bash" and name in ("getent", "cut", "awk", "gawk", "mawk", "dscl"):
            system.account_listing(cmd)  # every account's home folder
        if scope.family == "bash" and name in ("ls", "dir", "exa", "eza"):
            _listing(cmd)
        elif scope.family == "bash" and name in _PATH_LISTERS:
            _path_listing(cmd)
            if name in _LOCATORS and not cmd.info.paths:
                _located(cmd)
    elif (
        "/" in head.text
        or "\\" in head.text
        or name.endswith((".sh", ".ps1", ".py"))
        or (scope.family != "bash" and head_low.endswith((".bat", ".cmd")))
    ):
        _local_script(cmd, head)
        system.remote_access_install(cmd)
        # a program named by its path gets the argument checks a bare unknown name gets:
        # `/usr/bin/fsarchiver restfs a.fsa id=0,dest=/dev/sda1` (gen12)
        files.device_erased(cmd)
        system.request_targets(cmd)
        _as_if_destructive(words, scope, stdin)
        if not (scope.family == "cmd" and head.text.startswith("/")):  # `/c …` is a switch
            _by_shape(cmd, command_name(head.text, scope.windows))
    elif scope.family == "powershell" and _ps_cmdlet_name(name, head_low):
        _powershell_verb(cmd)
        if name in toolchains.PACKAGE_CMDLETS:
            toolchains.raw_source_install(cmd)  # `Add-AppxPackage \\host\s\x.msix` (m8)
    else:
        cmd.add(M, "unknown-command", f"`{name}` is not on the read-only allowlist", head)
        system.remote_access_install(cmd)
        files.device_erased(cmd)  # `asr restore … --erase`, `tool --wipe=/dev/sdb` (n10u)
        _as_if_destructive(words, scope, stdin)
        _by_shape(cmd, name)
        system.request_targets(cmd)  # `e2edit -w -R 'unlink /etc/gshadow' /dev/vdb2`
        if name in windows.NAMED_UPLOADERS:
            windows.named_uploader(cmd)  # `b2 upload-file`, `mega-put`, `winscp put` (n12w)
        if windows.COMPILED in scope.env:
            windows.compiled_program_run(cmd, head)  # `csc p.cs & p.exe` (n13w)
    detections.judge(cmd, mark)  # what detection rules know and no handler saw (safety-sig7)
    if (name in _SOCKET_CAPABLE or name in network.DNS_TUNNELS) and all(
        f.level < C for f in scope.findings[mark:]
    ):
        network.socket_programs(cmd)  # gawk /inet/tcp, DNS tunnels (safety-m8)
    if not passes_on:
        _every_backup(cmd, mark)  # a backup/snapshot delete whose selector is "all" (m8)
        if name in packages.SYSTEM or name in packages.USER:
            packages.judge_removal(cmd)  # every package, or the base system's (f19)
    statics = [] if passes_on or cmd.info.paths else [w.text for w in words[1:] if not w.dynamic]
    if not passes_on and not cmd.info.paths and shape.lists_every_backup(name, statics):
        # `restic snapshots`, `aws ec2 describe-snapshots`: every id, for a pipe downstream
        cmd.info.paths = (Word(shape.EVERY_BACKUP, cmd.start, cmd.end),)
    elif not passes_on and not cmd.info.paths and packages.lists_every_package(name, statics):
        # `pacman -Qq`, `rpm -qa`, `pip freeze`: every installed package (f19)
        cmd.info.paths = (Word(packages.EVERY_PACKAGE, cmd.start, cmd.end),)
    elif not passes_on and not cmd.info.paths and shape.numeric_range(name, statics):
        # `seq 1 500 | xargs … snapshot delete`: every id in the range (bk9)
        cmd.info.paths = (Word(shape.EVERY_ID, cmd.start, cmd.end),)
    if name in system.WINDOWS_SERVICE_TOOLS and all(f.level < C for f in scope.findings[mark:]):
        system.windows_service_start(cmd)  # services at boot, remote-login servers (m8)
    if name in files.TREE_CLEANERS and all(f.level < B for f in scope.findings[mark:]):
        files.tree_cleaned(cmd)  # `cd ~ && hg purge --all`: every untracked file of home (b12)
    if name in files.FOLDER_CLEANERS and all(f.level < B for f in scope.findings[mark:]):
        files.folder_cleaned(cmd)  # `pytest --basetemp=~`, `venv --clear /usr` (n19u)
    if name in files.SOURCE_REMOVERS and all(f.level < B for f in scope.findings[mark:]):
        files.sources_removed(cmd)  # `gzip /etc/passwd`, `zip -m x.zip /boot` (tgt9)
    if name in _DECLARATIVE_TOOLS and all(f.level < B for f in scope.findings[mark:]):
        system.declared_removals(cmd)  # `ansible … -m file -a "path=/etc state=absent"` (m8)
    if not passes_on and (
        len(scope.findings) == mark or max(f.level for f in scope.findings[mark:]) < C
    ):
        system.app_admin_account(cmd)  # an application's administrator account (safety-m8)
    clis.judge(cmd, mark)  # long-tail CLIs' documented destruction and listings (safety-cli8)
    if scope.family == "bash" and (handler is None or name in _SOURCE_RUNNERS):
        _known_source_files(cmd, name, handler is not None, mark)
    if passes_on:
        # the wrapped command was judged with these words
        if line and rules is not None and any(_trusted(line, t) for t in rules.trusted):
            scope.findings[mark:] = [f for f in scope.findings[mark:] if f.level != M]
        return cmd.info
    if len(scope.findings) == mark or not any(
        f.rule == "exfiltration" for f in scope.findings[mark:]
    ):
        sent = network.secret_upload(cmd)
        if sent is not None:
            # `oci os object put --file ~/.oci/config`, `b2 upload-file b ~/.git-credentials`
            cmd.add(C, "exfiltration", f"{cmd.name} sends a credential file away", sent)
        else:
            named = network.substituted_destination(cmd)
            if named is not None:
                cmd.add(
                    C,
                    "exfiltration",
                    f"{cmd.name} is handed a host name built from a command's output",
                    named,
                )
    if scope.family != "bash" and handler is None:
        system.windows_option_commands(cmd, mark)
    if scope.family == "bash":
        # options whose value runs, and code handed to interpreters nobody models (safety-p5)
        system.option_commands(cmd, mark)
        system.exec_tail(cmd, mark)
        system.program_code(cmd, handler is not None, mark)
    if scope.family == "bash" and len(words) > 3:
        _shell_code_in_arguments(words, scope, mark)
    if line and rules is not None and any(_trusted(line, t) for t in rules.trusted):
        scope.findings[mark:] = [f for f in scope.findings[mark:] if f.level != M]
    return cmd.info


# Programs that run a source file they are given (JVM single-file launchers, script
# runners) and are not read by the interpreter rules (`_INTERPRETER`).
_SOURCE_RUNNERS = frozenset(
    names("java jshell kotlin kotlinc scala scala-cli groovy swift dotnet-script jbang")
)


def _known_source_files(cmd: Cmd, name: str, known: bool, mark: int) -> None:
    """`java <(echo 'class X {… Runtime.getRuntime().exec(…) …}')`: a source file that is a
    process substitution with known text is read as code; what it does when dangerous or
    worse is kept (an unknown program's file is read in the generic way)."""
    if not cmd.argv.dynamic:
        return
    src = cmd.scope.source
    for w in cmd.args:
        if not w.dynamic or w.origin not in ("static", "decoded") or w.start < 0:
            continue
        if src[w.start : w.start + 2] != "<(":
            continue
        language = "java" if name in _SOURCE_RUNNERS and known else "generic"
        found = inline.code_findings(cmd.scope, w.text, w, language, f"{name}'s source file")
        if max((f.level for f in found), default=S) >= D:
            seen = {(f.rule, f.start, f.end) for f in cmd.scope.findings[mark:]}
            cmd.scope.include([f for f in found if (f.rule, f.start, f.end) not in seen])


# (h18) Cmdlet verbs whose built-in and module cmdlets honour `$WhatIfPreference` (they
# support ShouldProcess); `Set-Location`-like state changes and verbs of cmdlets that do not
# (Invoke-RestMethod, Send-MailMessage, Import-Module, Start-Job …) are never read as dry runs.
_WHATIF_PREF_VERB = re.compile(
    r"(?:remove|clear|set|new|stop|restart|rename|move|copy|disable|enable|format|initialize"
    r"|uninstall|suspend|reset|dismount|add|unregister)-[a-z]"
)
_WHATIF_PREF_NOT = frozenset(
    names(
        "set-location push-location pop-location set-psdebug set-strictmode set-variable"
        # (r18) handled cmdlets without ShouldProcess (no -WhatIf): they act whatever the
        # preference says (a key handler binds, an assembly loads, history stops saving)
        " set-psreadlinekeyhandler set-psreadlineoption add-type new-object set-psbreakpoint"
        " set-processmitigation add-member new-module new-event set-mppreference"
        " add-mppreference remove-mppreference"
    )
)
# Text that ends the preference's reach (another runspace or process, a parameter default
# or an explicit `-WhatIf:` value): then nothing is read as a dry run.
_WHATIF_PREF_GUARD = re.compile(
    r"(?i)-whatif:|-wi:|psdefaultparametervalues|start-job|sajb|start-threadjob|-parallel"
    r"|invoke-command|icm\b|-asjob|runspace|\[powershell\]|new-pssession|register-|scheduledjob"
    # (r18) code run in this scope that can set the preference back or redefine the cmdlet
    # (a dot-sourced or called script, a module, iex, a script block, a splat that may carry
    # WhatIf=$false), and the variable set by other means (Set-Variable, PSVariable, the
    # Variable: drive)
    r"|(?:^|[\s;|({])(?:\.\s+|&(?!&)\s*)[^\s;|)}=&{]|\.ps[dm]?1\b|import-module|ipmo\b|using\s+module"
    r"|invoke-expression|iex\b|scriptblock|\.invoke|invokescript|(?:^|[\s;|(])@[a-z_?{]"
    r"|-variable|\b(?:sv|gv|nv|clv|rv)\b|psvariable|variable:"
)
# (r18) Every mention of the preference (or of a WhatIf key) must be the recognised top-level
# `$WhatIfPreference = $true` assignment or the bare switch: `${WhatIfPreference} = $false`,
# `$WhatIfPreference, $x = $false, 1`, `@{WhatIf=$false}` … end the dry-run reading.
_WHATIF_PREF_SET = re.compile(
    r"(?i)\$(?:global:|script:|local:)?whatifpreference\s*=\s*(?:\$true|1)(?![\w,.])"
    r"|-whatif\b(?!\s*:)"
)


def _whatif_preferred(name: str, source: str) -> bool:
    """`$WhatIfPreference = $true` earlier in the text makes this cmdlet only report."""
    return (
        _WHATIF_PREF_VERB.match(name) is not None
        and name not in _WHATIF_PREF_NOT
        and (name in HANDLERS or name in WINDOWS_HANDLERS)
        and _WHATIF_PREF_GUARD.search(source) is None
        and "whatif" not in _WHATIF_PREF_SET.sub("", source).lower()
    )


# (h18) -WhatIf's alias and its unique prefixes (no other common parameter starts `-wh`).
_WHATIF_SPELLINGS = frozenset({"-wi", "-wh", "-wha", "-what", "-whati"})


def _whatif_on(words: list[Word], i: int, source: str) -> bool:
    """`-WhatIf` (or `-WhatIf:$true`) is set; `-WhatIf:$false` turns it off."""
    w = words[i]
    if w.text.lower() != "-whatif" and w.text.lower() not in _WHATIF_SPELLINGS:
        return False
    bound = source[w.end : w.end + 1] == ":" and i + 1 < len(words)
    return not (bound and words[i + 1].text.lower() in ("$false", "0", "$null"))


_SHELL_NAMES = frozenset(names("sh bash dash zsh ksh mksh ash yash posh"))

# Interpreters and the option that hands them inline code.
_INTERPRETER = re.compile(
    r"^(?:(python|pypy)[\d.]*|(node|nodejs|perl|ruby|osascript|lua[\d.]*|Rscript)|(php[\d.]*))$"
)


# Options that make an interpreter only check the syntax of its script and exit.
_SYNTAX_FLAGS = {
    "node": ("--check", "-c"),
    "nodejs": ("--check", "-c"),
    "ruby": ("-c",),
    "perl": ("-c", "-wc", "-cw"),
}


def _syntax_check_only(cmd: Cmd) -> bool:
    """`node --check app.js`, `ruby -c x.rb`, `php -l x.php`, `perl -c x.pl`: the code
    is parsed, not run (perl -c runs a script's BEGIN blocks: with inline `-e` code or
    `-M` modules the code is judged as usual; a file's syntax check is a check, like
    `bash -n`)."""
    texts = [w.text for w in cmd.args if not w.dynamic]
    if len(texts) != len(cmd.args) or not texts:
        return False
    name = cmd.name
    if name.startswith("php"):
        return ("-l" in texts or "--syntax-check" in texts) and not any(
            t in ("-r", "-B", "-R", "-F", "-E", "-a", "-S") for t in texts
        )
    flags = _SYNTAX_FLAGS.get(name)
    if flags is None or not any(t in flags for t in texts):
        return False
    # Nothing else that runs code (`node -c -r ./hook.js`, `ruby -c -r lib`, `perl -c -e`).
    return not any(
        t in ("-r", "--require", "--import", "--loader", "-I", "-e", "-E", "-x")
        or (name == "perl" and t.startswith(("-M", "-m")))
        for t in texts
    )


def _script_is_known_text(cmd: Cmd) -> bool:
    """`python3 <(echo 'import shutil; …')`, `ruby <(printf …)`: the script file is a
    process substitution whose text is known, so it is judged as that interpreter's inline
    code (`python3 -c TEXT`). True when the command was judged here."""
    for i, w in enumerate(cmd.args):
        if not w.dynamic:
            if w.text.startswith("-") and w.text not in ("-", "--"):
                continue
            return False
        if w.origin not in ("static", "decoded") or cmd.scope.source[w.start : w.start + 2] != "<(":
            return False
        m = _INTERPRETER.match(cmd.name)
        assert m is not None
        flag = "-c" if m.group(1) else "-r" if m.group(3) else "-e"
        code = w.text
        if m.group(3):
            code = re.sub(r"^\s*<\?php\b|\?>\s*$", "", code)
        head = cmd.words[0]
        if w.origin == "decoded":
            cmd.add(C, "encoded-command", f"{cmd.name} runs decoded (hidden) text")
        cmd.judge(
            [
                head,
                *cmd.args[:i],
                Word(flag, w.start, w.start),
                Word(code, w.start, w.end),
                *cmd.args[i + 1 :],
            ],
            cmd.stdin,
        )
        return True
    return False


def _shell_code_in_arguments(words: list[Word], scope: Scope, mark: int) -> None:
    """`start-stop-daemon -S -x /bin/sh -- -c '…'`, `setsid -f sh -c '…'`, any wrapper we do
    not know: a shell followed by `-c STRING` among the arguments will run STRING. When
    STRING is dangerous or worse it is judged (a handler that already did so is not
    repeated)."""
    for k in range(1, len(words) - 2):
        w = words[k]
        if w.dynamic or command_name(w.text) not in _SHELL_NAMES:
            continue
        j = k + 1
        while j < len(words) - 1 and words[j].text.startswith("-") and not words[j].dynamic:
            opt = words[j].text
            if opt == "-c" or (
                len(opt) > 2 and opt[1] != "-" and opt.endswith("c") and opt[1:].isalpha()
            ):
                code = words[j + 1]
                found = scope.nested(code.text, "bash", code)
                if max((f.level for f in found), default=S) < D:
                    return
                seen = {(f.rule, f.start, f.end) for f in scope.findings[mark:]}
                scope.include([f for f in found if (f.rule, f.start, f.end) not in seen])
                return
            j += 1


# Ex commands that write the buffer (`w`, `wq`, `x`, `up`, `sav`, `:wall`), also after `|`.
_EDITOR_WRITES = re.compile(
    r"(?:^|[|:\s])(?:w|wq|wq!|w!|x|x!|xit|wa|wqa|wall|xa|xall|up|update|sav\w*|exi\w*)(?:!|\s|$|\||>)"
)
_WRITERS = frozenset(
    names("tee cp mv install ln dd truncate sed perl ruby find rsync gsed sponge ex vim vi")
)


def _ln_force(cmd: Cmd) -> bool:
    """`ln -f`/`--force`: an existing file at the destination is replaced."""
    return cmd.short("f") or cmd.long("--force")


def _sed_adds_lines(cmd: Cmd, ops: list[Word]) -> bool:
    """Whether every sed script only adds lines (`$a LINE`, `1i LINE`, `/re/a\\ LINE`): the
    file keeps its content, so it is judged like appending to it (an account line added to
    /etc/sudoers is an account change, not a wiped file)."""
    scripts: list[str] = []
    for i, w in enumerate(cmd.args):
        if w.text in ("-e", "--expression") and i + 1 < len(cmd.args):
            scripts.append(cmd.args[i + 1].text)
        elif w.text.startswith("--expression="):
            scripts.append(w.text.split("=", 1)[1])
        elif w.text in ("-f", "--file") or w.text.startswith("--file="):
            return False
    if not scripts and ops:
        scripts = [ops[0].text]
    line = re.compile(r"\A\s*(?:\$|\d+|/[^/]*/)?\s*[ai](?:\\\s*|\s+)\S[^\n]*\Z")
    return bool(scripts) and all(line.match(sc) and "\n" not in sc for sc in scripts)


# Folders that hold account and boot files: a copy into one lands under its own name.
_ACCOUNT_FOLDERS = frozenset({"/etc", "/boot", "/boot/grub", "/etc/sudoers.d", "/etc/pam.d"})


def _target_directory(cmd: Cmd) -> Word | None:
    """The folder of `-t DIR`, `-tDIR` or `--target-directory[=]DIR` (cp, mv, install, ln)."""
    for i, w in enumerate(cmd.args):
        t = w.text
        if t == "--":
            return None
        if t in ("-t", "--target-directory") and i + 1 < len(cmd.args):
            return cmd.args[i + 1]
        if t.startswith("--target-directory="):
            return Word(t.split("=", 1)[1], w.start, w.end, w.dynamic)
        if t.startswith("-t") and len(t) > 2 and t[2] in "/~.":
            return Word(t[2:], w.start, w.end, w.dynamic)
    return None


# Options of the writers that take a value (`_write_destinations`: made once, not per call).
_WRITER_VALUED = frozenset({"-t", "--target-directory", "-m", "-o", "-g", "-s", "-S"})
_LN_VALUED = frozenset({"-t", "--target-directory", "-S", "--suffix"})
# (h20) cp's `-s` makes symbolic links, install's strips: flags, not truncate's size
_COPY_VALUED = _WRITER_VALUED - {"-s"}


def _write_destinations(cmd: Cmd) -> None:
    """Files a writer overwrites, appends to or moves away: account and boot files are
    blocked, startup and schedule files are persistence, whatever the tool."""
    name = cmd.name
    # (`ln -s` is a flag)
    ops = cmd.operands(
        _LN_VALUED
        if name == "ln"
        else _COPY_VALUED
        if name in ("cp", "install", "mv", "rsync")
        else _WRITER_VALUED
    )
    dests: list[Word] = []
    if name in ("tee", "truncate", "sponge"):
        dests = ops
    elif name in ("cp", "install", "ln", "rsync") and len(ops) >= 2:
        dests = [ops[-1]]
    elif name == "mv" and ops:
        dests = ops  # moving an account file away deletes it
    elif name == "dd":
        dests = [Word(w.text[3:], w.start, w.end) for w in cmd.args if w.text.startswith("of=")]
    elif name == "uniq":
        # `uniq [INPUT [OUTPUT]]`: the second operand is overwritten.
        ops = cmd.operands(frozenset(names("-f -s -w --skip-fields --skip-chars --check-chars")))
        dests = [w for w in ops[1:2] if w.text not in ("/dev/null", "/dev/stdout", "-")]
        if dests:
            cmd.add(M, "write", f"uniq writes its output to {dests[0].text}", dests[0])
    elif name in ("sed", "gsed", "perl", "ruby") and (
        cmd.short("i") or cmd.long("--in-place") or (name == "sed" and cmd.short("I"))
    ):
        # (`-I` is BSD/macOS sed's in-place flag, its backup suffix glued: `sed -Ibak`)
        script_given = cmd.option_value("-e", "--expression", "-f", "--file") is not None
        dests = ops if script_given or (name != "sed" and name != "gsed") else ops[1:]
        if name in ("perl", "ruby"):
            dests = [w for w in ops if w.text.startswith(("/", "~"))]
    elif name == "find":
        dests = [
            cmd.args[i + 1]
            for i, w in enumerate(cmd.args[:-1])
            if w.text in ("-fprint", "-fprint0", "-fprintf", "-fls")
        ]
    elif name in ("ex", "vim", "vi", "nvim") and any(
        re.match(r"-[a-zA-Z]*c|\+", w.text) for w in cmd.args
    ):
        # `ex -sc '1i|…' -cx ~/.bashrc`: an editor scripted from the command line; one whose
        # commands never write (`vim -es -c '%p' -c 'q!' /etc/passwd`: a print) leaves the
        # file as it was (n13u, probe13)
        codes = [
            cmd.args[i + 1].text if w.text in ("-c", "--cmd") else w.text[2:] or w.text[1:]
            for i, w in enumerate(cmd.args[:-1])
            if re.match(r"-[a-zA-Z]*c|\+", w.text)
        ]
        codes += [w.text[1:] for w in cmd.args[-1:] if w.text.startswith("+")]
        if any(
            cmd.args[i + 1].dynamic
            for i, w in enumerate(cmd.args[:-1])
            if w.text in ("-c", "--cmd")
        ) or any(_EDITOR_WRITES.search(c) for c in codes):
            dests = [w for w in ops if w.text.startswith(("/", "~"))]
    if cmd.scope.written and name in ("ln", "rsync", "dd"):
        # (u22) `ln -sf /tmp/rc ~/.bashrc`, `rsync /tmp/rc ~/.bashrc`, `dd if=/tmp/rc
        # of=~/.bashrc` after the block wrote /tmp/rc: judged as that text written there
        if name == "dd":
            sources = [
                Word(w.text[3:], w.start, w.end) for w in cmd.args if w.text.startswith("if=")
            ]
            files.copied_body(cmd, sources, dests[0] if dests else None)
        elif len(ops) >= 2:
            files.copied_body(cmd, ops[:-1], ops[-1])
    into = _target_directory(cmd) if name in ("cp", "install", "ln", "mv") else None
    if into is not None and not into.dynamic and ops:
        # `cp -t /etc passwd`, `install --target-directory=/etc sudoers`: each source lands
        # in the folder under its own name (n11u)
        ops = [*ops, Word(into.text.rstrip("/") + "/", into.start, into.end)]
    if name in ("cp", "install", "ln", "rsync", "mv") and len(ops) >= 2:
        last = ops[-1]
        if not last.dynamic and (
            last.text.endswith("/") or last.text.rstrip("/") in _ACCOUNT_FOLDERS
        ):
            # (`cp ./passwd /etc`: /etc is a folder, the file lands in it by its name)
            last = Word(last.text.rstrip("/") + "/", last.start, last.end)
            # `cp plugin.fish ~/.config/fish/conf.d/`: each source lands under its own name.
            dests += [
                Word(last.text + leaf, last.start, last.end)
                for src in ops[:-1][:8]
                if not src.dynamic
                and (leaf := src.text.rstrip("/").rsplit("/", 1)[-1])
                and "*" not in leaf
            ]
    if (
        name in ("cp", "rsync")
        and len(ops) >= 2
        and not ops[-1].dynamic
        and (ops[-1].text.rstrip("/") or "/") in ("/", *_ACCOUNT_FOLDERS)
        and (cmd.short("rRa") or cmd.long("--recursive", "--archive"))
    ):
        # `cp -r etc/ /`, `rsync -a ./rootfs/ /`, `rsync -a old/etc/ /etc/`: a folder tree
        # copied over the root or /etc replaces whatever files it holds, account files
        # included (like `tar -xf x -C /`) (n11u)
        cmd.add(
            C,
            "overwrite-system",
            f"{name} copies a folder tree over {ops[-1].text}: any system file there can be"
            " replaced",
            ops[-1],
        )
    adds_only = name in ("sed", "gsed") and _sed_adds_lines(cmd, ops)
    for w in dests:
        if w.dynamic and w.text.lstrip("\"'").startswith("/"):
            # `cp /dev/null /boot/vmlinuz-$(uname -r)`: a literal folder of account or boot
            # files, a computed name in it (safety-tgt9)
            boot = write_target(w.text, cmd.scope.cwds)
            if boot is not None and boot.level >= B:
                verb = "moves away" if name == "mv" and w is not ops[-1] else "overwrites"
                cmd.scope.add(boot.level, boot.rule, f"{name} {verb} {boot.what}", cmd.start, w.end)
                continue
        if w.dynamic:
            # `cp hook.py "$(python3 -m site --user-site)/usercustomize.py"`: the folder is
            # computed, the file name is not; a startup-hook name is persistence anywhere.
            tail = w.text.replace("\\", "/").rsplit("/", 1)[-1] if "/" in w.text else ""
            if not tail and name in ("cp", "mv", "install", "ln") and w is ops[-1] and len(ops) > 1:
                # `cp evil.pth "$(…)/"`: into a computed folder, under the source's own name.
                tail = ops[0].text.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
            if tail and "$" not in tail and "`" not in tail and ")" not in tail:
                hook = write_target("/x/site-packages/" + tail, cmd.scope.cwds)
                if hook is not None and hook.rule == "persistence":
                    cmd.add(C, "persistence", f"{name} writes {tail}, which runs at start-up", w)
            continue
        t = write_target(
            w.text,
            cmd.scope.cwds,
            append=(name == "tee" and (cmd.short("a") or cmd.long("--append"))) or adds_only,
        )
        moved_away = name == "mv" and w is not ops[-1]
        if (
            name == "ln"
            and _ln_force(cmd)
            and len(ops) >= 2
            and ops[0].text in ("/dev/null", "/dev/zero")
            and (t is None or t.level < D)
        ):
            # `ln -sf /dev/null app.log`: the file is replaced by a link to nothing.
            cmd.scope.add(
                D,
                "truncate",
                f"ln -f replaces {w.text} with a link to {ops[0].text}",
                cmd.start,
                w.end,
            )
        if t is not None and name == "ln" and t.level < B and not _ln_force(cmd):
            continue  # a new link: not persistence (`-f` replaces the startup file)
        if t is not None and moved_away and t.rule == "persistence":
            continue  # renaming a startup file away: not persistence
        if t is not None:
            verb = "moves away" if moved_away else "overwrites"
            cmd.scope.add(t.level, t.rule, f"{name} {verb} {t.what}", cmd.start, w.end)


# Programs whose -o/-O takes no file (a flag, or options that are not a path), and
# wrappers whose words after the program are that program's (judged there).
_O_IS_A_FLAG = frozenset(
    names(
        """
        grep egrep fgrep rg ag ack ls find test [ [[ mount umount ssh scp sftp ssh-keygen ps
        pgrep pkill lsof ip ss netstat nc ncat useradd usermod groupadd bash sh zsh dash ksh
        set tar unzip rsync jq yq cut paste tune2fs mke2fs mkfs mkfs.ext2 mkfs.ext3 mkfs.ext4
        mkfs.xfs mkfs.btrfs mkfs.vfat fsck e2fsck xfs_repair top htop df du mv cp install
        lsblk findmnt blkid pacman yay paru pamac bsdtar cat
        env nice nohup timeout stdbuf ionice chrt taskset command exec builtin xargs setsid
        flock unshare
        """
    )
)
_OUTPUT_LONG = ("--output=", "--output-document=", "--output-file=", "--outfile=", "--out=")
# (safety-cat5) Long options whose name says they write a file, in any program (GTFOBins
# file-write: `tsc --outFile`, `mypy --junit-xml`, `rlwrap --logfile`, `--log-file`,
# `--pid-file`, `--state-file`), and nmap-style `-oN/-oG/-oX/-oA FILE`.
_OUTPUT_NAME = re.compile(
    r"(?i)^--(?:[a-z0-9]+-)*(?:(?:out|output|outfile|outputfile|log|logfile|junit-?xml"
    r"|xml-?report|html-?report|save|save-?to|write-?to|pid|pidfile|result|results)(?:-?file)?"
    r"|(?:report|dump|state|trace|capture|history)-?file)$"
)
_NMAP_OUT = re.compile(r"^-o[NGXASJ]$")
# A bundle of flags ending in -o/-O, its value the next word or glued (`tree -fo FILE`,
# `sort -uo FILE`, `-fo/etc/passwd`) (n11u).
_BUNDLED_O = re.compile(r"^-[A-Za-z]{1,4}[oO]$")
_BUNDLED_O_GLUED = re.compile(r"^(-[A-Za-z]{1,4}[oO])[/~]")
# Only programs whose -o/-O names the file they write take the bundled spelling: in any
# other program a bundle ending in `o`/`O` is flags (`lsblk -dO` all columns, `pacman -Qo
# FILE` asks which package owns FILE, `cat -no`) (review 11, finding 2).
_BUNDLED_O_PROGRAMS = frozenset(
    names(
        """
        sort shuf tree strace ltrace gcc cc c++ g++ clang clang++ cpp tcc ld as nasm strip
        curl wget enscript pandoc zstd gpg gpg2 iconv msgfmt flex bison yacc patch xsltproc
        yt-dlp youtube-dl http https xh go rustc dot base64 uuencode sqlite3 cpio
        """
    )
)


# Options of particular programs that name a file they write, whose names do not say so
# (`wget -a LOG` appends its log, `curl --trace F`, `ssh -E LOG`, `tcpdump -w F`,
# `pg_dump -f F`, `ssh-keygen -f KEY`): option -> True when it appends. A folder option and
# a file-name option together name one file (`aria2c -d /etc -o passwd`,
# `curl --output-dir /etc -o passwd`) (n11u).
_PROGRAM_OUTPUTS: dict[str, dict[str, bool]] = {
    "wget": {"-a": True, "--append-output": True, "-o": False, "--output-file": False},
    "curl": {
        "--trace": False,
        "--trace-ascii": False,
        "--stderr": False,
        "-D": False,
        "--dump-header": False,
        "-c": False,
        "--cookie-jar": False,
        "--libcurl": False,
    },
    "ssh": {"-E": True},
    "tcpdump": {"-w": False},
    "tshark": {"-w": False},
    "dumpcap": {"-w": False},
    "pg_dump": {"-f": False, "--file": False},
    "pg_dumpall": {"-f": False, "--file": False},
    "ssh-keygen": {"-f": False},
    "aria2c": {},
}
_OUTPUT_DIRS = {
    "aria2c": (("-d", "--dir"), ("-o", "--out")),
    "curl": (("--output-dir",), ("-o", "--output")),
}


def _program_output_files(cmd: Cmd) -> None:
    """Files written through `_PROGRAM_OUTPUTS` options: account and boot files are blocked
    (critical when appended to), startup files persistence, like a redirection."""
    if not cmd.argv.dashed or cmd.argv.chars.isdisjoint("/~"):
        return
    if cmd.name == "ssh-keygen" and cmd.short("lyeiFBrQD"):
        return  # reading a key (`-l -f KEY`, `-y -f KEY`), not writing one
    table = _PROGRAM_OUTPUTS[cmd.name]
    args = cmd.args
    found: list[tuple[Word, bool]] = []
    for i, w in enumerate(args):
        t = w.text
        if t in table and i + 1 < len(args):
            found.append((args[i + 1], table[t]))
        elif t.startswith("--") and "=" in t and t.split("=", 1)[0] in table:
            key, given = t.split("=", 1)
            found.append((Word(given, w.start, w.end, w.dynamic), table[key]))
    dirs = _OUTPUT_DIRS.get(cmd.name)
    if dirs is not None:
        folder = cmd.option_value(*dirs[0])
        leaf = cmd.option_value(*dirs[1])
        if folder is not None and leaf is not None and not leaf.text.startswith(("/", "~")):
            path = folder.text.rstrip("/") + "/" + leaf.text
            found.append(
                (Word(path, folder.start, leaf.end, folder.dynamic or leaf.dynamic), False)
            )
    for value, append in found:
        if value.dynamic or value.text in ("-", "/dev/null", "/dev/stdout", "/dev/stderr"):
            continue
        target = write_target(value.text, cmd.scope.cwds, append)
        if target is not None:
            verb = "appends to" if append else "writes over"
            what = f"{cmd.name} {verb} {target.what}"
            cmd.scope.add(target.level, target.rule, what, cmd.start, value.end)
            return


def _output_options(cmd: Cmd) -> None:
    """A file named by an output option (`-o FILE`, `-O FILE`, `--output=FILE`) is
    written by whatever program takes it (`sort -o`, `shuf -o`, `wget -O`, `curl -o`,
    `gcc -o`): account and boot files are blocked, startup files persistence."""
    if not cmd.argv.dashed or cmd.argv.chars.isdisjoint("/~"):
        return  # (every spelling below is an option word, with a value starting `/` or `~`)
    args = cmd.args
    bundles = cmd.name in _BUNDLED_O_PROGRAMS
    for i, w in enumerate(args):
        if w.dynamic or w.text[:1] != "-":
            continue
        text, value = w.text, None
        name = text.split("=", 1)[0]
        if (
            text in ("-o", "-O", "--output", "--output-document", "--output-file", "--outfile")
            or ("=" not in text and (_OUTPUT_NAME.match(text) or _NMAP_OUT.match(text)))
            or (bundles and _BUNDLED_O.match(text))
        ):
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is not None and not nxt.dynamic:
                value = Word(nxt.text, nxt.start, nxt.end)
        elif text.startswith(("-o/", "-O/", "-o~", "-O~")):
            value = Word(text[2:], w.start, w.end)
        elif bundles and (glued := _BUNDLED_O_GLUED.match(text)) is not None:
            # `tree -fo/etc/passwd`, `sort -uo~/.bashrc`: flags, then -o with its value
            value = Word(text[glued.end(1) :], w.start, w.end)
        elif text.startswith(_OUTPUT_LONG) or (
            "=" in text and (_OUTPUT_NAME.match(name) or _NMAP_OUT.match(name))
        ):
            value = Word(text.split("=", 1)[1], w.start, w.end)
        if value is None or not value.text.startswith(("/", "~")):
            continue
        t = write_target(value.text, cmd.scope.cwds)
        if t is not None:
            cmd.scope.add(
                t.level, t.rule, f"{cmd.name} writes its output over {t.what}", cmd.start, value.end
            )


_DRY_RUN_FLAGS = frozenset(
    names(
        """
        --dry-run --dryrun --dry-run=client --dry-run=server --dry-run=true --simulate --no-act
        --just-print --recon --what-if
        """
    )
)
_DRY_RUN_SHORT = {
    "make": "n",
    "rsync": "n",
    "apt-get": "s",
    "apt": "s",
    "gmake": "n",
    # mke2fs -n: "do not actually create a file system, but display what it would do"
    "mke2fs": "n",
    "mkfs.ext2": "n",
    "mkfs.ext3": "n",
    "mkfs.ext4": "n",
    # mkfs.xfs -N: "print out the file system parameters without really creating it"
    "mkfs.xfs": "N",
    # mkntfs(8) -n, --no-action: "do not actually create a filesystem"
    "mkntfs": "n",
    "mkfs.ntfs": "n",
    # Documented `-n, --dry-run` (rclone(1), borg(1), restic(1), stow(8), ninja(1)) and
    # Ansible's `-C, --check` mode.
    "rclone": "n",
    "borg": "n",
    "restic": "n",
    "stow": "n",
    "ninja": "n",
    "ansible": "C",
    "ansible-playbook": "C",
}
# `certbot --dry-run` still runs its --pre-hook/--post-hook commands.
_NO_DRY_RUN = frozenset(names("sudo doas su env xargs sh bash zsh eval exec command nohup certbot"))
# Programs with no dry-run mode at all: a `--dry-run` (or `--simulate` …) handed to them
# proves nothing (GNU rejects it, BSD `rm -rf / --dry-run` takes it for a file and deletes
# the rest), so it never makes the command safe (gen12).
_NO_DRY_RUN_MODE = frozenset(
    names(
        """
        rm shred unlink rmdir srm wipe dd truncate chmod chown chgrp mv cp ln find tee kill
        pkill killall shutdown reboot halt poweroff
        """
    )
)


def _dry_run(cmd: Cmd) -> bool:
    """A known program asked only to say what it would do."""
    if cmd.name in _NO_DRY_RUN or cmd.name in RUNNERS or cmd.name not in HANDLERS:
        return False
    if cmd.name in _NO_DRY_RUN_MODE or cmd.name in _PRIVILEGE:
        return False  # (`pkexec certbot --dry-run --pre-hook …`: the flag is certbot's)
    if cmd.name in ("make", "gmake") and any(
        w.text.startswith(("--eval", "-E")) or re.fullmatch(r"-[a-zA-Z]+E", w.text) is not None
        for w in cmd.args
    ):
        return False  # `make -n --eval='$(shell …)'`: parsing the text runs it (n11u)
    if not _DRY_RUN_FLAGS.isdisjoint(cmd.argv.staticset):
        return True
    letters = _DRY_RUN_SHORT.get(cmd.name)
    if cmd.name == "git" and cmd.args and cmd.args[0].text in ("push", "clean", "rm", "add"):
        letters = "n"
    if letters is None or not cmd.short(letters) or cmd.has("--"):
        return False
    valued = _SHORT_VALUED.get(cmd.name)
    return valued is None or _short_flag(cmd, letters, valued)


# Short options that take a value, for the programs above whose dry-run letter could be
# such a value (`mkfs.ext4 -L -n /dev/sdb1` names the label "-n" and formats; `make -C -n`
# is no dry run either): mke2fs(8), mkfs.xfs(8), make(1), rsync(1) (n11u).
_MKE2FS_VALUED = "bCdEgGiIJlLmMNoOrtTUez"
_SHORT_VALUED = {
    "mke2fs": _MKE2FS_VALUED,
    "mkfs.ext2": _MKE2FS_VALUED,
    "mkfs.ext3": _MKE2FS_VALUED,
    "mkfs.ext4": _MKE2FS_VALUED,
    "mkfs.xfs": "bdilLmnprs",
    "mkntfs": "cspHSzL",
    "mkfs.ntfs": "cspHSzL",
    "make": "CfIjloW",
    "gmake": "CfIjloW",
    "rsync": "eBfTM",
}


def _short_flag(cmd: Cmd, letters: str, valued: str) -> bool:
    """Whether one of `letters` is given as a flag, reading each bundle as the program
    does: a letter of `valued` takes the rest of its word, or else the next word, as its
    value (`-Ln` is the label "n", `-L -n` the label "-n")."""
    skip = False
    for w in cmd.args:
        t = w.text
        if skip:
            skip = False
            continue
        if t == "--":
            return False
        if len(t) < 2 or t[0] != "-" or t[1] == "-":
            continue
        for k, c in enumerate(t[1:], 1):
            if c in letters:
                return True
            if c in valued:
                skip = k == len(t) - 1
                break
    return False


_LOCATORS = frozenset(names("locate plocate mlocate slocate"))


def _located(cmd: Cmd) -> None:
    """`locate shadow | xargs rm`: locate prints every indexed path that holds the pattern
    (a pattern with glob characters matches the whole path, `-b` the base name, `-i` any
    case); the account and boot files it would print are what a downstream `xargs rm` gets
    (n11u)."""
    from aintern_ls.safety.paths import ACCOUNT_NAMES

    if cmd.short("rcSV") or cmd.long("--regex", "--count", "--statistics", "--regexp"):
        return
    fold = cmd.short("i") or cmd.long("--ignore-case")
    base = cmd.short("b") or cmd.long("--basename")
    valued = frozenset(names("-d --database -l -n --limit"))
    hits: dict[str, Word] = {}
    for w in cmd.operands(valued)[:8]:
        if w.dynamic or not w.text:
            continue
        text = w.text.lstrip("\\")  # (`locate -b '\\passwd'`: that exact name)
        exact = text != w.text or any(c in text for c in "*?[")
        pat = text if exact else f"*{text}*"
        for acct in ACCOUNT_NAMES:
            name = acct.rsplit("/", 1)[-1] if base else acct
            if fnmatch.fnmatchcase(name.lower() if fold else name, pat.lower() if fold else pat):
                hits[acct] = Word(acct, w.start, w.end)
    if hits:
        cmd.info.paths = tuple(hits.values())


def _cwd_every(cmd: Cmd) -> str | None:
    """`<cwd>/*` when the working directory is known to be the root, a home or a system
    folder (a `cd` earlier in the block); None otherwise."""
    cwds = cmd.scope.cwds
    if cmd.scope.windows or all(c is None for c in cwds):
        return None
    for cwd in cwds:
        if cwd is not None and "$" not in cwd.replace("$HOME", "~"):
            rule = classify_path("*", frozenset([cwd])).rule
            if rule in ("rm-root", "rm-home", "rm-system"):
                return cwd.replace("$HOME", "~").rstrip("/") + "/*"
    return None


def _listing(cmd: Cmd) -> None:
    """What `ls` prints, as paths a downstream `xargs rm` would get: everything in the
    listed directories (a glob operand lists just its matches)."""
    ops = cmd.operands(frozenset({"-I", "--ignore", "-w", "--width"}))
    if any(w.text.startswith(("-I", "--ignore", "--hide")) for w in cmd.args):
        return
    if not ops or (len(ops) == 1 and ops[0].text in (".", "./")):
        # (after `cd ~`/`cd /` the listing is that folder's: `cd ~ && ls -A | grep -v .ssh
        # | xargs rm -rf` deletes every other entry of home)
        cmd.info.paths = (Word(_cwd_every(cmd) or "*", cmd.start, cmd.end),)
        return
    cmd.info.paths = tuple(
        # (a glob still: `ls /etc/pass* | xargs rm` deletes what the glob takes) (n11u)
        Word(w.text if w.glob else w.text.rstrip("/") + "/*", w.start, w.end, glob=w.glob)
        for w in ops
        if not w.dynamic
    )
    cmd.info.names_only = not any(w.glob for w in ops) and not cmd.short("d")


# Programs with an option (or a text) that hands a string to a shell: rpm's `--eval
# '%(cmd)'`, apt's `-o DPkg::Pre-Invoke::=cmd`, enscript's input filter, dmsetup's and
# tcpdump's programs to run, rake's Ruby, TeX's `\write18{cmd}` with --shell-escape.
_TEX = frozenset(names("tex pdftex xetex luatex latex pdflatex xelatex lualatex etex"))
_CODE_OPTION_TOOLS = (
    frozenset(names("rpm rpmdb rpmquery rpmspec rpmbuild apt apt-get aptitude enscript"))
    | frozenset(names("dmsetup tcpdump rake"))
    | _TEX
)
_APT_HOOK = re.compile(
    r"(?i)^(?:apt::update::(?:pre|post)-invoke(?:-success)?|dpkg::(?:pre|post)-invoke"
    r"|dpkg::pre-install-pkgs|apt::periodic::[\w-]+|dpkg::tools::options::[^=]*)"
    r"(?:::)?=(.*)$"
)
_RPM_SHELL = re.compile(r"%\((.*)\)", re.S)
_RPM_LUA = re.compile(r"%\{lua:(.*)\}", re.S)
_LUA_SHELL = re.compile(r"""(?:os\.execute|io\.popen|posix\.exec)\s*\(\s*(["'])(.*?)\1""")
_WRITE18 = re.compile(r"\\write18\s*\{(.*?)\}", re.S)


def _option_values(cmd: Cmd, *options: str) -> list[Word]:
    """Every value given to one of `options` (`-o X`, `-oX`, `--opt X`, `--opt=X`)."""
    out: list[Word] = []
    args = cmd.args
    for i, w in enumerate(args):
        t = w.text
        for o in options:
            if t == o and i + 1 < len(args):
                out.append(args[i + 1])
            elif o.startswith("--") and t.startswith(o + "="):
                out.append(Word(t[len(o) + 1 :], w.start, w.end, w.dynamic, w.glob, w.origin))
            elif not o.startswith("--") and len(o) == 2 and t.startswith(o) and len(t) > 2:
                out.append(Word(t[2:], w.start, w.end, w.dynamic, w.glob, w.origin))
    return out


def _embedded_code(cmd: Cmd) -> None:
    n = cmd.name
    run = run_config_command
    if n.startswith("rpm"):
        for v in _option_values(cmd, "--eval", "-E"):
            sh = _RPM_SHELL.search(v.text)
            if sh is not None:
                run(cmd, Word(sh.group(1), v.start, v.end, v.dynamic), f"{n} --eval %(…)")
            lua = _RPM_LUA.search(v.text)
            if lua is not None:
                calls = _LUA_SHELL.findall(lua.group(1))
                for _q, code in calls:
                    run(cmd, Word(code, v.start, v.end, v.dynamic), f"{n} --eval lua")
                if not calls:
                    cmd.add(C, "config-exec", f"{n} --eval runs Lua code", v)
    elif n.startswith("apt"):
        for v in _option_values(cmd, "-o", "--option"):
            m = _APT_HOOK.match(v.text)
            if m is not None:
                run(cmd, Word(m.group(1), v.start, v.end, v.dynamic), f"{n} -o hook")
    elif n == "enscript":
        for v in _option_values(cmd, "-I", "--filter"):
            run(cmd, v, "enscript's input filter")
    elif n == "dmsetup":
        for v in _option_values(cmd, "--exec"):
            run(cmd, v, "dmsetup --exec")
    elif n == "tcpdump":
        for v in _option_values(cmd, "-z"):
            run(cmd, v, "tcpdump -z")
    elif n == "rake":
        from aintern_ls.safety import inline

        for v in _option_values(cmd, "-e", "--execute", "-p", "--execute-print", "-E"):
            cmd.scope.include(inline.code_findings(cmd.scope, v.text, v, "ruby"))
    elif n in _TEX and any(
        w.text.lstrip("-") in ("shell-escape", "enable-write18") for w in cmd.args
    ):
        for w in cmd.args:
            for m in _WRITE18.finditer(w.text):
                run(cmd, Word(m.group(1), w.start, w.end, w.dynamic), f"{n} \\write18")


# Task runners and environment launchers: `TOOL VERB [options] [--] CMD ARGS…` runs CMD
# (the program's own handler judges the rest: installs, downloads). name -> verbs ->
# (options that take a value, operands before the command, whether the command is a
# shell string given to an option).
_LAUNCHERS: dict[str, dict[str, tuple[frozenset[str], int, str]]] = {}


def _launcher(progs: str, verbs: str, value_opts: str = "", skip: int = 0, code: str = "") -> None:
    for p in names(progs):
        for v in names(verbs) or ("",):
            _LAUNCHERS.setdefault(p, {})[v] = (frozenset(names(value_opts)), skip, code)


_launcher("npm", "exec x", "--package -p --workspace -w", code="-c --call")
_launcher("pnpm", "exec", "--filter -F --dir -C")
_launcher("yarn", "exec", "--cwd")
_launcher("bun", "x exec", "--cwd")
_launcher("poetry pipenv pdm hatch rye uv", "run", "--directory -C -p --project --with -e --env -s")
_launcher("conda mamba micromamba", "run", "-n --name -p --prefix --cwd")
_launcher("mise", "exec x", "-C --cd -j --jobs")
_launcher("asdf", "exec")
_launcher("bundle", "exec", "--gemfile")
_launcher("nix", "develop shell", "--command -c", code="")
_launcher("direnv", "exec", skip=1)
_launcher("doppler infisical teller", "run", "-p --project -c --config --env --path --token")
_launcher("chamber", "exec", skip=1)
_launcher("envchain", "", skip=1)
_launcher("sops", "exec-env exec-file", skip=1)
_launcher("start-stop-daemon", "")
_launcher("ip", "netns", skip=2)  # `ip netns exec NS CMD`


def _launched(cmd: Cmd) -> None:
    """`poetry run rm -rf /`, `conda run -n base CMD`, `npm exec -c 'CMD'`, `nix develop -c
    CMD`, `direnv exec DIR CMD`, `sops exec-env FILE 'CMD'`: the command the launcher runs
    is judged as if written on its own."""
    verbs = _LAUNCHERS[cmd.name]
    args = cmd.args
    i = 0
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "--":
        i += 1  # global options before the verb (`poetry -C dir run …`)
    verb = args[i].text if i < len(args) else ""
    spec = verbs.get(verb) if "" not in verbs else verbs[""]
    if spec is None:
        return
    value_opts, skip, code_opts = spec
    j = i + 1 if "" not in verbs else 0
    if cmd.name == "start-stop-daemon":
        # `start-stop-daemon -S -x PROG -- ARGS`: PROG runs with ARGS.
        prog = next(iter(_option_values(cmd, "-x", "--exec", "-a", "--startas")), None)
        dash = next((k for k in range(len(args)) if args[k].text == "--"), None)
        if prog is not None and (cmd.short("S") or cmd.has("--start")):
            cmd.judge([prog, *(args[dash + 1 :] if dash is not None else [])], cmd.stdin)
        return
    if cmd.name == "nix":
        # `nix develop [FLAKE] -c CMD…`, `nix shell PKGS… --command CMD…`: after -c/--command.
        at = next((k for k in range(j, len(args)) if args[k].text in ("-c", "--command")), None)
        if at is not None and at + 1 < len(args):
            cmd.judge(list(args[at + 1 :]), cmd.stdin)
        return
    code_names = frozenset(names(code_opts)) if code_opts else frozenset()
    if cmd.name in ("mise", "rtx"):
        # `mise x node@20 python@3 -- CMD`: the tools come first, the command after `--`.
        dash = next((k for k in range(j, len(args)) if args[k].text == "--"), None)
        if dash is not None:
            j = dash
    while j < len(args):
        t = args[j].text
        if t == "--":
            j += 1
            break
        if t in code_names and j + 1 < len(args):
            cmd.scope.include(cmd.scope.nested(args[j + 1].text, "bash", args[j + 1], -1))
            return
        if t.startswith("-") and len(t) > 1:
            j += 2 if t in value_opts else 1
            continue
        break
    j += skip
    tail = list(args[j:])
    if not tail:
        return
    if cmd.name == "sops" and verb == "exec-env":
        cmd.scope.include(cmd.scope.nested(" ".join(w.text for w in tail), "bash", tail[0], -1))
        return
    cmd.judge(tail, cmd.stdin)


# Programs that print the paths below their operands (the working directory by default)
# when asked to list: `rg --files`, `du -a`, `locate -r '^/home/'`, `tree -fi`.
_PATH_LISTERS = frozenset(names("rg du locate plocate mlocate slocate tree"))
_LINK_MAKERS = frozenset(names("mklink mklink.exe new-item"))


def _path_listing(cmd: Cmd) -> None:
    """What `rg --files DIR`, `du -a DIR`, `locate -r '^/home/'` print, as paths a
    downstream `xargs rm` would get (a filter such as `rg -g '*.log'` names a subset)."""
    n = cmd.name
    if n == "rg":
        if not cmd.has("--files") or any(
            w.text.split("=", 1)[0]
            in ("-g", "--glob", "-t", "--type", "-T", "--type-not", "--iglob")
            for w in cmd.args
        ):
            return
        ops = cmd.operands(frozenset(names("-j --threads --max-depth -d --ignore-file")))
    elif n == "du":
        if not (cmd.short("a") or cmd.has("--all")) or cmd.has("--exclude"):
            return
        ops = cmd.operands(frozenset(names("-d --max-depth -t --threshold -B --block-size")))
    elif n == "tree":
        if not cmd.short("f") or cmd.has("-P", "-I"):
            return
        ops = cmd.operands(frozenset(names("-L -P -I -o -H --charset --filelimit")))
    else:
        # locate: a pattern anchored at a directory lists everything below it.
        ops = []
        for w in cmd.operands(frozenset(names("-d --database -l --limit -n"))):
            if not w.dynamic and re.fullmatch(r"\^?/?[*.]*\$?|\*/\*?", w.text):
                # `locate '*'`, `locate -r .`, `locate /`: every path in the database.
                ops.append(Word("/", w.start, w.end))
                continue
            m = re.fullmatch(r"\^?(/[^*?\[\]()|+{}$\\]*?)/?(?:\.\*)?", w.text)
            if m and not w.dynamic:
                ops.append(Word(m.group(1) or "/", w.start, w.end))
        if not ops:
            return
    roots = ops or [Word(".", cmd.start, cmd.end)]
    # (every path below each root, as find's listing: `/**`, so a loop reading them one by
    # one, quoted, still reaches the whole tree: `locate '*' | while read f; do shred -u
    # "$f"; done`, f19)
    cmd.info.paths = tuple(
        Word(w.text.rstrip("/") + "/**", w.start, w.end) for w in roots if not w.dynamic
    )


@handles("compgen")
def _compgen(cmd: Cmd) -> None:
    """`compgen` only prints completions; `-G PATTERN` lists the paths a glob matches and
    `-f`/`-d`/`-A file PREFIX` the files starting with PREFIX: what a downstream `xargs rm`
    gets (`compgen -G '/*' | xargs rm -rf`)."""
    if "-C" in cmd.argv.textset:
        allowlist.shell_callbacks(cmd)  # (n19u) `compgen -C CMD` runs CMD
    pattern = cmd.option_value("-G")
    if pattern is not None and not pattern.dynamic:
        cmd.info.paths = (Word(pattern.text, pattern.start, pattern.end, glob=True),)
        return
    if cmd.short("fd") or any(
        w.text == "-A" and n.text in ("file", "directory")
        for w, n in zip(cmd.args, cmd.args[1:], strict=False)
    ):
        ops = cmd.operands(frozenset({"-A", "-o", "-W", "-X", "-P", "-S", "-F", "-C", "-G"}))
        prefix = ops[-1] if ops and ops[-1].text not in ("file", "directory") else None
        if prefix is None:
            cmd.info.paths = (Word("*", cmd.start, cmd.end),)
        elif not prefix.dynamic:
            cmd.info.paths = (Word(prefix.text + "*", prefix.start, prefix.end, glob=True),)


def _span(w: Word) -> tuple[int, int]:
    return w.start, w.end


_SHORT_BUNDLE = re.compile(r"-[a-zA-Z]+")


def _as_if_destructive(
    words: list[Word], scope: Scope, stdin: Stdin, dynamic: bool = False
) -> None:
    """An unknown or run-time program: judge its literal operands as if it were `rm`, and
    keep what would be blocked (`$X -rf /`, `foo -rf ~`). A program whose name is known
    text but not to us needs the full `-rf` spelling and a root, home or system target
    (`gsutil cp -r . gs://b` is not a wipe); a run-time name gets no such benefit."""
    if len(words) < 2:
        return
    if scope.family != "bash":
        if dynamic:
            _as_if_destructive_windows(words, scope, stdin)
        return
    if not dynamic:
        flags = "".join(
            [w.text[1:] for w in words[1:] if w.text[:1] == "-" and _SHORT_BUNDLE.fullmatch(w.text)]
        )
        longs = {w.text for w in words[1:]}
        recursive = "r" in flags or "R" in flags or "--recursive" in longs
        force = "f" in flags or "--force" in longs
        if not (recursive and force) and not any(w.text.startswith("of=/dev/") for w in words):
            return
    probe = Scope(scope.source, scope.family, None, scope.nested_analyser, scope.depth, judge)
    probe.cwds = scope.cwds
    texts = [w.text for w in words[1:]]
    # The programs whose arguments alone say "wipe": rm (-r + a root), dd (of=/dev/…),
    # chmod/chown (-R + a root).
    probes = ["rm"]
    if any(t.startswith("of=") for t in texts):
        probes.append("dd")
    if any(t in ("-R", "--recursive") for t in texts):
        probes.append("chmod")
    if any(t in ("-delete", "-exec", "-execdir") for t in texts):
        probes.append("find")
    if dynamic and any(is_device(t) for t in texts):
        # `$X /dev/sda`: the most dangerous program that fits is mkfs.
        probes.append("mkfs")
    for program in probes:
        handler = HANDLERS.get(program)
        if handler is not None:
            head = Word(program, words[0].start, words[0].end)
            handler(Cmd([head, *words[1:]], program, probe, stdin))
    for f in probe.findings:
        if f.level >= B and (dynamic or f.rule != "rm-cwd"):
            scope.add(
                B,
                f.rule,
                "the program is not known, and with these arguments it could wipe "
                + f.reason.removeprefix("deletes "),
                words[0].start,
                f.end,
            )


def _as_if_destructive_windows(words: list[Word], scope: Scope, stdin: Stdin) -> None:
    """`set x=rd` … `%x% /s /q C:\\`, `& $c -Recurse -Force C:\\`: a run-time program name
    with literal operands is judged as the Windows programs those operands fit (rd/del with
    /s, format with a drive, Remove-Item with -Recurse), keeping what would be blocked."""
    low = [w.text.lower() for w in words[1:]]
    probes: list[str] = []
    head = words[0]
    raw = scope.source[head.start : head.end] if 0 <= head.start < head.end else head.text
    if "%" in raw or "!" in raw:
        # `b%X%cdedit /delete {current}`, `v!e!ssadmin …` (DOSfuscation): with the variables
        # empty the name spells a program we know; judged as that program too (gen12)
        bare = re.sub(r"%[^%\s]*%|![^!\s]*!|[\"^]", "", raw).lower()
        bare = bare.replace("/", "\\").rsplit("\\", 1)[-1].removesuffix(".exe")
        if bare and (bare in WINDOWS_HANDLERS or bare in HANDLERS):
            probes.append(bare)
    if "/s" in low:
        probes += ["rd", "del"]
    if re.fullmatch(r"[a-z]:\\?", low[0]):
        probes.append("format")
    if scope.family == "powershell" and any(t in ("-recurse", "-r") for t in low):
        probes.append("remove-item")
    if not probes:
        return
    probe = Scope(
        scope.source, scope.family, None, scope.nested_analyser, scope.depth, judge_uncached
    )
    probe.cwds = scope.cwds
    probe.wrapped = scope.wrapped
    for program in probes:
        mark = len(probe.findings)
        judge_uncached([Word(program, words[0].start, words[0].end), *words[1:]], probe, stdin)
        for f in probe.findings[mark:]:
            if f.level >= B:
                scope.add(
                    B,
                    f.rule,
                    f"the program is only known at run time; if it is {program}: {f.reason}",
                    words[0].start,
                    f.end,
                )


_BRACE = re.compile(r"\{([^{}]*,[^{}]*)\}")
# (f19) a sequence expression: `{1..9}`, `{a..e}`, `{01..500..5}`
_SEQ = re.compile(r"\{(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])(?:\.\.(-?\d{1,4}))?\}")
_SEQ_MAX = 32  # a longer sequence stands for every such name (its glob)


def _sequence(m: re.Match[str]) -> list[str] | None:
    """The items of a sequence expression, or None when it is longer than `_SEQ_MAX`."""
    a, b, step = m.group(1), m.group(2), abs(int(m.group(3) or 1)) or 1
    if a.isalpha() != b.isalpha():
        return [m.group(0)]  # (`{a..9}`: bash leaves it as written)
    if a.isalpha():
        lo, hi = ord(a), ord(b)
        seq = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [chr(c) for c in seq] if len(seq) <= _SEQ_MAX else None
    lo, hi = int(a), int(b)
    seq = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
    if len(seq) > _SEQ_MAX:
        return None
    width = max(len(a), len(b)) if (a.lstrip("-")[:1] == "0" or b.lstrip("-")[:1] == "0") else 0
    return [str(n).zfill(width) for n in seq]


def _first_brace(text: str) -> tuple[re.Match[str] | None, list[str]]:
    """The first brace list or sequence in `text` and what it expands to."""
    m = _BRACE.search(text)
    q = _SEQ.search(text) if ".." in text else None
    if q is not None and (m is None or q.start() < m.start()):
        items = _sequence(q)
        return q, items if items is not None else ["*"]  # (every such name)
    return m, m.group(1).split(",") if m is not None else []


def brace_expand(words: list[Word], source: str) -> list[Word]:
    """`{rm,-rf,/}` and `/bin/{r,}m` as bash expands them (unquoted literal words only);
    sequences too (`/mnt/backup{1..9}`; one longer than 32 items is its glob, f19)."""
    out: list[Word] = []
    for w in words:
        raw = source[w.start : w.end]
        # Only words written as such in the text expand (`xargs -I{}` items do not).
        # A word longer than any honest brace expansion is left as it is (bounded cost).
        m0 = _first_brace(w.text)[0] if not w.dynamic and len(w.text) <= 512 else None
        if m0 is None:
            out.append(w)
            continue
        if raw != w.text:
            # `"$HOME"/{*,.*}`: a quoted prefix, then the brace list written bare: that part
            # still expands (safety-m9); a quoted or escaped brace list does not
            tail = w.text[m0.start() :]
            if not raw.endswith(tail) or any(q in tail for q in "'\"\\$`"):
                out.append(w)
                continue
        parts = [w.text]
        for _ in range(4):
            nxt: list[str] = []
            for p in parts:
                m, alts = _first_brace(p)
                if m is None:
                    nxt.append(p)
                    continue
                nxt.extend(p[: m.start()] + alt + p[m.end() :] for alt in alts)
            parts = nxt[:32]
        out.extend(Word(p, w.start, w.end, False, w.glob or "*" in p) for p in parts if p)
    return out or words


# PowerShell's approved verbs say what an unknown cmdlet does (Get-Verb).
_PS_VERB = re.compile(r"^([a-z]+)-[a-z0-9]+$")
# Get-Verb's list: a `Verb-Noun` name with another verb (`frob-agent`, `docker-compose`) or a
# program file's extension (`frob-agent.exe`) is a native program, judged like one (by its
# arguments' shape) as in cmd and bash, not as a cmdlet (b12).
_PS_APPROVED_VERBS = frozenset(
    names(
        "add approve assert backup block build checkpoint clear close compare complete"
        " compress confirm connect convert convertfrom convertto copy debug deny deploy"
        " disable disconnect dismount edit enable enter exit expand export find format get"
        " grant group hide import initialize install invoke join limit lock measure merge"
        " mount move new open optimize out ping pop protect publish push read receive redo"
        " register remove rename repair request reset resize resolve restart restore resume"
        " revoke save search select send set show skip split start step stop submit suspend"
        " switch sync test trace unblock undo uninstall unlock unprotect unpublish"
        " unregister update use wait watch write"
    )
)


def _ps_cmdlet_name(name: str, head_low: str) -> bool:
    """`Remove-Frobnicate` is read as a cmdlet (its approved verb says what it does);
    `frob-agent.exe`, `frob-agent` and `Wipe-Disk` as programs (their arguments' shape)."""
    m = _PS_VERB.match(name)
    return (
        m is not None
        and not head_low.endswith((".exe", ".com"))
        and (
            m.group(1) in _PS_APPROVED_VERBS
            or m.group(1) in _PS_READ_VERBS  # (`Sort-`/`Where-`/`ForEach-`: built-in verbs)
            or m.group(1) in _PS_DESTROY_VERBS
            or shape.name_verb(name) in shape.STRONG_VERBS
        )
    )


_PS_READ_VERBS = frozenset(
    names(
        "get test show find measure select format convertto convertfrom compare resolve search"
        " read out trace watch wait confirm join split group sort where foreach write"
    )
)
_PS_DESTROY_VERBS = frozenset(
    names(
        "remove clear stop disable uninstall unregister reset dismount revoke block deny"
        " unpublish suspend"
    )
)


def _powershell_verb(cmd: Cmd) -> None:
    verb = cmd.name.split("-", 1)[0]
    if verb in _PS_READ_VERBS:
        from aintern_ls.safety.windows import ps_destructive_switch

        ps_destructive_switch(cmd)  # `Search-Mailbox -DeleteContent`
        return
    # `Remove-Frobnicate -Path C:\ -Recurse`: aimed at a drive, a home or a system folder,
    # an unknown remover is a wipe.
    if (
        verb in _PS_WIPE_VERBS
        and shape.ENABLED
        and _shape_wipe(cmd, list(range(len(cmd.args))), verb)
    ):
        return
    if verb in _PS_WIPE_VERBS and shape.ENABLED and "storagepool" in cmd.name:
        # `Remove-StoragePool`: a whole Storage Spaces pool, every virtual disk in it.
        cmd.add(B, "shape-wipe", f"{cmd.name} deletes a whole storage pool (every disk in it)")
        return
    from aintern_ls.safety.windows import ps_verb_knowledge

    if ps_verb_knowledge(cmd):
        return  # `Set-ADDefaultDomainPasswordPolicy -ComplexityEnabled $false`
    if verb in _PS_DESTROY_VERBS:
        cmd.add(D, "delete", f"{cmd.name} removes, stops or disables something")
    elif shape.ENABLED and shape.name_verb(cmd.name) in shape.STRONG_VERBS:
        _by_shape(cmd, cmd.name)  # `Wipe-Disk`, `Delete-Files`, `Nuke-Profile`: not approved
    else:
        cmd.add(M, "unknown-command", f"{cmd.name} changes the system")


# Approved verbs that destroy what they are aimed at (Stop-/Disable-/Revoke- do not).
_PS_WIPE_VERBS = frozenset(names("remove clear reset uninstall erase unpublish"))


# Verbs that empty what they are aimed at rather than remove it.
_EMPTYING_VERBS = frozenset(names("truncate clear clean cleanup purge prune empty flush vacuum"))


def is_log_dir(text: str, windows: bool) -> bool:
    """A folder that holds the system's logs (`/var/log`, `C:\\Windows\\Logs`)."""
    low = text.replace("\\", "/").rstrip("/").lower()
    return bool(LOG_DIR.match(low) or LOG_SUBDIR.match(low))


# Words before a verb that name a disk: `mytool disk wipe sdb` still aims at a disk.
_DISK_NOUNS = frozenset(
    names("disk disks drive drives device devices dev blockdev partition partitions part mbr gpt")
)
# Verbs whose bare operand may as well be the source (`clone sd1`, `restore sdb`).
_SOURCE_OR_TARGET_VERBS = frozenset(names("clone restore image reimage"))


def _bare_names_disk(cmd: Cmd, at: int, verb: str) -> bool:
    """Whether a bare kernel disk name at `at` names a disk: not when a word before it names
    another resource (`hcloud volume delete sdb`, `openstack volume delete vda`: a volume
    called so), nor after a verb that reads its operand as well as writing it (`clone`)."""
    if verb in _SOURCE_OR_TARGET_VERBS:
        return False
    for w in cmd.args[:at]:
        t = w.text
        if w.dynamic or t.startswith(("-", "/")) or shape.word_verb(t) is not None:
            continue
        if t.lower() not in _DISK_NOUNS:
            return False
    return True


_ONE_LETTER = re.compile(r"[A-Za-z]")


def _shape_wipe(cmd: Cmd, targets: list[int], verb: str, reason: str = "") -> bool:
    """Add `shape-wipe` (blocked) when one of the arguments at `targets` is the whole
    system: the root, a home, a system folder, a raw disk, the system's volumes."""
    scope = cmd.scope
    windows = scope.family != "bash"
    bare: bool | None = None  # whether a bare kernel disk name (`sdb`, `ada0`) names a disk
    for i in targets:
        w = cmd.args[i]
        if w.dynamic:
            continue
        value = shape.option_value(w.text)
        if bare_disk(value):
            if bare is None:
                bare = _bare_names_disk(cmd, i, verb)
            if not bare:
                continue
        if (
            i > 0
            and _ONE_LETTER.fullmatch(value)
            and cmd.args[i - 1].text.lower() in ("-driveletter", "-drive", "--drive", "/drive")
        ):
            value += ":"  # `-DriveLetter C` is the drive C:
        if verb in shape.FORMAT_VERBS:
            found = shape.path_shape(value, scope.cwds, windows)
            if not (
                is_device(value)
                or re.fullmatch(r"[A-Za-z]:\\?", value)
                or found.what.startswith(("the raw disk", "the system volume"))
            ):
                found = shape.ORDINARY
        else:
            found = shape.target_shape(value, scope.cwds, windows)
        if found.system and verb in _EMPTYING_VERBS and is_log_dir(value, windows):
            # `frob truncate --all /var/log`: the logs emptied, the folder kept (log
            # clearing, critical: session-8 convention).
            why = reason or f"`{cmd.name}` is not known here, and it is told to {verb}"
            cmd.add(C, "log-wipe", f"{why}; aimed at the system logs in {value}", w)
            return True
        if found.system:
            why = reason or f"`{cmd.name}` is not known here, and it is told to {verb}"
            cmd.add(B, "shape-wipe", f"{why}; aimed at {found.what}, it is treated as a wipe", w)
            return True
    return False


def _whatever_the_handler(cmd: Cmd) -> None:
    """Knowledge that applies whatever handler the program has (called before it runs); the
    rules live with their subject, in the order they are tried here."""
    family = cmd.scope.family
    stop = system.attack_simulation(cmd) or system.attack_tool(cmd) or windows.credential_copy(cmd)
    if not stop and family != "bash":
        stop = windows.protection_hooks(cmd) or windows.web_logging_off(cmd)
    if not stop and not system.clock_set(cmd) and family == "bash":
        system.history_off(cmd)
    if cmd.words[0].dynamic:
        return
    # (the classification made once: each rule below tests the program's name first)
    argv = cmd.argv
    name = argv.head
    texts = list(argv.texts)
    if name not in _BY_NAME:
        # the rules keyed on a program's name cannot apply (safety-sp9b); the two that
        # read any program's arguments run, in their order
        _ = windows.app_installer_url(cmd, name, texts) or _unknown_shell_c(cmd, name, texts)
        return
    low = list(argv.low)
    joined = argv.joined_low
    # (a rule added below that tests the program's name adds the name to `_BY_NAME`; one
    # that reads any program's arguments goes in the branch above as well)
    _ = (
        system.capsh_root(cmd, name, low)
        or network.port_proxy(cmd, name, joined)
        or windows.safe_boot_service(cmd, name, texts, low)
        or windows.certoc_download(cmd, name, texts)
        or windows.app_installer_url(cmd, name, texts)
        or windows.wmic_remote_or_killer(cmd, name, texts, low, joined)
        or files.find_deletes_logs(cmd, name, low)
        or files.home_entries_deleted(cmd, name, texts)
        or _unknown_shell_c(cmd, name, texts)
    )


# The programs the name-keyed rules of `_whatever_the_handler` test for (`argv.head`: the
# command word's base name, lower-cased, without `.exe`); a rule keyed on another program's
# name adds it here. For any other program only the rules that read arguments run.
_BY_NAME = registry.Programs(
    names("capsh netsh reg new-item new-itemproperty set-itemproperty ni certoc wmic find"),
    files._HOME_DELETERS,  # (home_entries_deleted's programs)
)


# Programs known to run `-c CODE` as something other than a shell command line.
_NOT_SHELL_C = re.compile(
    r"(?i)^(?:python\S*|pypy\S*|perl\S*|ruby\S*|node|php\S*|psql|mysql|pwsh|powershell|cmd)$"
)


def _unknown_shell_c(cmd: Cmd, name: str, texts: list[str]) -> bool:
    """An unknown shell or REPL given `-c 'CMD'` (`genie -c`, `ginsh -c '!CMD'`): CMD (a
    leading `!` shell escape removed) is judged as a bash command line, and only a blocked
    result is kept (`-c` means other things to other programs: a CMD that is not plainly
    destructive leaves the command as it was). Programs the analyser models (real shells,
    `grep -c`) judge their own `-c`; only unknown programs and the generic local-program
    runner get this reading."""
    if cmd.scope.family != "bash" or "-c" not in texts or _NOT_SHELL_C.match(name):
        return False
    handler = lookup(name, False)
    if handler is not None and handler.__name__ != "_runner":
        return True
    args = cmd.args
    for i, w in enumerate(args[:-1]):
        if w.text != "-c" or w.dynamic:
            continue
        code_word = args[i + 1]
        code = code_word.text.lstrip()
        code = code[1:] if code.startswith("!") else code
        if not code or code_word.dynamic:
            return True
        found = [f for f in cmd.scope.nested(code, "bash", code_word, -1) if f.level == B]
        if found:
            cmd.scope.include(found)
            cmd.add(B, "shell-c", f"{name} -c runs a command line that is blocked")
        return True
    return True


# Deleting options whose name says they erase the whole machine.
_WHOLE_SYSTEM_OPTION = re.compile(
    r"(?i)\A(?:--?|/)(?:erase|wipe|nuke|destroy|zap|shred)[-_]?(?:and[-_])?"
    r"(?:install|reinstall|disks?|all[-_]?disks|system|device|drive|volumes?|everything|machine)"
    r"(?:[=:]\S*)?\Z"
)


# (what `_WHOLE_SYSTEM_OPTION` needs somewhere in the arguments, found in one search)
_WHOLE_SYSTEM_VERB = re.compile(r"(?i)erase|wipe|nuke|destroy|zap|shred")


def _names_a_wipe(low: str) -> bool:
    """`_WHOLE_SYSTEM_VERB.search(low)` for a lower-cased text (plain substring tests when it
    is ASCII: `re.I` folds some other letters onto these)."""
    if low.isascii():
        return any([v in low for v in ("erase", "wipe", "nuke", "destroy", "zap", "shred")])
    return _WHOLE_SYSTEM_VERB.search(low) is not None


# (safety-tgt9) What an unknown program writes a raw disk with: an image file (`etcher-cli
# img.img --drive /dev/sdb`, `bmaptool copy x.img /dev/sdb`, `qemu-img convert -O raw
# x.qcow2 /dev/sdb`), or an option or `key=` operand whose name erases (`dc3dd
# wipe=/dev/sdb`, `tool zero=/dev/sda`).
_IMAGE_OPERAND = re.compile(
    r"(?i)\.(?:img|iso|raw|bin|qcow2?|vmdk|vhdx?|vdi|dmg|wic|sdcard|hdd|dd|e01|xz|gz|bz2|zst|zip"
    r"|lz4|bmap)\Z"
)
_ERASE_KEY = re.compile(
    r"(?i)\A-{0,2}(?:wipe|erase|shred|zero|zap|nuke|destroy|scrub)[\w-]*=(.+)\Z"
)


@attrs.frozen(slots=True)
class _DiskWrite:
    word: Word
    what: str


def _image_onto_disk(cmd: Cmd) -> _DiskWrite | None:
    """A raw disk an unknown program writes: named after an image operand, or as the value
    of an erasing `key=` operand. None when neither (`foo /dev/sda` alone stays unknown)."""
    image_seen = False
    plain = 0
    prev = ""
    # Which way the data goes: an image then a disk as plain operands is a write only when a
    # copy/flash verb says so (`bmaptool copy x.img /dev/sdb`, `rpi-imager`); `pv x.img
    # /dev/sdb` and `vbindiff x.img /dev/sdb` read both. A disk given to a destination option
    # (`--drive /dev/sdb`) says it by itself.
    verb = _IMAGE_WRITER.search(cmd.name) is not None
    for w in cmd.args:
        t = w.text
        if w.dynamic:
            prev = t
            continue
        m = _ERASE_KEY.match(t)
        if m is not None and is_device(m.group(1)):
            return _DiskWrite(w, f"over the raw disk {m.group(1)} ({t})")
        if not t.startswith("-"):
            if plain < 3 and t.lower() in shape.READ_SUBCOMMANDS:
                return None  # `imgtool info x.img /dev/sdb`, `foo verify …`: reads
            if plain < 3 and t.lower() in _IMAGE_WRITE_WORDS:
                verb = True
            plain += 1
        if t.startswith("-") and "=" in t:
            key, value = t.split("=", 1)
            dest = _DISK_DEST_OPTION.match(key) is not None
            named = dest
        else:
            value = t
            # a value of an option that is not a destination (`qemu -hda /dev/sdb`) is not
            # where the image goes
            named = prev.startswith("-") and _DISK_DEST_OPTION.match(prev) is not None
            dest = (not prev.startswith("-") and verb) or named
        if image_seen and dest and is_device(value):
            return _DiskWrite(w, f"an image over the raw disk {value}")
        if _IMAGE_OPERAND.search(value) and not is_device(value):
            if named:
                return None  # `--output backup.img /dev/sda1`: the image is written, the disk read
            if not t.startswith("-"):
                image_seen = True
        prev = t
    return None


_IMAGE_WRITE_WORDS = frozenset(
    names("copy cp convert write flash burn restore clone dd put install image")
)
# A program whose name says it writes images (`rpi-imager`, `flashtool`, `usbwriter`).
_IMAGE_WRITER = re.compile(
    r"(?i)(?:\A|[-_.])(?:imag|flash|burn|writ|restor|clon)|(?:flash|writer|imager|burner)"
)
_DISK_DEST_OPTION = re.compile(
    r"(?i)\A(?:--?(?:drive|device|dev|target|dest|destination|output|out|to|disk-path|o|d)|of)\Z"
)


def _by_shape(cmd: Cmd, name: str, only_blocked: bool = False) -> None:
    """An unknown program judged by the shape of its arguments (`shape.py`): a destructive
    verb aimed at the whole system (or at every snapshot/backup it keeps) is blocked, on
    anything else dangerous; a dry run, help or a listing adds nothing to the unknown
    program's moderate. `only_blocked`: a run-time program name, already critical."""
    if not shape.ENABLED or not cmd.args:
        return
    budget.spend(budget.SHAPE_STEPS)  # (the generic rules all run: an unknown program's price)
    texts = [w.text for w in cmd.args]
    reading = shape.read_cmd(cmd, name, texts)
    erase_all = (
        next((w for w in cmd.args if _WHOLE_SYSTEM_OPTION.match(w.text)), None)
        if _names_a_wipe(cmd.argv.joined_low)
        else None
    )
    if erase_all is not None and not (reading is not None and reading.dry):
        # `osinstaller --erase-install`, `tool --wipe-disk`: the option names the whole
        # system (its disk, its installation) as what is erased
        who = f"`{name}` is not known here" if name else "the program is only known at run time"
        cmd.add(B, "shape-wipe", f"{who}, and an option erases the whole system", erase_all)
        return
    low = cmd.argv.joined_low
    if ("/dev/" in low or "\\\\.\\" in low or "//./" in low) and not shape.dry_run(texts):
        disk = _image_onto_disk(cmd)
        if disk is not None:
            who = f"`{name}` is not known here" if name else "the program is only known at run time"
            cmd.add(B, "disk-write", f"{who}, and it is told to write {disk.what}", disk.word)
            return
    if reading is None or reading.dry:
        return
    why = shape.verb_reason(name, reading)
    if _shape_wipe(cmd, list(reading.targets), reading.verb, why):
        return

    if reading.verb in shape.FORMAT_VERBS:
        return  # `foo format src/`: a code formatter, not a disk
    where = cmd.args[reading.at] if reading.at >= 0 else None
    if reading.package or reading.weak:
        # `xbps-remove -R foo`: removing a package is the unknown program's moderate;
        # `purgecss --css a.css --output build/`: a verb inside a name, no target of its own
        return
    if (
        reading.source == "subcommand"
        and reading.at == 1
        and cmd.args[0].text.lower() in shape.POOL_NOUNS
        and reading.verb in shape.STRONG_VERBS
    ):
        cmd.add(
            B,
            "shape-wipe",
            f"{why}; aimed at a whole storage pool (every volume in it), it is treated as a wipe",
            cmd.args[reading.at],
        )
        return
    noun = shape.all_backups(name, texts, reading)
    if noun is not None:
        cmd.add(
            B,
            "shape-backups",
            f"{why}, aimed at every {noun} it keeps: the copies to recover from are lost",
            where,
        )
        return
    if not only_blocked:
        cmd.add(D, "shape-delete", f"{why}: it destroys what it names", where)


def _escalate(cmd: Cmd) -> None:
    """A volume manager we model found something destructive (dangerous): aimed at the
    system's volumes (the root/home volume, the system's volume group or pool, the root
    subvolume) it is blocked. Other modelled programs keep their own judgement: their
    targets are not always paths (`etcdctl del / --prefix` names a key space)."""
    name = cmd.name
    args = cmd.args
    ops = [i for i, w in enumerate(args) if not w.text.startswith("-")]
    texts = [w.text for w in args]
    found: tuple[int, shape.Shape] | None = None
    if name in ("lvremove", "vgremove"):
        for i in ops:
            if (i > 0 and texts[i - 1] in _LVM_VALUE_OPTIONS) or "=" in texts[i]:
                continue  # `--select 'lv_name=~^tmp'`: a selection, not a volume group
            s = shape.lvm_shape(texts[i], whole_vg=True)
            if s.system:
                found = (i, s)
                break
    elif name == "zfs":
        if ops and texts[ops[0]] == "destroy":
            recursive = cmd.short("rR")
            for i in ops[1:]:
                s = shape.zfs_shape(texts[i], recursive)
                if s.system:
                    found = (i, s)
                    break
    elif name == "btrfs":
        words = [texts[i] for i in ops]
        if words[:2] in (["subvolume", "delete"], ["subvol", "delete"], ["sub", "del"]):
            for i in ops[2:]:
                s = shape.path_shape(texts[i], cmd.scope.cwds, False)
                last = texts[i].rstrip("/").rsplit("/", 1)[-1]
                if not s.system and last in _BTRFS_SYSTEM_SUBVOLS and "/" in texts[i]:
                    # Fedora's `root`/`home`, Ubuntu's `@`/`@home`, Debian's `@rootfs`.
                    s = shape.Shape(True, f"the system subvolume {texts[i]}")
                if not s.system and args[i].glob and "snapshot" in texts[i].lower():
                    # `/.snapshots/*/snapshot`: every snapshot (the backups), not one.
                    s = shape.Shape(True, f"every snapshot matched by {texts[i]} (the backups)")
                if s.system:
                    found = (i, s)
                    break
    elif name not in _KEY_SPACE_CLIS and any(
        f.rule == "cloud-delete" and f.level == D for f in cmd.scope.findings[-4:]
    ):
        # (safety-f8) a known CLI's delete verb (`rclone purge ~`, `rclone delete /`,
        # `s3cmd del --recursive ~`) aimed at a local home, root or system folder is judged
        # as the generic reading judges an unknown program's: blocked. Key-value stores
        # (`etcdctl del / --prefix`) name a key space, not a folder.
        reading = shape.read_command(name, texts, cmd.scope.family)
        if reading is not None and not reading.dry:
            for i in reading.targets:
                if bare_disk(texts[i]) and not _bare_names_disk(cmd, i, reading.verb):
                    continue  # `hcloud volume delete sdb`: a volume named so
                s = shape.path_shape(texts[i], cmd.scope.cwds, cmd.scope.family != "bash")
                if s.system:
                    found = (i, s)
                    break
    if found is None or args[found[0]].dynamic:
        return
    i, s = found
    cmd.add(
        B,
        "shape-wipe",
        f"{name} deletes {s.what}: the system cannot survive it",
        args[i],
    )


# CLIs whose `del /` names a key space, not a folder (see `_escalate`).
_KEY_SPACE_CLIS = frozenset(names("etcdctl consul vault zkcli zkCli.sh redis-cli"))
_LVM_VALUE_OPTIONS = frozenset(
    names(
        """
        -S --select --config --devices --devicesfile -A --autobackup --commandprofile
        --profile --reportformat --lockopt --driverloaded --nolocking --journal
        """
    )
)
_BTRFS_SYSTEM_SUBVOLS = frozenset(
    names("root home rootfs @ @home @root @rootfs @var @usr @boot @log")
)


# Volume managers' own dry runs: LVM's `-t/--test`, `zfs destroy -n`, `zpool create -n`.
_LVM_TOOLS = frozenset(
    names(
        """
        lvremove vgremove pvremove lvreduce vgreduce lvcreate vgcreate pvcreate lvextend
        lvresize lvrename vgrename vgchange lvchange pvchange pvresize pvmove vgmerge vgsplit
        vgextend lvconvert vgimport vgexport vgcfgrestore
        """
    )
)


# Subcommands whose `-n` is documented as a dry run (zfs-destroy(8), zpool-create(8) …).
_N_IS_DRY_RUN = frozenset(
    [("zfs", "destroy"), ("zfs", "rollback"), ("zfs", "promote")]
    + [("zpool", s) for s in ("create", "add", "split", "remove")]
)


_VOLUME_TOOLS = _LVM_TOOLS | {"zfs", "zpool", "btrfs"}


def _volume_dry_run(cmd: Cmd) -> bool:
    """A volume manager asked only to say what it would do: safe (a program we model;
    moderate from session 7 to 12, safe by the session-13 convention)."""
    if not shape.ENABLED:
        return False
    name = cmd.name
    if name not in _VOLUME_TOOLS:
        return False  # (the name first: the tests below are all about these programs)
    dry = False
    sub = cmd.args[0].text if cmd.args else ""
    if name in _LVM_TOOLS:
        dry = cmd.short("t") or cmd.long("--test")
    elif (name, sub) in _N_IS_DRY_RUN:
        dry = cmd.short("n")
    if not dry and name in _VOLUME_TOOLS:
        dry = any(shape.is_dry_marker(w.text) for w in cmd.args if not w.dynamic)
    # (no finding: a dry run of a volume manager we model is safe, the session-13
    # convention; it was moderate before)
    return dry


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error:
        return re.compile(re.escape(pattern))


def _trusted(line: str, prefix: str) -> bool:
    prefix = " ".join(prefix.split())
    return bool(prefix) and (line == prefix or line.startswith(prefix + " "))


_FILE_READERS = frozenset(names("cat type get-content more"))
# Programs that can open sockets through special file names (gawk's /inet/…).
_SOCKET_CAPABLE = frozenset(names("gawk awk busybox"))
# Configuration and orchestration tools whose arguments can declare a path removed.
_DECLARATIVE_TOOLS = frozenset(
    names(
        """ansible ansible-console salt salt-call salt-ssh salt-run chef-apply chef-client
        chef-solo knife pyinfra mgmt cdist bolt puppet"""
    )
)


_BACKUP_DELETES = frozenset(
    {
        "backup-delete",
        "cloud-delete",
        "zfs-destroy",
        "shape-delete",
        "delete",
        "snapshot-delete",
        "volume-delete",
        "container-delete",
        "kube-delete",
        "vm-delete",
        "vm-destroy",  # `virsh snapshot-delete`, `qm delsnapshot` fed every snapshot (bk9)
        "cli-delete",
        "disk-destroy",  # `btrfs subvolume delete` fed every snapshot
        "http-delete",  # `curl -X DELETE …/_snapshot/repo/*`
    }
)


def _every_backup(cmd: Cmd, mark: int) -> None:
    """A delete of backups or snapshots (any tool: its handler said delete) whose selector
    is every copy kept (safety-m8): blocked, like `vssadmin delete shadows /all`."""
    found = cmd.scope.findings[mark:]
    if not found and not shape.backup_tool(cmd.name):
        return  # (what the test below says of a command with no finding, without its scans)
    if any(f.level >= B for f in found):
        return
    deletes = any(f.rule in _BACKUP_DELETES and f.level == D for f in found)
    if not deletes and (any(f.level >= D for f in found) or not shape.backup_tool(cmd.name)):
        # (a backup tool nobody models, `rustic forget`, has no delete finding of its own;
        # anything else must have been judged a delete: `echo vssadmin delete …` prints)
        return
    args = [w.text for w in cmd.args]
    fed = [p.text for p in cmd.stdin.paths if shape.every_selector(p.text)]
    if fed and cmd.scope.family == "powershell" and "-" in cmd.name:
        # `Get-AzSnapshot -ResourceGroupName rg | Remove-AzSnapshot`: the cmdlet's name holds
        # its verb and noun, the pipe every item the getter listed (bk9)
        args = [cmd.name.split("-", 1)[0], cmd.name, *args, *fed]
    why = shape.backup_selects_all(cmd.name, args)
    if why is not None:
        cmd.add(B, "delete-backups", f"{cmd.name} deletes {why}: nothing is left to restore")


def _reads_written(cmd: Cmd) -> None:
    """`cat x.sh | sh`, `type w.txt | cmd`, `Get-Content w.ps1 | powershell -` after this
    text wrote the file: it prints what was written (a download stays unseen)."""
    operands = [
        w
        for w in cmd.args
        if not w.text.startswith("-") and not (cmd.scope.family != "bash" and w.text[:1] == "/")
    ]
    if len(operands) != 1 or re.search(r"[%$!`*?]", operands[0].text.rsplit("\\", 1)[-1]):
        return
    listing = wrappers.listed_file(cmd.scope, operands[0].text)
    if listing is not None:
        # `cat /tmp/all | xargs rm` after `find / > /tmp/all`: the listing, read back
        cmd.info.paths, cmd.info.names_only = listing.paths, listing.names_only
        return
    text = wrappers.written_text(cmd.scope, operands[0].text)
    if text is not None:
        cmd.info.output = text
    elif wrappers.unseen_reason(cmd.scope, operands[0].text) is not None:
        cmd.info.network_fetch = True  # what was downloaded (or decoded at run time)


def _greps_written(cmd: Cmd) -> None:
    """(u21) `grep -v '^#' .env` of a file this text wrote: the lines it prints are known
    (`export $(grep -v '^#' .env | xargs)` sets what the file says)."""
    args = [w.text for w in cmd.args]
    if any(w.dynamic for w in cmd.args) or len(args) > 4:
        return
    text = wrappers.written_text(cmd.scope, args[-1])
    if text is not None and not args[-1].startswith("-"):
        cmd.info.output = _filter_output("grep", args[:-1], text)


_HIDDEN_TEMP_PROGRAM = re.compile(r"\A(?:/dev/shm|/run/shm)/")
_SYSTEM_BIN = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/")


def _downloaded_namesake(cmd: Cmd, head: Word) -> None:
    """`wget URL -O /tmp/sh4 && /tmp/sh4`, `cd /tmp && wget URL/python && ./python`: a
    file this block just downloaded, run by its path, is that download even when its name
    is a program we know (sh4 reads as sh, python as the interpreter): remote code. The
    system's own program folders are not where the block's download went."""
    if head.text.startswith(_SYSTEM_BIN):
        return
    base = head.text.replace("\\", "/").rsplit("/", 1)[-1]
    if base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", head)


def _local_script(cmd: Cmd, head: Word) -> None:
    base = head.text.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    if _HIDDEN_TEMP_PROGRAM.match(head.text):
        # `/dev/shm/.x`: a program run from shared memory (where droppers put what they
        # run, nothing is left on disk): opaque execution (safety-m8)
        cmd.add(C, "opaque-exec", f"runs {head.text}, a program kept in shared memory", head)
    elif base in cmd.scope.downloaded:
        cmd.add(C, "download-exec", f"runs {base}, which was just downloaded", head)
    elif re.match(r"\\\\[^\\/]+[\\/]|//[^/]+/", head.text) and cmd.scope.family != "bash":
        # `\\203.0.113.9\s\a.ps1`, `. \\host\share\run.ps1`: code from another
        # machine's share, nobody has read it here (the LOLBAS remote-payload shape).
        cmd.add(C, "remote-code", f"runs {head.text} from a network share", head)
    else:
        cmd.add(M, "local-script", f"runs the local program {head.text}", head)
        wrappers.written_script(cmd, base, head)
        if base == "configure":
            configure_operands(cmd, cmd.args)


# --- stdin transformations used to see through `echo … | base64 -d | sh` ----------------


# Decompressors: name -> (format, whether it decompresses without `-d`).
_DECOMPRESSORS = {
    "gzip": ("gz", False),
    "gunzip": ("gz", True),
    "zcat": ("gz", True),
    "gzcat": ("gz", True),
    "pigz": ("gz", False),
    "unpigz": ("gz", True),
    "xz": ("xz", False),
    "unxz": ("xz", True),
    "xzcat": ("xz", True),
    "lzma": ("xz", False),
    "unlzma": ("xz", True),
    "lzcat": ("xz", True),
    "bzip2": ("bz2", False),
    "bunzip2": ("bz2", True),
    "bzcat": ("bz2", True),
    "zstd": ("zst", False),
    "unzstd": ("zst", True),
    "zstdcat": ("zst", True),
}
_INFLATED_MAX = 64 * 1024  # a decompression bomb yields no more than this much text


def decompresses(info: Info) -> bool:
    """`gunzip`, `gzip -d`, `xz -dc`, `zcat`, `openssl enc -d`: the command prints text
    decoded at run time (what it prints is unseen unless its input is known)."""
    entry = _DECOMPRESSORS.get(info.name)
    if entry is not None:
        return entry[1] or any(
            a in ("-d", "--decompress", "--uncompress") or re.fullmatch(r"-[a-zA-Z]*d\w*", a)
            for a in info.argv
        )
    return info.name == "openssl" and "-d" in info.argv


def _as_bytes_text(raw: bytes) -> str:
    """Decoded bytes as text: UTF-8 when they are, else one character per byte (so that a
    decompressor further down the pipeline gets the bytes back)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _inflate(fmt: str, text: str) -> str | None:
    """Decompress known text (bytes carried one character each); None if it is not that."""
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return None
    budget.spend(len(data) // 8)
    try:
        if fmt == "gz":
            out = zlib.decompressobj(47).decompress(data, _INFLATED_MAX)
        elif fmt == "xz":
            out = lzma.LZMADecompressor().decompress(data, _INFLATED_MAX)
        elif fmt == "bz2":
            out = bz2.BZ2Decompressor().decompress(data, _INFLATED_MAX)
        else:
            return None  # zstd: no decoder in the standard library (unseen)
    except (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError):
        return None
    budget.spend(len(out) // 8)
    return out.decode("utf-8", "replace")


def transform_output(info: Info, stdin: Stdin) -> Stdin | None:
    """Static stdout of a decoder given static stdin (base64 -d, xxd -r -p, rev, gunzip)."""
    if stdin.kind != STDIN_STATIC:
        return None
    text = stdin.text
    try:
        if info.name in ("base64", "base32") and info.decodes:
            raw = (base64.b64decode if info.name == "base64" else base64.b32decode)(
                text.strip() + "=" * (-len(text.strip()) % 4 if info.name == "base64" else 0)
            )
            return Stdin(STDIN_STATIC, _as_bytes_text(raw), -1, decoded=True)
        if info.name == "xxd" and info.decodes:
            raw = binascii.unhexlify(re.sub(r"\s", "", text))
            return Stdin(STDIN_STATIC, _as_bytes_text(raw), -1, decoded=True)
    except (binascii.Error, ValueError):
        return None
    if info.name in _DECOMPRESSORS and decompresses(info):
        out = _inflate(_DECOMPRESSORS[info.name][0], text)
        return None if out is None else Stdin(STDIN_STATIC, out, -1, decoded=True)
    if info.name == "rev":
        return Stdin(STDIN_STATIC, "\n".join(line[::-1] for line in text.split("\n")), -1, True)
    if info.name == "psub":
        # (n19u) fish's `… | psub` hands its input on as a file: `source (echo … | psub)`
        return Stdin(STDIN_STATIC, text, -1, stdin.decoded)
    if (
        info.name == "basenc"
        and info.argv
        and any(
            a in ("-d", "--decode") or re.fullmatch(r"-[a-zA-Z]*d[a-zA-Z]*", a) for a in info.argv
        )
    ):
        raw_text = "".join(text.split())
        try:
            if "--base64" in info.argv or "--base64url" in info.argv:
                pad = raw_text + "=" * (-len(raw_text) % 4)
                raw = (
                    base64.urlsafe_b64decode(pad)
                    if "--base64url" in info.argv
                    else base64.b64decode(pad)
                )
            elif "--base32" in info.argv:
                raw = base64.b32decode(raw_text + "=" * (-len(raw_text) % 8))
            elif "--base32hex" in info.argv:
                raw = base64.b32hexdecode(raw_text + "=" * (-len(raw_text) % 8))
            elif "--base16" in info.argv:
                raw = base64.b16decode(raw_text.upper())
            else:
                return None
        except (binascii.Error, ValueError):
            return None
        return Stdin(STDIN_STATIC, raw.decode("utf-8", "replace"), -1, decoded=True)
    if info.name == "openssl" and info.argv and _openssl_decodes(info.argv):
        try:
            raw = base64.b64decode("".join(text.split()) + "=" * (-len("".join(text.split())) % 4))
        except (binascii.Error, ValueError):
            return None
        return Stdin(STDIN_STATIC, raw.decode("utf-8", "replace"), -1, decoded=True)
    if info.name == "tr" and info.argv:
        out = tr_output(list(info.argv), text)
        if out is not None:
            return Stdin(STDIN_STATIC, out, -1, decoded=out != text)
    if info.name in ("sed", "gsed") and info.argv:
        out = _sed_output(list(info.argv), text)
        if out is not None:
            return Stdin(STDIN_STATIC, out, -1, decoded=out != text)
    if (
        info.name in ("head", "tail", "awk", "gawk", "mawk", "grep", "cut")
        and info.argv is not None
    ):
        out = _filter_output(info.name, list(info.argv), text)
        if out is not None:
            return Stdin(STDIN_STATIC, out, -1, decoded=out != text)
    if info.name in ("cat", "tee", "sort-static"):
        return stdin
    return None


_FILTERS = frozenset(
    names(
        "tr sed gsed openssl head tail awk gawk mawk nawk grep egrep fgrep rg basenc cut jq gojq"
        " jaq yq"
    )
    + tuple(_DECOMPRESSORS)
)


# Interpreters whose inline code may be nothing but printing a string literal.
_PRINTERS = frozenset(
    names(
        """python python3 python2 perl ruby node nodejs awk gawk mawk php jq yq gojq jaq deno bun
        lua luajit tclsh jimsh rscript julia raku perl6 elixir pypy pypy3 nawk busybox"""
    )
)
# (safety-m8: every language's print call; perl/ruby's bundled `-le`, `-we`, `-E`)
_PRINT_CODE = re.compile(
    r"""\s*(?:BEGIN\s*\{\s*)?(?:print|puts|console\.log|echo|say|printf|println|io\.write"""
    r"""|IO\.puts|cat|writeln|put|print_endline|print_string|Deno\.stdout\.write)\s*\(?\s*"""
    r"""(?P<q>['"])(?P<s>(?:(?!(?P=q))[^\\]|\\.)*)(?P=q)\s*\)?\s*;?\s*\}?\s*;?\s*"""
)


@lru_cache(maxsize=4096)
def _unversioned(name: str) -> str:
    """`python3.12` -> `python`: the name lower-cased without a trailing version."""
    return re.sub(r"[\d.]+$", "", name.lower())


def _printed_text(cmd: Cmd) -> str | None:
    """`python3 -c 'print("rm -rf /")' | sh`: inline code that only prints a string
    literal prints known text (what a shell downstream then runs)."""
    base = re.sub(r"[\d.]+$", "", cmd.name)
    flag = {"python": "-c", "pypy": "-c", "php": "-r", "tclsh": "", "jimsh": ""}.get(base, "-e")
    args = cmd.args
    code: Word | None = None
    if base == "busybox" and args and args[0].text in ("awk", "nawk"):
        args = args[1:]
    if cmd.name in ("jq", "yq", "gojq", "jaq"):
        # `jq -rn '"rm -rf /"'`: a filter that is one string literal prints that string.
        ops = [w for w in args if not w.text.startswith("-")]
        if len(ops) != 1 or ops[0].dynamic:
            return None
        lit = re.fullmatch(r'\s*"((?:[^"\\]|\\.)*)"\s*', ops[0].text)
        if lit is None:
            return None
        return lit.group(1).replace('\\"', '"').replace("\\n", "\n") + "\n"
    if cmd.name in ("deno", "bun") and args and args[0].text == "eval":
        code = args[1] if len(args) > 1 else None
    elif cmd.name in ("awk", "gawk", "mawk"):
        code = args[0] if len(args) == 1 else None
    elif base in ("tclsh", "jimsh"):
        return None  # (a script file, not inline code)
    else:
        for i, w in enumerate(args[:-1]):
            if w.text == flag or (
                base in ("perl", "ruby", "raku", "perl6")
                and re.fullmatch(r"-[a-zA-Z]*[eE]", w.text)
                and not re.search(r"[npi]", w.text)  # -n/-p/-i loop over input: not a print
            ):
                code = args[i + 1]
                break
    if code is None or code.dynamic:
        return None
    m = _PRINT_CODE.fullmatch(code.text)
    if m is None:
        return None
    text = m.group("s")
    if "\\" in text:
        text = re.sub(r"\\(.)", lambda e: {"n": "\n", "t": "\t"}.get(e.group(1), e.group(1)), text)
    return text + ("" if cmd.name.startswith("php") or "printf" in code.text else "\n")


def _filter_output(name: str, args: list[str], text: str) -> str | None:
    """What a plain text filter prints for known input: `head -1`, `tail -n 2`, awk's
    `{print}`/`{print $2}`, `grep WORD` (a literal word). None when it is anything more."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines = lines[:-1]
    if name in ("head", "tail"):
        n = 10
        if len(args) == 1 and re.fullmatch(r"-\d+", args[0]):
            n = int(args[0][1:])
        elif len(args) == 2 and args[0] == "-n" and args[1].isdigit():
            n = int(args[1])
        elif len(args) == 1 and re.fullmatch(r"-n\d+|--lines=\d+", args[0]):
            n = int(re.sub(r"\D", "", args[0]))
        elif args:
            return None
        picked = lines[:n] if name == "head" else lines[-n:] if n else []
        return "\n".join(picked)
    if name in ("awk", "gawk", "mawk"):
        if len(args) != 1:
            return None
        prog = re.sub(r"\s+", "", args[0])
        if prog in ("{print}", "{print$0}", "1", "{print;}", "{print$0;}"):
            return "\n".join(lines)
        field = re.fullmatch(r"\{print\$(\d+);?\}", prog)
        if field is None:
            return None
        k = int(field.group(1))
        return "\n".join((ln.split()[k - 1] if len(ln.split()) >= k else "") for ln in lines)
    if name == "cut":
        return _cut_output(args, lines)
    if name == "grep":
        flags = [a for a in args if a.startswith("-")]
        pats = [a for a in args if not a.startswith("-")]
        if len(pats) != 1 or any(f not in ("-F", "-i", "-v") for f in flags):
            return None
        pat = pats[0]
        # (u21) `^WORD`: a literal at the line's start (`grep -v '^#' .env`)
        anchored = "-F" not in flags and pat[:1] == "^"
        if anchored:
            pat = pat[1:]
        if "-F" not in flags and re.search(r"[\\.*\[\]^$+?(){}|]", pat):
            return None
        ci, inv = "-i" in flags, "-v" in flags

        def hit(line: str) -> bool:
            if anchored:
                found = line.lower().startswith(pat.lower()) if ci else line.startswith(pat)
            else:
                found = pat.lower() in line.lower() if ci else pat in line
            return found != inv

        return "\n".join(ln for ln in lines if hit(ln))
    return None


_DECODERS = frozenset(names("base64 base32 xxd rev tr cat openssl basenc"))


def _cut_output(args: list[str], lines: list[str]) -> str | None:
    """`cut -c2-`, `cut -b 3-9`, `cut -d: -f2` of known text (safety-p5: literal text cut
    into shape and piped into a shell)."""
    joined = " ".join(args)
    m = re.fullmatch(r"-([cb])\s*(\d*)-(\d*)", joined)
    if m is not None:
        lo = int(m.group(2) or 1) - 1
        hi = int(m.group(3)) if m.group(3) else None
        return "\n".join(ln[lo:hi] for ln in lines)
    m = re.fullmatch(r"-d\s*(\S)\s+-f\s*(\d+)(-?)|-f\s*(\d+)(-?)\s+-d\s*(\S)", joined)
    if m is not None:
        sep = m.group(1) or m.group(6)
        k = int(m.group(2) or m.group(4)) - 1
        rest = bool(m.group(3) or m.group(5))
        out = []
        for ln in lines:
            parts = ln.split(sep)
            out.append(sep.join(parts[k:]) if rest else (parts[k] if k < len(parts) else ""))
        return "\n".join(out)
    return None


def _openssl_decodes(argv: tuple[str, ...]) -> bool:
    """`openssl base64 -d`, `openssl enc -d -base64` / `-a`: base64 decoding."""
    b64 = "base64" in argv or "-base64" in argv or "-a" in argv
    return b64 and "-d" in argv and not any(a.startswith("-in") or a == "-k" for a in argv)


def _sed_output(args: list[str], text: str) -> str | None:
    """`sed 's/a/b/g'` (one plain substitution, literal text) applied to static text."""
    if args and args[0] == "-e":
        args = args[1:]
    if len(args) != 1:
        return None
    m = re.fullmatch(r"s(.)((?:(?!\1).)*)\1((?:(?!\1).)*)\1(g?)", args[0])
    if m is None or any(c in m.group(3) for c in "\\&") or any(c in m.group(2) for c in "\\[]"):
        return None
    # A basic regular expression of literals, `^`, `$`, `.` and `*` (as sed reads it).
    pattern = "".join(
        "^"
        if c == "^" and i == 0
        else "$"
        if c == "$" and i == len(m.group(2)) - 1
        else "."
        if c == "."
        else "*"
        if c == "*" and i > 0
        else re.escape(c)
        for i, c in enumerate(m.group(2))
    )
    try:
        rx = re.compile(pattern)
    except re.error:
        return None
    count = 0 if m.group(4) else 1
    return "\n".join(rx.sub(lambda _: m.group(3), line, count=count) for line in text.split("\n"))


_PASS_THROUGH = frozenset(
    names(
        """
        tee cat sort head tail tr dos2unix sed grep uniq cut awk tac iconv fold col tee-object
        out-string select-object
        """
    )
)


def next_stdin(info: Info, prev: Stdin) -> Stdin:
    """What the next stage of a pipeline reads, given what this stage was."""
    if info.input is not None and info.input.paths and not prev.paths:
        prev = info.input  # (f19) a filter reading a listing's file (`sort /tmp/all`)
    if info.network_fetch:
        return Stdin(STDIN_NETWORK)
    if info.output is not None:
        return Stdin(STDIN_STATIC, info.output, -1)
    transformed = transform_output(info, info.input or prev)
    if transformed is not None:
        return transformed
    if info.name in _PASS_THROUGH and prev.kind == STDIN_NETWORK:
        return prev
    if info.reads_secret or (prev.secret and info.name in _PASS_THROUGH):
        # (a listing that names a secret still lists its paths: `Get-ChildItem ~ -Exclude
        # .ssh | Remove-Item -Recurse`, `ls -A ~ | grep -v .ssh | xargs rm -rf` delete every
        # other entry of home; b12)
        plain = _listed(info, prev)
        return Stdin(STDIN_OTHER, secret=True, paths=plain.paths, names_only=plain.names_only)
    return _listed(info, prev)


_GREPS = frozenset(names("grep egrep fgrep rg"))
# (f19) Filters that rewrite or pick columns of a package listing's lines (not a count).
_PACKAGE_NAME_FILTERS = frozenset(
    names("awk gawk mawk nawk sed gsed cut tr sort uniq grep egrep rg column")
)


def _inverted(argv: Sequence[str]) -> bool:
    """grep's `-v`/`--invert-match`, alone or in a cluster (`-iv`, `-Ev`)."""
    return any(
        a == "--invert-match" or (a[1:2] != "-" and "v" in a[1:]) for a in argv if a[:1] == "-"
    )


# awk and sed programs that print every line but those matching a pattern (`awk '!/x/'`,
# `awk '$0 !~ /x/ {print}'`, `sed '/x/d'`, `sed -n '/x/!p'`): grep -v's other spellings.
_AWK_INVERTED = re.compile(
    r"\s*(?:!\s*/[^/]*/|\$0\s*!~\s*(?:/[^/]*/|\"[^\"]*\"))\s*(?:\{\s*print(?:\s+\$0)?\s*;?\s*\})?\s*;?\s*"
)
# sed's `s|^|PREFIX|` (any delimiter): every line kept, a prefix put before it.
_SED_PREFIX = re.compile(r"\A\s*s([^\w\s\\])\^\1[^\n;]*\1g?\s*;?\s*\Z")
# awk's `{print "~/" $0}`, `{print h "/" $0}`: every line printed after a prefix.
_AWK_PREFIX = re.compile(
    r"\A\s*\{?\s*print\s+(?:(?:\"[^\"]*\"|[A-Za-z_]\w*(?!\w))\s*){1,8}\$0\s*;?\s*\}?\s*\Z"
)
_SED_DELETES = re.compile(r"\s*/[^/]*/I?\s*d\s*;?\s*")
_SED_PRINTS_OTHERS = re.compile(r"\s*/[^/]*/I?\s*!\s*p\s*;?\s*")
_AWKS = frozenset(names("awk gawk mawk nawk"))


def _drops_named(name: str, argv: Sequence[str]) -> bool:
    """A filter that passes every line of its input but those matching a pattern: grep -v
    (and rg's), an awk `!/x/` program, a sed `/x/d` script."""
    if name in _GREPS:
        return _inverted(argv)
    if name in _AWKS:
        progs = [a for a in argv if not a.startswith("-")][:1]
        return bool(progs) and _AWK_INVERTED.fullmatch(progs[0]) is not None
    if name in ("sed", "gsed"):
        quiet = any(
            a in ("-n", "--quiet", "--silent") or re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", a)
            for a in argv
        )
        scripts = [a for a in argv if not a.startswith("-")][:1]
        if any(a in ("-e", "--expression") for a in argv):
            k = next(i for i, a in enumerate(argv) if a in ("-e", "--expression"))
            scripts = list(argv[k + 1 : k + 2])
        if not scripts:
            return False
        script = scripts[0]
        return (_SED_PRINTS_OTHERS if quiet else _SED_DELETES).fullmatch(script) is not None
    return False


def _broad(paths: tuple[Word, ...]) -> bool:
    """Listed paths that are the root, a home or a system folder (or their entries)."""
    return any(
        not w.dynamic and classify_path(w.text, _NO_CWD).rule in ("rm-root", "rm-home", "rm-system")
        for w in paths[:8]
    )


_NO_CWD: frozenset[str | None] = frozenset([None])


def _listed(info: Info, prev: Stdin) -> Stdin:
    """`next_stdin` past the network, static-text, transform and secret cases: the paths a
    stage passes on."""
    if info.argv and (info.input or prev).paths:
        # `find ~ | awk '{print "rm -rf " $0}' | sh`: command lines made from a listing
        generated = inline.generated_lines(info.name, info.argv, info.input or prev)
        if generated is not None:
            return generated
    if info.paths:
        return Stdin(STDIN_OTHER, paths=info.paths, names_only=info.names_only)
    if (
        prev.paths
        and prev.paths[0].text == packages.EVERY_PACKAGE
        and info.name in _PACKAGE_NAME_FILTERS
        and not (info.name in _GREPS and not _inverted(info.argv))
    ):
        # (f19) `dpkg -l | awk '/^ii/{print $2}'`, `pip freeze | cut -d= -f1`, `… | sed
        # 's/==.*//'`: a column or a rewrite of every package line is still every package
        return Stdin(STDIN_OTHER, paths=prev.paths)
    if prev.paths and info.name in ("awk", "gawk", "mawk", "nawk") and _awk_columns(info.argv):
        # `lsblk | awk 'NR>1{print $1}'`, `ls / | awk '{print}'`: a column of every line
        # is still every listed item (a pattern or comparison would narrow it).
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if (
        prev.paths
        and info.name in ("jq", "gojq", "jaq", "yq")
        and info.argv
        and not any(re.search(r"select|first|last|limit|\[-?\d|until|while", a) for a in info.argv)
    ):
        # `restic snapshots --json | jq -r '.[].id'`: every item's field, nothing narrowed (m8)
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if prev.paths and _drops_named(info.name, info.argv) and _broad(prev.paths):
        # `ls -A ~ | grep -v .ssh | xargs rm -rf`: an inverted match over a listing of home,
        # the root or a system folder drops a few named entries and passes every other one
        # (as find's `! -name x` below them); in the working directory it stays a clean-up
        # (`ls | grep -v keep | xargs rm -rf`, as the corpora label it) (b12)
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if (
        prev.paths
        and (info.name in _COUNTED or info.name in _LINE_PICKERS)
        and _takes_some(info.name, info.argv, prev.paths)
    ):
        # `Get-S3Object -BucketName backups | Select-Object -First 1 | Remove-S3Object`,
        # `restic snapshots --json | jq … | tail -n 3`: a count of every backup is a subset
        # (retention pruning, one object), no longer every backup (r15)
        return Stdin(STDIN_OTHER)
    if (
        prev.paths
        and info.name in _LINE_PICKERS
        and info.argv
        and _FIELD_PRINT.fullmatch(info.argv[-1].strip("'\""))
        and any(w.text in _EVERY_ITEM for w in prev.paths)
    ):
        # (n17u) `zfs list -t snap | awk '{print $1}'`, `security find-certificate -a -Z |
        # awk '/SHA-1/{print $NF}'`: a column of every item listed is still every item
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if prev.paths and info.name in _PATHS_THROUGH:
        # `du -a / | cut -f2 | sort | xargs rm -rf`: reordering or cutting columns keeps
        # every listed path.
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if (
        prev.paths
        and info.name in ("sed", "gsed", "awk", "gawk", "mawk", "nawk")
        and any(
            (_SED_PREFIX if info.name[-3:] == "sed" else _AWK_PREFIX).fullmatch(a)
            for a in info.argv[-2:]
        )
    ):
        # `ls -A ~ | grep -v keep | sed "s|^|$HOME/|" | xargs rm -rf`: each listed entry
        # re-prefixed with its folder is still that entry (n13u, round 13)
        return Stdin(STDIN_OTHER, paths=prev.paths, names_only=prev.names_only)
    if info.name in ("cat", "get-content"):
        return Stdin(STDIN_FILE)
    return Stdin(STDIN_OTHER)


_VERSION_SUFFIX = re.compile(r"^([a-z][a-z_+-]*?[a-z+])(-?[0-9]+(?:\.[0-9]+)*[a-z]?)$")
# Other names the same program goes by: JIT builds, distribution renames, GNU tools
# installed with a `g` prefix (macOS Homebrew).
_SAME_PROGRAM = {
    "luajit": "lua",
    "pypy": "python",
    "pypy3": "python3",
    "nodejs": "node",
    # TypeScript runners take node's `-e`/`-p` inline code
    "tsx": "node",
    "ts-node": "node",
    "ts-node-esm": "node",
    "esno": "node",
    "babel-node": "node",
    # (safety-m8) zx's `-e`/`--eval` is node code with `$\`…\`` shell templates; other
    # node runners take node's inline code
    "zx": "node",
    "vite-node": "node",
    "jiti": "node",
    "sucrase-node": "node",
    "localcli": "esxcli",  # ESXi's local twin of esxcli (same namespaces) (safety-m8)
    "rakudo": "perl6",
    "jruby": "ruby",
    "truffleruby": "ruby",
    "mruby": "ruby",
    "gawk": "awk",
}
_GNU_PREFIXED = frozenset(
    names(
        """rm cp mv dd ln find xargs chmod chown chgrp shred truncate sed tar install mkdir
        rmdir touch cat tee env nice timeout stdbuf"""
    )
)


def _variant_of_known(name: str) -> str:
    """`python3.13` is python3, `node22`/`lua5.4`/`perl5.36`/`php8.2`/`ruby3.3` are node,
    lua, perl, php and ruby, `luajit` is lua, `grm`/`gfind` (GNU coreutils on macOS) are
    rm and find: a versioned or renamed build of a program we know is judged as it."""
    same = _SAME_PROGRAM.get(name)
    if same is not None and same in HANDLERS:
        return same
    if name[:1] == "g" and name[1:] in _GNU_PREFIXED and name[1:] in HANDLERS:
        return name[1:]
    if not (name[-1:].isdigit() or name[-2:-1].isdigit()):
        return name  # (a version ends in a digit, or a digit and one letter: `3.13`, `5.4a`)
    m = _VERSION_SUFFIX.match(name)
    if m is None:
        return name
    base, version = m.groups()
    major = re.match(r"-?([0-9]+)", version)
    candidates = [base + major.group(1) if major else base, base]
    if base.endswith("-"):
        candidates.append(base.rstrip("-"))
    for cand in candidates:
        if cand in HANDLERS and (cand in _VERSIONED or cand in SHELLS):
            return cand
    return name


# Programs installed under versioned names (interpreters, shells, compilers).
_VERSIONED = frozenset(
    names(
        """python python2 python3 pypy pypy3 ruby node nodejs lua perl php tclsh wish julia
        deno bun rscript guile racket ghc runghc gcc g++ clang clang++ go java javac pwsh
        osascript groovy scala jshell irb erl elixir swift dotnet"""
    )
)


def _awk_columns(argv: tuple[str, ...]) -> bool:
    """An awk program that only prints columns, at most skipping header lines by number."""
    progs = [a for a in argv if not a.startswith("-")][:1]
    if not progs:
        return False
    prog = re.sub(r"\bN[RF]\s*[<>]=?\s*\d+", "", progs[0])
    return "print" in prog and not re.search(r"[/~]|==|!=|[<>]|\bif\b|match|index", prog)


_PS_RANGE = re.compile(r"\d+\.\.-?\d+")
_COUNTED = frozenset(names("head tail select-object select"))
_COUNT_OPTION = re.compile(
    r"(?i)\A(?:-(?:first|last|index|skip|skiplast)\Z|-n\d*\Z|--lines(?:=|\Z)|-\d+\Z)"
)

# (n14w) Select-Object's count parameters in any unambiguous abbreviation (`select -f 1`)
_SELECT_COUNT = re.compile(
    r"(?i)\A-(?:f(?:i(?:r(?:st?)?)?)?|l(?:a(?:st?)?)?|ind(?:ex?)?|skip|skipl(?:a(?:st?)?)?)\Z"
)


def _takes_some(name: str, argv: tuple[str, ...], paths: tuple[Word, ...]) -> bool:
    """A count-limiting stage (`Select-Object -First 1`, `-SkipLast 7`, `head -n 5`) over
    every backup a getter listed: it keeps a subset (`tail -n +1` keeps them all)."""
    if not any(w.text in _EVERY_ITEM for w in paths):
        return False
    if name in _LINE_PICKERS:
        # (n17u) `sed -n 1p`, `sed 1q`, `sed -n '$p'`, `awk 'NR==1'`: one line picked
        return any(_ONE_LINE_SCRIPT.fullmatch(a.strip("'\"")) for a in argv)
    if any(a.startswith("+") for a in argv):
        return False
    count = _SELECT_COUNT if name in ("select-object", "select") else _COUNT_OPTION
    return any(count.match(a.split(":", 1)[0]) for a in argv)


# (n17u) Every item a lister printed (a snapshot, VM, volume or backup token), and the
# sed/awk scripts that keep one line of it.
_EVERY_ITEM = frozenset(
    (
        shape.EVERY_BACKUP,
        reports.EVERY_SNAPSHOT,
        reports.EVERY_VOLUME,
        reports.EVERY_VM,
        reports.EVERY_CERT,
        reports.EVERY_SYSTEM_CERT,
        packages.EVERY_PACKAGE,
    )
)
_FIELD_PRINT = re.compile(r"(?:/[^/{}]*/\s*)?\{\s*print\s+\$(?:\d+|NF)\s*;?\s*\}")
_LINE_PICKERS = frozenset(names("sed gsed awk gawk mawk nawk"))
_ONE_LINE_SCRIPT = re.compile(
    r"\$?\d*p|\d+\s*q|\d+\s*\{\s*p\s*;\s*q\s*;?\s*\}|NR\s*==\s*\d+(?:\s*\{[^{}]*\})?"
    r"|\{\s*print(?:\s+\$\d+)?\s*;\s*exit\s*;?\s*\}"
)
_PATHS_THROUGH = frozenset(
    # (PowerShell's selection and sorting pass the listed items on, safety-m8; tee copies
    # its input through, f19)
    names("sort cut tac cat tr uniq head tail shuf select-object select sort-object tee-object tee")
)
# (f19) Filters whose file operand may be a listing written earlier in the block.
_LISTING_FILTERS = frozenset(
    names("sort cut tac tr uniq head tail shuf tee grep egrep fgrep rg awk gawk mawk nawk sed")
    + names("gsed jq gojq jaq yq")
)

KNOWN_NAMES: frozenset[str] = frozenset()


def _finish_tables() -> None:
    global KNOWN_NAMES
    KNOWN_NAMES = frozenset(n for n in HANDLERS if re.fullmatch(r"[a-z][a-z0-9_.+-]*", n))


# The knowledge modules register their programs into HANDLERS on import (`handles`
# refuses a program claimed by two modules, so their order does not matter).
_finish_tables()
