"""The ``escoba`` command: the one registry of every package's subcommands.

It sits above the packages it gathers, so that none of them imports another
to find its commands (the engine imports nothing of ours)::

    escoba captures --table 3o 5c 8e 10b --card 7o     # the engine (escoba.cli)
    escoba arena --bots expert greedy                  # escoba.cli_arena
    escoba puzzle --kind capture                       # puzzles.cli
    escoba teacher create "Ms Díaz"                    # trainer.teacher_cli
    escoba backup /var/backups/escoba/today.dump       # trainer.server_cli (and serve,
                                                       #   migrate, restore, db-status)

``python -m commands`` runs the same. A new package adds its
``register(subparsers)`` to :data:`REGISTRARS`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from escoba import cli, cli_arena
from puzzles import cli as puzzles_cli
from trainer import server_cli, teacher_cli

__all__ = ["REGISTRARS", "build_parser", "main"]

#: Every package's ``register(subparsers)``, in the order ``--help`` lists them.
REGISTRARS: tuple[cli.Registrar, ...] = (cli.register, cli_arena.register, puzzles_cli.register,
                                         teacher_cli.register, server_cli.register)


def build_parser() -> argparse.ArgumentParser:
    """The ``escoba`` parser with every command."""
    return cli.build_parser(REGISTRARS)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``escoba`` entry point: run one command; its exit code (2 on bad input)."""
    return cli.run(build_parser(), argv)
