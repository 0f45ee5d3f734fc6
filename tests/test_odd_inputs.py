"""Long and odd inputs, each with its own sentence, and names shown literally (issue 25)."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_app_helpers import ROOT, assert_ok, create_profile, new_app
from trainer.classroom import ClassroomError, _class_name
from trainer.i18n import t
from trainer.names import MARKS_MAX, NAME_MAX, label_problem, name_problem
from trainer.replayer import MAX_UPLOAD_BYTES
from trainer.text import WORD_JOINER, md_escape

pytestmark = pytest.mark.usefixtures("fresh_app")

# Streamlit's own typography on the text of Markdown (StreamlitMarkdown.*.js, 1.67),
# applied after Markdown is read: "--" between spaces became "—" in names.
_STREAMLIT_TYPOGRAPHY = [(r"(^|\s)<->(\s|$)", "↔"), (r"(^|\s)->(\s|$)", "→"),
                         (r"(^|\s)<-(\s|$)", "←"), (r"(^|\s)--(\s|$)", "—"),
                         (r"(^|\s)>=(\s|$)", "≥"), (r"(^|\s)<=(\s|$)", "≤"),
                         (r"(^|\s)~=(\s|$)", "≈")]


def _drawn(markdown: str) -> str:
    """What Streamlit draws of an escaped one-line text: backslash escapes read, then its
    typography."""
    text = re.sub(r"\\(.)", r"\1", markdown)
    for pattern, sign in _STREAMLIT_TYPOGRAPHY:
        text = re.sub(pattern, lambda m, s=sign: f"{m.group(1)}{s}{m.group(2)}", text)
    return text


def test_streamlits_typography_is_what_the_installed_bundle_does() -> None:
    import streamlit

    bundle = Path(streamlit.__file__).parent / "static" / "static" / "js"
    texts = [p.read_text(errors="ignore") for p in bundle.glob("StreamlitMarkdown*.js")]
    assert any("[/(^|\\s)--(\\s|$)/g,`$1—$2`]" in text for text in texts)


@pytest.mark.parametrize("name", ["--", "Ana -- Leo", "a -> b", "x <= y", "<->", "~= 3"])
def test_names_are_drawn_as_typed(name: str) -> None:
    assert _drawn(md_escape(name)).replace(WORD_JOINER, "") == name


@given(st.text(alphabet="-<>=~ aZ1", max_size=20))
def test_no_text_of_signs_is_turned_into_another(text: str) -> None:
    drawn = _drawn(md_escape(text))
    assert drawn.replace(WORD_JOINER, "") == text


def test_a_tower_of_accents_on_one_letter_is_refused_in_words() -> None:
    assert name_problem("A" + "\u0301" * 15) == ("nickname_marks", {"max": MARKS_MAX})
    assert label_problem("A" + "\u0301" * 15, 60) == ("nickname_marks", {"max": MARKS_MAX})
    vietnamese = unicodedata.normalize("NFD", "Việt")  # e + two marks: a real name
    assert name_problem(vietnamese) is None
    assert t("nickname_marks", "es", max=MARKS_MAX) != t("nickname_marks", "en", max=MARKS_MAX)


def test_a_long_paste_is_too_long_not_empty() -> None:
    assert name_problem("x" * 65) == ("nickname_long", {"max": NAME_MAX})
    assert name_problem("x" * 100_000) == ("nickname_long", {"max": NAME_MAX})
    with pytest.raises(ClassroomError) as caught:
        _class_name("4" * 10_000)
    assert caught.value.key == "name.long"


def test_the_name_boxes_take_a_long_paste_and_say_it_is_too_long() -> None:
    """Streamlit's box drops a paste longer than its max_chars entirely: the boxes
    have none, and the page says "a bit long"."""
    at = new_app()
    box = at.text_input(key="new_nickname")
    assert not box.proto.max_chars
    create_profile(at, "Lolalolalolalolalolalolalolalolalolalolalolalolalolalolalolalolal")
    assert_ok(at)
    assert t("nickname_long", max=NAME_MAX) in [w.value for w in at.warning]
    at.switch_page("app_pages/teacher.py").run()
    assert all(not b.proto.max_chars for b in at.text_input if b.key in ("tc_name",
                                                                          "tc_new_name"))


def test_a_forged_100000_character_time_zone_is_said_not_an_error() -> None:
    at = new_app()
    create_profile(at, "Ana")
    at.context = {"locale": "en-US", "timezone": "Europe/" + "x" * 100_000}
    at.switch_page("app_pages/daily.py").run()
    assert_ok(at)
    assert t("error_friendly") not in [e.value for e in at.error]
    assert t("timezone_unknown") in [c.value for c in at.caption]
    at.context = {"locale": "en-US", "timezone": "Europe/Madrid"}
    at.run()
    assert t("timezone_unknown") not in [c.value for c in at.caption]


def test_a_30_mb_record_is_refused_in_the_childs_language() -> None:
    """The browser refuses a file above server.maxUploadSize itself, in Streamlit's
    English hover text only: the limit is far above any record, so a 30 MB file reaches
    the page, which says why in Spanish."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] >= 200
    nginx = (ROOT / "deploy" / "nginx.conf.template").read_text()
    assert "client_max_body_size 200m;" in nginx
    at = new_app(locale="es-ES")
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload("grande.json", b" " * 30_000_000,
                                               "application/json").run()
    assert_ok(at)
    shown = [e.value.replace("\\", "") for e in at.error]
    assert any("demasiado grande" in e and f"{MAX_UPLOAD_BYTES // 1_000_000} MB" in e
               for e in shown), shown
