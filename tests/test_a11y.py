"""Accessibility of the pages a child plays on: axe-core in Chromium, and touch targets.

The board you tap (issue 11) must pass axe-core (npm ``axe-core``, pinned in
``tests/browser/package-lock.json``; ``.ci/run`` installs it with ``npm ci
--prefix tests/browser``) with no *serious* or *critical* violation of WCAG 2.0/2.1
A and AA or axe's best practices, on Play (a game in play, cards picked) and on
Puzzles (a puzzle on the board), in the light and the dark theme (Streamlit
follows the device's ``prefers-color-scheme``) on a 1024×768 tablet. Every card
and the Play button are touch targets of at least 44×44 CSS pixels on that
tablet and on a 390×844 phone.

Each page is reached by a :class:`PageSetup` in :data:`A11Y_PAGES`: a lesson
page (issue 12) is checked by adding its setup there. Nothing of the page is
excluded from axe: not the board (``[data-testid=stBidiComponentIsolated]``),
not Streamlit's widgets. Each run's full axe results (moderate and minor
findings too) are written to ``test-artifacts/axe-<page>-<theme>.json``, with a
screenshot beside them.

Needs /usr/bin/chromium (or ``ESCOBA_CHROMIUM``) and ``axe.min.js``; skipped
without either, except where ``ESCOBA_REQUIRE_BROWSER=1`` (CI) makes a missing
one a failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.conftest import ROOT, streamlit_server
from trainer.storage import Storage

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
BLOCKING = ("serious", "critical")
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
MIN_TARGET = 44  # CSS pixels (WCAG 2.5.5, and issue 11)
# The app's background in each theme (.streamlit/config.toml): proof the theme applied.
BACKGROUND = {"light": "rgb(255, 251, 242)", "dark": "rgb(20, 33, 43)"}


def _require_browser_and_axe() -> None:
    missing = [f"Chromium at {CHROMIUM}"] if not Path(CHROMIUM).exists() else []
    if not AXE.exists():
        missing.append(f"axe-core at {AXE.relative_to(ROOT)} "
                       "(npm ci --prefix tests/browser --no-audit --no-fund)")
    if not missing:
        return
    if os.environ.get("ESCOBA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"required (ESCOBA_REQUIRE_BROWSER=1) but missing: {'; '.join(missing)}")
    pytest.skip(f"missing: {'; '.join(missing)}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on a free loopback port with its own SQLite file; (url, db path)."""
    _require_browser_and_axe()
    db = tmp_path_factory.mktemp("a11y") / "escoba.db"
    env = dict(os.environ, ESCOBA_DB_PATH=str(db))
    env.pop("ESCOBA_DATABASE_URL", None)
    with streamlit_server(ROOT / "serve.py", env,
                          tmp_path_factory.getbasetemp() / "streamlit-a11y.log") as url:
        yield url, db


@pytest.fixture(scope="module")
def browser(server) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


_names = iter(range(1, 10_000))


def _new_profile(db: Path) -> int:
    """A fresh profile (written as the app would), so no test sees another's game."""
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        return Storage(engine).create_profile(f"Kid{next(_names)}", "🦊").id
    finally:
        engine.dispose()


def _wait_idle(page: Any) -> None:
    """Until Streamlit has finished its run (its status widget gone) and the board has
    settled (its flights and celebrations are over in under a second)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)
    page.wait_for_timeout(1000)


# -- the pages checked -------------------------------------------------------------------

@dataclass(frozen=True)
class PageSetup:
    """How to bring a page to the state axe looks at: ``open(page, url, profile_id)``
    leaves the page drawn, idle, with ``drawn`` on it (the board, or Quick facts' pad)."""

    name: str
    open: Callable[[Any, str, int], None]
    drawn: str = ".eb-card"


def _play_with_cards_picked(page: Any, url: str, profile_id: int) -> None:
    """Play: the default new game (one computer opponent, hints on), a hand card and a
    table card picked (the running sum and its ✓ or warning shown)."""
    page.goto(f"{url}/play?p={profile_id}")
    page.locator(".st-key-start_game button").click()
    page.locator('.eb-card[data-group="hand"]:not(.eb-still)').first.wait_for()
    _wait_idle(page)
    page.locator('.eb-card[data-group="hand"]').first.click()
    table = page.locator('.eb-card[data-group="table"]')
    if table.count():
        table.first.click()
    page.locator('.eb-card[aria-pressed="true"]').first.wait_for()
    page.wait_for_timeout(300)


def _a_puzzle(page: Any, url: str, profile_id: int) -> None:
    """Puzzles: the first "for me" puzzle on the board."""
    page.goto(f"{url}/puzzles?p={profile_id}")
    page.locator('.eb-card[data-group="table"]').first.wait_for()
    _wait_idle(page)


def _a_lesson(page: Any, url: str, profile_id: int) -> None:
    """Lessons: stage 3's first level ("make 15 with two and three cards"), its goal and
    glowing hint on the board, a hand card picked, Play below."""
    page.goto(f"{url}/lessons?p={profile_id}")
    page.locator(".st-key-lesson_open_two_three button").click()
    page.locator('.eb-card[data-group="hand"]:not(.eb-still)').first.wait_for()
    _wait_idle(page)
    page.locator('.eb-card[data-group="hand"]').first.click()
    page.locator('.eb-card[aria-pressed="true"]').first.wait_for()
    page.wait_for_timeout(300)


def _a_quick_fact_answered(page: Any, url: str, profile_id: int) -> None:
    """Quick facts: the round drawn in the page (issue 32), its first question answered
    wrongly (the error's box, with its 🔊 when a voice speaks), the second asked."""
    page.goto(f"{url}/quick_facts?p={profile_id}")
    question = page.locator(".qf-root [data-testid=qf-question]")
    question.wait_for()
    _wait_idle(page)
    asked = question.inner_text()
    wrong = (15 - int(asked.split(" ")[0])) % 10 + 1
    page.locator(f".qf-n[data-n='{wrong}']").click()
    page.locator(".qf-said.qf-no").wait_for()
    _wait_idle(page)


#: The pages axe checks: Play, Puzzles and a lesson, each with the board on it, and
#: Quick facts' round.
A11Y_PAGES = [
    PageSetup("play", _play_with_cards_picked),
    PageSetup("puzzles", _a_puzzle),
    PageSetup("lesson", _a_lesson),
    PageSetup("quick_facts", _a_quick_fact_answered, drawn=".qf-n"),
]


# -- axe -----------------------------------------------------------------------------------

_AXE_RUN = """async (tags) => {
  const results = await axe.run(document, {runOnly: tags});
  const node = (n) => ({target: n.target, impact: n.impact, html: n.html,
                        summary: n.failureSummary});
  const rule = (v) => ({id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
                        nodes: v.nodes.map(node)});
  return {violations: results.violations.map(rule),
          incomplete: results.incomplete.map(rule), version: axe.version};
}"""


def _blocking(violations: list[dict[str, Any]]) -> list[str]:
    """One line per serious or critical finding: rule, element, what is wrong."""
    lines = []
    for rule in violations:
        for node in rule["nodes"]:
            if node["impact"] in BLOCKING:
                summary = " ".join(node["summary"].split())
                lines.append(f"{rule['id']} ({node['impact']}) at {node['target']}: "
                             f"{rule['help']}. {summary} | {node['html'][:160]}")
    return lines


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("setup", A11Y_PAGES, ids=lambda s: s.name)
def test_no_serious_axe_violation(server, browser, setup: PageSetup, theme: str) -> None:
    url, db = server
    context = browser.new_context(viewport=TABLET, locale="en-US", color_scheme=theme,
                                  device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        setup.open(page, url, _new_profile(db))
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=stApp]'))"
            ".backgroundColor")
        assert background == BACKGROUND[theme], f"the {theme} theme is not applied"
        assert page.locator(setup.drawn).count() > 0, f"no {setup.drawn} on the page"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"axe-{setup.name}-{theme}.png"))
        page.add_script_tag(path=str(AXE))
        results = page.evaluate(_AXE_RUN, AXE_TAGS)
        (ARTIFACTS / f"axe-{setup.name}-{theme}.json").write_text(
            json.dumps(results, indent=1, ensure_ascii=False))
        blocking = _blocking(results["violations"])
        assert not blocking, "axe-core " + results["version"] + ":\n" + "\n".join(blocking)
    finally:
        context.close()


# -- touch targets ---------------------------------------------------------------------

_TARGETS = """() => {
  const boxes = [];
  for (const host of document.querySelectorAll('[data-testid=stBidiComponentIsolated]')) {
    if (!host.shadowRoot) continue;
    for (const el of host.shadowRoot.querySelectorAll('.eb-card, .eb-play')) {
      const r = el.getBoundingClientRect();
      boxes.push({what: el.dataset.id || el.className, width: r.width, height: r.height});
    }
  }
  return boxes;
}"""


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
@pytest.mark.parametrize("setup", [s for s in A11Y_PAGES if s.drawn == ".eb-card"],
                         ids=lambda s: s.name)  # Quick facts' pad: tests/test_browser_phone.py
def test_cards_and_play_are_big_enough_to_tap(server, browser, setup: PageSetup,
                                              viewport: dict[str, int]) -> None:
    url, db = server
    context = browser.new_context(viewport=viewport, locale="en-US", device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        setup.open(page, url, _new_profile(db))
        boxes = page.evaluate(_TARGETS)
        assert any(b["what"] == "eb-play" for b in boxes), "no Play button on the board"
        assert sum(b["what"] != "eb-play" for b in boxes) >= 2, "no cards on the board"
        small = [b for b in boxes if b["width"] < MIN_TARGET or b["height"] < MIN_TARGET]
        assert not small, f"touch targets under {MIN_TARGET}px at {viewport}: {small}"
    finally:
        context.close()
