"""Session 17 review fixes (r17): /work/review17_findings.md, each as a mechanism.

- #1/#2/#11: a WMI/CIM removal is a call only in code: printed text, strings and comments
  that name `Remove-CimInstance`/`rwmi` and `Win32_Service` call nothing, and a removal
  cmdlet named as an argument (`Get-Command Remove-CimInstance`) is not a call. An unnamed
  service defaults to the core ones only when the class's instances are really fetched.
- #6/#7/#8: fleet shells' remote command lines: `--` ends mco's options (the words after it
  are the command); knife ssh `-m`/`--manual-list`/`--exit-on-error` and nomad alloc exec
  `-job` are switches, so the operand after them is the query/job, not the command.
- #3: a subexpression inside a string path whose value is a command's output
  (`$(Get-Random)`, `$(Read-Host)`) is an unknown part, not a literal file name.
- #9: a server is local only when a bind option's value is the loopback (`-b 127.0.0.1`,
  `--address=localhost`, `-i lo`, twistd `interface=127.0.0.1`), not when any word says
  `localhost` (a log file, a page title, an echoed text).
- #4/#5: nmake's `/n` (`/N`) is a dry run; GNU make's other names (mingw32-make,
  mingw64-make, gnumake) are makes: they read the makefile written above.
- #14: a glued bucket/account/group name says backups by `bkp` only as a whole part
  (`acmebkp01`, `bkp-prod`, `prodbkp`), not inside a word (`webkpi`).
- #15: ForEach-Object's `-InputObject` anywhere in its statement (after the block too),
  its value a word, string, variable, `( … )` or `@( … )`, is the block's `$_`.
- #16: vmkfstools `--createfs=TYPE` and a partition named relative to a cwd under
  /vmfs/devices/disks are the same new VMFS over a disk partition.
- #13: a staging/backup copy under /etc (`hosts.new`, `.tmp`, `.bak`, `.orig`, `.rpmnew`,
  `~`) is not the system file its name starts with; the real file keeps its level.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S


@pytest.mark.parametrize(
    "command,shell,want",
    [
        # #1/#2/#11 and neighbours: text about the removal is not the removal
        ('Write-Host "Remove-CimInstance Win32_Service"', "powershell", S),
        ("# Remove-CimInstance Win32_Service", "powershell", S),
        ("<# gcim Win32_Service | rcim #>\nGet-Service", "powershell", S),
        ("$msg = 'Use Remove-CimInstance on Win32_Service with care'", "powershell", S),
        (
            "Get-Command Remove-CimInstance, Get-CimInstance -Module CimCmdlets; "
            "Get-CimClass Win32_Service",
            "powershell",
            S,
        ),
        (
            'Write-Host "Get-CimInstance Win32_Service | Invoke-CimMethod -MethodName Delete"',
            "powershell",
            S,
        ),
        ("Write-Output 'gwmi win32_service | rwmi'", "powershell", S),
        ("Get-Help Remove-WmiObject -Full; Get-CimClass Win32_Service", "powershell", S),
        ('Write-Host "Get-CimInstance Win32_UserProfile | Remove-CimInstance"', "powershell", S),
        ("echo 'gcim Win32_Service | rcim'", "bash", S),
        # the real calls keep their level
        ("Get-CimInstance Win32_Service | Remove-CimInstance", "powershell", B),
        ("gcim Win32_Service | rcim", "powershell", B),
        ("Get-WmiObject -Class Win32_Service | Remove-WmiObject", "powershell", B),
        ("Get-CimInstance Win32_Service | Invoke-CimMethod -MethodName Delete", "powershell", B),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='Spooler'\" | Remove-CimInstance",
            "powershell",
            D,
        ),
        ("Get-CimInstance Win32_UserProfile | Remove-CimInstance", "powershell", B),
        # #6: `--` ends mco's options
        ("mco shell run -- rm -rf /", "bash", B),
        ('mco shell run -- "rm -rf /"', "bash", B),
        ("mco shell run -I web1 -- rm -rf /", "bash", B),
        ("mco shell run -- ls -la /", "bash", M),
        ("echo mco shell run -- rm -rf /", "bash", S),
        # #7/#8: switches, not valued options
        ("knife ssh -m 'host1 host2' 'rm -rf /'", "bash", B),
        ("knife ssh --manual-list 'host1 host2' 'rm -rf /'", "bash", B),
        ('knife ssh --exit-on-error role:web "rm -rf /"', "bash", B),
        ("knife ssh -m 'host1 host2' 'uptime'", "bash", M),
        ("nomad alloc exec -job web rm -rf /", "bash", B),
        ("nomad alloc exec -job -task app web rm -rf /", "bash", B),
        ("nomad alloc exec -job web ls /", "bash", M),
        # #3: a command's output inside a string path is unknown
        ('Remove-Item "C:\\Windows\\System32\\config\\$(Get-Random)" -Force', "powershell", B),
        ('Remove-Item "C:\\Windows\\System32\\drivers\\$(Read-Host)" -Force', "powershell", B),
        ('Remove-Item "C:\\Windows\\System32\\config\\$(whoami)" -Force', "powershell", B),
        ('Remove-Item "$(Split-Path $HOME -Parent)\\*" -Recurse -Force', "powershell", B),
        ('Remove-Item "C:\\Temp\\$(Get-Random).txt" -Force', "powershell", D),
        # #9: local only from the bind option's value
        ("darkhttpd / --log /tmp/localhost", "bash", C),
        ("miniserve / --title localhost", "bash", C),
        ("ttyd -t titleFixed=localhost bash", "bash", C),
        ("gotty --address 0.0.0.0 bash -c 'echo localhost'", "bash", C),
        ("darkhttpd / --addr 127.0.0.1", "bash", M),
        ("miniserve -i 127.0.0.1 /", "bash", M),
        ("ttyd -i lo bash", "bash", M),
        ("gotty --address=127.0.0.1 bash", "bash", M),
        ("ruby -run -e httpd / -b 127.0.0.1", "bash", M),
        ("echo darkhttpd / --log /tmp/localhost", "bash", S),
        # #4: nmake /n is a dry run
        ("echo all: ; rd /s /q C:\\Windows > m.mak & nmake /n /f m.mak", "cmd", M),
        ("echo all: ; rd /s /q C:\\Windows > m.mak & nmake /N /f m.mak", "cmd", M),
        ("echo all: ; rd /s /q C:\\Windows > m.mak & nmake /f m.mak", "cmd", B),
        # #5: make under other names
        ("echo all: ; rd /s /q C:\\Windows > m.mak & mingw32-make -f m.mak", "cmd", B),
        (
            "echo all: ; rd /s /q C:\\Windows > m.mak & C:\\MinGW\\bin\\mingw32-make.exe -f m.mak",
            "cmd",
            B,
        ),
        ("echo all: ; rd /s /q C:\\Windows > m.mak & mingw32-make -n -f m.mak", "cmd", M),
        ("printf 'all:\\n\\trm -rf /\\n' > Makefile && mingw32-make", "bash", B),
        ("printf 'all:\\n\\trm -rf /\\n' > Makefile && gnumake", "bash", B),
        ("printf 'all:\\n\\trm -rf /\\n' > Makefile && gnumake -n", "bash", M),
        ("mingw32-make --help", "bash", S),
        # #14: bkp as a whole part only
        ("aws s3 rb s3://webkpi --force", "bash", D),
        ("Remove-S3Bucket -BucketName webkpi -DeleteBucketContent -Force", "powershell", D),
        ("az storage account delete -n webkpistore --yes", "bash", D),
        ("az group delete -n webkpi-rg --yes", "bash", D),
        ("aws s3 rb s3://acmebkp01 --force", "bash", B),
        ("aws s3 rb s3://prodbkp --force", "bash", B),
        ("Remove-S3Bucket -BucketName prodbkp -DeleteBucketContent -Force", "powershell", B),
        ("az storage account delete -n bkpstore01 --yes", "bash", B),
        ("echo aws s3 rb s3://prodbkp --force", "bash", S),
        # #15: -InputObject's value and place
        (
            "ForEach-Object -InputObject (Get-Item C:\\Windows) -Process "
            "{ Remove-Item $_ -Recurse -Force }",
            "powershell",
            B,
        ),
        (
            'ForEach-Object -InputObject @("C:\\Windows") -Process '
            "{ Remove-Item $_ -Recurse -Force }",
            "powershell",
            B,
        ),
        (
            "ForEach-Object -Process { Remove-Item $_ -Recurse -Force } -InputObject C:\\Windows",
            "powershell",
            B,
        ),
        ("% -in 'C:\\Windows' { Remove-Item $_ -Recurse -Force }", "powershell", B),
        (
            "ForEach-Object -InputObject C:\\Temp\\x -Process { Remove-Item $_ -Recurse -Force }",
            "powershell",
            D,
        ),
        (
            "ForEach-Object -InputObject (Get-Item C:\\Windows) -Process { Get-Item $_ }",
            "powershell",
            S,
        ),
        (
            "Write-Host 'ForEach-Object -InputObject C:\\Windows -Process "
            "{ Remove-Item $_ -Recurse -Force }'",
            "powershell",
            S,
        ),
        ("1..3 | % { if ($_ -in @(1,2)) { $_ } }", "powershell", S),
        # #16: vmkfstools -C spellings and cwd
        ("vmkfstools --createfs=vmfs6 /vmfs/devices/disks/naa.1:1", "bash", B),
        ("cd /vmfs/devices/disks && vmkfstools -C vmfs6 naa.1:1", "bash", B),
        ("cd /vmfs/devices/disks/ && vmkfstools -C vmfs6 -S ds naa.1:1", "bash", B),
        ("cd /tmp && vmkfstools -C vmfs6 naa.1:1", "bash", M),
        ("cd /vmfs/devices/disks && vmkfstools -P naa.1:1", "bash", S),
        # #13: whole names under /etc
        ("mv /etc/hosts.new /etc/hosts.tmp", "bash", M),
        ("cp /etc/hosts /etc/hosts.bak", "bash", M),
        ("echo x > /etc/resolv.conf.orig", "bash", M),
        ("mv /etc/hosts.new /etc/hosts", "bash", C),
        ("mv /etc/hosts /etc/hosts.old", "bash", C),
        ("mv /etc/passwd /etc/passwd.bak", "bash", B),
        ("cp evil /etc/cron.d/job.new", "bash", C),
    ],
)
def test_r17_review_levels(command: str, shell: str, want: RiskLevel) -> None:
    assert assess(command, shell).level == want


_PS_CORES = [
    (
        "ForEach-Object -Process { Remove-Item $_ -Recurse -Force } -InputObject C:\\Windows",
        B,
    ),
    ('Remove-Item "C:\\Windows\\System32\\config\\$(Get-Random)" -Force', B),
    ("gcim Win32_Service | rcim", B),
    ("Get-WmiObject -Class Win32_Service | Remove-WmiObject", B),
]


@pytest.mark.parametrize("inner,want", _PS_CORES)
def test_r17_powershell_fixes_keep_their_level_wrapped(inner: str, want: RiskLevel) -> None:
    assert assess(inner, "powershell").level == want
    for wrapper in PS_BLOCK_WRAPPERS:
        assert assess(wrapper.format(inner), "powershell").level == want, wrapper
    quoted = inner.replace("'", "''")
    assert assess(f"pwsh -NoProfile -Command '{quoted}'", "powershell").level == want
    assert assess(f"sudo pwsh -c '{quoted}'", "bash").level == want


_BASH_CORES = [
    "mco shell run -- rm -rf /",
    "knife ssh -m 'host1 host2' 'rm -rf /'",
    "nomad alloc exec -job web rm -rf /",
    "vmkfstools --createfs=vmfs6 /vmfs/devices/disks/naa.1:1",
]
_BASH_CRITICAL = ["darkhttpd / --log /tmp/localhost", "ttyd -t titleFixed=localhost bash"]


@pytest.mark.parametrize(
    "inner,want", [(c, B) for c in _BASH_CORES] + [(c, C) for c in _BASH_CRITICAL]
)
def test_r17_bash_fixes_keep_their_level_wrapped(inner: str, want: RiskLevel) -> None:
    assert assess(inner, "bash").level == want
    quoted = inner.replace("'", "'\\''")
    for wrapped in (
        f"sudo {inner}",
        f"env X=1 {inner}",
        f"sh -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {inner}; }}; f",
    ):
        assert assess(wrapped, "bash").level >= want, wrapped
