"""escoba puzzle / daily / worksheet: JSON shapes, one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest

from commands import main
from puzzles import daily_set, generate


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own errors (already one line, see escoba.cli.run)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_puzzle_json(capsys):
    code, out, _ = run(capsys, "puzzle", "--kind", "captures", "--level", "3", "--seed", "9",
                       "--capture-sum", "15", "--json")
    data = json.loads(out)
    assert code == 0
    assert data == generate("captures", 3, 9, 15).to_dict()
    assert {"id", "kind", "level", "capture_sum", "table", "hand", "solutions"} <= set(data)
    assert (data["kind"], data["level"], data["capture_sum"]) == ("captures", 3, 15)
    assert all({"card", "take"} <= set(s) for s in data["solutions"])


def test_fifteens_json_has_no_hand(capsys):
    _, out, _ = run(capsys, "puzzle", "--kind", "fifteens", "--level", "2", "--json")
    data = json.loads(out)
    assert "hand" not in data and all(set(s) == {"take"} for s in data["solutions"])


def test_puzzle_human_output(capsys):
    code, out, _ = run(capsys, "puzzle", "--kind", "captures", "--level", "3", "--seed", "9")
    p = generate("captures", 3, 9)
    assert code == 0 and p.id in out and " ".join(map(str, p.table)) in out


def test_daily_json(capsys):
    code, out, _ = run(capsys, "daily", "--date", "2026-12-01", "--json")
    data = json.loads(out)
    assert code == 0 and data["number"] == 1 and data["date"] == "2026-12-01"
    assert data == daily_set("2026-12-01").to_dict()


def test_worksheet_writes_the_pdf(capsys, tmp_path):
    target = tmp_path / "sheet.pdf"
    code, out, _ = run(capsys, "worksheet", "--kind", "captures", "--level", "2", "--count", "20",
                       "--seed", "7", "-o", str(target), "--json")
    info = json.loads(out)
    assert code == 0 and target.read_bytes().startswith(b"%PDF-")
    assert info["code"] == "CA2-15-7" and info["sheet_pages"] + info["key_pages"] == 6


@pytest.mark.parametrize("argv, message", [
    (("puzzle", "--kind", "riddle", "--level", "1"), "unknown puzzle kind 'riddle'"),
    (("puzzle", "--kind", "captures", "--level", "0"), "level must be 1-5, got 0"),
    (("puzzle", "--kind", "captures", "--level", "one"), "level must be 1-5"),
    (("puzzle", "--kind", "captures", "--level", "1", "--capture-sum", "12"), "capture-sum"),
    (("daily", "--date", "2026-02-30"), "not a date: '2026-02-30'"),
    (("daily", "--date", "tomorrow"), "not a date"),
    (("worksheet", "--kind", "hand", "--level", "2", "--count", "0"), "count must be 1-100"),
    (("worksheet", "--kind", "hand", "--level", "2", "--paper", "a3"), "paper"),
])
def test_bad_arguments_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_help_does_not_load_fpdf():
    import subprocess
    import sys

    probe = ("import sys; from commands import build_parser; build_parser(); "
             "print('fpdf' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
