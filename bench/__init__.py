"""Benchmarks, figures and dumps.

Every script here runs with the analyser's CPU clock backstop OFF (`budget.use_clock`):
figures, corpus scores and verdict dumps (`sp9b_verdicts`) must not depend on how busy the
machine is. `python -m bench.safety`, which measures what the server does, turns it on.
"""

from aintern_ls.safety import budget as _budget

_budget.use_clock(False)
