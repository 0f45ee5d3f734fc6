"""Settings: card deck, values on cards, hints and how they say chances, pausing on the
computer's turn, language; and for parents, the profile's nickname, PIN, and deleting it
with all its data."""

from __future__ import annotations

import streamlit as st

from escoba import Card, Deck
from locales.cards import grammar
from trainer.cards import cards_row_html
from trainer.hints import ODDS_STYLES
from trainer.i18n import LANGUAGES, format_list, t
from trainer.text import md_escape
from ui.errors import safe_callback
from ui.i18n import current_language, labels
from ui.layout import show_flash
from ui.profiles import (
    PIN_DIGITS,
    delete_clicked,
    pin_remove_clicked,
    pin_set_clicked,
    rename_clicked,
)
from ui.session import current_profile, save_language, settings, storage, update_setting
from ui.speaker import show_voice_settings

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
if current.get("deck", "spanish") == Deck.SPANISH.value and grammar(current_language()).own_names:
    # German, Italian and Chinese name the Spanish cards in their own words (issue 33); a family
    # that plays the Spanish way keeps the baraja's names ("7 de oros", "Sota").
    st.session_state["set_spanish_names"] = bool(current.get("spanish_names"))
    st.toggle(t("setting_spanish_names"), key="set_spanish_names", on_change=_changed,
              args=("spanish_names",), help=t("setting_spanish_names_help"))
for name in ("show_values", "hints", "pause"):
    st.session_state[f"set_{name}"] = bool(current.get(name))
    st.toggle(t("setting_" + name), key=f"set_{name}", on_change=_changed, args=(name,),
              help=t("setting_" + name + "_help"))

st.session_state["set_odds"] = current.get("odds", "words")
st.segmented_control(t("setting_odds"), list(ODDS_STYLES), key="set_odds", required=True,
                     format_func=labels("odds_style_"), on_change=_changed, args=("odds",),
                     help=t("setting_odds_help"))

show_voice_settings()  # read goals aloud, sounds (issue 23)

st.markdown(f"**{t('preview')}**")
sample = [Card.parse(c) for c in ("1o", "7o", "3c", "8e", "9b", "10c")]
st.html(cards_row_html(sample, Deck(current.get("deck", "spanish")),
                       bool(current.get("show_values"))))


# -- for parents: rename, PIN, delete (issue 10) -----------------------------------------
profile = current_profile()
show_flash()  # what a parent's button did (after deleting, there is no profile section)
if profile is not None and storage().membership(profile.id) is not None:
    # A pupil's profile is managed by the teacher (name, PIN, deleting it).
    st.divider()
    st.info(t("pupil_managed"), icon="🏫")
elif profile is not None:
    st.divider()
    st.subheader(t("parent_title"))
    if profile.protected:
        st.text_input(t("parent_pin_current"), key="parent_pin", type="password", max_chars=8,
                      help=t("parent_pin_current_help"))
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(t("parent_rename"), key="parent_rename",
                      placeholder=profile.nickname)
        st.button(t("parent_rename_button"), key="parent_rename_go", on_click=rename_clicked,
                  args=(profile.id,))
    low, high = PIN_DIGITS
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(t("parent_pin_new", low=low, high=high), key="parent_pin_new",
                      type="password", max_chars=high)
        st.button(t("parent_pin_set"), key="parent_pin_set", on_click=pin_set_clicked,
                  args=(profile.id,))
        if profile.protected:
            st.button(t("parent_pin_remove"), key="parent_pin_remove",
                      on_click=pin_remove_clicked, args=(profile.id,))
    with st.expander(t("parent_delete"), icon="🗑️"):
        data = storage().profile_data(profile.id)
        name = md_escape(profile.nickname)
        # Lesson levels worded as the teacher's deletion summary words them (same keys).
        lessons = (t("settings.n_lessons_started", domain="classroom", count=data.lessons,
                     started=data.lesson_goes) if data.lesson_goes
                   else t("settings.n_lessons", domain="classroom", count=data.lessons))
        # Each kind of answer counted apart (issue 33: 280 answers were all called
        # puzzle answers; 115 were quick facts and 87 game turns).
        answers = [t("parent_attempts", n=data.puzzles)]
        if data.quick_facts:
            answers.append(t("parent_quick_facts", n=data.quick_facts))
        if data.game_turns:
            answers.append(t("parent_game_turns", n=data.game_turns))
        st.warning(t("parent_delete_what", name=name, games=t("parent_games", n=data.games),
                     attempts=format_list(answers),
                     dailies=t("parent_dailies", n=data.dailies), lessons=lessons))
        st.button(t("parent_delete_confirm", name=name), key="parent_delete",
                  on_click=delete_clicked, args=(profile.id,), type="primary")
