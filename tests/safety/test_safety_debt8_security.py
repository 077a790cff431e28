"""One table of security products (`safety/security.py`) and one "stops security" parser
(`detections.stops_security`), read by every rule that asks (safety-debt8)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from aintern_ls.safety import assess, security
from tests.safety._levels import C

# Every way a rule in system/windows/detections/reports asks "is this a security component?"
# with NAME standing for a service/process/package name.
STOPPERS: tuple[tuple[str, str], ...] = (
    ("systemctl stop NAME", "bash"),
    ("systemctl disable --now NAME.service", "bash"),
    ("service NAME stop", "bash"),
    ("launchctl unload /Library/LaunchDaemons/com.vendor.NAME.plist", "bash"),
    ("update-rc.d NAME remove", "bash"),
    ("sysrc NAME_enable=NO", "bash"),
    ("pkill -9 NAME", "bash"),
    ("killall NAME", "bash"),
    ("kill -9 $(pgrep NAME)", "bash"),
    ("apt-get purge -y NAME", "bash"),
    ("rpm -e NAME", "bash"),
    ("taskkill /f /im NAME.exe", "cmd"),
    ("sc stop NAME", "cmd"),
    ("sc config NAME start= disabled", "cmd"),
    ("net stop NAME", "cmd"),
    ("wmic process where name='NAME.exe' call terminate", "cmd"),
    ("Stop-Service -Name NAME -Force", "powershell"),
    ("Set-Service NAME -StartupType Disabled", "powershell"),
    ("Stop-Process -Name NAME -Force", "powershell"),
    ("Get-Process NAME | Stop-Process -Force", "powershell"),
)


@pytest.fixture
def made_up_product() -> Iterator[str]:
    """A product nobody has heard of, added to the one table only."""
    name = "zqxguardd"
    saved = security.PRODUCTS
    security.PRODUCTS = (*saved, ("ZQX Guard (made up)", "endpoint", name, ""))
    security.rebuild()
    try:
        yield name
    finally:
        security.PRODUCTS = saved
        security.rebuild()


@pytest.mark.parametrize(("template", "shell"), STOPPERS)
def test_a_product_added_once_is_seen_by_every_rule(
    made_up_product: str, template: str, shell: str
) -> None:
    command = template.replace("NAME", made_up_product)
    got = assess(command, shell)
    assert got.level == C, (command, got)
    assert "disable-security" in {f.rule for f in got.findings}, (command, got)


@pytest.mark.parametrize(("template", "shell"), STOPPERS)
def test_without_the_product_the_same_commands_are_not_security(template: str, shell: str) -> None:
    command = template.replace("NAME", "zqxwidgetd")  # not in the table
    got = assess(command, shell)
    assert "disable-security" not in {f.rule for f in got.findings}, (command, got)


# Names that each sat in only one of the five old tables: every rule now knows them all.
@pytest.mark.parametrize(
    "name", ["bcm-agent", "klnagent", "aliyun-service", "MBAMService", "RaccineSettings", "kesl"]
)
@pytest.mark.parametrize(
    ("template", "shell"),
    [
        ("systemctl stop NAME", "bash"),
        ("pkill NAME", "bash"),
        ("taskkill /f /im NAME.exe", "cmd"),
        ("sc stop NAME", "cmd"),
        ("Stop-Service NAME", "powershell"),
    ],
)
def test_names_from_any_old_table_reach_every_rule(name: str, template: str, shell: str) -> None:
    got = assess(template.replace("NAME", name), shell)
    assert got.level == C
    # the handler itself now knows the product: no generic "stops services" finding beside it
    assert {f.rule for f in got.findings} == {"disable-security"}, got


def test_whole_operand_names_are_not_found_inside_other_words() -> None:
    # `sense`, `avp`, `cb`, `santa` are security components only as a whole operand
    assert security.security_name("Sense")
    assert security.security_component("sense") == "sense"
    assert security.security_component("common sense thinking") is None
    assert assess("pkill -f sensei-server", "bash").level < C
    assert assess("systemctl stop redis-sentinel", "bash").level < C  # Redis, not SentinelOne
    assert assess("systemctl stop sentinelone", "bash").level == C
    assert assess("taskkill /im avp.exe", "cmd").level == C


def test_vendor_words_need_whole_words() -> None:
    assert security.security_word('"Sophos AutoUpdate Service"') == "sophos"
    assert security.security_word("reset") is None  # not ESET
    assert security.security_word("/usr/bin/edraw") is None  # not EDR
    assert assess('net stop "Sophos AutoUpdate Service"', "cmd").level == C
    assert assess("net stop reset-helper", "cmd").level < C


def test_every_row_has_a_kind_and_reason() -> None:
    for what, kind, names, _words in security.PRODUCTS:
        assert what and kind in security.KINDS and names.split(), what
    assert security.product_of("csfalconservice") == ("CrowdStrike Falcon", "endpoint")
    assert security.product_of("zqxwidgetd") is None


def test_the_reason_names_the_product() -> None:
    got = assess("apt-get purge -y falcon-sensor", "bash")
    assert got.level == C
    assert any("CrowdStrike" in f.reason for f in got.findings if f.rule == "disable-security")


def test_one_stops_security_parser() -> None:
    from aintern_ls.safety import detections, reports

    assert hasattr(detections, "stops_security")
    assert not hasattr(reports, "_stops_security") and not hasattr(detections, "_stops_security")
    for old in ("_SECURITY_PROCESS", "_SECURITY_PRODUCT", "SECURITY_UNITS"):
        from aintern_ls.safety import system

        assert not hasattr(system, old)
    assert not hasattr(detections, "_SECURITY_NAMES") and not hasattr(reports, "_SEC_WORD")


def test_carbon_blacks_short_names_count_only_as_windows_processes() -> None:
    # `cb` and PostgreSQL's `repmgr` are common words; Carbon Black's processes are `cb.exe`,
    # `repmgr.exe` (review9 look-alikes stay below critical in every rule)
    assert assess("taskkill /f /im cb.exe", "cmd").level == C
    assert assess("taskkill /f /im RepMgr.exe", "cmd").level == C
    for command in ("systemctl stop repmgr", "systemctl stop cb", "pkill repmgr", "sc stop cb"):
        shell = "cmd" if command.startswith("sc ") else "bash"
        assert assess(command, shell).level < C, command
