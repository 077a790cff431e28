"""Documents as people really write them (see data/README.md for what each imitates):
prompt-less console fences and chat replies cut off inside a fence."""

from __future__ import annotations

from pathlib import Path

from aintern_ls.extraction import extract, extract_file
from aintern_ls.models import ShellType

DATA = Path(__file__).parent / "data"


def test_readme_console_fences_without_prompts_run_every_line() -> None:
    result = extract_file(DATA / "readme_console.md")
    assert result.warnings == []
    build, docker, run, version = result.commands
    assert build.command == (
        "git clone https://github.com/example/pgbouncer-exporter.git\n"
        "cd pgbouncer-exporter\nmake build"
    )
    assert build.shell_type is ShellType.BASH and build.expected_output is None
    assert docker.command == "docker build -t pgbouncer-exporter ."
    # With prompts, only prompt lines are commands and the rest is expected output.
    assert run.command.splitlines() == [
        './pgbouncer-exporter --web.listen-address=":9127" &',
        "curl -s localhost:9127/metrics | grep -c pgbouncer_",
    ]
    assert run.expected_output == "42"
    assert version.expected_output == "pgbouncer-exporter, version 0.9.0 (branch: main)"


def test_codecompanion_reply_cut_off_inside_a_fence_ends_at_the_next_header() -> None:
    result = extract_file(DATA / "codecompanion_cut_off.md")
    commands = [b.command for b in result.commands]
    assert commands[1] == (
        "docker compose down\ndocker run --rm -v pgdata:/var/lib/postgresql/data postgres:15 \\"
    )
    # The user's next message is not shell code, and the fences after it are read
    # as their author wrote them (not with opener and closer swapped).
    assert not any("## Me" in c or "cut off" in c for c in commands)
    assert commands[2].startswith("docker compose down\ndocker run -d --name pg15")
    assert commands[3] == "docker volume rm pgdata\ndocker compose up -d db"
    [warning] = result.warnings
    assert warning.line == result.commands[1].start_line
    assert warning.block_id == result.commands[1].id
    assert "not closed before the next message (line 23)" in warning.message
    assert "cut off" in warning.message
    # The cut-off reply and the answer after the user's message are two messages.
    assert result.commands[1].message_id != result.commands[2].message_id
    assert {b.role for b in result.commands} == {"assistant"}


def test_gp_chat_reply_cut_off_keeps_the_users_question_out_of_the_command() -> None:
    result = extract_file(DATA / "gp_cut_off.md")
    first, second = result.commands
    assert first.command.endswith('journalctl -u myapp --since "10 min ago" | tail -n 40')
    assert "💬" not in first.command and "Address already in use" not in first.command
    assert second.command == "ss -ltnp 'sport = :8080'"
    assert second.role == "assistant"
    [warning] = result.warnings
    assert "cut off" in warning.message and warning.block_id == first.id


def test_aider_history_interrupted_reply() -> None:
    result = extract_file(DATA / "cut_off.aider.chat.history.md")
    first, second = result.commands
    assert first.command == "python -m pip install -e .\npython -m pytest -q"
    assert second.command.startswith("DJANGO_SETTINGS_MODULE=app.settings.test")
    assert first.message_id != second.message_id
    [warning] = result.warnings
    assert "cut off" in warning.message


def test_runbook_fence_with_a_heading_comment_is_not_cut() -> None:
    # Not a chat: a `## User` line inside a fence is just a comment.
    text = "# Setup\n\n```bash\nuseradd app\n\n## User\nid app\n```\n"
    [block] = extract(text).commands
    assert block.command == "useradd app\n\n## User\nid app"
    assert extract(text).warnings == []


def test_a_closed_fence_in_a_chat_with_a_comment_of_the_same_role_is_not_cut() -> None:
    text = "## Me\n\nhow?\n\n## CodeCompanion\n\n```bash\nmake\n\n## CodeCompanion\necho\n```\n"
    [block] = extract(text).commands
    assert block.command == "make\n\n## CodeCompanion\necho"
