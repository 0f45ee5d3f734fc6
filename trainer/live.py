"""The class plays together (issue 29): a live round on the projector, answered on every
pupil's tablet. Plain classes, no Streamlit.

Kinds of round (:data:`LIVE_KINDS`), chosen by the teacher:

- ``fifteens``: "find all the 15s" on a generated table of a level;
- three questions on a position from a real game: the class's own finished games when
  there are any, else a seeded deal (:func:`find_position`): ``captures`` "which cards
  make 15 with this card?" (every capture of one hand card), ``sweep`` "where is the
  sweep risk?" (tap the hand card you would *not* lay down: the one that leaves a table
  one card can sweep, as the hints say: :func:`trainer.hints.sweep_warning`) and
  ``best`` "what would you play?" (one move, the coach's ranking);
- ``quick``: a set of :data:`QUICK_COUNT` quick facts ("7 + ? = 15").

- :class:`LiveClass` is the teacher's side, over a :class:`~trainer.classroom.Classroom`
  (its access checks): start a round, reveal it, close it, and :meth:`LiveClass.board`,
  what one refresh of the projector draws.
- :class:`PupilLive` is a pupil's: the open round of their class, their answer (written
  with its attempts, evidence for their facts like any puzzle), and "I am here".
- :func:`summarise` is the projector's reveal, computed by the puzzle checker and the
  coach's judgement stored with the round (the only judges) from the answers: how many
  answered, each right set with how many found it, the spread of moves or cards chosen,
  each quick fact's right count, and the most common wrong sum with its arithmetic, but
  only when at least :data:`MIN_WRONG_GIVERS` pupils gave that same wrong answer (one
  child's wrong answer on the big screen of a small class says who gave it). The same
  for the moves or cards chosen: a wrong one is shown on its own only when that many
  pupils chose it; the others are one count (:attr:`LiveSummary.others`). It holds
  counts only: no profile id, no name, no order of children, so the projector cannot
  show who got what wrong.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from escoba import Observation
from escoba.cards import Card
from puzzles import Puzzle, check, from_cards, generate, regenerate
from puzzles.bestmove import MIN_GAP, best_move_at, dealt_position
from puzzles.checker import CheckResult
from puzzles.mastery import normalise
from puzzles.practice import Attempt, quick_facts_set
from puzzles.rng import Rng

from .classroom import Classroom
from .classroom_views import ClassroomError
from .clock import now as clock_now
from .hints import assess, sweep_warning
from .replayer import count_steps, position_at
from .storage import LiveAnswerRow, LiveRoundRow, Storage, StorageError

__all__ = ["ClassPupil", "left_open", "LIVE_KINDS", "POSITION_KINDS", "LIVE_MODE",
           "PRESENT_MINUTES", "STALE_HOURS", "MIN_WRONG_GIVERS",
           "QUICK_COUNT", "LiveRound", "RightSet", "WrongSum", "SweepChoice", "Choice",
           "QuestionCount", "LiveSummary", "LiveBoard", "LiveClass", "PupilLive",
           "summarise", "find_position"]

#: The kinds of live round, in the projector's order.
LIVE_KINDS: tuple[str, ...] = ("fifteens", "captures", "sweep", "best", "quick")
#: The kinds asked on a position from a real game.
POSITION_KINDS: tuple[str, ...] = ("captures", "sweep", "best")
#: How many quick facts a quick round asks.
QUICK_COUNT = 5
#: The mode of a live answer's attempt (evidence like any other; My progress counts it).
LIVE_MODE = "live"
#: The fewest pupils who must give the same wrong answer before a summary carries it (the
#: projector's "3 said 8 + 8 = 16"): a wrong answer one child gave, shown to a small
#: class, says who gave it. A summary never holds one given by fewer.
MIN_WRONG_GIVERS = 2
#: A pupil seen on My class within these minutes counts as signed in on the projector.
PRESENT_MINUTES = 5
#: A round left open longer than this (the teacher went home without closing it) is no
#: longer put before the pupils: My class would otherwise show only it, the next morning.
#: The projector still shows it, to close.
STALE_HOURS = 3
#: Games of the class read for a position (newest first, per pupil), the moves of each
#: tried (each replays the game to it), and the positions tried in all.
_GAMES_PER_PUPIL = 10
_STEPS_PER_GAME = 24
_TRIES = 300


@dataclass(frozen=True, slots=True)
class SweepChoice:
    """A hand card of a sweep round laid down: the table it leaves (``values``: the table
    cards' values then the card's, ``total``) and whether one card could sweep it, as the
    hints judged it (``need``: the value that would)."""

    card: Card
    values: tuple[int, ...]
    total: int
    risky: bool
    need: int | None

    @property
    def arithmetic(self) -> str:
        return f"{' + '.join(map(str, self.values))} = {self.total}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": str(self.card), "values": list(self.values), "total": self.total,
                "risky": self.risky, "need": self.need}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepChoice:
        need = data.get("need")
        return cls(Card.parse(str(data["card"])), tuple(int(v) for v in data["values"]),
                   int(data["total"]), bool(data["risky"]), None if need is None else int(need))


@dataclass(frozen=True, slots=True)
class LiveRound:
    """A round and what every tablet shows: ``puzzle`` is the position (fifteens: the
    generated puzzle, regenerated from its id; captures and best: the checker's puzzle;
    sweep: the table and hand), ``questions`` a quick round's facts (``puzzle`` is the
    first), ``sweep`` a sweep round's hand cards as judged, ``source`` where the
    position comes from (``game``: a game of the class; ``deal``: a seeded deal)."""

    id: int
    class_id: int
    state: str  # open | revealed | closed
    puzzle: Puzzle
    created_at: datetime
    kind: str = "fifteens"
    source: str = ""
    questions: tuple[Puzzle, ...] = ()
    sweep: tuple[SweepChoice, ...] = ()

    @classmethod
    def of(cls, row: LiveRoundRow) -> LiveRound:
        spec = row.spec
        if row.kind == "fifteens":
            return cls(row.id, row.class_id, row.state, regenerate(str(spec["puzzle"])),
                       row.created_at)
        if row.kind == "quick":
            questions = tuple(Puzzle.from_dict(q) for q in spec["questions"])
            return cls(row.id, row.class_id, row.state, questions[0], row.created_at,
                       row.kind, questions=questions)
        return cls(row.id, row.class_id, row.state, Puzzle.from_dict(spec["puzzle"]),
                   row.created_at, row.kind, str(spec.get("source", "")),
                   sweep=tuple(SweepChoice.from_dict(c) for c in spec.get("sweep", ())))

    @property
    def risky(self) -> frozenset[Card]:
        """A sweep round's right answers: the cards whose lay-down leaves a sweep."""
        return frozenset(c.card for c in self.sweep if c.risky)


@dataclass(frozen=True, slots=True)
class RightSet:
    """A set that makes the sum (a capture: the table cards, then the card played), and
    how many pupils found it."""

    cards: tuple[Card, ...]
    total: int
    found_by: int


@dataclass(frozen=True, slots=True)
class WrongSum:
    """The wrong set most often given: its values, their sum, the sum asked, and how many
    gave it (never fewer than :data:`MIN_WRONG_GIVERS`). ``off`` > 0: too many; < 0: too
    few."""

    values: tuple[int, ...]
    total: int
    capture_sum: int
    count: int

    @property
    def off(self) -> int:
        return self.total - self.capture_sum

    @property
    def arithmetic(self) -> str:
        """``7 + 9 = 16``: digits and signs, the same in every language."""
        return f"{' + '.join(map(str, self.values))} = {self.total}"


@dataclass(frozen=True, slots=True)
class Choice:
    """A move (best) or a hand card (sweep: ``take`` empty) chosen, how many chose it, and
    whether it is a right answer."""

    card: Card
    take: tuple[Card, ...]
    count: int
    right: bool


@dataclass(frozen=True, slots=True)
class QuestionCount:
    """One quick fact of a quick round: its known addends and answer, how many answered
    it right, and the wrong answer most often given (with its arithmetic)."""

    addends: tuple[int, ...]
    answer: int
    right: int
    common_wrong: WrongSum | None


@dataclass(frozen=True, slots=True)
class LiveSummary:
    """What the projector shows of a round: counts only (see the module doc).
    ``choices`` holds the right ones and the wrong ones :data:`MIN_WRONG_GIVERS` pupils or
    more chose; ``others`` counts the pupils whose wrong choice fewer chose (a wrong
    move one child chose, on the big screen, would point to that child)."""

    answered: int
    all_right: int
    sets: tuple[RightSet, ...]
    common_wrong: WrongSum | None
    choices: tuple[Choice, ...] = ()
    questions: tuple[QuestionCount, ...] = ()
    others: int = 0


@dataclass(frozen=True, slots=True)
class LiveBoard:
    """One refresh of the projector: the pupils in (their pictures, never a name), the
    round if any, and its summary (the count while open, everything once revealed)."""

    present: tuple[str, ...]
    round: LiveRound | None
    summary: LiveSummary | None


def _most_wrong(counter: Counter[Any]) -> tuple[Any, int] | None:
    """The wrong answer most given, and by how many; among equals the smallest, so every
    replica says the same. None when no wrong answer was given by
    :data:`MIN_WRONG_GIVERS` pupils or more: the summary does not carry it at all."""
    given = [item for item in counter.items() if item[1] >= MIN_WRONG_GIVERS]
    if not given:
        return None
    return min(given, key=lambda item: (-item[1], item[0]))


def _shown_choices(choices: Sequence[Choice]) -> tuple[tuple[Choice, ...], int]:
    """The choices the projector may draw one by one (every right one; a wrong one only
    when :data:`MIN_WRONG_GIVERS` pupils or more chose it), and how many pupils chose the
    wrong ones left out (counted together, never drawn)."""
    shown = tuple(c for c in choices if c.right or c.count >= MIN_WRONG_GIVERS)
    return shown, sum(c.count for c in choices if c not in shown)


def _item(answer: Sequence[Any]) -> tuple[Card, tuple[Card, ...]] | None:
    """The one move (or card) of a best or sweep answer, or None when unreadable."""
    try:
        first = answer[0]
        card = Card.parse(str(first["card"]))
        take = tuple(sorted(Card.parse(str(c)) for c in first.get("take") or ()))
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        return None
    return card, take


def _summarise_sets(puzzle: Puzzle, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    found: Counter[frozenset[Card]] = Counter()
    wrong: Counter[tuple[int, ...]] = Counter()
    right = 0
    for row in answers:
        result = check(puzzle, row.answer)
        right += result.solved
        for solution in result.found:
            found[frozenset(solution.take)] += 1
        given: set[tuple[int, ...]] = set()  # a wrong sum counts once a pupil, said twice or not
        for miss in result.wrong:
            if miss.key == "wrong_sum":
                table = sorted(c.value for c in miss.take)
                played = (miss.card.value,) if miss.card is not None else ()
                given.add(tuple(table) + played)
        wrong.update(given)
    sets = []
    for s in puzzle.solutions:
        values, total = puzzle.terms(s.card, s.take)
        cards = tuple(s.take) + ((s.card,) if s.card is not None else ())
        sets.append(RightSet(cards, sum(values), found[frozenset(s.take)]))
        assert total == puzzle.capture_sum
    most = _most_wrong(wrong)
    common = None if most is None else WrongSum(most[0], sum(most[0]), puzzle.capture_sum,
                                                most[1])
    return LiveSummary(len(answers), right, tuple(sets), common)


def _summarise_best(puzzle: Puzzle, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    chosen: Counter[tuple[Card, tuple[Card, ...]]] = Counter()
    right = 0
    for row in answers:
        right += check(puzzle, row.answer).solved
        move = _item(row.answer)
        if move is not None:
            chosen[move] += 1
    best = {(s.card, tuple(sorted(s.take))) for s in puzzle.solutions}
    for move in best:
        chosen.setdefault(move, 0)  # the best move always has its bar
    choices, others = _shown_choices([
        Choice(card, take, count, (card, take) in best)
        for (card, take), count in sorted(chosen.items(), key=lambda item: (-item[1], item[0]))])
    return LiveSummary(len(answers), right, (), None, choices, others=others)


def _summarise_sweep(live: LiveRound, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    chosen: Counter[Card] = Counter()
    for row in answers:
        item = _item(row.answer)
        if item is not None:
            chosen[item[0]] += 1
    choices, others = _shown_choices([Choice(c.card, (), chosen[c.card], c.risky)
                                      for c in live.sweep])
    safe = Counter({c.card: chosen[c.card] for c in live.sweep
                    if not c.risky and chosen[c.card]})
    most = _most_wrong(safe)
    common = None
    if most is not None:
        picked = next(c for c in live.sweep if c.card == most[0])
        common = WrongSum(picked.values, picked.total, live.puzzle.capture_sum, most[1])
    right = sum(chosen[c] for c in live.risky)
    return LiveSummary(len(answers), right, (), common, choices, others=others)


def _summarise_quick(live: LiveRound, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    rights = [0] * len(live.questions)
    wrongs: list[Counter[int]] = [Counter() for _ in live.questions]
    all_right = 0
    for row in answers:
        every = True
        for i, question in enumerate(live.questions):
            given = row.answer[i] if i < len(row.answer) else None
            if isinstance(given, bool) or not isinstance(given, int):
                every = False
                continue
            if check(question, given).solved:
                rights[i] += 1
            else:
                wrongs[i][given] += 1
                every = False
        all_right += every
    questions = []
    for i, q in enumerate(live.questions):
        most = _most_wrong(wrongs[i])
        common = None
        if most is not None:
            values = (*q.addends, most[0])
            common = WrongSum(values, sum(values), q.capture_sum, most[1])
        answer = q.solutions[0].value
        assert answer is not None
        questions.append(QuestionCount(q.addends, answer, rights[i], common))
    return LiveSummary(len(answers), all_right, (), None, questions=tuple(questions))


def summarise(live: LiveRound | Puzzle, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    """The reveal of a round (or of a fifteens or captures puzzle) from its answers, each
    judged again by the checker, or by the hints' judgement stored with the round."""
    if isinstance(live, Puzzle):
        return _summarise_sets(live, answers)
    if live.kind == "quick":
        return _summarise_quick(live, answers)
    if live.kind == "sweep":
        return _summarise_sweep(live, answers)
    if live.kind == "best":
        return _summarise_best(live.puzzle, answers)
    return _summarise_sets(live.puzzle, answers)


# -- positions from real games ---------------------------------------------------------------

def _game_positions(storage: Storage, class_id: int, capture_sum: int,
                    rng: Rng) -> Iterator[Observation]:
    """Positions of the class's finished games (of its own rules: Escoba to the class's
    sum, no joker), the seat to move's view, in a seeded order."""
    rows = {}
    for member in storage.members(class_id):
        for row in storage.list_games(member.profile_id, limit=_GAMES_PER_PUPIL):
            if row.status == "finished":
                rows[row.id] = row
    games = [rows[k] for k in sorted(rows)]
    rng.shuffle(games)
    for row in games:
        try:
            record = storage.complete_record(row)
            steps = count_steps(record)
        except Exception:  # a record that cannot be read gives no position
            continue
        for step in rng.sample(range(steps), min(steps, _STEPS_PER_GAME)):
            try:
                game = position_at(record, step).replay.game
                round_ = game.round
                if round_ is None or round_.is_over:
                    continue
                obs = game.observation(round_.to_move)
            except Exception:
                continue
            rules = obs.rules
            if rules.variant == "escoba" and rules.capture_sum == capture_sum \
                    and not any(c.is_joker for c in (*obs.table, *obs.hand)):
                yield obs


def _dealt_positions(capture_sum: int, rng: Rng) -> Iterator[Observation]:
    """Positions of seeded deals under the classic rules (as best-move puzzles')."""
    while True:
        round_ = dealt_position(rng, capture_sum)
        if not round_.is_over:
            yield round_.observation(round_.to_move)


def _captures_question(obs: Observation, good: bool) -> dict[str, Any] | None:
    if len(obs.table) < 3:
        return None
    best: Puzzle | None = None
    for card in obs.hand:
        puzzle = from_cards("captures", obs.table, [card], obs.rules.capture_sum)
        if best is None or len(puzzle.solutions) > len(best.solutions):
            best = puzzle
    if best is None or not best.solutions or (good and len(best.solutions) < 2):
        return None
    return {"puzzle": best.to_dict()}


def _seed_of(obs: Observation, tag: str) -> str:
    cards = ".".join(str(c) for c in (*obs.table, *obs.hand))
    return f"custom-{tag}-{cards}"[:64]


def _best_question(obs: Observation, good: bool) -> dict[str, Any] | None:
    puzzle = best_move_at(obs, _seed_of(obs, "best"))
    if puzzle is None or len(puzzle.solutions) != 1:
        return None
    gap = puzzle.ranking[0].score - puzzle.ranking[1].score
    if good and (gap < MIN_GAP or not puzzle.stats.captures or len(obs.table) < 2):
        return None
    return {"puzzle": puzzle.to_dict()}


def _sweep_question(obs: Observation, good: bool) -> dict[str, Any] | None:
    if len(obs.hand) < 2 or not obs.table:
        return None
    lays = {a.move.card: a for a in assess(obs) if not a.move.take}
    if set(lays) != set(obs.hand):
        return None
    capture_sum = obs.rules.capture_sum
    table_values = tuple(sorted(c.value for c in obs.table))
    choices = []
    for card in sorted(obs.hand):
        risky = sweep_warning(lays[card]) is not None
        values = (*table_values, card.value)
        need = capture_sum - sum(values)
        choices.append(SweepChoice(card, values, sum(values), risky,
                                   need if risky and 1 <= need <= 10 else None))
    risky_count = sum(c.risky for c in choices)
    if risky_count == 0 or risky_count == len(choices):
        return None
    # Asks well: one risky card, and no safe one that is safe only because the cards
    # that would sweep it are gone (a class sees "10 left: a 5 sweeps it", not the count).
    if good and (risky_count != 1 or any(1 <= capture_sum - c.total <= 10
                                         for c in choices if not c.risky)):
        return None
    shown = Puzzle("best-move", 1, capture_sum, _seed_of(obs, "sweep"), table=tuple(obs.table),
                   hand=tuple(sorted(obs.hand)))
    return {"puzzle": shown.to_dict(), "sweep": [c.to_dict() for c in choices]}


_QUESTIONS = {"captures": _captures_question, "best": _best_question,
              "sweep": _sweep_question}


def find_position(storage: Storage | None, class_id: int, kind: str, capture_sum: int,
                  seed: str) -> dict[str, Any]:
    """The spec of a position round of ``kind``: from a finished game of the class when
    one has a fitting position, else from a seeded deal (always the same for a seed).
    A position that asks well (two captures or more; one clear best move with a capture
    to weigh; one risky card of the hand) is taken first; else the first that asks."""
    question = _QUESTIONS[kind]
    rng = Rng("escoba-live/1", kind, capture_sum, seed)
    sources: list[tuple[str, Iterator[Observation]]] = []
    if storage is not None:
        sources.append(("game", _game_positions(storage, class_id, capture_sum, rng)))
    sources.append(("deal", _dealt_positions(capture_sum, rng)))
    for source, positions in sources:
        fallback = None
        for tries, obs in enumerate(positions):
            if tries >= _TRIES:
                break
            spec = question(obs, True)
            if spec is not None:
                return {**spec, "source": source}
            if fallback is None:
                fallback = question(obs, False)
        if fallback is not None:
            return {**fallback, "source": source}
    raise ClassroomError("live.no_position")  # pragma: no cover - deals always give one


def _sweep_facts(live: LiveRound, card: Card) -> list[tuple[str, bool, float | None]]:
    """A sweep answer's evidence: the fact that spots the risk ("a 3 makes 15 with the
    12 left": ``15-3``), right when the risky card was tapped, wrong when a safe one was
    (the fact of each risky card missed)."""
    capture_sum = live.puzzle.capture_sum
    right = card in live.risky
    chosen = [c for c in live.sweep if c.card == card] if right else \
        [c for c in live.sweep if c.risky]
    out: dict[str, tuple[bool, float | None]] = {}
    for c in chosen:
        if c.need is not None:
            key = normalise(f"{capture_sum}-{c.need}")
            if key is not None:
                out.setdefault(key, (right, None))
    return [(f, ok, secs) for f, (ok, secs) in out.items()]


class LiveClass:
    """The teacher's side of a class's live rounds; every call checks the class is theirs."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.storage: Storage = room.storage

    def start(self, class_id: int, level: int, seed: str | None = None,
              kind: str = "fifteens") -> LiveRound:
        """A new round of ``kind`` at the class's capture sum (the round before, if any,
        closes): ``level`` sets a fifteens or quick round's level; a position round
        takes its position from the class's games, else from a seeded deal."""
        info = self.room.class_info(class_id, write=True)
        seed = seed or secrets.token_hex(4)
        if kind not in LIVE_KINDS:
            raise ClassroomError("live.bad_kind")
        try:
            if kind == "fifteens":
                spec: dict[str, Any] = {"puzzle": generate("fifteens", int(level), seed,
                                                           info.capture_sum).id}
            elif kind == "quick":
                spec = {"questions": [q.to_dict() for q in quick_facts_set(
                    int(level), QUICK_COUNT, seed, info.capture_sum)]}
            else:
                spec = find_position(self.storage, class_id, kind, info.capture_sum, seed)
        except ValueError as err:
            raise ClassroomError("live.bad_level") from err
        row = self.storage.start_live_round(class_id, kind, spec)
        return LiveRound.of(row)

    def current(self, class_id: int, *, touch: bool = True) -> LiveRound | None:
        """The round on the projector (open or revealed), if any."""
        self.room.class_info(class_id, touch=touch)
        row = self.storage.live_round(class_id)
        return None if row is None or row.kind not in LIVE_KINDS else LiveRound.of(row)

    def reveal(self, class_id: int, round_id: int) -> LiveRound:
        return self._move(class_id, round_id, "revealed")

    def close(self, class_id: int, round_id: int) -> LiveRound:
        return self._move(class_id, round_id, "closed")

    def _move(self, class_id: int, round_id: int, state: str) -> LiveRound:
        self.room.class_info(class_id)
        try:
            return LiveRound.of(self.storage.set_live_round_state(class_id, round_id, state))
        except StorageError as err:
            raise ClassroomError(err.key) from None

    def board(self, class_id: int, *, at: datetime | None = None,
              touch: bool = True) -> LiveBoard:
        """What one refresh of the projector draws (``touch=False`` from its timer). While a
        round is open only its count is read; the answers are read once it is revealed."""
        info = self.room.class_info(class_id, touch=touch)
        at = at or clock_now()
        since = at - timedelta(minutes=PRESENT_MINUTES)
        if info.signed_out_at is not None and info.signed_out_at > since:
            since = info.signed_out_at  # "Sign out every tablet" signed them out
        present_ids = set(self.storage.present_pupils(class_id, since))
        pictures = tuple(m.avatar for m in self.storage.members(class_id)
                         if m.profile_id in present_ids)
        row = self.storage.live_round(class_id)
        if row is None or row.kind not in LIVE_KINDS:  # another part's round: not ours
            return LiveBoard(pictures, None, None)
        live = LiveRound.of(row)
        if live.state == "open":
            summary = LiveSummary(self.storage.live_answer_count(live.id), 0, (), None)
        else:
            summary = summarise(live, self.storage.live_answers(live.id))
        return LiveBoard(pictures, live, summary)


def left_open(since: datetime) -> bool:
    """Whether something a class plays together (a live round, a class's game) was left
    open longer than :data:`STALE_HOURS`: no longer put before the pupils."""
    return since < clock_now() - timedelta(hours=STALE_HOURS)


class ClassPupil:
    """A pupil's side of what their class plays together (:class:`PupilLive`,
    :class:`trainer.class_game.PupilVote`): the pupil and their class."""

    def __init__(self, storage: Storage, profile_id: int) -> None:
        self.storage = storage
        self.profile_id = profile_id

    def _class_id(self) -> int | None:
        member = self.storage.membership(self.profile_id)
        return None if member is None else member.class_id


class PupilLive(ClassPupil):
    """A pupil's side: the open round of their class and their one answer to it."""

    def current(self) -> LiveRound | None:
        """Their class's round (open or revealed), or None (not a pupil, no round)."""
        class_id = self._class_id()
        row = self.storage.live_round(class_id) if class_id is not None else None
        if row is None or row.kind not in LIVE_KINDS or left_open(row.created_at):
            return None
        return LiveRound.of(row)

    def mine(self, live: LiveRound) -> LiveAnswerRow | None:
        """Their answer to the round, if they gave one."""
        return self.storage.live_answer_of(live.id, self.profile_id)

    def answer(self, live: LiveRound, result: CheckResult, seconds: float,
               answer: Sequence[Any], day: date) -> LiveAnswerRow:
        """Their answer to a fifteens, captures or best round, as the board's checker
        judged it, written with its attempt (``live.closed``, ``live.answered``,
        ``live.gone``: refused, nothing written)."""
        if live.kind in ("sweep", "quick"):
            raise ClassroomError("live.gone")
        attempt = Attempt.of(live.puzzle, result, seconds, list(answer), LIVE_MODE, day)
        return self._write(live, list(answer), [attempt])

    def answer_sweep(self, live: LiveRound, card: Card, seconds: float,
                     day: date) -> LiveAnswerRow:
        """Their answer to a sweep round: the hand card they would not lay down (right
        when the hints judged its lay-down risky), with its attempt."""
        if live.kind != "sweep" or card not in {c.card for c in live.sweep}:
            raise ClassroomError("live.gone")
        right = card in live.risky
        answers = _sweep_facts(live, card)
        item = {"card": str(card), "take": []}
        attempt = Attempt(day=day.isoformat(), mode=LIVE_MODE, puzzle_id=live.puzzle.id,
                          kind=live.puzzle.kind, level=live.puzzle.level,
                          capture_sum=live.puzzle.capture_sum,
                          facts=tuple(f for f, _c, _s in answers), answers=tuple(answers),
                          answer=(item,), correct=right, found=int(right),
                          missed=int(not right), wrong=int(not right),
                          seconds=float(seconds), hints=0, stars=3 if right else 1)
        return self._write(live, [item], [attempt])

    def answer_quick(self, live: LiveRound, values: Sequence[int],
                     seconds: Sequence[float], day: date) -> LiveAnswerRow:
        """Their answers to a quick round, one a question, each checked and written as a
        quick fact's attempt (timed like one), in one go."""
        if live.kind != "quick" or len(values) != len(live.questions):
            raise ClassroomError("live.gone")
        attempts = [Attempt.of(q, check(q, int(v)), float(secs), [int(v)], LIVE_MODE, day)
                    for q, v, secs in zip(live.questions, values, seconds, strict=True)]
        return self._write(live, [int(v) for v in values], attempts)

    def _write(self, live: LiveRound, answer: list[Any],
               attempts: list[Attempt]) -> LiveAnswerRow:
        try:
            return self.storage.record_live_answer(live.id, self.profile_id, answer,
                                                   attempts)
        except StorageError as err:
            raise ClassroomError(err.key) from None

    def here(self) -> None:
        """They are on My class now: their picture shows on the projector."""
        class_id = self._class_id()
        if class_id is not None:
            self.storage.touch_presence(class_id, self.profile_id)

    def leave(self) -> None:
        """"Not you? Switch": their picture goes from the projector."""
        self.storage.leave_presence(self.profile_id)
