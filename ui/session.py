"""Streamlit glue: the database connection, the active profile, settings and game.

Pages call these helpers and stay thin. What must survive a refresh lives in
the database (games, profiles) and in the URL (``?p=<profile id>``); session
state caches what the database holds, and remembers which profile was chosen
in this browser session.

The profile (issue 10, see docs/APP.md "Profiles on a shared device"): the one
chosen in this session stays this session's; a ``?p=`` naming another profile
does not switch to it but shows "Who's playing?". A fresh session (a refresh, a
new tab) takes ``?p=``, unless that profile has a parent's PIN: then the PIN is
asked first. A malformed ``?p=`` is ignored, and so is a class pupil's (issue 27: it
would tell who the pupil is; pupils sign in on "My class").
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import secrets as _secrets
from pathlib import Path
from typing import Any

import streamlit as st

from escoba import Deck, Rules
from trainer.cards import deck_for_game
from trainer.gameplay import GameSession
from trainer.i18n import LANGUAGES
from trainer.live_view import signed_out
from trainer.profile_book import ProfileBook
from trainer.storage import GameRow, Profile, Storage, app_database, configure_sqlite
from trainer.storage.trouble import UNAVAILABLE
from ui.i18n import current_language, set_language

__all__ = ["storage", "database_url", "current_profile", "set_profile", "settings", "deck_of",
           "update_setting", "current_game", "set_game", "DEFAULT_SETTINGS", "flash",
           "pop_flash", "flash_again", "new_seed", "profile_id_param", "pin_asked", "ask_pin",
           "url_names_another_profile", "drop_child_state", "CHILD_STATE_PREFIXES",
           "device_key"]

log = logging.getLogger(__name__)

CONNECTION_NAME = "escoba"
DEFAULT_SETTINGS: dict[str, Any] = {
    "deck": "spanish",
    "show_values": True,
    "hints": True,
    "pause": False,
    "odds": "words",  # how hints say a chance: "words" (and a meter) or "numbers"
    "read_aloud": True,  # a lesson reads its goal aloud (issue 23; ui/speaker.py)
    "sound": True,  # sounds and voice at all: the mute switch
    "spanish_names": False,  # Spanish cards by the baraja's names in de, it and zh (issue 33)
}
_PROFILE = "profile_id"
_PROFILE_OBJ = "profile"
_GAME = "game_session"
_SETTINGS = "settings"
_FLASH = "flash"
_FLASH_SHOWN = "flash_shown"  # the message the last run showed (flash_again)
_PIN_ASKED = "pin_asked"
#: What one child has open in this browser session, dropped when the child changes (a
#: new choice on "Who's playing?", "Not you? Switch"): a seat at a table and what it
#: watches, the game in play, a puzzle, a quick-facts round, a lesson, an assignment, a
#: review, the board's picks. A seat belongs to a child, not to the tablet's session
#: (issue 25: Ann was handed Bob's seat and played it). Prefixes of session-state keys.
CHILD_STATE_PREFIXES = (
    "table_seat", "table_watch", "table_presence", "table_board", "tb_hand", "tb_take",
    "tb_confirm_close", "tb_full", "tb_open_first", "game_session", "game_board", "pick_",
    "revealed_seat", "hint_step",
    "review_", "balloons_", "qf_round", "pz_current", "pz_state", "pz_hand",
    "pz_keeper",
    "pz_table", "dy", "lesson_", "mc_task", "mc_current", "mc_round", "mastery_cache",
    "replay_step", "new_game_open", "games_page",
    "pupil_visit",  # pupil_visit: ui.pupil_guard.KEY_VISIT
    "pupil_noted")  # ui.pupil_guard.KEY_NOTED
# A profile id in the URL: plain ASCII digits, no sign, small enough for any database
# integer (a 20-digit number overflowed SQLite's and showed "Oops" twice).
_PROFILE_ID = re.compile(r"[0-9]{1,9}")


def _secret_section() -> dict[str, Any]:
    try:
        return dict(st.secrets.get("connections", {}).get(CONNECTION_NAME, {}))
    except Exception:  # no secrets.toml at all: the SQLite default
        return {}


def database_url() -> str | None:
    """See :func:`_database_url` (cached per environment: it is read on every rerun)."""
    return _database_url(os.environ.get("ESCOBA_DATABASE_URL"), os.environ.get("ESCOBA_DB_PATH"))


@functools.lru_cache(maxsize=16)
def _database_url(env_url: str | None, env_path: str | None) -> str | None:
    """The URL to pass to ``st.connection``, or ``None`` when secrets.toml sets one.

    Order: ``ESCOBA_DATABASE_URL``; ``[connections.escoba]`` in secrets.toml
    (``url = "postgresql+psycopg://..."``); else a SQLite file at
    ``ESCOBA_DB_PATH`` or ``path`` in that section, default ``data/escoba.db``.
    """
    url, from_secrets = app_database(env_url, env_path, _secret_section())
    if from_secrets:
        return None  # st.connection reads the section itself (engine options too)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return url


@st.cache_resource(show_spinner=False)
def _storage(url: str | None) -> Storage:
    # st.connection is cached too; this cache adds "migrate once per database".
    conn = (st.connection(CONNECTION_NAME, type="sql", url=url) if url
            else st.connection(CONNECTION_NAME, type="sql"))
    engine = conn.engine
    configure_sqlite(engine)
    return Storage(engine)


def profile_book() -> ProfileBook:
    """The writes a page makes for a profile (trainer.profile_book): no view writes to
    the storage itself."""
    return ProfileBook(storage())


def storage() -> Storage:
    """The app's storage (migrated on first use)."""
    return _storage(database_url())


# -- profile ---------------------------------------------------------------------------

def chosen_profile_id() -> int | None:
    """The profile this session plays as, as chosen (without reading it from storage)."""
    chosen = st.session_state.get(_PROFILE)
    return int(chosen) if chosen is not None else None


def profile_id_param(raw: Any) -> int | None:
    """The profile id a ``?p=`` names, or ``None`` when it is not a plain small number."""
    text = str(raw) if raw is not None else ""
    return int(text) if _PROFILE_ID.fullmatch(text) else None


def current_profile() -> Profile | None:
    """The profile playing in this browser session (kept in the URL so a refresh keeps it).

    ``None`` when nobody is chosen yet, when the URL names another profile than the one
    chosen here, or when the URL's profile asks for its PIN first (:func:`pin_asked`).
    """
    url_id = profile_id_param(st.query_params.get("p"))
    chosen = st.session_state.get(_PROFILE)
    if chosen is not None:
        if url_id is not None and url_id != chosen:
            # Another child's data is never one edited URL away: choose on "Who's playing?".
            return None
        cached = st.session_state.get(_PROFILE_OBJ)
        profile = cached if cached is not None and cached.id == chosen \
            else storage().get_profile(int(chosen))
        if profile is None:  # deleted (in another tab)
            set_profile(None)
            return None
        st.session_state[_PROFILE_OBJ] = profile
        if url_id != profile.id:
            st.query_params["p"] = str(profile.id)
        return profile
    if url_id is None:
        return None
    profile = storage().get_profile(url_id)
    if profile is None:
        return None
    if storage().membership(profile.id) is not None:
        # A pupil's link says nothing of who it is (issue 27): no nickname, picture or
        # "has a PIN" for ?p=1, ?p=2 ... typed in turn. The way in is the class sign-in
        # (code, picture, PIN); the link is dropped, as one to no profile would be.
        st.query_params.pop("p", None)
        return None
    if profile.protected:
        ask_pin(profile.id)
        return None
    set_profile(profile)
    return profile


def url_names_another_profile() -> bool:
    """Whether ``?p=`` names a profile other than the one chosen in this session."""
    url_id = profile_id_param(st.query_params.get("p"))
    chosen = st.session_state.get(_PROFILE)
    return chosen is not None and url_id is not None and url_id != chosen


def pin_asked() -> int | None:
    """The profile whose PIN "Who's playing?" asks for, if any."""
    return st.session_state.get(_PIN_ASKED)


def ask_pin(profile_id: int | None) -> None:
    """Ask for this profile's PIN on "Who's playing?" (``None``: ask nothing)."""
    if profile_id is None:
        st.session_state.pop(_PIN_ASKED, None)
    else:
        st.session_state[_PIN_ASKED] = profile_id


def drop_child_state() -> None:
    """Forget everything one child had open in this session (:data:`CHILD_STATE_PREFIXES`):
    the next child starts with nothing of theirs. The seats remembered for My games are
    kept per child (``table_tickets``, keyed by profile), never handed to another."""
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(CHILD_STATE_PREFIXES):
            st.session_state.pop(key, None)


def _load_profile(profile: Profile) -> None:
    drop_child_state()
    st.session_state[_PROFILE] = profile.id
    merged = dict(DEFAULT_SETTINGS)
    merged.update({k: v for k, v in profile.settings.items() if k in DEFAULT_SETTINGS})
    st.session_state[_SETTINGS] = merged
    lang = profile.settings.get("lang")
    if lang in LANGUAGES:
        set_language(lang)
    st.session_state.pop(_GAME, None)


def set_profile(profile: Profile | None) -> None:
    """Choose the profile of this session (a PIN, if it has one, was checked already).
    The pupil signed in before, if any, is signed out of the teacher's live view."""
    ask_pin(None)
    previous = st.session_state.get(_PROFILE)
    if previous is not None and (profile is None or profile.id != previous):
        try:
            signed_out(storage(), int(previous))
        except Exception:  # the database unreachable: the sign-out happens all the same
            log.warning("could not mark profile %s signed out on the live view", previous,
                        exc_info=True)
    if profile is None:
        drop_child_state()
        for key in (_PROFILE, _PROFILE_OBJ, _GAME, _SETTINGS):
            st.session_state.pop(key, None)
        st.query_params.pop("p", None)
        return
    if st.session_state.get(_PROFILE) != profile.id:
        _load_profile(profile)
    st.session_state[_PROFILE_OBJ] = profile
    st.query_params["p"] = str(profile.id)


# -- the device ---------------------------------------------------------------------

#: Addresses of this machine: a request from one came through the local proxy (nginx,
#: docs/DEPLOY.md), which names the device in X-Forwarded-For.
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}
_DEVICE = "device_key"


def device_key() -> str:
    """A stable name for the device this browser session runs on, for the limits on
    wrong secrets (trainer.limits): the device's address (behind the local proxy, the
    last address it forwarded), hashed — no address is stored. A new tab or a new
    browser on the same device is the same device. Without any address (a test
    harness), the browser session."""
    cached = st.session_state.get(_DEVICE)
    if cached is not None:
        return cached
    address: Any = None
    try:
        address = st.context.ip_address
        if address in _LOOPBACK or address is None:
            forwarded = st.context.headers.get("X-Forwarded-For") or ""
            if isinstance(forwarded, str):
                address = forwarded.split(",")[-1].strip() or address
    except Exception:  # no request context (a bare script run)
        address = None
    if not isinstance(address, str) or not address:
        address = "session:" + _secrets.token_hex(16)
    key = hashlib.sha256(address.encode("utf-8")).hexdigest()[:40]
    st.session_state[_DEVICE] = key
    return key


# -- settings --------------------------------------------------------------------------

def settings() -> dict[str, Any]:
    if _SETTINGS not in st.session_state:
        st.session_state[_SETTINGS] = dict(DEFAULT_SETTINGS)
    return st.session_state[_SETTINGS]


def deck_of(rules: Rules | None = None) -> Deck:
    """The card deck this child chose in Settings; a Scopa game (``rules``) draws and
    names the Spanish deck as Scopa's own Italian one (denari, Fante, Cavallo, Re): the
    cards are the same forty, the French deck stays a family's choice."""
    return deck_for_game(Deck(settings().get("deck", "spanish")), rules)


def update_setting(name: str, value: Any) -> None:
    """Change one setting for this session and, with a profile, save it."""
    current = settings()
    current[name] = value
    profile_id = st.session_state.get(_PROFILE)
    if profile_id is not None:
        saved = dict(current)
        saved["lang"] = current_language()
        profile_book().save_settings(int(profile_id), saved)


def save_language(lang: str) -> None:
    set_language(lang)
    profile_id = st.session_state.get(_PROFILE)
    if profile_id is not None:
        saved = dict(settings())
        saved["lang"] = lang
        profile_book().save_settings(int(profile_id), saved)


# -- game ------------------------------------------------------------------------------

def current_game() -> GameSession | None:
    """The profile's game in play: from session state, else resumed from the database.

    A game kept in session state is checked against the database on every run (one
    indexed read): if another tab moved on in it, it is redrawn from the database; if
    it was left for a new game, the new one is shown. Either way the child is told why.
    """
    game = st.session_state.get(_GAME)
    profile_id = st.session_state.get(_PROFILE)
    if game is not None and game.profile_id is not None and game.profile_id != profile_id:
        # Another child's game (a session kept across a switch): never played as this one.
        st.session_state.pop(_GAME, None)
        game = None
    if game is not None:
        if game.storage is None or game.game_id is None:
            return game
        state = game.storage.game_state(game.game_id)
        if game.conflict is None and state is not None and state[1] == game.revision:
            return game
        st.session_state.pop(_GAME, None)
        if game.conflict == UNAVAILABLE and state is not None:
            # The last move could not be saved (the child was told so): the game as the
            # database has it, without that move: never drawn as made.
            row = storage().get_game(game.game_id)
            return _resumed(row) if row is not None else None
        if state is not None and state[0] != "abandoned":
            flash("warning", "game_stale")
            row = storage().get_game(game.game_id)
            return _resumed(row) if row is not None else None
        if profile_id is None:
            return None
        newer = current_game()
        flash("warning", "game_closed" if newer is not None else "game_closed_none")
        return newer
    if profile_id is None:
        return None
    row = storage().active_game(int(profile_id))
    return _resumed(row) if row is not None else None


def _resumed(row: GameRow) -> GameSession | None:
    try:
        game = GameSession.resume(row, storage())
    except Exception:
        # A saved game that no longer replays must not lock the child out.
        log.exception("could not resume game %s", row.id)
        GameSession.give_up(row, storage())
        return None
    st.session_state[_GAME] = game
    return game


def set_game(game: GameSession | None) -> None:
    if game is None:
        st.session_state.pop(_GAME, None)
    else:
        st.session_state[_GAME] = game


def new_seed() -> int:
    return _secrets.randbits(31)


# -- one-shot messages -----------------------------------------------------------------

def flash(kind: str, key: str, **params: Any) -> None:
    """A message to show once, on the next run (set from a button callback)."""
    st.session_state[_FLASH] = (kind, key, params)


def pop_flash() -> tuple[str, str, dict[str, Any]] | None:
    """The message to show in this run, if any; it is remembered as shown, so that a run
    the child did not cause can show it again (:func:`flash_again`)."""
    message = st.session_state.pop(_FLASH, None)
    st.session_state[_FLASH_SHOWN] = message
    return message


def flash_again() -> None:
    """Keep the message the last run showed for the next one too: for a callback of a
    run the child did not cause (a component reporting back, such as the tablet's seat
    keeper), which would otherwise wipe a message a moment after it appeared."""
    shown = st.session_state.get(_FLASH_SHOWN)
    if shown is not None and _FLASH not in st.session_state:
        st.session_state[_FLASH] = shown
