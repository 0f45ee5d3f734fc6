"""escoba-record/1: write, replay, and refuse broken records with a clear message."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from commands import main
from escoba import Game, Rules, game_to_record, replay
from escoba.bots import RandomPlayer
from escoba.cards import CARDS
from escoba.match import play_game
from escoba.record import FORMAT, RecordError

CONFIGS = [
    Rules.preset("classic"),
    Rules.preset("setenta", players=4, teams=True),
    Rules.preset("relaxed", players=3),
    Rules.preset("escova", jokers=True, hand_size=7),
    Rules.preset("classic", capture_rule="renuncio", players=4),
    Rules.preset("classic", miscount="penalty", capture_sum=20, target=15),
    Rules.preset("setenta", capture_sum=10, primera=True),
]


def simulated_records(count: int, seed: int = 1) -> list[tuple[Game, dict]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rules = CONFIGS[i % len(CONFIGS)]
        game = play_game(rules, [RandomPlayer() for _ in range(rules.players)], rng)
        out.append((game, game_to_record(game, [f"P{s}" for s in range(rules.players)])))
    return out


RECORDS = simulated_records(21)


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_simulate_record_replay_gives_the_same_scores(index):
    game, record = RECORDS[index]
    text = json.dumps(record)
    result = replay(text)
    assert result.complete == game.is_over
    assert result.winner == game.winner
    assert list(result.totals) == list(game.totals)
    assert [s.breakdown for s in result.scores] == [s.breakdown for s in game.round_scores()]
    # Writing the replayed game gives the same record back.
    assert game_to_record(result.game, record["names"]) == record


def test_the_record_has_the_shape_of_record_md():
    game, record = RECORDS[0]
    assert record["format"] == FORMAT
    assert record["rules"] == {"preset": "classic", "players": 2}
    first = record["rounds"][0]
    assert set(first) >= {"dealer", "deck", "moves"}
    assert len(first["deck"]) == 40
    move = first["moves"][0]
    assert set(move) == {"seat", "card", "take"}
    assert move["card"] not in move["take"]


def test_a_record_may_stop_mid_game():
    game, record = RECORDS[1]
    partial = copy.deepcopy(record)
    partial["rounds"] = partial["rounds"][:1]
    partial["rounds"][0]["moves"] = partial["rounds"][0]["moves"][:5]
    result = replay(partial)
    assert not result.complete and result.winner is None
    position = result.to_json()["position"]
    assert position["round"] == 1 and position["moves"] == 5
    assert result.to_json()["rounds"] == []


def test_renuncio_and_miscount_entries_round_trip():
    kinds = {"renuncio": 0, "miscount": 0}
    rng = random.Random(3)
    for rules in (Rules.preset("classic", capture_rule="renuncio"),
                  Rules.preset("classic", miscount="penalty")):
        for _ in range(10):
            game = Game(rules, rng=rng)
            round_ = game.start_round()
            while not round_.is_over:
                claims = round_.renuncio_claims()
                if claims:
                    game.claim_renuncio(claims[0])
                moves = round_.legal_moves()
                move = rng.choice(moves)
                wrong = [c for c in round_.table if c not in move.take]
                if rules.miscount == "penalty" and wrong and rng.random() < 0.2:
                    from escoba import Move
                    try:
                        game.play(Move(move.card, miscount=frozenset(wrong[:1])))
                        continue
                    except ValueError:
                        pass
                game.play(move)
            record = game_to_record(game)
            for m in record["rounds"][0]["moves"]:
                kinds["renuncio"] += "renuncio" in m
                kinds["miscount"] += "miscount" in m
            assert replay(json.dumps(record)).game.round.score().breakdown == \
                round_.score().breakdown
    assert kinds["renuncio"] > 0 and kinds["miscount"] > 0


# -- broken records -------------------------------------------------------------------------


_STATES: dict[int, list] = {}


def states(record: dict) -> list[tuple[int, int, dict, object]]:
    """(round, move number, entry, round state before it) for every move of a record."""
    if id(record) in _STATES:
        return _STATES[id(record)]
    out = _STATES[id(record)] = []
    rules = Rules.from_dict(record["rules"])
    game = Game(rules, dealer=record["rounds"][0]["dealer"])
    from escoba.record import _replay_move

    for r, entry in enumerate(record["rounds"], start=1):
        from escoba.cards import Card
        round_ = game.start_round([Card.parse(c) for c in entry["deck"]])
        for m, move in enumerate(entry["moves"], start=1):
            out.append((r, m, move, round_.copy()))
            _replay_move(game, round_, move, "")
    return out


def corrupt(record: dict, rng: random.Random) -> tuple[dict, str, tuple[int, int] | None]:
    """A broken copy of ``record``: (record, kind, (round, move) the error must name)."""
    bad = copy.deepcopy(record)
    kind = rng.choice(["wrong_card", "wrong_seat", "bad_sum", "missed_forced", "unknown_card",
                       "duplicate_deck", "format", "short_deck", "take_not_on_table"])
    spots = [s for s in states(record) if "card" in s[2]]
    r, m, entry, before = rng.choice(spots)
    target = bad["rounds"][r - 1]["moves"][m - 1]
    seat = entry["seat"]
    if kind == "wrong_card":
        hand = set(before.hand(seat))
        target["card"] = str(rng.choice([c for c in CARDS[: before.rules.deck_size]
                                         if c not in hand]))
        target["take"] = []
    elif kind == "wrong_seat":
        target["seat"] = (seat + 1) % before.rules.players
    elif kind == "bad_sum":
        from escoba.cards import Card
        from escoba.solver import is_capture
        card = Card.parse(entry["card"])
        table = list(before.table)
        options = [t for t in ([x] for x in table) if not is_capture(
            before.table_mask, card.index, 1 << t[0].index, before.rules.capture_sum)]
        if not options or card.is_joker:
            return corrupt(record, rng)
        target["take"] = [str(options[0][0])]
    elif kind == "missed_forced":
        forced = [s for s in spots if s[2]["take"] and s[3].rules.capture_rule == "forced"]
        if not forced:
            return corrupt(record, rng)
        r, m, entry, before = rng.choice(forced)
        bad["rounds"][r - 1]["moves"][m - 1]["take"] = []
    elif kind == "unknown_card":
        target["card"] = rng.choice(["7x", "11o", "0c", "", "JK3"])
    elif kind == "take_not_on_table":
        off = [c for c in CARDS[:40] if c not in before.table and str(c) != entry["card"]]
        target["take"] = [str(rng.choice(off))]
    elif kind == "duplicate_deck":
        deck = bad["rounds"][r - 1]["deck"]
        deck[5] = deck[6]
        return bad, kind, (r, 0)
    elif kind == "short_deck":
        bad["rounds"][r - 1]["deck"].pop()
        return bad, kind, (r, 0)
    elif kind == "format":
        bad["format"] = rng.choice(["escoba-record/2", None, "pgn"])
        return bad, kind, None
    return bad, kind, (r, m)


def run_cli(tmp_path, capsys, text: str) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(text)
    code = main(["replay", str(path), "--json"])
    captured = capsys.readouterr()
    return code, captured.err


def test_a_thousand_broken_records_fail_clearly(tmp_path, capsys):
    rng = random.Random(1234)
    kinds: dict[str, int] = {}
    for i in range(1000):
        _, record = RECORDS[i % len(RECORDS)]
        bad, kind, where = corrupt(record, rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        code, err = run_cli(tmp_path, capsys, json.dumps(bad))
        assert code == 2, (kind, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert "Traceback" not in err
        if where is not None:
            r, m = where
            prefix = f"error: round {r}, move {m}: " if m else f"error: round {r}: "
            assert lines[0].startswith(prefix), (kind, lines[0], prefix)
    assert len(kinds) == 9, kinds


@pytest.mark.parametrize("text", ['{"format": "escoba-record/1", "rul', "", "[]", "null",
                                  '{"format": "escoba-record/1", "rules": 5, "rounds": []}',
                                  '{"format": "escoba-record/1", "rounds": {}}'])
def test_malformed_json_fails_in_one_line(tmp_path, capsys, text):
    code, err = run_cli(tmp_path, capsys, text)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")


def test_wrong_dealer_and_rounds_after_the_end_are_refused():
    game, record = RECORDS[0]
    bad = copy.deepcopy(record)
    if len(bad["rounds"]) > 1:
        bad["rounds"][1]["dealer"] = bad["rounds"][0]["dealer"]
        with pytest.raises(RecordError, match="round 2: the deal passes to seat"):
            replay(bad)
    extra = copy.deepcopy(record)
    extra["rounds"].append(copy.deepcopy(extra["rounds"][-1]))
    extra["rounds"][-1]["dealer"] = (extra["rounds"][-2]["dealer"] + 1) % 2
    with pytest.raises(RecordError, match="already won"):
        replay(extra)


def test_error_messages_read_like_the_style_guide():
    _, record = RECORDS[0]
    for r, m, entry, before in states(record):  # noqa: B007 (used after the break)
        if entry["take"]:
            break
    bad = copy.deepcopy(record)
    card = entry["card"]
    small = [c for c in before.table if str(c) != card]
    bad["rounds"][r - 1]["moves"][m - 1]["take"] = [str(small[0])] if small else []
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert re.match(rf"round {r}, move {m}: ", str(info.value))


# -- strictness (found by an independent implementation's cross-check) ------------------


def first_moves(record: dict) -> list[dict]:
    return record["rounds"][0]["moves"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda m: m.update(card=m["card"].upper()), "unknown card"),
    (lambda m: m.update(card="0" + m["card"]), "unknown card"),
    (lambda m: m.update(card=" " + m["card"]), "unknown card"),
    (lambda m: m.update(extra=1), "unknown field 'extra'"),
    (lambda m: m.update(renuncio=[m["card"], m["card"]]), "unknown field 'card'"),
])
def test_records_are_read_to_the_letter(change, message):
    _, record = RECORDS[0]
    bad = copy.deepcopy(record)
    change(first_moves(bad)[0])
    with pytest.raises(RecordError, match=rf"round 1, move 1: .*{message}"):
        replay(bad)


def test_duplicate_cards_in_miscount_and_renuncio_lists_are_refused():
    rules = Rules.preset("classic", miscount="penalty", capture_rule="renuncio")
    game = Game(rules, dealer=0, seed=2)
    round_ = game.start_round()
    record = game_to_record(game)
    table = [str(c) for c in round_.table]
    hand = [str(c) for c in round_.hand(1)]
    move = {"seat": 1, "card": hand[0], "take": [], "miscount": [table[0], table[0]]}
    record["rounds"][0]["moves"] = [move]
    with pytest.raises(RecordError, match="round 1, move 1: miscount lists .* twice"):
        replay(record)
    record["rounds"][0]["moves"] = [{"seat": 1, "renuncio": [hand[0], table[0], table[0]]}]
    with pytest.raises(RecordError, match="round 1, move 1: renuncio lists .* twice"):
        replay(record)


def test_unknown_fields_in_a_round_are_refused():
    _, record = RECORDS[0]
    bad = copy.deepcopy(record)
    bad["rounds"][0]["dealr"] = 1
    with pytest.raises(RecordError, match="round 1: unknown field 'dealr'"):
        replay(bad)


def test_a_record_with_no_rounds_is_a_game_not_yet_dealt():
    result = replay({"format": FORMAT, "rules": {"preset": "classic", "players": 3},
                     "rounds": []})
    assert result.to_json() == {"rounds": [], "totals": [0, 0, 0], "winner": None,
                                "complete": False, "position": {"round": 0}}


@pytest.mark.parametrize(("data", "message"), [
    (b"", "the file is empty"),
    (b"   \n", "the file is empty"),
    (b"hello", r"this is not JSON \(line 1, column 1: expecting value\)"),
    (b'{"format": "escoba-record/1",\n "rounds": [}', r"not JSON \(line 2"),
    ("café".encode("latin-1"), "not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_files_that_are_not_records_get_a_sentence_a_person_can_read(data, message):
    with pytest.raises(RecordError, match=message):
        replay(data)


def test_a_utf8_byte_order_mark_is_fine():
    _, record = RECORDS[0]
    assert replay(b"\xef\xbb\xbf" + json.dumps(record).encode()).complete
