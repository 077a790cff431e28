"""Data and infrastructure: SQL/Mongo/Redis clients, containers, Kubernetes, Terraform and
cloud CLIs, where deleting resources is dangerous and reading them is safe.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from aintern_ls.safety import inline, system
from aintern_ls.safety.context import (
    STDIN_NETWORK,
    STDIN_NONE,
    STDIN_STATIC,
    Cmd,
)
from aintern_ls.safety.levels import B, C, D, M
from aintern_ls.safety.paths import is_secret
from aintern_ls.safety.registry import handles, skip_options
from aintern_ls.safety.system import opt_values
from aintern_ls.safety.words import Word, names

# --- databases --------------------------------------------------------------------------


def _judge_sql_text(cmd: Cmd, sql: str, where: Word | None) -> None:
    level, rule, reason = inline.judge_sql(sql)
    if level:
        cmd.add(level, rule, reason, where)


@handles(
    *names(
        """
    psql mysql mariadb sqlite3 duckdb clickhouse-client sqlcmd cockroach pgcli mycli litecli
    snowsql bq sqlplus cqlsh invoke-sqlcmd
    """
    )
)
def _sql_client(cmd: Cmd) -> None:
    system.repl_tool(cmd)  # `\! cmd`, `.shell cmd`, `COPY … FROM PROGRAM 'cmd'`
    if cmd.name == "cockroach" and _cockroach_reads(cmd):
        return
    if cmd.name == "sqlite3" and any("tcc.db" in w.text.lower() for w in cmd.args):
        statement = " ".join(cmd.texts()[1:]).lower()
        if re.search(r"\b(insert|update|delete|replace|drop)\b", statement):
            cmd.add(C, "disable-security", "edits macOS's privacy permission database (TCC)")
            return
    q = cmd.option_value("-c", "--command", "-e", "--execute", "-q", "--query", "-Q")
    if cmd.name == "invoke-sqlcmd":
        # (a21) PowerShell's SQL Server cmdlet: `-Query "DROP TABLE …"` (any case, `-Query:x`),
        # `-InputFile x.sql` a script; its parameters are not the clients' short options
        q, script = None, False
        for i, w in enumerate(cmd.args):
            head, colon, value = w.text.partition(":")
            if head.lower() == "-query":
                q = (
                    Word(value, w.start, w.end)
                    if colon
                    else next(iter(cmd.args[i + 1 : i + 2]), None)
                )
            script = script or head.lower() == "-inputfile"
        if q is None:
            cmd.add(M, "db-script" if script else "db-shell", "Invoke-Sqlcmd runs SQL on a server")
            return
    if cmd.name in ("sqlite3", "duckdb") and q is None:
        ops = cmd.operands(frozenset({"-cmd", "-separator"}))
        if len(ops) >= 2:
            q = ops[1]
    if cmd.name == "bq":
        ops = cmd.operands()
        if ops and ops[0].text in ("rm",):
            cmd.add(D, "cloud-delete", "bq rm deletes datasets or tables")
            return
        if ops and ops[0].text == "query" and len(ops) > 1:
            q = ops[-1]
        elif ops and ops[0].text in ("ls", "show", "head"):
            return
    if q is not None:
        _judge_sql_text(cmd, q.text, None)
        return
    if cmd.stdin.kind == STDIN_STATIC:
        _judge_sql_text(cmd, cmd.stdin.text, None)
        return
    if cmd.option_value("-f", "--file", "-i") is not None or cmd.stdin.kind != STDIN_NONE:
        cmd.add(M, "db-script", f"{cmd.name} runs a SQL script")
        return
    if cmd.short("l") or cmd.has("--list", "--version"):
        return
    cmd.add(M, "db-shell", f"opens an interactive {cmd.name} session")


def _cockroach_reads(cmd: Cmd) -> bool:
    """(h19) `cockroach node status|ls`, `cockroach version`: reports of the cluster and
    the binary, no SQL session and no change (`node decommission|drain` change it)."""
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    return ops[:1] == ["version"] or (
        ops[:1] == ["node"] and len(ops) > 1 and ops[1] in ("status", "ls")
    )


@handles("mongosh", "mongo")
def _mongo(cmd: Cmd) -> None:
    js = cmd.option_value("--eval")
    text = js.text if js is not None else (cmd.stdin.text if cmd.stdin.kind == STDIN_STATIC else "")
    if not text:
        cmd.add(M, "db-shell", f"opens an interactive {cmd.name} session")
        return
    level, rule, reason = inline.judge_mongo(text)
    if level:
        cmd.add(level, rule, reason)


# (h18) redis-cli modes that only read and report (key scans, statistics, latency probes)
_REDIS_READ_MODES = frozenset(
    names(
        """
        --scan --bigkeys --memkeys --hotkeys --keystats --stat --latency --latency-history
        --latency-dist --intrinsic-latency
        """
    )
)


_REDIS_VALUED = frozenset(
    names("-h -p -a -n -u -s --user --pass --pattern --quoted-pattern --count -i --cacert")
)


_ACCOUNT_FILES = frozenset(("passwd", "shadow", "group", "gshadow", "sudoers"))
_REDIS_DIR_ETC = re.compile(
    r"(?i)\bset[ \t]{1,8}dir[ \t]{1,8}['\"]?/etc/?['\"]?(?:[ \t;&|)]|$)", re.M
)


@handles("redis-cli", "valkey-cli", "keydb-cli")
def _redis(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s"}))
    texts = cmd.texts()
    if any(t in _REDIS_READ_MODES for t in texts):
        # (h18) `redis-cli --scan --pattern 'user:*'`, `--bigkeys`: the mode only reads and
        # reports, when nothing else (a command, --eval, --pipe) is given with it
        rest = [
            t
            for k, t in enumerate(texts)
            if not t.startswith("-") and (k == 0 or texts[k - 1] not in _REDIS_VALUED)
        ]
        if not rest and not any(
            t in ("--eval", "--pipe", "--rdb", "--functions-rdb") for t in texts
        ):
            return
    argv = [w.text for w in ops]
    level, rule, reason = inline.judge_redis(argv)
    if level:
        cmd.add(level, rule, reason)
    if (
        len(argv) > 3
        and argv[0].lower() == "config"
        and argv[2].lower() == "dbfilename"
        and argv[3].strip("'\"") in _ACCOUNT_FILES
        and _REDIS_DIR_ETC.search(cmd.scope.source[:20000])
    ):
        # (a22) `config set dir /etc` + `config set dbfilename shadow` + `save`: the server
        # writes its dump over an account file (the block sets both): blocked
        cmd.add(B, "system-file", f"Redis will save its data over /etc/{argv[3]}", ops[3])


@handles("mongorestore", "pg_restore")
def _restore(cmd: Cmd) -> None:
    if cmd.long("--drop", "--clean") or cmd.has("-c"):
        cmd.add(D, "db-drop", f"{cmd.name} drops existing data before restoring")
    else:
        cmd.add(M, "db-write", f"{cmd.name} writes to a database")


@handles("dropdb", "dropuser", "mysqladmin", "pg_resetwal", "pg_resetxlog", "pg_dropcluster")
def _dropdb(cmd: Cmd) -> None:
    if cmd.name == "mysqladmin" and not cmd.has("drop", "shutdown"):
        cmd.add(M, "db-admin", "mysqladmin changes the server")
        return
    cmd.add(D, "db-drop", f"{cmd.name} deletes a database or its data")


# --- containers, clusters, infrastructure, cloud ----------------------------------------

_DOCKER_SAFE = frozenset(
    names(
        """
        ps images inspect logs version info top port diff history search events stats ls config
        df show du
        """
    )
)
_FLAG_OFF = re.compile(r"--[a-z][a-z0-9-]*=(?:false|0)")
_DOCKER_DELETE = frozenset({"rm", "rmi", "kill", "prune", "down", "remove", "reset"})


_DOCKER_RUN_WITH_VALUE = frozenset(
    names(
        """
        -v --volume --mount -e --env --env-file -w --workdir -u --user --name -p --publish
        --network --net --entrypoint -h --hostname --platform --label -l --cpus -m --memory
        --restart --pid --ipc --cap-add --cap-drop --security-opt --device --add-host
        --log-driver --log-opt --tmpfs --ulimit --runtime --gpus --dns --shm-size
        """
    )
)


_HOST_SOURCE = re.compile(r"\A(?:/|~|\.|\$\{?(?:HOME|PWD|USERPROFILE)\}?(?![\w])|[A-Za-z]:[\\/])")


_WIN_ABS = re.compile(r"\A[A-Za-z]:[\\/]")


def container_mounts(args: Sequence[Word]) -> list[tuple[str, str, bool]]:
    """The host folders a container or VM command mounts, as (host path, path inside,
    read-only): `-v SRC:DST[:opts]`, `--volume[=]SRC:DST`, `--mount
    type=bind,source=SRC,target=DST[,readonly]` (also `src=`/`dst=`/`destination=`).
    Named volumes (no path) are not host folders and are left out."""
    out: list[tuple[str, str, bool]] = []
    for i, w in enumerate(args):
        t = w.text
        value = None
        if t in ("-v", "--volume", "--mount") and i + 1 < len(args):
            value = args[i + 1].text
            kind = "mount" if t == "--mount" else "volume"
        elif t.startswith(("--volume=", "--mount=")):
            value = t.split("=", 1)[1]
            kind = "mount" if t.startswith("--mount") else "volume"
        elif t.startswith("-v") and len(t) > 2 and ":" in t and not t.startswith("--"):
            value, kind = t[2:], "volume"
        if not value:
            continue
        if kind == "mount":
            fields: dict[str, str] = {}
            for part in value.split(","):
                k, eq, v = part.partition("=")
                fields[k.strip().lower()] = v.strip() if eq else "true"
            src = fields.get("source") or fields.get("src") or ""
            dst = fields.get("target") or fields.get("dst") or fields.get("destination") or ""
            ro = fields.get("readonly", fields.get("ro", "false")) in ("true", "1", "")
            if fields.get("type", "bind") != "bind":
                continue
        else:
            # `C:\Users:/h` (a Windows host path) keeps its drive colon.
            drive = re.match(r"[A-Za-z]:[\\/][^:]*", value)
            if drive is not None:
                src, rest = drive.group(0), value[drive.end() + 1 :]
            else:
                src, _, rest = value.partition(":")
            # a Windows container's target keeps its drive colon too (`C:\:C:\host`, m9)
            win_dst = re.match(r"[A-Za-z]:[\\/][^:]*", rest)
            if win_dst is not None:
                dst, opts = win_dst.group(0), rest[win_dst.end() + 1 :]
            else:
                dst, _, opts = rest.partition(":")
            ro = "ro" in opts.split(",")
        if src and (dst.startswith("/") or _WIN_ABS.match(dst)) and _HOST_SOURCE.match(src):
            out.append((src, dst, ro))
    return out


def _host_path(src: str) -> str:
    """A mount source as the path the rules know: `$HOME`/`${HOME}` is `~`, `$PWD` is `.`."""
    src = re.sub(r"\A\$\{?HOME\}?(?![\w])", "~", src)
    src = re.sub(r"\A\$\{?PWD\}?(?![\w])", ".", src)
    return src.rstrip("/\\") or "/"


def _mount_key(dst: str) -> str:
    """A mount target as matched in the container's command (`/host/` -> `/host`, `C:\\h\\`
    -> `C:\\h`; a drive root keeps its separator)."""
    if _WIN_ABS.match(dst):
        return dst.rstrip("\\/") if len(dst.rstrip("\\/")) > 2 else dst[:3]
    return dst.rstrip("/") or "/"


def map_mounts(words: Sequence[Word], mounts: list[tuple[str, str, bool]]) -> list[Word]:
    """The words of a command run inside a container with each mounted path put back as
    the host path it is (also inside a shell string: `sh -c 'rm -rf /data/*'`), so
    wiping a mount of `$HOME` is wiping the home folder."""
    if not mounts:
        return list(words)
    ordered = sorted(mounts, key=lambda m: -len(m[1]))
    pattern = re.compile(
        r"(?<![\w.$~-])("
        + "|".join(re.escape(_mount_key(dst)) for _, dst, _ in ordered)
        + r")(?=[/\\]|\Z|[\s'\"*;|&)<>])",
        re.I if any(_WIN_ABS.match(dst) for _, dst, _ in ordered) else 0,
    )
    host = {_mount_key(dst).lower(): _host_path(src) for src, dst, _ in ordered}
    out: list[Word] = []
    for w in words:
        text = w.text
        if w.dynamic:
            out.append(w)
            continue
        mapped = pattern.sub(lambda m: host[m.group(1).lower()], text)
        # `/h` → `~`: a path below the mount keeps its tail (`/h/x` → `~/x`).
        out.append(Word(mapped, w.start, w.end, w.dynamic, w.glob))
    return out


def _container_command(cmd: Cmd) -> None:
    """`docker run -v /:/host img rm -rf /host/etc`: the command inside is judged with the
    mounted host paths put back (so wiping a mount of / is wiping /)."""
    mounts = container_mounts(cmd.args)
    args = cmd.args
    # args: [container] run|create [options] image command...
    seen = 0
    i = 0
    inner: list[Word] = []
    while i < len(args):
        t = args[i].text
        if t.startswith("-"):
            i += 2 if t in _DOCKER_RUN_WITH_VALUE else 1
            continue
        seen += 1
        if seen == (3 if args[0].text == "container" else 2):
            inner = list(args[i + 1 :])
            break
        i += 1
    # `--entrypoint rm IMAGE -rf /host/etc`: the entrypoint is the program, and the words
    # after the image its arguments (safety-m9)
    entry = cmd.option_value("--entrypoint")
    if entry is not None and entry.text.strip() and not entry.dynamic:
        parts = entry.text.split()
        if entry.text.lstrip().startswith("["):
            import json  # podman's JSON form: `--entrypoint '["rm","-rf","/h/usr"]'`

            try:
                loaded = json.loads(entry.text)
            except ValueError:
                loaded = None
            if isinstance(loaded, list) and all(isinstance(x, str) for x in loaded):
                parts = loaded
        inner = [*(Word(t, entry.start, entry.end) for t in parts), *inner]
    if not inner:
        return
    _judge_mapped(cmd, inner, mounts)


def _judge_mapped(cmd: Cmd, inner: list[Word], mounts: list[tuple[str, str, bool]]) -> None:
    if not mounts:
        # A command run inside a container is judged by the same rules as here (as for
        # `kubectl exec` and `ssh host CMD`): wiping its / is wiping a system.
        cmd.judge(inner)
        return
    probe_mark = len(cmd.scope.findings)
    cmd.judge(map_mounts(inner, mounts))
    # Only what reaches the host through a mount is ours to judge at full weight.
    cmd.scope.findings[probe_mark:] = [f for f in cmd.scope.findings[probe_mark:] if f.level >= D]


_EXEC_WITH_VALUE = frozenset(
    names(
        """
        -u --user -w --workdir -e --env --env-file --detach-keys --index -v --volume -p
        --publish --name --entrypoint -l --label
        """
    )
)


def _in_container(cmd: Cmd, verb: str) -> list[Word]:
    """The command after `exec [options] CONTAINER` (or `compose exec|run [options]
    SERVICE`), options and all: `docker exec c rm -rf /` runs `rm -rf /` in c."""
    args = cmd.args
    i = 0
    while i < len(args) and args[i].text != verb:
        i += 1
    if verb == "compose":
        i += 1
        while i < len(args) and args[i].text not in ("exec", "run"):
            i += 1
    i += 1
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "--":
        i += 2 if args[i].text in _EXEC_WITH_VALUE else 1
    if i < len(args) and args[i].text == "--":
        i += 1
    return list(args[i + 1 :])


_CRI_READ = frozenset(
    names(
        """
        ps images img inspect inspecti inspectp imagefsinfo logs stats statsp pods info version
        help completion ls list
        """
    )
)


@handles("crictl")
def _crictl(cmd: Cmd) -> None:
    """The Kubernetes node's CRI client: `crictl rmi --prune`, `crictl rm -a`, `crictl rmp
    -a` delete images, containers or pods (dangerous, like `docker image prune`); listings
    are safe; the rest (exec, run, pull, stop) changes containers."""
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    if not ops or ops[0] in _CRI_READ or (ops[0] == "config" and "--set" not in cmd.texts()):
        return
    if ops[0] in ("rm", "rmi", "rmp"):
        cmd.add(D, "container-delete", f"{cmd.name} {ops[0]} deletes containers, images or pods")
        return
    cmd.add(M, "container", f"{cmd.name} {ops[0]} changes containers")


# A `--mount` value's fields (`type=bind`, `source=C:\\`, `target=/h`, `readonly`).
_MOUNT_FIELD = re.compile(
    r"(?i)\A(?:type|source|src|target|dst|destination|readonly|ro|bind-\S+"
    r"|volume-\S+|tmpfs-\S+|consistency)(?:=|\Z)"
)


def _mount_fields_joined(cmd: Cmd) -> Cmd:
    """`--mount type=bind,source=C:\\,target=/h` as one word again where cmd or PowerShell
    split it at its commas (`type=bind` `source=C:\\` …, or one word with spaces): the
    mount is read, and its fields are not taken for the image (n12w)."""
    words = list(cmd.words)
    out: list[Word] = []
    i = 0
    while i < len(words):
        w = words[i]
        out.append(w)
        i += 1
        if w.text != "--mount" or i >= len(words):
            continue
        parts = [words[i]]
        i += 1
        while i < len(words) and _MOUNT_FIELD.match(words[i].text.lstrip(",")):
            parts.append(words[i])
            i += 1
        text = ",".join(p.text.strip(",").replace(" ", ",") for p in parts)
        out.append(Word(text, parts[0].start, parts[-1].end))
    return Cmd(out, cmd.name, cmd.scope, cmd.stdin)


_IMAGE_OF = "\x00image-context:"


def _image_of_home(cmd: Cmd, ops: list[str]) -> None:
    """(h20) `docker build -t reg.example/i ~` copies the whole home (root, a system
    folder) into an image; pushing it (`--push`, a later `docker push` of that tag) sends
    every file there to a registry: exfiltration, critical. The build alone is moderate."""
    from aintern_ls.safety.paths import classify_path

    pushing = ops[0] == "push" or ops[:2] == ["image", "push"]
    if pushing:
        tag = ops[-1] if len(ops) > 1 else ""
        where = cmd.scope.env.get(_IMAGE_OF + tag)
        if tag and where:
            cmd.add(C, "exfiltration", f"{cmd.name} push uploads an image holding {where}")
        return
    context = next(
        (w for w in reversed(cmd.operands(_BUILD_VALUED)) if w.text not in ops[:2]), None
    )
    if context is None or context.dynamic:
        return
    t = classify_path(context.text, cmd.scope.cwds)
    if t.level < B or t.rule not in ("rm-home", "rm-root", "rm-system"):
        return
    texts = cmd.texts()
    if "--push" in texts or any(
        x.startswith(("--output=type=registry", "--output=type=image,push=true")) for x in texts
    ):
        cmd.add(C, "exfiltration", f"{cmd.name} builds an image of {t.what} and pushes it")
        return
    for i, x in enumerate(texts[:-1]):
        if x in ("-t", "--tag"):
            cmd.scope.env[_IMAGE_OF + texts[i + 1]] = t.what
    for x in texts:
        if x.startswith("--tag="):
            cmd.scope.env[_IMAGE_OF + x[len("--tag=") :]] = t.what


_BUILD_VALUED = frozenset(
    names(
        """
        -t --tag -f --file --build-arg --target --platform --label --network --output -o
        --cache-from --cache-to --secret --ssh --progress --iidfile --builder -H --host
        --context -c --config --log-level --add-host --shm-size -m --memory
        """
    )
)


@handles("docker", "podman", "nerdctl", "docker-compose", "finch")
def _docker(cmd: Cmd) -> None:
    if "--mount" in cmd.texts() and cmd.scope.family != "bash":
        cmd = _mount_fields_joined(cmd)
    ops = [
        w.text
        for w in cmd.operands(
            frozenset(
                names(
                    """
                    -H --host --context -c -f --file -p --project-name --log-level --config
                    """
                )
            )
        )
    ]
    if cmd.name == "docker-compose":
        ops = ["compose", *ops]
    if not ops:
        return
    verbs = ops[:3]
    # `--privileged=false`, `--volumes=false`: a boolean flag turned off is no flag (ext6).
    text = " ".join(t for t in cmd.texts() if not _FLAG_OFF.fullmatch(t))
    if re.search(r"--allow[= ]security\.insecure", text):
        # `docker buildx build --allow=security.insecure`: build steps run without isolation.
        cmd.add(C, "container-escape", "a build runs with its sandbox turned off")
        return
    if ops[0] in ("build", "push") or verbs[:2] in (
        ["buildx", "build"],
        ["image", "build"],
        ["image", "push"],
        ["builder", "build"],
    ):
        _image_of_home(cmd, ops)
    if ops[0] in ("run", "create") or verbs[:2] == ["container", "run"]:
        for src, dst, ro in container_mounts(cmd.args):
            if ro:
                # `-v /:/host:ro`: a read-only view of the host is no way out of it.
                text = text.replace(f"{src}:{dst}", "read-only-mount")
        if re.search(
            r"--privileged|(-v|--volume|--mount)[ =]\S*(^|[ =])/?:|-v /:|--volume=/:"
            r"|(?:-v|--volume)[ =][A-Za-z]:[\\/]?:"
            r"|--pid[= ]host|--cap-add[= ](ALL|SYS_ADMIN)|docker\.sock|"
            r"(apparmor|seccomp)[=:]unconfined|--userns[= ]host|(?:source|src)=/(?:,|\s|$)"
            r"|(?:source|src)=[A-Za-z]:[\\/]?(?:,|\s|$)"
            r"|--device[= ]/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|dm-)",
            text,
        ):
            cmd.add(C, "container-escape", "the container gets root access to the host")
        else:
            cmd.add(M, "container", f"{cmd.name} runs a container")
        _container_command(cmd)
        return
    if ops[0] == "exec" or (ops[0] == "compose" and len(ops) > 1 and ops[1] in ("exec", "run")):
        cmd.add(M, "container", f"{cmd.name} {ops[0]} runs a command in a container")
        if ops[0] == "compose" and ops[1] == "run":
            compose_manifests(cmd, "-f --file")  # (n19u) the service's mounts and command
        inner = _in_container(cmd, "compose" if ops[0] == "compose" else "exec")
        if inner:
            # `docker compose run -v ~:/w app rm -rf /w`: run takes mounts too.
            _judge_mapped(cmd, inner, container_mounts(cmd.args))
        return
    if verbs[0] in names(
        """
        compose container image volume network system builder buildx context plugin secret node
        service stack kube play
        """
    ):
        sub = verbs[1] if len(verbs) > 1 else ""
        if verbs[0] == "node" and sub == "update" and re.search(r"--availability[= ]drain", text):
            cmd.add(D, "container-delete", f"{cmd.name} node update drains a node's tasks")
            return
        if verbs[:2] in (["kube", "play"], ["play", "kube"]):
            _kube_play(cmd)  # (n19u) `podman kube play - <<EOF`: a pod manifest runs
        if verbs[0] == "compose" and not _COMPOSE_UP.isdisjoint(ops[1:4]):
            compose_manifests(cmd, "-f --file")  # (n19u) `docker compose -f - up <<EOF`
        elif verbs[0] == "stack" and sub == "deploy":
            compose_manifests(cmd, "-c --compose-file")  # (n19u) `docker stack deploy -c -`
        if verbs[0] == "compose" and sub == "down":
            if re.search(r"(^|\s)(-v|--volumes|--rmi)\b", text):
                cmd.add(D, "container-delete", "compose down -v deletes volumes (data)")
            else:
                cmd.add(M, "container", "compose down stops and removes containers")
            return
        if sub in _DOCKER_SAFE:
            return
        if verbs[0] == "context" and sub in ("rm", "remove"):
            # (a22) `docker context rm prod`: a saved endpoint of the client is forgotten;
            # no container, image or data on any host goes (a settings change)
            cmd.add(M, "container", f"{cmd.name} context {sub} removes a saved connection")
            return
        if sub in _DOCKER_DELETE:
            cmd.add(
                D,
                "container-delete",
                f"{cmd.name} {verbs[0]} {sub} deletes containers, images or data",
            )
            return
        cmd.add(M, "container", f"{cmd.name} {verbs[0]} {sub} changes containers")
        return
    if ops[0] in _DOCKER_SAFE:
        return
    if ops[0] in _DOCKER_DELETE:
        cmd.add(D, "container-delete", f"{cmd.name} {ops[0]} deletes containers or images")
        return
    cmd.add(M, "container", f"{cmd.name} {ops[0]} changes containers or images")


_KUBE_SAFE = frozenset(
    names(
        """
        get describe logs top explain version api-resources api-versions cluster-info diff
        events auth wait completion plugin kustomize whoami status convert
        """
    )
)
# Read-only sub-verbs of verbs that otherwise write (gen11, kubectl-ai's filter tests):
# `kubectl rollout status|history`, `kubectl auth can-i|whoami` (`auth reconcile` writes RBAC).
_KUBE_SAFE_SUB = {
    "rollout": frozenset(names("status history")),
    "auth": frozenset(names("can-i whoami")),
}


def _pod_spec_commands(cmd: Cmd) -> None:
    """`kubectl run x --overrides='{"spec":{…}}'`: an inline pod spec's containers run their
    `command`/`args` in a pod whose `hostPath` volumes are the node's folders (judged with
    those paths put back, as for `docker run -v`), and with `hostPID` + privileged an
    `nsenter -t 1` reaches the node itself (safety-m9: inline pod specs)."""
    import json

    spec_text = cmd.option_value("--overrides")
    if spec_text is None or spec_text.dynamic or "{" not in spec_text.text:
        return
    try:
        doc = json.loads(spec_text.text)
    except ValueError:
        cmd.add(C, "remote-code", "kubectl runs a pod spec the analyser cannot read", spec_text)
        return
    _pod_spec_judged(cmd, doc, spec_text)


def _pod_spec_judged(cmd: Cmd, doc: object, where: Word) -> None:
    """A pod (or a workload's pod template) spec's containers, judged as `_pod_spec_commands`
    says: their command with the hostPath volumes put back."""
    if not isinstance(doc, dict):
        return
    spec = doc.get("spec") or {}
    if isinstance(spec, dict) and isinstance(spec.get("jobTemplate"), dict):
        spec = spec["jobTemplate"].get("spec") or {}  # (a CronJob's job template)
    if isinstance(spec, dict) and isinstance(spec.get("template"), dict):
        spec = spec["template"].get("spec") or {}
    if not isinstance(spec, dict):
        return
    host_paths: dict[str, str] = {}
    for vol in spec.get("volumes") or []:
        if isinstance(vol, dict) and isinstance(vol.get("hostPath"), dict):
            path = vol["hostPath"].get("path")
            if isinstance(path, str) and isinstance(vol.get("name"), str):
                host_paths[vol["name"]] = path
    containers = [
        c
        for key in ("initContainers", "containers", "ephemeralContainers")
        for c in (spec.get(key) or [])
        if isinstance(c, dict)
    ]
    for c in containers[:8]:
        argv = [a for a in (c.get("command") or []) + (c.get("args") or []) if isinstance(a, str)]
        if not argv:
            continue
        mounts = [
            (host_paths[m["name"]], m["mountPath"], bool(m.get("readOnly")))
            for m in c.get("volumeMounts") or []
            if isinstance(m, dict)
            and m.get("name") in host_paths
            and isinstance(m.get("mountPath"), str)
        ]
        words = [Word(a, where.start, where.end) for a in argv]
        _judge_mapped(cmd, words, mounts)


# (n17u) `kubectl apply|create -f - <<EOF` with the manifest in the block: each document's
# pod spec is judged (a hostPath mount of / and `rm -rf /host/etc` wipes the node). A small
# reader for the block-style YAML manifests are written in (mappings, `- ` lists, flow lists
# and quoted scalars); JSON manifests read as JSON.
# (n18u) YAML's flow style (`[{name: h, hostPath: {path: /}}]`): quoted or bare scalars,
# `[…]` sequences and `{k: v}` mappings, read by a small recursive reader.
_FLOW_TOKEN = re.compile(
    r"\s*(?:([\[\]{},])|\"((?:[^\"\\]|\\.)*)\"|'((?:[^']|'')*)'|([^\[\]{},]+))"
)


def _flow(text: str) -> object:
    tokens: list[tuple[str, str]] = []
    for m in _FLOW_TOKEN.finditer(text):
        if m.group(1):
            tokens.append((m.group(1), ""))
        elif m.group(2) is not None or m.group(3) is not None:
            quoted = m.group(2) if m.group(2) is not None else m.group(3).replace("''", "'")
            tokens.append(("s", quoted))
        elif m.group(4).strip():
            tokens.append(("s", m.group(4).strip()))
        if len(tokens) > 400:
            raise ValueError("too long")
    pos = 0

    def value() -> object:
        nonlocal pos
        kind, text = tokens[pos]
        pos += 1
        if kind == "s":
            return text
        if kind == "[":
            items: list[object] = []
            while tokens[pos][0] != "]":
                items.append(value())
                if tokens[pos][0] == ",":
                    pos += 1
            pos += 1
            return items
        if kind == "{":
            out: dict[str, object] = {}
            while tokens[pos][0] != "}":
                kind, entry = tokens[pos]
                pos += 1
                key, colon, rest = entry.partition(":")
                if not colon or kind != "s":
                    raise ValueError("not a mapping")
                key = key.strip().strip("'\"")
                rest = rest.strip()
                if rest:
                    out[key] = _yaml_scalar(rest)
                elif tokens[pos][0] in ("[", "{"):
                    out[key] = value()
                else:
                    out[key] = ""
                if tokens[pos][0] == ",":
                    pos += 1
            pos += 1
            return out
        raise ValueError("unexpected")

    try:
        return value()
    except (IndexError, ValueError):
        raise ValueError("not flow YAML") from None


def _yaml_scalar(text: str) -> object:
    import json

    t = text.strip()
    if (t.startswith("[") and t.endswith("]")) or (t.startswith("{") and t.endswith("}")):
        try:
            return json.loads(t)
        except ValueError:
            pass
        try:
            return _flow(t)
        except ValueError:
            if t.startswith("{"):
                return t
            items = re.findall(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^']|'')*)'|([^,\s][^,]*)", t[1:-1])
            return [a or b.replace("''", "'") or c.strip() for a, b, c in items]
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return t


def _yaml_key(line: str) -> tuple[str, str] | None:
    """`key: value` / `key:` as (key, value); None for anything else (no regex: a long line
    without a colon costs one scan)."""
    key, colon, rest = line.partition(":")
    if not colon or not key or (rest and not rest[0].isspace()):
        return None
    if not key.replace("-", "").replace(".", "").replace("_", "").isalnum():
        return None
    return key, rest.strip()


_BLOCK_SCALARS = frozenset(("|", ">", "|-", ">-", "|+", ">+"))


def _yaml_block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[object, int]:
    if i < len(lines) and (lines[i][1].startswith("- ") or lines[i][1] == "-"):
        items: list[object] = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1][:1] == "-":
            rest = lines[i][1][1:].strip()
            if not rest:
                value, i = _yaml_block(lines, i + 1, lines[i + 1][0] if i + 1 < len(lines) else 0)
                items.append(value)
                continue
            if rest in _BLOCK_SCALARS:
                # (n18u) `- |` then its more-indented lines: one string (a script)
                j = i + 1
                while j < len(lines) and lines[j][0] > indent:
                    j += 1
                items.append(("\n" if rest[0] == "|" else " ").join(t for _, t in lines[i + 1 : j]))
                i = j
                continue
            if _yaml_key(rest) is not None:
                # `- name: x` opens a mapping whose other keys sit under `name`
                sub = [(indent + 2, rest)]
                j = i + 1
                while j < len(lines) and lines[j][0] > indent:
                    sub.append(lines[j])
                    j += 1
                value, _ = _yaml_block(sub, 0, indent + 2)
                items.append(value)
                i = j
                continue
            items.append(_yaml_scalar(rest))
            i += 1
        return items, i
    out: dict[str, object] = {}
    while i < len(lines) and lines[i][0] == indent:
        kv = _yaml_key(lines[i][1])
        if kv is None:
            i += 1
            continue
        key, rest = kv
        if rest and rest not in _BLOCK_SCALARS:
            out[key] = _yaml_scalar(rest)
            i += 1
        elif i + 1 < len(lines) and lines[i + 1][0] >= indent and rest == "":
            nxt = lines[i + 1][0]
            if nxt == indent and not lines[i + 1][1].startswith("-"):
                out[key] = ""
                i += 1
                continue
            out[key], i = _yaml_block(lines, i + 1, nxt)
        else:
            j = i + 1  # a block scalar: its lines joined
            body: list[str] = []
            while j < len(lines) and lines[j][0] > indent:
                body.append(lines[j][1])
                j += 1
            out[key] = "\n".join(body)
            i = j
    return out, i


def yaml_documents(text: str) -> list[object]:
    """The documents of a block-style YAML (or JSON) manifest, as far as this reader goes."""
    import json

    if text.lstrip().startswith("{"):
        try:
            return [json.loads(text)]
        except ValueError:
            return []
    docs: list[object] = []
    for part in re.split(r"(?m)^---.*$", text[:20000]):
        lines = [
            (len(raw) - len(raw.lstrip(" ")), raw.strip())
            for raw in part.splitlines()
            if raw.strip() and not raw.lstrip().startswith("#")
        ]
        if lines:
            doc, _ = _yaml_block(lines, 0, lines[0][0])
            docs.append(doc)
    return docs


def manifest_on_stdin(cmd: Cmd) -> None:
    """`kubectl apply -f - <<EOF … EOF`: the pods the manifest starts run their commands;
    (n18u) also a manifest file this block wrote (`cat > pod.yaml <<EOF` … `kubectl create
    -f pod.yaml`)."""
    texts: list[tuple[str, Word]] = []
    if cmd.stdin.kind == "static" and "host" in cmd.stdin.text:
        texts.append((cmd.stdin.text, Word("-", cmd.start, cmd.end)))
    if cmd.scope.written:
        from aintern_ls.safety.wrappers import written_text

        for _opt, value in opt_values(cmd, "-f --filename"):
            written = None if value.dynamic else written_text(cmd.scope, value.text)
            if written is not None and "host" in written:
                texts.append((written, value))
    for text, where in texts:
        if "hostPath" not in text and "hostPID" not in text:
            continue  # (cheap exit: only the node's folders or processes make it ours)
        for doc in yaml_documents(text)[:8]:
            _pod_spec_judged(cmd, doc, where)


# (n19u) Compose files: `docker compose -f - up <<EOF`, a compose.yaml this block wrote then
# `docker compose up`, `docker stack deploy -c -`: each service's entrypoint and command run
# in a container whose bind mounts are the host's folders (judged with them put back, as for
# `docker run -v`); a service mounting the host's root or the Docker socket, privileged or in
# the host's process space, has root on the host (critical, as `docker run` says).
_COMPOSE_NAMES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
_COMPOSE_UP = frozenset(names("up run create start restart"))


def _kube_play(cmd: Cmd) -> None:
    """`podman kube play - <<EOF`, `podman play kube pod.yaml` of a manifest this block wrote:
    the pods it starts run their commands with the hostPath volumes put back (as for
    `kubectl apply -f -`)."""
    ops = [w for w in cmd.args if not w.text.startswith("-") or w.text == "-"]
    at = next((k for k, w in enumerate(ops) if w.text in ("play", "kube") and k > 0), None)
    if at is None:
        return
    # (a `-` operand read from a here-document may reach us as no operand at all)
    given = ops[at + 1] if at + 1 < len(ops) else Word("-", cmd.start, cmd.end)
    text: str | None = None
    if given.text == "-" and cmd.stdin.kind == "static":
        text = cmd.stdin.text
    elif cmd.scope.written and not given.dynamic:
        from aintern_ls.safety.wrappers import written_text

        text = written_text(cmd.scope, given.text)
    if text is None or ("hostPath" not in text and "hostPID" not in text):
        return
    for doc in yaml_documents(text)[:8]:
        _pod_spec_judged(cmd, doc, given)


def compose_manifests(cmd: Cmd, file_opts: str) -> None:
    texts: list[tuple[str, Word]] = []
    named = False
    for _opt, value in opt_values(cmd, file_opts):
        named = True
        if value.text == "-" and cmd.stdin.kind == "static":
            texts.append((cmd.stdin.text, Word("-", cmd.start, cmd.end)))
        elif cmd.scope.written and not value.dynamic:
            from aintern_ls.safety.wrappers import written_text

            written = written_text(cmd.scope, value.text)
            if written is not None:
                texts.append((written, value))
    if not named and cmd.scope.written:
        for base in _COMPOSE_NAMES:
            held = cmd.scope.written.get(base)
            if held is not None:
                texts.append((held[0], Word(base, cmd.start, cmd.end)))
    for text, where in texts[:4]:
        if "services" not in text:
            continue
        for doc in yaml_documents(text)[:4]:
            _compose_services_judged(cmd, doc, where)


def _compose_mount(v: object) -> tuple[str, str, bool] | None:
    if isinstance(v, str):
        parts = v.split(":")
        if len(parts) >= 2 and parts[0][:1] in ("/", "~", ".", "$"):
            return parts[0], parts[1], len(parts) > 2 and "ro" in parts[2].split(",")
    elif isinstance(v, dict) and v.get("type", "bind") == "bind":
        src, dst = v.get("source"), v.get("target")
        if isinstance(src, str) and isinstance(dst, str):
            return src, dst, str(v.get("read_only", "")).lower() in ("true", "yes")
    return None


def _compose_services_judged(cmd: Cmd, doc: object, where: Word) -> None:
    services = doc.get("services") if isinstance(doc, dict) else None
    if not isinstance(services, dict):
        return
    for svc in list(services.values())[:16]:
        if not isinstance(svc, dict):
            continue
        mounts = [m for v in (svc.get("volumes") or [])[:16] if (m := _compose_mount(v))]
        escape = (
            any(not ro and (src == "/" or "docker.sock" in src) for src, _, ro in mounts)
            or str(svc.get("privileged", "")).lower() in ("true", "yes")
            or svc.get("pid") == "host"
        )
        if escape:
            cmd.add(C, "container-escape", "a compose service gets root access to the host", where)
        argv: list[str] = []
        for key in ("entrypoint", "command"):
            val = svc.get(key)
            if isinstance(val, str):
                try:
                    argv += shlex.split(val)
                except ValueError:
                    argv += val.split()
            elif isinstance(val, list):
                argv += [a for a in val if isinstance(a, str)]
        if argv:
            _judge_mapped(cmd, [Word(a, where.start, where.end) for a in argv[:64]], mounts)


def _kube_from_file(cmd: Cmd, kind: str) -> None:
    """(n18u) `kubectl create secret generic k --from-file=~/.ssh/id_rsa`: the local file's
    contents are sent to the cluster (a remote host: the session-13 upload convention); a
    configmap of ordinary project files stays a cluster change."""
    for _opt, value in opt_values(cmd, "--from-file --from-env-file"):
        path = value.text.split("=", 1)[1] if "=" in value.text else value.text
        if value.dynamic or kind == "secret" or is_secret(path):
            cmd.add(
                C,
                "exfiltration",
                f"kubectl create {kind} sends the local file {path} to the cluster",
                value,
            )
            return


# (a22) A kustomization kubectl fetches itself: a URL, a git remote, or a path whose first
# segment is a host name (`github.com/org/repo//overlays/prod?ref=main`).
_REMOTE_SOURCE = re.compile(
    r"(?i)\A(?:https?://|git::|git@|ssh://|(?:github\.com|gitlab\.com|bitbucket\.org)/"
    r"|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}\.[a-z]{2,12}/)"
)


def _remote_manifest(cmd: Cmd, verb: str) -> None:
    """(a22) `kubectl apply -f https://…`, `-k github.com/…`, `curl … | kubectl apply -f -`:
    the cluster runs whatever the fetched manifest says (a DaemonSet on every node, a
    privileged pod, a ClusterRoleBinding), and nobody here read it: remote code, critical.
    A local file, a manifest the block shows, and a dry run (handled before) are not."""
    for _opt, value in opt_values(cmd, "-f --filename -k --kustomize"):
        text = value.text.strip("'\"")
        kustomize = _opt.text.startswith(("-k", "--k"))
        if text.lower().startswith(("http://", "https://")) or (
            kustomize and _REMOTE_SOURCE.match(text)
        ):
            cmd.add(
                C,
                "remote-code",
                f"kubectl {verb} applies a manifest fetched from {text} that nobody here read",
                value,
            )
            return
        base = text.replace("\\", "/").rsplit("/", 1)[-1]
        if base and base in cmd.scope.downloaded:
            cmd.add(
                C,
                "remote-code",
                f"kubectl {verb} applies {base}, a manifest just downloaded and not read",
                value,
            )
            return
        if text == "-" and cmd.stdin.kind == STDIN_NETWORK:
            cmd.add(
                C,
                "remote-code",
                f"kubectl {verb} applies a manifest downloaded into its input that nobody here"
                " read",
                value,
            )
            return


@handles("kubectl", "oc", "kubecolor", "microk8s.kubectl", "k3s")
def _kubectl(cmd: Cmd) -> None:
    ops = cmd.operands(
        frozenset(
            names(
                """
                -n --namespace --context --kubeconfig -l --selector -o --output -c --container
                --cluster --user -f --filename
                """
            )
        )
    )
    if not ops:
        return
    verb = ops[0].text
    sub = ops[1].text if len(ops) > 1 else ""
    if verb in _KUBE_SAFE_SUB:
        if sub in _KUBE_SAFE_SUB[verb] or not sub:
            return
    elif verb in _KUBE_SAFE:
        return
    if verb == "certificate" and sub == "approve":
        # An approved signing request is a client certificate the cluster trusts: a new
        # credential for whatever identity the request names (account change).
        cmd.add(C, "account", "kubectl certificate approve issues a cluster credential", ops[1])
        return
    if verb == "config":
        sub = ops[1].text if len(ops) > 1 else ""
        if sub in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            return
        cmd.add(M, "kube-config", f"kubectl config {sub} changes kubeconfig")
        return
    if verb in ("apply", "create", "replace"):
        _remote_manifest(cmd, verb)
    if verb in ("delete", "drain") or (verb == "replace" and cmd.long("--force")):
        cmd.add(D, "kube-delete", f"kubectl {verb} removes cluster resources")
        backup_machinery_off(cmd)  # `kubectl delete cronjob etcd-backup` (n17u)
        return
    if verb == "exec":
        dd = next((i for i, w in enumerate(cmd.args) if w.text == "--"), None)
        if dd is not None and dd + 1 < len(cmd.args):
            cmd.judge(list(cmd.args[dd + 1 :]))
        # Even `kubectl exec pod -- cat /etc/os-release` reaches into a running workload on
        # another machine: at least moderate (the product's labelled examples rate a remote
        # read-only command moderate).
        cmd.add(M, "kube-exec", "kubectl exec runs a command in a pod")
        return
    if verb == "scale" and any(w.text in ("--replicas=0", "0") for w in cmd.args):
        cmd.add(D, "kube-delete", "scales a workload to zero")
        backup_machinery_off(cmd)  # `kubectl scale deploy velero --replicas=0` (n17u)
        return
    dd = next((i for i, w in enumerate(cmd.args) if w.text == "--"), None)
    if verb in ("run", "debug", "create") and dd is not None and dd + 1 < len(cmd.args):
        # (`kubectl create job j --image=x -- CMD…`: the job's container runs CMD, m8)
        # `kubectl run x --image=busybox -- rm -rf /`: runs in the new pod, judged as here;
        # `kubectl debug node/N` mounts the node's root at /host.
        node_debug = verb == "debug" and any(w.text.startswith("node/") for w in ops)
        inner = list(cmd.args[dd + 1 :])
        cmd.judge(map_mounts(inner, [("/", "/host", False)]) if node_debug else inner)
    if verb in ("run", "create", "debug") and not any(
        w.text.startswith("--dry-run") and not w.text.endswith("=none") for w in cmd.args
    ):
        _pod_spec_commands(cmd)
    if verb in ("apply", "create", "replace") and not any(
        w.text.startswith("--dry-run") and not w.text.endswith("=none") for w in cmd.args
    ):
        manifest_on_stdin(cmd)  # (n17u) `kubectl apply -f - <<EOF`
    if (
        verb == "create"
        and sub in ("secret", "configmap", "cm")
        and "--from-" in cmd.argv.joined_low
    ):
        _kube_from_file(cmd, sub)
    if verb == "create" and re.search(
        r"\A(clusterrolebinding|rolebinding)\b.*--clusterrole[= ](cluster-admin|admin)\b"
        r"|\Aserviceaccount\b.*\bcluster-admin\b|\Atoken\b",
        " ".join(w.text for w in cmd.args[cmd.args.index(ops[0]) + 1 :]),
    ):
        cmd.add(C, "privilege", "kubectl create grants cluster-admin rights or mints a token")
        return
    if verb in ("run", "debug", "create", "apply", "patch") and re.search(
        r"--privileged|\bprivileged\W+true|hostPID\W+true|hostNetwork\W+true|hostIPC\W+true"
        r"|hostPath|--profile[= ]sysadmin|node/",
        " ".join(cmd.texts()),
    ):
        cmd.add(C, "privilege", f"kubectl {verb} starts a privileged pod with access to the host")
        return
    cmd.add(M, "kube-write", f"kubectl {verb} changes the cluster")


@handles("helm")
def _helm(cmd: Cmd) -> None:
    ops = cmd.operands(frozenset({"-n", "--namespace", "--kube-context", "-f", "--values"}))
    verb = ops[0].text if ops else ""
    if verb in (
        *names(
            """
        list ls status get show template lint version search history env verify inspect
        """
        ),
        "",
    ) or (verb == "repo" and len(ops) > 1 and ops[1].text == "list"):
        return
    if verb in ("uninstall", "delete", "del", "un"):
        cmd.add(D, "kube-delete", "helm uninstall removes a release")
        backup_machinery_off(cmd)  # `helm uninstall velero` (n17u)
        return
    if verb in ("install", "upgrade"):
        # (a22) `helm install x https://…/x.tgz`: a chart fetched from a URL and installed
        # unread (its templates start any workload, its hooks run jobs): remote code
        url = next((w for w in ops[1:] if w.text.lower().startswith(("http://", "https://"))), None)
        if url is not None:
            cmd.add(C, "remote-code", f"helm {verb} installs a chart fetched from {url.text}", url)
            return
    cmd.add(M, "kube-write", f"helm {verb} changes the cluster")


@handles("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls")
def _terraform(cmd: Cmd) -> None:
    ops = [w.text for w in cmd.operands()]
    verb = ops[0] if ops else ""
    text = " ".join(cmd.texts())
    if cmd.name in ("terraform", "tofu") and cmd.scope.env:
        # (a22) `TF_CLI_ARGS_apply='-destroy -auto-approve' terraform apply`: terraform adds
        # TF_CLI_ARGS and TF_CLI_ARGS_<verb> to its own arguments (the option-variable
        # convention: judged as the options written on the command line)
        wanted = {"tf_cli_args", f"tf_cli_args_{verb}".lower()}
        extra = " ".join(
            v
            for k, v in cmd.scope.env.items()
            if "TF_CLI_ARGS" in k.upper()
            and k.rsplit(":", 1)[-1].lower() in wanted  # (`$env:X`, cmd's `set X=`)
        )
        if extra:
            text = f"{text} {extra}"
    if verb in ("plan", "preview") and cmd.name in ("terraform", "tofu", "terragrunt", "pulumi"):
        return  # a plan, even of a destroy saved with -out, changes nothing
    if cmd.name == "pulumi" and "--preview-only" in cmd.texts():
        return  # (h18) `pulumi destroy --preview-only`: shows the plan, changes nothing
    if (
        verb in ("destroy", "remove", "force-unlock")
        or "-destroy" in text.split()
        or (verb == "state" and len(ops) > 1 and ops[1] in ("rm", "delete"))
        or (verb in ("stack", "workspace") and len(ops) > 1 and ops[1] in ("rm", "delete"))
    ):
        cmd.add(D, "infra-destroy", f"{cmd.name} destroys infrastructure")
        return
    if (
        verb
        in (
            *names(
                """
            plan validate show output version providers graph preview console diff synth ls
            list whoami about
            """
            ),
            "",
        )
        or (verb == "fmt" and ("-check" in text or "--check" in text))
        or (verb == "state" and len(ops) > 1 and ops[1] in ("list", "show", "pull"))
    ):
        return
    cmd.add(M, "infra", f"{cmd.name} {verb} changes infrastructure or local state")


_CLOUD_DELETE = re.compile(
    r"^(delete|destroy|remove|rm|rb|terminate|purge|del|prune|drop|wipe|deregister|"
    r"\S+-(delete|destroy|terminate|purge|remove)(-\S+)?|"
    r"delete-\S+|remove-\S+|terminate-\S+|deregister-\S+|purge-\S+|\S+:destroy|\S+:delete|"
    r"\S+:remove|\S+:reset|apps:destroy|pg:reset|destroy-\S+"
    # data made unreadable or scheduled for deletion: KMS keys, vaults, secrets (safety-m7)
    r"|schedule-\S*deletion|empty-bucket|delete-batch|\S+-delete-batch)$"
)
_CLOUD_READ = re.compile(
    r"^(list|ls|describe|show|get|info|status|version|logs|whoami|cat|du|stat|help|"
    r"describe-\S+|list-\S+|get-\S+|lookup-\S+|search|tail|account|--version|config|"
    r"get-caller-identity|print-access-token|print-identity-token"
    # (gen11, Dippy's approval tests) reads named otherwise: item queries and scans, HEAD
    # requests, template validation, policy simulation, the IAM credential report
    r"|query|scan|batch-get-\S+|transact-get-\S+|head-\S+|validate|validate-\S+"
    r"|simulate-\S+|generate-credential-report)$"
)
# (h18) More read verbs, for a command path read by its verb rather than its last word.
_CLOUD_PLAIN_READ = re.compile(r"^(list|ls|info|get|view|inspect|diff|show|status|describe)$")
# Verbs that change or run something: a read verb after one of them is not the action.
_CLOUD_ACTS = re.compile(
    r"^(create|update|set|add|deploy|run|exec|execute|ssh|push|put|apply|import|restore|promote"
    r"|scale|restart|stop|start|rollback|enable|disable|link|unlink|login|logout|open|init"
    r"|upgrade|install|attach|detach|move|copy|cp|mv|sync|publish|release|send|invoke|call"
    r"|connect|console|shell|proxy|tunnel|reset|rotate|pull|clone|fork|merge|close"
    r"|(?:create|update|set|add|put|attach|detach|start|stop|run|modify|associate|disassociate"
    r"|enable|disable|reset|restore|import|export|copy|move|register|deregister|tag|untag"
    r"|invoke|send|publish|promote|reboot|terminate|delete|remove)-\S+)$"
)


def _cloud_read_path(lead: list[str]) -> bool:
    """(h18) `heroku apps:info`, `firebase hosting:channel:list`, `netlify env:list`: a verb
    after `topic:`; `vercel ls NAME`, `glab repo view NAME`, `supabase db diff`: a read verb
    before the operands. Read when a plain read verb is among the command path's words and
    nothing in the path acts (creates, sets, runs, stops, ...)."""
    parts: list[str] = []
    for word in lead:
        if not re.fullmatch(r"[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*", word):
            break
        parts += word.split(":")
    if any(_CLOUD_ACTS.match(p) for p in parts):
        return False
    return any(_CLOUD_PLAIN_READ.match(p) for p in parts)


# Revoking access is not destroying anything: `aws iam remove-user-from-group`, `aws lambda
# remove-permission`, `remove-tags-from-resource` (gen11).
_CLOUD_REVOKE = re.compile(r"^remove-(?:\S+-from-\S+|permissions?|tags?|\S+-tags?|\S*binding)$")


# Cloud audit trails and threat detection switched off (MITRE T1562.008).
_CLOUD_AUDIT_OFF = re.compile(
    r"\Aaws (cloudtrail (stop-logging|delete-trail)|guardduty (delete-detector|disassociate"
    r"|update-detector .*--no-enable)|securityhub disable-security-hub|config"
    r"service (stop|delete)-configuration-recorder|ec2 delete-flow-logs|macie2 disable-macie"
    r"|detective delete-graph|inspector2 disable|access-analyzer delete-analyzer)\b"
    r"|\Agcloud (logging (sinks delete|sinks update .*--disabled|buckets delete)"
    r"|scc \S+ delete)\b"
    r"|\Aaz (monitor (diagnostic-settings|log-profiles|activity-log alert) delete"
    r"|security (pricing create .*--tier free|auto-provisioning-setting update .*off))\b"
)
# Cloud identity changes: new users and keys, policies and role bindings (MITRE T1098.001/003,
# T1136.003).
_CLOUD_IAM = re.compile(
    r"\Aaws iam (create-user|create-login-profile|update-login-profile|create-access-key"
    r"|attach-(user|role|group)-policy|put-(user|role|group)-policy|add-user-to-group"
    r"|update-assume-role-policy|create-role|create-service-specific-credential"
    # (safety-rep7) a managed policy's new default version grants whatever it says
    r"|create-policy-version|set-default-policy-version"
    # (gen11, Dippy's approval tests) a console password changed; MFA switched off
    r"|change-password|deactivate-mfa-device|delete-virtual-mfa-device)\b"
    r"|\Aaz (ad (user|sp|app) (create|create-for-rbac|credential reset|owner add)"
    r"|ad group member add"
    r"|role assignment create"
    # (safety-rep7) vault access policies, VM local-admin resets, custom role definitions
    r"|keyvault set-policy|vm user (update|reset-ssh)|role definition (create|update))\b"
    r"|\Agcloud ((projects|organizations|folders|iam service-accounts) add-iam-policy-binding"
    r"|iam service-accounts (create|keys create)"
    # (safety-rep7) custom roles widened; SSH keys pushed through instance/project metadata
    r"|iam roles (create|update)|compute (instances|project-info) add-metadata .*ssh-keys)\b"
)


def _uploads_sensitive(ops: list[str]) -> bool:
    """`aws s3 sync ~ s3://b`, `gsutil cp -r /etc gs://b`, `az storage blob upload-batch -s ~`:
    a copy whose source is a home or system tree and whose destination is a bucket."""
    from aintern_ls.safety.network import sensitive_source

    buckets = [i for i, o in enumerate(ops) if re.match(r"\A(s3|gs|az|r2|b2|oss|cos)://", o)]
    if not buckets or not any(v in ops for v in ("cp", "sync", "mv", "rsync")):
        return False
    last = buckets[-1]
    return any(sensitive_source(o) for o in ops[:last] if not o.startswith("-"))


_COPY_VERBS = frozenset(names("cp sync mv rsync put"))


def _uploads_local(cmd: Cmd, ops: list[str]) -> None:
    """A local file or folder copied to cloud storage or a cloud machine: `aws s3 cp F s3://b`,
    `gsutil rsync -r D gs://b`, `gcloud storage cp`, `s3cmd put|sync`, `az storage blob
    upload(-batch)|sync`, `oci os object put|bulk-upload|sync`, `gcloud compute scp F vm:`:
    an upload (critical, the session-13 convention); the reverse direction is a download."""
    from aintern_ls.safety.network import sends_local

    if cmd.name == "gsutil" and "rsync" in ops and cmd.short("n"):
        return  # `gsutil rsync -n`: a dry run
    buckets = [i for i, o in enumerate(ops) if re.match(r"\A(s3|gs|az|r2|b2|oss|cos)://", o)]
    if buckets and buckets[-1] >= 2:
        src = ops[buckets[-1] - 1]
        before = ops[: buckets[-1] - 1]
        if "://" not in src and src not in _COPY_VERBS and not _COPY_VERBS.isdisjoint(before):
            sends_local(cmd, _word(cmd, src), f"{cmd.name} {' '.join(ops[: ops.index(src)])}")
        return
    lead = ops[:3]
    sent: Word | None = None
    if (
        cmd.name == "az"
        and lead[:1] == ["storage"]
        and {"upload", "upload-batch", "sync"} & set(ops[1:3])
    ):
        sent = cmd.option_value("-f", "--file", "-s", "--source")
        if sent is None and cmd.option_value("--data") is not None:
            return  # `--data TEXT`: text written in the command, not a file read
    elif (
        cmd.name == "oci"
        and lead[:2] == ["os", "object"]
        and lead[2:3]
        in (
            ["put"],
            ["bulk-upload"],
            ["sync"],
        )
    ):
        sent = cmd.option_value("--file", "--src-dir")
    elif (
        cmd.name == "aws"
        and lead[:1] == ["s3api"]
        and lead[1:2] in (["put-object"], ["upload-part"])
    ):
        # `aws s3api put-object --bucket b --key k --body FILE`: the file's bytes are the
        # object (gen11, Dippy's approval tests); without --body the object is empty.
        sent = cmd.option_value("--body")
        if sent is None:
            return
    elif cmd.name == "gcloud" and lead[:2] in (["compute", "scp"], ["compute", "copy-files"]):
        if len(ops) >= 4 and ":" in ops[-1] and ":" not in ops[2]:
            sent = _word(cmd, ops[2])
        else:
            return
    else:
        return
    sends_local(cmd, sent, f"{cmd.name} {' '.join(lead)}")


def _word(cmd: Cmd, text: str) -> Word | None:
    return next((w for w in cmd.args if w.text == text), None)


_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"' + r"|'([^']*)'")


def _script_strings(value: str) -> list[str]:
    """The command lines of an `aws ssm send-command --parameters` value: the shorthand
    `commands=["a","b"]`, `commands='a'`, `commands=a` or JSON `{"commands":["a"]}`."""
    m = re.search(r"\b(?:commands?|sourceInfo)\b\W*?[=:]\s*(.*)", value, re.S | re.I)
    body = m.group(1) if m else value
    if body.lstrip().startswith("["):
        body = body.lstrip()[1 : body.rfind("]")] if "]" in body else body.lstrip()[1:]
    found = [(a or b).replace('\\"', '"') for a, b in _QUOTED.findall(body)]
    if found:
        return found
    body = body.strip().rstrip("}").strip()
    return [body] if body else []


def _api_upload(cmd: Cmd) -> bool:
    """`gh api -X PUT repos/…/contents/x -f content="$(base64 -w0 file)"`, `gh api … -F
    content=@file`, `--input file`: local file contents sent to a repository or gist through
    the raw API (the s1ngularity/Nx exfiltration step): critical."""
    args = cmd.args
    if not args or args[0].text != "api":
        return False
    for i, w in enumerate(args):
        t = w.text
        value: Word | None = None
        if t in ("-f", "-F", "--field", "--raw-field") and i + 1 < len(args):
            value = args[i + 1]
        elif re.match(r"\A(?:-[fF]|--(?:raw-)?field=)\S", t):
            value = w
        if (
            t == "--input"
            and i + 1 < len(args)
            and args[i + 1].text not in ("-", "")
            and re.search(r"contents/|gists|git/blobs|releases|uploads", " ".join(cmd.texts()))
        ):
            cmd.add(C, "exfiltration", f"{cmd.name} api sends a local file's contents", args[i + 1])
            return True
        if value is None:
            continue
        key, _, val = value.text.partition("=")
        key = re.sub(r"\A(?:-[fF]|--(?:raw-)?field=)", "", key)
        if t == "-F" and val.startswith("@") and val not in ("@-",):
            cmd.add(C, "exfiltration", f"{cmd.name} api uploads the file {val[1:]}", value)
            return True
        if value.dynamic and re.fullmatch(
            r"(?i)content|files?|data|payload|encoded|body", key.strip()
        ):
            cmd.add(
                C, "exfiltration", f"{cmd.name} api uploads data read at run time ({key})", value
            )
            return True
    return False


def _remote_run(cmd: Cmd) -> bool:
    """Cloud CLIs that run a command on remote machines (`aws ssm send-command`, `az vm
    run-command invoke --scripts`, `gcloud compute ssh --command`): judged as the command
    they run, like `ssh host CMD` (DESIGN §5); a script file or one only known at run time
    is critical (code nobody has read runs on the fleet)."""
    ops = [w.text.lower() for w in cmd.args if not w.text.startswith("-")][:4]
    lines: list[tuple[Word, str]] = []
    blind: Word | None = None
    family = "bash"
    text = " ".join(cmd.texts()).lower()
    if "powershell" in text:
        family = "powershell"
    if cmd.name == "aws" and ops[:2] == ["ssm", "start-session"]:
        # `--document-name AWS-StartInteractiveCommand --parameters command="…"` (m9)
        v = cmd.option_value("--parameters")
        if v is None or not re.search(r"(?i)command", v.text):
            return False
        if v.dynamic:
            blind = v
        else:
            lines = [(v, line) for line in _script_strings(v.text)]
    elif cmd.name == "aws" and ops[:2] in (
        ["ssm", "send-command"],
        ["ssm", "create-association"],
        ["ssm", "update-association"],
    ):
        v = cmd.option_value("--parameters")
        if v is None and ops[1] != "send-command":
            return False  # an association of a document with no commands of its own
        if v is None or v.dynamic or v.text.lower().startswith(("file:", "fileb:")):
            blind = v or cmd.args[0]
        else:
            lines = [(v, line) for line in _script_strings(v.text)]
        if ops[1] != "send-command" and cmd.option_value("--schedule-expression") is not None:
            # commands run again on a schedule on every targeted machine: a fleet-wide cron
            # job (persistence, safety-m9)
            cmd.add(C, "persistence", f"{cmd.name} ssm schedules commands on remote machines")
    elif (
        cmd.name == "az"
        and ops[:2] in (["vm", "run-command"], ["vmss", "run-command"])
        and ops[2:3] in (["invoke"], ["create"], ["update"], [])
    ):
        start = False
        for w in cmd.args:
            if w.text in ("--scripts", "--script"):
                start = True
                continue
            if start and w.text.startswith("--"):
                break
            if start:
                if w.text.startswith("@") or w.dynamic:
                    blind = w
                else:
                    lines.append((w, w.text))
        if not lines and blind is None and ops[2:3] in (["invoke"], ["create"]):
            blind = cmd.args[0]
    elif cmd.name == "az" and ops[:1] == ["ssh"] and ops[1:2] in (["vm"], ["arc"]):
        # (n18u) `az ssh vm -n VM -g RG -- [ssh options] CMD`: the words after `--` are
        # ssh's own, so they are judged as `ssh VM …` (its options, then the remote command)
        words = [w.text for w in cmd.args]
        if "--" not in words:
            return False
        rest = list(cmd.args[words.index("--") + 1 :])
        if not rest:
            return False
        host = Word("vm", rest[0].start, rest[0].start)
        cmd.add(M, "remote", "az ssh runs commands on a remote machine")
        cmd.judge([Word("ssh", host.start, host.end), host, *rest])
        return True
    elif cmd.name == "gcloud" and "ssh" in ops:
        v = cmd.option_value("--command")
        if v is not None:
            lines = [(v, v.text)]
        else:
            words = [w.text for w in cmd.args]
            if "--" in words:
                rest = cmd.args[words.index("--") + 1 :]
                if rest:
                    line = " ".join(w.text for w in rest)
                    lines = [(Word(line, rest[0].start, rest[-1].end), line)]
        if not lines:
            return False
    else:
        return False
    if blind is not None:
        cmd.add(
            C, "remote-code", f"{cmd.name} runs a script nobody can read here on remote machines"
        )
        return True
    cmd.add(M, "remote", f"{cmd.name} runs commands on remote machines")
    for where, line in lines:
        if where.dynamic:
            cmd.add(C, "remote-code", f"{cmd.name} runs a command only known at run time remotely")
            continue
        cmd.scope.include(cmd.scope.nested(line, family, where, -1))
    return True


# A cloud CLI's sync verb, told to delete what the source lacks (`gsutil rsync -d`, `gcloud
# storage rsync --delete-unmatched-destination-objects`, `aws s3 sync --delete`, `s3cmd sync
# --delete-removed`), with a LOCAL destination (`file:///etc`, `/usr`): the local folder is
# made equal to the bucket, so whatever the bucket lacks is deleted there (n10u).
_SYNC_DELETES = re.compile(
    r"\A(?:-d|-[a-ce-z]*d[a-z]*|--delete(?:-\w+)*(?:=true)?|--delete-unmatched-destination-objects)\Z"
)


def _syncs_over_local(cmd: Cmd) -> bool:
    from aintern_ls.safety.paths import classify_path

    texts = cmd.texts()
    if not any(t in ("rsync", "sync") for t in texts[:4]):
        return False
    if any(t in ("-n", "--dry-run", "--dryrun") for t in texts):
        return True  # `gsutil rsync -n`, `aws s3 sync --dryrun`: lists what it would do
    if not any(_SYNC_DELETES.match(t) for t in texts):
        return False
    dest = next((w for w in reversed(cmd.args) if not w.text.startswith("-")), None)
    if dest is None or dest.dynamic:
        return False
    local = dest.text[7:] if dest.text.lower().startswith("file://") else dest.text
    if re.match(r"(?i)\A[a-z][\w+.-]*://", local) or not local.startswith(("/", "~")):
        cmd.add(D, "cloud-delete", f"{cmd.name} sync deletes what the source lacks", dest)
        return True
    t = classify_path(local, cmd.scope.cwds)
    if t.level < B:
        cmd.add(D, "rm", f"{cmd.name} sync deletes from {local} what the source lacks", dest)
        return True
    cmd.add(B, t.rule, f"{cmd.name} sync deletes from {t.what} whatever the source lacks", dest)
    return True


# Cloud backup data deleted: the copies a restore needs are gone (like `vssadmin delete
# shadows`: blocked). `az backup protection disable … --delete-backup-data true`, `az backup
# vault delete`, `az dataprotection backup-instance|backup-vault delete`, `aws backup
# delete-recovery-point|delete-backup-vault`, `gcloud backup-dr backups|backup-vaults delete`.
_CLOUD_BACKUP_DELETE = re.compile(
    r"\Aaz\s+backup\s+protection\s+disable\b.*--delete-backup-data(?:\s+|=)(?:true|yes|1)\b"
    r"|\Aaz\s+backup\s+(?:vault|recoverypoint)\s+delete\b"
    r"|\Aaz\s+dataprotection\s+(?:backup-instance|backup-vault|recovery-point)\s+delete\b"
    r"|\Aaws\s+backup\s+delete-(?:recovery-point|backup-vault)\b"
    r"|\Aaws\s+(?:--\S+\s+\S+\s+)*backup\s+delete-(?:recovery-point|backup-vault)\b"
    r"|\Agcloud\s+(?:\S+\s+)?backup-dr\s+(?:backups|backup-vaults|data-sources)\s+delete\b",
    re.S,
)


# A cloud resource opened to the whole internet (gen11, from aws-mcp-server's and other agent
# gates' cloud policy tests): an ingress rule from 0.0.0.0/0 (or ::/0, az `*`/`Internet`) to
# anything but the web ports, or a bucket/container made public (a policy whose Principal is
# `*`, a public ACL, the public-access block removed, `allUsers` granted). A security control
# switched off: critical, like a host firewall turned off. Opening only 80/443 to the world is
# what a web server needs (moderate); closing rules, egress, deny rules and reads stay low.
_WORLD_CIDR = ("0.0.0.0/0", "::/0")
_WEB_PORTS = frozenset({80, 443})
_EXPOSURE_WORDS = (*_WORLD_CIDR, "allusers", "allauthenticatedusers", "public", "principal", "*")
_PUBLIC_PRINCIPAL = re.compile(r'"?principal"?\s*:\s*(?:\{\s*"?aws"?\s*:\s*)?\[?\s*"\*"')
_PUBLIC_ACL = re.compile(
    r"--acl(?:\s+|=)(?:public-read|public-read-write|authenticated-read)\b"
    r"|acs\.amazonaws\.com/groups/global/(?:allusers|authenticatedusers)"
)
_PUBLIC_SHARE = re.compile(
    r"modify-(?:db-|db-cluster-)?snapshot-attribute|modify-image-attribute"
    r"|modify-fpga-image-attribute|modify-snapshot-attribute"
)
_TO_ALL = re.compile(
    r"--group-names?(?:\s+|=)['\"]?all\b|--values-to-add(?:\s+|=)['\"]?all\b"
    r"|group\"?\s*[=:]\s*\"?all\b|add=\[\{group=all\}\]"
)
_PORT_OPTS = frozenset(
    names(
        """
    --port --allow --rules --destination-port-ranges --destination-port-range --ports
    """
    )
)


def _ports(cmd: Cmd, low: str) -> list[str] | None:
    """The port specs an ingress rule opens; None when it opens every port (or says none)."""
    if re.search(r"(?:--protocol(?:\s+|=)|ipprotocol=|\"ipprotocol\"\s*:\s*\")(?:-1|all)\b", low):
        return None
    specs: list[str] = []
    texts = [t.lower() for t in cmd.texts()]
    for i, t in enumerate(texts):
        opt, eq, val = t.partition("=")
        if opt in _PORT_OPTS:
            vals = [val] if eq else texts[i + 1 : i + 2]
            if opt == "--destination-port-ranges" and not eq:
                vals = []
                for v in texts[i + 1 :]:
                    if v.startswith("-"):
                        break
                    vals.append(v)
            for v in vals:
                specs += [x for x in re.split(r"[,\s]+", v) if x]
    specs += re.findall(r"(?:fromport|toport)\"?\s*[=:]\s*(-?\d+)", low)
    return specs or None


def _web_only(specs: list[str] | None) -> bool:
    if not specs:
        return False
    for spec in specs:
        port = spec.rpartition(":")[2]  # gcloud `tcp:443`
        if not port.isdigit() or int(port) not in _WEB_PORTS:
            return False
    return True


def _opens_to_internet(cmd: Cmd, low: str) -> str:
    """What this cloud command opens to the whole internet, or ""."""
    name = cmd.name
    world = any(c in low for c in _WORLD_CIDR)
    if name == "aws":
        if world and "authorize-security-group-ingress" in low:
            return "" if _web_only(_ports(cmd, low)) else "a security group to the whole internet"
        if "public-access-block" in low and (
            "delete-public-access-block" in low or re.search(r"=false\b|\":\s*false\b", low)
        ):
            return "a bucket's public-access block"
        if ("put-bucket-acl" in low or "put-object-acl" in low) and _PUBLIC_ACL.search(low):
            return "a bucket or object to everyone (public ACL)"
        if "put-bucket-policy" in low and _PUBLIC_PRINCIPAL.search(low):
            return "a bucket to everyone (policy Principal *)"
        if (
            _PUBLIC_SHARE.search(low)
            and _TO_ALL.search(low)
            and not re.search(r"--operation-type(?:\s+|=)['\"]?remove", low)
        ):
            # `modify-snapshot-attribute … createVolumePermission … --group-names all`,
            # `modify-db-snapshot-attribute --attribute-name restore --values-to-add all`,
            # `modify-image-attribute --launch-permission "Add=[{Group=all}]"`: a disk, a
            # database or an image shared with every account (n13u, probe13)
            return "a snapshot or image to every account (public)"
    elif name == "gcloud":
        if world and "firewall-rules" in low and re.search(r"\b(?:create|update)\b", low):
            if re.search(r"--direction(?:\s+|=)egress|--action(?:\s+|=)deny", low):
                return ""
            return "" if _web_only(_ports(cmd, low)) else "a firewall to the whole internet"
        if (
            ("allusers" in low or "allauthenticatedusers" in low)
            and "storage" in low
            and "add-iam-policy-binding" in low
        ):
            return "a storage bucket to everyone (allUsers)"
        if (
            ("allusers" in low or "allauthenticatedusers" in low)
            and re.search(r"\b(?:images|snapshots|disks|machine-images)\b", low)
            and "add-iam-policy-binding" in low
        ):
            return "a disk image or snapshot to everyone (allUsers)"
    elif name == "gsutil":
        if ("allusers" in low or "allauthenticatedusers" in low) and re.search(
            r"\b(?:iam|acl|defacl)\s+ch\b", low
        ):
            return "a storage bucket to everyone (allUsers)"
    elif name == "az":
        if "nsg" in low and re.search(r"\brule\s+(?:create|update)\b", low):
            if re.search(r"--access(?:\s+|=)deny|--direction(?:\s+|=)outbound", low):
                return ""
            src = re.search(
                r"--source-address-prefix(?:es)?(?:\s+|=)['\"]?(\*|internet|any|0\.0\.0\.0/0)['\"]?(?:\s|$)",
                low,
            )
            if src:
                return (
                    ""
                    if _web_only(_ports(cmd, low))
                    else "a network security group to the whole internet"
                )
        if (
            "storage container" in low
            and re.search(r"--public-access(?:\s+|=)(?:blob|container)\b", low)
            and "set-permission" in low
        ):
            return "a storage container to everyone (public access)"
        if "storage account" in low and re.search(
            r"--allow-blob-public-access(?:\s+|=)true\b", low
        ):
            return "a storage account's blobs to public access"
    return ""


_CLOUD_VALUED = frozenset(
    names(
        """
        --region --profile --project --output -o --query --zone -g --resource-group
        --subscription -R --repo --format -a --app --account --endpoint-url
        """
    )
)
# gh/glab options whose value is text (an issue's body, a title, release notes): a path
# written in it is words, not a file sent (`gh issue create --body 'cat ~/.ssh/id_rsa'`)
# (gen12); `--body-file`/`-F` still name a file.
_FORGE_TEXT = frozenset(
    names("--body -b --title -t --notes -n --message -m --description --comment --subject")
)


def _forge_text_from_command(cmd: Cmd) -> Word | None:
    """The value of a text option (`--body "$(…)"`) that a command substitution fills."""
    args = cmd.args
    for i, w in enumerate(args):
        opt, eq, _ = w.text.partition("=") if w.text.startswith("--") else (w.text, "", "")
        if opt not in _FORGE_TEXT:
            continue
        value = w if eq else (args[i + 1] if i + 1 < len(args) else None)
        if (
            value is not None
            and value.dynamic
            and "$(" in cmd.scope.source[value.start : value.end]
        ):
            return value
    return None


_FILE_URL = re.compile(r"(?i)\Afile://(?:localhost)?(?=/)")
_STORE_DELETE = frozenset(names("rm del delete remove"))
_STORE_MOVE = frozenset(names("mv move"))
_STORE_COPY = frozenset(names("cp copy rsync sync"))


def _file_urls(cmd: Cmd) -> None:
    """`gsutil rm file:///etc/passwd`, `gcloud storage mv file:///etc/sudoers gs://b/`: an
    object-store CLI's file:// URL is a local path; the verb does to it what rm, mv or cp
    would, and a local source copied to a bucket is an upload (probe9b's open family)."""
    from aintern_ls.safety.network import sends_local

    args = [w for w in cmd.args if not w.text.startswith("-")]
    if cmd.name == "gcloud":
        if not args or args[0].text != "storage":
            return
        args = args[1:]
    if not args:
        return
    verb = args[0].text.lower()
    ops = args[1:]
    local = [(k, w) for k, w in enumerate(ops) if _FILE_URL.match(w.text)]
    if not local:
        return
    recursive = any(w.text in ("-r", "-R", "--recursive") for w in cmd.args)
    flag = "-rf " if recursive else "-f "

    def path(w: Word) -> str:
        return shlex.quote(_FILE_URL.sub("", w.text))

    lines: list[tuple[str, Word]] = []
    for k, w in local:
        last = k == len(ops) - 1 and len(ops) > 1
        if verb in _STORE_DELETE or (verb in _STORE_MOVE and not last):
            lines.append((f"rm {flag}{path(w)}", w))
        elif (verb in _STORE_MOVE or verb in _STORE_COPY) and last:
            lines.append((f"cp -r x {path(w)}", w))
        elif verb in _STORE_COPY and not last and "://" in ops[-1].text:
            sends_local(cmd, Word(_FILE_URL.sub("", w.text), w.start, w.end), f"{cmd.name} {verb}")
    for line, w in lines:
        found = cmd.scope.nested(line, "bash", w, -1)
        cmd.scope.include([f for f in found if f.level >= D])


@handles(
    *names(
        """
    aws gcloud az gsutil doctl heroku fly flyctl vercel netlify firebase wrangler linode-cli
    hcloud oci ibmcloud s3cmd gh glab supabase railway ssm eksctl scw exo upcloud aliyun tccli
    """
    )
)
def _cloud(cmd: Cmd) -> None:
    if cmd.name == "supabase" and system.data_reset(cmd, "supabase", list(cmd.args)):
        return
    if "file://" in cmd.argv.joined_low and cmd.name in ("gsutil", "gcloud", "s5cmd"):
        _file_urls(cmd)
    if _remote_run(cmd):
        return
    if cmd.name in ("gh", "glab") and _api_upload(cmd):
        return
    text0 = " ".join(cmd.texts())
    if re.search(
        r"(?i)\bput-bucket-lifecycle(?:-configuration)?\b|\blifecycle\s+set\b"
        r"|\bmanagement-policy\s+(?:create|update)\b",
        text0,
    ) and re.search(r"(?i)expir|\"delete\"|\bdelete\b|\bage\b|file:|@|\.json\b", text0):
        # A lifecycle rule that expires objects deletes the bucket's data later, unattended.
        cmd.add(D, "cloud-delete", f"{cmd.name} sets a lifecycle rule that deletes stored objects")
        return
    ops = [
        w.text
        for w in cmd.operands(
            _CLOUD_VALUED | _FORGE_TEXT if cmd.name in ("gh", "glab") else _CLOUD_VALUED
        )
    ]
    text = " ".join(cmd.texts())
    if cmd.name in ("gh", "glab") and (said := _forge_text_from_command(cmd)) is not None:
        # `gh issue create --body "$(cat ~/.ssh/id_rsa)"`: a command's output posted (gen12)
        cmd.add(C, "exfiltration", f"{cmd.name} posts a command's output", said)
        return
    if any(is_secret(o) for o in ops):
        cmd.add(C, "exfiltration", f"{cmd.name} uploads private keys or credentials")
        return
    if _uploads_sensitive(ops):
        cmd.add(C, "exfiltration", f"{cmd.name} uploads home or system files to cloud storage")
        return
    _uploads_local(cmd, ops)
    iam_path = " ".join(ops[:4]).lower()
    if _CLOUD_AUDIT_OFF.search(f"{cmd.name} {iam_path} {text.lower()}"):
        cmd.add(
            C,
            "disable-security",
            f"{cmd.name} turns off cloud audit logging or threat detection",
        )
        return
    if _CLOUD_BACKUP_DELETE.search(f"{cmd.name} {text.lower()}"):
        cmd.add(B, "delete-backups", f"{cmd.name} deletes cloud backups (recovery points, vaults)")
        return
    exposed = _opens_to_internet(cmd, text.lower())
    if exposed:
        at = next((w for w in cmd.args if any(k in w.text.lower() for k in _EXPOSURE_WORDS)), None)
        cmd.add(C, "public-exposure", f"{cmd.name} opens {exposed}", at)
        return
    if _CLOUD_IAM.search(f"{cmd.name} {iam_path}"):
        cmd.add(
            C,
            "account",
            f"{cmd.name} creates cloud accounts, credentials or grants roles (account change)",
        )
        return
    for o in ops[:4]:
        if _CLOUD_DELETE.match(o) and not _CLOUD_REVOKE.match(o):
            cmd.add(
                D,
                "cloud-delete",
                f"{cmd.name} {' '.join(ops[: ops.index(o) + 1])} deletes cloud resources",
            )
            return
    if cmd.name in ("gsutil", "gcloud", "aws", "s3cmd") and _syncs_over_local(cmd):
        return
    if "--delete" in text.split() and cmd.name in ("aws", "gsutil", "s3cmd"):
        cmd.add(D, "cloud-delete", f"{cmd.name} sync --delete deletes remote files")
        return
    if cmd.name == "gsutil" and "-m" in ops[:1]:
        ops = ops[1:]
    if cmd.name == "gh":
        if ops and ops[0] in names(
            """
            pr issue repo run release workflow gist api search auth status browse label cache
            secret variable codespace ssh-key gpg-key org project ruleset extension alias
            attestation
            """
        ):
            if len(ops) > 1 and ops[1] in names(
                """
                list view status diff checks watch download ls
                """
            ):
                return
            if ops[0] in ("status", "search") or (ops[0] == "auth" and ops[1:2] == ["status"]):
                return
            if ops[0] == "api" and not re.search(r"-X\s*(POST|PUT|PATCH|DELETE)|--method", text):
                return
    else:
        # The command path is the words before the first option: `az keyvault secret show`.
        lead: list[str] = []
        for w in cmd.args:
            if w.text.startswith("-"):
                break
            lead.append(w.text)
        if not lead:
            # `aws --profile p --region r lambda list-functions`: global options first
            lead = ops[:4]
        verbs = [o for o in lead[:4] if re.fullmatch(r"[a-z][a-z0-9-]*(:[a-z-]+)?", o)]
        if verbs and _CLOUD_READ.match(verbs[-1]):
            return
        if _cloud_read_path(lead[:3]):
            return
        if not ops:
            return
    cmd.add(M, "cloud", f"{cmd.name} changes cloud resources or talks to the network")


# --- hypervisors, virtual machines and their snapshots ------------------------------------
# Powering a VM off hard, destroying or unregistering it with its disks, deleting snapshots:
# destructive but scoped to the machines named (dangerous, like a cloud delete). Switching
# off the host's own protections (ESXi execInstalledOnly, VIB acceptance, the host firewall)
# is what ESXi ransomware does first (critical). Listing and showing are read-only.
_VM_READ = re.compile(
    r"(?i)\A(list|ls|show\w*|get\w*|info|status|state|config|dom(info|state|stats|id|name"
    r"|uuid|blklist|iflist|memstat|jobinfo|xml-from-native)|dumpxml|capabilities|version"
    r"|nodeinfo|hostname|uri|sysinfo|pending|showcmd|listsnapshots?|snapshot-list|vol-list"
    r"|snapshot\.tree|snapshot-info|snapshot-current|snapshot-dumpxml|snapshot-parent"
    r"|pool-list|net-list|net-info|pool-info|vol-info|help|--help|-h|--version|-v|summary"
    r"|vm\.info|find|ls|about|metric\.\w+|events|tasks|guestinfo|power\.getstate|getallvms"
    r"|get\.\w+|hostsummary|snapshot\.get|vm-list|host-list|sr-list|describe|inspect|top)\Z"
)
_VM_DESTROY = re.compile(
    r"(?i)\A(destroy|undefine|unregister\w*|delete\w*|remove\w*|rm|purge|kill|stop|shutdown"
    r"|poweroff|power\.off|power\.shutdown|power\.reset|power\.reboot|power\.suspend|reset|reboot"
    r"|suspend|managedsave-remove|snapshot-delete|snapshot\.remove\w*|delsnapshot|vol-delete"
    r"|vol-wipe|pool-delete|pool-destroy|net-destroy|net-undefine|detach-disk|unlink|closemedium"
    r"|vm-destroy|vm-uninstall|vm-shutdown|vm-reset-powerstate|vdi-destroy|sr-destroy"
    r"|snapshot-destroy|vm\.destroy|vm\.unregister|snapshot\.remove|datastore\.rm|deletevm"
    r"|hard|terminate|wipe|zap|prune|expunge)\Z"
)


# What a VM lister's items stand for: every VM of the host (`vim-cmd vmsvc/getallvms`,
# `esxcli vm process list` feeding a loop or xargs).
EVERY_VM = "<every-vm>"
_VM_GONE = re.compile(r"(?i)snapshot\.remove(?:all)?\b|\bdestroy\b|\bunregister\b")


def _lists_every_vm(cmd: Cmd) -> bool:
    words = _vm_words(cmd)
    if cmd.name == "vim-cmd":
        return words[:2] == ["vmsvc", "getallvms"]
    return cmd.name == "esxcli" and words[:3] == ["vm", "process", "list"]


def _vm_words(cmd: Cmd) -> list[str]:
    """The subcommand words (`vm process kill`, `vmsvc/destroy` -> `destroy`)."""
    out: list[str] = []
    for w in cmd.args:
        t = w.text
        if t.startswith("-") and len(t) > 1:
            continue
        out.extend(p for p in t.lower().split("/") if p)
    return out


def _esxcli_verb(cmd: Cmd) -> str:
    """esxcli's verb: the last namespace word before the first option."""
    verb = ""
    for w in cmd.args:
        if w.text.startswith("-"):
            break
        verb = w.text.lower()
    return verb


def _lxd_disk_or_exec(cmd: Cmd) -> bool:
    """(r18) LXD/Incus: `config device add C NAME disk source=S path=P` mounts the host's S
    at P in C (the host root: the container gets it, critical), remembered for this text;
    `exec C -- CMD` is CMD run in C, its paths under a remembered mount judged as the host
    paths they are (`rm -rf /mnt/host/etc` after `source=/ path=/mnt/host`: /etc)."""
    t = [w.text for w in cmd.args]
    if t[:4] == ["config", "device", "add", t[3] if len(t) > 3 else ""] and "disk" in t[5:7]:
        opts = dict(x.split("=", 1) for x in t[5:] if "=" in x)
        src, dst = opts.get("source", ""), opts.get("path", "")
        if src.startswith("/") and dst.startswith("/"):
            key = f"\0{cmd.name}-mounts:{t[3]}"
            cmd.scope.env[key] = cmd.scope.env.get(key, "") + f"{src}\0{dst}\0"
            if src.rstrip("/") == "":
                cmd.add(C, "container-escape", "the container gets root access to the host")
            else:
                cmd.add(M, "container", f"{cmd.name} mounts a host folder in a container")
            return True
        return False
    if t[:1] != ["exec"] or len(t) < 3:
        return False
    rest = cmd.args[2:]
    while rest and rest[0].text.startswith("-") and rest[0].text != "--":
        rest = rest[1:]
    if rest and rest[0].text == "--":
        rest = rest[1:]
    if not rest:
        return False
    raw = cmd.scope.env.get(f"\0{cmd.name}-mounts:{t[1]}", "").split("\0")
    mounts = [(raw[i], raw[i + 1], False) for i in range(0, len(raw) - 1, 2) if raw[i + 1]]
    cmd.add(M, "container", f"{cmd.name} exec runs a command in a container")
    _judge_mapped(cmd, list(rest), mounts)
    return True


_PVE_BACKUP_JOB = re.compile(r"\b(delete|set|create)\s+/?cluster/backup/[^\s/]+/?(?:\s|\Z)")


@handles(
    *names(
        """
        esxcli vim-cmd virsh vboxmanage qm pct pvesh xe govc multipass lxc incus prlctl vmrun
        limactl docker-machine xl vmware-cmd vzctl prlsrvctl VBoxManage VBoxHeadless
        """
    )
)
def _hypervisor(cmd: Cmd) -> None:
    text = " ".join(cmd.texts()).lower()
    n = cmd.name
    if n in ("lxc", "incus") and _lxd_disk_or_exec(cmd):
        return
    if _lists_every_vm(cmd):
        # A VM lister, like a disk lister: a loop or `xargs` over what it prints acts on
        # every VM of the host, so its items stand for that (judged below).
        cmd.info.paths = (Word(EVERY_VM, cmd.start, cmd.end),)
        return
    if n == "vim-cmd" and _VM_GONE.search(text) and any(w.text == EVERY_VM for w in cmd.args):
        cmd.add(B, "vm-destroy", "vim-cmd removes the snapshots or VMs of every VM on the host")
        return
    if n in ("vim-cmd", "vmware-cmd") and re.search(
        r"(?:\A|[\s/])(?:snapshot\.removeall|removesnapshots)\b", text
    ):
        # `vim-cmd vmsvc/snapshot.removeall 12`, `vmware-cmd VMX removesnapshots`: every
        # snapshot of the VM, its restore points (session-12 convention: blocked) (n10u)
        cmd.add(B, "delete-backups", f"{n} removes every snapshot of the VM: nothing to restore")
        return
    if n == "esxcli" and re.search(
        r"execinstalledonly\S*\s+(-v|--value|-i|--int-value)[= ]?(false|0)|acceptance\s+set"
        r"|--no-sig-check|firewall\s+(set\s+.*--enabled[= ]?(false|0)|unload)"
        r"|auditrecords\s+\S+\s+disable|secureboot\s+\S*\s*disable",
        text,
    ):
        cmd.add(C, "disable-security", "esxcli turns off a protection of the ESXi host")
        return
    if n == "esxcli" and re.search(r"\bsystem\s+account\s+(add|set)|permission\s+set", text):
        cmd.add(C, "account", "esxcli adds an account or grants host permissions")
        return
    if n == "vim-cmd" and re.search(r"hostsvc/(enable_ssh|enable_esx_shell|start_ssh)", text):
        cmd.add(M, "system-config", "vim-cmd opens a shell or SSH on the ESXi host")
        return
    if (
        n == "pvesh"
        and (job := _PVE_BACKUP_JOB.search(text)) is not None
        and (job.group(1) == "delete" or re.search(r"--enabled?[= ]+(?:0|false)\b", text))
    ):
        # `pvesh delete /cluster/backup/ID`, `pvesh set /cluster/backup/ID --enabled 0`: the
        # cluster's scheduled backup job removed or switched off: backups off (critical) (n13u)
        cmd.add(C, "backup-off", "pvesh removes or disables a scheduled backup job")
        return
    words = _vm_words(cmd)
    if not words:
        return
    if n in ("qm", "pct") and words[0] in ("destroy", "stop", "shutdown", "reset", "reboot"):
        hit = words[0]
    else:
        hit = next((w for w in words[:4] if _VM_DESTROY.match(w)), "")
    if n == "esxcli" and words[:2] == ["system", "shutdown"]:
        hit = "shutdown"
    if hit:
        what = (
            "and deletes its disks"
            if re.search(
                r"remove-all-storage|--storage\b|--delete\b|--purge|destroy-unreferenced", text
            )
            else ""
        )
        cmd.add(
            D,
            "vm-destroy",
            f"{n} {hit} stops, destroys or deletes virtual machines or snapshots {what}".strip(),
        )
        return
    if any(_VM_READ.match(w) for w in words[-2:]) or _VM_READ.match(words[0]):
        return
    if n == "esxcli" and (verb := _esxcli_verb(cmd)) and _VM_READ.match(verb):
        return  # `esxcli system settings advanced list -o /User/…`: the verb is `list`
    cmd.add(M, "vm", f"{n} changes virtual machines")


# --- key-value stores, schedulers and fleet shells ------------------------------------------
_NOMAD_EXEC_VALUED = frozenset(
    # (`-job` is a switch: the operand is then a job id, not an allocation; r17)
    names("-task -address -region -namespace -token -ca-cert -client-cert -client-key -e")
)


_CONSUL_EXEC_VALUED = frozenset(
    names(
        """
        -node -service -tag -prefix -wait -wait-repl -datacenter -token -token-file
        -http-addr -ca-file -ca-path -client-cert -client-key -tls-server-name
        """
    )
)


def _consul_exec(cmd: Cmd) -> None:
    """(n18u) `consul exec [-node=N] [--] CMD…`: every node (or the ones selected) runs CMD
    through a shell: one word is a command line, several are the command's words."""
    at = [w.text.lower() for w in cmd.args].index("exec")
    i = skip_options(cmd.args, at + 1, _CONSUL_EXEC_VALUED)
    if i < len(cmd.args) and cmd.args[i].text == "--":
        i += 1
    rest = list(cmd.args[i:])
    cmd.add(M, "remote", "consul exec runs a command on cluster nodes")
    if not rest:
        return
    if any(w.dynamic for w in rest):
        cmd.add(C, "eval-dynamic", "consul exec runs a command only known at run time")
        return
    line = " ".join(w.text for w in rest)
    cmd.scope.include(cmd.scope.nested(line, "bash", Word(line, rest[0].start, rest[-1].end), -1))


@handles("influx", "etcdctl", "consul", "nomad")
def _cluster_store(cmd: Cmd) -> None:
    """Deleting buckets, key prefixes, KV trees or purging jobs destroys data or services
    (dangerous); reads and listings are safe; other changes are moderate."""
    texts = [t.lower() for t in cmd.texts()]
    ops = [t for t in texts if not t.startswith("-")]
    joined = " ".join(ops[:3])
    n = cmd.name
    if n == "consul" and ops[:1] == ["exec"]:
        _consul_exec(cmd)
        return
    if n == "nomad" and ops[:2] == ["alloc", "exec"]:
        # `nomad alloc exec [-task T] ALLOC CMD…`: CMD runs inside the allocation (h17)
        at = [w.text.lower() for w in cmd.args].index("exec")
        i = skip_options(cmd.args, at + 1, _NOMAD_EXEC_VALUED) + 1  # (+1: the allocation)
        cmd.add(M, "remote", "nomad alloc exec runs a command in an allocation")
        if i < len(cmd.args):
            cmd.judge(list(cmd.args[i:]), cmd.stdin)
        return
    destroys = (
        (
            n == "influx"
            and re.search(r"\b(bucket|org|user|auth|dashboards?|v1 dbrp)\s+delete\b", joined)
        )
        or (n == "influx" and ops[:1] == ["delete"])
        or (n == "etcdctl" and ops[:1] in (["del"], ["delete"]))
        or (n == "etcdctl" and ops[:2] == ["snapshot", "restore"])
        or (n == "consul" and re.search(r"\bkv delete\b|\bacl \w+ delete\b|\bleave\b", joined))
        or (
            n == "nomad"
            and re.search(r"\bjob stop\b|\bnamespace delete\b|\bvolume delete\b", joined)
        )
    )
    if destroys:
        cmd.add(D, "cloud-delete", f"{n} {joined} deletes data or stops services")
        return
    reads = re.search(
        r"\b(get|list|ls|query|status|members|info|read|show|inspect|version|health|logs|watch"
        r"|endpoint|member list|kv get|catalog)\b",
        joined,
    )
    if reads and not re.search(r"\b(put|set|create|delete|del|apply|run|write|import)\b", joined):
        return
    cmd.add(M, "infra", f"{n} changes a cluster")


@handles("pssh", "parallel-ssh", "pdsh", "clush", "pssh.py")
def _fleet_shell(cmd: Cmd) -> None:
    """Parallel ssh tools run their command line on every host named (`pssh -h hosts CMD`,
    `pdsh -w node[1-9] CMD`): judged as that command, on many machines at once."""
    valued = frozenset(
        names("-h -H -l -p -t -o -e -x -X -O -w -x -g -R -f -u -l --hosts --host --user")
    )  # (n18u: pdsh's and clush's `-b` is a switch, gathering the output)
    rest = cmd.args[skip_options(cmd.args, 0, valued) :]
    cmd.add(M, "remote", f"{cmd.name} runs a command on many hosts")
    if not rest:
        return
    line = " ".join(w.text for w in rest)
    if any(w.dynamic for w in rest):
        cmd.add(C, "eval-dynamic", f"{cmd.name} runs a command only known at run time")
        return
    cmd.scope.include(cmd.scope.nested(line, "bash", Word(line, rest[0].start, rest[-1].end), -1))


@handles("mc", "azcopy", "s5cmd")
def _object_store(cmd: Cmd) -> None:
    """MinIO `mc rm --recursive --force`/`mc rb --force`, `azcopy remove`, `s5cmd rm`:
    deleting buckets or objects (dangerous); listings and reads are safe; copies are
    network writes."""
    ops = [t for t in cmd.texts() if not t.startswith("-")]
    verb = ops[0] if ops else ""
    if verb in ("rm", "rb", "remove", "delete", "purge") or (verb == "admin" and "remove" in ops):
        cmd.add(D, "cloud-delete", f"{cmd.name} {verb} deletes objects or buckets")
    elif verb in (
        "ls",
        "cat",
        "stat",
        "du",
        "find",
        "tree",
        "diff",
        "head",
        "list",
        "version",
        "alias",
        "env",
        "login",
        "ping",
        "ready",
        "admin",
        "jobs",
        "bench",
    ):
        return
    else:
        from aintern_ls.safety.paths import is_secret

        ops_w = [w for w in cmd.args if not w.text.startswith("-")][1:]
        if (
            verb in ("cp", "copy", "mirror", "put", "sync", "mv")
            and ops_w[:-1]
            and any(
                is_secret(w.text) or w.text.rstrip("/") in ("~", "$HOME", "~/.ssh", "~/.aws")
                for w in ops_w[:-1]
            )
        ):
            cmd.add(C, "exfiltration", f"{cmd.name} {verb} uploads credentials or home files")
            return
        if verb in ("cp", "copy", "mirror", "put", "sync", "mv") and len(ops_w) >= 2:
            dest, src = ops_w[-1].text, ops_w[0].text
            if _store_remote(cmd.name, dest) and not _store_remote(cmd.name, src):
                from aintern_ls.safety.network import sends_local

                sends_local(cmd, ops_w[0], f"{cmd.name} {verb}")  # `mc cp f.csv minio/b/`
        cmd.add(M, "network", f"{cmd.name} {verb} copies data to or from object storage")


def _store_remote(name: str, text: str) -> bool:
    """An object-store address: a URL (`s3://b/k`, `https://acct.blob.core.windows.net/c`)
    or, for MinIO's `mc`, an alias path (`myminio/bucket/k`: no leading `/`, `.` or `~`)."""
    if "://" in text:
        return True
    return name == "mc" and "/" in text and not text.startswith(("/", ".", "~", "$"))


# --- (moved from families5.py, safety-f5) read-only ESXi listings -------------------------


@handles("vmdumper")
def _vmdumper(cmd: Cmd) -> None:
    """ESXi `vmdumper -l` lists running VMs (read-only); other uses dump or signal a VM."""
    texts = cmd.texts()
    if texts and all(t in ("-l", "-h", "--help") for t in texts):
        return
    cmd.add(M, "system-config", "vmdumper dumps or signals a running virtual machine")


# --- data re-encrypted with a key the owner does not hold (safety-m8) ------------------------
_CUSTOMER_KEY = re.compile(
    r"(?i)\A--?(?:sse-c(?:-key)?|sse-customer-(?:key|algorithm)|encryption-key|csek-key-file"
    r"|decryption-keys|customer-key|enc-c|encrypt-key)(?:=\S*)?\Z|encryption_key\s*="
)
CLOUD_COPIERS = frozenset(
    names("aws gsutil gcloud az mc s5cmd rclone b2 oci doctl hcloud linode-cli scw exo")
)


def reencrypted_with_own_key(cmd: Cmd) -> bool:
    """`aws s3 cp s3://b s3://b --recursive --sse-c AES256 --sse-c-key …`, `aws s3api
    copy-object --copy-source b/k --bucket b --key k --sse-customer-key …`, `gsutil -o
    GSUtil:encryption_key=… rewrite -k gs://b`: objects copied onto themselves (or
    rewritten) under a customer-supplied key: whoever lacks the key can no longer read them
    (the cloud-storage ransomware step): dangerous. True when judged."""
    texts = cmd.texts()
    if not any(_CUSTOMER_KEY.search(t) for t in texts):
        return False
    low = [t.lower() for t in texts]
    urls = [t.rstrip("/") for t in texts if re.match(r"(?i)\A(?:s3|gs|az|r2|b2)://", t)]
    onto_itself = len(urls) >= 2 and urls[-1] == urls[-2]
    source = cmd.option_value("--copy-source")
    bucket = cmd.option_value("--bucket")
    key = cmd.option_value("--key")
    if source is not None and bucket is not None and key is not None:
        onto_itself = source.text.strip("/") == f"{bucket.text}/{key.text}".strip("/")
    if not onto_itself and "rewrite" not in low:
        return False
    cmd.add(
        D,
        "cloud-reencrypt",
        f"{cmd.name} re-encrypts stored objects with a customer-supplied key (without the key"
        " nobody can read them again)",
    )
    return True


# A cloud delete whose resource is where the audit trail lives (safety-m8).
_LOG_RESOURCE = re.compile(
    r"(?i)\A(?:logs?|logging|log-?groups?|log-?streams?|log-?buckets?|log-?analytics|trails?"
    r"|cloudtrail|audit(?:-?logs?)?|diagnostic-?settings|flow-?logs?|sinks?|log-?sinks?"
    r"|delete-(?:log-group|log-stream|trail|flow-logs|detector|bucket-logging)|stop-logging"
    r"|activity-?log|log-?profiles?|workspace)\Z"
)


def cloud_log_deleted(cmd: Cmd) -> bool:
    """`aws logs delete-log-group`, `gcloud logging buckets delete`, `az monitor log-analytics
    workspace delete`, `aws ec2 delete-flow-logs`: a cloud delete aimed at logs or audit
    trails erases the record of what happened (anti-forensics, like clearing the event
    log): critical, not an ordinary cloud delete. True when judged."""
    # the service/resource/verb words before any option (not option values: a bucket or
    # container *named* logs is an ordinary delete)
    words: list[str] = []
    for w in cmd.args:
        if w.dynamic or w.text.startswith("-"):
            break
        words.append(w.text)
    if not any(_LOG_RESOURCE.match(w) for w in words):
        return False
    if "workspace" in words and not any(re.search(r"(?i)log", w) for w in words):
        return False
    cmd.add(C, "log-wipe", f"{cmd.name} deletes cloud logs or an audit trail (anti-forensics)")
    return True


# --- code a cloud machine runs at boot (safety-m8) -------------------------------------------
# Instance metadata and attributes that hold a script the machine runs at every boot (GCE
# startup scripts, EC2 user data, Azure custom-script extensions and custom data): setting
# one is persistence on that machine, whatever the script says.
_BOOT_HOOK = re.compile(
    r"(?i)(?:\A-*|[\s,=])(?:startup-script(?:-url)?|windows-startup-script-(?:ps1|cmd|bat|url)"
    r"|sysprep-specialize-script-\w+|shutdown-script(?:-url)?|user-?data|userdata|custom-?data"
    r"|customscript(?:extension)?|commandtoexecute|fileuris)(?=[\s=:,\"']|\Z)"
)
_BOOT_HOOK_WRITE = re.compile(
    r"(?i)\A(?:add-metadata|set-metadata|modify-instance-attribute|create|update|set"
    r"|create-launch-template(?:-version)?|run-instances|create-or-update|deploy|patch)\Z"
)


def boot_hook(cmd: Cmd) -> bool:
    """`gcloud compute instances add-metadata VM --metadata startup-script-url=gs://…`,
    `aws ec2 modify-instance-attribute --attribute userData --value …`, `az vm extension set
    --name CustomScript --settings '{"commandToExecute": …}'`: a script set for the machine
    to run at boot (persistence, critical). Reads (`describe`) stay reads. True if judged."""
    texts = [w.text for w in cmd.args if not w.dynamic]
    verbs = [t for t in texts[:5] if not t.startswith("-")]
    if not any(_BOOT_HOOK_WRITE.match(v) for v in verbs):
        return False
    # (`--set virtualMachineProfile.userData=$(base64 -w0 s.sh)`: the key is literal even
    # when its value is computed)
    if not any(_BOOT_HOOK.search(w.text) or _BOOT_HOOK_KEY.search(w.text) for w in cmd.args):
        return False
    if cmd.name == "aws" and "run-instances" in verbs:
        # a new machine started with its own user data: an ordinary launch, but an inline
        # script is judged as the commands that machine runs (safety-m9)
        data = cmd.option_value("--user-data")
        if (
            data is not None
            and not data.dynamic
            and not re.match(r"(?i)\A(?:file|fileb)://", data.text)
        ):
            cmd.scope.include(cmd.scope.nested(data.text, "bash", data, -1))
        return False
    cmd.add(C, "persistence", f"{cmd.name} sets a script the cloud machine runs at every boot")
    _boot_scripts(cmd)
    return True


_BOOT_HOOK_KEY = re.compile(r"(?i)\.(?:user-?data|custom-?data)\s*=")
# A boot script given inline (`--metadata startup-script='…'`, `commandToExecute`): judged
# as the commands it runs at the next boot (blocked when they are, safety-m9).
_BOOT_SCRIPT_VALUE = re.compile(
    r"(?is)(?:\A|[\s,{\"'=])\"?(startup-script|shutdown-script|windows-startup-script-(?:ps1|cmd|bat)"
    r"|commandToExecute)\"?\s*[=:]\s*(.+)"
)


def _boot_scripts(cmd: Cmd) -> None:
    for w in cmd.args:
        if w.dynamic or ("script" not in w.text and "ommandToExecute" not in w.text):
            continue
        m = _BOOT_SCRIPT_VALUE.search(w.text)
        if m is None:
            continue
        key, value = m.group(1).lower(), m.group(2).strip()
        if key == "commandtoexecute":
            q = re.match(r'\A"((?:[^"\\]|\\.)*)"', value)
            value = q.group(1).replace('\\"', '"') if q else value.rstrip("}").strip()
        elif "," in value and re.search(r",[\w-]+=", value):
            value = value[: re.search(r",[\w-]+=", value).start()]  # type: ignore[union-attr]
        value = value.strip("'\"")
        if not value or re.match(r"(?i)\A(?:gs|https?|s3|file)://|@", value):
            continue
        family = (
            "powershell" if key.endswith("ps1") else "cmd" if key[-3:] in ("cmd", "bat") else "bash"
        )
        cmd.scope.include(cmd.scope.nested(value, family, w, -1))


# (n17u) containerd's own client: `ctr [global options] run|c create [options] IMAGE ID
# [COMMAND…]` (also `ctr containers create`, `ctr c run`); its mounts are `--mount
# type=bind,src=/,dst=/host,options=rbind:rw`. The command inside is judged with the host
# paths put back, as for docker/podman/nerdctl.
_CTR_WITH_VALUE = frozenset(
    names(
        """
        --mount --env --env-file --label --runtime --runtime-config-path --snapshotter --cwd
        -u --user --cni-config --platform --gpus --cpus --memory-limit --annotation --uidmap
        --gidmap --with-ns --rootfs-propagation --device --address -a --namespace -n
        --timeout --connect-timeout --log-uri --fifo-dir --cgroup --hostname --sandbox
        """
    )
)


# (n18u) Sandboxes and HPC container runners that bind host folders in: apptainer/
# singularity `exec|run|shell [-B SRC[:DST[:opts]],…] IMAGE CMD…`, systemd-nspawn
# `--bind[-ro]=SRC[:DST] … CMD…` (bwrap and proot are forwarders in wrappers.py).
_SANDBOX_VALUED = {
    "apptainer": frozenset(names("-B --bind --mount -H --home -W --workdir --env --env-file -o")),
    "singularity": frozenset(names("-B --bind --mount -H --home -W --workdir --env -o")),
    "systemd-nspawn": frozenset(names("-D --directory -i --image -M --machine -u --user")),
}


def _sandbox_mounts(cmd: Cmd) -> tuple[list[tuple[str, str, bool]], int]:
    """The host folders a sandbox binds in, and where the command inside starts."""
    args = cmd.args
    mounts: list[tuple[str, str, bool]] = []
    valued = _SANDBOX_VALUED[cmd.name]
    i = 0
    image_left = cmd.name in ("apptainer", "singularity")
    verb_left = image_left
    while i < len(args):
        t = args[i].text
        if t.startswith("-"):
            opt, eq, value = t.partition("=")
            if not eq and opt in valued and i + 1 < len(args):
                value = args[i + 1].text
            if opt in ("-B", "--bind", "--bind-ro") and value:
                for spec in value.split(","):
                    src, _, rest = spec.partition(":")
                    dst, _, opts = rest.partition(":")
                    ro = opt == "--bind-ro" or "ro" in opts.split(",")
                    mounts.append((src, dst or src, ro))
            i += 2 if not eq and opt in valued else 1
            continue
        if t == "--":
            i += 1
            break
        if verb_left:
            verb_left = False  # (apptainer's exec|run|shell)
            i += 1
            continue
        if image_left:
            image_left = False
            i += 1
            continue
        break
    return [(s, d, ro) for s, d, ro in mounts if s.startswith(("/", "~", "$")) and d[:1] == "/"], i


@handles("apptainer", "singularity", "systemd-nspawn")
def _sandbox(cmd: Cmd) -> None:
    if cmd.has("-h", "--help", "--version", "version"):
        return
    mounts, at = _sandbox_mounts(cmd)
    cmd.add(M, "container", f"{cmd.name} runs a program in a container")
    inner = list(cmd.args[at:])
    if inner:
        _judge_mapped(cmd, inner, mounts)


@handles("ctr")
def _ctr(cmd: Cmd) -> None:
    args = cmd.args
    pos: list[int] = []
    for i, w in enumerate(args):
        t = w.text
        if len(pos) >= 2:
            break
        if t.startswith("-"):
            continue
        if i and args[i - 1].text in _CTR_WITH_VALUE and "=" not in args[i - 1].text:
            continue
        pos.append(i)
    verbs = [args[i].text for i in pos[:2]]
    run = verbs[:1] == ["run"] or (
        verbs[:1] in (["c"], ["container"], ["containers"]) and verbs[1:2] in (["create"], ["run"])
    )
    if not run:
        sub = verbs[1] if len(verbs) > 1 else ""
        if sub in ("rm", "remove", "delete", "del", "prune", "kill"):
            cmd.add(D, "container-delete", f"ctr {verbs[0]} {sub} deletes containers or images")
        elif sub in ("ls", "list", "info", "check") or verbs[:1] in (["version"], ["info"]):
            return
        else:
            cmd.add(M, "container", "ctr changes containers or images")
        return
    text = " ".join(w.text for w in args)
    mounts = container_mounts(args)
    if (
        "--privileged" in text
        or "--net-host" in text
        or any(src.rstrip("/") == "" and not ro for src, _dst, ro in mounts)
    ):
        cmd.add(C, "container-escape", "the container gets root access to the host")
    else:
        cmd.add(M, "container", "ctr runs a container")
    skip = 3 if verbs[:1] == ["run"] else 4  # (`run IMAGE ID`, `c create IMAGE ID`)
    seen = 1
    for i in range(pos[0] + 1, len(args)):
        t = args[i].text
        if t.startswith("-") and seen < skip:
            continue
        if seen < skip and args[i - 1].text in _CTR_WITH_VALUE and "=" not in args[i - 1].text:
            continue
        seen += 1
        if seen == skip:
            inner = list(args[i + 1 :])
            if inner:
                _judge_mapped(cmd, inner, mounts)
            return


# (n17u) The cluster's backup machinery removed or stopped: Velero/K8up/Stash/Kasten's
# deployments, a backup CronJob, their Helm releases or namespaces: no backups from now on
# (backups off is critical, as `az backup protection disable` without deleting data).
_BACKUP_TOOLS = re.compile(
    r"(?i)(?:\A|[/=])(?:velero|k8up|stash(?:-operator)?|kasten|k10|kanister)(?:\Z|[-/])"
)
_BACKUP_WORD = re.compile(r"(?i)backup")
_CRONJOB_KINDS = frozenset(names("cronjob cronjobs cj cronjob.batch cronjobs.batch"))


def backup_machinery_off(cmd: Cmd) -> None:
    """`kubectl delete cronjob etcd-backup`, `kubectl scale deploy velero --replicas=0`,
    `helm uninstall velero -n velero`: the backups stop."""
    ops = [w.text for w in cmd.args if not w.text.startswith("-")]
    # a backup tool by name (its release, deployment or namespace), or a CronJob whose
    # name says backup (`helm uninstall backup-agent` alone stays a release removed)
    hit = next((t for t in ops[1:] if _BACKUP_TOOLS.search(t)), None)
    cron = len(ops) > 1 and (
        ops[1].lower() in _CRONJOB_KINDS or ops[1].lower().startswith(("cronjob/", "cj/"))
    )
    if hit is None and cmd.name != "helm" and cron:
        hit = next((t for t in ops[1:] if _BACKUP_WORD.search(t)), None)
    if hit is not None:
        cmd.add(C, "backup-off", f"{cmd.name} removes or stops the backup machinery ({hit})")


@handles("ansible-pull")
def _ansible_pull(cmd: Cmd) -> None:
    """(a22) `ansible-pull -U https://…/playbooks.git`: clones a repository and runs its
    playbook on this machine as whoever runs it (often root from cron): code fetched from the
    network, run unread (remote code, critical)."""
    url = cmd.option_value("-U", "--url")
    if url is not None:
        cmd.add(C, "remote-code", f"ansible-pull runs a playbook fetched from {url.text}", url)
    else:
        cmd.add(M, "remote", "ansible-pull runs a playbook from a repository")
