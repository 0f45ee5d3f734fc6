"""Streamlit glue: the database connection, the active profile, settings and game.

Pages call these helpers and stay thin. What must survive a refresh lives in
the database (games, profiles) and in the URL (``?p=<profile id>``); session
state only caches what the database already holds.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets as _secrets
from pathlib import Path
from typing import Any

import streamlit as st

from trainer.gameplay import GameSession
from trainer.i18n import LANGUAGES
from trainer.storage import Profile, Storage, configure_sqlite, sqlite_url
from ui.i18n import current_language, set_language

__all__ = ["storage", "database_url", "current_profile", "set_profile", "settings",
           "update_setting", "current_game", "set_game", "DEFAULT_SETTINGS", "flash",
           "pop_flash", "new_seed"]

log = logging.getLogger(__name__)

CONNECTION_NAME = "escoba"
DEFAULT_DB_PATH = "data/escoba.db"
DEFAULT_SETTINGS: dict[str, Any] = {
    "deck": "spanish",
    "show_values": True,
    "hints": True,
    "pause": False,
    "odds": "words",  # how hints say a chance: "words" (and a meter) or "numbers"
}
_PROFILE = "profile_id"
_PROFILE_OBJ = "profile"
_GAME = "game_session"
_SETTINGS = "settings"
_FLASH = "flash"


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
    if env_url:
        return env_url
    section = _secret_section()
    if "url" in section or "dialect" in section:
        return None
    path = env_path or section.get("path") or DEFAULT_DB_PATH
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return sqlite_url(path)


@st.cache_resource(show_spinner=False)
def _storage(url: str | None) -> Storage:
    # st.connection is cached too; this cache adds "migrate once per database".
    conn = (st.connection(CONNECTION_NAME, type="sql", url=url) if url
            else st.connection(CONNECTION_NAME, type="sql"))
    engine = conn.engine
    configure_sqlite(engine)
    return Storage(engine)


def storage() -> Storage:
    """The app's storage (migrated on first use)."""
    return _storage(database_url())


# -- profile ---------------------------------------------------------------------------

def current_profile() -> Profile | None:
    """The profile playing in this browser tab (kept in the URL so a refresh keeps it)."""
    profile_id = st.session_state.get(_PROFILE)
    if profile_id is None:
        raw = st.query_params.get("p")
        if raw and str(raw).isdigit():
            profile_id = int(raw)
    if profile_id is None:
        return None
    cached = st.session_state.get(_PROFILE_OBJ)
    if cached is not None and cached.id == int(profile_id) \
            and st.session_state.get(_PROFILE) == cached.id:
        # Loaded already in this session: no database round trip on every rerun.
        if st.query_params.get("p") != str(cached.id):
            st.query_params["p"] = str(cached.id)
        return cached
    profile = storage().get_profile(int(profile_id))
    if profile is None:
        st.session_state.pop(_PROFILE, None)
        return None
    if st.session_state.get(_PROFILE) != profile.id:
        _load_profile(profile)
    st.session_state[_PROFILE_OBJ] = profile
    st.query_params["p"] = str(profile.id)
    return profile


def _load_profile(profile: Profile) -> None:
    st.session_state[_PROFILE] = profile.id
    merged = dict(DEFAULT_SETTINGS)
    merged.update({k: v for k, v in profile.settings.items() if k in DEFAULT_SETTINGS})
    st.session_state[_SETTINGS] = merged
    lang = profile.settings.get("lang")
    if lang in LANGUAGES:
        set_language(lang)
    st.session_state.pop(_GAME, None)


def set_profile(profile: Profile | None) -> None:
    if profile is None:
        for key in (_PROFILE, _PROFILE_OBJ, _GAME, _SETTINGS):
            st.session_state.pop(key, None)
        st.query_params.pop("p", None)
        return
    _load_profile(profile)
    st.session_state[_PROFILE_OBJ] = profile
    st.query_params["p"] = str(profile.id)


# -- settings --------------------------------------------------------------------------

def settings() -> dict[str, Any]:
    if _SETTINGS not in st.session_state:
        st.session_state[_SETTINGS] = dict(DEFAULT_SETTINGS)
    return st.session_state[_SETTINGS]


def update_setting(name: str, value: Any) -> None:
    """Change one setting for this session and, with a profile, save it."""
    current = settings()
    current[name] = value
    profile_id = st.session_state.get(_PROFILE)
    if profile_id is not None:
        saved = dict(current)
        saved["lang"] = current_language()
        storage().update_settings(int(profile_id), saved)


def save_language(lang: str) -> None:
    set_language(lang)
    profile_id = st.session_state.get(_PROFILE)
    if profile_id is not None:
        saved = dict(settings())
        saved["lang"] = lang
        storage().update_settings(int(profile_id), saved)


# -- game ------------------------------------------------------------------------------

def current_game() -> GameSession | None:
    """The profile's game in play: from session state, else resumed from the database."""
    game = st.session_state.get(_GAME)
    profile_id = st.session_state.get(_PROFILE)
    if game is not None:
        return game
    if profile_id is None:
        return None
    row = storage().active_game(int(profile_id))
    if row is None:
        return None
    try:
        game = GameSession.resume(row, storage())
    except Exception:
        # A saved game that no longer replays must not lock the child out.
        log.exception("could not resume game %s", row.id)
        storage().abandon_game(row.id)
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
    return st.session_state.pop(_FLASH, None)
