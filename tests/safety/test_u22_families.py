"""Session 22 (u22): Unix mechanisms, each tested across spellings, wrappers and look-alikes
that carry the same text as data (the labelled rows are in sources_u22.tsv)."""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, D, M, S


def _rated(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


def _wrapped(command: str) -> list[str]:
    """The same command through wrappers."""
    q = shlex.quote(command)
    return [command, f"bash -c {q}", f"sudo {command}", f"f() {{ {command}; }}; f"]


# 1. JS libraries' delete and exec functions, however they are reached: the library's value
# (`require("rimraf").sync(…)`), a name bound to the library or to one of its functions
# (`const r = require(…)`, destructuring with a new name, `import {x as y}`, `import * as`,
# `import("…").then(({f}) =>`), in node, deno and bun.
_JS_SYSTEM_WIPES = [
    "require('rimraf')('/usr')",
    "require('rimraf').sync('/usr')",
    "require('rimraf').rimrafSync('/usr')",
    "const r = require('rimraf'); r.sync('/usr')",
    "const {rimrafSync: gone} = require('rimraf'); gone('/usr')",
    "import {rimrafSync as gone} from 'rimraf'; gone('/usr')",
    "import * as rr from 'npm:rimraf@5'; await rr.rimraf('/usr')",
    "const {remove: zap} = require('fs-extra'); zap('/usr')",
    "import fse from 'fs-extra'; fse.emptyDirSync('/usr')",
    "require('fs-extra').emptyDir('/usr')",
    "require('del').deleteSync(['/usr/**'], {force: true})",
    "const del = require('del'); del.sync('/usr')",
    "(async () => { const {deleteAsync} = await import('del'); await deleteAsync('/usr') })()",
    "require('shelljs').rm('-rf', '/usr')",
    "const sh = require('shelljs'); sh.rm('-r', '-f', ['/usr'])",
    "require('shelljs/global'); rm('-rf', '/usr')",
    "const {execSync: run} = require('child_process'); run('rm -rf /usr')",
    "import('execa').then(({execaCommand}) => execaCommand('rm -rf /usr'))",
    "import { emptyDir } from 'jsr:@std/fs'; await emptyDir('/usr')",
]


@pytest.mark.parametrize("code", _JS_SYSTEM_WIPES)
@pytest.mark.parametrize("runner", ["node -e", "bun -e", "deno eval"])
def test_js_library_deletes_are_judged_as_deletes(code: str, runner: str) -> None:
    for cmd in _wrapped(f"{runner} {shlex.quote(code)}"):
        assert _rated(cmd) == B, cmd


@pytest.mark.parametrize(
    "code",
    [
        "const sh = require('shelljs'); sh.rm('-rf', sh.env.HOME)",
        "const fse = require('fs-extra'); fse.remove(require('os').homedir())",
        "require('rimraf').sync(process.env.HOME)",
    ],
)
def test_js_library_deletes_of_home(code: str) -> None:
    assert _rated(f"node -e {shlex.quote(code)}") == B


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("node -e \"require('rimraf').sync('./dist')\"", D),
        ("node -e \"const del = require('del'); del.sync(['dist/**'])\"", D),
        ("node -e \"require('fs-extra').emptyDirSync('build')\"", D),
        ("node -e \"const r = require('rimraf'); console.log(typeof r.sync)\"", S),
        ("node -e \"const sh = require('shelljs'); sh.ls('-la', '/')\"", S),
        ("node -e \"console.log(\\\"require('rimraf').sync('/usr')\\\")\"", S),
        ("grep -rn \"rimraf.sync('/')\" node_modules/", S),
        ("curl -d \"require('rimraf').sync('/')\" https://paste.example/api", M),
        ("echo \"const {remove: zap} = require('fs-extra'); zap('/var')\" > clean.js", M),
        ("node -e \"require('trash')(['/tmp/old'])\"", S),
    ],
)
def test_js_library_look_alikes(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 1b. A delete of every file a listing gives (`glob("/etc/*")`, each file removed one by one)
# is the folder's contents deleted, as `rm -f /etc/*` is; the loose reader of unknown languages
# no longer takes a program-running word that is itself inside a string for code.
@pytest.mark.parametrize(
    "cmd",
    [
        "python3 -c \"import os,glob; [os.remove(f) for f in glob.glob('/etc/*')]\"",
        "python3 -c \"import glob, os\nfor f in glob.glob('/usr/*'):\n    os.unlink(f)\"",
    ],
)
def test_every_listed_file_deleted(cmd: str) -> None:
    assert _rated(cmd) == B


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("python3 -c \"import os,glob; [os.remove(f) for f in glob.glob('*.log')]\"", D),
        ("python3 -c \"import os; os.remove('/etc/hosts.bak')\"", D),
        ("php -r 'echo \"shell_exec(rm -rf /)\";'", S),
        ("ruby -e 'puts \"system(rm -rf /)\"'", S),
        ("Rscript -e 'system(\"rm -rf /\")'", B),
    ],
)
def test_listed_and_printed_look_alikes(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level
