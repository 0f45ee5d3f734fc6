"""The practice sessions (trainer.practice_sessions) without Streamlit or AppTest."""

from __future__ import annotations

from datetime import date

import pytest

from escoba.cards import parse_cards
from puzzles import from_cards, generate
from trainer.practice_sessions import DailyFlow, PuzzleSession, QuickRound, quick_question


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def example() -> PuzzleSession:
    """RULES.md example 1: table 3, 5, Sota, Rey; play 7 -> {Sota} or {3, 5}."""
    return PuzzleSession(from_cards("captures", parse_cards("3o 5c 8e 10b"),
                                    parse_cards("7o")))


def test_a_set_is_compared_with_the_puzzles_own_sum(example: PuzzleSession) -> None:
    wrong = example.set_sum(None, ["3o", "10b"])
    assert (wrong.expr, wrong.total, wrong.need, wrong.right) == ("3 + 10 + 7", 20, 15, False)
    assert example.set_sum(None, ["8e"]).right
    twenty = PuzzleSession(from_cards("captures", parse_cards("3o 10b 5c"), parse_cards("7o"),
                                      capture_sum=20))
    assert twenty.set_sum(None, ["3o", "10b"]).right


def test_sets_get_feedback_and_the_last_one_finishes(example: PuzzleSession) -> None:
    said = example.add(None, ["3o", "10b"])
    assert (said.kind, said.key) == ("error", "wrong") and said.params["again"]
    assert example.add(None, ["3o", "10b"]).key == "pz_already"
    assert example.add(None, ["8e"]).key == "found"
    assert not example.done
    example.add(None, ["3o", "5c"])
    assert example.done and not example.result.missed and len(example.result.found) == 2
    assert example.result.stars == 2  # one wrong set
    assert example.add(None, ["8e"]) is None


def test_hints_are_graduated_and_each_adds_something(example: PuzzleSession) -> None:
    first, second, third = (example.ask_hint() for _ in range(3))
    assert first.key == "need" and dict(first.params) == {"card": "7o", "need": 8}
    assert second.key == "starts_with"
    assert third.key == "the_set" and third.params["take"] == ["8e"]
    assert len({(h.key, repr(sorted(h.params.items()))) for h in (first, second, third)}) == 3
    assert example.hints == 3
    # Nothing more to say: asking again is free.
    assert example.ask_hint() is None and example.hints == 3
    example.finish()
    assert example.result.hints == 3


def test_a_hint_after_a_find_is_about_the_next_set(example: PuzzleSession) -> None:
    example.add(None, ["8e"])
    h = example.ask_hint()
    assert h.key == "need"
    assert example.ask_hint().params["first"] == "3o"


def test_a_puzzle_with_nothing_to_find_has_one_hint_only() -> None:
    none = PuzzleSession(from_cards("captures", parse_cards("1o 2c"), parse_cards("3o")))
    assert none.ask_hint().key == "check_each"
    assert none.ask_hint() is None and none.hints == 1
    none.finish(said_none=True)
    assert none.result.solved and none.answer == ["none"]


def test_a_best_move_is_one_answer() -> None:
    session = PuzzleSession(generate("best-move", 2, 5))
    worst = session.puzzle.ranking[-1]
    said = session.add(str(worst.card), [str(c) for c in worst.take])
    assert said.key == "wrong" and not said.params["again"]
    assert session.done and not session.result.solved


def test_the_puzzle_time_is_measured_from_its_start() -> None:
    clock = Clock()
    session = PuzzleSession(from_cards("captures", parse_cards("8e"), parse_cards("7o")),
                            clock=clock)
    clock.now += 12.5
    session.add(None, ["8e"])
    assert session.done and session.seconds == 12.5


def test_quick_round_times_each_answer_from_when_it_is_shown() -> None:
    clock = Clock()
    puzzles = [generate("quick-facts", 1, seed) for seed in range(3)]
    rnd = QuickRound("1", 15, puzzles, clock=clock)
    first = rnd.shown()
    assert quick_question(first) == " + ".join(map(str, first.addends)) + " + ? = 15"
    clock.now += 3.0
    rnd.shown()  # drawn again (a rerun): the clock is not restarted
    clock.now += 1.25
    puzzle, result, seconds = rnd.answer(first.solutions[0].value)
    assert puzzle is first and result.solved and seconds == 4.25
    assert rnd.feedback.key == "qf_right"
    second = rnd.shown()
    wrong = second.solutions[0].value % 10 + 1
    rnd.answer(wrong)
    assert rnd.feedback.key == "qf_wrong"
    assert rnd.feedback.params["total"] == sum(second.addends) + wrong
    rnd.shown()
    rnd.answer(puzzles[2].solutions[0].value)
    assert rnd.done and rnd.right == 2 and rnd.shown() is None
    assert rnd.answer(1) is None


def test_daily_flow_in_order_then_summary_and_replay() -> None:
    flow = DailyFlow(date(2026, 12, 1))
    answered: set[int] = set()
    stars: list[int | None] = [None] * 5
    for index in range(5):
        view = flow.view(stars, False, answered.__contains__)
        assert (view.view, view.index, view.slot, view.mode) == (
            "puzzle", index, f"dy{index}", "daily")
        stars[index], _ = 3, answered.add(index)
        # Just answered: it stays on screen until the child asks for the next.
        assert flow.view(stars, index == 4, answered.__contains__).view == "answered"
        flow.next()
    assert flow.view(stars, True, answered.__contains__).view == "summary"
    flow.replay(2)
    view = flow.view(stars, True, answered.__contains__)
    assert (view.view, view.index, view.slot, view.mode) == ("replay", 2, "dyr2",
                                                             "daily-replay")


def test_daily_flow_after_a_reload_starts_at_the_first_unanswered() -> None:
    flow = DailyFlow(date(2026, 12, 1))
    view = flow.view([3, 2, None, None, None], False, lambda i: False)
    assert (view.view, view.index) == ("puzzle", 2)


def test_what_just_happened_is_the_history_since_the_childs_last_move(tmp_path) -> None:
    """One function rebuilds "what just happened": after every action it equals what a
    resumed game (a refresh, a restart) shows, and starts at the child's last move."""
    import random

    import sqlalchemy as sa

    from escoba import Rules
    from trainer.gameplay import GameSession, SeatSpec
    from trainer.storage import Storage

    store = Storage(sa.create_engine(f"sqlite:///{tmp_path / 'g.db'}"))
    pid = store.create_profile("Ana", "🦊").id
    rules = Rules.preset("classic", target=5, capture_rule="renuncio", players=3)
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="random"),
             SeatSpec("bot", "C", level="greedy")]
    session = GameSession.new(rules, seats, 4, storage=store, profile_id=pid)
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        if session.is_over:
            break
        if session.round_over:
            session.next_round()
            assert session.recent == list(session.round.history)  # the deal (initial take)
            continue
        if session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            session.play_human_then_bots(move.card, move.take)
            recent = session.recent
            assert recent and recent[0].seat == 0 and recent[0].kind in ("play", "miscount")
            assert all(e.seat != 0 or e.kind not in ("play", "miscount") for e in recent[1:])
        else:
            session.run_bots()
        resumed = GameSession.resume(store.get_game(session.game_id), store)
        assert resumed.recent == session.recent
        checked += 1
    assert checked > 20


def test_the_save_that_finishes_a_game_stores_the_coachs_review(tmp_path) -> None:
    """Issue 25: the review was computed and saved by the end screen when it was drawn:
    a game finished elsewhere (another tab, a test, a table) never got one. Now the save
    that finishes the game writes it, in the same transaction; no screen is drawn here."""
    import random

    import sqlalchemy as sa

    from escoba import Rules
    from trainer.gameplay import GameSession, SeatSpec
    from trainer.hints import review
    from trainer.storage import Storage

    store = Storage(sa.create_engine(f"sqlite:///{tmp_path / 'r.db'}"))
    pid = store.create_profile("Ana", "🦊").id
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="greedy")]
    session = GameSession.new(Rules.preset("classic", target=1), seats, 9, storage=store,
                              profile_id=pid)
    rng = random.Random(9)
    for _ in range(400):
        if session.is_over:
            break
        assert store.get_game(session.game_id).review is None  # not before the end
        if session.round_over:
            session.next_round()
        elif session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            session.play_human_then_bots(move.card, move.take)
        else:
            session.run_bots()
    row = store.get_game(session.game_id)
    assert session.is_over and row.status == "finished"
    assert row.review is not None and row.review == review(session.record(), 0).to_stored()
    assert session.review_for(0).to_stored() == row.review  # what the end screen shows
