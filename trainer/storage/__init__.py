"""Saved progress through SQLAlchemy Core, one module per domain.

- :mod:`.migrations` -- the database's history, each migration with its own tables;
- :mod:`.schema` -- the tables as they are now, the connection, migrating on start;
- :mod:`.profiles`, :mod:`.games`, :mod:`.practice`, :mod:`.lessons`, :mod:`.classroom`,
  :mod:`.tables`, :mod:`.limits`, :mod:`.progress`, :mod:`.live` (a class's live rounds),
  :mod:`.class_games` (the class against the computer), :mod:`.activity` (the teacher's
  live view) -- data access per domain (:mod:`.hashing`: the slow salted hash of PINs and
  passwords).

:class:`Storage` is all of them over one ``Engine``, tested without Streamlit
against SQLite and PostgreSQL alike. The app gets its engine from
``st.connection("escoba", type="sql")`` (see :func:`ui.session.storage`).
"""

from __future__ import annotations

from .activity import ActivityRow, ActivityStore
from .class_games import ClassGameRow, ClassGameStore
from .classroom import (
    AssignmentRow,
    ClassDeletion,
    ClassInfo,
    ClassroomStore,
    ClassSnapshot,
    ClassVersion,
    FactRecord,
    GroupRow,
    Member,
    NewMember,
    PupilAggregates,
    TaskProgress,
    Teacher,
)
from .games import GameChanged, GameRow, GameStore, MoveRow, RoundResult, record_shareable
from .lessons import LessonBest, LessonGo, LessonStore
from .limits import LimitStore, SecretTries
from .live import LiveAnswerRow, LiveRoundRow, LiveStore
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .practice import DailyResult, PracticeStore, ProgressContents, ProgressVersion
from .profiles import Profile, ProfileData, ProfileStore
from .progress import ProgressStore, SlotProgress
from .schema import (
    DEFAULT_DB_PATH,
    PUPIL_IDLE_MINUTES,
    StorageError,
    app_database,
    configure_sqlite,
    metadata,
    sqlite_url,
)
from .tables import NewSeat, SeatRow, TableChanged, TablePulse, TableRow, TableStore

__all__ = ["Storage", "Profile", "ProfileData", "GameRow", "GameChanged", "MoveRow", "LessonBest",
           "LessonGo",
           "RoundResult", "record_shareable", "DailyResult", "ProgressVersion", "ProgressContents",
           "StorageError",
           "MIGRATIONS", "SCHEMA_VERSION", "metadata", "sqlite_url", "configure_sqlite",
           "app_database", "DEFAULT_DB_PATH", "PUPIL_IDLE_MINUTES",
           "Teacher", "ClassInfo", "Member", "NewMember",
           "AssignmentRow", "GroupRow", "ClassSnapshot", "ClassDeletion", "ClassVersion",
           "FactRecord",
           "PupilAggregates", "TaskProgress",
           "LiveRoundRow", "LiveAnswerRow", "ClassGameRow", "ActivityRow",
           "TableRow", "SeatRow", "NewSeat", "TableChanged", "TablePulse", "SecretTries",
           "SlotProgress"]


class Storage(ProfileStore, GameStore, PracticeStore, LessonStore, ClassroomStore, TableStore,
              LimitStore, ProgressStore, LiveStore, ClassGameStore,
              ActivityStore):
    """Profiles, games, practice, lessons, the classroom and tables between devices over
    one SQLAlchemy engine (SQLite or PostgreSQL)."""
