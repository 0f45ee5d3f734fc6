"""Nicknames: one module of rules (trainer.names), and names shown literally everywhere."""

from __future__ import annotations

import pytest

from tests.test_app_helpers import assert_ok, create_profile, new_app, start_game
from trainer.names import NAME_MAX, clean_name, name_key, name_problem, shown_name
from trainer.storage import Storage, StorageError

MATHS = "$y^2$ :fire:"
ESCAPED = r"\$y^2\$ \:fire\:"


def test_names_are_normalised_nfkc() -> None:
    assert clean_name("Ａｎａ") == "Ana"  # full-width letters
    assert name_problem("Ａｎａ") is None


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u200b", "Ana\u202eX", "\u2066Leo\u2069",
                                  "Li\u0000a", "\u200fMia"])
def test_invisible_and_bidi_characters_are_refused(name: str) -> None:
    assert name_problem(name) == ("nickname_hidden", {})


def test_emoji_sequences_are_not_hidden_characters() -> None:
    assert name_problem("👨‍👩‍👧 Fam") is None
    assert name_problem("❤️ Ana") is None


def test_look_alike_names_share_one_key() -> None:
    assert name_key("Lоla") == name_key("Lola") == name_key("LOLA")  # Cyrillic о
    assert name_key("Αna") == name_key("Ana")  # Greek Alpha
    assert name_key("Lola") != name_key("Lila")


@pytest.mark.parametrize("name", ["Computer 1", "computer 2", "Ordenador 3", "COMPUTER",
                                  "Cоmputer 1"])
def test_the_computer_players_names_are_reserved(name: str) -> None:
    assert name_problem(name)[0] == "nickname_reserved"


def test_a_name_about_computers_is_not_reserved() -> None:
    assert name_problem("Computadora") is None
    assert name_problem("Compu") is None


def test_a_long_name_is_too_long_not_empty() -> None:
    assert name_problem("x" * (NAME_MAX + 4)) == ("nickname_long", {"max": NAME_MAX})


def test_a_records_names_keep_their_punctuation() -> None:
    assert shown_name("Computer (random)") == "Computer (random)"
    assert shown_name("Ana\u200b\u202e") == "Ana"


def test_storage_refuses_a_look_alike_of_a_taken_nickname(tmp_path) -> None:
    import sqlalchemy as sa

    store = Storage(sa.create_engine(f"sqlite:///{tmp_path / 'n.db'}"))
    store.create_profile("Lola", "🦊")
    with pytest.raises(StorageError) as err:
        store.create_profile("Lоla", "🐼")  # Cyrillic о
    assert err.value.key == "profile_taken"


@pytest.mark.parametrize("look_alike", ["LoIa", "Lօla", "Lolɑ", "Loıa", "LOLA", "Lоla",
                                        "ＬＯＬＡ", "Lóla"])
def test_the_issues_look_alikes_fold_to_one_key(look_alike: str) -> None:
    """A capital i, an Armenian օ, a Latin alpha, a dotless i (issue 25), a Cyrillic о,
    full-width letters, an accent: each is Lola to a child reading the list."""
    assert name_key(look_alike) == name_key("Lola")


@pytest.mark.parametrize("one, other", [("Lola", "Lila"), ("Ana", "Ani"), ("Leo", "Lea"),
                                        ("明", "朋"), ("Mia", "Max")])
def test_names_that_do_not_look_alike_keep_their_own_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_a_name_and_its_capitals_always_fold_alike() -> None:
    """Case folding first, the skeleton after: Ivan, IVAN and ivan are one name, in every
    script of the table (the table holds no capital of its own)."""
    from trainer.names import _SKELETON

    for letters in ["Ivan", "Зоя", "Αλέξης", "Սոնա", "Ǆemal", *_SKELETON.values()]:
        assert name_key(letters.upper()) == name_key(letters.lower()) == name_key(letters)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres",
                                                            marks=pytest.mark.postgres)])
def test_two_tabs_taking_ana_and_ana_at_once_make_one_profile(
        request: pytest.FixtureRequest, tmp_path, monkeypatch: pytest.MonkeyPatch,
        backend: str) -> None:
    """Two connections (two tabs, or two replicas) each check that the name is free, both
    see it free, then both write: the database's unique key lets one in (issue 25)."""
    import threading

    import sqlalchemy as sa

    from trainer.storage import configure_sqlite
    from trainer.storage.profiles import ProfileStore

    url = (f"sqlite:///{tmp_path / 'race.db'}" if backend == "sqlite"
           else request.getfixturevalue("postgres_url"))
    engines = [sa.create_engine(url) for _ in range(2)]
    for engine in engines:
        configure_sqlite(engine)
    stores = [Storage(engines[0]), Storage(engines[1], migrate=False)]
    both_checked = threading.Barrier(2, timeout=10)
    check = ProfileStore._name_free

    def check_then_wait(self, conn, nickname, but=None):
        check(self, conn, nickname, but)
        both_checked.wait()  # neither writes before both have found the name free

    monkeypatch.setattr(ProfileStore, "_name_free", check_then_wait)
    outcomes: list[object] = []

    def take(store: Storage, name: str) -> None:
        try:
            outcomes.append(store.create_profile(name, "🦊").nickname)
        except StorageError as exc:
            outcomes.append(exc.key)

    threads = [threading.Thread(target=take, args=(store, name))
               for store, name in zip(stores, ["Ana", "ANA"], strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(map(str, outcomes)) in (["ANA", "profile_taken"], ["Ana", "profile_taken"])
    assert len(stores[0].list_profiles()) == 1
    for engine in engines:
        engine.dispose()


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


@pytest.mark.usefixtures("fresh_app")
def test_a_pasted_long_nickname_says_it_is_too_long() -> None:
    at = create_profile(new_app(), "Alexandra-Victoria Longname")
    assert any("a bit long" in w for w in _warnings(at)), _warnings(at)
    assert not any("type a nickname first" in w for w in _warnings(at))


@pytest.mark.usefixtures("fresh_app")
def test_app_refuses_zero_width_look_alike_and_bot_names() -> None:
    at = create_profile(new_app(), "\u200b\u200b")
    assert any("hidden or invisible" in w for w in _warnings(at))
    create_profile(at, "Lola")
    create_profile(at, "Lоla")
    assert any("already taken" in w for w in _warnings(at))
    at = create_profile(new_app(locale="es-ES"), "Computer 1")
    assert any("jugador del ordenador" in w for w in _warnings(at))


def _markdown_texts(at) -> list[str]:
    return [e.value for kind in ("markdown", "success", "info", "warning", "caption")
            for e in getattr(at, kind)]


@pytest.mark.usefixtures("fresh_app")
def test_a_nickname_is_shown_literally_in_the_welcome_and_my_games() -> None:
    at = create_profile(new_app(), MATHS)
    welcome = [s.value for s in at.success if "Welcome" in s.value]
    assert welcome and ESCAPED in welcome[0]
    start_game(at)
    at.switch_page("app_pages/games.py").run()
    assert_ok(at)
    texts = _markdown_texts(at)
    assert any(ESCAPED in x for x in texts), texts
    # Nowhere on these pages is the name left for Markdown to read as maths or emoji.
    assert not any(MATHS in x for x in texts)


@pytest.mark.usefixtures("fresh_app")
def test_replay_shows_a_records_names_literally() -> None:
    import json

    from tests.test_app_helpers import game

    at = start_game(create_profile(new_app()))
    record = game(at).record()
    record["names"] = [MATHS, "Computer (random)"]
    at.switch_page("app_pages/replay.py").run()
    at.file_uploader(key="replay_file").upload(
        "game.json", json.dumps(record).encode(), "application/json").run()
    assert_ok(at)
    texts = _markdown_texts(at)
    assert any(r"Computer \(random\)" in x for x in texts), texts
    assert not any("Computer random" in x for x in texts)
    assert any(ESCAPED in x for x in texts) and not any(MATHS in x for x in texts)


@pytest.mark.parametrize("typed, stored", [
    ("2.º B", "2.º B"), ("1.ª A", "1.ª A"), ("Aula № 3", "Aula № 3"),
    ("２.º Ｂ", "2.º B"),  # the full-width letters around an ordinal are still folded
    ("3ª  C ", "3ª C"),
])
def test_ordinal_signs_are_kept_as_typed(typed: str, stored: str) -> None:
    from trainer.names import normalise
    assert normalise(typed) == stored
    assert clean_name(typed) == stored and shown_name(typed) == stored
    # Compared as before: the ordinal and a plain "o" are one name (no stored key changes).
    assert name_key(typed) == name_key(stored.replace("º", "o").replace("ª", "a")
                                       .replace("№", "No"))


# -- issue 27: names in each language's alphabetical order (CLDR collation) ---------------

def test_spanish_names_sort_in_cldr_spanish_order() -> None:
    from trainer.names import sort_names

    pasted = ["Zoe", "Martín", "María Fernanda", "Íñigo", "Álvaro", "Ñandú", "Nuria", "Óscar",
              "nacho", "Noé", "Hugo", "Jimena"]
    # Accents are no letters of their own (Á with A, Í with I, Ó with O); the space counts
    # ("María Fernanda" before "Martín"); ñ is a letter after n (CLDR es: &N<ñ<<<Ñ).
    assert sort_names(pasted, "es") == ["Álvaro", "Hugo", "Íñigo", "Jimena", "María Fernanda",
                                        "Martín", "nacho", "Noé", "Nuria", "Ñandú", "Óscar",
                                        "Zoe"]


def test_german_names_sort_in_cldr_german_order() -> None:
    from trainer.names import sort_names

    pasted = ["Zoë", "Übel", "Ute", "Özil", "Oskar", "Müller", "Mueller", "Muller", "Ärmel",
              "Achim", "Straße", "Strasse", "Stefan"]
    # CLDR de is the root order: umlauts with their vowel, a secondary difference (Muller
    # before Müller), ß as ss (a tertiary difference), "Mueller" spelled out with its e.
    assert sort_names(pasted, "de") == ["Achim", "Ärmel", "Mueller", "Muller", "Müller",
                                        "Oskar", "Özil", "Stefan", "Strasse", "Straße", "Übel",
                                        "Ute", "Zoë"]


def test_n_tilde_is_a_letter_only_in_spanish() -> None:
    from trainer.names import sort_names

    names = ["Ñandú", "Noé", "Nuria"]
    assert sort_names(names, "es") == ["Noé", "Nuria", "Ñandú"]
    assert sort_names(names, "de") == ["Ñandú", "Noé", "Nuria"]  # root: ñ is n with a tilde
    assert sort_names(names, "es-ES") == sort_names(names, "es")


def test_sorting_objects_by_a_name_keeps_equal_names_in_their_order() -> None:
    from trainer.names import sort_names

    rows = [("Zoe", 1), ("ana", 2), ("Ana", 3), ("Álvaro", 4)]
    assert sort_names(rows, "es", key=lambda r: r[0]) == [("Álvaro", 4), ("ana", 2),
                                                         ("Ana", 3), ("Zoe", 1)]
