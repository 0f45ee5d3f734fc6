"""Data versions (issue 32): every write a view draws moves the version its cache is keyed
by, in the write's own transaction, and reading a version is one lookup by primary key.

``WRITES`` is the one list: each write, what it needs done first, and which versions it
moves (``progress``: Ana's :meth:`Storage.progress_version`, My progress's key;
``class``: her class's :meth:`Storage.class_version`, the teacher's views' key). One test
per write is generated from it; another checks that every method of :class:`Storage`
that opens a transaction is in it or is said, with a reason, to write nothing those
views draw. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from puzzles.practice import Attempt
from trainer.storage import NewMember, NewSeat, Storage, configure_sqlite

WHEN = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)
RECORD: dict[str, Any] = {"rounds": []}


def _attempt(**changes: Any) -> Attempt:
    values: dict[str, Any] = dict(
        day="2026-12-04", mode="quick", puzzle_id="quick-facts:1:15:x", kind="quick-facts",
        level=1, capture_sum=15, facts=["7+8"], answers=[["7+8", True, 2.0]], answer=[8],
        correct=True, found=1, missed=0, wrong=0, seconds=2.0, hints=0, stars=3, fact="7+8")
    values.update(changes)
    return Attempt(**values)


@dataclass
class World:
    """A teacher's class with Ana and Leo, another class with Mia, and Zoe on her own."""

    store: Storage
    class_id: int
    other_class: int
    ana: int
    leo: int
    mia: int
    zoe: int
    teacher: int
    colleague: int
    kept: dict[str, int] = field(default_factory=dict)  # what a preparation made

    def game(self, profile_id: int | None = None) -> int:
        return self.store.create_game(profile_id or self.ana, rules={}, seats=[], seed=1,
                                      record=RECORD)

    def table(self) -> int:
        """A table Ana opened, Leo joined (a waiting room: no game yet)."""
        table = self.store.create_table("K7MPX", self.ana, settings={}, seats=[
            NewSeat(0, "human", "Ana", "🦊", profile_id=self.ana, token_hash="a" * 64),
            NewSeat(1, "human", "Leo", "🐼", profile_id=self.leo, token_hash="b" * 64)])
        return table.id

    def started_table(self) -> int:
        table_id = self.table()
        self.start(table_id)
        return table_id

    def start(self, table_id: int) -> None:
        table = self.store.get_table(table_id)
        assert table is not None
        self.store.start_table(table, profile_id=self.ana, rules={}, seats=[], seed=1,
                               record=RECORD, options={})

    def finished_game(self) -> int:
        game_id = self.game()
        self.store.save_progress(game_id, RECORD, revision=0, finished=True, winner=0,
                                 review=[{"round": 1, "mistakes": ["a"]}])
        return game_id


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def world(request: pytest.FixtureRequest, tmp_path) -> Any:
    if request.param == "sqlite":
        engine = sa.create_engine(f"sqlite:///{tmp_path / 'versions.db'}")
        configure_sqlite(engine)
    else:
        engine = sa.create_engine(request.getfixturevalue("postgres_url"))
    store = Storage(engine)
    teacher = store.create_teacher("Ms Díaz", "a long password")
    colleague = store.create_teacher("Mr Ruiz", "another password")
    mine = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    other = store.create_class(teacher.id, "4A", "PRT396", fluency_seconds=6, capture_sum=15)
    ana, leo = store.add_members(mine.id, [NewMember("Ana", "🦊", "1234", "Ana García"),
                                           NewMember("Leo", "🐼", "5678")])
    (mia,) = store.add_members(other.id, [NewMember("Mia", "🐸", "4321")])
    zoe = store.create_profile("Zoe", "🐝")
    yield World(store, mine.id, other.id, ana.profile_id, leo.profile_id, mia.profile_id,
                zoe.id, teacher.id, colleague.id)
    engine.dispose()


Action = Callable[[World], Any]


@dataclass(frozen=True)
class Write:
    name: str
    methods: tuple[str, ...]  # the Storage methods it exercises (the coverage check)
    act: Action
    moves: frozenset[str]  # "progress" (Ana's), "class" (her class's)
    prepare: Action | None = None


def _write(name: str, methods: str, act: Action, moves: str,
           prepare: Action | None = None) -> Write:
    return Write(name, tuple(methods.split()), act, frozenset(moves.split()), prepare)


def _keep(key: str, make: Callable[[World], int]) -> Action:
    def prepare(w: World) -> None:
        w.kept[key] = make(w)
    return prepare


BOTH, CLASS = "progress class", "class"
WEAKEST = {"count": 5, "capture_sum": 15}
LIVE = {"puzzle": "fifteens:2:15:abc"}

WRITES: tuple[Write, ...] = (
    # What the child does: answers, games, lessons.
    _write("attempt", "record_attempt", lambda w: w.store.record_attempt(w.ana, _attempt()),
           BOTH),
    _write("daily answer", "record_daily_answer _record_daily_answer",
           lambda w: w.store.record_daily_answer(w.ana, "2026-12-04", 1, 0, _attempt()), BOTH),
    _write("game started", "create_game", lambda w: w.game(), CLASS),
    _write("game move", "save_progress",
           lambda w: w.store.save_progress(w.kept["game"], None, revision=0), CLASS,
           _keep("game", World.game)),
    _write("game turn as evidence", "save_progress",
           lambda w: w.store.save_progress(w.kept["game"], None, revision=0,
                                           evidence=[_attempt(mode="game")]), BOTH,
           _keep("game", World.game)),
    _write("Leo's turn at Ana's table as his evidence", "save_progress",
           lambda w: w.store.save_progress(w.kept["game"], None, revision=0,
                                           evidence=[_attempt(mode="game")],
                                           evidence_profile=w.leo), CLASS,
           _keep("game", World.game)),
    _write("game finished with its review", "save_progress",
           lambda w: w.store.save_progress(w.kept["game"], RECORD, revision=0, finished=True,
                                           winner=1, review=[{"round": 1}]), BOTH,
           _keep("game", World.game)),
    _write("review rewritten at the same length", "save_review",
           lambda w: w.store.save_review(w.kept["game"], [{"round": 1, "mistakes": ["b"]}]),
           BOTH, _keep("game", World.finished_game)),
    _write("game abandoned", "abandon_game", lambda w: w.store.abandon_game(w.kept["game"]),
           CLASS, _keep("game", World.game)),
    _write("lesson level done", "record_lesson _record_lesson",
           lambda w: w.store.record_lesson(w.ana, "escoba", "two_cards", 2, 3), BOTH),
    _write("lesson level done better", "record_lesson _record_lesson",
           lambda w: w.store.record_lesson(w.ana, "escoba", "two_cards", 3, 3), BOTH,
           lambda w: w.store.record_lesson(w.ana, "escoba", "two_cards", 2, 3)),
    _write("lesson try", "record_lesson_try _record_try",
           lambda w: w.store.record_lesson_try(w.ana, "escoba", "two_cards", right=False),
           CLASS),
    _write("table's game started", "start_table", lambda w: w.start(w.kept["table"]), CLASS,
           _keep("table", World.table)),
    _write("seat handed to the computer", "hand_seat_over",
           lambda w: w.store.hand_seat_over(
               w.store.get_table(w.kept["table"]), 1, NewSeat(1, "bot", "B", "🤖", "gentle"),
               game_revision=0, seats=[], from_round=1, from_move=1), CLASS,
           _keep("table", World.started_table)),
    # The profile's own edits.
    _write("settings", "update_settings",
           lambda w: w.store.update_settings(w.ana, {"deck": "french"}), BOTH),
    _write("parent's PIN", "set_pin", lambda w: w.store.set_pin(w.zoe, "2468"), BOTH),
    _write("renamed by a parent", "rename_profile",
           lambda w: w.store.rename_profile(w.zoe, "Zoé"), BOTH),
    # The teacher's changes of the class.
    *(_write(f"class {name}", "update_class",
             lambda w, name=name, value=value: w.store.update_class(w.class_id,
                                                                    **{name: value}), CLASS)
      for name, value in (("name", "3C"), ("code", "ZZZ999"), ("fluency_seconds", 3),
                          ("capture_sum", 11), ("voice", True), ("archived_at", WHEN))),
    _write("idle minutes", "set_class_tablets",
           lambda w: w.store.set_class_tablets(w.class_id, idle_minutes=9), CLASS),
    _write("every tablet signed out", "set_class_tablets",
           lambda w: w.store.set_class_tablets(w.class_id, signed_out_at=WHEN), CLASS),
    _write("co-teacher added", "add_co_teacher",
           lambda w: w.store.add_co_teacher(w.class_id, w.colleague), CLASS),
    _write("co-teacher removed", "remove_co_teacher",
           lambda w: w.store.remove_co_teacher(w.class_id, w.colleague), CLASS,
           lambda w: w.store.add_co_teacher(w.class_id, w.colleague)),
    _write("pupil added", "add_members",
           lambda w: w.store.add_members(w.class_id, [NewMember("Eva", "🐙", "1357")]), CLASS),
    _write("pupil removed", "remove_member delete_profile",
           lambda w: w.store.remove_member(w.class_id, w.leo), CLASS),
    _write("pupil's PIN", "set_member_pin",
           lambda w: w.store.set_member_pin(w.class_id, w.ana, "9999"), BOTH),
    _write("every pupil's PIN", "set_member_pins",
           lambda w: w.store.set_member_pins(w.class_id, {w.ana: "9999", w.leo: "8888"}), BOTH),
    _write("real name", "set_real_name",
           lambda w: w.store.set_real_name(w.class_id, w.ana, "Ana G."), CLASS),
    _write("real name at the same length", "set_real_name",
           lambda w: w.store.set_real_name(w.class_id, w.ana, "Ana Garcìa"), CLASS),
    _write("nickname", "rename_member",
           lambda w: w.store.rename_member(w.class_id, w.ana, "Anita"), BOTH),
    _write("picture", "set_member_avatar",
           lambda w: w.store.set_member_avatar(w.class_id, w.ana, "🐯"), BOTH),
    # (A spec as trainer.classroom_views.check_assignment stores it.)
    _write("assignment given", "create_assignment",
           lambda w: w.store.create_assignment(w.class_id, "weakest", WEAKEST, None),
           CLASS),
    _write("assignment taken back", "delete_assignment",
           lambda w: w.store.delete_assignment(w.class_id, w.kept["task"]), CLASS,
           _keep("task", lambda w: w.store.create_assignment(w.class_id, "weakest",
                                                             WEAKEST, None).id)),
    # Groups (issue 29).
    _write("group made", "create_group",
           lambda w: w.store.create_group(w.class_id, "Red"), CLASS),
    _write("group renamed", "rename_group",
           lambda w: w.store.rename_group(w.class_id, w.kept["group"], "Blue"), CLASS,
           _keep("group", lambda w: w.store.create_group(w.class_id, "Red").id)),
    _write("group deleted", "delete_group",
           lambda w: w.store.delete_group(w.class_id, w.kept["group"]), CLASS,
           _keep("group", lambda w: w.store.create_group(w.class_id, "Red").id)),
    _write("pupil put in a group", "set_pupil_group",
           lambda w: w.store.set_pupil_group(w.class_id, w.ana, w.kept["group"]), CLASS,
           _keep("group", lambda w: w.store.create_group(w.class_id, "Red").id)),
    _write("pupil out of their group", "set_pupil_group",
           lambda w: w.store.set_pupil_group(w.class_id, w.ana, None), CLASS,
           lambda w: w.store.set_pupil_group(
               w.class_id, w.ana, w.store.create_group(w.class_id, "Red").id)),
    _write("assignment given to a group", "create_assignment",
           lambda w: w.store.create_assignment(w.class_id, "weakest", WEAKEST, None,
                                               group_id=w.kept["group"]), CLASS,
           _keep("group", lambda w: w.store.create_group(w.class_id, "Red").id)),
    _write("assignment given to one pupil", "create_assignment",
           lambda w: w.store.create_assignment(w.class_id, "weakest", WEAKEST, None,
                                               profile_id=w.ana), CLASS),
    # The class plays together (issue 29): the teacher's round, Ana's answer (evidence).
    _write("live round started", "start_live_round",
           lambda w: w.store.start_live_round(w.class_id, "fifteens", LIVE), CLASS),
    _write("live round revealed", "set_live_round_state",
           lambda w: w.store.set_live_round_state(w.class_id, w.kept["round"], "revealed"),
           CLASS, _keep("round", lambda w: w.store.start_live_round(w.class_id, "fifteens",
                                                                    LIVE).id)),
    _write("live answer", "record_live_answer",
           lambda w: w.store.record_live_answer(w.kept["round"], w.ana, ["5c 10o"],
                                                _attempt(mode="live")), BOTH,
           _keep("round", lambda w: w.store.start_live_round(w.class_id, "fifteens",
                                                             LIVE).id)),
    # The class against the computer (issue 29): the teacher's game and its turns, with
    # the pupils' votes as their evidence; a refused vote's wrong sum is Ana's evidence.
    _write("class game started", "start_class_game", lambda w: _class_game(w), CLASS),
    _write("class vote closed, Ana's vote her evidence", "save_class_turn",
           lambda w: w.store.save_class_turn(w.class_id, w.kept["game"], revision=0,
                                             record=RECORD, state="voting", turn=2, last=None,
                                             evidence=[(w.ana, _attempt(mode="game"))]),
           BOTH, _keep("game", lambda w: _class_game(w))),
    _write("class game ended", "close_class_game",
           lambda w: w.store.close_class_game(w.class_id, w.kept["game"]), CLASS,
           _keep("game", lambda w: _class_game(w))),
    _write("Ana's refused vote, its wrong sum", "record_class_vote",
           lambda w: w.store.record_class_vote(w.kept["game"], 1, w.ana, "",
                                               _attempt(mode="game")), BOTH,
           _keep("game", lambda w: _class_game(w))),
)

#: Storage writes that move no version, each with why none of the keyed views draws it.
NOT_DRAWN: dict[str, str] = {
    "create_invite": "a teacher's invitation: no class's data",
    "create_first_or_invited_teacher": "a teacher's account",
    "set_teacher_password": "a teacher's account",
    "create_class": "a new class starts at version 0 with its own created_at",
    "delete_class": "the class is gone: its version reads (None, None)",
    "create_profile": "a new profile starts at version 0 with its own created_at",
    "count_secret_failure": "wrong PINs: Classroom.pin_attempts reads them on every run "
                            "(a lock ends with time, which no write marks)",
    "clear_secret_tries": "as count_secret_failure",
    "clear_secret_tries_of": "as count_secret_failure",
    "save_puzzle_progress": "a puzzle left on a page: only that page reads it",
    "clear_puzzle_progress": "as save_puzzle_progress",
    "create_table": "a waiting room: the tables' own version (game_tables.version)",
    "seat_child": "as create_table",
    "leave_waiting": "as create_table",
    "close_table": "as create_table",
    "touch_seat": "a seat's presence: the tables' own version",
    "_touch": "a pupil seen on My class: the projector reads it on every refresh",
    "leave_presence": "as _touch",
    "_note": "a pupil's page on their activity row: the live view reads it on every refresh",
    "leave_activity": "as _note",
}
#: A vote itself (no evidence yet) moves no version: the projector counts the votes on
#: every refresh, and the vote is evidence only when its turn closes (save_class_turn).


def _class_game(w: World) -> int:
    return w.store.start_class_game(w.class_id, level="gentle", target=1, seed=1,
                                    record=RECORD, state="voting", turn=1).id


def test_a_vote_alone_moves_no_version(world: World) -> None:
    game = _class_game(world)
    before = _versions(world)
    world.store.record_class_vote(game, 1, world.ana, "7o|8c")
    assert _versions(world) == before


def _versions(w: World) -> dict[str, Any]:
    s = w.store
    return {"progress": s.progress_version(w.ana), "class": s.class_version(w.class_id),
            "zoe": s.progress_version(w.zoe), "leo": s.progress_version(w.leo),
            "mia": s.progress_version(w.mia), "other class": s.class_version(w.other_class)}


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_each_write_a_view_draws_moves_its_version_and_no_other(world: World,
                                                                write: Write) -> None:
    if write.prepare is not None:
        write.prepare(world)
    before = _versions(world)
    write.act(world)
    after = _versions(world)
    moved = {key for key in before if before[key] != after[key]}
    expected = set(write.moves)
    # Zoe stands for the profile edits that no class sees (she is in none); Leo's own
    # version moves only with the writes that name him.
    if "parent" in write.name:
        expected = {"zoe"}
    if write.name in ("every pupil's PIN", "Leo's turn at Ana's table as his evidence"):
        expected |= {"leo"}
    if write.name == "pupil removed":
        expected |= {"leo"}  # gone: his version reads (None, None)
    assert moved == expected, write.name


def test_every_storage_write_is_drawn_by_a_version_or_said_not_to_be() -> None:
    writes = {name for name, method in inspect.getmembers(Storage, inspect.isfunction)
              if "self.transaction()" in inspect.getsource(method)
              or "self._record" in inspect.getsource(method)}
    covered = {m for w in WRITES for m in w.methods}
    assert writes - covered - set(NOT_DRAWN) == set(), "a write no test shows moving a version"
    assert set(NOT_DRAWN) <= writes and not set(NOT_DRAWN) & covered


def test_a_version_is_one_lookup_by_primary_key(world: World) -> None:
    """Reading a version reads one row, found by its key, however long the history: the
    SQL names only ``profiles`` (``classes``), and SQLite's plan searches by the key."""
    store = world.store
    for _ in range(3):
        store.record_attempt(world.ana, _attempt())
    seen: list[str] = []

    def remember(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", remember)
    try:
        store.progress_version(world.ana)
        store.class_version(world.class_id)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", remember)
    assert len(seen) == 2
    for statement, table in zip(seen, ("profiles", "classes"), strict=True):
        words = statement.lower().replace("\n", " ")
        assert f"from {table} " in words + " " and " join " not in words
        assert "count(" not in words and "max(" not in words and "sum(" not in words
        if store.engine.dialect.name == "sqlite":
            with store.engine.connect() as conn:
                key = world.ana if table == "profiles" else world.class_id
                plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", (key,)).all()
            details = " ".join(str(row[-1]) for row in plan)
            assert "USING INTEGER PRIMARY KEY" in details and "SCAN" not in details, details


def test_a_profile_under_a_deleted_ones_id_has_another_version(world: World) -> None:
    store = world.store
    before = store.progress_version(world.zoe)
    store.delete_profile(world.zoe)
    assert store.progress_version(world.zoe) == (None, None) != before


def test_progress_contents_say_which_parts_have_anything_to_draw(world: World) -> None:
    store = world.store
    assert store.progress_contents(world.ana) == (False, False, False)
    store.record_attempt(world.ana, _attempt())
    world.finished_game()
    assert store.progress_contents(world.ana) == (True, True, False)
    store.record_lesson(world.leo, "escoba", "two_cards", 2, 3)
    assert store.progress_contents(world.leo) == (False, False, True)
