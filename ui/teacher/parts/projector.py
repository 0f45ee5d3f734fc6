"""The projector (issue 29): the class's screen at the front of the room, read from the
back of it. The class code big, the pictures of who is in (never a name), and a live
round of the kind the teacher chose (``trainer.live.LIVE_KINDS``): "find all the 15s",
a position from a real game ("which cards make 15 with this card?", "where is the sweep
risk?", "what would you play?") or a set of quick facts. The cards every tablet shows,
the answers arriving as a count, then on the teacher's tap the reveal: the right sets
drawn with their sums and how many found each, the spread of moves or cards chosen as
bars with the coach's best move and why, each quick fact's right count, and the wrong
sum most often given with its arithmetic. Nothing private: no real name, no nickname,
no child's answer (``trainer.live.LiveSummary`` holds counts only).

The round refreshes itself every :data:`REFRESH_SECONDS` (a fragment of its own: the
rest of the page is not drawn again); the refresh does not count as the teacher's
activity, so the area still locks when nobody taps.
"""

from __future__ import annotations

import html

import streamlit as st

from escoba import Card
from puzzles import LEVELS
from trainer.cards import cards_row_html
from trainer.classroom import format_code
from trainer.live import (
    LIVE_KINDS,
    POSITION_KINDS,
    QUICK_COUNT,
    Choice,
    LiveBoard,
    LiveClass,
    LiveRound,
    LiveSummary,
    RightSet,
    WrongSum,
)
from trainer.practice_sessions import quick_question

from ...board import coach_text, deck_of
from ...classroom import class_action, ct, ct_text, show_class_flash
from ...errors import friendly_fragment
from ...session import settings
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room
from ..widgets import big_line

__all__ = ["PART", "REFRESH_SECONDS"]

#: How often the projector reads the round again (the class, who is in, the round and its
#: count: a few small queries; the answers once revealed): answers show within about
#: this, whatever the class's size. One device, so 0.5 s costs little (issue 29:
#: docs/BENCHMARKS.md, "A live round on the projector").
REFRESH_SECONDS = 0.5

_BIG = "font-size:clamp(1.6rem,3.2vw,3.4rem);font-weight:700;line-height:1.2"
_MID = "font-size:clamp(1.2rem,2.2vw,2.4rem);font-weight:600;line-height:1.25"
_SMALL = "font-size:clamp(1rem,1.7vw,1.9rem);font-weight:600;line-height:1.25"
_HUGE = "font-size:clamp(2.2rem,4.6vw,5rem);font-weight:800;letter-spacing:0.08em"


def _live() -> LiveClass:
    return LiveClass(teacher_room())


@class_action
def _on_start(class_id: int) -> None:
    level = st.session_state.get("tc_live_level", LEVELS[1])
    kind = st.session_state.get("tc_live_kind", LIVE_KINDS[0])
    _live().start(class_id, int(level), kind=str(kind))


@class_action
def _on_reveal(class_id: int, round_id: int) -> None:
    _live().reveal(class_id, round_id)


@class_action
def _on_close(class_id: int, round_id: int) -> None:
    _live().close(class_id, round_id)


def _line(text: str, style: str = _BIG, testid: str = "") -> None:
    big_line(text, style, testid)


def _off_words(off: int) -> str:
    return ct_text("live.too_many", count=off) if off > 0 else ct_text("live.too_few",
                                                                         count=-off)


def _cards(cards: tuple[Card, ...], width: int, lit: tuple[Card, ...] = ()) -> str:
    return cards_row_html(cards, deck_of(), bool(settings().get("show_values", True)),
                          width=width, names=False, gap=12, lit=lit)


def _right_set(item: RightSet, width: int) -> str:
    values = " + ".join(str(c.value) for c in item.cards)
    return ("<div style='display:flex;flex-direction:column;align-items:center;gap:6px;"
            "padding:12px;border:3px solid #2E7D32;border-radius:16px' "
            "data-testid='tc-live-set'>"
            + _cards(item.cards, width)
            + f"<div style='{_BIG}'>{html.escape(f'{values} = {item.total}')}</div>"
            f"<div style='{_MID}'>"
            f"{html.escape(ct_text('live.found_by', count=item.found_by))}</div></div>")


def _wrong_line(wrong: WrongSum | None, style: str = _MID) -> None:
    if wrong is not None:
        _line(ct_text("live.common_wrong", arithmetic=wrong.arithmetic,
                      off=_off_words(wrong.off)), style, "tc-live-wrong")


def _reveal_sets(summary: LiveSummary) -> None:
    sets = "".join(_right_set(item, 72) for item in summary.sets)
    st.html("<div style='display:flex;flex-wrap:wrap;gap:16px'>" + sets + "</div>")
    _line(ct_text("live.all_right", count=summary.all_right), _MID, "tc-live-all-right")
    _wrong_line(summary.common_wrong)


def _bar(choice: Choice, most: int, cards: tuple[Card, ...], words: str) -> str:
    """One choice as a bar: its cards, a bar as long as its count (green on a right
    one, with a tick) with how many chose it beside it, and what it makes under it."""
    share = 0 if most == 0 else round(100 * choice.count / most)
    colour = "#2E7D32" if choice.right else "#78909C"
    mark = "✅ " if choice.right else ""
    chosen = html.escape(mark + ct_text("live.chosen_by", count=choice.count))
    return ("<div style='display:flex;align-items:center;gap:14px;margin:4px 0' "
            f"data-testid='tc-live-choice' data-right='{int(choice.right)}'>"
            f"<div style='flex:0 0 auto'>{_cards(cards, 40)}</div>"
            "<div style='flex:1 1 auto;min-width:0'>"
            "<div style='display:flex;align-items:center;gap:12px'>"
            f"<div style='flex:0 1 {max(share, 2) * 0.4}%;height:26px;background:{colour};"
            "border-radius:8px'></div>"
            f"<div style='{_SMALL}'>{chosen}</div></div>"
            f"<div style='font-size:clamp(1rem,1.5vw,1.7rem)'>{html.escape(words)}</div>"
            "</div></div>")


#: The most bars a best-move reveal draws (the best move's always among them): the
#: reveal fits a 1080-line screen whatever the class chose.
MAX_BARS = 5


def _reveal_best(live: LiveRound, summary: LiveSummary) -> None:
    most = max((c.count for c in summary.choices), default=0)
    shown = list(summary.choices[:MAX_BARS])
    best_bar = next((c for c in summary.choices if c.right), None)
    if best_bar is not None and best_bar not in shown:  # the best move's bar, always
        shown[-1] = best_bar
    bars = []
    for choice in shown:
        cards = (*choice.take, choice.card)
        # A capture's arithmetic (the table cards, then the card played); a lay-down none.
        words = (f"{' + '.join(str(c.value) for c in cards)} = {sum(c.value for c in cards)}"
                 if choice.take else "")
        bars.append(_bar(choice, most, cards, words))
    st.html("".join(bars))
    _line(ct_text("live.best_right", count=summary.all_right), _MID, "tc-live-all-right")
    best = live.puzzle.ranking[0] if live.puzzle.ranking else None
    if best is not None:
        _line(ct_text("live.best_why", why=coach_text(best.reason, dict(best.params))),
              _MID, "tc-live-why")


def _reveal_sweep(live: LiveRound, summary: LiveSummary) -> None:
    most = max((c.count for c in summary.choices), default=0)
    bars = []
    for choice, judged in zip(summary.choices, live.sweep, strict=True):
        words = (ct_text("live.sweep_risky", arithmetic=judged.arithmetic, need=judged.need)
                 if judged.risky and judged.need is not None
                 else ct_text("live.sweep_safe", arithmetic=judged.arithmetic))
        bars.append(_bar(choice, most, (choice.card,), words))
    st.html("".join(bars))
    _line(ct_text("live.sweep_right", count=summary.all_right), _MID, "tc-live-all-right")
    if summary.common_wrong is not None:
        _line(ct_text("live.sweep_wrong", arithmetic=summary.common_wrong.arithmetic), _MID,
              "tc-live-wrong")


def _reveal_quick(summary: LiveSummary) -> None:
    for item in summary.questions:
        text = quick_question_of(item.addends, item.answer)
        _line(f"{text} · {ct_text('live.right_count', count=item.right)}", _MID,
              "tc-live-question")
        _wrong_line(item.common_wrong, _SMALL)
    _line(ct_text("live.quick_all_right", count=summary.all_right), _MID, "tc-live-all-right")


def quick_question_of(addends: tuple[int, ...], answer: int) -> str:
    """``7 + 8 = 15``: a quick fact with its answer, digits and signs only."""
    return f"{' + '.join(map(str, addends))} + {answer} = {sum(addends) + answer}"


def _reveal(live: LiveRound, summary: LiveSummary) -> None:
    if live.kind == "best":
        _reveal_best(live, summary)
    elif live.kind == "sweep":
        _reveal_sweep(live, summary)
    elif live.kind == "quick":
        _reveal_quick(summary)
    else:
        _reveal_sets(summary)


def _group(label: str, cards: tuple[Card, ...], lit: bool, width: int) -> str:
    return (f"<div><div style='{_MID}'>{html.escape(label)}</div>"
            + _cards(cards, width, lit=cards if lit else ()) + "</div>")


def _question(live: LiveRound) -> None:
    """The round's question and what every tablet shows, big, in one screen."""
    puzzle = live.puzzle
    s = puzzle.capture_sum
    if live.kind == "quick":
        _line(ct_text("live.kind.quick", count=len(live.questions)), testid="tc-live-title")
        st.html("<div style='display:flex;flex-wrap:wrap;column-gap:1.4em'>"
                + "".join(f"<div style='{_BIG}' data-testid='tc-live-question'>"
                          f"{html.escape(quick_question(q))}</div>" for q in live.questions)
                + "</div>")
        return
    if live.kind == "fifteens":
        _line(ct_text("live.title", sum=s), testid="tc-live-title")
        st.html(_cards(puzzle.table, 130))
        return
    _line(ct_text(f"live.kind.{live.kind}", sum=s), testid="tc-live-title")
    st.caption(ct("live.from_game" if live.source == "game" else "live.from_deal"))
    # The table and the hand side by side (wrapping on a narrow screen), smaller cards
    # for a big table, so that a position fits one row of a 1920-wide screen.
    count = len(puzzle.table) + len(puzzle.hand)
    width = 96 if count <= 7 else 76 if count <= 9 else 60
    st.html("<div style='display:flex;flex-wrap:wrap;gap:12px 48px;align-items:flex-start'>"
            + _group(ct_text("live.table"), puzzle.table, False, width)
            + _group(ct_text("live.hand"), puzzle.hand, live.kind == "captures", width)
            + "</div>")


def _round(class_id: int, board: LiveBoard) -> None:
    live, summary = board.round, board.summary
    assert live is not None and summary is not None
    # Side by side, so the whole round fits a 1080-line screen under the page's header:
    # the cards and the count on the left, the reveal on the right.
    cards, answers = st.columns([3, 2], gap="large")
    with cards:
        _question(live)
        _line(ct_text("live.answers", count=summary.answered), testid="tc-live-count")
    with answers:
        if live.state == "open":
            st.button(ct("live.reveal"), key="tc_live_reveal", type="primary", icon="👀",
                      on_click=_on_reveal, args=(class_id, live.id), width="stretch")
            return
        _reveal(live, summary)
        st.button(ct("live.close"), key="tc_live_close", icon="✅", on_click=_on_close,
                  args=(class_id, live.id), width="stretch")


def _kind_label(kind: str, capture_sum: int) -> str:
    return ct_text(f"live.kind.{kind}", sum=capture_sum, count=QUICK_COUNT)


@friendly_fragment(run_every=REFRESH_SECONDS)
def _screen(class_id: int, code: str, capture_sum: int) -> None:
    show_class_flash()  # a refusal of a tap in here (the round closed in another tab)
    board = _live().board(class_id, touch=False)
    with st.container(horizontal=True, vertical_alignment="center", gap="large"):
        _line(ct_text("card.code", code=format_code(code)), _HUGE, "tc-live-code")
        if board.present:
            st.html(f"<div style='{_MID}' data-testid='tc-live-in'>"
                    f"{html.escape(ct_text('live.in', count=len(board.present)))}"
                    "<div style='font-size:clamp(1.8rem,3vw,3.4rem);display:flex;"
                    "flex-wrap:wrap;gap:0.25em' data-testid='tc-live-pictures'>"
                    + "".join(f"<span>{html.escape(p)}</span>" for p in board.present)
                    + "</div></div>")
        else:
            st.info(ct("live.nobody_in"), icon="🪧")
    if board.round is not None:
        _round(class_id, board)
        return
    with st.container(horizontal=True, vertical_alignment="bottom"):
        # Labels worded now, in the page's language (AppTest formats options after the run).
        labels = {k: _kind_label(k, capture_sum) for k in LIVE_KINDS}
        kind = st.selectbox(ct("live.kind"), LIVE_KINDS, key="tc_live_kind",
                            format_func=labels.__getitem__)
        if kind not in POSITION_KINDS:  # a position's difficulty is the game's own
            st.selectbox(ct("live.level"), LEVELS, index=1, key="tc_live_level")
        st.button(ct("live.go"), key="tc_live_start",
                  type="primary", icon="🃏", on_click=_on_start, args=(class_id,))


def show(view: OpenClass) -> None:
    st.caption(ct("live.help"))
    _screen(view.info.id, view.info.code, view.info.capture_sum)


PART = Part(key="projector", label="part.projector", render=show, presentation=True)
