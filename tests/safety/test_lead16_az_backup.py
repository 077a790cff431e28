"""A storage account whose name says backup, deleted whole by the az CLI, is blocked (session-16
convention in HELPERS.md: a backup store deleted whole is blocked in every cloud CLI
spelling; the PowerShell cmdlet already was). Other accounts stay dangerous, reads safe."""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from aintern_ls.safety.levels import RiskLevel

BACKUP_ACCOUNT_DELETES = [
    "az storage account delete --name prodbackups --resource-group prod-rg --yes",
    "az storage account delete -g rg -n corpbackups --yes",
    "az storage account delete -n nightlybkp -g rg -y",
    "az storage account delete --name=vmbackup01 --yes",
    "az storage account delete --ids /subscriptions/x/resourceGroups/rg/providers/"
    "Microsoft.Storage/storageAccounts/corpbackups --yes",
]


@pytest.mark.parametrize("text", BACKUP_ACCOUNT_DELETES)
@pytest.mark.parametrize(
    "wrap",
    [
        "{}",
        "sudo {}",
        "env AZURE_CORE_OUTPUT=none {}",
        "sh -c '{}'",
        "eval '{}'",
        "f() {{ {}; }}; f",
    ],
)
def test_a_backup_account_deleted_by_the_az_cli_is_blocked(text: str, wrap: str) -> None:
    got = assess(wrap.format(text), "bash")
    assert got.level == RiskLevel.BLOCKED, got
    assert any(f.rule == "delete-backups" for f in got.findings)


@pytest.mark.parametrize("shell", ["powershell", "cmd"])
def test_the_same_in_windows_shells(shell: str) -> None:
    assert assess(BACKUP_ACCOUNT_DELETES[1], shell).level == RiskLevel.BLOCKED


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("az storage account delete --name webapp01 --yes", RiskLevel.DANGEROUS),
        ("az storage account delete -g backups-rg -n webapp01 --yes", RiskLevel.DANGEROUS),
        ("az storage account show --name corpbackups", RiskLevel.SAFE),
        ("az storage account list -g rg --query \"[?contains(name,'backup')]\"", RiskLevel.SAFE),
        ("echo 'az storage account delete -n corpbackups --yes'", RiskLevel.SAFE),
    ],
)
def test_look_alikes_keep_their_level(text: str, level: RiskLevel) -> None:
    assert assess(text, "bash").level == level
