"""Play a friend: a table shared by several devices (open one, join one, play at it)."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from ui.layout import require_profile
from ui.table_view import table_page

profile = require_profile()
st.title(t("tables_title"))
table_page(profile)
