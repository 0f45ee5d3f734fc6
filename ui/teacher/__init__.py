"""The teacher's area ("For teachers", issue 13), one module per piece:

- ``page``: the page itself (sign-in or the lock, the class list or one class, the lock
  watch); ``app_pages/teacher.py`` draws it.
- ``registry``: every part of a class's view (dashboard, fact grid, pupils, ...) in order;
  each part is a module of ``parts/`` declaring its ``PART`` (key, label, render).
- ``sign_in``, ``classes``: what is drawn before a class is opened.
- ``state``: the session keys the area keeps and opening a class; ``snapshot``: the open
  class's data read once per change (:class:`~ui.teacher.snapshot.OpenClass`, what a
  part draws from); ``widgets``: widgets and callbacks several parts draw; ``markup``: the
  dashboard's cards and the fact grid as HTML.
"""
