"""Spoken words and sounds on screen (issue 23): what the board says, and its settings.

The words are :mod:`trainer.speech`'s (the same catalog messages as the visible text,
said the way a voice needs them); the browser speaks them with its own voices and makes
the sounds (``ui/board_assets/voice.js``). This module adds the ``speech`` part of a
board's data (:func:`board_speech`, :func:`lesson_speech`) and keeps the two settings:

- ``read_aloud``: a lesson and a puzzle read their goal (and what a try did) aloud by
  themselves. Quick facts do not read their questions (their answers are timed); they
  say a wrong answer's correction and the round's end, and the voice's time is taken
  off the next answer's (ui/board_assets/quick_round.js). On for
  a profile made on this device; for a pupil of a class the teacher decides (quiet
  unless the teacher turned it on).
- ``sound``: the mute switch (Settings and the board): off, nothing is said or played by
  itself and the speaker buttons go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from escoba import Deck
from trainer.i18n import t
from trainer.lessons import Message
from trainer.speech import lang_tag, speakable, spoken_message

from .assets import asset_text
from .errors import safe_callback
from .i18n import current_language
from .session import (
    DEFAULT_SETTINGS,
    current_profile,
    deck_of,
    settings,
    storage,
    update_setting,
)

__all__ = ["VoiceSettings", "voice_settings", "save_sound", "board_speech", "lesson_speech",
           "show_voice_settings", "speaker_button", "said_speaker", "VOICE_DEFAULTS",
           "who_is_playing_said"]

_SPEAKER = st.components.v2.component(
    "escoba_speaker", html="",
    css=asset_text("voice.css"),
    js=asset_text("voice.js", "speaker.js"),
    isolate_styles=False)  # its styles are scoped by class; the board stays the first isolated

#: A profile's voice settings when it never changed them (a pupil's are the class's).
VOICE_DEFAULTS: dict[str, bool] = {name: bool(DEFAULT_SETTINGS[name])
                                   for name in ("read_aloud", "sound")}
#: Session key: the last lesson message list seen, and how many there were (a new list
#: is a new thing to say and maybe a sound to play: its number is the cue's id).
_SAID_SEEN = "speech_said_seen"
_PUPIL = "speech_pupil_of"


@dataclass(frozen=True)
class VoiceSettings:
    read_aloud: bool
    sound: bool


def _pupil_class_voice(profile_id: int) -> bool | None:
    """For a pupil: whether the teacher lets the class hear (None: not a pupil). Read
    once per profile and session (a query; the teacher's change shows at the next sign-in)."""
    cached = st.session_state.get(_PUPIL)
    if cached is not None and cached[0] == profile_id:
        return cached[1]
    member = storage().membership(profile_id)
    voice: bool | None = None
    if member is not None:
        info = storage().get_class(member.class_id)
        voice = bool(info.voice) if info is not None else False
    st.session_state[_PUPIL] = (profile_id, voice)
    return voice


def voice_settings() -> VoiceSettings:
    """This session's voice settings: the profile's, within the class's for a pupil."""
    current = settings()
    read_aloud = bool(current.get("read_aloud", VOICE_DEFAULTS["read_aloud"]))
    sound = bool(current.get("sound", VOICE_DEFAULTS["sound"]))
    profile = current_profile()
    if profile is not None:
        class_voice = _pupil_class_voice(profile.id)
        if class_voice is not None and not class_voice:
            return VoiceSettings(read_aloud=False, sound=False)  # the teacher's quiet
    return VoiceSettings(read_aloud=read_aloud, sound=sound)


def save_sound(on: bool) -> None:
    """The mute switch was tapped (on the board or in Settings): keep it in the profile."""
    update_setting("sound", bool(on))


def _is_quiet_pupil() -> bool:
    profile = current_profile()
    return profile is not None and _pupil_class_voice(profile.id) is False


@safe_callback
def _voice_changed(name: str) -> None:
    update_setting(name, bool(st.session_state[f"set_{name}"]))


def show_voice_settings() -> None:
    """Settings: "Read goals aloud" and "Sounds" (the same switch as the board's); for a
    pupil whose teacher keeps the class quiet, both shown off and fixed."""
    quiet = _is_quiet_pupil()
    current = voice_settings()
    for name in ("read_aloud", "sound"):
        st.session_state[f"set_{name}"] = bool(getattr(current, name))
        st.toggle(t(f"setting_{name}"), key=f"set_{name}", on_change=_voice_changed,
                  args=(name,), disabled=quiet,
                  help=t("speech.class_quiet") if quiet else t(f"setting_{name}_help"))


def _texts() -> dict[str, str]:
    return {"listen": t("speech.listen"), "no_voice": t("speech.no_voice"),
            "sound_on": t("speech.sound_on"), "sound_off": t("speech.sound_off")}


def board_speech(data: dict[str, Any], *, goal: str | None = None, goal_key: str | None = None,
                 feedback: str | None = None, feedback_key: str | None = None,
                 cue: dict[str, str] | None = None, deck: Deck | None = None
                 ) -> dict[str, Any]:
    """Add what the board may say and play to its ``data`` (and return it).

    Every "what just happened" line and the score line get a speaker button; ``goal``
    gets one and, with ``read_aloud``, is read by itself once per ``goal_key``, after
    ``feedback`` (once per ``feedback_key``). ``cue``: ``{"id", "sound"}``, a sound played
    once (``star``, ``wrong``); captures, escobas and deals sound by themselves.
    ``deck``: the one the board was drawn with (a Scopa game's Italian cards).
    """
    lang, deck = current_language(), deck or deck_of()
    voice = voice_settings()
    header = data.get("header")
    spoken_header = None
    if header:
        sides = ", ".join(f"{s['name']} {s['points']}" for s in header.get("sides", []))
        said = f"{header.get('round', '')}. {sides}."
        if data.get("kind") == "game" and data.get("interactive"):
            # The child's turn: what to do first, after the score (Play's board has no
            # goal line to hear; found trying Play as a 7-year-old who reads slowly).
            said = f"{said} {t('board_pick_card', lang)}"
        spoken_header = speakable(said, lang, deck)
    data["speech"] = {
        "lang": lang_tag(lang), "auto": voice.read_aloud, "sound": voice.sound,
        "goal": goal, "goal_key": goal_key, "feedback": feedback, "feedback_key": feedback_key,
        "events": [speakable(e["line"], lang, deck) for e in data.get("events", [])],
        "header": spoken_header, "cue": cue, "texts": _texts(),
    }
    return data


def speaker_button(text: str, *, key: str) -> None:
    """A 🔊 that says ``text`` (already speakable) when tapped; nothing while muted."""
    voice = voice_settings()
    if not text or not voice.sound:
        return
    _SPEAKER(key=key, data={"text": text, "lang": lang_tag(current_language()),
                            "label": t("speech.listen"), "sound": voice.sound},
             width="content", height="content")


def who_is_playing_said(nicknames: Sequence[str], in_a_class: bool) -> str:
    """What "Who's playing?" says on its 🔊: the question, the names to tap (as typed:
    nicknames are not markup here), where a class's pupils sign in, how a new player
    starts."""
    parts = [t("profiles_title")]
    if nicknames:
        parts.append(f"{t('pick_profile')}: {', '.join(nicknames)}.")
    if in_a_class:
        parts.append(f"{t('go_my_class')}.")
    parts.append(t("speech.who_new", button=t("create_profile")))
    return speakable(" ".join(parts), current_language(), deck_of())


def said_speaker(said: Sequence[tuple[str, Message]] | None, *, key: str,
                 deck: Deck | None = None) -> None:
    """The speaker button of a lesson's messages (what the last try did); ``deck``: the
    one the level is drawn in (a Scopa level's Italian cards)."""
    if said:
        speaker_button(_spoken_said(said, current_language(), deck or deck_of()), key=key)


def _spoken_said(said: Sequence[tuple[str, Message]], lang: str, deck: Deck) -> str:
    parts: list[str] = []
    for kind, message in said:
        if kind == "stars":
            stars = int(message.params.get("stars", 0))
            parts.append(speakable(t("speech.stars", lang, count=stars), lang, deck))
        parts.append(spoken_message(message, lang, deck))
    return " ".join(p for p in parts if p)


def lesson_speech(data: dict[str, Any], view: Any,
                  said: Iterable[tuple[str, Message]] | None,
                  deck: Deck | None = None) -> dict[str, Any]:
    """A lesson board's speech: its goal (read by itself when the level or step starts),
    what the last try did (read by itself too), a star's or a wrong sum's sound; its cards
    named in ``deck``, the one the board is drawn in."""
    lang, deck = current_language(), deck or deck_of()
    said = list(said or [])
    seen = st.session_state.get(_SAID_SEEN)
    raw = st.session_state.get("lesson_said")
    number = seen[1] if seen else 0
    if seen is None or seen[0] is not raw:
        number += 1
        st.session_state[_SAID_SEEN] = (raw, number)
    kinds = {kind for kind, _ in said}
    sound = "star" if "stars" in kinds else "wrong" if "error" in kinds else None
    return board_speech(
        data, goal=spoken_message(view.goal, lang, deck),
        goal_key=f"goal:{view.stage}:{view.level}:{view.step_index}",
        feedback=_spoken_said(said, lang, deck) or None, feedback_key=f"said:{number}",
        cue={"id": f"cue:{number}", "sound": sound} if sound and said else None, deck=deck)
