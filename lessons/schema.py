"""What a lesson file may say, checked field by field when it is read.

A stage is one TOML file (``lessons/NN-key.toml``); docs/LESSONS.md shows the
format with an annotated level. Reading a file checks its shape (every field
known, of the right type, text as catalog keys only) and asks the engine about
everything the engine can judge at once: the rules, each scripted deal
(:func:`escoba.deck.deck_for`) or position (:meth:`escoba.Round.from_position`),
the scripted moves before a level starts, the card and move notation. A
mistake raises :class:`LessonError` naming the file, the level and the field.

Whether each level can be played through as its goal says is checked by
playing it (``tests/test_lessons.py``, one test per level).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from escoba import Card, EscobaError, Move, Renuncio, Round, Rules, Suit, deck_for
from escoba.bots import PLAYER_LEVELS
from escoba.cards import CARDS, SIETE_DE_OROS, mask_of, value_sum
from escoba.rules import CATEGORIES
from escoba.scoring import SETENTA_VALUES, setenta_cards
from escoba.variants import variant_for

__all__ = ["LessonError", "Stage", "Level", "Step", "Deal", "Position", "GameSpec",
           "StepKind", "KINDS", "TapCard", "PlayCard", "Answer", "CallRenuncio", "WholeGame",
           "Judgement", "Shown", "CHILD", "PILE_QUESTIONS", "question_cards", "best_claim",
           "ACTIONS", "HINTS", "QUESTIONS", "MIN_LEVELS", "MAX_LEVELS", "CARD_PARAMS",
           "GLOSSARY", "GLOSSARIES", "glossary_of", "parse_stage", "is_card_param"]

#: What a child does in a step: tap one card; play a card (taking table cards or
#: not); answer with a number; call ¡renuncio!; play a whole game (each a kind below).
ACTIONS: tuple[str, ...] = ("tap_card", "play", "answer", "renuncio", "game")
#: How much the board lights up, fading over a stage: the whole answer, its first
#: card, nothing.
HINTS: tuple[str, ...] = ("full", "some", "none")
#: Numbers a child can be asked for, each worked out by the engine (see
#: ``trainer.lessons``): a card's value or setenta value, the table's total, how
#: many hand cards can capture, escobas, a category's count or points, a round's
#: points.
QUESTIONS: dict[str, tuple[str, ...]] = {
    "card_value": ("card",),
    "setenta_value": ("card",),
    "table_total": (),
    "capturing_cards": (),
    "escobas": ("seat",),
    "count": ("category", "seat"),
    "points": ("category", "seat"),
    "round_points": ("seat",),
}
#: Each game's own words, by its rules' variant: Escoba's Spanish ones and Scopa's
#: Italian ones. A stage's glossary lists only its game's words (a Spanish "Sota" beside
#: an Italian card, or the broom twice, would muddle a child).
GLOSSARIES: dict[str, tuple[str, ...]] = {
    "escoba": ("sota", "caballo", "rey", "as", "oros", "copas", "espadas", "bastos", "siete",
               "escoba", "setenta", "renuncio"),
    "scopa": ("scopa", "denari", "coppe", "spade", "bastoni", "fante", "cavallo", "re"),
}
#: Every word of the games a child meets in the lessons, each explained in the child's
#: language with a picture (catalog keys ``word.<word>``): a level names in ``words``
#: those it uses for the first time on the path (``tests/test_lessons.py`` checks that no
#: goal uses one earlier).
GLOSSARY: tuple[str, ...] = tuple(w for words in GLOSSARIES.values() for w in words)


def glossary_of(rules: Rules) -> tuple[str, ...]:
    """The words of the game these rules play (:data:`GLOSSARIES`), in glossary order."""
    return GLOSSARIES.get(rules.variant, GLOSSARIES["escoba"])
#: A stage has this many levels, the last one its check.
MIN_LEVELS, MAX_LEVELS = 5, 8
#: Parameter names that hold cards (notation in the file, :class:`Card` once read): the
#: page names them in the child's deck. ``rank`` (and ``*_rank``) is named by its rank
#: only ("Sota", "J", "Fante").
CARD_PARAMS: frozenset[str] = frozenset({"card", "cards", "rank", "with"})

_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")  # a catalog key: "goal.tap_value"
_SLUG = re.compile(r"^[a-z0-9_]+$")
_HINT_ORDER = {h: i for i, h in enumerate(HINTS)}


def is_card_param(name: str) -> bool:
    """Whether a goal or feedback parameter holds cards (see :data:`CARD_PARAMS`)."""
    return name in CARD_PARAMS or name.endswith(("_card", "_cards", "_rank"))


class LessonError(ValueError):
    """A lesson file that cannot be used: ``str()`` names the file, the level and the field."""

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        super().__init__(f"{source}: {where}: {message}" if where else f"{source}: {message}")


@dataclass(frozen=True)
class Deal:
    """A real first deal: each seat's hand, the four table cards, the dealer."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]


@dataclass(frozen=True)
class Position:
    """A round under way (:meth:`escoba.Round.from_position`)."""

    to_move: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...] | None
    piles: tuple[tuple[Card, ...], ...] | None
    escobas: tuple[int, ...] | None
    last_capturer: int | None


@dataclass(frozen=True)
class GameSpec:
    """A whole game against a computer player of ``opponent`` level, to ``target`` points."""

    opponent: str
    seed: int
    target: int


# -- the step kinds ------------------------------------------------------------------------
#
# Each kind of step is one type: it reads its own fields from the file, judges a try
# through the engine, says which cards light up and what else the question needs on the
# screen. The runner (trainer.lessons) dispatches on the type once, and words the result.

#: The seat the child plays in every level (the other seat is the computer).
CHILD = 0


@dataclass(frozen=True)
class Judgement:
    """What a step kind says of one try.

    ``right``: the step is done. Otherwise either ``refusal`` (the engine refused the
    move or the claim: the runner words its code), or ``key`` and ``params`` (a catalog
    key of the ``lessons`` domain). ``legal``: a legal move that is not the goal's (it
    may be played, with its consequence). ``look``: a second line, where to look.
    """

    right: bool
    key: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    refusal: EscobaError | None = None
    legal: bool = False
    look: str | None = None


@dataclass(frozen=True)
class Shown:
    """What a step needs on the screen besides the board: the won piles to open (their
    seats, the child's first) and whether the round's score table is shown."""

    piles: tuple[int, ...] = ()
    score: bool = False
    #: The piles' groups the question counts (:class:`trainer.lessons.WonPile`): shown
    #: open, the others folded away so the answers stay in view on a phone. Empty: all.
    groups: tuple[str, ...] = ()


_NOTHING_SHOWN = Shown()


class _Kind:
    """What every kind has unless it says otherwise: no fields to read, nothing shown
    besides the board."""

    @classmethod
    def parse(cls, r: _Reader, data: Mapping[str, Any], name: str) -> Any:
        return cls()

    def shows(self, round_: Round) -> Shown:
        return _NOTHING_SHOWN


@dataclass(frozen=True)
class TapCard(_Kind):
    """Tap one card: a card worth ``value`` (``among`` the hand, the table or both), a
    table card the hand card ``with_card`` may take alone (the engine judges it by the
    level's variant: the card that makes 15 with it in Escoba, the card of its value in
    Scopa), or one of ``cards``."""

    action: ClassVar[str] = "tap_card"
    value: int | None = None
    among: str = "hand"
    with_card: Card | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, r: _Reader, data: Mapping[str, Any], name: str) -> TapCard:
        given = [k for k in ("value", "with", "cards") if k in data]
        if len(given) != 1:
            raise r.fail("a tap_card step names one of value, with, cards", name)
        among = data.get("among", "hand")
        if among not in ("hand", "table", "both"):
            raise r.fail(f"must be hand, table or both, got {among!r}", f"{name}.among")
        if "value" in data:
            return cls(value=r.integer(data["value"], f"{name}.value", 1, 10), among=among)
        if "with" in data:
            return cls(with_card=r.card(data["with"], f"{name}.with"), among="table")
        return cls(cards=r.cards(data["cards"], f"{name}.cards"), among=among)

    def area(self, round_: Round) -> tuple[Card, ...]:
        if self.among == "hand":
            return round_.hand(CHILD)
        if self.among == "table":
            return round_.table
        return round_.hand(CHILD) + round_.table

    def right_cards(self, round_: Round) -> tuple[Card, ...]:
        """Every card a tap may answer with (the engine says which capture)."""
        if self.with_card is not None:
            return tuple(c for c in round_.table if round_.check(
                Move(self.with_card, frozenset({c})), CHILD) is None)
        if self.value is not None:
            return tuple(c for c in self.area(round_) if c.value == self.value)
        return self.cards

    def judge(self, round_: Round, card: Card, other: str | None = None) -> Judgement:
        if self.with_card is not None:
            verdict = round_.check(Move(self.with_card, frozenset({card})), CHILD)
            return Judgement(True) if verdict is None else Judgement(False, refusal=verdict)
        if self.value is not None:
            if card not in self.area(round_):
                where = "fb.tap_in_hand" if self.among == "hand" else "fb.tap_on_table"
                return Judgement(False, where, {"card": card})
            if card.value != self.value:
                return Judgement(False, "fb.tap_value", {"card": card, "value": card.value,
                                                         "want": self.value})
            return Judgement(True)
        if card in self.cards:
            return Judgement(True)
        return Judgement(False, other or "fb.tap_other", {"card": card})

    def lit(self, round_: Round, hints: str) -> tuple[Card, ...]:
        """Every card that answers, or none: one of two would say the other is wrong. The
        hand card a table card goes with is shown picked, not lit (it is no answer)."""
        return () if hints == "none" else self.right_cards(round_)


@dataclass(frozen=True)
class PlayCard(_Kind):
    """Play a card, taking table cards or laying it: one of ``moves``, ``"any"`` legal
    move or any legal capture (``"captures"``)."""

    action: ClassVar[str] = "play"
    moves: tuple[Move, ...] | str = ()

    @classmethod
    def parse(cls, r: _Reader, data: Mapping[str, Any], name: str) -> PlayCard:
        moves = data.get("moves")
        if moves is None:
            raise r.fail("is missing", f"{name}.moves")
        if moves in ("any", "captures"):
            return cls(moves=moves)
        found = r.moves(moves, f"{name}.moves")
        if not found:
            raise r.fail("lists no move", f"{name}.moves")
        return cls(moves=found)

    def expects(self, move: Move) -> bool:
        """Whether a legal move is the one the step asks for."""
        if self.moves == "any":
            return True
        if self.moves == "captures":
            return bool(move.take)
        return move in self.moves

    def right_moves(self, round_: Round) -> list[Move]:
        """The legal moves the step accepts, in the engine's order."""
        return [m for m in round_.legal_moves() if self.expects(m)]

    def judge(self, round_: Round, move: Move) -> Judgement:
        verdict = round_.check(move, CHILD)
        if verdict is not None:
            return Judgement(False, refusal=verdict)
        return Judgement(True) if self.expects(move) else Judgement(False, legal=True)

    def lit(self, round_: Round, hints: str) -> tuple[Card, ...]:
        """The first right move's cards (``some``: the card to play only)."""
        right = self.right_moves(round_) if hints != "none" else []
        if not right:
            return ()
        cards = (right[0].card, *sorted(right[0].take))
        return cards if hints == "full" else cards[:1]


#: The questions about a finished round's piles: the won cards are opened for them.
PILE_QUESTIONS = frozenset({"count", "points", "escobas"})
#: The pile groups each category is counted in (not listed: every group, as for the
#: cards or the setenta, whose best card of a suit may be in any of them).
COUNTED_GROUPS: dict[str, tuple[str, ...]] = {
    "oros": ("oros",), "siete_de_oros": ("oros",), "sevens": ("oros", "sevens"),
    "escobas": ("escobas",)}


def question_cards(round_: Round, question: str, args: Mapping[str, Any]) -> tuple[Card, ...]:
    """The cards a question is about, to light: exactly those its answer counts (the
    hand cards that can capture, the oros in a pile, the setenta's best cards…), each
    found by the engine; none when the answer counts no card (escobas, a round's points,
    all the cards of a pile)."""
    if question in ("card_value", "setenta_value"):
        return (args["card"],)
    if question == "table_total":
        return round_.table
    if question == "capturing_cards":
        able = {m.card for m in round_.legal_moves() if m.take} \
            if round_.to_move == CHILD and not round_.is_over else set()
        return tuple(c for c in round_.hand(CHILD) if c in able)
    if question not in ("count", "points"):
        return ()
    category = args["category"]
    if question == "points":
        # Points compare the two sides: what each side counted glows in its pile.
        return tuple(c for seat in range(round_.rules.players) for c in question_cards(
            round_, "count", {"category": category, "seat": seat}))
    pile = round_.pile(args["seat"])
    if category == "oros":
        return tuple(c for c in pile if c.suit is Suit.OROS)
    if category == "sevens":
        return tuple(c for c in pile if c.value == 7 and not c.is_joker)
    if category == "siete_de_oros":
        return tuple(c for c in pile if c == SIETE_DE_OROS)
    if category == "setenta":
        return setenta_cards(pile)
    return ()


@dataclass(frozen=True)
class Answer:
    """Answer a number: ``question`` with its ``args`` (see :data:`QUESTIONS`), each
    answered by the engine."""

    action: ClassVar[str] = "answer"
    question: str = "card_value"
    args: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, r: _Reader, data: Mapping[str, Any], name: str) -> Answer:
        question = data.get("question")
        if question not in QUESTIONS:
            raise r.fail(f"must be one of {', '.join(QUESTIONS)}, got {question!r}",
                         f"{name}.question")
        for arg in QUESTIONS[question]:
            if arg not in data:
                raise r.fail(f"the question {question} needs {arg}", f"{name}.{arg}")
        extra = sorted(set(data) - {"question", *QUESTIONS[question]})
        if extra:
            raise r.fail(f"the question {question} takes no {extra[0]}", f"{name}.{extra[0]}")
        args: dict[str, Any] = {}
        for arg in QUESTIONS[question]:
            value = data[arg]
            if arg == "card":
                args[arg] = r.card(value, f"{name}.card")
            elif arg == "seat":
                args[arg] = r.integer(value, f"{name}.seat", 0, 3)
            elif value not in CATEGORIES:
                raise r.fail(f"must be one of {', '.join(CATEGORIES)}, got {value!r}",
                             f"{name}.{arg}")
            else:
                args[arg] = value
        return cls(question, args)

    def answer(self, round_: Round) -> int:
        """The number asked for, from the engine (``ValueError`` if a question about the
        round's score is asked before the round is over)."""
        question, args = self.question, self.args
        if question == "card_value":
            return args["card"].value
        if question == "setenta_value":
            return SETENTA_VALUES[args["card"].value]
        if question == "table_total":
            return value_sum(round_.table_mask)
        if question == "capturing_cards":
            return len({m.card for m in round_.legal_moves() if m.take})
        if question == "escobas":
            return round_.escobas[args["seat"]]
        if not round_.is_over:
            raise ValueError(f"the question {question} needs the round over")
        score = round_.score()
        side = round_.rules.side_of(args["seat"])
        if question == "round_points":
            return score.totals[side]
        result = score.category(args["category"])
        if question == "points":
            return result.points[side]
        count = result.counts[side]
        if count is None:
            raise ValueError(f"seat {args['seat']} has no {args['category']} count")
        return int(count)

    def context(self, round_: Round) -> dict[str, Any]:
        """For a question about a category's points: both sides' counts, as the goal says
        them ("you have 6 oros, the computer 4")."""
        if self.question != "points" or not round_.is_over:
            return {}
        counts = round_.score().category(self.args["category"]).counts
        return {"mine": "—" if counts[0] is None else counts[0],
                "theirs": "—" if counts[1] is None else counts[1]}

    def judge(self, round_: Round, number: int, lit: bool = False) -> Judgement:
        right = self.answer(round_)
        if number == right:
            return Judgement(True)
        key = "fb.answer_more" if right > number else "fb.answer_less"
        return Judgement(False, key, {"given": number},
                         look=self.look(lit, round_.rules.variant))

    def look(self, lit: bool, variant: str = "escoba") -> str | None:
        """After a wrong number: where to look to count it (``lit``: the cards glow). Which
        hand cards can capture is said in the ``variant``'s arithmetic: a card that makes
        15 with table cards (Escoba), a card whose value is on the table or adds up there
        (Scopa)."""
        question, category = self.question, self.args.get("category")
        if question == "round_points":
            return "fb.look_score"
        if question == "escobas" or category == "escobas":
            return "fb.look_escobas"
        if question == "points" and category != "setenta":
            return "fb.look_compare"
        if question in ("count", "points"):
            return f"fb.look_{category}_lit" if lit and category != "cards" \
                else f"fb.look_{category}"
        if question == "capturing_cards":
            key = "fb.look_capturing" if variant == "escoba" else f"fb.look_capturing_{variant}"
            return f"{key}_lit" if lit else key
        if question == "table_total":
            return "fb.look_table"
        return None

    def lit(self, round_: Round, hints: str) -> tuple[Card, ...]:
        """What the question counts, all of it (or nothing when the hints are off)."""
        return () if hints == "none" else question_cards(round_, self.question, self.args)

    def shows(self, round_: Round) -> Shown:
        if self.question in PILE_QUESTIONS:
            category = "escobas" if self.question == "escobas" else self.args.get("category")
            return Shown(piles=(CHILD, 1) if self.question == "points" else (CHILD,),
                         groups=COUNTED_GROUPS.get(str(category), ()))
        if self.question == "round_points" and round_.is_over:
            return Shown(score=True)
        return _NOTHING_SHOWN


def best_claim(round_: Round) -> Renuncio | None:
    """The best ¡renuncio! the child can call (most cards), as the engine offers them."""
    claims = round_.observation(CHILD).renuncio_claims()
    return max(claims, key=lambda c: (len(c.take), sorted(c.take))) if claims else None


@dataclass(frozen=True)
class CallRenuncio(_Kind):
    """Call ¡renuncio! on the computer's missed capture (the best claim is taken)."""

    action: ClassVar[str] = "renuncio"

    def judge(self, round_: Round) -> Judgement:
        claim = best_claim(round_)
        if claim is not None:
            return Judgement(True)
        laid = next((e.card for e in reversed(round_.history) if e.card is not None), CARDS[0])
        verdict = round_.check_claim(Renuncio(laid, frozenset()))
        return Judgement(False, refusal=verdict) if verdict is not None \
            else Judgement(False, "fb.renuncio_nothing")

    def lit(self, round_: Round, hints: str) -> tuple[Card, ...]:
        claim = best_claim(round_) if hints != "none" else None
        return (claim.card, *sorted(claim.take)) if claim is not None else ()


@dataclass(frozen=True)
class WholeGame(_Kind):
    """Play a whole game (the level's ``game``): each refused move is a mistake."""

    action: ClassVar[str] = "game"

    def lit(self, round_: Round, hints: str) -> tuple[Card, ...]:
        return ()  # a game's glow is the coach's, faded by the runner


#: A step's kind: one of these types, each reading its fields from the file (``expect``).
StepKind = TapCard | PlayCard | Answer | CallRenuncio | WholeGame
#: The kinds by the name a lesson file gives them (``action``).
KINDS: dict[str, type[TapCard] | type[PlayCard] | type[Answer] | type[CallRenuncio]
            | type[WholeGame]] = {k.action: k for k in (TapCard, PlayCard, Answer,
                                                        CallRenuncio, WholeGame)}


@dataclass(frozen=True)
class Step:
    """One thing the child does (its ``kind``: one of :data:`StepKind`, which judges a
    try and says what to light), and what follows a right try.

    ``goal`` says whose turn it is and what to do (a catalog key and parameters).
    ``reply`` are the opponent's scripted moves after the right action. ``other``
    is the feedback key for a legal move that is not the goal's; with
    ``consequence`` that move is played and the computer answers it (the sweep
    the child allowed), and the level starts again. ``choices`` are the numbers
    offered. Which cards glow is never written here: the runner derives it from what
    the step asks (the engine says which cards can).
    """

    kind: StepKind
    goal: str
    goal_params: Mapping[str, Any]
    reply: tuple[Move, ...] = ()
    other: str | None = None
    consequence: bool = False
    choices: tuple[int, ...] = ()

    @property
    def action(self) -> str:
        """The kind's name in a lesson file: ``tap_card``, ``play``, ``answer``…"""
        return self.kind.action

    @property
    def expect(self) -> StepKind:
        """The kind with the fields the file's ``expect`` gave it."""
        return self.kind


@dataclass(frozen=True)
class Level:
    """One small level: a position, its steps, a target number of plays, its hints."""

    key: str
    index: int  # 1-based within the stage
    rules: Rules
    hints: str
    target: int
    steps: tuple[Step, ...]
    check: bool = False
    deal: Deal | None = None
    position: Position | None = None
    before: tuple[Move, ...] = ()
    game: GameSpec | None = None
    #: The words of :data:`GLOSSARY` this level uses first on the path: explained on it.
    words: tuple[str, ...] = ()

    @property
    def is_game(self) -> bool:
        return self.game is not None

    def start_round(self) -> Round:
        """The level's round, with its scripted opening moves played (engine-checked)."""
        if self.deal is not None:
            deck = deck_for(self.rules, self.deal.hands, self.deal.table, self.deal.dealer)
            round_ = Round(self.rules, deck, self.deal.dealer)
        elif self.position is not None:
            p = self.position
            round_ = Round.from_position(self.rules, p.hands, p.table, to_move=p.to_move,
                                         stock=p.stock, piles=p.piles, escobas=p.escobas,
                                         last_capturer=p.last_capturer)
        else:
            raise ValueError(f"level {self.key} is a whole game: it has no scripted round")
        for move in self.before:
            round_.play(move)
        return round_


@dataclass(frozen=True)
class Stage:
    """One stage of the lesson path: a title, an intro and its levels, the last a check."""

    key: str
    order: int
    title: str
    intro: str
    rules: Rules
    levels: tuple[Level, ...]
    source: str = ""
    intro_params: Mapping[str, Any] = field(default_factory=dict)
    #: The stage's picture on the map (one emoji: pictures are not words).
    picture: str = "🃏"

    def level(self, key: str) -> Level:
        for level in self.levels:
            if level.key == key:
                return level
        raise KeyError(key)

    @property
    def level_keys(self) -> tuple[str, ...]:
        return tuple(level.key for level in self.levels)

    def text_keys(self) -> set[str]:
        """Every catalog key this stage's data names (the runner adds the feedback keys)."""
        keys = {self.title, self.intro}
        for level in self.levels:
            for step in level.steps:
                keys.add(step.goal)
                if step.other:
                    keys.add(step.other)
        return keys


# -- reading --------------------------------------------------------------------------


class _Reader:
    """Checks one file's fields, remembering where it is for the error message."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.where = ""

    def fail(self, message: str, field_name: str | None = None) -> LessonError:
        where = self.where
        if field_name:
            where = f"{where}, {field_name}" if where else field_name
        return LessonError(self.source, where, message)

    def table(self, data: Any, name: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(f"must be a table, got {type(data).__name__}", name)
        return data

    def only(self, data: Mapping[str, Any], allowed: set[str], name: str = "") -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(allowed))})",
                            name or None)

    def need(self, data: Mapping[str, Any], name: str) -> Any:
        if name not in data:
            raise self.fail("is missing", name)
        return data[name]

    def integer(self, value: Any, name: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(f"must be a whole number {low}-{high}, got {value!r}", name)
        return value

    def key(self, value: Any, name: str) -> str:
        """A catalog key: text itself never appears in a lesson file."""
        if not isinstance(value, str) or not _KEY.match(value):
            raise self.fail(f"must be a catalog key such as 'goal.tap_value' (no text in the "
                            f"data: every word is in locales/*/LC_MESSAGES/lessons.po), "
                            f"got {value!r}", name)
        return value

    def slug(self, value: Any, name: str) -> str:
        if not isinstance(value, str) or not _SLUG.match(value):
            raise self.fail(f"must be lower-case letters, digits and _, got {value!r}", name)
        return value

    def card(self, value: Any, name: str) -> Card:
        if not isinstance(value, str):
            raise self.fail(f"must be a card such as '7o', got {value!r}", name)
        try:
            return Card.parse(value, strict=True)
        except EscobaError as exc:
            raise self.fail(str(exc), name) from None

    def cards(self, value: Any, name: str) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise self.fail(f"must be a list of cards such as ['7o', '8c'], got {value!r}", name)
        return tuple(self.card(v, f"{name}[{i}]") for i, v in enumerate(value))

    def move(self, value: Any, name: str) -> Move:
        if not isinstance(value, str):
            raise self.fail(f"must be a move such as '7o 3c 5e' (the card played, then the "
                            f"cards taken), got {value!r}", name)
        parts = value.split()
        cards = [self.card(p, name) for p in parts]
        if not cards:
            raise self.fail("must name the card played", name)
        return Move(cards[0], frozenset(cards[1:]))

    def moves(self, value: Any, name: str) -> tuple[Move, ...]:
        values = value if isinstance(value, list) else [value]
        return tuple(self.move(v, f"{name}[{i}]" if isinstance(value, list) else name)
                     for i, v in enumerate(values))

    def params(self, value: Any, name: str) -> dict[str, Any]:
        data = self.table(value, name)
        out: dict[str, Any] = {}
        for param, item in data.items():
            where = f"{name}.{param}"
            if is_card_param(param):
                out[param] = self.cards(item, where) if isinstance(item, list) \
                    else self.card(item, where)
            elif isinstance(item, int) and not isinstance(item, bool):
                out[param] = item
            else:
                raise self.fail(f"a parameter is a whole number, or cards when its name says "
                                f"so ({', '.join(sorted(CARD_PARAMS))}, *_card, *_cards, "
                                f"*_rank); got {item!r}", where)
        return out

    def rules(self, value: Any, name: str, base: Rules | None = None) -> Rules:
        data = dict(self.table(value, name))
        try:
            if base is None:
                return Rules.preset(data.pop("preset", "classic"), **data)
            if "preset" in data:
                preset = data.pop("preset")
                return Rules.preset(preset, **{**_changes(base), **data})
            return base.replace(**data)
        except EscobaError as exc:
            raise self.fail(str(exc), name) from None
        except TypeError as exc:
            raise self.fail(str(exc), name) from None


def _changes(rules: Rules) -> dict[str, Any]:
    out = rules.to_dict(only_changes=True)
    out.pop("preset")
    return out


_STAGE_FIELDS = {"key", "title", "intro", "intro_params", "rules", "levels", "picture"}
_LEVEL_FIELDS = {"key", "goal", "goal_params", "hints", "target", "check", "rules", "deal",
                 "position", "before", "game", "steps", "action", "expect", "reply", "other",
                 "consequence", "choices", "words"}
_STEP_FIELDS = {"action", "expect", "goal", "goal_params", "reply", "other", "consequence",
                "choices"}
_EXPECT_FIELDS = {
    "tap_card": {"value", "among", "with", "cards"},
    "play": {"moves"},
    "answer": {"question", *{a for args in QUESTIONS.values() for a in args}},
    "renuncio": set(),
    "game": set(),
}


def _deal(r: _Reader, data: Any, rules: Rules) -> Deal:
    data = r.table(data, "deal")
    r.only(data, {"dealer", "hands", "table"}, "deal")
    dealer = r.integer(data.get("dealer"), "deal.dealer", 0, rules.players - 1)
    hands = r.need(data, "hands")
    if not isinstance(hands, list):
        raise r.fail("must be a list of hands, one per seat", "deal.hands")
    deal = Deal(dealer, tuple(r.cards(h, f"deal.hands[{i}]") for i, h in enumerate(hands)),
                r.cards(r.need(data, "table"), "deal.table"))
    try:
        deck_for(rules, deal.hands, deal.table, deal.dealer)
    except EscobaError as exc:
        raise r.fail(str(exc), "deal") from None
    # The variant says what an opening table means (Escoba's initial fifteen, Scopa's
    # three re): a lesson's deal must be the table the child then plays on.
    verdict = variant_for(rules).opening_table(rules, mask_of(deal.table))
    if verdict != "play":
        why = (f"the table totals {rules.capture_sum}: under "
               f"initial_fifteen={rules.initial_fifteen}" if rules.variant == "escoba"
               else f"under {rules.variant}'s rules this opening table means {verdict}")
        raise r.fail(f"{why}; it would not stay on the table", "deal.table")
    return deal


def _position(r: _Reader, data: Any, rules: Rules) -> Position:
    data = r.table(data, "position")
    r.only(data, {"to_move", "hands", "table", "stock", "piles", "escobas", "last_capturer"},
           "position")
    n = rules.players
    hands = r.need(data, "hands")
    if not isinstance(hands, list):
        raise r.fail("must be a list of hands, one per seat", "position.hands")
    hand_cards = tuple(r.cards(h, f"position.hands[{i}]") for i, h in enumerate(hands))
    table = r.cards(data.get("table", []), "position.table")
    stock = r.cards(data["stock"], "position.stock") if "stock" in data else None
    piles = None
    if "piles" in data:
        raw = data["piles"]
        if not isinstance(raw, list):
            raise r.fail("must be a list of piles, one per seat", "position.piles")
        rest = [i for i, p in enumerate(raw) if p == "rest"]
        if len(rest) > 1:
            raise r.fail("only one pile can be 'rest'", "position.piles")
        listed = [() if p == "rest" else r.cards(p, f"position.piles[{i}]")
                  for i, p in enumerate(raw)]
        if rest:
            # "rest": every card no other place holds (the stock is then empty unless given).
            placed = {c for group in (*hand_cards, table, *listed, stock or ()) for c in group}
            listed[rest[0]] = tuple(c for c in _deck(rules) if c not in placed)
            if stock is None:
                stock = ()
        piles = tuple(listed)
    escobas = None
    if "escobas" in data:
        raw = data["escobas"]
        if not isinstance(raw, list):
            raise r.fail("must be a list of counts, one per seat", "position.escobas")
        escobas = tuple(r.integer(e, f"position.escobas[{i}]", 0, 20) for i, e in enumerate(raw))
    last = data.get("last_capturer")
    position = Position(
        r.integer(data.get("to_move", 0), "position.to_move", 0, n - 1), hand_cards, table,
        stock, piles, escobas,
        None if last is None else r.integer(last, "position.last_capturer", 0, n - 1))
    try:
        Round.from_position(rules, position.hands, position.table, to_move=position.to_move,
                            stock=position.stock, piles=position.piles,
                            escobas=position.escobas, last_capturer=position.last_capturer)
    except EscobaError as exc:
        raise r.fail(str(exc), "position") from None
    return position


def _deck(rules: Rules) -> list[Card]:
    return list(CARDS[: rules.deck_size])


def _kind(r: _Reader, action: str, data: Any, name: str) -> StepKind:
    """The step's kind, reading its own fields from ``expect``."""
    data = r.table(data if data is not None else {}, name)
    r.only(data, _EXPECT_FIELDS[action], name)
    return KINDS[action].parse(r, data, name)


def _step(r: _Reader, data: Mapping[str, Any], goal: str | None, goal_params: Mapping[str, Any],
          name: str) -> Step:
    action = data.get("action")
    if action not in ACTIONS:
        raise r.fail(f"must be one of {', '.join(ACTIONS)}, got {action!r}", f"{name}action")
    kind = _kind(r, action, data.get("expect"), f"{name}expect")
    step_goal = r.key(data["goal"], f"{name}goal") if "goal" in data else goal
    if step_goal is None:
        raise r.fail("is missing (on the level or the step)", f"{name}goal")
    params = r.params(data["goal_params"], f"{name}goal_params") if "goal_params" in data \
        else dict(goal_params)
    reply = r.moves(data["reply"], f"{name}reply") if "reply" in data else ()
    other = r.key(data["other"], f"{name}other") if "other" in data else None
    consequence = data.get("consequence", False)
    if not isinstance(consequence, bool):
        raise r.fail("must be true or false", f"{name}consequence")
    if consequence and action != "play":
        raise r.fail("only a play step has a consequence", f"{name}consequence")
    choices: tuple[int, ...] = ()
    if "choices" in data:
        if action != "answer" or not isinstance(data["choices"], list):
            raise r.fail("an answer step may list the numbers offered", f"{name}choices")
        choices = tuple(r.integer(c, f"{name}choices[{i}]", 0, 999)
                        for i, c in enumerate(data["choices"]))
        if len(set(choices)) != len(choices) or len(choices) < 2:
            raise r.fail("offers at least two different numbers", f"{name}choices")
    return Step(kind, step_goal, params, reply, other, consequence, choices)


def _level(r: _Reader, data: Any, index: int, stage_rules: Rules) -> Level:
    r.where = f"level {index}"
    data = r.table(data, "")
    key = r.slug(r.need(data, "key"), "key")
    r.where = f"level {index} '{key}'"
    r.only(data, _LEVEL_FIELDS)
    rules = r.rules(data["rules"], "rules", stage_rules) if "rules" in data else stage_rules
    if rules.players != 2 or rules.miscount != "retry":
        raise r.fail("a lesson is one child against one computer player, and a wrong sum is "
                     "tried again (players = 2, miscount = retry)", "rules")
    hints = data.get("hints")
    if hints not in HINTS:
        raise r.fail(f"must be one of {', '.join(HINTS)}, got {hints!r}", "hints")
    check = data.get("check", False)
    if not isinstance(check, bool):
        raise r.fail("must be true or false", "check")
    where = [k for k in ("deal", "position", "game") if k in data]
    if len(where) != 1:
        raise r.fail("a level has one of deal, position, game", None)
    goal = r.key(data["goal"], "goal") if "goal" in data else None
    goal_params = r.params(data.get("goal_params", {}), "goal_params")
    if "steps" in data:
        if "action" in data or "expect" in data:
            raise r.fail("a level has either steps or one action with its expect", "steps")
        raw_steps = data["steps"]
        if not isinstance(raw_steps, list) or not raw_steps:
            raise r.fail("must be a list of steps", "steps")
        steps = []
        for i, raw in enumerate(raw_steps):
            raw = r.table(raw, f"steps[{i}]")
            r.only(raw, _STEP_FIELDS, f"steps[{i}]")
            steps.append(_step(r, raw, goal, goal_params, f"steps[{i}]."))
    else:
        one = {k: v for k, v in data.items() if k in _STEP_FIELDS and k not in (
            "goal", "goal_params")}
        steps = [_step(r, one, goal, goal_params, "")]
    game = None
    deal = position = None
    if "game" in data:
        spec = r.table(data["game"], "game")
        r.only(spec, {"opponent", "seed", "target"}, "game")
        opponent = spec.get("opponent", "gentle")
        if opponent not in PLAYER_LEVELS:
            raise r.fail(f"must be one of {', '.join(PLAYER_LEVELS)}, got {opponent!r}",
                         "game.opponent")
        game = GameSpec(opponent, r.integer(spec.get("seed", 1), "game.seed", 0, 2**31),
                        r.integer(spec.get("target", rules.target), "game.target", 1, 200))
        if len(steps) != 1 or steps[0].action != "game":
            raise r.fail("a game level has the one action game", "action")
    else:
        if any(s.action == "game" for s in steps):
            raise r.fail("the action game needs a game table", "game")
        if "deal" in data:
            deal = _deal(r, data["deal"], rules)
        else:
            position = _position(r, data["position"], rules)
    before = r.moves(data["before"], "before") if "before" in data else ()
    default_target = len(steps) if game is None else 0
    target = r.integer(data.get("target", default_target), "target", 0, 500)
    if game is None and target < len(steps):
        raise r.fail(f"is {target}, fewer plays than the level's {len(steps)} steps", "target")
    words: tuple[str, ...] = ()
    if "words" in data:
        raw_words = data["words"]
        if not isinstance(raw_words, list) or any(w not in GLOSSARY for w in raw_words):
            raise r.fail(f"must list words of the glossary ({', '.join(GLOSSARY)}), got "
                         f"{raw_words!r}", "words")
        words = tuple(raw_words)
    _check_categories(r, steps, rules)
    level = Level(key, index, rules, hints, target, tuple(steps), check, deal, position, before,
                  game, words)
    if game is None:
        try:
            level.start_round()
        except EscobaError as exc:
            raise r.fail(f"a scripted move is refused: {exc}", "before") from None
    return level


def _check_categories(r: _Reader, steps: Sequence[Step], rules: Rules) -> None:
    """A question about a category the level's rules do not score (Scopa plays no sevens,
    classic Escoba no setenta) has no answer: refused when the file is read. The variant's
    own scoring says which are played."""
    empty = (0,) * rules.players
    played = {c.category for c in variant_for(rules).score(rules, empty, empty).categories
              if c.reason != "not_played"}
    for i, step in enumerate(steps):
        category = step.kind.args.get("category") if isinstance(step.kind, Answer) else None
        if category is not None and category not in played:
            raise r.fail(f"{category} is not scored under these rules ({rules.variant}: "
                         f"{', '.join(sorted(played))})", f"steps[{i}].expect.category"
                         if len(steps) > 1 else "expect.category")


def parse_stage(text: str, source: str, order: int = 0) -> Stage:
    """One stage from the text of its TOML file (``source`` names it in errors)."""
    r = _Reader(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise r.fail(f"not valid TOML: {exc}") from None
    r.only(data, _STAGE_FIELDS)
    key = r.slug(r.need(data, "key"), "key")
    title = r.key(r.need(data, "title"), "title")
    intro = r.key(r.need(data, "intro"), "intro")
    intro_params = r.params(data.get("intro_params", {}), "intro_params")
    rules = r.rules(data.get("rules", {}), "rules")
    if rules.players != 2 or rules.miscount != "retry":
        raise r.fail("a lesson is one child against one computer player, and a wrong sum is "
                     "tried again (players = 2, miscount = retry)", "rules")
    raw_levels = r.need(data, "levels")
    if not isinstance(raw_levels, list) or not MIN_LEVELS <= len(raw_levels) <= MAX_LEVELS:
        count = len(raw_levels) if isinstance(raw_levels, list) else 0
        raise r.fail(f"a stage has {MIN_LEVELS}-{MAX_LEVELS} levels, got {count}", "levels")
    levels = tuple(_level(r, raw, i, rules) for i, raw in enumerate(raw_levels, start=1))
    r.where = ""
    keys = [lv.key for lv in levels]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise r.fail(f"level key {twice[0]!r} is used twice", "levels")
    checks = [lv.index for lv in levels if lv.check]
    if checks != [len(levels)]:
        raise r.fail("the last level, and only it, is the stage's check (check = true)",
                     "levels")
    _check_fading(r, levels)
    picture = data.get("picture", "🃏")
    if not isinstance(picture, str) or not 1 <= len(picture) <= 4 or any(
            ch.isalnum() for ch in picture):
        raise r.fail(f"must be one emoji (a picture, no words), got {picture!r}", "picture")
    return Stage(key, order, title, intro, rules, levels, source, intro_params, picture)


def _check_fading(r: _Reader, levels: Sequence[Level]) -> None:
    """Hints fade over a stage (full, then some, then none) and the check has none; a
    whole game keeps the game's own hints and is left out."""
    scripted = [lv for lv in levels if not lv.is_game]
    for before, after in zip(scripted, scripted[1:], strict=False):
        if _HINT_ORDER[after.hints] < _HINT_ORDER[before.hints]:
            r.where = f"level {after.index} '{after.key}'"
            raise r.fail(f"hints come back ({before.hints} then {after.hints}): they fade "
                         f"over a stage", "hints")
    last = levels[-1]
    if not last.is_game and last.hints != "none":
        r.where = f"level {last.index} '{last.key}'"
        raise r.fail("the check level has no hints (hints = 'none')", "hints")


def load_file(path: Path, order: int = 0) -> Stage:
    """One stage file."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise LessonError(str(path), "", f"not UTF-8 text: {exc}") from None
    return parse_stage(text, _shown(path), order)


def _shown(path: Path) -> str:
    parts = path.parts
    return "/".join(parts[-2:]) if len(parts) >= 2 else str(path)
