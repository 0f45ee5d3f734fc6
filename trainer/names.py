"""Nickname rules, in one place: what a name may be, and when two names are the same.

(Moved verbatim out of the storage module; the stricter rules of issue 10 item 7
arrive here from their own branch.)
"""

from __future__ import annotations

from typing import Any

__all__ = ["NAME_MAX", "name_problem", "clean_name", "name_key"]

# Markdown and HTML specials: a nickname is shown in markdown in places, and
# "![](http://...)" there would make the browser fetch an outside image.
_NAME_DROP = str.maketrans("", "", "[]()<>!*_`#|~\\{}")

#: The longest nickname the app takes (it fits the sidebar and the profile buttons).
NAME_MAX = 16


def name_problem(text: str) -> tuple[str, dict[str, Any]] | None:
    """Why a typed nickname cannot be taken *as typed* (catalog key, parameters), or None.

    Nicknames are never changed behind the child's back: markup characters and
    over-long names are refused with a message instead.
    """
    name = " ".join(str(text).split())
    if not name:
        return "profile_empty", {}
    if name != name.translate(_NAME_DROP):
        return "nickname_chars", {}
    if len(name) > NAME_MAX:
        return "nickname_long", {"max": NAME_MAX}
    return None


def clean_name(text: str, limit: int = 40) -> str:
    """A nickname as it may be stored and shown: no markup, single spaces, short."""
    return " ".join(str(text).translate(_NAME_DROP).split())[:limit]


def name_key(text: str) -> str:
    """The key two names are compared by (case folded): two profiles never share one."""
    return clean_name(text).casefold()
