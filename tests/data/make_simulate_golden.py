"""Regenerate simulate_golden.json: seeded ``escoba simulate`` games, as records.

    python tests/data/make_simulate_golden.py > tests/data/simulate_golden.json

Each case is the argument list of one ``escoba simulate`` run (seeded), the
``escoba-record/1`` documents it wrote with ``--record-dir``, and what
``escoba replay --json`` says of each. tests/test_simulate_golden.py runs the
same commands and checks that the engine still deals, offers, accepts and
scores every move exactly as it did when this file was made: a faster engine
must play the very same games.

Made with the engine as it was before the speed work of issue 17 (and only
regenerated on purpose, when a rule itself changes or a computer player is meant to
choose differently). Regenerated once since: issue 30 made the gentle player gentler,
which changed the three cases it plays in and no other line of the file.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from commands import main as escoba
from escoba.record import replay

#: Every preset, the capture rules, jokers, 3 and 4 players, teams, seven-card hands,
#: other capture sums, open hands; random players (their choice follows the order of
#: the engine's legal moves) and every other level (the expert's search included).
CASES: list[list[str]] = [
    ["--games", "4", "--seed", "1", "--players", "random", "random"],
    ["--games", "2", "--seed", "2", "--players", "greedy", "random"],
    ["--games", "1", "--seed", "3", "--players", "expert", "greedy"],
    ["--games", "2", "--seed", "4", "--players", "gentle", "random", "--rules", "relaxed"],
    ["--games", "2", "--seed", "5", "--players", "random", "gentle",
     "--set", "capture_rule=renuncio"],
    ["--games", "1", "--seed", "6", "--players", "expert", "random",
     "--set", "capture_rule=renuncio"],
    ["--games", "2", "--seed", "7", "--players", "random", "greedy", "--rules", "setenta"],
    ["--games", "2", "--seed", "8", "--players", "random", "random", "--rules", "escova"],
    ["--games", "2", "--seed", "9", "--players", "random", "greedy", "--set", "jokers=true"],
    ["--games", "1", "--seed", "10", "--players", "expert", "random", "--set", "jokers=true"],
    ["--games", "2", "--seed", "11", "--players", "random", "greedy", "random"],
    ["--games", "2", "--seed", "12", "--players", "random", "random", "gentle", "greedy",
     "--teams"],
    ["--games", "1", "--seed", "13", "--players", "random", "random", "random", "random"],
    ["--games", "2", "--seed", "14", "--players", "random", "greedy",
     "--set", "hand_size=7"],
    ["--games", "2", "--seed", "15", "--players", "random", "random", "--capture-sum", "10"],
    ["--games", "2", "--seed", "16", "--players", "greedy", "random", "--capture-sum", "20"],
    ["--games", "2", "--seed", "17", "--players", "random", "random",
     "--set", "open_hand=true", "--set", "primera=true"],
    ["--games", "2", "--seed", "18", "--players", "random", "random",
     "--set", "initial_fifteen=redeal", "--set", "miscount=penalty"],
    ["--games", "2", "--seed", "19", "--players", "random", "random",
     "--set", "initial_fifteen=ignore", "--set", "last_play_escoba=false"],
]


def run_case(argv: list[str]) -> list[dict]:
    """The records ``escoba simulate ARGV --record-dir DIR`` writes, in game order."""
    with tempfile.TemporaryDirectory() as folder:
        with contextlib.redirect_stdout(io.StringIO()):
            code = escoba(["simulate", *argv, "--record-dir", folder, "--json"])
        assert code == 0, argv
        return [json.loads(p.read_text("utf-8")) for p in sorted(Path(folder).iterdir())]


def main() -> None:
    cases = []
    for argv in CASES:
        records = run_case(argv)
        cases.append({"argv": argv, "records": records,
                      "replays": [replay(r).to_json() for r in records]})
    # One case per line, so that a change shows which runs it touched.
    about = json.dumps("seeded `escoba simulate` runs and their records: "
                       "tests/data/make_simulate_golden.py")
    sys.stdout.write(f'{{"about":{about},"cases":[\n'
                     + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
                     + "\n]}\n")


if __name__ == "__main__":
    main()
