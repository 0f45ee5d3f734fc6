"""The app's sessions and models, without Streamlit.

A game session, the coach adapter, storage, charts' data, card pictures, the
translation function (over the catalogs in ``locales/``) and text helpers live
here; ``ui/`` holds only Streamlit widgets over them and ``app_pages/`` the
pages. Nothing in this package imports Streamlit at module level
(``tests/test_layers.py`` checks it with Streamlit blocked); where a helper may
read Streamlit's session when it runs inside the app (the language of the run),
it imports it lazily and works without it.
"""
