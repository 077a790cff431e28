"""CLI subcommands `assess` and `check` (filled in by the safety analyser)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the safety subcommands to the CLI."""
