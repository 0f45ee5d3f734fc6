"""Solving one puzzle on screen: cards, native pills to pick them, feedback, hints, stars.

Used by the Puzzles and Daily pages. A puzzle's state (the sets given so far,
hints taken, when it was shown, the final check) lives in session state under
a *slot* name, so two pages never mix their puzzles. The checking is
:func:`puzzles.check`; this module only draws and translates.

The child builds one set at a time with pills (the card to play, then table
cards), and each set gets feedback at once ("3 + 5 + 7 = 15 — found!" or
"3 + 5 + 8 = 16, not 15"). "I've found them all" checks the whole answer:
what was missed is shown, the stars are given and the attempt is recorded
through the page's ``record`` callback (a database write in one transaction).
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from escoba import Card, Deck
from puzzles import CheckResult, Puzzle, Solution, WrongAnswer, check, hint
from trainer.cards import cards_row_html
from trainer.i18n import card_name, t

from .board import coach_text, deck_of, safe_callback
from .i18n import current_language
from .session import settings

__all__ = ["PuzzleState", "show_puzzle", "state_of", "reset", "wrong_text", "hint_text",
           "solution_text", "stars_text", "Recorder"]

#: record(puzzle, result, seconds, answer) -> None, called once when a puzzle is checked.
Recorder = Callable[[Puzzle, CheckResult, float, list[Any]], None]


@dataclass
class PuzzleState:
    puzzle: Puzzle
    started: float = field(default_factory=time.monotonic)
    items: list[dict[str, Any]] = field(default_factory=list)  # {"card", "take"} given
    feedback: list[tuple[str, str]] = field(default_factory=list)  # (kind, text), newest last
    hints: int = 0
    hint_lines: list[str] = field(default_factory=list)
    said_none: bool = False
    result: CheckResult | None = None
    seconds: float = 0.0


def state_of(slot: str) -> PuzzleState | None:
    return st.session_state.get(f"{slot}_state")


def reset(slot: str, puzzle: Puzzle | None) -> PuzzleState | None:
    """Show ``puzzle`` in ``slot`` from the start (``None`` clears the slot)."""
    for suffix in ("_hand", "_table"):
        st.session_state.pop(slot + suffix, None)
    if puzzle is None:
        st.session_state.pop(f"{slot}_state", None)
        return None
    state = PuzzleState(puzzle)
    st.session_state[f"{slot}_state"] = state
    return state


# -- words -----------------------------------------------------------------------------

def _name(card: Card | str, deck: Deck) -> str:
    c = Card.parse(card) if isinstance(card, str) else card
    return card_name(c, deck)


def _expr(values: list[int]) -> str:
    return " + ".join(str(v) for v in values)


def solution_text(puzzle: Puzzle, sol: Solution | dict[str, Any], deck: Deck) -> str:
    """"7 de oros takes 3 de copas and 5 de espadas: 3 + 5 + 7 = 15"."""
    if isinstance(sol, dict):
        card = Card.parse(sol["card"]) if sol.get("card") else None
        take = tuple(Card.parse(c) for c in sol.get("take", []))
    else:
        card, take = sol.card, tuple(sol.take)
    values = [c.value for c in sorted(take)] + ([card.value] if card is not None else [])
    cards = ", ".join(_name(c, deck) for c in sorted(take))
    total = sum(values)
    if card is None:
        return t("pz_group_text", cards=cards, expr=_expr(values), total=total)
    if not take:
        return t("pz_lay_text", card=_name(card, deck))
    return t("pz_capture_text", card=_name(card, deck), cards=cards, expr=_expr(values),
             total=total)


def wrong_text(wrong: WrongAnswer, deck: Deck) -> str:
    """A wrong set with its arithmetic written out, in the child's language."""
    p = wrong.params
    if wrong.key in ("wrong_sum", "wrong_value"):
        return t("pz_wrong_sum", expr=_expr(list(p["values"])), total=p["total"], sum=p["sum"])
    if wrong.key == "group_too_small":
        return t("pz_group_too_small")
    if wrong.key == "not_none":
        return t("pz_not_none", count=p.get("count", 1))
    if wrong.key == "not_best":
        return t("pz_not_best", why=coach_text(str(p.get("reason", "")),
                                               dict(p.get("reason_params") or {})))
    if wrong.key == "not_in_hand" and p.get("card"):
        return t("not_in_hand")
    return t("pz_wrong_other")


def hint_text(puzzle: Puzzle, h: Any, deck: Deck) -> str:
    p = dict(h.params)
    for k in ("card", "first"):
        if isinstance(p.get(k), str):
            p[k] = _name(p[k], deck)
    return t("pz_hint_" + h.key, **p)


def stars_text(stars: int) -> str:
    return "⭐" * stars + "☆" * (3 - stars)


# -- the view --------------------------------------------------------------------------

def _intro(puzzle: Puzzle, deck: Deck) -> str:
    s = puzzle.capture_sum
    if puzzle.kind == "captures":
        return t("pz_intro_captures", card=_name(puzzle.hand[0], deck), sum=s)
    if puzzle.kind == "hand":
        return t("pz_intro_hand", sum=s)
    if puzzle.kind == "fifteens":
        return t("pz_intro_fifteens", sum=s)
    if puzzle.kind == "best-move":
        return t("pz_intro_best", sum=s)
    return t("pz_intro_quick", sum=s)


def _label(deck: Deck, values: bool) -> Callable[[str], str]:
    lang = current_language()  # fixed now: AppTest formats options after the run

    def label(key: str) -> str:
        card = Card.parse(key)
        name = card_name(card, deck, lang)
        return f"{name} ({card.value})" if values else name
    return label


def _current(slot: str, puzzle: Puzzle) -> dict[str, Any]:
    """The set being put together in the pills, as a checker item."""
    take = list(st.session_state.get(f"{slot}_table") or [])
    if puzzle.kind == "captures":
        card = str(puzzle.hand[0])
    elif puzzle.kind in ("hand", "best-move"):
        card = st.session_state.get(f"{slot}_hand")
    else:
        card = None
    return {"card": card, "take": take}


def _set_label(slot: str, puzzle: Puzzle) -> tuple[str, bool]:
    """The add button's label, carrying the sum put together (like the Play page)."""
    item = _current(slot, puzzle)
    if puzzle.kind in ("hand", "best-move") and not item["card"]:
        return t("pick_a_card_first"), False
    values = sorted(Card.parse(c).value for c in item["take"])
    if item["card"]:
        values.append(Card.parse(item["card"]).value)
    if puzzle.kind == "best-move" and not item["take"]:
        return t("pz_play_move"), True
    if not item["take"] or (puzzle.kind == "fifteens" and len(values) < 2):
        return t("pz_pick_table"), False
    total = sum(values)
    verb = t("pz_play_move") if puzzle.kind == "best-move" else t("pz_add_set")
    return t("pz_set_label", expr=_expr(values), total=total, verb=verb), True


@safe_callback
def _add(slot: str, record: Recorder) -> None:
    state = state_of(slot)
    if state is None or state.result is not None:
        return
    puzzle, deck = state.puzzle, deck_of()
    item = _current(slot, puzzle)
    item = {k: v for k, v in item.items() if v}
    if any(i == item for i in state.items):
        state.feedback.append(("info", t("pz_already")))
        return
    state.items.append(item)
    alone = check(puzzle, [item])
    if alone.found:
        state.feedback.append(("success", t("pz_found", what=solution_text(puzzle, alone.found[0],
                                                                            deck))))
    elif alone.wrong:
        text = wrong_text(alone.wrong[0], deck)
        # A best move is one answer: no "try another" once it is given.
        state.feedback.append(("error", text if puzzle.kind == "best-move"
                               else t("pz_try_again", what=text)))
    st.session_state[f"{slot}_table"] = []
    if puzzle.kind == "best-move":
        _finish(state, record)
        return
    # Every set found: the puzzle is done at once (no extra tap needed).
    if puzzle.solutions and len(check(puzzle, state.items).found) == len(puzzle.solutions):
        _finish(state, record)


@safe_callback
def _finish_now(slot: str, record: Recorder, said_none: bool = False) -> None:
    """ "I've found them all", or (``said_none``) "there is none"."""
    state = state_of(slot)
    if state is None or state.result is not None:
        return
    state.said_none = state.said_none or said_none
    _finish(state, record)


@safe_callback
def _hint(slot: str) -> None:
    state = state_of(slot)
    if state is None or state.result is not None:
        return
    h = hint(state.puzzle, state.items or None, strength=1 + min(state.hints, 1))
    state.hints += 1
    state.hint_lines.append(hint_text(state.puzzle, h, deck_of()))


def _finish(state: PuzzleState, record: Recorder) -> None:
    answer: list[Any] = list(state.items) + (["none"] if state.said_none else [])
    state.result = check(state.puzzle, answer, hints=state.hints)
    state.seconds = round(time.monotonic() - state.started, 2)
    record(state.puzzle, state.result, state.seconds, answer)


def show_puzzle(slot: str, puzzle: Puzzle, record: Recorder) -> PuzzleState:
    """Draw ``puzzle`` in ``slot`` (a new puzzle starts a fresh state) and its controls."""
    state = state_of(slot)
    if state is None or state.puzzle.id != puzzle.id:
        state = reset(slot, puzzle)
        assert state is not None
    deck, values = deck_of(), bool(settings().get("show_values", True))
    esc = html.escape
    parts = [f"<p style='font-size:1.2rem;margin:0 0 6px'><b>{esc(_intro(puzzle, deck))}</b>"
             f"</p>"]
    picked_table = [Card.parse(k) for k in st.session_state.get(f"{slot}_table") or []]
    if puzzle.table:
        parts.append(f"<div style='opacity:0.75'>{esc(t('table_title'))}</div>")
        parts.append(cards_row_html(puzzle.table, deck, values, selected=picked_table,
                                    width=84))
    if puzzle.hand:
        title = t("pz_your_card") if puzzle.kind == "captures" else t("pz_your_hand")
        picked = st.session_state.get(f"{slot}_hand")
        selected = [puzzle.hand[0]] if puzzle.kind == "captures" else (
            [Card.parse(picked)] if picked else [])
        parts.append(f"<div style='opacity:0.75;margin-top:6px'>{esc(title)}</div>")
        parts.append(cards_row_html(puzzle.hand, deck, values, selected=selected, width=84))
    st.html("".join(parts))

    for kind, text in state.feedback[-3:]:
        {"success": st.success, "error": st.error}.get(kind, st.info)(text)
    for line in state.hint_lines:
        st.info(line, icon="💡")

    if state.result is not None:
        show_result(state, deck)
        return state

    label = _label(deck, values)
    if puzzle.kind in ("hand", "best-move"):
        st.pills(t("pick_hand_label"), [str(c) for c in puzzle.hand], selection_mode="single",
                 format_func=label, key=f"{slot}_hand")
    st.pills(t("pz_pick_table_label"), [str(c) for c in puzzle.table], selection_mode="multi",
             format_func=label, key=f"{slot}_table")
    verb, ready = _set_label(slot, puzzle)
    st.button(verb, key=f"{slot}_add", type="primary", on_click=_add, args=(slot, record),
              disabled=not ready, use_container_width=True)
    with st.container(horizontal=True, key=f"{slot}_tools"):
        st.button(t("pz_hint"), key=f"{slot}_hint", on_click=_hint, args=(slot,),
                  help=t("pz_hint_help"), use_container_width=True)
        if puzzle.kind == "captures":
            st.button(t("pz_none"), key=f"{slot}_none", on_click=_finish_now,
                      args=(slot, record, True), use_container_width=True)
        if puzzle.kind != "best-move":
            st.button(t("pz_done"), key=f"{slot}_done", on_click=_finish_now, args=(slot, record),
                      use_container_width=True)
    return state


def show_result(state: PuzzleState, deck: Deck) -> None:
    """Stars, what was found, what was missed, and every wrong set with its arithmetic."""
    result = state.result
    assert result is not None
    puzzle = state.puzzle
    head = t("pz_solved") if result.solved else t("pz_not_quite")
    st.subheader(f"{stars_text(result.stars)} {head}", anchor=False)
    if result.hints:
        st.caption(t("pz_hints_used", count=result.hints))
    lines = []
    if not puzzle.solutions and result.said_none and not result.wrong:
        lines.append("✅ " + t("pz_none_right"))
    for sol in result.found:
        lines.append("✅ " + solution_text(puzzle, sol, deck))
    missed_key = "pz_best_was" if puzzle.kind == "best-move" else "pz_missed"
    for sol in result.missed:
        lines.append("🔎 " + t(missed_key, what=solution_text(puzzle, sol, deck)))
    if result.missed_none:
        lines.append("🔎 " + t("pz_missed_none"))
    for wrong in result.wrong:
        lines.append("❌ " + wrong_text(wrong, deck))
    if puzzle.kind == "best-move" and puzzle.ranking:
        best = puzzle.ranking[0]
        lines.append("💬 " + t("pz_best_why", why=coach_text(best.reason, dict(best.params))))
    st.markdown("\n".join(f"- {line}" for line in lines))
