"""What the history keeps of a run whose placeholders were filled in at the prompt."""

from __future__ import annotations

from aintern_ls.models import CommandBlockStatus, CommandResult
from aintern_ls.runbook.prompts import for_history


def _result(output: str) -> CommandResult:
    return CommandResult(
        block_id="b1",
        command="echo <env>",
        status=CommandBlockStatus.EXECUTED,
        exit_code=0,
        output=output,
    )


def test_every_typed_value_is_replaced_by_its_name() -> None:
    kept = for_history(
        _result("deploying to staging-42 as ada\n"), {"env": "staging-42", "who": "ada"}
    )
    assert kept.output == "deploying to [value:env] as [value:who]\n"


def test_short_values_only_as_whole_words() -> None:
    kept = for_history(_result("Continue? y\nyes, yearly y-axis\n"), {"answer": "y"})
    assert kept.output == "Continue? [value:answer]\nyes, yearly [value:answer]-axis\n"


def test_the_editor_result_is_left_as_it_was() -> None:
    result = _result("token abcd\n")
    kept = for_history(result, {"t": "abcd"})
    assert result.output == "token abcd\n" and kept.output == "token [value:t]\n"
    assert for_history(result, {}) is result
