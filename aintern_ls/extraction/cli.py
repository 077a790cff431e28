"""CLI subcommand `blocks` (filled in by extraction)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the extraction subcommands to the CLI."""
