"""Judging code that is not shell: inline interpreter programs (`python -c`, `perl -e`, awk)
and SQL/Mongo/Redis statements handed to database clients.

This is pattern matching, not parsing: it looks for shell-outs with literal commands (which
are analysed as shell), recursive deletes of literal paths, reverse-shell signatures and
anything that can touch the system at all.
"""

from __future__ import annotations

import re

from aintern_ls.safety.levels import RiskLevel

# system("..."), os.popen('...'), subprocess.run("...", shell=True), exec '...', `...`
_SHELL_OUT = re.compile(
    r"""\b(?:system|popen|exec[lv]?p?e?|spawn|check_output|check_call|call|run|Popen|execSync"""
    r"""|spawnSync|shell_exec|passthru|proc_open|getoutput|getstatusoutput|qx)\s*[\(\s]\s*"""
    r"""[rbfu]?(["'])(.+?)(?<!\\)\1"""
)
_BACKTICK = re.compile(r"`([^`]+)`")
_ARGV_LIST = re.compile(r"\[\s*((?:[rbfu]?(['\"])[^'\"]*\2\s*,?\s*)+)\]")
_QUOTED = re.compile(r"(['\"])(.*?)\1")
_RMTREE = re.compile(
    r"\b(?:rmtree|rm_rf|rm_r|remove_dir_all|rmSync|rmdirSync|RemoveAll|rimraf|deltree|"
    r"removedirs|rmdir|remove_entry_secure|delete_tree)\s*\(\s*[rbfu]?(['\"])(.*?)\1"
)
_DELETE = re.compile(
    r"\b(?:os\.remove|os\.unlink|unlink|unlinkSync|File\.delete|rmtree|rm_rf|remove_dir_all|"
    r"rmSync|rmdirSync|RemoveAll|rimraf|removedirs|Remove-Item|\.unlink|\.rmdir)\b"
)
_REVERSE = re.compile(
    r"\b(socket|fsockopen|TCPSocket|net\.connect|Net::|IO::Socket|/dev/tcp)\b.*"
    r"\b(subprocess|pty\.spawn|dup2|/bin/(ba)?sh|exec|system|popen|proc_open|spawn)\b",
    re.S,
)
_RISKY = re.compile(
    r"\b(os|subprocess|shutil|socket|pty|ctypes|urllib|urllib2|urllib3|requests|httpx|http"
    r"|ftplib|smtplib|telnetlib|pathlib|tempfile|sqlite3|pickle|marshal|importlib|builtins"
    r"|child_process|fs|net|https|File|FileUtils|Dir|IO|Kernel|Open3|eval|exec|compile"
    r"|__import__|system|popen|open|write|unlink|remove|rmtree|chmod|chown|kill|fork|spawn"
    r"|getattr|setattr|globals|require|fetch|XMLHttpRequest|getline|mkdir|rename)\b"
)


def shell_commands(code: str) -> list[str]:
    """Literal shell commands the program hands to a shell."""
    found = [m.group(2) for m in _SHELL_OUT.finditer(code)]
    found += [m.group(1) for m in _BACKTICK.finditer(code)]
    for m in _ARGV_LIST.finditer(code):
        parts = [q.group(2) for q in _QUOTED.finditer(m.group(1))]
        if parts:
            found.append(" ".join(_shell_quote(p) for p in parts))
    return found


def _shell_quote(s: str) -> str:
    return s if re.fullmatch(r"[\w@%+=:,./~-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def deleted_paths(code: str) -> list[str]:
    """Literal paths the program deletes recursively (`shutil.rmtree('/')`)."""
    return [m.group(2) for m in _RMTREE.finditer(code)]


_FORK_CODE = re.compile(
    r"\bfork\s+while\s+fork\b|\bwhile\s*\(?\s*(?:True|1|true)\s*\)?\s*[:{]?\s*(?:os\.|posix\.)?"
    r"fork\s*\(|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\(|\bloop\s*\{\s*fork\b"
)


def judge_code(code: str) -> tuple[RiskLevel, str, str]:
    """Level, rule and reason for inline code apart from its shell-outs and literal deletes."""
    if _FORK_CODE.search(code):
        return RiskLevel.BLOCKED, "fork-bomb", "a fork bomb: the program copies itself forever"
    if _REVERSE.search(code):
        return RiskLevel.CRITICAL, "reverse-shell", "inline code connects a socket to a shell"
    if _DELETE.search(code):
        return RiskLevel.DANGEROUS, "code-delete", "inline code deletes files"
    if _RISKY.search(code):
        return (
            RiskLevel.MODERATE,
            "inline-code",
            "inline code can change files, processes or the network",
        )
    return RiskLevel.SAFE, "", ""


_SQL_STRIP = re.compile(r"'(?:[^']|'')*'|--[^\n]*|/\*.*?\*/", re.S)
_SQL_DROP = re.compile(
    r"\b(drop\s+(table|database|schema|index|view|user|role|collection|keyspace|owned)"
    r"|truncate\b|alter\s+table\s+\S+\s+drop)\b",
    re.I,
)
_SQL_STMT_SPLIT = re.compile(r";")
_SQL_WRITE = re.compile(
    r"\b(insert|update|delete|create|alter|grant|revoke|merge|replace|copy|vacuum|reindex"
    r"|call|exec|execute|set|load|import|upsert|comment|cluster|refresh|lock)\b",
    re.I,
)
_SQL_READ = re.compile(
    r"^\s*(select|show|explain|describe|desc|with|values|table|\\[a-z?]|pragma\s+\w+\s*$|\.\w+)",
    re.I,
)


def judge_sql(sql: str) -> tuple[RiskLevel, str, str]:
    """Level of a batch of SQL statements."""
    text = _SQL_STRIP.sub("''", sql)
    if _SQL_DROP.search(text):
        return RiskLevel.DANGEROUS, "sql-drop", "SQL drops or truncates data"
    level, rule, reason = RiskLevel.SAFE, "", ""
    for stmt in _SQL_STMT_SPLIT.split(text):
        s = stmt.strip()
        if not s:
            continue
        low = s.lower()
        if re.match(r"(delete\s+from|update)\b", low) and (
            not re.search(r"\bwhere\b", low)
            or re.search(r"\bwhere\s+(1\s*=\s*1|true|'1'\s*=\s*'1')\s*$", low)
        ):
            return RiskLevel.DANGEROUS, "sql-unscoped", "SQL DELETE/UPDATE without WHERE"
        if _SQL_READ.match(s):
            if re.match(r"^\s*with\b", low) and re.search(r"\b(delete|update|insert)\b", low):
                level, rule, reason = RiskLevel.MODERATE, "sql-write", "SQL changes data"
            continue
        level, rule, reason = RiskLevel.MODERATE, "sql-write", "SQL changes data or schema"
    return level, rule, reason


_MONGO_DESTROY = re.compile(
    r"\b(dropDatabase|drop|deleteMany|remove|dropIndexes|dropUser|dropAllUsers)\s*\(", re.I
)
_MONGO_READ = re.compile(
    r"^\s*(db\.\w+\.(find|findOne|count|countDocuments|aggregate|distinct|getIndexes|stats)"
    r"|db\.(getCollectionNames|stats|version|serverStatus|getName)|show\s+\w+|printjson)",
    re.I,
)


def judge_mongo(js: str) -> tuple[RiskLevel, str, str]:
    if _MONGO_DESTROY.search(js):
        return RiskLevel.DANGEROUS, "db-drop", "deletes MongoDB data"
    if all(_MONGO_READ.match(s) for s in js.split(";") if s.strip()):
        return RiskLevel.SAFE, "", ""
    return RiskLevel.MODERATE, "db-write", "runs database commands that may change data"


_REDIS_DESTROY = frozenset({"flushall", "flushdb", "shutdown", "del", "unlink", "debug"})
_REDIS_READ = frozenset(
    {
        "get",
        "mget",
        "keys",
        "scan",
        "info",
        "ping",
        "ttl",
        "pttl",
        "type",
        "exists",
        "hget",
        "hgetall",
        "hkeys",
        "hvals",
        "lrange",
        "llen",
        "smembers",
        "scard",
        "zrange",
        "zcard",
        "dbsize",
        "monitor",
        "strlen",
        "client",
        "memory",
        "slowlog",
        "echo",
        "time",
        "lastsave",
        "role",
        "sscan",
        "hscan",
        "zscan",
        "xrange",
        "xlen",
    }
)


def judge_redis(argv: list[str]) -> tuple[RiskLevel, str, str]:
    if not argv:
        return RiskLevel.MODERATE, "db-shell", "opens an interactive Redis shell"
    cmd = argv[0].lower()
    if cmd in ("flushall", "flushdb"):
        return RiskLevel.DANGEROUS, "db-flush", f"{argv[0]} deletes every key"
    if cmd in _REDIS_DESTROY:
        return RiskLevel.DANGEROUS, "db-delete", f"{argv[0]} deletes data or stops the server"
    if cmd in _REDIS_READ or (cmd == "config" and len(argv) > 1 and argv[1].lower() == "get"):
        return RiskLevel.SAFE, "", ""
    return RiskLevel.MODERATE, "db-write", f"Redis {argv[0]} may change data"


# --- Python, read with its own parser -----------------------------------------------------


class Effects:
    """What a piece of inline code does that the analyser can judge with its shell rules."""

    __slots__ = ("deletes", "opaque", "shell", "writes")

    def __init__(self) -> None:
        self.shell: list[str] = []  # shell command lines it runs
        self.deletes: list[tuple[str, bool]] = []  # (path, recursive)
        self.writes: list[str] = []  # files it opens for writing
        self.opaque = False  # runs code it builds at run time (exec of a variable …)


_PY_SHELL = frozenset(
    {
        "os.system",
        "os.popen",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "commands.getoutput",
        "pty.spawn",
        "os.execv",
        "os.execvp",
        "os.execl",
        "os.execlp",
        "os.spawnv",
        "os.spawnvp",
        "os.spawnl",
        "os.spawnlp",
    }
)
_PY_RMTREE = frozenset({"shutil.rmtree", "rmtree", "os.removedirs"})
_PY_REMOVE = frozenset(
    {"os.remove", "os.unlink", "os.rmdir", "remove", "unlink", "rmdir", "os.truncate"}
)


def _dotted(node: object) -> str:
    import ast

    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    if isinstance(node, ast.Call):
        return _dotted(node.func) + "()"
    return ""


def _py_value(node: object) -> str | None:
    """The static string value of an expression, where it has one."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [_py_value(v) for v in node.values]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if isinstance(node, ast.FormattedValue):
        return _py_value(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Div)):
        left, right = _py_value(node.left), _py_value(node.right)
        if left is None or right is None:
            return None
        sep = "/" if isinstance(node.op, ast.Div) and not left.endswith("/") else ""
        return left + sep + right
    if isinstance(node, ast.Subscript) and _dotted(node.value) in ("os.environ",):
        key = _py_value(node.slice)
        return "~" if key == "HOME" else None
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        args = [_py_value(a) for a in node.args]
        if name.endswith(("Path.home", "home")) and not node.args:
            return "~"
        if name in ("os.getenv", "os.environ.get") and args and args[0] == "HOME":
            return "~"
        if name in ("os.path.expanduser", "expanduser", "os.path.abspath", "os.path.realpath"):
            return args[0] if args and args[0] is not None else None
        if name.endswith("expanduser") and isinstance(node.func, ast.Attribute):
            return _py_value(node.func.value)
        joins = ("Path", "pathlib.Path", "PurePath", "os.path.join", "posixpath.join")
        if name in joins and args and all(a is not None for a in args):
            out = ""
            for a in args:
                assert a is not None
                out = a if a.startswith("/") or not out else out.rstrip("/") + "/" + a
            return out
        if name == "str" and node.args:
            return _py_value(node.args[0])
        if name in ("base64.b64decode", "b64decode", "base64.decodebytes") and args and args[0]:
            return _decode(args[0], "base64")
        if name in ("bytes.fromhex", "binascii.unhexlify", "unhexlify") and args and args[0]:
            return _decode(args[0], "hex")
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("decode", "strip"):
            return _py_value(node.func.value)  # base64.b64decode('…').decode()
        if name in ("codecs.decode",) and len(args) > 1 and args[0] and args[1] == "rot13":
            import codecs

            return codecs.decode(args[0], "rot13")
    return None


def _decode(text: str, how: str) -> str | None:
    import base64
    import binascii

    try:
        if how == "base64":
            raw = base64.b64decode(text + "=" * (-len(text) % 4))
        else:
            raw = binascii.unhexlify(re.sub(r"\s", "", text))
    except (binascii.Error, ValueError):
        return None
    return raw.decode("utf-8", "replace")


def python_effects(code: str) -> Effects | None:
    """Effects of Python source, or None when it does not parse (use the patterns)."""
    import ast

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    fx = Effects()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        short = name.rsplit(".", 1)[-1]
        first = node.args[0] if node.args else None
        base = name.rsplit(".", 1)[0] if "." in name else ""
        shell_base = any(k in base for k in ("os", "subprocess", "__import__", "commands", "pty"))
        if name in _PY_SHELL or (
            shell_base
            and short
            in ("system", "popen", "run", "call", "check_call", "check_output", "Popen", "spawn")
        ):
            if isinstance(first, (ast.List, ast.Tuple)):
                argv = [_py_value(e) for e in first.elts]
                if argv and all(a is not None for a in argv):
                    fx.shell.append(" ".join(_shell_quote(a or "") for a in argv))
                else:
                    fx.opaque = True
            elif first is not None:
                text = _py_value(first)
                if text is None:
                    fx.opaque = True
                elif name.startswith("os.exec") or name.startswith("os.spawn"):
                    rest = [_py_value(a) for a in node.args[1:]]
                    fx.shell.append(" ".join(_shell_quote(a) for a in rest if a is not None))
                else:
                    fx.shell.append(text)
        elif name in _PY_RMTREE or name in _PY_REMOVE or short in ("rmtree", "unlink", "rmdir"):
            target = first
            if target is None and isinstance(node.func, ast.Attribute) and short != "rmtree":
                target = node.func.value  # Path("x").unlink()
            path = _py_value(target) if target is not None else None
            if path is not None:
                fx.deletes.append((path, name in _PY_RMTREE or short == "rmtree"))
        elif short in ("open", "write_text", "write_bytes") and (
            first is not None or isinstance(node.func, ast.Attribute)
        ):
            if short == "open":
                mode = _py_value(node.args[1]) if len(node.args) > 1 else None
                for kw in node.keywords:
                    if kw.arg == "mode":
                        mode = _py_value(kw.value)
                if name != "open" and isinstance(node.func, ast.Attribute) and first is not None:
                    mode = _py_value(first)
                    first = node.func.value
                path = _py_value(first) if first is not None else None
                if path is not None and mode is not None and any(c in mode for c in "wax+"):
                    fx.writes.append(path)
            elif isinstance(node.func, ast.Attribute):
                path = _py_value(node.func.value)
                if path is not None:
                    fx.writes.append(path)
        elif name in ("eval", "exec", "compile") and first is not None:
            inner_code = _py_value(first)
            inner = python_effects(inner_code) if inner_code is not None else None
            if inner is None:
                fx.opaque = True
            else:
                fx.shell += inner.shell
                fx.deletes += inner.deletes
                fx.writes += inner.writes
                fx.opaque |= inner.opaque
    return fx


_OSA_SHELL = re.compile(r'do\s+shell\s+script\s+"((?:[^"\\]|\\.)*)"', re.I)
_WRITE_CALL = re.compile(
    r"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|file_put_contents|"
    r"File\.write|IO\.write|open)\s*\(\s*(['\"])(/[^'\"]+)\1"
)


def other_effects(code: str) -> Effects:
    """Effects of Perl, Ruby, Node, PHP, AppleScript … code, by pattern."""
    fx = Effects()
    fx.shell = shell_commands(code) + [
        m.group(1).replace('\\"', '"') for m in _OSA_SHELL.finditer(code)
    ]
    fx.deletes = [(p, True) for p in deleted_paths(code)]
    fx.deletes += [(m.group(2), False) for m in _UNLINK.finditer(code)]
    fx.writes = [m.group(2) for m in _WRITE_CALL.finditer(code)]
    for m in _PACK_HEX.finditer(code):
        decoded = _decode(m.group(2), "hex")
        if decoded:
            fx.shell.append(decoded)  # perl system(pack("H*", "726d…"))
    if _OPAQUE_CALL.search(code):
        fx.opaque = True
    return fx


# system(pack("H*", "…")): hex-encoded command text.
_PACK_HEX = re.compile(r"""pack\s*\(\s*(['"])H\*\1\s*,\s*['"]([0-9a-fA-F\s]+)['"]""")
# A shell-out whose argument is not a string literal: what runs is built at run time.
_OPAQUE_CALL = re.compile(
    r"\b(?:system|exec|popen|spawn|execSync|spawnSync|shell_exec|passthru|proc_open|qx)"
    r"\s*\(\s*(?![\s'\"`\[]|pack\s*\(\s*['\"]H)[\w$@.]"
)


_UNLINK = re.compile(
    r"\b(?:unlink|unlinkSync|File\.delete|FileUtils\.rm|os\.remove|os\.unlink)\s*\(?\s*"
    r"(['\"])(/[^'\"]*|~[^'\"]*)\1"
)
