"""Between rounds and at the end: score table, next round, winner, the coach's review."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from trainer import hints as hint_mod
from trainer.gameplay import GameSession
from trainer.i18n import t
from trainer.storage import record_shareable
from trainer.text import md_escape
from trainer.words import review_item_text

from .errors import safe_callback
from .score import show_piles, show_round_score
from .session import set_game

__all__ = ["show_round_end", "show_game_tools", "show_download", "record_bytes", "show_review_of",
           "open_new_game_form", "record_shareable", "show_won_cards"]


@safe_callback
def _next_round(game: GameSession) -> None:
    game.next_round()
    from .session import settings

    if not settings().get("pause", False):
        game.run_bots()


@safe_callback
def _new_game() -> None:
    set_game(None)
    st.session_state["new_game_open"] = True


@safe_callback
def open_new_game_form() -> None:
    """The new-game form, keeping the game in play until a new one starts."""
    st.session_state["new_game_open"] = True


def record_bytes(game: GameSession) -> bytes:
    return json.dumps(game.record(), ensure_ascii=False, indent=1).encode("utf-8")


def show_round_end(game: GameSession) -> None:
    """The score table of the round just played; the next round or the game's end."""
    rounds = game.game.rounds
    names = [game.side_name(s) for s in range(game.rules.sides)]
    show_round_score(rounds[-1].score(), names, len(rounds), game.rules)
    show_won_cards(game, names, key=f"end_{game.game_id}")
    if not game.is_over:
        st.button(t("next_round"), key="next_round", type="primary", on_click=_next_round,
                  args=(game,), use_container_width=True)
        return
    winner = game.game.winner
    if winner is None:
        st.info(t("game_stopped"))
    else:
        me = game.human_seats[0]
        mine = game.rules.side_of(me) == winner and len(game.human_seats) == 1
        st.success(t("you_won") if mine else t("winner_is", name=md_escape(names[winner])),
                   icon="🏆")
        if mine and not st.session_state.get(f"balloons_{game.game_id}"):
            st.session_state[f"balloons_{game.game_id}"] = True
            st.balloons()
    totals = " · ".join(f"{names[s]}: {game.game.totals[s]}" for s in range(game.rules.sides))
    st.markdown(f"**{t('final_totals')}** {md_escape(totals)}")
    _review(game)
    show_download(game)
    st.button(t("new_game"), key="new_game_after", type="primary", on_click=_new_game,
              use_container_width=True)


def show_won_cards(game: Any, names: list[str], *, key: str) -> None:
    """Every side's won cards of the round just played, behind a tap (issue 26): a game
    on this device or at a friends' table (``game``: either session, with its engine
    ``game.game`` and ``rules``), so anyone at the end of a round can recount."""
    from .board import deck_of
    from .session import settings

    round_ = game.game.rounds[-1]
    show_piles(game.rules, round_.pile_masks, round_.escobas, names, deck_of(game.rules),
               bool(settings().get("show_values", True)),
               key=f"{key}_{len(game.game.rounds)}")


def _review(game: GameSession) -> None:
    """The coach's review of every child at the table, each under their nickname."""
    humans = game.human_seats
    for seat in humans:
        if len(humans) == 1:
            st.markdown(f"### {t('review_title')}")
        else:
            spec = game.seats[seat]
            st.markdown("### " + md_escape(t("review_title_for",
                                                 name=f"{spec.avatar} {spec.name}")))
        show_review_of(game, seat, owner=seat == humans[0])


#: The mistakes listed at the end of a game; the others are counted.
REVIEW_SHOWN = 5


def show_review_of(game: GameSession, seat: int, *, owner: bool) -> None:
    # Made (and, for the game's own child, saved) by the save that finished the game
    # (GameSession.review_for): the end screen only shows it.
    review: hint_mod.GameReview | None = game.review_for(seat)
    if review is None:
        st.caption(t("review_unavailable"))
        return
    from .board import deck_of

    if not review.mistakes:
        st.success(t("review_perfect"))
        return
    count = review.mistake_count
    st.markdown(t("review_count", count=count))
    deck = deck_of(game.rules)
    for item in review.biggest(REVIEW_SHOWN):
        st.markdown("- " + md_escape(review_item_text(item, deck, game.rules)))
    if count > REVIEW_SHOWN:
        st.caption(t("review_more", count=count - REVIEW_SHOWN))


@safe_callback
def _toggle(name: str) -> None:
    from .session import update_setting

    update_setting(name, bool(st.session_state[f"tgl_{name}"]))


def show_game_tools(game: GameSession) -> None:
    """The hint overlay toggle. (Pausing is in Settings; the record download is on
    My games and at the end of the game: fewer elements on every move's rerun.)"""
    from .session import settings

    st.session_state["tgl_hints"] = bool(settings().get("hints", True))
    st.toggle(t("hints_toggle"), key="tgl_hints", on_change=_toggle, args=("hints",))


def show_download(game: GameSession) -> None:
    if not record_shareable("finished" if game.is_over else "playing"):
        st.caption(t("download_after_game"))
        return
    # Deferred: the record is built only when the button is tapped.
    st.download_button(t("download_record"), lambda: record_bytes(game),
                       file_name=f"{game.rules.variant}-game-{game.game_id or 'new'}.json",
                       mime="application/json", key="download_record")
