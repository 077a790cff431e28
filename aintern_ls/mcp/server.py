"""`aintern-ls mcp`: the agent surface as an MCP server over stdio, on the official SDK.

The SDK's low-level `Server` carries the protocol; this module lists the tools of
`schemas`, checks each call's arguments, hands the call to `tools.Agent` with a `Peer`
made of the request's context (elicitation, progress, roots), and turns the outcome
into a `CallToolResult` with `structuredContent` and a text rendering. A user mistake
(bad arguments, unknown id, a path outside the workspace, a refused command) is a tool
result with `isError: true` and a message that says what to do; the server keeps
serving.

The server speaks the initialize-handshake protocol (2025-11-25 and the earlier
revisions the SDK negotiates). It does not serve the SDK's 2026-07-28 per-request era,
which forbids server-to-client requests and so could not ask a person to confirm.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.runner import serve_loop
from mcp.server.stdio import stdio_server

from aintern_ls import __version__
from aintern_ls.errors import AInternError
from aintern_ls.mcp.schemas import BY_NAME, TOOLS, check_arguments
from aintern_ls.mcp.settings import McpSettings
from aintern_ls.mcp.tools import Agent, Answer, ToolOutput
from aintern_ls.terminal import process_tree

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
aintern runs shell commands safely for you: in real pseudo-terminals, with clean output
(ANSI rendered, secrets redacted, long output cut in the middle; read_capture pages the
rest). check_command tells you a command's risk before you run it. Blocked commands never
run; dangerous and critical ones run only after the person confirms (you cannot confirm
for them). Use list_blocks and run_command with path+blockId for Markdown runbooks, and
the terminal_* tools for long-lived shells."""

CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "run": {
            "type": "boolean",
            "title": "Run this command",
            "description": "Tick to run it; leave unticked or decline to refuse.",
        }
    },
    "required": ["run"],
}


class RequestPeer:
    """The `tools.Peer` of one tool call: its client, through the request's context."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self.ctx = ctx

    @property
    def _caps(self) -> types.ClientCapabilities:
        return self.ctx.session.client_capabilities or types.ClientCapabilities()

    async def roots(self) -> list[str] | None:
        if self._caps.roots is None:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = await self.ctx.session.list_roots()
        paths = []
        for root in result.roots:
            parsed = urlparse(str(root.uri))
            if parsed.scheme == "file":
                paths.append(unquote(parsed.path))
        return paths or None

    async def confirm(self, message: str) -> Answer:
        if self._caps.elicitation is None:
            return "unsupported"
        try:
            result = await self.ctx.session.elicit_form(
                message=message,
                requested_schema=CONFIRM_SCHEMA,
                related_request_id=self.ctx.request_id,
            )
        except Exception as exc:  # the client failed to ask: nobody said yes
            log.warning("elicitation failed: %s", exc)
            return "cancel"
        if result.action == "accept":
            content = result.content or {}
            return "accept" if content.get("run") is True else "decline"
        return result.action

    async def progress(self, progress: float, total: float | None, message: str) -> None:
        await self.ctx.session.report_progress(progress, total, message)


def _tool(spec: Any) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_schema,
        annotations=types.ToolAnnotations(
            title=spec.title,
            read_only_hint=spec.read_only,
            destructive_hint=spec.destructive,
            idempotent_hint=spec.idempotent,
            open_world_hint=spec.open_world,
        ),
    )


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)],
        structured_content={"error": message},
        is_error=True,
    )


def build_server(agent: Agent) -> Server[Any]:
    handlers = {
        "check_command": agent.check_command,
        "list_blocks": agent.list_blocks,
        "run_command": agent.run_command,
        "read_capture": agent.read_capture,
        "terminal_create": agent.terminal_create,
        "terminal_send": agent.terminal_send,
        "terminal_read": agent.terminal_read,
        "terminal_last_command": agent.terminal_last_command,
        "terminal_list": agent.terminal_list,
        "terminal_close": agent.terminal_close,
        "history": agent.history_tool,
    }
    tools = [_tool(spec) for spec in TOOLS]

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = BY_NAME.get(params.name)
        if spec is None:
            return _error(f"unknown tool {params.name!r}; tools/list shows the tools")
        try:
            args = check_arguments(spec, params.arguments)
            output: ToolOutput = await handlers[spec.name](args, RequestPeer(ctx))
        except AInternError as exc:
            return _error(str(exc))
        except Exception as exc:  # a bug must not take the server down
            log.exception("tool %s failed", spec.name)
            return _error(f"{spec.name} failed: {type(exc).__name__}: {exc}")
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=output.text)],
            structured_content=output.structured,
        )

    return Server(
        "aintern-ls",
        version=__version__,
        title="aintern: a safe terminal",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def _serve(agent: Agent) -> None:
    server = build_server(agent)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await serve_loop(
                server,
                read_stream,
                write_stream,
                lifespan_state={},
                init_options=server.create_initialization_options(),
            )
    finally:
        with anyio.CancelScope(shield=True):
            await agent.close()


def serve(config: McpSettings, workspace: str | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes the stream."""
    root = str(Path(workspace or os.getcwd()).resolve())
    for problem in config.problems:
        log.warning("settings: %s", problem)
    agent = Agent(config, root)

    def on_signal(signum: int, frame: object) -> None:
        # atexit does not run when a signal kills the process: end every child first.
        agent.close_now()
        process_tree.kill_all_tracked()
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP) if hasattr(signal, "SIGHUP") else (signal.SIGTERM,):
        signal.signal(sig, on_signal)
    try:
        anyio.run(_serve, agent)
    except KeyboardInterrupt:
        pass
    finally:
        agent.close_now()
        process_tree.kill_all_tracked()
        sys.stderr.flush()
