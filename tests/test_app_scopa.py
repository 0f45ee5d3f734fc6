"""Play under Scopa through AppTest (issue 28): the form, a round to the score table, a
refused move, resume, the words in every language; Escoba's form unchanged."""

from __future__ import annotations

import random

import pytest

from tests.test_app_helpers import (
    assert_ok,
    create_profile,
    game,
    new_app,
    play_round_by_clicking,
    set_widget,
)

pytestmark = pytest.mark.usefixtures("fresh_app")


def _open_play(at):
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    return at


def test_choosing_scopa_names_the_game_and_plays_a_round_to_its_score_table() -> None:
    at = _open_play(create_profile(new_app()))
    assert at.title[0].value == "Escoba de quince"
    set_widget(at, "ng_game", "scopa")
    at.run()
    assert_ok(at)
    assert at.title[0].value == "Scopa"
    assert any("same value" in i.value for i in at.info)  # the blue box says Scopa's rule
    assert "ng_preset" not in {s.key for s in at.selectbox}  # Escoba's presets are not Scopa's
    set_widget(at, "ng_scopa_target", 16)
    set_widget(at, "ng_napola", True)
    at.run()
    at.button(key="start_game").click().run()
    assert_ok(at)
    rules = game(at).rules
    assert (rules.variant, rules.target, rules.napola) == ("scopa", 16, True)
    assert at.title[0].value == "Scopa"
    play_round_by_clicking(at, random.Random(3))
    rows = list(at.table[0].value.index)
    assert rows[:4] == ["Most cards (carte)", "Most coins (denari)", "Settebello (7 of coins)",
                        "Primiera (best card of each suit)"]
    assert "Scopas" in rows and "Napola" in rows
