"""The pupil's PIN pad in the real browser (issue 27): a 3 × 4 grid at every width.

On a 390 px phone the pad was one column of 12 tall buttons, and after a wrong PIN the
red message and the four dots were scrolled off screen. Here a pupil types a wrong PIN
on a 390 × 844 phone and on a 1024 × 768 tablet; as the child then sees it (no scrolling
by the test), the message, the dots and all 12 keys are inside the viewport, and the
keys stand in 3 columns and 4 rows, the message and the dots above them.

Screenshots: test-artifacts/27-pin-pad-*.png.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from trainer.classroom import Classroom, TeacherAuth
from trainer.storage import Storage, configure_sqlite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PINS = {"Lola": "4821", "Teo": "7395"}


@pytest.fixture(scope="module")
def class_code(server) -> str:  # noqa: F811
    """A class made through the core on the server's database: its code."""
    _url, db = server
    engine = sa.create_engine(f"sqlite:///{db}")
    configure_sqlite(engine)
    store = Storage(engine)
    session = TeacherAuth(store).create_account("Ms Robles", "seven oros on the table")
    pins = iter(PINS.values())
    room = Classroom(store, session, pin_maker=lambda: next(pins))
    info = room.create_class("4A Robles")
    assert len(room.add_pupils(info.id, "\n".join(PINS)).added) == len(PINS)
    engine.dispose()
    return info.code


#: The pad's keys, row by row: 1-9, "That's not me", 0, delete.
KEYS = [*(f"mc_d_{d}" for d in "123456789"), "mc_not_me", "mc_d_0", "mc_del"]
_BOXES_JS = """(KEYS) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom}; };
  const alert = document.querySelector('[data-testid=stAlertContentError]');
  return {
    view: {w: window.innerWidth, h: window.innerHeight},
    message: alert ? box(alert) : null,
    messageText: alert ? alert.innerText : '',
    dots: box(document.querySelector('[data-testid=mc-pin-dots]')),
    // The key's button as drawn (a key with a help text has its tooltip's copy too).
    keys: KEYS.map((key) => [...document.querySelectorAll(
      `.st-key-mc_pad .st-key-${key} button[data-testid^=stBaseButton]`)]
      .filter((b) => b.getBoundingClientRect().width > 0))
      .map((found) => found.length === 1 ? box(found[0]) : found.length),
  };
}"""


@pytest.mark.parametrize(("size", "who"), [((390, 844), "Lola"), ((1024, 768), "Teo")],
                         ids=["phone", "tablet"])
def test_the_pin_pad_is_a_3_by_4_grid_with_its_message_and_dots_in_view(
        server, browser_type_launch_args, class_code, size, who) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        mobile = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
        browser, context, page = _context(p, browser_type_launch_args, size, **mobile)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/my_class")
        page.get_by_role("heading", name="My class").wait_for()
        _wait_idle(page)
        page.locator(".st-key-mc_code input").fill(class_code)
        page.get_by_role("button", name="Find my class").click()
        page.locator(".st-key-mc_pictures button").filter(has_text=who).click()
        page.get_by_text("Type your PIN.").wait_for()
        _wait_idle(page)
        wrong = "1111" if PINS[who] != "1111" else "2222"
        for digit in wrong:
            page.locator(f".st-key-mc_d_{digit} button").click()
            _wait_idle(page)
        page.locator("[data-testid=stAlertContentError]").wait_for()
        _wait_idle(page)
        shot = _artifact(f"27-pin-pad-{size[0]}x{size[1]}.png")
        page.screenshot(path=str(shot))  # the viewport: what the child sees
        seen = page.evaluate(_BOXES_JS, KEYS)
        context.close()
        browser.close()
    assert errors == []
    width, height = seen["view"]["w"], seen["view"]["h"]
    assert (width, height) == size

    def inside(box) -> bool:
        return (box["x"] >= 0 and box["y"] >= 0 and box["right"] <= width
                and box["bottom"] <= height)

    assert "That PIN is not right" in seen["messageText"]
    assert inside(seen["message"]), seen["message"]
    assert inside(seen["dots"]), seen["dots"]
    keys = seen["keys"]
    assert all(isinstance(k, dict) for k in keys), list(zip(KEYS, keys, strict=True))
    assert all(inside(k) for k in keys), keys
    columns = sorted({round(k["x"]) for k in keys})
    rows = sorted({round(k["y"]) for k in keys})
    assert len(columns) == 3 and len(rows) == 4, (columns, rows)
    # Row by row, left to right: 1 2 3 / 4 5 6 / 7 8 9 / back 0 delete.
    assert [(columns.index(round(k["x"])), rows.index(round(k["y"]))) for k in keys] == [
        (c, r) for r in range(4) for c in range(3)]
    # Keys big enough for a child's finger, and the message and the dots above them.
    assert min(k["bottom"] - k["y"] for k in keys) >= 56
    assert min(k["right"] - k["x"] for k in keys) >= 80
    top = min(k["y"] for k in keys)
    assert seen["message"]["bottom"] <= seen["dots"]["y"] <= seen["dots"]["bottom"] <= top



def test_an_untouched_phone_is_signed_out_by_its_own_timer(
        server, browser_type_launch_args, class_code) -> None:  # noqa: F811
    """The pupil's timer is a fragment in the sidebar, collapsed on a phone: it still
    runs. Lola signs in and nobody touches the phone; the teacher signs out every tablet
    (from her own screen: here straight in the database, as her button does); within one
    tick of the phone's timer (20 s) the page says so and Lola's name is gone, with no tap.
    The idle minutes themselves are the same check on the same timer, measured with the
    app's clock in tests/test_tablets.py and tests/test_app_tablets.py (a real browser
    would have to sit out the shortest setting, 2 minutes)."""
    from playwright.sync_api import sync_playwright

    from trainer.clock import now

    url, db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (390, 844),
                                          is_mobile=True, has_touch=True)
        page.goto(f"{url}/my_class")
        page.locator(".st-key-mc_code input").fill(class_code)
        page.get_by_role("button", name="Find my class").click()
        page.locator(".st-key-mc_pictures button").filter(has_text="Lola").click()
        page.get_by_text("Type your PIN.").wait_for()
        _wait_idle(page)
        for digit in PINS["Lola"]:
            page.locator(f".st-key-mc_d_{digit} button").click()
            _wait_idle(page)
        page.get_by_text("Your tasks").wait_for()
        assert "Hi ☀️ Lola!" in page.locator("[data-testid=stMain]").inner_text()
        engine = sa.create_engine(f"sqlite:///{db}")
        store = Storage(engine)
        store.set_class_tablets(store.class_by_code(class_code).id, signed_out_at=now())
        engine.dispose()
        # Untouched from here on: at most one 20 s tick (and a margin).
        page.get_by_text("signed out every tablet").wait_for(timeout=(20 + 25) * 1000)
        _wait_idle(page)
        page.screenshot(path=str(_artifact("27-tablets-signed-out-390x844.png")))
        main = page.locator("[data-testid=stMain]").inner_text()
        context.close()
        browser.close()
    # Signed out: no welcome, no tasks.
    assert "Hi ☀️ Lola!" not in main and "Your tasks" not in main
