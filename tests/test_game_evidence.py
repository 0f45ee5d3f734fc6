"""Every game turn is evidence for the child's facts (trainer/evidence.py, issue 15).

Crafted turns (a capture made, one missed, a card laid down with none available,
a wrong sum the engine refuses, a turn with hints), the evidence saved with its
move in one transaction, and the fact model reading it from a played game.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from escoba import Card, Game, Move, Rules
from escoba.deck import deck_for
from puzzles.mastery import fact_stats
from trainer.evidence import TurnContext, game_answers, turn_evidence
from trainer.gameplay import GameSession, SeatSpec
from trainer.storage import Storage

DAY = "2026-12-01"
QUIET = TurnContext(DAY, seconds=3.5, helped=False)


def _session(hand: list[str], table: list[str], other: list[str], *,
             rules: Rules | None = None, storage: Storage | None = None,
             profile_id: int | None = None) -> GameSession:
    """The child (seat 0) to move first, with this hand and table."""
    rules = rules or Rules()
    deck = deck_for(rules, [hand, other], table, dealer=1)
    game = Game(rules, dealer=1)
    game.start_round(deck)
    seats = [SeatSpec("human", "Kid", "🦊"), SeatSpec("bot", "Bot", "🤖", "gentle")]
    session = GameSession(rules, seats, 1, game, storage=storage, profile_id=profile_id)
    if storage is not None and profile_id is not None:
        session.game_id = storage.create_game(profile_id, rules=rules.to_dict(only_changes=True),
                                              seats=[s.to_dict() for s in seats], seed=1,
                                              record=session.record())
    return session


def _turn(session: GameSession, card: str, take: list[str],
          context: TurnContext = QUIET):
    obs = session.observation(0)
    move = Move(Card.parse(card), frozenset(Card.parse(c) for c in take))
    return turn_evidence(obs, move, session.game.check(move, 0), context, game_id=7,
                         round_no=1, move_no=1)


def test_a_capture_made_is_right_for_its_additions_and_times_its_one_fact() -> None:
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"])
    made = _turn(session, "7o", ["8c"])
    assert made.answers == (("8+7", True, None), ("15-7", True, 3.5))
    assert made.found == 1 and made.correct and made.hints == 0
    # Two table cards: three facts asked at once, none timed.
    three = _session(["7o", "1c", "2c"], ["3c", "5e", "4e", "10b"], ["3b", "4b", "6b"])
    both = _turn(three, "7o", ["3c", "5e"])
    assert both.answers == (("3+5", True, None), ("8+7", True, None), ("15-7", True, None))


def test_a_capture_missed_is_wrong_for_the_simplest_capture_available() -> None:
    """The 7 could take the Sota (8 + 7): laying the 1 down misses it."""
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"])
    missed = _turn(session, "1c", [])
    assert missed.answers == (("15-7", False, None),) and missed.missed == 1
    assert not missed.correct
    # The review names it with its cards: the 7 de oros could take the Sota de copas.
    from dataclasses import replace

    from trainer.evidence import missed_chances

    kept = replace(missed, id=1, created_at=datetime(2026, 12, 1, tzinfo=UTC))
    assert missed_chances([kept], 7) == [Move(Card.parse("7o"), frozenset({Card.parse("8c")}))]
    assert missed_chances([kept], 8) == []


def test_a_forced_capture_refused_is_a_miss_too() -> None:
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"],
                       rules=Rules(capture_rule="forced"))
    missed = _turn(session, "1c", [])
    assert missed.answers == (("15-7", False, None),) and missed.puzzle_id.endswith("try")


def test_a_card_laid_down_with_no_capture_on_the_table_says_nothing() -> None:
    session = _session(["1o", "1c", "2c"], ["10b", "10c", "10e", "10o"], ["3b", "4b", "6b"])
    assert not [m for m in session.observation(0).legal_moves() if m.take]
    assert _turn(session, "1o", []) is None


def test_a_wrong_sum_the_engine_refuses_is_wrong_for_the_complement_tried() -> None:
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"])
    wrong = _turn(session, "7o", ["5e"])  # 5 + 7 = 12
    assert wrong.answers == (("15-7", False, None),) and wrong.wrong == 1


def test_a_turn_with_hints_is_help_its_time_is_not_fluency() -> None:
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"])
    helped = _turn(session, "7o", ["8c"], TurnContext(DAY, seconds=2.0, helped=True))
    assert helped.hints == 1 and all(secs is None for _f, _c, secs in helped.answers)
    # An absurd time (a child who left the tablet) is no time either.
    away = _turn(session, "7o", ["8c"], TurnContext(DAY, seconds=4000.0))
    assert all(secs is None for _f, _c, secs in away.answers)


@pytest.fixture
def store(tmp_path) -> Storage:
    return Storage(sa.create_engine(f"sqlite:///{tmp_path / 'e.db'}"))


def test_the_evidence_is_saved_with_its_move_and_a_refused_try_alone(store) -> None:
    kid = store.create_profile("Kid", "🦊").id
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"],
                       storage=store, profile_id=kid)
    refused = session.play_human(Card.parse("7o"), [Card.parse("5e")], QUIET)
    assert not refused.ok
    rows = store.attempts(kid)
    assert [r.answers for r in rows] == [(("15-7", False, None),)]
    moves_before = len(store.move_entries(session.game_id))
    played = session.play_human_then_bots(Card.parse("7o"), [Card.parse("8c")], QUIET)
    assert played.ok
    rows = store.attempts(kid)
    assert len(rows) == 2 and rows[-1].found == 1
    assert len(store.move_entries(session.game_id)) > moves_before
    # A move the database refuses (another tab moved first) leaves no evidence behind.
    other = GameSession.resume(store.get_game(session.game_id), store)
    obs = other.observation(other.to_move)
    other.play_human(obs.legal_moves()[0].card, list(obs.legal_moves()[0].take), QUIET)
    kept = len(store.attempts(kid))
    stale = session.observation(session.to_move).legal_moves()
    stale = next((m for m in stale if m.take), stale[0])
    session.play_human(stale.card, list(stale.take), QUIET)
    assert session.conflict is not None
    assert len(store.attempts(kid)) == kept
    assert all(r.puzzle_id.startswith(f"game-{session.game_id}-") for r in store.attempts(kid))


def test_without_a_context_nothing_is_recorded_and_bots_give_no_evidence(store) -> None:
    kid = store.create_profile("Kid", "🦊").id
    session = _session(["7o", "1c", "2c"], ["8c", "5e", "4e", "10b"], ["3b", "4b", "6b"],
                       storage=store, profile_id=kid)
    session.play_human_then_bots(Card.parse("7o"), [Card.parse("8c")])  # no context
    assert store.attempts(kid) == []


def test_a_game_weighs_like_one_puzzle_per_fact() -> None:
    """The same addition found five times in one game is one right answer; another game
    counts again; the fact model reads them like any other answers."""
    from puzzles.practice import Attempt

    when = datetime(2026, 12, 1, tzinfo=UTC)

    def row(game: int, move: int, answers) -> Attempt:
        return Attempt(day=DAY, mode="game", puzzle_id=f"game-{game}-r1-m{move}-ok",
                       kind="game-turn", level=0, capture_sum=15, facts=(), answers=answers,
                       answer=(), correct=True, found=1, missed=0, wrong=0, seconds=0.0,
                       hints=0, stars=0, id=move, created_at=when + timedelta(minutes=move))

    rows = [row(1, m, (("15-7", True, None),)) for m in range(1, 6)]
    rows += [row(1, 6, (("15-7", True, 2.0),)), row(2, 7, (("15-7", True, None),)),
             row(2, 8, (("15-8", False, None),))]
    answers = game_answers(rows)
    assert [(a.fact, a.correct, a.seconds) for a in answers if a.weighs] == [
        ("15-7", True, 2.0), ("15-7", True, None), ("15-8", False, None)]
    # every turn's answer, for the fluent rule only (the teacher's grid reads each turn)
    assert [(a.fact, a.correct, a.seconds) for a in answers if a.fluency] == [
        (fact, right, secs) for r in rows for fact, right, secs in r.answers]
    assert not any(a.weighs and a.fluency for a in answers)
    stats = fact_stats(answers)
    assert stats["15-7"].answers == 2 and stats["15-8"].correct == 0
    # 15 - 7 right in time once in seven turns: two of its last three timed-or-wrong
    # tries are not in time, so it is not fluent (the weighed answers alone would say so)
    assert stats["15-7"].level != "fluent"


def test_a_played_game_updates_the_childs_facts_in_the_app(fresh_app, monkeypatch) -> None:
    """AppTest: moves played on Play become answers of the fact model (My progress)."""
    from tests.test_app_helpers import create_profile, game, new_app, play, start_game
    from ui.practice import DataVersion, fact_stats_of

    at = start_game(create_profile(new_app(), "Evi"))
    rng = random.Random(4)
    for _ in range(12):
        g = game(at)
        if g.round_over:
            break
        legal = g.observation(g.to_move).legal_moves()
        captures = [m for m in legal if m.take]
        play(at, captures[0] if captures else rng.choice(legal))
    store = at.session_state["game_session"].storage
    kid = int(at.session_state["profile_id"])
    turns = store.attempts(kid)
    assert turns and all(r.mode == "game" for r in turns)
    assert any(r.found for r in turns)
    # The fallback Play has no board clock, and hints are on by default: help, no times.
    assert all(r.hints == 1 for r in turns)
    version = DataVersion(None, kid, store.progress_version(kid))
    from ui import practice as ui_practice

    # The test's own database, as the page reads it; put back after the test (left in
    # place, it made later tests in the same process read this test's database: the
    # parent's CSV of another test listed this game's turns).
    monkeypatch.setattr(ui_practice, "storage", lambda: store)
    stats = fact_stats_of(version, 15)
    found = {f for r in turns for f, ok, _s in r.answers if ok}
    assert found and all(stats[f].correct >= 1 for f in found if f in stats)


# -- Scopa (issue 28): the variant names the fact; the model stores its additions --------

SCOPA = Rules.preset("scopa")


def test_a_scopa_sum_practises_the_additions_that_make_the_card() -> None:
    session = _session(["7o", "1c", "2c"], ["3c", "4e", "9b", "10b"], ["3b", "4b", "6b"],
                       rules=SCOPA)
    made = _turn(session, "7o", ["3c", "4e"])
    assert made.answers == (("3+4", True, None),) and made.found == 1


def test_a_scopa_equal_card_and_a_refused_scopa_sum_say_nothing() -> None:
    session = _session(["7o", "1c", "2c"], ["7c", "3c", "4e", "10b"], ["3b", "4b", "6b"],
                       rules=SCOPA)
    assert _turn(session, "7o", ["7c"]) is None  # the same number: no addition asked
    other = _session(["6o", "1c", "2c"], ["3c", "2e", "9b", "10b"], ["3b", "4b", "6b"],
                     rules=SCOPA)
    assert _turn(other, "6o", ["3c", "2e"]) is None  # 3 + 2 for a 6: not a wrong addition


def test_the_ace_taking_the_table_by_right_practises_no_sum() -> None:
    """Asso piglia tutto: the ace takes 3 + 7 + 10 by right, not by adding to 1. Taking
    it records no addition, and laying another card instead records no wrong one (it
    once recorded "3+7" and "10+10", facts the child never tried)."""
    rules = Rules.preset("scopa", asso_piglia_tutto=True)
    took = _session(["1o", "2c", "5b"], ["3c", "7e", "10b", "8o"], ["3b", "4b", "6b"],
                    rules=rules)
    assert _turn(took, "1o", ["3c", "7e", "10b", "8o"]) is None
    laid = _session(["1o", "4c", "5b"], ["3c", "7e", "10b", "6o"], ["3b", "4b", "6b"],
                    rules=Rules.preset("scopa", asso_piglia_tutto=True,
                                       capture_rule="optional"))
    assert _turn(laid, "4c", []) is None  # the only capture was the ace's, by right
