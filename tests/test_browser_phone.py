"""My progress in German and a puzzle in Chinese on a 390 × 844 phone (issue 33), as a
parent and a child see them, with two weeks of answers in the database.

- My progress (with four finished games too): no text cut short; the games' count axes
  in whole numbers; every day label under a chart whole and clear of the
  legend (a legend placed 20 % below the axis covered the slanted labels' ends: "21. Nov."
  read "21. Nov"); the section choice that wraps onto three lines shows whole boxes.
- A puzzle in Chinese: no text cut short; the cards' faces name their ranks and suits in
  Chinese (国王, 金), never the Spanish "Rey" or the suit letter "o".

Screenshots: test-artifacts/35-phone-*.png (looked at: docs/I18N.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import unquote

import pytest
import sqlalchemy as sa
from PIL import Image

from tests.test_browser import (  # noqa: F401 (fixtures)
    _TRUNCATED_JS,
    _artifact,
    _context,
    _page_text,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_browser_speech import _STUB_JS
from tests.test_classroom import captures, fact_quick
from trainer.i18n import t
from trainer.storage import Storage

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = (390, 844)

# Each chart's day labels against its legend: [label text, label bottom, legend top].
_TICKS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap((plot) => {
  const legend = plot.querySelector('.legend');
  const top = legend ? legend.getBoundingClientRect().top : Infinity;
  return [...plot.querySelectorAll('.xtick text')].map(
    (label) => [label.textContent, label.getBoundingClientRect().bottom, top]);
})"""

# For each picked card: whether its ✓ stays clear of the rank's corner (the face's first
# 60 % of its width, its first quarter of its height: room for "Knappe" or "骑士").
_TICK_CLEAR_JS = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  return [...root.querySelectorAll('.eb-card[aria-pressed=true]')].map((card) => {
    const c = card.getBoundingClientRect();
    const t = card.querySelector('.eb-tick').getBoundingClientRect();
    const corner = {right: c.left + c.width * 0.6, bottom: c.top + c.height * 0.25};
    return t.left >= corner.right || t.top >= corner.bottom || t.bottom <= c.top;
  });
}"""

# The count axes' tick labels of the games' charts (all but the points per round, a mean).
_COUNT_TICKS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')]
  .filter((plot) => !/Punkte/.test(plot.querySelector('.gtitle')?.textContent || ''))
  .flatMap((plot) => [...plot.querySelectorAll('.ytick text')].map((t) => t.textContent))"""

# Every choice of a segmented control: its four border colours.
_BORDERS_JS = """() => [...document.querySelectorAll(
    'button[data-variant=segmented_control]')].map((b) => {
  const s = getComputedStyle(b);
  return [b.innerText, s.borderTopColor, s.borderRightColor, s.borderBottomColor,
          s.borderLeftColor];
})"""


def _seed(db, lang: str) -> int:
    """A profile with two weeks of quick facts and puzzles (some days without any)."""
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    profile = store.create_profile(f"Mia {lang}", "🦊", settings={"lang": lang})
    rng = random.Random(3)
    now = datetime.now(UTC)
    for back in (13, 12, 10, 9, 6, 3, 2, 1, 0):
        when = now - timedelta(days=back)
        for _ in range(12):
            fact = rng.choice(["15-5", "15-6", "15-7", "15-8", "15-9"])
            right = rng.random() < 0.6 + (13 - back) * 0.025
            store.record_attempt(profile.id, fact_quick(fact, right, rng.uniform(1.5, 7), when))
        for level in (1, 2):
            store.record_attempt(profile.id, captures(level, rng.random() < 0.7, when,
                                                      seed=f"s{back}{level}"))
    return profile.id


def _games(db, profile: int, count: int) -> None:
    """``count`` finished games against the computer, each with the coach's review."""
    from escoba import Rules
    from tests.test_storage import play_to_end
    from trainer.gameplay import GameSession, SeatSpec

    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    seats = [SeatSpec("human", "Mia"), SeatSpec("bot", "Bot", level="greedy")]
    for seed in range(count):
        session = GameSession.new(Rules.preset("classic", target=5), seats, 11 + seed,
                                  storage=store, profile_id=profile)
        play_to_end(session)
        store.save_review(session.game_id, [
            {"round": 1, "move_no": 3, "move": "7o", "best": "7o 8c", "lost": 1.0,
             "mistakes": [["missed_capture", {}]]}])


def _open_section(page, sections, index: int) -> None:
    """Tap a section of My progress and wait for its page: the tapped choice shown as
    chosen, then the rerun done (under load, an idle check alone could come before the
    rerun began and read the previous section's charts)."""
    sections.nth(index).click()
    page.wait_for_function(
        """(i) => { const b = document.querySelectorAll('.st-key-pr_view button')[i];
                    return !!b && b.getAttribute('aria-checked') === 'true'; }""",
        arg=index, timeout=30_000)
    _wait_idle(page)


def test_my_progress_in_german_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db = server
    profile = _seed(db, "de")
    _games(db, profile, 4)
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, PHONE)
        try:
            page.goto(f"{url}/progress?p={profile}")
            page.get_by_text(t("progress_title", "de")).first.wait_for()
            page.locator(".js-plotly-plot").first.wait_for()
            _wait_idle(page)
            page.screenshot(path=str(_artifact("35-phone-progress-de.png")), full_page=True)
            assert page.evaluate(_TRUNCATED_JS) == []
            sections = page.locator(".st-key-pr_view button")
            _open_section(page, sections, 1)  # practice: answers and time per day
            page.locator(".js-plotly-plot .legend").first.wait_for()
            page.screenshot(path=str(_artifact("35-phone-progress-de-practice.png")),
                            full_page=True)
            assert page.evaluate(_TRUNCATED_JS) == []
            ticks = page.evaluate(_TICKS_JS)
            days = [label for label, _, _ in ticks]
            assert len(days) >= 5, days
            assert [d for d in days if not re.fullmatch(r"\d{1,2}\. \w+\.?", d)] == [], days
            assert "21. Nov" not in days or "21. Nov." in days  # Babel's months keep their dot
            covered = [(label, bottom, top) for label, bottom, top in ticks if bottom > top]
            assert not covered, covered
            _open_section(page, sections, 3)  # games: wins, escobas, points, mistakes
            page.locator(".js-plotly-plot").nth(3).wait_for()
            page.screenshot(path=str(_artifact("35-phone-progress-de-games.png")),
                            full_page=True)
            assert page.evaluate(_TRUNCATED_JS) == []
            # counts in whole numbers (one mistake a game drew 0 0,2 … 1), means may be 0,5
            counts = page.evaluate(_COUNT_TICKS_JS)
            assert counts and all(re.fullmatch(r"\d+", tick) for tick in counts), counts
            # Every choice a whole box: no side of a box drawn transparent.
            for text, *colours in page.evaluate(_BORDERS_JS):
                assert "rgba(0, 0, 0, 0)" not in colours, (text, colours)
            assert not page.get_by_text("Traceback").count()
        finally:
            context.close()
            browser.close()


def test_a_chinese_puzzle_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db = server
    profile = _seed(db, "zh")
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, PHONE)
        try:
            page.goto(f"{url}/puzzles?p={profile}")
            page.get_by_text(t("puzzles_title", "zh")).first.wait_for()
            page.locator(".eb-card").first.wait_for()
            page.get_by_text(t("board_fallback_title", "zh")).wait_for(state="detached")
            _wait_idle(page)
            page.screenshot(path=str(_artifact("35-phone-puzzle-zh.png")), full_page=True)
            assert page.evaluate(_TRUNCATED_JS) == []
            # the board's faces are data: URLs of the SVG, percent-encoded
            shown = _page_text(page)
            shown += "".join(unquote(m) for m in re.findall(
                r"data:image/svg\+xml;charset=utf-8,([^\"'\s)]+)", shown))
            faces = re.findall(r'<svg[^>]*data-card="[^"]+".*?</svg>', shown, re.S)
            assert faces
            for face in faces:
                texts = re.findall(r">([^<>]+)</text>", face)
                rank, corner = texts[0], texts[1]
                assert rank in {"A", "2", "3", "4", "5", "6", "7", "侍从", "骑士", "国王"}, texts
                assert corner in {"金", "杯", "剑", "棍"}, texts
            # The puzzle's own card, picked: its ✓ leaves the card's rank readable.
            clear = page.evaluate(_TICK_CLEAR_JS)
            assert clear, "no picked card with its ✓"
            assert all(clear), "the ✓ covers the card's rank"
            page.screenshot(path=str(_artifact("35-phone-puzzle-zh-picked.png")),
                            full_page=True)
            assert not page.get_by_text("Traceback").count()
        finally:
            context.close()
            browser.close()


# Each number button of the quick-facts pad: its number, and whether it has the focus.
_PAD_JS = """() => [...document.querySelectorAll('.qf-pad .qf-n')].map((b) => [
  b.innerText, document.activeElement === b])"""


@contextlib.contextmanager
def _touch_phone(launch_args: dict) -> Iterator[Any]:
    """A page in a phone's browser, touched with a finger (closed afterwards)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser, context, page = _context(p, launch_args, PHONE, has_touch=True,
                                          is_mobile=True)
        try:
            yield page
        finally:
            context.close()
            browser.close()


def _new_child(db, nickname: str, avatar: str) -> int:
    """A new profile in the test server's database: its id."""
    return Storage(sa.create_engine(f"sqlite:///{db}")).create_profile(nickname, avatar).id


def test_quick_facts_open_in_sight_and_the_number_tapped_gives_no_hint(server, browser_type_launch_args) -> None:  # noqa: E501,F811
    """Found trying Quick facts as a child on a phone: the number just tapped kept its
    focus tint into the next question, where it read as a hint (or gave the answer away
    when a question came twice). After a tap every number looks the same."""
    url, db = server
    profile = _new_child(db, "Pip", "🐸")
    with _touch_phone(browser_type_launch_args) as page:
        page.goto(f"{url}/quick_facts?p={profile}")
        question = page.locator(".qf-root [data-testid=qf-question]")
        question.wait_for()
        _wait_idle(page)
        # The question and all ten numbers in sight as the page opens (the choices
        # are under the round: above it, 9 and 10 sat below a phone's screen).
        # The round is the page's own (its component: no Streamlit pad left behind).
        assert not page.locator(".st-key-qf_fallback").count()
        bottoms = page.evaluate("""() => [...document.querySelectorAll(
            '.qf-pad .qf-n')].map((b) => b.getBoundingClientRect().bottom)""")
        assert len(bottoms) == 10 and max(bottoms) <= PHONE[1], bottoms
        boxes = [page.locator(f".qf-n[data-n='{n}']").bounding_box() for n in (1, 10)]
        assert all(b is not None and b["width"] >= 44 and b["height"] >= 44 for b in boxes), boxes
        page.screenshot(path=str(_artifact("35-phone-quick-facts-opened.png")))
        asked = question.inner_text()
        page.locator(".qf-n[data-n='3']").tap()
        page.wait_for_function(
            "(asked) => document.querySelector('[data-testid=qf-question]')"
            "?.innerText !== asked", arg=asked)
        _wait_idle(page)
        pad = page.evaluate(_PAD_JS)
        assert [n for n, _ in pad] == [str(n) for n in range(1, 11)]
        assert [n for n, focused in pad if focused] in ([], ["3"])
        # As drawn: the tapped button's face beside an untapped one's, pixel by pixel
        # in a band left of the digit (inside the border and its rounded corners).
        faces = [Image.open(io.BytesIO(
            page.locator(f".qf-n[data-n='{n}']").screenshot())).convert("RGB")
            for n in (3, 4)]
        corners = [[face.getpixel((x, y)) for x in range(12, 20) for y in range(20, 36)]
                   for face in faces]
        assert corners[0] == corners[1], pad
        page.screenshot(path=str(_artifact("35-phone-quick-facts-after-a-tap.png")))


# The puzzle board's cards against its sticky action bar: [cards' bottom, bar's top].
_COVERED_JS = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  const cards = root.querySelector('.eb-main').getBoundingClientRect();
  const bar = root.querySelector('.eb-controls').getBoundingClientRect();
  return [cards.bottom, bar.top];
}"""


def _open_puzzle(page, url: str, profile: int) -> None:
    """Puzzles for ``profile``, its board drawn, looked at twice and scrolled."""
    page.goto(f"{url}/puzzles?p={profile}")
    page.locator(".eb-card").first.wait_for()
    _wait_idle(page)
    page.wait_for_timeout(900)  # the board's second look, and a smooth scroll


def _card_ids(page, group: str) -> list[str]:
    """The board's cards of ``group`` ("hand", "table"), as their codes ("7o")."""
    return page.evaluate("""(group) => [...document.querySelector(
        '[data-testid=stBidiComponentIsolated]').shadowRoot.querySelectorAll(
        `.eb-${group} .eb-card`)].map((c) => c.dataset.id)""", group)


def test_a_puzzle_opens_with_its_cards_in_sight(server, browser_type_launch_args) -> None:  # noqa: F811
    """Found trying Puzzles as a child on a phone: the page opened with the table's cards
    under the board's sticky action bar ("The table" and nothing under it). The board
    scrolls them out from under it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    url, db = server
    profile = _new_child(db, "Pia", "🐙")
    with _touch_phone(browser_type_launch_args) as page:
        _open_puzzle(page, url, profile)
        # The scroll is smooth and, on a loaded machine, late: a few seconds at most.
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"() => {{ const [c, b] = ({_COVERED_JS})(); "
                                   "return c <= b + 1; }", timeout=5000)
        cards_bottom, bar_top = page.evaluate(_COVERED_JS)
        page.screenshot(path=str(_artifact("35-phone-puzzle-opened.png")))
        assert cards_bottom <= bar_top + 1, (cards_bottom, bar_top)


def test_a_puzzles_hint_is_in_reach_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811
    """Found trying Puzzles as a child on a phone: the 💡 was under the board, below the
    first screen. It is in the board's bar beside "Add this set", in sight as the puzzle
    opens and whole; one tap and the hint is given (the cards it names glow)."""
    url, db = server
    profile = _new_child(db, "Hiu", "🦉")
    with _touch_phone(browser_type_launch_args) as page:
        _open_puzzle(page, url, profile)
        hint = page.locator(".eb-hint")
        assert hint.get_attribute("aria-label") == t("pz_hint", "en")
        box = hint.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], box
        assert box["height"] >= 44 and box["width"] >= 44, box
        play = page.locator(".eb-play").bounding_box()
        assert play and abs(play["y"] - box["y"]) < 2, (play, box)  # one row
        # Only one way to ask for it where the board works.
        assert page.get_by_role("button", name=t("pz_hint", "en")).count() == 1
        page.screenshot(path=str(_artifact("35-phone-puzzle-hint-in-bar.png")))
        hint.tap()
        page.locator(".eb-card.eb-lit").first.wait_for()
        _wait_idle(page)
        page.screenshot(path=str(_artifact("35-phone-puzzle-hint-given.png")))


def test_a_wrong_set_is_said_beside_the_puzzles_button_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811, E501
    """Found trying Puzzles as a child on a phone: after a wrong set its line ("7 + 5 =
    12, not 15. Try another set!") appeared under the board, out of sight. It is in the
    board's bar too, in sight, until her next tap."""
    url, db = server
    profile = _new_child(db, "Wen", "🐳")
    with _touch_phone(browser_type_launch_args) as page:
        _open_puzzle(page, url, profile)
        hand, table = _card_ids(page, "hand"), _card_ids(page, "table")
        value = lambda code: int(code[:-1])  # noqa: E731 ("7o": a 7)
        mine = hand[0]
        wrong = next(c for c in table if value(c) + value(mine) < 15)
        if len(hand) > 1:
            page.locator(f'.eb-card[data-id="{mine}"]').tap()
        page.locator(f'.eb-card[data-id="{wrong}"]').tap()
        page.locator(".eb-play").tap()
        said = page.locator(".eb-refused")
        said.wait_for()
        expr = f"{value(wrong)} + {value(mine)} = {value(wrong) + value(mine)}"
        assert expr in said.inner_text() or \
            f"{value(mine)} + {value(wrong)}" in said.inner_text(), said.inner_text()
        box = said.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], box
        page.screenshot(path=str(_artifact("35-phone-puzzle-wrong-in-bar.png")))
        page.locator(f'.eb-card[data-id="{wrong}"]').tap()  # her next try: it goes
        said.wait_for(state="hidden")


def test_a_lessons_next_question_comes_back_in_sight_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811, E501
    """Found trying lesson 1's last level ("How much is this card worth?") as a 7-year-old
    on a phone: scrolled down to the numbers, after a right answer she saw "Well done!"
    over the same numbers, the next question above the screen. It comes back as far as
    the numbers stay in sight under it (a small phone: 375 x 667, where both do not fit
    on one screen; on a 390 x 844 one they do)."""
    from playwright.sync_api import sync_playwright

    from trainer.lessons import LessonRunner

    url, db = server
    profile = _new_child(db, "Ola", "🦩")
    runner = LessonRunner()
    view = runner.start("values", "check")
    small = (375, 667)
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, small,
                                          has_touch=True, is_mobile=True)
        # Her phone has a voice (none: a line saying so pushes the numbers down).
        context.add_init_script(script=_STUB_JS % json.dumps(["en-GB"]))
        page.goto(f"{url}/lessons?p={profile}&lesson=values/{len(runner.stage.levels)}")
        intro = page.locator(".eb-intro")
        intro.wait_for()
        _wait_idle(page)
        asked = intro.inner_text()
        right = int(str(view.goal.params["rank"])[:-1])  # "9b": the Caballo, 9
        answer = page.locator(f".st-key-lesson_answer_{right} button")
        page.evaluate("""() => document.querySelector('[data-testid=stMain]')
            .scrollTo(0, 1e6)""")  # down to the numbers and under, as her thumb did
        page.wait_for_timeout(300)
        above = intro.bounding_box()
        assert above and above["y"] < 0, above  # the question out of sight, as she had it
        answer.tap()
        page.wait_for_function("(asked) => { const r = document.querySelector("
                               "'[data-testid=stBidiComponentIsolated]').shadowRoot"
                               ".querySelector('.eb-intro'); return r && r.innerText !== asked; }",
                               arg=asked)
        _wait_idle(page)
        page.wait_for_timeout(900)  # a smooth scroll
        box = intro.bounding_box()
        page.screenshot(path=str(_artifact("35-phone-lesson-next-question.png")))
        numbers = page.locator(".st-key-lesson_answers button").last.bounding_box()
        assert numbers and numbers["y"] + numbers["height"] <= small[1], numbers
        # As far as the numbers allow: the question in sight, or down to them.
        assert box and (box["y"] >= 0 or
                        numbers["y"] + numbers["height"] >= small[1] - 2), (box, numbers)
        assert box["y"] > above["y"] + 20, (above, box)  # it came back down
        context.close()
        browser.close()


def test_a_picture_tapped_again_stays_chosen(server, browser_type_launch_args) -> None:  # noqa: F811
    """Found trying it as a child: tapping the picture already chosen for a new profile
    unchose it on screen (the profile still got it), and she no longer knew which was
    hers. Tapped again, it stays chosen."""
    url, _db = server
    with _touch_phone(browser_type_launch_args) as page:
        page.goto(url)
        pills = page.locator(".st-key-new_avatar button")
        pills.first.wait_for()
        _wait_idle(page)
        chosen = page.locator(".st-key-new_avatar button[aria-checked=true]")
        assert chosen.count() == 1
        first = chosen.first.inner_text()
        chosen.first.tap()
        _wait_idle(page)
        page.wait_for_timeout(300)
        assert chosen.count() == 1 and chosen.first.inner_text() == first


# Every list to choose from on the page: [its box's height, its words' size in px].
_SELECTS_JS = """() => [...document.querySelectorAll('[data-testid=stSelectbox] [role=group]')]
  .map((g) => [g.getBoundingClientRect().height,
               parseFloat(getComputedStyle(g.querySelector('input')).fontSize)])"""


def test_plays_lists_are_a_fingers_size_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811
    """Found trying Play's new game as a child: its lists (the rules, the computer's
    level) were 38 px tall with 14 px words, and their choices 40 px: below a finger's
    44 px, and a phone's browser zooms in on a box whose words are under 16 px. And
    "Start the game!" was below the first screen."""
    url, db = server
    profile = _new_child(db, "Lis", "🐞")
    with _touch_phone(browser_type_launch_args) as page:
        page.goto(f"{url}/play?p={profile}")
        start = page.get_by_role("button", name=t("start_game", "en"))
        start.wait_for()
        _wait_idle(page)
        # "Start the game!" in sight as the form opens (it was 200 px below the first
        # screen), over the form that scrolls under it.
        box = start.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], box
        selects = page.evaluate(_SELECTS_JS)
        assert len(selects) >= 2, selects  # the rules, the computer's level
        assert all(height >= 44 and size >= 16 for height, size in selects), selects
        page.locator("[data-testid=stSelectbox] [role=group]").first.tap()
        page.get_by_role("option").first.wait_for()
        heights = page.evaluate("""() => [...document.querySelectorAll('[role=option]')]
          .map((o) => o.getBoundingClientRect().height)""")
        page.screenshot(path=str(_artifact("35-phone-play-list-open.png")))
        assert heights and min(heights) >= 44, heights
