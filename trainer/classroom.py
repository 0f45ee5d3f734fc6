"""The classroom without Streamlit: teachers, their classes, pupils on shared tablets.

Three doors, each a plain class a page keeps in session state (docs/CLASSROOM.md has
the order of calls for the teacher's pages and the pupil's):

- :class:`TeacherAuth` makes an account (a name and a passphrase: the server's first
  freely, any other with a colleague's invitation code) and signs a teacher in,
  rate-limited per account, device and pair (:mod:`trainer.limits`); it answers
  with a :class:`TeacherSession`, which locks itself after some minutes without use
  (the clock is injectable).
- :class:`Classroom` is everything a signed-in teacher does with their classes: make
  one (with a short code for the board), add pupils from a pasted list or generated
  nicknames (each with a picture and a 4-digit PIN shown once), new PINs, archive,
  restore, delete with a summary, assignments, the views (dashboard, fact grid,
  assignments' progress: :mod:`trainer.classroom_views`), print and export
  (:mod:`trainer.classroom_print`). Every call checks the session is unlocked and that
  the class is the teacher's (owner or co-teacher); an archived class is read-only.
- :class:`PupilSignIn` is a pupil on a shared tablet: the class code, then the class's
  pictures and nicknames (never real names), then the PIN (rate-limited per pupil,
  device and pair: one tablet's guesses never lock a pupil out on another); it
  answers with the profile id the app then plays as. :func:`pupil_tasks` lists a
  pupil's assignments, open ones first.

Refusals are :class:`ClassroomError` with a key of the ``classroom`` catalog.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from lessons import load_stages
from puzzles.practice import quick_fact_for, quick_question_text

from . import clock
from .classroom_views import (
    DEFAULT_FLUENCY,
    FLUENCY_LIMITS,
    WEEK_DAYS,
    AssignmentProgress,
    ClassroomError,
    FactGrid,
    FactTry,
    PupilRow,
    PupilTask,
    assignments_progress,
    cell_history,
    check_assignment,
    dashboard,
    fact_grid,
    pupil_task,
)
from .clock import Clock
from .i18n import t
from .limits import (
    CLASS_CODE_DEVICE,
    CLASS_CODE_SERVER,
    INVITE_DEVICE,
    PUPIL_PIN,
    PUPIL_PIN_GUARD,
    PUPIL_PIN_PAIR,
    SERVER,
    TEACHER_PASSWORD_GUARD,
    Limiter,
    wait_minutes,
)
from .names import label_problem, name_key, name_problem, normalise, sort_names
from .storage import (
    PUPIL_IDLE_MINUTES,
    AssignmentRow,
    ClassDeletion,
    ClassInfo,
    ClassSnapshot,
    GroupRow,
    Member,
    NewMember,
    SecretTries,
    Storage,
    StorageError,
    Teacher,
)

__all__ = ["ClassroomError", "DOMAIN", "Picture", "PICTURES", "picture_of", "MAX_PUPILS",
           "PASSWORD_MIN", "PASSWORD_MAX", "CLASS_NAME_MAX", "REAL_NAME_MAX",
           "new_class_code", "format_code", "normalise_code", "new_pin", "password_problem",
           "TeacherAuth", "TeacherSession", "Classroom", "PupilLogin", "Refusal", "PinAttempts",
           "new_invite", "format_invite", "normalise_invite", "INVITE_DAYS", "LOCAL",
           "AddedPupils", "PupilSignIn", "PupilCard", "ClassCard", "pupil_tasks",
           "Clock", "utc_now", "say", "describe", "fact_label", "fact_question", "PupilVisit",
           "visit_end",
           "PUPIL_IDLE_CHOICES", "PUPIL_IDLE_MINUTES", "CLASS_GONE", "GROUP_NAME_MAX"]

#: The catalog domain of the classroom's words (locales/<lang>/LC_MESSAGES/classroom.po).
DOMAIN = "classroom"
#: lichess's limit: a class is a class, not a school.
MAX_PUPILS = 100
PASSWORD_MIN = 10
PASSWORD_MAX = 200
TEACHER_NAME_MAX = 40
CLASS_NAME_MAX = 40
#: A group's name (issue 29): short, as it shows in a column of the grid.
GROUP_NAME_MAX = 24
REAL_NAME_MAX = 60
#: Who typed a secret when the caller names no device (the command line, a test): one
#: device. The app names each browser's device (ui.session.device_key).
LOCAL = "local"
#: How long a teacher's invitation code works, and how it looks ("K7M-P3X-9AC").
INVITE_DAYS = 7
INVITE_LENGTH = 9
#: The teacher area locks after this many minutes without a call.
IDLE_MINUTES = 15
#: A pupil left signed in on a shared tablet is signed out after the class's idle minutes
#: (issue 27): one of these, the teacher's choice, 5 unless changed.
PUPIL_IDLE_CHOICES = (2, 5, 10, 15, 30)

#: The app's one clock (trainer.clock: ESCOBA_NOW honoured), under the names used here.
utc_now = clock.now


# -- words -----------------------------------------------------------------------------

def fact_label(fact: str) -> str:
    """A fact as a child reads it: ``3+5`` -> ``3 + 5``, ``15-8`` -> ``8 + ? = 15``."""
    if "-" in fact:
        total, value = fact.split("-")
        return f"{value} + ? = {total}"
    return fact.replace("+", " + ")


def fact_question(fact: str, capture_sum: int = 15) -> str:
    """A fact as the question a child is asked for it (``quick_fact_for``): ``15-8`` ->
    ``8 + ? = 15``, ``7+8`` -> ``7 + ? = 15``, ``3+4`` -> ``3 + 4 + ? = 15``. The
    teacher's picker showed ``3 + 4 = ?`` while the child was asked ``3 + 4 + ? = 15``
    (found trying it as a teacher); a fact no quick fact asks keeps its label."""
    puzzle = quick_fact_for(fact, capture_sum)
    return fact_label(fact) if puzzle is None else quick_question_text(puzzle.addends,
                                                                       capture_sum)


def say(key: str, params: Mapping[str, Any] | None = None, lang: str | None = None) -> str:
    """A ``classroom`` message in ``lang`` (a refusal, a needs-help reason, a status),
    its parameters worded: a puzzle ``kind`` by its name, a lesson ``stage`` by its
    title, ``facts`` as the questions a child is asked for them."""
    values = dict(params or {})
    if "kind" in values:
        values["kind"] = t(f"kind.{values['kind']}", lang, domain=DOMAIN)
    if "stage" in values:
        stage = next((s for s in load_stages() if s.key == values["stage"]), None)
        values["stage"] = t(stage.title, lang, domain="lessons") if stage else values["stage"]
    if "facts" in values and not isinstance(values["facts"], str):
        # As the child is asked them ("3 + 4 + ? = 15", not "3 + 4").
        total = int(values.get("capture_sum") or 15)
        values["facts"] = ", ".join(fact_question(f, total) for f in values["facts"])
    if "fact" in values:
        values["fact"] = fact_label(str(values["fact"]))
    return t(key, lang, domain=DOMAIN, **values)


def describe(assignment: AssignmentRow, lang: str | None = None, *,
             to_pupil: bool = False) -> str:
    """An assignment in a line: "Puzzles: Captures, level 2, 10 puzzles (sum 15)"; a
    Scopa set names no sum (its captures make the played card's value). ``to_pupil``:
    the words a pupil reads of their own task ("your 5 facts to practise", where the
    teacher reads "each pupil's 5 weakest facts")."""
    scopa = assignment.kind == "puzzles" and assignment.spec.get("kind") == "scopa"
    mine = to_pupil and assignment.kind == "weakest"
    return say(f"task.{assignment.kind}{'_scopa' if scopa else ''}{'_mine' if mine else ''}",
               assignment.spec, lang)


# -- pictures, codes, PINs --------------------------------------------------------------

@dataclass(frozen=True)
class Picture:
    """A pupil's picture: the emoji the app shows, its word (``pic.<key>``), and a colour
    for the drawing on the printed login card (:mod:`trainer.classroom_print`)."""

    key: str
    emoji: str
    colour: tuple[int, int, int]


#: Things a child names at a glance and the login card can draw with a few shapes.
PICTURES: tuple[Picture, ...] = (
    Picture("sun", "☀️", (240, 180, 20)), Picture("moon", "🌙", (90, 110, 200)),
    Picture("star", "⭐", (240, 200, 40)), Picture("heart", "❤️", (220, 40, 60)),
    Picture("tree", "🌳", (40, 140, 60)), Picture("flower", "🌸", (230, 110, 170)),
    Picture("fish", "🐟", (40, 130, 210)), Picture("house", "🏠", (200, 90, 50)),
    Picture("boat", "⛵", (30, 90, 160)), Picture("kite", "🪁", (150, 60, 190)),
    Picture("apple", "🍎", (210, 40, 40)), Picture("rocket", "🚀", (120, 120, 130)),
    Picture("umbrella", "☂️", (120, 50, 170)), Picture("cloud", "☁️", (110, 160, 220)),
    Picture("snowflake", "❄️", (60, 170, 220)), Picture("balloon", "🎈", (230, 60, 60)),
    # issue 27: enough for a class of 30 without two children on one picture (36).
    Picture("ball", "⚽", (90, 90, 90)), Picture("clover", "🍀", (50, 150, 60)),
    Picture("mushroom", "🍄", (200, 50, 40)), Picture("cherries", "🍒", (190, 20, 50)),
    Picture("carrot", "🥕", (240, 130, 30)), Picture("lemon", "🍋", (245, 215, 50)),
    Picture("strawberry", "🍓", (220, 40, 70)), Picture("car", "🚗", (210, 50, 50)),
    Picture("bell", "🔔", (230, 170, 30)), Picture("crown", "👑", (235, 190, 40)),
    Picture("drum", "🥁", (180, 60, 60)), Picture("gift", "🎁", (60, 120, 200)),
    Picture("hat", "🎩", (60, 60, 70)), Picture("cactus", "🌵", (70, 150, 80)),
    Picture("rainbow", "🌈", (230, 80, 60)), Picture("mountain", "⛰️", (120, 110, 100)),
    Picture("pencil", "✏️", (240, 190, 40)), Picture("diamond", "💎", (70, 170, 230)),
    Picture("lightning", "⚡", (250, 200, 20)), Picture("ice_cream", "🍦", (240, 200, 150)),
)
_BY_EMOJI = {p.emoji: p for p in PICTURES}

#: Friendly nicknames: an animal (``nick.<key>``, in the teacher's language) and a number.
NICK_ANIMALS: tuple[str, ...] = ("fox", "owl", "bear", "rabbit", "lion", "whale", "frog",
                                 "turtle", "eagle", "dolphin", "penguin", "mouse", "cat",
                                 "dog", "duck", "bee")

# Letters and digits nobody mixes up when copying from the board: no O/0, I/L/1, Z/2, S, B/8,
# G. Three letters and three digits: about 1.3 million codes.
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"
CODE_DIGITS = "345679"
CODE_LENGTH = 6
_OBVIOUS_PINS = frozenset({"0000", "1111", "2222", "3333", "4444", "5555", "6666", "7777",
                           "8888", "9999", "1234", "4321", "0123", "2580", "1212", "1122"})
# Passphrases nobody should use (checked letters only, folded: "Password2024!" is here).
_COMMON = frozenset({"password", "passwort", "contrasena", "qwerty", "qwertyuiop", "qwertz",
                     "letmein", "iloveyou", "welcome", "admin", "teacher", "profesor",
                     "profesora", "lehrer", "lehrerin", "escoba", "abc", "abcdef", "abcdefg",
                     "abcdefghij", "monkey", "dragon", "football", "futbol", "princess",
                     "sunshine", "school", "escuela", "schule", "class", "clase", "klasse"})


def picture_of(avatar: str) -> Picture | None:
    """The picture a pupil's avatar shows, if it is one of :data:`PICTURES`."""
    return _BY_EMOJI.get(avatar)


def new_class_code() -> str:
    """A fresh class code, stored as ``KDM472`` (shown ``KDM-472``)."""
    return ("".join(secrets.choice(CODE_LETTERS) for _ in range(3))
            + "".join(secrets.choice(CODE_DIGITS) for _ in range(3)))


def format_code(code: str) -> str:
    """``KDM472`` -> ``KDM-472``: how a code is shown and printed."""
    return f"{code[:3]}-{code[3:]}" if len(code) == CODE_LENGTH else code


def normalise_code(typed: str) -> str:
    """A code as typed (``kdm 472``, ``KDM-472``, full-width letters) as stored."""
    text = unicodedata.normalize("NFKC", str(typed)).upper()
    return "".join(ch for ch in text if ch.isascii() and ch.isalnum())[:CODE_LENGTH + 6]


def new_pin() -> str:
    """A random 4-digit PIN that is not one of the obvious ones (1234, 0000, ...)."""
    while True:
        pin = f"{secrets.randbelow(10000):04d}"
        if pin not in _OBVIOUS_PINS:
            return pin


def password_problem(password: str, name: str = "") -> tuple[str, dict[str, Any]] | None:
    """Why a passphrase is refused (``classroom`` key, parameters), or None.

    Long rather than clever (NIST SP 800-63B): at least 10 characters, any characters,
    not the name, not a common password with digits or signs added, not one character
    repeated.
    """
    if len(password) < PASSWORD_MIN:
        return "auth.password_short", {"min": PASSWORD_MIN}
    if len(password) > PASSWORD_MAX:
        return "auth.password_long", {"max": PASSWORD_MAX}
    folded = _fold(password)
    if len(set(folded)) < 4:
        return "auth.password_repeats", {}
    letters = "".join(ch for ch in folded if ch.isalpha())
    if letters in _COMMON or folded.strip() in _COMMON:
        return "auth.password_common", {}
    words = [w for w in _fold(name).split() if len(w) >= 3]
    if any(w in folded for w in words):
        return "auth.password_name", {}
    return None


def new_invite() -> str:
    """A fresh invitation code, stored as ``K7MP3X9AC`` (shown ``K7M-P3X-9AC``): letters and
    digits nobody mixes up, about 2.6 * 10^12 codes, single use and expiring."""
    alphabet = CODE_LETTERS + CODE_DIGITS
    return "".join(secrets.choice(alphabet) for _ in range(INVITE_LENGTH))


def format_invite(code: str) -> str:
    """``K7MP3X9AC`` -> ``K7M-P3X-9AC``: how an invitation code is shown."""
    return "-".join(code[i:i + 3] for i in range(0, len(code), 3))


def normalise_invite(typed: str) -> str:
    """An invitation code as typed (dashes, spaces, lower case, full-width) as stored."""
    return normalise_code(typed)[:INVITE_LENGTH + 1]


def _invite_hash(code: str) -> str:
    # A plain SHA-256 is enough: the code is random (about 2^41), single use, expires
    # within days and wrong ones are counted per device; it only keeps a code read from
    # a backup from being usable.
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def _teacher_subject(name: str) -> str:
    """A teacher's name as the limits count it: a digest of its folded key (the key may
    be longer than a subject; a name is never stored in the counts)."""
    return hashlib.sha256(name_key(normalise(name)).encode("utf-8")).hexdigest()[:16]


def _fold(text: str) -> str:
    """Case and accents folded: "Díaz" -> "diaz"."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_NAME_KEYS = {"nickname_hidden": "name.hidden", "profile_empty": "name.empty",
              "nickname_chars": "name.chars", "nickname_long": "name.long",
              "nickname_marks": "name.marks",
              "nickname_reserved": "name.reserved"}


def _name_error(problem: tuple[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    key, params = problem
    return _NAME_KEYS.get(key, key), params


# -- teachers ---------------------------------------------------------------------------

class TeacherSession:
    """A signed-in teacher in one browser session. It locks itself after
    ``idle_minutes`` without a call (:meth:`touch`), and stays locked until the password
    is typed again (:meth:`unlock`) or the teacher signs out."""

    def __init__(self, teacher: Teacher, *, idle_minutes: float = IDLE_MINUTES,
                 clock: Clock = utc_now) -> None:
        self.teacher = teacher
        self.idle = timedelta(minutes=idle_minutes)
        self._clock = clock
        self.last_active = clock()
        self._locked = False
        self.signed_out = False

    @property
    def locked(self) -> bool:
        if not self._locked and self._clock() - self.last_active > self.idle:
            self._locked = True
        return self._locked or self.signed_out

    def touch(self) -> None:
        """A call in the teacher area: ``auth.session_locked`` if the session is locked,
        else the inactivity clock starts again."""
        if self.locked:
            raise ClassroomError("auth.session_locked")
        self.last_active = self._clock()

    def unlock(self, auth: TeacherAuth, password: str, device: str = LOCAL) -> None:
        """Type the password again after the inactivity lock (rate-limited as a sign-in)."""
        if self.signed_out:
            raise ClassroomError("auth.session_locked")
        auth.check(self.teacher.name, password, device)
        self._locked = False
        self.last_active = self._clock()

    def sign_out(self) -> None:
        self.signed_out = True


class TeacherAuth:
    """Teacher accounts: the first of a server, then by invitation; sign in, rate-limited
    per account, per device and per pair of the two (trainer.limits: one device's wrong
    passwords never lock the account on another)."""

    def __init__(self, storage: Storage, *, clock: Clock = utc_now,
                 idle_minutes: float = IDLE_MINUTES) -> None:
        self.storage = storage
        self.clock = clock
        self.idle_minutes = idle_minutes

    def first_account_open(self) -> bool:
        """Whether the server has no teacher yet: its first visitor (or the command line,
        ``escoba teacher create``) may make the first account without an invitation."""
        return self.storage.teacher_count() == 0

    def create_account(self, name: str, password: str, invite: str | None = None, *,
                       command_line: bool = False, device: str = LOCAL) -> TeacherSession:
        """A new account, signed in: the server's first without ``invite``, any other with
        a colleague's invitation code (used up by it), or made at the server's own command
        line (``command_line``: ``escoba teacher create``, whose user holds the database
        already). ``name.*`` (the name),
        ``auth.password_*`` (the passphrase), ``auth.teacher_taken``,
        ``auth.invite_needed`` or ``auth.invite_bad`` (unknown, used or expired alike;
        counted per ``device``, which waits after a few: ``auth.invite_wait``)."""
        if (problem := label_problem(name, TEACHER_NAME_MAX)) is not None:
            key, params = _name_error(problem)
            raise ClassroomError(key, **params)
        name = normalise(name)
        if (problem := password_problem(password, name)) is not None:
            raise ClassroomError(problem[0], **problem[1])
        code = normalise_invite(invite) if invite is not None and invite.strip() else None
        limiter = Limiter(self.storage, clock=self.clock)
        if code is not None:
            left = limiter.wait_left([(INVITE_DEVICE, device)])
            if left is not None:
                raise ClassroomError("auth.invite_wait", count=wait_minutes(left))
        try:
            if code is not None and len(code) != INVITE_LENGTH:
                raise StorageError("invite_bad")
            teacher = self.storage.create_first_or_invited_teacher(
                name, password, at=self.clock(),
                invite_hash=_invite_hash(code) if code is not None else None,
                any_time=command_line)
        except StorageError as err:
            if err.key == "invite_bad":
                limiter.failed([(INVITE_DEVICE, device)])
            if err.key in ("invite_needed", "invite_bad"):
                raise ClassroomError(f"auth.{err.key}") from err
            raise ClassroomError("auth.teacher_taken", name=name) from err
        return TeacherSession(teacher, idle_minutes=self.idle_minutes, clock=self.clock)

    def invite(self, by: Teacher | None = None) -> tuple[str, datetime]:
        """A single-use invitation code for a new teacher account, and when it expires
        (:data:`INVITE_DAYS`): made by a signed-in teacher (``by``, through
        :meth:`Classroom.invite_teacher`) or, ``by`` None, by the school's IT person at the
        command line (``escoba teacher invite``). Shown once: only its digest is stored."""
        code = new_invite()
        at = self.clock()
        expires = at + timedelta(days=INVITE_DAYS)
        self.storage.create_invite(by.id if by is not None else None, _invite_hash(code),
                                   at=at, expires_at=expires)
        return code, expires

    def check(self, name: str, password: str, device: str = LOCAL) -> Teacher:
        """The teacher whose password this is; ``auth.wrong`` (the same for an unknown
        name, and as slow) or ``auth.locked`` with the minutes left (``count``): this
        device waits (growing waits per account and device, per device), or, for a few
        seconds, any device (the account's count over every device, capped low)."""
        found: list[Teacher] = []

        def matches() -> bool:
            teacher = self.storage.teacher_password_matches(normalise(name), password)
            found.extend([teacher] if teacher is not None else [])
            return teacher is not None

        verdict = Limiter(self.storage, clock=self.clock).try_secret(
            TEACHER_PASSWORD_GUARD, _teacher_subject(name), device, matches)
        if verdict.ok:
            return found[0]
        if verdict.wait is not None:
            raise ClassroomError("auth.locked", count=wait_minutes(verdict.wait))
        raise ClassroomError("auth.wrong")

    def sign_in(self, name: str, password: str, device: str = LOCAL) -> TeacherSession:
        return TeacherSession(self.check(name, password, device),
                              idle_minutes=self.idle_minutes, clock=self.clock)

    def change_password(self, session: TeacherSession, old: str, new: str,
                        device: str = LOCAL) -> None:
        session.touch()
        self.check(session.teacher.name, old, device)
        if (problem := password_problem(new, session.teacher.name)) is not None:
            raise ClassroomError(problem[0], **problem[1])
        self.storage.set_teacher_password(session.teacher.id, new)


# -- a teacher's classes ----------------------------------------------------------------

@dataclass(frozen=True)
class PupilLogin:
    """What a login card prints: the PIN is here once, when it is made, and never again."""

    profile_id: int
    nickname: str
    avatar: str
    pin: str | None = None
    real_name: str | None = None


@dataclass(frozen=True)
class PinAttempts:
    """A pupil's recent wrong PINs, as the class's teacher sees them (issue 27)."""

    wrong: int  # in a row, over every device, since the last right PIN or unlock
    devices: int  # how many devices typed them
    last: datetime | None  # the latest
    waiting_until: datetime | None  # the longest wait any device has for this pupil


@dataclass(frozen=True)
class Refusal:
    """A line of a pasted list that was not added: its number (1-based), the text as
    pasted (show it as text, never as markup), a ``classroom`` key and its parameters."""

    line: int
    text: str
    key: str
    params: dict[str, Any]


@dataclass(frozen=True)
class AddedPupils:
    added: tuple[PupilLogin, ...]
    refused: tuple[Refusal, ...]


class Classroom:
    """What a signed-in teacher does with their classes (see the module doc)."""

    def __init__(self, storage: Storage, session: TeacherSession, *,
                 code_maker: Callable[[], str] = new_class_code,
                 pin_maker: Callable[[], str] = new_pin, clock: Clock | None = None,
                 lang: str = "en") -> None:
        self.storage = storage
        self.session = session
        #: One clock for the teacher's actions: the session's (the app's, a test's own).
        self._clock = clock or session._clock
        self._code = code_maker
        self._pin = pin_maker
        #: The teacher's language: every list of names is in its alphabetical order
        #: (:func:`trainer.names.sort_names`, "Álvaro" before "Zoe" in Spanish).
        self.lang = lang

    @property
    def teacher(self) -> Teacher:
        return self.session.teacher

    # -- access ---------------------------------------------------------------------
    def class_info(self, class_id: int, *, write: bool = False,
                   touch: bool = True) -> ClassInfo:
        """The class, if this teacher may see it (``write``: change it). ``touch=False``
        for a page's timer (the projector's refresh): a refresh is not the teacher's
        activity, so the inactivity lock still comes; a locked session is refused all
        the same."""
        if touch:
            return self._class(class_id, write=write)
        if self.session.locked:
            raise ClassroomError("auth.session_locked")
        info = self.storage.get_class(class_id)
        self._allowed(info, write=write)
        assert info is not None
        return info

    def _class(self, class_id: int, *, write: bool = False, owner: bool = False) -> ClassInfo:
        self.session.touch()
        info = self.storage.get_class(class_id)
        self._allowed(info, write=write, owner=owner)
        assert info is not None
        return info

    def _allowed(self, info: ClassInfo | None, *, write: bool = False,
                 owner: bool = False) -> None:
        me = self.teacher.id
        if info is None or (info.teacher_id != me and me not in info.co_teachers):
            raise ClassroomError("class.not_yours")
        if owner and info.teacher_id != me:
            raise ClassroomError("class.owner_only")
        if write and info.archived:
            raise ClassroomError("class.archived")

    def classes(self, *, archived: bool = False) -> list[ClassInfo]:
        """The teacher's classes (owned or co-taught): current ones, or the archived."""
        self.session.touch()
        return sort_names([c for c in self.storage.classes_of(self.teacher.id)
                           if c.archived == archived], self.lang, key=lambda c: c.name)

    # -- classes --------------------------------------------------------------------
    def create_class(self, name: str, *, fluency_seconds: int = DEFAULT_FLUENCY,
                     capture_sum: int = 15) -> ClassInfo:
        self.session.touch()
        name = _class_name(name)
        _check_settings(fluency_seconds, capture_sum)
        for _ in range(20):
            try:
                return self.storage.create_class(self.teacher.id, name, self._code(),
                                                 fluency_seconds=fluency_seconds,
                                                 capture_sum=capture_sum)
            except StorageError:
                continue  # the code was another class's: draw again
        raise ClassroomError("class.no_code")

    def update_class(self, class_id: int, *, name: str | None = None,
                     fluency_seconds: int | None = None,
                     capture_sum: int | None = None, voice: bool | None = None) -> ClassInfo:
        """Change a class's name, fluency limit, capture sum, or whether its pupils hear
        goals read aloud and the sounds (``voice``, issue 23)."""
        info = self._class(class_id, write=True)
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = _class_name(name)
        _check_settings(fluency_seconds if fluency_seconds is not None else info.fluency_seconds,
                        capture_sum if capture_sum is not None else info.capture_sum)
        if fluency_seconds is not None:
            values["fluency_seconds"] = fluency_seconds
        if capture_sum is not None:
            values["capture_sum"] = capture_sum
        if voice is not None:
            values["voice"] = bool(voice)
        return self.storage.update_class(class_id, **values) if values else info

    def regenerate_code(self, class_id: int) -> ClassInfo:
        """A new class code (the old one stops working at once)."""
        self._class(class_id, write=True)
        for _ in range(20):
            try:
                return self.storage.update_class(class_id, code=self._code())
            except StorageError:
                continue
        raise ClassroomError("class.no_code")

    def archive(self, class_id: int) -> ClassInfo:
        """End of year: the class becomes read-only and its pupils cannot sign in by it."""
        self._class(class_id, write=True)
        return self.storage.update_class(class_id, archived_at=utc_now())

    def restore(self, class_id: int) -> ClassInfo:
        info = self._class(class_id)
        if not info.archived:
            return info
        return self.storage.update_class(class_id, archived_at=None)

    def set_tablet_idle(self, class_id: int, minutes: int) -> ClassInfo:
        """The minutes without a tap before a pupil left signed in on a tablet is signed
        out (one of :data:`PUPIL_IDLE_CHOICES`; ``class.idle_minutes`` otherwise)."""
        self._class(class_id, write=True)
        if minutes not in PUPIL_IDLE_CHOICES:
            raise ClassroomError("class.idle_minutes",
                                 choices="/".join(map(str, PUPIL_IDLE_CHOICES)))
        info = self.storage.set_class_tablets(class_id, idle_minutes=minutes)
        assert info is not None
        return info

    def sign_out_tablets(self, class_id: int) -> ClassInfo:
        """Sign out every pupil of the class on every tablet: a pupil signed in before
        now is signed out at the tablet's next run or check (:func:`visit_end`)."""
        self._class(class_id)  # an archived class's pupils are signed out anyway
        at = self._clock()
        info = self.storage.set_class_tablets(class_id, signed_out_at=at)
        assert info is not None
        return info

    def deletion_summary(self, class_id: int) -> ClassDeletion:
        """What deleting the class removes, to say before the button that does it."""
        self._class(class_id, owner=True)
        return self.storage.class_deletion(class_id)

    def delete_class(self, class_id: int, confirm_name: str) -> ClassDeletion:
        """Delete the class and all its pupils' data, for good: ``confirm_name`` is the
        class's name as the teacher typed it under the summary (``class.confirm_name``
        if it differs). Allowed for an archived class too; only its owner may."""
        info = self._class(class_id, owner=True)
        if name_key(confirm_name) != name_key(info.name):
            raise ClassroomError("class.confirm_name")
        summary = self.storage.class_deletion(class_id)
        self.storage.delete_class(class_id)
        return summary

    def add_co_teacher(self, class_id: int, teacher_name: str) -> ClassInfo:
        self._class(class_id, write=True, owner=True)
        other = self.storage.teacher_named(teacher_name)
        if other is None:
            raise ClassroomError("class.no_teacher", name=normalise(teacher_name))
        if other.id != self.teacher.id:
            self.storage.add_co_teacher(class_id, other.id)
        info = self.storage.get_class(class_id)
        assert info is not None
        return info

    def remove_co_teacher(self, class_id: int, teacher_id: int) -> None:
        self._class(class_id, owner=True)
        self.storage.remove_co_teacher(class_id, teacher_id)

    # -- pupils ---------------------------------------------------------------------
    def pupils(self, class_id: int) -> list[Member]:
        """The class's pupils with their real names (the teacher's view)."""
        self._class(class_id)
        return sort_names(self.storage.members(class_id), self.lang, key=lambda m: m.nickname)

    def pupil_languages(self, class_id: int) -> dict[int, str]:
        """The language each pupil of the class last chose in the app (for the report
        home: a family reads it in the child's language), for those who chose one."""
        self._class(class_id)
        return self.storage.languages([m.profile_id for m in self.storage.members(class_id)])

    def add_pupils(self, class_id: int, pasted: str) -> AddedPupils:
        """Pupils from a pasted list, one per line: ``nickname``, or ``nickname`` and the
        real name separated by a tab (two spreadsheet columns) or ``;``. Each nickname
        follows the nickname rules and is the class's only once (another class may have
        the same: its names are never read nor told); a line that breaks a
        rule is refused with its reason, the others are added (in one transaction), each
        with a picture and a PIN."""
        info = self._class(class_id, write=True)
        members = self.storage.members(class_id)
        taken = self.storage.class_name_keys(class_id)
        room = MAX_PUPILS - len(members)
        wanted: list[tuple[str, str | None]] = []
        refused: list[Refusal] = []
        seen: dict[str, int] = {}
        for number, line in enumerate(str(pasted).splitlines(), start=1):
            if not line.strip():
                continue
            # a tab (a spreadsheet's column) or a semicolon, the full-width one of a
            # Chinese keyboard too ("Mei；王美")
            parts = line.split("\t") if "\t" in line else line.replace("；", ";").split(";")
            raw, real = parts[0], ";".join(parts[1:]).strip() or None
            problem = name_problem(raw)
            nickname = normalise(raw)
            if problem is None and real is not None:
                problem = label_problem(real, REAL_NAME_MAX)
                if problem is not None:
                    key, params = _name_error(problem)
                    refused.append(Refusal(number, line, "name.real_" + key.split(".")[1],
                                           params))
                    continue
            if problem is not None:
                refused.append(Refusal(number, line, *_name_error(problem)))
                continue
            key = name_key(nickname)
            if key in seen:
                refused.append(Refusal(number, line, "name.twice",
                                       {"name": nickname, "line": seen[key]}))
                continue
            seen[key] = number
            if key in taken:
                refused.append(Refusal(number, line, "name.taken",
                                       {"name": nickname, "suggestion": _free(nickname, taken)}))
                continue
            if len(wanted) >= room:
                refused.append(Refusal(number, line, "class.full", {"max": MAX_PUPILS}))
                continue
            wanted.append((nickname, normalise(real) if real else None))
        return AddedPupils(self._add(info, members, wanted), tuple(refused))

    def generate_pupils(self, class_id: int, count: int, lang: str = "en") -> AddedPupils:
        """``count`` pupils with friendly nicknames ("Fox 27", "Zorro 27") in ``lang``."""
        info = self._class(class_id, write=True)
        members = self.storage.members(class_id)
        if not 1 <= count <= MAX_PUPILS - len(members):
            raise ClassroomError("class.full", max=MAX_PUPILS)
        taken = self.storage.class_name_keys(class_id)
        wanted: list[tuple[str, str | None]] = []
        rng = secrets.SystemRandom()
        animals = list(NICK_ANIMALS)
        rng.shuffle(animals)
        tries = 0
        while len(wanted) < count:
            tries += 1
            animal = t(f"nick.{animals[len(wanted) % len(animals)]}", lang, domain=DOMAIN)
            name = t("nick.pattern", lang, domain=DOMAIN, animal=animal,
                     number=rng.randint(2, 99 if tries < 500 else 999))
            if name_problem(name) is None and name_key(name) not in taken:
                taken.add(name_key(name))
                wanted.append((name, None))
        return AddedPupils(self._add(info, members, wanted), ())

    def _add(self, info: ClassInfo, members: Sequence[Member],
             wanted: Sequence[tuple[str, str | None]]) -> tuple[PupilLogin, ...]:
        if not wanted:
            return ()
        used = {p.emoji: 0 for p in PICTURES}
        for m in members:
            if m.avatar in used:
                used[m.avatar] += 1
        new = []
        for nickname, real in wanted:
            emoji = min(used, key=lambda e: used[e])  # the least used picture, in order
            used[emoji] += 1
            new.append(NewMember(nickname, emoji, self._pin(), real))
        try:
            added = self.storage.add_members(info.id, new)
        except StorageError as err:  # a nickname taken in another tab meanwhile
            raise ClassroomError("name.taken", name=err.params.get("nickname", ""),
                                 suggestion="") from err
        return tuple(PupilLogin(m.profile_id, m.nickname, m.avatar, n.pin, m.real_name)
                     for m, n in zip(added, new, strict=True))

    def regenerate_pin(self, class_id: int, profile_id: int) -> PupilLogin:
        """A new PIN for one pupil (the old one stops working; a lock is lifted)."""
        self._class(class_id, write=True)
        member = self._member(class_id, profile_id)
        pin = self._pin()
        self.storage.set_member_pin(class_id, profile_id, pin)
        self._clear_counts(profile_id)
        return PupilLogin(profile_id, member.nickname, member.avatar, pin, member.real_name)

    def regenerate_all_pins(self, class_id: int, group_id: int | None = None
                            ) -> tuple[PupilLogin, ...]:
        """New PINs for the whole class, or for one of its groups' pupils only (issue 29;
        ``group.missing``), to print their login cards again; the others keep theirs."""
        self._class(class_id, write=True)
        members = self.storage.members(class_id)
        if group_id is not None:
            if all(g.id != group_id for g in self.storage.groups(class_id)):
                raise ClassroomError("group.missing")
            members = [m for m in members if m.group_id == group_id]
        pins = {m.profile_id: self._pin() for m in members}
        self.storage.set_member_pins(class_id, pins)
        self._clear_counts(*pins)  # new cards: every device's count for them starts again
        return tuple(PupilLogin(m.profile_id, m.nickname, m.avatar, pins[m.profile_id],
                                m.real_name)
                     for m in sort_names(members, self.lang, key=lambda m: m.nickname))

    def set_real_name(self, class_id: int, profile_id: int, real_name: str | None) -> None:
        self._class(class_id, write=True)
        self._member(class_id, profile_id)
        if real_name is not None and real_name.strip():
            if (problem := label_problem(real_name, REAL_NAME_MAX)) is not None:
                key, params = _name_error(problem)
                raise ClassroomError("name.real_" + key.split(".")[1], **params)
            real_name = normalise(real_name)
        else:
            real_name = None
        self.storage.set_real_name(class_id, profile_id, real_name)

    def rename_pupil(self, class_id: int, profile_id: int, nickname: str) -> Member:
        """A pupil's new nickname, by the nickname rules (``name.*``) and free as a new
        pupil's must be (``name.taken`` with a suggestion; the same check as
        :meth:`add_pupils`'s); nothing changes on a refusal. The PIN stays."""
        self._class(class_id, write=True)
        member = self._member(class_id, profile_id)
        if (problem := name_problem(nickname)) is not None:
            key, params = _name_error(problem)
            raise ClassroomError(key, **params)
        nickname = normalise(nickname)
        if name_key(nickname) != name_key(member.nickname):
            taken = self.storage.class_name_keys(class_id)
            if name_key(nickname) in taken:
                raise ClassroomError("name.taken", name=nickname,
                                     suggestion=_free(nickname, taken))
        try:
            self.storage.rename_member(class_id, profile_id, nickname)
        except StorageError as err:  # taken in another tab meanwhile
            raise ClassroomError("name.taken", name=nickname, suggestion="") from err
        return self._member(class_id, profile_id)

    def free_pictures(self, class_id: int, profile_id: int | None = None) -> list[Picture]:
        """The pictures no pupil of the class has (and ``profile_id``'s own, first)."""
        self._class(class_id)
        members = self.storage.members(class_id)
        own = next((m.avatar for m in members if m.profile_id == profile_id), None)
        used = {m.avatar for m in members}
        return [p for p in PICTURES if p.emoji == own] + [p for p in PICTURES
                                                          if p.emoji not in used]

    def set_picture(self, class_id: int, profile_id: int, key: str) -> Member:
        """A pupil's new picture (a :data:`PICTURES` key): ``pupil.picture_unknown``, or
        ``pupil.picture_taken`` when a classmate has it and another one is free (two
        children on one picture cannot tell their cards apart)."""
        self._class(class_id, write=True)
        member = self._member(class_id, profile_id)
        picture = next((p for p in PICTURES if p.key == key), None)
        if picture is None:
            raise ClassroomError("pupil.picture_unknown")
        if picture.emoji != member.avatar:
            free = self.free_pictures(class_id, profile_id)
            if picture not in free and len(free) > 1:
                raise ClassroomError("pupil.picture_taken", picture=picture.emoji)
            self.storage.set_member_avatar(class_id, profile_id, picture.emoji)
        return self._member(class_id, profile_id)

    def remove_pupil(self, class_id: int, profile_id: int) -> None:
        """Delete one pupil with all their data."""
        self._class(class_id, write=True)
        self._member(class_id, profile_id)
        self.storage.remove_member(class_id, profile_id)

    # -- locks and forgotten PINs (issue 27) -------------------------------------------
    def pin_attempts(self, class_id: int) -> dict[int, PinAttempts]:
        """The class's pupils with recent wrong PINs (none: not in the map): how many lately
        over every device (a right PIN on one device leaves another device's tries
        counted), from how many devices, the last one, and the longest wait any device has
        for the pupil. Three queries, whatever the class's size or the server's."""
        self._class(class_id)
        at = self._clock()
        ids = [m.profile_id for m in self.storage.members(class_id)]
        targets = self.storage.secret_tries([(PUPIL_PIN.scope, str(pid)) for pid in ids])
        by_pupil: dict[str, list[SecretTries]] = {}
        for subject, tries in self.storage.secret_tries_of(
                PUPIL_PIN_PAIR.scope, [f"{pid}|" for pid in ids]).items():
            if PUPIL_PIN_PAIR.live(tries, at):
                by_pupil.setdefault(subject.split("|", 1)[0], []).append(tries)
        out: dict[int, PinAttempts] = {}
        for pid in ids:
            row = targets[(PUPIL_PIN.scope, str(pid))]
            mine = by_pupil.get(str(pid), [])
            if row.failures == 0 and not mine:
                continue
            waits = [r.locked_until for r in (row, *mine)
                     if r.locked_until is not None and r.locked_until > at]
            lasts = [r.last_failure for r in (row, *mine) if r.last_failure is not None]
            out[pid] = PinAttempts(max(row.failures, sum(r.failures for r in mine)), len(mine),
                                   max(lasts) if lasts else None,
                                   max(waits) if waits else None)
        return out

    def unlock_pupil(self, class_id: int, profile_id: int) -> None:
        """Every device's wait for this pupil ends and the counts start again; the PIN
        stays (the printed card still works). Devices' own counts (a device that tried
        many pupils) are not the pupil's to clear."""
        self._class(class_id, write=True)
        self._member(class_id, profile_id)
        self._clear_counts(profile_id)

    def _clear_counts(self, *profile_ids: int) -> None:
        """These pupils' wrong-PIN counts start again, in one transaction: over every
        device, and each device's for them (not a device's own count of every pupil)."""
        self.storage.clear_secret_tries_of([(PUPIL_PIN.scope, str(pid)) for pid in profile_ids],
                                           PUPIL_PIN_PAIR.scope,
                                           [f"{pid}|" for pid in profile_ids])

    def look_up_pin(self, class_id: int, profile_id: int) -> PupilLogin:
        """The pupil's login as its card prints it, PIN included (``pin`` None for a pupil
        made before PINs were kept: a new PIN then). The class's teachers only."""
        self._class(class_id)
        member = self._member(class_id, profile_id)
        return PupilLogin(profile_id, member.nickname, member.avatar,
                          self.storage.card_pin(class_id, profile_id), member.real_name)

    def login_cards(self, class_id: int, group_id: int | None = None
                    ) -> tuple[PupilLogin, ...]:
        """The class's (or one group's: ``group.missing``) login cards as they are, each
        pupil's PIN unchanged (issue 29: a group's cards were printed only with new PINs);
        ``pin`` None for a pupil made before PINs were kept (the card has a line to write
        it on). The class's teachers only; in the class list's order."""
        self._class(class_id)
        members = self.storage.members(class_id)
        if group_id is not None:
            if all(g.id != group_id for g in self.storage.groups(class_id)):
                raise ClassroomError("group.missing")
            members = [m for m in members if m.group_id == group_id]
        return tuple(PupilLogin(m.profile_id, m.nickname, m.avatar,
                                self.storage.card_pin(class_id, m.profile_id), m.real_name)
                     for m in sort_names(members, self.lang, key=lambda m: m.nickname))

    def invite_teacher(self) -> tuple[str, datetime]:
        """A single-use invitation code for a colleague's new account, and when it
        expires (:data:`INVITE_DAYS`). Shown once: only its digest is stored."""
        self.session.touch()
        return TeacherAuth(self.storage, clock=self._clock).invite(self.teacher)

    def _member(self, class_id: int, profile_id: int) -> Member:
        member = self.storage.membership(profile_id)
        if member is None or member.class_id != class_id:
            raise ClassroomError("pupil.not_in_class")
        return member

    # -- the views ------------------------------------------------------------------
    def snapshot(self, class_id: int, today: date | None = None, *,
                 every_attempt: bool = True, days: int = WEEK_DAYS) -> ClassSnapshot:
        """The class's data for the views below: a fixed number of queries, whatever its
        size. Given ``today``, the per-day figures are read for the views' days up to it
        and any later day only (the week, the fact totals); else for every day. Without
        ``every_attempt``, no attempt is read: the dashboard, the grid and the assignments
        come from what is kept at write time (a cell's history then reads its pupil's;
        the attempts export needs every one). A page reads it once per run (or caches it
        by :meth:`version`). ``days``: how many days up to ``today`` the per-day figures
        cover (the views need a week; the report home, a month)."""
        self.session.touch()
        days_from = (today - timedelta(days=max(days, WEEK_DAYS) - 1)).isoformat() \
            if today is not None else None
        snap = self.storage.class_snapshot(class_id, days_from=days_from,
                                           every_attempt=every_attempt)
        self._allowed(snap.info if snap is not None else None)
        assert snap is not None
        # In the teacher's alphabetical order: the dashboard, the grid, the assignments'
        # pupils and the printed sheets follow the snapshot's order.
        return dataclasses.replace(snap, members=tuple(
            sort_names(snap.members, self.lang, key=lambda m: m.nickname)))

    def version(self, class_id: int) -> tuple[Any, ...]:
        """A cache key of the class's data: its version, bumped by every write the views
        draw (:mod:`trainer.storage.versions`), read by the class's key."""
        self._class(class_id)
        return tuple(self.storage.class_version(class_id))

    def dashboard(self, snapshot: ClassSnapshot, today: date) -> list[PupilRow]:
        self._seen(snapshot)
        return dashboard(snapshot, today)

    def fact_grid(self, snapshot: ClassSnapshot, limit: int | None = None) -> FactGrid:
        self._seen(snapshot)
        if limit is not None and limit not in FLUENCY_LIMITS:
            raise ClassroomError("class.fluency", choices="/".join(map(str, FLUENCY_LIMITS)))
        return fact_grid(snapshot, limit)

    def cell_history(self, snapshot: ClassSnapshot, profile_id: int,
                     fact: str) -> list[FactTry]:
        self._seen(snapshot)
        if not snapshot.every_attempt and snapshot.member(profile_id) is not None:
            # One pupil's attempts, read by its key: the snapshot has none.
            snapshot = dataclasses.replace(
                snapshot, attempts={profile_id: self.storage.attempts(profile_id)},
                every_attempt=True)
        return cell_history(snapshot, profile_id, fact)

    def assignments(self, snapshot: ClassSnapshot, today: date) -> list[AssignmentProgress]:
        self._seen(snapshot)
        return assignments_progress(snapshot, today)

    def pupil_profile(self, snapshot: ClassSnapshot, profile_id: int) -> Member:
        """The pupil whose My progress charts the teacher opens (``pupil.not_in_class``
        for any other profile): the page then reads ``storage.attempts(profile_id)``."""
        self._seen(snapshot)
        member = snapshot.member(profile_id)
        if member is None:
            raise ClassroomError("pupil.not_in_class")
        return member

    def _seen(self, snapshot: ClassSnapshot) -> None:
        self.session.touch()
        self._allowed(snapshot.info)

    # -- assignments ----------------------------------------------------------------
    def create_assignment(self, class_id: int, kind: str, spec: dict[str, Any],
                          due: date | None = None, *, group_id: int | None = None,
                          profile_id: int | None = None) -> AssignmentRow:
        """A lesson stage, puzzles, chosen facts or each pupil's weakest facts
        (:func:`trainer.classroom_views.check_assignment` says the parameters), for the
        whole class, one of its groups (``group_id``) or one pupil (``profile_id``):
        ``group.missing``, ``pupil.not_in_class``, ``task.target`` (both given),
        ``assign.duplicate`` (the same one, for the same pupils and due the same day, is
        still open: issue 29, a second tap on "Assign" made it twice)."""
        info = self._class(class_id, write=True)
        checked = check_assignment(kind, spec, info.capture_sum)
        if group_id is not None and profile_id is not None:
            raise ClassroomError("task.target")
        due_text = due.isoformat() if due is not None else None
        today = self._clock().date().isoformat()
        if any(a.kind == kind and _same_spec(a.spec, checked) and a.group_id == group_id
               and a.profile_id == profile_id and a.due == due_text
               and (a.due is None or a.due >= today)
               for a in self.storage.assignments(class_id)):
            raise ClassroomError("assign.duplicate")
        try:
            return self.storage.create_assignment(
                class_id, kind, checked, due.isoformat() if due is not None else None,
                group_id=group_id, profile_id=profile_id)
        except StorageError as err:
            raise _group_error(err) from err

    def delete_assignment(self, class_id: int, assignment_id: int) -> None:
        self._class(class_id, write=True)
        self.storage.delete_assignment(class_id, assignment_id)

    # -- groups (issue 29) -------------------------------------------------------------
    def groups(self, class_id: int) -> list[GroupRow]:
        """The class's groups in the teacher's alphabetical order."""
        self._class(class_id)
        return sort_names(self.storage.groups(class_id), self.lang, key=lambda g: g.name)

    def create_group(self, class_id: int, name: str) -> GroupRow:
        """A new group named by the label rules (``name.*``), unique in the class however
        it is written (``group.taken``)."""
        self._class(class_id, write=True)
        try:
            return self.storage.create_group(class_id, _group_name(name))
        except StorageError as err:
            raise _group_error(err) from err

    def rename_group(self, class_id: int, group_id: int, name: str) -> GroupRow:
        """The group's new name (``name.*``, ``group.taken``, ``group.missing``)."""
        self._class(class_id, write=True)
        try:
            return self.storage.rename_group(class_id, group_id, _group_name(name))
        except StorageError as err:
            raise _group_error(err) from err

    def delete_group(self, class_id: int, group_id: int) -> None:
        """Remove a group and its assignments; its pupils stay, in no group."""
        self._class(class_id, write=True)
        try:
            self.storage.delete_group(class_id, group_id)
        except StorageError as err:
            raise _group_error(err) from err

    def set_pupil_group(self, class_id: int, profile_id: int, group_id: int | None) -> None:
        """Put a pupil of the class in one of its groups, or in none (``group_id`` None):
        a pupil is in one group at most (``pupil.not_in_class``, ``group.missing``)."""
        self._class(class_id, write=True)
        self._member(class_id, profile_id)
        try:
            self.storage.set_pupil_group(class_id, profile_id, group_id)
        except StorageError as err:
            raise _group_error(err) from err


def _same_spec(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two assignments' parameters ask the same (chosen facts in any order)."""
    def norm(spec: Mapping[str, Any]) -> dict[str, Any]:
        facts = spec.get("facts")
        return {**spec, "facts": sorted(facts)} if isinstance(facts, list) else dict(spec)
    return norm(a) == norm(b)


def _group_name(name: str) -> str:
    if (problem := label_problem(name, GROUP_NAME_MAX)) is not None:
        key, params = _name_error(problem)
        raise ClassroomError(key, **params)
    return normalise(name)


def _group_error(err: StorageError) -> ClassroomError:
    """The storage's refusal of a group's write, as the classroom's key."""
    keys = {"group_taken": "group.taken", "group_missing": "group.missing",
            "not_in_class": "pupil.not_in_class"}
    return ClassroomError(keys.get(err.key, "group.missing"), **err.params)


def _class_name(name: str) -> str:
    if (problem := label_problem(name, CLASS_NAME_MAX)) is not None:
        key, params = _name_error(problem)
        raise ClassroomError(key, **params)
    return normalise(name)


def _check_settings(fluency_seconds: int, capture_sum: int) -> None:
    if fluency_seconds not in FLUENCY_LIMITS:
        raise ClassroomError("class.fluency", choices="/".join(map(str, FLUENCY_LIMITS)))
    if capture_sum not in (10, 15, 20):
        raise ClassroomError("class.capture_sum")


def _free(nickname: str, taken: set[str]) -> str:
    """A free nickname close to a taken one: "Ana 2", "Ana 3", ... (within the length)."""
    for n in range(2, 1000):
        candidate = f"{nickname[:12]} {n}"
        if name_key(candidate) not in taken and name_problem(candidate) is None:
            return candidate
    return ""


# -- pupils on a shared tablet ----------------------------------------------------------

@dataclass(frozen=True)
class ClassCard:
    """A class as a pupil's tablet knows it once its code was typed."""

    id: int
    name: str
    code: str


@dataclass(frozen=True)
class PupilCard:
    """A pupil as the sign-in shows them to the class: picture and nickname only."""

    profile_id: int
    nickname: str
    avatar: str


class PupilSignIn:
    """A pupil signs in on a shared tablet: the class code (once per device), a tap on
    their picture, their PIN. Wrong PINs are counted per pupil on this device (growing
    waits: the guesser's), per device (whichever pupil) and per pupil over every device
    (a wait of seconds at most): one tablet's guesses never lock the pupil out on another
    (issue 27, trainer.limits)."""

    def __init__(self, storage: Storage, *, clock: Clock = utc_now,
                 lang: str = "en") -> None:
        self.storage = storage
        self.clock = clock
        self.lang = lang  # the tablet's language: the class's names in its order

    def find_class(self, typed_code: str, device: str | None = None) -> ClassCard:
        """The class of a typed code; ``signin.code_unknown`` or ``signin.class_archived``.

        With ``device`` (the app's name for the tablet) unknown codes are counted per
        device and for the whole server, in the database (trainer.limits): a tablet that
        keeps guessing, or many at once, waits (``signin.code_wait``, ``count``: minutes)
        — in a new tab too, on another replica, after a restart."""
        checks = ([(CLASS_CODE_DEVICE, device), (CLASS_CODE_SERVER, SERVER)]
                  if device is not None else [])
        limiter = Limiter(self.storage, clock=self.clock)
        left = limiter.wait_left(checks) if checks else None
        if left is not None:
            raise ClassroomError("signin.code_wait", count=wait_minutes(left))
        code = normalise_code(typed_code)
        info = self.storage.class_by_code(code) if len(code) == CODE_LENGTH else None
        if info is None:
            left = limiter.failed(checks) if checks else None
            if left is not None:
                raise ClassroomError("signin.code_wait", count=wait_minutes(left))
            raise ClassroomError("signin.code_unknown")
        if info.archived:
            raise ClassroomError("signin.class_archived")
        return ClassCard(info.id, info.name, info.code)

    def pupils(self, card: ClassCard) -> list[PupilCard]:
        """The pictures and nicknames to tap (no real name ever reaches a pupil's page)."""
        return [PupilCard(m.profile_id, m.nickname, m.avatar)
                for m in sort_names(self.storage.members(card.id), self.lang,
                                    key=lambda m: m.nickname)]

    def sign_in(self, card: ClassCard, profile_id: int, pin: str, device: str = LOCAL) -> int:
        """The profile id to play as; ``signin.pin_wrong`` (``count``: tries left on this
        device before a wait), ``signin.pin_locked`` (``count``: minutes), ``pupil.not_in_class``
        (a pupil of another class, or no pupil), ``signin.class_archived``."""
        info = self.storage.get_class(card.id)
        if info is None or info.code != card.code:
            raise ClassroomError("signin.code_unknown")  # a new code was made meanwhile
        if info.archived:
            raise ClassroomError("signin.class_archived")
        member = self.storage.membership(profile_id)
        if member is None or member.class_id != card.id:
            raise ClassroomError("pupil.not_in_class")
        try:
            verdict = Limiter(self.storage, clock=self.clock).try_secret(
                PUPIL_PIN_GUARD, str(profile_id), device,
                lambda: self.storage.member_pin_matches(card.id, profile_id, str(pin)))
        except StorageError as err:
            raise ClassroomError("pupil.not_in_class") from err
        if verdict.ok:
            return profile_id
        if verdict.wait is not None:
            raise ClassroomError("signin.pin_locked", count=wait_minutes(verdict.wait))
        raise ClassroomError("signin.pin_wrong", count=verdict.left)

    def sign_in_profile(self, profile_id: int, pin: str, device: str = LOCAL) -> int:
        """The same check for a pupil's profile reached another way ("Who's playing?", a
        ``?p=`` in the URL): rate-limited like the class sign-in, so a pupil's PIN cannot
        be guessed through the profile's own PIN prompt. ``pupil.not_in_class`` for a
        profile that is no pupil (check its parent's PIN as before)."""
        member = self.storage.membership(profile_id)
        if member is None:
            raise ClassroomError("pupil.not_in_class")
        info = self.storage.get_class(member.class_id)
        assert info is not None
        return self.sign_in(ClassCard(info.id, info.name, info.code), profile_id, pin, device)


def pupil_tasks(storage: Storage, profile_id: int, today: date) -> list[PupilTask]:
    """A pupil's assignments, to show first: open and overdue ones by due date (none
    last), then the done ones. Empty for a profile in no class or in an archived one."""
    member = storage.membership(profile_id)
    if member is None:
        return []
    snap = storage.class_snapshot(member.class_id, only=profile_id, every_attempt=False)
    if snap is None or snap.info.archived:
        return []
    tasks = [pupil_task(a, snap.progress.get(a.id, {}).get(profile_id),
                        snap.lessons.get(profile_id, {}), today) for a in snap.assignments]
    return sorted(tasks, key=lambda task: (task.complete, task.assignment.due or "9999-99-99",
                                           task.assignment.id))


# -- a pupil signed in on a shared tablet (issue 27) -------------------------------------

@dataclass
class PupilVisit:
    """A pupil signed in on a tablet: whose profile, in which class, since when, and
    the last tap. The app keeps one per browser session and asks :func:`visit_end` at
    every run and on a timer whether it must end."""

    profile_id: int
    class_id: int
    signed_in_at: datetime
    last_active: datetime

    @classmethod
    def start(cls, profile_id: int, class_id: int, at: datetime) -> PupilVisit:
        return cls(profile_id, class_id, at, at)

    def touch(self, at: datetime) -> None:
        """A tap: the idle time starts again."""
        self.last_active = max(self.last_active, at)


#: Why a visit ends, as a key of the ``classroom`` catalog (``ended.<reason>``).
END_REASONS = ("idle", "signed_out", "archived", "deleted", "removed")
#: The reasons that take the class away from the tablet (its code no longer signs in, or
#: the pupil is gone): the tablet forgets the class too, and an error on the way is
#: explained by them rather than by "sorry".
CLASS_GONE = ("deleted", "removed", "archived")


def visit_end(storage: Storage, visit: PupilVisit, at: datetime) -> str | None:
    """Why this pupil must be signed out now, or None: ``deleted`` (the class is gone,
    and the profile with it), ``removed`` (the pupil was deleted from the class),
    ``archived``, ``signed_out`` (the teacher signed out every tablet after this pupil
    signed in), ``idle`` (no tap for the class's idle minutes). Two small reads."""
    info = storage.get_class(visit.class_id)
    if info is None:
        return "deleted"
    member = storage.membership(visit.profile_id)
    if member is None or member.class_id != visit.class_id:
        return "removed"
    if info.archived:
        return "archived"
    if info.signed_out_at is not None and info.signed_out_at > visit.signed_in_at:
        return "signed_out"
    if at - visit.last_active >= timedelta(minutes=info.idle_minutes):
        return "idle"
    return None
