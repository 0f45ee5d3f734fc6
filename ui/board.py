"""The game board: scores, opponents, what just happened, the table, your hand.

Privacy by construction: the board is drawn from one seat's
:class:`~escoba.game.Observation`. In normal mode that holds other hands only
as *counts*, so their cards are never sent to the browser (absent, not hidden
with CSS). In open-hand mode (*mesa abierta*) the observation carries every
hand and all are drawn face up.

Choosing a move uses native widgets (pills) so AppTest and a tablet's finger
drive it alike; the cards themselves are SVG drawn by :mod:`trainer.cards`.
"""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

import streamlit as st

from escoba import Card, Deck, Move, Observation, Play
from escoba.cards import cards_of
from trainer import hints as hint_mod
from trainer.cards import backs_row_html, card_img, cards_row_html, pick_label
from trainer.gameplay import GameSession
from trainer.i18n import card_name, has_key, t
from trainer.text import md_escape
from trainer.verdicts import sum_expression

from .errors import safe_callback
from .i18n import current_language
from .session import flash, settings

__all__ = ["show_board", "events_html", "deck_of"]

log = logging.getLogger(__name__)

KEY_HAND = "pick_hand"
KEY_TABLE = "pick_table"
KEY_REVEAL = "revealed_seat"


def deck_of() -> Deck:
    return Deck(settings().get("deck", "spanish"))


def _card_text(card: Card, deck: Deck) -> str:
    return card_name(card, deck)


def _cards_text(cards: Any, deck: Deck) -> str:
    return ", ".join(_card_text(c, deck) for c in sorted(cards)) or t("nothing")


def seat_label(game: GameSession, seat: int) -> str:
    spec = game.seats[seat]
    if spec.is_human:
        return f"{spec.avatar} {spec.name}"
    return f"{spec.avatar} {spec.name} ({t('level_' + spec.level)})"


def event_text(game: GameSession, event: Play, deck: Deck) -> str:
    """One line a child can follow: who did what, and what was captured."""
    return _event_line(seat_label(game, event.seat), event, deck)


def event_text_plain(event: Play, names: list[str], deck: Deck) -> str:
    """:func:`event_text` for a replayed record (names from the record)."""
    who = names[event.seat] if event.seat < len(names) else t("player_n", n=event.seat + 1)
    return _event_line(who, event, deck)


def _event_line(who: str, event: Play, deck: Deck) -> str:
    if event.kind == "initial":
        return t("event_initial", who=who, cards=_cards_text(event.take, deck))
    if event.kind == "sweep":
        return t("event_sweep", who=who, cards=_cards_text(event.take, deck))
    if event.kind == "renuncio":
        return t("event_renuncio", who=who, card=_card_text(event.card, deck),
                 cards=_cards_text(event.take, deck))
    if event.kind == "miscount":
        return t("event_miscount", who=who, card=_card_text(event.card, deck))
    if event.take:
        key = "event_escoba" if event.escoba else "event_capture"
        return t(key, who=who, card=_card_text(event.card, deck),
                 cards=_cards_text(event.take, deck))
    return t("event_laid", who=who, card=_card_text(event.card, deck))


# The board is drawn in few, large elements: every Streamlit element costs on each
# rerun, and the Play page must rerun fast after a move (docs/BENCHMARKS.md).
_BOX = ('<div style="border:1px solid rgba(128,128,128,0.35);border-radius:12px;'
        'padding:6px 12px;margin:2px 0;height:calc(100% - 4px);box-sizing:border-box">')
#: Card widths on the Play page: table and hand, the cards of "what just happened".
#: Small enough that table, hand, choosers and Play fit 1024 x 768 (a landscape tablet).
CARD_W = 62
EVENT_CARD_W = 26


def events_html(game: GameSession) -> str:
    """What happened since the child's last move, one line (and cards) per event."""
    events = game.recent
    if not events:
        return ""
    deck = deck_of()
    values = settings().get("show_values", True)
    # The computer's moves appear one after the other (a CSS animation, so the
    # rerun does not wait): only the first time these events are drawn, not
    # again when the child then taps a card.
    batch = (len(game.game.rounds), len(game.game.round.history))
    fresh = st.session_state.get("events_seen") != batch
    st.session_state["events_seen"] = batch
    parts = [_BOX, f"<b style='font-size:0.9rem'>{html.escape(t('what_happened'))}</b>"]
    step = 0
    for event in events[-8:]:
        line = html.escape(event_text(game, event, deck))
        delay = ""
        if fresh and not game.seats[event.seat].is_human:
            delay = (f"animation:escoba-in 0.5s ease-out {0.2 + 1.1 * step:.1f}s both;")
            step += 1
        # The line and its small cards in one flow (cards right after the words).
        parts.append(f'<div class="escoba-step" style="margin-top:2px;font-size:0.95rem;'
                     f'line-height:1.35;{delay}">{"🧹 " if event.escoba else "• "}{line} ')
        shown = ([event.card] if event.card is not None else []) + sorted(event.take)
        if shown:
            parts.append('<span style="display:inline-flex;gap:2px;vertical-align:middle">'
                         + "".join(card_img(c, deck, values, False, EVENT_CARD_W,
                                            card_name(c, deck))
                                   for c in shown) + "</span>")
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def _scoreboard(game: GameSession, obs: Observation, summary: str) -> str:
    """One line: the round, the cards left to deal, each side's points (compact: the
    table and the child's hand must fit a landscape tablet without scrolling)."""
    rules = game.rules
    cells = [f"<span><b>{html.escape(t('round_n', n=len(game.game.rounds)))}</b> · "
             f"{html.escape(t('stock_left', n=obs.stock_count))}</span>"]
    for side in range(rules.sides):
        cells.append(f"<span><b>{html.escape(game.side_name(side))}</b> "
                     f"<span style='font-size:1.25rem;font-weight:700'>"
                     f"{html.escape(t('points_n', n=game.game.totals[side]))}</span></span>")
    cells.append(f"<span style='opacity:0.7;font-size:0.85rem'>{html.escape(summary)}</span>")
    return ('<div style="display:flex;flex-wrap:wrap;column-gap:24px;row-gap:2px;'
            'align-items:baseline">' + "".join(cells) + "</div>")


def seat_status(cards: int, pile: int, escobas: int) -> str:
    """"3 in hand · 1 captured · 1 escoba", each count with its plural form."""
    return " · ".join((t("seat_cards", count=cards), t("seat_pile", count=pile),
                       t("seat_escobas", count=escobas)))


def _opponents(game: GameSession, obs: Observation, me: int | None) -> str:
    deck = deck_of()
    values = settings().get("show_values", True)
    boxes = []
    for seat in range(game.rules.players):
        if seat == me:
            continue
        turn = " ⬅️" if obs.to_move == seat and not obs.round_over else ""
        pile = obs.pile_masks[seat].bit_count()
        status = seat_status(obs.hand_counts[seat], pile, obs.escobas[seat])
        if obs.open_hands is not None:
            cards = cards_row_html(list(cards_of(obs.open_hands[seat])), deck, values,
                                   width=44, names=False)
        else:
            # Only the number of cards exists here: the faces were never read.
            cards = backs_row_html(obs.hand_counts[seat], width=30)
        boxes.append(f'{_BOX}<div style="display:flex;gap:10px;align-items:center;'
                     f'justify-content:space-between"><div><b>'
                     f'{html.escape(seat_label(game, seat))}</b>{turn}<br>'
                     f'<span style="opacity:0.75;font-size:0.85rem">{html.escape(status)}'
                     f"</span></div>{cards}</div></div>")
    return "".join(f'<div style="flex:1 1 180px;min-width:0">{b}</div>' for b in boxes)


#: Session-state key of the hint panel's step: (position, step), reset on every new position.
KEY_HINT_STEP = "hint_step"
_METER = ("▮▯▯", "▮▮▯", "▮▮▮")


def _position(game: GameSession) -> tuple[int | None, int, int]:
    round_ = game.game.round
    return game.game_id, len(game.game.rounds), len(round_.history) if round_ else 0


def hint_step(game: GameSession) -> int:
    """The hint's step for the position on the board (a new position starts at 1)."""
    saved = st.session_state.get(KEY_HINT_STEP)
    return saved[1] if saved and saved[0] == _position(game) else 1


@safe_callback
def _on_more_help(game: GameSession) -> None:
    step = min(hint_mod.HINT_STEPS, hint_step(game) + 1)
    st.session_state[KEY_HINT_STEP] = (_position(game), step)


def odds_text(odds: hint_mod.Odds) -> str:
    """A chance as the Settings ask: words and a meter (young children) or a percentage."""
    if settings().get("odds", "words") == "numbers" and not odds.known:
        return t("odds_percent", chance=odds.percent)
    return f"{t(odds.word_key)} {_METER[odds.level - 1]}"


def hint_line_text(line: hint_mod.HintLine, deck: Deck) -> str:
    """One hint line in the child's words: cards by name, moves in words, the coach's why."""
    shown: dict[str, Any] = {}
    for name, value in line.params.items():
        if isinstance(value, Card):
            shown[name] = _card_text(value, deck)
        elif name == "cards":
            shown[name] = _cards_text(value, deck)
        elif name == "move":
            shown[name] = move_text(value, deck)
        elif name == "why":
            shown[name] = coach_text(*value)
        elif isinstance(value, hint_mod.Odds):
            shown[name] = odds_text(value)
        else:
            shown[name] = value
    return t(line.key, **shown)


def _hint_panel(game: GameSession, obs: Observation, deck: Deck) -> hint_mod.GameHint:
    """The overlay, graduated as a tutor would: captures per card and a nudge first, then
    the cards lit, then the arithmetic and the move; sweep risks in words or numbers."""
    per_card = hint_mod.captures_per_card(obs)
    esc = html.escape
    picked = st.session_state.get(KEY_HAND)
    take = frozenset(Card.parse(k) for k in st.session_state.get(KEY_TABLE) or [])
    hint = hint_mod.game_hint(obs, hint_step(game), Card.parse(picked) if picked else None,
                              take)
    lines = [f"<b>💡 {esc(t('hints_title'))}</b><ul style='margin:4px 0'>"]
    lines += [f"<li>{esc(t('hint_card_captures', card=_card_text(c, deck), count=n))}</li>"
              for c, n in per_card.items()]
    lines.append("</ul>")
    best = [hint_line_text(line, deck) for line in hint.lines if line.kind == "best"]
    for line in hint.lines:
        if line.kind == "info":
            lines.append(f"<div>📣 {esc(hint_line_text(line, deck))}</div>")
    if best:
        lines.append(f"<div data-testid='hint-best'>⭐ <b>{esc(t('hint_best'))}</b> "
                     f"{esc(' '.join(best))}</div>")
    lines += [f'<div style="margin-top:6px;padding:6px 10px;border-radius:8px;'
              f'background:rgba(255,190,0,0.18)">⚠️ {esc(hint_line_text(line, deck))}</div>'
              for line in hint.lines if line.kind == "warn"]
    st.html(_BOX + "".join(lines) + "</div>")
    if hint.more:
        st.button(t("hint_more"), key="hint_more", type="tertiary", on_click=_on_more_help,
                  args=(game,))
    return hint


def coach_text(key: str, params: dict[str, Any]) -> str:
    """A coach message key through our catalog (unknown keys get a general line).

    The coach speaks in keys with raw parameters; here a chance 0-1 becomes a
    percentage and a card code ("7o") the card's name in the chosen deck.
    """
    shown = dict(params)
    if key == "captures" and shown.get("siete_de_oros"):
        key = "captures_siete"
    elif key == "captures":
        # "it takes 2 cards, with an oro and a seven", not "(oros: 1, sevens: 1)".
        extras = [t(f"coach_extra_{name}", count=int(shown.get(name) or 0))
                  for name in ("oros", "sevens") if int(shown.get(name) or 0) > 0]
        what = t("coach_extra_and", first=extras[0], second=extras[1]) if len(extras) == 2 \
            else (extras[0] if extras else "")
        shown["extra"] = t("coach_extra_with", what=what) if what else ""
    for counter in ("cards", "best"):  # the plural form follows the number of cards
        if isinstance(shown.get(counter), int) and "count" not in shown:
            shown["count"] = shown[counter]
    if isinstance(shown.get("chance"), float):
        shown["chance"] = round(100 * shown["chance"])
    if isinstance(shown.get("card"), str):
        with contextlib.suppress(ValueError):
            shown["card"] = card_name(Card.parse(shown["card"]), deck_of())
    for candidate in (f"coach.{key}", key):
        if has_key(candidate):
            return t(candidate, **shown)
    log.warning("untranslated coach key %s", key)
    return t("coach_generic")


def move_text(move: Any, deck: Deck) -> str:
    """A move in words: "play the 7 de oros and take ..." / "put the ... down"."""
    if move is None:
        return ""
    if move.take:
        return t("hint_best_capture", card=_card_text(move.card, deck),
                 cards=_cards_text(move.take, deck))
    return t("hint_best_lay", card=_card_text(move.card, deck))


def play_label(game: GameSession, card: Card | None, take: list[Card]) -> str:
    """The Play button's label, which carries the arithmetic of the move put together.

    One element instead of a message plus a button (fast reruns), and the sum
    sits right where the child taps. The sum and whether it captures are the
    engine's (:meth:`escoba.Move.sum_terms`, :meth:`GameSession.check`).
    """
    if card is None:
        return t("pick_a_card_first")
    if not take:
        return t("play_lay_label", card=card.value if not card.is_joker else "🃏")
    values, total, jokers = Move(card, frozenset(take)).sum_terms()
    expr = sum_expression(values)
    need = game.rules.capture_sum
    if jokers:
        return t("sum_joker", expr=expr, need=need)
    if game.check(card, take) is None:
        return t("sum_ok", expr=expr, total=total)
    return t("sum_not_yet", expr=expr, total=total, need=need)


@safe_callback
def _on_play(game: GameSession) -> None:
    hand_key = st.session_state.get(KEY_HAND)
    table_keys = st.session_state.get(KEY_TABLE) or []
    if not hand_key:
        flash("warning", "pick_a_card_first")
        return
    card = Card.parse(hand_key)
    take = [Card.parse(k) for k in table_keys]
    pause = settings().get("pause", False)
    outcome = (game.play_human(card, take) if pause
               else game.play_human_then_bots(card, take))
    if outcome.key == "penalty":
        flash("error", "penalty", **outcome.params)
    elif not outcome.ok:
        flash("error", outcome.key, **outcome.params)
    elif outcome.key == "escoba":
        flash("success", "you_escoba")
    if outcome.play is not None:
        st.session_state[KEY_HAND] = None
        st.session_state[KEY_TABLE] = []
        st.session_state.pop(KEY_REVEAL, None)


@safe_callback
def _on_renuncio(game: GameSession) -> None:
    outcome = game.claim_renuncio()
    flash("success" if outcome.ok else "warning", outcome.key, **outcome.params)
    st.session_state[KEY_TABLE] = []


@safe_callback
def _on_bot_step(game: GameSession) -> None:
    game.bot_step()


@safe_callback
def _on_reveal(seat: int) -> None:
    st.session_state[KEY_REVEAL] = seat


def viewer_seat(game: GameSession) -> tuple[int | None, bool]:
    """Whose view the board shows, and whether that seat's hand may be shown.

    One child: always that child. Several children on one device: the child
    to move, once they tapped "I'm Ana — show my cards" (open hand: at once).
    """
    humans = game.human_seats
    if len(humans) == 1:
        return humans[0], True
    to_move = game.to_move if not game.round_over else None
    seat = to_move if to_move in humans else None
    if seat is None:
        if to_move is not None and st.session_state.get(KEY_REVEAL) in humans:
            # A computer's turn (paused): the child who showed their cards last
            # keeps seeing them, until the turn passes to another child.
            return st.session_state[KEY_REVEAL], True
        return (humans[0] if game.rules.open_hand else None), game.rules.open_hand
    if game.rules.open_hand:
        return seat, True
    return seat, st.session_state.get(KEY_REVEAL) == seat


def show_board(game: GameSession) -> None:
    """The whole board for the current position (round in play or just over)."""
    deck = deck_of()
    values = settings().get("show_values", True)
    me, reveal = viewer_seat(game)
    view_seat = me if me is not None else game.human_seats[0]
    obs = game.observation(view_seat)
    if not reveal:
        # Never draw this seat's hand: use an observation only for public facts.
        obs = obs._replace(hand_mask=0)

    # Everything that is only looked at goes into one element (fast reruns).
    rules = game.rules
    summary = t("rules_summary", preset=t("preset_" + rules.preset_name), target=rules.target,
                sum=rules.capture_sum,
                mode=t("open_hand") if rules.open_hand else t("closed_hand"))
    if rules.capture_rule == "renuncio":
        summary += " · " + t("rules_renuncio")
    # Opponents and "what just happened" side by side: one band, not two.
    events = events_html(game)
    band = _opponents(game, obs, me if reveal else None) + (
        f'<div style="flex:2 1 260px;min-width:0">{events}</div>' if events else "")
    parts = [_scoreboard(game, obs, summary),
             f'<div style="display:flex;flex-wrap:wrap;gap:8px;align-items:stretch">{band}'
             f"</div>"]
    in_play = not game.round_over and game.seats[game.to_move].is_human and reveal
    chosen = _chosen_card(obs) if in_play else None
    # From the hint's second step on, the cards of the move it points at glow.
    lit = (hint_mod.game_hint(obs, hint_step(game)).lit
           if in_play and settings().get("hints", True) and hint_step(game) >= 2 else ())
    # The table and the child's hand side by side (one under the other when the
    # screen is narrow): on a landscape tablet the choosers and Play fit below.
    table = (f"<div style='margin:6px 0 0'><b style='font-size:1.15rem'>"
             f"{html.escape(t('table_title'))}</b> <span style='opacity:0.75'>· "
             f"{html.escape(t('table_total', total=sum(c.value for c in obs.table)))}"
             f"</span></div>")
    if obs.table:
        table += cards_row_html(obs.table, deck, values, width=CARD_W, names=False, gap=4,
                                selected=[Card.parse(k)
                                          for k in st.session_state.get(KEY_TABLE) or []],
                                lit=lit)
    else:
        table += f"<p>{html.escape(t('table_empty'))}</p>"
    row = [f'<div style="flex:1 1 300px;min-width:0">{table}</div>']
    # The hand shows whenever its owner may see it: on their turn, and while
    # waiting for the computer's (paused) turn.
    if reveal and me is not None and not game.round_over:
        row.append(f"<div style='flex:0 1 auto;min-width:0'>"
                   f"<div style='margin:6px 0 0'><b style='font-size:1.15rem'>"
                   f"{html.escape(t('your_hand', name=game.seats[obs.seat].name))}</b></div>"
                   + cards_row_html(obs.hand, deck, values, width=CARD_W, names=False,
                                    gap=4, selected=[chosen] if chosen else [], lit=lit)
                   + "</div>")
    parts.append('<div style="display:flex;flex-wrap:wrap;column-gap:28px;row-gap:0">'
                 + "".join(row) + "</div>")
    st.html("".join(parts))

    if game.round_over:
        return

    to_move = game.to_move
    if not game.seats[to_move].is_human:
        name = seat_label(game, to_move)
        if settings().get("pause", False):
            st.button(t("let_bot_play", name=md_escape(name)), key="bot_step", type="primary",
                      on_click=_on_bot_step, args=(game,), use_container_width=True)
        else:
            # Without the pause the computer plays at once (this is a safety net).
            game.run_bots()
            st.rerun()
        return

    if not reveal:
        name = md_escape(game.seats[to_move].name)
        st.info(t("pass_device", name=name), icon="🤝")
        st.button(t("show_my_cards", name=name), key=f"reveal_{to_move}", type="primary",
                  on_click=_on_reveal, args=(to_move,), use_container_width=True)
        return

    _hand_and_controls(game, obs, deck, values, chosen)


def _chosen_card(obs: Observation) -> Card | None:
    """The hand card picked in the pills (forgotten when it left the hand)."""
    hand_pick = st.session_state.get(KEY_HAND)
    chosen = Card.parse(hand_pick) if hand_pick else None
    if chosen is not None and chosen not in obs.hand:
        st.session_state[KEY_HAND] = None
        chosen = None
    return chosen


def _hand_and_controls(game: GameSession, obs: Observation, deck: Deck, values: bool,
                       chosen: Card | None) -> None:
    if settings().get("hints", True):
        _hint_panel(game, obs, deck)

    lang = current_language()  # fixed now: AppTest formats options after the run

    def label(key: str) -> str:
        return pick_label(key, deck, values, lang)

    table_keys = [str(c) for c in obs.table]
    current_take = [k for k in (st.session_state.get(KEY_TABLE) or []) if k in table_keys]
    if current_take != (st.session_state.get(KEY_TABLE) or []):
        st.session_state[KEY_TABLE] = current_take
    st.pills(t("pick_hand_label"), [str(c) for c in obs.hand], selection_mode="single",
             format_func=label, key=KEY_HAND)
    if table_keys:
        st.pills(t("pick_table_label"), table_keys, selection_mode="multi",
                 format_func=label, key=KEY_TABLE)
    take = [Card.parse(k) for k in st.session_state.get(KEY_TABLE) or []]

    verb = play_label(game, chosen, take)
    # ¡Renuncio! appears when it can be called: the last card was laid down
    # although it could have captured (renuncio rule only).
    if not obs.renuncio_claims():
        st.button(verb, key="play_button", type="primary", on_click=_on_play, args=(game,),
                  use_container_width=True, disabled=chosen is None)
        return
    with st.container(horizontal=True, key="move_buttons"):
        st.button(verb, key="play_button", type="primary", on_click=_on_play, args=(game,),
                  use_container_width=True, disabled=chosen is None)
        st.button(t("renuncio_button"), key="renuncio_button", on_click=_on_renuncio,
                  args=(game,), use_container_width=True, help=t("renuncio_help"))
