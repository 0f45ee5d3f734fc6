"""Every secret has a limit that is not a weapon (issue 25): a parent's PIN per profile
and per device, unknown class codes per device and per server, counted in the database
(every Storage here has its own engine: another replica, or the app after a restart)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.classroom import ClassroomError, PupilSignIn
from trainer.limits import (
    CLASS_CODE_DEVICE,
    CLASS_CODE_SERVER,
    PARENT_PIN,
    PARENT_PIN_DEVICE,
    PUPIL_PIN_GUARD,
    TEACHER_PASSWORD_GUARD,
    Limiter,
    SecretLimit,
)
from trainer.profile_book import ProfileBook
from trainer.storage import Storage, StorageError

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def wait(self, **kw: float) -> None:
        self.now += timedelta(**kw)


def _opening(book: ProfileBook, profile_id: int, pin: str, device: str):
    """A parent's PIN typed on ``device`` to open the profile, as a call for _refusal."""
    return lambda: book.check_pin(profile_id, pin=pin, device=device)


def _refusal(call) -> tuple[str, dict]:
    with pytest.raises(StorageError) as caught:
        call()
    return caught.value.key, caught.value.params


@given(st.integers(0, 60), st.integers(0, 60))
def test_waits_grow_with_every_wrong_secret_and_stop_at_the_ceiling(a: int, b: int) -> None:
    guarded = [limit for guard in (PUPIL_PIN_GUARD, TEACHER_PASSWORD_GUARD)
               for limit in (guard.pair, guard.device, guard.target)]
    for limit in (PARENT_PIN, PARENT_PIN_DEVICE, CLASS_CODE_DEVICE, CLASS_CODE_SERVER,
                  *guarded):
        low, high = sorted((a, b))
        assert limit.wait_after(low) <= limit.wait_after(high) <= limit.max_wait
        assert (limit.wait_after(low) == timedelta(0)) == (low < limit.free)


def test_a_parents_pin_makes_a_guesser_wait_longer_each_time_never_for_good(make_store) -> None:
    """The reproduction: PIN 0150 was found at try 151 in 116 s. Now the fifth wrong PIN
    makes the profile wait a minute, the next ones 2, 4, 8, then 15 at most; while it
    waits even the right PIN is not tried; after the wait the parent's right PIN opens
    it and the count starts again."""
    store, clock = make_store(), Clock()
    ana = store.create_profile("Ana", "🦊")
    store.set_pin(ana.id, "0150")
    pins = ProfileBook(store, clock=clock)
    for _ in range(4):
        assert _refusal(_opening(pins, ana.id, "1111", "tablet")) == ("pin_wrong", {})
    assert _refusal(_opening(pins, ana.id, "2222", "tablet")) == ("pin_wait", {"count": 1})
    # Waiting: nothing is tried, the right PIN neither (a guesser learns nothing).
    assert _refusal(_opening(pins, ana.id, "0150", "tablet")) == ("pin_wait", {"count": 1})
    # Another browser, another replica, the app restarted: the same count and wait.
    other = ProfileBook(make_store(), clock=clock)
    assert _refusal(lambda: other.rename(ana.id, "Bob", pin="0150", device="phone"))[0] \
        == "pin_wait"
    waits = []
    for _ in range(6):
        clock.wait(minutes=16)
        key, params = _refusal(_opening(pins, ana.id, "3333", "tablet"))
        waits.append(params.get("count"))
    assert waits == [2, 4, 8, 15, 15, 15]
    clock.wait(minutes=16)
    # The parent: open, the profile's count cleared.
    pins.check_pin(ana.id, pin="0150", device="tablet")
    assert _refusal(_opening(pins, ana.id, "4444", "phone")) == ("pin_wrong", {})
    assert store.get_profile(ana.id).nickname == "Ana"  # nothing was changed meanwhile


def test_every_guarded_action_counts_and_changes_nothing_while_waiting(make_store) -> None:
    store, clock = make_store(), Clock()
    ana = store.create_profile("Ana", "🦊")
    store.set_pin(ana.id, "2468")
    pins = ProfileBook(store, clock=clock)
    actions = [lambda: pins.rename(ana.id, "Zed", pin="1", device="d"),
               lambda: pins.set_pin(ana.id, None, pin="2", device="d"),
               lambda: pins.delete(ana.id, pin="3", device="d"),
               _opening(pins, ana.id, "4", "d"),
               lambda: pins.delete(ana.id, pin="5", device="d")]
    keys = [_refusal(action)[0] for action in actions]
    assert keys == ["pin_wrong"] * 4 + ["pin_wait"]
    assert _refusal(lambda: pins.delete(ana.id, pin="2468", device="d"))[0] == "pin_wait"
    profile = store.get_profile(ana.id)
    assert profile is not None and profile.nickname == "Ana" and profile.protected
    clock.wait(minutes=2)
    assert pins.rename(ana.id, "Zed", pin="2468", device="d").nickname == "Zed"
    # A profile without a PIN is never counted (there is nothing to guess).
    leo = store.create_profile("Leo", "🐼")
    for _ in range(20):
        pins.check_pin(leo.id, pin="", device="d")
    assert store.secret_tries([(PARENT_PIN.scope, str(leo.id))])[
        (PARENT_PIN.scope, str(leo.id))].failures == 0


def test_one_device_guessing_many_profiles_waits_and_the_others_do_not(make_store) -> None:
    store, clock = make_store(), Clock()
    pins = ProfileBook(store, clock=clock)
    kids = [store.create_profile(f"Kid{i}", "🦊") for i in range(6)]
    for kid in kids:
        store.set_pin(kid.id, "9753")
    keys = [_refusal(_opening(pins, kid.id, "0000", "guesser"))[0]
            for kid in kids for _ in range(2)]
    assert keys[:9] == ["pin_wrong"] * 9 and keys[9] == "pin_wait"  # the device's tenth
    assert _refusal(_opening(pins, kids[5].id, "9753", "guesser"))[0] == "pin_wait"
    # Another device: the right PIN opens.
    pins.check_pin(kids[5].id, pin="9753", device="parents-phone")
    # The guesser's own right PIN does not clear its device's count.
    clock.wait(minutes=2)
    pins.check_pin(kids[0].id, pin="9753", device="guesser")
    assert _refusal(_opening(pins, kids[1].id, "1111", "guesser"))[0] == "pin_wait"


def test_a_quiet_count_is_forgotten(make_store) -> None:
    store, clock = make_store(), Clock()
    limit = SecretLimit("test", free=3, first_wait=timedelta(minutes=1),
                        max_wait=timedelta(minutes=5), forget_after=timedelta(hours=1))
    limiter = Limiter(store, clock=clock)
    assert limiter.failed([(limit, "x")]) is None
    assert limiter.failed([(limit, "x")]) is None
    clock.wait(hours=2)
    assert limiter.failed([(limit, "x")]) is None  # the count started again: 1
    assert limiter.failed([(limit, "x")]) is None
    assert limiter.failed([(limit, "x")]) == timedelta(minutes=1)


def test_two_replicas_counting_at_once_count_every_wrong_secret(make_store) -> None:
    stores = [make_store() for _ in range(4)]
    clock = Clock()
    limit = SecretLimit("race", free=1000, first_wait=timedelta(minutes=1),
                        max_wait=timedelta(minutes=5), forget_after=timedelta(hours=1))
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def guess(store: Storage) -> None:
        try:
            barrier.wait()
            for _ in range(5):
                Limiter(store, clock=clock).failed([(limit, "same")])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=guess, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert stores[0].secret_tries([("race", "same")])[("race", "same")].failures == 20


def _a_class(store: Storage) -> str:
    teacher = store.create_teacher("Ms Lee", "a long passphrase")
    return store.create_class(teacher.id, "4A", "PRT396", fluency_seconds=6,
                              capture_sum=15).code


def test_class_codes_are_limited_per_device_not_per_tab(make_store) -> None:
    store, clock = make_store(), Clock()
    code = _a_class(store)
    door = PupilSignIn(store, clock=clock)
    seen = []
    for i in range(11):  # each "tab" is a new PupilSignIn over a new Storage: one device
        tab = PupilSignIn(make_store() if i % 2 else store, clock=clock)
        with pytest.raises(ClassroomError) as caught:
            tab.find_class(f"ZZZ{i:03d}", device="tablet-1")
        seen.append(caught.value.key)
    assert seen[:9] == ["signin.code_unknown"] * 9
    assert seen[9:] == ["signin.code_wait"] * 2
    with pytest.raises(ClassroomError, match="signin.code_wait"):
        door.find_class(code, device="tablet-1")  # waiting: not even the right code
    assert door.find_class(code, device="tablet-2").code == code  # another tablet: fine
    clock.wait(minutes=61)
    assert door.find_class(code, device="tablet-1").code == code


def test_class_codes_are_limited_for_the_whole_server_briefly(make_store) -> None:
    """Many devices (or forged addresses) guessing at once: the server waits seconds."""
    store, clock = make_store(), Clock()
    code = _a_class(store)
    door = PupilSignIn(store, clock=clock)
    for i in range(CLASS_CODE_SERVER.free - 1):
        with pytest.raises(ClassroomError, match="signin.code_unknown"):
            door.find_class("ZZZ999", device=f"forged-{i}")
    with pytest.raises(ClassroomError, match="signin.code_wait"):
        door.find_class("ZZZ999", device="forged-last")
    with pytest.raises(ClassroomError, match="signin.code_wait"):
        door.find_class(code, device="a-real-tablet")
    clock.wait(seconds=CLASS_CODE_SERVER.first_wait.total_seconds() + 1)
    assert door.find_class(code, device="a-real-tablet").code == code


@pytest.mark.parametrize("guard", [PUPIL_PIN_GUARD, TEACHER_PASSWORD_GUARD],
                         ids=["pupil_pin", "teacher_password"])
def test_a_guessing_device_never_locks_the_target_out_on_another_device(
        make_store, guard) -> None:
    """Issue 27: a child guessing a classmate's PIN (or the teacher's password) on one
    device, in new tabs and through another replica: that device's waits grow; the
    target's own device tries at once. Twenty devices guessing together make the target
    wait seconds, never minutes."""
    clock = Clock()
    tries = []

    def try_on(device: str, right: bool):
        """One secret typed on ``device`` (each time through a new Storage: a new tab, or
        another replica); ``tries`` records every one actually checked."""
        def matches() -> bool:
            tries.append(device)
            return right

        return Limiter(make_store(), clock=clock).try_secret(guard, "target", device, matches)

    for n in range(guard.pair.free - 1):
        verdict = try_on("phone", False)
        assert (verdict.ok, verdict.wait, verdict.left) == (False, None,
                                                           guard.pair.free - 1 - n)
    waits = []
    for _ in range(4):
        verdict = try_on("phone", False)
        assert not verdict.ok and verdict.wait is not None
        waits.append(verdict.wait)
        tried = len(tries)
        assert try_on("phone", True).wait is not None  # waiting: the right one not tried
        assert len(tries) == tried
        clock.wait(seconds=verdict.wait.total_seconds() + 1)
    assert waits == sorted(waits) and waits[-1] > waits[0]  # growing, for the guesser
    assert try_on("tablet", True).ok  # the target's own device: at once
    # Spread over many devices, one wrong each: seconds for everybody, at most.
    for n in range(guard.target.free + 5):
        verdict = try_on(f"device {n}", False)
        assert verdict.wait is None or verdict.wait <= guard.target.max_wait
        clock.wait(seconds=guard.target.max_wait.total_seconds() + 1)
    verdict = try_on("device 99", False)
    assert verdict.wait is not None and verdict.wait <= guard.target.max_wait
    assert try_on("tablet", True).wait is not None  # the target waits these seconds too
    clock.wait(seconds=guard.target.max_wait.total_seconds() + 1)
    assert try_on("tablet", True).ok
