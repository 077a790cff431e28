"""Safety analysis: command text + shell -> `Assessment` (level, findings with spans).

See DESIGN §5. `assess` is the entry point; results are cached by (command, shell, rules).
"""

from aintern_ls.safety.analyser import assess
from aintern_ls.safety.levels import Assessment, Finding, RiskLevel, SafetyRules

__all__ = ["Assessment", "Finding", "RiskLevel", "SafetyRules", "assess"]
