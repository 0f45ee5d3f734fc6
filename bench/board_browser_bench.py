"""How fast the board you tap answers in the real browser, next to a baseline (issue 11).

``streamlit run serve.py`` serves a fresh SQLite file on a free loopback port (and
a bare Streamlit page on another: a title and a button that counts its taps).
Debian's Chromium, driven by Playwright at 1024×768 (a landscape tablet),
makes a profile, starts the default new game (one computer opponent, hints
on) and plays it by tapping the board's cards, the way a child does. Every
figure is read with the page's own clock (``performance.now()``): from the
tap's ``click`` event (``event.timeStamp``, a real Playwright click) to the
first frame showing the result, taken just after that frame is painted (the
animation frame where the change is seen, then a message posted from it,
which runs once the frame's style, layout and paint are done).

- tap → highlight: a tap on a hand card, and on a table card, until that card
  is drawn pressed (``aria-pressed``) and the running sum (``.eb-readout``)
  has changed. No server round trip may happen: every WebSocket frame the page
  sends is counted, and a tap that sends one stops the bench. Baseline: a
  plain HTML button injected into the same page, whose ``onclick`` toggles a
  class and writes a number, tapped the same way right after each card;
- Play → new board: the cards of a legal move (the engine's list, read from
  the database the app writes) tapped, then Play, until the board's
  ``data-position`` has changed and it was drawn after the tap: the server's
  run, the engine's judgement, the computer's reply (its think time) and the
  new board. New rounds and games are started as needed. Baselines: "More
  help" under the hint (a rerun of the same fragment that draws the same
  board again, one step of the hint further; no move, no computer), and the
  bare page's button (a whole-page rerun that only writes the count);
- first paint of Play: a new browser context (cold cache, new session) opens
  ``/play?p=<id>`` of a profile with a game in play, until the board is drawn
  (its ``escoba-board-rendered`` mark and the first frame with its cards).
  Baseline: the bare page, opened the same way, until its title is drawn.
  The same again in a context kept across opens ("warm": a tablet that opened the
  app before, its browser cache kept, a new session each time), beside the bare
  page opened the same way in a context of its own.

Measures and baselines alternate (each board tap is followed by a baseline tap,
each Play preceded by its two baselines, each cold Play by a cold bare page),
so machine load hits both alike. The first moves and the first cold pair are
a warm-up (not counted).

    .venv/bin/python bench/board_browser_bench.py --moves 30 --cold 7

Prints one JSON object (milliseconds); figures go to docs/BENCHMARKS.md
("The board you tap (issue 11)"). About 75 s on the shared 2-core machine; part of
``make bench`` when Chromium is there.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.practice_bench import _quiet  # noqa: E402

CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
VIEWPORT = {"width": 1024, "height": 768}
#: The board component alone, with Play's data for the game of ``?p=`` and nothing
#: around it: the parts page of bench/first_paint_parts.py with no part asked.
BOARD_ALONE = ROOT / "bench" / "first_paint" / "parts_page.py"
BARE_PAGE = '''import streamlit as st

st.title("Baseline")
st.session_state.setdefault("taps", 0)


def _tap() -> None:
    st.session_state["taps"] += 1


st.button("Tap", key="tap", on_click=_tap)
st.caption(f"taps: {st.session_state['taps']}")
'''

# Installed once per page: the tap's click time, the board's root, and a probe that
# waits for a condition frame by frame and notes when that frame has been painted.
_PROBE = """() => {
  if (window.__eb) return;
  const eb = window.__eb = {click: null, done: null};
  window.addEventListener('click', (e) => { eb.click = e.timeStamp; }, true);
  eb.root = () => {
    for (const host of document.querySelectorAll('[data-testid=stBidiComponentIsolated]')) {
      const r = host.shadowRoot && host.shadowRoot.querySelector('.eb-root');
      if (r) return r;
    }
    return null;
  };
  eb.arm = (check) => {
    eb.click = null; eb.done = null;
    const tick = () => {
      let ok = false;
      try { ok = eb.click !== null && check(); } catch (err) { ok = false; }
      if (!ok) { requestAnimationFrame(tick); return; }
      const frame = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        eb.done = {click: eb.click, frame, painted: performance.now()};
      };
      channel.port2.postMessage(0);
    };
    requestAnimationFrame(tick);
  };
}"""

# Arm for a card tap: that card pressed as asked and the readout no longer what it was.
_ARM_CARD = """([id, group, pressed]) => {
  const eb = window.__eb;
  const root = eb.root();
  const before = root.querySelector('.eb-readout').textContent;
  const sel = `.eb-card[data-group="${group}"][data-id="${id}"]`;
  eb.arm(() => {
    const r = eb.root();
    const card = r.querySelector(sel);
    return card.getAttribute('aria-pressed') === pressed
      && r.querySelector('.eb-readout').textContent !== before;
  });
}"""

_BASELINE_BUTTON = """() => {
  if (document.getElementById('eb-baseline')) return;
  const b = document.createElement('button');
  b.id = 'eb-baseline';
  b.type = 'button';
  b.textContent = '0';
  b.style.cssText = 'position:fixed;left:8px;bottom:8px;width:56px;height:56px;'
    + 'z-index:2147483647;font-size:20px';
  b.onclick = () => { b.classList.toggle('on'); b.textContent = String(+b.textContent + 1); };
  document.body.appendChild(b);
}"""

_ARM_BASELINE = """() => {
  const b = document.getElementById('eb-baseline');
  const on = b.classList.contains('on');
  const text = b.textContent;
  window.__eb.arm(() => b.classList.contains('on') !== on && b.textContent !== text);
}"""

# Arm for a rerun of the board: drawn again after the tap (for Play: at a new position).
_ARM_BOARD = """(newPosition) => {
  const eb = window.__eb;
  const before = eb.root().dataset.position;
  eb.arm(() => {
    const r = eb.root();
    return r && +r.dataset.renderedAt > eb.click
      && (!newPosition || r.dataset.position !== before);
  });
}"""

_ARM_BARE = """() => {
  const eb = window.__eb;
  const caption = () => document.querySelector('[data-testid=stCaptionContainer]');
  const before = caption().textContent;
  eb.arm(() => caption() && caption().textContent !== before);
}"""

_DONE = "() => window.__eb.done"
# Which board element this is (a number given to each new one the page draws).
_BOARD_ID = """() => {
  const r = window.__eb.root();
  if (!r.__ebId) r.__ebId = (window.__eb.boards = (window.__eb.boards || 0) + 1);
  return r.__ebId;
}"""
_BOARD_STATE = """() => {
  const r = window.__eb.root();
  const play = r.querySelector('.eb-play');
  return {position: r.dataset.position, readout: r.querySelector('.eb-readout').textContent,
          pressed: [...r.querySelectorAll('.eb-card[aria-pressed=true]')].map(c => c.dataset.id),
          play_enabled: !!play && !play.disabled, rendered: r.dataset.renderedAt,
          tapped: r.dataset.tapped, now: performance.now()};
}"""

# The board is up and the child may move: cards to tap, Play there, nothing running.
_READY = """() => {
  const r = window.__eb && window.__eb.root();
  return !!r && !!r.querySelector('.eb-play') && !r.querySelector('.eb-play[aria-busy=true]')
    && !!r.querySelector('.eb-card[data-group=hand]:not(.eb-still)')
    && !document.querySelector('[data-testid="stStatusWidget"]');
}"""
_ROUND_OVER = """() => {
  const r = window.__eb && window.__eb.root();
  return !!r && !r.querySelector('.eb-play');
}"""

_COLD_BOARD = """() => {
  for (const host of document.querySelectorAll('[data-testid=stBidiComponentIsolated]')) {
    const r = host.shadowRoot && host.shadowRoot.querySelector('.eb-root');
    if (r && r.dataset.renderedAt && r.querySelector('.eb-card')) {
      const mark = performance.getEntriesByName('escoba-board-rendered')[0];
      return {frame: performance.now(), mark: mark ? mark.startTime : null};
    }
  }
  return null;
}"""
_COLD_TITLE = "() => document.querySelector('h1') && {frame: performance.now()}"
_FCP = """() => {
  const e = performance.getEntriesByName('first-contentful-paint')[0];
  return e ? e.startTime : null;
}"""


def bench_folder(prefix: str) -> tuple[Path, Path, dict[str, str]]:
    """A fresh folder with the bare page's script, and the servers' environment: a new
    SQLite file there, no database URL, no fixed clock."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    bare = work / "bare.py"
    bare.write_text(BARE_PAGE)
    env = dict(os.environ, ESCOBA_DB_PATH=str(work / "bench.db"))
    env.pop("ESCOBA_DATABASE_URL", None)
    env.pop("ESCOBA_NOW", None)
    return work, bare, env


def start_new_game(page: Any) -> None:
    """The new-game form's default game started, and its board ready for a move."""
    page.locator(".st-key-start_game button").click()
    page.evaluate(_PROBE)
    page.wait_for_function(_READY)


def new_profile_with_game(page: Any, url: str, name: str) -> int:
    """A profile made on the app's first page as a child makes it, and a new game: its
    id."""
    page.goto(url)
    page.get_by_role("textbox", name="Nickname").fill(name)
    page.get_by_role("button", name="Create my profile").click()
    # A new child starts in lesson 1; a parent's skip leads back (issue 23).
    page.get_by_role("link", name="Skip: I know the game").click()
    page.get_by_text(f"Welcome, {name}").wait_for()
    page.get_by_role("link", name="Go and play").first.click()
    start_new_game(page)
    return int(page.url.split("p=", 1)[1].split("&")[0])


def opened_in(context: Any, address: str, drawn: str) -> tuple[Any, float]:
    """``address`` opened in a new page of ``context`` (a new session), until ``drawn``
    (``_COLD_BOARD``, ``_COLD_TITLE``) holds: what it returned, and the page's first
    contentful paint."""
    page = context.new_page()
    page.goto(address)
    done = page.wait_for_function(drawn, timeout=60_000).json_value()
    fcp = page.wait_for_function(_FCP, timeout=60_000).json_value()
    page.close()
    return done, fcp


def opened_cold(browser: Any, address: str, drawn: str,
                viewport: dict[str, int] = VIEWPORT) -> tuple[Any, float]:
    """:func:`opened_in` a new context of ``browser``: an empty cache, a new session."""
    context = browser.new_context(viewport=viewport, locale="en-US")
    try:
        return opened_in(context, address, drawn)
    finally:
        context.close()


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def _p95(values: list[float]) -> float:
    """The nearest-rank 95th percentile (of 30 values: the 29th smallest)."""
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)], 1)


class FrameCounter:
    """Every WebSocket frame a page sends (Streamlit's BackMsgs: a rerun, a widget's
    value, a component's state): a tap that needs no server sends none."""

    def __init__(self, page: Any) -> None:
        self.sent = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framesent", self._frame)

    def _frame(self, _payload: Any) -> None:
        self.sent += 1


def _game_in_play(db: Path, profile_id: int):
    """The profile's game as the app saved it (the engine replayed), or None."""
    import sqlalchemy as sa

    from escoba.record import replay
    from trainer.storage import Storage

    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        store = Storage(engine, migrate=False)
        row = store.active_game(profile_id)
        return None if row is None else replay(store.complete_record(row)).game
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="Play taps measured")
    parser.add_argument("--warmup", type=int, default=3, help="moves played first, not counted")
    parser.add_argument("--cold", type=int, default=7, help="cold opens of each page")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.conftest import streamlit_server

    _quiet()
    began = time.perf_counter()
    work, bare, env = bench_folder("board-bench-")
    db = Path(env["ESCOBA_DB_PATH"])

    times: dict[str, list[float]] = {k: [] for k in (
        "tap_hand", "tap_table", "tap_baseline", "play", "more_help", "bare_rerun",
        "cold_board", "cold_board_mark", "cold_fcp", "bare_cold_title", "bare_cold_fcp",
        "warm_board", "bare_warm_title", "alone_cold_board", "alone_warm_board")}
    rounds = games = 0
    with streamlit_server(ROOT / "serve.py", env, work / "app.log", 90) as url, \
            streamlit_server(bare, env, work / "bare.log", 90) as bare_url, \
            streamlit_server(BOARD_ALONE, env, work / "alone.log", 90) as alone_url, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=VIEWPORT, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(60_000)
        frames = FrameCounter(page)

        # A second profile with a game in play, for the cold opens (nobody moves in it).
        other = browser.new_context(viewport=VIEWPORT, locale="en-US")
        cold_id = new_profile_with_game(other.new_page(), url, "Cold")
        other.close()
        pid = new_profile_with_game(page, url, "Ana")

        bare_page = browser.new_context(viewport=VIEWPORT, locale="en-US").new_page()
        bare_page.set_default_timeout(60_000)
        bare_page.goto(bare_url)
        bare_page.get_by_text("taps: 0").wait_for()
        bare_page.evaluate(_PROBE)

        play_frames: list[int] = []

        def measure(target: Any, arm: str, arg: Any, tap: Any, server: bool) -> float:
            """Arm the probe on ``target``'s page, tap, wait: ms from the click to the
            painted frame showing the result. ``server``: whether the tap may talk to
            the server (a card tap may not send a single WebSocket frame)."""
            target.evaluate(arm, arg)
            sent = frames.sent
            tap()
            done = target.wait_for_function(_DONE, timeout=60_000).json_value()
            if not server and frames.sent != sent:
                raise AssertionError(f"a tap sent {frames.sent - sent} WebSocket frame(s)")
            if server and target is page:
                play_frames.append(frames.sent - sent)
            return done["painted"] - done["click"]

        def card(id_: str, group: str):
            return page.locator(f'.eb-card[data-group="{group}"][data-id="{id_}"]')

        def tap_card(id_: str, group: str, pressed: bool) -> tuple[float, float]:
            """A tap on a card, then one on the baseline button: (card ms, baseline ms)."""
            value = measure(page, _ARM_CARD, [id_, group, "true" if pressed else "false"],
                            card(id_, group).click, False)
            baseline = measure(page, _ARM_BASELINE, None,
                               page.locator("#eb-baseline").click, False)
            return value, baseline

        played = remounts = 0
        deadline = time.monotonic() + 60 * 30
        while played < args.warmup + args.moves:
            assert time.monotonic() < deadline, "the bench is stuck"
            game = _game_in_play(db, pid)
            if game is None or game.is_over:
                page.locator(".st-key-new_game_after button").click()
                start_new_game(page)
                games += 1
                continue
            if game.round.is_over:
                page.wait_for_function(_ROUND_OVER)
                page.locator(".st-key-next_round button").click()
                page.wait_for_function(_READY)
                rounds += 1
                continue
            page.wait_for_function(_READY)
            page.wait_for_timeout(150)  # let the new board's animations start
            page.evaluate(_BASELINE_BUTTON)
            counted = played >= args.warmup
            moves = game.round.legal_moves()
            captures = [m for m in moves if m.take]
            move = max(captures or moves, key=lambda m: (len(m.take), str(m.card)))
            table = [str(c) for c in game.round.table]
            samples: list[tuple[str, float]] = []
            # Baselines of Play first: "More help" (the same fragment, the same board
            # drawn again) when the hint has a step left, and the bare page's button.
            # (Before the taps: a rerun that takes a message away from above the board
            # draws a new board, and the cards picked would be lost.)
            more = page.locator(".st-key-hint_more button")
            if more.count():
                board = page.evaluate(_BOARD_ID)
                samples.append(("more_help", measure(page, _ARM_BOARD, False, more.click,
                                                     True)))
                page.wait_for_function(_READY)
                remounts += page.evaluate(_BOARD_ID) != board
            samples.append(("bare_rerun", measure(
                bare_page, _ARM_BARE, None, bare_page.locator(".st-key-tap button").click,
                True)))
            # The hand card, then table cards: the move's, or (a card laid) one
            # tapped on and off again.
            value, base = tap_card(str(move.card), "hand", True)
            samples += [("tap_hand", value), ("tap_baseline", base)]
            taps = [(str(c), True) for c in sorted(move.take)] or (
                [(table[0], True), (table[0], False)] if table else [])
            for id_, pressed in taps:
                value, base = tap_card(id_, "table", pressed)
                samples += [("tap_table", value), ("tap_baseline", base)]
            state = page.evaluate(_BOARD_STATE)
            if not state["play_enabled"]:
                raise AssertionError(f"Play is not enabled for {move}: {state}")
            samples.append(("play", measure(page, _ARM_BOARD, True,
                                            page.locator(".eb-play").click, True)))
            played += 1
            if counted:
                for name, value in samples:
                    times[name].append(value)
            print(f"move {played}{'' if counted else ' (warm-up)'} {move}: "
                  + ", ".join(f"{k} {v:.0f}" for k, v in samples), file=sys.stderr)
        frames_during_taps = 0  # measure() raised otherwise
        # The counter does see the page's socket: every Play and More help sent frames.
        assert play_frames and min(play_frames) > 0, play_frames

        # A tablet that opened the app before: its cache kept, a new session each time.
        kept_app, kept_bare, kept_alone = (
            browser.new_context(viewport=VIEWPORT, locale="en-US") for _ in range(3))
        for run in range(args.cold + 1):
            board, board_fcp = opened_cold(browser, f"{url}/play?p={cold_id}", _COLD_BOARD)
            title, title_fcp = opened_cold(browser, f"{bare_url}/", _COLD_TITLE)
            warm_board, _ = opened_in(kept_app, f"{url}/play?p={cold_id}", _COLD_BOARD)
            warm_title, _ = opened_in(kept_bare, f"{bare_url}/", _COLD_TITLE)
            alone, _ = opened_cold(browser, f"{alone_url}/?p={cold_id}", _COLD_BOARD)
            warm_alone, _ = opened_in(kept_alone, f"{alone_url}/?p={cold_id}", _COLD_BOARD)
            results = [("cold_board", board["frame"]), ("cold_board_mark", board["mark"]),
                       ("cold_fcp", board_fcp), ("bare_cold_title", title["frame"]),
                       ("bare_cold_fcp", title_fcp), ("warm_board", warm_board["frame"]),
                       ("bare_warm_title", warm_title["frame"]),
                       ("alone_cold_board", alone["frame"]),
                       ("alone_warm_board", warm_alone["frame"])]
            if run:
                for name, value in results:
                    times[name].append(value)
            print(f"cold {run}{'' if run else ' (warm-up)'}: "
                  + ", ".join(f"{k} {v:.0f}" for k, v in results), file=sys.stderr)
        browser.close()

    medians = {k: _median(v) for k, v in times.items() if v}
    p95 = {k: _p95(v) for k, v in times.items() if v}
    print(json.dumps({
        "python": platform.python_version(), "viewport": VIEWPORT,
        "moves": len(times["play"]), "rounds_started": rounds, "games_started": games,
        "cold_runs": args.cold, "ws_frames_sent_by_taps": frames_during_taps,
        "ws_frames_sent_by_a_rerun": [min(play_frames), max(play_frames)],
        "boards_redrawn_new_by_more_help": remounts,
        "samples": {k: len(v) for k, v in times.items()},
        "median_ms": medians, "p95_ms": p95,
        "range_ms": {k: [round(min(v)), round(max(v))] for k, v in times.items() if v},
        "minus_baseline_ms": {
            "tap_hand": round(medians["tap_hand"] - medians["tap_baseline"], 1),
            "tap_table": round(medians["tap_table"] - medians["tap_baseline"], 1),
            "play_vs_more_help": round(medians["play"] - medians["more_help"], 1),
            "play_vs_bare_rerun": round(medians["play"] - medians["bare_rerun"], 1),
            "cold_board": round(medians["cold_board"] - medians["bare_cold_title"], 1),
            "warm_board": round(medians["warm_board"] - medians["bare_warm_title"], 1),
            # The board component alone (BOARD_ALONE): what it costs itself.
            "alone_cold_board": round(medians["alone_cold_board"]
                                      - medians["bare_cold_title"], 1),
            "alone_warm_board": round(medians["alone_warm_board"]
                                      - medians["bare_warm_title"], 1)},
        "goals_ms": {"tap_p95_under": 50, "play_p95_under": 300, "cold_median_under": 1500},
        "seconds": round(time.perf_counter() - began),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }, indent=1))


if __name__ == "__main__":
    main()
