"""A class of 30 answering a live round while the projector refreshes (issue 29).

The projector is the teacher's page in a real headless Chromium (1920 x 1080, Debian's
``/usr/bin/chromium``): signed in through the page, the class opened, the Projector part
(drawn alone), each round started and revealed by tapping its buttons. The pupils are
30 :class:`~bench.classroom_load.WireTablet` (Streamlit's own WebSocket protocol, no
drawing: 30 Chromium pages alone saturate this 2-core machine, docs/BENCHMARKS.md),
signed in on My class with the class code, their picture and their PIN pad; each keeps
the page's timers as the browser does (every ``run_every`` fragment the server
announces, here My class's look at the round every ``LIVE_WATCH_SECONDS``, sent again
at its interval), so a round reaches a tablet, and the reveal does, by the page's own
refresh. A pupil finds the sets of the round on the board set by set (1-3 s between
taps, sometimes a wrong set first, sometimes "Done" with one missing:
:func:`~bench.classroom_load.plan_puzzle`), which writes the answer.

Two times, on this machine's one clock (``time.time()`` in the driver;
``performance.timeOrigin + performance.now()`` in Chromium, its offset to the driver's
measured and taken off):

- **tap to count**: from the pupil's tap that writes the answer (sent) to the moment
  the projector's count first shows at least as many answers as had been written when
  that one was (its rank in the round by ``live_answers.created_at``), noted by a
  ``MutationObserver`` on the count;
- **reveal to tablets**: from the teacher's tap on "Show the answers" (the click
  event's time) to the arrival, on each tablet, of the message that carries "Look at
  the board" (every tablet of the class, each round).

Configurations (``--configs``): ``sqlite1`` one replica on SQLite (``streamlit run``;
``sqlite1@0.5``: the same with both pages' polling of the round every 0.5 s,
``sqlite1@0.5/2`` the projector's every 0.5 s and the tablets' every 2 s:
bench/polling_streamlit.py, to see what the intervals cost; ``postgres2@0.5`` likewise),
``postgres2`` two replicas behind Debian's nginx (deploy/replicas.py's template,
``least_conn``) on a fresh PostgreSQL database; ``postgres1`` (one replica behind the
same nginx on PostgreSQL) is there to tell the proxy's and database's part from the
second replica's.

    .venv/bin/python bench/live_round_load.py --configs sqlite1,postgres2 --rounds 3

Prints a JSON object per configuration (milliseconds). Figures in docs/BENCHMARKS.md
("A live round on the projector").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom_load import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREEN_TIMEOUT,
    ClassSetup,
    Pupil,
    PupilLog,
    WireTablet,
    _nearest_rank,
    make_class,
    open_storage,
    plan_puzzle,
    postgres_database,
    warm_up,
)

PROJECTOR_VIEWPORT = {"width": 1920, "height": 1080}
#: What a tablet shows once the teacher revealed the round (the ``classroom`` catalog's
#: ``mc.live_revealed`` in English: the tablets' locale).
REVEALED = "Look at the board"
SERVER_OPTIONS = ("--server.fileWatcherType", "none")

# The projector's probe: every change of the count (and of the round on screen) with
# its time on the page's clock, in epoch milliseconds; the reveal's click time.
_PROBE = r"""() => {
  if (window.__lr) return;
  const lr = window.__lr = {counts: [], reveal: [], revealed: [], sends: [],
                            last: undefined, shown: false};
  const now = () => performance.timeOrigin + performance.now();
  // Every message the page sends (a tap, or its fragment's timer asking for a refresh).
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    lr.sends.push(now());
    if (lr.sends.length > 5000) lr.sends.splice(0, 1000);
    return send.call(this, data);
  };
  const look = () => {
    const el = document.querySelector('[data-testid=tc-live-count]');
    const m = el && el.textContent.match(/\d+/);
    const n = m ? parseInt(m[0], 10) : null;
    if (n !== lr.last) { lr.last = n; lr.counts.push([n, now()]); }
    const shown = !!document.querySelector('[data-testid=tc-live-all-right]');
    if (shown && !lr.shown) lr.revealed.push(now());
    lr.shown = shown;
  };
  new MutationObserver(look).observe(document.body,
                                     {subtree: true, childList: true, characterData: true});
  document.addEventListener('click', (e) => {
    if (e.target.closest('.st-key-tc_live_reveal'))
      lr.reveal.push(performance.timeOrigin + e.timeStamp);
  }, true);
  look();
}"""


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "mean": round(statistics.fmean(values)),
            "p50": round(statistics.median(values)),
            "p95": round(_nearest_rank(values, 0.95)), "max": round(max(values))}


# -- the shared state of one run -------------------------------------------------------

@dataclass
class Round:
    number: int
    round_id: int = 0
    table: tuple[str, ...] = ()
    #: profile id -> the time (epoch s) the tap that wrote the answer was sent
    answer_sent: dict[int, float] = field(default_factory=dict)
    #: profile id -> the time the answering tap's run ended (the answer written)
    answer_done: dict[int, float] = field(default_factory=dict)
    reveal_click: float | None = None  # epoch s, the page's click event
    #: profile id -> when the message carrying the reveal reached the tablet
    revealed_at: dict[int, float] = field(default_factory=dict)
    #: profile id -> when the tablet sent the refresh that brought the reveal
    reveal_asked: dict[int, float] = field(default_factory=dict)
    revealed: bool = False  # the teacher tapped: the tablets watch for it


@dataclass
class Control:
    current: Round | None = None
    done: bool = False


# -- a pupil's tablet, keeping the page's timers ---------------------------------------

#: What the key of every app timer's element holds (ui.errors.friendly_fragment).
TIMER_KEY = "-look-"


class LiveTablet(WireTablet):
    """A :class:`WireTablet` that reads its socket all the time (a run the server starts
    by itself, as ``st.rerun(scope="app")`` from a fragment, is read when it comes) and
    sends each timed fragment (``ui.ticker``) again at its interval, as the browser does."""

    def __init__(self, url: str, pupil: Pupil, rng: random.Random,
                 think: tuple[float, float], log: PupilLog, control: Control) -> None:
        super().__init__(url, pupil, rng, think, log)
        self.control = control
        self.fragments: dict[str, float] = {}  # fragment id -> its interval (s)
        self.due: dict[str, float] = {}  # fragment id -> when it runs next (monotonic)
        self.finished = asyncio.Event()
        self.reader: asyncio.Task | None = None
        self.boards: dict[str, Any] = {}  # the live board as last drawn
        self.ticks = 0
        self.intervals: set[float] = set()  # the page's timers as announced
        self.last_sent = 0.0  # when the last rerun was sent (epoch s)

    def _read(self, raw: bytes) -> Any:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "new_session" and not msg.metadata.run.fragment_ids:
            # A whole run (not one fragment's): the page's timers start again.
            self.fragments.clear()
            self.due.clear()
        element = super()._read(raw)
        if element is not None and element is not _finished():
            self._look(element)
        return element

    def _timer(self, fid: str, every: float) -> None:
        """A fragment's timer as the page draws it (ui.ticker): its fragment runs again
        every ``every`` seconds."""
        self.fragments[fid] = every
        self.intervals.add(round(every, 2))
        self.due.setdefault(fid, time.monotonic() + every)

    def _look(self, element: Any) -> None:
        kind = element.WhichOneof("type")
        if kind == "bidi_component" and TIMER_KEY in element.bidi_component.id:
            # The app's timers are drawn in the fragment they rerun (ui.ticker), not asked
            # of Streamlit: the browser's tick is that fragment's rerun, as sent here.
            fid = self.fragment_of.get(element.bidi_component.id, "")
            if fid:
                self._timer(fid, json.loads(element.bidi_component.json)["every_ms"] / 1000)
        elif kind == "bidi_component" and element.bidi_component.id.endswith("-mc_live_board"):
            self.boards["live"] = {"id": element.bidi_component.id,
                                   **json.loads(element.bidi_component.json)}
        elif kind == "alert" and REVEALED in element.alert.body:
            live = self.control.current
            if live is not None and live.revealed and \
                    self.pupil.profile_id not in live.revealed_at:
                live.revealed_at[self.pupil.profile_id] = time.time()
                live.reveal_asked[self.pupil.profile_id] = self.last_sent

    async def _read_all(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        with contextlib.suppress(Exception):
            while True:
                raw = await self.ws.recv()
                peek = ForwardMsg()
                peek.ParseFromString(raw)
                if peek.WhichOneof("type") == "script_finished":
                    if peek.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        self.finished.set()
                    continue
                if peek.WhichOneof("type") == "new_session" and \
                        not peek.metadata.run.fragment_ids:
                    self.elements = []
                element = self._read(raw)
                if element is not None and element is not _finished():
                    self.elements.append(element)

    def start_reading(self) -> None:
        self.reader = asyncio.create_task(self._read_all())

    async def send(self, widgets: list[Any] = (), fragment: str = "") -> float:
        """One rerun (the whole page, or one fragment), read to its end: when it was sent."""
        msg = self.rerun_message(widgets, fragment=fragment)
        self.finished.clear()
        sent = self.last_sent = time.time()
        await self.ws.send(msg.SerializeToString())
        await asyncio.wait_for(self.finished.wait(), SCREEN_TIMEOUT)
        return sent

    async def wait(self, seconds: float) -> None:
        """Time passing on the tablet: its fragments run when they are due."""
        until = time.monotonic() + seconds
        while True:
            now = time.monotonic()
            due = min(self.due.items(), key=lambda item: item[1], default=None)
            if due is not None and due[1] <= min(now, until):
                fid = due[0]
                self.due[fid] = now + self.fragments.get(fid, 2.0)
                self.ticks += 1
                await self.send(fragment=fid)
                continue
            if now >= until:
                return
            await asyncio.sleep(min(until, due[1] if due else until) - now)

    async def answer(self, live: Round) -> None:
        """The round's sets, found on the board one by one (the board first says it is
        drawn, as the browser's does), then "Done" when one is missing."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        board = self.boards["live"]
        if board["id"] not in self.board_ready:
            self.board_ready.add(board["id"])
            self.sent_states[board["id"]] = WidgetState(id=board["id"],
                                                        json_value='{"ready":true}')
            await self.send()
        shown = time.monotonic()
        plan = plan_puzzle(board["table"], board["hand"], False, self.rng)
        for number, (card, take) in enumerate(plan.sets):
            await self.wait(self.rng.uniform(*self.think))
            board = self.boards["live"]
            if not board.get("interactive"):
                break  # the round was answered (or ended) meanwhile
            action = {"kind": "add", "position": board["position"], "card": card,
                      "take": take, "think_ms": round((time.monotonic() - shown) * 1000)}
            events = WidgetState(id=f"$$STREAMLIT_INTERNAL_KEY_{board['id']}__events",
                                 json_trigger_value=json.dumps([{"event": "action",
                                                                 "value": action}]))
            last = plan.completes and number == len(plan.sets) - 1
            sent = await self.send(widgets=[events])
            if last:
                live.answer_sent[self.pupil.profile_id] = sent
                live.answer_done[self.pupil.profile_id] = time.time()
        if self.pupil.profile_id not in live.answer_sent:
            await self.wait(self.rng.uniform(*self.think))
            sent = await self.send(widgets=[self._trigger("mc_live_done")])
            live.answer_sent[self.pupil.profile_id] = sent
            live.answer_done[self.pupil.profile_id] = time.time()

    async def play(self) -> None:
        """Until the run ends: each round answered once it is on this tablet; the page's
        timers kept between."""
        answered: set[int] = set()
        while not self.control.done:
            live = self.control.current
            board = self.boards.get("live")
            if live is not None and live.round_id and live.number not in answered and \
                    board is not None and tuple(board["table"]) == live.table and \
                    board.get("interactive"):
                answered.add(live.number)
                try:
                    await self.answer(live)
                except Exception as err:  # counted and reported
                    self.log.errors.append(f"answer: {type(err).__name__}: {err}"[:200])
                continue
            await self.wait(0.2)


def _finished() -> Any:
    from bench import classroom_load

    return classroom_load._FINISHED


# -- the projector ---------------------------------------------------------------------

async def projector_page(browser: Any, url: str, setup: ClassSetup) -> Any:
    """The teacher's page on the projector: signed in, the class open, the Projector."""
    context = await browser.new_context(viewport=PROJECTOR_VIEWPORT, locale="en-US")
    page = await context.new_page()
    page.set_default_timeout(SCREEN_TIMEOUT * 1000)
    await page.goto(f"{url}/teacher")
    await page.locator(".st-key-tc_name input").fill(setup.teacher[0])
    await page.locator(".st-key-tc_password input").fill(setup.teacher[1])
    await page.locator("[data-testid=stFormSubmitButton] button").first.click()
    await page.locator(f".st-key-tc_open_{setup.class_id} button").click()
    await page.locator(".st-key-tc_part button").filter(has_text="Projector").click()
    await page.locator(".st-key-tc_live_start button").wait_for()
    await page.evaluate(_PROBE)
    return page


async def clock_offset(page: Any) -> float:
    """The page's clock minus the driver's, in ms (the smallest of a few round trips)."""
    best: tuple[float, float] | None = None
    for _ in range(9):
        before = time.time() * 1000
        theirs = await page.evaluate("performance.timeOrigin + performance.now()")
        after = time.time() * 1000
        if best is None or after - before < best[0]:
            best = (after - before, theirs - (before + after) / 2)
    assert best is not None
    return best[1]


# -- one configuration -----------------------------------------------------------------

def _launcher(polling: str) -> list[str] | None:
    """``streamlit`` with the round's polling at ``polling`` ("0.5", "0.5/2"), or as is."""
    return [sys.executable, str(ROOT / "bench" / "polling_streamlit.py"), polling] \
        if polling else None


@contextlib.contextmanager
def _servers(config: str, work: Path) -> Iterator[tuple[str, str, dict[str, int]]]:
    """(url, database url, process ids) of the configuration's servers."""
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)
    if config.startswith("sqlite1"):
        from deploy.replicas import free_port, start_streamlit, stop, wait_healthy
        from trainer.storage import sqlite_url

        db = work / "escoba.db"
        env.pop("ESCOBA_DATABASE_URL", None)
        env["ESCOBA_DB_PATH"] = str(db)
        database = sqlite_url(str(db))
        open_storage(database).engine.dispose()  # migrated before the server opens it
        port, log = free_port(), work / "streamlit.log"
        proc = start_streamlit(port, env, log, SERVER_OPTIONS,
                               _launcher(config.partition("@")[2]))
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc, log, 120)
            yield url, database, {"a": proc.pid}
        finally:
            stop(proc, wait=30)
        return
    from deploy.replicas import replicas_behind_nginx

    replicas, _, polling = config.removeprefix("postgres").partition("@")
    count = int(replicas)
    with postgres_database() as database, replicas_behind_nginx(
            database, count, work / f"replicas-{count}", env=env,
            options=SERVER_OPTIONS, launcher=_launcher(polling)) as cluster:
        pids = {r.name: r.process.pid for r in cluster.replicas}
        pids["nginx"] = cluster.nginx.pid
        yield cluster.url, database, pids


def _answer_ranks(database: str, round_id: int) -> dict[int, int]:
    """Each answer's place in its round (1: the first written), by ``created_at``."""
    import sqlalchemy as sa

    from trainer.storage.schema import live_answers

    store = open_storage(database, migrate=False)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(sa.select(live_answers.c.profile_id)
                                .where(live_answers.c.round_id == round_id)
                                .order_by(live_answers.c.created_at,
                                          live_answers.c.profile_id)).scalars().all()
    finally:
        store.engine.dispose()
    return {pid: rank for rank, pid in enumerate(rows, start=1)}


def _round_row(database: str, class_id: int) -> Any:
    from trainer.live import LiveRound

    store = open_storage(database, migrate=False)
    try:
        row = store.live_round(class_id)
    finally:
        store.engine.dispose()
    return None if row is None else LiveRound.of(row)


def _cpu(pids: dict[str, int]) -> dict[str, float]:
    from bench.classroom_load import _descendants, _proc_stat

    out = {}
    for name, pid in pids.items():
        total = 0.0
        for each in {pid, *_descendants(pid)}:
            stat = _proc_stat(each)
            if stat is not None:
                total += stat[1]
        out[name] = total
    return out


async def run_rounds(url: str, database: str, setup: ClassSetup, args: argparse.Namespace
                     ) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    think = tuple(float(x) for x in args.think.split(","))
    control = Control()
    logs = [PupilLog(p, client="wire") for p in setup.pupils]
    tablets = [LiveTablet(url, log.pupil, random.Random(f"{args.seed}-{i}"), think, log,
                          control) for i, log in enumerate(logs)]
    await warm_up(url, setup.warm_up_profile)
    rounds: list[Round] = []
    notes: dict[str, Any] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await projector_page(browser, url, setup)
        # The class comes in: a few tablets at a time, as children do.
        gate = asyncio.Semaphore(6)

        async def enter(tablet: LiveTablet) -> None:
            async with gate:
                await tablet.sign_in(setup.code)
            tablet.start_reading()

        began = time.monotonic()
        await asyncio.gather(*(enter(t) for t in tablets))
        notes["sign_in_seconds"] = round(time.monotonic() - began, 1)
        players = [asyncio.create_task(t.play()) for t in tablets]
        await page.get_by_text(f"{len(tablets)} pupils are in").wait_for(timeout=60_000)
        offset = await clock_offset(page)
        notes["page_clock_offset_ms"] = round(offset, 2)
        cpu_before, wall_before = _cpu(args.pids), time.monotonic()
        for number in range(1, args.rounds + 1):
            live = Round(number)
            control.current = live
            await page.locator(".st-key-tc_live_start button").click()
            await page.get_by_text("0 answers in").wait_for()
            row = _round_row(database, setup.class_id)
            live.table = tuple(str(c) for c in row.puzzle.table)
            live.round_id = row.id
            deadline = time.monotonic() + args.answer_seconds
            while len(live.answer_done) < len(tablets) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            await page.get_by_text(f"{len(live.answer_done)} answers in").wait_for()
            await asyncio.sleep(1.0)
            live.revealed = True
            await page.locator(".st-key-tc_live_reveal button").click()
            deadline = time.monotonic() + 20
            while len(live.revealed_at) < len(tablets) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            probe = await page.evaluate("window.__lr")
            live.reveal_click = (probe["reveal"][-1] - offset) / 1000
            ranks = _answer_ranks(database, live.round_id)
            counts = [(n, (at - offset) / 1000) for n, at in probe["counts"]]
            probe["sends"] = [(at - offset) / 1000 for at in probe["sends"]]
            rounds.append(live)
            _score(live, ranks, counts, probe, offset, notes)
            if number == 1 and args.screenshot:
                await page.screenshot(path=str(args.screenshot))
            await page.locator(".st-key-tc_live_close button").click()
            await page.locator(".st-key-tc_live_start button").wait_for()
            await page.evaluate("window.__lr.counts = []; window.__lr.last = undefined")
            await asyncio.sleep(2.5)  # the tablets go back to their tasks
        wall = time.monotonic() - wall_before
        cpu_after = _cpu(args.pids)
        control.done = True
        await asyncio.gather(*players, return_exceptions=True)
        for tablet in tablets:
            if tablet.reader is not None:
                tablet.reader.cancel()
            with contextlib.suppress(Exception):
                await tablet.close()
        await browser.close()
    notes["cores"] = {name: round((cpu_after[name] - cpu_before.get(name, 0)) / wall, 2)
                      for name in cpu_after}
    notes["pupil_page_timers_s"] = sorted({i for t in tablets for i in t.intervals})
    notes["fragment_ticks_per_s"] = round(sum(t.ticks for t in tablets) / wall, 1)
    notes["errors"] = [e for log in logs for e in log.errors]
    return notes


def _score(live: Round, ranks: dict[int, int], counts: list[tuple[int | None, float]],
           probe: dict[str, Any], offset: float, notes: dict[str, Any]) -> None:
    """Each answer's tap-to-count and each tablet's reveal time, kept in ``notes``."""
    to_count = notes.setdefault("tap_to_count", [])
    written = notes.setdefault("tap_to_written", [])
    missing = notes.setdefault("count_never_shown", 0)
    for pid, sent in live.answer_sent.items():
        rank = ranks.get(pid)
        written.append((live.answer_done[pid] - sent) * 1000)
        shown = next((at for n, at in counts if n is not None and rank is not None
                      and n >= rank and at >= sent), None)
        if shown is None:
            missing += 1
            continue
        to_count.append((shown - sent) * 1000)
        # The projector's refresh that brought it: the last message its page sent before.
        asked = max((at for at in probe["sends"] if at <= shown), default=None)
        if asked is not None and asked >= sent:
            notes.setdefault("tap_to_projector_refresh", []).append((asked - sent) * 1000)
            notes.setdefault("projector_refresh_to_count", []).append((shown - asked) * 1000)
    notes["count_never_shown"] = missing
    reveal = notes.setdefault("reveal_to_tablet", [])
    for pid, at in live.revealed_at.items():
        reveal.append((at - live.reveal_click) * 1000)
        asked = live.reveal_asked.get(pid)
        if asked is not None and asked >= live.reveal_click:
            notes.setdefault("reveal_to_tablet_refresh", []).append(
                (asked - live.reveal_click) * 1000)
            notes.setdefault("tablet_refresh_to_reveal", []).append((at - asked) * 1000)
    notes["reveal_not_seen"] = notes.get("reveal_not_seen", 0) + \
        len(live.answer_sent) - len(live.revealed_at)
    if probe["revealed"]:
        notes.setdefault("reveal_to_projector", []).append(
            probe["revealed"][-1] - probe["reveal"][-1])
    notes.setdefault("answers", []).append(len(live.answer_sent))


def run_config(config: str, args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix=f"liveround-{config.replace('/', '-')}-"))
    with _servers(config, work) as (url, database, pids):
        setup = make_class(database, args.pupils)
        args.pids = pids
        notes = asyncio.run(run_rounds(url, database, setup, args))
    out: dict[str, Any] = {"config": config, "pupils": args.pupils, "rounds": args.rounds}
    for key in ("tap_to_count", "tap_to_written", "tap_to_projector_refresh",
                "projector_refresh_to_count", "reveal_to_tablet", "reveal_to_tablet_refresh",
                "tablet_refresh_to_reveal", "reveal_to_projector"):
        out[key] = summary(notes.pop(key, []))
    out.update(notes)
    out["load_average"] = round(os.getloadavg()[0], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="sqlite1,postgres2",
                        help="sqlite1, postgres1, postgres2 (comma-separated)")
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", default="1,3", help="a child's pause between taps: min,max s")
    parser.add_argument("--answer-seconds", type=float, default=60,
                        help="how long a round waits for every answer before the reveal")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--screenshot", type=Path, default=None,
                        help="the projector at the first reveal, as a PNG")
    args = parser.parse_args()
    from bench.practice_bench import _quiet

    _quiet()
    print(json.dumps({"machine": platform.machine(), "cpus": os.cpu_count(),
                      "python": platform.python_version()}), flush=True)
    for config in args.configs.split(","):
        began = time.perf_counter()
        report = run_config(config.strip(), args)
        report["bench_seconds"] = round(time.perf_counter() - began)
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
