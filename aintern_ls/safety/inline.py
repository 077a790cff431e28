"""Judging code that is not shell: inline interpreter programs (`python -c`, `node -e`,
`perl -e`, `ruby -e`, `php -r`, `lua -e`, `osascript -e`, awk) and SQL/Mongo/Redis
statements handed to database clients.

Inline programs are read for their *effects*, which are then judged with the same rules as
shell: the command lines they hand to a shell (`os.system`, `execSync`, backticks, `%x{}`,
`do shell script`) are analysed as shell, the paths they delete, move, overwrite or append
to are judged as paths, and what they send to the network is checked for file contents.
Python is read with its own parser (`ast`), which sees through import aliases, variables,
`getattr`, string building and literal base64/hex; the other languages with a small
tokenizer that masks string literals, evaluates simple expressions (concatenation, known
variables, home-directory expressions, literal decoders) and finds calls by name. What the
code runs but the reader cannot resolve (exec of a computed string, a dynamic attribute,
a decoded blob it cannot decode) is opaque: critical.
"""

from __future__ import annotations

import ast
import base64
import binascii
import codecs
import contextlib
import re
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from aintern_ls.safety.levels import B, C, D, Finding, M, RiskLevel
from aintern_ls.safety.paths import (
    Target,
    classify_path,
    env_folder,
    is_secret,
    system_state,
    trust_store_glob,
    write_target,
)
from aintern_ls.safety.words import names, starts_shell

if TYPE_CHECKING:
    from aintern_ls.safety.context import Cmd, Scope, Stdin
    from aintern_ls.safety.words import Word

DYN = "\x00"  # an unknown part of a computed string
_MAX_DEPTH = 4
_MAX_CALLS = 400  # calls read in one program; past that it is "too long to read"
_WINDOW = 4000  # characters searched for a call's closing bracket


class Effects:
    """What a piece of inline code does that the analyser can judge with its shell rules."""

    __slots__ = (
        "appends",
        "chmods",
        "cmd_output",
        "deletes",
        "extra",
        "hidden",
        "moves",
        "network",
        "opaque",
        "reads",
        "risky",
        "sends",
        "shell",
        "unknown_delete",
        "writes",
    )

    def __init__(self) -> None:
        self.shell: list[str] = []  # shell command lines it runs
        self.hidden: list[str] = []  # shell command lines it decodes, then runs
        self.deletes: list[tuple[str, bool]] = []  # (path, recursive)
        self.moves: list[str] = []  # paths it moves (renames) away
        self.writes: list[str] = []  # files it overwrites
        self.appends: list[str] = []  # files it appends to
        self.chmods: list[str] = []  # paths whose permissions or owner it changes
        self.reads: list[str] = []  # files it reads
        self.opaque = ""  # why it runs code the reader cannot see ("" = it does not)
        self.unknown_delete = False  # deletes something whose name is computed
        self.network = False  # uses the network at all
        self.sends = False  # sends data to the network
        self.cmd_output = False  # captures a command's output
        self.risky = False  # does anything beyond reading and printing
        self.extra: list[tuple[RiskLevel, str, str]] = []  # other findings (level, rule, why)

    def merge(self, other: Effects) -> None:
        self.shell += other.shell
        self.hidden += other.hidden
        self.deletes += other.deletes
        self.moves += other.moves
        self.writes += other.writes
        self.appends += other.appends
        self.chmods += other.chmods
        self.reads += other.reads
        self.opaque = self.opaque or other.opaque
        self.unknown_delete |= other.unknown_delete
        self.network |= other.network
        self.sends |= other.sends
        self.cmd_output |= other.cmd_output
        self.risky |= other.risky
        self.extra += other.extra


def _shell_quote(s: str) -> str:
    if DYN in s:
        # an unknown part stays a variable the shell analyser judges as unknown
        return "".join(
            '"${__dyn}"' if p == DYN else _shell_quote(p) for p in re.split(f"({DYN})", s) if p
        )
    return s if re.fullmatch(r"\A[\w@%+=:,./~-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def _shell_line(text: str) -> str:
    """A command line with unknown parts turned into an unknown variable."""
    return text.replace(DYN, "${__dyn}")


def _path_of(value: str) -> str | None:
    """The path a computed value names: static as it is; a static prefix with an unknown
    tail is everything under the prefix (`"/etc/" + f` -> `/etc/*`); None when unknown."""
    if DYN not in value:
        return value
    prefix = value.split(DYN, 1)[0]
    if not prefix:
        return None
    return prefix + "*"


def _decode(text: str, how: str) -> str | None:
    try:
        if how == "base64":
            t = re.sub(r"\s", "", text)
            raw = base64.b64decode(t + "=" * (-len(t) % 4))
        elif how == "base32":
            raw = base64.b32decode(text.strip())
        elif how == "base32hex":
            raw = base64.b32hexdecode(text.strip())
        elif how == "base85":
            raw = base64.b85decode(text.strip())
        elif how == "ascii85":
            raw = base64.a85decode(text.strip(), adobe=text.strip().startswith("<~"))
        elif how == "hex":
            raw = binascii.unhexlify(re.sub(r"\s|\\x|0x", "", text))
        elif how == "rot13":
            return codecs.decode(text, "rot13")
        else:
            return None
    except (binascii.Error, ValueError):
        return None
    with contextlib.suppress(zlib.error):
        raw = zlib.decompress(raw)
    return raw.decode("utf-8", "replace")


# --- Python, read with its own parser -----------------------------------------------------

_PY_SHELL_STR = frozenset(
    {
        "os.system",
        "os.popen",
        "posix.system",
        "nt.system",
        "os.popen2",
        "os.popen3",
        "platform.popen",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "commands.getoutput",
        "commands.getstatusoutput",
        "pty.spawn",
        "asyncio.create_subprocess_shell",
        "asyncio.subprocess.create_subprocess_shell",
    }
)
_PY_EXEC_ARGV = re.compile(r"^(?:os|posix|nt)\.(exec|spawn|posix_spawn)(\w*)$")
_PY_MODULES = frozenset(
    names(
        """
    os posix nt subprocess shutil pathlib pty commands builtins importlib socket requests
    urllib urllib2 urllib3 http httpx aiohttp ctypes sys glob io codecs asyncio platform
    base64 binascii zlib tempfile ftplib smtplib telnetlib paramiko pycurl marshal pickle
    json time signal multiprocessing threading webbrowser send2trash
    """
    )
)
_PY_SAFE_CALLS = frozenset(
    names(
        """
    print len str int float repr sorted sum min max range enumerate zip list dict set tuple bool
    abs round format hex oct bin chr ord isinstance issubclass type any all map filter reversed
    hash id dir vars divmod pow iter next input bytes bytearray frozenset slice hasattr callable
    ascii help exit quit super object property staticmethod classmethod complex memoryview
    os.getcwd os.getenv os.environ.get os.listdir os.cpu_count os.getpid os.getppid os.uname
    os.getuid os.geteuid os.getgid os.getlogin os.get_terminal_size os.stat os.lstat os.access
    os.scandir os.walk os.fspath os.fsencode os.fsdecode os.urandom os.getloadavg os.times
    os.environ.items os.environ.keys os.environ.values os.get_exec_path os.getgroups
    os.environ.copy shutil.which shutil.disk_usage shutil.get_terminal_size socket.gethostname
    socket.getfqdn glob.glob glob.iglob open io.open importlib.import_module
    importlib.metadata.version importlib.metadata.metadata importlib.util.find_spec
    subprocess.list2cmdline time.time time.sleep time.monotonic time.perf_counter
    time.strftime time.localtime time.gmtime getpass.getuser locale.getlocale
    tempfile.gettempdir bytes.fromhex bytearray.fromhex
    """
    )
)
_PY_SAFE_ROOTS = frozenset(
    names(
        """
    json sys math re platform datetime time random string textwrap itertools functools
    collections statistics decimal fractions hashlib base64 binascii uuid pprint struct
    unicodedata locale calendar shlex fnmatch operator copy keyword numbers zlib html
    urllib.parse os.path posixpath ntpath sysconfig site secrets tomllib csv difflib heapq
    bisect array enum dataclasses typing inspect colorsys ipaddress email.utils string
    importlib.metadata sys.stdout sys.stderr sys.stdin codecs.decode codecs.encode
    """
    )
)
# Methods with side effects when called on an object the reader does not know.
_PY_EFFECT_METHODS = frozenset(
    names(
        """
    unlink rmdir rmtree write_text write_bytes rename touch mkdir makedirs chmod chown
    symlink_to hardlink_to link_to write writelines truncate send sendall sendto sendfile
    connect bind listen kill terminate system popen spawn urlopen post put patch
    storbinary storlines sendmail send_message upload_file put_object execute
    """
    )
)
_PY_NET_ROOTS = frozenset(
    names(
        """
    requests httpx urllib urllib2 urllib3 http aiohttp socket ftplib smtplib telnetlib paramiko
    pycurl websocket websockets xmlrpc
    """
    )
)
_PY_SEND = frozenset(
    names(
        """
    post put patch send sendall sendto sendfile storbinary storlines sendmail send_message
    upload_file put_object upload
    """
    )
)
_PY_ENUM = frozenset({"os.listdir", "os.scandir", "os.walk", "os.fwalk", "glob.glob", "glob.iglob"})
_PY_ENUM_METHODS = frozenset({"glob", "rglob", "iterdir", "walk"})
_PY_DECODE = {
    "base64.b64decode": "base64",
    "base64.decodebytes": "base64",
    "base64.standard_b64decode": "base64",
    "base64.urlsafe_b64decode": "base64",
    "base64.b32decode": "base32",
    "base64.b32hexdecode": "base32hex",
    "base64.b85decode": "base85",
    "base64.a85decode": "ascii85",
    "base64.b16decode": "hex",
    "binascii.unhexlify": "hex",
    "binascii.a2b_hex": "hex",
    "binascii.a2b_base64": "base64",
    "bytes.fromhex": "hex",
    "bytearray.fromhex": "hex",
}
_PY_CODECS = {"hex": "hex", "hex_codec": "hex", "base64": "base64", "base64_codec": "base64"}
_PY_HOME = frozenset(
    {
        "pathlib.Path.home",
        "Path.home",
        "pathlib.PosixPath.home",
        "os.path.expanduser",
        "posixpath.expanduser",
    }
)


# List methods that grow an argv built in steps (`a.append("/dev/sda")`).
_LIST_GROWERS = frozenset({"append", "extend", "insert"})
_PY_BINDERS = (
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AnnAssign,
    ast.NamedExpr,
    ast.For,
    ast.AsyncFor,
    ast.comprehension,
    ast.withitem,
    ast.AugAssign,
)


def _py_ints(node: ast.AST) -> list[int] | None:
    """The integers of a literal list or tuple of small numbers, or None."""
    if not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) > 4096:
        return None
    out: list[int] = []
    for e in node.elts:
        if not (isinstance(e, ast.Constant) and type(e.value) is int and 0 <= e.value < 0x110000):
            return None
        out.append(e.value)
    return out


def _py_char_codes(items: ast.AST) -> list[str] | None:
    """`map(chr, [114, 109])` or `(chr(c) for c in [114, 109])`: the characters, or None."""
    if (
        isinstance(items, ast.Call)
        and isinstance(items.func, ast.Name)
        and items.func.id == "map"
        and len(items.args) == 2
        and isinstance(items.args[0], ast.Name)
        and items.args[0].id == "chr"
    ):
        codes = _py_ints(items.args[1])
        return None if codes is None else [chr(c) for c in codes]
    if isinstance(items, (ast.GeneratorExp, ast.ListComp)) and len(items.generators) == 1:
        gen = items.generators[0]
        elt = items.elt
        if (
            not gen.ifs
            and isinstance(gen.target, ast.Name)
            and isinstance(elt, ast.Call)
            and isinstance(elt.func, ast.Name)
            and elt.func.id == "chr"
            and len(elt.args) == 1
            and isinstance(elt.args[0], ast.Name)
            and elt.args[0].id == gen.target.id
        ):
            codes = _py_ints(gen.iter)
            return None if codes is None else [chr(c) for c in codes]
    return None


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


# Parameter names of the calls the reader judges, so that keyword arguments
# (`copy2(dst="/etc", src=…)`, `rmtree(path=…)`, `run(args=[…])`) are read like positional
# ones whatever name the function was imported under.
_PY_PARAMS: dict[str, tuple[str, ...]] = {
    "shutil.copy": ("src", "dst"),
    "shutil.copy2": ("src", "dst"),
    "shutil.copyfile": ("src", "dst"),
    "shutil.copytree": ("src", "dst"),
    "shutil.move": ("src", "dst"),
    "shutil.rmtree": ("path",),
    "shutil.chown": ("path",),
    "os.remove": ("path",),
    "os.unlink": ("path",),
    "os.rmdir": ("path",),
    "os.removedirs": ("name",),
    "os.rename": ("src", "dst"),
    "os.replace": ("src", "dst"),
    "os.renames": ("old", "new"),
    "os.symlink": ("src", "dst"),
    "os.link": ("src", "dst"),
    "os.chmod": ("path", "mode"),
    "os.chown": ("path", "uid", "gid"),
    "os.truncate": ("path", "length"),
    "os.system": ("command",),
    "os.popen": ("cmd",),
    "open": ("file", "mode"),
    "io.open": ("file", "mode"),
    "codecs.open": ("filename", "mode"),
    "eval": ("source",),
    "exec": ("source",),
    "subprocess.run": ("args",),
    "subprocess.call": ("args",),
    "subprocess.check_call": ("args",),
    "subprocess.check_output": ("args",),
    "subprocess.Popen": ("args",),
    "subprocess.getoutput": ("cmd",),
    "subprocess.getstatusoutput": ("cmd",),
}
_PY_SHORT_PARAMS = {"rmtree": ("path",), "copy2": ("src", "dst"), "copyfile": ("src", "dst")}


def _py_positional(node: ast.Call, name: str, short: str) -> ast.Call:
    """`node` with the keyword arguments of a known function moved into their positions."""
    params = _PY_PARAMS.get(name) or _PY_SHORT_PARAMS.get(short)
    if params is None or len(node.args) >= len(params):
        return node
    if any(isinstance(a, ast.Starred) for a in node.args):
        return node
    kw = {k.arg: k.value for k in node.keywords if k.arg}
    args = list(node.args)
    for p in params[len(args) :]:
        if p not in kw:
            break
        args.append(kw[p])
    if len(args) == len(node.args):
        return node
    used = set(params[: len(args)])
    keywords = [k for k in node.keywords if k.arg not in used]
    return ast.copy_location(ast.Call(func=node.func, args=args, keywords=keywords), node)


class _PyReader:
    """Reads a parsed Python program for its effects."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.alias: dict[str, str] = {}
        self.vals: dict[str, str] = {}
        self.lists: dict[str, list[str]] = {}
        self.defined: set[str] = set()
        self.star: list[str] = []
        self.multi: dict[str, list[str]] = {}  # loop variables over literal lists
        self.walked: set[str] = set()  # loop variables over a tree walk (os.walk, rglob)
        self.fx = Effects()
        self.decoded = False

    # -- names -------------------------------------------------------------------------

    def name(self, node: ast.AST) -> str:
        """The canonical dotted name of what `node` refers to (`s.rmtree` -> `shutil.rmtree`
        after `import shutil as s`); "" when unknown, DYN inside when computed."""
        if isinstance(node, ast.Name):
            n = self.alias.get(node.id, node.id)
        elif isinstance(node, ast.Attribute):
            base = self.name(node.value)
            n = f"{base}.{node.attr}" if base else "." + node.attr
        elif isinstance(node, ast.Call):
            func = self.name(node.func)
            if func in ("__import__", "importlib.import_module", "importlib.__import__"):
                mod = self.value(node.args[0]) if node.args else DYN
                return mod if DYN not in mod else DYN
            if func == "getattr" and len(node.args) >= 2:
                attr = self.value(node.args[1])
                base = self.name(node.args[0])
                return f"{base}.{attr}" if DYN not in attr else DYN
            if func in ("vars", "globals", "locals") and node.args:
                return self.name(node.args[0]) + ".__dict__"
            if func in ("globals", "locals"):
                return "builtins.__dict__"
            n = func + "()" if func else ""
        elif isinstance(node, ast.Subscript):
            base = self.name(node.value)
            key = self.value(node.slice)
            if base in ("sys.modules",):
                return key if DYN not in key else DYN
            if base.endswith("__dict__"):
                if DYN in key:
                    return DYN
                owner = base[: -len("__dict__")].rstrip(".")
                return f"{owner}.{key}" if owner else key
            n = base + "[]" if base else ""
        else:
            return ""
        for prefix in ("builtins.", "__builtins__.", "builtins.__dict__.", "__builtin__."):
            if n.startswith(prefix):
                n = n[len(prefix) :]
        if "." not in n and n in self.star_names():
            n = self.star_names()[n]
        return n

    def star_names(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for mod in self.star:
            for full in (*_PY_SHELL_STR, "shutil.rmtree", "os.remove", "os.unlink", "os.rename"):
                if full.startswith(mod + "."):
                    out[full[len(mod) + 1 :]] = full
        return out

    # -- values ------------------------------------------------------------------------

    def value(self, node: ast.AST | None) -> str:
        """The string value of an expression; unknown parts are DYN."""
        if node is None:
            return DYN
        try:
            return self._value(node)
        except (RecursionError, ValueError, TypeError, IndexError, KeyError, OverflowError):
            return DYN

    def _value(self, node: ast.AST) -> str:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, str):
                return v
            if isinstance(v, bytes):
                return v.decode("latin-1")
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return str(v)
            return DYN
        if isinstance(node, ast.Name):
            return self.vals.get(node.id, DYN)
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.walked
        ):
            # `for p in os.scandir(d): rmtree(p.path)`: a DirEntry's path is the entry (n13u)
            return self.vals.get(node.value.id, DYN)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand)
            return "-" + inner if inner.isdigit() else DYN
        if isinstance(node, ast.JoinedStr):
            return "".join(self.value(v) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            return self.value(node.value)
        if isinstance(node, ast.BinOp):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Div):  # Path("/") / "etc"
                return left.rstrip("/") + "/" + right if left != "/" else "/" + right
            if isinstance(node.op, ast.Mod) and DYN not in left:
                args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
                vals = tuple(self.value(a) for a in args)
                try:
                    return left % vals
                except (TypeError, ValueError):
                    return DYN
            if isinstance(node.op, ast.Mult) and isinstance(node.right, ast.Constant):
                n = node.right.value
                return left * n if isinstance(n, int) and 0 <= n <= 8 else DYN
            return DYN
        if isinstance(node, ast.Subscript):
            base = self.name(node.value)
            if base in ("os.environ",):
                key = self.value(node.slice)
                return env_folder(key) or DYN  # (n13w: `os.environ["SystemRoot"]` too)
            inner = self.value(node.value)
            s = node.slice
            if (
                isinstance(s, ast.Slice)
                and s.lower is None
                and s.upper is None
                and isinstance(s.step, ast.UnaryOp)
                and DYN not in inner
            ):
                return inner[::-1]  # "fr- mr"[::-1]
            return DYN
        if isinstance(node, (ast.List, ast.Tuple)):
            return " ".join(self.value(e) for e in node.elts)
        if isinstance(node, ast.Call):
            return self._call_value(node)
        return DYN

    def _call_value(self, node: ast.Call) -> str:
        name = self.name(node.func)
        args = [self.value(a) for a in node.args]
        short = name.rsplit(".", 1)[-1]
        if name in _PY_HOME or name.endswith(("path.expanduser", "Path.home", "Path().home")):
            if name.endswith("expanduser") and args:
                return args[0]
            return "~"
        if name in ("os.getcwd", "os.getcwdb", "pathlib.Path.cwd", "Path.cwd", "posix.getcwd"):
            return "."  # (u22, red team F12) `shutil.rmtree(os.getcwd())` is `rmtree(".")`
        if name in ("os.getenv", "os.environ.get") and args and env_folder(args[0]):
            return env_folder(args[0]) or DYN
        if name in ("os.path.expandvars", "posixpath.expandvars", "ntpath.expandvars") and args:
            # (n13w) `%SystemRoot%`, `$WINDIR`, `${HOME}`: the known folders
            return re.sub(
                r"%([\w()]+)%|\$\{?(\w+)\}?",
                lambda v: env_folder(v.group(1) or v.group(2)) or v.group(0),
                args[0],
            )
        if name in ("os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "os.fspath"):
            return args[0] if args else DYN
        if name in (
            "os.path.join",
            "posixpath.join",
            "pathlib.Path",
            "pathlib.PurePath",
            "pathlib.PosixPath",
            "Path",
            "PurePath",
        ):
            out = ""
            for a in args:
                out = a if a.startswith("/") or not out else out.rstrip("/") + "/" + a
            return out or "."
        if name == "compile" and args:
            return args[0]  # exec(compile("…", "x", "exec"))
        if name in ("chr",) and args and args[0].isdigit():
            return chr(int(args[0]))
        if name in ("bytes", "bytearray") and node.args and isinstance(node.args[0], ast.List):
            codes = _py_ints(node.args[0])
            if codes is not None:
                self.decoded = True  # bytes([114, 109, …]).decode() (safety-m9)
                return "".join(chr(c) for c in codes)
        if name in _PY_DECODE and args and DYN not in args[0]:
            self.decoded = True
            return _decode(args[0], _PY_DECODE[name]) or DYN
        if name in ("codecs.decode", "codecs.encode") and len(args) > 1 and args[1] == "rot13":
            self.decoded = True
            return codecs.decode(args[0], "rot13") if DYN not in args[0] else DYN
        if name == "codecs.decode" and len(args) > 1 and args[1].lower() in _PY_CODECS:
            # codecs.decode("726d…", "hex") (safety-m9)
            self.decoded = True
            if DYN in args[0]:
                return DYN
            return _decode(args[0], _PY_CODECS[args[1].lower()]) or DYN
        if name in ("zlib.decompress", "gzip.decompress", "bz2.decompress", "lzma.decompress"):
            self.decoded = True
            return DYN if not args else args[0]
        if isinstance(node.func, ast.Attribute):
            recv = node.func.value
            attr = node.func.attr
            if attr in ("decode", "encode", "strip", "rstrip", "lstrip", "expanduser", "resolve"):
                return self.value(recv)
            if attr == "absolute":
                return self.value(recv)
            if attr in ("lower", "upper"):
                v = self.value(recv)
                return v.lower() if attr == "lower" else v.upper()
            if attr == "joinpath":
                out = self.value(recv)
                for a in args:
                    out = a if a.startswith("/") else out.rstrip("/") + "/" + a
                return out
            if attr == "join" and node.args:
                sep = self.value(recv)
                items = node.args[0]
                if isinstance(items, (ast.List, ast.Tuple)):
                    return sep.join(self.value(e) for e in items.elts)
                if isinstance(items, ast.Name) and items.id in self.lists:
                    return sep.join(self.lists[items.id])
                chars = _py_char_codes(items)
                if chars is not None:
                    self.decoded = True  # "".join(map(chr, [114, 109, …])) (safety-m9)
                    return sep.join(chars)
                return DYN
            if attr == "replace" and len(args) >= 2:
                v = self.value(recv)
                return v.replace(args[0], args[1]) if DYN not in args[0] + args[1] else DYN
            if attr == "format":
                fmt = self.value(recv)
                if DYN in fmt:
                    return DYN
                try:
                    return fmt.format(*args)
                except (IndexError, KeyError, ValueError):
                    return DYN
            if attr in ("read", "read_text", "read_bytes", "readline"):
                return DYN
        if short in ("rglob", "glob", "iterdir") or name in _PY_ENUM:
            return DYN
        return DYN

    # -- the walk ----------------------------------------------------------------------

    def bind(self, target: ast.AST, value: ast.AST | None, enum_root: str | None = None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            vals = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            for i, t in enumerate(elts):
                self.bind(t, vals[i] if vals is not None and i < len(vals) else None, enum_root)
            return
        if not isinstance(target, ast.Name):
            return
        tid = target.id
        if enum_root is not None:
            self.vals[tid] = enum_root
            self.walked.add(tid)
            return
        if value is None:
            self.vals.pop(tid, None)
            return
        if isinstance(value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
            n = self.name(value)
            root = n.split(".", 1)[0]
            if n == DYN:
                self.alias[tid] = DYN
                return
            if (
                root in _PY_MODULES
                and not isinstance(value, ast.Subscript)
                and not (isinstance(value, ast.Call) and self.name(value.func) in _PY_HOME)
            ):
                self.alias[tid] = n
        if isinstance(value, (ast.List, ast.Tuple)):
            self.lists[tid] = [self.value(e) for e in value.elts]
        self.vals[tid] = self.value(value)

    def grow(self, node: ast.AugAssign | ast.Call) -> None:
        """`argv += ["-rf", "/"]`, `argv.extend([...])`, `argv.append("/")`, `argv.insert(0,
        "rm")`: an argv list built in steps, then run, is judged as the list it became (n10u;
        round 9). What is not literal makes the list unknown."""
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.target, ast.Name) or not isinstance(node.op, ast.Add):
                return
            tid, added = node.target.id, self._items(node.value)
        else:
            func = node.func
            if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
                return
            tid = func.value.id
            if func.attr == "extend" and len(node.args) == 1:
                added = self._items(node.args[0])
            elif func.attr == "append" and len(node.args) == 1:
                added = [self.value(node.args[0])]
            elif func.attr == "insert" and len(node.args) == 2 and tid in self.lists:
                at = node.args[0]
                where = at.value if isinstance(at, ast.Constant) else None
                if isinstance(where, int) and not isinstance(where, bool):
                    items = list(self.lists[tid])
                    items.insert(where, self.value(node.args[1]))
                    self.lists[tid] = items
                else:
                    self.lists.pop(tid, None)
                return
            else:
                return
        if tid not in self.lists:
            return
        if added is None:
            self.lists.pop(tid, None)
            return
        self.lists[tid] = [*self.lists[tid], *added]

    def literal_items(self, it: ast.AST) -> list[str] | None:
        """`for p in ["/etc", "/usr"]`: the values a loop variable takes."""
        if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
            return [self.value(e) for e in it.elts]
        if isinstance(it, ast.Name) and it.id in self.lists:
            return list(self.lists[it.id])
        return None

    def enum_root(self, it: ast.AST) -> str | None:
        """`os.walk("/")`, `Path("/etc").rglob("*")`, `glob.glob("/x/*")`: what a loop over
        `it` visits, as a path with an unknown tail."""
        for node in ast.walk(it):
            if not isinstance(node, ast.Call):
                continue
            name = self.name(node.func)
            if name in ("glob.glob", "glob.iglob") and node.args:
                pat = self.value(node.args[0])
                return pat if DYN not in pat else None
            if name in _PY_ENUM:
                root = self.value(node.args[0]) if node.args else "."
                return root.rstrip("/") + "/" + DYN if DYN not in root else None
            if isinstance(node.func, ast.Attribute) and node.func.attr in _PY_ENUM_METHODS:
                root = self.value(node.func.value)
                if DYN not in root:
                    return root.rstrip("/") + "/" + DYN
        return None

    def read(self, tree: ast.AST) -> Effects:
        calls: list[ast.Call] = []
        binders: list[ast.AST] = []
        for n in ast.walk(tree):
            if isinstance(n, ast.Call):
                calls.append(n)
                if isinstance(n.func, ast.Attribute) and n.func.attr in _LIST_GROWERS:
                    binders.append(n)  # `argv.append("/dev/sda")`: the list grows (n10u)
            elif isinstance(n, _PY_BINDERS):
                binders.append(n)
        nodes = sorted(binders, key=_pos)
        # imports, definitions and assignments first (a one-liner's order is its source order)
        for node in nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.alias[a.asname] = a.name
                    else:
                        self.alias[a.name.split(".")[0]] = a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if a.name == "*":
                        self.star.append(node.module)
                    else:
                        self.alias[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defined.add(node.name)
            elif isinstance(node, ast.Lambda):
                pass
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    self.bind(t, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                self.bind(node.target, node.value)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                items = self.literal_items(node.iter)
                if items and isinstance(node.target, ast.Name):
                    self.multi[node.target.id] = items
                    self.vals[node.target.id] = items[0]
                else:
                    self.bind(node.target, None, self.enum_root(node.iter))
            elif isinstance(node, (ast.withitem,)) and node.optional_vars is not None:
                self.bind(node.optional_vars, node.context_expr)
            elif isinstance(node, (ast.AugAssign, ast.Call)):
                self.grow(node)
        for call in calls:
            self.call(call)
        return self.fx

    def call(self, node: ast.Call) -> None:
        fx = self.fx
        name = self.name(node.func)
        if DYN in name:
            fx.opaque = fx.opaque or "calls a function whose name is computed at run time"
            return
        short = name.rsplit(".", 1)[-1]
        if node.keywords:
            node = _py_positional(node, name, short)
        root = name.split(".", 1)[0]
        args = node.args
        first = args[0] if args else None
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if root in _PY_NET_ROOTS or short in ("urlopen", "urlretrieve"):
            fx.network = True
            fx.risky = True
            if (
                short in _PY_SEND
                or "data" in kw
                or "files" in kw
                or "json" in kw
                or (short == "urlopen" and len(args) > 1)
                or (short == "Request" and ("data" in kw or len(args) > 1))
                or (short == "request" and args and self.value(args[0]).upper() in ("POST", "PUT"))
            ):
                fx.sends = True
            if self._carries_data(node):
                fx.sends = True
                fx.cmd_output = True
        if (
            name in _PY_SHELL_STR
            or _PY_EXEC_ARGV.match(name)
            or (short in ("system", "popen") and first is not None)
        ):
            self.shell_out(name, node)
            return
        if name in ("eval", "exec", "compile", "execfile"):
            self.run_code(node)
            return
        if name in ("map", "filter") and len(args) >= 2 and self.depth < _MAX_DEPTH:
            # map(os.remove, ["/etc/passwd"]): the function is called on every item.
            seq = args[1]
            elts = seq.elts if isinstance(seq, (ast.List, ast.Tuple, ast.Set)) else [seq]
            for e in elts[:16]:
                self.call(ast.Call(func=args[0], args=[e], keywords=[]))
            return
        if name in ("os.kill", "os.killpg") and first is not None:
            fx.risky = True
            if self.value(first) in ("1", "-1", "0"):
                fx.extra.append((D, "kill", "kills every process or the init process"))
            return
        if short in ("extractall", "extract", "unpack_archive") and (
            name.startswith(("zipfile", "tarfile", "shutil", ".")) or "()" in name
        ):
            fx.risky = True
            target = kw.get("path") or kw.get("extract_dir")
            if target is None and args:
                target = args[-1] if short != "extract" or len(args) > 1 else None
                if short == "unpack_archive":
                    target = args[1] if len(args) > 1 else None
            where = self.value(target) if target is not None else "."
            if DYN not in where and classify_path(where, frozenset([None])).level >= B:
                fx.extra.append((C, "system-file", f"unpacks an archive into {where}"))
            return
        if (
            name in ("shutil.rmtree", "os.removedirs")
            or short == "rmtree"
            # (n18u) distutils' (and setuptools' vendored copy's) tree delete
            or name.endswith("dir_util.remove_tree")
        ):
            self.delete(first, True)
            return
        if name in ("os.remove", "os.unlink", "os.rmdir", "posix.remove", "posix.unlink") or (
            short in ("unlink", "rmdir") and isinstance(node.func, ast.Attribute)
        ):
            target = first
            if name not in ("os.remove", "os.unlink", "os.rmdir", "posix.remove", "posix.unlink"):
                assert isinstance(node.func, ast.Attribute)
                target = node.func.value
            self.delete(target, False)
            return
        if (
            name in ("os.rename", "os.replace", "os.renames", "shutil.move")
            or (short == "rename" and isinstance(node.func, ast.Attribute))
            or (short == "replace" and "Path" in name)
        ):
            if name in ("os.rename", "os.replace", "os.renames", "shutil.move"):
                src = args[0] if args else None
                dst = args[1] if len(args) > 1 else None
            else:
                assert isinstance(node.func, ast.Attribute)
                src, dst = node.func.value, first
            self.path_effect(src, fx.moves)
            self.path_effect(dst, fx.writes)
            fx.risky = True
            return
        if name in (
            "shutil.copy",
            "shutil.copy2",
            "shutil.copyfile",
            "shutil.copytree",
            "os.symlink",
            "os.link",
        ):
            dst = args[1] if len(args) > 1 else kw.get("dst")
            self.path_effect(dst, fx.writes)
            if name in ("shutil.copy", "shutil.copy2") and args and dst is not None:
                # `copy2("fixtures/passwd", "/etc")`: into a directory, the file keeps its name.
                copied, into = self.value(args[0]), self.value(dst)
                base = copied.rstrip("/").rsplit("/", 1)[-1]
                if DYN not in base and base and DYN not in into and into.startswith(("/", "~")):
                    fx.writes.append(into.rstrip("/") + "/" + base)
            fx.risky = True
            return
        if name in ("os.chmod", "os.chown", "os.lchown", "shutil.chown", "os.lchmod") or (
            short in ("chmod", "chown") and isinstance(node.func, ast.Attribute)
        ):
            target = first if root in ("os", "shutil") else getattr(node.func, "value", None)
            self.path_effect(target, fx.chmods)
            fx.risky = True
            return
        if name == "os.truncate":
            self.path_effect(first, fx.writes)
            fx.risky = True
            return
        if short == "open" or name in ("io.open", "codecs.open"):
            self.open_call(node, name)
            return
        if short in ("write_text", "write_bytes") and isinstance(node.func, ast.Attribute):
            self.path_effect(node.func.value, fx.writes)
            fx.risky = True
            return
        if short in ("read_text", "read_bytes") and isinstance(node.func, ast.Attribute):
            self.path_effect(node.func.value, fx.reads)
            return
        if name == "os.open" and len(args) > 1:
            flags = ast.dump(args[1])
            if re.search(r"O_(WRONLY|RDWR|TRUNC|APPEND|CREAT)", flags):
                self.path_effect(first, fx.appends if "O_APPEND" in flags else fx.writes)
                fx.risky = True
            else:
                self.path_effect(first, fx.reads)
            return
        if name in ("os.kill", "os.killpg") and first is not None:
            fx.risky = True
            return
        self.risky_call(name, short, root, node)

    def risky_call(self, name: str, short: str, root: str, node: ast.Call) -> None:
        if self.fx.risky or name in _PY_SAFE_CALLS or name in self.defined:
            return
        if name.startswith(".") or name.endswith("()") or "()." in name or "[]" in name:
            if short in _PY_EFFECT_METHODS:
                self.fx.risky = True
            return
        parts = name.split(".")
        if any(".".join(parts[:i]) in _PY_SAFE_ROOTS for i in range(1, min(len(parts), 3) + 1)):
            return
        if "." not in name and name not in self.alias and name in self.vals:
            return  # calling a local value
        self.fx.risky = True

    def _carries_data(self, node: ast.Call) -> bool:
        """A network call whose arguments read a file, run a command or dump the env."""
        for sub in ast.walk(node):
            if sub is node or not isinstance(sub, (ast.Call, ast.Attribute)):
                continue
            n = self.name(sub.func if isinstance(sub, ast.Call) else sub)
            s = n.rsplit(".", 1)[-1]
            if s in ("read", "read_text", "read_bytes", "readlines") or n in _PY_SHELL_STR:
                return True
            if n in ("os.environ",) or (s == "open" and isinstance(sub, ast.Call)):
                return True
        return False

    def open_call(self, node: ast.Call, name: str) -> None:
        args = node.args
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(node.func, ast.Attribute) and name not in ("io.open", "codecs.open", "open"):
            target: ast.AST | None = node.func.value  # Path(...).open("w")
            mode_node = args[0] if args else kw.get("mode")
        else:
            target = args[0] if args else kw.get("file")
            mode_node = args[1] if len(args) > 1 else kw.get("mode")
        mode = self.value(mode_node) if mode_node is not None else "r"
        if DYN in mode:
            mode = "w"
        if any(c in mode for c in "wax+"):
            appending = "a" in mode and "+" not in mode
            self.path_effect(target, self.fx.appends if appending else self.fx.writes)
            self.fx.risky = True
        else:
            self.path_effect(target, self.fx.reads)

    def path_effect(self, node: ast.AST | None, into: list[str]) -> None:
        if node is None:
            return
        if (into is self.fx.writes or into is self.fx.moves) and any(
            isinstance(n, ast.Name) and n.id in self.walked for n in ast.walk(node)
        ):
            # `for r, _, fs in os.walk(~): open(join(r, f), "w")`: every file of the tree
            # walked is emptied or moved away: a recursive wipe of the tree's root.
            self.delete(node, True)
            return
        path = _path_of(self.value(node))
        if path is not None:
            into.append(path)
        elif into is self.fx.writes or into is self.fx.appends:
            self.fx.risky = True

    def delete(self, node: ast.AST | None, recursive: bool) -> None:
        self.fx.risky = True
        if node is None:
            return
        if isinstance(node, ast.Name) and node.id in self.multi:
            for v in self.multi[node.id]:
                self._delete_value(v, recursive)
            return
        self._delete_value(self.value(node), recursive)

    def _delete_value(self, value: str, recursive: bool) -> None:
        path = _path_of(value)
        if path is None:
            self.fx.unknown_delete = True
        else:
            self.fx.deletes.append((path, recursive or DYN in value))

    def shell_out(self, name: str, node: ast.Call) -> None:
        fx = self.fx
        fx.risky = True
        fx.cmd_output = True
        args = list(node.args)
        self.decoded = False
        m = _PY_EXEC_ARGV.match(name)
        argv: list[str] | None = None
        line: str | None = None
        if m is not None:
            kind, suffix = m.group(1), m.group(2)
            if kind == "spawn" and args:
                args = args[1:]  # the mode
            if not args:
                return
            program = self.value(args[0])
            if kind == "posix_spawn" or "v" in suffix:
                seq = args[1] if len(args) > 1 else None
                items = self._items(seq)
                argv = [program] + (items[1:] if items else [])
            else:
                rest = args[2:] if len(args) > 2 else []
                if "e" in suffix and rest:
                    rest = rest[:-1]  # the environment
                argv = [program] + [self.value(a) for a in rest]
        elif name == "asyncio.create_subprocess_exec":
            argv = [self.value(a) for a in args]
        elif args:
            first = args[0]
            items = self._items(first)
            if items is not None and not isinstance(first, ast.Constant):
                argv = items
            else:
                line = self.value(first)
        else:
            for k in node.keywords:
                if k.arg == "args":
                    items = self._items(k.value)
                    argv = items if items is not None else None
                    line = self.value(k.value) if items is None else None
        if argv is not None:
            if not argv or argv[0] == DYN or argv[0].startswith(DYN):
                fx.opaque = fx.opaque or "runs a program whose name is computed at run time"
                return
            line = " ".join(_shell_quote(a) for a in argv)
        if line is None:
            return
        if line.strip() == DYN or line.lstrip().startswith(DYN):
            fx.opaque = fx.opaque or "runs a command line computed at run time"
            return
        (fx.hidden if self.decoded else fx.shell).append(_shell_line(line))

    def _items(self, node: ast.AST | None) -> list[str] | None:
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[str] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    out.append(DYN)
                else:
                    out.append(self.value(e))
            return out
        if isinstance(node, ast.Name) and node.id in self.lists:
            return list(self.lists[node.id])
        if isinstance(node, ast.Call) and self.name(node.func) in ("shlex.split",) and node.args:
            v = self.value(node.args[0])
            return v.split() if DYN not in v else None
        return None

    def run_code(self, node: ast.Call) -> None:
        fx = self.fx
        fx.risky = True
        first = node.args[0] if node.args else None
        if first is None:
            return
        self.decoded = False
        code = self.value(first)
        if DYN in code:
            remote = any(
                isinstance(n, ast.Call)
                and (
                    self.name(n.func).split(".", 1)[0] in _PY_NET_ROOTS
                    or self.name(n.func).endswith(("urlopen", ".get"))
                )
                for n in ast.walk(first)
            )
            fx.opaque = fx.opaque or (
                "runs code downloaded from the network"
                if remote
                else "runs code built at run time (exec/eval of a computed string)"
            )
            return
        decoded = self.decoded
        inner = python_effects(code, self.depth + 1)
        if inner is None:
            fx.opaque = fx.opaque or "runs code it cannot read"
            return
        if decoded:
            inner.hidden += inner.shell
            inner.shell = []
            fx.opaque = fx.opaque or "runs decoded (hidden) code"
        fx.merge(inner)


def python_effects(code: str, depth: int = 0) -> Effects | None:
    """Effects of Python source, or None when it does not parse."""
    if depth > _MAX_DEPTH:
        fx = Effects()
        fx.opaque = "code nested too deeply to read"
        return fx
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        return _PyReader(depth).read(tree)
    except RecursionError:
        fx = Effects()
        fx.opaque = "code nested too deeply to read"
        return fx


# --- other languages, read with a small tokenizer -------------------------------------------

_LIT = "\x01"  # masked literal: \x01<index>\x01


def _regex_start(code: str, i: int) -> bool:
    """Whether the `/` at `i` opens a regular-expression literal (not a division)."""
    before = code[:i].rstrip()
    if not before:
        return True
    if before[-1] in "(,=~!{;&|:?[":
        return True
    return bool(
        re.search(r"(?:\A|\W)(?:if|unless|and|or|not|split|grep|return|when)\Z", before[-8:])
    )


class _Lit:
    __slots__ = ("interp", "kind", "raw")

    def __init__(self, kind: str, raw: str, interp: bool) -> None:
        self.kind = kind  # "str", "shell" (backticks, qx, %x) or "words" (qw, %w)
        self.raw = raw
        self.interp = interp


_FAMILY = {
    "node": "js",
    "nodejs": "js",
    "deno": "js",
    "bun": "js",
    "js": "js",
    "perl": "perl",
    "ruby": "ruby",
    "irb": "ruby",
    "php": "php",
    "lua": "lua",
    "luajit": "lua",
    "osascript": "applescript",
    "rscript": "r",
    "tclsh": "tcl",
    "wish": "tcl",
    "jimsh": "tcl",
    "groovy": "groovy",
    "jshell": "java",
    "julia": "julia",
    "scala": "java",
    "scala-cli": "java",
    "amm": "java",
    "kotlin": "java",
    "kotlinc": "java",
    "kotlinc-jvm": "java",
    "erl": "erlang",
    "erlang": "erlang",
    "elixir": "elixir",
    "iex": "elixir",
    "clojure": "clojure",
    "clj": "clojure",
    "bb": "clojure",
    "texlua": "lua",
    "raku": "raku",
    "go": "go",
    "swift": "swift",
    "objc": "swift",
    "haskell": "haskell",
}
# (n17u) A path object made from a path (Java/Kotlin/Scala/Rust/D/Zig spellings): its text.
_PATH_CTOR = re.compile(
    r"\A(?:new\s+)?(?:[\w.]+\.|[\w:]+::)?(?:Path\.of|Paths\.get|Path\s*::\s*new|PathBuf\s*::\s*from"
    r"|File|Path|PathBuf|FilePath)\s*\((.*)\)",
    re.S,
)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _lex(code: str, lang: str) -> tuple[str, list[_Lit]]:
    """Mask string literals: returns the code with each literal replaced by a marker, and the
    literals (shell-command literals marked as such)."""
    out: list[str] = []
    lits: list[_Lit] = []
    i, n = 0, len(code)
    backtick_shell = lang in ("perl", "ruby", "php", "julia", "sh")
    interp_double = lang in ("perl", "ruby", "php", "groovy", "julia", "elixir")
    while i < n:
        c = code[i]
        kind = ""
        body_start = -1
        close = ""
        interp = False
        if c in "'\"`":
            kind = "shell" if c == "`" and backtick_shell else "str"
            interp = c == "`" or (c == '"' and interp_double)
            close = c
            body_start = i + 1
        elif (
            lang == "perl"
            and re.match(r"\Aq[qxw]?\s*[^\w\s]", code[i : i + 4])
            and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_$@%"))
        ):
            m = re.match(r"\A(q[qxw]?)\s*([^\w\s])", code[i:])
            assert m is not None
            op, delim = m.group(1), m.group(2)
            kind = {"qx": "shell", "qw": "words"}.get(op, "str")
            interp = op in ("qq", "qx")
            close = _PAIRS.get(delim, delim)
            body_start = i + m.end()
        elif lang == "raku" and c in "\u00ab<qQ" and (raku := _raku_quote(code, i)) is not None:
            # Raku word quoting `«rm -rf /»`, `<<…>>`, `<rm -rf />`, `qw/…/`, and its
            # shell-quote `qx{…}`/`qqx{…}` (safety-m9)
            kind, interp, close, body_start = raku
        elif lang == "ruby" and c == "%" and re.match(r"\A%[qQwWxi]?[^\w\s=]", code[i : i + 3]):
            m = re.match(r"\A%([qQwWxi]?)([^\w\s=])", code[i:])
            assert m is not None
            op, delim = m.group(1), m.group(2)
            kind = {"x": "shell", "w": "words", "W": "words", "i": "words"}.get(op, "str")
            interp = op in ("Q", "x", "W", "")
            close = _PAIRS.get(delim, delim)
            body_start = i + m.end()
        elif lang == "lua" and code.startswith("[[", i):
            kind, close, body_start = "str", "]]", i + 2
        elif c == "/" and lang in ("perl", "ruby", "js", "awk") and _regex_start(code, i):
            kind, close, body_start = "regex", "/", i + 1
        elif (
            lang == "perl"
            and c in "msy"
            and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_$@%"))
            and re.match(r"\A(?:m|s|qr|tr|y)[{/(|!#]", code[i : i + 3])
        ):
            m = re.match(r"\A(m|s|qr|tr|y)([{/(|!#])", code[i : i + 3])
            assert m is not None
            kind, close = "regex", _PAIRS.get(m.group(2), m.group(2))
            body_start = i + m.end()
        if not kind:
            out.append(c)
            i += 1
            continue
        j = body_start
        depth = 0
        opener = code[body_start - 1] if close in _PAIRS.values() and len(close) == 1 else ""
        while j < n:
            ch = code[j]
            if ch == "\\" and close != "]]":
                j += 2
                continue
            if opener and opener != close and ch == opener:
                depth += 1
            elif code.startswith(close, j):
                if depth == 0:
                    break
                depth -= 1
            j += 1
        lits.append(_Lit(kind, code[body_start:j], interp))
        out.append(f"{_LIT}{len(lits) - 1}{_LIT}")
        i = j + len(close)
    return "".join(out), lits


_RAKU_Q = re.compile(r"(qqx|qx|qqww|qqw|qww|qw|qq|q|Q)\s*([^\w\s,;()])")


def _raku_quote(code: str, i: int) -> tuple[str, bool, str, int] | None:
    """A Raku quoting construct starting at `i`: (kind, interpolates, closer, body start)."""
    c = code[i]
    if c == "\u00ab":  # «…»: words, interpolated
        return "words", True, "\u00bb", i + 1
    if c == "<":
        before = code[max(0, i - 40) : i].rstrip()[-1:]
        term = (
            not before
            or before in "(,=[{;"
            or re.search(
                r"(?:\A|\W)(?:run|shell|say|put|print|return)\s*\Z", code[max(0, i - 12) : i]
            )
            is not None
        )
        if not term:
            return None
        if code.startswith("<<", i) and ">>" in code[i + 2 : i + 2000]:
            return "words", True, ">>", i + 2
        end = code.find(">", i + 1, i + 2000)
        nl = code.find("\n", i + 1, i + 2000)
        if end > i + 1 and (nl < 0 or end < nl) and not code[i + 1].isspace():
            return "words", False, ">", i + 1
        return None
    if c in "qQ" and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_$@%&-")):
        m = _RAKU_Q.match(code, i)
        if m is None:
            return None
        op, delim = m.group(1), m.group(2)
        kind = "shell" if op.endswith("x") else "words" if "w" in op else "str"
        close = _PAIRS.get(delim, delim)
        return kind, op.startswith("qq") or op == "qx", close, m.end()
    return None


_HOME_EXPR = re.compile(
    r"^(?:(?:require\s*\(\s*\x01\d+\x01\s*\)|os)\.homedir\s*\(\s*\)|process\.env\.(?:HOME|USERPROFILE"
    r"|windir|WINDIR|SystemRoot|SYSTEMROOT|ProgramFiles|PROGRAMFILES|ProgramData|PROGRAMDATA"
    r"|SystemDrive|SYSTEMDRIVE|APPDATA|LOCALAPPDATA)"
    r"|process\.env\[\x01\d+\x01\]|Dir\.home|ENV\[\x01\d+\x01\]|ENV\.fetch\(\x01\d+\x01\)"
    r"|\$ENV\{\s*(?:HOME|USERPROFILE|\w+|\x01\d+\x01)\s*\}|(?:os\.)?getenv\s*\(\s*\x01\d+\x01\s*\)"
    r"|\$_SERVER\[\x01\d+\x01\]|Sys\.getenv\(\x01\d+\x01\)|homedir\(\)|\$HOME|path\.expand\(.*\)"
    r"|File\.expand_path\(.*\)|os\.UserHomeDir\(\)|(?:java\.lang\.)?System\.getProperty\(\x01\d+\x01\)"
    # (n14w) every JS runtime's env lookup by name: Deno's getter, Bun's/Deno's/Vite's env
    # objects (dotted or indexed), whatever variable (the known folders resolve below)
    r"|Deno\.env\.get\(\x01\d+\x01\)|(?:Bun|Deno|import\.meta|process)\.env\.\w+"
    r"|(?:Bun|Deno|import\.meta)\.env\[\x01\d+\x01\]"
    r"|NSHomeDirectory\(\)|FileManager\.default\.homeDirectoryForCurrentUser(?:\.path)?"
    r"|ProcessInfo\.processInfo\.environment\[\x01\d+\x01\]!?"
    r"|vim\.env\.HOME|vim\.(?:loop|uv)\.os_homedir\(\)"
    r"|System\.user_home!?\(\)|System\.get_env\(\x01\d+\x01\)|System/getenv\s+\x01\d+\x01"
    r"|(?:os\.)?getHomeDir\(\)|(?:os\.)?home_dir\(\)(?:\.unwrap\(\))?|dirs::home_dir\(\)"
    r"(?:\.unwrap\(\))?|Path\.home\(\)|os\.path\.expanduser\(\x01\d+\x01\)"
    r"|(?:os\.)?homeDir\(\)|Environment\.GetFolderPath\([^()]*UserProfile\)"
    r"|System\.getenv\(\x01\d+\x01\)|Environment\.GetEnvironmentVariable\(\x01\d+\x01\)"
    r"|os\.Getenv\(\x01\d+\x01\))$"  # (n14u: Go)
)
# (u22) The working folder in the languages' spellings (`process.cwd()`, `Dir.pwd`, `getcwd()`).
_CWD_EXPR = re.compile(
    r"\A(?:process\.cwd\(\s*\)|Deno\.cwd\(\s*\)|Dir\.(?:pwd|getwd)|(?:Cwd::)?(?:getcwd|cwd)\(\s*\)"
    r"|Cwd::(?:getcwd|cwd)|lfs\.currentdir\(\s*\)|os\.Getwd\(\s*\)|getwd\(\s*\))\Z"
)
_DECODERS = {
    "atob": "base64",
    "decode_base64": "base64",
    "MIME::Base64::decode_base64": "base64",
    "Base64.decode64": "base64",
    "Base64.strict_decode64": "base64",
    "base64_decode": "base64",
    "hex2bin": "hex",
    "str_rot13": "rot13",
    "base64dec": "base64",
    "base64decode": "base64",
}


# Character-code and hex idioms the non-Python reader evaluates (safety-m9).
_NUMS_CORE = r"\d+(?:[ \t]*,[ \t]*\d+)*[ \t]*,?"
_NUMS_RE = r"\s*" + _NUMS_CORE + r"\s*"  # (only inside patterns anchored at \A)
_NUMS = re.compile(_NUMS_CORE)
_PACK_RECV = re.compile(r"\A\[(.*)\]\s*\.\s*pack\s*\(?\s*\x01(\d+)\x01\s*\)?", re.S)
_PACK_CALL = re.compile(r"\Apack\s*\(?\s*\x01(\d+)\x01\s*,(" + _NUMS_RE + r")\)?")
_CHR_MAP = re.compile(
    # Perl `join "", map { chr } (…)` / `join('', map(chr, …))` / `map { chr($_) } …`
    r"\A(?:join\s*\(?\s*\x01\d+\x01\s*,\s*map\s*(?:\{\s*chr(?:\s*\(?\s*\$_\s*\)?)?\s*\}"
    r"\s*|\(\s*chr\s*,\s*)\(?(" + _NUMS_RE + r")\)?\s*\)?"
    # PHP `implode(array_map("chr", [..]))`, `implode("", array_map('chr', array(..)))`
    r"|implode\s*\(\s*(?:\x01\d+\x01\s*,\s*)?array_map\s*\(\s*\x01\d+\x01\s*,\s*(?:\[|array\()"
    r"(" + _NUMS_RE + r")[\])]\s*\)\s*\)"
    # JS `String.fromCharCode(...[..])`, `String.fromCharCode.apply(null, [..])`
    r"|String\.fromCharCode(?:\.apply)?\s*\(\s*(?:\.\.\.|null\s*,|this\s*,)\s*\[("
    + _NUMS_RE
    + r")\]\s*\)"
    # JS `Buffer.from([..])`, Ruby/JS `[..].map(&:chr).join`, `[..].map(c=>String.fromCharCode(c))`
    r"|(?:new\s+)?Buffer\.from\s*\(\s*\[(" + _NUMS_RE + r")\]\s*\)"
    r"|\[(" + _NUMS_RE + r")\]\s*\.\s*map\s*(?:\(\s*&:chr\s*\)|\{\s*(?:\|\w+\|)?\s*\w*\.?chr\s*\}"
    r"|\(\s*\(?\w+\)?\s*=>\s*String\.fromCharCode\(\s*\w+\s*\)\s*\))"
    r"\s*\.\s*join(?:\s*\(\s*(?:\x01\d+\x01)?\s*\))?)\Z",
    re.S,
)


class _Reader:
    """Reads a non-Python program (JS, Perl, Ruby, PHP, Lua, AppleScript, R, Tcl …)."""

    def __init__(self, code: str, lang: str, depth: int) -> None:
        self.lang = lang
        self.depth = depth
        self.raw = code
        self.masked, self.lits = _lex(code, lang)
        if lang == "erlang":
            # `os:cmd(…)`, `file:del_dir_r(…)`: module-qualified calls read as `os.cmd(…)`.
            self.masked = re.sub(r"\b([a-z]\w*):([a-z]\w*)\s*\(", r"\1.\2(", self.masked)
        if lang == "elixir":
            # `File.rm_rf!(…)` is `File.rm_rf(…)` that raises on failure.
            self.masked = re.sub(r"(\w)!\s*\(", r"\1(", self.masked)
        self.env: dict[str, str] = {}
        self.lists: dict[str, list[str]] = {}
        self.fx = Effects()
        self.decoded = False
        self.roots: list[str] = []

    # -- values ------------------------------------------------------------------------

    def lit(self, index: int) -> str:
        lit = self.lits[index]
        raw = lit.raw
        if lit.kind == "words" and "\\" in raw:
            raw = re.sub(r"\\(\W)", r"\1", raw)  # `qw/rm -rf \//`: the delimiter escaped
        if not lit.interp:
            if self.lang in ("perl", "php", "ruby", "lua", "js", "r", "groovy", "java"):
                raw = re.sub(r"\\([\\'])", r"\1", raw)
            return raw

        def sub(m: re.Match[str]) -> str:
            inner = m.group(1) or m.group(2) or m.group(3) or ""
            inner = inner.strip()
            if inner in ("HOME", "ENV{HOME}", "ENV{'HOME'}", 'ENV{"HOME"}') or re.fullmatch(
                r"\A(process\.env\.HOME|(Bun|import\.meta)\.env\.HOME|ENV\[['\"]HOME['\"]\]|Dir\.home"
                r"|os\.homedir\(\)"
                r"|require\(['\"]os['\"]\)\.homedir\(\))",
                inner,
            ):
                return "~"
            key = inner.lstrip("$@{").rstrip("}")
            known = self.env.get(key, self.env.get("$" + key))
            if known is None and m.group(2) and self.depth < _MAX_DEPTH and len(inner) < 4000:
                # Ruby `#{["726d…"].pack("H*")}`: an expression interpolated (safety-m9)
                sub_reader = _Reader(inner, self.lang, self.depth + 1)
                known = sub_reader.value(sub_reader.masked)
                self.decoded |= sub_reader.decoded
            return DYN if known is None else known

        text = re.sub(r"\$\{([^}]*)\}|#\{([^}]*)\}|\$((?:ENV\{\w+\})|\w+)", sub, raw)
        if lit.kind != "shell":
            text = re.sub(
                r"\\(x[0-9a-fA-F]{2}|[0-7]{3}|u[0-9a-fA-F]{4})",
                lambda m: (
                    chr(int(m.group(1)[1:], 16))
                    if m.group(1)[0] in "xu"
                    else chr(int(m.group(1), 8))
                ),
                text,
            )
            text = text.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
        return text

    def value(self, expr: str) -> str:
        try:
            return self._value(expr.strip(), 0)
        except (RecursionError, ValueError, IndexError, OverflowError):
            return DYN

    def _value(self, expr: str, level: int) -> str:
        if level > 12 or not expr:
            return DYN
        parts = _split_top(expr, _CONCAT)
        if len(parts) > 1:
            return "".join(self._value(p.strip(), level + 1) for p in parts)
        e = expr.strip()
        if self.lang == "swift":
            # Swift argument labels (`atPath: p`), force-unwraps, URL(fileURLWithPath: p)
            e = re.sub(r"\A[A-Za-z_]\w*\s*:\s*(?!:)", "", e).rstrip("!")
            m0 = re.fullmatch(r"\AURL\s*\(\s*(?:fileURLWithPath|string)\s*:\s*(.*)\)", e, re.S)
            if m0:
                e = m0.group(1).strip()
        while e.startswith("(") and _closing(e, 0) == len(e) - 1:
            e = e[1:-1].strip()
        if self.lang in ("elixir", "erlang"):
            e = re.sub(r"\A~[a-zA-Z](?=\x01)", "", e)  # Elixir sigils: ~c"rm -rf /"
            if "++" in e or "<>" in e:
                parts = [p for p in re.split(r"\+\+|<>", e) if p.strip()]
                return "".join(self._value(p.strip(), level + 1) for p in parts)
        # trailing no-op conversions: .toString(), .decode(), .to_s, .chomp …
        e = re.sub(
            r"(?:\.(?:toString|decode|to_s|chomp|strip|trim|toLowerCase|valueOf)"
            r"(?:\s*\([^()]*\))?)+$",
            "",
            e,
        )
        if e.endswith("!") and not e.endswith("!!"):
            e = e[:-1].rstrip()  # TypeScript's non-null mark (`Deno.env.get("HOME")!`) (n14u)
        m = re.fullmatch(r"\A\x01(\d+)\x01", e)
        if m:
            return self.lit(int(m.group(1)))
        if self.lang == "js" and e.endswith("!") and "env" in e:
            e = e.rstrip("!").rstrip()  # (n14w) TypeScript's non-null mark: `Deno.env.get("x")!`
        if _CWD_EXPR.match(e):
            return "."  # (u22, red team F12) the working folder: `rmSync(process.cwd(), …)`
        if _HOME_EXPR.match(e):
            if (
                "getenv" in e
                or "ENV" in e
                or "env" in e
                or "_SERVER" in e
                or "Property" in e
                or "Variable" in e
            ):
                keys = [self.lit(int(k)) for k in re.findall(r"\x01(\d+)\x01", e)]
                if not keys and (dotted := re.search(r"(?:env\.|ENV\{\s*)(\w+)", e)):
                    keys = [dotted.group(1)]  # (`process.env.WINDIR`, `$ENV{windir}`)
                if keys and keys[0] not in ("HOME", "USERPROFILE", "user.home"):
                    return env_folder(keys[0]) or DYN  # (n13w: the known folders)
            return "~"
        if re.fullmatch(r"\A[$@]?[A-Za-z_][\w]*", e):
            return self.env.get(e, self.env.get(e.lstrip("$@"), DYN))
        if re.fullmatch(r"\A-?\d+", e):
            return e
        m = re.fullmatch(r"\A(?:new\s+)?Buffer\.from\s*\((.*),\s*\x01(\d+)\x01\s*\)", e, re.S)
        if m and self.lit(int(m.group(2))) in ("base64", "hex", "base64url"):
            return self._decoded(self._value(m.group(1), level + 1), self.lit(int(m.group(2))))
        m = re.fullmatch(r"\A([\w:.]+)\s*\((.*)\)", e, re.S)
        if m and m.group(1) in _DECODERS:
            return self._decoded(self._value(m.group(2), level + 1), _DECODERS[m.group(1)])
        m = re.fullmatch(r"\Apack\s*\(\s*\x01(\d+)\x01\s*,(.*)\)", e, re.S)
        if m and self.lit(int(m.group(1))) in ("H*", "H"):
            return self._decoded(self._value(m.group(2), level + 1), "hex")
        m = re.fullmatch(r"\A(.*)\.unpack1?\s*\(?\s*\x01(\d+)\x01\s*\)?(?:\.first|\[0\])?", e, re.S)
        if m and self.lit(int(m.group(2))) in ("m", "m0", "H*"):
            how = "hex" if self.lit(int(m.group(2))) == "H*" else "base64"
            return self._decoded(self._value(m.group(1), level + 1), how)
        if ("pack" in e or "chr" in e or "CharCode" in e or "Buffer" in e or "_map" in e) and (
            (packed := self._packed(e)) is not None
        ):
            return packed
        m = re.fullmatch(r"\A(?:scalar\s+)?(?:reverse|strrev|string\.reverse)\s*\(?(.*?)\)?", e)
        if m and m.group(1):
            v = self._value(m.group(1), level + 1)
            return v[::-1] if DYN not in v else DYN
        m = re.fullmatch(
            r"\A(.*)\.(?:reverse|split\(\x01\d+\x01\)\.reverse\(\)\.join\(\x01\d+\x01\))(?:\(\))?",
            e,
        )
        if m:
            v = self._value(m.group(1), level + 1)
            return v[::-1] if DYN not in v else DYN
        m = re.fullmatch(r"\A(?:join|implode)\s*\(\s*\x01(\d+)\x01\s*,(.*)\)", e, re.S)
        if m:  # perl join(" ", …), php implode(" ", [...])
            items = self.items(m.group(2)) or [
                self._value(p, level + 1) for p in _split_top(m.group(2), ",")
            ]
            return self.lit(int(m.group(1))).join(items)
        m = re.fullmatch(r"\A(\x01\d+\x01|\[.*\])\.join\s*\(\s*\x01(\d+)\x01\s*\)", e, re.S)
        if m and self.items(m.group(1)) is not None:  # ruby %w[…].join(" ")
            return self.lit(int(m.group(2))).join(self.items(m.group(1)) or [])
        m = re.fullmatch(r"\A\[(.*)\]\.join\s*\(\s*\x01(\d+)\x01\s*\)", e, re.S)
        if m:
            items = [self._value(p, level + 1) for p in _split_top(m.group(1), ",")]
            return self.lit(int(m.group(2))).join(items)
        m = re.fullmatch(r"\A(?:path\.(?:join|resolve)|File\.join|join)\s*\((.*)\)", e, re.S)
        if m:
            out = ""
            for p in _split_top(m.group(1), ","):
                v = self._value(p, level + 1)
                out = v if v.startswith("/") or not out else out.rstrip("/") + "/" + v
            return out or DYN
        m = _PATH_CTOR.fullmatch(e) if "ath" in e or "ile" in e else None
        if m:  # (n17u) `Path.of("/etc", "shadow")`, `new File(p)`, `PathBuf::from(p)`
            vals = [self._value(p, level + 1) for p in _split_top(m.group(1), ",") if p.strip()]
            if len(vals) < 2:
                return vals[0] if vals else DYN
            return "/".join([*(v.rstrip("/") for v in vals[:-1]), vals[-1].lstrip("/")])
        m = re.fullmatch(r"\AString\.fromCharCode\s*\(([\d,\s]+)\)|chr\s*\(\s*(\d+)\s*\)", e)
        if m:
            nums = (m.group(1) or m.group(2) or "").split(",")
            return "".join(chr(int(x)) for x in nums if x.strip().isdigit())
        return DYN

    def _packed(self, e: str) -> str | None:
        """Literal character codes and hex turned into text by each language's idiom
        (safety-m9: decoders feeding exec): Ruby `["726d…"].pack("H*")`, `[114,109].pack("C*")`,
        `[114,109].map(&:chr).join`; Perl/PHP `pack("C*", 114, 109)`, `join "", map { chr }
        (114, 109)`, `implode(array_map("chr", [114, 109]))`; JS `String.fromCharCode(...[…])`,
        `Buffer.from([114, 109])`, `[114,109].map(c => String.fromCharCode(c)).join("")`."""
        m = _PACK_RECV.fullmatch(e)
        if m:
            fmt = self.lit(int(m.group(2)))
            inner = m.group(1).strip()
            lm = re.fullmatch(r"\x01(\d+)\x01", inner)
            if lm and fmt[:1] in ("H", "m"):
                how = "hex" if fmt[:1] == "H" else "base64"
                return self._decoded(self.lit(int(lm.group(1))), how)
            if fmt[:1] in ("C", "c", "U", "W") and _NUMS.fullmatch(inner.strip()):
                return self._codes(inner)
            return None
        m = _PACK_CALL.fullmatch(e)
        if m and self.lit(int(m.group(1)))[:1] in ("C", "c", "U", "W"):
            return self._codes(m.group(2))
        m = _CHR_MAP.fullmatch(e)
        if m:
            return self._codes(next(g for g in m.groups() if g is not None))
        return None

    def _codes(self, nums: str) -> str:
        self.decoded = True
        out = [int(x) for x in re.findall(r"\d+", nums)[:4096]]
        return "".join(chr(x) for x in out if x < 0x110000)

    def _decoded(self, text: str, how: str) -> str:
        self.decoded = True
        if DYN in text:
            return DYN
        if how == "base64url":
            how = "base64"
            text = text.replace("-", "+").replace("_", "/")
        return _decode(text, how) or DYN

    def items(self, expr: str) -> list[str] | None:
        """An array literal's items (`["-rf", "/"]`, `%w(-rf /)`, `c("-rf", "/")`)."""
        e = expr.strip()
        if e.startswith("*") and not e.startswith("**"):
            e = e[1:].lstrip()  # a splat (`system(*%w[rm -rf /srv])`) passes the items (m8)
        e = re.sub(r"\Anew\s+(?:java\.lang\.)?String\s*\[\s*\]\s*", "", e)
        m = re.fullmatch(
            r"\A(?:\[|c\(|array\(|\{|List\.of\(|Arrays\.asList\(|arrayOf\(|listOf\(|mutableListOf\("
            r"|Seq\(|List\(|Array\(|Vector\()(.*)[\])}]",
            e,
            re.S,
        )
        if m and _closing(e, 0 if e[0] in "[{" else e.index("(")) in (len(e) - 1, -1):
            # (the opening bracket closes at the end: `["…"].pack("H*")` is not an array)
            return [self.value(p) for p in _split_top(m.group(1), ",") if p.strip()]
        m = re.fullmatch(r"\A\x01(\d+)\x01", e)
        if m and self.lits[int(m.group(1))].kind == "words":
            return self.lit(int(m.group(1))).split()
        if re.fullmatch(r"\A[$@]?\w+", e) and e.lstrip("$@") in self.lists:
            return list(self.lists[e.lstrip("$@")])
        return None

    # -- the walk ----------------------------------------------------------------------

    def read(self) -> Effects:
        bound = self._js_bindings() if self.lang == "js" else {}
        code = self.masked
        fx = self.fx
        self._assignments(code)
        self._enum_roots(code)
        seen = 0
        for m in _CALL.finditer(code):
            qual = m.group(1)
            short = re.split(r"\.|::|->", qual)[-1]
            if short not in _INTEREST and delete_api(short) is None:
                continue
            seen += 1
            if seen > _MAX_CALLS:
                fx.opaque = fx.opaque or "is too long to read in full"
                break
            if code[max(0, m.start() - 8) : m.start()].rstrip().endswith((".", "::", "->")):
                qual = "?." + qual  # a method of something computed: require("fs").rmSync
            if m.group(2) == "(":
                close = _closing(code, m.end() - 1)
                argtext = code[m.end() : close if close > 0 else len(code)]
            else:
                if self.lang not in (
                    "perl",
                    "ruby",
                    "lua",
                    "tcl",
                    "applescript",
                    "raku",
                    "haskell",
                ):
                    continue
                rest = code[m.end() : m.end() + _WINDOW]
                stop = re.search(r"[;\n}|]|\s(?:if|unless|or|and|do)\b|&&|\|\|", rest)
                while (
                    stop is not None
                    and stop.group(0) == "}"
                    and rest[: stop.start()].count("{") > rest[: stop.start()].count("}")
                ):
                    # `system "rm", "-rf", $ENV{HOME}`: a brace of the argument, not the block's
                    stop = re.compile(r"[;\n}|]|\s(?:if|unless|or|and|do)\b|&&|\|\|").search(
                        rest, stop.end()
                    )
                argtext = rest[: stop.start()] if stop else rest
            self.call(qual, short, argtext, code, m.start())
        if bound or (self.lang == "js" and _JS_DIRECT.search(code)):
            self._library_calls(code, bound)
        self._indirect_calls(code)
        self._callback_deletes(code)
        zx = {int(x) for x in re.findall(r"\$\x01(\d+)\x01", code)} if self.lang == "js" else set()
        for i, lit in enumerate(self.lits):
            if lit.kind == "shell":
                self.decoded = False
                line = self.lit(i)
                self._shell_line(line)
            elif lit.kind == "str" and i in zx:
                self._shell_line(self.lit(i))  # zx: $`rm -rf …`
        for m in re.finditer(r"\x01(\d+)\x01\s*\.\s*execute\s*\(", code):
            self._shell_line(self.lit(int(m.group(1))))  # Groovy: "cmd".execute()
        for m in re.finditer(r"\[([^\[\]]{1,2000})\]\s*\.\s*execute\s*\(", code):
            # Groovy: ["rm", "-rf", System.getProperty("user.home")].execute()
            vals = [self.value(p.strip()) for p in _split_top(m.group(1), ",") if p.strip()]
            if vals:
                self._argv(vals)
        if self.lang == "applescript":
            self._applescript(code)
            # (a password dialog, `… with hidden answer`: safety-sig7's credential-prompt)
            if (
                all(_AS_BENIGN.match(st) for st in re.split(r"[\n\r]+", code) if st.strip())
                and not _AS_ACTS.search(code)
                and not (self.fx.shell or self.fx.deletes or self.fx.writes or self.fx.opaque)
            ):
                # `display notification "done"`, `say "ready"`, `beep`: a message, nothing else
                # (session-9 convention: safe)
                self.fx.risky = False
        if self.lang == "swift":
            self._swift_process(code)
        for m in re.finditer(r"\bProcessBuilder\s*\(", code):
            # Java/Groovy/Nashorn `new ProcessBuilder("rm", "-rf", "/").start()`
            close = _closing(code, m.end() - 1)
            parts = _split_top(code[m.end() : close if close > 0 else len(code)], ",")
            argv: list[str] = []
            for part in parts:
                items = self.items(part)
                argv += items if items is not None else [self.value(part)]
            if argv and all(DYN not in a for a in argv):
                self._shell_line(" ".join(_shell_quote(a) for a in argv))
            elif argv:
                fx.opaque = fx.opaque or "starts a program only known at run time"
        self._process_idioms(code)
        if self.lang in ("perl", "ruby"):
            self._tree_walk_deletes(code)
        if "(" in code and _WALK_ENUM.search(code) and _WALK_DESTROY.search(code):
            self._recursive_walkers(code)
        if self.lang == "tcl":
            for m in re.finditer(r"(?:^|[\[;{\s])exec\s+([^\]\n;]+)", code):
                self._shell_line(self._words(m.group(1)))
            for m in re.finditer(r"file\s+delete\s+((?:-force\s+)?)(.+)", code):
                for p in m.group(2).split():
                    if not p.startswith("-"):
                        self._delete(self._word(p), bool(m.group(1)))
        remote = _remote_eval(self.raw, self.lang)
        if remote:
            fx.extra.append((C, "remote-code", remote))
        net = _NETWORK.search(code)
        if net:
            fx.network = True
            fx.risky = True
            if _SENDS.search(code) or self._posts(code):
                fx.sends = True
        if any(is_secret(self.lit(i)) for i in range(len(self.lits))):
            fx.reads.append(
                next(self.lit(i) for i in range(len(self.lits)) if is_secret(self.lit(i)))
            )
        if _RISKY.search(code):
            fx.risky = True
        return fx

    def _process_idioms(self, code: str) -> None:
        """Process and file idioms of the JVM languages, Erlang/Elixir and Clojure: Scala's
        `"cmd".!` and `Seq(…).!!`, Kotlin/Java `File(p).deleteRecursively()`, Erlang
        `open_port({spawn, "cmd"}, …)`, Clojure `(sh "rm" "-rf" "/")`, `(spit p …)`."""
        lang = self.lang
        if lang in ("perl", "ruby", "php") and "|" in self.raw and "print" in code:
            # (n17u) `open(my $fh, "|sh"); print $fh "rm -rf ~"`, `open(SH, "| /bin/sh")`,
            # `open($fh, "|-", "sh")`, Ruby's `IO.popen("sh", "w") { |p| p.puts … }`: what
            # is printed into a pipe to a shell is shell input, judged as commands
            pipe = re.search(
                r"\bopen\s*\(?\s*(?:my\s+)?\$?(\w+)\s*,\s*(\x01\d+\x01)(?:\s*,\s*(\x01\d+\x01))?",
                code,
            )
            if pipe is not None:
                mode = self.value(pipe.group(2)).strip()
                prog = self.value(pipe.group(3)).strip() if pipe.group(3) else ""
                target = (mode[1:] if mode.startswith("|") and mode != "|-" else prog).strip()
                if target.split()[:1] and target.split()[0].rsplit("/", 1)[-1] in _SHELL_NAMES:
                    handle = pipe.group(1)
                    for m in re.finditer(
                        r"\bprint\s*\{?\s*\$?" + re.escape(handle) + r"\s*\}?\s+([^;]+)", code
                    ):
                        line = self.value(m.group(1)).strip()
                        if line and DYN not in line:
                            self._shell_line(line)
        if lang == "dart":
            # (n17u) Dart: `Directory(p).deleteSync(recursive: true)`, `File(p).delete()`,
            # `Process.run('sh', ['-c', cmd])` / `runSync` / `start`
            for m in re.finditer(
                r"\b(?:Directory|File|Link)\s*\(\s*([^()]*+(?:\([^()]*+\)[^()]*+)?)\)\s*\.\s*"
                r"delete(?:Sync)?\s*\(([^()]*)\)",
                code,
            ):
                self._delete(self.value(m.group(1)), "recursive" in m.group(2))
            for m in re.finditer(r"\bProcess\s*\.\s*(?:run|runSync|start)\s*\(", code):
                close = _closing(code, m.end() - 1)
                args = _split_top(code[m.end() : close], ",") if close > 0 else []
                if len(args) >= 2 and (items := self.items(args[1])) is not None:
                    self._argv([self.value(args[0]), *items])
        if lang in ("java", "groovy"):
            runs = r"\s*\.?\s*(?:!!?(?![=!])|lazyLines\w*|lineStream\w*|run\b)"
            for m in re.finditer(r"\x01\d+\x01(?=" + runs + ")", code):
                self._shell_line(self.value(m.group(0)))  # Scala "cmd".!
            for m in re.finditer(r"\b(Seq|List|Array|Vector|Process)\s*\(", code):
                close = _closing(code, m.end() - 1)
                if close < 0 or not re.match(runs, code[close + 1 :]):
                    continue
                subject = code[m.start() : close + 1]
                if m.group(1) == "Process":
                    inner = code[m.end() : close]
                    items = self.items(inner)
                    if items is None:
                        self._shell_line(self.value(inner))
                        continue
                else:
                    items = self.items(subject)
                if items is not None:
                    self._argv(items)
            for m in re.finditer(
                r"\bFile\s*\(\s*([^()]*+(?:\([^()]*+\)[^()]*+)?)\)\s*\.\s*(deleteRecursively"
                r"|deleteDir|delete|deleteOnExit|writeText|writeBytes|appendText)\s*\(",
                code,
            ):
                v = self.value(m.group(1))
                if m.group(2).startswith("delete"):
                    # (n18u: Groovy's `deleteDir()` deletes the folder and all inside it)
                    self._delete(v, m.group(2) in ("deleteRecursively", "deleteDir"))
                else:
                    into = self.fx.appends if m.group(2) == "appendText" else self.fx.writes
                    self._path(v, into)
                    self.fx.risky = True
            for m in re.finditer(
                r"\b(?:Files\.(delete|deleteIfExists|write|writeString)|FileUtils\.(deleteDirectory"
                r"|forceDelete|cleanDirectory|writeStringToFile))\s*\(\s*(?:Paths\.get|Path\.of"
                r"|new\s+File|File)\s*\(([^()]*)\)",
                code,
            ):
                v = self.value(m.group(3))
                verb = m.group(1) or m.group(2) or ""
                if verb.startswith("write"):
                    self._path(v, self.fx.writes)
                    self.fx.risky = True
                else:
                    self._delete(v, verb in ("deleteDirectory", "cleanDirectory", "forceDelete"))
        if lang in ("erlang", "elixir"):
            for m in re.finditer(r"\bopen_port\s*\(\s*\{\s*:?spawn\w*\s*,\s*([^}]*)\}", code):
                self._shell_line(self.value(m.group(1)))
        if lang == "clojure":
            self._lisp(code)

    def _recursive_walkers(self, code: str) -> None:
        """`function w(d){ for (const n of fs.readdirSync(d)) { …isDirectory() ? w(f) :
        fs.writeFileSync(f, "") } }; w("/")`: a named function that lists a folder, calls
        itself on what it finds and overwrites, truncates or deletes the rest destroys the
        whole tree it is first called on (like `rm -r`; safety-m7)."""
        for n_def, m in enumerate(_FUNC_DEF.finditer(code)):
            name = m.group(1) or m.group(3) or m.group(5) or ""
            if n_def >= 8:
                break  # (a flood of definitions: the first few are judged)
            if not name:
                continue
            if m.group(5):  # Python `def w(d):` runs to the next top-level def or the end
                nxt = code.find("def ", m.end())
                end = nxt if nxt > 0 else len(code)
                body = code[m.end() : end]
            else:
                close = _closing(code, m.end() - 1)
                end = close if close > 0 else len(code)
                body = code[m.end() : end]
            if not (
                re.search(rf"\b{re.escape(name)}\s*\(", body)
                and _WALK_ENUM.search(body)
                and _WALK_DESTROY.search(body)
            ):
                continue
            outside = code[: m.start()] + " " * (end - m.start()) + code[end:]
            firsts: set[str] = set()
            for call in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", outside):
                close = _closing(outside, call.end() - 1)
                args = _split_top(outside[call.end() : close if close > 0 else len(outside)], ",")
                first = args[0].strip() if args else ""
                if first and first not in firsts:
                    firsts.add(first)
                    self._delete(self.value(first), True)
                if len(firsts) >= 8:
                    break

    def _tree_walk_deletes(self, code: str) -> None:
        """A tree walker whose callback deletes what it visits: Perl `find(sub { unlink },
        DIR)` / `finddepth(…)` / `find({ wanted => sub {…} }, DIR)`, Ruby `Find.find(DIR) { |f|
        File.delete(f) }`. Unfiltered (or filtered only by a file-type test) it empties DIR,
        like `rm -r DIR`; a name filter deletes a subset (a scoped delete)."""
        walks: list[tuple[str, list[str]]] = []
        for m in re.finditer(r"\b(?:File::Find::)?(?:find|finddepth)\s*\(", code):
            close = _closing(code, m.end() - 1)
            parts = _split_top(code[m.end() : close if close > 0 else len(code)], ",")
            if len(parts) >= 2:
                walks.append((parts[0], [p for p in parts[1:] if p.strip()]))
        for m in re.finditer(r"\bFind\.find\s*\(([^()]*)\)\s*(?:do\b|\{)", code):
            close = _closing(code, m.end() - 1) if code[m.end() - 1] == "{" else -1
            body = code[m.end() : close] if close > 0 else code[m.end() : m.end() + 400]
            walks.append((body, _split_top(m.group(1), ",")))
        for body, dirs in walks:
            if not re.search(r"\b(?:unlink|rmtree|remove_tree|rmdir|delete|rm_rf|rm_r|rm)\b", body):
                continue
            cond = " ".join(re.findall(r"\b(?:if|unless)\b([^;}]*)", body))
            for c in re.finditer(r"(?:&&|\band\b)\s*(?:unlink|rmtree|File\.)", body):
                seg = body[: c.start()]
                cond += " " + seg[max(seg.rfind(";"), seg.rfind("{")) + 1 :]
            rest = re.sub(
                r"-[fdlerwxsz]\b|\$_|\$File::Find::name|\bnot\b|\band\b|\bor\b|[!&|()\s;]"
                r"|File\.(?:file|directory)\?\s*\(?\s*\w*\s*\)?|\bf\b",
                "",
                cond,
            )
            self.fx.risky = True
            if rest:
                self.fx.unknown_delete = True  # a filtered subset of the tree
                continue
            for d in dirs[:8]:
                self._delete(self.value(d), True)

    def _argv(self, argv: list[str]) -> None:
        if not argv or argv[0].startswith(DYN):
            self.fx.opaque = self.fx.opaque or "runs a program whose name is computed at run time"
            return
        self.fx.risky = True
        self.fx.cmd_output = True
        self.fx.shell.append(_shell_line(" ".join(_shell_quote(a) for a in argv)))

    def _lisp(self, code: str) -> None:
        """Clojure/babashka forms: `(sh "rm" "-rf" "/")`, `(shell "rm -rf /")`,
        `(process …)`, `(fs/delete-tree p)`, `(io/delete-file p)`, `(spit p …)`, and
        `(.exec (Runtime/getRuntime) x)`."""
        # The home directory in Common Lisp / Scheme spellings reads as `$HOME`.
        code = re.sub(
            r"\(\s*(?:[\w.\-]+:{1,2})?(?:user-homedir-pathname|home-directory)\s*\)"
            r"|\(\s*find-system-path\s+(?:'home-dir|\(\s*quote\s+home-dir\s*\))\s*\)",
            " $HOME ",
            re.sub(r"#[pP](?=\x01)", "", code),  # `#p"/etc/"`: a pathname literal
        )
        code = re.sub(
            r"\(\s*(?:[\w.\-]+:{1,2})?(?:posix-)?getenv\s+\x01(\d+)\x01\s*\)",
            lambda g: " $HOME " if self.lit(int(g.group(1))) == "HOME" else g.group(0),
            code,
        )
        # JVM Lisps: `(System/getProperty "user.home")`, `(System/getenv "HOME")`
        code = re.sub(
            r"\(\s*(?:java\.lang\.)?System/(?:getProperty|getenv)\s+\x01(\d+)\x01\s*\)",
            lambda g: (
                " $HOME "
                if self.lit(int(g.group(1))) in ("user.home", "HOME", "USERPROFILE")
                else g.group(0)
            ),
            code,
        )
        for m in re.finditer(r"\(\s*([\w.\-/:!?*]++)\s+([^()]*+)\)", code):
            fn = re.split(r"[/:]", m.group(1))[-1]
            if m.group(1).endswith("delete-directory/files"):
                fn = "delete-tree"  # Racket
            elif fn in ("delete-directory-tree", "delete-directory-and-files", "rmtree"):
                fn = "delete-tree"  # uiop, osicat, cl-fad
            elif fn == "delete-directory" and re.search(r":recursive\s+t\b", m.group(2)):
                fn = "delete-tree"
            words = m.group(2).split()
            vals = [self.value(w) for w in words if not w.startswith(":")]
            if fn in ("sh", "shell", "process", "exec", "process-builder") and vals:
                if fn == "shell" and len(vals) == 1:
                    self._shell_line(vals[0])
                else:
                    self._argv(vals)
            elif fn in ("delete-tree", "delete-file", "delete", "delete-if-exists") and vals:
                self._delete(vals[0], fn == "delete-tree")
            elif fn == "spit" and vals:
                into = self.fx.appends if ":append" in m.group(2) else self.fx.writes
                self._path(vals[0], into)
                self.fx.risky = True
        for m in re.finditer(
            r"\(\s*[\w.\-:/]*run-program\s+(\x01\d+\x01)\s*(?:'?\(\s*(?:list\s+)?((?:\x01\d+\x01\s*)*)\))?",
            code,
        ):
            prog = self.value(m.group(1))
            rest = [self.value(w) for w in (m.group(2) or "").split()]
            if rest or " " not in prog:
                self._argv([prog, *rest])  # (sb-ext:run-program "/bin/rm" (list "-rf" "/"))
            else:
                self._shell_line(prog)  # (uiop:run-program "rm -rf ~")
        for m in re.finditer(r"\(\s*\.exec\s+\(\s*Runtime/getRuntime\s*\)\s+([^()]*)\)", code):
            self._shell_line(self.value(m.group(1)))

    def _swift_process(self, code: str) -> None:
        """Foundation's Process/NSTask: `launchPath`/`executableURL` and `arguments` set,
        then `launch()`/`run()`: the program and its arguments are a command line."""
        exe = re.search(
            r"\.(?:launchPath|executableURL)\s*=\s*(.+?)\s*(?:;|\n|$)", code, re.M
        ) or re.search(r"\bsetLaunchPath\s*:\s*(.+?)\]", code)
        if exe is None or not re.search(r"\.(?:launch|run)\s*\(|\blaunch\]", code):
            return
        prog = self.value(exe.group(1))
        argv = re.search(r"\.arguments\s*=\s*(\[.*?\])", code, re.S)
        items = self.items(argv.group(1)) if argv else []
        if DYN in prog or items is None:
            self.fx.opaque = self.fx.opaque or "starts a program only known at run time"
            return
        self._shell_line(" ".join(_shell_quote(x) for x in [prog, *items]))

    def _module(self, index: str) -> str:
        """The library a `require("…")`/`import … from "…"` names, without its scheme,
        version or Deno URL (`npm:rimraf@5` -> `rimraf`, `jsr:@std/fs` -> `std/fs`)."""
        name = re.sub(r"\A(?:node|npm|jsr):", "", self.lit(int(index)).strip())
        if name.startswith(("http:", "https:")):
            return "std/fs" if re.search(r"/std(?:@[^/]*)?/fs/", name) else name
        m = re.match(r"@?[^@]*", name)
        return (m.group(0) if m else name).lstrip("@")

    def _js_bindings(self) -> dict[str, tuple[str, str]]:
        """Names bound to a known library or one of its functions: `const r =
        require("rimraf")`, `const {remove: zap} = require("fs-extra")`, `import {rimrafSync as
        z} from "rimraf"`, `import * as sh from "shelljs"`, `import("execa").then(({execa}) =>`.
        name -> (library, function; "" for the library itself). A shelljs object's `.env` is
        `process.env`, so the masked code is rewritten for the value reader."""
        code = self.masked
        if "require" not in code and "import" not in code:
            return {}
        bound: dict[str, tuple[str, str]] = {}

        def destructured(names_text: str, mod: str, sep: str) -> None:
            for part in names_text.split(","):
                pieces = [x.strip() for x in part.split(sep)]
                if pieces[0] and re.fullmatch(r"[\w$]+", pieces[-1]):
                    bound[pieces[-1]] = (mod, pieces[0])

        for m in _JS_BIND.finditer(code):
            if m.group(1) is not None:  # const NAME = require(…)[.member]
                mod = self._module(m.group(2))
                if mod in _JS_LIBS:
                    bound[m.group(1)] = (mod, m.group(3) or "")
            elif m.group(4) is not None:  # const {a, b: c} = require(…)
                mod = self._module(m.group(5))
                if mod in _JS_LIBS:
                    destructured(m.group(4), mod, ":")
            elif m.group(6) is not None or m.group(7) is not None:  # import … from "…"
                mod = self._module(m.group(8))
                if mod in _JS_LIBS:
                    if m.group(6):
                        bound[m.group(6)] = (mod, "")
                    if m.group(7):
                        destructured(m.group(7), mod, " as ")
            else:  # import("…").then(({a}) => / (ns) =>
                mod = self._module(m.group(9))
                if mod in _JS_LIBS:
                    if m.group(10) is not None:
                        destructured(m.group(10), mod, ":")
                    elif m.group(11):
                        bound[m.group(11)] = (mod, "")
        if re.search(r"\x01(\d+)\x01", code) and any(
            self._module(i) == "shelljs/global" for i in re.findall(r"\x01(\d+)\x01", code)
        ):
            bound.setdefault("rm", ("shelljs", "rm"))
            bound.setdefault("exec", ("shelljs", "exec"))
        for name, (mod, member) in bound.items():
            if mod == "shelljs" and not member:
                self.masked = re.sub(
                    r"(?<![\w$.])" + re.escape(name) + r"\s*\.\s*env\.", "process.env.", self.masked
                )
        return bound

    def _library_calls(self, code: str, bound: dict[str, tuple[str, str]]) -> None:
        """Calls of known JS libraries' delete and exec functions, however the function was
        reached: a bound name (`r.sync("/usr")`, `zap("/var")`), or the library's value
        itself (`require("rimraf").sync(…)`, `(await import("del")).deleteSync(…)`). Each is
        judged as the call it is: rimraf/del/fs-extra `remove`/`emptyDir` delete a tree,
        shelljs `rm(flags, …)` is `rm`, shelljs/execa command strings run as shell."""
        calls: list[tuple[str, str, int]] = []  # (library, function, index of "(")
        for m in _JS_DIRECT.finditer(code):
            calls.append((self._module(m.group(1)), m.group(2) or "", m.end() - 1))
        if bound:
            for m in _JS_BOUND_CALL.finditer(code):
                if m.group(1) not in bound or code[
                    max(0, m.start() - 9) : m.start()
                ].rstrip().endswith((".", "function", "=>")):
                    continue
                mod, member = bound[m.group(1)]
                calls.append((mod, member or m.group(2) or "", m.end() - 1))
        judged = 0
        for mod, member, open_at in calls[:_MAX_CALLS]:
            table = _JS_LIBS.get(mod)
            if table is None:
                continue
            action = table.get(member) or table.get("*")
            if action is None:
                continue
            judged += 1
            close = (
                _closing(code[: open_at + _MAX_LIBRARY_ARGS + 2], open_at)
                if judged <= _MAX_LIBRARY_CALLS
                else -1
            )
            if (
                close < 0
                and judged <= _MAX_LIBRARY_CALLS
                and len(code) - open_at <= _MAX_LIBRARY_ARGS
            ):
                close = len(code)  # (a call never closed: its arguments run to the end)
            if close < 0:
                # (calls past the first few, or arguments too long to read: what they
                # delete or run is not known here; the scan for the bracket stays short)
                if action in ("shell", "argv"):
                    self.fx.opaque = self.fx.opaque or "runs a command line computed at run time"
                else:
                    self.fx.risky = True
                    self.fx.unknown_delete = True
                if judged > _MAX_LIBRARY_CALLS:
                    break
                continue
            argtext = code[open_at + 1 : close]
            if action == "tree":
                self.call("rimraf", "rimraf", argtext, code, open_at)
            elif action == "fs":
                self.call("fs." + member, member, argtext, code, open_at)
            elif action == "shell":
                self.call("child_process.execSync", "execSync", argtext, code, open_at)
            elif action == "argv":
                self.call("child_process.execFileSync", "execFileSync", argtext, code, open_at)
            elif action == "rm":  # shelljs rm("-rf", path, …): the words of `rm`
                argv = ["rm"]
                for a in _split_top(argtext, ","):
                    if a.strip():
                        items = self.items(a)
                        argv += items if items is not None else [self.value(a)]
                self._argv(argv)

    def _callback_deletes(self, code: str) -> None:
        """A delete function handed over as a callback: `list.forEach(fs.unlinkSync)`,
        `array_map('unlink', glob(…))`, `.each(&File.method(:delete))`, `map(unlink, …)`:
        each listed path is deleted."""
        hit = re.search(
            r"\.(?:forEach|map|each)\s*\(\s*(?:[\w$]+\.|require\s*\(\s*\x01\d+\x01\s*\)\.)?"
            r"(?:unlinkSync|rmSync|rmdirSync|unlink|rm)\s*\)"
            r"|\.each\s*\(\s*&\s*(?:File|FileUtils)\.method\(\s*:(?:delete|unlink|rm_rf|rm_r|rm)\s*\)\s*\)"
            r"|\b(?:array_map|array_walk)\s*\(\s*\x01(\d+)\x01\s*,"
            r"|\bmap\s*\(\s*(?:unlink|os\.remove|File\.delete)\s*,",
            code,
        )
        if hit is None:
            return
        if hit.group(1) is not None and self.lit(int(hit.group(1))) not in ("unlink", "rmdir"):
            return
        recursive = bool(re.search(r"rm_rf|rm_r\b", hit.group(0)))
        self._delete(DYN, recursive, "callback")

    def _indirect_calls(self, code: str) -> None:
        """Calls whose function name is a value: `obj["exec" + "Sync"](…)` (JS),
        `send(:system, …)` (Ruby), `$f(…)` / `call_user_func("system", …)` (PHP). A name
        that resolves is judged as that call; one that does not is opaque."""
        found: list[tuple[str, str]] = []
        for m in _COMPUTED_CALL.finditer(code):
            close = _closing(code, m.end() - 1)
            key = self.value(m.group(2))
            argtext = code[m.end() : close if close > 0 else len(code)]
            if DYN in key:
                if re.search(r"child_process|global|window|process|require|Kernel|os", m.group(1)):
                    self.fx.opaque = self.fx.opaque or "calls a function whose name is computed"
                continue
            found.append((key, argtext))
        for m in _SEND_CALL.finditer(code):
            close = _closing(code, code.index("(", m.start()))
            found.append(
                (m.group(1) or m.group(2), code[m.end() : close if close > 0 else len(code)])
            )
        if self.lang == "php":
            for m in re.finditer(r"(?<![\w>:])\$(\w+)\s*\(", code):
                name = self.env.get(m.group(1), DYN)
                close = _closing(code, m.end() - 1)
                argtext = code[m.end() : close if close > 0 else len(code)]
                if DYN in name:
                    self.fx.opaque = self.fx.opaque or "calls a function whose name is computed"
                else:
                    found.append((name, argtext))
            for m in re.finditer(r"\bcall_user_func(?:_array)?\s*\(", code):
                close = _closing(code, m.end() - 1)
                parts = _split_top(code[m.end() : close if close > 0 else len(code)], ",")
                name = self.value(parts[0]) if parts else DYN
                if DYN in name:
                    self.fx.opaque = self.fx.opaque or "calls a function whose name is computed"
                    continue
                found.append((name, ",".join(parts[1:])))
        for name, argtext in found[:_MAX_CALLS]:
            short = name.rsplit(".", 1)[-1]
            if short in _INTEREST:
                self.call("?." + short, short, argtext, code, 0)

    def _words(self, text: str) -> str:
        return " ".join(_shell_quote(self._word(w)) for w in text.split())

    def _word(self, w: str) -> str:
        m = re.fullmatch(r"\A\x01(\d+)\x01", w)
        if m:
            return self.lit(int(m.group(1)))
        if w.startswith("$"):
            return self.env.get(w[1:], DYN)
        return w

    def _posts(self, code: str) -> bool:
        for i, lit in enumerate(self.lits):
            if lit.raw.upper() in ("POST", "PUT", "PATCH") and f"{_LIT}{i}{_LIT}" in code:
                return True
        return False

    def _assignments(self, code: str) -> None:
        for m in _ASSIGN.finditer(code):
            name, rhs = m.group(1), m.group(2).strip()
            items = self.items(rhs)
            if items is None and name.startswith("@") and rhs.startswith("("):
                inner = rhs[1 : _closing(rhs, 0)] if _closing(rhs, 0) > 0 else rhs[1:]
                items = [self.value(p) for p in _split_top(inner, ",") if p.strip()]
            key = name.lstrip("$@")
            if items is not None:
                self.lists[key] = items
                self.env[key] = " ".join(items)
                continue
            self.decoded = False
            v = self.value(rhs)
            self.env[key] = v
        m2 = re.finditer(r"\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\s*\(", code)
        for m in m2:
            for n in m.group(1).split(","):
                n = n.split(":")[-1].strip()
                if n:
                    self.env.setdefault(n, DYN)

    def _enum_roots(self, code: str) -> None:
        for m in _ENUM.finditer(code):
            close = _closing(code, m.end() - 1) if code[m.end() - 1] == "(" else -1
            arg = code[m.end() : close] if close > 0 else m.group(2) or ""
            args = _split_top(arg, ",") if arg else []
            target = args[-1] if m.group(1) == "opendir" and args else (args[0] if args else "")
            v = self.value(target) if target else DYN
            if v == DYN:
                continue
            if any(c in v for c in "*?["):
                self.roots.append(v)
            else:
                self.roots.append(v.rstrip("/") + "/*")
        for m in re.finditer(r"<([^<>\s*]*\*[^<>\s]*)>", code):  # perl <*> glob
            self.roots.append(m.group(1))

    def call(self, qual: str, short: str, argtext: str, code: str, at: int) -> None:
        fx = self.fx
        args = [a for a in _split_top(argtext, ",") if a.strip()]
        lang = self.lang
        low = qual.lower()
        if short == "new" and low.endswith("command::new") and args:
            self._command_builder(args, code, at)  # Rust's Command::new(p).arg(…) (n14u)
            return
        if lang == "c" and short in ("execl", "execlp", "execle") and len(args) > 1:
            # `execlp("rm", "rm", "-rf", "/", NULL)`: the words after the path (n14u)
            argv = [
                self.value(a)
                for a in args[1:]
                if not re.fullmatch(
                    r"\s*(?:NULL|0|nullptr|\(char\s*\*\)\s*0|\(char\s*\*\)\s*NULL)\s*", a
                )
            ]
            if argv and not argv[0].startswith(DYN):
                fx.risky = True
                fx.cmd_output = True
                fx.shell.append(_shell_line(" ".join(_shell_quote(a) for a in argv)))
            return
        if short in _SHELL_FUNCS:
            if lang == "js" and not re.search(
                r"child_process|shelljs|\bBun\.|\bDeno\.|execa|\bcp\b|\bexec\w*\s*\}"
                r"|getRuntime|java\.lang\.Runtime",
                self.raw,
            ):
                return
            if short in ("execute",) and low not in ("os.execute",):
                return
            if (
                short in ("cmd", "shell")
                and low not in ("os.cmd", "system.cmd", "system.shell")
                and not (lang == "raku" and low == "shell")
            ):
                return  # Erlang os:cmd, Elixir System.cmd/System.shell, Raku shell
            if short == "Command" and lang == "go" and low == "exec.command":
                self._shell_call("run", args)  # Go exec.Command(prog, args…)
                return
            if (
                short in ("run", "Command")
                and not low.startswith("deno.")
                and not (short == "run" and lang in ("julia", "raku"))
            ):
                return
            self._shell_call(short, args)
            return
        if short in _EVAL_FUNCS:
            if lang == "perl" and short == "eval" and argtext.lstrip().startswith("{"):
                return
            if short == "load" and lang != "lua":
                return
            if short in ("setTimeout", "setInterval") and (
                not args or not re.fullmatch(r"\A\s*\x01\d+\x01\s*", args[0])
            ):
                return
            if short == "assert" and lang != "php":
                return
            self._eval_call(args)
            return
        generic = delete_api(short) if short not in _DELETE_REC | _DELETE_ONE else None
        if short in _DELETE_REC or short in _DELETE_ONE or generic is not None:
            plain_remove = (
                (short == "remove" and lang in ("lua", "r", "c", "d"))  # (n17u) C's stdio
                or (short == "rm" and lang == "julia")
                or (short in ("delete", "deleteIfExists") and low.endswith("files." + short))
            )  # (n17u) java.nio's Files.delete(path)
            if lang == "julia" and ";" in argtext:
                # `rm(path; recursive=true, force=true)`: keyword arguments after `;`
                kw = argtext.split(";", 1)[1]
                args = [a for a in _split_top(argtext.split(";", 1)[0], ",") if a.strip()]
                argtext = ",".join(args) + ("," + kw if "recursive" in kw else "")
            if (
                short in ("rm", "rmSync", "remove", "delete")
                and not re.search(r"[.:]", qual)
                and not plain_remove
                and not (lang == "js" and _imported_from_fs(self.raw, short))
            ):
                return  # a bare rm()/remove()/delete() is not a file API
            if short in ("remove", "delete") and not plain_remove and low not in _REMOVERS:
                return
            recursive = (
                short in _DELETE_REC
                or generic == "tree"
                or bool(re.search(r"recursive|TRUE|-force", argtext))
            )
            if low == "vim.fn.delete" and len(args) > 1:
                recursive = "r" in self.value(args[1])  # delete(path, "rf")
            targets = args
            if (short in ("unlink", "rmdir") and lang == "r" and args) or (
                lang not in ("perl",) and args
            ):
                targets = args[:1]
            for a in targets:
                if re.match(r"\A\s*(?:recursive|force)\b", a):
                    continue
                items = self.items(a)
                for v in items if items is not None else [self.value(a)]:
                    self._delete(v, recursive, a)
            return
        if short in _MOVE and len(args) >= 2:
            if short == "move" and lang not in ("perl",) and "FileUtils" not in qual:
                return
            if short == "rename" and lang == "js" and "fs" not in qual.lower():
                pass
            self._path(self.value(args[0]), fx.moves)
            self._path(self.value(args[1]), fx.writes)
            fx.risky = True
            return
        if short in _COPY and len(args) >= 2:
            if (
                short in ("cp", "copy")
                and not re.search(r"[.:]", qual)
                and lang not in ("perl", "php")
            ):
                return
            if short == "install" and "fileutils" not in low:
                return
            self._path(self.value(args[1]), fx.writes)
            fx.risky = True
            return
        if short in _WRITE_FUNCS and args:
            append = short.startswith("append") or "FILE_APPEND" in argtext
            target = self.value(args[0])
            if not append and (DYN in target or _path_of(target) is None) and self.roots:
                # `glob('/**/*').forEach(f => writeFileSync(f, ''))`: every file listed is
                # overwritten, which destroys them as surely as deleting them.
                prefix = target.split(DYN, 1)[0].rstrip("/")
                for root in self.roots:
                    base = root.rstrip("/*")
                    if prefix and not (base.startswith(prefix) or prefix.startswith(base)):
                        continue  # `'out/' + name`: a file of its own, not a listed one
                    fx.deletes.append((root, True))
            self._path(target, fx.appends if append else fx.writes)
            fx.risky = True
            return
        if short in _OPEN_FUNCS and args:
            self._open(short, args)
            return
        if short in _CHMOD and args:
            for a in args:
                v = self.value(a)
                if v.startswith(("/", "~")):
                    self._path(v, fx.chmods)
            fx.risky = True
            return
        if short in _READ_FUNCS and args:
            v = self.value(args[0])
            if not v.startswith(("http:", "https:")):
                self._path(v, fx.reads)
            return

    def _open(self, short: str, args: list[str]) -> None:
        fx = self.fx
        if self.lang == "perl" and short == "open":
            if len(args) >= 3:
                mode, target = self.value(args[1]).strip(), self.value(args[2])
            elif len(args) == 2:
                spec = self.value(args[1]).strip()
                mm = re.match(r"\A^(\+?[<>]{1,2}|\|)?\s*(.*?)\s*(\|)?$", spec, re.S)
                assert mm is not None
                mode, target = (mm.group(1) or "<"), mm.group(2)
                if mm.group(3) or mode == "|":
                    self._shell_line(target)  # open(F, "rm -rf / |")
                    return
            else:
                return
            if mode in ("-|", "|-"):
                self._shell_line(target)
                return
            if ">" in mode:
                self._path(target, fx.appends if ">>" in mode else fx.writes)
                fx.risky = True
            else:
                self._path(target, fx.reads)
            return
        target = self.value(args[0])
        mode = self.value(args[1]) if len(args) > 1 else "r"
        if short == "createWriteStream":
            mode = (
                "a"
                if re.search(r"flags\s*:\s*\x01\d+\x01", args[1] if len(args) > 1 else "")
                and "a" in mode
                else "w"
            )
            if len(args) > 1 and "a" not in self.value(args[1]):
                mode = "w"
            mode = "a" if len(args) > 1 and re.search(r"['\"]a", args[1]) else mode
        if mode.startswith("|") or target.startswith("|"):
            self._shell_line(target.lstrip("|"))  # Ruby open("|cmd")
            return
        if DYN in mode:
            mode = "w"
        if any(c in mode for c in "wax+"):
            appending = "a" in mode and "+" not in mode
            self._path(target, fx.appends if appending else fx.writes)
            fx.risky = True
        else:
            self._path(target, fx.reads)

    def _path(self, value: str, into: list[str]) -> None:
        path = _path_of(value)
        if path is not None:
            into.append(path)

    def _delete(self, value: str, recursive: bool, expr: str = "") -> None:
        fx = self.fx
        fx.risky = True
        if re.search(r"\b(?:glob|Dir\.glob|Dir\[|readdirSync|scandir)\b", expr) and self.roots:
            pass
        path = _path_of(value)
        if path is None:
            if self.roots:
                for root in self.roots:
                    fx.deletes.append((root, True))
            else:
                fx.unknown_delete = True
            return
        fx.deletes.append((path, recursive or DYN in value))

    def _shell_call(self, short: str, args: list[str]) -> None:
        fx = self.fx
        fx.risky = True
        fx.cmd_output = True
        if not args:
            return
        self.decoded = False
        if self.lang in ("perl", "php") and re.match(r"\A\s*(?:join|implode|pack)\b", args[0]):
            args = [",".join(args)]  # `system(join "", map { chr } (…))`: one computed line
        first_items = self.items(args[0])
        if first_items is None and "{" in args[0] and (m := _OPTION_ARRAY.search(args[0])):
            # `Deno.run({cmd: ["rm", "-rf", p]})`: the argv is the options object's array (n14u)
            first_items = self.items(m.group(2)) if m.group(1) == "cmd" else None
        argv: list[str] | None = None
        if first_items is not None:
            argv = first_items
        elif (len(args) > 1 and short not in ("popen", "proc_open", "exec")) or (
            len(args) > 1 and self.lang in ("perl", "ruby") and short in ("exec", "system")
        ):
            argv = [self.value(args[0])]
            for a in args[1:]:
                items = self.items(a) if not re.match(r"\A\s*\{", a) else None
                if items is not None:
                    argv += items
                elif re.match(r"\A\s*\{", a) or re.match(r"\A\s*\w+\s*[:=]", a):
                    # an options object; `new Deno.Command("rm", { args: ["-rf", p] })`
                    # carries the arguments in it (n14u)
                    m = _OPTION_ARRAY.search(a)
                    if m is not None and m.group(1) == "args":
                        argv += self.items(m.group(2)) or []
                    continue
                else:
                    argv.append(self.value(a))
            if short in ("exec", "popen", "proc_open") and self.lang not in ("perl", "ruby"):
                argv = None
        if argv is not None:
            if not argv or argv[0].startswith(DYN):
                fx.opaque = fx.opaque or "runs a program whose name is computed at run time"
                return
            decoded = self.decoded
            if (
                self.roots
                and any(DYN in a for a in argv[1:])
                and argv[0].rsplit("/", 1)[-1] in _ARGV_DELETERS
            ):
                # `for (glob("$ENV{HOME}/*")) { system("rm", "-rf", $_) }`, `opendir(D, $h);
                # … system("rm", "-rf", "$h/$_")`: the item a loop over a listing passes is
                # every entry listed (n13u)
                argv = [_listed_item(a, self.roots[0]) for a in argv]
            line = " ".join(_shell_quote(a) for a in argv)
            (fx.hidden if decoded else fx.shell).append(_shell_line(line))
            return
        line = self.value(args[0])
        self._shell_line(line)

    def _command_builder(self, args: list[str], code: str, at: int) -> None:
        """`Command::new("rm").arg("-rf").args(["/usr"]).status()`: the program and every
        `.arg`/`.args` in the chain after it form the command line (n14u)."""
        fx = self.fx
        argv = [self.value(args[0])]
        open_at = code.find("(", at)
        close = _closing(code, open_at) if open_at >= 0 else -1
        pos = close + 1 if close > 0 else len(code)
        for _ in range(32):
            m = re.match(r"\s*\.\s*(\w+)\s*\(", code[pos:])
            if m is None:
                break
            end = _closing(code, pos + m.end() - 1)
            if end < 0:
                break
            inner = code[pos + m.end() : end]
            if m.group(1) == "arg":
                argv.append(self.value(inner))
            elif m.group(1) == "args":
                argv += self.items(inner) or [DYN]
            pos = end + 1
        fx.risky = True
        fx.cmd_output = True
        if argv[0].startswith(DYN):
            fx.opaque = fx.opaque or "runs a program whose name is computed at run time"
            return
        fx.shell.append(_shell_line(" ".join(_shell_quote(a) for a in argv)))

    def _shell_line(self, line: str) -> None:
        fx = self.fx
        fx.risky = True
        fx.cmd_output = True
        if not line.strip() or line.strip() == DYN or line.lstrip().startswith(DYN):
            fx.opaque = fx.opaque or "runs a command line computed at run time"
            return
        (fx.hidden if self.decoded else fx.shell).append(_shell_line(line))
        self.decoded = False

    def _eval_call(self, args: list[str]) -> None:
        fx = self.fx
        fx.risky = True
        if not args:
            return
        self.decoded = False
        code = self.value(args[0])
        if DYN in code:
            remote = re.search(r"fetch|http|get\(|URI|LWP|curl|open-uri|Net::", args[0])
            fx.opaque = fx.opaque or (
                "runs code downloaded from the network"
                if remote
                else "runs code built at run time (eval of a computed string)"
            )
            return
        decoded = self.decoded
        inner = other_effects(code, self.lang, self.depth + 1)
        if decoded:
            inner.hidden += inner.shell
            inner.shell = []
            fx.opaque = fx.opaque or "runs decoded (hidden) code"
        fx.merge(inner)

    def _applescript(self, code: str) -> None:
        fx = self.fx
        # `do shell script "…"`, and Terminal/iTerm's `do script "…"` / `write text "…"`, which
        # type the line into a shell.
        for m in re.finditer(
            r"(?:do\s+shell\s+script|do\s+script|write\s+text)\s+(.+?)"
            r"(?:\s+with\s+administrator|\s+in\s+(?:window|tab|front)\b|$|\n)",
            code,
        ):
            self.decoded = False
            self._shell_line(self.value(m.group(1).strip()))
            if "administrator" in code[m.end() - 30 : m.end() + 30]:
                fx.extra.append((C, "sudo", "runs the command with administrator rights"))
        for m in re.finditer(
            r"\b(?:delete|move)\s+(?:\(\s*)?(?:(?:folder|file|alias|disk\s+item|item)\s+)?"
            r"(?:POSIX\s+(?:file|path)\s+)?(\x01\d+\x01)",
            code,
        ):
            # Finder's `delete POSIX file "/var/log/system.log"`: that path goes (to the
            # Trash, which Finder may empty), judged as deleting it (safety-art6).
            path = self.value(m.group(1))
            if path.startswith(("/", "~")) and DYN not in path:
                fx.deletes.append((path, True))
        if re.search(r"\bdelete\b|\bempty\s+(the\s+)?trash\b|\bmove\b.*\bto\s+trash\b", code):
            fx.unknown_delete = True
        if re.search(r"\bmake\s+(?:new\s+)?login\s+item\b", code, re.I):
            fx.extra.append((C, "persistence", "adds a login item, which runs at every login"))
        fx.risky = True


# A network read, and a sink that runs code: together, the program runs what it downloads.
_NET_READ = re.compile(
    r"require\s*\(\s*['\"](?:node:)?https?['\"]\s*\)|\bfetch\s*\(|\baxios\b|XMLHttpRequest"
    r"|\burlopen\b|Net::HTTP|URI\.open|open-uri|\bLWP\b|HTTP::Tiny|\bget\s*\(\s*['\"]https?://"
    r"|file_get_contents\s*\(\s*['\"](?:https?|ftp)://|curl_exec|\bhttps?\.get\s*\("
    r"|\bdownload\s*\(|\burl\s*\(\s*['\"]https?://|readLines\s*\(\s*['\"]https?://"
    r"|socket\.http|http\.request|HTTP\.get|Downloads\.download|\bwget\b|\bcurl\b",
)
_CODE_SINK = {
    "js": r"\beval\b|\bFunction\s*\(|\bvm\.\w*run\w*|runIn(?:This|New)?Context|\bimport\s*\(",
    "ruby": r"\beval\b|instance_eval|class_eval|module_eval",
    "perl": r"\beval\b",
    "php": r"\beval\b|\bassert\s*\(|\b(?:include|require)(?:_once)?\b",
    "lua": r"\bload(?:string|file)?\s*\(|\bdofile\b",
    "r": r"\bsource\s*\(|\beval\s*\(\s*parse|\bsys\.source\b",
    "julia": r"\binclude\s*\(|\beval\s*\(|include_string",
    "groovy": r"\bevaluate\s*\(|GroovyShell|\.execute\s*\(",
    "java": r"ScriptEngine|\beval\s*\(",
    "tcl": r"\beval\b|\bsource\b|\buplevel\b",
}
# A loader handed a URL directly: `source("https://…")`, `devtools::source_url(…)`.
_URL_LOADER = re.compile(
    r"\b(?:source|source_url|source_gist|sys\.source|include|require|require_once|include_once"
    r"|load|dofile|loadfile|import|evalfile|install_url)\s*\(\s*['\"](?:https?|ftp)://"
)


# (u22) JS libraries whose functions delete trees or run commands, by function name ("*":
# any function of the library, "": the library called itself). Actions: "tree" deletes its
# first argument (a path or a list) with everything below, "fs" is node's fs call of that
# name, "shell" runs a command line, "argv" runs a program with arguments, "rm" is
# shelljs's rm(flags, paths…). (Moving to the trash, `trash`/`send2trash`, is recoverable.)
_FS_CALLS = {f: "fs" for f in ("rm", "rmSync", "unlink", "unlinkSync", "rmdir", "rmdirSync")}
_TREE = "tree"
_JS_LIBS: dict[str, dict[str, str]] = {
    "rimraf": {"*": _TREE},
    "del": {"*": _TREE},
    "premove": {"*": _TREE},
    "fs-extra": {
        **_FS_CALLS,
        **dict.fromkeys(("remove", "removeSync", "emptyDir", "emptyDirSync", "emptydir"), _TREE),
        "emptydirSync": _TREE,
    },
    "fs": _FS_CALLS,
    "fs/promises": _FS_CALLS,
    "std/fs": {"emptyDir": _TREE, "emptyDirSync": _TREE},
    "shelljs": {"rm": "rm", "exec": "shell"},
    "execa": {
        **dict.fromkeys(("execaCommand", "execaCommandSync", "command", "commandSync"), "shell"),
        **dict.fromkeys(("", "execa", "execaSync", "sync", "execaNode"), "argv"),
    },
    "child_process": {
        **dict.fromkeys(("exec", "execSync"), "shell"),
        **dict.fromkeys(("execFile", "execFileSync", "spawn", "spawnSync"), "argv"),
    },
}
# const NAME = require("x")[.member] | const {a, b: c} = require("x") | import NAME[, {…}]
# from "x" / import * as NAME from "x" / import {a as b} from "x" | import("x").then(({a}) =>
_JS_BIND = re.compile(
    r"\b(?:const|let|var)\s+([\w$]+)\s*=\s*\(?\s*(?:await\s+)?(?:require|import)\s*\(\s*"
    r"\x01(\d+)\x01\s*\)\s*\)?(?:\s*\.\s*([\w$]+))?"
    r"|\b(?:const|let|var)\s*\{([^{}]{0,400})\}\s*=\s*(?:await\s+)?(?:require|import)\s*\("
    r"\s*\x01(\d+)\x01"
    r"|\bimport\s+(?:\*\s*as\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^{}]{0,400})\}\s*)?from\s*"
    r"\x01(\d+)\x01"
    r"|\bimport\s*\(\s*\x01(\d+)\x01\s*\)\s*\.\s*then\s*\(\s*(?:async\s*)?\(?\s*"
    r"(?:\{([^{}]{0,400})\}|([\w$]+))"
)
# require("x")(…), require("x").fn(…), (await import("x")).fn(…)
_JS_DIRECT = re.compile(
    r"\b(?:require|import)\s*\(\s*\x01(\d+)\x01\s*\)\s*\)?\s*(?:\.\s*([\w$]+)\s*)?\("
)
_MAX_LIBRARY_CALLS = 32  # library calls read in one program
_MAX_LIBRARY_ARGS = 1000  # characters of one library call's arguments that are read
_JS_BOUND_CALL = re.compile(r"(?<![\w$.])([\w$]+)\s*(?:\.\s*([\w$]+)\s*)?\(")


def _imported_from_fs(raw: str, name: str) -> bool:
    """`import {rmSync} from 'node:fs'`, `const {rm} = require('fs/promises')`: the bare
    name is the file system's function."""
    return bool(
        re.search(
            r"\{[^}]*\b" + re.escape(name) + r"\b[^}]*\}\s*(?:from\s*|=\s*(?:await\s+)?"
            r"(?:require|import)\s*\(\s*)['\"](?:node:)?(?:fs|fs/promises|fs-extra)['\"]",
            raw,
        )
    )


def _remote_eval(raw: str, lang: str) -> str:
    """Why inline code runs code from the network ("" when it does not): a loader given a
    URL, or a network read in a program that also evaluates strings as code."""
    if _URL_LOADER.search(raw):
        return "loads and runs code from a URL (remote code)"
    sink = _CODE_SINK.get(lang)
    if sink is not None and _NET_READ.search(raw) and re.search(sink, raw):
        return "downloads code and evaluates it (remote code)"
    return ""


def _closing(text: str, i: int) -> int:
    """Index of the bracket that closes text[i], or -1 (looked for within a window, so a
    long program with many unclosed calls stays linear)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    for j in range(i, min(len(text), i + _WINDOW)):
        c = text[j]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return j
    return -1


_CONCAT = re.compile(
    r"\.\.(?!\.)|(?<![+=])\+(?![+=])|(?<=[\s\x01)])\.(?=[\s\x01$])|\.(?=\x01)|\s&\s"
)


def _split_top(text: str, sep: str | re.Pattern[str]) -> list[str]:
    """Split on `sep` outside brackets."""
    out: list[str] = []
    depth = 0
    last = 0
    i = 0
    n = len(text)
    pattern = sep if isinstance(sep, re.Pattern) else re.compile(re.escape(sep))
    while i < n:
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = pattern.match(text, i)
            if m is not None and m.end() > i:
                out.append(text[last:i])
                last = m.end()
                i = m.end()
                continue
        i += 1
    out.append(text[last:])
    return out


_CALL = re.compile(
    r"(?<![\w$])((?:[A-Za-z_$][\w$]*\s*(?:\.|::|->)\s*)*[A-Za-z_$][\w$]*)(?:\s*(\()|(?=\s+[\x01$@\w\[\"'<(]))"
)
# obj["name"](…) and obj['exec' + 'Sync'](…): a call through a computed member name.
_COMPUTED_CALL = re.compile(
    r"(?<![\w$.])([\w$.]+(?:\([^()]{0,200}\))?)\s*\[((?:[^\[\]]|\[[^\[\]]{0,50}\]){1,200})\]\s*\("
)
# Ruby send(:system, …), public_send, __send__, method(:system).call(…)
_SEND_CALL = re.compile(
    r"(?:\b(?:send|public_send|__send__)\s*\(\s*:(\w+)\s*,"
    r"|\bmethod\(\s*:(\w+)\s*\)\.call\s*\()"
)
_ASSIGN = re.compile(
    r"(?<![\w$@])(?:(?:var|let|const|local|my|our)\s+)?([$@]?[A-Za-z_]\w*)\s*(?:<-|=(?![=~>]))\s*([^;\n]+)"
)
# AppleScript statements that only show or speak a message.
_AS_BENIGN = re.compile(r"(?i)\s*(?:display\s+(?:notification|dialog|alert)|say|beep|delay|log)\b")
_AS_ACTS = re.compile(r"(?i)\b(?:do\s+shell|do\s+script|run\s+script|tell|hidden\s+answer)\b")
# (safety-m7) self-recursive tree walkers: a function defined in inline code, the folder
# listing it calls, and the writes/deletes it does to what it lists.
_FUNC_DEF = re.compile(
    r"\bfunction\s+(\w+)\s*\(\s*(\w*)[^()]{0,80}\)\s*\{"
    r"|\b(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s+)?(?:function\s*)?\(?\s*(\w*)[^()=]{0,80}\)?"
    r"\s*(?:=>\s*)?\{"
    r"|\bdef\s+(\w+)\s*\(\s*(\w+)[^()]{0,80}\)\s*:"
)
_WALK_ENUM = re.compile(
    r"\b(?:readdirSync|readdir|scandir|listdir|opendir|iterdir|read_dir|glob|list\.files"
    r"|Dir\.(?:children|entries|each_child|foreach)|walkdir|readDirSync|readDir)\b"
)
_WALK_DESTROY = re.compile(
    r"\b(?:writeFileSync|writeFile|truncateSync|ftruncateSync|unlinkSync|rmSync|rmdirSync"
    r"|unlink|truncate|rmtree|remove|write_text|write_bytes|remove_file|remove_dir_all"
    r"|writeTextFile|writeTextFileSync|removeSync|emptyDirSync|File\.write|File\.delete"
    r"|File\.unlink|Deno\.remove|Deno\.writeTextFile)\s*\("
)
_ENUM = re.compile(
    r"\b(glob|Dir\.glob|Dir\.children|Dir\.entries|Dir\.each_child|Dir\.foreach|readdirSync"
    r"|readdir|scandir|opendir|list\.files|dir\.list|Dir\[|fs\.readdirSync|files\.walk|globSync"
    r"|(?:require\s*\(\s*\x01\d+\x01\s*\)|glob|fg|fastGlob|globby)\.sync)\s*"
    r"(\(|\s+\x01\d+\x01)"
)


def _listed_item(arg: str, root: str) -> str:
    """An argument that is a listing's item (DYN) or a folder joined with one (`~/DYN`)."""
    if arg == DYN:
        return root
    if arg.endswith("/" + DYN) and DYN not in arg[: -len(DYN)]:
        return arg[: -len(DYN)] + "*"
    return arg


# `{ args: [...] }`, `{cmd: [...]}`: an argument array inside an options object.
_OPTION_ARRAY = re.compile(r"\b(args|cmd)\s*:\s*(\[[^\]]*\])")
_ARGV_DELETERS = frozenset(names("rm shred unlink rmdir srm wipe trash gio"))
_SHELL_FUNCS = frozenset(
    names(
        """
    system exec execSync execFile execFileSync spawn spawnSync popen shell_exec passthru
    proc_open pcntl_exec popen2 popen3 popen2e capture2 capture2e capture3 pipeline readpipe
    system2 execute run Command execa execaSync execaCommand execaCommandSync doShellScript
    cmd shell callCommand spawnCommand rawSystem execShellCmd execCmd execCmdEx executeShell
    spawnShell
    """
    )
)
_EVAL_FUNCS = frozenset(
    names(
        """
    eval Function instance_eval class_eval module_eval loadstring load create_function assert
    runInThisContext runInNewContext runInContext setTimeout setInterval evaluate
    """
    )
)
_DELETE_REC = frozenset(
    names(
        """
    rmtree rm_rf rm_r remove_dir remove_dir_all remove_entry remove_entry_secure RemoveAll
    rimraf deltree removeSync emptyDirSync emptyDir remove_tree delete_tree rmrf removeItem
    removeItemAtPath del_dir_r removeDirectoryRecursive removePathForcibly deleteRecursively
    removeItemAtPathError removeItemAtURLError removeItemAtURL
    removeDir rmdir_all remove_all removeRecursive deleteDirectory delete_directory rmdir_r
    remove_recursive deleteTree rm_tree removeDirRecursive RemoveDirectoryRecursive
    deleteTreeAbsolute deleteDirAbsolute rmdirRecurse
    """
    )
)
_DELETE_VERBS = frozenset(names("delete remove rm unlink erase destroy purge wipe nuke zap del"))
_DELETE_TREE_WORDS = frozenset(
    names("dir dirs directory directories folder folders tree trees recursive recursively all rf r")
)
_DELETE_ONE_WORDS = frozenset(names("file files path paths item items entry entries f force"))
_DELETE_EXTRA = frozenset(names("sync async now forcibly safe secure"))


def delete_api(name: str) -> str | None:
    """A call name made of a delete verb and what it deletes, in any language's naming
    (`delete_file`, `deleteDir`, `RemoveFolderRecursive`, `erase-tree`, `wipeAll`):
    "tree" for a folder with its contents, "one" for a single entry, None for anything
    else (a bare `delete`/`remove` is not a file API; the known tables decide those)."""
    if len(name) > 40:
        return None
    parts = [p.lower() for p in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]
    if len(parts) < 2 or parts[0] not in _DELETE_VERBS:
        return None
    rest = [p for p in parts[1:] if p not in _DELETE_EXTRA]
    if not rest or not all(p in _DELETE_TREE_WORDS | _DELETE_ONE_WORDS for p in rest):
        return None
    return "tree" if any(p in _DELETE_TREE_WORDS for p in rest) else "one"


_DELETE_ONE = frozenset(
    names(
        """
    unlink unlinkSync rm rmSync rmdir rmdirSync rm_f delete remove safe_unlink removeFile
    removeDirectory deleteFileAbsolute deleteAbsolute deleteIfExists
    """
    )
)
_REMOVERS = frozenset(
    names(
        """
        os.remove file.delete file.remove deno.remove fs.remove fse.remove fs.removesync
        dir.delete fileutils.remove ?.remove vim.fn.delete
        """
    )
)
_MOVE = frozenset(["rename", "renameSync", "mv", "move"])
_COPY = frozenset(
    [
        "copyFileSync",
        "copyFile",
        "cp",
        "cpSync",
        "copy",
        "copy_file",
        "copy_stream",
        "install",
        "cp_r",
        "cp_lr",
        "copy_entry",
        "ln_sf",
    ]
)
_WRITE_FUNCS = frozenset(
    names(
        """
    writeFileSync writeFile appendFileSync appendFile file_put_contents write binwrite
    writeTextFile writeTextFileSync truncateSync truncate write_file
    """
    )
)
_OPEN_FUNCS = frozenset(["open", "fopen", "createWriteStream", "new"])
_CHMOD = frozenset(["chmod", "chmodSync", "chown", "chownSync", "lchown", "lchmod"])
_READ_FUNCS = frozenset(
    names(
        """
    readFileSync readFile read readlines file_get_contents readTextFile readTextFileSync slurp
    lines
    """
    )
)
_INTEREST = (
    frozenset(names("execl execlp execle"))  # (n14u) C's exec family
    | _SHELL_FUNCS
    | _EVAL_FUNCS
    | _DELETE_REC
    | _DELETE_ONE
    | _MOVE
    | _COPY
    | _WRITE_FUNCS
    | _OPEN_FUNCS
    | _CHMOD
    | _READ_FUNCS
)
_NETWORK = re.compile(
    r"\b(fetch|https?\.(?:request|get)|axios|XMLHttpRequest|net\.(?:connect|createConnection|Socket)"
    r"|Net::HTTP|HTTP::Tiny|LWP|IO::Socket|TCPSocket|UDPSocket|Socket\.tcp|fsockopen|curl_init"
    r"|socket\.http|URI\.open|stream_socket_client|WebSocket|Faraday|HTTParty|RestClient"
    r"|Deno\.connect|socket\s*\(|dgram|tls\.connect)\b"
)
_SENDS = re.compile(
    r"\b(?:post|put|patch|post_form|request_post)\s*\(|Net::HTTP::Post|CURLOPT_POSTFIELDS"
    r"|\bbody\s*:|\.(?:write|send|puts|syswrite|print)\s*\(|\bprint\s+\$\w+|\bfwrite\s*\(|"
    r"->\s*post\b|\bsend\s*\(|\bmethod\s*:\s*\x01"
)
_RISKY = re.compile(
    r"\b(?:eval|exec\w*|system|popen\w*|spawn\w*|fork|kill|unlink\w*|rm|rm_\w+|rmSync|rmdir\w*"
    r"|write\w*|append\w*|mkdir\w*|rename\w*|chmod\w*|chown\w*|symlink\w*|copy\w*|move|delete"
    r"|remove\w*|truncate\w*|socket|connect|listen|fopen|fwrite|file_put_contents|curl_exec"
    r"|Runtime|ProcessBuilder|Deno|Bun|tell|shell_exec|passthru|proc_open|FileUtils|Open3"
    r"|Kernel|setuid|chdir|utime|touch|putenv|setenv|createServer|doShellScript|execute"
    r"|load|require_once|include|dlopen|ffi|syscall)\b"
)


def other_effects(code: str, language: str = "", depth: int = 0) -> Effects:
    """Effects of Perl, Ruby, Node, PHP, Lua, AppleScript … code."""
    if depth > _MAX_DEPTH:
        fx = Effects()
        fx.opaque = "code nested too deeply to read"
        return fx
    lang = _FAMILY.get(language.lower(), language.lower() or "generic")
    try:
        return _Reader(code, lang, depth).read()
    except RecursionError:
        fx = Effects()
        fx.opaque = "code nested too deeply to read"
        return fx


# --- awk ------------------------------------------------------------------------------------

_SHELL_NAMES = frozenset(
    names("sh bash zsh dash ksh ash fish csh tcsh busybox /bin/sh /bin/bash /usr/bin/env")
)


def awk_effects(prog: str, preset: dict[str, str] | None = None) -> Effects:
    """Effects of an awk program: `system(…)`, `print | "cmd"`, `"cmd" | getline`, and
    `print > "file"`."""
    fx = Effects()
    masked, lits = _lex(prog, "awk")
    env: dict[str, str] = dict(preset or {})

    def value(expr: str) -> str:
        out = []
        expr = re.sub(r"ENVIRON\[\x01(\d+)\x01\]", _awk_environ(lits), expr)
        for part in re.findall(r"\x01\d+\x01|\$\w+|[A-Za-z_]\w*|\S", expr.strip()):
            m = re.fullmatch(r"\A\x01(\d+)\x01", part)
            if m:
                out.append(lits[int(m.group(1))].raw.replace('\\"', '"'))
            elif re.fullmatch(r"\A[A-Za-z_]\w*", part):
                out.append(env.get(part, DYN))
            elif part in "()":
                continue
            else:
                out.append(DYN)
        return "".join(out)

    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*=(?!=)\s*([^;\n}]+)", masked):
        env[m.group(1)] = value(m.group(2))

    def shell(line: str, risky: bool = True) -> None:
        if risky or not line.strip() or line.strip().startswith(DYN):
            fx.risky = True
        if not line.strip() or line.strip().startswith(DYN):
            fx.opaque = fx.opaque or "runs a command line computed at run time"
        else:
            fx.shell.append(_shell_line(line))

    # `("ls -A" | getline f) > 0 … system("rm -rf " f)`: each line a command prints becomes
    # an argument, as `ls -A | xargs rm -rf` does.
    fed: dict[str, str] = {}
    for m in re.finditer(
        r"(\x01\d+\x01|(?<!\w)[A-Za-z_]\w*)\s*\|\s*getline\s+([A-Za-z_]\w*)", masked
    ):
        source = value(m.group(1))
        if DYN not in source and source.strip():
            fed[m.group(2)] = source
    for m in re.finditer(r"\bsystem\s*\(", masked):
        close = _closing(masked, m.end() - 1)
        arg = masked[m.end() : close if close > 0 else len(masked)]
        names_used = [n for n in fed if re.search(rf"\b{re.escape(n)}\b", arg)]
        if len(names_used) == 1:
            n = names_used[0]
            saved = env.get(n)
            env[n] = "\x02"
            line = value(arg)
            if saved is None:
                env.pop(n)
            else:
                env[n] = saved
            if DYN not in line and line.count("\x02") == 1:
                head, _, tail = line.partition("\x02")
                template = f"{head.strip()} {{}} {tail.strip()}".strip()
                if not head.strip() and not tail.strip():
                    # `"echo rm -rf ~" | getline c; system(c)`: each line read is run (n13u)
                    shell(f"{fed[n]} | sh")
                elif not tail.strip():
                    shell(f"{fed[n]} | xargs {head.strip()}")
                else:
                    shell(f"{fed[n]} | xargs -I{{}} {template}")
                continue
        line = value(arg)
        if DYN not in line and starts_shell(line) is not None:
            # `system("sh -c …")`, `system("$SHELL")`: awk is not a launcher; its system()
            # starting a shell is a shell escape whatever it runs (session-14 hook convention).
            fx.extra.append((C, "code-shell", "awk's system() starts a shell (a shell escape)"))
        # a literal command line is judged as itself (`system("ls -la")` is ls: safe);
        # one computed at run time stays risky (red team probe12)
        shell(line, risky=DYN in line or not line.strip())
    for m in re.finditer(r"\bprintf?\b([^;}\n]*?)\|\s*&?\s*([^;}\n]+)", masked):
        target = value(m.group(2))
        words = target.split()
        script_given = any(
            w.startswith("-") and not w.startswith("--") and "c" in w[1:] for w in words[1:]
        )
        if words and words[0] in _SHELL_NAMES and not script_given:
            printed = _awk_printed(m.group(0).lstrip().startswith("printf"), m.group(1), value)
            if DYN in printed or not printed.strip():
                fx.opaque = fx.opaque or "pipes the text it prints into a shell"
                fx.risky = True
            else:
                shell(printed)
        else:
            # `print | "sort -u"`: the printed text is data for that command, which is judged
            # as a command line of its own (a read-only one keeps the program safe).
            shell(target, risky=False)
    for m in re.finditer(r"\|\s*&?\s*getline", masked):
        before = masked[: m.start()]
        cut = max(before.rfind(c) for c in ";{}\n")
        # The command is the concatenation right before `|` (`while (("ls -A" | getline f)`:
        # not the `while (` around it); its output is only read, the line itself is judged.
        shell(value(_awk_getline_command(before[cut + 1 :])), risky=False)
    for m in re.finditer(r"\bprintf?\b[^;}\n|]*?(>>?)\s*([^;}\n]+)", masked):
        target = value(m.group(2))
        path = _path_of(target)
        fx.risky = True
        if path is not None and path not in ("/dev/stdout", "/dev/stderr"):
            (fx.appends if m.group(1) == ">>" else fx.writes).append(path)
    return fx


def _awk_printed(formatted: bool, args: str, value: Callable[[str], str]) -> str:
    """What `print a, b` (joined by blanks) or `printf FMT, a, b` (`%s`/`%d` filled in)
    prints, given awk's `value` of each expression (n13u)."""
    parts = _top_level_commas(args.strip().removeprefix("(").removesuffix(")"))
    if len(parts) < 2:
        return value(args)
    vals = [value(p) for p in parts]
    if not formatted:
        return " ".join(vals)
    fill = iter(vals[1:])
    out = re.sub(r"%[-+ 0#]*\d*(?:\.\d+)?[sdicfgeu]", lambda _m: next(fill, DYN), vals[0])
    return out.replace("\\n", "\n").replace("\\t", "\t")


def _top_level_commas(text: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


_AWK_TOKEN = re.compile(r"\x01\d+\x01|[A-Za-z_]\w*|\S")
_AWK_KEYWORDS = frozenset({"while", "if", "do", "return", "in", "for", "else"})


def _awk_getline_command(segment: str) -> str:
    """The command before `| getline`: the concatenation of strings and variables right
    before the bar (`while (("ls -A" | getline f)` is `"ls -A"`, not the `while (`)."""
    tokens = _AWK_TOKEN.findall(segment)
    k = len(tokens)
    while (
        k > 0
        and (
            tokens[k - 1].startswith("\x01")
            or (tokens[k - 1][0].isalpha() or tokens[k - 1][0] == "_")
        )
        and tokens[k - 1] not in _AWK_KEYWORDS
    ):
        k -= 1
    return " ".join(tokens[k:]) if k < len(tokens) else segment


def _awk_environ(lits: list[_Lit]) -> Callable[[re.Match[str]], str]:
    """`ENVIRON["HOME"]` is the home folder (a literal "~"); other variables are unknown."""

    def sub(m: re.Match[str]) -> str:
        if lits[int(m.group(1))].raw in ("HOME", "USERPROFILE"):
            lits.append(_Lit("str", "~", False))
            return f" \x01{len(lits) - 1}\x01 "
        return " ENVIRON_ "

    return sub


# --- judging the effects ---------------------------------------------------------------------

# (every alternative must hold the literal `fork`: `judge_code` searches only text holding it)
_FORK_CODE = re.compile(
    r"\bfork\s+while\s+fork\b|\bwhile\s*\(?\s*(?:True|1|true)\s*\)?\s*[:{]?\s*(?:os\.|posix\.)?"
    r"fork\s*\(|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\(|\bloop\s*\{\s*fork\b"
    r"|\bwhile\s*\(?\s*(?:True|1|true)\s*\)?\s*(?:do|:|\{)?\s*(?:Process\.)?fork\b"
)
_REVERSE = re.compile(
    r"\b(socket|fsockopen|TCPSocket|net\.connect|net\.Socket|Net::|IO::Socket|/dev/tcp"
    r"|createConnection|connect\s*\(\s*\()"
    r".*\b(subprocess|pty\.spawn|dup2|/bin/(ba|z|da)?sh|cmd\.exe|exec|system|popen|proc_open"
    r"|spawn|pipe)\b",
    re.S,
)


# An endless loop or an endless iterator (Python, Perl, Ruby, JavaScript, PHP, Lua).
_ENDLESS = re.compile(
    r"\bwhile\s*\(?\s*(?:True|1|true|!0|!!1|:)\s*\)?|\bfor\s*\(\s*;\s*;\s*\)"
    r"|\buntil\s*\(?\s*(?:false|0)\s*\)?|\bloop\s*(?:do\b|\{)|\bdo\s*\{"
    r"|\biter\s*\(\s*int\s*,\s*\d+\s*\)|\b(?:itertools\.)?(?:count|cycle|repeat)\s*\([^()]*\)"
    r"|\(\s*1\s*\.\.\s*(?:Float::INFINITY\s*)?\)|\b1\.step\b|\bsetInterval\s*\("
)
# A call that copies the running process (not `forked`, `forkJoin`, `fork_safe`).
_FORK_CALL = re.compile(
    r"(?:\b(?:os|posix|Process|child_process|cp|cluster|pcntl)\s*\.\s*)?\b(?:fork|pcntl_fork)\b"
    r"(?!\s*[=:])(?!_)"
)


_LOOP_WORD = re.compile(r"\b(?:for|while|until)\b|\.(?:each|map|times)\b")


def _fork_loop(code: str) -> bool:
    """A fork inside an endless loop: after the loop's head within its body, or before an
    endless iterator / statement modifier in the same statement (`[os.fork() for _ in
    iter(int, 1)]`, `fork while 1`)."""
    if "fork" not in code:
        return False
    for loop in _ENDLESS.finditer(code):
        body = code[loop.end() : loop.end() + 240]
        if _FORK_CALL.search(body):
            return True
        head = re.split(r"[;\n]", code[max(0, loop.start() - 240) : loop.start()])[-1]
        whole = head + code[loop.start() : loop.end()]
        if _FORK_CALL.search(head) and _LOOP_WORD.search(whole):
            return True
    return False


def in_place_targets(cmd: Cmd) -> None:
    """`perl -pi -e CODE FILE…`, `ruby -i -pe CODE FILE…`: FILEs are rewritten in place, so
    each is judged as a written file (a startup file is persistence, an account file is
    blocked)."""
    args = cmd.args
    if not any(re.fullmatch(r"-(?![mMIxr])[a-zA-Z]*i\S*", w.text) for w in args):
        return
    i = 0
    files: list[Word] = []
    while i < len(args):
        t = args[i].text
        if re.fullmatch(r"-[a-zA-Z]*[eE]", t):
            i += 2  # the code
            continue
        if t in ("-I", "-M", "-r", "-W", "-X"):
            i += 2
            continue
        if not t.startswith("-") or t == "-":
            files.append(args[i])
        i += 1
    for f in files[:16]:
        t2 = write_target(f.text, cmd.scope.cwds)
        if t2 is not None:
            cmd.add(t2.level, t2.rule, f"{cmd.name} -i rewrites {t2.what}", f)
            return


# (safety-cat5) Code that loads a native library into the interpreter: whatever the library
# runs on load is invisible (GTFOBins "library-load": ctypes, Fiddle, FFI, dlopen, JNI).
_NATIVE_LOAD = re.compile(
    r"\b(?:cdll|windll|oledll|CDLL|WinDLL|OleDLL|PyDLL|LibraryLoader)\b\s*[.(]"
    r"|\bctypes\.(?:cdll|CDLL|windll|WinDLL|PyDLL|LoadLibrary)\b"
    r"|\b(?:Fiddle\.dlopen|Fiddle::Handle\.new|DL\.dlopen|FFI::DynamicLibrary)\b"
    r"|\bDynaLoader::dl_load_file\b|\bSystem\.load(?:Library)?\s*\("
    r"|\bffi\.(?:load|dlopen|Library)\s*\(|\bprocess\.dlopen\s*\(|\bdlopen\s*\("
    r"|\bpackage\.loadlib\s*\(|\bLoadLibrary[AW]?\s*\(|\bdl_open\s*\("
    r"|(?m:^\s*load\s+[\"']?\S+\.(?:so|dylib|dll)\b)"  # Tcl `load lib.so`
)


def _python_code_only(code: str) -> str:
    """Python code with its string literals emptied (the text itself when it does not
    tokenize): what the code signatures below should read."""
    if "'" not in code and '"' not in code:
        return code
    import io
    import tokenize

    out: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.STRING:
                out.append(' "" ')
            elif tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                continue
            else:
                out.append(" " + tok.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    return "".join(out)


def judge_code(code: str) -> tuple[RiskLevel, str, str]:
    """Level, rule and reason for inline code signatures: fork bombs, reverse shells and
    native libraries loaded into the interpreter."""
    # (s21: every alternative of `_FORK_CODE` holds `fork`, case and all: the search,
    # 10-40 µs on a line of code, runs only when the word is there)
    if ("fork" in code and _FORK_CODE.search(code)) or _fork_loop(code):
        return RiskLevel.BLOCKED, "fork-bomb", "a fork bomb: the program copies itself forever"
    if _REVERSE.search(code):
        return RiskLevel.CRITICAL, "reverse-shell", "inline code connects a socket to a shell"
    if _NATIVE_LOAD.search(code):
        return RiskLevel.CRITICAL, "library-load", "inline code loads a native library (opaque)"
    return RiskLevel.SAFE, "", ""


def language_of(name: str) -> str:
    """The language family of an interpreter name (`python3.12` -> `python`)."""
    base = re.sub(r"[0-9.]+$", "", name.lower())
    return {"pypy": "python", "nodejs": "node", "luajit": "lua", "irb": "ruby"}.get(base, base)


def code_effects(code: str, language: str, preset: dict[str, str] | None = None) -> Effects:
    """Effects of inline code in `language` (`python`, `node`, `perl`, `awk`, …)."""
    lang = language_of(language)
    if lang == "python":
        fx = python_effects(code)
        if fx is not None:
            return fx
        return other_effects(code, "python")  # not Python 3 syntax: read it by pattern
    if lang in ("awk", "gawk", "mawk", "nawk"):
        return awk_effects(code, preset)
    return other_effects(code, lang)


_UNREADABLE = re.compile(r"[^\S\n\t ]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


def decoded_readable(text: str, found: list[Finding]) -> bool:
    """Decoded text the analyser fully read: printable, with letters, and parsed cleanly."""
    return (
        bool(text.strip())
        and re.search(r"[A-Za-z]", text) is not None
        and _UNREADABLE.search(text) is None
        and not any(f.rule in ("parse-error", "nesting") for f in found)
    )


# A string literal in inline code (either quote, backslash escapes kept): scanned, linear.
_CODE_LITERAL = re.compile(r"'((?:[^'\\\n]|\\.){0,4000})'|\"((?:[^\"\\\n]|\\.){0,4000})\"")
# Literals that are an open mode or an encoding, not text written.
_NOT_TEXT = re.compile(r"(?i)\A(?:[rwabxt+]{1,3}|>>?|\+?<|utf-?8|ascii|latin-?1)\Z")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "0": "\x00"}


def _remember_code_write(scope: Scope, code: str, path: str) -> None:
    """(f19) `python3 -c "open('x.sh','w').write('rm -rf ~\\n')"`, `node -e
    "fs.writeFileSync('x.sh', …)"`, `perl -e 'open F, ">x.sh"; print F "…"'`, `ruby -e
    'File.write("x.sh", …)'`: the file holds the literals that follow its name (joined, as
    the code concatenates them), so running it later (`bash x.sh`) runs that text."""
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if not base or DYN in base or len(code) > 20000:
        return
    after: list[str] = []
    seen = False
    for m in _CODE_LITERAL.finditer(code):
        raw = m.group(1) if m.group(1) is not None else m.group(2) or ""
        if not seen:
            seen = raw.lstrip("+<>| ").replace("\\", "/").endswith(base)
            continue
        if _NOT_TEXT.match(raw) or raw.lstrip("+<>| ").replace("\\", "/").endswith(base):
            continue
        after.append(re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(1)), raw))
    text = "".join(after)
    if seen and text.strip():
        scope.written[base] = (text, -1)


def code_findings(
    scope: Scope,
    code: str,
    where: Word,
    language: str,
    what: str = "inline code",
    preset: dict[str, str] | None = None,
) -> list[Finding]:
    """Findings for inline interpreter code: the shell commands it runs are judged as shell,
    the paths it deletes, moves or overwrites as paths, what it sends for exfiltration."""

    def at(level: RiskLevel, rule: str, reason: str) -> Finding:
        return Finding(level, rule, reason, where.start, where.end)

    found: list[Finding] = []
    fx = code_effects(code, language, preset)
    for line in dict.fromkeys(fx.shell + fx.hidden):
        if _interactive_shell(line):
            found.append(
                at(C, "code-shell", f"{what} starts an interactive shell (a shell escape)")
            )
    for line in dict.fromkeys(fx.shell):
        found += scope.nested(line, "bash", where, -2)
    for line in dict.fromkeys(fx.hidden):
        inner = scope.nested(line, "bash", where, -2)
        found += inner
        if decoded_readable(line, inner):
            # literal hex/base64/char codes decoded to a readable command: judged as that
            # command, with a moderate floor because it was hidden (as `… | base64 -d | sh`)
            found.append(at(M, "decoded-code", f"{what} decodes a command and runs it"))
        else:
            found.append(at(C, "encoded-command", f"{what} decodes a hidden command and runs it"))
    for path, recursive in dict.fromkeys(fx.deletes):
        t = classify_path(path, scope.cwds, scope.windows)
        level = t.level
        if (
            not recursive
            and level == B
            and t.rule != "rm-system-file"
            and not path.endswith(("/*", "/**"))  # (u22) every file listed: as `rm -f /etc/*`
        ):
            level = D  # one file, not a tree
        if recursive and level < B and (state := system_state(path, scope.cwds)):
            # `shutil.rmtree('/etc/kubernetes')`: a named system-state folder, as for rm
            t = Target(B, "rm-system", f"the system state folder {state}")
            level = B
        if level < B and "*" in path and (store := trust_store_glob(path.lower())):
            # (n17u) `[os.remove(f) for f in glob.glob("/etc/ssl/certs/*")]`: the store emptied
            found.append(
                at(B, "cert-store-wipe", f"{what} empties the machine trust store {store}")
            )
            continue
        folder = path.lower().rsplit("/", 1)[0]
        if level < C and "cert" in path and trust_store_glob(folder + "/*"):
            # (n17u) one named certificate of a machine trust store (session 16)
            msg = f"{what} deletes the trusted certificate {path}"
            found.append(at(C, "cert-trust-removed", msg))
            continue
        rule = "code-" + t.rule if t.rule != "scoped" and level >= C else "code-delete"
        found.append(at(max(level, D), rule, f"{what} deletes {t.what}"))
    for path in dict.fromkeys(fx.moves):
        t = classify_path(path, scope.cwds, scope.windows)
        w = write_target(path, scope.cwds)
        if t.rule != "scoped" and t.level >= C:
            found.append(at(t.level, "code-" + t.rule, f"{what} moves away {t.what}"))
        elif w is not None and w.level >= B:
            found.append(at(w.level, w.rule, f"{what} moves away {w.what}"))
        else:
            found.append(at(M, "inline-code", f"{what} moves or renames files"))
    for path in dict.fromkeys(fx.writes):
        w = write_target(path, scope.cwds)
        if w is not None:
            found.append(at(w.level, w.rule, f"{what} overwrites {w.what}"))
    for path in dict.fromkeys(fx.writes + fx.appends):
        _remember_code_write(scope, code, path)
    for path in dict.fromkeys(fx.appends):
        w = write_target(path, scope.cwds, append=True)
        if w is not None:
            found.append(at(w.level, w.rule, f"{what} appends to {w.what}"))
    for path in dict.fromkeys(fx.chmods):
        w = write_target(path, scope.cwds)
        t = classify_path(path, scope.cwds, scope.windows)
        if w is not None or t.level >= B:
            found.append(
                at(C, "code-permissions", f"{what} changes the permissions or owner of {path}")
            )
    if fx.unknown_delete:
        found.append(at(D, "code-delete", f"{what} deletes files"))
    if fx.opaque:
        found.append(at(C, "eval-dynamic", f"{what} {fx.opaque} (opaque)"))
    secret = any(is_secret(p) for p in fx.reads)
    if fx.network and (secret or (fx.sends and (fx.reads or fx.cmd_output))):
        found.append(
            at(C, "exfiltration", f"{what} sends file contents or command output to the network")
        )
    for level, rule, reason in dict.fromkeys(fx.extra):
        found.append(at(level, rule, f"{what} {reason}"))
    if _resolves_machine_data(code):
        found.append(
            at(C, "exfiltration", f"{what} looks up a DNS name built from this machine's data")
        )
    if language_of(language) != "python" and not (fx.shell or fx.hidden):
        # a call the language reader does not know (`Sys.command "…"`, `callCommand "…"`)
        found += loose_code_findings(scope, code, where, what)
    # (Python's string literals are data: `print("perl -e 'fork while fork'")` runs no fork
    # bomb; a string that runs reaches the shell-out reading above) (gen12)
    signed = _python_code_only(code) if language_of(language) == "python" else code
    level, rule, reason = judge_code(signed)
    if level:
        found.append(at(level, rule, reason))
    if (
        _THIN_LANGS.get(language_of(language)) in _THIN_FAMILIES
        and not any(f.level >= D for f in found)
        and not (fx.shell or fx.hidden or fx.deletes or fx.writes or fx.appends or fx.moves)
        and _THIN_RISKY.search(_lex(code, _FAMILY.get(language_of(language), "generic"))[0])
    ):
        # A language read only by its common idioms: calls that run programs, touch files
        # or load code in a way the reader did not follow are not proof of safety.
        found.append(
            at(
                C,
                "code-unreadable",
                f"{what} runs programs, changes files or loads code in a way the analyser"
                " cannot follow",
            )
        )
    if (
        not any(f.level >= B for f in found)
        and (language_of(language) == "python" or language_of(language) in _FAMILY)
        and _SHELL_LINE_CODE.match(code)
    ):
        # `node -e "rm -rf /"`: not code in a known interpreter's language at all but a shell
        # command line (an author or a model confusing the two); judged as written.
        spelt = [f for f in scope.nested(code.strip(), "bash", where, -2) if f.level >= B]
        if spelt:
            found.append(
                at(B, "code-shell-line", f"{what} is a shell command line: {spelt[0].reason}")
            )
    if fx.risky and not any(f.level >= M for f in found):
        found.append(at(M, "inline-code", f"{what} can change files, processes or the network"))
    return found


# (h20) Name lookups in code (`socket.gethostbyname`, `dns.lookup`, `Resolv.getaddress`,
# Perl/PHP `gethostbyname`) of a name built from a run-time value of this machine (the user,
# the host name, the environment, a file or a command's output) in front of a literal public
# domain: the value reaches that domain's DNS server (DNS exfiltration).
_RESOLVE_CALL = re.compile(
    r"gethostbyname|getaddrinfo|\bdns[\"']?\)?\.(?:lookup|resolve)|Resolv\.get"
    r"|resolver\.(?:resolve|query)"
)
_RUNTIME_SOURCE = re.compile(
    r"getuser|getlogin|get_current_user|environ|getenv|ENV\[|\$ENV\{|process\.env|userInfo"
    r"|gethostname|hostname\(|popen|check_output|getoutput|\.read\(|read_text|readFileSync"
    r"|File\.read|\bsystem\(|`"
)
_QUOTED = re.compile(r"[\"'](\.[\w.-]{3,200})[\"']")  # a suffix appended: `+".x.example"`
_TEMPLATE = re.compile(r"\}\.[\w-]{1,63}\.[A-Za-z]{2,}\b")  # `f"{user}.x.example"`


def _domain_suffix(literal: str) -> bool:
    """`.x.example`: two or more dot-separated labels ending in an alphabetic top label
    (a scan, no regex: a pattern anchored at the end is quadratic under search)."""
    labels = literal.strip(".").split(".")
    return (
        len(labels) >= 2
        and all(label and label.replace("-", "").replace("_", "").isalnum() for label in labels)
        and labels[-1].isalpha()
        and len(labels[-1]) >= 2
    )


def _resolves_machine_data(code: str) -> bool:
    """(h20) True when inline code looks up a DNS name built from this machine's data."""
    if "host" not in code and "addrinfo" not in code and "dns" not in code and "Resolv" not in code:
        return False
    if _RESOLVE_CALL.search(code) is None or _RUNTIME_SOURCE.search(code) is None:
        return False
    if "}." in code and _TEMPLATE.search(code):
        return True
    for m in _QUOTED.finditer(code):
        literal = m.group(1)
        if _domain_suffix(literal) and not literal.endswith(
            (".local", ".internal", ".lan", ".localdomain", ".py", ".txt", ".json")
        ):
            return True
    return False


# Inline code that starts like a destructive shell command rather than code of the language.
_SHELL_LINE_CODE = re.compile(
    r"\s*(?:sudo\s+)?(?:rm|rmdir|dd|shred|wipefs|mkfs(?:\.\w+)?|chmod|chown|find|mv|fdisk|sfdisk"
    r"|parted|truncate)\s+[-/~.*$]"
)


# Languages whose code is read only by idioms (no parser here): process, file and code-loading
# calls the reader did not resolve make the code opaque (critical), never safe.
_THIN_FAMILIES = frozenset({"java", "erlang", "elixir", "clojure", "haskell"})
_THIN_LANGS = {**_FAMILY, "scala": "java", "erlang": "erlang"}
_THIN_RISKY = re.compile(
    r"(?i)\b(?:exec\w*|system|cmd|shell|spawn\w*|process\w*|runtime|fork|open_port|port\.open"
    r"|delete\w*|remove\w*|rm_\w+|rm|del_\w+|unlink\w*|write\w*|spit|rename\w*|move\w*|copy\w*"
    r"|chmod\w*|chown\w*|eval\w*|load\w*|compile\w*|invoke\w*|reflect\w*|forname|apply|rpc"
    r"|socket\w*|http\w*|url|uri|connect\w*|getRuntime|ProcessBuilder|os|file|files|filelib"
    r"|kernel|code|class)\b"
)


_SHELL_BASES = frozenset(
    names(
        """
        sh bash zsh dash ksh mksh ash fish csh tcsh yash rbash busybox cmd cmd.exe powershell
        pwsh powershell.exe
        """
    )
)


def _interactive_shell(line: str) -> bool:
    """`/bin/sh`, `bash -i`, `exec /bin/sh -p 0<&2`: a shell with no command to run."""
    words = [w for w in line.replace('"', " ").replace("'", " ").split() if w]
    words = [w for w in words if not re.match(r"\A\d*[<>]", w)]
    while words and words[0] in ("exec", "env", "command", "nohup", "setsid"):
        words = words[1:]
    if not words or words[0].rsplit("/", 1)[-1].lower() not in _SHELL_BASES:
        return False
    if words[0].rsplit("/", 1)[-1].lower() == "busybox":
        words = words[1:]
        if not words or words[0] not in ("sh", "ash", "bash"):
            return False
    rest = words[1:]
    return all(w.startswith("-") and "c" not in w[1:] for w in rest)


def shell_commands(code: str) -> list[str]:
    """Literal shell commands a program in an unknown language hands to a shell."""
    fx = other_effects(code)
    return fx.shell + fx.hidden


# --- database clients ------------------------------------------------------------------------

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


# A database account given the server's own powers (safety-m8): a superuser/sysadmin role
# created or granted, every privilege on every database (`ON *.*`), a server role that
# runs programs or reads files. Like adding an OS administrator: critical.
_SQL_ADMIN = re.compile(
    r"\b(?:create|alter)\s+(?:user|role|login)\b[^;]{0,300}?\b(?:superuser|sysadmin|bypassrls)\b"
    r"|\bgrant\s+all(?:\s+privileges)?\s+on\s+\*\s*\.\s*\*"
    r"|\bgrant\s+(?:[\w\s,]{0,200}\b)?(?:super|dba|sysadmin|rds_superuser|cloudsqlsuperuser"
    r"|azure_pg_admin|pg_execute_server_program|pg_write_server_files|pg_read_server_files"
    r"|db_owner|securityadmin|rds_iam_admin)\b[^;]{0,300}\bto\b"
    r"|\bsp_addsrvrolemember\b[^;]{0,300}\b(?:sysadmin|securityadmin)\b"
    r"|\balter\s+server\s+role\s+\[?(?:sysadmin|securityadmin)\]?\s+add\s+member"
    r"|\bwith\s+admin\s+option\b",
    re.I,
)


def judge_sql(sql: str) -> tuple[RiskLevel, str, str]:
    """Level of a batch of SQL statements."""
    text = _SQL_STRIP.sub("''", sql)
    if _SQL_ADMIN.search(text) or (
        "'" in sql and _SQL_ADMIN.search(re.sub(r"--[^\n]*|/\*.*?\*/", "", sql, flags=re.S))
    ):
        return (
            RiskLevel.CRITICAL,
            "db-admin-account",
            "SQL creates or grants a database superuser (every privilege on the server)",
        )
    if _SQL_DROP.search(text):
        return RiskLevel.DANGEROUS, "sql-drop", "SQL drops or truncates data"
    level, rule, reason = RiskLevel.SAFE, "", ""
    for stmt in _SQL_STMT_SPLIT.split(text):
        s = stmt.strip()
        if not s:
            continue
        low = s.lower()
        if re.match(r"\A(delete\s+from|update)\b", low) and (
            not re.search(r"\bwhere\b", low)
            or re.search(r"\bwhere\s+(1\s*=\s*1|true|'1'\s*=\s*'1')\s*$", low)
        ):
            return RiskLevel.DANGEROUS, "sql-unscoped", "SQL DELETE/UPDATE without WHERE"
        if _SQL_READ.match(s):
            if re.match(r"\A^\s*with\b", low) and re.search(r"\b(delete|update|insert)\b", low):
                level, rule, reason = RiskLevel.MODERATE, "sql-write", "SQL changes data"
            continue
        level, rule, reason = RiskLevel.MODERATE, "sql-write", "SQL changes data or schema"
    return level, rule, reason


_MONGO_DESTROY = re.compile(
    r"\b(dropDatabase|drop|deleteMany|remove|dropIndexes|dropUser|dropAllUsers)\s*\(", re.I
)
_MONGO_READ = re.compile(
    r"^\s*(db\.\w+\.(find|findOne|count|countDocuments|aggregate|distinct|getIndexes|stats)"
    r"|db\.(getCollectionNames|stats|version|serverStatus|getName|hello|isMaster|getUsers)\b"
    r"|show\s+\w+|printjson|rs\.(status|conf)\(\s*\)"
    # (h19) diagnostic admin commands: they only report
    r"|db\.(adminCommand|runCommand)\(\s*\{\s*['\"]?(listDatabases|serverStatus|ping|buildInfo"
    r"|hostInfo|listCollections|dbStats|collStats|replSetGetStatus|connectionStatus|hello"
    r"|isMaster|getCmdLineOpts|listCommands)['\"]?\s*:)",
    re.I,
)


_MONGO_ADMIN = re.compile(
    r"\b(?:createUser|updateUser|grantRolesToUser)\s*\([^;]{0,400}?[\"'](?:root|__system"
    r"|userAdminAnyDatabase|dbAdminAnyDatabase|clusterAdmin|readWriteAnyDatabase|restore"
    r"|userAdmin|dbOwner)[\"']",
    re.I,
)


def judge_mongo(js: str) -> tuple[RiskLevel, str, str]:
    if _MONGO_ADMIN.search(js):
        return (
            RiskLevel.CRITICAL,
            "db-admin-account",
            "creates or grants a MongoDB administrator (root or any-database admin role)",
        )
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


_REDIS_LUA_ESCAPE = re.compile(r"package\.loadlib|\bio\.popen|\bos\.execute|luaopen_(?:io|os)")


def judge_redis(argv: list[str]) -> tuple[RiskLevel, str, str]:
    if not argv:
        return RiskLevel.MODERATE, "db-shell", "opens an interactive Redis shell"
    cmd = argv[0].lower()
    if cmd in ("flushall", "flushdb"):
        return RiskLevel.DANGEROUS, "db-flush", f"{argv[0]} deletes every key"
    if cmd in _REDIS_DESTROY:
        return RiskLevel.DANGEROUS, "db-delete", f"{argv[0]} deletes data or stops the server"
    if (
        cmd == "acl"
        and len(argv) > 2
        and argv[1].lower() == "setuser"
        and any(
            a.lower() in ("allcommands", "+@all", "+@admin", "+@dangerous", "allkeys", "~*")
            for a in argv[3:]
        )
    ):
        return RiskLevel.CRITICAL, "db-admin-account", "creates a Redis user allowed every command"
    sub = argv[1].lower() if len(argv) > 1 else ""
    if cmd in ("slaveof", "replicaof") and sub and sub != "no":
        # (a22) `REPLICAOF 203.0.113.4 6379`: the server drops its data and copies whatever
        # that host sends, modules included (the rogue-master attack): foreign code and data
        return (
            RiskLevel.CRITICAL,
            "db-replica",
            f"Redis {argv[0]} makes this server copy another host's data ({argv[1]})",
        )
    if cmd == "module" and sub in ("load", "loadex"):
        # (a22) `MODULE LOAD /tmp/x.so`: native code loaded into the server process
        return RiskLevel.CRITICAL, "db-code", "Redis MODULE LOAD runs a native library (the server)"
    if cmd == "module" and sub == "list":
        return RiskLevel.SAFE, "", ""
    if cmd in ("eval", "evalsha", "eval_ro", "fcall", "function") and _REDIS_LUA_ESCAPE.search(
        " ".join(argv[1:3])
    ):
        # (a22) CVE-2022-0543: Debian's Lua leaves `package.loadlib` reachable, so a script
        # opens a real `io.popen`/`os.execute`: an OS command run by the server
        return RiskLevel.CRITICAL, "db-code", "the Redis Lua script reaches the OS (loadlib/popen)"
    if cmd in _REDIS_READ or (cmd == "config" and len(argv) > 1 and argv[1].lower() == "get"):
        return RiskLevel.SAFE, "", ""
    if cmd == "config" and len(argv) > 3 and argv[1].lower() == "set":
        # `CONFIG SET dir /root/.ssh` + `dbfilename authorized_keys` + `SAVE`: the server
        # writes its database file wherever it is told (a known way to plant keys or cron).
        key, value = argv[2].lower(), argv[3]
        if key == "dir" and re.search(
            r"(^|/)\.ssh/?$|/cron|/etc(/|$)|/var/spool|/root/?$|/home/[^/]+/?$|^~|startup"
            r"|launchagents|/var/www|/usr/(local/)?s?bin|/boot|init\.d|systemd",
            value,
            re.I,
        ):
            return RiskLevel.CRITICAL, "persistence", f"Redis will save its data into {value}"
        if key == "dbfilename" and re.search(
            r"authorized_keys|crontab|^root$|\.(bashrc|profile|zshrc|php|jsp|aspx?|sh|service)$"
            r"|^(?:passwd|shadow|gshadow|sudoers)$",
            value,
            re.I,
        ):
            return RiskLevel.CRITICAL, "persistence", f"Redis will save its data as {value}"
        if key in ("dir", "dbfilename"):
            return RiskLevel.MODERATE, "db-write", f"Redis CONFIG SET {key} moves its data file"
    return RiskLevel.MODERATE, "db-write", f"Redis {argv[0]} may change data"


# Code in a language nobody here parses (Forth, OCaml, Haskell, Tcl, zx, a new Lisp): the
# shell command lines it hands to the system are found by shape, not by grammar. A string
# literal that reads as a command line, or a run of literals that starts with a program
# name (`callProcess "rm" ["-rf", "/"]`, `Command::new("rm").args(["-rf", "/"])`), counts
# only when the code also has a word that runs programs; the caller keeps what such a line
# would do only when that is dangerous or worse, so printed text stays text.
_LOOSE_EXEC = re.compile(
    r"(?i)\b(?:system|exec|spawn|popen|shell|\w*command|callprocess|readprocess|createprocess"
    r"|run|cmd|process|call|invoke|capture|proc|unix|sys|os|subprocess|child_process|pipe|host"
    r"|dos)\w*|\$`|`"
)
_LOOSE_PROGRAMS = frozenset(
    names(
        """
        rm rmdir dd mkfs shred wipefs sh bash zsh dash ksh chmod chown find mv truncate curl
        wget rsync srm format diskpart del rd cmd powershell pwsh /bin/sh /bin/bash /bin/rm
        """
    )
)
_LOOSE_BARE = re.compile(r"(?m)(?:^|[;{\[(])[ \t]*(?:exec|spawn|!)[ \t]+([^;\n\]}\"')]+)")


def loose_shell_strings(code: str) -> list[str]:
    """Command lines an unparsed program may run: literals that read as command lines,
    literal argv runs, and Tcl/expect-style `exec CMD …` lines."""
    if len(code) > 20000 or not _LOOSE_EXEC.search(code):
        return []
    masked, lits = _lex(code, "generic")
    if not _LOOSE_EXEC.search(masked) and "`" not in code:
        return []  # (u22) the word that runs programs is itself only text: `echo "system(…)"`
    texts = [lit.raw for lit in lits]
    out: list[str] = []
    for k, raw in enumerate(texts):
        s = raw.strip()
        if not s or "\n" in s:
            continue
        if " " in s and re.match(r"[\w./~-]", s):
            out.append(s)
        elif s in _LOOSE_PROGRAMS or s.rsplit("/", 1)[-1] in _LOOSE_PROGRAMS:
            argv = [s]
            for nxt in texts[k + 1 : k + 9]:
                if "\n" in nxt or not nxt.strip():
                    break
                argv.append(nxt)
            if len(argv) > 1:
                out.append(" ".join(_shell_quote(a) for a in argv))
    for m in _LOOSE_BARE.finditer(code):
        line = m.group(1).strip()
        if line and line.split()[0].rsplit("/", 1)[-1] in _LOOSE_PROGRAMS:
            out.append(line)
    return list(dict.fromkeys(out))[:20]


def loose_code_findings(scope: Scope, code: str, where: Word, what: str) -> list[Finding]:
    """Findings of `loose_shell_strings`, kept only when one of them is dangerous or worse."""
    found: list[Finding] = []
    for line in loose_shell_strings(code):
        got = scope.nested(line, "bash", where, -2)
        if max((f.level for f in got), default=RiskLevel.SAFE) >= D:
            found += got
            found.append(
                Finding(
                    D,
                    "code-shell",
                    f"{what} runs the command line `{line[:60]}`",
                    where.start,
                    where.end,
                )
            )
    return found


# Command lines generated from a listing: `find ~ | awk '{print "rm -rf " $0}' | sh`, `ls / |
# sed 's|^|rm -rf /|' | bash`. The printer turns every listed path into a command line; the
# shell downstream runs them, exactly like `xargs rm -rf`. The lines are represented by the
# template applied to each listed path (a glob stands for every entry).
_AWK_PRINT = re.compile(
    r"""^\s*(?:NR\s*[<>!=]=?\s*\d+\s*|/[^/]*/\s*|length\s*)?\{\s*(printf?)\s*\(?\s*(.*?)\s*\)?\s*;?\s*\}\s*$""",
    re.S,
)
_AWK_PART = re.compile(r'"((?:[^"\\]|\\.)*)"|(\$(?:0|1|NF))|(,)|(\S+)')


def _sed_sub(part: str) -> tuple[str, str] | None:
    """(pattern, replacement) of one `s/PAT/REP/[gp]` command, or None."""
    if len(part) < 4 or part[0] != "s" or len(part) > 4000:
        return None
    d = part[1]
    fields: list[str] = [""]
    i = 2
    while i < len(part):
        c = part[i]
        if c == "\\" and i + 1 < len(part):
            nxt = part[i + 1]
            fields[-1] += nxt if nxt == d else c + nxt  # `\/` in `s/…/…/` is a slash
            i += 2
            continue
        if c == d:
            fields.append("")
        else:
            fields[-1] += c
        i += 1
    if len(fields) != 3 or fields[2].strip("gp"):
        return None
    return fields[0], fields[1]


def _awk_template(prog: str) -> tuple[str, str] | None:
    m = _AWK_PRINT.match(prog)
    if m is None:
        return None
    parts = [p for p in _AWK_PART.findall(m.group(2))]
    pieces: list[str] = []
    field = False
    fmt = m.group(1) == "printf"
    for lit, fld, comma, other in parts:
        if other:
            return None
        if comma:
            if not fmt:
                pieces.append(" ")
            continue
        if fld:
            pieces.append("\x00")
            field = True
        else:
            pieces.append(re.sub(r"\\(.)", lambda x: {"n": "\n", "t": "\t"}.get(x[1], x[1]), lit))
    text = "".join(pieces)
    if fmt:
        if "%s" not in text:
            return None
        text = text.replace("\x00", "").replace("%s", "\x00", 1)
        field = True
    if not field:
        return None
    head, _, tail = text.partition("\x00")
    return head, tail.rstrip("\n")


def _sed_template(scripts: list[str]) -> tuple[str, str] | None:
    head, tail = "", ""
    for script in scripts:
        for part in script.split(";"):
            sub = _sed_sub(part.strip())
            if sub is None:
                return None
            pat, rep = sub
            rep = re.sub(r"\\(.)", r"\1", rep) if "\\1" not in rep else rep
            if pat == "^":
                head = rep + head
            elif pat == "$":
                tail = tail + rep
            elif pat in (".*", "^.*$", "^.*") and "&" in rep:
                a, _, b = rep.partition("&")
                head, tail = a + head, tail + b
            elif pat in (r"\(.*\)", r"^\(.*\)$", "(.*)", "^(.*)$") and "\\1" in rep:
                a, _, b = rep.partition("\\1")
                head, tail = a + head, tail + b
            else:
                return None
    if not head and not tail:
        return None
    return head, tail


def generated_lines(name: str, argv: tuple[str, ...], stdin: Stdin) -> Stdin | None:
    """The command lines an awk/sed printer makes from listed paths, as static text a shell
    downstream runs (one representative line per listed path), or None."""
    from aintern_ls.safety.context import STDIN_STATIC, Stdin

    if not stdin.paths or not argv:
        return None
    template: tuple[str, str] | None = None
    if name in ("awk", "gawk", "mawk", "nawk"):
        ops = [a for a in argv if not a.startswith("-")]
        if len(ops) == 1 and "-f" not in argv:
            template = _awk_template(ops[0])
    elif name in ("sed", "gsed"):
        scripts = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-e", "--expression")]
        if not scripts:
            ops = [a for a in argv if not a.startswith("-")]
            scripts = ops[:1]
        if scripts and not any(a.startswith("-i") or a == "-n" for a in argv):
            template = _sed_template(scripts)
    if template is None or not re.search(r"[A-Za-z]", template[0]):
        return None
    lines = []
    for p in stdin.paths[:20]:
        path = p.text
        if stdin.names_only:
            path = path.rsplit("/", 1)[-1] or path
        lines.append(f"{template[0]}{path}{template[1]}")
    return Stdin(STDIN_STATIC, "\n".join(lines), -1)


# A Lisp form whose arguments are atoms or strings: `(shutil.rmtree "/etc")`,
# `(delete-directory "~" t)`, `(uiop:run-program "rm -rf ~")`.
_LISP_FORM = re.compile(
    r"\((?P<fn>[A-Za-z_][\w.:/*!?<>=+-]*)(?P<args>(?:\s+(?:\"(?:[^\"\\]|\\.)*\"|[^\s()\"]+))*)\s*\)"
)
_LISP_ARG = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s()"]+')
# (f19) Forms that only spell a literal path another way: `(expand-file-name "~")`,
# `(file-truename "/etc")`; `(getenv "HOME")` is home.
_LISP_PATH_FORM = re.compile(
    r"\(\s*(?:expand-file-name|file-truename|file-name-as-directory|directory-file-name"
    r"|abbreviate-file-name|substitute-in-file-name)\s+(\"[^\"\\()]{0,400}\")\s*\)"
)
_LISP_HOME_FORM = re.compile(r'\(\s*getenv\s+"(?:HOME|USERPROFILE)"\s*\)')


def lisp_paths(code: str) -> str:
    """(f19) `(expand-file-name "~")`, `(getenv "HOME")` replaced by the literal path they
    spell, so a form around them reads as if given the path."""
    if "(" not in code or len(code) > 20000:
        return code
    return _LISP_HOME_FORM.sub('"~"', _LISP_PATH_FORM.sub(lambda m: m.group(1), code))


def lisp_as_calls(code: str) -> str | None:
    """Lisp forms rewritten as calls (`(delete-directory "~" t)` → `delete_directory("~",
    t)`), innermost first, so readers of call syntax see them; None when `code` has no
    Lisp form. Names keep their package prefix (`shutil.rmtree`, `uiop:run_program`)."""
    if "(" not in code or len(code) > 20000:
        return None

    def call(m: re.Match[str]) -> str:
        fn = m.group("fn").replace("-", "_")
        args = _LISP_ARG.findall(m.group("args"))
        return f"{fn}({', '.join(args)})"

    out = lisp_paths(code)  # (f19) `(expand-file-name "~")`, `(getenv "HOME")`
    for _ in range(6):
        new = _LISP_FORM.sub(call, out)
        if new == out:
            break
        out = new
    return out if out != code else None
