"""Terminal-session commands: send a block to a terminal and the `aintern.terminal.*` family.

Output and exit of every session reach the client as `aintern/terminalOutput` and
`aintern/terminalExit` notifications, so an editor can show the session as a real
terminal; keystrokes come back through `aintern.terminal.input`.

`aintern.sendToTerminal` and `aintern.terminal.send` pass the gate like `aintern.run`
(blocked never; dangerous and critical only after a yes, or typed without Enter with
`"execute": false`). `aintern.terminal.input` is the one deliberate exception: it
carries raw keystrokes typed by the person at the terminal, who is the confirmation.
"""

from __future__ import annotations

import weakref
from typing import Any

import attrs

from aintern_ls.errors import AInternError, RefusedError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.runs import check_session_shell, plan_run, validate_text
from aintern_ls.safety import gate
from aintern_ls.server import AInternServer


@attrs.define
class SendBlockArgs:
    uri: str
    block_id: str
    terminal_id: str | None = None
    execute: bool = True
    confirmed: bool = False
    # the size of the editor window a new terminal will show in (its first command
    # then already sees the right `stty size`)
    cols: int | None = None
    rows: int | None = None


@attrs.define
class CreateArgs:
    title: str | None = None
    cwd: str | None = None
    shell: str | None = None


@attrs.define
class TerminalArgs:
    terminal_id: str


@attrs.define
class SendArgs:
    terminal_id: str
    text: str
    execute: bool = True
    confirmed: bool = False


@attrs.define
class ReadArgs:
    terminal_id: str
    lines: int = 100


@attrs.define
class InputArgs:
    terminal_id: str
    data: str


@attrs.define
class ResizeArgs:
    terminal_id: str
    cols: int
    rows: int


async def pass_gate(
    ls: AInternServer,
    command: str,
    shell: str,
    *,
    confirmed: bool,
    execute: bool,
    summary: str,
    env: dict[str, str] | None = None,
) -> str | None:
    """Raise `RefusedError` unless `command` may be typed into a terminal; return
    the reason when the person was asked and declined (None: send it).

    With `execute` false the text is typed without Enter, so the person at the prompt
    decides (dangerous may be typed, blocked never); otherwise the gate's verdict stands,
    asking the person when the client can show a confirmation.
    """
    assessment = gate.check(command, shell, ls.documents.rules, env)
    if confirmed:
        confirmation = gate.Confirmation.CONFIRMED
    elif not execute:
        confirmation = gate.Confirmation.AT_PROMPT
    else:
        confirmation = ls.confirmation
    decision = gate.decide(assessment, confirmation)
    record = {
        "command": command,
        "level": decision.level.label,
        "rules": list(decision.rules),
        "document_uri": None,
        "block_id": None,
    }
    if decision.verdict is gate.Verdict.ASK:
        ls.record("decision", decision="asked", **record)
        yes = await ls.confirm(f"{decision.prompt}\n\n{summary}\nsent to a terminal")
        ls.record("decision", decision="confirmed" if yes else "declined", **record)
        decision = gate.decide(
            assessment, gate.Confirmation.CONFIRMED if yes else gate.Confirmation.DECLINED
        )
        if not yes:
            return decision.reason
    if decision.verdict is gate.Verdict.REFUSE:
        if decision.blocked:
            ls.record("decision", decision="blocked", **record)
        raise RefusedError(
            decision.reason + gate.hint_for(decision, gate.LSP_CONFIRM_HINT), decision.rules
        )
    return None


_by_document: weakref.WeakKeyDictionary[AInternServer, dict[str, str]] = weakref.WeakKeyDictionary()


def _document_terminals(ls: AInternServer) -> dict[str, str]:
    """The terminal each document's Sends go to, by document URI."""
    return _by_document.setdefault(ls, {})


def _one(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """`aintern.terminal.list` takes `{}` or nothing at all."""
    return args or ({},)


def register(server: AInternServer) -> None:
    @server.command("aintern.sendToTerminal")
    @user_errors
    async def send_to_terminal(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(SendBlockArgs, args)
        doc = await ls.current(a.uri)
        block = doc.block(a.block_id)
        plan = plan_run(block, document_dir=ls.run_directory(doc), settings=ls.settings)
        declined = await pass_gate(
            ls,
            block.command,
            plan.assess_shell,
            confirmed=a.confirmed,
            execute=a.execute,
            summary=block.display_summary(),
        )
        if declined is not None:
            return {"terminalId": None, "declined": True, "message": declined}
        # the person may have been asked: send the block as it is now, if unchanged
        doc = await ls.current(a.uri)
        shown = block.command
        block = doc.block(a.block_id)
        if block.command != shown:
            raise RefusedError("the block changed while you were asked; send it again")
        session = None
        if a.terminal_id is not None:
            session = ls.terminals.get(a.terminal_id)
        else:
            # one terminal per document: later Sends go to the shell the first one opened
            reused = _document_terminals(ls).get(doc.uri)
            if reused is not None:
                try:
                    session = ls.terminals.get(reused)
                except AInternError:
                    session = None
                if session is not None and not session.alive:
                    session = None
        if session is None:
            sized = a.cols is not None and a.rows is not None
            session = await ls.terminals.create(
                title=f"aintern: {block.display_summary()[:30]}",
                cwd=plan.request.cwd,
                cols=max(a.cols or 0, 2) if sized else 120,
                rows=max(a.rows or 0, 1) if sized else 30,
            )
        _document_terminals(ls)[doc.uri] = session.terminal_id
        session.send(block.command, execute=a.execute)
        if block.status.is_terminal:
            block.reset()
        if block.status.can_become(block.status.SENT_TO_TERMINAL):
            block.mark_sent_to_terminal(session.terminal_id)
        ls.block_changed(doc.uri, block)
        return {"terminalId": session.terminal_id}

    @server.command("aintern.terminal.create")
    @user_errors
    async def create(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(CreateArgs, _one(args))
        check_session_shell(a.shell)
        validate_text("the working directory", a.cwd)
        validate_text("the title", a.title)
        session = await ls.terminals.create(title=a.title, cwd=a.cwd, shell=a.shell)
        return {"terminalId": session.terminal_id}

    @server.command("aintern.terminal.send")
    @user_errors
    async def send(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(SendArgs, args)
        validate_text("the text", a.text)
        session = ls.terminals.get(a.terminal_id)
        summary = a.text if len(a.text) <= 60 else a.text[:57] + "..."
        declined = await pass_gate(
            ls, a.text, session.shell, confirmed=a.confirmed, execute=a.execute, summary=summary
        )
        if declined is not None:
            raise RefusedError(declined)
        return {"success": ls.terminals.send(a.terminal_id, a.text, execute=a.execute)}

    @server.command("aintern.terminal.read")
    @user_errors
    async def read(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(ReadArgs, args)
        return {"output": ls.terminals.read_output(a.terminal_id, max(1, a.lines))}

    @server.command("aintern.terminal.list")
    @user_errors
    async def list_terminals(ls: AInternServer, *args: Any) -> Any:
        return {"terminals": ls.terminals.list()}

    @server.command("aintern.terminal.close")
    @user_errors
    async def close(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(TerminalArgs, args)
        return {"success": await ls.terminals.close(a.terminal_id)}

    # Raw keystrokes from the person at the terminal: deliberately NOT gated (the person
    # typing is the confirmation). Everything a program or a document sends goes
    # through `aintern.terminal.send` / `aintern.sendToTerminal` and the gate.
    @server.command("aintern.terminal.input")
    @user_errors
    async def input_(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(InputArgs, args)
        ls.terminals.input(a.terminal_id, a.data)
        return None

    @server.command("aintern.terminal.resize")
    @user_errors
    async def resize(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(ResizeArgs, args)
        ls.terminals.resize(a.terminal_id, a.cols, a.rows)
        return None

    @server.command("aintern.terminal.interrupt")
    @user_errors
    async def interrupt(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(TerminalArgs, args)
        ls.terminals.interrupt(a.terminal_id)
        return None
