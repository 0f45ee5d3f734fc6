"""The ``escoba`` command: a thin shell over the engine.

Human output by default, ``--json`` for machines. Exit 0 on success, 2 with
one line ``error: ...`` on bad input; never a traceback.

Commands live in small modules that each offer ``register(subparsers)``; a
command's handler takes the parsed arguments and returns an exit code. The
engine's commands are here (and ``arena`` in :mod:`escoba.cli_arena`), with
the shared machinery (:func:`build_parser`, :func:`run`, :class:`CliError`,
:func:`emit`); the one registry of every package's commands, and the
``escoba`` entry point, is :mod:`commands`, above the engine and the puzzles,
so that the engine imports nothing of ours.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .cards import Card, parse_cards
from .rules import (
    ALL_PRESETS,
    CAPTURE_RULES,
    CATEGORIES,
    INITIAL_FIFTEEN,
    MISCOUNT,
    PRESETS,
    SCOPA_PRESETS,
    Rules,
)
from .solver import captures
from .variants import captures as variant_captures

__all__ = ["run", "build_parser", "register", "CliError", "emit", "rules_from_args",
           "add_rules_args", "Registrar", "count_arg", "MAX_GAMES"]


class CliError(ValueError):
    """Bad input at the command line: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, not usage + error
        self.exit(2, f"error: {message} (see '{self.prog} --help')\n")


def emit(args: argparse.Namespace, data: Any, human: str) -> int:
    """Print ``data`` as JSON with ``--json``, else the ``human`` text; exit code 0."""
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(human)
    return 0


#: The most games ``simulate`` plays (and deals ``arena`` plays) in one command: a count
#: beyond it is a typo, and would run for days (issue 25: 10**23 ran until killed).
MAX_GAMES = 100_000


def _cards_arg(values: Sequence[str], what: str) -> list[Card]:
    if any(not value.strip() for value in values):  # '' is no card: not dropped silently
        raise CliError(f"{what}: an empty card ('') is not a card, e.g. 7o")
    try:
        return parse_cards(" ".join(values))
    except ValueError as exc:
        raise CliError(f"{what}: {exc}") from None


def count_arg(value: str, what: str, limit: int = MAX_GAMES) -> int:
    """A count given at the command line: a whole number 1..``limit``, else one line."""
    text = value.strip()
    if not text.isdigit() or len(text) > len(str(limit)) or not 1 <= int(text) <= limit:
        raise CliError(f"{what} must be a whole number from 1 to {limit:,}, got {value[:20]!r}"
                       + ("..." if len(value) > 20 else ""))
    return int(text)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """``--rules PRESET`` plus ``--teams``, ``--capture-sum`` and ``--set KEY=VALUE``."""
    options: dict[str, Any] = {}
    players = getattr(args, "players", None)
    if isinstance(players, list):
        options["players"] = len(players)
    if getattr(args, "teams", False):
        options["teams"] = True
    if getattr(args, "capture_sum", None) is not None:
        options["capture_sum"] = args.capture_sum
    for item in getattr(args, "set", None) or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise CliError(f"--set takes KEY=VALUE, got {item!r}")
        options[key.strip().replace("-", "_")] = _option_value(raw.strip())
    return Rules.preset(args.rules, **options)


def _option_value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(raw)
    except ValueError:
        return raw


def add_rules_args(p: argparse.ArgumentParser) -> None:
    """``--rules``, ``--teams``, ``--capture-sum`` and ``--set``: see :func:`rules_from_args`."""
    p.add_argument("--rules", default="classic", metavar="PRESET",
                   help=f"preset: {', '.join(ALL_PRESETS)} (default classic)")
    p.add_argument("--teams", action="store_true", help="4 players as teams: seats 0+2 vs 1+3")
    p.add_argument("--capture-sum", type=int, choices=(10, 15, 20), default=None,
                   help="the sum to capture (default 15)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="change one option, e.g. --set target=15 --set jokers=true "
                        "(see 'escoba rules')")


# -- commands -------------------------------------------------------------------


def _cmd_captures(args: argparse.Namespace) -> int:
    table = _cards_arg(args.table, "--table")
    if (args.card is None) == (args.hand is None):
        raise CliError("give either --card CARD or --hand CARD [CARD ...]")
    cs = args.capture_sum or 15
    played = (_cards_arg([args.card], "--card") if args.card is not None
              else _cards_arg(args.hand, "--hand"))
    if len(played) != 1 and args.card is not None:
        raise CliError(f"--card takes one card, got {len(played)}")
    clash = set(played) & set(table)
    if clash:
        raise CliError(f"{sorted(clash)[0]} is both played and on the table")

    rules = Rules.preset(args.rules)

    def one(card: Card) -> dict[str, Any]:
        # Escoba's sum is the option given here; another variant answers for itself.
        sets = (captures(table, card, cs) if rules.variant == "escoba"
                else variant_captures(rules, table, card))
        return {"card": str(card), "captures": [[str(c) for c in sorted(s)] for s in sets]}

    results = [one(c) for c in played]

    def text(r: dict[str, Any]) -> str:
        if not r["captures"]:
            return f"{r['card']}: no capture (it is laid on the table)"
        return f"{r['card']}: " + "; ".join(" + ".join(s) for s in r["captures"])

    human = "\n".join(text(r) for r in results)
    return emit(args, results[0] if args.card is not None else {"hand": results}, human)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .record import record_summary, replay

    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    result = replay(data)  # bytes: replay says plainly if they are not UTF-8 JSON
    return emit(args, result.to_json(), record_summary(result))


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .bots import make_player
    from .match import simulate
    from .record import game_to_record

    games = count_arg(args.games, "--games")
    rules = rules_from_args(args)
    players = [make_player(name) for name in args.players]
    if args.record_dir is not None and not args.record_dir.strip():
        raise CliError("--record-dir: give a folder to write the records in (got '')")
    record_dir = Path(args.record_dir) if args.record_dir is not None else None
    if record_dir is not None:
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"cannot create {record_dir}: {exc.strerror}") from None
    width = len(str(games))

    def save(index: int, game: Any) -> None:
        if record_dir is not None:
            record = game_to_record(game, [f"Computer ({p})" for p in args.players])
            path = record_dir / f"game-{index + 1:0{width}d}.json"
            path.write_text(json.dumps(record) + "\n", "utf-8")

    result = simulate(rules, players, games, seed=args.seed, on_game=save)
    data = result.to_json() | {"players": list(args.players), "rules": rules.to_dict()}
    human = (f"{result.games} games, {result.rounds} rounds in {result.elapsed:.2f} s "
             f"({result.rounds_per_second:.0f} rounds/s); wins per side: "
             + ", ".join(map(str, result.wins))
             + (f"; {result.unfinished} unfinished" if result.unfinished else ""))
    return emit(args, data, human)


def _cmd_rules(args: argparse.Namespace) -> int:
    presets = {name: Rules.preset(name).to_dict() | {"source": p.source,
                                                     "description": p.description}
               for name, p in PRESETS.items()}
    scopa_presets = {name: Rules.preset(name).to_dict() | {"source": p.source,
                                                           "description": p.description}
                     for name, p in SCOPA_PRESETS.items()}
    options = {
        "players": [2, 3, 4], "teams": [False, True], "target": "1-200 (21; 15 and 31 usual)",
        "hand_size": "1-9 (3; 7 for escoba de 7 cartas)", "capture_rule": list(CAPTURE_RULES),
        "initial_fifteen": list(INITIAL_FIFTEEN), "last_play_escoba": [True, False],
        "primera": [False, True], "jokers": [False, True], "miscount": list(MISCOUNT),
        "capture_sum": [10, 15, 20], "open_hand": [False, True],
        "variant": ["escoba", "scopa"], "napola": [False, True],
        "asso_piglia_tutto": [False, True], "asso_piglia_tutto_scopa": [False, True],
        "table_cards": [4, 0],
    }
    data = {"presets": presets, "scopa_presets": scopa_presets, "options": options,
            "categories": list(CATEGORIES)}
    lines = ["presets:"]
    for name, p in ALL_PRESETS.items():
        lines.append(f"  {name:8} ({p.source}): {p.description}")
    lines.append("options (change with --set KEY=VALUE):")
    for key, values in options.items():
        shown = values if isinstance(values, str) else " | ".join(map(str, values))
        lines.append(f"  {key:16} {shown}")
    return emit(args, data, "\n".join(lines))


Handler = Callable[[argparse.Namespace], int]


#: What a package offers the command registry: ``register(subparsers)``.
Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the engine's commands: ``captures``, ``replay``, ``simulate``, ``rules``."""
    p = sub.add_parser("captures", help="every capture of a card (or a hand) on a table",
                       description="List every set of table cards that a card captures.")
    p.add_argument("--table", nargs="*", required=True, metavar="CARD",
                   help="table cards, e.g. 3o 5c 8e 10b")
    p.add_argument("--card", metavar="CARD", help="the card played, e.g. 7o")
    p.add_argument("--hand", nargs="+", metavar="CARD", help="every card of a hand")
    p.add_argument("--capture-sum", type=int, choices=(10, 15, 20), default=None)
    p.add_argument("--rules", default="classic", metavar="PRESET",
                   help=f"preset, for its capture rule: {', '.join(ALL_PRESETS)} "
                        "(default classic)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_captures)

    p = sub.add_parser("replay", help="replay an escoba-record/1 file and score it",
                       description="Replay a game record, checking every move; print scores.")
    p.add_argument("file", help="the record (JSON); - reads standard input")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_cmd_replay)

    p = sub.add_parser("simulate", help="computer players play whole games",
                       description="Play games between computer players and count wins.")
    p.add_argument("--games", default="100", metavar="N",
                   help=f"games to play, 1 to {MAX_GAMES:,} (default 100)")
    p.add_argument("--players", nargs="+", default=["random", "random"], metavar="LEVEL",
                   help="one computer player per seat (2-4), e.g. random random")
    add_rules_args(p)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--record-dir", metavar="DIR", help="write each game's record here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_cmd_simulate)

    p = sub.add_parser("rules", help="list presets and options")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_cmd_rules)


def build_parser(registrars: Sequence[Registrar]) -> argparse.ArgumentParser:
    """The ``escoba`` parser with the commands that ``registrars`` add."""
    parser = _Parser(prog="escoba", description=(
        "Escoba de quince: captures, game records, simulations, puzzles and worksheets."))
    parser.add_argument("--version", action="version", version=f"escoba {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add_commands in registrars:
        add_commands(sub)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run its command: its exit code, or 2 with one line on bad input."""
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as exc:  # every engine error is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: still one line for the user
        print(f"error: internal error ({type(exc).__name__}: {exc})", file=sys.stderr)
        if os.environ.get("ESCOBA_DEBUG"):
            raise
        return 1
