"""How long the translation catalogs take to load, beside a compiled .mo (the baseline).

The app reads each ``.po`` file directly with Babel at first use (no build step a
fresh machine could miss). The alternative is compiling ``.mo`` files and loading
them with gettext; this measures both in the same run, interleaved, per language:

    .venv/bin/python bench/catalogs_bench.py --runs 15

Prints one JSON object; the figures go to docs/BENCHMARKS.md ("Translation catalogs").
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    import locales

    langs = locales.languages("messages")
    compiled: dict[str, bytes] = {}
    for lang in langs:
        with locales.po_path(lang, "messages").open("rb") as f:
            out = io.BytesIO()
            write_mo(out, read_po(f, locale=lang))
            compiled[lang] = out.getvalue()

    po_ms: dict[str, list[float]] = {lang: [] for lang in langs}
    mo_ms: dict[str, list[float]] = {lang: [] for lang in langs}
    for _ in range(args.runs):
        for lang in langs:
            locales.catalog.cache_clear()
            start = time.perf_counter()
            locales.catalog("messages", lang)
            po_ms[lang].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            Translations(io.BytesIO(compiled[lang]), domain="messages")
            mo_ms[lang].append((time.perf_counter() - start) * 1000)
    print(json.dumps({
        "runs": args.runs,
        "median_ms_po_as_the_app_reads_it": {k: round(statistics.median(v), 1)
                                             for k, v in po_ms.items()},
        "median_ms_compiled_mo_baseline": {k: round(statistics.median(v), 2)
                                           for k, v in mo_ms.items()},
    }, indent=1))


if __name__ == "__main__":
    main()
