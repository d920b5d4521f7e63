"""The board follows the game: the state pushed for each change (undo included), shown by the
real firmware in simavr (sim://), and a lost board never blocks the game."""

import time

import pytest

from companion.game import GameSession
from companion.game.board import BoardSync, board_state

from tests.game.conftest import played



def test_a_two_sided_game_on_a_three_track_board_and_the_dealer_track():
    session = GameSession.new(["Ann", "Ben", "Cat", "Dan"], first_dealer="Ben")
    session.discard([["2C"], ["3C"], ["4C"], ["6C"]])
    session.cut("JD")  # Ben deals: heels to Ben & Dan (track 1)
    state = board_state(session.view(), tracks=3)
    assert state.pegs == ((0, 0), (2, 0), (0, 0)) and state.dealer == 1


def test_skunk_lines_and_the_win_animation_follow_the_rules():
    view = played("double_skunk").session.view()
    state = board_state(view)
    assert (state.skunk_line, state.double_skunk_line) == (90, 60)
    assert state.animation.kind == "win" and state.animation.track == view.result.winner  # a 1.0 board
    assert max(front for front, _ in state.pegs) == 121
    assert board_state(view, protocol=(1, 1)).animation.kind == "double_skunk"
    assert board_state(played("skunk").session.view(), protocol=(1, 1)).animation.kind == "skunk"
    plain = played("peg_out_in_play").session.view()
    assert plain.result.kind == "win" and board_state(plain, protocol=(1, 1)).animation.kind == "win"


def test_every_end_of_a_game_has_its_comet_where_the_board_shows_skunks():
    from hardware import Comet

    from companion.game.board import comet_of
    from companion.rules import GameEnd

    assert sorted(comet_of(end) for end in GameEnd) == sorted(Comet)  # one comet each, none left unlit
    view = played("double_skunk").session.view()
    assert board_state(view, protocol=(2, 0)).animation.kind is Comet.DOUBLE_SKUNK  # a newer minor only adds
    assert board_state(view, protocol=(0, 9)).animation.kind is Comet.WIN


def test_a_short_game_on_an_old_and_a_new_board():
    view = played("short_pone_pegs_out_in_show").session.view()
    old = board_state(view, protocol=(1, 0))
    assert old.pegs[0][0] == 121 and old.skunk_line == 30  # the game hole of a 121 board
    new = board_state(view, protocol=(1, 1))
    assert new.target == 61 and new.pegs[0][0] == 61


@pytest.fixture(scope="module")
def firmware():
    from hardware.simulator import build

    build("2-track")


def test_every_change_and_undo_reaches_the_simulated_board(firmware):
    from hardware import leds
    from hardware.geometry import Geometry

    geometry = Geometry.load("2-track")
    session = GameSession.new(["Ann", "Ben"], first_dealer="Ann")
    sync = BoardSync.open("sim://2-track", session)
    try:
        assert sync.driver.wait_connected(30)
        moves = [lambda: session.discard([["2C", "3C"], ["KH", "QH"]]), lambda: session.cut("JD"),
                 lambda: session.lay("TH"), lambda: session.lay("5H"), session.undo, session.redo]
        for move in moves:
            move()
            expected = board_state(session.view(), 2, tuple(sync.driver.info.protocol))
            assert sync.pushed == expected
            assert sync.driver.wait_shown(expected, 5), sync.driver.last_error
            lit = sync.driver.simulator.wait_for(lambda f: f.grb == leds.render(geometry, expected), 5)
            assert lit is not None, "the LEDs do not show the game"
        assert sync.driver.shown.pegs == ((4, 2), (0, 0))  # heels 2, then 15 for 2
    finally:
        sync.close()


def test_a_missing_board_never_blocks_the_game():
    session = GameSession.new(["Ann", "Ben"], first_dealer="Ann")
    sync = BoardSync.open("/dev/crib-companion-no-such-board", session)
    try:
        started = time.monotonic()
        session.discard([["2C", "3C"], ["KH", "QH"]])
        session.cut("JD")
        session.lay("TH")
        assert time.monotonic() - started < 0.5
        assert session.view().scores == (2, 0) and not sync.driver.connected
        time.sleep(0.2)
        assert sync.driver.last_error is not None  # the driver keeps trying in the background
    finally:
        sync.close()


def test_a_board_plugged_in_late_shows_the_current_state_at_once(firmware, tmp_path):
    from hardware import leds
    from hardware.geometry import Geometry
    from hardware.simulator import Simulator

    port = str(tmp_path / "board")
    session = GameSession.new(["Ann", "Ben"], first_dealer="Ann")
    sync = BoardSync.open(port, session)   # nothing there yet
    try:
        session.discard([["2C", "3C"], ["KH", "QH"]])
        session.cut("JD")
        session.lay("TH")
        session.lay("5H")
        assert not sync.driver.connected
        with Simulator("2-track", link_path=port) as simulator:
            assert sync.driver.wait_shown(sync.pushed, 15), sync.driver.last_error
            expected = leds.render(Geometry.load("2-track"), sync.pushed)
            assert simulator.wait_for(lambda f: f.grb == expected, 5) is not None
            assert sync.driver.shown.pegs == ((4, 2), (0, 0))
    finally:
        sync.close()


# ---------------------------------------------------------------- crib game resume --board: said, or refused

def _resume_with_board(capsys, monkeypatch, board, players=("Ann", "Ben")):
    import io
    import json

    from companion.cli import main

    assert main(["game", "new", *players, "--json"]) == 0
    game_id = json.loads(capsys.readouterr().out)["id"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status = main(["game", "resume", str(game_id), "--board", board])
    out, err = capsys.readouterr()
    return status, out, err


def test_resume_says_the_simulated_board_connected(firmware, capsys, monkeypatch, data_folder):
    status, out, err = _resume_with_board(capsys, monkeypatch, "sim://2-track")
    assert status == 0 and err == ""
    assert out.splitlines()[0].startswith("board: connected on sim://2-track: protocol ")
    assert "geometry 2-track" in out.splitlines()[0]


def test_resume_refuses_a_port_that_is_not_there(capsys, monkeypatch, data_folder):
    status, out, err = _resume_with_board(capsys, monkeypatch, "/dev/ttyUSB-crib-no-such-port")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("crib game: error: --board /dev/ttyUSB-crib-no-such-port: no such port")
    # the game was closed again: a second resume is not told it is open elsewhere
    status, _, err = _resume_with_board(capsys, monkeypatch, "/dev/ttyUSB-crib-no-such-port")
    assert "open in another process" not in err


def test_resume_refuses_a_simulated_board_with_other_tracks_than_sides(capsys, monkeypatch, data_folder):
    status, out, err = _resume_with_board(capsys, monkeypatch, "sim://3-track")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "a simulated 3-track board for a game of 2 sides: use sim://2-track" in err
    status, out, err = _resume_with_board(capsys, monkeypatch, "sim://2-track", ("Ann", "Ben", "Cat"))
    assert status == 2 and "use sim://3-track" in err
