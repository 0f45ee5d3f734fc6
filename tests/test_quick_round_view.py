"""What Quick facts' round component may send (ui/quick_round_view.py, issue 32): a tap
answers only the question on screen with a number of the pad; anything else, from an
old page, another round or a forged message, answers nothing."""

from __future__ import annotations

import pytest

from puzzles.practice import quick_facts_set
from trainer.practice_sessions import QuickRound
from ui.quick_round_view import _tapped


def _round() -> QuickRound:
    return QuickRound("1", 15, quick_facts_set(1, 5, 7, 15))


def test_a_tap_for_the_question_on_screen_is_its_number() -> None:
    rnd = _round()
    assert _tapped(rnd, {"round": rnd.token, "index": 0, "value": 7}) == (7, 0.0)
    rnd.answer(7)
    assert _tapped(rnd, {"round": rnd.token, "index": 1, "value": 10}) == (10, 0.0)


@pytest.mark.parametrize(("heard", "seconds"), [
    (2500, 2.5), (0, 0.0), (15_000, 15.0), (812.5, 0.8125),
    # The voice's time is a help, never a reason to refuse the answer: anything else
    # counts as no voice at all.
    (-1, 0.0), (15_001, 0.0), ("2500", 0.0), (None, 0.0), (True, 0.0), ([2500], 0.0),
])
def test_a_tap_says_how_long_the_voice_spoke_while_the_question_waited(heard, seconds) -> None:
    rnd = _round()
    raw = {"round": rnd.token, "index": 0, "value": 7, "heard": heard}
    assert _tapped(rnd, raw) == (7, seconds)


def test_the_voices_time_is_taken_off_the_answers() -> None:
    """A wrong answer's correction said by itself (about 3 s) is the voice's time, not
    the child's: the next answer's seconds leave it out, never below 0."""
    now = [100.0]
    rnd = QuickRound("1", 15, quick_facts_set(1, 5, 7, 15), clock=lambda: now[0])
    for heard, expected in ((0.0, 4.0), (3.0, 1.0), (9.0, 0.0)):
        rnd.shown()
        now[0] += 4.0
        _, _, seconds = rnd.answer(1, heard)
        assert seconds == expected


@pytest.mark.parametrize("raw", [
    None, "7", 7, [7], {},
    {"round": "other", "index": 0, "value": 7},  # another round's (an old tab)
    {"round": None, "index": 0, "value": 7},
    {"index": 0, "value": 7},
    {"round": "TOKEN", "index": 1, "value": 7},  # a question not yet asked
    {"round": "TOKEN", "index": "0", "value": 7},
    {"round": "TOKEN", "index": 0, "value": 0},  # not on the pad
    {"round": "TOKEN", "index": 0, "value": 11},
    {"round": "TOKEN", "index": 0, "value": -3},
    {"round": "TOKEN", "index": 0, "value": 7.0},
    {"round": "TOKEN", "index": 0, "value": True},
    {"round": "TOKEN", "index": 0, "value": "7"},
])
def test_anything_else_answers_nothing(raw) -> None:
    rnd = _round()
    if isinstance(raw, dict) and raw.get("round") == "TOKEN":
        raw = {**raw, "round": rnd.token}
    assert _tapped(rnd, raw) is None


def test_a_tap_for_a_question_already_answered_answers_nothing() -> None:
    rnd = _round()
    tap = {"round": rnd.token, "index": 0, "value": 7}
    rnd.answer(7)
    assert _tapped(rnd, tap) is None


def test_each_round_has_its_own_name() -> None:
    assert len({_round().token for _ in range(20)}) == 20
