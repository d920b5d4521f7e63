"""The state machine deal by deal: turns, pegs, claims, muggins time limits, penalties, the end."""

import pytest

from companion.game import EntryError, GameSession, RedoPendingError
from companion.game.view import NextShow
from companion.rules import Card, score


def two(rules="acc", **kw):
    return GameSession.new(["Ann", "Ben"], rules, first_dealer="Ann", **kw)


def source_001_deal(session):
    # RULES source 001's play, with Ann dealing: Ben (pone) holds TH 5S 7C 8S, Ann 5H 5C 6D JD.
    session.discard([["2C", "3C"], ["KH", "QH"]])
    session.cut("4D")
    for card in "TH 5H 5S 5C".split():
        session.lay(card)
    session.go()
    for card in "6D 7C JD 8S".split():
        session.lay(card)


def test_play_pegs_like_source_001_and_pegs_leapfrog():
    session = two()
    source_001_deal(session)
    view = session.view()
    # "You pegged 10, North 3": Ann (dealer) 10, Ben 3
    assert view.scores == (10, 3)
    assert view.phase == "show" and view.to_act == 1  # pone counts first
    assert view.pegs == ((10, 8), (3, 2))  # Ann: 2, 8, 10 ; Ben: 2, 3
    assert [p.points for p in view.play] == [0, 2, 2, 6, 0, 2, 0, 0, 1]


def test_show_order_pone_dealer_crib_and_proposals():
    session = two()
    source_001_deal(session)
    starter = Card.parse("4D")
    ben = score([Card.parse(c) for c in "TH 5S 7C 8S".split()], starter).total
    assert session.view().next_show.proposal.total == ben
    session.show()
    assert session.view().next_show == NextShow(0, "hand", ("5H", "5C", "6D", "JD"), session.view().next_show.proposal)
    session.show(["JD", "6D", "5C", "5H"])  # typed in any order
    crib = score([Card.parse(c) for c in "2C 3C KH QH".split()], starter, crib=True).total
    assert session.view().next_show.kind == "crib"
    session.show()
    assert session.view().scores == (10 + 17 + crib, 3 + ben)  # 5 5 6 J + 4D with nob = 17
    assert session.view().phase == "discard"


def test_cards_that_contradict_the_play_are_refused_and_nothing_changes():
    session = two()
    source_001_deal(session)
    before = session.view()
    with pytest.raises(EntryError, match="hand was TH 5S 7C 8S"):
        session.show(["TH", "5S", "7C", "9S"])
    with pytest.raises(EntryError, match="4 distinct cards"):
        session.show(["TH", "TH", "7C", "8S"])
    assert session.view() == before
    assert len(session.journal) == 1 + 1 + 1 + 9


def test_wrong_turn_and_bad_cards_name_the_problem():
    session = two()
    with pytest.raises(EntryError, match="the game is at the discard"):
        session.lay("5H")
    with pytest.raises(EntryError, match="each player discards 2"):
        session.discard([["2C"], ["KH", "QH"]])
    session.discard([["2C", "3C"], ["KH", "QH"]])
    with pytest.raises(EntryError, match="2C is already in the crib"):
        session.cut("2C")
    session.cut("4D")
    with pytest.raises(EntryError, match="over 31"):
        for card in ("KS", "QS", "JS", "TS"):
            session.lay(card)
    assert session.view().count == 30


def test_his_heels_pegs_2_at_the_cut_and_is_never_mugginsable():
    session = two({"preset": "acc", "muggins": "optional"})
    session.discard([["2C", "3C"], ["KH", "QH"]])
    session.cut("JS", heels=0)  # Ann forgets
    view = session.view()
    assert view.scores == (0, 0) and view.offers == ()
    assert "never mugginsable" in view.log[-1].text
    with pytest.raises(EntryError, match="no open muggins offer"):
        session.muggins("Ben")


def test_heels_with_muggins_off_is_pegged_and_an_overclaim_goes_back():
    session = two()
    session.discard([["2C", "3C"], ["KH", "QH"]])
    session.cut("JS", heels=0)
    assert session.view().scores == (2, 0)
    session.lay("5H", claim=2)  # Ben claims 2 for a 5: nothing
    assert session.view().scores == (2, 0)
    assert "2 too many, corrected (no penalty)" in session.view().log[-1].text


def test_play_muggins_expires_when_the_scorer_pegs_again():
    session = two({"preset": "acc", "muggins": "optional"})
    session.discard([["2C", "3C"], ["KH", "QH"]])
    session.cut("4D")
    session.lay("TH")          # Ben
    session.lay("5H", claim=0)  # Ann makes 15, claims nothing: 2 on offer
    offer = session.view().offers[0]
    assert offer.points == 2 and offer.callers == (1,) and offer.kind == "play"
    session.lay("5S")          # Ben pairs: 2 (Ben pegs: Ann's offer stays, she has not pegged)
    assert len(session.view().offers) == 1
    session.lay("5C")          # Ann: pair royal, 6: she pegs again, the offer is gone
    assert session.view().offers == ()
    with pytest.raises(EntryError, match="no open muggins offer"):
        session.muggins("Ben", offer.entry)
    assert session.view().scores == (6, 2)


def test_show_muggins_taken_before_the_next_deal_but_not_after():
    session = two({"preset": "acc", "muggins": "optional"})
    source_001_deal(session)
    session.show(claim=0)           # Ben misses his whole hand
    ben_hand = session.view().log[-1].entitled
    session.show()
    session.show()
    offer = session.view().offers[0]
    assert offer.points == ben_hand and offer.kind == "hand"
    session.muggins("Ann")
    assert session.view().log[-1].text.startswith(f"muggins: Ann takes {ben_hand} missed by Ben")
    # a second miss, then the next deal starts: the offer is gone
    session.discard([["2D", "3D"], ["KS", "QS"]])
    assert session.view().offers == ()


def test_declined_muggins_is_lost_and_muggins_by_the_scorer_refused():
    session = two({"preset": "acc", "muggins": "optional"})
    source_001_deal(session)
    session.show(claim=1)
    with pytest.raises(EntryError, match="may not call muggins on Ben"):
        session.muggins("Ben")
    session.decline()
    assert session.view().offers == () and "are lost" in session.view().log[-1].text
    assert session.view().scores[1] == 3 + 1


def test_muggins_off_corrects_an_underclaim_to_the_right_count():
    session = two()
    source_001_deal(session)
    session.show(claim=1)
    line = session.view().log[-1]
    assert line.points == line.entitled and "muggins is off" in line.text


def test_mandatory_muggins_goes_to_the_opponent_at_once():
    session = two("pub")
    source_001_deal(session)
    session.show(claim=1)
    line = session.view().log[-1]
    assert line.kind == "muggins" and line.side == 0 and "mandatory" in line.text


def test_penalties_peg_the_opponent_and_move_the_offender_back():
    session = two()
    source_001_deal(session)  # Ann 10, Ben 3
    session.penalty("renege", "Ben", cards=2)
    assert session.view().scores == (14, 3)
    session.penalty("wrong-deal-unconfirmed", "Ann")
    assert session.view().scores == (4, 3)
    assert session.view().pegs[0] == (4, 3)  # the front peg goes back; the back peg just behind it
    session.penalty("false-game-claim", "Ben", overclaim=5)
    assert session.view().scores == (9, 0) and session.view().pegs[1] == (0, 0)
    with pytest.raises(EntryError, match="unknown penalty"):
        session.penalty("cheating", "Ben")


def test_three_players_need_the_opponent_named_for_a_penalty():
    session = GameSession.new(["Ann", "Ben", "Cat"], first_dealer=2)
    with pytest.raises(EntryError, match="name the opponent"):
        session.penalty("bottom-card", "Ann")
    session.penalty("bottom-card", "Ann", opponent="Cat")
    assert session.view().scores == (0, 0, 2)


def test_three_player_deal_takes_a_blind_card_and_pone_leads():
    session = GameSession.new(["Ann", "Ben", "Cat"], first_dealer="Cat")
    with pytest.raises(EntryError, match="blind card"):
        session.discard([["2C"], ["3C"], ["4C"]])
    session.discard([["2C"], ["3C"], ["4C"]], blind="5C")
    assert session.game.deal.crib == tuple(Card.parse(c) for c in ("2C", "3C", "4C", "5C"))
    session.cut("KD")
    assert session.view().to_act == 0  # left of Cat (seat 2) is Ann (seat 0)


def test_four_players_share_a_score_per_partnership():
    session = GameSession.new(["Ann", "Ben", "Cat", "Dan"], first_dealer="Dan")
    assert session.view().sides == ((0, 2), (1, 3)) and session.view().side_names == ("Ann & Cat", "Ben & Dan")
    session.discard([["2C"], ["3C"], ["4C"], ["6C"]])
    session.cut("KD")
    session.lay("5H")   # Ann
    session.lay("TH")   # Ben: 15 for Ben & Dan
    assert session.view().scores == (0, 2)
    assert session.view().board.pegs == ((0, 0), (2, 0))


def test_first_dealer_by_cut_lowest_card_deals():
    session = GameSession.new(["Ann", "Ben"], dealer_cut=["9H", "3S"])
    assert session.game.first_dealer == 1
    with pytest.raises(EntryError, match="tie"):
        GameSession.new(["Ann", "Ben"], dealer_cut=["9H", "9S"])
    with pytest.raises(EntryError, match="lowest card cut"):
        GameSession.new(["Ann", "Ben"], dealer_cut=["9H", "3S"], first_dealer="Ann")


def test_undo_and_redo_and_no_silent_loss():
    session = two()
    source_001_deal(session)
    session.undo()
    session.undo()
    assert session.view().scores == (10, 2) and session.view().can_redo == 2
    with pytest.raises(RedoPendingError, match="2 undone entries"):
        session.lay("9S")
    session.redo()
    assert session.view().can_redo == 1
    assert session.forget_undone() == 1
    session.lay("8S")
    assert session.view().scores == (10, 3)
    journal_kinds = [e.TYPE for e in session.journal]
    assert journal_kinds.count("undo") == 2 and "forget-undone" in journal_kinds


def test_undo_back_to_the_start_and_not_beyond():
    session = two()
    source_001_deal(session)
    while session.view().can_undo:
        session.undo()
    assert session.view().phase == "discard" and session.view().scores == (0, 0)
    with pytest.raises(EntryError, match="nothing to undo"):
        session.undo()


def test_listeners_get_every_change_and_a_broken_listener_does_not_stop_the_game():
    session = two()
    seen = []
    session.subscribe(lambda view: seen.append(view.scores))
    session.subscribe(lambda view: 1 / 0)
    source_001_deal(session)
    session.undo()
    assert len(seen) == 12 and seen[-2] == (10, 3) and seen[-1] == (10, 2)


def test_lowball_refused_for_three_players():
    with pytest.raises(EntryError, match="lowball"):
        GameSession.new(["Ann", "Ben", "Cat"], {"preset": "acc", "lowball": True})
