"""The lesson runner: one child going through the lesson path, level by level (no Streamlit).

A level (``lessons/*.toml``, see :mod:`lessons`) is a scripted position and one or
more steps; in each the child taps a card, plays a card, answers a number, calls
¡renuncio! or plays a whole game. :class:`LessonRunner` holds where the child is:
the page draws :meth:`LessonRunner.view` and hands the child's action to
:meth:`~LessonRunner.tap`, :meth:`~LessonRunner.play`, :meth:`~LessonRunner.answer`
or :meth:`~LessonRunner.claim_renuncio`; each answers with an :class:`Outcome`. A
finished level leads to the next by itself; a stage ends on its completion card.

The engine is the only judge. A move is checked with :meth:`escoba.Round.check`
and played with :meth:`escoba.Round.attempt`; a refusal's code and parameters
become the feedback ("7 + 5 = 12: you need 3 more"). What a question's answer is
comes from the engine too (a card's value, the table's total, the round's score).
The runner only compares: is this the move the goal asks for, is this the number.

Stars (as lichess's Learn): finishing a level always earns at least one; three
for the target number of plays (every try counts, right or wrong); two for a
little more. Retries are unlimited; the best score is kept in storage the moment
a level is done, and never lowered.

Texts are :class:`Message` values (a catalog key, parameters with :class:`Card`
values, a domain); :func:`say` words them in the child's language and deck.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeVar

from escoba import (
    Card,
    Code,
    Deck,
    EscobaError,
    Move,
    Observation,
    Play,
    Renuncio,
    Round,
    Rules,
    Suit,
)
from escoba.bots import make_player
from escoba.cards import CARDS, SIETE_DE_OROS, value_sum
from escoba.scoring import RoundScore
from escoba.variants import EscobaVariant, variant_for
from lessons import (
    CHILD,
    Answer,
    CallRenuncio,
    Judgement,
    LessonError,
    Level,
    PlayCard,
    Stage,
    Step,
    TapCard,
    WholeGame,
    best_claim,
    load_stages,
    question_cards,
)

from .gameplay import GameSession, SeatSpec, bot_avatar
from .hints import assess, game_hint
from .i18n import card_name, cards_name, rank_name, t
from .storage import Storage
from .verdicts import capture_terms, move_message, sum_expression
from .words import sweep_word_key

__all__ = ["Message", "Outcome", "LevelResult", "LessonView", "LessonRunner", "StageSummary",
           "WonPile", "question_cards",
           "stars_for", "verdict_feedback", "verdict_look", "say", "stage_summaries",
           "next_lesson", "opening_level", "sum_to_make",
           "suggest_lessons",
           "FEEDBACK_KEYS", "DOMAIN", "STATUSES", "LessonRecorder", "GOAL_WORDS",
           "words_to_read"]

#: The catalog domain of lesson texts (``locales/<lang>/LC_MESSAGES/lessons.po``).
DOMAIN = "lessons"
#: ``playing`` a step; ``consequence``: a wrong move was played and answered, the page
#: shows it until :meth:`LessonRunner.retry`; ``round_over`` (a game level between
#: rounds, :meth:`LessonRunner.next_round`); ``level_done`` (:meth:`LessonRunner.advance`
#: goes on); ``stage_done``: the completion card.
STATUSES: tuple[str, ...] = ("playing", "consequence", "round_over", "level_done", "stage_done")
#: A step kind's type, for :meth:`LessonRunner._kind`.
K = TypeVar("K", TapCard, PlayCard, Answer, CallRenuncio, WholeGame)

#: Every feedback key the runner itself can give (the levels add their ``other`` keys).
FEEDBACK_KEYS: frozenset[str] = frozenset({
    "fb.wrong_sum_more", "fb.wrong_sum_over", "fb.wrong_sum_joker", "fb.capture_forced",
    "fb.card_not_on_table", "fb.not_in_hand", "fb.not_your_turn", "fb.not_allowed",
    "fb.renuncio_nothing", "fb.renuncio_not_allowed", "fb.renuncio_wrong_card",
    "fb.renuncio_cannot_take", "fb.renuncio_first", "fb.tap_value", "fb.tap_in_hand",
    "fb.tap_on_table", "fb.tap_other", "fb.answer_more", "fb.answer_less", "fb.other_move",
    "fb.not_now", "fb.then_escoba", "fb.then_takes", "fb.then_lays", "fb.coach_best",
    "fb.coach_better_take", "fb.coach_better_lay", "fb.right", "fb.escoba",
    # Scopa's words: its sweep, and where the equal card lies (its refusals themselves are
    # the app's own wordings, in the messages catalog: trainer.verdicts.move_message).
    "fb.scopa", "fb.then_scopa", "fb.look_equal", "fb.look_capturing_scopa",
    "fb.look_capturing_scopa_lit",
})


class Message(NamedTuple):
    """A text to show: a catalog key, its parameters (cards as :class:`Card`), its domain."""

    key: str
    params: Mapping[str, Any] = {}
    domain: str = DOMAIN


@dataclass(frozen=True)
class LevelResult:
    """A finished level: its stars and plays, and the best ever stored (when saved)."""

    stage: str
    level: str
    stars: int
    plays: int
    target: int
    best_stars: int | None = None
    best_plays: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What one action of the child did.

    ``ok``: it was the right action (the level goes on, or is done). ``feedback``:
    why not, or praise. ``counted``: it counted as a play (an action the step does
    not take, such as a tap while a number is asked, does not). ``events``: what was
    played, the child's move first, then the computer's scripted replies.
    ``consequence``: what the computer did with a wrong move (the level then waits
    for :meth:`LessonRunner.retry`). ``comment``: the coach on a move in a whole game.
    ``result``: the level's stars when this action finished it.
    """

    ok: bool
    feedback: Message | None = None
    counted: bool = True
    events: tuple[Play, ...] = ()
    consequence: Message | None = None
    comment: Message | None = None
    result: LevelResult | None = None

    @property
    def done(self) -> bool:
        """Whether this action finished the level."""
        return self.result is not None


@dataclass(frozen=True)
class LessonView:
    """Everything the page draws for the current level, and nothing it must work out.

    Cards are :class:`Card` values; the opponent's hand is a count only. ``glow``
    are the cards to light up, already faded for the level's ``hints``. ``plays``
    against ``target`` are tries (``counting == "plays"``), or in a whole game the
    wrong tries against those allowed for three stars (``"mistakes"``).
    ``observation`` is the child's seat's :class:`~escoba.Observation` (``None`` on
    the completion card); ``game`` the :class:`~trainer.gameplay.GameSession` of a
    whole-game level, for the page's game board.
    """

    stage: str
    stage_title: Message
    stage_intro: Message
    level: str
    level_index: int  # 1-based
    level_count: int
    step_index: int  # 1-based
    step_count: int
    status: str
    action: str
    goal: Message
    seat: int
    to_move: int
    your_turn: bool
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    opponent_counts: tuple[int, ...]
    stock_count: int
    piles: tuple[tuple[Card, ...], ...]
    escobas: tuple[int, ...]
    glow: tuple[Card, ...]
    hints: str
    plays: int
    target: int
    counting: str
    choices: tuple[int, ...]
    renuncio_rule: bool
    capture_sum: int
    check: bool
    events: tuple[Play, ...] = ()
    feedback: Message | None = None
    consequence: Message | None = None
    result: LevelResult | None = None
    #: Changes whenever what the board shows changes (a level, a step, a try, a move):
    #: the board's action names the position it was drawn for, so a stale one is ignored.
    position: str = ""
    observation: Observation | None = None
    game: GameSession | None = None
    next_stage: str | None = None
    stage_results: tuple[LevelResult, ...] = ()
    #: What the question is about, on the screen: the won piles opened (the child's first;
    #: both when the question compares the two sides) and the round's score table.
    piles_shown: tuple[WonPile, ...] = ()
    score: RoundScore | None = None
    #: Wrong tries at this step so far: the board clears the picked table cards after
    #: each refusal and keeps the hand card (the same as Play's board).
    refusals: int = 0
    #: After the stage's last level: where the path goes next (``"play"`` after the first
    #: whole game: a real game, not the next stage).
    then: str = "stage"
    #: In a whole game, how much the coach helps this turn: 2 the best move lit (the
    #: game's first moves), 1 a nudge in words (the next ones), 0 nothing unless asked.
    game_hint_step: int = 0
    #: The words of the game this level uses first on the path (explained on it).
    words: tuple[str, ...] = ()
    #: A tap step's hand card that the tapped table card goes with: shown picked.
    picked: Card | None = None

    @property
    def has_board(self) -> bool:
        """Whether the level is drawn on a board. A question about a finished round has
        nothing to put on one (no hand, no table, no move just made to show): its goal
        stands alone, and a level finished there has no board to be played out on."""
        return self.game is not None or bool(self.hand or self.table or self.events)


@dataclass(frozen=True)
class WonPile:
    """One side's won cards, opened and grouped for counting (a question about a round's
    points): its oros (the siete de oros first), its other sevens, the rest, and its
    escobas. ``seat`` 0 is the child."""

    seat: int
    oros: tuple[Card, ...]
    sevens: tuple[Card, ...]
    others: tuple[Card, ...]
    escobas: int
    #: The groups ("oros", "sevens", "others", "escobas") the question counts, shown
    #: open; the rest may be folded away. Empty: all of them count.
    counted: tuple[str, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.oros + self.sevens + self.others

    def is_counted(self, group: str) -> bool:
        return not self.counted or group in self.counted

    @classmethod
    def of(cls, seat: int, pile: Iterable[Card], escobas: int,
           counted: tuple[str, ...] = ()) -> WonPile:
        cards = sorted(pile, key=lambda c: (c != SIETE_DE_OROS, c.suit.value, c.value))
        oros = tuple(c for c in cards if c.suit is Suit.OROS)
        sevens = tuple(c for c in cards if c.value == 7 and c.suit is not Suit.OROS)
        others = tuple(c for c in cards if c not in oros and c not in sevens)
        return cls(seat, oros, sevens, others, escobas, counted)


class LessonRecorder(Protocol):
    """Where finished levels and the tries before them go (:class:`trainer.storage.Storage`
    is one)."""

    def record_lesson(self, profile_id: int, stage: str, level: str, stars: int,
                      plays: int) -> Any: ...

    def record_lesson_try(self, profile_id: int, stage: str, level: str, *,
                          right: bool) -> Any: ...


def stars_for(plays: int, target: int) -> int:
    """Lichess's rule: 3 stars within the target, 2 a little over it, else 1 (never 0)."""
    if plays <= target:
        return 3
    if plays <= target + max(1, math.ceil(target / 4)):
        return 2
    return 1


# -- the engine's verdicts as lesson feedback ------------------------------------------


def _cards(notations: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(n) for n in notations)


def sum_to_make(rules: Rules) -> int | None:
    """The one sum every capture makes under ``rules`` (Escoba's 15, or 10 in stage 12), or
    ``None`` when the variant has none: under Scopa each card makes its own value, so no
    lesson text may say "make 15" (the runner gives such a text no ``{sum}`` to fill)."""
    return rules.capture_sum if isinstance(variant_for(rules), EscobaVariant) else None


#: The refusals only Scopa gives: worded as the app words them in a game (the messages
#: catalog, :func:`trainer.verdicts.move_message`), not written a second time here; so
#: are its wrong sum (``sum_of="table"``) and its forced capture (no "make 15" in it).
_GAME_WORDED = frozenset({Code.MUST_TAKE_EQUAL, Code.ACE_TAKES_ALL})


def verdict_feedback(verdict: EscobaError, rules: Rules) -> Message:
    """The feedback for a refused move or claim, from the engine's code and parameters.

    The sum is the engine's (its terms, total and the sum needed); the runner only
    says how far it is from the sum ("you need 3 more", "2 too many"). Under Scopa
    (``rules``; the code and its ``sum_of`` say it too) the refusal reads as a Scopa
    game says it: "7 is the target: 3 + 2 makes 5", "take the 7 first".
    """
    p = verdict.params
    code = verdict.code
    no_fixed_sum = sum_to_make(rules) is None
    if code in _GAME_WORDED or (code == Code.WRONG_SUM and p.get("sum_of") == "table") or (
            code == Code.CAPTURE_FORCED and no_fixed_sum):
        key, params = move_message(verdict)
        return Message(key, params, "messages")
    if code == Code.WRONG_SUM:
        expr = sum_expression(p["values"])
        if p["jokers"]:
            return Message("fb.wrong_sum_joker", {"expr": expr, "sum": p["need"]})
        if p["total"] < p["need"]:
            return Message("fb.wrong_sum_more", {"expr": expr, "total": p["total"],
                                                 "sum": p["need"], "more": p["need"] - p["total"]})
        return Message("fb.wrong_sum_over", {"expr": expr, "total": p["total"], "sum": p["need"],
                                             "over": p["total"] - p["need"]})
    if code == Code.CAPTURE_FORCED:
        return Message("fb.capture_forced", {"card": Card.parse(p["card"]), "count": p["count"]})
    if code == Code.CARD_NOT_ON_TABLE:
        cards = _cards(p["cards"])
        return Message("fb.card_not_on_table", {"cards": cards, "count": len(cards)})
    if code == Code.NOT_IN_HAND:
        return Message("fb.not_in_hand", {"card": Card.parse(p["card"])})
    if code in (Code.NOT_YOUR_TURN, Code.ROUND_OVER, Code.NO_ROUND):
        return Message("fb.not_your_turn")
    if code == Code.RENUNCIO_NOTHING:
        return Message("fb.renuncio_nothing")
    if code == Code.RENUNCIO_NOT_ALLOWED:
        return Message("fb.renuncio_not_allowed")
    if code == Code.RENUNCIO_WRONG_CARD:
        return Message("fb.renuncio_wrong_card", {"card": Card.parse(p["laid"])})
    if code == Code.RENUNCIO_CANNOT_TAKE:
        return Message("fb.renuncio_cannot_take", {"card": Card.parse(p["card"])})
    return Message("fb.not_allowed")


def verdict_look(verdict: EscobaError) -> Message | None:
    """Where to look after a refusal, when the refusal's words do not show it: the
    table card of the same value that must be taken first (Scopa), named."""
    if verdict.code == Code.MUST_TAKE_EQUAL:
        equal = _cards(verdict.params["equal"])
        return Message("fb.look_equal", {"cards": equal,
                                         "value": verdict.params["value"]})
    return None


def _then(play: Play, rules: Rules) -> Message:
    """What the computer did, as the consequence of a wrong move (a sweep in the game's
    own word: escoba, scopa)."""
    card = play.card
    if play.take_mask:
        key = (sweep_word_key("fb.then_escoba", rules.variant) if play.escoba
               else "fb.then_takes")
        return Message(key, {"card": card, "cards": tuple(sorted(play.take)),
                             "count": len(play.take) + 1})
    return Message("fb.then_lays", {"card": card})


# -- words ---------------------------------------------------------------------------


def _worded(name: str, value: Any, deck: Deck, lang: str | None) -> Any:
    if isinstance(value, Card):
        if name == "rank" or name.endswith("_rank"):
            return rank_name(value, deck, lang)
        return card_name(value, deck, lang)
    if isinstance(value, (tuple, list, frozenset)) and all(isinstance(v, Card) for v in value):
        return cards_name(value, deck, lang)
    return value


#: The most words a child must read before acting (issue 23): a level's goal is within it
#: in every language (tests/test_lessons.py), the page around it too (in the browser,
#: tests/test_browser_screen.py).
GOAL_WORDS = 15

#: A Chinese text has no spaces: its words are counted from its characters, 1.6 to a word
#: (the IReST norms: Chinese is read at 255 characters, 158 words a minute).
_HAN_PER_WORD = 1.6
_HAN = re.compile(r"[\u3400-\u9fff]")
_LETTER = re.compile(r"[^\W\d_]")


def words_to_read(text: str) -> int:
    """How many words ``text`` asks a reader to read: runs with a letter in them
    (numbers and symbols are not read as words), 1.6 Chinese characters a word."""
    han = len(_HAN.findall(text))
    rest = _HAN.sub(" ", text)
    return math.ceil(han / _HAN_PER_WORD) + sum(1 for w in rest.split() if _LETTER.search(w))


def say(message: Message, lang: str | None = None, deck: Deck = Deck.SPANISH) -> str:
    """A message in the child's language, its cards named in the child's deck
    (``rank`` and ``*_rank`` by the rank only: "Sota", "J", "Fante")."""
    params = {name: _worded(name, value, deck, lang) for name, value in message.params.items()}
    return t(message.key, lang, domain=message.domain, **params)


# -- the map -------------------------------------------------------------------------


@dataclass(frozen=True)
class StageSummary:
    """One stage on the lesson map: "3 / 6 levels, 14 stars"."""

    stage: str
    done: int
    total: int
    stars: int

    @property
    def max_stars(self) -> int:
        return 3 * self.total

    @property
    def state(self) -> str:
        """``new`` (no level done), ``started`` or ``done`` (every level)."""
        if not self.done:
            return "new"
        return "done" if self.done >= self.total else "started"


class _Best(Protocol):
    stars: int


def stage_summaries(results: Mapping[tuple[str, str], _Best],
                    stages: Sequence[Stage] | None = None) -> dict[str, StageSummary]:
    """Each stage's summary from a profile's best results (``Storage.lesson_results``).

    Only the stage's current levels count: a result of a level since removed is ignored.
    """
    out: dict[str, StageSummary] = {}
    for stage in stages if stages is not None else load_stages():
        best = [results[(stage.key, k)] for k in stage.level_keys if (stage.key, k) in results]
        out[stage.key] = StageSummary(stage.key, len(best), len(stage.levels),
                                      sum(b.stars for b in best))
    return out


def suggest_lessons(results: Mapping[tuple[str, str], Any],
                    stages: Sequence[Stage] | None = None, through: str = "escoba") -> bool:
    """Whether Play should still suggest the lessons: until every level of the stages up
    to ``through`` (stage 6, the escoba) is done. A suggestion only: nothing is locked."""
    for stage in stages if stages is not None else load_stages():
        if any((stage.key, key) not in results for key in stage.level_keys):
            return True
        if stage.key == through:
            return False
    return False


def next_lesson(results: Mapping[tuple[str, str], Any],
                stages: Sequence[Stage] | None = None) -> tuple[str, str] | None:
    """The first level not done yet, in path order (a suggestion: nothing is locked)."""
    for stage in stages if stages is not None else load_stages():
        for key in stage.level_keys:
            if (stage.key, key) not in results:
                return stage.key, key
    return None


def opening_level(stage: Stage, results: Mapping[tuple[str, str], Any]) -> str:
    """The level a stage opens at (the map's Open, a pupil's assignment): its first level
    not done yet, so a half-done stage goes on where the child stopped; a stage done (or
    not begun) opens at its first level, to play it again."""
    return next((key for key in stage.level_keys if (stage.key, key) not in results),
                stage.level_keys[0])


# -- the runner ---------------------------------------------------------------------------


@dataclass
class _State:
    """Where the child is inside the current level."""

    round: Round | None = None
    step: int = 0
    plays: int = 0
    status: str = "playing"
    events: tuple[Play, ...] = ()
    feedback: Message | None = None
    consequence: Message | None = None
    result: LevelResult | None = None
    game: GameSession | None = None
    glow: tuple[Card, ...] = ()
    stage_results: list[LevelResult] = field(default_factory=list)
    #: Wrong tries at the current step (the board clears its picked table cards on each).
    refusals: int = 0
    #: How many times a level was begun in this runner: a new go is a new board position.
    go: int = 0
    #: In a whole game: the child's moves so far (its hints fade with them), and the
    #: position at which the child asked for a hint after they faded.
    game_moves: int = 0
    asked: str | None = None


class LessonRunner:
    """One child's lessons: start a stage (or a level of it), act, go on.

    ``storage`` and ``profile_id``, when given, receive each finished level at once
    (:meth:`trainer.storage.Storage.record_lesson`: one transaction, best kept), and
    every counted try that does not finish it (:meth:`~trainer.storage.Storage.record_lesson_try`:
    the go a teacher sees when a pupil is stuck on a level). A
    finished level leads to the next by itself (``auto_advance``), and the last level
    of a stage to its completion card (``stage_done``).
    """

    def __init__(self, stages: Sequence[Stage] | None = None, *,
                 storage: LessonRecorder | None = None, profile_id: int | None = None,
                 player_name: str = "🙂", auto_advance: bool = True) -> None:
        self.stages: tuple[Stage, ...] = tuple(stages if stages is not None else load_stages())
        if not self.stages:
            raise ValueError("no lesson stages")
        #: Go on to the next level by itself the moment one is done (the finishing
        #: :class:`Outcome` carries its stars and what was played). ``False`` holds the
        #: finished level (``level_done``) until :meth:`advance`.
        self.auto_advance = auto_advance
        self.storage = storage
        self.profile_id = profile_id
        self.player_name = player_name
        self.stage: Stage = self.stages[0]
        self.level: Level = self.stage.levels[0]
        self._s = _State()
        self._begin_level()

    # -- where the child is ----------------------------------------------------------
    def start(self, stage: str, level: str | int | None = None) -> LessonView:
        """Open ``stage`` at ``level`` (its key or 1-based number; default the first).
        Every stage and level is open: the path suggests, it never locks."""
        found = next((s for s in self.stages if s.key == stage), None)
        if found is None:
            raise KeyError(f"no lesson stage {stage!r}")
        if level is None:
            chosen = found.levels[0]
        elif isinstance(level, int):
            if not 1 <= level <= len(found.levels):
                raise KeyError(f"stage {stage!r} has levels 1-{len(found.levels)}")
            chosen = found.levels[level - 1]
        else:
            chosen = found.level(level)
        if found is not self.stage:
            self._s.stage_results = []
        self.stage, self.level = found, chosen
        self._begin_level()
        return self.view()

    @property
    def step(self) -> Step:
        return self.level.steps[min(self._s.step, len(self.level.steps) - 1)]

    @property
    def status(self) -> str:
        return self._s.status

    @property
    def plays(self) -> int:
        return self._s.plays

    @property
    def round(self) -> Round | None:
        """The level's round (``None`` in a whole-game level: see :attr:`game`)."""
        return self._s.round

    @property
    def game(self) -> GameSession | None:
        return self._s.game

    def next_stage(self) -> str | None:
        """The stage after this one in the path, if any."""
        index = self.stages.index(self.stage)
        return self.stages[index + 1].key if index + 1 < len(self.stages) else None

    # -- what the page draws ----------------------------------------------------------
    def view(self) -> LessonView:
        s, level, step = self._s, self.level, self.step
        obs = self._observation()
        rules = level.rules
        n = rules.players
        goal_params = {**self._sum_param(), **step.goal_params, **self._answer_context()}
        shown = self._shown()
        if level.game is not None:
            goal_params["target"] = level.game.target
        if obs is not None:
            hand, table = obs.hand, obs.table
            counts = tuple(obs.hand_counts[(CHILD + k) % n] for k in range(1, n))
            piles, escobas = obs.piles, obs.escobas
            to_move, stock = obs.to_move, obs.stock_count
            your_turn = obs.is_my_turn
        else:
            hand = table = ()
            counts, piles, escobas = (0,) * (n - 1), ((),) * n, (0,) * n
            to_move, stock, your_turn = CHILD, 0, False
        return LessonView(
            stage=self.stage.key, stage_title=Message(self.stage.title),
            stage_intro=Message(self.stage.intro, dict(self.stage.intro_params)),
            level=level.key, level_index=level.index,
            level_count=len(self.stage.levels), step_index=min(s.step, len(level.steps) - 1) + 1,
            step_count=len(level.steps), status=s.status, action=step.action,
            goal=Message(step.goal, goal_params), seat=CHILD, to_move=to_move,
            your_turn=your_turn, hand=hand, table=table, opponent_counts=counts,
            stock_count=stock, piles=piles, escobas=escobas,
            glow=self._game_glow(obs) if level.is_game else s.glow, hints=level.hints,
            plays=s.plays, target=level.target,
            counting="mistakes" if level.is_game else "plays", choices=step.choices,
            renuncio_rule=rules.capture_rule == "renuncio", capture_sum=rules.capture_sum,
            check=level.check, events=s.events, feedback=s.feedback, consequence=s.consequence,
            result=s.result, position=self._position(obs), observation=obs, game=s.game,
            next_stage=self.next_stage() if s.status == "stage_done" else None,
            stage_results=tuple(s.stage_results), piles_shown=shown[0], score=shown[1],
            refusals=s.refusals,
            then="play" if self.stage.levels[-1].is_game else "stage",
            game_hint_step=self._game_hint_step(obs), words=level.words,
            picked=step.kind.with_card if isinstance(step.kind, TapCard) else None)

    def _position(self, obs: Observation | None) -> str:
        s = self._s
        moves = len(obs.history) if obs is not None else 0
        rounds = obs.round_number if obs is not None else 0
        # Not the count of tries: a refused try leaves the board where it is (its picked
        # hand card stays, the table cards are cleared: ``refusals``), as Play's does.
        return (f"l:{self.stage.key}:{self.level.key}:{s.go}:{s.step}:{s.status}:"
                f"{rounds}:{moves}")

    def _observation(self) -> Observation | None:
        s = self._s
        if s.game is not None:
            return s.game.observation(CHILD)
        return s.round.observation(CHILD) if s.round is not None else None

    #: A whole game's hints fade with the child's moves: the best move lit for the first
    #: ones, then a nudge in words, then nothing unless the child asks.
    GAME_LIT_MOVES, GAME_NUDGE_MOVES = 3, 8

    def _game_hint_step(self, obs: Observation | None) -> int:
        s = self._s
        if obs is None or s.game is None or self.level.hints == "none" or not obs.is_my_turn \
                or s.status != "playing":
            return 0
        if s.asked is not None and s.asked == self._position(obs):
            return 2
        if s.game_moves < self.GAME_LIT_MOVES:
            return 2
        return 1 if s.game_moves < self.GAME_NUDGE_MOVES else 0

    def _game_glow(self, obs: Observation | None) -> tuple[Card, ...]:
        """In a whole game: the coach's best move lit while its hints are at full (as
        the Play board's hint does at its second step), else nothing."""
        if self._game_hint_step(obs) < 2:
            return ()
        assert obs is not None
        return tuple(game_hint(obs, 2).lit)

    def ask_hint(self) -> LessonView:
        """In a whole game after its hints faded: light the coach's move for this turn."""
        obs = self._observation()
        if self._s.game is not None and obs is not None and obs.is_my_turn:
            self._s.asked = self._position(obs)
        return self.view()

    def _shown(self) -> tuple[tuple[WonPile, ...], RoundScore | None]:
        """What the step's question needs on the screen (the kind says): the won piles
        opened, the round's score table."""
        s = self._s
        round_ = s.round
        if round_ is None or s.status != "playing":
            return (), None
        shown = self.step.kind.shows(round_)
        piles = tuple(WonPile.of(seat, round_.pile(seat), round_.escobas[seat], shown.groups)
                      for seat in shown.piles)
        return piles, round_.score() if shown.score else None

    # -- the child's actions ---------------------------------------------------------
    def tap(self, card: Card) -> Outcome:
        """The child taps ``card`` (a ``tap_card`` step)."""
        kind = self._kind(TapCard)
        if kind is None:
            return self._not_now()
        self._s.plays += 1
        return self._judged(kind.judge(self._round(), card, self.step.other))

    def play(self, card: Card, take: Iterable[Card] = ()) -> Outcome:
        """The child plays ``card`` taking the table cards ``take`` (none: lays it down)."""
        move = Move(card, frozenset(take))
        if self._kind(WholeGame) is not None:
            return self._game_play(move)
        if self._kind(CallRenuncio) is not None:  # the claim comes first: a wrong try
            self._s.plays += 1
            return self._wrong(Message("fb.renuncio_first"))
        kind = self._kind(PlayCard)
        if kind is None:
            return self._not_now()
        self._s.plays += 1
        round_ = self._round()
        judged = kind.judge(round_, move)
        if judged.right:
            attempt = round_.attempt(move, CHILD)
            assert attempt.play is not None  # judged legal just above
            return self._right((attempt.play,))
        if not judged.legal:
            return self._judged(judged)
        step = self.step
        why = Message(step.other or "fb.other_move", self._move_facts(kind, move))
        if not step.consequence:
            return self._wrong(why)
        return self._consequence(move, why)

    def answer(self, number: int) -> Outcome:
        """The child answers a number (an ``answer`` step)."""
        kind = self._kind(Answer)
        if kind is None:
            return self._not_now()
        self._s.plays += 1
        return self._judged(kind.judge(self._round(), number, lit=bool(self._s.glow)))

    def claim_renuncio(self) -> Outcome:
        """The child calls ¡renuncio!: the best claim the engine offers (most cards).

        Only a level under the renuncio rule has the button (:attr:`LessonView.renuncio_rule`);
        elsewhere the engine's ``renuncio_not_allowed`` is said and no play is counted."""
        s = self._s
        if s.status != "playing" or s.round is None:
            return self._not_now()
        round_ = s.round
        if self.level.rules.capture_rule != "renuncio":  # no button to press: not a try
            verdict = round_.check_claim(Renuncio(CARDS[0], frozenset()))
            assert verdict is not None  # renuncio_not_allowed
            return Outcome(False, self._with_sum(verdict_feedback(verdict, self.level.rules)),
                           counted=False)
        s.plays += 1
        judged = CallRenuncio().judge(round_)
        if not judged.right:
            return self._judged(judged)
        if self._kind(CallRenuncio) is None:  # a level never offers a claim it does not ask
            return self._wrong(Message("fb.not_now"))
        claim = best_claim(round_)
        assert claim is not None
        return self._right((round_.claim_renuncio(claim),))

    # -- going on ---------------------------------------------------------------------
    def retry(self) -> LessonView:
        """After a consequence: the level's position again; the plays so far still count."""
        plays = self._s.plays
        self._begin_level()
        self._s.plays = plays
        return self.view()

    def restart(self) -> LessonView:
        """The level from the start, plays back to 0 (a fresh go for three stars)."""
        self._begin_level()
        return self.view()

    def advance(self) -> LessonView:
        """After a level is done: the next level of the stage, or the completion card
        (``stage_done``); from the completion card, the next stage."""
        s = self._s
        if s.status == "stage_done":
            following = self.next_stage()
            return self.start(following) if following is not None else self.view()
        if s.status != "level_done":
            return self.view()
        if self.level.index < len(self.stage.levels):
            self.level = self.stage.levels[self.level.index]
            self._begin_level()
        else:
            s.status = "stage_done"
        return self.view()

    def next_round(self) -> LessonView:
        """In a whole-game level, deal the next round after the score table."""
        s = self._s
        if s.game is not None and s.status == "round_over":
            s.game.next_round()
            s.game.run_bots()
            s.status = "playing"
        return self.view()

    # -- answers worked out by the engine ---------------------------------------------
    def expected_answer(self) -> int:
        """The number an ``answer`` step asks for, from the engine (the kind asks it)."""
        kind = self.step.kind
        assert isinstance(kind, Answer), "not an answer step"
        try:
            return kind.answer(self._round())
        except ValueError as exc:
            raise LessonError(self.stage.source, f"level {self.level.key}", str(exc)) from None

    def _answer_context(self) -> dict[str, Any]:
        """For a question about a category's points: both sides' counts (the goal says
        them)."""
        kind, round_ = self.step.kind, self._s.round
        return kind.context(round_) if isinstance(kind, Answer) and round_ is not None else {}

    # -- inside ---------------------------------------------------------------------------
    def _begin_level(self) -> None:
        keep, go = self._s.stage_results, self._s.go + 1
        self._s = _State(stage_results=keep, go=go)
        level = self.level
        if level.is_game:
            spec = level.game
            assert spec is not None
            rules = level.rules.replace(target=spec.target)
            seats = [SeatSpec("human", self.player_name),
                     # "Computer 1" as Play names its one computer player (and the lesson's
                     # board does): said in the viewer's language whenever it is drawn.
                     SeatSpec("bot", t("bot_name", "en", n=1), bot_avatar(1), spec.opponent)]
            # A real game, saved as every game is (My games), when the runner has the storage.
            games = self.storage if isinstance(self.storage, Storage) else None
            game = GameSession.new(rules, seats, spec.seed, storage=games,
                                   profile_id=self.profile_id if games is not None else None,
                                   options={"lesson": f"{self.stage.key}/{level.key}"})
            game.run_bots()
            self._s.game = game
            return
        round_ = level.start_round()
        self._s.round = round_
        self._s.events = round_.history  # the scripted opening moves, to show
        self._s.glow = self._glow()

    def _round(self) -> Round:
        round_ = self._s.round
        assert round_ is not None
        return round_

    def _kind(self, kind: type[K]) -> K | None:
        """The step's kind if it is ``kind`` and the step takes a try now, else None."""
        s, found = self._s, self.step.kind
        if s.status != "playing" or not isinstance(found, kind):
            return None
        if s.round is None and not isinstance(found, WholeGame):
            return None
        return found

    def _not_now(self) -> Outcome:
        return Outcome(False, Message("fb.not_now"), counted=False)

    def _judged(self, judged: Judgement) -> Outcome:
        """A kind's judgement as the child hears it: praise, the engine's refusal in its
        words, or the step's feedback (and where to look)."""
        if judged.right:
            return self._right()
        if judged.refusal is not None:
            return self._wrong(verdict_feedback(judged.refusal, self.level.rules),
                               verdict_look(judged.refusal))
        assert judged.key is not None
        return self._wrong(Message(judged.key, judged.params),
                           Message(judged.look) if judged.look is not None else None)

    def _move_facts(self, kind: PlayCard, move: Move) -> dict[str, Any]:
        """What a legal move does, for the level's feedback: the cards it wins, the table
        it leaves; and the same of the move the step asks for (``best_…``). Played on
        copies of the round: the engine says what happens."""
        facts = self._facts_of(move)
        right = kind.right_moves(self._round())
        if right:
            facts.update({f"best_{k}": v for k, v in self._facts_of(right[0]).items()})
        return facts

    def _facts_of(self, move: Move) -> dict[str, Any]:
        trial = self._round().copy()
        played = trial.play(move, CHILD)
        won = tuple(sorted(played.take | {move.card})) if played.take_mask else ()
        # The sum as the game writes it: Escoba's card and table cards to 15, Scopa's
        # table cards to the card's value.
        rules = self.level.rules
        values: Sequence[int | str]
        values, total, _jokers = move.sum_terms()
        terms = capture_terms(rules, move) if move.take else None
        if sum_to_make(rules) is None and terms is not None:
            values, total = terms
        return {"card": move.card, "cards": tuple(sorted(move.take)), "count": len(won),
                "oros": sum(1 for c in won if c.suit is Suit.OROS),
                "sevens": sum(1 for c in won if c.value == 7),
                "left": value_sum(trial.table_mask), "expr": sum_expression(values),
                "total": total}

    def _glow(self) -> tuple[Card, ...]:
        """The cards to light for this step: the kind says, faded by the level's hints."""
        return self.step.kind.lit(self._round(), self.level.hints)

    def _sum_param(self) -> dict[str, int]:
        """``{sum}`` for a lesson text: the sum every capture makes (15, or 10 in stage 12);
        none under Scopa, where each card makes its own value."""
        fixed = sum_to_make(self.level.rules)
        return {} if fixed is None else {"sum": fixed}

    def _with_sum(self, message: Message) -> Message:
        """Every lesson text may say the sum being made (15, or 10 in stage 12; under Scopa
        there is none to say). The app's own wordings take their own parameters."""
        if message.domain != DOMAIN:
            return message
        return message._replace(params={**self._sum_param(), **message.params})

    def _count_try(self, right: bool) -> None:
        """Keep a counted try that did not finish the level (finishing it ends the go)."""
        if self.storage is not None and self.profile_id is not None:
            self.storage.record_lesson_try(self.profile_id, self.stage.key, self.level.key,
                                           right=right)

    def _wrong(self, feedback: Message, look: Message | None = None) -> Outcome:
        self._count_try(right=False)
        feedback = self._with_sum(feedback)
        self._s.feedback = feedback
        self._s.refusals += 1
        return Outcome(False, feedback,
                       comment=self._with_sum(look) if look is not None else None)

    def _right(self, events: tuple[Play, ...] = ()) -> Outcome:
        s, step = self._s, self.step
        round_ = self._round()
        for move in step.reply:
            events += (round_.play(move),)
        s.events = events
        s.feedback = None
        s.refusals = 0
        sweep = sweep_word_key("fb.escoba", self.level.rules.variant)
        praise = Message(sweep if any(e.escoba and e.seat == CHILD for e in events)
                         else "fb.right")
        s.step += 1
        if s.step < len(self.level.steps):
            s.glow = self._glow()
            self._count_try(right=True)
            return Outcome(True, praise, events=events)
        return self._done(Outcome(True, praise, events=events, result=self._finish()))

    def _done(self, outcome: Outcome) -> Outcome:
        if self.auto_advance:
            self.advance()
        return outcome

    def _consequence(self, move: Move, why: Message) -> Outcome:
        """Play the child's legal but wrong move, then the computer's reply to it (the
        engine's greedy player: it takes the escoba the child allowed)."""
        self._count_try(right=False)
        s = self._s
        round_ = self._round()
        attempt = round_.attempt(move, CHILD)
        assert attempt.play is not None
        events = [attempt.play]
        player, rng = make_player("greedy"), random.Random(0)
        while not round_.is_over and round_.to_move != CHILD:
            events.append(round_.play(player.choose(round_.observation(round_.to_move), rng)))
        s.events = tuple(events)
        s.status = "consequence"
        s.glow = ()
        s.consequence = self._with_sum(_then(events[-1], self.level.rules)) \
            if len(events) > 1 else None
        why = self._with_sum(why)
        s.feedback = why
        return Outcome(False, why, events=tuple(events), consequence=s.consequence)

    def _finish(self) -> LevelResult:
        s, level = self._s, self.level
        stars = stars_for(s.plays, level.target)
        result = LevelResult(self.stage.key, level.key, stars, s.plays, level.target)
        if self.storage is not None and self.profile_id is not None:
            best = self.storage.record_lesson(self.profile_id, self.stage.key, level.key, stars,
                                              s.plays)
            result = LevelResult(self.stage.key, level.key, stars, s.plays, level.target,
                                 best.stars, best.plays)
        s.result = result
        s.status = "level_done"
        s.glow = ()
        s.stage_results = [r for r in s.stage_results if r.level != level.key] + [result]
        return result

    # -- a whole game -------------------------------------------------------------------
    def _game_play(self, move: Move) -> Outcome:
        """A move in a whole-game level: the engine judges it; a refusal is a mistake;
        the coach says how the move compares with its best; the computer replies."""
        s = self._s
        game = s.game
        assert game is not None
        if not game.is_human_turn:
            return self._not_now()
        verdict = game.check(move.card, sorted(move.take))
        if verdict is not None:
            s.plays += 1  # a mistake: in a game, stars count the wrong tries
            return self._wrong(verdict_feedback(verdict, self.level.rules),
                               verdict_look(verdict))
        # The coach speaks only while its hints are on: later the child plays alone.
        comment = self._coach_comment(game.observation(CHILD), move) \
            if self._game_hint_step(game.observation(CHILD)) else None
        before = len(game.round.history) if game.round is not None else 0
        outcome = game.play_human_then_bots(move.card, sorted(move.take))
        s.game_moves += 1
        s.refusals = 0
        assert outcome.ok or outcome.play is not None, outcome
        events = tuple(game.round.history[before:]) if game.round is not None else ()
        s.events = events
        s.feedback = None
        if game.is_over:
            return self._done(Outcome(True, None, events=events, comment=comment,
                                      result=self._finish()))
        if game.round_over:
            s.status = "round_over"
        return Outcome(True, None, events=events, comment=comment)

    @staticmethod
    def _coach_comment(obs: Observation, move: Move) -> Message | None:
        """The coach on the child's move: its best move too, or what it would have played."""
        judged = assess(obs)
        if not judged:
            return None
        best = judged[0]
        if best.move == move or next((a.score for a in judged if a.move == move),
                                     None) == best.score:
            # Praise for the sum the child made, not for laying down the only card.
            return Message("fb.coach_best") if move.take else None
        if best.move.take:
            return Message("fb.coach_better_take", {"card": best.move.card,
                                                    "cards": tuple(sorted(best.move.take))})
        return Message("fb.coach_better_lay", {"card": best.move.card})
