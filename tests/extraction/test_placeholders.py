"""Placeholders in commands, and the hints the server shows for them and for
moderate findings (no squiggles in chats), with `diagnostics.minimumLevel`."""

from __future__ import annotations

from lsprotocol import types

from aintern_ls.config import load_settings
from aintern_ls.documents import DocumentStore
from aintern_ls.extraction.placeholders import find
from aintern_ls.features.diagnostics import diagnostics_for
from aintern_ls.safety import RiskLevel


def _found(command: str, env: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    return [(p.name, p.kind, command[p.start : p.end]) for p in find(command, env or {})]


def test_each_kind_of_placeholder() -> None:
    assert _found('curl -H "Authorization: Bearer <your-token>" https://api.example.com') == [
        ("your-token", "angle", "<your-token>")
    ]
    assert _found("export OPENAI_API_KEY=YOUR_API_KEY") == [
        ("YOUR_API_KEY", "upper", "YOUR_API_KEY")
    ]
    assert _found("kubectl config use-context {{cluster}}") == [
        ("cluster", "template", "{{cluster}}")
    ]
    assert _found("git clone git@github.com:<user>/<repo>.git") == [
        ("user", "angle", "<user>"),
        ("repo", "angle", "<repo>"),
    ]
    assert _found("echo $FOO ${BAR}") == [
        ("FOO", "variable", "$FOO"),
        ("BAR", "variable", "${BAR}"),
    ]


def test_what_is_not_a_placeholder() -> None:
    for command in [
        "sort < input.txt > output.txt",
        "cat <<EOF\nhello\nEOF",
        "FOO=1; echo $FOO",
        'read -p "name? " NAME; echo "$NAME"',
        "for f in *.log; do echo $f; done",
        "echo '$LITERAL' $HOME $PATH $1 $? $@",
        "echo ${REGION:-eu-west-1}",
        'export TOKEN=abc && curl -H "X-Token: $TOKEN" https://x',
        "echo '<b>bold</b>'",
    ]:
        assert _found(command) == [], command


def test_variables_set_in_the_run_environment_are_not_placeholders() -> None:
    assert _found("echo $DEPLOY_ENV", {"DEPLOY_ENV": "prod"}) == []
    assert _found("echo $DEPLOY_ENV", {}) == [("DEPLOY_ENV", "variable", "$DEPLOY_ENV")]


DOC = """## Me

deploy it

## CodeCompanion

```bash
npm install
curl -H "Authorization: Bearer <your-token>" https://api.example.com/deploy
git push --force
```
"""


def _diagnostics(minimum: RiskLevel = RiskLevel.MODERATE) -> list[types.Diagnostic]:
    store = DocumentStore()
    doc = store.update("file:///chat.md", DOC)
    assessments = {b.id: store.assess(b) for b in doc.blocks}
    return diagnostics_for(doc, assessments, "utf-16", minimum, environment={})


def test_moderate_findings_and_placeholders_are_hints_dangerous_stays_a_warning() -> None:
    diags = _diagnostics()
    by_code = {d.code: d for d in diags}
    assert by_code["placeholder"].severity == types.DiagnosticSeverity.Hint
    assert by_code["placeholder"].range.start.line == 8
    assert by_code["placeholder"].data == {
        "blockId": by_code["placeholder"].data["blockId"],  # type: ignore[index]
        "name": "your-token",
        "kind": "angle",
    }
    warnings = [d for d in diags if d.severity == types.DiagnosticSeverity.Warning]
    assert warnings and all("force" in d.message or "push" in d.message for d in warnings)
    hints = [d for d in diags if d.severity == types.DiagnosticSeverity.Hint]
    assert len(hints) >= 2  # npm install / curl (moderate) and the placeholder
    assert not [d for d in diags if d.severity == types.DiagnosticSeverity.Information]


def test_minimum_level_drops_findings_below_it() -> None:
    diags = _diagnostics(RiskLevel.DANGEROUS)
    assert {d.severity for d in diags if d.code != "placeholder"} == {
        types.DiagnosticSeverity.Warning
    }


def test_minimum_level_setting_is_checked() -> None:
    settings, problems = load_settings({"diagnostics": {"minimumLevel": "dangerous"}})
    assert settings.diagnostics.minimum_level == "dangerous" and problems == []
    settings, problems = load_settings({"diagnostics": {"minimumLevel": "loud"}})
    assert settings.diagnostics.minimum_level == "moderate"
    assert problems and "aintern.diagnostics" in problems[0]
