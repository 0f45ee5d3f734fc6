"""The class plays together in the real browser (issue 29): the projector on a 1920 × 1080
screen, Lola on a phone (390 × 844), Teo on a tablet (1024 × 768) and, in the first test,
Mia on a second phone.

The pupils sign in on My class and their pictures come on the projector by themselves; the
teacher starts a "find all the 15s" round; each tablet shows it within a couple of seconds;
Lola taps every right set on the board, Teo a wrong one and "Done", Mia one right set and
"Done"; the projector's count goes to 3 by itself; the reveal draws the right sets with
their sums and how many found each, and the wrong sum Teo and Mia both gave with its
arithmetic and "2 said", but not the one Teo alone gave (in a small class it would say
who), with no child's name anywhere on it.

A second test runs the other kinds through the same screens: "what would you play?"
(Lola plays the coach's best move on the board, Teo another), "where is the sweep risk?"
(each taps a hand card) and a quick-facts round (number buttons), each revealed with
its bars or counts, and no wrong answer only one of the two gave.

Screenshots: test-artifacts/29-live-*.png.
"""

from __future__ import annotations

import itertools

import pytest
import sqlalchemy as sa

from escoba import Deck
from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _open_part,
    _steady_box,
    _tap,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from trainer.classroom import Classroom, TeacherAuth
from trainer.live import LiveRound
from trainer.storage import Storage, configure_sqlite
from trainer.words import card_text, coach_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "seven oros on the table"
PINS = {"Lola": "4821", "Teo": "7395", "Mia": "5160", "Noa": "2468"}


def _seed(db_path, teacher: str = "Ms Robles",
          names: tuple[str, ...] = ("Lola", "Teo")) -> tuple[int, str, dict[str, int]]:
    """A teacher's class of ``names`` (two pupils unless more are asked), their PINs
    from :data:`PINS`."""
    engine = sa.create_engine(f"sqlite:///{db_path}")
    configure_sqlite(engine)
    store = Storage(engine)
    session = TeacherAuth(store).create_account(teacher, PASSWORD, command_line=True)
    pins = iter(PINS[name] for name in names)
    room = Classroom(store, session, pin_maker=lambda: next(pins))
    info = room.create_class("4A")
    added = room.add_pupils(info.id, "\n".join(names))
    engine.dispose()
    return info.id, info.code, {p.nickname: p.profile_id for p in added.added}


def _round(db_path, class_id: int) -> LiveRound:
    engine = sa.create_engine(f"sqlite:///{db_path}")
    row = Storage(engine, migrate=False).live_round(class_id)
    engine.dispose()
    assert row is not None
    return LiveRound.of(row)


def _button(page, key: str, text: str | None = None):
    locator = page.locator(f".st-key-{key} button")
    return locator.filter(has_text=text) if text else locator


def _main(page) -> str:
    return page.locator("[data-testid=stMain]").inner_text()


def _devices(p, launch_args, phones: int = 1):
    """The projector (1920 × 1080), Lola's phone (390 × 844) and Teo's tablet (1024 × 768),
    then ``phones - 1`` more phones, each page's errors collected."""
    browser, screen_context, screen = _context(p, launch_args, (1920, 1080))
    phone_context = browser.new_context(viewport={"width": 390, "height": 844},
                                        locale="en-US", device_scale_factor=1,
                                        is_mobile=True, has_touch=True)
    tablet_context = browser.new_context(viewport={"width": 1024, "height": 768},
                                         locale="en-US", device_scale_factor=1)
    more = [browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                device_scale_factor=1, is_mobile=True, has_touch=True)
            for _ in range(phones - 1)]
    pages = (screen, phone_context.new_page(), tablet_context.new_page(),
             *(context.new_page() for context in more))
    errors: list[str] = []
    for page in pages:
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
    return browser, (phone_context, tablet_context, *more, screen_context), pages, errors


def _pupil_signs_in(page, url: str, code: str, name: str, profile_id: int) -> None:
    page.goto(f"{url}/my_class")
    page.locator(".st-key-mc_code input").wait_for()
    _wait_idle(page)
    page.locator(".st-key-mc_code input").fill(code)
    page.get_by_role("button", name="Find my class").click()
    _button(page, f"mc_pupil_{profile_id}").click()
    page.get_by_text("Type your PIN.").wait_for()
    _wait_idle(page)
    for digit in PINS[name]:
        _button(page, f"mc_d_{digit}").click()
        _wait_idle(page)
    page.get_by_text("Your tasks").wait_for()


def _teacher_opens(screen, url: str, class_id: int, part: str,
                   teacher: str = "Ms Robles") -> None:
    """The teacher signs in, opens the class and taps the part labelled ``part``."""
    screen.goto(f"{url}/teacher")
    screen.locator(".st-key-tc_name input").wait_for()
    _wait_idle(screen)
    screen.locator(".st-key-tc_name input").fill(teacher)
    screen.locator(".st-key-tc_password input").fill(PASSWORD)
    screen.locator("[data-testid=stFormSubmitButton] button").click()
    _button(screen, f"tc_open_{class_id}").click()
    _wait_idle(screen)  # the class drawn before a part is chosen (a tap mid-run is lost)
    _open_part(screen, part)


def _open_projector(screen, url: str, class_id: int, teacher: str = "Ms Robles") -> None:
    _teacher_opens(screen, url, class_id, "Projector", teacher)
    screen.get_by_text("No one is in yet").wait_for()
    _wait_idle(screen)


def _add(page, cards) -> None:
    for card in cards:
        _tap(page, card).click()
    page.locator(".eb-play").click()
    _wait_idle(page)


def test_a_live_round_on_the_projector_and_three_tablets(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db_path = server
    class_id, code, ids = _seed(db_path, names=("Lola", "Teo", "Mia"))
    with sync_playwright() as p:
        browser, contexts, (screen, lola, teo, mia), errors = _devices(
            p, browser_type_launch_args, phones=2)

        _open_projector(screen, url, class_id)

        _pupil_signs_in(lola, url, code, "Lola", ids["Lola"])
        _pupil_signs_in(teo, url, code, "Teo", ids["Teo"])
        _pupil_signs_in(mia, url, code, "Mia", ids["Mia"])
        # The projector's own refresh brings their pictures, without a tap.
        screen.get_by_text("3 pupils are in").wait_for(timeout=10_000)
        screen.locator(".st-key-tc_live_start button").click()
        screen.get_by_text("0 answers in").wait_for()
        _wait_idle(screen)
        live = _round(db_path, class_id)

        for page in (lola, teo, mia):  # each tablet's own look finds the round
            page.get_by_text("Class round: the same cards are on the big screen.").wait_for(
                timeout=10_000)
            page.locator(".eb-card").first.wait_for()
            _wait_idle(page)
        lola.screenshot(path=str(_artifact("29-live-phone-round.png")), full_page=True)
        for solution in live.puzzle.solutions:
            _add(lola, solution.take)
        lola.get_by_text("Your answer is in").wait_for()
        _wait_idle(lola)
        lola.screenshot(path=str(_artifact("29-live-phone-answered.png")), full_page=True)

        right = {frozenset(s.take) for s in live.puzzle.solutions}
        wrongs = [pair for pair in itertools.combinations(live.puzzle.table, 2)
                  if sum(c.value for c in pair) != 15 and frozenset(pair) not in right]
        wrong = wrongs[0]
        # A wrong set of other values, that only Teo gives.
        lone = next(pair for pair in wrongs
                    if sorted(c.value for c in pair) != sorted(c.value for c in wrong))
        _add(teo, wrong)
        _add(teo, lone)
        _button(teo, "mc_live_done").click()
        teo.get_by_text("Your answer is in").wait_for()
        _add(mia, wrong)  # Teo's wrong set too, then the first right set, then Done
        _add(mia, live.puzzle.solutions[0].take)
        if len(live.puzzle.solutions) > 1:  # (the only set found is an answer by itself)
            _button(mia, "mc_live_done").click()
        mia.get_by_text("Your answer is in").wait_for()

        screen.get_by_text("3 answers in").wait_for(timeout=10_000)
        _wait_idle(screen)
        screen.screenshot(path=str(_artifact("29-live-projector-answers.png")))
        screen.locator(".st-key-tc_live_reveal button").click()
        screen.locator("[data-testid=tc-live-wrong]").wait_for()
        _wait_idle(screen)
        screen.screenshot(path=str(_artifact("29-live-projector-reveal.png")), full_page=True)
        seen = _main(screen)
        values = " + ".join(str(v) for v in sorted(c.value for c in wrong))
        assert f"2 said {values} = {sum(c.value for c in wrong)}: " in seen
        # Only Teo gave this one: on the projector it would say who.
        alone = " + ".join(str(v) for v in sorted(c.value for c in lone))
        assert f"{alone} = {sum(c.value for c in lone)}" not in seen
        assert screen.locator("[data-testid=tc-live-wrong]").count() == 1
        assert screen.locator("[data-testid=tc-live-set]").count() == len(live.puzzle.solutions)
        # The reveal's cards are big enough for the back of the room, without a scroll.
        for card in screen.locator("[data-testid=tc-live-set] img").all():
            box = _steady_box(card)
            assert box is not None and 140 <= box["height"] <= 190, box
        close = _steady_box(screen.locator(".st-key-tc_live_close button"))
        assert close is not None and close["y"] + close["height"] <= 1080, close
        for name in PINS:  # never a child's name on the projector
            assert name not in seen, name
        # Lola found every set and Mia the first: it was found by two, the others by one.
        found = screen.locator("[data-testid=tc-live-set]").all_inner_texts()
        assert sum("found by 2" in text for text in found) == 1, found

        teo.get_by_text("Look at the board: your teacher is showing the answers.").wait_for(
            timeout=10_000)
        teo.screenshot(path=str(_artifact("29-live-tablet-revealed.png")), full_page=True)
        screen.locator(".st-key-tc_live_close button").click()
        lola.get_by_text("Your tasks").wait_for(timeout=10_000)

        assert not errors, errors
        for page in (screen, lola, teo, mia):
            assert not page.get_by_text("Traceback").count()
        for context in contexts:
            context.close()
        browser.close()


def _start_kind(screen, label: str) -> None:
    screen.locator(".st-key-tc_live_kind").click()
    screen.get_by_role("option", name=label).click()
    _wait_idle(screen)
    screen.locator(".st-key-tc_live_start button").click()
    screen.get_by_text("0 answers in").wait_for()
    _wait_idle(screen)


def _reveal(screen, name: str) -> str:
    screen.get_by_text("2 answers in").wait_for(timeout=10_000)
    _wait_idle(screen)
    screen.screenshot(path=str(_artifact(f"29-live-projector-{name}-answers.png")))
    screen.locator(".st-key-tc_live_reveal button").click()
    screen.locator("[data-testid=tc-live-all-right]").wait_for()
    _wait_idle(screen)
    screen.screenshot(path=str(_artifact(f"29-live-projector-{name}-reveal.png")),
                      full_page=True)
    seen = _main(screen)
    for pupil in PINS:  # never a child's name on the projector
        assert pupil not in seen, pupil
    return seen


def _close(screen, pupils) -> None:
    screen.locator(".st-key-tc_live_close button").click()
    for page in pupils:
        page.get_by_text("Your tasks").wait_for(timeout=10_000)
    _wait_idle(screen)


def test_a_position_round_and_a_quick_round_on_the_projector_and_two_tablets(
        server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db_path = server
    class_id, code, ids = _seed(db_path, "Mr Pardo")  # the server's database is shared
    with sync_playwright() as p:
        browser, contexts, (screen, lola, teo), errors = _devices(p, browser_type_launch_args)
        _open_projector(screen, url, class_id, "Mr Pardo")
        _pupil_signs_in(lola, url, code, "Lola", ids["Lola"])
        _pupil_signs_in(teo, url, code, "Teo", ids["Teo"])
        screen.get_by_text("2 pupils are in").wait_for(timeout=10_000)

        # What would you play? A move on the board each.
        _start_kind(screen, "What would you play?")
        live = _round(db_path, class_id)
        for page in (lola, teo):
            page.locator(".eb-card").first.wait_for(timeout=10_000)
            _wait_idle(page)
        lola.screenshot(path=str(_artifact("29-live-phone-best.png")), full_page=True)
        best, other = live.puzzle.ranking[0], live.puzzle.ranking[-1]
        for page, move in ((lola, best), (teo, other)):
            _tap(page, move.card).click()
            _add(page, move.take)
            page.get_by_text("Your answer is in").wait_for()
        seen = _reveal(screen, "best")
        assert "The coach plays this:" in seen and "best move: 1" in seen
        # Said to the whole class: "we take…", never "you take…".
        why = coach_text(best.reason, dict(best.params), Deck.SPANISH, voice="class")
        assert f"The coach plays this: {why}" in seen
        # Teo's move alone is not drawn (it would point to him): one grey bar counts it.
        assert screen.locator("[data-testid=tc-live-choice]").count() == 1
        assert screen.locator("[data-testid=tc-live-others]").inner_text().strip() \
            == "other moves: 1"
        assert f"lay down the {card_text(other.card, Deck.SPANISH)}" not in seen
        _close(screen, (lola, teo))

        # Where is the sweep risk? A hand card each.
        _start_kind(screen, "Where is the sweep risk?")
        live = _round(db_path, class_id)
        (risky,) = live.risky
        safe = next(c for c in live.sweep if not c.risky)
        for page in (lola, teo):
            page.locator(f".st-key-mc_live_pick_{risky} button").wait_for(timeout=10_000)
            _wait_idle(page)
        teo.screenshot(path=str(_artifact("29-live-tablet-sweep.png")), full_page=True)
        lola.screenshot(path=str(_artifact("29-live-phone-sweep.png")), full_page=True)
        # On the phone every answer button shows without a scroll, under the table and hand.
        for card in live.puzzle.hand:
            box = _button(lola, f"mc_live_pick_{card}").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, box
        _button(lola, f"mc_live_pick_{risky}").click()
        _button(teo, f"mc_live_pick_{safe.card}").click()
        for page in (lola, teo):
            page.get_by_text("Your answer is in").wait_for()
        seen = _reveal(screen, "sweep")
        assert "Saw the sweep risk: 1" in seen
        assert "chosen by 1" in seen and "other cards: 1" in seen
        # The safe card only Teo chose is not said: it would say who.
        assert f"chose {safe.arithmetic}" not in seen
        assert not screen.locator("[data-testid=tc-live-wrong]").count()
        _close(screen, (lola, teo))

        # Quick facts: five numbers each.
        _start_kind(screen, "Quick facts: 5 questions")
        live = _round(db_path, class_id)
        right = [q.solutions[0].value for q in live.questions]
        for page, values in ((lola, right), (teo, [right[0] % 10 + 1, *right[1:]])):
            page.locator("[data-testid=mc-live-question]").wait_for(timeout=10_000)
            _wait_idle(page)
            if page is lola:
                lola.screenshot(path=str(_artifact("29-live-phone-quick.png")), full_page=True)
                # The projector shows the questions, not cards; the numbers fit a finger.
                lola.get_by_text("the same questions are on the big screen").wait_for()
                for n in range(1, 11):
                    box = _button(lola, f"mc_live_n_{n}").bounding_box()
                    assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
                    assert box["y"] + box["height"] <= 844, box
                # "10" whole on its button, not cut to "1…".
                ten = _button(lola, "mc_live_n_10").locator("p")
                assert ten.evaluate("e => e.scrollWidth <= e.clientWidth"), ten.inner_text()
            for value in values:
                _button(page, f"mc_live_n_{value}").click()
                _wait_idle(page)
            page.get_by_text("Your answer is in").wait_for()
        seen = _reveal(screen, "quick")
        assert "All right: 1" in seen
        # One fact a line, each with its answer and right count; Teo's lone wrong answer
        # is not on the projector.
        rows = screen.locator("[data-testid=tc-live-question]")
        assert rows.count() == len(right)
        tops = [rows.nth(i).bounding_box()["y"] for i in range(len(right))]
        assert tops == sorted(tops) and len(set(tops)) == len(right), tops
        assert "right: 1" in rows.nth(0).inner_text()
        assert not screen.locator("[data-testid=tc-live-wrong]").count()
        teo.get_by_text("Look at the board").wait_for(timeout=10_000)
        teo.screenshot(path=str(_artifact("29-live-tablet-quick-revealed.png")), full_page=True)
        _close(screen, (lola, teo))

        assert not errors, errors
        for page in (screen, lola, teo):
            assert not page.get_by_text("Traceback").count()
        for context in contexts:
            context.close()
        browser.close()
