"""Safety analysis: command text + shell -> `Assessment` (level, findings with spans).

See DESIGN §5. `assess(command, shell, rules)` is the entry point; results are cached by
(command, shell family, rules).

Where things live:

- `levels`: RiskLevel, Finding, Assessment, SafetyRules (the answers and the user's rules).
- `analyser`: `assess`, the cache, shell-name -> front end.
- Front ends turn syntax into simple commands: `bash` (tree-sitter-bash walk), `powershell`
  (tree-sitter-powershell walk), `cmd` (tokeniser); `words` holds word normalisation.
- `dispatch`: `judge` for one simple command; `registry`: the program -> handler table the
  knowledge modules fill (`handles`), finding helpers, option skipping; `context` is the
  state a walk carries (a handler judges the command it wraps through `Cmd.judge`, a
  callback, so knowledge modules never import the dispatcher); `paths` says what a path
  operand means; `inline` reads inline code (Python with `ast`) and SQL; `budget` caps
  the size and parse time of one assessment.
- Knowledge, one module per area: `files`, `git`, `system`, `network`, `infra`,
  `toolchains`, `allowlist`, `windows`, `wrappers` (sudo, env, shells, eval,
  interpreters); `detections` and `reports` (detection rules' and incident reports'
  knowledge) read two shared tables: `security` (security products by name) and `remote`
  (remote-control agents, tunnels, login ports, and their judge).
- `catalogue`: every rule id with a summary and an example.
- `cli`: `aintern-ls assess`, `aintern-ls check` and `aintern-ls rules`.
"""

import re as _re

# (sa22) The analyser's modules hand `re.search`/`match`/`sub`… about 1,200 distinct pattern
# strings at run time (826 call sites over the corpora), on top of ~1,100 compiled at import,
# and `re` keeps only 512 compiled patterns (3.11: the oldest inserted is dropped first, a
# hit does not keep one). So every pass over varied commands recompiled hundreds of them:
# 803 compiles (1.6 s of CPU) per pass over the bench's 3,000 commands, paid by one command
# in seven. With room for 4,096 each is compiled once per process. What is kept are compiled
# patterns (a few KB each); the import-time ones are held by their modules anyway.
# (`_MAXCACHE` is read at every insertion in CPython 3.11-3.13; an interpreter without it
# only ignores the attribute.)
if getattr(_re, "_MAXCACHE", 0) < 4096:
    setattr(_re, "_MAXCACHE", 4096)  # noqa: B010 (typeshed does not declare it)

from aintern_ls.safety.analyser import assess
from aintern_ls.safety.levels import Assessment, Finding, RiskLevel, SafetyRules

__all__ = ["Assessment", "Finding", "RiskLevel", "SafetyRules", "assess"]
