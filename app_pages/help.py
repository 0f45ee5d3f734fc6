"""How to play, and the glossary of the Spanish words the game keeps in every language."""

from __future__ import annotations

import streamlit as st

from escoba import Card, Deck
from trainer.cards import cards_row_html
from trainer.i18n import GLOSSARY, t

st.title(t("help_title"))
st.markdown(t("help_body"))
st.markdown(f"**{t('help_example')}**")
st.html(cards_row_html([Card.parse(c) for c in ("7o", "3c", "5e")], Deck.SPANISH, True))
st.subheader(t("glossary_title"))
for word, key in GLOSSARY.items():
    st.markdown(f"- **{word}** — {t(key)}")
