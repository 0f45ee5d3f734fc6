"""Cards named as each language's sentences need them (issue 33): the seeds' names, the
article, case and gender of every form, lists the way the language lists things, the
"Spanish card names" setting, and every catalog message asking for forms its language has.

The files are ``locales/<lang>/cards.toml`` (read by :mod:`locales.cards`).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import locales
from escoba import Card, Deck
from escoba.cards import CARDS
from locales.cards import FORMS, CardsFileError, grammar, read_grammar
from trainer.i18n import LANGUAGES, card_name, cards_name, field_forms, use_card_names

DOMAINS = ("messages", "lessons", "puzzles", "classroom")
#: Fields that hold a card or a list of cards when a message is worded (``cards`` is a
#: number of cards in the coach's reasons: "it takes {cards} cards").
CARD_FIELDS = {"card", "laid", "first", "best_card", "kept", "cards"}
_COUNTED_CARDS = ("coach.", "coach_class.")  # {cards}: how many cards
#: Fields that hold a card's rank alone ("der Knappe", "la Sota"): forms too.
RANK_FIELDS = {"rank", "sota_rank", "caballo_rank", "rey_rank"}


@pytest.fixture(autouse=True)
def _own_names():
    use_card_names(False)
    yield
    use_card_names(False)


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize(("lang", "card", "form", "expected"), [
    # seed 003: Münzen, Kelche, Schwerter, Keulen; Ass, Knappe, Pferd, König
    ("de", "7o", None, "7 der Münzen"),
    ("de", "7o", "the", "die 7 der Münzen"),
    ("de", "8e", "the_acc", "den Knappen der Schwerter"),
    ("de", "8e", "the", "der Knappe der Schwerter"),
    ("de", "9c", "your", "dein Pferd der Kelche"),
    ("de", "10b", "the_dat", "dem König der Keulen"),
    ("de", "1c", "a_acc", "ein Ass der Kelche"),
    ("de", "5b", "your_dat", "deiner 5 der Keulen"),
    # the baraja's names and genders
    ("es", "7e", "the", "el 7 de espadas"),
    ("es", "8c", "the", "la Sota de copas"),
    ("es", "9o", "of_the", "del Caballo de oros"),
    ("es", "8b", "to_the", "a la Sota de bastos"),
    ("es", "1o", "a", "un As de oros"),
    # seed 000: 金币, 杯, 剑, 棍; 侍从, 骑士, 国王; "金币7"
    ("zh", "7o", None, "金币7"),
    ("zh", "10c", None, "杯国王"),
    ("zh", "8e", None, "剑侍从"),
    ("zh", "9b", None, "棍骑士"),
    # issue 28: the Italian deck's words (il settebello is "il 7 di denari"); l'Asso
    ("it", "7o", None, "7 di denari"),
    ("it", "7o", "the", "il 7 di denari"),
    ("it", "1e", "the", "l'Asso di spade"),
    ("it", "8c", "your", "il tuo Fante di coppe"),
    ("it", "9b", "of_the", "del Cavallo di bastoni"),
    ("it", "1o", "to_the", "all'Asso di denari"),
    ("it", "10o", "a", "un Re di denari"),
    ("en", "7o", "the", "the 7 de oros"),
    ("en", "8c", "your", "your Sota de copas"),
])
def test_a_card_is_named_with_the_form_a_sentence_asks(lang, card, form, expected) -> None:
    name = card_name(c(card), Deck.SPANISH, lang)
    assert (str(name) if form is None else getattr(name, form)) == expected


def test_lists_are_joined_as_the_language_lists_things() -> None:
    cards = [c("10c"), c("3o")]
    assert cards_name(cards, Deck.SPANISH, "de").the_acc == \
        "die 3 der Münzen und den König der Kelche"
    assert cards_name(cards, Deck.SPANISH, "es").the == "el 3 de oros y el Rey de copas"
    assert cards_name([*cards, c("8e")], Deck.SPANISH, "zh") == "金币3、剑侍从和杯国王"
    assert cards_name(cards, Deck.SPANISH, "en") == "3 de oros and Rey de copas"
    assert cards_name([*cards, c("1e")], Deck.SPANISH, "it").the == \
        "l'Asso di spade, il 3 di denari e il Re di coppe"
    assert cards_name(cards, Deck.SPANISH, "it", style="or").to_the == \
        "al 3 di denari o al Re di coppe"
    assert cards_name([], Deck.SPANISH, "de", empty="nichts").the_acc == "nichts"
    # the cards that could sweep a table: any one of them
    assert cards_name(cards, Deck.SPANISH, "de", style="or").the_dat == \
        "der 3 der Münzen oder dem König der Kelche"
    assert cards_name(cards, Deck.SPANISH, "zh", style="or") == "金币3或杯国王"


def test_the_spanish_names_setting_keeps_the_barajas_names_with_their_genders() -> None:
    use_card_names(True)
    assert card_name(c("9o"), Deck.SPANISH, "de").the_acc == "den Caballo de oros"
    assert card_name(c("8c"), Deck.SPANISH, "de").the == "die Sota de copas"
    assert card_name(c("1e"), Deck.SPANISH, "de").the == "das As de espadas"
    assert card_name(c("7o"), Deck.SPANISH, "zh") == "7 de oros"
    assert card_name(c("8c"), Deck.SPANISH, "it").the == "la Sota de copas"
    assert card_name(c("1e"), Deck.SPANISH, "it").of_the == "dell'As de espadas"
    use_card_names(False)
    assert card_name(c("9o"), Deck.SPANISH, "de").the_acc == "das Pferd der Münzen"


def test_a_card_name_survives_a_copy_and_a_pickle() -> None:
    """Streamlit's caches and session state pickle what they keep: a card's name comes
    back with its forms (a board's "what just happened" lines are kept so)."""
    import copy
    import pickle

    name = card_name(c("8e"), Deck.SPANISH, "de")
    listed = cards_name([c("8e"), c("3o")], Deck.SPANISH, "de", style="or")
    none = cards_name([], Deck.SPANISH, "de", empty="nichts")
    for again in (pickle.loads(pickle.dumps(name)), copy.deepcopy(name)):
        assert again == name and again.the_acc == "den Knappen der Schwerter"
    assert pickle.loads(pickle.dumps(listed)).the == listed.the
    assert pickle.loads(pickle.dumps(none)) == "nichts"


def test_other_decks_take_their_names_gender() -> None:
    assert card_name(c("9o"), Deck.FRENCH, "de").the == "die Karo Q"  # die Dame
    assert card_name(c("10o"), Deck.FRENCH, "de").the_acc == "den Karo K"
    assert card_name(c("JK1"), Deck.SPANISH, "de").the_acc == "den Joker 1"
    assert card_name(c("8c"), Deck.ITALIAN, "de").the == "der Fante di coppe"
    assert card_name(c("1c"), Deck.ITALIAN, "it").the == "l'Asso di coppe"
    queen = card_name(c("9o"), Deck.FRENCH, "it")  # la donna
    assert queen.the == f"la {queen}"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_card_of_every_deck_has_every_form(lang: str) -> None:
    for deck in Deck:
        for card in CARDS:
            name = card_name(card, deck, lang)
            assert name and "{" not in name
            for form in FORMS:  # the words before the name, the name's last word kept
                assert getattr(name, form).split()[-1] == str(name).split()[-1]
    with pytest.raises(AttributeError):
        card_name(c("7o"), Deck.SPANISH, lang).upper_case_article  # noqa: B018


def _messages(lang: str):
    """(domain, key, text) of every message of ``lang``, each plural form."""
    from babel.messages.pofile import read_po

    for domain in DOMAINS:
        path = locales.po_path(lang, domain)
        with path.open("rb") as f:
            for m in read_po(f, locale=lang):
                if not m.id:
                    continue
                key = m.id[0] if isinstance(m.id, tuple) else m.id
                for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
                    if text:
                        yield domain, key, text


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_form_a_message_asks_for_is_the_languages(lang: str) -> None:
    own = set(grammar(lang).forms)
    bad = [(domain, key, root, form) for domain, key, text in _messages(lang)
           for root, form in field_forms(text)
           if form not in own or root not in CARD_FIELDS | RANK_FIELDS]
    assert not bad


#: Where a bare name reads right: a message's start, or after a colon or a dash (a label:
#: "{card}: 2 ways to take").
_LABEL = re.compile(r"(?:^|[:—–]\s*|\(\s*)$")


@pytest.mark.parametrize("lang", [lang for lang in sorted(LANGUAGES) if grammar(lang).forms
                                  and len({g for r in grammar(lang).ranks.values()
                                           for g in [r.gender]}) > 1])
def test_a_card_inside_a_sentence_has_its_article_and_case(lang: str) -> None:
    """In a language whose cards have genders (de, es), a sentence never pastes a bare
    name where an article or a case belongs ("die Rey de oros", "Deine Caballo")."""
    bad = []
    for domain, key, text in _messages(lang):
        for _literal, field, _spec, _conv in string.Formatter().parse(text):
            if field not in CARD_FIELDS or (field == "cards" and key.startswith(_COUNTED_CARDS)):
                continue
            before = text[:text.index("{" + field + "}")] if "{" + field + "}" in text else None
            if before is not None and not _LABEL.search(before) and (domain, key, text) not in bad:
                bad.append((domain, key, text))
    assert not bad, "\n".join(f"{d}:{k}: {t}" for d, k, t in bad)


def test_a_broken_cards_file_says_where(tmp_path: Path) -> None:
    good = (locales.ROOT / "de" / "cards.toml").read_text(encoding="utf-8")
    cases = {
        good.replace('8 = { name = "Knappe", gender = "m"', '8 = { name = "Knappe", gender = "x"'):
            "ranks.8.gender",
        good.replace('pattern = "{rank} der {suit}"', 'pattern = "{rank}"'): "pattern",
        good.replace('o = "Münzen"\n', ''): "suits",
        good.replace("[forms]\n", "[forms]\nthee = { m = \"x\" }\n"): "forms.thee",
        good.replace('the_acc = { m = "den", f = "die", n = "das", case = "acc" }',
                     'the_acc = { m = "den", f = "die", n = "das", case = "gen" }'):
            "forms.the_acc.case",
    }
    for text, where in cases.items():
        path = tmp_path / "cards.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(CardsFileError, match=re.escape(where)):
            read_grammar(path, "de")
    assert read_grammar(locales.ROOT / "de" / "cards.toml", "de").own_names
