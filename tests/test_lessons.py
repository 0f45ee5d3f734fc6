"""The lesson path (issue 12): every level of every stage file played through, the schema's
errors, the runner's stars, retries and hints, and the lesson results in storage.

The generated tests (one per level of every ``lessons/*.toml``) load and validate the
file, then play the level with the engine: every scripted move legal, the goal's action
the only right one, every wrong action answered with feedback in every language, the
level finishable with three stars at its target. A new level is tested the moment its
file is saved.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

import locales
from escoba import Card, Deck, Move, Suit
from escoba.scoring import SETENTA_VALUES
from lessons import (
    ACTIONS,
    GLOSSARIES,
    GLOSSARY,
    HINTS,
    KINDS,
    LESSONS_DIR,
    MAX_LEVELS,
    MIN_LEVELS,
    Answer,
    LessonError,
    Level,
    Stage,
    TapCard,
    glossary_of,
    load_stages,
    parse_stage,
    read_stages,
)
from trainer.cards import deck_for_game
from trainer.i18n import LANGUAGES, placeholders, t, use_language
from trainer.lessons import (
    FEEDBACK_KEYS,
    GOAL_WORDS,
    LessonRunner,
    Message,
    Outcome,
    next_lesson,
    opening_level,
    say,
    stage_summaries,
    stars_for,
    suggest_lessons,
    words_to_read,
)
from trainer.storage import Storage, configure_sqlite

STAGES = load_stages()
LEVELS = [(stage, level) for stage in STAGES for level in stage.levels]
LEVEL_IDS = [f"{stage.key}-{level.index}-{level.key}" for stage, level in LEVELS]
ENGLISH = locales.catalog("lessons", "en")


# -- the path as a whole -----------------------------------------------------------------


def test_the_path_has_the_twelve_stages_of_the_issue_in_order() -> None:
    assert [s.key for s in STAGES][:12] == [
        "values", "one_card", "two_three", "lay_down", "choose", "escoba", "sweep_risk",
        "counting", "setenta", "renuncio", "first_game", "ten"]
    assert [s.order for s in STAGES] == list(range(1, len(STAGES) + 1))
    for stage in STAGES:
        assert MIN_LEVELS <= len(stage.levels) <= MAX_LEVELS, stage.key
        assert stage.levels[-1].check and not any(lv.check for lv in stage.levels[:-1])
    # Stage 12 makes 10, for the youngest; stage 10 plays under the renuncio rule.
    assert {lv.rules.capture_sum for lv in STAGES[11].levels} == {10}
    assert {lv.rules.capture_rule for lv in STAGES[9].levels} == {"renuncio"}
    # Each kind of action is used somewhere, and stage 11 ends with a whole game.
    used = {step.action for _, level in LEVELS for step in level.steps}
    assert used == set(ACTIONS)
    assert STAGES[10].levels[-1].is_game and STAGES[10].levels[-1].game.opponent == "gentle"


def test_hints_fade_over_every_stage() -> None:
    for stage in STAGES:
        scripted = [HINTS.index(lv.hints) for lv in stage.levels if not lv.is_game]
        assert scripted == sorted(scripted), stage.key
        assert scripted[0] == HINTS.index("full") and scripted[-1] == HINTS.index("none")


def _text_keys() -> set[str]:
    keys = set(FEEDBACK_KEYS)
    for stage in STAGES:
        keys |= stage.text_keys()
    return keys


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_text_key_of_the_lessons_is_in_every_catalog(lang: str) -> None:
    catalog = locales.catalog("lessons", lang)
    missing = sorted(k for k in _text_keys() if k not in catalog.translated)
    assert not missing


# -- one test per level -------------------------------------------------------------------


def _render(message: Message | None, caplog: pytest.LogCaptureFixture,
            deck: Deck = Deck.SPANISH) -> None:
    """A message reads in every language: its key exists (in its own catalog: a Scopa
    refusal is the app's wording), every placeholder is filled, its cards named in the
    level's ``deck``."""
    assert message is not None
    own = locales.catalog(message.domain, "en")
    english = " ".join(own.text(message.key, n) or "" for n in (1, 2))
    assert english.strip(), f"no English for {message.key}"
    caplog.clear()
    for lang in LANGUAGES:
        text = say(message, lang, deck)
        assert text and "{" not in text and text != message.key, (lang, message, text)
    problems = [r.getMessage() for r in caplog.records
                if "translation" in r.getMessage() or "parameters" in r.getMessage()]
    assert not problems, (message, problems)
    if message.domain == "lessons":
        wanted = placeholders(english)
        assert wanted <= set(message.params), (message.key, wanted - set(message.params))


def _readable(goal: Message | None, deck: Deck = Deck.SPANISH) -> None:
    """A goal a child who reads slowly takes in: at most GOAL_WORDS words in every
    language, its cards named as the child's language names them in the level's deck
    (issue 23)."""
    assert goal is not None
    long = {lang: text for lang in LANGUAGES
            if words_to_read(text := say(goal, lang, deck)) > GOAL_WORDS}
    assert not long, (goal.key, long)


def _right_actions(runner: LessonRunner) -> list[tuple[str, object]]:
    """Every right action of the current step, as the engine and the step say."""
    step, round_ = runner.step, runner.round
    assert round_ is not None
    expect = step.expect
    if step.action == "tap_card":
        if expect.with_card is not None:
            return [("tap", c) for c in round_.table
                    if round_.check(Move(expect.with_card, frozenset({c}))) is None]
        if expect.value is not None:
            area = {"hand": round_.hand(0), "table": round_.table,
                    "both": round_.hand(0) + round_.table}[expect.among]
            return [("tap", c) for c in area if c.value == expect.value]
        return [("tap", c) for c in expect.cards]
    if step.action == "play":
        moves = round_.legal_moves()
        if expect.moves == "captures":
            moves = [m for m in moves if m.take]
        elif expect.moves != "any":
            moves = [m for m in moves if m in expect.moves]
        return [("play", m) for m in moves]
    if step.action == "answer":
        return [("answer", runner.expected_answer())]
    return [("renuncio", None)]


def _candidates(runner: LessonRunner) -> Iterator[tuple[str, object]]:
    """Actions a child could try at this step: every card tapped, every hand card with
    every set of up to four table cards, numbers around the answer, a renuncio call."""
    round_ = runner.round
    assert round_ is not None
    view = runner.view()
    for card in view.hand + view.table:
        yield "tap", card
    for card in view.hand:
        for size in range(0, min(4, len(view.table)) + 1):
            for take in itertools.combinations(view.table, size):
                yield "play", Move(card, frozenset(take))
    if runner.step.action == "answer":
        right = runner.expected_answer()
        for n in {*view.choices, right - 1, right + 1, 0}:
            if n >= 0:
                yield "answer", n
    yield "renuncio", None


def _act(runner: LessonRunner, action: str, what: object) -> Outcome:
    if action == "tap":
        return runner.tap(what)  # type: ignore[arg-type]
    if action == "play":
        assert isinstance(what, Move)
        return runner.play(what.card, what.take)
    if action == "answer":
        return runner.answer(what)  # type: ignore[arg-type]
    return runner.claim_renuncio()


def _replay(runner: LessonRunner, stage: Stage, level: Level, path: list[tuple[str, object]]):
    runner.start(stage.key, level.key)
    for action, what in path:
        assert _act(runner, action, what).ok


def _play_game(runner: LessonRunner, caplog: pytest.LogCaptureFixture) -> Outcome:
    """A whole-game level played to its end: a wrong try first, then legal moves."""
    view = runner.view()
    assert view.action == "game" and view.game is not None and view.counting == "mistakes"
    obs = view.observation
    illegal = next(Move(c, frozenset({t})) for c in obs.hand for t in obs.table
                   if Move(c, frozenset({t})) not in obs.legal_moves())
    wrong = runner.play(illegal.card, illegal.take)
    assert not wrong.ok and wrong.counted
    _render(wrong.feedback, caplog)
    assert runner.tap(obs.hand[0]).counted is False
    outcome = wrong
    for _ in range(400):
        view = runner.view()
        if view.status == "level_done":
            return outcome
        if view.status == "round_over":
            runner.next_round()
            continue
        assert view.your_turn
        move = view.observation.legal_moves()[0]
        outcome = runner.play(move.card, move.take)
        assert outcome.ok, outcome
        if outcome.comment is not None:
            _render(outcome.comment, caplog)
    raise AssertionError("the game did not end")


def _lit_for(runner: LessonRunner, level: Level,
             rights: list[tuple[str, object]]) -> set[Card] | None:
    """The cards the step's answer involves, worked out here from the engine's round and
    scoring (not by the runner): ``None`` when only a subset is lit (a play's first card)."""
    step, round_ = runner.step, runner.round
    if level.hints == "none":
        return set()
    if step.action == "tap_card":
        return {what for _a, what in rights}  # every card a tap may answer with, no other
    if step.action in ("play", "renuncio"):
        return None
    question, args = step.expect.question, step.expect.args
    if question in ("card_value", "setenta_value"):
        return {args["card"]}
    if question == "table_total":
        return set(round_.table)
    if question == "capturing_cards":
        return {m.card for m in round_.legal_moves() if m.take}
    if question in ("count", "points"):
        seats = [args["seat"]] if question == "count" else [0, 1]
        pile = [c for seat in seats for c in round_.pile(seat)]
        category = args["category"]
        if category == "oros":
            return {c for c in pile if c.suit is Suit.OROS}
        if category == "sevens":
            return {c for c in pile if c.value == 7}
        if category == "siete_de_oros":
            return {c for c in pile if str(c) == "7o"}
        if category == "setenta":
            best = {}
            for c in pile:  # the best card of each suit by setenta value
                if c.suit not in best or SETENTA_VALUES[c.value] > SETENTA_VALUES[
                        best[c.suit].value]:
                    best[c.suit] = c
            return None if question == "points" else set(best.values()) | {"setenta"}
    return set()


def _asks_what_it_shows(runner: LessonRunner, level: Level, rights: list[tuple[str, object]],
                        caplog: pytest.LogCaptureFixture) -> None:
    """What the question asks about is on the screen, the lit cards are exactly those its
    answer involves, and a lit card is never refused."""
    view, step, round_ = runner.view(), runner.step, runner.round
    lit = set(view.glow)
    expected = _lit_for(runner, level, rights)
    if expected is not None and "setenta" in expected:
        # The setenta's four cards: each suit's best by value (figures tie at 10).
        expected.discard("setenta")
        assert {c.suit for c in lit} == {c.suit for c in expected}
        assert sum(SETENTA_VALUES[c.value] for c in lit) == runner.expected_answer()
    elif expected is not None:
        assert lit == expected, (step.action, step.expect, lit, expected)
    if step.action == "answer" and step.expect.question == "capturing_cards" and lit:
        assert len(lit) == runner.expected_answer()  # every card that can, and only those
    if step.action == "answer" and step.expect.question in ("count", "points", "escobas"):
        seats = [0, 1] if step.expect.question == "points" else [0]
        assert [p.seat for p in view.piles_shown] == seats
        for pile in view.piles_shown:  # opened: every card won, grouped, the escobas too
            assert sorted(pile.cards) == sorted(round_.pile(pile.seat))
            assert pile.escobas == round_.escobas[pile.seat]
            assert all(c.suit is Suit.OROS for c in pile.oros)
            # What the answer counts is never folded away: a lit card's group is open,
            # and so are the escobas when they are what is counted.
            for group, cards in (("oros", pile.oros), ("sevens", pile.sevens),
                                 ("others", pile.others)):
                assert not lit & set(cards) or pile.is_counted(group), (group, pile.counted)
            if "escobas" in (step.expect.question, step.expect.args.get("category")):
                assert pile.is_counted("escobas") and not pile.is_counted("others")
    else:
        assert view.piles_shown == ()
    if step.action == "answer" and step.expect.question == "round_points":
        assert view.score == round_.score()  # the table Play shows, on the screen
    else:
        assert view.score is None
    # A card the child may not pick is never lit; a lit one is never a mistake.
    assert lit <= set(view.hand) | set(view.table) | {
        c for seat in (0, 1) for c in round_.pile(seat)}
    path_state = (runner.stage.key, level.key, runner.view().step_index)
    for card in lit & (set(view.hand) | set(view.table)):
        outcome = runner.tap(card)
        if step.action == "tap_card":
            assert outcome.ok, card
        else:
            assert not outcome.counted, card  # not this step's action: no mistake counted
        _rewind(runner, *path_state)
    if step.action == "play" and lit:
        right_moves = [what for _a, what in rights]
        assert any(m.card == view.glow[0] and set(view.glow[1:]) <= m.take for m in right_moves)
    if step.action == "answer":
        wrong = next(n for n in (*view.choices, runner.expected_answer() + 1)
                     if n != runner.expected_answer())
        outcome = runner.answer(wrong)
        assert not outcome.ok and outcome.counted
        if step.expect.question not in ("card_value", "setenta_value"):
            _render(outcome.comment, caplog)  # what to look at, in every language
        _rewind(runner, *path_state)


_PATHS: dict[tuple[str, str], list[tuple[str, object]]] = {}


def _rewind(runner: LessonRunner, stage: str, level: str, step_index: int) -> None:
    _replay(runner, runner.stage, runner.level, _PATHS[(stage, level)][:step_index - 1])


@pytest.mark.parametrize(("stage", "level"), LEVELS, ids=LEVEL_IDS)
def test_every_level_plays_through(stage: Stage, level: Level,
                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    runner = LessonRunner(STAGES, auto_advance=False)
    view = runner.start(stage.key, level.key)
    # A Scopa stage names its cards in Scopa's deck.
    deck = deck_for_game(Deck.SPANISH, level.rules)
    _render(view.stage_title, caplog, deck)
    _render(view.stage_intro, caplog, deck)
    if level.is_game:
        _readable(view.goal, deck)
        outcome = _play_game(runner, caplog)
        assert outcome.result is not None and outcome.result.stars == 2  # one mistake
        return
    path: list[tuple[str, object]] = []
    _PATHS[(stage.key, level.key)] = path
    for index, step in enumerate(level.steps):
        _replay(runner, stage, level, path)
        view = runner.view()
        assert (view.step_index, view.action, view.status) == (index + 1, step.action, "playing")
        _render(view.goal, caplog, deck)
        _readable(view.goal, deck)
        round_ = runner.round
        if step.action in ("tap_card", "play", "renuncio"):
            assert view.your_turn, "a step to act on is the child's turn"
        if step.action != "renuncio":
            assert not round_.observation(0).renuncio_claims(), "an unasked renuncio"
        rights = _right_actions(runner)
        assert rights, "the step has a right action"
        _asks_what_it_shows(runner, level, rights, caplog)
        kinds = {"tap_card": "tap", "play": "play", "answer": "answer", "renuncio": "renuncio"}
        legal_others = False
        for action, what in _candidates(runner):
            _replay(runner, stage, level, path)
            outcome = _act(runner, action, what)
            if (action, what) in rights:
                assert outcome.ok
                continue
            assert not outcome.ok, (action, what)
            # A play or a renuncio call is a try in either kind of step (the child chose
            # between them); any other action the step does not take counts nothing.
            tries = {kinds[step.action]}
            if step.action in ("play", "renuncio"):
                tries |= {"play", "renuncio"} if view.renuncio_rule else {"play"}
            if action not in tries:
                assert not outcome.counted, (action, outcome)
                continue
            assert outcome.counted
            _render(outcome.feedback, caplog, deck)
            if outcome.comment is not None:  # where to look, named in every language too
                _render(outcome.comment, caplog, deck)
            if action == "play" and round_.check(what) is None:
                legal_others = True
                if step.consequence:
                    assert runner.status == "consequence" and outcome.events
                    if outcome.consequence is not None:
                        _render(outcome.consequence, caplog, deck)
                    assert runner.retry().status == "playing"
        if step.action == "play" and legal_others:
            assert step.other, "a legal move that is not the goal's needs its own feedback"
        path.append(rights[0])
    _replay(runner, stage, level, path[:-1])
    outcome = _act(runner, *path[-1])
    assert outcome.ok and outcome.result is not None
    assert outcome.result.stars == 3 and outcome.result.plays == len(level.steps)
    assert runner.status == "level_done"
    _render(outcome.feedback, caplog, deck)
    for event in outcome.events:  # the child's move and the scripted replies: all played
        assert event.seat in (0, 1)


# -- the schema's errors -------------------------------------------------------------------

DEAL = """
[levels.deal]
dealer = 1
hands = [["8c", "3e", "5b"], ["1b", "2b", "4b"]]
table = ["7o", "6c", "9e", "10b"]
"""
GOOD = """
key = "demo"
title = "demo.title"
intro = "demo.intro"

[[levels]]
key = "one"
goal = "goal.tap_value"
goal_params = { value = 8 }
hints = "full"
action = "tap_card"
expect = { value = 8 }
""" + DEAL + "".join(f"""
[[levels]]
key = "l{i}"
goal = "goal.tap_value"
goal_params = {{ value = 8 }}
hints = "none"
action = "tap_card"
expect = {{ value = 8 }}
{"check = true" if i == 5 else ""}
""" + DEAL for i in range(2, 6))


def test_a_good_file_reads() -> None:
    stage = parse_stage(GOOD, "99-demo.toml")
    assert stage.key == "demo" and len(stage.levels) == 5 and stage.levels[-1].check
    assert stage.levels[0].steps[0].goal_params == {"value": 8}


@pytest.mark.parametrize(("change", "where", "says"), [
    (('goal = "goal.tap_value"', 'goal = "Tap the card worth 8"'), "level 1 'one', goal",
     "catalog key"),
    (('hints = "full"', 'hints = "lots"'), "level 1 'one', hints", "full, some, none"),
    (('expect = { value = 8 }\n\n[levels.deal]', 'expect = { value = 11 }\n\n[levels.deal]'),
     "level 1 'one', expect.value", "1-10"),
    (('"8c", "3e"', '"8x", "3e"'), "level 1 'one', deal.hands[0][0]", "unknown card '8x'"),
    (('"8c", "3e", "5b"], ["1b"', '"8c", "3e", "1b"], ["1b"'), "level 1 'one', deal",
     "1b dealt twice"),
    (('table = ["7o", "6c", "9e", "10b"]\n\n[[levels]]\nkey = "l2"',
      'table = ["7o", "6c", "1e", "1c"]\n\n[[levels]]\nkey = "l2"'),
     "level 1 'one', deal.table", "totals 15"),
    (('key = "one"', 'key = "l2"'), "levels", "used twice"),
    (('action = "tap_card"', 'action = "jump"'), "level 1 'one', action", "tap_card, play"),
    (('hints = "full"', 'hints = "full"\nreply = "7x"'), "level 1 'one', reply",
     "unknown card '7x'"),
    (('hints = "full"', 'hints = "full"\nbefore = ["1b"]'), "level 1 'one', before",
     "1b is not in the hand of seat 0"),
    (('hints = "full"', 'hints = "full"\ncolour = "red"'), "level 1 'one'",
     "unknown field 'colour'"),
    (('intro = "demo.intro"', 'intro = "demo.intro"\nrules = { capture_sum = 12 }'),
     "rules", "capture_sum must be 10, 15 or 20"),
    (('goal_params = { value = 8 }\nhints = "full"',
      'goal_params = { value = "eight" }\nhints = "full"'),
     "level 1 'one', goal_params.value", "whole number"),
    (('check = true', ''), "levels", "the last level, and only it"),
])
def test_a_broken_file_says_which_file_level_and_field(change: tuple[str, str], where: str,
                                                       says: str) -> None:
    old, new = change
    assert old in GOOD, old
    with pytest.raises(LessonError) as broken:
        parse_stage(GOOD.replace(old, new, 1), "99-demo.toml")
    error = broken.value
    assert error.source == "99-demo.toml" and error.where == where, str(error)
    assert says in error.message, str(error)
    assert str(error).startswith(f"99-demo.toml: {where}: ")


def test_a_file_that_is_not_toml_or_has_too_few_levels_is_refused() -> None:
    with pytest.raises(LessonError, match=r"^x.toml: not valid TOML"):
        parse_stage("key = ", "x.toml")
    few = GOOD.split("[[levels]]")
    with pytest.raises(LessonError, match="a stage has 5-8 levels, got 3"):
        parse_stage("[[levels]]".join(few[:4]), "x.toml")


def test_hints_that_come_back_are_refused() -> None:
    text = GOOD.replace('hints = "none"', 'hints = "full"', 2).replace(
        'key = "l2"\ngoal = "goal.tap_value"\ngoal_params = { value = 8 }\nhints = "full"',
        'key = "l2"\ngoal = "goal.tap_value"\ngoal_params = { value = 8 }\nhints = "none"')
    with pytest.raises(LessonError, match=r"level 3 'l3', hints: hints come back"):
        parse_stage(text, "99-demo.toml")


def test_a_directory_of_stages_checks_names_and_keys(tmp_path: Path) -> None:
    (tmp_path / "01-demo.toml").write_text(GOOD, encoding="utf-8")
    assert [s.key for s in read_stages(tmp_path)] == ["demo"]
    (tmp_path / "02-other.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(LessonError, match=r"02-other.toml: key: is 'demo'"):
        read_stages(tmp_path)
    (tmp_path / "02-other.toml").unlink()
    (tmp_path / "stage.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(LessonError, match="named NN-key.toml"):
        read_stages(tmp_path)


def test_the_shipped_files_are_the_ones_loaded() -> None:
    names = sorted(p.name for p in LESSONS_DIR.glob("*.toml"))
    assert names == [f"{s.order:02d}-{s.key}.toml" for s in STAGES]


def test_no_english_in_the_data() -> None:
    """Only keys and card notation: no sentence can hide in a lesson file."""
    for stage in STAGES:
        for key in stage.text_keys():
            assert " " not in key and key == key.lower()


# -- the runner -------------------------------------------------------------------------------


def test_stars_follow_lichess() -> None:
    assert [stars_for(p, 1) for p in (1, 2, 3, 9)] == [3, 2, 1, 1]
    assert [stars_for(p, 8) for p in (6, 8, 10, 11)] == [3, 3, 2, 1]
    assert stars_for(0, 0) == 3 and stars_for(1, 0) == 2 and stars_for(2, 0) == 1


def _runner_at(stage: str, level: str, **kwargs) -> LessonRunner:
    runner = LessonRunner(STAGES, **{"auto_advance": False, **kwargs})
    runner.start(stage, level)
    return runner


def test_a_wrong_sum_is_explained_by_the_engine_and_costs_a_star() -> None:
    runner = _runner_at("one_card", "seven")
    view = runner.view()
    assert view.action == "tap_card" and view.goal == Message(
        "goal.tap_with", {"sum": 15, "card": Card.parse("7o")})
    wrong = runner.tap(Card.parse("2b"))
    assert not wrong.ok and wrong.feedback == Message(
        "fb.wrong_sum_more", {"expr": "2 + 7", "total": 9, "sum": 15, "more": 6})
    assert say(wrong.feedback, "en") == "2 + 7 = 9: you need 6 more to make 15."
    assert say(wrong.feedback, "es").startswith("2 + 7 = 9")
    assert runner.view().plays == 1 and runner.view().feedback == wrong.feedback
    # A refused try leaves the board on its position (the picked hand card stays, as in
    # Play) and counts a refusal: the board clears its picked table cards on it.
    assert runner.view().position == view.position and runner.view().refusals == 1
    right = runner.tap(Card.parse("8c"))
    assert right.ok and right.result.stars == 2 and right.result.plays == 2


def test_the_next_level_starts_by_advancing_and_the_stage_ends_with_its_card() -> None:
    runner = _runner_at("values", "sota")
    assert runner.tap(Card.parse("8c")).result.stars == 3
    assert runner.view().status == "level_done"
    assert runner.tap(Card.parse("8c")).counted is False  # a finished level takes nothing
    view = runner.advance()
    assert (view.level_index, view.status, view.plays) == (2, "playing", 0)
    stage = runner.stage
    runner.start("values", stage.levels[-1].key)
    for step in stage.levels[-1].steps:
        assert runner.answer(step.expect.args["card"].value).ok
    done = runner.advance()
    assert done.status == "stage_done" and done.next_stage == "one_card"
    assert [r.level for r in done.stage_results] == ["sota", stage.levels[-1].key]
    assert runner.advance().stage == "one_card"


def test_a_level_done_goes_on_by_itself() -> None:
    runner = LessonRunner(STAGES)  # auto_advance: the page draws the next level at once
    runner.start("escoba", "which")
    done = runner.play(Card.parse("5o"), [Card.parse(c) for c in ("2o", "3c", "5e")])
    assert done.ok and done.result.level == "which" and done.events[0].escoba
    assert done.feedback == Message("fb.escoba")
    view = runner.view()
    assert (view.level, view.status, view.plays) == ("count", "playing", 0)
    runner.start("escoba", "check")
    runner.play(Card.parse("10o"), (Card.parse("2e"), Card.parse("3b")))
    last = runner.play(Card.parse("9b"), (Card.parse("6c"),))
    assert last.result.stars == 3 and runner.view().status == "stage_done"
    assert runner.view().next_stage == "sweep_risk"


def test_hints_fade_from_the_whole_answer_to_nothing() -> None:
    runner = LessonRunner(STAGES, auto_advance=False)
    glows = {}
    for level in ("rey", "play_seven", "caballo", "sota"):
        view = runner.start("one_card", level)
        glows[view.hints] = view.glow
    assert glows["full"] == (Card.parse("7o"), Card.parse("8c"))
    assert glows["some"] and len(glows["some"]) == 1
    assert glows["none"] == ()


def test_a_sweep_left_open_is_shown_then_the_level_starts_again() -> None:
    runner = _runner_at("sweep_risk", "lay_safe")
    start = runner.view()
    risky = next(c for c in start.hand if c != Card.parse("7b"))
    wrong = runner.play(risky)
    assert not wrong.ok and wrong.feedback.key == "fb.leaves_sweep"
    assert wrong.consequence is not None and wrong.consequence.key == "fb.then_escoba"
    assert wrong.events[0].card == risky and wrong.events[-1].escoba
    assert runner.view().status == "consequence" and runner.view().table == ()
    assert runner.play(Card.parse("7b")).counted is False  # waits for retry
    again = runner.retry()
    assert again.status == "playing" and again.table == start.table and again.plays == 1
    done = runner.play(Card.parse("7b"))
    assert done.ok and done.result.stars == 2
    assert runner.restart().plays == 0


def test_renuncio_is_called_and_a_false_call_is_refused_by_the_engine() -> None:
    runner = _runner_at("renuncio", "spot")
    view = runner.start("renuncio", "spot")
    assert view.renuncio_rule and view.events and view.events[0].seat == 1
    played = runner.play(view.hand[0])
    assert not played.ok and played.feedback == Message("fb.renuncio_first", {"sum": 15})
    claim = runner.claim_renuncio()
    assert claim.ok and claim.events[0].kind == "renuncio"
    nothing = _runner_at("renuncio", "no_miss").claim_renuncio()
    assert not nothing.ok and nothing.feedback == Message("fb.renuncio_nothing", {"sum": 15})
    assert nothing.counted  # the button is there: a call is a try
    elsewhere = _runner_at("one_card", "seven").claim_renuncio()
    assert elsewhere.feedback.key == "fb.renuncio_not_allowed" and not elsewhere.counted


def test_an_answer_says_more_or_less() -> None:
    runner = _runner_at("counting", "oros")
    right = runner.expected_answer()
    less, more = runner.answer(right + 2), runner.answer(right - 1)
    assert less.feedback == Message("fb.answer_less", {"sum": 15, "given": right + 2})
    assert more.feedback == Message("fb.answer_more", {"sum": 15, "given": right - 1})
    assert say(more.feedback, "de") == f"Nicht {right - 1}: Es ist mehr. Zähl noch mal!"
    assert runner.answer(right).ok


def test_the_view_shows_counts_of_the_opponents_hand_only() -> None:
    view = _runner_at("one_card", "seven").view()
    assert view.opponent_counts == (3,) and len(view.hand) == 3
    assert view.observation.seat == 0 and view.game is None
    assert not hasattr(view, "opponent_hand")


def test_capture_sum_ten_stage_says_ten() -> None:
    runner = LessonRunner(STAGES, auto_advance=False)
    view = runner.start("ten")
    assert view.capture_sum == 10 and view.goal.params["sum"] == 10
    assert "10" in say(view.goal, "en")


def test_every_feedback_key_reads_in_every_language() -> None:
    for key in FEEDBACK_KEYS:
        english = ENGLISH.text(key, 2)
        assert english is not None, key
        params = {name: Card.parse("7o") if name in ("card", "best_card") else
                  (Card.parse("8c"),) if name in ("cards", "best_cards") else 3
                  for name in placeholders(english) | {"count"}}
        for lang in LANGUAGES:
            assert "{" not in say(Message(key, params), lang)


def test_cards_are_named_in_the_childs_deck() -> None:
    from escoba import Deck

    goal = _runner_at("values", "sota").view().goal
    assert say(goal, "en") == "Your turn: tap the Sota. It is worth 8."
    assert say(goal, "en", Deck.FRENCH) == "Your turn: tap the J. It is worth 8."
    assert say(goal, "de", Deck.ITALIAN) == (
        "Du bist dran: Tippe auf den Fante. Diese Karte ist 8 wert.")
    # German names the Spanish cards in its own words, with the article's case (issue 33)
    assert say(goal, "de") == "Du bist dran: Tippe auf den Knappen. Diese Karte ist 8 wert."
    assert say(goal, "zh") == "轮到你了：点一下侍从。它是8点。"
    assert say(goal, "it") == "Ora tu: tocca il Fante. Vale 8."  # the Italian deck's words
    intro = _runner_at("values", "sota").view().stage_intro
    assert say(intro, "es", Deck.FRENCH) == (
        "Cada carta vale su número: la J vale 8, la Q 9 y el K 10.")
    assert say(intro, "de") == (
        "Jede Karte zählt so viel wie ihre Zahl: der Knappe 8, das Pferd 9 und der König 10.")
    assert say(intro, "it") == (
        "Ogni carta vale il suo numero: il Fante vale 8, il Cavallo 9 e il Re 10.")
    wrong = _runner_at("values", "sota").tap(Card.parse("3e"))
    assert say(wrong.feedback, "en", Deck.FRENCH) == (
        "That is the 3 of spades: it is worth 3. Find the card worth 8.")


# -- the map and storage ------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    if request.param == "sqlite":
        eng = sa.create_engine(f"sqlite:///{tmp_path / 'lessons.db'}")
        configure_sqlite(eng)
    else:
        eng = sa.create_engine(request.getfixturevalue("postgres_url"))
    yield eng
    eng.dispose()


def test_the_best_is_never_lowered_and_survives_a_restart(engine: sa.Engine) -> None:
    store = Storage(engine)
    ana, leo = store.create_profile("Ana", "🦊"), store.create_profile("Leo", "🐼")
    first = store.record_lesson(ana.id, "escoba", "two", 2, 4)
    assert (first.stars, first.plays) == (2, 4)
    worse = store.record_lesson(ana.id, "escoba", "two", 1, 9)
    assert (worse.stars, worse.plays) == (2, 4) and worse.updated_at >= first.updated_at
    better = store.record_lesson(ana.id, "escoba", "two", 3, 6)
    assert (better.stars, better.plays, better.created_at) == (3, 4, first.created_at)
    assert store.record_lesson(ana.id, "escoba", "two", 2, 2).plays == 2
    store.record_lesson(leo.id, "escoba", "two", 1, 7)
    again = Storage(engine)  # the app restarted on the same database
    results = again.lesson_results(ana.id)
    assert list(results) == [("escoba", "two")]
    assert (results[("escoba", "two")].stars, results[("escoba", "two")].plays) == (3, 2)
    assert again.lesson_results(leo.id)[("escoba", "two")].stars == 1
    with pytest.raises(ValueError):
        store.record_lesson(ana.id, "escoba", "two", 0, 1)
    assert again.profile_data(ana.id).lessons == 1
    version = again.progress_version(ana.id)
    again.record_lesson(ana.id, "escoba", "one", 3, 1)
    assert again.progress_version(ana.id) != version
    again.delete_profile(ana.id)
    assert again.lesson_results(ana.id) == {}
    assert again.lesson_results(leo.id)


def test_a_level_done_is_saved_at_once_and_the_map_sums_it(engine: sa.Engine) -> None:
    store = Storage(engine)
    mia = store.create_profile("Mia", "🐸")
    runner = _runner_at("values", "sota", storage=store, profile_id=mia.id)
    runner.tap(Card.parse("3e"))
    done = runner.tap(Card.parse("8c"))
    assert (done.result.stars, done.result.best_stars, done.result.best_plays) == (2, 2, 2)
    assert store.lesson_results(mia.id)[("values", "sota")].stars == 2  # already written
    runner.restart()
    assert runner.tap(Card.parse("8c")).result.best_stars == 3
    runner.start("values", "caballo")
    runner.tap(Card.parse("9o"))
    summaries = stage_summaries(store.lesson_results(mia.id), STAGES)
    values = summaries["values"]
    assert (values.done, values.total, values.stars, values.state) == (
        2, len(STAGES[0].levels), 6, "started")
    assert summaries["one_card"].state == "new"
    assert next_lesson(store.lesson_results(mia.id), STAGES) == ("values",
                                                                STAGES[0].levels[2].key)
    assert next_lesson({}, STAGES) == ("values", "sota")
    first_six = {(s.key, k): object() for s in STAGES[:6] for k in s.level_keys}
    assert suggest_lessons({}, STAGES) and suggest_lessons(dict(list(first_six.items())[1:]),
                                                           STAGES)
    assert not suggest_lessons(first_six, STAGES)


def test_the_tries_of_an_unfinished_level_are_kept_until_it_is_finished(
        engine: sa.Engine) -> None:
    """The go a teacher sees when a pupil is stuck: every counted try, across restarts
    and a new runner (another day, another tab), gone the moment the level is done."""
    store = Storage(engine)
    mia, leo = store.create_profile("Mia", "🐸"), store.create_profile("Leo", "🐼")
    runner = _runner_at("values", "check", storage=store, profile_id=mia.id)
    assert runner.tap(Card.parse("1o")).counted is False  # not a try: nothing kept
    assert store.lesson_goes(mia.id) == {}
    right = runner.expected_answer()
    assert not runner.answer(right + 1).ok
    assert runner.answer(right).ok  # step 1 of 3: a right try, the level goes on
    go = store.lesson_goes(mia.id)[("values", "check")]
    assert (go.tries, go.wrong) == (2, 1) and go.started_at <= go.updated_at
    runner.restart()  # plays back to 0 for the stars; the go goes on
    runner.answer(runner.expected_answer() + 2)
    later = LessonRunner(STAGES, storage=store, profile_id=mia.id, auto_advance=False)
    later.start("values", "check")
    later.answer(later.expected_answer() + 3)
    go = store.lesson_goes(mia.id)[("values", "check")]
    assert (go.tries, go.wrong) == (4, 3) and store.profile_data(mia.id).lesson_goes == 1
    assert store.lesson_goes(leo.id) == {}
    for _ in range(3):
        outcome = later.answer(later.expected_answer())
    assert outcome.done and store.lesson_goes(mia.id) == {}  # finished: the go is over
    assert store.lesson_results(mia.id)[("values", "check")].plays == 4
    later.restart()
    later.answer(later.expected_answer() + 1)  # a new go at a level done before
    assert (store.lesson_goes(mia.id)[("values", "check")].tries,
            store.lesson_goes(mia.id)[("values", "check")].wrong) == (1, 1)
    # A consequence (a legal but wrong move answered by the computer) is a wrong try too.
    move = _runner_at("one_card", "check", storage=store, profile_id=leo.id)
    wrong_move = next(m for m in move.round.legal_moves() if not move.step.kind.expects(m))
    move.play(wrong_move.card, wrong_move.take)
    assert store.lesson_goes(leo.id)[("one_card", "check")].wrong == 1
    store.delete_profile(mia.id)
    assert store.lesson_goes(mia.id) == {}


def test_a_result_of_a_level_that_no_longer_exists_is_not_counted() -> None:
    class Best:
        stars = 3

    summaries = stage_summaries({("values", "gone"): Best(), ("values", "sota"): Best()}, STAGES)
    assert (summaries["values"].done, summaries["values"].stars) == (1, 3)


# -- issue 24: positions, words, the first game -------------------------------------------


def _task_and_position(level: Level) -> tuple[tuple, tuple]:
    """A level's kind of task (its first step's action and question, the sum made) and its
    starting position as a child sees it: the values in the hand, on the table, in the
    piles (suits aside: a 9 de copas for a 9 de oros is the same exercise)."""
    round_ = level.start_round()
    step = level.steps[0]
    kind = step.kind
    asked = (kind.question, tuple(sorted(kind.args.items()))) if isinstance(kind, Answer) \
        else ()
    task = (step.action, asked, level.rules.capture_sum)
    position = (tuple(sorted(c.value for c in round_.hand(0))),
                tuple(sorted(c.value for c in round_.table)),
                tuple(tuple(sorted(c.value for c in round_.pile(s))) for s in (0, 1)))
    return task, position


def test_no_level_repeats_an_earlier_levels_position_for_the_same_task() -> None:
    """A check level is a new position, not a copy of level 1; counting levels that ask
    different questions of one pile may share it (their tasks differ)."""
    seen: dict[tuple, str] = {}
    for stage, level in LEVELS:
        if level.is_game:
            continue
        key = _task_and_position(level)
        where = f"{stage.key} {level.index} {level.key}"
        assert key not in seen, f"{where} repeats {seen[key]}"
        seen[key] = where
    # The comparison sees a copy with other suits (the issue's stage 4 level 5).
    lay, lay_alone = STAGES[3].levels[0], STAGES[3].levels[4]
    assert _task_and_position(lay)[0] == _task_and_position(lay_alone)[0]


def _goal_texts(level: Level) -> list[str]:
    runner = LessonRunner(STAGES, auto_advance=False)
    runner.start(next(s.key for s, lv in LEVELS if lv is level), level.key)
    return [say(runner.view().goal, "en")]


def test_every_word_of_the_game_is_explained_at_its_first_use() -> None:
    """A Spanish word of the game (GLOSSARY) first used in a goal or a stage's intro is
    named in that level's ``words`` (the page explains it there, with its picture); none
    is used before, each is explained once, and each has its text in every language."""
    explained: set[str] = set()
    for stage, level in LEVELS:
        texts = _goal_texts(level)
        if level.index == 1:
            texts.append(say(Message(stage.intro, stage.intro_params), "en"))
        assert not set(level.words) & explained, (stage.key, level.key)
        explained |= set(level.words)
        for word in GLOSSARY:
            used = any(re.search(rf"\b{word}\b", text, re.IGNORECASE) for text in texts)
            assert not used or word in explained, f"{word} used in {stage.key} {level.key} " \
                                                  f"before it is explained"
    assert explained == set(GLOSSARY)
    for lang in LANGUAGES:
        for word in GLOSSARY:
            assert say(Message(f"word.{word}"), lang) != f"word.{word}"


def test_the_first_games_hints_fade_and_the_coach_goes_quiet() -> None:
    runner = _runner_at("first_game", "game")
    steps, comments = [], []
    for _ in range(12):
        view = runner.view()
        if view.status == "round_over":
            runner.next_round()
            continue
        steps.append(view.game_hint_step)
        assert bool(view.glow) == (view.game_hint_step == 2)
        move = view.observation.legal_moves()[0]
        comments.append(runner.play(move.card, move.take).comment)
    lit, nudge = LessonRunner.GAME_LIT_MOVES, LessonRunner.GAME_NUDGE_MOVES
    assert steps == [2] * lit + [1] * (nudge - lit) + [0] * (12 - nudge)
    assert all(c is None for c in comments[nudge:])  # the child plays alone
    # Asked for, the coach's move lights again for this turn only.
    view = runner.ask_hint()
    assert view.game_hint_step == 2 and view.glow
    move = view.observation.legal_moves()[0]
    runner.play(move.card, move.take)
    assert runner.view().game_hint_step == 0 or runner.view().status != "playing"


def test_the_first_game_is_saved_as_a_game_and_the_path_then_offers_play(
        tmp_path: Path) -> None:
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'game.db'}")
    configure_sqlite(eng)
    store = Storage(eng)
    mia = store.create_profile("Mia", "🦊")
    runner = LessonRunner(STAGES, storage=store, profile_id=mia.id)
    view = runner.start("first_game", "game")
    assert view.then == "play"  # after the first real game: Play, not stage 12
    # Its computer player is named as Play's one is (and the lesson's board), in each
    # language it is drawn in.
    try:
        for lang, name in (("en", "Computer 1"), ("es", t("bot_name", "es", n=1))):
            use_language(lang)
            assert view.game.side_name(1) == name
    finally:
        use_language(None)
    assert runner.start("counting").then == "stage"
    view = runner.start("first_game", "game")
    for _ in range(400):
        if view.status == "stage_done":
            break
        if view.status == "round_over":
            view = runner.next_round()
            continue
        move = view.observation.legal_moves()[0]
        runner.play(move.card, move.take)
        view = runner.view()
    assert view.status == "stage_done" and view.game is not None and view.game.is_over
    rows = store.list_games(mia.id)
    finished = [r for r in rows if r.id == view.game.game_id]
    assert finished and finished[0].status == "finished"
    assert finished[0].options["lesson"] == "first_game/game"
    assert len(finished[0].record["rounds"]) == len(view.game.game.rounds)


def test_a_refused_try_keeps_the_board_and_counts_a_refusal() -> None:
    runner = _runner_at("two_three", 1)
    before = runner.view()
    hand_card = before.hand[0]
    wrong = next(Move(hand_card, frozenset({c})) for c in before.table
                 if runner.round.check(Move(hand_card, frozenset({c}))) is not None)
    assert not runner.play(wrong.card, wrong.take).ok
    after = runner.view()
    assert after.position == before.position and after.refusals == 1
    right = _right_actions(runner)[0][1]
    assert runner.play(right.card, right.take).ok
    assert runner.view().refusals == 0


def test_each_step_kind_is_one_type_that_reads_judges_and_lights() -> None:
    """The step kinds are a tagged union of the schema: each step's kind is the type its
    ``action`` names, and the type itself judges a try through the engine and says what
    to light, with no runner around it."""
    for _stage, level in LEVELS:
        for step in level.steps:
            assert type(step.kind) is KINDS[step.action] and step.expect is step.kind
    level = STAGES[1].level("seven")  # "tap a table card that makes 15 with your 7 de oros"
    round_, kind = level.start_round(), level.steps[0].kind
    assert isinstance(kind, TapCard) and kind.with_card == Card.parse("7o")
    refused = kind.judge(round_, Card.parse("2b"))
    assert not refused.right and refused.refusal.code == "wrong_sum"
    assert kind.judge(round_, Card.parse("8c")).right
    assert kind.lit(round_, "full") == (Card.parse("8c"),)  # not the hand's 7: no answer
    assert kind.lit(round_, "none") == ()
    how_many = STAGES[3].level("how_many")
    round_, kind = how_many.start_round(), how_many.steps[0].kind
    assert isinstance(kind, Answer) and kind.answer(round_) == 2
    assert set(kind.lit(round_, "some")) == {Card.parse("7o"), Card.parse("6c")}
    wrong = kind.judge(round_, 1, lit=True)
    assert (wrong.right, wrong.key, wrong.look) == (False, "fb.answer_more",
                                                    "fb.look_capturing_lit")
    counting = STAGES[7].level("oros_point")
    assert counting.steps[0].kind.shows(counting.start_round()).piles == (0, 1)


def test_a_pile_question_folds_away_the_groups_it_does_not_count() -> None:
    # "Count your oros": the oros open; the sevens, the other cards and the escobas folded
    # under one line (on a phone the answers stay in view). "How many cards": all open.
    runner = LessonRunner()
    oros = runner.start("counting", 1).piles_shown[0]
    assert oros.counted == ("oros",) and oros.oros and oros.others
    assert not oros.is_counted("others") and not oros.is_counted("escobas")
    stage = next(s for s in load_stages() if s.key == "counting")
    cards_level = next(n for n, level in enumerate(stage.levels, 1)
                       if level.steps[0].expect.args.get("category") == "cards")
    every = runner.start("counting", cards_level).piles_shown[0]
    assert every.counted == () and all(every.is_counted(g) for g in ("oros", "others"))


# -- issue 28: Scopa's two stages ------------------------------------------------------------

ITALIAN_CARDS = Deck.ITALIAN


def _named_in_every_language(message: Message, *cards: Card) -> None:
    """``message`` names each of ``cards`` as the child's language names Scopa's deck."""
    from trainer.i18n import card_name

    for lang in LANGUAGES:
        text = say(message, lang, ITALIAN_CARDS)
        for card in cards:
            assert str(card_name(card, ITALIAN_CARDS, lang)) in text, (lang, text)


def test_the_scopa_stages_follow_the_path_under_scopas_rules() -> None:
    scopa = [s for s in STAGES if s.key in ("scopa_same", "scopa_sum")]
    assert [s.order for s in scopa] == [13, 14]
    for stage in scopa:
        assert {lv.rules.variant for lv in stage.levels} == {"scopa"}
        assert deck_for_game(Deck.SPANISH, stage.rules) is Deck.ITALIAN
        assert deck_for_game(Deck.FRENCH, stage.rules) is Deck.FRENCH  # a family's choice
        view = LessonRunner(STAGES, auto_advance=False).start(stage.key)
        # No sum to make under Scopa: no text may say 15.
        assert "sum" not in view.goal.params
    assert deck_for_game(Deck.SPANISH, STAGES[0].rules) is Deck.SPANISH


def test_a_sum_tapped_while_an_equal_card_lies_there_is_refused_and_the_card_named() -> None:
    runner = _runner_at("scopa_same", "tap")  # the 7 di denari; 3 + 4 and a 7 on the table
    refused = runner.round.check(Move(Card.parse("7o"), frozenset({Card.parse("3e")})))
    assert refused.code == "must_take_equal" and refused.params["equal"] == ["7c"]
    wrong = runner.tap(Card.parse("3e"))
    assert not wrong.ok and wrong.counted
    # The app's own Scopa wording (messages catalog), not a second copy in the lessons.
    assert wrong.feedback == Message("must_take_equal", {"value": 7}, "messages")
    assert say(wrong.feedback, "en") == \
        "Take the 7: a card of the same value must be taken first."
    assert wrong.comment == Message("fb.look_equal",
                                    {"cards": (Card.parse("7c"),), "value": 7})
    _named_in_every_language(wrong.comment, Card.parse("7c"))
    assert say(wrong.comment, "it", ITALIAN_CARDS) == \
        "Guarda sul tavolo: il 7 di coppe, dello stesso valore (7)."
    # Playing the sum is refused the same way (the play level: 5 with 2 + 3 and a 5).
    play = _runner_at("scopa_same", "play")
    sum_move = play.play(Card.parse("5c"), (Card.parse("2o"), Card.parse("3b")))
    assert sum_move.feedback.key == "must_take_equal"
    _named_in_every_language(sum_move.comment, Card.parse("5e"))
    assert play.tap(Card.parse("5e")).counted is False  # not this step's action


def test_two_equal_cards_either_is_right_and_a_sum_names_both() -> None:
    fours = (Card.parse("4o"), Card.parse("4b"))
    for four in fours:
        runner = _runner_at("scopa_same", "two_equal")
        done = runner.play(Card.parse("4e"), (four,))
        assert done.ok and done.result.stars == 3, four
    runner = _runner_at("scopa_same", "two_equal")
    wrong = runner.play(Card.parse("4e"), (Card.parse("1c"), Card.parse("3o")))
    assert wrong.feedback.key == "must_take_equal"
    _named_in_every_language(wrong.comment, *fours)
    # Both at once is no capture either: one card of the same value is taken, not two.
    both = runner.play(Card.parse("4e"), fours)
    assert not both.ok and both.feedback.key == "must_take_one_equal"  # "only one!"
    # Laying the four down is refused too: it can capture (Scopa's forced capture), said in
    # the app's words with no "15" in them.
    laid = runner.play(Card.parse("4e"))
    assert laid.feedback.key == "must_capture" and laid.feedback.domain == "messages"
    assert "15" not in say(laid.feedback, "en")


def test_a_scopa_wrong_sum_says_the_cards_value_is_the_target() -> None:
    runner = _runner_at("scopa_sum", "seven")
    wrong = runner.play(Card.parse("7c"), (Card.parse("3o"),))
    assert wrong.feedback == Message("wrong_sum_scopa", {"expr": "3", "total": 3, "need": 7},
                                     "messages")
    assert say(wrong.feedback, "en") == "7 is the target: 3 makes 3."
    assert say(wrong.feedback, "it") == "L'obiettivo è 7: 3 fa 3."
    other = runner.play(Card.parse("10b"), (Card.parse("1c"), Card.parse("9b")))
    assert not other.ok and other.feedback.key == "fb.play_named"
    done = runner.play(Card.parse("7c"), (Card.parse("3o"), Card.parse("4e")))
    assert done.ok and done.result.plays == 3 and done.result.stars == 1


def test_a_scopa_is_praised_in_scopas_words_with_its_own_sum() -> None:
    from trainer.praise import praise_for

    runner = _runner_at("scopa_sum", "scopa")
    swept = runner.play(Card.parse("8o"), (Card.parse("3e"), Card.parse("5c")))
    assert swept.ok and swept.events[0].escoba and swept.feedback == Message("fb.scopa")
    praise = praise_for(swept.events, 0, rules=runner.level.rules)
    assert (praise.key, praise.params) == ("praise.scopa", {"expr": "3 + 5", "total": 8})
    assert say(Message(praise.key, praise.params), "en") == "Scopa! 3 + 5 = 8!"


@pytest.mark.parametrize("stage", ["scopa_same", "scopa_sum"])
def test_each_scopa_check_level_finishes_with_three_stars_and_ends_the_stage(stage: str) -> None:
    runner = _runner_at(stage, "check")
    outcome = None
    for step in runner.level.steps:
        move = step.expect.moves[0]
        outcome = runner.play(move.card, move.take)
        assert outcome.ok
    assert outcome.result.stars == 3 and outcome.result.plays == 2
    assert runner.advance().status == "stage_done"


def test_a_scopa_deal_whose_opening_table_would_be_dealt_again_is_refused() -> None:
    text = (LESSONS_DIR / "13-scopa_same.toml").read_text(encoding="utf-8")
    three_re = text.replace('table = ["7c", "3e", "4b", "9o"]',
                            'table = ["10o", "10e", "10b", "9o"]')
    three_re = three_re.replace('"7o", "10c", "2b"', '"7o", "3e", "2b"', 1)
    assert three_re != text
    with pytest.raises(LessonError) as refused:
        parse_stage(three_re, "13-scopa_same.toml")
    assert refused.value.where == "level 1 'tap', deal.table"
    assert "scopa's rules this opening table means redeal" in refused.value.message


def test_under_scopa_a_question_is_asked_in_scopas_arithmetic_or_refused() -> None:
    """How many hand cards can capture: where to look is said in Scopa's arithmetic (no
    "make 15"); a count of sevens, which Scopa does not score, cannot be asked."""
    question = Answer("capturing_cards")
    assert question.look(False, "escoba") == "fb.look_capturing"
    assert question.look(True, "scopa") == "fb.look_capturing_scopa_lit"
    for key in ("fb.look_capturing_scopa", "fb.look_capturing_scopa_lit"):
        assert "15" not in say(Message(key), "en") and "{" not in say(Message(key), "zh")
    sevens = GOOD.replace('intro = "demo.intro"',
                          'intro = "demo.intro"\nrules = { preset = "scopa" }')
    sevens = sevens.replace(
        'action = "tap_card"\nexpect = { value = 8 }\n\n[levels.deal]',
        'action = "answer"\nexpect = { question = "count", category = "sevens", seat = 0 }'
        '\n\n[levels.deal]', 1)
    assert "sevens" in sevens
    with pytest.raises(LessonError) as refused:
        parse_stage(sevens, "99-demo.toml")
    assert refused.value.where == "level 1 'one', expect.category"
    assert "sevens is not scored under these rules (scopa" in refused.value.message
    # The same question under Escoba's rules reads (sevens are scored there).
    assert parse_stage(sevens.replace('rules = { preset = "scopa" }\n', ""), "99-demo.toml")


@pytest.mark.parametrize("lang", ["en", "es", "de", "it"])
def test_a_scopa_stage_never_calls_the_sweep_an_escoba(lang: str) -> None:
    """Every goal and feedback a Scopa stage's file names says its game's word for the
    sweep (a Spanish child read "puedes hacer escoba" in a Scopa level). Its intro may
    name Escoba: it says Scopa is Escoba's cousin."""
    scopa = [s for s in load_stages() if s.rules.variant == "scopa"]
    assert len(scopa) == 2
    for stage in scopa:
        text = Path(stage.source).read_text(encoding="utf-8")
        keys = set(re.findall(r'"([a-z_]+\.[a-z0-9_.]+)"', text)) - {stage.intro}
        for key in keys:
            said = t(key, lang, domain="lessons")
            assert "escoba" not in said.casefold(), (stage.key, key, said)


def test_every_stage_has_a_picture_of_its_own() -> None:
    """The map tells stages apart by their picture too: no two stages share one (stage 14,
    Scopa's sum, once reused stage 2's ➕)."""
    pictures = [stage.picture for stage in STAGES]
    assert len(set(pictures)) == len(pictures), pictures


def test_each_level_explains_words_of_its_own_games_glossary() -> None:
    """A stage's glossary lists its own game's words (glossary_of its rules): every word a
    level explains is one of them, and the two games share no word."""
    assert set(GLOSSARY) == set(GLOSSARIES["escoba"]) | set(GLOSSARIES["scopa"])
    assert not set(GLOSSARIES["escoba"]) & set(GLOSSARIES["scopa"])
    for stage, level in LEVELS:
        assert set(level.words) <= set(glossary_of(level.rules)), (stage.key, level.key)
    scopa = next(s for s in STAGES if s.rules.variant == "scopa")
    assert glossary_of(scopa.rules) == GLOSSARIES["scopa"]
    assert glossary_of(STAGES[0].rules) == GLOSSARIES["escoba"]


@pytest.mark.parametrize(
    "stage", [STAGES[0], next(s for s in STAGES if s.rules.variant == "scopa")],
    ids=lambda s: s.key)
def test_a_stage_opens_at_its_first_level_not_done_or_at_level_one_once_done(
        stage: Stage) -> None:
    """The map's Open goes on where the child stopped, in an Escoba stage as in a Scopa
    one; a stage not begun or done opens at level 1 (done: to play it again)."""
    keys = stage.level_keys
    assert opening_level(stage, {}) == keys[0]
    assert opening_level(stage, {(stage.key, keys[0]): 3}) == keys[1]
    # A level skipped (a teacher's link) is the first not done, before later ones.
    assert opening_level(stage, {(stage.key, keys[0]): 3, (stage.key, keys[2]): 2}) == keys[1]
    assert opening_level(stage, {("other", keys[0]): 3}) == keys[0]
    assert opening_level(stage, {(stage.key, k): 1 for k in keys}) == keys[0]
