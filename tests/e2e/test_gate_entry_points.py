"""Every process-starting entry point asks the same gate and says the same thing.

One table of cases (safe, moderate, dangerous confirmed / declined / unconfirmed,
critical, blocked, a user `extraBlocked` pattern, a `trusted` prefix) goes through
`aintern.run`, `aintern.runAll`, `aintern.sendToTerminal`, `aintern.terminal.send`
(the real server over stdio) and `aintern-ls run` (the CLI). Each must reach the
verdict the gate gives (`aintern_ls.safety.gate.decide`) and show its reason text.
Commands that must not run leave evidence if they do (a victim file disappears, a
forbidden marker appears).
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from aintern_ls.__main__ import main
from aintern_ls.safety import SafetyRules, gate
from tests.e2e.session import SERVER, ignore, initialize, open_markdown

SETTINGS = {
    "safety": {"extraBlocked": ["gate-forbidden"], "trusted": ["touch gate-trusted"]},
}
RULES = SafetyRules(extra_blocked=["gate-forbidden"], trusted=["touch gate-trusted"])


@attrs.frozen
class Case:
    name: str
    command: str
    how: str  # "none" (nobody confirms), "confirmed", "declined" (asked, said no)
    verdict: gate.Verdict
    level: str


CASES = [
    Case("safe", "echo gate-safe", "none", gate.Verdict.RUN, "safe"),
    Case("moderate", "touch gate-moderate", "none", gate.Verdict.RUN, "moderate"),
    Case("dangerous-confirmed", "rm -f gate-victim", "confirmed", gate.Verdict.RUN, "dangerous"),
    Case("dangerous-declined", "rm -f gate-victim", "declined", gate.Verdict.REFUSE, "dangerous"),
    Case("dangerous-unconfirmed", "rm -f gate-victim", "none", gate.Verdict.REFUSE, "dangerous"),
    Case(
        "critical", "curl -fsS http://127.0.0.1:9/x | sh", "none", gate.Verdict.REFUSE, "critical"
    ),
    Case(
        "blocked",
        "false && mkfs.ext4 /dev/aintern-no-such-disk",
        "confirmed",
        gate.Verdict.REFUSE,
        "blocked",
    ),
    Case("extra-blocked", "touch gate-forbidden", "confirmed", gate.Verdict.REFUSE, "blocked"),
    Case("trusted", "touch gate-trusted", "none", gate.Verdict.RUN, "safe"),
]
_CONFIRMATION = {
    "none": gate.Confirmation.NONE,
    "confirmed": gate.Confirmation.CONFIRMED,
    "declined": gate.Confirmation.DECLINED,
}


def expected(case: Case) -> gate.Decision:
    return gate.decide(gate.check(case.command, "bash", RULES), _CONFIRMATION[case.how])


def test_the_table_matches_the_gate() -> None:
    for case in CASES:
        decision = expected(case)
        assert (decision.verdict, decision.level.label) == (case.verdict, case.level), case


def _write_docs(folder: Path) -> dict[str, Path]:
    docs = {}
    for case in CASES:
        path = folder / f"{case.name}.md"
        path.write_text(f"# {case.name}\n\n```bash\n{case.command}\n```\n", encoding="utf-8")
        docs[case.name] = path
    (folder / "gate-victim").write_text("keep me")
    return docs


def _evidence_ok(folder: Path) -> None:
    assert not (folder / "gate-forbidden").exists(), "a blocked command ran"


# -- the server ---------------------------------------------------------------------------


@pytest_lsp.fixture(params=["asks", "cannot-ask"], config=ClientServerConfig(server_command=SERVER))
async def client(request: Any, lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    lsp_client.kind = request.param  # type: ignore[attr-defined]
    lsp_client.prompts = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def _ask(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        lsp_client.prompts.append(params.message)  # type: ignore[attr-defined]
        return types.MessageActionItem(title="Cancel")

    ignore(lsp_client, "aintern/blockStatus", "aintern/terminalOutput", "aintern/terminalExit")
    window = (
        types.WindowClientCapabilities(show_message=types.ShowMessageRequestClientCapabilities())
        if request.param == "asks"
        else None
    )
    await initialize(lsp_client, tmp_path, types.ClientCapabilities(window=window), **SETTINGS)
    lsp_client.docs = _write_docs(tmp_path)  # type: ignore[attr-defined]
    for path in lsp_client.docs.values():  # type: ignore[attr-defined]
        open_markdown(lsp_client, path)
    yield
    await lsp_client.shutdown_session()


async def _cmd(client: LanguageClient, command: str, args: dict[str, Any]) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[args])
    )


async def _lens_args(client: LanguageClient, uri: str) -> dict[str, Any]:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert lenses and lenses[0].command and lenses[0].command.arguments
    args: dict[str, Any] = lenses[0].command.arguments[0]
    return args


async def _outcome(
    client: LanguageClient, entry: str, case: Case, terminal: str
) -> tuple[bool, str]:
    """(ran, text shown) of `case` through `entry`."""
    uri = client.docs[case.name].as_uri()  # type: ignore[attr-defined]
    lens = await _lens_args(client, uri)
    assert lens["level"] == case.level
    assert lens["needsConfirmation"] is (case.level in ("dangerous", "critical"))
    confirmed = case.how == "confirmed"
    try:
        if entry == "run":
            result = await _cmd(
                client,
                "aintern.run",
                {"uri": uri, "blockId": lens["blockId"], "confirmed": confirmed},
            )
            return result["exitCode"] is not None and not result["cancelled"], result["output"]
        if entry == "runAll":
            (row,) = await _cmd(client, "aintern.runAll", {"uri": uri, "confirmed": confirmed})
            return row["exitCode"] is not None and not row["cancelled"], row["output"]
        if entry == "sendToTerminal":
            args = {"uri": uri, "blockId": lens["blockId"], "terminalId": terminal}
            sent = await _cmd(client, "aintern.sendToTerminal", {**args, "confirmed": confirmed})
            return sent["terminalId"] == terminal, sent.get("message", "")
        sent = await _cmd(
            client,
            "aintern.terminal.send",
            {"terminalId": terminal, "text": case.command, "confirmed": confirmed},
        )
        return bool(sent["success"]), ""
    except Exception as exc:  # a JSON-RPC error: refused
        return False, str(exc)


@pytest.mark.parametrize("entry", ["run", "runAll", "sendToTerminal", "terminal.send"])
async def test_server_entry_points_follow_the_gate(
    client: LanguageClient, entry: str, tmp_path: Path
) -> None:
    kind = client.kind  # type: ignore[attr-defined]
    terminal = (await _cmd(client, "aintern.terminal.create", {"cwd": str(tmp_path)}))["terminalId"]
    for case in CASES:
        if case.how == "declined" and kind == "cannot-ask":
            continue  # nobody can be asked: "declined" cannot happen
        if case.how == "none" and kind == "asks" and case.level in ("dangerous", "critical"):
            continue  # a person is asked instead: that is the "declined" row
        prompts_before = len(client.prompts)  # type: ignore[attr-defined]
        ran, text = await _outcome(client, entry, case, terminal)
        decision = expected(case)
        assert ran is (decision.verdict is gate.Verdict.RUN), (entry, case, text)
        if decision.verdict is gate.Verdict.REFUSE:
            assert decision.reason in text, (entry, case, text)
        asked = len(client.prompts) - prompts_before  # type: ignore[attr-defined]
        assert asked == (1 if case.how == "declined" else 0), (entry, case)
        victim = tmp_path / "gate-victim"
        if case.name.startswith("dangerous") and not ran:
            assert victim.exists(), (entry, case)
        if case.name.startswith("dangerous") and ran:
            for _ in range(200):  # a terminal runs it asynchronously: wait until it has
                if not victim.exists():
                    break
                await asyncio.sleep(0.05)
            assert not victim.exists(), (entry, case)
        victim.write_text("keep me")
    await asyncio.sleep(0.5)  # anything wrongly typed into the terminal has run by now
    _evidence_ok(tmp_path)


# -- the CLI ------------------------------------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_cli_run_follows_the_gate(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _write_docs(tmp_path)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"aintern": SETTINGS}))
    argv = ["run", str(docs[case.name]), "--block", "1", "--settings", str(settings), "--json"]
    if case.how == "confirmed":
        argv.append("--yes")
    monkeypatch.setattr(sys, "stdin", _Tty("n\n") if case.how == "declined" else io.StringIO(""))
    status = main(argv)
    captured = capsys.readouterr()
    decision = expected(case)
    if decision.verdict is gate.Verdict.RUN:
        assert status == 0, captured.err
        assert json.loads(captured.out)["exitCode"] == 0
    else:
        assert status == 2 and captured.out == ""
        assert decision.reason in captured.err
        if case.how == "declined":
            assert "Run anyway?" in captured.err
    if case.name.startswith("dangerous"):
        assert (tmp_path / "gate-victim").exists() is (decision.verdict is not gate.Verdict.RUN)
    _evidence_ok(tmp_path)
