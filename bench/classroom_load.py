"""A class of 30 on the real running server: pupils tapping, a teacher watching (issue 13).

``streamlit run app.py`` serves a fresh database on a free loopback port: a SQLite
file (``ESCOBA_DB_PATH``) or a new PostgreSQL database (``ESCOBA_DATABASE_URL``: on
``ESCOBA_TEST_POSTGRES_URL``'s server when set, as ``.ci/run`` does, else on a
throwaway PostgreSQL 15 cluster started here). The class is made through the core
API, as the teacher's pages will: :class:`trainer.classroom.TeacherAuth` makes a
teacher, :class:`~trainer.classroom.Classroom` a class, 30 pupils with their PINs
(``generate_pupils``) and one assignment (each pupil's weakest facts).

Then every pupil is a Playwright browser context (a tablet of its own: cookies,
session, page) in one headless Chromium (Debian's, ``--browsers N`` spreads the
contexts over N Chromium processes). Each signs in (:func:`sign_in`: the app's PIN
flow), waits for the whole class to be in, and plays until the time is up, taking
turns: a round of quick facts (5 questions, about 85 % answered right), then two
"for me" puzzles solved on the board by tapping the cards of each set and Add
(sometimes a wrong set first, sometimes "I've found them all" with one set
missing), then quick facts again, moving between the pages by the sidebar as a
child does. A child thinks between taps: ``--think`` seconds (uniform, default 1-3).

Measured with the page's own clock (``performance.now()``), as in
``bench/board_browser_bench.py``: every tap that asks the server something, from
the tap's ``click`` event to the first painted frame that shows the answer (a
quick fact: the next question, or the round's end, no longer stale; Add: the board
drawn again at its next position; "I've found them all": the result; Next puzzle:
the new board; a menu entry: the new page). Meanwhile:

- the teacher's dashboard, in a process of its own against the same database:
  ``Classroom.snapshot`` + ``dashboard`` + ``fact_grid`` every ``--dashboard-every``
  seconds, each timed (there is no teacher page in the app yet, so no browser
  context loads one: the figures are the core's calls a page would make);
- the CPU time of the server process, of the Chromium processes, of this driver
  and of the dashboard process, the whole machine's busy share and its load
  average, sampled every second from /proc;
- at the end, the ``attempts`` rows of each pupil, counted in the database,
  against the answers that pupil gave (a quick fact whose next screen came, a
  puzzle whose result was shown): none may be missing, none doubled.

    .venv/bin/python bench/classroom_load.py --database sqlite,postgres --pupils 30 \\
        --seconds 180

Prints one JSON object per database (milliseconds unless named otherwise); the
figures go to docs/BENCHMARKS.md ("A class of 30 (issue 13)").
``tests/test_classroom_load.py`` runs a short version and checks the counts only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic",
                 # 30 tablets in one browser: none of them is "in the background".
                 "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                 "--disable-backgrounding-occluded-windows"]
VIEWPORT = {"width": 1024, "height": 768}  # a landscape tablet
TEACHER = ("Ms Load", "chalk and thirty tablets")
CAPTURE_SUM = 15
#: A screen that has not come after this long is a failure (counted, not waited for).
SCREEN_TIMEOUT = 60.0
TICKS = os.sysconf("SC_CLK_TCK")

# Installed once per page: the tap's click time, and a probe that waits, frame by
# frame, for the screen a tap asks for, then notes when that frame has been painted.
_PROBE = """() => {
  if (window.__cl) return;
  const cl = window.__cl = {click: null, armed: false, pending: null};
  window.addEventListener('click', (e) => {
    if (cl.armed && cl.click === null) cl.click = e.timeStamp;
  }, true);
  cl.board = () => {
    for (const host of document.querySelectorAll('[data-testid=stBidiComponentIsolated]')) {
      const r = host.shadowRoot && host.shadowRoot.querySelector('.eb-root');
      if (r) return r;
    }
    return null;
  };
  // An element drawn by the current run (a rerun marks the previous run's stale).
  cl.live = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const box = el.closest('[data-testid=stElementContainer]');
    return box && box.getAttribute('data-stale') === 'true' ? null : el;
  };
  cl.state = () => {
    const app = document.querySelector('[data-testid=stApp]');
    return app ? app.getAttribute('data-test-script-state') : null;
  };
  cl.qf = () => {
    const q = document.querySelector('[data-testid=qf-question]');
    const caps = [...document.querySelectorAll('[data-testid=stCaptionContainer]')]
      .map((c) => c.textContent).join('|');
    return caps + '#' + (q ? q.textContent : '') + '#'
      + (document.querySelector('.st-key-qf_again') ? 'again' : '');
  };
  cl.qfDrawn = () => !!cl.live('[data-testid=qf-question]') || !!cl.live('.st-key-qf_again button');
  cl.title = () => { const h = document.querySelector('h1'); return h ? h.textContent : ''; };
  cl.snap = () => {
    const r = cl.board();
    return {qf: cl.qf(), position: r ? r.dataset.position : null, title: cl.title()};
  };
  const drawnAfterTap = (r) => !!r && +r.dataset.renderedAt > cl.click;
  cl.checks = {
    qf: (b) => cl.qf() !== b.qf && cl.qfDrawn(),
    board: (b) => {
      const r = cl.board();
      return drawnAfterTap(r) && r.dataset.position !== b.position;
    },
    result: (b) => !!cl.live('.st-key-pz_next button'),
    nav_qf: (b) => cl.title() !== b.title && cl.qfDrawn(),
    nav_pz: (b) => cl.title() !== b.title && drawnAfterTap(cl.board()),
  };
  cl.arm = (kind) => {
    const before = cl.snap();
    const check = cl.checks[kind];
    cl.click = null;
    cl.armed = true;
    cl.pending = new Promise((resolve) => {
      const tick = () => {
        let ok = false;
        try { ok = cl.click !== null && check(before); } catch (err) { ok = false; }
        if (!ok) { requestAnimationFrame(tick); return; }
        const frame = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          cl.armed = false;
          resolve({click: cl.click, frame, painted: performance.now()});
        };
        channel.port2.postMessage(0);
      };
      requestAnimationFrame(tick);
    });
  };
  cl.wait = () => cl.pending;
  // The run is over (a few checks in a row): the next tap is not an interruption.
  cl.idle = () => new Promise((resolve) => {
    let n = 0;
    const timer = setInterval(() => {
      if (cl.state() === 'notRunning') {
        if (++n >= 3) { clearInterval(timer); resolve(true); }
      } else { n = 0; }
    }, 40);
  });
}"""

_BOARD_CARDS = """() => {
  const r = window.__cl.board();
  if (!r) return null;
  const cards = (g) => [...r.querySelectorAll(`.eb-card[data-group="${g}"]`)].map((c) => ({
    id: c.dataset.id, still: c.classList.contains('eb-still'),
    pressed: c.getAttribute('aria-pressed') === 'true'}));
  return {table: cards('table'), hand: cards('hand'), position: r.dataset.position,
          interactive: !!r.querySelector('.eb-play')};
}"""


# -- the class, made through the core API ---------------------------------------------

@dataclass(frozen=True)
class Pupil:
    profile_id: int
    nickname: str
    pin: str


@dataclass(frozen=True)
class ClassSetup:
    database_url: str
    class_id: int
    pupils: tuple[Pupil, ...]
    teacher: tuple[str, str] = TEACHER


def open_storage(database_url: str, *, migrate: bool = True):
    """The project's :class:`~trainer.storage.Storage` on ``database_url`` (as the app's)."""
    import sqlalchemy as sa

    from trainer.storage import Storage, configure_sqlite

    engine = sa.create_engine(database_url)
    configure_sqlite(engine)
    return Storage(engine, migrate=migrate)


def make_class(database_url: str, pupils: int) -> ClassSetup:
    """A teacher, a class, ``pupils`` pupils with their PINs and one assignment, through
    :class:`~trainer.classroom.TeacherAuth` and :class:`~trainer.classroom.Classroom`."""
    from trainer.classroom import Classroom, TeacherAuth

    store = open_storage(database_url)
    try:
        session = TeacherAuth(store).create_account(*TEACHER)
        room = Classroom(store, session)
        info = room.create_class("Load 3B", fluency_seconds=6, capture_sum=CAPTURE_SUM)
        added = room.generate_pupils(info.id, pupils, "en")
        assert not added.refused and len(added.added) == pupils, added.refused
        room.create_assignment(info.id, "weakest", {"count": 5, "capture_sum": CAPTURE_SUM},
                               due=date.today())
        return ClassSetup(database_url, info.id, tuple(
            Pupil(p.profile_id, p.nickname, str(p.pin)) for p in added.added))
    finally:
        store.engine.dispose()


def attempts_per_pupil(database_url: str, profile_ids: list[int]) -> dict[int, Counter]:
    """The ``attempts`` rows of each pupil, by kind ("quick-facts", or a puzzle kind)."""
    import sqlalchemy as sa

    from trainer.storage.schema import attempts

    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.select(attempts.c.profile_id, attempts.c.kind, sa.func.count())
                .where(attempts.c.profile_id.in_(profile_ids))
                .group_by(attempts.c.profile_id, attempts.c.kind)).all()
    finally:
        engine.dispose()
    found: dict[int, Counter] = {pid: Counter() for pid in profile_ids}
    for pid, kind, count in rows:
        found[pid][kind] += count
    return found


# -- the teacher's dashboard, in a process of its own --------------------------------

def _dashboard_loop(database_url: str, class_id: int, period: float, stop: Any,
                    out: Any) -> None:
    """Refresh the class's dashboard and fact grid every ``period`` s until ``stop``."""
    from trainer.classroom import Classroom, TeacherAuth

    store = open_storage(database_url, migrate=False)
    session = TeacherAuth(store).sign_in(*TEACHER)
    room = Classroom(store, session)
    samples: list[dict[str, float]] = []
    cpu0 = time.process_time()
    while not stop.is_set():
        began = time.perf_counter()
        cpu = time.process_time()
        snap = room.snapshot(class_id)
        read = time.perf_counter()
        rows = room.dashboard(snap, date.today())
        shown = time.perf_counter()
        grid = room.fact_grid(snap)
        ended = time.perf_counter()
        samples.append({
            "total": (ended - began) * 1000, "snapshot": (read - began) * 1000,
            "dashboard": (shown - read) * 1000, "fact_grid": (ended - shown) * 1000,
            "cpu": (time.process_time() - cpu) * 1000,
            "attempts": sum(len(a) for a in snap.attempts.values()),
            "rows": len(rows), "grid_rows": len(grid.rows)})
        stop.wait(max(0.0, period - (ended - began)))
    store.engine.dispose()
    out.put({"samples": samples, "cpu_seconds": time.process_time() - cpu0})


# -- CPU and load, from /proc ---------------------------------------------------------

def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds: user + system) of a live process, or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _proc_stat(int(entry))
            if stat is not None:
                parents[int(entry)] = stat[0]
    found, frontier = set(), {root}
    while frontier:
        found |= frontier
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
    return found - {root}


def _machine() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


class CpuMeter:
    """CPU seconds of the server, of this driver, of its other child processes (the
    browsers and their Playwright driver), of the dashboard process, and of the whole
    machine, between :meth:`start` and :meth:`stop`; the load average every second."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.dashboard_pid: int | None = None
        self.loads: list[float] = []
        self._seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _groups(self) -> dict[str, float]:
        me = os.getpid()
        totals = defaultdict(float)
        for pid in _descendants(me) | {me}:
            stat = _proc_stat(pid)
            if stat is None:
                continue
            self._seen[pid] = stat[1]
        for pid, seconds in self._seen.items():
            if pid == self.server_pid:
                totals["server"] += seconds
            elif pid == self.dashboard_pid:
                totals["dashboard"] += seconds
            elif pid == me:
                totals["driver"] += seconds
            else:
                totals["browsers"] += seconds
        return totals

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            self.loads.append(os.getloadavg()[0])
            self._groups()

    def start(self) -> None:
        self._start = self._groups()
        self._machine0 = _machine()
        self._wall0 = time.monotonic()
        self.loads.append(os.getloadavg()[0])
        self._thread.start()

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join()
        end = self._groups()
        wall = time.monotonic() - self._wall0
        busy, total = _machine()
        used = {k: round(end[k] - self._start.get(k, 0.0), 1) for k in end}
        return {
            "wall_seconds": round(wall, 1),
            "cpu_seconds": used,
            "cores_busy": {k: round(v / wall, 2) for k, v in used.items()},
            "machine_busy_share": round((busy - self._machine0[0])
                                        / max(1e-9, total - self._machine0[1]), 2),
            "load_average_1min": {"start": round(self.loads[0], 2),
                                  "max": round(max(self.loads), 2),
                                  "mean": round(statistics.fmean(self.loads), 2)},
        }


# -- the server -----------------------------------------------------------------------

@contextlib.contextmanager
def serve(env: dict[str, str], log: Path, timeout: float = 120,
          profile_to: Path | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """``streamlit run app.py`` headless on a free loopback port: (url, process).
    ``profile_to``: run it under :mod:`bench.profiled_streamlit` (cProfile of every
    thread, written there when the server stops)."""
    from tests.conftest import free_port

    port = free_port()
    command = [sys.executable, "-m", "streamlit"]
    if profile_to is not None:
        command = [sys.executable, str(ROOT / "bench" / "profiled_streamlit.py"),
                   str(profile_to)]
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [*command, "run", str(ROOT / "app.py"), "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                        if r.read() == b"ok":
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not start; see {log}")
                time.sleep(0.25)
            yield url, proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new empty PostgreSQL database, dropped afterwards: on ESCOBA_TEST_POSTGRES_URL's
    server, else on a throwaway cluster (tests/conftest.py's)."""
    import sqlalchemy as sa

    from tests.conftest import PG_BIN, _start_cluster

    server, stop = os.environ.get("ESCOBA_TEST_POSTGRES_URL"), None
    if not server:
        if not (PG_BIN / "initdb").exists():
            raise RuntimeError("no PostgreSQL: set ESCOBA_TEST_POSTGRES_URL or install "
                               "postgresql-15")
        server, stop = _start_cluster()
    name = "escoba_load_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with admin.connect() as conn:
                    conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
                break
            except sa.exc.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield sa.engine.make_url(server).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
        if stop is not None:
            stop()


# -- one pupil on one tablet ----------------------------------------------------------

async def sign_in(page: Any, url: str, pupil: Pupil) -> None:
    """Open the app as this pupil and type the PIN: the app's PIN flow of issue 10.

    A link (``/quick_facts?p=<id>``) to a protected profile opens nothing by itself: the
    page asks who is playing, "Choose a player" shows the PIN form, the PIN opens the
    profile. The one place to change when the class's own sign-in ("My class": the
    class code, the pupil's picture, a PIN pad) is in the app.
    """
    await page.goto(f"{url}/quick_facts?p={pupil.profile_id}")
    await page.get_by_role("link", name="Choose a player").click()
    await page.locator(".st-key-pin_entry input").fill(pupil.pin)
    await page.get_by_role("button", name="Open", exact=True).click()
    await page.get_by_text("Playing as").first.wait_for()


@dataclass
class PupilLog:
    """What one client did: its samples, the answers it gave, what went wrong."""

    pupil: Pupil
    samples: list[tuple[str, float, float]] = field(default_factory=list)  # kind, ms, at
    quick_answers: int = 0  # quick facts whose next screen came
    puzzles_done: int = 0  # puzzles whose result was shown
    sets_added: int = 0
    unconfirmed: Counter = field(default_factory=Counter)  # taps whose screen never came
    errors: list[str] = field(default_factory=list)
    sign_in_seconds: float | None = None

    @property
    def answers(self) -> int:
        return self.quick_answers + self.puzzles_done


class Tablet:
    """One pupil's browser context, playing until the deadline."""

    def __init__(self, page: Any, url: str, pupil: Pupil, rng: random.Random,
                 think: tuple[float, float], log: PupilLog) -> None:
        self.page, self.url, self.pupil, self.rng, self.think = page, url, pupil, rng, think
        self.log = log

    async def pause(self) -> None:
        """A child's think time, then the app's run over (no tap interrupts a run)."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        await asyncio.wait_for(self.page.evaluate("() => window.__cl.idle()"), SCREEN_TIMEOUT)

    async def tap(self, kind: str, check: str, target: Any) -> bool:
        """Tap ``target`` and time it until the screen ``check`` names is painted."""
        await self.page.evaluate("(k) => window.__cl.arm(k)", check)
        await target.click(timeout=SCREEN_TIMEOUT * 1000)
        try:
            done = await asyncio.wait_for(self.page.evaluate("() => window.__cl.wait()"),
                                          SCREEN_TIMEOUT)
        except TimeoutError:
            self.log.unconfirmed[kind] += 1
            raise
        self.log.samples.append((kind, done["painted"] - done["click"], time.monotonic()))
        return True

    async def open_page(self, name: str) -> None:
        check = "nav_qf" if name == "quick_facts" else "nav_pz"
        link = self.page.locator(f'[data-testid=stSidebarNav] a[href$="/{name}"]')
        await self.tap(check, check, link)

    async def quick_round(self) -> None:
        """One round of quick facts: 5 questions (or what is left of the round)."""
        page = self.page
        while True:
            await self.pause()
            if await page.locator(".st-key-qf_again button").count():
                await self.tap("qf_again", "qf", page.locator(".st-key-qf_again button"))
                return
            question = await page.get_by_test_id("qf-question").text_content()
            right = _quick_answer(question or "")
            value = right if self.rng.random() < 0.85 else self.rng.choice(
                [n for n in range(1, 11) if n != right])
            await self.tap("qf_answer", "qf", page.locator(f".st-key-qf_n_{value} button"))
            self.log.quick_answers += 1

    async def puzzle(self) -> None:
        """One "for me" puzzle, solved set by set on the board, then Next puzzle."""
        from escoba import Card
        from puzzles import from_cards

        page = self.page
        await self.pause()
        board = await page.evaluate(_BOARD_CARDS)
        if board is None or not board["interactive"]:
            raise RuntimeError(f"no board to play on: {board}")
        hand = [c["id"] for c in board["hand"]]
        fixed = len(hand) == 1 and board["hand"][0]["still"]
        kind = "fifteens" if not hand else "captures" if fixed else "hand"
        puzzle = from_cards(kind, [Card.parse(c["id"]) for c in board["table"]],
                            [Card.parse(c) for c in hand], CAPTURE_SUM)
        sets = [(None if fixed or s.card is None else str(s.card), [str(c) for c in s.take])
                for s in puzzle.solutions]
        self.rng.shuffle(sets)
        if sets and self.rng.random() < 0.15:  # a wrong set first: feedback, try again
            wrong = _a_wrong_set(board, puzzle, fixed, self.rng)
            if wrong is not None:
                sets.insert(0, wrong)
        if len(sets) > 1 and self.rng.random() < 0.1:  # one set missed: "found them all"
            sets.pop()
        finished = False
        for number, (card, take) in enumerate(sets):
            if number:
                await self.pause()
            for code in ([card] if card else []) + take:
                await page.locator(f'.eb-card[data-id="{code}"]').click()
            await self.tap("pz_add", "board", page.locator(".eb-play"))
            self.log.sets_added += 1
            await asyncio.wait_for(page.evaluate("() => window.__cl.idle()"), SCREEN_TIMEOUT)
            if await page.locator(".st-key-pz_next button").count():
                finished = True
                break
        if not finished:
            await self.pause()
            button = ".st-key-pz_none button" if kind == "captures" and not puzzle.solutions \
                else ".st-key-pz_done button"
            await self.tap("pz_finish", "result", page.locator(button))
        self.log.puzzles_done += 1
        await self.pause()
        await self.tap("pz_next", "board", page.locator(".st-key-pz_next button"))

    async def play(self, deadline: float, start_with_puzzles: bool) -> None:
        """Quick facts and puzzles in turn until ``deadline`` (``time.monotonic``)."""
        on_puzzles = start_with_puzzles
        while time.monotonic() < deadline:
            if on_puzzles:
                await self.open_page("puzzles")
                for _ in range(2):
                    if time.monotonic() >= deadline:
                        break
                    await self.puzzle()
            else:
                await self.open_page("quick_facts")
                await self.quick_round()
            on_puzzles = not on_puzzles


def _quick_answer(question: str) -> int:
    """The missing number of ``"3 + 5 + ? = 15"``."""
    left, total = question.split("=")
    return int(total) - sum(int(p) for p in left.replace("?", "0").split("+"))


def _a_wrong_set(board: dict[str, Any], puzzle: Any, fixed: bool,
                 rng: random.Random) -> tuple[str | None, list[str]] | None:
    """Two table cards (with the hand card where one is picked) that do not make the sum."""
    from escoba import Card

    table = [c["id"] for c in board["table"]]
    hands = [None] if fixed or not board["hand"] else [c["id"] for c in board["hand"]]
    card = rng.choice(hands)
    extra = Card.parse(board["hand"][0]["id"]).value if fixed else \
        Card.parse(card).value if card else 0
    pairs = [(a, b) for i, a in enumerate(table) for b in table[i + 1:]
             if Card.parse(a).value + Card.parse(b).value + extra != puzzle.capture_sum]
    return (card, list(rng.choice(pairs))) if pairs else None


# -- the whole class -----------------------------------------------------------------

async def _run_pupils(url: str, setup: ClassSetup, seconds: float, think: tuple[float, float],
                      browsers: int, seed: int, meter: CpuMeter,
                      started: asyncio.Event | None = None) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    logs = [PupilLog(p) for p in setup.pupils]
    window: dict[str, Any] = {}
    async with async_playwright() as pw:
        engines = [await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                   for _ in range(browsers)]
        signed_in = 0
        all_in = asyncio.Event()

        async def pupil(index: int, log: PupilLog) -> None:
            nonlocal signed_in
            browser = engines[index % len(engines)]
            context = await browser.new_context(viewport=VIEWPORT, locale="en-US")
            page = await context.new_page()
            page.set_default_timeout(SCREEN_TIMEOUT * 1000)
            rng = random.Random(f"{seed}-{index}")
            tablet = Tablet(page, url, log.pupil, rng, think, log)
            began = time.monotonic()
            for _ in range(2):
                try:
                    await sign_in(page, url, log.pupil)
                    log.sign_in_seconds = time.monotonic() - began
                    break
                except Exception as err:  # counted and reported
                    log.errors.append(f"sign-in: {type(err).__name__}: {err}".splitlines()[0])
            await page.evaluate(_PROBE)
            signed_in += 1
            if signed_in == len(logs):
                window["start"] = time.monotonic()
                meter.start()
                if started is not None:
                    started.set()
                all_in.set()
            await all_in.wait()
            deadline = window["start"] + seconds
            restarts = 3
            while log.sign_in_seconds is not None and time.monotonic() < deadline and restarts:
                try:
                    await tablet.play(deadline, start_with_puzzles=index % 2 == 1)
                except Exception as err:  # counted; the tablet starts again
                    restarts -= 1
                    log.errors.append(f"{type(err).__name__}: {err}".splitlines()[0][:300])
                    with contextlib.suppress(Exception):
                        await sign_in(page, url, log.pupil)
                        await page.evaluate(_PROBE)
            await context.close()

        await asyncio.gather(*(pupil(i, log) for i, log in enumerate(logs)))
        window["end"] = time.monotonic()
        for browser in engines:
            await browser.close()
    return {"logs": logs, **window}


def _nearest_rank(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(statistics.median(values)),
            "p95": round(_nearest_rank(values, 0.95)), "max": round(max(values))}


ANSWER_TAPS = ("qf_answer", "pz_add", "pz_finish")


def run_class(database_url: str, env: dict[str, str], *, pupils: int = 30,
              seconds: float = 180, think: tuple[float, float] = (1.0, 3.0),
              browsers: int = 1, dashboard_every: float = 2.0, seed: int = 13,
              work: Path | None = None, profile_to: Path | None = None) -> dict[str, Any]:
    """The whole load test on one database (the server started here with ``env``)."""
    work = work or Path(tempfile.mkdtemp(prefix="classload-"))
    setup = make_class(database_url, pupils)
    ctx = multiprocessing.get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    with serve(env, work / "streamlit.log", profile_to=profile_to) as (url, server):
        meter = CpuMeter(server.pid)
        dashboard = ctx.Process(target=_dashboard_loop, daemon=True,
                                args=(database_url, setup.class_id, dashboard_every, stop, out))

        async def drive() -> dict[str, Any]:
            started = asyncio.Event()

            async def teacher() -> None:
                await started.wait()
                dashboard.start()
                meter.dashboard_pid = dashboard.pid

            task = asyncio.create_task(teacher())
            result = await _run_pupils(url, setup, seconds, think, browsers, seed, meter,
                                       started)
            await task
            return result

        result = asyncio.run(drive())
        stop.set()
        teacher = out.get(timeout=120)
        dashboard.join(timeout=30)
        cpu = meter.stop()
        time.sleep(1.0)  # the last writes are committed before the count
        counted = attempts_per_pupil(database_url, [p.profile_id for p in setup.pupils])
    logs: list[PupilLog] = result["logs"]
    window = (result["start"], result["start"] + seconds)
    steady = [(k, ms) for log in logs for k, ms, at in log.samples
              if window[0] <= at <= window[1]]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, ms in steady:
        by_kind[kind].append(ms)
    answers = [ms for kind, ms in steady if kind in ANSWER_TAPS]
    server_taps = [ms for _, ms in steady]
    per_pupil = []
    for log in logs:
        rows = counted[log.pupil.profile_id]
        quick, puzzles = rows.get("quick-facts", 0), sum(rows.values()) - rows.get(
            "quick-facts", 0)
        per_pupil.append({
            "profile_id": log.pupil.profile_id, "answers": log.answers,
            "quick_answers": log.quick_answers, "puzzles_done": log.puzzles_done,
            "rows": quick + puzzles, "quick_rows": quick, "puzzle_rows": puzzles,
            "unconfirmed": sum(log.unconfirmed.values()), "errors": log.errors,
            "screens": len(log.samples), "sign_in_s": round(log.sign_in_seconds or -1, 2)})
    lost = sum(max(0, p["answers"] - p["rows"]) for p in per_pupil)
    extra = sum(max(0, p["rows"] - p["answers"]) for p in per_pupil)
    measured = result["end"] - result["start"]
    dash = teacher["samples"]
    server_cpu = cpu["cpu_seconds"].get("server", 0.0)
    return {
        "database": "postgresql" if database_url.startswith("postgresql") else "sqlite",
        "pupils": pupils, "seconds": seconds, "think_seconds": list(think),
        "browsers": browsers, "dashboard_every_seconds": dashboard_every,
        "sign_in_seconds": _summary([p["sign_in_s"] * 1000 for p in per_pupil
                                     if p["sign_in_s"] >= 0]),
        "tap_to_screen_ms": {"answers": _summary(answers), "every_server_tap": _summary(
            server_taps), **{k: _summary(v) for k, v in sorted(by_kind.items())}},
        "answers_per_second": round(len(answers) / seconds, 2),
        "server_taps_per_second": round(len(server_taps) / seconds, 2),
        "server_cpu_ms_per_tap": round(server_cpu * 1000 / max(1, len(server_taps)), 1),
        "attempts_per_minute": round(sum(p["rows"] for p in per_pupil) / measured * 60, 1),
        "dashboard_ms": {k: _summary([s[k] for s in dash])
                         for k in ("total", "snapshot", "dashboard", "fact_grid", "cpu")},
        "dashboard_refreshes": len(dash),
        "dashboard_attempts_read": [dash[0]["attempts"], dash[-1]["attempts"]] if dash else [],
        "cpu": cpu,
        "answers_given": sum(p["answers"] for p in per_pupil),
        "attempt_rows": sum(p["rows"] for p in per_pupil),
        "lost": lost, "extra": extra,
        "unconfirmed_taps": sum(p["unconfirmed"] for p in per_pupil),
        "errors": sum(len(p["errors"]) for p in per_pupil),
        "clients_without_screens": sum(1 for p in per_pupil if p["screens"] == 0),
        "per_pupil": per_pupil,
        "python": platform.python_version(), "cores": os.cpu_count(),
    }


def run_on(database: str, **kwargs: Any) -> dict[str, Any]:
    """:func:`run_class` on a fresh ``sqlite`` file or ``postgres`` database."""
    work = Path(tempfile.mkdtemp(prefix=f"classload-{database}-"))
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)
    if database == "sqlite":
        db = work / "escoba.db"
        env.pop("ESCOBA_DATABASE_URL", None)
        env["ESCOBA_DB_PATH"] = str(db)
        from trainer.storage import sqlite_url

        return run_class(sqlite_url(str(db)), env, work=work, **kwargs)
    with postgres_database() as url:
        env["ESCOBA_DATABASE_URL"] = url
        return run_class(url, env, work=work, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="sqlite,postgres",
                        help="sqlite, postgres or both (comma-separated)")
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=180, help="time the class plays")
    parser.add_argument("--think", default="1,3", help="a child's pause between taps: min,max s")
    parser.add_argument("--browsers", type=int, default=1, help="Chromium processes")
    parser.add_argument("--dashboard-every", type=float, default=2.0,
                        help="seconds between two refreshes of the teacher's dashboard")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--profile", type=Path, default=None,
                        help="run the server under cProfile; stats written to this file")
    parser.add_argument("--per-pupil", action="store_true", help="print each pupil's counts")
    args = parser.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    from bench.practice_bench import _quiet

    _quiet()
    for database in args.database.split(","):
        began = time.perf_counter()
        report = run_on(database.strip(), pupils=args.pupils, seconds=args.seconds,
                        think=think, browsers=args.browsers,
                        dashboard_every=args.dashboard_every, seed=args.seed,
                        profile_to=args.profile)
        report["bench_seconds"] = round(time.perf_counter() - began)
        if not args.per_pupil:
            report["per_pupil"] = {
                "answers": [p["answers"] for p in report["per_pupil"]],
                "rows": [p["rows"] for p in report["per_pupil"]],
                "errors": [e for p in report["per_pupil"] for e in p["errors"]]}
        print(json.dumps(report, indent=1), flush=True)


if __name__ == "__main__":
    main()
