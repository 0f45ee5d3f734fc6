"""Three and four players with 7-card hands fit a tablet and a phone (issue 26): every
seat's name shows, no seat covers "What just happened", the partner is marked. Saves
screenshots to test-artifacts/ (look at them)."""

from __future__ import annotations

import re

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures)
    _artifact,
    _context,
    _hand,
    _new_profile,
    _wait_idle,
    browser_type_launch_args,
    server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_BOXES_JS = """() => {
  const root = document.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const seats = [...root.querySelectorAll('.eb-seat')].map((s) => ({
    seat: box(s), name: box(s.querySelector('b')), inner: [...s.children].map(box),
    partner: !!s.querySelector('.eb-partner-mark'), text: s.innerText}));
  const events = root.querySelector('.eb-events');
  return {seats, events: events ? box(events) : null, width: root.host.clientWidth};
}"""


def _overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1
            and a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1)


@pytest.mark.parametrize("size", [(1024, 768), (390, 844)], ids=["tablet", "phone"])
@pytest.mark.parametrize("opponents,teams", [(2, False), (3, True)], ids=["three", "four"])
def test_seven_card_hands_at_three_and_four_players_fit(
        server, browser_type_launch_args, size, opponents, teams) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    width, _height = size
    name = f"Seats{opponents}{width}"
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, size)
        _new_profile(page, url, name)
        page.get_by_role("link", name="Go and play").first.click()
        page.get_by_text("How many other players?").wait_for()
        page.locator(".st-key-ng_opponents button", has_text=str(opponents)).click()
        _wait_idle(page)
        if teams:
            page.locator(".st-key-ng_teams label").first.click()
            _wait_idle(page)
        page.get_by_text("More rules").click()
        _wait_idle(page)  # the expander's toggles are laid out before one is tapped
        page.locator(".st-key-ng_hand7 label").first.click()
        _wait_idle(page)
        page.get_by_role("button", name="Start the game!").click()
        _hand(page).first.wait_for()
        _wait_idle(page)
        page.wait_for_timeout(1200)
        label = "four" if teams else "three"
        page.screenshot(path=str(_artifact(f"26-seats-{label}-{width}.png")), full_page=True)
        boxes = page.evaluate(_BOXES_JS)
        rules = page.evaluate("""() => [...document.querySelector(
            '[data-testid=stBidiComponentIsolated]').shadowRoot.querySelectorAll(
            '.eb-rule summary')].map((s) => s.getAttribute('aria-label'))""")
        assert "Hands of 7" not in rules and "hand of 7" in rules, rules
        assert ("teams" in rules) == teams, rules
        assert len(boxes["seats"]) == opponents
        for seat in boxes["seats"]:
            # Everything a seat shows stays inside its box: no fan of backs spills out.
            right = seat["seat"]["x"] + seat["seat"]["w"] + 1
            assert all(part["x"] + part["w"] <= right for part in seat["inner"]), seat
            assert seat["name"]["w"] > 0 and re.search(r"× [4-7]\b", seat["text"]), seat
            if boxes["events"] is not None:
                assert not _overlap(seat["seat"], boxes["events"]), (seat, boxes["events"])
        for a, b in ((a, b) for i, a in enumerate(boxes["seats"])
                     for b in boxes["seats"][i + 1:]):
            assert not _overlap(a["seat"], b["seat"])
        partners = [s for s in boxes["seats"] if s["partner"]]
        assert len(partners) == (1 if teams else 0)
        context.close()
        browser.close()
