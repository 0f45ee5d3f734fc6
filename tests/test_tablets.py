"""Shared tablets forget the last child (issue 27), in the core: a pupil's visit ends
after the class's idle minutes (the teacher's setting, 5 by default), when the teacher
signs out every tablet of the class, and when the class is archived or deleted or the
pupil removed. Time is the test's own clock (the app passes trainer.clock.now)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.test_classroom import NOON, Clock, class_with, store, teacher  # noqa: F401
from trainer.classroom import (
    DOMAIN,
    END_REASONS,
    PUPIL_IDLE_CHOICES,
    PUPIL_IDLE_MINUTES,
    ClassroomError,
    PupilSignIn,
    PupilVisit,
    visit_end,
)
from trainer.i18n import LANGUAGES, has_key, t
from trainer.storage import Storage


def _signed_in(store: Storage, clock: Clock):  # noqa: F811
    room = teacher(store, clock=clock)
    info, pupils = class_with(room, "Ana\nLeo")
    door = PupilSignIn(store, clock=clock)
    card = door.find_class(info.code)
    ana = pupils["Ana"]
    assert door.sign_in(card, ana.profile_id, ana.pin) == ana.profile_id
    return room, info, pupils, PupilVisit.start(ana.profile_id, info.id, clock())


def test_a_pupil_left_signed_in_is_signed_out_after_the_idle_minutes(store: Storage) -> None:  # noqa: F811
    clock = Clock(NOON)
    room, info, _pupils, visit = _signed_in(store, clock)
    assert store.get_class(info.id).idle_minutes == PUPIL_IDLE_MINUTES == 5
    clock.advance(minutes=4, seconds=50)
    assert visit_end(store, visit, clock()) is None
    visit.touch(clock())  # a tap: the idle time starts again
    clock.advance(minutes=4, seconds=59)
    assert visit_end(store, visit, clock()) is None
    clock.advance(seconds=1)
    assert visit_end(store, visit, clock()) == "idle"
    # A tap that comes late does not reopen it (the tablet forgot; the next child taps).
    assert visit_end(store, visit, clock() + timedelta(seconds=1)) == "idle"


def test_the_teacher_chooses_the_idle_minutes(store: Storage) -> None:  # noqa: F811
    clock = Clock(NOON)
    room, info, _pupils, visit = _signed_in(store, clock)
    assert room.set_tablet_idle(info.id, 2).idle_minutes == 2
    clock.advance(minutes=1, seconds=59)
    assert visit_end(store, visit, clock()) is None
    clock.advance(seconds=1)
    assert visit_end(store, visit, clock()) == "idle"
    for wrong in (0, 1, 3, 60, -5):
        with pytest.raises(ClassroomError) as err:
            room.set_tablet_idle(info.id, wrong)
        assert err.value.key == "class.idle_minutes"
    assert store.get_class(info.id).idle_minutes == 2  # a refusal changes nothing
    assert set(PUPIL_IDLE_CHOICES) >= {2, 5, 10}


def test_signing_out_every_tablet_ends_the_visits_begun_before_it(store: Storage) -> None:  # noqa: F811
    clock = Clock(NOON)
    room, info, pupils, ana = _signed_in(store, clock)
    clock.advance(minutes=1)
    leo = PupilVisit.start(pupils["Leo"].profile_id, info.id, clock())
    clock.advance(seconds=30)
    assert room.sign_out_tablets(info.id).signed_out_at == clock()
    assert visit_end(store, ana, clock()) == "signed_out"
    assert visit_end(store, leo, clock()) == "signed_out"
    clock.advance(seconds=10)
    again = PupilVisit.start(pupils["Ana"].profile_id, info.id, clock())  # signs in again
    assert visit_end(store, again, clock()) is None


def test_an_archived_or_deleted_class_ends_every_visit_with_its_reason(store: Storage) -> None:  # noqa: F811
    clock = Clock(NOON)
    room, info, pupils, ana = _signed_in(store, clock)
    leo = PupilVisit.start(pupils["Leo"].profile_id, info.id, clock())
    room.remove_pupil(info.id, pupils["Leo"].profile_id)
    assert visit_end(store, leo, clock()) == "removed"
    room.archive(info.id)
    assert visit_end(store, ana, clock()) == "archived"
    room.restore(info.id)
    assert visit_end(store, ana, clock()) is None
    room.delete_class(info.id, info.name)
    assert visit_end(store, ana, clock()) == "deleted"


def test_every_reason_is_said_in_every_language() -> None:
    for lang in LANGUAGES:
        for reason in END_REASONS:
            assert has_key(f"ended.{reason}", DOMAIN)
            text = t(f"ended.{reason}", lang, domain=DOMAIN)
            assert text and "ended." not in text
    # A deleted class says nothing was kept; an archived one that it was.
    assert "deleted" in t("ended.deleted", "en", domain=DOMAIN)
    assert "borró" in t("ended.deleted", "es", domain=DOMAIN)
    assert "gelöscht" in t("ended.deleted", "de", domain=DOMAIN)
    assert "still saved" in t("ended.archived", "en", domain=DOMAIN)
    assert "guardado" in t("ended.archived", "es", domain=DOMAIN)
