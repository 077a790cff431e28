"""git: which subcommands only read, which discard work or rewrite shared history."""

from __future__ import annotations

import re

from aintern_ls.safety.context import (
    Cmd,
)
from aintern_ls.safety.levels import C, D, M, RiskLevel, S
from aintern_ls.safety.registry import handles
from aintern_ls.safety.words import Word, names

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
    r"|interactive\.difffilter|web\.browser|browser\.\w+\.cmd|man\.\w+\.cmd)$",
    re.I,
)
_GIT_HARMLESS_KEYS = re.compile(
    r"^(color|user|advice|init|log|format|i18n|column|status|help|safe|core\.quotepath"
    r"|core\.autocrlf|core\.filemode|protocol\.version|http\.sslverify-never)\b",
    re.I,
)


def _config_value(cmd: Cmd, item: Word) -> bool:
    """`git -c key=value`: judge values git runs as commands; True if the override still
    changes what git does in a way worth a word (moderate)."""
    key, eq, value = item.text.partition("=")
    if not eq:
        return False
    if not _GIT_EXEC_KEYS.match(key):
        return not _GIT_HARMLESS_KEYS.match(key)
    if key.lower().startswith("alias.") and not value.startswith("!"):
        return False
    if item.dynamic:
        cmd.add(C, "config-exec", f"git -c {key} runs a command only known at run time", item)
        return False
    code = value.lstrip("!").strip()
    if not code:
        return False
    found = cmd.scope.nested(code, "bash", item, -1)
    level = max((f.level for f in found), default=S)
    if level >= D:
        cmd.scope.include(found)
        cmd.add(max(level, C), "config-exec", f"git -c {key} runs a {level.label} command", item)
    elif level >= M:
        cmd.scope.include(found)
    return False


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
        elif t in ("-c", "--config-env") or t.startswith(("--exec-path", "--config-env")):
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

    flags = {t for t in rest if t.startswith("-")}
    shorts = "".join(t[1:] for t in rest if t.startswith("-") and not t.startswith("--"))
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
