"""The Lessons page with AppTest: stages 1, 2 and 6 walked end to end, a wrong try and
its feedback, the stars kept and the map after a reload (a new session); a Scopa stage
in Italian, in Scopa's deck.

AppTest runs no JavaScript, so it plays through the board's fallback choosers (the
same runner, the same engine); tests/test_browser.py taps the real board.
"""

from __future__ import annotations

import base64
import re

import streamlit as st
from streamlit.testing.v1 import AppTest

from escoba import Card, Move
from lessons import GLOSSARIES, load_stages
from tests.test_app_helpers import (
    assert_ok,
    board_data,
    component_data,
    create_profile,
    new_app,
)
from tests.test_lessons import _candidates, _right_actions
from trainer.lessons import LessonRunner

PAGE = "app_pages/lessons.py"


def _runner(at: AppTest) -> LessonRunner:
    return at.session_state["lesson_runner"]


def _do(at: AppTest, action: str, what: object) -> None:
    """One action, through the page's widgets as a child without the board would."""
    if action == "tap":
        at.pills(key="lesson_tap").set_value(str(what)).run()
    elif action == "play":
        assert isinstance(what, Move)
        at.pills(key="lesson_hand").set_value(str(what.card)).run()
        if what.take:
            at.pills(key="lesson_table").set_value([str(c) for c in what.take]).run()
        at.button(key="lesson_play").click().run()
    elif action == "answer":
        at.button(key=f"lesson_answer_{what}").click().run()
    else:
        at.button(key="lesson_renuncio").click().run()
    assert_ok(at)


def _messages(at: AppTest) -> str:
    return " ".join(e.value for e in (*at.error, *at.info, *at.success, *at.warning))


def _walk(at: AppTest, stage: str) -> None:
    """Open ``stage`` on the map and play it to its completion card: on its first level,
    a wrong try first (it must be answered, and it costs a play)."""
    at.button(key=f"lesson_open_{stage}").click().run()
    assert_ok(at)
    runner = _runner(at)
    wrong_done = False
    for _ in range(80):
        view = runner.view()
        if view.status == "stage_done":
            break
        assert view.stage == stage
        if view.status == "consequence":
            assert any(w.value for w in at.warning)  # what the computer did with it
            at.button(key="lesson_retry").click().run()
            continue
        if view.status == "round_over":
            at.button(key="lesson_next_round").click().run()
            continue
        data = board_data(at, "lesson_board")
        if view.hand or view.table or view.events:
            assert data is not None and data["intro"]  # the goal is said above the cards
        else:  # a question about a finished round: no board, the goal in large type
            assert data is None and any(m.value.startswith("### ") for m in at.markdown)
        right = _right_actions(runner)
        if not wrong_done and view.action in ("tap_card", "play"):
            kind = "tap" if view.action == "tap_card" else "play"
            wrong = next(c for c in _candidates(runner) if c[0] == kind and c not in right)
            plays, level = view.plays, view.level
            _do(at, *wrong)
            after = runner.view()
            assert after.level == level and after.plays == plays + 1
            assert _messages(at), "a wrong try must be answered"
            wrong_done = True
            continue
        _do(at, *right[0])
        done = [m.value for m in at.success if "Level done!" in m.value]
        # A level before the last promises the next one (the last goes to its card).
        assert all("On to the next one" in m and "last level" not in m for m in done), done
    # The last level's stars promise no next level: its completion card comes.
    said = dict(at.session_state["lesson_said"])
    assert said["stars"].key == "ui.last_level_done", said
    assert runner.view().status == "stage_done", stage
    assert any("Stage done" in h.value for h in at.subheader)
    assert wrong_done


def test_stages_1_2_and_6_walked_with_a_wrong_try_and_the_map_after_a_reload(
        fresh_app) -> None:
    at = create_profile(new_app(), "Nico")
    at.switch_page(PAGE).run()
    assert_ok(at)
    assert at.button(key="lesson_next").label == "New to Escoba? Start here!"
    for stage in ("values", "one_card", "escoba"):
        if stage != "values":
            at.button(key="lesson_map_button").click().run()
        _walk(at, stage)
    store = _runner(at).storage
    profile_id = int(at.session_state["profile_id"])
    kept = store.lesson_results(profile_id)
    assert {s for s, _level in kept} == {"values", "one_card", "escoba"}
    assert all(1 <= best.stars <= 3 for best in kept.values())

    # A reload is a new session: the stars come from the database.
    st.cache_resource.clear()
    again = new_app(query={"p": str(profile_id)})
    again.switch_page(PAGE).run()
    assert_ok(again)
    shown = " ".join(m.value for m in again.markdown) + " ".join(c.value for c in again.caption)
    pictures = " ".join(h.proto.body for h in again.get("html"))
    for stage, total in (("values", 7), ("one_card", 7), ("escoba", 6)):
        stars = sum(b.stars for (s, _l), b in kept.items() if s == stage)
        # Stars as stars (three for the stage), their count for a screen reader.
        assert f'aria-label="Stars: {stars} of {3 * total}"' in pictures
    assert shown.count("✅ Done") == 3
    # The suggestion moves on to the first stage not done (the third, two and three).
    assert again.button(key="lesson_next").label.startswith("Next lesson")


def test_a_new_child_is_offered_the_lessons_and_progress_shows_their_stars(fresh_app) -> None:
    at = create_profile(new_app(), "Lia")
    links = [link.label for link in at.get("page_link")]
    assert "New to Escoba? Start here!" in links  # first, before "Go and play"
    assert links.index("New to Escoba? Start here!") < len(links) - 1
    at.switch_page("app_pages/play.py").run()
    assert any("The lessons teach" in i.value for i in at.info)  # suggested, not locked
    assert at.button(key="start_game")
    at.switch_page(PAGE).run()
    _walk(at, "values")
    at.switch_page("app_pages/progress.py").run()
    assert_ok(at)
    at.segmented_control(key="pr_view").set_value("lessons").run()
    assert_ok(at)
    stars = sum(b.stars for (s, _l), b in _runner(at).storage.lesson_results(
        int(at.session_state["profile_id"])).items())
    reading = " ".join(m.value for m in at.markdown)
    assert f"levels done: 7 · stars: {stars}" in reading
    table = at.table[0].value
    assert table.iloc[0].tolist()[1:] == ["7\u00a0/\u00a07", f"⭐\u00a0{stars}\u00a0/\u00a021"]
    assert table.iloc[0].tolist()[0].startswith("1 · ")  # not "1." (a Markdown list)


def test_after_the_first_game_the_map_offers_play_not_stage_twelve(fresh_app) -> None:
    at = create_profile(new_app(), "Tom")
    at.switch_page(PAGE).run()
    store = _runner(at).storage
    profile_id = int(at.session_state["profile_id"])
    for stage in load_stages()[:11]:  # every stage up to the first game, done
        for level in stage.levels:
            store.record_lesson(profile_id, stage.key, level.key, 3, 1)
    at.switch_page(PAGE).run()
    assert_ok(at)
    links = [link.label for link in at.get("page_link")]
    assert "Go and play" in links and "Play a friend" in links
    assert not [b for b in at.button if b.key == "lesson_next"]  # not "Next lesson: Make 10"
    assert at.button(key="lesson_open_ten")  # stage 12 is still open on the map


def test_a_scopa_stage_opens_in_the_italian_deck_and_its_refusal_names_the_equal_card(
        fresh_app) -> None:
    """Stage 13 (issue 28) in Italian: the map shows both Scopa stages; the level's board
    draws and names Scopa's own cards (7 di denari, not 7 de oros), adds up to the card
    picked (Play's sum rule for Scopa), and a sum tapped while an equal card lies on the
    table is refused in the app's Scopa words, the equal card named."""
    at = create_profile(new_app("it-IT"), "Gio")
    at.switch_page(PAGE).run()
    assert_ok(at)
    assert at.button(key="lesson_open_scopa_same") and at.button(key="lesson_open_scopa_sum")
    at.button(key="lesson_open_scopa_same").click().run()
    assert_ok(at)
    view = _runner(at).view()
    assert (view.stage, view.level) == ("scopa_same", "tap")
    data = board_data(at, "lesson_board")
    assert data is not None and data["sum_rule"] == "card"
    assert "7 di denari" in data["intro"] and "oros" not in data["intro"]
    shown = " ".join(str(p.options) for p in at.pills)
    assert "7 di coppe" in shown and "Fante" not in shown  # the fallback's Italian names
    new_words = " ".join(h.proto.body for h in at.get("html"))
    assert 'data-word="scopa"' in new_words and 'data-word="denari"' in new_words
    heard = component_data(at, "escoba_speaker", "lesson_new_words_speaker")["text"]
    heading = "Una parola nuova" if len(view.words) == 1 else f"{len(view.words)} parole nuove"
    assert heard.startswith(f"{heading}. ") and "denari" in heard.lower(), heard
    _do(at, "tap", Card.parse("3e"))  # 3 + 4 make 7, but the 7 di coppe comes first
    said = _messages(at)
    assert "Prendi la carta che vale 7" in said and "7 di coppe" in said, said
    assert _runner(at).view().plays == 1
    _do(at, "tap", Card.parse("7c"))  # the right card: on to level 2 (no board to play out)
    assert (_runner(at).view().level, _runner(at).view().plays) == ("play", 0)
    assert any("Bravo" in s.value or "Ben fatto" in s.value for s in at.success)


def test_a_scopa_level_names_scopas_cards_in_english_too_and_escobas_stay_spanish(
        fresh_app) -> None:
    """The deck follows the level's rules as Play's follows the game's: an English child
    reads "7 di denari" in a Scopa stage and "de oros" again back in an Escoba one."""
    at = create_profile(new_app(), "Max")
    at.switch_page(PAGE).run()
    at.button(key="lesson_open_scopa_same").click().run()
    assert_ok(at)
    assert "7 di denari" in board_data(at, "lesson_board")["intro"]
    at.button(key="lesson_map_button").click().run()
    at.button(key="lesson_open_one_card").click().run()
    assert_ok(at)
    intro = board_data(at, "lesson_board")["intro"]
    assert " de " in intro and " di " not in intro, intro


def test_the_map_heads_scopas_stages_as_another_game_with_pictures_of_their_own(
        fresh_app) -> None:
    """In Italian Escoba's stages already say "scopa" (the sweep): a heading before the
    first stage under Scopa's rules says the stages below are another game, once, after
    stage 12; stage 14 has its own picture."""
    at = create_profile(new_app("it-IT"), "Gio")
    at.switch_page(PAGE).run()
    assert_ok(at)
    texts = [m.value for m in at.markdown]
    heading = "#### Scopa, la cugina italiana"
    assert texts.count(heading) == 1
    stages = load_stages()
    first_scopa = next(n for n, s in enumerate(stages, 1) if s.rules.variant == "scopa")
    before = next(i for i, m in enumerate(texts) if m.startswith(f"**{first_scopa - 1}. "))
    after = next(i for i, m in enumerate(texts) if m.startswith(f"**{first_scopa}. "))
    assert before < texts.index(heading) < after
    pictures = " ".join(h.proto.body for h in at.get("html"))
    for stage in stages:
        assert pictures.count(f'aria-hidden="true">{stage.picture}</div>') == 1, stage.key


def _glossary(at: AppTest, label: str) -> tuple[list[str], str, list[str]]:
    """The "Words" popover (``label``) of the level on screen: its words in order, its text
    and the names of the cards it draws (each an SVG picture named for a screen reader)."""
    popover = next(p for p in at.get("popover") if p.proto.popover.label == label)
    body = " ".join(c.proto.body for c in popover.children.values())
    cards = [re.search(r'aria-label="([^"]+)"', base64.b64decode(svg).decode()).group(1)
             for svg in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", body)]
    return re.findall(r'data-word="([a-z]+)"', body), body, cards


def test_a_stages_glossary_lists_only_its_own_games_words_in_its_own_deck(fresh_app) -> None:
    """Inside a Scopa stage the "Parole" list Scopa's Italian words only (no Sota, oros or
    a second broom), their cards in Scopa's deck; inside an Escoba stage Escoba's words
    only, their cards in the deck its board is drawn in (the Spanish one in English)."""
    at = create_profile(new_app("it-IT"), "Gio")
    at.switch_page(PAGE).run()
    at.button(key="lesson_open_scopa_sum").click().run()
    assert_ok(at)
    words, body, cards = _glossary(at, "Parole")
    assert words == list(GLOSSARIES["scopa"])
    assert body.count("🧹") == 1
    assert "Asso di denari" in cards and "Fante di coppe" in cards, cards
    at.button(key="lesson_map_button").click().run()
    at.button(key="lesson_open_one_card").click().run()
    assert_ok(at)
    words, body, _cards = _glossary(at, "Parole")
    assert words == list(GLOSSARIES["escoba"]) and body.count("🧹") == 1

    english = create_profile(new_app(), "Max")
    english.switch_page(PAGE).run()
    english.button(key="lesson_open_one_card").click().run()
    assert_ok(english)
    words, body, cards = _glossary(english, "Words")
    assert words == list(GLOSSARIES["escoba"]) and body.count("🧹") == 1
    assert "Sota de copas" in cards and not [c for c in cards if "denari" in c], cards


def test_open_on_a_half_done_stage_goes_on_at_its_first_level_not_done(fresh_app) -> None:
    """The tryout: "Iniziata · Livelli: 1 / 5" on the map, and Apri opened level 1 again.
    Open now goes to the first level not done, in a Scopa stage as in an Escoba one; a
    stage done opens at level 1, to play it again."""
    at = create_profile(new_app("it-IT"), "Gio")
    at.switch_page(PAGE).run()
    store = _runner(at).storage
    profile_id = int(at.session_state["profile_id"])
    stages = {s.key: s for s in load_stages()}
    scopa, values, one_card = stages["scopa_same"], stages["values"], stages["one_card"]
    store.record_lesson(profile_id, scopa.key, scopa.level_keys[0], 3, 1)
    for key in values.level_keys[:2]:
        store.record_lesson(profile_id, values.key, key, 2, 2)
    for key in one_card.level_keys:
        store.record_lesson(profile_id, one_card.key, key, 3, 1)
    at.switch_page(PAGE).run()
    assert_ok(at)
    assert any(m.value.endswith(f"Iniziata · Livelli: 1 / {len(scopa.levels)}")
               for m in at.markdown)
    for stage, level in ((scopa, scopa.level_keys[1]), (values, values.level_keys[2]),
                         (one_card, one_card.level_keys[0])):
        at.button(key=f"lesson_open_{stage.key}").click().run()
        assert_ok(at)
        view = _runner(at).view()
        assert (view.stage, view.level, view.plays) == (stage.key, level, 0)
        counters = " ".join(h.proto.body for h in at.get("html") if "lesson-counters" in
                            h.proto.body)
        assert f'aria-label="Livello {view.level_index} di' in counters, stage.key
        at.button(key="lesson_map_button").click().run()

    # A done level is played again from the level's own list of levels.
    at.button(key=f"lesson_open_{scopa.key}").click().run()
    first = at.button(key=f"lesson_pick_{scopa.level_keys[0]}")
    assert first.label == f"Livello 1 di {len(scopa.levels)} ✅"
    assert at.button(key=f"lesson_pick_{scopa.level_keys[1]}").label.endswith(
        f"di {len(scopa.levels)}")
    first.click().run()
    assert_ok(at)
    view = _runner(at).view()
    assert (view.stage, view.level, view.plays) == (scopa.key, scopa.level_keys[0], 0)


def test_a_refresh_in_the_middle_of_a_level_comes_back_to_it(fresh_app) -> None:
    """The level on screen is in the page's address (?lesson=stage/level): a refresh (a
    new session with the same address) opens that level again, not the list of lessons;
    back on the list, the address names no level."""
    at = create_profile(new_app(), "Remi")
    at.switch_page(PAGE).run()
    at.button(key="lesson_open_values").click().run()
    assert_ok(at)
    assert at.query_params["lesson"] == "values/1"
    runner = _runner(at)
    _do(at, *_right_actions(runner)[0])  # level 1 done: on to level 2
    assert runner.view().level_index == 2 and at.query_params["lesson"] == "values/2"

    st.cache_resource.clear()
    again = new_app(query={"p": str(at.session_state["profile_id"]), "lesson": "values/2"})
    again.switch_page(PAGE).run()
    assert_ok(again)
    shown = _runner(again).view()
    assert (shown.stage, shown.level_index) == ("values", 2)
    assert not again.session_state["lesson_map"]
    again.button(key="lesson_map_button").click().run()
    assert "lesson" not in again.query_params
