"""n11u: config-driven execution of programs the analyser cannot read, and the SysRq trigger.

A hook (a pager/filter/editor variable, a tool option that runs a program, BASH_ENV/ENV)
that names a local program or script runs code the analyser never sees: critical (opaque).
Known programs stay what they are; a user's own startup file in BASH_ENV adds nothing new.
Each case keeps its level when wrapped (sudo, env, sh -c, eval, a function).
"""

from __future__ import annotations

import shlex

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


def _wrapped(command: str) -> list[str]:
    q = shlex.quote(command)
    return [
        command,
        f"sh -c {q}",
        f"bash -c {q}",
        f"eval {q}",
        f"f() {{ {command}; }}; f",
        *_timeout(command),
    ]


def _timeout(command: str) -> list[str]:
    """`timeout 5 …` runs one program: an assignment prefix goes through `env`."""
    if command.startswith(("export ", "echo ")) or ";" in command:
        return []
    first = command.split(" ", 1)[0]
    return [f"timeout 5 env {command}" if "=" in first else f"timeout 5 {command}"]


OPAQUE_HOOKS = [
    "LESSOPEN='|/tmp/filter.sh %s' less notes.txt",
    "LESSCLOSE='/opt/x/close %s %s' less notes.txt",
    "MANPAGER=./pager.sh man bash",
    "GIT_PAGER=~/bin/pg git log",
    "GIT_EXTERNAL_DIFF=./tools/diff.sh git diff",
    "SSH_ASKPASS=/tmp/a SSH_ASKPASS_REQUIRE=force ssh host true",
    "FZF_DEFAULT_COMMAND=./list.sh fzf",
    "rg --pre ./scripts/preprocess.sh TODO src/",
    "rg --pre=/tmp/.p --pre-glob '*.pdf' password docs",
    "man -P /tmp/p ls",
    "git -c core.pager=./p.sh log",
    "export BASH_ENV=/tmp/.env.sh; bash build.sh",
    "env ENV=/tmp/rc.sh sh -i -c ls",
]


@pytest.mark.parametrize("command", OPAQUE_HOOKS)
def test_a_hook_running_an_unreadable_local_program_is_critical(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    [
        "PAGER=cat man ls",
        "GIT_PAGER=less git diff",
        "MANPAGER='less -R' man tar",
        "LESSOPEN= less notes.txt",
        "rg --pre-glob '*.pdf' invoice docs/",
        "rg -F -- '--pre ./x.sh' notes.md",
        "rg --no-pre TODO src/",
        "echo \"LESSOPEN='|/tmp/filter.sh %s'\"",
        "grep -rn BASH_ENV /etc/profile.d",
        "BASH_ENV= bash -c 'ls -la'",
    ],
)
def test_known_programs_and_mentions_stay_safe(command: str) -> None:
    got = assess(command, "bash")
    assert got.level == S, f"{command!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    ["BASH_ENV=~/.bashrc bash -c 'll'", "export ENV=$HOME/.profile; sh -i", "rg --pre cat x ."],
)
def test_own_startup_files_and_known_filters_are_not_opaque(command: str) -> None:
    got = assess(command, "bash")
    assert got.level < C, f"{command!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    [
        "echo b > /proc/sysrq-trigger",
        "printf o > /proc/sysrq-trigger",
        "echo c | tee /proc/sysrq-trigger",
        "python3 -c \"open('/proc/sysrq-trigger','w').write('o')\"",
    ],
)
def test_a_sysrq_trigger_is_the_shutdown_class(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level == D, f"{text!r}: {got.level.label}"
        assert any(f.rule == "shutdown" for f in got.findings)
    assert assess("sudo " + command, "bash").level == C  # sudo is critical on its own


def test_enabling_sysrq_is_not_the_trigger() -> None:
    assert assess("sysctl -w kernel.sysrq=1", "bash").level == M
    assert assess("cat /proc/sys/kernel/sysrq", "bash").level == S


@pytest.mark.parametrize(
    "command",
    [
        "git -c include.path=../team.cfg status",
        "git config --global include.path /tmp/shared.gitconfig",
        "git config --global includeIf.gitdir:~/work/.path ~/.gitconfig-work",
        "GIT_CONFIG_GLOBAL=./g.cfg git log -1",
        "git config core.pager ./pg.sh",
    ],
)
def test_git_settings_from_an_unreadable_file_are_critical(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label}"


@pytest.mark.parametrize(
    "command",
    [
        "git config --get include.path",
        "git config --list --show-origin",
        "git log --oneline --grep include.path",
        "GIT_CONFIG_GLOBAL=~/.gitconfig git log -1",
    ],
)
def test_git_config_reads_stay_below_critical(command: str) -> None:
    got = assess(command, "bash")
    assert got.level < C, f"{command!r}: {got.level.label}"


BLOCKED_FAMILY = [
    # rg --pre runs its program on every file searched
    "rg --pre rm -l . ~",
    "rg --pre=shred --files-with-matches x /etc",
    # a typescript, an archive or an output option written over an account or boot file
    "script -q -c uptime /etc/passwd",
    "script -B /etc/shadow -q x.log",
    "tar -cPf /etc/shadow ./dir",
    "tar cf /etc/sudoers x",
    "tar --create --file=/boot/vmlinuz src",
    "sort -uo /etc/passwd names.txt",
    "cc -go /boot/vmlinuz x.c",
    # find's wildcard name test selects account files, deleted downstream
    "find /etc -name 'pass?d' | xargs rm -f",
    "find /etc -maxdepth 1 -name '*shadow*' | xargs -I{} mv {} /tmp/",
    # a value that looks like a flag is a value (mke2fs -L takes the label)
    "mkfs.ext4 -L -n /dev/sdb1",
    "mkfs.ext4 -Ln /dev/sdb1",
    "mkfs.xfs -L -N /dev/sdb",
    # BSD script's command after the file
    "script -q /dev/null rm -rf ~",
]


@pytest.mark.parametrize("command", BLOCKED_FAMILY)
def test_blocked_family_stays_blocked_wrapped(command: str) -> None:
    for text in [*_wrapped(command), f"sudo {command}"]:
        got = assess(text, "bash")
        assert got.level == RiskLevel.BLOCKED, f"{text!r}: {got.level.label}"


CRITICAL_FAMILY = [
    'awk "$PROG" data.txt',
    'gawk -e "$1" input.log',
    'awk -f "$F" x',
    'sed "$S" f',
    'sed -f "$F" x',
    "script -q ~/.bashrc",
    "script -a -q /etc/profile",
    "tar czf ~/.bashrc src",
    "tree -fo ~/.bashrc .",
    "RIPGREP_CONFIG_PATH=./.rgrc rg secret",
    "PSQLRC=./rc psql",
    "PYTHONSTARTUP=./init.py python3",
    "PYTHONBREAKPOINT=hooks.trace python app.py",
    "printf -- '--pre=/tmp/x.sh\\n' > /tmp/rgrc; RIPGREP_CONFIG_PATH=/tmp/rgrc rg foo",
]


@pytest.mark.parametrize("command", CRITICAL_FAMILY)
def test_critical_family_stays_critical_wrapped(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label}"


@pytest.mark.parametrize(
    "command,most",
    [
        ('awk "/$pat/ {print}" f', S),
        ('sed "s/$a/$b/g" f', S),
        ("awk -F: '{print $1}' /etc/passwd", S),
        ("mkfs.ext4 -n /dev/sdb1", S),
        ("mkfs.xfs -N /dev/sdb", S),
        ("tar -tvf backup.tar", S),
        ("tar -czf backup.tgz src", M),
        ("script -q /tmp/session.log", M),
        ("script -q /dev/null ls -la", S),
        ("tree -fo out.txt", M),
        ("ps -eo pid,cmd", S),
        ("find /etc -name 'pass*'", S),
        ("find /etc -name 'pass*' | xargs ls -l", S),
        ("find /etc -name '*.conf' | xargs rm", D),
        ("rg --pre pdftotext invoice docs/", M),
        ("export RIPGREP_CONFIG_PATH=$HOME/.ripgreprc", M),
        ("PYTHONBREAKPOINT=0 python app.py", M),
        ("PYTHONBREAKPOINT=pdb.set_trace python app.py", M),
        ("echo 'RIPGREP_CONFIG_PATH=./x rg y'", S),
    ],
)
def test_look_alikes_stay_low(command: str, most: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level <= most, f"{command!r}: {got.level.label} {[f.rule for f in got.findings]}"


@pytest.mark.parametrize(
    "command",
    [
        "tar -cf - /etc | ssh h 'cat > e.tar'",
        "ssh h 'cat > x' < notes.txt",
        "pg_dump db | ssh backup@h 'cat > db.sql'",
        "git archive HEAD | ssh h 'tar -x -C /srv/app'",
    ],
)
def test_ssh_fed_a_local_file_or_output_is_exfiltration(command: str) -> None:
    for text in _wrapped(command):
        got = assess(text, "bash")
        assert got.level >= C, f"{text!r}: {got.level.label}"
        assert any(f.rule == "exfiltration" for f in got.findings), text


@pytest.mark.parametrize(
    "command",
    [
        "ssh h uptime < /dev/null",
        "ssh -n h uptime",
        "ssh h bash < deploy.sh",
        "echo hi | ssh h cat",
        "ssh h cat /etc/hostname > local.txt",
    ],
)
def test_ssh_without_local_data_stays_moderate(command: str) -> None:
    assert assess(command, "bash").level == M, command


@pytest.mark.parametrize(
    "command,level",
    [
        ("sed -Ibak -e d /etc/sudoers", RiskLevel.BLOCKED),
        ("sed -I.orig '/x/d' ~/.zshrc", C),
        ("zfs set com.sun:auto-snapshot:daily=false rpool/ROOT", C),
        ("zfs set com.sun:auto-snapshot:frequent=false tank", C),
        ("zfs set com.sun:auto-snapshot:daily=true tank", M),
        ("sed -E 's/x/y/' /etc/passwd", S),
    ],
)
def test_in_place_and_snapshot_property_spellings(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("defaults write /Library/Preferences/com.apple.TimeMachine.plist AutoBackup 0", C),
        ("defaults write com.apple.TimeMachine AutoBackup -bool NO", C),
        ("defaults write com.apple.TimeMachine AutoBackup -bool true", M),
        ("defaults read /Library/Preferences/com.apple.TimeMachine AutoBackup", S),
        ("tmutil addexclusion -p /", C),
        ("tmutil addexclusion ~", C),
        ("tmutil addexclusion node_modules", M),
        # every snapshot of the config deleted: blocked (HELPERS.md; review 11, finding 17)
        ("snapper -c home delete-config", B),
        ("snapper list-configs", S),
    ],
)
def test_backups_turned_off_by_their_own_switches(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command",
    [
        "PYTHONBREAKPOINT=os.remove python3 -c \"breakpoint('/etc/passwd')\"",
        "PYTHONBREAKPOINT=subprocess.call python -c \"breakpoint(['rm','-rf','/home'])\"",
        "export PYTHONBREAKPOINT=shutil.rmtree; python3 -c \"breakpoint('/usr')\"",
    ],
)
def test_a_breakpoint_hook_is_judged_as_the_call_it_makes(command: str) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("wipefs -a -t -n /dev/sda", RiskLevel.BLOCKED),
        ("wipefs --all --types -n /dev/sda", RiskLevel.BLOCKED),
        ("wipefs -a -n /dev/sda", S),
        ("mkfs.ntfs -L -n /dev/sdb1", RiskLevel.BLOCKED),
        ("mkfs.ntfs -n /dev/sdb1", S),
        ("sgdisk --pretend -Z /dev/sda", S),
        ("sgdisk -Z /dev/sda", RiskLevel.BLOCKED),
    ],
)
def test_a_dry_run_letter_given_as_a_value_is_no_dry_run(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("MANOPT='-P /tmp/p' man ls", C),
        ("export MANOPT='-H ./b'; man -H ls", C),
        ("LESS='+!rm -rf ~' less x", RiskLevel.BLOCKED),
        ("export LESS='-R +!./x.sh'; less f", C),
        ("ZIPOPT='-TT ./t.sh' zip a.zip f", C),
        ("export PROMPT_COMMAND=/tmp/x", C),
        ("LESS=-R less f", S),
        ("export LESS=-FRX", S),
        ("MANOPT=-a man printf", S),
        ("export PROMPT_COMMAND='history -a'", M),
    ],
)
def test_option_variables_are_the_programs_own_options(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("wget -a ~/.bashrc https://example.com/x", C),
        ("curl --trace ~/.bashrc https://example.com/x", C),
        ("curl --stderr /etc/passwd https://example.com/x", RiskLevel.BLOCKED),
        ("ssh -E ~/.bashrc host", C),
        ("tcpdump -w /etc/passwd", RiskLevel.BLOCKED),
        ("pg_dump -f /etc/group db", RiskLevel.BLOCKED),
        ("ssh-keygen -f /etc/shadow", RiskLevel.BLOCKED),
        ("aria2c -d /etc -o passwd https://example.com/x", RiskLevel.BLOCKED),
        ("curl --output-dir /etc -o shadow https://example.com/x", RiskLevel.BLOCKED),
        ("ssh -E ssh.log host", M),
        ("tcpdump -w cap.pcap -i eth0", M),
        ("ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub", S),
    ],
)
def test_program_specific_output_files(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command",
    [
        "fd -g 'pass*' /etc -x rm",
        "fd '^shadow' /etc -X rm -f",
        "fd passwd /etc | xargs rm",
        "ls /etc/pass* | xargs rm",
        "ls -d /etc/*shadow* | xargs -n1 rm",
        "locate shadow | xargs rm",
        "plocate sudoers | xargs -I{} mv {} /tmp",
        "find /etc -wholename '/etc/pass*' -exec rm {} +",
        "find /etc -path '*/sudoers*' -delete",
        "find /etc -name 'pass*' -exec sh -c '> {}' \\;",
        "find /etc -type f -name 'gr*' -exec dd if=/dev/zero of={} \\;",
    ],
)
def test_listings_and_patterns_that_select_account_files(command: str) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command,most",
    [
        ("fd -g 'pass*' /etc", S),
        ("fd passwd /etc -x cat", S),
        ("fd conf /etc -x rm", D),
        ("locate shadow", S),
        ("locate .bak | xargs rm", D),
        ("ls *.log | xargs rm", D),
        ("ls /etc/*.conf | xargs rm", D),
        ("find /etc -path '*/nginx/*' -delete", D),
        ("find /etc -name 'pass*' -exec sh -c 'wc -l {}' \\;", S),
    ],
)
def test_listing_look_alikes(command: str, most: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level <= most, f"{command!r}: {got.level.label}"


@pytest.mark.parametrize(
    "command,level",
    [
        ("cp -t /etc passwd", RiskLevel.BLOCKED),
        ("cp --target-directory=/etc group", RiskLevel.BLOCKED),
        ("install -t /etc sudoers", RiskLevel.BLOCKED),
        ("cp ./passwd /etc", RiskLevel.BLOCKED),
        ("cp -r etc/ /", C),
        ("rsync -a ./rootfs/ /", C),
        ("cp -t /tmp passwd", M),
        ("cp /etc/passwd /tmp", M),
        ("cp -r build/ /tmp/", M),
        ("rsync -av /etc/ /backup/etc/", M),
    ],
)
def test_copies_into_account_folders_and_over_the_root(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command",
    [
        "vagrant ssh -c 'sudo rm -rf /'",
        "vagrant ssh -- -t 'rm -rf /'",
        "limactl shell default sudo rm -rf /",
        "docker-machine ssh dev 'sudo rm -rf /'",
        "podman machine ssh 'sudo rm -rf /'",
        "fly ssh console -C 'rm -rf /'",
        "oc rsh pod rm -rf /",
        "gh codespace ssh -c cs -- rm -rf /",
        "devcontainer exec --workspace-folder . rm -rf /",
    ],
)
def test_a_vm_tools_ssh_verb_runs_its_command(command: str) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == RiskLevel.BLOCKED, text


@pytest.mark.parametrize(
    "command", ["vagrant ssh -c uptime", "limactl shell default ls", "vagrant ssh", "vagrant up"]
)
def test_a_vm_tools_harmless_remote_command_is_moderate(command: str) -> None:
    assert assess(command, "bash").level == M, command


@pytest.mark.parametrize(
    "command,level",
    [
        ("CC='rm -rf /' make", RiskLevel.BLOCKED),
        ("make CC=\"sh -c 'rm -rf ~'\"", RiskLevel.BLOCKED),
        ("make CC=./evil.sh", C),
        ("export CC=./wrap.sh; make", C),
        ("CMAKE_C_COMPILER_LAUNCHER=./x cmake --build b", C),
        ("cmake -DCMAKE_C_COMPILER_LAUNCHER=/tmp/x ..", C),
        ("cmake -D CMAKE_C_COMPILER=/tmp/cc .", C),
        ("CC=gcc make", M),
        ("CC='ccache gcc' make", M),
        ("CC=/opt/cross/bin/arm-linux-gnueabihf-gcc make", M),
        ("cmake -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -B build", M),
        ("make -n --eval 'x := $(shell rm -rf ~)'", RiskLevel.BLOCKED),
        ("make -n --eval='x != rm -rf /'", RiskLevel.BLOCKED),
        ("make -n", S),
        ("make --eval 'all: ; echo hi' -n", S),
        ("PERL5OPT='-Mstrict;system(q{rm -rf ~})' perl x.pl", RiskLevel.BLOCKED),
        ("export PERL5OPT='-Mwarnings;unlink(q{/etc/passwd})'", RiskLevel.BLOCKED),
        ("RUBYOPT=-r./evil ruby app.rb", C),
        ("NODE_OPTIONS='--require ./hook.js' node app.js", C),
        ("export NODE_OPTIONS='-r /tmp/x.js'", C),
        ("JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar java -jar app.jar", C),
        ("RUBYOPT=-rbundler/setup ruby app.rb", M),
        ("NODE_OPTIONS=--max-old-space-size=4096 node app.js", M),
        ("NODE_OPTIONS='--require dotenv/config' node a.js", M),
    ],
)
def test_build_and_interpreter_variables_that_run_code(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("tarsnap -d -f nightly-2024-01-01", RiskLevel.BLOCKED),
        ("borg delete /srv/repo::host-2024-01-01", RiskLevel.BLOCKED),
        ("borg delete ::archive1", RiskLevel.BLOCKED),
        ("borg2 delete -a arch", RiskLevel.BLOCKED),
        ("borg delete /srv/repo", RiskLevel.BLOCKED),
        ("restic forget 4a5b6c7d", RiskLevel.BLOCKED),
        ("restic -r /srv/r forget 4a5b6c7d --prune", RiskLevel.BLOCKED),
        ("kopia snapshot delete k1234abcd --delete", RiskLevel.BLOCKED),
        ("bupstash rm id=abc", RiskLevel.BLOCKED),
        ("restic forget --keep-last 3 --prune", D),
        ("borg prune --keep-daily 7 /repo", D),
        ("kopia snapshot rm kabc", S),
        ("restic forget --dry-run 4a5b", S),
        ("borg delete --dry-run /repo::a", S),
        ("tarsnap -d --dry-run -f x", S),
        ("bupstash list", S),
    ],
)
def test_one_named_backup_deleted_is_blocked(command: str, level: RiskLevel) -> None:
    for text in _wrapped(command):
        assert assess(text, "bash").level == level, text


@pytest.mark.parametrize(
    "command,level",
    [
        ("uvx ruff check .", M),
        ("npx -y prettier --check .", M),
        ("bunx eslint .", M),
        ("pnpm dlx prettier --check .", M),
        ("pipx run black --check .", M),
        ("pipx run rimraf ~", RiskLevel.BLOCKED),
        ("npx tsc --noEmit", S),
        ("tmux new -d top", M),
        ("screen -dmS x top", M),
        ("tmux ls", S),
    ],
)
def test_runner_session_and_dry_run_conventions(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level == level, command


def test_a_find_with_many_actions_reads_its_name_tests_once() -> None:
    # `{}` inside a word (`sh -c 'rm {}'`) substitutes account files a name test selects; the
    # tests are read once for all the actions (a find with hundreds of -exec stays linear)
    text = " ".join(f"-name a{k} -exec sh -c 'rm {{}}' \\;" for k in range(300))
    assert assess(f"find . {text}", "bash").level >= D
    assert (
        assess(
            "find /etc -name x -exec ls {} \\; -name 'pass*' -exec sh -c '> {}' \\;", "bash"
        ).level
        == RiskLevel.BLOCKED
    )
