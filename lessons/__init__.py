"""The lesson path as data: one TOML file per stage, read and checked at load.

``lessons/NN-key.toml`` is stage number NN (the path's order) with the key
``key``. :func:`load_stages` reads them all once per process; every file is
validated by :mod:`lessons.schema` (a clear :class:`LessonError` names the file,
the level and the field). The words are never here: titles, goals and feedback
are keys of the ``lessons`` catalogs (``locales/<lang>/LC_MESSAGES/lessons.po``).

This package imports only the engine: ``trainer.lessons`` runs a level, the
page draws it. docs/LESSONS.md shows the format and how to add a stage.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .schema import (
    ACTIONS,
    CARD_PARAMS,
    CHILD,
    GLOSSARIES,
    GLOSSARY,
    HINTS,
    KINDS,
    MAX_LEVELS,
    MIN_LEVELS,
    PILE_QUESTIONS,
    QUESTIONS,
    Answer,
    CallRenuncio,
    Deal,
    GameSpec,
    Judgement,
    LessonError,
    Level,
    PlayCard,
    Position,
    Shown,
    Stage,
    Step,
    StepKind,
    TapCard,
    WholeGame,
    best_claim,
    glossary_of,
    is_card_param,
    load_file,
    parse_stage,
    question_cards,
)

__all__ = ["LESSONS_DIR", "load_stages", "read_stages", "stage_files", "stage", "LessonError",
           "Stage", "Level",
           "Step", "StepKind", "KINDS", "TapCard", "PlayCard", "Answer", "CallRenuncio",
           "WholeGame", "Judgement", "Shown", "PILE_QUESTIONS", "question_cards", "best_claim",
           "Deal", "Position", "GameSpec", "ACTIONS", "HINTS", "QUESTIONS",
           "MIN_LEVELS", "MAX_LEVELS", "CARD_PARAMS", "CHILD", "GLOSSARY", "GLOSSARIES",
           "glossary_of", "is_card_param",
           "parse_stage", "load_file"]

#: Where the stage files live (shipped as package data).
LESSONS_DIR = Path(__file__).resolve().parent
_FILE = re.compile(r"^(\d\d)-([a-z0-9_]+)\.toml$")


def stage_files(directory: Path = LESSONS_DIR) -> list[Path]:
    """The stage files of a directory, in path order (``01-…``, ``02-…``)."""
    return sorted(p for p in directory.glob("*.toml"))


def read_stages(directory: Path) -> tuple[Stage, ...]:
    """Every stage of ``directory``, checked: names ``NN-key.toml`` with the file's own
    key, numbers and keys used once."""
    stages: list[Stage] = []
    for path in stage_files(directory):
        match = _FILE.match(path.name)
        if match is None:
            raise LessonError(path.name, "", "a stage file is named NN-key.toml, e.g. "
                                             "01-values.toml")
        found = load_file(path, int(match.group(1)))
        if found.key != match.group(2):
            raise LessonError(path.name, "key", f"is {found.key!r} but the file name says "
                                                f"{match.group(2)!r}")
        stages.append(found)
    for field_name in ("order", "key"):
        values = [getattr(s, field_name) for s in stages]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise LessonError(str(directory.name), field_name,
                              f"{twice[0]!r} is used by two stage files")
    return tuple(stages)


@functools.cache
def load_stages() -> tuple[Stage, ...]:
    """The shipped stages in order (read and validated once per process)."""
    return read_stages(LESSONS_DIR)


def stage(key: str) -> Stage:
    """The shipped stage ``key`` (``KeyError`` if there is none)."""
    for found in load_stages():
        if found.key == key:
            return found
    raise KeyError(key)
