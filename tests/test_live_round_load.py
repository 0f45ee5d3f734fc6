"""The pieces of bench/live_round_load.py (issue 29), fast and without a server: how an
answer's tap is matched to the projector's count that includes it, how a reveal is
timed on each tablet, and how a wire tablet keeps the page's timers (each drawn in the
fragment it reruns, ui.ticker; a fragment's own run does not reset them, a whole run does).
No timing is asserted: the figures are the benchmark's (docs/BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import json
import random

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.classroom_load import Pupil, PupilLog
from bench.live_round_load import REVEALED, Control, LiveTablet, Round, _score, summary


def test_an_answer_counts_when_the_projector_shows_its_rank_after_its_tap() -> None:
    live = Round(1, round_id=7, revealed=True)
    # Three answers: 11 tapped at 10.0 s (written first), 12 at 10.1 s, 13 at 12.0 s.
    live.answer_sent = {11: 10.0, 12: 10.1, 13: 12.0}
    live.answer_done = {11: 10.2, 12: 10.4, 13: 12.3}
    ranks = {11: 1, 12: 2, 13: 3}
    # The projector: 0, then 2 at 11.0 s (both at once), then 3 at 12.9 s.
    counts = [(0, 9.0), (2, 11.0), (3, 12.9)]
    live.reveal_click = 20.0
    live.revealed_at = {11: 20.5, 12: 21.25}  # 13's tablet never showed it
    live.reveal_asked = {11: 20.4, 12: 21.0}  # the refreshes that brought it
    notes: dict = {}
    # The projector's page sent its refreshes at 10.8 s and 12.7 s.
    probe = {"revealed": [20_300.0], "reveal": [20_000.0], "sends": [9.5, 10.8, 12.7]}
    _score(live, ranks, counts, probe, 0.0, notes)
    assert [round(ms) for ms in notes["tap_to_count"]] == [1000, 900, 900]
    assert [round(ms) for ms in notes["tap_to_written"]] == [200, 300, 300]
    assert sorted(round(ms) for ms in notes["reveal_to_tablet"]) == [500, 1250]
    assert notes["reveal_not_seen"] == 1 and notes["count_never_shown"] == 0
    assert notes["reveal_to_projector"] == [300.0]
    # Each time split at the refresh that brought it: waiting for it, then its run.
    assert [round(ms) for ms in notes["tap_to_projector_refresh"]] == [800, 700, 700]
    assert [round(ms) for ms in notes["projector_refresh_to_count"]] == [200, 200, 200]
    assert sorted(round(ms) for ms in notes["reveal_to_tablet_refresh"]) == [400, 1000]
    assert sorted(round(ms) for ms in notes["tablet_refresh_to_reveal"]) == [100, 250]
    # A count never reached is counted, not timed.
    late = Round(2, answer_sent={14: 30.0}, answer_done={14: 30.1})
    _score(late, {14: 4}, [(3, 31.0)], {"revealed": [], "reveal": [0.0], "sends": []}, 0.0,
           notes)
    assert notes["count_never_shown"] == 1 and len(notes["tap_to_count"]) == 3


def test_summary_gives_the_nearest_rank_p95() -> None:
    figures = summary([float(ms) for ms in range(1, 101)])
    assert figures == {"n": 100, "mean": 50, "p50": 50, "p95": 95, "max": 100}
    assert summary([]) == {"n": 0}


def _msg(kind: str, *, fragment: str = "", every: float = 0.0, run_of: str = "") -> bytes:
    msg = ForwardMsg()
    if kind == "timer":  # a fragment's timer as the app draws it (ui.ticker), in it
        msg.delta.fragment_id = fragment
        ticker = msg.delta.new_element.bidi_component
        ticker.id = f"$$ID-0a1b2c-look-ui-my-class-view-{fragment}"
        ticker.json = json.dumps({"every_ms": round(every * 1000)})
    else:
        msg.new_session.page_script_hash = "page"
        if run_of:
            msg.metadata.run.fragment_ids.append(run_of)
    return msg.SerializeToString()


def test_a_wire_tablet_keeps_the_pages_timers_and_sees_the_reveal() -> None:
    pupil = Pupil(5, "Quokka", "4821")
    control = Control(current=Round(1, revealed=True))
    tablet = LiveTablet("http://127.0.0.1:1", pupil, random.Random(0), (0.0, 0.0),
                        PupilLog(pupil), control)
    tablet._read(_msg("timer", fragment="watch", every=2.0))
    tablet._read(_msg("timer", fragment="guard", every=30.0))
    assert tablet.fragments == {"watch": 2.0, "guard": 30.0}
    first = dict(tablet.due)
    tablet._read(_msg("new_session", run_of="watch"))  # the fragment's own run
    assert tablet.fragments and tablet.due == first
    tablet._read(_msg("new_session"))  # a whole run: the page registers them again
    assert tablet.fragments == {} and tablet.due == {}
    # The reveal's message, as the server sends it (an st.info in the live round).
    reveal = ForwardMsg()
    reveal.delta.new_element.alert.body = f"{REVEALED}: your teacher is showing the answers."
    tablet._read(reveal.SerializeToString())
    assert set(control.current.revealed_at) == {5}

    sent: list = []

    async def fake_send(widgets=(), fragment: str = "") -> float:
        sent.append(fragment)
        return 0.0

    tablet.send = fake_send  # type: ignore[method-assign]
    tablet._read(_msg("timer", fragment="watch", every=0.05))
    asyncio.run(tablet.wait(0.18))
    assert 2 <= sent.count("watch") <= 4 and tablet.ticks == len(sent)


def test_a_fragments_timer_asks_for_that_fragment_with_the_widgets_as_last_sent() -> None:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    pupil = Pupil(5, "Quokka", "4821")
    tablet = LiveTablet("http://127.0.0.1:1", pupil, random.Random(0), (0.0, 0.0),
                        PupilLog(pupil), Control())
    tablet.page_hash, tablet.query = "page", "p=5"
    tablet.sent_states["board"] = WidgetState(id="board", json_value='{"ready":true}')
    tick = tablet.rerun_message(fragment="watch").rerun_script
    assert tick.fragment_id == "watch" and tick.is_auto_rerun
    assert tick.page_script_hash == "page" and tick.query_string == "p=5"
    assert [w.id for w in tick.widget_states.widgets] == ["board"]
    tap = tablet.rerun_message([WidgetState(id="done", trigger_value=True)]).rerun_script
    assert not tap.fragment_id and not tap.is_auto_rerun
    assert [w.id for w in tap.widget_states.widgets] == ["board", "done"]


def test_the_polling_launcher_reads_each_pollers_interval() -> None:
    from bench.polling_streamlit import POLLERS, intervals

    projector, tablet = POLLERS
    assert intervals("0.5") == {projector: 0.5, tablet: 0.5}
    assert intervals("0.5/2") == {projector: 0.5, tablet: 2.0}
    # The names are the app's: the two fragments a live round waits on.
    import ui.my_class_view
    import ui.teacher.parts.projector

    assert ui.teacher.parts.projector._screen.__module__ + "._screen" == projector
    assert ui.my_class_view._live_watch.__module__ + "._live_watch" == tablet
