"""Long-tail CLIs, second set (safety-cli9): the rows made from bench/cli9_templates.txt and
the generic shapes of `safety/clis.py` they led to, on programs and spellings no row holds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from aintern_ls.safety import RiskLevel, assess, clis
from aintern_ls.safety.analyser import cache_clear
from bench import cli8_harvest
from bench._corpus_figures import figures, read_rows
from tests.safety._levels import B, C, D, M, S

TEMPLATES = cli8_harvest.ROOT / "bench" / "cli9_templates.txt"


@pytest.fixture
def cli9(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for attr in ("TEMPLATES", "OUT", "TAG"):
        monkeypatch.setattr(cli8_harvest, attr, getattr(cli8_harvest, attr))
    cli8_harvest.use_templates(TEMPLATES)
    yield


@pytest.fixture
def without_clis() -> Iterator[None]:
    clis.ENABLED = False
    cache_clear()
    try:
        yield
    finally:
        clis.ENABLED = True
        cache_clear()


def test_committed_rows_are_what_the_templates_make(cli9: None) -> None:
    assert cli8_harvest.OUT.name == "sources_cli9.tsv"
    assert cli8_harvest.render(cli8_harvest.harvest()) == cli8_harvest.OUT.read_text("utf-8")


def test_whole_cli_dev_split_with_its_own_salt(cli9: None) -> None:
    rows = read_rows(cli8_harvest.OUT)
    assert len(rows) >= 250
    by_cli: dict[str, set[str]] = {}
    for r in rows:
        cli = r["source_or_reason"].split(":", 2)[1]
        assert r["source_or_reason"].startswith("cli9:")
        by_cli.setdefault(cli, set()).add(r["split"])
        assert r["split"] == cli8_harvest.split_of(cli)
    assert len(by_cli) >= 30
    assert all(len(s) == 1 for s in by_cli.values())
    assert 8 <= sum(s == {"dev"} for s in by_cli.values()) <= 20


def test_tune_rows_meet_the_issue_targets(cli9: None) -> None:
    rows = [r for r in cli8_harvest.harvest() if r.split == "tune"]
    fig = figures(
        (RiskLevel.from_label(r.expected), assess(r.command, r.shell).level) for r in rows
    )
    assert fig.blocked_recall >= 0.98
    assert fig.high_recall >= 0.95
    assert fig.safe_over_flagged <= 0.02


DESTROYING = [
    # essential packages, any package manager without a protection to override
    ("zypper --non-interactive remove glibc", B),
    ("zypper rm -y systemd", B),
    ("emerge --unmerge sys-libs/glibc", B),
    ("emerge -C =sys-apps/portage-3.0.63", B),
    ("xbps-remove -F glibc", B),
    ("apk del --force-broken-world busybox", B),
    # every stored version
    ("b2 rm --recursive --versions b2://corp-backups", B),
    ("objtool rm --all-versions store://archive/2024", B),
    # audit trails off, backups unscheduled
    ("vault audit disable file/", C),
    ("acmectl audit disable --target syslog", C),
    ("heroku pg:backups:unschedule DATABASE_URL --app shop", C),
    # statements and HTTP deletes sent by a program we only know generically
    ("wrangler d1 execute shop --remote --command 'DROP TABLE orders'", D),
    ("turso db shell shop --sql 'TRUNCATE TABLE events'", D),
    ("gh api -X DELETE repos/acme/api", D),
    ("glab api --method=DELETE projects/42", D),
    ("rdiff-backup --remove-older-than 4W --force /mnt/backup/www", D),
    ("netlify env:unset API_KEY", D),
    # `…ctl` tools and database clients judged generically: their subcommand's verb counts
    ("rabbitmqctl delete_queue orders", D),
    ("natsctl purge_stream orders", D),
    ("cockroach node decommission 4 --insecure", D),
    ("azcopy sync /srv/empty 'https://st.blob.core.windows.net/x' --delete-destination=true", D),
    # backup programs: what their destroying verb deletes is a backup
    ("barman delete pg-main all", B),
    ("barman delete pg-main 20240105T101010", B),
    ("wal-g delete everything FORCE --confirm", B),
    ("pgbackrest --stanza=main stanza-delete --force", B),
    ("acme-backup delete nightly-3", B),
    ("wal-g delete retain FULL 1 --confirm", D),
    ("barman delete pg-main oldest", D),
    # an HTTP DELETE of backups or of every snapshot
    ("curl -XDELETE 'localhost:9200/_snapshot/nightly/snap-*'", B),
    ("curl -X DELETE https://api.example.com/v1/backups/123", B),
    ("http DELETE api.example.com/v1/backups/123", B),
]
LOOK_ALIKES = [
    ("zypper remove --dry-run glibc", S),
    ("zypper info glibc", S),
    ("emerge --pretend --unmerge sys-libs/glibc", M),
    ("emerge --search glibc", M),
    ("zypper --non-interactive remove nginx", M),
    ("b2 ls --versions b2://corp-backups", M),
    ("vault audit list", M),
    ("gh api --method GET repos/acme/api", M),
    ("wrangler d1 execute shop --remote --command 'SELECT count(*) FROM orders'", M),
    ("foo grep -e 'DROP TABLE x' schema.sql", M),
    ("echo 'zypper rm -y glibc'", S),
    ("rabbitmqctl list_queues name messages", M),
    ("azcopy sync /a 'https://st.blob.core.windows.net/x' --delete-destination=false", C),
    ("barman list-backups pg-main", M),
    ("wal-g backup-list", M),
    ("barman backup pg-main", M),
    ("echo DELETE /backups/1", S),
    ("grep -r 'DELETE /backups/1' logs/", S),
    ("curl https://api.example.com/v1/backups/123", M),
    ("curl -X DELETE 'localhost:9200/_snapshot/nightly/snap-2024.01.05'", D),
    ("cockroach sql --insecure", M),
]


@pytest.mark.parametrize("command,level", DESTROYING)
def test_destroying_shapes(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level == level


@pytest.mark.parametrize("command,level", LOOK_ALIKES)
def test_look_alikes_are_not_over_rated(command: str, level: RiskLevel) -> None:
    assert assess(command, "bash").level <= level


@pytest.mark.parametrize(
    "command,level", [c for c in DESTROYING if c[1] >= C and not c[0].startswith("objtool")]
)
def test_shapes_come_from_clis(command: str, level: RiskLevel, without_clis: None) -> None:
    assert assess(command, "bash").level < level


@pytest.mark.parametrize("command,level", [c for c in DESTROYING if c[1] >= C])
@pytest.mark.parametrize(
    "wrap",
    ["sudo {}", "env FOO=1 {}", "sh -c '{}'", 'eval "{}"', "f() {{ {}; }}; f", "timeout 60 {}"],
)
def test_shapes_hold_when_wrapped(command: str, level: RiskLevel, wrap: str) -> None:
    if "'" in command and "'" in wrap:
        command = command.replace("'", '"')
    assert assess(wrap.format(command), "bash").level >= level
