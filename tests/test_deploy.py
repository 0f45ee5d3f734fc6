"""A school's server for real, on loopback (issue 16, docs/DEPLOY.md).

PostgreSQL (a fresh database), two ``streamlit run serve.py`` replicas on two free ports,
and Debian's nginx in front on a third, with ``deploy/nginx.conf.template`` as a school
would render it (deploy/replicas.py). Two children, each in a browser context of their
own pinned to one replica, play a game against the computer by tapping the board; then
the first child's replica is killed with SIGKILL mid-game. The other child plays on
without noticing; the first reloads through the proxy, lands on the surviving replica
(the proxy re-pins the browser there) and goes on where the game was. The database
holds every move each child made, in order, and the game replays from it.

Then two children at one table (docs/TABLES.md), each on a replica of their own,
play a whole game against each other through the proxy; the opener's replica is
killed mid-game, she reloads onto the other and the game goes on to its end; the
record holds exactly the moves tapped, in order.

The fixtures: ``replicas_behind_nginx`` yields
a :class:`deploy.replicas.Replicas` (its ``url``, ``kill(name)``, ``answered_by``),
``browser`` one headless Chromium, :func:`pinned_page` a child's context on one
replica, :func:`served_by` which replica a page's requests reach now.

Needs Chromium, PostgreSQL and nginx. Without one of them the test skips, except in CI
(``ESCOBA_REQUIRE_BROWSER=1`` or ``ESCOBA_REQUIRE_POSTGRES=1``), where it fails.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from deploy.replicas import (
    COOKIE,
    REPLICA_HEADER,
    Replicas,
    nginx_binary,
    pin_context,
    pinned_replica,
    render_nginx,
)
from deploy.replicas import (
    replicas_behind_nginx as start_replicas,
)
from escoba.record import replay
from tests.test_browser import (
    _FALLBACK_SEEN_JS,
    CHROMIUM,
    CHROMIUM_ARGS,
    _hand,
    _new_profile,
    _require_browser,
    _tap_move,
    _wait_board_at,
    _wait_idle,
)
from tests.test_browser_tables import play_table, read_table_game, recorded_moves
from trainer.i18n import t
from trainer.storage import SCHEMA_VERSION, Storage

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]

#: What every replica runs with, as on a school's server (docs/DEPLOY.md).
SERVER_OPTIONS = ("--server.fileWatcherType", "none")


def _require_nginx() -> None:
    if nginx_binary() is not None:
        return
    if "1" in (os.environ.get("ESCOBA_REQUIRE_BROWSER"), os.environ.get("ESCOBA_REQUIRE_POSTGRES")):
        pytest.fail("nginx is required (ESCOBA_REQUIRE_BROWSER/POSTGRES=1) but not installed")
    pytest.skip("no nginx (apt-get install nginx-light)")


@pytest.fixture
def replicas_behind_nginx(postgres_url: str, tmp_path: Path) -> Iterator[Replicas]:
    """Two replicas of the app on a fresh PostgreSQL database, nginx in front."""
    _require_browser()
    _require_nginx()
    env = dict(os.environ)
    env.pop("ESCOBA_NOW", None)
    with start_replicas(postgres_url, 2, tmp_path / "replicas", env=env,
                        options=SERVER_OPTIONS) as cluster:
        yield cluster


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        engine = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield engine
        engine.close()


def pinned_page(browser: Any, cluster: Replicas, replica: str) -> Any:
    """A page in a new browser context (a tablet of its own) sent to ``replica``."""
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en-US")
    pin_context(context, cluster.url, replica)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def served_by(page: Any) -> str:
    """The replica this page's requests reach now (its websocket follows the same
    cookie): asked from inside the page, as its own requests go."""
    return page.evaluate(
        f"async () => (await fetch('/_stcore/health')).headers.get('{REPLICA_HEADER}')")


# -- a child playing against the computer, and the record the database holds -----------

@dataclass
class Child:
    nickname: str
    page: Any
    moves: list[dict[str, Any]] = field(default_factory=list)  # every move tapped, in order


def _store(cluster: Replicas) -> Storage:
    return Storage(sa.create_engine(cluster.database_url), migrate=False)


def _record(cluster: Replicas, nickname: str) -> dict[str, Any]:
    """The child's game in play, as the database holds it (every saved move)."""
    store = _store(cluster)
    try:
        (profile,) = [p for p in store.list_profiles() if p.nickname == nickname]
        row = store.active_game(profile.id)
        assert row is not None, f"{nickname} has no game in play"
        return store.complete_record(row)
    finally:
        store.engine.dispose()


def _moves_of(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [{k: m[k] for k in ("seat", "card", "take")} for r in record["rounds"]
            for m in r["moves"] if m.get("seat") == seat and "card" in m]


def start_game(child: Child, url: str) -> None:
    """A new profile on the first page, then a game against the computer."""
    page = child.page
    page.get_by_role("textbox", name="Nickname").fill(child.nickname)
    page.get_by_role("button", name="Create my profile").click()
    page.get_by_role("link", name="Skip: I know the game").click()  # lesson 1 first
    page.get_by_text(f"Welcome, {child.nickname}").wait_for()
    page.get_by_role("link", name="Go and play").first.click()
    page.get_by_role("button", name="Start the game!").click()
    _hand(page).first.wait_for()
    _wait_idle(page)


def play_a_move(cluster: Replicas, child: Child) -> None:
    """Tap the first legal move on the board and Play; wait until it is saved."""
    record = _record(cluster, child.nickname)
    game = replay(record).game
    assert game.round.to_move == 0, "the computer should have played already"
    move = game.round.legal_moves()[0]
    _wait_board_at(child.page, game)
    _tap_move(child.page, move.card, move.take)
    child.page.locator(".eb-play").click()
    child.moves.append(move.to_dict(0))
    deadline = time.monotonic() + 60
    while len(_moves_of(_record(cluster, child.nickname), 0)) < len(child.moves):
        assert time.monotonic() < deadline, f"{child.nickname}'s move was not saved"
        time.sleep(0.2)
    _wait_idle(child.page)


def test_the_template_routes_by_the_proxys_cookie_and_falls_over() -> None:
    """Each replica's group holds it first and the others as backups; the cookie names
    the group; every replica can be told from the address that answered."""
    text = render_nginx(["10.0.0.5:8501", "10.0.0.6:8501", "10.0.0.7:8501"], 80)
    assert "listen 80;" in text and not re.search(r"\{\{[A-Z_]+\}\}", text)
    for n, address in enumerate(("10.0.0.5", "10.0.0.6", "10.0.0.7"), 1):
        assert f"    r{n} escoba_r{n};" in text
        group = text.split(f"upstream escoba_r{n} {{", 1)[1].split("}", 1)[0]
        servers = [line.split()[1] for line in group.splitlines() if "server " in line]
        assert servers[0] == f"{address}:8501" and len(servers) == 3
        assert group.count("backup") == 2
        assert f'"~(^|, ){address.replace(".", chr(92) + ".")}:8501$" r{n};' in text
    assert f"$cookie_{COOKIE}" in text and "proxy_next_upstream error timeout;" in text


def test_a_killed_replicas_child_reloads_onto_the_other_and_loses_nothing(
        replicas_behind_nginx: Replicas, browser: Any) -> None:
    cluster = replicas_behind_nginx
    # A visitor without the cookie is sent somewhere and pinned there by the answer.
    assert cluster.answered_by() in {"r1", "r2"}
    ana = Child("Ana", pinned_page(browser, cluster, "r1"))
    ben = Child("Ben", pinned_page(browser, cluster, "r2"))
    sockets: list[str] = []  # Ana's page's websockets: one more once it reconnected
    ana.page.on("websocket", lambda ws: sockets.append(ws.url))
    for child, replica in ((ana, "r1"), (ben, "r2")):
        response = child.page.goto(cluster.url)
        assert response.headers[REPLICA_HEADER.lower()] == replica
        start_game(child, cluster.url)
        assert served_by(child.page) == replica
    for _ in range(2):
        play_a_move(cluster, ana)
        play_a_move(cluster, ben)

    connected = len(sockets)
    cluster.kill("r1")  # mid-game, a crash: Ana's session state is gone with it
    assert not cluster.names["r1"].alive
    play_a_move(cluster, ben)  # Ben, on r2, plays on without noticing
    assert served_by(ben.page) == "r2"

    # Ana's page reconnects by itself (Streamlit's health check, then a new websocket):
    # the proxy cannot reach r1, r2 answers and re-pins the browser there.
    deadline = time.monotonic() + 60
    while pinned_replica(ana.page.context, cluster.url) != "r2":
        assert time.monotonic() < deadline, "Ana's page was not re-pinned to r2"
        ana.page.wait_for_timeout(250)
    while len(sockets) == connected:  # and its websocket reached r2
        assert time.monotonic() < deadline, "Ana's page did not reconnect"
        ana.page.wait_for_timeout(250)
    # She taps Play in the menu (a whole run of r2's new session, the same board on the
    # page): the text choosers never show beside it, nor the hints as a list (issue 31).
    # (Through nginx this passed on the code before the fix too; the failover in
    # miniature of tests/test_browser.py is the one that showed the fallback.)
    fallback = t("board_fallback_title", "en")
    ana.page.get_by_role("link", name=t("nav_play", "en"), exact=True).first.click()
    for _ in range(20):
        assert not ana.page.evaluate(_FALLBACK_SEEN_JS, fallback), "the fallback showed"
        ana.page.wait_for_timeout(250)
    ana.page.get_by_text(fallback).wait_for(state="detached")
    # Then she reloads (a new session anyway): r2 again, and the game where it was.
    asked: list[str] = []
    ana.page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    assert urlsplit(ana.page.url).path == "/play"
    response = ana.page.reload()
    assert response.headers[REPLICA_HEADER.lower()] == "r2"
    assert pinned_replica(ana.page.context, cluster.url) == "r2"
    _hand(ana.page).first.wait_for()
    _wait_idle(ana.page)
    # The proxy's page said where the app's root is: Streamlit asked the root's health
    # check at once, never the page's own address's (a 404, then 100 ms lost).
    assert ana.page.evaluate("window.__streamlit.BACKEND_BASE_URL") == cluster.url + "/"
    assert "/_stcore/health" in asked and "/play/_stcore/health" not in asked, asked
    assert not ana.page.get_by_text("Oops").count()
    assert served_by(ana.page) == "r2"
    for _ in range(2):
        play_a_move(cluster, ana)
    play_a_move(cluster, ben)

    # Nothing lost, nothing doubled: each child's moves in the database are the moves
    # tapped, in order, before and after the crash; the games replay from the record.
    for child, made in ((ana, 4), (ben, 4)):
        record = _record(cluster, child.nickname)
        assert _moves_of(record, 0) == child.moves and len(child.moves) == made
        game = replay(record).game
        assert game.round.to_move == 0
        _wait_board_at(child.page, game)  # and the board shows that position
    for child in (ana, ben):
        child.page.context.close()


def _wait_repinned(page: Any, cluster: Replicas, replica: str) -> None:
    """A page whose replica died reconnects by itself (Streamlit's health check, then a
    new websocket): the proxy cannot reach the dead one, another answers and re-pins."""
    deadline = time.monotonic() + 60
    while pinned_replica(page.context, cluster.url) != replica:
        assert time.monotonic() < deadline, f"the page was not re-pinned to {replica}"
        page.wait_for_timeout(250)


def open_table_for_two(opener: Any, friend: Any) -> str:
    """The opener opens a table ("first to score": one round), the friend joins it by its
    code; both boards drawn. The table's code."""
    opener.get_by_role("link", name="Play a friend").first.click()
    opener.get_by_text("Quick: first to score").first.click()
    _wait_idle(opener)
    opener.get_by_role("button", name="Open the table").click()
    code = opener.get_by_test_id("table-code").inner_text().replace(" ", "")
    friend.get_by_role("link", name="Play a friend").first.click()
    friend.get_by_role("textbox", name="Table code").fill(code)
    friend.get_by_role("button", name="Join").first.click()
    for page in (opener, friend):
        page.locator("[data-testid=stBidiComponentIsolated]").first.wait_for()
    return code


def test_two_children_at_one_table_on_two_replicas_and_a_crash_mid_game(
        replicas_behind_nginx: Replicas, browser: Any) -> None:
    cluster = replicas_behind_nginx
    ana = pinned_page(browser, cluster, "r1")
    leo = pinned_page(browser, cluster, "r2")
    _new_profile(ana, cluster.url, "Ana")
    _new_profile(leo, cluster.url, "Leo")
    assert (served_by(ana), served_by(leo)) == ("r1", "r2")
    # Ana opens a table on r1 ("first to score": one round), Leo joins it from r2.
    open_table_for_two(ana, leo)
    devices = {0: ana, 1: leo}
    made: list[dict[str, Any]] = []
    play_table(devices, cluster.database_url, made, until=8)
    assert recorded_moves(cluster.database_url) == made and len(made) == 8

    cluster.kill("r1")  # mid-game: Ana's session state dies with it
    _wait_repinned(ana, cluster, "r2")
    response = ana.reload()  # her link names her seat: the game, where it was
    assert response.headers[REPLICA_HEADER.lower()] == "r2"
    assert served_by(ana) == "r2" and served_by(leo) == "r2"
    assert not ana.get_by_text("Oops").count()
    play_table(devices, cluster.database_url, made)

    # The whole game is in the database: exactly the moves tapped, in order, by whom.
    game, row = read_table_game(cluster.database_url)
    assert row.status == "finished" and game.is_over
    assert recorded_moves(cluster.database_url) == made and len(made) > 8
    assert {m["seat"] for m in made} == {0, 1}
    # And at the end each device shows its own child's review (not the friend's).
    for page, name in ((ana, "Ana"), (leo, "Leo")):
        page.get_by_text("how did you play?").filter(has_text=name).first.wait_for()
        page.context.close()


def test_without_nginx_ci_fails_and_a_laptop_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "nginx_binary", lambda: None)
    for name in ("ESCOBA_REQUIRE_BROWSER", "ESCOBA_REQUIRE_POSTGRES"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(pytest.skip.Exception):
        _require_nginx()
    for name in ("ESCOBA_REQUIRE_BROWSER", "ESCOBA_REQUIRE_POSTGRES"):
        monkeypatch.setenv(name, "1")
        with pytest.raises(pytest.fail.Exception):
            _require_nginx()
        monkeypatch.delenv(name)


def _first_page(engine: sa.Engine, outcomes: list[str]) -> None:
    """What a replica does on its first page: the storage, migrated if need be."""
    try:
        outcomes.append(f"schema {Storage(engine).schema_version()}")
    except Exception as err:  # what that first page would show: "Oops"
        outcomes.append(f"{type(err).__name__}: {err}".splitlines()[0])


def test_replicas_starting_together_on_an_empty_database_all_migrate_it(
        postgres_server: str) -> None:
    """Every replica migrates the database on its first page: three at once on an empty
    PostgreSQL database all start (one migrates, the others wait for it), each time."""
    import threading
    import uuid

    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    names = [f"escoba_race_{uuid.uuid4().hex[:8]}" for _ in range(3)]
    try:
        for name in names:
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            url = sa.engine.make_url(postgres_server).set(database=name)
            outcomes: list[str] = []
            engines = [sa.create_engine(url) for _ in range(3)]
            threads = [threading.Thread(target=_first_page, args=(e, outcomes))
                       for e in engines]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for engine in engines:
                engine.dispose()
            assert outcomes == [f"schema {SCHEMA_VERSION}"] * 3, outcomes
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
