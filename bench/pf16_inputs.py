"""A FIXED input set for profiling the safety analyser (session 16, pf16).

`python -m bench.pf16_profile` judges these groups and prints thread CPU (or callgrind Ir)
and steps per group, so a speed change can be measured on the same work before and after:

- real: installed shell scripts the bench's "real scripts" block judges (git-filter-branch's
  first 10,000 characters up to a line end, ocs, tcltk-depends, lzegrep), as bash; a script
  not installed here is left out (the group's line says how many were found);
- build-bash / build-powershell / build-cmd: the honest 150-line build script of
  tests/safety/test_safety_limits.py (never cut) in each shell;
- ordinary-bash / ordinary-powershell / ordinary-cmd: 100 corpus commands per shell, frozen
  here (picked once by the sha1 of the text among the rows shorter than 200 characters);
- patho: the 10 slowest pathological 10,000-character inputs of the bench (thread CPU,
  main 7c23839, load ~1), by label and shell.
"""

from __future__ import annotations

import os

from bench.pf16_ordinary import ORDINARY

REAL_SCRIPTS = (
    ("/usr/lib/git-core/git-filter-branch", 10_000),
    ("/usr/bin/ocs", 0),
    ("/usr/bin/tcltk-depends", 0),
    ("/usr/bin/lzegrep", 0),
)

SLOWEST_PATHOLOGICAL = (
    ("unknown programs with delete verbs", "powershell"),
    ("unknown programs with delete verbs", "bash"),
    ("distinct deletions", "powershell"),
    ("LOLBin proxies per line", "powershell"),
    ("distinct deletions", "cmd"),
    ("LOLBin proxies per line", "bash"),
    ("xargs -I items", "bash"),
    ("batch launchers per line", "powershell"),
    ("distinct pipelines", "powershell"),
    ("batch launchers per line", "bash"),
)


def build_script() -> str:
    """test_safety_limits' honest build script (150 lines, 10,250 characters)."""
    return "".join(
        f"mkdir -p build/{i} && cp src/{i}.c build/{i}/ && gcc -c build/{i}/{i}.c\n"
        for i in range(150)
    )


def real_scripts() -> list[tuple[str, str, str]]:
    """(label, text, shell) of each installed script of REAL_SCRIPTS (cut to its first
    `size` characters up to a line end when size is not 0)."""
    out: list[tuple[str, str, str]] = []
    for path, size in REAL_SCRIPTS:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if size and len(text) > size:
            text = text[: text.rfind("\n", 0, size) + 1]
        out.append((os.path.basename(path), text, "bash"))
    return out


def pathological() -> list[tuple[str, str, str]]:
    from tests.safety.test_safety_limits import _pathological
    from tests.safety.test_safety_sp5_speed import adversarial
    from tests.safety.test_safety_sp6_speed import more_shapes

    shapes = {**_pathological(10_000), **adversarial(10_000), **more_shapes(10_000)}
    return [(f"{label} ({shell})", shapes[label], shell) for label, shell in SLOWEST_PATHOLOGICAL]


def groups() -> dict[str, list[tuple[str, str, str]]]:
    """Group name -> [(label, text, shell)], in a fixed order."""
    out: dict[str, list[tuple[str, str, str]]] = {"real": real_scripts()}
    for shell in ("bash", "powershell", "cmd"):
        out[f"build-{shell}"] = [("build script", build_script(), shell)]
    for shell, commands in ORDINARY.items():
        out[f"ordinary-{shell}"] = [(c, c, shell) for c in commands]
    out["patho"] = pathological()
    return out
