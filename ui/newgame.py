"""The "new game" form: the game (Escoba or Scopa), opponents (computer levels or children),
preset and every option."""

from __future__ import annotations

from typing import Any

import streamlit as st

from escoba import PRESETS, Rules, RulesError
from escoba.rules import (
    ALL_PRESETS,
    CAPTURE_RULES,
    CAPTURE_SUMS,
    INITIAL_FIFTEEN,
    MISCOUNT,
    SCOPA_TARGETS,
    VARIANT_NAMES,
)
from trainer.gameplay import GameSession, SeatSpec, bot_avatar, bot_levels
from trainer.i18n import t
from trainer.just_right import LEVEL as JUST_RIGHT
from trainer.just_right import JustRightSummary
from trainer.names import clean_name, name_problem
from ui.i18n import labels

from .errors import safe_callback
from .session import flash, new_seed, set_game, settings, storage

__all__ = ["show_new_game_form", "build_rules", "show_game_choice", "game_title_key",
           "ESCOBA_PRESETS", "SCOPA_PRESETS"]

TARGETS = [15, 21, 31]
#: The presets of each game, as the engine's presets name their variant.
ESCOBA_PRESETS = [n for n, p in ALL_PRESETS.items()
                  if p.extra.get("variant", "escoba") == "escoba"]
SCOPA_PRESETS = [n for n, p in ALL_PRESETS.items() if p.extra.get("variant") == "scopa"]


def game_title_key(variant: str) -> str:
    """The Play page's heading for a game: "Escoba de quince" or "Scopa"."""
    return "play_title_scopa" if variant == "scopa" else "play_title"


def _preset_defaults(name: str) -> dict[str, Any]:
    p = PRESETS[name]
    return {"ng_target": p.target, "ng_capture_rule": p.capture_rule,
            "ng_initial": p.initial_fifteen, "ng_last_escoba": p.last_play_escoba}


@safe_callback
def _on_preset() -> None:
    st.session_state.update(_preset_defaults(st.session_state["ng_preset"]))


def _init_state() -> None:
    defaults: dict[str, Any] = {"ng_game": "escoba", "ng_scopa_preset": "scopa",
                                "ng_scopa_target": 11, "ng_napola": False, "ng_asso": False,
                                "ng_preset": "classic", "ng_opponents": 1, "ng_teams": False,
                                "ng_open": False, "ng_primera": False, "ng_hand7": False,
                                "ng_jokers": False, "ng_sum": 15, "ng_miscount": "retry"}
    defaults.update(_preset_defaults("classic"))
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


def build_rules(state: Any) -> Rules:
    """The Rules chosen in the form (``state``: session state or a dict). A choice the
    session lost (missing, or ``None``: a widget Streamlit reset while it was not drawn)
    is the preset's own, never an error page."""
    def chosen(key: str, default: Any) -> Any:
        value = state.get(key)
        return default if value is None else value

    players = 1 + int(chosen("ng_opponents", 1))
    if chosen("ng_game", "escoba") == "scopa":
        return _scopa_rules(state, players, chosen)
    preset = state.get("ng_preset") or "classic"
    if preset not in ESCOBA_PRESETS:
        preset = "classic"
    base = PRESETS[preset]
    return Rules.preset(
        preset, players=players,
        teams=bool(chosen("ng_teams", False)) and players == 4,
        target=int(chosen("ng_target", base.target)),
        capture_rule=chosen("ng_capture_rule", base.capture_rule),
        initial_fifteen=chosen("ng_initial", base.initial_fifteen),
        last_play_escoba=bool(chosen("ng_last_escoba", base.last_play_escoba)),
        primera=bool(chosen("ng_primera", False)),
        hand_size=7 if chosen("ng_hand7", False) else 3,
        jokers=bool(chosen("ng_jokers", False)),
        capture_sum=int(chosen("ng_sum", 15)),
        miscount=chosen("ng_miscount", "retry"), open_hand=bool(chosen("ng_open", False)))


def _scopa_rules(state: Any, players: int, chosen: Any) -> Rules:
    """Scopa's rules from the form: its preset (Scopone only for four), target and options;
    Escoba's "more rules" are not Scopa's and are left out."""
    preset = chosen("ng_scopa_preset", "scopa") if players == 4 else "scopa"
    if preset not in SCOPA_PRESETS:
        preset = "scopa"
    # The scopone presets are team games; plain Scopa for four has teams as chosen.
    teams = players == 4 and (preset != "scopa" or bool(chosen("ng_teams", False)))
    target = int(chosen("ng_scopa_target", 11))
    return Rules.preset(preset, players=players, teams=teams,
                        target=target if target in SCOPA_TARGETS else 11,
                        napola=bool(chosen("ng_napola", False)),
                        asso_piglia_tutto=bool(chosen("ng_asso", False)),
                        open_hand=bool(chosen("ng_open", False)))


def _just_right(profile: Any) -> JustRightSummary:
    from .practice import data_version, just_right_of, today

    return just_right_of(data_version(profile.id), today())


def _seats(profile: Any, players: int) -> list[SeatSpec]:
    seats = [SeatSpec("human", profile.nickname, profile.avatar)]
    for i in range(1, players):
        if st.session_state.get(f"ng_kind_{i}", "bot") == "human":
            name = clean_name(st.session_state.get(f"ng_name_{i}") or "", 20)
            seats.append(SeatSpec("human", name or t("player_n", n=i + 1), "🙂"))
        else:
            level = st.session_state.get(f"ng_level_{i}") or bot_levels()[0]
            # "Just right" plays at the child's own strength, kept in the seat.
            strength = _just_right(profile).strength if level == JUST_RIGHT else None
            seats.append(SeatSpec("bot", t("bot_name", n=i), bot_avatar(i), level,
                                  strength=strength))
    return seats


@safe_callback
def _start(profile: Any) -> None:
    try:
        rules = build_rules(st.session_state)
    except RulesError as exc:
        flash("warning", "rules_error", detail=str(exc))
        return
    for i in range(1, rules.players):
        if st.session_state.get(f"ng_kind_{i}", "bot") == "human":
            problem = name_problem(st.session_state.get(f"ng_name_{i}") or "")
            if problem is not None and problem[0] != "profile_empty":
                flash("warning", problem[0], **problem[1])
                return
    seats = _seats(profile, rules.players)
    game = GameSession.new(rules, seats, new_seed(), storage=storage(), profile_id=profile.id,
                           options={"deck": settings().get("deck")})
    if not settings().get("pause", False):
        game.run_bots()
    set_game(game)
    st.session_state["new_game_open"] = False
    for key in ("pick_hand", "pick_table", "revealed_seat"):
        st.session_state.pop(key, None)


def show_new_game_form(profile: Any) -> None:
    _init_state()
    st.subheader(t("new_game_title"))
    scopa = show_game_choice("ng")
    if not scopa:
        st.selectbox(t("preset"), ESCOBA_PRESETS, key="ng_preset", on_change=_on_preset,
                     format_func=labels("preset_"))
    st.segmented_control(t("opponents"), [1, 2, 3], key="ng_opponents", required=True)
    opponents = int(st.session_state["ng_opponents"] or 1)
    if scopa:
        show_scopa_options("ng", opponents + 1)
    # Scopone is always played in teams: the switch is for plain Scopa and Escoba.
    if opponents == 3 and not (scopa and st.session_state.get("ng_scopa_preset", "scopa")
                               != "scopa"):
        st.toggle(t("teams"), key="ng_teams", help=t("teams_help"))
    levels = bot_levels()
    # "Just right" is the first choice once the child has played a few games against
    # the computer (trainer.just_right.DEFAULT_AFTER_GAMES); a choice made stays.
    first_choice = _just_right(profile).default_level(levels)
    cols = st.columns(opponents)
    for i in range(1, opponents + 1):
        with cols[i - 1], st.container(border=True, key=f"ng_seat_box_{i}"):
            st.markdown(f"**{t('seat_n', n=i + 1)}**")
            st.segmented_control(t("who_plays"), ["bot", "human"], key=f"ng_kind_{i}",
                                 default="bot", required=True,
                                 format_func=labels("kind_"))
            if st.session_state.get(f"ng_kind_{i}") == "human":
                st.text_input(t("nickname"), key=f"ng_name_{i}",
                              placeholder=t("player_n", n=i + 1))
            else:
                st.session_state.setdefault(f"ng_level_{i}", first_choice)
                st.selectbox(t("level"), levels, key=f"ng_level_{i}",
                             format_func=labels("level_"))
    st.toggle(t("open_hand_scopa" if scopa else "open_hand"), key="ng_open",
              help=t("open_hand_help"))
    if not scopa:  # sums, jokers, miscounts and the rest are Escoba's options
        show_more_rules("ng", with_target=True)
    st.button(t("start_game"), key="start_game", type="primary", on_click=_start,
              args=(profile,), use_container_width=True)


def show_game_choice(prefix: str) -> bool:
    """Escoba or Scopa, under ``<prefix>_game``; True when Scopa is chosen."""
    st.session_state.setdefault(f"{prefix}_game", "escoba")
    st.segmented_control(t("ng_game"), list(VARIANT_NAMES), key=f"{prefix}_game",
                         required=True, format_func=labels("game_"))
    return st.session_state.get(f"{prefix}_game") == "scopa"


def show_scopa_options(prefix: str, players: int) -> None:
    """Scopa's own options under ``<prefix>_scopa_target``, ``<prefix>_scopa_preset`` (the
    scopone presets, four players only), ``<prefix>_napola`` and ``<prefix>_asso``."""
    for key, value in {"scopa_target": 11, "scopa_preset": "scopa", "napola": False,
                       "asso": False}.items():
        st.session_state.setdefault(f"{prefix}_{key}", value)
    if players == 4:
        st.selectbox(t("scopa_kind"), SCOPA_PRESETS, key=f"{prefix}_scopa_preset",
                     format_func=labels("preset_"))
    st.segmented_control(t("target"), list(SCOPA_TARGETS), key=f"{prefix}_scopa_target",
                         required=True)
    st.toggle(t("napola"), key=f"{prefix}_napola", help=t("napola_help"))
    st.toggle(t("asso_piglia_tutto"), key=f"{prefix}_asso", help=t("asso_piglia_tutto_help"))


def show_more_rules(prefix: str, *, with_target: bool = False) -> None:
    """The "more rules" expander, its widgets under ``<prefix>_sum``, ``<prefix>_capture_rule``
    and so on: the new-game form (``ng``) and a table's opening (``tb``) share it."""
    with st.expander(t("more_rules")):
        st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key=f"{prefix}_sum",
                             required=True, help=t("capture_sum_help"))
        if with_target:
            st.segmented_control(t("target"), TARGETS, key=f"{prefix}_target", required=True)
        st.selectbox(t("capture_rule"), list(CAPTURE_RULES), key=f"{prefix}_capture_rule",
                     format_func=labels("capture_rule_"))
        st.selectbox(t("miscount"), list(MISCOUNT), key=f"{prefix}_miscount",
                     format_func=labels("miscount_"))
        st.selectbox(t("initial_fifteen"), list(INITIAL_FIFTEEN), key=f"{prefix}_initial",
                     format_func=labels("initial_"))
        st.toggle(t("last_escoba"), key=f"{prefix}_last_escoba")
        st.toggle(t("primera"), key=f"{prefix}_primera", help=t("primera_help"))
        st.toggle(t("hand7"), key=f"{prefix}_hand7")
        st.toggle(t("jokers"), key=f"{prefix}_jokers", help=t("jokers_help"))
