"""Long-tail command-line programs: what their reference documentation says destroys data.

Blind slices keep missing operations of programs nobody here wrote a rule for, because the
destruction is not in an obvious verb: it is in the NOUN the verb acts on (a backup service's
`backups delete`, `DeleteBackup`, `delete-recovery-point`), in an OPTION (`--delete-backup-data`,
`--delete-automated-backups`, `--backup-retention-period 0`), or in a verb only that program's
page explains (`svn revert`, `nodetool clearsnapshot`, `linode-cli linodes backups-cancel`,
which deletes every backup the service holds). The rows these rules were written from are
`tests/safety/sources_cli8.tsv` (made by `bench/cli8_harvest.py` from the programs' pages).

Two parts:

- SHAPES (any program, known or not): the command path (its leading subcommand words, API
  operation names split at case and dashes: `DeleteBackup` -> delete, backup) is read for its
  ACTION verb and the NOUNS it acts on.
  - a destroying verb on a *backup* noun (backup, recovery point, backup vault, automated
    backup), a destroying verb on *every snapshot* (`snapshot-delete-all`, `--all`), an option
    that deletes the backups with the resource, a backup retention set to zero: blocked (the
    copies to recover from are gone: HELPERS, session 6);
  - backups turned off (`backup protection disable`, `--no-backup` on an update): critical,
    as `tmutil disable`;
  - a destroying verb in the path of a program judged only generically (a cloud CLI's API
    name, an unknown program whose verb sits behind an option or a noun the generic reading
    stops at): dangerous;
  - a read verb (`list`, `describe`, `get`, `status`, `DescribeInstances`) of a program judged
    only generically, with nothing else found: safe (its moderate "not on the allowlist" is
    dropped); a CLI listed here with its documented dry run or preview: safe.
- CLIS: per-program knowledge with reasons, for what a shape cannot see (a backup tool's
  whole repository, flags that must be present before anything is deleted, essential
  packages removed past the package manager's protection, application data deleted with
  the application).

Everything here only adds findings, except the read/dry-run lowering, which removes only
this command's own generic moderate findings and never when any word is computed at run time.
`judge` is called by the dispatcher after the program's handler (`dispatch.py`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Sequence
from functools import lru_cache

import attrs

from aintern_ls.safety import budget, shape
from aintern_ls.safety.context import Cmd
from aintern_ls.safety.levels import RiskLevel
from aintern_ls.safety.words import Word, names

B = RiskLevel.BLOCKED
C = RiskLevel.CRITICAL
D = RiskLevel.DANGEROUS
M = RiskLevel.MODERATE

# Switched off by tests to prove the findings come from here.
ENABLED = True

# --- the command path -----------------------------------------------------------------------

# Verbs that destroy what the path names.
DESTROY = frozenset(
    names(
        """
        delete del remove rm rmi rmp rmdir destroy purge wipe erase expunge nuke zap shred drop
        truncate terminate unpublish forget flush expire decommission
        deprovision obliterate rdelete unset
        """
    )
)
# Verbs that destroy only with a force/all marker or on snapshots/backups (`clear`, `clean`).
WEAK_DESTROY = frozenset(names("clear clean cleanup reset prune"))
# Verbs that only look.
READ = frozenset(
    names(
        """
        list ls get describe show status info inspect history check verify stat stats du df
        diff log logs cat view whoami version tree search find lookup print explain plan
        preview whatif what-if validate top events inspecti imagefsinfo ping dbsize ttl
        exists scan keys count help usage
        """
    )
)
# Verbs that change or create: a path holding one of them is no listing.
CHANGE = frozenset(
    names(
        """
        create add set update enable start stop shutdown restart reboot pull push run exec undo
        apply patch modify attach detach resize restore import export put post copy cp mv move
        rename tag untag install upgrade save load mount unmount sync mirror
        rollback cordon uncordon drain scale deploy edit replace write send invoke reset enter
        login logout connect disconnect init register deregister unregister promote failover
        """
    )
)
# Nouns that name an entry of the program's own settings: removing one deletes no data
# (`helm repo remove bitnami`, `kopia policy delete`, `docker context rm prod`).
CONFIG_NOUNS = frozenset(
    names(
        """
        repo repos policy policies context contexts alias aliases remote remotes config
        configuration setting settings tap taps profile-config preference preferences
        """
    )
)
# Verbs that turn backups off.
OFF = frozenset(names("disable cancel stop suspend pause deactivate unprotect off unschedule"))
# Nouns naming an audit trail: turning it off or deleting it hides what happened (critical).
_AUDIT_NOUNS = frozenset(names("audit audits auditing"))

# Backup nouns: what a destroying verb on them loses is a copy to recover from.
_BACKUP_NOUN = re.compile(
    r"^(?:backups?|backupsets?|backupvaults?|recoverypoints?|restorepoints?|ltrbackups?"
    r"|archivebackups?|dbbackups?|volumebackups?|snapshotbackups?)$"
)
_BACKUP_PAIR = frozenset(
    {
        ("recovery", "point"),
        ("recovery", "points"),
        ("restore", "point"),
        # (n13w) Azure Backup's store: `Remove-AzRecoveryServicesVault`
        ("services", "vault"),
    }
)
# ... unless the noun is only a setting about backups (`delete-backup-plan`, `policy delete`).
_NOT_THE_BACKUPS = frozenset(
    names(
        """
        plan plans policy policies schedule schedules selection selections job jobs report
        reports framework frameworks location locations setting settings config configuration
        rule rules tag tags notification notifications lock template templates testing
        restore-testing vault-lock access-policy
        """
    )
)
_SNAPSHOT_NOUN = re.compile(r"^(?:\w*snapshots?|snaps?)$")

# Case changes split words: `DeleteBackup`, and an acronym before a word: `VBRBackup`.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9_:.-]{0,60}$")
# Glued verb+noun words (`deletelocalsnapshots`, `clearsnapshot`, `rmi`): only these long verbs.
_GLUED = ("delete", "remove", "destroy", "purge", "clear", "disable", "cancel", "list")


@lru_cache(maxsize=4096)
def parts(word: str) -> tuple[str, ...]:
    """`DeleteBackup` -> (delete, backup); `delete-db-instance-automated-backup` -> its words;
    `clearsnapshot` -> (clear, snapshot)."""
    out: list[str] = []
    for p in re.split(r"[-_:.\s]+", _CAMEL.sub(" ", word)):
        p = p.lower()
        if not p:
            continue
        glued = next(
            (v for v in _GLUED if p.startswith(v) and len(p) > len(v) + 2 and p not in READ),
            None,
        )
        if glued is not None and p not in DESTROY:
            out.extend((glued, p[len(glued) :]))
        else:
            out.append(p)
    return tuple(out)


@attrs.frozen(slots=True)
class Path:
    """A command's leading subcommand words: the action verb found in them and the nouns."""

    words: tuple[str, ...]  # the plain words, in order
    index: tuple[int, ...]  # their indexes in the argument list
    verb: str  # "" when no verb was found
    kind: str  # "destroy", "weak", "read", "off" or ""
    at: int  # index (in `words`) of the word holding the verb, -1 when none
    nouns: tuple[str, ...]  # every other part of the path words up to the verb's word
    # the whole word after a leading verb taken as a noun (`kubectl delete volumesnapshot`):
    # the last of `nouns`; for a program not named in CLIS it may be an operand (`docker
    # volume rm backup`, `systemctl stop backup`: a resource NAMED backup), see `own_nouns`
    operand: tuple[str, ...] = ()


def command_path(args: Sequence[str], limit: int = 5) -> Path:
    """Read the leading plain words (options and their non-plain values are skipped) and
    find the first that carries a verb."""
    words: list[str] = []
    index: list[int] = []
    for i, a in enumerate(args):
        if len(words) >= limit:
            break
        if a.startswith(("-", "/")) or a.startswith("+"):
            if words:
                break  # `az group create --name rg-test`: options end the command path
            continue
        if not _PLAIN.fullmatch(a):
            if words:
                break  # a resource name or path ends the command path
            continue  # `-n k8s.io images rm`: an option's value before the path
        words.append(a)
        index.append(i)
    return _path_of(tuple(words), tuple(index))


@lru_cache(maxsize=4096)
def _path_of(words: tuple[str, ...], index: tuple[int, ...]) -> Path:
    """`command_path`'s reading of the plain words it kept (a pure function of them, so
    kept by them: most commands' paths are one of a few hundred, `()` or `("mkdir",)`)."""
    nouns: list[str] = []
    for n, w in enumerate(words):
        whole = w.lower()
        ps = (whole,) if whole in READ else parts(w)
        for j, p in enumerate(ps):
            kind = _kind(p)
            if not kind:
                continue
            rest = [q for k, q in enumerate(ps) if k != j]
            # A verb word followed by another whole verb word was a noun (`velero restore
            # get`, `dnf history undo`); a read never overrides a destroying verb.
            while n + 1 < len(words) and (nxt := _kind(parts(words[n + 1])[0])):
                if kind == "destroy" and nxt in ("read", "change"):
                    break
                if nxt in ("destroy", "read", "off") and len(parts(words[n + 1])) > 1:
                    break  # `describe delete-job`: a name after the verb
                nouns.extend((p, *rest))
                follow = parts(words[n + 1])
                n, p, kind, rest = n + 1, follow[0], nxt, list(follow[1:])
            # after a leading verb, a following word counts as a noun only when it is one
            # whole resource-type word (`kubectl delete volumesnapshot`), not a name that
            # contains one (`helm uninstall backup-agent`)
            after = [
                x.lower().split(".")[0]  # `backups.velero.io`: a resource type
                for x in words[n + 1 : n + 2]
                if "-" not in x and "_" not in x
            ]
            return Path(words, index, p, kind, n, (*nouns, *rest, *after), tuple(after))
        nouns.extend(ps)
    return Path(words, index, "", "", -1, tuple(nouns))


def _kind(part: str) -> str:
    if part in DESTROY:
        return "destroy"
    if part in WEAK_DESTROY:
        return "weak"
    if part in READ:
        return "read"
    if part in OFF:
        return "off"
    if part in CHANGE:
        return "change"
    return ""


# Cluster CLIs whose word after the verb is a resource type (`kubectl delete volumesnapshot`).
_RESOURCE_CLIS = frozenset(names("kubectl oc kubecolor microk8s.kubectl k3s"))


def own_nouns(name: str, path: Path, mine: Sequence[object] = ()) -> tuple[str, ...]:
    """The nouns of `path` that are the program's own command words. Only a program named
    here (CLIS, whose grammar is read from its docs), a cluster CLI or one judged as a cloud
    CLI takes the word after its verb as a resource type; for any other program (`docker`,
    `pm2`, `systemctl`, `sc`, `Stop-Service`) that word is an operand, a name somebody
    chose (`backup`)."""
    if (
        name in CLIS
        or name in _RESOURCE_CLIS
        or not path.operand
        or any(getattr(f, "rule", "") in ("cloud", "infra") for f in mine)
    ):
        return path.nouns
    return path.nouns[: len(path.nouns) - len(path.operand)]


def backup_noun(nouns: Sequence[str]) -> str | None:
    """The backup noun among `nouns` (None when there is none, or when the path only names a
    setting about backups: a plan, a policy, a schedule)."""
    if any(n in _NOT_THE_BACKUPS for n in nouns):
        return None
    for i, n in enumerate(nouns):
        if _BACKUP_NOUN.match(n):
            return n
        if i + 1 < len(nouns) and (n, nouns[i + 1]) in _BACKUP_PAIR:
            return f"{n} {nouns[i + 1]}"
    return None


def snapshot_noun(nouns: Sequence[str]) -> str | None:
    return next((n for n in nouns if _SNAPSHOT_NOUN.match(n)), None)


# --- options ----------------------------------------------------------------------------------

# An option that deletes a resource's backups (or its point-in-time copies) with it.
_DELETES_BACKUPS = re.compile(
    r"^(?:--?|/)(?:delete|remove|purge|drop|destroy|wipe)[-_]?(?:all[-_]?)?"
    r"(?:automated[-_]?|existing[-_]?|old[-_]?|retained[-_]?)?"
    r"(?:backups?(?:[-_]?data)?|snapshots|recovery[-_]?points?|restore[-_]?points?)"
    r"(?:[=:](.*))?$",
    re.I,
)
# Values that turn such an option off (`--delete-backup-data false`, `--delete-snapshots=exclude`).
_OFF_VALUE = re.compile(r"^(?:false|no|0|off|none|exclude|\$false|never)$", re.I)
# A backup or snapshot retention set to zero: nothing is kept.
_RETENTION = re.compile(
    r"^--?(?:backup|snapshot|automated[-_]?(?:backup|snapshot))s?[-_]?(?:retention|retain|keep)"
    r"[-_a-z]*"
    r"(?:=(.*))?$",
    re.I,
)
_ZERO = re.compile(r"^0+(?:\.0+)?\s*[a-z]*$", re.I)
# Options that turn backups off on an update (`gcloud sql instances patch --no-backup`).
_BACKUP_OFF_OPTION = re.compile(
    r"^--?(?:no[-_]?(?:automated[-_]?)?backups?|disable[-_]?(?:automated[-_]?)?backups?"
    r"|(?:enable[-_]?)?(?:automated[-_]?)?backups?(?:[-_]?enabled)?=(?:false|0|no|off))$",
    re.I,
)
# GNU cp/mv/install/ln's version-control setting (`--backup=off`: no `file~` copies), not
# a cloud database's automated backups.
_GNU_BACKUP_OFF = re.compile(r"^--backup=(?:off|none)$", re.I)
# Every one of what the path names: `--all`, `--all-snapshots-for-source`, `-A`.
_ALL_OPTION = re.compile(r"^(?:--all(?:[-_][\w-]*)?|-A|--everything)(?:=(?:true|1))?$", re.I)
_FORCE = re.compile(r"^(?:--force|-f|--hard|--all|-a|--yes|-y|--recursive|-r)$")


def _option_value(args: Sequence[str], i: int, inline: str | None) -> str | None:
    if inline is not None:
        return inline
    if i + 1 < len(args) and not args[i + 1].startswith("-"):
        return args[i + 1]
    return None


def deletes_backups_option(args: Sequence[str]) -> int | None:
    """The index of an option that deletes backups (`--delete-backup-data true`)."""
    for i, a in enumerate(args):
        m = _DELETES_BACKUPS.match(a)
        if m is None:
            continue
        value = _option_value(args, i, m.group(1))
        if value is not None and _OFF_VALUE.match(value.strip("'\"")):
            continue
        return i
    return None


def zero_retention(args: Sequence[str]) -> int | None:
    for i, a in enumerate(args):
        m = _RETENTION.match(a)
        if m is None:
            continue
        value = _option_value(args, i, m.group(1))
        if value is not None and _ZERO.match(value.strip("'\"")):
            return i
    return None


# --- per-program knowledge ---------------------------------------------------------------------


@attrs.frozen(slots=True)
class Verdict:
    level: RiskLevel
    rule: str
    reason: str


SAFE_READ = Verdict(RiskLevel.SAFE, "", "")

Judge = Callable[[Sequence[str], Path], Verdict | None]


def _has(args: Sequence[str], *opts: str) -> bool:
    return any(a in opts or a.split("=", 1)[0] in opts for a in args)


def _borg(args: Sequence[str], path: Path) -> Verdict | None:
    # borg-delete(1): `borg delete REPO` deletes the whole repository; `REPO::ARCHIVE`, archive
    # names after it or `--glob-archives`/`-a`/`--match-archives` delete only those archives.
    if path.verb == "rdelete" or (path.words[:1] == ("repo-delete",)):
        return Verdict(B, "cli-backup-delete", "borg deletes the whole backup repository")
    if path.verb != "delete" or _has(args, "--dry-run", "-n"):
        return SAFE_READ if path.verb == "delete" else None
    if _has(args, "-a", "--glob-archives", "--match-archives", "--prefix", "--first", "--last"):
        return None
    ops = [a for a in args if not a.startswith("-")][1:]
    if len(ops) == 1 and "::" not in ops[0]:
        return Verdict(
            B, "cli-backup-delete", "borg delete without an archive deletes the whole repository"
        )
    return None


def _restic(args: Sequence[str], path: Path, raw: str = "") -> Verdict | None:
    # restic-forget(1): snapshot IDs produced by `restic snapshots` are every snapshot.
    if path.verb == "forget" and re.search(r"\$\(\s*restic\b[^)]*\bsnapshots\b", raw):
        return Verdict(B, "cli-backup-delete", "restic forgets every snapshot the repository lists")
    return None


def _duplicity(args: Sequence[str], path: Path) -> Verdict | None:
    # duplicity(1): the remove-* actions only list what they would delete unless --force.
    if not path.words or not path.words[0].startswith("remove-"):
        return None
    if "--force" not in args:
        return SAFE_READ
    if path.words[0] == "remove-older-than":
        i = args.index("remove-older-than")
        when = args[i + 1] if i + 1 < len(args) else ""
        if re.fullmatch(r"(?i)now|0+[smhDWMY]?|1s|\d{1,2}s", when):
            return Verdict(
                B, "cli-backup-delete", "duplicity removes every backup older than now: all"
            )
    return Verdict(D, "cli-delete", "duplicity --force deletes old backup sets")


def _kopia(args: Sequence[str], path: Path) -> Verdict | None:
    # kopia snapshot delete/expire: nothing is deleted without --delete (a dry listing).
    if path.words[:1] != ("snapshot",) or path.verb not in ("delete", "expire"):
        return None
    if "--delete" not in args:
        return SAFE_READ
    if _has(args, "--all-snapshots-for-source"):
        return Verdict(
            B, "cli-backup-delete", "kopia deletes every snapshot of the source (the backups)"
        )
    return Verdict(D, "cli-delete", f"kopia snapshot {path.verb} --delete deletes snapshots")


def _tmutil(args: Sequence[str], path: Path) -> Verdict | None:
    sub = path.words[0].lower() if path.words else ""
    if sub == "thinlocalsnapshots":
        return Verdict(B, "cli-backup-delete", "tmutil thins (deletes) the local snapshots")
    if sub in ("removedestination", "disable"):
        return Verdict(C, "cli-backup-off", f"tmutil {sub} stops Time Machine backups")
    if sub in names(
        "listbackups listlocalsnapshots listlocalsnapshotdates destinationinfo latestbackup"
        " machinedirectory isexcluded compare uniquesize version status calculatedrift"
    ):
        return SAFE_READ
    return None


# snapper's settings that stop the automatic snapshots or keep none of them.
_SNAPPER_OFF = re.compile(
    r"(?i)\A(?:timeline_create|background_comparison)=[\"']?(?:no|false|0)[\"']?\Z"
    r"|\Anumber_limit=[\"']?0[\"']?\Z"
)


def _snapper(args: Sequence[str], path: Path) -> Verdict | None:
    """snapper(8): its listing and comparing commands only read (`snapper -c root list`);
    `delete N-M` is judged by the every-snapshot range check (n10u)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += (
            2
            if args[i] in ("-c", "--config", "-r", "--root", "--utc", "-t", "--table-style")
            else 1
        )
    sub = args[i] if i < len(args) else ""
    if _has(args, "--help", "-h", "--version"):
        return SAFE_READ  # `snapper delete-config --help` only prints (review 11, finding 8)
    if sub == "set-config" and any(_SNAPPER_OFF.match(a.strip("'\"")) for a in args[i + 1 :]):
        # `snapper -c root set-config TIMELINE_CREATE=no`: no new snapshots are taken (red
        # team round 10: backups turned off through the tool's own setter)
        return Verdict(C, "cli-backup-off", "snapper set-config stops taking snapshots")
    if sub == "delete-config":
        # libsnapper's deleteConfig deletes every snapshot of the config, then its
        # .snapshots subvolume: every backup deleted is blocked (HELPERS.md; review 11,
        # finding 17)
        return Verdict(
            B, "cli-backup-delete", "snapper delete-config deletes every snapshot of the config"
        )
    if sub in names("list ls list-configs status diff xadiff get-config help"):
        return SAFE_READ
    return None


def _asr(args: Sequence[str], path: Path) -> Verdict | None:
    """macOS asr(8): help and version only print; `imagescan` writes checksums into the
    image; `restore … --erase` is the erase-option rule's (n10u)."""
    if (args[:1] and args[0] in ("help", "version")) or _has(args, "--help", "-h", "-help"):
        return SAFE_READ
    return None


def _backups_deleted_when_off(program: str, why: str) -> Judge:
    def judge(args: Sequence[str], path: Path) -> Verdict | None:
        if path.kind == "off" and backup_noun(path.nouns):
            return Verdict(B, "cli-backup-delete", f"{program}: {why}")
        return None

    return judge


def _svn(args: Sequence[str], path: Path) -> Verdict | None:
    sub = path.words[0] if path.words else ""
    if sub == "revert":
        return Verdict(D, "cli-delete", "svn revert discards the local changes for good")
    if sub == "cleanup" and _has(args, "--remove-unversioned", "--remove-ignored"):
        return Verdict(D, "cli-delete", "svn cleanup deletes unversioned (or ignored) files")
    if sub in names("status st stat log diff di info list ls cat blame praise annotate ann"):
        return SAFE_READ
    return None


def _svnadmin(args: Sequence[str], path: Path) -> Verdict | None:
    sub = path.words[0] if path.words else ""
    if sub in names("verify lslocks lstxns info youngest"):
        return SAFE_READ
    if sub == "rmtxns":
        return Verdict(D, "cli-delete", "svnadmin rmtxns deletes transactions")
    return None


def _nodetool(args: Sequence[str], path: Path) -> Verdict | None:
    sub = path.words[0].lower() if path.words else ""
    if sub == "clearsnapshot":
        if _has(args, "--all") or not _has(args, "-t", "--tag"):
            return Verdict(B, "cli-backup-delete", "nodetool clears every snapshot (the backups)")
        return Verdict(D, "cli-delete", "nodetool clearsnapshot deletes a named snapshot")
    if sub in ("decommission", "removenode", "assassinate", "truncatehints"):
        return Verdict(D, "cli-delete", f"nodetool {sub} takes a node's data out of the cluster")
    if sub in names(
        "status info ring describecluster describering listsnapshots tablestats cfstats"
        " tpstats compactionstats netstats gossipinfo version getendpoints"
    ):
        return SAFE_READ
    return None


def _sqlite3(args: Sequence[str], path: Path) -> Verdict | None:
    # sqlite3 dot-commands that write files: .backup, .save, .output/.once, .import.
    if any(re.match(r"^\s*\.(backup|save|output|once|import|restore|clone)\b", a) for a in args):
        return Verdict(M, "cli-write", "sqlite3 writes a file (a dot-command)")
    return None


_ESSENTIAL = frozenset(
    names(
        """
        libc6 glibc libc-bin systemd systemd-sysv coreutils bash dpkg rpm pacman base
        filesystem util-linux login passwd apt dnf yum sudo linux-image linux init
        base-files libselinux glibc-common musl busybox portage baselayout openrc zypper
        libzypp apk-tools xbps runit-void
        """
    )
)
_PAST_PROTECTION = re.compile(
    r"^(?:--allow-remove-essential|--nodeps|--force-remove-essential|--force-depends"
    r"|--force-all|--force-remove-protected"  # (b12) dpkg's everything-goes switch
    r"|--setopt=protected_packages=.*|-R?dd\w*|-\w*dd|--nodeps\S*|--force-broken-world"
    r"|-F|--force-revdeps)$"
)
# Package managers that remove what depends on a package, or ignore dependencies, instead of
# refusing (zypper(8) `remove` takes the dependents with it; emerge(1) `--unmerge` checks no
# dependencies): an essential package named to them is removed without any override flag.
_UNPROTECTED = frozenset(names("zypper emerge"))
# Options that make a package manager remove (any manager not listed in `_REMOVE_BY`).
_REMOVE_OPTION = re.compile(r"^(?:--erase|--unmerge|--remove|--rage-clean)$")
# A manager's own removal options: an operation letter means something else elsewhere
# (`rpm -q -R` lists requirements, `emerge -e` rebuilds everything, `emerge -aC` unmerges).
_REMOVE_BY: dict[str, re.Pattern[str]] = {
    "pacman": re.compile(r"^(?:-R[A-Za-z]*|--remove)$"),  # the operation letter leads
    "yay": re.compile(r"^(?:-R[A-Za-z]*|--remove)$"),
    "paru": re.compile(r"^(?:-R[A-Za-z]*|--remove)$"),
    "rpm": re.compile(r"^(?:-e[A-Za-z]*|--erase)$"),
    "emerge": re.compile(r"^(?:-[A-Za-z]*C[A-Za-z]*|--unmerge|--rage-clean)$"),
    "dpkg": re.compile(r"^(?:-[rP]|--remove|--purge)$"),
}
# Options that only query, whatever else is given (`rpm -q -R`, `pacman -Q`).
_QUERY_BY: dict[str, re.Pattern[str]] = {
    "rpm": re.compile(r"^(?:-[A-Za-z]*q[A-Za-z]*|--query)$"),
}
_PRETEND = frozenset(names("--pretend -p --simulate -s --dry-run --dryrun --print"))
# A manager's own dry-run spellings (`zypper remove -D` = `--dry-run`, `emerge -pC`).
_PRETEND_BY: dict[str, re.Pattern[str]] = {
    "zypper": re.compile(r"^-D$"),
    "emerge": re.compile(r"^-[A-Za-z]*p[A-Za-z]*$"),
}
_PACKAGE_HELP = frozenset(("--help", "-h", "-?", "help"))
# Package managers `shape.package_manager` does not name.
_MORE_PACKAGE_MANAGERS = frozenset(names("apk apk.static"))


def _package_base(op: str) -> str:
    """`sys-libs/glibc-2.39` -> glibc, `libc6:amd64` -> libc6, `=sys-apps/portage-3.0` ->
    portage."""
    base = op.lstrip("=<>~").split(":")[0].split("=")[0].rsplit("/", 1)[-1]
    return re.sub(r"-\d[\w.+~-]*$", "", base)


def _packages(args: Sequence[str], path: Path, name: str = "") -> Verdict | None:
    ops = [a for a in args if not a.startswith("-")]
    remove = _REMOVE_BY.get(name, _REMOVE_OPTION)
    removing = (
        path.kind in ("destroy",)
        or any(remove.match(a) for a in args[:3])
        or shape.name_verb(name) in ("remove", "uninstall", "erase")  # `xbps-remove`
    )
    if not removing:
        return None
    named = [p for p in ops if _package_base(p) in _ESSENTIAL]
    if not named or any(a in _PRETEND or a in _PACKAGE_HELP for a in args):
        return None
    query = _QUERY_BY.get(name)
    pretend = _PRETEND_BY.get(name)
    if (query is not None and any(query.match(a) for a in args)) or (
        pretend is not None and any(pretend.match(a) for a in args)
    ):
        return None
    if name in _UNPROTECTED:
        return Verdict(
            B,
            "cli-package-essential",
            f"{name} removes the essential package {named[0]} (and what depends on it)"
            " without refusing: the system stops working",
        )
    if any(_PAST_PROTECTION.match(a) for a in args):
        return Verdict(
            B,
            "cli-package-essential",
            f"removes the essential package {named[0]} past the package manager's protection:"
            " the system stops working",
        )
    return None


def _app_data(args: Sequence[str], path: Path) -> Verdict | None:
    # flatpak uninstall --delete-data, brew uninstall --zap, snap remove --purge: the
    # application's own data (settings, documents kept in its folder) is deleted with it.
    if path.verb not in ("uninstall", "remove", "rm") and not (
        path.words[:1] and path.words[0] in ("uninstall", "remove")
    ):
        return None
    if _has(args, "--delete-data", "--zap") or (
        path.words[:1] == ("remove",) and "--purge" in args
    ):
        return Verdict(D, "cli-app-data", "deletes the application's data along with it")
    return None


def _trash(args: Sequence[str], path: Path) -> Verdict | None:
    return SAFE_READ


def _veeam_backup(args: Sequence[str], path: Path) -> Verdict | None:
    # Remove-VBRBackup: without -FromDisk only the records leave Veeam's configuration
    # database; the backup files stay (and can be imported again).
    if any(a.lower().startswith("-fromdisk") for a in args):
        return None
    return Verdict(D, "cli-delete", "Remove-VBRBackup forgets the backup (its files stay)")


def _rclone(args: Sequence[str], path: Path) -> Verdict | None:
    # rclone-cleanup(1): empties the remote's trash and deletes old object versions.
    if path.words[:1] == ("cleanup",) and not _has(args, "--dry-run", "-n", "-i"):
        return Verdict(D, "cli-delete", "rclone cleanup deletes the remote's trash, old versions")
    return None


def _uninstalls_cluster(args: Sequence[str], path: Path) -> Verdict | None:
    # The uninstall scripts delete the node's cluster state, containers and volumes.
    return Verdict(D, "cli-delete", "the uninstall script deletes the cluster's data on this node")


def _gsutil(args: Sequence[str], path: Path) -> Verdict | None:
    # gsutil rm -a: every noncurrent version (generation) too; with -r or a `**`/`*` URL,
    # of every object: the older copies kept for recovery are gone.
    if path.words[:1] != ("rm",) or "-a" not in args:
        return None
    if _has(args, "-r", "-R") or any(a.endswith(("/**", "/*")) for a in args):
        return Verdict(
            B, "cli-backup-delete", "gsutil rm -a deletes every version of every object it names"
        )
    return None


def _duplicity_reads(args: Sequence[str], path: Path) -> Verdict | None:
    if path.words[:1] and path.words[0] in ("collection-status", "list-current-files", "verify"):
        return SAFE_READ
    return _duplicity(args, path)


# A program's own documented dry run, preview or listing flag (session 8: safe).
_DRY = {
    "rclone": ("--dry-run", "-n"),
    "restic": ("--dry-run", "-n"),
    "borg": ("--dry-run", "-n"),
    "trash-empty": ("--dry-run",),
    "hg": ("--dry-run", "-n", "--print"),
    "pacman": ("--print", "-p"),
    "dnf": ("--assumeno",),
    "yum": ("--assumeno",),
    "paccache": ("-d", "--dryrun"),
    "nix-collect-garbage": ("--dry-run",),
    "s3cmd": ("--dry-run", "-n"),
    "mc": ("--dry-run",),
    "oci": ("--dry-run",),
    "az": ("--dryrun", "--dry-run"),
    "flatpak": ("--dry-run",),
    "velero": ("--dry-run",),
    "act": ("-l", "--list", "-n", "--dryrun"),  # (h19) lists the workflows' jobs; a dry run
}


@attrs.frozen(slots=True)
class Entry:
    """What one program's reference pages say, beyond the shapes."""

    page: str
    judge: Judge | None = None
    # The path has no verb and names a kind of resource: the program lists them
    # (`ibmcloud is instances`, `linode-cli linodes`).
    bare_lists: bool = False
    # The handler's own "may change something" rules a documented read may drop.
    lowers: frozenset[str] = frozenset()
    # (h19) Subcommands this program's reference documents as read-only that the shared
    # verb table does not hold (`istioctl analyze`, `hubble observe`, `promtool tsdb
    # analyze`): a path with no changing or destroying verb that names one only reads.
    reads: frozenset[str] = frozenset()
    # (h19) Its subcommand paths read verb first, resource type after (`kn route list`,
    # `linkerd viz stat deploy`): the first verb word of the path is the action.
    verb_first: bool = False


def _cluster_uninstall(what: str) -> Judge:
    """(h19) A cluster add-on's own `uninstall` removes it (its control plane, CRDs and
    what they manage) from the cluster, like `helm uninstall` (dangerous); the other
    subcommands are left to the shapes."""

    def judge(args: Sequence[str], path: Path) -> Verdict | None:
        if path.words[:1] == ("uninstall",) or path.words[:2] == ("x", "uninstall"):
            return Verdict(D, "cli-delete", f"uninstall removes {what} from the cluster")
        return None

    return judge


def _dapr(args: Sequence[str], path: Path) -> Verdict | None:
    # dapr-uninstall: `--all` also deletes the Dapr folder (~/.dapr) and its containers;
    # `-k` removes Dapr from the cluster. Plain `dapr uninstall` removes the local runtime
    # binaries only (an uninstall, left as the generic moderate).
    if path.words[:1] == ("uninstall",) and _has(args, "--all", "-k", "--kubernetes"):
        return Verdict(D, "cli-delete", "dapr uninstall deletes Dapr's data and containers")
    return None


def _reads_named(entry: Entry, path: Path) -> bool:
    """The program's leading verb is a read (a documented read subcommand of its own or a
    shared read verb), and nothing in the path destroys: these CLIs put the resource type
    after the verb (`linkerd viz stat deploy`, `kn route list`), so a later word that is
    also a verb (`deploy`) is the noun, not the action."""
    if not entry.verb_first or path.kind in ("destroy", "weak", "off"):
        return False
    for w in path.words:
        low = w.lower()
        if low in entry.reads or low in READ:
            return True
        if any(_kind(p) for p in parts(w)):
            return False  # the first verb changes something
    return False


# (h19) Kubernetes-ecosystem command-line tools (CNCF projects' quick starts): their list,
# get, status, check and documented inspection subcommands only read the cluster; installs,
# syncs and port-forwards stay moderate; delete verbs are dangerous (the shapes).
_K8S_TOOL_READS: dict[str, tuple[str, str, Judge | None]] = {
    "argocd": (
        "https://argo-cd.readthedocs.io/en/stable/user-guide/commands/argocd/",
        "diff history manifests resources",
        None,
    ),
    "istioctl": (
        "https://istio.io/latest/docs/reference/commands/istioctl/",
        "analyze precheck proxy-status proxy-config verify-install dump",
        _cluster_uninstall("Istio"),
    ),
    # (`linkerd uninstall` only prints the manifests; `| kubectl delete -f -` deletes them)
    "linkerd": (
        "https://linkerd.io/2-edge/reference/cli/",
        "tap edges routes diagnostics authz",
        None,
    ),
    "cilium": (
        "https://docs.cilium.io/en/stable/cmdref/cilium/",
        "observe",
        _cluster_uninstall("Cilium (the cluster's pod network)"),
    ),
    "hubble": (
        "https://docs.cilium.io/en/stable/observability/hubble/hubble-cli/",
        "observe",
        None,
    ),
    "flux": ("https://fluxcd.io/flux/cmd/", "trace tree", _cluster_uninstall("Flux")),
    "cmctl": ("https://cert-manager.io/docs/reference/cmctl/", "inspect", None),
    "tkn": ("https://tekton.dev/docs/cli/", "", None),
    "kn": ("https://knative.dev/docs/client/", "", None),
    "dapr": ("https://docs.dapr.io/reference/cli/", "", _dapr),
    "promtool": (
        "https://prometheus.io/docs/prometheus/latest/command-line/promtool/",
        "analyze test query dump check-config check-rules",
        None,
    ),
    "amtool": (
        "https://github.com/prometheus/alertmanager#amtool",
        "query check-config",
        None,
    ),
    "skaffold": ("https://skaffold.dev/docs/references/cli/", "diagnose render", None),
    "act": ("https://nektosact.com/usage/index.html", "", None),
}


CLIS: dict[str, Entry] = {
    "borg": Entry("https://borgbackup.readthedocs.io/en/stable/usage/delete.html", _borg),
    "borg2": Entry("https://borgbackup.readthedocs.io/en/master/usage/repo-delete.html", _borg),
    "duplicity": Entry(
        "https://duplicity.us/stable/duplicity.1.html",
        _duplicity_reads,
        lowers=frozenset({"write", "backup-delete"}),  # remove-* without --force only lists
    ),
    "kopia": Entry(
        "https://kopia.io/docs/reference/command-line/common/",
        _kopia,
        lowers=frozenset({"write", "backup-delete"}),  # without --delete nothing is deleted
    ),
    "tmutil": Entry("https://ss64.com/mac/tmutil.html", _tmutil, lowers=frozenset({"backup"})),
    "snapper": Entry("http://snapper.io/manpages/snapper.html", _snapper),
    "asr": Entry("https://ss64.com/mac/asr.html", _asr),
    "rclone": Entry("https://rclone.org/commands/rclone_cleanup/", _rclone),
    "remove-vbrbackup": Entry(
        "https://helpcenter.veeam.com/docs/backup/powershell/remove-vbrbackup.html", _veeam_backup
    ),
    "k3s-uninstall.sh": Entry("https://docs.k3s.io/installation/uninstall", _uninstalls_cluster),
    "k3s-agent-uninstall.sh": Entry(
        "https://docs.k3s.io/installation/uninstall", _uninstalls_cluster
    ),
    "rke2-uninstall.sh": Entry("https://docs.rke2.io/install/uninstall", _uninstalls_cluster),
    "linode-cli": Entry(
        "https://techdocs.akamai.com/linode-api/reference/post-cancel-backups",
        _backups_deleted_when_off(
            "linode-cli", "cancelling the Backup service deletes every existing backup"
        ),
        bare_lists=True,
    ),
    "hcloud": Entry(
        "https://docs.hetzner.cloud/reference/cloud#server-actions-disable-backups-for-a-server",
        _backups_deleted_when_off(
            "hcloud", "disabling backups deletes every existing backup of the server"
        ),
    ),
    "gsutil": Entry("https://cloud.google.com/storage/docs/gsutil/commands/rm", _gsutil),
    "svn": Entry("https://svnbook.red-bean.com/en/1.7/svn.ref.html", _svn),
    "svnadmin": Entry("https://svnbook.red-bean.com/en/1.7/svn.ref.svnadmin.html", _svnadmin),
    "nodetool": Entry(
        "https://cassandra.apache.org/doc/latest/cassandra/managing/tools/nodetool/", _nodetool
    ),
    "sqlite3": Entry("https://sqlite.org/cli.html", _sqlite3),
    "apt": Entry("https://manpages.debian.org/apt-get.8", _packages),
    "apt-get": Entry("https://manpages.debian.org/apt-get.8", _packages),
    "dnf": Entry(
        "https://dnf.readthedocs.io/en/latest/command_ref.html",
        _packages,
        lowers=frozenset({"install"}),
    ),
    "yum": Entry("https://man7.org/linux/man-pages/man8/yum.8.html", _packages),
    "rpm": Entry("https://rpm.org/docs/4.19.x/man/rpm.8", lambda a, p: _packages(a, p, "rpm")),
    "pacman": Entry(
        "https://man.archlinux.org/man/pacman.8", lambda a, p: _packages(a, p, "pacman")
    ),
    "zypper": Entry(
        "https://en.opensuse.org/SDB:Zypper_manual", lambda a, p: _packages(a, p, "zypper")
    ),
    "flatpak": Entry(
        "https://docs.flatpak.org/en/latest/flatpak-command-reference.html", _app_data
    ),
    "brew": Entry("https://docs.brew.sh/Manpage", _app_data),
    "snap": Entry("https://snapcraft.io/docs/snap-reference", _app_data),
    "trash-list": Entry("https://github.com/andreafrancia/trash-cli", _trash),
    "ibmcloud": Entry("https://cloud.ibm.com/docs/cli?topic=cli-ibmcloud_cli", bare_lists=True),
    # Programs judged by the shapes alone, named so that their listings and documented dry
    # runs are read as what they are.
    **{
        n: Entry(page)
        for n, page in (
            ("velero", "https://velero.io/docs/main/"),
            ("ctr", "https://github.com/containerd/containerd/blob/main/docs/getting-started.md"),
            ("minikube", "https://minikube.sigs.k8s.io/docs/commands/"),
            ("kind", "https://kind.sigs.k8s.io/docs/user/quick-start/"),
            ("k3s", "https://docs.k3s.io/cli"),
            ("aliyun", "https://www.alibabacloud.com/help/en/cli/"),
            ("oci", "https://docs.oracle.com/en-us/iaas/tools/oci-cli/latest/oci_cli_docs/"),
            ("az", "https://learn.microsoft.com/en-us/cli/azure/reference-index"),
            ("gcloud", "https://cloud.google.com/sdk/gcloud/reference"),
            ("aws", "https://awscli.amazonaws.com/v2/documentation/api/latest/reference/"),
            ("doctl", "https://docs.digitalocean.com/reference/doctl/reference/"),
            ("gio", "https://manpages.debian.org/gio.1"),
            ("gvfs-ls", "https://manpages.debian.org/gvfs-ls.1"),
            ("gvfs-info", "https://manpages.debian.org/gvfs-info.1"),
            (
                "cqlsh",
                "https://cassandra.apache.org/doc/latest/cassandra/managing/tools/cqlsh.html",
            ),
            ("etcdctl", "https://etcd.io/docs/v3.5/dev-guide/interacting_v3/"),
            ("restic", "https://restic.readthedocs.io/en/stable/060_forget.html"),
            ("s3cmd", "https://s3tools.org/usage"),
            ("mc", "https://min.io/docs/minio/linux/reference/minio-mc.html"),
            ("nomad", "https://developer.hashicorp.com/nomad/docs/commands"),
            ("hg", "https://www.mercurial-scm.org/doc/hg.1.html"),
            ("paccache", "https://man.archlinux.org/man/paccache.8"),
            ("nix-collect-garbage", "https://nix.dev/manual/nix/latest/command-ref/"),
            ("trash-empty", "https://github.com/andreafrancia/trash-cli"),
            ("influx", "https://docs.influxdata.com/influxdb/v2/reference/cli/influx/"),
            (
                "openstack",
                "https://docs.openstack.org/python-openstackclient/latest/cli/command-list.html",
            ),
            ("atlas", "https://www.mongodb.com/docs/atlas/cli/current/"),
            ("govc", "https://github.com/vmware/govmomi/blob/main/govc/USAGE.md"),
            ("pct", "https://pve.proxmox.com/pve-docs/pct.1.html"),
            (
                "wbadmin",
                "https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/wbadmin",
            ),
            ("proxmox-backup-client", "https://pbs.proxmox.com/docs/backup-client.html"),
        )
    },
    **{
        n: Entry(page, judge, reads=frozenset(names(reads)), verb_first=True)
        for n, (page, reads, judge) in _K8S_TOOL_READS.items()
    },
}
# `restic` reads the raw text of its arguments (a `$(restic snapshots)` substitution).
_RAW_JUDGES = {"restic": _restic}

# Rules a handler adds when it only knows "this program may change something": the shapes
# may replace them with what the path says (a read).
_GENERIC_RULES = frozenset(names("unknown-command cloud infra kube-write network"))
# ... and, for a program that is not one of the service managers system.py reads by name,
# its generic `…ctl` reading ("changes services") and a database client's "opens a session".
_LOOSE_RULES = _GENERIC_RULES | frozenset(names("service db-shell"))
_SERVICE_MANAGERS = frozenset(names("systemctl service launchctl rc-service sv"))


_CMDLET = re.compile(r"\A[a-z]{2,20}-[a-z][a-z0-9]{0,60}\Z")

# --- the hook ---------------------------------------------------------------------------------


# The cheap exit in front of `judge` (issue 14's speed bar, sp12a). Every verdict below needs
# one of: a destroying, weakly destroying or turning-off verb in the command path
# (`_VERB_KINDS`); a program read by name (`_named_here`: CLIS, consoles, HTTP clients and
# cmdlets, statement clients, package managers, raw judges); a listing's paths piped into a
# dangerous delete (a backup folder, `_backup_place_wiped`); or one of these words inside an
# argument (lower-cased): what `protection_off` scans for (`_KEEP_LITERALS`), the option
# patterns `_DELETES_BACKUPS`, `_is_delete_option`, `_DELETE_OPTION`, `_RETENTION`,
# `_BACKUP_OFF_OPTION`, `_OLDER_THAN`, an HTTP DELETE, a statement that drops or truncates
# (`_SENT_DESTROY`), a backup folder's name (`_BACKUP_PLACE`). A command with none of them
# (`mkdir -p d7`, `tool -opt3 v`) leaves before the shapes scan its arguments. A new verdict
# path below that does not need one of these must add its word here (or its name to
# `_named_here`), or it is never reached.
_VERB_KINDS = frozenset({"destroy", "weak", "off"})


def _named_here(name: str) -> bool:
    """Whether `judge` reads the program by its name (see `_GATE_WORDS`)."""
    return (
        name in CLIS
        or name in _CONSOLES
        or name in _HTTP_CLIENTS
        or name in _RAW_JUDGES
        or name in _HTTP_CMDLETS
        or name in _STATEMENT_CLIENTS
        or name in _MORE_PACKAGE_MANAGERS
        or shape.package_manager(name)
    )


def judge(cmd: Cmd, mark: int) -> None:
    """Called after the program's handler: `mark` is where this command's findings start."""
    if not ENABLED or cmd.words[0].dynamic:
        return
    name = cmd.name.lower()
    if name.endswith(".exe"):
        name = name[:-4]
    args = [w.text for w in cmd.args]
    findings = cmd.scope.findings
    # (the worst level of this command's findings: none or one in most commands)
    new = len(findings) - mark
    worst = (
        RiskLevel.SAFE
        if new <= 0
        else findings[mark].level
        if new == 1
        else max([f.level for f in findings[mark:]])
    )
    if worst >= B:
        return
    if name == "aws" and args[:2] == ["configure", "set"] and len(args) > 3:
        # (n19u) `aws configure set [profile.P.]credential_process CMD`: the CLI (and every
        # SDK) runs CMD to get credentials from now on: a persisted command, judged as code
        key = args[2].rsplit(".", 1)[-1]
        if key == "credential_process":
            from aintern_ls.safety.registry import run_config_command

            run_config_command(cmd, cmd.args[3], "aws credential_process")
            if all(f.level < RiskLevel.CRITICAL for f in findings[mark:]):
                reason = "aws will run this command for credentials (persisted)"
                cmd.add(RiskLevel.CRITICAL, "config-exec", reason, cmd.args[3])
    shift = 0  # (a cmdlet's path starts at its own name, one before `args`: safety-f9)
    if cmd.scope.family == "powershell" and _CMDLET.fullmatch(name):
        path = command_path([cmd.words[0].text, *args])  # `Remove-FooBackupSet`: the verb
        shift = 1
    else:
        path = command_path(args)
    if (
        path.kind not in _VERB_KINDS
        and not (worst == D and cmd.stdin.paths)
        and not _named_here(name)  # (set lookups before the scan of the arguments)
        and not _gate_word_in(cmd.argv.joined_low)
    ):
        return  # (nothing below can judge it: see `_GATE_WORDS`)
    budget.spend(budget.CLI_SHAPE_STEPS)  # (the shapes below run: a dozen scans of the words)
    if worst == D and _backup_place_wiped(cmd, path, findings[mark:], shift):
        return
    if worst == D and name == "az" and _az_backup_container(cmd):
        return
    if name in _CONSOLES and _console_input(cmd, name):
        return
    if path.kind == "destroy" and _listing_file(cmd, args):
        return
    if name in _HTTP_CLIENTS and worst < C and _rest_call(cmd, name, args):
        return
    entry = CLIS.get(name)
    verdict: Verdict | None = None
    if entry is not None and entry.judge is not None:
        verdict = entry.judge(args, path)
    if (
        verdict is None
        and entry is None
        and (shape.package_manager(name) or name in _MORE_PACKAGE_MANAGERS)
    ):
        verdict = _packages(args, path, name)  # any package manager: essential packages
    if verdict is None and name in _RAW_JUDGES:
        raw = cmd.scope.source[cmd.start : cmd.end] if cmd.scope.source else " ".join(args)
        verdict = _RAW_JUDGES[name](args, path, raw)
    if verdict is None and name in _HTTP_CMDLETS:
        verdict = _http_backup_delete(args)  # `Invoke-RestMethod -Method Delete -Uri …/*`
    if verdict is None:
        verdict = _every_listed(cmd, path, own_nouns(name, path, findings[mark:]))
    if verdict is None:
        # (no argument starting with `-` or `/`: no option the shapes scan for can match)
        opts = args if cmd.argv.switched else ()
        verdict = _by_shape(name, args, path, worst, findings[mark:], cmd.scope.family, opts, cmd)
    if (
        verdict is None
        and entry is not None
        and (
            _dry(name, args)
            or _reads(path)
            or _reads_named(entry, path)
            or (entry.bare_lists and _bare_list(path))
        )
    ):
        verdict = SAFE_READ
    if verdict is None:
        return
    if verdict.level == RiskLevel.SAFE:
        _lower(cmd, mark, entry.lowers if entry is not None else frozenset())
        return
    if verdict.level > worst:
        cmd.add(verdict.level, verdict.rule, verdict.reason)


# --- backups turned off, in any spelling (bk9) ------------------------------------------------
# What keeps older copies: backups, versioning, soft delete, point-in-time recovery, automatic
# snapshots, object lock, a recycle bin, restore points. An option or `Key=value` that turns
# one of them off (`--no-versioning`, `--clear-soft-delete`, `--enable-delete-retention
# false`, `--soft-delete-feature-state Disable`, `PointInTimeRecoveryEnabled=false`,
# `com.sun:auto-snapshot=false`, `Status=Suspended` on versioning, a long-term retention of
# P0W), a verb that turns it off (`versioning set off`, `Disable-VBRJob`, `velero schedule
# pause`), or a destroying verb on what schedules the copies (a backup plan, policy,
# schedule, selection, job or rule: `aws backup delete-backup-plan`, `Remove-VBRJob`, `aws
# dlm delete-lifecycle-policy`) means no new copy is kept from now on: critical, as
# `tmutil disable` (HELPERS: backups turned off).
_KEEPS = (
    r"versioning|soft[-_]?delete|delete[-_]?retention|point[-_]?in[-_]?time[-_]?recovery|pitr"
    r"|auto[-_]?snapshots?|object[-_]?lock|mfa[-_]?delete|continuous[-_]?backups?"
    r"|recycle[-_]?bin|restore[-_]?points?|system[-_]?restore|change[-_]?feed"
)
# (the broad words only count for a program judged generically: `cp --backup=off`,
# `hg revert --no-backup` mean a local file's copy)
_KEEPS_BROAD = r"backups?|snapshots?|retention"
_KEEP_WORD = re.compile(rf"(?i)(?:{_KEEPS})")
# A substring every match of `_KEEP_WORD_BROAD` holds (the cheap necessary condition).
_KEEP_LITERALS = (
    "version",
    "delet",
    "retention",
    "recovery",
    "pitr",
    "snapshot",
    "backup",
    "lock",
    "recycle",
    "restore",
    "feed",
)
# (`judge`'s cheap exit: a command holding none of these words, see its note)
_GATE_LITERALS = tuple(
    dict.fromkeys(
        (
            *_KEEP_LITERALS,
            *("delet", "remov", "purg", "older", "drop", "truncat", "backup", "snapshot", "dlm"),
            *("bkp", "bak"),  # (n18u: `db-bkp`, `nightlybkp`, `db_bak` name backups too)
            "filehistory",  # (n17w: File History's store folder)
        )
    )
)
# a backup tool's repository by name (`_BACKUP_REPO`: `/srv/restic-repo`)
_GATE_REPO = (
    r"(?:restic|borg|kopia|duplica|bup|rsnapshot|timeshift|urbackup|bacula|bareos"
    r"|veeam|tarsnap|rdiff|burp|zbackup|attic)[-_.]?(?:repo|store|archive)"
)
_GATE_WORDS = re.compile("|".join((*_GATE_LITERALS, _GATE_REPO)))
_GATE_REPO_WORD = re.compile(_GATE_REPO)


def _gate_word_in(low: str) -> bool:
    """`_GATE_WORDS.search(low)`, without the alternation (s20, s20b): it tries every
    literal at every character (0.3 µs a character: 3 ms for the 10,000-character `sudo
    sudo … ls`, asked again at each of its wrapper levels; 10 µs for an ordinary 42-character
    command), while a scan per literal runs at memory speed (6 µs for the same command:
    measured over the bench's 3000 commands, where 86 % hold no gate word). The literals
    are plain text and the repository words need one of `repo`, `store`, `archive`."""
    if any(map(low.__contains__, _GATE_LITERALS)):
        return True
    return ("repo" in low or "store" in low or "archive" in low) and _GATE_REPO_WORD.search(
        low
    ) is not None


_KEEP_WORD_BROAD = re.compile(rf"(?i)(?:{_KEEPS}|{_KEEPS_BROAD})")
_OFF_PREFIX = re.compile(r"(?i)\A(?:--?|/)(?:no|clear|disable|remove|delete)[-_]?(?=[a-z])")
_OFF_VALUE_ANY = re.compile(
    r"(?i)(?:\A|[=:])(?:false|\$false|0|no|off|none|disabled?|suspend(?:ed)?|p0[dwmy]|pt0[sm])"
    r"['\"]?\Z"
)
# Service words naming a backup service when they lead a path or a cmdlet's noun.
_BACKUP_CONTEXT = frozenset(
    names(
        """
        backup backups snapshot snapshots vbr wb dlm slm rbin ltr str pitr recovery recoverypoint
        restorepoint dataprotection backupvault snapshotschedule snapshotschedules
        """
    )
)
# What schedules or selects the copies: destroying it stops them.
_SCHEDULES = frozenset(
    names(
        """
        plan plans policy policies schedule schedules selection selections job jobs rule rules
        lifecycle task tasks timer timers
        """
    )
)
_BACKUP_NAMED = re.compile(
    r"(?i)backup|snapshot|shadow|restore-?point|(?:^|[-_.])snaps?(?:$|[-_.])"
)


# Words around the copies' name in an option (`--enable-`, `-Is…Enabled`, `…-feature-state`,
# `--weekly-retention`): `--soft-delete-feature-state` names soft delete, while
# `--copy-tags-to-snapshot` names tags (the snapshot is not what is switched).
_KEY_LEAD = frozenset(
    names(
        """
        enable enabled is automated auto allow use keep weekly monthly yearly daily hourly
        container blob share file default
        """
    )
)
_KEY_TAIL = frozenset(
    names(
        """
        enabled enable state feature status days period duration configuration config policy
        mode setting settings specification spec retention
        """
    )
)


def _names_copies(key: str, words: re.Pattern[str]) -> bool:
    """Whether an option's name is the copies' own switch (see `_KEY_LEAD`, `_KEY_TAIL`)."""
    ps = [p.lower() for p in re.split(r"[-_\s]+", _CAMEL.sub(" ", key)) if p]
    while ps and ps[0] in _KEY_LEAD and not words.fullmatch("-".join(ps)):
        ps.pop(0)  # (`auto-snapshot` is itself a name of the copies)
    while ps:
        if words.fullmatch("-".join(ps)):
            return True
        if ps[-1] not in _KEY_TAIL:
            return False
        ps.pop()
    return False


def protection_off(
    name: str,
    args: Sequence[str],
    opts: Sequence[str],
    path: Path,
    nouns: Sequence[str],
    broad: bool,
) -> str | None:
    """What turns the copies off, or None."""
    words = _KEEP_WORD_BROAD if broad else _KEEP_WORD
    # (substring tests over the joined words before any regex or per-word loop: a long
    # argument list at every wrapper level costs one C-level scan, `sudo sudo … sudo`)
    blob = "\n".join(args).lower() if args else ""
    scan = args if any(k in blob for k in _KEEP_LITERALS) else ()
    for i, a in enumerate(scan):
        if len(a) > 200 or not words.search(a):
            continue
        key, eq, value = a.partition("=")
        if a.startswith(("-", "/")):
            m = _OFF_PREFIX.match(key)
            if m is not None and _names_copies(key[m.end() :], words) and not eq:
                return a
            if not _names_copies(key.lstrip("-/"), words) or _GNU_BACKUP_OFF.match(a):
                continue
            if not eq and i + 1 < len(args) and not args[i + 1].startswith("-"):
                value = args[i + 1]
            elif not eq:
                continue
            if _OFF_VALUE_ANY.search(value.strip("'\"")):
                if re.search(r"(?i)retention", key) and not (
                    broad or any(n in _BACKUP_CONTEXT for n in nouns)
                ):
                    continue
                return f"{key} {value}".strip()
        elif (
            eq
            and any(_names_copies(part, _KEEP_WORD) for part in re.split(r"[:.]", key)[-2:])
            and _OFF_VALUE_ANY.search(a)
        ):
            # `PointInTimeRecoveryEnabled=false`, `com.sun:auto-snapshot=false`, and the
            # per-schedule property `com.sun:auto-snapshot:daily=false` (n11u)
            return a
    context = any(n in _BACKUP_CONTEXT for n in nouns) or shape.backup_tool(name)
    if context and any(k in blob for k in ("state", "status", "enabled")):
        # `aws dlm update-lifecycle-policy --policy-id p --state DISABLED`: the backup
        # service's policy or job is switched to a disabled state (red team round 12)
        for i, a in enumerate(args[:64]):
            key, eq, value = a.partition("=")
            if key.lower().lstrip("-") not in _STATE_KEYS:
                continue
            if not eq and i + 1 < len(args):
                value = args[i + 1]
            if _OFF_STATE.fullmatch(value.strip("'\"")):
                return f"{key} {value}".strip()
    if path.kind == "off" and not any(n in _NOT_THE_COPIES for n in nouns):
        joined = "-".join(nouns)
        values = [a for a in args if not a.startswith(("-", "/")) and len(a) < 60]
        if (
            context
            or _KEEP_WORD.search(joined)
            or name in _BACKUP_SERVICES
            or any(_KEEP_WORD.fullmatch(v) for v in values)  # `--add-on-type AutoSnapshot`
        ):
            return " ".join(path.words) or name
    schedules = [n for n in nouns if n in _SCHEDULES]
    if name in _POLICY_FALLBACK and all(n in CONFIG_NOUNS for n in schedules):
        schedules = []  # `kopia policy delete /srv/www`: the path falls back to the global policy
    if path.kind in ("destroy", "off") and schedules:
        after = [a for i, a in enumerate(args) if path.at < 0 or i > path.index[path.at]][:8]
        named = any(
            _BACKUP_NAMED.search(a.partition("=")[2] if a.startswith("-") else a) for a in after
        )
        if context or name in _BACKUP_SERVICES or named:
            what = " ".join(path.words) or name
            return f"{what} (what takes the copies is deleted or stopped)"
    return None


# A policy's or job's state option and the values that switch it off (`--state DISABLED`).
_STATE_KEYS = frozenset(names("state status enabled is-enabled"))
_OFF_STATE = re.compile(r"(?i)disabled?|false|off|suspended|paused|inactive|0|no")


# Backup tools whose policies are per-path settings over a global one (kopia-policy(1)).
_POLICY_FALLBACK = frozenset(names("kopia"))
# What an off verb may be aimed at besides the copies themselves (`disable-snapshot-block-
# public-access` turns a guard off, not the snapshots).
_NOT_THE_COPIES = frozenset(
    names(
        """
        access public block sharing share encryption alert alerts notification notifications
        report reports monitoring metric metrics log logs logging export permission
        permissions fast
        """
    )
)
# Programs whose business is backups (by their documented pages), beyond `shape.backup_tool`.
_BACKUP_SERVICES = frozenset(names("velero wbadmin bconsole atlas"))


# Backup consoles that read their commands from stdin (`echo "delete volume=X yes" |
# bconsole`): Bacula/Bareos `delete volume|jobid` removes backups from the catalog (their
# data can no longer be restored by the director); `disable job` stops a backup job.
_CONSOLES = frozenset(names("bconsole bareos-console"))
_CONSOLE_DELETE = re.compile(r"(?im)^\s*(?:delete|purge)\s+(?:volume|jobid|jobs?|pool)\b")
_CONSOLE_OFF = re.compile(r"(?im)^\s*disable\s+(?:job|schedule|client)\b")


def _console_input(cmd: Cmd, name: str) -> bool:
    text = cmd.stdin.text
    if not text or len(text) > 4000:
        return False
    if _CONSOLE_DELETE.search(text):
        cmd.add(
            B, "cli-backup-delete", f"{name} deletes backups (volumes or jobs) from the catalog"
        )
        return True
    if _CONSOLE_OFF.search(text):
        cmd.add(C, "cli-backup-off", f"{name} disables a backup job: no new backup is taken")
        return True
    return False


# A listing of every backup/snapshot/version saved to a file, then handed to a delete
# (`aws s3api list-object-versions … > v.json && aws s3api delete-objects --delete
# file://v.json`): every copy the listing printed is deleted.
_FILE_REF = re.compile(r"\A(?:fileb?://|@)([\w./~-]{1,200})\Z")


def _listing_file(cmd: Cmd, args: Sequence[str]) -> bool:
    source = cmd.scope.source
    if not source or ">" not in source or len(source) > 20000:
        return False
    for a in args:
        m = _FILE_REF.match(a.split("=", 1)[-1] if a.startswith("--") else a)
        if m is None:
            continue
        target = m.group(1)
        for seg in re.split(r"&&|\|\||;|\n", source):
            w = re.search(r"(?<![>&\d])>{1,2}\s*" + re.escape(target) + r"(?:\s|\Z)", seg)
            if w is None:
                continue
            try:
                words = shlex.split(seg[: w.start()])
            except ValueError:
                continue
            if words and shape.lists_every_backup(words[0], words[1:]):
                cmd.add(
                    B,
                    "cli-backup-delete",
                    f"{cmd.name} deletes every backup, snapshot or version a listing wrote to"
                    f" {target}",
                )
                return True
    return False


# HTTP APIs read as a command path (`curl -X DELETE host/_slm/policy/nightly`, `POST
# /_slm/stop`): the method is the verb, the URL's path the nouns.
_HTTP_CLIENTS = frozenset(
    names("curl wget http https xh curlie invoke-restmethod irm invoke-webrequest iwr")
)
_METHOD_OPTIONS = frozenset(names("-x --request -method --method"))


def _rest_call(cmd: Cmd, name: str, args: Sequence[str]) -> bool:
    method = ""
    url = ""
    for i, a in enumerate(args):
        low = a.lower()
        if low in _METHOD_OPTIONS and i + 1 < len(args):
            method = args[i + 1].upper()
        elif low.startswith("-x") and len(a) > 2 and a[2:].isalpha():
            method = a[2:].upper()
        elif low.startswith("--request="):
            method = a.split("=", 1)[1].upper()
        elif name in ("http", "https", "xh") and a.upper() in ("DELETE", "POST", "PUT", "PATCH"):
            method = a.upper()
        elif (
            not url
            and not a.startswith("-")
            and re.match(r"(?i)\A(?:https?://)?[\w.-]{1,253}(?::\d{1,5})?/", a)
        ):
            url = a
    if method not in ("DELETE", "POST", "PUT") or not url or len(url) > 500:
        return False
    where = re.sub(r"(?i)\Ahttps?://", "", url).split("?", 1)[0]
    comps = [c.lstrip("_").lower() for c in where.split("/")[1:] if c]
    nouns = tuple(p for c in comps for p in parts(c))
    if method == "DELETE":
        kind, verb = "destroy", "delete"
    elif comps and _kind(comps[-1]) == "off":
        kind, verb = "off", comps[-1]
    else:
        return False
    api = Path(tuple(comps), (), verb, kind, -1, nouns)
    off = protection_off(name, (), (), api, nouns, False)
    if off is None:
        return False
    cmd.add(C, "cli-backup-off", f"{name} {method} {where} turns backups off")
    return True


# --- a backup place deleted whole, by any tool (bk9) -------------------------------------------
# A folder, bucket, container or remote whose name says it holds backups (`/var/backups`,
# `D:\\Backups`, `WindowsImageBackup`, `s3://acme-db-backups`, `b2:acme-backups`), deleted
# whole or every entry of it (`rm -rf /var/backups/*`, `rclone purge b2:acme-backups`,
# `gsutil rm -a gs://acme-backups/**`), or mirrored from an empty folder (`rsync --delete
# /tmp/empty/ /mnt/backup/`, `robocopy C:\\empty D:\\Backups /MIR`): the copies to recover
# from are gone (HELPERS: deleting one named backup or every backup is blocked). One file in
# it (`rm /var/backups/dpkg.status.0`) or a filtered cleanup (`find … -mtime +30 -delete`,
# `rclone delete --min-age 30d`) stays the dangerous delete its handler found.
_NAMED_DELETES = frozenset(names("rm delete find-delete cloud-delete rsync-delete cli-delete"))
_PLACE_DELETES = frozenset(
    names("rm delete find-delete cloud-delete rsync-delete cli-delete shape-delete")
)
_BACKUP_PLACE = re.compile(
    r"(?i)\A(?:[\w-]*[-_])?(?:backups?|backupsets?|windowsimagebackup|filehistory|snapshots|baks?|bkps?"
    r"|\.snapshots|backups\.backupdb)(?:[-_][\w-]*)?\Z"
)
# (n10u) The command's own nouns that say its operand is a bucket, container or remote by
# name (`az storage container delete -n vm-backups`, `oci os bucket delete --bucket-name …`,
# `mc rb`, `s3cmd rb`): a bare name is then the place, not a resource of another kind.
_ACCOUNT_NAME_OPTIONS = frozenset(
    names("-name -n --name -accountname --account-name -storageaccountname")
)
# (n14w) a storage account's glued name that says backups: `corpbackups`, `bkpstore01`,
# `nightlybak`, `dbsnapshots` (no dash can separate the word)
# (n18u) `bkp` glued on both sides too (`acmebkpstore`); (r18) only as a name part: at an
# edge or beside a digit/separator, or glued before a storage word (`bkpstore`, `bkpdata`),
# never inside a word (`webkpi`, `subkpmetrics`, `clubkpr`)
_BKP_PART = r"(?<![a-z])bkp|bkp(?![a-z])|bkp(?=s?(?:stor|vault|data|files|blob|bucket|archive))"
_GLUED_BACKUP = re.compile(rf"backup|{_BKP_PART}|bak(?:\d|s?\Z|up)|snapshot")
_PS_SWITCHES = frozenset(names("-force -asjob -whatif -confirm -verbose -debug"))


def _account_positional(args: Sequence[Word]) -> set[int]:
    """A cmdlet's account-name word bound by position: `ResourceGroupName` is position 0 and
    `Name` position 1 (Remove-AzStorageAccount); a resource group given by name leaves the
    name the first positional."""
    positional: list[Word] = []
    group_named = False
    i = 0
    while i < len(args) and i < 16:
        low = args[i].text.lower()
        if low.startswith("-"):
            group_named = group_named or "-resourcegroupname".startswith(low.split(":")[0])
            i += 1 if low in _PS_SWITCHES or ":" in low else 2
            continue
        positional.append(args[i])
        i += 1
    at = 0 if group_named else 1
    return {id(positional[at])} if len(positional) > at else set()


_BUCKET_NOUNS = frozenset(
    names(
        "bucket buckets container containers rb remove-bucket delete-bucket vault share"
        " fs filesystem"  # (n14u) a Data Lake file system (`az storage fs delete -n backups`)
    )
)
_PLACE_OPTIONS = frozenset(
    names(
        """
        --source -s --container-name -c --container --bucket --bucket-name --share-name
        --file-system -f --vault-name --destination-container
        """
    )
)
_ONE_NOUNS = frozenset(names("file blob directory object"))
_ONE_OBJECT = frozenset(names("--name -n --key --blob --blob-name --object --file --path"))
_EVERY_PART = re.compile(r"\A(?:\*+(?:\.\*)?|\{-?\d+\.\.-?\d+(?:\.\.\d+)?\}|\*\*)\Z")
_EMPTY_SOURCE = re.compile(r"(?i)\A(?:empty|blank|null|nothing|void)[\w.-]*\Z")
_NARROWS = re.compile(
    r"(?i)\A(?:-(?:name|iname|path|ipath|regex|mtime|mmin|ctime|newer\w*|size|user|type\s*f)"
    r"|--(?:min-age|max-age|include\S*|exclude\S*|filter\S*|older-than|newer-than|files-from"
    r"|min-size|max-size|pattern)|/(?:minage|maxage|xf|xd)(?::.*)?|-(?:filter|include|exclude))"
    r"(?:=.*)?\Z"
)
_REMOTE = re.compile(r"\A(?:[a-z][\w+.-]*://|[\w.-]{2,}:)", re.I)


# A Windows program's switch (`/MIR`, `/s`, `/maxage:30`); in cmd any `/` word is one, in
# PowerShell a deeper `/srv/backups` is a (Linux pwsh) path (safety-f9).
_SWITCH = re.compile(r"\A/[A-Za-z?][\w?]{0,15}(?::\S*)?\Z")


def _split_place(text: str) -> list[str]:
    return [p for p in re.split(r"[\\/]+|(?<=\w):(?!//)", text) if p]


def backup_place(text: str) -> str | None:
    """The backup folder that `text` names whole (`/var/backups`, `/var/backups/*`,
    `s3://acme-db-backups`, `b2:acme-backups/**`, `/mnt/backup/{1..500}`), or None (also for
    one named file inside one)."""
    # (a cloud bucket or a sync remote of backups purged by name counts too: one named
    # backup is blocked, whatever holds it; the session-12 convention)
    if len(text) > 400 or text.startswith("-"):
        return None
    if _SCHEDULER_ENTRY.match(text):
        return None  # `/etc/cron.d/backup`: a backup job's schedule, not a backup (n12u)
    parts = _split_place(text)
    while parts and _EVERY_PART.match(parts[-1]):
        parts.pop()
    if parts and "snap" in parts[-1].lower() and shape.build_snapshots(parts[-1]):
        return None  # (n18u) `maven-snapshots`: an artifact repository, not backups
    if parts and _BACKUP_PLACE.match(parts[-1]):
        return parts[-1]
    if parts and "." not in parts[-1] and _GLUED_FOLDER.search(parts[-1].lower()) is not None:
        # (n18u) a folder whose name glues the backup word to another (`dbbackups`,
        # `backups2023`, `nightlybkp`): one named backup, as `db-backups` is
        return parts[-1]
    if parts and _BACKUP_REPO.match(parts[-1]):
        return parts[-1]  # `/srv/restic-repo`: a backup tool's repository (every archive)
    if (
        len(parts) == 3
        and text[:2] in ("\\\\", "//")
        and _share_says_backups(parts[1])
        and "." not in parts[2]
    ):
        # (n18w) `rd /s /q \\nas\backups\web01`: one named backup folder of a share whose
        # name says backups (a per-server folder: one named backup is blocked)
        return parts[2]
    if len(parts) == 2 and text[:2] in ("\\\\", "//") and _share_says_backups(parts[1]):
        return parts[1]  # `\\srv\bkp$`: a hidden share that says backups
    if len(parts) > 1 and _BACKUP_PLACE.match(parts[-2]) and _REPO_IN_PLACE.match(parts[-1]):
        # `/mnt/backup/kopia-repo`, `/mnt/backups/borg`: a backup tool's repository (or a
        # repository) inside a backup folder is every archive it holds (b12)
        return parts[-1]
    return None


def _share_says_backups(share: str) -> bool:
    """A share's name says backups: `backups`, `db-bkp$`, or glued to another word or a
    tool's name (`VeeamBackup`, `SQLBackups$`: n19w, as a folder's name is read)."""
    name = share.rstrip("$")
    return bool(_BACKUP_PLACE.match(name)) or (
        "." not in name and _GLUED_FOLDER.search(name.lower()) is not None
    )


_REPO_TOOLS = (
    r"(?:restic|borg|borgbackup|kopia|duplicacy|duplicati|duplicity|bup|rsnapshot|timeshift"
    r"|urbackup|bacula|bareos|veeam|tarsnap|rdiff-backup|burp|zbackup|attic|restic-server)"
)
_BACKUP_TOOL_WORD = re.compile(_REPO_TOOLS)
_BACKUP_REPO = re.compile(
    rf"(?i)\A{_REPO_TOOLS}[-_.](?:repo|repos|repository|repositories|store|storage|archives?)\Z"
)
_REPO_IN_PLACE = re.compile(
    rf"(?i)\A(?:{_REPO_TOOLS}|[\w.-]*(?:\A|[-_.])(?:repo|repository)(?:[-_.][\w.-]*)?)\Z"
)


# A scheduler's entry file: cron's job folders and spools, periodic(8), launchd's job files,
# systemd's unit folders. One named for backups, removed, stops the backups (red team round 12:
# backups off is critical; no backup is deleted).
_SCHEDULER_ENTRY = re.compile(
    r"\A(?:/etc/cron\.(?:d|daily|hourly|weekly|monthly)|/var/spool/cron(?:/crontabs)?"
    r"|/etc/periodic/\w+|(?:~|/Users/[^/]+)?/Library/Launch(?:Agents|Daemons)"
    r"|/(?:etc|usr/lib|lib)/systemd/(?:system|user))/[^/]+\Z"
)


def _backup_job_removed(cmd: Cmd, operands: Sequence[Word], rules: set[str]) -> bool:
    if "rm" not in rules:
        return False
    for w in operands:
        if not _SCHEDULER_ENTRY.match(w.text):
            continue
        base = _split_place(w.text)[-1]
        if _BACKUP_PLACE.match(base) or "backup" in base.lower():
            cmd.add(C, "backup-off", f"{cmd.name} removes the backup job {base}: backups stop", w)
            return True
    return False


def _backup_account(text: str) -> str | None:
    """The storage account a word names when its name says backup (`prodbackups`,
    `bkpstore01`, a resource id ending `/storageAccounts/nightlybackup`), else None: an
    account's name is letters and digits only, so the word is glued (n14u)."""
    name = text.rstrip("/").rsplit("/", 1)[-1]
    if not name.isalnum() or len(name) > 64:
        return None
    return name if _GLUED_BACKUP.search(name.lower()) else None


# (n17w) a bucket's or container's whole name, bare or as `scheme://name`: its words may be
# glued (`sqlbackups`, `acmebkp01`, `bkp.acme.com`); a maven-style `snapshot` is no backup.
# (n18u) also after an alias or a remote (`mc rb s3/db-backups2024`, `rclone purge
# remote:nightlybkp`): the bucket's own name is the part after it.
_BUCKET_WHOLE = re.compile(
    r"(?i)\A(?:[a-z][\w+.-]*://|[a-z][\w.-]*/(?=[\w.-]+/?\Z)|[a-z][\w.-]+:(?!/))?([\w.-]{3,63})/?\Z"
)
# (`bkp` only as a whole part: at an edge or beside a digit/separator, `acmebkp01`; not
# inside a word, `webkpi`: r17)
_GLUED_BUCKET = re.compile(rf"backup|{_BKP_PART}|bak(?:\d|s?\Z|s?[.-]|up)")


# (n18u) a local folder's name that ends in the backup word glued to another word, or
# followed by a number only: `dbbackups`, `pgbackup`, `nightlybkp`, `backups2023` (not
# `backupninja`, a tool's name, nor `webkpi`)
_GLUED_FOLDER = re.compile(r"\A[a-z0-9]+(?:backups?|bkps?|baks)\d*\Z|\Abackups?\d+\Z")


def _glued_bucket(text: str) -> str | None:
    while text.endswith(("/**", "/*")):  # (n18u) every object of it: `gs://acmebackups/**`
        text = text[: text.rindex("/")]
    m = _BUCKET_WHOLE.match(text)
    if m is None or _GLUED_BUCKET.search(m.group(1).lower()) is None:
        return None
    return m.group(1)


# (n17u) What the az CLI deletes whole that holds backups: a resource group whose name says
# so (`backups-rg`, `rg-bkp-prod`, `db-snapshots`), a resource id (or --resource-type) of a
# backup vault, or a storage account / vault whose own name says backups.
_AZ_BACKUP_NAME = re.compile(
    r"backup|(?<![a-z])bkp|bkp(?![a-z])|(?:^|[-_.])baks?(?:[-_.\d]|\Z)|snapshot"
)
_AZ_BACKUP_TYPE = re.compile(
    r"microsoft\.recoveryservices/vaults|microsoft\.dataprotection/backupvaults|/backupvaults"
)
_AZ_STORE_TYPE = re.compile(r"/(?:storageaccounts|vaults|backupvaults|resourcegroups)/[^/]+/?\Z")
_AZ_GROUP_OPTIONS = frozenset(names("-n --name -g --resource-group"))


def _az_backup_container(cmd: Cmd) -> bool:
    """`az group delete -n backups-rg`, `az resource delete --ids …/backupVaults/v1`: every
    backup the group or vault holds is gone (blocked, session 16/17); a plain project
    group stays dangerous."""
    texts = [w.text for w in cmd.args]
    low = [t.lower() for t in texts]
    ops = [t for t in low if not t.startswith("-")]
    if ops[:2] == ["group", "delete"]:
        for i, t in enumerate(low):
            key, eq, value = t.partition("=")
            if key in _AZ_GROUP_OPTIONS:
                value = value if eq else (low[i + 1] if i + 1 < len(low) else "")
                if _AZ_BACKUP_NAME.search(value.strip("'\"")):
                    cmd.add(
                        B,
                        "delete-backups",
                        f"az group delete removes the resource group {value}, named for"
                        " backups, with everything in it",
                    )
                    return True
        return False
    if ops[:2] != ["resource", "delete"]:
        return False
    for i, t in enumerate(low):
        key, eq, value = t.partition("=")
        if key == "--resource-type":
            value = value if eq else (low[i + 1] if i + 1 < len(low) else "")
            value = "/" + value.strip("'\"") + "/x"
        elif key != "--ids" and not (t.startswith("/subscriptions/") and i):
            continue
        elif key == "--ids" and not eq:
            value = low[i + 1] if i + 1 < len(low) else ""
        elif not eq:
            value = t
        value = value.strip("'\"")
        if _AZ_BACKUP_TYPE.search(value) or (
            _AZ_STORE_TYPE.search(value)
            and _AZ_BACKUP_NAME.search(value.rstrip("/").rsplit("/", 1)[-1])
        ):
            cmd.add(B, "delete-backups", "az resource delete removes a backup vault or store whole")
            return True
    return False


# (n18w) a folder under a variable's folder (`%LOCALAPPDATA%\…\FileHistory\*`,
# `$env:X\backups`): the place named after the variable is known whatever the variable holds
_VAR_PREFIXED = re.compile(r"\A[\"']?(?:%\w+%|\$\{?(?:env:)?\w+\}?)[\\/][^%$`!]+\Z", re.I)


def _backup_place_wiped(cmd: Cmd, path: Path, mine: Sequence[object], shift: int = 0) -> bool:
    low = cmd.argv.joined_low
    if (
        not cmd.stdin.paths
        and low.isascii()
        and "backup" not in low
        and "bak" not in low
        and "bkp" not in low
        and "snapshot" not in low
        and "filehistory" not in low
        and _BACKUP_TOOL_WORD.search(low) is None
    ):
        # (every `_BACKUP_PLACE` name holds one, every `_BACKUP_REPO` name a backup tool's;
        # `re.I` folds more than ASCII)
        return False
    if not any(
        getattr(f, "rule", "") in _PLACE_DELETES and getattr(f, "level", 0) == D for f in mine
    ):
        return False
    words = [w for w in cmd.args if not w.dynamic]
    texts = [w.text for w in words]
    # (PowerShell's `-Path`/`-LiteralPath` name the target itself, not a filter: safety-f9;
    # so does a cmdlet's `-Name`: `Remove-AzStorageContainer -Name backups`, n12w)
    ps = cmd.scope.family == "powershell"
    if any(_NARROWS.match(t) and not (ps and t.lower() in ("-path", "-name")) for t in texts):
        return False
    # (the command's own words up to its verb are no operands: `az backup policy delete`;
    # a cmdlet's own name is its verb, before every argument: safety-f9)
    verb_at = path.index[path.at] - shift if path.at >= 0 else -1
    operands = [
        w
        for i, w in enumerate(cmd.args)
        if i > verb_at
        and (not w.dynamic or _VAR_PREFIXED.match(w.text) is not None)
        and not w.text.startswith("-")
        and not (cmd.scope.family != "bash" and _SWITCH.match(w.text))
    ]
    # (a listing piped in: `Get-ChildItem \\nas\backups -Recurse | Remove-Item`)
    operands += [w for w in cmd.stdin.paths if not w.dynamic and not shape.every_selector(w.text)]
    rules = {getattr(f, "rule", "") for f in mine}
    mirror = (
        "rsync-delete" in rules
        or any(t.lower() in ("/mir", "/purge") for t in texts)
        or (
            path.verb in ("sync", "mirror")
            or (path.words[:1] and path.words[0] in ("sync", "mirror"))
        )
    )
    hit: Word | None = None
    place: str | None = None
    if mirror:
        # a destination made equal to an empty source: every entry of it deleted
        paths = operands
        if len(paths) >= 2:
            src = _split_place(paths[-2].text)
            if src and _EMPTY_SOURCE.match(src[-1]):
                place, hit = backup_place(paths[-1].text), paths[-1]
    else:
        # (n13w) a storage account holds containers: `Remove-AzStorageAccount -Name
        # corpbackups` (its name cannot hold a dash: the word may be glued). (n14u) The az
        # CLI's `az storage account delete -n prodbackups` / `--ids …/storageAccounts/X`
        # is blocked by the session-16 convention too (blind5's older row relabelled).
        account = "account" in path.nouns and "storage" in path.nouns
        bucket = account or not _BUCKET_NOUNS.isdisjoint(path.nouns)
        # (n17w) an Azure resource group that says backups (`Remove-AzResourceGroup -Name
        # backups-rg`, `az group delete -n rg-backup`): its vaults and accounts go with it
        bucket = bucket or (
            "group" in path.nouns
            and ("resource" in path.nouns or (path.nouns == ("group",) and cmd.name == "az"))
        )
        if account and bucket and _BUCKET_NOUNS.isdisjoint(path.nouns):
            # (the account's own name, not its resource group's)
            account_named = {
                id(cmd.args[i + 1])
                for i, a in enumerate(cmd.args[:-1])
                if a.text.lower() in _ACCOUNT_NAME_OPTIONS
            }
            if not account_named:
                # (n14w) `Remove-AzStorageAccount rg corpbackups`, `-ResourceGroupName rg
                # corpbackups`: the name is the positional after the resource group's
                account_named = _account_positional(cmd.args)
            operands = [
                w
                for w in operands
                if id(w) in account_named or "/storageaccounts/" in w.text.lower()
            ] + [  # `--name=prodbackups`, `--ids=…` (the attached spelling) (n14u)
                Word(v, w.end - len(v), w.end)
                for w in words
                if "=" in w.text
                and w.text.split("=", 1)[0].lower() in (*_ACCOUNT_NAME_OPTIONS, "--ids")
                and (v := w.text.split("=", 1)[1])
            ]
        # `az storage blob delete-batch --source backups`, `--container-name db-backups`: an
        # option that names the container or bucket acted on (n13u, probe13)
        # `--name db.bak`: one object; `az storage file delete --share-name backups -p x`,
        # `az storage fs file|directory delete -f backups …`: one file or folder in it (n14u)
        one = any(t.lower() in _ONE_OBJECT for t in texts)
        if not _ONE_NOUNS.isdisjoint(path.nouns) and "batch" not in path.nouns:
            return _backup_job_removed(cmd, operands, rules)
        named = {
            id(cmd.args[i + 1])
            for i, w in enumerate(cmd.args[:-1])
            if not one and w.text.lower() in _PLACE_OPTIONS
        }
        for w in operands:
            if not (
                "rm" in rules
                or bucket
                or id(w) in named
                or re.search(r"[\\/]", w.text)
                or _REMOTE.match(w.text)
            ):
                continue  # a resource's name (`Remove-ADUser svc_backup`), not a folder
            if (
                "shape-delete" in rules
                and not rules & _NAMED_DELETES
                and w.text.startswith(("/", "\\"))
            ):
                # (an unknown program's delete verb: only a bucket's bare name is the place,
                # a `/delete-backups` word is the program's own switch)
                continue
            if account and (name := _backup_account(w.text)):
                place, hit = name, w
                break
            if (place := backup_place(w.text)) is not None:
                place, hit = place, w
                break
            if (
                (
                    bucket
                    # (n18u) `delete-batch -s nightlybkp` (a cloud CLI's option: rm's `-f`
                    # names no place)
                    or (id(w) in named and "cloud-delete" in rules)
                    # a bucket by URL or remote (`b2://…`, `gs://…`, `remote:…`), or an mc
                    # alias path (`s3/db-backups2024`), deleted by any delete verb
                    or (
                        (_REMOTE.match(w.text) or cmd.name == "mc")
                        and not rules.isdisjoint(_PLACE_DELETES)
                    )
                )
                and not account
                and (place := _glued_bucket(w.text)) is not None
            ):
                hit = w
                break
    if place is None or hit is None:
        return _backup_job_removed(cmd, operands, rules)
    cmd.add(
        B,
        "delete-backups",
        f"{cmd.name} deletes the backup folder {place} whole: the copies to recover from are gone",
        hit,
    )
    return True


def _generic(mine: Sequence[object], name: str = "") -> bool:
    """Whether the command was judged only generically (an unknown program, a cloud CLI's
    "may change something"): a handler that knows the program (cp, rsync, npm, hg) gave
    its options their own meaning (`--no-backup`: no local backup copy). With `name`, the
    generic readings of a `…ctl` service tool (`rabbitmqctl delete_queue`) and of a database
    client given a subcommand (`cockroach node decommission`) count too."""
    if not mine:
        return False
    rules = _GENERIC_RULES if not name or name in _SERVICE_MANAGERS else _LOOSE_RULES
    return all(getattr(f, "rule", "") in rules for f in mine)


# A listing inside a substitution: `$(gcloud compute snapshots list --format='value(name)')`.
_LISTING = re.compile(r"(?i)\b(?:list|ls|describe)\b|\b(?:list|describe)-|\b(?:List|Describe)[A-Z]")


# What narrows a listing to some of its items: filters, an index, a pattern, head/tail.
_NARROWED = re.compile(
    r"(?i)--filters?\b|--(?:name|tag|tags|prefix|older-than|newer-than|before|after|label)\b"
    r"|\[\s*(?:\d|\?)|\|\s*(?:grep|head|tail|awk|sed|jq\s+[^|]*select)\b|\bselect\("
)


def _every_listed(cmd: Cmd, path: Path, nouns: Sequence[str]) -> Verdict | None:
    """A snapshot or backup deleter handed what a listing of the same kind prints: every
    snapshot (`delete $(... snapshots list ...)`) is gone, the copies to recover from."""
    if path.kind != "destroy" or not cmd.scope.source:
        return None
    noun = snapshot_noun(nouns) or backup_noun(nouns)  # (`own_nouns`: not a resource's name)
    if noun is None:
        return None
    for w in cmd.args:
        if not w.dynamic:
            continue
        raw = cmd.scope.source[w.start : w.end]
        if not raw.startswith(("$(", "`", '"$(')) or len(raw) > 2000:
            continue
        low = raw.lower()
        if _NARROWED.search(raw):
            continue  # the listing is narrowed to some (session 8: a named subset)
        if ("snapshot" in low or "backup" in low or "recovery" in low) and _LISTING.search(raw):
            return Verdict(
                B,
                "cli-backup-delete",
                f"{cmd.name} deletes every {noun.rstrip('s')} a listing prints (the backups)",
            )
    return None


def _by_shape(
    name: str,
    args: Sequence[str],
    path: Path,
    worst: RiskLevel,
    mine: Sequence[object],
    family: str,
    opts: Sequence[str] | None = None,
    cmd: Cmd | None = None,
) -> Verdict | None:
    """The shapes that hold for any program. `opts`: `args`, or empty when no argument starts
    with `-` or `/` (every option pattern scanned below needs one; `help` is looked up apart)."""
    if opts is None:
        opts = args
    if _asks_help(args, path) or any(shape.is_dry_marker(a) for a in opts) or _dry(name, opts):
        # a dry run or help: a program named here is read (safe), any other keeps its moderate
        return SAFE_READ if name in CLIS else None
    opt = deletes_backups_option(opts)
    if opt is not None and (path.kind in ("destroy", "off", "weak") or _is_delete_option(opts)):
        return Verdict(
            B, "cli-backup-delete", f"{opts[opt].split('=')[0]} deletes the backups as well"
        )
    if zero_retention(opts) is not None:
        return Verdict(
            B,
            "cli-backup-delete",
            "a backup retention of zero deletes the existing automated backups",
        )
    nouns = own_nouns(name, path, mine)
    off = protection_off(name, args, opts, path, nouns, _generic(mine))
    if off is not None:
        return Verdict(C, "cli-backup-off", f"{name} turns backups off: {off}")
    noun = backup_noun(nouns)
    if path.kind == "destroy" and any(_ALL_VERSIONS.match(a) for a in opts):
        return Verdict(
            B,
            "cli-versions-delete",
            f"{name} deletes every stored version too: the copies to recover from are lost",
        )
    if (
        path.kind in ("destroy", "weak")
        and (name not in CLIS or CLIS[name].judge is None)
        and _backup_tool(name)
    ):
        # (a program named in CLIS only for its reference page, `proxmox-backup-client
        # snapshot forget vm/100/…`, is read by the backup rule too: n12u)
        return _backup_tool_delete(name, args, path)
    if mine and not shape.text_program(name) and (hit := _http_backup_delete(args)) is not None:
        return hit
    if path.kind in ("destroy", "off") and any(n in _AUDIT_NOUNS for n in nouns):
        return Verdict(
            C, "cli-audit-off", f"{name} {' '.join(path.words)} turns the audit trail off"
        )
    if path.kind == "destroy" and noun is not None:
        return Verdict(
            B,
            "cli-backup-delete",
            f"{name} deletes a {noun}: the copy to recover from is lost",
        )
    snap = snapshot_noun(nouns)
    every = "all" in nouns or any(_ALL_OPTION.match(a) for a in opts)
    if path.kind in ("destroy", "weak") and snap is not None and every:
        return Verdict(B, "cli-backup-delete", f"{name} deletes every {snap} (the backups)")
    if path.kind == "off" and noun is not None:
        return Verdict(C, "cli-backup-off", f"{name} turns backups off ({' '.join(path.words)})")
    if (
        path.kind not in ("destroy", "read", "off", "weak")
        and _generic(mine)
        and any(_BACKUP_OFF_OPTION.match(a) and not _GNU_BACKUP_OFF.match(a) for a in opts)
    ):
        return Verdict(C, "cli-backup-off", f"{name} turns the automated backups off")
    if worst >= D:
        return None
    if name in _STATEMENT_CLIENTS and any(_STATEMENT_DESTROY.search(a) for a in args):
        return Verdict(D, "cli-delete", f"{name} runs a statement that deletes data")
    # Only a program judged generically (an unknown program, a cloud CLI's "may change
    # something"); a handler that found nothing knows the program reads (`man rm`).
    if (
        not _generic(mine, name)
        or shape.text_program(name)
        or shape.package_manager(name)
        or not shape.plausible_program(name)
        or path.verb in ("help", "usage")
        or _asks_help(args, path)
        or (name not in CLIS and shape.dry_run(opts))  # (a CLI named here: its own flags)
    ):
        return None
    if opts and (does := _deleting_option(opts, path)) is not None:
        return Verdict(D, "cli-delete", f"{name} {does}")
    if all(getattr(f, "rule", "") == "unknown-command" for f in mine):
        if not shape.ENABLED:
            return None
        # An unknown program: the generic reading (`shape.py`) has judged it; only where it
        # found no verb, or took a noun for a disk verb (`minikube image rm`), is there more.
        reading = (
            None
            if name in CLIS
            else shape.read_command(name, args, family)
            if cmd is None
            else shape.read_cmd(cmd, name, args)  # (kept: the dispatcher read it too)
        )
        if reading is not None and reading.verb not in shape.FORMAT_VERBS:
            return None  # (a CLI named here is read by its documented grammar instead)
    if path.kind in ("destroy", "weak") and any(n in CONFIG_NOUNS for n in path.nouns):
        return None  # `helm repo remove x`, `kopia policy delete p`: a settings entry
    if (
        path.verb == "remove"
        and path.at >= 0
        and not _REVOKE_PARTS.isdisjoint(parts(path.words[path.at]))
    ):
        # `aws iam remove-user-from-group`, `aws lambda remove-permission`: access or a tag
        # taken away, nothing destroyed (gen11, Dippy's approval tests)
        return None
    if path.kind in ("", "change") and (opt := _delete_option(opts)) is not None:
        return Verdict(D, "cli-delete", f"{name} {opts[opt]} deletes what the source lacks")
    if path.kind == "destroy" or (
        path.kind == "weak" and (snap is not None or any(_FORCE.match(a) for a in opts))
    ):
        if _dry(name, opts):
            return SAFE_READ if name in CLIS else None
        return Verdict(
            D,
            "cli-delete",
            f"{name} {' '.join(path.words[: path.at + 1])} deletes what it names",
        )
    return None


# Words of a `remove-…` verb that make it a revocation, not a deletion.
_REVOKE_PARTS = frozenset(
    names("from permission permissions tag tags label labels binding bindings")
)


# Database clients whose statements the shapes read (`--eval`, `-q`, `-e`, `--query`).
_STATEMENT_CLIENTS = frozenset(
    names(
        """
        mongosh mongo clickhouse-client clickhouse cqlsh influx psql mysql mariadb sqlite3
        duckdb sqlcmd cockroach trino presto bq snowsql usql litecli pgcli mycli
        """
    )
)
# Statements that delete data or stop the server, beyond `DROP`/`TRUNCATE`/`DELETE FROM`
# (which the generic reading already knows).
_STATEMENT_DESTROY = re.compile(
    r"(?is)\balter\s+table\s+\S+\s+(?:delete\b|drop\s+(?:partition|part|column|index)\b)"
    r"|\bshutdownServer\s*\(|adminCommand\s*\(\s*\{\s*['\"]?shutdown\b"
    r"|\bdropAllUsers\s*\(|\bdeleteMany\s*\(\s*\{\s*\}\s*\)|\bsystem\s+drop\s+\w+\s+cache\b"
)
# Options that make a sync/copy delete on the destination (`--delete-removed`, `--remove`).
_DELETE_OPTION = re.compile(
    r"^--(?:delete|remove|purge)(?:-(?:removed|extraneous|excluded|after|before|during|missing"
    r"|destination|dest|target|orphans))?(?:=(?:true|yes|1|on))?$",
    re.I,
)


# Options that make a delete take every stored version (`objstore rm --versions`).
_ALL_VERSIONS = re.compile(r"^--(?:all-|include-|every-)?versions$|^--all-versions=true$", re.I)
# Options that delete what is older than a date (`rdiff-backup --remove-older-than 4W`).
_OLDER_THAN = re.compile(r"^--(?:remove|delete|purge|prune|expire)-older-than(?:=.*)?$", re.I)
# Options whose value is a statement sent to a database (`wrangler d1 execute --command`).
_STATEMENT_OPTIONS = frozenset(names("--command -c --sql --query -q --execute -e --eval"))
# Read at the start of any statement: the first, after `;`, a comment or a line break
# (`PRAGMA foreign_keys=off; DROP TABLE t`, `/* x */ DROP TABLE t`). Only blanks are
# skipped after a `;`/`*/`/newline (a newline starts its own try): `\s*` there would rescan
# every later line break from each one, quadratic on a value of 10,000 newlines.
_BLANKS = r"[ \t\r\f\v]*"  # (no newline, no `;`: each starts its own try)
_SENT_DESTROY = re.compile(
    r"(?is)(?:^\s*|[;\n]" + _BLANKS + r"|\*/" + _BLANKS + r")"
    r"(?:drop\s+(?:table|database|schema|keyspace|collection|index)\b"
    r"|truncate\s+(?:table\s+)?\w|delete\s+from\s+\w)"
)
_SEARCHES = frozenset(names("grep egrep rg ag ack search find match"))
# HTTP method options, any case (curl `-X`/`--request`, wget/xh `--method`, PowerShell
# `-Method`).
_HTTP_METHOD = frozenset(names("-x --request --method -method"))
# PowerShell's HTTP cmdlets (and their aliases): judged here, not by the shapes.
_HTTP_CMDLETS = frozenset(names("invoke-restmethod invoke-webrequest irm iwr"))


# Backup programs: whatever their destroying verb deletes is a backup (`barman delete srv
# oldest`, `wal-g delete everything`, `pgbackrest stanza-delete`, `duplicacy prune -r 1-9`).
# Programs named in CLIS are read by their own judges instead.
_BACKUP_TOOLS = frozenset(
    names(
        """
        barman wal-g wal-e pgbackrest duplicacy duplicati duplicati-cli bup zbackup tarsnap
        burp bareos bconsole urbackup urbackupclientctl dar attic obnam rsnapshot bacula
        borgmatic autorestic resticprofile rustic zvault bdsync rdiff-backup backintime
        deja-dup duply
        """
    )
)
_BACKUP_NAME = re.compile(r"(?:^|[-_.])(?:backup|backups|bak)(?:$|[-_.])|backup(?:ctl|cli|tool)$")
# Words that keep some copies (a retention policy): the deletion is scoped (session 8). Read
# as whole words: an option's name parts (`--keep-last`, `--older-than`, `--max-age`) or a
# keyword operand (`barman delete srv oldest`), never inside a server name or a backup id
# (`main-db-keeper`, `before-upgrade-2024`).
_RETENTION_PARTS = frozenset(
    names("keep retain retention older oldest newer before expire age within")
)
_RETENTION_OPERANDS = frozenset(names("keep retain oldest older newer before after"))
# Options that name the one backup (set, revision) a delete, expire or prune takes:
# `pgbackrest expire --set=…`, `duplicacy prune -r 1-9`.
_ONE_BACKUP_OPTION = re.compile(
    r"(?i)^(?:--set|-r|--revisions?|--backup-id|--backup-set|--backup|--snapshot-id)(?:=.*)?$"
)
# Settings a backup program's verb may take out (`urbackupclientctl remove-backupdir`): a
# folder leaves the backup set; no backup is deleted.
_SETTING_PART = re.compile(
    r"(?i)(?:dir|dirs|folder|folders|path|paths|source|sources|include|exclude|schedule|job"
    r"|jobs|policy|client|clients|user|users|target|config|setting|settings)$"
)
# Backup programs whose delete only reports what it would delete unless confirmed (wal-g,
# WAL-E: `delete … --confirm`).
_CONFIRM_TO_DELETE = frozenset(names("wal-g wal-e"))
_EVERY_WORD = frozenset(names("all everything --all -a --all-backups --everything"))


def _backup_tool(name: str) -> bool:
    return name in _BACKUP_TOOLS or _BACKUP_NAME.search(name) is not None


def _retention(args: Sequence[str]) -> int:
    """0: no retention word; 1: a retention that keeps some; 2: one that keeps none
    (`--keep=0`, `--keep-last 0`)."""
    found = 0
    for i, a in enumerate(args):
        if not a.startswith("-"):
            if a.lower() in _RETENTION_OPERANDS:
                found = max(found, 1)
            continue
        head, eq, value = a.lstrip("-").partition("=")
        if head.lower() == "n" or not _RETENTION_PARTS.intersection(
            re.split(r"[-_]", head.lower())
        ):
            continue
        if not eq:
            value = args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("-") else ""
        if "keep" in head.lower() and _ZERO.match(value.strip("'\"")) and value:
            return 2
        found = 1
    return found


def _backup_tool_delete(name: str, args: Sequence[str], path: Path) -> Verdict | None:
    """A backup program's destroying verb: every backup (`all`, `everything`, a keep of zero)
    or one named backup is blocked; a retention that keeps some, a dry run, or a setting
    taken out (`remove-backupdir`) is not, nor a verb given nothing to delete."""
    if _dry(name, args) or any(a in ("-n", "--dry-run", "--pretend") for a in args):
        return None
    if name in _CONFIRM_TO_DELETE and "--confirm" not in args:
        return None  # (without --confirm wal-g only lists what it would delete)
    if path.at >= 0 and any(_SETTING_PART.search(n) for n in parts(path.words[path.at])[1:]):
        return None
    keeps = _retention(args)
    every = keeps == 2 or any(a.lower() in _EVERY_WORD for a in args)
    one = not every and any(_ONE_BACKUP_OPTION.match(a) for a in args)
    if not every and not one and (path.verb == "expire" or keeps):
        return Verdict(D, "cli-delete", f"{name} deletes the backups a retention rule drops")
    if path.kind == "weak" and not every and not one:
        return None  # (`clean`, `prune` without a selector: the tool's own housekeeping)
    after = path.index[path.at] + 1 if path.at >= 0 else len(args)
    # a verb glued to its object (`stanza-delete`, `rdelete`: the repository) names it
    glued = path.at >= 0 and path.words[path.at].lower() != path.verb
    named = any(not a.startswith("-") for a in args[after:])
    if name not in _BACKUP_TOOLS and not (every or one or glued or named):
        # a program only named like a backup tool given nothing (`mysql-backup delete`,
        # `./backup.sh delete`): what it deletes is not known to be a backup
        return Verdict(D, "cli-delete", f"{name} {path.verb} deletes something")
    what = "every backup" if every else "a backup"
    return Verdict(B, "cli-backup-delete", f"{name} deletes {what}: the copies are lost")


# An HTTP DELETE aimed at backups or snapshots (`curl -XDELETE host:9200/_snapshot/repo/*`).
# A URL path part naming backups or snapshots; read part by part (one pass over the URL:
# a regex spanning the parts is re-tried from every `/snapshot` and grows quadratic).
_HTTP_BACKUP_PART = re.compile(r"(?i)_?(?:snapshots?|backups?|recovery[-_]?points?)")


def _http_backup_path(arg: str) -> bool:
    """Whether a URL deletes backups: a backup/snapshot part followed (at any depth) by a
    wildcard or `_all` part (every snapshot), or a backup part followed by a named one."""
    for chunk in arg.split():
        parts = chunk.split("?", 1)[0].split("/")
        seen = False
        for i in range(1, len(parts)):
            part = parts[i]
            if seen and ("*" in part or part[:4].lower() == "_all"):
                return True
            if (m := _HTTP_BACKUP_PART.fullmatch(part)) is not None:
                seen = True
                if "ackup" in m.group(0).lower() and i + 1 < len(parts) and parts[i + 1]:
                    return True
    return False


def _http_backup_delete(args: Sequence[str]) -> Verdict | None:
    if not any("ELETE" in a or "elete" in a for a in args) or not _http_delete_in(args):
        return None
    for a in args:
        if ("snapshot" in a.lower() or "backup" in a.lower()) and _http_backup_path(a):
            return Verdict(
                B, "cli-backup-delete", "an HTTP DELETE of backups (every snapshot, a backup)"
            )
    return None


def _http_delete_in(args: Sequence[str]) -> bool:
    for i, a in enumerate(args):
        head, eq, value = a.partition("=")
        if not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
        if (
            (head.lower() in _HTTP_METHOD and head != "-x" and value.upper() == "DELETE")
            or a.upper().startswith("-XDELETE")
            or a.lower().replace(" ", "") == "-method:delete"  # (PowerShell's `-Method:Delete`)
        ):
            return True
        if a == "DELETE" and "/" in value:  # `http DELETE host/path` (HTTPie, xh)
            return True
    return False


def _deleting_option(args: Sequence[str], path: Path) -> str | None:
    """One pass over the options of a program judged generically: a destroying statement
    handed to `--command`/`--sql`/`-e` (not by a search: `grep -e 'DROP TABLE'`), an HTTP
    DELETE (`-X DELETE`, `--method=DELETE`), `--remove-older-than`. What it does, or None."""
    statements = path.kind != "read" and not any(w.lower() in _SEARCHES for w in path.words)
    for i, a in enumerate(args):
        if not a.startswith("-"):
            continue
        head, eq, value = a.partition("=")
        if not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
        if (
            head.lower() in _HTTP_METHOD and head != "-x" and value.upper() == "DELETE"
        ) or a.startswith("-XDELETE"):
            return "sends an HTTP DELETE request"
        if statements and head in _STATEMENT_OPTIONS:
            if (m := _SENT_DESTROY.search(value)) is not None:
                return f"sends a statement that deletes data ({' '.join(m.group(0).split())})"
        elif _OLDER_THAN.match(a):
            return "deletes what is older than a date"
    return None


def _delete_option(args: Sequence[str]) -> int | None:
    return next((i for i, a in enumerate(args) if _DELETE_OPTION.match(a)), None)


_HELP = frozenset(names("--help -h -? /? -help help --usage"))


def _asks_help(args: Sequence[str], path: Path) -> bool:
    """Whether the command only asks for help. A marker counts where it stands as an option
    or a command word, never as an option's value (`velero backup delete --all -n help`,
    `svn rm URL -m help`: a namespace, a log message): `--help`/`-?`/`/?` anywhere; `-h` last
    or before another option (`-h db` is a host); a bare `help` only among the command's
    leading words, before or as its verb (`helm help delete`, not `foo delete help`)."""
    for i, a in enumerate(args):
        if a not in _HELP:
            continue
        if a == "-h":
            if i + 1 == len(args) or args[i + 1].startswith(("-", "/")):
                return True
        elif a == "help":
            if i in path.index and (path.at < 0 or path.index.index(i) <= path.at):
                return True
        else:
            return True
    return False


def _is_delete_option(args: Sequence[str]) -> bool:
    return any(re.match(r"^--?(?:delete|purge|remove|force-delete)\b", a) for a in args)


# Read verbs that may lead an API operation's name (`describe-db-instances`, `ListBuckets`);
# others only as a whole word (`get-credentials` writes a kubeconfig, `get-object` a file).
_GLUED_READS = frozenset(names("list ls describe show"))


def _reads(path: Path) -> bool:
    if path.kind != "read":
        return False
    word = path.words[path.at]
    return word.lower() in READ or len(parts(word)) == 1 or path.verb in _GLUED_READS


def _bare_list(path: Path) -> bool:
    return path.kind == "" and bool(path.words) and len(path.words) <= 3


def _dry(name: str, args: Sequence[str]) -> bool:
    flags = _DRY.get(name, ())
    generic = ("--dry-run", "--dryrun", "--dry-run=client", "--dry-run=server", "--what-if")
    return any(a in flags or a in generic for a in args)


def _lower(cmd: Cmd, mark: int, also: frozenset[str]) -> None:
    """Drop this command's generic moderate findings: it only reads (or only says what it
    would do). Nothing is dropped when another finding stands or a word is computed."""
    if any(w.dynamic for w in cmd.words):
        return
    mine = cmd.scope.findings[mark:]
    if not mine or any(
        (f.rule not in _GENERIC_RULES or f.level > M) and (f.rule not in also or f.level >= B)
        for f in mine
    ):
        return
    del cmd.scope.findings[mark:]
