"""The end-of-round score table: every category, counts side by side, who won and why."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from escoba import Deck, RoundScore, Rules
from escoba.scoring import SETENTA_VALUES, CategoryResult
from escoba.variants import variant_for
from trainer.cards import cards_row_html
from trainer.i18n import card_name, t
from trainer.piles import PileGroup, sevens_row_key, side_piles
from trainer.text import md_escape

__all__ = ["score_frame", "show_round_score", "reason_text", "show_piles"]


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def reason_text(cat: CategoryResult, names: Sequence[str], rules: Rules | None = None) -> str:
    """Why a category went where it did, in the child's language."""
    counts = " – ".join(_count(c) for c in cat.counts)
    if cat.reason == "not_played":
        return t("why_not_played")
    if cat.reason == "count":
        if rules is not None and rules.variant == "scopa":
            return t("why_napola" if cat.category == "napola" else "why_scope")
        return t("why_escobas")
    if cat.category == "sevens" and cat.winner is None and rules is not None \
            and sevens_row_key(rules) == "cat_all_sevens":
        return t("why_nobody_all_four", counts=counts)
    if cat.winner is None:
        return t("why_tie", counts=counts) if cat.reason == "tie" else t("why_nobody")
    who = names[cat.winner]
    key = {"all_ten": "why_all_ten", "all_four": "why_all_four",
           "holder": "why_holder"}.get(cat.reason, "why_most")
    return t(key, who=who, counts=counts)


def _label(category: str, rules: Rules | None) -> str:
    """A row's name under the rules in force: under primera in a classic game only all
    four sevens score ("All four sevens", not "Most sevens")."""
    if rules is not None and rules.variant != "escoba":
        # Scopa keeps Escoba's category keys; its variant names them (carte, denari...).
        return t("cat_" + _category_name(rules, category))
    if category == "sevens" and rules is not None:
        return t(sevens_row_key(rules) or "cat_sevens")
    return t("cat_" + category)


def score_frame(score: RoundScore, names: Sequence[str],
                rules: Rules | None = None) -> pd.DataFrame:
    """One row per category: counts and points per side, then the reason (the rows and
    their names follow ``rules`` when given)."""
    rows = []
    for cat in score.categories:
        if cat.reason == "not_played":
            continue
        row: dict[str, str] = {t("col_category"): _label(cat.category, rules)}
        for side, name in enumerate(names):
            points = cat.points[side]
            row[name] = f"{_count(cat.counts[side])} → {points} {t('pts', count=points)}"
        row[t("col_why")] = reason_text(cat, names, rules)
        rows.append(row)
    total: dict[str, str] = {t("col_category"): t("cat_total")}
    for side, name in enumerate(names):
        total[name] = f"{score.totals[side]} {t('pts', count=score.totals[side])}"
    total[t("col_why")] = ""
    rows.append(total)
    return pd.DataFrame(rows).set_index(t("col_category"))


def show_round_score(score: RoundScore, names: Sequence[str], round_no: int,
                     rules: Rules | None = None) -> None:
    st.markdown(f"### {t('round_score_title', n=round_no)}")
    # st.table reads Markdown in its cells and headers: the names are plain text.
    st.table(score_frame(score, [md_escape(n) for n in names], rules))


def show_piles(rules: Rules, piles: Sequence[int], escobas: Sequence[int],
               names: Sequence[str], deck: Deck, show_value: bool, *, key: str) -> None:
    """Every side's won cards behind a tap, grouped as the score table counts them, so
    anyone can recount (issue 26): all cards, oros, sevens or setenta's best of each
    suit, the siete de oros, escobas."""
    for pile in side_piles(rules, piles, escobas):
        name = names[pile.side] if pile.side < len(names) else str(pile.side + 1)
        # An expander's label is Markdown: a name is plain text.
        with st.expander(t("pile_open", name=md_escape(name), count=len(pile.cards)),
                         key=f"{key}_pile_{pile.side}"):
            for group in pile.groups:
                st.markdown(f"**{md_escape(_pile_row(rules, group, deck))}**")
                if group.cards:
                    st.html(cards_row_html(group.cards, deck, show_value, width=40,
                                           names=False, gap=2))
            sweeps = t(f"pile_{_category_name(rules, 'escobas')}", count=pile.escobas)
            st.markdown(f"**{md_escape(sweeps)}**")


def _category_name(rules: Rules, category: str) -> str:
    """A category's name in catalog keys (``cat_*``, ``pile_*``): Escoba's own key, or the
    name its variant's score table uses (Scopa: carte, denari, settebello, scope)."""
    if rules.variant == "escoba":
        return category
    return variant_for(rules).category_labels.get(category, category)


def _pile_row(rules: Rules, group: PileGroup, deck: Deck) -> str:
    """One group of a side's won cards in words, named as the score table names it."""
    escoba = rules.variant == "escoba"
    if group.key == "setenta":
        terms = " + ".join(f"{card_name(c, deck)} {SETENTA_VALUES[c.value]}"
                           for c in group.cards)
        name = "pile_setenta" if escoba else "pile_primiera"
        return (t(name, terms=terms, total=group.count) if group.count is not None
                else t(f"{name}_missing", terms=terms or "—"))
    if group.key == "siete_de_oros":
        name = "siete" if escoba else _category_name(rules, group.key)
        return t(f"pile_{name}_yes" if group.count else f"pile_{name}_no")
    return t(f"pile_{_category_name(rules, group.key)}", count=group.count)
