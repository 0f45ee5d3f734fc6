"""The tablet's answer about the seats it keeps (ui/seat_keeper.py, issue 31), read by the
server: for the child signed in only, and nothing from the browser is taken as it comes.

The browser's side runs in Chromium (tests/test_browser_tables.py); here the answer is
handed to the server's callback directly, with session state as a plain dict."""

from __future__ import annotations

import pytest
import streamlit as st

from ui import seat_keeper as keeper

SECRET = "AbCdEfGhIjKlMnOpQrStUv"
OTHER = "zYxWvUtSrQpOnMlKjIhGfE"


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> dict:
    """Session state of one browser session where profile 2 is signed in."""
    session: dict = {"profile_id": 2}
    monkeypatch.setattr(st, "session_state", session)
    return session


def _answer(state: dict, **answer) -> None:
    state[keeper.KEY_COMPONENT] = {"seats": answer}
    keeper._on_answer()


def test_an_answer_for_another_child_on_the_tablet_is_ignored(state: dict) -> None:
    _answer(state, profile=1, seats={"K7MPX": SECRET}, ok=True)
    assert not keeper.tablet_has_read(2) and not keeper.tablet_has_read(1)
    assert keeper.held_seats(1) == keeper.held_seats(2) == {}


def test_only_well_formed_seats_of_the_child_are_taken(state: dict) -> None:
    _answer(state, profile=2, ok=True, seats={
        "K7MPX": SECRET, "k7mpy": OTHER, "ZZZZO": OTHER, "K7MPZ": "short",
        "K7MPQ": ["not", "a", "secret"], "<b>": OTHER})
    assert keeper.tablet_has_read(2)
    assert keeper.held_seats(2) == {"K7MPX": SECRET}
    assert keeper.kept_on_tablet(2, "K7MPX", SECRET)
    assert not keeper.kept_on_tablet(2, "K7MPX", OTHER)
    for junk in (None, "seats", {"profile": 2, "seats": "K7MPX"}):
        state[keeper.KEY_COMPONENT] = {"seats": junk}
        keeper._on_answer()  # nothing usable: nothing changes, no error
    assert keeper.held_seats(2) == {"K7MPX": SECRET}


def test_a_seat_to_keep_is_asked_until_kept_and_a_tablet_that_cannot_keep_is_not_pressed(
        state: dict) -> None:
    keeper.remember_seat(2, "K7MPX", SECRET)
    assert state[keeper.KEY_SAVE] == {(2, "K7MPX"): SECRET}
    _answer(state, profile=2, seats={}, ok=True)  # an answer from before the save
    assert state[keeper.KEY_SAVE] == {(2, "K7MPX"): SECRET}
    _answer(state, profile=2, seats={"K7MPX": SECRET}, ok=True)
    assert state[keeper.KEY_SAVE] == {} and keeper.kept_on_tablet(2, "K7MPX", SECRET)
    keeper.forget_seat(2, "K7MPX")
    assert state[keeper.KEY_FORGET] == {(2, "K7MPX"): True} and keeper.held_seats(2) == {}
    _answer(state, profile=2, seats={}, ok=True)
    assert state[keeper.KEY_FORGET] == {}
    # Storage blocked or full: asked once, then the secret stays in the tab's address.
    keeper.remember_seat(2, "K7MPY", OTHER)
    _answer(state, profile=2, seats={}, ok=False)
    assert state[keeper.KEY_SAVE] == {} and not keeper.kept_on_tablet(2, "K7MPY", OTHER)
    assert keeper.held_seats(2) == {"K7MPY": OTHER}  # this session still holds it
    # Never an endless exchange: given up after a few answers that do not keep it.
    keeper.remember_seat(2, "K7MPZ", SECRET)
    for _ in range(3):
        _answer(state, profile=2, seats={}, ok=True)
    assert state[keeper.KEY_SAVE] == {}


def test_the_tablets_answer_keeps_a_message_on_screen_and_a_tap_does_not(state: dict) -> None:
    """The answer comes a moment after a page is drawn and reruns it: a message that run
    showed ("This table link doesn't work") is shown again, not wiped a moment after it
    appeared (seen in Chromium at ?table=ZZZZZ); the child's next tap ends it."""
    from ui.session import flash, pop_flash

    flash("error", "table_bad_link")
    shown = pop_flash()  # the run that drew the page showed it
    assert shown == ("error", "table_bad_link", {})
    _answer(state, profile=2, ok=True, seats={})
    assert pop_flash() == shown  # the run the answer caused shows it again
    assert pop_flash() is None  # the run after a tap: gone
    _answer(state, profile=2, ok=True, seats={})
    assert pop_flash() is None  # and an answer brings back nothing that is gone
