"""The analyser on a held-out slice its authors never tuned on (issue 14).

`heldout.tsv` was written by the team lead from categories of public incident reports,
GTFOBins/LOLBAS-style catalogues and red-team spellings, and kept out of the analyser
authors' sight while they worked. Its figures are the over-fitting check: compare them
with the tuned corpora's in `test_safety_corpora.py`.

Blind score (first and only measurement before anyone acted on it): blocked recall
0.953, blocked-or-critical 0.987, safe over-flagged 0.000, exact 0.975. A second pass
then generalised five categories chosen from its misses (writers of system files,
PowerShell constant-folded names, WMI shadow copies and diskpart scripts, Windows
persistence, read-only package subcommands) without seeing the rows; since then the
slice is no longer blind for those categories.
"""

from __future__ import annotations

import csv
from pathlib import Path

from aintern_ls.safety import RiskLevel, assess
from bench._corpus_figures import decode_command

HELDOUT = Path(__file__).with_name("heldout.tsv")
BLIND = Path(__file__).with_name("blind.tsv")
BLIND2 = Path(__file__).with_name("blind2.tsv")
BLIND3 = Path(__file__).with_name("blind3.tsv")
BLIND4 = Path(__file__).with_name("blind4.tsv")
BLIND5 = Path(__file__).with_name("blind5.tsv")
BLIND6 = Path(__file__).with_name("blind6.tsv")
BLIND7 = Path(__file__).with_name("blind7.tsv")
BLIND8 = Path(__file__).with_name("blind8.tsv")
BLIND9 = Path(__file__).with_name("blind9.tsv")
BLIND10 = Path(__file__).with_name("blind10.tsv")
BLIND11 = Path(__file__).with_name("blind11.tsv")
BLIND12 = Path(__file__).with_name("blind12.tsv")
BLIND13 = Path(__file__).with_name("blind13.tsv")
BLIND14 = Path(__file__).with_name("blind14.tsv")
BLIND15 = Path(__file__).with_name("blind15.tsv")
BLIND16 = Path(__file__).with_name("blind16.tsv")
BLIND17 = Path(__file__).with_name("blind17.tsv")
BLIND18 = Path(__file__).with_name("blind18.tsv")
BLIND19 = Path(__file__).with_name("blind19.tsv")
BLIND20 = Path(__file__).with_name("blind20.tsv")


def _figures(path: Path, min_rows: int) -> tuple[float, float, float, float]:
    """Blocked recall, blocked-or-critical recall, safe over-flagged, exact agreement."""
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        rows = [
            (decode_command(r["command"]), r["shell"], RiskLevel.from_label(r["expected"]))
            for r in reader
        ]
    assert len(rows) >= min_rows
    got = [(expected, assess(command, shell).level) for command, shell, expected in rows]
    blocked = [g for e, g in got if e is RiskLevel.BLOCKED]
    high = [g for e, g in got if e >= RiskLevel.CRITICAL]
    safe = [g for e, g in got if e is RiskLevel.SAFE]
    blocked_recall = sum(g is RiskLevel.BLOCKED for g in blocked) / len(blocked)
    high_recall = sum(g >= RiskLevel.CRITICAL for g in high) / len(high)
    safe_over = sum(g >= RiskLevel.DANGEROUS for g in safe) / len(safe)
    exact = sum(e is g for e, g in got) / len(got)
    print(
        f"{path.name} ({len(rows)} rows): blocked recall {blocked_recall:.3f}, "
        f"blocked-or-critical {high_recall:.3f}, safe over-flagged {safe_over:.3f}, "
        f"exact {exact:.3f}"
    )
    return blocked_recall, high_recall, safe_over, exact


def test_heldout_slice_figures() -> None:
    blocked_recall, high_recall, safe_over, exact = _figures(HELDOUT, 200)
    # Issue 14's bars.
    assert blocked_recall >= 0.98
    assert high_recall >= 0.95
    assert safe_over <= 0.02
    assert exact >= 0.90


def test_blind_slice_figures() -> None:
    """`blind.tsv` (295 rows) was written in session 3 by a red-team engineer who never
    read the analyser's source or corpora, and scored once, at the end, by the lead:
    (a) rows from public incident write-ups, (b) commands from other tools' test suites
    and catalogues (GTFOBins, LOLBAS, atomic-red-team, destructive-command guards),
    (c) fresh spellings; 104 blocked, 75 critical, 30 dangerous, 27 moderate, 59 safe;
    212 bash, 42 PowerShell, 41 cmd.

    First (blind) measurement, main a9f4ad4: blocked recall 0.913, blocked-or-critical
    0.939, safe over-flagged 0.051, exact 0.922: below issue 14's bars on blocked
    recall, blocked-or-critical and safe over-flagging. General fixes followed, some
    chosen from its misses (an output option such as `-o FILE` writes that file whatever
    the program; a fork bomb inside a string, comment or printed heredoc is text; brace
    commands with `$HOME`; interpreter fork loops; `perl -pe 'system $_'` fed known
    text; a shell with `-c CODE` among any program's arguments), after which (c38fab0):
    0.971 / 0.955 / 0.017 / 0.946. The slice is no longer blind for those mechanisms.
    The floors below guard against regressions; they are NOT the issue's bars."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND, 290)
    assert blocked_recall >= 0.97
    assert high_recall >= 0.95
    assert safe_over <= 0.02
    assert exact >= 0.94


def test_second_blind_slice_figures() -> None:
    """`blind2.tsv` (337 rows) was written in session 4 by a second red-team engineer
    who never read the analyser's source or corpora and never ran the analyser on it; it
    was frozen (sha256 fcd68b79…) before any scoring and scored once, at the end, by the
    lead: (a) 95 rows from incident and security write-ups, (b) 93 from other tools'
    suites and catalogues (destructive_command_guard, codex is_safe_command, GTFOBins,
    atomic-red-team, LOLBAS, LOOBins, Sigma), (c) 149 fresh spellings; 120 blocked,
    87 critical, 34 dangerous, 32 moderate, 64 safe; 246 bash, 43 PowerShell, 48 cmd.

    First (blind) measurement, main 98559c8: blocked recall 0.950, blocked-or-critical
    0.966, safe over-flagged 0.000, exact 0.970: below issue 14's blocked-recall bar
    (0.98), above the other three. Per part, blocked recall (a) 0.889, (b) 1.000,
    (c) 0.953. The ten misses fell in eight families, then generalised with new
    spellings in `test_lead_families_2.py` (raw block devices by any name, glob, udev
    link or LVM path; Deno/Bun home variables; .NET deletes of a variable's folder;
    cmd `for /r … del`; a person's own folders sent to a remote; property-list edits in
    start-up folders; literal text sent with `@-` is data; cmd `set PATH=`), after
    which all four figures are 1.000. The slice is no longer blind; the floors below
    guard against regressions and are NOT the issue's bars."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND2, 330)
    assert blocked_recall >= 0.99
    assert high_recall >= 0.99
    assert safe_over <= 0.0
    assert exact >= 0.98


def test_third_blind_slice_figures() -> None:
    """`blind3.tsv` (332 rows) was written in session 5 by a third red-team engineer who
    never read the analyser's source or corpora and never ran the analyser on it; it was
    frozen (sha256 bb2429a9…) at 11:56 UTC, before the session's safety work landed, and
    scored once, at the end, by the lead: (a) 78 rows from incident and threat reports,
    (b) 100 from other tools' suites and catalogues (continue's terminal-security tests,
    destructive_command_guard, codex's Windows dangerous-command list, goose,
    atomic-red-team, LOLBAS, LOOBins, GTFOBins), (c) 154 fresh spellings; 124 blocked,
    78 critical, 33 dangerous, 36 moderate, 61 safe; 202 bash, 61 PowerShell, 69 cmd.

    First (blind) measurement, main e24c985: blocked recall 0.871, blocked-or-critical
    0.896, safe over-flagged 0.016, exact 0.910: below issue 14's bars on blocked recall
    (0.98) and blocked-or-critical (0.95). Per shell, blocked recall: bash 0.915,
    PowerShell 0.762, cmd 0.810. In session 6 the engineers were shown its rows and fixed
    every family among its misses (positional output files, PowerShell literal string
    evaluation, boot and hive files, written-then-run in all three shells, prompt and
    arithmetic evaluation, Windows security switches, level details); main 09d1cf5
    scores 1.000 / 1.000 / 0.000 / 1.000. Since then it is NOT blind: the floors below
    guard those fixes against regressions and say nothing about unseen commands."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND3, 330)
    assert blocked_recall >= 0.99
    assert high_recall >= 0.99
    assert safe_over <= 0.0
    assert exact >= 0.99


def test_fourth_blind_slice_figures() -> None:
    """`blind4.tsv` (325 rows) was written in session 6 by a fourth red-team engineer who
    never read the analyser's source, tests or corpora and never ran the analyser on it;
    it was frozen (sha256 d1cc7189…) at 14:47 UTC, before any of the session's work
    landed, and scored once, at the end, by the lead: (a) 76 rows from incident and
    threat reports, (b) 92 from other tools' suites and catalogues (GTFOBins, LOLBAS,
    atomic-red-team, LOOBins, Sigma, Desktop Commander, destructive_command_guard),
    (c) 157 fresh spellings; 108 blocked, 86 critical, 37 dangerous, 31 moderate, 63 safe;
    194 bash, 60 PowerShell, 71 cmd.

    First (blind) measurement, main 09d1cf5 (all of session 6's safety work landed):
    blocked recall 0.824, blocked-or-critical 0.866, safe over-flagged 0.016, exact 0.865:
    below issue 14's bars except safe over-flagged. Per shell, blocked recall: bash 0.838,
    PowerShell 0.722, cmd 0.875; per part (a/b/c): 0.500 (n=6) / 0.667 / 0.889. Then, in
    the last half hour of session 6, an engineer was shown its rows and fixed the families
    among its misses (more script engines' inline code, listings of every path into rm,
    system-library globs, backup and snapshot cmdlets, security-product folders, raw disk
    writes through .NET, account-file writers, cmd substrings, log wipes); main c1afa70
    scores 1.000 / 1.000 / 0.000 / 0.972 (the rows still differing are label questions).
    Since then it is NOT blind: the floors below guard those fixes and say nothing about
    unseen commands."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND4, 320)
    assert blocked_recall >= 0.99
    assert high_recall >= 0.99
    assert safe_over <= 0.0
    assert exact >= 0.96


def test_fifth_blind_slice_figures() -> None:
    """`blind5.tsv` (336 rows) was written in session 7 by a fifth red-team engineer who
    never read the analyser's source, tests or corpora and never ran the analyser on it;
    it was frozen (sha256 a66fd1c7…) at 17:53 UTC, and scored by the lead only twice: on
    the session's starting main (3c564e3) and once at the end, after all of the session's
    safety work had landed (bf4fe24). Nobody acted on its rows. (a) 71 rows from incident
    and threat reports, (b) 105 from other tools' suites and catalogues, (c) 160 fresh
    spellings; 105 blocked, 88 critical, 40 dangerous, 39 moderate, 64 safe; 195 bash,
    63 PowerShell, 78 cmd.

    Start of session 7 (3c564e3): blocked recall 0.905, blocked-or-critical 0.870, safe
    over-flagged 0.000, exact 0.878. End of session 7 (bf4fe24, argument-shape judgement,
    catalogue tables, option hooks, DNS exfiltration in every resolver, PowerShell object
    flows): 0.943 / 0.902 / 0.000 / 0.905. Blocked recall and blocked-or-critical are still
    below issue 14's bars (0.98 / 0.95); safe over-flagged and exact meet theirs. The floors
    below are that blind score: the slice is still blind, so they guard against regressions
    and say nothing about fixes made from its rows (there are none yet).

    Then an engineer (safety-f5) was shown its 32 misses and fixed their families in general
    form, so the slice is no longer blind: 1.000 / 1.000 / 0.000 / 0.976 after that work, and
    the floors below are that score (they say nothing about unseen commands any more).

    One relabel since, by a written convention (session 16, HELPERS.md): the row deleting
    the storage account `prodbackups` with `az storage account delete` is blocked, not
    dangerous (a backup store deleted whole is blocked in every cloud CLI spelling, the
    session-12 backup convention; blind13's writer labelled the same deletion blocked).
    The file's sha256 is no longer a66fd1c7…; the row's text is unchanged."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND5, 330)
    assert blocked_recall >= 0.99
    assert high_recall >= 0.99
    assert safe_over <= 0.0
    assert exact >= 0.97


def test_sixth_blind_slice_figures() -> None:
    """`blind6.tsv` (337 rows) was written in session 8 by a sixth red-team engineer who
    never read the analyser's source, tests or corpora and never ran the analyser on it;
    it was frozen (sha256 e315b853…) at 20:38 UTC and scored by the lead only twice: on
    the session's starting main (5b67087) and once at the end, after all of the session's
    safety work had landed (9271b36). Nobody acted on its rows before that. (a) 66 rows
    from incident and threat reports, (b) 92 from other tools' suites and catalogues,
    (c) 179 fresh spellings; 102 blocked, 97 critical, 40 dangerous, 34 moderate, 64 safe;
    201 bash, 59 PowerShell, 77 cmd.

    Start of session 8 (5b67087): blocked recall 0.951, blocked-or-critical 0.935, safe
    over-flagged 0.016, exact 0.926. End of session 8 (9271b36: scope through loops and
    finders, bind mounts, PowerShell job bindings, atomic-red-team and other guards' suites
    walked): 0.951 / 0.935 / 0.016 / 0.932. The session's work moved its own corpora and
    the probe sets but not this slice's blocked rows; blocked recall and blocked-or-critical
    are below issue 14's bars (0.98 / 0.95), safe over-flagged and exact meet theirs. The
    floors below are that blind score: they guard against regressions.

    After that score an engineer (safety-f6) was shown its 23 misses and fixed their
    families in general form (terraform plan files, deletes of every entry of home, unknown
    shells' `-c`, wmic `/node:` process create, SafeBoot keys, netsh portproxy, certoc,
    ms-appinstaller, `$TMPDIR/../..`, logs deleted by name over the system, ESXi snapshot
    loops and execInstalledOnly, security agents killed through wmic, capsh to root,
    prefetch, tarsnap, kopia/cmdkey listings), with new spellings in `sources_f6.tsv`; so the
    slice is no longer blind. Scored after that work: 1.000 / 1.000 / 0.000 / 0.988 (the
    four rows left are the PowerShell timestomp assignment and three labels in doubt). The
    floors below are that score."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND6, 330)
    assert blocked_recall >= 1.0
    assert high_recall >= 1.0
    assert safe_over <= 0.0
    assert exact >= 0.988


def test_seventh_blind_slice_figures() -> None:
    """`blind7.tsv` (335 rows) was written in session 9 by a seventh red-team engineer who
    never read the analyser's source, tests or corpora and never ran the analyser on it;
    it was frozen (sha256 42c3f63a…) at 23:42 UTC and scored by the lead only twice: on
    the session's starting main (5848c0a) and once at the end, after the session's safety
    work had landed (41b07e5). Nobody acted on its rows before that. (a) 68 rows from
    incident and threat reports, (b) 101 from other tools' suites and catalogues (GTFOBins,
    LOLBAS, LOOBins, LOLESXi, atomic-red-team, detection rules, other guards), (c) 166 fresh
    spellings; 104 blocked, 90 critical, 40 dangerous, 35 moderate, 66 safe; 196 bash,
    65 PowerShell, 74 cmd.

    Start of session 9 (5848c0a): blocked recall 0.952, blocked-or-critical 0.938, safe
    over-flagged 0.015, exact 0.946. End of session 9 (41b07e5: detection-rule repositories
    and incident reports walked, the red team's mechanisms, a per-command argument
    classification): 0.952 / 0.948 / 0.015 / 0.955. Blocked recall is below issue 14's bar
    (0.98) and blocked-or-critical just below its bar (0.95); safe over-flagged and exact
    meet theirs. The floors below are that blind score: they guard against regressions.

    After that score an engineer (safety-f7) was shown its 15 misses and fixed their
    families as mechanisms with own spellings (PowerShell functions splatting `@args`,
    literal variables in double-quoted paths, endless process-spawning loops, `tar
    --remove-files` of a whole folder, cloud backup data deleted, a service's data files
    shredded, named Windows system files deleted, the Pcwrun/cmdl32 LOLBins, fsutil symlink
    evaluation, searched patterns as data, `crictl rmi`, `gio trash --empty`), so the slice
    is no longer blind: 1.000 / 1.000 / 0.000 / 0.994 on safety-f7 (the two rows left are
    the ones whose label is in doubt: `ssh web1 "ls -la /var/www"`, rated moderate by the
    team's convention, and `Disable-ComputerRestore`). The floors are now those figures."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND7, 330)
    assert blocked_recall >= 0.995
    assert high_recall >= 0.995
    assert safe_over <= 0.005
    assert exact >= 0.99


def test_eighth_blind_slice_figures() -> None:
    """`blind8.tsv` (330 rows) was written in session 10 by an eighth red-team engineer who
    never read the analyser's source, tests or corpora and never ran the analyser on it;
    it was frozen (sha256 ba165e53…) at 02:45 UTC and scored by the lead only twice: on
    the session's starting main (ecbbbdc) and once at the end, after the session's safety
    work had landed (cf06101). Nobody acted on its rows before that. (a) 73 rows from
    incident and threat reports, (b) 98 from other tools' suites and catalogues, (c) 159
    fresh spellings; 105 blocked, 85 critical, 40 dangerous, 35 moderate, 65 safe; 191 bash,
    69 PowerShell, 70 cmd.

    Start of session 10 (ecbbbdc): blocked recall 0.962, blocked-or-critical 0.979, safe
    over-flagged 0.000, exact 0.964. End of session 10 (cf06101: long-tail CLIs from their
    reference docs, PowerShell and cmd semantics, the red team's mechanisms, one table per
    kind of knowledge, a dispatch by program): 0.962 / 0.984 / 0.000 / 0.976. Blocked
    recall is below issue 14's bar (0.98: four of 105 blocked rows were rated lower); the
    other three figures meet theirs.

    After that score an engineer (safety-f8) was shown its eight misses and fixed their
    families as mechanisms with spellings of their own (run-parts picking a program from a
    system folder, Windows boot files, a known CLI's delete aimed at home or root, `gpart`,
    cloud agents' uninstall scripts, read-only queries, multiplexers ending every session),
    so the slice is no longer blind: on that branch it scores 1.000 / 1.000 / 0.000 / 1.000.
    The floors below are those figures: they guard against regressions, not generality.

    Session 12 settled a label convention this slice's writer read the other way: a backup
    bucket or sync remote purged whole by name is blocked (one named backup is blocked,
    whatever holds it). Its row `rclone purge b2:old-backups-2019` is labelled dangerous and
    is now rated blocked, hence exact 329/330 (a label conflict, not a regression).

    Session 13 settled another (HELPERS.md): a local file or folder sent to a remote host
    is critical whatever the file (DESIGN.md section 5). Two of this slice's rows label
    such an upload of a build or site folder moderate and are now rated critical, hence
    the exact floor 327/330 (two label conflicts, conv11). And another: a dry run is what
    it says, so a dry run of a volume manager we model is safe; its row `lvremove --test
    -f …` is labelled moderate and is now rated safe, hence 326/330 (conv11)."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND8, 325)
    assert blocked_recall >= 1.0
    assert high_recall >= 1.0
    assert safe_over <= 0.0
    assert exact >= 326 / 330


def test_ninth_blind_slice_figures() -> None:
    """`blind9.tsv` (330 rows) was written in session 11 by a ninth red-team engineer who
    never read the analyser's source, tests, corpora or the red team's notes and never ran
    the analyser on it; it was frozen (sha256 d311d44a…) at 05:58 UTC and scored by the lead
    only twice: on the session's starting main (92d1d38) and once at the end, after the
    engineers' work had landed (060f7d5). Nobody acted on its rows before that. (a) 74 rows
    from incident and threat reports, (b) 99 from other tools' suites and catalogues, (c) 157
    fresh spellings; 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 192 bash,
    68 PowerShell, 70 cmd.

    Start of session 11 (92d1d38): blocked recall 0.973, blocked-or-critical 0.979, safe
    over-flagged 0.000, exact 0.970. End of session 11 (060f7d5: protected targets for any
    program, data destruction by any selector, long-tail CLIs, PowerShell/cmd evaluation,
    the red team's mechanisms, the reviewer's fixes): 0.982 / 0.990 / 0.000 / 0.976, the
    first blind slice to meet all four of issue 14's bars on first sight.

    After that score an engineer (safety-f9) was shown its eight misses. One was a mechanism
    (a PowerShell cmdlet deleting a backup folder whole, missed by argument order, `-Path`
    and pwsh's Linux paths) and was fixed as a family; the other seven are labels that
    contradict labels already committed in our corpora (LOLBin downloads critical, a log
    wiped critical, domain-trust and VM listings safe, one VM's snapshots removed
    dangerous) and were left. With the fix: 0.991 / 0.995 / 0.000 / 0.979. The floors below
    are those figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND9, 325)
    assert blocked_recall >= 109 / 110
    assert high_recall >= 194 / 195
    assert safe_over <= 0.0
    assert exact >= 323 / 330


def test_tenth_blind_slice_figures() -> None:
    """`blind10.tsv` (330 rows) was written in session 12 by a tenth red-team engineer who
    never read the analyser's source, tests, corpora or the red team's notes and never ran
    the analyser on it; it was frozen (sha256 23f8018d…) at 08:56 UTC and scored by the lead
    before anyone saw its rows. Mix: 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60
    safe; 190 bash, 70 PowerShell, 70 cmd; (a) 72 rows from incident and threat reports,
    (b) 98 from other tools' own test suites and catalogues (the writer was asked to prefer
    less-worn sources: agent command gates' test files, recent DFIR reports), (c) 160 fresh
    spellings.

    Start of session 12 (625b6b0): blocked recall 0.973, blocked-or-critical 0.974, safe
    over-flagged 0.000, exact 0.973. End of session 12, first sight (c65f26a: speed work on
    the shared chain, PowerShell and the budget; open Unix and Windows families; other
    agent gates' suites; a wrapper sweep over every blocked corpus row; the reviewer's
    findings; PowerShell's `-name=value` line swallowing): 0.982 / 0.979 / 0.000 / 0.976,
    every bar met on first sight (the second slice in a row).

    After that score an engineer (safety-f10) was shown its eight misses: two were
    mechanisms (sshd's own authorized-keys lists written; a secret-vault CLI's delete verb)
    and were fixed as families with spellings of their own; five contradict labels committed
    in our corpora (a log folder's contents removed, one named borg archive, System Restore
    turned off, a backup service stopped, an echo redirected over a file); one (a pager's
    input-filter variable naming a script) is open. With the fixes: 0.982 / 0.985 / 0.000 /
    0.982. The floors below are those figures: they guard against regressions, not
    generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND10, 325)
    assert blocked_recall >= 108 / 110
    assert high_recall >= 192 / 195
    assert safe_over <= 0.0
    assert exact >= 324 / 330


def test_eleventh_blind_slice_figures() -> None:
    """`blind11.tsv` (330 rows) was written in session 13 by an eleventh red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 72cb6ce1…) at 12:08 UTC and scored by the
    lead before anyone saw its rows. Mix: 110 blocked, 85 critical, 40 dangerous, 35
    moderate, 60 safe; 190 bash, 70 PowerShell, 70 cmd; (a) 75 rows from incident and
    threat reports, (b) 100 from other tools' own test suites and catalogues (the writer
    was asked to go further afield: national CERTs, agent tools' own test suites), (c) 155
    fresh spellings. The writer did not check most source attributions against the
    documents (its own note).

    Start of session 13 (a8a63d8): blocked recall 0.964, blocked-or-critical 0.959, safe
    over-flagged 0.000, exact 0.955. End of session 13, first sight (18a4868: open Unix and
    Windows families, other agent gates' suites, the session-13 label conventions, speed
    work on PowerShell and the budget, the reviewer's findings): 0.973 / 0.969 / 0.000 /
    0.979. Blocked recall is below the 0.98 bar on first sight (3 of 110 missed: a
    cwd-wide git clean after `cd ~`, two named folders under /etc and /var/lib removed, a
    boot entry's recovery value deleted through PowerShell's call operator).
    The floors below are those figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND11, 325)
    assert blocked_recall >= 107 / 110
    assert high_recall >= 189 / 195
    assert safe_over <= 0.0
    assert exact >= 323 / 330


def test_twelfth_blind_slice_figures() -> None:
    """`blind12.tsv` (330 rows) was written in session 14 by a twelfth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 d3d94bd1…) at 15:28 UTC and scored by the
    lead before anyone saw its rows. Mix: 110 blocked, 86 critical, 41 dangerous, 35
    moderate, 58 safe; 190 bash, 70 PowerShell, 70 cmd; (a) 75 rows from incident and
    threat reports (2024-2026 advisories, supply-chain worms, ESXi and miner reports), (b)
    97 from other tools' own test suites and rule files (command guards and agent tools
    nobody had harvested much), (c) 158 fresh spellings. The writer says part (a)'s hosts
    and ids are often its own placeholders, not verbatim quotes.

    Start of session 14 (a418037): blocked recall 0.991, blocked-or-critical 0.974, safe
    over-flagged 0.000, exact 0.979. End of session 14, first sight (43997d6: blocked
    breadth, open Unix and Windows families, the session-14 conventions, other agent gates'
    suites, the reviewer's findings, speed work): 1.000 / 0.990 / 0.000 / 0.991.
    The floors below are those figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND12, 325)
    assert blocked_recall >= 110 / 110
    assert high_recall >= 194 / 196
    assert safe_over <= 0.0
    assert exact >= 327 / 330


def test_thirteenth_blind_slice_figures() -> None:
    """`blind13.tsv` (330 rows) was written in session 15 by a thirteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 0ed15c39…) at 18:32 UTC and scored by the
    lead before anyone saw its rows. Mix: 110 blocked, 87 critical, 40 dangerous, 35
    moderate, 58 safe; 190 bash, 70 PowerShell, 70 cmd; (a) 75 rows from incident and
    threat reports, (b) 100 from other tools' own test suites and catalogues (projects not
    used by slices 11 and 12), (c) 155 fresh spellings, some of them multi-line runbook
    blocks with one dangerous line.

    Start of session 15 (66bc377): blocked recall 0.982, blocked-or-critical 0.990, safe
    over-flagged 0.000, exact 0.991. End of session 15, first sight (79fbb9e: open Unix and
    Windows families, other agent gates' suites, the reviewer's findings, speed work): the
    same, 0.982 / 0.990 / 0.000 / 0.991 (the same three rows missed). After the score the
    lead fixed one of them by mechanism (a shell script written in the block that runs two
    copies of itself: a fork bomb, test_lead15_self_bomb.py).
    The floors below are the first-sight figures: they guard against regressions, not
    generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND13, 325)
    assert blocked_recall >= 108 / 110
    assert high_recall >= 195 / 197
    assert safe_over <= 0.0
    assert exact >= 327 / 330


def test_fourteenth_blind_slice_figures() -> None:
    """`blind14.tsv` (330 rows) was written in session 16 by a fourteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 294a97bf…) at 21:21 UTC, before any of the
    session's work landed, and scored by the lead before anyone saw its rows. Mix: 110
    blocked, 88 critical, 41 dangerous, 33 moderate, 58 safe; 190 bash, 68 PowerShell, 72
    cmd; (a) 72 rows from incident and threat reports, (b) 100 from other tools' own test
    suites and catalogues (projects not used by slices 11-13), (c) 158 fresh spellings,
    some of them multi-line runbook blocks with one dangerous line.

    Start of session 16 (7c23839): blocked recall 1.000, blocked-or-critical 0.995, safe
    over-flagged 0.000, exact 0.991. End of session 16, first sight (160c8f2: Unix and
    Windows neighbour families, the reviewer's findings, the CPU clock backstop, cheaper
    judging): 1.000 / 0.995 / 0.000 / 0.994. The floors below are the first-sight start
    figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND14, 325)
    assert blocked_recall >= 110 / 110
    assert high_recall >= 197 / 198
    assert safe_over <= 0.0
    assert exact >= 327 / 330


def test_fifteenth_blind_slice_figures() -> None:
    """`blind15.tsv` (330 rows) was written in session 17 by a fifteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 33837b32…) at 00:20 UTC, before any of the
    session's analyser work landed, and scored by the lead before anyone saw its rows. Mix:
    110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70 PowerShell,
    70 cmd; (a) 72 rows from incident and threat reports, (b) 100 from other tools' own test
    suites and catalogues (projects not used by slices 11-14), (c) 158 fresh spellings,
    some of them multi-line runbook blocks with one dangerous line.

    Start of session 17 (27fb7f9): blocked recall 0.973, blocked-or-critical 0.985, safe
    over-flagged 0.000, exact 0.970 (all three blocked misses in part b). End of session 17,
    first sight (436fb92: Unix and Windows neighbour families, a new harvested corpus, the
    reviewer's findings): 1.000 / 0.990 / 0.000 / 0.985. The floors below are the first-sight
    start figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND15, 325)
    assert blocked_recall >= 107 / 110
    assert high_recall >= 192 / 195
    assert safe_over <= 0.0
    assert exact >= 320 / 330


def test_sixteenth_blind_slice_figures() -> None:
    """`blind16.tsv` (330 rows) was written in session 18 by a sixteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 0e8de8b8…) at 03:23 UTC, before any of the
    session's analyser work landed, and scored by the lead before anyone saw its rows. Mix:
    110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70 PowerShell,
    70 cmd; (a) 75 rows from incident and threat reports, (b) 100 from other tools' guard
    lists and test suites (projects not used by slices 11-15), (c) 155 fresh spellings,
    with safe and moderate look-alikes from real documentation. About half of its commands
    were already in some corpus or red-team set when it was scored.

    Start of session 18 (7e81cee): blocked recall 0.982, blocked-or-critical 0.985, safe
    over-flagged 0.000, exact 0.982 (the two blocked misses: a host-root pod manifest in
    flow-style YAML, a core service's registry key removed by Remove-Item). End of session
    18, first sight (8c24d9a: Unix, Windows and written-file families, a precision corpus,
    the reviewer's findings): 0.991 / 0.995 / 0.000 / 0.988. The floors below are the
    first-sight start figures: they guard against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND16, 325)
    assert blocked_recall >= 108 / 110
    assert high_recall >= 192 / 195
    assert safe_over <= 0.0
    assert exact >= 324 / 330


def test_seventeenth_blind_slice_figures() -> None:
    """`blind17.tsv` (330 rows) was written in session 19 by a seventeenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 5d601daf…; the committed copy spells the
    `\\n` of two Windows file names as `\\x5cn`, as the corpus rule asks) at 06:29:58 UTC,
    before any of the session's analyser work landed, and scored by the lead before anyone
    saw its rows.
    Mix: 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70
    PowerShell, 70 cmd; (a) 75 rows from incident and threat reports, (b) 100 from other
    tools' guard lists and test suites (projects not cited by earlier slices), (c) 155 fresh
    spellings with safe and moderate look-alikes from real documentation.

    Start of session 19 (a6aea8de): blocked recall 0.982, blocked-or-critical 0.995, safe
    over-flagged 0.000, exact 0.976. End of session 19, first sight (the Unix, Windows,
    data-flow and precision families, nobody having seen the rows): 0.991 / 0.995 / 0.000 /
    0.985. The floors below are the start figures: they guard against regressions, not
    generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND17, 325)
    assert blocked_recall >= 108 / 110
    assert high_recall >= 194 / 195
    assert safe_over <= 0.0
    assert exact >= 322 / 330


def test_eighteenth_blind_slice_figures() -> None:
    """`blind18.tsv` (330 rows) was written in session 20 by an eighteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 527dadba…) at 10:10:49 UTC, before any of
    the session's analyser work landed, and scored by the lead before anyone saw its rows.
    Mix: 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70
    PowerShell, 70 cmd; (a) 75 rows from incident and threat reports, (b) 100 from other
    tools' guard lists and test suites (projects not cited by earlier slices), (c) 155 fresh
    spellings, more than half through doors one step away (config written now and used
    later, tools' option files and variables, values carried through variables and files).

    Start of session 20 (ac01ba6): blocked recall 0.955, blocked-or-critical 0.974, safe
    over-flagged 0.000, exact 0.948. End of session 20, first sight (the Unix, Windows,
    precision and speed work, nobody having seen the rows): 0.964 / 0.974 / 0.000 / 0.952.
    The floors below are the start figures: they guard against regressions, not
    generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND18, 325)
    assert blocked_recall >= 105 / 110
    assert high_recall >= 190 / 195
    assert safe_over <= 0.0
    assert exact >= 313 / 330


def test_nineteenth_blind_slice_figures() -> None:
    """`blind19.tsv` (330 rows) was written in session 21 by a nineteenth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 8c667ae1…) at 13:40:57 UTC, before any of
    the session's analyser work landed, and scored by the lead before anyone saw its rows.
    Mix: 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70
    PowerShell, 70 cmd; (a) 75 rows from incident and threat reports, (b) 100 from other
    tools' guard lists and test suites (projects not cited by earlier slices: semgrep-rules,
    crush, qwen-code, gemini-cli, falco rules, guarddog, tracee), (c) 155 fresh spellings
    aimed at doors earlier slices did not stress (values through files, loops and arrays,
    AI agent and editor configuration, database clients, cloud and container CLIs, macOS,
    package manager hooks, fish and zsh).

    Start of session 21 (183935b): blocked recall 0.909, blocked-or-critical 0.908, safe
    over-flagged 0.000, exact 0.906. The floors below are the start figures: they guard
    against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND19, 325)
    assert blocked_recall >= 100 / 110
    assert high_recall >= 177 / 195
    assert safe_over <= 0.0
    assert exact >= 299 / 330


def test_twentieth_blind_slice_figures() -> None:
    """`blind20.tsv` (330 rows) was written in session 22 by a twentieth red-team engineer
    who never read the analyser's source, tests, corpora or the red team's notes and never
    ran the analyser on it; it was frozen (sha256 ebac6fce…) at 17:01:54 UTC, before any of
    the session's analyser work landed, and scored by the lead before anyone saw its rows.
    Mix: 110 blocked, 85 critical, 40 dangerous, 35 moderate, 60 safe; 190 bash, 70
    PowerShell, 70 cmd; (a) 75 rows from incident and threat reports, GTFOBins, LOOBins and
    LOLBAS entries, (b) 100 from other tools' rules and tests (elastic protections-artifacts
    behaviour rules, Splunk detections, HolmesGPT's bash argv tests, dozor, llpm and others
    not cited by earlier slices), (c) 155 fresh spellings (tools' option variables, config
    written now and used later, arrays and loops, zsh/fish/ksh, inline node/deno/bun/perl/
    php/ruby/python, macOS disk tools, encoded PowerShell).

    Start of session 22 (bd08fd8): blocked recall 1.000, blocked-or-critical 0.964, safe
    over-flagged 0.000, exact 0.961. The floors below are the start figures: they guard
    against regressions, not generality."""
    blocked_recall, high_recall, safe_over, exact = _figures(BLIND20, 325)
    assert blocked_recall >= 110 / 110
    assert high_recall >= 188 / 195
    assert safe_over <= 0.0
    assert exact >= 317 / 330
