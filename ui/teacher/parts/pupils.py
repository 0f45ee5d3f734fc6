"""The pupils: the list with their wrong PINs, adding pupils (pasted or made up) with the
cards to print, and one pupil's name, picture, real name, PIN, lock and removal."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from trainer.classroom import MAX_PUPILS, AddedPupils, Classroom, PinAttempts
from trainer.i18n import t
from trainer.names import sort_names
from trainer.storage import ClassInfo, Member

from ...classroom import class_action, class_flash, ct, ct_text
from ...i18n import current_language
from ...practice import child_timezone
from ..part import Part
from ..snapshot import OpenClass
from ..state import (
    KEY_ADDED,
    KEY_LOOKED_UP,
    KEY_PIN_ASK,
    KEY_PUPIL_CHOSEN,
    KEY_PUPIL_PIN,
    teacher_room,
)
from ..widgets import ask_first, cards_button, on_forget, pupil_label

__all__ = ["PART"]


@class_action
def _on_add_pupils(class_id: int) -> None:
    pasted = st.session_state.get("tc_paste", "") or ""
    added = teacher_room().add_pupils(class_id, pasted)
    st.session_state[KEY_ADDED] = (class_id, added)
    if added.added:
        st.session_state["tc_paste"] = ""


@class_action
def _on_generate(class_id: int) -> None:
    count = int(st.session_state.get("tc_generate_count") or 1)
    added = teacher_room().generate_pupils(class_id, count, current_language())
    st.session_state[KEY_ADDED] = (class_id, added)


@class_action
def _on_pupil_pin(class_id: int, profile_id: int) -> None:
    if st.session_state.pop(KEY_PIN_ASK, None) != (class_id, profile_id):
        return  # asked about another pupil, or cancelled meanwhile: nothing changes
    login = teacher_room().regenerate_pin(class_id, profile_id)
    st.session_state[KEY_PUPIL_PIN] = (class_id, login)


@class_action
def _on_rename(class_id: int, profile_id: int) -> None:
    typed = st.session_state.get(f"tc_nickname_{profile_id}", "") or ""
    member = teacher_room().rename_pupil(class_id, profile_id, typed)
    st.session_state.pop(KEY_PUPIL_PIN, None)  # a card with the old name is no use
    class_flash("success", "pupils.renamed", name=member.nickname)


@class_action
def _on_picture(class_id: int, profile_id: int) -> None:
    key = st.session_state.get(f"tc_picture_{profile_id}") or ""
    member = teacher_room().set_picture(class_id, profile_id, key)
    class_flash("success", "pupils.picture_saved", name=f"{member.avatar} {member.nickname}")


@class_action
def _on_real_name(class_id: int, profile_id: int) -> None:
    teacher_room().set_real_name(class_id, profile_id,
                          st.session_state.get(f"tc_real_name_{profile_id}") or None)
    class_flash("success", "pupils.real_name_saved")


@class_action
def _on_remove_pupil(class_id: int, profile_id: int, nickname: str) -> None:
    teacher_room().remove_pupil(class_id, profile_id)
    st.session_state.pop("tc_pupil_one", None)
    class_flash("success", "pupils.removed", name=nickname)


def _just_added(info: ClassInfo, added: AddedPupils) -> None:
    """What adding did: the pupils with their PINs (the only time they are known), the
    cards to print now, and every refused line as it was pasted, with its reason."""
    if added.added:
        st.success(ct("pupils.added", count=len(added.added)), icon="✅")
        st.dataframe(pd.DataFrame([{
            ct_text("list.picture"): p.avatar, ct_text("list.nickname"): p.nickname,
            ct_text("list.real_name"): p.real_name or "", ct_text("list.pin"): p.pin,
        } for p in sort_names(added.added, current_language(), key=lambda p: p.nickname)]),
            hide_index=True, width="stretch")
        st.warning(ct("pupils.cards_now"), icon="🪪")
        cards_button(info, added.added, "tc_cards_added")
    if added.refused:
        st.error(ct("pupils.refused", count=len(added.refused)), icon="✋")
        # As text in a table: a pasted line is never read as markup.
        st.dataframe(pd.DataFrame([{
            ct_text("pupils.col_line"): r.line, ct_text("pupils.col_text"): r.text,
            ct_text("pupils.col_reason"): ct_text(r.key, **r.params),
        } for r in added.refused]), hide_index=True, width="stretch")
    st.button(ct("pupils.done"), key="tc_added_done", on_click=on_forget, args=(KEY_ADDED,))


def show(view: OpenClass) -> None:
    room, info = view.room, view.info
    members = room.pupils(info.id)  # fresh: real names and locks
    wrong_pins = room.pin_attempts(info.id)
    kept = st.session_state.get(KEY_ADDED)
    if kept is not None and kept[0] == info.id:
        _just_added(info, kept[1])
        st.divider()
    st.markdown(f"**{ct('dash.pupils', count=len(members))}**")
    if members:
        st.dataframe(pd.DataFrame([{
            ct_text("list.number"): n, ct_text("list.picture"): m.avatar,
            ct_text("list.nickname"): m.nickname, ct_text("list.real_name"): m.real_name or "",
            ct_text("pupils.col_wrong_pins"): _wrong_pins_cell(wrong_pins.get(m.profile_id)),
        } for n, m in enumerate(members, 1)]), hide_index=True, width="stretch")
    if info.archived:
        return
    room_left = MAX_PUPILS - len(members)
    with st.form("tc_add_form", border=True):
        st.markdown(f"**{ct('pupils.add')}**")
        st.text_area(ct("pupils.paste"), key="tc_paste", height=160,
                     help=ct("pupils.paste_help"), placeholder=ct_text("pupils.placeholder"))
        st.form_submit_button(ct("pupils.add_button"), type="primary", on_click=_on_add_pupils,
                              args=(info.id,), width="stretch")
    if room_left > 0:
        with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
            st.number_input(ct("pupils.generate"), 1, room_left, min(25, room_left),
                            key="tc_generate_count", help=ct("pupils.generate_help"))
            st.button(ct("pupils.generate_button"), key="tc_generate", on_click=_on_generate,
                      args=(info.id,))
    if not members:
        return
    by_id = {m.profile_id: m for m in members}
    st.markdown(f"**{ct('pupils.one')}**")
    # The pupil stays chosen when their name or picture changes: the options' labels are
    # part of the widget's identity, so a renamed pupil made a new, empty select box.
    ids = list(by_id)
    kept = st.session_state.get(KEY_PUPIL_CHOSEN)
    chosen = st.selectbox(ct("pupils.choose"), ids, key="tc_pupil_one",
                          index=ids.index(kept) if kept in by_id else None,
                          placeholder=ct_text("dash.choose"),
                          format_func=lambda pid: pupil_label(by_id[pid].avatar,
                                                               by_id[pid].nickname,
                                                               by_id[pid].real_name))
    st.session_state[KEY_PUPIL_CHOSEN] = chosen
    if chosen is None or chosen not in by_id:
        return
    member = by_id[chosen]
    _pupil_lock(room, info, member, wrong_pins.get(chosen))
    one = st.session_state.get(KEY_PUPIL_PIN)
    if one is not None and one[0] == info.id and one[1].profile_id == chosen:
        login = one[1]
        st.success(ct("pupils.new_pin_done", name=f"{login.avatar} {login.nickname}",
                      pin=login.pin), icon="🔑")
        cards_button(info, (login,), "tc_card_one")
    _name_and_picture(room, info, member)
    # Asked first: a new PIN voids the printed card (issue 27).
    ask_first(KEY_PIN_ASK, (info.id, chosen), key="tc_new_pin", label=ct("pupils.new_pin"),
               icon="🔑", sure=ct("pupils.new_pin_sure", name=f"{member.avatar} {member.nickname}"),
               sure_icon="🪪", yes=ct("pupils.new_pin_yes"), on_yes=_on_pupil_pin,
               args=(info.id, chosen), box="tc_pin_confirm")
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(ct("pupils.real_name"), key=f"tc_real_name_{chosen}",
                      value=member.real_name or "")
        st.button(ct("pupils.real_name_save"), key="tc_real_name_save",
                  on_click=_on_real_name, args=(info.id, chosen))
    with st.expander(ct("pupils.remove"), icon="🗑️"):
        st.warning(ct("pupils.remove_what", name=member.nickname))
        st.button(ct("pupils.remove_confirm", name=member.nickname), key="tc_remove_pupil",
                  on_click=_on_remove_pupil, args=(info.id, chosen, member.nickname),
                  type="primary")


def _name_and_picture(room: Classroom, info: ClassInfo, member: Any) -> None:
    """Change a pupil's nickname (the nickname rules, one per class) or picture (a free
    one: two children on one picture cannot tell their cards apart)."""
    pid = member.profile_id
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(ct("pupils.nickname"), key=f"tc_nickname_{pid}", value=member.nickname)
        st.button(ct("pupils.rename"), key="tc_rename", on_click=_on_rename,
                  args=(info.id, pid))
    pictures = room.free_pictures(info.id, pid)
    lang = current_language()
    words = {p.key: f"{p.emoji} {t(f'pic.{p.key}', lang, domain='classroom')}"
             for p in pictures}
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.selectbox(ct("pupils.picture"), list(words), key=f"tc_picture_{pid}",
                     format_func=words.get)
        st.button(ct("pupils.picture_save"), key="tc_picture_save", on_click=_on_picture,
                  args=(info.id, pid))


# -- a pupil's wrong PINs and lock (issue 27) ------------------------------------------------

@class_action
def _on_unlock_pupil(class_id: int, profile_id: int, name: str) -> None:
    teacher_room().unlock_pupil(class_id, profile_id)
    class_flash("success", "pupils.unlocked", name=name)


@class_action
def _on_look_up_pin(class_id: int, profile_id: int) -> None:
    st.session_state[KEY_LOOKED_UP] = (class_id, teacher_room().look_up_pin(class_id, profile_id))


def _wrong_pins_cell(tries: PinAttempts | None) -> str:
    """The pupils table's column: wrong PINs in a row, 🔒 while a device waits."""
    if tries is None:
        return ""
    return f"{tries.wrong}" + (" 🔒" if tries.waiting_until is not None else "")


def _pupil_lock(room: Classroom, info: ClassInfo, member: Member,
                tries: PinAttempts | None) -> None:
    """One pupil's wrong PINs (how many, from how many devices, the last), the unlock that
    keeps the PIN, and the forgotten PIN looked up with the pupil's card to reprint."""
    name = f"{member.avatar} {member.nickname}"
    with st.container(border=True, key="tc_pupil_lock"):
        if tries is not None:
            zone = child_timezone()
            st.markdown(ct("pupils.attempts", count=tries.wrong, devices=tries.devices,
                           time=tries.last.astimezone(zone).strftime("%H:%M")
                           if tries.last is not None else ""))
            if tries.waiting_until is not None:
                st.caption(ct("pupils.attempts_waiting", name=name))
            if not info.archived:
                st.button(ct("pupils.unlock"), key="tc_unlock_pupil", on_click=_on_unlock_pupil,
                          args=(info.id, member.profile_id, name), icon="🔓")
        else:
            st.caption(ct("pupils.attempts_none"))
        st.button(ct("pupils.look_up_pin"), key="tc_look_up_pin", on_click=_on_look_up_pin,
                  args=(info.id, member.profile_id), icon="🔑")
        looked = st.session_state.get(KEY_LOOKED_UP)
        if looked is not None and looked[0] == info.id \
                and looked[1].profile_id == member.profile_id:
            login = looked[1]
            if login.pin is None:
                st.info(ct("pupils.pin_unknown"), icon="🔑")
            else:
                st.success(ct("pupils.pin_is", name=name, pin=login.pin), icon="🔑")
                cards_button(info, (login,), "tc_card_looked_up")


PART = Part(key="pupils", label="part.pupils", render=show)
