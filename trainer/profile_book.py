"""A device's profiles and what a child did outside a game, as the pages change them.

The pages and ui/ draw; every write they cause to a profile (create, rename, PIN,
delete, settings) or to a child's answers outside a puzzle's own session (an attempt,
a daily puzzle's slot) goes through :class:`ProfileBook`, so the rules of a write live
in ``trainer/`` and no view calls the storage to write (``tests/test_layers.py``
counts the views' ``storage()`` calls and allows none that write). Games write through
:class:`trainer.gameplay.GameSession`, tables through :class:`trainer.tables.Tables`,
lessons through :class:`trainer.lessons.LessonRunner`, the classroom through
:mod:`trainer.classroom`.
"""

from __future__ import annotations

from typing import Any

from puzzles.practice import Attempt

from . import clock as app_clock
from .clock import Clock
from .limits import PARENT_PIN, PARENT_PIN_DEVICE, Check, Limiter, wait_minutes
from .storage import DailyResult, Profile, SlotProgress, Storage, StorageError

__all__ = ["ProfileBook"]


class ProfileBook:
    """The writes a page makes for the profiles of this database; each is one
    transaction of :class:`~trainer.storage.Storage`, refused with its
    :class:`~trainer.storage.StorageError` (nothing changes then)."""

    def __init__(self, storage: Storage, *, clock: Clock = app_clock.now) -> None:
        self.storage = storage
        # What a parent's PIN guards is asked through its limits (issue 25): a wrong PIN
        # waits, per profile and per device, counted in the database (trainer.limits).
        self.limiter = Limiter(storage, clock=clock)

    # -- the profile ----------------------------------------------------------------
    def create(self, nickname: str, avatar: str) -> Profile:
        """A new profile (``profile_empty``, ``profile_taken``)."""
        return self.storage.create_profile(nickname, avatar)

    def check_pin(self, profile_id: int, *, pin: str | None, device: str) -> None:
        """Pass when ``pin`` opens the profile (any does without a PIN); otherwise
        ``pin_wait`` (``count``: minutes) while a wait runs, the PIN not even tried, or
        ``pin_wrong``. Asked before everything a PIN guards: choosing the profile,
        renaming it, changing or removing the PIN, deleting it with all its data; nothing
        changes on a refusal. ``device`` is the caller's stable name for the device (a
        hash: no address is stored)."""
        profile = self.storage.get_profile(profile_id)
        if profile is None or not profile.protected:
            return
        checks: list[Check] = [(PARENT_PIN, str(profile_id)), (PARENT_PIN_DEVICE, device)]
        left = self.limiter.wait_left(checks)
        if left is not None:
            raise StorageError("pin_wait", count=wait_minutes(left))
        if self.storage.check_pin(profile_id, pin):
            self.limiter.succeeded(PARENT_PIN, str(profile_id))
            return
        left = self.limiter.failed(checks)
        if left is not None:
            raise StorageError("pin_wait", count=wait_minutes(left))
        raise StorageError("pin_wrong")

    def rename(self, profile_id: int, nickname: str, *, pin: str | None, device: str
               ) -> Profile:
        """A new nickname, the parent's PIN asked (``pin_wrong``, ``pin_wait``,
        ``profile_taken``)."""
        self.check_pin(profile_id, pin=pin, device=device)
        return self.storage.rename_profile(profile_id, nickname, pin=pin)

    def set_pin(self, profile_id: int, new_pin: str | None, *, pin: str | None,
                device: str) -> None:
        """Set, change or (``None``) remove the parent's PIN (``pin_wrong``, ``pin_wait``,
        ``pin_format``)."""
        self.check_pin(profile_id, pin=pin, device=device)
        self.storage.set_pin(profile_id, new_pin, pin=pin)

    def delete(self, profile_id: int, *, pin: str | None, device: str) -> None:
        """The profile and all its data (``pin_wrong``, ``pin_wait``)."""
        self.check_pin(profile_id, pin=pin, device=device)
        self.storage.delete_profile(profile_id, pin=pin)

    def save_settings(self, profile_id: int, settings: dict[str, Any]) -> None:
        """The profile's settings as they are now (deck, language, options)."""
        self.storage.update_settings(profile_id, settings)

    # -- answers outside a game ------------------------------------------------------
    def record_attempt(self, profile_id: int, attempt: Attempt, *,
                       progress: SlotProgress | None = None) -> None:
        """A puzzle or quick fact answered, as it was judged; ``progress``: where it
        leaves the page's slot, kept with it (Quick facts' unfinished round)."""
        self.storage.record_attempt(profile_id, attempt, progress=progress)

    def record_daily_answer(self, profile_id: int, day: str, number: int, index: int,
                            attempt: Attempt, *, slots: int) -> DailyResult:
        """A daily puzzle answered: its attempt and the day's slot, together."""
        return self.storage.record_daily_answer(profile_id, day, number, index, attempt,
                                                slots=slots)
