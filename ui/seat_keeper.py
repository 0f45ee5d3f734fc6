"""Back to my seat (issue 31): the tablet keeps each child's table seats.

A seat at a table is its device's secret (docs/TABLES.md). It used to live only in the
tab's address (``?table=K7MPX&seat=<secret>``) and in the session: a child who closed the
tab lost it, and the secret sat in the address bar (and in a proxy's logs, through the
referrer). Now the tablet keeps it in the browser's ``localStorage``, keyed by the
child's profile and the table's code, through this invisible component; the address
carries only ``?table=K7MPX`` once the tablet has confirmed it keeps the seat.

- The server asks the component to keep (``save``) or forget a seat; the component
  answers with the seats it keeps **for the child signed in only** (another profile's
  seats on the same tablet are never sent, never offered: a shared tablet). Each answer
  names its profile, and one for another profile than the session's is ignored.
- Nothing is trusted: every secret the browser reports is still checked by
  :meth:`trainer.tables.Tables.seat_from_link` (the seat must be this child's).
- If the browser keeps nothing (scripts blocked, storage off), the tab works as before:
  the secret stays in its address until the tablet confirms it keeps it.

The component draws nothing; it lives in the sidebar like the voice listener, outside
any fragment (its answer reruns the whole page).
"""

from __future__ import annotations

import streamlit as st

from trainer.tables import CODE_ALPHABET, CODE_LENGTH, TOKEN_PATTERN, normalise_table_code

from .errors import safe_callback
from .session import chosen_profile_id, flash_again

__all__ = ["keep_seats", "held_seats", "tablet_has_read", "remember_seat", "forget_seat",
           "kept_on_tablet", "KEY_TICKETS", "KEY_READ"]

#: Every seat this session knows for a child: (profile id, table code) -> the seat's
#: secret (the ones it opened or joined, and the ones the tablet keeps).
KEY_TICKETS = "table_tickets"
#: What the tablet last said it keeps, per profile id: {code: secret} (read: it answered).
KEY_READ = "table_keeper_read"
#: Seats to keep / forget on the tablet, until it says it did: (profile id, code) -> secret.
KEY_SAVE = "table_keeper_save"
KEY_FORGET = "table_keeper_forget"
KEY_TRIES = "table_keeper_tries"
#: Answers after which a keep or forget the tablet has not done is given up.
_TRIES = 3
#: The component's own key (its state: the tablet's last answer).
KEY_COMPONENT = "table_keeper"
#: A secret as the server makes them (trainer.tables: ``secrets.token_urlsafe(16)``).
_TOKEN = TOKEN_PATTERN
#: At most this many seats are read from one answer (a tablet holds a few).
_MOST = 64

# The browser side. localStorage["escoba.seats"] = {profile id: {code: {t: secret, at: ms}}}.
# It answers (setStateValue) only when the server does not know yet what it keeps for
# this child, or after a change: never on every draw (each answer reruns the page).
_JS = r"""
const STORE = "escoba.seats";
const KEEP_DAYS = 30;  // a table's game lasts minutes; an old seat is dropped
const MOST = 50;  // seats kept per child, the newest (the server reads up to 64)
// What the server accepts (trainer.tables): anything else is dropped here, so that what
// the tablet says it keeps is exactly what the server knows it keeps (no endless answers).
const CODE = /^[@ALPHABET@]{@LENGTH@}$/;
const SECRET = /^@SECRET@$/;

function readAll() {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    return [all && typeof all === "object" && !Array.isArray(all) ? all : {}, true];
  } catch (e) {
    return [{}, false];
  }
}

export default function (component) {
  const { data, setStateValue } = component;
  if (!data || data.profile === null || data.profile === undefined) return;
  const who = String(data.profile);
  let [all, ok] = readAll();
  const now = Date.now();
  let changed = false;
  const mine = all[who] && typeof all[who] === "object" ? all[who] : {};
  for (const [code, secret] of Object.entries(data.save || {})) {
    if (!mine[code] || mine[code].t !== secret) {
      mine[code] = { t: secret, at: now };
      changed = true;
    }
  }
  for (const code of data.forget || []) {
    if (code in mine) { delete mine[code]; changed = true; }
  }
  all[who] = mine;
  for (const [p, seats] of Object.entries(all)) {
    if (!seats || typeof seats !== "object") { delete all[p]; changed = true; continue; }
    for (const [code, seat] of Object.entries(seats)) {
      if (!CODE.test(code) || !seat || typeof seat.t !== "string" || !SECRET.test(seat.t)
          || !(now - seat.at < KEEP_DAYS * 864e5)) {
        delete seats[code]; changed = true;
      }
    }
    const newest = Object.keys(seats).sort((a, b) => seats[b].at - seats[a].at);
    for (const code of newest.slice(MOST)) { delete seats[code]; changed = true; }
    if (!Object.keys(seats).length) delete all[p];
  }
  if (changed && ok) {
    try { window.localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { ok = false; }
  }
  // What the tablet truly keeps now (read back: a full or blocked storage kept nothing).
  const kept = {};
  const stored = readAll()[0][who] || {};
  for (const [code, seat] of Object.entries(stored)) {
    if (seat && typeof seat.t === "string") kept[code] = seat.t;
  }
  const codes = Object.keys(kept).sort();
  const known = Array.isArray(data.known) ? [...data.known].sort() : null;
  const asked = Object.keys(data.save || {}).length + (data.forget || []).length > 0;
  if (!asked && known !== null && JSON.stringify(codes) === JSON.stringify(known)) return;
  setStateValue("seats", { profile: data.profile, seats: kept, ok, at: now });
}
"""

_JS = (_JS.replace("@ALPHABET@", CODE_ALPHABET).replace("@LENGTH@", str(CODE_LENGTH))
       .replace("@SECRET@", TOKEN_PATTERN.pattern))
_KEEPER = st.components.v2.component("escoba_seat_keeper", html="", js=_JS,
                                     isolate_styles=False)


def _state(key: str) -> dict:
    return st.session_state.setdefault(key, {})


def held_seats(profile_id: int) -> dict[str, str]:
    """The seats this tablet (and this session) holds for ``profile_id``: code -> secret."""
    return {code: token for (pid, code), token in _state(KEY_TICKETS).items()
            if pid == profile_id}


def tablet_has_read(profile_id: int) -> bool:
    """Whether the tablet has said which seats it keeps for ``profile_id`` in this
    session (until then, "not on this tablet" may not be true yet)."""
    return profile_id in _state(KEY_READ)


def remember_seat(profile_id: int, code: str, token: str) -> None:
    """A seat this session opened, joined or came back to: kept on the tablet too."""
    _state(KEY_TICKETS)[(profile_id, code)] = token
    if not kept_on_tablet(profile_id, code, token):
        _state(KEY_SAVE)[(profile_id, code)] = token
    _state(KEY_FORGET).pop((profile_id, code), None)


def forget_seat(profile_id: int, code: str) -> None:
    """The child is done with table ``code`` (left it, the game over, a dead secret): the
    tablet forgets the seat."""
    _state(KEY_TICKETS).pop((profile_id, code), None)
    _state(KEY_SAVE).pop((profile_id, code), None)
    if code in _state(KEY_READ).get(profile_id, {}):
        _state(KEY_FORGET)[(profile_id, code)] = True


def kept_on_tablet(profile_id: int, code: str, token: str) -> bool:
    """Whether the tablet said it keeps exactly this seat: then the secret need not stay
    in the address bar (a reload finds it on the tablet)."""
    return _state(KEY_READ).get(profile_id, {}).get(code) == token


@safe_callback
def _on_answer() -> None:
    """The tablet's answer: which seats it keeps for the child signed in."""
    flash_again()  # the tablet's answer is no tap: a message on screen stays
    state = st.session_state.get(KEY_COMPONENT)
    answer = state.get("seats") if hasattr(state, "get") else None
    profile_id = chosen_profile_id()
    if not isinstance(answer, dict) or profile_id is None or answer.get("profile") != profile_id:
        return  # another child's answer (a switch on a shared tablet), or nothing usable
    seats = answer.get("seats")
    seats = seats if isinstance(seats, dict) else {}
    kept: dict[str, str] = {}
    for code, token in list(seats.items())[:_MOST]:
        normal = normalise_table_code(code)
        if normal is not None and normal == code and isinstance(token, str) \
                and _TOKEN.fullmatch(token):
            kept[normal] = token
    _state(KEY_READ)[profile_id] = kept
    tickets = _state(KEY_TICKETS)
    tickets.update({(profile_id, code): token for code, token in kept.items()})
    # Done once the tablet says so; a tablet that cannot keep anything (ok false), or
    # still does not after a few answers, is not asked again: the secret then stays in
    # the tab's address, as before issue 31.
    ok = answer.get("ok") is True
    tries = _state(KEY_TRIES)
    for pair, token in list(_state(KEY_SAVE).items()):
        if pair[0] == profile_id and _settled(pair, kept.get(pair[1]) == token, ok, tries):
            _state(KEY_SAVE).pop(pair, None)
    for pair in list(_state(KEY_FORGET)):
        if pair[0] == profile_id and _settled(pair, pair[1] not in kept, ok, tries):
            _state(KEY_FORGET).pop(pair, None)


def _settled(pair: tuple[int, str], done: bool, ok: bool, tries: dict) -> bool:
    """Whether a keep or forget asked of the tablet is over: done, impossible, or tried
    :data:`_TRIES` times (never an endless exchange of answers and reruns)."""
    tries[pair] = tries.get(pair, 0) + 1
    if done or not ok or tries[pair] >= _TRIES:
        tries.pop(pair, None)
        return True
    return False


def keep_seats(profile_id: int) -> None:
    """Mount the keeper for the child signed in (in the sidebar: it draws nothing). Call
    it after the page has decided what to keep or forget in this run."""
    read = _state(KEY_READ).get(profile_id)
    kept = read or {}
    # Only what is still to do (what the tablet said it keeps is not sent again).
    save = {code: token for (pid, code), token in _state(KEY_SAVE).items()
            if pid == profile_id and kept.get(code) != token}
    forget = [code for (pid, code) in _state(KEY_FORGET) if pid == profile_id and code in kept]
    data = {"profile": profile_id, "known": sorted(read) if read is not None else None,
            "save": save, "forget": forget}
    with st.sidebar:
        _KEEPER(key=KEY_COMPONENT, data=data, on_seats_change=_on_answer,
                width="content", height="content")
