"""Seeded simulations play the very same games as when the golden file was made.

tests/data/simulate_golden.json holds ``escoba simulate`` runs (every preset,
capture rule and table size, each player level) recorded with the engine as it
was before the speed work of issue 17. A faster engine must deal the same
cards, offer the same legal moves in the same order (random players pick by
position), accept the same moves and score the same points: the records it
writes are compared whole, and the golden records replay to the same scores.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from escoba.record import replay

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))

from make_simulate_golden import run_case  # noqa: E402

GOLDEN = json.loads((DATA / "simulate_golden.json").read_text("utf-8"))["cases"]


def _name(case: dict) -> str:
    return " ".join(case["argv"])


def test_the_golden_file_covers_every_preset_and_level():
    text = " ".join(_name(c) for c in GOLDEN)
    for word in ("relaxed", "setenta", "escova", "renuncio", "jokers=true", "--teams",
                 "hand_size=7", "redeal", "expert", "greedy", "gentle", "random"):
        assert word in text
    assert sum(len(c["records"]) for c in GOLDEN) >= 30


@pytest.mark.parametrize("case", GOLDEN, ids=_name)
def test_simulate_writes_the_golden_records(case):
    records = run_case(case["argv"])
    assert len(records) == len(case["records"])
    for number, (made, golden) in enumerate(zip(records, case["records"], strict=True), 1):
        assert made == golden, f"game {number} of `escoba simulate {_name(case)}` differs"


@pytest.mark.parametrize("case", GOLDEN, ids=_name)
def test_golden_records_replay_to_the_same_scores(case):
    for record, expected in zip(case["records"], case["replays"], strict=True):
        assert replay(record).to_json() == expected
