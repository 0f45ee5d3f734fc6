"""Scopa puzzles (issue 28): "find every capture of this card" by Scopa's rule.

The solutions are checked against a brute force written here from the rule's text
(docs/RULES-READING.md, "Scopa and its family"): *a card of equal value on the table
must be taken (one of them, the player's choice) before any sum; otherwise any set of
table cards summing to the played card's value* — never against the variant the
generator asks, so a wrong variant and a wrong generator cannot agree by accident.
"""

from __future__ import annotations

import io
import itertools
import json
import statistics
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.cards import CARDS, Card, parse_cards
from escoba.rules import Rules
from puzzles import Puzzle, check, from_cards, generate, hint, parse_id, regenerate
from puzzles.daily import DAILY_PLAN
from puzzles.grading import BANDS, LEVEL5_CAP
from puzzles.model import KINDS, variant_capture_facts
from puzzles.practice import (
    FOR_ME_KINDS,
    Attempt,
    attempt_answers,
    for_me_kinds,
    for_me_puzzle,
    puzzle_for,
)

SEEDS = range(25)


def rule_text_captures(table: list[Card], card: Card) -> set[frozenset[Card]]:
    """Every capture of ``card`` on ``table`` by the rule's words, over all subsets."""
    equal = [c for c in table if c.value == card.value]
    if equal:  # one of them, the player's choice; no sum at all
        return {frozenset([c]) for c in equal}
    return {frozenset(s) for n in range(1, len(table) + 1)
            for s in itertools.combinations(table, n) if sum(c.value for c in s) == card.value}


def stored(p: Puzzle) -> set[frozenset[Card]]:
    assert all(s.card == p.hand[0] for s in p.solutions)
    return {frozenset(s.take) for s in p.solutions}


def additions(take: tuple[Card, ...]) -> tuple[str, ...]:
    """The additions a child does adding the table cards smallest first: 1, 2, 4 -> 1+2, 3+4."""
    values = sorted(c.value for c in take)
    return tuple(f"{sum(values[:i])}+{values[i]}" for i in range(1, len(values)))


def band(level: int) -> tuple[int, int]:
    return BANDS[level - 1], (BANDS[level] - 1 if level < 5 else LEVEL5_CAP)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_generates_from_its_seed_and_solves_by_the_rule(level: int) -> None:
    low, high = band(level)
    for seed in SEEDS:
        p = generate("scopa", level, seed)
        assert p == generate("scopa", level, seed)  # the same seed, the same puzzle
        assert regenerate(p.id) == p and p.id == f"scopa:{level}:15:{seed}"
        assert (p.kind, p.level, len(p.hand)) == ("scopa", level, 1)
        assert low <= p.stats.difficulty <= high  # graded into its band, never the nearest
        assert p.hand[0] not in p.table and len(set(p.table)) == len(p.table)
        assert stored(p) == rule_text_captures(list(p.table), p.hand[0])
        for sol in p.solutions:  # the child's additions; an equal card is none
            assert sol.facts == additions(sol.take)


def test_difficulty_rises_with_the_level() -> None:
    by_level = {lv: [generate("scopa", lv, s) for s in range(60)] for lv in range(1, 6)}

    def mean(level: int, what) -> float:
        return statistics.mean(what(p) for p in by_level[level])

    tables = [mean(lv, lambda p: len(p.table)) for lv in range(1, 6)]
    answers = [mean(lv, lambda p: len(p.solutions)) for lv in range(1, 6)]
    longest = [mean(lv, lambda p: max((len(s.take) for s in p.solutions), default=0))
               for lv in range(1, 6)]
    assert tables == sorted(tables) and tables[0] < tables[-1]
    assert answers[4] > answers[3] > answers[2] > answers[0]
    assert longest == sorted(longest)
    # The equal card's trap (sums the rule forbids) is met on the way up, not on day one.
    traps = [sum(p.stats.traps > 0 for p in by_level[lv]) for lv in range(1, 6)]
    assert traps[0] < traps[2] and traps[1] < traps[2]
    # Level 1 is a first day (a few cards); "none" is an answer there, as for captures.
    assert all(len(p.table) <= 5 for p in by_level[1])
    assert any(not p.solutions for p in by_level[1])
    assert all(p.solutions for p in by_level[5])


def test_the_capture_sum_does_not_change_a_scopa_puzzle() -> None:
    for level in (1, 4):
        ten, fifteen = generate("scopa", level, 3, 10), generate("scopa", level, 3, 15)
        assert (ten.table, ten.hand, ten.solutions) == (fifteen.table, fifteen.hand,
                                                        fifteen.solutions)
        assert (ten.capture_sum, ten.id) == (10, f"scopa:{level}:10:3")


def test_ids_round_trip_and_old_ids_parse_unchanged() -> None:
    p = generate("scopa", 3, "rt")
    assert parse_id(p.id) == ("scopa", 3, 15, "rt")
    assert Puzzle.from_dict(p.to_dict()) == p
    assert parse_id("captures:3:15:9") == ("captures", 3, 15, "9")
    assert KINDS[:5] == ("captures", "hand", "fifteens", "best-move", "quick-facts")
    # The daily keeps its Escoba set (tests/test_puzzles_daily.py pins its cards).
    assert "scopa" not in DAILY_PLAN


def _scopa(table: str, card: str) -> Puzzle:
    return from_cards("scopa", parse_cards(table), parse_cards(card))


def test_an_equal_card_must_be_taken_and_a_sum_is_refused() -> None:
    p = _scopa("3o 4c 7c 2b", "7o")
    assert stored(p) == {frozenset(parse_cards("7c"))}
    assert p.solutions[0].facts == ()  # 7 = 7: no addition
    result = check(p, "3o 4c")
    (wrong,) = result.wrong
    assert (wrong.key, wrong.params["value"], wrong.params["equal"]) == (
        "must_take_equal", 7, ["7c"])
    assert "a 7 is on the table" in wrong.message and not result.solved
    assert check(p, "7c").solved and check(p, "7c").stars == 3
    # A set that does not make 7 is told by its arithmetic (Scopa adds table cards only).
    (arith,) = check(p, "2b 4c").wrong
    assert (arith.key, arith.message) == ("wrong_sum", "2 + 4 = 6, not 7")
    # A wrong Scopa set is no wrong complement: Scopa has none.
    assert attempt_answers(p, result) == []
    assert hint(p).key == "scopa_equal"


def test_two_equal_cards_are_both_answers() -> None:
    p = _scopa("7c 7e 3o 4b", "7o")
    assert stored(p) == {frozenset([Card.parse("7c")]), frozenset([Card.parse("7e")])}
    assert not check(p, "7c").solved  # one of two found
    assert check(p, "7c; 7e").solved
    assert [w.key for w in check(p, "7c; 7e; 3o 4b").wrong] == ["must_take_equal"]


def test_sums_without_an_equal_card_and_a_table_with_none() -> None:
    p = _scopa("2o 5c 3b 4e 9o", "7o")
    assert stored(p) == rule_text_captures(list(p.table), p.hand[0])
    assert {s.facts for s in p.solutions} == {("2+5",), ("3+4",)}
    (wrong,) = check(p, "2o 3b").wrong
    assert wrong.params == {"values": [2, 3], "total": 5, "sum": 7, "sum_of": "table"}
    assert hint(p).key == "scopa_need"
    assert hint(p, strength=3).key == "the_set"
    empty = _scopa("8o 9c", "3e")
    assert not empty.solutions and check(empty, "none").solved
    assert [w.key for w in check(empty, "none").wrong] == []
    assert hint(empty).key == "scopa_check_each"


def test_facts_are_the_evidence_models_conversion() -> None:
    scopa = Rules.preset("scopa")
    seven = Card.parse("7o")
    assert variant_capture_facts(scopa, seven, parse_cards("4c 3b")) == ("3+4",)
    assert variant_capture_facts(scopa, seven, parse_cards("7c")) == ()
    assert variant_capture_facts(Rules(), seven, parse_cards("3o 5c")) == (
        "3+5", "8+7", "15-7")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 39), min_size=2, max_size=10, unique=True))
def test_any_table_solves_by_the_rule_and_every_other_set_is_explained(indices) -> None:
    *table, card = [CARDS[i] for i in indices]
    p = from_cards("scopa", table, [card])
    expected = rule_text_captures(table, card)
    assert stored(p) == expected
    for n in (1, 2):
        for take in itertools.combinations(table, n):
            if frozenset(take) in expected:
                continue
            (wrong,) = check(p, [list(take)]).wrong
            assert wrong.key in ("must_take_equal", "wrong_sum")


def test_targeted_practice_makes_scopa_puzzles() -> None:
    p = puzzle_for(["3+4"], "scopa", 2)
    assert p.kind == "scopa" and p.level == 2 and "3+4" in p.facts
    assert p.id.startswith("scopa:2:15:forme-")


def _attempt(kind: str) -> Attempt:
    p = generate(kind, 1, 1)
    return Attempt.of(p, check(p, []), 5.0, [], "practice", date(2026, 12, 3))


def test_for_me_takes_scopa_in_turn_once_the_child_practised_it() -> None:
    escoba_only = [_attempt("captures")]
    assert for_me_kinds(escoba_only) == FOR_ME_KINDS
    assert all(for_me_puzzle({}, escoba_only, 15, n)[0].kind != "scopa" for n in range(4))
    with_scopa = [*escoba_only, _attempt("scopa")]
    assert for_me_kinds(with_scopa) == (*FOR_ME_KINDS, "scopa")
    assert [for_me_puzzle({}, with_scopa, 15, n)[0].kind for n in range(4)] == [
        *FOR_ME_KINDS, "scopa"]


# -- worksheets, the command line, the page's pieces --------------------------------------

def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return "".join(text.replace("\x00", " ").split())


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ["Preseascopa-livello3", "Scopa:giocalacartachevale", "vapresaperprima",
            "Soluzioni"]),
    ("zh", ["Scopa收牌-第3级", "就必须先收它", "答案"]),
    ("en", ["Scopacaptures-level3", "mustbetakenfirst", "Answerkey"]),
])
def test_a_scopa_worksheet_prints_the_italian_cards_in_its_language(lang, words) -> None:
    from puzzles.worksheet import worksheet_pdf, worksheet_puzzles

    data = worksheet_pdf("scopa", 3, count=10, seed=4, lang=lang)
    text = _pdf_text(data)
    assert data.startswith(b"%PDF") and not [w for w in words if w not in text]
    assert "somma" not in text and "sum15" not in text  # Scopa has no capture sum
    puzzles = worksheet_puzzles("scopa", 3, 10, 4)
    shown = {c for p in puzzles for c in (*p.table, *p.hand)}
    # The Italian deck's own names in every language: suits and figures.
    italian = {"o": "denari", "c": "coppe", "e": "spade", "b": "bastoni"}
    for card in shown:
        if card.value <= 7:
            assert italian[str(card)[-1]] in text
    if any(c.value == 8 for c in shown):
        assert "Fante" in text
    assert "oros" not in text and "Sota" not in text
    # The key: each solution with the Italian corner code and the table's sum.
    sol = next(s for p in puzzles for s in p.solutions if len(s.take) >= 2)
    values = [c.value for c in sol.take]
    assert f"{' + '.join(map(str, values))} = {sol.card.value}".replace(" ", "") in text


def test_scopa_worksheet_codes_round_trip() -> None:
    from puzzles.worksheet import parse_worksheet_code, worksheet_code, worksheet_puzzles

    code = worksheet_code("scopa", 2, 31, 15)
    assert code == "SC2-15-31" and parse_worksheet_code(code) == ("scopa", 2, 15, "31")
    assert parse_worksheet_code("CA2-15-7") == ("captures", 2, 15, "7")
    kind, level, capture_sum, seed = parse_worksheet_code(code)
    assert worksheet_puzzles(kind, level, 3, seed, capture_sum) == worksheet_puzzles(
        "scopa", 2, 3, 31)


def test_the_command_line_makes_scopa_puzzles(capsys) -> None:
    from commands import main

    assert main(["puzzle", "--kind", "scopa", "--level", "3", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    p = generate("scopa", 3, 7)
    assert data["id"] == p.id and data["kind"] == "scopa" and data["hand"] == [str(p.hand[0])]
    assert main(["puzzle", "--kind", "scopa", "--level", "3", "--seed", "7"]) == 0
    human = capsys.readouterr().out
    assert "Scopa's rule" in human and "sum 15" not in human
    for sol in p.solutions:
        values = " + ".join(str(c.value) for c in sol.take)
        assert f"{sol.card} takes" in human and f"({values} = {sol.card.value})" in human
    with pytest.raises(SystemExit):
        main(["puzzle", "--help"])
    assert "scopa" in capsys.readouterr().out


def test_the_set_being_built_adds_table_cards_to_the_cards_value() -> None:
    from trainer.practice_sessions import PuzzleSession

    p = _scopa("2o 5c 3b 4e 9o", "7o")
    session = PuzzleSession(p)
    made = session.set_sum(None, ["3b", "4e"])
    assert (made.values, made.total, made.need, made.right) == ((3, 4), 7, 7, True)
    assert not session.set_sum(None, ["2o", "3b"]).right
    said = session.add(None, ["2o", "3b"])
    assert said is not None and said.params["wrong"].params["sum"] == 7


def test_the_board_sums_to_the_card_as_on_play() -> None:
    from escoba.cards import Deck
    from trainer.board_view import puzzle_board

    p = _scopa("2o 5c 3b 4e 9o", "7o")
    data = puzzle_board(p, sets_given=0, deck=Deck.ITALIAN, show_value=True, intro="",
                        hand_title="", add_label="Add", play_label="Play")
    assert data["sum_rule"] == "card" and data["select"]["fixed"] == "7o"
    assert data["faces"]["7o"]["name"] == "7 di denari"
    escoba = puzzle_board(from_cards("captures", parse_cards("3o 5c"), parse_cards("7o")),
                          sets_given=0, deck=Deck.SPANISH, show_value=True, intro="",
                          hand_title="", add_label="Add", play_label="Play")
    assert escoba["sum_rule"] == "with_card"


@pytest.mark.parametrize("lang", ["en", "es", "de", "it", "zh"])
def test_a_refused_set_is_explained_in_every_language(lang: str) -> None:
    from escoba.cards import Deck
    from trainer.i18n import card_name, t

    card = card_name(Card.parse("7o"), Deck.ITALIAN, lang)
    english = t("pz_must_take_equal", "en", card=card_name(Card.parse("7o"), Deck.ITALIAN,
                                                             "en"), value=7)
    said = t("pz_must_take_equal", lang, card=card, value=7)
    assert "7 di denari" in said and "7" in said.replace("7 di denari", "")
    assert (said == english) == (lang == "en")
    for key in ("pz_intro_scopa", "pz_hint_scopa_need", "pz_hint_scopa_equal",
                "pz_hint_scopa_check_each"):
        text = t(key, lang, card=card, value=7)
        assert "{" not in text and "7 di denari" in text
