"""The end-of-round score table: every category, counts side by side, who won and why."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from escoba import RoundScore
from escoba.scoring import CategoryResult
from trainer.i18n import t
from trainer.text import md_escape

__all__ = ["score_frame", "show_round_score", "reason_text"]


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def reason_text(cat: CategoryResult, names: Sequence[str]) -> str:
    """Why a category went where it did, in the child's language."""
    counts = " – ".join(_count(c) for c in cat.counts)
    if cat.reason == "not_played":
        return t("why_not_played")
    if cat.reason == "count":
        return t("why_escobas")
    if cat.winner is None:
        return t("why_tie", counts=counts) if cat.reason == "tie" else t("why_nobody")
    who = names[cat.winner]
    key = {"all_ten": "why_all_ten", "all_four": "why_all_four",
           "holder": "why_holder"}.get(cat.reason, "why_most")
    return t(key, who=who, counts=counts)


def score_frame(score: RoundScore, names: Sequence[str]) -> pd.DataFrame:
    """One row per category: counts and points per side, then the reason."""
    rows = []
    for cat in score.categories:
        if cat.reason == "not_played":
            continue
        row: dict[str, str] = {t("col_category"): t("cat_" + cat.category)}
        for side, name in enumerate(names):
            points = cat.points[side]
            row[name] = f"{_count(cat.counts[side])} → {points} {t('pts', count=points)}"
        row[t("col_why")] = reason_text(cat, names)
        rows.append(row)
    total: dict[str, str] = {t("col_category"): t("cat_total")}
    for side, name in enumerate(names):
        total[name] = f"{score.totals[side]} {t('pts', count=score.totals[side])}"
    total[t("col_why")] = ""
    rows.append(total)
    return pd.DataFrame(rows).set_index(t("col_category"))


def show_round_score(score: RoundScore, names: Sequence[str], round_no: int) -> None:
    st.markdown(f"### {t('round_score_title', n=round_no)}")
    # st.table reads Markdown in its cells and headers: the names are plain text.
    st.table(score_frame(score, [md_escape(n) for n in names]))
