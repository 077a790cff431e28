"""safety-m7: the mechanisms the red team keeps finding, made general (own spellings, not the
probe rows): file-system debuggers, copiers over hives and system files, start-up files of
other tools, log folders reached by find, PowerShell session drives, read-only ssh-keygen."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import B, C, D, M, S
from tests.safety._levels import level as _level


@pytest.mark.parametrize(
    "command,expected",
    [
        # write mode + a destroying request on a disk: the file system is corrupted
        ("debugfs -w -R 'freei <12>' /dev/xvda1", B),
        ("debugfs -w /dev/sdc2 <<< 'set_super_value state 0'", B),
        ("printf 'unlink /etc/group\\n' | debugfs -w /dev/md0", B),
        ("xfs_db -x -c 'blocktrash -n 64' /dev/sdb1", B),
        ("xfs_db -x -f -c 'write magicnum 0' disk.img", D),
        # a named system path, wherever the request comes from
        ("debugfs -w -R 'kill_file /etc/sudoers' /dev/mapper/root", B),
        # requests nobody here has seen, in write mode: critical
        ("debugfs -w -f requests.txt /dev/sda1", C),
        ("debugfs -w /dev/sda1", C),
        # read-only: no write switch, catastrophic mode, xfs_db -r
        ("debugfs -R 'stat <2>' /dev/sda1", S),
        ("debugfs -c -R 'ls -l /home' /dev/nvme0n1p3", S),
        ("xfs_db -r -c 'sb 0' -c p /dev/sdb1", S),
        ("xfs_db -c 'frag -f' /dev/sdb1", S),
        ("debugfs -R 'rdump /etc /tmp/etc-copy' /dev/sda1", M),
    ],
)
def test_file_system_debuggers(command: str, expected: RiskLevel) -> None:
    assert _level(command, "bash") == expected


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        # a hive or a core system file replaced by a copier (a folder destination keeps the name)
        ("copy /y C:\\x\\SYSTEM C:\\Windows\\System32\\config\\", "cmd", B),
        ("robocopy D:\\stage C:\\Windows\\System32\\config SOFTWARE", "cmd", B),
        ("replace D:\\stage\\SAM C:\\Windows\\System32\\config", "cmd", B),
        ("esentutl /y D:\\x.bin /d C:\\Windows\\System32\\config\\SECURITY /o", "cmd", B),
        ("reg restore HKLM\\SOFTWARE D:\\soft.hiv", "cmd", B),
        ("copy /b /y evil.exe C:\\Windows\\System32\\lsass.exe", "cmd", B),
        ("Copy-Item .\\k.dll C:\\Windows\\System32\\kernel32.dll -Force", "powershell", B),
        # look-alikes: reading a hive is a credential copy; a restore below a hive; plain copies
        ("esentutl /y C:\\Windows\\System32\\config\\SAM /d C:\\temp\\s /vss", "cmd", C),
        (
            "reg restore HKLM\\SOFTWARE\\Contoso D:\\contoso.hiv",
            "cmd",
            C,
        ),  # unseen file: existing rule
        ("robocopy C:\\src D:\\dst *.txt", "cmd", M),
        ("replace D:\\new\\app.dll C:\\Tools\\App", "cmd", M),
    ],
)
def test_copiers_over_system_files(command: str, shell: str, expected: RiskLevel) -> None:
    assert _level(command, shell) == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("echo 'puts 1' >> ~/.pryrc", C),
        ("printf 'shell id\\n' > ~/.lldbinit", C),
        ("cp x.R /usr/lib/R/etc/Rprofile.site", C),
        ("echo ':! id' >> ~/.ghci", C),
        ("echo 'print(1)' > ~/.julia/config/startup.jl", C),
        ("tee ~/.ipython/profile_work/startup/10-hook.py < hook.py", C),
        ('echo x > "$(python3 -c "import site; print(site.getusersitepackages())")/a.pth"', C),
        ("cp loader.pth `python3 -m site --user-site`/", C),
        (
            "install -m 644 hook.pth "
            "$(python -c 'import sysconfig; print(sysconfig.get_path(\"purelib\"))')/",
            C,
        ),
        # look-alikes
        ("cat ~/.ghci", S),
        ('echo x > "$(mktemp -d)/notes.txt"', M),
        ("cp a.txt $(pwd)/", M),
    ],
)
def test_start_up_files_of_other_tools(command: str, expected: RiskLevel) -> None:
    assert _level(command, "bash") == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("find /var/log -name '*.gz' -delete", C),
        ("find /var/log/nginx -type f -exec rm -f {} \\;", C),
        ("find /var/log -type f -mtime +1 -exec cp /dev/null {} \\;", C),
        ("find /var/log/journal -name '*.journal' -exec shred -u {} +", C),
        ("find /var/adm -name 'wtmp*' -exec truncate -s 0 {} +", C),
        # look-alikes: reading logs, deleting an application's own logs
        ("find /var/log -name '*.gz' -mtime +30 -print", S),
        ("find /var/log -type f -exec grep -l error {} +", S),
        ("find ./var/log -type f -delete", D),
    ],
)
def test_find_in_log_folders(command: str, expected: RiskLevel) -> None:
    assert _level(command, "bash") == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("Remove-Item Env:\\HTTP_PROXY", M),
        ("ri alias:gp -Force", M),
        ("Remove-Item -Path Function:\\Invoke-Build", M),
        ("del variable:\\retries", M),
        ("Remove-Item Env:\\A; Remove-Item Env:\\B", M),
        # not a session drive
        ("Remove-Item C:\\Users\\me\\env -Recurse -Force", D),
        ("Remove-Item HKCU:\\Software\\Contoso -Recurse", D),
    ],
)
def test_powershell_session_drives(command: str, expected: RiskLevel) -> None:
    assert _level(command, "powershell") == expected


@pytest.mark.parametrize(
    "command,expected",
    [
        ("ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub", S),
        ("ssh-keygen -lv -f known_hosts", S),
        ("ssh-keygen -F gitlab.com -f ~/.ssh/known_hosts", S),
        ("ssh-keygen -L -f ~/.ssh/id_ed25519-cert.pub", S),
        ("ssh-keygen -t ed25519 -f ~/.ssh/new_key -N ''", M),
        ("ssh-keygen -p -f ~/.ssh/id_ed25519", M),
        ("ssh-keygen -D /tmp/evil.so", C),
    ],
)
def test_ssh_keygen_read_only(command: str, expected: RiskLevel) -> None:
    assert _level(command, "bash") == expected
