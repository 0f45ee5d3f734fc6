"""Tables between devices (issue 16): opening, joining, playing from several devices at
once against one database, presence and seats handed to the computer, the record.

Each "device" is its own :class:`trainer.tables.TableSeat` over its own
:class:`Storage` (its own engine, as another app process would have): nothing is shared
but the database. Runs on SQLite and on a real PostgreSQL server.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from escoba import Deck, Move, Rules
from escoba.record import replay
from trainer.storage import NewSeat, Storage, TableChanged
from trainer.tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    TableRefusal,
    Tables,
    TableSeat,
    TableTicket,
    hash_token,
    new_table_code,
    normalise_table_code,
)


def _profiles(store: Storage, *names: str):
    return [store.create_profile(n, "🦊") for n in names]


def _owner(store: Storage, ticket: TableTicket) -> int | None:
    """The profile whose seat ``ticket`` is (the child signed in on that device)."""
    row = store.seat_by_token(hash_token(ticket.token))
    return row.profile_id if row is not None else None


def _seat(store: Storage, ticket: TableTicket) -> TableSeat:
    seat = Tables(store).seat_from_link(ticket.code, ticket.token, _owner(store, ticket))
    assert isinstance(seat, TableSeat), seat
    return seat


def _two_children(make_store, rules: Rules | None = None, **kw):
    store_a, store_b = make_store(), make_store()
    ana, leo = _profiles(store_a, "Ana", "Leo")
    rules = rules or Rules.preset("relaxed", target=1)
    ticket_a = Tables(store_a).open_table(ana, rules, **kw)
    ticket_b = Tables(store_b).join(ticket_a.code.lower(), leo)
    assert isinstance(ticket_b, TableTicket)
    return _seat(store_a, ticket_a), _seat(store_b, ticket_b), (ana, leo)


def _a_legal_move(seat: TableSeat) -> Move:
    obs = seat.game.observation(seat.seat)
    return sorted(obs.legal_moves(),
                  key=lambda m: (-len(m.take), str(m.card), sorted(map(str, m.take))))[0]


def _play_on(seat: TableSeat):
    move = _a_legal_move(seat)
    return seat.play(move.card, list(move.take), seat.revision)


def _play_to_the_end(seat: TableSeat, friend: TableSeat | None = None) -> None:
    """Play ``seat``'s game out (with ``friend``'s device at the other child's turns),
    dealing each next round from ``seat``: every step must be accepted."""
    for _ in range(400):
        seat.refresh()
        if seat.game.is_over:
            return
        if seat.game.round_over:
            assert seat.next_round(seat.revision).ok
            continue
        if friend is not None:
            friend.refresh()
        assert _play_on(seat if seat.my_turn or friend is None else friend).ok


# -- codes -------------------------------------------------------------------------------

def test_codes_are_easy_to_read_aloud_and_typing_slips_are_forgiven() -> None:
    for _ in range(200):
        code = new_table_code()
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert not set("0O1IL") & set(CODE_ALPHABET)
    assert normalise_table_code(" k7m-px ") == "K7MPX"
    assert normalise_table_code("ＫＸＭＰ７") == "KXMP7"  # full-width, as a tablet may type
    for bad in ("", "K7M", "K7MPXX", "K0MPX", "<script>", None, 12345):
        assert normalise_table_code(bad) is None


@given(code=st.text(CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH),
       cuts=st.lists(st.sampled_from([" ", "-", "  ", "\t"]), max_size=CODE_LENGTH),
       lower=st.lists(st.booleans(), min_size=CODE_LENGTH, max_size=CODE_LENGTH))
def test_a_code_as_a_child_types_it_reads_back(code: str, cuts: list[str],
                                                 lower: list[bool]) -> None:
    typed = "".join((ch.lower() if low else ch) + (cuts[i] if i < len(cuts) else "")
                    for i, (ch, low) in enumerate(zip(code, lower, strict=True)))
    assert normalise_table_code(typed) == code


@given(st.text(max_size=40))
def test_any_text_is_a_valid_code_or_none(typed: str) -> None:
    code = normalise_table_code(typed)
    assert code is None or (len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET))


def test_a_code_in_use_is_drawn_again(make_store) -> None:
    store = make_store()
    (ana,) = _profiles(store, "Ana")
    codes = iter(["AAAAA", "AAAAA", "BBBBB"])
    tables = Tables(store, code=lambda: next(codes))
    first = tables.open_table(ana, Rules.preset("classic"))
    second = tables.open_table(ana, Rules.preset("classic"))
    assert (first.code, second.code) == ("AAAAA", "BBBBB")


# -- joining -----------------------------------------------------------------------------

def test_a_friend_joins_with_the_code_and_the_game_begins(make_store) -> None:
    a, b, (ana, leo) = _two_children(make_store)
    assert a.table.status == b.table.status == "playing"
    assert [(p.name, p.kind) for p in a.presence()] == [("Ana", "human"), ("Leo", "human")]
    assert (a.seat, b.seat) == (0, 1) and a.game.game_id == b.game.game_id
    # The table's game is not the opener's game in play on the Play page, and a new
    # game there does not abandon it.
    store = a.storage
    assert store.active_game(ana.id) is None
    store.create_game(ana.id, rules={}, seats=[], seed=1, record={"rounds": []})
    assert store.get_game(a.game.game_id).status == "playing"


def test_bad_codes_and_full_tables_change_nothing(make_store) -> None:
    store = make_store()
    ana, leo, mia = _profiles(store, "Ana", "Leo", "Mia")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("classic"))
    before = store.table_by_code(ticket.code)
    assert tables.join("ZZZZZ", leo) == TableRefusal("table_code_unknown", {"code": "ZZZZZ"})
    assert tables.join("hello!", leo) == TableRefusal("table_code_bad")
    assert store.table_by_code(ticket.code) == before
    assert isinstance(tables.join(ticket.code, leo), TableTicket)
    # Every seat taken and the game begun: a third child is told the table is full.
    assert tables.join(ticket.code, mia) == TableRefusal("table_full_started",
                                                         {"code": ticket.code})


def test_computer_seats_and_teams(make_store) -> None:
    store = make_store()
    ana, leo = _profiles(store, "Ana", "Leo")
    tables = Tables(store)
    rules = Rules.preset("classic", players=4, teams=True)
    ticket = tables.open_table(ana, rules, bots={1: "gentle", 3: "greedy"})
    seat = _seat(store, ticket)
    assert seat.waiting
    assert [p.kind for p in seat.presence()] == ["human", "bot", "empty", "bot"]
    joined = tables.join(ticket.code, leo)
    assert isinstance(joined, TableTicket) and joined.seat == 2  # Ana's partner
    seat.refresh()
    assert not seat.waiting and seat.game.rules.side_of(2) == seat.game.rules.side_of(0)
    # Computers play at once: the game waits for a child.
    assert seat.game.seats[seat.game.to_move].is_human


def test_the_opener_may_start_with_computers_and_closing_stops_joining(make_store) -> None:
    store = make_store()
    ana, leo = _profiles(store, "Ana", "Leo")
    tables = Tables(store)
    seat = _seat(store, tables.open_table(ana, Rules.preset("classic", players=3)))
    assert seat.start_with_computers("gentle") is None
    assert [p.kind for p in seat.presence()] == ["human", "bot", "bot"]
    other = _seat(store, tables.open_table(ana, Rules.preset("classic")))
    assert other.close() is None
    assert tables.join(other.code, leo) == TableRefusal("table_closed")


def test_class_mates_see_their_class_open_tables(make_store) -> None:
    store = make_store()
    teacher = store.create_teacher("Ms Díaz", "a long passphrase")
    room = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    (ana,) = _profiles(store, "Ana")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("classic"), class_id=room.id)
    tables.open_table(ana, Rules.preset("classic"))  # not a class's table
    ((table, seats),) = tables.open_tables(room.id)
    assert table.code == ticket.code and [s.name for s in seats] == ["Ana"]


def test_the_class_list_is_one_query_and_sees_a_new_table_at_once(make_store) -> None:
    """The lobby reads the class's open tables every few seconds: one query each time,
    and a table a classmate opens from another device is in the very next read."""
    store, other_device = make_store(), make_store()
    teacher = store.create_teacher("Ms Díaz", "a long passphrase")
    room = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    ana, leo = _profiles(store, "Ana", "Leo")
    first = Tables(store).open_table(ana, Rules.preset("classic", players=3), class_id=room.id,
                                     bots={2: "gentle"})
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", count)
    try:
        assert [t.code for t, _ in store.open_tables(room.id)] == [first.code]
        assert len(statements) == 1
        second = Tables(other_device).open_table(leo, Rules.preset("classic"), class_id=room.id)
        listed = store.open_tables(room.id)
        assert len(statements) == 2
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", count)
    assert [t.code for t, _ in listed] == [second.code, first.code]  # newest first
    assert [[(s.seat, s.kind, s.name) for s in seats] for _, seats in listed] == [
        [(0, "human", "Leo")], [(0, "human", "Ana"), (2, "bot", "")]]


# -- a device's link ---------------------------------------------------------------------

def test_a_forged_or_foreign_link_names_no_seat(make_store) -> None:
    a, b, _ = _two_children(make_store)
    tables = Tables(a.storage)
    for code, token in [("ZZZZZ", "x" * 22), (None, None), ("K" * 500, "y" * 22)]:
        assert tables.seat_from_link(code, token, None) == TableRefusal("table_bad_link")
    # A's table is in play (both seats taken): "join again with the code" cannot work
    # there, so a wrong secret is told the truth, and nothing changes.
    before = (a.storage.table_pulse(a.table.id), a.storage.table_seats(a.table.id))
    not_yours = TableRefusal("table_link_not_yours", {"code": a.code})
    for token in ["forged-token-000000000", "'; drop table games; --", 7, None]:
        assert tables.seat_from_link(a.code.lower(), token, a.player_id) == not_yours
    # Another table's code with this seat's token: no seat either.
    store = a.storage
    (mia,) = _profiles(store, "Mia")
    other = tables.open_table(mia, Rules.preset("classic"))
    assert store.seat_by_token(hash_token(other.token)) is not None
    assert tables.seat_from_link(a.code, other.token, mia.id) == not_yours
    assert (a.storage.table_pulse(a.table.id), a.storage.table_seats(a.table.id)) == before
    # At a table still waiting for friends, joining with the code does work: said so.
    assert tables.seat_from_link(other.code, "x" * 22, mia.id) == TableRefusal("table_bad_link")
    # A closed table says it was closed.
    assert _seat(store, other).close() is None
    assert tables.seat_from_link(other.code, "x" * 22, mia.id) == TableRefusal("table_closed")


def test_a_device_that_reloads_continues_exactly_where_the_game_is(make_store) -> None:
    a, b, _ = _two_children(make_store)
    mover = a if a.my_turn else b
    assert _play_on(mover).ok
    # The other device, as a fresh process would (a new Storage: nothing in memory).
    again = _seat(make_store(), TableTicket(b.code, b.token, b.seat))
    a.refresh()
    assert again.revision == a.revision
    assert again.game.record() == a.game.record()


# -- moves -------------------------------------------------------------------------------

def test_a_move_from_the_device_not_to_move_is_refused(make_store) -> None:
    a, b, _ = _two_children(make_store)
    waiting = b if a.my_turn else a
    card = waiting.game.observation(waiting.seat).hand[0]
    revision = waiting.revision
    assert waiting.play(card, [], revision).key == "not_your_turn"
    assert waiting.storage.get_game(waiting.game.game_id).revision == revision


def test_a_stale_move_number_is_refused_kindly_and_the_device_redraws(make_store) -> None:
    a, b, _ = _two_children(make_store)
    mover = a if a.my_turn else b
    other = b if mover is a else a
    seen = mover.revision
    assert _play_on(mover).ok
    other.refresh()
    if other.my_turn:
        move = _a_legal_move(other)
        # A tap on the board drawn at the old revision: refused, nothing written.
        outcome = other.play(move.card, list(move.take), seen)
        assert (outcome.ok, outcome.key) == (False, "table_moved_first")
        assert other.revision == mover.revision


def test_two_devices_at_one_move_number_exactly_one_wins(make_store) -> None:
    """Two devices of the SAME seat (a child's two tabs, or a link copied) tap a move at
    once from real threads, each through its own engine: exactly one is saved."""
    store_a = make_store()
    (ana,) = _profiles(store_a, "Ana")
    ticket = Tables(store_a).open_table(ana, Rules.preset("relaxed"), bots={1: "gentle"})
    for _round in range(3):
        devices = [_seat(make_store(), ticket) for _ in range(4)]
        assert len({d.revision for d in devices}) == 1 and devices[0].my_turn
        moves = [_a_legal_move(d) for d in devices]
        outcomes: list = [None] * len(devices)
        barrier = threading.Barrier(len(devices))

        def tap(i: int, device: TableSeat, move: Move, barrier: threading.Barrier,
                outcomes: list) -> None:
            barrier.wait()
            outcomes[i] = device.play(move.card, list(move.take), device.revision)

        threads = [threading.Thread(target=tap, args=(i, d, m, barrier, outcomes))
                   for i, (d, m) in enumerate(zip(devices, moves, strict=True))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        assert sum(o.ok for o in outcomes) == 1, outcomes
        assert {o.key for o in outcomes if not o.ok} == {"table_moved_first"}
        # Every device now draws the same position, the database's.
        for d in devices:
            d.refresh()
        assert len({d.revision for d in devices}) == 1
        saved = devices[0].storage.move_entries(devices[0].game.game_id)
        positions = [(r, m) for r, m, _ in saved]
        assert len(positions) == len(set(positions))
        if not devices[0].my_turn:
            break


def test_two_children_play_a_whole_game_and_each_saw_the_record(make_store) -> None:
    a, b, (ana, leo) = _two_children(make_store, Rules.preset("relaxed", target=1))
    seen: dict[int, list] = {0: [], 1: []}
    deck = Deck.SPANISH

    def look(device: TableSeat) -> None:
        game = device.game
        if game.round is None:
            return
        obs = game.observation(device.seat)
        seen[device.seat].append((len(game.game.rounds), len(game.round.history),
                                  sorted(map(str, obs.table)), sorted(map(str, obs.hand))))
        data = device.board(deck=deck, show_value=True)
        other = 1 - device.seat
        hidden = set(map(str, game.game.round.hand(other))) if not game.rules.open_hand else set()
        shown = set(data["faces"]) | set(data["hand"]) | set(data["table"])
        shown |= {c for s in data["seats"] for c in s["cards"]}
        assert not hidden & shown, "another seat's card reached this device's board"
        assert not hidden & set(data["hand"])

    for _ in range(400):
        for device in (a, b):
            device.refresh()
            look(device)
        if a.game.is_over:
            break
        if a.game.round_over:
            assert a.next_round(a.revision).ok
            continue
        mover = a if a.my_turn else b
        assert _play_on(mover).ok
    assert a.game.is_over and b.game.is_over
    # The record replays to the positions each device was shown.
    record = a.storage.shareable_record(a.game.game_id)
    assert record is not None
    assert replay(record).game.is_over
    _assert_positions_replay(record, seen)
    who = a.move_players()
    assert who and {m.profile_id for m in who} == {ana.id, leo.id}
    assert all(m.kind == "human" for m in who)
    review = a.review(0)
    assert review is not None and b.review(1) is not None
    # Issue 25: the opener's review was saved by the save that finished the game, with
    # no end screen drawn (a table game never stored one before).
    from trainer.hints import review as coach_review

    stored = a.storage.get_game(a.game.game_id).review
    assert stored is not None and stored == coach_review(a.game.record(), 0).to_stored()


def _assert_positions_replay(record: dict, seen: dict[int, list]) -> None:
    """Every (round, move) position a device drew is the record's position there:
    same table, same hand for that seat."""
    from escoba.record import replay as replay_record

    positions: dict[tuple[int, int, int], tuple[list, list]] = {}
    # Walk each round again, move by move, through the engine.
    for number in range(1, len(record["rounds"]) + 1):
        partial = json.loads(json.dumps(record))
        partial["rounds"] = partial["rounds"][:number]
        moves = record["rounds"][number - 1]["moves"]
        for upto in range(len(moves) + 1):
            partial["rounds"][-1]["moves"] = moves[:upto]
            game = replay_record(partial).game
            round_ = game.rounds[-1]
            for seat in (0, 1):
                positions[(number, len(round_.history), seat)] = (
                    sorted(map(str, round_.table)), sorted(map(str, round_.hand(seat))))
    for seat, views in seen.items():
        for rounds, history, table, hand in views:
            assert positions[(rounds, history, seat)] == (table, hand)


# -- presence and leaving ----------------------------------------------------------------

def test_a_child_who_left_is_seen_and_their_seat_goes_to_the_computer(make_store) -> None:
    a, b, (ana, leo) = _two_children(make_store, timeout=60)
    if a.my_turn:  # Ana moves so that Leo has moves in the record before leaving
        assert _play_on(a).ok
        b.refresh()
    assert _play_on(b).ok
    a.refresh()
    a.touch(force=True)
    now = a.tables.clock()
    leo_now = next(p for p in a.presence(now) if p.seat == 1)
    assert not leo_now.away and not leo_now.can_hand_over
    assert a.hand_to_computer(1, "gentle", at=now) == TableRefusal("table_not_away")
    later = now + timedelta(seconds=30)
    leo_later = next(p for p in a.presence(later) if p.seat == 1)
    assert leo_later.away and not leo_later.can_hand_over
    gone = now + timedelta(seconds=61)
    assert next(p for p in a.presence(gone) if p.seat == 1).can_hand_over
    assert not next(p for p in a.presence(gone) if p.seat == 0).away  # never oneself
    assert a.hand_to_computer(1, "nonsense", at=gone) == TableRefusal("table_bad_level")
    assert a.hand_to_computer(1, "gentle", at=gone) is None
    assert a.game.seats[1].kind == "bot" and a.game.seats[1].level == "gentle"
    _the_computer_shows_as_standing_in_for(a, "Leo")
    # Leo's old link now says his seat went to the computer.
    assert b.refresh() == TableRefusal("table_seat_handed", {"name": "Leo"})
    # Ana finishes the game against the computer.
    _play_to_the_end(a)
    assert a.game.is_over
    who = a.move_players()
    leo_moves = [m for m in who if m.seat == 1 and m.kind == "human"]
    bot_moves = [m for m in who if m.seat == 1 and m.kind == "bot"]
    assert leo_moves and bot_moves
    assert all(m.profile_id == leo.id for m in leo_moves)
    assert all(m.level == "gentle" and m.profile_id is None for m in bot_moves)
    assert max((m.round_no, m.move_no) for m in leo_moves) < min(
        (m.round_no, m.move_no) for m in bot_moves)


def test_two_children_handing_the_same_seat_over_at_once(make_store) -> None:
    store = make_store()
    ana, leo, mia = _profiles(store, "Ana", "Leo", "Mia")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("classic", players=3), timeout=60)
    tables.join(ticket.code, leo)
    mia_ticket = tables.join(ticket.code, mia)
    a, m = _seat(make_store(), ticket), _seat(make_store(), mia_ticket)
    gone = a.tables.clock() + timedelta(seconds=120)
    for device in (a, m):  # both still here at that time
        device.touch(force=True)
    with a.storage.engine.begin() as conn:  # ... as if their clocks said so
        from trainer.storage.schema import table_seats
        conn.execute(table_seats.update().where(table_seats.c.seat != 1)
                     .values(last_seen=gone))
    results = [None, None]
    barrier = threading.Barrier(2)

    def hand(i, device) -> None:
        barrier.wait()
        results[i] = device.hand_to_computer(1, "greedy", at=gone)

    threads = [threading.Thread(target=hand, args=(i, d)) for i, d in enumerate((a, m))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    # One hands the seat over; the other finds it moved on (or, if it read the table
    # after, no longer a child's seat to hand over).
    assert results.count(None) == 1, results
    (refused,) = [r for r in results if r is not None]
    assert refused.key in ("table_moved_first", "table_not_away")
    seats = store.table_seats(a.table.id, history=True)
    assert [(s.seat, s.kind) for s in seats if s.seat == 1] == [(1, "human"), (1, "bot")]


def test_storage_refuses_a_change_of_a_table_read_before_another(make_store) -> None:
    store = make_store()
    (ana,) = _profiles(store, "Ana")
    ticket = Tables(store).open_table(ana, Rules.preset("classic", players=3))
    table = store.table_by_code(ticket.code)
    store.seat_child(table, NewSeat(1, "human", "Leo", "🐼"))
    with pytest.raises(TableChanged):
        store.seat_child(table, NewSeat(2, "human", "Mia", "🐸"))  # read before Leo came


# -- every turn is evidence, for the child who played it (issue 15) -----------------------

def test_each_childs_turns_are_evidence_for_their_own_facts(make_store) -> None:
    from trainer.evidence import TURN_KIND, TurnContext

    a, b, (ana, leo) = _two_children(make_store, Rules.preset("relaxed", target=1))
    # A device's move at a position it no longer shows: refused before anything is
    # written, its evidence too.
    mover = a if a.my_turn else b
    move = _a_legal_move(mover)
    refused = mover.play(move.card, sorted(move.take), mover.revision - 1,
                         TurnContext(day="2026-12-01", seconds=2.0, helped=False))
    assert refused.key == "table_moved_first"
    assert [x for who in (ana, leo) for x in a.storage.attempts(who.id)] == []
    turns = {0: 0, 1: 0}
    for _ in range(12):
        for device in (a, b):
            device.refresh()
        if a.game.is_over or a.game.round_over:
            break
        mover = a if a.my_turn else b
        move = _a_legal_move(mover)
        captures = [m for m in mover.game.observation(mover.seat).legal_moves() if m.take]
        turns[mover.seat] += bool(captures)
        outcome = mover.play(move.card, sorted(move.take), mover.revision,
                             TurnContext(day="2026-12-01", seconds=4.0, helped=False))
        assert outcome.ok, outcome
    store = a.storage
    mine = {who.id: [x for x in store.attempts(who.id) if x.kind == TURN_KIND]
            for who in (ana, leo)}
    # One attempt row per turn that asked something, under the child who played it.
    assert len(mine[ana.id]) == turns[0] and len(mine[leo.id]) == turns[1]
    assert turns[0] + turns[1] > 0
    assert all(f"game-{a.game.game_id}-" in x.puzzle_id for rows in mine.values() for x in rows)


def test_a_seat_is_its_childs_not_the_tablets(make_store) -> None:
    """Issue 25: Bob opened a table on a shared tablet; Ann was chosen on "Who's
    playing?" and the tablet still held Bob's link. Bob's seat is refused to Ann (she
    may watch: no hand), and a device at Bob's seat with Ann signed in plays, deals,
    touches, hands over and records nothing: checked in trainer/, not in the page."""
    from trainer.evidence import TurnContext

    store = make_store()
    bob, ann = _profiles(store, "Bob", "Ann")
    tables = Tables(store)
    ticket = tables.open_table(bob, Rules.preset("relaxed", target=1), bots={1: "gentle"})
    bobs = _seat(store, ticket)
    assert bobs.my_turn and bobs.belongs_to_player
    refused = tables.seat_from_link(ticket.code, ticket.token, ann.id)
    assert refused == TableRefusal("table_seat_other_child",
                                   {"name": "Bob", "profile_id": bob.id})
    assert tables.seat_from_link(ticket.code, ticket.token, None).key == "table_seat_other_child"
    # Watching Bob's seat shows the game, never his hand, and plays nothing.
    watcher = tables.watch(ticket.code, ticket.token, ann.id)
    assert watcher is not None and watcher.watching
    board = watcher.board(deck=Deck.SPANISH, show_value=True)
    assert board["hand"] == [] and not board["interactive"]
    assert tables.watch(ticket.code, ticket.token, bob.id) is None  # his own: he plays it
    # A device holding Bob's seat object while Ann is the child signed in (what a session
    # kept across a switch would hold): every action is refused, nothing is written.
    stale = TableSeat(tables, ticket.code, ticket.token, player_id=ann.id)
    assert stale.refresh() == refused
    stale.me, stale.table, stale.game = bobs.me, bobs.table, bobs.game
    before = (store.table_pulse(bobs.table.id), store.table_seats(bobs.table.id, history=True))
    move = _a_legal_move(bobs)
    turn = TurnContext(day="2026-12-01", seconds=2.0, helped=False)
    assert not stale.my_turn
    assert stale.play(move.card, list(move.take), bobs.revision, turn).key == \
        "table_seat_other_child"
    assert stale.next_round(bobs.revision).key == "not_your_turn"
    assert stale.hand_to_computer(1, "gentle") == TableRefusal("table_seat_other_child")
    stale.touch(force=True)
    assert (store.table_pulse(bobs.table.id),
            store.table_seats(bobs.table.id, history=True)) == before
    assert store.attempts(ann.id) == [] and store.attempts(bob.id) == []
    # Bob himself (signed in again) plays his seat, and the turn is his evidence only.
    assert bobs.play(move.card, list(move.take), bobs.revision, turn).ok
    assert store.attempts(ann.id) == []


def test_computer_players_are_named_by_each_device_in_its_language(make_store) -> None:
    """Issue: a computer's name was stored at opening in the opener's language and
    counted from 0 ("Computer 2" for player 3). Now nothing is stored; each device words
    it with the seat number the waiting room shows."""
    from trainer.i18n import use_language
    from trainer.words import seat_label

    store_a, store_b = make_store(), make_store()
    ana, leo = _profiles(store_a, "Ana", "Leo")
    ticket = Tables(store_a).open_table(ana, Rules.preset("relaxed", players=3, target=1),
                                        bots={2: "gentle"})
    joined = Tables(store_b).join(ticket.code, leo)
    a, b = _seat(store_a, ticket), _seat(store_b, joined)
    try:
        use_language("en")
        assert [p.name for p in a.presence()][2] == "Computer 3"
        assert "Computer 3 (" in seat_label(a.game.seats[2], 2)
        names = [s["name"] for s in a.board(deck=Deck.SPANISH, show_value=True)["seats"]]
        assert any("Computer 3" in n for n in names)
        assert "Computer 3" in a.game.side_name(2)
        use_language("es")
        assert [p.name for p in b.presence()][2] == "Ordenador 3"
        assert "Ordenador 3" in b.game.side_name(2)
    finally:
        use_language(None)
    # Nothing in any language is stored: the record keeps no display text for the computer.
    assert a.game.record()["names"][2] == ""
    assert [s.name for s in store_a.table_seats(a.table.id) if s.seat == 2] == [""]


def _the_computer_shows_as_standing_in_for(seat: TableSeat, child: str) -> None:
    """After a hand-over the seat is a computer taking over for the child, in every
    place a device draws it (never "🦊 Leo (Gentle)", which looks like the child)."""
    from trainer.i18n import use_language
    from trainer.words import seat_label

    try:
        for lang, words in (("en", f"Computer for {child}"),
                            ("es", f"Ordenador en lugar de {child}")):
            use_language(lang)
            assert next(p for p in seat.presence() if p.seat == 1).name == words
            label = seat_label(seat.game.seats[1], 1)
            assert label.startswith("🤖 " + words) and "🦊" not in label
            assert words in seat.game.side_name(1)
            board = seat.board(deck=Deck.SPANISH, show_value=True)
            assert [s["name"] for s in board["seats"] if s["seat"] == 1] == [label]
    finally:
        use_language(None)


def test_the_game_says_whom_it_waits_for_and_whether_they_are_away(make_store) -> None:
    a, b, _ = _two_children(make_store, timeout=60)
    if a.my_turn:
        assert _play_on(a).ok
        a.refresh()
    b.refresh()
    assert a.waiting_on() is not None and b.waiting_on() is None  # Leo's turn
    b.touch(force=True)
    a.refresh()
    now = a.tables.clock()
    here = a.waiting_on(now)
    assert (here.seat, here.away, here.can_hand_over) == (1, False, False)
    away = a.waiting_on(now + timedelta(seconds=30))
    assert (away.away, away.can_hand_over) == (True, False)
    gone = a.waiting_on(now + timedelta(seconds=61))
    assert (gone.away, gone.can_hand_over) == (True, True)


def test_a_tie_at_the_target_says_why_the_game_goes_on(make_store) -> None:
    """A "first to score" round ending 3–3: the engine plays on (no side leads), and the
    game says why; a 0–0 quick round too; a plain round of a long game says nothing."""
    store = make_store()
    (ana,) = _profiles(store, "Ana")
    seat = _seat(store, Tables(store).open_table(ana, Rules.preset("relaxed", target=1)))
    assert seat.start_with_computers("gentle") is None
    assert seat.game.why_more_rounds() is None  # mid-round
    for _ in range(100):
        if seat.game.round_over:
            break
        assert _play_on(seat).ok
        seat.refresh()
    game = seat.game
    assert game.round_over
    game.game.winner = None
    game.game.totals[:] = [3, 3]
    assert game.why_more_rounds() == "tie"
    game.game.totals[:] = [0, 0]
    assert game.why_more_rounds() == "no_score"
    game.game.totals[:] = [3, 2]
    game.game.winner = 0
    assert game.why_more_rounds() is None  # over: Ana won


def test_a_finished_table_says_it_is_over_to_a_code_and_to_a_foreign_link(make_store) -> None:
    store = make_store()
    ana, mia = _profiles(store, "Ana", "Mia")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("relaxed", target=1), bots={1: "gentle"})
    seat = _seat(store, ticket)
    assert tables.join(ticket.code, mia) == TableRefusal(  # in play
        "table_full_started", {"code": ticket.code})
    _play_to_the_end(seat)
    assert seat.game.is_over
    assert tables.join(ticket.code, mia) == TableRefusal("table_finished")
    assert tables.seat_from_link(ticket.code, "x" * 22, mia.id) == TableRefusal(
        "table_link_finished", {"code": ticket.code})
    # The seat's own link still shows its game's end.
    assert isinstance(tables.seat_from_link(ticket.code, ticket.token, ana.id), TableSeat)


def test_a_child_who_joined_may_leave_the_waiting_room_and_the_seat_is_free(make_store) -> None:
    store = make_store()
    ana, leo, mia = _profiles(store, "Ana", "Leo", "Mia")
    tables = Tables(store)
    opener = _seat(store, tables.open_table(ana, Rules.preset("classic", players=3)))
    leo_ticket = tables.join(opener.code, leo)
    leo_seat = _seat(store, leo_ticket)
    assert opener.leave() == TableRefusal("table_opener_closes")  # she closes it instead
    assert leo_seat.leave() is None
    assert tables.seat_from_link(opener.code, leo_ticket.token, leo.id) == TableRefusal(
        "table_bad_link")
    opener.refresh()
    assert [p.kind for p in opener.presence()] == ["human", "empty", "empty"]
    mia_ticket = tables.join(opener.code, mia)
    assert isinstance(mia_ticket, TableTicket) and mia_ticket.seat == 1  # Leo's seat
    # The computer fills the last seat: the game starts, and nobody's seat was handed over.
    assert opener.start_with_computers("gentle") is None
    assert [s.kind for s in store.table_seats(opener.table.id, history=True)] == [
        "human", "human", "bot"]
    assert _seat(store, mia_ticket).leave() == TableRefusal("table_started")


def test_a_seat_handed_to_the_computer_may_watch_read_only(make_store) -> None:
    a, b, (ana, leo) = _two_children(make_store, timeout=60)
    if a.my_turn:
        assert _play_on(a).ok
    a.touch(force=True)
    gone = a.tables.clock() + timedelta(seconds=61)
    assert a.hand_to_computer(1, "gentle", at=gone) is None
    tables = Tables(b.storage)
    assert tables.seat_from_link(b.code, b.token, leo.id) == TableRefusal("table_seat_handed",
                                                                          {"name": "Leo"})
    assert tables.watch(a.code, a.token, ana.id) is None  # her own seat: she plays it
    assert tables.watch(b.code, "x" * 22, leo.id) is None
    watcher = tables.watch(b.code, b.token, leo.id)
    assert watcher is not None and watcher.watching and watcher.revision == a.revision
    board = watcher.board(deck=Deck.SPANISH, show_value=True)
    assert board["hand"] == [] and not board["interactive"]
    assert not watcher.my_turn
    assert watcher.next_round(watcher.revision).key == "not_your_turn"
    assert watcher.hand_to_computer(0, "gentle", at=gone + timedelta(hours=1)) is not None
    before = next(s for s in watcher.storage.table_seats(watcher.table.id, history=True)
                  if s.seat == 1 and s.kind == "human").last_seen
    watcher.touch(force=True)  # watching is not being at the table
    after = next(s for s in watcher.storage.table_seats(watcher.table.id, history=True)
                 if s.seat == 1 and s.kind == "human").last_seen
    assert before == after
    # The game moves on; the watcher sees it.
    a.refresh()
    if a.my_turn:
        assert _play_on(a).ok
        assert watcher.changed()
        watcher.refresh()
        assert watcher.revision == a.revision


# -- My games ------------------------------------------------------------------------------

def test_every_child_seated_finds_the_tables_game_and_nobody_else(make_store) -> None:
    """The game row is the opener's; each child who joined a seat lists it too, with
    their own seat; a child who left the waiting room, or never sat there, does not."""
    store = make_store()
    ana, leo, mia, zoe = _profiles(store, "Ana", "Leo", "Mia", "Zoe")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("classic", players=3))
    zoe_seat = _seat(store, tables.join(ticket.code, zoe))
    assert zoe_seat.leave() is None  # Zoe left before the game: her row is gone
    leo_ticket = tables.join(ticket.code, leo)
    assert isinstance(leo_ticket, TableTicket) and leo_ticket.seat == 1
    opener = _seat(store, ticket)
    assert opener.start_with_computers("gentle") is None
    game_id = opener.table.game_id
    for child, seat in ((ana, 0), (leo, 1)):
        assert [g.id for g in store.list_games(child.id)] == [game_id]
        assert store.count_games(child.id) == 1
        assert [s.seat for s in store.seats_in_games(child.id, [game_id])[game_id]] == [seat]
    for stranger in (mia, zoe):
        assert store.list_games(stranger.id) == [] and store.count_games(stranger.id) == 0
        assert store.seats_in_games(stranger.id, [game_id]) == {}
    # Continuing needs this device's own secret of the child's own seat: never a seat
    # found from the profile alone, never another child's.
    assert tables.holds_seat(leo.id, ticket.code, leo_ticket.token)
    assert not tables.holds_seat(leo.id, ticket.code, ticket.token)  # Ana's seat
    assert not tables.holds_seat(mia.id, ticket.code, leo_ticket.token)
    assert not tables.holds_seat(leo.id, ticket.code, None)
    assert tables.device_seat(leo.id, ticket.code, leo_ticket.token).seat == 1
    assert tables.device_seat(mia.id, ticket.code, leo_ticket.token) is None


def test_each_seated_child_counts_the_tables_game_from_their_own_side(make_store) -> None:
    """Progress statistics: a finished table's game counts once for each child who sat
    at it, won or lost from their own seat (not the opener's); nobody else counts it."""
    from trainer import charts

    a, b, (ana, leo) = _two_children(make_store, Rules.preset("relaxed", target=1))
    mia = b.storage.create_profile("Mia", "🐸")
    store = a.storage
    before = {p.id: store.progress_version(p.id) for p in (ana, leo, mia)}
    marks = {p.id: store.finished_games_mark(p.id) for p in (ana, leo, mia)}
    assert set(marks.values()) == {(0, 0, 0)}
    _play_to_the_end(a, b)
    assert a.game.is_over
    # What the "just right" level is keyed by moves for each child who sat, not for Mia.
    game = a.table.game_id
    assert store.finished_games_mark(ana.id) == store.finished_games_mark(leo.id) == (
        1, game, game)
    assert store.finished_games_mark(mia.id) == (0, 0, 0)
    game_id = a.table.game_id
    winner = store.get_game(game_id).winner
    assert winner in (0, 1)
    won = []
    for child, device in ((ana, a), (leo, b)):
        (row, results), = store.finished_games(child.id)
        assert (row.id, row.viewer_seat) == (game_id, device.seat)
        frame = charts.games_frame([(row, results)])
        side = device.game.rules.side_of(device.seat)
        assert frame["escobas"].tolist() == [sum(r.escobas(side) for r in results)]
        assert frame["level"].tolist() == ["friends"]
        won.append(bool(frame["won"].iloc[0]))
        assert won[-1] == (winner == side)
        assert store.progress_version(child.id) != before[child.id]  # My progress redrawn
    assert sorted(won) == [False, True]  # one side won: each child sees their own result
    assert store.finished_games(mia.id) == []
    assert store.progress_version(mia.id) == before[mia.id]


# -- back to my seat (issue 31) -------------------------------------------------------------

def test_back_to_my_seat_by_the_code_with_the_seat_this_device_keeps(make_store) -> None:
    """A child who closed the tab types the code again (or the page reads ``?table=``
    alone): the seat this device keeps for them is theirs again, never a second seat;
    without it, what is true on this device; another child's kept secret seats nobody."""
    a, b, (ana, leo) = _two_children(make_store)
    store, tables, code = a.storage, a.tables, a.code
    mia = store.create_profile("Mia", "🐼")
    rows = store.table_seats(a.table.id, history=True)
    anas = {code: a.token}
    assert tables.join(code.lower(), ana, held=anas) == TableTicket(code, a.token, 0)
    back = tables.seat_here(f" {code.lower()} ", ana.id, anas)
    assert isinstance(back, TableSeat) and back.seat == 0 and back.revision == a.revision
    assert store.table_seats(a.table.id, history=True) == rows  # nothing new, nothing moved
    # This device keeps nothing for Ana (another tablet, or a browser that forgot).
    not_here = TableRefusal("table_seat_not_here", {"code": code})
    for held in (None, {}, {code: "'; drop table games; --"}, {"ZZZZZ": a.token}):
        assert tables.join(code, ana, held=held) == not_here
        assert tables.seat_here(code, ana.id, held) == not_here
    # Leo's secret kept under Ana's name (a shared tablet): it seats nobody.
    assert tables.join(code, ana, held={code: b.token}) == not_here
    assert tables.seat_here(code, ana.id, {code: b.token}) == not_here
    # A third child: the table is full and its game has begun.
    full = TableRefusal("table_full_started", {"code": code})
    assert tables.join(code, mia) == full == tables.seat_here(code, mia.id, {})
    assert tables.seat_here("ZZZZZ", mia.id, {}) == TableRefusal("table_bad_link")
    assert store.table_seats(a.table.id, history=True) == rows
    # Leo's seat goes to the computer: his kept secret brings him back to the news (the
    # page then offers to watch); without it, the same news in words.
    gone = a.tables.clock() + timedelta(seconds=a.timeout + 1)
    if a.my_turn:
        assert _play_on(a).ok
    assert a.hand_to_computer(1, "gentle", at=gone) is None
    assert tables.join(code, leo, held={code: b.token}) == TableTicket(code, b.token, 1)
    assert tables.seat_here(code, leo.id, {code: b.token}) == TableRefusal(
        "table_seat_handed", {"name": "Leo"})
    assert tables.join(code, leo) == TableRefusal("table_game_handed", {"code": code})
    # Over: each child who sat there is told so (it is in their My games).
    _play_to_the_end(a)
    assert tables.join(code, ana) == TableRefusal("table_link_finished", {"code": code})
    assert tables.join(code, mia) == TableRefusal("table_finished")
    assert isinstance(tables.seat_here(code, ana.id, anas), TableSeat)  # its end, again


def test_a_child_back_at_a_waiting_table_gets_their_own_seat_not_a_second(make_store) -> None:
    store = make_store()
    ana, leo, mia = _profiles(store, "Ana", "Leo", "Mia")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("relaxed", players=3))
    leos = tables.join(ticket.code, leo)
    assert isinstance(leos, TableTicket)
    held = {ticket.code: leos.token}
    assert tables.join(ticket.code, leo, held=held) == leos
    assert tables.join(ticket.code, leo) == TableRefusal("table_seat_not_here",
                                                         {"code": ticket.code})
    table = store.table_by_code(ticket.code)
    assert table.status == "waiting" and len(store.table_seats(table.id)) == 2
    # Someone with only the address (no seat): they may join, with the code.
    assert tables.seat_here(ticket.code, mia.id, {}) == TableRefusal(
        "table_join_waiting", {"code": ticket.code})
    assert _seat(store, ticket).close() is None
    assert tables.join(ticket.code, leo, held={}) == TableRefusal("table_closed")
