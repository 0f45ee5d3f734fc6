"""Solving one puzzle on screen: the tappable board, feedback, hints, stars.

Used by the Puzzles and Daily pages. A puzzle's session
(:class:`trainer.practice_sessions.PuzzleSession`: the sets given so far, hints taken,
the final check) lives in session state under a *slot* name, so two pages never mix
their puzzles. This module only draws and translates.

The child builds one set at a time by tapping the cards on the board (the card
to play, then table cards; the sum builds as they tap), and each set gets
feedback at once ("3 + 5 + 7 = 15 — found!" or
"3 + 5 + 8 = 16, not 15"). "I've found them all" checks the whole answer:
what was missed is shown, the stars are given and the attempt is recorded
through the page's ``record`` callback (a database write in one transaction).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from escoba import Card, Deck
from puzzles import CheckResult, Puzzle, Solution, WrongAnswer
from puzzles.model import ONE_CARD_KINDS, SCOPA_RULES
from trainer.board_view import BoardRefusal, puzzle_board, puzzle_position, read_action
from trainer.cards import pick_label
from trainer.i18n import CardText, card_name, cards_name, t
from trainer.practice_sessions import Feedback, PuzzleKeeper, PuzzleSession
from trainer.speech import speakable

from .board import coach_text, deck_of
from .board_component import board_loaded, fallback_choosers, show_board_component
from .errors import safe_callback
from .i18n import current_language
from .session import settings
from .speaker import board_speech, speaker_button

__all__ = ["show_puzzle", "number_pad", "state_of", "reset", "wrong_text", "hint_text",
           "feedback_text", "solution_text", "stars_text", "Recorder"]

#: record(puzzle, result, seconds, answer) -> None, called once when a puzzle is checked.
Recorder = Callable[[Puzzle, CheckResult, float, list[Any]], None]


def puzzle_deck(puzzle: Puzzle) -> Deck:
    """The deck a puzzle is drawn with: the child's, and for a Scopa puzzle the deck a
    Scopa game shows (the Italian cards, unless the family plays with French ones)."""
    return deck_of(SCOPA_RULES if puzzle.kind == "scopa" else None)


def state_of(slot: str) -> PuzzleSession | None:
    return st.session_state.get(f"{slot}_state")


def reset(slot: str, puzzle: Puzzle | None) -> PuzzleSession | None:
    """Show ``puzzle`` in ``slot`` from the start (``None`` clears the slot)."""
    for suffix in ("_hand", "_table"):
        st.session_state.pop(slot + suffix, None)
    if puzzle is None:
        st.session_state.pop(f"{slot}_state", None)
        return None
    state = PuzzleSession(puzzle)
    st.session_state[f"{slot}_state"] = state
    return state


# -- words -----------------------------------------------------------------------------

def _name(card: Card | str, deck: Deck) -> CardText:
    c = Card.parse(card) if isinstance(card, str) else card
    return card_name(c, deck)


def _expr(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values)


def solution_text(puzzle: Puzzle, sol: Solution | dict[str, Any], deck: Deck) -> str:
    """"7 de oros takes 3 de copas and 5 de espadas: 3 + 5 + 7 = 15"."""
    if isinstance(sol, dict):
        card = Card.parse(sol["card"]) if sol.get("card") else None
        take = tuple(Card.parse(c) for c in sol.get("take", []))
    else:
        card, take = sol.card, tuple(sol.take)
    values, _need = puzzle.terms(card, sorted(take))  # Scopa: the table cards alone
    cards = cards_name(take, deck)
    total = sum(values)
    if puzzle.kind == "scopa" and card is not None and values == (card.value,):
        # Scopa's equal card: the same value, no sum.
        return t("pz_scopa_equal_text", card=_name(card, deck), cards=cards, value=card.value)
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
    if wrong.key == "must_take_equal":
        return t("pz_must_take_equal", card=_name(str(p["card"]), deck), value=p["value"])
    if wrong.key == "must_capture":
        return t("pz_must_capture", card=_name(str(p["card"]), deck))
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
    if h.key == "the_set":  # the strongest hint: the whole set, with its arithmetic
        return t("pz_hint_the_set", what=solution_text(puzzle, dict(h.params), deck))
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
    if puzzle.kind == "scopa":
        card = puzzle.hand[0]
        return t("pz_intro_scopa", card=_name(card, deck), value=card.value)
    if puzzle.kind == "hand":
        return t("pz_intro_hand", sum=s)
    if puzzle.kind == "fifteens":
        return t("pz_intro_fifteens", sum=s)
    if puzzle.kind == "best-move":
        return t("pz_intro_best", sum=s)
    return t("pz_intro_quick", sum=s)


def feedback_text(puzzle: Puzzle, said: Feedback, deck: Deck) -> str:
    """One line of a :class:`PuzzleSession`'s feedback in the child's words."""
    if said.key == "found":
        return t("pz_found", what=solution_text(puzzle, said.params["solution"], deck))
    if said.key == "wrong":
        text = wrong_text(said.params["wrong"], deck)
        # "{what}. Try another set!": a reason that is a whole sentence brings its own
        # stop ("... before any sum." once, never "sum.. Try").
        what = text.rstrip(".。!！")
        return t("pz_try_again", what=what) if said.params["again"] else text
    return t(said.key, **said.params)


def _picked(slot: str) -> tuple[str | None, list[str]]:
    """The card and table cards chosen in the pills (card codes)."""
    return st.session_state.get(f"{slot}_hand"), list(st.session_state.get(f"{slot}_table")
                                                      or [])


def _set_label(slot: str, state: PuzzleSession) -> tuple[str, bool]:
    """The add button's label: an action, with the sum put together compared with the
    puzzle's own capture sum ("Add this set: 3 + 10 + 7 = 20, not 15"), as on Play."""
    puzzle = state.puzzle
    card, take = _picked(slot)
    item = state.item(card, take)
    if puzzle.kind in ("hand", "best-move") and not item["card"]:
        return t("pick_a_card_first"), False
    if puzzle.kind == "best-move" and not take:
        return t("pz_play_move"), True
    total = state.set_sum(card, take)
    if not take or (puzzle.kind == "fifteens" and len(total.values) < 2):
        return t("pz_pick_table"), False
    verb = t("pz_play_move") if puzzle.kind == "best-move" else t("pz_add_set")
    if total.right:
        return t("pz_set_label", verb=verb, expr=total.expr, total=total.total), True
    return t("pz_set_label_not", verb=verb, expr=total.expr, total=total.total,
             need=total.need), True


def _checked(state: PuzzleSession, record: Recorder, slot: str | None = None) -> None:
    """Record the attempt once the session has checked the whole answer; before that,
    keep the sets found so far (a restart resumes them)."""
    keeper: PuzzleKeeper | None = st.session_state.get(f"{slot}_keeper") if slot else None
    if state.result is not None:
        record(state.puzzle, state.result, state.seconds, state.answer)
        if keeper is not None:
            keeper.clear()
    elif keeper is not None:
        keeper.save(state)


@safe_callback
def _add(slot: str, record: Recorder) -> None:
    state = state_of(slot)
    if state is None or state.done:
        return
    with state.kept_only_if_saved():
        state.add(*_picked(slot))
        _checked(state, record, slot)
    st.session_state[f"{slot}_table"] = []


@safe_callback
def _finish_now(slot: str, record: Recorder, said_none: bool = False) -> None:
    """ "I've found them all", or (``said_none``) "there is none"."""
    state = state_of(slot)
    if state is None or state.done:
        return
    with state.kept_only_if_saved():  # not saved: not shown as checked either
        if state.finish(said_none) is None:
            return
        _checked(state, record, slot)


@safe_callback
def _hint(slot: str) -> None:
    state = state_of(slot)
    if state is None or state.done:
        return
    with state.kept_only_if_saved():  # a hint costs a star: kept with the puzzle
        if state.ask_hint() is None:
            # Nothing new to tell: said once, and free.
            state.feedback.append(Feedback("info", "pz_hint_nothing_new"))
            return
        keeper: PuzzleKeeper | None = st.session_state.get(f"{slot}_keeper")
        if keeper is not None:
            keeper.save(state)


def _lit(state: PuzzleSession) -> list[Card]:
    """The cards the latest hint names: they glow on the board."""
    if not state.hints_given:
        return []
    p = state.hints_given[-1].params
    codes = [p.get("card"), p.get("first"), *(p.get("take") or [])]
    return [Card.parse(c) for c in codes if isinstance(c, str)]


def _on_board_add(slot: str, record: Recorder, raw: Any) -> None:
    """A set sent by the board: read for this puzzle's position, then checked."""
    state = state_of(slot)
    if state is None or state.done:
        return
    action = read_action(raw, puzzle_position(state.puzzle, len(state.items)),
                         kinds=("add", "hint"))
    if isinstance(action, BoardRefusal):
        if not action.stale:
            state.feedback.append(Feedback("error", action.key))
        return
    if action.kind == "hint":
        _hint(slot)
        return
    with state.kept_only_if_saved():  # a set not saved is not shown as found
        state.add(str(action.card) if action.card is not None else None,
                  [str(c) for c in action.take])
        _checked(state, record, slot)


def number_pad(pad_key: str, button_prefix: str, question: int,
               on_tap: Callable[..., None], *args: Any) -> None:
    """The buttons 1-10 that answer a quick fact (``on_tap(*args, n)``), keyed
    ``{button_prefix}_{n}`` in a row keyed ``pad_key``. Drawn anew for each ``question``
    (a container keyed by its number around it): kept, the number just tapped kept its
    focus tint into the next question, where it read as a hint or gave the answer away
    (found trying Quick facts as a child on a phone)."""
    with st.container(key=f"{pad_key}_for_{question}"), \
            st.container(horizontal=True, key=pad_key):
        for n in range(1, 11):
            st.button(str(n), key=f"{button_prefix}_{n}", on_click=on_tap, args=(*args, n))


def show_puzzle(slot: str, puzzle: Puzzle, record: Recorder,
                keeper: PuzzleKeeper | None = None, answers_shown: bool = True) -> PuzzleSession:
    """Draw ``puzzle`` in ``slot`` (a new puzzle starts a fresh state, or the one
    ``keeper`` saved for it: the sets found before a restart) and its controls: the
    cards are tapped on the board (:mod:`ui.board_component`) to form each set. Not
    ``answers_shown`` (a class round before the teacher's reveal): the result says what
    the child found and got wrong, never the sets missed nor the best move."""
    if keeper is not None:
        st.session_state[f"{slot}_keeper"] = keeper
    state = state_of(slot)
    if state is None or state.puzzle.id != puzzle.id:
        resumed = keeper.load(puzzle.id) if keeper is not None else None
        state = reset(slot, puzzle)
        assert state is not None
        if resumed is not None:
            state = resumed
            st.session_state[f"{slot}_state"] = state
    deck, values = puzzle_deck(puzzle), bool(settings().get("show_values", True))
    title = t("pz_your_card") if puzzle.kind in ONE_CARD_KINDS else t("pz_your_hand")
    data = puzzle_board(puzzle, sets_given=len(state.items), deck=deck, show_value=values,
                        intro=_intro(puzzle, deck), hand_title=title,
                        add_label=t("pz_add_set"), play_label=t("pz_play_move"),
                        lit=_lit(state), done=state.done)
    if puzzle.kind == "best-move":
        data["buttons"]["play"] = t("pz_play_move")
    if not state.done:  # in the bar beside "Add this set": on a phone's first screen
        data["buttons"].update(hint=t("pz_hint_short"), hint_name=t("pz_hint"))
    # With "read aloud" on, the goal is read by itself once a puzzle, and what the
    # child's latest action brought once (a try's line, a hint, the result), as in a
    # lesson: a child who reads slowly is alone with the puzzle.
    last_said = (speakable(feedback_text(puzzle, state.feedback[-1], deck), deck=deck)
                 if state.feedback else None)
    latest, latest_key, sound = _latest_said(slot, state, deck, answers_shown, last_said)
    board_speech(data, goal=speakable(data.get("intro") or "", deck=deck) or None,
                 goal_key=f"goal:{slot}:{puzzle.id}", feedback=latest,
                 feedback_key=latest_key, deck=deck,
                 cue={"id": f"cue:{latest_key}", "sound": sound} if sound else None)
    # A wrong set's line in the board's bar too: under the board it was out of sight
    # on a phone (found trying Puzzles as a child).
    wrong = None
    if state.feedback and state.feedback[-1].kind == "error" and state.result is None:
        wrong = (f"{slot}:{puzzle.id}:{len(state.feedback)}",
                 feedback_text(puzzle, state.feedback[-1], deck))
    show_board_component(data, key=f"{slot}_board",
                         on_action=lambda raw: _on_board_add(slot, record, raw), said=wrong)

    for said in state.feedback[-3:]:
        {"success": st.success, "error": st.error}.get(said.kind, st.info)(
            feedback_text(puzzle, said, deck))
    if last_said:  # the last try's line can be heard again (issue 23)
        speaker_button(last_said, key=f"{slot}_said_speaker")
    for h in state.hints_given:
        st.info(hint_text(puzzle, h, deck), icon="💡")
    if state.hints_given:
        speaker_button(speakable(hint_text(puzzle, state.hints_given[-1], deck), deck=deck),
                       key=f"{slot}_hint_speaker")

    if state.result is not None:
        show_result(state, deck, answers_shown, spoken=latest)
        return state

    if not board_loaded():
        fallback_choosers(lambda: _fallback_controls(slot, state, record, deck, values),
                          f"board_fallback_{slot}")
    if puzzle.kind == "best-move":
        return state  # its one move is played on the board: nothing to finish by hand
    with st.container(horizontal=True, key=f"{slot}_tools"):
        if puzzle.kind in ONE_CARD_KINDS:
            st.button(t("pz_none"), key=f"{slot}_none", on_click=_finish_now,
                      args=(slot, record, True), use_container_width=True)
        if puzzle.kind != "best-move":
            st.button(t("pz_done"), key=f"{slot}_done", on_click=_finish_now, args=(slot, record),
                      use_container_width=True)
    return state


def _fallback_controls(slot: str, state: PuzzleSession, record: Recorder, deck: Deck,
                       values: bool) -> None:
    """Text choosers and Add, for a browser where the board cannot load (and AppTest)."""
    puzzle = state.puzzle
    lang = current_language()  # fixed now: AppTest formats options after the run

    def label(code: str) -> str:
        return pick_label(code, deck, values, lang)

    if puzzle.kind in ("hand", "best-move"):
        st.pills(t("pick_hand_label"), [str(c) for c in puzzle.hand], selection_mode="single",
                 format_func=label, key=f"{slot}_hand")
    st.pills(t("pz_pick_table_label"), [str(c) for c in puzzle.table], selection_mode="multi",
             format_func=label, key=f"{slot}_table")
    verb, ready = _set_label(slot, state)
    st.button(verb, key=f"{slot}_add", type="primary", on_click=_add, args=(slot, record),
              disabled=not ready, use_container_width=True)
    # The board's bar has it where the board works (on a phone's first screen).
    st.button(t("pz_hint"), key=f"{slot}_hint", on_click=_hint, args=(slot,),
              help=t("pz_hint_help"), use_container_width=True)


def _latest_said(slot: str, state: PuzzleSession, deck: Deck, answers_shown: bool,
                 last_said: str | None) -> tuple[str | None, str | None, str | None]:
    """What the board reads by itself after the child's latest action, its key (read
    once per key) and its sound, as a lesson's: the result once the puzzle is done (a
    star's sound when solved), else a hint just asked (tapping 💡 said nothing before:
    found trying it as a child), else the last try's line (a wrong sum's sound when it
    was wrong; with "sounds" on, a puzzle made none)."""
    puzzle = state.puzzle
    tries, hints = len(state.feedback), len(state.hints_given)
    key = f"said:{slot}:{puzzle.id}:{tries}:{hints}"
    seen = st.session_state.get(f"{slot}_heard")
    st.session_state[f"{slot}_heard"] = (puzzle.id, tries, hints)
    if seen is None and (tries or hints or state.result is not None):
        # This visit's first drawing of a puzzle already tried (a refresh, the page
        # opened again): its last line was said before. Said again by itself it came
        # before the goal at the next tap, as if that tap had been wrong (found trying
        # Puzzles as a child). Its 🔊 still says it.
        return None, None, None
    if state.result is not None:
        return (result_speech(state, deck, answers_shown), f"{key}:result",
                "star" if state.result.solved else None)
    if (state.hints_given and seen is not None and seen[0] == puzzle.id
            and hints > seen[2] and tries == seen[1]):
        return speakable(hint_text(puzzle, state.hints_given[-1], deck), deck=deck), key, None
    if state.feedback:  # last_said: the last try's line, already spoken for its 🔊
        return last_said, key, "wrong" if state.feedback[-1].kind == "error" else None
    return None, None, None


def result_speech(state: PuzzleSession, deck: Deck, answers_shown: bool = True) -> str:
    """The result read aloud: its heading ("Well done!") and its lines without their
    marks (what was found, what was missed when ``answers_shown``, every wrong set)."""
    return _spoken_result(*_result_parts(state, deck, answers_shown), deck)


def _spoken_result(head: str, lines: list[str], deck: Deck) -> str:
    parts = [head, *(line.split(" ", 1)[1] for line in lines)]
    # Each part a sentence of its own (a pause when read), without a second full stop.
    return speakable(" ".join(p if p.endswith((".", "!", "?", "。", "！", "？", ":")) else p + "."
                              for p in parts), deck=deck)


def show_result(state: PuzzleSession, deck: Deck, answers_shown: bool = True, *,
                spoken: str | None = None) -> None:
    """Stars, what was found, what was missed (only when ``answers_shown``), and every
    wrong set with its arithmetic; a 🔊 that reads them (``spoken``: their
    :func:`result_speech`, when the caller has it)."""
    result = state.result
    assert result is not None
    head, lines = _result_parts(state, deck, answers_shown)
    st.subheader(f"{stars_text(result.stars)} {head}", anchor=False)
    if result.hints:
        st.caption(t("pz_hints_used", count=result.hints))
    speaker_button(spoken or _spoken_result(head, lines, deck),
                   key=f"result_speaker_{state.puzzle.id}")
    st.markdown("\n".join(f"- {line}" for line in lines))


def _result_parts(state: PuzzleSession, deck: Deck, answers_shown: bool
                  ) -> tuple[str, list[str]]:
    """The heading and the marked lines ("✅ 7 + 8 = 15") of a result."""
    result = state.result
    assert result is not None
    puzzle = state.puzzle
    head = t("pz_solved") if result.solved else t("pz_not_quite")
    lines = []
    if not puzzle.solutions and result.said_none and not result.wrong:
        lines.append("✅ " + t("pz_none_right"))
    for sol in result.found:
        lines.append("✅ " + solution_text(puzzle, sol, deck))
    missed_key = "pz_best_was" if puzzle.kind == "best-move" else "pz_missed"
    for sol in result.missed if answers_shown else ():
        lines.append("🔎 " + t(missed_key, what=solution_text(puzzle, sol, deck)))
    if result.missed_none and answers_shown:
        lines.append("🔎 " + t("pz_missed_none"))
    for wrong in result.wrong:
        lines.append("❌ " + wrong_text(wrong, deck))
    if puzzle.kind == "best-move" and puzzle.ranking and (answers_shown or result.solved):
        best = puzzle.ranking[0]
        lines.append("💬 " + t("pz_best_why", why=coach_text(best.reason, dict(best.params))))
    return head, lines
