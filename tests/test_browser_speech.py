"""Spoken words and sounds in the real browser (issue 23).

``speechSynthesis`` and ``AudioContext`` are replaced, before any page script runs, by
recorders (``_STUB_JS``): every utterance (its text, its ``lang``, whether the page had
been tapped) and every oscillator or noise started. The app's own voice.js is what runs.

- a lesson level's goal is read aloud in each of en, es, de, it, zh with the right ``lang``
  (a voice of that language);
- nothing is spoken or played before the first tap; the first tap reads the goal that
  was waiting; a speaker button says its text;
- the board's mute switch silences everything (no voice, no sound, no speaker buttons)
  and is kept in the profile;
- a device without a voice for the language says so once, and shows no speaker button;
- no voice or sound is fetched: every request stays on loopback.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from urllib.parse import urlparse

import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _wait_idle,
    browser_type_launch_args,
    server,
)
from trainer.i18n import t
from trainer.lessons import LessonRunner
from trainer.speech import speakable, spoken_message
from trainer.storage import Storage

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ALL_VOICES = ["en-GB", "es-ES", "de-DE", "it-IT", "zh-CN"]

_STUB_JS = """
(() => {
  const log = window.__speech = {spoken: [], cancels: 0, contexts: 0, started: 0};
  const voices = %s.map((lang) => ({lang, name: "Test " + lang, localService: true,
                                    default: false, voiceURI: "test-" + lang}));
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; this.rate = 1;
                        this.volume = 1; }
  };
  const synth = {
    speaking: false, pending: false, paused: false,
    getVoices() { return voices; },
    speak(u) {
      log.spoken.push({text: u.text, lang: u.lang, voice: u.voice ? u.voice.lang : null,
                       volume: u.volume,
                       tapped: navigator.userActivation ? navigator.userActivation.hasBeenActive
                                                        : null});
    },
    cancel() { log.cancels += 1; }, pause() {}, resume() {},
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
  const param = () => ({setValueAtTime() {}, exponentialRampToValueAtTime() {},
                        linearRampToValueAtTime() {}});
  const node = (extra) => Object.assign({connect(next) { return next; }}, extra);
  class FakeAudio {
    constructor() { log.contexts += 1; this.state = "running"; this.currentTime = 0;
                    this.sampleRate = 8000; this.destination = node(); }
    resume() { return Promise.resolve(); }
    createOscillator() { return node({type: "sine", frequency: param(),
                                      start() { log.started += 1; }, stop() {}}); }
    createGain() { return node({gain: param()}); }
    createBuffer(ch, n) { return {getChannelData: () => new Float32Array(n)}; }
    createBufferSource() { return node({start() { log.started += 1; }}); }
    createBiquadFilter() { return node({type: "", frequency: param()}); }
  }
  window.AudioContext = FakeAudio;
  window.webkitAudioContext = FakeAudio;
})();
"""

_LOG_JS = "() => window.__speech"
_PLAYED_JS = "() => (window.__escobaVoice && window.__escobaVoice.played) || []"


class _Requests:
    """Every request the page made, to check none leaves the machine."""

    def __init__(self, page) -> None:
        self.hosts: set[str] = set()
        page.on("request", self._seen)

    def _seen(self, request) -> None:
        address = request.url
        if address.startswith("data:"):
            return  # inline: the card pictures
        if address.startswith("blob:"):
            address = address[len("blob:"):]  # made by the page itself, named by its origin
        self.hosts.add(urlparse(address).hostname or address[:30])

    def outside(self) -> set[str]:
        return self.hosts - {"127.0.0.1", "localhost"}


@contextmanager
def _device(launch_args: dict, lang: str, voices: list[str], size=(1024, 768)):
    """A browser whose page speaks ``lang`` and whose speech and sound are recorders
    offering ``voices``: (context, page), closed on leaving."""
    from playwright.sync_api import sync_playwright

    locale = {"en": "en-US", "es": "es-ES", "de": "de-DE", "it": "it-IT", "zh": "zh-CN"}[lang]
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args)
        context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      locale=locale, device_scale_factor=1)
        context.add_init_script(script=_STUB_JS % json.dumps(voices))
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            yield context, page
        finally:
            context.close()
            browser.close()


def _start_lesson_one(page, url: str, profile: str, lang: str) -> None:
    """Lessons, then "New to Escoba? Start here!" tapped: lesson 1, level 1."""
    page.goto(f"{url}/lessons?p={profile}")
    page.get_by_role("button", name=t("ui.start_here", lang, domain="lessons")).click()


def _a_tap(runner: LessonRunner, right: bool):
    """A card of the runner's level whose tap is right (tapped on ``runner``, which goes
    on) or wrong (tried on a fresh runner: ``runner`` stays where it is)."""
    view = runner.view()
    if right:
        return next(c for c in (*view.hand, *view.table) if runner.tap(c).ok)
    return next(c for c in (*view.hand, *view.table) if not LessonRunner().tap(c).ok)


def _new_profile(page, url: str, name: str, lang: str, skip: bool = True) -> str:
    """Make a profile as a child does (typing, tapping); its id. A new child starts in
    lesson 1, level 1 (issue 23); ``skip``: the parent's skip leads back to the welcome."""
    page.goto(url)
    page.get_by_role("textbox", name=t("nickname", lang)).fill(name)
    page.get_by_role("button", name=t("create_profile", lang)).click()
    if skip:
        page.get_by_role("link", name=t("skip_lessons", lang)).click()
        page.get_by_text(t("profile_created", lang, name=name)).wait_for()
    else:
        page.locator(".eb-intro").wait_for()
    _wait_idle(page)
    found = re.search(r"[?&]p=(\d+)", page.url)
    assert found, page.url
    return found.group(1)


def _first_goal(lang: str) -> str:
    return spoken_message(LessonRunner().view().goal, lang)


def _spoken(page) -> list[dict]:
    return [u for u in page.evaluate(_LOG_JS)["spoken"] if u["text"]]


def _wait_spoken(page, text: str) -> None:
    page.wait_for_function(
        "(text) => window.__speech.spoken.some((u) => u.text === text)", arg=text,
        timeout=30_000)


def _start_here_by_script(page, lang: str) -> None:
    """Open lesson 1, level 1 with clicks the page's own script makes: no user gesture
    (the browser's user activation stays false, as on a page nobody has touched)."""
    label = t("ui.start_here", lang, domain="lessons")
    page.get_by_role("button", name=label).wait_for()
    page.evaluate("""(label) => {
      const b = [...document.querySelectorAll('button')].find((x) => x.innerText.includes(label));
      b.click();
    }""", label)
    page.locator(".eb-intro").wait_for()
    _wait_idle(page)


@pytest.mark.parametrize("lang", ["en", "es", "de", "it", "zh"])
def test_a_lesson_goal_is_read_aloud_in_the_childs_language(
        server, browser_type_launch_args, lang: str) -> None:  # noqa: F811
    url, _db = server
    with _device(browser_type_launch_args, lang, ALL_VOICES) as (context, page):
        requests = _Requests(page)
        profile = _new_profile(page, url, f"Voz{lang}", lang)
        _start_lesson_one(page, url, profile, lang)
        page.locator(".eb-intro").wait_for()
        goal = _first_goal(lang)
        _wait_spoken(page, goal)
        said = [u for u in _spoken(page) if u["text"] == goal]
        assert len(said) == 1, said  # once, not at every rerun
        assert said[0]["lang"].startswith(lang) and said[0]["voice"].startswith(lang)
        assert said[0]["tapped"] is True
        # The spoken goal is in words: no sign, no card code.
        assert "+" not in goal and "=" not in goal
        # Its speaker button says it again.
        page.locator(".eb-intro .eb-speak").click()
        page.wait_for_function(
            "(text) => window.__speech.spoken.filter((u) => u.text === text).length === 2",
            arg=goal)
        assert page.locator(".eb-intro .eb-speak").get_attribute("aria-label") == \
            t("speech.listen", lang)
        assert requests.outside() == set()


def test_nothing_is_heard_before_the_first_tap(server, browser_type_launch_args) -> None:  # noqa: F811
    url, _db = server
    with _device(browser_type_launch_args, "en", ALL_VOICES) as (context, page):
        requests = _Requests(page)
        profile = _new_profile(page, url, "Quiet", "en")
        # A fresh page nobody has touched (a new tab, a reload): the lesson opened by script.
        fresh = context.new_page()
        fresh.set_default_timeout(30_000)
        fresh.on("request", requests._seen)
        fresh.goto(f"{url}/lessons?p={profile}")
        _start_here_by_script(fresh, "en")
        fresh.wait_for_timeout(2000)  # the voices' list, a cue, a deal: time to misbehave
        assert fresh.evaluate("() => window.__escobaVoice.gesture") is False  # untouched
        log = fresh.evaluate(_LOG_JS)
        assert log["spoken"] == [] and log["contexts"] == 0 and log["started"] == 0
        assert fresh.evaluate(_PLAYED_JS) == []
        # The speaker button is there; the first tap anywhere reads the waiting goal.
        assert fresh.locator(".eb-intro .eb-speak").count() == 1
        fresh.locator(".eb-intro").click(position={"x": 200, "y": 10})
        goal = _first_goal("en")
        _wait_spoken(fresh, goal)
        assert fresh.evaluate(_LOG_JS)["contexts"] == 1  # sound unlocked by the same tap
        # A right tap: the level is done, a star sounds and the next goal is read.
        runner = LessonRunner()
        right = _a_tap(runner, right=True)
        fresh.locator(f'.eb-card[data-id="{right}"]').click()
        fresh.wait_for_function("() => window.__escobaVoice.played.includes('star')")
        _wait_spoken(fresh, spoken_message(runner.view().goal, "en"))
        assert fresh.evaluate(_LOG_JS)["started"] > 0
        assert requests.outside() == set()


def test_the_mute_switch_silences_everything(server, browser_type_launch_args) -> None:  # noqa: F811
    url, db = server
    with _device(browser_type_launch_args, "en", ALL_VOICES) as (context, page):
        requests = _Requests(page)
        profile = _new_profile(page, url, "Mute", "en")
        _start_lesson_one(page, url, profile, "en")
        _wait_spoken(page, _first_goal("en"))
        # A wrong tap: what it did is read aloud, and its speaker button says it again.
        runner = LessonRunner()
        wrong = _a_tap(runner, right=False)
        feedback = spoken_message(LessonRunner().tap(wrong).feedback, "en")
        page.locator(f'.eb-card[data-id="{wrong}"]').click()
        _wait_spoken(page, feedback)
        page.wait_for_function("() => window.__escobaVoice.played.includes('wrong')")
        page.locator(".st-key-lesson_said_speaker .eb-speak").click()  # what the tap did
        page.wait_for_function(
            "(text) => window.__speech.spoken.filter((u) => u.text === text).length === 2",
            arg=feedback)
        mute = page.locator(".eb-mute")
        assert mute.get_attribute("aria-label") == t("speech.sound_off", "en")
        mute.click()
        _wait_idle(page)
        page.locator('.eb-mute[aria-pressed="true"]').wait_for()
        assert mute.get_attribute("aria-label") == t("speech.sound_off", "en")  # a toggle
        assert page.locator(".eb-speak").count() == 0
        # Kept in the profile, like the switch in Settings.
        store = Storage(sa.create_engine(f"sqlite:///{db}"), migrate=False)
        assert store.get_profile(int(profile)).settings.get("sound") is False
        assert page.locator(".eb-speaker .eb-speak").count() == 0
        before = page.evaluate(_LOG_JS)
        played = len(page.evaluate(_PLAYED_JS))
        page.locator(f'.eb-card[data-id="{wrong}"]').click()  # a wrong tap: no sound
        _wait_idle(page)
        right = _a_tap(runner, right=True)
        page.locator(f'.eb-card[data-id="{right}"]').click()  # a star: no sound
        _wait_idle(page)
        page.wait_for_timeout(800)
        after = page.evaluate(_LOG_JS)
        assert [u for u in after["spoken"][len(before["spoken"]):] if u["text"]] == []
        assert after["started"] == before["started"]
        assert len(page.evaluate(_PLAYED_JS)) == played
        # The Settings page shows it off; on again, the board speaks.
        page.goto(f"{url}/settings?p={profile}")
        page.get_by_text(t("setting_sound", "en"), exact=True).wait_for()
        _wait_idle(page)
        page.screenshot(path="test-artifacts/23-settings-voice.png", full_page=True)
        toggle = page.locator(".st-key-set_sound input")
        assert not toggle.is_checked()
        assert page.locator(".st-key-set_read_aloud input").is_checked()
        assert requests.outside() == set()


def test_without_a_voice_for_the_language_the_speakers_say_so_once_and_hide(
        server, browser_type_launch_args) -> None:  # noqa: F811
    url, _db = server
    with _device(browser_type_launch_args, "zh", ["en-GB"]) as (context, page):
        # The first board this device shows (the first run's lesson 1) says it.
        profile = _new_profile(page, url, "无声", "zh", skip=False)
        note = page.locator(".eb-novoice")
        assert note.inner_text() == t("speech.no_voice", "zh")
        assert page.locator(".eb-speak").count() == 0
        assert _spoken(page) == []  # an English voice never garbles Chinese
        assert note.count() == 1
        # The next level's board: still no speaker, nothing said.
        runner = LessonRunner()
        right = _a_tap(runner, right=True)
        page.locator(f'.eb-card[data-id="{right}"]').click()
        _wait_idle(page)
        page.locator(".eb-intro").wait_for()
        assert page.locator(".eb-speak").count() == 0
        assert _spoken(page) == []
        # Said once on this device: another page's board does not say it again.
        page.goto(f"{url}/play?p={profile}")
        page.get_by_role("button", name=t("start_game", "zh")).click()
        page.locator(".eb-card").first.wait_for()
        _wait_idle(page)
        page.wait_for_timeout(2000)  # past the wait for the voice list
        assert page.locator(".eb-novoice").count() == 0
        assert page.locator(".eb-speak").count() == 0


def test_the_score_what_happened_and_the_hint_can_be_heard_in_play(
        server, browser_type_launch_args) -> None:  # noqa: F811
    url, _db = server
    with _device(browser_type_launch_args, "en", ALL_VOICES,
                 size=(390, 844)) as (context, page):
        requests = _Requests(page)
        profile = _new_profile(page, url, "Oye", "en")
        page.goto(f"{url}/play?p={profile}")
        page.get_by_role("button", name=t("start_game", "en")).click()
        page.locator(".eb-card").first.wait_for()
        _wait_idle(page)
        assert _spoken(page) == []  # Play reads nothing by itself
        page.locator(".eb-header .eb-speak").click()
        page.wait_for_function("() => window.__speech.spoken.some((u) => u.text)")
        score = _spoken(page)[-1]
        assert score["lang"] == "en-GB" and "Round 1" in score["text"]
        assert "points" in score["text"] and "·" not in score["text"]
        assert score["text"].endswith(t("board_pick_card", "en"))  # the child's turn
        page.locator(".eb-speaker .eb-speak").first.click()  # the hint panel's
        page.wait_for_function("() => window.__speech.spoken.filter((u) => u.text).length > 1")
        hint = _spoken(page)[-1]["text"]
        assert hint and not set(hint) & set("⭐💡📣⚠️▮▯")
        for button in page.locator(".eb-speak, .eb-mute").all():
            box = button.bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44
        page.screenshot(path="test-artifacts/23-play-speakers-390.png")
        assert requests.outside() == set()


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_whos_playing_and_my_progress_can_be_heard_on_a_phone(
        server, browser_type_launch_args, lang: str) -> None:  # noqa: F811
    """A child who reads slowly, on a phone: the first page's 🔊 says the question, the
    names to tap and how to start; My progress's says a new child's first sentence.
    Both in the page's language, only when tapped."""
    url, db = server
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    nickname = f"Rosa{lang}"
    profile = store.create_profile(nickname, "🦊", settings={"lang": lang}).id
    with _device(browser_type_launch_args, lang, ALL_VOICES, size=(390, 844)) as (_c, page):
        page.goto(url)
        page.get_by_role("heading", name=t("profiles_title", lang)).wait_for()
        _wait_idle(page)
        speaker = page.locator(".st-key-who_speaker .eb-speak")
        speaker.click()
        page.wait_for_function("() => window.__speech.spoken.some((u) => u.text)")
        (said,) = _spoken(page)
        assert said["text"].startswith(t("profiles_title", lang)), said
        assert nickname in said["text"] and said["tapped"] is True
        assert said["lang"].startswith(lang)
        page.screenshot(path=f"test-artifacts/who-speaker-{lang}.png")
        page.goto(f"{url}/progress?p={profile}")
        page.locator(".st-key-ch_empty_speaker .eb-speak").click()
        first = speakable(t("ch_empty_new", lang), lang)
        _wait_spoken(page, first)
