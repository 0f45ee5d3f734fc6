"""Class against the computer with AppTest (issue 29): the teacher's "Class vs computer"
part on the projector and three pupils on My class voting the class's moves (with the
text choosers: AppTest runs no JavaScript, so the board's own taps are the browser
test's), through ties, a turn nobody voted, an illegal vote, to the end of the game.
The projector never shows a pupil's nickname."""

from __future__ import annotations

import pytest

from escoba import Card, Deck
from tests.test_app_classroom import (
    MY_CLASS,
    _class,
    click,
    open_class,
    part,
    shown,
    sign_in_pupil,
    store,
)
from tests.test_app_helpers import assert_ok, board_data, board_text, component_data, new_app
from tests.test_app_live_round import _setup  # noqa: F401 (autouse: the clock, cheap PINs)
from trainer.board_view import move_key
from trainer.class_game import COMPUTER_AVATAR, ClassGame, ClassGames, TurnResult, move_of
from trainer.classroom import say
from trainer.i18n import card_name
from trainer.words import coach_text

pytestmark = pytest.mark.usefixtures("fresh_app")


def _game(db, class_id: int) -> ClassGame:
    row = db.class_game(class_id)
    assert row is not None
    return ClassGame(row, "3B")


def _vote(at, key: str) -> None:
    move = move_of(key)
    at.pills(key="mc_cg_hand").set_value(str(move.card))
    if any(p.key == "mc_cg_table" for p in at.pills):
        at.pills(key="mc_cg_table").set_value([str(c) for c in sorted(move.take)])
    at.run()
    click(at, "mc_cg_vote")


def test_a_class_plays_the_computer_by_votes_to_the_end() -> None:
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat\nNumbat",
                            ["4821", "7395", "2468"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "class_game")
    assert "Start a game against the computer" in teacher.button(key="tc_cg_start").label
    pupils = [new_app(), new_app(), new_app()]
    for at, (name, pin) in zip(pupils, (("Quokka", "4821"), ("Wombat", "7395"),
                                        ("Numbat", "2468")), strict=True):
        at.switch_page(MY_CLASS).run()
        sign_in_pupil(at, info.code, ids[name], pin)
        assert "Your tasks" in shown(at)
    click(teacher, "tc_cg_start")
    game = _game(db, info.id)
    assert game.voting and "0 votes in" in shown(teacher.main)

    for at in pupils:
        at.run()
        assert_ok(at)
        assert "Class against the computer: vote for the class's move!" in shown(at)
        assert "Your tasks" not in shown(at)
    # An illegal vote: the engine says why, nothing is counted. A hand card with one table
    # card that do not make 15 (the deal is random: the whole table with a card can).
    obs = game.observation()
    legal_now = {move_key(m.card, m.take) for m in game.legal_moves()}
    # None when the deal leaves no such pair (CI drew one such deal).
    wrong = next((key for card in obs.hand for other in obs.table
                  if card.value + other.value != 15
                  and (key := move_key(card, [other])) not in legal_now), None)
    if wrong is not None:
        _vote(pupils[0], wrong)
        assert any("not 15" in e.value or "15" in e.value for e in pupils[0].error), \
            [e.value for e in pupils[0].error]
        assert "0 votes in" in shown(teacher.run().main)
    turns = 0
    while True:
        game = _game(db, info.id)
        if game.state == "over":
            break
        if game.state == "round_over":
            click(teacher, "tc_cg_next")
            continue
        legal = [move_key(m.card, m.take) for m in game.legal_moves()]
        if turns == 0 and len(legal) > 1:
            # Three votes, one changed: the move with most votes is played.
            _vote(pupils[0], legal[0])
            _vote(pupils[1], legal[1])
            _vote(pupils[2], legal[0])
            _vote(pupils[2], legal[1])  # Numbat changes her mind: 1 against 2
            assert "Your vote:" in shown(pupils[2])
            teacher.run()
            assert "3 votes in" in shown(teacher.main)
            click(teacher, "tc_cg_close")
            assert _game(db, info.id).last.move == move_of(legal[1])
            assert "(2 votes)" in shown(teacher.main)
            assert "Coach:" in shown(teacher.main)
            reason = _game(db, info.id).last.reason  # said to the class: "we take", not "you"
            assert coach_text(*reason, Deck.SPANISH, voice="class") in shown(teacher.main)
        elif turns == 1 and len(legal) > 1:
            _vote(pupils[0], legal[0])
            _vote(pupils[1], legal[1])
            teacher.run()
            assert "A tie: tap the move the class plays." in shown(teacher.main)
            click(teacher, "tc_cg_tie_1")
        elif turns == 2:
            teacher.run()
            assert "0 votes in" in shown(teacher.main)
            assert "No votes yet" in teacher.expander[0].label
            teacher.selectbox(key="tc_cg_pick").set_value(legal[-1]).run()
            click(teacher, "tc_cg_play_pick")
        else:
            for at in pupils:
                at.run()
                _vote(at, legal[0])
            teacher.run()
            click(teacher, "tc_cg_close")
        after = _game(db, info.id)
        assert after.turn == game.turn + 1 or after.state != "voting"
        for at in pupils:
            at.run()
            assert_ok(at)
        turns += 1
        assert turns < 120
    teacher.run()
    assert_ok(teacher)
    result = shown(teacher.main)
    assert "The class won!" in result or "The computer won this time." in result
    # Never a pupil's nickname on the projector.
    assert not any(name in result for name in ("Quokka", "Wombat", "Numbat"))
    for at in pupils:
        at.run()
        assert "The game is over: look at the board!" in shown(at)
        assert "Your tasks" in shown(at)
    assert not [b for b in teacher.button if b.key == "tc_cg_end"]  # over: nothing to ask
    click(teacher, "tc_cg_clear")
    assert db.class_game(info.id) is None
    assert teacher.button(key="tc_cg_start")
    # The votes were the pupils' evidence, named as the class's game.
    assert any(a.puzzle_id.startswith("classgame-") for a in db.attempts(ids["Quokka"]))


def test_the_vote_names_the_sides_in_words_and_the_buttons_say_they_work() -> None:
    """Issue 29: on the pupil's board one line of words (who plays, the score, the round)
    instead of the Play page's icons, "Our class" and "The computer" (never "Computer 2"),
    a compact board for a phone; on the projector the same names, and the game's buttons
    watched for the "Working…" sign, which goes when a tap is answered."""
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "class_game")
    busy = component_data(teacher, "escoba_busy")
    assert busy is not None and busy["text"] == "Working…" and "tc_cg_start" in busy["keys"]
    click(teacher, "tc_cg_start")
    after_start = component_data(teacher, "escoba_busy")
    assert after_start is not None and after_start["answered"] == busy["answered"] + 1
    assert "tc_cg_close" in after_start["keys"]
    pupil = new_app()
    pupil.switch_page(MY_CLASS).run()
    sign_in_pupil(pupil, info.code, ids["Quokka"], "4821")
    data = board_data(pupil)
    assert data is not None and data["compact"] is True
    assert data["header"]["line"] == f"🏫 Our class 0 · {COMPUTER_AVATAR} The computer 0 · Round 1"
    assert [s["name"] for s in data["seats"]] == [f"{COMPUTER_AVATAR} The computer (Gentle)"]
    assert "Computer 2" not in board_text(pupil) and "3B" not in data["header"]["line"]
    game = _game(db, info.id)
    _vote(pupil, move_key(game.legal_moves()[0].card, game.legal_moves()[0].take))
    assert "Your vote:" in shown(pupil)
    teacher.run()
    click(teacher, "tc_cg_close")
    seen = shown(teacher.main)
    assert "🏫 Our class " in seen and "Computer 2" not in seen
    assert component_data(teacher, "escoba_busy")["answered"] == busy["answered"] + 2


@pytest.mark.parametrize("locale", ["de-DE", "zh-CN", "es-ES"])
def test_the_class_game_speaks_the_language(caplog, locale: str) -> None:
    """The part and the pupil's vote in another language: every word found, with its
    parameters (a missing one is logged by the catalogs)."""
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    with caplog.at_level("WARNING", logger="locales"):
        teacher = open_class(locale, "Ms Díaz", info.id)
        part(teacher, "class_game")
        click(teacher, "tc_cg_start")
        pupil = new_app(locale=locale)
        pupil.switch_page(MY_CLASS).run()
        sign_in_pupil(pupil, info.code, ids["Quokka"], "4821")
        game = _game(db, info.id)
        _vote(pupil, move_key(game.legal_moves()[0].card, game.legal_moves()[0].take))
        teacher.run()
        click(teacher, "tc_cg_close")
        pupil.run()
        assert_ok(pupil)
        seen = shown(teacher.main) + shown(pupil)
        # Ended early (issue 29): the question, the points so far, the tablets told.
        click(teacher, "tc_cg_end")
        seen += shown(teacher.main)
        click(teacher, "tc_cg_end_yes")
        pupil.run()
        seen += shown(teacher.main) + shown(pupil)
    assert _game(db, info.id).state == "ended"
    assert "Yes, end the game" not in seen and "Points so far" not in seen
    assert "The game was ended" not in seen
    assert "Class vs computer" not in seen and "votes in" not in seen
    assert [r.getMessage() for r in caplog.records if r.name == "locales"] == []


def test_ending_a_game_asks_first_then_shows_the_points_so_far() -> None:
    """Issue 29: "End the game" ended it at once, mid-round, with no question and no
    result. Now it asks (Yes, end the game / No, go on); ended, the projector shows the
    points so far and who was ahead, and the tablets say the game was ended."""
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "class_game")
    click(teacher, "tc_cg_start")
    pupil = new_app()
    pupil.switch_page(MY_CLASS).run()
    sign_in_pupil(pupil, info.code, ids["Quokka"], "4821")
    game = _game(db, info.id)
    _vote(pupil, move_key(game.legal_moves()[0].card, game.legal_moves()[0].take))
    teacher.run()
    click(teacher, "tc_cg_close")
    busy = component_data(teacher, "escoba_busy")
    assert {"tc_cg_end", "tc_cg_end_yes", "tc_cg_end_no"} <= set(busy["keys"])
    click(teacher, "tc_cg_end")
    assert _game(db, info.id).voting  # asked, not ended
    assert "End the game now? The projector shows the points so far." in shown(teacher.main)
    click(teacher, "tc_cg_end_no")
    assert _game(db, info.id).voting
    assert "End the game now?" not in shown(teacher.main) and teacher.button(key="tc_cg_end")
    click(teacher, "tc_cg_end")
    click(teacher, "tc_cg_end_yes")
    ended = _game(db, info.id)
    assert ended.state == "ended"
    mine, theirs = ended.points_so_far()[:2]
    seen = shown(teacher.main)
    assert f"Game ended. Points so far: the class {mine}, the computer {theirs}." in seen
    # The score line above says the same points (it said the finished rounds' 0-0).
    assert say("class_game.score", {"mine": mine, "theirs": theirs}, "en") in seen
    ahead = ("The class was ahead!" if mine > theirs else "The computer was ahead."
             if theirs > mine else "Nobody was ahead: a draw.")
    assert ahead in seen and "Quokka" not in seen
    assert not [b for b in teacher.button if b.key in ("tc_cg_close", "tc_cg_end")]
    pupil.run()
    assert_ok(pupil)
    assert "The game was ended: look at the board!" in shown(pupil)
    assert "Your tasks" in shown(pupil)
    click(teacher, "tc_cg_clear")
    assert db.class_game(info.id) is None and teacher.button(key="tc_cg_start")


def test_the_projector_says_what_the_computer_played_first() -> None:
    """Issue 29: the computer led and the projector showed its card on the table but no
    line; now "First: ... lays the Sota de bastos" until the class's first vote."""
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "class_game")
    ClassGames(room).start(info.id, seed=1)  # the computer leads: it lays the 8 de bastos
    teacher.run()
    assert_ok(teacher)
    (first,) = [h.proto.body for h in teacher.get("html")
                if "data-testid='tc-cg-computer'" in h.proto.body]
    assert "First: " in first and card_name(Card.parse("8b"), Deck.SPANISH) in first
    assert f"{COMPUTER_AVATAR} The computer" in first


def test_the_coachs_better_move_is_said_to_the_class() -> None:
    """Issue 29: "El entrenador prefería: dejar tu carta en la mesa" spoke to one child;
    the projector says the coach's move to the class, as its other sentences."""
    db = store()
    (room, info), _ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("es-ES", "Ms Díaz", info.id)
    part(teacher, "class_game")
    game = ClassGames(room).start(info.id, seed=11)  # the class leads, laying allowed
    capture = next(m for m in game.legal_moves() if m.take)
    better = next(m for m in game.legal_moves() if not m.take)  # the 2 de copas laid
    last = TurnResult(capture, "votes", 1, 1, None, better, False, ())
    db.save_class_turn(info.id, game.id, revision=game.row.revision, record=game.row.record,
                       state="voting", turn=game.turn, last=last.to_stored())
    teacher.run()
    assert_ok(teacher)
    (said,) = [h.proto.body for h in teacher.get("html")
               if "data-testid='tc-cg-better'" in h.proto.body]
    assert "El entrenador prefería: " in said
    assert "tu carta" not in said and "llevarte" not in said
    assert f"dejar el {card_name(better.card, Deck.SPANISH)} en la mesa" in said
