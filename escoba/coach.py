"""The coach: one shared judgement of every legal move, with reasons a child can read.

:func:`analyse` takes an :class:`~escoba.observation.Observation` (never the full
state, so it is equally valid for hints during a game) and returns one
:class:`MoveAssessment` per legal move, best first. :func:`review` walks a
finished (or unfinished) game record and tells one seat, move by move, what
it played, what the coach would have played, the value lost and the named
mistakes.

How a move is valued (``MoveAssessment.score``, in points of the round):

* ``gain`` — what the capture is worth now. An escoba is worth 1 point, the
  siete de oros 1 point; cards, oros and sevens are worth their *marginal*
  effect on the chance of winning those categories, estimated from what both
  sides have already captured (card counting: a seven is worth a lot while
  the sevens are undecided, nothing once a side has three of them). See
  :func:`escoba.valuation.card_values`.
* ``risk`` — the expected value of the next opponent's best immediate reply
  on the table this move leaves: for every unseen card, the best capture it
  would make (an escoba counts 1), and the exact expectation of the best of
  the ``k`` cards the opponent holds, ``k`` drawn without replacement from
  the unseen cards (hypergeometric order statistics). In open-hand games the
  opponent's hand is known and the reply is exact.
* On the very last card of a round, what is left on the table goes to the
  last capturer: its value is added (or subtracted) instead of a reply.

``score = gain - risk (+ table left at the end)``.

How moves are ordered (the advice, :func:`analyse`'s first move): by the computer
expert's search (``MoveAssessment.searched``: :class:`escoba.bots.ExpertPlayer`'s
determinized search, the expected points of the round from each play, on deals of the
unseen cards consistent with the observation, sampled from a seed the observation itself
gives, so the same position is always advised alike), with a strong player's
tie-breaks among plays the search values alike (within :data:`SEARCH_TIE`): the coach's
own ``score``, then more cards taken, then the plainer card laid (an oro, a seven, the
siete de oros kept in hand). ``score``'s parts give the reasons a child reads. Under the
``renuncio`` rule, laying a card that could capture is not searched (the next player
would claim it, as the expert never does it) and comes after every searched play.
The review compares two plays by ``searched`` when both have one, else by ``score``.

Message keys (the app translates them; parameters in braces):

Reasons (``MoveAssessment.reason``):

* ``escoba`` {cards}: the move clears the table: an escoba, taking ``cards``
  cards (the played card included).
* ``escoba_no_point`` {cards}: it clears the table but scores no escoba (a
  joker helped, or the last card of the round under ``last_play_escoba=false``).
* ``captures`` {cards, oros, sevens, siete_de_oros}: it takes ``cards`` cards
  (played card included), of which ``oros`` oros and ``sevens`` sevens;
  ``siete_de_oros`` is true when the siete de oros is among them.
* ``lay_down_safe`` {total}: nothing to take; the table left totals ``total``
  and no single card can sweep it.
* ``lay_down_counted`` {total, need}: nothing to take; the table left totals
  ``total``, which one card of value ``need`` would sweep, but every such card
  has been seen (captured, on the table or in this hand): it is safe.
* ``lay_down_yours`` {total, need}: as ``lay_down_counted``, but the cards of
  value ``need`` not seen elsewhere are in this hand: nobody else can sweep it.
* ``lay_down_open`` {total}: nothing to take; in an open-hand game the next
  player holds no card that sweeps the ``total`` left.
* ``leaves_sweep`` {total, cards, chance}: (a lay-down) the table left totals
  ``total``; ``cards`` unseen cards would sweep it, and the next opponent
  holds at least one with probability ``chance`` (0-1).
* ``last_play`` {cards}: the last card of the round; the last capturer takes
  the ``cards`` cards left on the table.

A lay-down's reason may carry ``kept`` (a card code): the move lays a plain
card and keeps that scoring card of the same value (an oro, a seven, the
siete de oros) in hand, which would have left the same table. Among moves of
equal value the coach always keeps the scoring card (a strong player's
tie-break); an oro or a seven is never valued below a plain card of its value.

Why one move beats another (:func:`why_better`, for hints and the review):

* the better move's own reason when it captures more (``escoba``, ``captures``);
* ``keeps`` {card}: the other move gives away ``card`` (an oro, a seven, the
  siete de oros), this one keeps it in hand;
* ``safer`` {chance, other}: the table it leaves is swept with the smaller
  chance ``chance`` (the other move's: ``other``);
* ``less_to_lose`` {}: what the next player could win from the table it leaves
  is worth less.

Warnings (``MoveAssessment.warnings``, a tuple of key + params):

* ``leaves_sweep`` {total, cards, chance}: as above, for any move (captures
  too) that leaves a table one card can sweep, when ``chance > 0``.
* ``leaves_siete_de_oros`` {}: the siete de oros stays on the table although
  this move could have been one that takes it (or it lays it down).
* ``gives_seven`` {card, chance}: lays down a seven that the next opponent can
  capture with probability ``chance``.
* ``gives_oro`` {card, chance}: the same for an oro (other than the siete de
  oros, which has its own warning).
* ``misses_escoba`` {}: another legal move made an escoba (one that scores).
  Under Scopa the sweep keys name its sweep: ``scopa``, ``scopa_no_point`` and
  ``misses_scopa``, with the same parameters.
* ``fewer_cards`` {best}: another capture with the same card takes ``best``
  table cards, more than this one.
* ``misses_capture`` {}: lays down a card that could have captured (only
  possible under the ``optional`` and ``renuncio`` rules).
* ``renuncio_risk`` {}: under the ``renuncio`` rule, the next player may now
  call *¡renuncio!* and take the card with a set it could have captured.

Review mistakes (``ReviewItem.mistakes``) use the warning keys
``misses_escoba``, ``leaves_sweep``, ``leaves_siete_de_oros``, ``fewer_cards``,
``gives_seven``, ``gives_oro``, ``misses_capture``, ``renuncio_risk``, plus
``miscount`` {} (a refused combination under ``miscount=penalty``). A warning
counts as a mistake only when the coach's best move does not carry it too.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .bots import ExpertPlayer, _Search
from .cards import (
    CARDS,
    JOKER_MASK,
    OROS_MASK,
    SEVENS_MASK,
    SIETE_BIT,
    SIETE_INDEX,
    VALUE,
    Card,
    cards_of,
)
from .moves import Move
from .observation import Observation
from .round import Round
from .rules import Rules
from .solver import sort_key
from .valuation import ESCOBA_VALUE, card_values, mask_value
from .variants import variant_for

__all__ = [
    "SweepRisk",
    "MoveAssessment",
    "ReviewItem",
    "analyse",
    "review",
    "sweep_risk",
    "sweepers_gone",
    "chance_at_least_one",
    "expected_best",
    "keep_weight",
    "why_better",
    "MISTAKE_MARGIN",
    "SEARCH_TIE",
    "MESSAGE_KEYS",
]

#: Every message key this module emits (reasons, warnings, review mistakes).
MESSAGE_KEYS: frozenset[str] = frozenset({
    "escoba", "escoba_no_point", "captures", "lay_down_safe", "lay_down_counted",
    "lay_down_yours", "lay_down_open", "leaves_sweep", "last_play",
    "leaves_siete_de_oros", "gives_seven", "gives_oro", "misses_escoba", "fewer_cards",
    "misses_capture", "renuncio_risk", "miscount", "keeps", "safer", "less_to_lose",
    "scopa", "scopa_no_point", "misses_scopa",
})

Message = tuple[str, dict[str, Any]]


# -- probabilities ----------------------------------------------------------------


def chance_at_least_one(pool: int, good: int, drawn: int) -> float:
    """P(at least one of ``good`` marked cards among ``drawn`` drawn from ``pool``).

    Exact hypergeometric: ``1 - C(pool - good, drawn) / C(pool, drawn)``.
    """
    drawn = min(drawn, pool)
    if good <= 0 or drawn <= 0:
        return 0.0
    return 1.0 - math.comb(pool - good, drawn) / math.comb(pool, drawn)


def expected_best(values: list[float], drawn: int) -> float:
    """E[max] of ``drawn`` values taken without replacement from ``values``.

    Exact order statistics: sorted descending, the i-th value (1-based) is
    the best drawn when it is drawn and none of the i-1 better ones are,
    with probability ``C(n - i, drawn - 1) / C(n, drawn)``. Values below 0
    count as 0 (a player can always lay a card down instead).
    """
    n = len(values)
    drawn = min(drawn, n)
    if drawn <= 0:
        return 0.0
    ordered = sorted(values, reverse=True)
    total = math.comb(n, drawn)
    out = 0.0
    for i, v in enumerate(ordered, start=1):
        if v <= 0:
            break
        ways = math.comb(n - i, drawn - 1)
        if not ways:
            break
        out += v * ways / total
    return out


# -- sweep risk ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SweepRisk:
    """Whether one card can sweep the table a move leaves.

    ``total``: the table's value total; ``sweeping_cards``: how many unseen
    cards would sweep it; ``chance``: probability that the next opponent
    holds at least one (exact hypergeometric over the unseen cards; 0 or 1
    when their hand is open); ``known_sweepers``: in open-hand games, the
    opponent's cards that sweep it.
    """

    total: int
    sweeping_cards: int
    chance: float
    known_sweepers: tuple[Card, ...] = ()


def _next_opponent(obs: Observation, took_last_card_of_deal: bool) -> tuple[int, int, int]:
    """(seat, cards in hand when they play, unknown pool mask they draw from).

    ``pool`` is the unseen cards their hand is drawn from (``-1`` when their
    hand is known: open hands and no new deal before they play).
    """
    rules = obs.rules
    nxt = (obs.seat + 1) % rules.players
    unseen = obs.unseen_mask
    if took_last_card_of_deal:
        # Every hand is empty after this move: a new deal comes from the stock.
        size = min(rules.hand_size, obs.stock_count // rules.players)
        if obs.open_hands is not None:
            for h in obs.open_hands:
                unseen &= ~h
        return nxt, size, unseen
    if obs.open_hands is not None:
        return nxt, obs.hand_counts[nxt], -1
    return nxt, obs.hand_counts[nxt], unseen


def sweep_risk(obs: Observation, table_after: int) -> SweepRisk | None:
    """The sweep risk of leaving ``table_after`` for the next opponent, or ``None``.

    ``None`` when the table is empty, when this is the last card of the round,
    or when no single card could ever sweep it (its total is outside
    ``rules.sweep_risk_range`` and it holds no joker).
    """
    return _sweep_risk(obs, table_after, _deal_ends(obs))


def _deal_ends(obs: Observation) -> bool:
    return sum(obs.hand_counts) == 1


def _sweep_risk(obs: Observation, table_after: int, deal_ends: bool) -> SweepRisk | None:
    rules = obs.rules
    if not table_after or (deal_ends and obs.stock_count == 0):
        return None
    total = sum(VALUE[c.index] for c in cards_of(table_after))
    low, high = variant_for(rules).sweep_risk_band(rules)
    if not (low <= total <= high) and not table_after & JOKER_MASK:
        return None
    nxt, size, pool = _next_opponent(obs, deal_ends)
    if pool < 0:
        assert obs.open_hands is not None
        known = _sweepers(rules, table_after, obs.open_hands[nxt])
        return SweepRisk(total, len(known), 1.0 if known else 0.0, known)
    sweepers = len(_sweepers(rules, table_after, pool))
    return SweepRisk(total, sweepers, round(chance_at_least_one(pool.bit_count(), sweepers,
                                                                 size), 6))


def _sweepers(rules: Rules, table: int, among: int) -> tuple[Card, ...]:
    """The cards of ``among`` that would sweep ``table`` (take every card of it)."""
    return tuple(c for c in cards_of(among) if table in _capture_sets(rules, table, c.index))


def _capture_sets(rules: Rules, table: int, card: int) -> list[int]:
    """Every set ``card`` may take from ``table``: the variant's rule."""
    return variant_for(rules).capture_sets(rules, table, card)


def sweepers_gone(obs: Observation, table: int) -> bool:
    """Whether ``table``'s total is one a single card could sweep (in
    ``rules.sweep_risk_range``, no joker on it) but every card that would has been seen,
    captured or on the table, so that nobody can: "no 5 is left, so 10 is safe".

    The one rule for a counted band: the coach's ``lay_down_counted`` and the board's
    risk meter both ask it, so hint and meter never disagree (``table`` may hold a card
    of this seat's hand just laid on it).
    """
    if not table or table & JOKER_MASK:
        return False
    low, high = variant_for(obs.rules).sweep_risk_band(obs.rules)
    if not low <= sum(VALUE[c.index] for c in cards_of(table)) <= high:
        return False
    return not _sweepers(obs.rules, table, (obs.unseen_mask | obs.hand_mask) & ~table)


# -- analysis ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveAssessment:
    """The coach's view of one legal move. Higher ``score`` is better.

    ``score = gain - risk`` (plus, on the last card of a round, the value of
    the table left to the last capturer), in expected points of the round.
    """

    move: Move
    score: float
    captured: frozenset[Card]
    escoba: bool
    table_total_after: int
    sweep_risk: SweepRisk | None
    warnings: tuple[Message, ...]
    reason: Message
    gain: float = 0.0
    risk: float = 0.0
    #: The expert's search's expected points of the round from this play (``None``:
    #: not searched: the only legal play, or a renuncio-giving lay-down).
    searched: float | None = None

    @property
    def warning_keys(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.warnings)



def _scores_escoba(rules: Rules, table: int, take: int, card: int, last_card: bool) -> bool:
    """Whether the capture scores a sweep: the variant says (escoba, scopa)."""
    return variant_for(rules).is_sweep(rules, table, card, take, last_card)


def _reply_value(obs: Observation, table: int, theirs: tuple[float, ...], card_pool: int,
                 last_card: bool) -> float:
    """Best immediate value for the next player laying ``card_pool``'s card on ``table``."""
    rules = obs.rules
    best = 0.0
    for take in _capture_sets(rules, table, card_pool):
        v = mask_value(theirs, take) + theirs[card_pool]
        if _scores_escoba(rules, table, take, card_pool, last_card):
            v += ESCOBA_VALUE
        if v > best:
            best = v
    return best


def _expected_reply(obs: Observation, table_after: int, theirs: tuple[float, ...],
                    deal_ends: bool) -> float:
    nxt, size, pool = _next_opponent(obs, deal_ends)
    if size <= 0:
        return 0.0
    # Their card is the last of the round only if they hold the last card.
    last_card = (obs.stock_count == 0 and not deal_ends
                 and sum(obs.hand_counts) == 2)
    cache: dict[int, float] = {}
    if pool < 0:
        assert obs.open_hands is not None
        hand = obs.open_hands[nxt]
        return max((_reply_value(obs, table_after, theirs, c.index, last_card)
                    for c in cards_of(hand)), default=0.0)
    values = []
    for c in cards_of(pool):
        v = cache.get(c.index)
        if v is None:
            v = cache[c.index] = _reply_value(obs, table_after, theirs, c.index, last_card)
        values.append(v)
    return expected_best(values, size)


def _capture_chance(obs: Observation, table_after: int, target: int, deal_ends: bool) -> float:
    """P(the next opponent holds a card that captures a set including ``target``)."""
    nxt, size, pool = _next_opponent(obs, deal_ends)
    rules = obs.rules
    if pool < 0:
        assert obs.open_hands is not None
        hand = obs.open_hands[nxt]
        return 1.0 if any(any(t >> target & 1 for t in _capture_sets(rules, table_after, c.index))
                          for c in cards_of(hand)) else 0.0
    good = sum(1 for c in cards_of(pool)
               if any(t >> target & 1 for t in _capture_sets(rules, table_after, c.index)))
    return round(chance_at_least_one(pool.bit_count(), good, size), 6)


def analyse(observation: Observation, search: bool = True) -> list[MoveAssessment]:
    """Every legal move of the seat to move, assessed, best first.

    Uses only ``observation``. Empty when it is not this seat's turn. ``search=False``:
    the coach's one-ply scores alone, in their order (no ``searched`` values): what the
    best-move puzzles are generated from, so a puzzle's id keeps giving the same puzzle.
    """
    pairs = observation.legal_move_pairs()
    if not pairs:
        return []
    assessed = _analyse(observation, pairs, pairs)
    return _searched(observation, assessed) if search else assessed


#: Plays whose searched values differ by less than this (points of the round) are alike
#: for the advice: the strong player's tie-breaks decide. It is about the size of the
#: search's sampling noise between two plays on the same samples.
SEARCH_TIE = 0.02


def _search_seed(obs: Observation) -> int:
    """A seed from what the seat has seen: one position, one advice, on every device."""
    key = (repr(obs.rules), obs.seat, obs.hand_mask, obs.table_mask, obs.pile_masks,
           obs.hand_counts, obs.stock_count, obs.escobas, obs.last_capturer, obs.seen_mask,
           obs.open_hands, obs.renuncio_card, obs.renuncio_table)
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big")


def _searched(obs: Observation, assessed: list[MoveAssessment]) -> list[MoveAssessment]:
    """``assessed`` (in the coach's own order) valued by the expert's search and put in
    the advice's order (see the module's docstring)."""
    pairs = [(a.move.card.index, _mask(a.captured)) for a in assessed]
    considered = pairs
    if obs.rules.capture_rule == "renuncio":
        capturing = {c for c, t in pairs if t}
        considered = [(c, t) for c, t in pairs if t or c not in capturing] or pairs
    if len(considered) < 2:
        return assessed
    expert = ExpertPlayer()
    search = _Search(obs, expert.depth, expert.node_budget)
    samples = search.plan(len(considered), expert.samples, expert.work_budget)
    totals = search.play_values(considered, samples, random.Random(_search_seed(obs)))
    drawn = max(1, search.drawn)
    values = {p: round(v / drawn, 6) for p, v in zip(considered, totals, strict=True)}
    # Laying an oro, a seven or the siete de oros while a plainer card of its value could
    # be laid instead leaves the same table and keeps the worse card: never better. The
    # search's samples can say otherwise by noise; the plain twin's value is its ceiling.
    for (card, take), value in list(values.items()):
        if take or card >= 40:
            continue
        twins = [values[(c, 0)] for c, t in values if not t and c < 40 and c != card
                 and VALUE[c] == VALUE[card] and keep_weight(c) < keep_weight(card)]
        if twins:
            values[(card, take)] = min(value, max(twins))
    left = [replace(a, searched=values.get(p)) for a, p in zip(assessed, pairs, strict=True)]
    ordered: list[MoveAssessment] = []
    while left:  # the best searched value; among plays alike to it, the coach's first
        valued = [a.searched for a in left if a.searched is not None]
        if not valued:
            ordered += left
            break
        top = max(valued)
        chosen = next(a for a in left
                      if a.searched is not None and a.searched >= top - SEARCH_TIE)
        ordered.append(chosen)
        left.remove(chosen)
    return ordered


def _analyse(obs: Observation, pairs: list[tuple[int, int]],
             assess: list[tuple[int, int]]) -> list[MoveAssessment]:
    """Assess the plays ``assess`` in the light of the legal plays ``pairs``."""
    rules = obs.rules
    variant = variant_for(rules)
    ours, theirs = _monotone(*card_values(obs))
    table = obs.table_mask
    deal_ends = _deal_ends(obs)
    last_card = deal_ends and obs.stock_count == 0
    escoba_moves = {(c, t) for c, t in pairs if _scores_escoba(rules, table, t, c, last_card)}
    most_taken: dict[int, int] = {}
    for c, t in pairs:
        most_taken[c] = max(most_taken.get(c, 0), t.bit_count())
    siete_takable = table & SIETE_BIT and any(t & SIETE_BIT for _, t in pairs)
    out: list[MoveAssessment] = []
    for card, take in assess:
        bit = 1 << card
        table_after = table ^ take if take else table | bit
        escoba = (card, take) in escoba_moves
        won = take | bit if take else 0
        gain = mask_value(ours, won) if take else 0.0
        if escoba:
            gain += ESCOBA_VALUE
        total_after = sum(VALUE[i.index] for i in cards_of(table_after))
        warnings: list[Message] = []
        risk_obj: SweepRisk | None = None
        extra = 0.0
        if last_card:
            capturer = obs.seat if take else obs.last_capturer
            if capturer is not None and table_after:
                if rules.side_of(capturer) == rules.side_of(obs.seat):
                    extra = mask_value(ours, table_after)
                else:
                    extra = -mask_value(theirs, table_after)
            risk = 0.0
        else:
            risk_obj = _sweep_risk(obs, table_after, deal_ends)
            risk = _expected_reply(obs, table_after, theirs, deal_ends)
            if risk_obj is not None and risk_obj.chance > 0:
                warnings.append(("leaves_sweep", {"total": risk_obj.total,
                                                  "cards": risk_obj.sweeping_cards,
                                                  "chance": round(risk_obj.chance, 2)}))
            if not take and card != SIETE_INDEX:
                if bit & SEVENS_MASK:
                    p = _capture_chance(obs, table_after, card, deal_ends)
                    if p > 0:
                        warnings.append(("gives_seven", {"card": str(CARDS[card]),
                                                         "chance": round(p, 2)}))
                elif bit & OROS_MASK:
                    p = _capture_chance(obs, table_after, card, deal_ends)
                    if p > 0:
                        warnings.append(("gives_oro", {"card": str(CARDS[card]),
                                                       "chance": round(p, 2)}))
        if table_after & SIETE_BIT and (siete_takable or card == SIETE_INDEX):
            warnings.append(("leaves_siete_de_oros", {}))
        if escoba_moves and not escoba:
            warnings.append((_sweep_key(rules, "misses_{}"), {}))
        if take and take.bit_count() < most_taken[card]:
            warnings.append(("fewer_cards", {"best": most_taken[card]}))
        if not take and _capture_sets(rules, table, card):
            warnings.append(("misses_capture", {}))
            if rules.capture_rule == "renuncio" and not last_card:
                warnings.append(("renuncio_risk", {}))
                # The next player will claim: count the best claim against us.
                risk += max(mask_value(theirs, t) for t in _capture_sets(rules, table, card)) \
                    + theirs[card]
        if last_card:
            reason: Message = ("last_play", {"cards": table_after.bit_count()})
            if take:
                reason = _capture_reason(rules, table, take, card, last_card)
        elif take:
            reason = _capture_reason(rules, table, take, card, last_card)
        elif risk_obj is not None and risk_obj.chance > 0:
            reason = ("leaves_sweep", {"total": risk_obj.total,
                                       "cards": risk_obj.sweeping_cards,
                                       "chance": round(risk_obj.chance, 2)})
        elif risk_obj is not None and obs.open_hands is not None \
                and _sweepers_left(obs, table_after):
            reason = ("lay_down_open", {"total": total_after})
        elif risk_obj is not None and sweepers_gone(obs, table_after):
            reason = ("lay_down_counted", {"total": total_after,
                                           "need": variant.sweeper_value(rules, total_after)})
        elif risk_obj is not None and not table_after & JOKER_MASK:
            # Nobody else holds a sweeper (the chance is 0): the ones left are ours.
            reason = ("lay_down_yours", {"total": total_after,
                                         "need": variant.sweeper_value(rules, total_after)})
        else:
            reason = ("lay_down_safe", {"total": total_after})
        if not take:
            kept = _kept_scoring_card(obs.hand_mask, card)
            if kept is not None:
                reason = (reason[0], {**reason[1], "kept": str(CARDS[kept])})
        out.append(MoveAssessment(
            move=Move(CARDS[card], frozenset(cards_of(take))),
            score=round(gain - risk + extra, 6),
            captured=frozenset(cards_of(take)),
            escoba=escoba,
            table_total_after=total_after,
            sweep_risk=risk_obj,
            warnings=tuple(warnings),
            reason=reason,
            gain=round(gain, 6),
            risk=round(risk, 6),
        ))
    # Best first; equal scores in a fixed order: more cards taken, then (a strong
    # player's tie-break) the card worth least laid or the card worth most played, then
    # card order.
    order = {id(a): (-a.score, -len(a.captured),
                     (-1 if a.captured else 1) * keep_weight(a.move.card.index),
                     a.move.card.index, sort_key(_mask(a.captured))) for a in out}
    out.sort(key=lambda a: order[id(a)])
    return out


def why_better(better: MoveAssessment, other: MoveAssessment) -> Message:
    """What decides between two assessed moves of one position, ``better`` first: the
    concrete reason a child can check (what it takes, what it keeps, what it risks)."""
    if better.escoba and not other.escoba or (
            better.captured and better.gain > other.gain + 1e-6):
        return better.reason
    other_card, card = other.move.card.index, better.move.card.index
    if not other.captured and keep_weight(other_card) > keep_weight(card):
        return ("keeps", {"card": str(other.move.card)})
    mine, theirs = better.sweep_risk, other.sweep_risk
    chance = mine.chance if mine is not None else 0.0
    other_chance = theirs.chance if theirs is not None else 0.0
    if other_chance > chance + 1e-6:
        return ("safer", {"chance": round(chance, 2), "other": round(other_chance, 2)})
    if better.captured and better.gain >= other.gain - 1e-6 and other.gain <= 1e-6:
        return better.reason
    return ("less_to_lose", {})


def keep_weight(card: int) -> int:
    """How much a strong player wants to keep ``card`` out of the other side's reach:
    3 the siete de oros, 2 another seven, 1 another oro, 0 a plain card (or a joker)."""
    bit = 1 << card
    if bit & SIETE_BIT:
        return 3
    return 2 if bit & SEVENS_MASK else (1 if bit & OROS_MASK else 0)


def _kept_scoring_card(hand: int, laid: int) -> int | None:
    """The hand card of ``laid``'s value worth most to keep, if it is worth more than
    ``laid`` (laying it instead would leave a table of the same values)."""
    value = VALUE[laid]
    best: int | None = None
    for c in cards_of(hand & ~JOKER_MASK & ~(1 << laid)):
        if VALUE[c.index] == value and keep_weight(c.index) > keep_weight(laid) and (
                best is None or keep_weight(c.index) > keep_weight(best)):
            best = c.index
    return best


def _sweepers_left(obs: Observation, table_after: int) -> bool:
    """Whether some card nobody has seen yet (other hands included) could sweep ``table_after``."""
    return bool(_sweepers(obs.rules, table_after, obs.unseen_mask))


@lru_cache(maxsize=256)  # keyed by valuation.card_values' results, cached as many (issue 32)
def _monotone(ours: tuple[float, ...], theirs: tuple[float, ...]
              ) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The card values with an oro or a seven never worth less than a plain card of
    the same value (the valuation's normal approximation can make a nearly decided
    category's marginal slightly negative; taking an oro never helps the other side)."""
    def lift(values: tuple[float, ...]) -> tuple[float, ...]:
        out = list(values)
        for c in range(min(40, len(values))):
            for d in range(min(40, len(values))):
                if VALUE[d] == VALUE[c] and keep_weight(d) < keep_weight(c):
                    out[c] = max(out[c], values[d])
        return tuple(out)
    return lift(ours), lift(theirs)


def _mask(cards: frozenset[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def _sweep_key(rules: Rules, pattern: str) -> str:
    """A message key that names the sweep: the game's own word ("misses_scopa" under
    Scopa, "misses_escoba" under Escoba), so the coach never cheers "¡escoba!" at a
    Scopa table."""
    return pattern.format(rules.variant)


def _capture_reason(rules: Rules, table: int, take: int, card: int, last_card: bool) -> Message:
    won = take | 1 << card
    if take == table:
        key = "{}" if _scores_escoba(rules, table, take, card, last_card) else "{}_no_point"
        return (_sweep_key(rules, key), {"cards": won.bit_count()})
    return ("captures", {"cards": won.bit_count(), "oros": (won & OROS_MASK).bit_count(),
                         "sevens": (won & SEVENS_MASK).bit_count(),
                         "siete_de_oros": bool(won & SIETE_BIT)})


# -- post-game review -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One move of the reviewed seat: what it played and what the coach prefers.

    ``round`` and ``move_number`` are 1-based; ``move_number`` counts every
    entry of the record's ``moves`` in that round (as replay errors do).
    ``value_lost`` is the coach's score of its best move minus that of the
    move played (0 when the move played is as good). ``mistakes`` are the
    warnings of the move played that the best move does not share, named only
    when the move is a mistake: it loses more than :data:`MISTAKE_MARGIN` (so the
    coach's own advice, or a move it values alike, is never one). ``why`` says
    what decides for the best move against the one played (:func:`why_better`),
    ``None`` when the move is no mistake. A miscount (``miscount=penalty``) is
    valued as the card laid down, and its mistakes start with ``("miscount", {})``.
    """

    round: int
    move_number: int
    seat: int
    played: Move
    best: Move
    value_lost: float
    mistakes: tuple[Message, ...]
    assessment: MoveAssessment | None
    best_assessment: MoveAssessment
    why: Message | None = None

    @property
    def mistake_keys(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.mistakes)

    @property
    def is_mistake(self) -> bool:
        return bool(self.mistakes) or self.value_lost > MISTAKE_MARGIN

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "move": self.move_number, "seat": self.seat,
                "played": str(self.played), "best": str(self.best),
                "value_lost": self.value_lost,
                "mistakes": [[k, p] for k, p in self.mistakes],
                "why": None if self.why is None else list(self.why)}


#: A move losing at most this (points of the round) against the coach's best is no
#: mistake: moves the coach values alike (:data:`SEARCH_TIE`) are never compared as
#: better and worse.
MISTAKE_MARGIN = SEARCH_TIE


def review(record: Mapping[str, Any] | str | bytes, seat: int) -> list[ReviewItem]:
    """For each move ``seat`` made in the game ``record``: played, best, value lost, mistakes.

    The record is replayed (and so checked) first; a broken record raises
    :class:`~escoba.record.RecordError`.
    """
    from .record import replay

    result = replay(record)
    game = result.game
    rules = game.rules
    if not (isinstance(seat, int) and 0 <= seat < rules.players):
        raise ValueError(f"seat must be 0-{rules.players - 1}, got {seat!r}")
    items: list[ReviewItem] = []
    totals = [0] * rules.sides
    for number, (info, played_round) in enumerate(
            zip(game.round_records, game.rounds, strict=True), start=1):
        round_ = Round(rules, info.deck, info.dealer)
        move_number = 0
        for event in played_round.history:
            if event.kind in ("initial", "sweep"):
                continue
            move_number += 1
            if event.kind == "renuncio":
                round_.claim_renuncio(_renuncio_of(event))
                continue
            if event.seat == seat:
                obs = round_.observation(seat, scores=tuple(totals), round_number=number)
                items.append(_review_move(obs, event, number, move_number))
            move = event.move
            assert move is not None
            round_.play(move)
        if round_.is_over:
            for side, points in enumerate(round_.score().totals):
                totals[side] += points
    return items


def _lost(best: MoveAssessment, mine: MoveAssessment) -> float:
    """What ``mine`` loses against ``best``: by the search when both were searched, else
    by the coach's own scores (one scale: a renuncio-giving lay-down is not searched)."""
    if best.searched is not None and mine.searched is not None:
        return best.searched - mine.searched
    return best.score - mine.score


def _renuncio_of(event: Any) -> Any:
    from .moves import Renuncio

    return Renuncio(CARDS[event.card_index], event.take)


def _review_move(obs: Observation, event: Any, round_number: int,
                 move_number: int) -> ReviewItem:
    assessed = analyse(obs)
    best = assessed[0]
    move = event.move
    assert move is not None
    if event.kind == "miscount":
        # The card stays on the table: value it as laid down (even where the
        # rules would not have allowed laying it down).
        laid = _analyse(obs, obs.legal_move_pairs(), [(move.card.index, 0)])[0]
        return ReviewItem(round_number, move_number, obs.seat, move, best.move,
                          round(max(0.0, best.score - laid.score), 6),
                          (("miscount", {}), *(w for w in laid.warnings
                                               if w[0] not in set(best.warning_keys))),
                          laid, best, why_better(best, laid))
    mine = next(a for a in assessed if a.move == move)
    lost = round(max(0.0, _lost(best, mine)), 6)
    if mine is best or lost <= MISTAKE_MARGIN:
        # The advice itself, or a move the coach values alike: nothing to blame.
        return ReviewItem(round_number, move_number, obs.seat, move, best.move, lost, (),
                          mine, best)
    best_keys = set(best.warning_keys)
    mistakes = tuple(w for w in mine.warnings if w[0] not in best_keys)
    return ReviewItem(round_number, move_number, obs.seat, move, best.move, lost, mistakes,
                      mine, best, why_better(best, mine))
