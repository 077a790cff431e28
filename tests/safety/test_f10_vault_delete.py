"""A secret vault CLI's delete verb is a cloud delete (safety-f10): dangerous in any
wrapper; its reads stay moderate and `--help` or a run command's own words do not count."""

import pytest

from aintern_ls.safety import RiskLevel, assess

DELETES = [
    "doppler environments delete qa --yes",
    "infisical secrets delete SMTP_PASS --env=staging",
    "chamber delete billing api_token",
    "env DOPPLER_TOKEN=x doppler projects rm legacy -y",
    "sh -c 'infisical secrets delete TOKEN'",
    "eval 'chamber delete svc k'",
    "g() { doppler configs delete dev_tmp --yes; }; g",
]

NOT_DELETES = [
    ("doppler configs delete --help", RiskLevel.SAFE),
    ("doppler run -- echo delete", RiskLevel.MODERATE),
    ("infisical secrets get TOKEN", RiskLevel.MODERATE),
    ("echo 'doppler projects delete legacy'", RiskLevel.SAFE),
]


@pytest.mark.parametrize("command", DELETES)
def test_vault_delete_is_dangerous(command: str) -> None:
    assessment = assess(command, "bash")
    assert assessment.level == RiskLevel.DANGEROUS
    assert any(f.rule == "cloud-delete" for f in assessment.findings)


@pytest.mark.parametrize(("command", "level"), NOT_DELETES)
def test_vault_look_alikes_keep_their_level(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level == level
