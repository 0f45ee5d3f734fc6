"""A running replica's memory over a compressed hour of class use (issue 32).

    .venv/bin/python bench/replica_memory.py --pupils 30 --seconds 900

One app replica (``streamlit run app.py``, as ``bench/replicas_capacity.py`` starts
it) on a fresh PostgreSQL database (``--database sqlite``: a file), ``--pupils``
children (``?p=``) on wire tablets (``bench.classroom_load.WireTablet``: quick facts
and "for me" puzzles on the board), tapping faster than children do (``--think``,
0.2-0.8 s) so that an hour of a class's taps fits in a few minutes. Each tablet comes
and goes: after ``--visit`` seconds it closes its session and opens a new one (a
child leaving and the next one sitting down; Streamlit keeps a closed session's
state a while). The replica's RSS (``/proc/PID/status``) is sampled every
``--every`` seconds with the taps answered so far. Class time is counted in taps: a
class of 30 tapping every 2 s makes 900 taps a minute, so "5 minutes" is 4,500 taps
and "an hour" 54,000. Prints the samples and the RSS at 5 minutes, at the end, and
their ratio (goal: the hour within 1.3x of the 5 minutes). The replica runs in the
environment ``escoba serve`` gives it (``MALLOC_ARENA_MAX=2``); ``--glibc-arenas``
leaves glibc's default (8 arenas a core) to measure beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom_load import PupilLog, _proc_stat, rss_mb, warm_up  # noqa: E402
from bench.replicas_capacity import SERVER_OPTIONS, ChildTablet, make_children  # noqa: E402
from bench.tap_cpu import on_database  # noqa: E402
from deploy.replicas import free_port, start_streamlit, stop, wait_healthy  # noqa: E402
from trainer.server_cli import serve_environment  # noqa: E402

#: Taps of a class of 30 in a minute (a tap every 2 s each).
CLASS_MINUTE_TAPS = 30 * 30


async def pupil(url: str, child: Any, n: int, deadline: float, args: argparse.Namespace,
                logs: list[PupilLog]) -> None:
    visit = 0
    while time.monotonic() < deadline:
        log = PupilLog(child, client="wire")
        logs.append(log)
        tablet = ChildTablet(url, child, random.Random(f"{args.seed}-{n}-{visit}"),
                             args.think, log)
        try:
            await tablet.open()
            await tablet.play(min(deadline, time.monotonic() + args.visit),
                              start_with_puzzles=(n + visit) % 2 == 1)
        except Exception as err:  # counted; the child sits down again
            log.errors.append(f"{type(err).__name__}: {err}".splitlines()[0][:200])
        await tablet.close()
        visit += 1


async def sample(pid: int, logs: list[PupilLog], deadline: float, every: float,
                 began: float, out: list[dict[str, Any]]) -> None:
    while time.monotonic() < deadline:
        taps = sum(len(log.samples) for log in logs)
        out.append({"s": round(time.monotonic() - began), "taps": taps,
                    "rss_mb": round(rss_mb(pid), 1),
                    "cpu_s": round((_proc_stat(pid) or (0, 0.0))[1], 1),
                    "sessions_opened": len(logs),
                    "errors": sum(len(log.errors) for log in logs)})
        print(json.dumps(out[-1]), flush=True)
        await asyncio.sleep(every)


def at_taps(samples: list[dict[str, Any]], taps: int) -> dict[str, Any] | None:
    return next((s for s in samples if s["taps"] >= taps), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=900)
    parser.add_argument("--think", default="0.2,0.8")
    parser.add_argument("--visit", type=float, default=120, help="seconds a session lasts")
    parser.add_argument("--every", type=float, default=10, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--database", default="postgres", help="postgres or sqlite")
    parser.add_argument("--traced", type=Path, default=None, metavar="DIR",
                        help="run the replica under bench/traced_streamlit.py, its "
                        "tracemalloc snapshots in DIR")
    parser.add_argument("--glibc-arenas", action="store_true",
                        help="the replica without escoba serve's MALLOC_ARENA_MAX")
    args = parser.parse_args()
    args.think = tuple(float(x) for x in args.think.split(","))
    from bench.practice_bench import _quiet

    _quiet()
    work = Path(tempfile.mkdtemp(prefix="replica-memory-"))
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)
    env.pop("MALLOC_ARENA_MAX", None)

    def run(database_url: str) -> dict[str, Any]:
        children = make_children(database_url, args.pupils)
        # As `escoba serve` starts a school's replica (glibc's arenas: SERVE_ENVIRONMENT).
        app_env = serve_environment({**env, "ESCOBA_DATABASE_URL": database_url})
        if args.glibc_arenas:
            app_env.pop("MALLOC_ARENA_MAX")
        port = free_port()
        log = work / "app.log"
        command = None if args.traced is None else [
            sys.executable, str(ROOT / "bench" / "traced_streamlit.py"), str(args.traced)]
        proc = start_streamlit(port, app_env, log, SERVER_OPTIONS, command)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc, log)
            asyncio.run(warm_up(url, children[0].profile_id))
            started_rss = rss_mb(proc.pid)
            samples: list[dict[str, Any]] = []
            logs: list[PupilLog] = []

            async def everything() -> None:
                began = time.monotonic()
                deadline = began + args.seconds
                await asyncio.gather(
                    sample(proc.pid, logs, deadline, args.every, began, samples),
                    *(pupil(url, child, n, deadline, args, logs)
                      for n, child in enumerate(children)))
                samples.append({"s": round(time.monotonic() - began),
                                "taps": sum(len(lg.samples) for lg in logs),
                                "rss_mb": round(rss_mb(proc.pid), 1),
                                "cpu_s": round((_proc_stat(proc.pid) or (0, 0.0))[1], 1),
                                "sessions_opened": len(logs),
                                "errors": sum(len(lg.errors) for lg in logs)})

            asyncio.run(everything())
            five = at_taps(samples, 5 * CLASS_MINUTE_TAPS)
            end = samples[-1]
            return {"rss_after_warm_up_mb": round(started_rss, 1),
                    "five_minutes": five, "end": end,
                    "class_minutes_at_end": round(end["taps"] / CLASS_MINUTE_TAPS, 1),
                    "end_over_five_minutes": round(end["rss_mb"] / five["rss_mb"], 3)
                    if five else None,
                    "errors": [e for lg in logs for e in lg.errors][:5],
                    "log": str(log)}
        finally:
            stop(proc, wait=60)

    result = on_database(args.database, work, run)
    result.update({"pupils": args.pupils, "seconds": args.seconds,
                   "malloc_arena_max": "glibc" if args.glibc_arenas else "serve's",
                   "think": list(args.think), "visit": args.visit,
                   "load_average": [round(x, 2) for x in os.getloadavg()]})
    print(json.dumps(result, indent=1), flush=True)


if __name__ == "__main__":
    main()
