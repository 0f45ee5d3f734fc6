"""Computer players. Every player sees only an :class:`~escoba.observation.Observation`.

A player is anything with ``choose(observation, rng) -> Move`` and
``claim_renuncio(observation, rng) -> Renuncio | None``; it never receives
the full state, so it cannot peek at hidden cards. Its decision is a function
of the observation and the random numbers it draws from ``rng`` only (no
clocks, no state kept between moves): the fairness tests re-deal the hidden
cards and check that nothing changes.

Levels (:data:`PLAYER_LEVELS`):

``random``
    Any legal move, uniformly.
``gentle``
    For young children. Captures the obvious (the capture taking the fewest
    table cards, an escoba when one is there). Under the ``optional`` and
    ``renuncio`` rules it sometimes (:attr:`GentlePlayer.slip`) lays down a
    card that could have captured, so the child can call *¡renuncio!*. It
    plays no sweep-denial defence: with nothing to take it lays down its
    smallest card whatever total that leaves, so children get escobas. It
    calls renuncio only half of the time.
``greedy``
    The best immediate capture by :data:`GREEDY_WEIGHTS` (escoba 10, siete de
    oros 5, each seven 2, each oro 1, each card 1, summed); with nothing to
    take, it lays down the card of least weight (the smallest, among equals).
``expert``
    Card counting plus determinized search: :class:`ExpertPlayer`.
``just_right``
    Tunes its play between a beginner and the expert by a strength in [0, 1]
    (:class:`JustRightPlayer`, issue 30); the app gives it each child's
    estimated strength (trainer.just_right). Built on :class:`ChildLikePlayer`,
    a player that plays as a child does (misses captures, forgets to block a
    sweep), which the benchmark's simulated children use too.
"""

from __future__ import annotations

import abc
import random
from typing import Protocol, runtime_checkable

from .cards import CARDS, JOKER_MASK, OROS_MASK, SEVENS_MASK, SIETE_INDEX, VALUE, cards_of
from .moves import Move, Renuncio
from .observation import Observation
from .solver import capture_masks, exact_subsets, signature
from .valuation import ESCOBA_VALUE, card_values, mask_value
from .variants import variant_for

__all__ = ["Player", "RandomPlayer", "GentlePlayer", "GreedyPlayer", "ExpertPlayer",
           "ChildLikePlayer", "JustRightPlayer", "leaves_sweep", "make_player",
           "PLAYER_LEVELS", "GREEDY_WEIGHTS", "greedy_weight"]


@runtime_checkable
class Player(Protocol):
    """What a computer player must do. ``name`` is its level, e.g. ``"random"``."""

    name: str

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        """A legal move for ``observation.seat``, whose turn it is."""
        ...

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        """A renuncio claim to make before playing, or ``None``."""
        ...

# A player may also offer ``choose_pair(observation, rng) -> (card index, take
# mask)``, the same decision in the inner form; simulations use it when present.


class _PairPlayer(abc.ABC):
    """Shared plumbing: ``choose`` is ``choose_pair`` turned into a :class:`Move`."""

    name = "?"

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        card, take = self.choose_pair(observation, rng)
        return Move(CARDS[card], frozenset(cards_of(take)))

    @abc.abstractmethod
    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        """The decision in the inner form: (card index, take mask)."""


class RandomPlayer(_PairPlayer):
    """Any legal move, uniformly at random; claims a renuncio whenever it can."""

    name = "random"

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        """:meth:`choose` in the inner form (card index, take mask): no objects built."""
        # The pairs the round computed for this turn, read as they are (a tuple);
        # an observation built by hand asks for them.
        pairs = observation.legal or observation.legal_move_pairs()
        # random() * n is uniform enough for a handful of moves and 4x cheaper
        # than randrange, which matters in simulations.
        return pairs[int(rng.random() * len(pairs))]

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        return claims[rng.randrange(len(claims))] if claims else None


# -- greedy ---------------------------------------------------------------------

#: The greedy player's documented value of what a capture wins.
GREEDY_WEIGHTS = {"escoba": 10, "siete_de_oros": 5, "seven": 2, "oro": 1, "card": 1}


def greedy_weight(won: int, escoba: bool = False) -> int:
    """:data:`GREEDY_WEIGHTS` summed over the cards of ``won`` (played card included)."""
    w = GREEDY_WEIGHTS
    return (w["card"] * won.bit_count() + w["oro"] * (won & OROS_MASK).bit_count()
            + w["seven"] * (won & SEVENS_MASK).bit_count()
            + (w["siete_de_oros"] if won >> SIETE_INDEX & 1 else 0)
            + (w["escoba"] if escoba else 0))


def _is_escoba(obs: Observation, table: int, card: int, take: int) -> bool:
    """Whether the capture scores a sweep: the variant says (escoba, scopa)."""
    rules = obs.rules
    return variant_for(rules).is_sweep(rules, table, card, take, obs.last_play_of_round)


class GreedyPlayer(_PairPlayer):
    """The best immediate capture by :data:`GREEDY_WEIGHTS`; no look-ahead at all."""

    name = "greedy"

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        obs = observation
        table = obs.table_mask
        best: tuple[int, int] | None = None
        best_key: tuple[int, ...] = ()
        for card, take in obs.legal_move_pairs():
            if take:
                key = (1, greedy_weight(take | 1 << card, _is_escoba(obs, table, card, take)),
                       -card)
            else:
                # Lay down what is worth least; the smallest among equals.
                key = (0, -greedy_weight(1 << card), -VALUE[card], -card)
            if best is None or key > best_key:
                best, best_key = (card, take), key
        assert best is not None
        return best

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        if not claims:
            return None
        return max(claims, key=lambda c: greedy_weight(_mask(c.take) | c.card.bit))


def _mask(cards: object) -> int:
    m = 0
    for c in cards:  # type: ignore[attr-defined]
        m |= 1 << c.index
    return m


# -- gentle ---------------------------------------------------------------------


def _simplest(captures: list[tuple[int, int]], rng: random.Random) -> tuple[int, int]:
    """One of the captures that take the fewest table cards (the easiest to see)."""
    fewest = min(t.bit_count() for _, t in captures)
    simple = [p for p in captures if p[1].bit_count() == fewest]
    return simple[rng.randrange(len(simple))]


class GentlePlayer(_PairPlayer):
    """Kind to young children, as a grown-up playing with a beginner is: it misses what a
    beginner misses, the captures of several table cards (a sum of three cards is harder
    to see than one card that makes 15), never the obvious ones. It sees a capture of one
    table card always and of *k* cards with probability ``notices ** (k - 1)``, a sweep
    of a table of one or two cards always (a child notices a computer that does not take
    the 8 with its 7), takes a sweep it sees, else the simplest capture it sees, and lays
    down any card as a child would. Under optional rules it sometimes lays down a card
    that could capture, a slip the child can punish (renuncio).

    Tuned so that a child who has just learned the game (bench/simulated_children.py's
    ``just_learned``) wins at least 40% of rounds against it, where the Gentle before
    issue 30 (every capture and every escoba taken, its lowest card laid down) let that
    child win 29%: docs/BENCHMARKS.md, "Just right", measures both in one run.
    """

    name = "gentle"
    #: The chance of seeing a capture for each table card it takes beyond the first: a
    #: two-card capture 30% of the time, three cards 9%, four 3%.
    notices = 0.3
    #: A sweep of a table of at most this many cards is always seen.
    obvious_sweep = 2
    #: Chance, under optional/renuncio rules, of laying down a card that could capture.
    slip = 0.3
    #: Chance of calling a renuncio that could be called.
    claims = 0.5

    def sees(self, observation: Observation, take: int, rng: random.Random) -> bool:
        """Whether it notices the capture of the table cards ``take`` (see the class)."""
        table = observation.table_mask
        if take == table and table.bit_count() <= self.obvious_sweep:
            return True
        return rng.random() < self.notices ** (take.bit_count() - 1)

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        obs = observation
        pairs = obs.legal_move_pairs()
        captures = [(c, t) for c, t in pairs if t]
        laydowns = [(c, t) for c, t in pairs if not t]
        if captures and obs.rules.capture_rule != "forced" and rng.random() < self.slip:
            capturing_cards = {c for c, _ in captures}
            slips = [p for p in laydowns if p[0] in capturing_cards]
            if slips:
                return slips[rng.randrange(len(slips))]
        seen = [p for p in captures if self.sees(obs, p[1], rng)]
        escobas = [p for p in seen if _is_escoba(obs, obs.table_mask, *p)]
        if escobas:  # a sweep it saw is taken
            return escobas[rng.randrange(len(escobas))]
        if seen or not laydowns:  # a capture it saw, or one it must make
            return _simplest(seen or captures, rng)
        return laydowns[rng.randrange(len(laydowns))]

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        if not claims or rng.random() >= self.claims:
            return None
        return claims[rng.randrange(len(claims))]


# -- expert -----------------------------------------------------------------------


class ExpertPlayer(_PairPlayer):
    """Card counting plus determinized search (perfect-information Monte Carlo).

    * **Card counting**: what each card is worth to either side comes from
      the piles captured so far (:func:`escoba.valuation.card_values`), and the
      hidden cards are exactly the observation's unseen cards.
    * **Determinization**: ``samples`` times, deal the unseen cards at random
      into the other players' hands (their known sizes) and the stock — a
      deal consistent with everything this seat has seen.
    * **Search**: in each sampled deal, a full-information search ``depth``
      plies past the move considered (every later play of the deal is searched
      when few cards are left), then one greedy ply for the player to move;
      the value is the sum of what this side wins minus what the others win.
      Its partner (teams) maximises the same value: the two cooperate;
      opponents minimise it. With three or four individual players each
      player maximises its own gains minus the mean of the others' (max-n).
      At the end of the round the table goes to the last capturer.
    * **Aggregation**: the move with the best average over the samples (the
      same samples for every move considered, so their comparison is fair).
    * **Open hands**: the hands are known, so the search is a
      perfect-information search of the current deal (only the stock is
      sampled, and only when the search reaches the next deal).
    * **Budget**: depth, then samples, shrink to fit ``work_budget``
      estimated nodes (seven-card hands search one ply less).

    Under the ``renuncio`` rule it never lays down a card that could capture
    (the next player would claim it); it always calls a renuncio, taking the
    most valuable set. The work is bounded by a node count, not a clock, so
    the decision depends on the observation and ``rng`` only.
    """

    name = "expert"

    def __init__(self, samples: int = 32, depth: int = 2, work_budget: int = 15000,
                 node_budget: int = 5000) -> None:
        self.samples = samples
        self.depth = depth
        #: Estimated search nodes per decision; depth, then samples, shrink to fit.
        self.work_budget = work_budget
        #: Hard cap of search nodes per sampled deal and move considered.
        self.node_budget = node_budget

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        if not claims:
            return None
        ours, _ = card_values(observation)
        return max(claims, key=lambda c: (mask_value(ours, _mask(c.take) | c.card.bit),
                                          len(c.take)))

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        obs = observation
        pairs = obs.legal_move_pairs()
        rules = obs.rules
        if rules.capture_rule == "renuncio":
            capturing = {c for c, t in pairs if t}
            kept = [(c, t) for c, t in pairs if t or c not in capturing]
            pairs = kept or pairs
        if len(pairs) == 1:
            return pairs[0]
        search = _Search(obs, self.depth, self.node_budget)
        samples = search.plan(len(pairs), self.samples, self.work_budget)
        return search.best(pairs, samples, rng)


class _Search:
    """One decision's determinized search. Values are from the searching side's view."""

    def __init__(self, obs: Observation, depth: int, node_budget: int) -> None:
        rules = obs.rules
        self.obs = obs
        self.n = rules.players
        self.cs = rules.capture_sum
        self.rules = rules
        #: The capture rule; ``generic`` when it is not Escoba (whose fast path is inline).
        self.variant = variant_for(rules)
        self.generic = None if rules.variant == "escoba" else self.variant
        self.optional = rules.capture_rule == "optional"
        self.last_play_escoba = rules.last_play_escoba
        self.hand_size = rules.hand_size
        ours, theirs = card_values(obs)
        me = rules.side_of(obs.seat)
        # Two sides (2 players, or teams): one value, ours minus theirs, that the
        # partner maximises and the opponents minimise. More sides (3 or 4
        # individual players): every player maximises its own gains minus the
        # mean of the others' ("max-n"), so gains are kept per seat, unsigned.
        self.multi = rules.sides > 2
        self.sign = [1.0 if self.multi or rules.side_of(s) == me else -1.0
                     for s in range(self.n)]
        self.values = [ours if rules.side_of(s) == me else theirs for s in range(self.n)]
        self.captures: dict[int, list[int]] = {}
        cards_left = sum(obs.hand_counts)
        # Search every remaining play of the deal when that is small enough.
        self.depth = depth
        if obs.stock_count == 0 or obs.open_hands is not None:
            self.depth = max(depth, min(cards_left - 1, 5))
        self.node_budget = node_budget
        self.nodes = 0
        #: How many deals were sampled by :meth:`play_values` (1: nothing hidden reachable).
        self.drawn = 0

    def plan(self, root_moves: int, samples: int, budget: int) -> int:
        """Fit depth and samples to ``budget`` estimated nodes; returns the samples.

        The estimate (about 1.6 moves per card in the biggest hand, per ply) is
        made from the observation alone, so the plan is as fair as the rest.
        """
        branching = 1.6 * max(max(self.obs.hand_counts), 1)

        def cost(depth: int, samples: int) -> float:
            return root_moves * branching ** depth * samples

        while self.depth > 1 and cost(self.depth, samples) > budget:
            self.depth -= 1
        while samples > 8 and cost(self.depth, samples) > budget:
            samples //= 2
        return samples

    # -- move generation (memoised per decision: the same tables recur across samples)
    def caps(self, table: int, card: int) -> list[int]:
        key = table << 6 | card
        out = self.captures.get(key)
        if out is None:
            if self.generic is not None:
                out = self.generic.capture_sets(self.rules, table, card)
            elif card < 40 and not table & JOKER_MASK:
                out = exact_subsets(table, self.cs - VALUE[card], signature(table))
            else:
                out = capture_masks(table, card, self.cs)
            self.captures[key] = out
        return out

    def best(self, pairs: list[tuple[int, int]], samples: int,
             rng: random.Random) -> tuple[int, int]:
        totals = self.play_values(pairs, samples, rng)
        best = max(range(len(pairs)), key=lambda i: (totals[i], pairs[i][1].bit_count(), -i))
        return pairs[best]

    def play_values(self, pairs: list[tuple[int, int]], samples: int,
                    rng: random.Random) -> list[float]:
        """Each play's value summed over the same ``samples`` sampled deals (the coach's
        benchmark, bench/coach_bench.py, divides by the samples actually drawn:
        :attr:`drawn`)."""
        obs = self.obs
        n = self.n
        unseen = [c.index for c in cards_of(obs.unseen_mask)]
        known = obs.open_hands
        if known is not None:
            hidden_hands = set()
            in_hands = 0
            for h in known:
                in_hands |= h
            unseen = [c for c in unseen if not in_hands >> c & 1]
        else:
            hidden_hands = {s for s in range(n) if s != obs.seat}
        deterministic = not unseen or (obs.stock_count == 0 and len(hidden_hands) <= 1)
        if deterministic or (known is not None and (
                obs.stock_count == 0 or self.depth + 1 < sum(obs.hand_counts))):
            samples = 1  # nothing hidden that the search can reach
        totals = [0.0] * len(pairs)
        table = obs.table_mask
        last = obs.last_capturer
        for _ in range(samples):
            deal = unseen[:]
            rng.shuffle(deal)
            hands = list(known) if known is not None else [0] * n
            pos = 0
            for s in range(n):
                if s == obs.seat:
                    hands[s] = obs.hand_mask
                elif s in hidden_hands:
                    k = obs.hand_counts[s]
                    m = 0
                    for c in deal[pos:pos + k]:
                        m |= 1 << c
                    hands[s] = m
                    pos += k
            stock = deal[pos:pos + obs.stock_count]
            for i, (card, take) in enumerate(pairs):
                self.nodes = 0
                totals[i] += self.root_value(hands, table, stock, card, take, last)
        self.drawn = samples
        return totals

    def root_value(self, hands: list[int], table: int, stock: list[int], card: int,
                   take: int, last: int | None) -> float:
        seat = self.obs.seat
        gain, hands2, table2, stock2, last2, over = self.apply(hands, table, stock, seat,
                                                                card, take, last)
        if self.multi:
            if over:
                vec = self.final_multi(table2, last2)
            else:
                vec = self.search_multi(hands2, table2, stock2, (seat + 1) % self.n,
                                        self.depth, last2)
            vec[seat] += gain
            return self.relative(vec, seat)
        if over:
            return gain + self.final(table2, last2)
        return gain + self.search(hands2, table2, stock2, (seat + 1) % self.n, self.depth,
                                  last2)

    def apply(self, hands: list[int], table: int, stock: list[int], seat: int, card: int,
              take: int, last: int | None
              ) -> tuple[float, list[int], int, list[int], int | None, bool]:
        """Play; return (signed gain, hands, table, stock, last capturer, round over)."""
        bit = 1 << card
        hands = hands[:]
        hands[seat] ^= bit
        gain = 0.0
        empty = not any(hands)
        if take:
            table2 = table ^ take
            last = seat
            gain = mask_value(self.values[seat], take | bit)
            if not table2 and self.variant.is_sweep(self.rules, table, card, take,
                                                    empty and not stock):
                gain += ESCOBA_VALUE
            gain *= self.sign[seat]
        else:
            table2 = table | bit
        over = False
        if empty:
            if stock:
                per = min(self.hand_size, len(stock) // self.n)
                pos = 0
                dealer_next = (seat + 1) % self.n
                for k in range(self.n):
                    s = (dealer_next + k) % self.n
                    m = 0
                    for c in stock[pos:pos + per]:
                        m |= 1 << c
                    hands[s] = m
                    pos += per
                stock = stock[pos:]
                if 0 < len(stock) < self.n:  # leftovers go face up (jokers only)
                    for c in stock:
                        table2 |= 1 << c
                    stock = []
            else:
                over = True
        return gain, hands, table2, stock, last, over

    def final(self, table: int, last: int | None) -> float:
        if not table or last is None:
            return 0.0
        return self.sign[last] * mask_value(self.values[last], table)

    def moves(self, hand: int, table: int) -> list[tuple[int, int]]:
        out = []
        m = hand
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            sets = self.caps(table, card)
            for s in sets:
                out.append((card, s))
            if not sets or self.optional:
                out.append((card, 0))
        return out

    def greedy_ply(self, hand: int, table: int, seat: int, last_card: bool) -> float:
        """The best immediate gain of ``seat`` (signed): the search's horizon."""
        values = self.values[seat]
        best = 0.0
        m = hand
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            for take in self.caps(table, card):
                g = mask_value(values, take | low)
                if take == table and self.variant.is_sweep(self.rules, table, card, take,
                                                           last_card):
                    g += ESCOBA_VALUE
                if g > best:
                    best = g
        return self.sign[seat] * best

    def search(self, hands: list[int], table: int, stock: list[int], seat: int, depth: int,
               last: int | None) -> float:
        self.nodes += 1
        hand = hands[seat]
        if depth <= 0 or self.nodes > self.node_budget:
            last_card = not stock and sum(h.bit_count() for h in hands) == 1
            return self.greedy_ply(hand, table, seat, last_card)
        maximise = self.sign[seat] > 0
        best = -1e9 if maximise else 1e9
        nxt = (seat + 1) % self.n
        for card, take in self.moves(hand, table):
            gain, hands2, table2, stock2, last2, over = self.apply(hands, table, stock, seat,
                                                                    card, take, last)
            if over:
                v = gain + self.final(table2, last2)
            else:
                v = gain + self.search(hands2, table2, stock2, nxt, depth - 1, last2)
            if maximise:
                if v > best:
                    best = v
            elif v < best:
                best = v
        return best

    # -- more than two sides: max-n ------------------------------------------------
    def relative(self, vec: list[float], seat: int) -> float:
        """A seat's gains minus the mean of the others' gains."""
        return vec[seat] - (sum(vec) - vec[seat]) / (self.n - 1)

    def final_multi(self, table: int, last: int | None) -> list[float]:
        vec = [0.0] * self.n
        if table and last is not None:
            vec[last] = mask_value(self.values[last], table)
        return vec

    def search_multi(self, hands: list[int], table: int, stock: list[int], seat: int,
                     depth: int, last: int | None) -> list[float]:
        self.nodes += 1
        hand = hands[seat]
        if depth <= 0 or self.nodes > self.node_budget:
            vec = [0.0] * self.n
            last_card = not stock and sum(h.bit_count() for h in hands) == 1
            vec[seat] = self.greedy_ply(hand, table, seat, last_card)
            return vec
        best: list[float] | None = None
        best_score = -1e9
        nxt = (seat + 1) % self.n
        for card, take in self.moves(hand, table):
            gain, hands2, table2, stock2, last2, over = self.apply(hands, table, stock, seat,
                                                                    card, take, last)
            if over:
                vec = self.final_multi(table2, last2)
            else:
                vec = self.search_multi(hands2, table2, stock2, nxt, depth - 1, last2)
            vec[seat] += gain
            score = self.relative(vec, seat)
            if score > best_score:
                best, best_score = vec, score
        assert best is not None
        return best


# -- child-like and "just right" ------------------------------------------------------


def leaves_sweep(observation: Observation, card: int) -> bool:
    """Whether laying ``card`` down leaves a table that one card this seat has not seen
    could sweep (in open hands: one card of another hand). Uses the observation only."""
    obs = observation
    rules = obs.rules
    variant = variant_for(rules)
    table = obs.table_mask | 1 << card
    if obs.open_hands is not None:
        others = 0
        for seat, hand in enumerate(obs.open_hands):
            if rules.side_of(seat) != rules.side_of(obs.seat):
                others |= hand
    else:
        others = obs.unseen_mask
    for other in cards_of(others):
        if any(take == table and variant.is_sweep(rules, table, other.index, take, False)
               for take in variant.capture_sets(rules, table, other.index)):
            return True
    return False


class ChildLikePlayer(_PairPlayer):
    """Plays as a child does: sees each capture with probability :attr:`see`, takes the
    most valuable capture it sees with probability :attr:`best` (else any it sees), and
    when it lays a card down avoids leaving a sweepable table with probability
    :attr:`block`. A capture it does not see is not made when a lay-down is legal (under
    the ``forced`` rule the app refuses a lay-down of a card that captures, so the child
    then takes any capture of that card). ``sees_escobas``: an escoba on the table is
    always seen (the "just right" player never refuses an obvious escoba)."""

    name = "child"

    def __init__(self, see: float = 1.0, best: float = 1.0, block: float = 0.0, *,
                 sees_escobas: bool = False, name: str = "child") -> None:
        self.see = see
        self.best = best
        self.block = block
        self.sees_escobas = sees_escobas
        self.name = name

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        obs = observation
        pairs = obs.legal_move_pairs()
        table = obs.table_mask
        captures = [(c, t) for c, t in pairs if t]
        escobas = [(c, t) for c, t in captures if _is_escoba(obs, table, c, t)]
        seen = [p for p in captures
                if (self.sees_escobas and p in escobas) or rng.random() < self.see]
        if seen:
            if rng.random() < self.best:
                return max(seen, key=lambda p: (greedy_weight(
                    p[1] | 1 << p[0], p in escobas), -p[0]))
            return seen[rng.randrange(len(seen))]
        laydowns = [(c, t) for c, t in pairs if not t]
        if not laydowns:  # every card must capture: the child takes one, any one
            return captures[rng.randrange(len(captures))]
        if rng.random() < self.block:
            safe = [p for p in laydowns if not leaves_sweep(obs, p[0])]
            if safe:
                return min(safe, key=lambda p: (greedy_weight(1 << p[0]), VALUE[p[0]], p[0]))
        return laydowns[rng.randrange(len(laydowns))]

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        if not claims or rng.random() >= self.see:
            return None
        return max(claims, key=lambda c: greedy_weight(_mask(c.take) | c.card.bit))


class JustRightPlayer(_PairPlayer):
    """Between a beginner and the expert by ``strength`` s in [0, 1] (issue 30).

    Each move it either searches as :class:`ExpertPlayer` (with probability
    :meth:`expert_share`, none below s = 0.5, always at s = 1) or plays as a
    :class:`ChildLikePlayer` that sees a capture with probability 0.1 + 0.9 s, picks the
    most valuable one seen with probability 0.2 + 0.8 s and blocks a sweep with
    probability s (at s = 0 a child who sees 40% of the captures wins about half the
    rounds: docs/BENCHMARKS.md, "Just right"). It always takes an escoba it has: a
    child notices a silly miss. It eases within a game: while its side leads the game,
    it plays as if its strength were :attr:`ease` lower per point of lead (never below
    0). Everything it uses is in the observation (the game's scores included), so it is
    as fair as the others.
    """

    name = "just_right"
    #: Strength given up per point this side leads the game by.
    ease = 0.05
    #: The strength when none is given (``make_player("just_right")``): a beginner's.
    default_strength = 0.25

    def __init__(self, strength: float | None = None,
                 expert: ExpertPlayer | None = None) -> None:
        if strength is None:
            strength = self.default_strength
        self.strength = min(1.0, max(0.0, float(strength)))
        self.expert = expert or ExpertPlayer()

    def effective_strength(self, observation: Observation) -> float:
        """The strength for this move: eased by the lead this side has in the game."""
        scores = observation.scores
        if len(scores) < 2:
            return self.strength
        mine = observation.rules.side_of(observation.seat)
        lead = scores[mine] - max(p for side, p in enumerate(scores) if side != mine)
        return max(0.0, self.strength - self.ease * max(0, lead))

    @staticmethod
    def expert_share(strength: float) -> float:
        """How often a move is searched as the expert's: 0 up to s = 0.5, 1 at s = 1."""
        return max(0.0, 2.0 * strength - 1.0)

    @staticmethod
    def child_like(strength: float) -> ChildLikePlayer:
        return ChildLikePlayer(see=0.1 + 0.9 * strength, best=0.2 + 0.8 * strength,
                               block=strength, sees_escobas=True, name="just_right")

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        strength = self.effective_strength(observation)
        if rng.random() < self.expert_share(strength):
            return self.expert.choose_pair(observation, rng)
        return self.child_like(strength).choose_pair(observation, rng)

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        return self.child_like(self.effective_strength(observation)).claim_renuncio(
            observation, rng)


PLAYER_LEVELS: dict[str, type] = {
    "random": RandomPlayer,
    "gentle": GentlePlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "just_right": JustRightPlayer,
}


def make_player(level: str) -> Player:
    """A computer player by level name (``random``, ``gentle``, ``greedy``, ``expert``,
    ``just_right`` at its default strength: the app gives it the child's own)."""
    try:
        return PLAYER_LEVELS[level]()
    except KeyError:
        raise ValueError(f"unknown player {level!r} (choose one of "
                         f"{', '.join(PLAYER_LEVELS)})") from None
