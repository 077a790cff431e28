"""safety-m6: mechanisms the red team keeps finding, each checked on spellings of its own
(the corpus rows are in sources_m6.tsv; these pin the mechanism, with look-alikes that must
stay low)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from aintern_ls.safety.infra import container_mounts, map_mounts
from aintern_ls.safety.inline import delete_api, lisp_as_calls
from aintern_ls.safety.words import Word
from tests.safety._levels import B, C, D, M, S
from tests.safety._levels import level as _level

# --- 1. scope carried through loops and finders ------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "lsblk -dno NAME | while read d; do shred -n1 /dev/$d; done",
        "for x in $(lsblk -ndo NAME); do dd if=/dev/zero of=/dev/$x bs=4M; done",
        "for x in $(lsblk -dpno NAME); do blkdiscard $x; done",
        "blkid -o device | xargs -n1 wipefs -a",
        "lsblk -dn | awk '{print $1}' | while read d; do dd if=/dev/zero of=/dev/$d; done",
        "ls / | parallel rm -rf /{}",
        "ls ~ | parallel -j4 rm -rf ~/{}",
        "fd -t f . / -x shred -u",
        "fd --type file . ~ -X rm -f",
    ],
)
def test_loops_and_finders_over_the_whole_system_are_blocked(command: str) -> None:
    assert _level(command) == B, command


@pytest.mark.parametrize(
    "command,highest",
    [
        ("for d in $(lsblk -dno NAME); do smartctl -H /dev/$d; done", S),
        ("lsblk -dno NAME | xargs -I{} echo /dev/{}", S),
        ("lsblk -f", S),
        ("ls build | parallel gzip build/{}", M),
        ("fd -e log . ~ -X rm", D),
        ("lsblk -dn | awk '/sdb/{print $1}' | while read d; do echo /dev/$d; done", S),
    ],
)
def test_loop_look_alikes_stay_low(command: str, highest: RiskLevel) -> None:
    assert _level(command) <= highest, command


# --- 2. container bind mounts mapped back to the host ------------------------------------


def _w(*texts: str) -> list[Word]:
    return [Word(t, 0, len(t)) for t in texts]


def test_mount_specs_are_read_in_every_spelling() -> None:
    mounts = container_mounts(
        _w(
            "run",
            "-v",
            "$HOME:/data:Z",
            "--volume=/etc:/cfg:ro",
            "--mount",
            "type=bind,src=/,dst=/host,readonly",
            "--mount=type=volume,source=named,target=/n",
            "-v",
            "named:/x",
            "-v./w:/w",
        )
    )
    assert ("$HOME", "/data", False) in mounts
    assert ("/etc", "/cfg", True) in mounts
    assert ("/", "/host", True) in mounts
    assert ("./w", "/w", False) in mounts
    assert all(dst not in ("/n", "/x") for _, dst, _ in mounts)  # named volumes


def test_mapped_words_reach_into_shell_strings() -> None:
    mapped = map_mounts(_w("sh", "-c", "rm -rf /h/* /hx"), [("~", "/h", False)])
    assert [w.text for w in mapped] == ["sh", "-c", "rm -rf ~/* /hx"]


@pytest.mark.parametrize(
    "command",
    [
        "podman run --rm -v ${HOME}:/u:z alpine rm -rf /u",
        "docker run --mount type=bind,source=/,target=/rootfs alpine rm -rf /rootfs/etc",
        "docker run -v /home:/homes alpine sh -c 'rm -rf /homes/*'",
        "nerdctl run --volume=/usr:/x alpine rm -rf /x",
        "docker compose run --rm -v /:/r web rm -rf /r/var/lib",
        "kubectl debug node/n2 -it --image=alpine -- rm -rf /host/home",
        "docker run -v /etc:/e alpine sh -c 'cat /dev/null > /e/shadow'",
    ],
)
def test_wiping_a_host_mount_inside_a_container_is_blocked(command: str) -> None:
    assert _level(command) == B, command


@pytest.mark.parametrize(
    "command,highest",
    [
        ("docker run --rm -v $PWD:/app -w /app python:3 pytest", M),
        ("docker run --rm -v /:/host:ro alpine cat /host/etc/os-release", M),
        ("docker run -v cache:/cache alpine rm -rf /cache/tmp", D),
        ("podman run -v ./out:/out alpine rm -rf /out/old", D),
    ],
)
def test_container_look_alikes_stay_low(command: str, highest: RiskLevel) -> None:
    assert _level(command) <= highest, command


# --- 3. PowerShell: job arguments, $using:, command objects ------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "$t = 'C:\\'; Start-ThreadJob { Remove-Item $using:t -Recurse -Force }",
        "Start-Job -ScriptBlock { param($p) Remove-Item $p -Recurse -Force }"
        " -ArgumentList $env:USERPROFILE",
        "Invoke-Command -ComputerName h1 -ScriptBlock { Remove-Item $args[0] -Recurse -Force }"
        " -ArgumentList 'C:\\Windows'",
        "$w = $env:windir; 1..2 | ForEach-Object -Parallel"
        " { Remove-Item $using:w -Recurse -Force }",
        "$f = gcm Clear-Dis*; & $f -Number 0 -RemoveData -Confirm:$false",
        "$r = Get-Alias rd; & $r C:\\Users -Recurse -Force",
        "$c = $ExecutionContext.InvokeCommand.GetCommand('Remove-Item', 'Cmdlet');"
        " & $c $HOME -Recurse -Force",
        "$c = Get-Command Remove-Item; $c.Invoke('C:\\', '-Recurse')",
    ],
)
def test_powershell_bindings_resolve_to_blocked(command: str) -> None:
    assert _level(command, "powershell") == B, command


@pytest.mark.parametrize(
    "command,highest",
    [
        ("$c = gcm Get-Process; & $c", S),
        ("$t = 'C:\\build\\out'; Start-ThreadJob { Remove-Item $using:t -Recurse -Force }", D),
        ("Start-Job { param($p) Get-ChildItem $p } -ArgumentList $HOME", M),
        ("Get-Alias ri", S),
    ],
)
def test_powershell_binding_look_alikes_stay_low(command: str, highest: RiskLevel) -> None:
    assert _level(command, "powershell") <= highest, command


# --- 4. inline code read by what it calls, not by the interpreter's name --------------------


def test_delete_api_names_are_read_by_their_parts() -> None:
    assert delete_api("deleteDirectory") == "tree"
    assert delete_api("remove_folder_recursive") == "tree"
    assert delete_api("EraseFile") == "one"
    assert delete_api("delete") is None
    assert delete_api("deleteUser") is None
    assert delete_api("removeListener") is None


def test_lisp_forms_read_as_calls() -> None:
    assert lisp_as_calls('(delete-directory "~" t)') == 'delete_directory("~", t)'
    assert lisp_as_calls("no forms here") is None


@pytest.mark.parametrize(
    "command",
    [
        "hy -c '(import shutil) (shutil.rmtree \"/usr\")'",
        "lfe -e '(file:del_dir_r \"/etc\")'",
        "mylang --eval '(delete-directory \"/home\" t)'",
        "xscript -e 'purgeDirectory(\"/var/lib\")'",
        "ts-node -e \"require('fs').rmSync(require('os').homedir(), {recursive: true})\"",
        "tsx -e \"require('child_process').execSync('rm -rf /')\"",
    ],
)
def test_inline_code_of_any_program_is_read(command: str) -> None:
    assert _level(command) == B, command


@pytest.mark.parametrize(
    "command,highest",
    [
        ("tsx -e 'console.log(1 + 1)'", S),
        ("hy -c '(print \"hello\")'", M),
        ("xscript -e 'deleteUser(\"bob\")'", M),
        ("xscript -e 'removeListener(handler)'", M),
    ],
)
def test_inline_look_alikes_stay_low(command: str, highest: RiskLevel) -> None:
    assert _level(command) <= highest, command


# --- 7. logs: clearing is critical; narrowed pipelines are dangerous --------------------------


@pytest.mark.parametrize(
    "command,shell",
    [
        ("rm -rf /var/log/audit/*", "bash"),
        ("find /var/log/journal -type f -delete", "bash"),
        ("truncate -s 0 /var/log/*", "bash"),
        ("logtool purge --all /var/log", "bash"),
        ("del /f /q C:\\Windows\\System32\\winevt\\Logs\\*.evtx", "cmd"),
        ("Remove-Item C:\\Windows\\Logs\\* -Recurse -Force", "powershell"),
    ],
)
def test_log_clearing_is_critical(command: str, shell: str) -> None:
    assert _level(command, shell) == C, command


@pytest.mark.parametrize(
    "command,shell,expected",
    [
        ("rm -rf /var/log", "bash", B),  # the folder itself is still a system folder
        ("find / -type f -delete", "bash", B),
        ("rm -f /var/log/myapp/old.log", "bash", D),
        ("Get-ChildItem . -Include *.tmp -Recurse | Remove-Item", "powershell", D),
        ("gci * -Filter *.bak -Recurse | ri -Force", "powershell", D),
        ("Get-ChildItem * -Recurse | Remove-Item", "powershell", B),
        ("ls /var/log/journal", "bash", S),
    ],
)
def test_log_and_narrowing_look_alikes(command: str, shell: str, expected: RiskLevel) -> None:
    assert _level(command, shell) == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        # every account's home, every device under /dev, mounts of $HOME/${HOME}
        ("getent passwd | cut -d: -f6 | xargs -r rm -rf", B),
        ("awk -F: '{print $6}' /etc/passwd | while read -r h; do rm -rf \"$h\"; done", B),
        ("for b in /sys/block/*; do shred -n1 /dev/$(basename $b); done", B),
        ("docker run --rm -v ${HOME}:/me alpine rm -rf /me", B),
        ("getent passwd | cut -d: -f6 | xargs du -sh", S),
        ("getent passwd | cut -d: -f1", S),
        ("ls /dev/*", S),
    ],
)
def test_listings_of_every_account_and_device(command: str, expected: RiskLevel) -> None:
    assert _level(command) == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("$w = { param($d) Remove-Item $d -Recurse -Force }; & $w $env:USERPROFILE", B),
        ("$w = { Remove-Item -LiteralPath $args[0] -Recurse -Force }; & $w 'C:\\Program Files'", B),
        ("$w = { param($d) Remove-Item $d -Recurse -Force }; & $w .\\out", D),
        ("$w = { param($d) Get-ChildItem $d -Recurse }; & $w C:\\Windows", S),
    ],
)
def test_script_blocks_in_variables_bind_their_arguments(command: str, expected: RiskLevel) -> None:
    assert _level(command, "powershell") == expected, command
