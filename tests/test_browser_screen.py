"""A screen a 7-year-old can take in, and success they can see (issue 23), in Chromium.

- Every lesson level's layout (opened by its link, ``/lessons?lesson=stage/n``; the
  tightest level of each layout, or all with ``ESCOBA_SCREEN_ALL=1``) and a Play turn, at
  1024 × 768 and 390 × 844: the words to read before the first action (at most 15), the
  smallest control (at least 44 × 44 px), the closest two controls (at least 8 px apart),
  every action inside the viewport without scrolling; any breach fails, and the table
  goes to ``test-artifacts/screen-check.md`` (copied into docs/APP.md). No request
  leaves loopback meanwhile.
- A capture and an escoba in a lesson, played out before the next level: the cards fly,
  the praise says the sum, an escoba shows the empty table with a broom and "¡Escoba!",
  the stars; screenshots mid-movement; the next level on "Next" or by itself after
  about 2 s; the sound hook's events; with reduced motion, the same words and no
  movement.
- The first run: a new profile lands on lesson 1, level 1, with a parent's skip.

The measuring script is ``tests/browser/screen_measure.js`` (its rules in its header).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import pytest

from lessons import load_stages
from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _hand,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from trainer.lessons import GOAL_WORDS, LessonRunner, say, words_to_read

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MEASURE_JS = (Path(__file__).with_name("browser") / "screen_measure.js").read_text()
SIZES = [(1024, 768), (390, 844)]
MAX_WORDS = GOAL_WORDS  # the same budget as the goals in every language
MIN_CONTROL = 44
MIN_GAP = 8
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}

_ROOT_JS = """() => {
  const host = document.querySelector('[data-testid=stBidiComponentIsolated]');
  return host && host.shadowRoot && host.shadowRoot.querySelector('.eb-root');
}"""


def _board_attr(page, name: str) -> str | None:
    return page.evaluate(f"() => {{ const r = ({_ROOT_JS})(); "
                         f"return r ? (r.dataset.{name} || null) : null; }}")


def _wait_board(page, prefix: str) -> None:
    page.wait_for_function(
        f"""(prefix) => {{ const r = ({_ROOT_JS})();
              return !!r && (r.dataset.position || '').startsWith(prefix); }}""",
        arg=prefix, timeout=90_000)
    _wait_idle(page)


class _Outside:
    """Every request this page made to anything but loopback (data: URLs are local)."""

    def __init__(self, page) -> None:
        self.urls: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOOPBACK:
            self.urls.append(request.url)


def _create(page, url: str, name: str) -> str:
    """A new profile on the first page; its id (the URL's ?p=)."""
    page.goto(url)
    page.get_by_role("textbox", name="Nickname").fill(name)
    page.get_by_role("button", name="Create my profile").click()
    page.locator(".eb-card").first.wait_for()
    _wait_idle(page)
    return page.url.split("p=")[-1].split("&")[0]


def _measure(page) -> dict:
    return page.evaluate(MEASURE_JS, {})


def _breaches(m: dict, height: int, acting: bool = True) -> list[str]:
    """What on this screen breaks the rules; ``acting``: a lesson level or a Play turn
    (else a page of choices, where only the controls' sizes and spacing count)."""
    out = []
    if acting and m["count"] > MAX_WORDS:
        out.append(f"{m['count']} words before acting: {' '.join(m['words'])}")
    small = [c for c in m["controls"] if min(c["w"], c["h"]) < MIN_CONTROL - 0.5]
    out += [f"control {c['name']!r} is {c['w']:.0f}×{c['h']:.0f}" for c in small]
    if m["closest"] and m["closest"]["gap"] < MIN_GAP - 0.5:
        c = m["closest"]
        out.append(f"{c['a']!r} and {c['b']!r} only {c['gap']:.0f} px apart")
    if not acting:
        return out
    if not m["actions"]:
        out.append("no action on the screen")
    elif m["lowest"] > height + 0.5:
        out.append(f"an action ends at y={m['lowest']:.0f}, below the {height} px screen")
    return out


def _row(label: str, size: tuple[int, int], m: dict) -> str:
    smallest = m["smallest"]
    small = f"{min(smallest['w'], smallest['h']):.0f}" if smallest else "—"
    gap = f"{m['closest']['gap']:.0f}" if m["closest"] else "—"
    lowest = f"{m['lowest']:.0f}" if m["lowest"] is not None else "—"
    return (f"| {label} | {size[0]}×{size[1]} | {m['count']} | {m['all_words']} | {small} "
            f"| {gap} | {lowest} |")


def _one_move_level(escoba: bool):
    """The first level whose only step is one listed capture, sweeping the table
    (``escoba``) or not: (stage, its number, the level, the move)."""
    for stage in load_stages():
        for number, level in enumerate(stage.levels, 1):
            if len(level.steps) != 1 or level.is_game:
                continue
            step = level.steps[0]
            if step.action != "play" or step.reply:
                continue
            moves = step.expect.moves  # a play step's kind (lessons.schema.PlayCard)
            if isinstance(moves, str) or not moves:
                continue
            move = moves[0]
            table = set(level.start_round().table)
            if move.take and (set(move.take) == table) == escoba:
                return stage, number, level, move
    raise AssertionError("no such level")


def _layout(view) -> tuple:
    """What a level's first screen is built of, counted: a board or not, the cards on
    the table and in the hand, the answer buttons, the won piles' cards, the steps."""
    piles = sum(len(pile) for pile in view.piles) if view.piles_shown else 0
    return (view.has_board, len(view.table), len(view.hand), len(view.choices or ()),
            piles, view.step_count > 1)


def _levels() -> list[tuple[str, int, str, bool]]:
    """The levels to measure: their stage, number and key, and whether each opens on a
    board (a question about a finished round opens on its goal, the won piles and the
    answers).

    Levels whose first screens are built alike (:func:`_layout`) lay out alike; of each
    such group the one with the longest goal is measured, the tightest fit (21 of 77
    levels: 5 minutes less of CI). Every goal of every level in every language is held
    to the word budget by tests/test_lessons.py. ``ESCOBA_SCREEN_ALL=1`` measures every
    level (how docs/APP.md's table was made)."""
    every = [(stage.key, n, level.key, LessonRunner().start(stage.key, n))
             for stage in load_stages() for n, level in enumerate(stage.levels, 1)]
    if os.environ.get("ESCOBA_SCREEN_ALL") != "1":
        tightest: dict[tuple, tuple] = {}
        for row in every:
            shape, words = _layout(row[3]), words_to_read(say(row[3].goal, "en"))
            if shape not in tightest or words > tightest[shape][0]:
                tightest[shape] = (words, row)
        chosen = {id(row) for _words, row in tightest.values()}
        every = [row for row in every if id(row) in chosen]
    return [(stage, n, key, view.has_board) for stage, n, key, view in every]


def test_every_lesson_level_and_play_fit_a_child(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    rows: dict[tuple[int, int], list[str]] = {size: [] for size in SIZES}
    breaches: list[str] = []

    def measured(label: str, size: tuple[int, int], page, acting: bool = True,
                 reopen: Callable[[], None] | None = None) -> None:
        def settled() -> dict:
            m = _measure(page)
            for _ in range(20):  # the answers come a moment after the board when busy
                if not acting or m["actions"]:
                    break
                page.wait_for_timeout(500)
                m = _measure(page)
            return m

        m = settled()
        found = _breaches(m, size[1], acting)
        if found:
            # Measured once more a moment later: what a child reads and taps stays, a
            # state in passing on a loaded machine does not (CI saw 11 words more above
            # the answers of one level at one size twice, gone in every other run and
            # never seen on an idle machine). The words and a screenshot are kept to
            # tell what it was.
            name = f"23-breach-{label.replace(' ', '_')}-{size[0]}x{size[1]}"
            print(f"{label} {size[0]}×{size[1]}: {found}, words {m.get('words')}, "
                  f"all words {m.get('all_word_list')}; again ({name}.png)", flush=True)
            page.screenshot(path=str(_artifact(f"{name}.png")))
            page.wait_for_timeout(1500)
            m = _measure(page)
            found = _breaches(m, size[1], acting)
            if found and reopen is not None:
                # Still there: the level opened again, as a child opening it sees it.
                print(f"{label} {size[0]}×{size[1]}: {found}; opened again", flush=True)
                reopen()
                m = settled()
                found = _breaches(m, size[1], acting)
        rows[size].append(_row(label, size, m) if acting else _row(label, size, {
            **m, "count": "—", "all_words": "—", "lowest": None}))
        breaches.extend(f"{label} {size[0]}×{size[1]}: {b}" for b in found)
        print(rows[size][-1], found, flush=True)  # progress, with -s

    with sync_playwright() as p:
        # Both screens side by side: each level is opened on the tablet and the phone at
        # once (the two loads overlap), then measured on each.
        opened = []
        for size in SIZES:
            browser, context, page = _context(p, browser_type_launch_args, size)
            opened.append((size, browser, context, page, _Outside(page)))
        pids = {size: _create(page, url, f"Fit{size[0]}") for size, _b, _c, page, _o in opened}
        for size, _b, _c, page, _o in opened:
            # The first run's level 1, with the parent's skip under it.
            measured("first run: values 1", size, page)
        for stage, number, key, on_board in _levels():
            for size, _b, _c, page, _o in opened:
                page.evaluate("(href) => { location.href = href; }",
                              f"{url}/lessons?p={pids[size]}&lesson={stage}/{number}")

            def ready(page, stage=stage, key=key, on_board=on_board) -> None:
                page.wait_for_load_state()
                if on_board:
                    _wait_board(page, f"l:{stage}:{key}:")
                else:
                    page.locator(".st-key-lesson_answers button").first.wait_for()
                    _wait_idle(page)

            for size, _b, _c, page, _o in opened:
                ready(page)
                measured(f"{stage} {number}", size, page,
                         reopen=lambda page=page: (page.reload(), ready(page)))
        for size, _b, _c, page, _o in opened:
            # Play: a new game, the child's first turn.
            page.goto(f"{url}/play?p={pids[size]}")
            # Stage 11's first game (visited above) is a real game in play: Play resumes it.
            start = page.get_by_role("button", name="Start the game!")
            start.or_(_hand(page).first).first.wait_for()
            if start.count():
                start.click()
            _hand(page).first.wait_for()
            _wait_idle(page)
            page.wait_for_timeout(1200)  # the computer's first moves have landed
            # The first sight of the turn, from the top: once, after the computer's escoba,
            # the page stood scrolled and the fixed sidebar toggle lay over the board's
            # rules button (test-artifacts/23-play-390x844.png of that run).
            page.evaluate("() => { for (const el of [document.scrollingElement,"
                          " ...document.querySelectorAll('[data-testid=stMain],"
                          " [data-testid=stAppViewContainer]')]) if (el) el.scrollTop = 0; }")
            page.wait_for_timeout(300)
            measured("Play, a turn", size, page)
            page.screenshot(path=str(_artifact(f"23-play-{size[0]}x{size[1]}.png")))
            # The pages of choices a child taps on the way: "Who's playing?" (names,
            # pictures, the language) and the lesson map ("New to Escoba? Start here!").
            page.goto(f"{url}/?p={pids[size]}")
            page.get_by_role("button", name="Create my profile").wait_for()
            _wait_idle(page)
            measured("Who's playing? (choices)", size, page, acting=False)
            page.goto(f"{url}/lessons?p={pids[size]}")
            page.locator(".st-key-lesson_next button").wait_for()
            _wait_idle(page)
            measured("lesson map (choices)", size, page, acting=False)
        for size, browser, context, _page, outside in opened:
            assert not outside.urls, (size, outside.urls)
            context.close()
            browser.close()
    table = ["| screen | size | words to read before acting | all words above it | "
             "smallest control (px) | closest controls (px) | lowest action (y, px) |",
             "|---|---|---|---|---|---|---|", *[r for size in SIZES for r in rows[size]]]
    _artifact("screen-check.md").write_text("\n".join(table) + "\n", encoding="utf-8")
    assert not breaches, "\n".join(breaches)


_WATCH_JS = """() => {
  const host = document.querySelector('[data-testid=stBidiComponentIsolated]');
  window.__seen = {ghosts: 0, cheers: 0, sounds: []};
  host.shadowRoot.addEventListener('escoba-sound', (e) => window.__seen.sounds.push(e.detail.kind));
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (!node.classList) continue;
      if (node.classList.contains('eb-ghost')) window.__seen.ghosts += 1;
      if (node.classList.contains('eb-cheer')) window.__seen.cheers += 1;
    }
  }).observe(host.shadowRoot, {childList: true, subtree: true});
}"""


def _play_and_watch(page, url: str, pid: str, link: str, prefix: str, card: str,
                    take: list[str], shot: str | None) -> dict:
    """Open a level by its link, play ``card`` taking ``take``, and catch it played out."""
    page.goto(f"{url}/lessons?p={pid}&lesson={link}")
    _wait_board(page, prefix)
    page.evaluate(_WATCH_JS)
    page.locator(f'.eb-card[data-id="{card}"]').click()
    for c in take:
        page.locator(f'.eb-card[data-id="{c}"]').click()
    page.locator(".eb-play").click()
    page.wait_for_function(f"() => {{ const r = ({_ROOT_JS})(); "
                           f"return r && r.dataset.celebrating === 'true'; }}", timeout=30_000)
    started = time.monotonic()
    if shot:
        page.wait_for_timeout(120)
        page.screenshot(path=str(_artifact(f"{shot}-mid.png")))
        page.wait_for_timeout(1100)
        page.screenshot(path=str(_artifact(f"{shot}-done.png")))
    banner = page.locator(".eb-celebrate")
    visible = banner.inner_text().replace("\n", " ")
    # what it says: the visible words, the stars, and its accessible name (all of it)
    return {"banner": f"{visible} | {banner.get_attribute('aria-label')}", "started": started,
            "seen": page.evaluate("() => window.__seen"),
            "broom": page.locator(".eb-broom").count()}


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "phone"])
def test_a_capture_and_an_escoba_are_played_out_before_the_next_level(
        server, browser_type_launch_args, size) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, size)
        outside = _Outside(page)
        pid = _create(page, url, f"Cel{size[0]}")
        tag = f"{size[0]}x{size[1]}"
        # A capture (the first level with one, not an escoba).
        stage, number, level, move = _one_move_level(escoba=False)
        took = _play_and_watch(page, url, pid, f"{stage.key}/{number}",
                               f"l:{stage.key}:{level.key}:", str(move.card),
                               [str(c) for c in sorted(move.take)], f"23-capture-{tag}")
        values, total, _j = move.sum_terms()
        expr = " + ".join(str(v) for v in values)
        assert f"{expr} = {total}!" in took["banner"].split("|")[0], took
        assert "⭐⭐⭐" in took["banner"] and "¡Escoba!" not in took["banner"]
        assert took["seen"]["ghosts"] >= 2, took  # the card and the one it took fly
        assert "capture" in took["seen"]["sounds"]
        # "Next" brings the next level at once.
        page.locator(".eb-next").click()
        _wait_board(page, f"l:{stage.key}:{stage.levels[number].key}:")
        assert page.locator(".eb-celebrate").count() == 0

        # An escoba: the table is empty after it.
        stage, number, level, move = _one_move_level(escoba=True)
        values, total, _j = move.sum_terms()
        expr = " + ".join(str(v) for v in values)
        swept = _play_and_watch(page, url, pid, f"{stage.key}/{number}",
                                f"l:{stage.key}:{level.key}:", str(move.card),
                                [str(c) for c in sorted(move.take)], f"23-escoba-{tag}")
        assert "¡Escoba!" in swept["banner"] and f"{expr} = {total}!" in swept["banner"], swept
        assert swept["broom"] == 1, "the empty table shows a broom"
        assert swept["seen"]["cheers"] >= 1 and swept["seen"]["ghosts"] >= 2, swept
        # With nobody tapping, the next level comes by itself after about 2 s (the
        # movement first: within a second).
        _wait_board(page, f"l:{stage.key}:{stage.levels[number].key}:")
        waited = time.monotonic() - swept["started"]
        assert 1.8 <= waited <= 6, waited
        sounds = page.evaluate("() => window.__seen.sounds")
        assert "escoba" in sounds and sounds.count("star") == 3, sounds
        assert not outside.urls, outside.urls
        context.close()
        browser.close()


# A voice that takes its time: each utterance "speaks" for SAYING_MS (speaking true), and
# every utterance and cancel is noted with the page's clock.
SAYING_MS = 4000
_SLOW_VOICE_JS = """(() => {
  const log = window.__voice = {said: [], cancels: []};
  const voices = [{lang: "en-GB", name: "Slow", localService: true, default: true,
                   voiceURI: "slow"}];
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
  let until = 0;
  const synth = {
    get speaking() { return performance.now() < until; }, pending: false, paused: false,
    getVoices() { return voices; },
    speak(u) { const now = performance.now(); log.said.push([u.text, now]);
               until = Math.max(until, now) + SAYING_MS; },
    cancel() { const now = performance.now(); if (now < until) log.cancels.push(now);
               until = 0; },
    pause() {}, resume() {}, addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
})();""".replace("SAYING_MS", str(SAYING_MS))


def test_the_next_level_waits_for_the_praise_to_be_said(server, browser_type_launch_args) -> None:  # noqa: F811
    """Found trying the lessons as a 7-year-old with the sound on: the next level came
    after 2 s and its goal, read aloud, cut the praise short ("Two stars! Level pas...").
    It now comes once the praise is said (here a voice that takes 4 s), never cut."""
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (390, 844))
        context.add_init_script(script=_SLOW_VOICE_JS)
        page = context.new_page()
        pid = _create(page, url, "Slow")
        stage, number, level, move = _one_move_level(escoba=False)
        page.goto(f"{url}/lessons?p={pid}&lesson={stage.key}/{number}")
        _wait_board(page, f"l:{stage.key}:{level.key}:")
        page.locator(f'.eb-card[data-id="{move.card}"]').click()  # a tap: speech may start
        for c in sorted(move.take):
            page.locator(f'.eb-card[data-id="{c}"]').click()
        played = page.evaluate("() => performance.now()")
        page.locator(".eb-play").click()
        page.wait_for_function(f"() => {{ const r = ({_ROOT_JS})(); "
                               f"return r && r.dataset.celebrating === 'true'; }}")
        _wait_board(page, f"l:{stage.key}:{stage.levels[number].key}:")
        voice = page.evaluate("() => window.__voice")
        # The praise: the first thing said once the winning move was played; the goal
        # after it. Said whole: nothing cancelled it, the goal came when it was over.
        praise, goal = [at for _text, at in voice["said"] if at > played][:2]
        report = [(text[:30], round(at)) for text, at in voice["said"]], voice["cancels"]
        # (the praise cancels the goal being said as it starts: not a cut)
        assert not [c for c in voice["cancels"] if praise + 5 < c < praise + SAYING_MS], report
        assert goal >= praise + SAYING_MS - 50, report
        context.close()
        browser.close()


def test_with_reduced_motion_the_same_success_without_movement(server, browser_type_launch_args) -> None:  # noqa: F811, E501
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (390, 844),
                                          reduced_motion="reduce")
        pid = _create(page, url, "Still")
        stage, number, level, move = _one_move_level(escoba=True)
        swept = _play_and_watch(page, url, pid, f"{stage.key}/{number}",
                                f"l:{stage.key}:{level.key}:", str(move.card),
                                [str(c) for c in sorted(move.take)], "23-escoba-reduced")
        assert "¡Escoba!" in swept["banner"] and "⭐⭐⭐" in swept["banner"]
        assert swept["broom"] == 1
        assert swept["seen"]["ghosts"] == 0 and swept["seen"]["cheers"] == 0, swept
        assert "escoba" in swept["seen"]["sounds"]
        running = page.evaluate(f"""() => ({_ROOT_JS})().getAnimations({{subtree: true}})
            .filter((a) => a.playState === 'running').length""")
        assert running == 0
        context.close()
        browser.close()


def test_a_new_child_starts_in_lesson_one_and_a_parent_can_skip(server, browser_type_launch_args) -> None:  # noqa: F811, E501
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (390, 844))
        _create(page, url, "Neo")
        first = load_stages()[0]
        assert (_board_attr(page, "position") or "").startswith(
            f"l:{first.key}:{first.levels[0].key}:")
        page.screenshot(path=str(_artifact("23-first-run-390x844.png")))
        page.get_by_role("link", name="Skip: I know the game").click()
        page.get_by_text("Welcome, Neo").wait_for()
        # Tapping the name already chosen still shows something.
        page.get_by_role("button", name="🦊 Neo").click()
        toast = page.locator("[data-testid=stToast]")
        toast.first.wait_for()
        assert "Neo" in toast.first.inner_text()
        context.close()
        browser.close()
