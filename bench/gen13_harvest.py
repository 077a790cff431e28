"""Build ``tests/safety/sources_gen13.tsv`` from commands in other projects' own test suites.

Issue 14 (gen13): part (b) of every blind slice is "commands from other tools' own test
suites", drawn from projects nobody here harvested. This turns the test cases of command gates
that no earlier harvest read into labelled rows: MCP shell servers' argument policies
(sonirico/mcp-shell: git/sort/uniq/find hooks and writes), a Windows cmd MCP server's
injection tests (quanticsoul4772/mcp-server-win-cli), agent exec guards (HKUDS/nanobot,
BlckLvls/ragnarbot, Avyukth/pi_agent_rust, taco-devs/termo-agent, forkwright/aletheia),
a Claude Code pre-tool guard with obfuscated spellings (AmbitiousRealism2025/Albion) and a
multi-agent sandbox deny list (Wayne-Lee-cs/multi-agent-codeflow); bench/gen13_lists has one
list per project test file.

The lists have gen11's shape (``bench/gen11_harvest.py``: a ``# owner/repo path`` line, then
``command<TAB>shell<TAB>OUR label<TAB>their verdict``). Labels were written by the
conventions (DESIGN.md section 5, HELPERS.md "Label conventions") BEFORE the analyser ran on
the rows. Split by WHOLE PROJECT, decided before scoring: ``dev`` when the first byte of
``sha256("gen13:" + owner/repo)`` is below 0x55, else ``tune``. Rows already in another
corpus file (same command and shell) are left out.

Usage::

    python bench/gen13_harvest.py --lists bench/gen13_lists --write tests/safety/sources_gen13.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.gen11_harvest import main  # noqa: E402  (the same harvest, tag gen13)

if __name__ == "__main__":
    main("gen13")
