"""Command line: `aintern-ls serve|blocks|assess|check|run|mcp`.

Each subcommand lives next to the service it drives (`<package>/cli.py` exposes
`register(subparsers)`); this module only builds the parser, sets up logging and
turns `AInternError` into a one-line message instead of a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from aintern_ls import __version__
from aintern_ls.errors import AInternError

log = logging.getLogger("aintern_ls")


def _setup_logging(verbosity: int, log_file: str | None) -> None:
    level = logging.WARNING - 10 * min(verbosity, 2)
    handler: logging.Handler
    handler = (
        logging.FileHandler(log_file, encoding="utf-8")
        if log_file
        else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # pygls logs every message at INFO; keep it quiet unless asked twice.
    logging.getLogger("pygls").setLevel(logging.DEBUG if verbosity >= 3 else logging.WARNING)


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the language server (default: --stdio)")
    _add_transport_flags(p)
    p.set_defaults(func=_cmd_serve)


def _add_transport_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (default)")
    g.add_argument("--tcp", metavar="HOST:PORT", help="listen for one LSP client on HOST:PORT")


def _cmd_serve(args: argparse.Namespace) -> int:
    from aintern_ls.app import serve

    tcp: tuple[str, int] | None = None
    if args.tcp:
        host, sep, port = str(args.tcp).rpartition(":")
        if not sep or not port.isdigit():
            raise AInternError(
                f"--tcp expects HOST:PORT (for example 127.0.0.1:2087), got {args.tcp!r}"
            )
        tcp = (host or "127.0.0.1", int(port))
    serve(tcp=tcp)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from aintern_ls.extraction import cli as extraction_cli
    from aintern_ls.mcp import cli as mcp_cli
    from aintern_ls.safety import cli as safety_cli
    from aintern_ls.terminal import cli as terminal_cli

    parser = argparse.ArgumentParser(
        prog="aintern-ls",
        description="Run shell command fences from Markdown runbooks and AI chats, safely.",
    )
    parser.add_argument("--version", action="version", version=f"aintern-ls {__version__}")
    parser.add_argument("--log-file", help="write logs to this file instead of stderr")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more logging (-vv debug)"
    )
    _add_transport_flags(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_serve(sub)
    extraction_cli.register(sub)
    safety_cli.register(sub)
    terminal_cli.register(sub)
    mcp_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose, args.log_file)
    func = getattr(args, "func", None)
    if func is None:
        if args.stdio or args.tcp:
            func = _cmd_serve
        else:
            parser.print_help(sys.stderr)
            return 2
    try:
        return int(func(args))
    except AInternError as exc:
        print(f"aintern-ls: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
