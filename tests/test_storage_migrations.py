"""Every earlier database upgrades to the latest schema and keeps its rows (issue 9).

For each migration k, a database is built by the migrations up to k only, filled
with rows in the columns it had *then* (written here as data, frozen like the
migrations), and opened by today's :class:`Storage`, which upgrades it. The
rows must all read back. Runs on SQLite and on a real PostgreSQL server.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from puzzles.practice import Attempt
from trainer.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    NewMember,
    Storage,
    StorageError,
    configure_sqlite,
    metadata,
)
from trainer.storage.migrations import DERIVABLE_COLUMNS

WHEN = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
POINTS = [{"cards": 1, "oros": 0, "escobas": 2}, {"cards": 0, "oros": 1, "escobas": 0}]
ENTRIES = [{"seat": 0, "card": "7o", "take": ["8e"]}, {"seat": 1, "card": "3c", "take": []},
           {"seat": 0, "card": "5b", "take": [], "miscount": ["4o", "6c"]}]

#: The rows a database had at each version, in that version's columns.
ROWS_AT: dict[int, list[tuple[str, dict[str, Any]]]] = {
    1: [
        ("profiles", {"id": 1, "nickname": "Ana", "avatar": "🦊", "settings": '{"deck": "french"}',
                      "created_at": WHEN}),
        ("games", {"id": 1, "profile_id": 1, "status": "finished", "rules": "{}", "seats": "[]",
                   "options": "{}", "seed": 7, "record": '{"rounds": [{"moves": []}]}',
                   "winner": 0, "review": None, "created_at": WHEN, "updated_at": WHEN}),
        *[("moves", {"game_id": 1, "round_no": 1, "move_no": n, "seat": e["seat"],
                     "kind": "miscount" if "miscount" in e else "play", "entry": json.dumps(e),
                     "created_at": WHEN}) for n, e in enumerate(ENTRIES, start=1)],
        ("results", {"game_id": 1, "round_no": 1, "points": json.dumps(POINTS),
                     "totals": "[3, 1]", "escobas": "[2, 0]", "created_at": WHEN}),
    ],
    2: [
        ("attempts", {"profile_id": 1, "created_at": WHEN, "day": "2026-11-01", "mode": "quick",
                      "puzzle_id": "quick-facts:1:15:x", "kind": "quick-facts", "level": 1,
                      "capture_sum": 15, "facts": '["7+8", "15-8"]',
                      "answers": '[["15-8", true, 2.5]]', "answer": "[7]", "correct": True,
                      "found": 1, "missed": 0, "wrong": 0, "seconds": 2.5, "hints": 0,
                      "stars": 3, "fact": "15-8", "fact_seconds": 2.5, "daily_date": None}),
        ("daily_results", {"profile_id": 1, "day": "2026-11-01", "number": 1,
                           "stars": "[3, 2, 1, 3, 2]", "total": 11, "completed_at": WHEN,
                           "created_at": WHEN}),
    ],
    3: [
        ("profiles", {"id": 2, "nickname": "Leo", "avatar": "🐼", "settings": "{}",
                      "created_at": WHEN, "pin_hash": None}),
        ("games", {"id": 2, "profile_id": 2, "status": "playing", "rules": "{}", "seats": "[]",
                   "options": "{}", "seed": 8, "record": '{"rounds": []}', "winner": None,
                   "review": None, "created_at": WHEN, "updated_at": WHEN, "revision": 4}),
    ],
    4: [
        ("lesson_results", {"profile_id": 1, "stage": "escoba", "level": "two_cards",
                            "stars": 2, "plays": 3, "created_at": WHEN, "updated_at": WHEN}),
    ],
    5: [
        ("teachers", {"id": 1, "name": "Ms Díaz", "name_key": "ms diaz",
                      "password_hash": "scrypt$16384$8$1$00$00", "created_at": WHEN,
                      "failed_attempts": 0, "locked_until": None}),
        ("classes", {"id": 1, "teacher_id": 1, "name": "3B", "code": "KDM472",
                     "fluency_seconds": 6, "capture_sum": 15, "archived_at": None,
                     "created_at": WHEN}),
        ("class_members", {"class_id": 1, "profile_id": 1, "real_name": "Ana García",
                           "failed_attempts": 0, "locked_until": None, "created_at": WHEN}),
        ("assignments", {"class_id": 1, "kind": "weakest",
                         "spec": '{"capture_sum": 15, "count": 5}', "due": "2026-11-08",
                         "created_at": WHEN}),
    ],
    6: [
        ("game_tables", {"id": 1, "code": "K7MPX", "opener_id": 1, "class_id": 1,
                         "game_id": 1, "status": "playing",
                         "settings": '{"rules": {"preset": "classic", "players": 2}, '
                                     '"plan": [{"kind": "human"}, {"kind": "human"}]}',
                         "version": 2, "created_at": WHEN, "updated_at": WHEN}),
        ("table_seats", {"table_id": 1, "seat": 0, "kind": "human", "profile_id": 1,
                         "name": "Ana", "avatar": "🦊", "level": "", "token_hash": "ab" * 32,
                         "from_round": 1, "from_move": 1, "last_seen": WHEN, "left_at": None,
                         "created_at": WHEN}),
    ],
    7: [
        ("lesson_goes", {"profile_id": 1, "stage": "escoba", "level": "three_cards",
                         "tries": 9, "wrong": 7, "started_at": WHEN, "updated_at": WHEN}),
    ],
    8: [],  # an index only (table_seats.profile_id): no new rows
    9: [
        ("profiles", {"id": 3, "nickname": "Zoe", "avatar": "🐝", "settings": "{}",
                      "created_at": WHEN, "pin_hash": None, "name_key": "zoe"}),
    ],
    10: [("secret_tries", {"scope": "parent_pin", "subject": "1", "failures": 2,
                          "locked_until": None, "last_failure": WHEN})],
    11: [("puzzle_progress", {"profile_id": 1, "slot": "pz", "puzzle_id": "captures-1-15-x",
                              "data": "{}", "updated_at": WHEN})],
    12: [],  # a column with a default (classes.voice): no new rows
    13: [
        ("classes", {"id": 2, "teacher_id": 1, "name": "2.º C", "code": "PRT396",
                     "fluency_seconds": 6, "capture_sum": 15, "archived_at": None,
                     "voice": False, "created_at": WHEN}),
        # Another class's "Ana": names are unique within a class now.
        ("profiles", {"id": 4, "nickname": "Ana", "avatar": "🌙", "settings": "{}",
                      "created_at": WHEN, "pin_hash": None, "name_key": "ana",
                      "name_scope": "class:2"}),
        ("class_members", {"class_id": 2, "profile_id": 4, "real_name": None,
                           "failed_attempts": 0, "locked_until": None, "created_at": WHEN,
                           "card_pin": "4821"}),
        ("teacher_invites", {"code_hash": "ab" * 32, "created_by": 1, "created_at": WHEN,
                             "expires_at": WHEN, "used_at": None, "used_by": None}),
    ],
    14: [],  # classes.idle_minutes (a default) and signed_out_at (nullable): no new rows
    15: [],  # profiles.data_version and classes.data_version (defaults): no new rows
    # The attempts' aggregates: computed by the migration from the attempts before it
    # (tests/test_storage_aggregates.py checks them all), no rows of their own.
    16: [],
    # Each pupil's progress on each assignment: computed by the migration from the
    # attempts before it (tests/test_classroom_aggregates.py checks it), no rows of its own.
    17: [],
    18: [
        ("class_groups", {"id": 1, "class_id": 1, "name": "Table 1", "name_key": "table 1",
                          "created_at": WHEN}),
        ("group_members", {"group_id": 1, "profile_id": 1}),
        ("assignments", {"class_id": 1, "kind": "puzzles", "group_id": 1, "profile_id": None,
                         "spec": '{"capture_sum": 15, "count": 2, "kind": "captures", '
                                 '"level": 1}', "due": None, "created_at": WHEN}),
    ],
    # Live rounds (issue 29): new tables, written by the live round only.
    19: [],
    # The class against the computer (issue 29): new tables, written by its games only.
    20: [],
    # The teacher's live view (issue 29): each pupil's activity, kept current as they go.
    21: [
        ("pupil_activity", {"profile_id": 1, "class_id": 1, "device": "AB12C",
                            "page": "puzzles", "assignment_id": None, "page_since": WHEN,
                            "seen_at": WHEN, "answer_at": None, "right_at": None,
                            "wrong_streak": 0, "recent": "[]", "answer_what": None}),
    ],
    # The right quick facts per second, computed from quick_fact_times by the migration
    # (tests/test_storage_aggregates.py checks it), and an index: no rows of their own.
    22: [],
    # Each fact's Leitner box, two columns of fact_progress computed by the migration from
    # the attempts (tests/test_storage_aggregates.py checks them): no rows of their own.
    23: [],
    # A fact's last tries of any kind, fact_progress's column counted again by the
    # migration from the attempts (tests/test_classroom_aggregates.py checks it).
    24: [],
    # The facts assignments' progress counted again by the question answered
    # (tests/test_classroom_aggregates.py checks it): no rows of its own.
    25: [],
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def make_engine(request: pytest.FixtureRequest, tmp_path):  # a factory of engines
    engines: list[sa.Engine] = []

    def make(name: str) -> sa.Engine:
        if request.param == "sqlite":
            eng = sa.create_engine(f"sqlite:///{tmp_path / (name + '.db')}")
            configure_sqlite(eng)
        else:
            eng = sa.create_engine(request.getfixturevalue("postgres_url"))
        engines.append(eng)
        return eng

    yield make
    for eng in engines:
        eng.dispose()


def _an_attempt() -> Attempt:
    return Attempt(day="2026-11-01", mode="quick", puzzle_id="quick-facts:1:15:x",
                   kind="quick-facts", level=1, capture_sum=15, facts=("7+8",), answers=(),
                   answer=(8,), correct=True, found=1, missed=0, wrong=0, seconds=2.0,
                   hints=0, stars=3, fact="7+8")


def _fill(engine: sa.Engine, upto: int) -> None:
    """Migrate one version at a time up to ``upto``, writing each version's rows in the
    columns it had then (a later migration may drop some of them)."""
    store = Storage(engine, migrate=False)
    # The versions as numbered (18 comes from a branch not merged yet: numbers may skip).
    for version in [m.version for m in MIGRATIONS if m.version <= upto]:
        assert store.migrate(upto=version) == version
        with engine.begin() as conn:
            for name, values in ROWS_AT[version]:
                table = sa.Table(name, sa.MetaData(), autoload_with=conn)
                conn.execute(table.insert().values(**values))
    if engine.dialect.name == "postgresql":  # explicit ids: move the sequences on
        with engine.begin() as conn:
            for name in ("profiles", "games", "teachers", "classes", "game_tables",
                         "class_groups"):
                if not sa.inspect(conn).has_table(name):
                    continue
                conn.execute(sa.text(f"SELECT setval('{name}_id_seq', 100)"))


def test_rows_for_every_version_are_written_down() -> None:
    assert set(ROWS_AT) == {m.version for m in MIGRATIONS}


@pytest.mark.parametrize("stop", [m.version for m in MIGRATIONS[:-1]])
def test_a_database_stopped_after_each_migration_upgrades_and_keeps_its_rows(
        make_engine, stop: int) -> None:
    engine = make_engine(f"v{stop}")
    _fill(engine, stop)
    assert Storage(engine, migrate=False).schema_version() == stop
    store = Storage(engine)  # the app starting on the old database
    assert store.schema_version() == SCHEMA_VERSION
    ana = store.get_profile(1)
    assert (ana.nickname, ana.avatar, ana.settings, ana.protected) == (
        "Ana", "🦊", {"deck": "french"}, False)
    game = store.get_game(1)
    assert (game.status, game.winner, game.seed, game.created_at) == ("finished", 0, 7, WHEN)
    assert [entry for _, _, entry in store.move_entries(1)] == ENTRIES
    assert store.complete_record(game)["rounds"][0]["moves"] == ENTRIES
    (result,) = store.round_results(1)
    # What the dropped columns held is still there, derived from what is kept.
    assert result.points == POINTS and [result.escobas(0), result.escobas(1)] == [2, 0]
    assert [result.side_points(0), result.side_points(1)] == [3, 1]
    if stop >= 2:
        (attempt,) = store.attempts(1)
        assert (attempt.fact, attempt.fact_seconds, attempt.answers) == (
            "15-8", 2.5, (("15-8", True, 2.5),))
        # Migration 16 counted the attempt: the dashboard's totals and its fact's cell.
        with engine.connect() as conn:
            totals = conn.execute(sa.text("SELECT quick_facts, solved FROM attempt_totals "
                                          "WHERE profile_id = 1")).one()
            fact = conn.execute(sa.text("SELECT tries, recent FROM fact_progress "
                                        "WHERE profile_id = 1")).one()
        assert tuple(totals) == (1, 1) and fact.tries == 1
        assert [entry[3:] for entry in json.loads(fact.recent)] == [[True, 2.5]]
        daily = store.daily_result(1, "2026-11-01")
        assert daily.total == 11 and daily.completed and daily.stars == (3, 2, 1, 3, 2)
    if stop >= 4:
        best = store.lesson_results(1)[("escoba", "two_cards")]
        assert (best.stars, best.plays, best.updated_at) == (2, 3, WHEN)
    # Before migration 7 no go was kept: an upgraded database has none, and takes them.
    goes = store.lesson_goes(1)
    assert list(goes) == ([("escoba", "three_cards")] if stop >= 7 else [])
    # Migration 8's index is there however old the database was.
    assert ["profile_id"] in [ix["column_names"]
                              for ix in sa.inspect(engine).get_indexes("table_seats")]
    # Migration 9 folded every nickname and teacher's name by today's rule: Ms Díaz is
    # found by hers, and Ana's name is taken in any look.
    # Migration 13 put each pupil's name in its class: Ana (a pupil of 3B from migration
    # 5's rows) is taken in 3B in any look, and no more among the app's own profiles.
    if stop >= 5:
        assert store.teacher_named("ms diaz").name == "Ms Díaz"
        with pytest.raises(StorageError) as taken:
            store.add_members(1, [NewMember("ANA", "🐸", "4821")])
        assert store.create_profile("ANA", "🐸").nickname == "ANA"
    else:
        with pytest.raises(StorageError) as taken:
            store.create_profile("ANA", "🐸")
    assert taken.value.key == "profile_taken"
    # Its rebuilt profiles table (SQLite) kept every child's rows: no foreign key points
    # nowhere, and they are enforced again after the migration.
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    # Migration 15: every profile and class starts at data version 0, and the next write
    # a view draws moves it.
    assert store.progress_version(1) == (WHEN, 0)
    store.record_attempt(1, store.attempts(1)[0] if stop >= 2 else _an_attempt())
    assert store.progress_version(1) == (WHEN, 1)
    if stop >= 5:
        assert store.class_version(1) == (WHEN, 1)  # Ana is a pupil of 3B
    # Migration 17 (or the assignment's making, after it): Ana's progress on 3B's weakest
    # facts assignment, chosen from no answers before it; the attempt of its very moment
    # counts (8 + ? = 15 is among them), as does the one just recorded.
    if stop >= 5:
        progress = store.class_snapshot(1).progress
        # the weakest facts assignment (migration 5's rows); migration 18's rows add a
        # group's assignment for Ana's group
        assert len(progress) == (2 if stop >= 18 else 1)
        task = progress[min(progress)]
        assert task[1].facts == ("15-5", "15-6", "15-7", "15-8", "15-9")
        assert (task[1].tried, set(task[1].fact_marks)) == (2, {"15-8"})
    # The upgraded database takes new rows as a new one does.
    if stop >= 3:  # Leo came with migration 3's rows: his game and PIN column read back
        leo = store.get_profile(2)
        assert (leo.nickname, leo.protected, store.get_game(2).revision) == ("Leo", False, 4)
    mia = store.create_profile("Mia", "🐸")
    game_id = store.create_game(mia.id, rules={}, seats=[], seed=1, record={"rounds": []})
    assert store.save_progress(game_id, None, revision=0, new_moves=[(1, 1, ENTRIES[0])]) == 1
    assert store.record_lesson(mia.id, "escoba", "two_cards", 3, 2).stars == 3
    go = store.record_lesson_try(mia.id, "escoba", "three_cards", right=False)
    assert (go.tries, go.wrong) == (1, 1)
    # ... and classroom rows (migration 5): a teacher, a class, a pupil, an assignment.
    teacher = store.create_teacher("Mr Roe", "a long passphrase")
    room = store.create_class(teacher.id, "4A", "PRT397", fluency_seconds=6, capture_sum=15)
    (pupil,) = store.add_members(room.id, [NewMember("Leo 2", "🌙", "4821", "Leo Ruiz")])
    store.create_assignment(room.id, "lesson", {"stage": "values"}, None)
    snap = store.class_snapshot(room.id)
    assert [m.nickname for m in snap.members] == ["Leo 2"] and len(snap.assignments) == 1
    assert store.check_pin(pupil.profile_id, "4821")
    # ... and a table between devices (migration 6), its game left out of Mia's Play page.
    table = store.create_table("QRS23", mia.id, settings={"plan": []}, seats=[])
    store.start_table(table, profile_id=mia.id, rules={}, seats=[], seed=2,
                      record={"rounds": []}, options={})
    assert store.table_by_code("QRS23").status == "playing"
    assert store.active_game(mia.id).id == game_id


def test_the_tables_the_code_queries_are_the_ones_the_migrations_build(make_engine) -> None:
    engine = make_engine("now")
    Storage(engine)
    inspector = sa.inspect(engine)
    for table in metadata.sorted_tables:
        built = {c["name"]: c["nullable"] for c in inspector.get_columns(table.name)}
        declared = {c.name: c.nullable for c in table.columns}
        assert built == declared, table.name
        # ... and the same indexes: a query the code counts on being indexed is.
        built_ix = {(tuple(ix["column_names"]), bool(ix["unique"]))
                    for ix in inspector.get_indexes(table.name)
                    if not ix.get("duplicates_constraint")}
        declared_ix = {(tuple(c.name for c in ix.columns), bool(ix.unique))
                       for ix in table.indexes}
        assert built_ix == declared_ix, table.name
    for table, column in DERIVABLE_COLUMNS:
        assert column not in {c["name"] for c in inspector.get_columns(table)}


# -- atomic migrations (issue 25) ----------------------------------------------------------


def _database_as_it_is(engine: sa.Engine) -> dict[str, Any]:
    """Everything a migration could change: each table's columns (type, nullability,
    default), keys, indexes, constraints, and its rows. Read table by table through
    SQLAlchemy's multi-table reflection (a few catalog queries for all of them)."""
    inspector = sa.inspect(engine)
    metadata = sa.MetaData()
    found: dict[str, Any] = {}
    with engine.connect() as conn:
        metadata.reflect(bind=conn)
        columns = inspector.get_multi_columns()
        keys = inspector.get_multi_pk_constraint()
        foreign = inspector.get_multi_foreign_keys()
        indexes = inspector.get_multi_indexes()
        unique = inspector.get_multi_unique_constraints()
        for name in sorted(metadata.tables):
            at = (None, name)
            rows = sorted(repr(tuple(row))
                          for row in conn.execute(sa.select(metadata.tables[name])))
            found[name] = {
                "columns": [(c["name"], str(c["type"]), c["nullable"], c.get("default"))
                            for c in columns[at]],
                "primary_key": keys[at]["constrained_columns"],
                "foreign_keys": sorted(repr(sorted(fk.items())) for fk in foreign[at]),
                "indexes": sorted(repr(sorted(ix.items())) for ix in indexes[at]),
                "unique": sorted(repr(sorted(u.items())) for u in unique[at]),
                "rows": rows,
            }
    return found


class InjectedFailure(RuntimeError):
    pass


def _failing_after(migration: Any, statements: int | None) -> Any:
    """``migration`` whose apply fails after its first ``statements`` statements (all of
    them when None): the state issue 25 found, a column dropped and the version not."""
    def apply(conn: sa.Connection) -> None:
        if statements is None:
            migration.apply(conn)
            raise InjectedFailure(migration.version)
        ran = 0

        def count(*_args: Any) -> None:
            nonlocal ran
            ran += 1
            if ran == statements:
                raise InjectedFailure(migration.version)

        sa.event.listen(conn, "after_cursor_execute", count)
        try:
            migration.apply(conn)
        finally:
            sa.event.remove(conn, "after_cursor_execute", count)
        raise InjectedFailure(migration.version)  # fewer statements than that: fail at its end

    return type(migration)(migration.version, migration.description, apply)


@pytest.mark.parametrize("statements", [1, None], ids=["after-its-first-statement", "at-its-end"])
@pytest.mark.parametrize("version", [m.version for m in MIGRATIONS])
def test_a_migration_that_fails_leaves_the_database_at_the_version_before(
        make_engine, monkeypatch: pytest.MonkeyPatch, version: int,
        statements: int | None) -> None:
    from trainer.storage import schema

    engine = make_engine(f"fail{version}")
    previous = max((m.version for m in MIGRATIONS if m.version < version), default=0)
    _fill(engine, previous)
    Storage(engine, migrate=False).migrate(upto=0)  # the version's own table, even at 0
    before = _database_as_it_is(engine)
    broken = tuple(_failing_after(m, statements) if m.version == version else m
                   for m in MIGRATIONS)
    monkeypatch.setattr(schema, "MIGRATIONS", broken)
    with pytest.raises(InjectedFailure):
        Storage(engine)
    assert Storage(engine, migrate=False).schema_version() == previous
    assert _database_as_it_is(engine) == before  # every statement of it undone
    # ... and the next start, the fault gone, migrates to the latest.
    monkeypatch.setattr(schema, "MIGRATIONS", MIGRATIONS)
    assert Storage(engine).schema_version() == SCHEMA_VERSION


def test_migrations_from_several_processes_at_once_apply_each_once(tmp_path) -> None:
    """Replicas starting together on one SQLite file: the first takes the write lock
    (BEGIN IMMEDIATE) before it re-reads the version, the others wait and find it done."""
    import threading

    path = tmp_path / "race.db"
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def start_app() -> None:
        engine = sa.create_engine(f"sqlite:///{path}")
        configure_sqlite(engine, busy_timeout_ms=30_000)
        try:
            start.wait()
            Storage(engine)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start_app) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        versions = [v for (v,) in conn.exec_driver_sql("SELECT version FROM schema_version")]
    engine.dispose()
    assert sorted(versions) == [m.version for m in MIGRATIONS]


def test_the_migrated_database_has_the_declared_types_and_constraints(make_engine) -> None:
    """Alembic's comparison (what ``alembic check`` runs) of the migrated database with
    the declared tables: types, nullability, server defaults, indexes, unique and
    foreign keys. Nothing may differ."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = make_engine("drift")
    Storage(engine)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "compare_server_default": True})
        differences = compare_metadata(context, metadata)
    assert differences == []


def test_names_alike_taken_before_the_rule_all_stay_and_none_more_is_taken(make_engine) -> None:
    """Before migration 9, "Lola" and "LoIa" (a capital i) could both be taken. The
    migration keeps both as they are (the first keeps the key, the other gets it with its
    id) and from then on no third look-alike is taken."""
    engine = make_engine("alike")
    _fill(engine, 8)
    with engine.begin() as conn:
        table = sa.Table("profiles", sa.MetaData(), autoload_with=conn)
        conn.execute(table.insert(), [
            {"id": 10, "nickname": "Lola", "avatar": "🦊", "settings": "{}",
             "created_at": WHEN, "pin_hash": None},
            {"id": 11, "nickname": "LoIa", "avatar": "🐼", "settings": "{}",
             "created_at": WHEN, "pin_hash": None}])
    store = Storage(engine)
    assert [store.get_profile(i).nickname for i in (10, 11)] == ["Lola", "LoIa"]
    with engine.connect() as conn:
        keys = dict(conn.execute(sa.text("SELECT id, name_key FROM profiles "
                                         "WHERE id IN (10, 11)")).all())
    assert keys == {10: "lola", 11: "lola#11"}
    for look_alike in ("Lօla", "Lolɑ", "Loıa", "LOLA"):
        with pytest.raises(StorageError):
            store.create_profile(look_alike, "🐸")
