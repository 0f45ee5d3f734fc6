"""Replay: upload a game record (escoba-record/1) and step through it move by move."""

from __future__ import annotations

import json
import logging

import streamlit as st

from escoba import Deck
from trainer.cards import cards_row_html
from trainer.i18n import t
from trainer.names import shown_name
from trainer.replayer import MAX_UPLOAD_BYTES, RecordError, count_steps, parse_upload, position_at
from trainer.text import md_escape
from trainer.verdicts import record_error_text
from ui.board import event_text_plain, seat_status
from ui.errors import safe_callback
from ui.score import show_piles, show_round_score
from ui.session import deck_of, settings

_MAX_MB = MAX_UPLOAD_BYTES // 1_000_000

st.title(t("replay_title"))
st.caption(t("replay_intro"))


@st.cache_data(show_spinner=False, max_entries=64)
def _parse(data: bytes) -> dict:
    return parse_upload(data)


@st.cache_resource(show_spinner=False, max_entries=256)
def _position(text: str, step: int):  # cached engine objects, never mutated
    return position_at(json.loads(text), step)


# Streamlit's drop-zone text gives its own upload limit (200MB), not this page's: it is
# hidden (ui.page_style's style) and said here instead, with our limit; its button is in
# the child's language (ui/streamlit_words.py).
# Any file type is accepted: Streamlit would refuse another one with a red mark
# whose reason shows only on hover (not on a tablet) and in English; the engine
# says on the page, in the child's language, why it is not a game record.
upload = st.file_uploader(t("replay_upload"), key="replay_file")
st.caption(t("replay_upload_hint", mb=_MAX_MB))
if upload is None:
    st.stop()
deck = Deck(settings().get("deck", "spanish"))


def _bad_file(exc: Exception) -> None:
    """Any problem with the file: our sentence and the engine's reason (a RecordError's
    code, with the round, the move and the move's own code) in the child's language,
    as plain text on the page; never a raw Python message."""
    if isinstance(exc, RecordError):
        detail = md_escape(record_error_text(exc, deck))
    else:
        logging.getLogger("escoba.app").warning("unreadable record: %r", exc)
        detail = t("replay_bad_other")
    st.error(t("replay_bad", detail=detail), icon="🚫")
    st.stop()


try:
    record = _parse(upload.getvalue())
    steps = count_steps(record)
except Exception as exc:  # a file from anywhere: every failure is "bad file"
    _bad_file(exc)

text = json.dumps(record, sort_keys=True)
values = bool(settings().get("show_values", True))
# Names in a record are free text from anywhere: never markup here.
names = [shown_name(n) or t("player_n", n=i + 1)
         for i, n in enumerate(record.get("names") or [])]
names += [t("player_n", n=i + 1) for i in range(len(names), 8)]

@safe_callback
def _move(delta: int, last: int) -> None:
    st.session_state["replay_step"] = max(0, min(last, st.session_state["replay_step"] + delta))


st.session_state.setdefault("replay_step", 0)
if st.session_state["replay_step"] > steps:
    st.session_state["replay_step"] = 0
cols = st.columns(2)
with cols[0]:
    st.button(t("replay_prev"), key="replay_prev", use_container_width=True,
              on_click=_move, args=(-1, steps))
with cols[1]:
    st.button(t("replay_next"), key="replay_next", use_container_width=True,
              on_click=_move, args=(1, steps), type="primary")
if steps:
    st.slider(t("replay_step"), 0, steps, key="replay_step")
step = int(st.session_state["replay_step"])

try:
    pos = _position(text, step)
except Exception as exc:
    _bad_file(exc)
game = pos.replay.game
if game.rules.variant == "scopa":
    deck = deck_of(game.rules)  # a Scopa record is shown with Scopa's Italian cards
round_ = game.round
st.markdown(t("replay_where", round=pos.round_no, move=pos.move_in_round, total=steps,
                     count=steps))
history = [e for e in round_.history if e.kind != "sweep" or round_.is_over]
if history:
    st.info(md_escape(event_text_plain(history[-1], names, deck, game.rules.variant)))
st.markdown(f"**{t('table_title')}**")
st.html(cards_row_html(round_.table, deck, values, width=64))
for seat in range(game.rules.players):
    name = names[seat] if seat < len(names) else t("player_n", n=seat + 1)
    status = seat_status(len(round_.hand(seat)), len(round_.pile(seat)), round_.escobas[seat],
                         game.rules.variant)
    st.markdown(f"**{md_escape(name)}** · {status}")
    st.html(cards_row_html(round_.hand(seat), deck, values, width=52, names=False))
sides = [" + ".join(names[s] for s in game.rules.seats_of(side) if s < len(names))
         for side in range(game.rules.sides)]
# Every side's won cards so far, grouped as the score counts them (issue 26).
show_piles(game.rules, round_.pile_masks, round_.escobas, sides, deck, values,
           key=f"replay_{step}")
if round_.is_over:
    show_round_score(round_.score(), sides, pos.round_no, game.rules)
    st.markdown(md_escape(t("replay_totals", totals=", ".join(
        f"{sides[i]}: {x}" for i, x in enumerate(game.totals)))))
