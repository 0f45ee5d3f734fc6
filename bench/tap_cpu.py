"""A tap's CPU on one app replica beside a bare Streamlit page's, in one run (issue 32).

    .venv/bin/python bench/tap_cpu.py --sessions 30 --seconds 30 --rounds 3
    .venv/bin/python bench/tap_cpu.py --profile /tmp/app.prof   # where the app's goes

Two servers side by side, no proxy: the app (``streamlit run serve.py`` on a fresh
PostgreSQL database, or ``--database sqlite``) and the one-line page of
``bench/replicas_capacity.py`` (a button and a count). Round after round, the same
number of clients on each in turn, at the same pace (1-3 s between taps): on the app
the children of ``bench/replicas_capacity.py`` (``?p=``, rounds of quick facts and
"for me" puzzles on the board, ``bench.classroom_load.WireTablet``), on the bare page
a tap on its button. Each server's CPU (``/proc``) over its window, divided by the
reruns its clients asked for in that window (every rerun: the board's ``ready``, a
page from the menu) and by the timed taps. ``--base DIR``: another checkout's app
(``git archive main``, say) in each round too, on the same database, for a before and
after side by side. ``--profile OUT.prof``: the app runs under
``bench/profiled_streamlit.py`` (about twice the CPU: shares, not times).
``--writing``: a third page in each round, the bare page whose tap also writes one
quick fact's answer as the app writes it (:data:`WRITING_PAGE`, on the app's database):
the least an answer written where nothing is lost costs on Streamlit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom_load import (  # noqa: E402
    ANSWER_TAPS,
    Pupil,
    PupilLog,
    _proc_stat,
    _summary,
    open_storage,
    postgres_database,
    warm_up,
)
from bench.replicas_capacity import (  # noqa: E402
    EMPTY_PAGE,
    SERVER_OPTIONS,
    ChildTablet,
    EmptyPageTablet,
    make_children,
)
from deploy.replicas import free_port, start_streamlit, stop, wait_healthy  # noqa: E402

T = TypeVar("T")


class Counted:
    """Counts every rerun a tablet sends (a mixin before the tablet class)."""

    runs = 0

    async def rerun(self, **kwargs: Any) -> None:  # type: ignore[override]
        Counted.runs += 1
        type(self).runs_of_kind += 1
        await super().rerun(**kwargs)  # type: ignore[misc]


class CountedChild(Counted, ChildTablet):
    runs_of_kind = 0


class CountedEmpty(Counted, EmptyPageTablet):
    runs_of_kind = 0


class WritingTablet(EmptyPageTablet):
    """A client of :data:`WRITING_PAGE`, opened on its own profile (``?p=``)."""

    async def open(self) -> None:
        await self.connect()
        self.query = f"p={self.pupil.profile_id}"
        await self.rerun()


class CountedWriting(Counted, WritingTablet):
    runs_of_kind = 0



#: The bare page whose tap also writes one quick fact's answer, as the app writes it
#: (``ui.practice.record_attempt``: the attempt, its per-fact and per-day aggregates, the
#: profile's version, in one transaction), for the profile of ``?p=``: what an answer
#: costs at the least on Streamlit when it is written where nothing is lost.
WRITING_PAGE = f"""import sys
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
from puzzles.practice import quick_facts_set
from trainer.practice_sessions import QuickRound
from ui.practice import attempt_row, record_attempt
if st.button("Tap", key="tap"):
    tapped = QuickRound("2", 15, quick_facts_set(2, 1, 1, 15))
    puzzle, result, seconds = tapped.answer(8)
    record_attempt(int(st.query_params["p"]), attempt_row(puzzle, result, seconds, [8], "quick"))
    st.session_state.taps = st.session_state.get("taps", 0) + 1
st.markdown(f"taps: {{st.session_state.get('taps', 0)}}")
"""


def _served(root: Path) -> Path:
    """What a checkout's server runs: ``serve.py``, or ``app.py`` before it had one."""
    return root / "serve.py" if (root / "serve.py").is_file() else root / "app.py"

def on_database(kind: str, work: Path, run: Callable[[str], T]) -> T:
    """``run(url)`` on a fresh database: ``sqlite`` (a file in ``work``) or ``postgres``."""
    if kind == "sqlite":
        return run(f"sqlite:///{work / 'app.db'}")
    with postgres_database() as url:
        return run(url)


def make_others(database_url: str, count: int, name: str = "Other") -> list[Pupil]:
    """The base's children (or the writing page's visitors): their own profiles (a name
    is taken once)."""
    store = open_storage(database_url)
    try:
        return [Pupil(store.create_profile(f"{name} {n}", "🙂").id, f"{name} {n}", "")
                for n in range(1, count + 1)]
    finally:
        store.engine.dispose()


def start(script: Path | None, env: dict[str, str], log: Path, profile: Path | None,
          root: Path | None = None):
    """A server of ``script`` (None: the app), or of another checkout's app (``root``)."""
    port = free_port()
    command = None if profile is None else [
        sys.executable, str(ROOT / "bench" / "profiled_streamlit.py"), str(profile)]
    if root is not None:
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(_served(root)),
                 "--server.headless", "true", "--server.address", "127.0.0.1",
                 "--server.port", str(port), *SERVER_OPTIONS],
                cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    else:
        kwargs = {} if script is None else {"script": script}
        proc = start_streamlit(port, env, log, SERVER_OPTIONS, command, **kwargs)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, proc, log)
    return url, proc


async def step(url: str, people: list[Pupil], tablet: type, seconds: float,
               think: tuple[float, float], seed: int, pid: int) -> dict[str, Any]:
    logs = [PupilLog(p, client="wire") for p in people]
    tablets = [tablet(url, p, random.Random(f"{seed}-{n}"), think, log)
               for n, (p, log) in enumerate(zip(people, logs, strict=True))]
    for tab in tablets:  # opened before the window: a new session's first run is not a tap
        await tab.open()
    runs_before = tablet.runs_of_kind
    cpu_before = _proc_stat(pid)[1]
    began = time.monotonic()
    await asyncio.gather(*(tab.play(began + seconds, start_with_puzzles=n % 2 == 1)
                           for n, tab in enumerate(tablets)))
    cpu = _proc_stat(pid)[1] - cpu_before
    wall = time.monotonic() - began
    runs = tablet.runs_of_kind - runs_before
    for tab in tablets:
        await tab.close()
    samples = [(kind, ms) for log in logs for kind, ms, _ in log.samples]
    answers = [ms for kind, ms in samples if kind in (*ANSWER_TAPS, "empty")]
    errors = [e for log in logs for e in log.errors]
    return {"sessions": len(people), "cpu_s": round(cpu, 2), "wall_s": round(wall, 1),
            "cores": round(cpu / wall, 3), "runs": runs, "taps": len(samples),
            "cpu_ms_per_run": round(cpu * 1000 / max(runs, 1), 2),
            "cpu_ms_per_tap": round(cpu * 1000 / max(len(samples), 1), 2),
            "answers_ms": _summary(answers), "errors": errors[:3],
            "load_average_1min": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", default="1,3")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--database", default="postgres", help="postgres or sqlite")
    parser.add_argument("--profile", type=Path, help="cProfile the app's server to this file")
    parser.add_argument("--no-bare", action="store_true", help="the app only")
    parser.add_argument("--writing", action="store_true",
                        help="also the bare page whose tap writes one answer as the app "
                             "does, on the same database (each round)")
    parser.add_argument("--base", type=Path,
                        help="another checkout (e.g. main exported): its app in each round "
                             "too, on the same database, with other children")
    args = parser.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    from bench.practice_bench import _quiet

    _quiet()
    work = Path(tempfile.mkdtemp(prefix="tap-cpu-"))
    (work / "empty_page.py").write_text(EMPTY_PAGE)
    (work / "writing_page.py").write_text(WRITING_PAGE)
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)

    def run(database_url: str) -> dict[str, Any]:
        children = make_children(database_url, args.sessions)
        others = make_others(database_url, args.sessions) if args.base else []
        app_env = {**env, "ESCOBA_DATABASE_URL": database_url}
        app_url, app = start(None, app_env, work / "app.log", args.profile)
        writers = make_others(database_url, args.sessions, "Writer") if args.writing else []
        bare_url = bare = base_url = base = writing_url = writing = None
        try:
            if args.writing:
                writing_url, writing = start(work / "writing_page.py", app_env,
                                             work / "writing.log", None)
            asyncio.run(warm_up(app_url, children[0].profile_id))
            if args.base:
                base_url, base = start(None, app_env, work / "base.log", None, args.base)
                asyncio.run(warm_up(base_url, others[0].profile_id))
            if not args.no_bare:
                bare_url, bare = start(work / "empty_page.py", env, work / "bare.log", None)
            visitors = [Pupil(0, f"Visitor {n}", "") for n in range(args.sessions)]
            rounds = []
            for n in range(args.rounds):
                pair = {}
                if bare is not None:
                    pair["bare"] = asyncio.run(step(bare_url, visitors, CountedEmpty,
                                                    args.seconds, think, args.seed + n,
                                                    bare.pid))
                if writing is not None:
                    pair["writing"] = asyncio.run(step(writing_url, writers, CountedWriting,
                                                       args.seconds, think, args.seed + n,
                                                       writing.pid))
                if base is not None:
                    pair["base"] = asyncio.run(step(base_url, others, CountedChild,
                                                    args.seconds, think, args.seed + n,
                                                    base.pid))
                pair["app"] = asyncio.run(step(app_url, children, CountedChild, args.seconds,
                                               think, args.seed + n, app.pid))
                if base is not None:
                    pair["app_over_base"] = round(pair["app"]["cpu_ms_per_tap"]
                                                  / pair["base"]["cpu_ms_per_tap"], 2)
                    if bare is not None:
                        pair["base_ratio_per_tap"] = round(
                            pair["base"]["cpu_ms_per_tap"] / pair["bare"]["cpu_ms_per_tap"], 2)
                if bare is not None:
                    pair["ratio_per_tap"] = round(pair["app"]["cpu_ms_per_tap"]
                                                  / pair["bare"]["cpu_ms_per_tap"], 2)
                    if writing is not None:
                        pair["writing_ratio_per_tap"] = round(
                            pair["writing"]["cpu_ms_per_tap"]
                            / pair["bare"]["cpu_ms_per_tap"], 2)
                print(json.dumps(pair), flush=True)
                rounds.append(pair)
            return {"rounds": rounds}
        finally:
            for server in (bare, base, writing):
                if server is not None:
                    stop(server)
            stop(app, wait=60)

    result = on_database(args.database, work, run)
    rounds = result["rounds"]

    def median(values: list[float]) -> float:
        values = sorted(values)
        return values[len(values) // 2] if values else 0.0

    summary = {"app_cpu_ms_per_tap": median([r["app"]["cpu_ms_per_tap"] for r in rounds]),
               "app_cpu_ms_per_run": median([r["app"]["cpu_ms_per_run"] for r in rounds])}
    if args.base:
        summary["base_cpu_ms_per_tap"] = median([r["base"]["cpu_ms_per_tap"] for r in rounds])
        summary["app_over_base"] = median([r["app_over_base"] for r in rounds])
    if not args.no_bare:
        summary.update({
            "bare_cpu_ms_per_tap": median([r["bare"]["cpu_ms_per_tap"] for r in rounds]),
            "ratio_per_tap": median([r["ratio_per_tap"] for r in rounds])})
        if args.base:
            summary["base_ratio_per_tap"] = median([r["base_ratio_per_tap"] for r in rounds])
        if args.writing:
            summary["writing_cpu_ms_per_tap"] = median(
                [r["writing"]["cpu_ms_per_tap"] for r in rounds])
            summary["writing_ratio_per_tap"] = median(
                [r["writing_ratio_per_tap"] for r in rounds])
    print(json.dumps(summary, indent=1), flush=True)


if __name__ == "__main__":
    main()
