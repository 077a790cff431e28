"""CLI subcommand `aintern-ls mcp`: serve the MCP tools over stdio."""

from __future__ import annotations

import argparse

from aintern_ls.mcp.settings import WORKSPACE_FILE, load_mcp_settings, user_settings_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `mcp` subcommand to the CLI."""
    p = sub.add_parser(
        "mcp",
        help="serve the MCP tools (run, check, terminals, captures) over stdio",
        description="Model Context Protocol server over stdin/stdout for AI assistants. "
        f"Settings: {user_settings_path()} and {WORKSPACE_FILE} in the workspace.",
    )
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help="workspace root: default directory, path bound and .aintern.json "
        "(default: the current directory; client roots win when the client sends them)",
    )
    p.add_argument("--settings", metavar="FILE", help="user settings file to read instead")
    p.set_defaults(func=_cmd_mcp)


def _cmd_mcp(args: argparse.Namespace) -> int:
    import os

    from aintern_ls.mcp.server import serve

    workspace = os.path.abspath(args.workspace or os.getcwd())
    serve(load_mcp_settings(workspace, args.settings), workspace)
    return 0
