"""Free text (nicknames, names in a record) shown as plain text, never as markup."""

from __future__ import annotations

import re

__all__ = ["md_escape", "fact_text"]

# What Markdown (CommonMark, GitHub flavour) or Streamlit's extras read as markup anywhere
# in a line: emphasis, code, links and images, HTML, tables, strikethrough, :emoji: and
# :directives[...], $math$, entities.
_INLINE = re.compile(r"([\\`*_\[\]()<>!|~:$&])")
# What is markup only at the start of a line: headings, lists, rules, numbered lists.
_LINE_START = re.compile(r"^(\s*)(?:([#+\-=])|(\d+)([.)]))", re.MULTILINE)


# Streamlit's Markdown turns " -- " into " — " (and "->", "<-", ">=", "<=", "~=" into
# arrows and signs) in the text it draws, after Markdown is read: a backslash cannot
# stop that. An invisible WORD JOINER (U+2060) between the two signs does, and shows
# nothing ("Ana -- Leo" stays "Ana -- Leo").
_TYPOGRAPHY = re.compile(r"([-<>~])(?=[-<>=])")
WORD_JOINER = "\u2060"


def _start(match: re.Match[str]) -> str:
    lead, mark, digits, dot = match.groups()
    return f"{lead}\\{mark}" if mark else f"{lead}{digits}\\{dot}"


def md_escape(text: str) -> str:
    """``text`` shown literally in Markdown: a backslash before every character that
    could be read as markup where it stands ("Ana + Leo" stays as it is)."""
    literal = _TYPOGRAPHY.sub(r"\1" + WORD_JOINER, str(text))
    return _LINE_START.sub(_start, _INLINE.sub(r"\\\1", literal))


def fact_text(fact: str) -> str:
    """``"3+5"`` -> ``"3 + 5"``; ``"15-7"`` -> ``"15 − 7"`` (how a child reads it; a
    spreadsheet reads neither as a date or a formula)."""
    return fact.replace("+", " + ").replace("-", " − ")
