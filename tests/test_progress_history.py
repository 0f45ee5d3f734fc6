"""My progress's history read incrementally (issue 32): after every write it holds exactly
what reading the whole history builds, reads only what is new, and reads everything
again when an attempt arrives late under a lower id or the profile is new."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from puzzles.mastery import fact_stats
from puzzles.practice import ForMePath, answers_from_rows, practice_candidates
from tests.conftest import ROOT
from trainer.charts import attempts_frame
from trainer.evidence import game_answers, is_game_turn
from trainer.progress_history import KeptHistories, ProgressHistory, QuickRow
from trainer.progress_summary import parent_summary
from trainer.storage import Storage, configure_sqlite
from trainer.storage.practice import add_attempts, attempt_values

sys.path.insert(0, str(ROOT / "bench"))
practice_bench = pytest.importorskip("practice_bench")

NOW = datetime(2026, 12, 20, 17, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'h.db'}")
    configure_sqlite(engine)
    yield Storage(engine)
    engine.dispose()


class Counting:
    """The store, counting the attempts each read returns."""

    def __init__(self, store: Storage) -> None:
        self.store, self.read = store, []

    def attempts_after(self, profile_id: int, after_id: int):
        rows, total = self.store.attempts_after(profile_id, after_id)
        self.read.append(len(rows))
        return rows, total


def _full(store: Storage, pid: int):
    rows = store.attempts(pid)
    practice = [r for r in rows if not is_game_turn(r)]
    return (attempts_frame(practice), (*answers_from_rows(practice), *game_answers(rows)),
            tuple(r for r in rows if is_game_turn(r)),
            tuple(QuickRow.of(r) for r in practice if r.kind == "quick-facts"),
            ForMePath.of(rows))


def _same(view, full) -> None:
    frame, answers, turns, quick, for_me = full
    assert view.frame.equals(frame) and list(view.frame.dtypes) == list(frame.dtypes)
    assert view.answers == answers and view.game_turns == turns and view.quick == quick
    assert view.for_me == for_me  # "for me" chooses from what a full read says
    for capture_sum in (15, 10):  # the fact model kept per fact: what counting all says
        facts = practice_candidates(capture_sum)
        kept, counted = view.fact_stats(facts), fact_stats(answers, facts)
        assert list(kept.items()) == list(counted.items())  # in the same order too


def test_it_holds_what_a_full_read_builds_and_reads_only_the_new(store: Storage) -> None:
    pid = store.create_profile("Ana", "🦊").id
    created = store.progress_version(pid).created_at
    kept, source = ProgressHistory(pid), Counting(store)
    _same(kept.update(source, created), _full(store, pid))  # nothing yet
    first = practice_bench.fill(store, pid, 4, 2, NOW - timedelta(days=10))
    _same(kept.update(source, created), _full(store, pid))
    more = practice_bench.fill(store, pid, 3, 1, NOW)  # more days, another game
    _same(kept.update(source, created), _full(store, pid))
    last = store.attempts(pid, limit=1)[0]
    store.record_attempt(pid, last)  # one answer more, as the app writes it
    view = kept.update(source, created)
    _same(view, _full(store, pid))
    assert source.read[-1] == 1 and kept.full_reads == 0  # only the new one read
    assert sum(source.read) == len(store.attempts(pid)) >= first + more
    # the parent's trend reads the kept quick facts as it reads the attempts
    rows = [r for r in store.attempts(pid) if not is_game_turn(r)]
    assert parent_summary({}, view.quick) == parent_summary({}, rows)


def test_an_attempt_committed_late_under_a_lower_id_is_not_missed(store: Storage) -> None:
    pid = store.create_profile("Ana", "🦊").id
    created = store.progress_version(pid).created_at
    last = None
    practice_bench.fill(store, pid, 1, 0, NOW)
    last = store.attempts(pid, limit=1)[0]
    top = last.id
    with store.transaction() as conn:  # a later id first, as another writer's commit
        add_attempts(conn, [{**attempt_values(pid, last, NOW), "id": top + 10}])
    kept = ProgressHistory(pid)
    kept.update(store, created)
    with store.transaction() as conn:  # then the lower id commits
        add_attempts(conn, [{**attempt_values(pid, last, NOW), "id": top + 5}])
    view = kept.update(store, created)
    assert kept.full_reads == 1
    _same(view, _full(store, pid))


def test_a_new_profile_under_a_reused_id_starts_again(store: Storage) -> None:
    pid = store.create_profile("Ana", "🦊").id
    practice_bench.fill(store, pid, 1, 0, NOW)
    kept = ProgressHistory(pid)
    kept.update(store, store.progress_version(pid).created_at)
    view = kept.update(store, datetime(2030, 1, 1, tzinfo=UTC))  # as if made again
    _same(view, _full(store, pid))


def test_kept_histories_stay_within_their_attempts_dropping_the_least_recent(
        store: Storage) -> None:
    """A process keeps children's histories up to a number of attempts in all: past it,
    the one read least recently goes (and is read whole at its next view, still what a
    full read builds); the one just read stays whatever its size."""
    pids = [store.create_profile(name, "🦊").id for name in ("Ana", "Bo", "Cy")]
    for n, pid in enumerate(pids):
        practice_bench.fill(store, pid, 2 + n, 1, NOW - timedelta(days=5))
    sizes = {pid: len(store.attempts(pid)) for pid in pids}
    created = {pid: store.progress_version(pid).created_at for pid in pids}
    assert sizes[pids[0]] < sizes[pids[1]] < sizes[pids[2]]
    kept = KeptHistories(max_attempts=sizes[pids[0]] + sizes[pids[2]], max_profiles=10)
    source = Counting(store)
    for pid in pids[:2]:
        _same(kept.view(("db", pid), pid, source, created[pid]), _full(store, pid))
    assert kept.attempts() == sizes[pids[0]] + sizes[pids[1]] and len(kept) == 2
    kept.view(("db", pids[0]), pids[0], source, created[pids[0]])  # Ana read again
    _same(kept.view(("db", pids[2]), pids[2], source, created[pids[2]]), _full(store, pids[2]))
    # Bo, read least recently, went; Ana stays
    assert ("db", pids[1]) not in kept and ("db", pids[0]) in kept
    assert kept.attempts() <= kept.max_attempts
    source.read.clear()
    _same(kept.view(("db", pids[1]), pids[1], source, created[pids[1]]), _full(store, pids[1]))
    assert source.read == [sizes[pids[1]]]  # Bo's history read whole again
    # one history larger than the whole budget is kept while it is the one read
    small = KeptHistories(max_attempts=1, max_profiles=10)
    _same(small.view(("db", pids[2]), pids[2], source, created[pids[2]]), _full(store, pids[2]))
    assert len(small) == 1 and small.attempts() == sizes[pids[2]] > 1


def test_kept_histories_stay_within_their_profiles(store: Storage) -> None:
    pids = [store.create_profile(f"P{n}", "🦊").id for n in range(5)]
    kept = KeptHistories(max_attempts=10**6, max_profiles=3)
    for pid in pids:
        kept.view(("db", pid), pid, store, store.progress_version(pid).created_at)
    assert len(kept) == 3 and all(("db", pid) in kept for pid in pids[2:])
