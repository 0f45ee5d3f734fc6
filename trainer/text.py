"""Free text (nicknames, names in a record) shown as plain text, never as markup."""

from __future__ import annotations

import re

__all__ = ["md_escape"]

# Everything Markdown (CommonMark, GitHub flavour) or Streamlit's extras could read
# as markup: emphasis, links, headings, lists, tables, HTML, :emoji: and $math$.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~:$&])")


def md_escape(text: str) -> str:
    """``text`` with a backslash before every Markdown-special character."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))
