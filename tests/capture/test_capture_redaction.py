"""Secret redaction: realistic leaks are caught, ordinary identifiers are left alone."""

from __future__ import annotations

import base64
import hashlib
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.capture import OutputCollector, redact

GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
GITHUB_PAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
GITLAB_TOKEN = "glpat-" + "xY9zA8bC7dE6fG5hI4jK"
SLACK_TOKEN = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv"
OPENAI_KEY = "sk-proj-" + "Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0"
ANTHROPIC_KEY = "sk-ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
AWS_ACCESS_KEY = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PRIVATE_KEY = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDc2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0cwAAAJgAAAAAAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----"
)


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (GITHUB_TOKEN, "github-token"),
        (GITHUB_PAT, "github-token"),
        (GITLAB_TOKEN, "gitlab-token"),
        (SLACK_TOKEN, "slack-token"),
        (OPENAI_KEY, "openai-key"),
        ("sk-" + "T3BlbkFJ" + "a" * 40, "openai-key"),
        (ANTHROPIC_KEY, "anthropic-key"),
        (AWS_ACCESS_KEY, "aws-access-key"),
        ("ASIA" + "Y34FZKBOKMUTVV7A", "aws-access-key"),
        ("ASCA" + "Y34FZKBOKMUTVV7A", "aws-access-key"),
        ("AROA" + "Y34FZKBOKMUTVV7A", "aws-access-key"),
        (JWT, "jwt"),
        (PRIVATE_KEY, "private-key"),
        ("AIza" + "SyD-abcdefghijklmnopqrstuvwxyz01234", "google-api-key"),
        ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "stripe-key"),
        ("npm_" + "a" * 36, "npm-token"),
        ("https://hooks.slack.com/services/T0000/B0000/" + "X" * 24, "slack-webhook"),
    ],
)  # fmt: skip
def test_token_formats_are_replaced_by_a_marker_naming_the_kind(secret: str, kind: str) -> None:
    result = redact(f"before {secret} after")
    assert result.text == f"before [REDACTED:{kind}] after"
    assert result.count == 1


def test_password_in_url_keeps_user_and_host() -> None:
    result = redact("postgres://app:s3cr3t-pw@db.internal:5432/app")
    assert result.text == "postgres://app:[REDACTED:url-password]@db.internal:5432/app"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("DB_PASSWORD=hunter2!", "DB_PASSWORD=[REDACTED:password]"),
        ("export API_TOKEN='abc def ghi'", "export API_TOKEN='[REDACTED:token]'"),
        ('"password": "pw123456"', '"password": "[REDACTED:password]"'),
        ("client_secret: zzz999yyy", "client_secret: [REDACTED:secret]"),
        ("STRIPE_API_KEY=rk_fake_1234", "STRIPE_API_KEY=[REDACTED:api-key]"),
        ("mysql --password=letmein -u root", "mysql --password=[REDACTED:password] -u root"),
        ("Authorization: Bearer abcdefghijklmnop", "Authorization: Bearer [REDACTED:auth-header]"),
    ],
)
def test_secret_named_assignments_are_redacted(line: str, expected: str) -> None:
    assert redact(line).text == expected


@pytest.mark.parametrize(
    "line",
    [
        "PWD=/home/me/project",
        "OLDPWD=/tmp",
        "max_tokens=4096",
        "TOKEN_FILE=~/.config/token",
        "TOKEN_URL=https://auth.example.com/oauth/token",
        "password: ${DB_PASSWORD}",
        "API_KEY=<your key here>",
        "token: null",
        "[sudo] password for me:",
        "Enter passphrase for key '/home/me/.ssh/id_ed25519':",
    ],
)
def test_non_secret_values_of_secret_named_settings_are_kept(line: str) -> None:
    assert redact(line) == redact(line).__class__(line, 0)


def test_env_dump_redacts_secrets_and_keeps_the_rest() -> None:
    env = "\n".join(
        [
            "SHELL=/bin/bash",
            "PWD=/home/me/project",
            "HOME=/home/me",
            f"GITHUB_TOKEN={GITHUB_TOKEN}",
            f"OPENAI_API_KEY={OPENAI_KEY}",
            f"AWS_ACCESS_KEY_ID={AWS_ACCESS_KEY}",
            f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}",
            "DATABASE_URL=postgres://app:pa55word@localhost/app",
            "LS_COLORS=rs=0:di=01;34:ln=01;36",
            "GIT_COMMIT=3f786850e387550fdab836ed7e6dc881de23001b",
            "PATH=/usr/local/bin:/usr/bin",
        ]
    )
    result = redact(env)
    assert result.count == 5
    assert result.text.split("\n") == [
        "SHELL=/bin/bash",
        "PWD=/home/me/project",
        "HOME=/home/me",
        "GITHUB_TOKEN=[REDACTED:github-token]",
        "OPENAI_API_KEY=[REDACTED:openai-key]",
        "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]",
        "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]",
        "DATABASE_URL=postgres://app:[REDACTED:url-password]@localhost/app",
        "LS_COLORS=rs=0:di=01;34:ln=01;36",
        "GIT_COMMIT=3f786850e387550fdab836ed7e6dc881de23001b",
        "PATH=/usr/local/bin:/usr/bin",
    ]


def test_git_remote_with_token_url_is_redacted() -> None:
    remote = (
        f"origin\thttps://x-access-token:{GITHUB_TOKEN}@github.com/acme/app.git (fetch)\n"
        f"origin\thttps://{GITHUB_TOKEN}@github.com/acme/app.git (push)\n"
        f"gitlab\thttps://oauth2:{GITLAB_TOKEN}@gitlab.com/acme/app.git (fetch)\n"
        "upstream\tgit@github.com:acme/app.git (fetch)\n"
    )
    result = redact(remote)
    assert GITHUB_TOKEN not in result.text
    assert GITLAB_TOKEN not in result.text
    assert result.count == 3
    assert "https://x-access-token:[REDACTED:github-token]@github.com/acme/app.git" in result.text
    assert "https://[REDACTED:github-token]@github.com/acme/app.git (push)" in result.text
    assert "upstream\tgit@github.com:acme/app.git (fetch)" in result.text


def test_aws_credentials_file_printed_by_cat_is_redacted_through_the_collector() -> None:
    credentials = (
        "$ cat ~/.aws/credentials\r\n"
        "[default]\r\n"
        f"aws_access_key_id = {AWS_ACCESS_KEY}\r\n"
        f"aws_secret_access_key = {AWS_SECRET}\r\n"
        "aws_session_token = IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD\r\n"
        "region = eu-west-1\r\n"
    ).encode()
    collector = OutputCollector()
    for i in range(0, len(credentials), 7):
        collector.feed(credentials[i : i + 7])
    final = collector.finish()
    assert AWS_ACCESS_KEY not in final.output
    assert AWS_SECRET not in final.output
    assert "IQoJb3JpZ2lu" not in final.output
    assert final.redaction_count == 3
    assert final.output == (
        "$ cat ~/.aws/credentials\n"
        "[default]\n"
        "aws_access_key_id = [REDACTED:aws-access-key]\n"
        "aws_secret_access_key = [REDACTED:aws-secret-key]\n"
        "aws_session_token = [REDACTED:token]\n"
        "region = eu-west-1\n"
    )


def test_private_key_cut_before_its_end_line_is_still_redacted() -> None:
    cut = PRIVATE_KEY.rsplit("\n", 1)[0]
    result = redact(f"$ cat id_ed25519\n{cut}")
    assert result.text == "$ cat id_ed25519\n[REDACTED:private-key]"


def test_public_key_is_not_redacted() -> None:
    line = (
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host"
    )
    assert redact(line).count == 0


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "abbrev 3f78685 and 3f786850e387",
        f"request id {uuid.uuid4()}",
        f"sha256:{hashlib.sha256(b'x').hexdigest()}",
        f"md5 {hashlib.md5(b'x').hexdigest()}  file.tar.gz",
        f"sha512 {hashlib.sha512(b'x').hexdigest()}",
        f"echo {base64.b64encode(b'hello world').decode()} | base64 -d",
        "integrity sha512-" + base64.b64encode(hashlib.sha512(b"pkg").digest()).decode(),
        "docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
        "Fetched 4096 tokens in 2.3s; keyboard ok; monkey business",
        "pip install cryptography==42.0.5",
    ],
)
def test_ordinary_hashes_ids_and_text_are_not_redacted(text: str) -> None:
    assert redact(text).text == text
    assert redact(text).count == 0


@given(st.text())
def test_redacting_twice_changes_nothing_more(text: str) -> None:
    once = redact(text)
    twice = redact(once.text)
    assert twice.text == once.text
    assert twice.count == 0


@given(st.sampled_from([GITHUB_TOKEN, SLACK_TOKEN, OPENAI_KEY, AWS_ACCESS_KEY, JWT]), st.text())
def test_known_token_never_survives_in_any_context(token: str, noise: str) -> None:
    text = f"{noise} {token}\n{noise}"
    assert token not in redact(text).text
