"""Safety analysis: command text + shell -> `Assessment` (level, findings with spans).

See DESIGN §5. `assess(command, shell, rules)` is the entry point; results are cached by
(command, shell family, rules).

Where things live:

- `levels`: RiskLevel, Finding, Assessment, SafetyRules (the answers and the user's rules).
- `analyser`: `assess`, the cache, shell-name -> front end.
- Front ends turn syntax into simple commands: `bash` (tree-sitter-bash walk), `powershell`
  (tree-sitter-powershell walk), `cmd` (tokeniser); `words` holds word normalisation.
- `rules`: `judge` for one simple command, wrappers, shells, eval and interpreters;
  `context` is the state a walk carries; `paths` says what a path operand means;
  `inline` reads inline code and SQL.
- Knowledge, one module per area: `files`, `git`, `system`, `network`, `infra`,
  `toolchains`, `allowlist`, `windows`.
- `cli`: `aintern-ls assess` and `aintern-ls check`.
"""

from aintern_ls.safety.analyser import assess
from aintern_ls.safety.levels import Assessment, Finding, RiskLevel, SafetyRules

__all__ = ["Assessment", "Finding", "RiskLevel", "SafetyRules", "assess"]
