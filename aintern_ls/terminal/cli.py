"""CLI subcommand `run` (filled in by the terminal engine)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the terminal subcommands to the CLI."""
