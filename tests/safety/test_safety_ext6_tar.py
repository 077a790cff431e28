"""ext6: GNU tar's command-running options read as tar reads them (a tune project's suite).

Long options match by unique prefix (`--to-com`, `--checkpoint-act`) and take their value
glued or as the next word; old-style bundles give valued letters the next words in order
(`tar cIf PROG out.tar`); every `--checkpoint-action=exec=` runs (octal escapes undone); a
helper runs only in the mode that uses it (`--to-command` when extracting without -O, rmt
for a remote archive); decompression runs `-I` from its words, not a shell; a helper fed the
archive as its program (`--to-command=sh`, `-I 'psql -X'`) is critical; TAR_OPTIONS and TAPE
count as tar's own options.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import RiskLevel, assess
from tests.safety._levels import B, C, D, M, S


@pytest.mark.parametrize(
    "command,expected",
    [
        ("tar -cf out.tar --checkpoint-act='exec=rm -rf ~' src", B),
        ("tar -cf o.tar --checkpoint-action 'exec=git clean -fdx' src", D),
        ("tar -xf in.tar --to-com='shred -u ~/.ssh/id_rsa'", D),
        ("tar -cf o.tar --use-compress-prog 'rm -rf /' src", B),
        ("tar czIf 'rm -rf ~' out.tgz src", B),
        ("tar -cI'git reset --hard' -f out.tar file", D),
        ("tar -cf o.tar --checkpoint-action='exec=\\162m -rf /' f", B),
        ("tar -cf o.tar --checkpoint-action=exec=true --checkpoint-action='exec=rm -rf ~' f", B),
        ("tar -cf o.tar -F'rm -rf ~' f", B),
        ("tar -xf in.tar --to-command=sh", C),
        ("tar -xf in.tar -I 'bash'", C),
        ('tar -cf o.tar --checkpoint-action="$ACT" f', C),
        ("TAR_OPTIONS='--to-command=rm\\ -rf\\ ~' tar -xf in.tar", B),
        ("env TAR_OPTIONS='--checkpoint-action=exec=git\\ reset\\ --hard' tar -cf o f", D),
        ('TAR_OPTIONS="$OPTS" tar -cf o.tar f', C),
        ("TAPE=backup:/dev/st0 tar -c --rmt-command='rm -rf ~' f", B),
        # look-alikes: the helper is not used, or is text
        ("tar -xOf in.tar --to-command='rm -rf ~'", M),
        ("tar -tf in.tar --to-command='rm -rf ~'", S),
        ("tar -cf o.tar -- '--checkpoint-action=exec=rm -rf ~'", M),
        ("tar -cf o.tar --exclude '--to-command=rm -rf ~' src", M),
        ("tar -cf o.tar --rmt-command='rm -rf ~' src", M),
        ("tar -xf in.tar -I 'echo ok; rm -rf ~'", M),
        ("tar -cf o.tar --checkpoint-action='echo=rm -rf ~' f", M),
        ("bsdtar -xf in.tar -I 'rm -rf ~'", M),
        ("TAR_OPTIONS='--to-command=rm -rf ~' printf done", S),
        ("tar -xzf release.tgz -C ./vendor", M),
        ("tar -tvf backup.tar", S),
    ],
)
def test_tar_helpers(command: str, expected: RiskLevel) -> None:
    assert assess(command, "bash").level == expected
