"""The ``puzzle``, ``daily`` and ``worksheet`` commands (registered by :mod:`commands`).

Bad arguments raise :class:`~puzzles.model.PuzzleError` (a ``ValueError``):
``escoba`` prints it as one line ``error: ...`` and exits with 2.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from datetime import date
from pathlib import Path
from typing import Any

from escoba.cards import format_cards
from escoba.cli import CliError, emit

from .daily import daily_set
from .kinds import generate
from .model import KINDS, ONE_CARD_KINDS, Puzzle

__all__ = ["register", "describe"]


def _level(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"level must be 1-5, got {text!r}") from None


def describe(puzzle: Puzzle) -> str:
    """A puzzle and its solutions as plain text (the CLI's human output)."""
    scopa = puzzle.kind == "scopa"
    # A Scopa set makes the played card's value: no capture sum to show.
    rule = "Scopa's rule" if scopa else f"sum {puzzle.capture_sum}"
    lines = [f"{puzzle.id}  ({puzzle.kind}, level {puzzle.level}, {rule}, "
             f"difficulty {puzzle.stats.difficulty})"]
    if puzzle.kind == "quick-facts":
        lines.append(f"  {' + '.join(map(str, puzzle.addends))} + ? = {puzzle.capture_sum}"
                     f"   (cards {' '.join(map(str, puzzle.table))})")
        lines.append(f"  answer: {puzzle.solutions[0].value}")
        return "\n".join(lines)
    lines.append(f"  table: {' '.join(map(str, puzzle.table))}")
    if puzzle.hand:
        lines.append(f"  {'play' if puzzle.kind in ONE_CARD_KINDS else 'hand'}: "
                     f"{' '.join(map(str, puzzle.hand))}")
    if not puzzle.solutions:
        lines.append("  solutions: none")
    for sol in puzzle.solutions:
        values, _need = puzzle.terms(sol.card, sol.take)  # Scopa: 3 + 4 = 7, or 7 = 7
        taken = format_cards(sol.take)
        if sol.card is None:
            lines.append(f"  {taken}   ({' + '.join(map(str, values))} = {sum(values)})")
        elif sol.take:
            lines.append(f"  {sol.card} takes {taken}   "
                         f"({' + '.join(map(str, values))} = {sum(values)})")
        else:
            lines.append(f"  {sol.card} down")
    return "\n".join(lines)


def _cmd_puzzle(args: argparse.Namespace) -> int:
    puzzle = generate(args.kind, args.level, args.seed, args.capture_sum)
    return emit(args, puzzle.to_dict(), describe(puzzle))


def _cmd_daily(args: argparse.Namespace) -> int:
    day = args.date if args.date is not None else date.today()
    daily = daily_set(day, args.capture_sum)
    human = [f"Escoba daily #{daily.number}  ({daily.date.isoformat()}, sum {daily.capture_sum})"]
    human += [describe(p) for p in daily.puzzles]
    return emit(args, daily.to_dict(), "\n".join(human))


def _cmd_worksheet(args: argparse.Namespace) -> int:
    from .worksheet import page_counts, worksheet_code, worksheet_pdf

    code = worksheet_code(args.kind, args.level, args.seed, args.capture_sum)
    data = worksheet_pdf(args.kind, args.level, args.count, args.seed, args.capture_sum,
                         args.paper, lang=args.lang)
    if args.output is not None and not args.output.strip():
        raise CliError("-o/--output: give a file name, or - for standard output (got '')")
    to_stdout = args.output == "-"
    out = Path(args.output or f"worksheet-{code}.pdf")
    try:
        if to_stdout:  # "-o -": the PDF itself down the pipe, as replay reads "-"
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            out.write_bytes(data)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    sheet_pages, key_pages = page_counts(args.kind, args.count)
    info: dict[str, Any] = {"file": "-" if to_stdout else str(out), "code": code,
                            "kind": args.kind,
                            "level": args.level, "capture_sum": args.capture_sum,
                            "count": args.count, "paper": args.paper,
                            "sheet_pages": sheet_pages, "key_pages": key_pages,
                            "bytes": len(data)}
    human = (f"wrote {'the PDF to standard output' if to_stdout else out}: {args.count} "
             f"{args.kind} puzzles, level {args.level}, code {code} ({sheet_pages} sheet + "
             f"{key_pages} answer-key pages, {args.paper})")
    if to_stdout:  # standard output holds the PDF: what was written is told on stderr
        with contextlib.redirect_stdout(sys.stderr):
            return emit(args, info, human)
    return emit(args, info, human)


def _common(p: argparse.ArgumentParser, *, kind: bool = True) -> None:
    if kind:
        p.add_argument("--kind", required=True, metavar="KIND",
                       help=f"one of {', '.join(KINDS)} (scopa: every capture of one card "
                            "by Scopa's rule, a card of equal value first, else table cards "
                            "making its value; --capture-sum does not change it)")
        p.add_argument("--level", type=_level, required=True, metavar="1-5",
                       help="1 (a first day) to 5 (hard for an adult)")
        p.add_argument("--seed", default="0", help="any number or word: same seed, same puzzle")
    p.add_argument("--capture-sum", type=int, choices=(10, 15, 20), default=15,
                   help="the sum to make (default 15)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``puzzle``, ``daily`` and ``worksheet`` to the ``escoba`` command."""
    p = sub.add_parser("puzzle", help="one graded puzzle, with its solutions",
                       description="Generate a puzzle from (kind, level, seed) and solve it.")
    _common(p)
    p.set_defaults(handler=_cmd_puzzle)

    p = sub.add_parser("daily", help="the five puzzles of a day's daily puzzle",
                       description="The daily puzzle: the same five puzzles for everyone "
                                   "on a date (#1 is 2026-12-01).")
    p.add_argument("--date", default=None, metavar="YYYY-MM-DD", help="default: today")
    _common(p, kind=False)
    p.set_defaults(handler=_cmd_daily)

    p = sub.add_parser("worksheet", help="a printable PDF worksheet with its answer key",
                       description="Write a PDF of puzzles drawn as cards, with the answer "
                                   "key on separate pages and the seed code on every page.")
    _common(p)
    p.add_argument("--count", type=int, default=20, help="number of puzzles (default 20)")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("--lang", default="en", metavar="LANG",
                   help="language of the sheet and its key: en, es, de, it or zh (default en)")
    p.add_argument("-o", "--output", metavar="FILE.pdf",
                   help="where to write it (default worksheet-CODE.pdf; - writes the PDF "
                        "to standard output, the summary to standard error)")
    p.set_defaults(handler=_cmd_worksheet)
