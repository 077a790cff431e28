"""One credential-store table and one timestomp rule (safety-debt8)."""

from __future__ import annotations

import re

import pytest

from aintern_ls.safety import assess, detections, reports, windows
from tests.safety._levels import C


def _rules(command: str, shell: str = "bash") -> set[str]:
    return {f.rule for f in assess(command, shell).findings}


def test_the_views_come_from_the_one_table() -> None:
    for column, view in (
        (1, detections._CRED_STORE),
        (2, detections.CREDENTIAL_FILE),
        (3, detections.CREDENTIAL_WINDOWS),
    ):
        for row in detections.CREDENTIAL_STORES:
            if row[column]:
                assert f"(?:{row[column]})" in view.pattern, row[0]
    for what, anywhere, file, win in detections.CREDENTIAL_STORES:
        assert what and (anywhere or file or win)
        for rx in (anywhere, file, win):
            if rx:
                re.compile(rx)


@pytest.mark.parametrize(
    ("command", "shell", "rule"),
    [
        # a reader of the store file (reports' rule)
        ("cp ~/Library/Keychains/login.keychain-db /tmp/k", "bash", "credentials"),
        ("base64 ~/.mozilla/firefox/p.default/key4.db", "bash", "credentials"),
        # a stager of a folder that holds stores (detections' rule)
        ("zip -r /tmp/k.zip ~/Library/Keychains", "bash", "credential-dump"),
        ("7z a out.7z ~/.electrum/wallets", "bash", "credential-dump"),
        # a Windows tool's command line (windows.py)
        ("procdump -accepteula -ma lsass.exe C:\\t\\l.dmp", "cmd", "credential-dump"),
        (
            "wbadmin start backup -backuptarget:E: -include:C:\\Windows\\NTDS\\ntds.dit",
            "cmd",
            "credential-dump",
        ),
    ],
)
def test_each_view_is_read_by_its_rule(command: str, shell: str, rule: str) -> None:
    got = assess(command, shell)
    assert got.level == C, (command, got)
    assert rule in {f.rule for f in got.findings}, (command, got)


def test_look_alikes_are_not_stores() -> None:
    assert assess("cp notes/login-data-model.md /tmp/").level < C
    assert assess("zip -r site.zip public/cookies-policy.html").level < C
    assert assess("procdump -ma myservice.exe C:\\t\\m.dmp", "cmd").level < C


@pytest.mark.parametrize(
    "command",
    [
        "touch -r /bin/ls /usr/sbin/sshd-helper",
        "touch -d '2019-01-01 10:00' /var/log/auth.log",
        "touch -t 201901011000 /etc/cron.d/zz",
        "touch -d 2020-02-02 /Library/LaunchDaemons/com.x.plist",
        "touch -r /bin/sh /store/packages/x.vib",
        "touch --date=2019-01-01 /private/var/log/system.log",
    ],
)
def test_one_timestomp_rule(command: str) -> None:
    got = assess(command)
    assert got.level == C, (command, got)
    assert "timestomp" in {f.rule for f in got.findings}


def test_timestomp_of_windows_system_folders() -> None:
    for path in ("C:\\Windows\\System32\\x.dll", "C:\\Program Files\\App\\a.exe"):
        assert "timestomp" in _rules(f"touch -d 2019-01-01 '{path}'"), path


def test_the_stamp_is_not_a_target() -> None:
    # what -r/--reference/-d take is where the time comes from, not the file changed
    assert "timestomp" not in _rules("touch --reference /etc/passwd /tmp/x")
    assert "timestomp" not in _rules("touch -r /etc/hosts build/stamp")
    assert "timestomp" not in _rules("touch -d yesterday notes.txt")
    assert assess("touch /etc/motd").level < C  # no faked time: a write, judged elsewhere


def test_the_old_copies_are_gone() -> None:
    for module, names in (
        (reports, ("_CRED_STORE", "_SYSTEM_TREE", "_touch", "_EVERY_VM", "_clean", "_SECURITY")),
        (detections, ("_timestomp", "_SECURITY_NAMES", "_SECURITY_RE")),
        (windows, ("_CRED_STORE",)),
    ):
        for name in names:
            assert not hasattr(module, name), f"{module.__name__}.{name}"
