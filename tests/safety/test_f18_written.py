# ruff: noqa: E501
"""f18: files written in the block, then run indirectly by a tool that picks them up.

One mechanism (aintern_ls/safety/pickups.py): the block's written-file table plus a table of
"tool X picks up file Y and runs it with reader R"; the reader's text is judged with the
same rules as the command line. Each family: bare, wrapped (sudo/env/a function/sh -c),
across shells, and the look-alikes that must stay low (written but not run, benign content,
the words only printed or read).
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S

PY_WIPE = "import shutil\nshutil.rmtree('/usr')\n"
CONFTEST = f"cat > conftest.py <<'EOF'\n{PY_WIPE}EOF\n"
HOOK_PROJ = (
    '<Project><Target Name="Build"><Exec Command="rd /s /q C:\\Windows" /></Target></Project>'
)

BLOCKED_BASH = [
    # test runners: configuration and test files they import
    CONFTEST + "pytest -q",
    CONFTEST + "python3 -m pytest tests",
    CONFTEST + "uv run pytest",
    "cat > test_a.py <<'EOF'\nimport os\nos.system('rm -rf ~')\nEOF\npy.test",
    "cat > noxfile.py <<'EOF'\nimport shutil\nshutil.rmtree('/etc')\nEOF\nnox -s lint",
    "cat > tasks.py <<'EOF'\nimport shutil\nshutil.rmtree('/etc')\nEOF\ninv build",
    "cat > fabfile.py <<'EOF'\nimport os\nos.system('rm -rf /')\nEOF\nfab deploy",
    "echo 'FileUtils.rm_rf(Dir.home)' > spec/a_spec.rb && bundle exec rspec",
    "echo \"require('child_process').execSync('rm -rf ~')\" > jest.config.js && npx jest",
    "echo \"require('fs').rmSync('/etc', {recursive: true})\" > a.test.js && yarn jest",
    "echo \"require('fs').rmSync('/usr', {recursive: true})\" > vite.config.mjs && pnpm vitest",
    # installers: setup.py runs while pip builds the project
    "printf 'import os\\nos.system(\"rm -rf ~\")\\n' > setup.py && pip install .",
    "printf 'import os\\nos.system(\"rm -rf ~\")\\n' > setup.py && python -m pip install -e .",
    # build engines
    "cat > w.proj <<'EOF'\n" + HOOK_PROJ.replace("rd /s /q C:\\Windows", "rm -rf ~") + "\nEOF\n"
    "dotnet msbuild w.proj",
    'cat > build.xml <<\'EOF\'\n<project><target name="t"><delete dir="/etc"/></target>'
    "</project>\nEOF\nant t",
    "echo \"'rm -rf ~'.execute()\" > init.gradle && gradle -I init.gradle build",
    # git: configuration the block wrote
    "printf '[alias]\\n\\tx = !rm -rf ~\\n' >> .git/config && git x",
    "echo '[alias] x = \"!rm -rf /\"' >> ~/.gitconfig; git x --force",
    "git config alias.sync '!rm -rf ~'; git sync",
    "git config set alias.sync '!rm -rf ~'; git sync",
    "git config filter.f.smudge 'rm -rf ~'; git checkout main",
    "git config merge.m.driver 'rm -rf /'; git merge feature",
    # startup files
    "echo 'rm -rf ~' >> ~/.bashrc; bash -i",
    "echo 'rm -rf ~' >> ~/.bash_profile; bash --login -c true",
    "echo 'rm -rf /' > ~/.zshenv; zsh -c 'echo hi'",
    "printf 'rm -rf /\\n' > init.sh; bash --init-file init.sh",
    # compilers: source on stdin, then the program run
    "gcc -x c -o w - <<'EOF'\nint main(){ system(\"rm -rf ~\"); }\nEOF\n./w",
    "rustc -o w - <<'EOF'\nfn main(){ std::fs::remove_dir_all(\"/etc\").unwrap(); }\nEOF\n./w",
]

BLOCKED_CMD = [
    "echo " + HOOK_PROJ.replace("<", "^<").replace(">", "^>") + " > w.proj & msbuild w.proj",
    '(\necho ^<Project^>\necho ^<Target Name="B"^>\necho ^<Exec Command="format C: /q /y" /^>\n'
    "echo ^</Target^>\necho ^</Project^>\n) > b.targets\nmsbuild b.targets /t:B",
    "(echo all:& echo   rd /s /q C:\\Windows) > Makefile & nmake",
    "echo [alias] >> .git\\config & echo   x = !rm -rf ~ >> .git\\config & git x",
    "echo import shutil; shutil.rmtree('C:/Windows') > conftest.py & python -m pytest",
    "(echo [testenv]& echo commands = rd /s /q C:\\Windows) > tox.ini & tox -e py",
    'echo CreateObject("WScript.Shell").Run "cmd /c rd /s /q C:\\Windows", 0 > w.vbs & w.vbs',
    'echo CreateObject("WScript.Shell").Run "cmd /c rd /s /q C:\\Windows", 0 > w.js & start w.js',
    "echo rd /s /q C:\\Windows > w.bat & explorer.exe w.bat",
    "echo rd /s /q C:\\Windows > w.bat\n(echo [InternetShortcut]& echo URL=file:///w.bat) > w.url"
    "\nstart w.url",
    "(echo REGEDIT4& echo [-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\RpcSs])"
    " > w.reg & start w.reg",
    'echo int main(){ system("rd /s /q C:\\\\Windows"); } > w.c & cl /Fe:w.exe w.c & w.exe',
]

BLOCKED_PS = [
    "Set-Content conftest.py \"import shutil`nshutil.rmtree('C:/Windows')\"; pytest",
    f"Set-Content w.proj '{HOOK_PROJ}'; dotnet msbuild w.proj",
    f"[IO.File]::WriteAllText('w.targets', '{HOOK_PROJ}'); msbuild.exe w.targets",
    'Add-Content .git/config "[alias]`n  x = !rm -rf ~"; git x',
    'Set-Content w.vbs \'CreateObject("WScript.Shell").Run "cmd /c format C: /q /y", 0\';'
    " Invoke-Item w.vbs",
    "Set-Content w.cmd 'rd /s /q C:\\Windows'; ii .\\w.cmd",
    'Set-Content w.reg "REGEDIT4`n[-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services'
    '\\SamSs]"; Invoke-Item w.reg',
    "Add-Content $PROFILE 'Remove-Item -Recurse -Force C:\\Windows'; pwsh -Command Get-Date",
    "Set-Content $PROFILE 'Remove-Item -Recurse -Force C:\\Windows'; . $PROFILE",
    'Set-Content w_test.go \'package w\nimport "os"\nfunc init() { os.RemoveAll("C:/Windows")'
    " }'; go test .",
]

LOW = [
    # written, never run (a write)
    ("bash", CONFTEST.rstrip("\n"), M),
    # (n20u) an alias that runs a readable blocked command, persisted in git's configuration
    # for later: blocked (the session-19 rule for every persistence door), no longer low
    ("bash", "printf '[alias]\\n\\tx = !rm -rf ~\\n' >> .git/config", B),
    ("cmd", "echo " + HOOK_PROJ.replace("<", "^<").replace(">", "^>") + " > w.proj", M),
    ("powershell", f"Set-Content w.proj '{HOOK_PROJ}'", M),
    ("powershell", "Set-Content w.vbs 'MsgBox \"hi\"'; Get-Content w.vbs", M),
    ("bash", "gcc -x c -o w - <<'EOF'\nint main(){ system(\"rm -rf ~\"); }\nEOF", M),
    # benign content, run
    ("bash", "printf 'import pytest\\n' > conftest.py && pytest -q", M),
    ("bash", "printf '[alias]\\n\\tst = status -sb\\n' >> .git/config && git st", M),
    ("cmd", 'echo ^<Project^>^<Target Name="B"^>^</Target^>^</Project^> > w.proj & msbuild', M),
    ("powershell", "Set-Content w.bat 'echo hello'; Invoke-Item w.bat", M),
    ("powershell", "Set-Content notes.txt 'rd /s /q C:\\Windows'; Invoke-Item notes.txt", M),
    ("powershell", "Set-Content w.ps1 'Remove-Item -Recurse C:\\Windows'; Invoke-Item w.ps1", M),
    ("bash", "echo 'echo hi' > rc.sh; bash --norc -i", M),
    # (f19: a readable blocked body persisted in $PROFILE is blocked whether or not this
    # block loads it, HELPERS' persistence label and the lead's session-19 note)
    ("powershell", "Add-Content $PROFILE 'rd C:\\Windows -Recurse'; pwsh -NoProfile -c dir", B),
    # the tool run on files the block did not write
    ("bash", "pytest -q tests/", M),  # (a test suite run: moderate, h19's convention)
    ("cmd", "msbuild app.proj /t:Build", M),
    # only printed, searched or read
    ("bash", "echo 'import shutil; shutil.rmtree(\"/\")  # never put this in conftest.py'", S),
    ("bash", "cat conftest.py", S),
    ("bash", "grep -n '!rm' .git/config", S),
    ("cmd", "echo rd /s /q C:\\Windows", S),
    ("cmd", "type w.proj", S),
]


@pytest.mark.parametrize("command", BLOCKED_BASH)
def test_bash_pickup_blocked(command: str) -> None:
    assert assess(command, "bash").level == B, command


@pytest.mark.parametrize("command", BLOCKED_CMD)
def test_cmd_pickup_blocked(command: str) -> None:
    assert assess(command, "cmd").level == B, command


@pytest.mark.parametrize("command", BLOCKED_PS)
def test_powershell_pickup_blocked(command: str) -> None:
    assert assess(command, "powershell").level == B, command


@pytest.mark.parametrize("shell,command,level", LOW)
def test_look_alikes_stay_low(shell: str, command: str, level: RiskLevel) -> None:
    got = assess(command, shell).level
    if level == S:
        assert got <= M, (command, got)
    else:
        assert got == level, (command, got)


# The tool run through a wrapper keeps the level (sudo, env, a function, sh -c, eval).
_WRAPS = [
    "sudo {}",
    "env CI=1 {}",
    "f() {{ {}; }}; f",
    "sh -c '{}'",
    "timeout 60 {}",
]
_RUNS = ["pytest -q", "git x", "dotnet msbuild w.proj", "bash -i"]
_WRITES = {
    "pytest -q": CONFTEST,
    "git x": "printf '[alias]\\n\\tx = !rm -rf ~\\n' >> .git/config\n",
    "dotnet msbuild w.proj": "cat > w.proj <<'EOF'\n<Project><Target Name=\"B\"><Exec"
    ' Command="rm -rf ~" /></Target></Project>\nEOF\n',
    "bash -i": "echo 'rm -rf ~' >> ~/.bashrc\n",
}


@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize("run", _RUNS)
def test_wrapped_tool_keeps_blocked(wrap: str, run: str) -> None:
    command = _WRITES[run] + wrap.format(run)
    assert assess(command, "bash").level == B, command


def test_reason_names_the_written_file_and_its_tool() -> None:
    a = assess(CONFTEST + "pytest", "bash")
    assert any("conftest.py" in f.reason and "pytest" in f.reason for f in a.findings)
    b = assess("git config alias.sync '!rm -rf ~'; git sync", "bash")
    assert any("alias sync" in f.reason for f in b.findings if f.level == B)


def test_git_config_alias_without_a_run_is_persistence() -> None:
    # stored, not run: persistence; (n20u) its body is readable and blocked, so blocked (the
    # session-19 rule for every persistence door; f18 had it critical)
    assert assess("git config alias.sync '!rm -rf ~'", "bash").level == B
    assert assess("git config alias.sync '!./sync.sh'", "bash").level == C


# Interpreters' and tools' own startup files, files named by their command-file options, and
# shortcuts a script writes (batch 2).
BLOCKED_STARTUP = [
    ("bash", "echo 'shell rm -rf ~' > .gdbinit && gdb -q ./a.out"),
    ("bash", "printf 'shell rm -rf /\\n' > t.cmds; gdb -batch --command t.cmds ./a.out"),
    ("bash", "echo '\\! rm -rf ~' >> ~/.psqlrc; psql -d app"),
    ("bash", "echo '\\! rm -rf /' > x.sql; psql -f x.sql"),
    ("bash", "echo 'silent !rm -rf ~' >> ~/.vimrc; nvim"),
    ("bash", "echo '!rm -rf ~' > x.vim && vim -S x.vim notes.txt"),
    ("bash", "echo 'run-shell -b \"rm -rf ~\"' > t.conf && tmux -f t.conf new -d"),
    ("bash", "echo 'system(\"rm -rf ~\")' > .Rprofile && R -q"),
    (
        "bash",
        "echo 'import shutil; shutil.rmtree(\"/etc\")' > usercustomize.py; python3 -m http.server",
    ),
    ("bash", "echo 'system(\"rm -rf ~\")' > .irbrc; IRBRC=.irbrc irb"),
    (
        "powershell",
        "$l = (New-Object -ComObject WScript.Shell).CreateShortcut('C:\\t\\w.lnk');"
        " $l.TargetPath = 'cmd.exe'; $l.Arguments = '/c format C: /q /y'; $l.Save();"
        " Start-Process C:\\t\\w.lnk",
    ),
]
STARTUP_LOW = [
    ("bash", "echo 'shell rm -rf ~' > t.cmds; gdb -nx ./a.out", M),
    ("bash", "echo '!rm -rf ~' > x.vim && vim -u NONE notes.txt", M),
    ("bash", "echo 'set number' > x.vim && vim -u x.vim notes.txt", M),
    ("bash", "printf 'break main\\nrun\\n' > t.gdb; gdb -batch -x t.gdb ./a.out", M),
    ("bash", "echo 'shell rm -rf ~' > t.gdb; cat t.gdb", M),
]


@pytest.mark.parametrize("shell,command", BLOCKED_STARTUP)
def test_startup_and_command_files_blocked(shell: str, command: str) -> None:
    assert assess(command, shell).level == B, command


@pytest.mark.parametrize("shell,command,level", STARTUP_LOW)
def test_startup_look_alikes(shell: str, command: str, level: RiskLevel) -> None:
    assert assess(command, shell).level == level, command


@pytest.mark.parametrize("wrap", ["sudo {}", "env TERM=xterm {}", "f() {{ {}; }}; f", "sh -c '{}'"])
def test_startup_files_wrapped(wrap: str) -> None:
    command = "echo 'shell rm -rf ~' > .gdbinit\n" + wrap.format("gdb -q ./a.out")
    assert assess(command, "bash").level == B, command


TF_EXEC = (
    'cat > main.tf <<\'EOF\'\nresource "null_resource" "x" {\n  provisioner "local-exec" {\n'
    '    command = "rm -rf ~"\n  }\n}\nEOF\n'
)
BLOCKED_BATCH3 = [
    ("bash", TF_EXEC + "terraform apply -auto-approve"),
    ("bash", TF_EXEC + "tofu destroy -auto-approve"),
    (
        "bash",
        'cat > m.tf <<\'EOF\'\ndata "external" "x" {\n  program = ["rm", "-rf", "/"]\n}\n'
        "EOF\nterraform plan",
    ),
    (
        "bash",
        "cat > lefthook.yml <<'EOF'\npre-push:\n  commands:\n    x:\n      run: rm -rf /\nEOF\nlefthook run pre-push",
    ),
    (
        "bash",
        "cat > Program.cs <<'EOF'\nSystem.IO.Directory.Delete(\"/etc\", true);\nEOF\ndotnet run",
    ),
    (
        "bash",
        "cat > ATest.java <<'EOF'\nclass ATest { static { try { Runtime.getRuntime().exec(\"rm -rf /\"); } catch (Exception e) {} } }\nEOF\n./mvnw test",
    ),
    (
        "powershell",
        "New-Item -Path w.cmd -ItemType File -Value 'format C: /q /y'; Invoke-Item w.cmd",
    ),
    (
        "powershell",
        "[IO.File]::WriteAllLines('w.bat', @('@echo off', 'rd /s /q C:\\Windows')); explorer.exe w.bat",
    ),
]
LOW_BATCH3 = [
    ("bash", TF_EXEC + "terraform plan", M),  # (provisioners run at apply, not plan)
    ("bash", TF_EXEC + "terraform validate", M),
    ("bash", "cat > Program.cs <<'EOF'\nSystem.Console.WriteLine(1);\nEOF\ndotnet run", M),
    ("powershell", "New-Item -Path logs -ItemType Directory", M),
]


@pytest.mark.parametrize("shell,command", BLOCKED_BATCH3)
def test_more_tools_blocked(shell: str, command: str) -> None:
    assert assess(command, shell).level == B, command


@pytest.mark.parametrize("shell,command,level", LOW_BATCH3)
def test_more_tools_look_alikes(shell: str, command: str, level: RiskLevel) -> None:
    assert assess(command, shell).level <= level, command


# Schedulers and service managers that start a job file written above, JavaScript runtimes'
# test runners, Pester and PowerShell modules (batch 4).
BLOCKED_BATCH4 = [
    ("bash", "printf '@reboot rm -rf /\\n' > j; crontab j"),
    (
        "bash",
        "printf '[Service]\\nExecStart=/bin/rm -rf ~\\n' > ~/.config/systemd/user/x.service; systemctl --user start x",
    ),
    (
        "bash",
        "cat > x.service <<'EOF'\n[Service]\nExecStop=-/bin/rm -rf /etc\nEOF\nsudo systemctl enable ./x.service",
    ),
    (
        "bash",
        "cat > p.plist <<'EOF'\n<plist><dict><key>Program</key><string>/tmp/w.sh</string></dict></plist>\nEOF\nprintf 'rm -rf ~\\n' > /tmp/w.sh; launchctl bootstrap gui/501 p.plist",
    ),
    ("bash", "echo \"require('fs').rmSync('/usr', {recursive: true})\" > a.spec.ts && bun test"),
    (
        "bash",
        "echo 'Deno.removeSync(\"/\", { recursive: true })' > a.test.ts && deno test --allow-all",
    ),
    (
        "powershell",
        "Set-Content a.Tests.ps1 'Remove-Item C:\\Windows -Recurse -Force'; Invoke-Pester -Path .",
    ),
    ("powershell", "Set-Content m.psm1 'Remove-Item C:\\Users -Recurse -Force'; ipmo ./m.psm1"),
]
LOW_BATCH4 = [
    ("bash", "printf '@reboot rm -rf /\\n' > j; crontab -l", M),
    ("bash", "printf '[Service]\\nExecStart=/bin/rm -rf ~\\n' > x.service; systemctl status x", M),
    (
        "bash",
        "echo \"require('fs').rmSync('/usr', {recursive: true})\" > a.test.js && node a.js",
        M,
    ),
    (
        "powershell",
        "Set-Content m.psm1 'Remove-Item C:\\Users -Recurse -Force'; Import-Module PSReadLine",
        M,
    ),
]


@pytest.mark.parametrize("shell,command", BLOCKED_BATCH4)
def test_jobs_and_runtimes_blocked(shell: str, command: str) -> None:
    assert assess(command, shell).level == B, command


@pytest.mark.parametrize("shell,command,level", LOW_BATCH4)
def test_jobs_and_runtimes_look_alikes(shell: str, command: str, level: RiskLevel) -> None:
    assert assess(command, shell).level <= level, command


# Infrastructure and CI tools whose program or job runs on this machine (batch 5).
BLOCKED_BATCH5 = [
    (
        "bash",
        "cat > p.yml <<'EOF'\n- hosts: 127.0.0.1\n  tasks:\n    - name: x\n      ansible.builtin.shell:\n        cmd: rm -rf /etc\nEOF\nansible-playbook p.yml",
    ),
    (
        "bash",
        "cat > index.ts <<'EOF'\nimport { rmSync } from 'fs'; rmSync('/usr', { recursive: true });\nEOF\npulumi preview",
    ),
    (
        "bash",
        "printf 'j:\\n  script:\\n    - rm -rf /\\n' > .gitlab-ci.yml && gitlab-runner exec shell j",
    ),
]
LOW_BATCH5 = [
    # a play for other machines: their commands are not this machine's
    (
        "bash",
        "cat > p.yml <<'EOF'\n- hosts: web\n  tasks:\n    - shell: rm -rf /srv/old\nEOF\nansible-playbook -i inv p.yml",
        D,
    ),
    ("bash", "cat > index.js <<'EOF'\nconsole.log('plan');\nEOF\npulumi preview", M),
]


@pytest.mark.parametrize("shell,command", BLOCKED_BATCH5)
def test_local_infra_blocked(shell: str, command: str) -> None:
    assert assess(command, shell).level == B, command


@pytest.mark.parametrize("shell,command,level", LOW_BATCH5)
def test_local_infra_look_alikes(shell: str, command: str, level: RiskLevel) -> None:
    assert assess(command, shell).level <= level, command


@pytest.mark.parametrize(
    "command",
    [
        "> conftest.py echo 'import os; os.system(\"rm -rf ~\")'; pytest",
        ">x.sh echo 'rm -rf ~'; bash x.sh",
        "2>/dev/null >> .git/config printf '[alias]\\n\\tz = !rm -rf /\\n'; git z",
    ],
)
def test_redirect_before_the_command_word_writes_the_file(command: str) -> None:
    assert assess(command, "bash").level == B, command


def test_redirect_before_the_command_word_of_harmless_text_stays_a_write() -> None:
    assert assess("> notes.txt echo 'rm -rf ~'; cat notes.txt", "bash").level == M
