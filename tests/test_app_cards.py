"""Cards drawn in code: valid SVG for every card and deck, values, distinct suit marks."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

import pytest

from escoba import Card, Deck
from escoba.cards import CARDS
from trainer.cards import back_svg, card_img, card_svg, cards_row_html

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("deck", list(Deck))
def test_every_card_is_valid_svg_with_its_value(deck: Deck) -> None:
    for card in CARDS:
        root = ET.fromstring(card_svg(card, deck, True))
        assert root.tag == f"{SVG}svg"
        texts = [t.text for t in root.iter(f"{SVG}text")]
        if not card.is_joker:
            assert str(card.value) in texts  # the value badge
            assert card.rank_name(deck) in texts


def test_values_can_be_hidden() -> None:
    sota = Card.parse("8e")
    shown = [t.text for t in ET.fromstring(card_svg(sota, Deck.SPANISH, True)).iter(f"{SVG}text")]
    hidden = [t.text for t in ET.fromstring(card_svg(sota, Deck.SPANISH, False))
              .iter(f"{SVG}text")]
    assert "8" in shown and "8" not in hidden


def test_each_suit_has_its_own_shape_not_only_its_colour() -> None:
    def shapes(code: str) -> str:
        svg = card_svg(Card.parse(code), Deck.SPANISH, False)
        colourless = re.sub(r'(fill|stroke)="#[0-9A-Fa-f]{6}"', "", svg)
        return re.sub(r'data-card="[^"]*"|aria-label="[^"]*"|<title>.*?</title>', "", colourless)

    marks = {shapes(f"4{suit}") for suit in "oceb"}
    assert len(marks) == 4


def test_a_card_back_says_nothing_about_the_card() -> None:
    back = back_svg()
    assert "data-card" not in back and "<text" not in back


def test_images_carry_the_svg_and_the_name() -> None:
    card = Card.parse("7o")
    img = card_img(card, Deck.SPANISH, True, False, 96, card.name())
    data = re.search(r"base64,([A-Za-z0-9+/=]+)", img).group(1)
    assert 'data-card="7o"' in base64.b64decode(data).decode()
    assert 'alt="7 de oros"' in img
    row = cards_row_html([card, Card.parse("JK1")], Deck.FRENCH, True)
    assert "7 of diamonds" in row and "Joker 1" in row
    assert "style=" not in img  # its own pixels, unless sized on the screen:
    big = cards_row_html([card], Deck.SPANISH, True, size="min(6vw, 10vh)")
    assert 'style="width:min(6vw, 10vh);height:auto"' in big


@pytest.mark.parametrize(("deck", "marks"), [
    (Deck.SPANISH, ("o", "c", "e", "b")),
    (Deck.FRENCH, ("♦", "♥", "♠", "♣")),
    (Deck.ITALIAN, ("d", "c", "s", "b")),
])
def test_the_corner_shows_the_decks_own_suit_sign(deck: Deck, marks: tuple) -> None:
    """No Spanish "o"/"e" on a French diamond or spade: each deck's own sign."""
    for card in CARDS:
        if card.is_joker:
            continue
        texts = [el.text for el in ET.fromstring(card_svg(card, deck)).iter(f"{SVG}text")]
        corner = texts[1]  # after the rank label
        assert corner == marks[card.suit], (deck, card, texts)


# issue 33: a card's face names its rank (and a Chinese card its suit) as the sentences do
@pytest.mark.parametrize(("lang", "spanish", "sota", "king", "ace"), [
    ("en", False, ["Sota", "b"], ["Rey", "c"], ["As", "o"]),
    ("es", False, ["Sota", "b"], ["Rey", "c"], ["As", "o"]),
    ("de", False, ["Knappe", "b"], ["König", "c"], ["Ass", "o"]),
    ("it", False, ["Fante", "b"], ["Re", "c"], ["Asso", "d"]),
    ("zh", False, ["侍从", "棍"], ["国王", "杯"], ["A", "金"]),
    ("zh", True, ["Sota", "b"], ["Rey", "c"], ["As", "o"]),
    ("de", True, ["Sota", "b"], ["Rey", "c"], ["As", "o"]),
    ("it", True, ["Sota", "b"], ["Rey", "c"], ["As", "o"]),
])
def test_a_spanish_cards_face_speaks_the_childs_language(lang: str, spanish: bool, sota: list,
                                                         king: list, ace: list) -> None:
    from trainer.i18n import use_card_names, use_language

    def face(code: str) -> list[str]:
        svg = card_svg(Card.parse(code), Deck.SPANISH, False)
        return [el.text for el in ET.fromstring(svg).iter(f"{SVG}text")]

    use_language(lang)
    use_card_names(spanish)
    try:
        assert (face("8b"), face("10c"), face("1o")) == (sota, king, ace)
        # the same card in another language is drawn again, not taken from the cache
        use_language("en")
        use_card_names(False)
        assert face("8b") == ["Sota", "b"]
    finally:
        use_language(None)
        use_card_names(False)
