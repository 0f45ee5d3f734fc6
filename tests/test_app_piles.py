"""Every side's won cards can be opened and recounted, and the score table's rows follow
the rules in force (issue 26): under primera only all four sevens score."""

from __future__ import annotations

import os
import random

import pytest
import sqlalchemy as sa

from escoba import Rules
from escoba.cards import OROS_MASK, SEVENS_MASK
from tests.test_app_helpers import assert_ok, create_profile, new_app
from trainer.gameplay import GameSession, SeatSpec
from trainer.piles import side_piles
from trainer.storage import Storage

pytestmark = pytest.mark.usefixtures("fresh_app")


def _store() -> Storage:
    return Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"), migrate=False)


def _round_over(rules: Rules, seed: int = 3) -> tuple:
    at = create_profile(new_app(), "Ana")
    store = _store()
    ana = store.list_profiles()[0]
    seats = [SeatSpec("human", "Ana")] + [SeatSpec("bot", f"B{k}", level="greedy")
                                          for k in range(1, rules.players)]
    session = GameSession.new(rules, seats, 3, storage=store, profile_id=ana.id)
    rng = random.Random(seed)
    while not session.round_over:
        if session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            assert session.play_human(move.card, move.take).ok
        else:
            session.bot_step()
    at.session_state["game_session"] = session
    at.switch_page("app_pages/play.py").run()
    assert_ok(at)
    return at, session


def test_primera_score_table_names_all_four_sevens_and_the_piles_open() -> None:
    rules = Rules.preset("classic", primera=True)
    at, session = _round_over(rules)
    table = at.table[0].value
    rows = list(table.index)
    assert "Most sevens" not in rows
    assert "All four sevens" in rows and "Setenta (primera)" in rows
    sevens_why = table.loc["All four sevens"].iloc[-1]
    round_ = session.game.rounds[-1]
    counts = [(p & SEVENS_MASK).bit_count() for p in round_.pile_masks]
    if 4 not in counts:
        assert sevens_why.startswith("Nobody has all four")
    # One expander per side, labelled with the cards it won; inside, the groups.
    labels = [e.label for e in at.expander]
    piles = side_piles(rules, round_.pile_masks, round_.escobas)
    for pile, name in zip(piles, ["Ana", "B1"], strict=True):
        assert any(label.startswith(f"{name}: the {len(pile.cards)} cards won")
                   for label in labels), labels
    texts = [m.value.replace("\\", "") for m in at.markdown]
    ana = round_.pile_masks[0]
    assert f"**Cards: {ana.bit_count()}**" in texts
    assert f"**Oros: {(ana & OROS_MASK).bit_count()}**" in texts
    assert any(x.startswith("**Setenta") for x in texts)
    # The table's counts are what the piles show: anyone can recount.
    assert table.loc["Most cards"].iloc[0].startswith(f"{ana.bit_count()} →")


def test_classic_piles_show_sevens_and_no_setenta() -> None:
    rules = Rules.preset("classic")
    at, session = _round_over(rules, seed=5)
    assert "Most sevens" in list(at.table[0].value.index)
    texts = [m.value.replace("\\", "") for m in at.markdown]
    pile = session.game.rounds[-1].pile_masks[0]
    assert f"**Sevens: {(pile & SEVENS_MASK).bit_count()}**" in texts or \
        (pile & SEVENS_MASK).bit_count() == 1 and "**Sevens: 1**" in texts
    assert not any(x.startswith("**Setenta") for x in texts)


def test_teams_pool_their_won_cards() -> None:
    rules = Rules.preset("classic", players=4, teams=True)
    at, session = _round_over(rules, seed=2)
    round_ = session.game.rounds[-1]
    pooled = round_.pile_masks[0] | round_.pile_masks[2]
    labels = [e.label for e in at.expander]
    assert any(f"the {pooled.bit_count()} cards won" in label for label in labels), labels
    assert len([x for x in labels if "cards won" in x or "card won" in x]) == 2


def test_scopa_piles_are_named_as_its_score_table_and_show_the_primiera() -> None:
    """A Scopa round's piles use the score table's words (carte, denari, settebello,
    scope) and show each suit's best card for the primiera, which Scopa always scores."""
    from escoba.scoring import setenta_total

    rules = Rules.preset("scopa")
    at, session = _round_over(rules, seed=4)
    rows = list(at.table[0].value.index)[:5]
    assert rows[3].startswith("Primiera") and rows[4] == "Scopas", rows
    round_ = session.game.rounds[-1]
    texts = [m.value.replace("\\", "") for m in at.markdown]
    ana = round_.pile_masks[0]
    # A pile row counts what this side holds ("Cards (carte): 19"), not "Most cards".
    assert f"**Cards (carte): {ana.bit_count()}**" in texts, texts
    assert f"**Coins (denari): {(ana & OROS_MASK).bit_count()}**" in texts, texts
    settebello = "yes" if ana >> 24 & 1 else "no"
    assert f"**Settebello (the 7 of coins): {settebello}**" in texts, texts
    assert f"**Scopas: {round_.escobas[0]}**" in texts, texts
    assert not any("Most" in x for x in texts), texts
    primiera = [x for x in texts if x.startswith("**Primiera")]
    assert len(primiera) == 2, texts  # one per side
    total = setenta_total(ana)
    assert (f"= {total}**" in primiera[0]) if total else "no total" in primiera[0]
    assert not any(w in x for x in texts for w in ("Oros", "Escobas", "Setenta")), texts
