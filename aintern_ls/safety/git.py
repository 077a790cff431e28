"""git: which subcommands only read, which discard work or rewrite shared history."""

from __future__ import annotations

import posixpath
import re
import shlex

from aintern_ls.safety.context import (
    Cmd,
)
from aintern_ls.safety.levels import B, C, D, M, RiskLevel, S
from aintern_ls.safety.paths import CWD_WIDE, Target, classify_path
from aintern_ls.safety.registry import WRITTEN_IN, handles, unreadable_program
from aintern_ls.safety.words import Word, names, starts_shell

# --- git --------------------------------------------------------------------------------

_GIT_GLOBAL_WITH_VALUE = frozenset(
    names(
        """
        -C -c --git-dir --work-tree --namespace --exec-path --config-env --super-prefix
        """
    )
)
_GIT_SAFE = frozenset(
    names(
        """
        status log diff show rev-parse rev-list ls-files ls-tree ls-remote cat-file blame
        annotate shortlog describe grep version help whatchanged merge-base name-rev show-ref
        for-each-ref count-objects check-ignore var cherry range-diff diff-tree diff-index
        diff-files show-branch verify-commit verify-tag check-attr fsck check-ref-format
        difftool instaweb
        """
    )
)
_GIT_UNSAFE_FLAGS = re.compile(
    r"^--(output|ext-diff|exec|upload-pack|receive-pack|open-files-in-pager|textconv)"
)


# Settings whose value git runs as a shell command.
_GIT_EXEC_KEYS = re.compile(
    r"^(core\.(pager|editor|sshcommand|fsmonitor|askpass|hookspath|gitproxy)|sequence\.editor"
    r"|diff\.external|diff\.\w+\.(textconv|command)|merge\.\w+\.driver|filter\.\w+\.(clean"
    r"|smudge|process)|credential\.helper|gpg\.(program|\w+\.program)|alias\.[\w.-]+"
    r"|pager\.[\w-]+|uploadpack\.packobjectshook|remote\.\w+\.(uploadpack|receivepack)"
    r"|interactive\.difffilter|web\.browser|browser\.\w+\.cmd|man\.\w+\.cmd"
    r"|(merge|diff)tool\.[\w.-]+\.cmd"
    # (gen10) more settings git runs: the alternate-refs lister, a URL's credential helper,
    # ssh signing's key lister, send-email's helpers, a submodule's `!command` update
    r"|core\.alternaterefscommand|credential\..+\.helper|gpg\.ssh\.defaultkeycommand"
    r"|sendemail\.(smtpserver|tocmd|cccmd|headercmd|sendmailcmd)|submodule\..+\.update)$",
    re.I,
)
_GIT_HARMLESS_KEYS = re.compile(
    r"^(color|user|advice|init|log|format|i18n|column|status|help|safe|core\.quotepath"
    r"|core\.autocrlf|core\.filemode|protocol\.version|http\.sslverify-never)\b",
    re.I,
)


_TEMP_PROGRAM = re.compile(r"^(?:/tmp/|/var/tmp/|/dev/shm/)")
# gpg.program / gpg.<format>.program naming the verifier git uses anyway.
_KNOWN_VERIFIER = re.compile(r"(?:/usr(?:/local)?/bin/|/bin/|/opt/homebrew/bin/)?(?:gpg2?|gpgsm)")


# githooks(5): the names git runs from the hooks folder.
_HOOK_NAMES = frozenset(
    names(
        """
        applypatch-msg pre-applypatch post-applypatch pre-commit pre-merge-commit
        prepare-commit-msg commit-msg post-commit pre-rebase post-checkout post-merge pre-push
        pre-receive update proc-receive post-receive post-update reference-transaction
        push-to-checkout pre-auto-gc post-rewrite sendemail-validate fsmonitor-watchman
        post-index-change
        """
    )
)


def hooks_folder(cmd: Cmd, key: str, value: Word) -> None:
    """(u21) `core.hooksPath` set to a folder this block wrote hooks into (`printf '…rm -rf
    ~' > /tmp/hk/pre-commit; git config core.hooksPath /tmp/hk`, `-c`, `clone --config`):
    the hooks persist and run on later git commands; a readable blocked body is blocked."""
    if key.lower() != "core.hookspath" or value.dynamic or not cmd.scope.written:
        return
    folder = posixpath.normpath(value.text.strip().rstrip("/") or "/")
    for hook in _HOOK_NAMES:
        held = cmd.scope.written.get(hook)
        if held is None or folder not in cmd.scope.env.get(WRITTEN_IN + hook, "").split("\x01"):
            continue
        found = cmd.scope.nested(held[0], "bash", value, -1)
        if max((f.level for f in found), default=S) >= B:
            cmd.scope.include(found)
            cmd.add(B, "persistence", f"git runs the {hook} hook written above: blocked", value)
            return


def _config_value(cmd: Cmd, item: Word) -> bool:
    """`git -c key=value`: judge values git runs as commands; True if the override still
    changes what git does in a way worth a word (moderate)."""
    key, eq, value = item.text.partition("=")
    if not eq:
        return False
    hooks_folder(cmd, key, Word(value, item.start, item.end, item.dynamic))
    if _INCLUDE_KEY.match(key) and value.strip():
        # `git -c include.path=../team.cfg status`: more settings from a file the analyser
        # cannot read; they can name programs git runs (pager, fsmonitor, aliases): opaque.
        cmd.add(C, "config-exec", f"git -c {key} reads settings from {value}", item)
        return False
    if not _GIT_EXEC_KEYS.match(key):
        return not _GIT_HARMLESS_KEYS.match(key)
    if key.lower().startswith(("alias.", "submodule.")) and not value.startswith("!"):
        return False  # an alias of git's own commands, a submodule update mode (`rebase`)
    if key.lower() == "sendemail.smtpserver" and not value.startswith("/"):
        return False  # a host name: only a path is a program send-email runs
    if item.dynamic:
        cmd.add(C, "config-exec", f"git -c {key} runs a command only known at run time", item)
        return False
    code = value.lstrip("!").strip()
    if not code:
        return False
    if key.lower().startswith("gpg.") and _KNOWN_VERIFIER.fullmatch(code):
        # `git -c gpg.program=gpg log --show-signature`: git runs the verifier to check a
        # signature (`gpg --verify …`), as its own gpg would (n14u)
        code = "gpg --verify"
    if " " not in code and _TEMP_PROGRAM.match(code):
        # `diff.external=/tmp/evil`: a program nobody can read here (gen10)
        cmd.add(C, "config-exec", f"git -c {key} runs a program from a temporary place", item)
        return False
    found = cmd.scope.nested(code, "bash", item, -1)
    level = max((f.level for f in found), default=S)
    if level < C and (any(f.rule == "shell" for f in found) or starts_shell(code) is not None):
        # `git -c core.pager='sh 0<&2' log`, `alias.x='!bash -c …'`: git hands out a shell.
        cmd.scope.include(found)
        cmd.add(C, "config-exec", f"git -c {key} starts a shell", item)
    elif level >= D:
        cmd.scope.include(found)
        cmd.add(level, "config-exec", f"git -c {key} runs a {level.label} command", item)
    elif (hidden := unreadable_program(found)) is not None:
        cmd.scope.include(found)
        cmd.add(
            C, "config-exec", f"git -c {key} runs {hidden}, which the analyser cannot read", item
        )
    elif level >= M:
        cmd.scope.include(found)
    return False


# Settings that pull in another configuration file (`include.path`, `includeIf.<cond>.path`).
_INCLUDE_KEY = re.compile(r"^include(?:if\..+)?\.path$", re.I)


# Subcommand options whose value git runs as a shell command.
_GIT_SUB_EXEC = {
    "difftool": ("-x", "--extcmd"),
    "mergetool": ("--tool-cmd",),
    "rebase": ("-x", "--exec"),
    "grep": ("-O", "--open-files-in-pager"),
    "ls-remote": ("--upload-pack",),
    "fetch": ("--upload-pack",),
    "pull": ("--upload-pack",),
    "clone": ("-u", "--upload-pack"),
    "archive": ("--exec",),
    "push": ("--receive-pack", "--exec"),
    "send-email": ("--smtp-server", "--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"),
    "instaweb": ("--httpd", "--browser", "-d", "-b"),
    "filter-branch": (
        "--tree-filter",
        "--index-filter",
        "--msg-filter",
        "--env-filter",
        "--commit-filter",
        "--parent-filter",
        "--tag-name-filter",
    ),
}


def _git_run(cmd: Cmd, code: Word, what: str) -> None:
    """A command line git will run: judged by the analyser (at least moderate)."""
    if code.dynamic:
        cmd.add(C, "config-exec", f"{what} runs a command only known at run time", code)
        return
    found = cmd.scope.nested(code.text, "bash", code, -1)
    level = max((f.level for f in found), default=S)
    cmd.scope.include(found)
    if level >= D:
        cmd.add(level, "config-exec", f"{what} runs a {level.label} command", code)
    else:
        cmd.add(M, "runs-program", f"{what} runs another program", code)


def _subcommand_runs(cmd: Cmd, sub: str, args: list[Word]) -> bool:
    """Subcommands that run commands they are given (`rebase -x`, `bisect run`, `submodule
    foreach`, `filter-branch --tree-filter`, `--upload-pack`, `ext::` URLs, and `git config`
    storing a command for later). True when the whole subcommand was judged here (the
    option forms add their findings and let the subcommand's own rules apply too)."""
    opts = _GIT_SUB_EXEC.get(sub, ())
    for j, w in enumerate(args):
        t = w.text
        for o in opts:
            value: Word | None = None
            if t == o and j + 1 < len(args):
                value = args[j + 1]
            elif t.startswith(o + "=") or (len(o) == 2 and t.startswith(o) and len(t) > 2):
                cut = len(o) + 1 if t.startswith(o + "=") else len(o)
                value = Word(t[cut:], w.start, w.end, w.dynamic, False, w.origin)
            if value is not None:
                _git_run(cmd, value, f"git {sub} {o}")
        if re.match(r"\Aext::", t):
            # ext::CMD: arguments split at spaces; "% " is a space inside one, "%%" a "%".
            parts = re.split(r"(?<!%) ", t[5:].replace("%%", "\x00"))
            line = " ".join(
                shlex.quote(p.replace("% ", " ").replace("\x00", "%")) for p in parts if p
            )
            _git_run(cmd, Word(line, w.start, w.end, w.dynamic), "git's ext:: transport")
            cmd.add(C, "config-exec", "an ext:: URL makes git run a command", w)
    texts = [w.text for w in args]
    if sub == "bisect" and texts[:1] == ["run"] and len(args) > 1:
        cmd.add(M, "git-write", "git bisect run runs a command on each commit")
        cmd.judge(list(args[1:]))
        return True
    if sub == "submodule" and "foreach" in texts:
        k = texts.index("foreach") + 1
        while k < len(args) and args[k].text.startswith("-"):
            k += 1
        if k < len(args):
            # `git submodule foreach git status`: the words after foreach (and its options)
            # are one command line, run in each submodule; a read there is a read (round 10)
            tail = args[k:]
            code = tail[0]
            if len(tail) > 1:
                code = Word(
                    " ".join(shlex.quote(w.text) for w in tail),
                    tail[0].start,
                    tail[-1].end,
                    any(w.dynamic for w in tail),
                )
            if not code.dynamic:
                found = cmd.scope.nested(code.text, "bash", code, -1)
                if not found:
                    return True
            _git_run(cmd, code, "git submodule foreach")
            return True
    if sub == "config":
        ops, user_file = _config_operands(args)
        texts_set = set(texts)
        verb = ops[0].text if ops else ""
        if texts_set & _CONFIG_READS or verb in ("get", "list"):
            return True  # `git config --get-all include.path x`: reads, stores nothing
        if texts_set & _CONFIG_REMOVES or verb in ("unset", "remove-section", "rename-section"):
            # `git config --unset core.pager x`: a setting removed; nothing stored to run
            cmd.add(M, "git-config", "git config removes a setting")
            return True
        if verb == "set":
            ops = ops[1:]  # git 2.46+: `git config set KEY VALUE`
        if len(ops) >= 2 and _DRIVER_KEYS.match(ops[0].text) and not ops[1].dynamic:
            # (f18) remembered: a later `git KEY-NAME`, `git add`, `git diff` runs it
            from aintern_ls.safety.pickups import GIT_SET

            held = cmd.scope.written.get(GIT_SET)
            line = f"{ops[0].text} = {ops[1].text}\n"
            cmd.scope.written[GIT_SET] = ((held[0] if held else "") + line, -1)
        if len(ops) >= 2 and _global_code_setting(cmd, args, ops, user_file):
            return True
        if len(ops) >= 2 and _INCLUDE_KEY.match(ops[0].text) and ops[1].text.strip():
            # `git config --global include.path /tmp/x.cfg`, `includeIf.gitdir:~/w/.path F`:
            # git will read settings from a file the analyser cannot read (n11u).
            cmd.add(
                C,
                "config-exec",
                f"git config {ops[0].text} makes git read settings from {ops[1].text}",
                ops[1],
            )
            return True
        if len(ops) >= 2 and _GIT_EXEC_KEYS.match(ops[0].text):
            key, value = ops[0].text, ops[1]
            hooks_folder(cmd, key, value)
            if key.lower().startswith("alias.") and not value.text.startswith("!"):
                return False
            code = Word(value.text.lstrip("!"), value.start, value.end, value.dynamic)
            inner = cmd.scope.nested(code.text, "bash", code, -1) if not code.dynamic else []
            level = max((f.level for f in inner), default=S)
            hidden = unreadable_program(inner)
            if level >= B:
                # (n20u) a readable blocked command stored for later: blocked (persistence)
                cmd.scope.include(inner)
                cmd.add(B, "persistence", f"git config stores a blocked command in {key}", value)
            elif code.dynamic or level >= D or hidden is not None:
                cmd.add(
                    C,
                    "config-exec",
                    f"git config stores {hidden} in {key}, which git will run later"
                    if hidden is not None and not code.dynamic and level < D
                    else f"git config stores a {level.label if not code.dynamic else 'computed'}"
                    f" command in {key} that git will run later",
                    value,
                )
            else:
                cmd.add(M, "git-config", f"git config sets {key}, a command git runs", value)
            return True
    return False


# (f18) Settings whose command a later git command runs: aliases and attribute drivers.
_DRIVER_KEYS = re.compile(r"^(alias\.[\w.-]+|(filter|diff|merge)\.[^.]+\.\w+)$", re.I)


# Settings that point git at code it runs in every repository of the user or machine.
_GLOBAL_CODE_KEYS = re.compile(
    r"^(core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|init\.templatedir"
    r"|sequence\.editor|credential\.helper|diff\.external|gpg\.program)$",
    re.I,
)
# Ordinary programs (and their options) for the pager/editor/ssh/credential settings.
_PLAIN_PROGRAM = re.compile(
    r"^(less|more|most|cat|bat|delta|diff-so-fancy|vim?|nvim|nano|emacs(client)?|code|subl|micro"
    r"|hx|helix|kak|notepad(\+\+)?|ssh|git-credential-\S+|cache|store|osxkeychain|manager(-core)?"
    r"|libsecret|gpg2?|true|false)(\s+(-{1,2}[\w=-]+|[\w=.~/:@-]+))*$",
    re.I,
)


# `git config` actions that only read, and those that remove (review 11, finding 3).
_CONFIG_READS = frozenset(
    [
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
    ]
)
_CONFIG_REMOVES = frozenset(("--unset", "--unset-all", "--remove-section", "--rename-section"))
# Options of `git config` that take the next word as their value.
_CONFIG_VALUED = frozenset(("-f", "--file", "--blob", "--type", "--default", "--comment"))
# Files that are the user's or the machine's own git configuration.
_USER_CONFIG = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\})/(?:\.gitconfig|\.config/git/config)$|^/etc/gitconfig$"
)


def _config_operands(args: list[Word]) -> tuple[list[Word], bool]:
    """The operands of `git config` (the values of `-f FILE`, `--type T` skipped), and
    whether `-f`/`--file` names the user's or the machine's own configuration (review 11,
    finding 15: `git config -f ~/.gitconfig include.path F` is `--global`)."""
    ops: list[Word] = []
    user_file = False
    skip = False
    for j, w in enumerate(args):
        t = w.text
        if skip:
            skip = False
            continue
        if t in _CONFIG_VALUED:
            skip = True
            if t in ("-f", "--file") and j + 1 < len(args):
                user_file = user_file or bool(_USER_CONFIG.match(args[j + 1].text))
            continue
        if t.startswith("--file="):
            user_file = user_file or bool(_USER_CONFIG.match(t[7:]))
            continue
        if not t.startswith("-"):
            ops.append(w)
    return ops, user_file


def _global_code_setting(
    cmd: Cmd, args: list[Word], ops: list[Word], user_file: bool = False
) -> bool:
    """`git config --global core.hooksPath /dev/shm/h`, `--system init.templateDir /tmp/t`:
    every repository on the account or machine then runs code from there (persistence,
    critical), unless the value is an ordinary program (`core.pager less`). True if
    judged here."""
    scope = {w.text for w in args} & {"--global", "--system"}
    if user_file:
        scope.add("--file")
    key, value = ops[0].text, ops[1]
    if not scope or not _GLOBAL_CODE_KEYS.match(key):
        return False
    mark = len(cmd.scope.findings)
    hooks_folder(cmd, key, value)
    if len(cmd.scope.findings) > mark:
        return True  # (u21) a written hook with a blocked body
    k = key.lower()
    text = value.text.strip()
    if k == "core.fsmonitor" and text.lower() in ("true", "false", "0", "1"):
        return False  # the built-in monitor
    code_key = k not in ("core.hookspath", "init.templatedir")
    if code_key and not value.dynamic and _PLAIN_PROGRAM.match(text.lstrip("!")):
        return False
    if code_key and not value.dynamic and text.lstrip("!").strip():
        inner = cmd.scope.nested(text.lstrip("!"), "bash", value, -1)
        if max((f.level for f in inner), default=S) >= B:
            # (n20u) a readable blocked command persisted: blocked, as a startup file's
            cmd.scope.include(inner)
            cmd.add(B, "persistence", f"git config stores a blocked command in {key}", value)
            return True
    cmd.add(
        C,
        "persistence",
        f"git config {next(iter(scope))} {key} makes every repository run code from"
        f" {text or 'a computed place'}",
        value,
    )
    return True  # stored, not run now: critical whatever the command would do later


# The hooks each git command runs (githooks(5)): a hook this block wrote runs now.
_HOOKS_RUN_BY = {
    "commit": ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite"),
    "merge": ("pre-merge-commit", "post-merge", "prepare-commit-msg", "commit-msg"),
    "pull": ("post-merge", "pre-merge-commit", "post-checkout", "post-rewrite"),
    "checkout": ("post-checkout",),
    "switch": ("post-checkout",),
    "clone": ("post-checkout",),
    "worktree": ("post-checkout",),
    "push": ("pre-push", "reference-transaction"),
    "rebase": ("pre-rebase", "post-rewrite", "post-checkout"),
    "am": ("applypatch-msg", "pre-applypatch", "post-applypatch"),
    "gc": ("pre-auto-gc",),
    "cherry-pick": ("prepare-commit-msg", "commit-msg", "post-commit"),
    "revert": ("prepare-commit-msg", "commit-msg", "post-commit"),
}


def _written_hooks(cmd: Cmd, sub: str) -> None:
    for hook in _HOOKS_RUN_BY.get(sub, ()):
        written = cmd.scope.written.get(hook)
        if written is None:
            continue
        where = Word(written[0], cmd.start, cmd.end)
        for f in cmd.scope.nested(written[0], "bash", where, -1):
            cmd.scope.add(
                f.level, f.rule, f"the {hook} hook written above runs: {f.reason}", f.start, f.end
            )


def _work_tree(cmd: Cmd, sub_at: int) -> str:
    """The working tree a git command acts on when its global options name one
    (`--work-tree=/`, `-C ~`); "" for the current directory."""
    args = cmd.args[:sub_at]
    tree = ""
    for k, w in enumerate(args):
        t = w.text
        value = args[k + 1].text if k + 1 < len(args) else ""
        if t.startswith("--work-tree="):
            tree = t.split("=", 1)[1]
        elif t == "--work-tree":
            tree = value
        elif t == "-C" and value:
            tree = value if value.startswith(("/", "~")) or not tree else tree + "/" + value
    return tree


# Pathspecs that still name the whole tree: the tree itself, its top (`:/`), every entry,
# or only exclusions (`:!keep`: git reads "everything but keep").
_WIDE_SPEC = re.compile(r"^(?:\.?/?\*?|:/?\*?|:\(top\)\*?|:[!^].*|:\(exclude\).*)$")


def _clean_pathspecs(rest: list[str]) -> list[str]:
    """The pathspec operands of `git clean` (after its options; `-e`'s pattern skipped)."""
    specs: list[str] = []
    k = 0
    while k < len(rest):
        t = rest[k]
        if t == "--":
            specs.extend(rest[k + 1 :])
            break
        if t in ("-e", "--exclude"):
            k += 2
            continue
        if not t.startswith("-"):
            specs.append(t)
        k += 1
    return specs


def _clean_target(tree: str, specs: list[str], cmd: Cmd) -> Target:
    """What `git clean -f` empties: the work tree, or only the untracked entries inside
    the pathspecs it names (`cd ~ && git clean -fdx src/` is a named subset: scoped)."""
    base = tree or "."
    cwds, windows = cmd.scope.cwds, cmd.scope.windows
    narrow = [s for s in specs if not _WIDE_SPEC.match(s) and s not in CWD_WIDE]
    if not specs or len(narrow) < len(specs):
        return classify_path(base, cwds, windows)
    worst = Target(D, "scoped", specs[0])
    for spec in narrow:
        # The untracked entries inside the spec (`tmp/` after `cd /` is what is inside /tmp).
        path = spec if any(c in spec for c in "*?[") else spec.rstrip("/\\") + "/*"
        if tree and not path.startswith(("/", "~")):
            path = tree.rstrip("/") + "/" + path
        t = classify_path(path, cwds, windows)
        if t.level > worst.level:
            worst = t
    return worst


def _config_env(cmd: Cmd, where: Word, spec: str) -> None:
    """`git --config-env=core.pager=PG log`: the setting's value is the environment
    variable PG's. A value this block set (`PG='sh -c …'`, `export PG=…`) is judged as
    `git -c core.pager=…` would be; a command-running key whose variable the analyser
    cannot see runs a command only known at run time (critical) (red team round 12)."""
    key, eq, var = spec.partition("=")
    if not eq or not key:
        return
    value = cmd.scope.env.get(var.strip())
    if value is not None and not where.dynamic:
        _config_value(cmd, Word(f"{key}={value}", where.start, where.end))
    elif _GIT_EXEC_KEYS.match(key) and not (
        key.lower().startswith(("alias.", "submodule.")) and value is not None
    ):
        cmd.add(
            C,
            "config-exec",
            f"git --config-env {key} runs the command in ${var}, which the analyser cannot see",
            where,
        )


@handles("git")
def _git(cmd: Cmd) -> None:
    args = cmd.args
    i = 0
    config_override = False
    while i < len(args) and args[i].text.startswith("-"):
        t = args[i].text
        if t == "-c" and i + 1 < len(args):
            config_override |= _config_value(cmd, args[i + 1])
        elif t.startswith("-c") and "=" in t:
            config_override |= _config_value(cmd, Word(t[2:], args[i].start, args[i].end))
        elif t.startswith("--config-env"):
            config_override = True
            spec = args[i + 1] if t == "--config-env" and i + 1 < len(args) else args[i]
            _config_env(cmd, spec, spec.text.removeprefix("--config-env="))
        elif t == "-c" or t.startswith("--exec-path"):
            config_override = True
        i += 2 if t in _GIT_GLOBAL_WITH_VALUE else 1
    if i >= len(args):
        return
    sub = args[i].text
    rest = [w.text for w in args[i + 1 :]]
    sub_word = args[i]
    unsafe_flag = next((w for w in args[i + 1 :] if _GIT_UNSAFE_FLAGS.match(w.text)), None)

    def add(level: RiskLevel, rule: str, reason: str) -> None:
        cmd.add(level, rule, reason)

    if rest == ["-h"]:
        return  # (`git clean -h`: git prints the subcommand's usage when -h is alone)
    flags = {t for t in rest if t.startswith("-")}
    shorts = "".join(t[1:] for t in rest if t.startswith("-") and not t.startswith("--"))
    _written_hooks(cmd, sub)
    if cmd.scope.written:
        from aintern_ls.safety import pickups

        pickups.git_config(cmd, sub, list(args[i + 1 :]))  # aliases, drivers set above (f18)
    if sub == "add":
        staged_secrets(cmd)
    if sub == "clone":
        # (n19u) `git clone -c|--config core.fsmonitor=… URL`: the setting is written into
        # the new repository's config and read by the checkout clone runs (and by every git
        # command there later): judged as `git -c` is
        tail = args[i + 1 :]
        for k, w in enumerate(tail[:32]):
            if w.text in ("-c", "--config") and k + 1 < len(tail):
                _config_value(cmd, tail[k + 1])
            elif w.text.startswith("--config="):
                _config_value(cmd, Word(w.text[9:], w.start, w.end, w.dynamic))
            elif w.text.startswith("-c") and "=" in w.text:
                _config_value(cmd, Word(w.text[2:], w.start, w.end, w.dynamic))
    if _subcommand_runs(cmd, sub, list(args[i + 1 :])):
        return
    if sub in _GIT_SAFE:
        if unsafe_flag is not None:
            add(M, "git-write", f"git {sub} {unsafe_flag.text} writes files or runs programs")
        elif config_override:
            add(M, "git-config", "git -c can make git run arbitrary programs")
        return
    if sub == "reset":
        if "--hard" in flags or "--merge" in flags or "--keep" in flags:
            add(D, "git-reset-hard", "git reset --hard discards uncommitted changes")
        else:
            add(M, "git-write", "git reset moves the branch and index")
    elif sub in ("checkout", "switch"):
        ops = [t for t in rest if not t.startswith("-")]
        if (
            "-f" in flags
            or "--force" in flags
            or "--discard-changes" in flags
            or "--" in rest
            or (ops and ops[-1] in (".", "*", ":/"))
        ):
            add(D, "git-discard", f"git {sub} overwrites uncommitted changes")
        else:
            add(M, "git-write", f"git {sub} changes the working tree")
    elif sub == "restore":
        if (
            flags <= {"--staged", "-S"}
            and ("--staged" in flags or "-S" in flags)
            and not ("--worktree" in flags or "-W" in flags)
        ):
            add(M, "git-write", "git restore --staged changes the index")
        else:
            add(D, "git-discard", "git restore discards uncommitted changes")
    elif sub == "clean":
        if "n" in shorts or "--dry-run" in flags:
            return
        if "f" in shorts or "--force" in flags:
            tree = _work_tree(cmd, i)
            # No work tree given: the tree is the working directory, which an earlier
            # `cd ~`/`cd /`/`Set-Location C:\` in the block may have set (`cd ~ && git clean
            # -fdx`: every untracked file under home goes). An unknown directory stays
            # the scoped `git-clean` (rm-cwd is what "." is when the cwd is not known).
            tgt = _clean_target(tree, _clean_pathspecs(rest), cmd)
            if (
                tgt.level >= B
                and ("d" in shorts or not tree)
                and tgt.rule not in ("rm-system-file", "rm-cwd")
            ):
                # `git --work-tree=/ clean -fdx`: every file git does not track under / goes.
                add(B, tgt.rule, f"git clean -fd deletes every untracked file in {tgt.what}")
            else:
                add(D, "git-clean", "git clean -f deletes untracked files")
        else:
            add(M, "git-write", "git clean")
    elif sub == "push":
        if "--dry-run" in flags or "n" in shorts:
            return
        ops = [t for t in rest if not t.startswith("-")]
        if (
            flags
            & {
                "--force",
                "--force-with-lease",
                "--force-if-includes",
                "--mirror",
                "--delete",
                "--prune",
            }
            or "f" in shorts
            or "d" in shorts
            or any(t.startswith(("--force-with-lease=", "--force")) for t in flags)
            or any(o.startswith(("+", ":")) for o in ops[1:])
        ):
            add(D, "git-force-push", "git push rewrites or deletes remote history")
        elif (held := _pushes_secrets(cmd, args[:i], ops)) is not None:
            add(C, "exfiltration", f"git push sends {held}, which holds secrets, to a remote")
        else:
            add(M, "git-push", "git push publishes commits")
    elif sub == "stash":
        action = rest[0] if rest else "push"
        if action in ("list", "show"):
            return
        if action in ("drop", "clear"):
            add(D, "git-stash-drop", f"git stash {action} destroys stashed changes")
        else:
            add(M, "git-write", f"git stash {action}")
    elif sub == "branch":
        ops = [t for t in rest if not t.startswith("-")]
        if "D" in shorts or ("--delete" in flags and "--force" in flags):
            add(D, "git-branch-delete", "git branch -D deletes a branch even if unmerged")
        elif (
            "d" in shorts or "--delete" in flags or "m" in shorts or "M" in shorts or "c" in shorts
        ):
            add(M, "git-write", "git branch changes branches")
        elif ops and not (
            flags & {"--list", "-l", "--contains", "--merged", "--no-merged", "--points-at"}
        ):
            add(M, "git-write", "git branch creates a branch")
        return
    elif sub == "tag":
        ops = [t for t in rest if not t.startswith("-")]
        if "d" in shorts or "--delete" in flags:
            add(D, "git-tag-delete", "git tag -d deletes tags")
        elif ops and not (flags & {"-l", "--list", "--contains", "--points-at", "-n"}):
            add(M, "git-write", "git tag creates a tag")
    elif sub == "remote":
        if not rest or rest[0] in ("-v", "--verbose", "show", "get-url"):
            return
        add(M, "git-config", f"git remote {rest[0]} changes remotes")
    elif sub == "config":
        if (
            flags & {"--get", "--list", "-l", "--get-all", "--get-regexp", "--show-origin"}
            or (rest and rest[0] in ("get", "list"))
            or (len([t for t in rest if not t.startswith("-")]) == 1)
        ):
            return
        if re.search(r"sslverify\s+(false|0|no)", " ".join(rest).lower()):
            add(C, "disable-security", "turns off TLS certificate checks for git")
            return
        add(M, "git-config", "git config changes settings")
    elif sub == "reflog":
        if rest and rest[0] in ("expire", "delete"):
            add(D, "git-reflog", "git reflog expire/delete destroys recovery points")
    elif sub in ("worktree", "submodule", "notes", "bisect", "sparse-checkout", "lfs"):
        if rest and rest[0] in ("list", "status", "show", "log", "ls-files", "summary"):
            return
        if sub == "worktree" and rest and rest[0] == "remove" and flags & {"--force", "-f"}:
            add(D, "git-discard", "git worktree remove --force discards changes")
            return
        add(M, "git-write", f"git {sub} changes the repository")
    elif sub in ("rm",):
        if "--cached" in flags:
            add(M, "git-write", "git rm --cached untracks files")
        else:
            add(D, "git-rm", "git rm deletes files from the working tree")
    elif sub in ("filter-branch", "filter-repo", "update-ref", "replace", "prune"):
        if sub == "update-ref" and "-d" not in flags:
            add(M, "git-write", "git update-ref moves a ref")
        else:
            add(D, "git-rewrite", f"git {sub} rewrites or deletes history")
    elif sub == "gc":
        if any(t.startswith("--prune") for t in flags):
            add(D, "git-gc-prune", "git gc --prune destroys unreachable commits")
        else:
            add(M, "git-write", "git gc repacks the repository")
    else:
        add(M, "git-write", f"git {sub} changes the repository or talks to the network")
    _ = sub_word


_STAGED_SECRET = "\x00secret:\x00staged"


def _pushes_secrets(cmd: Cmd, global_opts: list[Word], ops: list[str]) -> str | None:
    """`git -C ~/.ssh push URL`, `cd ~/.aws && git init && … && git push`, `cp ~/.gnupg
    repo/keys && git -C repo add keys && … push`: the repository is a credential folder, or
    this text copied or added secrets into it (safety-m8): what is pushed, else None."""
    from aintern_ls.safety.network import holds_secret

    texts = [w.text for w in global_opts]
    for k, t in enumerate(texts[:-1]):
        if t == "-C" and holds_secret(cmd, texts[k + 1]):
            return texts[k + 1]
    for cwd in cmd.scope.cwds:
        if cwd is not None and holds_secret(cmd, cwd):
            return cwd
    if _STAGED_SECRET in cmd.scope.env:
        return "a commit"
    return None


def staged_secrets(cmd: Cmd) -> None:
    """`git add ~/.ssh/id_rsa`, `git -C repo add keys` after `cp ~/.gnupg repo/keys`: a
    secret is staged for a commit (a later push sends it) (safety-m8)."""
    from aintern_ls.safety.network import holds_secret

    texts = [w.text for w in cmd.args if not w.dynamic]
    if "add" not in texts:
        return
    at = texts.index("add")
    repo = next((texts[k + 1] for k in range(at - 1) if texts[k] == "-C"), None)
    added = [t for t in texts[at + 1 :] if not t.startswith("-")]
    in_secret_repo = repo is not None and holds_secret(cmd, repo)
    if in_secret_repo or any(holds_secret(cmd, t) for t in added):
        cmd.scope.env[_STAGED_SECRET] = "1"
