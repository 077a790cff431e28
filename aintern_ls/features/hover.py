"""Hover on a command fence: its risk level, every finding, who suggested it, its state."""

from __future__ import annotations

from lsprotocol import types

from aintern_ls.errors import AInternError
from aintern_ls.features.code_lens import status_title
from aintern_ls.features.diagnostics import output_drift
from aintern_ls.safety import catalogue
from aintern_ls.server import AInternServer


def register(server: AInternServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: AInternServer, params: types.HoverParams) -> types.Hover | None:
        try:
            doc = await ls.current(params.text_document.uri)
        except AInternError:
            return None
        line = params.position.line
        for block in doc.blocks_on_lines(line, line):
            if block.start_line <= line <= block.end_line:
                a = ls.documents.assess(block)
                parts = [f"**{a.level.label}** · `{block.shell_type or block.language}`"]
                if block.role:
                    parts.append(f"suggested by {block.role}")
                for f in a.findings:
                    about = catalogue.summary(f.rule)
                    rule = f"`{f.rule}` ({about})" if about else f"`{f.rule}`"
                    parts.append(f"- {f.level.label} {rule}: {f.reason}")
                title = status_title(block, doc.last_results.get(block.id))
                if title:
                    parts.append(title)
                drift = output_drift(doc, block)
                if drift:
                    parts.append(f"Output differs from the fence:\n\n```diff\n{drift}\n```")
                return types.Hover(
                    contents=types.MarkupContent(
                        kind=types.MarkupKind.Markdown, value="\n\n".join(parts)
                    )
                )
        return None
