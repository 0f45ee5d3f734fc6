"""Storage failures told as they are (issue 25): a database that cannot be written
says so and shows nothing as saved; a damaged one is recognised as damaged."""

from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from escoba import Rules
from puzzles import generate
from tests.storage_faults import damage_table, unwritable
from trainer.gameplay import GameSession, SeatSpec
from trainer.practice_sessions import PuzzleSession, QuickRound
from trainer.storage import Storage, configure_sqlite
from trainer.storage.trouble import DAMAGED, UNAVAILABLE, storage_trouble, trouble_line


@pytest.fixture
def file_store(tmp_path):
    path = tmp_path / "trouble.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    configure_sqlite(engine)
    yield path, Storage(engine)
    engine.dispose()


def test_each_trouble_is_named_for_what_it_is(file_store) -> None:
    path, store = file_store
    store.create_profile("Ana", "🦊")
    with unwritable(path, [store.engine]):
        with pytest.raises(sa.exc.OperationalError) as caught:
            store.create_profile("Leo", "🐼")
        assert storage_trouble(caught.value) == UNAVAILABLE
        assert trouble_line(caught.value) == \
            "OperationalError: attempt to write a readonly database"
        assert [p.nickname for p in store.list_profiles()] == ["Ana"]  # reads still work
    damage_table(path, "profiles", [store.engine])
    with pytest.raises(sa.exc.DatabaseError) as caught:
        store.list_profiles()
    assert storage_trouble(caught.value) == DAMAGED
    assert trouble_line(caught.value) == "DatabaseError: database disk image is malformed"
    # What is no storage trouble is not told as one.
    with pytest.raises(sa.exc.IntegrityError) as refused, \
            Storage(sa.create_engine("sqlite://")).transaction() as conn:
        conn.execute(sa.text("CREATE TABLE t (x INTEGER UNIQUE)"))
        conn.execute(sa.text("INSERT INTO t VALUES (1), (1)"))
    assert storage_trouble(refused.value) is None
    assert storage_trouble(ValueError("a bug")) is None
    assert storage_trouble(sqlite3.OperationalError("disk I/O error")) == UNAVAILABLE


def test_a_move_that_cannot_be_saved_is_not_made_and_is_made_once_storage_is_back(
        file_store) -> None:
    path, store = file_store
    ana = store.create_profile("Ana", "🦊")
    rules = Rules.preset("relaxed")
    game = GameSession.new(rules, [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="gentle")],
                           7, storage=store, profile_id=ana.id)
    if not game.is_human_turn:
        game.run_bots()
        game.save()
    before = (game.revision, store.game_state(game.game_id))
    move = game.observation(game.to_move).legal_moves()[0]
    with unwritable(path, [store.engine]):
        outcome = game.play_human_then_bots(move.card, move.take)
        assert (outcome.ok, outcome.key) == (False, UNAVAILABLE)
        assert game.conflict == UNAVAILABLE
        assert store.game_state(game.game_id) == before[1]  # nothing reached the file
        assert store.attempts(ana.id) == []
    # Storage is back: the game as the database has it (without the move), and the
    # same move is accepted and saved now.
    again = GameSession.resume(store.get_game(game.game_id), store)
    assert again.revision == before[0]
    assert move in again.observation(again.to_move).legal_moves()
    assert again.play_human_then_bots(move.card, move.take).ok
    assert store.game_state(game.game_id)[1] > before[0]


def test_an_answer_that_cannot_be_saved_is_taken_back() -> None:
    puzzles = [generate("quick-facts", 1, seed, 15) for seed in range(3)]
    rnd = QuickRound("1", 15, puzzles)
    rnd.shown()
    with pytest.raises(sa.exc.OperationalError), rnd.kept_only_if_saved():
        assert rnd.answer(puzzles[0].solutions[0].value) is not None
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("readonly"))
    assert (rnd.index, rnd.results, rnd.feedback) == (0, [], None)
    puzzle = generate("captures", 1, 3, 15)
    state = PuzzleSession(puzzle)
    sol = puzzle.solutions[0]
    with pytest.raises(RuntimeError), state.kept_only_if_saved():
        state.add(str(sol.card), [str(c) for c in sol.take])
        state.finish()
        raise RuntimeError("the save failed")
    assert (state.items, state.feedback, state.result) == ([], [], None)


def test_a_table_move_that_cannot_be_saved_says_so_not_that_a_friend_was_quicker(
        file_store) -> None:
    from trainer.tables import Tables, TableSeat

    path, store = file_store
    ana = store.create_profile("Ana", "🦊")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("relaxed", target=1), bots={1: "gentle"})
    seat = tables.seat_from_link(ticket.code, ticket.token, ana.id)
    assert isinstance(seat, TableSeat) and seat.my_turn
    before = seat.revision
    move = seat.game.observation(seat.seat).legal_moves()[0]
    with unwritable(path, [store.engine]):
        outcome = seat.play(move.card, list(move.take), seat.revision)
        assert (outcome.ok, outcome.key) == (False, UNAVAILABLE)
        assert seat.revision == before and seat.my_turn  # read again: not made
    assert seat.play(move.card, list(move.take), seat.revision).ok
    assert seat.revision > before
