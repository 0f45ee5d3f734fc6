"""What My progress, My games and the end-of-game review say: one count of mistakes in
round order, whole numbers, short dates, titles that fit a phone, games per profile."""

from __future__ import annotations

import os

import pandas as pd
import pytest
import sqlalchemy as sa

from escoba import Rules
from puzzles.practice import Attempt
from tests.test_app_helpers import assert_ok, create_profile, new_app
from trainer import charts
from trainer.gameplay import GameSession, SeatSpec
from trainer.hints import GameReview
from trainer.i18n import t, use_language
from trainer.storage import Storage

#: A review as stored: rounds out of order by value lost, six moves to think about.
STORED = [
    {"round": 1, "move_no": 3, "move": "7o takes 8c", "best": "7o takes 3c 5e", "lost": 0.2,
     "mistakes": [["missed_escoba", {}]]},
    {"round": 2, "move_no": 1, "move": "1o down", "best": "1o takes 4c", "lost": 3.0,
     "mistakes": []},
    {"round": 1, "move_no": 5, "move": "2c down", "best": "2c down", "lost": 0.0,
     "mistakes": []},
    {"round": 3, "move_no": 2, "move": "5b down", "best": "5b takes 10o", "lost": 1.5,
     "mistakes": [["left_sweep", {}]]},
    {"round": 4, "move_no": 4, "move": "6e down", "best": "6e takes 9o", "lost": 0.9,
     "mistakes": []},
    {"round": 1, "move_no": 7, "move": "3o down", "best": "3o takes 1c 1b", "lost": 2.5,
     "mistakes": []},
    {"round": 2, "move_no": 6, "move": "4b down", "best": "4b takes 1e", "lost": 0.1,
     "mistakes": []},
]


def en(key: str, **params: object) -> str:
    return t(key, "en", **params)


def test_review_mistakes_in_round_order_and_one_count() -> None:
    review = GameReview.from_stored(STORED)
    assert review.mistake_count == 6
    assert [(m.round, m.move_no) for m in review.mistakes] == [
        (1, 3), (1, 7), (2, 1), (2, 6), (3, 2), (4, 4)]
    # The five costliest, still in the order they were played.
    assert [(m.round, m.move_no) for m in review.biggest(5)] == [
        (1, 3), (1, 7), (2, 1), (3, 2), (4, 4)]
    assert GameReview.from_stored(review.to_stored()).mistake_count == 6
    assert GameReview.from_stored(None) is None


class _Game:
    def __init__(self, game_id: int, review: object) -> None:
        from datetime import UTC, datetime

        self.id, self.review, self.winner = game_id, review, 0
        self.updated_at = datetime(2026, 12, 3, tzinfo=UTC)
        self.seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
        self.rules = {}
        self.viewer_seat = None  # a game of this device (GameRow.viewer_seat)


def test_progress_counts_the_reviews_mistakes_as_whole_numbers() -> None:
    frame = charts.games_frame([(_Game(1, STORED), [])])
    assert list(frame["mistakes"]) == [6]
    chart = charts.mistakes_chart(frame, en)
    assert chart.params["last"] == "6"  # written by Babel, as the language writes it
    reading = en(chart.key, **chart.params)
    assert "6" in reading and "6.0" not in reading
    assert list(chart.figure.data[0].y) == [6]
    assert charts.whole(2.5) == 2.5 and charts.whole(6.0) == 6


def test_a_year_of_games_draws_the_latest_thirty_with_a_few_labels() -> None:
    """A year's 182 games drew 182 bars with 182 two-line labels, a barcode and a smudge
    on a phone (found trying a year as a parent): the per-game charts draw the latest
    games, numbered as played, and name a few of them under the chart."""
    import pandas as pd

    count = 182
    frame = pd.DataFrame({
        "game": range(1, count + 1),
        "when": pd.date_range("2026-01-01", periods=count, freq="2D", tz="UTC"),
        "level": "greedy", "won": [i % 2 == 0 for i in range(count)],
        "escobas": [i % 3 for i in range(count)], "rounds": 2,
        "points_per_round": [float(i % 5) for i in range(count)],
        "mistakes": [i % 4 for i in range(count)]})
    for chart in (charts.escobas_chart(frame, en), charts.points_chart(frame, en),
                  charts.mistakes_chart(frame, en)):
        x = list(chart.figure.data[0].x)
        assert len(x) == charts.CHART_GAMES
        assert x[0].startswith(en("ch_game_n", n=count - charts.CHART_GAMES + 1) + "<br>")
        assert x[-1].startswith(en("ch_game_n", n=count) + "<br>")
        axis = chart.figure.layout.xaxis
        shown, at = list(axis.ticktext), list(axis.tickvals)
        assert 1 < len(shown) <= charts.GAME_LABELS and at[-1] == x[-1]
        # level and short: the game's number over its day, the axis saying what they are
        assert shown[-1] == f"{count}<br>" + x[-1].split("<br>")[1] and axis.tickangle == 0
        assert all(tick.split("<br>")[0].isdigit() for tick in shown)
        assert axis.title.text == en("ch_games_axis")
    escobas = charts.escobas_chart(frame, en)
    assert escobas.params == {"escobas": sum(i % 3 for i in range(count - 30, count)),
                              "count": charts.CHART_GAMES}  # the sentence: the games drawn
    few = charts.escobas_chart(frame.head(5), en)  # a few games: all drawn, all named
    assert list(few.figure.layout.xaxis.tickvals) == list(few.figure.data[0].x)
    assert [t.split("<br>")[0] for t in few.figure.layout.xaxis.ticktext] == list("12345")
    assert len(few.figure.data[0].x) == 5


def test_a_year_of_days_draws_the_last_six_weeks() -> None:
    """366 days of practice in a phone's width drew a scribble (found trying a year as a
    parent): the per-day charts draw the last six weeks up to the last day used."""
    from datetime import date, timedelta

    import pandas as pd

    first = date(2026, 1, 1)
    days = [(first + timedelta(days=n)).isoformat() for n in range(366)]
    rows = []
    for n, day in enumerate(days):
        rows.append({"day": day, "kind": "quick-facts", "found": n % 2, "wrong": 1 - n % 2,
                     "missed": 0, "correct": n % 2 == 1, "fact_seconds": 2.0 + n % 3,
                     "stars": 0})
        rows.append({"day": day, "kind": "captures", "found": 2, "wrong": 0, "missed": 0,
                     "correct": True, "fact_seconds": None, "stars": 3})
    frame = pd.DataFrame(rows)
    for chart in (charts.daily_chart(frame, en), charts.stars_chart(frame, en)):
        x = list(chart.figure.data[0].x)
        assert len(x) == charts.CHART_DAYS and x[-1] == days[-1]
        assert x[0] == days[-charts.CHART_DAYS]
        labels = list(chart.figure.layout.xaxis.tickvals)
        assert labels[-1] == days[-1] and len(labels) <= 8
    stars = charts.stars_chart(frame, en)
    assert stars.params == {"stars": 3 * charts.CHART_DAYS, "count": charts.CHART_DAYS}
    week = charts.stars_chart(frame[frame["day"] <= days[6]], en)  # a first week: all of it
    assert list(week.figure.data[0].x) == days[:7]


def test_dates_are_short_and_titles_fit_a_phone() -> None:
    assert charts.day_label("2026-12-03", en) == "Dec 3"
    assert charts.day_label("2026-12-03", lambda k, **p: t(k, "es", **p)) == "3 dic"
    rows = [Attempt(id=i, day=f"2026-11-{10 + i}", mode="practice", puzzle_id="x",
                    kind="captures", level=1, capture_sum=15, facts=(), answers=(), answer=(),
                    correct=True, found=1, missed=0, wrong=0, seconds=3.0, hints=0, stars=3)
            for i in range(5)]
    frame = charts.attempts_frame(rows)
    for chart in (charts.daily_chart(frame, en), charts.stars_chart(frame, en)):
        axis = chart.figure.layout.xaxis
        assert list(axis.tickvals) == [f"2026-11-{10 + i}" for i in range(5)]
        assert list(axis.ticktext) == [f"Nov {10 + i}" for i in range(5)]
        for line in chart.figure.layout.title.text.split("<br>"):
            assert len(line) <= charts.TITLE_WIDTH
    long = charts.daily_chart(frame, en).figure.layout.title.text
    assert "<br>" in long  # "Right answers and answer time per day" wraps


@pytest.mark.parametrize("lang", ["en", "es", "de", "it", "zh"])
def test_the_fact_grids_titles_fit_a_phone(lang: str) -> None:
    """The fact grid's two titles wrap like every chart's (one line ran off a 390 px
    phone on both sides), and the top margin grows with the lines."""
    chart = charts.mastery_chart({}, 15, lambda k, **p: t(k, lang, **p))
    titles = [a.text for a in chart.figure.layout.annotations]
    assert len(titles) == 2
    for title in titles:
        assert all(len(line) <= charts.TITLE_WIDTH for line in title.split("<br>"))
    lines = titles[0].count("<br>") + 1
    assert chart.figure.layout.margin.t >= 44 + 18 * lines


def _store() -> Storage:
    return Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"), migrate=False)


@pytest.mark.usefixtures("fresh_app")
def test_games_are_numbered_per_profile() -> None:
    at = create_profile(new_app(), "Ana")
    store = _store()
    ana = store.list_profiles()[0]
    leo = store.create_profile("Leo", "🐼")
    rules = Rules.preset("classic")
    seats = [SeatSpec("human", "X"), SeatSpec("bot", "B", level="random")]
    for i in range(3):  # Leo's games come first: Ana's ids are 4 and 5
        GameSession.new(rules, seats, i, storage=store, profile_id=leo.id)
    for i in range(2):
        GameSession.new(rules, seats, 10 + i, storage=store, profile_id=ana.id)
    at.switch_page("app_pages/games.py").run()
    assert_ok(at)
    lines = [m.value for m in at.markdown if "**Game" in m.value]
    assert [line.split("**")[1] for line in lines] == ["Game 2", "Game 1"], lines


@pytest.mark.usefixtures("fresh_app")
def test_profile_buttons_read_alphabetically_row_by_row() -> None:
    at = new_app()
    names = ["Bea", "Ana", "Eva", "Dan", "Cid", "Fer"]
    for name in names:
        create_profile(at, name)
    labels = [b.label.split(" ", 1)[1] for b in at.button
              if (b.key or "").startswith("profile_")]
    # AppTest lists elements in page order: the order they stack in on a phone.
    assert labels == sorted(names)


@pytest.mark.usefixtures("fresh_app")
def test_for_me_starts_differently_for_each_new_child() -> None:
    firsts = []
    for name in ("Ana", "Leo", "Mia"):
        at = create_profile(new_app(), name)
        at.switch_page("app_pages/puzzles.py").run()
        assert_ok(at)
        firsts.append(at.session_state["pz_current"][1].id)
    assert len(set(firsts)) == 3, firsts


@pytest.mark.usefixtures("fresh_app")
def test_the_end_of_game_review_is_in_round_order_with_the_progress_count(monkeypatch) -> None:
    import trainer.hints
    from tests.test_storage import play_to_end

    monkeypatch.setattr(trainer.hints, "review",
                        lambda record, seat: GameReview.from_stored(STORED))
    at = create_profile(new_app(), "Ana")
    store = _store()
    ana = store.list_profiles()[0]
    rules = Rules.preset("classic", target=5)
    session = GameSession.new(rules, [SeatSpec("human", "Ana"),
                                      SeatSpec("bot", "B", level="greedy")],
                              3, storage=store, profile_id=ana.id)
    play_to_end(session)
    at.session_state["game_session"] = session
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    texts = [m.value for m in at.markdown]
    assert any("The coach found 6 moves" in x for x in texts), texts
    rounds = [int(x.split("Round ")[1].split(",")[0]) for x in texts if x.startswith("- Round")]
    assert rounds == [1, 1, 2, 3, 4]  # the five costliest, in the order they were played
    assert any("1 more" in c.value for c in at.caption)
    # My progress counts the same six, as a whole number.
    at.switch_page("app_pages/progress.py").run()
    assert_ok(at)
    frame = charts.games_frame(store.finished_games(ana.id))
    assert list(frame["mistakes"]) == [6]
    at.segmented_control(key="pr_view").set_value("games").run()
    reading = [m.value for m in at.markdown if "Mistakes" in m.value]
    assert reading and "6" in reading[0] and "6.0" not in reading[0]


def test_share_and_seconds_axes_have_round_ticks_in_the_language() -> None:
    """Axes laid over another took its tick places (24,9% … 99,7%; 0,3 0,6 0,8 s): the
    share axis is 0-100 in quarters, written as German writes a percentage."""
    de = lambda k, **p: t(k, "de", **p)  # noqa: E731
    use_language("de")  # the run's language, as the page sets it
    try:
        turns = pd.DataFrame({"puzzle_id": ["game-1-1", "game-1-2", "game-2-1"],
                              "found": [1, 0, 1], "missed": [0, 1, 0]})
        chances = charts.chances_chart(turns, de)
    finally:
        use_language(None)
    assert list(chances.figure.layout.yaxis2.tickvals) == [0, 25, 50, 75, 100]
    assert chances.figure.layout.yaxis2.ticktext[-1] == "100\xa0%"
    assert chances.figure.layout.yaxis.dtick == 1  # turns are counted whole: 0, 1, 2
    # with the turns' days, each game's tick has its day under its number, as the others
    dated = charts.chances_chart(turns.assign(day=["2026-11-10", "2026-11-10", "2026-11-12"]),
                                 lambda k, **p: t(k, "en", **p))
    assert list(dated.figure.layout.xaxis.ticktext) == ["1<br>Nov 10", "2<br>Nov 12"]
    rows = [Attempt(id=i, day=f"2026-11-{10 + i}", mode="quick-facts", puzzle_id="x",
                    kind="quick-facts", level=1, capture_sum=15, facts=("7+8",),
                    answers=(), answer=(), correct=True, found=1, missed=0, wrong=0,
                    seconds=1.3, hints=0, stars=3) for i in range(3)]
    daily = charts.daily_chart(charts.attempts_frame(rows), de)
    seconds_axis = daily.figure.layout.yaxis2
    assert seconds_axis.tickmode == "auto" and seconds_axis.tickformat is None


def test_one_game_of_chances_is_said_once_and_finishing_one_is_what_adds_the_rest() -> None:
    """Found trying My progress as a child with a game under way: "100 % in the first
    game, 100 % in the last" beside "Finish a game and your games chart appears here".
    One game's share is said once; the empty charts say what finishing adds."""
    one = pd.DataFrame({"puzzle_id": ["game-1-1", "game-1-2"], "found": [1, 1],
                        "missed": [0, 0]})
    chart = charts.chances_chart(one, lambda k, **p: t(k, "es", **p))
    assert chart.key == "ch_chances_reading_one"
    said = t(chart.key, "es", **chart.params)
    assert said == "Ocasiones aprovechadas: 100 % en tu partida por ahora.", said
    two = pd.concat([one, one.assign(puzzle_id=["game-2-1", "game-2-2"])])
    assert charts.chances_chart(two, lambda k, **p: t(k, "en", **p)).key == "ch_chances_reading"


def test_the_facts_reading_names_no_slowest_when_every_timed_addition_is_fluent() -> None:
    """"Slowest: 6 + 9" beside a cell coloured fluent read as a contradiction (found
    trying a class's year): the slowest named is one not fluent, or none."""
    from datetime import datetime

    from puzzles.mastery import Answer, fact_stats

    when = datetime(2026, 12, 1, 9)
    fast = [Answer("6+9", True, when, 2.9), Answer("6+9", True, when, 2.8)]
    slow = [Answer("2+3", True, when, 8.0), Answer("2+3", True, when, 9.0)]
    en = lambda k, **p: t(k, "en", **p)  # noqa: E731
    chart = charts.mastery_chart(fact_stats(fast), 15, en)
    assert chart.key == "ch_mastery_reading_fast"
    assert en(chart.key, **chart.params) == "Fluent in 1 of 55 additions (right within 3 s)."
    chart = charts.mastery_chart(fact_stats(fast + slow), 15, en)
    assert chart.key == "ch_mastery_reading" and chart.params["slowest"] == "2 + 3"
    untimed = charts.mastery_chart(fact_stats([Answer("2+3", True, when)]), 15, en)
    assert untimed.key == "ch_mastery_reading_untimed"
