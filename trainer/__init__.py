"""The app's sessions and models, without Streamlit.

A game session, the coach adapter, storage, charts' data, card pictures, the
translation function (over the catalogs in ``locales/``) and text helpers live
here; ``ui/`` holds only Streamlit widgets over them and ``app_pages/`` the
pages. Nothing in this package imports Streamlit, even lazily
(``tests/test_layers.py`` checks it): the language of a run is fixed by
``ui.i18n.start_run`` through :func:`trainer.i18n.use_language`.
"""
