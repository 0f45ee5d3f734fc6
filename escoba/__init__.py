"""Escoba de quince: a rules engine, a capture solver and game records.

Pure Python, standard library only. The main names::

    from escoba import Card, Rules, Game, Round, Move, captures
"""

from .cards import Card, Deck, Suit, format_cards, full_deck, parse_cards
from .deck import deck_for
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
from .moves import Attempt, Move, Play, Renuncio
from .observation import Observation
from .record import Replay, game_to_record, replay
from .round import Round
from .rules import CATEGORIES, PRESETS, Rules
from .scoring import CategoryResult, RoundScore, score_round
from .solver import captures, hand_captures, subsets_totalling

__version__ = "0.1.0"

__all__ = [
    "Card", "Deck", "Suit", "format_cards", "full_deck", "parse_cards",
    "CardError", "Code", "DeckError", "EscobaError", "IllegalMoveError", "RecordError",
    "RulesError",
    "Attempt", "Game", "Move", "Observation", "Play", "Renuncio", "Round", "deck_for",
    "Replay", "game_to_record", "replay",
    "CATEGORIES", "PRESETS", "Rules",
    "CategoryResult", "RoundScore", "score_round",
    "captures", "hand_captures", "subsets_totalling",
]
