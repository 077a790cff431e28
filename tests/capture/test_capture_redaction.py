"""Secret redaction: realistic leaks are caught, ordinary identifiers are left alone."""

from __future__ import annotations

import base64
import hashlib
import re
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aintern_ls.capture import OutputCollector, redact
from aintern_ls.capture.redaction import (
    LineRedactor,
    Redaction,
    build_rules,
    default_rules,
    marker,
    redact_command,
    redact_value,
    translate_re2,
)

GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
GITHUB_PAT = (
    "github_pat_11" + "AQ7MZKX2Y0pR3vN8wL5tB1_" + "Hc4Jd9Fs6Gk2Lm7Np3Qr8Sv1Tx5Wz0Yb4" * 2 + "Ae9Cf"
)
GITLAB_TOKEN = "glpat-" + "xY9zA8bC7dE6fG5hI4jK"
SLACK_TOKEN = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv"
OPENAI_KEY = "sk-proj-" + "Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0"
ANTHROPIC_KEY = "sk-ant-api03-" + "Hc4Jd9Fs6Gk2Lm7Np3Qr8Sv1Tx5Wz0Yb4" * 2 + "AA"
AWS_ACCESS_KEY = "AKIA" + "Q3EGRBXTMZ4JLKW2"
AWS_ACCESS_KEY_REAL = "AKIA" + "ZT7N4LQRVBX2MWKD"
AWS_SECRET = "tQ9vB2xK7mN4pR8sW1yZ6cF3hJ5lD0gA+e/uIoPq"
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


def _marked(text: str) -> str:
    """`text` with the fingerprints of its markers blanked, for exact comparisons."""
    return re.sub(r"(\[REDACTED:[a-z0-9-]+):[0-9a-f]{4}\]", r"\1]", text)


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        (GITHUB_TOKEN, "github-pat"),
        (GITHUB_PAT, "github-fine-grained-pat"),
        (GITLAB_TOKEN, "gitlab-pat"),
        (SLACK_TOKEN, "slack-bot-token"),
        (OPENAI_KEY, "openai-api-key"),
        ("sk-" + "T3BlbkFJ" + "a1B2c3D4" * 5, "openai-api-key"),
        (ANTHROPIC_KEY, "anthropic-api-key"),
        (AWS_ACCESS_KEY, "aws-access-token"),
        ("ASIA" + "Y34FZKBOKMUTVV7A", "aws-access-token"),
        ("ABIA" + "Y34FZKBOKMUTVV7A", "aws-access-token"),
        ("AKIA" + "Y34FZKB0KMUTVV18", "aws-access-key"),
        (JWT, "jwt"),
        (PRIVATE_KEY, "private-key"),
        ("AIza" + "SyD-Hc4Jd9Fs6Gk2Lm7Np3Qr8Sv1Tx5Wz0Y", "gcp-api-key"),
        ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "stripe-access-token"),
        ("npm_" + "a1B2c3D4e5" * 3 + "f6G7h8", "npm-access-token"),
        (
            "https://hooks.slack.com/services/T04Q7MZKX/B05HC4JD9/" + "Hc4Jd9Fs6Gk2Lm7Np3Qr8Sv1",
            "slack-webhook-url",
        ),
        ("hvs." + "CAESIJ" + "a1B2c3D4e5F6" * 8, "vault-service-token"),
        (
            "SG." + "a1B2c3D4e5F6g7H8i9J0kL" + "." + "a1B2c3D4e5F6g7H8i9J0kLm" * 2,
            "sendgrid-api-token",
        ),
        ("xapp-1-A0123456789-1234567890123-" + "0a1b2c3d4e5f" * 5, "slack-app-token"),
    ],
)
def test_token_formats_are_replaced_by_a_marker_naming_the_kind(secret: str, kind: str) -> None:
    result = redact(f"before {secret} after")
    assert secret not in result.text
    assert _marked(result.text).startswith("before [REDACTED:")
    assert result.text.endswith(" after")
    assert result.count == 1
    assert f"[REDACTED:{kind}:" in result.text or kind == "private-key"
    assert "[REDACTED:private-key" in result.text or kind != "private-key"


def test_marker_fingerprint_is_stable_per_secret_and_differs_between_secrets() -> None:
    other = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    text = f"a={GITHUB_TOKEN}\nb={other}\nc={GITHUB_TOKEN}\n"
    result = redact(text)
    markers = re.findall(r"\[REDACTED:[a-z0-9-]+:[0-9a-f]{4}\]", result.text)
    assert len(markers) == 3 and result.count == 3
    assert markers[0] == markers[2] != markers[1]
    assert markers[0] == marker("github-pat", GITHUB_TOKEN)
    assert redact(text).text == result.text


def test_password_in_url_keeps_user_and_host() -> None:
    result = redact("postgres://app:s3cr3t-pw@db.internal:5432/app")
    assert _marked(result.text) == "postgres://app:[REDACTED:url-password]@db.internal:5432/app"
    result = redact("redis://:s3cr3t-pw@cache:6379/0")
    assert _marked(result.text) == "redis://:[REDACTED:url-password]@cache:6379/0"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("DB_PASSWORD=hunter2!", "DB_PASSWORD=[REDACTED:secret-assignment]"),
        ("export API_TOKEN='abc def ghi'", "export API_TOKEN='[REDACTED:secret-assignment]'"),
        ('"password": "pw12-3456"', '"password": "[REDACTED:secret-assignment]"'),
        ("client_secret: zzz999yyy", "client_secret: [REDACTED:secret-assignment]"),
        ("STRIPE_API_KEY=rk_1234x", "STRIPE_API_KEY=[REDACTED:secret-assignment]"),
        ("mysql --password=letmein -u root", "mysql --password=[REDACTED:cli-password] -u root"),
        ("mysql -u root -pletmein db", "mysql -u root -p[REDACTED:mysql-password] db"),
        ("docker login -u me -p s3cretpw", "docker login -u me -p [REDACTED:cli-short-password]"),
        ("curl -u me:s3cretpw https://x.io", "curl -u [REDACTED:curl-auth-user] https://x.io"),
        ("vault login -token=s.abcdefgh12", "vault login -token=[REDACTED:cli-password]"),
        (
            "Authorization: Bearer abcdefghijklmnop",
            "Authorization: Bearer [REDACTED:http-auth-header]",
        ),
        (
            "AccountName=a;AccountKey=" + "Zm9vYmFyYmF6" * 7 + "==;EndpointSuffix=core.windows.net",
            "AccountName=a;AccountKey=[REDACTED:azure-storage-account-key];EndpointSuffix=core.windows.net",
        ),
        (
            "https://a.blob.core.windows.net/c?sv=2022&sig=" + "AbC1dE2fG3" * 4 + "%3D",
            "https://a.blob.core.windows.net/c?sv=2022&sig=[REDACTED:azure-sas-signature]",
        ),
        ('"auth": "Y2ktYm90OnMzY3JldHB3MTIz"', '"auth": "[REDACTED:docker-config-auth]"'),
        (
            "    client-key-data: " + "LS0tLS1CRUdJTi" * 6,
            "    client-key-data: [REDACTED:kubeconfig-credential]",
        ),
    ],
)
def test_secret_named_assignments_and_options_are_redacted(line: str, expected: str) -> None:
    assert _marked(redact(line).text) == expected


@pytest.mark.parametrize(
    "line",
    [
        "PWD=/home/me/project",
        "OLDPWD=/tmp",
        "max_tokens=4096",
        '"max_tokens": 4096,',
        "token_type: Bearer",
        "tokenizer_class: LlamaTokenizerFast",
        "completion_tokens: 12, prompt_tokens: 34",
        "secret_scanning: enabled",
        "TOKEN_FILE=~/.config/token",
        "TOKEN_URL=https://auth.example.com/oauth/token",
        "password: ${DB_PASSWORD}",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "password: {{ vault_password }}",
        "API_KEY=<your key here>",
        "api_key: your-api-key",
        "DB_PASSWORD=changeme",
        "token: null",
        "password = ********",
        "SLACK_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxx",
        "  - Token: gho_************************************",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "Authorization: Bearer <token>",
        "    client-key-data: DATA+OMITTED",
        "    token: REDACTED",
        "docker run -p 8080:80 nginx",
        "[sudo] password for me:",
        "Enter passphrase for key '/home/me/.ssh/id_ed25519':",
    ],
)
def test_placeholders_masked_values_and_settings_are_kept(line: str) -> None:
    assert redact(line) == Redaction(line, 0)


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
    assert _marked(result.text).split("\n") == [
        "SHELL=/bin/bash",
        "PWD=/home/me/project",
        "HOME=/home/me",
        "GITHUB_TOKEN=[REDACTED:github-pat]",
        "OPENAI_API_KEY=[REDACTED:openai-api-key]",
        "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token]",
        "AWS_SECRET_ACCESS_KEY=[REDACTED:secret-assignment]",
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
    text = _marked(result.text)
    assert "https://x-access-token:[REDACTED:github-pat]@github.com/acme/app.git" in text
    assert "https://[REDACTED:github-pat]@github.com/acme/app.git (push)" in text
    assert "upstream\tgit@github.com:acme/app.git (fetch)" in text


def test_aws_credentials_file_printed_by_cat_is_redacted_through_the_collector() -> None:
    credentials = (
        "$ cat ~/.aws/credentials\r\n"
        "[default]\r\n"
        f"aws_access_key_id = {AWS_ACCESS_KEY_REAL}\r\n"
        f"aws_secret_access_key = {AWS_SECRET}\r\n"
        "aws_session_token = IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD\r\n"
        "region = eu-west-1\r\n"
    ).encode()
    collector = OutputCollector()
    for i in range(0, len(credentials), 7):
        collector.feed(credentials[i : i + 7])
    final = collector.finish()
    assert AWS_ACCESS_KEY_REAL not in final.output
    assert AWS_SECRET not in final.output
    assert "IQoJb3JpZ2lu" not in final.output
    assert final.redaction_count == 3
    assert _marked(final.output) == (
        "$ cat ~/.aws/credentials\n"
        "[default]\n"
        "aws_access_key_id = [REDACTED:aws-access-token]\n"
        "aws_secret_access_key = [REDACTED:secret-assignment]\n"
        "aws_session_token = [REDACTED:aws-session-token]\n"
        "region = eu-west-1\n"
    )


def test_private_key_cut_before_its_end_line_is_still_redacted() -> None:
    cut = PRIVATE_KEY.rsplit("\n", 1)[0]
    result = redact(f"$ cat id_ed25519\n{cut}")
    assert _marked(result.text) == "$ cat id_ed25519\n[REDACTED:private-key-partial]"


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
        "base64 prose: "
        + base64.b64encode(b"The quick brown fox jumps over the lazy dog").decode(),
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ1a2b3c4d5e6f7a8b9c0d1e2f3\n"
        "-----END CERTIFICATE-----",
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


def test_every_packaged_rule_compiles_or_is_skipped_with_a_reason() -> None:
    rules = default_rules()
    gitleaks = [r for r in rules.rules if r.source == "gitleaks.toml"]
    ours = [r for r in rules.rules if r.source == "aintern.toml"]
    # gitleaks' 222 rules: 221 have a regex; pkcs12-file matches file names only.
    assert len(gitleaks) + len([s for s in rules.skipped if s.source == "gitleaks.toml"]) == 222
    assert len(gitleaks) == 218
    # kubernetes-secret-yaml is limited to some file names in gitleaks; we run it
    # everywhere. The other file-name rules are skipped.
    assert sorted(s.id for s in rules.skipped) == [
        "freemius-secret-key",
        "hashicorp-tf-password",
        "nuget-config-password",
        "pkcs12-file",
    ]
    assert len(ours) >= 30
    assert all(r.keywords for r in rules.rules)
    assert len(rules.allowlists) == 2  # gitleaks' global allowlist and ours


def test_a_rule_that_cannot_compile_is_skipped_not_fatal() -> None:
    broken = {"rules": [{"id": "bad", "regex": "(", "keywords": ["x"]}]}
    good = {"rules": [{"id": "ok", "regex": r"\bok-[0-9]{6}\b", "keywords": ["ok-"]}]}
    rules = build_rules([("test.toml", broken), ("test2.toml", good)])
    assert [s.id for s in rules.skipped] == ["bad"]
    assert _marked(redact("x ok-123456 y", rules).text) == "x [REDACTED:ok] y"


@pytest.mark.parametrize(
    ("re2", "python"),
    [
        (r"p8e-(?i)[a-z0-9]{32}", r"p8e-(?i:[a-z0-9]{32})"),
        (r"\b(p8e-(?i)[a-z]{3})(?:x|$)", r"\b(p8e-(?i:[a-z]{3}))(?:x|$)"),
        (r"(a(?i)b|c)d", r"(a(?i:b)|(?i:c))d"),
        (r"(?i)\bpscale_pw_(?i)[\w]{3}", r"(?i)\bpscale_pw_(?i:[\w]{3})"),
        (r"x(?:[^\w-]|\z)", r"x(?:[^\w-]|\Z)"),
        (r"[\w(?i)]", r"[\w(?i)]"),
        (r"\bcurl\b(?:.*?|.+)x", r"\bcurl\b(?:.{0,1000}?|.{1,1000})x"),
        (r"\.*[.*]", r"\.*[.*]"),
    ],
)
def test_re2_syntax_is_translated_to_python(re2: str, python: str) -> None:
    assert translate_re2(re2) == python


def test_gitleaks_semantics_secret_group_entropy_and_allowlists() -> None:
    rules = default_rules()
    # generic-api-key: only the value is replaced; low entropy or no digit is not a secret
    assert redact("some_api_key = 'aaaaaaaaaaaa'").count == 0
    sonar = rules.rule("sonar-api-token")
    assert sonar.secret_group == 2
    # gitleaks' per-rule allowlist: the AWS documentation key ends in EXAMPLE
    assert redact("AKIAIOSFODNN7EXAMPLE").count == 0
    # gitleaks' global stopword-free regex allowlist: ${VAR}
    assert redact('auth_token = "${AUTH_TOKEN}"').count == 0


def test_redact_command_and_redact_value() -> None:
    command = f'curl -H "Authorization: Bearer {GITHUB_TOKEN}" https://api.github.com/user'
    redacted = redact_command(command)
    assert redacted is not None and GITHUB_TOKEN not in redacted
    assert redacted.startswith('curl -H "Authorization: Bearer [REDACTED:')
    assert redact_command(None) is None
    value, count = redact_value(
        {"command": f"export TOKEN={GITHUB_TOKEN}", "lines": [f"k={SLACK_TOKEN}", 3], "n": None}
    )
    assert count == 2
    assert GITHUB_TOKEN not in str(value) and SLACK_TOKEN not in str(value)
    assert value["lines"][1] == 3 and value["n"] is None


def test_line_redactor_never_shows_part_of_a_token_split_across_reads() -> None:
    stream = f"building\nexport GITHUB_TOKEN={GITHUB_TOKEN}\n" + "x" * 300 + "\n"
    for cut in range(len(stream) + 1):
        lines = LineRedactor()
        shown = [lines.feed(stream[:cut]), lines.feed(stream[cut:])]
        for line in shown:
            assert line is None or (GITHUB_TOKEN[:8] not in line and len(line) <= 120)
    lines = LineRedactor()
    assert lines.feed(f"a\nGITHUB_TOKEN={GITHUB_TOKEN[:10]}") == "a"
    assert lines.feed(f"{GITHUB_TOKEN[10:]}\r\n") == "GITHUB_TOKEN=" + marker(
        "github-pat", GITHUB_TOKEN
    )
    assert lines.feed("\n  \n") is None


@pytest.mark.parametrize(
    "text",
    [
        "curl -H x " * 10_000,  # one long line, a rule start every 10 characters
        "mysql -u x " * 10_000,
        "docker login " * 10_000,
        "password=" * 20_000,
        "-----BEGIN PRIVATE KEY-----\n" * 3_000,
    ],
    ids=["curl", "mysql", "docker-login", "assignments", "key-headers"],
)
def test_adversarial_text_is_redacted_in_bounded_work(text: str) -> None:
    # With unbounded `.*` (RE2 is linear, Python's engine backtracks) each of these
    # took minutes to hours; bounded, they take about a second at most.
    result = redact(text)
    assert redact(result.text).count == 0
