"""Groups within a class (issue 29): named by the class's teachers, a pupil in one at most,
shown on the dashboard and the grid and filtered there; assignments for the whole class, a
group or one pupil, each counted for its own pupils only. On SQLite and PostgreSQL (the
``store`` fixture of tests/test_classroom.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from tests.test_classroom import (
    TODAY,
    _engine,
    class_with,
    fact_quick,
    put,
    teacher,
)
from trainer.classroom import Classroom, ClassroomError, pupil_tasks
from trainer.classroom_views import of_group
from trainer.storage import Storage
from trainer.storage.schema import assignments, class_groups, group_members

FACTS = {"facts": ["7+8"]}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path):
    """Storage on SQLite and on PostgreSQL."""
    eng = _engine(request.param, request, tmp_path)
    yield Storage(eng)
    eng.dispose()


def _refused(key: str, action) -> None:
    with pytest.raises(ClassroomError) as err:
        action()
    assert err.value.key == key


def _state(db: Storage) -> tuple:
    """Every group, membership and assignment: a refusal changes none of them."""
    with db.engine.connect() as conn:
        return tuple(sorted(map(tuple, conn.execute(sa.select(table))))
                     for table in (class_groups, group_members, assignments))


def test_a_group_is_named_by_the_label_rules_and_unique_in_its_class(store: Storage) -> None:
    room = teacher(store)
    info, _ = class_with(room, "Ana")
    other, _ = class_with(room, "Leo", "3C")
    red = room.create_group(info.id, "  Mesa   roja ")
    assert red.name == "Mesa roja"
    before = _state(store)
    _refused("group.taken", lambda: room.create_group(info.id, "MESA ROJA"))
    _refused("group.taken", lambda: room.create_group(info.id, "mesa rója".replace("ó", "o")))
    _refused("name.empty", lambda: room.create_group(info.id, "   "))
    _refused("name.long", lambda: room.create_group(info.id, "x" * 25))
    blue = room.create_group(info.id, "Blue")
    assert _state(store) != before
    before = _state(store)
    _refused("group.taken", lambda: room.rename_group(info.id, blue.id, "mesa roja"))
    _refused("name.empty", lambda: room.rename_group(info.id, blue.id, ""))
    assert _state(store) == before
    # Another class may have a group of the same name; a group is renamed in place.
    assert room.create_group(other.id, "Mesa roja").class_id == other.id
    assert room.rename_group(info.id, blue.id, "Azul").name == "Azul"
    assert [g.name for g in room.groups(info.id)] == ["Azul", "Mesa roja"]


def test_a_pupil_is_in_one_group_at_most_shown_on_the_dashboard_and_the_grid(
        store: Storage) -> None:
    room = teacher(store)
    info, pupils = class_with(room, "Ana\nLeo\nMia")
    ana, leo = pupils["Ana"].profile_id, pupils["Leo"].profile_id
    red, blue = room.create_group(info.id, "Red"), room.create_group(info.id, "Blue")
    room.set_pupil_group(info.id, ana, red.id)
    room.set_pupil_group(info.id, leo, red.id)
    room.set_pupil_group(info.id, ana, blue.id)  # moves: never in two
    with store.engine.connect() as conn:
        assert sorted(conn.execute(sa.select(group_members.c.profile_id,
                                             group_members.c.group_id))) \
            == sorted([(ana, blue.id), (leo, red.id)])
    snap = room.snapshot(info.id, TODAY)
    assert {g.name for g in snap.groups} == {"Red", "Blue"}
    assert {m.nickname: m.group_id for m in snap.members} \
        == {"Ana": blue.id, "Leo": red.id, "Mia": None}
    assert {r.nickname: r.group for r in room.dashboard(snap, TODAY)} \
        == {"Ana": "Blue", "Leo": "Red", "Mia": None}
    assert {r.nickname: r.group for r in room.fact_grid(snap).rows} \
        == {"Ana": "Blue", "Leo": "Red", "Mia": None}
    # The views' filter: one group's pupils only (None: everyone).
    assert [r.nickname for r in room.dashboard(of_group(snap, red.id), TODAY)] == ["Leo"]
    assert [r.nickname for r in room.fact_grid(of_group(snap, blue.id)).rows] == ["Ana"]
    assert len(of_group(snap, None).members) == 3
    room.set_pupil_group(info.id, ana, None)
    assert store.membership(ana).group_id is None


def test_group_writes_refuse_what_is_not_the_class_and_change_nothing(
        store: Storage) -> None:
    room = teacher(store)
    info, pupils = class_with(room, "Ana")
    other, others = class_with(room, "Leo", "3C")
    ana, leo = pupils["Ana"].profile_id, others["Leo"].profile_id
    mine, theirs = room.create_group(info.id, "Red"), room.create_group(other.id, "Red")
    before = _state(store)
    _refused("group.missing", lambda: room.set_pupil_group(info.id, ana, theirs.id))
    _refused("group.missing", lambda: room.rename_group(info.id, theirs.id, "Blue"))
    _refused("group.missing", lambda: room.delete_group(info.id, theirs.id))
    _refused("group.missing", lambda: room.create_assignment(info.id, "facts", FACTS,
                                                             group_id=theirs.id))
    _refused("pupil.not_in_class", lambda: room.set_pupil_group(info.id, leo, mine.id))
    _refused("pupil.not_in_class", lambda: room.create_assignment(info.id, "facts", FACTS,
                                                                  profile_id=leo))
    _refused("task.target", lambda: room.create_assignment(info.id, "facts", FACTS,
                                                           group_id=mine.id, profile_id=ana))
    # Another teacher sees none of it; an archived class is read only.
    stranger = Classroom(store, teacher(store, "Mr Roe").session)
    _refused("class.not_yours", lambda: stranger.create_group(info.id, "Blue"))
    _refused("class.not_yours", lambda: stranger.set_pupil_group(info.id, ana, mine.id))
    _refused("class.not_yours", lambda: stranger.groups(info.id))
    room.archive(info.id)
    _refused("class.archived", lambda: room.create_group(info.id, "Blue"))
    _refused("class.archived", lambda: room.set_pupil_group(info.id, ana, mine.id))
    _refused("class.archived", lambda: room.delete_group(info.id, mine.id))
    assert _state(store) == before


def test_an_assignment_for_a_group_or_a_pupil_is_theirs_only(store: Storage) -> None:
    room = teacher(store)
    info, pupils = class_with(room, "Ana\nLeo\nMia")
    ana, leo, mia = (pupils[n].profile_id for n in ("Ana", "Leo", "Mia"))
    red = room.create_group(info.id, "Red")
    room.set_pupil_group(info.id, ana, red.id)
    everyone = room.create_assignment(info.id, "facts", {"facts": ["2+9"]})
    group = room.create_assignment(info.id, "facts", FACTS, group_id=red.id)
    own = room.create_assignment(info.id, "facts", {"facts": ["3+8"]}, profile_id=mia)
    put(store, ana, fact_quick("7+8", True, 2.0, group.created_at),
        group.created_at + timedelta(seconds=5))
    put(store, leo, fact_quick("7+8", True, 2.0, group.created_at),
        group.created_at + timedelta(seconds=5))
    today = group.created_at.date()
    snap = room.snapshot(info.id, today)
    progress = {p.assignment.id: p for p in room.assignments(snap, today)}
    assert set(progress[everyone.id].pupils) == {ana, leo, mia}
    assert set(progress[group.id].pupils) == {ana}
    assert progress[group.id].completed == 1  # "1 of 1 pupils done": Leo's answer is not his
    assert set(progress[own.id].pupils) == {mia}
    rows = {r.nickname: (r.assignments_done, r.assignments)
            for r in room.dashboard(snap, today)}
    assert rows == {"Ana": (1, 2), "Leo": (0, 1), "Mia": (0, 2)}
    assert {t.assignment.id for t in pupil_tasks(store, ana, today)} == {everyone.id, group.id}
    assert {t.assignment.id for t in pupil_tasks(store, leo, today)} == {everyone.id}
    assert {t.assignment.id for t in pupil_tasks(store, mia, today)} == {everyone.id, own.id}
    # Leo joins: the group's assignment is his now, his answer since it was made counts.
    room.set_pupil_group(info.id, leo, red.id)
    (mine,) = [t for t in pupil_tasks(store, leo, today) if t.assignment.id == group.id]
    assert mine.complete
    # The group goes with its assignments (its pupils stay, in none); the pupil with hers.
    room.delete_group(info.id, red.id)
    room.remove_pupil(info.id, mia)
    assert [a.id for a in store.assignments(info.id)] == [everyone.id]
    assert {m.group_id for m in store.members(info.id)} == {None}
