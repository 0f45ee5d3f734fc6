"""The puzzles' own texts (worksheets, the daily share text) in a child's language.

They are the ``puzzles`` domain of the catalogs in ``locales/``; the app's
``trainer`` layer is not imported (puzzles sit below it). Babel is loaded
only when a text is made.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .model import PuzzleError

__all__ = ["Tr", "translator"]

#: ``tr(key, **params) -> str``: one language's texts.
Tr = Callable[..., str]


def translator(lang: str) -> Tr:
    """``tr(key, **params)`` over the ``puzzles`` catalog of ``lang``."""
    import locales

    if lang not in locales.languages("puzzles"):
        raise PuzzleError(f"no puzzles language {lang!r} "
                          f"(choose one of {', '.join(locales.languages('puzzles'))})")
    return functools.partial(locales.translate, "puzzles", lang)
