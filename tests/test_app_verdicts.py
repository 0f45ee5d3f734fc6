"""The app says the engine's verdicts in the child's language (AppTest, in Spanish):
a wrong sum and a penalty at the table, a broken record's round, move and reason on
Replay, and a file too big or not JSON said on the page, never only in a tooltip."""

from __future__ import annotations

import json
import random

import pytest

from escoba import Game, Move, RecordError, Rules, game_to_record, replay
from escoba.bots import RandomPlayer
from escoba.match import play_game
from tests.test_app_helpers import (
    assert_ok,
    choose,
    create_profile,
    game,
    new_app,
    play,
    start_game,
    wrong_choice,
)
from trainer.replayer import MAX_UPLOAD_BYTES, parse_upload
from trainer.verdicts import record_error_text

pytestmark = pytest.mark.usefixtures("fresh_app")


def test_a_wrong_sum_is_answered_in_spanish_from_the_engines_verdict() -> None:
    at = start_game(create_profile(new_app(locale="es-ES")), ng_open=False)
    card, wrong = wrong_choice(at, random.Random(1))
    seat = game(at).to_move
    choose(at, Move(card, frozenset([wrong])))
    total = wrong.value + card.value
    label = at.button(key="play_button").label
    assert label == f"🧮 {wrong.value} + {card.value} = {total}, necesitas 15. ¿Lo intento?"
    at.button(key="play_button").click().run()
    assert_ok(at)
    expected = f"{wrong.value} + {card.value} = {total}: necesitas 15. ¡Prueba otra vez!"
    assert any(expected == e.value for e in at.error), [e.value for e in at.error]
    assert game(at).to_move == seat  # retry: nothing changed, still the child's turn


def test_a_penalty_is_said_in_spanish_and_the_card_stays_on_the_table() -> None:
    at = start_game(create_profile(new_app(locale="es-ES")), ng_miscount="penalty")
    card, wrong = wrong_choice(at, random.Random(2))
    play(at, Move(card, frozenset([wrong])))
    assert any("Tu carta se queda en la mesa" in e.value for e in at.error)
    assert any(e.kind == "miscount" and e.card == card for e in game(at).round.history)


def _record_broken_at_move_6(seed: int) -> tuple[dict, str]:
    """A real game's record whose round 1, move 6 plays a card its seat does not hold."""
    game_ = play_game(Rules.preset("classic"), [RandomPlayer(), RandomPlayer()],
                      random.Random(seed))
    record = game_to_record(game_)
    moves = record["rounds"][0]["moves"]
    cut = json.loads(json.dumps(record))
    cut["rounds"] = [dict(cut["rounds"][0], moves=moves[:5])]
    round_ = replay(cut).game.round
    seat = round_.to_move
    other = round_.stock[0]  # still in the stock: in nobody's hand
    record["rounds"] = [dict(record["rounds"][0],
                             moves=moves[:5] + [{"seat": seat, "card": str(other), "take": []}])]
    return record, other.name()


def test_a_records_own_error_is_said_in_spanish_with_round_and_move() -> None:
    record, card_name = _record_broken_at_move_6(7)
    with pytest.raises(RecordError) as raised:
        replay(record)
    assert raised.value.params["reason"] == "not_in_hand"
    at = new_app(locale="es-ES")
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload(
        "partida.json", json.dumps(record).encode(), "application/json").run()
    assert_ok(at)
    shown = " ".join(e.value for e in at.error).replace("\\", "")  # markdown escapes
    assert "No podemos leer este archivo como una partida." in shown
    assert "Ronda 1, jugada 6: el jugador" in shown and f"no tiene el {card_name}" in shown
    assert "round 1, move 6" not in shown and "is not in the hand" not in shown


def test_a_wrong_sum_in_a_record_reads_as_arithmetic_in_spanish() -> None:
    game_ = Game(Rules.preset("classic"), seed=3)
    round_ = game_.start_round()
    seat = round_.to_move
    card, table_card = next((c, t) for c in round_.hand(seat) for t in round_.table
                            if c.value + t.value != 15)
    record = game_to_record(game_)
    record["rounds"][0]["moves"] = [{"seat": seat, "card": str(card),
                                     "take": [str(table_card)]}]
    with pytest.raises(RecordError) as raised:
        replay(record)
    text = _in_spanish(raised.value)
    total = card.value + table_card.value
    assert text == f"Ronda 1, jugada 1: {table_card.value} + {card.value} = {total}, no 15."


@pytest.mark.parametrize(("preset", "table", "said"), [
    ("scopa", ["10o", "10c", "10e", "5o"],
     "la mesa de esta baraja tiene 3 reyes (valen 10): ese reparto se repite, no se juega."),
    ("setenta", ["7o", "8c", "1e", "2e"],
     "en la mesa de esta baraja hay cartas que suman 15: ese reparto se repite, no se juega."),
])
def test_a_deal_to_redeal_in_a_record_says_its_games_reason_in_spanish(
        preset: str, table: list[str], said: str) -> None:
    """Scopa redeals three or four re on the opening table, Escoba (under redeal) cards
    that make 15: a record that plays such a deal says which, not "not a whole deck"."""
    from escoba.deck import deck_for

    rules = Rules.preset(preset)
    game_ = Game(rules, seed=1, dealer=0)
    game_.start_round()
    record = game_to_record(game_)
    deck = deck_for(rules, [["2o", "3o", "4o"], ["2c", "3c", "4c"]], table, dealer=0)
    record["rounds"][0].update(deck=[str(c) for c in deck], moves=[])
    with pytest.raises(RecordError) as raised:
        replay(record)
    assert raised.value.params["reason"] == "deck_redeal"
    assert _in_spanish(raised.value) == f"Ronda 1: {said}"


@pytest.mark.parametrize(("preset", "table", "said"), [
    ("scopa", ["10o", "10c", "5o", "6o"],
     "esta baraja se volvió a repartir, pero su mesa no era para repartir otra vez."),
    ("setenta", ["7o", "9c", "1e", "3e"],
     "esta baraja se volvió a repartir, pero su mesa no sumaba 15."),
])
def test_a_redealt_deck_that_was_not_to_be_redealt_says_so_in_its_games_words(
        preset: str, table: list[str], said: str) -> None:
    """Two re do not redeal a Scopa deal, and no 15 an Escoba one: Scopa's reason is
    not a sum (the engine gives no ``need``), Escoba's is."""
    from escoba.deck import deck_for

    rules = Rules.preset(preset)
    game_ = Game(rules, seed=1, dealer=0)
    game_.start_round()
    record = game_to_record(game_)
    deck = deck_for(rules, [["2o", "3o", "4o"], ["2c", "3c", "4c"]], table, dealer=0)
    record["rounds"][0]["redealt"] = [[str(c) for c in deck]]
    with pytest.raises(RecordError) as raised:
        replay(record)
    assert raised.value.code == "record_redeal"
    assert ("need" in raised.value.params) == (preset != "scopa")
    assert _in_spanish(raised.value) == f"Ronda 1: {said}"


@pytest.mark.parametrize(("name", "content", "reason"), [
    ("grande.json", b" " * (MAX_UPLOAD_BYTES + 1), "El archivo es demasiado grande para ser "
                                                   "una partida (2 MB como mucho)."),
    ("foto.png", b"\x89PNG\r\n\x1a\n", "El archivo no es de texto, así que no es una partida."),
    ("notas.txt", b"hola", "El archivo no es una partida: no se puede leer en la línea 1, "
                           "columna 1."),
])
def test_a_file_that_is_no_record_says_why_on_the_page_in_spanish(
        name: str, content: bytes, reason: str) -> None:
    with pytest.raises(RecordError):
        parse_upload(content)
    at = new_app(locale="es-ES")
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload(name, content, "application/octet-stream").run()
    assert_ok(at)
    shown = [e.value.replace("\\", "") for e in at.error]  # markdown escapes
    assert any(reason in e and "No podemos leer" in e for e in shown), shown


def _in_spanish(error: RecordError) -> str:
    """A record's refusal as Replay says it to a Spanish family."""
    from trainer.i18n import use_language

    use_language("es")
    try:
        return record_error_text(error)
    finally:
        use_language(None)
