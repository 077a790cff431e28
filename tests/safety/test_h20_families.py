"""h20 (session 20): precision by mechanism, then the red team's remaining Unix families.
Rows: tests/safety/sources_h20.tsv.

A. Over-ratings of read-only modes (safe rows rated dangerous or critical teach people to
   click through). Each fix is a tool's mode, not a row:
- cloud and cluster CLIs' help: aws's `help` SUBCOMMAND after the operation (`aws s3 rb
  help`), `-h`/`--help` anywhere before `--` for CLIs whose parser prints help there (az,
  gcloud, kubectl, helm, gh …), and their leading `help` subcommand (`gcloud help …`);
- cmd's `/?` of runas;
- modprobe's dry run (`-n`, `--dry-run`, `--show`) and alias resolution (`-R`);
- setcap's verify mode (`-v`), visudo's check of a named file (`-c -f`);
- firewall check modes (`iptables -C`, `nft -c`), `iptables-save`, `iptables-restore -t`;
- test runners' listing modes (`pytest --collect-only`, `jest --listTests`, `go test
  -list`, `cargo test -- --list`): list tests, run none;
- `truncate -r REF FILE` of a project file sizes it (moderate, as `-s +N`).
"""

from __future__ import annotations

import pytest

from tests.safety._levels import B, C, D, M, S
from tests.safety._levels import level as _level

READ_MODES = [
    ("aws s3 rb help", "bash"),
    ("aws ec2 terminate-instances help", "bash"),
    ("aws iam delete-user help", "powershell"),
    ("aws cloudformation delete-stack help", "cmd"),
    ("az group delete -h", "bash"),
    ("az vm delete --name vm1 -h", "powershell"),
    ("az group delete --help", "powershell"),
    ("gcloud compute instances delete -h", "bash"),
    ("gcloud help projects delete", "bash"),
    ("kubectl delete namespace prod -h", "bash"),
    ("kubectl help delete", "bash"),
    ("helm uninstall web -h", "bash"),
    ("gh repo delete -h", "bash"),
    ("runas /?", "cmd"),
    ("modprobe -R ext4", "bash"),
    ("modprobe --resolve-alias snd-hda", "bash"),
    ("modprobe -n -v -a x y", "bash"),
    ("modprobe --dry-run --verbose nf_conntrack", "bash"),
    ("modprobe -nv vfio-pci", "bash"),
    ("setcap -v cap_net_raw+ep /usr/bin/ping", "bash"),
    ("setcap --verify cap_net_bind_service=+ep ./server", "bash"),
    ("visudo -c -f /etc/sudoers.d/deploy", "bash"),
    ("visudo -cf /etc/sudoers.d/deploy", "bash"),
    ("iptables -C INPUT -j ACCEPT", "bash"),
    ("ip6tables --check INPUT -p tcp --dport 22 -j ACCEPT", "bash"),
    ("nft -c -f rules.nft", "bash"),
    ("nft --check add rule inet filter input accept", "bash"),
    ("iptables-save", "bash"),
    ("ip6tables-save | grep -c ACCEPT", "bash"),
    ("iptables-restore --test rules.v4", "bash"),
    ("pytest --collect-only -q", "bash"),
    ("python -m pytest --co tests/unit", "bash"),
    ("jest --listTests", "bash"),
    ("vitest list", "bash"),
    ("phpunit --list-tests", "bash"),
    ("go test -list .", "bash"),
    ("cargo test -- --list", "bash"),
]


@pytest.mark.parametrize(("command", "shell"), READ_MODES)
def test_read_help_check_and_list_modes_are_safe(command: str, shell: str) -> None:
    assert _level(command, shell) == S


@pytest.mark.parametrize(
    "wrap", ["timeout 30 {}", "env LANG=C {}", "bash -c {q}", "({})", "true && {}"]
)
@pytest.mark.parametrize("command", [c for c, s in READ_MODES if s == "bash"][::5])
def test_read_modes_wrapped_stay_safe(command: str, wrap: str) -> None:
    quoted = "'" + command.replace("'", "'\\''") + "'"
    assert _level(wrap.format(command, q=quoted)) == S


@pytest.mark.parametrize(
    ("command", "shell", "expected"),
    [
        # the acting forms keep their level
        ("aws s3 rb s3://bucket --force", "bash", D),
        ("aws s3 rm s3://bucket/help", "bash", D),
        ("aws s3 rb s3://bucket --force help", "bash", D),
        ("az group delete -n rg --yes", "powershell", D),
        ("kubectl delete namespace prod", "bash", D),
        ("kubectl exec -it web -h -- rm -rf /", "bash", B),
        ("helm uninstall web", "bash", D),
        ("runas /user:administrator cmd", "cmd", C),
        ("modprobe ext4", "bash", C),
        ("modprobe -v ext4", "bash", C),
        ("modprobe -r apparmor", "bash", C),
        ("insmod ./evil.ko", "bash", C),
        ("setcap cap_net_raw+ep /usr/bin/ping", "bash", C),
        ("visudo -f /etc/sudoers.d/deploy", "bash", C),
        ("iptables -A INPUT -j ACCEPT", "bash", C),
        ("iptables -F", "bash", C),
        ("nft add rule inet filter input accept", "bash", C),
        ("nft flush ruleset", "bash", C),
        ("iptables-restore < rules.v4", "bash", M),
        ("pytest", "bash", M),
        ("pytest --collect-only -p /tmp/plugin", "bash", M),
        ("go test ./...", "bash", M),
        ("cargo test", "bash", M),
        # truncate to a reference size: moderate for a project file; a size, a system or
        # startup file, a glob keep theirs
        ("truncate -r ref.bin out.bin", "bash", M),
        ("truncate --reference=template.img disk.img", "bash", M),
        ("truncate -r ref.bin -s 0 out.bin", "bash", D),
        ("truncate -s 0 out.bin", "bash", D),
        ("truncate -r ref.bin /etc/passwd", "bash", B),
        ("truncate -r /dev/null ~/.bashrc", "bash", C),
        ("truncate -r ref.bin *", "bash", B),
    ],
)
def test_acting_forms_keep_their_level(command: str, shell: str, expected: object) -> None:
    assert _level(command, shell) == expected
