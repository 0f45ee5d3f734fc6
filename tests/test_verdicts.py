"""The engine explains its verdicts: every refusal carries a code and its parameters,
``check`` judges without changing anything, ``attempt`` applies the miscount rule,
``deck_for`` scripts a deal, and the legal-move cache is each round's own."""

from __future__ import annotations

import random
import threading

import pytest
from helpers import card, cards, stacked_round

from escoba import (
    CardError,
    Code,
    DeckError,
    Game,
    IllegalMoveError,
    Move,
    RecordError,
    Renuncio,
    Round,
    Rules,
    RulesError,
    captures,
    hand_captures,
    replay,
    subsets_totalling,
)
from escoba.cards import CARDS, Card, parse_cards
from escoba.deck import deck_for

CLASSIC = Rules.preset("classic")


def state(round_: Round) -> tuple:
    return (round_.table, tuple(round_.hand(s) for s in range(round_.rules.players)),
            round_.to_move, round_.history, round_.pile_masks)


def refusal(round_: Round, move: Move, seat: int | None = None) -> IllegalMoveError:
    """The verdict of check(), which must equal what play() raises, changing nothing."""
    before = state(round_)
    verdict = round_.check(move, seat)
    assert verdict is not None
    with pytest.raises(IllegalMoveError) as raised:
        round_.play(move, seat)
    assert (raised.value.code, raised.value.params, str(raised.value)) == (
        verdict.code, verdict.params, str(verdict))
    assert state(round_) == before
    return verdict


def test_a_wrong_sum_says_the_values_the_total_and_the_sum_needed():
    round_ = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    verdict = refusal(round_, Move(card("7o"), frozenset(cards("3o 4c"))))
    assert verdict.code == Code.WRONG_SUM == "wrong_sum"
    assert verdict.params == {"card": "7o", "cards": ["3o", "4c"], "values": [3, 4, 7],
                              "total": 14, "need": 15, "jokers": 0}
    assert str(verdict) == "3 + 4 + 7 = 14, not 15"


def test_a_wrong_sum_with_a_joker_counts_the_joker_apart():
    rules = Rules.preset("classic", jokers=True)
    round_ = stacked_round(rules, ["10o 1c 2c", "9b 4e 6e"], "JK1 10c 8e 10b")
    verdict = refusal(round_, Move(card("10o"), frozenset(cards("JK1 10c"))))
    assert verdict.code == "wrong_sum"
    assert verdict.params["values"] == [10, "JK", 10] and verdict.params["jokers"] == 1
    assert verdict.params["total"] == 20


def test_a_forced_capture_lists_the_captures_available():
    round_ = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    verdict = refusal(round_, Move(card("7o")))
    assert verdict.code == "capture_forced"
    assert verdict.params == {"card": "7o", "captures": [["8e"], ["3o", "5c"]], "count": 2}


def test_not_in_hand_not_your_turn_not_on_the_table_and_round_over():
    round_ = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    assert refusal(round_, Move(card("9b"))).params == {"card": "9b", "seat": 1}
    assert refusal(round_, Move(card("7o"), frozenset(cards("8e"))), seat=0).params == {
        "seat": 0, "to_move": 1}
    assert round_.check(Move(card("7o"), frozenset(cards("8e"))), seat=1) is None
    verdict = refusal(round_, Move(card("7o"), frozenset(cards("8e 1o"))))
    assert (verdict.code, verdict.params) == ("card_not_on_table", {"cards": ["1o"]})
    assert refusal(round_, "7o 8e").code == "not_a_move"  # type: ignore[arg-type]
    rng = random.Random(3)
    while not round_.is_over:
        round_.play(rng.choice(round_.legal_moves()))
    assert refusal(round_, Move(card("7o"))).code == "round_over"


def test_check_accepts_exactly_the_legal_moves():
    rng = random.Random(5)
    for rules in (CLASSIC, Rules.preset("relaxed"), Rules.preset("classic", jokers=True)):
        round_ = Game(rules, rng=rng).start_round()
        while not round_.is_over:
            legal = set(round_.legal_moves())
            hand = round_.hand(round_.to_move)
            for c in hand:
                for k in range(len(round_.table) + 1):
                    take = frozenset(rng.sample(round_.table, k))
                    move = Move(c, take)
                    assert (round_.check(move) is None) == (move in legal), move
            round_.play(rng.choice(sorted(legal, key=str)))


def test_miscount_and_renuncio_refusals_have_codes():
    penalty = stacked_round(Rules.preset("classic", miscount="penalty"),
                            ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    assert refusal(penalty, Move(card("7o"), frozenset(cards("8e")),
                                 miscount=frozenset(cards("3o")))).code == "miscount_takes_nothing"
    assert refusal(penalty, Move(card("7o"), miscount=frozenset())).code == "miscount_names_cards"
    verdict = refusal(penalty, Move(card("7o"), miscount=frozenset(cards("8e"))))
    assert (verdict.code, verdict.params) == ("miscount_is_capture",
                                              {"card": "7o", "cards": ["8e"]})
    retry = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    assert refusal(retry, Move(card("7o"), miscount=frozenset(cards("3o")))).code == \
        "miscount_not_allowed"

    rules = Rules.preset("classic", capture_rule="renuncio")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    claim = Renuncio(card("7o"), frozenset(cards("8e")))
    assert round_.check_claim(claim).code == "renuncio_nothing"
    round_.play(Move(card("7o")))
    wrong_card = round_.check_claim(Renuncio(card("8e"), frozenset(cards("3o 5c"))))
    assert (wrong_card.code, wrong_card.params) == ("renuncio_wrong_card",
                                                    {"laid": "7o", "card": "8e"})
    assert round_.check_claim(Renuncio(card("7o"), frozenset(cards("1o")))).code == \
        "renuncio_cannot_take"
    assert round_.check_claim(Renuncio(card("7o"), frozenset(cards("10b")))).code == "wrong_sum"
    assert round_.check_claim(claim) is None
    with pytest.raises(IllegalMoveError) as raised:
        stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b").claim_renuncio(claim)
    assert raised.value.code == "renuncio_not_allowed"


def test_attempt_under_retry_changes_nothing_and_under_penalty_lays_the_card_down():
    retry = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    before = state(retry)
    wrong = Move(card("7o"), frozenset(cards("3o 4c")))
    attempt = retry.attempt(wrong)
    assert attempt.play is None and attempt.verdict.code == "wrong_sum"
    assert state(retry) == before

    penalty = stacked_round(Rules.preset("classic", miscount="penalty"),
                            ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    attempt = penalty.attempt(wrong)
    assert attempt.verdict.code == "wrong_sum" and attempt.verdict.params["total"] == 14
    assert attempt.play.kind == "miscount" and attempt.play.miscount == frozenset(cards("3o 4c"))
    assert set(penalty.table) == set(cards("3o 4c 8e 10b 7o"))
    # other refusals are never penalised
    attempt = penalty.attempt(Move(card("2c"), frozenset(cards("1o"))))
    assert attempt.play is None and attempt.verdict.code == "not_in_hand"
    ok = penalty.attempt(Move(card("4e"), frozenset(cards("3o 8e"))))  # 3 + 8 + 4
    assert ok.verdict is None and ok.play.kind == "play"


def test_game_check_and_attempt_between_rounds():
    game = Game(CLASSIC, seed=1)
    assert game.check(Move(card("7o"))).code == "no_round"
    assert game.attempt(Move(card("7o"))).verdict.code == "no_round"
    round_ = game.start_round()
    move = round_.legal_moves()[0]
    assert game.check(move) is None
    assert game.attempt(move).play.card == move.card


# -- card, rules, deck and record errors -------------------------------------------------


def test_card_rules_and_deck_errors_have_codes():
    with pytest.raises(CardError) as bad:
        Card.parse("7x")
    assert (bad.value.code, bad.value.params) == ("card_unknown", {"text": "7x"})
    with pytest.raises(CardError) as twice:
        parse_cards("7o 7o")
    assert (twice.value.code, twice.value.params) == ("card_twice", {"card": "7o"})
    with pytest.raises(RulesError) as preset:
        Rules.preset("chess")
    assert preset.value.code == "rules_unknown_preset" and preset.value.params["preset"] == "chess"
    with pytest.raises(RulesError) as option:
        Rules.preset("classic", players=7)
    assert (option.value.code, option.value.params["option"]) == ("rules_bad_value", "players")
    with pytest.raises(DeckError) as deck:
        Round(CLASSIC, list(CARDS[:39]) + [CARDS[0]], 0)
    assert deck.value.code == "deck_not_full"
    assert deck.value.params["twice"] == ["1o"] and deck.value.params["missing"] == ["10b"]


def test_a_record_error_names_round_move_and_the_moves_own_reason():
    game = Game(CLASSIC, seed=2)
    round_ = game.start_round()
    from escoba import game_to_record

    record = game_to_record(game)
    seat = round_.to_move
    hand = round_.hand(seat)
    wrong = next(
        (c, t) for c in hand for t in round_.table
        if Move(c, frozenset([t])) not in round_.legal_moves()
        and c.value + t.value != 15 and not (c.is_joker or t.is_joker))
    record["rounds"][0]["moves"] = [{"seat": seat, "card": str(wrong[0]),
                                     "take": [str(wrong[1])]}]
    with pytest.raises(RecordError) as raised:
        replay(record)
    err = raised.value
    assert err.code == "record_move"
    assert err.params["round"] == 1 and err.params["move"] == 1
    assert err.params["reason"] == "wrong_sum"
    assert err.params["reason_params"]["total"] == wrong[0].value + wrong[1].value
    assert str(err).startswith("round 1, move 1: ")
    record["rounds"][0]["moves"][0]["seat"] = 1 - seat
    with pytest.raises(RecordError) as turn:
        replay(record)
    assert turn.value.params["reason"] == "not_your_turn"
    with pytest.raises(RecordError) as not_json:
        replay("{oops")
    assert (not_json.value.code, not_json.value.params) == ("record_not_json",
                                                            {"line": 1, "column": 2})


# -- scripted deals ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("dealer", [0, 1])
def test_deck_for_deals_exactly_those_hands_and_table(players, dealer):
    rules = Rules.preset("classic", players=players, initial_fifteen="ignore")
    rng = random.Random(players * 10 + dealer)
    shuffled = list(CARDS[:40])
    rng.shuffle(shuffled)
    hands = [shuffled[3 * s: 3 * s + 3] for s in range(players)]
    table = shuffled[3 * players: 3 * players + 4]
    rest = shuffled[3 * players + 4:]
    deck = deck_for(rules, hands, table, dealer, rest)
    round_ = Round(rules, deck, dealer)
    for seat in range(players):
        assert set(round_.hand(seat)) == set(hands[seat])
    assert set(round_.table) == set(table)
    assert round_.stock == tuple(rest)
    # notation works too, and the default rest is every other card in deck order
    default = Round(rules, deck_for(rules, [[str(c) for c in h] for h in hands],
                                    [str(c) for c in table], dealer), dealer)
    assert [set(default.hand(s)) for s in range(players)] == [set(h) for h in hands]
    assert list(default.stock) == sorted(rest)


def test_deck_for_refuses_what_no_deck_deals():
    hands = [cards("7o 1c 2c"), cards("9b 4e 6e")]
    with pytest.raises(DeckError) as twice:
        deck_for(CLASSIC, [cards("7o 1c 2c"), cards("9b 4e 7o")], cards("3o 5c 8e 10b"), 0)
    assert (twice.value.code, twice.value.params) == ("deal_cards_twice", {"cards": ["7o"]})
    with pytest.raises(DeckError) as short:
        deck_for(CLASSIC, [cards("7o 1c"), cards("9b 4e 6e")], cards("3o 5c 8e 10b"), 0)
    assert short.value.code == "deal_wrong_count" and short.value.params["where"] == "hand 0"
    with pytest.raises(DeckError) as table:
        deck_for(CLASSIC, hands, cards("3o 5c 8e"), 0)
    assert table.value.params == {"where": "table", "count": 3, "expected": 4}
    with pytest.raises(DeckError) as seats:
        deck_for(CLASSIC, hands[:1], cards("3o 5c 8e 10b"), 0)
    assert seats.value.params["where"] == "hands"
    with pytest.raises(DeckError) as rest:
        deck_for(CLASSIC, hands, cards("3o 5c 8e 10b"), 0, rest=cards("1o 2o"))
    assert rest.value.code == "deck_not_full"
    with pytest.raises(DeckError) as dealer:
        deck_for(CLASSIC, hands, cards("3o 5c 8e 10b"), 2)
    assert dealer.value.code == "bad_dealer"


# -- card notation for the friendly solver functions -------------------------------------


def test_captures_accept_card_notation():
    assert captures(["3o", "5c", "8e", "10b"], "7o") == captures(
        cards("3o 5c 8e 10b"), card("7o"))
    assert set(captures(["3o", "5c"], "7o")[0]) == set(cards("3o 5c"))
    assert hand_captures(["8e"], ["7o", "1c"]) == {card("7o"): [frozenset(cards("8e"))],
                                                   card("1c"): []}
    assert subsets_totalling(["7o", "8e", "5c"]) == [frozenset(cards("7o 8e"))]


def test_captures_refuse_other_things_with_a_type_error_that_says_what_to_use():
    with pytest.raises(TypeError, match="Card.parse"):
        captures([3, 5], "7o")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="parse_cards"):
        captures("3o 5c", "7o")
    with pytest.raises(CardError, match="unknown card"):
        captures(["3x"], "7o")


# -- the legal-move cache is each round's own --------------------------------------------


def test_many_threads_play_at_once_and_every_verdict_stays_right():
    """Sixteen sessions in sixteen threads: each asks for legal moves, then plays one
    of them or tries an illegal move; the engine judges each as a fresh check does."""
    errors: list[str] = []
    start = threading.Barrier(16)

    def session(seed: int) -> None:
        rng = random.Random(seed)
        rules = (CLASSIC, Rules.preset("relaxed"))[seed % 2]
        start.wait()
        for _ in range(6):
            round_ = Game(rules, rng=rng).start_round()
            while not round_.is_over:
                pairs = round_.legal_move_pairs()
                card_index, take = rng.choice(pairs)
                if rng.random() < 0.3 and round_.table:  # an illegal try first
                    wrong = take ^ round_.table_mask & -round_.table_mask
                    legal = (card_index, wrong) in pairs
                    try:
                        round_.copy().play_pair(card_index, wrong)
                        accepted = True
                    except IllegalMoveError:
                        accepted = False
                    if accepted != legal:
                        errors.append(f"{seed}: {CARDS[card_index]} {wrong:#x} {accepted}")
                round_.play_pair(card_index, take)

    threads = [threading.Thread(target=session, args=(seed,)) for seed in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_each_round_has_its_own_legal_move_cache():
    """No state shared between sessions: legal moves asked of one round (or of its
    observation) are remembered by that round alone, and never change what a seat sees."""
    first = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    second = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    before = second.observation(1)
    first.observation(1).legal_move_pairs()
    assert first._legal is not None
    assert second._legal is not None  # computed for `before`, by its own round
    fresh = stacked_round(CLASSIC, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    assert fresh._legal is None
    assert first.observation(0).legal is None  # not its turn: no moves carried
    copied = first.copy()
    assert copied._legal == first._legal  # the same state, an immutable tuple
    copied.play_pair(*copied.legal_move_pairs()[0])
    assert copied._legal is None and first._legal is not None  # forgotten at the change
    assert first.observation(1) == before  # the same state, the same observation


def test_two_equal_cards_taken_at_once_are_told_to_take_only_one() -> None:
    """Scopa: with two 4s on the table, a 4 takes one of them. Taking both is refused as
    "only one", not as "take the 4 first" (which the child just did); a sum beside the
    4s is still told to take the 4 first."""
    from escoba import Card, Move, Round, Rules
    from trainer.i18n import t
    from trainer.verdicts import move_message

    round_ = Round.from_position(Rules.preset("scopa"), [["4o", "9c", "9e"],
                                                         ["2b", "6b", "6c"]],
                                 ["4c", "4e", "1b", "3b"], to_move=0)
    both = round_.check(Move(Card.parse("4o"), frozenset({Card.parse("4c"),
                                                           Card.parse("4e")})))
    assert both is not None and move_message(both) == ("must_take_one_equal", {"value": 4})
    summed = round_.check(Move(Card.parse("4o"), frozenset({Card.parse("1b"),
                                                             Card.parse("3b")})))
    assert summed is not None and move_message(summed)[0] == "must_take_equal"
    assert "one" in t("must_take_one_equal", "en", value=4).casefold()
