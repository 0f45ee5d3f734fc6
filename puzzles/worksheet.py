"""Printable worksheets: puzzles drawn as big cards, the answer key on separate pages.

``worksheet_pdf(...)`` returns the PDF as bytes (the app offers it as a
download; the CLI writes it to a file). Cards are vector drawings (a rounded
card, a big value, the suit drawn as a shape and named by its letter), so
nothing is downloaded and the sheet prints sharply on any printer, in black
and white too. A *seed code* such as ``CA2-15-7`` is printed on every page of
the sheet and of the key: it names kind, level, capture sum and seed, so a
key always matches its sheet and the same sheet can be printed again.

The sheet speaks the language given by ``lang``: its texts are the
``puzzles`` domain of the catalogs in ``locales/``, and the word under each
card (the figure, or the suit) is the language's own name where it has one
(``locales/<lang>/cards.toml``: "Knappe", "Münzen", "侍从", "金币"; English and
Spanish keep Sota, Caballo, Rey and oros, copas, espadas, bastos). Latin-script
languages print in the PDF core font; Chinese needs a CJK font from the system
(Debian's ``fonts-noto-cjk`` or ``fonts-wqy-microhei``, or ``ESCOBA_CJK_FONT``),
and fpdf2 embeds only the glyphs the sheet uses.

fpdf2 is imported inside :func:`worksheet_pdf` only: the rest of the package
(and ``escoba --help``) does not load it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from escoba.cards import Card, Deck, Suit, format_cards

from .i18n import Tr, translator
from .kinds import generate, normalise_seed
from .model import KINDS, Puzzle, PuzzleError, check_kind_level_sum

if TYPE_CHECKING:  # pragma: no cover
    from fpdf import FPDF

__all__ = ["PAPERS", "worksheet_code", "parse_worksheet_code", "worksheet_puzzles",
           "page_counts", "worksheet_pdf", "MAX_COUNT", "CJK_FONTS", "cjk_font",
           "UNICODE_FONTS", "unicode_font", "SheetSpec", "sheets_pdf", "use_fonts",
           "latin1_text", "card_label", "fit_text"]

#: Languages written in Chinese characters: the PDF core fonts have none of them.
CJK_LANGUAGES = frozenset({"zh"})
#: Where a CJK font is looked for, in order (``ESCOBA_CJK_FONT`` first): (file, face in a
#: collection). Noto's collection holds JP, KR, SC, TC, HK faces; face 2 is Simplified Chinese.
CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
)
#: A font with every Latin, Greek and Cyrillic letter (``ESCOBA_TEXT_FONT`` first), for a
#: sheet whose title holds a name the PDF core font cannot write ("Łukasz", "Дима").
UNICODE_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
)
_TEXT_FONT = "Helvetica"

PAPERS: tuple[str, ...] = ("a4", "letter")
MAX_COUNT = 100
_ABBR = {"captures": "CA", "hand": "HA", "fifteens": "FI", "best-move": "BM",
         "quick-facts": "QF", "scopa": "SC"}
_KIND_OF = {v: k for k, v in _ABBR.items()}
#: Puzzles per sheet page, per kind (block heights below are chosen to fit).
PER_PAGE = {"captures": 5, "hand": 4, "fifteens": 5, "best-move": 4, "quick-facts": 8,
            "scopa": 5}
#: Puzzles per answer-key page.
KEY_PER_PAGE = 10
_FIGURES = {8: "Sota", 9: "Caballo", 10: "Rey"}
_SUIT_LETTERS = ("o", "c", "e", "b")
#: The word printed under a card: its figure's name, or its suit's.
Label = Callable[[Card], str]


def card_label(lang: str, deck: Deck = Deck.SPANISH) -> Label:
    """The word under a card in ``lang``: the figure's name for 8-10, else the suit's, in
    the language's own words where its card grammar has them (de: Knappe, Münzen; zh:
    侍从, 金币), else the Spanish ones (Sota, oros). The Italian deck (a Scopa sheet)
    keeps its own names in every language, as the app names it: Fante, Cavallo, Re;
    denari, coppe, spade, bastoni."""
    from locales.cards import grammar

    if deck is Deck.ITALIAN:
        def italian(card: Card) -> str:
            suit = Suit(int(card.suit) if card.suit is not None else 0)
            return card.rank_name(Deck.ITALIAN) if card.value in _FIGURES else suit.italian

        return italian
    words = grammar(lang)

    def label(card: Card) -> str:
        suit = int(card.suit) if card.suit is not None else 0
        if words.own_names:
            if card.value in _FIGURES:
                return words.ranks[card.value].name
            return words.suits[_SUIT_LETTERS[suit]]
        return _FIGURES.get(card.value) or Suit(suit).spanish

    return label


def sheet_deck(kind: str) -> Deck:
    """The deck a kind's cards are drawn with: Scopa's Italian cards for ``scopa``."""
    return Deck.ITALIAN if kind == "scopa" else Deck.SPANISH


def card_code(card: Card, deck: Deck = Deck.SPANISH) -> str:
    """A card's short code as its corner shows it: ``7o``; on Italian cards the Italian
    suit's initial (``7d`` for the 7 of denari, as the app's Italian corners)."""
    if deck is Deck.ITALIAN and card.suit is not None:
        return f"{card.value}{card.suit.italian[0]}"
    return str(card)


def _codes(cards: Sequence[Card], deck: Deck) -> str:
    return format_cards(cards) if deck is Deck.SPANISH else " ".join(
        card_code(c, deck) for c in sorted(cards))


def worksheet_code(kind: str, level: int, seed: int | str, capture_sum: int = 15) -> str:
    """The seed code printed on a sheet and its key: ``CA2-15-7``."""
    check_kind_level_sum(kind, level, capture_sum)
    return f"{_ABBR[kind]}{level}-{capture_sum}-{normalise_seed(seed)}"


def parse_worksheet_code(code: str) -> tuple[str, int, int, str]:
    """``"CA2-15-7"`` -> ``("captures", 2, 15, "7")``: reprint a sheet from its code."""
    m = re.fullmatch(r"([A-Z]{2})([1-5])-(10|15|20)-(\S+)", code.strip().upper()
                     if code.strip()[:2].isalpha() else code.strip())
    if not m or m.group(1) not in _KIND_OF:
        raise PuzzleError(f"not a worksheet code: {code!r} (e.g. CA2-15-7)")
    return _KIND_OF[m.group(1)], int(m.group(2)), int(m.group(3)), m.group(4)


def worksheet_puzzles(kind: str, level: int, count: int = 20, seed: int | str = 0,
                      capture_sum: int = 15) -> list[Puzzle]:
    """The puzzles of a sheet; puzzle ``i`` does not depend on ``count``."""
    check_kind_level_sum(kind, level, capture_sum)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise PuzzleError(f"count must be 1-{MAX_COUNT}, got {count!r}")
    base = normalise_seed(seed)
    if kind == "quick-facts":  # answers spread, no question twice (issue 33)
        from .practice import quick_facts_set

        return quick_facts_set(level, count, f"ws-{base}", capture_sum)
    return [generate(kind, level, f"ws-{base}-{i}", capture_sum) for i in range(1, count + 1)]


def page_counts(kind: str, count: int) -> tuple[int, int]:
    """(sheet pages, answer-key pages) of a sheet of ``count`` puzzles."""
    if kind not in KINDS:
        raise PuzzleError(f"unknown puzzle kind {kind!r} (choose one of {', '.join(KINDS)})")
    return math.ceil(count / PER_PAGE[kind]), math.ceil(count / KEY_PER_PAGE)


# -- drawing --------------------------------------------------------------------

_INK = (20, 20, 20)
_SUIT_FILL = ((236, 190, 40), (200, 40, 40), (40, 90, 190), (40, 140, 60))


def _draw_suit(pdf: FPDF, suit: int, cx: float, cy: float, size: float) -> None:
    """A simple vector suit sign centred on (cx, cy), ``size`` mm tall."""
    r = size / 2
    pdf.set_draw_color(*_INK)
    pdf.set_fill_color(*_SUIT_FILL[suit])
    pdf.set_line_width(0.3)
    if suit == 0:  # oros: a coin
        pdf.ellipse(cx - r, cy - r, size, size, style="DF")
        pdf.ellipse(cx - r * 0.55, cy - r * 0.55, size * 0.55, size * 0.55, style="D")
    elif suit == 1:  # copas: a cup on a stem
        pdf.polygon([(cx - r, cy - r), (cx + r, cy - r), (cx + r * 0.45, cy + r * 0.1),
                     (cx + r * 0.12, cy + r * 0.2), (cx + r * 0.12, cy + r * 0.7),
                     (cx + r * 0.55, cy + r), (cx - r * 0.55, cy + r),
                     (cx - r * 0.12, cy + r * 0.7), (cx - r * 0.12, cy + r * 0.2),
                     (cx - r * 0.45, cy + r * 0.1)], style="DF")
    elif suit == 2:  # espadas: a sword, point up
        pdf.polygon([(cx, cy - r), (cx + r * 0.18, cy - r * 0.7), (cx + r * 0.18, cy + r * 0.35),
                     (cx + r * 0.6, cy + r * 0.35), (cx + r * 0.6, cy + r * 0.5),
                     (cx + r * 0.14, cy + r * 0.5), (cx + r * 0.14, cy + r),
                     (cx - r * 0.14, cy + r), (cx - r * 0.14, cy + r * 0.5),
                     (cx - r * 0.6, cy + r * 0.5), (cx - r * 0.6, cy + r * 0.35),
                     (cx - r * 0.18, cy + r * 0.35), (cx - r * 0.18, cy - r * 0.7)], style="DF")
    else:  # bastos: a club, thick at the top
        pdf.polygon([(cx - r * 0.45, cy - r), (cx + r * 0.45, cy - r),
                     (cx + r * 0.2, cy + r), (cx - r * 0.2, cy + r)], style="DF")
        pdf.ellipse(cx - r * 0.5, cy - r * 1.05, r, r * 0.5, style="DF")


def _draw_card(pdf: FPDF, card: Card, x: float, y: float, w: float, h: float,
               highlight: bool = False, label: Label | None = None,
               font: str = _TEXT_FONT, deck: Deck = Deck.SPANISH) -> None:
    """One card: big value in the middle, suit sign and letter, figure name."""
    pdf.set_draw_color(*_INK)
    pdf.set_line_width(0.9 if highlight else 0.4)
    pdf.set_fill_color(*((255, 246, 214) if highlight else (255, 255, 255)))
    pdf.rect(x, y, w, h, style="DF", round_corners=True, corner_radius=min(w, h) * 0.12)
    suit = int(card.suit) if card.suit is not None else 0
    value = card.value
    pdf.set_text_color(*_INK)
    # small corner index: value and suit letter, as on real cards
    pdf.set_font("Helvetica", "B", max(7.0, w * 0.45))
    pdf.set_xy(x + 0.8, y + 0.8)
    pdf.cell(w * 0.5, w * 0.22, card_code(card, deck))
    # the big value
    pdf.set_font("Helvetica", "B", w * 1.5)
    pdf.set_xy(x, y + h * 0.2)
    pdf.cell(w, h * 0.36, str(value), align="C")
    _draw_suit(pdf, suit, x + w / 2, y + h * 0.66, min(w, h) * 0.34)
    word = (label or card_label("es"))(card)
    size = max(5.5, w * 0.3)
    pdf.set_font(font, "", size)
    while size > 4 and pdf.get_string_width(word) > w - 1:  # "Schwerter" on a small card
        size -= 0.25
        pdf.set_font(font, "", size)
    pdf.set_xy(x, y + h - w * 0.2 - 0.6)
    pdf.cell(w, w * 0.2, word, align="C")


def _draw_row(pdf: FPDF, cards: tuple[Card, ...], x: float, y: float, max_width: float,
              card_w: float, highlight: bool = False, label: Label | None = None,
              font: str = _TEXT_FONT, deck: Deck = Deck.SPANISH) -> float:
    """Cards side by side from ``x``; returns the x after the row."""
    gap = 2.0
    n = max(len(cards), 1)
    w = min(card_w, (max_width - gap * (n - 1)) / n)
    h = w * 1.4
    for i, card in enumerate(cards):
        _draw_card(pdf, card, x + i * (w + gap), y, w, h, highlight, label, font, deck)
    return x + n * (w + gap)


def fit_text(pdf: FPDF, font: str, text: str, width: float, size: float = 11,
             smallest: float = 8.5) -> list[str]:
    """``text`` in the lines it is printed on within ``width`` mm, the font set to the
    size that fits: one line at 11 pt down to ``smallest``, else two lines at that size
    (a Scopa instruction is long in Italian; never cut at the paper's edge)."""
    while True:
        pdf.set_font(font, "", size)
        if pdf.get_string_width(text) <= width or size <= smallest:
            break
        size -= 0.5
    if pdf.get_string_width(text) <= width:
        return [text]
    words: list[str] = []
    for word in text.split(" "):  # a word wider than the line (Chinese has no spaces)
        words.extend(list(word) if pdf.get_string_width(word) > width else [word])
    lines = [""]
    joiner = "" if any(len(w) == 1 and ord(w) > 0x2E7F for w in words) else " "
    for word in words:
        candidate = f"{lines[-1]}{joiner}{word}".strip()
        if lines[-1] and pdf.get_string_width(candidate) > width:
            lines.append(word)
        else:
            lines[-1] = candidate
    return lines


def _instruction(p: Puzzle, tr: Tr) -> str:
    s = p.capture_sum
    if p.kind == "captures":
        return tr("ws_instruction_captures", value=p.hand[0].value, sum=s)
    if p.kind == "scopa":
        return tr("ws_instruction_scopa", value=p.hand[0].value)
    if p.kind == "hand":
        return tr("ws_instruction_hand", sum=s)
    if p.kind == "fifteens":
        return tr("ws_instruction_fifteens", sum=s)
    if p.kind == "best-move":
        return tr("ws_instruction_best")
    return tr("ws_instruction_quick", addends=" + ".join(map(str, p.addends)), sum=s)


def _answer_text(p: Puzzle, tr: Tr) -> list[str]:
    """The key's lines for one puzzle (cards and the arithmetic)."""
    s = p.capture_sum
    if p.kind == "quick-facts":
        v = p.solutions[0].value
        return [f"? = {v}     ({' + '.join(map(str, [*p.addends, v]))} = {s})"]
    if not p.solutions:
        return [tr("ws_key_none")]
    lines = []
    deck = sheet_deck(p.kind)
    for sol in p.solutions:
        values, _need = p.terms(sol.card, sol.take)  # Scopa: 3 + 4 = 7, 7 = 7
        sums = (f"{' + '.join(map(str, values))} = {sum(values)}" if sol.take
                else tr("ws_key_lay"))
        cards = _codes(sol.take, deck)
        if sol.card is not None:
            lines.append(f"{card_code(sol.card, deck)}: {cards or '-'}  ({sums})")
        else:
            lines.append(f"{cards}  ({sums})")
    return lines


def cjk_font() -> tuple[str, int] | None:
    """The CJK font file to embed and its face number, or None if the system has none."""
    chosen = os.environ.get("ESCOBA_CJK_FONT")
    candidates = ((chosen, 0),) if chosen else CJK_FONTS
    return next(((f, face) for f, face in candidates if Path(f).is_file()), None)


def unicode_font() -> str | None:
    """A Unicode text font file to embed, or None if the system has none."""
    chosen = os.environ.get("ESCOBA_TEXT_FONT")
    candidates = (chosen,) if chosen else UNICODE_FONTS
    return next((f for f in candidates if f and Path(f).is_file()), None)


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def use_fonts(pdf: FPDF, lang: str, texts: Sequence[str] = ()) -> tuple[str, bool]:
    """Register the fonts a document in ``lang`` showing ``texts`` needs: the family to
    write in, and whether it is the core font (then only Latin-1 can be written:
    :func:`latin1_text`). Chinese: a CJK font, with a Unicode one for other scripts;
    other languages: the core font, or a Unicode font (and a CJK fallback) when a text
    needs one. A Chinese document without a CJK font raises :class:`PuzzleError`.
    """
    if lang in CJK_LANGUAGES:
        found = cjk_font()
        if found is None:
            raise PuzzleError(
                "a worksheet in Chinese needs a Chinese font, and none is installed: "
                "install fonts-noto-cjk (apt-get install fonts-noto-cjk) or "
                "fonts-wqy-microhei, or set ESCOBA_CJK_FONT to a .ttf/.ttc file")
        for style in ("", "B"):  # one weight: bold headings in the same face
            pdf.add_font("cjk", style, found[0], collection_font_number=found[1])
        text_font = unicode_font()
        if text_font is not None:  # a Russian or Polish name in a Chinese class's sheets
            pdf.add_font("text", "", text_font)
            pdf.set_fallback_fonts(["text"], exact_match=False)
        return "cjk", False
    if all(_latin1(x) for x in texts):
        return _TEXT_FONT, True
    found_text = unicode_font()
    if found_text is None:
        return _TEXT_FONT, True
    for style in ("", "B"):
        pdf.add_font("text", style, found_text)
    found_cjk = cjk_font()
    if found_cjk is not None:  # a Chinese name in a Spanish class's sheets
        pdf.add_font("cjk", "", found_cjk[0], collection_font_number=found_cjk[1])
        pdf.set_fallback_fonts(["cjk"], exact_match=False)
    return "text", False


def latin1_text(value: str) -> str:
    """``value`` as the core font can write it: other characters become "?"."""
    return value.encode("latin-1", "replace").decode("latin-1")


class _Sheet:
    def __init__(self, paper: str, code: str, title: str, tr: Tr, lang: str,
                 texts: Sequence[str] = ()) -> None:
        from fpdf import FPDF  # heavy: only loaded when a sheet is made

        self.pdf = FPDF(orientation="P", unit="mm", format="A4" if paper == "a4" else "Letter")
        self.tr = tr
        self.font, self.plain = use_fonts(self.pdf, lang, texts)
        self.lang = lang
        self.label: Label = self.label_for(Deck.SPANISH)
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(12, 12, 12)
        self.pdf.set_creator("escoba puzzles")
        self.pdf.set_title(f"{title} ({code})")
        self.code = code
        self.title = title
        self.width = self.pdf.w - 24
        self.bottom = self.pdf.h - 12

    def label_for(self, deck: Deck) -> Label:
        """The word under a card of ``deck`` in this sheet's language and fonts."""
        label = card_label(self.lang, deck)
        # the core font writes Latin-1 only: a label it cannot write is written as "?"
        return (lambda c: latin1_text(label(c))) if self.plain else label

    def text(self, value: str) -> str:
        """``value`` as this sheet's fonts can write it."""
        return latin1_text(value) if self.plain else value

    def page(self, heading: str, number: int, total: int, answer_key: bool = False) -> float:
        pdf = self.pdf
        heading = self.text(heading)
        pdf.add_page()
        pdf.set_text_color(*_INK)
        pdf.set_font(self.font, "B", 14)
        pdf.set_xy(12, 10)
        pdf.cell(self.width * 0.65, 8, heading)
        pdf.set_font(self.font, "", 10)
        pdf.set_xy(12 + self.width * 0.65, 10)
        pdf.cell(self.width * 0.35, 8, self.text(self.tr("ws_code", code=self.code)), align="R")
        pdf.set_font(self.font, "", 9)
        pdf.set_xy(12, 18)
        pdf.cell(self.width * 0.65, 5,
                 self.text(self.title) if answer_key else self.tr("ws_name_date"))
        pdf.set_xy(12 + self.width * 0.65, 18)
        pdf.cell(self.width * 0.35, 5, self.tr("ws_page", number=number, total=total),
                 align="R")
        pdf.set_draw_color(*_INK)
        pdf.set_line_width(0.3)
        pdf.line(12, 24, 12 + self.width, 24)
        pdf.set_font(self.font, "", 8)
        pdf.set_xy(12, self.bottom - 2)
        pdf.cell(self.width, 4, self.text(self.tr("ws_footer", code=self.code)), align="C")
        return 27.0


def _draw_puzzle(sheet: _Sheet, number: int, p: Puzzle, y: float, height: float) -> None:
    pdf = sheet.pdf
    x0, width = 12.0, sheet.width
    pdf.set_font(sheet.font, "B", 12)
    pdf.set_xy(x0, y)
    pdf.cell(10, 6, f"{number}.")
    pdf.set_xy(x0 + 9, y)
    lines = fit_text(pdf, sheet.font, _instruction(p, sheet.tr), width - 9)
    for k, line in enumerate(lines):
        pdf.set_xy(x0 + 9, y + k * 4.2)
        pdf.cell(width - 9, 6, line)
    top = y + 7.5 + 3.5 * (len(lines) - 1)
    card_w = 19.0 if p.kind != "quick-facts" else 15.0
    if p.kind == "quick-facts":
        x = _draw_row(pdf, p.table, x0 + 9, top, width * 0.6, card_w, label=sheet.label,
                      font=sheet.font)
        pdf.set_font("Helvetica", "B", 22)
        pdf.set_xy(x + 2, top + 5)
        pdf.cell(60, 10, f"+  ?  =  {p.capture_sum}")
        pdf.set_font("Helvetica", "", 11)
        pdf.set_xy(x + 62, top + 6)
        pdf.cell(40, 8, "? = ______")
        return
    table_space = width - 9
    deck = sheet_deck(p.kind)
    label = sheet.label_for(deck)
    if p.hand:
        hand_w = len(p.hand) * (card_w + 2) + 8
        table_space -= hand_w
        x = _draw_row(pdf, p.table, x0 + 9, top, table_space, card_w, label=label,
                      font=sheet.font, deck=deck)
        pdf.set_draw_color(*_INK)
        pdf.set_line_width(0.3)
        sep = max(x + 2, x0 + 9 + table_space + 2)
        pdf.set_dash_pattern(dash=1.5, gap=1.0)
        pdf.line(sep, top, sep, top + card_w * 1.4)
        pdf.set_dash_pattern()
        _draw_row(pdf, p.hand, sep + 4, top, hand_w, card_w, highlight=True,
                  label=label, font=sheet.font, deck=deck)
    else:
        _draw_row(pdf, p.table, x0 + 9, top, table_space, card_w, label=label,
                  font=sheet.font, deck=deck)
    lines_top = top + card_w * 1.4 + 3
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    ly = lines_top + 6
    while ly <= y + height - 2:
        pdf.line(x0 + 9, ly, x0 + width, ly)
        ly += 7


def worksheet_pdf(kind: str, level: int, count: int = 20, seed: int | str = 0,
                  capture_sum: int = 15, paper: str = "a4", lang: str = "en",
                  duplex: bool = False) -> bytes:
    """The worksheet as PDF bytes, in ``lang``: puzzle pages, then answer-key pages
    (``duplex``: on a sheet of paper of their own, as :func:`sheets_pdf`).

    Raises :class:`~puzzles.model.PuzzleError` for bad arguments, and for a
    Chinese sheet on a system without a Chinese font.
    """
    if paper not in PAPERS:
        raise PuzzleError(f"paper must be a4 or letter, got {paper!r}")
    puzzles = worksheet_puzzles(kind, level, count, seed, capture_sum)
    code = worksheet_code(kind, level, seed, capture_sum)
    tr = translator(lang)
    # A Scopa sheet's title names no sum: a Scopa set makes the played card's value.
    title = (tr("ws_title_scopa", kind=tr("ws_kind_scopa"), level=level) if kind == "scopa"
             else tr("ws_title", kind=tr(f"ws_kind_{kind}"), level=level, sum=capture_sum))
    return sheets_pdf([SheetSpec(tuple(puzzles), code, title)], paper, lang, duplex)


@dataclass(frozen=True)
class SheetSpec:
    """One sheet of a bundle: its puzzles (one kind), the code printed on every page of
    it and its key, its title ("Lola: facts to practise")."""

    puzzles: tuple[Puzzle, ...]
    code: str
    title: str


def sheets_pdf(sheets: Sequence[SheetSpec], paper: str = "a4", lang: str = "en",
               duplex: bool = False) -> bytes:
    """Several sheets in one PDF (a class's, one per pupil): every sheet's puzzles first,
    then every answer key, in the same order, so that the keys can be kept apart and a
    child never finds one on the back of a sheet (issue 27). ``duplex``: a blank page
    before the keys when the sheets end on a front, so the first key is not printed on
    the back of the last sheet. Titles may hold any name (a Unicode font is embedded
    when one is needed)."""
    if paper not in PAPERS:
        raise PuzzleError(f"paper must be a4 or letter, got {paper!r}")
    if not sheets or any(not s.puzzles for s in sheets):
        raise PuzzleError("a sheet needs puzzles")
    tr = translator(lang)
    sheet = _Sheet(paper, sheets[0].code, sheets[0].title, tr, lang,
                   [x for s in sheets for x in (s.code, s.title)])
    for spec in sheets:
        sheet.code, sheet.title = spec.code, spec.title
        _write_puzzle_pages(sheet, spec.puzzles, tr)
    if duplex and sheet.pdf.page % 2 == 1:
        sheet.pdf.add_page()
    for spec in sheets:
        sheet.code, sheet.title = spec.code, spec.title
        _write_key_pages(sheet, spec.puzzles, tr)
    return bytes(sheet.pdf.output())


def _write_puzzle_pages(sheet: _Sheet, puzzles: Sequence[Puzzle], tr: Tr) -> None:
    per = min(PER_PAGE[p.kind] for p in puzzles)
    sheet_pages = math.ceil(len(puzzles) / per)
    for page in range(sheet_pages):
        top = sheet.page(tr("ws_heading", title=sheet.title), page + 1, sheet_pages)
        block = (sheet.bottom - 4 - top) / per
        for j, p in enumerate(puzzles[page * per:(page + 1) * per]):
            _draw_puzzle(sheet, page * per + j + 1, p, top + j * block, block)


def _write_key_pages(sheet: _Sheet, puzzles: Sequence[Puzzle], tr: Tr) -> None:
    key_pages = math.ceil(len(puzzles) / KEY_PER_PAGE)
    for page in range(key_pages):
        top = sheet.page(tr("ws_answer_key"), page + 1, key_pages, answer_key=True)
        block = (sheet.bottom - 4 - top) / KEY_PER_PAGE
        for j, p in enumerate(puzzles[page * KEY_PER_PAGE:(page + 1) * KEY_PER_PAGE]):
            _draw_key_entry(sheet, page * KEY_PER_PAGE + j + 1, p, top + j * block, block)


def _draw_key_entry(sheet: _Sheet, number: int, p: Puzzle, y: float, height: float) -> None:
    pdf = sheet.pdf
    pdf.set_text_color(*_INK)
    pdf.set_font(sheet.font, "B", 10)
    pdf.set_xy(12, y)
    deck = sheet_deck(p.kind)
    shown = _codes(p.table, deck)
    if p.hand:
        shown += "   |   " + _codes(p.hand, deck)
    pdf.cell(sheet.width, 4.5, f"{number}.  {shown}" if p.kind != "quick-facts"
             else f"{number}.  {_instruction(p, sheet.tr)}")
    lines = _answer_text(p, sheet.tr)
    columns = 3 if len(lines) > 4 else 2 if len(lines) > 2 else 1
    rows = math.ceil(len(lines) / columns)
    line_h = min(4.2, (height - 5.5) / max(rows, 1))
    size = min(9.0, line_h * 2.2)
    pdf.set_font(sheet.font, "", size)
    col_w = (sheet.width - 8) / columns
    for i, line in enumerate(lines):
        r, c = divmod(i, columns)
        pdf.set_xy(20 + c * col_w, y + 5 + r * line_h)
        pdf.cell(col_w, line_h, line)


