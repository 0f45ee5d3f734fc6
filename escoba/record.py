"""``escoba-record/1``: write a game as JSON, and replay one (RECORD.md).

A record stores only the rules, the decks with their dealers, and the moves;
everything else (hands, table, piles, escobas, the dealer's initial take, the
last capturer's sweep, scores) is derived by replaying it through the engine.

A record that breaks a rule fails with :class:`RecordError` naming the round,
the move number (1-based, counting every entry of ``moves``) and the reason::

    round 2, move 14: 3 + 4 + 7 = 14, not 15

Nothing is guessed or repaired.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, Card, CardError
from .game import DeckError, Game, IllegalMoveError, Move, Renuncio, Round
from .rules import Rules, RulesError
from .scoring import RoundScore

__all__ = ["FORMAT", "RecordError", "Replay", "game_to_record", "round_moves", "replay",
           "load_record", "record_summary"]

FORMAT = "escoba-record/1"


class RecordError(ValueError):
    """A record that cannot be read or that breaks a rule; the message says where."""


def round_moves(round_: Round, start: int = 0) -> list[dict[str, object]]:
    """The record's move entries of one round (plays, miscounts, renuncio claims), from
    the ``start``-th on: what a game's record holds under ``rounds[i]["moves"]``."""
    moves: list[dict[str, object]] = []
    seen = 0
    for event in round_.history:
        if event.kind not in ("play", "miscount", "renuncio"):
            continue
        seen += 1
        if seen <= start:  # saved already: not built again
            continue
        if event.kind == "renuncio":
            moves.append(Renuncio(CARDS[event.card_index], event.take).to_dict(event.seat))
        else:
            move = event.move
            assert move is not None
            moves.append(move.to_dict(event.seat))
    return moves


def game_to_record(game: Game, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``escoba-record/1`` document of ``game`` (finished or not)."""
    rounds = []
    for info, round_ in zip(game.round_records, game.rounds, strict=True):
        entry: dict[str, Any] = {"dealer": info.dealer, "deck": [str(c) for c in info.deck],
                                 "moves": round_moves(round_)}
        if info.redealt:
            entry["redealt"] = [[str(c) for c in d] for d in info.redealt]
        rounds.append(entry)
    record: dict[str, Any] = {"format": FORMAT, "rules": game.rules.to_dict(only_changes=True)}
    if names is not None:
        record["names"] = [str(n) for n in names]
    record["rounds"] = rounds
    return record


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a record: the rebuilt game and its scores."""

    game: Game
    scores: tuple[RoundScore, ...]
    complete: bool
    names: tuple[str, ...] | None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.game.totals)

    @property
    def winner(self) -> int | None:
        return self.game.winner

    def position(self) -> dict[str, Any] | None:
        """Where an unfinished record stops (``None`` when the game is complete)."""
        if self.complete:
            return None
        round_ = self.game.round
        if round_ is None:
            return {"round": 0}
        moves = sum(1 for e in round_.history if e.kind in ("play", "miscount", "renuncio"))
        return {
            "round": len(self.game.rounds),
            "moves": moves,
            "round_over": round_.is_over,
            "to_move": None if round_.is_over else round_.to_move,
            "table": [str(c) for c in round_.table],
            "hands": [[str(c) for c in round_.hand(s)] for s in range(self.game.rules.players)],
        }

    def to_json(self) -> dict[str, Any]:
        """The shape printed by ``escoba replay --json``."""
        out: dict[str, Any] = {
            "rounds": [{"points": [dict(b) for b in s.breakdown]} for s in self.scores],
            "totals": list(self.totals),
            "winner": self.winner,
            "complete": self.complete,
        }
        position = self.position()
        if position is not None:
            out["position"] = position
        return out


def load_record(text: str | bytes) -> dict[str, Any]:
    """Parse record JSON text, with a clear error for what is not a JSON record.

    Bytes must be UTF-8. Every failure is a :class:`RecordError` whose message
    a person can read: no decoder jargon, no traceback.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not a game record: the file is not UTF-8 text "
                              f"(byte {exc.start + 1} cannot be read)") from None
    if not text.strip():
        raise RecordError("not a game record: the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a game record: this is not JSON (line {exc.lineno}, "
                          f"column {exc.colno}: {exc.msg.lower()})") from None
    except RecursionError:
        raise RecordError("not a game record: the JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, rules and rounds")
    return data


_MOVE_KEYS = frozenset({"seat", "card", "take", "miscount"})
_CLAIM_KEYS = frozenset({"seat", "renuncio"})
_ROUND_KEYS = frozenset({"dealer", "deck", "moves", "redealt"})


def _card(text: Any, where: str) -> Card:
    """One card in the exact notation (a record is not typing: "5C" is refused)."""
    try:
        return Card.parse(text, strict=True)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _cards(value: Any, where: str, what: str, *, distinct: bool = True) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{where}: {what} must be a list of cards such as [\"7o\", \"3c\"]")
    cards = [_card(c, where) for c in value]
    if distinct and len(set(cards)) != len(cards):
        twice = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise RecordError(f"{where}: {what} lists {twice} twice")
    return cards


def _unknown_keys(entry: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise RecordError(f"{where}: unknown field {unknown[0]!r} (expected "
                          f"{', '.join(sorted(allowed))})")


def replay(record: Mapping[str, Any] | str | bytes) -> Replay:
    """Replay a record through the rules, checking every move. Raises :class:`RecordError`."""
    data = load_record(record) if isinstance(record, (str, bytes)) else record
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with format, rules and rounds")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    except TypeError:
        raise RecordError("rules: must be an object such as {\"preset\": \"classic\"}") from None
    names = data.get("names")
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(n, str) for n in names)):
        raise RecordError("names must be a list of strings")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list")

    game: Game | None = None
    for r, entry in enumerate(rounds, start=1):
        where = f"round {r}"
        if not isinstance(entry, Mapping):
            raise RecordError(f"{where}: must be an object with dealer, deck and moves")
        dealer = entry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) \
                or not 0 <= dealer < rules.players:
            raise RecordError(f"{where}: dealer must be a seat 0-{rules.players - 1}, "
                              f"got {dealer!r}")
        if game is None:
            game = Game(rules, dealer=dealer)
        elif game.is_over:
            raise RecordError(f"{where}: the game was already won after round {r - 1}")
        elif dealer != game.next_dealer:
            raise RecordError(f"{where}: the deal passes to seat {game.next_dealer}, "
                              f"not {dealer}")
        _unknown_keys(entry, _ROUND_KEYS, where)
        deck = _cards(entry.get("deck"), where, "deck", distinct=False)  # DeckError names twins
        redealt = entry.get("redealt", [])
        if not isinstance(redealt, list):
            raise RecordError(f"{where}: redealt must be a list of decks")
        if redealt and rules.initial_fifteen != "redeal":
            raise RecordError(f"{where}: redealt decks need initial_fifteen=redeal")
        abandoned = []
        for k, old in enumerate(redealt, start=1):
            old_deck = _cards(old, f"{where}, redealt deck {k}", "a redealt deck",
                              distinct=False)
            try:
                Round(rules, old_deck, dealer)
            except DeckError as exc:
                if "redealt" not in str(exc):
                    raise RecordError(f"{where}, redealt deck {k}: {exc}") from None
            else:
                raise RecordError(f"{where}, redealt deck {k}: its table holds no "
                                  f"{rules.capture_sum}, so it was not to be redealt")
            abandoned.append(old_deck)
        try:
            round_ = game.start_round(deck, redealt=abandoned)
        except DeckError as exc:
            raise RecordError(f"{where}: {exc}") from None
        moves = entry.get("moves")
        if not isinstance(moves, list):
            raise RecordError(f"{where}: moves must be a list")
        for m, move in enumerate(moves, start=1):
            _replay_move(game, round_, move, f"{where}, move {m}")
        if not round_.is_over and r < len(rounds):
            raise RecordError(f"{where}: the moves stop before the round is over, "
                              "yet another round follows")
    if game is None:  # nothing dealt yet: a game that stops before it starts
        game = Game(rules, dealer=0)
    return Replay(game, tuple(game.round_scores()), game.is_over,
                  tuple(names) if names is not None else None)


def _replay_move(game: Game, round_: Round, entry: Any, where: str) -> None:
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: a move is an object such as "
                          "{\"seat\": 0, \"card\": \"7o\", \"take\": []}")
    if round_.is_over:
        raise RecordError(f"{where}: the round is already over")
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < game.rules.players:
        raise RecordError(f"{where}: seat must be 0-{game.rules.players - 1}, got {seat!r}")
    if seat != round_.to_move:
        raise RecordError(f"{where}: seat {seat} moved, but it is seat {round_.to_move}'s turn")
    try:
        if "renuncio" in entry:
            _unknown_keys(entry, _CLAIM_KEYS, where)
            cards = _cards(entry["renuncio"], where, "renuncio")
            if len(cards) < 2:
                raise RecordError(f"{where}: renuncio names the laid card and the set "
                                  "it could have taken")
            game.claim_renuncio(Renuncio(cards[0], frozenset(cards[1:])))
            return
        _unknown_keys(entry, _MOVE_KEYS, where)
        if "card" not in entry or "take" not in entry:
            raise RecordError(f"{where}: a move needs card and take")
        card_text = entry["card"]
        if not isinstance(card_text, str):
            raise RecordError(f"{where}: card must be a card such as \"7o\"")
        card = _card(card_text, where)
        take = _cards(entry["take"], where, "take")
        miscount = None
        if "miscount" in entry:
            miscount = frozenset(_cards(entry["miscount"], where, "miscount"))
        game.play(Move(card, frozenset(take), miscount))
    except (IllegalMoveError, CardError) as exc:
        raise RecordError(f"{where}: {exc}") from None


def record_summary(result: Replay) -> str:
    """A few human lines for ``escoba replay``."""
    lines = []
    for i, score in enumerate(result.scores, start=1):
        parts = []
        for side, breakdown in enumerate(score.breakdown):
            shown = ", ".join(f"{k} {v}" for k, v in breakdown.items() if v)
            parts.append(f"side {side}: {sum(breakdown.values())} ({shown or 'nothing'})")
        lines.append(f"round {i}: " + "; ".join(parts))
    lines.append("totals: " + ", ".join(str(t) for t in result.totals))
    if result.complete:
        lines.append(f"winner: side {result.winner}")
    else:
        pos = result.position() or {}
        lines.append(f"incomplete: stops in round {pos.get('round')} after "
                     f"{pos.get('moves', 0)} moves")
        if pos.get("table") is not None:
            lines.append("table: " + (" ".join(pos["table"]) or "empty"))
    return "\n".join(lines)

