"""Groups on the teacher's page with AppTest (issue 29): a teacher names groups, moves
pupils with a tap, sees each pupil's group on the dashboard and the grid and filters them
by group; an assignment for one group is done by a pupil in it, on her tablet, and never
shown to a pupil outside it."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1.element_tree import Block

from tests.test_app_classroom import (  # noqa: F401 (_setup, media: autouse fixtures)
    MY_CLASS,
    TODAY,
    _class,
    _setup,
    answer_round,
    card_of,
    click,
    dash_cards,
    media,
    open_class,
    part,
    shown,
    sign_in_pupil,
    store,
    submit,
)
from tests.test_app_helpers import assert_ok, component_data, new_app
from trainer.classroom import say
from trainer.classroom_views import assignable_facts

pytestmark = pytest.mark.usefixtures("fresh_app")


def _grid(at) -> str:
    return next(h.proto.body for h in at.get("html") if "fact-grid'" in h.proto.body)


def test_a_teacher_names_groups_moves_pupils_and_filters_the_views() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo\nMia", ["4821", "7395", "5102"])
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "groups")
    assert "No groups yet" in shown(at)
    at.text_input(key="tc_gr_new").input("Table 1")
    submit(at, "tc_gr_form")
    assert "Group Table 1 added." in shown(at)
    at.text_input(key="tc_gr_new").input("  TABLE 1 ")
    submit(at, "tc_gr_form")
    assert "The class already has a group called TABLE 1." in shown(at)
    at.text_input(key="tc_gr_new").input("<b>Blue</b>")
    submit(at, "tc_gr_form")
    assert "Names cannot use signs" in shown(at)
    at.text_input(key="tc_gr_new").input("Blue")
    submit(at, "tc_gr_form")
    groups = {g.name: g.id for g in db.groups(info.id)}
    assert set(groups) == {"Table 1", "Blue"}
    table, blue = groups["Table 1"], groups["Blue"]
    # One tap puts a pupil in a group; another moves her (never in two).
    at.segmented_control(key=f"tc_gr_pupil_{ids['Ana']}").set_value(blue).run()
    assert_ok(at)
    at.segmented_control(key=f"tc_gr_pupil_{ids['Ana']}").set_value(table).run()
    at.segmented_control(key=f"tc_gr_pupil_{ids['Leo']}").set_value(table).run()
    assert_ok(at)
    assert {m.nickname: m.group_id for m in db.members(info.id)} \
        == {"Ana": table, "Leo": table, "Mia": None}
    assert at.segmented_control(key=f"tc_gr_pupil_{ids['Ana']}").value == table

    # The dashboard shows each pupil's group and filters by group.
    part(at, "dashboard")
    assert "Table 1" in card_of(at, "Ana")["name"] and "Table 1" not in card_of(at, "Mia")["name"]
    at.segmented_control(key="tc_gr_filter").set_value(table).run()
    assert_ok(at)
    assert {c["id"] for c in dash_cards(at)} == {ids["Ana"], ids["Leo"]}
    # The grid too: the group under the name, one group's rows when filtered.
    part(at, "grid")
    at.segmented_control(key="tc_gr_filter").set_value(0).run()
    grid = _grid(at)
    ana_line = next(line for line in grid.split("<tr>") if "Ana" in line)
    assert "👥 Table 1" in ana_line and grid.count("👥 Table 1") == 2
    at.segmented_control(key="tc_gr_filter").set_value(blue).run()
    assert_ok(at)
    assert "No pupil is in this group yet" in shown(at)
    assert not [h for h in at.get("html") if "fact-grid'" in h.proto.body]

    # Renamed in place; deleted after asking (its pupils stay, in no group).
    part(at, "groups")
    at.text_input(key=f"tc_gr_name_{table}").input("Red table")
    click(at, f"tc_gr_rename_{table}")
    assert "The group is called Red table now." in shown(at)
    click(at, f"tc_gr_delete_{table}")
    assert "Delete the group Red table?" in shown(at)
    click(at, f"tc_gr_delete_{table}_yes")
    assert "Group deleted." in shown(at)
    assert [g.name for g in db.groups(info.id)] == ["Blue"]
    assert {m.group_id for m in db.members(info.id)} == {None}


def test_a_group_assignment_is_done_by_a_pupil_in_the_group_and_unseen_outside_it() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo", ["4821", "7395"])
    group = room.create_group(info.id, "Table 1")
    room.set_pupil_group(info.id, ids["Ana"], group.id)
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "assignments")
    at.segmented_control(key="tc_gr_for").set_value("group").run()
    at.segmented_control(key="tc_as_type").set_value("facts").run()
    at.pills(key="tc_as_facts").set_value(["15-6"])
    submit(at, "tc_assign_form")
    assert "Choose the group first: nothing was assigned." in shown(at)
    assert db.assignments(info.id) == []
    at.selectbox(key="tc_gr_for_group").set_value(group.id)
    at.pills(key="tc_as_facts").set_value(["15-6"])
    submit(at, "tc_assign_form")
    (task,) = db.assignments(info.id)
    assert task.group_id == group.id
    assert "For the group Table 1" in shown(at) and "0 of 1 pupil done" in shown(at)

    # Ana, in the group, finds it first on her tablet and does it.
    ana = new_app()
    ana.switch_page(MY_CLASS).run()
    sign_in_pupil(ana, info.code, ids["Ana"], "4821")
    assert f"mc_do_{task.id}" in {b.key for b in ana.button}
    click(ana, f"mc_do_{task.id}")
    answer_round(ana, right=True)
    # Leo, outside it, never sees it.
    leo = new_app()
    leo.switch_page(MY_CLASS).run()
    sign_in_pupil(leo, info.code, ids["Leo"], "7395")
    assert not [b for b in leo.button if b.key and b.key.startswith("mc_do_")]
    assert "6 + ? = 15" not in shown(leo)
    # The teacher's card counts the group's pupil only.
    at.run()
    assert "1 of 1 pupil done" in shown(at)
    progress = {p.assignment.id: p for p in room.assignments(room.snapshot(info.id),
                                                              TODAY.date())}[task.id]
    assert set(progress.pupils) == {ids["Ana"]} and progress.completed == 1
    # One pupil's own assignment, from the page.
    at.segmented_control(key="tc_gr_for").set_value("pupil").run()
    at.selectbox(key="tc_gr_for_pupil").set_value(ids["Leo"])
    at.pills(key="tc_as_facts").set_value(["3+5"])
    submit(at, "tc_assign_form")
    assert "Leo only" in shown(at)  # "For 🌙 Leo only": the picture beside the name
    assert {a.profile_id for a in db.assignments(info.id)} == {None, ids["Leo"]}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_assign_form_clears_and_a_second_tap_assigns_nothing_twice(locale: str) -> None:
    """Issue 29: the facts are pills, each read as the question a pupil is asked
    ("3 + 5 + ? = 15": "3 + 5 = ?" was not what a pupil saw), each question
    once ("7 + 8" is asked "7 + ? = 15", as "15 - 7" is: found by a teacher whose pupils
    were asked it twice); once assigned the form is empty, and the same assignment again
    is refused in the teacher's language."""
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo", ["4821", "7395"])
    at = open_class(locale, "Ms Díaz", info.id)
    part(at, "assignments")
    at.segmented_control(key="tc_as_type").set_value("facts").run()
    facts = at.pills(key="tc_as_facts")
    shown_facts = [o.content for o in facts.proto.options]
    assert "3 + 5 + ? = 15" in shown_facts and "6 + ? = 15" in shown_facts
    assert "3 + 5" not in shown_facts and "3 + 5 = ?" not in shown_facts
    assert "7 + 8 + ? = 15" not in shown_facts and "7 + ? = 15" in shown_facts
    assert len(shown_facts) == len(set(shown_facts))
    # In the order a teacher scans for a question: one number first, then by numbers.
    numbers = [[int(n) for n in re.findall(r"\d+", q)[:-1]] for q in shown_facts]
    assert numbers == sorted(numbers, key=lambda ns: (len(ns), ns))
    assert shown_facts[:2] == ["5 + ? = 15", "6 + ? = 15"]
    facts.set_value(["15-6", "3+5"])
    submit(at, "tc_assign_form")
    assert len(db.assignments(info.id)) == 1
    assert at.pills(key="tc_as_facts").value == []  # the form starts again
    at.pills(key="tc_as_facts").set_value(["3+5", "15-6"])
    submit(at, "tc_assign_form")
    refusal = {"en-US": "This is already assigned to the same pupils and still open",
               "de-DE": "Genau das ist denselben Kindern schon zugewiesen"}[locale]
    assert refusal in shown(at)
    assert len(db.assignments(info.id)) == 1
    # Refused, the form keeps what was chosen: the teacher changes it and assigns.
    assert sorted(at.pills(key="tc_as_facts").value) == ["15-6", "3+5"]
    at.pills(key="tc_as_facts").set_value(["3+5"])
    submit(at, "tc_assign_form")
    assert len(db.assignments(info.id)) == 2
    # More facts than an assignment holds: said plainly, nothing assigned.
    at.pills(key="tc_as_facts").set_value(assignable_facts(15)[:21])
    submit(at, "tc_assign_form")
    assert {"en-US": "Too many facts chosen: take some away. Nothing was assigned.",
            "de-DE": "Zu viele Aufgaben gewählt"}[locale] in shown(at)
    assert len(db.assignments(info.id)) == 2


def _form_messages(at, form_key: str) -> list[str]:
    """The messages drawn inside the form ``form_key`` (under its button)."""
    def forms(node):
        if not isinstance(node, Block):
            return
        proto = getattr(node, "proto", None)
        if proto is not None and proto.WhichOneof("type") == "form" \
                and proto.form.form_id == form_key:
            yield node
        for child in node.children.values():
            yield from forms(child)

    (form,) = list(forms(at._tree))
    return [e.value for kind in ("success", "error") for e in form.get(kind)]


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "de-DE", "it-IT", "zh-CN"])
def test_the_group_box_asks_for_a_group_and_assign_says_its_answer_under_it(
        locale: str) -> None:
    """Issue 29: the Group box said "Choose a pupil"; a refusal of Assign was said at the
    top of the page, out of sight of the button; and Assign is watched for a second quick
    tap (the "Working…" sign, ui.busy), which landed on the form just cleared."""
    db = store()
    (room, info), _ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo", ["4821", "7395"])
    group = room.create_group(info.id, "Table 1")
    at = open_class(locale, "Ms Díaz", info.id)
    part(at, "assignments")
    at.segmented_control(key="tc_gr_for").set_value("group").run()
    placeholder = at.selectbox(key="tc_gr_for_group").proto.placeholder
    assert placeholder == {"en-US": "Choose a group", "es-ES": "Elige un grupo",
                           "de-DE": "Gruppe auswählen", "it-IT": "Scegli un gruppo",
                           "zh-CN": "选择一个小组"}[locale]
    busy = component_data(at, "escoba_busy")
    assert busy is not None and busy["keys"] == ["tc_as_create"]
    at.segmented_control(key="tc_as_type").set_value("facts").run()
    at.pills(key="tc_as_facts").set_value(["15-6"])
    submit(at, "tc_assign_form")
    assert db.assignments(info.id) == []
    (refusal,) = _form_messages(at, "tc_assign_form")
    assert refusal == say("assign.choose_group", {}, locale[:2])
    assert component_data(at, "escoba_busy")["answered"] == busy["answered"] + 1
    at.selectbox(key="tc_gr_for_group").set_value(group.id)
    at.pills(key="tc_as_facts").set_value(["15-6"])
    submit(at, "tc_assign_form")
    assert len(db.assignments(info.id)) == 1
    (done,) = _form_messages(at, "tc_assign_form")
    assert done.startswith(say("assign.created", {"what": ""}, locale[:2])[:4])
    # The same tap again at once, on the form just emptied (a persona's quick double tap
    # that came past the marker): nothing more, and "Assigned" still said, not a refusal.
    submit(at, "tc_assign_form")
    assert len(db.assignments(info.id)) == 1
    assert _form_messages(at, "tc_assign_form") == [done]
    at.run()  # said once: the next run of the page has it no more
    assert _form_messages(at, "tc_assign_form") == []
