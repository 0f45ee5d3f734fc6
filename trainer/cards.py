"""Cards drawn as SVG, generated in code: no image files, no downloads.

Colour is never the only cue (children with colour-blindness play too): each
suit has its own *shape* as well as an Okabe-Ito colour, and the suit's sign
is printed in the corner (its Spanish or Italian initial; ♦♥♠♣ on French
cards). With "show values" on, the capture value sits in a big round badge,
so a Sota reads "8" at a glance.

Everything here is pure and cached: the same card in the same style is drawn
once per process.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from functools import lru_cache

from escoba import Card, Deck, Rules
from locales.cards import grammar

from .i18n import DEFAULT, card_name, rank_name, run_language, spanish_card_names, t

__all__ = ["card_svg", "card_img", "back_svg", "cards_row_html", "backs_row_html",
           "SUIT_COLOURS", "card_label", "pick_label", "deck_for_game"]

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
SUIT_COLOURS = ("#C77C00", "#0072B2", "#444444", "#009E73")  # oros copas espadas bastos
_FRENCH_COLOURS = ("#D55E00", "#CC3311", "#222222", "#0072B2")  # ♦ ♥ ♠ ♣ (four-colour deck)
_FRENCH_SYMBOLS = ("♦", "♥", "♠", "♣")

W, H = 100, 150


def deck_for_game(chosen: Deck, rules: Rules | None = None) -> Deck:
    """The deck a game under ``rules`` is drawn and named in, from the one the child chose:
    a Scopa game draws the Spanish deck as Scopa's own Italian one (denari, Fante,
    Cavallo, Re), the same forty cards; the French deck stays a family's choice. Play,
    the tables and the lessons all ask here (``ui.session.deck_of``)."""
    if rules is not None and rules.variant == "scopa" and chosen is Deck.SPANISH:
        return Deck.ITALIAN
    return chosen


def _shape(suit: int, cx: float, cy: float, r: float, colour: str) -> str:
    """The Spanish/Italian suit mark: coin, cup, sword, club: four different shapes."""
    if suit == 0:  # oros: a coin, a ring with a dot
        return (f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}" stroke="#6b4300" '
                f'stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{r * 0.45}" fill="#FFE9A8"/>')
    if suit == 1:  # copas: a cup (bowl on a stem)
        return (f'<path d="M{cx - r},{cy - r * 0.8} h{2 * r} q0,{r * 1.1} -{r},{r * 1.2} '
                f'q-{r},-{r * 0.1} -{r},-{r * 1.2} z" fill="{colour}"/>'
                f'<rect x="{cx - r * 0.15}" y="{cy + r * 0.4}" width="{r * 0.3}" '
                f'height="{r * 0.5}" fill="{colour}"/>'
                f'<rect x="{cx - r * 0.6}" y="{cy + r * 0.85}" width="{r * 1.2}" '
                f'height="{r * 0.25}" rx="2" fill="{colour}"/>')
    if suit == 2:  # espadas: a sword (long blade and a cross guard)
        return (f'<path d="M{cx},{cy - r * 1.3} l{r * 0.28},{r * 0.4} v{r * 1.3} '
                f'h-{r * 0.56} v-{r * 1.3} z" fill="{colour}"/>'
                f'<rect x="{cx - r * 0.75}" y="{cy + r * 0.35}" width="{r * 1.5}" '
                f'height="{r * 0.25}" fill="{colour}"/>'
                f'<rect x="{cx - r * 0.13}" y="{cy + r * 0.6}" width="{r * 0.26}" '
                f'height="{r * 0.6}" fill="{colour}"/>')
    # bastos: a club, a knobbly stick drawn at a slant
    return (f'<g transform="rotate(-25 {cx} {cy})">'
            f'<rect x="{cx - r * 0.3}" y="{cy - r * 1.2}" width="{r * 0.6}" '
            f'height="{r * 2.4}" rx="{r * 0.3}" fill="{colour}"/>'
            f'<circle cx="{cx - r * 0.32}" cy="{cy - r * 0.4}" r="{r * 0.2}" fill="{colour}"/>'
            f'<circle cx="{cx + r * 0.32}" cy="{cy + r * 0.3}" r="{r * 0.2}" fill="{colour}"/>'
            f'</g>')


def _mark(card: Card, deck: Deck, cx: float, cy: float, r: float) -> str:
    suit = card.suit
    assert suit is not None
    if deck is Deck.FRENCH:
        return (f'<text x="{cx}" y="{cy + r * 0.75}" font-size="{r * 2.3}" text-anchor="middle" '
                f'fill="{_FRENCH_COLOURS[suit]}" font-family="DejaVu Sans, sans-serif">'
                f'{_FRENCH_SYMBOLS[suit]}</text>')
    return _shape(int(suit), cx, cy, r, SUIT_COLOURS[suit])


def corner_mark(suit: int, deck: Deck, lang: str | None = None) -> str:
    """The small suit sign in the top-right corner, in the deck's own language:
    ♦♥♠♣ on French cards, the suit's initial in Spanish (o c e b) or Italian (d c s b).
    A Spanish card in a language that names the suits itself takes that name's first
    sign where the four differ (Chinese 金 杯 剑 棍: a Latin "o" means nothing to a
    child who reads 金币); German's Kelche and Keulen share a K, so it keeps o c e b."""
    from escoba.cards import Suit

    suit = Suit(suit)
    if deck is Deck.FRENCH:
        return _FRENCH_SYMBOLS[suit]
    if deck is Deck.ITALIAN:
        return suit.italian[0]
    words = grammar(lang or run_language() or DEFAULT)
    if words.own_names and not spanish_card_names():
        signs = {letter: name[0] for letter, name in words.suits.items()}
        if len(set(signs.values())) == len(signs):
            return signs[suit.letter]
    return suit.letter


def _corner(suit: int, deck: Deck, mark: str) -> str:
    if deck is Deck.FRENCH:
        return (f'<text x="{W - 10}" y="27" font-size="20" text-anchor="end" '
                f'font-family="DejaVu Sans, sans-serif" fill="{_FRENCH_COLOURS[suit]}">'
                f'{html.escape(mark)}</text>')
    return (f'<text x="{W - 10}" y="24" font-size="14" text-anchor="end" '
            f'font-family="sans-serif" fill="#666">{html.escape(mark)}</text>')


def card_label(card: Card, deck: Deck) -> str:
    """The short text a child reads on the card's corner, as the sentences around it name
    the rank: "7", "Sota", "Knappe", "侍从", "J", "Fante" (issue 33)."""
    return str(rank_name(card, deck))


def pick_label(code: str, deck: Deck, show_value: bool, lang: str | None = None) -> str:
    """A card's label in the choosers (pills): "7 de oros (7)", or its name alone when
    values are hidden (and for a joker, which has none of its own); French cards and
    jokers are named in ``lang`` (see :func:`trainer.i18n.card_name`)."""
    card = Card.parse(code)
    name = card_name(card, deck, lang)
    return f"{name} ({card.value})" if show_value and not card.is_joker else name


def card_svg(card: Card, deck: Deck = Deck.SPANISH, show_value: bool = True,
             selected: bool = False, width: int = 96, title: str = "") -> str:
    """One card face as an SVG string (``width`` in CSS pixels, height 1.5x), its rank and
    suit sign in this run's language."""
    if card.is_joker:
        return _card_svg(card, deck, show_value, selected, width, title, "", "")
    assert card.suit is not None
    return _card_svg(card, deck, show_value, selected, width, title, card_label(card, deck),
                     corner_mark(card.suit, deck))


@lru_cache(maxsize=2048)
def _card_svg(card: Card, deck: Deck, show_value: bool, selected: bool, width: int,
              title: str, label: str, mark: str) -> str:
    border = "#E4572E" if selected else "#555"
    stroke = 6 if selected else 2
    bg = "#FFF7D6" if selected else "#FFFFFF"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
             f'width="{width}" height="{int(width * 1.5)}" role="img" '
             f'aria-label="{html.escape(title or str(card))}" data-card="{card}">',
             f'<title>{html.escape(title or str(card))}</title>',
             f'<rect x="3" y="3" width="{W - 6}" height="{H - 6}" rx="10" fill="{bg}" '
             f'stroke="{border}" stroke-width="{stroke}"/>']
    if card.is_joker:
        parts.append('<text x="50" y="88" font-size="48" text-anchor="middle">🃏</text>'
                     '<text x="50" y="125" font-size="16" text-anchor="middle" '
                     'font-family="sans-serif" fill="#333">JOKER</text>')
    else:
        suit = card.suit
        assert suit is not None
        colour = (_FRENCH_COLOURS if deck is Deck.FRENCH else SUIT_COLOURS)[suit]
        size = 26 if len(label) <= 2 else 20 if len(label) <= 4 else 15
        parts.append(f'<text x="10" y="{12 + size}" font-size="{size}" font-weight="bold" '
                     f'font-family="DejaVu Sans, sans-serif" fill="{colour}">'
                     f'{html.escape(label)}</text>')
        parts.append(_corner(suit, deck, mark))
        parts.append(_mark(card, deck, 50, 78, 22))
    if show_value and not card.is_joker:
        parts.append(f'<circle cx="{W - 22}" cy="{H - 22}" r="17" fill="#1B3A57"/>'
                     f'<text x="{W - 22}" y="{H - 14}" font-size="22" font-weight="bold" '
                     f'text-anchor="middle" font-family="DejaVu Sans, sans-serif" '
                     f'fill="#FFFFFF">{card.value}</text>')
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=64)
def back_svg(width: int = 56, label: str = "card back") -> str:
    """The back of a card: what an opponent's hidden card looks like (no face data);
    ``label``: its accessible name in the child's language (``t("card_back")``)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{width}" '
            f'height="{int(width * 1.5)}" role="img" aria-label="{html.escape(label)}">'
            f'<rect x="3" y="3" width="{W - 6}" height="{H - 6}" rx="10" fill="#8A2432" '
            f'stroke="#4d0f19" stroke-width="3"/>'
            f'<rect x="14" y="14" width="{W - 28}" height="{H - 28}" rx="6" fill="none" '
            f'stroke="#F2C14E" stroke-width="3" stroke-dasharray="6 4"/></svg>')


def card_img(card: Card, deck: Deck, show_value: bool, selected: bool, width: int,
             name: str, size: str = "") -> str:
    """An ``<img>`` carrying the SVG as a data URI (st.html's sanitiser keeps these).
    ``size``, a CSS length, is its width on the screen instead of ``width`` pixels (the
    height follows): a projector's cards grow with the screen ("min(6vw, 10vh)")."""
    return _card_img(card_svg(card, deck, show_value, selected, width, name), card, width, name,
                     size)


@lru_cache(maxsize=4096)
def _card_img(svg: str, card: Card, width: int, name: str, size: str = "") -> str:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    style = f' style="width:{html.escape(size)};height:auto"' if size else ""
    return (f'<img src="data:image/svg+xml;base64,{data}" width="{width}" '
            f'height="{int(width * 1.5)}"{style} alt="{html.escape(name)}" '
            f'title="{html.escape(name)}" data-card="{card}"/>')


def cards_row_html(cards: Iterable[Card], deck: Deck, show_value: bool, *,
                   selected: Iterable[Card] = (), width: int = 96,
                   names: bool = True, gap: int = 6, lit: Iterable[Card] = (),
                   size: str = "") -> str:
    """A wrapping row of card faces with their names under them (for ``st.html``).

    ``selected`` cards are drawn chosen; ``lit`` cards glow (a hint pointing at them);
    ``size`` (a CSS length) sizes each card on the screen instead of ``width`` pixels."""
    chosen, glowing = set(selected), set(lit)
    items = []
    for card in cards:
        name = card_name(card, deck)
        svg = card_img(card, deck, show_value, card in chosen, width, name, size)
        caption = (f'<div style="font-size:0.85rem;text-align:center;max-width:{width + 8}px">'
                   f'{html.escape(name)}</div>') if names else ""
        glow = (";border-radius:10px;box-shadow:0 0 0 3px #F2C14E,0 0 12px 4px #F2C14E"
                if card in glowing else "")
        mark = ' data-lit="1"' if card in glowing else ""
        items.append(f'<div style="display:flex;flex-direction:column;align-items:center;'
                     f'margin:{min(4, gap)}px{glow}"{mark}>{svg}{caption}</div>')
    return (f'<div style="display:flex;flex-wrap:wrap;gap:{gap}px;align-items:flex-start">'
            + "".join(items) + "</div>")


def backs_row_html(count: int, width: int = 44) -> str:
    """``count`` card backs: all that is ever sent about a hidden hand."""
    label = t("card_back")
    data = base64.b64encode(back_svg(width, label).encode("utf-8")).decode("ascii")
    back = (f'<img src="data:image/svg+xml;base64,{data}" width="{width}" '
            f'height="{int(width * 1.5)}" alt="{html.escape(label)}"/>')
    return ('<div style="display:flex;flex-wrap:nowrap;gap:4px">' + back * count + "</div>")
