"""The rules of a game: one frozen :class:`Rules` value, four presets, validation.

Every option of RULES.md is a field. A preset fixes the scoring table and the
defaults of the other options; any option can then be changed one by one::

    >>> Rules.preset("classic", players=4, teams=True).sides
    2
    >>> Rules.preset("relaxed").capture_rule
    'optional'

Invalid combinations raise :class:`RulesError` (a ``ValueError``) saying why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import Code, RulesError

__all__ = [
    "Rules",
    "RulesError",
    "PRESETS",
    "SCOPA_PRESETS",
    "ALL_PRESETS",
    "VARIANT_NAMES",
    "CAPTURE_RULES",
    "INITIAL_FIFTEEN",
    "MISCOUNT",
    "CAPTURE_SUMS",
    "CATEGORIES",
]

CaptureRule = Literal["forced", "optional", "renuncio"]
InitialFifteen = Literal["dealer_takes", "redeal", "ignore"]
Miscount = Literal["retry", "penalty"]

CAPTURE_RULES: tuple[str, ...] = ("forced", "optional", "renuncio")
INITIAL_FIFTEEN: tuple[str, ...] = ("dealer_takes", "redeal", "ignore")
MISCOUNT: tuple[str, ...] = ("retry", "penalty")
CAPTURE_SUMS: tuple[int, ...] = (10, 15, 20)
#: Scoring categories, in the order of every breakdown.
CATEGORIES: tuple[str, ...] = ("cards", "oros", "siete_de_oros", "sevens", "setenta", "escobas")


@dataclass(frozen=True, slots=True)
class _Preset:
    source: str
    target: int
    capture_rule: str
    initial_fifteen: str
    last_play_escoba: bool
    description: str
    #: Options the preset fixes besides the above (its variant, players, hands...).
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)


#: The four presets of RULES.md. The preset's name also selects its scoring table.
PRESETS: Mapping[str, _Preset] = {
    "classic": _Preset("000", 21, "forced", "dealer_takes", True,
                       "Spanish standard: most cards, oros, siete de oros, sevens, escobas"),
    "setenta": _Preset("002", 21, "forced", "redeal", True,
                       "Argentine/Uruguayan: setenta instead of sevens; redeal a table of 15"),
    "relaxed": _Preset("003", 21, "optional", "dealer_takes", False,
                       "Online rules: capturing is optional; the last card sweeps no escoba"),
    "escova": _Preset("000 var.", 31, "forced", "dealer_takes", True,
                      "Brazil/Portugal: to 31; all ten oros score 2; no sevens"),
}
#: The Scopa family (:mod:`escoba.variants.scopa`): kept apart from :data:`PRESETS`, whose
#: four Escoba presets the app offers, until the app plays Scopa too.
SCOPA_PRESETS: Mapping[str, _Preset] = {
    "scopa": _Preset("002 var.", 11, "forced", "ignore", False,
                     "Italian Scopa: equal value first, sums to the card; "
                     "carte, denari, settebello, primiera, scope",
                     {"variant": "scopa"}),
    "scopone": _Preset("002 var.", 11, "forced", "ignore", False,
                       "Scopone: Scopa for 4 in two teams, 9 cards each, 4 on the table",
                       {"variant": "scopa", "players": 4, "teams": True, "hand_size": 9}),
    "scopone_scientifico": _Preset("002 var.", 11, "forced", "ignore", False,
                                   "Scopone scientifico: 10 cards each, an empty table",
                                   {"variant": "scopa", "players": 4, "teams": True,
                                    "hand_size": 10, "table_cards": 0}),
}
#: Every preset :meth:`Rules.preset` knows.
ALL_PRESETS: Mapping[str, _Preset] = {**PRESETS, **SCOPA_PRESETS}
#: The variants (capture rules, :mod:`escoba.variants`) and the options only Scopa has.
VARIANT_NAMES: tuple[str, ...] = ("escoba", "scopa")
SCOPA_TARGETS: tuple[int, ...] = (11, 16, 21)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md. Build with :meth:`preset`; change with :meth:`replace`.

    ``open_hand`` (*mesa abierta*) changes only what players may see, never the
    rules; it lives here because every :class:`~escoba.observation.Observation` needs it.
    """

    preset_name: str = "classic"
    players: int = 2
    teams: bool = False
    target: int = 21
    hand_size: int = 3
    capture_rule: CaptureRule = "forced"
    initial_fifteen: InitialFifteen = "dealer_takes"
    last_play_escoba: bool = True
    primera: bool = False
    jokers: bool = False
    miscount: Miscount = "retry"
    capture_sum: int = 15
    open_hand: bool = False
    #: The capture rule (:func:`escoba.variants.variant_for`): "escoba" or "scopa".
    variant: str = "escoba"
    #: Scopa: asso, 2 and 3 of denari score 3, +1 per next card in sequence.
    napola: bool = False
    #: Scopa: an ace takes the whole table unless an ace lies there...
    asso_piglia_tutto: bool = False
    #: ...and that capture counts as a scopa only with this option.
    asso_piglia_tutto_scopa: bool = False
    #: Cards a deal lays face up on the table (Scopone scientifico: 0).
    table_cards: int = 4

    def __post_init__(self) -> None:
        self._validate()

    # -- construction -----------------------------------------------------
    @classmethod
    def preset(cls, name: str = "classic", **options: Any) -> Rules:
        """The preset ``name`` with ``options`` changed (e.g. ``players=4, teams=True``)."""
        if name not in ALL_PRESETS:
            raise RulesError(f"unknown preset {name!r} (choose one of {', '.join(ALL_PRESETS)})",
                             Code.RULES_UNKNOWN_PRESET, preset=str(name),
                             presets=list(ALL_PRESETS))
        p = ALL_PRESETS[name]
        base: dict[str, Any] = {
            "preset_name": name,
            "target": p.target,
            "capture_rule": p.capture_rule,
            "initial_fifteen": p.initial_fifteen,
            "last_play_escoba": p.last_play_escoba,
            **p.extra,
        }
        unknown = set(options) - set(OPTION_NAMES)
        if unknown:
            raise RulesError(
                f"unknown option {sorted(unknown)[0]!r} (options: {', '.join(OPTION_NAMES)})",
                Code.RULES_UNKNOWN_OPTION, option=str(sorted(unknown)[0]))
        base.update(options)
        return cls(**base)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"unknown option {sorted(unknown)[0]!r}", Code.RULES_UNKNOWN_OPTION,
                             option=str(sorted(unknown)[0]))
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Read ``{"preset": "classic", "players": 4, ...}`` (the record's ``rules``)."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object such as {\"preset\": \"classic\"}",
                             Code.RULES_BAD_VALUE, option="rules", value=type(data).__name__)
        options = dict(data)
        name = options.pop("preset", "classic")
        return cls.preset(name, **options)

    def to_dict(self, *, only_changes: bool = False) -> dict[str, Any]:
        """All options, or (``only_changes``) the preset plus what differs from it.

        ``players`` is always written: a record's reader defaults it to 2.
        """
        full = {("preset" if f.name == "preset_name" else f.name): getattr(self, f.name)
                for f in dataclasses.fields(self)}
        if not only_changes:
            return full
        default = Rules.preset(self.preset_name)
        out: dict[str, Any] = {"preset": self.preset_name, "players": self.players}
        if self.variant != "escoba":  # a record names its variant (old ones: Escoba)
            out["variant"] = self.variant
        for key, value in full.items():
            if key not in out and value != getattr(default, key):
                out[key] = value
        return out

    # -- validation -------------------------------------------------------
    def _validate(self) -> None:
        def check(ok: bool, message: str, option: str) -> None:
            if not ok:
                raise RulesError(message, Code.RULES_BAD_VALUE, option=option,
                                 value=repr(getattr(self, option, None)))

        check(self.preset_name in ALL_PRESETS,
              f"unknown preset {self.preset_name!r} (choose one of {', '.join(ALL_PRESETS)})",
              "preset_name")
        for name in ("teams", "last_play_escoba", "primera", "jokers", "open_hand", "napola",
                     "asso_piglia_tutto", "asso_piglia_tutto_scopa"):
            check(isinstance(getattr(self, name), bool), f"{name} must be true or false", name)
        for name in ("players", "target", "hand_size", "capture_sum", "table_cards"):
            value = getattr(self, name)
            check(isinstance(value, int) and not isinstance(value, bool),
                  f"{name} must be a whole number, got {value!r}", name)
        check(2 <= self.players <= 4, f"players must be 2, 3 or 4, got {self.players}", "players")
        check(not self.teams or self.players == 4,
              f"teams need 4 players (two partnerships), got {self.players}", "teams")
        check(1 <= self.target <= 200, f"target must be 1-200 points, got {self.target}", "target")
        check(self.capture_rule in CAPTURE_RULES,
              f"capture_rule must be one of {', '.join(CAPTURE_RULES)}, "
              f"got {self.capture_rule!r}", "capture_rule")
        check(self.initial_fifteen in INITIAL_FIFTEEN,
              f"initial_fifteen must be one of {', '.join(INITIAL_FIFTEEN)}, "
              f"got {self.initial_fifteen!r}", "initial_fifteen")
        check(self.miscount in MISCOUNT,
              f"miscount must be one of {', '.join(MISCOUNT)}, got {self.miscount!r}", "miscount")
        check(self.capture_sum in CAPTURE_SUMS,
              f"capture_sum must be 10, 15 or 20, got {self.capture_sum}", "capture_sum")
        check(self.variant in VARIANT_NAMES,
              f"variant must be one of {', '.join(VARIANT_NAMES)}, got {self.variant!r}",
              "variant")
        if self.variant == "escoba":
            check(1 <= self.hand_size <= 9, f"hand_size must be 1-9, got {self.hand_size}",
                  "hand_size")
            for name in ("napola", "asso_piglia_tutto", "asso_piglia_tutto_scopa"):
                check(not getattr(self, name), f"{name} is a Scopa option", name)
            check(self.table_cards == 4, "Escoba deals 4 table cards", "table_cards")
        else:
            check(1 <= self.hand_size <= 10, f"hand_size must be 1-10, got {self.hand_size}",
                  "hand_size")
            check(self.table_cards in (0, 4), "table_cards must be 0 or 4", "table_cards")
            check(self.capture_rule != "renuncio", "Scopa has no renuncio claims",
                  "capture_rule")
            check(self.miscount == "retry", "Scopa refuses miscounts (miscount=retry)",
                  "miscount")
            check(not self.jokers, "Scopa is played without jokers", "jokers")
            check(not self.primera, "Scopa always scores the primiera", "primera")
            check(self.capture_sum == 15, "Scopa's sums are the card's own value",
                  "capture_sum")
        check(self.players * self.hand_size + self.table_cards <= 40,
              f"{self.players} hands of {self.hand_size} plus {self.table_cards} table cards "
              f"need {self.players * self.hand_size + self.table_cards} cards; "
              "the deck has 40", "hand_size")

    # -- derived facts ----------------------------------------------------
    @property
    def deck_size(self) -> int:
        """40, or 42 with jokers (a "full deck")."""
        return 42 if self.jokers else 40

    @property
    def sides(self) -> int:
        """How many scoring sides: two teams, or one per player."""
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: seats 0+2 are team 0, 1+3 team 1."""
        return seat % 2 if self.teams else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.teams else (side,)

    @property
    def scoring(self) -> str:
        """Which column of RULES.md's scoring table: the preset's name."""
        return self.preset_name

    @property
    def scores_most_sevens(self) -> bool:
        return self.preset_name in ("classic", "relaxed") and not self.primera

    @property
    def scores_all_sevens_bonus(self) -> bool:
        # Primera replaces only the "most sevens" row (000's variant); the
        # "all four sevens" row stays. See docs/RULES-READING.md.
        return self.preset_name in ("classic", "relaxed")

    @property
    def scores_setenta(self) -> bool:
        return self.preset_name == "setenta" or self.primera

    @property
    def all_oros_points(self) -> int:
        """Points for the oros category when a side holds all ten oros."""
        return 2 if self.preset_name in ("classic", "escova") else 1

    @property
    def sweep_risk_range(self) -> tuple[int, int]:
        """Escoba's table totals one card can sweep: 5-14 for a capture sum of 15.

        Any variant's band is :meth:`escoba.variants.Variant.sweep_risk_band` (Scopa's
        1-10), which the engine asks; this module cannot (the variants import it).
        """
        return max(1, self.capture_sum - 10), self.capture_sum - 1

    def describe(self) -> str:
        """One line for people: "classic, 2 players, to 21, forced capture"."""
        parts = [self.preset_name, f"{self.players} players" + (" in teams" if self.teams else ""),
                 f"to {self.target}", f"{self.capture_rule} capture"]
        if self.capture_sum != 15:
            parts.append(f"capture sum {self.capture_sum}")
        if self.hand_size != 3:
            parts.append(f"hands of {self.hand_size}")
        if self.jokers:
            parts.append("jokers")
        if self.primera:
            parts.append("primera")
        if self.open_hand:
            parts.append("open hands")
        for option in ("napola", "asso_piglia_tutto"):
            if getattr(self, option):
                parts.append(option.replace("_", " "))
        return ", ".join(parts)


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "preset_name"
)
