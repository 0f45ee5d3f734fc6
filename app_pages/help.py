"""How to play, and the glossary of the Spanish words the game keeps in every language."""

from __future__ import annotations

import streamlit as st

from escoba import Card, Deck
from trainer.cards import cards_row_html
from trainer.i18n import GLOSSARY, SCOPA_GLOSSARY, t
from trainer.rules_text import RULE_OPTIONS, chip_texts

st.title(t("help_title"))
st.markdown(t("help_body"))
st.markdown(f"**{t('help_example')}**")
st.html(cards_row_html([Card.parse(c) for c in ("7o", "3c", "5e")], Deck.SPANISH, True))
# Every rule and option the app offers, in the very words of the board's rules line.
st.subheader(t("help_rules_title"))
st.markdown(t("help_rules_body"))
st.subheader(t("help_options_title"))
for key, _icon in RULE_OPTIONS:
    words = chip_texts(key)
    st.markdown(f"- {words['icon']} **{words['label']}** — {words['text']}")
st.subheader(t("glossary_title"))
for word, key in GLOSSARY.items():
    st.markdown(f"- **{word}** — {t(key)}")
st.subheader(t("glossary_scopa_title"))
for word, key in SCOPA_GLOSSARY.items():
    st.markdown(f"- **{word}** — {t(key)}")
