""""Find all the 15s" puzzles on top of the escoba engine: kinds, grading, daily sets, worksheets.

Pure Python (no Streamlit): the app, the CLI and the worksheets all call this::

    from puzzles import generate, check
    puzzle = generate("captures", level=2, seed=7)          # same puzzle for the same seed
    result = check(puzzle, ["3o 5c"])                        # found / missed / wrong, stars
"""

from .checker import CheckResult, Hint, Malformed, WrongAnswer, check, hint
from .daily import DailySet, daily_number, daily_set, share_text
from .kinds import from_cards, generate, regenerate
from .model import (
    CAPTURE_SUMS,
    KINDS,
    LEVELS,
    Puzzle,
    PuzzleError,
    RankedMove,
    Solution,
    Stats,
    parse_id,
)

__all__ = [
    "CAPTURE_SUMS", "KINDS", "LEVELS", "Puzzle", "PuzzleError", "RankedMove", "Solution",
    "Stats", "generate", "parse_id", "regenerate", "from_cards",
    "check", "hint", "Hint", "CheckResult", "WrongAnswer", "Malformed",
    "DailySet", "daily_set", "daily_number", "share_text",
]
