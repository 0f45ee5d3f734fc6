"""Sizes a 7-year-old's finger and eyes need (issue 23), as one <style> block.

Every control a child uses is at least 44 × 44 px with at least 8 px between two that
do different things (WCAG 2.5.5's target size; Apple's and Google's 44/48 pt); the
lesson's counters are icons with numbers. ``tests/test_browser_screen.py`` measures it
on every lesson level and on Play, at 1024 × 768 and 390 × 844 (docs/APP.md).
"""

from __future__ import annotations

__all__ = ["FIT_STYLE"]

FIT_STYLE = """
<style>
/* Answer buttons: a big number each, 8 px or more apart. */
.st-key-lesson_answers { gap: 0.75rem !important; flex-wrap: wrap; }
.st-key-lesson_answers button { min-width: 4.4rem; min-height: 4.4rem; }
.st-key-lesson_answers button p { font-size: 1.8rem; font-weight: 700; }
/* "Start the level again" and "All the lessons" well away from the answers above. */
.st-key-lesson_tools { margin-top: 0.75rem; gap: 0.75rem !important; }
/* Its buttons and the glossary's popover (📖 Words) a finger's size. */
.st-key-lesson_tools button, [data-testid="stPopover"] button { min-height: 44px; }
/* The lesson's counters: icons with numbers on one short line. */
.lesson-counters { display: flex; gap: 1.2rem; font-size: 1.05rem; letter-spacing: 0.1em;
  margin: -0.4rem 0 0.2rem; }
/* Streamlit's own small controls: the menu toggle, the sidebar's close arrow, an
   expander's header. */
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"] button,
[data-testid="stSidebarCollapsedControl"] button, [data-testid="stBaseButton-headerNoPadding"] {
  min-width: 44px !important; min-height: 44px !important; }
[data-testid="stExpander"] summary { min-height: 44px; }
/* Switches and boxes to tick (the hint switch under the board): the whole row is the
   target, 44 px high. */
[data-testid="stCheckbox"] label, .stToggle label, [data-testid="stToggle"] label {
  min-height: 44px; display: flex; align-items: center; }
/* Pills and segmented choices (the language, the avatar): each its own target, 8 px
   apart; the form's submit button as tall as the others. */
[data-testid="stButtonGroup"] > div { gap: 8px !important; }
[data-testid="stButtonGroup"] button { min-width: 44px; min-height: 44px; margin: 0 !important; }
/* A text box and its "?" help as tall as a finger. */
[data-testid="stTextInputRootElement"] { min-height: 48px; }
[data-testid="stTextInputField"] { min-height: 46px; }
[data-testid="stTooltipIcon"] button { min-width: 44px; min-height: 44px;
  display: inline-flex; align-items: center; justify-content: center; }
[data-testid="stTextInput"] [data-testid="stWidgetLabel"] { margin-bottom: 8px; }
[data-testid="stFormSubmitButton"] button { min-height: 3rem; font-size: 1.1rem; }
/* A list to choose from (Play's level and rules, a worksheet's kind) as tall as a text
   box, and each of its choices a finger's height (Streamlit draws them 38-40 px). */
[data-testid="stSelectbox"] [role="group"], [data-testid="stMultiSelect"] [role="group"] {
  min-height: 48px; }
[data-testid="stSelectbox"] [role="group"] > input,
[data-testid="stSelectbox"] [role="group"] > button { min-height: 46px; }
[role="listbox"] [role="option"] { min-height: 44px; font-size: 1rem; }
/* Its words as large as the page's (at 14 px a phone's browser zooms in on a tap). */
[data-testid="stSelectbox"] [role="group"] > input { font-size: 1rem; }
/* Play's "Start the game!" stays in sight at the bottom of the screen while the form
   scrolls under it (on a phone it was 200 px below the first screen: found trying Play
   as a child); at the form's end it is in its own place. */
.st-key-start_game { position: sticky; bottom: 12px; z-index: 3; }
.st-key-start_game button { box-shadow: 0 4px 14px rgba(0, 0, 0, 0.25); }
/* Quiet buttons ("More help") are still a finger's size. */
[data-testid="stBaseButton-tertiary"] { min-height: 44px; min-width: 44px; }
/* Links that are a child's way in ("New to Escoba? Start here!", the sidebar's pages). */
[data-testid="stPageLink"] a, [data-testid="stSidebarNavLink"] { min-height: 44px;
  display: flex; align-items: center; }
[data-testid="stSidebarNavItems"] { gap: 8px; display: flex; flex-direction: column; }
/* Play's tools (the hint switch, a different game) well apart from the hint's "More
   help" above them (7 px on a phone when the hint box ended with it). */
.st-key-game_tools { margin-top: 8px; }
.st-key-hint_more { margin-bottom: 4px; }
/* A code box's copy button (the daily's share text) always shown, not only on hover: a
   tablet has no hover, and the page says "tap the copy button" (issue 33). */
[data-testid="stCode"] button { opacity: 1 !important; visibility: visible !important;
  min-width: 44px; min-height: 44px; }
</style>
"""
