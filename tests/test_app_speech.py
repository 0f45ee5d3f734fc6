"""Voice settings on the pages (issue 23): a profile's, a class's, and what the board is sent.

AppTest runs no JavaScript: these tests read the ``speech`` part of the board's data (what
voice.js would say and whether it may) and the Settings switches. The browser itself is
tested in ``tests/test_browser_speech.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from lessons import load_stages
from tests.test_app_classroom import (  # noqa: F401 (the fixtures: cheap hashes, a date)
    _class,
    _setup,
    click,
    media,
    sign_in_pupil,
    store,
)
from tests.test_app_helpers import assert_ok, board_data, component_data, create_profile, new_app
from trainer.i18n import t
from trainer.lessons import LessonRunner
from trainer.speech import speakable, spoken_message
from ui.practice_view import hint_text, result_speech
from ui.session import deck_of

pytestmark = pytest.mark.usefixtures("fresh_app")

LESSONS = "app_pages/lessons.py"
SETTINGS = "app_pages/settings.py"


def _open_first_level(at) -> dict:
    at.switch_page(LESSONS).run()
    if any(b.key == "lesson_next" for b in at.button):  # the map; else the level is open
        click(at, "lesson_next")
    assert_ok(at)
    data = board_data(at, "lesson_board")
    assert data is not None
    return data["speech"]


def test_a_new_profile_hears_its_goals_and_can_turn_them_off() -> None:
    at = create_profile(new_app(), "Noa")
    speech = _open_first_level(at)
    goal = spoken_message(LessonRunner().view().goal, "en")
    assert speech["auto"] is True and speech["sound"] is True
    assert speech["goal"] == goal and speech["lang"] == "en-GB"
    assert speech["goal_key"] and speech["feedback"] is None
    # Off in Settings: kept in the profile; the lesson no longer reads by itself.
    at.switch_page(SETTINGS).run()
    assert at.toggle(key="set_read_aloud").value is True
    at.toggle(key="set_read_aloud").set_value(False).run()
    assert_ok(at)
    profile = next(p for p in store().list_profiles() if p.nickname == "Noa")
    assert profile.settings["read_aloud"] is False
    speech = _open_first_level(at)
    assert speech["auto"] is False and speech["goal"] == goal  # its speaker button stays


def test_a_wrong_try_and_a_done_level_are_said_with_their_sound() -> None:
    at = create_profile(new_app(), "Iker")
    _open_first_level(at)
    runner = LessonRunner()
    view = runner.view()
    wrong = next(c for c in (*view.hand, *view.table) if not LessonRunner().tap(c).ok)
    fb = runner.tap(wrong).feedback
    at.pills(key="lesson_tap").set_value(str(wrong)).run()  # the fallback's tap (no JS here)
    assert_ok(at)
    speech = board_data(at, "lesson_board")["speech"]
    assert speech["cue"]["sound"] == "wrong"
    assert speech["feedback"] == spoken_message(fb, "en")
    first_cue = speech["cue"]["id"]
    at.run()  # a rerun with nothing new: the same cue, not another one
    assert board_data(at, "lesson_board")["speech"]["cue"]["id"] == first_cue


def test_a_class_is_quiet_unless_its_teacher_turns_the_voice_on() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Vega", "2A", "Lola", ["4821"])
    assert info.voice is False
    at = sign_in_pupil(new_app().switch_page("app_pages/my_class.py").run(), info.code,
                       ids["Lola"], "4821")
    speech = _open_first_level(at)
    assert speech["auto"] is False and speech["sound"] is False
    at.switch_page(SETTINGS).run()
    assert at.toggle(key="set_sound").value is False and at.toggle(key="set_sound").disabled
    # The teacher lets the class hear: the next sign-in reads goals aloud.
    assert room.update_class(info.id, voice=True).voice is True
    assert db.get_class(info.id).voice is True
    at = sign_in_pupil(new_app().switch_page("app_pages/my_class.py").run(), info.code,
                       ids["Lola"], "4821")
    speech = _open_first_level(at)
    assert speech["auto"] is True and speech["sound"] is True


def _a_puzzle_of_two_sets_or_more() -> tuple[AppTest, Any]:
    """A new child on Puzzles with a fifteens puzzle of two sets or more (a try that
    does not end it)."""
    from tests.test_app_practice import right_sets

    at = create_profile(new_app(), "Noa")
    at.switch_page("app_pages/puzzles.py").run()
    at.segmented_control(key="pz_mode").set_value("fifteens").run()
    at.segmented_control(key="pz_level").set_value(3).run()  # often two sets or more
    puzzle = at.session_state["pz_current"][1]
    for _ in range(12):
        if len(right_sets(puzzle)) >= 2:
            break
        at.button(key="pz_done").click().run()
        at.button(key="pz_next").click().run()
        puzzle = at.session_state["pz_current"][1]
    return at, puzzle


def test_a_puzzle_reads_its_goal_and_each_try_by_itself() -> None:
    """A child who reads slowly is alone with a puzzle: with "read aloud" on, its goal is
    read once when it shows and each set tried once after the tap, as in a lesson."""
    from tests.test_app_practice import right_sets, solve

    at, puzzle = _a_puzzle_of_two_sets_or_more()
    assert len(right_sets(puzzle)) >= 2
    speech = board_data(at, "pz_board")["speech"]
    assert speech["auto"] is True and speech["goal"]
    assert speech["goal_key"] == f"goal:pz:{puzzle.id}" and speech["feedback"] is None
    solve(at, "pz", puzzle, right_sets(puzzle)[:1])
    speech = board_data(at, "pz_board")["speech"]
    assert speech["feedback"] and speech["feedback"].startswith("Found")
    assert speech["feedback_key"] == f"said:pz:{puzzle.id}:1:0"
    assert speech["goal_key"] == f"goal:pz:{puzzle.id}"  # said once: voice.js keeps the key


def test_after_a_refresh_the_last_try_is_not_said_again_by_itself() -> None:
    """A refresh in the middle of a puzzle: the try the child made before it is not read
    by itself again (it was read: after the refresh it came before the goal at the next
    tap, as if that tap had been wrong; found trying Puzzles as a child), nor its sound
    played; the goal is read, the try's 🔊 still says it, and the next try is read."""
    from tests.test_app_practice import right_sets, solve

    at, puzzle = _a_puzzle_of_two_sets_or_more()
    solve(at, "pz", puzzle, right_sets(puzzle)[:1])
    said = board_data(at, "pz_board")["speech"]
    assert said["feedback"] and said["feedback"].startswith("Found")

    st.cache_resource.clear()
    again = new_app(query={"p": str(at.session_state["profile_id"])})
    again.switch_page("app_pages/puzzles.py").run()
    assert again.session_state["pz_current"][1].id == puzzle.id  # the same puzzle, kept
    speech = board_data(again, "pz_board")["speech"]
    assert speech["goal"] and speech["goal_key"] == f"goal:pz:{puzzle.id}"
    assert speech["feedback"] is None and speech["cue"] is None
    heard = component_data(again, "escoba_speaker", "pz_said_speaker")
    assert heard is not None and heard["text"] == said["feedback"]
    solve(again, "pz", puzzle, right_sets(puzzle)[1:2])
    speech = board_data(again, "pz_board")["speech"]
    assert speech["feedback"] and speech["feedback"] != said["feedback"]


def test_a_puzzle_reads_a_hint_asked_and_its_result_by_themselves() -> None:
    """Tapping 💡 said nothing and the result ("Well done!", the sets) was never read:
    with "read aloud" on, a hint is read once when asked and the result once when the
    puzzle is done; the result has its 🔊 too (found trying it as a child on a phone)."""
    from tests.test_app_practice import right_sets, solve

    at = create_profile(new_app(), "Noa")
    at.switch_page("app_pages/puzzles.py").run()
    at.segmented_control(key="pz_mode").set_value("fifteens").run()
    puzzle = at.session_state["pz_current"][1]
    assert puzzle.solutions  # a fifteens puzzle always has a set to find
    at.button(key="pz_hint").click().run()
    hint = at.session_state["pz_state"].hints_given[-1]
    speech = board_data(at, "pz_board")["speech"]
    assert speech["feedback_key"] == f"said:pz:{puzzle.id}:0:1"
    assert speech["feedback"] and speech["feedback"] == speakable(
        hint_text(puzzle, hint, deck_of()), deck=deck_of())
    solve(at, "pz", puzzle, right_sets(puzzle))
    speech = board_data(at, "pz_board")["speech"]
    assert speech["feedback_key"].endswith(":result")
    assert speech["cue"] == {"id": f"cue:{speech['feedback_key']}", "sound": "star"}
    result = at.session_state["pz_state"]
    assert speech["feedback"] == result_speech(result, deck_of())
    assert speech["feedback"].startswith(t("pz_solved", "en"))
    # the heading, then every set found, each a sentence, without the list's marks
    assert speech["feedback"].count(". ") + speech["feedback"].count("! ") \
        == len(result.result.found)
    assert "✅" not in speech["feedback"] and "!." not in speech["feedback"]
    heard = component_data(at, "escoba_speaker", f"result_speaker_{puzzle.id}")
    assert heard is not None and heard["text"] == speech["feedback"]


def test_whos_playing_says_its_question_the_names_and_how_to_start() -> None:
    """The first page of a shared tablet, on its 🔊 for a child who reads slowly: the
    question, the names to tap (a class's pupils are not among them: they are sent to
    My class), how a new player starts; in the browser's language."""
    at = new_app()
    said = component_data(at, "escoba_speaker", "who_speaker")["text"]
    assert said.startswith("Who's playing?") and "Tap your name" not in said
    assert said.endswith("New here? Write a nickname, pick a picture, then tap "
                         "“Create my profile”.")
    db = store()
    db.create_profile("Noa", "🦊")
    db.create_profile("Leo", "🐢")
    _class(db, "Ms Ruiz", "3B", "Mateo", ["4821"])
    at = new_app("es-ES")
    said = component_data(at, "escoba_speaker", "who_speaker")["text"]
    assert said.startswith("¿Quién juega? Toca tu nombre: Leo, Noa.")
    assert "Mateo" not in said and t("go_my_class", "es") in said
    assert said.endswith("toca «Crear mi perfil».")


def test_the_lessons_map_and_a_stages_intro_can_be_heard() -> None:
    """Found trying the lessons as a 7-year-old: the map and the stage's "what this
    lesson is about" had no 🔊. The map's says its way on; the intro's, the intro."""
    at = create_profile(new_app(), "Ema")
    at.switch_page(LESSONS).run()
    assert_ok(at)
    start = next(b.label for b in at.button if b.key == "lesson_next")
    assert component_data(at, "escoba_speaker", "lesson_map_speaker")["text"] == \
        speakable(start)
    click(at, "lesson_next")
    intro = LessonRunner().view().stage_intro
    heard = component_data(at, "escoba_speaker", "lesson_intro_speaker")
    assert heard["text"] == spoken_message(intro, "en") and heard["text"]


def test_whos_playing_leads_a_child_on_the_way_to_her_next_lesson() -> None:
    """Found trying it as a 7-year-old two lessons in: "Who's playing?" still said "New
    to Escoba? Start here!". It names her next lesson, as the lessons' map does."""
    at = create_profile(new_app(), "Vera")
    start = t("ui.start_here", "en", domain="lessons")
    assert start in [p.label for p in at.get("page_link")]
    profile = next(p for p in store().list_profiles() if p.nickname == "Vera")
    first, second = load_stages()[:2]
    for key in first.level_keys:
        store().record_lesson(profile.id, first.key, key, 3, 1)
    at.run()
    assert_ok(at)
    labels = [p.label for p in at.get("page_link")]
    title = t(second.title, "en", domain="lessons")
    assert t("ui.next_lesson", "en", domain="lessons", title=title) in labels, labels
    assert start not in labels


def test_plays_score_speaker_says_what_to_do_on_the_childs_turn() -> None:
    """Play's board has no goal line: its score's 🔊 read the round and the points only,
    and a child who reads slowly heard nothing of what to do (found trying Play as a
    7-year-old). On the child's turn it says the first step after the score; on another
    seat's turn only the score."""
    from tests.test_app_helpers import game, start_game

    at = start_game(create_profile(new_app(), "Noa"), ng_opponents=1)
    data = board_data(at)
    g = game(at)
    assert data["interactive"] and g.seats[g.to_move].is_human
    header = data["speech"]["header"]
    step = speakable(t("board_pick_card"))
    assert header.endswith(step), header
    assert header.startswith(speakable(data["header"]["round"]))
    data["interactive"] = False  # another seat's turn: the same board, not to be played
    from ui.speaker import board_speech

    del data["speech"]
    assert step not in board_speech(data)["speech"]["header"]
