"""The teacher's live view during the lesson (issue 29). Plain classes, no Streamlit.

- :class:`LiveView` is the teacher's side, over a :class:`~trainer.classroom.Classroom`
  (its access checks): :meth:`LiveView.pupils`, what one refresh of the view draws --
  each pupil of the class, signed in or not, on which tablet, on which page with which
  assignment, their answers of the last minutes and whether they look stuck. Read in
  ONE query whatever the class's size (``tests/test_live_view.py`` counts them).
- :class:`ActivityNotes` is the pupil's side: a page run says where the pupil is, but
  not on every rerun -- at once when the page, the assignment or the tablet changes,
  else at most every :data:`SEEN_SECONDS` (the tablet's timer keeps it fresh).

"Stuck" (docs/CLASSROOM.md): a pupil signed in who gave :data:`STUCK_WRONG` wrong
answers in a row (the last of them in the last :data:`RECENT_MINUTES`), or who has been
on a page where answers are given (:data:`ANSWER_PAGES`) for :data:`STUCK_MINUTES` with
no right answer since they came to it -- and none among the answers the card counts
("last 5 min: 1 right of 1"), whatever page it was given on: the card never says both.
A vote at the class's game restarts that time as a right answer does (the engine took
its sum; :func:`trainer.storage.activity_answers.note_vote`). On My class with no
assignment in hand, the class's live round is what there is to answer: the time starts
no earlier than the round, and stops once the pupil answered it or it is revealed
(:func:`_chance_since`). A right answer is what the pupil's own screen called right,
for every kind of round or puzzle: solved, or a right set found
(:func:`trainer.storage.activity_answers.counts_right`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from .classroom import Classroom
from .clock import now as clock_now
from .live import LIVE_KINDS, LIVE_MODE, left_open
from .names import sort_names
from .storage import ActivityRow, AssignmentRow, LiveRoundRow, Storage
from .storage.activity import RECENT_MINUTES, recent_counts

__all__ = ["ANSWER_PAGES", "ONLINE_MINUTES", "RECENT_MINUTES", "SEEN_SECONDS", "STUCK_MINUTES",
           "STUCK_WRONG", "ActivityNotes", "LiveView", "Noted", "PupilNow", "device_label",
           "signed_out"]

#: A pupil is signed in on a tablet while the tablet says so at least this often: a page
#: run or its timer (``ui.pupil_guard``) notes them every :data:`SEEN_SECONDS`.
ONLINE_MINUTES = 2
#: A page run notes the pupil again after this long on the same page.
SEEN_SECONDS = 60
#: Wrong answers in a row that make a pupil stuck.
STUCK_WRONG = 3
#: Minutes on a page of answers with no right one that make a pupil stuck.
STUCK_MINUTES = 4
#: The pages where a pupil answers (My class's assignments and round, puzzles, the
#: daily, quick facts): long there with no right answer is stuck; long on a lesson, a
#: game or My progress is not.
ANSWER_PAGES = frozenset({"my_class", "puzzles", "daily", "quick_facts"})


def device_label(device_key: str) -> str:
    """A tablet's label on the teacher's view: five characters of a hash of the app's
    own device key (itself a hash, ``ui.session.device_key``). The same tablet shows the
    same label; nothing about the device can be read from it."""
    return hashlib.sha256(f"escoba-tablet:{device_key}".encode()).hexdigest()[:5].upper()


@dataclass(frozen=True, slots=True)
class PupilNow:
    """One pupil on the teacher's live view."""

    profile_id: int
    nickname: str
    avatar: str
    real_name: str | None
    group: str | None
    signed_in: bool
    tablet: str | None
    page: str | None  # while signed in
    assignment: AssignmentRow | None  # while signed in, on My class
    #: "mode:kind:level" of the last answer (what they are doing when no assignment).
    last_answer_what: str | None
    last_answer_at: datetime | None
    seen_at: datetime | None
    answers: int  # in the last RECENT_MINUTES
    right: int
    minutes_on_page: int
    #: Minutes since the last right answer (or since they came to the page, if later):
    #: what "stuck: N min with no right answer" says.
    minutes_without_right: int
    #: Why they look stuck: "wrong" (wrong answers in a row), "slow" (long on a page of
    #: answers with no right one), or None.
    stuck: str | None
    wrong_streak: int


class LiveView:
    """The teacher's live view of a class; every call checks the class is theirs."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.storage: Storage = room.storage

    def pupils(self, class_id: int, *, at: datetime | None = None,
               touch: bool = True) -> list[PupilNow]:
        """Every pupil of the class now: signed in first, each part by nickname.
        ``touch=False`` from the view's timer: a refresh is not the teacher's activity."""
        info = self.room.class_info(class_id, touch=touch)
        at = at or clock_now()
        since = at - timedelta(minutes=ONLINE_MINUTES)
        if info.signed_out_at is not None and info.signed_out_at > since:
            since = info.signed_out_at  # "Sign out every tablet"
        rows, live = self.storage.live_view_read(class_id)  # ONE query, whatever the size
        if live is not None and (live.kind not in LIVE_KINDS or left_open(live.created_at)):
            live = None  # not a round the pupils see (another part's, or left open)
        seen = sort_names([self._now(row, at, since, live) for row in rows], self.room.lang,
                          key=lambda p: p.nickname)  # Özlem beside Noah, not after Zoë
        return sorted(seen, key=lambda p: not p.signed_in)  # stable: by nickname within

    @staticmethod
    def _now(row: ActivityRow, at: datetime, since: datetime,
             live: LiveRoundRow | None = None) -> PupilNow:
        signed_in = row.page is not None and row.seen_at is not None and row.seen_at >= since
        answers, right = recent_counts(row.recent, at)
        minutes = without_right = 0
        stuck = None
        if signed_in and row.page_since is not None:
            minutes = int((at - row.page_since).total_seconds() // 60)
            last_right = max(filter(None, (row.page_since, row.right_at)))
            without_right = int((at - last_right).total_seconds() // 60)
            chance = _chance_since(row, live, last_right)
            if (row.wrong_streak >= STUCK_WRONG and row.answer_at is not None
                    and row.answer_at >= at - timedelta(minutes=RECENT_MINUTES)):
                stuck = "wrong"
            # ``right == 0``: a right answer the card counts in its last minutes (given
            # 4 to 5 minutes ago, or on the page before) is never beside "no right answer".
            elif (row.page in ANSWER_PAGES and right == 0 and chance is not None
                  and at - chance >= timedelta(minutes=STUCK_MINUTES)):
                stuck = "slow"
        return PupilNow(
            row.profile_id, row.nickname, row.avatar, row.real_name, row.group_name, signed_in,
            row.device, row.page if signed_in else None,
            row.assignment if signed_in else None, row.answer_what, row.answer_at,
            row.seen_at, answers, right, minutes, without_right, stuck, row.wrong_streak)


def _chance_since(row: ActivityRow, live: LiveRoundRow | None,
                  last_right: datetime) -> datetime | None:
    """Since when the pupil has had something to answer with no right answer (the clock
    of "stuck: slow"), or None while they have nothing to answer. On My class with no
    assignment in hand, the class's round is what there is to answer: a round that
    started after they came has given them a chance only since it started; once they
    answered it, or it is revealed, they wait for the teacher -- not stuck. (A pupil who
    sat on My class while the teacher explained was "stuck: 4 min" the moment the round
    opened.)"""
    if row.page != "my_class" or row.assignment is not None or live is None:
        return last_right
    if live.state != "open":
        return None
    if (row.answer_at is not None and row.answer_at >= live.created_at
            and (row.answer_what or "").startswith(f"{LIVE_MODE}:")):
        return None  # answered the round: waiting for the reveal
    return max(last_right, live.created_at)


@dataclass(frozen=True, slots=True)
class Noted:
    """What a tablet last wrote of its pupil, and when (kept in its session)."""

    profile_id: int
    page: str
    assignment_id: int | None
    device: str | None
    at: datetime


class ActivityNotes:
    """A pupil's page runs, noted on their activity row -- not on every rerun."""

    def __init__(self, storage: Storage, profile_id: int, class_id: int) -> None:
        self.storage = storage
        self.profile_id = profile_id
        self.class_id = class_id

    def due(self, page: str, assignment_id: int | None, device: str | None,
            last: Noted | None, at: datetime) -> bool:
        """Whether this run must write: a new page, assignment, tablet or pupil, or
        :data:`SEEN_SECONDS` since the last write."""
        return (last is None or last.profile_id != self.profile_id or last.page != page
                or last.assignment_id != assignment_id or last.device != device
                or at - last.at >= timedelta(seconds=SEEN_SECONDS))

    def page(self, page: str, assignment_id: int | None, device: str | None,
             last: Noted | None, at: datetime | None = None) -> Noted | None:
        """Note the pupil on ``page`` if due (:meth:`due`); what was written, or None."""
        at = at or clock_now()
        if not self.due(page, assignment_id, device, last, at):
            return None
        self.storage.note_activity(self.class_id, self.profile_id, device=device, page=page,
                                   assignment_id=assignment_id)
        return Noted(self.profile_id, page, assignment_id, device, at)



def signed_out(storage: Storage, profile_id: int) -> None:
    """The pupil signed out of this tablet (switched, idle, the teacher's "sign out every
    tablet", another profile chosen): on no page any more (a profile in no class has no
    row: nothing changes)."""
    storage.leave_activity(profile_id)
