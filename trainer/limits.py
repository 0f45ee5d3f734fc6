"""Every secret has a limit that is not a weapon (issue 25).

A parent's PIN (4 to 8 digits) and a class code (6 signs) can be guessed by trying;
a limit makes trying slow. Each wrong secret counts against every subject it came
from (the profile whose PIN it was, the device that typed it, the whole server for
class codes). After a subject's free tries each further wrong one makes it wait,
twice as long each time, up to a ceiling: the count lives in the database
(:mod:`trainer.storage.limits`), so a new tab, another replica behind the proxy or a
restart finds the same wait.

Not a weapon: the waits are short and capped (a sibling who types wrong PINs makes
the parent wait at most :data:`PARENT_PIN`'s ceiling, never a lockout), a right
PIN clears its profile's count, and a quiet subject's count is forgotten after a
while. A device's own count outlives a right PIN: one device cannot guess other
profiles' PINs between right answers of its own. No Streamlit here.

The limits are asked by what each secret guards: a parent's PIN by
:class:`trainer.profile_book.ProfileBook`, class codes by
:class:`trainer.classroom.PupilSignIn`.

The arithmetic, for a 4-digit PIN (10,000 possibilities): 4 free tries, then waits
of 1, 2, 4, 8 and then 15 minutes a try: about 100 tries a day, so a sibling would
need months to find it; the parent who mistypes waits a minute.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from . import clock as app_clock
from .clock import Clock
from .storage import SecretTries, Storage

__all__ = ["SecretLimit", "Limiter", "PARENT_PIN", "PARENT_PIN_DEVICE",
           "CLASS_CODE_DEVICE", "CLASS_CODE_SERVER", "SERVER", "Check",
           "wait_minutes", "PUPIL_PIN", "PUPIL_PIN_DEVICE", "PUPIL_PIN_PAIR",
           "TEACHER_PASSWORD", "TEACHER_PASSWORD_DEVICE", "TEACHER_PASSWORD_PAIR", "pair",
           "Guard", "Verdict", "PUPIL_PIN_GUARD", "TEACHER_PASSWORD_GUARD", "INVITE_DEVICE"]

#: The subject of a server-wide count.
SERVER = "*"

@dataclass(frozen=True)
class SecretLimit:
    """How many wrong secrets a subject of ``scope`` may type before it waits, and how
    the wait grows: ``first_wait`` after the ``free``-th wrong one in a row, doubled
    each next one up to ``max_wait``; a count whose last wrong one is older than
    ``forget_after`` (and no longer waits) starts again."""

    scope: str
    free: int
    first_wait: timedelta
    max_wait: timedelta
    forget_after: timedelta

    def wait_after(self, failures: int) -> timedelta:
        """The wait after ``failures`` wrong secrets in a row (zero while free)."""
        if failures < self.free:
            return timedelta(0)
        doublings = min(failures - self.free, 20)  # 2**20 minutes is past any ceiling
        return min(self.first_wait * (2 ** doublings), self.max_wait)

    def live(self, tries: SecretTries, at: datetime) -> bool:
        """Whether this count still counts at ``at``: it waits, or its last wrong secret is
        no older than ``forget_after`` (else the next wrong one starts it again)."""
        if tries.locked_until is not None and tries.locked_until > at:
            return True
        return tries.last_failure is not None and at - tries.last_failure <= self.forget_after

    def count(self, before: SecretTries, at: datetime) -> tuple[int, datetime | None]:
        """The count and the wait after one more wrong secret (the storage's policy)."""
        stale = before.last_failure is not None and not self.live(before, at)
        failures = 1 if stale else before.failures + 1
        wait = self.wait_after(failures)
        return failures, (at + wait if wait else None)


#: A parent's PIN, per profile: anyone's wrong PINs make that profile wait (capped low:
#: the parent is never locked out for long).
PARENT_PIN = SecretLimit("parent_pin", free=5, first_wait=timedelta(minutes=1),
                         max_wait=timedelta(minutes=15), forget_after=timedelta(hours=24))
#: A parent's PIN, per device: one device trying many profiles' PINs waits longer.
PARENT_PIN_DEVICE = SecretLimit("parent_pin_device", free=10, first_wait=timedelta(minutes=1),
                                max_wait=timedelta(hours=1), forget_after=timedelta(hours=24))
#: Unknown class codes, per device (a tablet may mistype a few, not guess).
CLASS_CODE_DEVICE = SecretLimit("class_code_device", free=10, first_wait=timedelta(minutes=1),
                                max_wait=timedelta(hours=1), forget_after=timedelta(hours=24))
#: Unknown class codes, the whole server: many devices (or forged addresses) guessing at
#: once. Short waits: a class signing in during such an attack waits seconds, not minutes.
CLASS_CODE_SERVER = SecretLimit("class_code_server", free=100, first_wait=timedelta(seconds=5),
                                max_wait=timedelta(seconds=30), forget_after=timedelta(minutes=10))


# -- the classroom's secrets (issue 27): three counts, none a weapon -------------------
#
# A child typing wrong PINs for a classmate (or wrong passwords for the teacher's name)
# on one tablet must not lock the classmate (or the teacher) out on another. So each
# wrong secret counts three times:
# - per pair (the target on this device): the guesser's own wait, growing to minutes;
# - per device (any target): a device that tries many targets waits too;
# - per target (from any device): a guess spread over many devices is slowed, but its
#   wait is capped at seconds, so the owner on another device never waits longer.
# A right secret clears its pair's and its target's counts (not the device's); the
# class's teacher sees a pupil's counts and clears them (Classroom.unlock_pupil).

#: A pupil's PIN on one device: 3 free tries, then 1, 2, 4, 8 and 15 minutes a try.
PUPIL_PIN_PAIR = SecretLimit("pupil_pin_pair", free=3, first_wait=timedelta(minutes=1),
                             max_wait=timedelta(minutes=15), forget_after=timedelta(hours=24))
#: Wrong pupils' PINs from one device, whoever the pupil (a shared tablet mistypes a few a
#: day; a device trying classmate after classmate waits).
PUPIL_PIN_DEVICE = SecretLimit("pupil_pin_device", free=20, first_wait=timedelta(minutes=1),
                               max_wait=timedelta(minutes=30), forget_after=timedelta(hours=2))
#: A pupil's PIN from every device together: seconds, never a lockout.
PUPIL_PIN = SecretLimit("pupil_pin", free=10, first_wait=timedelta(seconds=5),
                        max_wait=timedelta(seconds=30), forget_after=timedelta(hours=24))
#: A teacher's password on one device.
TEACHER_PASSWORD_PAIR = SecretLimit("teacher_password_pair", free=5,
                                    first_wait=timedelta(minutes=1), max_wait=timedelta(hours=1),
                                    forget_after=timedelta(hours=24))
#: Wrong teachers' passwords from one device, whichever account.
TEACHER_PASSWORD_DEVICE = SecretLimit("teacher_password_device", free=10,
                                      first_wait=timedelta(minutes=1),
                                      max_wait=timedelta(hours=1),
                                      forget_after=timedelta(hours=24))
#: A teacher's password from every device together: seconds, never a lockout.
TEACHER_PASSWORD = SecretLimit("teacher_password", free=20, first_wait=timedelta(seconds=5),
                               max_wait=timedelta(seconds=30), forget_after=timedelta(hours=24))


#: Wrong invitation codes for a teacher account, per device: a colleague mistypes one or
#: two; a device trying codes waits (a code is one of about 2.6 * 10^12, single use).
INVITE_DEVICE = SecretLimit("invite_device", free=5, first_wait=timedelta(minutes=1),
                            max_wait=timedelta(hours=1), forget_after=timedelta(hours=24))


@dataclass(frozen=True)
class Guard:
    """A secret's three counts (issue 27): the target on this device, this device
    whatever the target, the target from every device."""

    pair: SecretLimit
    device: SecretLimit
    target: SecretLimit

    def checks(self, target: str, device: str) -> list[Check]:
        """The three (limit, subject) counts, the pair's first."""
        return [(self.pair, pair(target, device)), (self.device, device),
                (self.target, target)]


@dataclass(frozen=True)
class Verdict:
    """A secret tried under a :class:`Guard`: right or not; ``wait`` when this device
    must wait (then the secret may not even have been tried); ``left``: wrong ones this
    device may still type for this target before a wait."""

    ok: bool
    wait: timedelta | None = None
    left: int = 0


#: A pupil's PIN and a teacher's password, each under its three counts.
PUPIL_PIN_GUARD = Guard(PUPIL_PIN_PAIR, PUPIL_PIN_DEVICE, PUPIL_PIN)
TEACHER_PASSWORD_GUARD = Guard(TEACHER_PASSWORD_PAIR, TEACHER_PASSWORD_DEVICE,
                               TEACHER_PASSWORD)


def pair(target: str, device: str) -> str:
    """The subject of a (target, device) count: ``"<target>|<device>"``; a target's
    counts on every device share the prefix ``"<target>|"``."""
    return f"{target}|{device}"


def wait_minutes(left: timedelta) -> int:
    """A wait as it is told (a child's PIN, a class code, a teacher's lock): whole
    minutes, rounded up, at least one."""
    return max(1, -(-int(left.total_seconds()) // 60))


#: One subject's count: its limit and the subject (a profile id, a device's hash, SERVER).
Check = tuple[SecretLimit, str]


class Limiter:
    """Counts wrong secrets per (limit, subject) in the database and says how long to wait."""

    def __init__(self, storage: Storage, *, clock: Clock = app_clock.now) -> None:
        self.storage = storage
        self.clock = clock

    def wait_left(self, checks: Sequence[Check]) -> timedelta | None:
        """How long the longest of these subjects must still wait, or None: try."""
        at = self.clock()
        tries = self.storage.secret_tries([(limit.scope, subject) for limit, subject in checks])
        ends = [row.locked_until for row in tries.values()
                if row.locked_until is not None and row.locked_until > at]
        return max(ends) - at if ends else None

    def failed(self, checks: Sequence[Check]) -> timedelta | None:
        """One wrong secret, counted for every subject; the wait it causes, if any."""
        return self._count(checks)[0]

    def _count(self, checks: Sequence[Check]) -> tuple[timedelta | None, list[SecretTries]]:
        """One wrong secret counted for every subject: the wait it causes, and each
        subject's count after it (in the order of ``checks``)."""
        at = self.clock()
        rows = [self.storage.count_secret_failure(
            (limit.scope, subject), at, lambda before, lim=limit: lim.count(before, at))
            for limit, subject in checks]
        ends = [row.locked_until for row in rows if row.locked_until is not None]
        return (max(ends) - at if ends else None), rows

    def succeeded(self, limit: SecretLimit, subject: str) -> None:
        """The right secret: this subject's count starts again."""
        self.storage.clear_secret_tries((limit.scope, subject))

    def try_secret(self, guard: Guard, target: str, device: str,
                   matches: Callable[[], bool]) -> Verdict:
        """``matches`` (the slow check of the secret) under ``guard``'s counts: not tried
        while any of them waits; right clears the pair's and the target's counts (the
        device's stays: a device cannot guess others between right answers of its own);
        wrong counts for all three."""
        checks = guard.checks(target, device)
        left = self.wait_left(checks)
        if left is not None:
            return Verdict(False, left)
        if matches():
            self.succeeded(guard.pair, pair(target, device))
            self.succeeded(guard.target, target)
            return Verdict(True)
        wait, rows = self._count(checks)
        return Verdict(False, wait, max(1, guard.pair.free - rows[0].failures))
