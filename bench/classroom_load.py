"""A class of 30 on the real running server: pupils tapping, a teacher watching (issue 13).

``streamlit run serve.py`` serves a fresh database on a free loopback port: a SQLite
file (``ESCOBA_DB_PATH``) or a new PostgreSQL database (``ESCOBA_DATABASE_URL``: on
``ESCOBA_TEST_POSTGRES_URL``'s server when set, as ``.ci/run`` does, else on a
throwaway PostgreSQL 15 cluster started here). The class is made through the core
API, as the teacher's pages do: :class:`trainer.classroom.TeacherAuth` makes a
teacher, :class:`~trainer.classroom.Classroom` a class, 30 pupils with their PINs
(``generate_pupils``) and one assignment (each pupil's weakest facts).

Every pupil is a tablet of its own (its own session, cookies, page):

- ``--in-browser`` of them (default 3) are Playwright browser contexts in one headless
  Chromium (Debian's; ``--browsers N`` spreads them over N Chromium processes), tapping
  as a child does; their times are the page's own clock (``performance.now()``, as in
  ``bench/board_browser_bench.py``): from the tap's ``click`` event to the first
  painted frame that shows the answer (a quick fact: the next question, or the round's
  end, no longer stale; Add: the board drawn again at its next position; "I've found
  them all": the result; Next puzzle: the new board; a menu entry: the new page);
- the others are :class:`WireTablet`: Streamlit's own WebSocket protocol, spoken as the
  browser speaks it, without drawing anything (a tap's time runs until the message
  carrying its screen has arrived). 30 Chromium pages need more CPU than this 2-core
  machine has beside the server (measured: docs/BENCHMARKS.md), so most tablets are
  wire tablets and a few real browsers measure what a child sees under that load.

Each tablet signs in (:func:`sign_in`: "My class", the class code, the pupil's picture,
the PIN pad: a pupil's ``?p=<id>`` link opens nothing since issue 27), waits for the
whole class to be in, then plays until the time is up: a round of quick
facts (5 questions, about 85 % answered right), two "for me" puzzles solved on the
board set by set (sometimes a wrong set first, sometimes "I've found them all" with one
set missed), quick facts again..., moving between the pages by the sidebar. A child
thinks ``--think`` seconds between taps (uniform, default 1-3). Meanwhile:

- the teacher's dashboard in a process of its own against the same database:
  ``Classroom.snapshot`` + ``dashboard`` + ``fact_grid`` every ``--dashboard-every`` s,
  each timed; and the teacher's own page ("For teachers", when the app has it) in a
  browser context: signed in, the class opened, then the fact grid and the dashboard in
  turn every ``--teacher-every`` s, timed from the tap to the grid or the table drawn;
- the CPU time of the server process, of the browsers, of this driver and of the
  dashboard process, the whole machine's busy share and its load average, from /proc;
- at the end, the ``attempts`` rows of each pupil, counted in the database, against
  the answers that pupil gave (a quick fact whose next screen came, a puzzle whose
  result was shown): none may be missing, none doubled.

    .venv/bin/python bench/classroom_load.py --database sqlite,postgres --pupils 30 \\
        --seconds 180

``--server-option runner.postScriptGC=false`` (repeatable) passes options to
``streamlit run``; ``--profile OUT.prof`` runs the server under cProfile
(bench/profiled_streamlit.py). Prints one JSON object per database (milliseconds
unless named otherwise); the figures are in docs/BENCHMARKS.md ("A class of 30 (issue
13)"). ``tests/test_classroom_load.py`` runs a short version and checks the counts.
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
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from html import unescape as html_unescape
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
TEACHER_VIEWPORT = {"width": 1366, "height": 900}  # the teacher's laptop
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
  // Quick facts drawn by its component (.qf-*) or by Streamlit's buttons (the fallback).
  cl.qf = () => {
    const q = document.querySelector('[data-testid=qf-question]');
    const caps = [...document.querySelectorAll('[data-testid=stCaptionContainer], .qf-progress')]
      .map((c) => c.textContent).join('|');
    return caps + '#' + (q ? q.textContent : '') + '#'
      + (document.querySelector('.st-key-qf_again, .qf-again') ? 'again' : '');
  };
  cl.qfDrawn = () => !!cl.live('[data-testid=qf-question]')
    || !!cl.live('.st-key-qf_again button, .qf-again');
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
    tc_dashboard: (b) => !!cl.live('[data-testid=dashboard]')
      && !cl.live('[data-testid=fact-grid]'),
    tc_grid: (b) => !!cl.live('[data-testid=fact-grid]'),
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

# What a browser tablet's screen was when a wait ran out (the report's error then says
# which wait and what the child saw, not a bare "TimeoutError").
_SCREEN_NOW = """() => {
  const cl = window.__cl;
  const r = cl && cl.board();
  const stale = document.querySelectorAll('[data-stale=true]').length;
  return {state: cl ? cl.state() : null, title: cl ? cl.title() : null,
          qf: cl ? cl.qf() : null, click: cl ? cl.click : null,
          armed: cl ? cl.armed : null, now: performance.now(), stale,
          board: r ? {position: r.dataset.position, renderedAt: r.dataset.renderedAt} : null,
          url: location.pathname + location.search,
          text: (document.querySelector('[data-testid=stMain]') || document.body)
            .innerText.replace(/\\s+/g, ' ').slice(0, 300)};
}"""


async def wait_in_page(page: Any, what: str, expression: str) -> Any:
    """``page.evaluate(expression)`` for at most ``SCREEN_TIMEOUT``; a wait that runs out
    raises a TimeoutError saying ``what`` was awaited and what the screen was."""
    try:
        return await asyncio.wait_for(page.evaluate(expression), SCREEN_TIMEOUT)
    except TimeoutError:
        try:
            screen = await asyncio.wait_for(page.evaluate(_SCREEN_NOW), 10)
        except Exception as err:  # the page itself is gone: say so
            screen = f"(screen unreadable: {type(err).__name__})"
        raise TimeoutError(f"{what} after {SCREEN_TIMEOUT:.0f} s; screen: {screen}") from None


# The PIN pad's dots: as many drawn filled as digits typed (from the current run).
_DOTS = """(typed) => {
  const dots = document.querySelector('[data-testid=mc-pin-dots]');
  const box = dots && dots.closest('[data-testid=stElementContainer]');
  return !!dots && !(box && box.getAttribute('data-stale') === 'true')
    && (dots.textContent.match(/●/g) || []).length === typed;
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
    code: str  # the class code on the board ("KDM472")
    pupils: tuple[Pupil, ...]
    warm_up_profile: int  # not in the class: it opens the pages once before the bell
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
        warm = store.create_profile("Warm up", "🙂")
        return ClassSetup(database_url, info.id, info.code, tuple(
            Pupil(p.profile_id, p.nickname, str(p.pin)) for p in added.added), warm.id)
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
        samples.append(refresh_dashboard(room, class_id, date.today()))
        stop.wait(max(0.0, period - samples[-1]["total"] / 1000))
    store.engine.dispose()
    out.put({"samples": samples, "cpu_seconds": time.process_time() - cpu0})


def refresh_dashboard(room: Any, class_id: int, today: date) -> dict[str, float]:
    """One refresh of the teacher's dashboard and fact grid (``Classroom.snapshot``,
    ``dashboard``, ``fact_grid``), timed: wall milliseconds per part and the CPU of the
    whole (this process's: the queries' wait for the database is not in it)."""
    began = time.perf_counter()
    cpu = time.process_time()
    snap = room.snapshot(class_id, today, every_attempt=False)  # as the teacher's page
    read = time.perf_counter()
    rows = room.dashboard(snap, today)
    shown = time.perf_counter()
    grid = room.fact_grid(snap)
    ended = time.perf_counter()
    return {"total": (ended - began) * 1000, "snapshot": (read - began) * 1000,
            "dashboard": (shown - read) * 1000, "fact_grid": (ended - shown) * 1000,
            "cpu": (time.process_time() - cpu) * 1000,
            "attempts": sum(len(a) for a in snap.attempts.values()),
            # The answers the dashboard counts (read from the aggregates, not the attempts).
            "answers": sum(r.puzzles + r.quick_facts + r.game_turns for r in rows),
            "rows": len(rows), "grid_rows": len(grid.rows)}


# -- CPU and load, from /proc ---------------------------------------------------------

def rss_mb(pid: int) -> float:
    """A process's resident memory (``VmRSS`` in ``/proc/PID/status``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


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
        self.rss_mb: list[float] = []  # the server's resident memory, every second
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

    def _rss(self) -> None:
        with contextlib.suppress(OSError):  # the server has gone
            self.rss_mb.append(rss_mb(self.server_pid))

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            self.loads.append(os.getloadavg()[0])
            self._rss()
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
            "server_rss_mb": {"start": round(self.rss_mb[0]) if self.rss_mb else None,
                              "max": round(max(self.rss_mb)) if self.rss_mb else None,
                              "end": round(self.rss_mb[-1]) if self.rss_mb else None},
            "load_average_1min": {"start": round(self.loads[0], 2),
                                  "max": round(max(self.loads), 2),
                                  "mean": round(statistics.fmean(self.loads), 2)},
        }


# -- the server -----------------------------------------------------------------------

@contextlib.contextmanager
def serve(env: dict[str, str], log: Path, timeout: float = 120,
          profile_to: Path | None = None,
          options: tuple[str, ...] = ()) -> Iterator[tuple[str, subprocess.Popen]]:
    """``streamlit run serve.py`` headless on a free loopback port: (url, process).
    ``profile_to``: run it under :mod:`bench.profiled_streamlit` (cProfile of every
    thread, written there when the server stops)."""
    from deploy.replicas import free_port, start_streamlit, stop, wait_healthy

    port = free_port()
    command = None if profile_to is None else [
        sys.executable, str(ROOT / "bench" / "profiled_streamlit.py"), str(profile_to)]
    proc = start_streamlit(port, env, log, options, command)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log, timeout)
        yield url, proc
    finally:
        stop(proc, wait=30)


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

async def sign_in(page: Any, url: str, pupil: Pupil, code: str) -> None:
    """The pupil signs in on this tablet as a class does: "My class", the class code from
    the board, the pupil's picture, then the PIN on the number pad (the fourth digit signs
    in)."""
    await page.goto(f"{url}/my_class")
    await page.locator(".st-key-mc_code input").fill(code)
    await page.locator("[data-testid=stFormSubmitButton] button").first.click()
    await page.locator(f".st-key-mc_pupil_{pupil.profile_id} button").click()
    for typed, digit in enumerate(pupil.pin[:-1], start=1):
        # A child's finger: the next digit once this one's dot is drawn (a tap during
        # the previous tap's run could be taken with it as one).
        await page.locator(f".st-key-mc_d_{digit} button").click()
        await page.wait_for_function(_DOTS, arg=typed, polling=50)
    await page.locator(f".st-key-mc_d_{pupil.pin[-1]} button").click()
    await page.locator(".st-key-mc_switch button").wait_for()


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
    # A browser tablet's page errors and console errors (the last few, said with a failure:
    # a page gone blank names the error that took it down).
    console: list[str] = field(default_factory=list)
    console_said: int = 0  # how many of them a failure has said already
    # A browser tablet whose page loaded itself again (ui.ticker's watch: the app had
    # gone from the page): what was being waited for then. Answers are still counted.
    reloads: list[str] = field(default_factory=list)
    sign_in_seconds: float | None = None
    answer_taps: int = 0  # taps that record an attempt, whether their screen came or not
    run_ms: list[tuple[str, float]] = field(default_factory=list)  # a wire tap's whole run
    client: str = "browser"

    @property
    def answers(self) -> int:
        return self.quick_answers + self.puzzles_done


async def _page_reloaded(page: Any) -> bool:
    """Whether ``page`` was loaded again by the app's own watch (ui/board_assets/ticker.js)
    since its probe was installed: a new document, come by a reload (a sign-in again
    goes to the address: "navigate", and a failed one is an error, not a reload). Asked
    once the page has loaded, and again if the reload cut the question short ("Execution
    context was destroyed"): a tap's wait cut short by it was the reload, not an error."""
    for _ in range(3):
        try:
            await page.wait_for_load_state("load", timeout=10_000)
            return await asyncio.wait_for(page.evaluate(
                "() => window.__cl === undefined && "
                "performance.getEntriesByType('navigation')[0]?.type === 'reload'"), 10)
        except Exception as err:  # the page gone (an error), or still mid-reload
            if "context was destroyed" not in str(err):
                return False
    return False


def _keep_page_errors(page: Any, kept: list[str]) -> None:
    """Keep ``page``'s uncaught errors and console errors in ``kept`` (each cut short)."""
    page.on("pageerror", lambda error: kept.append(f"pageerror: {error}"[:600]))
    page.on("console", lambda message: message.type == "error"
            and kept.append(f"console: {message.text}"[:600]))


class Tablet:
    """One pupil's browser context, playing until the deadline."""

    def __init__(self, page: Any, url: str, pupil: Pupil, rng: random.Random,
                 think: tuple[float, float], log: PupilLog) -> None:
        self.page, self.url, self.pupil, self.rng, self.think = page, url, pupil, rng, think
        self.log = log
        self.deadline = math.inf

    async def pause(self) -> None:
        """A child's think time, then the app's run over (no tap interrupts a run)."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        await wait_in_page(self.page, "the run's end before a tap", "() => window.__cl.idle()")

    async def tap(self, kind: str, check: str, target: Any) -> bool:
        """Tap ``target`` and time it until the screen ``check`` names is painted."""
        await self.page.evaluate("(k) => window.__cl.arm(k)", check)
        await target.click(timeout=SCREEN_TIMEOUT * 1000)
        try:
            done = await wait_in_page(self.page, f"the screen of a {kind} tap ({check})",
                                      "() => window.__cl.wait()")
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
        while time.monotonic() < self.deadline:
            await self.pause()
            # The round's component first (its Streamlit fallback may still be on the
            # page, out of sight, for the first seconds).
            again = page.locator(".qf-again, .st-key-qf_again button")
            if await again.count():
                await self.tap("qf_again", "qf", again.first)
                return
            question = await page.get_by_test_id("qf-question").first.text_content()
            value = quick_choice(question or "", self.rng)
            self.log.answer_taps += 1
            await self.tap("qf_answer", "qf", page.locator(
                f".qf-n[data-n='{value}'], .st-key-qf_n_{value} button").first)
            self.log.quick_answers += 1

    async def puzzle(self) -> None:
        """One "for me" puzzle, solved set by set on the board, then Next puzzle."""
        page = self.page
        await self.pause()
        board = await page.evaluate(_BOARD_CARDS)
        if board is None or not board["interactive"]:
            raise RuntimeError(f"no board to play on: {board}")
        fixed = len(board["hand"]) == 1 and board["hand"][0]["still"]
        plan = plan_puzzle([c["id"] for c in board["table"]], [c["id"] for c in board["hand"]],
                           fixed, self.rng)
        finished = False
        for number, (card, take) in enumerate(plan.sets):
            if number:
                await self.pause()
            for code in ([card] if card and not fixed else []) + take:
                await page.locator(f'.eb-card[data-id="{code}"]').click()
            self.log.answer_taps += number == len(plan.sets) - 1 and plan.completes
            await self.tap("pz_add", "board", page.locator(".eb-play"))
            self.log.sets_added += 1
            await wait_in_page(page, "the run's end after a set", "() => window.__cl.idle()")
            if await page.locator(".st-key-pz_next button").count():
                finished = True
                break
        if not finished:
            await self.pause()
            self.log.answer_taps += 1
            await self.tap("pz_finish", "result", page.locator(f".st-key-{plan.finish} button"))
        self.log.puzzles_done += 1
        await self.pause()
        await self.tap("pz_next", "board", page.locator(".st-key-pz_next button"))

    async def play(self, deadline: float, start_with_puzzles: bool) -> None:
        """Quick facts and puzzles in turn until ``deadline`` (``time.monotonic``)."""
        await play_in_turns(self, deadline, start_with_puzzles)


async def play_in_turns(tablet: Any, deadline: float, start_with_puzzles: bool) -> None:
    """A child's session: a round of quick facts, two puzzles, and again, until the bell
    (a puzzle begun is finished; a round of quick facts stops at the next question)."""
    tablet.deadline = deadline
    on_puzzles = start_with_puzzles
    while time.monotonic() < deadline:
        if on_puzzles:
            await tablet.open_page("puzzles")
            for _ in range(2):
                if time.monotonic() >= deadline:
                    break
                await tablet.puzzle()
        else:
            await tablet.open_page("quick_facts")
            await tablet.quick_round()
        on_puzzles = not on_puzzles


TEACHER_PAGE = ROOT / "app_pages" / "teacher.py"


class TeacherTablet:
    """The teacher's own browser context on the app's "For teachers" page: signs in with
    the name and password the class was made with, opens the class, and then, every
    ``period`` seconds, looks at the fact grid and back at the dashboard (each a rerun
    that reads the class's data again when a pupil has answered meanwhile), timed from
    the tap to the grid or the dashboard's cards drawn."""

    def __init__(self, page: Any, url: str, setup: ClassSetup, period: float,
                 log: PupilLog) -> None:
        self.page, self.url, self.setup, self.period, self.log = page, url, setup, period, log

    async def sign_in(self) -> None:
        page = self.page
        name, password = self.setup.teacher
        await page.goto(f"{self.url}/teacher")
        await page.locator(".st-key-tc_name input").fill(name)
        await page.locator(".st-key-tc_password input").fill(password)
        await page.locator("[data-testid=stFormSubmitButton] button").first.click()
        await page.evaluate(_PROBE)
        opener = page.locator(f".st-key-tc_open_{self.setup.class_id} button")
        await opener.wait_for()
        await wait_in_page(page, "the run's end after signing in", "() => window.__cl.idle()")
        await self.tap("tc_open", "tc_dashboard", opener)

    async def tap(self, kind: str, check: str, target: Any) -> None:
        await self.page.evaluate("(k) => window.__cl.arm(k)", check)
        await target.click(timeout=SCREEN_TIMEOUT * 1000)
        try:
            done = await wait_in_page(self.page, f"the screen of a {kind} tap ({check})",
                                      "() => window.__cl.wait()")
        except TimeoutError:
            self.log.unconfirmed[kind] += 1
            raise
        self.log.samples.append((kind, done["painted"] - done["click"], time.monotonic()))
        await wait_in_page(self.page, f"the run's end after a {kind} tap",
                           "() => window.__cl.idle()")

    async def watch(self, deadline: float) -> None:
        parts = self.page.locator(".st-key-tc_part button")
        looked = False
        # At least one look at each, even when signing in took the whole window (a
        # loaded machine): the page is what is measured, not the teacher's punctuality.
        while not looked or time.monotonic() < deadline:
            looked = True
            await asyncio.sleep(self.period / 2)
            await self.tap("tc_grid", "tc_grid", parts.nth(1))
            await asyncio.sleep(self.period / 2)
            await self.tap("tc_dashboard", "tc_dashboard", parts.nth(0))


# -- what a child answers ---------------------------------------------------------------

def quick_answer(question: str) -> int:
    """The missing number of ``"3 + 5 + ? = 15"``."""
    left, total = question.split("=")
    return int(total) - sum(int(p) for p in left.replace("?", "0").split("+"))


def quick_choice(question: str, rng: random.Random) -> int:
    """The number a child taps: right about 85 % of the time."""
    right = quick_answer(question)
    return right if rng.random() < 0.85 else rng.choice([n for n in range(1, 11) if n != right])


@dataclass(frozen=True)
class PuzzlePlan:
    """The sets a child will add, in order ((hand card or None, table cards)); whether the
    last one completes the puzzle (every set found: the app then checks it at once), and
    the button that ends it otherwise ("pz_done", or "pz_none" for a captures puzzle with
    nothing to take)."""

    kind: str
    sets: list[tuple[str | None, list[str]]]
    completes: bool
    finish: str


def plan_puzzle(table: list[str], hand: list[str], fixed: bool,
                rng: random.Random) -> PuzzlePlan:
    """A child's way through a "for me" puzzle on these cards (the engine finds the sets):
    every set, in any order; sometimes a wrong set first (15 %), sometimes one set
    missed and "I've found them all" (10 %)."""
    from escoba import Card
    from puzzles import from_cards

    kind = "fifteens" if not hand else "captures" if fixed else "hand"
    puzzle = from_cards(kind, [Card.parse(c) for c in table], [Card.parse(c) for c in hand],
                        CAPTURE_SUM)
    sets: list[tuple[str | None, list[str]]] = [
        (hand[0] if fixed else None if s.card is None else str(s.card),
         [str(c) for c in s.take]) for s in puzzle.solutions]
    rng.shuffle(sets)
    completes = bool(sets)
    if len(sets) > 1 and rng.random() < 0.1:
        sets.pop()
        completes = False
    if sets and rng.random() < 0.15:
        wrong = _a_wrong_set(table, hand, fixed, rng)
        if wrong is not None:
            sets.insert(0, wrong)
    finish = "pz_none" if kind == "captures" and not puzzle.solutions else "pz_done"
    return PuzzlePlan(kind, sets, completes, finish)


def _a_wrong_set(table: list[str], hand: list[str], fixed: bool,
                 rng: random.Random) -> tuple[str | None, list[str]] | None:
    """Two table cards (with the hand card where there is one) that do not make the sum."""
    from escoba import Card

    card = rng.choice(hand) if hand else None
    extra = Card.parse(card).value if card else 0
    pairs = [(a, b) for i, a in enumerate(table) for b in table[i + 1:]
             if Card.parse(a).value + Card.parse(b).value + extra != CAPTURE_SUM]
    return (card, list(rng.choice(pairs))) if pairs else None


# -- a tablet that speaks Streamlit's own protocol ------------------------------------

#: The key of Quick facts' round component (ui/quick_round_view.py's KEY).
QUICK_ROUND = "qf_round_view"
_HTML_QUESTION = re.compile(r"data-testid='qf-question'>([^<]*)<")
#: Messages the browser keeps and the server then sends by reference (Streamlit's
#: ``global.minCachedMessageSize``): the board's script, for one.
_CACHED_SIZE = 10_000


class WireTablet:
    """One pupil's tablet without a browser: Streamlit's WebSocket protocol, spoken as
    the browser speaks it (a rerun with the tapped widget's value, the page, the query
    string; the board's ``ready`` state and its Add as the component sends them; large
    elements cached and asked by reference). No page is drawn: a tap's time runs until
    the message carrying its screen has arrived (the next question, the board at its
    next position, the result, the new page), the run's until its ``script_finished``.
    On a 2-core machine 30 Chromium pages need more CPU than the server (see
    docs/BENCHMARKS.md): these tablets leave the CPU to the server."""

    def __init__(self, url: str, pupil: Pupil, rng: random.Random,
                 think: tuple[float, float], log: PupilLog) -> None:
        self.url, self.pupil, self.rng, self.think, self.log = url, pupil, rng, think, log
        self.ws: Any = None
        self.pages: dict[str, str] = {}
        self.page_hash = ""
        self.query = ""
        self.widgets: dict[str, str] = {}  # key -> widget id, of the last run
        self.elements: list[Any] = []  # the last run's elements
        # What is on the screen, by the fragment that drew it ("": the page's run): a
        # tap inside a fragment reruns that fragment only (as the browser asks), and the
        # rest of the screen stays as it was.
        self.fragment_of: dict[str, str] = {}  # widget or component id -> its fragment
        self._shown: dict[str, list[tuple[Any, str, str]]] = {}  # (element, key, id)
        self.cache: dict[str, bytes] = {}
        self.board_ready: set[str] = set()
        self.board_shown = 0.0
        self.sent_states: dict[str, Any] = {}
        self.deadline = math.inf

    async def connect(self) -> None:
        import websockets

        if self.ws is not None:
            await self.ws.close()
        self.ws = await websockets.connect(
            self.url.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit"],
            origin=self.url, max_size=None, ping_interval=None,
            open_timeout=SCREEN_TIMEOUT)  # a browser waits as long for a busy server
        self.board_ready.clear()
        self.sent_states.clear()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def rerun(self, *, page: str | None = None, page_name: str = "",
                    widgets: list[Any] = (), kind: str | None = None,
                    screen: Any = None) -> None:
        """Send one rerun and read its messages to the end of the run. ``screen``: a test
        on each new element; the first that passes is the tap's screen (timed as
        ``kind``)."""
        if page is not None:
            self.page_hash = page
        # A tap inside a fragment reruns only that fragment, as the browser asks it.
        fragment = self._fragment(widgets) if page is None and not page_name else ""
        msg = self.rerun_message(widgets, page_name, fragment, timer=False)
        began = time.monotonic()
        await self.ws.send(msg.SerializeToString())
        seen: float | None = None
        if fragment:
            self._shown.pop(fragment, None)
        else:
            self._shown.clear()
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), SCREEN_TIMEOUT)
            except TimeoutError:
                raise TimeoutError(
                    f"no message for {SCREEN_TIMEOUT:.0f} s in a run ({kind or 'no tap'}, "
                    f"page {page_name or self.page_hash[:8]}, "
                    f"widgets {[getattr(w, 'id', '?')[-24:] for w in widgets]})") from None
            element = self._read(raw)
            if element is _FINISHED:
                break
            if element is not None and seen is None and screen is not None \
                    and screen(element):
                seen = time.monotonic()
        self.elements = [e for shown in self._shown.values() for e, _, _ in shown]
        self.widgets = {key: wid for shown in self._shown.values() for _, key, wid in shown
                        if key}
        if kind is not None:
            if seen is None:
                self.log.unconfirmed[kind] += 1
                raise RuntimeError(f"{kind}: its screen did not come")
            self.log.samples.append((kind, (seen - began) * 1000, seen))
            self.log.run_ms.append((kind, (time.monotonic() - began) * 1000))

    def rerun_message(self, widgets: Any = (), page_name: str = "", fragment: str = "",
                      *, timer: bool = True) -> Any:
        """The ``BackMsg`` a browser sends for a rerun of this page (``fragment``: of one
        fragment, as its timer asks, or a tap inside it with ``timer=False``): the widgets'
        values as last sent, and ``widgets`` (one value per widget, the newest)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = page_name
        if fragment:
            state.fragment_id = fragment
            state.is_auto_rerun = timer
        for widget in {w.id: w for w in (*self.sent_states.values(), *widgets)}.values():
            state.widget_states.widgets.append(widget)
        state.cached_message_hashes.extend(self.cache)
        info = state.context_info
        info.timezone, info.timezone_offset, info.locale = "UTC", 0, "en-US"
        info.url, info.is_embedded, info.color_scheme = self.url, False, "light"
        return msg

    def _read(self, raw: bytes) -> Any:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = ForwardMsg()
        msg.ParseFromString(raw)
        if msg.WhichOneof("type") == "ref_hash":
            cached = ForwardMsg()
            cached.ParseFromString(self.cache[msg.ref_hash])
            msg = cached
        elif len(raw) >= _CACHED_SIZE and msg.hash:
            self.cache[msg.hash] = raw
        kind = msg.WhichOneof("type")
        if kind == "script_finished":
            return _FINISHED
        if kind == "navigation":  # the pages, and the one this run shows (sent back next)
            self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            inner = getattr(element, element.WhichOneof("type") or "empty", None)
            widget_id = getattr(inner, "id", "")
            fragment = msg.delta.fragment_id
            if widget_id:
                self.fragment_of[widget_id] = fragment
            key = widget_id.split("-", 2)[2] if widget_id.startswith("$$ID-") else ""
            self._shown.setdefault(fragment, []).append((element, key, widget_id))
            return element
        return None

    def _fragment(self, widgets: Any) -> str:
        """The fragment the tapped widgets are drawn in ("": a run of the whole page)."""
        found = set()
        for widget in widgets:
            wid = widget.id
            if wid.startswith("$$STREAMLIT_INTERNAL_KEY_"):  # a component's event
                wid = wid.removeprefix("$$STREAMLIT_INTERNAL_KEY_").rsplit("__", 1)[0]
            found.add(self.fragment_of.get(wid, ""))
        return found.pop() if len(found) == 1 else ""

    # -- what the screens hold -----------------------------------------------------
    def _question(self) -> str | None:
        for element in self.elements:
            if element.WhichOneof("type") == "html":
                found = _HTML_QUESTION.search(element.html.body)
                if found:
                    return html_unescape(found.group(1))
        return None

    def _quick(self) -> dict[str, Any] | None:
        """Quick facts' round as its component draws it (ui/quick_round_view.py)."""
        for element in self.elements:
            if element.WhichOneof("type") == "bidi_component" and \
                    element.bidi_component.id.endswith("-" + QUICK_ROUND):
                return {"id": element.bidi_component.id,
                        **json.loads(element.bidi_component.json)}
        return None

    def _board(self) -> dict[str, Any] | None:
        for element in self.elements:
            if element.WhichOneof("type") == "bidi_component" and \
                    element.bidi_component.id.endswith("-pz_board"):
                return {"id": element.bidi_component.id,
                        **json.loads(element.bidi_component.json)}
        return None

    @staticmethod
    def _is_question(element: Any) -> bool:
        """A quick facts round's screen: its component (a question or the round's end),
        or the question in Streamlit's elements (before the component said it drew)."""
        kind = element.WhichOneof("type")
        if kind == "bidi_component":
            return element.bidi_component.id.endswith("-" + QUICK_ROUND)
        return kind == "html" and "qf-question" in element.html.body

    @staticmethod
    def _is_button(key: str) -> Any:
        return lambda e: e.WhichOneof("type") == "button" and e.button.id.endswith("-" + key)

    def _is_board(self, before: str | None) -> Any:
        # The puzzle's board only: the page has other components (the voice's listener
        # in the sidebar, issue 23), which carry no position.
        def check(element: Any) -> bool:
            if element.WhichOneof("type") != "bidi_component" or \
                    not element.bidi_component.id.endswith("-pz_board"):
                return False
            return json.loads(element.bidi_component.json).get("position") != before
        return check

    def _trigger(self, key: str) -> Any:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        return WidgetState(id=self.widgets[key], trigger_value=True)

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))

    # -- a child's taps -------------------------------------------------------------
    async def sign_in(self, code: str) -> None:
        """As :func:`sign_in` does it in the browser, a rerun for each tap."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        await self.connect()
        self.query = ""
        await self.rerun(page_name="my_class")
        typed = WidgetState(id=self.widgets["mc_code"], string_value=code)
        await self.rerun(widgets=[typed, self._submit("mc_code_form")])
        await self.rerun(widgets=[self._trigger(f"mc_pupil_{self.pupil.profile_id}")])
        for digit in self.pupil.pin:
            await self.rerun(widgets=[self._trigger(f"mc_d_{digit}")])
        if "mc_switch" not in self.widgets:
            raise RuntimeError("the PIN pad did not sign the pupil in")

    def _submit(self, form: str) -> Any:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget = next(v for k, v in self.widgets.items() if k.startswith(f"FormSubmitter:{form}-"))
        return WidgetState(id=widget, trigger_value=True)

    async def open_page(self, name: str) -> None:
        if name == "quick_facts":
            await self.rerun(page=self.pages[name], kind="nav_qf", screen=lambda e: (
                self._is_question(e) or self._is_button("qf_again")(e)))
            return
        await self.rerun(page=self.pages[name], kind="nav_pz", screen=self._is_board(None))
        await self._board_ready()

    async def _say_ready(self, component: dict[str, Any] | None) -> None:
        """A component (the board, Quick facts' round) tells the server it has drawn,
        once per component and connection, as the browser's does (with the session's
        token its data carries)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        if component is None or component["id"] in self.board_ready:
            return
        self.board_ready.add(component["id"])
        ready = WidgetState(id=component["id"],
                            json_value=json.dumps({"ready": component.get("session") or True}))
        self.sent_states[component["id"]] = ready
        await self.rerun(widgets=[ready])  # the component's own fragment, if it is in one

    async def _quick_ready(self) -> None:
        await self._say_ready(self._quick())

    def _quick_event(self, quick: dict[str, Any], event: str, value: Any) -> Any:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        return WidgetState(id=f"$$STREAMLIT_INTERNAL_KEY_{quick['id']}__events",
                           json_trigger_value=json.dumps([{"event": event, "value": value}]))

    async def _board_ready(self) -> None:
        """The board tells the server it has drawn (see :meth:`_say_ready`)."""
        self.board_shown = time.monotonic()
        await self._say_ready(self._board())

    async def quick_round(self) -> None:
        await self._quick_ready()
        while time.monotonic() < self.deadline:
            await self.pause()
            quick = self._quick()
            if quick is not None and quick.get("ready"):  # tapped on the component
                if quick["done"]:
                    await self.rerun(widgets=[self._quick_event(quick, "again", quick["round"])],
                                     kind="qf_again", screen=self._is_question)
                    return
                value = quick_choice(quick["question"]["text"], self.rng)
                self.log.answer_taps += 1
                tap = {"round": quick["round"], "index": quick["index"], "value": value}
                await self.rerun(widgets=[self._quick_event(quick, "answer", tap)],
                                 kind="qf_answer", screen=self._is_question)
                self.log.quick_answers += 1
                continue
            if "qf_again" in self.widgets:
                await self.rerun(widgets=[self._trigger("qf_again")], kind="qf_again",
                                 screen=self._is_question)
                return
            question = self._question()
            if question is None:
                raise RuntimeError("no question on the quick facts page")
            value = quick_choice(question, self.rng)
            self.log.answer_taps += 1
            await self.rerun(widgets=[self._trigger(f"qf_n_{value}")], kind="qf_answer",
                             screen=lambda e: self._is_question(e)
                             or self._is_button("qf_again")(e))
            self.log.quick_answers += 1

    async def puzzle(self) -> None:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        await self.pause()
        board = self._board()
        if board is None or not board.get("interactive"):
            raise RuntimeError("no board to play on")
        fixed = board["select"].get("fixed")
        plan = plan_puzzle(board["table"], board["hand"], bool(fixed), self.rng)
        finished = False
        for number, (card, take) in enumerate(plan.sets):
            if number:
                await self.pause()
                board = self._board()
            action = {"kind": "add", "position": board["position"], "card": card,
                      "take": take, "think_ms": round((time.monotonic() - self.board_shown)
                                                      * 1000)}
            events = WidgetState(id=f"$$STREAMLIT_INTERNAL_KEY_{board['id']}__events",
                                 json_trigger_value=json.dumps([{"event": "action",
                                                                 "value": action}]))
            self.log.answer_taps += number == len(plan.sets) - 1 and plan.completes
            await self.rerun(widgets=[events], kind="pz_add",
                             screen=self._is_board(board["position"]))
            self.board_shown = time.monotonic()
            self.log.sets_added += 1
            if "pz_next" in self.widgets:
                finished = True
                break
        if not finished:
            await self.pause()
            self.log.answer_taps += 1
            await self.rerun(widgets=[self._trigger(plan.finish)], kind="pz_finish",
                             screen=self._is_button("pz_next"))
        self.log.puzzles_done += 1
        await self.pause()
        before = self._board()
        await self.rerun(widgets=[self._trigger("pz_next")], kind="pz_next",
                         screen=self._is_board(before["position"] if before else None))
        await self._board_ready()

    async def play(self, deadline: float, start_with_puzzles: bool) -> None:
        await play_in_turns(self, deadline, start_with_puzzles)


_FINISHED = object()


async def warm_up(url: str, profile_id: int) -> None:
    """Open Quick facts and Puzzles once (a profile without a PIN, not in the class): the
    server's first imports and caches are not a pupil's wait."""
    visitor = Pupil(profile_id, "Warm up", "")
    tablet = WireTablet(url, visitor, random.Random(0), (0, 0), PupilLog(visitor))
    await tablet.connect()
    tablet.query = f"p={profile_id}"
    await tablet.rerun(page_name="quick_facts")
    await tablet.open_page("puzzles")
    await tablet.open_page("quick_facts")
    await tablet.close()


# -- the whole class -----------------------------------------------------------------

def browser_indices(pupils: int, in_browser: int) -> set[int]:
    """Which pupils sit at a real browser: spread over the class (and so over both
    starting activities)."""
    in_browser = max(0, min(pupils, in_browser))
    return {round(i * pupils / in_browser) for i in range(in_browser)} if in_browser else set()


async def _run_pupils(url: str, setup: ClassSetup, seconds: float, think: tuple[float, float],
                      in_browser: int, browsers: int, seed: int, meter: CpuMeter,
                      started: asyncio.Event | None = None,
                      teacher_every: float = 0.0) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    logs = [PupilLog(p) for p in setup.pupils]
    chosen = browser_indices(len(logs), in_browser)
    for index in chosen:
        logs[index].client = "browser"
    for index in set(range(len(logs))) - chosen:
        logs[index].client = "wire"
    window: dict[str, Any] = {}
    async with async_playwright() as pw:
        engines = [await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                   for _ in range(browsers if chosen else 0)]
        signed_in = 0
        all_in = asyncio.Event()

        async def pupil(index: int, log: PupilLog) -> None:
            nonlocal signed_in
            rng = random.Random(f"{seed}-{index}")
            context = None
            if log.client == "browser":
                context = await engines[index % len(engines)].new_context(
                    viewport=VIEWPORT, locale="en-US")
                page = await context.new_page()
                page.set_default_timeout(SCREEN_TIMEOUT * 1000)
                _keep_page_errors(page, log.console)
                tablet: Any = Tablet(page, url, log.pupil, rng, think, log)

                async def enter() -> None:
                    await sign_in(page, url, log.pupil, setup.code)
                    await page.evaluate(_PROBE)
            else:
                tablet = WireTablet(url, log.pupil, rng, think, log)

                async def enter() -> None:
                    await tablet.sign_in(setup.code)
            began = time.monotonic()
            for _ in range(2):
                try:
                    await enter()
                    log.sign_in_seconds = time.monotonic() - began
                    break
                except Exception as err:  # counted and reported
                    log.errors.append(f"sign-in: {type(err).__name__}: {err}".splitlines()[0])
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
                    fresh = log.console[log.console_said:]  # since the last failure's
                    log.console_said = len(log.console)
                    said = f"; page errors: {fresh[-3:]}" if fresh else ""
                    line = f"{type(err).__name__}: {err}".splitlines()[0][:1200] + said
                    reloaded = log.client == "browser" and await _page_reloaded(tablet.page)
                    (log.reloads if reloaded else log.errors).append(line)
                    for _ in range(2):  # a sign-in cut short by the page's own reload
                        with contextlib.suppress(Exception):
                            await enter()
                            break
            if context is not None:
                await context.close()
            else:
                await tablet.close()

        async def teacher(log: PupilLog) -> None:
            browser = engines[0] if engines else await pw.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if not engines:
                engines.append(browser)
            context = await browser.new_context(viewport=TEACHER_VIEWPORT, locale="en-US")
            page = await context.new_page()
            page.set_default_timeout(SCREEN_TIMEOUT * 1000)
            desk = TeacherTablet(page, url, setup, teacher_every, log)
            await all_in.wait()
            try:
                await desk.sign_in()
                log.sign_in_seconds = 0.0
                await desk.watch(window["start"] + seconds)
            except Exception as err:  # counted and reported
                log.errors.append(f"teacher: {type(err).__name__}: {err}".splitlines()[0])
            await context.close()

        teacher_log = PupilLog(Pupil(0, "teacher", ""), client="teacher")
        jobs = [pupil(i, log) for i, log in enumerate(logs)]
        if teacher_every and TEACHER_PAGE.exists():
            jobs.append(teacher(teacher_log))
        await asyncio.gather(*jobs)
        window["end"] = time.monotonic()
        window["teacher"] = teacher_log
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
              in_browser: int = 3, browsers: int = 1, dashboard_every: float = 2.0,
              seed: int = 13, work: Path | None = None, profile_to: Path | None = None,
              server_options: tuple[str, ...] = (),
              teacher_every: float = 10.0) -> dict[str, Any]:
    """The whole load test on one database (the server started here with ``env``):
    ``pupils`` pupils, ``in_browser`` of them in Chromium, the others over the wire."""
    work = work or Path(tempfile.mkdtemp(prefix="classload-"))
    setup = make_class(database_url, pupils)
    ctx = multiprocessing.get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    with serve(env, work / "streamlit.log", profile_to=profile_to,
               options=server_options) as (url, server):
        meter = CpuMeter(server.pid)
        dashboard = ctx.Process(target=_dashboard_loop, daemon=True,
                                args=(database_url, setup.class_id, dashboard_every, stop, out))

        async def drive() -> dict[str, Any]:
            await warm_up(url, setup.warm_up_profile)
            started = asyncio.Event()

            async def teacher() -> None:
                await started.wait()
                dashboard.start()
                meter.dashboard_pid = dashboard.pid

            task = asyncio.create_task(teacher())
            result = await _run_pupils(url, setup, seconds, think, in_browser, browsers, seed,
                                       meter, started, teacher_every)
            await task
            return result

        result = asyncio.run(drive())
        stop.set()
        teacher = out.get(timeout=120)
        dashboard.join(timeout=30)
        cpu = meter.stop()
        time.sleep(1.0)  # the last writes are committed before the count
        counted = attempts_per_pupil(database_url, [p.profile_id for p in setup.pupils])
    report = summarise(result, counted, teacher, cpu, seconds)
    desk: PupilLog | None = result.get("teacher")
    report["teacher_page_ms"] = None if desk is None or not desk.samples else {
        kind: _summary([ms for k, ms, _ in desk.samples if k == kind])
        for kind in ("tc_open", "tc_dashboard", "tc_grid")}
    report["teacher_page_errors"] = [] if desk is None else desk.errors
    report["teacher_page"] = TEACHER_PAGE.exists() and bool(teacher_every)
    report.update({"pupils": pupils, "in_browser": len(browser_indices(pupils, in_browser)),
                   "seconds": seconds, "think_seconds": list(think), "browsers": browsers,
                   "dashboard_every_seconds": dashboard_every,
                   "server_options": list(server_options),
                   "teacher_page_every_seconds": teacher_every,
                   "database": "postgresql" if database_url.startswith("postgresql")
                   else "sqlite", "python": platform.python_version(),
                   "cores": os.cpu_count(), "server_log": str(work / "streamlit.log")})
    return report


def summarise(result: dict[str, Any], counted: dict[int, Counter], teacher: dict[str, Any],
              cpu: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Figures of a run: latencies by client and tap, throughput, CPU, the dashboard, and
    the attempts counted against the answers."""
    logs: list[PupilLog] = result["logs"]
    start, end = result["start"], result["start"] + seconds
    latency: dict[str, Any] = {}
    server_taps = answers = 0
    for client in ("browser", "wire"):
        # Taps begun between the bell and the end (their screens may come later).
        steady = [(k, ms) for log in logs if log.client == client
                  for k, ms, at in log.samples if start <= at - ms / 1000 <= end]
        if not steady:
            continue
        by_kind: dict[str, list[float]] = defaultdict(list)
        for kind, ms in steady:
            by_kind[kind].append(ms)
        taps = [ms for kind, ms in steady if kind in ANSWER_TAPS]
        latency[client] = {"answers": _summary(taps),
                           "every_server_tap": _summary([ms for _, ms in steady]),
                           **{k: _summary(v) for k, v in sorted(by_kind.items())}}
        if client == "wire":
            latency["wire_whole_run"] = _summary([ms for log in logs for _, ms in log.run_ms])
        server_taps += len(steady)
        answers += len(taps)
    per_pupil = []
    for log in logs:
        rows = counted[log.pupil.profile_id]
        quick = rows.get("quick-facts", 0)
        per_pupil.append({
            "profile_id": log.pupil.profile_id, "client": log.client,
            "answers": log.answers, "answer_taps": log.answer_taps,
            "quick_answers": log.quick_answers, "puzzles_done": log.puzzles_done,
            "rows": sum(rows.values()), "quick_rows": quick,
            "puzzle_rows": sum(rows.values()) - quick,
            "unconfirmed": sum(log.unconfirmed.values()), "errors": log.errors,
            "reloads": log.reloads,
            "screens": len(log.samples),
            "sign_in_s": None if log.sign_in_seconds is None else round(log.sign_in_seconds, 2)})
    measured = result["end"] - start
    dash = teacher["samples"]
    server_cpu = cpu["cpu_seconds"].get("server", 0.0)
    return {
        "sign_in_ms": {c: _summary([p["sign_in_s"] * 1000 for p in per_pupil
                                    if p["client"] == c and p["sign_in_s"] is not None])
                       for c in ("browser", "wire")},
        "tap_to_screen_ms": latency,
        "answers_per_second": round(answers / seconds, 2),
        "server_taps_per_second": round(server_taps / seconds, 2),
        "server_cpu_ms_per_tap": round(server_cpu * 1000 / max(1, server_taps), 1),
        "attempts_per_minute": round(sum(p["rows"] for p in per_pupil) / measured * 60, 1),
        "dashboard_ms": {k: _summary([s[k] for s in dash])
                         for k in ("total", "snapshot", "dashboard", "fact_grid", "cpu")},
        "dashboard_refreshes": len(dash),
        "dashboard_attempts_read": [dash[0]["attempts"], dash[-1]["attempts"]] if dash else [],
        "dashboard_answers_seen": [dash[0]["answers"], dash[-1]["answers"]] if dash else [],
        "dashboard_cpu_seconds": round(teacher["cpu_seconds"], 1),
        "cpu": cpu,
        "answers_given": sum(p["answers"] for p in per_pupil),
        "answer_taps": sum(p["answer_taps"] for p in per_pupil),
        "attempt_rows": sum(p["rows"] for p in per_pupil),
        # Lost: fewer rows than answers whose screen came; doubled: more rows than taps
        # that record one (a tap whose screen never came may or may not have recorded).
        "lost": sum(max(0, p["answers"] - p["rows"]) for p in per_pupil),
        "doubled": sum(max(0, p["rows"] - p["answer_taps"]) for p in per_pupil),
        "unconfirmed_taps": sum(p["unconfirmed"] for p in per_pupil),
        "errors": sum(len(p["errors"]) for p in per_pupil),
        "page_reloads": sum(len(p["reloads"]) for p in per_pupil),
        "clients_without_screens": sum(1 for p in per_pupil if p["screens"] == 0),
        "per_pupil": per_pupil,
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
    parser.add_argument("--in-browser", type=int, default=3,
                        help="pupils in Chromium (tap-to-paint); the others over the wire")
    parser.add_argument("--browsers", type=int, default=1, help="Chromium processes")
    parser.add_argument("--dashboard-every", type=float, default=2.0,
                        help="seconds between two refreshes of the teacher's dashboard")
    parser.add_argument("--teacher-every", type=float, default=10.0,
                        help="seconds between two looks of the teacher's page in the browser "
                        "(grid, then dashboard); 0: no teacher page")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--profile", type=Path, default=None,
                        help="run the server under cProfile; stats written to this file")
    parser.add_argument("--per-pupil", action="store_true", help="print each pupil's counts")
    parser.add_argument("--server-option", action="append", default=[], metavar="OPTION=VALUE",
                        help="a `streamlit run` option, e.g. runner.postScriptGC=false")
    args = parser.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    from bench.practice_bench import _quiet

    _quiet()
    for database in args.database.split(","):
        began = time.perf_counter()
        report = run_on(database.strip(), pupils=args.pupils, seconds=args.seconds,
                        think=think, in_browser=args.in_browser, browsers=args.browsers,
                        dashboard_every=args.dashboard_every, seed=args.seed,
                        teacher_every=args.teacher_every,
                        profile_to=args.profile, server_options=tuple(
                            part for option in args.server_option
                            for part in (f"--{option.split('=', 1)[0]}", option.split("=", 1)[1])))
        report["bench_seconds"] = round(time.perf_counter() - began)
        if not args.per_pupil:
            report["per_pupil"] = {
                "client": [p["client"][0] for p in report["per_pupil"]],
                "answers": [p["answers"] for p in report["per_pupil"]],
                "rows": [p["rows"] for p in report["per_pupil"]],
                "errors": [e for p in report["per_pupil"] for e in p["errors"]]}
        print(json.dumps(report, indent=1), flush=True)


if __name__ == "__main__":
    main()
