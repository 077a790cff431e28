"""r18 (session 18 review fixes), each checked on the finding's commands, neighbours of
our own, wrapped, and next to the safe look-alikes that must keep their level.

- `$WhatIfPreference = $true` is a dry run only when nothing later in the text can set it
  back or pass `-WhatIf:$false`: every other mention of the preference or of a WhatIf key
  (braced name, PSVariable, Get-/Set-Variable, a multiple assignment, a splat), code run in
  this scope (dot-source, `&` of a script, a module, iex, a script block) ends the reading.
- Handled cmdlets without ShouldProcess (key handlers, Add-Type, PSReadLine options …) are
  never read as dry runs under the preference.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from aintern_ls.safety import bash
from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S
from tests.safety._levels import level as _level

WIPE = "Remove-Item C:\\Windows -Recurse -Force"
PREF = "$WhatIfPreference = $true; "

PREF_SET_BACK = [
    # review 18 finding 1
    "${WhatIfPreference} = $false; " + WIPE,
    "$ExecutionContext.SessionState.PSVariable.Set('WhatIfPreference', $false); " + WIPE,
    "(Get-Variable WhatIfPreference).Value = $false; " + WIPE,
    "$WhatIfPreference, $x = $false, 1; " + WIPE,
    "$p = @{WhatIf=$false}; " + WIPE + " @p",
    "$s = @{ WhatIf = $false; Recurse = $true }; Remove-Item C:\\Windows @s -Force",
    # r18's own spellings
    "Set-Variable -Name ('WhatIf'+'Preference') -Value $false; " + WIPE,
    "sv WhatIfPreference 0; " + WIPE,
    "Set-Item Variable:\\WhatIfPreference $false; " + WIPE,
    "$k = 'What' + 'If'; $h = @{}; $h[$k] = $false; " + WIPE + " @h",
    "${global:WhatIfPreference} = 0\n" + WIPE,
    # review 18 finding 2: code run in this scope
    ". .\\setup.ps1; " + WIPE,
    "& .\\reset.ps1; " + WIPE,
    "Import-Module .\\evil.psm1; " + WIPE,
    "iex (Get-Content .\\cfg.ps1 -Raw); " + WIPE,
    ". $profile; " + WIPE,
    ".\\init.ps1\n" + WIPE,
    "ipmo C:\\tools\\helpers; " + WIPE,
    "& ([scriptblock]::Create((Get-Content .\\x.txt -Raw))); " + WIPE,
]


@pytest.mark.parametrize("rest", PREF_SET_BACK)
def test_whatif_preference_set_back_or_unreadable_runs(rest: str) -> None:
    assert _level(PREF + rest, "powershell") == B


@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS[:2])
@pytest.mark.parametrize("rest", PREF_SET_BACK[:5] + PREF_SET_BACK[11:13])
def test_whatif_preference_set_back_wrapped(rest: str, wrap: str) -> None:
    assert _level(wrap.format(PREF + rest), "powershell") == B


NO_SHOULDPROCESS = [
    ("Set-PSReadLineKeyHandler -Key Enter -ScriptBlock { & C:\\Users\\Public\\x.ps1 }", C),
    (
        "Set-PSReadLineKeyHandler -Chord Tab -ScriptBlock { Start-Process C:\\ProgramData\\x.exe }",
        C,
    ),
    ("Add-Type -Path C:\\Users\\Public\\evil.dll", M),
    ("Set-PSReadLineOption -HistorySaveStyle SaveNothing", M),
]


@pytest.mark.parametrize(("command", "floor"), NO_SHOULDPROCESS)
def test_cmdlets_without_shouldprocess_ignore_the_preference(command: str, floor: object) -> None:
    bare = _level(command, "powershell")
    assert bare >= floor
    assert _level(PREF + command, "powershell") == bare
    assert _level("$global:WhatIfPreference = 1\n" + command, "powershell") == bare


# Look-alikes: the preference still makes a dry run next to harmless neighbours.
DRY_RUNS = [
    PREF + WIPE,
    PREF + "Get-ChildItem C:\\Temp; Remove-Item C:\\Users -Recurse -Force",
    PREF + "Remove-Item .\\build -Recurse; " + WIPE,
    PREF + "Remove-Item C:\\Temp\\a.txt -WhatIf; " + WIPE,
    PREF + "& { " + WIPE + " }",
    PREF + "Write-Host 'a@b.example'; " + WIPE,
    "$global:WhatIfPreference = 1; Stop-Service -Name wuauserv",
]


@pytest.mark.parametrize("command", DRY_RUNS)
def test_whatif_preference_dry_run_look_alikes(command: str) -> None:
    assert _level(command, "powershell") == S


# `bkp` names a backup only as a name part (edge, digit, separator, or glued before a
# storage word), never inside a word (review 18 finding 7).
@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("Remove-AzStorageAccount -ResourceGroupName rg -Name subkpmetrics -Force", "powershell"),
        ("az storage account delete -n subkpmetrics -g rg --yes", "bash"),
        ("gsutil rm -r gs://clubkpr-assets", "bash"),
        ("gcloud storage rm -r gs://hubkplanner-cache", "bash"),
        ("env AWS_PROFILE=ops aws s3 rb s3://webkpi-dashboards --force", "bash"),
    ],
)
def test_bkp_inside_a_word_is_no_backup(command: str, shell: str) -> None:
    assert _level(command, shell) == D


@pytest.mark.parametrize(
    "command",
    [
        "aws s3 rb s3://nightlybkp --force",
        "az storage account delete -n acmebkpstore01 -g rg --yes",
        "az storage account delete -n tenantbkpdata -g rg --yes",
        "gsutil rm -r gs://acmebkp01",
        "env AWS_PROFILE=prod aws s3 rb s3://db-bkp --force",
        "sh -c 'gsutil rm -r gs://prodbkp'",
    ],
)
def test_bkp_as_a_name_part_is_a_backup(command: str) -> None:
    assert _level(command) == B


# One firewall rule picked (by name across a line break, by a Get-NetFirewall*Filter
# producer, by a narrowed Where) and made to allow stays a scoped change (finding 4).
ONE_RULE_ALLOWED = [
    "Get-NetFirewallRule -DisplayName 'Web 8080' |\n  Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule `\n  -DisplayName 'Web 8080' `\n  | Set-NetFirewallRule -Action Allow",
    'Get-NetFirewallApplicationFilter -Program "C:\\app\\app.exe" | Get-NetFirewallRule'
    " | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallPortFilter -Protocol TCP | ? LocalPort -eq 8080 | Get-NetFirewallRule"
    " | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule | Where-Object { $_.Action -eq 'Block' -and $_.DisplayName -eq"
    " 'Web 8080' } | Set-NetFirewallRule -Action Allow",
]


@pytest.mark.parametrize("command", ONE_RULE_ALLOWED)
def test_one_picked_firewall_rule_allowed_is_moderate(command: str) -> None:
    assert _level(command, "powershell") == M


EVERY_RULE_ALLOWED = [
    "Get-NetFirewallRule | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule |\n  Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule -DisplayName 'Web 8080'\n"
    "Get-NetFirewallRule | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule -Name x; Get-NetFirewallRule | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule | Where-Object { $_.Action -eq 'Block' }"
    " | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallRule | ? Action -eq Block | Set-NetFirewallRule -Action Allow",
    "Get-NetFirewallPortFilter -All | Get-NetFirewallRule | Set-NetFirewallRule -Action Allow",
]


@pytest.mark.parametrize("command", EVERY_RULE_ALLOWED)
def test_every_firewall_rule_allowed_stays_critical(command: str) -> None:
    assert _level(command, "powershell") == C


@pytest.mark.parametrize("wrap", PS_BLOCK_WRAPPERS)
def test_firewall_pick_wrapped(wrap: str) -> None:
    assert _level(wrap.format(EVERY_RULE_ALLOWED[0]), "powershell") == C
    assert _level(wrap.format(ONE_RULE_ALLOWED[2]), "powershell") == M


# fish's `(cmd)` rewrite: a parenthesis whose content starts with an option is no command
# substitution (find's escaped grouping, a broken escape): the filter it holds is not lost
# into a substitution (finding 9); fish's real substitutions keep their level.
@pytest.mark.parametrize(
    ("command", "ceiling"),
    [
        ('find . \\x5c( -name "*.log" -o -name "*.tmp" \\x5c) -exec rm {} \\x5c;', D),
        ("find /srv/www x( -name '*.bak' \\) -delete", D),
        ('find . \\( -name "*.log" -o -name "*.tmp" \\) -exec rm {} \\;', D),
    ],
)
def test_option_in_parentheses_is_no_fish_substitution(command: str, ceiling: object) -> None:
    assert _level(command) <= ceiling


@pytest.mark.parametrize(
    "command",
    ["rm -rf (echo /)", "sudo rm -rf /usr/(echo lib)", "env X=1 rm -rf (string join / '' '')"],
)
def test_fish_substitutions_still_read(command: str) -> None:
    assert _level(command, "fish") == B


def test_fish_rewrite_walks_no_whole_tree() -> None:
    # (a 10,000-character bash text with an error and one `x (…)`: the rewrite costs a
    # second parse, not a walk of every node too: 10.8 -> 5.2 ms CPU here)
    data = ("x (" + ";".join(["a"] * 5000) + ")").encode()
    root = bash.parse(data).root_node
    assert min(_cpu(bash._fish_substitutions, data, root) for _ in range(3)) < 0.02


def _cpu(fn: Callable[..., object], *args: object) -> float:
    t0 = time.thread_time()
    fn(*args)
    return time.thread_time() - t0


# Windows route's -f clears the routing table whatever else is given (finding 14).
@pytest.mark.parametrize(
    "command", ["route -4 -f print", "route -6 /f print", "route -4 -F", "cmd /c route -4 -f print"]
)
def test_route_flush_is_no_listing(command: str) -> None:
    assert _level(command, "cmd") >= M


@pytest.mark.parametrize("command", ["route print", "route -4 print", "route print -4"])
def test_route_listing_stays_safe(command: str) -> None:
    assert _level(command, "cmd") == S


# A counting loop that stops short of the last N items keeps them, like -SkipLast N
# (finding 11); a loop over every index stays every item.
KEEP_LAST = [
    "$b = Get-ChildItem D:\\Backups; for ($i = 0; $i -lt $b.Count - 3; $i++)"
    " { Remove-Item $b[$i].FullName -Recurse }",
    "$b = Get-ChildItem D:\\Backups; foreach ($i in 0..($b.Count - 4))"
    " { Remove-Item $b[$i].FullName -Recurse }",
]
EVERY_INDEX = [
    "$b = Get-ChildItem D:\\Backups; for ($i = 0; $i -lt $b.Count; $i++)"
    " { Remove-Item $b[$i].FullName -Recurse }",
    "$b = Get-ChildItem D:\\Backups; for ($i = 0; $i -le $b.Count - 1; $i++)"
    " { Remove-Item $b[$i].FullName -Recurse }",
    "$s = Get-VMSnapshot -VMName web01; foreach ($i in 0..($s.Count - 1))"
    " { $s[$i] | Remove-VMSnapshot }",
]


@pytest.mark.parametrize("command", KEEP_LAST)
def test_loop_keeping_the_last_items_is_no_wipe(command: str) -> None:
    assert _level(command, "powershell") == D
    assert _level("function f { " + command + " }; f", "powershell") == D


@pytest.mark.parametrize("command", EVERY_INDEX)
def test_loop_over_every_index_stays_blocked(command: str) -> None:
    assert _level(command, "powershell") == B


# fish `for` loops over quoted items (fish's usual style) are read like unquoted ones
# (finding 12).
@pytest.mark.parametrize(
    "command",
    [
        'for d in "$HOME"; rm -rf $d; end',
        "for d in '/etc'; rm -rf $d; end",
        'for d in "$HOME" /tmp\n  rm -rf $d\nend',
        "for d in \"/usr\" '/var/lib'; sudo rm -rf $d; end",
        'for d in "$HOME"; command rm -rf $d; end',
    ],
)
def test_fish_loop_over_quoted_items_is_read(command: str) -> None:
    assert _level(command, "fish") == B


@pytest.mark.parametrize(
    ("command", "level"),
    [('for d in "$HOME"; ls $d; end', S), ("for f in \"build\" 'dist'; rm -rf $f; end", D)],
)
def test_fish_loop_quoted_look_alikes(command: str, level: object) -> None:
    assert _level(command, "fish") == level


# Every file of a backup folder emptied is every backup destroyed (finding 10).
@pytest.mark.parametrize(
    "command",
    [
        "find /var/backups -type f -exec truncate -s 0 {} +",
        "find /srv/backups -type f -exec truncate -s 0 {} \\;",
        "truncate -s 0 /var/backups/*",
        'sh -c "find /var/backups -type f -exec truncate -s 0 {} +"',
        "env LC_ALL=C truncate --size=0 /srv/backups/*",
    ],
)
def test_backups_emptied_is_blocked(command: str) -> None:
    assert _level(command) == B


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("find /var/backups -name old.tar -exec truncate -s 0 {} +", D),
        ("truncate -s 0 /var/backups/db.tar", D),
        ("truncate -s 0 ./build/*", D),
        ("find /srv/backups -type f -exec ls -l {} +", S),
        ("find /var/log -type f -exec truncate -s 0 {} +", C),
    ],
)
def test_backups_emptied_look_alikes(command: str, level: object) -> None:
    assert _level(command) == level


# MAKEFLAGS' `VAR=value` words are make's command-line variables (finding 6).
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("MAKEFLAGS='SHELL=./x.sh' make", C),
        ("export MAKEFLAGS=SHELL=/tmp/x; make all", C),
        ("GNUMAKEFLAGS='SHELL=./x.sh' make -C src", C),
        ("sudo env MAKEFLAGS='SHELL=./x.sh' make", C),
        ("MAKEFLAGS='CC=clang' make", M),
        ("MAKEFLAGS='SHELL=/bin/bash' make", M),
    ],
)
def test_makeflags_variables_are_read(command: str, level: object) -> None:
    assert _level(command) == level


# LXD/Incus: the host root given as a disk device, then a system folder under it wiped in
# the container (finding 8).
@pytest.mark.parametrize(
    ("command", "level"),
    [
        (
            "lxc config device add c1 host disk source=/ path=/mnt/host"
            " && lxc exec c1 -- rm -rf /mnt/host/etc",
            B,
        ),
        (
            "incus config device add c1 host disk source=/ path=/mnt/host"
            " && incus exec c1 -- rm -rf /mnt/host/etc",
            B,
        ),
        (
            "incus config device add c1 h disk source=/ path=/h; "
            'incus exec c1 -- sh -c "rm -rf /h/usr"',
            B,
        ),
        ("lxc config device add c1 host disk source=/ path=/mnt/host", C),
        (
            "lxc config device add c1 data disk source=/srv/data path=/data"
            " && lxc exec c1 -- rm -rf /data/tmp",
            D,
        ),
        ("lxc exec c1 -- ls /", M),
    ],
)
def test_lxd_host_root_mount_then_wipe(command: str, level: object) -> None:
    assert _level(command) == level


# Unix session hooks running a file the analyser cannot read (finding 13).
@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("trap './x.sh' DEBUG", C),
        ("trap '/tmp/.h' RETURN", C),
        ('sudo bash -c "trap ./x.sh DEBUG"', C),
        ("export PROMPT_COMMAND='source /tmp/.x'", C),
        ("PROMPT_COMMAND='. ~/.cache/p.sh'", C),
        ("trap 'history -a' DEBUG", S),
        ("trap ./cleanup.sh EXIT", M),
        ("trap cleanup ERR", M),
        ("export PROMPT_COMMAND='history -a'", M),
    ],
)
def test_unix_session_hooks(command: str, level: object) -> None:
    assert _level(command) == level


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("autoload -Uz add-zsh-hook; add-zsh-hook precmd ./x.sh", C),
        ("add-zsh-hook preexec /tmp/.h", C),
        ("sudo zsh -c 'add-zsh-hook precmd ./x.sh'", C),
        ("add-zsh-hook precmd _my_prompt", M),
        ("add-zsh-hook chpwd load_nvmrc", M),
    ],
)
def test_zsh_hooks(command: str, level: object) -> None:
    assert _level(command, "zsh") == level
