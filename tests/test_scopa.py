"""Italian Scopa and its family through the variant seam (issue 28).

The captures are checked against a brute force written here, independent of the
engine (tests/data/scopa_perft.txt holds its answers for 400 positions); the
worked cases are the seeds' and the Italian sources'; whole seeded games of every
preset and option keep their invariants.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.bots import PLAYER_LEVELS, make_player
from escoba.cards import CARDS, Card, mask_of
from escoba.deck import deck_for
from escoba.errors import Code, DeckError
from escoba.game import Game
from escoba.match import play_game
from escoba.moves import Move
from escoba.observation import Observation, build_observation
from escoba.record import game_to_record, replay
from escoba.round import Round
from escoba.rules import SCOPA_PRESETS, VARIANT_NAMES, Rules
from escoba.scoring import score_round
from escoba.variants import VARIANTS, captures, variant_for
from escoba.variants.scopa import napola_points

PERFT = Path(__file__).parent / "data" / "scopa_perft.txt"
SCOPA = Rules.preset("scopa")
APT = Rules.preset("scopa", asso_piglia_tutto=True)


# -- a brute force of Scopa's captures, independent of the engine -----------------------

def value_of(notation: str) -> int:
    return int(notation[:-1])


def brute_captures(card: str, table: list[str], ace_takes_all: bool) -> list[frozenset[str]]:
    """Every set ``card`` may take: all subsets of the table by exhaustion."""
    v = value_of(card)
    if ace_takes_all and v == 1 and table and not any(value_of(t) == 1 for t in table):
        return [frozenset(table)]
    summing = [frozenset(s) for k in range(1, len(table) + 1)
               for s in itertools.combinations(table, k) if sum(map(value_of, s)) == v]
    equal = [s for s in summing if len(s) == 1]  # one card summing to v is of equal value
    return equal if equal else summing


def perft_positions(count: int = 400, seed: int = 28) -> list[tuple[str, list[str], bool]]:
    rng = random.Random(seed)
    names = [str(c) for c in CARDS[:40]]
    out = []
    for _ in range(count):
        cards = rng.sample(names, rng.randint(2, 9))
        out.append((cards[0], sorted(cards[1:], key=Card.parse), rng.random() < 0.2))
    return out


def perft_line(card: str, table: list[str], apt: bool) -> str:
    sets = sorted(" ".join(sorted(s, key=Card.parse)) for s in brute_captures(card, table, apt))
    return f"{card} | {' '.join(table)} | {'apt' if apt else '-'} | {'; '.join(sets) or '-'}"


def read_perft() -> list[tuple[str, list[str], bool, list[str]]]:
    out = []
    for line in PERFT.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        card, table, option, sets = (part.strip() for part in line.split("|"))
        out.append((card, table.split(), option == "apt",
                    [] if sets == "-" else [s.strip() for s in sets.split(";")]))
    return out


def test_perft_file_is_the_brute_force():
    expected = [perft_line(*p) for p in perft_positions()]
    lines = [ln for ln in PERFT.read_text().splitlines() if ln and not ln.startswith("#")]
    assert len(lines) >= 300
    assert lines == expected


def test_perft_positions_match_the_variant():
    for card, table, apt, sets in read_perft():
        rules = APT if apt else SCOPA
        got = sorted(" ".join(str(c) for c in sorted(s)) for s in captures(rules, table, card))
        assert got == sorted(sets), (card, table, apt)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([str(c) for c in CARDS[:40]]), min_size=1, max_size=9,
                unique=True), st.booleans())
def test_legal_moves_are_the_brute_force(cards, apt):
    card, table = cards[0], cards[1:]
    rules = APT if apt else SCOPA
    round_ = Round.from_position(rules, [[card], []], table, to_move=0, stock=[],
                                 piles=[[], [str(c) for c in CARDS[:40]
                                             if str(c) not in cards]])
    takes = {frozenset(str(c) for c in m.take) for m in round_.legal_moves()}
    expected = set(brute_captures(card, table, apt)) or {frozenset()}
    assert takes == expected


# -- worked cases ---------------------------------------------------------------------

def position(rules: Rules, hand: list[str], table: list[str]) -> Round:
    """Seat 0 to play its last card: every other card already in seat 1's pile."""
    placed = set(hand) | set(table)
    rest = [str(c) for c in CARDS[:40] if str(c) not in placed]
    return Round.from_position(rules, [hand, []], table, to_move=0, stock=[],
                               piles=[[], rest])


def test_equal_value_blocks_a_sum():
    round_ = position(SCOPA, ["7o"], ["3o", "4c", "7e"])
    assert [sorted(map(str, m.take)) for m in round_.legal_moves()] == [["7e"]]
    verdict = round_.check(Move.parse("7o+3o+4c"))
    assert verdict is not None and verdict.code == Code.MUST_TAKE_EQUAL
    assert verdict.params["equal"] == ["7e"] and verdict.params["value"] == 7
    # Escoba reads the same table as a sum to 15 and has no such rule.
    assert Rules.preset("classic").variant == "escoba"


def test_two_equal_cards_take_one_either():
    round_ = position(SCOPA, ["7o"], ["7e", "7b", "2o"])
    assert sorted(str(next(iter(m.take))) for m in round_.legal_moves()) == ["7b", "7e"]
    both = round_.check(Move.parse("7o+7e+7b"))
    assert both is not None and both.code == Code.MUST_TAKE_EQUAL
    for take in ("7e", "7b"):
        again = position(SCOPA, ["7o"], ["7e", "7b", "2o"])
        played = again.play(Move.parse(f"7o+{take}"))
        assert not played.escoba


def test_a_sum_when_no_equal_card_and_a_wrong_sum_refused():
    round_ = position(SCOPA, ["9o"], ["2o", "3c", "4e", "6b"])
    assert sorted(sorted(map(str, m.take)) for m in round_.legal_moves()) == [
        ["2o", "3c", "4e"], ["3c", "6b"]]
    wrong = round_.check(Move.parse("9o+2o+3c"))
    assert wrong is not None and wrong.code == Code.WRONG_SUM
    assert wrong.params["need"] == 9 and wrong.params["total"] == 5


def test_capture_is_compulsory_and_a_card_that_takes_nothing_is_laid():
    round_ = position(SCOPA, ["5o"], ["2o", "3c"])
    refused = round_.check(Move.parse("5o"))
    assert refused is not None and refused.code == Code.CAPTURE_FORCED
    laid = position(SCOPA, ["9o"], ["2o", "3c"])
    assert [m.take for m in laid.legal_moves()] == [frozenset()]


def side_piles(rules: Rules, first: list[str], second: list[str]):
    return score_round(rules, [mask_of(Card.parse(c) for c in first),
                               mask_of(Card.parse(c) for c in second)], [0, 0])


def test_primiera_a_missing_suit_cannot_win():
    # Side 0 holds three sevens (denari, coppe, spade) but no bastoni; side 1 holds a
    # weak card of every suit: side 1 wins the primiera.
    score = side_piles(SCOPA, ["7o", "7c", "7e", "6o", "6c"], ["2o", "2c", "2e", "2b"])
    primiera = score.category("setenta")
    assert primiera.counts == (None, 48) and primiera.winner == 1
    assert variant_for(SCOPA).category_labels["setenta"] == "primiera"


def test_primiera_tie_scores_nobody():
    # 21+12+12+12 = 57 against 21+12+13+16 = 62: side 1.
    score = side_piles(SCOPA, ["7o", "2c", "2e", "2b"], ["7c", "2o", "3e", "1b"])
    assert score.category("setenta").winner == 1
    # 21+12+12+12 = 57 against 21+13+13+10 = 57: a tie scores nobody.
    tie = side_piles(SCOPA, ["7o", "2c", "2e", "2b"], ["7c", "3o", "3e", "10b"])
    assert tie.category("setenta").counts == (57, 57)
    assert tie.category("setenta").winner is None
    # Neither holds every suit: nobody.
    none = side_piles(SCOPA, ["7o", "6c"], ["7c", "6o"])
    assert none.category("setenta").reason == "nobody"


@pytest.mark.parametrize("cards,points", [
    (["1o", "2o", "3o"], 3), (["1o", "2o", "3o", "4o", "5o"], 5), (["1o", "2o"], 0),
    (["1o", "2o", "3o", "5o"], 3), (["2o", "3o", "4o"], 0),
    ([f"{v}o" for v in range(1, 11)], 10)])
def test_napola_sequences(cards, points):
    assert napola_points(mask_of(Card.parse(c) for c in cards)) == points
    with_napola = Rules.preset("scopa", napola=True)
    score = side_piles(with_napola, cards, ["1c"])
    assert score.category("napola").points == (points, 0)
    assert "napola" not in score_round(SCOPA, [1, 2], [0, 0]).breakdown[0]


def test_asso_piglia_tutto_without_an_ace_on_the_table():
    round_ = position(APT, ["1o"], ["5c", "9e", "10b"])
    assert [sorted(map(str, m.take)) for m in round_.legal_moves()] == [["10b", "5c", "9e"]]
    # Laid down, the ace is told why it must take: the whole table, by right (not "a
    # sum can be made", which a child looks for in vain).
    laid = round_.check(Move.parse("1o"))
    assert laid is not None and laid.code == Code.ACE_TAKES_ALL
    assert sorted(laid.params["cards"]) == ["10b", "5c", "9e"]
    bad = round_.check(Move.parse("1o+5c"))
    assert bad is not None and bad.code == Code.ACE_TAKES_ALL


def test_asso_piglia_tutto_with_an_ace_on_the_table_takes_the_ace():
    round_ = position(APT, ["1o"], ["1c", "9e", "10b"])
    assert [sorted(map(str, m.take)) for m in round_.legal_moves()] == [["1c"]]


@pytest.mark.parametrize("counts", [False, True])
def test_asso_piglia_tutto_as_scopa_or_not(counts):
    rules = Rules.preset("scopa", asso_piglia_tutto=True, asso_piglia_tutto_scopa=counts)
    round_ = Round.from_position(rules, [["1o", "5o"], ["2c", "4c"]], ["5c", "9e"],
                                 to_move=0, stock=[],
                                 piles=[[], [str(c) for c in CARDS[:40] if str(c) not in
                                             {"1o", "5o", "2c", "4c", "5c", "9e"}]])
    played = round_.play(Move.parse("1o+5c+9e"))
    assert played.escoba is counts
    # A plain sum that clears the table is a scopa either way.
    plain = position(rules, ["7o"], ["3c", "4e"])
    assert not plain.play(Move.parse("7o+3c+4e")).escoba  # ... but not on the last play


def deck_with_table(table: list[str]) -> list[Card]:
    hands = [["2o", "3o", "4o"], ["2c", "3c", "4c"]]
    return deck_for(SCOPA, hands, table, dealer=0)


@pytest.mark.parametrize("kings,redeal", [(2, False), (3, True), (4, True)])
def test_three_or_four_re_on_the_opening_table_redeal(kings, redeal):
    table = ["10o", "10c", "10e", "10b"][:kings] + ["5o", "6o"][: 4 - kings]
    deck = deck_with_table(table)
    if redeal:
        with pytest.raises(DeckError) as refused:
            Round(SCOPA, deck, 0)
        assert refused.value.code == Code.DECK_REDEAL
        # What happened under Scopa: the kings, not Escoba's sum (no ``need``).
        assert refused.value.params == {"table": [str(c) for c in sorted(map(Card.parse, table))],
                                        "kings": kings}
        assert f"holds {kings} re" in str(refused.value)
    else:
        assert sorted(map(str, Round(SCOPA, deck, 0).table)) == sorted(table)
    # Escoba's opening-table rule is about 15s, not kings.
    assert variant_for(Rules.preset("classic")).opening_table(
        Rules.preset("classic"), mask_of(Card.parse(c) for c in table)) == "play"


def test_no_scopa_on_the_last_play_but_earlier_yes():
    last = position(SCOPA, ["7o"], ["3c", "4e"])
    played = last.play(Move.parse("7o+3c+4e"))
    assert not played.escoba and last.is_over and last.escobas == (0, 0)
    earlier = Round.from_position(SCOPA, [["7o", "1o"], ["2c", "1c"]], ["3c", "4e"],
                                  to_move=0, stock=[],
                                  piles=[[], [str(c) for c in CARDS[:40] if str(c) not in
                                              {"7o", "1o", "2c", "1c", "3c", "4e"}]])
    assert earlier.play(Move.parse("7o+3c+4e")).escoba


def test_sweep_risk_band_and_fact():
    assert variant_for(SCOPA).sweep_risk_band(SCOPA) == (1, 10)
    assert Rules.preset("classic").sweep_risk_range == (5, 14)
    scopa = variant_for(SCOPA)
    assert scopa.fact(SCOPA, Card.parse("7o").index, mask_of([Card.parse("4c"),
                                                              Card.parse("3e")])) == "7=3+4"
    escoba = variant_for(Rules.preset("classic"))
    assert escoba.fact(Rules.preset("classic"), Card.parse("7o").index,
                       mask_of([Card.parse("8c")])) == "15-7"
    assert tuple(VARIANTS) == VARIANT_NAMES == ("escoba", "scopa")


def test_observation_builder_names_every_field():
    code = getattr(build_observation, "__code__", None)
    if code is None:
        pytest.skip("compiled by mypyc: the pure run checks the builder's parameters")
    assert code.co_varnames[:code.co_argcount] == Observation._fields


# -- whole games ------------------------------------------------------------------------

def recount(rules: Rules, round_: Round) -> tuple[int, ...]:
    """The round's points from its piles and history, counted here again."""
    sides = rules.sides
    piles = [0] * sides
    scope = [0] * sides
    for seat in range(rules.players):
        piles[rules.side_of(seat)] |= round_.pile_masks[seat]
    for play in round_.history:
        if play.escoba:
            scope[rules.side_of(play.seat)] += 1
    cards = [[CARDS[i] for i in range(40) if p >> i & 1] for p in piles]
    primiera_value = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}

    def most(counts: list) -> list[int]:
        valid = [c for c in counts if c is not None]
        if not valid or valid.count(max(valid)) > 1:
            return [0] * sides
        return [1 if c == max(valid) else 0 for c in counts]

    def primiera(held: list[Card]) -> int | None:
        best = {}
        for c in held:
            best[c.suit] = max(best.get(c.suit, 0), primiera_value[c.value])
        return sum(best.values()) if len(best) == 4 else None

    points = [a + b + c + d + e for a, b, c, d, e in zip(
        most([len(h) for h in cards]),
        most([sum(1 for c in h if str(c).endswith("o")) for h in cards]),
        [1 if any(str(c) == "7o" for c in h) else 0 for h in cards],
        most([primiera(h) for h in cards]), scope, strict=True)]
    if rules.napola:
        for side, h in enumerate(cards):
            run = 0
            while any(str(c) == f"{run + 1}o" for c in h) and run < 10:
                run += 1
            points[side] += run if run >= 3 else 0
    return tuple(points)


GAME_RULES = [
    Rules.preset("scopa"), Rules.preset("scopa", players=3), Rules.preset("scopa", target=16),
    Rules.preset("scopa", players=4, teams=True, target=21),
    Rules.preset("scopa", napola=True), APT,
    Rules.preset("scopa", asso_piglia_tutto=True, asso_piglia_tutto_scopa=True, napola=True),
    Rules.preset("scopone"), Rules.preset("scopone_scientifico", napola=True),
    Rules.preset("scopa", capture_rule="optional"),
]


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda r: r.describe())
def test_whole_seeded_games_keep_their_invariants(rules):
    rng = random.Random(hash(rules.describe()) % 1000)
    for _ in range(3):
        game = Game(rules, rng=rng)
        while not game.is_over:
            round_ = game.start_round()
            while not round_.is_over:
                moves = round_.legal_moves()
                assert moves
                move = rng.choice(moves)
                assert round_.check(move) is None
                round_.play(move)
            masks = round_.pile_masks
            assert sum(m.bit_count() for m in masks) == 40
            union = 0
            for m in masks:
                assert not union & m
                union |= m
            assert union == (1 << 40) - 1
            assert round_.score().totals == recount(rules, round_)
        assert game.winner is not None
        assert max(game.totals) >= rules.target


@pytest.mark.parametrize("level", sorted(PLAYER_LEVELS))
@pytest.mark.parametrize("preset", ["scopa", "scopone"])
def test_bots_of_every_level_play_legally(level, preset):
    rules = Rules.preset(preset)
    if preset == "scopone" and level == "expert":
        rules = rules.replace(target=1)  # one round: nine-card hands make a long search
    players = [make_player(level) for _ in range(rules.players)]
    game = play_game(rules, players, random.Random(5))  # the engine judges every move
    for round_ in game.rounds:
        assert round_.is_over
        assert sum(m.bit_count() for m in round_.pile_masks) == 40
        assert round_.score().totals == recount(rules, round_)


def test_expert_takes_an_obvious_scopa():
    round_ = Round.from_position(SCOPA, [["7o", "10c"], ["2c", "1c"]], ["3c", "4e"],
                                 to_move=0, stock=[],
                                 piles=[[], [str(c) for c in CARDS[:40] if str(c) not in
                                             {"7o", "10c", "2c", "1c", "3c", "4e"}]])
    pair = make_player("expert").choose_pair(round_.observation(0), random.Random(1))
    assert pair == (Card.parse("7o").index, mask_of([Card.parse("3c"), Card.parse("4e")]))


@pytest.mark.parametrize("preset", sorted(SCOPA_PRESETS))
def test_record_round_trip_and_replay(preset):
    rules = Rules.preset(preset, napola=True)
    game = play_game(rules, [make_player("greedy") for _ in range(rules.players)],
                     random.Random(11))
    record = game_to_record(game)
    assert record["rules"]["variant"] == "scopa" and record["rules"]["preset"] == preset
    again = replay(json.dumps(record))
    assert again.complete and again.totals == tuple(game.totals)
    assert Rules.from_dict(record["rules"]) == rules


def test_old_records_read_as_escoba():
    assert Rules.from_dict({"preset": "classic", "players": 2}).variant == "escoba"
    assert "variant" not in Rules.preset("classic").to_dict(only_changes=True)


def test_options_belong_to_their_variant():
    from escoba.errors import RulesError
    with pytest.raises(RulesError):
        Rules.preset("classic", napola=True)
    with pytest.raises(RulesError):
        Rules.preset("scopa", capture_rule="renuncio")
    with pytest.raises(RulesError):
        Rules.preset("scopa", jokers=True)
    with pytest.raises(RulesError):
        Rules.preset("scopa", variant="cirulla")


def test_cli_captures_under_scopa(capsys):
    from commands import main
    assert main(["captures", "--rules", "scopa", "--table", "3o", "4c", "7e", "--card",
                 "7o", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"card": "7o", "captures": [["7e"]]}
    assert main(["captures", "--table", "3o", "4c", "7e", "--card", "7o", "--json"]) == 0
    # Escoba's 7o needs 8 from this table: none.
    assert json.loads(capsys.readouterr().out)["captures"] == []


def test_cli_replays_a_scopa_record(tmp_path, capsys):
    from commands import main
    game = play_game(SCOPA, [make_player("random"), make_player("random")], random.Random(2))
    path = tmp_path / "scopa.json"
    path.write_text(json.dumps(game_to_record(game)))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert tuple(out["totals"]) == tuple(game.totals)


def test_coach_warns_with_scopas_band():
    from escoba.coach import analyse
    # Laying a 4 on a table of 3 leaves 7: a scopa for any unseen 7 (band 1-10).
    round_ = Round.from_position(SCOPA, [["4o", "9c"], ["7c", "8c"]], ["3c"], to_move=0,
                                 stock=[], piles=[[], [str(c) for c in CARDS[:40] if str(c)
                                                       not in {"4o", "9c", "7c", "8c",
                                                               "3c"}]])
    assessments = analyse(round_.observation(0), search=False)
    lay = next(a for a in assessments if a.move == Move.parse("4o"))
    assert lay.sweep_risk is not None and lay.sweep_risk.total == 7


@pytest.mark.parametrize("rules", [SCOPA, Rules()], ids=["scopa", "escoba"])
def test_coach_names_the_sweep_with_the_games_word(rules: Rules) -> None:
    """The coach's reason for a sweep and its warning for a missed one use the game's
    word: ``scopa``/``misses_scopa`` under Scopa, ``escoba``/``misses_escoba`` under
    Escoba; the app's catalogs say "scopa!" and "¡escoba!" for them."""
    from escoba.coach import MESSAGE_KEYS, analyse
    from trainer.i18n import t
    # Scopa: the 7o takes the 3c + 4c (the whole table); Escoba: the 8o does (8+3+4=15).
    sweeper = "7o" if rules.variant == "scopa" else "8o"
    others = {sweeper, "2e", "3c", "4c", "9c"}
    round_ = Round.from_position(rules, [[sweeper, "2e"], ["9c"]], ["3c", "4c"], to_move=0,
                                 stock=[], piles=[[], [str(c) for c in CARDS[:40]
                                                       if str(c) not in others]])
    assessments = {a.move: a for a in analyse(round_.observation(0), search=False)}
    word = rules.variant
    sweep = assessments[Move.parse(f"{sweeper}+3c+4c")]
    assert sweep.reason[0] == word and word in MESSAGE_KEYS
    assert any(w[0] == f"misses_{word}" for w in assessments[Move.parse("2e")].warnings)
    said = t(f"coach.{word}", "en", cards=3)
    assert ("scopa!" in said) == (word == "scopa") and ("escoba" in said) == (word == "escoba")


def test_a_variant_must_say_what_its_game_owns() -> None:
    """A new variant that leaves out one of the rules its game owns cannot be made: the
    base class says which ones (the seam's contract), not a run-time surprise."""
    from escoba.variants.base import Variant

    if not hasattr(Variant, "__abstractmethods__"):
        pytest.skip("compiled core: mypyc checks a native class's abstract methods when "
                    "it builds (the pure run checks them here)")
    owned = {"capture_sets", "refusal", "fact", "capture_terms", "sweep_risk_band",
             "sweeper_value", "opening_table", "redeal_error", "score"}
    assert Variant.__abstractmethods__ == owned
    for variant in VARIANTS.values():
        assert not type(variant).__abstractmethods__, variant

    class HalfDone(Variant):
        def capture_sets(self, rules: Rules, table: int, card: int) -> list[int]:
            return []

    with pytest.raises(TypeError, match="abstract"):
        HalfDone()  # type: ignore[abstract]


def test_scopas_wrong_sum_says_the_table_cards_make_the_played_cards_value() -> None:
    """Scopa's refused sum names what it sums (``sum_of="table"``: the table cards, the
    played card's value as ``need``), so the app need not guess it from the numbers;
    Escoba's counts the played card and has no such parameter."""
    wrong = position(SCOPA, ["6o"], ["3c", "2e"]).check(Move.parse("6o+3c+2e"))
    assert wrong is not None and wrong.code == Code.WRONG_SUM
    assert wrong.params["sum_of"] == "table"
    assert sorted(wrong.params["values"]) == [2, 3] and wrong.params["need"] == 6
    wrong = position(Rules(), ["6o"], ["3c", "2e"]).check(Move.parse("6o+3c+2e"))
    assert wrong is not None and wrong.code == Code.WRONG_SUM
    assert "sum_of" not in wrong.params and wrong.params["need"] == 15


def test_a_captures_terms_are_the_variants_and_the_ace_by_right_has_none() -> None:
    """The sum a capture shows, said once by its variant: Scopa's table cards to the card's
    value, an equal card as itself, and no sum (None) for the ace taking the table by
    right; Escoba's table cards and card to the capture sum."""
    def idx(codes: str) -> int:
        return mask_of([Card.parse(c) for c in codes.split()])

    scopa = variant_for(APT)
    seven, ace = Card.parse("7o").index, Card.parse("1o").index
    assert scopa.capture_terms(APT, seven, idx("4c 3e")) == ((3, 4), 7)
    assert scopa.capture_terms(APT, seven, idx("7c")) == ((7,), 7)
    assert scopa.capture_terms(APT, ace, idx("3b 7e 10b")) is None
    assert scopa.fact(APT, ace, idx("3b 7e 10b")) is None
    assert scopa.capture_terms(APT, ace, idx("1c")) == ((1,), 1)
    classic = Rules.preset("classic")
    assert variant_for(classic).capture_terms(classic, seven, idx("8c")) == ((8, 7), 15)
