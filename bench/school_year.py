"""A school year of data, seeded: a class of 30 and a child at home (issue 32).

The class is made as ``bench/classroom_load.py`` makes it (a teacher's account, a class,
its pupils with PINs and an assignment, through :class:`~trainer.classroom.Classroom`);
then each pupil's school days are written: about ``--answers`` answers a day (quick
facts, practice puzzles, the day's daily, a lesson level now and then, and every few
days a finished game with the coach's review and its turns kept as evidence), getting
quicker and surer over the year. One more profile, outside the class, is a child with a
year of use at home (``--child-days``, every day of the week).

How it is written: the rows are exactly what the app's storage API writes, built by the
API's own code, inserted in bulk (one transaction per pupil) because 200,000 answers one
transaction each would take minutes:

- an answer: ``trainer.storage.practice.attempt_values`` of an
  :class:`~puzzles.practice.Attempt` made by ``Attempt.of`` from a real puzzle and the
  checker's result, as the pages make it;
- a daily's result: its stars slot by slot, first answer wins, completed when all five
  are in (as ``record_daily_answer``);
- a lesson level: its best stars and fewest plays (as ``record_lesson``);
- a game: a few games are played through :class:`~trainer.gameplay.GameSession` on a
  scratch database (the real saves: moves, round results, the record, the review, the
  turns as evidence), and each pupil's games are copies of those rows, moved to the
  pupil and the day;
- the data versions: one bump per write the API would make (an answer, a daily answer,
  a lesson level, a game's finishing save), the class's the sum of its pupils' and its
  own.

``--days 5`` is the first week of the same class (the baselines of
``bench/school_year_bench.py``). Into a SQLite file or a PostgreSQL URL::

    .venv/bin/python bench/school_year.py --database /tmp/year.db
    .venv/bin/python bench/school_year.py --database /tmp/week.db --days 5
    .venv/bin/python bench/school_year.py --database postgresql+psycopg://...

Prints one JSON object: what was written and how long it took.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

CAPTURE_SUM = 15
#: The first school day: a Monday (the daily puzzles begin on 2026-12-01, #1).
FIRST_DAY = date(2026, 12, 7)
#: Games played once through the real API and copied to every pupil (a pool: playing
#: 1,800 games move by move would take most of the time).
GAME_POOL = 6
PUZZLE_KINDS = ("captures", "hand", "fifteens", "best-move")
#: Puzzles per kind and level made once and drawn from (generating 30,000 takes minutes).
PUZZLES_PER_LEVEL = 12


@dataclass
class Written:
    """What a fill wrote (the JSON the command prints)."""

    attempts: Counter = field(default_factory=Counter)  # by mode
    dailies: int = 0
    lessons: int = 0
    games: int = 0
    moves: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"attempts": sum(self.attempts.values()), "by_mode": dict(self.attempts),
                "dailies": self.dailies, "lessons": self.lessons, "games": self.games,
                "moves": self.moves, "seconds": round(self.seconds, 1)}


def school_days(days: int, *, weekends: bool = False) -> list[date]:
    """``days`` days from :data:`FIRST_DAY`, Monday to Friday unless ``weekends``."""
    out: list[date] = []
    day = FIRST_DAY
    while len(out) < days:
        if weekends or day.weekday() < 5:
            out.append(day)
        day += timedelta(days=1)
    return out


class Material:
    """The puzzles, dailies, lesson levels and played games the answers are drawn from,
    made once per run."""

    def __init__(self, seed: int) -> None:
        from lessons import load_stages
        from puzzles import generate

        self.puzzles = {(kind, level): [generate(kind, level, f"year-{seed}-{kind}-{level}-{i}")
                                        for i in range(PUZZLES_PER_LEVEL)]
                        for kind in PUZZLE_KINDS for level in range(1, 6)}
        self.levels = [(s.key, lv.key) for s in load_stages() for lv in s.levels]
        self._dailies: dict[date, Any] = {}
        self.games = played_games(GAME_POOL, seed)

    def daily(self, day: date) -> Any:
        from puzzles import daily_set

        if day not in self._dailies:
            self._dailies[day] = daily_set(day, CAPTURE_SUM)
        return self._dailies[day]


def played_games(count: int, seed: int) -> list[dict[str, list[dict[str, Any]]]]:
    """``count`` games played to the end through :class:`GameSession` on a scratch SQLite
    database, as the rows the API saved (games, moves, results, evidence attempts)."""
    import tempfile

    import sqlalchemy as sa

    from escoba import Rules
    from tests.test_storage import play_to_end  # the tests' game to the end, as practice_bench
    from trainer.evidence import TurnContext
    from trainer.gameplay import GameSession, SeatSpec
    from trainer.storage import Storage, configure_sqlite
    from trainer.storage.schema import attempts, games, moves, results

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as scratch:
        engine = sa.create_engine(f"sqlite:///{scratch}/games.db")
        configure_sqlite(engine)
        store = Storage(engine)
        child = store.create_profile("Pool", "🙂")
        pool = []
        for g in range(count):
            session = GameSession.new(
                Rules.preset("classic", target=5),
                [SeatSpec("human", "Pool"),
                 SeatSpec("bot", "B", level=("gentle", "greedy")[g % 2])],
                seed * 100 + g, storage=store, profile_id=child.id)
            play_to_end(session, seed=rng.randrange(1 << 30),
                        turn=TurnContext(day="2026-12-07", seconds=5.0))
            assert session.is_over
            with engine.connect() as conn:
                def rows(table: sa.Table, where: Any) -> list[dict[str, Any]]:
                    return [dict(r._mapping) for r in conn.execute(sa.select(table).where(where))]
                pool.append({
                    "game": rows(games, games.c.id == session.game_id),
                    "moves": rows(moves, moves.c.game_id == session.game_id),
                    "results": rows(results, results.c.game_id == session.game_id),
                    "evidence": rows(attempts, attempts.c.mode == "game")})
            with engine.begin() as conn:  # each game's evidence alone
                conn.execute(attempts.delete())
        engine.dispose()
    return pool


def _quick(rng: random.Random, skill: float, day: date, when: datetime) -> Any:
    from puzzles import check
    from puzzles.practice import Attempt, quick_fact

    # One known card (5-10: its partner is a card) or two whose partner is one.
    first = rng.randint(1, 7)
    known = [rng.randint(5, 10)] if rng.random() < 0.7 else \
        [first, rng.randint(max(1, 5 - first), min(10, 14 - first))]
    puzzle = quick_fact(known, CAPTURE_SUM)
    right = puzzle.solutions[0].value
    value = right if rng.random() < skill else max(1, right + rng.choice((-2, -1, 1, 2)))
    seconds = round(rng.uniform(1.0, 3.0) + (1 - skill) * rng.uniform(0.0, 8.0), 2)
    return Attempt.of(puzzle, check(puzzle, value), seconds, [value], "quick", day)


def _solve(puzzle: Any, rng: random.Random, skill: float) -> list[Any]:
    given = [{"card": str(s.card), "take": [str(c) for c in s.take]} if s.card
             else {"take": [str(c) for c in s.take]}
             for s in puzzle.solutions if rng.random() < skill]
    return given or ["none"]


def _puzzle(material: Material, rng: random.Random, skill: float, day: date,
            mode: str, level: int) -> Any:
    from puzzles import check
    from puzzles.practice import Attempt

    puzzle = rng.choice(material.puzzles[(rng.choice(PUZZLE_KINDS), level)])
    given = _solve(puzzle, rng, skill)
    hints = 1 if rng.random() > skill else 0
    return Attempt.of(puzzle, check(puzzle, given, hints), round(rng.uniform(15, 90), 1),
                      given, mode, day)


def fill_child(conn: Any, profile_id: int, material: Material, days: list[date],
               answers: int, rng: random.Random, written: Written) -> int:
    """One child's days, written in ``conn``'s transaction; the number of writes the API
    would have made (the profile's data version)."""
    import sqlalchemy as sa

    from puzzles import check
    from puzzles.practice import Attempt
    from trainer.storage.practice import add_attempts, attempt_values
    from trainer.storage.schema import (
        daily_results,
        games,
        lesson_results,
        moves,
        results,
    )

    bumps = 0
    rows: list[dict[str, Any]] = []
    best: dict[tuple[str, str], dict[str, Any]] = {}
    next_level = 0
    games_every = rng.choice((2, 3, 4))
    for n, day in enumerate(days):
        skill = min(0.97, 0.55 + 0.45 * n / max(1, len(days)) + rng.uniform(-0.05, 0.05))
        start = datetime(day.year, day.month, day.day, 8, 30, tzinfo=UTC) + timedelta(
            minutes=rng.randint(0, 300))
        clock = iter(start + timedelta(seconds=40 * i) for i in range(10_000))
        level = 1 + min(4, n * 5 // max(1, len(days)))
        # The daily: five puzzles, the first answer of each fills its slot.
        daily = material.daily(day)
        stars: list[int | None] = [None] * len(daily.puzzles)
        for k, puzzle in enumerate(daily.puzzles):
            given = _solve(puzzle, rng, skill)
            attempt = Attempt.of(puzzle, check(puzzle, given), round(rng.uniform(20, 80), 1),
                                 given, "daily", day)
            # As record_daily_answer does: the attempt names its daily's date.
            attempt = dataclasses.replace(attempt, daily_date=day.isoformat())
            rows.append(attempt_values(profile_id, attempt, next(clock)))
            stars[k] = attempt.stars
        written.attempts["daily"] += len(daily.puzzles)
        stamp = next(clock)
        written.dailies += 1
        daily_row = {"profile_id": profile_id, "day": day.isoformat(), "number": daily.number,
                     "stars": json.dumps(stars), "completed_at": stamp, "created_at": stamp}
        conn.execute(daily_results.insert().values(**daily_row))
        # A game every few days: its turns are answers too.
        game_turns = 0
        if n % games_every == games_every - 1:
            game_turns = _copy_game(conn, rng.choice(material.games), profile_id,
                                    next(clock), (games, moves, results), written, day, rows)
            bumps += game_turns + 1  # each turn's save with its evidence, and the last
        # A lesson level now and then, on the path in order.
        if next_level < len(material.levels) and rng.random() < 0.4:
            key = material.levels[next_level]
            got = rng.randint(1, 3)
            old = best.get(key)
            when = next(clock)
            if old is None:
                best[key] = {"profile_id": profile_id, "stage": key[0], "level": key[1],
                             "stars": got, "plays": rng.randint(1, 4), "created_at": when,
                             "updated_at": when}
            else:
                old.update(stars=max(old["stars"], got), updated_at=when)
            if got >= 2:
                next_level += 1
            bumps += 1
        # The rest: about two thirds quick facts, the others practice puzzles.
        rest = max(0, answers - len(daily.puzzles) - game_turns + rng.randint(-4, 4))
        for _ in range(rest):
            if rng.random() < 0.72:
                attempt = _quick(rng, skill, day, next(clock))
                written.attempts["quick"] += 1
            else:
                attempt = _puzzle(material, rng, skill, day,
                                  rng.choice(("practice", "for-me")), level)
                written.attempts["practice"] += 1
            rows.append(attempt_values(profile_id, attempt, next(clock)))
    if rows:
        # In time order, as a child's answers arrive (ids in that order: the boxes kept
        # per fact, trainer.storage.aggregates, are known for a year written this way).
        add_attempts(conn, sorted(rows, key=lambda row: row["created_at"]))
    if best:
        conn.execute(lesson_results.insert(), list(best.values()))
    written.lessons += len(best)
    bumps += len(rows)
    conn.execute(sa.text("UPDATE profiles SET data_version = :v WHERE id = :id"),
                 {"v": bumps, "id": profile_id})
    return bumps


def _copy_game(conn: Any, pooled: dict[str, list[dict[str, Any]]], profile_id: int,
               when: datetime, tables: tuple[Any, ...], written: Written, day: date,
               attempts: list[dict[str, Any]]) -> int:
    """A pooled game's rows as this child's game of ``when``; its evidence answers are
    added to ``attempts`` (written with the child's others); how many."""
    games, moves, results = tables
    (game,) = pooled["game"]
    shift = when - _aware(game["created_at"])
    game_id = conn.execute(games.insert().values(**_moved(
        game, shift, profile_id=profile_id,
        updated_at=_aware(game["updated_at"]) + shift))).inserted_primary_key[0]
    conn.execute(moves.insert(), [_moved(m, shift, game_id=game_id) for m in pooled["moves"]])
    if pooled["results"]:
        conn.execute(results.insert(), [_moved(r, shift, game_id=game_id)
                                        for r in pooled["results"]])
    pool_id = f"game-{game['id']}-"
    evidence = [_moved(a, shift, profile_id=profile_id, day=day.isoformat(),
                       puzzle_id=a["puzzle_id"].replace(pool_id, f"game-{game_id}-", 1))
                for a in pooled["evidence"]]
    attempts.extend(evidence)
    written.games += 1
    written.moves += len(pooled["moves"])
    written.attempts["game"] += len(evidence)
    return len(evidence)


def _moved(row: dict[str, Any], shift: timedelta, **changes: Any) -> dict[str, Any]:
    """A pooled row for a new one: no id (the database gives one), its time moved."""
    out = {k: v for k, v in row.items() if k != "id"}
    out.update(created_at=_aware(row["created_at"]) + shift, **changes)
    return out


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SchoolYear:
    """What was made: the database, the class (for the dashboard) and the child."""

    database_url: str
    class_id: int
    pupils: tuple[int, ...]
    child_id: int
    written: dict[str, Any]
    days: int  # the class's school days

    @property
    def last_day(self) -> date:
        """The class's last school day (a dashboard's "today")."""
        return school_days(self.days)[-1]


def make_school_year(database_url: str, *, pupils: int = 30, days: int = 180,
                     answers: int = 40, child_days: int = 365, seed: int = 32) -> SchoolYear:
    """The class (``classroom_load.make_class``) and its ``days`` school days, and a
    child with ``child_days`` days at home, into a new database at ``database_url``."""
    import sqlalchemy as sa
    from classroom_load import make_class, open_storage

    from trainer.storage.schema import classes

    began = time.perf_counter()
    rng = random.Random(seed)
    material = Material(seed)
    setup = make_class(database_url, pupils)
    store = open_storage(database_url)
    written = Written()
    try:
        child = store.create_profile("Home child", "🏡")
        total = 0
        for pupil in setup.pupils:
            with store.transaction() as conn:
                total += fill_child(conn, pupil.profile_id, material, school_days(days),
                                    answers, random.Random(rng.random()), written)
        with store.transaction() as conn:
            conn.execute(classes.update().where(classes.c.id == setup.class_id)
                         .values(data_version=classes.c.data_version + total))
            fill_child(conn, child.id, material, school_days(child_days, weekends=True),
                       answers // 2, random.Random(rng.random()), written)
        if store.engine.dialect.name == "postgresql":
            with store.engine.begin() as conn:
                conn.execute(sa.text("ANALYZE"))
    finally:
        store.engine.dispose()
    written.seconds = time.perf_counter() - began
    return SchoolYear(database_url, setup.class_id,
                      tuple(p.profile_id for p in setup.pupils), child.id, written.as_dict(),
                      days)


def database_url_of(target: str) -> str:
    """A URL as given, or a SQLite file's path (made anew)."""
    if "://" in target:
        return target
    path = Path(target)
    if path.exists():
        path.unlink()
    from trainer.storage import sqlite_url

    return sqlite_url(str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--database", required=True,
                        help="a SQLite file (replaced) or an empty database's URL")
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--days", type=int, default=180, help="school days (Mon-Fri)")
    parser.add_argument("--answers", type=int, default=40, help="a pupil's answers a day")
    parser.add_argument("--child-days", type=int, default=365,
                        help="days of the child at home (every day, half the answers)")
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    year = make_school_year(database_url_of(args.database), pupils=args.pupils,
                            days=args.days, answers=args.answers, child_days=args.child_days,
                            seed=args.seed)
    print(json.dumps({"class_id": year.class_id, "child_id": year.child_id,
                      **year.written}))


if __name__ == "__main__":
    main()
