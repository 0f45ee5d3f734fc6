"""Scopa on the real board, in Chromium (issue 28): asso piglia tutto, and a refusal said
aloud. The board's own script (``ui/board_assets``) is drawn from the data the server
makes for a real position (:func:`trainer.board_view.game_board`), without a Streamlit
server around it.

A child who picks the ace that takes the whole table is asked for every table card
("tap every card on the table"), never for table cards "that make 1", and the readout
says the ace takes the table once they are all picked. Found trying Scopa with the
option on a phone: the child was stuck.
"""

from __future__ import annotations

import json

import pytest

from escoba import Deck, Round, Rules
from tests.test_browser import browser_type_launch_args  # noqa: F401 (fixture)
from trainer.board_view import SeatView, game_board
from trainer.i18n import t, use_language
from ui.board_component import BOARD_SCRIPT, BOARD_STYLE

pytestmark = [pytest.mark.browser]

# The component's module (voice.js then board.js, as ui/board_component.py serves it),
# imported from a blob and called as Streamlit calls it; the actions it sends and the
# names of the state values it sets are kept. ``options``: ``shadow`` (a shadow root, as
# Streamlit's isolated styles give it), ``host`` "kept" (``window.__kept``, a node taken
# out of the document) or "new" (a node never in it); else ``#host``.
_MOUNT_JS = """async ([source, data, options]) => {
  options = options || {};
  if (!window.__board) {  // one module per page, as Streamlit loads it once
    const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
    window.__board = (await import(url)).default;
  }
  const board = window.__board;
  window.__actions = window.__actions || [];
  window.__said = [];
  const host = options.host === "kept" ? window.__kept
    : options.host === "new" ? document.createElement("div") : document.getElementById("host");
  board({data, parentElement: options.shadow ? host.attachShadow({mode: "open"}) : host,
         setTriggerValue: (name, value) => window.__actions.push([name, value]),
         setStateValue: (name) => window.__said.push(name)});
}"""


def _round(rules: Rules) -> Round:
    """Giulia to play, the ace of denari in hand; three cards on the table, none an ace."""
    return Round.from_position(rules, [["1o", "5b", "9c"], ["6e", "6b", "6c"]],
                               ["3b", "7e", "10b"], to_move=0)


def _board_data(lang: str) -> dict:
    round_ = _round(Rules.preset("scopa", asso_piglia_tutto=True))
    use_language(lang)
    try:
        return game_board(obs=round_.observation(0),
                          seats=[SeatView(0, "Giulia", True), SeatView(1, "CPU", False)],
                          game_id=1, rounds=1, history=round_.history, recent_from=0,
                          to_move=0, totals=(0, 0), side_names=("Giulia", "CPU"),
                          header=None, deck=Deck.ITALIAN, show_value=True,
                          interactive=True, show_hand=True, hints_on=False, hint_step=1,
                          odds_style="words")
    finally:
        use_language(None)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_ace_asks_for_every_table_card(browser_type_launch_args, lang: str) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    data = _board_data(lang)
    source = BOARD_SCRIPT
    css = BOARD_STYLE
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.set_content(f"<style>{css}</style><div id='host'></div>")
            page.evaluate(_MOUNT_JS, [source, json.loads(json.dumps(data))])
            readout = page.locator(".eb-readout")
            page.locator('.eb-card[data-id="1o"]').tap()
            assert readout.inner_text() == t("board_ace_pick", lang)
            assert "1" not in readout.inner_text()  # never "the cards that make 1"
            # Play is not "lay down" for the ace: laid, the engine refuses it anyway.
            assert page.locator(".eb-play").inner_text() == t("board_play", lang)
            for card in ("3b", "7e"):
                page.locator(f'.eb-card[data-id="{card}"]').tap()
                assert readout.inner_text() == t("board_ace_pick", lang)
            page.locator('.eb-card[data-id="10b"]').tap()
            assert readout.inner_text() == t("ace_takes_all", lang)
            assert "eb-ok" in (readout.get_attribute("class") or "")
            page.locator(".eb-play").tap()
            name, action = page.evaluate("window.__actions")[-1]
            assert name == "action" and action["card"] == "1o"
            assert sorted(action["take"]) == ["10b", "3b", "7e"]
            # Another card keeps Scopa's sum: the 5 di bastoni has no 5 to make here.
            page.locator('.eb-card[data-id="5b"]').tap()
            assert t("board_ace_pick", lang) not in readout.inner_text()
            assert not errors, errors
        finally:
            browser.close()


def test_a_refused_move_is_said_aloud_and_has_its_speaker(browser_type_launch_args) -> None:  # noqa: F811
    """Why a move was refused is read aloud by itself once (read-aloud on), in the child's
    language, and a 🔊 beside it says it again: the child who reads slowly hears it. The
    next tap takes the message, and its speaker, away."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser_speech import _STUB_JS
    from trainer.speech import speakable
    from ui.speaker import _texts

    data = _board_data("it")
    use_language("it")
    try:
        text = t("must_take_equal", value=5)
        data["speech"] = {"lang": "it-IT", "auto": True, "sound": True, "goal": None,
                          "goal_key": None, "feedback": None, "feedback_key": None,
                          "events": [], "header": None, "cue": None, "texts": _texts()}
        data["refused"] = {"id": 1, "text": text, "spoken": speakable(text, "it")}
        data["session"] = "s1"
    finally:
        use_language(None)
    source = BOARD_SCRIPT
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        context.add_init_script(script=_STUB_JS % json.dumps(["it-IT"]))
        page = context.new_page()
        try:
            page.set_content("<button id='play'>Gioca</button><div id='host'></div>")
            page.evaluate(_MOUNT_JS, [source, data])
            # Nothing is said before a tap on the page (browsers allow it only then): the
            # first tap says what waits.
            assert page.evaluate("window.__speech.spoken") == []
            page.locator("#play").tap()
            refusal = page.locator(".eb-refused")
            assert text in refusal.inner_text()
            spoken = [s["text"] for s in page.evaluate("window.__speech.spoken")]
            assert spoken.count(data["refused"]["spoken"]) == 1, spoken
            speaker = refusal.locator(".eb-speak")
            assert speaker.count() == 1
            speaker.tap()
            spoken = [s["text"] for s in page.evaluate("window.__speech.spoken")]
            assert spoken.count(data["refused"]["spoken"]) == 2, spoken
            # Drawn again with the same refusal (a rerun): not said by itself twice.
            page.evaluate(_MOUNT_JS, [source, data])
            spoken = [s["text"] for s in page.evaluate("window.__speech.spoken")]
            assert spoken.count(data["refused"]["spoken"]) == 2, spoken
            page.locator('.eb-card[data-id="5b"]').tap()
            assert refusal.is_hidden()
        finally:
            context.close()
            browser.close()


def test_a_refusal_on_a_small_phone_scrolls_the_cards_out_from_under_the_bar(
        browser_type_launch_args) -> None:  # noqa: F811
    """The action bar is sticky at the bottom of the screen; a refusal makes it taller,
    and on a small phone it covered the whole hand. The board then scrolls down to the
    bar's own place, so the cards show above it (found trying Scopa on a phone)."""
    from playwright.sync_api import sync_playwright

    data = _board_data("it")
    refused = {**data, "refused": {"id": 1, "text": t("ace_takes_all", "it")}}
    source = BOARD_SCRIPT
    css = BOARD_STYLE
    covered = """() => {
      const hand = document.querySelector('.eb-hand').getBoundingClientRect();
      const bar = document.querySelector('.eb-controls').getBoundingClientRect();
      return hand.bottom - bar.top;
    }"""
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        page = browser.new_page(viewport={"width": 390, "height": 600}, has_touch=True,
                                reduced_motion="reduce")
        try:
            # The page's own heading and messages above the board, the rest of it below.
            page.set_content(f"<style>{css}</style><div style='height: 250px'></div>"
                             "<div id='host'></div><div style='height: 1500px'></div>")
            page.evaluate(_MOUNT_JS, [source, data])
            # The sticky bar covers part of the hand, and no refusal moves the page.
            assert page.evaluate(covered) > 0 and page.evaluate("window.scrollY") == 0
            page.evaluate(_MOUNT_JS, [source, refused])
            assert page.locator(".eb-refused").is_visible()
            assert page.evaluate(covered) <= 1, page.evaluate(covered)
            assert page.locator('.eb-card[data-id="1o"]').is_visible()
            # The same refusal drawn again (a rerun) leaves the child's scrolling alone.
            page.evaluate("window.scrollTo(0, 0)")
            page.evaluate(_MOUNT_JS, [source, refused])
            assert page.evaluate("window.scrollY") == 0
            # A lesson says its refusal above the board and counts it (``refusals``).
            page.evaluate(_MOUNT_JS, [source, {**data, "refusals": 1}])
            assert page.evaluate(covered) <= 1, page.evaluate(covered)
        finally:
            browser.close()


def test_a_scopa_puzzles_sum_beside_an_equal_card_gets_no_tick(
        browser_type_launch_args) -> None:  # noqa: F811
    """A Scopa puzzle with a 7 on the table: 3 + 4 makes 7, but the 7 must be taken, so
    the readout shows the sum without ✓ (it once ticked what the checker then refused);
    the 7 alone gets its ✓."""
    from playwright.sync_api import sync_playwright

    from escoba import Card
    from puzzles.kinds import from_cards
    from trainer.board_view import puzzle_board

    puzzle = from_cards("scopa", [Card.parse(c) for c in ("3b", "4e", "7c", "9o")],
                        [Card.parse("7o")])
    data = puzzle_board(puzzle, sets_given=0, deck=Deck.ITALIAN, show_value=True,
                        intro="", hand_title="", add_label="Add", play_label="Play")
    assert data["equal_first"] is True
    source = BOARD_SCRIPT
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        try:
            page.set_content("<div id='host'></div>")
            page.evaluate(_MOUNT_JS, [source, data])
            readout = page.locator(".eb-readout")
            # Nothing taken yet: what to do, never "= 0 ... 7 more to make 7".
            assert readout.inner_text() == t("board_pick_table", need=7)
            page.locator('.eb-card[data-id="3b"]').tap()
            page.locator('.eb-card[data-id="4e"]').tap()
            assert readout.inner_text().startswith("3 + 4") and "✓" not in readout.inner_text()
            assert "eb-ok" not in (readout.get_attribute("class") or "")
            page.locator('.eb-card[data-id="3b"]').tap()
            page.locator('.eb-card[data-id="4e"]').tap()
            page.locator('.eb-card[data-id="7c"]').tap()
            assert readout.inner_text().endswith("✓"), readout.inner_text()
        finally:
            browser.close()


def test_a_card_with_an_equal_on_the_table_asks_for_that_card(
        browser_type_launch_args) -> None:  # noqa: F811
    """Play under Scopa: the 6 picked with a 6 on the table asks for "the table card worth
    6", never "table cards that make 6", the sum the engine has just refused."""
    from playwright.sync_api import sync_playwright

    round_ = Round.from_position(Rules.preset("scopa"), [["6o", "4o", "9e"],
                                                         ["2b", "6b", "6c"]],
                                 ["6e", "1b", "3c", "10b"], to_move=0)
    use_language("it")
    try:
        data = game_board(obs=round_.observation(0),
                          seats=[SeatView(0, "Giulia", True), SeatView(1, "CPU", False)],
                          game_id=1, rounds=1, history=(), recent_from=0, to_move=0,
                          totals=(0, 0), side_names=("Giulia", "CPU"), header=None,
                          deck=Deck.ITALIAN, show_value=True, interactive=True,
                          show_hand=True, hints_on=False, hint_step=1, odds_style="words")
    finally:
        use_language(None)
    source = BOARD_SCRIPT
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        try:
            page.set_content("<div id='host'></div>")
            page.evaluate(_MOUNT_JS, [source, data])
            readout = page.locator(".eb-readout")
            page.locator('.eb-card[data-id="6o"]').tap()
            assert readout.inner_text() == t("board_pick_equal", "it", need=6)
            page.locator('.eb-card[data-id="4o"]').tap()  # no 4 on the table: 1 + 3 makes it
            assert readout.inner_text() == t("board_pick_table", "it", need=4)
        finally:
            browser.close()
