"""One remote-access knowledge table and judge (`safety/remote.py`), read by reports' RMM and
tunnel rules, the enrolment rule detections.py had, and system.remote_access_install
(safety-debt8)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from aintern_ls.safety import assess, detections, remote, reports, system
from tests.safety._levels import C, M, S


def _rules(command: str, shell: str = "bash") -> set[str]:
    return {f.rule for f in assess(command, shell).findings}


@pytest.fixture
def made_up_tool() -> Iterator[str]:
    name = "zqxremotedesk"
    saved = remote.REMOTE_TOOLS
    remote.REMOTE_TOOLS = (*saved, ("ZQX remote desk (made up)", "rmm", name, r"--enrol\b"))
    remote.rebuild()
    try:
        yield name
    finally:
        remote.REMOTE_TOOLS = saved
        remote.rebuild()


@pytest.mark.parametrize(
    ("template", "shell", "rule"),
    [
        ("./NAME_setup.exe --install-service", "bash", "remote-access"),  # armed (reports)
        ("NAME.exe --silent", "cmd", "remote-access"),
        ("NAME --enrol 1234", "bash", "remote-access"),  # its own enrolment spelling
        ("msiexec /i NAME.msi /qn", "cmd", "remote-access"),  # installed silently
        ("NAME install", "bash", "persistence"),  # an unknown program installing itself
    ],
)
def test_a_tool_added_once_is_seen_by_every_rule(
    made_up_tool: str, template: str, shell: str, rule: str
) -> None:
    command = template.replace("NAME", made_up_tool)
    got = assess(command, shell)
    assert got.level == C, (command, got)
    assert rule in {f.rule for f in got.findings}, (command, got)


def test_without_the_tool_those_commands_are_not_remote_access() -> None:
    for command, shell in [
        ("./zqxwidget_setup.exe --enrol 1", "bash"),
        ("msiexec /i zqxwidget.msi /qn", "cmd"),
        ("zqxwidget install", "bash"),
    ]:
        assert "remote-access" not in _rules(command, shell), command
        assert assess(command, shell).level < C, command


@pytest.mark.parametrize("port", sorted(remote.LOGIN_PORTS))
def test_one_set_of_login_ports(port: str) -> None:
    # every rule about exposing a login port reads `remote.LOGIN_PORTS`
    assert assess(f"ssh -R 9000:localhost:{port} relay@203.0.113.7", "bash").level == C
    assert assess(f"plink -R 9000:127.0.0.1:{port} relay@203.0.113.7", "cmd").level == C
    assert assess(f"bore local {port} --to bore.pub", "bash").level == C
    assert assess(f"ngrok tcp {port}", "bash").level == C


def test_an_ordinary_port_is_not_a_login_port() -> None:
    assert "remote-access" not in _rules("ssh -R 9000:localhost:8080 relay@203.0.113.7")
    assert assess("bore local 8080 --to bore.pub").level == M
    assert assess("ngrok http 8080").level == M


def test_enrolment_spellings_are_judged_by_the_one_judge() -> None:
    # these sat in detections.py, which ran after reports had already rated the same rule id
    # moderate; the first finding of a rule id and span wins, so they stayed moderate
    assert assess("rustdesk --config 'host=rd.example.net,key=abc'").level == C
    assert (
        assess('ScreenConnect.ClientService.exe "?e=Access&y=Guest&h=198.51.100.4&k=BgIAAA"').level
        == C
    )
    assert assess("amazon-ssm-agent -register -code AbCd -id 0123 -region us-east-1").level == C
    assert assess("teamviewer assign --api-token 12-ab --grant-easy-access").level == C
    assert assess("anydesk --get-id").level == S
    assert assess("rustdesk --get-id").level == S


def test_the_old_copies_are_gone() -> None:
    assert not hasattr(reports, "_RMM") and not hasattr(reports, "_LOGIN_PORTS")
    assert not hasattr(reports, "_TUNNELS") and not hasattr(reports, "_tunnel")
    assert not hasattr(detections, "_remote_admin_enrolment")
    assert not hasattr(detections, "_REMOTE_LOGIN_PORTS")
    assert not hasattr(system, "_REMOTE_ACCESS") and not hasattr(system, "_SERVICE_INSTALL_OPT")


def test_every_row_has_a_kind() -> None:
    for what, kind, names, _arming in remote.REMOTE_TOOLS:
        assert what and kind in remote.KINDS and names.split(), what
