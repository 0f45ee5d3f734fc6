"""Play a friend (issue 16) through AppTest: two sessions (two devices) on one database
open and join a table and play a whole game against each other; a bad code, a forged
link and a stale tap are answered in words, never a traceback."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from escoba import Deck, Move
from tests.test_app_helpers import assert_ok, create_profile, new_app
from trainer.i18n import t

pytestmark = pytest.mark.usefixtures("fresh_app")

PAGE = "app_pages/tables.py"


def _device(name: str, query: dict[str, str] | None = None, locale: str = "en-US"
            ) -> AppTest:
    at = new_app(locale)
    create_profile(at, name)
    if query:
        at.query_params.update(query)
    at.switch_page(PAGE).run()
    assert_ok(at)
    return at


def _seat(at: AppTest):
    return at.session_state["table_seat"] if "table_seat" in at.session_state else None  # noqa: SIM401


def _texts(at: AppTest) -> str:
    return "\n".join(e.value for kind in ("warning", "error", "info", "success")
                     for e in getattr(at, kind))


def _open_table(at: AppTest) -> str:
    at.segmented_control(key="tb_target").set_value(1).run()
    at.selectbox(key="tb_preset").set_value("relaxed").run()
    at.button(key="tb_open_button").click().run()
    assert_ok(at)
    seat = _seat(at)
    assert seat is not None and seat.waiting
    # The code is shown big, and the device's link is in its URL.
    assert at.query_params["table"] in (seat.code, [seat.code])
    return seat.code


def _tablet_keeps(at: AppTest, seats: dict[str, str]) -> None:
    """What the tablet's seat keeper answers for the child signed in (ui/seat_keeper.py:
    its script runs only in a browser, tests/test_browser_tables.py): these seats."""
    from ui.seat_keeper import KEY_READ, KEY_TICKETS

    state = at.session_state
    me = int(state["profile_id"])
    read = dict(state[KEY_READ]) if KEY_READ in state else {}
    read[me] = dict(seats)
    state[KEY_READ] = read
    tickets = dict(state[KEY_TICKETS]) if KEY_TICKETS in state else {}
    tickets.update({(me, code): token for code, token in seats.items()})
    state[KEY_TICKETS] = tickets


def _keeper_data(at: AppTest) -> dict | None:
    from tests.test_app_helpers import component_data

    return component_data(at, "escoba_seat_keeper")


def _best_move(at: AppTest) -> Move:
    seat = _seat(at)
    obs = seat.game.observation(seat.seat)
    return sorted(obs.legal_moves(),
                  key=lambda m: (-len(m.take), str(m.card), sorted(map(str, m.take))))[0]


def _play(at: AppTest, move: Move) -> None:
    at.pills(key="tb_hand").set_value(str(move.card)).run()
    if move.take:
        at.pills(key="tb_take").set_value([str(c) for c in move.take]).run()
    at.button(key="tb_play").click().run()
    assert_ok(at)


def _join(at: AppTest, code: str) -> None:
    """This device types ``code`` into the lobby and taps Join."""
    at.text_input(key="tb_code").input(code).run()
    at.button(key="tb_join_button").click().run()


def _play_to_the_end(at: AppTest) -> None:
    """This device plays its table's game out alone (the others are computers), taking
    the best move and dealing each next round."""
    for _ in range(300):
        seat = _seat(at)
        if seat.game.is_over:
            return
        if seat.game.round_over:
            at.button(key="tb_next_round").click().run()
        else:
            _play(at, _best_move(at))


def _start_against_the_computer(at: AppTest) -> None:
    """This device opens a table and starts it at once: computers take the free seats."""
    _open_table(at)
    at.button(key="tb_start_now").click().run()


def test_two_devices_play_a_whole_game_against_each_other() -> None:
    ana = _device("Ana")
    code = _open_table(ana)
    leo = _device("Leo")
    # A code that names no table: a clear sentence, and Leo stays in the lobby.
    leo.text_input(key="tb_code").input("ZZZZZ").run()
    leo.button(key="tb_join_button").click().run()
    assert_ok(leo)
    assert t("table_code_unknown", code="ZZZZZ") in _texts(leo) and _seat(leo) is None
    leo.text_input(key="tb_code").input(code.lower()).run()
    leo.button(key="tb_join_button").click().run()
    assert_ok(leo)
    assert _seat(leo) is not None and not _seat(leo).waiting
    ana.run()  # Ana's poll: Leo came, the game began
    assert_ok(ana)
    assert not _seat(ana).waiting
    moves = 0
    for _ in range(300):
        a, b = _seat(ana), _seat(leo)
        assert a.revision == b.revision  # each device draws the database's position
        if a.game.is_over:
            break
        if a.game.round_over:
            # Each device can open both sides' won cards to recount the round.
            for at in (ana, leo):
                won = [e.label for e in at.expander if "cards won" in e.label]
                assert len(won) == 2, [e.label for e in at.expander]
            ana.button(key="tb_next_round").click().run()
            assert_ok(ana)
            leo.run()
            continue
        mover, other = (ana, leo) if a.my_turn else (leo, ana)
        assert t("table_your_turn") in _texts(mover)
        _play(mover, _best_move(mover))
        moves += 1
        other.run()  # the other device's poll sees the move
        assert_ok(other)
    assert _seat(ana).game.is_over and _seat(leo).game.is_over and moves > 10
    # The end on each device: only this device's child's review, addressed to them;
    # the friend's is not listed there (the result and totals are).
    for at, me in ((ana, 0), (leo, 1)):
        seats = _seat(at).game.seats
        reviews = [m.value[4:] for m in at.markdown if m.value.startswith("### ")]
        mine = t("table_review_title", name=f"{seats[me].avatar} {seats[me].name}")
        theirs = seats[1 - me]
        assert mine in reviews
        assert not [r for r in reviews if theirs.name in r]
        assert t("final_totals") in "\n".join(m.value for m in at.markdown)


def test_a_stale_tap_is_refused_kindly_and_redrawn() -> None:
    ana = _device("Ana")
    _open_table(ana)
    # The lone level next to "Start now with the computer" is the computer's.
    assert ana.selectbox(key="tb_fill_level").label == t("table_computer_level")
    ana.selectbox(key="tb_fill_level").set_value("gentle").run()
    ana.button(key="tb_start_now").click().run()
    assert_ok(ana)
    seat = _seat(ana)
    assert seat.my_turn
    # The same seat's link on a second tab of Ana's (or the same tablet after a reload).
    tab = new_app(query={"p": str(seat.player_id), "table": seat.code, "seat": seat.token})
    tab.switch_page(PAGE).run()
    assert_ok(tab)
    assert _seat(tab).revision == seat.revision
    move = _best_move(tab)
    tab.pills(key="tb_hand").set_value(str(move.card)).run()
    _play(ana, _best_move(ana))  # the first tab plays first
    tab.button(key="tb_play").click().run()
    assert_ok(tab)
    assert t("table_moved_first") in _texts(tab)
    assert _seat(tab).revision == _seat(ana).revision


def test_a_refused_sum_at_a_table_puts_the_table_cards_back() -> None:
    """As in Play and the lessons: after a wrong sum the table cards go back (the board is
    told by its refusal count, the choosers lose their picks), the hand card stays."""
    from tests.test_app_helpers import board_data

    ana = _device("Ana")
    _start_against_the_computer(ana)
    for _ in range(40):
        seat = _seat(ana)
        round_ = seat.game.round
        wrong = [(h, c) for h in round_.hand(seat.seat) for c in round_.table
                 if (v := round_.check(Move(h, frozenset({c})), seat.seat)) is not None
                 and v.code == "wrong_sum"]
        if wrong and seat.my_turn:
            break
        _play(ana, _best_move(ana))
    assert wrong, "no position with a wrong sum to tap"
    before = board_data(ana)["refusals"]
    hand, table = wrong[0]
    ana.pills(key="tb_hand").set_value(str(hand)).run()
    ana.pills(key="tb_take").set_value([str(table)]).run()
    ana.button(key="tb_play").click().run()
    assert_ok(ana)
    assert board_data(ana)["refusals"] == before + 1
    assert ana.pills(key="tb_take").value == []
    assert ana.pills(key="tb_hand").value == str(hand)
    assert _seat(ana).revision == seat.revision  # nothing played


@pytest.mark.parametrize("query", [
    {"table": "ZZZZZ", "seat": "A" * 22},
    {"table": "<b>x</b>", "seat": "'; drop table games; --"},
    {"table": "K7MPX"},
    {"seat": "x" * 300},
])
def test_a_bad_link_says_so_and_shows_the_lobby(query: dict[str, str]) -> None:
    at = _device("Ana", query=query)
    assert t("table_bad_link") in _texts(at)
    assert _seat(at) is None and at.button(key="tb_join_button")


def test_a_friend_who_left_is_shown_and_the_computer_takes_the_seat() -> None:
    from datetime import timedelta

    from trainer.storage.schema import table_seats

    ana = _device("Ana")
    code = _open_table(ana)
    leo = _device("Leo")
    _join(leo, code)
    ana.run()
    seat = _seat(ana)
    store = seat.storage
    leo_row = next(s for s in store.table_seats(seat.table.id) if s.seat == 1)
    # Leo's tablet went to sleep two minutes ago.
    with store.engine.begin() as conn:
        conn.execute(table_seats.update().where(table_seats.c.id == leo_row.id)
                     .values(last_seen=leo_row.last_seen - timedelta(minutes=2)))
    ana.run()
    assert_ok(ana)
    assert t("table_left", name=f"{leo_row.avatar} Leo") in _texts(ana)
    ana.selectbox(key="tb_hand_level_1").set_value("greedy").run()
    ana.button(key="tb_hand_over_1").click().run()
    assert_ok(ana)
    game = _seat(ana).game
    assert (game.seats[1].kind, game.seats[1].level) == ("bot", "greedy")
    assert t("table_left", name=f"{leo_row.avatar} Leo") not in _texts(ana)
    # Leo's tablet wakes up: its link says the computer plays for him now.
    leo.run()
    assert_ok(leo)
    # Said as news (information), not in red as an error; Leo's tablet may watch the
    # game (no hand, nothing to tap) until he goes back to the tables.
    assert t("table_seat_handed", name="Leo") in [e.value for e in leo.info]
    assert not leo.error
    assert _seat(leo) is None
    assert t("table_watching") in "\n".join(c.value for c in leo.caption)
    assert not [b for b in leo.button if b.key in ("tb_play", "tb_next_round")]
    leo.run()  # a reload of the same link: still watching
    assert_ok(leo)
    assert t("table_watching") in "\n".join(c.value for c in leo.caption)
    # Leo's tablet, the tab closed and opened again on the table's address alone: the
    # tablet keeps his seat, so he watches too (issue 31).
    token = leo.query_params["seat"]
    again = new_app(query={"p": str(leo_row.profile_id), "table": code})
    again.switch_page(PAGE).run()
    _tablet_keeps(again, {code: token[0] if isinstance(token, list) else token})
    again.run()
    assert_ok(again)
    assert t("table_seat_handed", name="Leo") in [e.value for e in again.info]
    assert t("table_watching") in "\n".join(c.value for c in again.caption)
    assert _seat(again) is None and not [b for b in again.button if b.key == "tb_play"]
    # Ana plays on against the computer to the end, which says who played Leo's moves.
    _play_to_the_end(ana)
    assert _seat(ana).game.is_over
    leo.run()  # the watching tablet sees the end, then goes back to the tables
    assert_ok(leo)
    assert t("final_totals") in "\n".join(m.value for m in leo.markdown)
    leo.button(key="tb_leave_watch").click().run()
    assert_ok(leo)
    assert leo.button(key="tb_join_button") and "table" not in leo.query_params
    handed = next(s for s in store.table_seats(seat.table.id, history=True)
                  if s.seat == 1 and s.kind == "bot")
    note = t("table_handed_note", name="Leo", round=handed.from_round, move=handed.from_move,
             level=t("level_greedy"))
    assert note in "\n".join(c.value for c in ana.caption)


def test_any_rules_and_a_computer_seat_are_agreed_when_the_table_opens() -> None:
    ana = _device("Ana")
    ana.segmented_control(key="tb_players").set_value(4).run()
    ana.toggle(key="tb_teams").set_value(True).run()
    ana.segmented_control(key="tb_kind_3").set_value("bot").run()
    ana.selectbox(key="tb_level_3").set_value("expert").run()
    ana.selectbox(key="tb_preset").set_value("escova").run()
    ana.segmented_control(key="tb_sum").set_value(10).run()
    ana.toggle(key="tb_open").set_value(True).run()
    ana.toggle(key="tb_hints").set_value(False).run()
    ana.button(key="tb_open_button").click().run()
    assert_ok(ana)
    seat = _seat(ana)
    rules = seat.rules
    assert (rules.preset_name, rules.players, rules.teams, rules.capture_sum,
            rules.open_hand) == ("escova", 4, True, 10, True)
    assert not seat.hints
    assert [(p.kind, p.level) for p in seat.presence()] == [
        ("human", ""), ("empty", ""), ("empty", ""), ("bot", "expert")]


def test_a_table_game_is_not_continued_as_pass_and_play_on_my_games() -> None:
    ana = _device("Ana")
    _start_against_the_computer(ana)
    seat = _seat(ana)
    ana.switch_page("app_pages/games.py").run()
    assert_ok(ana)
    assert not [b for b in ana.button if b.key == f"continue_{seat.game.game_id}"]
    # Continued at the table instead, at this device's own seat.
    assert ana.button(key=f"table_{seat.game.game_id}")
    # Nor on Play: the table's game is not the profile's game in play there.
    ana.switch_page("app_pages/play.py").run()
    assert_ok(ana)
    assert ana.button(key="start_game")


def _game_lines(at: AppTest) -> list[str]:
    """My games' lines, as read (the players' names are escaped Markdown there)."""
    return [m.value.replace("\\", "") for m in at.markdown if m.value.startswith("**")]


def test_each_child_at_a_table_finds_its_game_in_my_games_as_themselves() -> None:
    from tests.test_app_helpers import board_data

    ana, leo, code = _two_at_a_table()
    game_id = _seat(leo).game.game_id
    leo_id = _seat(leo).me.profile_id
    mia = _device("Mia")  # a classmate who never sat at the table
    for at, me, friend in ((ana, "Ana", "Leo"), (leo, "Leo", "Ana")):
        at.switch_page("app_pages/games.py").run()
        assert_ok(at)
        (line,) = _game_lines(at)
        assert t("game_player_you", name=me) in line
        assert t("game_player_you", name=friend) not in line and friend in line
    mia.switch_page("app_pages/games.py").run()
    assert_ok(mia)
    assert _game_lines(mia) == [] and t("no_games") in _texts(mia)
    # Leo continues: the table's board at his own seat, his hand and nobody else's.
    leo.button(key=f"table_{game_id}").click().run()
    assert_ok(leo)
    seat = _seat(leo)
    assert seat.seat == 1 and seat.me.profile_id == leo_id
    data = board_data(leo)
    assert sorted(data["hand"]) == sorted(str(c) for c in seat.game.observation(1).hand)
    # Its lines and score can be heard, as on Play (issue 23); no hidden card in them.
    speech = data["speech"]
    assert speech["header"] and len(speech["events"]) == len(data.get("events", []))
    friend_cards = {c.name(deck) for c in seat.game.game.round.hand(0) for deck in Deck}
    assert not any(name in str(speech) for name in friend_cards)
    assert leo.query_params["seat"] in (seat.token, [seat.token])
    # (AppTest keeps asking for the page its last switch_page named: stay on the table.)
    leo.switch_page(PAGE).run()
    assert _seat(leo).seat == 1
    # Leo's profile on another tablet (no secret of that seat): listed, said where to
    # play it, and no way to take the seat from the profile.
    other = new_app(query={"p": str(leo_id)})
    other.switch_page("app_pages/games.py").run()
    assert_ok(other)
    (line,) = _game_lines(other)
    assert t("game_player_you", name="Leo") in line
    # Until that tablet says which seats it keeps, nothing untrue is said; then, that the
    # seat is not on it.
    assert t("table_seat_looking") in "\n".join(c.value for c in other.caption)
    _tablet_keeps(other, {})
    other.run()
    assert t("table_seat_not_here", code=code) in "\n".join(c.value for c in other.caption)
    assert not [b for b in other.button if b.key == f"table_{game_id}"]
    # Once the game is over, each child downloads its record.
    ana.switch_page(PAGE).run()  # back at the table: this session still holds her seat
    assert_ok(ana)
    assert _seat(ana).seat == 0
    for _ in range(300):
        a = _seat(ana)
        if a.game.is_over:
            break
        if a.game.round_over:
            ana.button(key="tb_next_round").click().run()
            leo.run()
            continue
        mover, friend_at = (ana, leo) if a.my_turn else (leo, ana)
        _play(mover, _best_move(mover))
        friend_at.run()
    assert _seat(ana).game.is_over
    other.run()
    assert_ok(other)
    assert other.get("download_button")


def _leo_to_move_then_away(seconds: int):
    """Ana and Leo at a table, Leo to move, Leo's tablet silent for ``seconds``."""
    from datetime import timedelta

    from trainer.storage.schema import table_seats

    ana = _device("Ana")
    code = _open_table(ana)
    leo = _device("Leo")
    _join(leo, code)
    ana.run()
    if _seat(ana).my_turn:
        _play(ana, _best_move(ana))
    seat = _seat(ana)
    assert seat.game.to_move == 1
    store = seat.storage
    leo_row = next(s for s in store.table_seats(seat.table.id) if s.seat == 1)
    with store.engine.begin() as conn:
        conn.execute(table_seats.update().where(table_seats.c.id == leo_row.id)
                     .values(last_seen=leo_row.last_seen - timedelta(seconds=seconds)))
    ana.run()
    assert_ok(ana)
    return ana, f"{leo_row.avatar} Leo", seat.timeout


@pytest.mark.parametrize("seconds", [30, 600])
def test_the_turn_line_says_the_friend_is_away_not_playing(seconds: int) -> None:
    ana, leo, timeout = _leo_to_move_then_away(seconds)
    if seconds > timeout:  # the level asked for is the computer's, said so
        assert ana.selectbox(key="tb_hand_level_1").label == t("table_computer_level")
    texts = _texts(ana)
    assert t("table_left", name=leo) in texts
    assert t("table_their_turn", name=leo) not in texts
    if seconds > timeout:
        assert t("table_their_turn_gone", name=leo) in texts
    else:
        assert t("table_their_turn_away", name=leo, seconds=timeout) in texts


def _is_timer(node) -> bool:
    """A part's timer (ui.ticker): an invisible element at the end of the part."""
    proto = getattr(node, "proto", None)
    return node.type == "bidi_component" and "-look-" in getattr(proto, "id", "")


def _in_order(node, out: list | None = None) -> list[tuple[str, str]]:
    """The page's elements top to bottom: (type, text)."""
    out = [] if out is None else out
    kids = getattr(node, "children", None)
    if kids:
        for key in sorted(kids):
            _in_order(kids[key], out)
    elif node.type != "flex_container" and not _is_timer(node):  # neither shows anything
        out.append((node.type, str(getattr(node, "value", ""))))
    return out


def test_during_a_game_the_turn_comes_first_and_at_the_end_the_result() -> None:
    """On a phone the big title and the board pushed "your turn" and the winner out of
    sight: during a game a small title line, then the turn, then the board; at the end
    who won comes first."""
    ana = _device("Ana")
    _start_against_the_computer(ana)
    assert_ok(ana)
    assert not ana.title
    page = _in_order(ana.main)
    kinds = [kind for kind, _ in page]
    assert page[0] == ("caption", f"🤝 {t('tables_title')} · "
                       f"{t('table_playing_at', code=_seat(ana).code)}")
    turn = next(i for i, (kind, text) in enumerate(page) if text == t("table_your_turn"))
    assert turn < kinds.index("bidi_component")
    _play_to_the_end(ana)
    assert _seat(ana).game.is_over
    page = _in_order(ana.main)
    kinds = [kind for kind, _ in page]
    game = _seat(ana).game
    winner = game.game.winner
    said = (t("game_stopped") if winner is None else t("you_won") if winner == 0
            else t("winner_is", name=game.side_name(winner)))
    assert kinds.index("bidi_component") > page.index(
        ("info" if winner is None else "success", said))


def test_a_tied_quick_game_says_one_more_round() -> None:
    ana = _device("Ana")
    _start_against_the_computer(ana)
    for _ in range(100):
        if _seat(ana).game.round_over:
            break
        _play(ana, _best_move(ana))
    game = _seat(ana).game
    game.game.winner = None  # the round ended 3–3: the engine plays on
    game.game.totals[:] = [3, 3]
    ana.run()
    assert_ok(ana)
    assert t("table_more_rounds_tie", score="3–3") in _texts(ana)
    assert ana.button(key="tb_next_round")


def test_a_foreign_link_to_a_finished_table_says_the_game_is_over() -> None:
    ana = _device("Ana")
    _start_against_the_computer(ana)
    _play_to_the_end(ana)
    code = _seat(ana).code
    mia = _device("Mia", query={"table": code, "seat": "x" * 22})
    said = t("table_link_finished", code=code)
    assert said in [e.value for e in mia.info] and said not in [e.value for e in mia.error]
    assert t("table_bad_link") not in _texts(mia)
    _join(mia, code)
    assert t("table_finished") in _texts(mia) and t("table_started") not in _texts(mia)


def test_closing_asks_first_and_says_it_closed_and_a_friend_may_leave() -> None:
    ana = _device("Ana")
    ana.segmented_control(key="tb_players").set_value(3).run()
    code = _open_table(ana)
    leo = _device("Leo")
    _join(leo, code)
    assert_ok(leo)
    assert _seat(leo).waiting and not [b for b in leo.button if b.key == "tb_close"]
    # Leo leaves: back in the lobby, told so, and his seat is free again.
    leo.button(key="tb_leave_waiting").click().run()
    assert_ok(leo)
    assert _seat(leo) is None and t("table_left_done", code=code) in _texts(leo)
    ana.run()
    assert [p.kind for p in _seat(ana).presence()] == ["human", "empty", "empty"]
    # Ana's "Close the table" asks first; "no" keeps the table.
    assert ana.button(key="tb_close").proto.type == "secondary"
    ana.button(key="tb_close").click().run()
    assert t("table_close_confirm") in "\n".join(m.value for m in ana.markdown)
    ana.button(key="tb_close_no").click().run()
    assert _seat(ana) is not None and _seat(ana).waiting
    ana.button(key="tb_close").click().run()
    ana.button(key="tb_close_yes").click().run()
    assert_ok(ana)
    assert _seat(ana) is None and t("table_closed_done", code=code) in _texts(ana)
    _join(leo, code)
    assert t("table_closed") in _texts(leo)


def test_waiting_room_lists_seats_once_numbered_and_teams_at_four() -> None:
    from trainer.tables import normalise_table_code

    ana = _device("Ana")
    # The code box's hint describes a code; it is not one a child could take for real.
    hint = ana.text_input(key="tb_code").placeholder
    assert hint == t("table_code_placeholder") and normalise_table_code(hint) is None
    _open_table(ana)
    listing = next(m.value for m in ana.markdown if "Ana" in m.value)
    assert not listing.lstrip().startswith(("-", "*")) and "1" in listing
    ana.button(key="tb_close").click().run()
    ana.button(key="tb_close_yes").click().run()
    ana.segmented_control(key="tb_players").set_value(4).run()
    ana.toggle(key="tb_teams").set_value(True).run()
    ana.button(key="tb_open_button").click().run()
    assert_ok(ana)
    teams = [m.value for m in ana.markdown if m.value.startswith("**" + t("table_team_n", n=1))
             or m.value.startswith("**" + t("table_team_n", n=2))]
    assert len(teams) == 2 and "Ana" in teams[0] and "Ana" not in teams[1]
    assert teams[0].count("\n") == 2 and teams[1].count("\n") == 2  # two seats each


def test_the_home_page_has_a_play_a_friend_shortcut() -> None:
    at = new_app()
    create_profile(at, "Ana")
    at.switch_page("app_pages/profiles.py").run()
    links = [e for e in at.get("page_link")]
    assert any(t("go_tables") in str(e.proto) for e in links)


def _two_at_a_table() -> tuple[AppTest, AppTest, str]:
    """Ana opened a table (hints on, as the form offers), Leo joined: the game is on."""
    ana = _device("Ana")
    code = _open_table(ana)
    leo = _device("Leo")
    _join(leo, code)
    ana.run()
    assert_ok(ana)
    assert not _seat(ana).waiting and not _seat(leo).waiting
    return ana, leo, code


@pytest.mark.parametrize("secret", ["x" * 22, "'; drop table games; --", None])
def test_a_wrong_secret_to_a_table_in_play_says_it_is_another_tablets_seat(secret) -> None:
    """Joining again with the code cannot work at a table in play: the link says what
    it is (another tablet's seat) and what to do, changes nothing and shows no hand."""
    from tests.test_app_helpers import board_data

    ana, leo, code = _two_at_a_table()
    store = _seat(ana).storage
    table_id = _seat(ana).table.id
    before = (store.table_pulse(table_id), store.table_seats(table_id, history=True))
    mia = _device("Mia", query={"table": code} | ({"seat": secret} if secret else {}))
    # The address alone (no secret) is a third device at a full table (issue 31).
    said = t("table_full_started" if secret is None else "table_link_not_yours", code=code)
    assert said in [e.value for e in mia.warning]
    assert t("table_bad_link") not in _texts(mia)
    assert _seat(mia) is None and "table_watch" not in mia.session_state
    assert board_data(mia) is None and not [p for p in mia.pills if p.key == "tb_hand"]
    assert mia.button(key="tb_join_button")  # the lobby, to open a new table
    assert (store.table_pulse(table_id), store.table_seats(table_id, history=True)) == before


def _hint_panels(at: AppTest) -> list[str]:
    return [h.value for h in at.get("html") if t("hints_title") in h.value]


def test_the_hint_panel_is_on_the_board_of_the_seat_to_move_only() -> None:
    from tests.test_app_helpers import board_data
    from trainer.hints import game_hint

    ana, leo, _ = _two_at_a_table()
    for _ in range(2):  # each child's turn in turn
        mover, other = (ana, leo) if _seat(ana).my_turn else (leo, ana)
        seat = _seat(mover)
        (panel,) = _hint_panels(mover)
        # The words of this seat's own observation (the Play page's panel, reused).
        hint = game_hint(seat.game.observation(seat.seat), 1)
        assert hint.lines and not board_data(mover)["hints"]["lit"]
        assert _hint_panels(other) == []
        if hint.more:  # "more help" lights the best move's cards on this board
            mover.button(key="hint_more").click().run()
            assert_ok(mover)
            assert board_data(mover)["hints"]["lit"]
        _play(mover, _best_move(mover))
        other.run()
        if _seat(ana).game.round_over:
            break


def test_a_table_without_hints_has_no_hint_panel() -> None:
    ana = _device("Ana")
    ana.toggle(key="tb_hints").set_value(False).run()
    _start_against_the_computer(ana)
    assert_ok(ana)
    assert _seat(ana).my_turn and _hint_panels(ana) == []


#: What _timers notes for a timer asked of Streamlit itself (st.fragment(run_every=...)).
STREAMLIT_TIMER = "streamlit's own timer"


def _timers(monkeypatch) -> list[tuple[float, str]]:
    """The fragment timers the app's runs ask the browser for: (seconds, fragment id),
    each drawn by ui.ticker in the fragment it reruns; Streamlit's own, should any part
    ask for one, as (seconds, STREAMLIT_TIMER) (only the page's wake after a restart
    does: tests/test_app_tablets.py)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import (
        ScriptRunContext,
        ThreadState,
    )

    import ui.ticker

    asked: list[tuple[float, str]] = []
    enqueue = ScriptRunContext.enqueue
    draw = ui.ticker._TICKER

    def record(self, msg) -> None:
        if msg.HasField("auto_rerun"):
            asked.append((msg.auto_rerun.interval, STREAMLIT_TIMER))
        enqueue(self, msg)

    def ticker(**kwargs):  # drawn inside the fragment it reruns
        if kwargs["data"]["every_ms"]:  # 0: the page's watch alone, no timer
            asked.append((kwargs["data"]["every_ms"] / 1000, ThreadState.get().fragment_id))
        return draw(**kwargs)

    monkeypatch.setattr(ScriptRunContext, "enqueue", record)
    monkeypatch.setattr(ui.ticker, "_TICKER", ticker)
    return asked


def _tick(at: AppTest, fragment_id: str, monkeypatch) -> None:
    """What the browser's timer does: rerun only that fragment (no tap, no full run)."""
    from streamlit.runtime.scriptrunner import RerunData
    from streamlit.testing.v1 import local_script_runner

    def timer_run(**kwargs):
        return RerunData(**kwargs, fragment_id_queue=[fragment_id], is_auto_rerun=True)

    with monkeypatch.context() as patch:
        patch.setattr(local_script_runner, "RerunData", timer_run)
        at.run()
    assert_ok(at)


def test_a_classmates_new_table_appears_in_the_list_without_a_tap(monkeypatch) -> None:
    """The class's open tables refresh by themselves (a fragment with ``run_every``),
    only while the lobby shows them; the timer's run alone (driven here as the browser
    drives it: a fragment-only rerun) shows a table Mia opened meanwhile."""
    import os

    import sqlalchemy as sa

    from trainer.storage import Storage
    from trainer.storage.schema import class_members, now
    from ui.table_view import CLASS_TABLES_SECONDS

    asked = _timers(monkeypatch)
    ana = _device("Ana")
    mia = _device("Mia")
    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"), migrate=False)
    teacher = store.create_teacher("Ms Díaz", "a long passphrase")
    room = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    with store.engine.begin() as conn:
        for profile in store.list_profiles():
            conn.execute(class_members.insert().values(
                class_id=room.id, profile_id=profile.id, failed_attempts=0, created_at=now()))
    asked.clear()
    ana.run()
    assert t("table_class_none") in [c.value for c in ana.caption]
    timers = [fid for interval, fid in asked if interval == CLASS_TABLES_SECONDS]
    assert len(timers) == 1  # the list, and only it, on this timer
    code = _open_table(mia)  # on Mia's tablet
    _tick(ana, timers[0], monkeypatch)
    listed = [m.value for m in ana.markdown if m.value.startswith(code)]
    assert len(listed) == 1 and "Mia" in listed[0]
    (join,) = [b for b in ana.button if b.key and b.key.startswith("tb_join_")
               and b.key != "tb_join_button"]
    # A tap on it seats Ana and the whole page moves on to the table (the list is a
    # fragment: its tap alone would redraw only the list).
    join.click().run()
    assert_ok(ana)
    assert _seat(ana) is not None and _seat(ana).code == code
    # No longer in the lobby: the list's timer is no longer asked for.
    asked.clear()
    ana.run()
    assert not [i for i, _ in asked if i == CLASS_TABLES_SECONDS]


def test_the_class_tables_stay_in_the_childs_language_after_a_timer_tick(monkeypatch) -> None:
    """Issue 25: the list's timer reruns it alone, on a script thread of its own, where
    the run's language was never set: the second draw came out in English."""
    import os

    import sqlalchemy as sa

    from trainer.storage import Storage
    from trainer.storage.schema import class_members, now
    from ui.table_view import CLASS_TABLES_SECONDS

    asked = _timers(monkeypatch)
    ana = _device("Ana", locale="es-ES")
    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"), migrate=False)
    teacher = store.create_teacher("Ms Díaz", "a long passphrase")
    room = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    with store.engine.begin() as conn:
        conn.execute(class_members.insert().values(
            class_id=room.id, profile_id=store.list_profiles()[0].id, failed_attempts=0,
            created_at=now()))
    asked.clear()
    ana.run()
    spanish = (t("table_class_open", "es"), t("table_class_none", "es"))
    assert spanish != (t("table_class_open", "en"), t("table_class_none", "en"))
    (timer,) = [fid for interval, fid in asked if interval == CLASS_TABLES_SECONDS]
    for _ in range(2):
        _tick(ana, timer, monkeypatch)
        assert [h.value for h in ana.subheader if h.value == spanish[0]] == [spanish[0]]
        assert spanish[1] in [c.value for c in ana.caption]


# -- a seat belongs to a child, not to the tablet's session (issue 25) ------------------------

def _bob_at_a_table_then_ann_on_his_tablet():
    """Bob (a PIN) opens a table against the computer; on "Who's playing?" of the same
    tablet Ann is tapped (the reproduction of issue 25)."""
    from tests.test_app_tabs import set_pin, store, url_profile

    at = _device("Bob")
    bob = int(url_profile(at))
    set_pin(at, "2468")
    at.switch_page(PAGE).run()
    _start_against_the_computer(at)
    bobs = _seat(at)
    assert bobs is not None and bobs.game is not None
    link = {"table": bobs.code, "seat": bobs.token}
    at.switch_page("app_pages/profiles.py").run()
    create_profile(at, "Ann")
    ann = int(url_profile(at))
    assert ann != bob and store().get_profile(ann).nickname == "Ann"
    return at, bob, ann, link, bobs


def test_switching_child_drops_the_seat_and_plays_nothing_of_bobs() -> None:
    from tests.test_app_tabs import store

    at, bob, ann, link, bobs = _bob_at_a_table_then_ann_on_his_tablet()
    # The switch dropped everything Bob had open in this session: his seat first.
    assert _seat(at) is None and "game_session" not in at.session_state
    # "Play a friend" for Ann: her lobby, not Bob's cards.
    at.switch_page(PAGE).run()
    assert_ok(at)
    assert _seat(at) is None and "table_watch" not in at.session_state
    assert t("table_your_turn") not in _texts(at)
    assert not [b for b in at.button if b.key == "tb_play"]
    # Bob's link itself (still in the tablet's address bar): whose seat it is, his PIN or
    # watching; never his hand, and no move is recorded for anyone.
    at.query_params.update(link)
    at.switch_page(PAGE).run()
    assert_ok(at)
    assert t("table_seat_whose", name="🦊 Bob", me="🦊 Ann") in _texts(at)
    assert _seat(at) is None and not [b for b in at.button if b.key == "tb_play"]
    at.button(key="tb_watch_other").click().run()
    assert_ok(at)
    watcher = at.session_state["table_watch"]
    assert watcher.watching and t("table_watching_other") in "\n".join(
        c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "tb_play"]
    assert store().attempts(ann) == [] and store().attempts(bob) == []
    assert store().table_pulse(bobs.table.id) == bobs.pulse  # nothing moved


def test_the_seats_own_child_comes_back_with_their_pin() -> None:
    at, bob, ann, link, bobs = _bob_at_a_table_then_ann_on_his_tablet()
    at.query_params.update(link)
    at.switch_page(PAGE).run()
    at.button(key="tb_i_am").click().run()
    assert_ok(at)
    assert any("Bob has a PIN" in m.value for m in at.markdown)
    at.text_input(key="pin_entry").input("1357")
    at.button(key="FormSubmitter:pin_form-Open").click().run()
    assert_ok(at)
    assert t("pin_wrong") in _texts(at) and _seat(at) is None
    at.text_input(key="pin_entry").input("2468")
    at.button(key="FormSubmitter:pin_form-Open").click().run()
    assert_ok(at)
    seat = _seat(at)
    assert seat is not None and seat.player_id == bob and seat.code == bobs.code
    assert t("table_your_turn") in _texts(at)


# -- back to my seat (issue 31) ---------------------------------------------------------------

def test_the_tablet_keeps_the_seat_and_the_address_drops_the_secret() -> None:
    """Opening a table asks the tablet to keep the seat (for this child only); once it
    says it does, the address carries the table and no secret; the tablet that keeps
    nothing (no answer) keeps the secret in the address, as before."""
    ana = _device("Ana")
    code = _open_table(ana)
    seat = _seat(ana)
    data = _keeper_data(ana)
    assert data["profile"] == seat.player_id and data["save"] == {code: seat.token}
    assert ana.query_params["seat"] in (seat.token, [seat.token])
    _tablet_keeps(ana, {code: seat.token})
    ana.run()
    assert_ok(ana)
    assert "seat" not in ana.query_params and ana.query_params["table"] in (code, [code])
    assert _seat(ana).seat == 0 and _keeper_data(ana)["save"] == {}
    # Back to the tables: the tablet forgets the seat.
    ana.button(key="tb_close").click().run()
    ana.button(key="tb_close_yes").click().run()
    assert_ok(ana)
    assert _keeper_data(ana)["forget"] == [code]


def test_a_closed_tab_comes_back_to_its_seat_by_my_games_by_the_code_and_the_address() -> None:
    ana, leo, code = _two_at_a_table()
    seat = _seat(leo)
    leo_id, token, game_id = seat.player_id, seat.token, seat.game.game_id
    def who_sits() -> list[tuple]:
        return [(r.id, r.seat, r.profile_id, r.left_at)
                for r in seat.storage.table_seats(seat.table.id, history=True)]

    rows = who_sits()
    # Leo closed the tab; a new one on the same tablet (which keeps his seat).
    for way in ("my games", "code", "address"):
        tab = new_app(query={"p": str(leo_id)} | ({"table": code} if way == "address" else {}))
        if way == "my games":
            tab.switch_page("app_pages/games.py").run()
            _tablet_keeps(tab, {code: token})
            tab.run()
            tab.button(key=f"table_{game_id}").click().run()
            tab.switch_page(PAGE).run()  # (AppTest: stay on the page the button opened)
        elif way == "code":
            tab.switch_page(PAGE).run()
            _tablet_keeps(tab, {code: token})
            _join(tab, code)
        else:
            tab.switch_page(PAGE).run()
            assert_ok(tab)
            # Before the tablet answers: looking, no lobby, nothing untrue, a way out.
            assert t("table_seat_looking") in "\n".join(c.value for c in tab.caption)
            assert not [b for b in tab.button if b.key == "tb_join_button"]
            assert tab.button(key="tb_leave_looking")
            _tablet_keeps(tab, {code: token})
            tab.run()
        assert_ok(tab)
        back = _seat(tab)
        assert back is not None and back.seat == 1 and back.player_id == leo_id, way
        assert back.revision == _seat(ana).revision
        assert "seat" not in tab.query_params, way  # kept on the tablet: not in the address
    assert who_sits() == rows  # no second seat, nobody moved
    # The same code on a tablet that does not keep Leo's seat: true, and no seat.
    elsewhere = new_app(query={"p": str(leo_id)})
    elsewhere.switch_page(PAGE).run()
    _tablet_keeps(elsewhere, {})
    _join(elsewhere, code)
    assert_ok(elsewhere)
    assert t("table_seat_not_here", code=code) in [w.value for w in elsewhere.warning]
    assert _seat(elsewhere) is None


def test_a_third_device_at_a_full_table_is_told_so_and_may_open_a_new_table() -> None:
    ana, leo, code = _two_at_a_table()
    mia = _device("Mia")
    _tablet_keeps(mia, {})
    _join(mia, code)
    assert_ok(mia)
    said = t("table_full_started", code=code)
    assert said in [w.value for w in mia.warning]
    assert t("table_started") not in _texts(mia) and _seat(mia) is None
    mia.button(key="tb_full_open").click().run()
    assert_ok(mia)
    assert said not in _texts(mia)
    order = [b.key for b in mia.button if b.key in ("tb_open_button", "tb_join_button")]
    assert order == ["tb_open_button", "tb_join_button"]  # the open form first
    # The address of that table alone (shared, or left on a tablet): the same truth.
    other = _device("Noa", query={"table": code})
    assert said in [w.value for w in other.warning] and _seat(other) is None
    assert "table" not in other.query_params


def test_the_address_of_a_waiting_table_types_its_code_for_a_friend() -> None:
    """``?table=CODE`` alone carries no seat: a friend who opens it is told the table
    waits for friends, with the code typed in; Join seats them (nothing joins by itself)."""
    ana = _device("Ana")
    code = _open_table(ana)
    leo = _device("Leo", query={"table": code})
    said = t("table_join_waiting", code=code, join=t("table_join_button"))
    assert said in [i.value for i in leo.info] and _seat(leo) is None
    assert leo.text_input(key="tb_code").value == code
    leo.button(key="tb_join_button").click().run()
    assert_ok(leo)
    assert _seat(leo) is not None and _seat(leo).seat == 1
