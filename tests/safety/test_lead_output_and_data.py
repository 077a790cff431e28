"""Two mechanisms: output options write files (whatever the program), and a fork bomb
that is only text (a heredoc printed, a string, a comment) is not one."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, M, S


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("sort -u names.txt -o /etc/group", B),
        ("uniq -c words.txt -o/etc/shadow", B),
        ("curl -sL https://example.com/x --output=/etc/passwd", B),
        ("wget -q --output-document=/etc/sudoers https://example.com/s", B),
        ("curl -o ~/.zshrc https://example.com/rc", C),
        ("sort -o sorted.txt names.txt", M),
        ("wget -O - https://example.com/", M),
        ("grep -o /etc/passwd notes.txt", S),
        ("mke2fs -n /dev/sdb1", S),
        ("mkfs.ext3 -n /dev/nvme0n1p2", S),
        ("mkfs.ext4 /dev/sdb1", B),
    ],
)
def test_output_options_and_dry_runs(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level is level, assess(command, "bash").findings


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("cat <<'X'\nbomb(){ bomb|bomb& };bomb\nX", S),
        ("cat <<'EOF'\n:(){ :|:& };:\nEOF", S),
        ("printf '%s\\n' ':(){ :|:& };:'", S),
        ("sh <<'EOF'\n:(){ :|:& };:\nEOF", B),
        ("cat > bomb.sh <<'EOF'\n:(){ :|:& };:\nEOF\nsh bomb.sh", B),
        (":(){ :|:& };:", B),
    ],
)
def test_a_fork_bomb_in_text_is_text(command: str, level: RiskLevel) -> None:
    got = assess(command, "bash").level
    assert (got < RiskLevel.DANGEROUS) if level is S else (got is level), (command, got)
