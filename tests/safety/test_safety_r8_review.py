"""The read-only reviewer's findings on session 10's landed work (review8, safety-r8): each
finding's own command, two or more other spellings of the same family, and look-alikes that
must stay where they were (both directions)."""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


def _rules(command: str, shell: str) -> set[str]:
    return {f.rule for f in assess(command, shell).findings}


def _check(command: str, shell: str, want: RiskLevel) -> None:
    got = assess(command, shell).level
    assert got == want, f"{command!r} ({shell}): {got.name}, want {want.name}"


# 1. an ssh/plink `-R` value however it is joined to the flag (and in a cluster of flags)
@pytest.mark.parametrize(
    ("command", "shell", "want"),
    [
        ("ssh -Rlocalhost:8022:localhost:22 u@h", "bash", C),  # the reviewer's
        ("ssh -R*:8022:localhost:22 u@h", "bash", C),
        ("ssh -R[::]:8022:localhost:3389 u@h", "bash", C),
        ("plink -R*:8022:localhost:3389 u@h", "cmd", C),
        ("ssh -R0.0.0.0:2222:127.0.0.1:22 -N u@h", "bash", C),  # mine
        ("autossh -M 0 -R 'gw:5900:localhost:5900' u@h", "bash", C),
        ("ssh -fNR 2222:localhost:22 u@h", "bash", C),  # "not regressions": a cluster too
        ("ssh -fNR2222:localhost:22 u@h", "bash", C),
        ("ssh -NfTR 1080 u@h", "bash", C),  # a reverse SOCKS proxy
        ("ssh -Rlocalhost:8022:localhost:22 u@h", "powershell", C),
        # look-alikes: a web port, a local forward, an option whose VALUE holds an R
        ("ssh -Rlocalhost:8080:localhost:8080 u@h", "bash", M),
        ("ssh -fNL 2222:localhost:22 u@h", "bash", M),
        ("ssh -o RemoteForward=no -L 8080:localhost:80 u@h", "bash", M),
        ("ssh -iR22 u@h", "bash", M),  # `-i R22`: a key file named R22
        ("ssh -p 22 u@h uptime", "bash", M),
        ("ssh host ls -R /", "bash", M),  # `-R` of the command run over there (ls)
        ("ssh -i key u@h -R 2222:localhost:22", "bash", C),  # options after the destination
        ("plink -pw s3cret u@h -R 3389:localhost:3389", "cmd", C),
    ],
)
def test_1_reverse_tunnel_values(command: str, shell: str, want: RiskLevel) -> None:
    _check(command, shell, want)
    if want == C:
        assert "remote-access" in _rules(command, shell)


# 2. Windows tunnel programs run from bash (WSL) by their `.exe` names
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("plink.exe -R 2222:localhost:22 u@h", C),
        ("ssh.exe -R 2222:localhost:22 u@h", C),
        ("/mnt/c/Windows/System32/OpenSSH/ssh.exe -R 2222:localhost:22 u@h", C),
        ("klink.exe -R 2222:localhost:22 u@h", C),
        ("/mnt/c/tools/PLINK.EXE -R 3389 u@h", C),  # mine
        ("Autossh.exe -R 5985:localhost:5985 u@h", C),
        ("plink.exe -R 8080:localhost:8080 u@h", M),  # a web port: moderate as plink's
        ("ssh.exe -L 2222:localhost:22 u@h", M),
    ],
)
def test_2_exe_tunnellers_from_bash(command: str, want: RiskLevel) -> None:
    got = assess(command, "bash").level
    if want == M:
        assert got < C, command
    else:
        _check(command, "bash", want)


# 3. a help word as an option's value is not a help request
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("velero backup delete --all --confirm -n help", B),  # as with `-n velero`
        ("velero backup delete --all --confirm -n velero", B),
        ("svn rm https://svn.example/repo/trunk -m help", D),
        ("svn rm https://svn.example/repo/trunk -m 'drop it'", D),
        ("velero schedule delete nightly --namespace help --confirm", D),  # mine
        ("restic forget --keep-last 1 --prune --tag help", D),
        # look-alikes: real help requests stay safe
        ("velero backup delete --help", S),
        ("velero help backup delete", S),
        ("svn rm --help", S),
        ("svn help rm", S),
        ("velero backup delete -h", S),
    ],
)
def test_3_help_marker_only_as_an_option(command: str, want: RiskLevel) -> None:
    got = assess(command, "bash").level
    if want == D:
        assert got >= D, f"{command!r}: {got.name}"
    else:
        _check(command, "bash", want)


# 4. backup nouns are the program's own command words, not a resource's name
@pytest.mark.parametrize(
    ("command", "shell", "want"),
    [
        ("docker volume rm backup", "bash", D),
        ("podman rm backup", "bash", D),
        ("docker compose rm backup", "bash", D),
        ("pm2 delete backup", "bash", D),
        ("docker stop backup", "bash", M),
        ("systemctl stop backup", "bash", D),
        ("pm2 stop backup", "bash", D),
        ("supervisorctl stop backup", "bash", D),
        ('sc stop "Backup"', "cmd", D),
        ("Stop-Service backup", "powershell", D),
        ("docker rm -f backups", "bash", D),  # mine
        ("systemctl stop snapshot.service", "bash", D),
        # the other direction: a CLI's own backup resource is still the backups
        ("velero delete backup nightly --confirm", "bash", B),
        ("kubectl delete volumesnapshot --all -n db", "bash", B),
        ("Remove-FooBackupSet -Name x", "powershell", B),
    ],
)
def test_4_backup_nouns_from_command_words(command: str, shell: str, want: RiskLevel) -> None:
    got = assess(command, shell).level
    if want == B:
        assert got == B, command
    else:
        assert got == want, f"{command!r}: {got.name}"
        assert "cli-backup-delete" not in _rules(command, shell)
        assert "cli-backup-off" not in _rules(command, shell)


# 5. `--backup=off`/`--no-backup` of programs whose handler knows them
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("cp --backup=off a.txt b.txt", M),
        ("mv --backup=none a.txt b.txt", M),
        ("install --backup=off -m 755 tool /usr/local/bin/", None),
        ("rsync -a --no-backup src/ dst/", M),
        ("npm install --no-backup", M),
        ("hg revert --all --no-backup", D),
        ("hg strip -r 'draft()' --no-backup", D),
        # the other direction: a cloud database's automated backups turned off
        ("gcloud sql instances patch db1 --no-backup", C),
        ("az postgres flexible-server update -n x -g rg --backup-enabled=false", C),
    ],
)
def test_5_backup_off_only_for_cloud_clis(command: str, want: RiskLevel | None) -> None:
    got = assess(command, "bash").level
    if want is None:
        assert "cli-backup-off" not in _rules(command, "bash")
    else:
        assert got == want, f"{command!r}: {got.name}"
    if want is not None and want < C:
        assert "cli-backup-off" not in _rules(command, "bash")


# 6. ambiguous vendor words only as a whole operand; pkill -f patterns are free text
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ('pkill -f "gunicorn falcon_app:app"', D),
        ("pkill -f edr-report", D),
        ("pkill -f avg", D),
        ("brew uninstall falcon", M),
        ("pip uninstall -y falcon", M),  # mine
        ("pkill -f 'python -m avg_calc'", D),
        ("killall -r 'edr.*report'", D),
        # the other direction: the products themselves
        ("pkill -f falcon-sensor", C),
        ('pkill -f "crowdstrike falcon"', C),
        ("pkill avg", C),
        ("systemctl stop falcon-sensor", C),
        ("pkill -9 falcond", C),
    ],
)
def test_6_ambiguous_vendor_words(command: str, want: RiskLevel) -> None:
    _check(command, "bash", want)


# 7. an RMM agent's name at the start of a word, never inside one
@pytest.mark.parametrize(
    ("command", "shell", "want"),
    [
        ("lateral install foo", "bash", M),
        ("collateral install --silent", "bash", M),
        ("bilateral --install-service", "bash", None),
        # the other direction
        ("./AnyDesk_setup.exe --install-service", "bash", C),
        ("AteraAgentSetup.exe /install", "cmd", C),
        ("msiexec /i setup-AnyDesk.msi /qn", "cmd", C),
    ],
)
def test_7_rmm_names_whole_words(command: str, shell: str, want: RiskLevel | None) -> None:
    if want is None:
        assert "remote-access" not in _rules(command, shell)
    else:
        _check(command, shell, want)
        if want == M:
            assert "remote-access" not in _rules(command, shell)


# 9. names dropped in the security-table merge, and the two dropped on purpose
@pytest.mark.parametrize(
    ("command", "shell", "want"),
    [
        ("sc stop csfalcon", "cmd", C),
        ("taskkill /f /im csfalcon.exe", "cmd", C),
        ("apt-get remove csfalcon", "bash", C),
        ("net stop CSFalcon", "cmd", C),  # mine
        ("systemctl stop defenders", "bash", C),
        ("systemctl stop defender.service", "bash", C),
        # cb and PostgreSQL's repmgr are not products (Carbon Black's are cb.exe, repmgr.exe)
        ("pkill -9 cb", "bash", D),
        ("pkill -9 repmgr", "bash", D),
        ("taskkill /f /im cb.exe", "cmd", C),
    ],
)
def test_9_security_names(command: str, shell: str, want: RiskLevel) -> None:
    _check(command, shell, want)


# 8. (judgement) a superuser made on a local development database is dangerous; a sign of a
# remote or production database keeps it critical; other admin grants stay critical
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("python manage.py createsuperuser", D),
        ("django-admin createsuperuser", D),
        ("createuser -s alice", D),
        ("python3 manage.py createsuperuser --noinput --username dev", D),  # mine
        ("createuser -h localhost --superuser alice", D),
        ("createuser -dsr alice", D),
        # the other direction: remote or production signs
        ("python manage.py createsuperuser --settings=mysite.settings.production", C),
        ("DJANGO_SETTINGS_MODULE=app.settings.prod python manage.py createsuperuser", C),
        (
            "export DJANGO_SETTINGS_MODULE=site.settings.production; "
            "python manage.py createsuperuser",
            C,
        ),
        ("createuser -h db.example.com -s alice", C),
        ("createuser --host=10.0.0.5 --superuser ops", C),
        ("rabbitmqctl set_user_tags ops administrator", C),  # not a setup superuser
        ("createuser app", M),
    ],
)
def test_8_setup_superuser(command: str, want: RiskLevel) -> None:
    _check(command, "bash", want)
    if want >= D:
        assert "account" in _rules(command, "bash")


# 13, 14: one read-only table in remote.py; every plain RMM name of REMOTE_TOOLS is a known
# program (LogMeIn, Kaseya, Radmin, Action1, NinjaOne were missing from a hand-made list)
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("kaseya --version", S),
        ("logmein --help", S),
        ("radmin /?", S),
        ("ninjarmm --get-status", S),
        ("anydesk --get-id", S),
        ("ngrok version", S),
        ("action1 --silent", C),  # armed
        ("radmin /install", C),
    ],
)
def test_13_14_rmm_programs_known(command: str, want: RiskLevel) -> None:
    _check(command, "bash", want)


def test_14_handlers_follow_the_table() -> None:
    from aintern_ls.safety import registry, remote

    plain = [n for n in remote._split("rmm", "") if n.replace("-", "").replace("_", "").isalnum()]
    assert {"logmein", "kaseya", "radmin", "action1", "ninjaone"} <= set(plain)
    for n in plain:
        assert registry.HANDLERS[n].__module__ == remote.__name__, n
