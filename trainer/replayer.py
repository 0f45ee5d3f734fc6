"""Step through an uploaded ``escoba-record/1``: position after each move.

Pure functions over the engine, cached at the edge by the replay page.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from escoba import Code
from escoba.record import RecordError, Replay, load_record, replay

__all__ = ["parse_upload", "count_steps", "position_at", "RecordError", "MAX_UPLOAD_BYTES"]

#: The largest record we read (a long game is about 100 kB). Streamlit's own limit
#: (server.maxUploadSize) is set higher, so that a bigger file reaches us and the
#: page can say why it is refused, instead of Streamlit's hover-only red mark.
MAX_UPLOAD_BYTES = 2_000_000


def parse_upload(data: bytes) -> dict[str, Any]:
    """Read and fully check an uploaded record; :class:`RecordError` says what is wrong."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise RecordError("the file is too big to be a game record", Code.RECORD_TOO_BIG,
                          max_bytes=MAX_UPLOAD_BYTES)
    record = load_record(data)
    replay(record)  # every move checked: a corrupt record fails here, with round and move
    return record


def count_steps(record: dict[str, Any]) -> int:
    return sum(len(r.get("moves", [])) for r in record["rounds"])


@dataclass(frozen=True)
class Position:
    replay: Replay
    round_no: int
    move_in_round: int


def position_at(record: dict[str, Any], step: int) -> Position:
    """The game after the first ``step`` moves of the record (0: the first deal)."""
    cut = copy.deepcopy(record)
    rounds = []
    left = step
    for entry in cut["rounds"]:
        moves = entry.get("moves", [])
        taken = moves[:left]
        entry["moves"] = taken
        rounds.append(entry)
        left -= len(taken)
        if len(taken) < len(moves) or left == 0:
            break
    cut["rounds"] = rounds
    result = replay(cut)
    return Position(result, len(rounds), len(rounds[-1]["moves"]))
