"""The storage layer against SQLite and a real PostgreSQL server (same tests)."""

from __future__ import annotations

import random
import threading

import pytest
import sqlalchemy as sa

from escoba import Rules
from trainer.gameplay import GameSession, SeatSpec
from trainer.storage import SCHEMA_VERSION, Storage, StorageError, configure_sqlite


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path) -> sa.Engine:
    if request.param == "sqlite":
        eng = sa.create_engine(f"sqlite:///{tmp_path / 'store.db'}")
        configure_sqlite(eng)
    else:
        eng = sa.create_engine(request.getfixturevalue("postgres_url"))
    yield eng
    eng.dispose()


def play_to_end(session: GameSession, seed: int = 1, max_actions: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(max_actions):
        if session.is_over:
            return
        if session.round_over:
            session.next_round()
        elif session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            assert session.play_human(move.card, move.take).ok
        else:
            session.bot_step()
    raise AssertionError("game did not end")


def test_migrates_to_current_version_and_is_idempotent(engine: sa.Engine) -> None:
    store = Storage(engine)
    assert store.schema_version() == SCHEMA_VERSION
    assert Storage(engine).migrate() == SCHEMA_VERSION  # a restart migrates nothing
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM schema_version")).scalar()
    assert rows == SCHEMA_VERSION
    tables = set(sa.inspect(engine).get_table_names())
    assert {"profiles", "games", "moves", "results", "schema_version"} <= tables


def test_profiles_are_nickname_and_avatar_only(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("  Ana  ", "🦊")
    store.create_profile("Leo", "🐼")
    assert ana.nickname == "Ana" and ana.avatar == "🦊"
    assert [p.nickname for p in store.list_profiles()] == ["Ana", "Leo"]
    with pytest.raises(StorageError) as taken:
        store.create_profile("ana", "🐸")
    assert taken.value.key == "profile_taken"
    with pytest.raises(StorageError):
        store.create_profile("   ", "🐸")
    columns = {c["name"] for c in sa.inspect(engine).get_columns("profiles")}
    assert columns == {"id", "nickname", "avatar", "settings", "created_at"}
    store.update_settings(ana.id, {"deck": "french"})
    assert store.get_profile(ana.id).settings == {"deck": "french"}


def test_a_whole_game_is_saved_move_by_move_and_resumes(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    rules = Rules.preset("classic", target=5)
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "Bot", level="random")]
    session = GameSession.new(rules, seats, 7, storage=store, profile_id=ana.id)
    # Half-way through the first round: a "restart" resumes the same position.
    for _ in range(9):
        if session.is_human_turn:
            move = session.observation(session.to_move).legal_moves()[0]
            session.play_human(move.card, move.take)
        else:
            session.bot_step()
    row = store.active_game(ana.id)
    resumed = GameSession.resume(row, store)
    assert resumed.record() == session.record()
    assert resumed.round.table == session.round.table
    play_to_end(resumed)
    row = store.get_game(session.game_id)
    assert row.status == "finished" and row.winner == resumed.game.winner
    entries = store.move_entries(row.id)
    record = store.complete_record(row)
    assert record == resumed.record()
    assert len(entries) == sum(len(r["moves"]) for r in record["rounds"])
    assert [e[2] for e in entries if e[0] == 1] == record["rounds"][0]["moves"]
    results = store.round_results(row.id)
    assert len(results) == len(row.record["rounds"])
    assert results[-1]["totals"] == list(resumed.game.totals)
    assert store.active_game(ana.id) is None


def test_a_failed_write_leaves_nothing_half_done(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    game_id = store.create_game(ana.id, rules={"preset": "classic"}, seats=[], seed=1,
                                record={"format": "escoba-record/1", "rounds": []})
    entry = {"seat": 0, "card": "7o", "take": []}
    store.save_progress(game_id, {"rounds": [{"moves": []}]}, new_moves=[(1, 1, entry)])
    with pytest.raises(sa.exc.IntegrityError):
        # The second move repeats position (1, 1): the whole transaction rolls back.
        store.save_progress(game_id, {"rounds": [{"moves": []}, {"moves": []}]},
                            new_moves=[(1, 2, entry), (1, 1, entry)])
    assert store.get_game(game_id).record == {"rounds": [{"moves": []}]}
    assert len(store.move_entries(game_id)) == 1


def test_new_game_abandons_the_previous_one(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    first = store.create_game(ana.id, rules={}, seats=[], seed=1, record={})
    second = store.create_game(ana.id, rules={}, seats=[], seed=2, record={})
    assert store.get_game(first).status == "abandoned"
    assert store.active_game(ana.id).id == second
    store.delete_profile(ana.id)
    assert store.get_game(second) is None


def test_sqlite_uses_wal_and_a_busy_timeout(tmp_path) -> None:
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'wal.db'}")
    configure_sqlite(eng)
    Storage(eng)
    with eng.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000


def test_concurrent_writers_do_not_lose_moves(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    ids = [store.create_game(ana.id, rules={}, seats=[], seed=i, record={}) for i in range(1)]
    errors: list[BaseException] = []

    def writer(offset: int) -> None:
        try:
            for k in range(20):
                store.save_progress(ids[0], {"n": k},
                                    new_moves=[(offset, k + 1, {"seat": 0, "card": "1o",
                                                                "take": []})])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(r,)) for r in (1, 2, 3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(store.move_entries(ids[0])) == 60


def test_nicknames_carry_no_markup(tmp_path) -> None:
    from trainer.storage import clean_name

    assert clean_name("  Ana   María ") == "Ana María"
    assert not set("![]()") & set(clean_name("![x](http://evil.example/a.png)"))
    assert "<" not in clean_name("<img src=x>")
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'n.db'}")
    assert Storage(eng).create_profile("**Leo**", "🐼").nickname == "Leo"


def test_resume_keeps_every_option(tmp_path) -> None:
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'o.db'}")
    store = Storage(eng)
    ana = store.create_profile("Ana", "🦊")
    rules = Rules.preset("relaxed", players=4, teams=True, open_hand=True, capture_sum=20,
                         jokers=True, hand_size=7, miscount="penalty", target=15)
    seats = [SeatSpec("human", "Ana")] + [SeatSpec("bot", f"B{i}", level="random")
                                          for i in range(3)]
    session = GameSession.new(rules, seats, 3, storage=store, profile_id=ana.id)
    session.run_bots()
    resumed = GameSession.resume(store.active_game(ana.id), store)
    assert resumed.rules == rules
    assert resumed.record() == session.record()


# -- issue 6: attempts and daily results (migration 2) --------------------------------------

def _attempt(**changes):
    row = {"day": "2026-12-03", "mode": "practice", "puzzle_id": "captures:1:15:7",
           "kind": "captures", "level": 1, "capture_sum": 15, "facts": ["3+5", "8+7", "15-7"],
           "answers": [["3+5", True, None], ["7+8", True, None], ["15-7", False, None]],
           "answer": ["3o 5c", "2b 6c"], "correct": False, "found": 1, "missed": 0,
           "wrong": 1, "seconds": 12.5, "hints": 1, "stars": 1}
    row.update(changes)
    return row


def test_attempts_are_kept_per_profile_with_everything_asked(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana, leo = store.create_profile("Ana", "🦊"), store.create_profile("Leo", "🐼")
    store.record_attempt(ana.id, _attempt())
    store.record_attempt(ana.id, _attempt(mode="quick", kind="quick-facts", puzzle_id="q",
                                          fact="15-8", fact_seconds=2.25, correct=True))
    store.record_attempt(leo.id, _attempt(puzzle_id="leo"))
    # A restart: a new Storage on the same database reads everything back.
    again = Storage(engine)
    rows = again.attempts(ana.id)
    assert [r["puzzle_id"] for r in rows] == ["captures:1:15:7", "q"]
    first = rows[0]
    assert first["facts"] == ["3+5", "8+7", "15-7"]
    assert first["answers"][2] == ["15-7", False, None]
    assert (first["correct"], first["wrong"], first["hints"], first["stars"]) == (False, 1, 1, 1)
    assert first["seconds"] == 12.5 and first["capture_sum"] == 15 and first["level"] == 1
    assert (rows[1]["fact"], rows[1]["fact_seconds"]) == ("15-8", 2.25)
    assert first["created_at"].tzinfo is not None
    assert [r["puzzle_id"] for r in again.attempts(leo.id)] == ["leo"]
    assert [r["puzzle_id"] for r in again.attempts(ana.id, limit=1)] == ["q"]
    with pytest.raises(ValueError):
        store.record_attempt(ana.id, _attempt(email="no@example.org"))
    store.delete_profile(ana.id)
    assert again.attempts(ana.id) == [] and again.daily_results(ana.id) == []


def test_progress_version_changes_with_everything_my_progress_shows(engine: sa.Engine) -> None:
    """My progress is cached under this version: each write it draws from must change it,
    and writes of another profile must not."""
    store = Storage(engine)
    ana, leo = store.create_profile("Ana", "🦊"), store.create_profile("Leo", "🐼")
    seen = [store.progress_version(ana.id)]

    def changed() -> bool:
        seen.append(store.progress_version(ana.id))
        return seen[-1] != seen[-2]

    assert (seen[0].attempts, seen[0].last_attempt, seen[0].finished_games) == (0, None, 0)
    store.record_attempt(ana.id, _attempt())
    assert changed() and seen[-1].attempts == 1
    store.record_daily_answer(ana.id, "2026-12-03", 3, 0, _attempt(stars=2))
    assert changed() and seen[-1].attempts == 2
    store.record_attempt(leo.id, _attempt())
    assert not changed()
    session = GameSession.new(Rules.preset("classic", target=1),
                              [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="random")],
                              5, storage=store, profile_id=ana.id)
    play_to_end(session)
    assert changed() and seen[-1].finished_games == 1
    store.save_review(session.game_id, [{"round": 1, "mistakes": []}])
    assert changed() and seen[-1].reviews == 1
    store.save_review(session.game_id, [{"round": 1, "mistakes": [["missed_capture", {}]]}])
    assert changed()
    # A new profile under a deleted one's id (SQLite may reuse it) is told apart.
    store.delete_profile(ana.id)
    assert changed() and seen[-1].created_at is None


def test_daily_result_fills_once_and_never_changes_after_completion(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    day = "2026-12-03"
    for index, stars in enumerate([3, 2, 1, 3]):
        result = store.record_daily_answer(ana.id, day, 3, index, _attempt(stars=stars))
    assert result.stars == (3, 2, 1, 3, None) and not result.completed
    # Answering puzzle 1 again before the day is complete does not change its slot.
    assert store.record_daily_answer(ana.id, day, 3, 0, _attempt(stars=1)).stars[0] == 3
    done = store.record_daily_answer(ana.id, day, 3, 4, _attempt(stars=2))
    assert done.completed and done.total == 11 and done.stars == (3, 2, 1, 3, 2)
    # Playing the day again: every slot, any stars: the result stays as it was.
    for index in range(5):
        after = store.record_daily_answer(ana.id, day, 3, index, _attempt(stars=3))
        assert after == done
    assert Storage(engine).daily_result(ana.id, day) == done
    # ... but every attempt was recorded, with its date.
    dailies = [r for r in store.attempts(ana.id) if r["daily_date"] == day]
    assert len(dailies) == 4 + 1 + 1 + 5
    assert [r.day for r in store.daily_results(ana.id)] == [day]


def test_migration_2_upgrades_a_version_1_database(tmp_path) -> None:
    from trainer import storage as storage_mod

    eng = sa.create_engine(f"sqlite:///{tmp_path / 'v1.db'}")
    first = storage_mod.MIGRATIONS[:1]
    original = storage_mod.MIGRATIONS
    storage_mod.MIGRATIONS = first
    try:
        old = Storage(eng)
        assert old.schema_version() == 1
        ana = old.create_profile("Ana", "🦊")
        old.create_game(ana.id, rules={}, seats=[], seed=1, record={"rounds": []})
    finally:
        storage_mod.MIGRATIONS = original
    assert "attempts" not in sa.inspect(eng).get_table_names()
    new = Storage(eng)  # the app starting on an old database
    assert new.schema_version() == 2
    assert {"attempts", "daily_results"} <= set(sa.inspect(eng).get_table_names())
    assert new.list_profiles()[0].nickname == "Ana" and len(new.list_games(ana.id)) == 1
    new.record_attempt(ana.id, _attempt())
    assert len(new.attempts(ana.id)) == 1


def test_two_tabs_answering_the_same_daily_at_once(engine: sa.Engine) -> None:
    """Concurrent first answers of one day: one row, each slot set once, no error."""
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    errors: list[BaseException] = []

    def answer(index: int) -> None:
        try:
            store.record_daily_answer(ana.id, "2026-12-05", 5, index, _attempt(stars=2))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=answer, args=(i % 5,)) for i in range(10)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    result = store.daily_result(ana.id, "2026-12-05")
    assert result.stars == (2, 2, 2, 2, 2) and result.completed
    assert len(store.attempts(ana.id)) == 10
