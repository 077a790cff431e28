"""Runs waiting for input: `aintern/waitingForInput` and `aintern.run.input`.

A fence such as `read -p "name? " n` or an installer's `[y/N]` blocks its run until
someone answers. The runner notices (`aintern_ls.terminal.waiting`: the terminal's
foreground job blocked reading the terminal, after 0.3 s without output) and the server
tells the client:

    aintern/waitingForInput {uri, blockId, waiting: true, prompt, secret}
    aintern/waitingForInput {uri, blockId, waiting: false}

(then refreshes code lenses when the client can). The block's lens reads
`⌨ waiting for input ■ Stop`, next to `✎ Answer` whose command is `aintern.run.input`
with `{blockId, level, needsConfirmation, prompt, secret}`: editors ask the user
(Neovim `vim.ui.input`, VS Code an input box, masked when `secret`) and send

    aintern.run.input {uri, blockId, text, newline?}   ->  {sent: true}

Answers are typed into the run's terminal and kept nowhere: not in the history, not
in a log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.features.arguments import parse_args, user_errors
from aintern_ls.terminal.waiting import InputWait

if TYPE_CHECKING:
    from aintern_ls.server import AInternServer

NOTIFICATION = "aintern/waitingForInput"


@attrs.define
class RunInputArgs:
    uri: str
    block_id: str
    text: str | None = None
    newline: bool = True  # press Enter after the text


def waiting_changed(ls: AInternServer, uri: str, block_id: str, state: InputWait | None) -> None:
    """Tell the client a block's run started or stopped waiting for input."""
    params: dict[str, Any] = {"uri": uri, "blockId": block_id, "waiting": state is not None}
    if state is not None:
        params.update(state.to_json())
    ls.protocol.notify(NOTIFICATION, params)
    if ls.client_refreshes_lenses:
        ls.workspace_code_lens_refresh(None)


def register(server: AInternServer) -> None:
    @server.command("aintern.run.input")
    @user_errors
    async def run_input(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(RunInputArgs, args)
        if a.text is None:
            raise AInternError(
                "aintern.run.input needs `text`, the answer to type into the running "
                "command (the ✎ Answer lens leaves it to the editor to ask for it); "
                'pass {"uri", "blockId", "text"}'
            )
        block = (await ls.current(a.uri)).block(a.block_id)
        # a terminal's Enter is a carriage return; the line discipline turns it into \n
        if not ls.runner.write(block.id, a.text + ("\r" if a.newline else "")):
            raise AInternError("this block is not running: ▶ Run it first, then answer its prompt")
        return {"sent": True}
