"""The translation catalogs: gettext ``.po`` files, one directory per language.

``locales/<lang>/LC_MESSAGES/<domain>.po`` holds one language of one domain:
``messages`` (the app), ``puzzles`` (the printed worksheets) and ``lessons``
(the lesson path's titles, goals and feedback). Message ids
are short keys (``wrong_sum``), not English sentences, so that code never
changes when a wording does; English is a catalog like the others.
``<domain>.pot`` beside the language directories is the template Babel's
``pybabel init`` and ``pybabel update`` start from (README, "How to add a
language").

The ``.po`` files are read directly with Babel at first use and kept in
memory: there is no compile step a fresh checkout could miss. A plural
message is an ngettext entry (``msgid_plural`` and one ``msgstr[i]`` per form
of the language); which form a number takes comes from the catalog's
``Plural-Forms`` header, written by Babel from the CLDR rules. Nothing here
knows a language's grammar.

This package imports only Babel, so every layer (``puzzles`` included) can
translate without importing the app.
"""

from __future__ import annotations

import functools
import io
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

__all__ = ["ROOT", "DEFAULT", "Catalog", "catalog", "languages", "translate", "po_path"]

log = logging.getLogger(__name__)

#: The directory holding ``<lang>/LC_MESSAGES/<domain>.po``.
ROOT = Path(__file__).resolve().parent
#: The language every other one falls back to, key by key.
DEFAULT = "en"


@dataclass(frozen=True)
class Catalog:
    """One language of one domain, ready to translate."""

    lang: str
    domain: str
    #: Ids that have a (non-fuzzy) translation in this language.
    translated: frozenset[str]
    #: Ids that are plural entries (``msgid_plural`` is ``<id>.other``).
    plurals: frozenset[str]
    translations: Translations

    def text(self, key: str, count: int | None = None) -> str | None:
        """The string of ``key`` (the form for ``count`` if plural), or None if untranslated."""
        if key not in self.translated:
            return None
        if key in self.plurals:
            # Without a number, the general ("other") form: 2 is "other" in every language.
            n = 2 if count is None else abs(count)
            return self.translations.ngettext(key, f"{key}.other", n)
        return self.translations.gettext(key)


def po_path(lang: str, domain: str) -> Path:
    """Where the catalog of ``lang`` for ``domain`` lives."""
    return ROOT / lang / "LC_MESSAGES" / f"{domain}.po"


def languages(domain: str = "messages") -> list[str]:
    """The languages that have a catalog for ``domain``."""
    return sorted(p.parent.parent.name for p in ROOT.glob(f"*/LC_MESSAGES/{domain}.po"))


@functools.cache
def catalog(domain: str, lang: str) -> Catalog:
    """The catalog of ``lang`` for ``domain`` (read once per process).

    A language without a file gets an empty catalog, so every key falls back
    to English rather than failing in front of a child.
    """
    path = po_path(lang, domain)
    if not path.exists():
        log.warning("no %s catalog for %r at %s", domain, lang, path)
        return Catalog(lang, domain, frozenset(), frozenset(), Translations())
    with path.open("rb") as f:
        po = read_po(f, locale=lang, domain=domain)
    translated = frozenset(
        m.id[0] if isinstance(m.id, tuple) else m.id for m in po
        if m.id and not m.fuzzy
        and (all(m.string) if isinstance(m.string, tuple) else m.string))
    plurals = frozenset(m.id[0] for m in po if m.id and isinstance(m.id, tuple))
    # Babel's runtime class is gettext's: the .po goes through an in-memory .mo.
    mo = io.BytesIO()
    write_mo(mo, po)
    mo.seek(0)
    return Catalog(lang, domain, translated, plurals, Translations(mo, domain=domain))


def _count(params: dict[str, Any]) -> int | None:
    try:
        return int(params.get("count", params.get("n")))
    except (TypeError, ValueError):
        return None


def translate(domain: str, lang: str, key: str, /, **params: Any) -> str:
    """The text of ``key`` in ``lang``, with ``params`` filled in (``str.format``).

    A plural message takes the form for the ``count`` parameter (or ``n`` when
    there is no ``count``), by the language's CLDR rule; a separate
    ``key.zero`` message, where there is one, says "none" in words ("no way to
    capture"). A key missing from a catalog falls back to English and is
    logged (the catalog tests make sure this never ships); a missing English
    key shows the key itself rather than failing in front of a child.
    """
    count = _count(params)
    english = catalog(domain, DEFAULT)
    if count == 0 and f"{key}.zero" in english.translated:
        key = f"{key}.zero"
    text = catalog(domain, lang).text(key, count)
    if text is None:
        log.warning("missing translation %s:%s", lang, key)
        text = english.text(key, count) or key
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):  # AttributeError: a card form
        log.warning("bad parameters for %s:%s: %s", lang, key, sorted(params))
        return text
