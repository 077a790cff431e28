"""Terminal-session commands: send a block to a terminal and the `aintern.terminal.*` family.

Output and exit of every session reach the client as `aintern/terminalOutput` and
`aintern/terminalExit` notifications, so an editor can show the session as a real
terminal; keystrokes come back through `aintern.terminal.input`.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.features.commands import confirm, default_cwd
from aintern_ls.safety import RiskLevel

if TYPE_CHECKING:
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
        assessment = ls.documents.assess(block)
        if assessment.level is RiskLevel.BLOCKED:
            rules = ", ".join(f.rule for f in assessment.findings if f.level is RiskLevel.BLOCKED)
            raise AInternError(f"blocked, this command is never sent to a terminal ({rules})")
        if a.execute and assessment.level >= RiskLevel.DANGEROUS and not a.confirmed:
            # asks like Run does; an editor that cannot ask gets told to pass `confirmed`
            worst = [f for f in assessment.findings if f.level is assessment.level]
            reasons = "; ".join(f"{f.rule}: {f.reason}" for f in worst) or assessment.level.label
            if not await confirm(ls, block, assessment.level, reasons):
                return {"terminalId": None, "declined": True}
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
                cwd=default_cwd(ls, block.options.get("cwd") or block.working_directory, doc),
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
        session = await ls.terminals.create(title=a.title, cwd=a.cwd, shell=a.shell)
        return {"terminalId": session.terminal_id}

    @server.command("aintern.terminal.send")
    @user_errors
    async def send(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(SendArgs, args)
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
