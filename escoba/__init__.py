"""Escoba de quince: a rules engine, a capture solver and game records.

Pure Python, standard library only. The main names::

    from escoba import Card, Rules, Game, Round, Move, captures
"""

from .cards import Card, CardError, Deck, Suit, format_cards, full_deck, parse_cards
from .game import (
    DeckError,
    Game,
    IllegalMoveError,
    Move,
    Observation,
    Play,
    Renuncio,
    Round,
)
from .record import RecordError, Replay, game_to_record, replay
from .rules import CATEGORIES, PRESETS, Rules, RulesError
from .scoring import CategoryResult, RoundScore, score_round
from .solver import captures, hand_captures, subsets_totalling

__version__ = "0.1.0"

__all__ = [
    "Card", "CardError", "Deck", "Suit", "format_cards", "full_deck", "parse_cards",
    "DeckError", "Game", "IllegalMoveError", "Move", "Observation", "Play", "Renuncio", "Round",
    "RecordError", "Replay", "game_to_record", "replay",
    "CATEGORIES", "PRESETS", "Rules", "RulesError",
    "CategoryResult", "RoundScore", "score_round",
    "captures", "hand_captures", "subsets_totalling",
]
