"""What the game questions instead of taking silently: a go that can never be right (the terminal
asks, 'go!' insists), and a card of the deal that the players correct (a photo disagreed)."""

import io

import pytest

from companion.game import GameSession
from companion.game.errors import EntryError
from companion.game.terminal import Terminal
from companion.rules.cards import DECK


def ann_leads():
    """Ann and Ben, Ben deals: Ann is the pone and leads; the hands are not typed."""
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ben")
    session.discard(None)
    session.cut("6S")
    return session


def terminal(session, moves):
    out = io.StringIO()
    Terminal(session, io.StringIO("\n".join(moves) + "\n"), out).run()
    return out.getvalue()


def test_a_go_at_count_5_holding_three_cards_is_questioned_and_not_recorded():
    session = ann_leads()
    said = terminal(session, ["2H", "3C", "go"])
    assert ("question: Ann says go holding 3 cards at count 5: any card fits (31 - 5 = 26, and no card "
            "is worth more than 10): a go cannot be right here. Lay a card, or type 'go!'") in said
    view = session.view()
    assert [p.card for p in view.play] == ["2H", "3C"] and view.to_act == 0  # still Ann's turn


def test_go_bang_records_the_questioned_go_as_said():
    session = ann_leads()
    said = terminal(session, ["2H", "3C", "go", "go!"])
    assert "question:" in said
    view = session.view()
    assert [p.card for p in view.play] == ["2H", "3C", "go"] and view.to_act == 1
    assert view.reneges  # the rules core counts it a renege: a penalty may be recorded


@pytest.mark.parametrize("plays, questioned", [
    (["TH", "JC"], True),          # count 20: any card fits
    (["TH", "8C", "3D"], True),    # count 21, Ben holds 2: still any card fits
    (["TH", "JC", "2D"], False),   # count 22, Ben holds 3: he may hold three tens
    (["TH", "JC", "9D"], False),   # count 29
])
def test_a_go_is_questioned_exactly_when_no_hand_could_make_it_right(plays, questioned):
    session = ann_leads()
    for card in plays:
        session.lay(card)
    assert (session.go_doubt() is not None) == questioned
    assert (session.view().players[session.view().to_act]) == ("Ben" if len(plays) % 2 else "Ann")


def test_correcting_the_cut_plays_the_deal_again_with_the_new_starter():
    session = ann_leads()
    for card in ["7C", "JC", "AH", "AS", "5D", "3H", "4D", "KD"]:
        session.lay(card)
    before = list(session.journal)
    seen = []
    session.subscribe(seen.append)
    again = session.correct_card("6S", "KS")
    assert again == 10 and session.view().starter == "KS"
    assert [p.card for p in session.view().play] == ["7C", "JC", "AH", "AS", "5D", "3H", "4D", "KD"]
    assert session.journal[:len(before)] == before  # nothing taken out: undone, forgotten, recorded again
    assert [e.TYPE for e in session.journal[len(before):]].count("undo") == 10
    assert len(seen) == 1  # the screens hear of it once


def test_a_correction_that_does_not_play_is_refused_and_changes_nothing():
    session = ann_leads()
    session.lay("7C")
    journal = list(session.journal)
    with pytest.raises(EntryError, match="with 7C for 6S the deal does not play"):
        session.correct_card("6S", "7C")
    with pytest.raises(EntryError, match="2C is not among this deal's cards"):
        session.correct_card("2C", "3C")
    assert session.journal == journal and session.view().starter == "6S"


def test_a_photographed_hand_one_card_off_the_play_offers_both_ways():
    from companion.game.photo_check import photo_conflicts

    session = ann_leads()  # Ann leads; the play ends with every card laid
    for card in ["7C", "JC", "AH", "AS", "5D", "3H", "4D", "KD"]:
        session.lay(card)
    view = session.view()
    assert view.next_show.seat == 0 and view.next_show.cards == ("7C", "AH", "5D", "4D")
    photo = ["7C", "AH", "5H", "4D"]  # the photo has 5H where the play recorded 5D
    (conflict,) = photo_conflicts(view, None, photo)
    assert (conflict.photo_card, conflict.game_card) == ("5H", "5D")
    assert conflict.text == "The photo shows 5H in Ann's hand, but the game has 5D (in the play)."
    assert photo_conflicts(view, None, view.next_show.cards) == ()  # agreeing: nothing to ask
    session.correct_card(conflict.game_card, conflict.photo_card)  # the photo's card stands
    assert session.view().next_show.cards == tuple(photo) and photo_conflicts(session.view(), None, photo) == ()


def test_a_questioned_go_near_31_names_the_cards_that_fit():
    """At count 25 a card fits only if it is worth 6 or less; when so many big cards are seen that
    the player must hold a small one, the question names it (the terminal and the app say the same)."""
    session = ann_leads()
    for played in ["TH", "JC", "5D"]:
        session.lay(played)
    assert session.go_doubt() is None  # Ben may hold three big cards
    deal = session.game.deal
    big = [c for c in DECK if c.value > 6 and c not in deal.seen]
    deal.seen.update({c: "in a test" for c in big[2:]})  # only two big cards left unseen; Ben holds 3
    assert session.go_doubt() == ("Ben says go holding 3 cards at count 25: only 2 cards not yet seen are "
                                  "worth more than 6 (31 - 25), so one of them fits (a card from ace to 6): "
                                  "a go cannot be right here")
