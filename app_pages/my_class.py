"""My class: a pupil on a shared tablet types the class code once, taps their picture,
types their PIN, and finds their assignments first (issue 13)."""

from __future__ import annotations

from ui.my_class_view import show_my_class

show_my_class()
