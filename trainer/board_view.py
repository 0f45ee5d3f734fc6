"""What the tappable board draws, and what it may send back: no Streamlit here.

The board (``ui/board_component.py`` over ``ui/board_assets/``) is a browser
component: the child taps cards, the selection and its running arithmetic
show at once without a server round trip, and Play sends one action. This
module builds the component's *data* (a JSON-safe dict) and reads its
*actions*, so both are tested directly:

- **Only what the player may see.** A game's board is built from one seat's
  :class:`~escoba.observation.Observation`: opponents' hands are counts (faces only
  in open-hand games, where the observation carries them), and the viewer's
  own hand only when that child may look. Hidden cards are absent from the
  data, not hidden by CSS.
- **The engine stays the only judge.** The board's ✓ comes from the engine's
  list of legal moves (``moves``), sent with each position; a move the child
  plays is judged again by the engine on the server. An action from the
  browser is validated here (:func:`read_action`): a malformed or forged
  selection is refused with a catalog key, a stale one (an older position)
  is ignored, and a well-formed one goes to the engine, which explains any
  refusal in its own codes.
- **Text comes translated.** Names, accessible names and the readout's
  templates are in the child's language; the component only fills in
  ``{expr}``, ``{total}``, ``{more}``, ``{need}`` and ``{card}``.

A payload has this shape (``kind`` is ``game``, ``puzzle`` or ``lesson``)::

    {"kind", "position", "need", "faces": {id: {"svg", "name", "aria", "value"}},
     "table": [id], "hand": [id], "select": {"hand": "single"|"fixed"|"none",
     "table": "multi"|"none", "fixed": id|None, "min_values": int, "lay": bool},
     "moves": {move_key: {"warn": str|None}} | None, "hints": {...},
     "seats": [...], "me": {...} | None, "events": [...], "header": {...} | None,
     "texts": {...}, "buttons": {...}, "game_key": str, "ready": bool}
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from escoba import Card, Deck, Move, Observation, Rules, coach
from escoba.cards import cards_of
from escoba.variants import variant_for
from puzzles import Puzzle
from puzzles.model import ONE_CARD_KINDS

from . import hints as hint_mod
from .cards import back_svg, card_svg
from .gameplay import GameSession
from .i18n import card_name, t
from .rules_text import chip_texts, rules_in_force
from .verdicts import capture_terms, sum_expression
from .words import event_line, hint_line_text, odds_text, seat_label, seat_status, sweep_word_key

__all__ = ["BoardAction", "BoardRefusal", "read_action", "move_key", "card_faces",
           "game_board", "session_board", "session_position", "puzzle_board",
           "game_position", "puzzle_position", "SeatView", "ACTION_KINDS", "MAX_TAKE"]

#: The actions a board can send: a move (``play``), a puzzle's set (``add``), ¡renuncio!,
#: a lesson's single tap on a card (``tap``: "tap the card worth 8"), and ``advance``:
#: "on to the next level" after a finished level was played out (``ui.celebrate``), and
#: a puzzle's ``hint`` (its button in the board's bar).
ACTION_KINDS = ("play", "add", "renuncio", "tap", "advance", "hint")
#: A selection never holds more table cards than a deck has cards.
MAX_TAKE = 42
#: A card code as the board sends it ("7o", "10b", "J1"): short ASCII, checked again by
#: Card.parse.
_CODE = re.compile(r"[0-9A-Za-z]{1,3}")
_POSITION = re.compile(r"[0-9A-Za-z:._-]{1,80}")
#: Card widths the board is drawn at (CSS pixels, height 1.5x); CSS scales them on phones.
CARD_W = 72


@dataclass(frozen=True)
class BoardAction:
    """A well-formed action from the board, for the current position: the engine (or the
    puzzle's checker) judges it next."""

    kind: str
    card: Card | None = None
    take: tuple[Card, ...] = ()
    #: How long the board of this position was on screen before the action (the
    #: browser's own clock; None when it did not say or said nonsense).
    seconds: float | None = None


@dataclass(frozen=True)
class BoardRefusal:
    """An action refused before it reached the engine: ``key`` is a catalog key.

    ``stale`` actions come from a board drawn for an older position (a second tab, a
    double tap): they change nothing and say so quietly.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def stale(self) -> bool:
        return self.key == "board_stale"


def move_key(card: Card | str, take: Iterable[Card | str]) -> str:
    """The board's name of a move: ``"7o|3c.5e"`` (table cards in card order)."""
    cards = sorted(c if isinstance(c, Card) else Card.parse(c) for c in take)
    return f"{card}|" + ".".join(str(c) for c in cards)


def _card(code: Any) -> Card | None:
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        return None
    try:
        return Card.parse(code)
    except ValueError:
        return None


def read_action(raw: Any, position: str, *, kinds: Sequence[str] = ACTION_KINDS
                ) -> BoardAction | BoardRefusal:
    """The action the browser sent, checked for shape and position (not for the rules).

    ``raw`` is whatever arrived (anything: it came over the network). A selection
    naming no real card, a card twice, a kind this board does not offer, or too many
    cards is refused (``board_bad_selection``); an action for another position is
    ``board_stale``. Whether the cards are in the hand or on the table, and whether
    they make the sum, is the engine's to say.
    """
    bad = BoardRefusal("board_bad_selection")
    if not isinstance(raw, Mapping):
        return bad
    sent_position = raw.get("position")
    if not isinstance(sent_position, str) or not _POSITION.fullmatch(sent_position):
        return bad
    kind = raw.get("kind")
    if kind not in kinds:
        return bad
    if sent_position != position:
        return BoardRefusal("board_stale")
    if kind in ("advance", "hint"):  # nothing chosen: a level's next step, a puzzle's hint
        return BoardAction(kind)
    card_code = None if kind == "renuncio" else raw.get("card")
    card = None if card_code is None else _card(card_code)
    if card_code is not None and card is None:
        return bad
    take_raw = raw.get("take", [])
    if not isinstance(take_raw, list) or len(take_raw) > MAX_TAKE:
        return bad
    take = [_card(code) for code in take_raw]
    if any(c is None for c in take):
        return bad
    chosen = [c for c in take if c is not None]
    if len(set(chosen)) != len(chosen) or (card is not None and card in chosen):
        return bad
    if kind in ("play", "tap") and card is None:
        return bad
    if kind == "tap" and chosen:
        return bad
    if kind == "renuncio":  # the set the claimer chose (issue 26); none: let them be asked
        return BoardAction("renuncio", None, tuple(sorted(chosen)))
    return BoardAction(kind, card, tuple(sorted(chosen)), _seconds(raw.get("think_ms")))


def _seconds(think_ms: Any) -> float | None:
    """A time the browser reported, in seconds, if it is a plausible one (under an hour)."""
    if isinstance(think_ms, bool) or not isinstance(think_ms, int | float):
        return None
    if not 0 <= think_ms <= 3_600_000:  # also refuses NaN
        return None
    return round(float(think_ms) / 1000, 3)


# -- faces -------------------------------------------------------------------------------

def _aria(card: Card, deck: Deck, show_value: bool) -> str:
    """The accessible name a screen reader says: "Caballo de copas, 9"."""
    name = card_name(card, deck)
    if card.is_joker or not show_value:
        return name
    return t("board_card_aria", name=name, value=card.value)


def card_faces(cards: Iterable[Card], deck: Deck, show_value: bool) -> dict[str, dict[str, Any]]:
    """Each card's picture, name and accessible name, once per card (deduplicated)."""
    faces: dict[str, dict[str, Any]] = {}
    for card in cards:
        code = str(card)
        if code in faces:
            continue
        name = card_name(card, deck)
        faces[code] = {"svg": card_svg(card, deck, show_value, False, CARD_W, name),
                       "name": name, "aria": _aria(card, deck, show_value),
                       "value": None if card.is_joker else card.value}
    return faces


def _texts(need: int | str, cheer_key: str = "board_escoba_cheer") -> dict[str, str]:
    """The readout's templates; the component fills in the placeholders (Scopa's
    ``need`` too: "{need}", the value of the card the child picks)."""
    keep = {"expr": "{expr}", "total": "{total}", "more": "{more}", "over": "{over}",
            "need": need, "card": "{card}", "count": "{count}"}
    return {
        "pick_card": t("board_pick_card"),
        "pick_table": t("board_pick_table", need=need),
        "pick_equal": t("board_pick_equal", need=need),
        "need_more": t("board_need_more", **keep),
        "made": t("board_made", **keep),
        "made_check": t("board_made_check", **keep),
        "too_much": t("board_too_much", **keep),
        "joker": t("board_joker", **keep),
        "lay": t("board_lay", **keep),
        "table_label": t("table_title"),
        "suggested": t("board_suggested"),
        "escoba": t(cheer_key),
        "ace_all": t("ace_takes_all"),
        "ace_pick": t("board_ace_pick"),
        "what_happened": t("what_happened"),
        "table_empty": t("table_empty"),
    }


# -- a game ------------------------------------------------------------------------------

def game_position(game_id: int | None, rounds: int, moves: int, to_move: int) -> str:
    """The position a game's board is drawn for: an action from another is stale."""
    return f"g{game_id or 0}:{rounds}:{moves}:{to_move}"


@dataclass(frozen=True)
class SeatView:
    """A seat as the board shows it (names already worded by the page)."""

    seat: int
    label: str
    is_viewer: bool


def _capture_sum(event: Any, rules: Rules) -> str | None:
    """ "8 + 7 = 15": the sum a capture made, in its variant's terms (for the board's
    cheer of a child's capture); None for a card laid down or a take without a card.
    Scopa's is the table cards to the card's value ("3 + 4 = 7"); an equal card (one
    term) or the ace taking the whole table (no sum) makes no sum to cheer."""
    if event.kind != "play" or event.card is None or not event.take_mask:
        return None
    terms = capture_terms(rules, Move(event.card, event.take))
    if terms is None or len(terms[0]) < 2:
        return None
    values, total = terms
    # A joker's value is whatever made the sum: the total is then the joker itself.
    return f"{sum_expression(values)} = {'🃏' if 'JK' in values else total}"


def _takes_table_by_right(obs: Observation, hand: Sequence[Card]) -> list[str]:
    """The viewer's hand cards that take the whole table by right (asso piglia tutto)."""
    variant = variant_for(obs.rules)
    return [str(c) for c in hand
            if variant.takes_table_by_right(obs.rules, obs.table_mask, c.index)]


def _move_warning(a: hint_mod.Assessment, hints_on: bool, deck: Deck, odds_style: str
                  ) -> dict[str, Any]:
    """A move's warning on the board: ``warn``, at most 12 words a child reads at once
    ("Careful! The table will be 10: one card can sweep it."), ``level``, the odds as a
    picture (1-3 bars filled, the words as its accessible name, ``odds``), and ``long``,
    the whole sentence one tap away (issue 23). A sweep is warned of with hints on; a
    rule's warning always, first: under renuncio, a card laid that could capture (the
    coach's ``renuncio_risk``, issue 26) is said before it is laid."""
    rule = (t("warn_renuncio_lay", card=card_name(a.move.card, deck))
            if any(key == "renuncio_risk" for key, _ in a.warnings) else None)
    line = hint_mod.sweep_warning(a) if hints_on else None
    if line is None:
        return {"warn": rule}
    odds = line.params.get("odds")
    level = odds.level if isinstance(odds, hint_mod.Odds) else 3
    odds_words = odds_text(odds, odds_style) if isinstance(odds, hint_mod.Odds) else ""
    short = t("warn_sweep_short", total=line.params.get("total", 0))
    return {"warn": short if rule is None else f"{rule} {short}",
            "level": level, "odds": odds_words,
            "long": hint_line_text(line, deck, odds_style)}


def _risk_meter(obs: Observation) -> dict[str, Any]:
    """The table's total on a meter with the band where one card sweeps (5-14 for 15).

    The band is counted by the coach's own rule (:func:`escoba.coach.sweepers_gone`,
    issue 26): a total in the band is "safe" when every card that would sweep it has
    been seen, and the text says so ("no 5 left"), as the hint does.
    """
    total = sum(c.value for c in obs.table if not c.is_joker)
    variant = variant_for(obs.rules)
    low, high = variant.sweep_risk_band(obs.rules)  # 5-14 for 15, 1-10 in Scopa
    # The card that would sweep it: 15 - total in Escoba, a card of the total in Scopa.
    missing = variant.sweeper_value(obs.rules, total)
    gone = coach.sweepers_gone(obs, obs.table_mask)
    if not obs.table:
        band, text = "empty", t("board_meter_empty")
    elif gone:
        band, text = "safe", t("board_meter_counted", total=total, need=missing)
    elif low <= total <= high:
        band, text = "risk", t("board_meter_risk", total=total, low=low, high=high)
    else:
        band, text = "safe", t("board_meter_safe", total=total, low=low, high=high)
    return {"total": total, "low": low, "high": high, "max": 2 * (high + 1), "band": band,
            "text": text, "need": missing if gone else None}


def game_board(*, obs: Observation, seats: Sequence[SeatView], game_id: int | None,
               rounds: int, history: Sequence[Any], recent_from: int, to_move: int,
               totals: Sequence[int], side_names: Sequence[str],
               header: Mapping[str, str] | None,
               deck: Deck, show_value: bool, interactive: bool, show_hand: bool,
               hints_on: bool, hint_step: int, odds_style: str, lit: Iterable[Card] = (),
               human_seats: Iterable[int] = (), ready: bool = False) -> dict[str, Any]:
    """The data of a game's board for the seat of ``obs`` (see the module's docstring).

    ``show_hand`` is False when the viewer may not look (several children on one
    device, before "show my cards"): then ``obs`` must already have no hand, and no
    hand card is in the data. ``interactive``: the viewer is to move and may play.
    """
    need = obs.rules.capture_sum
    scopa = obs.rules.variant == "scopa"
    hand = list(obs.hand) if show_hand else []
    open_hands = obs.open_hands
    visible: list[Card] = list(obs.table) + hand
    seat_rows = []
    for view in seats:
        if view.is_viewer:
            continue
        faces = list(cards_of(open_hands[view.seat])) if open_hands is not None else []
        visible += faces
        seat_rows.append({
            "seat": view.seat, "name": view.label,
            "status": seat_status(obs.hand_counts[view.seat],
                                  obs.pile_masks[view.seat].bit_count(),
                                  obs.escobas[view.seat], obs.rules.variant),
            "count": obs.hand_counts[view.seat], "cards": [str(c) for c in faces],
            "pile": obs.pile_masks[view.seat].bit_count(), "turn": to_move == view.seat,
            "escobas": obs.escobas[view.seat],
            # The viewer's partner in a team game is marked (issue 26).
            "partner": t("seat_partner") if obs.rules.teams and obs.rules.side_of(
                view.seat) == obs.rules.side_of(obs.seat) else None})
    humans = set(human_seats)
    events = []
    labels = {v.seat: v.label for v in seats}
    for index in range(recent_from, len(history)):
        event = history[index]
        if index - recent_from >= 8 and len(history) - index > 8:
            continue  # the last eight are enough for "what just happened"
        shown = ([event.card] if event.card is not None else []) + sorted(event.take)
        visible += shown
        events.append({"id": rounds * 1000 + index, "seat": event.seat,
                       "line": event_line(labels.get(event.seat, "?"), event, deck,
                                          obs.rules.variant),
                       "card": str(event.card) if event.card is not None else None,
                       "take": [str(c) for c in sorted(event.take)],
                       "kind": event.kind, "escoba": bool(event.escoba),
                       "computer": event.seat not in humans,
                       "sum": _capture_sum(event, obs.rules)})
    events = events[-8:]
    me = next((v for v in seats if v.is_viewer), None)
    moves = None
    hints: dict[str, Any] = {"badges": {}, "lit": [], "meter": None}
    claims = obs.renuncio_claims() if interactive else []
    if interactive:
        assessed = hint_mod.assess(obs)
        moves = {}
        for a in assessed:
            moves[move_key(a.move.card, a.move.take)] = _move_warning(a, hints_on, deck,
                                                                      odds_style)
        if hints_on:
            per_card = hint_mod.captures_per_card(obs)
            hints["badges"] = {str(c): {"count": n, "text": t("hint_card_captures",
                                                              card=card_name(c, deck),
                                                              count=n)}
                               for c, n in per_card.items()}
            hints["lit"] = [str(c) for c in lit]
            hints["meter"] = _risk_meter(obs)
    header_data: dict[str, Any] | None = None
    if header is not None:
        header_data = dict(header)
        header_data["sides"] = [{"name": n, "points": t("points_n", n=p), "points_no": str(p)}
                                for n, p in zip(side_names, totals, strict=True)]
    position = game_position(game_id, rounds, len(history), to_move)
    buttons = {"play": t("board_play"), "lay": t("board_lay_button"),
               "renuncio": t("renuncio_button") if claims else None}
    return {
        "kind": "game", "position": position, "need": need,
        # Scopa's target is the card picked (board.js reads its value); Escoba's is need.
        "sum_rule": "card" if scopa else "with_card",
        # Hand cards that take the whole table by right (asso piglia tutto): the board
        # asks for every table card, not for a sum to the card's value.
        "takes_all": _takes_table_by_right(obs, hand) if interactive else [],
        "game_key": f"g{game_id or 0}", "ready": ready,
        "faces": card_faces(visible, deck, show_value),
        "back": back_svg(60, t("card_back")),
        "table": [str(c) for c in obs.table], "hand": [str(c) for c in hand],
        "select": {"hand": "single" if interactive else "none",
                   "table": "multi" if interactive else "none", "fixed": None,
                   "min_values": 1, "lay": True},
        "interactive": interactive, "moves": moves, "hints": hints,
        "seats": seat_rows,
        "me": None if me is None else {
            "seat": me.seat, "name": me.label,
            "pile": obs.pile_masks[me.seat].bit_count(), "escobas": obs.escobas[me.seat],
            "status": seat_status(len(hand) if show_hand else obs.hand_counts[me.seat],
                                  obs.pile_masks[me.seat].bit_count(), obs.escobas[me.seat],
                                  obs.rules.variant)},
        "hand_title": (header or {}).get("hand_title", ""),
        "events": events, "header": header_data,
        "texts": _texts("{need}" if scopa else need,
                        sweep_word_key("board_escoba_cheer", obs.rules.variant)),
        "buttons": buttons,
    }


def session_board(game: GameSession, *, viewer: int | None, reveal: bool, deck: Deck,
                  show_value: bool, hints_on: bool, hint_step: int,
                  odds_style: str = "words") -> dict[str, Any]:
    """The board of the app's game for the child at ``viewer`` (None: nobody's hand may be
    shown, several children on one device before "show my cards"); ``reveal``: that child
    may look at their hand. Hints light the best move's cards from ``hint_step`` 2 on."""
    rules = game.rules
    view_seat = viewer if viewer is not None else game.human_seats[0]
    obs = game.observation(view_seat)
    if not reveal:
        # Never draw this seat's hand: an observation only for public facts.
        obs = obs._replace(hand_mask=0)
    # The rules in force: icons a child taps to read (issue 26), one label each in words.
    chips = [chip_texts(c) for c in rules_in_force(rules)]
    summary = " · ".join(c["label"] for c in chips)
    round_over = game.round_over
    # Only the viewer's own turn is played on this board (a table between devices
    # draws every seat's board while one of them is to move).
    in_play = (not round_over and game.seats[game.to_move].is_human and reveal
               and (viewer is None or game.to_move == viewer))
    lit = (hint_mod.game_hint(obs, hint_step).lit
           if in_play and hints_on and hint_step >= 2 else ())
    history = game.game.round.history if game.game.round is not None else ()
    # The round and the stock are drawn as icons with numbers, the words their name
    # (issue 23: no line of small print above the board); the rules behind "Rules".
    header = {"round": t("round_n", n=len(game.game.rounds)),
              "stock": t("stock_left", n=obs.stock_count), "summary": summary,
              "round_no": str(len(game.game.rounds)), "stock_no": str(obs.stock_count),
              "rules": chips,
              "hand_title": t("your_hand", name=game.seats[obs.seat].name)}
    seats = [SeatView(s, seat_label(game.seats[s], s), s == viewer and reveal)
             for s in range(rules.players)]
    return game_board(
        obs=obs, seats=seats, game_id=game.game_id, rounds=len(game.game.rounds),
        history=history, recent_from=len(history) - len(game.recent),
        to_move=game.to_move if not round_over else -1, totals=game.game.totals,
        side_names=[game.side_name(s) for s in range(rules.sides)], header=header,
        deck=deck, show_value=show_value, interactive=in_play,
        show_hand=reveal and viewer is not None and not round_over, hints_on=hints_on,
        hint_step=hint_step, odds_style=odds_style, lit=lit, human_seats=game.human_seats)


def session_position(game: GameSession) -> str:
    """The position :func:`session_board` draws (an action made on another one is stale)."""
    round_ = game.game.round
    return game_position(game.game_id, len(game.game.rounds),
                         len(round_.history) if round_ is not None else 0,
                         game.to_move if not game.round_over else -1)


# -- a lesson ----------------------------------------------------------------------------

def lesson_board(view: Any, *, child: str, computer: str, deck: Deck, show_value: bool,
                 hand_title: str) -> dict[str, Any] | None:
    """The board of a lesson's level (a :class:`trainer.lessons.LessonView`), or None on a
    completion card. The same board as a game's: the level's glowing cards are its hint
    (faded by the runner), a ``tap_card`` step sends the tapped card at once, a whole-game
    level is the game's own board. Its position is the runner's: a stale action (a tap
    on a level already left) is ignored."""
    if view.game is not None:
        data = session_board(view.game, viewer=view.seat, reveal=True, deck=deck,
                             show_value=show_value, hints_on=view.hints != "none",
                             hint_step=2 if view.hints == "full" else 1)
        interactive = view.status == "playing" and view.your_turn
    elif view.observation is not None:
        obs = view.observation
        interactive = view.status == "playing" and view.your_turn and view.action != "answer"
        seats = [SeatView(view.seat, child, True)] + [
            SeatView(s, computer, False) for s in range(obs.rules.players) if s != view.seat]
        data = game_board(
            obs=obs, seats=seats, game_id=None, rounds=1, history=list(view.events),
            recent_from=0, to_move=view.to_move, totals=(), side_names=(), header=None,
            deck=deck, show_value=show_value, interactive=interactive, show_hand=True,
            hints_on=False, hint_step=1, odds_style="words", human_seats=(view.seat,))
        data["hand_title"] = hand_title
    else:
        return None
    data["kind"] = "lesson"
    data["position"] = view.position
    data["game_key"] = f"l:{view.stage}:{view.level}"
    data["interactive"] = interactive
    data["hints"]["lit"] = [str(c) for c in view.glow]
    data["refusals"] = view.refusals  # a refused try clears the picked table cards
    if view.action == "tap_card":
        # Any card may be tapped: one in the wrong place is answered ("that one is on the
        # table: tap one in your hand"), which teaches more than a dead card.
        # A "tap the card your 7 takes" (that makes 15 with it; under Scopa, a 7) shows the
        # 7 picked: only a table card is the answer then.
        picked = getattr(view, "picked", None)
        tap = ("table" if picked is not None else "both") if interactive else None
        data["select"] = {"hand": "none", "table": "none",
                          "fixed": str(picked) if picked is not None else None,
                          "min_values": 1, "lay": False, "tap": tap}
    elif not interactive:
        data["select"] = {"hand": "none", "table": "none", "fixed": None, "min_values": 1,
                          "lay": False}
    return data


# -- a puzzle ----------------------------------------------------------------------------

def _puzzle_key(puzzle: Puzzle) -> str:
    return f"p{zlib.crc32(puzzle.id.encode('utf-8')):x}"


def puzzle_position(puzzle: Puzzle, sets_given: int) -> str:
    """A puzzle's board position: a new set given (or a new puzzle) draws a new one."""
    return f"{_puzzle_key(puzzle)}:{sets_given}"


def puzzle_board(puzzle: Puzzle, *, sets_given: int, deck: Deck, show_value: bool,
                 intro: str, hand_title: str, add_label: str, play_label: str,
                 lit: Iterable[Card] = (), done: bool = False,
                 ready: bool = False) -> dict[str, Any]:
    """The data of a "find all the 15s" board: tap cards to form each set, then Add.

    The puzzle's kind says what may be picked: a captures puzzle's one card is
    fixed (shown picked), a hand puzzle picks one hand card, a fifteens puzzle only
    table cards (two at least). The set's ✓ is arithmetic only: whether it is one
    of the puzzle's answers is the checker's to say once it is added.
    """
    kind = puzzle.kind
    scopa = kind == "scopa"
    # Scopa's target is the played card's value (board.js reads it, as on Play).
    need: int | str = "{need}" if scopa else puzzle.capture_sum
    hand_mode = {"captures": "fixed", "scopa": "fixed", "hand": "single",
                 "best-move": "single"}.get(kind, "none")
    fixed = str(puzzle.hand[0]) if kind in ONE_CARD_KINDS and puzzle.hand else None
    return {
        "kind": "puzzle", "position": puzzle_position(puzzle, sets_given),
        "need": puzzle.capture_sum,
        "sum_rule": "card" if scopa else "with_card",
        # Scopa: a card of the played card's value lies on the table, so no sum of two
        # or more cards is a capture: the readout gives such a sum no ✓ (the rule the
        # puzzle is about), only its arithmetic. Visible on the table anyway.
        "equal_first": bool(scopa and puzzle.hand and any(
            c.value == puzzle.hand[0].value for c in puzzle.table)),
        "game_key": _puzzle_key(puzzle), "ready": ready,
        "faces": card_faces(list(puzzle.table) + list(puzzle.hand), deck, show_value),
        "back": None,
        "table": [str(c) for c in puzzle.table], "hand": [str(c) for c in puzzle.hand],
        "select": {"hand": "none" if done else hand_mode,
                   "table": "none" if done else "multi", "fixed": fixed,
                   "min_values": 2 if kind in ("fifteens", "quick") else 1,
                   "lay": kind == "best-move"},
        "interactive": not done, "moves": None,
        "hints": {"badges": {}, "lit": [str(c) for c in lit], "meter": None},
        "seats": [], "me": None, "events": [], "header": None,
        "intro": intro, "hand_title": hand_title,
        "texts": _texts(need),
        "buttons": {"play": add_label, "lay": play_label, "renuncio": None,
                    "action": "add"},
    }
