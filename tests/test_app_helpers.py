"""Helpers (no tests here) to drive the app with AppTest: profile, game, moves."""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from escoba import Card, Move
from ui.board_component import KEY_FALLBACK_OPEN

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def new_app(locale: str = "en-US", query: dict[str, str] | None = None) -> AppTest:
    """The app in AppTest, which runs no JavaScript: no board ever says it drew, so a
    child here plays with the text choosers, their section opened once as a child opens
    it (ui.board_component.fallback_choosers)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.context = {"locale": locale, "timezone": "Europe/Madrid"}
    at.session_state[KEY_FALLBACK_OPEN] = True
    if query:
        at.query_params.update(query)
    return at.run()


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    # No traceback text reaches the screen, even inside our friendly boxes.
    for err in at.error:
        assert "Traceback" not in err.value


def create_profile(at: AppTest, nickname: str = "Ana") -> AppTest:
    at.text_input(key="new_nickname").input(nickname)
    submit = next(b for b in at.button if b.key and b.key.startswith("FormSubmitter:"))
    submit.click().run()
    assert_ok(at)
    # A new child goes straight into lesson 1, level 1 (issue 23); back on "Who's
    # playing?" as a parent's "Skip: I know the game" does.
    if "first_run_onboarding" in at.session_state:
        at.switch_page("app_pages/profiles.py").run()
        assert_ok(at)
    return at


def start_game(at: AppTest, **choices: Any) -> AppTest:
    """Open Play and start a game; ``choices`` are new-game widget keys and values."""
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    for key, value in choices.items():
        set_widget(at, key, value)
        at.run()
    at.button(key="start_game").click().run()
    assert_ok(at)
    return at


def reopen_after_restart(at: AppTest, page: str = "app_pages/play.py") -> AppTest:
    """The same child's ``page`` after a restart: new process state (caches gone), a new
    browser session, the same URL (its profile)."""
    import streamlit as st

    profile_id = at.query_params["p"]
    profile_id = profile_id[0] if isinstance(profile_id, list) else profile_id
    st.cache_resource.clear()
    st.cache_data.clear()
    again = new_app(query={"p": str(profile_id)})
    again.switch_page(page).run()
    assert_ok(again)
    return again


def set_widget(at: AppTest, key: str, value: Any) -> None:
    for kind in ("selectbox", "toggle", "segmented_control", "pills", "text_input", "checkbox"):
        widgets = [w for w in getattr(at, kind) if w.key == key]
        if widgets:
            widgets[0].set_value(value)
            return
    raise KeyError(key)


def game(at: AppTest) -> Any:
    return at.session_state["game_session"]


def choose(at: AppTest, move: Move) -> AppTest:
    at.pills(key="pick_hand").set_value(str(move.card)).run()
    if move.take:
        at.pills(key="pick_table").set_value([str(c) for c in move.take]).run()
    return at


def play(at: AppTest, move: Move) -> AppTest:
    choose(at, move)
    at.button(key="play_button").click().run()
    assert_ok(at)
    return at


def play_round_by_clicking(at: AppTest, rng: random.Random, max_moves: int = 200) -> AppTest:
    """Click legal moves (as a child would) until the score table appears."""
    for _ in range(max_moves):
        keys = {b.key for b in at.button}
        if "next_round" in keys or "new_game_after" in keys:
            return at
        if "bot_step" in keys:
            at.button(key="bot_step").click().run()
            assert_ok(at)
            continue
        reveal = [k for k in keys if k and k.startswith("reveal_")]
        if reveal:
            at.button(key=reveal[0]).click().run()
            continue
        g = game(at)
        obs = g.observation(g.to_move)
        play(at, rng.choice(obs.legal_moves()))
    raise AssertionError("the round did not end")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def component_data(at: AppTest, name: str, key: str | None = None) -> dict[str, Any] | None:
    """The data the browser component ``name`` (with ``key``) was sent in the last run:
    AppTest runs no JavaScript, so tests read what the component would draw or say."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if getattr(proto, "component_name", "") == name and (
                key is None or str(getattr(proto, "id", "")).endswith(f"-{key}")):
            found.append(json.loads(proto.json))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found[-1] if found else None


def board_data(at: AppTest, key: str | None = None) -> dict[str, Any] | None:
    """The data the tappable board was sent in the last run."""
    return component_data(at, "escoba_board", key)


def board_text(at: AppTest) -> str:
    """Every string of the board's data and of the page's HTML elements (what the child
    reads on the board, in any language)."""
    data = board_data(at)
    return " ".join([*(e.proto.body for e in at.get("html")),
                     *(_strings(data) if data else [])])


_DATA_URI = re.compile(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")


def everything_sent(at: AppTest) -> str:
    """All the text of every element sent to the browser, SVG data URIs decoded; not a
    component's code (its script and style are no words on the page)."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            shown = proto
            if getattr(proto, "js_content", "") or getattr(proto, "css_content", ""):
                shown = type(proto)()
                shown.CopyFrom(proto)
                shown.ClearField("js_content")
                shown.ClearField("css_content")
            parts.append(str(shown))
            if getattr(proto, "component_name", "") and getattr(proto, "json", ""):
                # A component's data, as the browser gets it, and every string in it.
                parts.append(proto.json)
                parts.extend(_strings(json.loads(proto.json)))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    text = "\n".join(parts)
    decoded = [base64.b64decode(m).decode("utf-8", "replace") for m in _DATA_URI.findall(text)]
    return text + "\n".join(decoded)


def card_marks(card: Card) -> list[str]:
    """Ways a card could show up in the page: its code on an image, its names."""
    from escoba import Deck

    return [f'data-card=\\"{card}\\"', f'data-card="{card}"',
            *{card.name(d) for d in Deck}]


def wrong_choice(at: AppTest, rng: random.Random) -> tuple[Card, Card]:
    """Play on until the child holds a card that, with one table card, misses 15."""
    for _ in range(60):
        g = game(at)
        obs = g.observation(g.to_move)
        for card in obs.hand:
            wrong = [c for c in obs.table if c.value + card.value != 15
                     and not c.is_joker and not card.is_joker]
            if wrong:
                return card, wrong[0]
        play(at, rng.choice(obs.legal_moves()))
        if game(at).round_over:
            at.button(key="next_round").click().run()
    raise AssertionError("no wrong choice found")
