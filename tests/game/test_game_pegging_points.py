"""Pegging by points (issue 48): the play entered as the points each player pegs, not card by
card. The entries journal, replay, undo and export like every other move; the hands come to the
show unknown and are typed (or photographed) there; a game switches between the two ways."""

import json

import pytest

from companion.game import GameSession, Store
from companion.game.errors import EntryError
from companion.game.events import NewGame, PegPoints, entry_from_json
from companion.game.stats import collect
from companion.game.transfer import import_game, write_export

ANN_HAND, BEN_HAND = ["5H", "5C", "5S", "JD"], ["4H", "4C", "6S", "6H"]
CRIB = ["AH", "2C", "3S", "KH"]


def points_game(**kw):
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ann", pegging="points", **kw)
    session.discard()
    session.cut("5D")
    return session


def test_a_deal_pegged_by_points_moves_the_pegs_and_reaches_the_show():
    session = points_game()
    view = session.view()
    assert view.pegging == "points" and view.phase == "play"
    assert view.to_act is None and view.count is None  # nobody's turn is kept when only points are
    lines = session.peg("Ben", 2) + session.peg("Ann", "go") + session.peg(0, "31") + session.peg("Ben", 3)
    assert [line.text for line in lines] == ["Ben pegs 2 in the play", "Ann: the go for 1", "Ann: 31 for 2",
                                             "Ben pegs 3 in the play"]
    view = session.view()
    assert view.scores == (3, 5)
    assert view.pegs == ((3, 1), (5, 2))  # front and back peg, as on a real board
    assert view.board.pegs == ((3, 1), (5, 2))  # the LED board lights them
    assert view.phase == "play"
    assert session.play_done() == []
    view = session.view()
    assert view.phase == "show" and view.next_show.seat == 1 and view.next_show.cards is None
    session.show(BEN_HAND)        # Ben, the pone: 24 (two 4s, two 6s and the 5)
    session.show(ANN_HAND)        # Ann: 29
    session.show(CRIB, claim=2)   # the crib, claimed short
    view = session.view()
    assert view.phase == "discard"
    assert [s.total for s in view.shown] == [24, 29, 7]
    assert view.scores == (3 + 29 + 7, 5 + 24)  # muggins off (acc): the right count is pegged


def test_points_pegged_undo_and_redo_and_resume_like_every_move(data_folder):
    store = Store()
    session = points_game(store=store)
    session.peg("Ben", 2)
    session.peg("Ann", 4)
    assert session.view().scores == (4, 2)
    session.undo()
    assert session.view().scores == (0, 2) and session.view().can_redo == 1
    session.redo()
    session.play_done()
    session.undo()  # back in the play: more points may be pegged
    assert session.view().phase == "play"
    session.forget_undone()
    session.peg("Ben", "go")
    game_id, before = session.game_id, session.view()
    session.close()
    again = GameSession.open(store, game_id)  # the journal replays to the same state
    assert again.view() == before and again.view().scores == (4, 3)
    again.close()


def test_an_exported_game_pegged_by_points_imports_as_it_was(data_folder, tmp_path):
    session = points_game(store=Store())
    session.peg("Ann", 6)
    session.peg("Ben", "31")
    path = tmp_path / "game.json"
    write_export(session.export(), path)
    kinds = [entry["type"] for entry in json.loads(path.read_text())["entries"]]
    assert kinds[0] == "new-game" and kinds[-2:] == ["peg", "peg"]
    new_id = import_game(Store(), path)
    imported = GameSession.read(Store(), new_id)
    assert imported.view().scores == (6, 2) and imported.view().pegging == "points"


def test_points_out_of_bounds_or_out_of_turn_are_refused_with_one_line():
    session = points_game()
    for points, words in ((0, "moves no peg"), (16, "nothing in the play scores more than 15"),
                          ("lots", "a whole number of points, 'go' or '31'")):
        with pytest.raises(EntryError, match=words):
            session.peg("Ann", points)
    with pytest.raises(EntryError, match="no player named 'Cat'"):
        session.peg("Cat", 2)
    with pytest.raises(EntryError, match="this game pegs the play by points"):
        session.lay("7C")
    with pytest.raises(EntryError, match="this game pegs the play by points"):
        session.go()
    with pytest.raises(EntryError, match="31 pegs 2, not 3"):
        session.record(PegPoints(0, 3, "31"))
    with pytest.raises(EntryError, match="said: expected one of go, 31"):
        entry_from_json({"type": "peg", "seat": 0, "points": 1, "said": "last card"})
    assert session.view().scores == (0, 0)  # nothing refused was pegged
    session.play_done()
    with pytest.raises(EntryError, match="cannot come now: the game is at the show"):
        session.peg("Ann", 2)


def test_a_game_entered_card_by_card_refuses_points_and_the_end_of_the_play():
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ann")
    assert session.view().pegging == "cards"
    session.discard()
    session.cut("5D")
    with pytest.raises(EntryError, match="enters the play card by card"):
        session.peg("Ann", 2)
    with pytest.raises(EntryError, match="ends with its last card"):
        session.play_done()


def test_a_game_switches_between_cards_and_points():
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ann")
    session.discard()
    session.cut("9D")
    session.lay("4H")           # Ben starts card by card ...
    session.lay("AS")           # ... Ann too
    session.peg_by("points")    # then they keep the count in their heads
    with pytest.raises(EntryError, match="already entered by points"):
        session.peg_by("points")
    session.peg("Ben", 2)
    with pytest.raises(EntryError, match="card by card can start with the next deal"):
        session.peg_by("cards")
    session.play_done()
    with pytest.raises(EntryError, match="Ben's hand holds 4H, laid in the play"):
        session.show(["4C", "6S", "6H", "7C"])
    session.show(["4H", "4C", "6S", "6H"])  # the card Ben laid is his own
    with pytest.raises(EntryError, match="6S is already in Ben's hand"):
        session.show(["AS", "6S", "5C", "TC"])  # no card is in two hands
    session.show(["AS", "2S", "5C", "TC"])
    session.show(["KH", "KS", "QH", "QS"])
    session.peg_by("cards")     # between deals: the next deal is entered card by card
    session.discard()
    session.cut("2H")
    session.lay("3C")
    assert session.view().count == 3 and session.view().pegging == "cards"


def test_a_hand_typed_at_the_show_cannot_hold_a_card_of_the_crib():
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ann", pegging="points")
    session.discard([["AH", "2C"], ["3S", "KH"]])
    session.cut("5D")
    session.play_done()
    with pytest.raises(EntryError, match="AH is already in the crib"):
        session.show(["AH", "4C", "6S", "6H"])
    session.show(BEN_HAND)
    session.show(ANN_HAND)
    assert session.view().next_show.cards == tuple(CRIB)  # the crib is the discards, not a hand typed


def test_pegging_out_by_points_ends_the_game_in_the_play():
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ann", short=True, pegging="points")
    session.discard()
    session.cut("5D")
    for _ in range(4):
        session.peg("Ben", 15)
    session.peg("Ben", 2)
    view = session.view()
    assert view.phase == "match over" and view.scores[1] == 61 and view.result.winner == 1


def test_the_mode_is_kept_in_the_first_entry_and_older_journals_read_as_cards():
    session = GameSession.new(["Ann", "Ben"], "acc", pegging="points")
    first = session.journal[0].as_json()
    assert first["pegging"] == "points"
    older = dict(first)
    del older["pegging"]
    assert entry_from_json(older).pegging is None
    assert GameSession([entry_from_json(older)]).view().pegging == "cards"
    with pytest.raises(EntryError, match="pegging: expected one of cards, points, got 'pips'"):
        entry_from_json(dict(first, pegging="pips"))
    with pytest.raises(EntryError, match="pegging: expected one of cards, points"):
        GameSession.new(["Ann", "Ben"], "acc", pegging="pips")
    assert isinstance(session.journal[0], NewGame)


def test_points_pegged_count_in_the_players_pegging_average(data_folder):
    session = points_game(store=Store())
    session.peg("Ann", 3)
    session.peg("Ben", 4)
    session.play_done()
    for hand in (BEN_HAND, ANN_HAND, CRIB):
        session.show(hand)
    session.close()
    stats = {s.player: s for s in collect(Store())}
    assert stats["Ann"].play_points == 3 and stats["Ben"].play_points == 4
    assert stats["Ann"].average_pegging == 3.0
