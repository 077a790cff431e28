"""Review-12 fixes (r12, session 14): each finding's mechanism, its neighbours, wrappers and
safe look-alikes.

- `git clean -f` with pathspecs empties only the untracked entries inside them: a named
  subset (dangerous) even after `cd ~`/`cd /`; a wide pathspec (`.`, `:/`, `*`, only
  exclusions) is still the whole tree.
- extglob "every entry but X" (`rm -rf !(keep)`) in the working directory is a clean-up
  (dangerous, as `ls | grep -v keep | xargs rm -rf`) unless that directory is known to be
  the root, a home or a system folder.
- `bcdedit /deletevalue` is judged by the datatype it deletes (the operand after the entry
  id), not by words anywhere in the command (a `/store C:/path/BCD`).
- a named system-state folder given relative to the directory a `cd` set (`cd /etc && rm
  -rf kubernetes`) is that folder (the cheap exit also looks at the known directories).
- named system-state folders are read by every deleting tool (`paths.system_state`): an
  interpreter's rmtree/rm_rf/rmSync and `rsync --delete` into one, as rm and find.
- "every entry but X" of home/root through a filter: rg/egrep -v, awk `!/x/`, sed `/x/d`
  and `sed -n '/x/!p'` are grep -v; `ls` with no operand after `cd ~`/`cd /` lists that folder.
- an extglob list `@(a|b)`/`+(a|b)` is one word per name (as the brace spelling).
- `.[!.]*`, `.[^.]*`, `.??*` are every hidden entry of their folder, as `.*`.
- `git <sub> -h` alone prints the usage (safe, as `--help`).
- `find . -exec chmod MODE {} \\;` is a recursive mode change of the project's tree (as
  `chmod -R MODE ./src`), not of `.` itself; after `cd ~`/`cd /` it is that folder's.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, D, M, S, level

# --- finding 1: git clean with a pathspec is a named subset ---------------------------------


@pytest.mark.parametrize(
    ("cmd", "shell", "want"),
    [
        ("cd ~ && git clean -fdx src/", "bash", D),
        ("cd ~ && git clean -fdx -- build", "bash", D),
        ("cd ~ && git clean -fd -- '*.orig'", "bash", D),
        ("cd ~ && git clean -f *.orig", "bash", D),
        ("cd / && git clean -fd tmp/", "bash", D),
        ("cd ~ && git clean -fdx -e keep src", "bash", D),
        ("git --work-tree=/ clean -fdx tmp/", "bash", D),
        ("Set-Location ~; git clean -fdx src", "powershell", D),
        ("cd %USERPROFILE% && git clean -fdx src", "cmd", D),
        ("cd ~; and git clean -fdx docs", "fish", D),
        # wide pathspecs: still the whole tree
        ("cd ~ && git clean -fdx .", "bash", B),
        ("cd ~ && git clean -fdx :/", "bash", B),
        ("cd ~ && git clean -fdx -- ':!keep'", "bash", B),
        ("cd ~ && git clean -fdx -e keep", "bash", B),
        ("cd ~ && git clean -fdx src/ .", "bash", B),
        ("cd / && git clean -fdx etc", "bash", B),
        ("git --work-tree=/ clean -fdx", "bash", B),
    ],
)
def test_git_clean_pathspec(cmd: str, shell: str, want: object) -> None:
    assert level(cmd, shell) == want


@pytest.mark.parametrize(
    "wrapper", ["{0}", "sh -c '{0}'", "bash -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"]
)
def test_git_clean_pathspec_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("cd ~ && git clean -fdx src/")) == D
    assert level(wrapper.format("cd ~ && git clean -fdx :/")) == B


def test_git_clean_pathspec_under_sudo() -> None:
    assert level("sudo sh -c 'cd ~ && git clean -fdx src/'") == C


# --- finding 2: extglob "every entry but X" in the working directory ------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("rm -rf !(node_modules)", D),
        ("rm -rf !(*.keep)", D),
        ("shopt -s extglob; rm -rf -- !(README.md)", D),
        ("cd build && rm -rf !(keep)", D),
        ("rm -rf ./!(keep)", D),
        ("rm -rf build/!(keep)", D),
        ("cd ~/proj && rm -rf !(src|docs)", D),
        ("cd / && rm -rf !(proc|sys)", B),
        ("cd ~ && rm -rf !(.ssh)", B),
        ("cd $HOME; rm -rf -- !(Documents)", B),
        ("cd /etc && rm -rf !(passwd)", B),
        ("rm -rf ~/!(.ssh)", B),
        ("rm -rf /!(proc)", B),
        ("rm -rf *(*)", B),  # every entry, no exclusion: the cwd-wide wipe
    ],
)
def test_extglob_all_but(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize(
    "wrapper", ["sh -c '{0}'", "bash -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"]
)
def test_extglob_all_but_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("rm -rf !(keep)")) == D
    assert level(wrapper.format("cd ~ && rm -rf !(.ssh)")) == B


# --- finding 3: bcdedit /deletevalue judged by its datatype ----------------------------------


@pytest.mark.parametrize(
    ("cmd", "shell", "want"),
    [
        ("bcdedit /store C:\\path\\BCD /deletevalue {current} useplatformclock", "cmd", C),
        ("bcdedit /store D:\\device\\BCD /deletevalue {current} useplatformclock", "cmd", C),
        ("bcdedit /store E:\\systemroot\\BCD -deletevalue {current} nx", "cmd", C),
        ("bcdedit /deletevalue {current} description", "cmd", C),
        ("bcdedit /deletevalue '{current}' useplatformclock", "powershell", C),
        ("bcdedit /store C:\\path\\BCD /deletevalue {default} recoveryenabled", "cmd", B),
        ("bcdedit /deletevalue {default} osdevice", "cmd", B),
        ("bcdedit /deletevalue path", "cmd", B),  # no id: {current}
        ('bcdedit /deletevalue "{current}" systemroot', "cmd", B),
        ("cmd /c bcdedit -deletevalue {current} recoverysequence", "cmd", B),
        ("& bcdedit.exe /deletevalue '{default}' device", "powershell", B),
        ("bcdedit /enum /v", "cmd", S),
    ],
)
def test_bcdedit_deletevalue_datatype(cmd: str, shell: str, want: object) -> None:
    assert level(cmd, shell) == want


def test_bcdedit_boot_element_reason() -> None:
    found = assess("bcdedit /deletevalue {default} osdevice", "cmd").findings
    assert any("osdevice" in f.reason and "recovery" not in f.reason for f in found)


# --- finding 4: system-state folders relative to a cd ---------------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("cd /etc && rm -rf kubernetes", B),
        ("cd /etc; rm -rf ceph", B),
        ("cd /var/lib && rm -rf ceph", B),
        ("cd /var/lib; rm -rf rancher", B),
        ("cd /etc && rm -rf pve", B),
        ("cd /gnu && rm -rf store", B),
        ("cd /usr/lib && rm -rf python3.11", B),
        ("cd /etc/kubernetes && rm -rf pki", B),
        ("pushd /var/lib && rm -rf etcd", B),
        ("cd /nix/var/nix && rm -rf db", B),
        # look-alikes: an application's folder, one file, a read
        ("cd /etc && rm -rf nginx", D),
        ("cd /var/lib && rm -rf docker", D),
        ("cd /etc && rm -f kubernetes/admin.conf", D),
        ("cd /etc && ls kubernetes", S),
        ("cd ~/src && rm -rf kubernetes", D),
    ],
)
def test_state_folder_relative_to_cd(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize(
    "wrapper", ["sh -c '{0}'", "bash -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"]
)
def test_state_folder_relative_to_cd_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("cd /etc && rm -rf kubernetes")) == B


def test_state_folder_relative_to_cd_under_sudo() -> None:
    assert level("sudo sh -c 'cd /var/lib && rm -rf ceph'") == B


# --- finding 5: system-state folders for every deleting tool --------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("python3 -c \"import shutil; shutil.rmtree('/etc/kubernetes')\"", B),
        ("perl -e 'use File::Path; rmtree(\"/etc/kubernetes\")'", B),
        ("rsync -a --delete /tmp/empty/ /var/lib/etcd/", B),
        ("rsync -a --delete-after empty/ /gnu/store", B),
        ('ruby -e \'require "fileutils"; FileUtils.rm_rf("/var/lib/ceph")\'', B),
        ('node -e \'require("fs").rmSync("/etc/pve", {recursive: true})\'', B),
        ("cd /var/lib && python3 -c \"import shutil; shutil.rmtree('etcd')\"", B),
        # look-alikes: one file, an application's folder, a dry run, a copy out
        ("python3 -c \"import os; os.remove('/etc/kubernetes/admin.conf')\"", D),
        ("python3 -c \"import shutil; shutil.rmtree('/etc/nginx')\"", D),
        ("rsync -a --delete dist/ /var/www/html/", D),
        ("rsync -an --delete /tmp/empty/ /var/lib/etcd/", S),
        ("rsync -a /etc/kubernetes/ /backup/k8s/", M),
    ],
)
def test_state_folder_any_tool(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize(
    "wrapper", ["sh -c '{0}'", "env -i {0}", "timeout 9 {0}", "nohup {0}", "f() {{ {0}; }}; f"]
)
def test_state_folder_any_tool_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("rsync -a --delete /tmp/empty/ /var/lib/etcd/")) == B


# --- finding 6: every other entry of home/root through a filter -----------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("cd ~ && ls -A | grep -v .ssh | xargs rm -rf", B),
        ("cd / && ls -A | grep -v proc | xargs rm -rf", B),
        ("cd $HOME; ls -a . | grep -v -e .ssh | xargs -I{} rm -rf {}", B),
        ("ls -A ~ | rg -v ssh | xargs rm -rf", B),
        ("ls -A ~ | rg --invert-match ssh | xargs rm -rf", B),
        ("ls -A ~ | egrep -v 'ssh|gnupg' | xargs rm -rf", B),
        ("ls -A ~ | awk '!/ssh/' | xargs rm -rf", B),
        ("ls / | awk '$0 !~ /proc/ {print}' | xargs rm -rf", B),
        ("ls -A ~ | sed '/ssh/d' | xargs rm -rf", B),
        ("ls -A ~ | sed -n '/ssh/!p' | xargs rm -rf", B),
        # look-alikes: the working directory's clean-up, a positive match, no delete
        ("ls | grep -v keep | xargs rm -rf", D),
        ("ls | awk '!/keep/' | xargs rm -rf", D),
        ("ls | sed '/keep/d' | xargs rm -rf", D),
        ("cd ~/proj && ls | grep -v keep | xargs rm -rf", D),
        ("ls ~ | awk '/pdf/' | xargs rm -f", D),
        ("ls ~ | sed -n '/pdf/p' | xargs rm -f", D),
        ("ls -A ~ | sed 's/ssh/x/' | xargs rm -rf", D),
        ("cd ~ && ls -A | grep -v .ssh", S),
        ("cd ~ && ls | xargs echo", S),
    ],
)
def test_all_but_through_a_filter(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize(
    "wrapper", ["sh -c '{0}'", "bash -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"]
)
def test_all_but_through_a_filter_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("cd ~ && ls -A | rg -v ssh | xargs rm -rf")) == B
    assert level(wrapper.format("ls | rg -v keep | xargs rm -rf")) == D


# --- finding 7: an extglob list is one word per name ----------------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("cd / && rm -rf @(usr|etc)", B),
        ("rm -rf /@(usr|etc)", B),
        ("rm -rf /+(boot|var)", B),
        ("shopt -s extglob; rm -rf /etc/@(passwd|shadow)", B),
        ("rm -rf @(build|dist)", D),
        ("rm -rf ./@(build|dist|*.egg-info)", D),
        ("rm -f /tmp/x?(.bak)", D),
        ("rm -rf @(*)", B),
        ("ls /@(usr|etc)", M),  # (the grammar's parse error keeps it moderate)
    ],
)
def test_extglob_list(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize("wrapper", ["sh -c '{0}'", "sudo sh -c '{0}'", "eval '{0}'", "( {0} )"])
def test_extglob_list_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("rm -rf /@(usr|etc)")) == B


# --- finding 8: every hidden entry of home ---------------------------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("rm -rf ~/.[!.]*", B),
        ("rm -f ~/.[!.]*", B),
        ("cd ~ && rm -f .[!.]*", B),
        ("rm -rf ~/.??*", B),
        ("rm -rf $HOME/.[^.]*", B),
        ("cd ~ && shred -u .??*", B),
        ("rm -rf /.[!.]*", B),
        ("rm -rf .[!.]*", B),  # every hidden entry of the working directory, as .*
        ("rm -rf ~/proj/.[!.]*", D),
        ("rm -f ~/.*.swp", D),
        ("rm -rf ~/.cache/*", D),
        ("ls -d ~/.[!.]*", S),
        ("echo rm -rf ~/.[!.]*", S),
    ],
)
def test_every_hidden_entry(cmd: str, want: object) -> None:
    assert level(cmd) == want


@pytest.mark.parametrize(
    "wrapper", ["sh -c '{0}'", "sudo sh -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"]
)
def test_every_hidden_entry_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("rm -f ~/.[!.]*")) == B


# --- P5: git <sub> -h -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("cd ~ && git clean -h", S),
        ("git reset -h", S),
        ("git push -h", S),
        ("sh -c 'cd / && git clean -h'", S),
        ("git clean -h -fdx", D),  # -h with other options is not the usage
        ("cd ~ && git clean -fdx", B),
    ],
)
def test_git_sub_h(cmd: str, want: object) -> None:
    assert level(cmd) == want


# --- P1: find . -exec chmod {} ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cmd", "want"),
    [
        ("find . -type f -execdir chmod +x {} \\;", M),
        ("find . -type f -exec chmod 644 {} +", M),
        ("find ./ -type d -exec chmod 755 {} +", M),
        ("find . -exec chown root {} \\;", M),
        ("find . -type f -exec chmod 777 {} \\;", D),  # as chmod -R 777 on a folder
        ("find . -exec chmod u+s {} \\;", C),
        ("cd ~ && find . -type f -exec chmod 600 {} \\;", B),
        ("cd / && find . -exec chown nobody {} +", B),
        ("find ~ -exec chmod 777 {} \\;", B),
        ("find . -exec rm -rf {} +", B),  # deleting every entry stays the cwd-wide wipe
    ],
)
def test_find_exec_chmod_each_file(cmd: str, want: object) -> None:
    assert level(cmd) == want


def test_find_exec_chmod_fence_cwd() -> None:
    assert assess("find . -exec chmod 777 {} +", "bash", cwd="/").level == B
    assert assess("find . -type f -exec chmod 644 {} +", "bash", cwd="/srv/app").level == M


@pytest.mark.parametrize("wrapper", ["sh -c '{0}'", "eval '{0}'", "f() {{ {0}; }}; f", "( {0} )"])
def test_find_exec_chmod_wrapped(wrapper: str) -> None:
    assert level(wrapper.format("find . -type f -exec chmod 644 {} +")) == M
    assert level(wrapper.format("cd ~ && find . -exec chmod 600 {} +")) == B
