"""Best-move puzzles: a position from a seeded deal, the move the coach ranks best, and why.

The position comes from a real round: a deck shuffled by the puzzle's seed,
dealt under the classic rules with the puzzle's capture sum, then a seeded
number of random legal moves. The seat to move's observation goes to
:func:`escoba.coach.analyse`; the puzzle keeps every legal move with the
coach's score and reason (``ranking``), and as solutions every move whose
score equals the best. Positions where the best move does not stand out
(a gap under :data:`MIN_GAP` points) are skipped: a puzzle needs one clear
answer a child can be told "why" about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from escoba.cards import CARDS, cards_of
from escoba.observation import Observation
from escoba.round import Round
from escoba.rules import Rules

from .grading import MOVE_BANDS
from .model import Puzzle, PuzzleError, RankedMove, Solution, Stats, capture_facts
from .rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from escoba.coach import MoveAssessment

__all__ = ["best_move_puzzle", "best_move_at", "dealt_position", "move_difficulty", "MIN_GAP"]

#: Smallest score gap (points of the round) between the best move and the next.
MIN_GAP = 0.05
#: Ties closer than this are the same score (the coach's floats).
_TIE = 1e-6
_TRIES = 400


def move_difficulty(choices: int, captures: int, table_size: int, gap: float,
                    best_is_biggest: bool) -> int:
    """Difficulty of a best-move position (README: "Best move").

    More legal moves and more captures to compare, a bigger table, a small
    margin between the best move and the next, and a best move that is not
    simply "take the most cards" all make it harder.
    """
    margin = 0 if gap >= 0.5 else 2 if gap >= 0.25 else 4 if gap >= 0.12 else 6
    return choices + 2 * captures + table_size + margin + (0 if best_is_biggest else 3)


def dealt_position(rng: Rng, capture_sum: int) -> Round:
    """A round of the classic rules dealt from a deck ``rng`` shuffles, 0-24 random legal
    moves in (it may be over: the caller skips it)."""
    rules = Rules.preset("classic", capture_sum=capture_sum, initial_fifteen="ignore")
    deck = list(CARDS[:40])
    rng.shuffle(deck)
    round_ = Round(rules, deck, dealer=0)
    for _ in range(rng.between(0, 24)):
        pairs = round_.legal_move_pairs()
        if round_.is_over or not pairs:
            break
        round_.play_pair(*pairs[rng.below(len(pairs))])
    return round_


def best_move_puzzle(level: int, capture_sum: int, seed: str, rng: Rng) -> Puzzle:
    """Generate the best-move puzzle of ``level`` (called by :func:`puzzles.generate`)."""
    try:
        from escoba.coach import analyse
    except ImportError:  # pragma: no cover - the coach ships with the engine
        raise PuzzleError("best-move puzzles need the coach (escoba.coach)") from None
    low = MOVE_BANDS[level - 1]
    high = MOVE_BANDS[level] - 1 if level < len(MOVE_BANDS) else 10**6
    best_found: tuple[int, Round, list[MoveAssessment], Stats] | None = None
    for _ in range(_TRIES):
        round_ = dealt_position(rng, capture_sum)
        if round_.is_over:
            continue
        obs = round_.observation(round_.to_move)
        ranked = analyse(obs, search=False)  # one-ply scores: stable ids (see analyse)
        if len(ranked) < 2 or ranked[0].score - ranked[1].score < MIN_GAP:
            continue
        gap = ranked[0].score - ranked[1].score
        captures = sum(1 for a in ranked if a.move.take)
        most = max(len(a.move.take) for a in ranked)
        biggest = len(ranked[0].move.take) == most
        score = move_difficulty(len(ranked), captures, obs.table_mask.bit_count(), gap, biggest)
        stats = Stats(table_size=obs.table_mask.bit_count(), solutions=1,
                      max_cards=most + 1, choices=len(ranked), captures=captures,
                      difficulty=score)
        if low <= score <= high:
            return _assemble(level, capture_sum, seed, obs, ranked, stats)
        distance = low - score if score < low else score - high
        if best_found is None or distance < best_found[0]:
            best_found = (distance, round_, ranked, stats)
    if best_found is None:  # pragma: no cover
        raise PuzzleError("could not generate this best-move puzzle")
    _, round_, ranked, stats = best_found
    return _assemble(level, capture_sum, seed, round_.observation(round_.to_move), ranked, stats)


def best_move_at(obs: Observation, seed: str) -> Puzzle | None:
    """The best-move puzzle of a given position (a class's live round, issue 29): the
    coach's one-ply ranking, graded like a generated one; ``None`` when the seat has no
    choice (fewer than two legal moves). ``seed`` should start with ``custom-``: such a
    puzzle is kept with ``to_dict``, not regenerated."""
    from escoba.coach import analyse

    ranked = analyse(obs, search=False)
    if len(ranked) < 2:
        return None
    gap = ranked[0].score - ranked[1].score
    captures = sum(1 for a in ranked if a.move.take)
    most = max(len(a.move.take) for a in ranked)
    table_size = obs.table_mask.bit_count()
    score = move_difficulty(len(ranked), captures, table_size, gap,
                            len(ranked[0].move.take) == most)
    level = next((lvl for lvl in range(len(MOVE_BANDS), 0, -1)
                  if score >= MOVE_BANDS[lvl - 1]), 1)
    stats = Stats(table_size=table_size, solutions=1, max_cards=most + 1,
                  choices=len(ranked), captures=captures, difficulty=score)
    return _assemble(level, obs.rules.capture_sum, seed, obs, ranked, stats)


def _assemble(level: int, capture_sum: int, seed: str, obs: Observation,
              ranked: Sequence[MoveAssessment], stats: Stats) -> Puzzle:
    top = ranked[0].score
    ranking = tuple(
        RankedMove(a.move.card, tuple(sorted(a.move.take)), round(a.score, 4), a.reason[0],
                   dict(a.reason[1]), tuple((k, dict(p)) for k, p in a.warnings))
        for a in ranked)
    solutions = tuple(
        Solution(take=m.take, card=m.card,
                 facts=capture_facts(m.take, m.card, capture_sum) if m.take else ())
        for m, a in zip(ranking, ranked, strict=True) if top - a.score < _TIE)
    return Puzzle("best-move", level, capture_sum, seed, table=cards_of(obs.table_mask),
                  hand=cards_of(obs.hand_mask), solutions=solutions, stats=stats,
                  ranking=ranking)
