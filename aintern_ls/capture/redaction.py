"""Secret redaction: take credentials out of text before it reaches an AI panel.

`redact` replaces private keys, cloud and service tokens, JWTs, passwords in URLs and
`PASSWORD=`/`TOKEN=`-style assignments with a marker naming the kind, such as
`[REDACTED:github-token]`, and counts what it replaced. The patterns are anchored on
formats and key names, not on entropy, so git SHAs, UUIDs, hex digests and ordinary
base64 are left alone. Redacting already-redacted text changes nothing.
"""

from __future__ import annotations

import re

import attrs

MARKER = "[REDACTED:{kind}]"
MARKER_PREFIX = "[REDACTED:"

# Token formats with a recognisable prefix: (kind, pattern). Order matters only where
# one format is a prefix of another (Anthropic keys also start with `sk-`).
_TOKEN_FORMATS: list[tuple[str, str]] = [
    (
        "aws-access-key",
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b",
    ),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ("gitlab-token", r"\bgl(?:pat|dt|rt|ptt|ft|imt|agent|oas|cbt|soat)-[A-Za-z0-9_\-]{20,}"),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    ("slack-webhook", r"https://hooks\.slack\.com/services/T[A-Za-z0-9_/]+"),
    ("anthropic-key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}"),
    ("openai-key", r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}"),
    ("stripe-key", r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("google-api-key", r"\bAIza[0-9A-Za-z_\-]{35}"),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi-token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
]

_PRIVATE_KEY = (
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    # To the END line, or, if the text was cut, through the key's base64 lines.
    r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:\r?\n[A-Za-z0-9+/=:,\- ]*)*)"
)
# scheme://user:password@host keeps the user and host, hides the password.
_URL_PASSWORD = (
    r"(?P<url_head>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@\[\]]+:)(?P<url_pw>[^\s@/\[\]]+)(?=@)"
)
_AUTH_HEADER = (
    r"(?P<auth_head>\b[Aa]uthorization:\s*(?:[Bb]earer|[Bb]asic|[Tt]oken)\s+)"
    r"(?P<auth_value>[A-Za-z0-9\-._~+/]{8,}=*)"
)
# NAME=value / name: value / "name": "value" where the name says it holds a secret.
# PWD/OLDPWD are directories, not passwords.
_SECRET_NAME = (
    r"(?i:[A-Za-z0-9_.\-]*(?:passw(?:or)?d|passphrase|secret|token|api[_\-]?key|access[_\-]?key"
    r"|private[_\-]?key|credentials?|auth[_\-]?key|client[_\-]?secret)[A-Za-z0-9_.\-]*)"
)
_ASSIGNMENT = (
    r"(?P<assign_head>(?<![A-Za-z0-9_])(?:--)?[\"']?(?P<assign_name>" + _SECRET_NAME + r")[\"']?"
    r"[ \t]*(?:=|:[ \t]|:(?=[\"']))[ \t]*(?P<assign_quote>[\"']?))"
    r"(?P<assign_value>(?!\[REDACTED:)(?:(?<=\")[^\"\n]{3,}(?=\")|(?<=')[^'\n]{3,}(?=')|[^\s\"',;]{3,}))"
)

_PATTERN = re.compile(
    "|".join(
        [
            f"(?P<private_key>{_PRIVATE_KEY})",
            _URL_PASSWORD,
            _AUTH_HEADER,
            *(f"(?P<t{i}>{p})" for i, (_, p) in enumerate(_TOKEN_FORMATS)),
            _ASSIGNMENT,
        ]
    ),
)
_TOKEN_FULL = [(kind, re.compile(p)) for kind, p in _TOKEN_FORMATS]
# Values that name a secret without being one.
_PLACEHOLDER = re.compile(
    r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x+|null|none|true|false|"
    r"changeme|redacted|\.\.\.|%s|\{\{.*\}\})$",
    re.IGNORECASE,
)


# Values of secret-named settings that are not secrets themselves: counts such as
# `max_tokens=4096`, file paths such as `TOKEN_FILE=~/.token`, URLs without credentials.
# Also template references (`<your key>`, `$VAR`, `{{ secret }}`, `%(pw)s`).
_NOT_A_SECRET = re.compile(r"^(?:\d+|(?:~|\.{1,2})?/\S*|https?://[^@\s]*|[<$%]\S*|\{\{.*)$")


def _assignment_kind(name: str) -> str:
    if "aws" in name and "secret" in name:
        return "aws-secret-key"
    if "pass" in name:
        return "password"
    if "token" in name:
        return "token"
    if "key" in name:
        return "api-key"
    return "secret"


@attrs.frozen
class Redaction:
    """Redacted text and how many secrets were replaced."""

    text: str
    count: int = 0


def _marker(kind: str) -> str:
    return MARKER.format(kind=kind)


def _kind_of_value(value: str) -> str | None:
    for kind, pattern in _TOKEN_FULL:
        if pattern.fullmatch(value):
            return kind
    return None


def redact(text: str) -> Redaction:
    """Replace the secrets in `text` with `[REDACTED:<kind>]` markers; count them."""
    count = 0

    def replace(m: re.Match[str]) -> str:
        nonlocal count
        group = m.lastgroup
        if group == "private_key":
            count += 1
            return _marker("private-key")
        if m.group("url_pw") is not None:
            count += 1
            kind = _kind_of_value(m.group("url_pw")) or "url-password"
            return m.group("url_head") + _marker(kind)
        if m.group("auth_value") is not None:
            count += 1
            return m.group("auth_head") + _marker(
                _kind_of_value(m.group("auth_value")) or "auth-header"
            )
        if m.group("assign_value") is not None:
            value = m.group("assign_value")
            found = _kind_of_value(value)
            if found is None and (_PLACEHOLDER.match(value) or _NOT_A_SECRET.match(value)):
                return m.group()
            count += 1
            if found is None:
                found = _assignment_kind(m.group("assign_name").lower())
            return m.group("assign_head") + _marker(found)
        for i, (kind, _) in enumerate(_TOKEN_FORMATS):
            if m.group(f"t{i}") is not None:
                count += 1
                return _marker(kind)
        return m.group()  # pragma: no cover - every alternative is handled above

    if not _may_hold_secret(text):
        return Redaction(text, 0)
    result = _PATTERN.sub(replace, text)
    return Redaction(result, count)


_HINTS = re.compile(
    r"PRIVATE KEY|://|uthorization|AKIA|ASIA|A[BCGIPNRS][A-Z]A|gh[pousr]_|github_pat|gl[a-z]+-|xox|hooks\.slack"
    r"|sk-|[rs]k_|AIza|npm_|pypi-|eyJ|passw|passphrase|secret|token|key|credential",
    re.IGNORECASE,
)


def _may_hold_secret(text: str) -> bool:
    # One cheap scan decides whether the big alternation has to run at all.
    return _HINTS.search(text) is not None
