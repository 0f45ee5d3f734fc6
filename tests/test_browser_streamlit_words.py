"""Streamlit's own words in the real browser (issue 33, ui/streamlit_words.py).

In Spanish, German, Italian and Chinese, in an English browser (Streamlit's worst case): Replay's
file chooser, Settings' PIN field (a password field with help), and the teacher's pages
(a date field, a table with its toolbar) show no English of Streamlit's,
in the visible text or in an accessible name (aria-label, title, placeholder), and show
the catalog's words instead.

Screenshots: test-artifacts/34-streamlit-words-*.png.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from trainer.classroom_views import ASSIGNMENT_KINDS
from trainer.i18n import LANGUAGES, t
from trainer.storage import Storage
from ui.teacher.registry import SECTION_KEYS, SECTIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


#: Streamlit's English, as whole texts or accessible names ...
ENGLISH_EXACT = {"Upload", "Open", "Close", "Search", "Fullscreen", "Select all", "No results",
                 "Choose options", "Choose an option", "Dismiss", "Clear all", "Choose date",
                 "Clear date", "Increment", "Decrement", "Sidebar", "App pages", "month",
                 "year", "yyyy", "mm", "dd"}
#: ... and as parts of one.
ENGLISH_PARTS = ("per file", "Drag and drop", "Browse files", "Press Enter", "Help for ",
                 "Show password", "Hide password", "Copy to clipboard", "Download as CSV",
                 "Show/hide columns", "Collapse sidebar", "Expand sidebar",
                 "Skip to main content", "Link to heading", "options available",
                 "option available", "Choose date")

# Everything a person sees or a screen reader says: the rendered text (line by line) and
# every accessible name, title and placeholder.
_SAID_JS = """() => {
  const said = document.body.innerText.split('\\n').map((s) => s.trim()).filter(Boolean);
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v) said.push(v.trim());
    }
  }
  // the material icons' ligature names are drawn as pictures, not read
  const icons = new Set([...document.querySelectorAll('[data-testid=stIconMaterial]')]
    .map((el) => el.textContent.trim()));
  return said.filter((s) => !icons.has(s));
}"""


def _english(page) -> list[str]:
    said = page.evaluate(_SAID_JS)
    # Spanish writes a date's day and month fields as English does (dd/mm/aaaa), Italian
    # its month field (gg/mm/aaaa).
    same = {"es": {"dd", "mm"}, "it": {"mm"}}.get(
        page.evaluate("() => document.documentElement.lang"), set())
    return sorted({s for s in said if s in ENGLISH_EXACT - same
                   or any(p in s for p in ENGLISH_PARTS)})


def _said(page) -> set[str]:
    return set(page.evaluate(_SAID_JS))


def _shot(page, lang: str, name: str) -> None:
    page.screenshot(path=str(_artifact(f"34-streamlit-words-{name}-{lang}.png")),
                    full_page=True)


def _child_pages(page, url: str, db, lang: str) -> None:
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    profile = store.create_profile(f"Kid {lang}", "🦊", settings={"lang": lang})

    page.goto(f"{url}/replay?p={profile.id}")
    page.locator("[data-testid=stFileUploaderDropzone]").wait_for()
    _wait_idle(page)
    _shot(page, lang, "replay")
    assert _english(page) == []
    button = page.locator(
        "[data-testid=stFileUploaderDropzone] button [data-testid=stMarkdownContainer]")
    assert button.inner_text().strip() == t("stw.upload", lang)
    said = _said(page)
    assert t("stw.file_upload", lang) in said and t("stw.collapse_sidebar", lang) in said

    page.goto(f"{url}/settings?p={profile.id}")
    pin = page.locator("[type=password]").first
    pin.wait_for()
    _wait_idle(page)
    pin.fill("12")  # Streamlit's "Press Enter to apply" shows under the field
    page.get_by_text(t("stw.press_enter", lang)).first.wait_for()
    _shot(page, lang, "settings")
    assert _english(page) == []
    said = _said(page)
    assert t("stw.show_password", lang) in said
    help_label = t("stw.help_for", lang).format(label=t("setting_hints", lang))
    assert help_label in said, sorted(said)


def _submit(page, field: str) -> None:
    """The submit button of the form that holds the widget keyed ``field``."""
    form = page.locator("[data-testid=stForm]").filter(has=page.locator(f".st-key-{field}"))
    form.locator("[data-testid=stFormSubmitButton] button").click()


def _teacher_pages(page, url: str, db, lang: str) -> None:
    # The language chosen on the first page, then the teacher's page by the menu (the same
    # session): the browser stays English, so Streamlit's date picker speaks English too.
    page.goto(url)
    page.locator(".st-key-lang_picker button").first.wait_for()
    _wait_idle(page)
    picker = page.locator(".st-key-lang_picker button")
    picker.filter(has_text=LANGUAGES[lang]).click()
    _wait_idle(page)
    assert t("stw.collapse_sidebar", lang) in _said(page)
    # Back to English and again: Streamlit's words follow the language both ways.
    picker.filter(has_text=LANGUAGES["en"]).click()
    _wait_idle(page)
    said = _said(page)
    assert "Collapse sidebar" in said and t("stw.collapse_sidebar", lang) not in said
    assert page.evaluate("() => document.documentElement.lang") == "en"
    picker.filter(has_text=LANGUAGES[lang]).click()
    _wait_idle(page)
    assert t("stw.collapse_sidebar", lang) in _said(page)
    page.locator("[data-testid=stSidebarNav]").get_by_text(t("nav_teacher", lang)).click()
    page.locator(".st-key-tc_auth_mode button").first.wait_for()
    _wait_idle(page)
    page.locator(".st-key-tc_auth_mode button").nth(1).click()  # a new account
    _wait_idle(page)
    invite = page.locator(".st-key-tc_new_invite input")
    if invite.count():  # the server's first teacher came from an earlier language's run
        from trainer.classroom import TeacherAuth, format_invite

        code, _ = TeacherAuth(Storage(sa.create_engine(f"sqlite:///{db}"))).invite()
        invite.fill(format_invite(code))
    page.locator(".st-key-tc_new_name input").fill(f"Teacher {lang}")
    for key in ("tc_new_password", "tc_new_password2"):
        page.locator(f".st-key-{key} input").fill("seven oros on the table")
    page.get_by_text(t("stw.press_enter_form", lang)).first.wait_for()
    assert _english(page) == []
    _submit(page, "tc_new_name")
    page.locator(".st-key-tc_class_name input").wait_for()
    _wait_idle(page)
    page.locator(".st-key-tc_class_name input").fill("4A")
    _submit(page, "tc_class_name")
    page.locator("[data-testid=tc-code]").wait_for()
    _wait_idle(page)

    # Pupils added: the table of their PINs, with Streamlit's toolbar on it.
    page.locator(".st-key-tc_paste textarea").fill("Lola\nTeo")
    _submit(page, "tc_paste")
    table = page.locator("[data-testid=stDataFrame]").first
    table.wait_for()
    _wait_idle(page)
    table.hover()
    download = page.locator(
        f"[data-testid=stElementToolbar] [aria-label='{t('stw.download_csv', lang)}']")
    download.first.hover()  # its tooltip: visible text
    page.wait_for_timeout(600)
    _shot(page, lang, "teacher-pupils")
    assert _english(page) == []
    said = _said(page)
    for key in ("stw.download_csv", "stw.search", "stw.fullscreen"):
        assert t(key, lang) in said, (key, sorted(said))
    page.locator(".st-key-tc_added_done button").click()
    _wait_idle(page)

    # A quick-facts assignment: its facts and the due date.
    page.locator(".st-key-tc_section button").nth(SECTION_KEYS.index("after")).click()
    _wait_idle(page)
    page.locator(".st-key-tc_part button").nth(SECTIONS["after"].index("assignments")).click()
    _wait_idle(page)
    page.locator(".st-key-tc_as_type button").nth(ASSIGNMENT_KINDS.index("facts")).click()
    _wait_idle(page)
    facts = page.locator(".st-key-tc_as_facts")
    facts.wait_for()
    # Each fact is one tap at the foot of the window, with no scroll first (issue 29: the
    # multiselect the pills replace opened no list there), and reads as a question.
    fact = facts.get_by_role("button", name="3 + 5 + ? = 15", exact=True)
    fact.click()
    assert fact.get_attribute("aria-pressed") == "true"
    _shot(page, lang, "teacher-facts")
    assert _english(page) == []
    due = page.locator(".st-key-tc_as_due")
    due.locator(f"[aria-label='{t('stw.choose_date', lang)}']").click()
    page.get_by_role("dialog").wait_for()
    page.wait_for_timeout(500)
    _shot(page, lang, "teacher-date")
    assert _english(page) == []
    said = _said(page)
    assert t("stw.next_month", lang) in said
    # the days' names by the browser's Intl in the page's language ("Heute, Donnerstag, …")
    today = [s for s in said if s.startswith(t("stw.today", lang).split("{")[0])]
    assert len(today) == 1, sorted(said)
    # the weekdays' initials above the days, Sunday first as the days below them
    initials = page.get_by_role("dialog").locator("thead th").all_inner_texts()
    assert initials == {"es": list("DLMXJVS"), "de": list("SMDMDFS"),
                        "it": list("DLMMGVS"), "zh": list("日一二三四五六")}[lang]


@pytest.mark.parametrize("lang", ["es", "de", "it", "zh"])
def test_streamlits_own_words_are_in_the_pages_language(server, browser_type_launch_args,  # noqa: F811
                                                         lang: str) -> None:
    from playwright.sync_api import sync_playwright

    url, db = server
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (1024, 900))
        try:
            _child_pages(page, url, db, lang)
            _teacher_pages(page, url, db, lang)
            assert page.evaluate("() => document.documentElement.lang") == lang
        finally:
            context.close()
            browser.close()
