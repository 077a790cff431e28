"""Over-ratings a review of session 9 found in the security-product knowledge (reports.py,
detections.py): project paths, WMI wildcards and common words taken for security products.
The real products, spelled the same ways, stay critical."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel
from tests.safety._levels import C, level


@pytest.mark.parametrize(
    "command,shell",
    [
        ("./cortex/scripts/cleanup.sh", "bash"),  # a folder of a project, not a vendor
        ("~/src/falcon/tools/remove_pyc.sh", "bash"),
        ("./tools/defender/kill_stale.py", "bash"),
        ("wmic service where \"name like '%serv%'\" call stopservice", "cmd"),
        ("wmic process where \"name like '%agent%'\" call terminate", "cmd"),
        ("systemctl stop repmgr", "bash"),  # PostgreSQL's replication manager
        ("pkill -f confer", "bash"),
        ('pkill -f "python cortex"', "bash"),
        ("systemctl stop cortex", "bash"),  # Cortex, the metrics store
        ("systemctl stop cb", "bash"),
    ],
)
def test_look_alikes_are_not_security_products(command: str, shell: str) -> None:
    assert level(command, shell) < RiskLevel.CRITICAL


@pytest.mark.parametrize(
    "command,shell",
    [
        ("wmic process where \"name like '%carbon%'\" call terminate", "cmd"),
        ('"C:\\Program Files\\Windows Defender\\MpCmdRun.exe" -RemoveDefinitions -All', "cmd"),
        ("C:\\ProgramData\\Sophos\\uninstall.exe", "cmd"),
        ("/opt/CrowdStrike/falconctl uninstall", "bash"),
        ("systemctl stop falcon-sensor", "bash"),
        ("net stop WinDefend", "cmd"),
        ("pkill -9 sophos", "bash"),
        ("systemctl stop cortex-xdr", "bash"),
    ],
)
def test_the_products_themselves_stay_critical(command: str, shell: str) -> None:
    assert level(command, shell) >= C


@pytest.mark.parametrize(
    "command,expected",
    [
        ("wp user list --role=administrator", False),  # a listing (probe7's over-rating)
        ("wp user list --role=administrator --fields=user_login", False),
        ("wp user create eve eve@example.com --role=administrator", True),
        ("wp user add-role eve administrator", True),
    ],
)
def test_admin_role_listing_is_not_an_account_change(command: str, expected: bool) -> None:
    assert (level(command) >= C) is expected
