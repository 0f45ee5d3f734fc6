"""Play a friend: a table shared by several devices (open one, join one, play at it)."""

from __future__ import annotations

from ui.layout import require_profile
from ui.table_view import table_page

profile = require_profile()
table_page(profile)  # draws its own title: a small one during a game
