"""How a move at a table reaches the other devices: polling vs PostgreSQL LISTEN/NOTIFY.

Three measurements, each with its same-run baseline:

1. **The poll's read** (``table_pulse``: the table's version and its game's revision, one
   query by primary key) on SQLite and on PostgreSQL: wall and CPU time per read, next
   to the cheapest possible query (``SELECT 1``) on the same connection pool.
2. **Propagation at the storage level**: a writer thread saves real moves at random
   moments; a poller thread reads the pulse every ``--interval`` seconds (what each
   device's fragment does) and notes when it sees the change. On PostgreSQL also a
   ``LISTEN`` connection, the writer sending ``NOTIFY`` in the move's transaction: the
   delay from commit to notification.
3. **An idle device's cost on the server** (``--server``): a real ``streamlit run``, one
   Chromium page sitting at a table waiting for the friend's move (its poll fragment
   running every 0.5 s), next to the same page on "How to play" (no poll): the server
   process's CPU seconds per wall second, interleaved.

    .venv/bin/python bench/tables_sync.py --moves 60 --server

Prints one JSON object; the figures go to docs/BENCHMARKS.md ("Play a friend").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from escoba import Rules  # noqa: E402
from trainer.storage import Storage, configure_sqlite  # noqa: E402
from trainer.tables import Tables, TableSeat  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "median_ms": round(1000 * statistics.median(values), 3),
            "p95_ms": round(1000 * _pct(values, 0.95), 3),
            "max_ms": round(1000 * max(values), 3)}


def _store(url: str) -> Storage:
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    return Storage(engine)


def _table(store: Storage) -> tuple[TableSeat, TableSeat]:
    ana = store.create_profile(f"Ana{random.randrange(10**6)}", "🦊")
    leo = store.create_profile(f"Leo{random.randrange(10**6)}", "🐼")
    tables = Tables(store)
    ticket = tables.open_table(ana, Rules.preset("relaxed", target=200))
    other = tables.join(ticket.code, leo)
    a = tables.seat_from_link(ticket.code, ticket.token, ana.id)
    b = tables.seat_from_link(other.code, other.token, leo.id)
    assert isinstance(a, TableSeat) and isinstance(b, TableSeat)
    return a, b


def read_cost(url: str, reads: int) -> dict[str, object]:
    store = _store(url)
    a, _b = _table(store)
    out: dict[str, object] = {}
    for name, fn in (("select_1", lambda: _select_1(store)),
                     ("table_pulse", lambda: store.table_pulse(a.table.id))):
        fn()
        wall, cpu = [], []
        for _ in range(reads):
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
        out[name] = {**_summary(wall), "cpu_mean_us": round(1e6 * statistics.mean(cpu), 1)}
    store.engine.dispose()
    return out


def _select_1(store: Storage) -> None:
    with store.engine.connect() as conn:
        conn.execute(sa.text("SELECT 1")).scalar()


def propagation(url: str, moves: int, interval: float, notify: bool) -> dict[str, object]:
    """Commit -> seen by a poller (every ``interval`` s) and, on PostgreSQL, -> NOTIFY."""
    writer_store, poll_store = _store(url), _store(url)
    a, b = _table(writer_store)
    table_id = a.table.id
    commits: list[float] = []
    seen_poll: list[float] = []
    seen_notify: list[float] = []
    done = threading.Event()
    listening = threading.Event()

    def poller() -> None:
        last = poll_store.table_pulse(table_id)
        while not done.is_set():
            time.sleep(interval)
            pulse = poll_store.table_pulse(table_id)
            if pulse != last:
                seen_poll.append(time.monotonic())
                last = pulse

    def listener() -> None:
        import psycopg

        raw = sa.engine.make_url(url).set(drivername="postgresql")
        with psycopg.connect(raw.render_as_string(hide_password=False),
                             autocommit=True) as conn:
            conn.execute("LISTEN table_moves")
            listening.set()
            for _note in conn.notifies(timeout=moves * 2.0 + 10, stop_after=moves):
                seen_notify.append(time.monotonic())

    threads = [threading.Thread(target=poller)]
    if notify:
        threads.append(threading.Thread(target=listener))
    for th in threads:
        th.start()
    if notify:
        listening.wait(10)
    rng = random.Random(7)
    for _ in range(moves):
        time.sleep(rng.uniform(0.6, 1.2))  # well apart: each change is seen on its own
        a.refresh()
        b.refresh()
        seat = a if a.my_turn else b
        if seat.game.round_over:
            seat.next_round(seat.revision)
            seat.refresh()
            seat = a if a.my_turn else b
        obs = seat.game.observation(seat.seat)
        move = max(obs.legal_moves(), key=lambda m: len(m.take))
        seat.play(move.card, list(move.take), seat.revision)
        commits.append(time.monotonic())  # the move's transaction has committed
        if notify:
            # NOTIFY right after (the app would send it in the move's transaction: it is
            # delivered at commit either way).
            with writer_store.engine.begin() as conn:
                conn.execute(sa.text("SELECT pg_notify('table_moves', :p)"),
                             {"p": str(table_id)})
    time.sleep(interval * 2 + 0.2)
    done.set()
    for th in threads:
        th.join(30)
    writer_store.engine.dispose()
    poll_store.engine.dispose()

    def delays(seen: list[float]) -> list[float]:
        out = []
        for c in commits:
            later = [s for s in seen if s >= c]
            if later:
                out.append(min(later) - c)
        return out

    result: dict[str, object] = {"interval_s": interval,
                                 "polling": _summary(delays(seen_poll))}
    if notify:
        result["notify"] = _summary(delays(seen_notify))
    return result


def idle_server_cost(seconds: float, rounds: int) -> dict[str, object]:
    """Server CPU per wall second: one page idle at a table vs on How to play."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import streamlit_server

    tmp = Path(tempfile.mkdtemp(prefix="tables-bench-"))
    env = dict(os.environ, ESCOBA_DB_PATH=str(tmp / "escoba.db"))
    env.pop("ESCOBA_DATABASE_URL", None)
    with streamlit_server(ROOT / "serve.py", env, tmp / "streamlit.log") as url:
        pid = _server_pid(url)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.set_default_timeout(30_000)
            page.goto(url)
            page.get_by_role("textbox", name="Nickname").fill("Ana")
            page.get_by_role("button", name="Create my profile").click()
            # A new child starts in lesson 1; a parent's skip leads back (issue 23).
            page.get_by_role("link", name="Skip: I know the game").click()
            page.get_by_text("Welcome, Ana").wait_for()
            page.get_by_role("link", name="Play a friend").first.click()
            page.get_by_role("button", name="Open the table").click()
            code = page.get_by_test_id("table-code").inner_text().replace(" ", "")
            # A friend joins from the storage (no second browser): Ana's move comes first
            # or Leo's; either way Ana's page then waits with its poll running.
            store = Storage(sa.create_engine(f"sqlite:///{tmp / 'escoba.db'}"))
            leo = store.create_profile("Leo", "🐼")
            Tables(store).join(code, leo)
            page.wait_for_timeout(3000)
            table_url = page.url
            help_url = url + "/help"
            idle, still = [], []
            for _ in range(rounds):
                for target, bucket in ((table_url, idle), (help_url, still)):
                    page.goto(target)
                    page.wait_for_timeout(3000)
                    c0, w0 = _cpu(pid), time.monotonic()
                    page.wait_for_timeout(seconds * 1000)
                    bucket.append((_cpu(pid) - c0) / (time.monotonic() - w0))
            browser.close()
    return {"seconds_each": seconds, "rounds": rounds,
            "cpu_per_s_idle_at_table": round(statistics.median(idle), 4),
            "cpu_per_s_on_help_page": round(statistics.median(still), 4),
            "cpu_per_s_one_idle_device": round(statistics.median(idle)
                                               - statistics.median(still), 4)}


def _server_pid(url: str) -> int:
    port = url.rsplit(":", 1)[1]
    import subprocess

    out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True,
                         text=True).stdout
    return int(out.split("pid=")[1].split(",")[0])


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--reads", type=int, default=2000)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--server", action="store_true", help="also the idle device's cost")
    parser.add_argument("--postgres-url", default=os.environ.get("ESCOBA_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tables-sync-"))
    urls = {"sqlite": f"sqlite:///{tmp / 'bench.db'}"}
    stop = None
    if args.postgres_url:
        urls["postgresql"] = args.postgres_url
    elif Path("/usr/lib/postgresql/15/bin/initdb").exists():
        from tests.conftest import _start_cluster

        urls["postgresql"], stop = _start_cluster()
    result: dict[str, object] = {"cpus": os.cpu_count()}
    try:
        for name, url in urls.items():
            result[name] = {"reads": read_cost(url, args.reads),
                            "propagation": propagation(url, args.moves, args.interval,
                                                       notify=name == "postgresql")}
        if args.server:
            result["server"] = idle_server_cost(10.0, 3)
    finally:
        if stop is not None:
            stop()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
