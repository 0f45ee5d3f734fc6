"""Praise that repeats the child's sum (issue 23): trainer.praise over real rounds and
lesson levels, and the board's "advance" action."""

from __future__ import annotations

import random

from helpers import deal_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba import Rules
from lessons import load_stages
from tests.test_lessons import _right_actions
from trainer.board_view import BoardAction, BoardRefusal, read_action
from trainer.i18n import t
from trainer.lessons import LessonRunner
from trainer.praise import praise_for, stars_text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), capture_sum=st.sampled_from([10, 15]))
def test_a_capture_is_praised_with_the_engines_own_sum(seed: int, capture_sum: int) -> None:
    """Whatever capture the child makes, the praise adds up to the capture sum, in the
    order the engine writes it (table cards, then the card played)."""
    rules = Rules(capture_sum=capture_sum)
    rng = random.Random(seed)
    round_ = deal_round(rules, rng)
    seat = round_.to_move
    captures = [m for m in round_.legal_moves() if m.take]
    if not captures:
        lay = rng.choice(round_.legal_moves())
        played = round_.play(lay, seat)
        praise = praise_for([played], seat, rules=rules)
        assert praise.kind == "right" and praise.key == "fb.right"
        return
    move = rng.choice(captures)
    played = round_.play(move, seat)
    praise = praise_for([played], seat, rules=rules, stars=2)
    values, total, jokers = move.sum_terms()
    assert praise.params["expr"] == " + ".join("🃏" if v == "JK" else str(v) for v in values)
    if not jokers:
        assert praise.params["total"] == total == capture_sum
    assert praise.kind == ("escoba" if played.escoba else "capture")
    assert praise.stars == 2
    # Another seat's capture is never the child's praise.
    assert praise_for([played], (seat + 1) % rules.players, rules=rules).kind == "right"


def _finish(runner: LessonRunner):
    """Play the runner's level to its end by its right actions; the last outcome."""
    for _ in range(10):
        action, what = _right_actions(runner)[0]
        outcome = (runner.play(what.card, what.take) if action == "play"
                   else runner.tap(what) if action == "tap" else runner.answer(what))
        assert outcome.ok
        if outcome.done:
            return outcome
    raise AssertionError("the level did not finish")


def _finish_first_level_of(stage_key: str):
    runner = LessonRunner(auto_advance=False)
    runner.start(stage_key)
    return runner, _finish(runner)


def test_a_finished_escoba_level_waits_and_is_praised_with_its_sum_in_every_language() -> None:
    runner, outcome = _finish_first_level_of("escoba")
    assert runner.status == "level_done"  # held for the board to play it out
    praise = praise_for(outcome.events, 0, rules=runner.level.rules,
                        stars=outcome.result.stars)
    assert praise.kind == "escoba" and praise.stars == 3
    assert runner.view().table == ()  # the empty table the broom is drawn on
    words = {lang: t(praise.key, lang, domain="lessons", **praise.params)
             for lang in ("en", "es", "de", "it", "zh")}
    # the escoba by its name in each language's term base (扫桌 in Chinese, seed 000; a
    # scopa in Italian, issue 28)
    assert all("= 15" in w and {"zh": "扫桌", "it": "Scopa"}.get(lang, "Escoba") in w
               for lang, w in words.items()), words
    assert words["en"] == f"¡Escoba! {praise.params['expr']} = 15!"
    assert stars_text(praise.stars) == "⭐⭐⭐" and stars_text(1) == "⭐☆☆"
    first = runner.level.key
    runner.advance()
    assert runner.level.key != first and runner.status == "playing"


def test_a_tapping_level_is_praised_in_its_own_words() -> None:
    first = load_stages()[0]
    runner, outcome = _finish_first_level_of(first.key)
    assert praise_for(outcome.events, 0, rules=runner.level.rules,
                      otherwise=outcome.feedback.key).key == outcome.feedback.key


def test_the_board_may_ask_for_the_next_level_only_at_its_position() -> None:
    assert read_action({"kind": "advance", "position": "l:a:b:0:level_done:1:1:2"},
                       "l:a:b:0:level_done:1:1:2") == BoardAction("advance")
    stale = read_action({"kind": "advance", "position": "l:a:b:0:level_done:1:1:2"},
                        "l:a:c:0:playing:0:1:0")
    assert isinstance(stale, BoardRefusal) and stale.stale
    refused = read_action({"kind": "advance", "position": "x"}, "x", kinds=("play", "tap"))
    assert isinstance(refused, BoardRefusal) and not refused.stale



def test_a_level_is_held_to_be_played_out_only_when_it_is_drawn_on_a_board() -> None:
    """Stage 6's counting level ends on "How many escobas do you have now?" after the
    child's last card: no hand, no table, no move to show, so no board is drawn and
    nothing could play the level out (held, the page was left with the question and no
    way on). It goes on at once; a level finished by a capture is held on its board."""
    import streamlit as st_app

    from ui import celebrate

    st_app.session_state.pop(celebrate.KEY_CELEBRATION, None)
    runner = LessonRunner(auto_advance=False)
    runner.start("escoba", "count")
    outcome = _finish(runner)
    assert runner.status == "level_done" and not runner.view().has_board
    celebrate.after_action(runner, outcome, board_drawn=True)
    assert celebrate.current() is None
    assert (runner.level.key, runner.status) == ("find", "playing")

    outcome = _finish(runner)  # "find": an escoba, on the board
    assert runner.view().has_board
    celebrate.after_action(runner, outcome, board_drawn=True)
    held = celebrate.current()
    assert held is not None and held.view.level == "find" and held.praise.escoba
    assert runner.level.key == "check"
    st_app.session_state.pop(celebrate.KEY_CELEBRATION, None)
