"""The "just right" level in the app (issue 30): offered with the fixed levels, the first
choice once a child has finished a few games against the computer, played at the child's
estimated strength, and explained on My progress."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from escoba import Rules
from tests.test_app_helpers import assert_ok, create_profile, game, new_app
from tests.test_storage import play_to_end
from trainer.gameplay import GameSession, SeatSpec
from trainer.just_right import DEFAULT_AFTER_GAMES, estimate_strength
from trainer.storage import Storage

pytestmark = pytest.mark.usefixtures("fresh_app")


def _store() -> Storage:
    return Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"), migrate=False)


def _finish_games(store: Storage, profile_id: int, count: int) -> None:
    rules = Rules.preset("classic", target=5)
    for n in range(count):
        session = GameSession.new(rules, [SeatSpec("human", "Ana"),
                                          SeatSpec("bot", "B", level="gentle")],
                                  10 + n, storage=store, profile_id=profile_id)
        play_to_end(session, seed=n)


def _level_box(at):
    return next(s for s in at.selectbox if s.key == "ng_level_1")


def test_just_right_is_offered_beside_the_fixed_levels_and_not_first_for_a_new_child() -> None:
    at = create_profile(new_app(), "Ana")
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    box = _level_box(at)
    assert "Just right" in box.options
    assert {"Gentle", "Expert"} <= set(box.options)
    assert box.value == "gentle"  # no games yet: the easiest fixed level


def test_after_a_few_games_just_right_is_chosen_and_plays_at_the_childs_strength() -> None:
    at = create_profile(new_app(), "Ana")
    store = _store()
    ana = store.list_profiles()[0]
    _finish_games(store, ana.id, DEFAULT_AFTER_GAMES)
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    assert _level_box(at).value == "just_right"
    at.button(key="start_game").click().run()
    assert_ok(at)
    session = game(at)
    expected = estimate_strength(store.finished_games(ana.id)).strength
    assert session.seats[1].level == "just_right"
    assert session.seats[1].strength == pytest.approx(expected)
    assert session.players[1].strength == pytest.approx(expected)
    # the parent reads where the computer stands, on My progress's games
    at.switch_page("app_pages/progress.py").run()
    at.segmented_control(key="pr_view").set_value("games").run()
    assert_ok(at)
    assert any("“Just right” computer plays at" in m.value for m in at.markdown), \
        [m.value for m in at.markdown]


def test_a_pupils_teacher_reads_the_same_sentence() -> None:
    from tests.test_app_classroom import click, part, pupil_ids, shown, sign_up, store, submit

    at = sign_up()
    at.text_input(key="tc_class_name").input("4A")
    submit(at, "tc_new_class_form")
    at.text_area(key="tc_paste").input("Ana")
    submit(at, "tc_add_form")
    ana = pupil_ids(at)["Ana"].profile_id
    click(at, "tc_added_done")
    _finish_games(store(), ana, 1)
    part(at, "dashboard")
    at.selectbox(key="tc_dash_pupil").set_value(ana).run()
    at.segmented_control(key="tc_pr_view").set_value("games").run()
    assert_ok(at)
    assert "“Just right” computer plays at" in shown(at)


def test_play_reads_the_finished_games_again_only_when_one_finishes(monkeypatch) -> None:
    """Issue 32: the "just right" level was keyed by the child's whole data version, so
    Play's first run after every quick fact or puzzle read up to 200 finished games
    again. Keyed by the finished games themselves, an answer reads none; a game finished
    is read, and the level follows it."""
    from datetime import UTC, datetime

    from tests.test_classroom import fact_quick

    at = create_profile(new_app(), "Ana")
    store = _store()
    ana = store.list_profiles()[0]
    _finish_games(store, ana.id, DEFAULT_AFTER_GAMES)
    reads: list[int] = []
    read = Storage.finished_games

    def counted(self, profile_id, *args, **kwargs):
        reads.append(profile_id)
        return read(self, profile_id, *args, **kwargs)

    monkeypatch.setattr(Storage, "finished_games", counted)
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    assert reads == [ana.id] and _level_box(at).value == "just_right"
    strength = estimate_strength(store.finished_games(ana.id)).strength
    reads.clear()
    for i in range(3):  # answers elsewhere (another tab, a quick fact): no game read
        store.record_attempt(ana.id, fact_quick("15-7", i > 0, 2.0, datetime.now(UTC)))
        at.switch_page("app_pages/progress.py").run()
        at.switch_page("app_pages/play.py").run()
        assert_ok(at)
    assert reads == []
    _finish_games(store, ana.id, 1)  # a game finished: read once, and its strength used
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    assert reads == [ana.id]
    now = estimate_strength(read(store, ana.id)).strength
    assert now != strength
    at.button(key="start_game").click().run()
    assert_ok(at)
    assert game(at).seats[1].strength == pytest.approx(now)
