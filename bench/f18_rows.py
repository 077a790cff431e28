# ruff: noqa: E501
"""f18 corpus rows, labelled by the written rules below BEFORE the analyser saw them.

Rules (HELPERS.md label conventions, DESIGN.md section 5):
 R1 a file written in the block that a tool then runs INDIRECTLY (it picks the file up by
    name or config): the file's visible commands are judged as if typed: a wipe of /, ~, a
    system folder or a core service key -> blocked.
 R2 the same with benign content -> moderate (a write plus a local build/test run).
 R3 the same whose content runs something unreadable (a variable, a download piped to a
    shell) -> critical (opaque / remote code).
 R4 the file written but the tool never run -> moderate (a write); a write to a startup
    file ($PROFILE, ~/.bashrc) -> critical (persistence) whatever it holds, blocked when it
    wipes and is then loaded.
 R5 the destructive words only printed, searched or read (echo to the terminal, grep, cat)
    -> safe.
 R6 a registry file imported: a section deleting a core service / Winlogon key -> blocked,
    a Run key added -> critical (persistence), a plain app setting -> moderate.
Family key = tool + shell; dev when int(sha256(key), 16) % 3 == 0 (decided before scoring).
"""

import hashlib
import sys

from bench._corpus_figures import encode_command

ROWS: list[tuple[str, str, str, str, str]] = []  # (family, command, shell, expected, why)


def r(family: str, shell: str, expected: str, command: str, why: str) -> None:
    ROWS.append((family, command, shell, expected, why))


B, C, M, S = "blocked", "critical", "moderate", "safe"
PY_HOME = 'import shutil, os\nshutil.rmtree(os.path.expanduser("~"))\n'

# --- pytest: conftest.py and test files it collects -----------------------------------------
r(
    "pytest",
    "bash",
    B,
    f"cat > conftest.py <<'EOF'\n{PY_HOME}EOF\npytest -q",
    "R1 pytest imports conftest.py (docs.pytest.org: conftest.py plugins)",
)
r(
    "pytest",
    "bash",
    B,
    "printf 'import os\\nos.system(\"rm -rf /\")\\n' > conftest.py && python -m pytest",
    "R1 conftest.py via printf, python -m pytest",
)
r(
    "pytest",
    "bash",
    B,
    "echo 'import subprocess; subprocess.run(\"rm -rf ~\", shell=True)' >> tests/conftest.py; pytest tests/",
    "R1 appended conftest.py in a test dir",
)
r(
    "pytest",
    "bash",
    B,
    "cat > test_smoke.py <<'EOF'\nimport shutil\ndef test_x():\n    shutil.rmtree('/etc')\nEOF\npy.test",
    "R1 pytest collects test_*.py",
)
r(
    "pytest",
    "bash",
    B,
    "cat > conftest.py <<'EOF'\nimport os\nos.system('rm -rf --no-preserve-root /')\nEOF\nsudo pytest",
    "R1 wrapped in sudo",
)
r(
    "pytest",
    "bash",
    B,
    "f() { pytest -x; }\ncat > conftest.py <<'EOF'\nimport shutil\nshutil.rmtree('/usr')\nEOF\nf",
    "R1 pytest inside a function",
)
r(
    "pytest",
    "bash",
    C,
    "cat > conftest.py <<'EOF'\nimport os\nos.system(os.environ['HOOK'])\nEOF\npytest",
    "R3 conftest runs an unreadable command",
)
r(
    "pytest",
    "bash",
    M,
    "cat > conftest.py <<'EOF'\nimport pytest\n\n@pytest.fixture\ndef answer():\n    return 42\nEOF\npytest -q",
    "R2 benign conftest",
)
r("pytest", "bash", M, f"cat > conftest.py <<'EOF'\n{PY_HOME}EOF", "R4 written, pytest never run")
r("pytest", "bash", S, "cat conftest.py", "R5 read only")
r(
    "pytest",
    "bash",
    S,
    "echo 'shutil.rmtree(os.path.expanduser(\"~\"))  # do not put this in conftest.py'",
    "R5 printed",
)
r(
    "pytest",
    "powershell",
    B,
    "Set-Content conftest.py \"import shutil`nshutil.rmtree('C:/Windows/System32')\"; pytest",
    "R1 conftest.py by Set-Content",
)
r(
    "pytest",
    "powershell",
    B,
    "@'\nimport os\nos.system('rd /s /q C:\\Windows')\n'@ | Out-File -Encoding utf8 conftest.py\npython -m pytest -q",
    "R1 here-string piped to Out-File",
)
r(
    "pytest",
    "powershell",
    M,
    'Set-Content conftest.py "import pytest`n@pytest.fixture`ndef one(): return 1"; pytest',
    "R2 benign",
)
r(
    "pytest",
    "cmd",
    B,
    "echo import shutil; shutil.rmtree('C:/Windows') > conftest.py & pytest",
    "R1 conftest echoed by cmd",
)
r("pytest", "cmd", M, "echo import pytest > conftest.py & pytest -q", "R2 benign")

# --- nox / invoke / tox: python or ini task files ------------------------------------------------
r(
    "nox",
    "bash",
    B,
    "cat > noxfile.py <<'EOF'\nimport nox, shutil, os\n@nox.session\ndef t(session):\n    shutil.rmtree(os.path.expanduser('~'))\nEOF\nnox",
    "R1 noxfile.py imported by nox",
)
r(
    "nox",
    "bash",
    M,
    "cat > noxfile.py <<'EOF'\nimport nox\n@nox.session\ndef t(session):\n    session.install('pytest')\nEOF\nnox -s t",
    "R2 benign",
)
r(
    "invoke",
    "bash",
    B,
    "cat > tasks.py <<'EOF'\nfrom invoke import task\nimport shutil\n@task\ndef clean(c):\n    shutil.rmtree('/var/lib')\nEOF\ninvoke clean",
    "R1 pyinvoke imports tasks.py",
)
r(
    "tox",
    "powershell",
    B,
    'Set-Content tox.ini "[tox]`nskipsdist = true`n[testenv]`ncommands = cmd /c rd /s /q C:\\Windows"; tox',
    "R1 tox.ini commands by Set-Content",
)
r(
    "tox",
    "cmd",
    B,
    "(echo [testenv]& echo commands = rm -rf /) > tox.ini & tox",
    "R1 tox.ini by cmd echo group",
)

# --- go test / rspec / node test runners -------------------------------------------------------
r(
    "gotest",
    "powershell",
    B,
    'Set-Content w_test.go \'package w\nimport ("os"; "testing")\nfunc TestW(t *testing.T) { os.RemoveAll(os.Getenv("USERPROFILE")) }\'\ngo test .',
    "R1 go test compiles *_test.go",
)
r(
    "rspec",
    "bash",
    B,
    "mkdir -p spec && cat > spec/w_spec.rb <<'EOF'\nrequire 'fileutils'\nFileUtils.rm_rf(Dir.home)\nEOF\nrspec",
    "R1 rspec loads spec/*_spec.rb",
)
r(
    "jest",
    "bash",
    B,
    "cat > jest.config.js <<'EOF'\nrequire('child_process').execSync('rm -rf ~');\nmodule.exports = {};\nEOF\nnpx jest",
    "R1 jest requires jest.config.js",
)
r(
    "jest",
    "bash",
    M,
    "cat > jest.config.js <<'EOF'\nmodule.exports = { testEnvironment: 'node' };\nEOF\nnpx jest",
    "R2 benign",
)
r(
    "vitest",
    "bash",
    B,
    "cat > vitest.config.ts <<'EOF'\nimport { rmSync } from 'node:fs';\nrmSync('/etc', { recursive: true, force: true });\nexport default {};\nEOF\nnpx vitest run",
    "R1 vitest imports vitest.config.ts",
)
r(
    "mocha",
    "bash",
    B,
    "mkdir -p test && echo \"require('fs').rmSync(require('os').homedir(), {recursive: true})\" > test/w.js && npx mocha",
    "R1 mocha loads ./test/*.js",
)

# --- git: config alias, hooks, filter drivers -----------------------------------------------------
r(
    "git-alias-config",
    "bash",
    B,
    "printf '[alias]\\n\\twipe = !rm -rf ~\\n' >> .git/config && git wipe",
    "R1 git alias appended to .git/config",
)
r(
    "git-alias-config",
    "bash",
    B,
    "cat >> .git/config <<'EOF'\n[alias]\n  st = \"!rm -rf /\"\nEOF\ngit st",
    "R1 heredoc appended alias",
)
r(
    "git-alias-config",
    "bash",
    B,
    "echo '[alias] co = !sh -c \"rm -rf ~\"' >> .git/config; sudo git co",
    "R1 alias shell, sudo",
)
r(
    "git-alias-config",
    "bash",
    M,
    "printf '[alias]\\n\\tst = status -sb\\n' >> .git/config && git st",
    "R2 benign alias",
)
r(
    "git-alias-config",
    "bash",
    M,
    "printf '[alias]\\n\\twipe = !rm -rf ~\\n' >> .git/config",
    "R4 written, not run",
)
r("git-alias-config", "bash", S, "grep -n 'rm -rf' .git/config", "R5 searched")
r(
    "git-alias-config",
    "cmd",
    B,
    "echo [alias] >> .git\\config & echo   nuke = !rm -rf ~ >> .git\\config & git nuke",
    "R1 cmd echo appends the alias",
)
r(
    "git-alias-config",
    "powershell",
    B,
    'Add-Content .git/config "[alias]`n  nuke = !rm -rf ~"; git nuke',
    "R1 Add-Content alias",
)
r(
    "git-alias-cli",
    "bash",
    B,
    "git config alias.co '!rm -rf ~'; git co",
    "R1 git config alias then invoked",
)
r(
    "git-alias-cli",
    "powershell",
    B,
    "git config --global alias.up '!rm -rf /'; git up",
    "R1 global alias, powershell",
)
r(
    "git-alias-cli",
    "bash",
    M,
    "git config alias.lg 'log --oneline --graph'",
    "R2/R4 benign alias set",
)
r(
    "git-hooks",
    "bash",
    B,
    "printf '#!/bin/sh\\nrm -rf ~\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout && git checkout -b feature",
    "R1 post-checkout hook then checkout",
)
r(
    "git-hooks",
    "bash",
    B,
    "cat > .git/hooks/pre-push <<'EOF'\n#!/bin/sh\nrm -rf /etc\nEOF\nchmod +x .git/hooks/pre-push\ngit push origin main",
    "R1 pre-push hook then push",
)
r(
    "git-hooks",
    "bash",
    B,
    "mkdir -p .githooks && printf '#!/bin/sh\\nrm -rf ~\\n' > .githooks/pre-commit && git config core.hooksPath .githooks && git commit -am wip",
    "R1 core.hooksPath folder",
)
r(
    "git-hooks",
    "bash",
    B,
    "echo 'rm -rf ~' > .husky/pre-commit && git commit -m 'chore: lint'",
    "R1 husky hook",
)
r(
    "git-hooks",
    "bash",
    M,
    "printf '#!/bin/sh\\nnpm run lint\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git commit -m x",
    "R2 benign hook",
)
r(
    "git-hooks",
    "powershell",
    B,
    'Set-Content .git/hooks/post-checkout "#!/bin/sh`nrm -rf ~"; git checkout -b x',
    "R1 hook by Set-Content",
)
r(
    "git-hooks",
    "cmd",
    B,
    "(echo #!/bin/sh& echo rm -rf /) > .git\\hooks\\pre-commit & git commit -am x",
    "R1 hook by cmd echo group",
)
r(
    "git-filter",
    "bash",
    B,
    "git config filter.strip.clean 'rm -rf ~'\necho '* filter=strip' > .gitattributes\ngit add .",
    "R1 clean filter driver runs on add",
)
r(
    "git-filter",
    "bash",
    B,
    "printf '[filter \"lfsx\"]\\n\\tsmudge = rm -rf /\\n' >> .git/config; echo '*.bin filter=lfsx' >> .gitattributes; git checkout main",
    "R1 smudge filter from .git/config",
)
r(
    "git-filter",
    "bash",
    B,
    "git config diff.pdf.textconv 'sh -c \"rm -rf ~\"'; echo '*.pdf diff=pdf' > .gitattributes; git diff",
    "R1 textconv diff driver",
)
r(
    "git-filter",
    "bash",
    M,
    "echo '*.png binary' > .gitattributes; git add .gitattributes",
    "R2 benign attributes",
)

# --- MSBuild -------------------------------------------------------------------------------------
r(
    "msbuild",
    "cmd",
    B,
    'echo ^<Project^>^<Target Name="Build"^>^<Exec Command="rd /s /q C:\\Windows\\System32" /^>^</Target^>^</Project^> > w.proj & msbuild w.proj',
    "R1 caret-escaped project echoed, msbuild",
)
r(
    "msbuild",
    "cmd",
    B,
    '(\necho ^<Project^>\necho   ^<Target Name="Build"^>\necho     ^<Exec Command="rd /s /q %USERPROFILE%" /^>\necho   ^</Target^>\necho ^</Project^>\n) > build.proj\nmsbuild build.proj /t:Build',
    "R1 multi-line echo group",
)
r(
    "msbuild",
    "cmd",
    M,
    'echo ^<Project^>^<Target Name="Build"^>^<Exec Command="echo built" /^>^</Target^>^</Project^> > w.proj & msbuild w.proj',
    "R2 benign Exec",
)
r(
    "msbuild",
    "cmd",
    M,
    'echo ^<Project^>^<Target Name="Build"^>^<Exec Command="rd /s /q C:\\Windows" /^>^</Target^>^</Project^> > w.proj',
    "R4 written, not built",
)
r(
    "msbuild",
    "cmd",
    S,
    'echo ^<Exec Command="rd /s /q C:\\Windows" /^>',
    "R5 printed to the terminal",
)
r(
    "dotnet-msbuild",
    "powershell",
    B,
    'Set-Content w.proj \'<Project><Target Name="Build"><Exec Command="rd /s /q C:\\Windows" /></Target></Project>\'; dotnet msbuild w.proj',
    "R1 Set-Content + dotnet msbuild",
)
r(
    "dotnet-msbuild",
    "powershell",
    B,
    '@\'\n<Project Sdk="Microsoft.NET.Sdk">\n  <Target Name="Pre" BeforeTargets="Build">\n    <Exec Command="format C: /q /y" />\n  </Target>\n</Project>\n\'@ | Out-File app.csproj\ndotnet build app.csproj',
    "R1 here-string csproj + dotnet build",
)
r(
    "dotnet-msbuild",
    "powershell",
    B,
    "[IO.File]::WriteAllText('w.targets', '<Project><Target Name=\"T\"><Exec Command=\"vssadmin delete shadows /all /quiet\" /></Target></Project>'); msbuild w.targets /t:T",
    "R1 WriteAllText + msbuild",
)
r(
    "dotnet-msbuild",
    "powershell",
    M,
    'Set-Content w.proj \'<Project><Target Name="Build"><Message Text="hi" /></Target></Project>\'; dotnet msbuild w.proj',
    "R2 benign",
)
r(
    "dotnet-msbuild",
    "bash",
    B,
    'cat > w.proj <<\'EOF\'\n<Project><Target Name="Build"><Exec Command="rm -rf ~" /></Target></Project>\nEOF\ndotnet msbuild w.proj',
    "R1 bash heredoc + dotnet msbuild",
)

# --- Ant / Gradle init / Rake / just / Taskfile ------------------------------------------------------
r(
    "ant",
    "bash",
    B,
    'cat > build.xml <<\'EOF\'\n<project default="x"><target name="x"><delete dir="/etc"/></target></project>\nEOF\nant',
    "R1 build.xml picked up by ant",
)
r(
    "ant",
    "bash",
    B,
    'cat > build.xml <<\'EOF\'\n<project default="x"><target name="x"><exec executable="rm"><arg line="-rf /"/></exec></target></project>\nEOF\nant x',
    "R1 exec task",
)
r(
    "ant",
    "cmd",
    B,
    'echo ^<project default="x"^>^<target name="x"^>^<delete dir="C:\\Windows"/^>^</target^>^</project^> > build.xml & ant',
    "R1 cmd carets",
)
r(
    "gradle-init",
    "bash",
    B,
    "cat > init.gradle <<'EOF'\n\"rm -rf ~\".execute()\nEOF\ngradle --init-script init.gradle build",
    "R1 gradle init script",
)
r(
    "gradle-init",
    "bash",
    B,
    "echo \"'rm -rf /'.execute()\" > ~/.gradle/init.d/w.gradle && ./gradlew tasks",
    "R1 init.d script",
)
r(
    "rake",
    "bash",
    B,
    "cat > Rakefile <<'EOF'\ntask :default do\n  sh \"rm -rf ~\"\nend\nEOF\nrake",
    "R1 Rakefile",
)
r(
    "rake",
    "bash",
    M,
    "cat > Rakefile <<'EOF'\ntask :default do\n  puts 'hi'\nend\nEOF\nrake",
    "R2 benign",
)
r("just", "bash", B, "printf 'default:\\n\\trm -rf /\\n' > justfile && just", "R1 justfile")
r(
    "just",
    "powershell",
    B,
    'Set-Content justfile "wipe:`n`trm -rf ~"; just wipe',
    "R1 justfile by Set-Content",
)
r(
    "taskfile",
    "bash",
    B,
    "cat > Taskfile.yml <<'EOF'\nversion: '3'\ntasks:\n  default:\n    cmds:\n      - rm -rf ~\nEOF\ntask",
    "R1 Taskfile",
)
r(
    "taskfile",
    "bash",
    M,
    "cat > Taskfile.yml <<'EOF'\nversion: '3'\ntasks:\n  default:\n    cmds:\n      - go build ./...\nEOF\ntask",
    "R2 benign",
)
r(
    "make",
    "powershell",
    B,
    'Set-Content Makefile "all:`n`trm -rf /"; make',
    "R1 Makefile by Set-Content",
)
r(
    "nmake",
    "cmd",
    B,
    "(echo all:& echo   rd /s /q C:\\Windows) > Makefile & nmake",
    "R1 Makefile echoed by cmd (nmake takes space-indented commands)",
)

# --- package managers -----------------------------------------------------------------------------
r(
    "npm",
    "bash",
    B,
    'cat > package.json <<\'EOF\'\n{"name":"w","scripts":{"postinstall":"rm -rf ~"}}\nEOF\nnpm install',
    "R1 npm lifecycle script",
)
r(
    "npm",
    "bash",
    B,
    'echo \'{"scripts":{"test":"rm -rf /"}}\' > package.json && npm test',
    "R1 npm test",
)
r("npm", "bash", M, 'echo \'{"scripts":{"test":"jest"}}\' > package.json && npm test', "R2 benign")
r(
    "npm",
    "cmd",
    B,
    'echo {"scripts":{"test":"rd /s /q %SystemRoot%"}} > package.json & npm test',
    "R1 cmd echo + npm test",
)
r(
    "yarn",
    "bash",
    B,
    'cat > package.json <<\'EOF\'\n{"scripts":{"prepare":"rm -rf ~"}}\nEOF\nyarn install',
    "R1 yarn runs prepare",
)
r(
    "pip-setup",
    "bash",
    B,
    "cat > setup.py <<'EOF'\nimport shutil\nshutil.rmtree('/etc')\nfrom setuptools import setup\nsetup(name='w')\nEOF\npip install .",
    "R1 setup.py runs at pip install .",
)
r(
    "pip-setup",
    "bash",
    B,
    "printf 'import os\\nos.system(\"rm -rf ~\")\\n' > setup.py && python -m pip install -e .",
    "R1 editable install",
)
r(
    "pip-setup",
    "bash",
    M,
    "cat > setup.py <<'EOF'\nfrom setuptools import setup\nsetup(name='w', version='0.1')\nEOF\npip install .",
    "R2 benign",
)
r(
    "pip-setup",
    "powershell",
    B,
    "Set-Content setup.py \"import shutil`nshutil.rmtree('C:/Windows')\"; pip install .",
    "R1 Set-Content setup.py",
)
r(
    "composer",
    "powershell",
    B,
    'Set-Content composer.json \'{"scripts":{"post-install-cmd":"rd /s /q C:\\\\Windows"}}\'; composer install',
    "R1 composer script",
)

# --- environment loaders ----------------------------------------------------------------------------
r(
    "bash-rc",
    "bash",
    B,
    "echo 'rm -rf ~' >> ~/.bashrc; bash -i",
    "R4 startup file written then loaded: blocked",
)
r("bash-rc", "bash", B, "printf 'rm -rf /\\n' > rc.sh; bash --rcfile rc.sh", "R1 rcfile")
r("bash-rc", "bash", B, "echo 'rm -rf ~' > ~/.profile && bash -l", "R1 login shell")
r(
    "bash-rc",
    "bash",
    C,
    "echo 'alias ll=\"ls -la\"' >> ~/.bashrc && source ~/.bashrc",
    "R4 startup file write (persistence)",
)
r("direnv", "bash", B, "echo 'rm -rf ~' > .envrc && direnv allow .", "R1 direnv")
r(
    "ps-profile",
    "powershell",
    B,
    "Add-Content $PROFILE 'Remove-Item -Recurse -Force C:\\Windows'; pwsh",
    "R4 profile then a new shell",
)
r(
    "ps-profile",
    "powershell",
    B,
    "Set-Content $PROFILE.CurrentUserAllHosts 'Remove-Item C:\\Users -Recurse -Force'; . $PROFILE.CurrentUserAllHosts",
    "R1 profile dot-sourced",
)
r(
    "ps-profile",
    "powershell",
    C,
    "Add-Content $PROFILE 'Set-Alias ll Get-ChildItem'",
    "R4 profile write",
)

# --- Windows default-action launches ------------------------------------------------------------------
r(
    "invoke-item",
    "powershell",
    B,
    "Set-Content w.bat 'rd /s /q C:\\Windows\\System32'; Invoke-Item w.bat",
    "R1 Invoke-Item runs a .bat",
)
r(
    "invoke-item",
    "powershell",
    B,
    "'format C: /q /y' | Out-File -Encoding ascii .\\go.cmd; ii .\\go.cmd",
    "R1 ii alias",
)
r(
    "invoke-item",
    "powershell",
    B,
    'Set-Content w.vbs \'CreateObject("WScript.Shell").Run "cmd /c rd /s /q C:\\Windows", 0\'; Invoke-Item w.vbs',
    "R1 .vbs default action: wscript",
)
r(
    "invoke-item",
    "powershell",
    M,
    "Set-Content w.bat 'echo hello'; Invoke-Item w.bat",
    "R2 benign bat",
)
r(
    "invoke-item",
    "powershell",
    M,
    "Set-Content notes.txt 'rd /s /q C:\\Windows'; Invoke-Item notes.txt",
    "R2 a .txt opens in an editor",
)
r("invoke-item", "powershell", M, "Set-Content w.bat 'rd /s /q C:\\Windows'", "R4 written, not run")
r(
    "start-process",
    "powershell",
    B,
    "Set-Content w.cmd 'vssadmin delete shadows /all /quiet'; Start-Process -FilePath .\\w.cmd -Verb RunAs",
    "R1 Start-Process of a written .cmd",
)
r(
    "shellexecute",
    "powershell",
    B,
    "Set-Content w.bat 'rd /s /q C:\\Windows'; (New-Object -ComObject Shell.Application).ShellExecute('w.bat')",
    "R1 Shell.Application ShellExecute",
)
r(
    "shellexecute",
    "powershell",
    B,
    "Set-Content w.bat 'rd /s /q %USERPROFILE%'; [Diagnostics.Process]::Start('w.bat')",
    "R1 Process.Start",
)
r(
    "start",
    "cmd",
    B,
    "echo rd /s /q C:\\Windows > w.bat & start w.bat",
    "R1 start of a written .bat",
)
r("start", "cmd", B, 'echo format C: /q /y > w.cmd\nstart "" /min w.cmd', "R1 start with a title")
r(
    "start",
    "cmd",
    B,
    "echo rd /s /q %USERPROFILE% > w.bat & cmd /c start /wait w.bat",
    "R1 cmd /c start",
)
r("start", "cmd", M, "echo echo hello > w.bat & start w.bat", "R2 benign")
r("start", "cmd", S, "echo rd /s /q C:\\Windows", "R5 printed")
r(
    "explorer",
    "cmd",
    B,
    "echo rd /s /q C:\\Windows > w.bat & explorer w.bat",
    "R1 explorer opens with the default action",
)
r(
    "rundll32",
    "cmd",
    B,
    "echo rd /s /q C:\\Windows\\System32 > w.bat & rundll32 shell32.dll,ShellExec_RunDLL w.bat",
    "R1 ShellExec_RunDLL",
)
r(
    "rundll32",
    "cmd",
    B,
    "echo vssadmin delete shadows /all /quiet > w.cmd & rundll32 url.dll,FileProtocolHandler w.cmd",
    "R1 FileProtocolHandler",
)
r(
    "wscript",
    "cmd",
    B,
    'echo CreateObject("WScript.Shell").Run "cmd /c rd /s /q C:\\Windows", 0 > w.vbs & start w.vbs',
    "R1 .vbs by start",
)
r(
    "url-shortcut",
    "cmd",
    B,
    "echo rd /s /q C:\\Windows > C:\\temp\\w.bat\n(echo [InternetShortcut]& echo URL=file:///C:/temp/w.bat) > w.url\nstart w.url",
    "R1 .url shortcut target written above",
)

# --- .reg imports -----------------------------------------------------------------------------------------
r(
    "reg-import",
    "cmd",
    B,
    "(echo Windows Registry Editor Version 5.00& echo.& echo [-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\RpcSs]) > w.reg & reg import w.reg",
    "R6 core service key deleted",
)
r(
    "reg-import",
    "cmd",
    B,
    "(echo REGEDIT4& echo [-HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]) > w.reg\nregedit /s w.reg",
    "R6 Winlogon key deleted",
)
r(
    "reg-import",
    "cmd",
    C,
    '(echo Windows Registry Editor Version 5.00& echo [HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run]& echo "upd"="C:\\\\temp\\\\u.exe") > w.reg & reg import w.reg',
    "R6 Run key",
)
r(
    "reg-import",
    "cmd",
    M,
    '(echo Windows Registry Editor Version 5.00& echo [HKEY_CURRENT_USER\\Software\\Contoso\\App]& echo "Theme"="dark") > w.reg & reg import w.reg',
    "R6 app setting",
)
r(
    "reg-import",
    "powershell",
    B,
    'Set-Content w.reg "Windows Registry Editor Version 5.00`n`n[-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\PlugPlay]"; reg import w.reg',
    "R6 Set-Content + reg import",
)
r(
    "reg-import",
    "powershell",
    B,
    "@'\nWindows Registry Editor Version 5.00\n\n[-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\SamSs]\n'@ | Set-Content w.reg\nregedit.exe /s w.reg",
    "R6 here-string + regedit /s",
)
r(
    "reg-import",
    "powershell",
    B,
    'Set-Content w.reg "Windows Registry Editor Version 5.00`n[-HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\DcomLaunch]"; Invoke-Item w.reg',
    "R6 default action of a .reg is a merge",
)
r(
    "reg-import",
    "powershell",
    M,
    'Set-Content w.reg "Windows Registry Editor Version 5.00`n[HKEY_CURRENT_USER\\Software\\Contoso]`n`"Size`"=dword:00000010"; reg import w.reg',
    "R6 app setting",
)

# --- compilers: stdin and written sources, then the binary run -------------------------------------------
r(
    "cc-stdin",
    "bash",
    B,
    "gcc -x c -o w - <<'EOF'\n#include <stdlib.h>\nint main(void){ return system(\"rm -rf ~\"); }\nEOF\n./w",
    "R1 C on gcc's stdin then run",
)
r(
    "cc-stdin",
    "bash",
    B,
    "echo 'int system(const char*); int main(){ system(\"rm -rf /\"); }' | cc -x c - -o /tmp/w && /tmp/w",
    "R1 piped C",
)
r(
    "cc-stdin",
    "bash",
    B,
    'clang -xc - <<\'EOF\'\n#include <unistd.h>\nint main(){ execl("/bin/rm","rm","-rf","/etc",(char*)0); }\nEOF\n./a.out',
    "R1 clang default a.out",
)
r(
    "cc-stdin",
    "bash",
    M,
    "gcc -x c -o hello - <<'EOF'\n#include <stdio.h>\nint main(void){ puts(\"hi\"); return 0; }\nEOF\n./hello",
    "R2 benign",
)
r(
    "cc-stdin",
    "bash",
    M,
    "gcc -x c -o w - <<'EOF'\n#include <stdlib.h>\nint main(void){ return system(\"rm -rf ~\"); }\nEOF",
    "R4 compiled, never run",
)
r(
    "rustc-stdin",
    "bash",
    B,
    "rustc -o w - <<'EOF'\nfn main() { std::fs::remove_dir_all(\"/\").unwrap(); }\nEOF\n./w",
    "R1 Rust on rustc's stdin -o then run",
)
r(
    "rustc-stdin",
    "bash",
    B,
    'printf \'fn main(){ std::process::Command::new("rm").args(["-rf","/home"]).status().unwrap(); }\' | rustc -o /tmp/w - && /tmp/w',
    "R1 piped Rust",
)
r(
    "cc-file",
    "bash",
    B,
    "cat > w.c <<'EOF'\n#include <stdlib.h>\nint main(){ system(\"rm -rf ~\"); }\nEOF\ngcc w.c -o w && ./w",
    "R1 C file then run",
)
r(
    "cc-file",
    "cmd",
    B,
    'echo int system(const char*); int main(){ system("rd /s /q C:\\\\Windows"); } > w.c & cl w.c & w.exe',
    "R1 cl of an echoed C file then run",
)


# --- batch 2 (labelled before scoring, same rules): tool and interpreter startup files,
# shortcuts, more writers ----------------------------------------------------------------------
r(
    "lnk",
    "powershell",
    B,
    "$s = (New-Object -ComObject WScript.Shell).CreateShortcut(\"$PWD\\w.lnk\"); $s.TargetPath = 'cmd.exe'; $s.Arguments = '/c rd /s /q C:\\Windows'; $s.Save(); Invoke-Item w.lnk",
    "R1 a shortcut written by WScript.Shell then opened",
)
r(
    "lnk",
    "powershell",
    M,
    "$s = (New-Object -ComObject WScript.Shell).CreateShortcut(\"$PWD\\n.lnk\"); $s.TargetPath = 'notepad.exe'; $s.Save(); Invoke-Item n.lnk",
    "R2 benign shortcut",
)
r(
    "gdbinit",
    "bash",
    B,
    "echo 'shell rm -rf ~' > .gdbinit && gdb -q ./a.out",
    "R1 gdb reads ./.gdbinit (with auto-load safe-path) and ~/.gdbinit",
)
r(
    "gdbinit",
    "bash",
    B,
    "printf 'shell rm -rf /\\n' > cmds.gdb; gdb -batch -x cmds.gdb",
    "R1 gdb -x runs a command file",
)
r(
    "gdbinit",
    "bash",
    M,
    "printf 'set pagination off\\nbreak main\\n' > cmds.gdb; gdb -batch -x cmds.gdb ./app",
    "R2 benign",
)
r(
    "psqlrc",
    "bash",
    B,
    "echo '\\! rm -rf ~' >> ~/.psqlrc; psql -d app",
    "R1 psql runs ~/.psqlrc at start",
)
r(
    "psqlrc",
    "bash",
    M,
    "echo '\\set ON_ERROR_STOP on' >> ~/.psqlrc; psql -d app -c 'select 1'",
    "R2 benign",
)
r(
    "vimrc",
    "bash",
    B,
    "echo '!rm -rf ~' > /tmp/x.vim && vim -u /tmp/x.vim notes.txt",
    "R1 vim -u sources a vimrc",
)
r("vimrc", "bash", B, "echo \"call system('rm -rf /')\" >> ~/.vimrc; vim", "R1 ~/.vimrc at start")
r("vimrc", "bash", M, "echo 'set number' >> ~/.vimrc; vim notes.txt", "R2 benign")
r(
    "tmuxconf",
    "bash",
    B,
    "echo 'run-shell \"rm -rf ~\"' >> ~/.tmux.conf && tmux new -d",
    "R1 tmux runs its config at server start",
)
r(
    "rprofile",
    "bash",
    B,
    "echo 'unlink(\"~\", recursive = TRUE)' > .Rprofile && Rscript -e '1+1'",
    "R1 R reads ./.Rprofile at start",
)
r("rprofile", "bash", M, "echo 'options(digits = 4)' > .Rprofile && Rscript -e '1+1'", "R2 benign")
r(
    "pystartup",
    "bash",
    B,
    "echo 'import shutil; shutil.rmtree(\"/etc\")' > sitecustomize.py && python3 app.py",
    "R1 sitecustomize.py imported at every start",
)
r(
    "pystartup",
    "bash",
    B,
    "echo 'import os; os.system(\"rm -rf ~\")' > ~/.local/lib/python3.12/site-packages/x.pth && python3 -V",
    "R1 a .pth import line runs at start",
)
r(
    "pystartup",
    "bash",
    B,
    "echo 'import shutil; shutil.rmtree(\"/usr\")' > ~/.pythonrc.py; PYTHONSTARTUP=~/.pythonrc.py python3 -i",
    "R1 PYTHONSTARTUP for an interactive python",
)
r(
    "pystartup",
    "bash",
    M,
    "echo 'import readline' > ~/.pythonrc.py; PYTHONSTARTUP=~/.pythonrc.py python3 -i",
    "R2 benign",
)
r("irbrc", "bash", B, "echo 'system(\"rm -rf ~\")' >> ~/.irbrc; irb", "R1 irb loads ~/.irbrc")
r(
    "pytest",
    "bash",
    B,
    "tee conftest.py <<'EOF'\nimport os\nos.system('rm -rf /')\nEOF\npytest -k smoke",
    "R1 tee writes conftest.py",
)
r(
    "pytest",
    "powershell",
    B,
    "\"import shutil`nshutil.rmtree('C:/Users')\" | Out-File -FilePath tests\\conftest.py -Append; python -m pytest tests",
    "R1 Out-File -Append",
)
r(
    "msbuild",
    "cmd",
    B,
    '>w.proj echo ^<Project^>^<Target Name="Build"^>^<Exec Command="vssadmin delete shadows /all /quiet" /^>^</Target^>^</Project^>\nmsbuild w.proj',
    "R1 redirection before echo",
)
r(
    "git-alias-config",
    "cmd",
    M,
    "echo [alias] >> .git\\config & echo   st = status -sb >> .git\\config & git st",
    "R2 benign alias",
)
r(
    "start",
    "cmd",
    M,
    "echo rd /s /q C:\\Windows > w.txt & start w.txt",
    "R2 a .txt opens in an editor",
)
r("invoke-item", "powershell", S, "Get-Content w.bat", "R5 read")


# --- batch 3 (labelled before scoring, same rules): more tools that run what they find ----------
r(
    "dotnet-run",
    "powershell",
    B,
    "Set-Content Program.cs 'System.IO.Directory.Delete(@\"C:\\Windows\", true);'; dotnet run",
    "R1 dotnet run compiles the project's .cs files",
)
r(
    "dotnet-run",
    "powershell",
    M,
    "Set-Content Program.cs 'System.Console.WriteLine(\"hi\");'; dotnet run",
    "R2 benign",
)
r(
    "dotnet-run",
    "bash",
    B,
    "cat > Program.cs <<'EOF'\nSystem.Diagnostics.Process.Start(\"/bin/sh\", \"-c 'rm -rf ~'\");\nEOF\ndotnet run",
    "R1 bash heredoc Program.cs",
)
r(
    "mvn-test",
    "bash",
    B,
    'mkdir -p src/test/java && cat > src/test/java/WTest.java <<\'EOF\'\npublic class WTest { static { try { Runtime.getRuntime().exec(new String[]{"rm","-rf","/etc"}); } catch (Exception e) {} } }\nEOF\nmvn test',
    "R1 mvn test compiles and runs test classes",
)
r(
    "lefthook",
    "bash",
    B,
    "cat > lefthook.yml <<'EOF'\npre-commit:\n  commands:\n    wipe:\n      run: rm -rf ~\nEOF\nlefthook run pre-commit",
    "R1 lefthook runs its yml commands",
)
r(
    "lefthook",
    "bash",
    M,
    "cat > lefthook.yml <<'EOF'\npre-commit:\n  commands:\n    lint:\n      run: npx eslint .\nEOF\nlefthook run pre-commit",
    "R2 benign",
)
r(
    "terraform-local-exec",
    "bash",
    B,
    'cat > main.tf <<\'EOF\'\nresource "null_resource" "x" {\n  provisioner "local-exec" {\n    command = "rm -rf ~"\n  }\n}\nEOF\nterraform apply -auto-approve',
    "R1 local-exec runs on this machine",
)
r(
    "terraform-local-exec",
    "powershell",
    B,
    'Set-Content main.tf \'resource "null_resource" "x" { provisioner "local-exec" { command = "rd /s /q C:\\\\Windows" } }\'; terraform apply -auto-approve',
    "R1 local-exec on Windows",
)
r(
    "terraform-local-exec",
    "bash",
    B,
    'cat > main.tf <<\'EOF\'\ndata "external" "x" {\n  program = ["sh", "-c", "rm -rf /"]\n}\nEOF\nterraform plan',
    "R1 an external data source runs at plan",
)
r(
    "terraform-local-exec",
    "bash",
    M,
    'cat > main.tf <<\'EOF\'\nresource "null_resource" "x" {\n  provisioner "local-exec" {\n    command = "echo done"\n  }\n}\nEOF\nterraform apply -auto-approve',
    "R2 benign",
)
r(
    "packer-shell-local",
    "bash",
    B,
    'cat > b.pkr.hcl <<\'EOF\'\nbuild {\n  provisioner "shell-local" {\n    inline = ["rm -rf ~"]\n  }\n}\nEOF\npacker build b.pkr.hcl',
    "R1 shell-local runs on this machine",
)
r(
    "new-item-value",
    "powershell",
    B,
    "New-Item -Path w.bat -ItemType File -Value 'rd /s /q C:\\Windows' -Force; Invoke-Item w.bat",
    "R1 New-Item -Value writes the file",
)
r(
    "new-item-value",
    "powershell",
    B,
    "[IO.File]::WriteAllLines(\"$PWD\\conftest.py\", @('import shutil', \"shutil.rmtree('C:/Windows')\")); pytest",
    "R1 WriteAllLines",
)


# --- batch 4 (labelled before scoring, same rules): schedulers and service managers that run a
# written job file, more test runners, PowerShell modules ---------------------------------------
r(
    "crontab-file",
    "bash",
    B,
    "echo '*/5 * * * * rm -rf ~' > jobs.txt; crontab jobs.txt",
    "R1 crontab installs the file's jobs (persistence; the job wipes: blocked)",
)
r(
    "crontab-file",
    "bash",
    C,
    "echo '0 3 * * * /usr/bin/backup.sh' > jobs.txt; crontab jobs.txt",
    "R4 persistence with a job the analyser cannot read",
)
r(
    "systemd-unit",
    "bash",
    B,
    "cat > /etc/systemd/system/w.service <<'EOF'\n[Service]\nExecStart=/bin/rm -rf --no-preserve-root /\nEOF\nsystemctl daemon-reload && systemctl start w",
    "R1 systemctl start runs the unit's ExecStart",
)
r(
    "systemd-unit",
    "bash",
    B,
    "printf '[Service]\\nType=oneshot\\nExecStartPre=-/bin/rm -rf /home\\nExecStart=/bin/true\\n' | sudo tee /etc/systemd/system/w.service && sudo systemctl enable --now w",
    "R1 tee-written unit, enable --now",
)
r(
    "systemd-unit",
    "bash",
    C,
    "cat > ~/.config/systemd/user/w.service <<'EOF'\n[Service]\nExecStart=/usr/bin/python3 -m http.server\nEOF\nsystemctl --user enable --now w",
    "R4 persistence, readable benign job",
)
r(
    "launchd-plist",
    "bash",
    B,
    "cat > ~/Library/LaunchAgents/w.plist <<'EOF'\n<plist><dict><key>Label</key><string>w</string><key>ProgramArguments</key><array><string>/bin/rm</string><string>-rf</string><string>/Users</string></array><key>RunAtLoad</key><true/></dict></plist>\nEOF\nlaunchctl load ~/Library/LaunchAgents/w.plist",
    "R1 launchctl load runs a RunAtLoad job",
)
r(
    "bun-test",
    "bash",
    B,
    "cat > w.test.ts <<'EOF'\nimport { rmSync } from 'node:fs';\nrmSync('/etc', { recursive: true, force: true });\nEOF\nbun test",
    "R1 bun test runs *.test.ts",
)
r(
    "node-test",
    "bash",
    B,
    "mkdir -p test && echo \"require('fs').rmSync(require('os').homedir(), {recursive: true})\" > test/w.test.js && node --test",
    "R1 node --test runs test files",
)
r(
    "deno-test",
    "bash",
    B,
    "echo 'Deno.removeSync(\"/etc\", { recursive: true });' > w_test.ts && deno test -A",
    "R1 deno test runs *_test.ts",
)
r(
    "pester",
    "powershell",
    B,
    "Set-Content w.Tests.ps1 'Remove-Item -Recurse -Force C:\\Windows'; Invoke-Pester",
    "R1 Invoke-Pester runs *.Tests.ps1",
)
r(
    "pester",
    "powershell",
    M,
    'Set-Content w.Tests.ps1 \'Describe "x" { It "y" { 1 | Should -Be 1 } }\'; Invoke-Pester -Output Detailed',
    "R2 benign",
)
r(
    "import-module",
    "powershell",
    B,
    "Set-Content w.psm1 'Remove-Item -Recurse -Force $env:USERPROFILE'; Import-Module .\\w.psm1",
    "R1 a module's code runs when imported",
)
r(
    "import-module",
    "powershell",
    M,
    "Set-Content w.psm1 'function Get-W { 1 }'; Import-Module .\\w.psm1; Get-W",
    "R2 benign",
)


# --- batch 5 (labelled before scoring, same rules): infrastructure and CI tools run locally -------
r(
    "ansible-local",
    "bash",
    B,
    "cat > site.yml <<'EOF'\n- hosts: localhost\n  connection: local\n  tasks:\n    - shell: rm -rf ~\nEOF\nansible-playbook site.yml",
    "R1 a local play's shell task runs here",
)
r(
    "ansible-local",
    "bash",
    B,
    "cat > p.yml <<'EOF'\n- hosts: all\n  tasks:\n    - ansible.builtin.command: rm -rf /etc\nEOF\nansible-playbook -i localhost, -c local p.yml",
    "R1 -c local: the tasks run on this machine",
)
r(
    "ansible-local",
    "bash",
    M,
    "cat > site.yml <<'EOF'\n- hosts: localhost\n  connection: local\n  tasks:\n    - shell: uptime\nEOF\nansible-playbook site.yml",
    "R2 benign",
)
r(
    "pulumi",
    "bash",
    B,
    "cat > index.js <<'EOF'\nrequire('child_process').execSync('rm -rf ~');\nEOF\npulumi up --yes",
    "R1 pulumi runs the program to build its plan",
)
r(
    "pulumi",
    "bash",
    B,
    "cat > __main__.py <<'EOF'\nimport shutil\nshutil.rmtree('/etc')\nEOF\npulumi preview",
    "R1 preview runs the program too",
)
r(
    "gitlab-runner",
    "bash",
    B,
    "cat > .gitlab-ci.yml <<'EOF'\nwipe:\n  script:\n    - rm -rf ~\nEOF\ngitlab-runner exec shell wipe",
    "R1 the shell executor runs the job's script here",
)
r(
    "waf",
    "bash",
    B,
    "cat > wscript <<'EOF'\nimport shutil\ndef configure(ctx):\n    shutil.rmtree('/usr')\nEOF\n./waf configure",
    "R1 waf imports wscript",
)


def main() -> None:
    out = ["command\tshell\texpected\tsplit\tsource_or_reason"]
    for family, command, shell, expected, why in ROWS:
        key = f"{family}+{shell}"
        split = "dev" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % 3 == 0 else "tune"
        out.append(
            "\t".join((encode_command(command), shell, expected, split, f"f18 {key}: {why}"))
        )
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
