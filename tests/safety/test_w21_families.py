"""Session 21 (w21): Windows mechanisms, not spellings.

- Remote access opened through the firewall: an inbound allow rule for a remote-login port
  (RDP 3389, SSH 22, WinRM 5985/5986, SMB 445: `remote.LOGIN_PORTS`, ranges and lists too)
  or for any port from any address, by netsh (advfirewall and the legacy `firewall add
  portopening` / `set service`), New-NetFirewallRule, and the remote-desktop / WinRM /
  file-sharing rule groups switched on (netsh `set rule group=… new enable=yes`,
  Set-/Enable-NetFirewallRule): critical, as an inbound allow-any rule. An ordinary app port,
  a rule limited to the loopback, a block rule, an outbound rule, -WhatIf and printing stay
  where they were.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import PS_BLOCK_WRAPPERS, C, M, S

ADD = "netsh advfirewall firewall add rule name=x dir="
NFR = "New-NetFirewallRule -DisplayName x "

# ---------------------------------------------------------------- remote access opened
FIREWALL = [
    (
        ADD + "in action=allow protocol=TCP localport=3389",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=5985-5986",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=21,22",
        "cmd",
        C,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=7000 remoteip=any",
        "cmd",
        C,
    ),
    ("netsh firewall add portopening protocol=TCP port=445 name=smb", "cmd", C),
    ("netsh firewall set service type=remotedesktop mode=enable", "cmd", C),
    (
        'netsh advfirewall firewall set rule group="Windows Remote Management" new enable=yes',
        "cmd",
        C,
    ),
    (
        "netsh.exe " + ADD[6:] + "in action=allow protocol=TCP localport=3389",
        "bash",
        C,
    ),
    ("New-NetFirewallRule -DisplayName s -LocalPort 22 -Protocol TCP", "powershell", C),
    (
        NFR + "-Direction In -Action Allow -Protocol TCP -LocalPort 5986",
        "powershell",
        C,
    ),
    (
        NFR + "-Direction Inbound -LocalPort 7000 -Protocol TCP -RemoteAddress Any",
        "powershell",
        C,
    ),
    ('Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled True', "powershell", C),
    ('Enable-NetFirewallRule -DisplayGroup "File and Printer Sharing"', "powershell", C),
    ("Enable-NetFirewallRule -Name WINRM-HTTP-In-TCP", "powershell", C),
    (
        'powershell -c "' + NFR + '-Direction Inbound -LocalPort 3389 -Protocol TCP -Action Allow"',
        "cmd",
        C,
    ),
    # look-alikes that must not rise
    (
        ADD + "in action=block protocol=TCP localport=3389",
        "cmd",
        M,
    ),
    (
        ADD + "out action=allow protocol=TCP remoteport=22",
        "cmd",
        M,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=3389 remoteip=127.0.0.1",
        "cmd",
        M,
    ),
    (
        ADD + "in action=allow protocol=TCP localport=8080 remoteip=localsubnet",
        "cmd",
        M,
    ),
    ("netsh firewall add portopening TCP 8080 web", "cmd", M),
    ("netsh firewall set service type=remotedesktop mode=disable", "cmd", M),
    ('netsh advfirewall firewall set rule group="remote desktop" new enable=no', "cmd", M),
    ("netsh advfirewall firewall add rule /?", "cmd", S),
    ("echo netsh advfirewall firewall add rule dir=in action=allow localport=3389", "cmd", S),
    ('Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled False', "powershell", M),
    (
        NFR + "-Direction Inbound -LocalPort 3389 -Protocol TCP -Action Block",
        "powershell",
        M,
    ),
    (
        NFR + "-LocalPort 3389 -Protocol TCP -Enabled False",
        "powershell",
        M,
    ),
    (NFR + "-LocalPort 3389 -Protocol TCP -WhatIf", "powershell", S),
    (
        "Write-Output 'New-NetFirewallRule -Direction Inbound -Action Allow -LocalPort 3389'",
        "powershell",
        S,
    ),
    ("Get-NetFirewallPortFilter | Where-Object LocalPort -eq 3389", "powershell", S),
]


@pytest.mark.parametrize(("command", "shell", "expected"), FIREWALL)
def test_remote_access_through_the_firewall(command: str, shell: str, expected: object) -> None:
    assert assess(command, shell).level == expected, command


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
def test_remote_access_rule_in_script_blocks(wrapper: str) -> None:
    body = "New-NetFirewallRule -DisplayName r -LocalPort 3389 -Protocol TCP"
    assert assess(wrapper.format(body), "powershell").level == C
