"""Settings: card deck, values on cards, hints and how they say chances, pausing on the
computer's turn, language."""

from __future__ import annotations

import streamlit as st

from escoba import Card, Deck
from trainer.cards import cards_row_html
from trainer.hints import ODDS_STYLES
from trainer.i18n import LANGUAGES, t
from ui.errors import safe_callback
from ui.i18n import current_language, labels
from ui.session import save_language, settings, update_setting

st.title(t("settings_title"))
current = settings()


@safe_callback
def _changed(name: str) -> None:
    update_setting(name, st.session_state[f"set_{name}"])


@safe_callback
def _lang() -> None:
    save_language(st.session_state["set_lang"])


st.session_state["set_lang"] = current_language()
st.segmented_control(t("language"), list(LANGUAGES), format_func=LANGUAGES.get,
                     key="set_lang", on_change=_lang, required=True)
st.session_state["set_deck"] = current.get("deck", "spanish")
st.segmented_control(t("deck"), [d.value for d in Deck], key="set_deck", required=True,
                     format_func=labels("deck_"), on_change=_changed, args=("deck",))
for name in ("show_values", "hints", "pause"):
    st.session_state[f"set_{name}"] = bool(current.get(name))
    st.toggle(t("setting_" + name), key=f"set_{name}", on_change=_changed, args=(name,),
              help=t("setting_" + name + "_help"))

st.session_state["set_odds"] = current.get("odds", "words")
st.segmented_control(t("setting_odds"), list(ODDS_STYLES), key="set_odds", required=True,
                     format_func=labels("odds_style_"), on_change=_changed, args=("odds",),
                     help=t("setting_odds_help"))

st.markdown(f"**{t('preview')}**")
sample = [Card.parse(c) for c in ("1o", "7o", "3c", "8e", "9b", "10c")]
st.html(cards_row_html(sample, Deck(current.get("deck", "spanish")),
                       bool(current.get("show_values"))))
