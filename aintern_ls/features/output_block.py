"""Code actions "Insert output below" / "Update output": the last run's clean output
as a fenced `output` block after the command's fence (see `runbook/results.py`).
Offered only for blocks that have run in this session; nothing is written without
the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from aintern_ls.errors import AInternError
from aintern_ls.runbook.results import output_edit

if TYPE_CHECKING:
    from aintern_ls.server import AInternServer

KIND = types.CodeActionKind.RefactorRewrite


def register(server: AInternServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[KIND]),
    )
    async def on_code_action(
        ls: AInternServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return []
        first, last = params.range.start.line, params.range.end.line
        actions: list[types.CodeAction] = []
        for block in doc.blocks_on_lines(first, last):
            if block.end_line < first or block.start_line > last:
                continue
            result = doc.last_results.get(block.id)
            if result is None or result.cancelled:
                continue
            # (a huge document's `Rope` is read whole here: only for a run's result)
            edit = output_edit(str(doc.text), block, result.output)
            if edit is None:
                continue
            sl, sc = doc.index.position(edit.start, ls.encoding)
            el, ec = doc.index.position(edit.end, ls.encoding)
            rng = types.Range(
                start=types.Position(line=sl, character=sc),
                end=types.Position(line=el, character=ec),
            )
            actions.append(
                types.CodeAction(
                    title=edit.title,
                    kind=KIND,
                    edit=types.WorkspaceEdit(
                        changes={doc.uri: [types.TextEdit(range=rng, new_text=edit.text)]}
                    ),
                )
            )
        return actions
