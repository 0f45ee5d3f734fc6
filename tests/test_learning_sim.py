"""The simulated learner of bench/learning_sim.py (docs/LEARNING.md): its invariants, the
simulation's determinism, that it keeps the app's mastery exactly as the app computes
it, and that on a small run "for me" teaches faster than random practice."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import learning_sim as ls
from puzzles.mastery import fact_stats
from puzzles.practice import answers_from_rows, practice_candidates

PARAMS = ls.LearnerParams()
FACTS = st.sampled_from(ls.TRACKED)


def learner(child: int = 0) -> ls.Learner:
    return ls.Learner(PARAMS, random.Random(f"test:{child}"))


# -- the learner's invariants ---------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(child=st.integers(0, 1000),
       events=st.lists(st.tuples(FACTS, st.floats(0, 5), st.booleans()), max_size=40))
def test_knowing_stays_a_probability_and_practice_raises_it(child, events):
    """Whatever happens, knowing is in [0, 1]; practising a fact never lowers it (at the
    same moment), and practice makes the memory last at least as long."""
    child_model = learner(child)
    rng = random.Random(child)
    t = 0.0
    for fact, gap, quick in events:
        t += gap
        step = ls.probe_step(fact)
        before = {k: child_model.knowing(k, t) for k in step.keys}
        half_lives = {k: child_model.memory[k].half_life for k in step.keys}
        result = child_model.respond(step, t, rng)
        child_model.practise(step, result, t, PARAMS.learn_quick if quick else PARAMS.learn_puzzle)
        for k in step.keys:
            now = child_model.knowing(k, t)
            assert 0.0 <= now <= 1.0
            assert now >= before[k] - 1e-12
            assert child_model.memory[k].half_life >= half_lives[k]
    assert all(0.0 <= child_model.knowing(f, t + 3) <= 1.0 for f in ls.TRACKED)


@settings(max_examples=60, deadline=None)
@given(child=st.integers(0, 1000), fact=FACTS, t=st.floats(0, 30), later=st.floats(0, 30))
def test_time_makes_a_fact_fade(child, fact, t, later):
    model = learner(child)
    assert model.knowing(fact, t + later) <= model.knowing(fact, t)
    if later > 0.01 and model.knowing(fact, t) > 0:
        assert model.knowing(fact, t + later) < model.knowing(fact, t)


def test_practice_raises_knowing_and_spaced_retrievals_make_it_last():
    model = learner(3)
    fact = "7+8"
    start = model.knowing(fact, 0.0)
    rng = random.Random(1)
    for i in range(6):
        model.attempt(ls.probe_step(fact), i * 0.001, rng, PARAMS.learn_quick)
    assert model.knowing(fact, 0.01) > start + 0.4      # six tries in a row: mostly learned
    massed = model.memory[fact].half_life
    assert massed < 4 * PARAMS.half_life_new              # minutes apart: hardly lasting
    # the same fact retrieved on three later days: its half-life doubles each time
    for day in (1, 2, 3):
        res = ls.StepResult(True, 2.0, (True,))
        model.practise(ls.Step((fact,), 7), res, float(day), PARAMS.learn_quick)
    assert model.memory[fact].half_life >= 7.5 * massed  # about x2 a day (x8: exactly daily)
    week = model.knowing(fact, 10.0) / model.knowing(fact, 3.0)
    assert week > 0.5                                     # a week later, still mostly known


def test_counting_is_slow_and_retrieval_speeds_up_with_practice():
    model = learner(5)
    rng = random.Random(2)
    model.memory["6+8"].p = 0.0                           # cannot retrieve it: must count
    counted = [model.respond(ls.probe_step("6+8"), 0.0, rng) for _ in range(200)]
    assert all(r.retrieved == (False,) for r in counted)
    assert min(r.seconds for r in counted) > 3.0           # 6 counts: never within 3 s
    assert 0.8 < sum(r.correct for r in counted) / 200 < 0.98
    fresh = model.retrieval_median("6+8")
    model.memory["6+8"].retrievals += 20
    assert model.retrieval_median("6+8") < fresh - 0.5
    model.memory["6+8"].p = 1.0
    known = [model.respond(ls.probe_step("6+8"), 0.0, rng) for _ in range(200)]
    assert sum(r.seconds <= 3.0 for r in known) > 150


def test_the_chance_of_passing_the_apps_check_follows_the_answers_it_predicts():
    model = learner(6)
    rng = random.Random(4)
    model.memory["6+8"].p = 0.0
    assert model.app_check_chance("6+8", 0.0) == 0.0        # counted: never within 3 s
    model.memory["6+8"].p, model.memory["6+8"].retrievals = 1.0, 40
    chance = model.app_check_chance("6+8", 0.0)
    assert chance < (1 - PARAMS.slip) ** 3                   # a slip is always possible
    passed = sum(all(r.correct and r.seconds <= 3.0 for r in
                     (model.respond(ls.probe_step("6+8"), 0.0, rng) for _ in range(3)))
                 for _ in range(2000)) / 2000
    assert abs(passed - chance) < 0.03                       # what respond() does
    model.memory["6+8"].retrievals = 2
    assert model.app_check_chance("6+8", 0.0) < chance      # slower before practice
    assert model.app_check_chance("6+8", 30.0) < model.app_check_chance("6+8", 0.0)


def test_the_chance_of_meeting_the_goal_averages_the_checks_luck_out():
    assert ls._at_least([0.5, 0.5], 1) == pytest.approx(0.75)
    assert ls._at_least([1.0, 1.0, 0.0], 2) == pytest.approx(1.0)
    assert ls._at_least([1.0, 1.0, 0.0], 3) == pytest.approx(0.0)
    model = learner(2)
    before = ls.app_goal_chance(model, 0.0)
    for memory in model.memory.values():
        memory.p, memory.retrievals = 1.0, 100
    after = ls.app_goal_chance(model, 0.0)
    assert before < 0.01 < after < 1.0
    # evenings are independent given the practice: a child at 0.5 then 0.5 has met it
    # with 0.75 after two evenings; one at 0 then 1 surely
    checks = (ls.DayCheck(0, 0, 0, 0),) * 3
    runs = [ls.ChildRun("adaptive", 0, checks, (0.0, 0.5, 0.5)),
            ls.ChildRun("adaptive", 1, checks, (0.0, 0.0, 1.0))]
    assert ls.expected_reached(runs) == pytest.approx([0.0, 0.25, 0.875])
    assert ls.expected_median_day(runs) == 2
    assert ls.expected_median_day(runs[:1]) == 1
    assert math.isinf(ls.expected_median_day([ls.ChildRun("random", 0, checks, (0.0,) * 3)]))
    run = ls.simulate_child("adaptive", 1, days=2, seed=3)
    assert len(run.app_goal_chances) == len(run.checks) == 3


def test_the_oracle_asks_the_facts_least_likely_to_pass_the_check():
    model, oracle, _ = ls.new_child("oracle", 3, seed=5)
    for key in ("3+9", "2+7"):
        model.memory[key].p = 0.0
    asked = [ls.normalise(f) for p in oracle.quick_round() for f in p.facts]
    assert {"3+9", "2+7"} <= set(asked)
    runs = ls.run(children=1, days=1, seed=5, workers=1, arms=("adaptive", "random", "oracle"))
    summary = ls.summarise(runs, 1)
    assert list(summary.rows) == ["adaptive", "random", "oracle"]
    assert sum(line.startswith("oracle ") for line in ls.report(summary).splitlines()) == 4


def test_steps_follow_the_facts_the_app_lists():
    # 3 + 5 + ? = 15: the addition 3+5, then what makes 15 with 8 (15-8 or 7+8)
    steps = ls.solution_steps(("3+5", "8+7", "15-8"), 15, missing=True)
    assert steps == [ls.Step(("3+5",), 3), ls.Step(("15-8", "7+8"), 7)]
    # a capture 10 + 2 + 3 with a 3... running totals past 10 are easy steps
    assert ls.solution_steps(("2+10", "12+3", "15-3"), 15, missing=False) == [
        ls.Step(("2+10",), 2), ls.EASY]
    assert ls.probe_step("15-9") == ls.Step(("15-9", "6+9"), 6)
    assert ls.probe_step("4+9") == ls.Step(("4+9",), 4)


def test_the_evening_check_changes_nothing():
    model = learner(7)
    before = {f: (m.p, m.half_life, m.retrievals, m.last) for f, m in model.memory.items()}
    check = ls.evening_check(model, 2.5, random.Random(3))
    after = {f: (m.p, m.half_life, m.retrievals, m.last) for f, m in model.memory.items()}
    assert before == after
    assert 0 <= check.additions <= 55 and 0 <= check.complements <= 6
    assert check.additions_app <= 55 and check.complements_app <= 6


# -- the simulation -------------------------------------------------------------------------

def test_the_simulation_is_deterministic_by_seed():
    one = ls.simulate_child("adaptive", 2, days=2, seed=11)
    two = ls.simulate_child("adaptive", 2, days=2, seed=11)
    other = ls.simulate_child("adaptive", 2, days=2, seed=12)
    assert one == two
    assert one != other
    assert len(one.checks) == 3                          # before day 1, then every evening


def test_the_simulation_keeps_the_apps_mastery():
    """The adaptive arm reads the mastery the app would compute from the same attempts."""
    model, practice, _ = ls.new_child("adaptive", 4, seed=5)
    with ls.memoised_generate():
        practice.day(0, 4.0, 0.5)
    rows = practice.mastery.rows
    assert {r.kind for r in rows} >= {"quick-facts"} and practice.puzzle_rows
    assert practice.mastery.stats == fact_stats(answers_from_rows(rows),
                                                practice_candidates(15))
    assert all(r.created_at is not None for r in rows)
    assert [r.created_at for r in rows] == sorted(r.created_at for r in rows)


def test_days_to_goal_and_quartiles_count_children_who_never_got_there():
    checks = tuple(ls.DayCheck(a, c, 0, 0) for a, c in [(30, 1), (40, 5), (44, 4), (44, 5)])
    run = ls.ChildRun("adaptive", 0, checks)
    assert run.days_to(which="additions") == 2
    assert run.days_to(which="complements") == 1
    assert run.days_to() == 3
    assert run.days_to(app_bar=True) is None
    assert ls.quantiles([3, 5, None, 4]) == (3.75, 4.5, math.inf)
    assert ls.quantiles([None, None, 2]) == (math.inf, math.inf, math.inf)


@pytest.mark.slow
def test_on_a_small_run_for_me_beats_random_practice():
    """Eight children, eight days of quick facts and puzzles: "for me" makes more facts
    fluent, child for child, than the same practice time chosen at random."""
    days, children = 8, 8
    gain = []
    for child in range(children):
        adaptive = ls.simulate_child("adaptive", child, days=days, seed=3, minutes=10)
        random_ = ls.simulate_child("random", child, days=days, seed=3, minutes=10)
        area = [sum(c.additions for c in run.checks[1:]) for run in (adaptive, random_)]
        gain.append(area[0] - area[1])
    assert sum(gain) > 0
    assert sum(g > 0 for g in gain) > children // 2
