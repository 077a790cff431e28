"""The one parser for shell-integration marks (OSC 633, VS Code's, and OSC 133, FinalTerm).

Both readers of marks use it: the terminal session (`terminal/integration.py`, which also
checks the per-session nonce) and the VT processor (`capture/vt.py`, which finds marks in
a buffer it renders). A mark's payload is the OSC body without `ESC ]` and terminator:

- `633;A` prompt start, `633;B` prompt end, `633;C` output start,
- `633;D[;exit]` command finished, `633;E;commandline`, `633;P;Cwd=path`,
- `133;A`..`133;D[;exit]` the same from prompts that emit FinalTerm marks.

633 fields escape `\\`, `;` and control characters as `\\xNN` (`\\\\` for a backslash).
"""

from __future__ import annotations

import re

import attrs

MARK_CODES = ("633", "133")


@attrs.frozen
class ParsedMark:
    """A mark's family (633 or 133), letter, and fields (633 escapes decoded)."""

    code: int
    kind: str
    params: tuple[str, ...]

    @property
    def exit_code(self) -> int | None:
        """D's exit code, when it has a numeric one."""
        if self.kind == "D" and self.params:
            text = self.params[0].strip()
            if text.lstrip("-").isdigit() and text.count("-") <= 1:
                return int(text)
        return None

    @property
    def command_line(self) -> str | None:
        """E's command line (633 only)."""
        if self.kind == "E" and self.code == 633:
            return self.params[0] if self.params else ""
        return None

    @property
    def cwd(self) -> str | None:
        """The `Cwd=` property of a P mark (633 only)."""
        if self.kind == "P" and self.code == 633:
            for param in self.params:
                key, _, value = param.partition("=")
                if key == "Cwd":
                    return value
        return None


_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|\\)")


def unescape(value: str) -> str:
    r"""Undo the 633 escaping in one pass: `\\` is a backslash, `\xNN` a character."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else "\\", value)


def escape(value: str) -> str:
    r"""633 escaping: backslash, `;` and control characters become `\xNN` (`\` itself `\\`)."""
    return "".join(
        "\\\\" if ch == "\\" else f"\\x{ord(ch):02x}" if ch == ";" or ord(ch) < 0x20 else ch
        for ch in value
    )


def is_mark_payload(payload: str) -> bool:
    """True if an OSC payload is a 633/133 mark (whether or not it parses)."""
    return payload.startswith(("633;", "133;"))


def parse_mark(payload: str) -> ParsedMark | None:
    """Parse an OSC payload; None if it is not a 633/133 mark."""
    code, _, rest = payload.partition(";")
    if code not in MARK_CODES or not rest:
        return None
    fields = rest.split(";")
    kind, params = fields[0], fields[1:]
    if code == "633":
        params = [unescape(p) for p in params]
    return ParsedMark(int(code), kind, tuple(params))
