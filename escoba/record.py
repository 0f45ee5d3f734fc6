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

from .cards import CARDS, Card
from .errors import (
    CardError,
    Code,
    DeckError,
    EscobaError,
    IllegalMoveError,
    RecordError,
    RulesError,
)
from .game import Game
from .moves import Move, Renuncio
from .round import Round
from .rules import Rules
from .scoring import RoundScore
from .variants import variant_for

__all__ = ["FORMAT", "RecordError", "Replay", "game_to_record", "round_moves", "replay",
           "load_record", "record_summary"]

FORMAT = "escoba-record/1"


@dataclass(frozen=True)
class _At:
    """Where in a record an error is: a round, a move in it, or a part of it."""

    round: int
    move: int | None = None
    part: str | None = None  # e.g. "redealt deck 2"

    def __str__(self) -> str:
        where = f"round {self.round}"
        if self.move is not None:
            where += f", move {self.move}"
        if self.part is not None:
            where += f", {self.part}"
        return where

    def error(self, message: str, code: Code = Code.RECORD_MALFORMED,
              **params: Any) -> RecordError:
        """``round 2, move 14: <message>``, with the round and move in ``params``."""
        return RecordError(f"{self}: {message}", code, round=self.round, move=self.move,
                           **params)

    def malformed(self, detail: str) -> RecordError:
        return self.error(detail, Code.RECORD_MALFORMED, detail=detail)

    def because(self, exc: EscobaError, code: Code) -> RecordError:
        """The engine's own error inside the record: its code becomes ``reason``."""
        return self.error(str(exc), code, reason=str(exc.code), reason_params=exc.params)


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
                              f"(byte {exc.start + 1} cannot be read)", Code.RECORD_NOT_UTF8,
                              byte=exc.start + 1) from None
    if not text.strip():
        raise RecordError("not a game record: the file is empty", Code.RECORD_EMPTY)
    try:
        data = json.loads(text, parse_int=_record_int)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a game record: this is not JSON (line {exc.lineno}, "
                          f"column {exc.colno}: {exc.msg.lower()})", Code.RECORD_NOT_JSON,
                          line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise RecordError("not a game record: the JSON is nested too deeply",
                          Code.RECORD_TOO_DEEP) from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, rules and rounds",
                          Code.RECORD_NOT_OBJECT)
    return data


_MOVE_KEYS = frozenset({"seat", "card", "take", "miscount"})
_CLAIM_KEYS = frozenset({"seat", "renuncio"})
_ROUND_KEYS = frozenset({"dealer", "deck", "moves", "redealt"})


def _card(text: Any, where: _At) -> Card:
    """One card in the exact notation (a record is not typing: "5C" is refused)."""
    try:
        return Card.parse(text, strict=True)
    except CardError as exc:
        raise where.because(exc, Code.RECORD_MOVE) from None


def _cards(value: Any, where: _At, what: str, *, distinct: bool = True) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise where.malformed(f"{what} must be a list of cards such as [\"7o\", \"3c\"]")
    cards = [_card(c, where) for c in value]
    if distinct and len(set(cards)) != len(cards):
        twice = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise where.because(CardError(f"{what} lists {twice} twice", Code.CARD_TWICE,
                                      card=str(twice)), Code.RECORD_MOVE)
    return cards


def _unknown_keys(entry: Mapping[str, Any], allowed: frozenset[str], where: _At) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise where.malformed(f"unknown field {unknown[0]!r} (expected "
                              f"{', '.join(sorted(allowed))})")


#: The longest whole number a record holds: a seed is at most 20 digits. Python refuses
#: to read one of more than 4,300 digits with a message about its own settings.
_RECORD_DIGITS = 40


def _record_int(digits: str) -> int:
    """A whole number of the JSON, refused past :data:`_RECORD_DIGITS` digits."""
    if len(digits.lstrip("-")) > _RECORD_DIGITS:
        raise RecordError(f"not a game record: it holds a number of {len(digits.lstrip('-'))} "
                          f"digits (a record's longest has {_RECORD_DIGITS})",
                          Code.RECORD_NUMBER_TOO_LONG, digits=len(digits.lstrip("-")))
    return int(digits)


def replay(record: Mapping[str, Any] | str | bytes) -> Replay:
    """Replay a record through the rules, checking every move. Raises :class:`RecordError`."""
    data = load_record(record) if isinstance(record, (str, bytes)) else record
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with format, rules and rounds",
                          Code.RECORD_NOT_OBJECT)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}",
                          Code.RECORD_FORMAT, expected=FORMAT, got=str(data.get("format")))
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}", Code.RECORD_RULES, reason=str(exc.code),
                          reason_params=exc.params) from None
    except TypeError:
        detail = "rules: must be an object such as {\"preset\": \"classic\"}"
        raise RecordError(detail, Code.RECORD_MALFORMED, detail=detail) from None
    names = data.get("names")
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(n, str) for n in names)):
        detail = "names must be a list of strings"
        raise RecordError(detail, Code.RECORD_MALFORMED, detail=detail)
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list", Code.RECORD_MALFORMED,
                          detail="rounds must be a list")

    game: Game | None = None
    for r, entry in enumerate(rounds, start=1):
        where = _At(r)
        if not isinstance(entry, Mapping):
            raise where.malformed("must be an object with dealer, deck and moves")
        dealer = entry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) \
                or not 0 <= dealer < rules.players:
            raise where.error(f"dealer must be a seat 0-{rules.players - 1}, got {dealer!r}",
                              Code.RECORD_DEALER, expected=None, got=repr(dealer))
        if game is None:
            game = Game(rules, dealer=dealer)
        elif game.is_over:
            raise where.error(f"the game was already won after round {r - 1}",
                              Code.RECORD_GAME_WON)
        elif dealer != game.next_dealer:
            raise where.error(f"the deal passes to seat {game.next_dealer}, not {dealer}",
                              Code.RECORD_DEALER, expected=game.next_dealer, got=repr(dealer))
        _unknown_keys(entry, _ROUND_KEYS, where)
        deck = _cards(entry.get("deck"), where, "deck", distinct=False)  # DeckError names twins
        redealt = entry.get("redealt", [])
        if not isinstance(redealt, list):
            raise where.malformed("redealt must be a list of decks")
        if redealt and rules.initial_fifteen != "redeal" and rules.variant == "escoba":
            raise where.malformed("redealt decks need initial_fifteen=redeal")
        abandoned = []
        for k, old in enumerate(redealt, start=1):
            at_old = _At(r, part=f"redealt deck {k}")
            old_deck = _cards(old, at_old, "a redealt deck", distinct=False)
            try:
                Round(rules, old_deck, dealer)
            except DeckError as exc:
                if exc.code != Code.DECK_REDEAL:
                    raise at_old.because(exc, Code.RECORD_DECK) from None
            else:
                # The variant says why (Escoba: no 15; Scopa: fewer than three re).
                reason, params = variant_for(rules).no_redeal_reason(rules)
                raise at_old.error(f"{reason}, so it was not to be redealt",
                                   Code.RECORD_REDEAL, **params)
            abandoned.append(old_deck)
        try:
            round_ = game.start_round(deck, redealt=abandoned)
        except DeckError as exc:
            raise where.because(exc, Code.RECORD_DECK) from None
        moves = entry.get("moves")
        if not isinstance(moves, list):
            raise where.malformed("moves must be a list")
        for m, move in enumerate(moves, start=1):
            _replay_move(game, round_, move, _At(r, m))
        if not round_.is_over and r < len(rounds):
            raise where.error("the moves stop before the round is over, "
                              "yet another round follows", Code.RECORD_STOPS_EARLY)
    if game is None:  # nothing dealt yet: a game that stops before it starts
        game = Game(rules, dealer=0)
    return Replay(game, tuple(game.round_scores()), game.is_over,
                  tuple(names) if names is not None else None)


def _replay_move(game: Game, round_: Round, entry: Any, where: _At) -> None:
    if not isinstance(entry, Mapping):
        raise where.malformed("a move is an object such as "
                              "{\"seat\": 0, \"card\": \"7o\", \"take\": []}")
    if round_.is_over:
        raise where.because(IllegalMoveError("the round is already over", Code.ROUND_OVER),
                            Code.RECORD_MOVE)
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < game.rules.players:
        raise where.malformed(f"seat must be 0-{game.rules.players - 1}, got {seat!r}")
    if seat != round_.to_move:
        raise where.because(IllegalMoveError(
            f"seat {seat} moved, but it is seat {round_.to_move}'s turn", Code.NOT_YOUR_TURN,
            seat=seat, to_move=round_.to_move), Code.RECORD_MOVE)
    try:
        if "renuncio" in entry:
            _unknown_keys(entry, _CLAIM_KEYS, where)
            cards = _cards(entry["renuncio"], where, "renuncio")
            if len(cards) < 2:
                raise where.malformed("renuncio names the laid card and the set "
                                      "it could have taken")
            game.claim_renuncio(Renuncio(cards[0], frozenset(cards[1:])))
            return
        _unknown_keys(entry, _MOVE_KEYS, where)
        if "card" not in entry or "take" not in entry:
            raise where.malformed("a move needs card and take")
        card_text = entry["card"]
        if not isinstance(card_text, str):
            raise where.malformed("card must be a card such as \"7o\"")
        card = _card(card_text, where)
        take = _cards(entry["take"], where, "take")
        miscount = None
        if "miscount" in entry:
            miscount = frozenset(_cards(entry["miscount"], where, "miscount"))
        game.play(Move(card, frozenset(take), miscount))
    except (IllegalMoveError, CardError) as exc:
        raise where.because(exc, Code.RECORD_MOVE) from None


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

