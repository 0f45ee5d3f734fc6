"""Nickname rules, in one place: what a name may be, and when two names are the same.

A nickname is typed (or pasted) by a child and then shown everywhere: the sidebar,
the board, My games, the review, the charts. So it is normalised once (NFKC: full-width
and compatibility letters become plain ones), refused when it hides something
(invisible, zero-width, right-to-left or other control characters), compared with
others by a *confusable-folded* key (``Lоla`` with a Cyrillic ``о`` is ``Lola``), and the
computer players' names ("Computer 1" in every language) stay theirs. A name is never
changed behind the child's back: a name that breaks a rule gets a message that says
which, in the child's language (the keys are catalog keys).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .i18n import LANGUAGES, t

T = TypeVar("T")

__all__ = ["NAME_MAX", "TYPED_MAX", "MARKS_MAX", "normalise", "nfkc", "name_problem", "clean_name",
           "shown_name",
           "name_key", "is_reserved", "label_problem", "collation_key", "sort_names"]

#: The longest nickname the app takes (it fits the sidebar and the profile buttons).
NAME_MAX = 16
#: A length a name's text box once accepted. The boxes have no limit now (issue 25):
#: Streamlit's box drops a paste longer than its limit entirely (65 characters pasted
#: left it empty: "Please type a nickname first"), so the length is told by
#: :func:`name_problem` instead ("a bit long: 16 letters at most").
TYPED_MAX = 4 * NAME_MAX

# Markdown and HTML specials: "![](http://...)" in a name shown as Markdown would make
# the browser fetch an outside image. (Names are also escaped wherever they are shown.)
_NAME_DROP = str.maketrans("", "", "[]()<>!*_`#|~\\{}")

# Unicode categories a name may not hold: controls (Cc), format characters (Cf: zero-width
# spaces and joiners, bidi marks and overrides), private use, unassigned, surrogates.
# The emoji joiner (U+200D) and variation selectors are kept: family and flag emoji use them.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cn", "Cs"}
_EMOJI_GLUE = {"\u200d", "\ufe0e", "\ufe0f"}

# Look-alikes of Latin letters and digits, after case folding: the confusables skeleton of
# Unicode's UTS #39 (confusables.txt, each character to its prototype) for the scripts
# children's names here are written in (Latin with its IPA and phonetic letters, Greek,
# Cyrillic, Armenian), taken as lower case (a capital's entry under its folded form, so
# that a name and its capitals always fold alike), plus a few Greek and Cyrillic letters
# that read as Latin ones in a short name though UTS #39 keeps them apart (η n, в b, н h,
# т t). One change of our own: "i" and every letter UTS #39 sends to "i" or "l" fold to
# "l", because a capital I is the same stroke as a small l in the app's sans-serif font
# (UTS #39 sends I to l, case folding sends it to i: the two must agree). NFKC has already
# folded full-width and mathematical letters. Built from the confusables data by hand
# review; tests/test_names.py holds the cases (LoIa, Lօla, Lolɑ, Loıa ~ Lola).
_SKELETON = {
    "2": "ƨꙅꝛ",
    "3": "ȝɜʒзӡꝫ",
    "6": "б",
    "8": "ȣ",
    "9": "ꝯ",
    "a": "ɑαа",
    "b": "ƅβвьꞵ",
    "c": "ϲсᴄ",
    "d": "ԁ",
    "e": "εеҽꬲ",
    "f": "ϝքẝꞙꬵ",
    "g": "ƍɡԍցᶃ",
    "h": "ηнһհ",
    "j": "ʝϳј",
    "k": "κк",
    "l": "1i|ǀıɩɪͺιіӏꙇ",
    "m": "μϻм",
    "n": "ոռ",
    "o": "0οσоօᴏᴑꬽ",
    "p": "ρр",
    "q": "ԛգզ",
    "r": "ʀгᴦꭇꭈ",
    "s": "ƽѕտꜱ",
    "t": "τт",
    "u": "ʋυսᴜꞟꭎꭒ",
    "v": "νѵᴠ",
    "w": "ɯωѡԝաᴡ",
    "x": "χхꭓ",
    "y": "ɣʏγϒуүᶌỿꭚ",
    "z": "ζᴢ",
}
_CONFUSABLES = str.maketrans({source: prototype for prototype, sources in _SKELETON.items()
                              for source in sources})

#: Combining marks one letter may carry (after NFC): Vietnamese needs two on a few
#: letters ("ệ" decomposed); more is a tower of marks drawn over the next lines
#: ("A" with 15 accents was shown as "🦊 …").
MARKS_MAX = 3

# A number after a computer player's name, once folded (1 reads as l, 0 as o).
_NUMBER = re.compile(r"^\s*[\dlo]*$")


# Signs NFKC would change into plain letters though they mean something as typed: the
# ordinal indicators of Spanish, Portuguese and Italian ("2.º B", "1.ª A": NFKC makes
# them "2.o B", a class the teacher did not name) and the numero sign (NFKC: "No").
# Kept as they are; every other compatibility form is folded. Comparison keys
# (:func:`name_key`) still fold them (NFKD), so "2.º B" and "2.o B" stay one name.
_KEPT_SIGNS = re.compile("([\u00aa\u00ba\u2116])")


def nfkc(text: str) -> str:
    """``text`` in NFKC, except the signs of :data:`_KEPT_SIGNS` (ordinals: "2.º B")."""
    return "".join(piece if _KEPT_SIGNS.fullmatch(piece)
                   else unicodedata.normalize("NFKC", piece)
                   for piece in _KEPT_SIGNS.split(str(text)))


def normalise(text: str) -> str:
    """``text`` as a nickname or a label is stored: NFKC (ordinals kept, :func:`nfkc`),
    single spaces, no spaces at the ends."""
    return " ".join(nfkc(text).split())


def _hidden(name: str) -> bool:
    return any(unicodedata.category(ch) in _REFUSED_CATEGORIES and ch not in _EMOJI_GLUE
               for ch in name)


def name_key(text: str) -> str:
    """The key two names are compared by: NFKC, case folded, accents dropped, then each
    look-alike letter to its prototype (the UTS #39 skeleton above).

    ``name_key("Lоla") == name_key("LOLA") == name_key("LoIa") == name_key("Lola")`` (a
    Cyrillic о in the first, a capital i in the third). The database keeps it beside
    each nickname (``profiles.name_key``, unique): one name per look, even from two
    tabs at once. A change here changes stored keys: it needs a migration that re-keys.
    """
    # Full NFKC first (ordinals too: "2.º B" is "2.o B" here), as keys were always made.
    folded = unicodedata.normalize(
        "NFKD", unicodedata.normalize("NFKC", normalise(text)).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    plain = "".join(ch for ch in plain if ch not in _EMOJI_GLUE)
    return plain.translate(_CONFUSABLES)


@functools.cache
def _bot_prefixes() -> frozenset[str]:
    """The computer players' names in every language, without their number ("computer ")."""
    # Without parameters t() gives the template ("Ordenador {n}"): its text before the number.
    return frozenset(name_key(t("bot_name", lang).split("{")[0]) for lang in LANGUAGES)


def is_reserved(text: str) -> bool:
    """Whether ``text`` reads as a computer player's name ("Computer 1", "Ordenador 2")
    in any language we speak: a child may not take one, or the board could not tell
    who is who."""
    key = name_key(text)
    return any(key.startswith(prefix.strip()) and _NUMBER.match(key[len(prefix.strip()):])
               for prefix in _bot_prefixes())


def _stacked_marks(name: str) -> bool:
    """Whether a letter of ``name`` carries more than :data:`MARKS_MAX` combining marks."""
    run = 0
    for ch in unicodedata.normalize("NFC", name):
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > MARKS_MAX:
            return True
    return False


#: Longer than this, a typed name is "too long" before anything else is read of it (a
#: 10,000-character paste is told so, not folded and searched letter by letter).
_PASTE_MAX = 1000


def name_problem(text: str) -> tuple[str, dict[str, Any]] | None:
    """Why a typed nickname cannot be taken *as typed* (catalog key, parameters), or None."""
    raw = str(text)
    if len(raw) > _PASTE_MAX:
        return "nickname_long", {"max": NAME_MAX}
    if raw and _hidden(raw):
        # Checked before the empty test: a name of zero-width spaces only is not "empty"
        # to the child who pasted it; it is a name with hidden characters.
        return "nickname_hidden", {}
    name = normalise(raw)
    if not name:
        return "profile_empty", {}
    if name != name.translate(_NAME_DROP):
        return "nickname_chars", {}
    if len(name) > NAME_MAX:
        return "nickname_long", {"max": NAME_MAX}
    if _stacked_marks(name):
        return "nickname_marks", {"max": MARKS_MAX}
    if is_reserved(name):
        return "nickname_reserved", {"name": name}
    return None


def label_problem(text: str, limit: int) -> tuple[str, dict[str, Any]] | None:
    """Why a grown-up's typed name (a teacher's, a class's, a pupil's real name) cannot be
    taken as typed, or None: the nickname rules without the nickname's length and the
    computer players' names (catalog keys as :func:`name_problem`'s)."""
    raw = str(text)
    if len(raw) > max(_PASTE_MAX, 4 * limit):
        return "nickname_long", {"max": limit}
    if raw and _hidden(raw):
        return "nickname_hidden", {}
    name = normalise(raw)
    if not name:
        return "profile_empty", {}
    if name != name.translate(_NAME_DROP):
        return "nickname_chars", {}
    if len(name) > limit:
        return "nickname_long", {"max": limit}
    if _stacked_marks(name):
        return "nickname_marks", {"max": MARKS_MAX}
    return None


def shown_name(text: str, limit: int = 40) -> str:
    """A name from elsewhere (a record's players) as it is shown: NFKC, no hidden
    characters, single spaces, at most ``limit`` characters; punctuation kept
    ("Computer (random)"), so every place that shows it escapes it."""
    name = "".join(ch for ch in nfkc(text)
                   if unicodedata.category(ch) not in _REFUSED_CATEGORIES or ch in _EMOJI_GLUE)
    return " ".join(name.split())[:limit]


def clean_name(text: str, limit: int = 40) -> str:
    """A name as it may be stored and shown (a record's names too): NFKC, no markup,
    no hidden characters, single spaces, at most ``limit`` characters."""
    return shown_name(nfkc(text).translate(_NAME_DROP), limit)


# -- sorting names the way a reader of the language expects ---------------------------------
#
# The Unicode Collation Algorithm with the default table (DUCET) through pyuca, a small pure
# Python implementation (PyICU, the usual choice, has no wheels for our platforms and needs
# ICU built from source on a school server). DUCET is CLDR's root order for letters: accents
# are a secondary difference ("Álvaro" sorts with the A's, "Íñigo" with the I's), case a
# tertiary one, spaces count ("María Fernanda" before "Martín"). German uses the root
# order as it is (CLDR's "de" has no tailoring: ä with a, ß as ss). Spanish has one
# tailoring in CLDR, "&N<ñ<<<Ñ": ñ is a letter of its own right after n ("Nuria" before
# "Ñandú" before "Óscar"); it is added here as a primary weight just above n's, below every
# other letter's (the weights are whole numbers, so n + ½ sits between n and the next).
# Italian, like German, has no tailoring in CLDR: the root order (à with a).
# Chinese names keep the root order (by code point for Han characters): CLDR's pinyin
# order needs ICU's data, and a class's nicknames there are short.

_TAILORED = {"es": ("n", "\u00f1")}


@functools.cache
def _collator(lang: str) -> Any:
    from pyuca import Collator  # loaded on the first sort (it reads a 2 MB table)

    collator = Collator()
    if lang in _TAILORED:
        base, letter = _TAILORED[lang]
        for small, capital in ((base, letter), (base.upper(), letter.upper())):
            elements = collator.table.find_prefix([ord(small)])[1]
            primary, secondary, tertiary = elements[0][:3]
            # NFD: ñ is n + U+0303; the pair gets its own collation element.
            key = [ord(ch) for ch in unicodedata.normalize("NFD", capital)]
            collator.table.add(key, [[primary + 0.5, secondary, tertiary]])
    return collator


def collation_key(text: str, lang: str) -> tuple[Any, ...]:
    """A sort key of ``text`` in the order of the language ``lang`` (CLDR; see above).

    Ties (names equal at every level) are left to the caller's stable sort."""
    base = lang.split("-")[0].split("_")[0].lower()
    return tuple(_collator(base if base in _TAILORED else "root").sort_key(nfkc(text)))


def sort_names(items: Iterable[T], lang: str, key: Callable[[T], str] = str) -> list[T]:
    """``items`` sorted by the name ``key`` gives, in the order of ``lang``: the one sort of
    pupils' names everywhere a teacher reads a list (class list, dashboard, fact grid,
    login cards, assignments)."""
    return sorted(items, key=lambda item: collation_key(key(item), lang))
