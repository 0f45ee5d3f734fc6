"""The baseline pages the CPU benchmarks serve beside the app (docs/BENCHMARKS.md): a
baseline that does not do what it says would make every ratio measured with it wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from bench.tap_cpu import WRITING_PAGE
from trainer.storage import Storage


def test_the_writing_page_writes_one_answer_a_tap_as_the_app_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/tap_cpu.py --writing``: each tap of its button writes one quick fact's
    answer for the profile of ``?p=``, through the app's own write, and nothing else."""
    import streamlit as st

    db = tmp_path / "app.db"
    monkeypatch.delenv("ESCOBA_DATABASE_URL", raising=False)
    monkeypatch.setenv("ESCOBA_DB_PATH", str(db))
    st.cache_resource.clear()
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    child = store.create_profile("Writer", "🙂")
    other = store.create_profile("Other", "🙂")
    at = AppTest.from_string(WRITING_PAGE, default_timeout=60)
    at.query_params["p"] = str(child.id)
    at.run()
    assert not at.exception and store.attempts(child.id) == []
    for taps in (1, 2):
        at.button(key="tap").click().run()
        assert not at.exception
        assert at.markdown[0].value == f"taps: {taps}"
    written = store.attempts(child.id)
    assert len(written) == 2 and {a.mode for a in written} == {"quick"}
    assert store.attempts(other.id) == []
    st.cache_resource.clear()
