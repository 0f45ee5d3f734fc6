"""The Puzzles page under Scopa (issue 28), through AppTest: the kind is offered, drawn
with Scopa's Italian cards and the board's Scopa sum (the table cards make the played
card's value), solved by tapping, recorded, and a refused sum explained in the child's
language; the worksheet expander prints the kind."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from escoba.cards import parse_cards
from puzzles import from_cards
from tests.test_app_helpers import assert_ok, board_data, create_profile, new_app
from trainer.storage import Storage

pytestmark = pytest.mark.usefixtures("fresh_app")


def _attempts(at) -> list:
    raw = at.query_params["p"]
    pid = int(raw[0] if isinstance(raw, list) else raw)
    return Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"),
                   migrate=False).attempts(pid)


def test_choosing_scopa_draws_italian_cards_and_solving_it_is_recorded() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/puzzles.py").run()
    at.segmented_control(key="pz_mode").set_value("scopa").run()
    at.segmented_control(key="pz_level").set_value(3).run()
    assert_ok(at)
    puzzle = at.session_state["pz_current"][1]
    assert (puzzle.kind, puzzle.level) == ("scopa", 3) and puzzle.solutions
    board = board_data(at, "pz_board")
    assert board is not None and board["sum_rule"] == "card"
    assert board["select"]["fixed"] == str(puzzle.hand[0])
    italian = ("denari", "coppe", "spade", "bastoni", "Fante", "Cavallo", "Re")
    assert all(any(w in face["name"] for w in italian) for face in board["faces"].values())
    assert "Scopa rules" in board["intro"]
    assert at.title[0].value == "Find every capture"  # not "Find all the 15s"
    # Scopa has no capture sum: no sum to choose; the child's sum is kept for the others.
    assert "pz_sum" not in {w.key for w in at.segmented_control}
    # Build each set with the pills (AppTest runs no JavaScript): the add button says
    # what the table cards make, compared with the card's value.
    card = puzzle.hand[0]
    for sol in puzzle.solutions:
        at.pills(key="pz_table").set_value([str(c) for c in sol.take]).run()
        label = at.button(key="pz_add").label
        values = [c.value for c in sorted(sol.take)]
        assert label.endswith(f"{' + '.join(map(str, values))} = {card.value}"), label
        at.button(key="pz_add").click().run()
        assert_ok(at)
    assert any("⭐⭐⭐" in h.value for h in at.subheader)
    (row,) = _attempts(at)
    assert (row.kind, row.puzzle_id, row.correct, row.stars) == ("scopa", puzzle.id, True, 3)
    assert row.facts == puzzle.facts and all("-" not in f for f in row.facts)
    at.segmented_control(key="pz_mode").set_value("captures").run()
    assert at.segmented_control(key="pz_sum").value == 15


def test_the_childs_sum_is_kept_across_a_scopa_puzzle() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/puzzles.py").run()
    at.segmented_control(key="pz_mode").set_value("captures").run()
    at.segmented_control(key="pz_sum").set_value(10).run()
    at.segmented_control(key="pz_mode").set_value("scopa").run()
    assert at.session_state["pz_current"][1].capture_sum == 10
    at.segmented_control(key="pz_mode").set_value("hand").run()
    assert at.segmented_control(key="pz_sum").value == 10
    assert at.session_state["pz_current"][1].capture_sum == 10


@pytest.mark.parametrize(("locale", "said"), [
    ("en-US", "A card worth 7 is on the table: your 7 di denari must take it first"),
    ("it-IT", "Sul tavolo c'è una carta che vale 7"),
])
def test_a_sum_beside_an_equal_card_is_explained(locale: str, said: str) -> None:
    at = create_profile(new_app(locale=locale))
    at.switch_page("app_pages/puzzles.py").run()
    puzzle = from_cards("scopa", parse_cards("3o 4c 7c 2b"), parse_cards("7o"))
    at.session_state["pz_current"] = (("for-me", 1, 15), puzzle, [])
    at.run()
    at.pills(key="pz_table").set_value(["3o", "4c"]).run()
    at.button(key="pz_add").click().run()
    assert_ok(at)
    assert any(said in e.value for e in at.error), [e.value for e in at.error]
    # One stop between the reason and "Try another set!", never "sum.. Try".
    assert not any(".." in e.value for e in at.error), [e.value for e in at.error]
    at.pills(key="pz_table").set_value(["7c"]).run()
    at.button(key="pz_add").click().run()
    assert at.session_state["pz_state"].result is not None  # the one answer found: done


def test_the_worksheet_expander_offers_scopa() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/puzzles.py").run()
    assert "Scopa: every capture" in at.selectbox(key="ws_kind").options
    at.selectbox(key="ws_kind").set_value("scopa").run()
    assert_ok(at)
    assert any("SC1-15-1" in m.value for m in at.markdown)
