"""The storage layer against SQLite and a real PostgreSQL server (same tests)."""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest
import sqlalchemy as sa

from escoba import Rules
from puzzles.practice import Attempt
from trainer.evidence import TurnContext
from trainer.gameplay import GameSession, SeatSpec
from trainer.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    GameChanged,
    ProfileData,
    Storage,
    StorageError,
    configure_sqlite,
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path) -> sa.Engine:
    if request.param == "sqlite":
        eng = sa.create_engine(f"sqlite:///{tmp_path / 'store.db'}")
        configure_sqlite(eng)
    else:
        eng = sa.create_engine(request.getfixturevalue("postgres_url"))
    yield eng
    eng.dispose()


def play_to_end(session: GameSession, seed: int = 1, max_actions: int = 5000,
                turn: TurnContext | None = None) -> None:
    """Random legal moves for the child, the bots' own, to the game's end (``turn``: the
    page's context, so the child's turns are kept as evidence)."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if session.is_over:
            return
        if session.round_over:
            session.next_round()
        elif session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            assert session.play_human(move.card, move.take, turn).ok
        else:
            session.bot_step()
    raise AssertionError("game did not end")


def test_migrates_to_current_version_and_is_idempotent(engine: sa.Engine) -> None:
    store = Storage(engine)
    assert store.schema_version() == SCHEMA_VERSION
    assert Storage(engine).migrate() == SCHEMA_VERSION  # a restart migrates nothing
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM schema_version")).scalar()
    assert rows == len(MIGRATIONS)  # one row each (18 is another branch's until merged)
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
    # name_key: the nickname folded (trainer.names); name_scope: where it is unique (a
    # class, or the app's own profiles: issue 27); data_version: a count of writes (issue
    # 32). Nothing more about the child.
    assert columns == {"id", "nickname", "avatar", "settings", "created_at", "pin_hash",
                       "name_key", "name_scope", "data_version"}
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
    # The rounds' points add up to the engine's totals (the one source of totals).
    assert [sum(r.side_points(side) for r in results) for side in (0, 1)] == list(
        resumed.game.totals)
    assert store.active_game(ana.id) is None


def test_a_failed_write_leaves_nothing_half_done(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    game_id = store.create_game(ana.id, rules={"preset": "classic"}, seats=[], seed=1,
                                record={"format": "escoba-record/1", "rounds": []})
    entry = {"seat": 0, "card": "7o", "take": []}
    revision = store.save_progress(game_id, {"rounds": [{"moves": []}]}, revision=0,
                                   new_moves=[(1, 1, entry)])
    with pytest.raises(GameChanged):
        # The second move repeats position (1, 1): the whole transaction rolls back.
        store.save_progress(game_id, {"rounds": [{"moves": []}, {"moves": []}]},
                            revision=revision, new_moves=[(1, 2, entry), (1, 1, entry)])
    assert store.get_game(game_id).record == {"rounds": [{"moves": []}]}
    assert store.get_game(game_id).revision == revision
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
        # Each writer extends the revision it read; when another came first it reads
        # again and retries (what a tab does after being told its board was stale).
        try:
            for k in range(20):
                while True:
                    try:
                        store.save_progress(
                            ids[0], {"n": k}, revision=store.game_state(ids[0])[1],
                            new_moves=[(offset, k + 1, {"seat": 0, "card": "1o", "take": []})])
                        break
                    except GameChanged:
                        continue
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
    from trainer.names import clean_name

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

def _attempt(**changes) -> Attempt:
    row = Attempt(day="2026-12-03", mode="practice", puzzle_id="captures:1:15:7",
                  kind="captures", level=1, capture_sum=15, facts=["3+5", "8+7", "15-7"],
                  answers=[["3+5", True, None], ["7+8", True, None], ["15-7", False, None]],
                  answer=["3o 5c", "2b 6c"], correct=False, found=1, missed=0,
                  wrong=1, seconds=12.5, hints=1, stars=1)
    return dataclasses.replace(row, **changes)


def test_attempts_are_kept_per_profile_with_everything_asked(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana, leo = store.create_profile("Ana", "🦊"), store.create_profile("Leo", "🐼")
    store.record_attempt(ana.id, _attempt())
    store.record_attempt(ana.id, _attempt(mode="quick", kind="quick-facts", puzzle_id="q",
                                          fact="15-8", seconds=2.25, correct=True))
    store.record_attempt(leo.id, _attempt(puzzle_id="leo"))
    # A restart: a new Storage on the same database reads everything back.
    again = Storage(engine)
    rows = again.attempts(ana.id)
    assert [r.puzzle_id for r in rows] == ["captures:1:15:7", "q"]
    first = rows[0]
    assert first.facts == ("3+5", "8+7", "15-7")
    assert first.answers[2] == ("15-7", False, None)
    assert (first.correct, first.wrong, first.hints, first.stars) == (False, 1, 1, 1)
    assert first.seconds == 12.5 and first.capture_sum == 15 and first.level == 1
    assert (rows[1].fact, rows[1].fact_seconds) == ("15-8", 2.25)
    assert first.created_at.tzinfo is not None
    assert first == _attempt()  # read back, it is the value that was recorded
    assert [r.puzzle_id for r in again.attempts(leo.id)] == ["leo"]
    assert [r.puzzle_id for r in again.attempts(ana.id, limit=1)] == ["q"]
    with pytest.raises(TypeError):  # an attempt has its fields and no others
        _attempt(email="no@example.org")
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

    assert seen[0].data_version == 0
    store.record_attempt(ana.id, _attempt())
    assert changed()
    store.record_daily_answer(ana.id, "2026-12-03", 3, 0, _attempt(stars=2))
    assert changed()
    store.record_attempt(leo.id, _attempt())
    assert not changed()
    session = GameSession.new(Rules.preset("classic", target=1),
                              [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="random")],
                              5, storage=store, profile_id=ana.id)
    play_to_end(session)
    assert changed()
    store.save_review(session.game_id, [{"round": 1, "mistakes": []}])
    assert changed()
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
    dailies = [r for r in store.attempts(ana.id) if r.daily_date == day]
    assert len(dailies) == 4 + 1 + 1 + 5
    assert [r.day for r in store.daily_results(ana.id)] == [day]


def test_migration_2_upgrades_a_version_1_database(tmp_path) -> None:
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'v1.db'}")
    old = Storage(eng, migrate=False)
    assert old.migrate(upto=1) == 1
    with eng.begin() as conn:  # a version-1 database's rows, in version 1's columns
        conn.execute(sa.text("INSERT INTO profiles (nickname, avatar, settings, created_at) "
                             "VALUES ('Ana', '🦊', '{}', '2026-11-01 10:00:00')"))
        conn.execute(sa.text(
            "INSERT INTO games (profile_id, status, rules, seats, options, seed, record, "
            "created_at, updated_at) VALUES (1, 'playing', '{}', '[]', '{}', 1, "
            "'{\"rounds\": []}', '2026-11-01 10:00:00', '2026-11-01 10:00:00')"))
    assert "attempts" not in sa.inspect(eng).get_table_names()
    new = Storage(eng)  # the app starting on an old database
    assert new.schema_version() == SCHEMA_VERSION
    assert {"attempts", "daily_results"} <= set(sa.inspect(eng).get_table_names())
    ana = new.list_profiles()[0]
    assert ana.nickname == "Ana" and len(new.list_games(ana.id)) == 1
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


# -- issue 10: two tabs on one game; a parent's PIN, rename, delete ---------------------------

def _two_tabs(store: Storage) -> tuple[GameSession, GameSession]:
    ana = store.create_profile("Ana", "🦊")
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "Bot", level="random")]
    first = GameSession.new(Rules.preset("classic", target=5), seats, 11, storage=store,
                            profile_id=ana.id)
    first.run_bots()
    return first, GameSession.resume(store.active_game(ana.id), store)


def test_a_move_from_a_stale_session_is_refused_and_nothing_is_written(engine) -> None:
    store = Storage(engine)
    tab_a, tab_b = _two_tabs(store)
    move = tab_a.observation(tab_a.to_move).legal_moves()[0]
    assert tab_a.play_human_then_bots(move.card, move.take).ok
    saved = store.move_entries(tab_a.game_id)
    revision = store.game_state(tab_a.game_id)[1]
    outcome = tab_b.play_human_then_bots(move.card, move.take)  # the same card, again
    assert (outcome.ok, outcome.key, tab_b.conflict) == (False, "game_stale", "game_stale")
    assert store.move_entries(tab_a.game_id) == saved
    assert store.game_state(tab_a.game_id)[1] == revision
    # A refused session plays nothing more until it is reloaded.
    assert tab_b.bot_step() == [] and tab_b.claim_renuncio().key == "game_stale"
    again = GameSession.resume(store.get_game(tab_a.game_id), store)
    assert again.record() == tab_a.record() and again.revision == tab_a.revision


def test_a_left_game_refuses_every_move_and_its_record_is_shareable_only_then(engine) -> None:
    store = Storage(engine)
    tab_a, _ = _two_tabs(store)
    assert store.shareable_record(tab_a.game_id) is None  # in play: the hidden hands
    store.create_game(store.get_game(tab_a.game_id).profile_id,  # another tab's new game
                      rules={}, seats=[], seed=2, record={"rounds": []})
    move = tab_a.observation(tab_a.to_move).legal_moves()[0]
    saved = store.move_entries(tab_a.game_id)
    assert tab_a.play_human_then_bots(move.card, move.take).key == "game_closed"
    assert store.move_entries(tab_a.game_id) == saved
    assert store.shareable_record(tab_a.game_id)["rounds"][0]["moves"] == [
        e for _, _, e in saved]


def test_a_pin_is_a_salted_slow_hash_and_a_wrong_one_changes_nothing(engine) -> None:
    from trainer.storage.profiles import hash_pin, pin_matches

    first, second = hash_pin("2468"), hash_pin("2468")
    assert first != second and first.startswith("scrypt$") and "2468" not in first
    assert pin_matches("2468", first) and not pin_matches("2469", first)
    assert not pin_matches("2468", "garbage")
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    store.create_profile("Leo", "🐼")
    with pytest.raises(StorageError) as short:
        store.set_pin(ana.id, "12")
    assert short.value.key == "pin_format"
    store.set_pin(ana.id, "2468")
    assert store.get_profile(ana.id).protected
    with engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT pin_hash FROM profiles WHERE id = :i"),
                              {"i": ana.id}).scalar()
    assert "2468" not in stored
    for action in (lambda pin: store.rename_profile(ana.id, "Anita", pin=pin),
                   lambda pin: store.set_pin(ana.id, None, pin=pin),
                   lambda pin: store.delete_profile(ana.id, pin=pin)):
        for wrong in (None, "1357"):
            with pytest.raises(StorageError) as refused:
                action(wrong)
            assert refused.value.key == "pin_wrong"
    assert store.get_profile(ana.id).nickname == "Ana" and store.get_profile(ana.id).protected
    with pytest.raises(StorageError) as taken:
        store.rename_profile(ana.id, "LEO", pin="2468")
    assert taken.value.key == "profile_taken"
    assert store.rename_profile(ana.id, "Anita", pin="2468").nickname == "Anita"
    store.record_attempt(ana.id, _attempt())
    store.create_game(ana.id, rules={}, seats=[], seed=1, record={"rounds": []})
    assert store.profile_data(ana.id) == ProfileData(games=1, attempts=1, dailies=0)
    # each kind of answer counted apart for the parent's summary (issue 33)
    store.record_attempt(ana.id, _attempt(mode="quick", kind="quick-facts", puzzle_id="q",
                                          fact="15-8"))
    store.record_attempt(ana.id, _attempt(mode="game", puzzle_id="game-1-1-3"))
    data = store.profile_data(ana.id)
    assert (data.attempts, data.puzzles, data.quick_facts, data.game_turns) == (3, 1, 1, 1)
    store.delete_profile(ana.id, pin="2468")
    assert store.get_profile(ana.id) is None and store.attempts(ana.id) == []
