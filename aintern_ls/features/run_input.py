"""`aintern.run.input`: type an answer into a one-shot run that waits on a prompt.

A fence such as `read -p "name? " n` or an installer's `[y/N]` blocks its run until
someone answers; editors ask the user (Neovim `vim.ui.input`, VS Code an input box)
and send the text here instead of waiting for the timeout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from aintern_ls.errors import AInternError
from aintern_ls.features.arguments import parse_args, user_errors

if TYPE_CHECKING:
    from aintern_ls.server import AInternServer


@attrs.define
class RunInputArgs:
    uri: str
    block_id: str
    text: str
    newline: bool = True  # press Enter after the text


def register(server: AInternServer) -> None:
    @server.command("aintern.run.input")
    @user_errors
    async def run_input(ls: AInternServer, *args: Any) -> Any:
        a = parse_args(RunInputArgs, args)
        block = (await ls.current(a.uri)).block(a.block_id)
        # a terminal's Enter is a carriage return; the line discipline turns it into \n
        if not ls.runner.write(block.id, a.text + ("\r" if a.newline else "")):
            raise AInternError("this block is not running: ▶ Run it first, then answer its prompt")
        return {"sent": True}
