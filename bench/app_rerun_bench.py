"""How long the Play page's rerun after a move takes, next to an empty page's rerun.

Both are measured with AppTest in the same process, interleaved (one empty
rerun, then one move), so machine load affects both alike. A "move" rerun is
the run triggered by tapping the Play button: the engine plays the child's
move, the computer replies, both are saved to SQLite in a transaction, and
the whole board is drawn again. The pills taps that choose the move are
excluded (they are reruns of their own).

    .venv/bin/python bench/app_rerun_bench.py --moves 60

Prints one JSON object; the figures go to docs/BENCHMARKS.md ("App (issue 5)").
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _quiet() -> None:
    for name in ("streamlit", "trainer.storage"):
        logging.getLogger(name).setLevel(logging.ERROR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves per block")
    parser.add_argument("--blocks", type=int, default=5,
                        help="repeat; the machine is shared, so each block has its own ratio")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    os.environ["ESCOBA_DB_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.db")
    from streamlit.testing.v1 import AppTest

    from tests.test_app_helpers import choose, create_profile, game, new_app

    _quiet()
    empty = AppTest.from_string("import streamlit as st\n", default_timeout=60).run()
    at = create_profile(new_app())
    at.switch_page("app_pages/play.py").run()
    at.button(key="start_game").click().run()
    _quiet()
    rng = random.Random(args.seed)
    empty_times: list[float] = []
    move_times: list[float] = []
    block_ratios: list[float] = []
    for _block in range(args.blocks):
        empty_block: list[float] = []
        move_block: list[float] = []
        while len(move_block) < args.moves:
            g = game(at)
            if g.round_over:
                key = "next_round" if not g.is_over else "new_game_after"
                at.button(key=key).click().run()
                if key == "new_game_after":
                    at.button(key="start_game").click().run()
                continue
            start = time.perf_counter()
            empty.run()
            empty_block.append(time.perf_counter() - start)
            choose(at, rng.choice(g.observation(g.to_move).legal_moves()))
            button = at.button(key="play_button").click()
            start = time.perf_counter()
            button.run()
            move_block.append(time.perf_counter() - start)
            assert not at.exception, at.exception
        block_ratios.append(statistics.median(move_block) / statistics.median(empty_block))
        empty_times += empty_block
        move_times += move_block

    def summary(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"median_ms": round(1000 * statistics.median(xs), 2),
                "p90_ms": round(1000 * xs[int(0.9 * (len(xs) - 1))], 2),
                "mean_ms": round(1000 * statistics.fmean(xs), 2)}

    empty_s, move_s = summary(empty_times), summary(move_times)
    print(json.dumps({
        "moves": len(move_times),
        "empty_page_rerun": empty_s,
        "play_page_rerun_after_move": move_s,
        "ratio_median": round(move_s["median_ms"] / empty_s["median_ms"], 2),
        "ratio_per_block": [round(r, 2) for r in block_ratios],
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }, indent=2))


if __name__ == "__main__":
    main()
