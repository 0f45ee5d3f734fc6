"""Storage failures on screen (issue 25), through AppTest: the database file made
unwritable while a child plays (a move, a quick fact), and a damaged page of the file.
Never "Oops … your game is saved" while nothing was saved; never a blank Oops for a
damaged database: a grown-up's page."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.storage_faults import damage_table, unwritable
from tests.test_app_helpers import assert_ok, create_profile, game, new_app, play, start_game
from trainer.i18n import t

pytestmark = pytest.mark.usefixtures("fresh_app")

SORRY = "Oops! Something went wrong on our side."


def _app_engine():
    from ui.session import storage

    return storage().engine


def _said(at: AppTest) -> str:
    return "\n".join(e.value for kind in ("warning", "error", "info", "success")
                     for e in getattr(at, kind))


def test_a_move_not_saved_is_not_shown_as_made_and_can_be_made_again(fresh_app: Path) -> None:
    at = start_game(create_profile(new_app(), "Ana"), ng_opponents=1)
    g = game(at)
    before = (g.revision, [str(c) for c in g.observation(g.to_move).hand])
    move = g.observation(g.to_move).legal_moves()[0]
    with unwritable(fresh_app, [_app_engine()]):
        play(at, move)
        said = _said(at)
        assert t("storage_unavailable") in said
        assert SORRY not in said and "saved —" not in said
        assert at.button(key=next(b.key for b in at.button
                                  if b.key and b.key.startswith("storage_retry_")))
        shown = game(at)
        # The board is the saved position: the card is still in the hand.
        assert shown.revision == before[0]
        assert [str(c) for c in shown.observation(shown.to_move).hand] == before[1]
        at.run()  # a reload: the same position
        assert game(at).revision == before[0]
    # Storage is back: the same move is made and saved.
    play(at, move)
    assert t("storage_unavailable") not in _said(at)
    assert game(at).revision > before[0]


def test_a_quick_fact_not_saved_is_asked_again(fresh_app: Path) -> None:
    at = create_profile(new_app(), "Ana")
    at.switch_page("app_pages/quick_facts.py").run()
    assert_ok(at)
    rnd = at.session_state["qf_round"]
    right = rnd.puzzles[0].solutions[0].value
    with unwritable(fresh_app, [_app_engine()]):
        at.button(key=f"qf_n_{right}").click().run()
        assert_ok(at)
        said = _said(at)
        assert t("storage_unavailable") in said and SORRY not in said
        rnd = at.session_state["qf_round"]
        assert rnd.index == 0 and rnd.results == []  # the same question again
        assert t("qf_progress", n=1, total=len(rnd.puzzles)) in [c.value for c in at.caption]
    at.button(key=f"qf_n_{right}").click().run()
    assert at.session_state["qf_round"].index == 1
    from ui.session import storage

    assert len(storage().attempts(int(at.query_params["p"]))) == 1


def test_a_damaged_database_shows_a_grown_ups_page_not_oops(fresh_app: Path) -> None:
    at = create_profile(new_app(), "Ana")
    create_profile(at, "Leo")
    damage_table(fresh_app, "profiles", [_app_engine()])
    fresh = new_app()  # a new visitor on "Who's playing?"
    assert not fresh.exception
    said = _said(fresh)
    assert t("storage_damaged_title") in said and SORRY not in said
    assert any(t("storage_damaged_body") == m.value for m in fresh.markdown)
    assert [c.value for c in fresh.code] == ["DatabaseError: database disk image is malformed"]
    # Said once, in the child's language too.
    assert said.count(t("storage_damaged_title")) == 1
    es = new_app("es-ES")
    assert t("storage_damaged_title", "es") in _said(es)
