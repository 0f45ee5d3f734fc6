"""The class against the computer (issue 29): a game on the projector whose class moves
are voted on the tablets. The votes, their tally (counts, no names), ties the teacher
breaks, a turn nobody voted, the engine refusing an illegal vote, a pupil of another class
refused, the computer playing from its own observation, the votes as evidence, and a
whole game played to its end; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import date, timedelta
from typing import Any

import pytest

from escoba import Card, Move, Observation, score_round
from escoba.bots import GentlePlayer
from trainer.class_game import (
    CLASS_SEAT,
    COMPUTER_AVATAR,
    COMPUTER_SEAT,
    STALE_HOURS,
    ClassGame,
    ClassGames,
    PupilVote,
    Tally,
    TurnResult,
    VoteRefused,
)
from trainer.classroom import Classroom, TeacherSession
from trainer.classroom_views import ClassroomError
from trainer.evidence import game_of
from trainer.live import LiveClass, PupilLive
from trainer.storage import NewMember, Storage
from trainer.words import seat_label, seat_name

DAY = date(2026, 12, 4)
SEED = 7


@pytest.fixture
def store(make_store) -> Storage:
    """A Storage on SQLite and on PostgreSQL (conftest's ``make_store``)."""
    return make_store()


def _class(store: Storage, name: str = "Ms Díaz", code: str = "KDM472") -> tuple[Any, ...]:
    teacher = store.create_teacher(name, "a long password")
    info = store.create_class(teacher.id, "3B", code, fluency_seconds=6, capture_sum=15)
    pupils = store.add_members(info.id, [NewMember(f"Ana{code}", "🦊", "1234", "Ana García"),
                                         NewMember(f"Leo{code}", "🐼", "5678"),
                                         NewMember(f"Mia{code}", "🐸", "4321")])
    return (ClassGames(Classroom(store, TeacherSession(teacher))), info,
            *[p.profile_id for p in pupils])


def _vote(store: Storage, pupil: int, game: ClassGame, move: Move) -> Move:
    return PupilVote(store, pupil).vote(game, game.turn, move.card, sorted(move.take), DAY)


def _capture_and_other(game: ClassGame) -> tuple[Move, Move]:
    legal = game.legal_moves()
    return legal[0], legal[1]


def _voting(games: ClassGames, class_id: int, seed: int = SEED) -> ClassGame:
    """A game started at a position with two legal moves at least."""
    game = games.start(class_id, seed=seed)
    assert game.voting and len(game.legal_moves()) >= 2
    return game


def test_votes_are_one_per_pupil_changeable_and_counted_without_names(store: Storage) -> None:
    games, info, ana, leo, mia = _class(store)
    game = _voting(games, info.id)
    first, second = _capture_and_other(game)
    _vote(store, ana, game, first)
    _vote(store, leo, game, first)
    _vote(store, mia, game, first)
    _vote(store, mia, game, second)  # Mia changes her mind: one vote each still
    tally = games.tally(games.current(info.id))
    assert tally.voters == 3
    assert dict(tally.counts) == {first: 2, second: 1}
    assert tally.leaders == (first,)
    assert tally.for_card(first.card) == 2 + (first.card == second.card)
    assert PupilVote(store, mia).mine(game) == second
    # The tally holds counts only: no profile, no name, nothing to put a child beside.
    assert {f.name for f in fields(Tally)} == {"counts", "voters"}


def test_the_move_with_most_votes_is_played_and_the_computer_replies(store: Storage) -> None:
    games, info, ana, leo, mia = _class(store)
    game = _voting(games, info.id)
    first, second = _capture_and_other(game)
    hand_before = game.observation().hand
    for pupil, move in ((ana, second), (leo, second), (mia, first)):
        _vote(store, pupil, game, move)
    result = games.close_vote(info.id, game.id, game.turn)
    assert (result.move, result.how, result.votes, result.voters) == (second, "votes", 2, 3)
    after = games.current(info.id)
    assert after.turn == game.turn + 1 and after.voting
    assert second.card not in after.observation().hand and len(hand_before) == 3
    # The computer played once after the class (its reply is public, in the history).
    history = after.session.round.history
    assert [e.seat for e in history[-2:]] == [CLASS_SEAT, COMPUTER_SEAT]
    assert len(result.computer) == 1
    # What the close did is kept for the projector, with the coach's reason.
    assert after.last == result
    assert result.reason is not None and result.reason[0] in (
        "captures", "captures_siete", "escoba", "leaves_sweep", "lay_down_safe",
        "lay_down_counted", "lay_down_yours", "lay_down_open", "escoba_no_point")
    # The votes of the closed turn are refused from now on.
    with pytest.raises(ClassroomError) as closed:
        _vote(store, ana, game, first)
    assert closed.value.key == "class_game.closed"


def test_a_tie_is_broken_by_the_teacher_among_the_tied_moves(store: Storage) -> None:
    games, info, ana, leo, _mia = _class(store)
    game = _voting(games, info.id)
    first, second = _capture_and_other(game)
    _vote(store, ana, game, first)
    _vote(store, leo, game, second)
    assert set(games.tally(game).leaders) == {first, second}
    with pytest.raises(ClassroomError) as tied:
        games.close_vote(info.id, game.id, game.turn)
    assert tied.value.key == "class_game.choose_tied" and tied.value.params == {"count": 2}
    others = [m for m in game.legal_moves() if m not in (first, second)]
    if others:  # a move nobody voted is not the teacher's to pick on a tie
        with pytest.raises(ClassroomError):
            games.close_vote(info.id, game.id, game.turn, others[0])
    result = games.close_vote(info.id, game.id, game.turn, second)
    assert (result.move, result.how, result.votes) == (second, "tie", 1)


def test_with_no_votes_the_teacher_picks_any_legal_move(store: Storage) -> None:
    games, info, *_ = _class(store)
    game = _voting(games, info.id)
    with pytest.raises(ClassroomError) as choose:
        games.close_vote(info.id, game.id, game.turn)
    assert choose.value.key == "class_game.choose_move"
    illegal = Move(Card.parse("1o"), frozenset())  # not in the class's hand
    assert illegal.card not in game.observation().hand
    with pytest.raises(ClassroomError):
        games.close_vote(info.id, game.id, game.turn, illegal)
    move = game.legal_moves()[-1]
    result = games.close_vote(info.id, game.id, game.turn, move)
    assert (result.move, result.how, result.votes, result.voters) == (move, "teacher", 0, 0)


def test_an_illegal_vote_is_refused_by_the_engine_with_its_code(store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    game = _voting(games, info.id)
    obs = game.observation()
    card = obs.hand[0]
    # A wrong sum: the card with every table card (never 15 with this deal's table).
    wrong = [c for c in obs.table]
    assert card.value + sum(c.value for c in wrong) != 15
    with pytest.raises(VoteRefused) as refused:
        PupilVote(store, ana).vote(game, game.turn, card, wrong, DAY)
    assert refused.value.key == "wrong_sum"
    assert refused.value.params["need"] == 15
    assert PupilVote(store, ana).mine(game) is None  # nothing voted
    # ...and the wrong sum is her evidence at once, as a refused try in a game.
    tries = store.attempts(ana)
    assert len(tries) == 1 and tries[0].wrong == 1 and tries[0].mode == "game"
    # A card the class does not hold: refused, and no evidence.
    with pytest.raises(VoteRefused) as not_held:
        PupilVote(store, ana).vote(game, game.turn, Card.parse("1o"), [], DAY)
    assert not_held.value.key != "wrong_sum"
    assert len(store.attempts(ana)) == 1
    assert games.tally(game).voters == 0


def test_a_pupil_of_another_class_and_another_teacher_are_refused(store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    other, other_info, zoe, *_ = _class(store, "Mr Ruiz", "PRT396")
    game = _voting(games, info.id)
    move = game.legal_moves()[0]
    with pytest.raises(ClassroomError) as gone:
        _vote(store, zoe, game, move)  # a forged game id: not her class's
    assert gone.value.key == "class_game.gone"
    assert PupilVote(store, zoe).current() is None
    assert games.tally(game).voters == 0
    with pytest.raises(ClassroomError) as theirs:
        other.close_vote(info.id, game.id, game.turn, move)
    assert theirs.value.key == "class.not_yours"
    with pytest.raises(ClassroomError):
        other.current(info.id)
    with pytest.raises(ClassroomError) as level:
        games.start(info.id, level="just_right")
    assert level.value.key == "class_game.bad_level"
    with pytest.raises(ClassroomError) as target:
        games.start(info.id, target=99)
    assert target.value.key == "class_game.bad_target"


def test_two_tabs_closing_the_same_vote_play_it_once(store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    game = _voting(games, info.id)
    move = game.legal_moves()[0]
    _vote(store, ana, game, move)
    stale = games.current(info.id)
    games.close_vote(info.id, game.id, game.turn)
    with pytest.raises(ClassroomError) as moved:
        games.close_vote(info.id, stale.id, stale.turn)
    assert moved.value.key == "class_game.moved"
    with pytest.raises(ClassroomError):
        games._save(stale, "voting", stale.turn + 1, None)  # the revision read is old
    assert games.current(info.id).turn == game.turn + 1


def test_a_vote_that_comes_while_the_vote_closes_is_never_lost(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The close counted the votes; Leo's comes before it is saved: the close is refused
    (the teacher taps again and his vote counts), not played without it."""
    games, info, ana, leo, _ = _class(store)
    game = _voting(games, info.id)
    first, second = _capture_and_other(game)
    _vote(store, ana, game, first)
    read = Storage.class_votes

    def votes_then_leo(self: Storage, game_id: int, turn: int) -> list[tuple[int, str]]:
        counted = read(self, game_id, turn)
        monkeypatch.setattr(Storage, "class_votes", read)
        _vote(store, leo, game, second)
        return counted

    monkeypatch.setattr(Storage, "class_votes", votes_then_leo)
    with pytest.raises(ClassroomError) as moved:
        games.close_vote(info.id, game.id, game.turn)
    assert moved.value.key == "class_game.moved"
    assert games.tally(games.current(info.id)).voters == 2
    result = games.close_vote(info.id, game.id, game.turn, second)  # now a tie, broken
    assert (result.how, result.voters) == ("tie", 2)


def test_the_computer_never_reads_the_class_hand(store: Storage,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer chooses from its own observation: the class's cards are not in it."""
    seen: list[Observation] = []
    choose = GentlePlayer.choose

    def spy(self: Any, obs: Observation, rng: Any) -> Move:
        seen.append(obs)
        return choose(self, obs, rng)

    monkeypatch.setattr(GentlePlayer, "choose", spy)
    games, info, ana, *_ = _class(store)
    game = _voting(games, info.id)
    seen.clear()
    hand = set(game.observation().hand)
    _vote(store, ana, game, game.legal_moves()[0])
    games.close_vote(info.id, game.id, game.turn)
    assert seen and all(obs.seat == COMPUTER_SEAT for obs in seen)
    assert all(not hand & set(obs.hand) and obs.open_hands is None for obs in seen)


def test_a_whole_game_played_to_its_end_by_votes(store: Storage) -> None:
    games, info, ana, leo, mia = _class(store)
    game = games.start(info.id, level="greedy", target=1, seed=11)
    turns = rounds = 0
    while game.state != "over":
        if game.state == "round_over":
            game = games.next_round(info.id, game.id)
            rounds += 1
            # Issue 29: the computer's lead of the new round is kept for the projector.
            round_ = game.session.round
            led = [e for e in round_.history if e.kind == "play"]
            assert (game.last is None) == (not led)
            if game.last is not None:
                assert game.last.move is None and len(game.last.computer) == len(led)
            continue
        legal = game.legal_moves()
        for i, pupil in enumerate((ana, leo, mia)):
            _vote(store, pupil, game, legal[i % 2 % len(legal)])
        games.close_vote(info.id, game.id, game.turn)
        game = games.current(info.id)
        turns += 1
        assert turns < 200
    assert game.winner in (0, 1) and max(game.totals) >= 1
    assert game.totals[game.winner] > game.totals[1 - game.winner]
    assert game.last is not None and game.legal_moves() == []
    # Every vote that asked a fact is the pupil's evidence, named as the class's game.
    tries = store.attempts(ana)
    assert tries and {game_of(a) for a in tries} == {f"classgame-{game.id}"}
    assert all(a.seconds == 0.0 and a.hints == 1 for a in tries)  # talked over: untimed
    # Over: no more votes; the teacher closes it and it leaves every screen.
    with pytest.raises(ClassroomError):
        games.close_vote(info.id, game.id, game.turn, None)
    games.end(info.id, game.id)
    assert games.current(info.id) is None and PupilVote(store, ana).current() is None
    with pytest.raises(ClassroomError) as gone:
        games.end(info.id, game.id)
    assert gone.value.key == "class_game.gone"


def test_a_new_game_closes_the_one_before_and_a_stale_one_leaves_the_tablets(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    games, info, ana, *_ = _class(store)
    first = games.start(info.id, seed=1)
    second = games.start(info.id, seed=2)
    assert games.current(info.id).id == second.id != first.id
    assert PupilVote(store, ana).pulse() == (second.id, second.state, second.turn)
    assert PupilVote(store, ana).current().id == second.id
    later = second.row.updated_at + timedelta(hours=STALE_HOURS, minutes=1)
    monkeypatch.setenv("ESCOBA_NOW", later.isoformat().replace("+00:00", "Z"))
    assert PupilVote(store, ana).current() is None and PupilVote(store, ana).pulse() is None
    assert store.class_game(info.id).id == second.id  # the projector still shows it, to end


def test_a_new_game_closes_a_live_round_left_open_so_the_class_can_vote(
        store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    room = games.room
    LiveClass(room).start(info.id, 1, seed="left-open", kind="quick")
    assert PupilLive(store, ana).current() is not None  # the tablets show the round
    game = games.start(info.id, seed=SEED)
    assert store.live_round(info.id) is None
    assert PupilLive(store, ana).current() is None
    assert PupilVote(store, ana).current().id == game.id  # so they can vote
    # A round started during the game is the teacher's interlude: the game stays.
    LiveClass(room).start(info.id, 1, seed="interlude", kind="quick")
    assert games.current(info.id).id == game.id


def test_the_turn_result_keeps_what_the_projector_draws(store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    game = _voting(games, info.id)
    _vote(store, ana, game, game.legal_moves()[0])
    result = games.close_vote(info.id, game.id, game.turn)
    stored = json.loads(json.dumps(result.to_stored()))
    assert TurnResult.from_stored(stored) == result
    # Nothing in it names a pupil.
    assert set(stored) == {"move", "how", "votes", "voters", "reason", "better", "escoba",
                           "computer"}


def test_the_views_name_the_sides_plainly_and_the_record_keeps_its_own(store: Storage) -> None:
    """Issue 29: a child voting read "Computer 2" and the class's code name; the views
    name the sides ("Our class", "The computer"), for drawing only."""
    games, info, ana, *_ = _class(store)
    game = _voting(games, info.id)
    assert seat_label(game.session.seats[COMPUTER_SEAT], COMPUTER_SEAT).startswith(
        f"{COMPUTER_AVATAR} Computer 2")  # what the tablets said before
    game.name_sides("Our class", "The computer")
    seats = game.session.seats
    assert [seat_name(s, i) for i, s in enumerate(seats)] == ["Our class", "The computer"]
    assert seat_label(seats[CLASS_SEAT], CLASS_SEAT) == "🏫 Our class"
    assert seat_label(seats[COMPUTER_SEAT], COMPUTER_SEAT) == \
        f"{COMPUTER_AVATAR} The computer (Gentle)"
    assert seats[COMPUTER_SEAT].level == game.row.level  # the same computer player
    _vote(store, ana, game, game.legal_moves()[0])
    games.close_vote(info.id, game.id, game.turn)
    again = games.current(info.id)
    assert again is not None and again.session.seats[CLASS_SEAT].name == "3B"
    assert store.class_game(info.id).record["names"][CLASS_SEAT] == "3B"


def test_deleting_a_pupil_or_the_class_takes_their_class_game_rows(store: Storage) -> None:
    games, info, ana, leo, _ = _class(store)
    game = _voting(games, info.id)
    _vote(store, ana, game, game.legal_moves()[0])
    _vote(store, leo, game, game.legal_moves()[0])
    store.remove_member(info.id, ana)
    assert [p for p, _m in store.class_votes(game.id, game.turn)] == [leo]
    store.delete_class(info.id)
    assert store.class_game(info.id) is None and store.class_votes(game.id, game.turn) == []


def test_no_tablet_is_sent_the_computers_hand(store: Storage) -> None:
    """The board a tablet draws is built from the class's observation: the computer's
    cards are a count, absent from the data (as on the Play page)."""
    from escoba import Deck
    from trainer.board_view import session_board

    games, info, *_ = _class(store)
    game = _voting(games, info.id)
    hidden = {str(c) for c in game.session.observation(COMPUTER_SEAT).hand}
    assert hidden
    data = session_board(game.session, viewer=CLASS_SEAT, reveal=True, deck=Deck.SPANISH,
                         show_value=True, hints_on=False, hint_step=1)
    assert not hidden & set(data["faces"]) and not hidden & set(data["hand"])
    assert set(data["hand"]) == {str(c) for c in game.observation().hand}
    assert [s["count"] for s in data["seats"]] == [len(hidden)]


def test_the_computers_first_move_is_kept_for_the_projector(store: Storage) -> None:
    """Issue 29: when the computer leads, the projector showed its cards played but not
    the move; the game keeps it (no class move: the opening) until the class votes."""
    games, info, ana, *_ = _class(store)
    led = games.start(info.id, seed=1)  # the computer leads: it lays the 8 de bastos
    assert led.voting and led.last is not None and led.last.move is None
    assert led.last.computer == ((Move(Card.parse("8b"), frozenset()), False),)
    assert games.current(info.id).last == led.last  # as stored
    stored = json.loads(json.dumps(led.last.to_stored()))
    assert TurnResult.from_stored(stored) == led.last
    # The class's vote then replaces it with what the class and the computer played.
    _vote(store, ana, led, led.legal_moves()[0])
    result = games.close_vote(info.id, led.id, led.turn)
    assert result.move == led.legal_moves()[0] and games.current(info.id).last == result
    assert games.start(info.id, seed=SEED).last is None  # the class leads: nothing to say


def test_the_teacher_ends_a_game_midway_with_its_points_so_far(store: Storage) -> None:
    """Issue 29: "End the game" took the game off every screen mid-round with no result;
    now it is ended (the vote closed, the points so far and who was ahead kept on the
    projector, the tablets told) until the teacher closes it."""
    games, info, ana, leo, _mia = _class(store)
    game = _voting(games, info.id)
    for _turn in range(3):  # a few turns in: the sides have taken cards
        _vote(store, ana, game, game.legal_moves()[0])
        games.close_vote(info.id, game.id, game.turn)
        game = games.current(info.id)
    round_ = game.session.round
    assert round_ is not None and any(round_.pile_masks)
    expected = score_round(game.rules, round_.pile_masks, round_.escobas).totals
    ended = games.stop(info.id, game.id)
    assert ended.state == "ended" and ended.ended and not ended.voting
    assert ended.points_so_far() == tuple(expected)  # one round under way: its points now
    mine, theirs = expected
    assert ended.ahead == (None if mine == theirs else (CLASS_SEAT if mine > theirs
                                                        else COMPUTER_SEAT))
    assert ended.last == game.last  # what was played last stays on the projector
    # The vote is closed; the tablets see the game ended (the pulse moved).
    with pytest.raises(ClassroomError) as closed:
        _vote(store, leo, game, game.legal_moves()[0])
    assert closed.value.key == "class_game.closed"
    assert PupilVote(store, leo).pulse() == (game.id, "ended", game.turn)
    assert PupilVote(store, leo).current().state == "ended"
    with pytest.raises(ClassroomError):
        games.close_vote(info.id, game.id, game.turn)
    assert games.stop(info.id, game.id).state == "ended"  # a second tab's tap: no change
    games.end(info.id, game.id)
    assert games.current(info.id) is None and PupilVote(store, leo).current() is None


def test_points_so_far_add_the_round_under_way_to_the_rounds_won(store: Storage) -> None:
    games, info, ana, *_ = _class(store)
    game = games.start(info.id, level="greedy", target=11, seed=11)
    assert game.points_so_far() == (0, 0) and game.ahead is None  # nothing taken yet
    while game.state != "round_over":
        _vote(store, ana, game, game.legal_moves()[0])
        games.close_vote(info.id, game.id, game.turn)
        game = games.current(info.id)
    assert game.points_so_far() == game.totals and sum(game.totals) > 0
    game = games.next_round(info.id, game.id)
    assert sum(game.points_so_far()) >= sum(game.totals)
