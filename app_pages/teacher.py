"""For teachers: sign in, classes, and a class's dashboard, fact grid, pupils, assignments,
print, export and settings (issue 13). Nothing but the sign-in without a teacher's session."""

from __future__ import annotations

from ui.teacher.page import show_teacher_page

show_teacher_page()
