"""One round as a state machine: deal, legal moves, play, score.

The API follows python-chess and OpenSpiel::

    round_.legal_moves()          # every Move the rules allow, nothing else
    round_.play(move)             # IllegalMoveError (a ValueError) says why
    round_.observation(seat)      # what that seat may know: all bots and the coach see

:class:`Round` is one deal of the deck to its end and its scoring, from a
shuffled deck or from a position under way (:meth:`Round.from_position`);
:class:`escoba.game.Game` chains rounds. ``Round._advance`` is the one way a card
is played, and the simulation's loop. Inside, hands, table and piles are int
masks (see :mod:`escoba.cards`); the friendly :class:`~escoba.moves.Move` and
:class:`~escoba.cards.Card` values are built at the edge.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence

from .cards import CARDS, JOKER_MASK, Card, cards_of, format_cards, mask_of
from .deck import cards_once, check_full_deck, deck_of
from .errors import Code, DeckError, IllegalMoveError
from .movegen import (
    ROW_SLOT,
    TARGETS,
    initial_table_triggers,
    legal_move_pairs,
    moves_from_pairs,
    row_pairs,
)
from .moves import Attempt, Move, Play, Renuncio
from .observation import Observation, build_observation
from .rules import Rules
from .scoring import RoundScore
from .solver import capture_masks, has_capture, is_capture, sort_key, table_row
from .variants import Variant, variant_for
from .variants.base import not_on_table as _not_on_table
from .variants.base import notations as _notations
from .variants.escoba import wrong_sum as _wrong_sum

__all__ = ["Round"]


def _names(mask: int) -> str:
    return format_cards(cards_of(mask))


_INDEX = operator.attrgetter("index")
#: _NEXT_SEAT[players][seat]: who plays after ``seat``.
_NEXT_SEAT = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}
#: _DEAL_ORDER[players][dealer]: the seats in the order a deal serves them.
_DEAL_ORDER = {n: tuple(tuple((dealer + 1 + k) % n for k in range(n)) for dealer in range(n))
               for n in range(1, 9)}
#: _BIT[i] is ``1 << i``: one lookup instead of building the int.
_BIT: tuple[int, ...] = tuple(1 << i for i in range(64))
_new_play = tuple.__new__


class Round:
    """One round: the deal of a whole deck, played card by card, then scored.

    ``deck`` is the shuffled deck, top card first; with ``dealer`` it fixes
    the deal exactly (RULES.md, "Deal order"). Raises :class:`DeckError` if
    ``deck`` is not a full deck, or ``deck_redeal`` if the variant says its opening
    table must be redealt (:meth:`escoba.game.Game.start_round` reshuffles).
    """

    def __init__(self, rules: Rules, deck: Sequence[Card], dealer: int, *,
                 _trusted_deck: bool = False, _unfilled: bool = False) -> None:
        if _unfilled:  # for the other constructors and copy(), which fill it themselves
            return  # (a mypyc-compiled class cannot be made with object.__new__)
        self._start(rules, dealer)
        deck = tuple(deck)
        if not _trusted_deck:  # a deck the game shuffled itself is full by construction
            check_full_deck(rules, deck)
        self._deal_deck(deck, list(map(_INDEX, reversed(deck))))

    @classmethod
    def _shuffled(cls, rules: Rules, order: list[int], dealer: int) -> Round:
        """A round dealt from the game's own shuffle, given as card indices (top first)."""
        round_ = cls(rules, (), dealer, _unfilled=True)
        round_._start(rules, dealer)
        round_._deal_deck(deck_of(order), order[::-1])  # pop() = top card
        return round_

    def _deal_deck(self, deck: tuple[Card, ...], stock: list[int]) -> None:
        """Deal ``deck`` (``stock``: its card indices, bottom first) and lay the table."""
        rules = self.rules
        self.deck: tuple[Card, ...] = deck
        self._stock: list[int] = stock
        self._deal()
        if rules.table_cards == 4:
            table = _BIT[stock.pop()] | _BIT[stock.pop()] | _BIT[stock.pop()] | _BIT[stock.pop()]
        else:  # Scopone scientifico: no table cards
            table = 0
        self._table = table
        self._seen = table
        if self._generic is not None:
            if self._generic.opening_table(rules, table) == "redeal":
                raise self._generic.redeal_error(rules, table)
        elif rules.initial_fifteen != "ignore" and initial_table_triggers(rules, table):
            if rules.initial_fifteen == "redeal":
                raise self._variant.redeal_error(rules, table)
            dealer = self.dealer
            self._piles[dealer] |= table
            self._table = 0
            self._last_capturer: int | None = dealer
            self._history.append(Play(dealer, "initial", -1, table))
        if len(stock) < self._players:
            self._leftovers_to_table()

    def _start(self, rules: Rules, dealer: int) -> None:
        """The state of a round before any card is placed (shared by both constructors)."""
        self.rules = rules
        #: The capture rule (:mod:`escoba.variants`), and the same when it is not Escoba,
        #: whose fast bitmask path stays inline here (``None``).
        self._variant: Variant = variant_for(rules)
        self._generic: Variant | None = None if rules.variant == "escoba" else self._variant
        # Rule facts read on every move, looked up once.
        self._forced = rules.capture_rule == "forced"
        self._renuncio_rule = rules.capture_rule == "renuncio"
        self._last_play_escoba = rules.last_play_escoba
        self._players = rules.players
        n = rules.players
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            raise DeckError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}", Code.BAD_DEALER,
                            dealer=repr(dealer), players=n)
        self.deck = ()
        self.dealer = dealer
        self._stock = []
        self._hands: list[int] = [0] * n
        self._piles: list[int] = [0] * n
        self._escobas: tuple[int, ...] = (0,) * n  # a tuple: observations share it
        self._open_hand = rules.open_hand
        self._count_rows: tuple[tuple[int, ...], ...] = ((0,) * n,)
        self._table = 0
        self._seen = 0
        self._to_move = (dealer + 1) % n
        self._next_seat = _NEXT_SEAT[n]
        #: The seats in the order a deal serves them, from the dealer's left.
        self._deal_order = _DEAL_ORDER[n][dealer]
        self._dealt_per = -1  # the hand size _count_rows was last built for
        self._last_capturer = None
        self._history: list[Play] = []
        self._renuncio: tuple[int, int] | None = None  # (card laid down, table before it)
        #: The legal pairs of the seat to move in the current state, once asked for;
        #: ``None`` again after every change of state (``_advance``, a renuncio claim).
        #: A move among them is legal without judging it again (``_play_chosen``).
        self._legal: tuple[tuple[int, int], ...] | None = None
        self._cards_in_hands = 0
        self._over = False
        self._score: RoundScore | None = None

    @classmethod
    def from_position(cls, rules: Rules, hands: Sequence[Sequence[Card | str]],
                      table: Sequence[Card | str], *, to_move: int = 0,
                      stock: Sequence[Card | str] | None = None,
                      piles: Sequence[Sequence[Card | str]] | None = None,
                      escobas: Sequence[int] | None = None,
                      last_capturer: int | None = None) -> Round:
        """A round already under way: these hands, table, stock (top first) and piles.

        For lessons and worked examples that need a position no fresh deal gives (a
        table of one card, a hand of one, the last card of a round). Every card of
        the deck must be in exactly one place; ``stock`` defaults to every card not
        placed elsewhere, in deck order. Nothing happened before: no history, no
        renuncio pending, no initial-table rule (that rule is about a deal's table).

        ``to_move`` plays next. The hands must be as a deal in play leaves them:
        going round the table from the seat to move, the seats still to play in
        this turn round hold one card more than those who already played (so
        ``[["10o"], ["4c", "6b"]]`` with seat 0 to move is refused: seat 1 would
        have played less). The dealer is the seat before the first of them to have
        played (before ``to_move`` when all hold the same). When every hand is
        empty, the stock is dealt at once, or with no stock left the round ends
        and is scored, the table going to ``last_capturer``. Such a round has no
        deck (``deck == ()``), so it is never written to a record.

        Raises :class:`DeckError` (``deal_wrong_count``, ``deal_cards_twice``,
        ``deck_not_full``, ``bad_dealer``) and :class:`~escoba.errors.CardError`
        for a position that cannot be, among them a stock that cannot be dealt
        (``deal_wrong_count`` with ``where="stock"``: fewer cards than players, but
        some, which a deal would have laid on the table). Every position accepted
        plays to an end (``tests/test_properties.py``).
        """
        n = rules.players
        round_ = cls(rules, (), 0, _unfilled=True)
        if not (isinstance(to_move, int) and 0 <= to_move < n):
            # The dealer is found from the seat to move: a bad seat is a bad dealer.
            raise DeckError(f"to_move must be a seat 0-{n - 1}, got {to_move!r}",
                            Code.BAD_DEALER, dealer=repr(to_move), players=n)

        def parsed(cards: Sequence[Card | str]) -> list[Card]:
            return [c if isinstance(c, Card) else Card.parse(c) for c in cards]

        def each_seat(groups: Sequence[Sequence[Card | str]], where: str) -> list[list[Card]]:
            if len(groups) != n:
                raise DeckError(f"{n} {where} are needed, got {len(groups)}",
                                Code.DEAL_WRONG_COUNT, where=where, count=len(groups),
                                expected=n)
            return [parsed(g) for g in groups]

        in_hands = each_seat(hands, "hands")
        for seat, hand in enumerate(in_hands):
            if len(hand) > rules.hand_size:
                raise DeckError(f"hand {seat} has {len(hand)} cards; a hand holds at most "
                                f"{rules.hand_size}", Code.DEAL_WRONG_COUNT,
                                where=f"hand {seat}", count=len(hand),
                                expected=rules.hand_size)
        # As a deal in play leaves them: from the seat to move round the table, the
        # seats still to play this turn round hold h cards, those who played h - 1.
        order = [(to_move + k) % n for k in range(n)]
        first = len(in_hands[to_move])
        for seat in order[1:]:
            size, before = len(in_hands[seat]), len(in_hands[(seat - 1) % n])
            if not first - 1 <= size <= before:
                raise DeckError(f"hand {seat} has {size} cards: with {first} in the hand of "
                                f"seat {to_move} to move, a deal in play leaves "
                                f"{max(first - 1, 0)}-{first}", Code.DEAL_WRONG_COUNT,
                                where=f"hand {seat}", count=size, expected=first)
        # The dealer sits before the seat that played first in this turn round.
        starter = next((s for s in order if len(in_hands[s]) < first), to_move)
        in_piles = each_seat(piles, "piles") if piles is not None else [[] for _ in range(n)]
        on_table = parsed(table)
        placed = [c for group in (*in_hands, on_table, *in_piles) for c in group]
        seen = cards_once(placed, "placed")
        if stock is None:
            in_stock = [c for c in CARDS[: rules.deck_size] if c not in seen]
        else:
            in_stock = parsed(stock)
        check_full_deck(rules, placed + in_stock)
        if 0 < len(in_stock) < n:
            # A deal that leaves fewer cards than players lays them on the table at once
            # (RULES.md, "Deal"), so no round in play has such a stock, and dealing it
            # would give nobody a card: the round could never go on nor end.
            raise DeckError(f"a stock of {len(in_stock)} cards cannot be dealt to {n} players "
                            f"(a deal leaves none, or at least {n})", Code.DEAL_WRONG_COUNT,
                            where="stock", count=len(in_stock), expected=n)
        scored = list(escobas) if escobas is not None else [0] * n
        if len(scored) != n or not all(isinstance(e, int) and e >= 0 for e in scored):
            raise DeckError(f"escobas must be {n} counts, got {scored!r}",
                            Code.DEAL_WRONG_COUNT, where="escobas", count=len(scored),
                            expected=n)
        if last_capturer is not None and not (
                isinstance(last_capturer, int) and 0 <= last_capturer < n):
            raise DeckError(f"last_capturer must be a seat 0-{n - 1}, got {last_capturer!r}",
                            Code.BAD_DEALER, dealer=repr(last_capturer), players=n)
        round_._start(rules, (starter - 1) % n)
        round_._to_move = to_move
        round_._hands = [mask_of(h) for h in in_hands]
        round_._piles = [mask_of(p) for p in in_piles]
        round_._table = mask_of(on_table)
        round_._stock = [c.index for c in reversed(in_stock)]  # pop() = top card
        round_._escobas = tuple(scored)
        round_._last_capturer = last_capturer
        round_._seen = round_._table
        for pile in round_._piles:
            round_._seen |= pile
        round_._cards_in_hands = sum(len(h) for h in in_hands)
        # The hands as a deal of ``first`` cards each, begun at ``starter``, leaves them.
        round_._count_rows = _count_rows(n, starter, first)
        if not round_._cards_in_hands:
            if round_._stock:
                round_._deal()
                round_._leftovers_to_table()
            if not round_._cards_in_hands:
                round_._finish()
        return round_

    # -- dealing ------------------------------------------------------------
    def _deal(self) -> None:
        n = self._players
        stock = self._stock
        pop = stock.pop  # pop() = top card
        per = min(self.rules.hand_size, len(stock) // n)
        hands = self._hands
        if per == 3:  # the usual hand, unrolled
            for seat in self._deal_order:
                hands[seat] = _BIT[pop()] | _BIT[pop()] | _BIT[pop()]
        else:
            for seat in self._deal_order:
                hand = 0
                for _ in range(per):
                    hand |= _BIT[pop()]
                hands[seat] = hand
        self._cards_in_hands = per * n
        if per != self._dealt_per:  # the same table for every deal of a round's size
            self._dealt_per = per
            self._count_rows = _count_rows(n, self._deal_order[0], per)

    def _leftovers_to_table(self) -> None:
        # RULES.md: a deal leaving fewer cards than players puts them on the table.
        if 0 < len(self._stock) < self.rules.players:
            for index in self._stock:
                self._table |= 1 << index
                self._seen |= 1 << index
            self._stock.clear()

    # -- reading the state ----------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def table(self) -> tuple[Card, ...]:
        return cards_of(self._table)

    @property
    def table_mask(self) -> int:
        return self._table

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def pile(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._piles[seat])

    @property
    def pile_masks(self) -> tuple[int, ...]:
        return tuple(self._piles)

    @property
    def escobas(self) -> tuple[int, ...]:
        return self._escobas

    @property
    def stock(self) -> tuple[Card, ...]:
        """Cards not yet dealt, top first."""
        return tuple(CARDS[i] for i in reversed(self._stock))

    @property
    def last_capturer(self) -> int | None:
        return self._last_capturer

    @property
    def history(self) -> tuple[Play, ...]:
        return tuple(self._history)

    @property
    def dealer_took_initial_table(self) -> bool:
        return bool(self._history) and self._history[0].kind == "initial"

    def observation(self, seat: int, scores: tuple[int, ...] = (),
                    round_number: int = 1) -> Observation:
        """What ``seat`` may know now. Only this ever reaches a bot or the coach."""
        pending = self._renuncio
        claim = pending is not None and seat == self._to_move \
            and self.rules.capture_rule == "renuncio"
        hands = self._hands
        rules = self.rules
        hand = hands[seat]
        table = self._table
        legal = None
        if seat == self._to_move and not self._over:  # its turn: its legal moves too
            legal = self._legal
            if legal is None:
                legal = self._legal = tuple(legal_move_pairs(rules, hand, table))
        # By position, in _observation's order (see there why not by keyword).
        return build_observation(
            rules, seat, self._to_move, self.dealer, hand, table, tuple(self._piles),
            self._count_rows[self._cards_in_hands], len(self._stock), self._escobas,
            self._last_capturer, self._seen, tuple(self._history),
            pending[0] if claim else None,  # type: ignore[index]
            pending[1] if claim else 0,  # type: ignore[index]
            tuple(hands) if self._open_hand else None, scores, round_number, self._over,
            legal)

    # -- moves ------------------------------------------------------------------
    def legal_move_pairs(self) -> list[tuple[int, int]]:
        """Legal plays as ``(card index, take mask)``: the fast path for simulations."""
        if self._over:
            return []
        pairs = self._legal
        if pairs is None:
            pairs = self._legal = tuple(
                legal_move_pairs(self.rules, self._hands[self._to_move], self._table))
        return list(pairs)

    def legal_moves(self) -> list[Move]:
        """Every move the rules allow the seat to move, and nothing else.

        Miscounts (``miscount="penalty"``) and renuncio claims are not moves of
        this list: see :meth:`play` and :meth:`renuncio_claims`.
        """
        return moves_from_pairs(self.legal_move_pairs())

    def renuncio_claims(self) -> list[Renuncio]:
        """Claims the seat to move may make before playing (renuncio rule only)."""
        return self.observation(self._to_move).renuncio_claims()

    def check(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """The verdict on ``move``, changing nothing: ``None`` if :meth:`play` accepts
        it, else the :class:`IllegalMoveError` it would raise (its ``code`` and
        ``params`` say why: ``wrong_sum``, ``capture_forced``, ``not_in_hand``...).

        ``seat``, when given, is who is trying to play: anyone but the seat to
        move is refused (``not_your_turn``).
        """
        if not isinstance(move, Move):
            return IllegalMoveError(f"expected a Move, got {type(move).__name__}",
                                    Code.NOT_A_MOVE, type=type(move).__name__)
        if seat is not None and seat != self._to_move and not self._over:
            return IllegalMoveError(f"not your turn: seat {seat} tried to play, "
                                    f"but it is seat {self._to_move}'s turn",
                                    Code.NOT_YOUR_TURN, seat=seat, to_move=self._to_move)
        if move.miscount is not None:
            return self._check_miscount(move.card.index, mask_of(move.take),
                                        mask_of(move.miscount))
        return self._check_pair(move.card.index, mask_of(move.take))

    def play(self, move: Move, seat: int | None = None) -> Play:
        """Play ``move`` for the seat to move; returns what happened.

        Raises the :class:`IllegalMoveError` of :meth:`check`, changing nothing.
        """
        if isinstance(move, Move) and move.miscount is None \
                and (seat is None or seat == self._to_move):
            return self.play_pair(move.card.index, mask_of(move.take))  # its fast path
        verdict = self.check(move, seat)
        if verdict is not None:
            raise verdict
        miscount = None if move.miscount is None else mask_of(move.miscount)
        return self._advance((move.card.index, mask_of(move.take)), miscount)  # type: ignore[return-value]

    def attempt(self, move: Move, seat: int | None = None) -> Attempt:
        """A player's try at ``move``, judged by the table's miscount rule.

        A legal move is played. A wrong sum (``wrong_sum``) under
        ``miscount="penalty"`` is played as a miscount (RULES.md: the chosen
        cards go back, the played card stays on the table); under ``"retry"``,
        and for any other reason, nothing changes. Either way the verdict says why.
        """
        verdict = self.check(move, seat)
        if verdict is None:  # judged once: apply it without play()'s second check
            miscount = None if move.miscount is None else mask_of(move.miscount)
            return Attempt(self._advance((move.card.index, mask_of(move.take)), miscount),
                           None)
        if verdict.code == Code.WRONG_SUM and self.rules.miscount == "penalty" \
                and move.miscount is None:
            return Attempt(self.play(Move(move.card, frozenset(), miscount=move.take)), verdict)
        return Attempt(None, verdict)

    def play_pair(self, card: int, take: int) -> Play:
        """:meth:`play` on the inner form: card index and take mask."""
        return self._play_chosen((card, take))

    def _play_chosen(self, pair: tuple[int, int]) -> Play:
        """:meth:`play_pair` given the pair itself (as a player returned it).

        A pair among the legal moves the round generated for its current state
        (``_legal``, forgotten at every change of state) is legal; any other is
        judged in full.
        """
        legal = self._legal
        if legal is None or pair not in legal:
            verdict = self._check_pair(*pair)
            if verdict is not None:
                raise verdict
        return self._advance(pair)  # type: ignore[return-value]

    def _check_pair(self, card: int, take: int) -> IllegalMoveError | None:
        rules = self.rules
        table = self._table
        verdict = self._check_can_play(card)
        if verdict is not None:
            return verdict
        generic = self._generic
        if take:
            if take & ~table:
                return _not_on_table(take & ~table)
            if generic is not None:
                return generic.refusal(rules, table, card, take)
            if not is_capture(table, card, take, rules.capture_sum):
                return _wrong_sum(card, take, rules.capture_sum)
        elif (self._forced and generic is not None
              and generic.takes_table_by_right(rules, table, card)):
            # Laid down, the card that takes the table by right is told why it must take.
            return generic.refusal(rules, table, card, 0)
        elif self._forced and (has_capture(table, card, rules.capture_sum) if generic is None
                               else generic.capture_sets(rules, table, card)):
            options = sorted(capture_masks(table, card, rules.capture_sum) if generic is None
                             else generic.capture_sets(rules, table, card), key=sort_key)
            shown = " or ".join(_names(s) for s in options[:3])
            return IllegalMoveError(f"{CARDS[card]} can capture ({shown}): a capture is forced",
                                    Code.CAPTURE_FORCED, card=str(CARDS[card]),
                                    captures=[_notations(s) for s in options],
                                    count=len(options))
        return None

    def _check_can_play(self, card: int) -> IllegalMoveError | None:
        if self._over:
            return IllegalMoveError("the round is over", Code.ROUND_OVER)
        if not self._hands[self._to_move] >> card & 1:
            return IllegalMoveError(f"{CARDS[card]} is not in the hand of seat {self._to_move}",
                                    Code.NOT_IN_HAND, card=str(CARDS[card]),
                                    seat=self._to_move)
        return None

    def _check_miscount(self, card: int, take: int, chosen: int) -> IllegalMoveError | None:
        rules = self.rules
        if rules.miscount != "penalty":
            return IllegalMoveError("a miscount is refused under miscount=retry: "
                                    "choose cards that make the sum", Code.MISCOUNT_NOT_ALLOWED)
        verdict = self._check_can_play(card)
        if verdict is not None:
            return verdict
        if take:
            return IllegalMoveError("a miscount takes nothing", Code.MISCOUNT_TAKES_NOTHING)
        if not chosen:
            return IllegalMoveError("a miscount names the table cards chosen",
                                    Code.MISCOUNT_NAMES_CARDS)
        if chosen & ~self._table:
            return _not_on_table(chosen & ~self._table)
        if is_capture(self._table, card, chosen, rules.capture_sum):
            return IllegalMoveError(f"{_names(chosen)} with {CARDS[card]} is a capture, "
                                    "not a miscount", Code.MISCOUNT_IS_CAPTURE,
                                    card=str(CARDS[card]), cards=_notations(chosen))
        return None

    def _advance(self, pair: tuple[int, int] | None = None, miscount: int | None = None,
                 choosers: Sequence[Callable[[Observation, random.Random], tuple[int, int]]]
                 | None = None, scores: tuple[int, ...] = (), number: int = 1,
                 rng: random.Random | None = None) -> Play | None:
        """The engine's one way to play a card: change the round by ``pair``, or play it out.

        Given ``pair`` (card index, take mask), already judged (or a miscount, its
        chosen cards in ``miscount``), plays it for the seat to move and returns
        what happened. Given ``choosers`` instead (one per seat, a player's
        ``choose_pair``: the simulation's loop, :func:`escoba.match.play_game`),
        plays until the round is over, each seat's chooser answering its own
        :class:`Observation` (exactly :meth:`observation` for that seat), every
        answer judged: one among the legal pairs generated for that very state
        is legal, any other is judged in full and refused with its verdict.
        Not for the renuncio rule, whose claims come before a play.

        This loop is where a simulation spends its time, so everything a move
        reads is held in locals, the table's row of solution cells is followed
        from one table to the next as cards are laid down (the legal pairs come
        from it through :func:`row_pairs`, as :func:`legal_move_pairs` makes
        them), and the observation is built here as :meth:`observation` builds it
        for the seat to move: calling it would cost 8 % of a round (0.959 M → 1.037 M
        instructions, docs/BENCHMARKS.md), above the goal of issue 17.
        tests/test_simulation_loop.py checks, turn by turn over random games of
        every variant, that each seat gets exactly what :meth:`observation` gives.
        """
        rules = self.rules
        hands = self._hands
        piles = self._piles
        history = self._history
        next_seat = self._next_seat
        renuncio_rule = self._renuncio_rule
        if choosers is not None:
            if renuncio_rule:
                raise ValueError("the renuncio rule needs the claim before each play")
            if rng is None:
                raise ValueError("a round played out needs its random generator")
            draws: random.Random = rng
            dealer = self.dealer
            open_hand = self._open_hand
            targets = TARGETS[rules.capture_sum]
            forced = self._forced
            jokers = rules.jokers
            generic = self._generic
        if self._over:
            return None
        played = None
        kind = "play" if miscount is None else "miscount"
        self._legal = None  # the state changes from here on
        # The state a move reads, in locals; written back as it changes.
        seat = self._to_move
        table = self._table
        in_hands = self._cards_in_hands
        stock_left = len(self._stock)
        count_rows = self._count_rows
        row = None  # the table's row of solution cells, followed as cards are laid down
        piles_shown = None  # tuple(piles), made again after a capture
        while True:
            hand = hands[seat]
            if pair is None:  # ask the seat's chooser
                if generic is not None:
                    legal = tuple(generic.legal_pairs(rules, hand, table))
                elif jokers and (hand | table) & JOKER_MASK:
                    legal = tuple(legal_move_pairs(rules, hand, table))
                    row = None
                else:
                    if row is None:
                        row = table_row(table)
                    legal = tuple(row_pairs(hand, table, row, targets, forced))
                if piles_shown is None:
                    piles_shown = tuple(piles)
                # By position, in _observation's order (see there why not by keyword).
                pair = choosers[seat](build_observation(  # type: ignore[index]
                    rules, seat, seat, dealer, hand, table, piles_shown,
                    count_rows[in_hands], stock_left, self._escobas, self._last_capturer,
                    self._seen, tuple(history), None, 0,
                    tuple(hands) if open_hand else None, scores, number, False, legal),
                    draws)
                if pair not in legal:  # judged in full
                    verdict = self._check_pair(*pair)
                    if verdict is not None:
                        raise verdict
            card, take = pair
            pair = None
            bit = _BIT[card]
            hands[seat] = hand ^ bit
            in_hands -= 1
            self._cards_in_hands = in_hands
            self._seen |= bit
            escoba = False
            if take:
                table ^= take
                self._table = table
                piles[seat] |= take | bit
                piles_shown = None
                self._last_capturer = seat
                # Whether it sweeps is the variant's to say (asked only when the table
                # is empty: a few times a round).
                if not table and self._variant.is_sweep(rules, take, card, take,
                                                        not in_hands and not stock_left):
                    escoba = True
                    escobas = list(self._escobas)
                    escobas[seat] += 1
                    self._escobas = tuple(escobas)
                if renuncio_rule:
                    self._renuncio = None
                row = None
            else:
                laid = table | bit
                self._table = laid
                if row is not None:  # the row of the table with this card: linked once met
                    if card < 40:
                        slot = ROW_SLOT[card]
                        following = row[slot]
                        if following is None:
                            following = row[slot] = table_row(laid)
                        row = following
                    else:
                        row = None
                if renuncio_rule:  # a card laid down that could capture may be claimed
                    self._renuncio = (card, table) if has_capture(
                        table, card, rules.capture_sum) else None
                table = laid
            played = _new_play(Play, (seat, kind, card, take, escoba, miscount))
            history.append(played)
            seat = next_seat[seat]
            self._to_move = seat
            if not in_hands:
                if not stock_left:
                    self._finish()
                    return played
                self._deal()
                in_hands = self._cards_in_hands
                count_rows = self._count_rows
                stock_left = len(self._stock)
                if stock_left < self._players:
                    self._leftovers_to_table()
                    stock_left = 0
                    table = self._table
                    row = None
                if not in_hands:
                    # A deal that gave nobody a card (a stock smaller than the players,
                    # which from_position refuses): the round cannot go on, so it ends
                    # here rather than wait for a move nobody can make.
                    self._finish()
                    return played
            if choosers is None:
                return played

    def _finish(self) -> None:
        self._over = True
        self._renuncio = None
        if self._table and self._last_capturer is not None:
            seat = self._last_capturer
            self._history.append(Play(seat, "sweep", -1, self._table))
            self._piles[seat] |= self._table
            self._table = 0
        self._score = self._variant.score(self.rules, self._piles, self._escobas)

    def check_claim(self, claim: Renuncio) -> IllegalMoveError | None:
        """The verdict on a renuncio claim, changing nothing (``None``: it is valid)."""
        rules = self.rules
        if rules.capture_rule != "renuncio":
            return IllegalMoveError("renuncio claims need capture_rule=renuncio",
                                    Code.RENUNCIO_NOT_ALLOWED)
        if self._over:
            return IllegalMoveError("the round is over", Code.ROUND_OVER)
        pending = self._renuncio
        if pending is None:
            return IllegalMoveError("there is nothing to claim: the last card played "
                                    "was not laid down when it could capture",
                                    Code.RENUNCIO_NOTHING)
        laid, table_before = pending
        card = claim.card.index
        if card != laid:
            return IllegalMoveError(f"the card laid down was {CARDS[laid]}, not {claim.card}",
                                    Code.RENUNCIO_WRONG_CARD, laid=str(CARDS[laid]),
                                    card=str(claim.card))
        take = mask_of(claim.take)
        if not take or take & ~table_before:
            return IllegalMoveError(f"{CARDS[laid]} could not have taken "
                                    f"{format_cards(sorted(claim.take)) or 'nothing'}",
                                    Code.RENUNCIO_CANNOT_TAKE, card=str(CARDS[laid]),
                                    cards=[str(c) for c in sorted(claim.take)])
        if not is_capture(table_before, card, take, rules.capture_sum):
            return _wrong_sum(card, take, rules.capture_sum)
        return None

    def claim_renuncio(self, claim: Renuncio) -> Play:
        """The seat to move calls *¡renuncio!* before playing (renuncio rule only).

        Raises the :class:`IllegalMoveError` of :meth:`check_claim`, changing nothing.
        """
        verdict = self.check_claim(claim)
        if verdict is not None:
            raise verdict
        seat = self._to_move
        self._legal = None
        won = mask_of(claim.take) | claim.card.bit
        self._table &= ~won
        self._piles[seat] |= won
        self._last_capturer = seat
        self._renuncio = None
        played = Play(seat, "renuncio", claim.card.index, mask_of(claim.take))
        self._history.append(played)
        return played

    def copy(self) -> Round:
        """An independent copy of this round (for search and for trying moves)."""
        other = Round(self.rules, (), 0, _unfilled=True)
        try:
            other.__dict__.update(self.__dict__)  # pure Python: every attribute at once
        except AttributeError:  # compiled by mypyc: no __dict__, attributes one by one
            for name in _ROUND_ATTRIBUTES:
                setattr(other, name, getattr(self, name))
        other._stock = list(self._stock)
        other._hands = list(self._hands)
        other._piles = list(self._piles)
        other._history = list(self._history)
        return other

    # -- the end ------------------------------------------------------------------
    def score(self) -> RoundScore:
        """The round's score (only once the round is over)."""
        if self._score is None:
            raise ValueError("the round is not over yet")
        return self._score

    def cards_accounted(self) -> int:
        """Bitmask union of every place a card can be (a check for tests)."""
        total = self._table | mask_of(self.stock)
        for h in self._hands:
            total |= h
        for p in self._piles:
            total |= p
        return total


_COUNT_ROWS: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}


def _count_rows(players: int, first: int, per: int) -> tuple[tuple[int, ...], ...]:
    """Every seat's number of cards in hand during a deal of ``per`` cards each that
    ``first`` begins, indexed by the cards still in hands (each seat plays in turn)."""
    key = (players, first, per)
    rows = _COUNT_ROWS.get(key)
    if rows is None:
        counts = [per] * players
        sequence = [tuple(counts)]
        seat = first
        for _ in range(players * per):
            counts[seat] -= 1
            sequence.append(tuple(counts))
            seat = (seat + 1) % players
        rows = _COUNT_ROWS[key] = tuple(reversed(sequence))
    return rows


#: Every attribute a Round holds: ``Round.copy`` of a compiled round (no ``__dict__``)
#: copies them by name (tests/test_compiled_core.py checks the list against a round's).
_ROUND_ATTRIBUTES = (
    "_cards_in_hands", "_count_rows", "_deal_order", "_dealt_per", "_escobas", "_forced",
    "_generic", "_hands", "_history", "_last_capturer", "_last_play_escoba", "_legal", "_next_seat",
    "_open_hand", "_over", "_piles", "_players", "_renuncio", "_renuncio_rule", "_score",
    "_seen", "_stock", "_table", "_to_move", "_variant", "dealer", "deck", "rules",
)
