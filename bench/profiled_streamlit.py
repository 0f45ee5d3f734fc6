"""``streamlit`` under cProfile, every thread of it: where a loaded server's time goes.

    python bench/profiled_streamlit.py OUT.prof run app.py --server.port ...

cProfile alone sees only the main thread (Tornado's loop); a Streamlit run happens in
a script thread of its own, a new one per rerun. Here every new thread starts its own
profiler (``threading.setprofile``), and when the server stops, all of them are merged
into ``OUT.prof`` (``python -m pstats OUT.prof``, or ``pstats.Stats``). The profiler
slows the server down (about twice as much CPU): use it to see the shares, not the
times. ``bench/classroom_load.py --profile OUT.prof`` runs its server this way.
"""

from __future__ import annotations

import atexit
import cProfile
import os
import pstats
import signal
import sys
import threading
import time
from typing import Any

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _new_profile() -> cProfile.Profile:
    if os.environ.get("ESCOBA_PROFILE_CPU") == "1":
        return cProfile.Profile(time.thread_time)
    return cProfile.Profile()


def _start_thread_profile(frame: Any, event: str, arg: Any) -> None:
    """The first event of a new thread: from now on, its own profiler records it."""
    sys.setprofile(None)
    profile = _new_profile()
    with _lock:
        _profiles.append(profile)
    profile.enable()


def _dump(path: str, main: cProfile.Profile) -> None:
    main.disable()
    stats = pstats.Stats(main)
    with _lock:
        profiles = list(_profiles)
    for profile in profiles:
        try:
            stats.add(profile)
        except (TypeError, ValueError):  # a thread that recorded nothing
            continue
    stats.dump_stats(path)
    print(f"profile of {len(profiles) + 1} threads written to {path}", file=sys.stderr)


def main() -> None:
    out = sys.argv.pop(1)
    threading.setprofile(_start_thread_profile)
    main_profile = _new_profile()
    atexit.register(_dump, out, main_profile)
    sys.argv[0] = "streamlit"
    # ``streamlit run serve.py`` is served by uvicorn, which after its graceful stop
    # raises SIGTERM again with the handler it found: an exit, so that atexit writes OUT.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    from streamlit.web.cli import main as streamlit_main

    main_profile.enable()
    streamlit_main()


if __name__ == "__main__":
    main()
