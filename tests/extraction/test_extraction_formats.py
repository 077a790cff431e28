"""Real-world-like runbooks and chat transcripts (tests/extraction/data): commands,
shells, roles, messages, descriptions, options and expected output."""

from __future__ import annotations

from pathlib import Path

import pytest

from aintern_ls.extraction import extract, extract_file
from aintern_ls.models import CommandBlock, ShellType

DATA = Path(__file__).parent / "data"


def blocks(name: str) -> list[CommandBlock]:
    return extract_file(DATA / name).commands


def test_codecompanion_blocks_are_the_assistants_in_every_shell() -> None:
    found = blocks("codecompanion.md")
    assert [b.command for b in found] == [
        "lsof -i :8000 -sTCP:LISTEN",
        "kill 12345",
        "netstat -anv | grep '\\.8000 '",
        "python -m uvicorn app:app --reload --port 8000",
        "Get-NetTCPConnection -LocalPort 8000 | Select-Object -Property OwningProcess",
        "Stop-Process -Id 12345 -Force",
        "netstat -ano | findstr :8000",
    ]
    assert [b.shell_type for b in found] == [
        ShellType.BASH,
        ShellType.SH,
        ShellType.ZSH,
        ShellType.BASH,
        ShellType.POWERSHELL,
        ShellType.POWERSHELL,
        ShellType.CMD,
    ]
    assert {b.role for b in found} == {"assistant"}
    # two assistant messages: four blocks in the first, three in the second
    assert [b.sequence_number for b in found] == [0, 1, 2, 3, 0, 1, 2]
    assert len({b.message_id for b in found[:4]}) == 1
    assert found[0].message_id != found[4].message_id
    assert found[1].description == (
        "If it's an old copy of your server, stop it by PID (replace 12345):"
    )
    assert found[3].expected_output is not None
    assert found[3].expected_output.startswith("INFO:     Uvicorn running")


def test_copilotchat_user_header_with_login_name_is_the_user() -> None:
    found = blocks("copilotchat.md")
    assert [b.command for b in found][-1] == "docker builder prune --filter until=72h"
    assert {b.role for b in found} == {"assistant"}
    assert len({b.message_id for b in found}) == 2


def test_gp_nvim_prefixes_give_roles_and_descriptions_skip_the_marker() -> None:
    found = blocks("gp_chat.md")
    assert [b.role for b in found] == ["assistant", "assistant", "user", "assistant"]
    assert found[0].description == "Check the current sizes first:"
    assert found[2].description == "and to test the config without rotating?"
    assert [b.sequence_number for b in found] == [0, 1, 0, 0]


def test_aider_history_user_lines_and_assistant_output() -> None:
    found = blocks("project.aider.chat.history.md")
    assert [b.command for b in found] == [
        "python -m pytest tests/test_cli.py -q",
        "export LC_ALL=C.UTF-8\npython -m pytest -q",
        "git reset --soft HEAD~1",
    ]
    assert {b.role for b in found} == {"assistant"}
    assert len({b.message_id for b in found}) == 3


def test_aider_format_is_recognised_by_the_session_header_alone() -> None:
    text = (DATA / "project.aider.chat.history.md").read_text(encoding="utf-8")
    found = extract(text, "file:///tmp/notes.md").commands
    assert [b.role for b in found] == ["assistant"] * 3


def test_aider_user_lines_are_not_commands_even_when_they_look_like_fences() -> None:
    text = "# aider chat started at 2025-01-01 10:00:00\n\n#### ```bash\n#### ls\n\nok\n"
    assert extract(text).commands == []


def test_h4_user_assistant_transcript() -> None:
    found = blocks("roles_h4.md")
    assert [b.command for b in found] == ["ss -tlnp", "netstat -tlnp", "sudo iptables -L -n -v"]
    assert [b.role for b in found] == ["assistant"] * 3
    assert [b.sequence_number for b in found] == [0, 1, 0]
    assert found[0].description == "Use ss:"
    assert found[2].description is None  # the heading is not a paragraph


def test_runbook_has_no_roles_and_reads_every_shell_form() -> None:
    found = blocks("runbook_deploy.md")
    assert {b.role for b in found} == {None}
    assert len({b.message_id for b in found}) == 1
    by_first_line = {b.first_line: b for b in found}
    context = by_first_line["kubectl config current-context"]
    assert context.options == {"name": "context", "timeout": "10s"}
    build = by_first_line["docker build \\"]
    assert build.working_directory == "services/billing"
    assert build.options == {"name": "build", "cwd": "services/billing", "interactive": "false"}
    assert build.command == (
        'docker build \\\n  -t registry.example.com/billing:"$(git describe --tags)" .'
    )
    prune = by_first_line["docker builder prune -f"]
    assert prune.expected_output == "Total reclaimed space: 3.2GB"
    pods = by_first_line["kubectl -n billing get pods -w"]
    assert pods.language == "shell-session"
    assert pods.expected_output is not None and pods.expected_output.startswith("NAME")
    batch = by_first_line['schtasks /Run /TN "Billing\\Reconcile"']
    assert batch.shell_type is ShellType.CMD
    history = by_first_line["kubectl -n billing rollout history deploy/billing"]
    assert history.working_directory == "/srv/ops"
    assert history.description == "Show the rollout history so we can pick a revision"
    assert history.options == {"riskLevel": "safe"}
    events = found[-1]
    assert events.language == "execute"
    assert events.command.startswith("kubectl -n billing get events")
    assert "text" not in {b.language for b in found}
    assert len(found) == 11


@pytest.mark.parametrize(
    ("language", "shell"),
    [
        ("bash", ShellType.BASH),
        ("SH", ShellType.SH),
        ("shell", ShellType.BASH),
        ("zsh", ShellType.ZSH),
        ("fish", ShellType.FISH),
        ("ksh", ShellType.KSH),
        ("terminal", ShellType.BASH),
        ("PowerShell", ShellType.POWERSHELL),
        ("pwsh", ShellType.POWERSHELL),
        ("ps1", ShellType.POWERSHELL),
        ("cmd", ShellType.CMD),
        ("bat", ShellType.CMD),
        ("batch", ShellType.CMD),
        ("{.bash .numberLines}", ShellType.BASH),
        ("bash:install.sh", ShellType.BASH),
    ],
)
def test_shell_languages_map_to_shell_types(language: str, shell: ShellType) -> None:
    body = "$ whoami" if language == "terminal" else "whoami"
    [block] = extract(f"```{language}\n{body}\n```\n").commands
    assert block.shell_type is shell
    assert block.command == "whoami"


@pytest.mark.parametrize("language", ["python", "json", "text", "yaml", "", "diff", "js"])
def test_other_languages_are_not_commands(language: str) -> None:
    assert extract(f"```{language}\nls -la\n```\n").commands == []


def test_console_prompts_continuations_and_output() -> None:
    text = (
        "```console\n"
        "$ cat <<EOF > greeting.txt\n"
        "> hello\n"
        "> EOF\n"
        "$ docker run --rm \\\n"
        "    alpine echo hi\n"
        "hi\n"
        "# id -u\n"
        "0\n"
        "(venv) user@box:~/app$ pytest -q\n"
        "3 passed\n"
        "```\n"
    )
    [block] = extract(text).commands
    assert block.command == (
        "cat <<EOF > greeting.txt\nhello\nEOF\n"
        "docker run --rm \\\n    alpine echo hi\n"
        "id -u\n"
        "pytest -q"
    )
    assert block.expected_output == "hi\n0\n3 passed"


@pytest.mark.parametrize("language", ["console", "shell-session", "shellsession", "Console"])
def test_console_without_any_prompt_line_runs_every_line_as_bash(language: str) -> None:
    text = f"~~~{language}\n\ncd app\nnpm ci\nnpm run build\n\n~~~\n"
    [block] = extract(text).commands
    assert block.command == "cd app\nnpm ci\nnpm run build"
    assert block.shell_type is ShellType.BASH
    assert block.language == language.lower()
    assert block.expected_output is None


def test_console_with_one_prompt_line_keeps_prompt_reading() -> None:
    [block] = extract(
        "```console\n$ docker system prune -f\nTotal reclaimed space: 0B\n```\n"
    ).commands
    assert block.command == "docker system prune -f"
    assert block.expected_output == "Total reclaimed space: 0B"


def test_terminal_capture_without_prompts_is_output_not_a_command() -> None:
    assert extract("```terminal\nTotal reclaimed space: 0B\n```\n").commands == []


def test_hash_is_a_comment_in_bash_but_a_root_prompt_in_console() -> None:
    [bash] = extract("```bash\n# update the index\napt-get update\n```\n").commands
    assert bash.command == "# update the index\napt-get update"
    [console] = extract("```console\n# apt-get update\nHit:1 http://deb\n```\n").commands
    assert console.command == "apt-get update"
    [terminal] = extract(
        "```terminal\n# Directory: /srv\n$ ls\napp\n# Exit code: 0\n```\n"
    ).commands
    assert terminal.command == "ls"


def test_bash_fence_written_with_dollar_prompts_strips_them() -> None:
    [block] = extract("```bash\n$ npm ci\nadded 120 packages\n$ npm test\n```\n").commands
    assert block.command == "npm ci\nnpm test"
    assert block.expected_output == "added 120 packages"


def test_powershell_prompts() -> None:
    text = "```powershell\nPS C:\\Users\\me> Get-Date\n\nMonday, 1 January\n```\n"
    [block] = extract(text).commands
    assert block.command == "Get-Date"
    [con] = extract("```console\nPS> Get-Process pwsh\n```\n").commands
    assert con.shell_type is ShellType.POWERSHELL


def test_runme_json_attributes_and_cwd() -> None:
    text = '```sh {"name":"build","cwd":"app","timeout":"30s","interactive":false}\nmake\n```\n'
    [block] = extract(text).commands
    assert block.options == {"name": "build", "cwd": "app", "timeout": "30s", "interactive": False}
    assert block.working_directory == "app"


def test_runme_key_value_attributes_with_quotes() -> None:
    [block] = extract(
        '```bash { name=deploy cwd=\'my app\' note="a \\"b\\"" }\nmake\n```\n'
    ).commands
    assert block.options == {"name": "deploy", "cwd": "my app", "note": 'a "b"'}
    assert block.working_directory == "my app"


def test_invalid_runme_json_is_a_warning_at_its_position_and_the_block_stays() -> None:
    text = 'Intro.\n\n```sh {"name": build}\nmake\n```\n'
    result = extract(text)
    [block] = result.commands
    assert block.command == "make"
    [warning] = result.warnings
    assert warning.line == 2
    assert text.split("\n")[2][warning.character] == "b"
    assert warning.block_id == block.id


def test_execute_json_fence_from_seed_004() -> None:
    text = (
        "```execute\n"
        '{\n  "command": "npm install",\n  "workingDir": "/home/me/app",\n'
        '  "explanation": "Install the dependencies",\n  "riskLevel": "moderate"\n}\n'
        "```\n"
    )
    [block] = extract(text).commands
    assert block.command == "npm install"
    assert block.working_directory == "/home/me/app"
    assert block.description == "Install the dependencies"
    assert block.options == {"riskLevel": "moderate"}
    assert block.shell_type is ShellType.BASH
    assert block.language == "execute"


def test_execute_plain_body_is_a_bash_command() -> None:
    [block] = extract("Run it:\n\n```execute\ncd ~/exercises && ls\n```\n").commands
    assert block.command == "cd ~/exercises && ls"
    assert block.shell_type is ShellType.BASH
    assert block.description == "Run it:"


def test_broken_execute_json_is_a_warning_with_its_document_position() -> None:
    text = 'Text\n\n> ```execute\n> {"command": "ls",\n>  "riskLevel": safe}\n> ```\n'
    result = extract(text)
    assert result.commands == []
    [warning] = result.warnings
    assert (warning.line, warning.character) == (4, 16)
    assert text.split("\n")[4][warning.character] == "s"
    assert "invalid JSON" in warning.message


def test_execute_json_without_command_is_a_warning() -> None:
    result = extract('```execute\n{"explanation": "nothing to run"}\n```\n')
    assert result.commands == []
    assert result.warnings[0].message.startswith('execute block JSON has no "command"')


def test_description_is_plain_text_of_the_paragraph_just_before() -> None:
    text = (
        "Use **`grep -r`** to [search](https://x.y) the _tree_,\nrecursively:\n\n"
        "```bash\ngrep -r TODO .\n```\n\n"
        "# Heading\n\n```bash\nls\n```\n"
    )
    first, second = extract(text).commands
    assert first.description == "Use grep -r to search the tree, recursively:"
    assert second.description is None


def test_description_is_capped_at_200_characters() -> None:
    text = "word " * 100 + "\n\n```bash\nls\n```\n"
    [block] = extract(text).commands
    assert block.description is not None
    assert len(block.description) <= 200


def test_description_does_not_cross_into_the_previous_message() -> None:
    text = "## Me\n\nplease run it\n\n## CodeCompanion\n\n```bash\nls\n```\n"
    [block] = extract(text).commands
    assert block.role == "assistant"
    assert block.description is None


def test_a_runbook_section_named_user_does_not_make_it_a_chat() -> None:
    text = "# Ops\n\n## User\n\nCreate the user:\n\n```bash\nuseradd bob\n```\n"
    [block] = extract(text).commands
    assert block.role is None


def test_ids_are_stable_and_distinguish_repeated_commands() -> None:
    text = "```bash\nls\n```\n\n```bash\nls\n```\n"
    first, second = extract(text, "file:///a.md").commands
    assert first.id != second.id
    assert first.id.startswith("blk-") and len(first.id) == 16
    again = extract("New intro paragraph.\n\n" + text, "file:///a.md").commands
    assert [b.id for b in again] == [first.id, second.id]
    other = extract(text, "file:///b.md").commands
    assert other[0].id != first.id


def test_comments_before_prompts_in_a_bash_transcript_are_skipped() -> None:
    text = "```bash\n# install deps\n$ npm ci\nadded 1 package\n# then\n$ npm test\n```\n"
    [block] = extract(text).commands
    assert block.command == "npm ci\nnpm test"
    assert block.expected_output == "added 1 package"


def test_codecompanion_response_subheading_does_not_split_the_answer() -> None:
    text = (
        "## Me\n\nlist files\n\n## CodeCompanion (Claude)\n\n### Reasoning\n\nthinking\n\n"
        "### Response\n\nDo:\n\n```bash\nls\n```\n\nthen\n\n```bash\npwd\n```\n"
    )
    first, second = extract(text).commands
    assert first.message_id == second.message_id
    assert [first.sequence_number, second.sequence_number] == [0, 1]


def test_educates_execute_variants() -> None:
    text = (
        "```execute-2\necho two\n```\n\n"
        "```terminal:execute\ncommand: |\n  echo a\n  echo b\nsession: 2\n```\n\n"
        "```execute-all\nclear\n```\n"
    )
    two, yaml_action, every = extract(text).commands
    assert (two.command, two.options) == ("echo two", {"terminal": "2"})
    assert (yaml_action.command, yaml_action.options) == ("echo a\necho b", {"session": "2"})
    assert every.options == {"terminal": "all"}
    assert {b.shell_type for b in (two, yaml_action, every)} == {ShellType.BASH}


@pytest.mark.parametrize(
    ("user", "assistant"),
    [
        ("## User", "## Assistant"),
        ("### 👤 You:", "### 🤖 ChatGPT:"),
        ("## Prompt:", "## Response:"),
        ("**Human:** how?", "**Assistant:** like this"),
        ("User: how?", "Assistant: like this"),
    ],
)
def test_generic_transcript_markers(user: str, assistant: str) -> None:
    text = f"{user}\n\nhow do I list files?\n\n{assistant}\n\nRun:\n\n```bash\nls -la\n```\n"
    [block] = extract(text).commands
    assert block.role == "assistant"
    assert block.description == "Run:"


def test_ids_do_not_depend_on_how_the_uri_is_percent_encoded() -> None:
    text = "```bash\nls\n```\n"
    vscode = extract(text, "file:///c%3A/Users/me/My%20Runbook.md").commands[0]
    cli = extract(text, "file:///C:/Users/me/My Runbook.md").commands[0]
    assert vscode.id == cli.id


def test_obsidian_chatgpt_md_role_tags() -> None:
    text = (
        'role::user\n\nhow do I count lines?\n\n<hr class="__chatgpt_plugin">\n\n'
        '### role::assistant<span style="font-size: small;"> (gpt-4o)</span>\n\n'
        "Use wc:\n\n```bash\nwc -l file.txt\n```\n"
    )
    [block] = extract(text).commands
    assert block.role == "assistant"
    assert block.description == "Use wc:"


def test_error_and_tool_sections_in_a_runbook_are_not_chat_turns() -> None:
    text = (
        "## User\n\nAdd a user:\n\n```bash\nuseradd bob\n```\n\n## Error\n\n```bash\ndmesg\n```\n"
    )
    assert {b.role for b in extract(text).commands} == {None}


def test_bold_words_without_a_colon_are_not_role_labels() -> None:
    text = (
        "**You** must be root.\n\n```bash\nid\n```\n\n**Copilot** wrote this.\n\n```bash\nls\n```\n"
    )
    assert {b.role for b in extract(text).commands} == {None}


def test_execute_json_command_may_be_an_argument_vector() -> None:
    [block] = extract('```execute\n{"command": ["ls", "-la", "my dir"]}\n```\n').commands
    assert block.command == "ls -la 'my dir'"
