"""The review of a recognised photo as plain data: what is flagged, corrections, moves, and
nothing counted while a flagged card is left."""

import pytest

from companion.ui.review import CRIB, IGNORED, STARTER, Place, Review, ReviewError, hand
from companion.ui import present
from vision import CardGroup, RecognizedCard, Recognition, Role


def recognition(unread=(), runner_up="2H", alternatives=()):
    """Hand 9H 6D QH 5C, starter AD: 6; as 9H 6D 2H 5C: 4; QH unsure (``runner_up``)."""
    cards = (RecognizedCard("9H", 0.9, (0, 0, 10, 10)), RecognizedCard("6D", 0.9, (10, 0, 20, 10)),
             RecognizedCard("QH", 0.3, (20, 0, 30, 10), confirm=True, runner_up=runner_up, alternatives=alternatives),
             RecognizedCard("5C", 0.9, (30, 0, 40, 10)), RecognizedCard("AD", 0.95, (50, 50, 60, 60)))
    groups = (CardGroup(Role.HAND, ("9H", "6D", "QH", "5C")), CardGroup(Role.STARTER, ("AD",)))
    return Recognition("photo.jpg", 100, 100, cards, groups, (), {}, tuple(unread))


def test_an_unsure_card_blocks_the_count_until_confirmed():
    review = Review(recognition())
    assert review.problems() == ["read as Q\u2665, 30 % sure, or 2\u2665: hand 1 counts 6, or 4 if it is 2\u2665: "
                                 "tap to confirm or correct"]
    with pytest.raises(ReviewError, match="1 card"):
        review.recognition()
    review.confirm(2)
    result = review.recognition()
    assert [g.cards for g in result.groups] == [("9H", "6D", "QH", "5C"), ("AD",)]
    assert not any(c.confirm for c in result.cards)


def test_an_unsure_card_that_counts_the_same_either_way_is_marked_not_asked():
    review = Review(recognition(runner_up="TH"))  # a ten either way: 6
    assert review.problems() == [] and review.flagged(2) is None
    assert review.marked(2) == "Q\u2665 or 10\u2665: 6 either way"
    result = review.recognition()  # counted as read, the QH still flagged: unconfirmed
    assert [c.card for c in result.cards if c.confirm] == ["QH"]
    review.confirm(2)
    assert review.marked(2) is None and not any(c.confirm for c in review.recognition().cards)


def test_the_cards_that_change_a_count_most_are_asked_first_and_one_tap_keeps_the_rest():
    cards = (RecognizedCard("9H", 0.5, (0, 0, 10, 10), True, "9S"),      # 9H or 9S: the same count
             RecognizedCard("6D", 0.5, (10, 0, 20, 10), True, "5D"),     # 6D or 5D: 6, or 10
             RecognizedCard("QH", 0.3, (20, 0, 30, 10), True, "2H"),     # QH or 2H: 6, or 4
             RecognizedCard("5C", 0.9, (30, 0, 40, 10)), RecognizedCard("AD", 0.95, (50, 50, 60, 60)))
    groups = (CardGroup(Role.HAND, ("9H", "6D", "QH", "5C")), CardGroup(Role.STARTER, ("AD",)))
    review = Review(Recognition("photo.jpg", 100, 100, cards, groups, (), {}, ()))
    assert [p.split(": ", 1)[1] for p in review.problems()] == [
        "hand 1 counts 6, or 10 if it is 5\u2666: tap to confirm or correct",  # by 4
        "hand 1 counts 6, or 4 if it is 2\u2665: tap to confirm or correct"]   # by 2
    assert review.marked(0) == "9\u2665 or 9\u2660: 6 either way"
    review.confirm(1)  # the first answered, the rest kept as read in one tap
    assert review.rest() == [0, 2] and review.accept_rest() == 2
    assert review.problems() == [] and review.marked(0) is None
    result = review.recognition()
    assert [c.card for c in result.cards if c.confirm] == ["9H", "QH"]  # kept as read: unconfirmed


def test_a_card_read_twice_says_which_read_is_likelier_wrong():
    cards = (RecognizedCard("9H", 0.9, (0, 0, 10, 10)), RecognizedCard("6D", 0.9, (10, 0, 20, 10)),
             RecognizedCard("QH", 0.9, (20, 0, 30, 10)), RecognizedCard("5C", 0.9, (30, 0, 40, 10)),
             RecognizedCard("AD", 0.95, (50, 50, 60, 60)),
             RecognizedCard("9H", 0.2, (70, 0, 80, 10), True, "9D", alternatives=(("9D", 0.5), ("6H", 0.2))))
    groups = (CardGroup(Role.HAND, ("9H", "6D", "QH", "5C")), CardGroup(Role.STARTER, ("AD",)))
    review = Review(Recognition("photo.jpg", 100, 100, cards, groups, (), {}, ()))
    assert review.flagged(5) == "9\u2665 read twice: this one is likelier wrong (20 % sure); it may be 9\u2666 or 6\u2665; correct it"
    assert review.flagged(0) == "9\u2665 read twice: the other is likelier wrong; correct it, or this one"
    review.correct(5, "9D")
    assert review.problems() == []


def test_a_correction_and_a_duplicate():
    review = Review(recognition())
    review.correct(2, "6D")   # now 6D twice: both flagged
    assert review.duplicates() == {"6D"} and len(review.problems()) == 2
    review.correct(2, "qs")
    assert review.cards[2].code == "QS" and review.cards[2].read_as == "QH" and not review.problems()
    assert review.groups()[hand(1)] == ["9H", "6D", "QS", "5C"]


def test_unread_cards_are_named_or_left_out_and_roles_move():
    review = Review(recognition(unread=[(70, 70, 80, 80)]))
    assert "unread" in review.problems()[-1]
    with pytest.raises(ReviewError):
        review.confirm(5)
    review.move(5, IGNORED)
    review.confirm(2)
    review.confirm(4)  # the starter, chosen while a card was unread
    assert not review.problems()
    review.move(0, STARTER)  # one starter only: the old one goes back to the unknown cards
    assert review.groups()[STARTER] == ["9H"] and review.groups()[Place.of(Role.UNKNOWN, 1)] == ["AD"]
    review.move(1, CRIB)
    roles = [g.role for g in review.recognition().groups]
    assert roles == [Role.HAND, Role.CRIB, Role.STARTER, Role.UNKNOWN]


def test_the_missed_items_named_for_muggins():
    items = [{"kind": "fifteen", "cards": ["7H", "8S"], "points": 2},
             {"kind": "pair", "cards": ["8S", "8D"], "points": 2},
             {"kind": "run", "cards": ["6C", "7H", "8S"], "points": 3}]
    assert present.missed_items(items, 3) == [items[2]]
    assert present.missed_items(items, 2) == [items[1]]   # the one counted last
    assert present.missed_items(items, 5) == [items[1], items[2]]
    assert present.missed_items(items, 1) == []
    assert present.item_words(items[0]) == "fifteen 7♥+8♠"  # with suits: 5 5 5 J has four fifteens 5+J
