"""Where first paint of Play goes: the board with the app's parts added one by one (issue 32).

``bench/board_browser_bench.py`` times Play's first paint against a bare page's and the
board alone's. This one splits the difference. It serves, on one fresh SQLite file:
the app (to make a profile with a game in play, as a child does), the bare page (a
title and a button), ``bench/first_paint/parts_page.py`` (the board, and the parts the
query string asks for) and the same page served by ``st.App`` with its base address
said in the HTML (``bench/first_paint/said_base.py``). Each round opens, each in a new
browser context (cold cache, new session), the bare page and then every variant, and
times the first frame with the board's cards drawn (the bare page: its title), by the
page's own clock. Medians of ``--opens`` rounds after one not counted.

It also serves the app as it ships (``serve.py``: its base said the same way) beside
``streamlit run app.py`` (the root guessed), and opens Play (``/play?p=``) on both.

Variants (``PATH|QUERY``; a leading ``S``: the parts page with its base said, ``P``:
the app, ``A``: the app with its base said):

- ``/|x=0``: the board alone at the root address;
- ``/play|x=0``: the same at a page's address (``/play``: the root is guessed);
- ``/play|nav=hidden``: with ``st.navigation`` of 14 pages, no menu drawn;
- ``/play|nav=sidebar``: with the menu drawn;
- ``/play|nav=sidebar&side=1``: and the app's sidebar;
- ``/play|nav=sidebar&side=1&icon=1&title=1``: and the page icon and a heading;
- the last two again on the said-base server (``S/play|...``);
- Play itself, ``streamlit run app.py`` (``P/play|``), and as ``serve.py`` serves it
  (``A/play|``).

    .venv/bin/python bench/first_paint_parts.py --opens 9

Prints one JSON object: each variant's median and its difference from the bare page's
(ms). Figures in docs/BENCHMARKS.md ("First paint of Play, part by part").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.board_browser_bench import (  # noqa: E402
    _COLD_BOARD,
    _COLD_TITLE,
    BOARD_ALONE,
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    bench_folder,
    new_profile_with_game,
    opened_cold,
)

PARTS = BOARD_ALONE.parent
VARIANTS = ("/|x=0", "/play|x=0", "/play|nav=hidden", "/play|nav=sidebar",
            "/play|nav=sidebar&side=1", "/play|nav=sidebar&side=1&icon=1&title=1",
            "S/play|nav=sidebar", "S/play|nav=sidebar&side=1&icon=1&title=1",
            "P/play|", "A/play|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=9, help="counted rounds of opens")
    parser.add_argument("--variants", default=";".join(VARIANTS),
                        help="PATH|QUERY variants, ';'-separated (S: the said-base server)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.conftest import streamlit_server

    began = time.perf_counter()
    variants = args.variants.split(";")
    work, bare, env = bench_folder("first-paint-parts-")
    times: dict[str, list[float]] = {v: [] for v in ("bare", *variants)}
    with streamlit_server(ROOT / "app.py", env, work / "app.log", 90) as url, \
            streamlit_server(bare, env, work / "bare.log", 90) as bare_url, \
            streamlit_server(BOARD_ALONE, env, work / "parts.log", 90) as parts, \
            streamlit_server(PARTS / "said_base.py", env, work / "said.log", 90) as said, \
            streamlit_server(ROOT / "serve.py", env, work / "app_said.log", 90) as app_said, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # A child's profile with a game in play, made on the app as a child makes it.
        context = browser.new_context(viewport=VIEWPORT, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(60_000)
        profile = new_profile_with_game(page, url, "Cold")
        context.close()

        for round_ in range(args.opens + 1):
            row = {"bare": opened_cold(browser, f"{bare_url}/", _COLD_TITLE)[0]["frame"]}
            for variant in variants:
                path, query = variant.split("|")
                server = {"S": said, "P": url, "A": app_said}.get(path[0], parts)
                address = f"{server}{path.lstrip('SPA')}?p={profile}&{query}"
                row[variant] = opened_cold(browser, address, _COLD_BOARD)[0]["frame"]
            if round_:
                for name, value in row.items():
                    times[name].append(value)
            print(f"round {round_}{'' if round_ else ' (warm-up)'}: "
                  + ", ".join(f"{k} {v:.0f}" for k, v in row.items()), file=sys.stderr)
        browser.close()
    medians = {k: statistics.median(v) for k, v in times.items()}
    print(json.dumps({
        "opens": args.opens,
        "median_ms": {k: round(v) for k, v in medians.items()},
        "minus_bare_ms": {k: round(v - medians["bare"]) for k, v in medians.items()},
        "seconds": round(time.perf_counter() - began),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }, indent=1))


if __name__ == "__main__":
    main()
