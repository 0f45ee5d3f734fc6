"""Worksheets: a real PDF, the expected pages, the seed code on sheet and key (read back)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from puzzles import PuzzleError
from puzzles.worksheet import (
    page_counts,
    parse_worksheet_code,
    worksheet_code,
    worksheet_pdf,
    worksheet_puzzles,
)


def pages_text(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.fixture(scope="module")
def sheet() -> bytes:
    return worksheet_pdf("captures", 2, count=20, seed=7)


def test_pdf_has_the_expected_pages(sheet):
    assert sheet.startswith(b"%PDF-")
    sheet_pages, key_pages = page_counts("captures", 20)
    assert (sheet_pages, key_pages) == (4, 2)
    assert len(PdfReader(io.BytesIO(sheet)).pages) == sheet_pages + key_pages


def test_seed_code_on_every_page_of_sheet_and_key(sheet):
    code = worksheet_code("captures", 2, 7)
    assert code == "CA2-15-7"
    texts = pages_text(sheet)
    assert all(code in t for t in texts)
    assert not any("Answer key" in t for t in texts[:4])
    assert all("Answer key" in t for t in texts[4:])


def test_sheet_shows_the_puzzles_and_the_key_their_answers(sheet):
    puzzles = worksheet_puzzles("captures", 2, 20, 7)
    texts = pages_text(sheet)
    sheet_text, key_text = " ".join(texts[:4]), " ".join(texts[4:])
    # every puzzle is numbered on the sheet, and the key lists each puzzle's cards
    for i, p in enumerate(puzzles, start=1):
        assert f"{i}." in sheet_text
        assert " ".join(map(str, p.table)) in key_text
        for sol in p.solutions:
            assert f"{sol.card}: {' '.join(map(str, sol.take))}" in key_text
    # no answer on the sheet pages: the key is separate
    first = next(p for p in puzzles if p.solutions)
    assert f"{first.solutions[0].card}: " not in sheet_text


def test_letter_paper_and_other_kinds():
    from pypdf import PdfReader as Reader

    letter = worksheet_pdf("fifteens", 1, count=6, seed="class3b", paper="letter")
    box = Reader(io.BytesIO(letter)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    a4 = Reader(io.BytesIO(worksheet_pdf("quick-facts", 3, count=9, seed=1))).pages
    assert (round(float(a4[0].mediabox.width)), round(float(a4[0].mediabox.height))) == (595, 842)
    assert len(a4) == sum(page_counts("quick-facts", 9))
    hand = worksheet_pdf("hand", 5, count=3, seed=2, capture_sum=20)
    assert "HA5-20-2" in pages_text(hand)[-1]


def test_same_code_same_sheet():
    a = worksheet_puzzles("hand", 3, 5, 11)
    assert a == worksheet_puzzles("hand", 3, 5, "11")
    assert a[:3] == worksheet_puzzles("hand", 3, 3, 11)  # puzzle i does not depend on count
    assert parse_worksheet_code(worksheet_code("hand", 3, 11, 10)) == ("hand", 3, 10, "11")


@pytest.mark.parametrize("kwargs", [{"count": 0}, {"count": 101}, {"paper": "a3"},
                                    {"kind": "poems"}, {"level": 9}])
def test_bad_arguments(kwargs):
    args = {"kind": "captures", "level": 2, "count": 2, "seed": 1, "paper": "a4"} | kwargs
    with pytest.raises(PuzzleError):
        worksheet_pdf(args["kind"], args["level"], args["count"], args["seed"],
                      paper=args["paper"])


@pytest.mark.parametrize("lang", ["en", "es", "de", "it", "zh"])
def test_every_instruction_is_printed_within_the_page(lang: str) -> None:
    """Each kind's instruction at every level fits the line's width, shrunk or wrapped,
    never cut at the paper's edge (the Scopa instruction in Italian ran off the page)."""
    from fpdf import FPDF

    from puzzles.i18n import translator
    from puzzles.model import KINDS
    from puzzles.worksheet import _instruction, fit_text, use_fonts, worksheet_puzzles

    tr = translator(lang)
    longest = ""
    for kind in KINDS:
        for level in (1, 3, 5):
            for puzzle in worksheet_puzzles(kind, level, count=2, seed=1):
                text = _instruction(puzzle, tr)
                pdf = FPDF(unit="mm", format="A4")
                font, _plain = use_fonts(pdf, lang, [text])
                width = pdf.w - 24 - 9  # the sheet's width, less the number's
                lines = fit_text(pdf, font, text, width)
                assert 1 <= len(lines) <= 2, lines
                assert all(pdf.get_string_width(line) <= width + 0.01 for line in lines)
                assert "".join(lines).replace(" ", "") == text.replace(" ", "")
                longest = max(longest, text, key=len)
    assert longest  # the check above ran
