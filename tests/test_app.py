"""The app through AppTest: every page, a whole round by clicking, hints, open hand,
renuncio, pass and play, resume after a restart, record upload, a random-click fuzz."""

from __future__ import annotations

import json
import logging
import os
import random
import re

import pytest
import sqlalchemy as sa
import streamlit as st

from escoba import Card, Move, Rules
from escoba.cards import cards_of
from tests.test_app_helpers import (
    assert_ok,
    board_data,
    board_text,
    card_marks,
    choose,
    create_profile,
    everything_sent,
    game,
    new_app,
    play,
    play_round_by_clicking,
    reopen_after_restart,
    set_widget,
    start_game,
    wrong_choice,
)
from trainer.i18n import t
from trainer.storage import Storage
from ui.board_component import KEY_FALLBACK_OPEN, KEY_FALLBACK_USED, KEY_READY

PAGES = ["app_pages/profiles.py", "app_pages/play.py", "app_pages/games.py",
         "app_pages/replay.py", "app_pages/settings.py", "app_pages/help.py"]


pytestmark = pytest.mark.usefixtures("fresh_app")


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_without_a_profile(page: str) -> None:
    at = new_app()
    at.switch_page(page).run()
    assert_ok(at)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_with_a_profile(page: str) -> None:
    at = create_profile(new_app())
    at.switch_page(page).run()
    assert_ok(at)
    assert at.title, page


def test_profile_is_created_and_language_follows_the_browser() -> None:
    at = new_app(locale="es-AR")
    assert at.title[0].value == "¿Quién juega?"
    create_profile(at, "Leo")
    assert any("¡Hola, Leo!" in s.value for s in at.success)
    assert at.query_params["p"]  # a refresh keeps the profile
    # Changing the language is remembered in the profile.
    at.segmented_control(key="lang_picker").set_value("en").run()
    assert at.title[0].value == "Who's playing?"


def test_a_taken_nickname_gets_a_friendly_message() -> None:
    at = create_profile(new_app(), "Ana")
    create_profile(at, "ana")
    assert any("already taken" in w.value for w in at.warning)


def test_whole_round_by_clicking_to_the_score_table() -> None:
    at = start_game(create_profile(new_app()))
    play_round_by_clicking(at, random.Random(1))
    table = at.table[0].value
    assert list(table.index)[:5] == ["Most cards", "Most oros", "Siete de oros",
                                     "Most sevens", "Escobas"]
    assert "Round total" in list(table.index)
    assert "Who won it, and why" in table.columns
    at.button(key="next_round").click().run()
    assert_ok(at)
    assert game(at).game.round is not None and len(game(at).game.rounds) == 2


def test_a_wrong_sum_is_answered_with_the_arithmetic() -> None:
    at = start_game(create_profile(new_app()), ng_open=False)
    card, wrong = wrong_choice(at, random.Random(1))
    seat = game(at).to_move
    choose(at, Move(card, frozenset([wrong])))
    at.button(key="play_button").click().run()
    assert_ok(at)
    expected = f"{wrong.value} + {card.value} = {wrong.value + card.value}"
    assert any(expected in e.value and "you need 15" in e.value for e in at.error)
    assert game(at).to_move == seat  # retry: still the child's turn


def test_penalty_keeps_the_card_on_the_table() -> None:
    at = create_profile(new_app())
    start_game(at, ng_miscount="penalty")
    card, wrong = wrong_choice(at, random.Random(2))
    play(at, Move(card, frozenset([wrong])))
    assert any("stays on the table" in e.value for e in at.error)
    assert any(e.kind == "miscount" for e in game(at).round.history)


def test_normal_mode_never_sends_opponent_cards() -> None:
    at = start_game(create_profile(new_app()), ng_opponents=3)
    g = game(at)
    sent = everything_sent(at)
    me = g.human_seats[0]
    for seat in range(g.rules.players):
        if seat == me:
            continue
        for card in cards_of(g.round.hand_mask(seat)):
            assert not any(mark in sent for mark in card_marks(card)), (seat, card)
    for card in g.round.hand(me):  # while the child's own cards are there
        assert card.name() in sent


def test_open_hand_shows_every_hand() -> None:
    at = start_game(create_profile(new_app()), ng_open=True)
    g = game(at)
    sent = everything_sent(at)
    for card in g.round.hand(1):
        assert card.name() in sent


def test_hints_on_and_off() -> None:
    at = start_game(create_profile(new_app()))
    def shown() -> bool:
        return any("Best move:" in h.value for h in at.get("html"))

    assert any(re.search(r"(no way|\b1 way|\b\d+ ways) to capture", h.value)
               for h in at.get("html"))
    assert not any("way(s)" in h.value for h in at.get("html"))
    assert shown()
    at.toggle(key="tgl_hints").set_value(False).run()
    assert_ok(at)
    assert not shown()
    at.toggle(key="tgl_hints").set_value(True).run()
    assert shown()


def test_a_page_opened_anew_draws_the_board_first_and_the_hint_with_its_word() -> None:
    """Until a board of this session has drawn (or the text choosers are opened), Play
    draws its board alone: the hint in words, the hint switch and "new game" wait, so
    the board is drawn sooner (issue 32); the board's word draws them under it, and a
    browser where it never draws finds the hint beside the choosers in their section."""
    at = start_game(create_profile(new_app()))
    best = lambda: [h for h in at.get("html") if "Best move:" in h.value]  # noqa: E731
    assert best() and at.toggle(key="tgl_hints")  # the choosers' section is open here
    at.session_state[KEY_FALLBACK_OPEN] = False  # a visit that never opened it
    at.session_state[KEY_FALLBACK_USED] = False
    at.run()
    assert_ok(at)
    assert not best()
    assert "tgl_hints" not in [w.key for w in at.toggle]
    assert "new_game_midway" not in [b.key for b in at.button]
    assert [e.label for e in at.expander] == [t("board_fallback_title", "en")]
    at.session_state[KEY_READY] = True  # the board said it drew
    at.run()
    assert_ok(at)
    assert best() and not at.expander
    assert at.toggle(key="tgl_hints").value is True
    assert at.button(key="new_game_midway")


def test_text_choosers_opened_once_keep_the_tools_and_a_screen_without_them_has_them():
    """Where no board draws: the section opened once and closed again keeps the hint
    switch and "new game" on the page (the choosers are that child's board); a screen
    with no choosers (the computer's turn, paused) draws them at once."""
    at = start_game(create_profile(new_app()))
    at.session_state[KEY_FALLBACK_OPEN] = False
    at.session_state[KEY_FALLBACK_USED] = True  # opened once, then closed
    at.run()
    assert_ok(at)
    assert at.toggle(key="tgl_hints") and at.button(key="new_game_midway")
    fresh = create_profile(new_app(), "Pau")
    pause_computer(fresh)
    start_game(fresh)
    g = game(fresh)
    if g.is_human_turn:  # to the computer's turn
        play(fresh, random.Random(5).choice(g.observation(g.to_move).legal_moves()))
    fresh.session_state[KEY_FALLBACK_OPEN] = False  # a visit that never opened it
    fresh.session_state[KEY_FALLBACK_USED] = False
    fresh.run()
    assert_ok(fresh)
    assert fresh.button(key="bot_step") and not fresh.expander
    assert fresh.toggle(key="tgl_hints") and fresh.button(key="new_game_midway")


def pause_computer(at) -> None:
    """Turn on "pause on the computer's turn" in Settings."""
    at.switch_page("app_pages/settings.py").run()
    at.toggle(key="set_pause").set_value(True).run()


def test_pause_shows_computer_moves_one_at_a_time() -> None:
    at = create_profile(new_app())
    pause_computer(at)
    start_game(at)
    rng = random.Random(3)
    g = game(at)
    if not g.is_human_turn:
        at.button(key="bot_step").click().run()
    play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    assert "bot_step" in {b.key for b in at.button}
    before = len(g.round.history)
    at.button(key="bot_step").click().run()
    assert_ok(at)
    assert len(game(at).round.history) >= before + 1
    assert "What just happened" in board_text(at)


def test_renuncio_button() -> None:
    at = create_profile(new_app())
    start_game(at, ng_capture_rule="renuncio", ng_level_1="random")
    assert_ok(at)
    rng = random.Random(5)
    claimed = False
    for _ in range(400):
        g = game(at)
        if g.round_over:
            at.button(key="next_round").click().run()
            continue
        obs = g.observation(g.to_move)
        keys = {b.key for b in at.button}
        # The button is there exactly when a claim can be made.
        assert ("renuncio_button" in keys) == bool(obs.renuncio_claims())
        if obs.renuncio_claims():
            claims = obs.renuncio_claims()
            if len(claims) > 1:
                # Several sets: the claimer chooses (issue 26); none chosen, they are asked.
                at.button(key="renuncio_button").click().run()
                assert any("Which set does your ¡renuncio! take?" in w.value
                           for w in at.warning)
                assert game(at).round.history[-1].kind != "renuncio"
            chosen = claims[-1]
            if len(claims) > 1:
                at.pills(key="pick_table").set_value(sorted(str(c) for c in chosen.take))
            at.button(key="renuncio_button").click().run()
            assert_ok(at)
            assert any("¡Renuncio! You took" in s.value for s in at.success)
            assert game(at).round.history[-1].take == chosen.take
            assert game(at).round.history[-1].kind == "renuncio"
            claimed = True
            break
        play(at, rng.choice(obs.legal_moves()))
    assert claimed
    assert game(at).claim_renuncio().key == "renuncio_nothing"  # nothing left to claim


def test_pass_and_play_hides_each_hand_until_its_owner_asks() -> None:
    at = create_profile(new_app())
    start_game(at, ng_kind_1="human", ng_name_1="Leo")
    assert_ok(at)
    g = game(at)
    seat = g.to_move
    name = g.seats[seat].name
    other = 1 - seat
    sent = everything_sent(at)
    for card in list(g.round.hand(seat)) + list(g.round.hand(other)):
        assert card.name() not in sent  # nobody's cards until "I'm ... show my cards"
    reveal = at.button(key=f"reveal_{seat}")
    assert reveal.label == f"I'm {name} — show my cards"
    reveal.click().run()
    sent = everything_sent(at)
    assert all(c.name() in sent for c in g.round.hand(seat))
    assert not any(c.name() in sent for c in g.round.hand(other))
    play(at, g.observation(seat).legal_moves()[0])
    assert f"reveal_{other}" in {b.key for b in at.button}  # hidden again for the next child


def test_resume_after_a_restart() -> None:
    at = start_game(create_profile(new_app()))
    rng = random.Random(2)
    for _ in range(3):
        g = game(at)
        play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    record = game(at).record()
    again = reopen_after_restart(at)
    assert game(again).record() == record
    assert "play_button" in {b.key for b in again.button}


def test_record_download_and_upload_replay() -> None:
    at = start_game(create_profile(new_app()))
    play_round_by_clicking(at, random.Random(4))
    record = json.dumps(game(at).record()).encode()
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload("game.json", record, "application/json").run()
    assert_ok(at)
    assert any("Round 1, move 0" in m.value for m in at.markdown)
    at.button(key="replay_next").click().run()
    assert_ok(at)
    assert any("Round 1, move 1" in m.value for m in at.markdown)
    steps = sum(len(r["moves"]) for r in game(at).record()["rounds"])
    at.slider(key="replay_step").set_value(steps).run()
    assert_ok(at)
    assert at.table  # the round's score table at the end


@pytest.mark.parametrize("content", [b"not json at all", b"\xff\xfe\x00",
                                     b'{"format": "escoba-record/1", "rounds": [{"dealer": 0,'
                                     b' "deck": ["7o"], "moves": []}]}', b"[]"])
def test_a_corrupt_upload_gets_a_clear_message(content: bytes) -> None:
    at = new_app()
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload("bad.json", content, "application/json").run()
    assert_ok(at)
    assert any("We can't read this file as a game record" in e.value for e in at.error)


def test_settings_change_the_deck_and_are_saved() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/settings.py").run()
    at.segmented_control(key="set_deck").set_value("french").run()
    assert_ok(at)
    assert any("J of spades" in h.value for h in at.get("html"))
    profile_id = int(at.session_state["profile_id"])
    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"))
    assert store.get_profile(profile_id).settings["deck"] == "french"


def test_errors_are_friendly_and_logged(monkeypatch) -> None:
    at = start_game(create_profile(new_app()))
    import trainer.gameplay

    def boom(*_a, **_k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(trainer.gameplay.GameSession, "play_human", boom)
    g = game(at)
    choose(at, g.observation(g.to_move).legal_moves()[0])
    at.button(key="play_button").click().run()
    assert not at.exception
    assert any("Something went wrong" in e.value for e in at.error)
    assert "kaboom" not in everything_sent(at)


def _raw_options(at, key: str | None) -> list:
    """The values behind a pills/segmented widget (AppTest shows only labels)."""
    from ui.profiles import AVATARS

    fixed = {"ng_opponents": [1, 2, 3], "ng_sum": [10, 15, 20], "ng_target": [15, 21, 31],
             "set_deck": ["spanish", "french", "italian"],
             "set_lang": ["en", "es", "de", "it", "zh"],
             "new_avatar": AVATARS, "lang_picker": ["en", "es", "de", "it", "zh"]}
    if key in fixed:
        return fixed[key]
    if key and key.startswith("ng_kind_"):
        return ["bot", "human"]
    if key and key.startswith("ng_level_"):
        from trainer.gameplay import bot_levels

        return bot_levels()
    from escoba.rules import CAPTURE_RULES, INITIAL_FIFTEEN, MISCOUNT, PRESETS

    selects = {"ng_preset": list(PRESETS), "ng_capture_rule": list(CAPTURE_RULES),
               "ng_miscount": list(MISCOUNT), "ng_initial": list(INITIAL_FIFTEEN)}
    if key in selects:
        return selects[key]
    if key in ("pick_hand", "pick_table") and "game_session" in at.session_state:
        g = game(at)
        if g.round_over:
            return []
        obs = g.observation(g.to_move)
        return [str(c) for c in (obs.hand if key == "pick_hand" else obs.table)]
    return []


@pytest.mark.slow
def test_random_click_fuzz() -> None:
    """A few hundred random taps over every page: never an exception on screen."""
    rng = random.Random(11)
    at = create_profile(new_app())
    interactions = 0
    while interactions < 300:
        if rng.random() < 0.08:
            at.switch_page(rng.choice(PAGES)).run()
            interactions += 1
            assert_ok(at)
            continue
        widgets = ([("button", b) for b in at.button if not b.disabled
                    and not (b.key or "").startswith("profile_")]
                   + [("pills", p) for p in at.pills]
                   + [("toggle", w) for w in at.toggle]
                   + [("segmented", w) for w in at.segmented_control]
                   + [("selectbox", w) for w in at.selectbox if w.key != "lang_picker"])
        if not widgets:
            at.switch_page("app_pages/play.py").run()
            continue
        kind, widget = rng.choice(widgets)
        if kind == "button":
            widget.click()
        elif kind in ("pills", "segmented"):
            options = _raw_options(at, widget.key)
            if not options:
                continue
            if kind == "pills" and widget.key == "pick_table":
                widget.set_value(rng.sample(options, k=rng.randint(0, min(3, len(options)))))
            else:
                widget.set_value(rng.choice(options))
        elif kind == "toggle":
            widget.set_value(not widget.value)
        else:
            options = _raw_options(at, widget.key)
            if not options:
                continue
            widget.set_value(rng.choice(options))
        at.run()
        interactions += 1
        assert_ok(at)


def test_card_from_text_helper() -> None:
    assert Card.parse("7o").name() == "7 de oros"


@pytest.mark.parametrize("choices", [
    {"ng_sum": 10},
    {"ng_sum": 20, "ng_hand7": True},
    {"ng_jokers": True, "ng_preset": "setenta"},
    {"ng_preset": "relaxed", "ng_primera": True, "ng_last_escoba": False},
    {"ng_preset": "escova", "ng_initial": "ignore"},
], ids=["sum10", "sum20-hand7", "jokers-setenta", "relaxed-primera", "escova"])
def test_every_option_plays_a_round(choices: dict) -> None:
    at = create_profile(new_app())
    # The "more rules" widgets exist even while their expander is folded.
    start_game(at, **choices)
    assert_ok(at)
    rules = game(at).rules
    assert rules.capture_sum == choices.get("ng_sum", 15)
    assert rules.hand_size == (7 if choices.get("ng_hand7") else 3)
    assert rules.jokers == bool(choices.get("ng_jokers"))
    play_round_by_clicking(at, random.Random(8))
    assert at.table


def test_four_players_in_teams_score_as_two_sides() -> None:
    at = start_game(create_profile(new_app()), ng_opponents=3, ng_teams=True)
    g = game(at)
    assert g.rules.teams and g.rules.players == 4
    play_round_by_clicking(at, random.Random(6))
    columns = list(at.table[0].value.columns)
    assert columns[0] == "Ana + Computer 2" and columns[1] == "Computer 1 + Computer 3"


def test_a_whole_game_ends_with_the_winner_and_the_review() -> None:
    at = start_game(create_profile(new_app()), ng_target=15)
    rng = random.Random(12)
    for _ in range(40):
        play_round_by_clicking(at, rng)
        if "new_game_after" in {b.key for b in at.button}:
            break
        at.button(key="next_round").click().run()
        assert_ok(at)
    g = game(at)
    assert g.is_over
    assert any("won the game" in s.value for s in at.success)
    assert any("How did I play?" in m.value for m in at.markdown)
    row_review = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"),
                         migrate=False).get_game(g.game_id).review
    assert isinstance(row_review, list)
    assert "download_record" in {b.key for b in at.get("download_button")}
    at.button(key="new_game_after").click().run()
    assert_ok(at)
    assert "start_game" in {b.key for b in at.button}


def test_open_hand_hint_names_the_sweeping_card() -> None:
    """In mesa abierta, a risky move's warning says which card would sweep."""
    from escoba import Rules
    from trainer.gameplay import GameSession, SeatSpec
    from trainer.hints import assess

    rules = Rules.preset("classic", open_hand=True)
    for seed in range(200):
        session = GameSession.new(rules, [SeatSpec("human", "Ana"),
                                          SeatSpec("bot", "B", level="random")], seed)
        session.run_bots()
        obs = session.observation(session.to_move)
        known = [a for a in assess(obs) if a.sweep_risk and a.sweep_risk.known]
        if known:
            risk = known[0].sweep_risk
            nxt = obs.open_hands[(obs.seat + 1) % 2]
            assert all(nxt >> c.index & 1 for c in risk.sweeping_cards)
            assert sum(c.value for c in risk.sweeping_cards[:1]) + risk.total == 15 \
                or any(c.is_joker for c in risk.sweeping_cards)
            return
    pytest.fail("no open-hand position with a known sweeper in 200 deals")


def test_names_in_an_uploaded_record_are_not_markup() -> None:
    at = start_game(create_profile(new_app()))
    record = game(at).record()
    record["names"] = ["![pixel](http://example.invalid/p.png)", "<b>Bot</b>"]
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload(
        "game.json", json.dumps(record).encode(), "application/json").run()
    assert_ok(at)
    sent = everything_sent(at)
    assert "](http" not in sent and "<b>Bot" not in sent


def test_start_a_different_game_midway_and_come_back() -> None:
    at = start_game(create_profile(new_app()))
    first = game(at).game_id
    at.button(key="new_game_midway").click().run()
    assert_ok(at)
    assert "start_game" in {b.key for b in at.button}
    at.button(key="back_to_game").click().run()
    assert game(at).game_id == first and "play_button" in {b.key for b in at.button}
    at.button(key="new_game_midway").click().run()
    at.button(key="start_game").click().run()
    assert game(at).game_id != first
    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"),
                    migrate=False)
    assert store.get_game(first).status == "abandoned"


def _hidden_marks(card: Card) -> list[str]:
    """card_marks plus the card's code as a JSON string (how a record's deck holds it)."""
    return [*card_marks(card), f'"{card}"', f'\\"{card}\\"']


def test_a_game_in_play_never_offers_its_record() -> None:
    """The record's deck holds every hidden hand: no download while the game goes on."""
    at = start_game(create_profile(new_app()), ng_opponents=2)
    rng = random.Random(21)
    for _ in range(3):
        g = game(at)
        play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    g = game(at)
    assert not g.round_over and not g.is_over
    me = g.human_seats[0]
    hidden = [c for s in range(g.rules.players) if s != me for c in g.round.hand(s)]
    hidden += [Card(i) for i in g.round._stock]  # the stock: hidden too
    for page in ("app_pages/play.py", "app_pages/games.py"):
        at.switch_page(page).run()
        assert_ok(at)
        assert not at.get("download_button"), page
        sent = everything_sent(at)
        for card in hidden:
            assert not any(mark in sent for mark in _hidden_marks(card)), (page, card)
    assert any("when it is over" in c.value for c in at.caption)


def test_an_open_hand_game_in_play_offers_no_record() -> None:
    """Issue 10: never while a round can be played, whatever the game: in *mesa abierta*
    the hands are face up, but the record's deck says which cards come next."""
    at = start_game(create_profile(new_app()), ng_open=True)
    at.switch_page("app_pages/games.py").run()
    assert_ok(at)
    assert len(at.get("download_button")) == 0


@pytest.mark.parametrize("target", ["ui.board.session_board", "ui.play_view.show_board",
                                    "ui.play_view.show_game_tools"])
def test_an_error_inside_the_play_fragment_is_friendly(monkeypatch, caplog, target) -> None:
    """A tap reruns only the board's fragment: its errors must be friendly too."""
    at = start_game(create_profile(new_app()))

    def boom(*_a, **_k):
        raise RuntimeError("kaboom in the fragment")

    module, name = target.rsplit(".", 1)
    import importlib

    monkeypatch.setattr(importlib.import_module(module), name, boom)
    g = game(at)
    with caplog.at_level(logging.ERROR):
        at.pills(key="pick_hand").set_value(str(g.observation(g.to_move).hand[0])).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Something went wrong" in e.value for e in at.error)
    sent = everything_sent(at)
    assert "kaboom" not in sent and "Traceback" not in sent and "Ask Google" not in sent
    assert "kaboom in the fragment" in caplog.text  # logged for whoever runs the app


def test_an_error_in_any_callback_is_friendly(monkeypatch) -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/settings.py").run()
    def boom(*_a, **_k):
        raise RuntimeError("kaboom in a callback")

    monkeypatch.setattr(Storage, "update_settings", boom)  # under the toggle's callback
    at.toggle(key="set_hints").set_value(False).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Something went wrong" in e.value for e in at.error)
    assert "kaboom" not in everything_sent(at)


def test_streamlit_never_shows_error_details() -> None:
    import tomllib

    from tests.test_app_helpers import ROOT

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"
    assert config["client"]["toolbarMode"] == "minimal"
    # no file watcher set up for each new visitor's session (docs/APP.md, `make dev`)
    assert config["server"]["fileWatcherType"] == "none"


def test_a_refresh_builds_the_sidebar_in_the_profiles_language(monkeypatch) -> None:
    """A Spanish profile in an English browser: ?p= on a fresh session (a refresh or
    a link) names the pages in Spanish on the very first run."""
    at = create_profile(new_app(locale="en-US"), "Leo")
    at.segmented_control(key="lang_picker").set_value("es").run()
    profile_id = at.query_params["p"]
    profile_id = profile_id[0] if isinstance(profile_id, list) else profile_id
    import ui.layout

    built: list[str] = []
    real = ui.layout.pages

    def spy(spec, lang):
        built.append(lang)
        return real(spec, lang)

    monkeypatch.setattr(ui.layout, "pages", spy)
    fresh = new_app(locale="en-US", query={"p": str(profile_id)})
    assert_ok(fresh)
    assert built == ["es"]
    assert fresh.title[0].value == "¿Quién juega?"
    fresh.switch_page("app_pages/help.py").run()
    assert built[-1] == "es"


def test_pass_and_play_reviews_every_child_by_name(monkeypatch) -> None:
    import trainer.hints

    asked: list[int] = []

    def fake_review(record, seat):  # the coach, one mistake each
        asked.append(seat)
        return trainer.hints.GameReview.from_stored([
            {"round": 1, "move_no": 1, "move": None, "best": None, "lost": 1.0,
             "mistakes": []}])

    monkeypatch.setattr(trainer.hints, "review", fake_review)
    at = create_profile(new_app())
    at.switch_page("app_pages/play.py").run()
    at.segmented_control(key="ng_kind_1").set_value("human").run()
    at.text_input(key="ng_name_1").input("Leo").run()
    set_widget(at, "ng_target", 15)
    at.run()
    at.button(key="start_game").click().run()
    rng = random.Random(8)
    for _ in range(40):
        play_round_by_clicking(at, rng)
        if "new_game_after" in {b.key for b in at.button}:
            break
        at.button(key="next_round").click().run()
        assert_ok(at)
    assert game(at).is_over
    titles = [m.value for m in at.markdown if m.value.startswith("### ")]
    assert any("Ana play?" in v for v in titles), titles
    assert any("Leo play?" in v for v in titles), titles
    assert sorted(set(asked)) == [0, 1]


def test_pause_keeps_the_childs_own_hand_on_screen() -> None:
    at = create_profile(new_app())
    pause_computer(at)
    start_game(at, ng_opponents=2)
    rng = random.Random(9)
    g = game(at)
    while not g.is_human_turn:
        at.button(key="bot_step").click().run()
    play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    assert "bot_step" in {b.key for b in at.button}
    sent = everything_sent(at)
    me = g.human_seats[0]
    assert g.round.hand(me)
    for card in g.round.hand(me):
        assert card.name() in sent, card
    for seat in range(g.rules.players):
        if seat != me:
            for card in g.round.hand(seat):
                assert not any(m in sent for m in card_marks(card)), (seat, card)
    assert "play_button" not in {b.key for b in at.button}  # not the child's turn yet


def test_what_just_happened_survives_a_refresh() -> None:
    at = start_game(create_profile(new_app()), ng_opponents=2)
    rng = random.Random(2)
    for _ in range(2):
        g = game(at)
        play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    before = [e for e in game(at).recent]
    assert len(before) >= 2  # the child's move and the computers' replies

    def happened(app) -> list[str]:
        return [event["line"] for event in board_data(app)["events"]]

    shown = happened(at)
    profile_id = at.query_params["p"]
    profile_id = profile_id[0] if isinstance(profile_id, list) else profile_id
    st.cache_resource.clear()
    again = new_app(query={"p": str(profile_id)})  # a refresh: a new session
    again.switch_page("app_pages/play.py").run()
    assert_ok(again)
    assert game(again).recent == before
    assert shown and shown == happened(again)


def test_a_nickname_is_never_silently_changed() -> None:
    at = new_app()
    # The box has no limit (issue 25: Streamlit's box drops a paste longer than its
    # max_chars entirely, so 65 pasted characters left it empty): a pasted long name is
    # kept in it and refused with "too long" (tests/test_odd_inputs.py), never emptied.
    assert not at.text_input(key="new_nickname").max_chars
    create_profile(at, "<b>x</b>")
    assert any("Only letters, numbers" in w.value for w in at.warning)
    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"),
                    migrate=False)
    assert store.list_profiles() == []  # refused, not stored as "bx/b"
    for name in ("bea", "Ana", "Carl"):
        create_profile(at, name)
    assert [p.nickname for p in store.list_profiles()] == ["Ana", "bea", "Carl"]
    labels = [b.label for b in at.button if (b.key or "").startswith("profile_")]
    assert [label.split(" ", 1)[1] for label in labels] == ["Ana", "bea", "Carl"]


def test_a_second_childs_name_is_refused_not_changed() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/play.py").run()
    at.segmented_control(key="ng_kind_1").set_value("human").run()
    assert not at.text_input(key="ng_name_1").max_chars  # a long paste is kept, told
    at.text_input(key="ng_name_1").input("*Leo*").run()
    at.button(key="start_game").click().run()
    assert_ok(at)
    assert any("Only letters, numbers" in w.value for w in at.warning)
    assert "game_session" not in at.session_state


def test_renuncio_games_say_so_and_the_hint_points_at_the_claim_first() -> None:
    at = create_profile(new_app())
    start_game(at, ng_capture_rule="renuncio", ng_level_1="random")
    assert_ok(at)
    # The rules line: an icon that reads the renuncio rule when tapped (issue 26).
    rules = board_data(at)["header"]["rules"]
    assert any(r["label"] == "¡renuncio!" and "call ¡renuncio!" in r["text"] for r in rules)
    rng = random.Random(5)
    for _ in range(400):
        g = game(at)
        if g.round_over:
            at.button(key="next_round").click().run()
            continue
        obs = g.observation(g.to_move)
        if obs.renuncio_claims():
            hint = next(h.value for h in at.get("html") if "Best move:" in h.value)
            assert "Call ¡renuncio! first" in hint
            break
        play(at, rng.choice(obs.legal_moves()))
    else:
        raise AssertionError("no claim came up")


def test_replay_says_the_upload_in_the_childs_language() -> None:
    at = new_app(locale="es-ES")
    at.switch_page("app_pages/replay.py").run()
    assert_ok(at)
    assert at.file_uploader(key="replay_file").label == "Partida guardada"
    assert any("Suelta aquí el archivo" in c.value and "2 MB" in c.value for c in at.caption)


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe\x00",
                                     b"not json", b'{"format": "escoba-record/1"}',
                                     b'{"format": "escoba-record/1", "rounds": "x"}'])
def test_any_bad_record_gets_the_friendly_message_in_spanish(content: bytes) -> None:
    at = new_app(locale="es-ES")
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload("bad.json", content, "application/json").run()
    assert_ok(at)
    assert any("No podemos leer este archivo como una partida" in e.value for e in at.error)
    assert not any("Something went wrong" in e.value or "¡Uy!" in e.value for e in at.error)
    for raw in ("Traceback", "JSONDecodeError", "RecursionError", "Expecting value"):
        assert raw not in everything_sent(at)


def test_a_choice_the_session_lost_is_the_presets_own_not_an_error_page() -> None:
    # A new game's form whose "points to win" Streamlit reset to None (found in the
    # browser: three players, 7-card hands, then "Start the game!" showed the error page).
    from ui.newgame import build_rules

    state = {"ng_preset": "classic", "ng_opponents": 2, "ng_target": None, "ng_hand7": True,
             "ng_capture_rule": None}
    assert build_rules(state) == Rules.preset("classic", players=3, hand_size=7)
    assert build_rules({"ng_preset": "escova"}) == Rules.preset("escova")


def test_my_games_shows_a_years_games_fifty_at_a_time() -> None:
    """A year of play is hundreds of games: the newest 50, then "Older games", above the
    list and under it, each saying which games are shown as the list numbers them (found
    trying a school year's child: the list stopped at 50 with nothing to say so)."""
    from tests.test_app_practice import profile_id, store

    at = create_profile(new_app())
    pid = profile_id(at)
    db = store()
    for n in range(57):
        db.create_game(pid, rules={"preset": "classic"}, seats=[], seed=n, record={})
    at.switch_page("app_pages/games.py").run()
    assert_ok(at)

    def lines() -> list[str]:
        return [m.value for m in at.markdown if m.value.startswith("**Game ")]

    def captions() -> list[str]:
        return [c.value for c in at.caption if c.value.startswith("Games ")]

    assert captions() == ["Games 57–8 of 57"] * 2  # above the list and under it
    assert len(lines()) == 50 and lines()[0].startswith("**Game 57**")
    for where in ("top", "bottom"):
        assert at.button(key=f"games_newer_{where}").disabled
        assert not at.button(key=f"games_older_{where}").disabled
    # the day as the child's language writes it ("Dec 5 16:50"), not "2026-12-05 15:50"
    assert re.match(r"\*\*Game 57\*\* · [A-Z][a-z]{2} \d{1,2} \d\d:\d\d · ", lines()[0])
    at.button(key="games_older_bottom").click().run()
    assert_ok(at)
    assert captions() == ["Games 7–1 of 57"] * 2
    assert [line.split("**")[1] for line in lines()] == [f"Game {n}" for n in range(7, 0, -1)]
    assert at.button(key="games_older_top").disabled
    at.button(key="games_newer_top").click().run()
    assert lines()[0].startswith("**Game 57**")
