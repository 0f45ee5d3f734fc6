"""Play a friend on another tablet: a table several devices share, one seat per device.

No Streamlit here. A child opens a table (2, 3 or 4 seats, teams where the rules
allow, any :class:`escoba.Rules`; empty seats may be computer players of a chosen
level; hints and open hand agreed now) and gets a short code to read aloud; friends
join with it (classmates also see their class's open tables). When every seat is
taken the table's game begins: a :class:`trainer.gameplay.GameSession` over the
engine, saved as every game is (record, moves, revision).

**The database is the only truth.** A :class:`TableSeat` (one device's view of its
seat) caches the game for the revision it last read, and nothing else: every move
names the revision the device drew (:meth:`TableSeat.play`, ``seen``), and the save
is the conditional update of :meth:`trainer.storage.GameStore.save_progress`. Two
devices moving at one position: exactly one save finds the revision it extends, the
other is refused with ``table_moved_first`` and its device redraws. A device that
reloads, sleeps or lands on another app process reads the table again from its URL
(:meth:`Tables.seat_from_link`) and is exactly where the game is.

**A seat is its device's secret, not a profile.** Opening or joining hands the device
a random token (128 bits) that the device keeps (the app keeps it in the tablet's
browser for that child: ``ui/seat_keeper.py``); the database keeps only its SHA-256.
Profiles here are a nickname and a picture, chosen from a list on a shared tablet,
with no password: a profile id would let anyone who picks the same nickname elsewhere
take the seat and see its hand. The token names one seat of one table and nothing
else; a reload or a closed tab finds it again on the tablet (:meth:`Tables.seat_here`,
:meth:`Tables.join` with ``held``), a friend's device never has it. A seat handed to
the computer keeps its row, so the old link then says so instead of playing.

**Presence.** Each device touches its seat's ``last_seen`` every few seconds; the
others see "Ana left" once it is older than :data:`AWAY_SECONDS`, and after the
table's timeout (``timeout``, :data:`DEFAULT_TIMEOUT` by default, agreed at opening)
any remaining child may hand the seat to a computer player so the game finishes.
Who played which move stays known: :meth:`TableSeat.move_players`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from escoba import Card, Deck, Rules
from escoba.record import round_moves

from . import clock
from . import hints as hint_mod
from .board_view import session_board, session_position
from .classroom import normalise_code
from .evidence import TurnContext
from .gameplay import GameSession, Outcome, SeatSpec, bot_avatar, bot_levels
from .storage import (
    NewSeat,
    SeatRow,
    Storage,
    TableChanged,
    TablePulse,
    TableRow,
)
from .storage.trouble import UNAVAILABLE
from .words import seat_name

__all__ = ["Tables", "TableSeat", "TableTicket", "SeatPresence", "MoveBy", "TableRefusal",
           "CODE_ALPHABET", "CODE_LENGTH", "new_table_code", "normalise_table_code",
           "hash_token", "TOKEN_PATTERN", "DEFAULT_TIMEOUT", "AWAY_SECONDS", "TOUCH_SECONDS"]

#: Letters and digits a child reads aloud and types without mixing them up: no 0/O,
#: no 1/I (nor L, which a child's handwriting turns into 1).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: Seconds without a touch before the others may hand a seat to the computer
#: (overridden by ``ESCOBA_TABLE_TIMEOUT``, and per table when it is opened).
DEFAULT_TIMEOUT = int(os.environ.get("ESCOBA_TABLE_TIMEOUT", "60") or 60)
#: Seconds without a touch before the others see "Ana left".
AWAY_SECONDS = 15
#: How often a device touches its seat (it polls the table more often than this).
TOUCH_SECONDS = 5
#: A token as a device's URL carries it: ``secrets.token_urlsafe(16)`` is 22 characters.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The same, for the app's edge (the tablet's seat keeper checks what a browser reports).
TOKEN_PATTERN = _TOKEN
#: How many codes to draw before giving up (each collision is one in millions).
_CODE_TRIES = 8


def new_table_code(rng: Callable[[str], str] = secrets.choice) -> str:
    """A fresh table code such as ``K7MPX``: five characters of :data:`CODE_ALPHABET`."""
    return "".join(rng(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_table_code(typed: Any) -> str | None:
    """A code as typed (``k7m px``, ``K7M-PX``, full-width letters) as stored, or None
    when it cannot be a table code at all (wrong length, letters a code never has)."""
    code = normalise_code(str(typed or ""))  # the class code's folding, one for both
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def hash_token(token: str) -> str:
    """What the database keeps of a seat's secret: its SHA-256 (a leaked backup gives
    no device a seat)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


_utc_now = clock.now  # the app's one clock (ESCOBA_NOW honoured)


@dataclass(frozen=True)
class TableRefusal:
    """Why an action at a table did nothing: a catalog key and its parameters."""

    key: str
    params: dict[str, Any] | None = None


@dataclass(frozen=True)
class TableTicket:
    """A device's place at a table: the code and the seat's secret, for its URL."""

    code: str
    token: str
    seat: int


@dataclass(frozen=True)
class SeatPresence:
    """A seat as the waiting room and the game show it."""

    seat: int
    name: str
    avatar: str
    kind: str  # human | bot | empty
    level: str
    is_me: bool
    away: bool
    #: Gone long enough (the table's timeout) for the others to hand it to the computer.
    can_hand_over: bool


@dataclass(frozen=True)
class MoveBy:
    """Who played one move of the record: a child's profile or a computer's level."""

    round_no: int
    move_no: int
    seat: int
    kind: str  # human | bot
    profile_id: int | None
    level: str
    name: str


def _in_one_save(game: GameSession, *steps: Callable[[], object]) -> None:
    """Run ``steps`` on ``game`` and save what they played in ONE transaction (as
    :meth:`GameSession.play_human_then_bots` does for a child's move and the replies)."""
    with game.saved_together():
        for step in steps:
            step()
    game.save()


def _position_after(game: GameSession) -> tuple[int, int]:
    """The (round, move) the next move of ``game`` will be saved at."""
    rounds = game.game.rounds
    if not rounds:
        return 1, 1
    return len(rounds), len(round_moves(rounds[-1])) + 1


class Tables:
    """Opening and joining tables over a :class:`Storage` (the app keeps one per process:
    it holds nothing but the storage and a clock)."""

    def __init__(self, storage: Storage, *, clock: Callable[[], datetime] = _utc_now,
                 code: Callable[[], str] = new_table_code) -> None:
        self.storage = storage
        self.clock = clock
        self._new_code = code

    # -- opening ----------------------------------------------------------------------
    def open_table(self, profile: Any, rules: Rules, *, bots: dict[int, str] | None = None,
                   hints: bool = True, timeout: int | None = None,
                   class_id: int | None = None, bot_names: Sequence[str] = (),
                   deck: str = "spanish") -> TableTicket:
        """A new table for ``rules`` with the opener (``profile``) at seat 0; the seats in
        ``bots`` (seat -> level) are computer players, the others wait for friends.
        A code already in use is drawn again."""
        bots = dict(bots or {})
        levels = bot_levels()
        if any(s <= 0 or s >= rules.players or lvl not in levels for s, lvl in bots.items()):
            raise ValueError("computer seats must be seats 1.. of the table, at known levels")
        plan = [{"kind": "bot", "level": bots[s]} if s in bots else {"kind": "human"}
                for s in range(rules.players)]
        settings = {"rules": rules.to_dict(only_changes=True), "plan": plan,
                    "hints": bool(hints), "deck": deck,
                    "timeout": int(timeout if timeout is not None else DEFAULT_TIMEOUT)}
        token = secrets.token_urlsafe(16)
        seats = [NewSeat(0, "human", profile.nickname, profile.avatar, "", profile.id,
                         hash_token(token))]
        seats += [NewSeat(s, "bot", _bot_name(s, bot_names), bot_avatar(s), lvl)
                  for s, lvl in sorted(bots.items())]
        for attempt in range(_CODE_TRIES):
            try:
                table = self.storage.create_table(self._new_code(), profile.id,
                                                  settings=settings, seats=seats,
                                                  class_id=class_id)
                break
            except TableChanged:
                if attempt == _CODE_TRIES - 1:
                    raise
        seat = TableSeat(self, table.code, token, player_id=profile.id)
        seat.start_if_full()
        return TableTicket(table.code, token, 0)

    # -- joining ----------------------------------------------------------------------
    def join(self, typed_code: Any, profile: Any, *, held: Mapping[str, str] | None = None
             ) -> TableTicket | TableRefusal:
        """``profile`` takes the first free seat of the table ``typed_code`` names. A bad
        code, a full or started table: a refusal, and nothing changes.

        ``held``: the seats this device keeps for this child (code -> the seat's secret,
        docs/TABLES.md "Back to my seat"). When it holds the child's own seat at this
        table, that seat is the answer (a child who closed the tab types the code again
        and is back at their seat, never given a second one). The secret decides, never
        the profile: a seat this device does not hold is not handed out."""
        code = normalise_table_code(typed_code)
        if code is None:
            return TableRefusal("table_code_bad")
        back = self._held_ticket(code, profile.id, held)
        if back is not None:
            return back
        for _ in range(4):  # another child joining at the same moment: read again
            table = self.storage.table_by_code(code)
            if table is None:
                return TableRefusal("table_code_unknown", {"code": code})
            if table.status != "waiting" or self._sits_at(table, profile.id):
                return self._no_seat_here(table, profile.id)
            current = {s.seat for s in self.storage.table_seats(table.id)}
            free = [i for i, p in enumerate(table.settings["plan"])
                    if p["kind"] == "human" and i not in current]
            if not free:
                return TableRefusal("table_full")
            token = secrets.token_urlsafe(16)
            try:
                self.storage.seat_child(table, NewSeat(free[0], "human", profile.nickname,
                                                       profile.avatar, "", profile.id,
                                                       hash_token(token)))
            except TableChanged:
                continue
            TableSeat(self, code, token, player_id=profile.id).start_if_full()
            return TableTicket(code, token, free[0])
        return TableRefusal("table_moved_first")

    def seat_here(self, code: Any, player_id: int, held: Mapping[str, str] | None = None
                  ) -> TableSeat | TableRefusal:
        """This device's seat at table ``code`` for the child signed in, from the seats
        the device keeps (``held``, as in :meth:`join`): the address ``?table=K7MPX``
        without a secret, after a reload, a closed tab or another app process. Without a
        kept seat, the truth about this table for this child (:meth:`_no_seat_here`; a
        table still waiting for friends is ``table_join_waiting``: they may join it)."""
        normal = normalise_table_code(code)
        if normal is None:
            return TableRefusal("table_bad_link")
        mine = self._held_ticket(normal, player_id, held)
        if mine is not None:
            return self.seat_from_link(normal, mine.token, player_id)
        table = self.storage.table_by_code(normal)
        if table is None:
            return TableRefusal("table_bad_link")
        if table.status == "waiting" and not self._sits_at(table, player_id):
            return TableRefusal("table_join_waiting", {"code": normal})
        return self._no_seat_here(table, player_id)

    def _held_ticket(self, code: str, player_id: int, held: Mapping[str, str] | None
                     ) -> TableTicket | None:
        """The ticket of ``player_id``'s own seat at table ``code`` when this device keeps
        its secret (a seat handed to the computer too: its page then says so and offers
        to watch), else None. One read by the secret's hash."""
        token = (held or {}).get(code)
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return None
        me = self.storage.seat_by_token(hash_token(token))
        if me is None or not _is_players(me, player_id):
            return None
        table = self.storage.get_table(me.table_id)
        if table is None or table.code != code:
            return None
        return TableTicket(code, token, me.seat)

    def _sits_at(self, table: TableRow, player_id: int | None) -> bool:
        """Whether ``player_id`` has a seat of their own at ``table`` now (on any device)."""
        return any(_is_players(s, player_id) for s in self.storage.table_seats(table.id))

    def _no_seat_here(self, table: TableRow, player_id: int | None) -> TableRefusal:
        """Why this device shows ``player_id`` no seat at ``table`` when it keeps none
        there: what is true on this device (issue 31). Their seat is on another device
        (``table_seat_not_here``), the computer plays it now (``table_game_handed``),
        the game is over, the table was closed, or it is full: every seat taken and the
        game begun (``table_full_started``: open a new table)."""
        code = table.code
        if table.status == "closed":
            return TableRefusal("table_closed")
        mine = [s for s in self.storage.table_seats(table.id, history=True)
                if s.is_human and s.profile_id is not None and s.profile_id == player_id]
        if self._finished(table):
            return TableRefusal("table_link_finished" if mine else "table_finished",
                                {"code": code} if mine else None)
        if any(s.left_at is None for s in mine):
            return TableRefusal("table_seat_not_here", {"code": code})
        if mine:
            return TableRefusal("table_game_handed", {"code": code})
        if table.status == "waiting":
            return TableRefusal("table_full")
        return TableRefusal("table_full_started", {"code": code})

    def seat_from_link(self, code: Any, token: Any, player_id: int | None
                       ) -> TableSeat | TableRefusal:
        """The device's seat from its URL (``?table=&seat=``) for the child signed in on
        it (``player_id``): an unknown code, a forged or foreign token, or a seat handed
        to the computer is a refusal, never an error. A seat is its child's: a link of
        another profile's seat (a shared tablet whose child changed) is refused with
        ``table_seat_other_child`` (``profile_id``: whose it is, ``name``), so the page
        asks for that child (their PIN) or offers to watch; nothing is played for the
        wrong child."""
        normal = normalise_table_code(code)
        if normal is None:
            return TableRefusal("table_bad_link")
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return self._foreign_link(normal)
        seat = TableSeat(self, normal, token, player_id=player_id)
        problem = seat.refresh()
        if problem == TableRefusal("table_bad_link"):
            return self._foreign_link(normal)
        return problem if problem is not None else seat

    def _foreign_link(self, code: str) -> TableRefusal:
        """Why a link whose seat secret is not one of table ``code``'s says no, truly:
        "join again with the code" only where joining can work (a table still waiting
        for friends, or no table at all). One read of the table; nothing is written and
        nothing of the game is returned (no hand, no seat)."""
        table = self.storage.table_by_code(code)
        if table is None or table.status == "waiting":
            return TableRefusal("table_bad_link")
        if table.status == "closed":
            return TableRefusal("table_closed")
        if self._finished(table):
            return TableRefusal("table_link_finished", {"code": code})
        # Started: every seat has its device; this link is none of them.
        return TableRefusal("table_link_not_yours", {"code": code})

    def holds_seat(self, profile_id: int, code: str, token: str | None) -> bool:
        """Whether ``token`` (a secret this device kept) is ``profile_id``'s seat at table
        ``code``, still theirs: what My games offers to continue (one read). A seat is
        never found from the profile alone (docs/TABLES.md: a profile has no password)."""
        if not token or not _TOKEN.fullmatch(token):
            return False
        me = self.storage.seat_by_token(hash_token(token))
        if me is None or me.profile_id != profile_id or me.left_at is not None:
            return False
        table = self.storage.get_table(me.table_id)
        return table is not None and table.code == code

    def device_seat(self, profile_id: int, code: str, token: str | None) -> TableSeat | None:
        """The seat to continue from My games (see :meth:`holds_seat`), read afresh."""
        if not self.holds_seat(profile_id, code, token):
            return None
        found = self.seat_from_link(code, token, profile_id)
        return found if isinstance(found, TableSeat) else None

    def watch(self, code: Any, token: Any, player_id: int | None) -> TableSeat | None:
        """The game to watch, read-only (no hand drawn, no move, no touch), from a seat's
        link that ``player_id`` may not play: the old link of a seat handed to the
        computer, or another child's seat (the tablet's child changed). None for any
        other link (a forged one, or the signed-in child's own seat: they play it)."""
        normal = normalise_table_code(code)
        if normal is None or not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return None
        seat = TableSeat(self, normal, token, watching=True, player_id=player_id)
        if seat.refresh() is not None or seat.me is None:
            return None
        if seat.me.left_at is None and seat.belongs_to_player:
            return None
        return seat

    def _finished(self, table: TableRow) -> bool:
        """Whether the table's game is over (the table itself stays "playing")."""
        if table.game_id is None:
            return False
        pulse = self.storage.table_pulse(table.id)
        return pulse is not None and pulse.game_status == "finished"

    def open_tables(self, class_id: int) -> list[tuple[TableRow, list[SeatRow]]]:
        """The class's tables waiting for friends (the pupils' "open tables")."""
        return self.storage.open_tables(class_id)


def _bot_name(seat: int, names: Sequence[str]) -> str:
    """A computer player's stored name: none (``""``) unless the opener gave one; the
    board words it in each device's language when it draws it (trainer.words.seat_name),
    so a table in two languages never shows the opener's."""
    return names[seat - 1] if 0 < seat <= len(names) else ""


def _is_players(me: SeatRow, player_id: int | None) -> bool:
    """Whether the seat row ``me`` is the child ``player_id``'s (a computer's seat, or
    nobody signed in, is nobody's to play)."""
    return player_id is not None and me.kind == "human" and me.profile_id == player_id


#: The picture of a computer player that took over a child's seat.
_HANDED_AVATAR = "🤖"


class TableSeat:
    """One device at its seat: what it may see and do, always read from the database.

    Holds the table and the game as of the last :meth:`refresh` (a cache for drawing;
    every write is checked against the database's revision).
    """

    def __init__(self, tables: Tables, code: str, token: str, *, watching: bool = False,
                 player_id: int | None = None) -> None:
        self.tables = tables
        #: The child signed in on this device: the only one whose moves it may play (a
        #: seat is its child's, not the tablet's; None plays nothing).
        self.player_id = player_id
        self.storage = tables.storage
        self.code = code
        #: This device's secret (it is in the device's own URL already).
        self.token = token
        self._token_hash = hash_token(token)
        self.table: TableRow | None = None
        self.me: SeatRow | None = None
        self.seats: list[SeatRow] = []
        self.game: GameSession | None = None
        self.pulse: TablePulse | None = None
        self._touched: datetime | None = None
        self._watching = watching

    # -- reading ----------------------------------------------------------------------
    @property
    def seat(self) -> int:
        assert self.me is not None
        return self.me.seat

    @property
    def rules(self) -> Rules:
        assert self.table is not None
        return Rules.from_dict(self.table.settings["rules"])

    @property
    def hints(self) -> bool:
        return bool(self.table is not None and self.table.settings.get("hints", True))

    @property
    def timeout(self) -> int:
        settings = self.table.settings if self.table is not None else {}
        return int(settings.get("timeout", DEFAULT_TIMEOUT))

    @property
    def waiting(self) -> bool:
        return self.table is not None and self.table.status == "waiting"

    @property
    def revision(self) -> int | None:
        return self.game.revision if self.game is not None else None

    @property
    def belongs_to_player(self) -> bool:
        """Whether this seat is the signed-in child's (what every action checks)."""
        return self.me is not None and _is_players(self.me, self.player_id)

    @property
    def watching(self) -> bool:
        """This device's seat went to the computer: it may only watch (:meth:`Tables.watch`)."""
        return self._watching

    def refresh(self) -> TableRefusal | None:
        """Read the table, the seats and the game again (a refusal when this device's
        link no longer names a seat it may play, unless it only watches)."""
        me = self.storage.seat_by_token(self._token_hash)
        table = self.storage.get_table(me.table_id) if me is not None else None
        if me is None or table is None or table.code != self.code:
            return TableRefusal("table_bad_link")
        if me.left_at is not None and not self._watching:
            return TableRefusal("table_seat_handed", {"name": me.name})
        if not self._watching and not _is_players(me, self.player_id):
            return TableRefusal("table_seat_other_child",
                                {"name": me.name, "profile_id": me.profile_id})
        self.me, self.table = me, table
        self.pulse = self.storage.table_pulse(table.id)
        self.seats = self.storage.table_seats(table.id)
        self.game = None
        if table.game_id is not None:
            row = self.storage.get_game(table.game_id)
            if row is not None:
                self.game = self._resume(row)
                self._run_due_bots()
        if self.table.status == "waiting":
            self.start_if_full()
        return None

    def _resume(self, row: Any) -> GameSession:
        """The game as this device plays it: its turns are evidence for the facts of
        this seat's child (trainer.evidence), never the opener's."""
        game = GameSession.resume(row, self.storage)
        game.profile_id = None
        me = self.me
        if me is not None and me.kind == "human" and me.profile_id is not None:
            game.evidence_owner = (me.seat, me.profile_id)
        return game

    def changed(self) -> bool:
        """Whether the table moved on since this device last read it (one small read:
        what the page polls about once a second)."""
        assert self.table is not None
        return self.storage.table_pulse(self.table.id) != self.pulse

    def presence(self, at: datetime | None = None) -> list[SeatPresence]:
        """Every seat: who sits there (or nobody yet), and whether they are away."""
        assert self.table is not None
        at = at or self.tables.clock()
        by_seat = {s.seat: s for s in self.seats}
        out = []
        for i, plan in enumerate(self.table.settings["plan"]):
            row = by_seat.get(i)
            if row is None:
                out.append(SeatPresence(i, "", "", "empty", plan.get("level", ""), False, False,
                                        False))
                continue
            gone = (at - row.last_seen).total_seconds() if row.last_seen else 0.0
            mine = self.me is not None and row.id == self.me.id
            other_child = row.is_human and not mine  # never "you left" to oneself
            playing = self.game is not None and not self.game.is_over
            spec = (self.game.seats[i] if self.game is not None and i < len(self.game.seats)
                    and not row.is_human else SeatSpec(row.kind, row.name, row.avatar, row.level))
            out.append(SeatPresence(
                i, seat_name(spec, i), row.avatar, row.kind, row.level, mine,
                away=other_child and gone > AWAY_SECONDS,
                can_hand_over=other_child and playing and gone > self.timeout))
        return out

    def waiting_on(self, at: datetime | None = None) -> SeatPresence | None:
        """The seat the game waits for when it is not this device's turn (its presence
        says whether that child is away, and whether the others may hand the seat to the
        computer already), or None: this device's turn, a score table, the end."""
        game = self.game
        if game is None or game.is_over or game.round_over or self.my_turn:
            return None
        return next((p for p in self.presence(at) if p.seat == game.to_move), None)

    def board(self, *, deck: Deck, show_value: bool, hint_step: int = 1,
              odds_style: str = "words") -> dict[str, Any]:
        """The board's data for this device: built from this seat's observation only, so
        another seat's hidden cards are never in it (:mod:`trainer.board_view`)."""
        assert self.game is not None
        return session_board(self.game, viewer=self.seat, reveal=not self._watching, deck=deck,
                             show_value=show_value, hints_on=self.hints,
                             hint_step=hint_step, odds_style=odds_style)

    def position(self) -> str:
        assert self.game is not None
        return session_position(self.game)

    @property
    def my_turn(self) -> bool:
        game = self.game
        return (game is not None and not self._watching and self.belongs_to_player
                and not game.round_over and not game.is_over and game.to_move == self.seat)

    def hand_overs(self) -> list[SeatRow]:
        """The computer players that took over a child's seat during the game, oldest
        first (each says from which round and move it played)."""
        assert self.table is not None
        history = self.storage.table_seats(self.table.id, history=True)
        return [row for row in history if row.kind == "bot" and any(
            h.seat == row.seat and h.is_human and h.id < row.id for h in history)]

    def reread_seats(self) -> None:
        """Read who sits where again (for :meth:`presence`), without the game."""
        assert self.table is not None
        self.seats = self.storage.table_seats(self.table.id)

    def move_players(self) -> list[MoveBy]:
        """Who played each saved move: the seat's occupant from the move they took it at."""
        assert self.table is not None
        if self.table.game_id is None:
            return []
        history = self.storage.table_seats(self.table.id, history=True)
        out = []
        for round_no, move_no, entry in self.storage.move_entries(self.table.game_id):
            seat = int(entry.get("seat", -1))
            who = [s for s in history if s.seat == seat
                   and (s.from_round, s.from_move) <= (round_no, move_no)]
            row = who[-1] if who else None
            out.append(MoveBy(round_no, move_no, seat, row.kind if row else "?",
                              row.profile_id if row else None, row.level if row else "",
                              row.name if row else "?"))
        return out

    # -- acting -----------------------------------------------------------------------
    def touch(self, force: bool = False) -> None:
        """This device is here: its seat's ``last_seen``, at most every few seconds."""
        at = self.tables.clock()
        if not self.belongs_to_player or self._watching or (not force and self._touched is not None
                               and (at - self._touched).total_seconds() < TOUCH_SECONDS):
            return
        self.storage.touch_seat(self.me.id)
        self._touched = at

    def start_if_full(self) -> bool:
        """Begin the game when every seat has its occupant (any device may: the first
        to claim the table's version does, the others find it started)."""
        table = self.table or self.storage.table_by_code(self.code)
        if table is None or table.status != "waiting":
            return False
        seats = self.storage.table_seats(table.id)
        if len(seats) < len(table.settings["plan"]):
            return False
        return self._start(table, seats, [])

    def start_with_computers(self, level: str) -> TableRefusal | None:
        """The opener does not wait any longer: computer players of ``level`` take the
        seats nobody has joined, and the game begins."""
        self.refresh()
        table = self.table
        if not self.belongs_to_player:
            return TableRefusal("table_seat_other_child")
        if table is None or table.status != "waiting" or self.seat != 0:
            return TableRefusal("table_started")
        if level not in bot_levels():
            return TableRefusal("table_bad_level")
        seats = self.storage.table_seats(table.id)
        taken = {s.seat for s in seats}
        fill = [NewSeat(i, "bot", _bot_name(i, ()), bot_avatar(i), level)
                for i in range(len(table.settings["plan"])) if i not in taken]
        if not self._start(table, seats, fill):
            return TableRefusal("table_moved_first")
        self.refresh()
        return None

    def _start(self, table: TableRow, seats: Sequence[SeatRow], fill: Sequence[NewSeat]) -> bool:
        rules = Rules.from_dict(table.settings["rules"])
        specs: dict[int, SeatSpec] = {
            s.seat: SeatSpec(s.kind, s.name, s.avatar, s.level) for s in seats}
        specs.update({f.seat: SeatSpec("bot", f.name, f.avatar, f.level) for f in fill})
        ordered = [specs[i] for i in range(rules.players)]
        seed = secrets.randbits(31)
        game = GameSession.new(rules, ordered, seed)
        try:
            self.storage.start_table(table, profile_id=table.opener_id,
                                     rules=rules.to_dict(only_changes=True),
                                     seats=[s.to_dict() for s in ordered], seed=seed,
                                     record=game.record(),
                                     options={"deck": table.settings.get("deck", "spanish"),
                                              "table": table.code}, fill=fill)
        except TableChanged:
            return False
        if self.me is not None:
            self.refresh()
        return True

    def close(self) -> TableRefusal | None:
        """The opener gives up a table nobody has started: it disappears from the open
        tables and its code joins nobody."""
        if not self.belongs_to_player:
            return TableRefusal("table_seat_other_child")
        if self.table is None or self.table.status != "waiting" or self.seat != 0:
            return TableRefusal("table_started")
        try:
            self.storage.close_table(self.table)
        except TableChanged:
            return TableRefusal("table_moved_first")
        self.refresh()
        return None

    def leave(self) -> TableRefusal | None:
        """A child who joined (not the opener, who closes the table instead) leaves the
        waiting room: their seat is free for another friend. Once the game has begun
        a child who goes is handed to the computer instead (:meth:`hand_to_computer`)."""
        if self.refresh() is not None or self.table is None or self.me is None:
            return TableRefusal("table_bad_link")
        if not self.belongs_to_player:
            return TableRefusal("table_seat_other_child")
        if self.table.status != "waiting":
            return TableRefusal("table_started")
        if self.seat == 0:
            return TableRefusal("table_opener_closes")
        try:
            self.storage.leave_waiting(self.table, self.me.id)
        except TableChanged:
            return TableRefusal("table_moved_first")
        return None

    def play(self, card: Card, take: Sequence[Card], seen: int | None,
             context: TurnContext | None = None) -> Outcome:
        """This child's move at the position drawn at revision ``seen``: accepted only if
        the database is still there, saved with the computer players' replies in one
        transaction; ``table_moved_first`` when another device moved first (the device
        then redraws). With a ``context`` the turn is evidence for this child's facts,
        saved with the move (trainer.evidence)."""
        return self._my_move(seen, lambda game: game.play_human_then_bots(card, take, context))

    def claim_renuncio(self, seen: int | None, take: Sequence[Card] = ()) -> Outcome:
        """This child calls ¡renuncio! at the position drawn at revision ``seen`` (as
        :meth:`play`: refused when another device moved first), taking the set ``take``
        they tapped (see :meth:`GameSession.claim_renuncio`)."""
        return self._my_move(seen, lambda game: game.claim_renuncio(take))

    def _my_move(self, seen: int | None, act: Callable[[GameSession], Outcome]) -> Outcome:
        """``act`` on the game, only at this device's turn and at the revision it drew;
        a save the database refused is ``table_moved_first`` (the device redraws)."""
        game = self.game
        if not self._watching and not self.belongs_to_player:
            # Checked here, not in the page: another child's answers are never recorded
            # as this seat's child's (a shared tablet whose child changed).
            return Outcome(False, "table_seat_other_child")
        if game is None or seen is None or seen != game.revision:
            return self._moved_first()
        if not self.my_turn:
            return Outcome(False, "not_your_turn")
        outcome = act(game)
        if game.conflict == UNAVAILABLE:
            return self._not_saved()
        if game.conflict is not None:
            return self._moved_first()
        self._wrote()
        return outcome

    def next_round(self, seen: int | None) -> Outcome:
        """Deal the next round after the score table (any child at the table may; the
        first tap deals, another device's tap at the same moment changes nothing)."""
        game = self.game
        if self._watching or not self.belongs_to_player:
            return Outcome(False, "not_your_turn")
        if game is None or seen is None or seen != game.revision:
            return self._moved_first()
        if not game.round_over or game.is_over:
            return Outcome(False, "not_your_turn")
        _in_one_save(game, game.next_round, game.run_bots)
        if game.conflict == UNAVAILABLE:
            return self._not_saved()
        if game.conflict is not None:
            return self._moved_first()
        self._wrote()
        return Outcome(True, "next_round")

    def hand_to_computer(self, seat: int, level: str, at: datetime | None = None
                         ) -> TableRefusal | None:
        """Give the seat of a child who left (gone longer than the table's timeout) to a
        computer player of ``level``, which plays from the next move on."""
        if self._watching or not self.belongs_to_player:
            return TableRefusal("table_seat_other_child")
        if self.refresh() is not None or self.game is None or self.table is None:
            return TableRefusal("table_moved_first")
        if level not in bot_levels():
            return TableRefusal("table_bad_level")
        chosen = next((p for p in self.presence(at) if p.seat == seat), None)
        if chosen is None or not chosen.can_hand_over:
            return TableRefusal("table_not_away")
        game = self.game
        specs = list(game.seats)
        old = specs[seat]
        # A computer taking over for the child, and shown so ("🤖 Computer for Leo"): the
        # child's picture would say the child is still playing.
        specs[seat] = SeatSpec("bot", "", _HANDED_AVATAR, level, stands_in=old.name)
        from_round, from_move = _position_after(game)
        try:
            self.storage.hand_seat_over(
                self.table, seat, NewSeat(seat, "bot", old.name, _HANDED_AVATAR, level),
                game_revision=game.revision, seats=[s.to_dict() for s in specs],
                from_round=from_round, from_move=from_move)
        except TableChanged:
            self.refresh()
            return TableRefusal("table_moved_first")
        self.refresh()  # the computer plays at once if it is its turn
        return None

    # -- internals --------------------------------------------------------------------
    def _wrote(self) -> None:
        """This device's own save: the pulse it expects now, so that its poll does not
        take its own move for a friend's (anything else that changed still differs)."""
        game = self.game
        if self.pulse is not None and game is not None:
            self.pulse = TablePulse(self.pulse.version, self.pulse.status, game.revision,
                                    "finished" if game.is_over else "playing")

    def _not_saved(self) -> Outcome:
        """The database could not be written: nothing was saved. The game is read again
        (the move is not drawn as made), if storage can be read at all."""
        with contextlib.suppress(sa.exc.DBAPIError):
            self.refresh()
        return Outcome(False, UNAVAILABLE)

    def _moved_first(self) -> Outcome:
        self.refresh()
        return Outcome(False, "table_moved_first")

    def _run_due_bots(self) -> None:
        """Computer players whose turn it is play now, whichever device notices first
        (after a start, a hand-over, or a device that stopped between a child's move
        and the replies' save): saved in one transaction, refused if another did."""
        game = self.game
        if game is None or game.is_over or game.round is None or game.round_over:
            return
        if game.seats[game.to_move].is_human:
            return
        _in_one_save(game, game.run_bots)
        if game.conflict is not None:
            row = self.storage.get_game(game.game_id) if game.game_id is not None else None
            if row is not None:
                self.game = self._resume(row)
        self.pulse = self.storage.table_pulse(self.table.id) if self.table else None

    def review(self, seat: int) -> hint_mod.GameReview | None:
        """The coach's review of the child at ``seat`` once the game is over (the record
        holds every hidden card, so never before)."""
        game = self.game
        if game is None or not game.is_over:
            return None
        return game.review_for(seat)  # made once; the opener's saved with the last move
