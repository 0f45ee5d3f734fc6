"""The projector (issue 29): the class's screen at the front of the room, read from the
back of it. The class code big, the pictures of who is in (never a name), and a live
round of the kind the teacher chose (``trainer.live.LIVE_KINDS``): "find all the 15s",
a position from a real game ("which cards make 15 with this card?", "where is the sweep
risk?", "what would you play?") or a set of quick facts. The cards every tablet shows,
the answers arriving as a count, then on the teacher's tap the reveal: the right sets
drawn with their sums and how many found each, the spread of moves or cards chosen as
bars with the coach's best move and why (said to the class: "we take 3 cards"), each
quick fact on a line of its own with its right count, and the wrong sum most often
given with its arithmetic and how many gave it, when two pupils or more gave it
(``trainer.live.MIN_WRONG_GIVERS``). A round nobody answered says so and shows the
answer without counts. Nothing private: no real name, no nickname, no child's answer
(``trainer.live.LiveSummary`` holds counts only).

The cards are sized by the screen (:data:`CARD_SIZE`): about 160 px tall on a 1920 × 1080
projector, read from the back of the room; a "find all the 15s" table, alone on the
screen, as big as its number of cards lets them (:func:`table_card_size`).
Starting a round and counting its answers take a few seconds: a line says so while they
run (the tap only asks; the screen's run does the work under that line).

The round refreshes itself every :data:`REFRESH_SECONDS` (a fragment of its own: the
rest of the page is not drawn again); the refresh does not count as the teacher's
activity, so the area still locks when nobody taps.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import streamlit as st

from escoba import Card
from puzzles import LEVELS
from puzzles.practice import quick_question_text
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
from trainer.words import card_text

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
#: The class code while a round is on: still read from the back (a late pupil joins),
#: smaller, so that the round's cards and the reveal fit one screen.
_CODE_IN_ROUND = "font-size:clamp(1.6rem,3vw,3.4rem);font-weight:800;letter-spacing:0.08em"

#: A card of the board on the projector (the round's position, a right set of the
#: reveal), as a CSS width: about 108 × 162 px at 1920 × 1080 and 77 × 115 at 1366 × 768,
#: so that a table of 8 cards and the card played fit one line, and the round one screen.
CARD_SIZE = "min(6.2vw, 10vh)"
#: The tallest card of a "find all the 15s" table: 17vh wide, about 184 × 276 px at
#: 1920 × 1080 and 130 × 196 at 1366 × 768 (the round still one screen).
TABLE_CARD_MAX = "17vh"


def table_card_size(count: int) -> str:
    """A card of a "find all the 15s" table of ``count`` cards, as a CSS width: as big
    as the screen's width shares out among them (a gap and margins each), at most
    :data:`TABLE_CARD_MAX`: five cards no longer fill a third of the screen's width."""
    return f"min({TABLE_CARD_MAX}, calc((100vw - 6rem) / {max(count, 1)} - 20px))"


#: A card of a choice of the reveal (a move, a hand card), and of a reveal's many sets.
SMALL_CARD_SIZE = "min(4vw, 6.4vh)"
#: More cards than this in a reveal's right sets: drawn at :data:`SMALL_CARD_SIZE`.
MAX_BIG_SET_CARDS = 10
#: The session's key of the work a tap asked for (start a round, reveal it), done by the
#: screen's next run under a line saying so.
ASKED = "tc_live_asked"


def _live() -> LiveClass:
    return LiveClass(teacher_room())


@class_action
def _ask_start(class_id: int) -> None:
    """The start button's callback: the round is made by the screen's run, under a
    "working" line (a position from the class's games takes seconds to find)."""
    level = st.session_state.get("tc_live_level", LEVELS[1])
    kind = st.session_state.get("tc_live_kind", LIVE_KINDS[0])
    st.session_state[ASKED] = ("start", class_id, str(kind), int(level))


@class_action
def _ask_reveal(class_id: int, round_id: int) -> None:
    """The reveal button's callback: the answers are read and judged by the screen's run,
    under a "working" line."""
    st.session_state[ASKED] = ("reveal", class_id, round_id)


@class_action
def _start(class_id: int, kind: str, level: int) -> None:
    _live().start(class_id, level, kind=kind)


@class_action
def _reveal_round(class_id: int, round_id: int) -> None:
    _live().reveal(class_id, round_id)


def _do_asked() -> bool:
    """The work a tap asked for, if any, under a line that says what it is doing, drawn
    before the work starts (``st.spinner`` waits half a second before it shows, and the
    projector has no Streamlit header showing that the app is busy); whether there was
    some."""
    asked = st.session_state.pop(ASKED, None)
    if not isinstance(asked, tuple) or not asked:
        return False
    action, *args = asked
    working = st.empty()
    working.html(f"<div style='{_MID};display:flex;align-items:center;gap:0.5em' "
                 f"data-testid='tc-live-working'><span>⏳</span>"
                 f"{html.escape(ct_text(f'live.working_{action}'))}</div>")
    (_start if action == "start" else _reveal_round)(*args)
    working.empty()
    return True


@class_action
def _on_close(class_id: int, round_id: int) -> None:
    _live().close(class_id, round_id)


def _line(text: str, style: str = _BIG, testid: str = "") -> None:
    big_line(text, style, testid)


def _off_words(off: int) -> str:
    return ct_text("live.too_many", count=off) if off > 0 else ct_text("live.too_few",
                                                                         count=-off)


def _cards(cards: tuple[Card, ...], size: str = CARD_SIZE, lit: tuple[Card, ...] = ()) -> str:
    return cards_row_html(cards, deck_of(), bool(settings().get("show_values", True)),
                          width=96, names=False, gap=12, lit=lit, size=size)


def _right_set(item: RightSet, many: bool, counted: bool) -> str:
    """A right set: its cards, its sum and (``counted``) how many found it; smaller
    when the round has ``many`` sets (they all fit one screen)."""
    values = " + ".join(str(c.value) for c in item.cards)
    found = (f"<div style='{_SMALL if many else _MID}'>"
             f"{html.escape(ct_text('live.found_by', count=item.found_by))}</div>"
             if counted else "")
    return ("<div style='display:flex;flex-direction:column;align-items:center;gap:4px;"
            f"padding:{8 if many else 12}px;border:3px solid #2E7D32;border-radius:16px' "
            "data-testid='tc-live-set'>"
            + _cards(item.cards, SMALL_CARD_SIZE if many else CARD_SIZE)
            + f"<div style='{_MID if many else _BIG}'>"
            f"{html.escape(f'{values} = {item.total}')}</div>"
            + found + "</div>")


def _wrong_words(wrong: WrongSum) -> str:
    """"3 said 8 + 8 = 16: one too many." (a summary carries a wrong sum only when two
    pupils or more gave it)."""
    return ct_text("live.wrong_said", count=wrong.count, arithmetic=wrong.arithmetic,
                   off=_off_words(wrong.off))


def _nobody(summary: LiveSummary) -> bool:
    """Whether nobody answered: said so, and the answer is shown without counts."""
    if summary.answered:
        return False
    _line(ct_text("live.nobody_answered"), _MID, "tc-live-nobody")
    return True


def _reveal_sets(summary: LiveSummary) -> None:
    nobody = _nobody(summary)
    many = sum(len(s.cards) for s in summary.sets) > MAX_BIG_SET_CARDS
    sets = "".join(_right_set(item, many, not nobody) for item in summary.sets)
    st.html(f"<div style='display:flex;flex-wrap:wrap;gap:{10 if many else 16}px'>" + sets
            + "</div>")
    if nobody:
        return
    _line(ct_text("live.all_right", count=summary.all_right), _MID, "tc-live-all-right")
    if summary.common_wrong is not None:
        _line(_wrong_words(summary.common_wrong), _MID, "tc-live-wrong")


#: The height of a choice's bar area: the tallest bar (the choice most chosen) and its count.
_BAR_AREA = "13vh"


def _bar(choice: Choice, most: int, cards: tuple[Card, ...], words: str, size: str,
         counted: bool = True) -> str:
    """One choice as a column: how many chose it over a bar as tall as its count (green
    on a right one, with a tick), its cards under them, and what it makes under those.
    The bars of every choice rise from one line, so the class compares them at a glance.
    Not ``counted`` (nobody answered): the cards and the words only."""
    bar = _bar_of(choice.count, most, choice.right) if counted else ""
    return ("<div style='display:flex;flex-direction:column;align-items:center;gap:8px;"
            "min-width:14vw;max-width:30vw;padding:0 8px' "
            f"data-testid='tc-live-choice' data-right='{int(choice.right)}'>"
            + bar + _cards(cards, size)
            + f"<div style='{_SMALL};text-align:center'>{html.escape(words)}</div></div>")


def _bar_of(count: int, most: int, right: bool, label: str = "") -> str:
    """How many chose it (``label``, else "chosen by N") over a bar as tall as the count."""
    share = 0 if most == 0 else count / most
    colour = "#2E7D32" if right else "#78909C"
    mark = "✅ " if right else ""
    chosen = html.escape(mark + (label or ct_text("live.chosen_by", count=count)))
    return (f"<div style='height:{_BAR_AREA};display:flex;flex-direction:column;"
            "justify-content:flex-end;align-items:center;gap:4px;width:100%'>"
            f"<div style='{_SMALL};white-space:nowrap'>{chosen}</div>"
            f"<div style='width:5vw;height:calc(({_BAR_AREA} - 2.8rem) * {share:.3f});"
            f"min-height:6px;background:{colour};border-radius:8px 8px 0 0'></div></div>")


def _others_bar(summary: LiveSummary, most: int, key: str) -> list[str]:
    """The wrong choices fewer than ``MIN_WRONG_GIVERS`` pupils made, as one grey bar
    with no cards ("other moves: 2"): none when nobody made one."""
    if not summary.others:
        return []
    return ["<div style='display:flex;flex-direction:column;align-items:center;gap:8px;"
            "min-width:14vw;padding:0 8px' data-testid='tc-live-others'>"
            + _bar_of(summary.others, most, False, ct_text(key, count=summary.others))
            + "</div>"]


#: More cards than this in a reveal's choices: drawn at :data:`SMALL_CARD_SIZE` (the
#: choices stay on one line of a 1920-wide screen).
MAX_BIG_CHOICE_CARDS = 9


def _choice_size(cards_per_choice: Iterable[int]) -> str:
    return CARD_SIZE if sum(cards_per_choice) <= MAX_BIG_CHOICE_CARDS else SMALL_CARD_SIZE


def _choices(bars: list[str]) -> None:
    st.html("<div style='display:flex;flex-wrap:wrap;gap:20px 28px;align-items:flex-start'>"
            + "".join(bars) + "</div>")


#: The most bars a best-move reveal draws (the best move's always among them): the
#: reveal fits a 1080-line screen whatever the class chose.
MAX_BARS = 5


def _move_words(choice: Choice) -> str:
    """A capture's arithmetic (the table cards, then the card played: "2 + 3 + 10 = 15"),
    or a lay-down in words ("lay down the 5 de oros")."""
    if not choice.take:
        return ct_text("live.lay_down", card=card_text(choice.card, deck_of()))
    cards = (*choice.take, choice.card)
    return f"{' + '.join(str(c.value) for c in cards)} = {sum(c.value for c in cards)}"


def _reveal_best(live: LiveRound, summary: LiveSummary) -> None:
    nobody = _nobody(summary)
    most = max((summary.others, *(c.count for c in summary.choices)))
    shown = list(summary.choices[:MAX_BARS - bool(summary.others)])
    best_bar = next((c for c in summary.choices if c.right), None)
    if best_bar is not None and best_bar not in shown:  # the best move's bar, always
        shown[-1] = best_bar
    if nobody:  # no spread to draw: the coach's move alone
        shown = [c for c in shown if c.right]
    size = _choice_size(len(c.take) + 1 for c in shown)
    _choices([_bar(choice, most, (*choice.take, choice.card), _move_words(choice), size,
                   not nobody) for choice in shown]
             + _others_bar(summary, most, "live.other_moves"))
    if not nobody:
        _line(ct_text("live.best_right", count=summary.all_right), _MID, "tc-live-all-right")
    best = live.puzzle.ranking[0] if live.puzzle.ranking else None
    if best is not None:  # said to the whole class: "we take 3 cards", not "you take"
        why = coach_text(best.reason, dict(best.params), voice="class")
        _line(ct_text("live.best_why", why=why), _MID, "tc-live-why")


def _reveal_sweep(live: LiveRound, summary: LiveSummary) -> None:
    nobody = _nobody(summary)
    most = max((summary.others, *(c.count for c in summary.choices)))
    judgements = {c.card: c for c in live.sweep}
    bars = []
    for choice in summary.choices:
        judged = judgements[choice.card]
        if nobody and not choice.right:  # no spread to draw: the risky card alone
            continue
        words = (ct_text("live.sweep_risky", arithmetic=judged.arithmetic, need=judged.need)
                 if judged.risky and judged.need is not None
                 else ct_text("live.sweep_safe", arithmetic=judged.arithmetic))
        bars.append(_bar(choice, most, (choice.card,), words, CARD_SIZE, not nobody))
    _choices(bars + _others_bar(summary, most, "live.other_cards"))
    if nobody:
        return
    _line(ct_text("live.sweep_right", count=summary.all_right), _MID, "tc-live-all-right")
    if summary.common_wrong is not None:
        _line(ct_text("live.sweep_wrong_said", count=summary.common_wrong.count,
                      arithmetic=summary.common_wrong.arithmetic), _MID, "tc-live-wrong")


def _reveal_quick(summary: LiveSummary) -> None:
    """One fact a line, big: the fact with its answer, how many got it right, and the
    wrong answer two pupils or more gave to it."""
    nobody = _nobody(summary)
    rows = []
    for item in summary.questions:
        cells = [f"<td style='{_BIG};padding:4px 1.2em 4px 0;white-space:nowrap'>"
                 f"{html.escape(quick_question_of(item.addends, item.answer))}</td>"]
        if not nobody:
            right = ct_text("live.right_count", count=item.right)
            wrong = _wrong_words(item.common_wrong) if item.common_wrong is not None else ""
            cells.append(f"<td style='{_MID};padding:4px 1.2em 4px 0;white-space:nowrap'>"
                         f"{html.escape(right)}</td>")
            cells.append(f"<td style='{_SMALL};padding:4px 0' data-testid='tc-live-wrong'>"
                         f"{html.escape(wrong)}</td>" if wrong else "<td></td>")
        rows.append("<tr data-testid='tc-live-question'>" + "".join(cells) + "</tr>")
    st.html("<table style='border-collapse:collapse;border:none'>" + "".join(rows)
            + "</table>")
    if not nobody:
        _line(ct_text("live.quick_all_right", count=summary.all_right), _MID,
              "tc-live-all-right")


def quick_question_of(addends: tuple[int, ...], answer: int) -> str:
    """``7 + 8 = 15``: a quick fact with its answer, digits and signs only."""
    return quick_question_text(addends, sum(addends) + answer, answer)


def _reveal(live: LiveRound, summary: LiveSummary) -> None:
    if live.kind == "best":
        _reveal_best(live, summary)
    elif live.kind == "sweep":
        _reveal_sweep(live, summary)
    elif live.kind == "quick":
        _reveal_quick(summary)
    else:
        _reveal_sets(summary)


def _group(label: str, cards: tuple[Card, ...], lit: bool) -> str:
    return (f"<div><div style='{_MID}'>{html.escape(label)}</div>"
            + _cards(cards, lit=cards if lit else ()) + "</div>")


def _title(live: LiveRound) -> None:
    """The round's question, big."""
    s = live.puzzle.capture_sum
    if live.kind == "quick":
        _line(ct_text("live.kind.quick", count=len(live.questions)), testid="tc-live-title")
    elif live.kind == "fifteens":
        _line(ct_text("live.title", sum=s), testid="tc-live-title")
    else:
        _line(ct_text(f"live.kind.{live.kind}", sum=s), testid="tc-live-title")


def _question(live: LiveRound) -> None:
    """The round's question and what every tablet shows, big, in one screen."""
    puzzle = live.puzzle
    _title(live)
    if live.kind == "quick":  # one fact a line, as the tablets ask them
        st.html("".join(f"<div style='{_BIG}' data-testid='tc-live-question'>"
                        f"{html.escape(quick_question(q))}</div>" for q in live.questions))
        return
    if live.kind == "fifteens":  # the table alone: its cards grow to the screen
        st.html(_cards(puzzle.table, table_card_size(len(puzzle.table))))
        return
    st.caption(ct("live.from_game" if live.source == "game" else "live.from_deal"))
    # The table and the hand side by side (the hand wraps under a long table).
    st.html("<div style='display:flex;flex-wrap:wrap;gap:12px 48px;align-items:flex-start'>"
            + _group(ct_text("live.table"), puzzle.table, False)
            + _group(ct_text("live.hand"), puzzle.hand, live.kind == "captures")
            + "</div>")


def _round(class_id: int, board: LiveBoard) -> None:
    live, summary = board.round, board.summary
    assert live is not None and summary is not None
    if live.state == "open":
        # The whole width for the cards; the count and the reveal's button under them.
        _question(live)
        with st.container(horizontal=True, vertical_alignment="center", gap="large"):
            _line(ct_text("live.answers", count=summary.answered), testid="tc-live-count")
            st.button(ct("live.reveal"), key="tc_live_reveal", type="primary", icon="👀",
                      on_click=_ask_reveal, args=(class_id, live.id))
        return
    # Revealed: the question, then the answers over the whole width (the right sets and
    # the moves chosen carry their cards).
    with st.container(horizontal=True, vertical_alignment="center", gap="large"):
        _title(live)
        _line(ct_text("live.answers", count=summary.answered), _MID, "tc-live-count")
    _reveal(live, summary)
    st.button(ct("live.close"), key="tc_live_close", icon="✅", on_click=_on_close,
              args=(class_id, live.id))


def _kind_label(kind: str, capture_sum: int) -> str:
    return ct_text(f"live.kind.{kind}", sum=capture_sum, count=QUICK_COUNT)


@friendly_fragment(run_every=REFRESH_SECONDS)
def _screen(class_id: int, code: str, capture_sum: int) -> None:
    show_class_flash()  # a refusal of a tap in here (the round closed in another tab)
    board = _live().board(class_id, touch=False)
    present = board.present
    with st.container(horizontal=True, vertical_alignment="center", gap="large"):
        _line(ct_text("card.code", code=format_code(code)),
              _HUGE if board.round is None else _CODE_IN_ROUND, "tc-live-code")
        if present:
            st.html(f"<div style='{_MID}' data-testid='tc-live-in'>"
                    f"{html.escape(ct_text('live.in', count=len(present)))}"
                    "<div style='font-size:clamp(1.8rem,3vw,3.4rem);display:flex;"
                    "flex-wrap:wrap;gap:0.25em' data-testid='tc-live-pictures'>"
                    + "".join(f"<span>{html.escape(p)}</span>" for p in present)
                    + "</div></div>")
        else:
            st.info(ct("live.nobody_in"), icon="🪧")
    if _do_asked():  # a round to start or to reveal: the screen as it is now
        show_class_flash()
        board = _live().board(class_id, touch=False)
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
                  type="primary", icon="🃏", on_click=_ask_start, args=(class_id,))


def show(view: OpenClass) -> None:
    st.caption(ct("live.help"))
    _screen(view.info.id, view.info.code, view.info.capture_sum)


PART = Part(key="projector", label="part.projector", render=show, presentation=True)
