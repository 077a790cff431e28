"""Malformed input gives a clear error or warning, never a traceback: invalid UTF-8,
binary files, missing paths, huge files, unclosed fences, broken `execute` JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from aintern_ls.errors import AInternError
from aintern_ls.extraction import extract, extract_file


def test_invalid_utf8_is_decoded_with_replacement_and_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes("Caf\xe9 menu\n\n```bash\necho caf\xe9\n```\n".encode("latin-1"))
    result = extract_file(path)
    [block] = result.commands
    assert block.command == "echo caf\ufffd"
    warning = result.warnings[0]
    assert "not valid UTF-8" in warning.message
    assert (warning.line, warning.character) == (0, 3)


def test_utf8_bom_is_not_part_of_the_text(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes(b"\xef\xbb\xbf```bash\nls\n```\n")
    [block] = extract_file(path).commands
    assert (block.command, block.source_range.start) == ("ls", 0)


def test_binary_file_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "image.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(AInternError, match="binary file"):
        extract_file(path)


def test_missing_file_and_directory_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(AInternError, match="no such file"):
        extract_file(tmp_path / "nope.md")
    with pytest.raises(AInternError, match="is a directory"):
        extract_file(tmp_path)


def test_nul_characters_in_text_do_not_break_extraction() -> None:
    [block] = extract("```bash\necho a\x00b\n```\n").commands
    assert block.command.startswith("echo a")


def test_fifty_megabyte_file_is_extracted(tmp_path: Path) -> None:
    path = tmp_path / "huge.md"
    paragraph = ("The quick brown fox jumps over the lazy dog. " * 4 + "\n") * 5 + "\n"
    head = "Start:\n\n```bash\necho first\n```\n\n"
    tail = "End:\n\n```bash\necho last\n```\n"
    repeats = 50_000_000 // len(paragraph) + 1
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        for _ in range(repeats):
            out.write(paragraph)
        out.write(tail)
    assert path.stat().st_size >= 50_000_000
    result = extract_file(path)
    assert [b.command for b in result.commands] == ["echo first", "echo last"]
    last = result.commands[-1]
    assert last.start_line == 6 + repeats * 6 + 2
    assert last.description == "End:"


def test_unclosed_fences_are_extracted_with_a_warning() -> None:
    result = extract("- ```bash\n  ls\n- next\n\n````sh\necho tail\n")
    assert [b.command for b in result.commands] == ["ls", "echo tail"]
    messages = [w.message for w in result.warnings]
    assert len(messages) == 2
    assert "end of its container" in messages[0]
    assert "end of the document" in messages[1]


def test_unclosed_non_shell_fence_is_not_reported() -> None:
    assert extract("```python\nprint(1)\n").warnings == []


@pytest.mark.parametrize(
    "body",
    [
        '{"command": "ls"',
        '{"command": ls}',
        "{",
        '{"command": "ls"} trailing',
        '{"command": 42}',
        "{" * 5000,
    ],
)
def test_broken_execute_json_never_raises(body: str) -> None:
    result = extract(f"```execute\n{body}\n```\n")
    assert result.commands == []
    [warning] = result.warnings
    assert warning.line >= 1
    assert "execute block" in warning.message


def test_deeply_nested_containers_do_not_recurse_out() -> None:
    text = "> " * 5000 + "```bash\nls\n```\n" + "- " * 5000 + "x\n"
    extract(text)  # markdown-it stops nesting at its limit; no RecursionError


def test_device_full_of_zero_bytes_is_refused_without_reading_it_all() -> None:
    with pytest.raises(AInternError, match="binary file"):
        extract_file("/dev/zero")
