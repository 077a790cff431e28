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


def judge_code(code: str) -> tuple[RiskLevel, str, str]:
    """Level, rule and reason for inline code apart from its shell-outs and literal deletes."""
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
