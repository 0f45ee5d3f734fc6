"""Who is playing? Pick a profile or make one: a nickname and an avatar, nothing else."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from trainer.lessons import suggest_lessons
from trainer.text import md_escape
from ui.first_run import go_to_first_lesson, welcome_after_skip
from ui.layout import language_picker, show_flash
from ui.lesson_view import way_on_label
from ui.profiles import (
    AVATARS,
    create_profile_clicked,
    pick_profile_clicked,
    pin_cancelled,
    show_pin_form,
)
from ui.session import current_profile, pin_asked, storage, url_names_another_profile
from ui.speaker import speaker_button, who_is_playing_said

go_to_first_lesson()  # a child just created starts with lesson 1, level 1
welcome_after_skip()
# Pupils of a class sign in on "My class" (their picture and PIN), not here.
managed = storage().managed_profile_ids()
profiles = [p for p in storage().list_profiles() if p.id not in managed]
st.title(t("profiles_title"))
# The first page of a shared tablet, said aloud for a child who reads slowly: the
# question, the names to tap, and how a new player starts.
active = current_profile()
# A pupil signed in already goes back to their class; anyone else is told where a
# class's pupils sign in ("In a class? Sign in..." was said and shown to a pupil).
pupil_here = active is not None and active.id in managed
speaker_button(who_is_playing_said([p.nickname for p in profiles],
                                   bool(managed) and not pupil_here),
               key="who_speaker")
language_picker()
show_flash()

if active is not None:
    # Nicknames are plain text wherever they appear (labels here are Markdown).
    st.success(t("playing_as", name=md_escape(f"{active.avatar} {active.nickname}")))
    results = storage().lesson_results(active.id)
    if suggest_lessons(results):
        # A child who has never played starts with the lessons (nothing is locked); one
        # on the way, with the next one.
        st.page_link("app_pages/lessons.py", label=way_on_label(results), icon="🎓")
    st.page_link("app_pages/play.py", label=t("go_play"), icon="🃏")
    st.page_link("app_pages/tables.py", label=t("go_tables"), icon="🤝")
    st.page_link("app_pages/daily.py", label=t("go_daily"), icon="📅")
elif url_names_another_profile():
    st.info(t("profile_elsewhere"), icon="🙂")

asked = pin_asked()
locked = storage().get_profile(asked) if asked is not None else None
if locked is not None:
    show_pin_form(locked)
    st.button(t("pin_cancel"), key="pin_cancel", on_click=pin_cancelled)

if managed:
    st.page_link("app_pages/my_class.py", icon="🏫",
                 label=t("nav_my_class") if pupil_here else t("go_my_class"))
if profiles:
    st.subheader(t("pick_profile"))
    # Row by row (not column by column): on a phone the columns stack, and the buttons
    # must still read in alphabetical order.
    per_row = min(4, len(profiles))
    for i, profile in enumerate(profiles):
        if i % per_row == 0:
            cols = st.columns(per_row)
        with cols[i % per_row]:
            st.button(md_escape(f"{profile.avatar} {profile.nickname}")
                      + (" 🔒" if profile.protected else ""),
                      key=f"profile_{profile.id}",
                      on_click=pick_profile_clicked, args=(profile.id,),
                      use_container_width=True,
                      type="primary" if active and active.id == profile.id else "secondary")

st.subheader(t("new_profile"))
with st.form("new_profile_form", clear_on_submit=True, border=True):
    st.text_input(t("nickname"), key="new_nickname",
                  help=t("nickname_help"), placeholder=t("nickname_placeholder"))
    # Required: a picture tapped again stayed chosen but no longer looked it (found trying
    # it as a child, who then did not know which one was hers).
    st.pills(t("avatar"), AVATARS, key="new_avatar", default=AVATARS[0], required=True)
    st.form_submit_button(t("create_profile"), type="primary", on_click=create_profile_clicked,
                          use_container_width=True)
st.caption(t("privacy_note"))
