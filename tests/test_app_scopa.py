"""Play under Scopa through AppTest (issue 28): the form, a round to the score table, a
refused move, resume, the words in every language; Escoba's form unchanged."""

from __future__ import annotations

import random

import pytest

from escoba import Deck, Move
from tests.test_app_helpers import (
    assert_ok,
    board_data,
    choose,
    create_profile,
    game,
    new_app,
    play,
    play_round_by_clicking,
    reopen_after_restart,
    set_widget,
    start_game,
)
from trainer.board_view import session_board
from trainer.i18n import t

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


def _scopa_game(locale: str = "en-US", **choices):
    at = _open_play(create_profile(new_app(locale)))
    set_widget(at, "ng_game", "scopa")
    at.run()
    for key, value in choices.items():
        set_widget(at, key, value)
        at.run()
    at.button(key="start_game").click().run()
    assert_ok(at)
    assert game(at).rules.variant == "scopa"
    return at


def _play_until(at, rng: random.Random, found):
    """Play random legal moves until ``found(observation)`` gives something; return it."""
    for _ in range(80):
        g = game(at)
        if g.round_over:
            at.button(key="next_round").click().run()
            continue
        obs = g.observation(g.to_move)
        if (answer := found(obs)) is not None:
            return answer
        play(at, rng.choice(obs.legal_moves()))
    raise AssertionError("never found")


def _equal_value_choice(obs):
    """A hand card with an equal card on the table and another table card to take
    instead: (card, other, equal), or None."""
    for card in obs.hand:
        equal = [c for c in obs.table if c.value == card.value]
        other = [c for c in obs.table if c.value != card.value]
        if equal and other:
            return card, other[0], equal[0]
    return None


def test_a_scopa_move_that_skips_the_equal_card_is_refused_and_changes_nothing() -> None:
    at = _scopa_game()
    card, other, equal = _play_until(at, random.Random(5), _equal_value_choice)
    before = game(at).record()
    seat = game(at).to_move
    choose(at, Move(card, frozenset([other])))
    label = at.button(key="play_button").label
    assert label == f"Take the {card.value}: a card of the same value must be taken first."
    at.button(key="play_button").click().run()
    assert_ok(at)
    said = [e.value for e in at.error]
    assert f"Take the {card.value}: a card of the same value must be taken first." in said
    assert not any("you need" in s for s in said)
    assert game(at).record() == before and game(at).to_move == seat
    # Taking the equal card is played.
    play(at, Move(card, frozenset([equal])))
    assert game(at).record() != before


def test_a_scopa_wrong_sum_says_the_card_is_the_target() -> None:
    at = _scopa_game()
    card, small = _play_until(at, random.Random(8), lambda obs: next(
        ((card, c) for card in obs.hand for c in obs.table
         if c.value < card.value and not any(t.value == card.value for t in obs.table)), None))
    choose(at, Move(card, frozenset([small])))
    at.button(key="play_button").click().run()
    assert_ok(at)
    expected = f"{card.value} is the target: {small.value} makes {small.value}."
    assert expected in [e.value for e in at.error]


def test_a_scopa_game_resumes_after_a_restart_with_its_rules() -> None:
    at = _scopa_game(ng_asso=True)
    rng = random.Random(2)
    for _ in range(3):
        g = game(at)
        play(at, rng.choice(g.observation(g.to_move).legal_moves()))
    record = game(at).record()
    assert record["rules"]["variant"] == "scopa"
    again = reopen_after_restart(at)
    assert game(again).record() == record
    assert game(again).rules.asso_piglia_tutto
    assert again.title[0].value == "Scopa"
    data = board_data(again)
    assert data is None or data["sum_rule"] == "card"


def test_the_board_is_told_scopas_sum_rule_and_band() -> None:
    at = _scopa_game()
    g = game(at)

    data = session_board(g, viewer=g.to_move, reveal=True, deck=Deck.SPANISH,
                         show_value=True, hints_on=True, hint_step=1)
    assert data["sum_rule"] == "card"
    assert "15" not in data["texts"]["pick_table"] and "{need}" in data["texts"]["pick_table"]
    meter = data["hints"]["meter"]
    assert meter is not None and (meter["low"], meter["high"]) == (1, 10)
    # A table of 11 cannot be swept in Scopa (no card is worth 11): never "at risk".
    from escoba import Card
    from trainer.board_view import _risk_meter

    obs = g.observation(g.to_move)
    eleven = obs._replace(table_mask=sum(1 << Card.parse(c).index for c in ("5o", "6c")))
    assert _risk_meter(eleven)["band"] == "safe"
    assert _risk_meter(obs._replace(table_mask=1 << Card.parse("7e").index))["band"] in (
        "risk", "safe")


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "de-DE", "zh-CN", "it-IT"])
def test_every_language_draws_the_scopa_form_and_board(locale: str, caplog) -> None:
    at = _scopa_game(locale, ng_napola=True)
    assert_ok(at)
    assert "missing" not in caplog.text.lower()
    g = game(at)
    play(at, g.observation(g.to_move).legal_moves()[0])
    assert_ok(at)
    text = " ".join(str(x.value) for x in (*at.title, *at.markdown, *at.button))
    assert "Escoba de quince" not in text or locale == "en-US"
    assert "missing" not in caplog.text.lower()


def test_escobas_form_and_board_are_unchanged() -> None:
    at = start_game(create_profile(new_app()))
    rules = game(at).rules
    assert (rules.variant, rules.preset_name, rules.target) == ("escoba", "classic", 21)
    assert at.title[0].value == "Escoba de quince"
    g = game(at)

    data = session_board(g, viewer=g.to_move, reveal=True, deck=Deck.SPANISH,
                         show_value=True, hints_on=True, hint_step=1)
    assert data["sum_rule"] == "with_card" and data["need"] == 15
    assert "15" in data["texts"]["pick_table"]


def test_a_play_a_friend_table_opens_for_scopa_and_its_seats_play_by_its_rules() -> None:
    from tests.test_app_tables import _best_move, _device, _play, _seat

    ana = _device("Ana")
    ana.segmented_control(key="tb_game").set_value("scopa").run()
    assert_ok(ana)
    assert "tb_preset" not in {s.key for s in ana.selectbox}
    ana.segmented_control(key="tb_scopa_target").set_value(21).run()
    ana.toggle(key="tb_napola").set_value(True).run()
    ana.button(key="tb_open_button").click().run()
    assert_ok(ana)
    code = _seat(ana).code
    leo = _device("Leo", locale="it-IT")
    leo.text_input(key="tb_code").input(code).run()
    leo.button(key="tb_join_button").click().run()
    assert_ok(leo)
    ana.run()
    rules = _seat(ana).rules
    assert (rules.variant, rules.target, rules.napola) == ("scopa", 21, True)
    for _ in range(30):  # the first round, both devices playing Scopa's moves
        a = _seat(ana)
        if a.game.round_over:
            break
        mover, other = (ana, leo) if a.my_turn else (leo, ana)
        _play(mover, _best_move(mover))
        other.run()
        assert_ok(other)
    assert _seat(leo).game.rules.variant == "scopa"
    assert _seat(leo).revision == _seat(ana).revision > 5


def test_a_scopa_game_names_its_cards_with_the_italian_decks_words() -> None:
    at = _scopa_game("es-ES")
    data = board_data(at)
    assert data is not None
    names = " ".join(f["name"] for f in data["faces"].values())
    assert any(w in names for w in ("denari", "coppe", "spade", "bastoni")), names
    assert not any(w in names for w in (" oros", " copas", " espadas", " bastos")), names


def test_a_scopa_game_is_listed_in_my_games_and_replayed_with_its_words() -> None:
    import json

    at = _scopa_game()
    play_round_by_clicking(at, random.Random(4))
    record = game(at).record()
    at.switch_page("app_pages/games.py").run()
    assert_ok(at)
    assert any("Scopa (2 to 4 players, 3 cards each)" in m.value for m in at.markdown)
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload(
        "game.json", json.dumps(record).encode(), "application/json").run()
    assert_ok(at)
    steps = sum(len(r["moves"]) for r in record["rounds"])
    at.slider(key="replay_step").set_value(steps).run()
    assert_ok(at)
    rows = list(at.table[0].value.index)
    assert "Settebello (7 of coins)" in rows and "Scopas" in rows
    shown = " ".join(str(i.value) for i in at.info) + " ".join(
        e.proto.body for e in at.get("html"))
    assert " de oros" not in shown and " de copas" not in shown


def test_a_computers_scopa_is_announced_as_scopa() -> None:
    from escoba import Card, Play
    from trainer.words import event_line

    take = (1 << Card.parse("3c").index) | (1 << Card.parse("4e").index)
    sweep = Play(seat=1, kind="play", card_index=Card.parse("7o").index, take_mask=take,
                 escoba=True)
    assert event_line("Computer 1", sweep, Deck.ITALIAN, "scopa").endswith("— scopa!")
    assert event_line("Computer 1", sweep, Deck.SPANISH).endswith("— ¡escoba!")


@pytest.mark.parametrize(("kind", "hand", "table"), [("scopone", 9, 4),
                                                     ("scopone_scientifico", 10, 0)])
def test_scopone_is_offered_for_four_and_played_in_teams(kind: str, hand: int,
                                                         table: int) -> None:
    at = _open_play(create_profile(new_app()))
    set_widget(at, "ng_game", "scopa")
    at.run()
    assert "ng_scopa_preset" not in {s.key for s in at.selectbox}  # only for four
    set_widget(at, "ng_opponents", 3)
    at.run()
    assert "ng_teams" in {s.key for s in at.toggle}  # plain Scopa for four: teams or not
    set_widget(at, "ng_scopa_preset", kind)
    at.run()
    # Scopone is always a team game: no switch that would do nothing.
    assert "ng_teams" not in {s.key for s in at.toggle}
    assert t("open_hand_scopa") in [s.label for s in at.toggle]
    at.button(key="start_game").click().run()
    assert_ok(at)
    rules = game(at).rules
    assert (rules.preset_name, rules.players, rules.teams, rules.hand_size) == (
        kind, 4, True, hand)
    g = game(at)
    assert len(g.game.round.history) >= 0 and rules.table_cards == table
    play(at, g.observation(g.to_move).legal_moves()[0])
    assert_ok(at)
    assert board_data(at) is not None


def test_the_play_buttons_label_says_scopas_sums_and_the_ace_by_right() -> None:
    """The fallback Play button's words under Scopa: its sum of table cards against the
    card's value, the engine's reason when an equal card or the ace's privilege decides,
    and never a false sum for the ace taking the table ("3 + 7 + 8 + 10 = 1")."""
    from escoba import Card, Game, Rules
    from escoba.deck import deck_for
    from trainer.gameplay import GameSession, SeatSpec
    from ui.board import play_label

    rules = Rules.preset("scopa", asso_piglia_tutto=True)
    game_ = Game(rules, dealer=1)
    game_.start_round(deck_for(rules, [["1o", "2c", "5b"], ["3b", "4b", "6b"]],
                               ["3c", "7e", "10b", "8o"], dealer=1))
    session = GameSession(rules, [SeatSpec("human", "Giulia", "🦊"),
                                  SeatSpec("bot", "CPU", "🤖", "gentle")], 1, game_)

    def label(card: str, take: str) -> str:
        return play_label(session, Card.parse(card), [Card.parse(c) for c in take.split()])

    whole = label("1o", "3c 7e 10b 8o")
    assert whole == t("ace_takes_all") and "=" not in whole
    assert label("1o", "3c") == t("ace_takes_all")  # the engine's reason: all of it
    assert label("2c", "3c") == t("sum_not_yet", expr="3", total=3, need=2)
    assert "15" not in label("5b", "3c 7e")
