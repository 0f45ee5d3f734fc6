"""Every new kind of live round with AppTest (issue 29): the teacher chooses the kind on
the Projector part, two pupils answer on My class (the board they know for a capture or
a move, the hand's cards for the sweep risk, the number buttons for quick facts), the
projector counts the answers, then reveals what the class chose, never who: a wrong
answer only when two pupils or more gave it (Numbat, a third pupil of the class, answers
from her tablet through the same calls, to make two)."""

from __future__ import annotations

from datetime import date

import pytest

from escoba import Card, Deck
from puzzles import check
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
from trainer.live import QUICK_COUNT, LiveRound, PupilLive
from trainer.words import card_text, coach_text

pytestmark = pytest.mark.usefixtures("fresh_app")


def _start(kind: str):
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat\nNumbat",
                            ["4821", "7395", "5160"])
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


DAY = date(2026, 12, 4)


def _numbat(db, ids, live: LiveRound) -> PupilLive:
    """Numbat's tablet: the calls My class makes for her answer."""
    return PupilLive(db, ids["Numbat"])


def _reveal(teacher, answers: int = 2) -> str:
    teacher.run()
    assert f"{answers} answers in" in shown(teacher.main)
    click(teacher, "tc_live_reveal")
    assert_ok(teacher)
    screen = shown(teacher.main)
    assert "Quokka" not in screen and "Wombat" not in screen and "Numbat" not in screen
    return screen


def _two_wrong_cards(live: LiveRound) -> tuple[Card, Card] | None:
    """Two table cards of different values that are each a wrong set with the card
    played, or None: the position is dealt at random, and not every table has them."""
    card = live.puzzle.hand[0]
    right = {frozenset(s.take) for s in live.puzzle.solutions}
    wrong = [c for c in live.puzzle.table
             if c.value + card.value != 15 and frozenset([c]) not in right]
    lone = next((c for c in wrong if c.value != wrong[0].value), None) if wrong else None
    return None if lone is None else (wrong[0], lone)


def test_which_cards_make_15_with_this_card() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("captures")
    assert "Which cards make 15 with this card?" in shown(teacher.main)
    for _ in range(20):  # a position to answer wrongly two ways (dealt at random)
        if _two_wrong_cards(live) is not None:
            break
        click(teacher, "tc_live_close")
        teacher.selectbox(key="tc_live_kind").set_value("captures").run()
        click(teacher, "tc_live_start")
        live = LiveRound.of(db.live_round(info.id))
        for at in (quokka, wombat):
            at.run()
    card = live.puzzle.hand[0]
    for solution in live.puzzle.solutions:
        quokka.pills(key="mc_live_table").set_value([str(c) for c in solution.take]).run()
        click(quokka, "mc_live_add")
    if quokka.session_state["mc_live_state"].result is None:
        click(quokka, "mc_live_done")
    wrong, lone = _two_wrong_cards(live)
    wombat.pills(key="mc_live_table").set_value([str(wrong)]).run()
    click(wombat, "mc_live_add")
    click(wombat, "mc_live_done")
    assert "Your answer is in" in shown(wombat)
    # Numbat gives Wombat's wrong set, and one of her own nobody else gave.
    sets = [{"card": str(card), "take": [str(c)]} for c in (wrong, lone)]
    _numbat(db, ids, live).answer(live, check(live.puzzle, sets), 5.0, sets, DAY)
    screen = _reveal(teacher, 3)
    total = wrong.value + card.value
    assert f"2 said {wrong.value} + {card.value} = {total}: " in screen
    assert ("too many" if total > 15 else "too few") in screen
    lone_sum = f"{lone.value} + {card.value} = {lone.value + card.value}"
    assert lone_sum not in screen  # one pupil's: not shown
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
    # A safe card one pupil chose is not said on the projector, nor drawn with its count:
    # counted among the other cards.
    screen = _reveal(teacher)
    assert "chose" not in screen.replace("chosen by", "")
    assert "other cards: 1" in screen and "chosen by 1" in screen  # the risky card's
    assert screen.count("data-testid='tc-live-choice'") == 1
    click(teacher, "tc_live_close")
    teacher.selectbox(key="tc_live_kind").set_value("sweep").run()
    click(teacher, "tc_live_start")
    live = LiveRound.of(db.live_round(info.id))
    (risky,) = live.risky
    safe = next(c for c in live.sweep if not c.risky)
    for at, card in ((quokka, risky), (wombat, safe.card)):
        at.run()
        click(at, f"mc_live_pick_{card}")
    _numbat(db, ids, live).answer_sweep(live, safe.card, 3.0, DAY)  # as Wombat chose
    screen = _reveal(teacher, 3)
    assert "Saw the sweep risk: 1" in screen
    judged = next(c for c in live.sweep if c.risky)
    assert f"{judged.arithmetic}: one card worth {judged.need} takes it all" in screen
    assert f"2 chose {safe.arithmetic}, but no one card takes it all." in screen
    assert "chosen by 2" in screen and "chosen by 1" in screen
    assert db.attempts(ids["Quokka"])[0].correct and not db.attempts(ids["Wombat"])[0].correct


def test_what_would_you_play() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("best")
    assert "What would you play?" in shown(teacher.main)
    ranking = live.puzzle.ranking
    best = ranking[0]
    # Wombat lays a card down (a move that takes nothing), not the coach's move.
    laid = next(c for c in live.puzzle.hand if best.take or c != best.card)
    for at, card, take in ((quokka, best.card, best.take), (wombat, laid, ())):
        at.pills(key="mc_live_hand").set_value(str(card)).run()
        if take:
            at.pills(key="mc_live_table").set_value([str(c) for c in take]).run()
        click(at, "mc_live_add")
        assert "Your answer is in" in shown(at)
    # Wombat's lay-down said in words a child reads (allowed but not the best, or not
    # allowed: the card must take), never as a lone card's "sum"; the best move is the
    # projector's to reveal.
    said = shown(wombat)
    allowed = any(m.card == laid and not m.take for m in ranking)
    assert ("That move is allowed, but not the best one" if allowed
            else "can take cards, so it must take them") in said
    assert f"{laid.value} = {laid.value}" not in said
    assert "The best move:" not in said and "Why:" not in said
    # Wombat's move alone: counted with the other moves, not drawn.
    screen = _reveal(teacher)
    assert "best move: 1" in screen  # Chose the coach's best move
    assert screen.count("chosen by 1") == 1 and "other moves: 1" in screen
    assert f"lay down the {card_text(laid, Deck.SPANISH)}" not in screen
    click(teacher, "tc_live_close")
    # Again, with Numbat laying down the same card as Wombat: that move is drawn.
    teacher.selectbox(key="tc_live_kind").set_value("best").run()
    click(teacher, "tc_live_start")
    live = LiveRound.of(db.live_round(info.id))
    best = live.puzzle.ranking[0]
    laid = next(c for c in live.puzzle.hand if best.take or c != best.card)
    for at, card, take in ((quokka, best.card, best.take), (wombat, laid, ())):
        at.run()
        at.pills(key="mc_live_hand").set_value(str(card)).run()
        if take:
            at.pills(key="mc_live_table").set_value([str(c) for c in take]).run()
        click(at, "mc_live_add")
    answer = [{"card": str(laid), "take": []}]
    _numbat(db, ids, live).answer(live, check(live.puzzle, answer), 6.0, answer, DAY)
    screen = _reveal(teacher, 3)
    assert "chosen by 2" in screen and "other moves" not in screen
    # A lay-down in words, the card named as the class's deck names it.
    assert f"lay down the {card_text(laid, Deck.SPANISH)}" in screen
    # The coach's reason said to the whole class ("we take", never "you take").
    why = coach_text(best.reason, dict(best.params), Deck.SPANISH, voice="class")
    assert f"The coach plays this: {why}" in screen
    assert " you " not in screen.split("The coach plays this:")[1][:200]
    assert db.attempts(ids["Quokka"])[0].correct


def test_a_round_nobody_answered_says_so_in_every_kind() -> None:
    db = store()
    (_, info), _ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "projector")
    for kind in ("fifteens", "captures", "sweep", "best", "quick"):
        teacher.selectbox(key="tc_live_kind").set_value(kind).run()
        click(teacher, "tc_live_start")
        live = LiveRound.of(db.live_round(info.id))
        screen = _reveal(teacher, 0)
        assert "Nobody answered this round." in screen, kind
        # No counts drawn as if they were results: no bars, no "found by 0", no "0 found".
        for empty in ("found them all", "found by", "chosen by", "right:", "All right",
                      "Chose the coach", "Saw the sweep risk", "said", "chose "):
            assert empty not in screen, (kind, empty)
        # The answer itself is still shown, to talk about.
        if kind in ("fifteens", "captures"):
            assert screen.count("data-testid='tc-live-set'") == len(live.puzzle.solutions)
        elif kind == "best":
            assert "The coach plays this:" in screen
            assert screen.count("data-testid='tc-live-choice'") == 1
        elif kind == "sweep":
            assert "takes it all" in screen
            assert screen.count("data-testid='tc-live-choice'") == len(live.risky)
        else:
            q = live.questions[0]
            answer = q.solutions[0].value
            assert f"{' + '.join(map(str, q.addends))} + {answer} = 15" in screen
        click(teacher, "tc_live_close")


def test_a_quick_facts_round() -> None:
    db, info, ids, teacher, (quokka, wombat), live = _start("quick")
    screen = shown(teacher.main)
    assert "Quick facts: 5 questions" in screen
    for at in (quokka, wombat):  # the projector shows the questions, no cards
        assert "Class round: the same questions are on the big screen." in shown(at)
        assert "same cards" not in shown(at)
    right = [q.solutions[0].value for q in live.questions]
    first_wrong = right[0] % 10 + 1  # a number from 1 to 10 that is not the answer
    second_wrong = right[1] % 10 + 1
    for at, values in ((quokka, [right[0], second_wrong, *right[2:]]),
                       (wombat, [first_wrong, *right[1:]])):
        for value in values:
            click(at, f"mc_live_n_{value}")
        assert f"of {QUICK_COUNT} right" in shown(at) or "right" in shown(at)
        assert "Your answer is in" in shown(at)
    # Numbat gives Wombat's wrong answer to the first fact; Quokka's to the second is hers
    # alone.
    _numbat(db, ids, live).answer_quick(live, [first_wrong, *right[1:]], [2.0] * QUICK_COUNT,
                                        DAY)
    screen = _reveal(teacher, 3)
    assert "All right: 0" in screen and "right: 1" in screen and "right: 2" in screen
    addends = live.questions[0].addends
    values = (*addends, first_wrong)
    assert f"2 said {' + '.join(map(str, values))} = {sum(values)}: " in screen
    alone = (*live.questions[1].addends, second_wrong)
    assert f"{' + '.join(map(str, alone))} = {sum(alone)}" not in screen
    # One fact a line: each its own row, with its answer and its right count.
    rows = [h.proto.body for h in teacher.main.get("html")
            if "tc-live-question" in h.proto.body]
    assert len(rows) == 1 and rows[0].count("data-testid='tc-live-question'") == QUICK_COUNT
    assert len(db.attempts(ids["Wombat"])) == QUICK_COUNT
    wombat.run()
    assert "Look at the board" in shown(wombat)
