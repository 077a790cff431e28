"""The safety package's shape (issue 8): no import cycles, knowledge modules never import
the dispatcher, and one rule catalogue that agrees with what the analyser produces."""

from __future__ import annotations

import ast
from pathlib import Path

from aintern_ls.safety import SafetyRules, analyser, assess, gate
from aintern_ls.safety.catalogue import CATALOGUE, USER_RULE_PATTERNS, Rule
from aintern_ls.safety.levels import Assessment
from bench._corpus_figures import decode_command, read_rows

PACKAGE = Path(analyser.__file__).parent
KNOWLEDGE = {
    "files",
    "git",
    "system",
    "network",
    "infra",
    "toolchains",
    "windows",
    "allowlist",
    "wrappers",
}


def _imports() -> dict[str, set[str]]:
    """module -> the safety modules it imports (anywhere in the file, lazy ones included)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        mod = path.stem
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "aintern_ls.safety":
                    deps.update(a.name for a in node.names)
                elif node.module.startswith("aintern_ls.safety."):
                    deps.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("aintern_ls.safety."):
                        deps.add(a.name.split(".")[2])
        graph[mod] = {d for d in deps if (PACKAGE / f"{d}.py").exists()} - {mod}
    return graph


def test_no_import_cycle_in_the_safety_package() -> None:
    graph = _imports()
    graph.pop("__init__", None)
    for deps in graph.values():
        deps.discard("__init__")
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path[path.index(d) :], d]))
            if d not in state:
                visit(d)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_knowledge_modules_import_the_registry_never_the_dispatcher() -> None:
    graph = _imports()
    for mod in KNOWLEDGE:
        assert "dispatch" not in graph[mod], mod
        assert not {"bash", "powershell", "cmd", "analyser"} & graph[mod], mod
    assert "dispatch" not in graph["registry"]
    assert KNOWLEDGE - {"allowlist"} <= graph["dispatch"] | {"allowlist"}


# --- the rule catalogue ----------------------------------------------------------------


def _corpus_rows() -> list[tuple[str, str]]:

    rows: list[tuple[str, str]] = []
    here = Path(__file__).parent
    names = ["corpus.tsv", "danger_examples.tsv"] + [p.name for p in here.glob("sources*.tsv")]
    for name in names:
        path = here / name
        if not path.exists():
            continue
        rows += [(decode_command(r["command"]), r["shell"]) for r in read_rows(path)]
    return rows


def _example_rules() -> SafetyRules:
    return SafetyRules(
        extra_blocked=(USER_RULE_PATTERNS["user-blocked"],),
        extra_dangerous=(USER_RULE_PATTERNS["user-dangerous"],),
    )


def _example_assessment(rule: Rule, rules: SafetyRules) -> Assessment:
    """A rule's example through the analyser, or through the gate when the rule is about
    the environment a run gets (the gate adds those findings)."""
    if rule.env:
        return gate.check(rule.example, rule.shell, rules, rule.example_env())
    return assess(rule.example, rule.shell, rules)


def test_every_rule_the_corpus_produces_is_catalogued() -> None:
    missing: dict[str, str] = {}
    for command, shell in _corpus_rows():
        for f in assess(command, shell).findings:
            if f.rule not in CATALOGUE:
                missing.setdefault(f.rule, command)
    assert not missing, missing


def test_every_catalogue_entry_fires_on_its_example() -> None:
    wrong: dict[str, list[str]] = {}
    rules = _example_rules()
    for rule in CATALOGUE.values():
        found = {f.rule for f in _example_assessment(rule, rules).findings}
        if rule.id not in found:
            wrong[rule.id] = sorted(found)
    assert not wrong, wrong


def test_every_catalogue_entry_fires_on_some_corpus_row_or_its_example() -> None:
    fired: set[str] = set()
    for command, shell in _corpus_rows():
        fired.update(f.rule for f in assess(command, shell).findings)
    rules = _example_rules()
    for rule in CATALOGUE.values():
        fired.update(f.rule for f in _example_assessment(rule, rules).findings)
    assert set(CATALOGUE) <= fired
