"""The classroom on paper and in a spreadsheet: login cards, the class list, worksheets,
CSV and xlsx exports (no Streamlit).

PDFs are made with fpdf2 like the worksheets (:mod:`puzzles.worksheet`, whose fonts
they share: the core font, a Unicode font when a name needs one, a CJK font for
Chinese). A pupil's picture is drawn with a few vector shapes and named in words, so a
card prints on any printer with no emoji font. CSV files are UTF-8 with a byte order
mark, which spreadsheet programs read as UTF-8 (accents and Chinese intact); a cell
that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first) is written
with a leading apostrophe.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from puzzles.practice import quick_fact_for
from puzzles.worksheet import SheetSpec, latin1_text, sheets_pdf, use_fonts, worksheet_pdf

from .classroom import DOMAIN, Picture, PupilLogin, format_code, picture_of, say
from .classroom_views import FactGrid, PupilRow, weak_facts
from .export import BOM, day_value, facts_text, kind_text, mode_text, table_csv, table_xlsx
from .i18n import t
from .storage import ClassInfo, ClassSnapshot, Member
from .text import fact_text
from .words import answer_text

if TYPE_CHECKING:  # pragma: no cover
    from fpdf import FPDF

__all__ = ["login_cards_pdf", "class_list_pdf", "class_worksheet_pdf", "pupil_worksheets_pdf",
           "attempts_table", "attempts_csv", "attempts_xlsx", "dashboard_table",
           "dashboard_csv", "dashboard_xlsx",
           "CARDS_PER_PAGE", "BOM"]

#: Login cards per A4 page: 2 columns of 4 (each about 95 × 69 mm, a quarter of a half).
CARD_COLUMNS, CARD_ROWS = 2, 4
CARDS_PER_PAGE = CARD_COLUMNS * CARD_ROWS
_INK = (20, 20, 20)


def _tr(lang: str) -> Callable[..., str]:
    return lambda key, **params: t(key, lang, domain=DOMAIN, **params)


class _Doc:
    """An A4 document with the fonts its texts need."""

    def __init__(self, lang: str, texts: Sequence[str], title: str) -> None:
        from fpdf import FPDF  # heavy: only loaded when a document is made

        self.pdf = FPDF(orientation="P", unit="mm", format="A4")
        self.font, self.plain = use_fonts(self.pdf, lang, [*texts, title])
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(10, 10, 10)
        self.pdf.set_creator("escoba classroom")
        self.pdf.set_title(self.text(title))

    def text(self, value: str) -> str:
        return latin1_text(value) if self.plain else value

    def write(self, x: float, y: float, w: float, h: float, value: str, size: float,
              bold: bool = False, align: str = "L") -> None:
        pdf = self.pdf
        pdf.set_font(self.font, "B" if bold else "", size)
        value = self.text(value)
        while size > 6 and pdf.get_string_width(value) > w:  # long names shrink to fit
            size -= 0.5
            pdf.set_font(self.font, "B" if bold else "", size)
        pdf.set_xy(x, y)
        pdf.cell(w, h, value, align=align)

    def output(self) -> bytes:
        return bytes(self.pdf.output())


# -- pictures --------------------------------------------------------------------------

def _draw_picture(pdf: FPDF, picture: Picture | None, cx: float, cy: float, size: float
                  ) -> None:
    """The picture drawn in a box ``size`` mm wide centred on (cx, cy)."""
    r = size / 2
    pdf.set_draw_color(*_INK)
    pdf.set_line_width(0.4)
    if picture is None:
        pdf.ellipse(cx - r, cy - r, size, size, style="D")
        return
    pdf.set_fill_color(*picture.colour)
    key = picture.key

    def circle(x: float, y: float, radius: float, style: str = "DF") -> None:
        pdf.ellipse(x - radius, y - radius, 2 * radius, 2 * radius, style=style)

    def poly(points: list[tuple[float, float]], style: str = "DF") -> None:
        pdf.polygon([(cx + px * r, cy + py * r) for px, py in points], style=style)

    if key == "sun":
        for i in range(8):
            a = i * math.pi / 4
            pdf.line(cx + 0.6 * r * math.cos(a), cy + 0.6 * r * math.sin(a),
                     cx + 0.95 * r * math.cos(a), cy + 0.95 * r * math.sin(a))
        circle(cx, cy, 0.5 * r)
    elif key == "moon":
        circle(cx, cy, 0.8 * r)
        pdf.set_fill_color(255, 255, 255)
        pdf.set_draw_color(255, 255, 255)
        circle(cx + 0.4 * r, cy - 0.25 * r, 0.7 * r, "F")
        pdf.set_draw_color(*_INK)
    elif key == "star":
        poly([(0.9 * math.cos(math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45),
               -0.9 * math.sin(math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45))
              for i in range(10)])
    elif key == "heart":
        poly([(-0.85, -0.25), (-0.7, -0.65), (-0.35, -0.8), (0, -0.5), (0.35, -0.8),
              (0.7, -0.65), (0.85, -0.25), (0, 0.8)])
    elif key == "tree":
        pdf.set_fill_color(130, 80, 40)
        pdf.rect(cx - 0.15 * r, cy + 0.2 * r, 0.3 * r, 0.75 * r, style="DF")
        pdf.set_fill_color(*picture.colour)
        circle(cx, cy - 0.2 * r, 0.6 * r)
    elif key == "flower":
        pdf.line(cx, cy, cx, cy + 0.95 * r)
        for i in range(5):
            a = i * 2 * math.pi / 5
            circle(cx + 0.4 * r * math.cos(a), cy - 0.2 * r + 0.4 * r * math.sin(a), 0.3 * r)
        pdf.set_fill_color(250, 220, 60)
        circle(cx, cy - 0.2 * r, 0.22 * r)
    elif key == "fish":
        pdf.ellipse(cx - 0.75 * r, cy - 0.4 * r, 1.2 * r, 0.8 * r, style="DF")
        poly([(0.4, 0), (0.9, -0.4), (0.9, 0.4)])
        pdf.set_fill_color(*_INK)
        circle(cx - 0.45 * r, cy - 0.1 * r, 0.07 * r, "F")
    elif key == "house":
        pdf.rect(cx - 0.6 * r, cy - 0.1 * r, 1.2 * r, 0.9 * r, style="DF")
        poly([(-0.8, -0.1), (0, -0.85), (0.8, -0.1)])
        pdf.set_fill_color(255, 255, 255)
        pdf.rect(cx - 0.15 * r, cy + 0.3 * r, 0.3 * r, 0.5 * r, style="DF")
    elif key == "boat":
        poly([(-0.85, 0.35), (0.85, 0.35), (0.55, 0.8), (-0.55, 0.8)])
        pdf.line(cx, cy + 0.35 * r, cx, cy - 0.9 * r)
        pdf.set_fill_color(255, 255, 255)
        poly([(0.05, -0.85), (0.05, 0.25), (0.7, 0.25)])
    elif key == "kite":
        poly([(0, -0.9), (0.5, -0.2), (0, 0.45), (-0.5, -0.2)])
        pdf.line(cx, cy + 0.45 * r, cx + 0.3 * r, cy + 0.95 * r)
    elif key == "apple":
        circle(cx, cy + 0.1 * r, 0.7 * r)
        pdf.line(cx, cy - 0.6 * r, cx + 0.1 * r, cy - 0.9 * r)
        pdf.set_fill_color(60, 150, 60)
        pdf.ellipse(cx + 0.1 * r, cy - 0.95 * r, 0.45 * r, 0.25 * r, style="DF")
    elif key == "rocket":
        pdf.rect(cx - 0.25 * r, cy - 0.45 * r, 0.5 * r, 1.1 * r, style="DF")
        poly([(-0.25, -0.45), (0, -0.95), (0.25, -0.45)])
        poly([(-0.25, 0.2), (-0.55, 0.7), (-0.25, 0.65)])
        poly([(0.25, 0.2), (0.55, 0.7), (0.25, 0.65)])
        pdf.set_fill_color(240, 150, 30)
        poly([(-0.15, 0.65), (0, 0.95), (0.15, 0.65)])
    elif key == "umbrella":
        poly([(-0.9, 0)] + [(0.9 * math.cos(math.pi - i * math.pi / 12),
                             -0.9 * math.sin(math.pi - i * math.pi / 12)) for i in range(13)])
        pdf.line(cx, cy, cx, cy + 0.8 * r)
        pdf.line(cx, cy + 0.8 * r, cx - 0.25 * r, cy + 0.8 * r)
    elif key == "cloud":
        for x, y, radius in ((-0.45, 0.15, 0.35), (0.45, 0.15, 0.35), (0, -0.1, 0.5),
                             (-0.2, 0.25, 0.35), (0.2, 0.25, 0.35)):
            circle(cx + x * r, cy + y * r, radius * r)
    elif key == "snowflake":
        pdf.set_draw_color(*picture.colour)
        pdf.set_line_width(1.0)
        for i in range(3):
            a = i * math.pi / 3
            pdf.line(cx - 0.9 * r * math.cos(a), cy - 0.9 * r * math.sin(a),
                     cx + 0.9 * r * math.cos(a), cy + 0.9 * r * math.sin(a))
        pdf.set_line_width(0.4)
        pdf.set_draw_color(*_INK)
    elif key == "balloon":
        pdf.ellipse(cx - 0.5 * r, cy - 0.9 * r, r, 1.2 * r, style="DF")
        pdf.line(cx, cy + 0.3 * r, cx + 0.1 * r, cy + 0.95 * r)
    else:
        _draw_more(pdf, picture, cx, cy, r)


def _draw_more(pdf: FPDF, picture: Picture, cx: float, cy: float, r: float) -> None:
    """The pictures added for classes of 30 (issue 27), each a few shapes as above."""
    key = picture.key

    def circle(x: float, y: float, radius: float, style: str = "DF") -> None:
        pdf.ellipse(x - radius, y - radius, 2 * radius, 2 * radius, style=style)

    def poly(points: list[tuple[float, float]], style: str = "DF") -> None:
        pdf.polygon([(cx + px * r, cy + py * r) for px, py in points], style=style)

    def fill(colour: tuple[int, int, int]) -> None:
        pdf.set_fill_color(*colour)

    if key == "ball":
        fill((255, 255, 255))
        circle(cx, cy, 0.85 * r)
        fill(_INK)
        poly([(0.3 * math.cos(a), 0.3 * math.sin(a))
              for a in (-math.pi / 2 + i * 2 * math.pi / 5 for i in range(5))])
    elif key == "clover":
        for dx, dy in ((-0.3, -0.3), (0.3, -0.3), (-0.3, 0.25), (0.3, 0.25)):
            circle(cx + dx * r, cy + dy * r, 0.32 * r)
        pdf.line(cx, cy + 0.3 * r, cx + 0.2 * r, cy + 0.95 * r)
    elif key == "mushroom":
        fill((245, 235, 215))
        pdf.rect(cx - 0.2 * r, cy, 0.4 * r, 0.8 * r, style="DF")
        fill(picture.colour)
        poly([(0.85 * math.cos(math.pi + i * math.pi / 12),
               0.05 + 0.8 * math.sin(math.pi + i * math.pi / 12)) for i in range(13)])
        fill((255, 255, 255))
        circle(cx - 0.35 * r, cy - 0.35 * r, 0.12 * r)
        circle(cx + 0.2 * r, cy - 0.5 * r, 0.12 * r)
    elif key == "cherries":
        pdf.line(cx - 0.35 * r, cy + 0.3 * r, cx + 0.15 * r, cy - 0.85 * r)
        pdf.line(cx + 0.4 * r, cy + 0.35 * r, cx + 0.15 * r, cy - 0.85 * r)
        circle(cx - 0.35 * r, cy + 0.45 * r, 0.35 * r)
        circle(cx + 0.4 * r, cy + 0.5 * r, 0.35 * r)
    elif key == "carrot":
        poly([(-0.3, -0.45), (0.3, -0.45), (0, 0.95)])
        for dx in (-0.2, 0, 0.2):
            pdf.line(cx + dx * r, cy - 0.45 * r, cx + 1.5 * dx * r, cy - 0.9 * r)
    elif key == "lemon":
        pdf.ellipse(cx - 0.85 * r, cy - 0.55 * r, 1.7 * r, 1.1 * r, style="DF")
    elif key == "strawberry":
        poly([(-0.7, -0.4), (0.7, -0.4), (0.45, 0.3), (0, 0.9), (-0.45, 0.3)])
        fill((60, 150, 60))
        poly([(-0.45, -0.4), (0, -0.75), (0.45, -0.4)])
        fill((255, 240, 150))
        for dx, dy in ((-0.3, -0.1), (0.3, -0.1), (0, 0.25), (-0.15, 0.5), (0.15, 0.5)):
            circle(cx + dx * r, cy + dy * r, 0.06 * r, "F")
    elif key == "car":
        pdf.rect(cx - 0.9 * r, cy - 0.1 * r, 1.8 * r, 0.5 * r, style="DF")
        poly([(-0.5, -0.1), (-0.3, -0.55), (0.35, -0.55), (0.55, -0.1)])
        fill(_INK)
        circle(cx - 0.5 * r, cy + 0.45 * r, 0.22 * r)
        circle(cx + 0.5 * r, cy + 0.45 * r, 0.22 * r)
    elif key == "bell":
        poly([(-0.2, -0.75), (0.2, -0.75), (0.4, -0.3), (0.45, 0.35), (0.75, 0.55),
              (-0.75, 0.55), (-0.45, 0.35), (-0.4, -0.3)])
        circle(cx, cy + 0.7 * r, 0.15 * r)
    elif key == "crown":
        poly([(-0.8, 0.5), (-0.8, -0.5), (-0.4, 0), (0, -0.7), (0.4, 0), (0.8, -0.5),
              (0.8, 0.5)])
    elif key == "drum":
        pdf.rect(cx - 0.7 * r, cy - 0.3 * r, 1.4 * r, 0.8 * r, style="DF")
        fill((245, 235, 215))
        pdf.ellipse(cx - 0.7 * r, cy - 0.5 * r, 1.4 * r, 0.4 * r, style="DF")
        pdf.line(cx - 0.2 * r, cy - 0.6 * r, cx - 0.8 * r, cy - 0.95 * r)
        pdf.line(cx + 0.2 * r, cy - 0.6 * r, cx + 0.8 * r, cy - 0.95 * r)
    elif key == "gift":
        pdf.rect(cx - 0.7 * r, cy - 0.4 * r, 1.4 * r, 1.2 * r, style="DF")
        pdf.line(cx, cy - 0.4 * r, cx, cy + 0.8 * r)
        pdf.line(cx - 0.7 * r, cy + 0.1 * r, cx + 0.7 * r, cy + 0.1 * r)
        circle(cx - 0.25 * r, cy - 0.6 * r, 0.22 * r, "D")
        circle(cx + 0.25 * r, cy - 0.6 * r, 0.22 * r, "D")
    elif key == "hat":
        pdf.rect(cx - 0.45 * r, cy - 0.8 * r, 0.9 * r, 1.2 * r, style="DF")
        pdf.rect(cx - 0.85 * r, cy + 0.4 * r, 1.7 * r, 0.2 * r, style="DF")
        fill((200, 40, 40))
        pdf.rect(cx - 0.45 * r, cy + 0.1 * r, 0.9 * r, 0.2 * r, style="DF")
    elif key == "cactus":
        pdf.rect(cx - 0.18 * r, cy - 0.85 * r, 0.36 * r, 1.75 * r, style="DF")
        pdf.rect(cx - 0.65 * r, cy - 0.35 * r, 0.25 * r, 0.55 * r, style="DF")
        pdf.rect(cx - 0.65 * r, cy + 0.1 * r, 0.5 * r, 0.2 * r, style="DF")
        pdf.rect(cx + 0.4 * r, cy - 0.6 * r, 0.25 * r, 0.55 * r, style="DF")
        pdf.rect(cx + 0.15 * r, cy - 0.15 * r, 0.5 * r, 0.2 * r, style="DF")
    elif key == "rainbow":
        for radius, colour in ((0.9, (230, 60, 60)), (0.75, (240, 160, 40)),
                               (0.6, (240, 220, 60)), (0.45, (60, 160, 80)),
                               (0.3, (255, 255, 255))):
            fill(colour)
            poly([(radius * math.cos(math.pi + i * math.pi / 16),
                   0.4 + radius * math.sin(math.pi + i * math.pi / 16)) for i in range(17)])
    elif key == "mountain":
        poly([(-0.95, 0.7), (-0.2, -0.75), (0.25, 0.05), (0.45, -0.3), (0.95, 0.7)])
        fill((255, 255, 255))
        poly([(-0.2, -0.75), (-0.4, -0.35), (0.0, -0.35)])
    elif key == "pencil":
        poly([(-0.8, 0.5), (0.45, -0.75), (0.75, -0.45), (-0.5, 0.8)])
        fill((245, 225, 190))
        poly([(-0.8, 0.5), (-0.5, 0.8), (-0.95, 0.95)])
    elif key == "diamond":
        poly([(-0.8, -0.3), (-0.45, -0.7), (0.45, -0.7), (0.8, -0.3), (0, 0.85)])
        pdf.line(cx - 0.8 * r, cy - 0.3 * r, cx + 0.8 * r, cy - 0.3 * r)
    elif key == "lightning":
        poly([(0.15, -0.95), (-0.5, 0.1), (-0.05, 0.1), (-0.25, 0.95), (0.5, -0.15),
              (0.05, -0.15), (0.3, -0.95)])
    elif key == "ice_cream":
        fill((215, 165, 90))
        poly([(-0.45, -0.05), (0.45, -0.05), (0, 0.95)])
        fill(picture.colour)
        circle(cx, cy - 0.35 * r, 0.5 * r)
    else:  # a picture without a drawing yet: its colour, so the card is never blank
        circle(cx, cy, 0.7 * r)


#: The pictures :func:`_draw_picture` draws by their own shapes (tests check every one).
_DRAWN = frozenset({"sun", "moon", "star", "heart", "tree", "flower", "fish", "house", "boat",
                    "kite", "apple", "rocket", "umbrella", "cloud", "snowflake", "balloon",
                    "ball", "clover", "mushroom", "cherries", "carrot", "lemon", "strawberry",
                    "car", "bell", "crown", "drum", "gift", "hat", "cactus", "rainbow",
                    "mountain", "pencil", "diamond", "lightning", "ice_cream"})


def _picture_word(avatar: str, lang: str) -> str:
    picture = picture_of(avatar)
    return t(f"pic.{picture.key}", lang, domain=DOMAIN) if picture is not None else ""


# -- login cards and the class list ----------------------------------------------------

def login_cards_pdf(info: ClassInfo, pupils: Sequence[PupilLogin], lang: str = "en") -> bytes:
    """Cut-out login cards, 8 per A4 page: class name and code, the pupil's picture (drawn
    and named), nickname and PIN. A pupil whose PIN is not known now (PINs are shown only
    when made) gets a line to write it on."""
    tr = _tr(lang)
    code = format_code(info.code)
    texts = [info.name] + [p.nickname for p in pupils]
    doc = _Doc(lang, texts, tr("card.doc_title", name=info.name))
    pdf = doc.pdf
    width, height = (pdf.w - 20) / CARD_COLUMNS, (pdf.h - 20) / CARD_ROWS
    for index, pupil in enumerate(pupils):
        slot = index % CARDS_PER_PAGE
        if slot == 0:
            pdf.add_page()
            _cut_lines(pdf, width, height)
        x = 10 + (slot % CARD_COLUMNS) * width
        y = 10 + (slot // CARD_COLUMNS) * height
        pad = 5.0
        doc.write(x + pad, y + pad, width - 2 * pad, 5, info.name, 10)
        doc.write(x + pad, y + pad + 6, width - 2 * pad, 7, tr("card.code", code=code), 13,
                  bold=True)
        size = 30.0
        _draw_picture(pdf, picture_of(pupil.avatar), x + pad + size / 2, y + 24 + size / 2,
                      size)
        doc.write(x + pad - 2, y + 24 + size + 1, size + 4, 5, _picture_word(pupil.avatar, lang),
                  10, align="C")
        left = x + pad + size + 6
        room = x + width - pad - left
        doc.write(left, y + 27, room, 10, pupil.nickname, 20, bold=True)
        doc.write(left, y + 40, room, 5, tr("card.pin_label"), 10)
        pin = " ".join(pupil.pin) if pupil.pin else "_ _ _ _"
        doc.write(left, y + 46, room, 12, pin, 24, bold=True)
        doc.write(x + pad, y + height - pad - 5, width - 2 * pad, 5, tr("card.how"), 8)
    if not pupils:
        pdf.add_page()
        doc.write(10, 10, pdf.w - 20, 8, tr("card.none"), 12)
    return doc.output()


def _cut_lines(pdf: FPDF, width: float, height: float) -> None:
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    pdf.set_dash_pattern(dash=2, gap=1.5)
    for i in range(CARD_COLUMNS + 1):
        pdf.line(10 + i * width, 10, 10 + i * width, 10 + CARD_ROWS * height)
    for j in range(CARD_ROWS + 1):
        pdf.line(10, 10 + j * height, 10 + CARD_COLUMNS * width, 10 + j * height)
    pdf.set_dash_pattern()
    pdf.set_draw_color(*_INK)


def class_list_pdf(info: ClassInfo, members: Sequence[Member], lang: str = "en",
                   group: str | None = None) -> bytes:
    """The class list for the teacher: number, picture, nickname, real name; the class's
    name and code on top, and the group's name when the list is one group's (issue 29:
    ``members`` are then that group's)."""
    tr = _tr(lang)
    name = f"{info.name} · {group}" if group else info.name
    texts = [name] + [m.nickname for m in members] + [m.real_name or "" for m in members]
    doc = _Doc(lang, texts, tr("list.title", name=name))
    pdf = doc.pdf
    columns = ((10, 10, tr("list.number")), (20, 42, tr("list.picture")),
               (62, 60, tr("list.nickname")), (122, 78, tr("list.real_name")))
    per_page, row_h = 30, 8.0
    pages = max(1, math.ceil(len(members) / per_page))
    for page in range(pages):
        pdf.add_page()
        doc.write(10, 10, 130, 9, tr("list.title", name=name), 16, bold=True)
        doc.write(140, 10, 60, 9, tr("card.code", code=format_code(info.code)), 12, align="R")
        doc.write(10, 19, 130, 6, tr("list.count", count=len(members)), 10)
        doc.write(140, 19, 60, 6, tr("list.page", number=page + 1, total=pages), 9, align="R")
        y = 30.0
        for x, w, label in columns:
            doc.write(x, y, w, row_h, label, 10, bold=True)
        pdf.set_line_width(0.3)
        pdf.line(10, y + row_h, 200, y + row_h)
        for i, member in enumerate(members[page * per_page:(page + 1) * per_page]):
            y += row_h
            number = page * per_page + i + 1
            picture = picture_of(member.avatar)
            _draw_picture(pdf, picture, 24, y + row_h / 2, 6)
            values = (str(number), _picture_word(member.avatar, lang), member.nickname,
                      member.real_name or "")
            for (x, w, _), value in zip(columns, values, strict=True):
                doc.write(x + (8 if x == 20 else 0), y, w - (8 if x == 20 else 0), row_h,
                          value, 11)
            pdf.set_draw_color(200, 200, 200)
            pdf.line(10, y + row_h, 200, y + row_h)
            pdf.set_draw_color(*_INK)
    return doc.output()


# -- worksheets ------------------------------------------------------------------------

def class_worksheet_pdf(info: ClassInfo, kind: str, level: int, count: int = 20,
                        seed: int | str | None = None, lang: str = "en") -> bytes:
    """The class's worksheet with its answer key (:func:`puzzles.worksheet.worksheet_pdf`
    at the class's capture sum; the seed defaults to the class code, so each class gets
    its own sheet and can print it again). The key starts on a sheet of paper of its
    own, printed double-sided too (a blank page before it when needed)."""
    return worksheet_pdf(kind, level, count, seed if seed is not None else info.code.lower(),
                         info.capture_sum, "a4", lang, duplex=True)


def pupil_worksheets_pdf(snapshot: ClassSnapshot, grid: FactGrid, lang: str = "en",
                         count: int = 8, only: Sequence[int] | None = None) -> bytes:
    """One sheet per pupil of quick facts on their weak facts: the cells their grid shows
    wrong, then slow, then facts not tried yet (:func:`trainer.classroom_views.weak_facts`);
    every pupil's sheet first, then all the answer keys (for the teacher, never on the
    back of a child's sheet: a blank page keeps them apart when printed double-sided)."""
    tr = _tr(lang)
    sheets = []
    for number, row in enumerate(grid.rows, start=1):
        if only is not None and row.profile_id not in only:
            continue
        facts = weak_facts(row, count, grid.capture_sum)
        puzzles = tuple(p for p in (quick_fact_for(f, grid.capture_sum) for f in facts)
                        if p is not None)
        if puzzles:
            sheets.append(SheetSpec(puzzles, f"{snapshot.info.code}-{number}",
                                    tr("ws.pupil_title", name=row.nickname)))
    if not sheets:
        raise ValueError("no pupil to print a sheet for")
    return sheets_pdf(sheets, "a4", lang, duplex=True)


# -- tables: CSV and xlsx ---------------------------------------------------------------

Table = tuple[list[str], list[list[Any]]]


def attempts_table(snapshot: ClassSnapshot, lang: str = "en") -> Table:
    """Every attempt of the class's pupils, one row each (oldest first, by pupil), every
    value in ``lang``: the pupil's group (issue 29; empty: in none), where and what in
    words, facts as read, the answer as moves. The
    snapshot must hold every attempt (``Classroom.snapshot``'s default)."""
    if not snapshot.every_attempt:
        raise ValueError("the attempts export needs every attempt of the class")
    tr = _tr(lang)
    header = [tr(f"csv.{k}") for k in (
        "nickname", "real_name", "group", "created_at", "day", "mode", "kind", "level",
        "capture_sum", "correct", "found", "missed", "wrong", "seconds", "hints", "stars",
        "fact", "facts", "answer")]
    groups = {g.id: g.name for g in snapshot.groups}
    rows = []
    for member in snapshot.members:
        group = groups.get(member.group_id) if member.group_id is not None else None
        for a in snapshot.attempts.get(member.profile_id, []):
            rows.append([member.nickname, member.real_name, group, a.created_at,
                         day_value(a.day),
                         mode_text(a.mode, lang), kind_text(a.kind, lang), a.level,
                         a.capture_sum, a.correct, a.found, a.missed, a.wrong, a.seconds,
                         a.hints, a.stars, fact_text(a.fact) if a.fact else None,
                         facts_text(a.facts, lang), answer_text(a.answer, lang)])
    return header, rows


def attempts_csv(snapshot: ClassSnapshot, lang: str = "en", style: str | None = None,
                 zone: tzinfo | None = None) -> bytes:
    """:func:`attempts_table` as a CSV (``style``: :data:`trainer.export.CSV_STYLES`,
    the language's by default; times in ``zone``)."""
    return table_csv(*attempts_table(snapshot, lang), lang, zone, style)


def attempts_xlsx(snapshot: ClassSnapshot, lang: str = "en", zone: tzinfo | None = None
                  ) -> bytes:
    """:func:`attempts_table` as an Excel workbook (typed numbers, dates and times)."""
    return table_xlsx(*attempts_table(snapshot, lang), lang, zone,
                      title=_tr(lang)("file.attempts"))


def dashboard_table(rows: Sequence[PupilRow], lang: str = "en") -> Table:
    """The dashboard table as the teacher sees it (each pupil's group, percentages 0-100,
    "3 of 45" in words, the needs-help reasons worded in ``lang``)."""
    tr = _tr(lang)
    header = [tr(f"csv.{k}") for k in (
        "nickname", "real_name", "group", "last_active", "lesson_stars", "lesson_levels", "puzzles",
        "quick_facts", "game_turns", "accuracy", "week_accuracy", "median_seconds",
        "fluent_additions", "fluent_complements", "assignments_done", "needs_help")]

    def of(done: int, total: int) -> str:  # "3/45" would become the 3rd of some month
        return tr("csv.of", done=done, total=total)

    out = []
    for row in rows:
        reasons = "; ".join(say(r.key, r.params, lang) for r in row.help)
        out.append([row.nickname, row.real_name, row.group, row.last_active,
                    of(row.lesson_stars, row.lesson_stars_max), row.lesson_levels,
                    row.puzzles, row.quick_facts, row.game_turns,
                    round(100 * row.accuracy) if row.accuracy is not None else None,
                    round(100 * row.week_accuracy) if row.week_accuracy is not None else None,
                    row.median_seconds, of(row.fluent_additions, 55),
                    of(row.fluent_complements, row.complements),
                    of(row.assignments_done, row.assignments), reasons])
    return header, out


def dashboard_csv(rows: Sequence[PupilRow], lang: str = "en", style: str | None = None,
                  zone: tzinfo | None = None) -> bytes:
    """:func:`dashboard_table` as a CSV."""
    return table_csv(*dashboard_table(rows, lang), lang, zone, style)


def dashboard_xlsx(rows: Sequence[PupilRow], lang: str = "en", zone: tzinfo | None = None
                   ) -> bytes:
    """:func:`dashboard_table` as an Excel workbook."""
    return table_xlsx(*dashboard_table(rows, lang), lang, zone,
                      title=_tr(lang)("file.dashboard"))
