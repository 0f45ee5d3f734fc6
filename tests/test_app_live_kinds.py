"""Every new kind of live round with AppTest (issue 29): the teacher chooses the kind on
the Projector part, two pupils answer on My class (the board they know for a capture or
a move, the hand's cards for the sweep risk, the number buttons for quick facts), the
projector counts the answers, then reveals what the class chose, never who."""

from __future__ import annotations

import pytest

from tests.test_app_classroom import (
    MY_CLASS,
    _class,
    click,
    open_class,
    part,
    shown,
    sign_in_pupil,
    store,
)
from tests.test_app_helpers import assert_ok, new_app
from tests.test_app_live_round import _setup  # noqa: F401 (autouse: the clock, cheap PINs)
from trainer.live import QUICK_COUNT, LiveRound

pytestmark = pytest.mark.usefixtures("fresh_app")


def _start(kind: str):
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "projector")
    pupils = []
    for name, pin in (("Quokka", "4821"), ("Wombat", "7395")):
        at = new_app()
        at.switch_page(MY_CLASS).run()
        sign_in_pupil(at, info.code, ids[name], pin)
        pupils.append(at)
    teacher.run()
    teacher.selectbox(key="tc_live_kind").set_value(kind).run()
    if kind in ("captures", "sweep", "best"):  # a position has no level to choose
        assert not [s for s in teacher.selectbox if s.key == "tc_live_level"]
    click(teacher, "tc_live_start")
    row = db.live_round(info.id)
    assert row is not None and row.kind == kind
    for at in pupils:
        at.run()
        assert_ok(at)
        assert "Class round" in shown(at) and "Your tasks" not in shown(at)
    return db, info, ids, teacher, pupils, LiveRound.of(row)


def _reveal(teacher) -> str:
    teacher.run()
    assert "2 answers in" in shown(teacher.main)
    click(teacher, "tc_live_reveal")
    assert_ok(teacher)
    screen = shown(teacher.main)
    assert "Quokka" not in screen and "Wombat" not in screen
    return screen


def test_which_cards_make_15_with_this_card() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("captures")
    assert "Which cards make 15 with this card?" in shown(teacher.main)
    card = live.puzzle.hand[0]
    for solution in live.puzzle.solutions:
        quokka.pills(key="mc_live_table").set_value([str(c) for c in solution.take]).run()
        click(quokka, "mc_live_add")
    if quokka.session_state["mc_live_state"].result is None:
        click(quokka, "mc_live_done")
    right = {frozenset(s.take) for s in live.puzzle.solutions}
    wrong = next(c for c in live.puzzle.table
                 if c.value + card.value != 15 and frozenset([c]) not in right)
    wombat.pills(key="mc_live_table").set_value([str(wrong)]).run()
    click(wombat, "mc_live_add")
    click(wombat, "mc_live_done")
    assert "Your answer is in" in shown(wombat)
    screen = _reveal(teacher)
    total = wrong.value + card.value
    assert f"{wrong.value} + {card.value} = {total}" in screen
    assert ("too many" if total > 15 else "too few") in screen
    assert "found by 1" in screen
    assert len(db.attempts(ids["Quokka"])) == 1 and len(db.attempts(ids["Wombat"])) == 1


def test_where_is_the_sweep_risk() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("sweep")
    assert "Where is the sweep risk?" in shown(teacher.main)
    (risky,) = live.risky
    safe = next(c for c in live.sweep if not c.risky)
    click(quokka, f"mc_live_pick_{risky}")
    click(wombat, f"mc_live_pick_{safe.card}")
    for at in (quokka, wombat):
        assert "Your answer:" in shown(at) and "Your answer is in" in shown(at)
    screen = _reveal(teacher)
    assert "Saw the sweep risk: 1" in screen
    judged = next(c for c in live.sweep if c.risky)
    assert f"{judged.arithmetic}: one card worth {judged.need} takes it all" in screen
    assert f"Often chosen: {safe.arithmetic}, but no one card takes it all." in screen
    assert screen.count("chosen by 1") == 2
    assert db.attempts(ids["Quokka"])[0].correct and not db.attempts(ids["Wombat"])[0].correct


def test_what_would_you_play() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("best")
    assert "What would you play?" in shown(teacher.main)
    ranking = live.puzzle.ranking
    for at, move in ((quokka, ranking[0]), (wombat, ranking[-1])):
        at.pills(key="mc_live_hand").set_value(str(move.card)).run()
        if move.take:
            at.pills(key="mc_live_table").set_value([str(c) for c in move.take]).run()
        click(at, "mc_live_add")
        assert "Your answer is in" in shown(at)
    screen = _reveal(teacher)
    assert "best move: 1" in screen  # Chose the coach's best move
    assert "The coach plays this:" in screen
    assert screen.count("chosen by 1") == 2
    assert db.attempts(ids["Quokka"])[0].correct


def test_a_quick_facts_round() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("quick")
    screen = shown(teacher.main)
    assert "Quick facts: 5 questions" in screen
    right = [q.solutions[0].value for q in live.questions]
    first_wrong = right[0] % 10 + 1  # a number from 1 to 10 that is not the answer
    for at, values in ((quokka, right), (wombat, [first_wrong, *right[1:]])):
        for value in values:
            click(at, f"mc_live_n_{value}")
        assert f"of {QUICK_COUNT} right" in shown(at) or "right" in shown(at)
        assert "Your answer is in" in shown(at)
    screen = _reveal(teacher)
    assert "All right: 1" in screen and "right: 1" in screen
    addends = live.questions[0].addends
    values = (*addends, first_wrong)
    assert f"Often given: {' + '.join(map(str, values))} = {sum(values)}" in screen
    assert len(db.attempts(ids["Wombat"])) == QUICK_COUNT
    wombat.run()
    assert "Look at the board" in shown(wombat)
