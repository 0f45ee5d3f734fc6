"""Every turn of a game is an arithmetic question: what the child's move says about facts.

"Which table cards make 15 with one of my cards?" — a child's turn answers it,
and this module turns the answer into evidence for the same fact model as the
puzzles and quick facts (:mod:`puzzles.mastery`), by the rules written in
``docs/GAME-EVIDENCE.md``:

- **a capture made** is a right answer for each addition it contains (the table
  cards added smallest first, the played card last, and the complement to the
  capture sum: :func:`puzzles.model.capture_facts`);
- **a capture missed** — the child laid a card down (or the engine refused a
  lay-down because a capture is forced) while a capture existed — is a wrong
  answer for the complement of the simplest capture available (fewest table
  cards, then smallest values);
- **a wrong sum** refused by the engine is a wrong answer for the complement the
  child tried (what the played card needed from the table);
- a card laid down when no capture existed, or a move refused for another
  reason (a card not held, not your turn), says nothing about a fact;
- **help**: a turn played with hints on the board (or "more help" asked) is
  marked as helped: its right answers count as right, but its time never counts
  as fluency; without help, the turn's time (from the board being shown to Play)
  is the time of a capture of a single table card, which asks one fact.

Scopa (issue 28): the variant names the fact a capture practises ("7=3+4": the table
cards make the card's value); it is stored as the additions the fact model knows
(3+4), so an equal card taken (7 = 7) practises no addition and says nothing, and a
refused Scopa sum says nothing either (3 + 2 for a 6 is not a wrong addition).

The engine judges; the solver lists the captures; nothing here adds up cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from escoba import Card, Code, IllegalMoveError, Move, Observation, Rules
from escoba.cards import mask_of
from escoba.variants import variant_for
from puzzles.mastery import Answer
from puzzles.model import variant_capture_facts
from puzzles.practice import Attempt, FactAnswer

__all__ = ["TurnContext", "turn_evidence", "game_answers", "game_of", "is_game_turn",
           "missed_chances",
           "GAME_MODE", "TURN_KIND", "MAX_TURN_SECONDS"]

#: How game evidence is stored among the attempts (mode, kind).
GAME_MODE = "game"
TURN_KIND = "game-turn"
#: A turn's time beyond this (a child who walked away) is not a time at all.
MAX_TURN_SECONDS = 600.0


@dataclass(frozen=True)
class TurnContext:
    """What the page knows about the turn: the child's local day, how long they looked
    at the board before Play (None: unknown), and whether hints were on or asked for."""

    day: str
    seconds: float | None = None
    helped: bool = False


def _simplest(captures: Sequence[Move]) -> Move:
    return min(captures, key=lambda m: (len(m.take), sorted(c.value for c in m.take),
                                        m.card.value))


def _capture_facts(rules: Rules, move: Move) -> tuple[str, ...]:
    """The facts of a capture in the fact model's forms (the one conversion Scopa
    puzzles use too: :func:`puzzles.model.variant_capture_facts`)."""
    return variant_capture_facts(rules, move.card, move.take)


def _complement(rules: Rules, move: Move) -> str | None:
    """The fact a capture asks of the table: ``15-7`` for a 7 played (Scopa: the last
    addition, ``3+4`` for a 7; None for an equal card)."""
    facts = _capture_facts(rules, move)
    return facts[-1] if facts else None


def turn_evidence(obs: Observation, move: Move, verdict: IllegalMoveError | None,
                  context: TurnContext, *, game_id: int | None, round_no: int,
                  move_no: int) -> Attempt | None:
    """The evidence of one child's turn, as an attempt to store (None: no evidence).

    ``obs`` is the child's view before the move, ``verdict`` the engine's (None: the
    move was legal and played). ``move_no`` numbers the turn in its round.
    """
    need = obs.rules.capture_sum
    captures = [m for m in obs.legal_moves() if m.take]
    seconds = context.seconds if (context.seconds is not None and not context.helped
                                  and 0 < context.seconds <= MAX_TURN_SECONDS) else None
    answers: list[FactAnswer] = []
    found = missed = wrong = 0
    could: Move | None = None  # the capture missed, for the review's words
    if verdict is None and move.take:
        facts = _capture_facts(obs.rules, move)
        # One table card: the turn asked one fact (its complement), and timed it.
        timed = seconds if len(move.take) == 1 else None
        answers = [(fact, True, timed if fact == facts[-1] else None) for fact in facts]
        found = 1
    elif (verdict is None or verdict.code == Code.CAPTURE_FORCED) and captures:
        could = _simplest(captures)
        missed_fact = _complement(obs.rules, could)
        if missed_fact is not None:
            answers = [(missed_fact, False, None)]
            missed = 1
    elif (verdict is not None and verdict.code == Code.WRONG_SUM and move.take
          and obs.rules.variant == "escoba"):
        # What the played card needed from the table: the variant's fact ("15-7").
        tried = variant_for(obs.rules).fact(obs.rules, move.card.index, mask_of(move.take))
        if tried is not None:
            answers = [(tried, False, None)]
            wrong = 1
    if not answers:
        return None
    played = "ok" if verdict is None else "try"
    return Attempt(
        day=context.day, mode=GAME_MODE,
        puzzle_id=f"game-{game_id or 0}-r{round_no}-m{move_no}-{played}",
        kind=TURN_KIND, level=0, capture_sum=need,
        facts=tuple(dict.fromkeys(f for f, _c, _s in answers)), answers=tuple(answers),
        answer=({"card": str(move.card), "take": sorted(str(c) for c in move.take),
                 "captures": len(captures),
                 "could": None if could is None else {
                     "card": str(could.card), "take": sorted(str(c) for c in could.take)}},),
        correct=found == 1, found=found, missed=missed, wrong=wrong,
        seconds=float(context.seconds) if seconds is not None else 0.0,
        hints=1 if context.helped else 0, stars=0)


def is_game_turn(attempt: Attempt) -> bool:
    """Whether a stored attempt is a game turn's evidence (not a puzzle or quick fact)."""
    return attempt.mode == GAME_MODE


def game_of(attempt: Attempt) -> str:
    """The game a turn's evidence belongs to (``"game-12"``)."""
    return "-".join(attempt.puzzle_id.split("-")[:2])


def game_answers(rows: Iterable[Attempt]) -> list[Answer]:
    """Game evidence for the fact model, weighted as its own source: within one game,
    a fact weighs once right and once wrong at most (its first timed answer kept), so a
    game weighs like one puzzle, however often the same addition came up in it. Every
    turn's answer is given besides, for the fluent rule only (``Answer.fluency``): the
    teacher's fact grid reads every turn, and "fluent" is one count for both."""
    seen: dict[tuple[str, str, bool], int] = {}
    weighed: list[Answer] = []
    every: list[Answer] = []
    for row in sorted((r for r in rows if is_game_turn(r)),
                      key=lambda r: (r.created_at is None, r.created_at, r.id or 0)):
        for fact, correct, secs in row.answers:
            every.append(Answer(fact, correct, row.created_at, secs, weighs=False))
            key = (game_of(row), fact, correct)
            if key in seen:
                if secs is not None and weighed[seen[key]].seconds is None:
                    weighed[seen[key]] = Answer(fact, correct, weighed[seen[key]].when, secs,
                                                fluency=False)
                continue
            seen[key] = len(weighed)
            weighed.append(Answer(fact, correct, row.created_at, secs, fluency=False))
    return weighed + every


def missed_chances(rows: Iterable[Attempt], game_id: int) -> list[Move]:
    """The captures a child missed in one game (from its turns' evidence), in order."""
    prefix = f"game-{game_id}-"
    out = []
    for row in rows:
        if not (is_game_turn(row) and row.missed and row.puzzle_id.startswith(prefix)):
            continue
        could = (row.answer[0] or {}).get("could") if row.answer else None
        if isinstance(could, dict) and could.get("card"):
            out.append(Move(Card.parse(could["card"]),
                            frozenset(Card.parse(c) for c in could.get("take", []))))
    return out
