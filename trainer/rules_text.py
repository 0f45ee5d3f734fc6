"""The rules in force as a row of icons, each with a sentence to read (issue 26).

One list of the options the app offers (:data:`RULE_OPTIONS`), each with an icon, a
short label (``rule_<key>``) and a sentence (``rule_<key>_help``). The board's rules
line shows the ones in force (:func:`rules_in_force`); How to play lists them all
from the very same catalog words, so the two never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from escoba import Rules

from .i18n import t

__all__ = ["RuleChip", "RULE_OPTIONS", "rules_in_force", "chip_texts"]

#: Every option the app offers: catalog key (``rule_<key>``, ``rule_<key>_help``), icon.
RULE_OPTIONS: tuple[tuple[str, str], ...] = (
    ("preset_classic", "🇪🇸"), ("preset_setenta", "🧮"), ("preset_relaxed", "😌"),
    ("preset_escova", "🇵🇹"), ("preset_scopa", "🇮🇹"), ("preset_scopone", "🇮🇹"),
    ("preset_scopone_scientifico", "🇮🇹"),
    ("target", "🎯"), ("sum", "➕"), ("scopa_sum", "🟰"),
    ("forced", "✋"), ("optional", "🤷"), ("renuncio", "📣"),
    ("dealer_takes", "🃏"), ("redeal", "🔄"),
    ("last_escoba_no", "🚫"), ("last_scopa_no", "🚫"),
    ("primera", "7️⃣"), ("jokers", "🤡"), ("hand7", "🖐️"), ("penalty", "⚠️"),
    ("napola", "🪙"), ("asso_piglia_tutto", "🅰️"),
    ("open_hand", "👀"), ("teams", "🤝"), ("players", "👥"),
)
_ICONS = dict(RULE_OPTIONS)


@dataclass(frozen=True)
class RuleChip:
    """One rule in force: its catalog key, icon and the parameters of its words."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def icon(self) -> str:
        return _ICONS[self.key]


def rules_in_force(rules: Rules) -> list[RuleChip]:
    """The options of ``rules``, in the order How to play lists them: the preset, the
    target and sum, the capture rule, then every option changed from the usual game."""
    # Scopa's sum is each card's own value: no fixed capture sum to show.
    sum_chip = (RuleChip("scopa_sum") if rules.variant == "scopa"
                else RuleChip("sum", {"sum": rules.capture_sum}))
    chips = [RuleChip(f"preset_{rules.preset_name}"),
             RuleChip("target", {"points": rules.target}), sum_chip,
             RuleChip(rules.capture_rule)]
    if rules.napola:
        chips.append(RuleChip("napola"))
    if rules.asso_piglia_tutto:
        chips.append(RuleChip("asso_piglia_tutto"))
    if rules.initial_fifteen != "ignore":
        chips.append(RuleChip(rules.initial_fifteen, {"sum": rules.capture_sum}))
    if not rules.last_play_escoba:
        chips.append(RuleChip("last_scopa_no" if rules.variant == "scopa" else "last_escoba_no"))
    if rules.primera:
        chips.append(RuleChip("primera"))
    if rules.jokers:
        chips.append(RuleChip("jokers", {"sum": rules.capture_sum}))
    if rules.hand_size != 3:
        chips.append(RuleChip("hand7", {"n": rules.hand_size}))
    if rules.miscount == "penalty":
        chips.append(RuleChip("penalty"))
    if rules.open_hand:
        chips.append(RuleChip("open_hand"))
    if rules.teams:
        chips.append(RuleChip("teams"))
    elif rules.players > 2:
        chips.append(RuleChip("players", {"n": rules.players}))
    return chips


def _example_params(key: str) -> dict[str, Any]:
    """How to play's words for an option, said for the usual game's numbers."""
    return {"points": 21, "sum": 15, "n": 7 if key == "hand7" else 3}


def chip_texts(chip: RuleChip | str, lang: str | None = None) -> dict[str, str]:
    """``{"icon", "label", "text"}`` of a chip (or of an option's key, for How to play)."""
    if isinstance(chip, str):
        chip = RuleChip(chip, _example_params(chip))
    return {"icon": chip.icon, "label": t(f"rule_{chip.key}", lang, **chip.params),
            "text": t(f"rule_{chip.key}_help", lang, **chip.params)}
