"""Pipelines too long to parse: where to cut a text before the grammar sees it.

The bash grammar builds a pipeline as a left-nested tree, and when its text ends in an
error (a trailing `|`, an unclosed quote or parenthesis, a word before `(`) its error
recovery costs the square of the pipeline's length: 5,000 stages of `a|` took 330-480 ms
of the parse alone (review 12, finding 9), which the work budget cannot cut because the
grammar neither reads the text again nor calls back while it recovers. No real pipeline
comes near `MAX_STAGES` stages (at that length the worst case parses in a few
milliseconds), so a pipeline longer than that is not handed to the grammar: the text is
analysed up to its `MAX_STAGES`-th stage, so what comes before stands (a `rm -rf /` at the
head stays blocked), and the rest is reported too complex (critical). The same holds in
PowerShell and cmd, whose pipelines of thousands of tiny commands cost 60-70 ms of judging
at load 5 for nothing a real script has.
"""

from __future__ import annotations

import re

MAX_STAGES = 400  # pipe operators in one pipeline

# A `|` that joins two stages (with the blanks and line breaks after it: a pipeline goes
# on past a line break after `|`), quoted text and escapes (whose `|` are words), and what
# ends a pipeline (`||`, `&&`, `;`, `&`, a line break).
_BASH = re.compile(rb"'[^']*'|\"(?:[^\"\\]|\\.)*\"|\\.|\|\||(\|&?\s*)|[;&\n]")
_POWERSHELL = re.compile(rb"'[^']*'|\"(?:[^\"`]|`.)*\"|`.|\|\||(\|\s*)|[;&\n]")
_CMD = re.compile(rb"\"[^\"\n]*\"|\^.|\|\||(\|)|[&\n]")
_BREAKS = frozenset([b"||", b";", b"&", b"\n"])
_PATTERNS = {"powershell": _POWERSHELL, "cmd": _CMD}


def cut_at(text: str, family: str) -> int:
    """The character offset where `text` must be cut (its `MAX_STAGES`-th `|` of one
    pipeline), or -1 when no pipeline in it is that long."""
    if text.count("|") < MAX_STAGES:  # the cheap exit: almost every text
        return -1
    data = text.encode("utf-8", "surrogatepass")
    stages = 0
    for m in _PATTERNS.get(family, _BASH).finditer(data):
        if m.group(1) is not None:
            stages += 1
            if stages >= MAX_STAGES:
                return len(data[: m.start()].decode("utf-8", "surrogatepass"))
        elif m.group() in _BREAKS:
            stages = 0
    return -1
