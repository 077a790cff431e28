"""Markdown runbooks and AI chat transcripts -> `CommandExtractionResult`.

`extract(text, uri)` is for documents the editor holds; `extract_file(path)` reads a
file the way the CLI needs it: bytes first, so binary files are refused with a
clear message and invalid UTF-8 becomes a warning instead of a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from aintern_ls.errors import AInternError
from aintern_ls.extraction.extractor import Extractor, extract, extract_incremental, forget
from aintern_ls.models import CommandExtractionResult, ExtractionWarning

__all__ = ["Extractor", "extract", "extract_file", "extract_incremental", "forget"]

_BINARY_SNIFF = 8192
_MAX_BYTES = 256_000_000
"""Far above any real runbook or transcript; a bound on the parser's memory."""


def extract_file(path: str | Path) -> CommandExtractionResult:
    """Extract the commands of a Markdown file; its URI (`file://…`) seeds the ids."""
    file = Path(path)
    if file.is_dir():
        raise AInternError(f"{file} is a directory; pass a Markdown file")
    try:
        with file.open("rb") as stream:
            # Sniff before reading everything, so a disk image or /dev/zero is
            # refused at once instead of being loaded into memory.
            data = stream.read(_BINARY_SNIFF)
            if b"\0" in data:
                raise AInternError(
                    f"{file} looks like a binary file (it contains NUL bytes); "
                    "pass a Markdown runbook or chat transcript"
                )
            size = os.fstat(stream.fileno()).st_size
            if size > _MAX_BYTES:
                raise AInternError(
                    f"{file} is {size / 1e6:.0f} MB; aintern-ls reads Markdown files "
                    f"up to {_MAX_BYTES // 1_000_000} MB"
                )
            data += stream.read()
    except FileNotFoundError:
        raise AInternError(f"{file}: no such file") from None
    except OSError as exc:
        raise AInternError(f"cannot read {file}: {exc.strerror or exc}") from None
    text, warning = _decode(data)
    result = extract(text, uri=file.resolve().as_uri())
    if warning is not None:
        result.warnings.insert(0, warning)
    return result


def _decode(data: bytes) -> tuple[str, ExtractionWarning | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8-sig", "replace")
        line = before.count("\n")
        character = len(before) - (before.rfind("\n") + 1)
        text = data.decode("utf-8-sig", "replace")
        return text, ExtractionWarning(
            f"file is not valid UTF-8 (first invalid byte on line {line + 1}, "
            f"column {character + 1}); invalid bytes were replaced with U+FFFD",
            line,
            character,
        )
