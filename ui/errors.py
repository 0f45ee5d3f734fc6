"""The error boundary every piece of the app runs inside: no traceback reaches a child.

Streamlit shows an exception with its own box (English, a traceback, links to
search engines) whenever one escapes a page, a fragment or a widget callback.
A fragment rerun (a tap on the Play board) and a callback run outside
``app.py``'s boundary, so each of them wraps its body here:

- :func:`friendly_errors` -- a ``with`` block (app.py around the page);
- :func:`friendly` -- the same as a decorator (under ``@st.fragment``);
- :func:`friendly_fragment` -- the app's only ``st.fragment``: each run sets the run's
  language, then runs its body as :func:`friendly` does;
- :func:`safe_callback` -- for ``on_click``/``on_change``: the message waits for
  the next run (a callback cannot draw), :func:`show_error_flash` shows it.

Each logs the traceback and shows one kind, translated sentence. Storage trouble is
no bug and is told as it is (trainer.storage.trouble): a database that cannot be
written now says "We can't save right now — ask a grown-up" (nothing is claimed
saved) with a way to try again; a damaged one shows a grown-up's page (what happened,
that a backup can be restored, the log's line), never the Oops box.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, overload

import streamlit as st

from trainer.i18n import t
from trainer.storage.trouble import DAMAGED, UNAVAILABLE, storage_trouble, trouble_line
from ui.i18n import start_run
from ui.ticker import look_again_every, page_was_blank

__all__ = ["friendly_errors", "friendly", "friendly_fragment", "safe_callback",
           "show_error_flash", "show_storage_unavailable", "show_storage_damaged",
           "say_trouble", "drop_error_flash", "note_activity"]

log = logging.getLogger("escoba.app")
F = TypeVar("F", bound=Callable[..., Any])
_ERROR_FLAG = "friendly_error_pending"


def say_sorry() -> None:
    st.error(t("error_friendly"), icon="🙈")


def _retry() -> None:
    """"Try again": a new run reads everything again from storage (nothing to undo:
    what could not be saved was never shown as done)."""


def show_storage_unavailable() -> None:
    """Nothing could be saved: said so, and a way to try again once storage is back."""
    with st.container(border=True, key=f"storage_trouble_{_next_id()}"):
        st.error(t("storage_unavailable"), icon="💾")
        st.button(t("storage_retry"), key=f"storage_retry_{_next_id()}", on_click=_retry,
                  type="primary")


def show_storage_damaged(line: str) -> None:
    """A grown-up's page: the database is damaged; what happened, how a backup is
    restored, and the log's line (the driver's message only: no data)."""
    st.error(t("storage_damaged_title"), icon="🛠️")
    st.markdown(t("storage_damaged_body"))
    st.caption(t("storage_damaged_log"))
    st.code(line, language=None)


def _next_id() -> int:
    """A fresh widget key suffix within one run (the box may be drawn twice)."""
    count = int(st.session_state.get("_storage_box_count", 0)) + 1
    st.session_state["_storage_box_count"] = count
    return count


def say_trouble(exc: BaseException) -> bool:
    """Tell a storage trouble as it is; False when ``exc`` is none (then say sorry)."""
    kind = storage_trouble(exc)
    if kind == DAMAGED:
        line = trouble_line(exc)
        log.error("the database is damaged: %s", line)
        show_storage_damaged(line)
        return True
    if kind == UNAVAILABLE:
        log.warning("storage unavailable: %s", trouble_line(exc))
        show_storage_unavailable()
        return True
    return False


@contextmanager
def friendly_errors() -> Iterator[None]:
    """No traceback ever reaches a child: log it, show a kind sentence instead.

    ``st.rerun`` and ``st.stop`` are not errors (they are BaseExceptions) and pass.
    A damaged database stops the run after its grown-up's page (every part of the
    page would only fail again).
    """
    try:
        yield
    except Exception as exc:
        log.exception("unexpected error on a page")
        if _class_gone():
            st.rerun()  # the next run says why the pupil was signed out, and nothing else
        if not say_trouble(exc):
            say_sorry()
        elif storage_trouble(exc) == DAMAGED:
            st.stop()


def friendly(fn: F) -> F:
    """Run ``fn`` inside :func:`friendly_errors` (put it *under* ``@st.fragment``)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with friendly_errors():
            return fn(*args, **kwargs)
        return None

    return wrapper  # type: ignore[return-value]


@overload
def friendly_fragment(fn: F, /) -> F: ...
@overload
def friendly_fragment(*, run_every: float | None = None) -> Callable[[F], F]: ...


def friendly_fragment(fn: F | None = None, /, *,
                      run_every: float | None = None) -> F | Callable[[F], F]:
    """The app's one way to make an ``st.fragment`` (``@friendly_fragment`` or
    ``@friendly_fragment(run_every=seconds)``): every run of it, the first inside the
    page's run and each rerun of it alone (a tap in it, its timer), first sets the run's
    language (:func:`ui.i18n.start_run`: a fragment's rerun does not pass through
    ``app.py``, and a timer's starts on a script thread of its own, where the language
    is not set yet) and then runs inside the friendly boundary.

    ``run_every`` is kept by the page, not by Streamlit's own fragment timer
    (:mod:`ui.ticker`): the part looks again every ``run_every`` seconds once no run is
    under way and nobody has touched the page for a moment. Streamlit's timer, landing
    just behind a tap's run, could lose the tap's answer on the screen. The timer's key
    is the function's name: a timed part is drawn once on a page.

    ``tests/test_layers.py`` fails on a bare ``st.fragment`` anywhere else: the class's
    open tables, a bare ``run_every`` fragment, went English after the first tick.

    Each call in a page's run sits in a plain container of its own (:func:`_fenced`):
    Streamlit 1.67 can drop a fragment's block from the page's run when the fragment's
    own run starts before that run reached the browser, and the browser then takes the
    block out and moves every later element of the page up one place. Left bare, a
    table's half-second poller did this: the next run drew the game's board one place
    lower and the old board stayed above it, for good (tests/test_browser_tables.py).
    Fenced, only the fragment's own block moves, inside its fence."""

    def make(body: F) -> F:
        # Its timer's key: one word per part (a component's key has no "__" in it).
        name = f"{body.__module__}.{body.__qualname__}"
        timer_key = "look-" + re.sub(r"[^A-Za-z0-9]+", "-", name)

        @functools.wraps(body)
        def each_run(*args: Any, **kwargs: Any) -> Any:
            start_run()
            if run_every is None:  # only a tap reruns it: a pupil's tablet is in use
                note_activity()
            result = None
            with friendly_errors():
                result = body(*args, **kwargs)
            # Its timer last, out of the page's flow (a part's first element is its own).
            # A part that failed keeps it; one that reran the page (st.rerun) gets it from
            # the run that follows; one that stopped the page (a damaged database: the
            # page says so) has none until the page is opened again.
            if run_every is not None:
                look_again_every(run_every, key=timer_key)
                if page_was_blank():  # the page came blank: drawn again (ticker.js)
                    st.rerun(scope="app")
            return result

        return _fenced(st.fragment(each_run))  # type: ignore[return-value]

    return make(fn) if fn is not None else make


def _fenced(fragment: Callable[..., Any]) -> Callable[..., Any]:
    """``fragment`` called inside a container of its own. The container belongs to the
    page's run, never to the fragment, so Streamlit keeps it whatever the fragment's
    runs do; the fragment's reruns write back into it (where its first call stood)."""

    @functools.wraps(fragment)
    def call(*args: Any, **kwargs: Any) -> Any:
        with st.container():
            return fragment(*args, **kwargs)

    return call


def safe_callback(fn: F) -> F:
    """Widget callbacks run outside every page's boundary: catch, log, be kind later."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            start_run()  # callbacks run before app.py fixes this run's language
            return fn(*args, **kwargs)
        except Exception as exc:
            log.exception("error in %s", fn.__name__)
            kind = storage_trouble(exc)
            flag: Any = True if kind is None else (kind, trouble_line(exc))
            with contextlib.suppress(Exception):  # no session: a unit test's direct call
                st.session_state[_ERROR_FLAG] = flag
            return None

    return wrapper  # type: ignore[return-value]


def drop_error_flash() -> None:
    """Forget a callback's failure (its cause was told another way)."""
    st.session_state.pop(_ERROR_FLAG, None)


#: What ui.pupil_guard answers for this module (issue 27). It builds on this module, so it
#: hands its two checks over when it is imported (app.py imports it on every run) instead of
#: being imported from here: no import cycle. Without it both checks are off.
_PUPIL_HOOKS: dict[str, Callable[[], Any]] = {}


def set_pupil_hooks(*, class_gone: Callable[[], bool], activity: Callable[[], None]) -> None:
    """``class_gone``: whether this session's pupil has just lost their class (and is told
    so); ``activity``: a tap inside a fragment counts against the idle sign-out."""
    _PUPIL_HOOKS.update(class_gone=class_gone, activity=activity)


def _class_gone() -> bool:
    """Whether this session's pupil has just lost their class (deleted, archived, the
    pupil removed): then a failure came from that, and the child is told that (issue 27:
    "Your game is saved" was said when nothing was, the profile gone with the class)."""
    check = _PUPIL_HOOKS.get("class_gone")
    if check is None:
        return False
    try:
        return bool(check())
    except Exception:  # no database, no session: the usual "sorry"
        log.exception("could not check the pupil's class")
        return False


def note_activity() -> None:
    """A pupil's tap that ran a fragment only (the idle sign-out starts again): nothing
    for anyone else. A timer's run must not call it."""
    if (noted := _PUPIL_HOOKS.get("activity")) is not None:
        noted()


def show_error_flash() -> None:
    """The friendly message of a callback that failed, once (app.py and the fragments)."""
    flag = st.session_state.pop(_ERROR_FLAG, False)
    if flag and _class_gone():
        st.rerun()
    if isinstance(flag, tuple) and flag[0] == DAMAGED:
        show_storage_damaged(flag[1])
    elif isinstance(flag, tuple) and flag[0] == UNAVAILABLE:
        show_storage_unavailable()
    elif flag:
        say_sorry()
