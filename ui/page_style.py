"""The page's style: bigger targets for small hands, the fallbacks out of sight at first,
the sizes a 7-year-old needs (:mod:`ui.fit`). No Streamlit here: ``serve.py``'s
middleware (:class:`ui.page_base.SayBase`) writes it into every page's ``<head>``, so it
holds from the first frame (drawn by the sidebar, it came after the page's first
elements: a working board's "Cards don't respond?" line and a larger title showed for
a few frames on every page opened anew); the sidebar draws it too
(:func:`ui.layout.sidebar`).
"""

from __future__ import annotations

from .fit import FIT_STYLE

__all__ = ["PAGE_STYLE"]

# Bigger tap targets and text for small hands on tablets. Only a <style> tag:
# st.html adds it to the page without a frame.
_STYLE = """
<style>
div[data-testid="stButton"] button, div[data-testid="stDownloadButton"] button {
  min-height: 3rem; font-size: 1.1rem; }
div[data-testid="stButtonGroup"] button { min-height: 2.8rem; font-size: 1.05rem; }
div[data-testid="stMarkdownContainer"] p { font-size: 1.05rem; }
.st-key-qf_numbers button, .st-key-mc_numbers button { min-width: 4.4rem; min-height: 4.4rem; }
.st-key-qf_numbers button p, .st-key-mc_numbers button p { font-size: 1.8rem; font-weight: 700; }
/* A class round's quick facts: two rows of five at every width (one row of ten left a
   phone's buttons 34 px wide, too small for a finger). */
.st-key-mc_live_numbers { display: grid !important;
  grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 0.5rem; max-width: 30rem; }
.st-key-mc_live_numbers > div { width: auto !important; min-width: 0; }
.st-key-mc_live_numbers button { width: 100%; min-height: 4.2rem; padding: 0; }
.st-key-mc_live_numbers button p { font-size: 1.7rem; font-weight: 700; overflow: visible; }
/* A sweep round's hand cards: two buttons a row, so that on a phone all of them show
   under the table and the hand without scrolling (one a row pushed the third away). */
.st-key-mc_live_hand { display: grid !important;
  grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.5rem; max-width: 36rem; }
.st-key-mc_live_hand > div { width: auto !important; min-width: 0; }
.st-key-mc_live_hand button { width: 100%; padding-left: 0.4rem; padding-right: 0.4rem; }
/* My class on a tablet: pictures and the PIN's number pad as big as a child's finger. */
.st-key-mc_pictures button { min-height: 5.5rem; }
.st-key-mc_pictures button p { font-size: 1.5rem; font-weight: 600; }
/* The PIN pad: 3 columns × 4 rows at every width (a phone's narrow screen stacked
   st.columns into one tall column, its dots and message scrolled away: issue 27). */
.st-key-mc_pad { display: grid !important; grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 0.6rem; max-width: 24rem; }
.st-key-mc_pad > div { width: auto !important; min-width: 0; }
.st-key-mc_pad div[data-testid="stButton"] button { min-height: 4.2rem; }
.st-key-mc_pad .st-key-mc_not_me button p { font-size: 0.95rem; font-weight: 600; }
.st-key-mc_pad button p { font-size: 2rem; font-weight: 700; line-height: 1.1; }
/* Less empty space above the page and a narrower sidebar: a landscape tablet
   (1024 x 768) shows the table, the hand, the choosers and Play without scrolling. */
[data-testid="stMainBlockContainer"] { padding-top: 3.3rem; padding-bottom: 2rem;
  padding-left: 1.5rem; padding-right: 1.5rem; }
/* On a phone the header (the sidebar's arrow) is taller than that: a first line of
   small text would slide under it. */
@media (max-width: 640px) { [data-testid="stMainBlockContainer"] { padding-top: 4rem; } }
section[data-testid="stSidebar"][data-collapsed="false"] { width: 256px !important;
  min-width: 256px !important; }
h1 { font-size: 2.1rem !important; padding-top: 0.2rem !important;
     padding-bottom: 0.4rem !important; }
@media (max-height: 820px) { h1 { font-size: 1.7rem !important; } }
.st-key-play_board { gap: 0.45rem; }
.st-key-play_board div[data-testid="stButtonGroup"] button { min-height: 2.5rem; }
.st-key-play_board div[data-testid="stWidgetLabel"] { margin-bottom: 0; }
.st-key-play_board div[data-testid="stWidgetLabel"] p { font-size: 1rem; }
.st-key-game_tools { align-items: center; }
/* The board's text fallback (the choosers, the hint in words beside them) stays out
   of sight for its first 4 s: a board that works says so within a second and the next
   run takes the fallback away before a child sees it (issue 31: it flashed on every new
   page, and showed after a failover); a board that never loads leaves it shown. The
   same for Quick facts' round drawn in Streamlit's buttons (ui/quick_round_view.py). */
[class*="st-key-board_fallback"], .st-key-qf_fallback {
  animation: board-late 0s linear 4s backwards; }
@keyframes board-late { from { visibility: hidden; max-height: 0; overflow: hidden; } }
/* Streamlit's drop-zone text gives its limit, not Replay's: the page says ours. */
.st-key-replay_file [data-testid="stFileUploaderDropzoneInstructions"] { display: none; }
/* A segmented control that wraps on a phone: each choice its own whole box (joined into
   one bar over two or three lines, their borders read as broken boxes). */
@media (max-width: 640px) {
  button[data-variant="segmented_control"] { border-radius: 0.5rem !important;
    margin: 0 6px 6px 0 !important; }
  button[data-variant="segmented_control"]:not([aria-checked="true"]) {
    border-color: color-mix(in srgb, currentColor 30%, transparent) !important; } }
@keyframes escoba-in { from { opacity: 0; transform: translateY(-8px); }
                       to { opacity: 1; transform: none; } }
@media (prefers-reduced-motion: reduce) {
  .escoba-step { animation: none !important; } }
</style>
"""

#: Every page's style, one ``<style>`` block after another.
PAGE_STYLE = _STYLE + FIT_STYLE
