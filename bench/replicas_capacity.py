"""How many children one app replica serves, and what a second one adds (issue 16).

The school's server of docs/DEPLOY.md on loopback: a fresh PostgreSQL database,
``streamlit run serve.py`` replicas (deploy/replicas.py) behind Debian's nginx with the
repo's template (1 replica, then 2, both through the proxy so that it costs the same).
Each step of a ramp starts ``N`` sessions at once through the proxy, a child each
(its own profile, opened by ``?p=``), that play as the class of 30 does
(bench/classroom_load.py's :class:`~bench.classroom_load.WireTablet`: rounds of quick
facts and "for me" puzzles on the board, 1-3 s of thought between taps), for
``--seconds``; a tap's time runs from sending it to the arrival of the message
carrying its screen (Streamlit's own WebSocket protocol; no browser draws it: 30
Chromium pages alone saturate this machine, docs/BENCHMARKS.md). The nginx upstream
``least_conn`` spreads new sessions over the replicas. The ramp goes on (``--step``)
until the p95 of the answers' tap-to-screen passes 1 s (or ``--max``).

An empty page in the same run, before and after the ramps: the same clients tapping
a button on a one-line Streamlit script (one process, no proxy, no database) at the
same pace, as many as the first step: what Streamlit and this machine's load cost
without the app.

    .venv/bin/python bench/replicas_capacity.py --replicas 1,2 --start 20 --step 20 \\
        --seconds 30

Prints a JSON object per step as it goes, then the summary: sessions at p95 < 1 s per
configuration, per replica, and the ratio of two replicas to one. Figures in
docs/BENCHMARKS.md ("A school's server").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom_load import (  # noqa: E402
    ANSWER_TAPS,
    Pupil,
    PupilLog,
    WireTablet,
    _machine,
    _proc_stat,
    _summary,
    open_storage,
    postgres_database,
    warm_up,
)
from deploy.replicas import (  # noqa: E402
    free_port,
    replicas_behind_nginx,
    start_streamlit,
    stop,
    wait_healthy,
)

#: A tap's screen later than this is a failure of the step, not a sample.
GOAL_MS = 1000
#: Sessions that open their first page at the same time (a class does not start in
#: one millisecond; the measurement starts once all are in).
OPENING_AT_ONCE = 10
SERVER_OPTIONS = ("--server.fileWatcherType", "none")
EMPTY_PAGE = """import streamlit as st
st.session_state.taps = st.session_state.get("taps", 0) + st.button("Tap", key="tap")
st.markdown(f"taps: {st.session_state.taps}")
"""


class EmptyPageTablet(WireTablet):
    """A client of the one-line page: a tap on its button, timed to the new text."""

    async def open(self) -> None:
        await self.connect()
        await self.rerun()

    async def play(self, deadline: float, start_with_puzzles: bool) -> None:
        while time.monotonic() < deadline:
            await self.pause()
            self.log.answer_taps += 1
            await self.rerun(widgets=[self._trigger("tap")], kind="empty",
                             screen=lambda e: e.WhichOneof("type") == "markdown")
            self.log.quick_answers += 1


class ChildTablet(WireTablet):
    """A child's tablet on the app: opened on its profile by ``?p=`` (no PIN), then
    quick facts and puzzles in turn (:func:`bench.classroom_load.play_in_turns`)."""

    async def open(self) -> None:
        await self.connect()
        self.query = f"p={self.pupil.profile_id}"
        await self.rerun(page_name="quick_facts")


def make_children(database_url: str, count: int) -> list[Pupil]:
    """``count`` profiles without a PIN (a home's, or a class's tablets already chosen)."""
    store = open_storage(database_url)
    try:
        return [Pupil(store.create_profile(f"Child {n}", "🙂").id, f"Child {n}", "")
                for n in range(1, count + 1)]
    finally:
        store.engine.dispose()


async def run_step(url: str, children: list[Pupil], seconds: float,
                   think: tuple[float, float], seed: int, tablet: type = ChildTablet,
                   ) -> tuple[list[PupilLog], float]:
    """``len(children)`` sessions open at once (``OPENING_AT_ONCE`` at a time), then all
    play for ``seconds``; (their logs, the start of the measured window)."""
    logs = [PupilLog(child, client="wire") for child in children]
    tablets = [tablet(url, child, random.Random(f"{seed}-{n}"), think, log)
               for n, (child, log) in enumerate(zip(children, logs, strict=True))]
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    opened = asyncio.Event()
    remaining = len(tablets)
    window: dict[str, float] = {}

    async def one(n: int, tab: WireTablet) -> None:
        nonlocal remaining
        try:
            async with gate:
                await tab.open()
        except Exception as err:  # counted: a session that never opened
            tab.log.errors.append(f"open: {type(err).__name__}: {err}".splitlines()[0])
        remaining -= 1
        if remaining == 0:
            window["start"] = time.monotonic()
            opened.set()
        await opened.wait()
        if tab.log.errors:
            return
        try:
            await tab.play(window["start"] + seconds, start_with_puzzles=n % 2 == 1)
        except Exception as err:  # counted; this session stops
            tab.log.errors.append(f"{type(err).__name__}: {err}".splitlines()[0][:300])
        await tab.close()

    await asyncio.gather(*(one(n, t) for n, t in enumerate(tablets)))
    return logs, window["start"]


def figures(logs: list[PupilLog], start: float, seconds: float) -> dict[str, Any]:
    """Tap-to-screen of the answers (and of every tap) begun in the window."""
    end = start + seconds
    steady = [(kind, ms) for log in logs for kind, ms, at in log.samples
              if start <= at - ms / 1000 <= end]
    answers = [ms for kind, ms in steady if kind in (*ANSWER_TAPS, "empty")]
    return {"answers_ms": _summary(answers), "every_tap_ms": _summary([ms for _, ms in steady]),
            "taps_per_second": round(len(steady) / seconds, 1),
            "errors": [e for log in logs for e in log.errors][:5],
            "sessions_with_errors": sum(1 for log in logs if log.errors),
            "unconfirmed_taps": sum(sum(log.unconfirmed.values()) for log in logs)}


class Usage:
    """CPU seconds of some processes, of this driver and of the machine over a step."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.before = self._now()

    def _now(self) -> dict[str, float]:
        found = {name: (_proc_stat(pid) or (0, 0.0))[1] for name, pid in self.pids.items()}
        found["driver"] = time.process_time()
        found["machine_busy"], found["machine_total"] = _machine()
        found["wall"] = time.monotonic()
        return found

    def cores(self) -> dict[str, float]:
        after = self._now()
        wall = after["wall"] - self.before["wall"]
        used = {k: after[k] - self.before[k] for k in after if k != "wall"}
        out = {k: round(v / wall, 2) for k, v in used.items()
               if not k.startswith("machine")}
        out["machine_busy_share"] = round(used["machine_busy"] / used["machine_total"], 2)
        out["load_average_1min"] = round(os.getloadavg()[0], 2)
        return out


def passes(step: dict[str, Any]) -> bool:
    answers = step["answers_ms"]
    return answers.get("n", 0) > 0 and answers["p95"] < GOAL_MS \
        and step["sessions_with_errors"] == 0 and step["unconfirmed_taps"] == 0


def ramp(database_url: str, children: list[Pupil], replicas: int, args: argparse.Namespace,
         work: Path) -> list[dict[str, Any]]:
    """Steps of ``--start``, +``--step``... sessions on ``replicas`` replicas behind
    nginx, until one misses the goal (or ``--max``)."""
    steps = []
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)
    with replicas_behind_nginx(database_url, replicas, work / f"replicas-{replicas}", env=env,
                               options=SERVER_OPTIONS) as cluster:
        for replica in cluster.replicas:  # first imports and caches: not a child's wait
            asyncio.run(warm_up(replica.url, children[0].profile_id))
        count = args.start
        while count <= min(args.max, len(children)):
            pids = {r.name: r.process.pid for r in cluster.replicas}
            pids["nginx"] = cluster.nginx.pid
            usage = Usage(pids)
            logs, start = asyncio.run(run_step(cluster.url, children[:count], args.seconds,
                                               args.think, args.seed))
            step = {"replicas": replicas, "sessions": count,
                    **figures(logs, start, args.seconds), "cores": usage.cores()}
            step["passes"] = passes(step)
            print(json.dumps(step), flush=True)
            steps.append(step)
            if not step["passes"]:
                break
            count += args.step
    return steps


def empty_page(sessions: int, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """The baseline: ``sessions`` clients tapping a one-line page's button."""
    script = work / "empty_page.py"
    script.write_text(EMPTY_PAGE)
    port = free_port()
    log = work / f"empty-{port}.log"
    proc = start_streamlit(port, dict(os.environ), log, SERVER_OPTIONS, script=script)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, proc, log)
        usage = Usage({"server": proc.pid})
        visitors = [Pupil(0, f"Visitor {n}", "") for n in range(sessions)]
        logs, start = asyncio.run(run_step(url, visitors, args.seconds, args.think, args.seed,
                                           tablet=EmptyPageTablet))
        return {"empty_page": True, "sessions": sessions,
                **figures(logs, start, args.seconds), "cores": usage.cores()}
    finally:
        stop(proc)


def best(steps: list[dict[str, Any]]) -> int:
    """The most sessions of a step that met the goal (0: none did)."""
    return max((s["sessions"] for s in steps if s["passes"]), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", default="1,2", help="configurations to ramp (1,2)")
    parser.add_argument("--start", type=int, default=20, help="sessions in the first step")
    parser.add_argument("--step", type=int, default=20, help="sessions added at each step")
    parser.add_argument("--max", type=int, default=300, help="stop the ramp there")
    parser.add_argument("--seconds", type=float, default=30, help="measured time per step")
    parser.add_argument("--think", default="1,3", help="a child's pause between taps: min,max s")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--no-empty-page", action="store_true", help="skip the baseline")
    args = parser.parse_args()
    args.think = tuple(float(x) for x in args.think.split(","))
    from bench.practice_bench import _quiet

    _quiet()
    work = Path(tempfile.mkdtemp(prefix="replicas-capacity-"))
    began = time.perf_counter()
    report: dict[str, Any] = {"python": platform.python_version(), "cores": os.cpu_count(),
                              "goal_p95_ms": GOAL_MS, "seconds_per_step": args.seconds,
                              "think_seconds": list(args.think), "work": str(work)}
    baselines = []
    if not args.no_empty_page:
        baselines.append(empty_page(args.start, args, work))
        print(json.dumps(baselines[-1]), flush=True)
    results: dict[int, list[dict[str, Any]]] = {}
    with postgres_database() as url:
        children = make_children(url, args.max)
        for replicas in (int(r) for r in args.replicas.split(",")):
            results[replicas] = ramp(url, children, replicas, args, work)
    if not args.no_empty_page:
        baselines.append(empty_page(args.start, args, work))
        print(json.dumps(baselines[-1]), flush=True)
    sessions = {r: best(steps) for r, steps in results.items()}
    report.update({
        "sessions_at_goal": sessions,
        "sessions_per_replica_at_goal": {r: round(n / r, 1) for r, n in sessions.items()},
        "two_over_one": round(sessions[2] / sessions[1], 2)
        if sessions.get(1) and 2 in sessions else None,
        "empty_page": [{k: b[k] for k in ("sessions", "answers_ms", "cores")}
                       for b in baselines],
        "bench_seconds": round(time.perf_counter() - began)})
    print(json.dumps(report, indent=1), flush=True)


if __name__ == "__main__":
    main()
